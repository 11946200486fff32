"""AITER's RMSNorm with per-token int8 quantisation, ``_quant_rms_norm_kernel`` (ROCm/aiter
``aiter/ops/triton/_triton_kernels/normalization/rmsnorm.py``, helper ``_per_token_quant`` from the same file),
launched as ``rmsnorm2d_fwd_with_smoothquant`` does (``IS_SMOOTH``; ``BLOCK_SIZE = min(65536 // 2,
next_power_of_2(n_cols))`` = 32768, ``USE_BLOCKED = n_cols > BLOCK_SIZE``, ``NUM_PRGMS = min(n_rows, #SMs)``,
an fp32 ``aux`` scratch [n_rows, n_cols]), on rows wider than one block (the **blocked** path).

The constructs: a **persistent row loop** ``tl.range(row_start, n_rows, NUM_PRGMS, num_stages=1)`` holding
**three inner loops in sequence** over the row's full blocks (``tl.range(0, n_cols_blks, num_stages=2)``), each
followed by a **peeled masked remainder block** (``.cg`` loads): (1) a sum of squares (scalar fp32 carry, unmasked
loads under ``tl.multiple_of(ptrs, (16,))``); (2) normalise, multiply by the smoothing scale (``if IS_SMOOTH``,
loaded per block), a **scalar max carry written with Python ``max``** (``row_max = max(row_max, blk_max)``), and
an fp32 **store to the aux scratch** row; (3) **re-load that scratch** (a store-to-load dependence between loops),
call the ``@triton.jit`` helper ``_per_token_quant`` (constexpr ``CLAMP_MAX`` / ``CLAMP_OUT`` branches, a
``tl.where`` on the scale) which **stores the row's scale to the same address every iteration**, and store the
int8 result (a truncating float-to-int8 cast via ``output_ptr.dtype.element_ty``). ``None`` pointer arguments
(``scale_ub_ptr``, ``out_intermediate_ptr``) behind false constexprs. Port notes: nothing simplified; the wrapper's
``get_num_sms()`` is an H100's 132. Shape: the down-projection input of a Llama-3.1-405B MLP (intermediate 53248)
for 2048 tokens, bf16 in, int8 out; SMALL keeps 2 blocks a row and more rows than programs."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

N_SM = 132
BLOCK = 32768          # min(65536 // 2, next_power_of_2(n_cols)) for n_cols > 32768, bf16
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_quant_rms_norm_kernel",
    "signature": {"input_ptr": "*bf16", "output_ptr": "*i8", "x_scale_ptr": "*fp32", "y_scale_ptr": "*fp32",
                  "g_ptr": "*bf16", "aux_ptr": "*fp32", "input_row_stride": "i32", "output_row_stride": "i32",
                  "aux_row_stride": "i32", "n_rows": "i32", "n_cols": "i32", "epsilon": "fp32"},
    "constexprs": {"scale_ub_ptr": None, "out_intermediate_ptr": None, "DTYPE_MAX": 127, "IS_SMOOTH": True,
                   "CLAMP_MAX": False, "CLAMP_OUT": False, "DUMP_INTERMEDIATE": False, "BLOCK_SIZE": BLOCK,
                   "USE_BLOCKED": True, "NUM_PRGMS": N_SM},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["input_row_stride", "output_row_stride", "aux_row_stride", "n_cols"]}
PROBLEM: dict[str, int] = {"n_rows": 2048, "n_cols": 53248}
SMALL: dict[str, int] = {"n_rows": 140, "n_cols": 40000}


@triton.jit
def _per_token_quant(
    x,
    y_scale_ptr,
    row_max,
    row_idx,
    DTYPE_MAX: tl.constexpr,
    scale_ub_ptr=None,
    EPS_8BIT: tl.constexpr = 1e-12,
    CLAMP_MAX: tl.constexpr = False,
    CLAMP_OUT: tl.constexpr = False,
):
    """
    #TODO: Add Doc
    """

    if CLAMP_MAX:
        ub = tl.load(scale_ub_ptr)
        row_max = tl.clamp(row_max, EPS_8BIT, ub)

    scale_out = row_max / DTYPE_MAX
    scale_out = tl.where(scale_out == 0, 1.0, scale_out)

    scale_recip = 1 / scale_out

    qx = x * scale_recip

    if CLAMP_OUT:
        qx = tl.clamp(qx, -DTYPE_MAX, DTYPE_MAX)

    tl.store(y_scale_ptr + row_idx, scale_out.to(y_scale_ptr.dtype.element_ty))

    return qx


@triton.jit
def _quant_rms_norm_kernel(
    # Pointers to matrices
    input_ptr,
    output_ptr,
    x_scale_ptr,
    y_scale_ptr,
    g_ptr,
    # Auxiliary tensor to store intermediate data
    aux_ptr,
    # The stride variables represent how much to increase the ptr by when moving by 1 element in a particular dimension.
    # E.g. `input_row_stride` is how much to increase `input_ptr` by to get the element one row down.
    input_row_stride,
    output_row_stride,
    aux_row_stride,
    # Matrix dimensions
    n_rows,
    n_cols,
    # Epsilon to avoid division by zero
    epsilon,
    # Optional pointers
    scale_ub_ptr,  # Pointer to the scale upper bound tensor
    out_intermediate_ptr,  # Pointer to the intermediate output tensor
    # Dtype max for quantization
    DTYPE_MAX: tl.constexpr,
    # Meta-parameters
    IS_SMOOTH: tl.constexpr,
    CLAMP_MAX: tl.constexpr,
    CLAMP_OUT: tl.constexpr,
    DUMP_INTERMEDIATE: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    USE_BLOCKED: tl.constexpr,
    NUM_PRGMS: tl.constexpr,
):
    """
    Note: this is Triton jited function and not meant to be called directly. Call rmsnorm2d_fwd_with_smoothquant or
    rmsnorm2d_fwd_with_dynamicquant functions below.
    """
    # Map the program id to the first row of input and output it should compute.
    row_start = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)

    if USE_BLOCKED:
        # Persistent loop for rows
        for row_idx in tl.range(row_start, n_rows, NUM_PRGMS, num_stages=1):
            row_input_ptr = input_ptr + row_idx * input_row_stride
            row_output_ptr = output_ptr + row_idx * output_row_stride
            row_aux_ptr = aux_ptr + row_idx * aux_row_stride

            # Accumulate sum of squares
            n_cols_blks = tl.cdiv(n_cols, BLOCK_SIZE) - 1
            sum_squares = 0.0
            for blk_idx in tl.range(0, n_cols_blks, num_stages=2):
                cols = blk_idx * BLOCK_SIZE + col_offsets
                input_ptrs = row_input_ptr + cols
                input_ptrs = tl.multiple_of(input_ptrs, (16,))
                x = tl.load(input_ptrs).to(tl.float32)
                sum_squares += tl.sum(x * x, axis=0)

            # Handle remainder
            cols = n_cols_blks * BLOCK_SIZE + col_offsets
            mask = cols < n_cols
            input_ptrs = row_input_ptr + cols
            input_ptrs = tl.multiple_of(input_ptrs, (16,))
            x = tl.load(input_ptrs, mask=mask, other=0.0, cache_modifier=".cg").to(
                tl.float32
            )
            sum_squares += tl.sum(x * x, axis=0)

            # Compute normalization factor
            mean_square = sum_squares / n_cols
            norm_factor = tl.rsqrt(mean_square + epsilon)

            row_max = 0.0

            # Normalize and write output temporarily as fp32
            for blk_idx in tl.range(0, n_cols_blks, num_stages=2):
                cols = blk_idx * BLOCK_SIZE + col_offsets
                input_ptrs = row_input_ptr + cols
                input_ptrs = tl.multiple_of(input_ptrs, (16,))
                x = tl.load(input_ptrs).to(tl.float32)
                g_ptrs = g_ptr + cols
                g = tl.load(g_ptrs).to(tl.float32)
                rms_norm = x * norm_factor * g

                if DUMP_INTERMEDIATE:
                    tl.store(
                        out_intermediate_ptr + row_idx * n_cols + cols,
                        rms_norm.to(out_intermediate_ptr.type.element_ty),
                    )

                if IS_SMOOTH:
                    x_scale_ptrs = x_scale_ptr + cols
                    x_scale_ptrs = tl.multiple_of(x_scale_ptrs, (16,))
                    x_scale = tl.load(x_scale_ptrs)
                    rms_norm *= x_scale

                blk_max = tl.max(tl.abs(rms_norm), axis=-1)
                row_max = max(row_max, blk_max)

                aux_ptrs = row_aux_ptr + cols
                tl.store(aux_ptrs, rms_norm)

            # Handle remainder
            cols = n_cols_blks * BLOCK_SIZE + col_offsets
            mask = cols < n_cols
            input_ptrs = row_input_ptr + cols
            x = tl.load(input_ptrs, mask=mask, other=0.0, cache_modifier=".cg").to(
                tl.float32
            )
            g_ptrs = g_ptr + cols
            g = tl.load(g_ptrs, mask=mask, other=0.0).to(tl.float32)
            rms_norm = x * norm_factor * g

            if DUMP_INTERMEDIATE:
                tl.store(
                    out_intermediate_ptr + row_idx * n_cols + cols,
                    rms_norm.to(out_intermediate_ptr.type.element_ty),
                    mask=mask,
                )

            if IS_SMOOTH:
                x_scale_ptrs = x_scale_ptr + cols
                x_scale = tl.load(
                    x_scale_ptrs, mask=mask, other=0.0, cache_modifier=".cg"
                )
                rms_norm *= x_scale

            blk_max = tl.max(tl.abs(rms_norm), axis=-1)
            row_max = max(row_max, blk_max)

            aux_ptrs = row_aux_ptr + cols
            tl.store(aux_ptrs, rms_norm, mask=mask)

            # Apply quantization and write output
            for blk_idx in tl.range(0, n_cols_blks, num_stages=2):
                cols = blk_idx * BLOCK_SIZE + col_offsets
                aux_ptrs = row_aux_ptr + cols
                aux_ptrs = tl.multiple_of(aux_ptrs, (16,))
                aux = tl.load(aux_ptrs)

                output = _per_token_quant(
                    aux,
                    y_scale_ptr,
                    row_max,
                    row_idx,
                    DTYPE_MAX,
                    scale_ub_ptr=scale_ub_ptr,
                    CLAMP_MAX=CLAMP_MAX,
                    CLAMP_OUT=CLAMP_OUT,
                )

                output_ptrs = row_output_ptr + cols
                tl.store(output_ptrs, output.to(output_ptr.dtype.element_ty))

            # Handle remainder
            cols = n_cols_blks * BLOCK_SIZE + col_offsets
            mask = cols < n_cols
            aux_ptrs = row_aux_ptr + cols
            aux = tl.load(aux_ptrs, mask=mask, other=0.0, cache_modifier=".cg")

            output = _per_token_quant(
                aux,
                y_scale_ptr,
                row_max,
                row_idx,
                DTYPE_MAX,
                scale_ub_ptr=scale_ub_ptr,
                CLAMP_MAX=CLAMP_MAX,
                CLAMP_OUT=CLAMP_OUT,
            )

            output_ptrs = row_output_ptr + cols
            tl.store(output_ptrs, output.to(output_ptr.dtype.element_ty), mask=mask)
    else:
        mask = col_offsets < n_cols
        for row_idx in tl.range(row_start, n_rows, NUM_PRGMS, num_stages=2):
            input_ptrs = input_ptr + row_idx * input_row_stride + col_offsets
            input_ptrs = tl.multiple_of(input_ptrs, (16,))
            row = tl.load(input_ptrs, mask=mask, other=0.0, cache_modifier=".cg").to(
                tl.float32
            )
            g = tl.load(g_ptr + col_offsets, mask=mask, other=0.0).to(tl.float32)
            row_norm = row * row
            row_norm = tl.sum(row_norm, axis=-1)
            norm_factor = tl.math.rsqrt((row_norm / n_cols) + epsilon)

            rms_norm = row * norm_factor * g

            if DUMP_INTERMEDIATE:
                tl.store(
                    out_intermediate_ptr + row_idx * n_cols + col_offsets,
                    rms_norm.to(out_intermediate_ptr.type.element_ty),
                    mask=mask,
                )

            if IS_SMOOTH:
                x_scale_ptrs = x_scale_ptr + col_offsets
                x_scale_ptrs = tl.multiple_of(x_scale_ptrs, (16,))
                x_scale = tl.load(
                    x_scale_ptrs, mask=mask, other=0.0, cache_modifier=".cg"
                )
                rms_norm *= x_scale

            row_max = tl.max(tl.abs(rms_norm), axis=-1)
            rms_norm = _per_token_quant(
                rms_norm,
                y_scale_ptr,
                row_max,
                row_idx,
                DTYPE_MAX,
                scale_ub_ptr=scale_ub_ptr,
                CLAMP_MAX=CLAMP_MAX,
                CLAMP_OUT=CLAMP_OUT,
            )

            output_ptrs = output_ptr + row_idx * output_row_stride + col_offsets
            output_ptrs = tl.multiple_of(output_ptrs, (16,))
            tl.store(output_ptrs, rms_norm.to(output_ptr.type.element_ty), mask=mask)


def make_inputs(n_rows: int, n_cols: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [n_rows, n_cols] bf16 (a per-row scale), weight [n_cols] bf16, smoothing scale [n_cols] fp32."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((n_rows, n_cols), device=device, generator=g)
    x = (x * torch.exp2(torch.randint(-3, 4, (n_rows, 1), device=device, generator=g).float())).bfloat16()
    w = (torch.rand((n_cols,), device=device, generator=g) + 0.5).bfloat16()
    xs = torch.rand((n_cols,), device=device, generator=g) + 0.5
    return {"x": x, "weight": w, "xscale": xs}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(out [n_rows, n_cols] int8 as fp32, yscale [n_rows, 1] fp32), as ``rmsnorm2d_fwd_with_smoothquant``."""
    import torch
    x, w, xs = inputs["x"], inputs["weight"], inputs["xscale"]
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), dtype=torch.int8, device=x.device)
    yscale = torch.empty((n_rows, 1), dtype=torch.float32, device=x.device)
    blk_size = min(65536 // x.element_size(), triton.next_power_of_2(n_cols))
    USE_BLOCKED = n_cols > blk_size
    NUM_PRGMS = min(n_rows, N_SM)
    aux = torch.empty(n_rows, n_cols, dtype=torch.float32, device=x.device) if USE_BLOCKED else None
    _quant_rms_norm_kernel[(NUM_PRGMS,)](
        x, out, xs, yscale, w, aux, x.stride(0), out.stride(0), aux.stride(0) if USE_BLOCKED else None,
        n_rows, n_cols, 1e-6, None, None, 127, True, False, False, False, blk_size, USE_BLOCKED, NUM_PRGMS,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return out.float(), yscale


def reference(inputs: dict[str, Any]) -> Any:
    """rms = x * rsqrt(mean(x^2) + eps) * w * xscale; scale = max|rms| / 127; out = trunc(rms / scale)."""
    import torch
    x, w, xs = inputs["x"].float(), inputs["weight"].float(), inputs["xscale"]
    r = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w * xs
    scale = r.abs().amax(-1, keepdim=True) / 127
    scale = torch.where(scale == 0, torch.ones_like(scale), scale)
    return torch.trunc(r * (1 / scale)), scale


def flops(n_rows: int, n_cols: int) -> float:
    """About 8 flops an element over the three passes (memory-bound: 2 + 4 + 4 + 4 + 1 bytes an element)."""
    return 8.0 * n_rows * n_cols
