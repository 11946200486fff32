"""A fused residual-add + RMSNorm for wide rows in the style of the Triton kernels vLLM / SGLang / Liger carry
(`fused_add_rms_norm`, the layer-norm-tutorial pattern): one program per row, a first loop over the row in
BLOCK_SIZE chunks computing x + residual, storing it back into `residual` in place and accumulating the sum of
squares in an fp32 [BLOCK_SIZE] vector, then `tl.rsqrt(mean + eps)`, then a second loop re-reading the updated
residual, scaling by rstd and the weight and storing the output. Masked tails (`cols < N`), row strides as i32
args, the weight pointer advanced by column offsets, eps as an fp32 arg. The library uses bf16; fp16 here
(Triton 3.6's interpreter computes bf16 wrongly)."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fused_add_rms_norm_kernel",
    "signature": {"X": "*fp16", "Residual": "*fp16", "W": "*fp16", "Y": "*fp16",
                  "stride_x_row": "i32", "stride_r_row": "i32", "stride_y_row": "i32",
                  "N": "i32", "eps": "fp32"},
    "constexprs": {"BLOCK_SIZE": 1024},
    "num_warps": 8, "num_stages": 2,
    "divisibility": ["X", "Residual", "W", "Y", "stride_x_row", "stride_r_row", "stride_y_row", "N"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 8192}
SMALL: dict[str, int] = {"M": 5, "N": 2096}
EPS = 1e-6


@triton.jit
def _fused_add_rms_norm_kernel(
    X,  # pointer to the input
    Residual,  # pointer to the residual (updated in place)
    W,  # pointer to the weights
    Y,  # pointer to the output
    stride_x_row,
    stride_r_row,
    stride_y_row,
    N,  # number of columns in X
    eps,  # epsilon to avoid division by zero
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0)
    X += row * stride_x_row
    Residual += row * stride_r_row
    Y += row * stride_y_row

    # first pass: x + residual -> residual, sum of squares
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        r = tl.load(Residual + cols, mask=mask, other=0.0).to(tl.float32)
        x = x + r
        tl.store(Residual + cols, x.to(Residual.dtype.element_ty), mask=mask)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = tl.rsqrt(var + eps)

    # second pass: normalize and apply the weight
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask).to(tl.float32)
        x = tl.load(Residual + cols, mask=mask, other=0.0).to(tl.float32)
        y = x * rstd * w
        tl.store(Y + cols, y.to(Y.dtype.element_ty), mask=mask)


def make_inputs(M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, N), device=device, generator=g).half()
    residual = torch.randn((M, N), device=device, generator=g).half()
    w = (1.0 + 0.1 * torch.randn((N,), device=device, generator=g)).half()
    return {"x": x, "residual": residual, "weight": w}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(out, residual_out): the residual is updated in place on a clone so the inputs stay reusable."""
    import torch
    x, w = inputs["x"], inputs["weight"]
    residual = inputs["residual"].clone()
    M, N = x.shape
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    MAX_FUSED_SIZE = 65536 // x.element_size()
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(N), 1024)
    _fused_add_rms_norm_kernel[(M, )](x, residual, w, y, x.stride(0), residual.stride(0), y.stride(0), N, EPS,
                                      BLOCK_SIZE=BLOCK_SIZE, num_warps=config.get("num_warps", 8),
                                      num_stages=config.get("num_stages", 2))
    return y, residual


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    # the kernel rounds x + residual to fp16 when it stores it and re-reads that in the second pass
    h32 = inputs["x"].float() + inputs["residual"].float()
    h = h32.half().double()
    var = (h32.double() ** 2).mean(dim=-1, keepdim=True)
    y = h * torch.rsqrt(var + EPS) * inputs["weight"].double()
    return y, h
