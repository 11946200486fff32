"""DeepSeek-V3's inference FP8 GEMM, ``fp8_gemm_kernel`` (deepseek-ai/DeepSeek-V3 inference/kernel.py, with its
launcher ``fp8_gemm``), as its ``Linear`` calls it for a 128 x 128 block-quantised weight: ``N`` and ``K`` are
``tl.constexpr`` (one compile per weight shape: the trip count ``k = tl.cdiv(K, BLOCK_SIZE_K)`` is a constant), A
[M, K] float8_e4m3fn quantised per 1 x 128 group by ``act_quant`` with fp32 scales [M, K // 128], B [N, K]
float8_e4m3fn read transposed (``offs_n[None, :] * K + offs_k[:, None]``) with fp32 scales [N // 128, K // 128]; no
stride arguments (contiguous, K the row pitch), rows and columns wrapped with ``% M`` / ``% N`` so that the loads
need no row mask, the K tail masked as ``offs_k < K - i * BLOCK_SIZE_K``, the scale pointers walked one group a step
(``a_s_ptrs += 1``, ``b_s_ptrs += 1``; B's row of scales found as ``(offs_n // BLOCK_SIZE_K) * k``), each step's dot
rescaled into the accumulator (``accumulator += tl.dot(a, b) * a_s[:, None] * b_s[None, :]``), the output in the
model's default dtype (bf16, ``torch.set_default_dtype`` in DeepSeek's generate.py). ``@triton.autotune`` over its
36 configs (BLOCK_SIZE_M 16/32/64 x BLOCK_SIZE_N 32/64/128 x 3-6 stages, BLOCK_SIZE_K 128, 8 warps) keyed on N and
K; TWILL_SPEC takes {64, 128, 128, 8 warps, 4 stages}. A MoE expert's down projection: K = 2048, N = 7168."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton import Config

N_OUT, K_IN = 7168, 2048
TWILL_SPEC: dict[str, Any] = {
    "kernel": "fp8_gemm_kernel",
    "signature": {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*bf16", "a_s_ptr": "*fp32",
                  "b_s_ptr": "*fp32", "M": "i32"},
    "constexprs": {"N": N_OUT, "K": K_IN, "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128},
    "num_warps": 8, "num_stages": 4,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "a_s_ptr", "b_s_ptr"]}
PROBLEM: dict[str, int] = {"M": 4096}
SMALL: dict[str, int] = {"M": 37}


fp8_gemm_configs = [
    Config({'BLOCK_SIZE_M': block_m, 'BLOCK_SIZE_N': block_n, 'BLOCK_SIZE_K': 128}, num_stages=num_stages, num_warps=8)
    for block_m in [16, 32, 64] for block_n in [32, 64, 128] for num_stages in [3, 4, 5, 6]
]


@triton.autotune(configs=fp8_gemm_configs, key=['N', 'K'])
@triton.jit
def fp8_gemm_kernel(a_ptr, b_ptr, c_ptr,
                    a_s_ptr, b_s_ptr,
                    M, N: tl.constexpr, K: tl.constexpr,
                    BLOCK_SIZE_M: tl.constexpr,
                    BLOCK_SIZE_N: tl.constexpr,
                    BLOCK_SIZE_K: tl.constexpr):
    # twill corpus rendition: C = (A * a_s) @ (B * b_s)^T, the scales per 128-wide group of K
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    k = tl.cdiv(K, BLOCK_SIZE_K)
    offs_m = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_n = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = b_ptr + offs_n[None, :] * K + offs_k[:, None]
    a_s_ptrs = a_s_ptr + offs_m * k
    b_s_ptrs = b_s_ptr + (offs_n // BLOCK_SIZE_K) * k

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(k):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - i * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - i * BLOCK_SIZE_K, other=0.0)
        a_s = tl.load(a_s_ptrs)
        b_s = tl.load(b_s_ptrs)
        accumulator += tl.dot(a, b) * a_s[:, None] * b_s[None, :]
        a_ptrs += BLOCK_SIZE_K
        b_ptrs += BLOCK_SIZE_K
        a_s_ptrs += 1
        b_s_ptrs += 1
    c = accumulator.to(c_ptr.dtype.element_ty)
    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + offs_m[:, None] * N + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c_ptrs, c, mask=mask)


def fp8_gemm(a, a_s, b, b_s, out_dtype):
    """DeepSeek's launcher; the output dtype passed (its ``torch.get_default_dtype()``, bf16 in the model)."""
    assert a.is_contiguous() and b.is_contiguous(), 'Input tensors must be contiguous'
    assert a_s.is_contiguous() and b_s.is_contiguous(), 'Scaling factor tensors must be contiguous'
    K = a.size(-1)
    M = a.numel() // K
    N = b.size(0)
    c = a.new_empty(*a.size()[:-1], N, dtype=out_dtype)
    grid = lambda META: (triton.cdiv(M, META['BLOCK_SIZE_M']), triton.cdiv(N, META['BLOCK_SIZE_N']))  # noqa: E731
    fp8_gemm_kernel[grid](a, b, c, a_s, b_s, M, N, K)
    return c


def make_inputs(M: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [M, K] quantised as act_quant does (per 1 x 128 group: amax / 448); the weight [N, K] as weight_quant does
    (per 128 x 128 block)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K_IN), device=device, generator=g)
    xs = x.view(M, K_IN // 128, 128).abs().amax(-1) / 448.0
    a = (x.view(M, K_IN // 128, 128) / xs[..., None]).view(M, K_IN).to(torch.float8_e4m3fn)
    w = torch.randn((N_OUT, K_IN), device=device, generator=g) / K_IN ** 0.5
    blocks = w.view(N_OUT // 128, 128, K_IN // 128, 128)
    ws = blocks.abs().amax(dim=(1, 3)) / 448.0
    b = (blocks / ws[:, None, :, None]).view(N_OUT, K_IN).to(torch.float8_e4m3fn)
    return {"a": a, "a_s": xs.contiguous(), "b": b, "b_s": ws.contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y = x @ W^T from the quantised operands, bf16 [M, N] (the autotuner picks the tiles)."""
    import torch
    return fp8_gemm(inputs["a"], inputs["a_s"], inputs["b"], inputs["b_s"], torch.bfloat16)


def reference(inputs: dict[str, Any]) -> Any:
    a = inputs["a"].float() * inputs["a_s"].repeat_interleave(128, dim=1)
    b = inputs["b"].float() * inputs["b_s"].repeat_interleave(128, dim=0).repeat_interleave(128, dim=1)
    return (a @ b.T).bfloat16()


def flops(M: int) -> float:
    return 2.0 * M * N_OUT * K_IN
