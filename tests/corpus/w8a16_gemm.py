"""A weight-only int8 GEMM with group-wise scales, in the style of the weight-only quantised Triton GEMMs of several
libraries: A fp16 through pointers, B int8 [K, N] loaded into registers, dequantised in the K loop (``.to(fp16)``
times the scale row of its group of K rows) before ``tl.dot``. wgmma reads B from shared memory only, so Triton puts
the dequantised register tile there each iteration (a ``ttg.local_alloc`` of the loop). C = A @ (B * s), fp16 in,
fp32 accumulate, fp16 out; nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "w8a16_gemm",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*i8", "s_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
                  "K": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_sg": "i32", "stride_cm": "i32"},
    "constexprs": {"GROUP_K": 128, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_sg", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 496, "N": 640, "K": 1024}     # partial tiles along M and N


@triton.jit
def w8a16_gemm(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_sg, stride_cm,
               GROUP_K: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < K - k * BLOCK_K), other=0.0)
        q = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BLOCK_K) & (offs_n[None, :] < N), other=0)
        s = tl.load(s_ptr + (k * BLOCK_K // GROUP_K) * stride_sg + offs_n, mask=offs_n < N, other=0.0)
        b = q.to(tl.float16) * s[None, :]
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    q = torch.randint(-127, 128, (K, N), device=device, generator=g).to(torch.int8)
    s = (torch.rand((K // 128, N), device=device, generator=g) + 0.5).half() / (127 * K ** 0.5)
    return {"a": a, "q": q, "s": s}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C, fp16 [M, N]; one program per 128 x 128 tile."""
    import torch
    a, q, s = inputs["a"], inputs["q"], inputs["s"]
    (M, K), (_, N) = a.shape, q.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    w8a16_gemm[grid](a, q, s, c, M, N, K, a.stride(0), q.stride(0), s.stride(0), c.stride(0), GROUP_K=128,
                     BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=config.get("num_warps", 8),
                     num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    w = inputs["q"].half() * inputs["s"].repeat_interleave(128, 0)
    return inputs["a"].float() @ w.float()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
