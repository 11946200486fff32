"""Liger-Kernel's fused neighborhood attention, its score kernel ``_fused_neighborhood_attention_qk_kernel``
(liger_kernel/ops/fused_neighborhood_attention.py, 2025): grid (batch * heads, cdiv(seq_len, BLOCK_SIZE_M),
cdiv(seq_len, BLOCK_SIZE_N)); everything but the pointers and strides a ``tl.constexpr`` as Liger declares it
(batch_size, num_heads, seq_len, head_dim, the float ``scale``, kernel_size, dilation) and **num_stages and
num_warps passed as constexpr kernel parameters** (positionally, as Liger launches it); the loop ``for k_start in
range(0, head_dim, BLOCK_SIZE_K)`` with BLOCK_SIZE_K = max(16, next_power_of_2(head_dim)) (one trip, or a masked
one for a head_dim that is not a power of two), q and k chunks loaded [rows, K] with row and K masks and
``tl.dot(q_chunk, tl.trans(k_chunk))``; after the loop the scale, the neighborhood mask read from a precomputed
fp32 [seq_len, seq_len] mask tensor (``_neighborhood_mask_kernel``'s, built here in torch: |i - j| <= kernel_size //
2 * dilation, on the dilation grid) and ``tl.where(neighborhood_mask > 0.0, acc, float("-inf"))``, the fp16 store.
Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

BATCH, HEADS, SEQ, HEAD_DIM, KSIZE, DIL = 4, 16, 2048, 128, 7, 1
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fused_neighborhood_attention_qk_kernel",
    "signature": {"Q_ptr": "*fp16", "K_ptr": "*fp16", "QK_ptr": "*fp16", "mask_ptr": "*fp32",
                  "q_batch_stride": "i32", "q_head_stride": "i32", "q_seq_stride": "i32", "q_dim_stride": "i32",
                  "k_batch_stride": "i32", "k_head_stride": "i32", "k_seq_stride": "i32", "k_dim_stride": "i32",
                  "qk_batch_stride": "i32", "qk_head_stride": "i32", "qk_seq_stride": "i32",
                  "qk_seq2_stride": "i32"},
    "constexprs": {"batch_size": BATCH, "num_heads": HEADS, "seq_len": SEQ, "head_dim": HEAD_DIM,
                   "scale": 1.0 / math.sqrt(HEAD_DIM), "kernel_size": KSIZE, "dilation": DIL,
                   "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": max(16, triton.next_power_of_2(HEAD_DIM)),
                   "num_stages": 4, "num_warps": 8},
    "num_warps": 8, "num_stages": 4,
    "divisibility": ["Q_ptr", "K_ptr", "QK_ptr", "mask_ptr", "q_batch_stride", "q_head_stride", "q_seq_stride",
                     "k_batch_stride", "k_head_stride", "k_seq_stride", "qk_batch_stride", "qk_head_stride",
                     "qk_seq_stride"]}
PROBLEM: dict[str, int] = {"B": BATCH, "H": HEADS, "S": SEQ, "D": HEAD_DIM}
SMALL: dict[str, int] = {"B": 1, "H": 2, "S": 100, "D": 48}


@triton.jit
def _fused_neighborhood_attention_qk_kernel(
    Q_ptr,
    K_ptr,
    QK_ptr,
    mask_ptr,
    q_batch_stride,
    q_head_stride,
    q_seq_stride,
    q_dim_stride,
    k_batch_stride,
    k_head_stride,
    k_seq_stride,
    k_dim_stride,
    qk_batch_stride,
    qk_head_stride,
    qk_seq_stride,
    qk_seq2_stride,
    batch_size: tl.constexpr,
    num_heads: tl.constexpr,
    seq_len: tl.constexpr,
    head_dim: tl.constexpr,
    scale: tl.constexpr,
    kernel_size: tl.constexpr,
    dilation: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    num_stages: tl.constexpr,
    num_warps: tl.constexpr,
):
    batch_head_id = tl.program_id(0)
    tile_m = tl.program_id(1)
    tile_n = tl.program_id(2)

    batch_id = batch_head_id // num_heads
    head_id = batch_head_id % num_heads

    row_start = tile_m * BLOCK_SIZE_M
    col_start = tile_n * BLOCK_SIZE_N

    row_offsets = row_start + tl.arange(0, BLOCK_SIZE_M)
    col_offsets = col_start + tl.arange(0, BLOCK_SIZE_N)

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)

    for k_start in range(0, head_dim, BLOCK_SIZE_K):
        k_offsets = k_start + tl.arange(0, BLOCK_SIZE_K)
        k_mask = k_offsets < head_dim

        q_ptrs = (
            Q_ptr
            + batch_id * q_batch_stride
            + head_id * q_head_stride
            + row_offsets[:, None] * q_seq_stride
            + k_offsets[None, :] * q_dim_stride
        )
        q_mask = (row_offsets[:, None] < seq_len) & k_mask[None, :]
        q_chunk = tl.load(q_ptrs, mask=q_mask, other=0.0)

        k_ptrs = (
            K_ptr
            + batch_id * k_batch_stride
            + head_id * k_head_stride
            + col_offsets[:, None] * k_seq_stride
            + k_offsets[None, :] * k_dim_stride
        )
        k_mask = (col_offsets[:, None] < seq_len) & k_mask[None, :]
        k_chunk = tl.load(k_ptrs, mask=k_mask, other=0.0)

        acc += tl.dot(q_chunk, tl.trans(k_chunk))

    acc = acc * scale

    mask_ptrs = mask_ptr + row_offsets[:, None] * seq_len + col_offsets[None, :]
    valid_mask = (row_offsets[:, None] < seq_len) & (col_offsets[None, :] < seq_len)
    neighborhood_mask = tl.load(mask_ptrs, mask=valid_mask, other=0.0)

    acc = tl.where(neighborhood_mask > 0.0, acc, float("-inf"))

    qk_ptrs = (
        QK_ptr
        + batch_id * qk_batch_stride
        + head_id * qk_head_stride
        + row_offsets[:, None] * qk_seq_stride
        + col_offsets[None, :] * qk_seq2_stride
    )
    tl.store(qk_ptrs, acc, mask=valid_mask)


def _neighborhood_mask(S: int, device: Any) -> Any:
    import torch
    i = torch.arange(S, device=device)
    rel = i[None, :] - i[:, None]
    ok = (rel.abs() <= (KSIZE // 2) * DIL) & (rel % DIL == 0)
    return ok.float()


def make_inputs(B: int, H: int, S: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, H, S, D), device=device, generator=g).half()
    k = torch.randn((B, H, S, D), device=device, generator=g).half()
    return {"query": q, "key": k, "mask": _neighborhood_mask(S, device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """fused_neighborhood_attention_forward's score stage: [scores with -inf set to 0, -inf flags], [2, B, H, S, S]."""
    import torch
    query, key, mask = inputs["query"], inputs["key"], inputs["mask"]
    batch_size, num_heads, seq_len, head_dim = query.shape
    scale = 1.0 / math.sqrt(head_dim)
    qk_scores = torch.empty(batch_size, num_heads, seq_len, seq_len, device=query.device, dtype=query.dtype)
    BLOCK_SIZE_M = min(64, triton.next_power_of_2(seq_len))
    BLOCK_SIZE_N = min(64, triton.next_power_of_2(seq_len))
    BLOCK_SIZE_K = max(16, triton.next_power_of_2(head_dim))
    num_stages = config.get("num_stages", 4 if seq_len >= 512 else 2)
    num_warps = config.get("num_warps", 8 if triton.next_power_of_2(seq_len) >= 2048 else 4)
    grid_qk = (batch_size * num_heads, triton.cdiv(seq_len, BLOCK_SIZE_M), triton.cdiv(seq_len, BLOCK_SIZE_N))
    _fused_neighborhood_attention_qk_kernel[grid_qk](
        query, key, qk_scores, mask,
        query.stride(0), query.stride(1), query.stride(2), query.stride(3),
        key.stride(0), key.stride(1), key.stride(2), key.stride(3),
        qk_scores.stride(0), qk_scores.stride(1), qk_scores.stride(2), qk_scores.stride(3),
        batch_size, num_heads, seq_len, head_dim, scale, KSIZE, DIL,
        BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, num_stages, num_warps)
    neg = torch.isneginf(qk_scores)
    return torch.stack([torch.where(neg, 0.0, qk_scores.float()), neg.float()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k = inputs["query"].double(), inputs["key"].double()
    s = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(q.shape[-1])
    ok = (inputs["mask"] > 0)[None, None].expand_as(s)
    return torch.stack([torch.where(ok, s.half().double(), 0.0), (~ok).double()])


def flops(B: int, H: int, S: int, D: int) -> float:
    return 2.0 * B * H * S * S * D
