"""Liger-Kernel's softmax for rows wider than one block (linkedin/Liger-Kernel src/liger_kernel/ops/softmax.py,
``_softmax_multi_block_forward_kernel``, launched by ``_softmax_forward`` when n_cols > MAX_FUSED_SIZE = 65536,
with ``calculate_settings(65536)``: BLOCK_SIZE 65536, 32 warps; one program per row).

The constructs: **two sibling loops** ``for start in tl.range(0, n_cols, BLOCK_SIZE)`` over the same row: the
first an online max / sum with **two rank-0 carries initialised from Python literals** (``m = -float("inf")``,
``d = 0.0``; ``d = d * tl.exp(m - new_m) + tl.sum(tl.exp(xblk - new_m))``), whose results the second loop reads
to normalise and store; loads with ``cache_modifier=".ca"`` and ``other=-float("inf")``, the store with
``cache_modifier=".cs"``; int64 row offsets (``tl.program_id(0).to(tl.int64)``); a 65536-element block (64 fp32
values a thread at 32 warps). A vocabulary-wide softmax: 1024 rows of Llama-3's 128256 logits, fp32.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_softmax_multi_block_forward_kernel",
    "signature": {"Y_ptr": "*fp32", "Y_row_stride": "i32", "X_ptr": "*fp32", "X_row_stride": "i32",
                  "n_cols": "i32"},
    "constexprs": {"BLOCK_SIZE": MAX_FUSED_SIZE},
    "num_warps": 32, "num_stages": 3,
    "divisibility": ["Y_row_stride", "X_row_stride", "n_cols"]}      # 128256 = 16 * 8016
PROBLEM: dict[str, int] = {"n_rows": 1024, "n_cols": 128256}
SMALL: dict[str, int] = {"n_rows": 3, "n_cols": 140000}              # three blocks, the last partial


@triton.jit
def _softmax_multi_block_forward_kernel(
    Y_ptr,
    Y_row_stride,
    X_ptr,
    X_row_stride,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row_id = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK_SIZE)

    m = -float("inf")
    d = 0.0
    for start in tl.range(0, n_cols, BLOCK_SIZE):
        idx = start + offs
        mask = idx < n_cols
        xblk = tl.load(X_ptr + row_id * X_row_stride + idx, mask=mask, other=-float("inf"), cache_modifier=".ca")
        blk_max = tl.max(xblk, axis=0)
        new_m = tl.maximum(m, blk_max)
        d = d * tl.exp(m - new_m) + tl.sum(tl.exp(xblk - new_m), axis=0)
        m = new_m

    for start in tl.range(0, n_cols, BLOCK_SIZE):
        idx = start + offs
        mask = idx < n_cols
        xblk = tl.load(X_ptr + row_id * X_row_stride + idx, mask=mask, other=-float("inf"), cache_modifier=".ca")
        yblk = tl.exp(xblk - m) / d
        tl.store(Y_ptr + row_id * Y_row_stride + idx, yblk, mask=mask, cache_modifier=".cs")


def make_inputs(n_rows: int, n_cols: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """fp32 logits [n_rows, n_cols], randn * 4."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((n_rows, n_cols), device=device, generator=g) * 4}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Y = softmax(X, -1), one program per row (``_softmax_forward``'s multi-block branch)."""
    import torch
    x2d = inputs["x"].contiguous()
    n_rows, n_cols = x2d.shape
    y2d = torch.empty_like(x2d)
    _softmax_multi_block_forward_kernel[(n_rows,)](
        y2d, y2d.stride(0), x2d, x2d.stride(0), n_cols, BLOCK_SIZE=MAX_FUSED_SIZE,
        num_warps=config.get("num_warps", 32))
    return y2d


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    return torch.softmax(inputs["x"].double(), dim=-1).float()


def flops(n_rows: int, n_cols: int) -> float:
    """Two exps, a max, a sum, a subtract and a divide an element over the two passes: about 6 * n_rows * n_cols."""
    return 6.0 * n_rows * n_cols
