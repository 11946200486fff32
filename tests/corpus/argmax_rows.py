"""Greedy sampling's argmax over a row of logits in blocks of the vocabulary, in the style of FlagGems' and samplers'
argmax kernels: ``tl.max(x, 0, return_indices=True)`` (a reduction of two tensors, the value and its index, with
Triton's tie rule as its combiner), the running best and its index carried as 1-element tensors, the index i32
arithmetic a value the loop carries out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"x_ptr": "*fp32", "out_ptr": "*i32", "V": "i32", "stride": "i32"},
    "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 2, "divisibility": ["V", "stride"]}
PROBLEM: dict[str, int] = {"R": 4096, "V": 128000}
SMALL: dict[str, int] = {"R": 64, "V": 5000}


@triton.jit
def argmax_rows(x_ptr, out_ptr, V, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    best = tl.full([1], float("-inf"), tl.float32)
    best_i = tl.zeros([1], tl.int32)
    cols = tl.arange(0, BLOCK)
    for off in range(0, V, BLOCK):
        x = tl.load(x_ptr + row * stride + off + cols, mask=off + cols < V, other=float("-inf"))
        m, i = tl.max(x, 0, return_indices=True)
        take = m > tl.max(best, 0)
        best = tl.where(take, m, best)
        best_i = tl.where(take, i + off, best_i)
    tl.store(out_ptr + row + tl.arange(0, 1), best_i)


def make_inputs(R: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, V), device=device, dtype=torch.float32, generator=g)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The first index of each row's largest logit, i32 [R]."""
    import torch
    x = inputs["x"]
    R, V = x.shape
    out = torch.full((R,), -1, device=x.device, dtype=torch.int32)
    argmax_rows[(R,)](x, out, V, x.stride(0), BLOCK=1024, num_warps=config.get("num_warps", 4),
                      num_stages=config.get("num_stages", 2))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["x"].argmax(dim=1).to(inputs["x"].dtype)

