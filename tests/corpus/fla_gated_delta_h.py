"""flash-linear-attention ``chunk_gated_delta_rule_fwd_kernel_h`` (fla/ops/common/chunk_delta_h.py, v0.2-era form):
the chunked gated delta-rule state recurrence. Per chunk of BT tokens: store the state h, v_new = v - w @ h (stored
when SAVE_NEW_VALUE), decay v_new by ``safe_exp(g_last - g)`` and h by ``exp(g_last)`` (USE_G), then
h += k^T @ v_new. Carried fp32 [BK, BV] state, block pointers with boundary_check (k as a transposed (K, T) view with
order (0, 1)), a 1-D block pointer over the gate, ``min`` of a runtime index, pointers pre-offset by ``+=``,
``@triton.heuristics`` (flags from ``is not None``) over ``@triton.autotune`` over
``@triton.jit(do_not_specialize=['T'])``, USE_G / USE_INITIAL_STATE / STORE_FINAL_STATE / SAVE_NEW_VALUE /
IS_VARLEN constexprs (cu_seqlens / chunk_offsets passed as None). fp16 where FLA uses bf16 (Triton 3.6's
interpreter mishandles bf16). [B, T, H, K] layout."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

BT = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_gated_delta_rule_fwd_kernel_h",
    "signature": {"k": "*fp16", "v": "*fp16", "w": "*fp16", "v_new": "*fp16", "g": "*fp32", "h": "*fp16",
                  "h0": "*fp32", "ht": "*fp32", "cu_seqlens": "constexpr", "chunk_offsets": "constexpr", "T": "i32"},
    "constexprs": {"cu_seqlens": None, "chunk_offsets": None, "H": 4, "K": 128, "V": 128, "BT": BT, "BK": 128,
                   "BV": 64, "USE_G": True, "USE_INITIAL_STATE": True, "STORE_FINAL_STATE": True,
                   "SAVE_NEW_VALUE": True, "IS_VARLEN": False},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["k", "v", "w", "v_new", "g", "h", "h0", "ht"]}
PROBLEM: dict[str, int] = {"B": 8, "T": 4096}
SMALL: dict[str, int] = {"B": 1, "T": 200}


@triton.jit
def exp(x):
    return tl.exp(x)


@triton.jit
def safe_exp(x):
    return exp(tl.where(x <= 0, x, float('-inf')))


@triton.heuristics({
    'USE_G': lambda args: args['g'] is not None,
    'USE_INITIAL_STATE': lambda args: args['h0'] is not None,
    'STORE_FINAL_STATE': lambda args: args['ht'] is not None,
    'SAVE_NEW_VALUE': lambda args: args['v_new'] is not None,
    'IS_VARLEN': lambda args: args['cu_seqlens'] is not None,
})
@triton.autotune(
    configs=[
        triton.Config({}, num_warps=num_warps, num_stages=num_stages)
        for num_warps in [2, 4]
        for num_stages in [2, 3, 4]
    ],
    key=['H', 'K', 'V', 'BT', 'BK', 'BV', 'USE_G'],
)
@triton.jit(do_not_specialize=['T'])
def chunk_gated_delta_rule_fwd_kernel_h(
    k,
    v,
    w,
    v_new,
    g,
    h,
    h0,
    ht,
    cu_seqlens,
    chunk_offsets,
    T,
    H: tl.constexpr,
    K: tl.constexpr,
    V: tl.constexpr,
    BT: tl.constexpr,
    BK: tl.constexpr,
    BV: tl.constexpr,
    USE_G: tl.constexpr,
    USE_INITIAL_STATE: tl.constexpr,
    STORE_FINAL_STATE: tl.constexpr,
    SAVE_NEW_VALUE: tl.constexpr,
    IS_VARLEN: tl.constexpr,
):
    i_v, i_nh = tl.program_id(0), tl.program_id(1)
    i_n, i_h = i_nh // H, i_nh % H
    if IS_VARLEN:
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
        T = eos - bos
        NT = tl.cdiv(T, BT)
        boh = tl.load(chunk_offsets + i_n).to(tl.int32)
    else:
        bos, eos = i_n * T, i_n * T + T
        NT = tl.cdiv(T, BT)
        boh = i_n * NT

    # [BK, BV]
    b_h = tl.zeros([BK, BV], dtype=tl.float32)

    # calculate offset
    h += ((boh * H + i_h) * K * V).to(tl.int64)
    v += ((bos * H + i_h) * V).to(tl.int64)
    k += ((bos * H + i_h) * K).to(tl.int64)
    w += ((bos * H + i_h) * K).to(tl.int64)
    if SAVE_NEW_VALUE:
        v_new += ((bos * H + i_h) * V).to(tl.int64)
    stride_v = H * V
    stride_h = H * K * V
    stride_k = H * K
    if USE_INITIAL_STATE:
        h0 = h0 + i_nh * K * V
    if STORE_FINAL_STATE:
        ht = ht + i_nh * K * V

    # load initial state
    if USE_INITIAL_STATE:
        p_h0 = tl.make_block_ptr(h0, (K, V), (V, 1), (0, i_v * BV), (BK, BV), (1, 0))
        b_h = tl.load(p_h0, boundary_check=(0, 1)).to(tl.float32)

    # main recurrence
    for i_t in range(NT):
        p_h = tl.make_block_ptr(h + i_t * stride_h, (K, V), (V, 1), (0, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_h, b_h.to(p_h.dtype.element_ty), boundary_check=(0, 1))

        p_v = tl.make_block_ptr(v, (T, V), (stride_v, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
        p_w = tl.make_block_ptr(w, (T, K), (stride_k, 1), (i_t * BT, 0), (BT, BK), (1, 0))
        b_w = tl.load(p_w, boundary_check=(0, 1))
        b_v_new = tl.zeros([BT, BV], dtype=tl.float32)
        b_v_new += tl.dot(b_w, b_h.to(b_w.dtype))
        b_v = tl.load(p_v, boundary_check=(0, 1))
        b_v_new = -b_v_new + b_v
        if SAVE_NEW_VALUE:
            p_v_new = tl.make_block_ptr(v_new, (T, V), (stride_v, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
            tl.store(p_v_new, b_v_new.to(p_v_new.dtype.element_ty), boundary_check=(0, 1))

        last_idx = min((i_t + 1) * BT, T) - 1
        if USE_G:
            b_g_last = tl.load(g + bos * H + last_idx * H + i_h)
            p_g = tl.make_block_ptr(g + bos * H + i_h, (T,), (H,), (i_t * BT,), (BT,), (0,))
            b_g = tl.load(p_g, boundary_check=(0,))
            b_v_new = b_v_new * safe_exp(b_g_last - b_g)[:, None]
            b_g_last = exp(b_g_last)
            b_h = b_h * b_g_last
        b_v_new = b_v_new.to(k.dtype.element_ty)
        p_k = tl.make_block_ptr(k, (K, T), (1, stride_k), (0, i_t * BT), (BK, BT), (0, 1))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_h += tl.dot(b_k, b_v_new)

    # epilogue
    if STORE_FINAL_STATE:
        p_ht = tl.make_block_ptr(ht, (K, V), (V, 1), (0, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_ht, b_h.to(p_ht.dtype.element_ty), boundary_check=(0, 1))


def make_inputs(B: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    H, K, V = 4, 128, 128
    gen = torch.Generator(device=device).manual_seed(seed)
    k = torch.nn.functional.normalize(torch.randn((B, T, H, K), device=device, generator=gen), dim=-1)
    beta = torch.rand((B, T, H, 1), device=device, generator=gen) * 0.2
    w = (k * beta).half()
    k = k.half()
    v = torch.randn((B, T, H, V), device=device, generator=gen).half()
    gl = torch.nn.functional.logsigmoid(torch.randn((B, T, H), device=device, generator=gen) + 3.0) / 4
    NT = triton.cdiv(T, BT)
    gp = torch.nn.functional.pad(gl, (0, 0, 0, NT * BT - T)).view(B, NT, BT, H).cumsum(2).view(B, NT * BT, H)
    g = gp[:, :T].contiguous().float()
    h0 = torch.randn((B, H, K, V), device=device, generator=gen) / 4
    return {"k": k, "w": w, "u": v, "g": g, "initial_state": h0}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """FLA's chunk_gated_delta_rule_fwd_h(k, w, u, g, initial_state, output_final_state=True):
    (h [B, NT, H, K, V] fp16, v_new [B, T, H, V] fp16, final_state [B, H, K, V] fp32). The autotuner picks
    num_warps / num_stages (FLA passes neither)."""
    import torch
    k, w, u, g, initial_state = inputs["k"], inputs["w"], inputs["u"], inputs["g"], inputs["initial_state"]
    cu_seqlens = None
    B, T, H, K, V = *k.shape, u.shape[-1]
    chunk_size = BT
    N, NT, chunk_offsets = B, triton.cdiv(T, chunk_size), None
    assert K <= 256, "current kernel does not support head dimension larger than 256."
    BK = triton.next_power_of_2(K)
    BV = 64
    h = k.new_empty(B, NT, H, K, V)
    final_state = k.new_empty(N, H, K, V, dtype=torch.float32)
    v_new = torch.empty_like(u)

    def grid(meta): return (triton.cdiv(V, meta['BV']), N * H)
    chunk_gated_delta_rule_fwd_kernel_h[grid](
        k=k, v=u, w=w, v_new=v_new, g=g, h=h, h0=initial_state, ht=final_state, cu_seqlens=cu_seqlens,
        chunk_offsets=chunk_offsets, T=T, H=H, K=K, V=V, BT=BT, BK=BK, BV=BV)
    return h, v_new, final_state


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    k, w, v, g, h0 = (inputs[n].double() for n in ("k", "w", "u", "g", "initial_state"))
    B, T, H, K = k.shape
    NT = triton.cdiv(T, BT)
    state = h0.clone()
    hs, vn = [], []
    for t in range(NT):
        s, e = t * BT, min((t + 1) * BT, T)
        hs.append(state.clone())
        vv = v[:, s:e] - torch.einsum("bthk,bhkv->bthv", w[:, s:e], state)
        vn.append(vv)
        gl = g[:, e - 1]                                            # B, H
        state = state * torch.exp(gl)[..., None, None]
        vv = vv * torch.exp(gl[:, None] - g[:, s:e])[..., None]
        state = state + torch.einsum("bthk,bthv->bhkv", k[:, s:e], vv)
    return torch.stack(hs, 1), torch.cat(vn, 1), state


def flops(B: int, T: int) -> float:
    return 4.0 * B * 4 * T * 128 * 128
