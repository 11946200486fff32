"""flash-linear-attention's ``fused_recurrent_dplr_delta_rule_fwd_kernel`` (fla/ops/generalized_delta_rule/dplr/
fused_recurrent.py: the diagonal-plus-low-rank recurrence RWKV-7 runs at decode and for short prompts), rewritten
here: per (V block, sequence-head) a token loop carrying an fp32 state ``b_h`` [BV, BK] held TRANSPOSED (values on
the rows, keys on the columns); each token loads six vectors (q, k, a, b, the log decay gk over K; v over the
block's V), then two reductions along the state's key axis around its update:
``tmp = tl.sum(b_h * b_a[None, :], axis=1)`` (the state read through the low-rank ``a``), ``b_h = exp(b_gk)[None, :]
* b_h + (tmp[:, None] * b_b[None, :] + b_k[None, :] * b_v[:, None])`` (decay, rank-one correction, rank-one write)
and ``b_o = tl.sum(b_h * b_q[None, :], axis=1)`` stored every token; the pointers step by ``H * K`` / ``H * V`` (``-1
if REVERSE else 1`` times, REVERSE off). Constructs kept: ``i_v, i_nh = tl.program_id(0).to(tl.int64), ...``;
``IS_VARLEN`` with ``T`` reassigned from ``cu_seqlens`` (int64 ``bos`` / ``eos``, the trip count loaded); the initial
state loaded transposed under ``USE_INITIAL_STATE`` (``o_k[None, :] * V + o_v[:, None]``) and the final one stored
after the loop under ``STORE_FINAL_STATE``; ``@triton.jit(do_not_specialize=['T'])``; fp32 math on bf16 inputs (RWKV-7
runs in bf16). TWILL_SPEC: RWKV-7's head size 64 (K = V = 64), BK 64, BV 16, 2 warps, as FLA's autotune picks for
it. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "fused_recurrent_dplr_delta_rule_fwd_kernel",
    "signature": {"q": "*bf16", "k": "*bf16", "v": "*bf16", "a": "*bf16", "b": "*bf16", "gk": "*fp32",
                  "o": "*bf16", "h0": "*fp32", "ht": "*fp32", "cu_seqlens": "*i32", "scale": "fp32", "T": "i32"},
    "constexprs": {"B": 1, "H": 32, "K": 64, "V": 64, "BK": 64, "BV": 16, "REVERSE": False,
                   "USE_INITIAL_STATE": True, "STORE_FINAL_STATE": True, "IS_VARLEN": True},
    "num_warps": 2, "num_stages": 1,
    "divisibility": ["q", "k", "v", "a", "b", "gk", "o", "h0", "ht", "cu_seqlens"]}
PROBLEM: dict[str, int] = {"N": 8, "T": 1024}     # 8 sequences of up to 1024 tokens, 32 heads of 64 (RWKV-7 1.5B)
SMALL: dict[str, int] = {"N": 3, "T": 37}


@triton.heuristics({
    "USE_INITIAL_STATE": lambda args: args["h0"] is not None,
    "STORE_FINAL_STATE": lambda args: args["ht"] is not None,
    "IS_VARLEN": lambda args: args["cu_seqlens"] is not None,
})
@triton.jit(do_not_specialize=["T"])
def fused_recurrent_dplr_delta_rule_fwd_kernel(
        q, k, v, a, b, gk, o, h0, ht, cu_seqlens, scale, T, B: tl.constexpr, H: tl.constexpr, K: tl.constexpr,
        V: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, REVERSE: tl.constexpr, USE_INITIAL_STATE: tl.constexpr,
        STORE_FINAL_STATE: tl.constexpr, IS_VARLEN: tl.constexpr):
    # twill corpus rendition: h_t = h_{t-1} diag(exp(gk_t)) + (h_{t-1} a_t) b_t^T + v_t k_t^T, o_t = h_t q_t
    i_v, i_nh = tl.program_id(0).to(tl.int64), tl.program_id(1).to(tl.int64)
    i_n, i_h = i_nh // H, i_nh % H
    if IS_VARLEN:
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int64), tl.load(cu_seqlens + i_n + 1).to(tl.int64)
        T = eos - bos
    else:
        bos, eos = i_n * T, i_n * T + T

    o_k = tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    p_q = q + (bos + ((T - 1) if REVERSE else 0)) * H * K + i_h * K + o_k
    p_k = k + (bos + ((T - 1) if REVERSE else 0)) * H * K + i_h * K + o_k
    p_a = a + (bos + ((T - 1) if REVERSE else 0)) * H * K + i_h * K + o_k
    p_b = b + (bos + ((T - 1) if REVERSE else 0)) * H * K + i_h * K + o_k
    p_gk = gk + (bos + ((T - 1) if REVERSE else 0)) * H * K + i_h * K + o_k
    p_v = v + (bos + ((T - 1) if REVERSE else 0)) * H * V + i_h * V + o_v
    p_o = o + (bos + ((T - 1) if REVERSE else 0)) * H * V + i_h * V + o_v

    mask_k = o_k < K
    mask_v = o_v < V
    mask_h = mask_k[None, :] & mask_v[:, None]
    b_h = tl.zeros([BV, BK], dtype=tl.float32)
    if USE_INITIAL_STATE:
        p_h0 = h0 + i_nh * K * V + o_k[None, :] * V + o_v[:, None]
        b_h += tl.load(p_h0, mask=mask_h, other=0).to(tl.float32)

    for _ in range(0, T):
        b_q = tl.load(p_q, mask=mask_k, other=0).to(tl.float32) * scale
        b_k = tl.load(p_k, mask=mask_k, other=0).to(tl.float32)
        b_a = tl.load(p_a, mask=mask_k, other=0).to(tl.float32)
        b_b = tl.load(p_b, mask=mask_k, other=0).to(tl.float32)
        b_gk = tl.load(p_gk, mask=mask_k, other=0).to(tl.float32)
        b_v = tl.load(p_v, mask=mask_v, other=0).to(tl.float32)

        tmp = tl.sum(b_h * b_a[None, :], axis=1)
        b_h = tl.exp(b_gk)[None, :] * b_h + (tmp[:, None] * b_b[None, :] + b_k[None, :] * b_v[:, None])
        b_o = tl.sum(b_h * b_q[None, :], axis=1)

        tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=mask_v)
        p_q += (-1 if REVERSE else 1) * H * K
        p_k += (-1 if REVERSE else 1) * H * K
        p_a += (-1 if REVERSE else 1) * H * K
        p_b += (-1 if REVERSE else 1) * H * K
        p_gk += (-1 if REVERSE else 1) * H * K
        p_v += (-1 if REVERSE else 1) * H * V
        p_o += (-1 if REVERSE else 1) * H * V

    if STORE_FINAL_STATE:
        p_ht = ht + i_nh * K * V + o_k[None, :] * V + o_v[:, None]
        tl.store(p_ht, b_h.to(p_ht.dtype.element_ty), mask=mask_h)


def make_inputs(N: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """RWKV-7's inputs packed varlen [1, total, 32, 64] bf16: q (r), k, v, a = -kk and b = kk * iclr (kk unit-norm,
    iclr in (0, 1)), the log decay gk = -exp(w) fp32 (w around -3), an fp32 initial state [N, 32, 64, 64] and
    cu_seqlens."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = torch.randint(max(1, T // 2), T + 1, (N,), generator=g, device=device)
    lens[0] = T
    cu = torch.zeros((N + 1,), dtype=torch.int32, device=device)
    cu[1:] = torch.cumsum(lens, 0)
    shape = (1, int(cu[-1]), 32, 64)
    q, k, v = (torch.randn(shape, device=device, generator=g) * 0.5 for _ in range(3))
    kk = torch.nn.functional.normalize(torch.randn(shape, device=device, generator=g), dim=-1)
    iclr = torch.sigmoid(torch.randn(shape, device=device, generator=g))
    gk = -torch.exp(torch.randn(shape, device=device, generator=g) * 0.5 - 3.0)
    h0 = torch.randn((N, 32, 64, 64), device=device, generator=g) * 0.1
    return {"q": q.bfloat16(), "k": k.bfloat16(), "v": v.bfloat16(), "a": (-kk).bfloat16(),
            "b": (kk * iclr).bfloat16(), "gk": gk, "h0": h0, "cu_seqlens": cu}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """fused_recurrent_dplr_delta_rule_fwd with cu_seqlens: (o [1, total, H, V] bf16, final state [N, H, K, V])."""
    import torch
    q, k, v, a, b, gk, h0, cu = (inputs[n] for n in ("q", "k", "v", "a", "b", "gk", "h0", "cu_seqlens"))
    _, T, H, K = k.shape
    V = v.shape[-1]
    N = cu.numel() - 1
    BK, BV = triton.next_power_of_2(K), config.get("BV", 16)
    o = torch.empty_like(v)
    ht = torch.empty((N, H, K, V), device=q.device, dtype=torch.float32)
    fused_recurrent_dplr_delta_rule_fwd_kernel[(triton.cdiv(V, BV), N * H)](
        q, k, v, a, b, gk, o, h0, ht, cu, K ** -0.5, T, B=1, H=H, K=K, V=V, BK=BK, BV=BV, REVERSE=False,
        num_warps=config.get("num_warps", 2), num_stages=config.get("num_stages", 1))
    return o, ht


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v, a, b, gk = (inputs[n].double() for n in ("q", "k", "v", "a", "b", "gk"))
    cu = inputs["cu_seqlens"].tolist()
    K = k.shape[-1]
    o = torch.empty_like(v)
    hts = []
    for n, (s, e) in enumerate(zip(cu[:-1], cu[1:])):
        h = inputs["h0"][n].double().clone()                    # [H, K, V]
        for t in range(s, e):
            ha = torch.einsum("hkv,hk->hv", h, a[0, t])
            h = h * gk[0, t].exp()[..., None] + b[0, t][..., None] * ha[:, None, :] \
                + k[0, t][..., None] * v[0, t][:, None, :]
            o[0, t] = torch.einsum("hkv,hk->hv", h, q[0, t] * K ** -0.5)
        hts.append(h)
    return o.bfloat16(), torch.stack(hts).float()
