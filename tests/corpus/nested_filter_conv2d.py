"""A convolution as an implicit GEMM over NHWC activations whose filter size is a runtime argument, in the style of
hand-written Triton conv kernels (and of Inductor's template before it unrolled or flattened the taps): a **nest of
three loops** ``for i in range(KH): for j in range(KW): for k in range(0, IN_C, BLOCK_K)`` carrying the accumulator
through all three (a perfect nest: each tap's row offsets and padding mask computed in its loop's body before the
channel loop), each tap's rows gathered with a padding mask from the output position (``//`` and ``%`` of the flat
row index), the weights [KH, KW, C_in, C_out]. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_conv_fwd",
    "signature": {"X": "*fp16", "W": "*fp16", "Y": "*fp16", "BATCH": "i32", "IN_H": "i32", "IN_W": "i32",
                  "OUT_H": "i32", "OUT_W": "i32", "IN_C": "i32", "OUT_C": "i32", "KERNEL_H": "i32",
                  "KERNEL_W": "i32", "PADDING_H": "i32", "PADDING_W": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
    "num_warps": 8, "num_stages": 3, "divisibility": ["IN_C", "OUT_C"]}
PROBLEM: dict[str, int] = {"BATCH": 32, "HW": 56, "IN_C": 256, "OUT_C": 256}
SMALL: dict[str, int] = {"BATCH": 2, "HW": 9, "IN_C": 128, "OUT_C": 128}


@triton.jit
def _conv_fwd(X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, KERNEL_H, KERNEL_W, PADDING_H, PADDING_W,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    nhw = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    idx_y_w = nhw % OUT_W
    nh = nhw // OUT_W
    idx_y_h = nh % OUT_H
    idx_n = nh // OUT_H
    idx_y_c = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for i in range(KERNEL_H):
        idx_x_h = i - PADDING_H + idx_y_h
        h_ok = (idx_n < BATCH) & (idx_x_h >= 0) & (idx_x_h < IN_H)
        for j in range(KERNEL_W):
            idx_x_w = j - PADDING_W + idx_y_w
            row_ok = h_ok & (idx_x_w >= 0) & (idx_x_w < IN_W)
            x_base = X + ((idx_n * IN_H + idx_x_h) * IN_W + idx_x_w) * IN_C
            for k in range(0, IN_C, BLOCK_K):
                idx_x_c = k + tl.arange(0, BLOCK_K)
                x = tl.load(x_base[:, None] + idx_x_c[None, :], mask=row_ok[:, None] & (idx_x_c[None, :] < IN_C),
                            other=0.0)
                w = tl.load(W + ((i * KERNEL_W + j) * IN_C + idx_x_c[:, None]) * OUT_C + idx_y_c[None, :],
                            mask=(idx_x_c[:, None] < IN_C) & (idx_y_c[None, :] < OUT_C), other=0.0)
                acc += tl.dot(x, w)
    mask = (nhw[:, None] < BATCH * OUT_H * OUT_W) & (idx_y_c[None, :] < OUT_C)
    tl.store(Y + nhw[:, None] * OUT_C + idx_y_c[None, :], acc.to(tl.float16), mask=mask)


def make_inputs(BATCH: int, HW: int, IN_C: int, OUT_C: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [BATCH, HW, HW, IN_C] fp16 (NHWC); w [3, 3, IN_C, OUT_C] fp16 scaled by 1/sqrt(9 IN_C)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((BATCH, HW, HW, IN_C), device=device, generator=g).half()
    w = (torch.randn((3, 3, IN_C, OUT_C), device=device, generator=g) / (9 * IN_C) ** 0.5).half()
    return {"x": x, "w": w}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    x, w = inputs["x"], inputs["w"]
    B, H, W_, C = x.shape
    OC = w.shape[3]
    y = torch.empty((B, H, W_, OC), device=x.device, dtype=torch.float16)
    grid = (triton.cdiv(B * H * W_, 128), triton.cdiv(OC, 128))
    _conv_fwd[grid](x, w, y, B, H, W_, H, W_, C, OC, 3, 3, 1, 1,
                    BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, num_warps=config.get("num_warps", 8),
                    num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    """torch's conv2d in fp32 on the NCHW views, back to NHWC."""
    import torch
    x = inputs["x"].float().permute(0, 3, 1, 2)
    w = inputs["w"].float().permute(3, 2, 0, 1)
    return torch.nn.functional.conv2d(x, w, padding=1).permute(0, 2, 3, 1)


def flops(BATCH: int, HW: int, IN_C: int, OUT_C: int) -> float:
    return 2.0 * BATCH * HW * HW * IN_C * OUT_C * 9
