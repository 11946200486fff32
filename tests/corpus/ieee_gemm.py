"""An fp32 GEMM that asks for IEEE precision (``tl.dot(a, b, acc, input_precision="ieee")``, as numerically strict
kernels do): no tensor-core instruction takes fp32 at full precision, so Triton lowers the dot to FMAs (a blocked
result layout, dot operands without a kWidth), written with ``gl.dot_fma``. Otherwise guarded_gemm's structure (an
early return, the tutorial's pointer loads, a scale chosen by a runtime flag). Nothing here is imported by twill.
"""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "ieee_gemm",
    "signature": {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "scale_ptr": "*fp32", "M": "i32",
                  "N": "i32", "K": "i32", "num_valid": "i32", "has_scale": "i32", "stride_am": "i32",
                  "stride_bk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 16},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"],
}
PROBLEM: dict[str, int] = {"M": 2048, "N": 2048, "K": 2048, "num_valid": 1500, "has_scale": 1}
SMALL: dict[str, int] = {"M": 512, "N": 384, "K": 320, "num_valid": 300, "has_scale": 1}
MORE_CHECKS = [{"M": 512, "N": 384, "K": 320, "num_valid": 512, "has_scale": 0}]


@triton.jit
def ieee_gemm(a_ptr, b_ptr, c_ptr, scale_ptr, M, N, K, num_valid, has_scale, stride_am, stride_bk, stride_cm,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    if pid_m * BLOCK_M >= num_valid:
        return
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    if has_scale != 0:
        s = tl.load(scale_ptr + offs_n, mask=offs_n < N, other=0.0)
    else:
        s = tl.full((BLOCK_N,), 1.0, tl.float32)
    c = acc * s[None, :]
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def make_inputs(M: int, N: int, K: int, num_valid: int, has_scale: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float32, generator=g)
    b = torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5
    scale = torch.rand((N,), device=device, dtype=torch.float32, generator=g) + 0.5
    return {"a": a, "b": b, "scale": scale, "num_valid": num_valid, "has_scale": has_scale}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C, fp32 [M, N]: the row blocks starting below num_valid computed, the rest zero (as allocated here); one
    program per tile."""
    import torch
    a, b = inputs["a"], inputs["b"]
    (M, K), (_, N) = a.shape, b.shape
    c = torch.zeros((M, N), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))
    ieee_gemm[grid](a, b, c, inputs["scale"], M, N, K, inputs["num_valid"], inputs["has_scale"], a.stride(0),
                       b.stride(0), c.stride(0), BLOCK_M=64, BLOCK_N=64, BLOCK_K=16,
                       num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, b, v = inputs["a"], inputs["b"], inputs["num_valid"]
    c = a.float() @ b.float()
    if inputs["has_scale"]:
        c = c * inputs["scale"][None, :]
    c[-(-v // 64) * 64:] = 0
    return c


def flops(M: int, N: int, K: int, num_valid: int, has_scale: int) -> float:
    return 2.0 * num_valid * N * K
