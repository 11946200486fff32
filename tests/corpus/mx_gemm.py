"""A block-scaled (MX) FP8 GEMM written with ``tl.dot_scaled``, as Triton's tutorial 10 writes it: e4m3 A [M, K] and
B [K, N], each with one e8m0 scale (a uint8 exponent) per 32 elements along K (A's scales [M, K / 32], B's
[N, K / 32]), all by pointer. On Hopper Triton decomposes the scaled dot: each operand converted to bf16, its scales
shifted into bf16 exponents, broadcast along K (``tt.trans``, ``tt.reshape`` of linear layouts), multiplied in, NaN
where a scale is 0xFF, then a bf16 wgmma. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "mx_gemm",
    "signature": {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "a_scale": "*u8", "b_scale": "*u8", "c_ptr": "*bf16",
                  "M": "i32", "N": "i32", "K": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128, "VEC": 32}, "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 512}


@triton.jit
def mx_gemm(a_ptr, b_ptr, a_scale, b_scale, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
            BLOCK_K: tl.constexpr, VEC: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_s = tl.arange(0, BLOCK_K // VEC)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * N + offs_n[None, :]
    as_ptrs = a_scale + offs_m[:, None] * (K // VEC) + offs_s[None, :]
    bs_ptrs = b_scale + offs_n[:, None] * (K // VEC) + offs_s[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        sa = tl.load(as_ptrs)
        sb = tl.load(bs_ptrs)
        acc = tl.dot_scaled(a, sa, "e4m3", b, sb, "e4m3", acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * N
        as_ptrs += BLOCK_K // VEC
        bs_ptrs += BLOCK_K // VEC
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.bfloat16))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [M, K], b [K, N] e4m3 (normal, std 1); scales e8m0 in [124, 130] (2^-3 .. 2^3)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).to(torch.float8_e4m3fn)
    b = torch.randn((K, N), device=device, generator=g).to(torch.float8_e4m3fn)
    sa = torch.randint(124, 131, (M, K // 32), device=device, generator=g, dtype=torch.int32).to(torch.uint8)
    sb = torch.randint(124, 131, (N, K // 32), device=device, generator=g, dtype=torch.int32).to(torch.uint8)
    return {"a": a, "b": b, "sa": sa, "sb": sb}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.bfloat16)
    mx_gemm[(M // 128, N // 128)](a, b, inputs["sa"], inputs["sb"], c, M, N, K, BLOCK_M=128, BLOCK_N=128,
                                  BLOCK_K=128, VEC=32, num_warps=config.get("num_warps", 8),
                                  num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    """Each operand times 2^(scale - 127) along its 32-element groups of K, multiplied in fp32."""
    sa = (inputs["sa"].float() - 127.0).exp2().repeat_interleave(32, dim=1)
    sb = (inputs["sb"].float() - 127.0).exp2().repeat_interleave(32, dim=1)
    return (inputs["a"].float() * sa) @ (inputs["b"].float() * sb.T)


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
