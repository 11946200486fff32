"""FlagGems' GroupNorm input gradient, ``group_norm_backward_kernel`` (FlagOpen/FlagGems
``src/flag_gems/ops/groupnorm.py``, commit 532ff438c703, launched by ``group_norm_backward`` on a grid of one program
per (sample, group), BLOCK_GROUP_SIZE = next_power_of_2(group_size), BLOCK_HW_SIZE left at its default 128).

The constructs: a scalar Mean / Rstd load (bf16, as the forward allocates them in the input's dtype) and a per-channel
weight vector broadcast as ``[:, None]`` under the compile-time ``if W is None`` branch (W given here); **two loops in
sequence over the same HW range** (``for off in range(0, HW, BLOCK_HW_SIZE)``, runtime bound, masked tail, the mask an
``&`` of a channel mask and an HW mask): the first carries two [BLOCK_GROUP_SIZE, BLOCK_HW_SIZE] fp32 accumulators
(``dx_part2 += dx_hat``, ``dx_part3 += dx_hat * x_hat``, x_hat through ``tl.where(xy_mask, ...)``), reduced to two
scalars with full ``tl.sum`` between the loops; the second re-reads dY and X and stores dX, its only store, using
those two scalars and a division by the runtime ``num_elements``. Port notes: ``tle.program_id`` replaced by
``tl.program_id`` and ``@libentry()`` dropped; a Stable Diffusion VAE shape (C 512 in 32 groups, 64x64). The channel
mask is ``wb_offset < C``, not ``group_offset < group_size``: where group_size is not a power of two the upstream
kernel also sums the next group's padding channels (its reference would disagree), so both shapes here keep
group_size a power of two (16 and 8)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "group_norm_backward_kernel",
    "signature": {"grad_y": "*bf16", "X": "*bf16", "W": "*bf16", "Mean": "*bf16", "Rstd": "*bf16",
                  "num_groups": "i32", "group_size": "i32", "grad_x": "*bf16", "C": "i32", "HW": "i32"},
    "constexprs": {"BLOCK_GROUP_SIZE": 16, "BLOCK_HW_SIZE": 128},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["grad_y", "X", "W", "Mean", "Rstd", "grad_x", "HW"]}
PROBLEM: dict[str, int] = {"N": 8, "C": 512, "HW": 4096, "G": 32}
SMALL: dict[str, int] = {"N": 3, "C": 32, "HW": 300, "G": 4}


@triton.jit
def group_norm_backward_kernel(
    grad_y,
    X,
    W,
    Mean,
    Rstd,
    num_groups,
    group_size,
    grad_x,
    C,
    HW,
    BLOCK_GROUP_SIZE: tl.constexpr,
    BLOCK_HW_SIZE: tl.constexpr = 128,
):
    pid = tl.program_id(0)
    group = pid % num_groups
    num_elements = group_size * HW

    group_offset = tl.arange(0, BLOCK_GROUP_SIZE)
    wb_offset = group * group_size + group_offset

    wb_mask = wb_offset < C

    rstd = tl.load(Rstd + pid).to(tl.float32)
    mean = tl.load(Mean + pid).to(tl.float32)
    if W is None:
        weight = 1
    else:
        weight = tl.load(W + wb_offset, mask=wb_mask, other=0.0).to(tl.float32)[:, None]

    dx_part2 = tl.zeros([BLOCK_GROUP_SIZE, BLOCK_HW_SIZE], dtype=tl.float32)
    dx_part3 = tl.zeros([BLOCK_GROUP_SIZE, BLOCK_HW_SIZE], dtype=tl.float32)
    for off in range(0, HW, BLOCK_HW_SIZE):
        hw_offset = off + tl.arange(0, BLOCK_HW_SIZE)
        hw_mask = hw_offset < HW
        xy_offset = pid * num_elements + group_offset[:, None] * HW + hw_offset[None, :]
        xy_mask = wb_mask[:, None] & hw_mask[None, :]

        dY_val = tl.load(grad_y + xy_offset, mask=xy_mask, other=0.0).to(tl.float32)
        X_val = tl.load(X + xy_offset, mask=xy_mask, other=0.0).to(tl.float32)

        x_hat = tl.where(xy_mask, rstd * (X_val - mean), 0.0)
        dx_hat = weight * dY_val
        dx_part2 += dx_hat
        dx_part3 += dx_hat * x_hat

    dx_2 = tl.sum(dx_part2)
    dx_3 = tl.sum(dx_part3)

    for off in range(0, HW, BLOCK_HW_SIZE):
        hw_offset = off + tl.arange(0, BLOCK_HW_SIZE)
        hw_mask = hw_offset < HW
        xy_offset = pid * num_elements + group_offset[:, None] * HW + hw_offset[None, :]
        xy_mask = wb_mask[:, None] & hw_mask[None, :]

        dY_val = tl.load(grad_y + xy_offset, mask=xy_mask, other=0.0).to(tl.float32)
        X_val = tl.load(X + xy_offset, mask=xy_mask, other=0.0).to(tl.float32)

        x_hat = tl.where(xy_mask, rstd * (X_val - mean), 0.0)
        dx_hat = weight * dY_val
        dx = rstd * (dx_hat - (dx_2 + x_hat * dx_3) / num_elements)

        tl.store(grad_x + xy_offset, dx, xy_mask)


def make_inputs(N: int, C: int, HW: int, G: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x, dy [N, C, HW] bf16; weight [C] bf16; mean / rstd [N, G] bf16 as the forward computes them."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((N, C, HW), device=device, generator=g) * 1.5 + 0.3).to(torch.bfloat16)
    dy = torch.randn((N, C, HW), device=device, generator=g).to(torch.bfloat16)
    w = (torch.rand((C,), device=device, generator=g) + 0.5).to(torch.bfloat16)
    xg = x.float().reshape(N, G, -1)
    mean = xg.mean(dim=2)
    rstd = torch.rsqrt(xg.var(dim=2, unbiased=False) + 1e-5)
    return {"x": x, "dy": dy, "weight": w, "mean": mean.to(torch.bfloat16), "rstd": rstd.to(torch.bfloat16),
            "groups": G}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """dX [N, C, HW] bf16 (``group_norm_backward`` with output_mask[0])."""
    import torch
    x, dy, w = inputs["x"], inputs["dy"], inputs["weight"]
    N, C, HW = x.shape
    group = inputs["groups"]
    group_size = triton.cdiv(C, group)
    grad_inp = torch.empty_like(x)
    group_norm_backward_kernel[(N * group,)](
        dy, x, w, inputs["mean"], inputs["rstd"], group, group_size, grad_inp, C, HW,
        BLOCK_GROUP_SIZE=triton.next_power_of_2(group_size),
        BLOCK_HW_SIZE=config.get("BLOCK_HW_SIZE", 128),
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return grad_inp


def reference(inputs: dict[str, Any]) -> Any:
    """GroupNorm's input gradient in fp64 from the same (bf16) mean and rstd."""
    import torch
    x, dy, w = inputs["x"].double(), inputs["dy"].double(), inputs["weight"].double()
    N, C, HW = x.shape
    G = inputs["groups"]
    mean = inputs["mean"].double().reshape(N, G, 1, 1)
    rstd = inputs["rstd"].double().reshape(N, G, 1, 1)
    xg = x.reshape(N, G, C // G, HW)
    dyw = (dy * w[None, :, None]).reshape(N, G, C // G, HW)
    x_hat = rstd * (xg - mean)
    n = (C // G) * HW
    s2 = dyw.sum(dim=(2, 3), keepdim=True)
    s3 = (dyw * x_hat).sum(dim=(2, 3), keepdim=True)
    dx = rstd * (dyw - (s2 + x_hat * s3) / n)
    return dx.reshape(N, C, HW)


def flops(N: int, C: int, HW: int, G: int) -> float:
    """Two passes over the group's elements: about 6 + 8 flops an element."""
    return 14.0 * N * C * HW
