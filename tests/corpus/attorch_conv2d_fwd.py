"""attorch's direct 2-D convolution forward, ``conv2d_forward_kernel`` (BobMcDear/attorch ``attorch/conv_kernels.py``
at commit a8eae27a6443, launched by ``Conv2dAutoGrad.forward`` in ``attorch/conv_layer.py`` under fp16 autocast,
so ``fp16=True`` and an fp16 output from the layer's fp32 input and weights).

The constructs: **a nest of three loops** ``for h in range(kernel_height): for w in range(kernel_width): for c in
range(0, in_group_dim, BLOCK_SIZE_IN_FEAT)`` (two constexpr trip counts, then a runtime one from ``in_feat_dim //
groups``) carrying one [BLOCK_SIZE_BATCH_HEIGHT_WIDTH, BLOCK_SIZE_OUT_FEAT] accumulator through all three, the
tap's height / width offsets and the padding mask recomputed **inside the innermost loop** from the outer
induction variables; NCHW activations gathered per tap (rows from ``//`` and ``%`` of the flat
batch*height*width index, six-term mask), the weights [out, in, kh, kw] read K-major with the tap added as a
scalar offset; a 3-D grid whose axis 2 is the convolution group (pointers offset by ``group_pid``); fp32 loads
**converted to fp16 in the loop** under the constexpr ``fp16`` before ``tl.dot``; ``@triton.autotune`` over 16
configs from a plain helper (``conv2d_forward_config``, ``get_n_stages`` copied from attorch/utils.py as the
identity on Triton >= 2.2). Nothing in the kernel is changed. ResNet-50 layer2 3x3 convolution: 32 x 128 x 28 x 28,
128 filters, stride 1, padding 1; the first config (128 x 32 x 128, 8 warps, 2 stages)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "conv2d_forward_kernel",
    "signature": {"input_pointer": "*fp32", "weight_pointer": "*fp32", "output_pointer": "*fp16",
                  "batch_dim": "i32", "in_feat_dim": "i32", "in_height": "i32", "in_width": "i32",
                  "out_feat_dim": "i32", "out_height": "i32", "out_width": "i32",
                  "input_batch_stride": "i32", "input_in_feat_stride": "i32", "input_height_stride": "i32",
                  "input_width_stride": "constexpr",
                  "weight_out_feat_stride": "i32", "weight_in_feat_stride": "i32", "weight_height_stride": "i32",
                  "weight_width_stride": "constexpr",
                  "output_batch_stride": "i32", "output_out_feat_stride": "i32", "output_height_stride": "i32",
                  "output_width_stride": "constexpr"},
    "constexprs": {"input_width_stride": 1, "weight_width_stride": 1, "output_width_stride": 1,
                   "kernel_height": 3, "kernel_width": 3, "stride_height": 1, "stride_width": 1,
                   "padding_height": 1, "padding_width": 1, "groups": 1, "fp16": True,
                   "BLOCK_SIZE_BATCH_HEIGHT_WIDTH": 128, "BLOCK_SIZE_IN_FEAT": 32, "BLOCK_SIZE_OUT_FEAT": 128},
    "num_warps": 8, "num_stages": 2,
    # 28 x 28 images: the height strides (28) and 9-element filter strides are not 16-divisible
    "divisibility": ["batch_dim", "in_feat_dim", "out_feat_dim", "input_batch_stride", "input_in_feat_stride",
                     "weight_out_feat_stride", "output_batch_stride", "output_out_feat_stride"]}
PROBLEM: dict[str, int] = {"N": 32, "C": 128, "H": 28, "W": 28, "F": 128}
SMALL: dict[str, int] = {"N": 2, "C": 40, "H": 10, "W": 9, "F": 24}


def get_n_stages(n_stages: int = 2) -> int:
    """
    Receives number of stages for software pipelining and returns it as-is
    if the Triton version is greater than or equal to 2.2.0, and 2 otherwise.
    """
    return n_stages


def conv2d_forward_config(
    BLOCK_SIZE_BATCH_HEIGHT_WIDTH: int,
    BLOCK_SIZE_IN_FEAT: int,
    BLOCK_SIZE_OUT_FEAT: int,
    n_warps: int = 4,
    n_stages: int = 2,
    ) -> triton.Config:
    """
    Creates a triton.Config object for conv2d_forward_kernel
    given meta-parameters for auto-tuning.
    """
    return triton.Config({'BLOCK_SIZE_BATCH_HEIGHT_WIDTH': BLOCK_SIZE_BATCH_HEIGHT_WIDTH,
                          'BLOCK_SIZE_IN_FEAT': BLOCK_SIZE_IN_FEAT,
                          'BLOCK_SIZE_OUT_FEAT': BLOCK_SIZE_OUT_FEAT},
                          num_warps=n_warps, num_stages=get_n_stages(n_stages))


@triton.autotune(
    configs=[
        conv2d_forward_config(128, 32, 128, n_warps=8, n_stages=2),
        conv2d_forward_config(256, 32, 64, n_warps=8, n_stages=2),
        conv2d_forward_config(256, 32, 32, n_warps=4, n_stages=4),
        conv2d_forward_config(256, 64, 32, n_warps=4, n_stages=4),
        conv2d_forward_config(256, 32, 16, n_warps=2, n_stages=4),
        conv2d_forward_config(64, 32, 128, n_warps=8, n_stages=4),
        conv2d_forward_config(128, 32, 64, n_warps=4, n_stages=4),
        conv2d_forward_config(64, 32, 64, n_warps=4, n_stages=4),
        conv2d_forward_config(128, 32, 16, n_warps=4, n_stages=4),
        conv2d_forward_config(128, 128, 128, n_warps=8, n_stages=3),
        conv2d_forward_config(256, 128, 64, n_warps=8, n_stages=3),
        conv2d_forward_config(256, 128, 32, n_warps=4, n_stages=4),
        conv2d_forward_config(64, 128, 128, n_warps=4, n_stages=4),
        conv2d_forward_config(128, 128, 64, n_warps=4, n_stages=4),
        conv2d_forward_config(128, 64, 32, n_warps=2, n_stages=4),
        conv2d_forward_config(64, 64, 64, n_warps=2, n_stages=4),
    ],
    key=['batch_dim', 'in_feat_dim', 'in_height', 'in_width',
         'out_feat_dim', 'out_height', 'out_width',
         'kernel_height', 'kernel_width',
         'stride_height', 'stride_width',
         'padding_height', 'padding_width',
         'groups', 'fp16'],
)
@triton.jit
def conv2d_forward_kernel(
    input_pointer, weight_pointer, output_pointer,
    batch_dim, in_feat_dim, in_height, in_width,
    out_feat_dim, out_height, out_width,
    input_batch_stride, input_in_feat_stride, input_height_stride, input_width_stride,
    weight_out_feat_stride, weight_in_feat_stride, weight_height_stride, weight_width_stride,
    output_batch_stride, output_out_feat_stride, output_height_stride, output_width_stride,
    kernel_height: tl.constexpr, kernel_width: tl.constexpr,
    stride_height: tl.constexpr, stride_width: tl.constexpr,
    padding_height: tl.constexpr, padding_width: tl.constexpr,
    groups: tl.constexpr, fp16: tl.constexpr,
    BLOCK_SIZE_BATCH_HEIGHT_WIDTH: tl.constexpr, BLOCK_SIZE_IN_FEAT: tl.constexpr,
    BLOCK_SIZE_OUT_FEAT: tl.constexpr,
    ):
    """
    2D-convolves over the input using weights.
    """
    batch_height_width_pid = tl.program_id(0)
    out_feat_pid = tl.program_id(1)
    group_pid = tl.program_id(2)

    in_group_dim = in_feat_dim // groups
    out_group_dim = out_feat_dim // groups

    batch_height_width_offset = (batch_height_width_pid * BLOCK_SIZE_BATCH_HEIGHT_WIDTH +
                                 tl.arange(0, BLOCK_SIZE_BATCH_HEIGHT_WIDTH))
    batch_height_offset = batch_height_width_offset // out_width
    batch_offset = batch_height_offset // out_height

    output_feat_offset = (out_feat_pid * BLOCK_SIZE_OUT_FEAT +
                          tl.arange(0, BLOCK_SIZE_OUT_FEAT))
    output_height_offset = batch_height_offset % out_height
    output_width_offset = batch_height_width_offset % out_width

    input_pointer += (input_batch_stride * batch_offset +
                      input_in_feat_stride * group_pid * in_group_dim)[:, None]
    weight_pointer += (weight_out_feat_stride * output_feat_offset +
                       weight_out_feat_stride * group_pid * out_group_dim)[None, :]

    accum = tl.zeros((BLOCK_SIZE_BATCH_HEIGHT_WIDTH, BLOCK_SIZE_OUT_FEAT),
                     dtype=tl.float32)

    for h in range(kernel_height):
        for w in range(kernel_width):
            for c in range(0, in_group_dim, BLOCK_SIZE_IN_FEAT):
                input_feat_offset = c + tl.arange(0, BLOCK_SIZE_IN_FEAT)
                input_height_offset = (h - padding_height +
                                       stride_height * output_height_offset)
                input_width_offset = (w - padding_width +
                                      stride_width * output_width_offset)

                curr_input_pointer = (input_pointer +
                                     (input_in_feat_stride * input_feat_offset)[None, :] +
                                     (input_height_stride * input_height_offset)[:, None] +
                                     (input_width_stride * input_width_offset)[:, None])
                curr_weight_pointer = (weight_pointer +
                                      (weight_in_feat_stride * input_feat_offset)[:, None] +
                                      (weight_height_stride * h) +
                                      (weight_width_stride * w))

                input_mask = ((batch_offset < batch_dim)[:, None] &
                              (input_feat_offset < in_group_dim)[None, :] &
                              (0 <= input_height_offset)[:, None] &
                              (input_height_offset < in_height)[:, None] &
                              (0 <= input_width_offset)[:, None] &
                              (input_width_offset < in_width)[:, None])
                weight_mask = ((input_feat_offset < in_group_dim)[:, None] &
                               (output_feat_offset < out_group_dim)[None, :])

                input_block = tl.load(curr_input_pointer, mask=input_mask)
                weight_block = tl.load(curr_weight_pointer, mask=weight_mask)

                if fp16:
                    input_block = input_block.to(tl.float16)
                    weight_block = weight_block.to(tl.float16)

                accum += tl.dot(input_block, weight_block)

    output_pointer += ((output_batch_stride * batch_offset)[:, None] +
                       (output_out_feat_stride * (group_pid * out_group_dim + output_feat_offset))[None, :] +
                       (output_height_stride * output_height_offset)[:, None] +
                       (output_width_stride * output_width_offset)[:, None])
    output_mask = ((batch_offset < batch_dim)[:, None] &
                   (output_feat_offset < out_group_dim)[None, :] &
                   (output_height_offset < out_height)[:, None] &
                   (output_width_offset < out_width)[:, None])

    tl.store(output_pointer, accum, mask=output_mask)


def make_inputs(N: int, C: int, H: int, W: int, F: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [N, C, H, W] fp32, weight [F, C, 3, 3] fp32 (the layer's parameters; autocast makes the output fp16)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((N, C, H, W), device=device, generator=g)
    w = torch.randn((F, C, 3, 3), device=device, generator=g) / (9 * C) ** 0.5
    return {"x": x, "weight": w}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y [N, F, H, W] fp16, as ``Conv2dAutoGrad.forward(x, weight, None, 1, 1, 1, 1, 1)`` under fp16 autocast."""
    import torch
    input, weight = inputs["x"], inputs["weight"]
    stride_height = stride_width = 1
    padding_height = padding_width = 1
    groups = 1
    batch_dim, in_feat_dim, in_height, in_width = input.shape
    out_feat_dim, _, kernel_height, kernel_width = weight.shape
    out_height = (in_height + 2 * padding_height - kernel_height) // stride_height + 1
    out_width = (in_width + 2 * padding_width - kernel_width) // stride_width + 1
    output_dtype = torch.float16
    output = torch.empty((batch_dim, out_feat_dim, out_height, out_width),
                         device=input.device, dtype=output_dtype)
    grid = lambda META: (triton.cdiv(batch_dim * out_height * out_width, META['BLOCK_SIZE_BATCH_HEIGHT_WIDTH']),
                         triton.cdiv(out_feat_dim, META['BLOCK_SIZE_OUT_FEAT']),
                         groups)
    conv2d_forward_kernel[grid](input, weight, output,
                                batch_dim, in_feat_dim, in_height, in_width,
                                out_feat_dim, out_height, out_width,
                                *input.stride(),
                                *weight.stride(),
                                *output.stride(),
                                kernel_height, kernel_width,
                                stride_height, stride_width,
                                padding_height, padding_width,
                                groups=groups,
                                fp16=output_dtype is torch.float16)
    return output


def reference(inputs: dict[str, Any]) -> Any:
    """conv2d(x, w, padding=1) in fp64 from fp16-rounded operands."""
    import torch
    x = inputs["x"].half().double()
    w = inputs["weight"].half().double()
    return torch.nn.functional.conv2d(x, w, padding=1)


def flops(N: int, C: int, H: int, W: int, F: int) -> float:
    """2 * N * F * H * W * C * 9."""
    return 2.0 * N * F * H * W * C * 9
