"""A LayerNorm backward for rows too long for one block, in the style of Apex's / Megatron's fused layer norm backward
(``cuComputeGradInput`` and ``cuComputePartGradGammaBeta``) written as one Triton program per row: a first loop over
the row's column blocks accumulating ``xhat * w * dy`` and ``w * dy`` in fp32 [BLOCK_N] registers (reduced by
``tl.sum`` after the loop: c1, c2), then a second loop over the same blocks that recomputes ``xhat`` from the loaded
mean / rstd, stores ``dx`` and adds the row's dgamma / dbeta contributions into a [GROUP_M, N] fp32 partial buffer
with ``tl.atomic_add`` at row ``row % GROUP_M`` (Apex's part_grad_gamma / part_grad_beta; torch sums the GROUP_M
partials after the kernel). fp16 activations and gradients, fp32 weight, mean and rstd. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"X": "*fp16", "DY": "*fp16", "DX": "*fp16", "W": "*fp32", "Mean": "*fp32", "Rstd": "*fp32",
                  "PartDW": "*fp32", "PartDB": "*fp32", "stride": "i32", "N": "i32"},
    "constexprs": {"GROUP_M": 64, "BLOCK_N": 1024}, "num_warps": 8, "num_stages": 2, "divisibility": ["stride", "N"]}
PROBLEM: dict[str, int] = {"M": 8192, "N": 16384}
SMALL: dict[str, int] = {"M": 77, "N": 3000}     # M % GROUP_M and N % BLOCK_N: a partial group, a masked last block


@triton.jit
def layer_norm_bwd_dx_part_dwdb(X, DY, DX, W, Mean, Rstd, PartDW, PartDB, stride, N, GROUP_M: tl.constexpr,
                                BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    DY += row * stride
    DX += row * stride
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    c1_acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    c2_acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=mask, other=0.0)
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        wdy = w * dy
        c1_acc += xhat * wdy
        c2_acc += wdy
    c1 = tl.sum(c1_acc, axis=0) / N
    c2 = tl.sum(c2_acc, axis=0) / N
    part = (row % GROUP_M) * N
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=mask, other=0.0)
        xhat = tl.where(mask, (x - mean) * rstd, 0.0)
        dx = (w * dy - (xhat * c1 + c2)) * rstd
        tl.store(DX + cols, dx.to(tl.float16), mask=mask)
        tl.atomic_add(PartDW + part + cols, dy * xhat, mask=mask)
        tl.atomic_add(PartDB + part + cols, dy, mask=mask)


def make_inputs(M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x and dy in fp16, the forward's per-row mean and rstd (fp32) and an fp32 weight."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((M, N), device=device, generator=g) * 2 + 0.5).half()
    dy = torch.randn((M, N), device=device, generator=g).half()
    xf = x.float()
    mean = xf.mean(1)
    rstd = torch.rsqrt(xf.var(1, unbiased=False) + 1e-5)
    return {"x": x, "dy": dy, "w": torch.randn((N,), device=device, generator=g), "mean": mean, "rstd": rstd}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dx, dgamma, dbeta): the kernel's dx and its GROUP_M partials summed by torch, as Apex's second kernel does."""
    import torch
    x, dy = inputs["x"], inputs["dy"]
    M, N = x.shape
    dx = torch.empty_like(x)
    part_dw = torch.zeros((64, N), device=x.device, dtype=torch.float32)
    part_db = torch.zeros((64, N), device=x.device, dtype=torch.float32)
    layer_norm_bwd_dx_part_dwdb[(M,)](x, dy, dx, inputs["w"], inputs["mean"], inputs["rstd"], part_dw, part_db,
                                      x.stride(0), N, GROUP_M=64, BLOCK_N=config.get("BLOCK_N", 1024),
                                      num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 2))
    return dx, part_dw.sum(0), part_db.sum(0)


def reference(inputs: dict[str, Any]) -> Any:
    x, dy, w = inputs["x"].double(), inputs["dy"].double(), inputs["w"].double()
    mean, rstd = inputs["mean"].double()[:, None], inputs["rstd"].double()[:, None]
    xhat = (x - mean) * rstd
    wdy = w * dy
    c1 = (xhat * wdy).mean(1, keepdim=True)
    c2 = wdy.mean(1, keepdim=True)
    return (wdy - (xhat * c1 + c2)) * rstd, (dy * xhat).sum(0), dy.sum(0)
