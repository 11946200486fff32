"""Layer norm forward as Triton's tutorial (05) writes it: one program per row, three loops over the row's blocks
(the mean, the variance, then the normalised output), the row's mean and rstd stored between the second loop and
the third (stores between loops), ``_var += x * x`` (one value read twice). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"X": "*fp16", "Y": "*fp16", "W": "*fp16", "B": "*fp16", "Mean": "*fp32", "Rstd": "*fp32",
                  "stride": "i32", "N": "i32", "eps": "fp32"},
    "constexprs": {"BLOCK_SIZE": 1024}, "num_warps": 8,
    "divisibility": ["stride", "N"],                    # as a launch at PROBLEM specialises it
}
PROBLEM: dict[str, int] = {"M": 4096, "N": 8192}
SMALL: dict[str, int] = {"M": 24, "N": 3000}            # a partial last block: the masks


@triton.jit
def _layer_norm_fwd_fused(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


def make_inputs(M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": (torch.randn((M, N), device=device, dtype=torch.float32, generator=g) * 2 + 0.5).half(),
            "w": torch.rand((N,), device=device, dtype=torch.float32, generator=g).half() + 0.5,
            "b": torch.randn((N,), device=device, dtype=torch.float32, generator=g).half()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(y, mean, rstd), as the tutorial's LayerNorm.forward launches the kernel."""
    import torch
    x, w, b = inputs["x"], inputs["w"], inputs["b"]
    M, N = x.shape
    y = torch.empty_like(x)
    mean = torch.empty((M,), dtype=torch.float32, device=x.device)
    rstd = torch.empty((M,), dtype=torch.float32, device=x.device)
    _layer_norm_fwd_fused[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, 1e-5, BLOCK_SIZE=1024,
                                num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return y, mean, rstd


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].double()
    mean = x.mean(dim=1)
    var = ((x - mean[:, None]) ** 2).mean(dim=1)
    rstd = 1 / torch.sqrt(var + 1e-5)
    y = (x - mean[:, None]) * rstd[:, None] * inputs["w"].double() + inputs["b"].double()
    return y, mean, rstd
