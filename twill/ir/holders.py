"""Which threads hold each element of a distributed tensor, from its TTGIR layout, and so whether a layout
conversion moves data between threads. Triton lowers ``ttg.convert_layout`` between two layouts whose threads hold
the same elements (the registers in another order, or two spellings of one layout: a ``#blocked`` and the
``#linear`` a reshape gives it) to register moves, and any other through shared memory (or lane shuffles).

Blocked layouts, linear layouts and slices of either are read; any other (an MMA accumulator, a dot operand, AMD's)
gives None: not known, so a conversion to or from one is taken to move its data.

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
from __future__ import annotations

import itertools
import re

from twill.ir.layouts import aliases
from twill.ir.ttgir import type_info

Holders = dict[tuple[int, ...], frozenset[tuple[int, int]]]
_LIST = r"\[([\d,\s]*)\]"
_PARENT = re.compile(r"parent\s*=\s*(#[^,}>]+(?:<.*>)?)\s*}>$")
_TENSOR = re.compile(r"tensor<((?:\d+x)+)[^,]+,\s*(.+)>$")
_CONVERT = re.compile(r"=\s*ttg\.convert_layout\s+%[\w#.]+\s*(?:\{[^}]*\}\s*)?:\s*(tensor<.*?>)\s*->\s*(tensor<.*?>)"
                      r"(?:\s*loc\(|\s*$)")
MAX_ELEMENTS = 1 << 17     # larger tensors are not enumerated: not known


def _ints(attr: str, body: str) -> list[int] | None:
    m = re.search(attr + r"\s*=\s*" + _LIST, body)
    return [int(x) for x in m.group(1).split(",") if x.strip()] if m else None


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
    if len(out) != _size(shape):
        return None
    return {c: frozenset(v) for c, v in out.items()}


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


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
    if _size(shape) > MAX_ELEMENTS:
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
    between threads: True unless both layouts are read here and every element is held by the same threads."""
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
