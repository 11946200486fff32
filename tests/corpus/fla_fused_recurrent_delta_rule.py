"""flash-linear-attention ``fused_recurrent_delta_rule_fwd_kernel`` (fla/ops/delta_rule/fused_recurrent.py, the
DeltaNet token-by-token forward, rewritten here): one program per (V block, K block, sequence * head) carries a
[BV, BK] fp32 state (transposed: V rows, K columns) through ``for _ in range(0, T)``. Each step loads k, v, q (fp16
vectors, q scaled) and ONE scalar beta (``tl.load(p_beta)``: IS_BETA_HEADWISE False), reads the state before
updating it (``b_v -= tl.sum(b_h * b_k[None, :], axis=1)``: the delta rule's prediction error), stores that
error as u (the value the backward re-reads), scales it by beta, updates the state with an outer product
(``b_h += b_k[None, :] * b_v[:, None]``) and stores ``o = sum(b_h * b_q[None, :], 1)``: two stores a step, six
pointers advanced by ``H*K`` / ``H*V`` / ``H``. The sequence base is int64 (``tl.cast(i_n, tl.int64) * T``); o is
offset by ``i_k * all`` with ``all = B * T``. The initial state h0 [N, H, K, V] is loaded transposed before the
loop and the final state stored after it (USE_INITIAL_STATE / STORE_FINAL_STATE by ``@triton.heuristics`` from
h0 / ht not None), IS_VARLEN False (cu_seqlens None); ``@triton.jit(do_not_specialize=['T'])``. BK = 128 and BV
= 8, one warp, one stage, as fused_recurrent_delta_rule_fwd launches it for K = V = 128. fp16 where FLA runs bf16
(the interpreter mishandles bf16)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "fused_recurrent_delta_rule_fwd_kernel",
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "u": "*fp16", "beta": "*fp16", "o": "*fp16",
                  "h0": "*fp32", "ht": "*fp32", "cu_seqlens": "constexpr", "scale": "fp32", "T": "i32"},
    "constexprs": {"cu_seqlens": None, "B": 4, "H": 8, "K": 128, "V": 128, "BK": 128, "BV": 8,
                   "USE_INITIAL_STATE": True, "STORE_FINAL_STATE": True, "IS_BETA_HEADWISE": False,
                   "IS_VARLEN": False},
    "num_warps": 1, "num_stages": 1,
    "divisibility": ["q", "k", "v", "u", "beta", "o", "h0", "ht"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 8, "T": 4096}
SMALL: dict[str, int] = {"B": 4, "H": 8, "T": 37}     # B and H are constexprs


@triton.heuristics({
    'USE_INITIAL_STATE': lambda args: args['h0'] is not None,
    'STORE_FINAL_STATE': lambda args: args['ht'] is not None,
    'IS_VARLEN': lambda args: args['cu_seqlens'] is not None,
})
@triton.jit(do_not_specialize=['T'])
def fused_recurrent_delta_rule_fwd_kernel(q, k, v, u, beta, o, h0, ht, cu_seqlens, scale, T, B: tl.constexpr,
                                          H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, BK: tl.constexpr,
                                          BV: tl.constexpr, USE_INITIAL_STATE: tl.constexpr,
                                          STORE_FINAL_STATE: tl.constexpr, IS_BETA_HEADWISE: tl.constexpr,
                                          IS_VARLEN: tl.constexpr):
    # twill corpus rendition: a [BV, BK] delta-rule state carried token by token
    i_v, i_k, i_nh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_n, i_h = i_nh // H, i_nh % H
    if IS_VARLEN:
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int64), tl.load(cu_seqlens + i_n + 1).to(tl.int64)
        all = T
        T = (eos - bos).to(tl.int32)
    else:
        bos, eos = tl.cast(i_n, tl.int64) * T, tl.cast(i_n, tl.int64) * T + T
        all = B * T
    o_k = i_k * BK + tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    p_q = q + (bos * H + i_h) * K + o_k
    p_k = k + (bos * H + i_h) * K + o_k
    p_v = v + (bos * H + i_h) * V + o_v
    p_u = u + (bos * H + i_h) * V + o_v
    if IS_BETA_HEADWISE:
        p_beta = beta + (bos * H + i_h) * V + o_v
    else:
        p_beta = beta + bos * H + i_h
    p_o = o + ((i_k * all + bos) * H + i_h) * V + o_v
    mask_k = o_k < K
    mask_v = o_v < V
    mask_h = mask_k[None, :] & mask_v[:, None]
    b_h = tl.zeros([BV, BK], dtype=tl.float32)
    if USE_INITIAL_STATE:
        p_h0 = h0 + i_nh * K * V + o_k[None, :] * V + o_v[:, None]
        b_h += tl.load(p_h0, mask=mask_h, other=0).to(tl.float32)
    for _ in range(0, T):
        b_k = tl.load(p_k, mask=mask_k, other=0).to(tl.float32)
        b_v = tl.load(p_v, mask=mask_v, other=0).to(tl.float32)
        b_q = tl.load(p_q, mask=mask_k, other=0).to(tl.float32) * scale
        b_v -= tl.sum(b_h * b_k[None, :], axis=1)           # the state's prediction of v, before the update
        if IS_BETA_HEADWISE:
            b_beta = tl.load(p_beta, mask=mask_v, other=0).to(tl.float32)
        else:
            b_beta = tl.load(p_beta).to(tl.float32)           # one scalar a step
        tl.store(p_u, b_v.to(p_v.dtype.element_ty), mask=mask_v)
        b_v *= b_beta
        b_h += b_k[None, :] * b_v[:, None]
        b_o = tl.sum(b_h * b_q[None, :], axis=1)
        tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=mask_v)
        p_q += H * K
        p_k += H * K
        p_o += H * V
        p_v += H * V
        p_u += H * V
        p_beta += H * (V if IS_BETA_HEADWISE else 1)
    if STORE_FINAL_STATE:
        p_ht = ht + i_nh * K * V + o_k[None, :] * V + o_v[:, None]
        tl.store(p_ht, b_h.to(p_ht.dtype.element_ty), mask=mask_h)


def make_inputs(B: int, H: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k [B, T, H, 128] L2-normalised (as use_qk_l2norm_in_kernel leaves them before the kernel), v [B, T, H,
    128], beta [B, T, H] in (0, 1) (a sigmoid), an fp32 initial state [B, H, K, V]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.nn.functional.normalize(torch.randn((B, T, H, 128), device=device, generator=g), dim=-1).half()
    k = torch.nn.functional.normalize(torch.randn((B, T, H, 128), device=device, generator=g), dim=-1).half()
    v = torch.randn((B, T, H, 128), device=device, generator=g).half()
    beta = torch.sigmoid(torch.randn((B, T, H), device=device, generator=g)).half()
    h0 = torch.randn((B, H, 128, 128), device=device, generator=g) / 4
    return {"q": q, "k": k, "v": v, "beta": beta, "h0": h0}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(o [B, T, H, V], u [B, T, H, V], final state [B, H, K, V] fp32) as fused_recurrent_delta_rule_fwd returns
    them (scale K ** -0.5)."""
    import torch
    q, k, v, beta, h0 = (inputs[n] for n in ("q", "k", "v", "beta", "h0"))
    B, T, H, K = k.shape
    V = v.shape[-1]
    BK, BV = triton.next_power_of_2(K), min(triton.next_power_of_2(V), config.get("BV", 8))
    NK, NV = triton.cdiv(K, BK), triton.cdiv(V, BV)
    o = q.new_empty(NK, *v.shape)
    u = torch.empty_like(v)
    final_state = q.new_empty(B, H, K, V, dtype=torch.float32)
    fused_recurrent_delta_rule_fwd_kernel[(NV, NK, B * H)](
        q, k, v, u, beta, o, h0, final_state, None, K ** -0.5, T=T, B=B, H=H, K=K, V=V, BK=BK, BV=BV,
        IS_BETA_HEADWISE=beta.ndim == v.ndim, num_warps=config.get("num_warps", 1),
        num_stages=config.get("num_stages", 1))
    return o.squeeze(0), u, final_state


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v, beta = (inputs[n].double() for n in ("q", "k", "v", "beta"))
    B, T, H, K = k.shape
    h = inputs["h0"].double().clone()                                   # [B, H, K, V]
    o, u = torch.empty_like(v), torch.empty_like(v)
    for t in range(T):
        kt, vt = k[:, t], v[:, t]                                       # [B, H, K], [B, H, V]
        err = vt - torch.einsum("bhk,bhkv->bhv", kt, h)
        u[:, t] = err
        h = h + kt[..., :, None] * (err * beta[:, t, :, None])[..., None, :]
        o[:, t] = torch.einsum("bhk,bhkv->bhv", q[:, t] * K ** -0.5, h)
    return o, u, h
