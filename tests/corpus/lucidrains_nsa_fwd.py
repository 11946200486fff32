"""lucidrains' Native Sparse Attention Triton forward, ``forward_kernel`` (lucidrains/native-sparse-attention-pytorch
native_sparse_attention_pytorch/triton_native_sparse_attention.py, launched by ``native_sparse_attn_forward`` on a
grid of (cdiv(seqlen_q, BLOCK), batch * kv_heads), num_stages = 1; the fine "selected blocks" branch of NSA with
GQA, adapted by lucidrains from Tri Dao's flash_attn_triton.py).

The constructs: a ``@triton.heuristics`` decorator (EVEN_M / EVEN_N / EVEN_HEADDIM from the arguments, through a
plain helper ``divisible_by``); one program per (query block, KV head) carrying **all QUERY_HEAD_GROUPS query heads
of that KV head as one [G * BLOCK, D] tile** (a 3-D [G, BLOCK, D] load reshaped); before the loop the causal
diagonal block is done once (a dot, a causal ``tl.where`` on a reshaped [G, BLOCK, BLOCK] view, an LSE update);
then ``for off_sel_kv_block in range(NUM_SEL_KV_BLOCKS)`` (a constexpr trip count) where **each query row loads
its own selected block index and mask** (``tl.load(kv_block_indices_ptrs + off_sel_kv_block)``: [BLOCK] int64
and bool) and **gathers a [BLOCK, BLOCK, D] 3-D K tile and V tile whose addresses come from those indices**;
the scores are a **batched 3-D ``tl.dot``** of the query tile broadcast to [BLOCK, 16, D] (``expand_dims``,
``broadcast_to``, ``permute``, ``reshape`` to the 16-row minimum of an MMA) against the permuted K tile
[BLOCK, D, BLOCK], then summed back over the QUERY_EXPAND_DIM copies (``tl.sum(.., 2) / QUERY_EXPAND_DIM``);
the mask is added as ``tl.where(block_masks[:, None], 0, -inf)``; an online softmax carrying ``m_i`` and an
**LSE** ``lse_i`` (not a running sum), and a second batched 3-D dot [BLOCK, 16, BLOCK] x [BLOCK, BLOCK, D] for
P V, again summed over the copies and permuted back. NSA's selection shapes: block 64, 4 selected blocks a
query, 16 query heads over 4 KV heads (G = 4, expand 4), head dim 64, 8192 tokens, bf16 (4 warps: dim <= 64).
Port notes: the module-level version check / install hint and the einops imports are dropped; the kernel is as
written. It is only right for batch 1 (``off_b = off_hb // nheads`` divides by the *query* head count while the
grid's axis 1 is batch * kv_heads, and the LSE pointers carry no batch offset), so both sizes use batch 1."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "forward_kernel",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "kv_block_indices": "*i64", "kv_block_mask": "*i1",
                  "Out": "*bf16", "Lse": "*fp32", "softmax_scale": "fp32",
                  "stride_qb": "i32", "stride_qh": "i32", "stride_qm": "i32",
                  "stride_kb": "i32", "stride_kh": "i32", "stride_kn": "i32",
                  "stride_vb": "i32", "stride_vh": "i32", "stride_vn": "i32",
                  "stride_ob": "i32", "stride_oh": "i32", "stride_om": "i32",
                  "stride_kvbl_b": "i32", "stride_kvbl_h": "i32", "stride_kvbl_m": "i32",
                  "nheads": "i32", "seqlen_q": "i32", "seqlen_k": "i32", "seqlen_q_rounded": "i32", "headdim": "i32",
                  "CACHE_KEY_SEQLEN_Q": "i32", "CACHE_KEY_SEQLEN_K": "i32"},
    "constexprs": {"BLOCK_HEADDIM": 64, "EVEN_M": True, "EVEN_N": True, "EVEN_HEADDIM": True, "BLOCK": 64,
                   "QUERY_HEAD_GROUPS": 4, "QUERY_EXPAND_DIM": 4, "NUM_SEL_KV_BLOCKS": 4},
    "num_warps": 4, "num_stages": 1,
    # stride_kvbl_m is NUM_SEL_KV_BLOCKS (4): not 16-divisible; nheads 16
    "divisibility": ["stride_qb", "stride_qh", "stride_qm", "stride_kb", "stride_kh", "stride_kn", "stride_vb",
                     "stride_vh", "stride_vn", "stride_ob", "stride_oh", "stride_om", "stride_kvbl_b",
                     "stride_kvbl_h", "nheads", "seqlen_q", "seqlen_k", "seqlen_q_rounded", "headdim"]}
PROBLEM: dict[str, int] = {"batch": 1, "heads": 16, "kv_heads": 4, "seqlen": 8192, "dim": 64, "num_sel": 4}
SMALL: dict[str, int] = {"batch": 1, "heads": 8, "kv_heads": 2, "seqlen": 320, "dim": 64, "num_sel": 4}

TRITON_BLOCK_SIZE = 128 # some block size that allows triton not to break, at least half a year ago


def divisible_by(num, den):
    return (num % den) == 0


def round_up_multiple(n, mult):
    return triton.cdiv(n, mult) * mult


@triton.heuristics(
    {
        "EVEN_M": lambda args: divisible_by(args["seqlen_q"], args["BLOCK"]),
        "EVEN_N": lambda args: divisible_by(args["seqlen_k"], args["BLOCK"]),
        "EVEN_HEADDIM": lambda args: args["headdim"] == args["BLOCK_HEADDIM"],
    }
)
@triton.jit
def forward_kernel(
    Q,
    K,
    V,
    kv_block_indices,
    kv_block_mask,
    Out,
    Lse,
    softmax_scale,
    stride_qb,
    stride_qh,
    stride_qm,
    stride_kb,
    stride_kh,
    stride_kn,
    stride_vb,
    stride_vh,
    stride_vn,
    stride_ob,
    stride_oh,
    stride_om,
    stride_kvbl_b,
    stride_kvbl_h,
    stride_kvbl_m,
    nheads,
    seqlen_q,
    seqlen_k,
    seqlen_q_rounded,
    headdim,
    CACHE_KEY_SEQLEN_Q,
    CACHE_KEY_SEQLEN_K,
    BLOCK_HEADDIM: tl.constexpr,
    EVEN_M: tl.constexpr,
    EVEN_N: tl.constexpr,
    EVEN_HEADDIM: tl.constexpr,
    BLOCK: tl.constexpr,
    QUERY_HEAD_GROUPS: tl.constexpr,
    QUERY_EXPAND_DIM: tl.constexpr,
    NUM_SEL_KV_BLOCKS: tl.constexpr
):
    start_m = tl.program_id(0)
    off_hb = tl.program_id(1)
    off_b = off_hb // nheads

    off_h = off_hb % nheads

    offs_qh = off_h * QUERY_HEAD_GROUPS + tl.arange(0, QUERY_HEAD_GROUPS)

    offs_m = start_m * BLOCK + tl.arange(0, BLOCK)
    offs_n = start_m * BLOCK + tl.arange(0, BLOCK)
    offs_d = tl.arange(0, BLOCK_HEADDIM)

    q_ptrs = (
        Q +
        off_b * stride_qb +
        offs_qh[:, None, None] * stride_qh +
        offs_m[None, :, None] * stride_qm +
        offs_d[None, None, :]
    )

    k_ptrs = (
        K +
        off_b * stride_kb +
        off_h * stride_kh +
        offs_n[:, None] * stride_kn +
        offs_d[None, :]
    )

    v_ptrs = (
        V +
        off_b * stride_vb +
        off_h * stride_vh +
        offs_n[:, None] * stride_vn +
        offs_d[None, :]
    )

    # maximum

    m_i = tl.zeros([BLOCK * QUERY_HEAD_GROUPS], dtype = tl.float32) - float("inf")

    # lse

    lse_ptrs = (
        Lse +
        offs_qh[:, None] * seqlen_q_rounded +
        offs_m[None, :]
    )

    lse_i = tl.zeros([BLOCK * QUERY_HEAD_GROUPS], dtype = tl.float32) - float("inf")

    # output

    out_ptrs = (
        Out +
        off_b * stride_ob +
        offs_qh[:, None, None] * stride_oh +
        offs_m[None, :, None] * stride_om +
        offs_d[None, None, :]
    )

    acc_o = tl.zeros([QUERY_HEAD_GROUPS * BLOCK, BLOCK_HEADDIM], dtype = tl.float32)

    # load queries, keys, values

    if EVEN_M & EVEN_N:
        if EVEN_HEADDIM:
            q = tl.load(q_ptrs)
        else:
            q = tl.load(q_ptrs, mask=offs_d[None, :] < headdim, other=0.0)
    else:
        if EVEN_HEADDIM:
            q = tl.load(q_ptrs, mask=offs_m[:, None] < seqlen_q, other=0.0)
        else:
            q = tl.load(
                q_ptrs, mask=(offs_m[:, None] < seqlen_q) & (offs_d[None, :] < headdim), other=0.0
            )

    q = q.reshape([QUERY_HEAD_GROUPS * BLOCK, BLOCK_HEADDIM])

    if EVEN_N & EVEN_M:
        if EVEN_HEADDIM:
            k = tl.load(k_ptrs)
        else:
            k = tl.load(k_ptrs, mask=offs_d[None, :] < headdim, other=0.0)
    else:
        if EVEN_HEADDIM:
            k = tl.load(
                k_ptrs,
                mask=offs_n[:, None] < seqlen_k,
                other=0.0,
            )
        else:
            k = tl.load(
                k_ptrs,
                mask=(offs_n[:, None] < seqlen_k) & (offs_d[None, :] < headdim),
                other=0.0,
            )

    qk = tl.zeros([QUERY_HEAD_GROUPS * BLOCK, BLOCK], dtype=tl.float32)
    qk += tl.dot(q, tl.trans(k))

    if not EVEN_N:
        qk += tl.where(offs_n[None, :] < seqlen_k, 0, float("-inf"))

    qk = qk.reshape([QUERY_HEAD_GROUPS, BLOCK, BLOCK])

    qk += tl.where(offs_m[:, None] >= offs_n[None, :], 0, float("-inf"))

    qk = qk.reshape([QUERY_HEAD_GROUPS * BLOCK, BLOCK])

    m_ij = tl.maximum(tl.max(qk, 1) * softmax_scale, lse_i)
    p = tl.exp(qk * softmax_scale - m_ij[:, None])

    l_ij = tl.sum(p, 1)

    acc_o_scale = tl.exp(m_i - m_ij)
    acc_o *= acc_o_scale[:, None]

    if EVEN_N & EVEN_M:
        if EVEN_HEADDIM:
            v = tl.load(v_ptrs)
        else:
            v = tl.load(v_ptrs, mask=offs_d[None, :] < headdim, other=0.0)
    else:
        if EVEN_HEADDIM:
            v = tl.load(
                v_ptrs,
                mask=offs_n[:, None] < seqlen_k,
                other=0.0,
            )
        else:
            v = tl.load(
                v_ptrs,
                mask=(offs_n[:, None] < seqlen_k) & (offs_d[None, :] < headdim),
                other=0.0,
            )

    p = p.to(v.dtype)
    acc_o += tl.dot(p, v)

    # -- update statistics

    m_i = m_ij
    l_i_new = tl.exp(lse_i - m_ij) + l_ij
    lse_i = m_ij + tl.log(l_i_new)

    # take care of the selected kv blocks

    kv_block_indices_ptrs = (
        kv_block_indices +
        off_b * stride_kvbl_b +
        off_h * stride_kvbl_h +
        offs_m * stride_kvbl_m
    )

    kv_block_mask_ptrs = (
        kv_block_mask +
        off_b * stride_kvbl_b +
        off_h * stride_kvbl_h +
        offs_m * stride_kvbl_m
    )

    q = q.reshape(QUERY_HEAD_GROUPS, BLOCK, BLOCK_HEADDIM)
    q = q.permute((1, 0, 2))
    q = tl.expand_dims(q, 2)
    q = tl.broadcast_to(q, (BLOCK, QUERY_HEAD_GROUPS, QUERY_EXPAND_DIM, BLOCK_HEADDIM))
    q = q.reshape(BLOCK, 16, BLOCK_HEADDIM)

    for off_sel_kv_block in range(NUM_SEL_KV_BLOCKS):
        block_indices = tl.load(kv_block_indices_ptrs + off_sel_kv_block)
        block_masks = tl.load(kv_block_mask_ptrs + off_sel_kv_block)

        blocks_offs_n = block_indices[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :]

        block_k_ptrs = (
            K + off_b * stride_kb + off_h * stride_kh + (blocks_offs_n[:, :, None] * stride_kn + offs_d[None, None, :])
        )

        block_v_ptrs = (
            V + off_b * stride_vb + off_h * stride_vh + (blocks_offs_n[:, :, None] * stride_vn + offs_d[None, None, :])
        )

        # load k of shape (m, n, d), sparsely selected by each query

        k_block = tl.load(block_k_ptrs)

        # similarities

        block_qk = tl.zeros([BLOCK, 16, BLOCK], dtype = tl.float32)
        qk = tl.zeros([QUERY_HEAD_GROUPS, BLOCK, BLOCK], dtype = tl.float32)

        k_block = k_block.reshape(BLOCK, BLOCK, BLOCK_HEADDIM)
        k_block = k_block.permute(0, 2, 1)

        block_qk = tl.dot(q, k_block)
        block_qk = block_qk.reshape(BLOCK, QUERY_HEAD_GROUPS, QUERY_EXPAND_DIM, BLOCK)
        block_qk = tl.sum(block_qk, 2) / QUERY_EXPAND_DIM
        block_qk = block_qk.permute(1, 0, 2)

        qk += block_qk
        qk += tl.where(block_masks[:, None], 0, float("-inf"))

        qk = qk.reshape(QUERY_HEAD_GROUPS * BLOCK, BLOCK)

        # attention

        m_ij = tl.maximum(tl.max(qk, 1) * softmax_scale, lse_i)
        p = tl.exp(qk * softmax_scale - m_ij[:, None])

        l_ij = tl.sum(p, 1)

        # renormalize the running output

        acc_o_scale = tl.exp(m_i - m_ij)
        acc_o = acc_o * acc_o_scale[:, None]

        # aggregate values

        v_block = tl.load(block_v_ptrs)
        v_block = tl.reshape(v_block, (BLOCK, BLOCK, BLOCK_HEADDIM))

        p = p.to(v_block.dtype)
        p_expanded = p.reshape(QUERY_HEAD_GROUPS, BLOCK, BLOCK)
        p_expanded = p_expanded.permute(1, 0, 2)
        p_expanded = tl.expand_dims(p_expanded, 2)
        p_expanded = tl.broadcast_to(p_expanded, (BLOCK, QUERY_HEAD_GROUPS, QUERY_EXPAND_DIM, BLOCK))
        p_expanded = p_expanded.reshape(BLOCK, 16, BLOCK)

        block_acc_o = tl.dot(p_expanded, v_block)
        block_acc_o = block_acc_o.reshape(BLOCK, QUERY_HEAD_GROUPS, QUERY_EXPAND_DIM, BLOCK_HEADDIM)
        block_acc_o = tl.sum(block_acc_o, 2) / QUERY_EXPAND_DIM
        block_acc_o = block_acc_o.permute(1, 0, 2)
        block_acc_o = block_acc_o.reshape(QUERY_HEAD_GROUPS * BLOCK, BLOCK_HEADDIM)

        acc_o += block_acc_o

        # -- update statistics

        m_i = m_ij
        l_i_new = tl.exp(lse_i - m_ij) + l_ij
        lse_i = m_ij + tl.log(l_i_new)

    # normalize accumulated out

    acc_o_scale = tl.exp(m_i - lse_i)
    acc_o *= acc_o_scale[:, None]

    # write back lse

    lse_i = lse_i.reshape([QUERY_HEAD_GROUPS, BLOCK])
    tl.store(lse_ptrs, lse_i)

    # write to output

    acc_o = acc_o.reshape([QUERY_HEAD_GROUPS, BLOCK, BLOCK_HEADDIM])

    if EVEN_M:
        if EVEN_HEADDIM:
            tl.store(out_ptrs, acc_o)
        else:
            tl.store(out_ptrs, acc_o, mask=offs_d[None, :] < headdim)
    else:
        if EVEN_HEADDIM:
            tl.store(out_ptrs, acc_o, mask=offs_m[:, None] < seqlen_q)
        else:
            tl.store(
                out_ptrs, acc_o, mask=(offs_m[:, None] < seqlen_q) & (offs_d[None, :] < headdim)
            )


def make_inputs(batch: int, heads: int, kv_heads: int, seqlen: int, dim: int, num_sel: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """q [b, heads, n, d], k / v [b, kv_heads, n, d] bf16; per (kv head, query token) ``num_sel`` distinct earlier
    64-blocks (int64) and a bool mask (False for the padding picks of the first blocks, and ~1 in 8 at random)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    blk = 64
    q = torch.randn((batch, heads, seqlen, dim), device=device, generator=g).to(torch.bfloat16)
    k = torch.randn((batch, kv_heads, seqlen, dim), device=device, generator=g).to(torch.bfloat16)
    v = torch.randn((batch, kv_heads, seqlen, dim), device=device, generator=g).to(torch.bfloat16)
    nb = seqlen // blk
    own = torch.arange(seqlen, device=device) // blk                                   # [n]
    r = torch.rand((batch, kv_heads, seqlen, nb), device=device, generator=g)
    r = r.masked_fill(torch.arange(nb, device=device)[None, None, None, :] >= own[None, None, :, None], -1.0)
    top = torch.topk(r, num_sel, dim=-1)
    idx = top.indices
    mask = top.values >= 0
    mask &= torch.rand(mask.shape, device=device, generator=g) > 0.125
    idx = torch.where(mask, idx, torch.zeros_like(idx))
    return {"q": q, "k": k, "v": v, "indices": idx.contiguous(), "mask": mask.contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(out [b, heads, n, d] bf16, lse [b, heads, n] fp32), as ``native_sparse_attn_forward(q, k, v, indices, mask,
    block_size=64)``."""
    import torch
    q, k, v, kv_block_indices, kv_block_mask = (inputs[n] for n in ("q", "k", "v", "indices", "mask"))
    block_size = 64
    batch, nheads, seqlen_q, dim, device = *q.shape, q.device
    _, kv_heads, seqlen_k, _ = k.shape
    head_groups = nheads // kv_heads
    num_selected_fine_blocks = kv_block_indices.shape[-1]
    softmax_scale = dim ** -0.5
    seqlen_q_rounded = round_up_multiple(seqlen_q, TRITON_BLOCK_SIZE)
    lse = torch.empty((batch, nheads, seqlen_q_rounded), device=device, dtype=torch.float32)
    o = torch.empty_like(q)
    BLOCK_HEADDIM = max(triton.next_power_of_2(dim), 16)
    num_warps = 4 if dim <= 64 else 8
    grid = lambda META: (triton.cdiv(seqlen_q, META["BLOCK"]), batch * kv_heads)
    forward_kernel[grid](
        q, k, v, kv_block_indices, kv_block_mask, o, lse, softmax_scale,
        q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2), o.stride(0), o.stride(1), o.stride(2),
        kv_block_indices.stride(0), kv_block_indices.stride(1), kv_block_indices.stride(2),
        nheads, seqlen_q, seqlen_k, seqlen_q_rounded, dim, seqlen_q // 32, seqlen_k // 32,
        BLOCK_HEADDIM, BLOCK=block_size, QUERY_HEAD_GROUPS=head_groups, QUERY_EXPAND_DIM=16 // head_groups,
        NUM_SEL_KV_BLOCKS=num_selected_fine_blocks, num_warps=num_warps, num_stages=1)
    return o, lse[..., :seqlen_q]


def reference(inputs: dict[str, Any]) -> Any:
    """Per query: softmax over its causal diagonal-block keys and, for each selected block whose mask is set, that
    block's 64 keys (a block picked twice counts twice), scale dim^-0.5; out and natural-log LSE, in fp32."""
    import torch
    q, k, v, idx, msk = (inputs[n] for n in ("q", "k", "v", "indices", "mask"))
    B, Hq, N, D = q.shape
    Hk = k.shape[1]
    G = Hq // Hk
    blk = 64
    scale = D ** -0.5
    qf, kf, vf = q.float(), k.float(), v.float()
    pos = torch.arange(N, device=q.device)
    start = (pos // blk) * blk
    diag = start[:, None] + torch.arange(blk, device=q.device)[None, :]                 # [N, blk]
    diag_ok = diag <= pos[:, None]
    sel = (idx[..., None] * blk + torch.arange(blk, device=q.device)).reshape(B, Hk, N, -1)   # [B, Hk, N, S*blk]
    sel_ok = msk[..., None].expand(*msk.shape, blk).reshape(B, Hk, N, -1)
    keys = torch.cat([diag[None, None].expand(B, Hk, N, blk), sel], dim=-1)             # [B, Hk, N, (1+S)*blk]
    ok = torch.cat([diag_ok[None, None].expand(B, Hk, N, blk), sel_ok], dim=-1)
    out = torch.empty((B, Hq, N, D), device=q.device)
    lse = torch.empty((B, Hq, N), device=q.device)
    for b in range(B):
        for h in range(Hk):
            kk = kf[b, h][keys[b, h]]                                                    # [N, L, D]
            vv = vf[b, h][keys[b, h]]
            for gi in range(G):
                qh = qf[b, h * G + gi]                                                   # [N, D]
                s = torch.einsum("nd,nld->nl", qh, kk) * scale
                s = s.masked_fill(~ok[b, h], float("-inf"))
                lse[b, h * G + gi] = torch.logsumexp(s, -1)
                out[b, h * G + gi] = torch.einsum("nl,nld->nd", torch.softmax(s, -1), vv)
    return out, lse


def flops(batch: int, heads: int, kv_heads: int, seqlen: int, dim: int, num_sel: int) -> float:
    """QK^T and PV over (1 + num_sel) 64-key blocks a query and head (the kernel's 16 / G-fold redundant 3-D dots
    not counted): 4 * 64 * dim each."""
    return 4.0 * batch * heads * seqlen * (1 + num_sel) * 64 * dim
