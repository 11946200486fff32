"""TritonBench's jagged softmax (pytorch-labs/tritonbench, operators/jagged_softmax/kernels.py
``triton_jagged_softmax_kernel_variable_length_loop_buffer_then_sum``, the softmax over the jagged dimension of a
nested tensor [B, *, M] as recommendation models' jagged ops compute it; rewritten here): values [sum_b L_b, M] fp32
with the nested tensor's int64 offsets [B + 1]; each sequence's column softmax taken over its own rows.

The constructs, as the benchmark writes them: one program per (batch, BLOCK_SIZE_M columns), its id split with
``tl.cdiv(M, BLOCK_SIZE_M)``; the sequence's ``ragged_start`` / ``ragged_end`` loaded as a tuple; THREE loops
``for block_start_ragged in range(ragged_start, ragged_end, BLOCK_SIZE_RAGGED)`` whose lower AND upper bounds are
loaded int64 values (no iteration for an empty sequence); a [BLOCK_SIZE_RAGGED, BLOCK_SIZE_M] buffer of running maxima
(``tl.full(..., float("-inf"))``, ``tl.maximum``) reduced after the first loop with ``tl.max(..., axis=0,
keep_dims=True)``; a buffer of exponentials summed with ``tl.sum(buffer, axis=0)`` after the second; the third stores
``tl.fdiv(tl.exp(x - max), sum)``; every load masked by ragged rows and columns with ``other=float("-inf")``; the
row offset ``offsets_ragged[:, None] * M`` (M runtime, the row stride). ``@triton.autotune`` over BLOCK_SIZE_RAGGED
in {8, 128, 2048}, BLOCK_SIZE_M in {8, 64}, 4 / 8 warps, 2 / 4 stages keyed on M; TWILL_SPEC gives the config the
autotuner picks for M = 512 (128 x 64, 4 warps, 2 stages). The output is ``torch.zeros_like`` the values.
Nothing here is imported by twill."""
from __future__ import annotations

import itertools
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "triton_jagged_softmax_kernel_variable_length_loop_buffer_then_sum",
    "signature": {"input_ptr_values": "*fp32", "input_ptr_offsets": "*i64", "output_ptr": "*fp32", "M": "i32"},
    "constexprs": {"BLOCK_SIZE_RAGGED": 128, "BLOCK_SIZE_M": 64},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["M"]}
PROBLEM: dict[str, int] = {"B": 1024, "max_seqlen": 512, "M": 512}
SMALL: dict[str, int] = {"B": 6, "max_seqlen": 300, "M": 80}

BLOCK_SIZES_RAGGED = [2**n for n in range(3, 12, 4)]
BLOCK_SIZES_M = [2**n for n in range(3, 7, 3)]
NUM_WARPS = [4, 8]
NUM_STAGES = [2, 4]


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE_RAGGED": b_r, "BLOCK_SIZE_M": b_m}, num_warps=w, num_stages=s)
        for b_r, b_m, w, s in itertools.product(BLOCK_SIZES_RAGGED, BLOCK_SIZES_M, NUM_WARPS, NUM_STAGES)
    ],
    key=["M"],
)
@triton.jit
def triton_jagged_softmax_kernel_variable_length_loop_buffer_then_sum(
    input_ptr_values,
    input_ptr_offsets,
    output_ptr,
    M,
    BLOCK_SIZE_RAGGED: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    pid_b = pid // tl.cdiv(M, BLOCK_SIZE_M)
    pid_m = pid % tl.cdiv(M, BLOCK_SIZE_M)

    buffer = tl.zeros((BLOCK_SIZE_RAGGED, BLOCK_SIZE_M), dtype=tl.float32)

    block_start_m = pid_m * BLOCK_SIZE_M
    offsets_m = block_start_m + tl.arange(0, BLOCK_SIZE_M)
    mask_m = offsets_m < M

    ragged_start, ragged_end = (
        tl.load(input_ptr_offsets + pid_b),
        tl.load(input_ptr_offsets + (pid_b + 1)),
    )

    buffer_max_all = tl.full((BLOCK_SIZE_RAGGED, BLOCK_SIZE_M), value=float("-inf"), dtype=tl.float32)

    # pass 1: the columns' maxima over the sequence's rows
    for block_start_ragged in range(ragged_start, ragged_end, BLOCK_SIZE_RAGGED):
        offsets_ragged = block_start_ragged + tl.arange(0, BLOCK_SIZE_RAGGED)
        mask_ragged = offsets_ragged < ragged_end
        idxs = (offsets_ragged[:, None] * M) + offsets_m
        mask = mask_ragged[:, None] & mask_m
        input = tl.load(input_ptr_values + idxs, mask=mask, other=float("-inf"))
        buffer_max_all = tl.maximum(buffer_max_all, input)

    buffer_max = tl.max(buffer_max_all, axis=0, keep_dims=True)

    # pass 2: the sums of exponentials
    for block_start_ragged in range(ragged_start, ragged_end, BLOCK_SIZE_RAGGED):
        offsets_ragged = block_start_ragged + tl.arange(0, BLOCK_SIZE_RAGGED)
        mask_ragged = offsets_ragged < ragged_end
        idxs = (offsets_ragged[:, None] * M) + offsets_m
        mask = mask_ragged[:, None] & mask_m
        input = tl.load(input_ptr_values + idxs, mask=mask, other=float("-inf"))
        buffer += tl.exp(input - buffer_max)

    buffer_exp_sum = tl.sum(buffer, axis=0)

    # pass 3: normalise and store
    for block_start_ragged in range(ragged_start, ragged_end, BLOCK_SIZE_RAGGED):
        offsets_ragged = block_start_ragged + tl.arange(0, BLOCK_SIZE_RAGGED)
        mask_ragged = offsets_ragged < ragged_end
        idxs = (offsets_ragged[:, None] * M) + offsets_m
        mask = mask_ragged[:, None] & mask_m
        input = tl.load(input_ptr_values + idxs, mask=mask, other=float("-inf"))
        output = tl.fdiv(tl.exp(input - buffer_max), buffer_exp_sum)
        tl.store(output_ptr + idxs, output, mask=mask)


def make_inputs(B: int, max_seqlen: int, M: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A nested tensor's values [sum L, M] fp32 and int64 offsets; lengths in [0, max_seqlen], sequence 2 empty."""
    import torch
    gen = torch.Generator(device="cpu").manual_seed(seed)
    lengths = torch.randint(1, max_seqlen + 1, (B,), generator=gen)
    lengths[min(2, B - 1)] = 0
    offsets = torch.zeros(B + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lengths, 0)
    values = torch.randn((int(offsets[-1]), M), generator=gen) * 3
    return {"values": values.to(device), "offsets": offsets.to(device), "M": M}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """TritonBench's ``execute_kernel_variable_length_loop`` (config ignored: autotuned)."""
    import torch
    values, offsets, M = inputs["values"], inputs["offsets"], inputs["M"]
    B = offsets.numel() - 1
    grid = lambda meta: (B * triton.cdiv(M, meta["BLOCK_SIZE_M"]),)  # noqa: E731
    kernel_output = torch.zeros_like(values, device=values.device)
    triton_jagged_softmax_kernel_variable_length_loop_buffer_then_sum[grid](values, offsets, kernel_output, M=M)
    return kernel_output


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    values, offsets = inputs["values"].double(), inputs["offsets"].tolist()
    out = torch.zeros_like(values)
    for b in range(len(offsets) - 1):
        lo, hi = offsets[b], offsets[b + 1]
        if hi > lo:
            out[lo:hi] = torch.softmax(values[lo:hi], dim=0)
    return out
