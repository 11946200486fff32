"""Triton's old block-sparse matmul, "sdd" mode (triton/ops/blocksparse/matmul.py before Triton 3: ``_sdd_kernel``
launched by ``sdd_matmul`` with the look-up table ``sdd_lut`` builds from the layout, as DeepSpeed's and the Sparse
Transformer's block-sparse attention compute the scores): dense A [Z, H, M, K] times dense B (given as [Z, H, N, K],
``trans_b``) gives C only on the blocks the layout [H, M / BLOCK, N / BLOCK] keeps, stored compressed as
[Z, nnz, BLOCK, BLOCK].

The constructs, as the file writes them: ``block_id = tl.program_id(0) + grid_offset`` and ``lut += block_id * 3``,
the head, block row and block column of the output block loaded from the LUT (``off_h = tl.load(lut + 0)``, ...);
the row and column offsets ``start * BLOCK + (tl.arange(0, TILE) % BLOCK)``; the batch from ``tl.program_id(2)``;
a K loop counting *down*, ``for k in range(K, 0, -TILE_K)``, with an ``EVEN_K`` branch (unmasked loads) and a masked
one (``offs_ak < k``); ``acc += tl.dot(a, b, out_dtype=tl.float32)``; the compressed store
``C + off_z * stride_zc + block_id * stride_hc`` with ``mask=True``.

Specialisation: fp16 in and out, BLOCK = TILE_M = TILE_N = 64, TILE_K = 32 (what ``sdd_matmul`` passes), 4 warps,
4 stages, EVEN_K (K a multiple of 32), K-contiguous A and B. SMALL keeps K a multiple of TILE_K. Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_sdd_kernel",
    "signature": {"A": "*fp16", "B": "*fp16", "C": "*fp16",
                  "stride_za": "i32", "stride_ha": "i32", "stride_ma": "i32", "stride_ak": "constexpr",
                  "stride_zb": "i32", "stride_hb": "i32", "stride_bk": "constexpr", "stride_nb": "i32",
                  "stride_zc": "i32", "stride_hc": "i32", "stride_mc": "i32", "stride_nc": "constexpr",
                  "K": "i32", "grid_offset": "i32", "lut": "*i32"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_nc": 1, "TILE_M": BLOCK, "TILE_N": BLOCK,
                   "TILE_K": 32, "BLOCK": BLOCK, "EVEN_K": True},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["stride_za", "stride_ha", "stride_ma", "stride_zb", "stride_hb", "stride_nb", "stride_zc",
                     "stride_hc", "stride_mc", "K"]}
PROBLEM: dict[str, int] = {"Z": 8, "H": 16, "M": 4096, "N": 4096, "K": 128, "density": 25}
SMALL: dict[str, int] = {"Z": 2, "H": 2, "M": 256, "N": 192, "K": 96, "density": 40}


@triton.jit
def _sdd_kernel(
    A, B, C,
    stride_za, stride_ha, stride_ma, stride_ak,
    stride_zb, stride_hb, stride_bk, stride_nb,
    stride_zc, stride_hc, stride_mc, stride_nc,
    K, grid_offset, lut,
    TILE_M: tl.constexpr, TILE_N: tl.constexpr, TILE_K: tl.constexpr,
    BLOCK: tl.constexpr, EVEN_K: tl.constexpr
):
    # ------------ #
    # - Prologue - #
    # ------------ #
    block_id = tl.program_id(0) + grid_offset
    lut += block_id * 3
    # offsets
    off_z = tl.program_id(2)  # batch
    off_h = tl.load(lut + 0)  # head

    # initialize pointers to A
    start_am = tl.load(lut + 1)
    offs_am = start_am * BLOCK + (tl.arange(0, TILE_M) % BLOCK)
    offs_ak = tl.arange(0, TILE_K)
    a_ptrs = A \
        + off_z * stride_za \
        + off_h * stride_ha \
        + offs_am[:, None] * stride_ma \
        + offs_ak[None, :] * stride_ak
    # initialize pointers to B
    start_bn = tl.load(lut + 2)
    offs_bn = start_bn * BLOCK + (tl.arange(0, TILE_N) % BLOCK)
    offs_bk = tl.arange(0, TILE_K)
    b_ptrs = B \
        + off_z * stride_zb \
        + off_h * stride_hb \
        + offs_bn[None, :] * stride_nb \
        + offs_bk[:, None] * stride_bk
    # ---------------- #
    #    Inner Loop    #
    # ---------------- #
    acc = tl.zeros((TILE_M, TILE_N), dtype=tl.float32)
    for k in range(K, 0, -TILE_K):
        if EVEN_K:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        else:
            a = tl.load(a_ptrs, mask=offs_ak[None, :] < k, other=0.)
            b = tl.load(b_ptrs, mask=offs_bk[:, None] < k, other=0.)
        acc += tl.dot(a, b, out_dtype=tl.float32)
        a_ptrs += TILE_K * stride_ak
        b_ptrs += TILE_K * stride_bk
    c = acc.to(C.dtype.element_ty)
    # ---------------- #
    #    Epilogue      #
    # ---------------- #
    offs_cm = tl.arange(0, TILE_M) % BLOCK
    offs_cn = tl.arange(0, TILE_N) % BLOCK
    pc = C \
        + off_z * stride_zc \
        + block_id * stride_hc \
        + offs_cm[:, None] * stride_mc \
        + offs_cn[None, :] * stride_nc
    tl.store(pc, c, mask=True)


def sdd_lut(layout: Any, block: int, device: Any) -> tuple[Any, int]:
    """The LUT of ``sdd_lut``: one (head, block row, block column) int32 triple per non-zero block, in the layout's
    order (head-major), and the number of blocks."""
    lut = layout.nonzero(as_tuple=False).to(device).int()
    return lut.contiguous(), lut.size(0)


def sdd_matmul(a: Any, b: Any, trans_a: bool, trans_b: bool, trans_c: bool, spdims: Any, block: int, lut: Any,
               widths: int, out: Any = None, num_warps: int = 4, num_stages: int = 4) -> Any:
    """The old ``sdd_matmul`` (one width, no ``trans_a``): C [Z, nnz, block, block] of a @ b^T on the LUT's blocks."""
    import torch
    if a.stride(2) != 1 and a.stride(3) != 1:
        a = a.contiguous()
    if b.stride(2) != 1 and b.stride(3) != 1:
        b = b.contiguous()
    # (A * B)^T = B^T * A^T
    if trans_c:
        a, b = b, a
        trans_a, trans_b = not trans_b, not trans_a
    # shape constraints
    a_dim = -2 if trans_a else -1
    b_dim = -1 if trans_b else -2
    Ka, Kb = a.shape[a_dim], b.shape[b_dim]
    if Ka != Kb:
        raise ValueError(f"Inner dimension mismatch (A: {Ka} vs B: {Kb})")
    # allocate output
    if out is None:
        c = torch.empty((a.shape[0], lut.shape[0], block, block), dtype=a.dtype, device=a.device)
    else:
        assert out.shape == (a.shape[0], lut.shape[0], block, block)
        c = out
    grid = (c.shape[1], 1, c.shape[0])
    _sdd_kernel[grid](
        a, b, c,
        a.stride(0), a.stride(1), a.stride(3 if trans_a else 2), a.stride(2 if trans_a else 3),
        b.stride(0), b.stride(1), b.stride(3 if trans_b else 2), b.stride(2 if trans_b else 3),
        c.stride(0), c.stride(1), c.stride(2), c.stride(3),
        Ka, 0, lut,
        TILE_M=block, TILE_N=block, TILE_K=32, BLOCK=block, EVEN_K=Ka % 32 == 0,
        num_stages=num_stages, num_warps=num_warps,
    )
    return c


def make_inputs(Z: int, H: int, M: int, N: int, K: int, density: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """q fp16 [Z, H, M, K] and k fp16 [Z, H, N, K]; a random block layout [H, M / 64, N / 64] keeping about
    ``density`` percent of the blocks (at least one per head), and its LUT."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((Z, H, M, K), device=device, generator=g).half()
    b = (torch.randn((Z, H, N, K), device=device, generator=g) / K ** 0.5).half()
    layout = torch.rand((H, M // BLOCK, N // BLOCK), device=device, generator=g) < density / 100.0
    layout[:, 0, 0] = True
    lut, _ = sdd_lut(layout, BLOCK, device)
    return {"a": a, "b": b, "layout": layout, "lut": lut}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C [Z, nnz, 64, 64] fp16: the blocks of a @ b^T the layout keeps."""
    a, b, layout, lut = inputs["a"], inputs["b"], inputs["layout"], inputs["lut"]
    return sdd_matmul(a, b, False, True, False, layout.shape, BLOCK, lut, 1,
                      num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 4))


def reference(inputs: dict[str, Any]) -> Any:
    """a @ b^T in float64, its kept blocks gathered in the LUT's order."""
    a, b, lut = inputs["a"].double(), inputs["b"].double(), inputs["lut"].long()
    Z, H, M, K = a.shape
    N = b.shape[2]
    full = (a @ b.transpose(-1, -2)).view(Z, H, M // BLOCK, BLOCK, N // BLOCK, BLOCK).transpose(3, 4)
    return full[:, lut[:, 0], lut[:, 1], lut[:, 2]]


def flops(Z: int, H: int, M: int, N: int, K: int, density: int) -> float:
    return 2.0 * Z * H * M * N * K * density / 100.0
