"""Dropout over long rows in blocks with Philox (``tl.rand(seed, offsets)``), Triton tutorial 04 / Liger style."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*fp16", "out_ptr": "*fp16", "stride": "i32", "n_cols": "i32",
                                            "p": "fp32", "seed": "i32"},
                              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3,
                              "divisibility": ["stride", "n_cols"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 8192}
SMALL: dict[str, int] = {"R": 4, "N": 3000}


@triton.jit
def dropout_rows(x_ptr, out_ptr, stride, n_cols, p, seed, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(x_ptr + row * stride + offs, mask=mask, other=0.0)
        r = tl.rand(seed, row * n_cols + offs)
        keep = r > p
        y = tl.where(keep, x / (1 - p), 0.0)
        tl.store(out_ptr + row * stride + offs, y, mask=mask)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, dtype=torch.float16, generator=g), "seed": 1234 + seed}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Dropout with p = 0.25 over fp16 [R, N], Philox from (seed, row * N + column); one program per row."""
    import torch
    x = inputs["x"]
    out = torch.full_like(x, float("nan"))
    dropout_rows[(x.shape[0],)](x, out, x.stride(0), x.shape[1], 0.25, inputs["seed"], BLOCK=1024,
                                num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return out


@triton.jit
def _uniform(out_ptr, n, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.rand(seed, offs), mask=offs < n)


def reference(inputs: dict[str, Any]) -> Any:
    """The kept elements from Triton's own ``tl.rand`` at the same offsets (a separate unpipelined kernel), the
    scaling in double."""
    import torch
    x = inputs["x"]
    r = torch.empty(x.numel(), device=x.device, dtype=torch.float32)
    _uniform[(triton.cdiv(x.numel(), 1024),)](r, x.numel(), inputs["seed"], BLOCK=1024)
    return torch.where(r.view_as(x) > 0.25, x.double() / 0.75, 0.0)
