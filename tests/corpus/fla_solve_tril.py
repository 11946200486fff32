"""flash-linear-attention ``solve_tril_16x16_kernel`` (fla/ops/utils/solve_tril.py's block-pointer form, rewritten
here): (I + A)^-1 of each strictly lower-triangular 16 x 16 diagonal block of A [B, T, H, BT] by forward
substitution. The loop runs row by row, ``for i in range(1, min(16, T - i_t * 16))``: a runtime bound clamped by a
constant; each iteration loads ONE row of A with a plain pointer (no mask; the bound keeps it in range),
``b_row + tl.sum(b_row[:, None] * b_inv, 0)`` (a broadcast product reduced over rows: no dot) and writes the row back into
the carried [16, 16] fp32 tile with ``tl.where(r == i, ...)``. Nothing is stored in the loop; the identity is added
and the tile stored through a block pointer with boundary_check after it. ``@triton.heuristics`` over
``@triton.autotune`` (16 configs, key BT) over ``@triton.jit(do_not_specialize=['T'])``; IS_VARLEN False
(cu_seqlens / chunk_indices passed as None). A as FLA's chunk_scaled_dot_kkt leaves it: fp32, BT = 64."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BT = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "solve_tril_16x16_kernel",
    "signature": {"A": "*fp32", "Ad": "*fp32", "cu_seqlens": "constexpr", "chunk_indices": "constexpr", "T": "i32"},
    "constexprs": {"cu_seqlens": None, "chunk_indices": None, "H": 4, "BT": BT, "IS_VARLEN": False},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["A", "Ad"]}
PROBLEM: dict[str, int] = {"B": 8, "T": 4096}
SMALL: dict[str, int] = {"B": 2, "T": 200}     # T % 16 = 8: the last block's loop stops at row 8
H = 4


@triton.heuristics({'IS_VARLEN': lambda args: args['cu_seqlens'] is not None})
@triton.autotune(
    configs=[triton.Config({}, num_warps=w, num_stages=s) for w in (1, 2, 4, 8) for s in (2, 3, 4, 5)],
    key=['BT'],
)
@triton.jit(do_not_specialize=['T'])
def solve_tril_16x16_kernel(A, Ad, cu_seqlens, chunk_indices, T, H: tl.constexpr, BT: tl.constexpr,
                            IS_VARLEN: tl.constexpr):
    # twill corpus rendition: the diagonal 16 x 16 block of (I + A), inverted row by row
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = i_bh // H, i_bh % H
    if IS_VARLEN:
        i_n = tl.load(chunk_indices + 2 * i_t).to(tl.int32)
        i_t = tl.load(chunk_indices + 2 * i_t + 1).to(tl.int32)
        bos = tl.load(cu_seqlens + i_n).to(tl.int32)
        T = tl.load(cu_seqlens + i_n + 1).to(tl.int32) - bos
    else:
        bos = i_b * T
    A += (bos * H + i_h) * BT
    Ad += (bos * H + i_h) * 16
    col0 = (i_t * 16) % BT
    r = tl.arange(0, 16)
    p_blk = tl.make_block_ptr(A, (T, BT), (H * BT, 1), (i_t * 16, col0), (16, 16), (1, 0))
    p_inv = tl.make_block_ptr(Ad, (T, 16), (H * 16, 1), (i_t * 16, 0), (16, 16), (1, 0))
    b_inv = tl.load(p_blk, boundary_check=(0, 1)).to(tl.float32)
    b_inv = -tl.where(r[:, None] > r[None, :], b_inv, 0)
    # row i of the inverse = -A[i] - sum_j A[i, j] * inv[j] for the rows j < i already solved
    for i in range(1, min(16, T - i_t * 16)):
        b_row = -tl.load(A + (i_t * 16 + i) * H * BT + col0 + r)
        b_row += tl.sum(b_row[:, None] * b_inv, 0)
        b_inv = tl.where((r == i)[:, None], b_row, b_inv)
    b_inv += r[:, None] == r[None, :]
    tl.store(p_inv, b_inv.to(p_inv.dtype.element_ty, fp_downcast_rounding="rtne"), boundary_check=(0, 1))


def make_inputs(B: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A [B, T, H, BT]: within each chunk of BT tokens, row t holds k_t . k_s * beta for s < t (strictly lower),
    small enough that (I + A) is well conditioned; zero elsewhere, as chunk_scaled_dot_kkt writes it."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((B, T, H, BT), device=device, generator=g) * 0.1
    t = torch.arange(T, device=device)
    col = torch.arange(BT, device=device)
    strictly_lower = col[None, :] < (t % BT)[:, None]                  # [T, BT]
    a = a * strictly_lower[None, :, None, :]
    return {"A": a.contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """FLA's solve_tril(A) for BT = 16 blocks: Ad [B, T, H, 16] fp32, the inverse of each diagonal 16 x 16 block
    of (I + A). The autotuner picks num_warps / num_stages (FLA passes neither)."""
    import torch
    A = inputs["A"]
    B, T, H_, BT_ = A.shape
    Ad = torch.empty(B, T, H_, 16, device=A.device, dtype=torch.float)
    NT = triton.cdiv(T, 16)
    solve_tril_16x16_kernel[NT, B * H_](A=A, Ad=Ad, cu_seqlens=None, chunk_indices=None, T=T, H=H_, BT=BT_)
    return Ad


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    A = inputs["A"].double()
    B, T, H_, BT_ = A.shape
    out = torch.zeros(B, T, H_, 16, dtype=torch.float64, device=A.device)
    for s in range(0, T, 16):
        e = min(s + 16, T)
        n = e - s
        off = s % BT_
        blk = A[:, s:e, :, off:off + n].permute(0, 2, 1, 3)          # [B, H, n, n]
        blk = torch.tril(blk, diagonal=-1)
        inv = torch.linalg.inv(torch.eye(n, dtype=blk.dtype, device=A.device) + blk)
        out[:, s:e, :, :n] = inv.permute(0, 2, 1, 3)
    return out
