"""Tri Dao's fused LayerNorm / RMSNorm backward (flash_attn/ops/triton/layer_norm.py: ``_layer_norm_bwd_kernel``
launched by ``_layer_norm_bwd``), in its flash-attn 2.5 form.

The constructs: ``@triton.autotune`` over warp counts (1 .. 32) keyed on ``N`` and the flags, stacked over five
``@triton.heuristics`` (HAS_ROWSCALE, HAS_DY1, HAS_DX1, HAS_B1, RECOMPUTE_OUTPUT from which pointers are ``None``);
one program per SM (``grid = (sm_count,)``), each handling ``rows_per_program = ceil(M / sm_count)`` rows in the
loop ``for row in range(row_start, row_end)`` with ``row_end = min((row_block_id + 1) * rows_per_program, M)``
(no early exit: every program writes its dW / dB partials); the whole row in one ``BLOCK_N`` block with
``cols < N`` masks; per row: x and dy loaded, ``Mean`` / ``Rstd`` loaded by the loop index, ``xhat`` recomputed
(``... if not IS_RMS_NORM else ...``) and masked by ``tl.where``, optional output recompute (RECOMPUTE_OUTPUT),
``dw += dy * xhat`` and ``db += dy`` carried in registers across the rows, the row reductions ``c1``, ``c2`` by
``tl.sum``, ``dx`` plus the incoming ``DRESIDUAL``, stored as ``DRESIDUAL_IN`` (STORE_DRESIDUAL) and as ``DX``
(after optional dropout re-masking with ``tl.rand`` and rowscale); every row pointer bumped by its stride at the
end of the iteration; after the loop the per-program partial rows ``DW[row_block_id]`` / ``DB[row_block_id]``
stored, which the wrapper sums over programs.

Specialisation (TWILL_SPEC and ``launch``): prenorm with ``residual_in_fp32``: x (the saved residual_out) fp32,
dy fp16, dx fp16 (x_dtype), dresidual fp32, dresidual_in fp32, weight / bias fp32, LayerNorm, no dropout /
rowscale / dy1 / recompute. On the CPU the SM count is taken as 4 (``torch.cuda.get_device_properties`` needs a
GPU) so that the interpreter check runs several rows per program. Nothing here is imported by twill."""
from __future__ import annotations

import contextlib
import math
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_layer_norm_bwd_kernel",
    "signature": {"X": "*fp32", "W": "*fp32", "B": "*fp32", "Y": "constexpr", "DY": "*fp16", "DX": "*fp16",
                  "DW": "*fp32", "DB": "*fp32", "DRESIDUAL": "*fp32", "W1": "constexpr", "DY1": "constexpr",
                  "DX1": "constexpr", "DW1": "constexpr", "DB1": "constexpr", "DRESIDUAL_IN": "*fp32",
                  "ROWSCALE": "constexpr", "SEEDS": "constexpr", "Mean": "*fp32", "Rstd": "*fp32",
                  "stride_x_row": "i32", "stride_y_row": "i32", "stride_dy_row": "i32", "stride_dx_row": "i32",
                  "stride_dres_row": "i32", "stride_dy1_row": "i32", "stride_dx1_row": "i32",
                  "stride_dres_in_row": "i32", "M": "i32", "N": "i32", "eps": "fp32", "dropout_p": "fp32",
                  "rows_per_program": "i32"},
    "constexprs": {"Y": None, "W1": None, "DY1": None, "DX1": None, "DW1": None, "DB1": None, "ROWSCALE": None,
                   "SEEDS": None, "IS_RMS_NORM": False, "BLOCK_N": 4096, "HAS_DRESIDUAL": True,
                   "STORE_DRESIDUAL": True, "HAS_BIAS": True, "HAS_DROPOUT": False, "HAS_ROWSCALE": False,
                   "HAS_DY1": False, "HAS_DX1": False, "HAS_B1": False, "RECOMPUTE_OUTPUT": False},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["stride_x_row", "stride_dy_row", "stride_dx_row", "stride_dres_row", "stride_dres_in_row",
                     "M", "N"]}
PROBLEM: dict[str, int] = {"M": 16384, "N": 4096}
SMALL: dict[str, int] = {"M": 48, "N": 4096}   # BLOCK_N 4096 and M, N 16-divisible, as the kernel is specialised


@triton.autotune(
    configs=[
        triton.Config({}, num_warps=1),
        triton.Config({}, num_warps=2),
        triton.Config({}, num_warps=4),
        triton.Config({}, num_warps=8),
        triton.Config({}, num_warps=16),
        triton.Config({}, num_warps=32),
    ],
    key=["N", "HAS_DRESIDUAL", "STORE_DRESIDUAL", "IS_RMS_NORM", "HAS_BIAS", "HAS_DROPOUT"],
)
# @triton.heuristics({"HAS_BIAS": lambda args: args["B"] is not None})
# @triton.heuristics({"HAS_DRESIDUAL": lambda args: args["DRESIDUAL"] is not None})
# @triton.heuristics({"STORE_DRESIDUAL": lambda args: args["DRESIDUAL_IN"] is not None})
@triton.heuristics({"HAS_ROWSCALE": lambda args: args["ROWSCALE"] is not None})
@triton.heuristics({"HAS_DY1": lambda args: args["DY1"] is not None})
@triton.heuristics({"HAS_DX1": lambda args: args["DX1"] is not None})
@triton.heuristics({"HAS_B1": lambda args: args["DB1"] is not None})
@triton.heuristics({"RECOMPUTE_OUTPUT": lambda args: args["Y"] is not None})
@triton.jit
def _layer_norm_bwd_kernel(
    X,  # pointer to the input
    W,  # pointer to the weights
    B,  # pointer to the biases
    Y,  # pointer to the output to be recomputed
    DY,  # pointer to the output gradient
    DX,  # pointer to the input gradient
    DW,  # pointer to the partial sum of weights gradient
    DB,  # pointer to the partial sum of biases gradient
    DRESIDUAL,
    W1,
    DY1,
    DX1,
    DW1,
    DB1,
    DRESIDUAL_IN,
    ROWSCALE,
    SEEDS,
    Mean,  # pointer to the mean
    Rstd,  # pointer to the 1/std
    stride_x_row,  # how much to increase the pointer when moving by 1 row
    stride_y_row,
    stride_dy_row,
    stride_dx_row,
    stride_dres_row,
    stride_dy1_row,
    stride_dx1_row,
    stride_dres_in_row,
    M,  # number of rows in X
    N,  # number of columns in X
    eps,  # epsilon to avoid division by zero
    dropout_p,
    rows_per_program,
    IS_RMS_NORM: tl.constexpr,
    BLOCK_N: tl.constexpr,
    HAS_DRESIDUAL: tl.constexpr,
    STORE_DRESIDUAL: tl.constexpr,
    HAS_BIAS: tl.constexpr,
    HAS_DROPOUT: tl.constexpr,
    HAS_ROWSCALE: tl.constexpr,
    HAS_DY1: tl.constexpr,
    HAS_DX1: tl.constexpr,
    HAS_B1: tl.constexpr,
    RECOMPUTE_OUTPUT: tl.constexpr,
):
    # Map the program id to the elements of X, DX, and DY it should compute.
    row_block_id = tl.program_id(0)
    row_start = row_block_id * rows_per_program
    # Do not early exit if row_start >= M, because we need to write DW and DB
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    X += row_start * stride_x_row
    if HAS_DRESIDUAL:
        DRESIDUAL += row_start * stride_dres_row
    if STORE_DRESIDUAL:
        DRESIDUAL_IN += row_start * stride_dres_in_row
    DY += row_start * stride_dy_row
    DX += row_start * stride_dx_row
    if HAS_DY1:
        DY1 += row_start * stride_dy1_row
    if HAS_DX1:
        DX1 += row_start * stride_dx1_row
    if RECOMPUTE_OUTPUT:
        Y += row_start * stride_y_row
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    if RECOMPUTE_OUTPUT and HAS_BIAS:
        b = tl.load(B + cols, mask=mask, other=0.0).to(tl.float32)
    if HAS_DY1:
        w1 = tl.load(W1 + cols, mask=mask).to(tl.float32)
    dw = tl.zeros((BLOCK_N,), dtype=tl.float32)
    if HAS_BIAS:
        db = tl.zeros((BLOCK_N,), dtype=tl.float32)
    if HAS_DY1:
        dw1 = tl.zeros((BLOCK_N,), dtype=tl.float32)
        if HAS_B1:
            db1 = tl.zeros((BLOCK_N,), dtype=tl.float32)
    row_end = min((row_block_id + 1) * rows_per_program, M)
    for row in range(row_start, row_end):
        # Load data to SRAM
        x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
        dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
        if HAS_DY1:
            dy1 = tl.load(DY1 + cols, mask=mask, other=0).to(tl.float32)
        if not IS_RMS_NORM:
            mean = tl.load(Mean + row)
        rstd = tl.load(Rstd + row)
        # Compute dx
        xhat = (x - mean) * rstd if not IS_RMS_NORM else x * rstd
        xhat = tl.where(mask, xhat, 0.0)
        if RECOMPUTE_OUTPUT:
            y = xhat * w + b if HAS_BIAS else xhat * w
            tl.store(Y + cols, y, mask=mask)
        wdy = w * dy
        dw += dy * xhat
        if HAS_BIAS:
            db += dy
        if HAS_DY1:
            wdy += w1 * dy1
            dw1 += dy1 * xhat
            if HAS_B1:
                db1 += dy1
        if not IS_RMS_NORM:
            c1 = tl.sum(xhat * wdy, axis=0) / N
            c2 = tl.sum(wdy, axis=0) / N
            dx = (wdy - (xhat * c1 + c2)) * rstd
        else:
            c1 = tl.sum(xhat * wdy, axis=0) / N
            dx = (wdy - xhat * c1) * rstd
        if HAS_DRESIDUAL:
            dres = tl.load(DRESIDUAL + cols, mask=mask, other=0).to(tl.float32)
            dx += dres
        # Write dx
        if STORE_DRESIDUAL:
            tl.store(DRESIDUAL_IN + cols, dx, mask=mask)
        if HAS_DX1:
            if HAS_DROPOUT:
                keep_mask = (
                    tl.rand(tl.load(SEEDS + M + row).to(tl.uint32), cols, n_rounds=7) > dropout_p
                )
                dx1 = tl.where(keep_mask, dx / (1.0 - dropout_p), 0.0)
            else:
                dx1 = dx
            tl.store(DX1 + cols, dx1, mask=mask)
        if HAS_DROPOUT:
            keep_mask = tl.rand(tl.load(SEEDS + row).to(tl.uint32), cols, n_rounds=7) > dropout_p
            dx = tl.where(keep_mask, dx / (1.0 - dropout_p), 0.0)
        if HAS_ROWSCALE:
            rowscale = tl.load(ROWSCALE + row).to(tl.float32)
            dx *= rowscale
        tl.store(DX + cols, dx, mask=mask)

        X += stride_x_row
        if HAS_DRESIDUAL:
            DRESIDUAL += stride_dres_row
        if STORE_DRESIDUAL:
            DRESIDUAL_IN += stride_dres_in_row
        if RECOMPUTE_OUTPUT:
            Y += stride_y_row
        DY += stride_dy_row
        DX += stride_dx_row
        if HAS_DY1:
            DY1 += stride_dy1_row
        if HAS_DX1:
            DX1 += stride_dx1_row
    tl.store(DW + row_block_id * N + cols, dw, mask=mask)
    if HAS_BIAS:
        tl.store(DB + row_block_id * N + cols, db, mask=mask)
    if HAS_DY1:
        tl.store(DW1 + row_block_id * N + cols, dw1, mask=mask)
        if HAS_B1:
            tl.store(DB1 + row_block_id * N + cols, db1, mask=mask)


def _layer_norm_bwd(
    dy,
    x,
    weight,
    bias,
    eps,
    mean,
    rstd,
    dresidual=None,
    dy1=None,
    weight1=None,
    bias1=None,
    seeds=None,
    dropout_p=0.0,
    rowscale=None,
    has_residual=False,
    has_x1=False,
    is_rms_norm=False,
    x_dtype=None,
    recompute_output=False,
):
    import torch
    M, N = x.shape
    assert x.stride(-1) == 1
    assert dy.stride(-1) == 1
    assert dy.shape == (M, N)
    if dresidual is not None:
        assert dresidual.stride(-1) == 1
        assert dresidual.shape == (M, N)
    assert weight.shape == (N,)
    assert weight.stride(-1) == 1
    if bias is not None:
        assert bias.stride(-1) == 1
        assert bias.shape == (N,)
    if dy1 is not None:
        assert weight1 is not None
        assert dy1.shape == dy.shape
        assert dy1.stride(-1) == 1
    if weight1 is not None:
        assert weight1.shape == (N,)
        assert weight1.stride(-1) == 1
    if bias1 is not None:
        assert bias1.shape == (N,)
        assert bias1.stride(-1) == 1
    if seeds is not None:
        assert seeds.is_contiguous()
        assert seeds.shape == (M if not has_x1 else M * 2,)
    if rowscale is not None:
        assert rowscale.is_contiguous()
        assert rowscale.shape == (M,)
    # allocate output
    dx = (
        torch.empty_like(x)
        if x_dtype is None
        else torch.empty(M, N, dtype=x_dtype, device=x.device)
    )
    dresidual_in = (
        torch.empty_like(x)
        if has_residual
        and (dx.dtype != x.dtype or dropout_p > 0.0 or rowscale is not None or has_x1)
        else None
    )
    dx1 = torch.empty_like(dx) if (has_x1 and dropout_p > 0.0) else None
    y = torch.empty(M, N, dtype=dy.dtype, device=dy.device) if recompute_output else None
    if recompute_output:
        assert (
            weight1 is None
        ), "recompute_output is not supported with parallel LayerNorm"

    # Less than 64KB per feature: enqueue fused kernel
    MAX_FUSED_SIZE = 65536 // x.element_size()
    BLOCK_N = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
    if N > BLOCK_N:
        raise RuntimeError("This layer norm doesn't support feature dim >= 64KB.")
    # (no SM count without a GPU: 4 programs on the CPU, so the interpreter runs several rows per program)
    sm_count = torch.cuda.get_device_properties(x.device).multi_processor_count if x.device.type == "cuda" else 4
    _dw = torch.empty((sm_count, N), dtype=torch.float32, device=weight.device)
    _db = (
        torch.empty((sm_count, N), dtype=torch.float32, device=bias.device)
        if bias is not None
        else None
    )
    _dw1 = torch.empty_like(_dw) if weight1 is not None else None
    _db1 = torch.empty_like(_db) if bias1 is not None else None
    rows_per_program = math.ceil(M / sm_count)
    grid = (sm_count,)
    with torch.cuda.device(x.device.index) if x.device.type == "cuda" else contextlib.nullcontext():
        _layer_norm_bwd_kernel[grid](
            x,
            weight,
            bias,
            y,
            dy,
            dx,
            _dw,
            _db,
            dresidual,
            weight1,
            dy1,
            dx1,
            _dw1,
            _db1,
            dresidual_in,
            rowscale,
            seeds,
            mean,
            rstd,
            x.stride(0),
            0 if not recompute_output else y.stride(0),
            dy.stride(0),
            dx.stride(0),
            dresidual.stride(0) if dresidual is not None else 0,
            dy1.stride(0) if dy1 is not None else 0,
            dx1.stride(0) if dx1 is not None else 0,
            dresidual_in.stride(0) if dresidual_in is not None else 0,
            M,
            N,
            eps,
            dropout_p,
            rows_per_program,
            is_rms_norm,
            BLOCK_N,
            dresidual is not None,
            dresidual_in is not None,
            bias is not None,
            dropout_p > 0.0,
        )
    dw = _dw.sum(0).to(weight.dtype)
    db = _db.sum(0).to(bias.dtype) if bias is not None else None
    dw1 = _dw1.sum(0).to(weight1.dtype) if weight1 is not None else None
    db1 = _db1.sum(0).to(bias1.dtype) if bias1 is not None else None
    # Don't need to compute dresidual_in separately in this case
    if has_residual and dx.dtype == x.dtype and dropout_p == 0.0 and rowscale is None:
        dresidual_in = dx
    if has_x1 and dropout_p == 0.0:
        dx1 = dx
    return (
        (dx, dw, db, dresidual_in, dx1, dw1, db1)
        if not recompute_output
        else (dx, dw, db, dresidual_in, dx1, dw1, db1, y)
    )


def make_inputs(M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x fp32 [M, N] (the forward's residual_out, what LayerNormFn saves with residual_in_fp32), dy fp16, dresidual
    fp32 (the gradient reaching residual_out), weight / bias fp32, and the forward's mean / rstd computed here."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, N), device=device, generator=g)
    dy = torch.randn((M, N), device=device, generator=g).half()
    dresidual = torch.randn((M, N), device=device, generator=g)
    weight = 1.0 + 0.1 * torch.randn((N,), device=device, generator=g)
    bias = 0.1 * torch.randn((N,), device=device, generator=g)
    eps = 1e-6
    mean = x.double().mean(-1)
    rstd = 1.0 / torch.sqrt(((x.double() - mean[:, None]) ** 2).mean(-1) + eps)
    return {"x": x, "dy": dy, "dresidual": dresidual, "weight": weight, "bias": bias, "eps": eps,
            "mean": mean.float(), "rstd": rstd.float()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dx fp16, dw fp32 [N], db fp32 [N], dresidual_in fp32) as LayerNormFn.backward calls ``_layer_norm_bwd``
    (has_residual, x_dtype fp16: dresidual_in is its own output)."""
    import torch
    x = inputs["x"]
    dx, dw, db, dresidual_in, _dx1, _dw1, _db1 = _layer_norm_bwd(
        inputs["dy"], x, inputs["weight"], inputs["bias"], inputs["eps"], inputs["mean"], inputs["rstd"],
        dresidual=inputs["dresidual"], has_residual=True, is_rms_norm=False, x_dtype=torch.float16)
    return dx, dw, db, dresidual_in


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, dy, dres, w = (inputs[n].double() for n in ("x", "dy", "dresidual", "weight"))
    N = x.shape[1]
    mean = x.mean(-1, keepdim=True)
    rstd = 1.0 / torch.sqrt(((x - mean) ** 2).mean(-1, keepdim=True) + inputs["eps"])
    xhat = (x - mean) * rstd
    wdy = w * dy
    c1 = (xhat * wdy).sum(-1, keepdim=True) / N
    c2 = wdy.sum(-1, keepdim=True) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd + dres
    return dx, (dy * xhat).sum(0), dy.sum(0), dx


def flops(M: int, N: int) -> float:
    """About twelve flops an element."""
    return 12.0 * M * N
