"""A GEMM whose sizes come from an int64 tensor on the device (``sizes = [M, N, K]``, as grouped and ragged GEMMs
read their problem shapes), so its loop runs over int64 bounds (``scf.for ... : i64``): the trip count, and every
ring slot and phase computed from it, must be held in int32 where Gluon indexes a buffer. Masked pointer loads, the
strides the sizes. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "i64_gemm",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "sizes": "*i64"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, "num_warps": 8, "num_stages": 3, "divisibility": []}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 200, "N": 136, "K": 328}


@triton.jit
def i64_gemm(a_ptr, b_ptr, c_ptr, sizes, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    M = tl.load(sizes)
    N = tl.load(sizes + 1)
    K = tl.load(sizes + 2)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * N + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] + k < K), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] + k < K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16),
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).half()
    b = (torch.randn((K, N), device=device, generator=g) / K ** 0.5).half()
    return {"a": a, "b": b, "sizes": torch.tensor([M, N, K], device=device, dtype=torch.int64)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    i64_gemm[(triton.cdiv(M, 128), triton.cdiv(N, 128))](a, b, c, inputs["sizes"], BLOCK_M=128, BLOCK_N=128,
                                                         BLOCK_K=64, num_warps=config.get("num_warps", 8),
                                                         num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
