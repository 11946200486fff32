"""FastVideo's VSA top-k block-mask builder, ``_fused_topk_mask_kernel`` (hao-ai-lab/FastVideo
fastvideo-kernel/python/fastvideo_kernel/triton_kernels/fused_compress_topk.py, launched by ``fused_topk_mask`` on a
grid of (q_blocks, B * H) to replace ``torch.topk`` + ``scatter_`` when building Video Sparse Attention's
block mask from the compressed-attention block scores).

The constructs: one row of ``kv_blocks`` fp32 scores per program, loaded once before the loop (masked to -inf
past ``kv_blocks``, a constexpr, in a power-of-two KV_BLOCK_SIZE tile); **a loop with no memory operation at all**:
``for _i in range(32)``, a constant-trip bisection carrying two fp32 scalars ``lo`` / ``hi`` (initialised from a
``tl.min`` / ``tl.max`` of the row), each iteration a full-row compare, an ``&`` with the valid mask, an int32
``tl.sum`` count and two ``tl.where`` selects of scalars; after the loop a threshold compare, an int32
``tl.cumsum`` for tie-breaking and a **bool store** (``Mask_ptr`` is ``*i1``). Wan2.1-14B 720p VSA shapes:
B 1, 40 heads, 1170 cube blocks of 64 tokens (75600 tokens, 21 x 45 x 80 latent in 3 x 3 x 3... rounded), top-k
= 1170 / 8 = 146 at 87.5% sparsity. Nothing changed from the library's kernel."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fused_topk_mask_kernel",
    "signature": {"Scores_ptr": "*fp32", "Mask_ptr": "*i1", "stride_s_bh": "i32", "stride_s_q": "i32",
                  "stride_s_kv": "i32", "stride_m_bh": "i32", "stride_m_q": "i32", "stride_m_kv": "i32"},
    "constexprs": {"kv_blocks": 1170, "topk": 146, "KV_BLOCK_SIZE": 2048},
    "num_warps": 4, "num_stages": 3,
    "divisibility": []}
PROBLEM: dict[str, int] = {"B": 1, "H": 40, "q_blocks": 1170, "kv_blocks": 1170, "topk": 146}
SMALL: dict[str, int] = {"B": 1, "H": 2, "q_blocks": 6, "kv_blocks": 1170, "topk": 146}


@triton.jit
def _fused_topk_mask_kernel(
    Scores_ptr,
    Mask_ptr,
    stride_s_bh,
    stride_s_q,
    stride_s_kv,
    stride_m_bh,
    stride_m_q,
    stride_m_kv,
    kv_blocks: tl.constexpr,
    topk: tl.constexpr,
    KV_BLOCK_SIZE: tl.constexpr,
):
    """Build topk boolean mask via randomized pivot selection (quickselect-style).

    For each (b,h,q_block) row: find the k-th largest score using iterative
    pivot-based partitioning, then build mask by comparing against threshold.

    Grid: (num_q_blocks, B * H)
    """
    q_idx = tl.program_id(0)
    bh_idx = tl.program_id(1)

    kv_offsets = tl.arange(0, KV_BLOCK_SIZE)
    score_base = Scores_ptr + bh_idx * stride_s_bh + q_idx * stride_s_q
    mask_base = Mask_ptr + bh_idx * stride_m_bh + q_idx * stride_m_q

    valid_mask = kv_offsets < kv_blocks
    scores = tl.load(score_base + kv_offsets * stride_s_kv, mask=valid_mask, other=-float("inf"))
    scores_f32 = scores.to(tl.float32)

    # Binary search for threshold: find value T such that count(scores > T) <= topk
    # and count(scores >= T) >= topk
    # Exclude -inf from lo so the binary search can converge when masked
    # scores are present (mid = (-inf + hi) * 0.5 = -inf would stall).
    finite_mask = valid_mask & (scores_f32 > float("-inf"))
    lo = tl.min(tl.where(finite_mask, scores_f32, float("inf")), axis=0)
    hi = tl.max(tl.where(valid_mask, scores_f32, float("-inf")), axis=0)
    # If all valid scores are -inf, lo > hi; threshold stays at -inf and
    # the tie-breaking logic below selects the first topk positions.
    lo = tl.minimum(lo, hi)

    for _i in range(32):
        mid = (lo + hi) * 0.5
        count_ge = tl.sum(((scores_f32 >= mid) & valid_mask).to(tl.int32), axis=0)
        # If count >= topk, threshold is at or above mid
        lo = tl.where(count_ge >= topk, mid, lo)
        hi = tl.where(count_ge >= topk, hi, mid)

    # lo is our threshold: count(scores >= lo) >= topk
    threshold = lo
    above_threshold = scores_f32 > threshold
    at_threshold = scores_f32 == threshold
    n_above = tl.sum(above_threshold.to(tl.int32), axis=0)
    n_needed_at_thresh = topk - n_above

    at_thresh_cumsum = tl.cumsum(at_threshold.to(tl.int32), axis=0)
    at_thresh_selected = at_threshold & (at_thresh_cumsum <= n_needed_at_thresh)

    final_mask = above_threshold | at_thresh_selected

    tl.store(mask_base + kv_offsets * stride_m_kv, final_mask, mask=valid_mask)


def make_inputs(B: int, H: int, q_blocks: int, kv_blocks: int, topk: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """scores [B, H, q_blocks, kv_blocks] fp32 (randn: distinct values, no ties)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    scores = torch.randn((B, H, q_blocks, kv_blocks), device=device, generator=g)
    return {"scores": scores, "topk": topk}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The [B, H, q_blocks, kv_blocks] top-k mask (as fp32 0 / 1), as ``fused_topk_mask(scores, topk)``."""
    import torch
    scores, topk = inputs["scores"], inputs["topk"]
    B, H, q_blocks, kv_blocks = scores.shape
    topk = min(topk, kv_blocks)
    KV_BLOCK_SIZE = triton.next_power_of_2(kv_blocks)
    mask = torch.zeros(B, H, q_blocks, kv_blocks, dtype=torch.bool, device=scores.device)
    scores_flat = scores.contiguous().view(B * H, q_blocks, kv_blocks)
    mask_flat = mask.view(B * H, q_blocks, kv_blocks)
    grid = (q_blocks, B * H)
    _fused_topk_mask_kernel[grid](
        scores_flat, mask_flat,
        scores_flat.stride(0), scores_flat.stride(1), scores_flat.stride(2),
        mask_flat.stride(0), mask_flat.stride(1), mask_flat.stride(2),
        kv_blocks=kv_blocks, topk=topk, KV_BLOCK_SIZE=KV_BLOCK_SIZE)
    return mask.float()


def reference(inputs: dict[str, Any]) -> Any:
    """``_pytorch_topk_mask_fallback``: torch.topk indices scattered into a zero mask."""
    import torch
    scores, topk = inputs["scores"], inputs["topk"]
    idx = torch.topk(scores, topk, dim=-1).indices
    return torch.zeros_like(scores, dtype=torch.bool).scatter_(-1, idx, True).float()


def flops(B: int, H: int, q_blocks: int, kv_blocks: int, topk: int) -> float:
    """32 bisection steps of a compare and a sum per score, plus the final pass: about 70 ops a score."""
    return 70.0 * B * H * q_blocks * kv_blocks
