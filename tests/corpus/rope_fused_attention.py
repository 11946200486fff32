"""Attention forward with rotary embeddings applied inside the kernel, as fused-RoPE attention kernels in serving and
training libraries write it: Q rotated once before the loop, each K block rotated in the loop right after its load,
by the rotate-half form written with ``tl.reshape`` to [BLOCK, 2, HEAD_DIM / 2], ``tl.permute``, ``tl.split`` into
the two halves, and ``tl.join`` + ``tl.permute`` + ``tl.reshape`` back (x1 * cos - x2 * sin, x2 * cos + x1 * sin,
cos / sin [N_CTX, HEAD_DIM / 2] fp32 gathered by position); then the online softmax (exp2, the scale folded with
log2(e)) and P @ V. Not causal; the sequence ragged (rows and keys masked). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "rope_fused_attention",
    "signature": {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "cos_ptr": "*fp32", "sin_ptr": "*fp32",
                  "o_ptr": "*fp16", "sm_scale": "fp32", "N_CTX": "i32"},
    "constexprs": {"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64}, "num_warps": 8, "num_stages": 3,
    "divisibility": ["q_ptr", "k_ptr", "v_ptr", "cos_ptr", "sin_ptr", "o_ptr"]}
PROBLEM: dict[str, int] = {"BH": 32, "N_CTX": 4096}
SMALL: dict[str, int] = {"BH": 3, "N_CTX": 1000}      # ragged: rows and keys past N_CTX masked


@triton.jit
def _rotate(x, cos, sin, BLOCK: tl.constexpr, HEAD_DIM: tl.constexpr):
    """rotate-half RoPE of a [BLOCK, HEAD_DIM] tile: (x1, x2) -> (x1 cos - x2 sin, x2 cos + x1 sin)."""
    x1, x2 = tl.split(tl.permute(tl.reshape(x, (BLOCK, 2, HEAD_DIM // 2)), (0, 2, 1)))
    y = tl.join(x1 * cos - x2 * sin, x2 * cos + x1 * sin)
    return tl.reshape(tl.permute(y, (0, 2, 1)), (BLOCK, HEAD_DIM))


@triton.jit
def rope_fused_attention(q_ptr, k_ptr, v_ptr, cos_ptr, sin_ptr, o_ptr, sm_scale, N_CTX, HEAD_DIM: tl.constexpr,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    HALF: tl.constexpr = HEAD_DIM // 2
    start_m = tl.program_id(0)
    base = tl.program_id(1).to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_h = tl.arange(0, HALF)
    m_mask = offs_m < N_CTX
    q = tl.load(q_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=m_mask[:, None], other=0.0)
    cq = tl.load(cos_ptr + offs_m[:, None] * HALF + offs_h[None, :], mask=m_mask[:, None], other=0.0)
    sq = tl.load(sin_ptr + offs_m[:, None] * HALF + offs_h[None, :], mask=m_mask[:, None], other=0.0)
    q = _rotate(q, cq, sq, BLOCK_M, HEAD_DIM).to(tl.float16)
    qk_scale = sm_scale * 1.44269504
    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    for start_n in range(0, N_CTX, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        n_mask = offs_n < N_CTX
        k = tl.load(k_ptr + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=n_mask[:, None], other=0.0)
        ck = tl.load(cos_ptr + offs_n[:, None] * HALF + offs_h[None, :], mask=n_mask[:, None], other=0.0)
        sk = tl.load(sin_ptr + offs_n[:, None] * HALF + offs_h[None, :], mask=n_mask[:, None], other=0.0)
        k = _rotate(k, ck, sk, BLOCK_N, HEAD_DIM).to(tl.float16)
        qk = tl.dot(q, tl.trans(k)) * qk_scale
        qk = tl.where(n_mask[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=n_mask[:, None], other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(tl.float16), mask=m_mask[:, None])


def make_inputs(BH: int, N_CTX: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [BH, N_CTX, 64] fp16; cos / sin [N_CTX, 32] of the positions times the usual inverse frequencies."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    inv = 1.0 / (10000.0 ** (torch.arange(0, 64, 2, device=device, dtype=torch.float32) / 64))
    ang = torch.arange(N_CTX, device=device, dtype=torch.float32)[:, None] * inv[None, :]
    q, k, v = (torch.randn((BH, N_CTX, 64), device=device, dtype=torch.float16, generator=g) for _ in range(3))
    return {"q": q, "k": k, "v": v, "cos": ang.cos().contiguous(), "sin": ang.sin().contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    q = inputs["q"]
    BH, N_CTX, _ = q.shape
    o = torch.empty_like(q)
    rope_fused_attention[(triton.cdiv(N_CTX, 128), BH)](
        q, inputs["k"], inputs["v"], inputs["cos"], inputs["sin"], o, 0.125, N_CTX, HEAD_DIM=64, BLOCK_M=128,
        BLOCK_N=64, num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return o


def _rope(x: Any, cos: Any, sin: Any) -> Any:
    x1, x2 = x.float().chunk(2, dim=-1)
    return __import__("torch").cat([x1 * cos - x2 * sin, x2 * cos + x1 * sin], dim=-1).half().float()


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q = _rope(inputs["q"], inputs["cos"], inputs["sin"])
    k = _rope(inputs["k"], inputs["cos"], inputs["sin"])
    return torch.softmax(q @ k.transpose(1, 2) * 0.125, dim=-1) @ inputs["v"].float()


def flops(BH: int, N_CTX: int) -> float:
    return 4.0 * BH * N_CTX * N_CTX * 64
