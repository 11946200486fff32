"""Causal attention forward through pointers with the causal mask applied only where a key block crosses the
diagonal: a runtime ``if`` inside the main loop (``if start_n + BLOCK_N > start_m * BLOCK_M:``), as kernels do that
keep one loop over the keys instead of splitting off the diagonal blocks (prefix-prefill and sliding-window kernels,
older FlashAttention ports); the online softmax in natural exp, Q held in shared memory for the loop. Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "O": "*fp16", "N": "i32", "sm_scale": "fp32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 64, "D": 64}, "num_warps": 8, "num_stages": 3, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 32, "N": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 384}


@triton.jit
def attn_fwd_diagonal(Q, K, V, O, N, sm_scale, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    base = bh * N * D
    q = tl.load(Q + base + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    hi = (start_m + 1) * BLOCK_M
    for start_n in range(0, hi, BLOCK_N):
        k = tl.load(K + base + (start_n + offs_n)[None, :] * D + offs_d[:, None])
        qk = tl.dot(q, k) * sm_scale
        if start_n + BLOCK_N > start_m * BLOCK_M:
            qk = tl.where(offs_m[:, None] >= (start_n + offs_n[None, :]), qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V + base + (start_n + offs_n)[:, None] * D + offs_d[None, :])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * D + offs_d[None, :], acc.to(tl.float16))


def make_inputs(B: int, H: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    shape = (B, H, N, 64)
    return {name: torch.randn(shape, device=device, dtype=torch.float16, generator=g) for name in ("q", "k", "v")}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Causal softmax(Q K^T / sqrt(D)) V, fp16 [B, H, N, 64], one program per (128 query rows, head)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, H, N, D = q.shape
    o = torch.full_like(q, float("nan"))
    attn_fwd_diagonal[(triton.cdiv(N, 128), B * H)](q, k, v, o, N, D ** -0.5, BLOCK_M=128, BLOCK_N=64, D=64,
                                                    num_warps=config.get("num_warps", 8),
                                                    num_stages=config.get("num_stages", 3))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = (inputs[n].double() for n in ("q", "k", "v"))
    n = q.shape[-2]
    s = q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5
    s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=s.device).triu(1), float("-inf"))
    return torch.softmax(s, dim=-1) @ v


def flops(B: int, H: int, N: int) -> float:
    return 2.0 * B * H * N * N * 64
