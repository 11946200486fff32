"""A GEMM in the style of vLLM's fused MoE and of many grouped kernels: the program returns early where its
row block lies past the rows that carry work (``if pid_m * BLOCK_M >= num_valid: return``, a ``cf.cond_br`` in
TTGIR), then the tutorial's pointer-load K loop, then a per-column scale chosen by a runtime flag (an ``scf.if``
with a result: ``s = tl.load(...)`` on one side, ``1.0`` on the other) before the masked store.

C = (A @ B) * scale (scale per column where has_scale, else 1) in every row block that starts below num_valid;
the blocks past it are left as they were (so a kernel that did not return would show). fp16 in, fp32 accumulate, fp16 out; nothing here is imported by twill.
"""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "guarded_gemm",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "scale_ptr": "*fp32", "M": "i32",
                  "N": "i32", "K": "i32", "num_valid": "i32", "has_scale": "i32", "stride_am": "i32",
                  "stride_bk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"],
}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096, "num_valid": 3000, "has_scale": 1}
SMALL: dict[str, int] = {"M": 512, "N": 384, "K": 320, "num_valid": 300, "has_scale": 1}
MORE_CHECKS = [{"M": 512, "N": 384, "K": 320, "num_valid": 512, "has_scale": 0}]


@triton.jit
def guarded_gemm(a_ptr, b_ptr, c_ptr, scale_ptr, M, N, K, num_valid, has_scale, stride_am, stride_bk, stride_cm,
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
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    if has_scale != 0:
        s = tl.load(scale_ptr + offs_n, mask=offs_n < N, other=0.0)
    else:
        s = tl.full((BLOCK_N,), 1.0, tl.float32)
    c = (acc * s[None, :]).to(tl.float16)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def make_inputs(M: int, N: int, K: int, num_valid: int, has_scale: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    b = (torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)
    scale = torch.rand((N,), device=device, dtype=torch.float32, generator=g) + 0.5
    return {"a": a, "b": b, "scale": scale, "num_valid": num_valid, "has_scale": has_scale}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C, fp16 [M, N]: the row blocks starting below num_valid computed, the rest zero (as allocated here); one
    program per tile."""
    import torch
    a, b = inputs["a"], inputs["b"]
    (M, K), (_, N) = a.shape, b.shape
    c = torch.zeros((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    guarded_gemm[grid](a, b, c, inputs["scale"], M, N, K, inputs["num_valid"], inputs["has_scale"], a.stride(0),
                       b.stride(0), c.stride(0), BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                       num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, b, v = inputs["a"], inputs["b"], inputs["num_valid"]
    c = a.float() @ b.float()
    if inputs["has_scale"]:
        c = c * inputs["scale"][None, :]
    c[-(-v // 128) * 128:] = 0
    return c


def flops(M: int, N: int, K: int, num_valid: int, has_scale: int) -> float:
    return 2.0 * num_valid * N * K
