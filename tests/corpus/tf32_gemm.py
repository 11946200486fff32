"""An fp32 GEMM at Triton's default precision (``tl.dot`` of fp32 tiles: TF32 on the tensor core), as kernels that keep
fp32 operands write it (normalisation statistics, fp32 adapters): wgmma reads TF32 operands K-major only, so B
(N-contiguous) lies transposed in shared memory and is copied a 4-byte element at a time. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32},
    "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 544}        # K not a multiple of BLOCK_K
VALIDATE_TOL = 3e-2                                          # TF32: 10-bit mantissas


@triton.jit
def tf32_gemm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((M, K), device=device, dtype=torch.float32, generator=g),
            "b": torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ B, fp32 [M, N], one program per 128 x 128 tile."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.float32)
    tf32_gemm[(triton.cdiv(M, 128), triton.cdiv(N, 128))](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                                          BLOCK_M=128, BLOCK_N=128, BLOCK_K=32,
                                                          num_warps=config.get("num_warps", 8),
                                                          num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].double() @ inputs["b"].double()


def library(inputs: dict[str, Any]) -> Any:
    """cuBLAS's TF32 GEMM."""
    import torch
    torch.backends.cuda.matmul.allow_tf32 = True
    return inputs["a"] @ inputs["b"]


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
