"""MInference's XAttention block scorer, causal softmax-then-block-sum (microsoft/MInference
minference/ops/xattention_fa.py, ``softmax_fuse_block_sum_kernel_causal``, launched by ``softmax_fuse_block_sum``
from ``xattn_estimate`` in minference/modules/xattention.py with ``segment_size = min(4096, reshaped_block_size)``):
reads a chunk of the stride-reduced attention logits [B, H, q_rows, k_len] (``flat_group_gemm_fuse_reshape``'s
output) and writes, per (16-row block, 16-column block), the sum of the rows' softmax probabilities.

The constructs: **five loops one after another** over the same row strip: (1) an online max / exp2-sum over the
segments left of the diagonal (``range(0, num_iters_before_causal)``, the bound computed from ``chunk_start`` and the
program id); (2) a **one-iteration loop** ``range(n, n + 1)`` over the diagonal segment with a causal ``tl.where``
(masked to -1e6, not -inf); then, with ``l_i_inv = 1 / l_i``, (3) a second pass over the left segments **re-loading
the same tiles**, normalising, zeroing rows past ``real_q_len``, a **3-D reshape** [16, 1, 16] and two nested
``tl.sum`` s (axis 2 then 0) and a **store per iteration**; (4) the same for the diagonal segment (one iteration);
(5) a **store-only loop** writing zeros right of the diagonal. m_i / l_i carried from loops 1-2 into 3-4 (l_i
starts at 1.0, harmless as the first alpha is 0). XAttention's defaults: block 128 / stride 8, so
``block_size = segment_size = 16``; bf16 logits as the bf16 model gives them; ``scale = log2(e) / sqrt(128) / 8``.
Launched as the library does (default 4 warps, 3 stages). Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

BS = 16
TWILL_SPEC: dict[str, Any] = {
    "kernel": "softmax_fuse_block_sum_kernel_causal",
    "signature": {"In": "*bf16", "Out": "*bf16", "scale": "fp32",
                  "input_stride_0": "i32", "input_stride_1": "i32", "input_stride_2": "i32",
                  "output_stride_0": "i32", "output_stride_1": "i32", "output_stride_2": "i32",
                  "real_q_len": "i32", "k_len": "i32", "chunk_start": "i32", "chunk_end": "i32"},
    "constexprs": {"segment_size": BS, "block_size": BS},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["input_stride_0", "input_stride_1", "input_stride_2", "output_stride_0", "output_stride_1",
                     "output_stride_2", "k_len", "chunk_start", "chunk_end"]}
# the last 2048-row chunk of a 128K-token prompt reduced by stride 8: 16384 key columns
PROBLEM: dict[str, int] = {"B": 1, "H": 32, "Q": 2048, "K": 16384}
SMALL: dict[str, int] = {"B": 1, "H": 2, "Q": 64, "K": 256}


@triton.jit
def softmax_fuse_block_sum_kernel_causal(
    In,
    Out,
    scale,
    input_stride_0,
    input_stride_1,
    input_stride_2,
    output_stride_0,
    output_stride_1,
    output_stride_2,
    real_q_len,
    k_len, # we assume k_len is divisible by chunk size
    chunk_start,
    chunk_end,
    segment_size: tl.constexpr,
    block_size: tl.constexpr,
):
    block_id = tl.program_id(0)
    head_id = tl.program_id(1)
    batch_id = tl.program_id(2)

    offs_q = tl.arange(0, block_size) + chunk_start + block_id * block_size
    offs_k = tl.arange(0, segment_size)

    num_iters = k_len // segment_size
    num_iters_before_causal = (chunk_start + (block_id + 1) * block_size - 1) // segment_size

    m_i = tl.zeros([block_size], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([block_size], dtype=tl.float32) + 1.0

    input_ptr = In + batch_id * input_stride_0 + head_id * input_stride_1 + block_id * block_size * input_stride_2
    input_ptr = input_ptr + tl.arange(0, segment_size) + tl.arange(0, block_size)[:, None] * input_stride_2

    output_ptr = Out + batch_id * output_stride_0 + head_id * output_stride_1 + block_id * output_stride_2
    output_ptr = output_ptr + tl.arange(0, segment_size // block_size)

    for iter in range(0, num_iters_before_causal):
        X = tl.load(input_ptr + iter * segment_size).to(tl.float32) * scale
        m_local = tl.max(X, 1)
        m_new = tl.maximum(m_i, m_local)
        alpha = tl.math.exp2(m_i - m_new)

        X = X - m_new[:, None]
        l_local = tl.sum(tl.math.exp2(X), 1)
        l_i = l_i * alpha + l_local

        m_i = m_new

    for iter in range(num_iters_before_causal, num_iters_before_causal + 1):
        X = tl.load(input_ptr + iter * segment_size).to(tl.float32) * scale
        mask = offs_q[:, None] >= (offs_k[None, :] + iter * segment_size)
        X = tl.where(mask, X, -1.0e6)
        m_local = tl.max(X, 1)
        m_new = tl.maximum(m_i, m_local)
        alpha = tl.math.exp2(m_i - m_new)

        X = X - m_new[:, None]
        l_local = tl.sum(tl.math.exp2(X), 1)
        l_i = l_i * alpha + l_local

        m_i = m_new

    l_i_inv = 1.0 / l_i

    sum_mask = offs_q[:, None] < real_q_len

    for iter in range(0, num_iters_before_causal):
        X = tl.load(input_ptr + iter * segment_size).to(tl.float32) * scale
        X = tl.exp2(X - m_i[:, None]) * l_i_inv[:, None]
        X = tl.where(sum_mask, X, 0)
        X = tl.reshape(X, (block_size, segment_size // block_size, block_size))
        X = tl.sum(X, 2)
        X = tl.sum(X, 0)
        tl.store(output_ptr + iter * segment_size // block_size, X.to(Out.type.element_ty))

    for iter in range(num_iters_before_causal, num_iters_before_causal + 1):
        X = tl.load(input_ptr + iter * segment_size).to(tl.float32) * scale
        mask = offs_q[:, None] >= (offs_k[None, :] + iter * segment_size)
        X = tl.where(mask, X, -1.0e6)
        X = tl.exp2(X - m_i[:, None]) * l_i_inv[:, None]
        X = tl.where(sum_mask, X, 0)
        X = tl.reshape(X, (block_size, segment_size // block_size, block_size))
        X = tl.sum(X, 2)
        X = tl.sum(X, 0)
        tl.store(output_ptr + iter * segment_size // block_size, X.to(Out.type.element_ty))

    for iter in range(num_iters_before_causal + 1, num_iters):
        X = tl.zeros([segment_size // block_size], dtype=tl.float32)
        tl.store(output_ptr + iter * segment_size // block_size, X.to(Out.type.element_ty))



def make_inputs(B: int, H: int, Q: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Logits [B, H, Q, K] bf16 (the last Q rows of a K-long causal chunk), 5 padded rows at the end."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((B, H, Q, K), device=device, generator=g) * 40.0).bfloat16()
    return {"x": x, "chunk_start": K - Q, "real_q_len": K - 5,
            "scale": 1.4426950408889634 / math.sqrt(128) / 8}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(block sums [B, H, Q / 16, K / 16] bf16,) as ``softmax_fuse_block_sum(..., is_causal=True)``."""
    import torch
    x = inputs["x"]
    batch_size, num_heads, q_len, k_len = x.shape
    output = torch.empty((batch_size, num_heads, q_len // BS, k_len // BS), dtype=x.dtype, device=x.device)
    grid = (q_len // BS, num_heads, batch_size)
    chunk_start = inputs["chunk_start"]
    softmax_fuse_block_sum_kernel_causal[grid](
        x, output, inputs["scale"], x.stride(0), x.stride(1), x.stride(2),
        output.stride(0), output.stride(1), output.stride(2), inputs["real_q_len"], k_len,
        chunk_start, chunk_start + q_len, BS, BS)
    return (output, )


def reference(inputs: dict[str, Any]) -> Any:
    """Causal base-2 softmax of x * scale per row (row r is global row chunk_start + r), rows >= real_q_len zeroed,
    summed over 16 x 16 blocks."""
    import torch
    x = inputs["x"].float() * inputs["scale"]
    B, H, Q, K = x.shape
    rows = inputs["chunk_start"] + torch.arange(Q, device=x.device)
    cols = torch.arange(K, device=x.device)
    x = x.masked_fill(cols[None, :] > rows[:, None], float("-inf"))
    p = torch.exp2(x - x.amax(-1, keepdim=True))
    p = p / p.sum(-1, keepdim=True)
    p = p * (rows < inputs["real_q_len"])[:, None]
    return (p.view(B, H, Q // BS, BS, K // BS, BS).sum((3, 5)), )


def flops(B: int, H: int, Q: int, K: int) -> float:
    """About 8 ops per logit over the causal half, two passes."""
    return 8.0 * B * H * Q * K
