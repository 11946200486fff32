"""flash-linear-attention's ``fused_chunk_retention_fwd_kernel`` (fla/ops/retention/fused_chunk.py, the v0.1-era
kernel with B, H, T runtime arguments and DK/DV constexprs, as ``FusedChunkRetentionFunction.forward`` launches it):
one program per (V block, K block, batch*head), a loop over the sequence's chunks of BT that carries the state
``b_h`` [BK, BV] in fp32, per-head decay ``log2(1 - 2^(-5-h))`` computed from the program id (``tl.math.exp2`` /
``tl.math.log2``), block pointers made once with ``tl.make_block_ptr`` (a transposed K view, order (0, 1)) and
moved by ``tl.advance``, loads and stores with ``boundary_check``, four ``tl.dot`` per chunk (q k^T decayed by the
causal ``d_s``, s v, q h, k^T v into the state), the ``if CHECK and i == 0:`` branch FLA keeps (``CHECK = True``:
both branches hold the same dots), the ragged-last-chunk decay fix ``if i == NT - 1 and (T % BT) != 0``,
``USE_INITIAL_STATE`` (a state loaded before the loop) and ``STORE_FINAL_STATE`` (stored after it); the output
written per K block ``o[NK, B, H, T, V]`` and summed over NK by the host. fp16 (rather than FLA's usual bf16: the CPU
interpreter of Triton 3.6 computes bf16 tl.dot wrongly), num_warps 4, num_stages 1 as FLA launches it."""
from __future__ import annotations

from typing import Any

import torch
import triton
import triton.language as tl

DK = DV = 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "fused_chunk_retention_fwd_kernel",
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16",
                  "initial_state": "*fp32", "final_state": "*fp32",
                  "s_qk_h": "i32", "s_qk_t": "i32", "s_qk_d": "constexpr",
                  "s_vo_h": "i32", "s_vo_t": "i32", "s_vo_d": "constexpr",
                  "B": "i32", "H": "i32", "T": "i32", "scale": "fp32"},
    "constexprs": {"s_qk_d": 1, "s_vo_d": 1, "BT": 64, "BK": 64, "BV": 64, "DK": DK, "DV": DV,
                   "USE_INITIAL_STATE": True, "STORE_FINAL_STATE": True, "CHECK": True},
    "num_warps": 4, "num_stages": 1,
    "divisibility": ["s_qk_h", "s_qk_t", "s_vo_h", "s_vo_t"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 8, "T": 2048}
SMALL: dict[str, int] = {"B": 2, "H": 3, "T": 200}     # a ragged last chunk: boundary checks and the decay fix


@triton.jit
def fused_chunk_retention_fwd_kernel(
    # B: batch_size, H: n_heads, T: seq_len, D: d_head
    q,  # query [B, H, L, D_head_K]
    k,  # key [B, H, L, D_head_V]
    v,  # value [B, H, L, D_head_V]
    o,  # output [B, H, L, D_head_V]
    initial_state,  # initial state of the chunk [B, H, D_head_K, D_head_V]
    final_state,  # final state of the chunk [B, H, D_head_K, D_head_V]

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
    BT: tl.constexpr,  # BLOCK SIZE along the sequence dimension, a.k.a. chunk size
    BK: tl.constexpr,  # BLOCK SIZE along the K dimension
    BV: tl.constexpr,  # BLOCK SIZE along the V dimension
    DK: tl.constexpr,  # D_head_K
    DV: tl.constexpr,  # D_head_V
    USE_INITIAL_STATE: tl.constexpr,
    STORE_FINAL_STATE: tl.constexpr,
    CHECK: tl.constexpr
):
    # indices
    i_v, i_k, i_bh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_h = i_bh % H

    o_i = tl.arange(0, BT)
    # decay rate given the head index
    b_b = tl.math.log2(1 - tl.math.exp2(-5 - i_h * 1.0))

    # d_b: overall decay for the entire chunk
    # d_o: cumulative decay from the start of the chunk
    # d_h: cumulative decay from the end of the chunk
    d_b, d_o, d_h = tl.math.exp2(BT * b_b), tl.math.exp2((o_i + 1) * b_b), tl.math.exp2((BT - o_i - 1) * b_b)

    # [BT, BT]
    m_s = o_i[:, None] >= o_i[None, :]
    d_s = tl.where(m_s, tl.math.exp2((o_i[:, None] - o_i[None, :]) * b_b), 0)
    # [BK, BV]
    b_h = tl.zeros([BK, BV], dtype=tl.float32)

    # make block pointers
    p_q = tl.make_block_ptr(q + i_bh * s_qk_h, (T, DK), (s_qk_t, s_qk_d), (0, i_k * BK), (BT, BK), (1, 0))
    p_k = tl.make_block_ptr(k + i_bh * s_qk_h, (DK, T), (s_qk_d, s_qk_t), (i_k * BK, 0), (BK, BT), (0, 1))
    p_v = tl.make_block_ptr(v + i_bh * s_vo_h, (T, DV), (s_vo_t, s_vo_d), (0, i_v * BV), (BT, BV), (1, 0))
    p_o = tl.make_block_ptr(o + (i_bh + i_k * B * H) * s_vo_h, (T, DV), (s_vo_t, s_vo_d), (0, i_v * BV), (BT, BV), (1, 0))

    if USE_INITIAL_STATE:
        p_h = tl.make_block_ptr(initial_state + i_bh * DK * DV, (DK, DV), (DV, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        b_h = tl.load(p_h, boundary_check=(0, 1)).to(tl.float32)

    NT = tl.cdiv(T, BT)
    for i in range(0, NT):
        # [BK, BT]
        b_k = tl.load(p_k, boundary_check=(0, 1))
        # [BT, BV]
        b_v = tl.load(p_v, boundary_check=(0, 1))
        # [BT, BK]
        b_q = tl.load(p_q, boundary_check=(0, 1))
        b_q = (b_q * scale).to(b_k.dtype)

        # [BT, BT]
        b_s = tl.dot(b_q, b_k, allow_tf32=False) * d_s
        # [BT, BV]
        b_o = tl.dot(b_s.to(b_q.dtype), b_v, allow_tf32=False)
        if CHECK and i == 0:
            b_o += tl.dot(b_q, b_h.to(b_q.dtype), allow_tf32=False) * d_o[:, None]
            b_h = d_b * b_h + tl.dot(b_k, (b_v * d_h[:, None]).to(b_k.dtype), allow_tf32=False)
        else:
            b_o += tl.dot(b_q, b_h.to(b_q.dtype), allow_tf32=False) * d_o[:, None]
            if i == NT - 1 and (T % BT) != 0:
                d_b = tl.math.exp2((T % BT) * b_b)
                d_h = tl.math.exp2(((T % BT) - o_i - 1) * b_b)
            b_h = d_b * b_h + tl.dot(b_k, (b_v * d_h[:, None]).to(b_k.dtype), allow_tf32=False)

        tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0, 1))
        p_q = tl.advance(p_q, (BT, 0))
        p_k = tl.advance(p_k, (0, BT))
        p_v = tl.advance(p_v, (BT, 0))
        p_o = tl.advance(p_o, (BT, 0))

    if STORE_FINAL_STATE:
        p_final = tl.make_block_ptr(final_state + i_bh * DK * DV, (DK, DV), (DV, 1), (i_k * BK, i_v * BV), (BK, BV), (1, 0))
        tl.store(p_final, b_h.to(p_final.dtype.element_ty), boundary_check=(0, 1))


def make_inputs(B: int, H: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [B, H, T, D] fp16 (FLA's head-first layout), an fp32 initial state [B, H, DK, DV]."""
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, H, T, DK), device=device, generator=g).half()
    k = (torch.randn((B, H, T, DK), device=device, generator=g) / DK ** 0.5).half()
    v = torch.randn((B, H, T, DV), device=device, generator=g).half()
    h0 = torch.randn((B, H, DK, DV), device=device, generator=g) / 4
    return {"q": q, "k": k, "v": v, "initial_state": h0}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(o [B, H, T, DV] fp16, final_state [B, H, DK, DV] fp32), as FusedChunkRetentionFunction.forward."""
    q, k, v, initial_state = inputs["q"], inputs["k"], inputs["v"], inputs["initial_state"]
    output_final_state = True
    batch_size, n_heads, seq_len, d_head_qk = q.shape
    d_head_v = v.shape[-1]

    scale = d_head_qk ** -0.5
    BT = 64
    BK, BV = min(triton.next_power_of_2(d_head_qk), 64), min(triton.next_power_of_2(d_head_v), 64)
    NK, NV = triton.cdiv(d_head_qk, BK), triton.cdiv(d_head_v, BV)
    num_stages = 1
    num_warps = 4

    o = q.new_empty(NK, batch_size, n_heads, seq_len, d_head_v)

    if output_final_state:
        final_state = q.new_empty(batch_size, n_heads, d_head_qk, d_head_v, dtype=torch.float32, requires_grad=False)
    else:
        final_state = None
    # the bug still exists even for Triton 2.2 on H100 GPUs
    # so we always enable initial checks
    CHECK = True

    grid = (NV, NK, batch_size * n_heads)
    fused_chunk_retention_fwd_kernel[grid](
        q, k, v, o, initial_state, final_state,
        q.stride(1), q.stride(2), q.stride(3),
        v.stride(1), v.stride(2), v.stride(3),
        batch_size, n_heads, seq_len, scale,
        BT=BT, DK=d_head_qk, DV=d_head_v, BK=BK, BV=BV,
        USE_INITIAL_STATE=initial_state is not None,
        STORE_FINAL_STATE=output_final_state,
        CHECK=CHECK,
        num_warps=config.get("num_warps", num_warps),
        num_stages=config.get("num_stages", num_stages)
    )

    o = o.sum(0)
    return o.to(q.dtype), final_state


def reference(inputs: dict[str, Any]) -> Any:
    """The recurrence S_t = gamma_h S_{t-1} + k_t v_t^T (S_{-1} = h0), o_t = scale * q_t S_t, gamma_h = 1 - 2^(-5-h)."""
    q, k, v, S = (inputs[n].double() for n in ("q", "k", "v", "initial_state"))
    B, H, T, D = q.shape
    gamma = 1 - 2.0 ** (-5 - torch.arange(H, device=q.device, dtype=torch.float64))
    o = torch.empty((B, H, T, v.shape[-1]), dtype=torch.float64, device=q.device)
    for t in range(T):
        S = gamma[None, :, None, None] * S + k[:, :, t, :, None] * v[:, :, t, None, :]
        o[:, :, t] = torch.einsum("bhk,bhkv->bhv", q[:, :, t], S) * D ** -0.5
    return o, S
