"""Scores computed once before the loop and reused by every iteration: a chunk's causal ``q @ k^T`` (**a wgmma before
the scheduled loop**, its operands loaded through pointers and put in shared memory) cast to fp16, then a loop
multiplying it by each block of V (a register A operand the loop reads, and a TMA-less B tile). o = tril(q k^T) @
sum_j v_j. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"kernel": "prefix_scores",
                              "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16", "T": "i32"},
                              "constexprs": {"BT": 64, "D": 64}, "num_warps": 4, "num_stages": 2,
                              "divisibility": ["T"]}
PROBLEM: dict[str, int] = {"T": 8192}
SMALL: dict[str, int] = {"T": 256}


@triton.jit
def prefix_scores(q, k, v, o, T, BT: tl.constexpr, D: tl.constexpr):
    i_t = tl.program_id(0)
    rows = i_t * BT + tl.arange(0, BT)
    cols = tl.arange(0, D)
    b_q = tl.load(q + rows[:, None] * D + cols[None, :])
    b_k = tl.load(k + rows[:, None] * D + cols[None, :])
    b_A = tl.dot(b_q, tl.trans(b_k))
    b_A = tl.where(rows[:, None] >= rows[None, :], b_A, 0.0).to(tl.float16)
    b_o = tl.zeros([BT, D], dtype=tl.float32)
    for j in range(0, T, BT):
        b_v = tl.load(v + (j + tl.arange(0, BT))[:, None] * D + cols[None, :])
        b_o += tl.dot(b_A, b_v)
    tl.store(o + rows[:, None] * D + cols[None, :], b_o.to(tl.float16))


def make_inputs(T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k = ((torch.randn((T, 64), device=device, generator=g) / 8).half() for _ in range(2))
    v = (torch.randn((T, 64), device=device, generator=g) / (T / 64) ** 0.5).half()
    return {"q": q, "k": k, "v": v}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    T = q.shape[0]
    o = torch.empty_like(q)
    prefix_scores[(T // 64,)](q, k, v, o, T, BT=64, D=64, num_warps=config.get("num_warps", 4),
                              num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = (inputs[n].float() for n in "qkv")
    T = q.shape[0]
    a = torch.einsum("nid,njd->nij", q.view(-1, 64, 64), k.view(-1, 64, 64)) * torch.ones(64, 64, device=q.device).tril()
    vs = v.view(-1, 64, 64).sum(dim=0)
    return torch.einsum("nij,jd->nid", a.half().float(), vs).reshape(T, 64)
