"""flash-linear-attention ``chunk_gla_fwd_kernel_o`` (fla/ops/gla/chunk.py, the output stage of chunked Gated Linear
Attention, rewritten here): per (V block, chunk, batch-head) a loop over K blocks, ``for i_k in range(tl.cdiv(K,
BK))``, loading q, the chunk-local cumulative log gate g (fp32, per key channel) and the chunk's state h through block
pointers; q is scaled and rounded back to fp16 (``(b_q * scale).to(b_q.dtype)``), gated element-wise
(``(b_q * exp(b_g)).to(b_q.dtype)``: the dot's A operand computed in registers from two loads) and the dot sits under
FLA's ``if i_k >= 0:`` (always true; FLA keeps it to steer Triton's pipeliner), accumulating into a carried fp32
[BT, BV] tile. After the loop the intra-chunk attention A (fp32 [B, T, H, BT], as chunk_gla_fwd_intra_gk leaves
it) is masked causally with ``tl.where(m_s, b_A, 0.)``, cast to v's dtype and a second dot ``b_A @ b_v``
(``allow_tf32=False``) is added before the boundary-checked store. ``@triton.heuristics`` for IS_VARLEN (False:
cu_seqlens / chunk_indices None), ``@triton.jit(do_not_specialize=['T'])``; FLA autotunes BK in (32, 64) and BV in
(64, 128): here BK = 32 (four K blocks for K = 128), BV = 64, 4 warps, 2 stages. fp16 where FLA runs bf16 (the
interpreter mishandles bf16)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BT = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_gla_fwd_kernel_o",
    "signature": {"q": "*fp16", "v": "*fp16", "g": "*fp32", "h": "*fp16", "o": "*fp16", "A": "*fp32",
                  "cu_seqlens": "constexpr", "chunk_indices": "constexpr", "scale": "fp32", "T": "i32"},
    "constexprs": {"cu_seqlens": None, "chunk_indices": None, "H": 4, "K": 128, "V": 128, "BT": BT, "BK": 32,
                   "BV": 64, "IS_VARLEN": False},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["q", "v", "g", "h", "o", "A"]}
PROBLEM: dict[str, int] = {"B": 8, "H": 4, "T": 4096}
SMALL: dict[str, int] = {"B": 2, "H": 4, "T": 150}     # H is a constexpr; 150 = 2 * 64 + 22: a ragged last chunk


@triton.jit
def exp(x):
    return tl.exp(x)


@triton.heuristics({'IS_VARLEN': lambda args: args['cu_seqlens'] is not None})
@triton.jit(do_not_specialize=['T'])
def chunk_gla_fwd_kernel_o(q, v, g, h, o, A, cu_seqlens, chunk_indices, scale, T, H: tl.constexpr, K: tl.constexpr,
                           V: tl.constexpr, BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr,
                           IS_VARLEN: tl.constexpr):
    # twill corpus rendition: the inter-chunk part q*exp(g) @ h over K blocks, then the intra-chunk A @ v
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
    m_s = tl.arange(0, BT)[:, None] >= tl.arange(0, BT)[None, :]
    b_o = tl.zeros([BT, BV], dtype=tl.float32)
    for i_k in range(tl.cdiv(K, BK)):
        p_q = tl.make_block_ptr(q + (bos * H + i_h) * K, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        p_g = tl.make_block_ptr(g + (bos * H + i_h) * K, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        p_h = tl.make_block_ptr(h + (i_tg * H + i_h) * K * V, (K, V), (V, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        b_q = tl.load(p_q, boundary_check=(0, 1))
        b_q = (b_q * scale).to(b_q.dtype)
        b_g = tl.load(p_g, boundary_check=(0, 1))
        b_qg = (b_q * exp(b_g)).to(b_q.dtype)             # [BT, BK], gated in registers
        b_h = tl.load(p_h, boundary_check=(0, 1))
        if i_k >= 0:                                      # always true, as FLA writes it
            b_o += tl.dot(b_qg, b_h.to(b_qg.dtype))
    p_v = tl.make_block_ptr(v + (bos * H + i_h) * V, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    p_o = tl.make_block_ptr(o + (bos * H + i_h) * V, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
    p_A = tl.make_block_ptr(A + (bos * H + i_h) * BT, (T, BT), (H * BT, 1), (i_t * BT, 0), (BT, BT), (1, 0))
    b_v = tl.load(p_v, boundary_check=(0, 1))
    b_A = tl.load(p_A, boundary_check=(0, 1))
    b_A = tl.where(m_s, b_A, 0.).to(b_v.dtype)
    b_o += tl.dot(b_A, b_v, allow_tf32=False)
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))


def make_inputs(B: int, H: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, v [B, T, H, 128] fp16; g [B, T, H, 128] fp32 the within-chunk cumulative sum of log-sigmoid gates (as
    chunk_local_cumsum leaves it); h [B, NT, H, K, V] fp16 the chunk states; A [B, T, H, BT] fp32 the intra-chunk
    scores (row t's columns of its own chunk, zero past the sequence's end)."""
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    NT = triton.cdiv(T, BT)
    q = torch.randn((B, T, H, 128), device=device, generator=gen).half()
    v = torch.randn((B, T, H, 128), device=device, generator=gen).half()
    h = (torch.randn((B, NT, H, 128, 128), device=device, generator=gen) / 8).half()
    gl = torch.nn.functional.logsigmoid(torch.randn((B, T, H, 128), device=device, generator=gen) + 3.0) / 4
    gp = torch.nn.functional.pad(gl, (0, 0, 0, 0, 0, NT * BT - T)).view(B, NT, BT, H, 128).cumsum(2)
    a = torch.randn((B, T, H, BT), device=device, generator=gen) / 8
    col_pos = (torch.arange(T, device=device) // BT * BT)[:, None] + torch.arange(BT, device=device)[None, :]
    a = a * (col_pos < T)[None, :, None, :]
    return {"q": q, "v": v, "g": gp.view(B, NT * BT, H, 128)[:, :T].contiguous().float(), "h": h,
            "A": a.contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o, fp16 [B, T, H, V], as chunk_gla_fwd_o_gk launches it (scale K ** -0.5)."""
    import torch
    q, v, g, h, A = (inputs[n] for n in ("q", "v", "g", "h", "A"))
    B, T, H, K = q.shape
    V = v.shape[-1]
    BV = config.get("BV", 64)
    o = torch.empty_like(v)
    grid = (triton.cdiv(V, BV), triton.cdiv(T, BT), B * H)
    chunk_gla_fwd_kernel_o[grid](q, v, g, h, o, A, None, None, K ** -0.5, T, H=H, K=K, V=V, BT=BT,
                                 BK=config.get("BK", 32), BV=BV, num_warps=config.get("num_warps", 4),
                                 num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, v, g, h, A = (inputs[n].double() for n in ("q", "v", "g", "h", "A"))
    B, T, H, K = q.shape
    NT = triton.cdiv(T, BT)
    o = torch.empty_like(v)
    causal = torch.tril(torch.ones(BT, BT, dtype=torch.bool, device=q.device))
    for c in range(NT):
        s, e = c * BT, min(c * BT + BT, T)
        qg = q[:, s:e] * K ** -0.5 * torch.exp(g[:, s:e])                        # [B, n, H, K]
        inter = torch.einsum("bthk,bhkv->bthv", qg, h[:, c])
        a = torch.where(causal[: e - s, : e - s, None], A[:, s:e, :, : e - s].permute(0, 1, 3, 2), 0.0)
        o[:, s:e] = inter + torch.einsum("btsh,bshv->bthv", a, v[:, s:e])
    return o
