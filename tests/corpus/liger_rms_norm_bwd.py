"""Liger-Kernel's RMSNorm backward (`_rms_norm_backward_kernel`): one program per SM, `rows_per_program`
(a constexpr) rows each, the casting mode as a constexpr string ("llama" / "gemma"; Liger maps the string to a
module-level int constexpr on the host, kept here as the string), `X_dtype` as a tl.dtype constexpr for the
llama-mode casts, a Gemma `offset` added to the weight, the row's pointers advanced every row, dX stored every
row, dW accumulated in a register row and stored once per program at the end. bf16 X / dY / W, gemma mode;
BLOCK and num_warps from calculate_settings."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"dY_ptr": "*bf16", "dY_row_stride": "i32", "dX_ptr": "*bf16", "dX_row_stride": "i32",
                            "X_ptr": "*bf16", "X_row_stride": "i32", "W_ptr": "*bf16", "W_row_stride": "i32",
                            "RSTD_ptr": "*fp32", "RSTD_row_stride": "i32", "dW_ptr": "*fp32", "dW_row_stride": "i32",
                            "n_rows": "i32", "n_cols": "i32", "offset": "fp32"},
              "constexprs": {"X_dtype": tl.bfloat16, "rows_per_program": 125, "casting_mode": "gemma",
                             "BLOCK_SIZE": 4096},
              "num_warps": 8, "num_stages": 3,
              "divisibility": ["dY_row_stride", "dX_row_stride", "X_row_stride", "dW_row_stride", "n_cols"]}
PROBLEM: dict[str, int] = {"rows": 16384, "cols": 4096, "sm_count": 132}   # rows_per_program = 125
SMALL: dict[str, int] = {"rows": 997, "cols": 3000, "sm_count": 8}   # 125 rows a program, BLOCK_SIZE 4096 (constexprs)
OFFSET = 1.0
MAX_FUSED_SIZE = 65536


def calculate_settings(n):
    BLOCK_SIZE = triton.next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError("too large")
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


@triton.jit
def _rms_norm_backward_kernel(
    dY_ptr,
    dY_row_stride,
    dX_ptr,
    dX_row_stride,
    X_ptr,
    X_row_stride,
    X_dtype: tl.constexpr,
    W_ptr,
    W_row_stride,
    RSTD_ptr,
    RSTD_row_stride,
    dW_ptr,
    dW_row_stride,
    n_rows,
    n_cols,
    offset,
    rows_per_program: tl.constexpr,
    casting_mode: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    """
    dx = (1 / RMS) * [dy * (w + offset - (1 / N) * (1 / RMS^2) * ((dy * (w + offset)) dot x) * x]. * means element-wise multiplication, whileas dot means dot product
    dw = sum(dy * (x / RMS)). summation over BxT dimension
    """

    row_block_id = tl.program_id(0)
    row_start = row_block_id * rows_per_program
    row_end = min((row_block_id + 1) * rows_per_program, n_rows)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    dW_row = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)

    dY_ptr += row_start * dY_row_stride
    dX_ptr += row_start * dX_row_stride

    X_ptr += row_start * X_row_stride
    RSTD_ptr += row_start

    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0.0)
    W_row = W_row + offset

    for _ in range(row_start, row_end):
        dY_row = tl.load(dY_ptr + col_offsets, mask=mask, other=0.0)
        X_row = tl.load(X_ptr + col_offsets, mask=mask, other=0.0)

        # Get cached rms
        rstd_row = tl.load(RSTD_ptr)

        X_row = X_row.to(tl.float32)

        # Different bacward graphs for different casting modes
        if casting_mode == "llama":
            m = (dY_row * W_row).to(tl.float32)

        elif casting_mode == "gemma":
            dY_row = dY_row.to(tl.float32)
            m = dY_row * W_row
        else:
            m = dY_row * W_row

        dX_row = rstd_row * m

        dX_row += (rstd_row) * (-(1 / n_cols) * rstd_row * rstd_row * tl.sum(m * X_row, axis=0) * X_row)

        # calculate the gradient of W
        if casting_mode == "llama":
            dW_row += dY_row * (X_row * rstd_row).to(X_dtype)
        else:
            # here X_row is already in fp32 (see previous if block)
            dW_row += dY_row * (X_row * rstd_row)

        tl.store(dX_ptr + col_offsets, dX_row.to(X_dtype), mask=mask)

        dY_ptr += dY_row_stride
        dX_ptr += dX_row_stride
        X_ptr += X_row_stride
        RSTD_ptr += RSTD_row_stride

    tl.store(dW_ptr + row_block_id * dW_row_stride + col_offsets, dW_row, mask=mask)


def make_inputs(rows: int, cols: int, sm_count: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((rows, cols), device=device, generator=g).to(torch.bfloat16)
    w = (torch.randn((cols,), device=device, generator=g) * 0.1).to(torch.bfloat16)
    dy = torch.randn((rows, cols), device=device, generator=g).to(torch.bfloat16)
    rstd = torch.rsqrt(x.float().pow(2).mean(dim=1) + 1e-6)
    return {"x": x, "w": w, "dy": dy, "rstd": rstd, "sm_count": sm_count}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dX, dW), as rms_norm_backward runs the kernel (gemma casting; dW's partial rows summed on the host)."""
    import math
    import torch
    dY, X, W, RSTD = inputs["dy"], inputs["x"], inputs["w"], inputs["rstd"]
    n_rows, n_cols = dY.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    sm_count = inputs["sm_count"]
    _dW = torch.empty((sm_count, n_cols), dtype=torch.float32, device=W.device)
    dX = torch.zeros_like(dY)
    rows_per_program = math.ceil(n_rows / sm_count)
    grid = (sm_count,)
    _rms_norm_backward_kernel[grid](
        dY, dY.stride(0), dX, dX.stride(0), X, X.stride(0), tl.bfloat16, W, W.stride(0), RSTD, RSTD.stride(0),
        _dW, _dW.stride(0), n_rows, n_cols, OFFSET, rows_per_program, casting_mode="gemma",
        BLOCK_SIZE=BLOCK_SIZE, num_warps=config.get("num_warps", num_warps),
        num_stages=config.get("num_stages", 3))
    dW = _dW.sum(dim=0)
    return dX, dW


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, w, dy, rstd = inputs["x"].double(), inputs["w"].double(), inputs["dy"].double(), inputs["rstd"].double()
    n = x.shape[1]
    wo = (w + OFFSET).to(torch.bfloat16).double()   # bf16 W + an fp32 scalar stays bf16 in Triton
    m = dy * wo
    r = rstd[:, None]
    dx = r * m - r ** 3 / n * (m * x).sum(dim=1, keepdim=True) * x
    dw = (dy * x * r).sum(dim=0)
    return dx, dw
