"""Liger-Kernel's `_layer_norm_backward_kernel` (liger_kernel/ops/layer_norm.py) — written instead of
`element_mul_kernel` / `liger_cross_entropy_kernel` from fused linear cross entropy: element_mul has no loop and
the cross-entropy kernel's loops are two passes over one row's vocabulary chunks with no dot; this one has the
"rows per program" loop: a persistent grid of SM-count programs, each walking `rows_per_program` rows with
`for _ in range(row_start, row_end)` (end clamped by `min(..., n_rows)`, so trailing programs run zero
iterations), bumping five pointers by row strides each iteration, per-row scalar loads of mean / rstd, two
row reductions (c1, c2) feeding dx, and dW / dB partial sums carried in fp32 [BLOCK_SIZE] registers across the
loop, stored per program after it and summed by torch. `dtype` is a tl.constexpr dtype argument. The library
runs bf16; fp16 here (Triton 3.6's interpreter computes bf16 wrongly). The partial dW / dB buffers are fp32
(as Liger's current code allocates them). SM count fixed at 132 (H100/H200) so the launch is device-independent."""
from __future__ import annotations
from typing import Any
import math
import triton
import triton.language as tl

SM_COUNT = 132
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_layer_norm_backward_kernel",
    "signature": {"X_ptr": "*fp16", "W_ptr": "*fp16", "Mean_ptr": "*fp32", "RSTD_ptr": "*fp32",
                  "DX_ptr": "*fp16", "DW_ptr": "*fp32", "DB_ptr": "*fp32", "DY_ptr": "*fp16",
                  "stride_x": "i32", "stride_dx": "i32", "stride_dw": "i32", "stride_db": "i32",
                  "stride_dy": "i32", "n_rows": "i32", "n_cols": "i32"},
    "constexprs": {"rows_per_program": 63, "BLOCK_SIZE": 4096, "dtype": "fp16"},
    "num_warps": 8, "num_stages": 2,
    "divisibility": ["X_ptr", "W_ptr", "Mean_ptr", "RSTD_ptr", "DX_ptr", "DW_ptr", "DB_ptr", "DY_ptr",
                     "stride_x", "stride_dx", "stride_dw", "stride_db", "stride_dy", "n_cols"]}
# rows_per_program = ceil(n_rows / 132) and BLOCK_SIZE = next_power_of_2(n_cols) are constexprs: SMALL keeps them
PROBLEM: dict[str, int] = {"n_rows": 8192, "n_cols": 4096}
SMALL: dict[str, int] = {"n_rows": 8191, "n_cols": 3008}


@triton.jit
def _layer_norm_backward_kernel(
    X_ptr,  # pointer to input, shape (n_rows, n_cols)
    W_ptr,  # pointer to weights, shape (n_cols,)
    Mean_ptr,  # pointer to mean, shape (n_rows,)
    RSTD_ptr,  # pointer to rstd, shape (n_rows,)
    DX_ptr,  # pointer to input grad, shape (n_rows, n_cols)
    DW_ptr,  # pointer to weights grad, shape (n_cols,)
    DB_ptr,  # pointer to bias grad, shape (n_cols,)
    DY_ptr,  # pointer to output grad, shape (n_rows, n_cols)
    stride_x,  # stride of each row in input
    stride_dx,  # stride of each row in input grad
    stride_dw,  # stride of each row in weights grad
    stride_db,  # stride of each row in bias grad
    stride_dy,  # stride of each row in output grad
    n_rows,
    n_cols,
    rows_per_program: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    dtype: tl.constexpr,
):
    """
    References:
    https://arxiv.org/abs/1607.06450
    https://github.com/karpathy/llm.c/blob/master/doc/layernorm/layernorm.md
    https://triton-lang.org/main/getting-started/tutorials/05-layer-norm.html
    https://github.com/Dao-AILab/flash-attention/blob/main/flash_attn/ops/triton/layer_norm.py
    """
    row_block_id = tl.program_id(0)
    row_start = row_block_id * rows_per_program
    row_end = min((row_block_id + 1) * rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols

    dw_row = tl.zeros((BLOCK_SIZE, ), dtype=tl.float32)
    db_row = tl.zeros((BLOCK_SIZE, ), dtype=tl.float32)

    X_ptr += row_start * stride_x
    Mean_ptr += row_start
    RSTD_ptr += row_start
    DX_ptr += row_start * stride_dx
    DY_ptr += row_start * stride_dy

    for _ in range(row_start, row_end):
        x = tl.load(X_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(W_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.load(Mean_ptr)
        rstd = tl.load(RSTD_ptr)

        x_hat = (x - mean) * rstd
        wdy = w * dy
        c1 = tl.sum(x_hat * wdy, axis=0) / n_cols
        c2 = tl.sum(wdy, axis=0) / n_cols
        dx = (wdy - (x_hat * c1 + c2)) * rstd
        tl.store(DX_ptr + cols, dx.to(dtype), mask=mask)

        dw_row += dy * x_hat
        db_row += dy

        X_ptr += stride_x
        Mean_ptr += 1
        RSTD_ptr += 1
        DX_ptr += stride_dx
        DY_ptr += stride_dy

    tl.store(DW_ptr + row_block_id * stride_dw + cols, dw_row, mask=mask)
    tl.store(DB_ptr + row_block_id * stride_db + cols, db_row, mask=mask)


def calculate_settings(n):
    MAX_FUSED_SIZE = 65536
    BLOCK_SIZE = triton.next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError(f"Cannot launch Triton kernel since n = {n} exceeds the recommended Triton blocksize = "
                           f"{MAX_FUSED_SIZE}.")
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


def make_inputs(n_rows: int, n_cols: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((n_rows, n_cols), device=device, generator=g) * 2.0 + 0.5).half()
    w = (1.0 + 0.1 * torch.randn((n_cols, ), device=device, generator=g)).half()
    dy = torch.randn((n_rows, n_cols), device=device, generator=g).half()
    xf = x.float()
    mean = xf.mean(dim=1)
    rstd = torch.rsqrt(xf.var(dim=1, unbiased=False) + 1e-6)
    return {"x": x, "w": w, "dy": dy, "mean": mean, "rstd": rstd}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dx, dw, db) as layer_norm_backward computes them."""
    import torch
    X, W, dY, Mean, RSTD = inputs["x"], inputs["w"], inputs["dy"], inputs["mean"], inputs["rstd"]
    n_rows, n_cols = X.shape
    sm_count = SM_COUNT
    DX = torch.empty((n_rows, n_cols), dtype=X.dtype, device=X.device)
    _DW = torch.empty((sm_count, n_cols), dtype=torch.float32, device=W.device)
    _DB = torch.empty((sm_count, n_cols), dtype=torch.float32, device=W.device)
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    rows_per_program = math.ceil(n_rows / sm_count)
    grid = (sm_count, )
    triton_dtype = tl.float32 if X.dtype == torch.float32 else tl.float16
    _layer_norm_backward_kernel[grid](X, W, Mean, RSTD, DX, _DW, _DB, dY, X.stride(0), DX.stride(0), _DW.stride(0),
                                      _DB.stride(0), dY.stride(0), n_rows, n_cols, rows_per_program,
                                      BLOCK_SIZE=BLOCK_SIZE, dtype=triton_dtype,
                                      num_warps=config.get("num_warps", num_warps),
                                      num_stages=config.get("num_stages", 2))
    DW = _DW.sum(dim=0)
    DB = _DB.sum(dim=0)
    return DX, DW, DB


def reference(inputs: dict[str, Any]) -> Any:
    x, w, dy = inputs["x"].double(), inputs["w"].double(), inputs["dy"].double()
    mean, rstd = inputs["mean"].double()[:, None], inputs["rstd"].double()[:, None]
    n = x.shape[1]
    x_hat = (x - mean) * rstd
    wdy = w * dy
    c1 = (x_hat * wdy).sum(dim=1, keepdim=True) / n
    c2 = wdy.sum(dim=1, keepdim=True) / n
    dx = (wdy - (x_hat * c1 + c2)) * rstd
    return dx, (dy * x_hat).sum(dim=0), dy.sum(dim=0)
