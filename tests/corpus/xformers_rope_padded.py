"""xformers' fused RoPE + KV-cache write, ``_rope_padded_kernel`` (facebookresearch/xformers
xformers/ops/_triton/rope_padded_kernels.py, the form at commit 3a539699: before ``linear_scale`` / ``seqpos`` were
added), launched as xformers/ops/rope_padded.py's ``rope_padded`` does for a ``BlockDiagonalCausalWithOffsetPadded
KeysMask`` bias: grid (max_seqlen_q, batch, n_total_heads * n_groups), BLOCK_SIZE = max(128, min(4096,
next_power_of_2(dim))), num_warps = min(max(BLOCK_SIZE // 256, 1), 8).

The constructs: one program per (query token, batch element, head of q, k **or** v): the query position **loaded**
from ``seqstartq`` with an **early ``return``** for a token past its sequence's queries, the cache position from two
more loads (``seqstartk``, ``seqlenk``); the head index picks among three sources and three destinations with
**``tl.where`` on scalar pointers** (``in_qk = tl.where(is_q, xq, xk)``, ``out = tl.where(is_v, cache_v, out_qk)``),
so every load and store address is a select of pointers; constexpr branches on a **string constexpr**
(``internal_dtype == "f32"``, "" here) and on ``const_batch_strides`` (False) and ``adjacents`` (False: the
rotate-half pairing of Llama, re in the first half of the head, im in the second); the loop ``for offset in
range(0, dim // 2, BLOCK_SIZE // 2)`` over the head's half -- **a constant trip count** (dim and BLOCK_SIZE are
constexprs: 128 and 128, so one iteration) -- with two masked loads, ``pow`` (``theta ** (powers / -dim)``),
``sin`` / ``cos``, the rotation, ``tl.where(is_v, re_x, re_out)`` (v heads copied unrotated) and two stores. Port
change: ``tl_math.pow`` (``tl.libdevice`` or ``tl.math`` in the Triton of the time) is
``triton.language.extra.libdevice.pow`` (Triton 3.6 has neither). Llama-3-8B prefill into a padded cache: 4
sequences of 1024 new tokens on 1024 cached ones (cache rows padded to 4096), 32 q heads, 8 kv heads, head 128,
bf16. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra import libdevice

tl_math = libdevice

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_rope_padded_kernel",
    "signature": {"xq": "*bf16", "xk": "*bf16", "xv": "*bf16", "out_q": "*bf16", "cache_k": "*bf16",
                  "cache_v": "*bf16", "seqstartq": "*i32", "seqstartk": "*i32", "seqlenk": "*i32", "theta": "fp32",
                  "n_groups": "i32",
                  "stride_xqM": "i32", "stride_xqG": "i32", "stride_xqH": "i32",
                  "stride_xkM": "i32", "stride_xkG": "i32", "stride_xkH": "i32",
                  "stride_xvM": "i32", "stride_xvG": "i32", "stride_xvH": "i32",
                  "stride_cachekM": "i32", "stride_cachekG": "i32", "stride_cachekH": "i32",
                  "stride_cachevM": "i32", "stride_cachevG": "i32", "stride_cachevH": "i32",
                  "stride_seqstartq": "i32", "stride_seqstartk": "i32", "stride_seqlenk": "i32",
                  "stride_outqM": "i32", "stride_outqG": "i32", "stride_outqH": "i32",
                  "cache_padding_length": "i32"},
    "constexprs": {"k_start": 32, "v_start": 40, "dim": 128, "internal_dtype": "", "const_batch_strides": False,
                   "seqlenk_shift": 0, "BLOCK_SIZE": 128, "adjacents": False},
    "num_warps": 1, "num_stages": 3,
    "divisibility": ["stride_xqM", "stride_xqH", "stride_xkM", "stride_xkH", "stride_xvM", "stride_xvH",
                     "stride_cachekM", "stride_cachekH", "stride_cachevM", "stride_cachevH", "stride_outqM",
                     "stride_outqH"]}
PROBLEM: dict[str, int] = {"B": 4, "QLEN": 1024, "CACHED": 1024, "PAD": 4096, "HQ": 32, "HKV": 8, "D": 128}
SMALL: dict[str, int] = {"B": 3, "QLEN": 5, "CACHED": 7, "PAD": 16, "HQ": 32, "HKV": 8, "D": 128}


@triton.jit
def _rope_padded_kernel(
    xq,
    xk,
    xv,
    out_q,
    cache_k,
    cache_v,
    seqstartq,
    seqstartk,
    seqlenk,
    theta,
    k_start: tl.constexpr,
    v_start: tl.constexpr,
    n_groups,
    dim: tl.constexpr,  # dimension of each head
    stride_xqM,
    stride_xqG,
    stride_xqH,
    stride_xkM,
    stride_xkG,
    stride_xkH,
    stride_xvM,
    stride_xvG,
    stride_xvH,
    stride_cachekM,
    stride_cachekG,
    stride_cachekH,
    stride_cachevM,
    stride_cachevG,
    stride_cachevH,
    stride_seqstartq,
    stride_seqstartk,
    stride_seqlenk,
    stride_outqM,
    stride_outqG,
    stride_outqH,
    internal_dtype: tl.constexpr,
    # If True, seqstartq and seqstartk are not used but rather we
    # assume that every batch element has the same number of
    # queries (i.e. num_queries := tl.num_programs(1) )
    # and the same cache space cache_padding_length.
    # Always False when called below.
    const_batch_strides: tl.constexpr,
    # If const_batch_strides==True, the common cache length for each batch element.
    # (Only the first seqlenk[i] elements are actually in use, and only the last
    #  num_queries of those are actually written to.)
    cache_padding_length,
    # offset added to all values in seqlenk before using them.
    # Always 0 when called below.
    seqlenk_shift: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    adjacents: tl.constexpr,
):
    query_pos_in_batch_elt = tl.program_id(0)
    batch_elt = tl.program_id(1)
    group_head_idx = tl.program_id(2)
    group_idx = group_head_idx % n_groups
    head_idx = group_head_idx // n_groups

    if internal_dtype == "f32":
        theta = theta.to(tl.float32)
    elif internal_dtype == "f64":
        theta = theta.to(tl.float64)

    if const_batch_strides:
        query_pos = query_pos_in_batch_elt + tl.num_programs(1) * batch_elt
        end_query_pos = tl.num_programs(1) * (batch_elt + 1)
    else:
        query_pos = query_pos_in_batch_elt + tl.load(
            seqstartq + batch_elt * stride_seqstartq
        )
        end_query_pos = tl.load(seqstartq + (batch_elt + 1) * stride_seqstartq)
        if query_pos >= end_query_pos:
            return

    is_q = head_idx < k_start
    is_v = head_idx >= v_start

    xq += query_pos * stride_xqM + head_idx * stride_xqH + group_idx * stride_xqG
    out_q += (
        query_pos * stride_outqM + head_idx * stride_outqH + group_idx * stride_outqG
    )

    if const_batch_strides:
        cache_start = cache_padding_length * batch_elt
    else:
        cache_start = tl.load(seqstartk + batch_elt * stride_seqstartk)
    end_of_batch_elt_cache = (
        cache_start + tl.load(seqlenk + batch_elt * stride_seqlenk) + seqlenk_shift
    )

    cache_pos = end_of_batch_elt_cache - (end_query_pos - query_pos)
    seq_pos = cache_pos - cache_start
    cache_k += (
        (head_idx - k_start) * stride_cachekH
        + cache_pos * stride_cachekM
        + group_idx * stride_cachekG
    )
    xk += (
        query_pos * stride_xkM
        + (head_idx - k_start) * stride_xkH
        + group_idx * stride_xkG
    )
    in_qk = tl.where(is_q, xq, xk)
    out_qk = tl.where(is_q, out_q, cache_k)

    cache_v += (
        (head_idx - v_start) * stride_cachevH
        + cache_pos * stride_cachevM
        + group_idx * stride_cachevG
    )
    xv += (
        query_pos * stride_xvM
        + (head_idx - v_start) * stride_xvH
        + group_idx * stride_xvG
    )

    out = tl.where(is_v, cache_v, out_qk)
    x_in = tl.where(is_v, xv, in_qk)

    for offset in range(0, dim // 2, BLOCK_SIZE // 2):
        c = tl.arange(0, BLOCK_SIZE // 2)
        powers = (offset + c) * 2.0
        if adjacents:
            cols_re = (offset + c) * 2
            cols_im = cols_re + 1
        else:
            cols_re = offset + c
            cols_im = cols_re + dim // 2

        mask = cols_im < dim

        re_x = tl.load(x_in + cols_re, mask=mask)
        im_x = tl.load(x_in + cols_im, mask=mask)
        # freqs = seq_pos / (theta ** (powers / dim))
        freqs = seq_pos * tl_math.pow(theta, powers / (-dim))
        sines = tl.sin(freqs)
        cosines = tl.cos(freqs)
        re_out = re_x * cosines - im_x * sines
        im_out = im_x * cosines + re_x * sines

        re_out_ = tl.where(is_v, re_x, re_out)
        im_out_ = tl.where(is_v, im_x, im_out)
        if internal_dtype == "f64":
            if re_x.dtype == tl.bfloat16:
                # triton 2.0.0 crashes if you try to convert
                # float64 directly to bfloat16, so make an intermediate step.
                re_out_ = re_out_.to(tl.float32)
                im_out_ = im_out_.to(tl.float32)
        tl.store(out + cols_re, re_out_, mask=mask)
        tl.store(out + cols_im, im_out_, mask=mask)


def make_inputs(B: int, QLEN: int, CACHED: int, PAD: int, HQ: int, HKV: int, D: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """xq [1, B*QLEN, HQ, D], xk / xv [1, B*QLEN, HKV, D] bf16; a padded cache [1, B*PAD, HKV, D] holding CACHED
    old rows a sequence (random), the new QLEN rows to be written after them."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    M = B * QLEN
    xq = torch.randn((1, M, HQ, D), device=device, generator=g).bfloat16()
    xk = torch.randn((1, M, HKV, D), device=device, generator=g).bfloat16()
    xv = torch.randn((1, M, HKV, D), device=device, generator=g).bfloat16()
    cache_k = torch.randn((1, B * PAD, HKV, D), device=device, generator=g).bfloat16()
    cache_v = torch.randn((1, B * PAD, HKV, D), device=device, generator=g).bfloat16()
    seqstartq = (torch.arange(B + 1, device=device) * QLEN).to(torch.int32)
    seqstartk = (torch.arange(B + 1, device=device) * PAD).to(torch.int32)
    seqlenk = torch.full((B,), CACHED + QLEN, device=device, dtype=torch.int32)
    return {"xq": xq, "xk": xk, "xv": xv, "cache_k": cache_k, "cache_v": cache_v, "seqstartq": seqstartq,
            "seqstartk": seqstartk, "seqlenk": seqlenk, "theta": 500000.0, "qlen": QLEN}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(out_q, cache_k, cache_v) after ``rope_padded(xq, xk, xv, cache_k, cache_v, attn_bias, theta=500000)``."""
    import torch
    xq, xk, xv = inputs["xq"], inputs["xk"], inputs["xv"]
    cache_k, cache_v = inputs["cache_k"].clone(), inputs["cache_v"].clone()
    out_q = torch.empty_like(xq)
    n_q_heads, n_kv_heads, dim = xq.shape[2], xk.shape[2], xq.shape[3]
    n_total_heads = n_q_heads + 2 * n_kv_heads
    v_start = n_total_heads - n_kv_heads
    k_start = n_q_heads
    n_groups = 1
    logical_bsz = inputs["seqlenk"].shape[0]
    MAX_FUSED_SIZE = 65536 // xq.element_size()
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(dim))
    BLOCK_SIZE = max(BLOCK_SIZE, 128)
    BLOCK_SIZE = min(BLOCK_SIZE, 4096)
    num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
    seqstartq, seqstartk, seqlenk = inputs["seqstartq"], inputs["seqstartk"], inputs["seqlenk"]
    _rope_padded_kernel[(inputs["qlen"], logical_bsz, n_total_heads * n_groups)](
        xq, xk, xv, out_q, cache_k, cache_v, seqstartq, seqstartk, seqlenk, inputs["theta"], k_start, v_start,
        n_groups, dim,
        xq.stride(1), 0, xq.stride(2), xk.stride(1), 0, xk.stride(2), xv.stride(1), 0, xv.stride(2),
        cache_k.stride(1), 0, cache_k.stride(2), cache_v.stride(1), 0, cache_v.stride(2),
        seqstartq.stride(0), seqstartk.stride(0), seqlenk.stride(0),
        out_q.stride(1), 0, out_q.stride(2),
        "", const_batch_strides=False, cache_padding_length=0, seqlenk_shift=0, BLOCK_SIZE=BLOCK_SIZE,
        adjacents=False, num_warps=num_warps)
    return out_q, cache_k, cache_v


def reference(inputs: dict[str, Any]) -> Any:
    """Rotate-half RoPE at each new token's position in its sequence (CACHED + t) on q and k (fp32, inv_freq
    theta^(-2i/D)); k rotated and v copied into the cache rows after the CACHED old ones."""
    import torch
    xq, xk, xv = inputs["xq"].float(), inputs["xk"].float(), inputs["xv"]
    cache_k, cache_v = inputs["cache_k"].clone(), inputs["cache_v"].clone()
    QLEN = inputs["qlen"]
    B = inputs["seqlenk"].shape[0]
    D = xq.shape[-1]
    PAD = cache_k.shape[1] // B
    cached = int(inputs["seqlenk"][0]) - QLEN
    pos = (cached + torch.arange(QLEN, device=xq.device, dtype=torch.float32)).repeat(B)        # [M]
    inv = torch.pow(torch.tensor(inputs["theta"], dtype=torch.float32),
                    torch.arange(0, D // 2, device=xq.device, dtype=torch.float32) * 2.0 / -D)
    f = pos[:, None] * inv[None, :]
    cos, sin = torch.cos(f)[None, :, None, :], torch.sin(f)[None, :, None, :]

    def rot(x: Any) -> Any:
        re, im = x[..., :D // 2], x[..., D // 2:]
        return torch.cat([re * cos - im * sin, im * cos + re * sin], dim=-1)

    out_q = rot(xq).bfloat16()
    k = rot(xk).bfloat16()
    for b in range(B):
        rows = slice(b * PAD + cached, b * PAD + cached + QLEN)
        cache_k[:, rows] = k[:, b * QLEN:(b + 1) * QLEN]
        cache_v[:, rows] = xv[:, b * QLEN:(b + 1) * QLEN]
    return out_q, cache_k, cache_v


def flops(B: int, QLEN: int, CACHED: int, PAD: int, HQ: int, HKV: int, D: int) -> float:
    """Per rotated element pair about 6 flops plus pow/sin/cos (counted 3): ~9 * D/2 per q and k head-token."""
    return 9.0 * (D // 2) * B * QLEN * (HQ + HKV)
