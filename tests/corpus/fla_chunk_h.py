"""flash-linear-attention ``chunk_fwd_kernel_h`` (fla/ops/common/chunk_h.py style): chunked state recurrence, block
pointers with boundary_check, USE_G scalar gate per (t, head), USE_INITIAL_STATE / STORE_FINAL_STATE / IS_VARLEN
constexpr flags, a helper ``exp``, [B, T, H, K] layout."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

BT = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_fwd_kernel_h",
    "signature": {"k": "*bf16", "v": "*bf16", "h": "*bf16", "g": "*fp32", "h0": "*fp32", "ht": "*fp32",
                  "cu_seqlens": "*i32", "chunk_offsets": "*i32", "T": "i32"},
    "constexprs": {"H": 4, "K": 128, "V": 128, "BT": BT, "BK": 64, "BV": 64, "USE_G": True,
                   "USE_INITIAL_STATE": True, "STORE_FINAL_STATE": True, "IS_VARLEN": False},
    "num_warps": 4, "num_stages": 2, "divisibility": []}
PROBLEM: dict[str, int] = {"B": 8, "H": 4, "T": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 4, "T": 200}     # H is a constexpr


@triton.jit
def exp(x):
    return tl.exp(x)


@triton.jit(do_not_specialize=['T'])
def chunk_fwd_kernel_h(k, v, h, g, h0, ht, cu_seqlens, chunk_offsets, T, H: tl.constexpr, K: tl.constexpr,
                       V: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, USE_G: tl.constexpr,
                       USE_INITIAL_STATE: tl.constexpr, STORE_FINAL_STATE: tl.constexpr, IS_VARLEN: tl.constexpr):
    i_k, i_v, i_nh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
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

    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    if USE_INITIAL_STATE:
        p_h0 = tl.make_block_ptr(h0 + i_nh * K * V, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        b_h = tl.load(p_h0, boundary_check=(0, 1)).to(tl.float32)

    for i_t in range(NT):
        p_k = tl.make_block_ptr(k + (bos * H + i_h) * K, (K, T), (1, H * K), (i_k * BK, i_t * BT), (BK, BT), (0, 1))
        p_v = tl.make_block_ptr(v + (bos * H + i_h) * V, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
        o_h = ((boh + i_t) * H + i_h).to(tl.int64) * K * V
        p_h = tl.make_block_ptr(h + o_h, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_h, b_h.to(p_h.dtype.element_ty), boundary_check=(0, 1))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        b_v = tl.load(p_v, boundary_check=(0, 1))
        last_idx = min((i_t + 1) * BT, T) - 1
        if USE_G:
            b_g_last = tl.load(g + bos * H + last_idx * H + i_h)
            p_g = g + bos * H + (i_t * BT + tl.arange(0, BT)) * H + i_h
            b_h *= exp(b_g_last)
            b_g = tl.load(p_g, mask=(i_t * BT + tl.arange(0, BT) < T), other=0.)
            b_v = (b_v * exp(b_g_last - b_g)[:, None]).to(b_v.dtype)
        b_h += tl.dot(b_k, b_v)

    if STORE_FINAL_STATE:
        p_ht = tl.make_block_ptr(ht + i_nh * K * V, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_ht, b_h.to(p_ht.dtype.element_ty), boundary_check=(0, 1))


def make_inputs(B: int, H: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    k = (torch.randn((B, T, H, 128), device=device, generator=gen) / 16).bfloat16()
    v = torch.randn((B, T, H, 128), device=device, generator=gen).bfloat16()
    gl = torch.nn.functional.logsigmoid(torch.randn((B, T, H), device=device, generator=gen) + 3.0) / 4
    NT = triton.cdiv(T, BT)
    gp = torch.nn.functional.pad(gl, (0, 0, 0, NT * BT - T)).view(B, NT, BT, H).cumsum(2).view(B, NT * BT, H)
    g = gp[:, :T].contiguous().float()
    h0 = torch.randn((B, H, 128, 128), device=device, generator=gen) / 4
    return {"k": k, "v": v, "g": g, "h0": h0}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[h (B, NT, H, K, V) flattened, ht (B, H, K, V) flattened] as fp32."""
    import torch
    k, v, g, h0 = inputs["k"], inputs["v"], inputs["g"], inputs["h0"]
    B, T, H, K = k.shape
    V = v.shape[-1]
    NT = triton.cdiv(T, BT)
    h = torch.empty((B, NT, H, K, V), device=k.device, dtype=k.dtype)
    ht = torch.empty((B, H, K, V), device=k.device, dtype=torch.float32)
    dummy = torch.zeros(2, device=k.device, dtype=torch.int32)
    chunk_fwd_kernel_h[(triton.cdiv(K, 64), triton.cdiv(V, 64), B * H)](
        k, v, h, g, h0, ht, dummy, dummy, T, H=H, K=K, V=V, BT=BT, BK=64, BV=64, USE_G=True,
        USE_INITIAL_STATE=True, STORE_FINAL_STATE=True, IS_VARLEN=False,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return torch.cat([h.float().flatten(), ht.flatten()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    k, v, g, h0 = (inputs[n].double() for n in ("k", "v", "g", "h0"))
    B, T, H, K = k.shape
    NT = triton.cdiv(T, BT)
    state = h0.clone()
    hs = []
    for t in range(NT):
        s, e = t * BT, min((t + 1) * BT, T)
        hs.append(state.clone())
        gl = g[:, e - 1]                                            # B, H
        state = state * torch.exp(gl)[..., None, None]
        vv = v[:, s:e] * torch.exp(gl[:, None] - g[:, s:e])[..., None]
        state = state + torch.einsum("bthk,bthv->bhkv", k[:, s:e], vv)
    return torch.cat([torch.stack(hs, 1).flatten(), state.flatten()])


def flops(B: int, H: int, T: int) -> float:
    return 2.0 * B * H * T * 128 * 128
