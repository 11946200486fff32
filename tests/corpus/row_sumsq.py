"""A row's sum of squares, as norm kernels start: a store before the loop (the row's element count, written
first: side effects before the scheduled loop), then ``acc += x * x`` (one value read twice by one op,
``arith.mulf %x, %x``), then the row's result stored. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "count_ptr": "*i32", "N": "i32"},
                              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3,
                              "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 8192}
SMALL: dict[str, int] = {"R": 8, "N": 1000}


@triton.jit
def row_sumsq(x_ptr, y_ptr, count_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    tl.store(count_ptr + row, N)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + start + offs, mask=start + offs < N, other=0.0)
        acc += x * x
    tl.store(y_ptr + row, tl.sum(acc, 0))


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, dtype=torch.float32, generator=g)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[sum of squares of each row, then its length], fp32 [2R], one program per row."""
    import torch
    x = inputs["x"]
    R, N = x.shape
    y = torch.empty((R,), device=x.device, dtype=torch.float32)
    count = torch.empty((R,), device=x.device, dtype=torch.int32)
    row_sumsq[(R,)](x, y, count, N, BLOCK=1024, num_warps=config.get("num_warps", 4),
                    num_stages=config.get("num_stages", 3))
    return torch.cat([y, count.float()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].double()
    return torch.cat([(x * x).sum(dim=1), torch.full((x.shape[0],), float(x.shape[1]), dtype=torch.float64,
                                                      device=x.device)])
