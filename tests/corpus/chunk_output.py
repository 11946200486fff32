"""The output pass of a chunked linear-attention kernel, in the style of flash-linear-attention's
``chunk_fwd_kernel_o``: a loop over the key dimension in blocks accumulates the inter-chunk part ``q @ h`` and the
intra-chunk scores ``q @ k^T`` (two wgmma accumulators, block pointers built inside the loop), then after the loop
the scores are decayed by the gates, masked causally and multiplied by V: **a wgmma after the scheduled loop**.
``@triton.heuristics`` sets ``USE_G``; bf16 in and out, fp32 gates (cumulative log decays). Nothing here is imported
by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

H, K, V, BT = 4, 128, 128, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_fwd_kernel_o",
    "signature": {"q": "*bf16", "k": "*bf16", "v": "*bf16", "h": "*bf16", "g": "*fp32", "o": "*bf16",
                  "scale": "fp32", "T": "i32"},
    "constexprs": {"H": H, "K": K, "V": V, "BT": BT, "BK": 64, "BV": 64, "USE_G": True},
    "num_warps": 4, "num_stages": 2, "divisibility": ["T"]}
PROBLEM: dict[str, int] = {"B": 8, "T": 4096}
SMALL: dict[str, int] = {"B": 2, "T": 200}     # the last chunk ragged: the boundary checks fill zeros


@triton.heuristics({"USE_G": lambda args: args["g"] is not None})
@triton.jit(do_not_specialize=["T"])
def chunk_fwd_kernel_o(q, k, v, h, g, o, scale, T, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr,
                       BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, USE_G: tl.constexpr):
    i_v, i_t, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H
    NT = tl.cdiv(T, BT)
    i_tg = i_b * NT + i_t
    bos = i_b * T
    q += (bos * H + i_h) * K
    k += (bos * H + i_h) * K
    v += (bos * H + i_h) * V
    o += (bos * H + i_h) * V
    h += (i_tg * H + i_h).to(tl.int64) * K * V
    b_o = tl.zeros([BT, BV], dtype=tl.float32)
    b_A = tl.zeros([BT, BT], dtype=tl.float32)
    for i_k in range(tl.cdiv(K, BK)):
        p_q = tl.make_block_ptr(q, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        p_k = tl.make_block_ptr(k, (K, T), (1, H * K), (i_k * BK, i_t * BT), (BK, BT), (0, 1))
        p_h = tl.make_block_ptr(h, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        b_q = tl.load(p_q, boundary_check=(0, 1))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_h = tl.load(p_h, boundary_check=(0, 1))
        b_o += tl.dot(b_q, b_h)
        b_A += tl.dot(b_q, b_k)
    if USE_G:
        g += bos * H + i_h
        p_g = tl.make_block_ptr(g, (T,), (H,), (i_t * BT,), (BT,), (0,))
        b_g = tl.load(p_g, boundary_check=(0,))
        b_o = b_o * tl.exp(b_g)[:, None]
        b_A = b_A * tl.exp(b_g[:, None] - b_g[None, :])
    o_t = i_t * BT + tl.arange(0, BT)
    m_A = o_t[:, None] >= o_t[None, :]
    b_A = tl.where(m_A, b_A, 0)
    p_v = tl.make_block_ptr(v, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    p_o = tl.make_block_ptr(o, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    b_v = tl.load(p_v, boundary_check=(0, 1))
    b_o = b_o * scale + tl.dot(b_A.to(b_v.dtype), b_v) * scale
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))


def make_inputs(B: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [B, T, H, K] bf16; the chunk states h [B, NT, H, K, V] bf16; gates g [B, T, H]: a cumulative sum of
    log decays within each chunk (as FLA's chunk_local_cumsum leaves them)."""
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    nt = (T + BT - 1) // BT
    q, k, v = ((torch.randn((B, T, H, K), device=device, generator=gen) / 4).bfloat16() for _ in range(3))
    h = (torch.randn((B, nt, H, K, V), device=device, generator=gen) / 8).bfloat16()
    logd = -torch.rand((B, nt * BT, H), device=device, generator=gen) / 16
    g = logd.view(B, nt, BT, H).cumsum(dim=2).view(B, nt * BT, H)[:, :T].contiguous()
    return {"q": q, "k": k, "v": v, "h": h, "g": g, "scale": K ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o, bf16 [B, T, H, V]: one program per (V block, chunk, sequence-head)."""
    import torch
    q, k, v, h, g = (inputs[n] for n in "qkvhg")
    B, T = q.shape[:2]
    o = torch.empty_like(v)
    grid = (V // 64, triton.cdiv(T, BT), B * H)
    chunk_fwd_kernel_o[grid](q, k, v, h, g, o, inputs["scale"], T, H=H, K=K, V=V, BT=BT, BK=64, BV=64,
                             num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v, h, g = (inputs[n].float() for n in "qkvhg")
    B, T = q.shape[:2]
    nt = h.shape[1]
    pad = nt * BT - T
    qc, kc, vc = (torch.nn.functional.pad(x, (0, 0, 0, 0, 0, pad)).view(B, nt, BT, H, -1) for x in (q, k, v))
    gc = torch.nn.functional.pad(g, (0, 0, 0, pad)).view(B, nt, BT, H)
    inter = torch.einsum("bntHk,bnHkv->bntHv", qc, h) * gc.exp()[..., None]
    s = torch.einsum("bniHk,bnjHk->bnHij", qc, kc) * (gc.permute(0, 1, 3, 2)[..., :, None]
                                                        - gc.permute(0, 1, 3, 2)[..., None, :]).exp()
    s = (s * torch.ones(BT, BT, device=q.device).tril()).bfloat16().float()
    intra = torch.einsum("bnHij,bnjHv->bniHv", s, vc)
    return ((inter + intra) * inputs["scale"]).reshape(B, nt * BT, H, V)[:, :T]
