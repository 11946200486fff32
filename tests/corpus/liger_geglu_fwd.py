"""Liger-Kernel's GEGLU forward (`_geglu_tanh_forward_kernel`, liger_kernel/ops/geglu.py) as `geglu_forward` launches
it, with the row walked in column blocks when n_cols is large (Liger's kernel takes the whole row as one block;
here BLOCK_SIZE is capped at 4096 as Liger's loss kernels cap theirs at MAX_FUSED_SIZE): `n_cols: tl.constexpr`
(so the loop's trip count is a compile-time constant, 3.5 blocks here: a partial last block), the row's pointers
moved once by `tl.program_id(0).to(tl.int64) * stride`, a fp32 upcast of `a`, the tanh approximation of GELU through
`tanh` imported from `triton.language.extra.libdevice` (Liger's import, with its NGC fallback; the CPU interpreter of Triton 3.6 cannot run libdevice calls, so the interpreter check swaps in `2 * sigmoid(2x) - 1`), `.cast(b_row.dtype)`,
`calculate_settings` picking num_warps. fp16 [rows, 14336] (Llama-3-8B intermediate size)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

try:
    # typical import path with dispatch available
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    # for working with NGC containers
    from triton.language.extra.cuda.libdevice import tanh

MAX_FUSED_SIZE = 4096
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_geglu_tanh_forward_kernel",
    "signature": {"a": "*fp16", "b": "*fp16", "c": "*fp16", "stride": "i32", "n_cols": "constexpr"},
    "constexprs": {"n_cols": 14336, "BLOCK_SIZE": 4096},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["a", "b", "c", "stride"]}
PROBLEM: dict[str, int] = {"rows": 8192, "n_cols": 14336}
SMALL: dict[str, int] = {"rows": 5, "n_cols": 14336}         # n_cols is a constexpr


def calculate_settings(n):
    # reference: https://github.com/unslothai/unsloth/blob/fd753fed99ed5f10ef8a9b7139588d9de9ddecfb/unsloth/kernels/utils.py#L43
    MAX_FUSED_SIZE = 65536
    BLOCK_SIZE = triton.next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError(
            f"Cannot launch Triton kernel since n = {n} exceeds "
            f"the recommended Triton blocksize = {MAX_FUSED_SIZE}."
        )

    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


@triton.jit
def _geglu_tanh_forward_kernel(a, b, c, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)

    # locate start index
    a += program_id * stride
    b += program_id * stride
    c += program_id * stride

    for col_start in range(0, n_cols, BLOCK_SIZE):
        col_offsets = col_start + tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        a_row = tl.load(a + col_offsets, mask=mask, other=0).to(tl.float32)
        b_row = tl.load(b + col_offsets, mask=mask, other=0)

        # tanh approximation form of GELU is computed with:
        # 0.5 * a * (1 + tanh(sqrt(2 / pi) * (a + 0.044715 * a^3)))
        sqrt_2_over_pi = 0.7978845608028654  # sqrt(2 / pi)
        a_cubed = a_row * a_row * a_row
        tanh_arg = sqrt_2_over_pi * (a_row + 0.044715 * a_cubed)
        tanh_result = tanh(tanh_arg)
        geglu_a = 0.5 * a_row * (1 + tanh_result)
        c_row = geglu_a.cast(b_row.dtype) * b_row
        tl.store(c + col_offsets, c_row, mask=mask)


def make_inputs(rows: int, n_cols: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((rows, n_cols), device=device, generator=g).half(),
            "b": torch.randn((rows, n_cols), device=device, generator=g).half()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """geglu_forward(a, b): c = gelu_tanh(a) * b, fp16 [rows, n_cols]."""
    import torch
    a, b = inputs["a"], inputs["b"]
    ori_shape = a.shape

    n_cols = ori_shape[-1]
    a = a.view(-1, n_cols)
    b = b.view(-1, n_cols)
    c = torch.empty_like(a)
    n_rows = a.shape[0]

    BLOCK_SIZE, num_warps = calculate_settings(min(n_cols, MAX_FUSED_SIZE))

    _geglu_tanh_forward_kernel[(n_rows,)](
        a,
        b,
        c,
        c.stride(-2),
        n_cols=n_cols,
        BLOCK_SIZE=BLOCK_SIZE,
        num_warps=config.get("num_warps", num_warps),
        num_stages=config.get("num_stages", 3),
    )
    return c.view(*ori_shape)


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, b = inputs["a"].float(), inputs["b"].float()
    return torch.nn.functional.gelu(a, approximate="tanh") * b


def bytes_moved(rows: int, n_cols: int) -> float:
    return 3.0 * 2 * rows * n_cols
