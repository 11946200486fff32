"""Liger-Kernel's Dynamic Tanh backward (liger_kernel/ops/dyt.py ``_dyt_bwd_kernel`` and ``liger_dyt_bwd``,
y = gamma * tanh(alpha * x) + beta from "Transformers without Normalization"): dx, and per-program partials of
dalpha and dgamma summed on the host.

The constructs: a persistent-style grid of one program per SM (``grid = (sm_count,)``), each walking
``ROWS_PER_PROGRAM`` rows (a constexpr the host derives from the row count: ``triton.cdiv(n_rows, sm_count)``) with
``for _ in tl.range(row_start, row_end)`` whose upper bound is ``min((pid + 1) * ROWS_PER_PROGRAM, n_rows)`` (the last
program's rows ragged) and whose induction variable is unused; three pointers carried and bumped by row strides; a
row-wide tile (``BLOCK_SIZE`` = the next power of two of the hidden size, masked); libdevice ``tanh`` (imported as
Liger does, with its NGC-container fallback) of ``(alpha * x).cast(tl.float32)``; a **scalar** loop-carried
accumulator started from a Python float (``dalpha = 0.0``; ``dalpha += tl.sum(...)``: a full reduction each
iteration) beside a vector one (``dgamma += dy * tanh_ax``); a store of dx **inside** the loop; both partials stored
after it at the program's slot; no ``tl.dot`` at all. fp16 x and dy, fp32 dx (Liger allocates it so), fp32 alpha and
gamma. ``calculate_settings`` reproduced (num_warps from the block size).

The CPU interpreter of Triton 3.6 has no libdevice (``tanh`` returns None there), so under ``TRITON_INTERPRET=1`` only,
``tanh`` is defined from ``tl.exp``; compiled, the kernel calls libdevice as Liger's does. Nothing here is imported by
twill."""
from __future__ import annotations

import operator
import os
from typing import Any

import torch
import triton
import triton.language as tl

if tuple(int(p) for p in triton.__version__.split(".")[:2]) >= (3, 0):
    try:
        # typical import path with dispatch available
        from triton.language.extra.libdevice import tanh
    except ModuleNotFoundError:
        # for working with NGC containers
        from triton.language.extra.cuda.libdevice import tanh
else:
    from triton.language.math import tanh

if os.environ.get("TRITON_INTERPRET") == "1":
    @triton.jit
    def tanh(x):  # noqa: F811
        # interpreter-only stand-in for libdevice.tanh (which the CPU interpreter lacks)
        e = tl.exp(-2.0 * tl.abs(x))
        t = (1.0 - e) / (1.0 + e)
        return tl.where(x >= 0, t, -t)

SM_COUNT = 132       # an H100's, what the host uses off the GPU (the interpreter, dry runs)
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_dyt_bwd_kernel",
    "signature": {"x_ptr": "*fp16", "x_row_stride": "i32", "dy_ptr": "*fp16", "dy_row_stride": "i32",
                  "dx_ptr": "*fp32", "dx_row_stride": "i32", "alpha_ptr": "*fp32", "dalpha_ptr": "*fp32",
                  "gamma_ptr": "*fp32", "dgamma_ptr": "*fp32", "dgamma_row_stride": "i32", "n_cols": "i32",
                  "n_rows": "i32"},
    "constexprs": {"ROWS_PER_PROGRAM": 125, "BLOCK_SIZE": 4096},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["x_row_stride", "dy_row_stride", "dx_row_stride", "dgamma_row_stride", "n_cols", "n_rows"]}
# Llama-style hidden 4096, 4 x 4096 tokens: 125 rows a program on 132 SMs
PROBLEM: dict[str, int] = {"BT": 16384, "C": 4096}
# the same specialisation (ROWS_PER_PROGRAM = cdiv(16400, 132) = 125, BLOCK_SIZE 4096, 8 warps): a masked row
# (2100 of 4096 columns), a ragged last program (25 rows), strides not 16-divisible
SMALL: dict[str, int] = {"BT": 16400, "C": 2100}


@triton.jit
def _dyt_bwd_kernel(
    x_ptr,
    x_row_stride,
    dy_ptr,
    dy_row_stride,
    dx_ptr,
    dx_row_stride,
    alpha_ptr,
    dalpha_ptr,
    gamma_ptr,
    dgamma_ptr,
    dgamma_row_stride,
    n_cols,
    n_rows,
    ROWS_PER_PROGRAM: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    """
    Reference:
    https://arxiv.org/abs/2503.10622

    Shapes:
        - x: (BT, C)
        - alpha: (1)
        - gamma: (C)
        - dx: (BT, C)
        - dy: (BT, C)
        - dgamma: (sm_count, C)
        - dalpha: (sm_count,)
    """
    # d(gamma * tanh(alpha * x) + beta) / dx
    # = gamma * (1 - tanh^2(alpha * x)) * alpha
    # d(gamma * tanh(alpha * x) + beta) / dalpha
    # = gamma * (1 - tanh^2(alpha * x)) * x
    # d(gamma * tanh(alpha * x) + beta) / dgamma
    # = tanh(alpha * x)
    # d(gamma * tanh(alpha * x)) / dbeta = 1
    pid = tl.program_id(0)

    row_start = pid * ROWS_PER_PROGRAM
    row_end = min((pid + 1) * ROWS_PER_PROGRAM, n_rows)
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_cols

    dalpha = 0.0
    dgamma = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)

    x_ptr += row_start * x_row_stride
    dx_ptr += row_start * dx_row_stride
    dy_ptr += row_start * dy_row_stride
    alpha = tl.load(alpha_ptr)
    gamma = tl.load(gamma_ptr + offsets, mask=mask, other=0.0)

    for _ in tl.range(row_start, row_end):
        dy = tl.load(dy_ptr + offsets, mask=mask, other=0.0)
        x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
        tanh_ax = tanh((alpha * x).cast(tl.float32))
        sech2_ax = 1 - tanh_ax * tanh_ax

        dx = dy * gamma * sech2_ax * alpha
        dalpha += tl.sum(dy * gamma * sech2_ax * x)
        dgamma += dy * tanh_ax
        tl.store(dx_ptr + offsets, dx, mask=mask)

        dy_ptr += dy_row_stride
        x_ptr += x_row_stride
        dx_ptr += dx_row_stride

    tl.store(dgamma_ptr + pid * dgamma_row_stride + offsets, dgamma, mask=mask)
    tl.store(dalpha_ptr + pid, dalpha)


MAX_FUSED_SIZE = 65536


def calculate_settings(n):
    """liger_kernel/ops/utils.py's: the block a row fits in and the warps for it."""
    BLOCK_SIZE = triton.next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError(
            f"Cannot launch Triton kernel since n = {n} exceeds the recommended Triton blocksize = {MAX_FUSED_SIZE}."
        )
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


def make_inputs(BT: int, C: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x, dy [BT, C] fp16; alpha [1] and gamma [C] fp32 (the module's parameters)."""
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((BT, C), device=device, generator=g) * 2.0).half()
    dy = torch.randn((BT, C), device=device, generator=g).half()
    alpha = torch.tensor([0.5], device=device, dtype=torch.float32)
    gamma = 1.0 + 0.1 * torch.randn((C,), device=device, generator=g)
    return {"x": x, "dy": dy, "alpha": alpha, "gamma": gamma}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dx [BT, C] fp32, dalpha [1], dgamma [C], dbeta [C] in x's dtype), as ``liger_dyt_bwd(dy, x, alpha, gamma)``
    returns them."""
    dy, x, alpha, gamma = inputs["dy"], inputs["x"], inputs["alpha"], inputs["gamma"]
    shape = dy.shape
    dtype = x.dtype
    dim = shape[-1]
    dy = dy.view(-1, dim)
    x = x.view(-1, dim)
    n_rows, n_cols = dy.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    sm_count = 1
    if x.device.type == "cuda":
        sm_count = torch.cuda.get_device_properties(x.device).multi_processor_count
    else:
        sm_count = SM_COUNT
    if n_cols > BLOCK_SIZE:
        raise RuntimeError(
            f"Feature dimension {dim} exceeds maximum supported size of {BLOCK_SIZE}. Consider using a smaller feature dimension."
        )

    dx = torch.empty_like(x, dtype=torch.float32)
    _dalpha = torch.empty((sm_count,), dtype=torch.float32, device=x.device)
    _dgamma = torch.empty((sm_count, n_cols), dtype=torch.float32, device=x.device)

    grid = (sm_count,)
    rows_per_program = triton.cdiv(n_rows, sm_count)
    _dyt_bwd_kernel[grid](
        x_ptr=x,
        x_row_stride=x.stride(0),
        dy_ptr=dy,
        dy_row_stride=dy.stride(0),
        dx_ptr=dx,
        dx_row_stride=dx.stride(0),
        alpha_ptr=alpha,
        dalpha_ptr=_dalpha,
        gamma_ptr=gamma,
        dgamma_ptr=_dgamma,
        dgamma_row_stride=_dgamma.stride(0),
        n_cols=n_cols,
        n_rows=n_rows,
        ROWS_PER_PROGRAM=rows_per_program,
        BLOCK_SIZE=BLOCK_SIZE,
        num_warps=config.get("num_warps", num_warps),
        num_stages=config.get("num_stages", 3),
    )
    dalpha = _dalpha.sum(dim=0, keepdim=True).to(dtype)
    dgamma = _dgamma.sum(dim=0).to(dtype)
    dbeta = dy.sum(dim=0).to(dtype)
    return dx.view(*shape), dalpha, dgamma, dbeta


def reference(inputs: dict[str, Any]) -> Any:
    """float64 autograd of sum(dy * (gamma * tanh(alpha * x) + beta)), 2048 rows at a time; outputs rounded to the
    dtypes the library returns (dalpha, dgamma, dbeta in x's fp16)."""
    dy, x, alpha, gamma = inputs["dy"], inputs["x"], inputs["alpha"], inputs["gamma"]
    BT, C = x.shape
    a = alpha.double().clone().requires_grad_(True)
    gm = gamma.double().clone().requires_grad_(True)
    dx = torch.empty((BT, C), device=x.device, dtype=torch.float64)
    da = torch.zeros((1,), device=x.device, dtype=torch.float64)
    dg = torch.zeros((C,), device=x.device, dtype=torch.float64)
    for i in range(0, BT, 2048):
        xi = x[i:i + 2048].double().requires_grad_(True)
        dyi = dy[i:i + 2048].double()
        y = gm * torch.tanh(a * xi)
        gx, ga, gg = torch.autograd.grad((y * dyi).sum(), (xi, a, gm))
        dx[i:i + 2048] = gx
        da += ga
        dg += gg
    db = dy.double().sum(0)
    return dx, da.to(x.dtype), dg.to(x.dtype), db.to(x.dtype)


def bytes_moved(BT: int, C: int) -> float:
    """x and dy read (fp16), dx written (fp32)."""
    return BT * C * (2.0 + 2.0 + 4.0)
