"""Written for the tests in the style of scattermoe's ``_scatter2scatter`` (shawntan/scattermoe): a loop over the
segments a row block spans (its bounds loaded per program) carrying the accumulator, which an inner K loop of dots
updates and hands back, the store after both loops. C[m] = sum over s in [lo[m], hi[m]) of A[s, m] @ B[s]: each
row block sums its own range of the S weight slices. The constructs: an outer ``for s in range(lo, hi)`` with bounds
from loads (not the launch's programs: no persistent tile loop), its carried value a tile the scheduled loop both
reads (its initial accumulator) and defines (the value handed on); the scheduled loop also carries two pointer
tiles, which only the loads read. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "segment_carry_gemm",
    "signature": {"A": "*fp16", "B": "*fp16", "C": "*fp16", "seg_lo": "*i32", "seg_hi": "*i32", "M": "i32", "N": "i32",
                  "K": "i32"},
    "constexprs": {"BM": 128, "BN": 128, "BK": 32},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["A", "B", "C", "seg_lo", "seg_hi", "M", "N", "K"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 1024, "S": 4}
SMALL: dict[str, int] = {"M": 256, "N": 128, "K": 64, "S": 3}


@triton.jit
def segment_carry_gemm(A, B, C, seg_lo, seg_hi, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    lo = tl.load(seg_lo + pid_m)
    hi = tl.load(seg_hi + pid_m)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for s in range(lo, hi):
        a_ptrs = A + s.to(tl.int64) * M * K + rm[:, None] * K + rk[None, :]
        b_ptrs = B + s.to(tl.int64) * K * N + rk[:, None] * N + rn[None, :]
        for k in range(0, K, BK):
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
            acc = tl.dot(a, b, acc)
            a_ptrs += BK
            b_ptrs += BK * N
    tl.store(C + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


def make_inputs(M: int, N: int, K: int, S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A [S, M, K], B [S, K, N] fp16 (randn / 4); each 128-row block's segment range [lo, hi) within [0, S), some
    empty (lo == hi) and one the whole of it."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = (torch.randn((S, M, K), device=device, generator=g) / 4).to(torch.float16)
    b = (torch.randn((S, K, N), device=device, generator=g) / 4).to(torch.float16)
    blocks = M // 128
    lo = torch.randint(0, S, (blocks,), device=device, generator=g).to(torch.int32)
    span = torch.randint(0, S + 1, (blocks,), device=device, generator=g).to(torch.int32)
    hi = torch.minimum(lo + span, torch.full_like(lo, S))
    lo[0], hi[0] = 0, S
    if blocks > 1:
        hi[1] = lo[1]
    return {"a": a, "b": b, "lo": lo, "hi": hi}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C [M, N] fp16."""
    import torch
    a, b = inputs["a"], inputs["b"]
    S, M, K = a.shape
    N = b.shape[2]
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    segment_carry_gemm[(M // 128, N // 128)](a, b, c, inputs["lo"], inputs["hi"], M, N, K, BM=128, BN=128, BK=32,
                                             num_warps=config.get("num_warps", 4),
                                             num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, b = inputs["a"].float(), inputs["b"].float()
    S, M, K = a.shape
    out = torch.zeros((M, b.shape[2]), device=a.device)
    for blk in range(M // 128):
        rows = slice(blk * 128, (blk + 1) * 128)
        for s in range(int(inputs["lo"][blk]), int(inputs["hi"][blk])):
            out[rows] += a[s, rows] @ b[s]
    return out.to(torch.float16)


def flops(M: int, N: int, K: int, S: int) -> float:
    """2 M N K per segment; about (S + 1) / 2 segments a row block on average (the harness's random spans)."""
    return 2.0 * M * N * K * (S + 1) / 2
