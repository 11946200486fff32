"""Native Sparse Attention's compression branch forward (fla-org/native-sparse-attention,
``parallel_nsa_compression_fwd_kernel`` in native_sparse_attention/ops/parallel.py): one program per (query token,
V block, batch*KV head); the G = HQ // H query heads sharing a KV head form the dot's M dimension ([G, BK] q tile,
G = 16), loaded once through a block pointer and pre-scaled (``b_q = (b_q * scale).to(b_q.dtype)``); the keys /
values are the mean-pooled compressed tokens [B, TC, H, K] (TC = cdiv(T, BS)), addressed from the batch's first
compressed token ``boc = i_b * tl.cdiv(T, BS)``; the loop ``for i_c in range(0, NC, BC)`` runs over the
``NC = (i_t + 1) // BS`` complete compression blocks before the token (a trip count that depends on program_id),
K read transposed through a (K, TC) block pointer with strides (1, H*K) and ``boundary_check=(0, 1)``; the tail
masked by ``tl.where((o_c < NC)[None, :], b_s, float('-inf'))``; online softmax with ``tl.exp`` and the tuple
update ``b_m, b_mp = tl.maximum(b_m, tl.max(b_s, 1)), b_m``; after the loop ``if NC == 0`` (tokens before the first
complete block: output zeros, lse 0) else normalise; lse stored only by ``if i_v == 0``. ``@triton.heuristics``
(USE_OFFSETS) and ``@triton.autotune`` over num_warps as the library decorates it; BC = BS = block_size = 64 as
``parallel_nsa_compression_fwd`` launches it. fp16 (the library runs bf16). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

HQ_PER_H = 16          # G
HEAD_K = 128
HEAD_V = 128
BLOCK_SIZE = 64        # BS = BC
TWILL_SPEC: dict[str, Any] = {
    "kernel": "parallel_nsa_compression_fwd_kernel",
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16", "lse": "*fp32", "scale": "fp32",
                  "offsets": "*i32", "token_indices": "*i32", "chunk_offsets": "*i32", "T": "i32"},
    "constexprs": {"H": 4, "HQ": 4 * HQ_PER_H, "G": HQ_PER_H, "K": HEAD_K, "V": HEAD_V, "BC": BLOCK_SIZE,
                   "BS": BLOCK_SIZE, "BK": 128, "BV": 128, "USE_OFFSETS": False},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["T"]}
PROBLEM: dict[str, int] = {"B": 2, "T": 8192, "H": 4}
SMALL: dict[str, int] = {"B": 2, "T": 200, "H": 4}     # tokens 0..62 see no complete block (NC == 0)


@triton.heuristics({
    'USE_OFFSETS': lambda args: args['offsets'] is not None
})
@triton.autotune(
    configs=[
        triton.Config({}, num_warps=num_warps)
        for num_warps in [1, 2, 4]
    ],
    key=['BS', 'BK', 'BV'],
)
@triton.jit
def parallel_nsa_compression_fwd_kernel(
    q,
    k,
    v,
    o,
    lse,
    scale,
    offsets,
    token_indices,
    chunk_offsets,
    T,
    H: tl.constexpr,
    HQ: tl.constexpr,
    G: tl.constexpr,
    K: tl.constexpr,
    V: tl.constexpr,
    BC: tl.constexpr,
    BS: tl.constexpr,
    BK: tl.constexpr,
    BV: tl.constexpr,
    USE_OFFSETS: tl.constexpr,
):
    i_t, i_v, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H

    if USE_OFFSETS:
        i_n, i_t = tl.load(token_indices + i_t * 2).to(tl.int32), tl.load(token_indices + i_t * 2 + 1).to(tl.int32)
        bos, eos = tl.load(offsets + i_n).to(tl.int32), tl.load(offsets + i_n + 1).to(tl.int32)
        T = eos - bos
        boc = tl.load(chunk_offsets + i_n).to(tl.int32)
    else:
        bos, eos = i_b * T, i_b * T + T
        boc = i_b * tl.cdiv(T, BS)

    p_q = tl.make_block_ptr(q + (bos + i_t) * HQ*K, (HQ, K), (K, 1), (i_h * G, 0), (G, BK), (1, 0))

    # the Q block is kept in the shared memory throughout the whole kernel
    # [G, BK]
    b_q = tl.load(p_q, boundary_check=(0, 1))
    b_q = (b_q * scale).to(b_q.dtype)

    # the number of compression representations in total
    TC = tl.cdiv(T, BS)
    # the number of compression representations required to iterate over
    # incomplete compression blocks are not included
    NC = (i_t + 1) // BS

    p_o = tl.make_block_ptr(o + (bos + i_t) * HQ*V, (HQ, V), (V, 1), (i_h * G, i_v * BV), (G, BV), (1, 0))
    # [G, BV]
    b_o = tl.zeros([G, BV], dtype=tl.float32)
    # max scores for the current block
    b_m = tl.full([G], float('-inf'), dtype=tl.float32)
    # lse = log(acc) + m
    b_acc = tl.zeros([G], dtype=tl.float32)

    for i_c in range(0, NC, BC):
        o_c = i_c + tl.arange(0, BC)

        p_k = tl.make_block_ptr(k + (boc * H + i_h) * K, (K, TC), (1, H*K), (0, i_c), (BK, BC), (0, 1))
        p_v = tl.make_block_ptr(v + (boc * H + i_h) * V, (TC, V), (H*V, 1), (i_c, i_v * BV), (BC, BV), (1, 0))
        # [BK, BC]
        b_k = tl.load(p_k, boundary_check=(0, 1))
        # [BC, BV]
        b_v = tl.load(p_v, boundary_check=(0, 1))
        # [G, BC]
        b_s = tl.dot(b_q, b_k)
        b_s = tl.where((o_c < NC)[None, :], b_s, float('-inf'))

        # [G]
        b_m, b_mp = tl.maximum(b_m, tl.max(b_s, 1)), b_m
        b_r = tl.exp(b_mp - b_m)
        # [G, BC]
        b_p = tl.exp(b_s - b_m[:, None])
        # [G]
        b_acc = b_acc * b_r + tl.sum(b_p, 1)

        # [G, BV]
        b_o = b_o * b_r[:, None] + tl.dot(b_p.to(b_q.dtype), b_v)

        b_mp = b_m
    if NC == 0:
        b_lse = tl.zeros([G], dtype=tl.float32)
    else:
        b_o = b_o / b_acc[:, None]
        b_lse = b_m + tl.log(b_acc)

    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))
    if i_v == 0:
        tl.store(lse + (bos + i_t) * HQ + i_h * G + tl.arange(0, G), b_lse.to(lse.dtype.element_ty))


def make_inputs(B: int, T: int, H: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q [B, T, HQ, K] fp16; k / v the compressed keys / values [B, TC, H, K|V] as NSA's ``mean_pooling`` of the
    raw k / v over blocks of BS tokens hands them over (TC = cdiv(T, BS))."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    HQ = H * HQ_PER_H
    TC = triton.cdiv(T, BLOCK_SIZE)
    q = torch.randn((B, T, HQ, HEAD_K), device=device, generator=g).half()
    k = (torch.randn((B, TC, H, HEAD_K), device=device, generator=g) * 2.0).half()
    v = torch.randn((B, TC, H, HEAD_V), device=device, generator=g).half()
    return {"q": q, "k": k, "v": v, "scale": HEAD_K ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(o [B, T, HQ, V] fp16, lse [B, T, HQ] fp32), as ``parallel_nsa_compression_fwd`` launches it: grid
    (T, NV, B * H), BC = BS = block_size."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, T, HQ, K = q.shape
    H, V = k.shape[2], v.shape[-1]
    G = HQ // H
    BC = BS = BLOCK_SIZE
    BK = triton.next_power_of_2(K)
    BV = min(128, triton.next_power_of_2(V))
    NV = triton.cdiv(V, BV)
    o = torch.empty((B, T, HQ, V), dtype=v.dtype, device=q.device)
    lse = torch.empty((B, T, HQ), dtype=torch.float, device=q.device)
    grid = (T, NV, B * H)
    parallel_nsa_compression_fwd_kernel[grid](
        q=q, k=k, v=v, o=o, lse=lse, scale=inputs["scale"], offsets=None, token_indices=None,
        chunk_offsets=None, T=T, H=H, HQ=HQ, G=G, K=K, V=V, BC=BC, BS=BS, BK=BK, BV=BV)
    return o, lse


def reference(inputs: dict[str, Any]) -> Any:
    """For token t: softmax over the compressed keys 0 .. (t + 1) // BS - 1 (zeros and lse 0 when there are none)."""
    import torch
    q, k, v = inputs["q"].double(), inputs["k"].double(), inputs["v"].double()
    B, T, HQ, K = q.shape
    H, TC = k.shape[2], k.shape[1]
    G = HQ // H
    kk = k.repeat_interleave(G, dim=2)                 # B TC HQ K
    vv = v.repeat_interleave(G, dim=2)
    s = torch.einsum("bthd,bchd->bhtc", q, kk) * inputs["scale"]          # B HQ T TC
    nc = (torch.arange(T, device=q.device) + 1) // BLOCK_SIZE             # T
    keep = torch.arange(TC, device=q.device)[None, :] < nc[:, None]       # T TC
    s = s.masked_fill(~keep, float("-inf"))
    lse = torch.logsumexp(s, dim=-1)                                     # B HQ T
    p = torch.exp(s - lse[..., None]).nan_to_num(0.0)
    o = torch.einsum("bhtc,bchd->bthd", p, vv)
    lse = torch.where(nc[None, None, :] == 0, torch.zeros_like(lse), lse).permute(0, 2, 1)
    return o, lse


def flops(B: int, T: int, H: int) -> float:
    return 4.0 * B * H * HQ_PER_H * (T * T / (2.0 * BLOCK_SIZE)) * HEAD_K
