"""CSR segment sum (a GNN's sum aggregation of neighbour features) in the style of PyTorch Geometric's / torch_scatter's
``segment_csr`` reductions written in Triton: the edges sorted by destination, ``indptr`` [num_rows + 1] the CSR row
pointer and ``indices`` the source node of every edge; one program per (chunk of ROWS_PER_PROG consecutive output rows,
BLOCK_D block of feature columns), so a program reads ``indptr`` once per row rather than launching a program per
row. **A loop nest**: the outer ``for r in range(row0, row1)`` over the chunk's rows (``row1 = tl.minimum(row0 +
ROWS_PER_PROG, num_rows)``, the last chunk short) carries nothing from one row to the next; per row it loads the
row's edge range, ``start = tl.load(indptr + r)``, ``end = tl.load(indptr + r + 1)``, starts ``acc = tl.zeros(
[BLOCK_D], tl.float32)`` and runs the inner loop ``for e in range(start, end, BLOCK_E)`` (**bounds loaded from
memory**; an empty row runs no trip and stores zeros, a hub row runs many) over blocks of BLOCK_E edges: the sources
loaded masked by ``e + offs_e < end``, the source rows of ``x`` **gathered** as a [BLOCK_E, BLOCK_D] tile
(``src.to(tl.int64)[:, None] * stride_x``) with a 2-D mask and reduced ``tl.sum(..., axis=0)`` into ``acc``; the row
stored in fp16 after the inner loop, inside the outer one. fp16 features, fp32 accumulation, int32 CSR arrays,
BLOCK_D = 128, BLOCK_E = 16, 8 rows per program, 4 warps. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_D_, BLOCK_E_, ROWS_PER_PROG_ = 128, 16, 8
TWILL_SPEC: dict[str, Any] = {
    "kernel": "segment_sum_csr_kernel",
    "signature": {"x_ptr": "*fp16", "indptr_ptr": "*i32", "indices_ptr": "*i32", "out_ptr": "*fp16",
                  "num_rows": "i32", "D": "i32", "stride_x": "i32", "stride_out": "i32",
                  "BLOCK_D": "constexpr", "BLOCK_E": "constexpr", "ROWS_PER_PROG": "constexpr"},
    "constexprs": {"BLOCK_D": BLOCK_D_, "BLOCK_E": BLOCK_E_, "ROWS_PER_PROG": ROWS_PER_PROG_},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["x_ptr", "indptr_ptr", "indices_ptr", "out_ptr", "D", "stride_x", "stride_out"]}
PROBLEM: dict[str, int] = {"num_rows": 65536, "num_src": 65536, "D": 256, "AVG_DEG": 16}
SMALL: dict[str, int] = {"num_rows": 37, "num_src": 50, "D": 160, "AVG_DEG": 6}   # D % BLOCK_D, last chunk short


@triton.jit
def segment_sum_csr_kernel(x_ptr, indptr_ptr, indices_ptr, out_ptr, num_rows, D, stride_x, stride_out,
                           BLOCK_D: tl.constexpr, BLOCK_E: tl.constexpr, ROWS_PER_PROG: tl.constexpr):
    """out[r, d_block] = sum over the edges e of row r of x[indices[e], d_block], for the program's rows."""
    pid_r = tl.program_id(0)
    pid_d = tl.program_id(1)

    offs_d = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    mask_d = offs_d < D
    offs_e = tl.arange(0, BLOCK_E)

    row0 = pid_r * ROWS_PER_PROG
    row1 = tl.minimum(row0 + ROWS_PER_PROG, num_rows)

    for r in range(row0, row1):
        start = tl.load(indptr_ptr + r)
        end = tl.load(indptr_ptr + r + 1)
        acc = tl.zeros([BLOCK_D], dtype=tl.float32)
        for e in range(start, end, BLOCK_E):
            eidx = e + offs_e
            mask_e = eidx < end
            src = tl.load(indices_ptr + eidx, mask=mask_e, other=0)
            x_ptrs = x_ptr + src.to(tl.int64)[:, None] * stride_x + offs_d[None, :]
            xv = tl.load(x_ptrs, mask=mask_e[:, None] & mask_d[None, :], other=0.0)
            acc += tl.sum(xv.to(tl.float32), axis=0)
        out_ptrs = out_ptr + r.to(tl.int64) * stride_out + offs_d
        tl.store(out_ptrs, acc.to(out_ptr.dtype.element_ty), mask=mask_d)


def make_inputs(num_rows: int, num_src: int, D: int, AVG_DEG: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """A graph's in-edges in CSR: in-degrees drawn from an exponential of mean AVG_DEG (about 1 in 6 rows forced
    empty, one hub row 8 x the mean), sources uniform (repeats allowed: a multigraph); node features x [num_src, D]
    fp16."""
    import torch
    gc = torch.Generator().manual_seed(seed)
    deg = torch.empty(num_rows).exponential_(1.0 / AVG_DEG, generator=gc).long()
    deg[torch.randint(0, num_rows, (max(1, num_rows // 6),), generator=gc)] = 0
    deg[num_rows // 3] = 8 * AVG_DEG + 3
    indptr = torch.zeros(num_rows + 1, dtype=torch.int64)
    indptr[1:] = torch.cumsum(deg, 0)
    src = torch.randint(0, num_src, (int(indptr[-1]),), generator=gc)
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((num_src, D), device=device, generator=g, dtype=torch.float32).half()
    return {"x": x, "indptr": indptr.to(torch.int32).to(device), "indices": src.to(torch.int32).to(device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out [num_rows, D] fp16 (every row written, zeros for an empty one), as the segment_csr wrapper launches it."""
    import torch
    x, indptr, indices = inputs["x"], inputs["indptr"], inputs["indices"]
    num_rows, D = indptr.numel() - 1, x.shape[1]
    out = torch.empty((num_rows, D), device=x.device, dtype=x.dtype)
    grid = (triton.cdiv(num_rows, ROWS_PER_PROG_), triton.cdiv(D, BLOCK_D_))
    segment_sum_csr_kernel[grid](x, indptr, indices, out, num_rows, D, x.stride(0), out.stride(0),
                                 BLOCK_D=BLOCK_D_, BLOCK_E=BLOCK_E_, ROWS_PER_PROG=ROWS_PER_PROG_,
                                 num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    """Each edge's source row added into its destination row in fp32 (index_add), rounded to fp16."""
    import torch
    x, indptr, indices = inputs["x"], inputs["indptr"], inputs["indices"]
    num_rows = indptr.numel() - 1
    dst = torch.repeat_interleave(torch.arange(num_rows, device=x.device), (indptr[1:] - indptr[:-1]).long())
    out = torch.zeros((num_rows, x.shape[1]), device=x.device, dtype=torch.float32)
    out.index_add_(0, dst, x[indices.long()].float())
    return out.half()
