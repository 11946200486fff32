"""Liger-Kernel's PolyNorm backward (linkedin/Liger-Kernel src/liger_kernel/ops/poly_norm.py,
``_poly_norm_backward_kernel``, launched by ``poly_norm_backward`` with the library's default ``in_place=True``):
y = w0 norm(x^3) + w1 norm(x^2) + w2 norm(x) + b, norm(u) = u * rsqrt(mean(u^2) + eps), the backward from the
forward's cached per-row rstd triple.

The constructs: a fixed grid of SM_COUNT programs, each looping ``for _ in range(row_start, row_end)`` over
``rows_per_program`` (a **constexpr** from the launcher's ceil(n_rows / sm_count)) rows, the end clamped by a
runtime ``min((row_block_id + 1) * rows_per_program, n_rows)``; **four scalar fp32 carries initialised from Python
float literals** (``dW0_acc = 0.0`` ...) accumulated from **three row reductions** (``tl.sum(dY_row * X_pow3)`` ...)
and a fourth (``tl.sum(dY_row)``); per row two masked bf16 row loads, **three rank-0 loads** of the cached rstd
(``tl.load(RSTD_ptr + 0)`` ...), a long elementwise chain (x^5 as a product of five loads' worth of multiplies), a
masked store of dX **into dY's own buffer** (in_place: dX_ptr and dY_ptr alias; each row is read before it is
written), four pointer carries advanced by runtime row strides; after the loop four scalar stores of the per-program
partials. int64 program ids (``tl.program_id(0).to(tl.int64)``). Liger's ``calculate_settings`` for 4096 columns:
BLOCK_SIZE 4096, 8 warps; sm_count = 132 (an H100). Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

SM_COUNT = 132
EPS = 1e-6
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_poly_norm_backward_kernel",
    "signature": {"dY_ptr": "*bf16", "dY_row_stride": "i32", "dX_ptr": "*bf16", "dX_row_stride": "i32",
                  "X_ptr": "*bf16", "X_row_stride": "i32", "W_ptr": "*bf16", "RSTD_ptr": "*fp32",
                  "RSTD_row_stride": "i32", "dW_ptr": "*fp32", "dW_row_stride": "i32", "dB_ptr": "*fp32",
                  "n_rows": "i32", "n_cols": "i32"},
    "constexprs": {"rows_per_program": 63, "BLOCK_SIZE": 4096},
    "num_warps": 8, "num_stages": 3,
    # what a launch at PROBLEM specialises: RSTD_row_stride = 3 and dW_row_stride = 3 are not 16-divisible
    "divisibility": ["dY_row_stride", "dX_row_stride", "X_row_stride", "n_rows", "n_cols"]}
PROBLEM: dict[str, int] = {"n_rows": 8192, "n_cols": 4096}
SMALL: dict[str, int] = {"n_rows": 8200, "n_cols": 3000}     # rows_per_program stays 63, BLOCK_SIZE 4096


@triton.jit
def _poly_norm_backward_kernel(
    dY_ptr,
    dY_row_stride,
    dX_ptr,
    dX_row_stride,
    X_ptr,
    X_row_stride,
    W_ptr,
    RSTD_ptr,
    RSTD_row_stride,
    dW_ptr,  # shape: (n_programs, 3)
    dW_row_stride,
    dB_ptr,  # shape: (n_programs,)
    n_rows,
    n_cols,
    rows_per_program: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    """
    PolyNorm Backward Kernel Gradient:
        dL/dx_i = sum_p w_p * [p*x_i^(p-1) * grad_i/D_p - (p/d)*x_i^(2p-1) * S_p/(D_p^3)]

    where:
        - D_p = RMS(x^p) = 1/rstd_p
        - S_p = sum(grad * x^p) over the row
        - d = n_cols
        - p in {3, 2, 1}
    """
    row_block_id = tl.program_id(0).to(tl.int64)
    row_start = row_block_id * rows_per_program
    row_end = min((row_block_id + 1) * rows_per_program, n_rows)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    # Initialize accumulators for weight and bias gradients (scalars)
    dW0_acc = 0.0
    dW1_acc = 0.0
    dW2_acc = 0.0
    dB_acc = 0.0

    # Load weights
    w0 = tl.load(W_ptr + 0).to(tl.float32)
    w1 = tl.load(W_ptr + 1).to(tl.float32)
    w2 = tl.load(W_ptr + 2).to(tl.float32)

    dY_ptr += row_start * dY_row_stride
    dX_ptr += row_start * dX_row_stride
    X_ptr += row_start * X_row_stride
    RSTD_ptr += row_start * RSTD_row_stride

    for _ in range(row_start, row_end):
        # Load input and gradient
        dY_row = tl.load(dY_ptr + col_offsets, mask=mask, other=0.0).to(tl.float32)
        X_row = tl.load(X_ptr + col_offsets, mask=mask, other=0.0).to(tl.float32)

        # Load cached rstd values
        rstd_3 = tl.load(RSTD_ptr + 0).to(tl.float32)
        rstd_2 = tl.load(RSTD_ptr + 1).to(tl.float32)
        rstd_1 = tl.load(RSTD_ptr + 2).to(tl.float32)

        # Compute powers
        X_pow3 = X_row * X_row * X_row
        X_pow2 = X_row * X_row
        X_pow1 = X_row

        # Accumulate bias gradient: dB = sum(dY)
        dB_acc += tl.sum(dY_row, axis=0)

        # Compute gradient w.r.t. input using closed-form formula
        # For p=3: dL/dx from w0 * norm(x^3)
        S_3 = tl.sum(dY_row * X_pow3, axis=0)  # scalar
        grad_x_3 = w0 * (
            3.0 * X_pow2 * rstd_3 * dY_row
            - (3.0 / n_cols) * X_row * X_row * X_row * X_row * X_row * (rstd_3 * rstd_3 * rstd_3) * S_3
        )

        # For p=2: dL/dx from w1 * norm(x^2)
        S_2 = tl.sum(dY_row * X_pow2, axis=0)  # scalar
        grad_x_2 = w1 * (
            2.0 * X_row * rstd_2 * dY_row - (2.0 / n_cols) * X_row * X_row * X_row * (rstd_2 * rstd_2 * rstd_2) * S_2
        )

        # For p=1: dL/dx from w2 * norm(x)
        S_1 = tl.sum(dY_row * X_pow1, axis=0)  # scalar
        grad_x_1 = w2 * (1.0 * rstd_1 * dY_row - (1.0 / n_cols) * X_row * (rstd_1 * rstd_1 * rstd_1) * S_1)

        # Accumulate weight gradients using closed-form: dW_p = rstd_p * S_p
        dW0_acc += rstd_3 * S_3
        dW1_acc += rstd_2 * S_2
        dW2_acc += rstd_1 * S_1

        # Total gradient
        dX_row = grad_x_3 + grad_x_2 + grad_x_1

        # Store gradient
        tl.store(dX_ptr + col_offsets, dX_row, mask=mask)

        # Update pointers
        dY_ptr += dY_row_stride
        dX_ptr += dX_row_stride
        X_ptr += X_row_stride
        RSTD_ptr += RSTD_row_stride

    # Store accumulated gradients (scalars)
    tl.store(dW_ptr + row_block_id * dW_row_stride + 0, dW0_acc)
    tl.store(dW_ptr + row_block_id * dW_row_stride + 1, dW1_acc)
    tl.store(dW_ptr + row_block_id * dW_row_stride + 2, dW2_acc)
    tl.store(dB_ptr + row_block_id, dB_acc)


def make_inputs(n_rows: int, n_cols: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """bf16 X, dY [n_rows, n_cols], bf16 W [3], and the forward's cached RSTD [n_rows, 3] fp32 (computed here)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((n_rows, n_cols), device=device, generator=g).bfloat16()
    dy = torch.randn((n_rows, n_cols), device=device, generator=g).bfloat16()
    w = torch.tensor([0.3, 0.5, 0.9], device=device).bfloat16()
    xf = x.float()
    rstd = torch.stack([torch.rsqrt((xf ** (2 * p)).mean(-1) + EPS) for p in (3, 2, 1)], dim=1).contiguous()
    return {"x": x, "dy": dy, "w": w, "rstd": rstd}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dX bf16, dW [3] fp32, dB fp32) as ``poly_norm_backward(..., in_place=True)`` (dX written over a copy of dY),
    the per-program partials summed on the host as Liger does."""
    import torch
    x, w, rstd = inputs["x"], inputs["w"], inputs["rstd"]
    dY = inputs["dy"].clone()
    n_rows, n_cols = dY.shape
    dX = dY                                                   # in_place=True
    _dW = torch.empty((SM_COUNT, 3), dtype=torch.float32, device=w.device)
    _dB = torch.empty((SM_COUNT,), dtype=torch.float32, device=w.device)
    rows_per_program = math.ceil(n_rows / SM_COUNT)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 16 if BLOCK_SIZE >= 8192 else 8 if BLOCK_SIZE >= 2048 else 4
    _poly_norm_backward_kernel[(SM_COUNT,)](
        dY, dY.stride(0), dX, dX.stride(0), x, x.stride(0), w, rstd, rstd.stride(0), _dW, _dW.stride(0), _dB,
        n_rows, n_cols, rows_per_program, BLOCK_SIZE=BLOCK_SIZE, num_warps=config.get("num_warps", num_warps))
    return dX, _dW.sum(dim=0), _dB.sum()


def reference(inputs: dict[str, Any]) -> Any:
    """Autograd through the PolyNorm formula in float64 (rstd recomputed, as the cache holds it)."""
    import torch
    x = inputs["x"].double().requires_grad_(True)
    w = inputs["w"].double().requires_grad_(True)
    b = torch.zeros((), dtype=torch.float64, requires_grad=True)

    def norm(u):
        return u * torch.rsqrt((u * u).mean(-1, keepdim=True) + EPS)

    y = w[0] * norm(x ** 3) + w[1] * norm(x ** 2) + w[2] * norm(x) + b
    y.backward(inputs["dy"].double())
    return x.grad.float(), w.grad.float(), b.grad.float()


def flops(n_rows: int, n_cols: int) -> float:
    """About 30 multiplies/adds an element (powers, three gradient terms, four reductions)."""
    return 30.0 * n_rows * n_cols
