"""Where a distributed tensor's elements live, from its TTGIR layout: per dimension, the elements one thread holds,
the lanes and the warps that hold distinct ones. What a reduction along an axis costs depends on it (Triton's
``ReduceOpToLLVM``): the thread's own elements first, then a shuffle round per halving of the lanes along the axis,
then, where warps lie along it, an exchange through shared memory between two barriers (run 161-162,
``bench/reduce_exchange.py``).

Blocked layouts, NVIDIA MMA accumulators (v2 and v3) and slices of either are read; any other layout (linear,
AMD's, a dot operand's) gives None. The cost model prices the spread only where the machine file switches it on
(``reduce_layout_cost``, off in the shipped files: run 163); otherwise it keeps its layout-free estimate.

Which threads hold each element (``holders``) tells whether a layout conversion moves data (``moves_data``,
``converted_bytes``): the Gluon route keeps a kernel's layouts as specialised where those of its integers assumed
16-divisible would make its loop's conversions move more (``pipeline._converted``).
"""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

from twill.ir.ttgir import type_info

_ALIAS = re.compile(r"^(#[\w.]+)\s*=\s*(#ttg\.[\w]+<.*>)\s*$")
_LIST = r"\[([\d,\s]*)\]"
_TENSOR = re.compile(r"tensor<((?:\d+x)+)[^,]+,\s*(.+)>$")
_PARENT = re.compile(r"parent\s*=\s*(#[^,}>]+(?:<.*>)?)\s*}>$")


@dataclass(frozen=True)
class AxisSpread:
    """How a tensor's elements along one axis spread, and what a reduction along it leaves each thread.

    ``thread``: the elements of the axis one thread holds (combined in the thread first); ``lanes``: the lanes
    holding distinct elements along it (log2 of it shuffle rounds); ``warps``: the warps (more than one: an
    exchange through shared memory); ``outputs``: the results one thread holds after the reduction; ``cta_warps``:
    the warps the layout spans in all; ``kind``: ``blocked`` or ``mma`` (an MMA accumulator), a slice's its
    parent's."""

    thread: int
    lanes: int
    warps: int
    outputs: int
    cta_warps: int = 1
    kind: str = "blocked"


def aliases(text: str) -> dict[str, str]:
    """The module's distributed layouts' aliases (``#blocked1 = #ttg.blocked<{...}>``), by name (not the shared
    ones)."""
    out = {}
    for line in text.splitlines():
        if line.startswith("#") and (m := _ALIAS.match(line.strip())) and "shared<" not in m.group(2):
            out[m.group(1)] = m.group(2)
    return out


def _ints(attr: str, body: str) -> list[int] | None:
    m = re.search(attr + r"\s*=\s*" + _LIST, body)
    return [int(x) for x in m.group(1).split(",") if x.strip()] if m else None


def _root(layout: str, table: dict[str, str]) -> str:
    """``layout`` itself, or a slice's parent's, aliases resolved."""
    layout = table.get(layout, layout)
    parent = _PARENT.search(layout) if layout.startswith("#ttg.slice<") else None
    return _root(parent.group(1).strip(), table) if parent else layout


def _cta_warps(layout: str, table: dict[str, str]) -> int:
    """The warps ``layout`` (or its slice's parent) spans."""
    return math.prod(_ints("warpsPerCTA", _root(layout, table)) or [1])


def _per_dim(layout: str, shape: tuple[int, ...], table: dict[str, str]) -> list[tuple[int, int, int]] | None:
    """Per dimension of ``shape``: (elements a thread holds, distinct lanes, distinct warps) under ``layout``."""
    layout = table.get(layout, layout)
    if layout.startswith("#ttg.slice<"):
        dim = re.search(r"dim\s*=\s*(\d+)", layout)
        parent = _PARENT.search(layout)
        if not dim or not parent:
            return None
        d = int(dim.group(1))
        full = _per_dim(parent.group(1).strip(), shape[:d] + (1,) + shape[d:], table)
        return None if full is None else full[:d] + full[d + 1:]
    if layout.startswith("#ttg.blocked<"):
        spt, tpw, wpc = (_ints(k, layout) for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA"))
        if not spt or not tpw or not wpc or not len(spt) == len(tpw) == len(wpc) == len(shape):
            return None
        out = []
        for s, e, t, w in zip(shape, spt, tpw, wpc):
            lanes = max(1, min(t, s // e)) if s >= e else 1
            warps = max(1, min(w, s // (e * t))) if s >= e * t else 1
            out.append((max(e, s // (e * t * w) * e) if s >= e else s, lanes, warps))
        return out
    if layout.startswith("#ttg.nvidia_mma<"):
        major = re.search(r"versionMajor\s*=\s*(\d+)", layout)
        wpc, instr = _ints("warpsPerCTA", layout), _ints("instrShape", layout)
        if not major or not wpc or len(wpc) != 2 or len(shape) != 2:
            return None
        n = instr[1] if major.group(1) == "3" and instr and len(instr) > 1 else 8
        rows = max(1, shape[0] // (16 * wpc[0]))
        cols = max(1, shape[1] // (n * wpc[1]))
        # a warp's 16 x n: 8 lanes along the rows (2 rows each), 4 along the columns (2 columns of each 8)
        return [(2 * rows, 8, max(1, min(wpc[0], shape[0] // 16))),
                (n // 4 * cols, 4, max(1, min(wpc[1], shape[1] // n)))]
    return None


def axis_spread(tensor_type: str, axis: int, table: dict[str, str]) -> AxisSpread | None:
    """How ``tensor_type`` (``tensor<64x128xf32, #blocked>``) spreads along ``axis`` under the module's layout
    ``table`` (``aliases``); None for a layout this module does not read.

    Examples
    --------
    >>> t = {"#b": "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], "
    ...             "order = [1, 0]}>"}
    >>> axis_spread("tensor<64x128xf32, #b>", 1, t)
    AxisSpread(thread=4, lanes=32, warps=1, outputs=16, cta_warps=4, kind='blocked')
    >>> axis_spread("tensor<64x128xf32, #b>", 0, t)
    AxisSpread(thread=16, lanes=1, warps=4, outputs=4, cta_warps=4, kind='blocked')
    """
    m = _TENSOR.match(tensor_type.strip())
    if not m:
        return None
    shape = tuple(int(x) for x in m.group(1).rstrip("x").split("x"))
    dims = _per_dim(m.group(2).strip(), shape, table)
    if dims is None or not 0 <= axis < len(dims):
        return None
    thread, lanes, warps = dims[axis]
    outputs = math.prod(d[0] for i, d in enumerate(dims) if i != axis)
    return AxisSpread(thread, lanes, warps, outputs, _cta_warps(m.group(2).strip(), table),
                      "mma" if "nvidia_mma" in _root(m.group(2).strip(), table) else "blocked")


# -- which threads hold each element ------------------------------------------------------------
# Which threads hold each element of a distributed tensor, from its TTGIR layout, and so whether a layout
# conversion moves data between threads. Triton lowers ``ttg.convert_layout`` between two layouts whose threads hold
# the same elements (the registers in another order, or two spellings of one layout: a ``#blocked`` and the
# ``#linear`` a reshape gives it) to register moves, and any other through shared memory (or lane shuffles).
#
# Blocked layouts, linear layouts and slices of either are read; any other (an MMA accumulator, a dot operand, AMD's)
# gives None: not known, so a conversion to or from one is taken to move its data.

Holders = dict[tuple[int, ...], frozenset[tuple[int, int]]]
_CONVERT = re.compile(r"=\s*ttg\.convert_layout\s+%[\w#.]+\s*(?:\{[^}]*\}\s*)?:\s*(tensor<.*?>)\s*->\s*(tensor<.*?>)"
                      r"(?:\s*loc\(|\s*$)")
MAX_ELEMENTS = 1 << 17     # larger tensors are not enumerated: not known


def _bases(attr: str, body: str) -> list[tuple[int, ...]] | None:
    m = re.search(attr + r"\s*=\s*\[((?:\s*\[[\d,\s]*\]\s*,?)*)\]", body)
    if m is None:
        return None
    return [tuple(int(x) for x in b.split(",") if x.strip()) for b in re.findall(r"\[([\d,\s]*)\]", m.group(1))]


def _linear_id(coords: tuple[int, ...], sizes: list[int], order: list[int]) -> int:
    """A lane's (or warp's) index from its coordinate per dimension, ``order[0]`` fastest."""
    out, scale = 0, 1
    for d in order:
        out += coords[d] * scale
        scale *= sizes[d]
    return out


def _blocked(body: str, shape: tuple[int, ...]) -> Holders | None:
    spt, tpw, wpc, order = (_ints(k, body) for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"))
    if not spt or not tpw or not wpc or not order or not len(spt) == len(tpw) == len(wpc) == len(order) == len(shape):
        return None
    per_dim: list[list[list[tuple[int, int]]]] = []      # per dim, per coordinate: its (lane, warp) coordinates
    for n, e, t, w in zip(shape, spt, tpw, wpc):
        tile = e * t * w
        per_dim.append([[((p // e) % t, (p // (e * t)) % w) for p in (range(c, tile, n) if n < tile else (c % tile,))]
                        for c in range(n)])
    out: Holders = {}
    for coord in itertools.product(*(range(n) for n in shape)):
        held = set()
        for choice in itertools.product(*(per_dim[d][c] for d, c in enumerate(coord))):
            held.add((_linear_id(tuple(x[0] for x in choice), tpw, order),
                      _linear_id(tuple(x[1] for x in choice), wpc, order)))
        out[coord] = frozenset(held)
    return out


def _linear(body: str, shape: tuple[int, ...]) -> Holders | None:
    reg, lane, warp = (_bases(k, body) for k in ("register", "lane", "warp"))
    if reg is None or lane is None or warp is None or any(len(b) != len(shape) for b in reg + lane + warp):
        return None
    out: dict[tuple[int, ...], set[tuple[int, int]]] = {}

    def span(bases: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
        vals = [tuple(0 for _ in shape)]
        for b in bases:
            vals += [tuple(x ^ y for x, y in zip(v, b)) for v in vals]
        return vals
    regs = span(reg)
    for li, lv in enumerate(span(lane)):
        for wi, wv in enumerate(span(warp)):
            for rv in regs:
                c = tuple(a ^ b ^ d for a, b, d in zip(rv, lv, wv))
                if any(x >= n for x, n in zip(c, shape)):
                    return None
                out.setdefault(c, set()).add((li, wi))
    if len(out) != math.prod(shape):
        return None
    return {c: frozenset(v) for c, v in out.items()}


def _extent(layout: str, dim: int, table: dict[str, str]) -> int | None:
    """The elements along ``dim`` one layout tile of ``layout`` spans (a slice's parent's size there)."""
    layout = table.get(layout, layout)
    if layout.startswith("#ttg.blocked<"):
        spt, tpw, wpc = (_ints(k, layout) for k in ("sizePerThread", "threadsPerWarp", "warpsPerCTA"))
        return spt[dim] * tpw[dim] * wpc[dim] if spt and tpw and wpc and dim < len(spt) else None
    if layout.startswith("#ttg.linear<"):
        bases = [b for k in ("register", "lane", "warp") for b in (_bases(k, layout) or [])]
        top = 0
        for b in bases:
            top |= b[dim] if dim < len(b) else 0
        return top + 1
    return None


def holders(layout: str, shape: tuple[int, ...], table: dict[str, str]) -> Holders | None:
    """Per element of a tensor of ``shape`` laid out as ``layout`` (an alias of ``table`` or a layout), the
    (lane, warp) pairs holding it; None for a layout not read here or a tensor too large to enumerate."""
    if math.prod(shape) > MAX_ELEMENTS:
        return None
    layout = table.get(layout, layout)
    if layout.startswith("#ttg.slice<"):
        dim, parent = re.search(r"dim\s*=\s*(\d+)", layout), _PARENT.search(layout)
        if not dim or not parent:
            return None
        d, p = int(dim.group(1)), parent.group(1).strip()
        n = _extent(p, d, table)
        full = holders(p, shape[:d] + (n,) + shape[d:], table) if n else None
        if full is None:
            return None
        out: dict[tuple[int, ...], set[tuple[int, int]]] = {}
        for c, held in full.items():
            out.setdefault(c[:d] + c[d + 1:], set()).update(held)
        return {c: frozenset(v) for c, v in out.items()}
    if layout.startswith("#ttg.blocked<"):
        return _blocked(layout, shape)
    if layout.startswith("#ttg.linear<"):
        return _linear(layout, shape)
    return None


def moves_data(src: str, dst: str, table: dict[str, str]) -> bool:
    """Whether converting a tensor of type ``src`` to ``dst`` (``tensor<64x128xf16, #blocked>``) moves elements
    between threads: True unless both layouts are read here and every element is held by the same threads.

    Examples
    --------
    >>> t = {"#a": "#ttg.blocked<{sizePerThread = [1, 1, 32], threadsPerWarp = [8, 4, 1], warpsPerCTA = [1, 1, 1], "
    ...            "order = [2, 1, 0]}>",
    ...      "#b": "#ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [8, 4, 1], warpsPerCTA = [1, 1, 1], "
    ...            "order = [2, 1, 0]}>",
    ...      "#c": "#ttg.blocked<{sizePerThread = [1, 4, 1], threadsPerWarp = [32, 1, 1], warpsPerCTA = [1, 1, 1], "
    ...            "order = [2, 1, 0]}>"}
    >>> moves_data("tensor<64x4x32xf16, #a>", "tensor<64x4x32xf16, #b>", t)
    False
    >>> moves_data("tensor<64x4x32xf16, #a>", "tensor<64x4x32xf16, #c>", t)
    True
    """
    a, b = _TENSOR.match(src.strip()), _TENSOR.match(dst.strip())
    if not a or not b or a.group(1) != b.group(1):
        return True
    if a.group(2).strip() == b.group(2).strip():
        return False
    shape = tuple(int(x) for x in a.group(1).rstrip("x").split("x"))
    x, y = holders(a.group(2).strip(), shape, table), holders(b.group(2).strip(), shape, table)
    return x is None or y is None or x != y


def converted_bytes(lines: tuple[str, ...] | list[str], text: str) -> int:
    """The bytes the layout conversions among TTGIR ``lines`` move between threads (not those to a dot operand's
    layout), under the layouts of module ``text``."""
    table = aliases(text)
    total = 0
    for line in lines:
        m = _CONVERT.search(line)
        if m and "dot_op" not in line and moves_data(m.group(1), m.group(2), table):
            total += type_info(m.group(1)).bytes
    return total
