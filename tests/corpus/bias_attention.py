"""Attention with an additive bias matrix loaded every iteration (T5-style relative position bias, or a full
attention mask materialised as [BH, N, N] fp16, as FlashAttention-2's Triton kernel's ``BIAS_TYPE == "matrix"``):
a third pointer tile beside K and V, [BLOCK_M, BLOCK_N] rows of the query block, added to the scaled scores before
the online softmax; D = 64. The rows are independent, so twill may split the block, and the bias tile with it, between
two consumers. Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "attn_bias",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "B": "*fp16", "O": "*fp16", "sm_scale": "fp32",
                  "N": "i32"},
    "constexprs": {"D": 64, "BLOCK_M": 128, "BLOCK_N": 64}, "num_warps": 8, "num_stages": 2, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"BH": 32, "N": 4096}
SMALL: dict[str, int] = {"BH": 2, "N": 256}


@triton.jit
def attn_bias(Q, K, V, B, O, sm_scale, N, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + bh * N * D + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    for start_n in range(0, N, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + bh * N * D + cols[None, :] * D + offs_d[:, None])
        bias = tl.load(B + bh * N * N + offs_m[:, None] * N + cols[None, :]).to(tl.float32)
        qk = tl.dot(q, k) * sm_scale + bias
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + bh * N * D + cols[:, None] * D + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + bh * N * D + offs_m[:, None] * D + offs_d[None, :], acc.to(tl.float16))


def make_inputs(BH: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [BH, N, 64] fp16; the bias [BH, N, N] fp16 (normal, std 2)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v = (torch.randn((BH, N, 64), device=device, generator=g).half() for _ in range(3))
    bias = (torch.randn((BH, N, N), device=device, generator=g) * 2).half()
    return {"q": q, "k": k, "v": v, "bias": bias, "sm_scale": 1.0 / math.sqrt(64)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    q = inputs["q"]
    BH, N, D = q.shape
    o = torch.empty_like(q)
    attn_bias[(N // 128, BH)](q, inputs["k"], inputs["v"], inputs["bias"], o, inputs["sm_scale"], N, D=D,
                              BLOCK_M=128, BLOCK_N=64, num_warps=config.get("num_warps", 8),
                              num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """softmax(q k^T * scale + bias) v in fp32, one (batch, head) at a time."""
    import torch
    q, k, v, b = inputs["q"], inputs["k"], inputs["v"], inputs["bias"]
    out = torch.empty(q.shape, device=q.device, dtype=torch.float32)
    for bh in range(q.shape[0]):
        s = q[bh].float() @ k[bh].float().T * inputs["sm_scale"] + b[bh].float()
        out[bh] = torch.softmax(s, dim=-1) @ v[bh].float()
    return out


def flops(BH: int, N: int) -> float:
    return 4.0 * BH * N * N * 64
