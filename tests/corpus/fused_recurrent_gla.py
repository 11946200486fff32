"""flash-linear-attention's ``fused_recurrent_gla_fwd_kernel`` (fla/ops/gla/recurrent_fuse.py): one program per
(V block, K block, batch*head), a [BV, BK] state in registers decayed by exp(gk) (and exp(gv)), updated by the outer
product k v^T via broadcasting, o = sum_k h q stored each step; REVERSE / USE_GK / USE_GV / initial and final state
constexprs; no tl.dot."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl


@triton.jit
def fused_recurrent_gla_fwd_kernel(
    # B: batch_size, H: n_heads, T: seq_len, D: d_head
    q,  # query [B, H, L, D_head_K]
    k,  # key [B, H, L, D_head_V]
    v,  # value [B, H, L, D_head_V]
    gk,  # log gate [B, H, L, D_head_K]
    gv,  # log gate [B, H, L, D_head_V]
    o,  # output [B, H, L, D_head_V]
    # initial hidden state initialization [B, H, D_head_K, D_head_V]
    initial_state,
    final_state,  # final hidden state [B, H, D_head_K, D_head_V]

    s_qk_h,  # stride size: L * D_head_K
    s_qk_t,  # stride size: D_head_K
    s_qk_d,  # stride size: 1

    s_vo_h,  # stride size: L * D_head_V
    s_vo_t,  # stride size: D_head_V
    s_vo_d,  # stride size: 1

    B,  # batch size
    H,  # n_heads
    T,  # seq_len
    scale,  # D_head_K ** -0.5
    BK: tl.constexpr,  # BLOCK SIZE along the K dimension
    BV: tl.constexpr,  # BLOCK SIZE along the V dimension
    DK: tl.constexpr,  # D_head_K
    DV: tl.constexpr,  # D_head_V
    USE_INITIAL_STATE: tl.constexpr,  # whether to use initial state
    STORE_FINAL_STATE: tl.constexpr,  # whether to store final state
    REVERSE: tl.constexpr,  # whether to do autoregressive modeling in the reverse direction
    USE_GK: tl.constexpr,  # whether to use gk
    USE_GV: tl.constexpr,  # whether to use gv
):
    # indices
    i_v, i_k, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)

    p_q = q + i_bh * s_qk_h + i_k * BK + tl.arange(0, BK) + ((T-1) * DK if REVERSE else 0)
    p_k = k + i_bh * s_qk_h + i_k * BK + tl.arange(0, BK) + ((T-1) * DK if REVERSE else 0)
    p_v = v + i_bh * s_vo_h + i_v * BV + tl.arange(0, BV) + ((T-1) * DV if REVERSE else 0)
    p_o = o + (i_bh + i_k * B * H) * s_vo_h + i_v * BV + tl.arange(0, BV) + ((T-1) * DV if REVERSE else 0)

    if USE_GK:
        p_gk = gk + i_bh * s_qk_h + i_k * BK + tl.arange(0, BK) + ((T-1) * DK if REVERSE else 0)
    if USE_GV:
        p_gv = gv + i_bh * s_vo_h + i_v * BV + tl.arange(0, BV) + ((T-1) * DV if REVERSE else 0)

    mask_bk = (i_k * BK + tl.arange(0, BK)) < DK
    mask_bv = (i_v * BV + tl.arange(0, BV)) < DV

    h = tl.zeros([BV, BK], dtype=tl.float32)

    mask_kv = mask_bk[None, :] & mask_bv[:, None]

    if USE_INITIAL_STATE:
        p_init_s = initial_state + i_bh * DK * DV + \
            (i_k * BK + tl.arange(0, BK)[None, :]) * \
            DV + (i_v * BV + tl.arange(0, BV)[:, None])
        h += tl.load(p_init_s, mask=mask_kv, other=0).to(tl.float32)

    for _ in range(0, T):
        _k = tl.load(p_k, mask=mask_bk, other=0).to(tl.float32)
        _v = tl.load(p_v, mask=mask_bv, other=0).to(tl.float32)
        _q = tl.load(p_q, mask=mask_bk, other=0).to(tl.float32) * scale
        if USE_GK:
            _gk = tl.load(p_gk, mask=mask_bk, other=0).to(tl.float32)
            h = h * tl.exp(_gk[None, :])
        if USE_GV:
            _gv = tl.load(p_gv, mask=mask_bv, other=0).to(tl.float32)
            h = h * tl.exp(_gv[:, None])
        h += _k[None, :] * _v[:, None]
        _o = h * _q[None, :]
        _o = tl.sum(_o, axis=1)
        tl.store(p_o, _o.to(p_o.dtype.element_ty), mask=mask_bv)
        p_q += -DK if REVERSE else DK
        p_k += -DK if REVERSE else DK
        p_o += -DV if REVERSE else DV
        p_v += -DV if REVERSE else DV
        if USE_GK:
            p_gk += -DK if REVERSE else DK
        if USE_GV:
            p_gv += -DV if REVERSE else DV

    if STORE_FINAL_STATE:
        p_final_s = final_state + i_bh * DK * DV + \
            (i_k * BK + tl.arange(0, BK)[None, :]) * \
            DV + (i_v * BV + tl.arange(0, BV)[:, None])
        tl.store(p_final_s, h.to(p_final_s.dtype.element_ty), mask=mask_kv)


_I = "i32"
TWILL_SPEC: dict[str, Any] = {
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "gk": "*fp32", "gv": "*fp32", "o": "*fp16",
                  "initial_state": "*fp32", "final_state": "*fp32", "s_qk_h": _I, "s_qk_t": _I, "s_qk_d": _I,
                  "s_vo_h": _I, "s_vo_t": _I, "s_vo_d": _I, "B": _I, "H": _I, "T": _I, "scale": "fp32"},
    "constexprs": {"BK": 64, "BV": 64, "DK": 64, "DV": 128, "USE_INITIAL_STATE": True, "STORE_FINAL_STATE": True,
                   "REVERSE": False, "USE_GK": True, "USE_GV": False},
    "num_warps": 1, "num_stages": 1, "divisibility": ["s_qk_h", "s_vo_h"]}
PROBLEM: dict[str, int] = {"B": 8, "H": 16, "T": 2048}
SMALL: dict[str, int] = {"B": 2, "H": 2, "T": 13}
DK, DV = 64, 128


def make_inputs(B, H, T, device="cuda", seed=0):
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    r = lambda *s: torch.randn(s, device=device, generator=g)
    return {"q": r(B, H, T, DK).half(), "k": r(B, H, T, DK).half(), "v": r(B, H, T, DV).half(),
            "gk": torch.nn.functional.logsigmoid(r(B, H, T, DK)) / 16, "h0": r(B, H, DK, DV) * 0.1}


def launch(inputs, **config):
    import torch
    q, k, v, gk, h0 = (inputs[n] for n in ("q", "k", "v", "gk", "h0"))
    B, H, T, _ = q.shape
    BK, BV = 64, 64
    NK, NV = triton.cdiv(DK, BK), triton.cdiv(DV, BV)
    o = q.new_empty(NK, B, H, T, DV)
    ht = torch.empty_like(h0)
    fused_recurrent_gla_fwd_kernel[(NV, NK, B * H)](
        q, k, v, gk, gk, o, h0, ht, q.stride(1), q.stride(2), q.stride(3), v.stride(1), v.stride(2), v.stride(3),
        B, H, T, DK ** -0.5, BK=BK, BV=BV, DK=DK, DV=DV, USE_INITIAL_STATE=True, STORE_FINAL_STATE=True,
        REVERSE=False, USE_GK=True, USE_GV=False, num_warps=config.get("num_warps", 1),
        num_stages=config.get("num_stages", 1))
    return o.sum(0), ht


def reference(inputs):
    import torch
    q, k, v, gk, h = (inputs[n].double() for n in ("q", "k", "v", "gk", "h0"))
    out = []
    for t in range(q.shape[2]):
        h = h * gk[:, :, t].exp()[..., None] + k[:, :, t, :, None] * v[:, :, t, None, :]
        out.append(torch.einsum("bhk,bhkv->bhv", q[:, :, t] * DK ** -0.5, h))
    return torch.stack(out, 2), h
