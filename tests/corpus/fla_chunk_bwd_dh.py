"""flash-linear-attention ``chunk_bwd_kernel_dh`` (fla/ops/common/chunk_h.py, the split-state form, rewritten here):
the state gradient of a chunked linear recurrence, walked BACKWARDS over the chunks (``for i_t in range(NT - 1, -1,
-1)``, a runtime NT from ``tl.cdiv(T, BT)``). Per chunk: dh is stored only at the first chunk of each split of BS = 2
* BT tokens (``if i_t % (BS // BT) == 0: tl.store(...)``: a store under an if inside the loop, through a block pointer
built from ``i_s = i_t // (BS // BT)`` and an int64 offset); q is loaded as a transposed (K, T) block pointer
(order (0, 1)) and scaled; USE_GK: the per-key gate gk, also a (K, T) block pointer, scales q by ``exp(gk)`` and the
carried fp32 [BK, BV] dh by ``exp(gk_last)[:, None]`` (gk_last a masked pointer load at ``min(i_t * BT + BT, T) -
1``); then ``dh += tl.dot(q, do)``. dht added before the loop, dh0 stored after it (USE_FINAL_STATE_GRADIENT /
STORE_INITIAL_STATE_GRADIENT). GQA indexing (HQ, NG = 1), USE_G / USE_G_GAMMA / USE_GV off with their pointers
passed as None, ``@triton.heuristics`` over ``@triton.autotune`` (BK, BV, num_warps, num_stages) over
``@triton.jit(do_not_specialize=['T'])``. fp16 where FLA uses bf16 (Triton 3.6's interpreter mishandles bf16).
[B, T, H, K] layout."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BT, BS, H, K, V = 64, 128, 4, 128, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_bwd_kernel_dh",
    "signature": {"q": "*fp16", "g": "constexpr", "g_gamma": "constexpr", "gk": "*fp32", "gv": "constexpr",
                  "do": "*fp16", "dh": "*fp16", "dht": "*fp32", "dh0": "*fp32", "cu_seqlens": "constexpr",
                  "split_offsets": "constexpr", "scale": "fp32", "T": "i32"},
    "constexprs": {"g": None, "g_gamma": None, "gv": None, "cu_seqlens": None, "split_offsets": None, "HQ": H,
                   "H": H, "K": K, "V": V, "BT": BT, "BS": BS, "BK": 64, "BV": 64, "NG": 1, "USE_G": False,
                   "USE_G_GAMMA": False, "USE_GK": True, "USE_GV": False, "STORE_INITIAL_STATE_GRADIENT": True,
                   "USE_FINAL_STATE_GRADIENT": True, "IS_VARLEN": False},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["q", "gk", "do", "dh", "dht", "dh0"]}
PROBLEM: dict[str, int] = {"B": 8, "T": 4096}
SMALL: dict[str, int] = {"B": 1, "T": 200}     # T % BS = 72: the last split holds one full and one partial chunk


@triton.jit
def exp(x):
    return tl.exp(x)


@triton.heuristics({
    'STORE_INITIAL_STATE_GRADIENT': lambda args: args['dh0'] is not None,
    'USE_FINAL_STATE_GRADIENT': lambda args: args['dht'] is not None,
    'IS_VARLEN': lambda args: args['cu_seqlens'] is not None,
})
@triton.autotune(
    configs=[triton.Config({'BK': bk, 'BV': bv}, num_warps=w, num_stages=s)
             for bk in (32, 64) for bv in (32, 64) for w in (4,) for s in (2, 3)],
    key=['BT', 'USE_G', 'USE_GK', 'USE_GV'],
)
@triton.jit(do_not_specialize=['T'])
def chunk_bwd_kernel_dh(q, g, g_gamma, gk, gv, do, dh, dht, dh0, cu_seqlens, split_offsets, scale, T,
                        HQ: tl.constexpr, H: tl.constexpr, K: tl.constexpr, V: tl.constexpr, BT: tl.constexpr,
                        BS: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, NG: tl.constexpr, USE_G: tl.constexpr,
                        USE_G_GAMMA: tl.constexpr, USE_GK: tl.constexpr, USE_GV: tl.constexpr,
                        STORE_INITIAL_STATE_GRADIENT: tl.constexpr, USE_FINAL_STATE_GRADIENT: tl.constexpr,
                        IS_VARLEN: tl.constexpr):
    # twill corpus rendition: dh of one (sequence, query head) for one [BK, BV] block, chunks walked backwards
    i_k, i_v, i_nh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_n, i_hq = i_nh // HQ, i_nh % HQ
    i_h = i_hq // NG
    if IS_VARLEN:
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
        T = eos - bos
        NT = tl.cdiv(T, BT)
        boh = tl.load(split_offsets + i_n).to(tl.int32)
    else:
        bos, eos = i_n * T, i_n * T + T
        NT = tl.cdiv(T, BT)
        boh = i_n * tl.cdiv(T, BS)
    b_dh = tl.zeros([BK, BV], dtype=tl.float32)
    if USE_FINAL_STATE_GRADIENT:
        p_dht = tl.make_block_ptr(dht + i_nh * K * V, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        b_dh += tl.load(p_dht, boundary_check=(0, 1)).to(tl.float32)
    for i_t in range(NT - 1, -1, -1):
        i_s = i_t // (BS // BT)
        o_dh = ((boh + i_s) * HQ + i_hq).to(tl.int64) * K * V
        p_dh = tl.make_block_ptr(dh + o_dh, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        if i_t % (BS // BT) == 0:                 # a split's first chunk: the gradient flowing into it
            tl.store(p_dh, b_dh.to(p_dh.dtype.element_ty), boundary_check=(0, 1))
        last_idx = min(i_t * BT + BT, T) - 1
        p_q = tl.make_block_ptr(q + (bos * HQ + i_hq) * K, (K, T), (1, HQ * K), (i_k * BK, i_t * BT), (BK, BT), (0, 1))
        p_do = tl.make_block_ptr(do + (bos * HQ + i_hq) * V, (T, V), (HQ * V, 1), (i_t * BT, i_v * BV), (BT, BV),
                                 (1, 0))
        b_q = tl.load(p_q, boundary_check=(0, 1))
        b_q = (b_q * scale).to(b_q.dtype)
        b_do = tl.load(p_do, boundary_check=(0, 1))
        if USE_GK:
            p_gk = tl.make_block_ptr(gk + (bos * H + i_h) * K, (K, T), (1, H * K), (i_k * BK, i_t * BT), (BK, BT),
                                     (0, 1))
            p_gk_last = gk + (bos + last_idx) * H * K + i_h * K + i_k * BK + tl.arange(0, BK)
            b_gk = tl.load(p_gk, boundary_check=(0, 1))
            b_q = (b_q * exp(b_gk)).to(b_q.dtype)
            b_gk_last = tl.load(p_gk_last, mask=(i_k * BK + tl.arange(0, BK) < K), other=0.)
            b_dh *= exp(b_gk_last)[:, None]
        b_dh += tl.dot(b_q, b_do.to(b_q.dtype))
    if STORE_INITIAL_STATE_GRADIENT:
        p_dh0 = tl.make_block_ptr(dh0 + i_nh * K * V, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_dh0, b_dh.to(p_dh0.dtype.element_ty), boundary_check=(0, 1))


def make_inputs(B: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, do [B, T, H, K / V] fp16; gk [B, T, H, K] fp32 the chunk-local cumulative sum of log-sigmoid gates (as
    FLA's chunk_local_cumsum leaves it); dht [B, H, K, V] fp32."""
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    q = (torch.randn((B, T, H, K), device=device, generator=gen) / 4).half()
    do = torch.randn((B, T, H, V), device=device, generator=gen).half()
    gl_ = torch.nn.functional.logsigmoid(torch.randn((B, T, H, K), device=device, generator=gen) + 4.0) / 4
    NT = triton.cdiv(T, BT)
    gp = torch.nn.functional.pad(gl_, (0, 0, 0, 0, 0, NT * BT - T)).view(B, NT, BT, H, K).cumsum(2)
    gk = gp.view(B, NT * BT, H, K)[:, :T].contiguous()
    dht = torch.randn((B, H, K, V), device=device, generator=gen) / 4
    return {"q": q, "do": do, "gk": gk, "dht": dht, "scale": K ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[dh (B, NS, H, K, V) flattened, dh0 (B, H, K, V) flattened] as fp32, FLA's chunk_bwd_dh(q, k, v, do, h0,
    dht, scale, gk=gk, chunk_size=64, split_size=128) with h0 given. The autotuner picks BK, BV, warps, stages."""
    import torch
    q, do, gk, dht = inputs["q"], inputs["do"], inputs["gk"], inputs["dht"]
    B, T = q.shape[:2]
    NS = triton.cdiv(T, BS)
    dh = q.new_empty(B, NS, H, K, V)
    dh0 = torch.empty((B, H, K, V), device=q.device, dtype=torch.float)

    def grid(meta):
        return (triton.cdiv(K, meta['BK']), triton.cdiv(V, meta['BV']), B * H)
    chunk_bwd_kernel_dh[grid](q=q, g=None, g_gamma=None, gk=gk, gv=None, do=do, dh=dh, dht=dht, dh0=dh0,
                              cu_seqlens=None, split_offsets=None, scale=inputs["scale"], T=T, HQ=H, H=H, K=K, V=V,
                              BT=BT, BS=BS, NG=1, USE_G=False, USE_G_GAMMA=False, USE_GK=True, USE_GV=False)
    return torch.cat([dh.float().flatten(), dh0.flatten()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, do, gk, dht = (inputs[n].double() for n in ("q", "do", "gk", "dht"))
    B, T = q.shape[:2]
    NT = triton.cdiv(T, BT)
    state = dht.clone()                                              # B, H, K, V
    dhs = [None] * triton.cdiv(T, BS)
    for t in range(NT - 1, -1, -1):
        s, e = t * BT, min((t + 1) * BT, T)
        if t % (BS // BT) == 0:
            dhs[t // (BS // BT)] = state.clone()
        qg = q[:, s:e] * inputs["scale"] * torch.exp(gk[:, s:e])     # B, n, H, K
        state = state * torch.exp(gk[:, e - 1])[..., None]
        state = state + torch.einsum("bthk,bthv->bhkv", qg, do[:, s:e])
    return torch.cat([torch.stack(dhs, 1).flatten(), state.flatten()])


def flops(B: int, T: int) -> float:
    return 2.0 * B * H * T * K * V
