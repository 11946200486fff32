"""flash-linear-attention's ``chunk_global_cumsum_vector_kernel`` (fla/ops/utils/cumsum.py as of fla 0.1, the
sequence-wide cumulative sum behind ``chunk_global_cumsum`` / the reversed sums of GLA's and RWKV's backward gates),
rewritten here: per (channel block, batch-head) a loop over the sequence's chunks of BT rows carrying a [BS] fp32 row
of the sums so far, ``b_z``; each chunk's cumulative sum is a DOT of a constant [BT, BT] triangular 0 / 1 matrix
built before the loop (``m_s = tl.where(o_i[:, None] <= o_i[None, :], 1., 0.)``, the reversed sum's upper triangle)
with the chunk's fp32 tile, ``tl.dot(m_s, b_s, allow_tf32=False)`` (an IEEE fp32 product), plus the carried row
broadcast over the chunk, stored through a block pointer with ``boundary_check``; the carry then grows by
``tl.sum(b_s, 0)`` under FLA's always-true ``if i_c >= 0:``. Constructs kept: ``REVERSE`` walking the chunks from
the last (``i_t = NT - 1 - i_c``), ``USE_OFFSETS`` (varlen: ``bos`` / ``eos`` loaded from ``offsets`` and ``T``
reassigned from them, so the trip count ``tl.cdiv(T, BT)`` is loaded), the heads interleaved in the rows
(``HEAD_FIRST`` False: row stride ``H * S``), ``@triton.jit(do_not_specialize=['T'])``. TWILL_SPEC takes one of its
autotune configs, {BT 64, 4 warps}, BS 64 over S = 128 channels (GLA's key width). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "chunk_global_cumsum_vector_kernel",
    "signature": {"s": "*fp32", "z": "*fp32", "offsets": "*i32", "T": "i32"},
    "constexprs": {"H": 16, "S": 128, "BT": 64, "BS": 64, "HEAD_FIRST": False, "USE_OFFSETS": True,
                   "REVERSE": True},
    "num_warps": 4, "num_stages": 1,
    "divisibility": ["s", "z", "offsets"]}
PROBLEM: dict[str, int] = {"N": 8, "T": 4096}       # 8 sequences of up to 4096 tokens, 16 heads
SMALL: dict[str, int] = {"N": 3, "T": 150}         # partial last chunks


@triton.heuristics({"USE_OFFSETS": lambda args: args["offsets"] is not None})
@triton.jit(do_not_specialize=["T"])
def chunk_global_cumsum_vector_kernel(s, z, offsets, T, H: tl.constexpr, S: tl.constexpr, BT: tl.constexpr,
                                      BS: tl.constexpr, HEAD_FIRST: tl.constexpr, USE_OFFSETS: tl.constexpr,
                                      REVERSE: tl.constexpr):
    # twill corpus rendition: z[t] = sum of s over the sequence's rows t.. (REVERSE) or ..t, chunk by chunk
    i_s, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = i_bh // H, i_bh % H
    if USE_OFFSETS:
        bos, eos = tl.load(offsets + i_b).to(tl.int32), tl.load(offsets + i_b + 1).to(tl.int32)
    else:
        bos, eos = i_b * T, i_b * T + T
    T = eos - bos

    o_i = tl.arange(0, BT)
    if REVERSE:
        m_s = tl.where(o_i[:, None] <= o_i[None, :], 1., 0.)
    else:
        m_s = tl.where(o_i[:, None] >= o_i[None, :], 1., 0.)
    b_z = tl.zeros([BS], dtype=tl.float32)
    NT = tl.cdiv(T, BT)
    for i_c in range(NT):
        i_t = NT - 1 - i_c if REVERSE else i_c
        if HEAD_FIRST:
            p_s = tl.make_block_ptr(s + i_bh * T * S, (T, S), (S, 1), (i_t * BT, i_s * BS), (BT, BS), (1, 0))
            p_z = tl.make_block_ptr(z + i_bh * T * S, (T, S), (S, 1), (i_t * BT, i_s * BS), (BT, BS), (1, 0))
        else:
            p_s = tl.make_block_ptr(s + (bos * H + i_h) * S, (T, S), (H * S, 1), (i_t * BT, i_s * BS), (BT, BS),
                                    (1, 0))
            p_z = tl.make_block_ptr(z + (bos * H + i_h) * S, (T, S), (H * S, 1), (i_t * BT, i_s * BS), (BT, BS),
                                    (1, 0))
        # [BT, BS]
        b_s = tl.load(p_s, boundary_check=(0, 1)).to(tl.float32)
        b_c = b_z[None, :] + tl.dot(m_s, b_s, allow_tf32=False)
        tl.store(p_z, b_c.to(p_z.dtype.element_ty), boundary_check=(0, 1))
        if i_c >= 0:
            b_z += tl.sum(b_s, 0)


def make_inputs(N: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """s [1, total, 16, 128] fp32 log gates (negative, as GLA's), N sequences of lengths up to T packed along the
    rows with offsets [N + 1] int32 (cu_seqlens)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = torch.randint(max(1, T // 2), T + 1, (N,), generator=g, device=device)
    lens[0] = T
    offsets = torch.zeros((N + 1,), dtype=torch.int32, device=device)
    offsets[1:] = torch.cumsum(lens, 0)
    total = int(offsets[-1])
    s = -torch.rand((1, total, 16, 128), device=device, generator=g) * 0.1
    return {"s": s, "offsets": offsets}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """chunk_global_cumsum(s, reverse=True, offsets=offsets): z [1, total, 16, 128] fp32."""
    import torch
    s, offsets = inputs["s"], inputs["offsets"]
    _, _, H, S = s.shape
    N = offsets.numel() - 1
    T = s.shape[1]
    z = torch.empty_like(s)
    BS = 64
    chunk_global_cumsum_vector_kernel[(triton.cdiv(S, BS), N * H)](
        s, z, offsets, T, H=H, S=S, BT=64, BS=BS, HEAD_FIRST=False, REVERSE=True,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 1))
    return z


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    s, offsets = inputs["s"].double(), inputs["offsets"].tolist()
    z = torch.empty_like(s)
    for b, e in zip(offsets[:-1], offsets[1:]):
        z[:, b:e] = s[:, b:e].flip(1).cumsum(1).flip(1)
    return z.float()
