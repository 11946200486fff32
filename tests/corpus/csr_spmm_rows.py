"""CSR sparse (M x K) times dense (K x N) as the segment-reduction Triton kernels of PyG / torch-sparse write it
(``spmm_sum`` over a CSR ``rowptr`` / ``col`` / ``value`` triple, a GNN's message aggregation): one program per
(sparse row, BLOCK_N column block of the dense operand); the row's nonzero range read from memory, ``start =
tl.load(rowptr + row)``, ``end = tl.load(rowptr + row + 1)``, so **the loop's bounds are loaded values** (rows run
0 to hundreds of nonzeros, an empty row runs no trip and stores zeros); the loop ``for i in range(start, end,
BLOCK_NNZ)`` loads BLOCK_NNZ column indices and values (masked by ``i + offs < end``), **gathers** the dense rows
``B[col, n_block]`` as a [BLOCK_NNZ, BLOCK_N] tile (an indirect address: ``col.to(tl.int64)[:, None] * stride_bk``)
and reduces ``tl.sum(vals[:, None] * b, axis=0)`` into an fp32 [BLOCK_N] accumulator: no tl.dot, a CUDA-core
reduction; the row stored in fp16. fp16 values and dense operand, BLOCK_NNZ = 32, BLOCK_N = 128, 4 warps.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_NNZ, BLOCK_N = 32, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "csr_spmm_kernel",
    "signature": {"rowptr": "*i32", "col": "*i32", "value": "*fp16", "B": "*fp16", "C": "*fp16",
                  "N": "i32", "stride_bk": "i32", "stride_cm": "i32",
                  "BLOCK_NNZ": "constexpr", "BLOCK_N": "constexpr"},
    "constexprs": {"BLOCK_NNZ": BLOCK_NNZ, "BLOCK_N": BLOCK_N},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["rowptr", "col", "value", "B", "C", "N", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 65536, "K": 65536, "N": 256, "AVG_NNZ": 64}
SMALL: dict[str, int] = {"M": 40, "K": 96, "N": 160, "AVG_NNZ": 12}


@triton.jit
def csr_spmm_kernel(rowptr, col, value, B, C, N, stride_bk, stride_cm,
                    BLOCK_NNZ: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_n = offs_n < N
    offs = tl.arange(0, BLOCK_NNZ)

    start = tl.load(rowptr + row)
    end = tl.load(rowptr + row + 1)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for i in range(start, end, BLOCK_NNZ):
        idx = i + offs
        mask_e = idx < end
        cols = tl.load(col + idx, mask=mask_e, other=0)
        vals = tl.load(value + idx, mask=mask_e, other=0.0).to(tl.float32)
        b_ptrs = B + cols.to(tl.int64)[:, None] * stride_bk + offs_n[None, :]
        b = tl.load(b_ptrs, mask=mask_e[:, None] & mask_n[None, :], other=0.0).to(tl.float32)
        acc += tl.sum(vals[:, None] * b, axis=0)

    c_ptrs = C + row.to(tl.int64) * stride_cm + offs_n
    tl.store(c_ptrs, acc.to(C.dtype.element_ty), mask=mask_n)


def make_inputs(M: int, K: int, N: int, AVG_NNZ: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A power-law-ish CSR matrix (row lengths drawn from an exponential of mean AVG_NNZ, some rows empty, one row
    3 x longer than the mean), column indices sorted within each row (drawn independently: a repeat adds, as in a
    COO matrix coalesced by summing), fp16 values; dense B [K, N] fp16."""
    import torch
    gc = torch.Generator().manual_seed(seed)
    lens = torch.empty(M).exponential_(1.0 / AVG_NNZ, generator=gc).long().clamp(max=K)
    lens[torch.randint(0, M, (max(1, M // 8),), generator=gc)] = 0
    lens[M // 2] = min(K, 3 * AVG_NNZ + 5)
    rowptr = torch.zeros(M + 1, dtype=torch.int64)
    rowptr[1:] = torch.cumsum(lens, 0)
    rows = torch.repeat_interleave(torch.arange(M), lens)
    cols = (rows * K + torch.randint(0, K, (rows.numel(),), generator=gc)).sort().values - rows * K
    vals = torch.randn(cols.numel(), generator=gc) / AVG_NNZ ** 0.5
    g = torch.Generator(device=device).manual_seed(seed)
    b = torch.randn((K, N), device=device, dtype=torch.float32, generator=g).half()
    return {"rowptr": rowptr.to(torch.int32).to(device), "col": cols.to(torch.int32).to(device),
            "value": vals.half().to(device), "b": b, "M": M}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ B, fp16 [M, N], flattened as fp32."""
    import torch
    b, M = inputs["b"], inputs["M"]
    N = b.shape[1]
    c = torch.empty((M, N), device=b.device, dtype=torch.float16)
    csr_spmm_kernel[(M, triton.cdiv(N, BLOCK_N))](inputs["rowptr"], inputs["col"], inputs["value"], b, c, N,
                                                  b.stride(0), c.stride(0), BLOCK_NNZ=BLOCK_NNZ, BLOCK_N=BLOCK_N,
                                                  num_warps=config.get("num_warps", 4),
                                                  num_stages=config.get("num_stages", 2))
    return c.float().flatten()


def reference(inputs: dict[str, Any]) -> Any:
    """A's rows times B's in double, summed per row (in chunks of nonzeros: a dense A at M = K = 65536 takes 34 GB),
    rounded to fp16 as the kernel stores it."""
    import torch
    rowptr, col, val, b, M = (inputs[n] for n in ("rowptr", "col", "value", "b", "M"))
    rows = torch.repeat_interleave(torch.arange(M, device=b.device), (rowptr[1:] - rowptr[:-1]).long())
    out = torch.zeros((M, b.shape[1]), device=b.device, dtype=torch.float64)
    for i in range(0, rows.numel(), 1 << 20):
        j = slice(i, i + (1 << 20))
        out.index_add_(0, rows[j], val[j].double()[:, None] * b[col[j].long()].double())
    return out.half().double().flatten()


def flops(M: int, K: int, N: int, AVG_NNZ: int) -> float:
    return 2.0 * M * AVG_NNZ * N
