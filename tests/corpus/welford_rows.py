"""Each row's mean and variance by Welford's method, in the style of the normalisation kernels PyTorch Inductor and
norm libraries write: per-lane running mean, M2 and count carried through the loop, then merged across lanes by
``tl.reduce`` of the three with a combiner function of the kernel's own (``welford_combine``: a reduction of
several tensors whose combiner is a dozen scalar ops and reads a constant MLIR hoists out of it). Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"x_ptr": "*fp16", "mean_ptr": "*fp32", "var_ptr": "*fp32", "N": "i32"},
    "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 2, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"R": 8192, "N": 16384}
SMALL: dict[str, int] = {"R": 64, "N": 3000}


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return mean_1 + delta * w2_over_w, m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w, new_weight


@triton.jit
def welford_rows(x_ptr, mean_ptr, var_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mean = tl.zeros([BLOCK], tl.float32)
    m2 = tl.zeros([BLOCK], tl.float32)
    w = tl.zeros([BLOCK], tl.float32)
    for off in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + off + cols, mask=off + cols < N, other=0.0).to(tl.float32)
        valid = (off + cols < N).to(tl.float32)
        delta = x - mean
        w = w + valid
        mean = mean + tl.where(valid > 0, delta / tl.maximum(w, 1.0), 0.0)
        m2 = m2 + delta * (x - mean) * valid
    mean_r, m2_r, w_r = tl.reduce((mean, m2, w), 0, welford_combine)
    tl.store(mean_ptr + row, mean_r)
    tl.store(var_ptr + row, m2_r / w_r)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": (torch.randn((R, N), device=device, dtype=torch.float32, generator=g) * 2 + 3).to(torch.float16)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Each row's mean and (biased) variance, fp32 [R] each."""
    import torch
    x = inputs["x"]
    R, N = x.shape
    mean = torch.empty((R,), device=x.device, dtype=torch.float32)
    var = torch.empty((R,), device=x.device, dtype=torch.float32)
    welford_rows[(R,)](x, mean, var, N, BLOCK=1024, num_warps=config.get("num_warps", 4),
                       num_stages=config.get("num_stages", 2))
    return mean, var


def reference(inputs: dict[str, Any]) -> Any:
    x = inputs["x"].double()
    return x.mean(dim=1), x.var(dim=1, unbiased=False)

