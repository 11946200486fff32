"""Unsigned keys through a scan and a reduction, in the style of routing and hashing kernels: each program takes
BLOCK_M rows of uint32 keys X [n_rows, n_cols] in BLOCK_N-wide column blocks, stores each block's running maximum
along the row (``tl.associative_scan`` with ``tl.maximum``: a ``tt.scan`` whose combiner is ``arith.maxui``) and
carries the row's maximum over the blocks (``tl.max``: a ``tt.reduce`` of ``arith.maxui``, then ``tl.maximum``).
Half the keys have their top bit set: read as signed, they would be the smallest.

Y: each block's row-wise running max (uint32 as int64 here), Z: each row's max. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "uint_scan_max",
    "signature": {"X": "*u32", "Y": "*u32", "Z": "*u32", "n_rows": "i32", "n_cols": "i32"},
    "constexprs": {"BLOCK_M": 32, "BLOCK_N": 64},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["X", "Y", "Z", "n_cols"]}
PROBLEM: dict[str, int] = {"n_rows": 8192, "n_cols": 4096}
SMALL: dict[str, int] = {"n_rows": 70, "n_cols": 512}


@triton.jit
def _umax(a, b):
    return tl.maximum(a, b)


@triton.jit
def uint_scan_max(X, Y, Z, n_rows, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    offs_m = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    mask_m = offs_m[:, None] < n_rows
    best = tl.zeros([BLOCK_M], tl.uint32)
    for j in range(0, n_cols, BLOCK_N):
        x = tl.load(X + offs_m[:, None] * n_cols + j + offs_n[None, :], mask=mask_m, other=0)
        tl.store(Y + offs_m[:, None] * n_cols + j + offs_n[None, :], tl.associative_scan(x, 1, _umax), mask=mask_m)
        best = tl.maximum(best, tl.max(x, axis=1))
    tl.store(Z + offs_m, best, mask=offs_m < n_rows)


def make_inputs(n_rows: int, n_cols: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randint(-2 ** 31, 2 ** 31 - 1, (n_rows, n_cols), generator=g, device=device, dtype=torch.int32)
    return {"x": x}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(Y, Z) as int64 of their uint32 values."""
    import torch
    x = inputs["x"]
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    z = torch.empty((n_rows,), device=x.device, dtype=torch.int32)
    uint_scan_max[(triton.cdiv(n_rows, 32),)](x.view(torch.uint32), y.view(torch.uint32), z.view(torch.uint32),
                                             n_rows, n_cols, BLOCK_M=32, BLOCK_N=64,
                                             num_warps=config.get("num_warps", 4),
                                             num_stages=config.get("num_stages", 3))
    return (y.long() & 0xFFFFFFFF).float(), (z.long() & 0xFFFFFFFF).float()


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].long() & 0xFFFFFFFF
    n_rows, n_cols = x.shape
    y = torch.cummax(x.view(n_rows, n_cols // 64, 64), dim=2).values.view(n_rows, n_cols)
    return y.float(), x.max(dim=1).values.float()
