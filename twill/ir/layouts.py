"""Where a distributed tensor's elements live, from its TTGIR layout: per dimension, the elements one thread holds,
the lanes and the warps that hold distinct ones. What a reduction along an axis costs depends on it (Triton's
``ReduceOpToLLVM``): the thread's own elements first, then a shuffle round per halving of the lanes along the axis,
then, where warps lie along it, an exchange through shared memory between two barriers (run 161-162,
``bench/reduce_exchange.py``).

Blocked layouts, NVIDIA MMA accumulators (v2 and v3) and slices of either are read; any other layout (linear,
AMD's, a dot operand's) gives None. The cost model prices the spread only where the machine file switches it on
(``reduce_layout_cost``, off in the shipped files: run 163); otherwise it keeps its layout-free estimate.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

_ALIAS = re.compile(r"^(#[\w.]+)\s*=\s*(#ttg\.[\w]+<.*>)\s*$")
_LIST = r"\[([\d,\s]*)\]"
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
    m = re.match(r"tensor<((?:\d+x)+)[^,]+,\s*(.+)>$", tensor_type.strip())
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
