"""flash-linear-attention ``prepare_wy_repr_bwd_kernel`` (fla/ops/gated_delta_rule/wy_fast.py, the current form with
grouped value heads HV and pointer arithmetic): the backward of the WY representation of the gated delta rule,
w = A (k * beta * exp2(g)), u = A (v * beta), A = (I + tril(beta_i exp2(g_i - g_j) k_i . k_j, -1))^-1, for one chunk of
BT = 64 tokens and one value head per program.

The constructs: **varlen** (``IS_VARLEN`` from ``cu_seqlens``): the chunk's sequence and index loaded from
``chunk_indices`` and the sequence's bounds from ``cu_seqlens`` (int64 loads, ``T = eos - bos`` a loaded length), the
program ids widened with ``.to(tl.int64)``; grouped value heads (``i_h // (HV // H)`` picks k's head: Qwen3-Next's 16
key heads, 32 value heads); A loaded **transposed** by pointers (``o_A[:, None] + o_t[None, :] * (HV*BT)``) with a
row mask ``m_t < T``; ``exp2`` as a ``@triton.jit`` helper (FLA's fla.ops.utils.op); ``USE_G`` constexpr branches
declaring ``b_g_exp`` / ``b_dg`` before the loops; **three loops in sequence**: over K blocks (two dots, a store of dk,
rank-1 ``tl.sum`` accumulations carried into ``b_db`` / ``b_dg``), over V blocks (two dots, a store of dv), then --
after two dots on the [BT, BT] ``b_dA`` between the loops, ``exp2(b_g[:, None] - b_g[None, :])`` and a causal
``tl.where`` -- a ``tl.debug_barrier()`` and a third loop over K blocks that reads back the dk the first loop stored
(**a load-modify-store of the same addresses**: ``b_dk += tl.load(p_dk)`` then ``tl.store(p_dk)``), three dots, one
of them ``tl.trans(tl.dot(tl.trans(b_kb), b_dA))``, and ``b_A += tl.dot(b_k, tl.trans(b_k))`` carried out of the
loop for dg; after it two row/column ``tl.sum`` reductions of the [BT, BT] tile. Decorators as the library stacks
them: ``@triton.heuristics`` (USE_G, IS_VARLEN from ``is not None``) over ``@triton.autotune`` (num_warps 2 / 4 x
num_stages 2 / 3 / 4, FLA's Hopper lists) over ``@triton.jit(do_not_specialize=['T'])``; the host as FLA's
``prepare_wy_repr_bwd`` (BK = BV = 64, dk summed over the value heads of a key head). fp16 where FLA runs bf16 (the
interpreter mishandles bf16). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BT = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "prepare_wy_repr_bwd_kernel",
    "signature": {"k": "*fp16", "v": "*fp16", "beta": "*fp16", "g": "*fp32", "A": "*fp16", "dw": "*fp16",
                  "du": "*fp16", "dk": "*fp16", "dv": "*fp16", "db": "*fp16", "dg": "*fp32",
                  "cu_seqlens": "*i64", "chunk_indices": "*i64", "T": "i32"},
    "constexprs": {"H": 16, "HV": 32, "K": 128, "V": 128, "BT": BT, "BK": 64, "BV": 64, "USE_G": True,
                   "IS_VARLEN": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["k", "v", "beta", "g", "A", "dw", "du", "dk", "dv", "db", "dg", "cu_seqlens", "chunk_indices"]}
# Qwen3-Next's gated delta rule: 16 key heads, 32 value heads of 128; 16 sequences packed into 32k tokens
PROBLEM: dict[str, int] = {"N": 16, "T": 32768}
# three sequences of 100 + 64 + 37 tokens: ragged chunks in two of them; the head counts are constexprs
SMALL: dict[str, int] = {"N": 3, "T": 201}


@triton.jit
def exp2(x):
    return tl.math.exp2(x)


@triton.heuristics({
    'USE_G': lambda args: args['g'] is not None,
    'IS_VARLEN': lambda args: args['cu_seqlens'] is not None,
})
@triton.autotune(
    configs=[
        triton.Config({}, num_warps=num_warps, num_stages=num_stages)
        for num_warps in [2, 4]
        for num_stages in [2, 3, 4]
    ],
    key=['H', 'HV', 'K', 'V', 'BT', 'BK', 'BV', 'IS_VARLEN'],
)
@triton.jit(do_not_specialize=['T'])
def prepare_wy_repr_bwd_kernel(
    k,
    v,
    beta,
    g,
    A,
    dw,
    du,
    dk,
    dv,
    db,
    dg,
    cu_seqlens,
    chunk_indices,
    T,
    H: tl.constexpr,
    HV: tl.constexpr,
    K: tl.constexpr,
    V: tl.constexpr,
    BT: tl.constexpr,
    BK: tl.constexpr,
    BV: tl.constexpr,
    USE_G: tl.constexpr,
    IS_VARLEN: tl.constexpr,
):
    i_t, i_bh = tl.program_id(0).to(tl.int64), tl.program_id(1).to(tl.int64)
    i_b, i_h = i_bh // HV, i_bh % HV
    if IS_VARLEN:
        i_n, i_t = tl.load(chunk_indices + i_t * 2).to(tl.int32), tl.load(chunk_indices + i_t * 2 + 1).to(tl.int64)
        bos, eos = tl.load(cu_seqlens + i_n).to(tl.int64), tl.load(cu_seqlens + i_n + 1).to(tl.int64)
        T = eos - bos
    else:
        bos, eos = i_b * T, i_b * T + T

    o_t = i_t * BT + tl.arange(0, BT)
    o_A = tl.arange(0, BT)
    m_t = o_t < T
    m_AT = (o_A[:, None] < BT) & m_t[None, :]
    p_b = beta + (bos*HV + i_h) + o_t * HV
    p_db = db + (bos*HV + i_h) + o_t * HV
    p_A = A + (bos*HV + i_h) * BT + o_A[:, None] + o_t[None, :] * (HV*BT)

    b_b = tl.load(p_b, mask=m_t, other=0.0)
    b_db = tl.zeros([BT], dtype=tl.float32)
    b_A = tl.load(p_A, mask=m_AT, other=0.0)
    b_dA = tl.zeros([BT, BT], dtype=tl.float32)

    if USE_G:
        p_g = g + (bos*HV + i_h) + o_t * HV
        b_g = tl.load(p_g, mask=m_t, other=0.0)
        b_g_exp = exp2(b_g)
        b_dg = tl.zeros([BT], dtype=tl.float32)

    for i_k in range(tl.cdiv(K, BK)):
        o_k = i_k * BK + tl.arange(0, BK)
        m_k = m_t[:, None] & (o_k[None, :] < K)
        p_k = k + (bos*H + i_h // (HV // H)) * K + o_t[:, None] * (H*K) + o_k[None, :]
        p_dk = dk + (bos*HV + i_h) * K + o_t[:, None] * (HV*K) + o_k[None, :]
        p_dw = dw + (bos*HV + i_h) * K + o_t[:, None] * (HV*K) + o_k[None, :]
        # [BT, BK]
        b_k = tl.load(p_k, mask=m_k, other=0.0)
        if USE_G:
            b_kbg = b_k * (b_b * b_g_exp)[:, None]
        else:
            b_kbg = b_k * b_b[:, None]
        b_dw = tl.load(p_dw, mask=m_k, other=0.0)

        b_dA += tl.dot(b_dw, tl.trans(b_kbg).to(b_dw.dtype))
        b_dkbg = tl.dot(b_A, b_dw)
        if USE_G:
            b_dk = b_dkbg * (b_g_exp * b_b)[:, None]
            b_db += tl.sum(b_dkbg * b_k * b_g_exp[:, None], 1)
            b_dg += tl.sum(b_dkbg * b_kbg, 1)
        else:
            b_dk = b_dkbg * b_b[:, None]
            b_db += tl.sum(b_dkbg * b_k, 1)
        tl.store(p_dk, b_dk.to(p_dk.dtype.element_ty), mask=m_k)

    for i_v in range(tl.cdiv(V, BV)):
        o_v = i_v * BV + tl.arange(0, BV)
        m_v = m_t[:, None] & (o_v[None, :] < V)
        p_v = v + (bos*HV + i_h) * V + o_t[:, None] * (HV*V) + o_v[None, :]
        p_dv = dv + (bos*HV + i_h) * V + o_t[:, None] * (HV*V) + o_v[None, :]
        p_du = du + (bos*HV + i_h) * V + o_t[:, None] * (HV*V) + o_v[None, :]
        b_v = tl.load(p_v, mask=m_v, other=0.0)
        b_vb = (b_v * b_b[:, None]).to(b_v.dtype)
        b_du = tl.load(p_du, mask=m_v, other=0.0)
        b_dA += tl.dot(b_du, tl.trans(b_vb))
        b_dvb = tl.dot(b_A, b_du)
        b_dv = b_dvb * b_b[:, None]
        b_db += tl.sum(b_dvb * b_v, 1)
        tl.store(p_dv, b_dv.to(p_dv.dtype.element_ty), mask=m_v)

    m_A = (o_t[:, None] > o_t[None, :]) & (m_t[:, None] & m_t)
    b_dA = tl.where(m_A, b_dA, 0)
    b_dA = tl.dot(b_dA.to(b_A.dtype), b_A)
    b_dA = tl.dot(b_A, b_dA.to(b_A.dtype))

    if USE_G:
        b_dA *= exp2(b_g[:, None] - b_g[None, :])

    b_A = tl.zeros([BT, BT], dtype=tl.float32)
    b_dA = tl.where(m_A, -b_dA, 0).to(k.dtype.element_ty)

    # keep this barrier: triton-ascend can misorder b_dA before the dk load-modify-store without it
    tl.debug_barrier()

    for i_k in range(tl.cdiv(K, BK)):
        o_k = i_k * BK + tl.arange(0, BK)
        m_k = m_t[:, None] & (o_k[None, :] < K)
        p_k = k + (bos*H + i_h // (HV // H)) * K + o_t[:, None] * (H*K) + o_k[None, :]
        p_dk = dk + (bos*HV + i_h) * K + o_t[:, None] * (HV*K) + o_k[None, :]
        b_k = tl.load(p_k, mask=m_k, other=0.0)
        b_kt = tl.trans(b_k)
        b_kb = b_k * b_b[:, None]

        b_A += tl.dot(b_k, b_kt)
        b_dkb = tl.dot(b_dA, b_k)
        b_db += tl.sum(b_dkb * b_k, 1)
        b_dk = b_dkb * b_b[:, None] + tl.trans(tl.dot(tl.trans(b_kb).to(b_dA.dtype), b_dA))
        b_dk += tl.load(p_dk, mask=m_k, other=0.0)

        tl.store(p_dk, b_dk.to(p_dk.dtype.element_ty), mask=m_k)
    tl.store(p_db, b_db.to(p_db.dtype.element_ty), mask=m_t)

    b_A *= b_b[:, None]
    if USE_G:
        b_AdA = b_dA * b_A
        p_dg = dg + (bos*HV + i_h) + o_t * HV
        b_dg += tl.sum(b_AdA, axis=1) - tl.sum(b_AdA, axis=0)
        tl.store(p_dg, b_dg.to(p_dg.dtype.element_ty), mask=m_t)


def _lengths(N: int, T: int) -> list[int]:
    """N sequence lengths summing to T, unequal and not multiples of BT (ragged last chunks)."""
    if N == 3 and T == 201:
        return [100, 64, 37]
    base = [T // N + (37 if i % 2 == 0 else -37) for i in range(N)]
    base[-1] += T - sum(base)
    return base


def _chunk_indices(lens: list[int], device: str) -> Any:
    """FLA's prepare_chunk_indices: one (sequence, chunk) row per chunk of every sequence, int64."""
    import torch
    rows = [(n, t) for n, L in enumerate(lens) for t in range(triton.cdiv(L, BT))]
    return torch.tensor(rows, device=device, dtype=torch.int64)


def _A(k: Any, beta: Any, g: Any, HV: int) -> Any:
    """The chunks' (I + tril(beta_i exp2(g_i - g_j) k_i . k_j, -1))^-1 in fp64, [T, HV, BT] (row t of its chunk)."""
    import torch
    T, H, _ = k.shape
    out = torch.zeros((T, HV, BT), device=k.device, dtype=torch.float64)
    kk = k.double().repeat_interleave(HV // H, dim=1)            # [T, HV, K]
    for s in range(0, T, BT):
        e = min(s + BT, T)
        kc, bc, gc = kk[s:e].transpose(0, 1), beta[s:e].double().T, g[s:e].double().T   # [HV, n, K], [HV, n]
        L = (kc @ kc.transpose(1, 2)) * bc[:, :, None] * torch.exp2(gc[:, :, None] - gc[:, None, :])
        L = torch.tril(L, -1)
        eye = torch.eye(e - s, device=k.device, dtype=torch.float64)
        out[s:e, :, : e - s] = torch.linalg.inv(eye + L).transpose(0, 1)
    return out


def make_inputs(N: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """k [1, T, 16, 128] fp16 l2-normalised, v, dw, du [1, T, 32, 128] fp16 (dw on the value heads, as the chunked
    gated delta rule's backward gives it), beta [1, T, 32] fp16 in (0, 1), g [1, T, 32] fp32 the chunk-local cumulative
    sum of log2-sigmoid gates, A [1, T, 32, 64] fp16 each chunk's inverse (of its own sequence's chunks), cu_seqlens
    and chunk_indices int64."""
    import torch
    H, HV, D = 16, 32, 128
    gen = torch.Generator(device=device).manual_seed(seed)
    lens = _lengths(N, T)
    cu = torch.tensor([0] + list(torch.tensor(lens).cumsum(0).tolist()), device=device, dtype=torch.int64)
    k = torch.nn.functional.normalize(torch.randn((T, H, D), device=device, generator=gen), dim=-1).half()
    v = torch.randn((T, HV, D), device=device, generator=gen).half()
    beta = torch.sigmoid(torch.randn((T, HV), device=device, generator=gen)).half()
    gl = torch.nn.functional.logsigmoid(torch.randn((T, HV), device=device, generator=gen) + 3.0) / 4
    g = torch.empty_like(gl)
    A = torch.zeros((T, HV, BT), device=device, dtype=torch.float64)
    for n in range(len(lens)):
        s0, e0 = int(cu[n]), int(cu[n + 1])
        for s in range(s0, e0, BT):
            e = min(s + BT, e0)
            g[s:e] = gl[s:e].cumsum(0)
        A[s0:e0] = _A(k[s0:e0], beta[s0:e0], g[s0:e0], HV)
    dw = (torch.randn((T, HV, D), device=device, generator=gen) / 4).half()
    du = (torch.randn((T, HV, D), device=device, generator=gen) / 4).half()
    return {"k": k[None], "v": v[None], "beta": beta[None], "g": g[None], "A": A.half()[None], "dw": dw[None],
            "du": du[None], "cu_seqlens": cu, "chunk_indices": _chunk_indices(lens, device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dk [1, T, 16, 128], dv [1, T, 32, 128], db [1, T, 32], dg [1, T, 32] fp32) as FLA's prepare_wy_repr_bwd
    returns them (config ignored: the autotuner picks num_warps / num_stages)."""
    k, v, beta, A, dw, du, g = (inputs[n] for n in ("k", "v", "beta", "A", "dw", "du", "g"))
    cu_seqlens, chunk_indices = inputs["cu_seqlens"], inputs["chunk_indices"]
    B, T, H, K, V, HV = *k.shape, v.shape[-1], v.shape[2]
    BT_ = A.shape[-1]
    NT = triton.cdiv(T, BT_) if cu_seqlens is None else len(chunk_indices)
    CONST_TILING = 64
    BK = min(max(triton.next_power_of_2(K), 16), CONST_TILING)
    BV = min(max(triton.next_power_of_2(V), 16), CONST_TILING)
    dk = k.new_empty(B, T, HV, K)
    dv = v.new_empty(v.shape)
    dg = g.new_empty(g.shape)
    db = beta.new_empty(beta.shape)
    prepare_wy_repr_bwd_kernel[(NT, B * HV)](
        k=k, v=v, beta=beta, g=g, A=A, dw=dw, du=du, dk=dk, dv=dv, db=db, dg=dg, cu_seqlens=cu_seqlens,
        chunk_indices=chunk_indices, T=T, H=H, HV=HV, K=K, V=V, BT=BT_, BK=BK, BV=BV)
    if H != HV:
        dk = dk.view(B, T, H, HV // H, K).sum(3)
    return dk, dv, db, dg


def reference(inputs: dict[str, Any]) -> Any:
    """Autograd through the forward in fp64, sequence by sequence and chunk by chunk: w = A (k beta exp2(g)),
    u = A (v beta) with A recomputed from k, beta, g; dg with respect to g ln 2 (the exponent exp2 takes, in natural
    units: FLA's kernels leave the base change to the caller)."""
    import math
    import torch
    cu = inputs["cu_seqlens"].tolist()
    k0, v0, b0, g0 = (inputs[n][0].double() for n in ("k", "v", "beta", "g"))
    dw, du = inputs["dw"][0].double(), inputs["du"][0].double()
    H, HV = k0.shape[1], v0.shape[1]
    k, v, b, g = (t.clone().requires_grad_() for t in (k0, v0, b0, g0))
    kk = k.repeat_interleave(HV // H, dim=1)
    loss = 0.0
    for n in range(len(cu) - 1):
        for s in range(cu[n], cu[n + 1], BT):
            e = min(s + BT, cu[n + 1])
            kc, vc, bc, gc = kk[s:e].transpose(0, 1), v[s:e].transpose(0, 1), b[s:e].T, g[s:e].T
            L = torch.tril((kc @ kc.transpose(1, 2)) * bc[:, :, None] * torch.exp2(gc[:, :, None] - gc[:, None, :]),
                           -1)
            Ac = torch.linalg.inv(torch.eye(e - s, dtype=torch.float64, device=k.device) + L)
            w = Ac @ (kc * (bc * torch.exp2(gc))[..., None])
            u = Ac @ (vc * bc[..., None])
            loss = loss + (w * dw[s:e].transpose(0, 1)).sum() + (u * du[s:e].transpose(0, 1)).sum()
    loss.backward()
    return k.grad[None], v.grad[None], b.grad[None], g.grad[None] / math.log(2.0)


def flops(N: int, T: int) -> float:
    """Per chunk and value head: 2 + 2 + 2 (between the loops) + 3 dots of [64, 64] x [64, 128]-sized work."""
    return 2.0 * T * 32 * BT * 128 * 9
