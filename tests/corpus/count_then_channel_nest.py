"""A row's maximum in one pass, then a loop over channels (a runtime count) around the pass that writes each channel's
row as x - max + c; a per-row counter bumped by ``tl.atomic_add`` before the channel loop (a launch counter, as
kernels keep for their host's bookkeeping). The constructs: a loop beside the kernel's own tile loop, before it; an
atomic between the kernel's entry and its tile loop, which must run once a program, not once a channel (the Gluon
kernel had written it in the tile loop's body; now in the kernel before the partitions). Written for the tests in the
style of a normalisation's two passes; nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "count_then_channel_nest",
    "signature": {"x_ptr": "*fp32", "cnt_ptr": "*i32", "y_ptr": "*fp32", "C": "i32", "N": "i32"},
    "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 2, "divisibility": ["x_ptr", "y_ptr", "N"]}
PROBLEM: dict[str, int] = {"R": 64, "C": 8, "N": 65536}
SMALL: dict[str, int] = {"R": 3, "C": 2, "N": 3000}


@triton.jit
def count_then_channel_nest(x_ptr, cnt_ptr, y_ptr, C, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    base = x_ptr + row.to(tl.int64) * N
    tl.atomic_add(cnt_ptr + row, 1)
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
    """(y [R, C, N], the per-row counter [R])."""
    import torch
    x, C = inputs["x"], inputs["C"]
    R, N = x.shape
    y = torch.empty((R, C, N), device=x.device, dtype=torch.float32)
    cnt = torch.zeros((R,), device=x.device, dtype=torch.int32)
    count_then_channel_nest[(R,)](x, cnt, y, C, N, BLOCK=1024, num_warps=config.get("num_warps", 4),
                                  num_stages=config.get("num_stages", 2))
    return y, cnt


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, C = inputs["x"], inputs["C"]
    m = torch.clamp(x.max(dim=1, keepdim=True).values, min=0.0)
    c = torch.arange(C, device=x.device, dtype=torch.float32)[None, :, None]
    return (x[:, None, :] - m[:, None, :] + c), torch.ones((x.shape[0],), device=x.device, dtype=torch.int32)


def flops(R: int, C: int, N: int) -> float:
    """Two adds an output element: memory-bound."""
    return 2.0 * R * C * N
