"""Row softmax as Triton's tutorial (02) writes it: each program loops over rows (`tl.range(row_start, n_rows,
row_step, num_stages=...)`), one whole row a block, its store inside the loop; the loop carries no value, and its
trip count differs between programs (a program past the last row runs none). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"output_ptr": "*fp32", "input_ptr": "*fp32", "input_row_stride": "i32", "output_row_stride": "i32",
                  "n_rows": "i32", "n_cols": "i32"},
    "constexprs": {"BLOCK_SIZE": 1024, "num_stages": 4}, "num_warps": 8,
    "divisibility": ["input_row_stride", "output_row_stride"],      # as a launch at PROBLEM specialises it
}
PROBLEM: dict[str, int] = {"R": 16384, "N": 1000}
SMALL: dict[str, int] = {"R": 100, "N": 781}            # fewer rows than programs: some programs run no row
PROGRAMS = 264                                          # two per SM on the H200, as the tutorial sizes its grid


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((R, (N + 15) // 16 * 16), device=device, dtype=torch.float32, generator=g) * 3
    return {"x": x[:, :N]}                              # a row stride padded to 16 elements, N columns


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    x = inputs["x"]
    y = torch.empty_like(x)
    softmax_kernel[(min(PROGRAMS, x.shape[0]),)](y, x, x.stride(0), y.stride(0), x.shape[0], x.shape[1],
                                                 BLOCK_SIZE=1024, num_stages=config.get("num_stages", 4),
                                                 num_warps=config.get("num_warps", 8))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    return torch.softmax(inputs["x"].double(), dim=-1)
