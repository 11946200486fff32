"""Deterministic split-K GEMM whose splits add into the output tile in order, in the style of stream-K "fixup"
kernels and FBGEMM's / the old ``triton.ops.matmul`` split-K (rewritten here): grid axis 1 is the K split; each
program GROUP_M-swizzles its tile id, wraps its rows and columns ``% M`` / ``% N`` under ``tl.max_contiguous(
tl.multiple_of(...))``, and runs its K slice in a ``for`` over BLOCK_K steps (the slice's tail masked against the K
left, pointers advanced by ``+=``). After the loop the splits take turns on a per-tile counter: split 0 stores its
fp32 partial tile; split k **spin-waits on ``tl.load(lock, volatile=True)``** (a plain volatile poll, no atomic
traffic while it waits) until the counter says k, then reads the running sum with ``cache_modifier=".cg"`` (L2, not
a stale L1 line), adds its own and stores it back; every split then ``tl.debug_barrier()``s (the CTA's stores
issued) and hands the tile on with ``tl.atomic_add(lock, 1, sem="release")``. The sum's order is fixed (split 0,
1, ...), so the result is bitwise reproducible, unlike an atomic-add split-K. fp16 A [M, K] and B [K, N], fp32 C.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_splitk_serial_gemm",
    "signature": {"A": "*fp16", "B": "*fp16", "C": "*fp32", "LOCKS": "*i32", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32", "K_PER_SPLIT": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "SPLIT_K": 4},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["A", "B", "C", "LOCKS", "M", "N", "K", "stride_am", "stride_bk", "stride_cm", "K_PER_SPLIT"]}
PROBLEM: dict[str, int] = {"M": 2048, "N": 2048, "K": 16384}
SMALL: dict[str, int] = {"M": 200, "N": 136, "K": 1000}     # ragged M and N; the last split's slice is short


@triton.jit
def _wait_turn(lock, turn):
    while tl.load(lock, volatile=True) != turn:
        pass


@triton.jit
def _splitk_serial_gemm(A, B, C, LOCKS, M, N, K, stride_am, stride_bk, stride_cm, K_PER_SPLIT,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                        SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = tl.minimum(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // group_size
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    k_lo = pid_k * K_PER_SPLIT
    a_ptrs = A + ram[:, None] * stride_am + (k_lo + rk)[None, :]
    b_ptrs = B + (k_lo + rk)[:, None] * stride_bk + rbn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K_PER_SPLIT, BLOCK_K):
        k_left = K - k_lo - k
        a = tl.load(a_ptrs, mask=rk[None, :] < k_left, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < k_left, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = C + rm[:, None] * stride_cm + rn[None, :]
    mask = (rm < M)[:, None] & (rn < N)[None, :]
    lock = LOCKS + pid
    if pid_k == 0:
        tl.store(c_ptrs, acc, mask=mask)
    else:
        _wait_turn(lock, pid_k)
        acc += tl.load(c_ptrs, mask=mask, other=0.0, cache_modifier=".cg")
        tl.store(c_ptrs, acc, mask=mask)
    tl.debug_barrier()
    tl.atomic_add(lock, 1, sem="release")


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((M, K), device=device, generator=g).half(),
            "b": (torch.randn((K, N), device=device, generator=g) / K ** 0.5).half()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ B fp32 from (tiles, 4) programs, the splits' slices whole BLOCK_K steps; the counters zeroed."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    tiles = triton.cdiv(M, 128) * triton.cdiv(N, 128)
    k_per_split = triton.cdiv(triton.cdiv(K, 4), 64) * 64
    locks = torch.zeros((tiles,), device=a.device, dtype=torch.int32)
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.float32)
    _splitk_serial_gemm[(tiles, 4)](a, b, c, locks, M, N, K, a.stride(0), b.stride(0), c.stride(0), k_per_split,
                                    BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, SPLIT_K=4,
                                    num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float()


def library(inputs: dict[str, Any]) -> Any:
    return (inputs["a"] @ inputs["b"]).float()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
