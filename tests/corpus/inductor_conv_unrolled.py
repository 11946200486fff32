"""Inductor's Triton conv2d template (torch/_inductor/kernel/conv.py, ``triton_conv``) with ``UNROLL`` on, as it
renders a 3 x 3 convolution: NHWC activations, the filter taps unrolled at compile time (the template's jinja loops;
here ``tl.static_range``, which gives Triton the same nine loops) and, per tap, a loop over the input channels in
BLOCK_K steps, so the kernel holds **nine K loops in sequence, each carrying the accumulator from the one before**;
the output pixel block's (n, oh, ow) decoded from one flat index, the input rows at ``oh * stride - pad + i``
masked at the image's border (zero padding), the filter read as [KH, KW, C, OC]. fp16, BLOCK_M = 128 pixels,
BLOCK_N = 128 output channels, BLOCK_K = 64, 8 warps, 3 stages. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BM, BN, BK, KH, KW = 128, 128, 64, 3, 3
TWILL_SPEC: dict[str, Any] = {
    "kernel": "triton_conv",
    "signature": {"X": "*fp16", "W": "*fp16", "Y": "*fp16", "BATCH": "i32", "IN_H": "i32", "IN_W": "i32",
                  "IN_C": "i32", "OUT_H": "i32", "OUT_W": "i32", "OUT_C": "i32"},
    "constexprs": {"KERNEL_H": KH, "KERNEL_W": KW, "STRIDE": 1, "PADDING": 1, "BLOCK_M": BM, "BLOCK_N": BN,
                   "BLOCK_K": BK},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["X", "W", "Y", "IN_C", "OUT_C"]}
PROBLEM: dict[str, int] = {"BATCH": 32, "H": 56, "W": 56, "C": 256, "OC": 256}
SMALL: dict[str, int] = {"BATCH": 2, "H": 9, "W": 7, "C": 96, "OC": 136}


@triton.jit
def triton_conv(X, W, Y, BATCH, IN_H, IN_W, IN_C, OUT_H, OUT_W, OUT_C,
                KERNEL_H: tl.constexpr, KERNEL_W: tl.constexpr, STRIDE: tl.constexpr, PADDING: tl.constexpr,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    nhw = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    idx_y_w = nhw % OUT_W
    nh = nhw // OUT_W
    idx_y_h = nh % OUT_H
    idx_n = nh // OUT_H
    idx_y_c = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for i in tl.static_range(KERNEL_H):
        for j in tl.static_range(KERNEL_W):
            for k in range(0, IN_C, BLOCK_K):
                idx_x_h = idx_y_h * STRIDE - PADDING + i
                idx_x_w = idx_y_w * STRIDE - PADDING + j
                idx_x_c = k + tl.arange(0, BLOCK_K)
                x_ptrs = X + (((idx_n * IN_H + idx_x_h) * IN_W + idx_x_w) * IN_C)[:, None] + idx_x_c[None, :]
                mask_x = ((idx_n < BATCH) & (idx_x_h >= 0) & (idx_x_h < IN_H) & (idx_x_w >= 0)
                          & (idx_x_w < IN_W))[:, None] & (idx_x_c < IN_C)[None, :]
                matrix_x = tl.load(x_ptrs, mask=mask_x, other=0.0)
                w_ptrs = W + ((i * KERNEL_W + j) * IN_C + idx_x_c)[:, None] * OUT_C + idx_y_c[None, :]
                mask_w = (idx_x_c[:, None] < IN_C) & (idx_y_c[None, :] < OUT_C)
                matrix_w = tl.load(w_ptrs, mask=mask_w, other=0.0)
                acc += tl.dot(matrix_x, matrix_w)
    mask = (idx_n < BATCH)[:, None] & (idx_y_c < OUT_C)[None, :]
    y_ptrs = Y + (((idx_n * OUT_H + idx_y_h) * OUT_W + idx_y_w) * OUT_C)[:, None] + idx_y_c[None, :]
    tl.store(y_ptrs, acc.to(tl.float16), mask=mask)


def make_inputs(BATCH: int, H: int, W: int, C: int, OC: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [BATCH, H, W, C] and the filter [3, 3, C, OC] fp16 (scaled so y stays near 1)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((BATCH, H, W, C), device=device, generator=g).half()
    w = (torch.randn((KH, KW, C, OC), device=device, generator=g) / (9 * C) ** 0.5).half()
    return {"x": x, "w": w}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y [BATCH, H, W, OC] (stride 1, padding 1) flattened, fp32."""
    import torch
    x, w = inputs["x"], inputs["w"]
    B, H, W_, C = x.shape
    OC = w.shape[3]
    y = torch.empty((B, H, W_, OC), device=x.device, dtype=torch.float16)
    grid = (triton.cdiv(B * H * W_, BM), triton.cdiv(OC, BN))
    triton_conv[grid](x, w, y, B, H, W_, C, H, W_, OC, KERNEL_H=KH, KERNEL_W=KW, STRIDE=1, PADDING=1, BLOCK_M=BM,
                      BLOCK_N=BN, BLOCK_K=BK, num_warps=config.get("num_warps", 8),
                      num_stages=config.get("num_stages", 3))
    return y.float().flatten()


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].double().permute(0, 3, 1, 2)
    w = inputs["w"].double().permute(3, 2, 0, 1)          # [OC, C, KH, KW]
    y = torch.nn.functional.conv2d(x, w, padding=1)
    return y.permute(0, 2, 3, 1).half().double().flatten()


def flops(BATCH: int, H: int, W: int, C: int, OC: int) -> float:
    return 2.0 * BATCH * H * W * C * OC * KH * KW
