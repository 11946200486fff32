"""Liger-Kernel's group norm forward (`_group_norm_forward`): one program per (batch, group), a first loop over
the group's flattened channels (`tl.range`) accumulating the sum and the sum of squares as scalars, rsqrt from
libdevice, then a nested loop: over the group's channels (scalar weight and bias loads per channel), and inside
it over the channel's spatial blocks, the input and output pointers advanced per channel; mean and rstd stored
after. fp32; BLOCK = next_power_of_2(hidden_size) capped at 65536, default num_warps."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra.libdevice import rsqrt

TWILL_SPEC = {"kernel": "_group_norm_forward",
              "signature": {"Y_ptr": "*fp32", "Y_row_stride": "i32", "Y_col_stride": "i32",
                            "X_ptr": "*fp32", "X_row_stride": "i32", "X_col_stride": "i32",
                            "Mean_ptr": "*fp32", "Mean_row_stride": "i32", "Mean_col_stride": "i32",
                            "RSTD_ptr": "*fp32", "RSTD_row_stride": "i32", "RSTD_col_stride": "i32",
                            "W_ptr": "*fp32", "B_ptr": "*fp32", "hidden_size": "i32", "channels_per_group": "i32",
                            "eps": "fp32"},
              "constexprs": {"BLOCK_SIZE": 8192}, "num_warps": 4, "num_stages": 3,
              "divisibility": ["Y_row_stride", "Y_col_stride", "X_row_stride", "X_col_stride", "hidden_size",
                               "Mean_row_stride", "RSTD_row_stride"]}
PROBLEM: dict[str, int] = {"B": 16, "C": 256, "G": 32, "HW": 1024}     # 8 channels of 32x32 per group
SMALL: dict[str, int] = {"B": 3, "C": 12, "G": 4, "HW": 50}             # 3 channels of 50 per group
MAX_FUSED_SIZE = 65536
EPS = 1e-6


@triton.jit
def _group_norm_forward(
    Y_ptr,  # pointer to output, shape (n_rows, n_groups, hidden_size)
    Y_row_stride,  # stride of each row in output
    Y_col_stride,  # stride of each column in output
    X_ptr,  # pointer to input, shape (n_rows, n_groups, hidden_size)
    X_row_stride,  # stride of each row in input
    X_col_stride,  # stride of each column in input
    Mean_ptr,  # pointer to mean, shape (n_rows, n_groups)
    Mean_row_stride,  # stride of each row in mean
    Mean_col_stride,  # stride of each column in mean
    RSTD_ptr,  # pointer to rstd, shape (n_rows, n_groups)
    RSTD_row_stride,  # stride of each row in rstd
    RSTD_col_stride,  # stride of each column in rstd
    W_ptr,  # pointer to W
    B_ptr,  # pointer to B
    hidden_size,  # hidden size of X
    channels_per_group,  # the number of channels per group
    eps,
    BLOCK_SIZE: tl.constexpr,
):
    """
    References:
    https://nn.labml.ai/normalization/group_norm/index.html
    """
    batch_idx = tl.program_id(0)
    group_idx = tl.program_id(1)

    X_ptr += batch_idx * X_row_stride + group_idx * X_col_stride
    Y_ptr += batch_idx * Y_row_stride + group_idx * Y_col_stride

    block_range = tl.arange(0, BLOCK_SIZE)

    # Compute mean and variance using the online algorithm
    s = 0.0
    squared_sum = 0.0
    for i in tl.range(0, hidden_size, BLOCK_SIZE):
        hidden_size_offsets = i + block_range
        mask = hidden_size_offsets < hidden_size
        X = tl.load(X_ptr + hidden_size_offsets, mask=mask, other=0.0)
        s += tl.sum(X)
        # X**2
        squared_sum += tl.sum(X * X)

    m = s / hidden_size

    # variance = E[X**2] - E[X]**2
    variance = (squared_sum / hidden_size) - (m * m)

    # 1/std
    rstd = rsqrt(variance + eps)

    # Normalize
    hidden_size_per_channel = hidden_size // channels_per_group
    for channel_idx in tl.range(group_idx * channels_per_group, (group_idx + 1) * channels_per_group):
        W = tl.load(W_ptr + channel_idx)
        B = tl.load(B_ptr + channel_idx)
        for i in range(0, hidden_size_per_channel, BLOCK_SIZE):
            hidden_size_offsets = i + block_range
            mask = hidden_size_offsets < hidden_size_per_channel
            X = tl.load(X_ptr + hidden_size_offsets, mask=mask, other=m)
            Y = (X - m) * rstd * W + B
            tl.store(Y_ptr + hidden_size_offsets, Y, mask=mask)

        X_ptr += hidden_size_per_channel
        Y_ptr += hidden_size_per_channel

    tl.store(Mean_ptr + batch_idx * Mean_row_stride + group_idx * Mean_col_stride, m)
    tl.store(RSTD_ptr + batch_idx * RSTD_row_stride + group_idx * RSTD_col_stride, rstd)


def make_inputs(B: int, C: int, G: int, HW: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((B, C, HW), device=device, generator=g) * 3 + 1.0,
            "w": torch.rand((C,), device=device, generator=g) + 0.5,
            "b": torch.randn((C,), device=device, generator=g), "G": G}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(y, mean, rstd), as group_norm_forward launches the kernel."""
    import torch
    X, W, B, num_groups = inputs["x"], inputs["w"], inputs["b"], inputs["G"]
    shape = X.shape
    batch_size, num_channels = shape[0], shape[1]
    channels_per_group = num_channels // num_groups
    X = X.view(batch_size, num_groups, -1).contiguous()
    hidden_size = X.shape[-1]
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(hidden_size))
    Y = torch.empty((batch_size, num_groups, hidden_size), dtype=X.dtype, device=X.device)
    Mean = torch.zeros((batch_size, num_groups), dtype=X.dtype, device=X.device)
    RSTD = torch.zeros((batch_size, num_groups), dtype=X.dtype, device=X.device)
    _group_norm_forward[(batch_size, num_groups)](
        Y, Y.stride(0), Y.stride(1), X, X.stride(0), X.stride(1), Mean, Mean.stride(0), Mean.stride(1),
        RSTD, RSTD.stride(0), RSTD.stride(1), W, B, hidden_size, channels_per_group, EPS,
        BLOCK_SIZE=BLOCK_SIZE, **({"num_warps": config["num_warps"]} if "num_warps" in config else {}))
    return Y.view(*shape), Mean, RSTD


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, w, b, G = inputs["x"].double(), inputs["w"].double(), inputs["b"].double(), inputs["G"]
    Bn, C, HW = x.shape
    xg = x.view(Bn, G, -1)
    mean = xg.mean(dim=-1)
    var = xg.var(dim=-1, unbiased=False)
    rstd = 1 / torch.sqrt(var + EPS)
    y = ((xg - mean[..., None]) * rstd[..., None]).view(Bn, C, HW) * w[None, :, None] + b[None, :, None]
    return y, mean, rstd
