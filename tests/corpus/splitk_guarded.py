"""A split-K GEMM whose K slice may be empty (a fixed count of slices over a shorter K), guarded by an ``if`` around
the K loop (``if k_lo < k_hi:``) whose result (the accumulator, zeros where the slice is empty) is added to C after
it: the result of an ``if`` around the scheduled loop read after it. Nothing here is imported by twill."""
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                  "k_per_split": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
    "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K", "k_per_split", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 2048, "N": 2048, "K": 16384, "k_per_split": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 640, "k_per_split": 192}


@triton.jit
def splitk_guarded(a_ptr, b_ptr, c_ptr, M, N, K, k_per_split, stride_am, stride_bk, stride_cm,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    k_lo = pid_k * k_per_split
    k_hi = tl.minimum(k_lo + k_per_split, K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    if k_lo < k_hi:
        a_ptrs = a_ptr + offs_m[:, None] * stride_am + (k_lo + offs_k)[None, :]
        b_ptrs = b_ptr + (k_lo + offs_k)[:, None] * stride_bk + offs_n[None, :]
        for k in range(k_lo, k_hi, BLOCK_K):
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
            acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K
            b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.atomic_add(c_ptrs, acc)


def make_inputs(M: int, N: int, K: int, k_per_split: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((M, K), device=device, dtype=torch.float16, generator=g),
            "b": (torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16),
            "k_per_split": k_per_split}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ B, fp32 [M, N], from (tiles, slices) programs adding into a zeroed C: one slice more than K needs, so
    the last programs find theirs empty."""
    import torch
    a, b, kps = inputs["a"], inputs["b"], inputs["k_per_split"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.zeros((M, N), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128), triton.cdiv(K, kps) + 1)
    splitk_guarded[grid](a, b, c, M, N, K, kps, a.stride(0), b.stride(0), c.stride(0),
                         BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                         num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float()


def library(inputs: dict[str, Any]) -> Any:
    return inputs["a"] @ inputs["b"]


def flops(M: int, N: int, K: int, k_per_split: int) -> float:
    return 2.0 * M * N * K
