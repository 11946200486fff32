"""torchvision's ``roi_align`` forward (torchvision/csrc/ops/cuda/roi_align_kernel.cu, ``roi_align_forward_kernel_impl``
with its ``bilinear_interpolate``; the Triton ports in detection codebases keep its arithmetic) over a channels-last
FPN feature map: one program per (RoI, output bin), a block of 64 channels.

The constructs: the RoI's five floats **loaded and turned into loop bounds**: ``batch_idx``, the box scaled by
``spatial_scale`` and shifted by half a pixel (``aligned=True``), the bin size ``roi_h / POOLED_H``, and with
``sampling_ratio = 0`` the **adaptive sampling grid** ``grid_h = ceil(roi_h / POOLED_H)`` (a RoI's size decides its
trip counts: 1 to ~10 per axis); a **nested pair of loops** ``for iy in range(grid_h): for ix in range(grid_w)``
whose body is torchvision's bilinear interpolation on **scalars** (``y < -1 or y > H`` out of range: the sample
counts zero, clamping to 0, ``y_low = y.to(tl.int32)``, the edge case ``y_low >= H - 1`` chosen with ``tl.where``),
then **four gathered corners** ``feat[b, y, x, c0:c0+64]`` (channels-last: each a contiguous 128-byte row at
clamped, so in-bounds, coordinates, masked by ``offs_c < C``; an out-of-range sample's weights zeroed by a scalar
``tl.where``) weighted ``hy*hx, hy*lx, ly*hx, ly*lx`` and summed into an fp32 [64]
accumulator; the average over ``max(grid_h * grid_w, 1)`` samples stored as fp16. 7 x 7 bins, fp16 features, 2
warps. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_C = 64
POOLED_H = POOLED_W = 7
TWILL_SPEC: dict[str, Any] = {
    "kernel": "roi_align_fwd_nhwc_kernel",
    "signature": {"feat_ptr": "*fp16", "rois_ptr": "*fp32", "out_ptr": "*fp16", "spatial_scale": "fp32",
                  "H": "i32", "W": "i32", "C": "i32", "sampling_ratio": "i32"},
    "constexprs": {"POOLED_H": POOLED_H, "POOLED_W": POOLED_W, "BLOCK_C": BLOCK_C, "ALIGNED": True},
    "num_warps": 2, "num_stages": 2,
    "divisibility": ["feat_ptr", "rois_ptr", "out_ptr", "C"]}
# Mask R-CNN's box head on a P2-level map of an 800 x 1216 image pair: 1000 proposals, 256 channels
PROBLEM: dict[str, int] = {"N": 2, "H": 200, "W": 304, "C": 256, "R": 1000, "STRIDE": 4}
SMALL: dict[str, int] = {"N": 2, "H": 13, "W": 18, "C": 80, "R": 7, "STRIDE": 4}


@triton.jit
def roi_align_fwd_nhwc_kernel(feat_ptr, rois_ptr, out_ptr, spatial_scale, H, W, C, sampling_ratio,
                              POOLED_H: tl.constexpr, POOLED_W: tl.constexpr, BLOCK_C: tl.constexpr,
                              ALIGNED: tl.constexpr):
    pid = tl.program_id(0)
    pid_c = tl.program_id(1)
    pw = pid % POOLED_W
    ph = (pid // POOLED_W) % POOLED_H
    n = pid // (POOLED_W * POOLED_H)
    offs_c = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    mask_c = offs_c < C

    roi = rois_ptr + n * 5
    batch_idx = tl.load(roi).to(tl.int32)
    offset = 0.5 if ALIGNED else 0.0
    roi_start_w = tl.load(roi + 1) * spatial_scale - offset
    roi_start_h = tl.load(roi + 2) * spatial_scale - offset
    roi_end_w = tl.load(roi + 3) * spatial_scale - offset
    roi_end_h = tl.load(roi + 4) * spatial_scale - offset
    roi_width = roi_end_w - roi_start_w
    roi_height = roi_end_h - roi_start_h
    if not ALIGNED:
        roi_width = tl.maximum(roi_width, 1.0)
        roi_height = tl.maximum(roi_height, 1.0)
    bin_size_h = roi_height / POOLED_H
    bin_size_w = roi_width / POOLED_W

    if sampling_ratio > 0:
        roi_bin_grid_h = sampling_ratio
        roi_bin_grid_w = sampling_ratio
    else:
        roi_bin_grid_h = tl.ceil(roi_height / POOLED_H).to(tl.int32)
        roi_bin_grid_w = tl.ceil(roi_width / POOLED_W).to(tl.int32)
    count = tl.maximum(roi_bin_grid_h * roi_bin_grid_w, 1)

    base = feat_ptr + batch_idx.to(tl.int64) * H * W * C + offs_c
    acc = tl.zeros([BLOCK_C], dtype=tl.float32)
    for iy in range(0, roi_bin_grid_h):
        y = roi_start_h + ph * bin_size_h + (iy + 0.5) * bin_size_h / roi_bin_grid_h
        for ix in range(0, roi_bin_grid_w):
            x = roi_start_w + pw * bin_size_w + (ix + 0.5) * bin_size_w / roi_bin_grid_w
            valid = (y >= -1.0) & (y <= H) & (x >= -1.0) & (x <= W)
            yc = tl.maximum(y, 0.0)
            xc = tl.maximum(x, 0.0)
            y_low = yc.to(tl.int32)
            x_low = xc.to(tl.int32)
            y_edge = y_low >= H - 1
            x_edge = x_low >= W - 1
            y_low = tl.where(y_edge, H - 1, y_low)
            x_low = tl.where(x_edge, W - 1, x_low)
            y_high = tl.where(y_edge, H - 1, y_low + 1)
            x_high = tl.where(x_edge, W - 1, x_low + 1)
            yc = tl.where(y_edge, y_low.to(tl.float32), yc)
            xc = tl.where(x_edge, x_low.to(tl.float32), xc)
            ly = yc - y_low
            lx = xc - x_low
            hy = 1.0 - ly
            hx = 1.0 - lx
            # a sample out of range counts zero: its corners (clamped, so in bounds) weighted by nothing
            ly = tl.where(valid, ly, 0.0)
            hy = tl.where(valid, hy, 0.0)
            v1 = tl.load(base + (y_low * W + x_low) * C, mask=mask_c, other=0.0).to(tl.float32)
            v2 = tl.load(base + (y_low * W + x_high) * C, mask=mask_c, other=0.0).to(tl.float32)
            v3 = tl.load(base + (y_high * W + x_low) * C, mask=mask_c, other=0.0).to(tl.float32)
            v4 = tl.load(base + (y_high * W + x_high) * C, mask=mask_c, other=0.0).to(tl.float32)
            acc += hy * hx * v1 + hy * lx * v2 + ly * hx * v3 + ly * lx * v4

    out = out_ptr + pid.to(tl.int64) * C + offs_c
    tl.store(out, (acc / count).to(tl.float16), mask=mask_c)


def make_inputs(N: int, H: int, W: int, C: int, R: int, STRIDE: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """fp16 features [N, H, W, C] (channels-last); R boxes in image pixels (the map is 1 / STRIDE of the image),
    log-uniform sizes from 4 px to half the image, a few hanging over the border; rois [R, 5] fp32 (batch, x1, y1,
    x2, y2)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    feat = torch.randn((N, H, W, C), device=device, generator=g).half()
    img_h, img_w = H * STRIDE, W * STRIDE
    bw = torch.exp(torch.rand(R, device=device, generator=g) * (torch.log(torch.tensor(img_w / 2 / 4)))) * 4
    bh = torch.exp(torch.rand(R, device=device, generator=g) * (torch.log(torch.tensor(img_h / 2 / 4)))) * 4
    cx = torch.rand(R, device=device, generator=g) * img_w * 1.1 - 0.05 * img_w
    cy = torch.rand(R, device=device, generator=g) * img_h * 1.1 - 0.05 * img_h
    b = torch.randint(0, N, (R,), device=device, generator=g).float()
    rois = torch.stack([b, cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], 1).contiguous()
    return {"feat": feat, "rois": rois, "spatial_scale": 1.0 / STRIDE}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[R, 7, 7, C] fp16 (channels-last, as the NHWC box head reads it)."""
    import torch
    feat, rois = inputs["feat"], inputs["rois"]
    N, H, W, C = feat.shape
    R = rois.shape[0]
    out = torch.empty((R, POOLED_H, POOLED_W, C), device=feat.device, dtype=torch.float16)
    grid = (R * POOLED_H * POOLED_W, triton.cdiv(C, BLOCK_C))
    roi_align_fwd_nhwc_kernel[grid](feat, rois, out, inputs["spatial_scale"], H, W, C, 0, POOLED_H=POOLED_H,
                                    POOLED_W=POOLED_W, BLOCK_C=BLOCK_C, ALIGNED=True,
                                    num_warps=config.get("num_warps", 2), num_stages=config.get("num_stages", 2))
    return out


def _axis_weights(start: Any, bin_size: float, grid: int, pooled: int, size: int) -> Any:
    """[pooled, grid, size] double: each bin's samples' bilinear weights along one axis (torchvision's
    bilinear_interpolate), zero for a sample out of range."""
    import torch
    p = torch.arange(pooled, dtype=torch.float64)[:, None]
    i = torch.arange(grid, dtype=torch.float64)[None, :]
    y = start + p * bin_size + (i + 0.5) * bin_size / grid                      # [pooled, grid]
    valid = (y >= -1.0) & (y <= size)
    yc = y.clamp(min=0.0)
    low = yc.floor().long()
    edge = low >= size - 1
    low = torch.where(edge, torch.full_like(low, size - 1), low)
    high = torch.where(edge, low, low + 1)
    yc = torch.where(edge, low.double(), yc)
    ly = yc - low
    hy = 1.0 - ly
    wts = torch.zeros(pooled, grid, size, dtype=torch.float64)
    wts.scatter_add_(2, low[..., None], (hy * valid)[..., None])
    wts.scatter_add_(2, high[..., None], (ly * valid)[..., None])
    return wts


def reference(inputs: dict[str, Any]) -> Any:
    """Per RoI, in double on the CPU: bilinear sampling is separable (a sample out of range along either axis has a
    zero weight along that axis), so each bin's average is (sum of its y weights) x (sum of its x weights)
    contracted with the feature rows and columns the RoI touches."""
    import math

    import torch
    feat, rois, scale = inputs["feat"], inputs["rois"], inputs["spatial_scale"]
    N, H, W, C = feat.shape
    f = feat.double().cpu()
    out = torch.empty((rois.shape[0], POOLED_H, POOLED_W, C), dtype=torch.float64)
    for r, (b, x1, y1, x2, y2) in enumerate(rois.double().cpu().tolist()):
        sw, sh = x1 * scale - 0.5, y1 * scale - 0.5
        rw, rh = x2 * scale - 0.5 - sw, y2 * scale - 0.5 - sh
        gh, gw = math.ceil(rh / POOLED_H), math.ceil(rw / POOLED_W)
        ay = _axis_weights(sh, rh / POOLED_H, gh, POOLED_H, H).sum(1)      # [7, H]
        ax = _axis_weights(sw, rw / POOLED_W, gw, POOLED_W, W).sum(1)      # [7, W]
        hs = ay.abs().sum(0).nonzero().flatten()
        ws = ax.abs().sum(0).nonzero().flatten()
        s = torch.einsum("ph,qw,hwc->pqc", ay[:, hs], ax[:, ws], f[int(b)][hs][:, ws])
        out[r] = s / max(gh * gw, 1)
    return out.half().to(feat.device)


def flops(N: int, H: int, W: int, C: int, R: int, STRIDE: int) -> float:
    return 2.0 * 4 * R * POOLED_H * POOLED_W * C * 16        # ~16 samples a bin at these box sizes
