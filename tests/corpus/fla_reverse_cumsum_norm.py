"""Reverse (suffix) cumulative sums over time, in the style of flash-linear-attention's
``chunk_global_cumsum_vector_kernel`` with ``reverse=True`` (rewritten here): one program per (batch, feature
block) walks the time axis **backwards** with block pointers started at the last chunk and moved by
``tl.advance(p, (-BT, 0))`` each step; inside a chunk the suffix sum is ``tl.flip(tl.cumsum(tl.flip(b, 0), 0), 0)``
plus the running total of the later chunks (carried over the loop, added to after the chunk); a second output, the
suffix root-sum-of-squares, carried the same way and rounded with ``tl.sqrt_rn`` (IEEE square root, not the fast
approximation). The ragged first chunk read with ``boundary_check=(0, 1)`` and ``padding_option="zero"`` (zeros at
the end of the flipped chunk add nothing). fp32 in and out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_reverse_cumsum_norm",
    "signature": {"S": "*fp32", "Z": "*fp32", "R": "*fp32", "T": "i32", "D": "i32"},
    "constexprs": {"BT": 64, "BD": 64}, "num_warps": 4, "num_stages": 2,
    "divisibility": ["S", "Z", "R", "T", "D"]}
PROBLEM: dict[str, int] = {"B": 64, "T": 8192, "D": 256}
SMALL: dict[str, int] = {"B": 2, "T": 300, "D": 96}     # 300 = 4 * 64 + 44: the ragged chunk is the first read


@triton.jit
def _reverse_cumsum_norm(S, Z, R, T, D, BT: tl.constexpr, BD: tl.constexpr):
    i_d, i_b = tl.program_id(0), tl.program_id(1)
    base = i_b.to(tl.int64) * T * D
    n_chunks = tl.cdiv(T, BT)
    last = (n_chunks - 1) * BT
    p_s = tl.make_block_ptr(S + base, (T, D), (D, 1), (last, i_d * BD), (BT, BD), (1, 0))
    p_z = tl.make_block_ptr(Z + base, (T, D), (D, 1), (last, i_d * BD), (BT, BD), (1, 0))
    p_r = tl.make_block_ptr(R + base, (T, D), (D, 1), (last, i_d * BD), (BT, BD), (1, 0))
    b_z = tl.zeros([BD], dtype=tl.float32)
    b_q = tl.zeros([BD], dtype=tl.float32)
    for _ in range(n_chunks):
        b_s = tl.load(p_s, boundary_check=(0, 1), padding_option="zero")
        b_c = tl.flip(tl.cumsum(tl.flip(b_s, 0), axis=0), 0) + b_z[None, :]
        b_sq = tl.flip(tl.cumsum(tl.flip(b_s * b_s, 0), axis=0), 0) + b_q[None, :]
        tl.store(p_z, b_c, boundary_check=(0, 1))
        tl.store(p_r, tl.sqrt_rn(b_sq), boundary_check=(0, 1))
        b_z += tl.sum(b_s, axis=0)
        b_q += tl.sum(b_s * b_s, axis=0)
        p_s = tl.advance(p_s, (-BT, 0))
        p_z = tl.advance(p_z, (-BT, 0))
        p_r = tl.advance(p_r, (-BT, 0))


def make_inputs(B: int, T: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"s": torch.randn((B, T, D), device=device, generator=g)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(suffix sums fp32 [B, T, D], suffix root-sum-of-squares fp32 [B, T, D]); a program per (feature block,
    batch)."""
    import torch
    s = inputs["s"]
    B, T, D = s.shape
    z = torch.full_like(s, float("nan"))
    r = torch.full_like(s, float("nan"))
    _reverse_cumsum_norm[(triton.cdiv(D, 64), B)](s, z, r, T, D, BT=64, BD=64, num_warps=config.get("num_warps", 4),
                                                  num_stages=config.get("num_stages", 2))
    return z, r


def reference(inputs: dict[str, Any]) -> Any:
    """Suffix sums in double: a flip, a cumsum, a flip."""
    import torch
    s = inputs["s"].double()
    z = s.flip(1).cumsum(1).flip(1)
    return z, (s * s).flip(1).cumsum(1).flip(1).sqrt()
