"""Liger-Kernel's sparsemax backward (``_sparsemax_backward_kernel``), from linkedin/Liger-Kernel
``src/liger_kernel/ops/sparsemax.py``. One row per program and two sibling ``for i in range(0, tl.cdiv(n_cols,
block_size))`` loops: the first sums ``tl.where(supp, go, 0.0)`` and counts the support (``o > 0``) into 0-d
``tl.zeros((), dtype=tl.float32)`` carries with ``tl.sum``; between the loops v_hat = sum / ``tl.maximum(cnt,
1e-9)`` is rounded through the output dtype (``out_ty = o_row.dtype.element_ty``, ``tl.cast(..., out_ty)`` then
``.to(tl.float32)``); the second loop reloads o and go and stores ``tl.where(supp, go - v_hat, 0.0)`` cast to
``out_ty``. ``num_warps`` is also a ``tl.constexpr`` kernel parameter (as Liger declares it) and block_size /
num_warps come from Liger's ``calculate_settings`` (next power of two of n_cols; 16 warps at 8192). bf16 in and out."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"kernel": "_sparsemax_backward_kernel",
                              "signature": {"o_ptr": "*bf16", "o_stride": "i32", "go_ptr": "*bf16",
                                            "go_stride": "i32", "gi_ptr": "*bf16", "gi_stride": "i32",
                                            "n_cols": "i32"},
                              "constexprs": {"block_size": 8192, "num_warps": 16}, "num_warps": 16,
                              "num_stages": 3,
                              "divisibility": ["o_ptr", "go_ptr", "gi_ptr", "o_stride", "go_stride", "gi_stride",
                                               "n_cols"]}
PROBLEM: dict[str, int] = {"R": 8192, "N": 8192}
SMALL: dict[str, int] = {"R": 4, "N": 3000}
MAX_FUSED_SIZE = 65536


def calculate_settings(n):
    BLOCK_SIZE = triton.next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError(f"Cannot launch Triton kernel since n = {n} exceeds the recommended Triton blocksize "
                           f"= {MAX_FUSED_SIZE}.")
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


@triton.jit
def _sparsemax_backward_kernel(
    o_ptr, o_stride, go_ptr, go_stride, gi_ptr, gi_stride, n_cols, block_size: tl.constexpr, num_warps: tl.constexpr
):
    row = tl.program_id(0)
    o_row = o_ptr + row * o_stride
    go_row = go_ptr + row * go_stride
    gi_row = gi_ptr + row * gi_stride

    acc_sum = tl.zeros((), dtype=tl.float32)
    acc_cnt = tl.zeros((), dtype=tl.float32)
    out_ty = o_row.dtype.element_ty

    for i in range(0, tl.cdiv(n_cols, block_size)):
        offs = i * block_size + tl.arange(0, block_size)
        mask = offs < n_cols

        o_f32 = tl.load(o_row + offs, mask=mask, other=0.0).to(tl.float32)
        go_f32 = tl.load(go_row + offs, mask=mask, other=0.0).to(tl.float32)
        supp = o_f32 > 0.0

        acc_sum += tl.sum(tl.where(supp, go_f32, 0.0))
        acc_cnt += tl.sum(tl.where(supp, 1.0, 0.0))

    v_hat_fp32 = acc_sum / tl.maximum(acc_cnt, 1e-9)
    v_hat_q = tl.cast(v_hat_fp32, out_ty)
    v_hat = v_hat_q.to(tl.float32)

    for i in range(0, tl.cdiv(n_cols, block_size)):
        offs = i * block_size + tl.arange(0, block_size)
        mask = offs < n_cols

        o_f32 = tl.load(o_row + offs, mask=mask, other=0.0).to(tl.float32)
        go_f32 = tl.load(go_row + offs, mask=mask, other=0.0).to(tl.float32)
        supp = o_f32 > 0.0

        gi_f32 = tl.where(supp, go_f32 - v_hat, 0.0)
        tl.store(gi_row + offs, gi_f32.to(out_ty), mask=mask)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """The forward's output (sparsemax of a random row, as LigerSparsemaxFunction.forward computes tau) and a
    random upstream gradient, both bf16."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((R, N), device=device, generator=g) * 3
    x_sorted, _ = torch.sort(x, dim=-1, descending=True)
    csum = torch.cumsum(x_sorted, dim=-1)
    r = torch.arange(1, N + 1, device=device, dtype=torch.float32).view(1, -1)
    support = (1 + r * x_sorted) > csum
    k = support.sum(dim=-1, keepdim=True).clamp(min=1)
    tau = ((x_sorted * support).sum(dim=-1, keepdim=True) - 1) / k
    o = torch.clamp(x - tau, min=0).to(torch.bfloat16)
    go = torch.randn((R, N), device=device, generator=g).to(torch.bfloat16)
    return {"o": o, "go": go}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    out_flat, go_flat = inputs["o"], inputs["go"]
    n_rows, n_cols = go_flat.shape
    gi_flat = torch.empty_like(go_flat)
    block_size, num_warps = calculate_settings(n_cols)
    num_warps = config.get("num_warps", num_warps)
    _sparsemax_backward_kernel[(n_rows,)](out_flat, out_flat.stride(0), go_flat, go_flat.stride(0), gi_flat,
                                          gi_flat.stride(0), n_cols, block_size=config.get("block_size", block_size),
                                          num_warps=num_warps, num_stages=config.get("num_stages", 3))
    return gi_flat


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    o, go = inputs["o"].double(), inputs["go"].double()
    supp = o > 0
    v_hat = torch.where(supp, go, 0.0).sum(1, keepdim=True) / supp.sum(1, keepdim=True).clamp(min=1)
    v_hat = v_hat.to(torch.bfloat16).double()
    return torch.where(supp, go - v_hat, 0.0)


def flops(R: int, N: int) -> float:
    return 5.0 * R * N
