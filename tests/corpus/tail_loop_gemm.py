"""GEMM whose K loop is peeled as many public kernels write it when K need not be a multiple of BLOCK_K: a loop
over the whole K blocks with unmasked loads, then a second loop over the partial last block (none when K divides)
with the masked ones. C = A @ B, A [M, K], B [K, N] row-major, fp16 in, fp32 accumulate, fp16 out. Two loops
carrying one accumulator and one pair of pointers through the same kind of tiles: the Gluon back end writes both
in the same partitions, the second through the first's rings. Nothing here is imported by twill.
"""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "tail_gemm",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "M", "N", "stride_am", "stride_bk", "stride_cm"],
}

PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 512, "N": 384, "K": 328}      # a partial last K block: the second loop runs once
MORE_CHECKS = [{"M": 256, "N": 256, "K": 256}, {"M": 256, "N": 128, "K": 40}]   # no tail; no whole block


@triton.jit
def tail_gemm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    whole = K // BLOCK_K
    for k in range(0, whole):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    for k in range(whole, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    b = (torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)
    return {"a": a, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = a @ b, fp16 [M, N], one program per 128 x 128 output tile (M and N multiples of 128)."""
    import torch
    a, b = inputs["a"], inputs["b"]
    (M, K), (_, N) = a.shape, b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    tail_gemm[(triton.cdiv(M, 128), triton.cdiv(N, 128))](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                                          BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                                                          num_warps=config.get("num_warps", 4),
                                                          num_stages=config.get("num_stages", 3))
    return c


def library(inputs: dict[str, Any]) -> Any:
    return inputs["a"] @ inputs["b"]


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
