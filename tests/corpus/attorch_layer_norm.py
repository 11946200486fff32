"""A two-pass LayerNorm forward in the style of attorch's ``layer_norm_forward_kernel`` (attorch/layer_norm_kernels.py:
its signature, ``@triton.heuristics`` for BLOCK_SIZE_BATCH / BLOCK_SIZE_FEAT, 2-D [BLOCK_SIZE_BATCH, BLOCK_SIZE_FEAT]
tiles with batch and feature masks, ``scale_by_weight`` / ``add_bias`` / ``save_stats`` constexprs, mean and inv_std
saved) and of the Triton tutorial 05's ``_layer_norm_fwd_fused`` (loops over the row in BLOCK_SIZE_FEAT chunks, for
rows wider than one block). attorch itself loads the whole row in one block and has no loop, and it wraps the kernel
in ``@triton.autotune`` over num_warps (``warps_kernel_configs()``); this variant caps BLOCK_SIZE_FEAT at 1024 and
loops, and takes num_warps from the launch as the tutorial does (no autotune). Pass 1 accumulates the sum and the sum
of squares of the row in fp32 ([BLOCK_SIZE_BATCH, BLOCK_SIZE_FEAT] accumulators, reduced with ``tl.sum(axis=1)``
after the loop), the mean and ``tl.rsqrt`` inv_std are stored between the loops, pass 2 normalises, scales by the
weight and adds the bias (nested ``if scale_by_weight: ... if add_bias:``), stored with an implicit fp32 -> fp16
cast. fp16 input / weight / bias / output, fp32 mean and inv_std."""
from __future__ import annotations

from typing import Any, Dict

import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 1024
TWILL_SPEC: dict[str, Any] = {
    "kernel": "layer_norm_forward_kernel",
    "signature": {"input_pointer": "*fp16", "weight_pointer": "*fp16", "bias_pointer": "*fp16",
                  "mean_pointer": "*fp32", "inv_std_pointer": "*fp32", "output_pointer": "*fp16",
                  "batch_dim": "i32", "feat_dim": "i32",
                  "input_batch_stride": "i32", "input_feat_stride": "constexpr",
                  "output_batch_stride": "i32", "output_feat_stride": "constexpr", "eps": "fp32"},
    "constexprs": {"input_feat_stride": 1, "output_feat_stride": 1, "scale_by_weight": True, "add_bias": True,
                   "save_stats": True, "BLOCK_SIZE_BATCH": 1, "BLOCK_SIZE_FEAT": MAX_FUSED_SIZE},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["feat_dim", "input_batch_stride", "output_batch_stride"]}
PROBLEM: dict[str, int] = {"batch_dim": 8192, "feat_dim": 4096}
SMALL: dict[str, int] = {"batch_dim": 7, "feat_dim": 1040}     # a ragged last feature block; 16-divisible


def BLOCK_SIZE_BATCH_heuristic(args: Dict) -> int:
    """
    Approximates an appropriate batch block size for layer normalization.

    Args:
        args: Arguments to layer normalization kernel.

    Returns:
        Appropriate batch block size.
    """
    return (min(max(1, triton.next_power_of_2(args['batch_dim'] // 2 ** 10)), 128)
            if args['feat_dim'] < 64 else 1)


@triton.heuristics({'BLOCK_SIZE_BATCH': BLOCK_SIZE_BATCH_heuristic,
                    'BLOCK_SIZE_FEAT': lambda args: min(triton.next_power_of_2(args['feat_dim']), MAX_FUSED_SIZE)})
@triton.jit
def layer_norm_forward_kernel(
    input_pointer, weight_pointer, bias_pointer,
    mean_pointer, inv_std_pointer, output_pointer,
    batch_dim, feat_dim,
    input_batch_stride, input_feat_stride,
    output_batch_stride, output_feat_stride,
    eps,
    scale_by_weight: tl.constexpr, add_bias: tl.constexpr,
    save_stats: tl.constexpr,
    BLOCK_SIZE_BATCH: tl.constexpr, BLOCK_SIZE_FEAT: tl.constexpr,
):
    """
    Layer-normalizes the input.

    Args:
        input_pointer: Pointer to the input to layer-normalize.
            The input must be of shape [batch_dim, feat_dim].
        weight_pointer: Pointer to optional weights for affine transform.
            The weights, if provided, must be of shape [feat_dim].
        bias_pointer: Pointer to an optional bias vector for affine transform.
            The bias vector, if provided, must be of shape [feat_dim].
        mean_pointer: Pointer to an optional container the input's mean
            is written to if save_stats is True.
            The container, if provided, must be of shape [batch_dim].
        inv_std_pointer: Pointer to an optional container the input's inverse
            standard deviation is written to if save_stats is True.
            The container, if provided, must be of shape [batch_dim].
        output_pointer: Pointer to a container the result is written to.
            The container must be of shape [batch_dim, feat_dim].
        batch_dim: Batch dimension.
        feat_dim: Dimensionality of the features.
        input_batch_stride: Stride necessary to jump one element along the
            input's batch dimension.
        input_feat_stride: Stride necessary to jump one element along the
            input's feature dimension.
        output_batch_stride: Stride necessary to jump one element along the
            output container's batch dimension.
        output_feat_stride: Stride necessary to jump one element along the
            output container's feature dimension.
        eps: Epsilon added in the square root in the denominator
            to avoid division by zero.
        scale_by_weight: Flag for scaling the normalized output by weights.
        add_bias: Flag for adding a bias vector to the normalized output
            if scale_by_weight is True.
        save_stats: Flag for saving the mean and standard deviation.
        BLOCK_SIZE_BATCH: Block size across the batch dimension.
        BLOCK_SIZE_FEAT: Block size across the feature dimension.
    """
    # This program processes BLOCK_SIZE_BATCH rows and BLOCK_SIZE_FEAT columns.
    batch_pid = tl.program_id(axis=0)

    batch_offset = batch_pid * BLOCK_SIZE_BATCH + tl.arange(0, BLOCK_SIZE_BATCH)
    batch_mask = batch_offset < batch_dim

    input_pointer += input_batch_stride * batch_offset[:, None]
    output_pointer += output_batch_stride * batch_offset[:, None]

    # Pass 1: the mean and the variance, a block of features at a time.
    sum_acc = tl.zeros([BLOCK_SIZE_BATCH, BLOCK_SIZE_FEAT], dtype=tl.float32)
    sq_acc = tl.zeros([BLOCK_SIZE_BATCH, BLOCK_SIZE_FEAT], dtype=tl.float32)
    for feat_start in range(0, feat_dim, BLOCK_SIZE_FEAT):
        feat_offset = feat_start + tl.arange(0, BLOCK_SIZE_FEAT)
        feat_mask = feat_offset < feat_dim
        input = tl.load(input_pointer + input_feat_stride * feat_offset[None, :],
                        mask=batch_mask[:, None] & feat_mask[None, :], other=0.).to(tl.float32)
        sum_acc += input
        sq_acc += input * input

    mean = tl.sum(sum_acc, axis=1) / feat_dim
    var = tl.sum(sq_acc, axis=1) / feat_dim - mean * mean
    inv_std = tl.rsqrt(var + eps)

    if save_stats:
        tl.store(mean_pointer + batch_offset, mean, mask=batch_mask)
        tl.store(inv_std_pointer + batch_offset, inv_std, mask=batch_mask)

    # Pass 2: normalise, scale and shift, a block of features at a time.
    for feat_start in range(0, feat_dim, BLOCK_SIZE_FEAT):
        feat_offset = feat_start + tl.arange(0, BLOCK_SIZE_FEAT)
        feat_mask = feat_offset < feat_dim
        input = tl.load(input_pointer + input_feat_stride * feat_offset[None, :],
                        mask=batch_mask[:, None] & feat_mask[None, :], other=0.).to(tl.float32)
        output = (input - mean[:, None]) * inv_std[:, None]

        if scale_by_weight:
            weight = tl.load(weight_pointer + feat_offset, mask=feat_mask)
            output *= weight
            if add_bias:
                bias = tl.load(bias_pointer + feat_offset, mask=feat_mask)
                output += bias

        tl.store(output_pointer + output_feat_stride * feat_offset[None, :], output,
                 mask=batch_mask[:, None] & feat_mask[None, :])


def make_inputs(batch_dim: int, feat_dim: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((batch_dim, feat_dim), device=device, generator=g) * 2 + 0.5).half()
    w = (1 + 0.1 * torch.randn((feat_dim,), device=device, generator=g)).half()
    b = (0.1 * torch.randn((feat_dim,), device=device, generator=g)).half()
    return {"input": x, "weight": w, "bias": b, "eps": 1e-5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(output fp16 [batch_dim, feat_dim], mean fp32 [batch_dim], inv_std fp32 [batch_dim]), as attorch's
    LayerNormAutoGrad.forward launches the kernel (flattened to 2-D, save_stats when the input requires grad)."""
    input, weight, bias, eps = inputs["input"], inputs["weight"], inputs["bias"], inputs["eps"]
    scale_by_weight = weight is not None
    add_bias = scale_by_weight and bias is not None

    flattened_input = input.unsqueeze(0) if input.ndim == 1 else input
    flattened_input = flattened_input.flatten(0, -2)
    batch_dim, feat_dim = flattened_input.shape

    output = torch.empty_like(flattened_input)
    mean = torch.empty(batch_dim, device=input.device, dtype=torch.float32)
    inv_std = torch.empty(batch_dim, device=input.device, dtype=torch.float32)

    # Less than 64KB per feature: enqueue fused kernel
    grid = lambda META: (triton.cdiv(batch_dim, META['BLOCK_SIZE_BATCH']),)
    layer_norm_forward_kernel[grid](
        flattened_input, weight, bias,
        mean, inv_std, output,
        batch_dim, feat_dim,
        *flattened_input.stride(), *output.stride(),
        eps,
        scale_by_weight=scale_by_weight, add_bias=add_bias, save_stats=True,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return output.view_as(input), mean, inv_std


def reference(inputs: dict[str, Any]) -> Any:
    x = inputs["input"].double()
    mean = x.mean(-1)
    var = x.var(-1, unbiased=False)
    inv_std = torch.rsqrt(var + inputs["eps"])
    y = (x - mean[:, None]) * inv_std[:, None] * inputs["weight"].double() + inputs["bias"].double()
    return y, mean, inv_std
