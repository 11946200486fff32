"""Differential Transformer attention forward (microsoft/unilm Diff-Transformer, ``multihead_flashdiff``) fused into
one Triton kernel in the pointer idiom of the FlashAttention tutorial (the "flash-diff" style: the two softmax maps
of a head computed in the same key loop instead of two flash-attn calls): one program per (query block, batch *
head); the head's q and k split into two halves of D / 2 = 64 (``q1 = q[..., :64]``, ``q2 = q[..., 64:]``), V kept
whole at D = 128; one loop over key blocks loading k1, k2 and v once a step, computing **two score matrices**
(``tl.dot(q1, k1)``, ``tl.dot(q2, k2)``, k loaded transposed through its pointers), **two online softmaxes** in base
2 (two running maxima, two sums, two [BLOCK_M, 128] accumulators) and two ``tl.dot(p, v)`` with the **same V tile**;
the key tail masked (``start_n + offs_n < N_CTX``, ``-inf`` scores); after the loop ``o = o1 / l1 - lambda * o2 /
l2`` with ``lambda_full`` a runtime fp32 scalar. Non-causal, fp16, BLOCK_M = 128, BLOCK_N = 64, 8 warps, 2 stages.
Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

D, BLOCK_M, BLOCK_N = 128, 128, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_diff_attn_fwd",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "Out": "*fp16", "sm_scale": "fp32",
                  "lambda_full": "fp32", "N_CTX": "i32", "H": "i32",
                  "stride_z": "i32", "stride_h": "i32", "stride_n": "i32",
                  "HEAD_DIM": "constexpr", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"},
    "constexprs": {"HEAD_DIM": D, "BLOCK_M": BLOCK_M, "BLOCK_N": BLOCK_N},
    "num_warps": 8, "num_stages": 2,
    "divisibility": ["Q", "K", "V", "Out", "N_CTX", "stride_z", "stride_h", "stride_n"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 16, "N": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 200}


@triton.jit
def _diff_attn_fwd(Q, K, V, Out, sm_scale, lambda_full, N_CTX, H, stride_z, stride_h, stride_n,
                   HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    HALF: tl.constexpr = HEAD_DIM // 2
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    base = off_z.to(tl.int64) * stride_z + off_h.to(tl.int64) * stride_h

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_h = tl.arange(0, HALF)
    offs_d = tl.arange(0, HEAD_DIM)
    mask_m = offs_m < N_CTX

    q_ptrs = Q + base + offs_m[:, None] * stride_n + offs_h[None, :]
    q1 = tl.load(q_ptrs, mask=mask_m[:, None], other=0.0)
    q2 = tl.load(q_ptrs + HALF, mask=mask_m[:, None], other=0.0)
    # k^T halves [HALF, BLOCK_N], v [BLOCK_N, HEAD_DIM]
    k1_ptrs = K + base + offs_n[None, :] * stride_n + offs_h[:, None]
    k2_ptrs = k1_ptrs + HALF
    v_ptrs = V + base + offs_n[:, None] * stride_n + offs_d[None, :]

    qk_scale = sm_scale * 1.44269504
    m1 = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l1 = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc1 = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    m2 = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l2 = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    for start_n in range(0, N_CTX, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        mask_n = (start_n + offs_n) < N_CTX
        k1 = tl.load(k1_ptrs + start_n * stride_n, mask=mask_n[None, :], other=0.0)
        k2 = tl.load(k2_ptrs + start_n * stride_n, mask=mask_n[None, :], other=0.0)
        v = tl.load(v_ptrs + start_n * stride_n, mask=mask_n[:, None], other=0.0)

        # first map: softmax(q1 k1^T)
        qk1 = tl.dot(q1, k1) * qk_scale
        qk1 = tl.where(mask_n[None, :], qk1, float("-inf"))
        m1_new = tl.maximum(m1, tl.max(qk1, 1))
        alpha1 = tl.math.exp2(m1 - m1_new)
        p1 = tl.math.exp2(qk1 - m1_new[:, None])
        l1 = l1 * alpha1 + tl.sum(p1, 1)
        acc1 = acc1 * alpha1[:, None]
        acc1 = tl.dot(p1.to(v.dtype), v, acc1)
        m1 = m1_new

        # second map: softmax(q2 k2^T), same V tile
        qk2 = tl.dot(q2, k2) * qk_scale
        qk2 = tl.where(mask_n[None, :], qk2, float("-inf"))
        m2_new = tl.maximum(m2, tl.max(qk2, 1))
        alpha2 = tl.math.exp2(m2 - m2_new)
        p2 = tl.math.exp2(qk2 - m2_new[:, None])
        l2 = l2 * alpha2 + tl.sum(p2, 1)
        acc2 = acc2 * alpha2[:, None]
        acc2 = tl.dot(p2.to(v.dtype), v, acc2)
        m2 = m2_new

    o = acc1 / l1[:, None] - lambda_full * (acc2 / l2[:, None])
    o_ptrs = Out + base + offs_m[:, None] * stride_n + offs_d[None, :]
    tl.store(o_ptrs, o.to(Out.dtype.element_ty), mask=mask_m[:, None])


def make_inputs(B: int, H: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [B, H, N, 128] fp16 (q and k read as two 64-wide halves), sm_scale = 1 / sqrt(64) (Diff-Transformer's
    scaling by the half's width), lambda_full = 0.8 - 0.6 exp(-0.3 * (layer - 1)) + lambda(q, k) for layer 12 (about
    0.78, a runtime scalar)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v = (torch.randn((B, H, N, D), device=device, dtype=torch.float32, generator=g).half() for _ in range(3))
    lambda_init = 0.8 - 0.6 * math.exp(-0.3 * 11)
    return {"q": q, "k": k, "v": v, "sm_scale": (D // 2) ** -0.5, "lambda_full": lambda_init - 0.0025}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [B, H, N, 128] fp16, flattened as fp32."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, H, N, _ = q.shape
    o = torch.empty_like(q)
    grid = (triton.cdiv(N, BLOCK_M), B * H)
    _diff_attn_fwd[grid](q, k, v, o, inputs["sm_scale"], inputs["lambda_full"], N, H,
                         q.stride(0), q.stride(1), q.stride(2), HEAD_DIM=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                         num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 2))
    return o.float().flatten()


def reference(inputs: dict[str, Any]) -> Any:
    """softmax(q1 k1^T s) v - lambda softmax(q2 k2^T s) v in double, rounded to fp16 as the kernel stores it."""
    import torch
    q, k, v = (inputs[n].double() for n in ("q", "k", "v"))
    s, lam, h = inputs["sm_scale"], inputs["lambda_full"], D // 2
    a1 = torch.softmax(q[..., :h] @ k[..., :h].transpose(-1, -2) * s, -1)
    a2 = torch.softmax(q[..., h:] @ k[..., h:].transpose(-1, -2) * s, -1)
    o = a1 @ v - lam * (a2 @ v)
    return o.half().double().flatten()


def flops(B: int, H: int, N: int) -> float:
    """Two QK^T of width 64 and two PV of width 128 per key: 2 * (2 * 64 + 2 * 128) per (query, key)."""
    return 2.0 * B * H * N * N * (2 * (D // 2) + 2 * D)
