"""``pointer_attention.py`` with square blocks (BLOCK_M == BLOCK_N == 128, 8 warps), as Tri Dao's flash_attn_triton
launches its forward: Triton's CSE makes the query rows' ``tl.arange`` and the key block's one value, and the head
dimension's offsets widened to 128 rows one broadcast that the query's and the key's addresses share. Read as
written, those tie the rows to the keys the loop contracts over, and twill kept the 128 rows on one consumer; a copy
per reader (``codegen.gluon.plain.distinct_ranges``) leaves them independent, split between two consumers. Nothing
here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "O": "*fp16", "N": "i32", "sm_scale": "fp32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "D": 64}, "num_warps": 8, "num_stages": 2, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 32, "N": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 256}


@triton.jit
def attn_fwd_ptr(Q, K, V, O, N, sm_scale, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    pid = tl.program_id(0)
    bh = tl.program_id(1)
    offs_m = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    base = bh * N * D
    q = tl.load(Q + base + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    for start_n in tl.range(0, N, BLOCK_N):
        k = tl.load(K + base + (start_n + offs_n)[:, None] * D + offs_d[None, :])
        v = tl.load(V + base + (start_n + offs_n)[:, None] * D + offs_d[None, :])
        s = tl.dot(q, tl.trans(k)) * sm_scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(O + base + offs_m[:, None] * D + offs_d[None, :], (acc / l_i[:, None]).to(tl.float16))


def make_inputs(B: int, H: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    shape = (B, H, N, 64)
    return {name: torch.randn(shape, device=device, dtype=torch.float16, generator=g) for name in ("q", "k", "v")}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """softmax(Q K^T / sqrt(D)) V, fp16 [B, H, N, 64], one program per (128 query rows, head)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, H, N, D = q.shape
    o = torch.full_like(q, float("nan"))
    attn_fwd_ptr[(triton.cdiv(N, 128), B * H)](q, k, v, o, N, D ** -0.5, BLOCK_M=128, BLOCK_N=128, D=64,
                                               num_warps=config.get("num_warps", 8),
                                               num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = (inputs[n].double() for n in ("q", "k", "v"))
    return torch.softmax(q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5, dim=-1) @ v


def flops(B: int, H: int, N: int) -> float:
    return 4.0 * B * H * N * N * 64
