"""Axolotl's DoRA weight-norm scale, ``_dora_fused_norm_kernel`` (axolotl-ai-cloud/axolotl
src/axolotl/kernels/dora.py, launched by ``triton_dora_scale``): mag_norm_scale[i] = magnitude[i] / ||W[i, :] +
s * (B[i, :] @ A)||_2 without materialising B @ A.

The constructs: one program per output row with an **early return** (``if row >= out_features: return``); a runtime
loop over in_features in BLOCK_IN = 2048 chunks carrying a [BLOCK_IN] fp32 squared-norm accumulator; inside it an
**unrolled ``tl.static_range(BLOCK_R)`` inner loop** of 16 **scalar loads** ``B[row, r]`` masked by the compile-time
integer ``r`` against the runtime ``rank`` (``mask=(r < rank)`` on a scalar pointer) and 16 vector loads of rows of A
masked by ``col_mask & (r < rank)``, a scalar-times-vector FMA chain, then ``tl.where(col_mask, ...)`` before the
accumulate; after the loop a full ``tl.sum``, ``tl.sqrt``, a scalar load of the magnitude and one scalar store.
Port notes: the launcher's ``dequantize(W.t(), W_quant)`` is skipped (W given dense in bf16, W_quant None); a
LLaMA-7B attention projection (4096 x 4096, rank 16, bf16); the magnitude vector in fp32."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_dora_fused_norm_kernel",
    "signature": {"W_ptr": "*bf16", "B_ptr": "*bf16", "A_ptr": "*bf16", "mag_ptr": "*fp32", "out_ptr": "*bf16",
                  "out_features": "i32", "in_features": "i32", "rank": "i32", "lora_scale": "fp32"},
    "constexprs": {"BLOCK_IN": 2048, "BLOCK_R": 16},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["out_features", "in_features", "rank"]}
PROBLEM: dict[str, int] = {"OUT": 4096, "IN": 4096, "RANK": 16}
SMALL: dict[str, int] = {"OUT": 10, "IN": 2500, "RANK": 12}


@triton.jit
def _dora_fused_norm_kernel(
    # Pointers
    W_ptr,        # base weight [out, in] (dequantized, row-major)
    B_ptr,        # LoRA B [out, rank] (row-major)
    A_ptr,        # LoRA A [rank, in] (row-major)
    mag_ptr,      # magnitude vector [out]
    out_ptr,      # output mag_norm_scale [out]
    # Shapes
    out_features,
    in_features,
    rank,
    # Scaling
    lora_scale,   # float scaling factor
    # Block sizes
    BLOCK_IN: tl.constexpr,
    BLOCK_R: tl.constexpr,  # >= rank, power of 2
):
    """Compute mag_norm_scale[i] = magnitude[i] / ||W[i,:] + s * (B[i,:] @ A)[:] ||_2"""
    row = tl.program_id(0)
    if row >= out_features:
        return

    # Accumulate squared norm across tiles of in_features
    norm_sq_acc = tl.zeros([BLOCK_IN], dtype=tl.float32)

    for start in range(0, in_features, BLOCK_IN):
        cols = start + tl.arange(0, BLOCK_IN)
        col_mask = cols < in_features

        # Load W[row, cols]
        w_vals = tl.load(
            W_ptr + row * in_features + cols,
            mask=col_mask, other=0.0,
        ).to(tl.float32)

        # Compute (B[row,:] @ A[:, cols]) for this tile
        # Load B[row, r] as scalar and A[r, cols] as vector for each r
        ba_vals = tl.zeros([BLOCK_IN], dtype=tl.float32)
        for r in tl.static_range(BLOCK_R):
            # Load scalar B[row, r]
            b_val = tl.load(
                B_ptr + row * rank + r,
                mask=(r < rank), other=0.0,
            ).to(tl.float32)
            # Load vector A[r, cols]
            a_vals = tl.load(
                A_ptr + r * in_features + cols,
                mask=(col_mask & (r < rank)), other=0.0,
            ).to(tl.float32)
            ba_vals += b_val * a_vals

        # Combined: W + s * (B @ A)
        combined = w_vals + lora_scale * ba_vals

        # Accumulate squared values
        norm_sq_acc += tl.where(col_mask, combined * combined, 0.0)

    # Reduce to scalar norm
    norm_sq = tl.sum(norm_sq_acc, axis=0)
    norm = tl.sqrt(norm_sq + 1e-12)  # epsilon for numerical stability

    # Load magnitude and compute scale
    mag = tl.load(mag_ptr + row).to(tl.float32)
    scale = mag / norm

    tl.store(out_ptr + row, scale)


def make_inputs(OUT: int, IN: int, RANK: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """W [OUT, IN], A [RANK, IN], B [OUT, RANK] bf16; magnitude [OUT] fp32 (the initial ||W|| rows); s = 2."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    W = (torch.randn((OUT, IN), device=device, generator=g) * 0.02).bfloat16()
    A = (torch.randn((RANK, IN), device=device, generator=g) * 0.02).bfloat16()
    B = (torch.randn((OUT, RANK), device=device, generator=g) * 0.1).bfloat16()
    mag = W.float().norm(dim=1) * (1 + 0.1 * torch.rand((OUT,), device=device, generator=g))
    return {"W": W, "A": A, "B": B, "magnitude": mag, "s": 2.0}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """mag_norm_scale [OUT] bf16, as ``triton_dora_scale(W, None, A, B, s, magnitude, torch.bfloat16)``."""
    import torch
    W_full, A, B = inputs["W"], inputs["A"], inputs["B"]
    out_features, in_features = W_full.shape
    rank = A.shape[0]
    out = torch.empty(out_features, dtype=W_full.dtype, device=W_full.device)
    BLOCK_IN = triton.next_power_of_2(min(in_features, 2048))
    BLOCK_R = triton.next_power_of_2(rank)
    _dora_fused_norm_kernel[(out_features,)](
        W_full, B.contiguous(), A.contiguous(), inputs["magnitude"].contiguous(), out,
        out_features=out_features, in_features=in_features, rank=rank, lora_scale=inputs["s"],
        BLOCK_IN=BLOCK_IN, BLOCK_R=BLOCK_R)
    return out


def reference(inputs: dict[str, Any]) -> Any:
    """magnitude / ||W + s * B @ A||_2 per row, in fp64."""
    W, A, B = inputs["W"].double(), inputs["A"].double(), inputs["B"].double()
    comb = W + inputs["s"] * (B @ A)
    return inputs["magnitude"].double() / (comb.pow(2).sum(dim=1) + 1e-12).sqrt()


def flops(OUT: int, IN: int, RANK: int) -> float:
    """B @ A (2 * RANK an element) plus the scale-add and square-accumulate: (2 * RANK + 4) * OUT * IN."""
    return (2.0 * RANK + 4.0) * OUT * IN
