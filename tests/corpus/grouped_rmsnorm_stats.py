"""Group statistics for a group (RMS) norm over NCHW activations, in the style of Liger-Kernel's / Apex's group norm
statistics kernels (Liger's ``_group_norm_forward`` first pass, Apex's ``group_norm`` NCHW stats): one program per
(batch, group), walking the group's channels one at a time as Apex's per-channel loop does rather than as one flat
range, since the channel stride need not equal HW (a channels-sliced view). **A loop nest**: the outer ``for c in
range(c0, c0 + C_PER_G)`` over the group's channels **carries two [BLOCK] fp32 vectors** (the running sum and sum of
squares, lane by lane: no reduction per block); per channel the pointer ``X + b * stride_b + c * stride_c`` and the
inner loop ``for i in range(0, HW, BLOCK)`` over the channel's HW elements (masked by ``offs < HW``, ``other=0``)
adding ``x`` and ``x * x`` into them. After the outer loop the vectors are reduced once with ``tl.sum``, the mean
``s / n`` and ``rstd = rsqrt(ms + eps)`` where ``ms`` is the mean square for the RMS variant (RMS constexpr, true
here: no centring) or the variance ``E[x^2] - mean^2`` for the classic group norm; mean and rstd stored as two fp32
scalars per (batch, group). fp16 activations, fp32 statistics; BLOCK = min(1024, next_power_of_2(HW)), 4 warps.
SDXL-like shapes: 512 channels in 32 groups of 16, 64 x 64 positions. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

EPS = 1e-6
MAX_BLOCK = 1024
TWILL_SPEC: dict[str, Any] = {
    "kernel": "group_rms_stats_kernel",
    "signature": {"X_ptr": "*fp16", "Mean_ptr": "*fp32", "Rstd_ptr": "*fp32", "stride_b": "i32", "stride_c": "i32",
                  "HW": "i32", "G": "i32", "eps": "fp32",
                  "C_PER_G": "constexpr", "BLOCK": "constexpr", "RMS": "constexpr"},
    "constexprs": {"C_PER_G": 16, "BLOCK": 1024, "RMS": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["X_ptr", "Mean_ptr", "Rstd_ptr", "stride_b", "stride_c", "HW"]}
PROBLEM: dict[str, int] = {"B": 16, "C": 512, "G": 32, "HW": 4096}
SMALL: dict[str, int] = {"B": 2, "C": 12, "G": 3, "HW": 1300}      # 4 channels per group, HW % BLOCK (2 blocks)


@triton.jit
def group_rms_stats_kernel(X_ptr, Mean_ptr, Rstd_ptr, stride_b, stride_c, HW, G, eps,
                           C_PER_G: tl.constexpr, BLOCK: tl.constexpr, RMS: tl.constexpr):
    """Mean and rstd of the C_PER_G x HW elements of group g of batch b."""
    b = tl.program_id(0)
    g = tl.program_id(1)

    offs = tl.arange(0, BLOCK)
    x_base = X_ptr + b.to(tl.int64) * stride_b
    c0 = g * C_PER_G

    s_vec = tl.zeros([BLOCK], dtype=tl.float32)
    sq_vec = tl.zeros([BLOCK], dtype=tl.float32)
    for c in range(c0, c0 + C_PER_G):
        x_chan = x_base + c.to(tl.int64) * stride_c
        for i in range(0, HW, BLOCK):
            idx = i + offs
            mask = idx < HW
            x = tl.load(x_chan + idx, mask=mask, other=0.0).to(tl.float32)
            s_vec += x
            sq_vec += x * x

    n = C_PER_G * HW
    s = tl.sum(s_vec, axis=0)
    sq = tl.sum(sq_vec, axis=0)
    mean = s / n
    if RMS:
        ms = sq / n
    else:
        ms = sq / n - mean * mean
    rstd = tl.math.rsqrt(ms + eps)
    tl.store(Mean_ptr + b * G + g, mean)
    tl.store(Rstd_ptr + b * G + g, rstd)


def make_inputs(B: int, C: int, G: int, HW: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Activations [B, C, HW] fp16 with a per-channel offset and scale (so groups differ), the group count."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    scale = torch.rand((1, C, 1), device=device, generator=g) * 2 + 0.25
    shift = torch.randn((1, C, 1), device=device, generator=g) * 0.5
    x = (torch.randn((B, C, HW), device=device, generator=g) * scale + shift).half()
    return {"x": x, "G": G}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(mean [B, G], rstd [B, G]) fp32, as the group RMS norm's forward launches its statistics pass."""
    import torch
    x, G = inputs["x"], inputs["G"]
    B, C, HW = x.shape
    mean = torch.empty((B, G), device=x.device, dtype=torch.float32)
    rstd = torch.empty((B, G), device=x.device, dtype=torch.float32)
    BLOCK = min(MAX_BLOCK, triton.next_power_of_2(HW))
    group_rms_stats_kernel[(B, G)](x, mean, rstd, x.stride(0), x.stride(1), HW, G, EPS,
                                   C_PER_G=C // G, BLOCK=BLOCK, RMS=True,
                                   num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return mean, rstd


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, G = inputs["x"].double(), inputs["G"]
    B = x.shape[0]
    xg = x.reshape(B, G, -1)
    mean = xg.mean(dim=-1)
    rstd = torch.rsqrt((xg * xg).mean(dim=-1) + EPS)
    return mean.float(), rstd.float()
