"""A 4-bit weight GEMM (w4a16) as GPTQ / AWQ-style Triton kernels write it: the weights packed two to a byte along N,
unpacked in the loop with a mask and a shift and put back in column order with ``tl.interleave``, dequantised with a
per-group scale loaded in the loop, then a dot with fp16 activations. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "w4a16_gemm",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*u8", "s_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32",
                  "K": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP": 128},
    "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 512}


@triton.jit
def w4a16_gemm(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_pn = pid_n * (BLOCK_N // 2) + tl.arange(0, BLOCK_N // 2)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * (N // 2) + offs_pn[None, :]
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs)
        packed = tl.load(b_ptrs)
        lo = (packed & 0xF).to(tl.float16)
        hi = (packed >> 4).to(tl.float16)
        w = tl.interleave(lo, hi)
        scale = tl.load(s_ptr + (k // GROUP) * N + offs_n)
        w = (w - 8.0) * scale[None, :]
        acc = tl.dot(a, w, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * (N // 2)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [M, K] fp16; the 4-bit weights [K, N] packed [K, N // 2] (even column low nibble); scales [K // 128, N]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).half()
    q = torch.randint(0, 16, (K, N), device=device, generator=g, dtype=torch.int32)
    packed = (q[:, 0::2] | (q[:, 1::2] << 4)).to(torch.uint8)
    s = (torch.rand((K // 128, N), device=device, generator=g) * 0.02 + 0.01).half()
    return {"a": a, "q": q, "packed": packed.contiguous(), "s": s}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    a, packed, s = inputs["a"], inputs["packed"], inputs["s"]
    M, K = a.shape
    N = packed.shape[1] * 2
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    w4a16_gemm[(M // 128, N // 128)](a, packed, s, c, M, N, K, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP=128,
                                     num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    w = (inputs["q"].float() - 8.0) * inputs["s"].float().repeat_interleave(128, dim=0)
    return inputs["a"].float() @ w


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
