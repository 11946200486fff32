"""Gemma-2-style attention in Triton: head dimension 256, the scores soft-capped (``softcap * tanh(s / softcap)``,
``libdevice.tanh``), causal with a sliding window (the loop's bounds from the program id and the window, through
``tl.maximum`` / ``tl.minimum``; a masked score ``-1e6``), pointer loads of K transposed and of V, ``exp`` (not
``exp2``), bf16. Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl
from triton.language.extra import libdevice

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_softcap_fwd",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "O": "*bf16", "sm_scale": "fp32", "softcap": "fp32",
                  "N": "i32", "WINDOW": "i32"},
    "constexprs": {"D": 256, "BLOCK_M": 64, "BLOCK_N": 64}, "num_warps": 4, "num_stages": 2, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"BH": 64, "N": 8192, "WINDOW": 4096}
SMALL: dict[str, int] = {"BH": 2, "N": 400, "WINDOW": 100}


@triton.jit
def _softcap_fwd(Q, K, V, O, sm_scale, softcap, N, WINDOW, D: tl.constexpr, BLOCK_M: tl.constexpr,
                 BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    base = bh.to(tl.int64) * N * D
    q = tl.load(Q + base + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < N, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    lo = tl.maximum(0, (start_m * BLOCK_M - WINDOW) // BLOCK_N * BLOCK_N)
    hi = tl.minimum(N, (start_m + 1) * BLOCK_M)
    for start_n in range(lo, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + base + cols[None, :] * D + offs_d[:, None], mask=cols[None, :] < N, other=0.0)
        qk = tl.dot(q, k) * sm_scale
        qk = softcap * libdevice.tanh(qk / softcap)
        keep = (offs_m[:, None] >= cols[None, :]) & (offs_m[:, None] - cols[None, :] <= WINDOW) & (cols[None, :] < N)
        qk = tl.where(keep, qk, -1.0e6)      # finite, as tutorial 06's diagonal: a row with no key yet stays a number
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + base + cols[:, None] * D + offs_d[None, :], mask=cols[:, None] < N, other=0.0)
        acc = tl.dot(p.to(tl.bfloat16), v, acc)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * D + offs_d[None, :], acc.to(tl.bfloat16), mask=offs_m[:, None] < N)


def make_inputs(BH: int, N: int, WINDOW: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [BH, N, 256] bf16; softcap 50 (Gemma 2's attention cap); the window in positions."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v = (torch.randn((BH, N, 256), device=device, generator=g).bfloat16() for _ in range(3))
    return {"q": q, "k": k, "v": v, "sm_scale": 1.0 / math.sqrt(256), "softcap": 50.0, "window": WINDOW}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    BH, N, D = q.shape
    o = torch.empty_like(q)
    _softcap_fwd[(triton.cdiv(N, 64), BH)](q, k, v, o, inputs["sm_scale"], inputs["softcap"], N, inputs["window"],
                                          D=D, BLOCK_M=64, BLOCK_N=64, num_warps=config.get("num_warps", 4),
                                          num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """Soft-capped scores, causal within the window, softmax, fp32; one (batch, head) at a time."""
    import torch
    q, k, v, cap = inputs["q"], inputs["k"], inputs["v"], inputs["softcap"]
    BH, N, _ = q.shape
    i = torch.arange(N, device=q.device)
    keep = (i[:, None] >= i[None, :]) & (i[:, None] - i[None, :] <= inputs["window"])
    out = torch.empty(q.shape, device=q.device, dtype=torch.float32)
    for bh in range(BH):
        s = q[bh].float() @ k[bh].float().T * inputs["sm_scale"]
        s = torch.where(keep, cap * torch.tanh(s / cap), float("-inf"))
        out[bh] = torch.softmax(s, dim=-1) @ v[bh].float()
    return out
