"""torchao's float8 quantisation with "jagged" row-wise scales for MoE grouped GEMMs (pytorch/ao,
torchao/prototype/scaled_grouped_mm/kernels/jagged_float8_scales.py ``_triton_fp8_row_major_jagged_rowwise_scales``):
a 2-D bf16 tensor [M, K] whose columns are cut into groups by cumulative ``offsets`` (one group per expert); one
program per (block of BLOCK_SIZE_ROWS rows, group); the group's column range loaded from memory
(``tl.load(offsets_ptr + offset_idx - 1, mask=offset_idx > 0, other=0)`` and ``tl.load(offsets_ptr + offset_idx)``)
and used as the bounds of **two sibling loops** ``for col_start_idx in range(group_col_start_idx, group_col_end_idx,
BLOCK_SIZE_COLS)`` (data-dependent start, end and trip count; an empty group runs neither): the first a row-wise
abs-max reduction carried in a **float64** accumulator (``tl.zeros(..., dtype=tl.float64)``, ``tl.maximum`` with a
bf16 ``tl.max(tl.abs(data), axis=1)``), then scales ``fp8_max / tl.clamp(amax, min=EPS, max=float("inf"))`` cast to
fp32 and rounded down to a power of two (``tl.exp2(tl.floor(tl.log2(scales)))`` under the constexpr
``round_scales_to_power_of_2``), stored per (group, row) with the library's ``tl.arange(0, BLOCK_SIZE_ROWS) < M``
mask; the second loop re-reads the same tiles and writes ``tl.clamp(data * scales[:, None], fp8_min,
fp8_max).to(output_dtype)`` (float8e4nv) under a 2-D mask against M and the group's end. Dtypes passed as
``tl.constexpr`` (``input_dtype`` / ``output_dtype``); untyped-int annotations (``M: int``) on runtime arguments;
``@triton.autotune`` over the two block sizes as the library decorates it (one config kept here). Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

EPS = 1e-12
FP8_MAX = 448.0
BLOCK_ROWS = 128
BLOCK_COLS = 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_triton_fp8_row_major_jagged_rowwise_scales",
    "signature": {"input_ptr": "*bf16", "offsets_ptr": "*i32", "out_ptr": "*fp8e4nv", "scales_ptr": "*fp32",
                  "M": "i32", "K": "i32", "stride_input_row": "i32", "stride_input_col": "i32",
                  "stride_output_row": "i32", "stride_output_col": "i32", "num_elements": "i32"},
    "constexprs": {"fp8_dtype_min": -FP8_MAX, "fp8_dtype_max": FP8_MAX, "input_dtype": tl.bfloat16,
                   "output_dtype": tl.float8e4nv, "round_scales_to_power_of_2": True,
                   "BLOCK_SIZE_ROWS": BLOCK_ROWS, "BLOCK_SIZE_COLS": BLOCK_COLS, "EPS": EPS},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["M", "K", "stride_input_row", "stride_output_row"]}
# the backward of a 16-expert MoE layer: grad_output^T [hidden 5120, 16384 routed tokens], jagged along the tokens
PROBLEM: dict[str, int] = {"M": 5120, "K": 16384, "G": 16}
SMALL: dict[str, int] = {"M": 256, "K": 720, "G": 4}      # M a multiple of BLOCK_SIZE_ROWS (the scales mask)

kernel_configs_2D = [
    triton.Config({"BLOCK_SIZE_ROWS": BLOCK_ROWS, "BLOCK_SIZE_COLS": BLOCK_COLS}),
]


@triton.autotune(configs=kernel_configs_2D, key=["num_elements"])
@triton.jit
def _triton_fp8_row_major_jagged_rowwise_scales(
    input_ptr,
    offsets_ptr,
    out_ptr,
    scales_ptr,
    M: int,
    K: int,
    stride_input_row: int,
    stride_input_col: int,
    stride_output_row: int,
    stride_output_col: int,
    num_elements: int,
    fp8_dtype_min: tl.constexpr,
    fp8_dtype_max: tl.constexpr,
    input_dtype: tl.constexpr,
    output_dtype: tl.constexpr,
    round_scales_to_power_of_2: tl.constexpr,
    BLOCK_SIZE_ROWS: tl.constexpr,
    BLOCK_SIZE_COLS: tl.constexpr,
    EPS: tl.constexpr,
):
    # parallel across rows and groups (offsets)
    block_row_id = tl.program_id(axis=0)
    offset_idx = tl.program_id(axis=1)

    # determine start and end column idx for this group
    group_col_start_idx = tl.load(
        offsets_ptr + offset_idx - 1, mask=offset_idx > 0, other=0
    )
    group_col_end_idx = tl.load(offsets_ptr + offset_idx)
    block_row_offs = block_row_id * BLOCK_SIZE_ROWS + tl.arange(0, BLOCK_SIZE_ROWS)

    # compute rowwise amaxes for this group
    amax_buffer = tl.zeros((BLOCK_SIZE_ROWS,), dtype=tl.float64)
    for col_start_idx in range(group_col_start_idx, group_col_end_idx, BLOCK_SIZE_COLS):
        block_col_offs = col_start_idx + tl.arange(0, BLOCK_SIZE_COLS)
        block_offs = (
            block_row_offs[:, None] * stride_input_row
            + block_col_offs[None, :] * stride_input_col
        )
        block_mask = (block_row_offs[:, None] < M) & (
            block_col_offs[None, :] < group_col_end_idx
        )
        data = tl.load(input_ptr + block_offs, mask=block_mask, other=0.0).to(
            input_dtype
        )
        amax_buffer = tl.maximum(amax_buffer, tl.max(tl.abs(data), axis=1))

    # compute rowwise scales for this group. round scales to nearest power of 2.
    scales = (fp8_dtype_max / tl.clamp(amax_buffer, min=EPS, max=float("inf"))).to(
        tl.float32
    )
    if round_scales_to_power_of_2:
        scales = tl.exp2(tl.floor(tl.log2(scales)))

    # store rowwise scales for each group in contiguous memory:
    # [group0_row0, group_0_row1, ..., group2_row0, group2_row1]
    scales_offs = block_row_offs + (M * offset_idx)
    scales_mask = tl.arange(0, BLOCK_SIZE_ROWS) < M
    tl.store(scales_ptr + scales_offs, scales, mask=scales_mask)

    # perform float8 conversion for this group
    for col_start_idx in range(group_col_start_idx, group_col_end_idx, BLOCK_SIZE_COLS):
        block_col_offs = col_start_idx + tl.arange(0, BLOCK_SIZE_COLS)
        block_offs = (
            block_row_offs[:, None] * stride_input_row
            + block_col_offs[None, :] * stride_input_col
        )
        block_mask = (block_row_offs[:, None] < M) & (block_col_offs[None, :] < group_col_end_idx)
        data = tl.load(input_ptr + block_offs, mask=block_mask, other=0.0).to(
            input_dtype
        )
        scaled_data = data * scales[:, None]
        fp8_data = tl.clamp(scaled_data, min=fp8_dtype_min, max=fp8_dtype_max).to(
            output_dtype
        )
        out_offs = (
            block_row_offs[:, None] * stride_output_row
            + block_col_offs[None, :] * stride_output_col
        )
        tl.store(out_ptr + out_offs, fp8_data, mask=block_mask)


def make_inputs(M: int, K: int, G: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """hp [M, K] bf16 row-major, rows of different magnitudes; offsets [G] int32: the cumulative ends of G groups of
    columns, multiples of 16 (the grouped GEMM's alignment), random sizes, one group possibly empty, the last at K."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    hp = (torch.randn((M, K), device=device, generator=g)
          * torch.rand((M, 1), device=device, generator=g).mul(8.0).exp2()).to(torch.bfloat16)
    cuts = torch.randint(0, K // 16 + 1, (G - 1,), device=device, generator=g).sort().values * 16
    offsets = torch.cat([cuts, torch.tensor([K], device=device)]).to(torch.int32)
    return {"hp": hp, "offsets": offsets}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[the fp8 tensor as fp32, the scales [G * M]], as ``triton_fp8_row_major_jagged_rowwise_scales`` with
    round_scales_to_power_of_2=True launches it: grid (cdiv(M, BLOCK_SIZE_ROWS), G)."""
    import torch
    hp_tensor, offsets = inputs["hp"], inputs["offsets"]
    num_elements = hp_tensor.numel()
    m, k = hp_tensor.shape
    n_groups = offsets.numel()
    output_buffer = torch.empty_like(hp_tensor, dtype=torch.float8_e4m3fn, device=hp_tensor.device)
    scales_buffer = torch.empty((m * n_groups), dtype=torch.float32, device=hp_tensor.device)
    grid = lambda meta: (triton.cdiv(m, meta["BLOCK_SIZE_ROWS"]), offsets.numel())   # noqa: E731
    _triton_fp8_row_major_jagged_rowwise_scales[grid](
        hp_tensor, offsets, output_buffer, scales_buffer, m, k,
        hp_tensor.stride(0), hp_tensor.stride(1), output_buffer.stride(0), output_buffer.stride(1),
        num_elements, -FP8_MAX, FP8_MAX, tl.bfloat16, tl.float8e4nv, True, EPS=EPS)
    return output_buffer.float(), scales_buffer


def reference(inputs: dict[str, Any]) -> Any:
    """Per (group, row): scale = 2^floor(log2(448 / max(amax, EPS))), out = clamp(x * scale) in e4m3; an empty
    group's scales are 448 / EPS rounded."""
    import torch
    x = inputs["hp"].float()
    M, K = x.shape
    ends = inputs["offsets"].long().tolist()
    out = torch.zeros((M, K), dtype=torch.float32, device=x.device)
    scales = []
    start = 0
    for end in ends:
        blk = x[:, start:end]
        amax = blk.abs().amax(dim=1).double() if end > start else torch.zeros(M, dtype=torch.float64, device=x.device)
        s = (FP8_MAX / amax.clamp(min=EPS)).float()
        s = torch.exp2(torch.floor(torch.log2(s)))
        scales.append(s)
        out[:, start:end] = (blk * s[:, None]).clamp(-FP8_MAX, FP8_MAX).to(torch.float8_e4m3fn).float()
        start = end
    return out, torch.cat(scales)


def flops(M: int, K: int, G: int) -> float:
    return 3.0 * M * K
