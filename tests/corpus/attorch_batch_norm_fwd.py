"""attorch's BatchNorm forward, ``batch_norm_forward_kernel`` (BobMcDear/attorch ``attorch/batch_norm_kernels.py``,
launched by ``BatchNormAutoGrad.forward`` in ``attorch/batch_norm_layer.py`` for ``BatchNorm2d`` in training mode).

The layer views the NCHW input as 3-D and **transposes it** (``input_3d.transpose(0, -1)``), so the kernel's
"batch" axis is H*W (unit stride, BLOCK_SIZE_BATCH = next_power_of_2(H*W) = 4096) and its "spatial" axis is the
real batch N (stride C*H*W, BLOCK_SIZE_SPATIAL = min(next_pow2(N), 2**14 // BLOCK_SIZE_BATCH) = 4): one program per
channel, [4096, 4] tiles. The constructs: ``@triton.autotune`` over num_warps (``warps_kernel_configs()``, with
``restore_value``) over ``@triton.heuristics`` for both block sizes (a plain helper function); constexpr branches
``is_train or not track_running_stats`` / ``save_stats`` / ``track_running_stats`` / ``affine``; **two loops in
sequence** ``for block_ind in range(0, tl.cdiv(spatial_dim, BLOCK_SIZE_SPATIAL))``: the first a **Welford-style
update of three scalar carries** (an int ``count`` that starts as the Python int 0, ``mean`` and ``var`` as Python
floats), the tile count from the builtin ``min(BLOCK_SIZE_SPATIAL, spatial_dim - block_ind * BLOCK_SIZE_SPATIAL)``,
a full ``tl.sum`` of the tile, masked loads without ``other``, ``tl.where`` on the mask; between the loops scalar
stores of mean / inv_std and a load-modify-store of the running stats; the second loop normalises and stores.
Port notes: the three helpers are copied from attorch/utils.py and batch_norm_kernels.py (``warps_kernel_configs``,
``BLOCK_SIZE_SPATIAL_heuristic``); nothing else changed. ResNet-50 layer1 shape: N 32, C 256, 56 x 56, fp32 (the
layer accepts only fp32). TWILL_SPEC takes num_warps 8 from the autotuned list (1..32)."""
from __future__ import annotations

from typing import Any, Dict, List

import triton
import triton.language as tl
from triton import next_power_of_2

TWILL_SPEC: dict[str, Any] = {
    "kernel": "batch_norm_forward_kernel",
    "signature": {"input_pointer": "*fp32", "weight_pointer": "*fp32", "bias_pointer": "*fp32",
                  "mean_pointer": "*fp32", "inv_std_pointer": "*fp32", "output_pointer": "*fp32",
                  "running_mean_pointer": "*fp32", "running_var_pointer": "*fp32",
                  "batch_dim": "i32", "spatial_dim": "i32",
                  "input_batch_stride": "constexpr", "input_feat_stride": "i32", "input_spatial_stride": "i32",
                  "output_batch_stride": "constexpr", "output_feat_stride": "i32", "output_spatial_stride": "i32",
                  "momentum": "fp32", "eps": "fp32"},
    "constexprs": {"input_batch_stride": 1, "output_batch_stride": 1, "affine": True, "save_stats": True,
                   "track_running_stats": True, "is_train": True, "BLOCK_SIZE_BATCH": 4096,
                   "BLOCK_SIZE_SPATIAL": 4},
    "num_warps": 8, "num_stages": 3,
    # H*W = 3136 and C*H*W are multiples of 16; spatial_dim (N) and batch_dim are not declared
    "divisibility": ["input_feat_stride", "input_spatial_stride", "output_feat_stride", "output_spatial_stride"]}
PROBLEM: dict[str, int] = {"N": 32, "C": 256, "H": 56, "W": 56}
SMALL: dict[str, int] = {"N": 6, "C": 3, "H": 50, "W": 50}


def BLOCK_SIZE_SPATIAL_heuristic(args: Dict) -> int:
    """
    Approximates an appropriate spatial block size for batch normalization
    using a heuristic.
    """
    BLOCK_SIZE_BATCH = next_power_of_2(args['batch_dim'])
    BLOCK_SIZE_SPATIAL = next_power_of_2(args['spatial_dim'])
    return min(BLOCK_SIZE_SPATIAL, max(1, 2 ** 14 // BLOCK_SIZE_BATCH))


def warps_kernel_configs() -> List[triton.Config]:
    """
    Returns kernel configurations with all possible number of warps.
    """
    return [triton.Config({}, num_warps=2**i) for i in range(6)]


@triton.autotune(
    configs=warps_kernel_configs(),
    key=['batch_dim', 'spatial_dim'],
    restore_value=['running_mean_pointer', 'running_var_pointer']
)
@triton.heuristics({'BLOCK_SIZE_BATCH': lambda args: next_power_of_2(args['batch_dim']),
                    'BLOCK_SIZE_SPATIAL': BLOCK_SIZE_SPATIAL_heuristic})
@triton.jit
def batch_norm_forward_kernel(
    input_pointer, weight_pointer, bias_pointer,
    mean_pointer, inv_std_pointer, output_pointer,
    running_mean_pointer, running_var_pointer,
    batch_dim, spatial_dim,
    input_batch_stride, input_feat_stride, input_spatial_stride,
    output_batch_stride, output_feat_stride, output_spatial_stride,
    momentum, eps,
    affine: tl.constexpr, save_stats: tl.constexpr,
    track_running_stats: tl.constexpr, is_train: tl.constexpr,
    BLOCK_SIZE_BATCH: tl.constexpr, BLOCK_SIZE_SPATIAL: tl.constexpr,
    ):
    """
    Batch-normalizes the input.
    """
    feat_pid = tl.program_id(axis=0)

    batch_offset = tl.arange(0, BLOCK_SIZE_BATCH)
    batch_mask = batch_offset < batch_dim

    if is_train or not track_running_stats:
        count = 0
        mean = 0.0
        var = 0.0

        for block_ind in range(0, tl.cdiv(spatial_dim, BLOCK_SIZE_SPATIAL)):
            spatial_offset = (block_ind * BLOCK_SIZE_SPATIAL +
                              tl.arange(0, BLOCK_SIZE_SPATIAL))
            spatial_mask = spatial_offset < spatial_dim

            curr_input_pointer = (input_pointer +
                                  input_feat_stride * feat_pid +
                                  input_batch_stride * batch_offset[:, None] +
                                  input_spatial_stride * spatial_offset[None, :])
            curr_input = tl.load(curr_input_pointer,
                                 mask=batch_mask[:, None] & spatial_mask[None, :]).to(tl.float32)

            spatial_count = min(BLOCK_SIZE_SPATIAL, spatial_dim - block_ind * BLOCK_SIZE_SPATIAL)
            curr_count = spatial_count * batch_dim
            count += curr_count

            prev_mean = mean
            mean += (tl.sum(curr_input) - curr_count * mean) / count
            deltas = tl.where(batch_mask[:, None] & spatial_mask[None, :],
                              (curr_input - mean) * (curr_input - prev_mean), 0.)
            var += tl.sum(deltas)

        var /= count
        inv_std = 1 / tl.sqrt(var + eps)

        if save_stats:
            tl.store(feat_pid + mean_pointer, mean)
            tl.store(feat_pid + inv_std_pointer, inv_std)

        if track_running_stats:
            running_mean_pointer += feat_pid
            running_var_pointer += feat_pid

            running_mean = tl.load(running_mean_pointer)
            running_var = tl.load(running_var_pointer)

            n = batch_dim * spatial_dim
            tl.store(running_mean_pointer,
                     (1 - momentum) * running_mean + momentum * mean)
            tl.store(running_var_pointer,
                     (1 - momentum) * running_var + momentum * var * n / (n - 1))

    else:
        mean = tl.load(feat_pid + running_mean_pointer)
        inv_std = 1 / tl.sqrt(tl.load(feat_pid + running_var_pointer) + eps)

    if affine:
        weight = tl.load(feat_pid + weight_pointer)
        bias = tl.load(feat_pid + bias_pointer)

    else:
        weight = 1.
        bias = 0.

    for block_ind in range(0, tl.cdiv(spatial_dim, BLOCK_SIZE_SPATIAL)):
        spatial_offset = (block_ind * BLOCK_SIZE_SPATIAL +
                          tl.arange(0, BLOCK_SIZE_SPATIAL))
        spatial_mask = spatial_offset < spatial_dim

        curr_input_pointer = (input_pointer +
                              input_feat_stride * feat_pid +
                              input_batch_stride * batch_offset[:, None] +
                              input_spatial_stride * spatial_offset[None, :])
        curr_output_pointer = (output_pointer +
                               output_feat_stride * feat_pid +
                               output_batch_stride * batch_offset[:, None] +
                               output_spatial_stride * spatial_offset[None, :])

        curr_input = tl.load(curr_input_pointer,
                             mask=batch_mask[:, None] & spatial_mask[None, :]).to(tl.float32)
        output = weight * (curr_input - mean) * inv_std + bias
        tl.store(curr_output_pointer, output,
                 mask=batch_mask[:, None] & spatial_mask[None, :])


def make_inputs(N: int, C: int, H: int, W: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [N, C, H, W] fp32 (a per-channel offset and scale), weight / bias [C], running mean / var [C]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((N, C, H, W), device=device, generator=g)
    x = x * (torch.rand((1, C, 1, 1), device=device, generator=g) * 2 + 0.5) \
        + torch.randn((1, C, 1, 1), device=device, generator=g)
    w = torch.rand((C,), device=device, generator=g) + 0.5
    b = torch.randn((C,), device=device, generator=g)
    rm = torch.randn((C,), device=device, generator=g) * 0.1
    rv = torch.rand((C,), device=device, generator=g) + 0.5
    return {"x": x, "weight": w, "bias": b, "running_mean": rm, "running_var": rv}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(y [N, C, H, W], mean [C], inv_std [C], running_mean [C], running_var [C]) as ``BatchNormAutoGrad.forward``
    in training mode with requires_grad (save_stats)."""
    import torch
    input = inputs["x"]
    weight, bias = inputs["weight"], inputs["bias"]
    running_mean, running_var = inputs["running_mean"].clone(), inputs["running_var"].clone()
    momentum, eps = 0.1, 1e-5
    input_3d = input.flatten(2, -1)
    input_3d = input_3d.transpose(0, -1)
    batch_dim, feat_dim, spatial_dim = input_3d.shape
    output = torch.empty_like(input_3d)
    mean = torch.empty(feat_dim, device=input.device, dtype=torch.float32)
    inv_std = torch.empty(feat_dim, device=input.device, dtype=torch.float32)
    grid = lambda _: (feat_dim,)
    batch_norm_forward_kernel[grid](input_3d, weight, bias,
                                    mean, inv_std, output,
                                    running_mean, running_var,
                                    batch_dim, spatial_dim,
                                    *input_3d.stride(), *output.stride(),
                                    momentum, eps,
                                    affine=True,
                                    save_stats=True,
                                    track_running_stats=True,
                                    is_train=True)
    output = output.transpose(0, -1)
    return output.reshape(input.shape), mean, inv_std, running_mean, running_var


def reference(inputs: dict[str, Any]) -> Any:
    """torch's training-mode batch norm in fp64 (biased variance for the output, unbiased for running_var)."""
    import torch
    x = inputs["x"].double()
    mean = x.mean(dim=(0, 2, 3))
    var = x.var(dim=(0, 2, 3), unbiased=False)
    n = x.numel() // x.shape[1]
    inv_std = 1 / torch.sqrt(var + 1e-5)
    y = (x - mean[None, :, None, None]) * inv_std[None, :, None, None] * inputs["weight"].double()[None, :, None, None] \
        + inputs["bias"].double()[None, :, None, None]
    rm = 0.9 * inputs["running_mean"].double() + 0.1 * mean
    rv = 0.9 * inputs["running_var"].double() + 0.1 * var * n / (n - 1)
    return y, mean, inv_std, rm, rv


def flops(N: int, C: int, H: int, W: int) -> float:
    """Two passes: about 6 flops an element for the Welford pass, 4 for the normalisation."""
    return 10.0 * N * C * H * W
