"""Liger-Kernel's fused residual-add RMSNorm forward (liger_kernel/ops/fused_add_rms_norm.py
``_fused_add_rms_norm_forward_kernel``, with rms_norm.py's casting modes) as it runs Gemma: ``casting_mode`` the
module-level constexpr global ``_CASTING_MODE_GEMMA`` (``_CASTING_MODE_*: tl.constexpr = tl.constexpr(k)``, compared
inside the kernel), everything computed in fp32 and cast back to the input's dtype at the store, the weight used as
``(offset + W)`` with ``offset = 1.0`` a runtime fp32 argument, ``tl.math.rsqrt(mean_square + eps)``, the per-row rstd
cached in RSTD, ``row_idx = tl.program_id(0).to(tl.int64)``, an ``elementwise_affine`` constexpr, and the
``casting_mode == _CASTING_MODE_NONE`` branch's ``eps.to(X_row_dtype)``. Liger loads the row in one BLOCK_SIZE block;
here, for rows wider than one block (Gemma-2 27B's 4608, Gemma-2 9B's 3584), it is written in the two-pass column
loop form: a first loop adds the residual (S = X + R, stored: the next layer's residual), and accumulates the sum of
squares in an fp32 [BLOCK_SIZE] vector; a second loop re-reads S and W and writes Y. fp16 (the library runs bf16;
Triton 3.6's interpreter computes bf16 wrongly). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

_CASTING_MODE_NONE: tl.constexpr = tl.constexpr(-1)
_CASTING_MODE_LLAMA: tl.constexpr = tl.constexpr(0)
_CASTING_MODE_GEMMA: tl.constexpr = tl.constexpr(1)

_str_to_casting_mode = {"llama": _CASTING_MODE_LLAMA.value, "gemma": _CASTING_MODE_GEMMA.value,
                        "none": _CASTING_MODE_NONE.value}

BLOCK_SIZE = 1024
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fused_add_rms_norm_forward_kernel",
    "signature": {"Y_ptr": "*fp16", "Y_row_stride": "i32", "S_ptr": "*fp16", "S_row_stride": "i32",
                  "X_ptr": "*fp16", "X_row_stride": "i32", "R_ptr": "*fp16", "R_row_stride": "i32",
                  "W_ptr": "*fp16", "W_row_stride": "i32", "RSTD_ptr": "*fp32", "RSTD_row_stride": "i32",
                  "n_cols": "i32", "eps": "fp32", "offset": "fp32"},
    "constexprs": {"casting_mode": 1, "elementwise_affine": True, "BLOCK_SIZE": BLOCK_SIZE},
    "num_warps": 8, "num_stages": 2,
    "divisibility": ["Y_ptr", "S_ptr", "X_ptr", "R_ptr", "W_ptr", "RSTD_ptr", "Y_row_stride", "S_row_stride",
                     "X_row_stride", "R_row_stride", "n_cols"]}
PROBLEM: dict[str, int] = {"n_rows": 8192, "n_cols": 3584}
SMALL: dict[str, int] = {"n_rows": 5, "n_cols": 2576}     # three column blocks, the last partial


@triton.jit
def _fused_add_rms_norm_forward_kernel(
    Y_ptr,
    Y_row_stride,
    S_ptr,  # output residual
    S_row_stride,
    X_ptr,
    X_row_stride,
    R_ptr,  # input residual
    R_row_stride,
    W_ptr,
    W_row_stride,
    RSTD_ptr,
    RSTD_row_stride,
    n_cols,
    eps,
    offset,
    casting_mode: tl.constexpr,  # constexpr so the `if` blocks can be optimized out
    elementwise_affine: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    """
    This kernel computes the following:
    1. hidden_states = residual + hidden_states
    2. residual = hidden_states
    3. hidden_states = rmsnorm(hidden_states)

    y_i = (x_i / (RMS)) * (offset + w_i), RMS = sqrt(sum(x_i ^ 2) / N)
    """
    row_idx = tl.program_id(0).to(tl.int64)
    col_offsets = tl.arange(0, BLOCK_SIZE)

    y_base = Y_ptr + row_idx * Y_row_stride
    s_base = S_ptr + row_idx * S_row_stride
    x_base = X_ptr + row_idx * X_row_stride
    r_base = R_ptr + row_idx * R_row_stride
    rstd_base = RSTD_ptr + row_idx * RSTD_row_stride

    X_row_dtype = X_ptr.dtype.element_ty
    if casting_mode == _CASTING_MODE_NONE:
        eps = eps.to(X_row_dtype)
        offset = offset.to(X_row_dtype)

    # pass 1: S = X + R, stored; the sum of squares
    _sum_sq = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + col_offsets
        mask = cols < n_cols
        X_row = tl.load(x_base + cols, mask=mask, other=0)
        R_row = tl.load(r_base + cols, mask=mask, other=0)
        S_row = X_row + R_row
        tl.store(s_base + cols, S_row, mask=mask)

        # On Llama, only rstd is computed on fp32
        if casting_mode == _CASTING_MODE_LLAMA:
            S_row = S_row.to(tl.float32)

        # Gemma computes everything on fp32, and then casts back the output to the original dtype
        if casting_mode == _CASTING_MODE_GEMMA:
            S_row = S_row.to(tl.float32)

        _sum_sq += S_row * S_row

    mean_square = tl.sum(_sum_sq, axis=0) / n_cols
    rstd = tl.math.rsqrt(mean_square + eps)

    # We can save time by caching rms with minimal memory overhead
    # because rms is much smaller compared to X_row, as rms is for each row.
    tl.store(rstd_base, rstd)

    # pass 2: Y = S * rstd * (offset + W)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + col_offsets
        mask = cols < n_cols
        S_row = tl.load(s_base + cols, mask=mask, other=0)
        if elementwise_affine:
            W_row = tl.load(W_ptr + cols, mask=mask, other=0)

        if casting_mode == _CASTING_MODE_LLAMA:
            S_row = S_row.to(tl.float32)

        if casting_mode == _CASTING_MODE_GEMMA:
            if elementwise_affine:
                W_row = W_row.to(tl.float32)
            S_row = S_row.to(tl.float32)

        S_row = S_row * rstd

        # On Llama, the multiplication with the weight is done on the original dtype
        if casting_mode == _CASTING_MODE_LLAMA:
            S_row = S_row.to(X_row_dtype)

        if elementwise_affine:
            Y_row = S_row * (offset + W_row)
        else:
            Y_row = S_row

        if casting_mode == _CASTING_MODE_GEMMA:
            Y_row = Y_row.to(X_row_dtype)

        tl.store(y_base + cols, Y_row, mask=mask)


def make_inputs(n_rows: int, n_cols: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((n_rows, n_cols), device=device, generator=g).half()
    r = torch.randn((n_rows, n_cols), device=device, generator=g).half()
    w = (0.1 * torch.randn((n_cols,), device=device, generator=g)).half()    # Gemma's weights hover around 0
    return {"x": x, "r": r, "w": w,
            "y": torch.empty_like(x), "s": torch.empty_like(x),
            "rstd": torch.empty((n_rows,), device=device, dtype=torch.float32)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(Y fp16 [n_rows, n_cols], S = X + R fp16, RSTD fp32 [n_rows])."""
    x, r, w, y, s, rstd = (inputs[k] for k in ("x", "r", "w", "y", "s", "rstd"))
    n_rows, n_cols = x.shape
    _fused_add_rms_norm_forward_kernel[(n_rows,)](
        y, y.stride(0), s, s.stride(0), x, x.stride(0), r, r.stride(0), w, w.stride(0), rstd, rstd.stride(0),
        n_cols, 1e-6, 1.0, casting_mode=_str_to_casting_mode["gemma"], elementwise_affine=True,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 2))
    return y, s, rstd


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    s = inputs["x"] + inputs["r"]                       # fp16 add, as the kernel's
    sf = s.float()
    rstd = torch.rsqrt(sf.pow(2).mean(dim=1) + 1e-6)
    y = (sf * rstd[:, None] * (1.0 + inputs["w"].float())).half()
    return y, s, rstd


def bytes_moved(n_rows: int, n_cols: int) -> float:
    return 2.0 * n_rows * n_cols * 5
