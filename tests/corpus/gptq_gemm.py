"""AutoGPTQ's 4-bit GEMM (``matmul_248_kernel``, the style of its Triton path): eight 4-bit weights packed along K in
each int32 (``b_ptrs`` reads row ``k // 8``: eight rows of the tile share a word), unpacked with a per-row shift
``(b >> shifter[:, None]) & maxq``; each row's group index gathered from ``g_idx``, the group's fp16 scales and packed
zero points (stored minus one, unpacked with a per-column shift) loaded through it; ``(b - zeros) * scales`` promotes
the int32 weights to fp16; grouped program ids. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "matmul_248",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*i32", "c_ptr": "*fp16", "scales_ptr": "*fp16", "zeros_ptr": "*i32",
                  "g_ptr": "*i32", "M": "i32", "N": "i32", "K": "i32", "bits": "i32", "maxq": "i32",
                  "stride_am": "i32", "stride_ak": "i32", "stride_bk": "i32", "stride_bn": "i32", "stride_cm": "i32",
                  "stride_cn": "i32", "stride_scales": "i32", "stride_zeros": "i32"},
    # the unit strides as Triton's launch specialises an integer argument equal to 1
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128,
                   "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8}, "num_warps": 4,
    "num_stages": 4,
    "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm", "stride_scales", "stride_zeros"]}
PROBLEM: dict[str, int] = {"M": 2048, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 100, "N": 256, "K": 512}


@triton.jit
def matmul_248(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_ak, stride_bk,
               stride_bn, stride_cm, stride_cn, stride_scales, stride_zeros, BLOCK_SIZE_M: tl.constexpr,
               BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    infearure_per_bits = 32 // bits
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_k = tl.cdiv(K, BLOCK_SIZE_K)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    a_mask = (offs_am[:, None] < M)
    b_ptrs = b_ptr + ((offs_k[:, None] // infearure_per_bits) * stride_bk + offs_bn[None, :] * stride_bn)
    g_ptrs = g_ptr + offs_k
    scales_ptrs = scales_ptr + offs_bn[None, :]
    zeros_ptrs = zeros_ptr + (offs_bn[None, :] // infearure_per_bits)
    shifter = (offs_k % infearure_per_bits) * bits
    zeros_shifter = (offs_bn % infearure_per_bits) * bits
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, num_pid_k):
        g_idx = tl.load(g_ptrs)
        scales = tl.load(scales_ptrs + g_idx[:, None] * stride_scales)
        zeros = tl.load(zeros_ptrs + g_idx[:, None] * stride_zeros)
        zeros = (zeros >> zeros_shifter[None, :]) & maxq
        zeros = (zeros + 1)
        a = tl.load(a_ptrs, mask=a_mask, other=0.)
        b = tl.load(b_ptrs)
        b = (b >> shifter[:, None]) & maxq
        b = (b - zeros) * scales
        accumulator += tl.dot(a, b)
        a_ptrs += BLOCK_SIZE_K
        b_ptrs += (BLOCK_SIZE_K // infearure_per_bits) * stride_bk
        g_ptrs += BLOCK_SIZE_K
    c_ptrs = c_ptr + stride_cm * offs_am[:, None] + stride_cn * offs_bn[None, :]
    c_mask = (offs_am[:, None] < M) & (offs_bn[None, :] < N)
    tl.store(c_ptrs, accumulator.to(tl.float16), mask=c_mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [M, K] fp16; 4-bit weights q [K, N] packed eight along K into int32 [K / 8, N]; groups of 128 rows
    (g_idx = k // 128), their scales [K / 128, N] fp16 and zero points z stored as z - 1, packed eight along N into
    int32 [K / 128, N / 8]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).half()
    q = torch.randint(0, 16, (K, N), device=device, generator=g, dtype=torch.int64)
    z = torch.randint(1, 16, (K // 128, N), device=device, generator=g, dtype=torch.int64)
    s = (torch.rand((K // 128, N), device=device, generator=g) * 0.01 + 0.005).half()
    shifts = (torch.arange(8, device=device) * 4)
    packed = (q.view(K // 8, 8, N) << shifts[None, :, None]).sum(1)
    zp = ((z - 1).view(K // 128, N // 8, 8) << shifts[None, None, :]).sum(2)
    to_i32 = lambda x: torch.where(x >= 2 ** 31, x - 2 ** 32, x).to(torch.int32)   # noqa: E731 - the bits as int32
    g_idx = (torch.arange(K, device=device) // 128).to(torch.int32)
    return {"a": a, "q": q, "z": z, "s": s, "b": to_i32(packed).contiguous(), "zeros": to_i32(zp).contiguous(),
            "g_idx": g_idx}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    a, b, s, zeros = inputs["a"], inputs["b"], inputs["s"], inputs["zeros"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 64) * triton.cdiv(N, 128),)
    matmul_248[grid](a, b, c, s, zeros, inputs["g_idx"], M, N, K, 4, 15, a.stride(0), a.stride(1), b.stride(0),
                     b.stride(1), c.stride(0), c.stride(1), s.stride(0), zeros.stride(0), BLOCK_SIZE_M=64,
                     BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, num_warps=config.get("num_warps", 4),
                     num_stages=config.get("num_stages", 4))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    """The weights (q - z) * s, each rounded to fp16 as the kernel's product is, times a, in fp32."""
    g = inputs["g_idx"].long()
    w = ((inputs["q"] - inputs["z"][g]).half() * inputs["s"][g]).float()
    return inputs["a"].float() @ w


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
