"""An FP8 GEMM in the style of Triton's matmul tutorial (03) and of w8a8 library kernels: fp8 (e4m3) operands loaded
through pointers with masks on K, B passed transposed (``b.T``: K-major, as FP8 wgmma reads both operands), fp32
accumulate, fp16 out. The unit strides are declared as a launch specialises them. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "constexpr", "stride_bn": "i32",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128},
    "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K", "stride_am", "stride_bn", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 1040}      # K not a multiple of BLOCK_K


@triton.jit
def fp8_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float32, generator=g).to(torch.float8_e4m3fn)
    bt = (torch.randn((N, K), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float8_e4m3fn)
    return {"a": a, "b": bt}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ B (B given as its transpose's view, K-major), fp16 [M, N], one program per 128 x 128 tile."""
    import torch
    a, b = inputs["a"], inputs["b"].T
    M, K = a.shape
    N = b.shape[1]
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    fp8_matmul[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                     BLOCK_M=128, BLOCK_N=128, BLOCK_K=128,
                     num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float().T


def library(inputs: dict[str, Any]) -> Any:
    """cuBLAS's FP8 GEMM (torch._scaled_mm, unit scales), fp16 out."""
    import torch
    one = torch.ones((), device=inputs["a"].device, dtype=torch.float32)
    return torch._scaled_mm(inputs["a"], inputs["b"].T, scale_a=one, scale_b=one, out_dtype=torch.float16)


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
