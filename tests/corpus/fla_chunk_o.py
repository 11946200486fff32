"""flash-linear-attention ``chunk_fwd_kernel_o`` (fla/ops/common/chunk_o.py, used by chunk_gated_delta_rule
forward): per (V block, chunk, batch-head) a loop over K blocks with two dots (q @ h and q @ k^T), then the
gate exp scaling, the causal tl.where mask within the chunk and a third dot (A @ v)."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

BT = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_fwd_kernel_o",
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "h": "*fp16", "g": "*fp32", "o": "*fp16",
                  "cu_seqlens": "*i32", "chunk_indices": "*i32", "scale": "fp32", "T": "i32"},
    "constexprs": {"H": 4, "K": 128, "V": 128, "BT": BT, "BK": 64, "BV": 64, "USE_G": True, "IS_VARLEN": False},
    "num_warps": 4, "num_stages": 2, "divisibility": []}
PROBLEM: dict[str, int] = {"B": 8, "H": 4, "T": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 4, "T": 150}     # H is a constexpr


@triton.jit
def exp(x):
    return tl.exp(x)


@triton.jit(do_not_specialize=['T'])
def chunk_fwd_kernel_o(q, k, v, h, g, o, cu_seqlens, chunk_indices, scale, T, H: tl.constexpr, K: tl.constexpr,
                       V: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, USE_G: tl.constexpr,
                       IS_VARLEN: tl.constexpr):
    i_v, i_t, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_b, i_h = i_bh // H, i_bh % H
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
        # [BT, BK]
        b_q = tl.load(p_q, boundary_check=(0, 1))
        # [BK, BT]
        b_k = tl.load(p_k, boundary_check=(0, 1))
        # [BK, BV]
        b_h = tl.load(p_h, boundary_check=(0, 1))
        # [BT, BK] @ [BK, BV] -> [BT, BV]
        b_o += tl.dot(b_q, b_h)
        # [BT, BK] @ [BK, BT] -> [BT, BT]
        b_A += tl.dot(b_q, b_k)

    if USE_G:
        g += bos * H + i_h
        p_g = tl.make_block_ptr(g, (T,), (H,), (i_t * BT,), (BT,), (0,))
        b_g = tl.load(p_g, boundary_check=(0,))
        b_o = b_o * exp(b_g)[:, None]
        b_A = b_A * exp(b_g[:, None] - b_g[None, :])

    o_t = i_t * BT + tl.arange(0, BT)
    m_t = o_t < T
    m_A = (o_t[:, None] >= o_t[None, :]) & (m_t[:, None] & m_t)
    b_A = tl.where(m_A, b_A, 0)

    p_v = tl.make_block_ptr(v, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    p_o = tl.make_block_ptr(o, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    b_v = tl.load(p_v, boundary_check=(0, 1))
    # to fix mma -> mma layout conversion
    # already solved by triton v3.2 or higher
    b_o = b_o * scale + tl.dot(b_A.to(b_v.dtype), b_v) * scale
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))


def make_inputs(B: int, H: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    NT = triton.cdiv(T, BT)
    q = (torch.randn((B, T, H, 128), device=device, generator=gen) / 8).half()
    k = (torch.randn((B, T, H, 128), device=device, generator=gen) / 8).half()
    v = torch.randn((B, T, H, 128), device=device, generator=gen).half()
    h = (torch.randn((B, NT, H, 128, 128), device=device, generator=gen) / 8).half()
    gl = torch.nn.functional.logsigmoid(torch.randn((B, T, H), device=device, generator=gen) + 3.0) / 4
    gp = torch.nn.functional.pad(gl, (0, 0, 0, NT * BT - T)).view(B, NT, BT, H).cumsum(2).view(B, NT * BT, H)
    return {"q": q, "k": k, "v": v, "h": h, "g": gp[:, :T].contiguous().float()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o, fp16 [B, T, H, V]."""
    import torch
    q, k, v, h, g = (inputs[n] for n in ("q", "k", "v", "h", "g"))
    B, T, H, K = q.shape
    V = v.shape[-1]
    NT = triton.cdiv(T, BT)
    o = torch.empty_like(v)
    dummy = torch.zeros(2, device=q.device, dtype=torch.int32)
    chunk_fwd_kernel_o[(triton.cdiv(V, 64), NT, B * H)](
        q, k, v, h, g, o, dummy, dummy, K ** -0.5, T, H=H, K=K, V=V, BT=BT, BK=64, BV=64, USE_G=True,
        IS_VARLEN=False, num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v, h, g = (inputs[n].double() for n in ("q", "k", "v", "h", "g"))
    B, T, H, K = q.shape
    NT = triton.cdiv(T, BT)
    o = torch.zeros_like(v)
    for t in range(NT):
        s, e = t * BT, min((t + 1) * BT, T)
        qc, kc, vc, gc = q[:, s:e], k[:, s:e], v[:, s:e], g[:, s:e]       # b t h d
        inter = torch.einsum("bthk,bhkv->bthv", qc * torch.exp(gc)[..., None], h[:, t])
        A = torch.einsum("bihk,bjhk->bhij", qc, kc) * torch.exp(gc.transpose(1, 2)[..., :, None] - gc.transpose(1, 2)[..., None, :])
        A = A * torch.tril(torch.ones(e - s, e - s, dtype=A.dtype, device=A.device))
        intra = torch.einsum("bhij,bjhv->bihv", A, vc)
        o[:, s:e] = (inter + intra) * K ** -0.5
    return o


def flops(B: int, H: int, T: int) -> float:
    return 2.0 * B * H * T * 128 * (128 + 64 + 64)
