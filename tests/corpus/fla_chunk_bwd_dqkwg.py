"""flash-linear-attention's ``chunk_bwd_kernel_dqkwg`` (fla/ops/common/chunk_o.py, with its host
``chunk_bwd_dqkwg``): the backward of the chunked (simple-)GLA / gated-delta-rule output, giving dq, dk, the
gate gradient dg and, for the delta rule, dw, from the forward's per-chunk states h and the backward's state
gradients dh.

The constructs: per (K block, chunk, batch-head) a loop over V blocks with **four dots** (``b_ds += do @ v^T``,
``b_dq += do @ h``, ``b_dk += v @ dh``, and under ``USE_DW`` ``b_dw += dv @ h``), each operand loaded through
``tl.make_block_ptr`` with ``boundary_check`` (h and dh read transposed: shape (V, K), strides (1, V), order
(0, 1)), fp32 dh and the dv tile cast to v's dtype in the loop, and a scalar-ish ``[1]`` accumulator
``b_dg_last += tl.sum(b_h * b_dh)`` (a full reduction of a product of two loop tiles) carried beside them; after
the loop a store of ``-b_dw``, ``tl.debug_barrier()``, then the gate algebra with ``exp`` of differences, the
intra-chunk causal mask ``m_A``, a fifth dot (``q @ k^T``) and two more (``ds @ k``, ``ds^T @ q``), row and column
reductions and a ``tl.where`` on the last row; ``@triton.heuristics`` deriving ``USE_G`` / ``USE_DW`` /
``IS_VARLEN`` from which arguments are None (``cu_seqlens=None``: the varlen branch with its ``chunk_indices``
loads is compiled out), ``@triton.jit(do_not_specialize=['T'])``, ``B`` a constexpr used only to offset dg by the K
block (``dg += i_k * B * H * T``: one partial per K block, summed on the host). fp16 where FLA runs bf16 (the CPU
interpreter's bf16 dot is wrong in Triton 3.6). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import torch
import triton
import triton.language as tl

BT = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_bwd_kernel_dqkwg",
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "h": "*fp16", "g": "*fp32", "do": "*fp16",
                  "dh": "*fp32", "dq": "*fp16", "dk": "*fp16", "dg": "*fp32", "w": "*fp16", "dv": "*fp16",
                  "dw": "*fp16", "cu_seqlens": "constexpr", "chunk_indices": "constexpr", "scale": "fp32",
                  "T": "i32"},
    "constexprs": {"cu_seqlens": None, "chunk_indices": None, "B": 8, "H": 4, "K": 128, "V": 128, "BT": BT,
                   "BK": 64, "BV": 64, "USE_G": True, "USE_DW": True, "IS_VARLEN": False},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["q", "k", "v", "h", "g", "do", "dh", "dq", "dk", "dg", "w", "dv", "dw"]}
PROBLEM: dict[str, int] = {"B": 8, "H": 4, "T": 4096, "K": 128, "V": 128}
# B and H are constexprs (the spec's): SMALL keeps them, a ragged T (three chunks, the last of 22 rows)
SMALL: dict[str, int] = {"B": 8, "H": 4, "T": 150, "K": 128, "V": 128}


@triton.jit
def exp(x):
    return tl.exp(x)


@triton.heuristics({
    'USE_G': lambda args: args['g'] is not None,
    'USE_DW': lambda args: args['dw'] is not None,
    'IS_VARLEN': lambda args: args['cu_seqlens'] is not None,
})
@triton.jit(do_not_specialize=['T'])
def chunk_bwd_kernel_dqkwg(
    q,
    k,
    v,
    h,
    g,
    do,
    dh,
    dq,
    dk,
    dg,
    w,
    dv,
    dw,
    cu_seqlens,
    chunk_indices,
    scale,
    B: tl.constexpr,
    T,
    H: tl.constexpr,
    K: tl.constexpr,
    V: tl.constexpr,
    BT: tl.constexpr,
    BK: tl.constexpr,
    BV: tl.constexpr,
    USE_G: tl.constexpr,
    USE_DW: tl.constexpr,
    IS_VARLEN: tl.constexpr,
):
    i_k, i_t, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H
    if USE_G:
        dg += i_k * B * H * T
    if IS_VARLEN:
        i_tg = i_t
        i_n, i_t = tl.load(chunk_indices + i_t * 2).to(tl.int32), tl.load(chunk_indices + i_t * 2 + 1).to(tl.int32)
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
        T = eos - bos
        NT = tl.cdiv(T, BT)
    else:
        NT = tl.cdiv(T, BT)
        i_tg = i_b * NT + i_t
        bos, eos = i_b * T, i_b * T + T

    # offset calculation
    v += (bos * H + i_h) * V
    do += (bos * H + i_h) * V
    h += (i_tg * H + i_h).to(tl.int64) * K * V
    dh += (i_tg * H + i_h).to(tl.int64) * K * V
    q += (bos * H + i_h) * K
    k += (bos * H + i_h) * K
    dq += (bos * H + i_h) * K
    dk += (bos * H + i_h) * K

    # for delta rule only
    if USE_DW:
        dw += (bos * H + i_h) * K
        dv += (bos * H + i_h) * V
        w += (bos * H + i_h) * K

    b_dq = tl.zeros([BT, BK], dtype=tl.float32)
    b_dk = tl.zeros([BT, BK], dtype=tl.float32)
    b_ds = tl.zeros([BT, BT], dtype=tl.float32)
    b_dg_last = tl.zeros([1,], dtype=tl.float32) if USE_G else None
    b_dw = tl.zeros([BT, BK], dtype=tl.float32) if USE_DW else None

    for i_v in range(tl.cdiv(V, BV)):
        p_v = tl.make_block_ptr(v, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
        p_do = tl.make_block_ptr(do, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
        p_h = tl.make_block_ptr(h, (V, K), (1, V), (i_v * BV, i_k * BK), (BV, BK), (0, 1))
        p_dh = tl.make_block_ptr(dh, (V, K), (1, V), (i_v * BV, i_k * BK), (BV, BK), (0, 1))
        # [BT, BV]
        b_v = tl.load(p_v, boundary_check=(0, 1))
        b_do = tl.load(p_do, boundary_check=(0, 1))
        # [BV, BK]
        b_h = tl.load(p_h, boundary_check=(0, 1))
        b_dh = tl.load(p_dh, boundary_check=(0, 1))
        if USE_G:
            b_dg_last += (tl.sum(b_h * b_dh))
        # [BT, BV] @ [BV, BT] -> [BT, BT]
        b_ds += tl.dot(b_do, tl.trans(b_v))
        # [BT, BV] @ [BV, BK] -> [BT, BK]
        b_dq += tl.dot(b_do, b_h.to(b_do.dtype))
        # [BT, BV] @ [BV, BK] -> [BT, BK]
        b_dk += tl.dot(b_v, b_dh.to(b_v.dtype))
        if USE_DW:
            p_dv = tl.make_block_ptr(dv, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
            b_dv = tl.load(p_dv, boundary_check=(0, 1))
            b_dw += tl.dot(b_dv.to(b_v.dtype), b_h.to(b_v.dtype))

    if USE_DW:
        p_dw = tl.make_block_ptr(dw, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        tl.store(p_dw, -b_dw.to(p_dw.dtype.element_ty), boundary_check=(0, 1))

    tl.debug_barrier()
    p_q = tl.make_block_ptr(q, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
    p_k = tl.make_block_ptr(k, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
    b_q = tl.load(p_q, boundary_check=(0, 1))
    b_k = tl.load(p_k, boundary_check=(0, 1))

    p_dq = tl.make_block_ptr(dq, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
    p_dk = tl.make_block_ptr(dk, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))

    o_t = i_t * BT + tl.arange(0, BT)
    m_t = o_t < T
    m_A = (o_t[:, None] >= o_t[None, :]) & (m_t[:, None] & m_t)
    if USE_G:
        b_dg = tl.zeros([BT,], dtype=tl.float32)
        g += bos * H + i_h
        dg += bos * H + i_h
        p_g = tl.make_block_ptr(g, (T,), (H,), (i_t * BT,), (BT,), (0,))
        b_g = tl.load(p_g, boundary_check=(0,))
        b_g_last = tl.load(g + (min(i_t * BT + BT, T) - 1) * H)
        b_dg_last *= exp(b_g_last)

        b_dq = b_dq * exp(b_g)[:, None] * scale
        b_dg += tl.sum(b_dq * b_q, axis=1)

        b_dk = b_dk * tl.where(m_t, exp(-b_g + b_g_last), 0)[:, None]
        b_dg -= tl.sum(b_k * b_dk, axis=1)
        b_dg_last += tl.sum(b_dk * b_k)

        b_ds = tl.where(m_A, b_ds * exp(b_g[:, None] - b_g[None, :]), 0) * scale
        b_ds2 = b_ds * tl.dot(b_q, tl.trans(b_k))
        b_dg += tl.sum(b_ds2, axis=1)
        b_dg -= tl.sum(b_ds2, axis=0)

        b_ds = b_ds.to(b_k.dtype)
        # [BT, BK]
        b_dq += tl.dot(b_ds, b_k)
        b_dk += tl.dot(tl.trans(b_ds), b_q)
        p_dg = tl.make_block_ptr(dg, (T,), (H,), (i_t * BT,), (BT,), (0,))
        # (SY 09/21) revcumsum in a separate kernel due to strange triton compiler issue
        # b_dg = tl.dot(tl.where(o_t[:, None] <= o_t[None, :], 1., 0.), b_dg, allow_tf32=False) + b_dg_last)
        b_dg = tl.where(o_t < min(i_t * BT + BT, T) - 1, b_dg, b_dg + b_dg_last)
        tl.store(p_dq, b_dq.to(p_dq.dtype.element_ty), boundary_check=(0, 1))
        tl.store(p_dk, b_dk.to(p_dk.dtype.element_ty), boundary_check=(0, 1))
        tl.store(p_dg, b_dg.to(p_dg.dtype.element_ty), boundary_check=(0,))
    else:
        b_ds = tl.where(m_A, b_ds, 0)
        b_ds = b_ds.to(b_k.dtype)
        b_dq += tl.dot(b_ds, b_k)
        b_dk += tl.dot(tl.trans(b_ds), b_q) * scale
        b_dq *= scale
        tl.store(p_dq, b_dq.to(p_dq.dtype.element_ty), boundary_check=(0, 1))
        tl.store(p_dk, b_dk.to(p_dk.dtype.element_ty), boundary_check=(0, 1))


def make_inputs(B: int, H: int, T: int, K: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, w [B, T, H, K], v, do, dv [B, T, H, V] fp16; g [B, T, H] fp32, the within-chunk cumsum of a
    log-sigmoid gate (``chunk_local_cumsum``); h [B, NT, H, K, V] fp16 (the forward's chunk-start states) and dh
    fp32 (the backward's state gradients)."""
    gen = torch.Generator(device=device).manual_seed(seed)
    NT = triton.cdiv(T, BT)
    q = (torch.randn((B, T, H, K), device=device, generator=gen) / 8).half()
    k = (torch.randn((B, T, H, K), device=device, generator=gen) / 8).half()
    w = (torch.randn((B, T, H, K), device=device, generator=gen) / 8).half()
    v = torch.randn((B, T, H, V), device=device, generator=gen).half()
    do = torch.randn((B, T, H, V), device=device, generator=gen).half()
    dv = torch.randn((B, T, H, V), device=device, generator=gen).half()
    h = (torch.randn((B, NT, H, K, V), device=device, generator=gen) / 8).half()
    dh = torch.randn((B, NT, H, K, V), device=device, generator=gen) / 8
    gl = torch.nn.functional.logsigmoid(torch.randn((B, T, H), device=device, generator=gen) + 3.0) / 4
    gp = torch.nn.functional.pad(gl, (0, 0, 0, NT * BT - T)).view(B, NT, BT, H).cumsum(2).view(B, NT * BT, H)
    return {"q": q, "k": k, "v": v, "w": w, "do": do, "dv": dv, "h": h, "dh": dh,
            "g": gp[:, :T].contiguous().float(), "scale": K ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dq, dk [B, T, H, K] fp16, dw [B, T, H, K] fp16, dg [B, T, H] fp32), as ``chunk_bwd_dqkwg(q, k, v, do, h,
    dh, w=w, g=g, dv=dv, scale=scale)`` returns them."""
    q, k, v, do, h, dh, w, g, dv, scale = (inputs[n] for n in ("q", "k", "v", "do", "h", "dh", "w", "g", "dv",
                                                                "scale"))
    cu_seqlens, chunk_indices, chunk_size = None, None, BT
    B, T, H, K, V = *k.shape, v.shape[-1]
    BT_ = chunk_size
    NT = triton.cdiv(T, BT_) if cu_seqlens is None else len(chunk_indices)

    CONST_TILING = 64
    BK = min(max(triton.next_power_of_2(K), 16), CONST_TILING)
    BV = min(max(triton.next_power_of_2(V), 16), CONST_TILING)
    NK = triton.cdiv(K, BK)
    dq = torch.empty_like(q)
    dk = torch.empty_like(k)
    dg = torch.empty(NK, *g.shape, dtype=torch.float32, device=g.device) if g is not None else None
    dw = torch.empty_like(w) if w is not None else None

    grid = (NK, NT, B * H)
    chunk_bwd_kernel_dqkwg[grid](
        q=q, k=k, v=v, h=h, g=g, do=do, dh=dh, dv=dv, w=w, dw=dw, dq=dq, dk=dk, dg=dg,
        cu_seqlens=cu_seqlens, chunk_indices=chunk_indices, scale=scale,
        B=B, T=T, H=H, K=K, V=V, BT=BT_, BK=BK, BV=BV,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2),
    )

    if dg is not None:
        dg = dg.sum(0)
    return dq, dk, dw, dg


def reference(inputs: dict[str, Any]) -> Any:
    """Autograd in float64 of the chunk's share of the loss with h, dh, v, do fixed:
    F = scale * <do, (q * e^g) h> + scale * <do, (causal(q k^T * e^(g_t - g_s))) v> + <dh, e^(g_last) h +
    (k * e^(g_last - g))^T v>, for q, k and g (g_last the chunk's last valid row), and dw = -dv h^T."""
    q, k, v, do, h, dh, g, dv, scale = (inputs[n] for n in ("q", "k", "v", "do", "h", "dh", "g", "dv", "scale"))
    B, T, H, K = q.shape
    NT = triton.cdiv(T, BT)
    pad = NT * BT - T

    def chunked(x):
        x = x.double()
        x = torch.nn.functional.pad(x, (0, 0) * (x.dim() - 2) + (0, pad))
        return x.view(B, NT, BT, *x.shape[2:])

    qc, kc, vc, doc, dvc = (chunked(t) for t in (q, k, v, do, dv))          # b c t h d
    gc = chunked(g.unsqueeze(-1)).squeeze(-1)                              # b c t h
    qc.requires_grad_(True)
    kc.requires_grad_(True)
    gc.requires_grad_(True)
    hd, dhd = h.double(), dh.double()                                      # b c h k v
    last = torch.tensor([min(BT, T - c * BT) - 1 for c in range(NT)], device=q.device)
    g_last = gc.gather(2, last[None, :, None, None].expand(B, NT, 1, H)).squeeze(2)      # b c h
    t = torch.arange(BT, device=q.device)
    causal = (t[:, None] >= t[None, :]).double()
    inter = torch.einsum("bcthk,bchkv->bcthv", qc * torch.exp(gc)[..., None], hd)
    A = torch.einsum("bcihk,bcjhk->bchij", qc, kc)
    gt = gc.permute(0, 1, 3, 2)                                            # b c h t
    A = A * torch.exp(gt[..., :, None] - gt[..., None, :]) * causal
    intra = torch.einsum("bchij,bcjhv->bcihv", A, vc)
    F = scale * ((inter + intra) * doc).sum()
    decay = torch.exp(g_last[:, :, None, :] - gc)                          # b c t h
    hn = torch.exp(g_last)[..., None, None] * hd + torch.einsum("bcthk,bcthv->bchkv", kc * decay[..., None], vc)
    F = F + (dhd * hn).sum()
    dq_, dk_, dg_ = torch.autograd.grad(F, (qc, kc, gc))
    dw = -torch.einsum("bcthv,bchkv->bcthk", dvc, hd)

    def unchunk(x):
        return x.reshape(B, NT * BT, *x.shape[3:])[:, :T]

    return unchunk(dq_), unchunk(dk_), unchunk(dw), unchunk(dg_)


def flops(B: int, H: int, T: int, K: int, V: int) -> float:
    """Four dots of BT x BV x BK per V block, three of BT x BT x BK after the loop, per K block and chunk."""
    return 2.0 * B * H * T * (3 * K * V + V * BT + 3 * BT * K)
