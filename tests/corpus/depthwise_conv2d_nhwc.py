"""Depthwise 3x3 convolution, NHWC (channels last), in the style of the Triton vision kernels (the depthwise
kernels of the timm / MobileNet / ConvNeXt Triton ports and triton-conv's direct convolutions): stride 1, padding 1,
one program per (image n, block of BLOCK_P output pixels of the flattened H*W plane, block of BLOCK_C channels).

The constructs: the output pixels' (oh, ow) from the flat pixel index by ``//`` and ``%`` by W; **two nested loops
over constexpr trip counts** ``for kh in range(KH): for kw in range(KW):`` (KH = KW = 3, written with plain
``range`` over constexprs as those kernels do, so nine iterations of an scf.for nest, not unrolled by the frontend),
each tap loading an input tile [BLOCK_P, BLOCK_C] at ``(ih, iw) = (oh + kh - PAD, ow + kw - PAD)`` with a **boundary
mask** for the zero padding (``(ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)``, and'ed with the pixel and channel
tails) and the tap's weights [BLOCK_C] (weight stored [KH, KW, C], channels contiguous), a broadcast multiply-add
into a fp32 [BLOCK_P, BLOCK_C] accumulator (no tl.dot: a depthwise conv has no reduction over channels); after the
loops the bias [C] added and the tile stored fp16. fp16 input / weight / output. MobileNetV2-like shape (56x56,
C = 144 is not a multiple of BLOCK_C: the channel tail is masked). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

KH, KW, PAD = 3, 3, 1
BLOCK_P, BLOCK_C = 64, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "depthwise_conv2d_nhwc_kernel",
    "signature": {"x_ptr": "*fp16", "w_ptr": "*fp16", "b_ptr": "*fp16", "y_ptr": "*fp16", "H": "i32", "W": "i32",
                  "C": "i32", "stride_xn": "i32", "stride_xh": "i32", "stride_xw": "i32",
                  "stride_yn": "i32", "stride_yh": "i32", "stride_yw": "i32"},
    "constexprs": {"KH": KH, "KW": KW, "PAD": PAD, "BLOCK_P": BLOCK_P, "BLOCK_C": BLOCK_C},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["x_ptr", "w_ptr", "b_ptr", "y_ptr", "C", "stride_xn", "stride_xh", "stride_xw",
                     "stride_yn", "stride_yh", "stride_yw"]}
PROBLEM: dict[str, int] = {"N": 64, "H": 56, "W": 56, "C": 144}
SMALL: dict[str, int] = {"N": 2, "H": 9, "W": 7, "C": 80}


@triton.jit
def depthwise_conv2d_nhwc_kernel(
    x_ptr, w_ptr, b_ptr, y_ptr,
    H, W, C,
    stride_xn, stride_xh, stride_xw,
    stride_yn, stride_yh, stride_yw,
    KH: tl.constexpr, KW: tl.constexpr, PAD: tl.constexpr,
    BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr,
):
    pid_n = tl.program_id(0)
    pid_p = tl.program_id(1)
    pid_c = tl.program_id(2)

    offs_p = pid_p * BLOCK_P + tl.arange(0, BLOCK_P)
    offs_c = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    mask_p = offs_p < H * W
    mask_c = offs_c < C
    oh = offs_p // W
    ow = offs_p % W

    x_base = x_ptr + pid_n.to(tl.int64) * stride_xn
    acc = tl.zeros((BLOCK_P, BLOCK_C), dtype=tl.float32)
    for kh in range(KH):
        ih = oh + kh - PAD
        for kw in range(KW):
            iw = ow + kw - PAD
            in_bounds = mask_p & (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
            x_ptrs = x_base + (ih * stride_xh + iw * stride_xw)[:, None] + offs_c[None, :]
            x = tl.load(x_ptrs, mask=in_bounds[:, None] & mask_c[None, :], other=0.0)
            w = tl.load(w_ptr + (kh * KW + kw) * C + offs_c, mask=mask_c, other=0.0)
            acc += x.to(tl.float32) * w.to(tl.float32)[None, :]

    bias = tl.load(b_ptr + offs_c, mask=mask_c, other=0.0)
    acc += bias.to(tl.float32)[None, :]
    y_ptrs = y_ptr + pid_n.to(tl.int64) * stride_yn + (oh * stride_yh + ow * stride_yw)[:, None] + offs_c[None, :]
    tl.store(y_ptrs, acc.to(y_ptr.dtype.element_ty), mask=mask_p[:, None] & mask_c[None, :])


def make_inputs(N: int, H: int, W: int, C: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [N, H, W, C] fp16 (channels last), weight [KH, KW, C] fp16 (PyTorch's [C, 1, KH, KW] permuted), bias [C]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((N, H, W, C), device=device, generator=g).half()
    w = (torch.randn((KH, KW, C), device=device, generator=g) / 3.0).half()
    b = (torch.randn((C,), device=device, generator=g) * 0.1).half()
    return {"x": x, "w": w, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y [N, H, W, C] fp16, flattened, as fp32."""
    import torch
    x, w, b = inputs["x"], inputs["w"], inputs["b"]
    N, H, W, C = x.shape
    y = torch.empty_like(x)
    grid = (N, triton.cdiv(H * W, BLOCK_P), triton.cdiv(C, BLOCK_C))
    depthwise_conv2d_nhwc_kernel[grid](x, w, b, y, H, W, C, x.stride(0), x.stride(1), x.stride(2),
                                       y.stride(0), y.stride(1), y.stride(2), KH=KH, KW=KW, PAD=PAD,
                                       BLOCK_P=BLOCK_P, BLOCK_C=BLOCK_C, num_warps=config.get("num_warps", 4),
                                       num_stages=config.get("num_stages", 2))
    return y.float().flatten()


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, w, b = (inputs[n].double() for n in ("x", "w", "b"))
    C = x.shape[-1]
    y = torch.nn.functional.conv2d(x.permute(0, 3, 1, 2), w.permute(2, 0, 1).unsqueeze(1), b, stride=1,
                                   padding=PAD, groups=C)
    return y.permute(0, 2, 3, 1).half().double().flatten()


def flops(N: int, H: int, W: int, C: int) -> float:
    return 2.0 * N * H * W * C * KH * KW
