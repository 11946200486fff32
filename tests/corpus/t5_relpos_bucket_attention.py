"""T5 encoder self-attention with its **relative position bias computed inside the key loop** (the fused T5 / mT5 /
UL2 attention kernels that skip materialising HF's ``position_bias`` [1, H, N, N]: ``T5Attention.compute_bias``'s
``_relative_position_bucket(bidirectional=True, num_buckets=32, max_distance=128)`` moved into the kernel): one
program per (query block, batch * head), q / k / v in HF's [B, N, H, D] layout (``stride_n`` the token stride, heads
interleaved); per key block the bucket of each (query, key) pair from ``rel = k_idx - q_idx`` in **integer and log
math** on a [BLOCK_M, BLOCK_N] tile: ``(rel > 0) * NB_HALF`` for the direction, ``n = abs(rel)``, exact buckets below
``MAX_EXACT``, and ``MAX_EXACT + log(n / MAX_EXACT) / log(MAX_DISTANCE / MAX_EXACT) * (NB_HALF - MAX_EXACT)``
truncated to int32 and clamped above (the log in base 2 -- ``tl.log2``, the same bucket as HF's natural log, exact
at the powers of two where a truncation could flip), picked by ``tl.where``; the bias then **gathered** from the
small fp32 table ``relative_attention_bias`` [NUM_BUCKETS, H] (``tl.load(Bias + bucket * H + off_h)``, an indexed
load of a [BLOCK_M, BLOCK_N] tile of addresses) and added to the raw scores (T5 does not scale q·k: 1/sqrt(d) is
folded into the init, no ``sm_scale``); a key-padding tail (``tl.where(offs_n < N_CTX, ...)``, -inf); online softmax
in ``tl.exp``. Non-causal (the encoder). fp16, D = 64 (T5-XL: 32 heads of 64), BLOCK_M = 128, BLOCK_N = 64, 4 warps,
2 stages. Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

D, BLOCK_M, BLOCK_N = 64, 128, 64
NUM_BUCKETS, MAX_DISTANCE = 32, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_t5_attn_fwd_kernel",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "Bias": "*fp32", "Out": "*fp16", "N_CTX": "i32",
                  "H": "i32", "stride_b": "i32", "stride_n": "i32", "stride_h": "i32",
                  "NUM_BUCKETS": "constexpr", "MAX_DISTANCE": "constexpr", "HEAD_DIM": "constexpr",
                  "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"},
    "constexprs": {"NUM_BUCKETS": NUM_BUCKETS, "MAX_DISTANCE": MAX_DISTANCE, "HEAD_DIM": D, "BLOCK_M": BLOCK_M,
                   "BLOCK_N": BLOCK_N},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["Q", "K", "V", "Bias", "Out", "N_CTX", "stride_b", "stride_n", "stride_h"]}
PROBLEM: dict[str, int] = {"B": 8, "H": 32, "N": 2048}
SMALL: dict[str, int] = {"B": 1, "H": 3, "N": 300}


@triton.jit
def _relative_position_bucket(rel, NUM_BUCKETS: tl.constexpr, MAX_DISTANCE: tl.constexpr):
    NB_HALF: tl.constexpr = NUM_BUCKETS // 2
    MAX_EXACT: tl.constexpr = NB_HALF // 2
    bucket = (rel > 0).to(tl.int32) * NB_HALF
    n = tl.abs(rel)
    is_small = n < MAX_EXACT
    n_f = tl.maximum(n, 1).to(tl.float32)
    val_if_large = MAX_EXACT + (tl.log2(n_f / MAX_EXACT) / tl.log2(MAX_DISTANCE / MAX_EXACT)
                                * (NB_HALF - MAX_EXACT)).to(tl.int32)
    val_if_large = tl.minimum(val_if_large, NB_HALF - 1)
    return bucket + tl.where(is_small, n, val_if_large)


@triton.jit
def _t5_attn_fwd_kernel(Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h,
                        NUM_BUCKETS: tl.constexpr, MAX_DISTANCE: tl.constexpr, HEAD_DIM: tl.constexpr,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_hb = tl.program_id(1)
    off_b = off_hb // H
    off_h = off_hb % H
    base = off_b.to(tl.int64) * stride_b + off_h * stride_h

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    mask_m = offs_m < N_CTX

    q = tl.load(Q + base + offs_m[:, None] * stride_n + offs_d[None, :], mask=mask_m[:, None], other=0.0)
    k_ptrs = K + base + offs_n[None, :] * stride_n + offs_d[:, None]
    v_ptrs = V + base + offs_n[:, None] * stride_n + offs_d[None, :]

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    for start_n in range(0, N_CTX, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        cur_n = start_n + offs_n
        k = tl.load(k_ptrs + start_n * stride_n, mask=(cur_n < N_CTX)[None, :], other=0.0)
        qk = tl.dot(q, k)
        rel = cur_n[None, :] - offs_m[:, None]
        bucket = _relative_position_bucket(rel, NUM_BUCKETS, MAX_DISTANCE)
        bias = tl.load(Bias + bucket * H + off_h)
        qk = qk + bias
        qk = tl.where((cur_n < N_CTX)[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_ptrs + start_n * stride_n, mask=(cur_n < N_CTX)[:, None], other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij

    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * stride_n + offs_d[None, :], acc.to(Out.dtype.element_ty),
             mask=mask_m[:, None])


def make_inputs(B: int, H: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [B, N, H, 64] fp16 (q scaled by 1/sqrt(64), as T5's init folds it), the bias table [32, H] fp32."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = (torch.randn((B, N, H, D), device=device, dtype=torch.float32, generator=g) * D ** -0.5).half()
    k, v = (torch.randn((B, N, H, D), device=device, dtype=torch.float32, generator=g).half() for _ in range(2))
    bias = torch.randn((NUM_BUCKETS, H), device=device, dtype=torch.float32, generator=g)
    return {"q": q, "k": k, "v": v, "bias": bias}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out [B, N, H, 64] fp16, flattened as fp32."""
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, N, H, _ = q.shape
    o = q.new_empty(q.shape)
    grid = (triton.cdiv(N, BLOCK_M), B * H)
    _t5_attn_fwd_kernel[grid](q, k, v, inputs["bias"], o, N, H, q.stride(0), q.stride(1), q.stride(2),
                              NUM_BUCKETS=NUM_BUCKETS, MAX_DISTANCE=MAX_DISTANCE, HEAD_DIM=D, BLOCK_M=BLOCK_M,
                              BLOCK_N=BLOCK_N, num_warps=config.get("num_warps", 4),
                              num_stages=config.get("num_stages", 2))
    return o.float().flatten()


def _bucket(rel: Any) -> Any:
    """HF's ``T5Attention._relative_position_bucket(rel, bidirectional=True, 32, 128)`` (natural log in float64)."""
    import torch
    nb = NUM_BUCKETS // 2
    ret = (rel > 0).long() * nb
    n = rel.abs()
    max_exact = nb // 2
    large = max_exact + (torch.log(n.double().clamp(min=1) / max_exact) / math.log(MAX_DISTANCE / max_exact)
                         * (nb - max_exact) + 1e-9).long()        # + 1e-9: log(2^k) / log(16) * 8 exact as in base 2
    large = large.clamp(max=nb - 1)
    return ret + torch.where(n < max_exact, n, large)


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v, bias = (inputs[n] for n in ("q", "k", "v", "bias"))
    B, N, H, _ = q.shape
    i = torch.arange(N, device=q.device)
    pb = bias[_bucket(i[None, :] - i[:, None])].permute(2, 0, 1).double()     # [H, N, N]
    o = torch.empty((B, N, H, D), dtype=torch.float64, device=q.device)
    for b in range(B):
        s = torch.einsum("nhd,mhd->hnm", q[b].double(), k[b].double()) + pb
        o[b] = torch.einsum("hnm,mhd->nhd", torch.softmax(s, -1), v[b].double())
    return o.half().double().flatten()


def flops(B: int, H: int, N: int) -> float:
    return 4.0 * B * H * N * N * D
