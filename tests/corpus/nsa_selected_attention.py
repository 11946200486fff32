"""Native Sparse Attention's selected-block branch (fla-org/native-sparse-attention, ``parallel_nsa_fwd_kernel`` in
native_sparse_attention/ops/parallel.py): one program per (query token, V block, batch*KV head); the G = HQ // H
query heads sharing a KV head form the dot's M dimension ([G, BK] q tile, G = 16); the token's selected key blocks
read from an index tensor ``block_indices`` [B, T, H, S] (``i_s = tl.load(block_indices + i) * BS``) and, with
``USE_BLOCK_COUNTS``, how many of them from ``block_counts``; the K / V block pointers rebuilt from the loaded block
start each iteration (``tl.make_block_ptr(k, (K, T), (1, H*K), (0, i_s), ...)``); the whole body under
``if i_s <= i_t and i_s >= 0:`` (blocks past the token or padded with -1 skipped); causal mask on the block by
``tl.where``; online softmax with ``tl.exp``; ``@triton.heuristics`` setting USE_OFFSETS / USE_BLOCK_COUNTS and an
``@triton.autotune`` over num_warps, as the library decorates it. fp16 (the library runs bf16). Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import torch
import triton
import triton.language as tl

HQ_PER_H = 16          # G
HEAD_K = 128
HEAD_V = 128
BLOCK_SIZE = 64        # BS
TWILL_SPEC: dict[str, Any] = {
    "kernel": "parallel_nsa_fwd_kernel",
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16", "lse": "*fp32", "scale": "fp32",
                  "block_indices": "*i32", "block_counts": "*i32", "offsets": "*i32", "token_indices": "*i32",
                  "T": "i32"},
    "constexprs": {"H": 4, "HQ": 4 * HQ_PER_H, "G": HQ_PER_H, "K": HEAD_K, "V": HEAD_V, "S": 16, "BS": BLOCK_SIZE,
                   "BK": 128, "BV": 128, "USE_OFFSETS": False, "USE_BLOCK_COUNTS": True},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["T"]}
PROBLEM: dict[str, int] = {"B": 2, "T": 8192, "H": 4, "S": 16}
SMALL: dict[str, int] = {"B": 1, "T": 200, "H": 4, "S": 16}    # H and S are constexprs; 4 blocks: -1 padding


@triton.heuristics({
    'USE_OFFSETS': lambda args: args['offsets'] is not None,
    'USE_BLOCK_COUNTS': lambda args: isinstance(args['block_counts'], torch.Tensor),
})
@triton.autotune(
    configs=[
        triton.Config({}, num_warps=num_warps)
        for num_warps in [4]
    ],
    key=['BS', 'BK', 'BV'],
)
@triton.jit
def parallel_nsa_fwd_kernel(
    q,
    k,
    v,
    o,
    lse,
    scale,
    block_indices,
    block_counts,
    offsets,
    token_indices,
    T,
    H: tl.constexpr,
    HQ: tl.constexpr,
    G: tl.constexpr,
    K: tl.constexpr,
    V: tl.constexpr,
    S: tl.constexpr,
    BS: tl.constexpr,
    BK: tl.constexpr,
    BV: tl.constexpr,
    USE_OFFSETS: tl.constexpr,
    USE_BLOCK_COUNTS: tl.constexpr
):
    i_t, i_v, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H

    if USE_OFFSETS:
        i_n, i_t = tl.load(token_indices + i_t * 2).to(tl.int32), tl.load(token_indices + i_t * 2 + 1).to(tl.int32)
        bos, eos = tl.load(offsets + i_n).to(tl.int32), tl.load(offsets + i_n + 1).to(tl.int32)
        T = eos - bos
    else:
        bos, eos = i_b * T, i_b * T + T

    k += (bos * H + i_h) * K
    v += (bos * H + i_h) * V
    block_indices += (bos + i_t) * H*S + i_h * S

    if USE_BLOCK_COUNTS:
        NS = tl.load(block_counts + (bos + i_t) * H + i_h)
    else:
        NS = S

    p_q = tl.make_block_ptr(q + (bos + i_t) * HQ*K, (HQ, K), (K, 1), (i_h * G, 0), (G, BK), (1, 0))
    # the Q block is kept in the shared memory throughout the whole kernel
    # [G, BK]
    b_q = tl.load(p_q, boundary_check=(0, 1))
    b_q = (b_q * scale).to(b_q.dtype)

    p_o = tl.make_block_ptr(o + (bos + i_t) * HQ*V, (HQ, V), (V, 1), (i_h * G, i_v * BV), (G, BV), (1, 0))
    p_lse = lse + (bos + i_t) * HQ + i_h * G + tl.arange(0, G)
    # [G, BV]
    b_o = tl.zeros([G, BV], dtype=tl.float32)

    b_m = tl.full([G], float('-inf'), dtype=tl.float32)
    b_acc = tl.zeros([G], dtype=tl.float32)
    for i in range(NS):
        i_s = tl.load(block_indices + i).to(tl.int32) * BS
        if i_s <= i_t and i_s >= 0:
            p_k = tl.make_block_ptr(k, (K, T), (1, H*K), (0, i_s), (BK, BS), (0, 1))
            p_v = tl.make_block_ptr(v, (T, V), (H*V, 1), (i_s, i_v * BV), (BS, BV), (1, 0))
            # [BK, BS]
            b_k = tl.load(p_k, boundary_check=(0, 1))
            # [BS, BV]
            b_v = tl.load(p_v, boundary_check=(0, 1))
            # [G, BS]
            b_s = tl.dot(b_q, b_k)
            b_s = tl.where((i_t >= (i_s + tl.arange(0, BS)))[None, :], b_s, float('-inf'))

            # [G]
            b_m, b_mp = tl.maximum(b_m, tl.max(b_s, 1)), b_m
            b_r = tl.exp(b_mp - b_m)
            # [G, BS]
            b_p = tl.exp(b_s - b_m[:, None])
            # [G]
            b_acc = b_acc * b_r + tl.sum(b_p, 1)
            # [G, BV]
            b_o = b_o * b_r[:, None] + tl.dot(b_p.to(b_q.dtype), b_v)

            b_mp = b_m
    b_o = b_o / b_acc[:, None]
    b_m += tl.log(b_acc)
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))
    tl.store(p_lse, b_m.to(p_lse.dtype.element_ty))


def make_inputs(B: int, T: int, H: int, S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q [B, T, HQ, K], k / v [B, T, H, K|V] fp16; the selection as NSA's compression branch hands it over: per
    (token, KV head) S block indices, the token's own block always among them, blocks past the token never, -1
    padding where fewer than S blocks exist, and a random count 1..S of them to use (``block_counts``)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    HQ = H * HQ_PER_H
    q = torch.randn((B, T, HQ, HEAD_K), device=device, generator=g).half()
    k = torch.randn((B, T, H, HEAD_K), device=device, generator=g).half()
    v = torch.randn((B, T, H, HEAD_V), device=device, generator=g).half()
    nb = triton.cdiv(T, BLOCK_SIZE)
    t_blk = (torch.arange(T, device=device) // BLOCK_SIZE)[None, :, None, None]
    blk = torch.arange(nb, device=device)[None, None, None, :]
    score = torch.rand((B, T, H, nb), device=device, generator=g)
    score = torch.where(blk == t_blk, torch.full_like(score, 2.0), score)      # the current block first
    score = torch.where(blk > t_blk, torch.full_like(score, -1.0), score)      # no future block
    if nb < S:
        score = torch.cat([score, torch.full((B, T, H, S - nb), -1.0, device=device)], dim=-1)
    top, idx = score.topk(S, dim=-1)
    idx = torch.where(top < 0, torch.full_like(idx, -1), idx).to(torch.int32).contiguous()
    counts = torch.randint(1, S + 1, (B, T, H), device=device, generator=g, dtype=torch.int32)
    lse = torch.empty((B, T, HQ), device=device, dtype=torch.float32)
    return {"q": q, "k": k, "v": v, "block_indices": idx, "block_counts": counts, "scale": HEAD_K ** -0.5,
            "lse": lse}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [B, T, HQ, V] fp16, as ``parallel_nsa_fwd`` launches it: grid (T, NV, B * H)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, T, HQ, K = q.shape
    H, V = k.shape[2], v.shape[-1]
    S = inputs["block_indices"].shape[-1]
    BK = triton.next_power_of_2(K)
    BV = min(128, triton.next_power_of_2(v.shape[-1]))
    NV = triton.cdiv(V, BV)
    o = torch.empty((B, T, HQ, V), device=q.device, dtype=q.dtype)
    grid = (T, NV, B * H)
    parallel_nsa_fwd_kernel[grid](
        q=q, k=k, v=v, o=o, lse=inputs["lse"], scale=inputs["scale"],
        block_indices=inputs["block_indices"], block_counts=inputs["block_counts"], offsets=None,
        token_indices=None, T=T, H=H, HQ=HQ, G=HQ // H, K=K, V=V, S=S, BS=BLOCK_SIZE, BK=BK, BV=BV)
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """For each token and head: softmax over the keys of its first ``count`` selected blocks up to the token."""
    import torch
    q, k, v = inputs["q"].double(), inputs["k"].double(), inputs["v"].double()
    idx, counts = inputs["block_indices"].long(), inputs["block_counts"].long()
    B, T, HQ, K = q.shape
    H, S = k.shape[2], idx.shape[-1]
    G = HQ // H
    kk = k.repeat_interleave(G, dim=2)            # B T HQ K
    vv = v.repeat_interleave(G, dim=2)
    pos = torch.arange(T, device=q.device)
    key_blk = pos // BLOCK_SIZE                                          # T
    o = torch.empty_like(q)
    for t0 in range(0, T, 256):        # 256 queries at a time: B x HQ x 256 x T doubles, not T x T (64 GiB at PROBLEM)
        t1 = min(T, t0 + 256)
        qp = pos[t0:t1]
        s = torch.einsum("bthd,bshd->bhts", q[:, t0:t1], kk) * inputs["scale"]      # B HQ t T
        use = (torch.arange(S, device=q.device)[None, None, None, :] < counts[:, t0:t1, :, None]) & (idx[:, t0:t1] >= 0)
        use = use & (idx[:, t0:t1] * BLOCK_SIZE <= qp[None, :, None, None])
        sel = torch.zeros((B, t1 - t0, H, T), dtype=torch.bool, device=q.device)
        for j in range(S):
            sel |= use[..., j:j + 1] & (key_blk[None, None, None, :] == idx[:, t0:t1, :, j:j + 1])
        sel &= pos[None, None, None, :] <= qp[None, :, None, None]
        sel = sel.repeat_interleave(G, dim=2).permute(0, 2, 1, 3)         # B HQ t T
        s = s.masked_fill(~sel, float("-inf"))
        o[:, t0:t1] = torch.einsum("bhts,bshd->bthd", torch.softmax(s, dim=-1), vv)
    return o


def flops(B: int, T: int, H: int, S: int) -> float:
    return 4.0 * B * T * H * HQ_PER_H * S * BLOCK_SIZE * HEAD_K
