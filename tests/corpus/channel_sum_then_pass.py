"""A row's channels summed block by block into a carried tile over a runtime channel count (the kernel's own tile loop
around the scheduled pass), a per-row counter bumped once a channel (``tl.atomic_add`` in the tile loop's body), the
tile stored after the nest; then a lighter pass over the row's first channel after it (its sum stored). The
constructs: an atomic in the body of the loop around the scheduled loop (once per tile: right); a loop of tiles after
the kernel's own tile loop, which the back end would pipeline inside each tile and whose result it read after the nest
(it had said "reached an operand it has not defined"): refused in one line. Written for the tests in the style of a
group norm's statistics; nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "channel_sum_then_pass",
    "signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "s_ptr": "*fp32", "C": "i32", "N": "i32"},
    "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 2, "divisibility": ["x_ptr", "y_ptr", "s_ptr", "N"]}
PROBLEM: dict[str, int] = {"R": 64, "C": 8, "N": 65536}
SMALL: dict[str, int] = {"R": 3, "C": 2, "N": 3000}


@triton.jit
def channel_sum_then_pass(x_ptr, y_ptr, s_ptr, C, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c in range(0, C):
        base = x_ptr + (row * C + c).to(tl.int64) * N
        tl.atomic_add(s_ptr + row * 2 + 1, 1.0)
        for start in range(0, N, BLOCK):
            cols = start + offs
            acc += tl.load(base + cols, mask=cols < N, other=0.0)
    tl.store(y_ptr + row * BLOCK + offs, acc)
    first = x_ptr + (row * C).to(tl.int64) * N
    t = 0.0
    for start in range(0, N, BLOCK):
        cols = start + offs
        t += tl.sum(tl.load(first + cols, mask=cols < N, other=0.0))
    tl.store(s_ptr + row * 2, t)


def make_inputs(R: int, C: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, C, N), device=device, generator=g)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(y [R, BLOCK]: each row's blocks summed over channels and blocks, s [R, 2]: the first channel's sum, C)."""
    import torch
    x = inputs["x"]
    R, C, N = x.shape
    y = torch.empty((R, 1024), device=x.device, dtype=torch.float32)
    s = torch.zeros((R, 2), device=x.device, dtype=torch.float32)
    channel_sum_then_pass[(R,)](x, y, s, C, N, BLOCK=1024, num_warps=config.get("num_warps", 4),
                                num_stages=config.get("num_stages", 2))
    return y, s


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"]
    R, C, N = x.shape
    pad = (-N) % 1024
    xp = torch.nn.functional.pad(x, (0, pad))
    y = xp.view(R, C, -1, 1024).sum(dim=(1, 2))
    s = torch.stack([x[:, 0].sum(dim=1), torch.full((R,), float(C), device=x.device)], dim=1)
    return y, s


def flops(R: int, C: int, N: int) -> float:
    """An add an element: memory-bound."""
    return float(R * C * N + R * N)
