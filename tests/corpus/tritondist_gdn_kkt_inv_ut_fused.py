"""Triton-distributed's fused gated-delta-net chunk preparation, ``chunk_kkt_inv_ut_fused_kernel``
(ByteDance-Seed/Triton-distributed python/triton_dist/kernels/nvidia/gdn.py, launched by
``chunk_kkt_inv_ut_fused_triton`` from ``chunk_gated_delta_rule_fwd``; adapted there from fla): FLA's four kernels
(chunk-local cumsum of g, beta * K K^T * exp(g_i - g_j), the 64 x 64 unit-lower-triangular inverse, recompute w/u)
fused in one program per (chunk, head), varlen through ``chunk_indices`` / ``cu_seqlens`` (``T`` reassigned to the
sequence length in the kernel; ``do_not_specialize=["T"]``; ``@triton.autotune`` with one config and ``key=[]``).
Constructs: **seven loops in one kernel**: a K loop of ``tl.dot(b_k, tl.trans(b_k))`` over block pointers; **four
forward-substitution loops with runtime bounds** ``for i in range(2, min(16, T - i_t * BT))`` (and 16 + 2 .. 32,
32 + 2 .. 48, 48 + 2 .. 64), each iteration a **scalar-indexed row load** ``tl.load(cur_A + (i_t * BT + i) * H * BT +
o_i)`` of the A tile **the same program stored to global memory just before** (a store -> load dependence through
memory, no barrier), a broadcast multiply and ``tl.sum(..., 0)`` reduction, and ``tl.where((o_i == i)[:, None], ...)``
row insertion into a loop-carried [16, 16] tile; ten ``tl.dot(..., input_precision="ieee")`` (fp32, nested dots) for
the off-diagonal blocks; ten block-pointer stores ``.to(..., fp_downcast_rounding="rtne")`` into Ai, **Ai re-read**
through another block pointer; then a V loop and a K loop of ``tl.dot(b_A, ...)`` (``allow_tf32=False`` on one)
storing u and w, ``if USE_G`` constexpr inside the last loop; 1-D block pointers for g / beta (``(T,), (H,)``),
``tl.cumsum``, ``tl.static_assert(BT == 64)``. Port notes: K = V = 128 (BK = BV = 128, so the K / V loops run once
each), 16 heads, bf16 k / v / beta, fp32 g; keys L2-normalised and g = logsigmoid as GDN feeds them; tmp_A and the
outputs allocated as the launcher does (Ai zero-filled: the kernel writes its ten lower blocks only), but tmp_A
zero-filled (the launcher's torch.empty: the kernel reads rows of it past a partial chunk's end that it never wrote,
times zero: NaN where the memory held one, as the harness's poisoned buffers do, run 224, Triton's kernel too)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

H_, K_, V_ = 16, 128, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_kkt_inv_ut_fused_kernel",
    "signature": {"k": "*bf16", "v": "*bf16", "beta": "*bf16", "g": "*fp32", "cu_seqlens": "*i32",
                  "chunk_indices": "*i32", "A": "*fp32", "g_cumsum": "*fp32", "Ai": "*bf16", "w": "*bf16",
                  "u": "*bf16", "T": "i32", "NT": "i32"},
    "constexprs": {"H": H_, "K": K_, "V": V_, "BT": 64, "BK": 128, "BV": 128, "USE_G": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["NT"]}
PROBLEM: dict[str, Any] = {"seqlens": (2048, 1500, 3000, 1644), "H": H_, "K": K_, "V": V_}
SMALL: dict[str, Any] = {"seqlens": (100, 64, 70), "H": H_, "K": K_, "V": V_}   # H a constexpr


@triton.autotune(
    configs=[triton.Config({}, num_warps=num_warps, num_stages=num_stages) for num_warps in [4] for num_stages in [3]],
    key=[],
)
@triton.jit(do_not_specialize=["T"])
def chunk_kkt_inv_ut_fused_kernel(
    k,
    v,
    beta,
    g,
    cu_seqlens,
    chunk_indices,
    A,  # tmp buffer [B, T, H, BT]
    g_cumsum,  # output buffer1 [B, T, H, BT]
    Ai,  # output buffer2 [B, T, H, BT]
    w,  # output buffer3 [B, T, H, K]
    u,  # output buffer4 [B, T, H, V]
    T,
    NT,
    H: tl.constexpr,
    K: tl.constexpr,
    V: tl.constexpr,
    BT: tl.constexpr,  # chunk size
    BK: tl.constexpr,
    BV: tl.constexpr,
    USE_G: tl.constexpr = True,
):
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    i_h = i_bh % H

    i_n, i_t = tl.load(chunk_indices + i_t * 2).to(tl.int32), tl.load(chunk_indices + i_t * 2 + 1).to(tl.int32)
    bos, eos = tl.load(cu_seqlens + i_n).to(tl.int32), tl.load(cu_seqlens + i_n + 1).to(tl.int32)
    T = eos - bos

    # >>> g cumsum ###############################
    p_ginp = tl.make_block_ptr(g + bos * H + i_h, (T, ), (H, ), (i_t * BT, ), (BT, ), (0, ))
    p_gout = tl.make_block_ptr(g_cumsum + bos * H + i_h, (T, ), (H, ), (i_t * BT, ), (BT, ), (0, ))
    b_s = tl.load(p_ginp, boundary_check=(0, )).to(tl.float32)
    b_g = tl.cumsum(b_s, axis=0)
    tl.store(p_gout, b_g.to(p_gout.dtype.element_ty), boundary_check=(0, ))

    # >>> chunk beta g kk^t ###############################
    o_t = i_t * BT + tl.arange(0, BT)
    m_t = o_t < T

    p_beta = tl.make_block_ptr(beta + bos * H + i_h, (T, ), (H, ), (i_t * BT, ), (BT, ), (0, ))
    b_beta = tl.load(p_beta, boundary_check=(0, ))

    b_A = tl.zeros([BT, BT], dtype=tl.float32)
    for i_k in range(tl.cdiv(K, BK)):
        p_k = tl.make_block_ptr(k + (bos * H + i_h) * K, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        # b_kb = b_k * b_beta[:, None]
        b_kb = b_k
        b_A += tl.dot(b_kb.to(b_k.dtype), tl.trans(b_k))
    b_A *= b_beta[:, None]

    if USE_G:
        b_g_diff = b_g[:, None] - b_g[None, :]
        b_A = b_A * tl.exp(b_g_diff)

    m_A = (o_t[:, None] > o_t[None, :]) & (m_t[:, None] & m_t)
    b_A = tl.where(m_A, b_A, 0)
    p_A = tl.make_block_ptr(A + (bos * H + i_h) * BT, (T, BT), (BT * H, 1), (i_t * BT, 0), (BT, BT), (1, 0))
    tl.store(p_A, b_A.to(p_A.dtype.element_ty), boundary_check=(0, 1))

    # >>> solve tril ###############################
    tl.static_assert(BT == 64, "assume BT == 64 for now")
    # >>> solve tril 1. diag inv ###############################
    o_i = tl.arange(0, 16)
    m_A = o_i[:, None] > o_i[None, :]
    m_I = o_i[:, None] == o_i[None, :]
    cur_A = A + (bos * H + i_h) * BT
    cur_Ai = Ai + (bos * H + i_h) * BT

    p_A_11 = tl.make_block_ptr(cur_A, (T, BT), (H * BT, 1), (i_t * BT, 0), (16, 16), (1, 0))
    p_A_22 = tl.make_block_ptr(cur_A, (T, BT), (H * BT, 1), (i_t * BT + 16, 16), (16, 16), (1, 0))
    p_A_33 = tl.make_block_ptr(cur_A, (T, BT), (H * BT, 1), (i_t * BT + 32, 32), (16, 16), (1, 0))
    p_A_44 = tl.make_block_ptr(cur_A, (T, BT), (H * BT, 1), (i_t * BT + 48, 48), (16, 16), (1, 0))

    # [16, 16]
    b_Ai_11 = -tl.where(m_A, tl.load(p_A_11, boundary_check=(0, 1)).to(tl.float32), 0)
    b_Ai_22 = -tl.where(m_A, tl.load(p_A_22, boundary_check=(0, 1)).to(tl.float32), 0)
    b_Ai_33 = -tl.where(m_A, tl.load(p_A_33, boundary_check=(0, 1)).to(tl.float32), 0)
    b_Ai_44 = -tl.where(m_A, tl.load(p_A_44, boundary_check=(0, 1)).to(tl.float32), 0)

    for i in range(2, min(16, T - i_t * BT)):
        b_a_11 = -tl.load(cur_A + (i_t * BT + i) * H * BT + o_i)
        b_a_11 += tl.sum(b_a_11[:, None] * b_Ai_11, 0)
        b_Ai_11 = tl.where((o_i == i)[:, None], b_a_11, b_Ai_11)
    for i in range(16 + 2, min(32, T - i_t * BT)):
        b_a_22 = -tl.load(cur_A + (i_t * BT + i) * H * BT + o_i + 16)
        b_a_22 += tl.sum(b_a_22[:, None] * b_Ai_22, 0)
        b_Ai_22 = tl.where((o_i == i - 16)[:, None], b_a_22, b_Ai_22)
    for i in range(32 + 2, min(48, T - i_t * BT)):
        b_a_33 = -tl.load(cur_A + (i_t * BT + i) * H * BT + o_i + 32)
        b_a_33 += tl.sum(b_a_33[:, None] * b_Ai_33, 0)
        b_Ai_33 = tl.where((o_i == i - 32)[:, None], b_a_33, b_Ai_33)
    for i in range(48 + 2, min(64, T - i_t * BT)):
        b_a_44 = -tl.load(cur_A + (i_t * BT + i) * H * BT + o_i + 48)
        b_a_44 += tl.sum(b_a_44[:, None] * b_Ai_44, 0)
        b_Ai_44 = tl.where((o_i == i - 48)[:, None], b_a_44, b_Ai_44)
    b_Ai_11 += m_I
    b_Ai_22 += m_I
    b_Ai_33 += m_I
    b_Ai_44 += m_I

    p_A_21 = tl.make_block_ptr(cur_A, (T, BT), (H * BT, 1), (i_t * BT + 16, 0), (16, 16), (1, 0))
    p_A_31 = tl.make_block_ptr(cur_A, (T, BT), (H * BT, 1), (i_t * BT + 32, 0), (16, 16), (1, 0))
    p_A_32 = tl.make_block_ptr(cur_A, (T, BT), (H * BT, 1), (i_t * BT + 32, 16), (16, 16), (1, 0))
    p_A_41 = tl.make_block_ptr(cur_A, (T, BT), (H * BT, 1), (i_t * BT + 48, 0), (16, 16), (1, 0))
    p_A_42 = tl.make_block_ptr(cur_A, (T, BT), (H * BT, 1), (i_t * BT + 48, 16), (16, 16), (1, 0))
    p_A_43 = tl.make_block_ptr(cur_A, (T, BT), (H * BT, 1), (i_t * BT + 48, 32), (16, 16), (1, 0))
    b_A_21 = tl.load(p_A_21, boundary_check=(0, 1)).to(tl.float32)
    b_A_31 = tl.load(p_A_31, boundary_check=(0, 1)).to(tl.float32)
    b_A_32 = tl.load(p_A_32, boundary_check=(0, 1)).to(tl.float32)
    b_A_41 = tl.load(p_A_41, boundary_check=(0, 1)).to(tl.float32)
    b_A_42 = tl.load(p_A_42, boundary_check=(0, 1)).to(tl.float32)
    b_A_43 = tl.load(p_A_43, boundary_check=(0, 1)).to(tl.float32)

    b_Ai_21 = -tl.dot(tl.dot(b_Ai_22, b_A_21, input_precision="ieee"), b_Ai_11, input_precision="ieee")
    b_Ai_32 = -tl.dot(tl.dot(b_Ai_33, b_A_32, input_precision="ieee"), b_Ai_22, input_precision="ieee")
    b_Ai_43 = -tl.dot(tl.dot(b_Ai_44, b_A_43, input_precision="ieee"), b_Ai_33, input_precision="ieee")

    b_Ai_31 = -tl.dot(
        b_Ai_33,
        tl.dot(b_A_31, b_Ai_11, input_precision="ieee") + tl.dot(b_A_32, b_Ai_21, input_precision="ieee"),
        input_precision="ieee",
    )
    b_Ai_42 = -tl.dot(
        b_Ai_44,
        tl.dot(b_A_42, b_Ai_22, input_precision="ieee") + tl.dot(b_A_43, b_Ai_32, input_precision="ieee"),
        input_precision="ieee",
    )
    b_Ai_41 = -tl.dot(
        b_Ai_44,
        tl.dot(b_A_41, b_Ai_11, input_precision="ieee") + tl.dot(b_A_42, b_Ai_21, input_precision="ieee") +
        tl.dot(b_A_43, b_Ai_31, input_precision="ieee"),
        input_precision="ieee",
    )

    p_Ai_11 = tl.make_block_ptr(cur_Ai, (T, BT), (H * BT, 1), (i_t * BT, 0), (16, 16), (1, 0))
    p_Ai_22 = tl.make_block_ptr(cur_Ai, (T, BT), (H * BT, 1), (i_t * BT + 16, 16), (16, 16), (1, 0))
    p_Ai_33 = tl.make_block_ptr(cur_Ai, (T, BT), (H * BT, 1), (i_t * BT + 32, 32), (16, 16), (1, 0))
    p_Ai_44 = tl.make_block_ptr(cur_Ai, (T, BT), (H * BT, 1), (i_t * BT + 48, 48), (16, 16), (1, 0))
    p_Ai_21 = tl.make_block_ptr(cur_Ai, (T, BT), (H * BT, 1), (i_t * BT + 16, 0), (16, 16), (1, 0))
    p_Ai_31 = tl.make_block_ptr(cur_Ai, (T, BT), (H * BT, 1), (i_t * BT + 32, 0), (16, 16), (1, 0))
    p_Ai_32 = tl.make_block_ptr(cur_Ai, (T, BT), (H * BT, 1), (i_t * BT + 32, 16), (16, 16), (1, 0))
    p_Ai_41 = tl.make_block_ptr(cur_Ai, (T, BT), (H * BT, 1), (i_t * BT + 48, 0), (16, 16), (1, 0))
    p_Ai_42 = tl.make_block_ptr(cur_Ai, (T, BT), (H * BT, 1), (i_t * BT + 48, 16), (16, 16), (1, 0))
    p_Ai_43 = tl.make_block_ptr(cur_Ai, (T, BT), (H * BT, 1), (i_t * BT + 48, 32), (16, 16), (1, 0))
    tl.store(p_Ai_11, b_Ai_11.to(p_Ai_11.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))
    tl.store(p_Ai_22, b_Ai_22.to(p_Ai_22.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))
    tl.store(p_Ai_33, b_Ai_33.to(p_Ai_33.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))
    tl.store(p_Ai_44, b_Ai_44.to(p_Ai_44.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))
    tl.store(p_Ai_21, b_Ai_21.to(p_Ai_21.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))
    tl.store(p_Ai_31, b_Ai_31.to(p_Ai_31.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))
    tl.store(p_Ai_32, b_Ai_32.to(p_Ai_32.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))
    tl.store(p_Ai_41, b_Ai_41.to(p_Ai_41.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))
    tl.store(p_Ai_42, b_Ai_42.to(p_Ai_42.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))
    tl.store(p_Ai_43, b_Ai_43.to(p_Ai_43.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))

    # recompute wu ###############################
    p_A = tl.make_block_ptr(Ai + (bos * H + i_h) * BT, (T, BT), (H * BT, 1), (i_t * BT, 0), (BT, BT), (1, 0))
    b_A = tl.load(p_A, boundary_check=(0, 1))
    b_g_exp = tl.exp(b_g)

    for i_v in range(tl.cdiv(V, BV)):
        p_v = tl.make_block_ptr(v + (bos * H + i_h) * V, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
        p_u = tl.make_block_ptr(u + (bos * H + i_h) * V, (T, V), (H * V, 1), (i_t * BT, i_v * BV), (BT, BV), (1, 0))
        b_v = tl.load(p_v, boundary_check=(0, 1))
        # b_vb = b_v
        b_vb = (b_v * b_beta[:, None]).to(b_v.dtype)
        b_u = tl.dot(b_A, b_vb, allow_tf32=False)
        tl.store(p_u, b_u.to(p_u.dtype.element_ty), boundary_check=(0, 1))

    for i_k in range(tl.cdiv(K, BK)):
        p_k = tl.make_block_ptr(k + (bos * H + i_h) * K, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        p_w = tl.make_block_ptr(w + (bos * H + i_h) * K, (T, K), (H * K, 1), (i_t * BT, i_k * BK), (BT, BK), (1, 0))
        b_k = tl.load(p_k, boundary_check=(0, 1))
        # b_kb = b_k
        b_kb = b_k * b_beta[:, None]
        if USE_G:
            b_kb = b_kb * b_g_exp[:, None]
        b_kb = b_kb.to(b_k.dtype)
        # b_kb = (b_k * b_beta[:, None]).to(b_k.dtype)
        b_w = tl.dot(b_A, b_kb)
        tl.store(p_w, b_w.to(p_w.dtype.element_ty), boundary_check=(0, 1))


def _chunk_indices(seqlens: list[int]) -> list[list[int]]:
    """``prepare_chunk_indices(cu_seqlens, 64)``: (sequence, chunk within it) per chunk."""
    return [[n, c] for n, s in enumerate(seqlens) for c in range(triton.cdiv(s, 64))]


def make_inputs(seqlens: tuple[int, ...], H: int, K: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Packed varlen [1, T, H, *] k (L2-normalised), v, beta = sigmoid(.), g = logsigmoid(.) (fp32), cu_seqlens and
    chunk_indices int32."""
    import torch
    gen = torch.Generator().manual_seed(seed)
    T = sum(seqlens)
    k = torch.nn.functional.normalize(torch.randn((1, T, H, K), generator=gen), dim=-1)
    v = torch.randn((1, T, H, V), generator=gen)
    beta = torch.sigmoid(torch.randn((1, T, H), generator=gen))
    g = torch.nn.functional.logsigmoid(torch.randn((1, T, H), generator=gen) + 3.0)
    cu = torch.tensor([0] + list(torch.tensor(seqlens).cumsum(0).tolist()), dtype=torch.int32)
    ci = torch.tensor(_chunk_indices(list(seqlens)), dtype=torch.int32)
    return {"k": k.to(device=device, dtype=torch.bfloat16), "v": v.to(device=device, dtype=torch.bfloat16),
            "beta": beta.to(device=device, dtype=torch.bfloat16), "g": g.to(device=device, dtype=torch.float32),
            "cu_seqlens": cu.to(device), "chunk_indices": ci.to(device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``chunk_kkt_inv_ut_fused_triton(k, v, beta, g, cu_seqlens, chunk_indices)`` (its non-AOT path):
    returns (g_cumsum, Ai, w, u)."""
    import torch
    k, v, beta, g = inputs["k"], inputs["v"], inputs["beta"], inputs["g"]
    cu_seqlens, chunk_indices = inputs["cu_seqlens"], inputs["chunk_indices"]
    B, T, H, K, V = *k.shape, v.shape[-1]
    BT = 64
    BK = 128 if K == 96 else K
    BV = 128 if V == 96 else V
    USE_G = g is not None
    assert all(x in [64, 96, 128, 256] for x in [K, V]), f"got K={K}, V={V}"
    dtype = k.dtype
    device = k.device
    g_cumsum = torch.empty([1, T, H], dtype=torch.float32, device=k.device)
    Ai = torch.zeros([1, T, H, BT], dtype=dtype, device=device)
    w = torch.empty([1, T, H, K], dtype=dtype, device=device)
    u = torch.empty([1, T, H, V], dtype=dtype, device=device)
    tmp_A = torch.zeros([1, T, H, BT], dtype=torch.float32, device=device)   # read back past a partial chunk
    NT = len(chunk_indices)
    grid = (NT, B * H)
    chunk_kkt_inv_ut_fused_kernel[grid](
        k=k, v=v, beta=beta, g=g, cu_seqlens=cu_seqlens, chunk_indices=chunk_indices, A=tmp_A, g_cumsum=g_cumsum,
        Ai=Ai, w=w, u=u, T=T, NT=NT, H=H, K=K, V=V, BT=BT, BK=BK, BV=BV, USE_G=USE_G)
    return g_cumsum, Ai, w, u


def reference(inputs: dict[str, Any]) -> Any:
    """Per sequence and 64-row chunk, fp64: gc = cumsum(g) within the chunk; A = strictly-lower(beta_i k_i . k_j
    exp(gc_i - gc_j)); Ai = (I + A)^-1 (its rows and columns of the chunk; zero elsewhere);
    u = Ai (beta v); w = Ai (beta exp(gc) k)."""
    import torch
    k, v = inputs["k"].double()[0], inputs["v"].double()[0]
    beta, g = inputs["beta"].double()[0], inputs["g"].double()[0]
    cu = inputs["cu_seqlens"].tolist()
    T, H, K = k.shape
    gc = torch.zeros((T, H), dtype=torch.float64)
    Ai = torch.zeros((T, H, 64), dtype=torch.float64)
    w = torch.zeros((T, H, K), dtype=torch.float64)
    u = torch.zeros((T, H, v.shape[-1]), dtype=torch.float64)
    for bos, eos in zip(cu[:-1], cu[1:]):
        for s in range(bos, eos, 64):
            e = min(s + 64, eos)
            n = e - s
            for h in range(H):
                gg = torch.cumsum(g[s:e, h], 0)
                gc[s:e, h] = gg
                kk = k[s:e, h]
                a = (kk @ kk.T) * beta[s:e, h][:, None] * torch.exp(gg[:, None] - gg[None, :])
                a = torch.tril(a, -1)
                inv = torch.linalg.inv(torch.eye(n, dtype=torch.float64, device=a.device) + a)
                Ai[s:e, h, :n] = inv
                u[s:e, h] = inv @ (v[s:e, h] * beta[s:e, h][:, None])
                w[s:e, h] = inv @ (kk * (beta[s:e, h] * torch.exp(gg))[:, None])
    dev = inputs["k"].device
    return gc[None].to(dev), Ai[None].to(dev), w[None].to(dev), u[None].to(dev)


def flops(seqlens: tuple[int, ...], H: int, K: int, V: int) -> float:
    T = sum(seqlens)
    return 2.0 * T * H * 64 * (2 * K + V) + 2.0 * T * H * 64 * 64
