"""A row's running sum over blocks, as scan kernels write a long ``torch.cumsum`` (FlagGems-style): each block's
``tl.cumsum`` (``tt.scan`` in TTGIR) plus the sum of the blocks before it, carried as a scalar, stored block by
block. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32"},
                              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3,
                              "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 8192}
SMALL: dict[str, int] = {"R": 8, "N": 3000}          # a partial last block


@triton.jit
def cumsum_rows(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    carry = 0.0
    offs = tl.arange(0, BLOCK)
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + start + offs, mask=start + offs < N, other=0.0)
        y = tl.cumsum(x, 0) + carry
        tl.store(y_ptr + row * N + start + offs, y, mask=start + offs < N)
        carry += tl.sum(x, 0)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, dtype=torch.float32, generator=g)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Each row's running sum, fp32 [R, N], one program per row."""
    import torch
    x = inputs["x"]
    y = torch.full_like(x, float("nan"))
    cumsum_rows[(x.shape[0],)](x, y, x.shape[1], BLOCK=1024, num_warps=config.get("num_warps", 4),
                               num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["x"].double().cumsum(dim=1)
