"""Written for the tests: a loop nest beside the scheduled loop, in a kernel of one partition. Each program first
finds the absolute maximum over its group of G rows of X (``for g in range(G)`` around ``for j in range(0, N,
BLOCK)``: a loop holding a loop, its result a scalar), then scales its row of W by it (``for j in range(0, N,
BLOCK)``: a load and a store an iteration, the loop twill schedules). G is a runtime argument, so the nest's
inner loop weighs one pass, less than the scaling loop's load and store. Before session 88 such a nest was refused
("writes the loops beside the scheduled one one level deep"); now the one partition writes it as it runs. Nothing
here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "group_absmax_then_scale",
    "signature": {"x_ptr": "*fp16", "w_ptr": "*fp16", "y_ptr": "*fp16", "G": "i32", "N": "i32"},
    "constexprs": {"BLOCK": 1024},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["x_ptr", "w_ptr", "y_ptr", "N"]}
PROBLEM: dict[str, int] = {"P": 4096, "G": 4, "N": 8192}
SMALL: dict[str, int] = {"P": 5, "G": 3, "N": 3000}


@triton.jit
def group_absmax_then_scale(x_ptr, w_ptr, y_ptr, G, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    m = tl.zeros([BLOCK], dtype=tl.float32)
    for g in range(G):
        row = x_ptr + (pid * G + g) * N
        for j in range(0, N, BLOCK):
            x = tl.load(row + j + offs, mask=j + offs < N, other=0.0).to(tl.float32)
            m = tl.maximum(m, tl.abs(x))
    inv = 1.0 / tl.maximum(tl.max(m, axis=0), 1e-6)
    for j in range(0, N, BLOCK):
        w = tl.load(w_ptr + pid * N + j + offs, mask=j + offs < N, other=0.0).to(tl.float32)
        tl.store(y_ptr + pid * N + j + offs, (w * inv).to(tl.float16), mask=j + offs < N)


def make_inputs(P: int, G: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((P * G, N), device=device, generator=g).to(torch.float16)
    w = torch.randn((P, N), device=device, generator=g).to(torch.float16)
    return {"x": x, "w": w, "G": G}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Y [P, N] fp16."""
    import torch
    w = inputs["w"]
    P, N = w.shape
    y = torch.empty_like(w)
    group_absmax_then_scale[(P,)](inputs["x"], w, y, inputs["G"], N, BLOCK=1024,
                                  num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    w = inputs["w"].float()
    P, N = w.shape
    m = inputs["x"].float().abs().reshape(P, inputs["G"], N).amax(dim=(1, 2)).clamp_min(1e-6)
    return (w / m[:, None]).to(torch.float16)


def flops(P: int, G: int, N: int) -> float:
    """A compare an element of X, a multiply an element of W (memory-bound)."""
    return float(P * G * N + P * N)
