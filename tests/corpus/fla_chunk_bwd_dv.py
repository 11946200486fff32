"""flash-linear-attention ``chunk_bwd_kernel_dv`` (fla-org/flash-linear-attention, fla/ops/common/chunk_o.py): the
dv of chunked linear attention. Per (V block, chunk, batch*value-head) program, a ``range(tl.cdiv(K, BK))`` loop with
two tl.dot accumulators: b_A += k @ q^T (the [BT, BT] intra-chunk scores, q loaded transposed through pointer
arithmetic) and b_dv += k @ dh, where dh is stored value-first (STATE_V_FIRST: a [BV, BK] tile loaded then
``tl.trans``-ed) and cast to k's dtype; grouped value heads (HV = 2 * H: q/k read at head ``i_h // (HV // H)``);
``tl.program_id(1).to(tl.int64)`` chunk index; after the loop a USE_G epilogue with a scalar gate per (t, head)
through an ``exp2`` @triton.jit helper (fla.ops.utils.op), the causal upper-triangular mask
``o_t[:, None] <= o_t[None, :]`` combined with the T-tail mask, the masked scores cast to bf16 and a third dot with
dO; every load is a masked pointer load (no block pointers). USE_G_GAMMA and IS_VARLEN constexpr branches kept, off.
bf16 q / k / dO / dh, fp32 g (chunk-local cumsum, log2 units). BK = BV = 128 as chunk_bwd_dv picks on Hopper
(CONST_TILING 128), K = 256 so the loop runs twice; 4 warps / 3 stages from the autotune list."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BT = 64
H, HV, K, V = 2, 4, 256, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_bwd_kernel_dv",
    "signature": {"q": "*bf16", "k": "*bf16", "g": "*fp32", "g_gamma": "*fp32", "do": "*bf16", "dv": "*bf16",
                  "dh": "*bf16", "cu_seqlens": "*i32", "chunk_indices": "*i32", "scale": "fp32", "T": "i32"},
    "constexprs": {"H": H, "HV": HV, "K": K, "V": V, "BT": BT, "BK": 128, "BV": 128, "USE_G": True,
                   "USE_G_GAMMA": False, "IS_VARLEN": False, "STATE_V_FIRST": True},
    "num_warps": 4, "num_stages": 3, "divisibility": []}
PROBLEM: dict[str, int] = {"B": 8, "T": 4096}
SMALL: dict[str, int] = {"B": 1, "T": 200}      # H, HV, K, V are constexprs


@triton.jit
def exp2(x):
    return tl.math.exp2(x.to(tl.float32))


@triton.jit(do_not_specialize=['T'])
def chunk_bwd_kernel_dv(
    q,
    k,
    g,
    g_gamma,
    do,
    dv,
    dh,
    cu_seqlens,
    chunk_indices,
    scale,
    T,
    H: tl.constexpr,
    HV: tl.constexpr,
    K: tl.constexpr,
    V: tl.constexpr,
    BT: tl.constexpr,
    BK: tl.constexpr,
    BV: tl.constexpr,
    USE_G: tl.constexpr,
    USE_G_GAMMA: tl.constexpr,
    IS_VARLEN: tl.constexpr,
    STATE_V_FIRST: tl.constexpr,
):
    i_v, i_t, i_bh = tl.program_id(0), tl.program_id(1).to(tl.int64), tl.program_id(2).to(tl.int64)
    i_b, i_h = i_bh // HV, i_bh % HV
    if IS_VARLEN:
        i_tg = i_t
        i_n, i_t = tl.load(chunk_indices + i_t * 2).to(tl.int32), tl.load(chunk_indices + i_t * 2 + 1).to(tl.int64)
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int64), tl.load(cu_seqlens + i_n + 1).to(tl.int64)
        T = eos - bos
        NT = tl.cdiv(T, BT)
    else:
        NT = tl.cdiv(T, BT)
        i_tg = i_b * NT + i_t
        bos, eos = i_b * T, i_b * T + T

    b_dv = tl.zeros([BT, BV], dtype=tl.float32)

    # offset calculation
    q += (bos * H + i_h // (HV // H)) * K
    k += (bos * H + i_h // (HV // H)) * K
    do += (bos * HV + i_h) * V
    dv += (bos * HV + i_h) * V
    dh += (i_tg * HV + i_h).to(tl.int64) * K*V

    o_t = i_t * BT + tl.arange(0, BT)
    m_t = o_t < T
    o_v = i_v * BV + tl.arange(0, BV)
    b_A = tl.zeros([BT, BT], dtype=tl.float32)
    for i_k in range(tl.cdiv(K, BK)):
        o_k = i_k * BK + tl.arange(0, BK)
        m_k = o_k < K
        p_k = k + o_t[:, None] * (H*K) + o_k[None, :]
        p_q = q + o_k[:, None] + o_t[None, :] * (H*K)
        b_q = tl.load(p_q, mask=m_k[:, None] & m_t[None, :], other=0.0)
        b_k = tl.load(p_k, mask=m_t[:, None] & m_k[None, :], other=0.0)
        b_A += tl.dot(b_k, b_q)
        if STATE_V_FIRST:
            p_dh = dh + o_v[:, None] * K + o_k[None, :]
            b_dh = tl.trans(tl.load(p_dh, mask=(o_v[:, None] < V) & m_k[None, :], other=0.0))
        else:
            p_dh = dh + o_k[:, None] * V + o_v[None, :]
            b_dh = tl.load(p_dh, mask=m_k[:, None] & (o_v[None, :] < V), other=0.0)
        b_dv += tl.dot(b_k, b_dh.to(b_k.dtype))

    if USE_G:
        g += bos * HV + i_h
        p_g = g + o_t * HV
        b_g = tl.load(p_g, mask=m_t, other=0.0)
        b_g_last = tl.load(g + (min(i_t * BT + BT, T) - 1) * HV)
    if USE_G_GAMMA:
        b_gamma = tl.load(g_gamma + i_h)
        b_g = b_gamma * (tl.arange(0, BT) + 1)
        b_g_last = b_gamma * min(BT, T - i_t * BT)

    m_A = (o_t[:, None] <= o_t[None, :]) & (m_t[:, None] & m_t)
    if USE_G or USE_G_GAMMA:
        b_A = tl.where(m_A, b_A * exp2(b_g[None, :] - b_g[:, None]) * scale, 0).to(do.dtype.element_ty)
        b_dv *= tl.where(m_t, exp2(-b_g + b_g_last), 0)[:, None]
    else:
        b_A = tl.where(m_A, b_A * scale, 0).to(do.dtype.element_ty)
    p_do = do + o_t[:, None] * (HV*V) + o_v[None, :]
    p_dv = dv + o_t[:, None] * (HV*V) + o_v[None, :]
    b_do = tl.load(p_do, mask=m_t[:, None] & (o_v < V)[None, :], other=0.0)
    b_dv += tl.dot(b_A.to(b_do.dtype), b_do)
    tl.store(p_dv, b_dv.to(p_dv.dtype.element_ty), mask=m_t[:, None] & (o_v < V)[None, :])


def make_inputs(B: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    NT = triton.cdiv(T, BT)
    q = torch.randn((B, T, H, K), device=device, generator=gen).bfloat16()
    k = (torch.randn((B, T, H, K), device=device, generator=gen) / K ** 0.5).bfloat16()
    do = torch.randn((B, T, HV, V), device=device, generator=gen).bfloat16()
    dh = (torch.randn((B, NT, HV, V, K), device=device, generator=gen) / 4).bfloat16()   # value-first
    gl = torch.nn.functional.logsigmoid(torch.randn((B, T, HV), device=device, generator=gen) + 3.0) / 4
    gp = torch.nn.functional.pad(gl, (0, 0, 0, NT * BT - T)).view(B, NT, BT, HV).cumsum(2).view(B, NT * BT, HV)
    g = (gp[:, :T] / 0.6931471805599453).contiguous().float()   # chunk-local cumsum, log2 units (exp2 gate)
    return {"q": q, "k": k, "do": do, "dh": dh, "g": g}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """dv (B, T, HV, V) bf16, as chunk_bwd_dv(q, k, do, dh, g, state_v_first=True) runs the kernel."""
    import torch
    q, k, do, dh, g = (inputs[n] for n in ("q", "k", "do", "dh", "g"))
    B, T = k.shape[:2]
    NT = triton.cdiv(T, BT)
    BK, BV = config.get("BK", 128), config.get("BV", 128)
    dv = torch.empty_like(do)
    dummy_f = torch.zeros(HV, device=k.device, dtype=torch.float32)
    dummy_i = torch.zeros(2, device=k.device, dtype=torch.int32)
    chunk_bwd_kernel_dv[(triton.cdiv(V, BV), NT, B * HV)](
        q, k, g, dummy_f, do, dv, dh, dummy_i, dummy_i, K ** -0.5, T, H=H, HV=HV, K=K, V=V, BT=BT, BK=BK, BV=BV,
        USE_G=True, USE_G_GAMMA=False, IS_VARLEN=False, STATE_V_FIRST=True,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return dv


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, do, dh, g = (inputs[n].double() for n in ("q", "k", "do", "dh", "g"))
    B, T = k.shape[:2]
    NT = triton.cdiv(T, BT)
    rep = HV // H
    q, k = q.repeat_interleave(rep, dim=2), k.repeat_interleave(rep, dim=2)    # (B, T, HV, K)
    dv = torch.zeros_like(do)
    for t in range(NT):
        s, e = t * BT, min((t + 1) * BT, T)
        kc, qc, doc, gc = k[:, s:e], q[:, s:e], do[:, s:e], g[:, s:e]               # (B, L, HV, .)
        glast = gc[:, -1]                                                           # (B, HV)
        inter = torch.einsum("blhk,bhvk->blhv", kc, dh[:, t]) * torch.exp2(glast[:, None] - gc)[..., None]
        A = torch.einsum("bihk,bjhk->bhij", kc, qc) * torch.exp2(gc.permute(0, 2, 1)[:, :, None, :]
                                                                 - gc.permute(0, 2, 1)[:, :, :, None]) * K ** -0.5
        L = e - s
        A = A * torch.triu(torch.ones(L, L, dtype=A.dtype, device=A.device))
        A = A.to(torch.bfloat16).double()                                           # the kernel's cast before the dot
        dv[:, s:e] = inter + torch.einsum("bhij,bjhv->bihv", A, doc)
    return dv


def flops(B: int, T: int) -> float:
    NV = triton.cdiv(V, 128)
    return 2.0 * B * HV * T * (K * V + BT * K * NV + BT * V)
