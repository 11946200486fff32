"""ColossalAI's no-padding prefill attention over a paged KV cache, the new-K-cache-layout version
``_fwd_context_paged_attention_kernel_v2`` (hpcaitech/ColossalAI colossalai/kernel/triton/context_attn_unpad.py,
launched by ``context_attention_unpadded(..., use_new_kcache_layout=True)`` from the inference engine's Llama
prefill): causal attention of each packed sequence, and the sequence's K / V written into its cache blocks.

The constructs: a 3-D grid whose first axis is padded to a power of two with an **early return** for a sequence
index past ``batch_size``; a **first loop** ``for i in range(0, cur_seq_idx)`` summing the earlier sequences'
lengths with **scalar loads** (its trip count a program id) to find the sequence's start; ``tl.static_assert`` s;
**block pointers** (``tl.make_block_ptr``) for Q, K (**transposed**: shape (HEAD_DIM, seq), order (0, 1)), V and O,
their shapes the **loaded** sequence length, ``boundary_check`` on every load and store, K / V advanced with
``tl.advance`` at the end of each iteration; a second early return (a row block past the sequence) after the
accumulators are made; the **main loop** ``range(0, (block_start_m + 1) * BLOCK_M, BLOCK_N)`` (causal: trip count
from the program id) with ``tl.multiple_of`` on its index, ``tl.dot(Q_i, k)``, ``S_ij *= sm_scale``, a causal
``tl.where`` adding -inf, natural-exp online softmax, ``p.to(v.type.element_ty)``, ``tl.dot(p, v)``; after it the
output stored, then under ``if cur_head_idx % KV_GROUPS == 0`` the K block copied into the cache's
[num_blocks, kv_heads, HEAD_DIM // X, block_size, X] layout by a **``tl.static_range`` loop** (HEAD_DIM // X = 16
unrolled load/store pairs) and the V block into [num_blocks, kv_heads, block_size, HEAD_DIM] transposed, the
cache block found by a **loaded block-table entry**. Llama-3-8B shapes (32 heads over 8 KV heads, head dim 128),
fp16, block size 32 (the library allows 16/32/64/128; BLOCK_M = BLOCK_N = block size), X = 16 bytes / 2 = 8; the
library's launch passes no num_warps / num_stages (Triton's defaults, 4 and 3). Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BS, D, GROUPS, X = 32, 128, 4, 8
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_context_paged_attention_kernel_v2",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "O": "*fp16", "KCache": "*fp16", "VCache": "*fp16",
                  "BLOCK_TABLES": "*i32", "batch_size": "i32",
                  "stride_qt": "i32", "stride_qh": "i32", "stride_qd": "constexpr",
                  "stride_kt": "i32", "stride_kh": "i32", "stride_kd": "constexpr",
                  "stride_vt": "i32", "stride_vh": "i32", "stride_vd": "constexpr",
                  "stride_ot": "i32", "stride_oh": "i32", "stride_od": "constexpr",
                  "stride_cacheb": "i32", "stride_cacheh": "i32", "stride_cachebs": "i32",
                  "stride_cached": "constexpr", "stride_bts": "i32", "stride_btb": "constexpr",
                  "context_lengths": "*i32", "sm_scale": "fp32"},
    # Triton's launcher specialises the unit strides as constants
    "constexprs": {"stride_qd": 1, "stride_kd": 1, "stride_vd": 1, "stride_od": 1, "stride_cached": 1,
                   "stride_btb": 1, "KV_GROUPS": GROUPS, "BLOCK_SIZE": BS, "HEAD_DIM": D, "KCACHE_X": X,
                   "BLOCK_M": BS, "BLOCK_N": BS},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["stride_qt", "stride_qh", "stride_kt", "stride_kh", "stride_vt", "stride_vh", "stride_ot",
                     "stride_oh", "stride_cacheb", "stride_cacheh", "stride_cachebs"]}
# 8 prompts of up to 2048 tokens; KV_GROUPS, head dim and block size are constexprs SMALL keeps
PROBLEM: dict[str, int] = {"B": 8, "H": 32, "H_KV": 8, "S": 2048}
SMALL: dict[str, int] = {"B": 3, "H": 8, "H_KV": 2, "S": 100}


@triton.jit
def _fwd_context_paged_attention_kernel_v2(
    Q,
    K,
    V,
    O,
    KCache,  # [num_blocks, num_kv_heads, head_dim // x, block_size, x]
    VCache,  # [num_blocks, num_kv_heads, block_size, head_dim]
    BLOCK_TABLES,  # [num_seqs, max_blocks_per_sequence]
    batch_size,
    stride_qt,
    stride_qh,
    stride_qd,
    stride_kt,
    stride_kh,
    stride_kd,
    stride_vt,
    stride_vh,
    stride_vd,
    stride_ot,
    stride_oh,
    stride_od,
    stride_cacheb,  # v cache stride(0) - num_blocks
    stride_cacheh,  # v cache stride(1) - num_kv_heads
    stride_cachebs,  # v cache stride(2) - block_size
    stride_cached,  # v cache stride(3) - head_dim
    stride_bts,
    stride_btb,
    context_lengths,
    sm_scale,
    KV_GROUPS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    HEAD_DIM: tl.constexpr,
    KCACHE_X: tl.constexpr,  # k stride on the second last dimension
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    cur_seq_idx = tl.program_id(0)
    if cur_seq_idx >= batch_size:
        return
    cur_head_idx = tl.program_id(1)
    block_start_m = tl.program_id(2)  # Br, max_input_len // Block_M
    cur_kv_head_idx = cur_head_idx // KV_GROUPS

    # NOTE It requires BLOCK_M, BLOCK_N, and BLOCK_SIZE to be the same
    tl.static_assert(BLOCK_M == BLOCK_N)
    tl.static_assert(BLOCK_N == BLOCK_SIZE)

    # get the current sequence length from provided context lengths tensor
    cur_seq_len = tl.load(context_lengths + cur_seq_idx)
    # NOTE when talking to fused QKV and a nopadding context attention,
    # we assume that the input Q/K/V is contiguous, and thus here `prev_seq_len_sum`
    # could be considered as the start index of the current sequence.
    # FIXME might want to explore better way to get the summation of prev seq lengths.
    # `tl.sum(tensor[:end])` is invalid as tensor slice is not supported in triton.
    prev_seq_len_sum = 0
    for i in range(0, cur_seq_idx):
        prev_seq_len_sum += tl.load(context_lengths + i)

    offset_q = prev_seq_len_sum * stride_qt + cur_head_idx * stride_qh
    offset_kv = prev_seq_len_sum * stride_kt + cur_kv_head_idx * stride_kh
    Q_block_ptr = tl.make_block_ptr(
        base=Q + offset_q,
        shape=(cur_seq_len, HEAD_DIM),
        strides=(stride_qt, stride_qd),
        offsets=(block_start_m * BLOCK_M, 0),
        block_shape=(BLOCK_M, HEAD_DIM),
        order=(1, 0),
    )
    K_block_ptr = tl.make_block_ptr(
        base=K + offset_kv,
        shape=(HEAD_DIM, cur_seq_len),
        strides=(stride_kd, stride_kt),
        offsets=(0, 0),
        block_shape=(HEAD_DIM, BLOCK_N),
        order=(0, 1),
    )
    V_block_ptr = tl.make_block_ptr(
        base=V + offset_kv,
        shape=(cur_seq_len, HEAD_DIM),
        strides=(stride_vt, stride_vd),
        offsets=(0, 0),
        block_shape=(BLOCK_N, HEAD_DIM),
        order=(1, 0),
    )
    O_block_ptr = tl.make_block_ptr(
        base=O + offset_q,
        shape=(cur_seq_len, HEAD_DIM),
        strides=(stride_ot, stride_od),
        offsets=(block_start_m * BLOCK_M, 0),
        block_shape=(BLOCK_M, HEAD_DIM),
        order=(1, 0),
    )

    # block table for the current sequence
    block_table_ptr = BLOCK_TABLES + cur_seq_idx * stride_bts
    # block indexes on block table (i.e. 0, 1, 2, ..., max_blocks_per_seq)
    # Consider `block_start_m` as the logical block idx in the current block table,
    # as we have BLOCK_M the same size as the block size.
    cur_block_table_idx = block_start_m
    cur_block_id = tl.load(block_table_ptr + cur_block_table_idx * stride_btb)
    offset_kvcache = cur_block_id * stride_cacheb + cur_kv_head_idx * stride_cacheh

    offsets_m = block_start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offsets_n = tl.arange(0, BLOCK_N)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    if block_start_m * BLOCK_M >= cur_seq_len:
        return

    Q_i = tl.load(Q_block_ptr, boundary_check=(1, 0))

    for block_start_n in range(0, (block_start_m + 1) * BLOCK_M, BLOCK_N):
        block_start_n = tl.multiple_of(block_start_n, BLOCK_N)

        k = tl.load(K_block_ptr, boundary_check=(0, 1))
        S_ij = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        S_ij += tl.dot(Q_i, k)
        S_ij *= sm_scale
        S_ij += tl.where(offsets_m[:, None] >= (block_start_n + offsets_n[None, :]), 0, float("-inf"))

        m_ij = tl.max(S_ij, 1)  # rowmax(Sij)
        m_ij = tl.maximum(m_i, m_ij)  # m_ij
        S_ij -= m_ij[:, None]
        p_ij_hat = tl.exp(S_ij)
        scale = tl.exp(m_i - m_ij)
        l_ij = scale * l_i + tl.sum(p_ij_hat, 1)
        acc = acc * scale[:, None]

        v = tl.load(V_block_ptr, boundary_check=(1, 0))
        p_ij_hat = p_ij_hat.to(v.type.element_ty)

        acc += tl.dot(p_ij_hat, v)
        l_i = l_ij
        m_i = m_ij
        K_block_ptr = tl.advance(K_block_ptr, (0, BLOCK_N))
        V_block_ptr = tl.advance(V_block_ptr, (BLOCK_N, 0))

    acc = acc / l_i[:, None]
    tl.store(O_block_ptr, acc.to(O.type.element_ty), boundary_check=(1, 0))

    if cur_head_idx % KV_GROUPS == 0:
        # Copy k to corresponding cache block
        block_range = tl.arange(0, BLOCK_SIZE)
        X_range = tl.arange(0, KCACHE_X)
        # unroll the loop aggressively
        for split_x in tl.static_range(HEAD_DIM // KCACHE_X):
            offsets_dmodel_x_partition = tl.arange(split_x * KCACHE_X, (split_x + 1) * KCACHE_X)
            offsets_k = K + offset_kv + offsets_dmodel_x_partition[None, :] * stride_kd + offsets_m[:, None] * stride_kt
            k = tl.load(offsets_k, mask=offsets_m[:, None] < cur_seq_len, other=0.0)
            # HACK: KCache must be contiguous in order to apply the following offsets calculation
            offsets_kcache = (
                KCache
                + offset_kvcache
                + split_x * BLOCK_SIZE * KCACHE_X
                + block_range[:, None] * KCACHE_X
                + X_range[None, :]
            )
            tl.store(offsets_kcache, k, mask=block_range[:, None] < cur_seq_len - block_start_m * BLOCK_SIZE)
        # Copy v to corresponding cache block
        offsets_vd = tl.arange(0, HEAD_DIM)  # offsets_dmodel
        offsets_vt = block_start_m * BLOCK_N + offsets_n
        offsets_v = V + offset_kv + offsets_vt[None, :] * stride_vt + offsets_vd[:, None] * stride_vd
        v = tl.load(offsets_v, mask=offsets_vt[None, :] < cur_seq_len, other=0.0)
        offsets_vcache = (
            VCache + offset_kvcache + block_range[None, :] * stride_cachebs + offsets_vd[:, None] * stride_cached
        )
        tl.store(offsets_vcache, v, mask=block_range[None, :] < cur_seq_len - block_start_m * BLOCK_SIZE)

    return


def make_inputs(B: int, H: int, H_KV: int, S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Packed q [T, H, 128], k / v [T, H_KV, 128] (T the sum of B lengths in [S/2, S], one of 1 token), shuffled
    cache blocks, zeroed caches."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = torch.randint(S // 2, S + 1, (B, ), device=device, generator=g).to(torch.int32)
    lens[-1] = 1
    T = int(lens.sum())
    max_blocks = (S + BS - 1) // BS
    n_blocks = B * max_blocks + 2
    tables = torch.randperm(n_blocks, device=device, generator=g)[: B * max_blocks].view(B, max_blocks)
    q = torch.randn((T, H, D), device=device, generator=g).half()
    k = torch.randn((T, H_KV, D), device=device, generator=g).half()
    v = torch.randn((T, H_KV, D), device=device, generator=g).half()
    k_cache = torch.zeros((n_blocks, H_KV, D // X, BS, X), dtype=torch.float16, device=device)
    v_cache = torch.zeros((n_blocks, H_KV, BS, D), dtype=torch.float16, device=device)
    return {"q": q, "k": k, "v": v, "k_cache": k_cache, "v_cache": v_cache, "lens": lens,
            "block_tables": tables.to(torch.int32).contiguous(), "max_seq_len": S}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(output [T, H * 128], k_cache, v_cache) as ``context_attention_unpadded(..., use_new_kcache_layout=True)``
    (the caches cloned first so the inputs stay as made)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    k_cache, v_cache = inputs["k_cache"].clone(), inputs["v_cache"].clone()
    context_lengths, block_tables = inputs["lens"], inputs["block_tables"]
    Lk = k.shape[-1]
    num_tokens, num_heads, head_dim = q.shape
    num_kv_group = num_heads // k.shape[-2]
    num_seqs, max_blocks_per_seq = block_tables.shape
    max_seq_len = inputs["max_seq_len"]
    sm_scale = 1.0 / (Lk ** 0.5)
    output = torch.empty((num_tokens, num_heads * head_dim), dtype=q.dtype, device=q.device)
    block_size = BS
    BLOCK_M = BLOCK_N = block_size
    grid = (triton.next_power_of_2(num_seqs), num_heads, triton.cdiv(max_seq_len, BLOCK_M))
    x = k_cache.shape[4]
    _fwd_context_paged_attention_kernel_v2[grid](
        q, k, v, output, k_cache, v_cache, block_tables, num_seqs,
        q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2), output.stride(0), head_dim, 1,
        v_cache.stride(0), v_cache.stride(1), v_cache.stride(2), v_cache.stride(3),
        block_tables.stride(0), block_tables.stride(1), context_lengths, sm_scale,
        KV_GROUPS=num_kv_group, BLOCK_SIZE=block_size, HEAD_DIM=Lk, KCACHE_X=x, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    return output, k_cache, v_cache


def reference(inputs: dict[str, Any]) -> Any:
    """Causal softmax(q k^T / sqrt(128)) v per sequence (GQA), and each token's k / v at its cache slot."""
    import torch
    q, k, v = inputs["q"].float(), inputs["k"].float(), inputs["v"].float()
    lens, tables = inputs["lens"].tolist(), inputs["block_tables"].long()
    T, H, _ = q.shape
    G = H // k.shape[1]
    out = torch.zeros((T, H, D), dtype=torch.float32, device=q.device)
    k_cache, v_cache = inputs["k_cache"].float().clone(), inputs["v_cache"].float().clone()
    start = 0
    for b, L in enumerate(lens):
        qs, ks, vs = q[start:start + L], k[start:start + L], v[start:start + L]
        s = torch.einsum("thd,shd->hts", qs, ks.repeat_interleave(G, dim=1)) / D ** 0.5
        causal = torch.ones(L, L, dtype=torch.bool, device=q.device).tril()
        p = torch.softmax(s.masked_fill(~causal, float("-inf")), dim=-1)
        out[start:start + L] = torch.einsum("hts,shd->thd", p, vs.repeat_interleave(G, dim=1))
        t = torch.arange(L, device=q.device)
        blk, off = tables[b, t // BS], t % BS
        k_cache[blk, :, :, off, :] = ks.view(L, -1, D // X, X)
        v_cache[blk, :, off, :] = vs
        start += L
    return out.view(T, H * D), k_cache, v_cache


def flops(B: int, H: int, H_KV: int, S: int) -> float:
    """Causal: about 2 * 2 * B * H * S * S / 2 * 128."""
    return 2.0 * B * H * S * S * D
