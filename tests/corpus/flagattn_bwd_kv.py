"""FlagAttention's flash-attention backward, its dK / dV kernel (FlagOpen/FlagAttention, src/flag_attn/flash.py
``_bwd_kv_kernel``; dQ is a separate kernel there, ``_bwd_q_kernel``): one program per (key block, head, batch), K and
V loaded once before the loop; the loop over query blocks starts at a causal lower bound computed from the program id
and ``P_SEQ`` (keys before the queries), rounded down to BLOCK_M (``lo = (lo // BLOCK_M) * BLOCK_M``), and steps
``range(lo, M, BLOCK_M)`` with ``tl.multiple_of``; pointer increments ``q_ptrs += BLOCK_M * stride_qm``; four dots an
iteration, three of them on transposed operands (``tl.dot(q, tl.trans(k))``, ``tl.dot(tl.trans(p), do)``,
``tl.dot(do, tl.trans(v))``, ``tl.dot(tl.trans(ds), q)``); P recomputed with ``exp2`` from the stored natural-log
normaliser times log2(e); the causal mask applied to P and dS with ``tl.where``; DIVISIBLE_M / DIVISIBLE_N constexprs
choosing masked or unmasked loads; ``input_dtype = Q.dtype.element_ty``; dK scaled after the loop. Launched as
``FlashAttention.backward`` launches it with its sm80 causal config for D = 128 (BLOCK_M = BLOCK_N = 64, 2 stages,
4 warps). fp16, causal. Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

HEAD_DIM = 128
BLOCK_M, BLOCK_N, NUM_STAGES, NUM_WARPS = 64, 64, 2, 4
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_bwd_kv_kernel",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "sm_scale": "fp32", "DO": "*fp16",
                  "DK": "*fp16", "DV": "*fp16", "L": "*fp32", "D": "*fp32",
                  "stride_qz": "i32", "stride_qh": "i32", "stride_qm": "i32", "stride_qk": "constexpr",
                  "stride_kz": "i32", "stride_kh": "i32", "stride_kn": "i32", "stride_kk": "constexpr",
                  "stride_vz": "i32", "stride_vh": "i32", "stride_vn": "i32", "stride_vk": "constexpr",
                  "stride_doz": "i32", "stride_doh": "i32", "stride_dom": "i32", "stride_dok": "constexpr",
                  "stride_dkz": "i32", "stride_dkh": "i32", "stride_dkn": "i32", "stride_dkk": "constexpr",
                  "stride_dvz": "i32", "stride_dvh": "i32", "stride_dvn": "i32", "stride_dvk": "constexpr",
                  "Z": "i32", "H": "i32", "M": "i32", "N": "i32", "P_SEQ": "i32"},
    "constexprs": {"stride_qk": 1, "stride_kk": 1, "stride_vk": 1, "stride_dok": 1, "stride_dkk": 1, "stride_dvk": 1,
                   "BLOCK_M": BLOCK_M, "BLOCK_DMODEL": HEAD_DIM, "BLOCK_N": BLOCK_N, "CAUSAL": True,
                   "DIVISIBLE_M": True, "DIVISIBLE_N": True},
    "num_warps": NUM_WARPS, "num_stages": NUM_STAGES,
    "divisibility": ["stride_qz", "stride_qh", "stride_qm", "stride_kz", "stride_kh", "stride_kn",
                     "stride_vz", "stride_vh", "stride_vn", "stride_doz", "stride_doh", "stride_dom",
                     "stride_dkz", "stride_dkh", "stride_dkn", "stride_dvz", "stride_dvh", "stride_dvn", "M", "N",
                     "P_SEQ"]}
PROBLEM: dict[str, int] = {"B": 2, "H": 16, "M": 4096, "N": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 2, "M": 192, "N": 320}     # P_SEQ = 128; DIVISIBLE_M / _N as generated


@triton.jit
def _bwd_kv_kernel(
    Q, K, V, sm_scale, DO,
    DK, DV,
    L,
    D,
    stride_qz, stride_qh, stride_qm, stride_qk,
    stride_kz, stride_kh, stride_kn, stride_kk,
    stride_vz, stride_vh, stride_vn, stride_vk,
    stride_doz, stride_doh, stride_dom, stride_dok,
    stride_dkz, stride_dkh, stride_dkn, stride_dkk,
    stride_dvz, stride_dvh, stride_dvn, stride_dvk,
    Z, H, M, N, P_SEQ,
    BLOCK_M: tl.constexpr, BLOCK_DMODEL: tl.constexpr, BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr,
    DIVISIBLE_M: tl.constexpr, DIVISIBLE_N: tl.constexpr,
):
    input_dtype = Q.dtype.element_ty
    start_n = tl.program_id(0)
    off_h = tl.program_id(1)
    off_z = tl.program_id(2)
    log2e: tl.constexpr = 1.4426950408889634
    qk_scale = sm_scale * log2e

    # offset pointers for (batch, head)
    Q += off_z * stride_qz + off_h * stride_qh
    K += off_z * stride_kz + off_h * stride_kh
    V += off_z * stride_vz + off_h * stride_vh
    DO += off_z * stride_doz + off_h * stride_doh
    DK += off_z * stride_dkz + off_h * stride_dkh
    DV += off_z * stride_dvz + off_h * stride_dvh
    D += (off_z * H + off_h) * M
    L += (off_z * H + off_h) * M

    if CAUSAL:
        lo = tl.maximum(start_n * BLOCK_N - P_SEQ, 0)
        lo = (lo // BLOCK_M) * BLOCK_M
    else:
        lo = 0

    offs_m_init = lo + tl.arange(0, BLOCK_M)
    offs_n = start_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m_base = tl.arange(0, BLOCK_M)
    offs_k = tl.arange(0, BLOCK_DMODEL)

    q_ptrs = Q + (offs_m_init[:, None] * stride_qm + offs_k[None, :] * stride_qk)     # (BLOCK_M, BLOCK_DMODEL)
    k_ptrs = K + (offs_n[:, None] * stride_kn + offs_k[None, :] * stride_kk)          # (BLOCK_N, BLOCK_DMODEL)
    v_ptrs = V + (offs_n[:, None] * stride_vn + offs_k[None, :] * stride_vk)          # (BLOCK_N, BLOCK_DMODEL)
    do_ptrs = DO + (offs_m_init[:, None] * stride_dom + offs_k[None, :] * stride_dok)  # (BLOCK_M, BLOCK_DMODEL)

    dv_ptrs = DV + (offs_n[:, None] * stride_dvn + offs_k[None, :] * stride_dvk)
    dk_ptrs = DK + (offs_n[:, None] * stride_dkn + offs_k[None, :] * stride_dkk)

    # k and v stay in SRAM throughout
    if DIVISIBLE_N:
        v = tl.load(v_ptrs)
        k = tl.load(k_ptrs)
    else:
        mask_n = offs_n < N
        v = tl.load(v_ptrs, mask=mask_n[:, None])
        k = tl.load(k_ptrs, mask=mask_n[:, None])

    dk = tl.zeros([BLOCK_N, BLOCK_DMODEL], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, BLOCK_DMODEL], dtype=tl.float32)

    # loop over a column of query blocks
    for start_m in range(lo, M, BLOCK_M):
        start_m = tl.multiple_of(start_m, BLOCK_M)
        offs_m = start_m + offs_m_base
        causal_mask = (P_SEQ + offs_m[:, None]) >= (offs_n[None, :])   # (BLOCK_M, BLOCK_N)

        if DIVISIBLE_M:
            q = tl.load(q_ptrs)
        else:
            mask_m = offs_m < M
            valid_mask = mask_m[:, None]
            q = tl.load(q_ptrs, mask=mask_m[:, None])
        # recompute p = softmax(qk * sm_scale, dim=-1)
        s = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        s += tl.dot(q, tl.trans(k))

        if DIVISIBLE_M:
            l = tl.load(L + offs_m)
        else:
            l = tl.load(L + offs_m, mask=mask_m)
        p = tl.math.exp2(s * qk_scale - l[:, None] * log2e)   # (BLOCK_M, BLOCK_N)

        if not DIVISIBLE_M:
            p = tl.where(valid_mask, p, 0.0)
        if CAUSAL:
            p = tl.where(causal_mask, p, 0.0)

        # dv = dot(p^T, do)
        if DIVISIBLE_M:
            do = tl.load(do_ptrs)
        else:
            do = tl.load(do_ptrs, mask=mask_m[:, None])
        dv += tl.dot(tl.trans(p.to(do.dtype)), do)

        # dp = dot(do, v^T)
        if DIVISIBLE_M:
            delta = tl.load(D + offs_m)
        else:
            delta = tl.load(D + offs_m, mask=mask_m)
        dp = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        dp += tl.dot(do, tl.trans(v))

        # ds = p * (dp - delta[:, None])
        ds = p * (dp - delta[:, None])

        if not DIVISIBLE_M:
            ds = tl.where(valid_mask, ds, 0.0)
        if CAUSAL:
            ds = tl.where(causal_mask, ds, 0.0)
        ds = ds.to(input_dtype)

        # dk = dot(ds^T, q)
        dk += tl.dot(tl.trans(ds), q)

        q_ptrs += BLOCK_M * stride_qm
        do_ptrs += BLOCK_M * stride_dom

    dk *= sm_scale
    if DIVISIBLE_N:
        tl.store(dk_ptrs, dk.to(input_dtype))
        tl.store(dv_ptrs, dv.to(input_dtype))
    else:
        tl.store(dk_ptrs, dk.to(input_dtype), mask=mask_n[:, None])
        tl.store(dv_ptrs, dv.to(input_dtype), mask=mask_n[:, None])


def _scores(q: Any, k: Any, sm_scale: float, p_seq: int) -> Any:
    """Causal scaled scores (query i sees keys up to P_SEQ + i), fp32."""
    import torch
    s = (q.float() @ k.float().transpose(-1, -2)) * sm_scale
    i = torch.arange(q.shape[-2], device=q.device)[:, None]
    j = torch.arange(k.shape[-2], device=q.device)[None, :]
    return s.masked_fill(j > p_seq + i, float("-inf"))


def make_inputs(B: int, H: int, M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, do [B, H, M, 128], k, v [B, H, N, 128] fp16; the forward's log-normaliser L (natural log, what
    ``_fwd_kernel`` stores) and delta = rowsum(o * do) (``_bwd_preprocess``), computed in fp32 a head at a time."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, H, M, HEAD_DIM), device=device, generator=g).half()
    k = torch.randn((B, H, N, HEAD_DIM), device=device, generator=g).half()
    v = torch.randn((B, H, N, HEAD_DIM), device=device, generator=g).half()
    do = torch.randn((B, H, M, HEAD_DIM), device=device, generator=g).half()
    sm_scale = 1.0 / math.sqrt(HEAD_DIM)
    L = torch.empty((B, H, M), device=device, dtype=torch.float32)
    delta = torch.empty((B, H, M), device=device, dtype=torch.float32)
    for b in range(B):
        for h in range(H):
            s = _scores(q[b, h], k[b, h], sm_scale, N - M)
            L[b, h] = torch.logsumexp(s, dim=-1)
            o = (torch.exp(s - L[b, h][:, None]) @ v[b, h].float()).half()
            delta[b, h] = (o.float() * do[b, h].float()).sum(-1)
    return {"q": q, "k": k, "v": v, "do": do, "L": L, "delta": delta, "sm_scale": sm_scale}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dk, dv) fp16, as ``FlashAttention.backward`` launches ``_bwd_kv_kernel`` (causal): grid (key blocks, H, B)."""
    import torch
    q, k, v, do = inputs["q"], inputs["k"], inputs["v"], inputs["do"]
    B, H, M, D = q.shape
    N = k.shape[2]
    P_SEQ = N - M
    dk = torch.empty_like(k)
    dv = torch.empty_like(v)
    grid = (triton.cdiv(N, BLOCK_N), H, B)
    _bwd_kv_kernel[grid](
        q, k, v, inputs["sm_scale"], do,
        dk, dv,
        inputs["L"], inputs["delta"],
        q.stride(0), q.stride(1), q.stride(2), q.stride(3),
        k.stride(0), k.stride(1), k.stride(2), k.stride(3),
        v.stride(0), v.stride(1), v.stride(2), v.stride(3),
        do.stride(0), do.stride(1), do.stride(2), do.stride(3),
        dk.stride(0), dk.stride(1), dk.stride(2), dk.stride(3),
        dv.stride(0), dv.stride(1), dv.stride(2), dv.stride(3),
        B, H, M, N, P_SEQ,
        BLOCK_M=BLOCK_M, BLOCK_DMODEL=D, BLOCK_N=BLOCK_N, CAUSAL=True,
        DIVISIBLE_M=M % BLOCK_M == 0, DIVISIBLE_N=N % BLOCK_N == 0,
        num_stages=config.get("num_stages", NUM_STAGES), num_warps=config.get("num_warps", NUM_WARPS),
    )
    return dk, dv


def reference(inputs: dict[str, Any]) -> Any:
    """dK, dV of causal softmax attention by autograd, a head at a time in fp32."""
    import torch
    q, k, v, do = inputs["q"], inputs["k"], inputs["v"], inputs["do"]
    B, H, M, _ = q.shape
    N = k.shape[2]
    dk, dv = torch.empty_like(k), torch.empty_like(v)
    for b in range(B):
        for h in range(H):
            kk = k[b, h].float().requires_grad_()
            vv = v[b, h].float().requires_grad_()
            p = torch.softmax(_scores(q[b, h], kk, inputs["sm_scale"], N - M), dim=-1)
            (p @ vv).backward(do[b, h].float())
            dk[b, h], dv[b, h] = kk.grad.half(), vv.grad.half()
    return dk, dv


def flops(B: int, H: int, M: int, N: int) -> float:
    """Four dots of 2 * 128 flops per (query, key) pair the causal mask keeps (about half)."""
    return 4 * 2.0 * B * H * M * N * HEAD_DIM * 0.5
