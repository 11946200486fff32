"""An FP8 GEMM with row-wise scales as torchao / FBGEMM-style Triton kernels write it: e4m3 A [M, K] and B [N, K]
(both K-major, B read transposed), ``tl.dot(..., max_num_imprecise_acc=32)`` so that the tensor core's fp8 partial
sums are added into the fp32 accumulator every 32 elements of K (Hopper's fp8 wgmma accumulates with fewer bits),
then each row's and column's fp32 scale applied in the epilogue, bf16 out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "fp8_rowwise_mm",
    "signature": {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*bf16", "a_scale": "*fp32", "b_scale": "*fp32",
                  "M": "i32", "N": "i32", "K": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128}, "num_warps": 8, "num_stages": 4,
    "divisibility": ["M", "N", "K"]}
PROBLEM: dict[str, int] = {"M": 8192, "N": 8192, "K": 8192}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 1024}


@triton.jit
def fp8_rowwise_mm(a_ptr, b_ptr, c_ptr, a_scale, b_scale, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_n[None, :] * K + offs_k[:, None]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc, max_num_imprecise_acc=32)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K
    scale = tl.load(a_scale + offs_m)[:, None] * tl.load(b_scale + offs_n)[None, :]
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], (acc * scale).to(tl.bfloat16))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [M, K], b [N, K] e4m3 (normal, std 1); per-row and per-column scales in [0.5, 1.5) / sqrt(K)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).to(torch.float8_e4m3fn)
    b = torch.randn((N, K), device=device, generator=g).to(torch.float8_e4m3fn)
    sa = (torch.rand(M, device=device, generator=g) + 0.5) / K ** 0.5
    sb = torch.rand(N, device=device, generator=g) + 0.5
    return {"a": a, "b": b, "sa": sa, "sb": sb}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[0]
    c = torch.empty((M, N), device=a.device, dtype=torch.bfloat16)
    fp8_rowwise_mm[(M // 128, N // 128)](a, b, c, inputs["sa"], inputs["sb"], M, N, K, BLOCK_M=128, BLOCK_N=128,
                                         BLOCK_K=128, num_warps=config.get("num_warps", 8),
                                         num_stages=config.get("num_stages", 4))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return (inputs["a"].float() @ inputs["b"].float().T) * inputs["sa"][:, None] * inputs["sb"][None, :]


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
