"""stable-fast's group norm statistics for channels-last activations (``group_norm_4d_channels_last_forward_collect_
stats_kernel``, sfast/triton/ops/group_norm.py): one program per (group, batch), a loop over the spatial positions in
BLOCK_SIZE steps whose [BLOCK_SIZE, ROW_SIZE] tile holds the group's C_G channels along the row (ROW_SIZE =
next_power_of_2(C_G), so the column mask cuts the row) and the positions strided by C (``(r * C)[:, None] +
row[None, :]``), the mask ``(r < HxW)[:, None] & (row[None, :] < C_G)`` cast to fp32 as the elements' Welford weights,
and the kernel's own ``@triton.jit`` ``welford_combine`` (a tuple of three tiles returned, a ``tl.where`` guarding an
empty weight) called in the loop on three carried [BLOCK_SIZE, ROW_SIZE] fp32 accumulators; after it the tiles
``tl.reshape``d flat and merged by ``tl.reduce`` of the three with the same combiner, ``1 / tl.sqrt(var + eps)``,
mean and rstd stored per (batch, group). fp16 activations (SDXL's UNet: 320 channels in 32 groups). Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "group_norm_4d_channels_last_forward_collect_stats_kernel",
    "signature": {"input_ptr": "*fp16", "N": "i32", "C": "i32", "HxW": "i32", "groups": "i32", "eps": "fp32",
                  "mean_ptr": "*fp32", "rstd_ptr": "*fp32", "C_G": "i32"},
    "constexprs": {"ROW_SIZE": 16, "BLOCK_SIZE": 256}, "num_warps": 8, "num_stages": 2,
    "divisibility": ["C", "HxW"]}
PROBLEM: dict[str, int] = {"B": 8, "C": 320, "HW": 16384, "G": 32}     # SDXL's 128 x 128 latents
SMALL: dict[str, int] = {"B": 2, "C": 320, "HW": 1517, "G": 32}        # HW % BLOCK_SIZE; C_G = 10 of ROW_SIZE 16
EPS = 1e-5


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (
        mean_1 + delta * w2_over_w,
        m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w,
        new_weight,
    )


@triton.jit
def group_norm_4d_channels_last_forward_collect_stats_kernel(input_ptr, N, C, HxW, groups, eps, mean_ptr, rstd_ptr,
                                                             C_G, ROW_SIZE: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    group = tl.program_id(0)
    pid_batch = tl.program_id(1)
    offset = pid_batch * C * HxW + group * C_G
    X = input_ptr + offset
    _mean = tl.zeros((BLOCK_SIZE, ROW_SIZE), dtype=tl.float32)
    _m2 = tl.zeros((BLOCK_SIZE, ROW_SIZE), dtype=tl.float32)
    _weight = tl.zeros((BLOCK_SIZE, ROW_SIZE), dtype=tl.float32)
    row = tl.arange(0, ROW_SIZE)
    for off in range(0, HxW, BLOCK_SIZE):
        r = off + tl.arange(0, BLOCK_SIZE)
        m2_ = tl.zeros((BLOCK_SIZE, ROW_SIZE), dtype=tl.float32)
        mask = (r < HxW)[:, None] & (row[None, :] < C_G)
        weight_ = mask.to(tl.float32)
        x = tl.load(X + (r * C)[:, None] + row[None, :], mask=mask).to(tl.float32)
        _mean, _m2, _weight = welford_combine(_mean, _m2, _weight, x, m2_, weight_)
    _mean = tl.reshape(_mean, (BLOCK_SIZE * ROW_SIZE,))
    _m2 = tl.reshape(_m2, (BLOCK_SIZE * ROW_SIZE,))
    _weight = tl.reshape(_weight, (BLOCK_SIZE * ROW_SIZE,))
    mean, m2, weight = tl.reduce((_mean, _m2, _weight), 0, welford_combine)
    var = m2 / weight
    rstd = 1. / tl.sqrt(var + eps)
    offset = pid_batch * groups + group
    tl.store(mean_ptr + offset, mean)
    tl.store(rstd_ptr + offset, rstd)


def make_inputs(B: int, C: int, HW: int, G: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Channels-last activations [B, HW, C] in fp16 (a [B, C, H, W] tensor in torch.channels_last), offset from zero
    so the variance is not the mean square."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((B, HW, C), device=device, generator=g) * 1.5 + 0.75).half()
    return {"x": x, "groups": G}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(mean, rstd), fp32 [B, G]."""
    import torch
    x, G = inputs["x"], inputs["groups"]
    B, HW, C = x.shape
    mean = torch.empty((B, G), device=x.device, dtype=torch.float32)
    rstd = torch.empty((B, G), device=x.device, dtype=torch.float32)
    group_norm_4d_channels_last_forward_collect_stats_kernel[(G, B)](
        x, B, C, HW, G, EPS, mean, rstd, C // G, ROW_SIZE=triton.next_power_of_2(C // G),
        BLOCK_SIZE=config.get("BLOCK_SIZE", 256), num_warps=config.get("num_warps", 8),
        num_stages=config.get("num_stages", 2))
    return mean, rstd


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, G = inputs["x"].double(), inputs["groups"]
    B, HW, C = x.shape
    xg = x.reshape(B, HW, G, C // G).permute(0, 2, 1, 3).reshape(B, G, -1)
    return xg.mean(-1), torch.rsqrt(xg.var(-1, unbiased=False) + EPS)
