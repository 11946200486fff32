"""DeepGEMM's ``m_grouped_gemm_fp8_fp8_bf16_nt_masked`` (the DeepEP low-latency MoE layout) as the Triton ports used
by SGLang / vLLM as its fallback write it, with pointer loads: per expert group g an fp8 (e4m3) A [M_max, K] of
dispatched tokens with one fp32 scale per token and 128-wide K block (A_s [G, M_max, K / 128]), an fp8 B [N, K]
(K-major, "nt") with one fp32 scale per 128 x 128 block (B_s [G, N / 128, K / 128]); ``masked_m[g]`` (int32) the
number of valid rows of group g: a program whose row block starts past it **returns early** (a loaded scalar guarding
the whole program, most of the grid idle when the experts get few tokens); the rows of the last block past masked_m
masked in the loads and the store. Grouped pid ordering (GROUP_M) inside a group, the group from program_id(1). K
loop with BLOCK_K = 128 = the scale block: per step a [BLOCK_M, 128] A tile and a [BLOCK_N, 128] B tile, the per-row
A scale column and the per-column B scale (``offs_n // 128``), ``acc += tl.dot(a, b.T) * a_s[:, None] *
b_s[None, :]``; bf16 output [G, M_max, N]. BLOCK_M = 64, BLOCK_N = 128, 4 warps, 3 stages. Nothing here is imported
by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M = 64, 128, 128, 8
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_masked_grouped_fp8_gemm_kernel",
    "signature": {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*bf16", "as_ptr": "*fp32",
                  "bs_ptr": "*fp32", "masked_m_ptr": "*i32", "M_max": "i32", "N": "i32", "K": "i32",
                  "stride_ag": "i32", "stride_am": "i32", "stride_bg": "i32", "stride_bn": "i32",
                  "stride_cg": "i32", "stride_cm": "i32", "stride_asg": "i32", "stride_asm": "i32",
                  "stride_bsg": "i32", "stride_bsn": "i32",
                  "group_k": "constexpr", "group_n": "constexpr", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr",
                  "BLOCK_K": "constexpr", "GROUP_M": "constexpr"},
    "constexprs": {"group_k": 128, "group_n": 128, "BLOCK_M": BLOCK_M, "BLOCK_N": BLOCK_N, "BLOCK_K": BLOCK_K,
                   "GROUP_M": GROUP_M},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "as_ptr", "bs_ptr", "masked_m_ptr", "M_max", "N", "K",
                     "stride_ag", "stride_am", "stride_bg", "stride_bn", "stride_cg", "stride_cm", "stride_asg",
                     "stride_asm", "stride_bsg", "stride_bsn"]}
PROBLEM: dict[str, int] = {"G": 8, "M_max": 512, "N": 4096, "K": 7168}     # DeepSeek-V3 w13 on 32 EP ranks
SMALL: dict[str, int] = {"G": 3, "M_max": 160, "N": 256, "K": 384}


@triton.jit
def _masked_grouped_fp8_gemm_kernel(a_ptr, b_ptr, c_ptr, as_ptr, bs_ptr, masked_m_ptr, M_max, N, K,
                                    stride_ag, stride_am, stride_bg, stride_bn, stride_cg, stride_cm,
                                    stride_asg, stride_asm, stride_bsg, stride_bsn,
                                    group_k: tl.constexpr, group_n: tl.constexpr, BLOCK_M: tl.constexpr,
                                    BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    g = tl.program_id(1)
    m = tl.load(masked_m_ptr + g)

    num_pid_m = tl.cdiv(M_max, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    if pid_m * BLOCK_M >= m:
        return

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_m = offs_m < m
    mask_n = offs_n < N

    a_ptrs = a_ptr + g.to(tl.int64) * stride_ag + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + g.to(tl.int64) * stride_bg + offs_n[:, None] * stride_bn + offs_k[None, :]
    as_ptrs = as_ptr + g.to(tl.int64) * stride_asg + offs_m * stride_asm
    bs_ptrs = bs_ptr + g.to(tl.int64) * stride_bsg + (offs_n // group_n) * stride_bsn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=mask_m[:, None], other=0.0)
        b = tl.load(b_ptrs, mask=mask_n[:, None], other=0.0)
        offs_ks = k * BLOCK_K // group_k
        a_s = tl.load(as_ptrs + offs_ks, mask=mask_m, other=0.0)
        b_s = tl.load(bs_ptrs + offs_ks, mask=mask_n, other=0.0)
        acc += tl.dot(a, b.T) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K

    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + g.to(tl.int64) * stride_cg + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, c, mask=mask_m[:, None] & mask_n[None, :])


def make_inputs(G: int, M_max: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Per group: fp8 A [M_max, K] quantised per token and 128-wide group (scale = amax / 448, as DeepEP's fp8
    dispatch does), fp8 B [N, K] quantised per 128 x 128 block; masked_m ragged: the first group full, one empty,
    the rest random (a partial last row block)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((G, M_max, K), device=device, dtype=torch.float32, generator=g)
    b = torch.randn((G, N, K), device=device, dtype=torch.float32, generator=g) / K ** 0.5
    a_blk = a.view(G, M_max, K // 128, 128)
    a_s = a_blk.abs().amax(-1).clamp(min=1e-4) / 448.0                               # [G, M_max, K/128]
    a_q = (a_blk / a_s[..., None]).view(G, M_max, K).to(torch.float8_e4m3fn)
    b_blk = b.view(G, N // 128, 128, K // 128, 128)
    b_s = b_blk.abs().amax(dim=(2, 4)).clamp(min=1e-4) / 448.0                       # [G, N/128, K/128]
    b_q = (b_blk / b_s[:, :, None, :, None]).view(G, N, K).to(torch.float8_e4m3fn)
    gc = torch.Generator().manual_seed(seed)
    masked_m = torch.randint(1, M_max + 1, (G,), generator=gc, dtype=torch.int32)
    masked_m[0] = M_max
    if G > 1:
        masked_m[1] = 0
    return {"a": a_q, "a_s": a_s.contiguous(), "b": b_q, "b_s": b_s.contiguous(), "masked_m": masked_m.to(device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C [G, M_max, N] bf16 as fp32, flattened, the rows past each group's masked_m set to 0 on the device (no host
    copy of masked_m: the timing captures the launch in a CUDA graph)."""
    import torch
    a, b, a_s, b_s, masked_m = (inputs[n] for n in ("a", "b", "a_s", "b_s", "masked_m"))
    G, M_max, K = a.shape
    N = b.shape[1]
    c = torch.empty((G, M_max, N), device=a.device, dtype=torch.bfloat16)
    grid = (triton.cdiv(M_max, BLOCK_M) * triton.cdiv(N, BLOCK_N), G)
    _masked_grouped_fp8_gemm_kernel[grid](a, b, c, a_s, b_s, masked_m, M_max, N, K,
                                          a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                          c.stride(1), a_s.stride(0), a_s.stride(1), b_s.stride(0), b_s.stride(1),
                                          group_k=128, group_n=128, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                                          BLOCK_K=BLOCK_K, GROUP_M=GROUP_M, num_warps=config.get("num_warps", 4),
                                          num_stages=config.get("num_stages", 3))
    held = torch.arange(M_max, device=a.device)[None, :] < masked_m[:, None]
    return torch.where(held[:, :, None], c.float(), 0.0).flatten()


def reference(inputs: dict[str, Any]) -> Any:
    """Dequantised A and B in double, per group A[:masked_m] @ B^T, rounded to bf16 as the kernel stores it; the
    rows past masked_m 0."""
    import torch
    a, b, a_s, b_s, masked_m = (inputs[n] for n in ("a", "b", "a_s", "b_s", "masked_m"))
    a_d = a.double() * a_s.double().repeat_interleave(128, dim=-1)
    b_d = b.double() * b_s.double().repeat_interleave(128, dim=1).repeat_interleave(128, dim=2)
    held = torch.arange(a.shape[1], device=a.device)[None, :] < masked_m[:, None]
    out = (a_d @ b_d.transpose(1, 2)).to(torch.bfloat16).double()
    return torch.where(held[:, :, None], out, 0.0).flatten()


def flops(G: int, M_max: int, N: int, K: int) -> float:
    """At most every row valid (the benchmark's masked_m decides; the bound counts M_max per group)."""
    return 2.0 * G * M_max * N * K
