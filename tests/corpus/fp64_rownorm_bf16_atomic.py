"""Two constructs of scientific and embedding kernels in one row loop: a row's squared norm accumulated in fp64
(``x.to(tl.float64)``: an accurate reduction, as numerics libraries write it), and each block's scaled values added
into a shared bf16 gradient row with tl.atomic_add on bf16 pointers (embedding-bag backward style: rows of many bags
land on one output row). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*bf16", "g_ptr": "*bf16", "n_ptr": "*fp64", "N": "i32",
                                            "G": "i32"},
                              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3,
                              "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 8192, "G": 64}
SMALL: dict[str, int] = {"R": 8, "N": 1000, "G": 2}


@triton.jit
def fp64_norm_bf16_scatter(x_ptr, g_ptr, n_ptr, N, G, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    dst = row % G
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float64)
    for start in range(0, N, BLOCK):
        idx = start + offs
        m = idx < N
        x = tl.load(x_ptr + row * N + idx, mask=m, other=0.0)
        xd = x.to(tl.float64)
        acc += xd * xd
        tl.atomic_add(g_ptr + dst * N + idx, (x.to(tl.float32) * 0.5).to(tl.bfloat16), mask=m, sem="relaxed")
    tl.store(n_ptr + row, tl.sum(acc, 0))


def make_inputs(R: int, N: int, G: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randint(-8, 9, (R, N), device=device, generator=g).to(torch.bfloat16) / 8, "G": G}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[each row's squared norm (fp64), then the G gradient rows], fp64; values are multiples of 1/16 so the bf16
    sums of up to R / G of them are exact."""
    import torch
    x, G = inputs["x"], inputs["G"]
    R, N = x.shape
    grad = torch.zeros((G, N), device=x.device, dtype=torch.bfloat16)
    norm = torch.empty((R,), device=x.device, dtype=torch.float64)
    fp64_norm_bf16_scatter[(R,)](x, grad, norm, N, G, BLOCK=1024, num_warps=config.get("num_warps", 4),
                                 num_stages=config.get("num_stages", 3))
    return torch.cat([norm, grad.double().flatten()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, G = inputs["x"].double(), inputs["G"]
    R, N = x.shape
    grad = (x * 0.5).reshape(R // G, G, N).sum(dim=0)
    return torch.cat([(x * x).sum(dim=1), grad.flatten()])
