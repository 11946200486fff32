"""A block-scaled GEMM in the style of DeepSeek-V3's block-quantised FP8 GEMMs (deepseek-ai/DeepSeek-V3
inference/kernel.py ``fp8_gemm_kernel``, DeepGEMM's 128 x 128 scaling blocks), with fp16 storage in place of
float8_e4m3fn: A [M, K] carries one fp32 scale per (128-row block, 128-column K block), B [K, N] one per (128 K block,
128-column N block), as DeepSeek's weight quantisation keeps them. Each program owns one [BLOCK_M, BLOCK_N] tile of C
and walks K in quantisation blocks of QB = 128: the outer loop loads the block's two scales and multiplies them
(``s = a_s * b_s``); ``if s != 0:`` (a block pruned to zero, or quantised to all zeros, has scale 0 and is skipped)
the block's partial product is summed in a local tile (``part = tl.zeros(...)``) by an inner loop of QB // BLOCK_K
= 2 steps of BLOCK_K = 64, ``part += tl.dot(a, b)``, and then rescaled into the accumulator carried by the outer
loop (``acc += part * s``: the scale applies to the whole block's product, as the FP8 kernels promote each block's
partial sum). C is stored once after the outer loop. So the scheduled loop sits inside an ``if`` inside a loop
over K blocks, with a fresh accumulator per block and a second one carried outside.

C = sum_kb (A[:, kb] @ B[kb, :]) * a_s[m_blk, kb] * b_s[kb, n_blk]; fp16 in, fp32 accumulate, bf16 out. Nothing
here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

QB_ = 128
ZERO_FRACTION = 0.25
TWILL_SPEC: dict[str, Any] = {
    "kernel": "block_scaled_skip_gemm",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*bf16", "a_s_ptr": "*fp32", "b_s_ptr": "*fp32",
                  "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "QB": QB_},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "a_s_ptr", "b_s_ptr", "M", "N", "K", "stride_am", "stride_bk",
                     "stride_cm"],
}
PROBLEM: dict[str, int] = {"M": 4096, "N": 7168, "K": 2048}
SMALL: dict[str, int] = {"M": 384, "N": 256, "K": 640}


@triton.jit
def block_scaled_skip_gemm(a_ptr, b_ptr, c_ptr, a_s_ptr, b_s_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                           QB: tl.constexpr):
    """One [BLOCK_M, BLOCK_N] tile of C, each live QB-wide K block's product rescaled by its block scales."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_kk = tl.arange(0, BLOCK_K)
    mask_m = offs_m < M
    mask_n = offs_n < N
    n_kb = tl.cdiv(K, QB)
    n_nb = tl.cdiv(N, QB)
    a_s_row = a_s_ptr + ((pid_m * BLOCK_M) // QB) * n_kb
    b_s_col = b_s_ptr + (pid_n * BLOCK_N) // QB

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kb in range(0, n_kb):
        a_s = tl.load(a_s_row + kb)
        b_s = tl.load(b_s_col + kb * n_nb)
        s = a_s * b_s
        if s != 0:
            part = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for k in range(kb * QB, kb * QB + QB, BLOCK_K):
                offs_k = k + offs_kk
                a = tl.load(a_ptr + offs_m[:, None] * stride_am + offs_k[None, :],
                            mask=mask_m[:, None] & (offs_k[None, :] < K), other=0.0)
                b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :],
                            mask=(offs_k[:, None] < K) & mask_n[None, :], other=0.0)
                part += tl.dot(a, b)
            acc += part * s

    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=mask_m[:, None] & mask_n[None, :])


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A [M, K] and B [K, N] fp16 (the dequantised block values, within FP8's range); scales a_s [M/128, K/128] and
    b_s [K/128, N/128] fp32, about ZERO_FRACTION of A's zero (the first row block keeps all its K blocks, the last
    row block loses all of them, so a tile with every block skipped is stored as zeros)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    cdiv = lambda x, y: -(-x // y)  # noqa: E731
    a = (torch.rand((M, K), device=device, generator=g) * 8 - 4).to(torch.float16)
    b = (torch.rand((K, N), device=device, generator=g) * 8 - 4).to(torch.float16)
    a_s = torch.rand((cdiv(M, QB_), cdiv(K, QB_)), device=device, generator=g) / 16 + 1 / 64
    a_s[torch.rand(a_s.shape, device=device, generator=g) < ZERO_FRACTION] = 0
    a_s[0] = torch.rand((a_s.shape[1],), device=device, generator=g) / 16 + 1 / 64
    a_s[-1] = 0
    b_s = (torch.rand((cdiv(K, QB_), cdiv(N, QB_)), device=device, generator=g) + 0.5) / (4 * K ** 0.5)
    return {"a": a, "b": b, "a_s": a_s.contiguous(), "b_s": b_s.contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C, bf16 [M, N], one program per tile."""
    import torch
    a, b = inputs["a"], inputs["b"]
    (M, K), (_, N) = a.shape, b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.bfloat16)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    block_scaled_skip_gemm[grid](a, b, c, inputs["a_s"], inputs["b_s"], M, N, K, a.stride(0), b.stride(0),
                                 c.stride(0), BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, QB=QB_,
                                 num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, b, a_s, b_s = inputs["a"].float(), inputs["b"].float(), inputs["a_s"], inputs["b_s"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.zeros((M, N), device=a.device, dtype=torch.float32)
    for kb in range(a_s.shape[1]):
        ks = slice(kb * QB_, min(K, kb * QB_ + QB_))
        s = a_s[:, kb].repeat_interleave(QB_)[:M, None] * b_s[kb].repeat_interleave(QB_)[None, :N]
        c += (a[:, ks] @ b[ks, :]) * s
    return c


def flops(M: int, N: int, K: int) -> float:
    """The live blocks' multiply-adds (1 - ZERO_FRACTION of the dense GEMM's, about)."""
    return 2.0 * M * N * K * (1 - ZERO_FRACTION)
