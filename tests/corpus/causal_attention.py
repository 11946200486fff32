"""FlashAttention forward as Triton's tutorial 06 (3.6) writes it, causal: ``_attn_fwd`` calls the inner loop
helper twice, the off-band blocks (STAGE 1, keys before the query block, no mask) and then the on-band block
(STAGE 2, a ``tl.where`` mask on the diagonal), the running ``m_i``, ``l_i`` and ``acc`` carried from the first
loop into the second. TMA descriptors over [B*H*N, D] views, fp16, BLOCK_M = BLOCK_N = 128, D = 128, 8 warps.
STAGE = 3 is the causal launch; STAGE = 1 alone would be the non-causal one. Nothing here is imported by twill.
"""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_attn_fwd",
    "signature": {"sm_scale": "fp32", "M": "*fp32", "Z": "i32", "H": "i32",
                  "desc_q": "tensordesc<fp16[128, 128]>", "desc_k": "tensordesc<fp16[128, 128]>",
                  "desc_v": "tensordesc<fp16[128, 128]>", "desc_o": "tensordesc<fp16[128, 128]>",
                  "N_CTX": "i32", "HEAD_DIM": "constexpr", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr",
                  "STAGE": "constexpr"},
    "constexprs": {"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 128, "STAGE": 3},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N_CTX"],
}

PROBLEM: dict[str, int] = {"B": 4, "H": 32, "N": 4096, "D": 128}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 512, "D": 128}
# The problem a profile traces: one tile per program at N = 4k (B * H * N / 128 = 128 tiles), so a tile's loop
# runs up to 31 trips before the diagonal, as in PROBLEM; SMALL's tiles ran 0-3 and their gaps were its "period".
PROFILE_PROBLEM: dict[str, int] = {"B": 1, "H": 4, "N": 4096, "D": 128}


def loop_iterations(B: int, H: int, N: int, D: int = 128) -> int:
    """The most iterations a program's loops run (the last query block: N / 128 key blocks), for Proton's buffer."""
    return N // 128


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, dtype: tl.constexpr, start_m, qk_scale,
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr,
                    offs_m: tl.constexpr, offs_n: tl.constexpr, N_CTX: tl.constexpr):
    if STAGE == 1:      # off-band: the key blocks strictly before the query block
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:    # on-band: the key block on the diagonal
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:               # non-causal
        lo, hi = 0, N_CTX
    offsetk_y = offset_y + lo
    offsetv_y = offset_y + lo
    for start_n in tl.range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = desc_k.load([offsetk_y, 0]).T
        qk = tl.dot(q, k)
        if STAGE == 2:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        alpha = tl.math.exp2(m_i - m_ij)
        l_ij = tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = desc_v.load([offsetv_y, 0])
        p = p.to(dtype)
        acc = tl.dot(p, v, acc)
        l_i = l_i * alpha + l_ij
        m_i = m_ij
        offsetk_y += BLOCK_N
        offsetv_y += BLOCK_N
    return acc, l_i, m_i


@triton.jit
def _attn_fwd(sm_scale, M, Z, H, desc_q, desc_k, desc_v, desc_o, N_CTX,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr):
    dtype: tl.constexpr = tl.float16
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    offset_y = off_hz * N_CTX
    qo_offset_y = offset_y + start_m * BLOCK_M
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = desc_q.load([qo_offset_y, 0])
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, dtype, start_m, qk_scale,
                                        BLOCK_M, HEAD_DIM, BLOCK_N, 4 - STAGE, offs_m, offs_n, N_CTX)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, dtype, start_m, qk_scale,
                                        BLOCK_M, HEAD_DIM, BLOCK_N, 2, offs_m, offs_n, N_CTX)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i)
    desc_o.store([qo_offset_y, 0], acc.to(dtype))


CAUSAL = True      # the benchmark's SDPA baselines run causal too


def make_inputs(B: int, H: int, N: int, D: int = 128, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Random fp16 q, k, v of shape [B, H, N, D] and ``sm_scale = 1/sqrt(D)``."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v = (torch.randn((B, H, N, D), device=device, dtype=torch.float16, generator=g) for _ in range(3))
    return {"q": q, "k": k, "v": v, "sm_scale": 1.0 / math.sqrt(D)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The causal forward as the tutorial launches it (one program per 128-row query block and head): o [B, H, N, D]."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, H, N, D = q.shape
    o = torch.empty_like(q)
    lse2 = torch.empty((B, H, N), device=q.device, dtype=torch.float32)
    rows = B * H * N
    desc = [TensorDescriptor(t, [rows, D], [D, 1], [128, D]) for t in (q, k, v, o)]
    _attn_fwd[(N // 128, B * H, 1)](inputs["sm_scale"], lse2, B, H, *desc, N, HEAD_DIM=D, BLOCK_M=128, BLOCK_N=128,
                                    STAGE=3, num_warps=config.get("num_warps", 8),
                                    num_stages=config.get("num_stages", 3))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """softmax(sm_scale * q k^T, keys after the query masked) v in float32, one batch at a time; fp32 [B, H, N, D]."""
    import torch
    q, k, v, scale = inputs["q"], inputs["k"], inputs["v"], inputs["sm_scale"]
    n = q.shape[2]
    future = torch.triu(torch.ones((n, n), device=q.device, dtype=torch.bool), diagonal=1)
    out = torch.empty(q.shape, device=q.device, dtype=torch.float32)
    for b in range(q.shape[0]):
        s = (torch.matmul(q[b].float(), k[b].float().transpose(-1, -2)) * scale).masked_fill(future, float("-inf"))
        out[b] = torch.matmul(torch.softmax(s, dim=-1), v[b].float())
    return out


def flops(B: int, H: int, N: int, D: int = 128) -> float:
    """Floating-point operations of the causal forward as FlashAttention counts them: half the non-causal 4*N*N*D."""
    return 2.0 * B * H * N * N * D
