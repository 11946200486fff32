"""Per-row FP8 E5M2 cast with power-of-two scales, in the style of TransformerEngine's ``cast_transpose`` /
``compute_scale_from_amax`` with ``pow_2_scales`` and torchao's float8 ``ScalingGranularity.AXISWISE`` casts
(rewritten here): one program per row; a first loop over column blocks for the row's absolute max; the scale
``57344 / amax`` rounded **down to a power of two by its bits** (``scale.to(tl.int32, bitcast=True) & 0x7F800000``
and back with ``.to(tl.float32, bitcast=True)``: the mantissa cleared, so ``x * scale`` is exact and never
overflows), its exact inverse **built from the exponent field** (``(254 - e) << 23``, bitcast back) and stored; the
second loop scales each block and casts it with ``.to(tl.float8e5, fp_downcast_rounding="rtne")`` (round to nearest
even, the GPU's cvt.rn), stored as fp8. A zero row (amax 0) keeps the scale 1 through ``tl.where``. bf16 in, fp8
e5m2 and fp32 inverse scales out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_cast_fp8e5_pow2",
    "signature": {"X": "*bf16", "Y": "*fp8e5", "SINV": "*fp32", "n_cols": "i32", "stride_x": "i32",
                  "stride_y": "i32"},
    "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3,
    "divisibility": ["X", "Y", "n_cols", "stride_x", "stride_y"]}
PROBLEM: dict[str, int] = {"R": 8192, "N": 8192}
SMALL: dict[str, int] = {"R": 4, "N": 2500}      # 2500 = 2 * 1024 + 452: a ragged last block
E5M2_MAX = 57344.0


@triton.jit
def _cast_fp8e5_pow2(X, Y, SINV, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    amax = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        x = tl.load(X + row * stride_x + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        amax = tl.maximum(amax, tl.abs(x))
    row_max = tl.max(amax, axis=0)
    scale = tl.where(row_max > 0.0, 57344.0 / row_max, 1.0)
    # power of two at or below the scale: keep the exponent field, clear the mantissa (a positive float)
    e_bits = scale.to(tl.int32, bitcast=True) & 0x7F800000
    scale = e_bits.to(tl.float32, bitcast=True)
    # 1 / 2^(e - 127) = 2^(127 - e): exponent field 254 - e
    inv = ((254 - (e_bits >> 23)) << 23).to(tl.float32, bitcast=True)
    tl.store(SINV + row, inv)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        m = cols < n_cols
        x = tl.load(X + row * stride_x + cols, mask=m, other=0.0).to(tl.float32)
        y = (x * scale).to(tl.float8e5, fp_downcast_rounding="rtne")
        tl.store(Y + row * stride_y + cols, y, mask=m)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """bf16 rows of different magnitudes (so the rows' power-of-two scales differ), the last row all zero."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    mag = torch.exp2(torch.randint(-6, 7, (R, 1), device=device, generator=g).float())
    x = torch.randn((R, N), device=device, generator=g) * mag
    x[-1] = 0.0
    return {"x": x.bfloat16()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(the fp8 values as fp32 [R, N], the inverse scales fp32 [R]); one program per row."""
    import torch
    x = inputs["x"]
    R, N = x.shape
    y = torch.empty((R, N), device=x.device, dtype=torch.float8_e5m2)
    sinv = torch.full((R,), float("nan"), device=x.device, dtype=torch.float32)
    _cast_fp8e5_pow2[(R,)](x, y, sinv, N, x.stride(0), y.stride(0), BLOCK=1024,
                           num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return y.float(), sinv


def reference(inputs: dict[str, Any]) -> Any:
    """torch's round-to-nearest-even cast of the rows times their power-of-two scales (exact products); the
    power of two below a scale from ``torch.frexp``."""
    import torch
    x = inputs["x"].float()
    amax = x.abs().amax(dim=1)
    scale = torch.where(amax > 0, E5M2_MAX / amax, torch.ones_like(amax))
    scale = torch.ldexp(torch.ones_like(scale), torch.frexp(scale).exponent - 1)     # s = m 2^e, m in [0.5, 1)
    y = (x * scale[:, None]).to(torch.float8_e5m2)
    return y.float(), 1.0 / scale
