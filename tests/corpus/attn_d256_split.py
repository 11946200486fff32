"""Attention forward at head dimension 256 written as two 128-wide halves, as libraries do where one 256-wide tile
does not fit (Gemma's D=256): per key block, QK^T summed over the two Q/K halves (a tl.static_range(2) loop of dots
inside the key loop), online softmax, then P @ V into two accumulators, one per V half. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16",
                                            "N": "i32", "sm_scale": "fp32"},
                              "constexprs": {"BLOCK_M": 64, "BLOCK_N": 64, "HALF": 128}, "num_warps": 4,
                              "num_stages": 2, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"BH": 64, "N": 4096}
SMALL: dict[str, int] = {"BH": 2, "N": 256}


@triton.jit
def attn_d256(q_ptr, k_ptr, v_ptr, o_ptr, N, sm_scale, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              HALF: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * N * (2 * HALF)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    rd = tl.arange(0, HALF)
    q0 = tl.load(q_ptr + base + rm[:, None] * (2 * HALF) + rd[None, :])
    q1 = tl.load(q_ptr + base + rm[:, None] * (2 * HALF) + HALF + rd[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc0 = tl.zeros([BLOCK_M, HALF], tl.float32)
    acc1 = tl.zeros([BLOCK_M, HALF], tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start in range(0, N, BLOCK_N):
        kv = base + (start + rn)[:, None] * (2 * HALF)
        qk = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
        for h in tl.static_range(2):
            k = tl.load(k_ptr + kv + h * HALF + rd[None, :])
            qk = tl.dot(q0 if h == 0 else q1, tl.trans(k), qk)
        m_new = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v0 = tl.load(v_ptr + kv + rd[None, :])
        v1 = tl.load(v_ptr + kv + HALF + rd[None, :])
        pf = p.to(tl.float16)
        acc0 = tl.dot(pf, v0, acc0 * alpha[:, None])
        acc1 = tl.dot(pf, v1, acc1 * alpha[:, None])
        m_i = m_new
    out = o_ptr + base + rm[:, None] * (2 * HALF)
    tl.store(out + rd[None, :], (acc0 / l_i[:, None]).to(tl.float16))
    tl.store(out + HALF + rd[None, :], (acc1 / l_i[:, None]).to(tl.float16))


def make_inputs(BH: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {k: torch.randn((BH, N, 256), device=device, dtype=torch.float16, generator=g) for k in ("q", "k", "v")}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """softmax(Q K^T / 16) V, fp16 [BH, N, 256]."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    BH, N, _ = q.shape
    o = torch.empty_like(q)
    attn_d256[(N // 64, BH)](q, k, v, o, N, 1 / 16, BLOCK_M=64, BLOCK_N=64, HALF=128,
                             num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = (inputs[n].double() for n in ("q", "k", "v"))
    return torch.softmax(q @ k.transpose(1, 2) / 16, dim=-1) @ v
