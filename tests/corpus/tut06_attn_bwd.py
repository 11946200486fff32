"""Triton tutorial 06 fused attention, backward pass (python/tutorials/06-fused-attention.py:
``_attn_bwd_preprocess``, ``_attn_bwd`` calling the ``_attn_bwd_dkdv`` and ``_attn_bwd_dq`` helper loops).

The constructs: two kernels launched in sequence as ``_attention.backward`` does (the preprocess computes
``delta = rowsum(o * do)``; the main kernel is TWILL_SPEC's); one program per BLOCK_N1 column block of K/V *and* per
BLOCK_M2 row block of Q, so the kernel runs FOUR loops in sequence: with ``CAUSAL`` the dK/dV helper is called first
on the diagonal blocks with ``MASK=True`` and a sliced step (``MASK_BLOCK_M1 = BLOCK_M1 // BLK_SLICE_FACTOR``), then
unmasked over the rest; the same two calls of the dQ helper follow (``_attn_bwd_dq``, the masked one walking
``end_n - num_steps * MASK_BLOCK_N2``). Loop bounds are ``num_steps`` values computed from the program id
(``(N_CTX - start_m) // BLOCK_M1``); each helper carries its accumulators and advances its pointers by
``step * stride_tok``; K is pre-scaled by ``sm_scale / ln 2`` on the host (``arg_k``) and the helpers use exp2 of
``qk - m`` with the forward's log2-domain M; ``tl.static_assert``; ``tl.trans`` of a loaded tile inside the loop;
a ``LN2: tl.constexpr`` local; the batch/head offset made int64 (``.to(tl.int64)``); stores of dK/dV between the
loops and of dQ after them. fp16, HEAD_DIM = 64, the tutorial's blocks (32, 128, 128, 32), causal.

The forward's outputs the backward reads (o and the log2-domain M) are built in ``make_inputs`` by plain torch,
a few heads at a time. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

HEAD_DIM = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_attn_bwd",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "sm_scale": "fp32", "DO": "*fp16",
                  "DQ": "*fp16", "DK": "*fp16", "DV": "*fp16", "M": "*fp32", "D": "*fp32",
                  "stride_z": "i32", "stride_h": "i32", "stride_tok": "i32", "stride_d": "constexpr",
                  "H": "i32", "N_CTX": "i32"},
    "constexprs": {"stride_d": 1, "BLOCK_M1": 32, "BLOCK_N1": 128, "BLOCK_M2": 128, "BLOCK_N2": 32,
                   "BLK_SLICE_FACTOR": 2, "HEAD_DIM": HEAD_DIM, "CAUSAL": True},
    "num_warps": 4, "num_stages": 5,
    "divisibility": ["stride_z", "stride_h", "stride_tok", "N_CTX"]}
PROBLEM: dict[str, int] = {"Z": 4, "H": 32, "N_CTX": 4096}
SMALL: dict[str, int] = {"Z": 1, "H": 2, "N_CTX": 256}


@triton.jit
def _attn_bwd_preprocess(O, DO,  #
                         Delta,  #
                         Z, H, N_CTX,  #
                         BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr  #
                         ):
    off_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    off_n = tl.arange(0, HEAD_DIM)
    # load
    o = tl.load(O + off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM + off_n[None, :])
    do = tl.load(DO + off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM + off_n[None, :]).to(tl.float32)
    delta = tl.sum(o * do, axis=1)
    # write-back
    tl.store(Delta + off_hz * N_CTX + off_m, delta)


# The main inner-loop logic for computing dK and dV.
@triton.jit
def _attn_bwd_dkdv(dk, dv,  #
                   Q, k, v, sm_scale,  #
                   DO,  #
                   M, D,  #
                   # shared by Q/K/V/DO.
                   stride_tok, stride_d,  #
                   H, N_CTX, BLOCK_M1: tl.constexpr,  #
                   BLOCK_N1: tl.constexpr,  #
                   HEAD_DIM: tl.constexpr,  #
                   # Filled in by the wrapper.
                   start_n, start_m, num_steps,  #
                   MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BLOCK_M1)
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_k = tl.arange(0, HEAD_DIM)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None] * stride_d
    do_ptrs = DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d
    # BLOCK_N1 must be a multiple of BLOCK_M1, otherwise the code wouldn't work.
    tl.static_assert(BLOCK_N1 % BLOCK_M1 == 0)
    curr_m = start_m
    step_m = BLOCK_M1
    for blk_idx in range(num_steps):
        qT = tl.load(qT_ptrs)
        # Load m before computing qk to reduce pipeline stall.
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT)
        pT = tl.math.exp2(qkT - m[None, :])
        # Autoregressive masking.
        if MASK:
            mask = (offs_m[None, :] >= offs_n[:, None])
            pT = tl.where(mask, pT, 0.0)
        do = tl.load(do_ptrs)
        # Compute dV.
        ppT = pT
        ppT = ppT.to(tl.float16)
        dv += tl.dot(ppT, do)
        # D (= delta) is pre-divided by ds_scale.
        Di = tl.load(D + offs_m)
        # Compute dP and dS.
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - Di[None, :])
        dsT = dsT.to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        # Increment pointers.
        curr_m += step_m
        qT_ptrs += step_m * stride_tok
        do_ptrs += step_m * stride_tok
    return dk, dv


# the main inner-loop logic for computing dQ
@triton.jit
def _attn_bwd_dq(dq, q, K, V,  #
                 do, m, D,
                 # shared by Q/K/V/DO.
                 stride_tok, stride_d,  #
                 H, N_CTX,  #
                 BLOCK_M2: tl.constexpr,  #
                 BLOCK_N2: tl.constexpr,  #
                 HEAD_DIM: tl.constexpr,
                 # Filled in by the wrapper.
                 start_m, start_n, num_steps,  #
                 MASK: tl.constexpr):
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    offs_n = start_n + tl.arange(0, BLOCK_N2)
    offs_k = tl.arange(0, HEAD_DIM)
    kT_ptrs = K + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    vT_ptrs = V + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    # D (= delta) is pre-divided by ds_scale.
    Di = tl.load(D + offs_m)
    # BLOCK_M2 must be a multiple of BLOCK_N2, otherwise the code wouldn't work.
    tl.static_assert(BLOCK_M2 % BLOCK_N2 == 0)
    curr_n = start_n
    step_n = BLOCK_N2
    for blk_idx in range(num_steps):
        kT = tl.load(kT_ptrs)
        vT = tl.load(vT_ptrs)
        qk = tl.dot(q, kT)
        p = tl.math.exp2(qk - m)
        # Autoregressive masking.
        if MASK:
            offs_n = curr_n + tl.arange(0, BLOCK_N2)
            mask = (offs_m[:, None] >= offs_n[None, :])
            p = tl.where(mask, p, 0.0)
        # Compute dP and dS.
        dp = tl.dot(do, vT).to(tl.float32)
        ds = p * (dp - Di[:, None])
        ds = ds.to(tl.float16)
        # Compute dQ.
        # NOTE: We need to de-scale dq in the end, because kT was pre-scaled.
        dq += tl.dot(ds, tl.trans(kT))
        # Increment pointers.
        curr_n += step_n
        kT_ptrs += step_n * stride_tok
        vT_ptrs += step_n * stride_tok
    return dq


@triton.jit
def _attn_bwd(Q, K, V, sm_scale,  #
              DO,  #
              DQ, DK, DV,  #
              M, D,
              # shared by Q/K/V/DO.
              stride_z, stride_h, stride_tok, stride_d,  #
              H, N_CTX,  #
              BLOCK_M1: tl.constexpr,  #
              BLOCK_N1: tl.constexpr,  #
              BLOCK_M2: tl.constexpr,  #
              BLOCK_N2: tl.constexpr,  #
              BLK_SLICE_FACTOR: tl.constexpr,  #
              HEAD_DIM: tl.constexpr,  #
              CAUSAL: tl.constexpr):
    LN2: tl.constexpr = 0.6931471824645996  # = ln(2)

    bhid = tl.program_id(2)
    off_chz = (bhid * N_CTX).to(tl.int64)
    adj = (stride_h * (bhid % H) + stride_z * (bhid // H)).to(tl.int64)
    pid = tl.program_id(0)

    # offset pointers for batch/head
    Q += adj
    K += adj
    V += adj
    DO += adj
    DQ += adj
    DK += adj
    DV += adj
    M += off_chz
    D += off_chz

    # load scales
    offs_k = tl.arange(0, HEAD_DIM)

    start_n = pid * BLOCK_N1
    start_m = 0

    MASK_BLOCK_M1: tl.constexpr = BLOCK_M1 // BLK_SLICE_FACTOR
    offs_n = start_n + tl.arange(0, BLOCK_N1)

    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)

    # load K and V: they stay in SRAM throughout the inner loop.
    k = tl.load(K + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)
    v = tl.load(V + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d)

    if CAUSAL:
        start_m = start_n
        num_steps = BLOCK_N1 // MASK_BLOCK_M1
        dk, dv = _attn_bwd_dkdv(dk, dv,  #
                                Q, k, v, sm_scale,  #
                                DO,  #
                                M, D,  #
                                stride_tok, stride_d,  #
                                H, N_CTX,  #
                                MASK_BLOCK_M1, BLOCK_N1, HEAD_DIM,  #
                                start_n, start_m, num_steps,  #
                                MASK=True  #
                                )
        start_m += num_steps * MASK_BLOCK_M1

    num_steps = (N_CTX - start_m) // BLOCK_M1

    # Compute dK and dV for non-masked blocks.
    dk, dv = _attn_bwd_dkdv(  #
        dk, dv,  #
        Q, k, v, sm_scale,  #
        DO,  #
        M, D,  #
        stride_tok, stride_d,  #
        H, N_CTX,  #
        BLOCK_M1, BLOCK_N1, HEAD_DIM,  #
        start_n, start_m, num_steps,  #
        MASK=False  #
    )

    dv_ptrs = DV + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.store(dv_ptrs, dv)

    # Write back dK.
    dk *= sm_scale
    dk_ptrs = DK + offs_n[:, None] * stride_tok + offs_k[None, :] * stride_d
    tl.store(dk_ptrs, dk)

    # THIS BLOCK DOES DQ:
    start_m = pid * BLOCK_M2
    start_n = 0
    num_steps = N_CTX // BLOCK_N2

    MASK_BLOCK_N2: tl.constexpr = BLOCK_N2 // BLK_SLICE_FACTOR
    offs_m = start_m + tl.arange(0, BLOCK_M2)

    q = tl.load(Q + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)
    do = tl.load(DO + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d)

    m = tl.load(M + offs_m)
    m = m[:, None]

    if CAUSAL:
        # Compute dQ for masked (diagonal) blocks.
        # NOTE: This code scans each row of QK^T backward (from right to left,
        # but inside each call to _attn_bwd_dq, from left to right), but that's
        # not due to anything important.  I just wanted to reuse the loop
        # structure for dK & dV above as much as possible.
        end_n = start_m + BLOCK_M2
        num_steps = BLOCK_M2 // MASK_BLOCK_N2
        dq = _attn_bwd_dq(dq, q, K, V,  #
                          do, m, D,  #
                          stride_tok, stride_d,  #
                          H, N_CTX,  #
                          BLOCK_M2, MASK_BLOCK_N2, HEAD_DIM,  #
                          start_m, end_n - num_steps * MASK_BLOCK_N2, num_steps,  #
                          MASK=True  #
                          )
        end_n -= num_steps * MASK_BLOCK_N2
        # stage 2
        num_steps = end_n // BLOCK_N2
        start_n = end_n - num_steps * BLOCK_N2

    dq = _attn_bwd_dq(dq, q, K, V,  #
                      do, m, D,  #
                      stride_tok, stride_d,  #
                      H, N_CTX,  #
                      BLOCK_M2, BLOCK_N2, HEAD_DIM,  #
                      start_m, start_n, num_steps,  #
                      MASK=False  #
                      )
    # Write back dQ.
    dq_ptrs = DQ + offs_m[:, None] * stride_tok + offs_k[None, :] * stride_d
    dq *= LN2
    tl.store(dq_ptrs, dq)


def make_inputs(Z: int, H: int, N_CTX: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v, do fp16 [Z, H, N_CTX, 64]; the forward's o (fp16) and M (fp32, log2-domain log-sum-exp of the
    scaled scores, what the tutorial's ``_attn_fwd`` stores) computed by torch in fp32, causal, a few heads at a
    time (the scores of all heads at once would be Z * H * N_CTX^2 floats)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v, do = (torch.randn((Z, H, N_CTX, HEAD_DIM), device=device, generator=g).half() for _ in range(4))
    sm_scale = 0.5
    RCP_LN2 = 1.4426950408889634
    o = torch.empty_like(q)
    M = torch.empty((Z, H, N_CTX), device=device, dtype=torch.float32)
    causal = torch.ones((N_CTX, N_CTX), device=device, dtype=torch.bool).tril()
    qf, kf, vf = q.view(Z * H, N_CTX, HEAD_DIM), k.view(Z * H, N_CTX, HEAD_DIM), v.view(Z * H, N_CTX, HEAD_DIM)
    of, Mf = o.view(Z * H, N_CTX, HEAD_DIM), M.view(Z * H, N_CTX)
    step = 4
    for i in range(0, Z * H, step):
        s = (qf[i:i + step].float() @ kf[i:i + step].float().transpose(-1, -2)) * sm_scale
        s = s.masked_fill(~causal, float("-inf"))
        lse = torch.logsumexp(s, dim=-1)
        of[i:i + step] = (torch.exp(s - lse[..., None]) @ vf[i:i + step].float()).half()
        Mf[i:i + step] = lse * RCP_LN2
    return {"q": q, "k": k, "v": v, "o": o, "do": do, "M": M, "sm_scale": sm_scale}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dq, dk, dv) fp16 [Z, H, N_CTX, 64], as ``_attention.backward`` computes them (causal)."""
    import torch
    q, k, v, o, do, M, sm_scale = (inputs[n] for n in ("q", "k", "v", "o", "do", "M", "sm_scale"))
    assert do.is_contiguous()
    assert q.stride() == k.stride() == v.stride() == o.stride() == do.stride()
    dq = torch.empty_like(q)
    dk = torch.empty_like(k)
    dv = torch.empty_like(v)
    BATCH, N_HEAD, N_CTX = q.shape[:3]
    PRE_BLOCK = 128
    NUM_WARPS, NUM_STAGES = 4, 5
    BLOCK_M1, BLOCK_N1, BLOCK_M2, BLOCK_N2 = 32, 128, 128, 32
    BLK_SLICE_FACTOR = 2
    RCP_LN2 = 1.4426950408889634  # = 1.0 / ln(2)
    arg_k = k
    arg_k = arg_k * (sm_scale * RCP_LN2)
    PRE_BLOCK = 128
    assert N_CTX % PRE_BLOCK == 0
    pre_grid = (N_CTX // PRE_BLOCK, BATCH * N_HEAD)
    delta = torch.empty_like(M)
    _attn_bwd_preprocess[pre_grid](
        o, do,  #
        delta,  #
        BATCH, N_HEAD, N_CTX,  #
        BLOCK_M=PRE_BLOCK, HEAD_DIM=HEAD_DIM  #
    )
    grid = (N_CTX // BLOCK_N1, 1, BATCH * N_HEAD)
    _attn_bwd[grid](
        q, arg_k, v, sm_scale, do, dq, dk, dv,  #
        M, delta,  #
        q.stride(0), q.stride(1), q.stride(2), q.stride(3),  #
        N_HEAD, N_CTX,  #
        BLOCK_M1=BLOCK_M1, BLOCK_N1=BLOCK_N1,  #
        BLOCK_M2=BLOCK_M2, BLOCK_N2=BLOCK_N2,  #
        BLK_SLICE_FACTOR=BLK_SLICE_FACTOR,  #
        HEAD_DIM=HEAD_DIM,  #
        num_warps=config.get("num_warps", NUM_WARPS),  #
        num_stages=config.get("num_stages", NUM_STAGES),  #
        CAUSAL=True,  #
    )
    return dq, dk, dv


def reference(inputs: dict[str, Any]) -> Any:
    """The causal attention backward in float64 from the forward's definition (softmax recomputed from q and k,
    delta from the o handed in), two heads at a time."""
    import torch
    q, k, v, o, do, sm_scale = (inputs[n] for n in ("q", "k", "v", "o", "do", "sm_scale"))
    Z, H, N, D = q.shape
    dq, dk, dv = (torch.empty((Z, H, N, D), device=q.device, dtype=torch.float64) for _ in range(3))
    causal = torch.ones((N, N), device=q.device, dtype=torch.bool).tril()
    flat = [t.reshape(Z * H, N, D) for t in (q, k, v, o, do, dq, dk, dv)]
    step = 2
    for i in range(0, Z * H, step):
        qi, ki, vi, oi, doi = (t[i:i + step].double() for t in flat[:5])
        s = (qi @ ki.transpose(-1, -2)) * sm_scale
        p = torch.softmax(s.masked_fill(~causal, float("-inf")), dim=-1)
        delta = (oi * doi).sum(-1, keepdim=True)
        dp = doi @ vi.transpose(-1, -2)
        ds = p * (dp - delta)
        flat[5][i:i + step] = (ds @ ki) * sm_scale
        flat[6][i:i + step] = (ds.transpose(-1, -2) @ qi) * sm_scale
        flat[7][i:i + step] = p.transpose(-1, -2) @ doi
    return dq, dk, dv


def flops(Z: int, H: int, N_CTX: int) -> float:
    """Five N x N x D GEMMs of the causal half (the tutorial counts 2.5x the forward's)."""
    return 2.5 * 4.0 * Z * H * N_CTX * N_CTX * HEAD_DIM * 0.5
