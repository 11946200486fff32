"""A block-scaled FP8 GEMM in the style of vLLM's and SGLang's ``w8a8_block_fp8_matmul`` (DeepSeek-V3's
quantisation): fp8 (e4m3) A with one fp32 scale per row and 128-column group, fp8 B (K-major) with one scale per
128 x 128 block; each K step's dot starts from zero and is rescaled into the carried accumulator
(``acc += tl.dot(a, b) * a_s[:, None] * b_s[None, :]``), the scales loaded in the loop. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"A": "*fp8e4nv", "B": "*fp8e4nv", "C": "*bf16", "As": "*fp32", "Bs": "*fp32",
                  "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "constexpr", "stride_bn": "i32",
                  "stride_cm": "i32", "stride_cn": "constexpr",
                  "stride_As_m": "constexpr", "stride_As_k": "i32", "stride_Bs_k": "i32", "stride_Bs_n": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "stride_As_m": 1, "stride_Bs_n": 1,
                   "group_n": 128, "group_k": 128, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_M": 8},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_bn", "stride_cm", "stride_As_k", "stride_Bs_k"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 1024}


@triton.jit
def block_fp8_matmul(A, B, C, As, Bs, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     stride_As_m, stride_As_k, stride_Bs_k, stride_Bs_n,
                     group_n: tl.constexpr, group_k: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = B + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    As_ptrs = As + offs_am * stride_As_m
    offs_bsn = offs_bn // group_n
    Bs_ptrs = Bs + offs_bsn * stride_Bs_n

    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)

        k_start = k * BLOCK_K
        offs_ks = k_start // group_k
        a_s = tl.load(As_ptrs + offs_ks * stride_As_k)
        b_s = tl.load(Bs_ptrs + offs_ks * stride_Bs_k)

        accumulator += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    c = accumulator.to(tl.bfloat16)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = C + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """fp8 A [M, K] with fp32 scales [M, K/128]; fp8 B^T [N, K] with fp32 scales [N/128, K/128] (stored [K/128, N/128]
    so the scale of block (k, n) is Bs[k, n])."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float32, generator=g).to(torch.float8_e4m3fn)
    bt = (torch.randn((N, K), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float8_e4m3fn)
    a_s = torch.rand((M, triton.cdiv(K, 128)), device=device, dtype=torch.float32, generator=g) + 0.5
    b_s = torch.rand((triton.cdiv(K, 128), triton.cdiv(N, 128)), device=device, dtype=torch.float32, generator=g) + 0.5
    return {"a": a, "b": bt, "a_s": a_s.T.contiguous().T, "b_s": b_s}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = (A * As) @ (B * Bs) blockwise, bf16 [M, N], one program per 128 x 128 tile in groups of 8 rows."""
    import torch
    a, b, a_s, b_s = inputs["a"], inputs["b"].T, inputs["a_s"], inputs["b_s"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.bfloat16)
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128),)
    block_fp8_matmul[grid](a, b, c, a_s, b_s, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                           c.stride(0), c.stride(1), a_s.stride(0), a_s.stride(1), b_s.stride(0), b_s.stride(1),
                           group_n=128, group_k=128, BLOCK_M=128, BLOCK_N=128, BLOCK_K=128, GROUP_M=8,
                           num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    a = inputs["a"].float() * inputs["a_s"].repeat_interleave(128, dim=1)
    b = inputs["b"].float() * inputs["b_s"].T.repeat_interleave(128, dim=0).repeat_interleave(128, dim=1)
    return a @ b.T


def library(inputs: dict[str, Any]) -> Any:
    """cuBLAS's FP8 GEMM with per-tensor unit scales (torch._scaled_mm): the same operands without the block scales,
    a bound for the scaled product."""
    import torch
    one = torch.ones((), device=inputs["a"].device, dtype=torch.float32)
    return torch._scaled_mm(inputs["a"], inputs["b"].T, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
