"""Causal depthwise conv1d forward (Mamba / vLLM ``causal_conv1d_fn`` semantics, written in flash-linear-attention's
``causal_conv1d_fwd_kernel`` idiom, fla/modules/convolution.py): channel-last x [B, T, D], weight [D, W] loaded once
as a [BD, BW] tile, then a loop over the sequence's BT-token tiles (one program per (feature block, batch)), each
tile the sum of W = 4 shifted block-pointer loads (``tl.static_range(-W + 1, 1)``, negative row offsets zeroed by
``boundary_check``) times the matching weight column picked with ``tl.sum(b_w * (o_w == ...), 1)``, bias, SiLU
(``ACTIVATION == 'swish' or 'silu'``), a store through a block pointer. bf16 in and out."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

W = 4
TWILL_SPEC: dict[str, Any] = {
    "kernel": "causal_conv1d_fwd_kernel",
    "signature": {"x": "*bf16", "y": "*bf16", "weight": "*bf16", "bias": "*bf16", "T": "i32"},
    "constexprs": {"D": 2048, "W": W, "BT": 64, "BW": 4, "BD": 128, "ACTIVATION": "silu", "HAS_WEIGHT": True,
                   "HAS_BIAS": True},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["x", "y", "weight", "bias"]}
PROBLEM: dict[str, int] = {"B": 8, "T": 8192, "D": 2048}
SMALL: dict[str, int] = {"B": 2, "T": 203, "D": 2048}     # D is a constexpr


@triton.jit(do_not_specialize=['T'])
def causal_conv1d_fwd_kernel(x, y, weight, bias, T, D: tl.constexpr, W: tl.constexpr, BT: tl.constexpr,
                             BW: tl.constexpr, BD: tl.constexpr, ACTIVATION: tl.constexpr, HAS_WEIGHT: tl.constexpr,
                             HAS_BIAS: tl.constexpr):
    i_d, i_b = tl.program_id(0), tl.program_id(1)
    bos = (i_b * T).to(tl.int64)
    NT = tl.cdiv(T, BT)

    o_d = i_d * BD + tl.arange(0, BD)
    o_w = tl.arange(0, BW) + W - BW
    m_d = o_d < D
    m_w = o_w >= 0

    if HAS_WEIGHT:
        # [BD, BW]
        b_w = tl.load(weight + o_d[:, None] * W + o_w, mask=m_d[:, None] & m_w, other=0).to(tl.float32)
    if HAS_BIAS:
        b_b = tl.load(bias + o_d, mask=m_d, other=0).to(tl.float32)

    for i_t in range(NT):
        b_y = tl.zeros((BT, BD), dtype=tl.float32)
        for i_w in tl.static_range(-W + 1, 1):
            p_yi = tl.make_block_ptr(x + bos * D, (T, D), (D, 1), (i_t * BT + i_w, i_d * BD), (BT, BD), (1, 0))
            # [BT, BD]
            b_yi = tl.load(p_yi, boundary_check=(0, 1)).to(tl.float32)
            if HAS_WEIGHT:
                b_yi *= tl.sum(b_w * (o_w == (i_w + W - 1)), 1)
            b_y += b_yi
        if HAS_BIAS:
            b_y += b_b[None, :]

        if ACTIVATION == 'swish' or ACTIVATION == 'silu':
            b_y = b_y * tl.sigmoid(b_y)

        p_y = tl.make_block_ptr(y + bos * D, (T, D), (D, 1), (i_t * BT, i_d * BD), (BT, BD), (1, 0))
        tl.store(p_y, tl.cast(b_y, dtype=p_y.dtype.element_ty, fp_downcast_rounding='rtne'), boundary_check=(0, 1))


def make_inputs(B: int, T: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((B, T, D), device=device, generator=g).bfloat16(),
            "weight": (torch.randn((D, W), device=device, generator=g) / 2).bfloat16(),
            "bias": (torch.randn((D,), device=device, generator=g) / 4).bfloat16()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """causal_conv1d_fn(x, weight, bias, activation='silu') on channel-last x: bf16 [B, T, D]."""
    import torch
    x, weight, bias = inputs["x"], inputs["weight"], inputs["bias"]
    B, T, D = x.shape
    W_ = weight.shape[1]
    BD = 128
    y = torch.empty_like(x)
    grid = (triton.cdiv(D, BD), B)
    causal_conv1d_fwd_kernel[grid](x, y, weight, bias, T, D=D, W=W_, BT=64, BW=triton.next_power_of_2(W_), BD=BD,
                                   ACTIVATION="silu", HAS_WEIGHT=True, HAS_BIAS=True,
                                   num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, w, b = inputs["x"].float(), inputs["weight"].float(), inputs["bias"].float()
    T, D = x.shape[1], x.shape[2]
    out = torch.nn.functional.conv1d(x.transpose(1, 2), w[:, None, :], b, padding=W - 1, groups=D)[..., :T]
    return torch.nn.functional.silu(out).transpose(1, 2)


def flops(B: int, T: int, D: int) -> float:
    return 2.0 * B * T * D * W
