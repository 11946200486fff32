"""TTGIR layouts as Gluon layouts: parsed from the module's attributes, spelled as Gluon source, and
re-derived for a partition that has fewer warps (or a row sub-tile) than the kernel Triton laid out.

Triton chose every layout of the pre-pipeline TTGIR for the kernel's ``num_warps``; a partition of
the generated kernel runs on its own warps (a 4-warp consumer, a 1-warp producer), so its register
tensors need layouts whose warps multiply to that count. ``rewarp`` divides the warps along the
split dimension first (a row sub-tile of a 128-row tile on 8 warps is a 64-row tile on 4 warps with
the same per-warp coverage), then along the others.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from twill.errors import UnsupportedError
from twill.ir.ttgir import split_top


class Layout:
    """A layout attribute; subclasses spell themselves as Gluon source."""

    def spell(self) -> str:
        raise NotImplementedError

    @property
    def warps(self) -> int:
        raise NotImplementedError

    def rewarp(self, warps: int, dim: int | None = 0) -> "Layout":
        raise NotImplementedError


def _split_warps(wpc: list[int], warps: int, dim: int | None) -> list[int]:
    """``wpc`` scaled down to ``warps`` in all: divide the split dimension first, then the others."""
    have = math.prod(wpc)
    if have == warps:
        return list(wpc)
    if have < warps or have % warps:
        raise UnsupportedError("a layout cannot be re-derived for this partition", expected=f"{warps} warps dividing "
                               f"{have}", found=f"warps per CTA {wpc}")
    factor = have // warps
    out = list(wpc)
    order = ([dim] if dim is not None else []) + [d for d in range(len(out)) if d != dim]
    for d in order:
        g = math.gcd(out[d], factor)
        out[d] //= g
        factor //= g
    if factor != 1:
        raise UnsupportedError("a layout cannot be re-derived for this partition", expected=f"{warps} warps",
                               found=f"warps per CTA {wpc}")
    return out


@dataclass(frozen=True)
class Blocked(Layout):
    size_per_thread: tuple[int, ...]
    threads_per_warp: tuple[int, ...]
    warps_per_cta: tuple[int, ...]
    order: tuple[int, ...]

    def spell(self) -> str:
        return (f"gl.BlockedLayout(size_per_thread={list(self.size_per_thread)}, threads_per_warp="
                f"{list(self.threads_per_warp)}, warps_per_cta={list(self.warps_per_cta)}, order={list(self.order)})")

    @property
    def warps(self) -> int:
        return math.prod(self.warps_per_cta)

    def rewarp(self, warps: int, dim: int | None = 0) -> "Blocked":
        return replace(self, warps_per_cta=tuple(_split_warps(list(self.warps_per_cta), warps, dim)))


@dataclass(frozen=True)
class Mma(Layout):
    version: tuple[int, int]
    warps_per_cta: tuple[int, ...]
    instr_shape: tuple[int, ...]

    def spell(self) -> str:
        return (f"gl.NVMMADistributedLayout(version={list(self.version)}, warps_per_cta={list(self.warps_per_cta)}, "
                f"instr_shape={list(self.instr_shape)})")

    @property
    def warps(self) -> int:
        return math.prod(self.warps_per_cta)

    def rewarp(self, warps: int, dim: int | None = 0) -> "Mma":
        """Fewer warps: divided along ``dim`` first; a wgmma layout keeps whole warpgroups (4k warps)
        along the rows, so its columns give way first when the rows would not. A wgmma whose columns lost warps
        takes as many more columns an instruction (to 256), as Triton sizes it for the warps it has: an FA
        backward's dQ, [4, 2] warps of 64-column wgmmas in Triton's kernel, is one warp group's 64 x 128 tile in a
        consumer, and 64-column instructions read its A operand from shared memory twice."""
        tried = []
        for first in ([dim] if dim is not None else []) + [1, 0]:
            wpc = _split_warps(list(self.warps_per_cta), warps, first)
            if self.version[0] != 3 or wpc[0] % 4 == 0:
                shape = self.instr_shape
                if self.version[0] == 3 and len(wpc) == 2 and wpc[1] < self.warps_per_cta[1]:
                    cols = min(256, shape[1] * (self.warps_per_cta[1] // wpc[1]))
                    shape = (shape[0], cols) + tuple(shape[2:])
                return replace(self, warps_per_cta=tuple(wpc), instr_shape=shape)
            tried.append(wpc)
        raise UnsupportedError("a wgmma layout needs whole warpgroups along the rows",
                               expected="warps per CTA [4k, n]", found=str(tried[-1]))


@dataclass(frozen=True)
class Slice(Layout):
    dim: int
    parent: Layout

    def spell(self) -> str:
        return f"gl.SliceLayout({self.dim}, {self.parent.spell()})"

    @property
    def warps(self) -> int:
        return self.parent.warps

    def rewarp(self, warps: int, dim: int | None = 0) -> "Slice":
        # the split dimension of the 1-D slice is a dimension of the parent other than the sliced one
        pdim = None if dim is None else (dim if dim < self.dim else dim + 1)
        return replace(self, parent=self.parent.rewarp(warps, pdim))


@dataclass(frozen=True)
class DotOperand(Layout):
    index: int
    parent: Layout
    k_width: int

    def spell(self) -> str:
        return f"gl.DotOperandLayout(operand_index={self.index}, parent={self.parent.spell()}, k_width={self.k_width})"

    @property
    def warps(self) -> int:
        return self.parent.warps

    def rewarp(self, warps: int, dim: int | None = 0) -> "DotOperand":
        # the operand's rows are the parent's rows (operand 0) and its columns the parent's (operand 1)
        pdim = dim if self.index == 0 or dim is None else (1 if dim == 1 else 0)
        return replace(self, parent=self.parent.rewarp(warps, 0 if self.index == 0 else pdim))


@dataclass(frozen=True)
class Linear(Layout):
    register: tuple
    lane: tuple
    warp: tuple
    block: tuple

    def spell(self, shape: tuple[int, ...] | None = None) -> str:
        dims = len((self.register or self.lane or self.warp)[0])
        if shape is None:
            shape = tuple(max([2 * b[d] for b in self.register + self.lane + self.warp + self.block] + [1])
                          for d in range(dims))
        return (f"gl.DistributedLinearLayout(reg_bases={_lists(self.register)}, lane_bases={_lists(self.lane)}, "
                f"warp_bases={_lists(self.warp)}, block_bases={_lists(self.block)}, shape={list(shape)})")

    @property
    def warps(self) -> int:
        return 2 ** len(self.warp)

    def rewarp(self, warps: int, dim: int | None = 0) -> "Linear":
        """The layout over ``warps`` of its warps: a warp basis moved to the registers (each thread holds the
        elements that warp held), a broadcast one (all zeros) dropped, one along ``dim`` (the split dimension)
        first, as ``_scaled`` divides a blocked layout's (aiter's MoE GEMM: a reshape's linear layout at 8 warps,
        its partitions of 4)."""
        if self.warps == warps:
            return self
        if warps > self.warps or self.warps % warps:
            raise UnsupportedError("a linear layout cannot be re-derived for a partition of more warps",
                                   expected=f"a partition of at most {self.warps} warps (the layout's)",
                                   found=f"a partition of {warps} warps")
        warp, register = list(self.warp), list(self.register)
        while 2 ** len(warp) > warps:
            k = next((i for i, b in enumerate(warp) if not any(b)), None)
            if k is None and dim is not None:
                k = next((i for i in reversed(range(len(warp))) if dim < len(warp[i]) and warp[i][dim]), None)
            b = warp.pop(len(warp) - 1 if k is None else k)
            if any(b):
                register.append(b)
        return replace(self, register=tuple(register), warp=tuple(warp))


@dataclass(frozen=True)
class NvmmaShared(Layout):
    swizzle: int
    bits: int
    transposed: bool
    rank: int = 2

    def spell(self) -> str:
        return (f"gl.NVMMASharedLayout(swizzle_byte_width={self.swizzle}, element_bitwidth={self.bits}, "
                f"rank={self.rank}, transposed={self.transposed})")

    @property
    def warps(self) -> int:
        return 1

    def rewarp(self, warps: int, dim: int | None = 0) -> "NvmmaShared":
        return self


@dataclass(frozen=True)
class SwizzledShared(Layout):
    vec: int
    per_phase: int
    max_phase: int
    order: tuple[int, ...]

    def spell(self) -> str:
        return (f"gl.SwizzledSharedLayout(vec={self.vec}, per_phase={self.per_phase}, max_phase={self.max_phase}, "
                f"order={list(self.order)})")

    @property
    def warps(self) -> int:
        return 1

    def rewarp(self, warps: int, dim: int | None = 0) -> "SwizzledShared":
        return self


@dataclass(frozen=True)
class TensorMemory(Layout):
    block_m: int
    block_n: int
    col_stride: int

    def spell(self) -> str:
        return f"TensorMemoryLayout(block=({self.block_m}, {self.block_n}), col_stride={self.col_stride})"

    @property
    def warps(self) -> int:
        return 1

    def rewarp(self, warps: int, dim: int | None = 0) -> "TensorMemory":
        return self


def _lists(x: tuple) -> list:
    return [list(b) for b in x]


def _fields(body: str) -> dict[str, str]:
    body = body.strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    out = {}
    for part in split_top(body):
        k, _, v = part.partition("=")
        if k.strip():
            out[k.strip()] = v.strip()
    return out


def _ints(v: str) -> tuple:
    v = v.strip()
    if v.startswith("["):
        inner = v[1:-1].strip()
        return tuple(_ints(x) for x in split_top(inner)) if inner else ()
    return int(v)


def aliases(text: str) -> dict[str, str]:
    """``#name = #ttg.xxx<...>`` definitions at the top of a module (locations left out)."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"^(#[\w.]+) = (#.*)$", line)
        if m and not m.group(1).startswith("#loc"):
            out[m.group(1)] = m.group(2).strip()
    return out


def parse_layout(attr: str, table: dict[str, str]) -> Layout:
    """A layout from its attribute text (``#mma``, ``#ttg.slice<{dim = 1, parent = #mma}>``, ...)."""
    attr = attr.strip()
    if attr in table:
        return parse_layout(table[attr], table)
    m = re.match(r"^#(ttg|ttng)\.(\w+)<(.*)>$", attr, re.S)
    if not m:
        raise UnsupportedError("a layout the Gluon back end does not know", found=attr[:80])
    kind, f = m.group(2), _fields(m.group(3))
    if kind == "blocked":
        return Blocked(_ints(f["sizePerThread"]), _ints(f["threadsPerWarp"]), _ints(f["warpsPerCTA"]), _ints(f["order"]))
    if kind == "nvidia_mma":
        return Mma((int(f["versionMajor"]), int(f["versionMinor"])), _ints(f["warpsPerCTA"]), _ints(f["instrShape"]))
    if kind == "slice":
        return Slice(int(f["dim"]), parse_layout(f["parent"], table))
    if kind == "dot_op":
        return DotOperand(int(f["opIdx"]), parse_layout(f["parent"], table), int(f.get("kWidth", 0)))  # FMA: none
    if kind == "linear":
        return Linear(_ints(f["register"]), _ints(f["lane"]), _ints(f["warp"]), _ints(f["block"]))
    if kind == "nvmma_shared":
        return NvmmaShared(int(f["swizzlingByteWidth"]), int(f["elementBitWidth"]), f.get("transposed") == "true")
    if kind == "swizzled_shared":
        return SwizzledShared(int(f["vec"]), int(f["perPhase"]), int(f["maxPhase"]), _ints(f["order"]))
    if kind == "tensor_memory_encoding":
        return TensorMemory(int(f["blockM"]), int(f["blockN"]), int(f.get("colStride", "1")))
    raise UnsupportedError("a layout the Gluon back end does not know", found=attr[:80])


def per_thread(layout: Layout | None, shape: tuple[int, ...]) -> int | None:
    """How many elements of a ``shape`` tensor each thread holds in ``layout`` (a slice of a wide layout
    replicates a vector across the threads that share its other dimension), or None for a layout this
    does not count (linear, dot operand, shared).

    Examples
    --------
    >>> mma = Mma((3, 0), (4, 1), (16, 64, 16))
    >>> per_thread(mma, (64, 64)), per_thread(Slice(0, mma), (64,)), per_thread(Slice(1, mma), (64,))
    (32, 16, 2)
    >>> per_thread(Blocked((1,), (32,), (4,), (0,)), (64,))
    1
    """
    dims = _per_dim(layout, shape)
    return None if dims is None else math.prod(dims)


def _per_dim(layout: Layout | None, shape: tuple[int, ...]) -> list[int] | None:
    if isinstance(layout, Slice):
        full = shape[:layout.dim] + (1,) + shape[layout.dim:]
        dims = _per_dim(layout.parent, full)
        return None if dims is None else dims[:layout.dim] + dims[layout.dim + 1:]
    if isinstance(layout, Blocked) and len(layout.size_per_thread) == len(shape):
        return [min(spt, n) * max(1, n // (spt * tpw * w)) for n, spt, tpw, w in
                zip(shape, layout.size_per_thread, layout.threads_per_warp, layout.warps_per_cta)]
    if isinstance(layout, Mma) and len(shape) == 2:
        # a warp's tile: 16 rows (two per thread) by instr_shape[1] columns (v3; 8 for v2), two per thread per 8
        cols = layout.instr_shape[1] if layout.version[0] == 3 else 8
        rows = 1 if shape[0] == 1 else 2 * max(1, shape[0] // (16 * layout.warps_per_cta[0]))
        per = 1 if shape[1] == 1 else (cols // 4) * max(1, shape[1] // (cols * layout.warps_per_cta[1]))
        return [rows, min(per, shape[1])]
    return None


def copy_layout(layout: Layout | None, shape: tuple[int, ...], nbytes: int, warps: int) -> Layout | None:
    """A 2-D tile's layout for copying it in 16-byte vectors (cp.async copies 4 bytes at least): ``layout``'s
    fastest dimension held 16 bytes per thread, a warp's threads along it first, the warps along the other; None
    where ``layout`` already holds 16 bytes per thread there (or is not a 2-D blocked layout)."""
    if not isinstance(layout, Blocked) or len(shape) != 2:
        return None
    c = layout.order[0]
    o = 1 - c
    vec = max(1, min(shape[c], 16 // max(1, nbytes)))
    if layout.size_per_thread[c] >= vec:
        return None
    tc = min(32, max(1, shape[c] // vec))
    spt, tpw, wpc = [1, 1], [1, 1], [1, 1]
    spt[c], tpw[c], tpw[o], wpc[o] = vec, tc, 32 // tc, warps
    return Blocked(tuple(spt), tuple(tpw), tuple(wpc), layout.order)


def compact(shape: tuple[int, ...], warps: int) -> Layout | None:
    """The layout that spreads a vector over a partition's threads with the fewest elements per thread (one
    register for 64 values on 4 warps); None beyond rank 1."""
    if len(shape) != 1:
        return None
    return Blocked((max(1, shape[0] // (32 * warps)),), (32,), (warps,), (0,))


@dataclass(frozen=True)
class TensorType:
    """A printed TTGIR type: ``tensor<128x64xf16, #mma>``, ``!ttg.memdesc<...>``, ``!tt.tensordesc<...>`` or a scalar."""

    kind: str                      # "tensor", "memdesc", "tensordesc", "scalar", "ptr"
    shape: tuple[int, ...]
    dtype: str                     # f16, f32, i32, i1, !tt.ptr<f32>, ...
    layout: Layout | None = None
    space: str = ""                # for memdesc: "smem" or "tmem"

    @property
    def rank(self) -> int:
        return len(self.shape)


def parse_type(t: str, table: dict[str, str]) -> TensorType:
    """A printed TTGIR type."""
    t = t.strip()
    for prefix, kind in (("tensor<", "tensor"), ("!ttg.memdesc<", "memdesc"), ("!tt.tensordesc<tensor<", "tensordesc")):
        if t.startswith(prefix):
            inner = t[len(prefix):-1] if t.endswith(">") else t[len(prefix):]
            if kind == "tensordesc" and inner.endswith(">"):
                inner = inner[:-1]
            parts = split_top(inner)
            dims, rest = [], parts[0].strip()
            while (mm := re.match(r"(\d+)x", rest)):
                dims.append(int(mm.group(1)))
                rest = rest[mm.end():]
            layout = parse_layout(parts[1], table) if len(parts) > 1 and parts[1].strip().startswith("#") else None
            space = ("tmem" if "tensor_memory" in inner else "smem") if kind == "memdesc" else ""
            return TensorType(kind, tuple(dims), rest, layout, space)
    if t.startswith("!tt.ptr<"):
        return TensorType("ptr", (), t[len("!tt.ptr<"):].split(",")[0].rstrip(">"))
    return TensorType("scalar", (), t)


GL_DTYPE = {"f16": "gl.float16", "bf16": "gl.bfloat16", "f32": "gl.float32", "f64": "gl.float64", "i1": "gl.int1",
            "i8": "gl.int8", "i16": "gl.int16", "i32": "gl.int32", "i64": "gl.int64", "f8E4M3FN": "gl.float8e4nv",
            "f8E5M2": "gl.float8e5"}


def gl_dtype(dtype: str) -> str:
    """The Gluon spelling of a TTGIR element type."""
    ptr = re.fullmatch(r"!tt\.ptr<(\w+)>", dtype)
    if ptr is not None and ptr.group(1) in GL_DTYPE:      # a pointer tensor held as a value (an if's, a loop's)
        return f"gl.pointer_type({GL_DTYPE[ptr.group(1)]})"
    if dtype not in GL_DTYPE:
        raise UnsupportedError("an element type the Gluon back end does not know", found=dtype)
    return GL_DTYPE[dtype]
