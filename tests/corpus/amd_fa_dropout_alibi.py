"""flash-attention's Triton forward for varlen prefill (flash_attn/flash_attn_triton_amd/fwd_prefill.py, ``attn_fwd``
and ``_attn_fwd_inner``) with **dropout and ALiBi on**: the path the library's training forward takes
(``flash_attn_varlen_func(..., dropout_p=0.1, alibi_slopes=...)``).

The constructs: varlen bounds from int32 ``cu_seqlens_q`` / ``cu_seqlens_k``, an early ``return`` of the programs past
their sequence's queries, and -- when the causal bound leaves a program no key block -- **a store of zeros before an
early return**; grouped-query heads (``off_h_k = off_h_q // (HQ // HK)``); the loop's trip count
``min(cdiv(seqlen_k, BLOCK_N), cdiv((start_m + 1) * BLOCK_M + seqlen_k - seqlen_q, BLOCK_N))``; the per-head ALiBi
slope loaded once and the bias ``-slope * |m + seqlen_k - seqlen_q - n|`` **computed on each [BLOCK_M, BLOCK_N] tile**
by a ``@triton.jit`` helper; **Philox dropout inside the loop**: ``tl.rand(philox_seed, offsets)`` on a [BLOCK_M,
BLOCK_N] tile of int32 offsets (``batch_philox_offset + start_m * BLOCK_M * seqlen_k + start_n`` plus the row times
``seqlen_k`` and the column), through three nested helpers (``dropout_offsets`` / ``dropout_rng`` /
``dropout_mask``), the kept probabilities ``tl.where(keep, p, 0.0)`` fed to the second dot while the row sums take
them all; exp2 online softmax with ``l_i`` starting at 1.0 (the library's), the output scaled by ``1 / (1 -
dropout_p)`` after the loop. fp16, causal. The reference draws the same Philox numbers with a small Triton kernel of
its own (``_keep_kernel``). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "attn_fwd",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "Out": "*fp16", "Alibi_slopes": "*fp32",
                  "cu_seqlens_q": "*i32", "cu_seqlens_k": "*i32", "sm_scale": "fp32", "philox_seed": "i32",
                  "philox_offset_base": "i32", "dropout_p": "fp32", "stride_qm": "i32", "stride_qh": "i32",
                  "stride_kn": "i32", "stride_kh": "i32", "stride_vn": "i32", "stride_vh": "i32", "stride_om": "i32",
                  "stride_oh": "i32", "stride_az": "i32", "HQ": "i32", "HK": "i32"},
    "constexprs": {"IS_CAUSAL": True, "BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_DMODEL": 128, "ENABLE_DROPOUT": True,
                   "USE_ALIBI": True},
    "num_warps": 8, "num_stages": 1,
    "divisibility": ["stride_qm", "stride_kn", "stride_vn", "stride_om"]}
# Llama-style GQA prefill: 32 query heads over 8 KV heads of 128, 8 sequences up to 2048
PROBLEM: dict[str, int] = {"B": 8, "MAX_LEN": 2048}
SMALL: dict[str, int] = {"B": 3, "MAX_LEN": 300}
HQ_, HK_, D_ = 32, 8, 128
DROPOUT_P = 0.1
LOG2E = 1.44269504089


@triton.jit
def dropout_offsets(philox_seed, philox_offset, dropout_p, m, n, stride):
    ms = tl.arange(0, m)
    ns = tl.arange(0, n)
    return philox_offset + ms[:, None] * stride + ns[None, :]


@triton.jit
def dropout_rng(philox_seed, philox_offset, dropout_p, m, n, stride):
    rng_offsets = dropout_offsets(philox_seed, philox_offset, dropout_p, m, n, stride).to(tl.uint32)
    return tl.rand(philox_seed, rng_offsets)


@triton.jit
def dropout_mask(philox_seed, philox_offset, dropout_p, m, n, stride):
    rng_output = dropout_rng(philox_seed, philox_offset, dropout_p, m, n, stride)
    rng_keep = rng_output > dropout_p
    return rng_keep


@triton.jit
def compute_alibi_block(alibi_slope, seqlen_q, seqlen_k, offs_m, offs_n):
    relative_pos_block = offs_m[:, None] + seqlen_k - seqlen_q - offs_n[None, :]
    alibi_block = -1 * alibi_slope * tl.abs(relative_pos_block)
    return alibi_block


@triton.jit
def attn_fwd(Q, K, V, Out, Alibi_slopes, cu_seqlens_q, cu_seqlens_k, sm_scale, philox_seed, philox_offset_base,
             dropout_p, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_om, stride_oh,
             stride_az, HQ, HK, IS_CAUSAL: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
             BLOCK_DMODEL: tl.constexpr, ENABLE_DROPOUT: tl.constexpr, USE_ALIBI: tl.constexpr):
    start_m = tl.program_id(0)
    off_h_q = tl.program_id(1)
    off_z = tl.program_id(2)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    cu_seqlens_q_start = tl.load(cu_seqlens_q + off_z)
    cu_seqlens_q_end = tl.load(cu_seqlens_q + off_z + 1)
    seqlen_q = cu_seqlens_q_end - cu_seqlens_q_start
    if start_m * BLOCK_M > seqlen_q:
        return
    cu_seqlens_k_start = tl.load(cu_seqlens_k + off_z)
    cu_seqlens_k_end = tl.load(cu_seqlens_k + off_z + 1)
    seqlen_k = cu_seqlens_k_end - cu_seqlens_k_start
    n_blocks = tl.cdiv(seqlen_k, BLOCK_N)
    if IS_CAUSAL:
        n_blocks_seqlen = tl.cdiv((start_m + 1) * BLOCK_M + seqlen_k - seqlen_q, BLOCK_N)
        n_blocks = min(n_blocks, n_blocks_seqlen)
        if n_blocks <= 0:
            o_offset = Out + cu_seqlens_q_start * stride_om + off_h_q * stride_oh
            o_ptrs = o_offset + offs_m[:, None] * stride_om + offs_d[None, :]
            acc = tl.zeros([BLOCK_M, BLOCK_DMODEL], dtype=Out.type.element_ty)
            tl.store(o_ptrs, acc, mask=offs_m[:, None] < seqlen_q)
            return
    off_h_k = off_h_q // (HQ // HK)
    q_offset = Q + cu_seqlens_q_start * stride_qm + off_h_q * stride_qh
    q_ptrs = q_offset + offs_m[:, None] * stride_qm + offs_d[None, :]
    k_offset = K + cu_seqlens_k_start * stride_kn + off_h_k * stride_kh
    k_ptrs = k_offset + offs_d[:, None] + offs_n[None, :] * stride_kn
    v_offset = V + cu_seqlens_k_start * stride_vn + off_h_k * stride_vh
    v_ptrs = v_offset + offs_n[:, None] * stride_vn + offs_d[None, :]
    if USE_ALIBI:
        alibi_slope = tl.load(Alibi_slopes + off_z * stride_az + off_h_q)
    else:
        alibi_slope = None
    batch_philox_offset = philox_offset_base + (off_z * HQ + off_h_q) * seqlen_q * seqlen_k
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.full([BLOCK_M], 1.0, dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DMODEL], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504089
    q = tl.load(q_ptrs, mask=offs_m[:, None] < seqlen_q, other=0.0)
    for start_n in range(0, n_blocks * BLOCK_N, BLOCK_N):
        k = tl.load(k_ptrs + start_n * stride_kn, mask=(start_n + offs_n)[None, :] < seqlen_k, other=0.0)
        qk = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        qk += tl.dot(q, k)
        qk = tl.where((start_n + offs_n)[None, :] < seqlen_k, qk, float("-inf"))
        if IS_CAUSAL:
            causal_boundary = start_n + offs_n - (seqlen_k - seqlen_q)
            causal_mask = offs_m[:, None] >= causal_boundary[None, :]
            qk = tl.where(causal_mask, qk, float("-inf"))
        qk_scaled = qk * qk_scale
        if USE_ALIBI:
            alibi_block = compute_alibi_block(alibi_slope, seqlen_q, seqlen_k, offs_m, start_n + offs_n)
            qk_scaled += alibi_block * 1.44269504089
        m_ij = tl.maximum(m_i, tl.max(qk_scaled, 1))
        q_shifted = qk_scaled - m_ij[:, None]
        p = tl.math.exp2(q_shifted)
        l_ij = tl.sum(p, 1)
        if ENABLE_DROPOUT:
            philox_offset = batch_philox_offset + start_m * BLOCK_M * seqlen_k + start_n
            keep = dropout_mask(philox_seed, philox_offset, dropout_p, BLOCK_M, BLOCK_N, seqlen_k)
            p = tl.where(keep, p, 0.0)
        alpha = tl.math.exp2(m_i - m_ij)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs + start_n * stride_vn, mask=(start_n + offs_n)[:, None] < seqlen_k, other=0.0)
        l_i = l_i * alpha + l_ij
        m_i = m_ij
        acc += tl.dot(p.to(v.type.element_ty), v)
    l_recip = 1 / l_i[:, None]
    acc = acc * l_recip
    if ENABLE_DROPOUT:
        acc = acc / (1 - dropout_p)
    o_offset = Out + cu_seqlens_q_start * stride_om + off_h_q * stride_oh
    o_ptrs = o_offset + offs_m[:, None] * stride_om + offs_d[None, :]
    tl.store(o_ptrs, acc.to(Out.type.element_ty), mask=offs_m[:, None] < seqlen_q)


@triton.jit
def _keep_kernel(Keep, philox_seed, base, dropout_p, seqlen, BLOCK: tl.constexpr):
    """The keep mask attn_fwd draws for one (sequence, head): row m, column n at ``base + m * seqlen + n``."""
    m = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    for n0 in range(0, seqlen, BLOCK):
        o = (base + m * seqlen + n0 + offs).to(tl.uint32)
        tl.store(Keep + m * seqlen + n0 + offs, tl.rand(philox_seed, o) > dropout_p, mask=n0 + offs < seqlen)


def make_inputs(B: int, MAX_LEN: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """B sequences of lengths between MAX_LEN / 4 and MAX_LEN (the last MAX_LEN) packed: q [tokens, 32, 128], k, v
    [tokens, 8, 128] fp16; cu_seqlens int32 [B + 1] (the same for q and k: self-attention); ALiBi slopes [B, 32]
    fp32 (the geometric ones of the ALiBi paper, the same for every sequence)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = torch.randint(MAX_LEN // 4, MAX_LEN + 1, (B,), device=device, generator=g)
    lens[-1] = MAX_LEN
    cu = torch.zeros(B + 1, device=device, dtype=torch.int32)
    cu[1:] = torch.cumsum(lens, 0)
    total = int(cu[-1])
    q = torch.randn((total, HQ_, D_), device=device, generator=g).half()
    k, v = (torch.randn((total, HK_, D_), device=device, generator=g).half() for _ in range(2))
    slopes = torch.tensor([2.0 ** (-8.0 * (i + 1) / HQ_) for i in range(HQ_)], device=device).repeat(B, 1)
    return {"q": q, "k": k, "v": v, "cu": cu, "slopes": slopes, "max_len": MAX_LEN, "seed": 1234 + seed,
            "offset": 0, "sm_scale": 1.0 / D_ ** 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [tokens, 32, 128] fp16, dropout 0.1 with the inputs' Philox seed."""
    import torch
    q, k, v, cu = inputs["q"], inputs["k"], inputs["v"], inputs["cu"]
    o = torch.empty_like(q)
    B = cu.numel() - 1
    grid = (triton.cdiv(inputs["max_len"], 128), HQ_, B)
    attn_fwd[grid](q, k, v, o, inputs["slopes"], cu, cu, inputs["sm_scale"], inputs["seed"], inputs["offset"],
                   DROPOUT_P, q.stride(0), q.stride(1), k.stride(0), k.stride(1), v.stride(0), v.stride(1),
                   o.stride(0), o.stride(1), inputs["slopes"].stride(0), HQ_, HK_, IS_CAUSAL=True, BLOCK_M=128,
                   BLOCK_N=64, BLOCK_DMODEL=D_, ENABLE_DROPOUT=True, USE_ALIBI=True,
                   num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 1))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """Per sequence and head in fp32: causal softmax of the scaled scores plus ALiBi, the dropped probabilities zeroed
    (the kernel's Philox numbers, drawn by _keep_kernel) and the rest scaled by 1 / 0.9, times V."""
    import torch
    q, k, v, cu = inputs["q"], inputs["k"], inputs["v"], inputs["cu"].tolist()
    out = torch.empty(q.shape, device=q.device, dtype=torch.float32)
    for b in range(len(cu) - 1):
        s, e = cu[b], cu[b + 1]
        n = e - s
        i = torch.arange(n, device=q.device)
        causal = i[None, :] <= i[:, None]
        rel = (i[:, None] - i[None, :]).abs().float()
        for h in range(HQ_):
            keep = torch.empty((n, n), device=q.device, dtype=torch.bool)
            base = inputs["offset"] + (b * HQ_ + h) * n * n
            _keep_kernel[(n,)](keep, inputs["seed"], base, DROPOUT_P, n, BLOCK=1024)
            kh = h // (HQ_ // HK_)
            x = q[s:e, h].float() @ k[s:e, kh].float().T * inputs["sm_scale"] - inputs["slopes"][b, h] * rel
            p = torch.softmax(torch.where(causal, x, float("-inf")), dim=-1)
            out[s:e, h] = torch.where(keep, p, 0.0) @ v[s:e, kh].float() / (1 - DROPOUT_P)
    return out


def flops(B: int, MAX_LEN: int) -> float:
    """The causal half of the longest sequence's work, times B (the lengths vary: an estimate)."""
    return 2.0 * B * HQ_ * MAX_LEN * MAX_LEN * D_
