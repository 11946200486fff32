"""A row's maximum in one pass, then a loop over channels (a runtime count) around the pass that writes each channel's
row as x - max + c (``count_then_channel_nest.py`` without its counter). The constructs: a loop beside the kernel's
own tile loop, before it (each partition computes it again for every channel: pure, so correct); a replay of the nest
at the simulated sizes that runs past the simulation's cap (its prediction then none, not an internal error). Written
for the tests in the style of a normalisation's two passes; nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "max_then_channel_nest",
    "signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "C": "i32", "N": "i32"},
    "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 2, "divisibility": ["x_ptr", "y_ptr", "N"]}
PROBLEM: dict[str, int] = {"R": 64, "C": 8, "N": 65536}
SMALL: dict[str, int] = {"R": 3, "C": 2, "N": 3000}


@triton.jit
def max_then_channel_nest(x_ptr, y_ptr, C, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * N
    m = 0.0
    for start in range(0, N, BLOCK):
        cols = start + offs
        m = tl.maximum(m, tl.max(tl.load(base + cols, mask=cols < N, other=0.0), 0))
    for c in range(0, C):
        out = y_ptr + (row * C + c).to(tl.int64) * N
        for start in range(0, N, BLOCK):
            cols = start + offs
            x = tl.load(base + cols, mask=cols < N, other=0.0)
            tl.store(out + cols, x - m + c, mask=cols < N)


def make_inputs(R: int, C: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, generator=g), "C": C}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y [R, C, N]."""
    import torch
    x, C = inputs["x"], inputs["C"]
    R, N = x.shape
    y = torch.empty((R, C, N), device=x.device, dtype=torch.float32)
    max_then_channel_nest[(R,)](x, y, C, N, BLOCK=1024, num_warps=config.get("num_warps", 4),
                                  num_stages=config.get("num_stages", 2))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, C = inputs["x"], inputs["C"]
    m = torch.clamp(x.max(dim=1, keepdim=True).values, min=0.0)
    c = torch.arange(C, device=x.device, dtype=torch.float32)[None, :, None]
    return x[:, None, :] - m[:, None, :] + c


def flops(R: int, C: int, N: int) -> float:
    """Two adds an output element: memory-bound."""
    return 2.0 * R * C * N
