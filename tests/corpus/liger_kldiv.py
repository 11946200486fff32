"""Liger-Kernel's KL-divergence forward (`_kldiv_kernel_forward`): the reduction mode and `log_target` as
constexprs (module-level `tl.constexpr` globals for the reduction modes), a runtime `eps` clamp, a loop over the
row's column blocks that either stores the per-element loss (reduction "none") or sums it into a scalar stored
after the loop. BLOCK 16384 (MAX_FUSED_SIZE = 65536 // 4) and 16 warps, as Liger picks."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

_REDUCTION_MODE_NONE: tl.constexpr = tl.constexpr(0)
_REDUCTION_MODE_SUM: tl.constexpr = tl.constexpr(1)
_REDUCTION_MODE_MEAN: tl.constexpr = tl.constexpr(2)
_REDUCTION_MODE_BATCHMEAN: tl.constexpr = tl.constexpr(3)

_str_to_reduction_mode = {
    "none": _REDUCTION_MODE_NONE.value,
    "sum": _REDUCTION_MODE_SUM.value,
    "mean": _REDUCTION_MODE_MEAN.value,
    "batchmean": _REDUCTION_MODE_BATCHMEAN.value,
}

TWILL_SPEC = {"signature": {"y_ptr": "*fp32", "y_stride": "i32", "gt_ptr": "*fp32", "gt_stride": "i32",
                            "loss_ptr": "*fp32", "loss_stride": "i32", "n_cols": "i32", "eps": "fp32"},
              "constexprs": {"BLOCK_SIZE": 16384, "log_target": False, "reduction": 3},
              "num_warps": 16, "num_stages": 3,
              "divisibility": ["y_stride", "gt_stride", "n_cols"]}
PROBLEM: dict[str, int] = {"B": 4096, "V": 128256}
SMALL: dict[str, int] = {"B": 8, "V": 20000}
MAX_FUSED_SIZE = 65536 // 4
EPS = 1e-10


def get_num_warps(BLOCK_SIZE):
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return num_warps


@triton.jit
def _kldiv_kernel_forward(
    y_ptr,  # [B, S], prediction ptr, the kernel expects the prediction in log-space
    y_stride,  # int, prediction stride
    gt_ptr,  # [B, S], ground truth ptr
    gt_stride,  # int, ground truth stride
    loss_ptr,  # [B] or [B, S] if reduction == _REDUCTION_MODE_NONE, output ptr
    loss_stride,  # int, output stride
    n_cols,  # int, number of columns in the input tensor
    eps,
    BLOCK_SIZE: tl.constexpr,
    log_target: tl.constexpr = False,
    reduction: tl.constexpr = _REDUCTION_MODE_BATCHMEAN,
):
    pid = tl.program_id(0).to(tl.int64)
    y_ptr += pid * y_stride
    gt_ptr += pid * gt_stride
    loss_ptr += pid * loss_stride

    base_offsets = tl.arange(0, BLOCK_SIZE)

    loss_sum = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + base_offsets
        mask = offsets < n_cols
        y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
        y_true = tl.load(gt_ptr + offsets, mask=mask, other=0.0)

        # KL(y_true || y) = y_true * (log(y_true) - log(y))
        # We compute KL(y_true || y) with y in the log-space
        if not log_target:
            loss = y_true * (tl.log(tl.maximum(y_true, eps)) - y)
        else:
            loss = tl.exp(y_true) * (y_true - y)

        if reduction == _REDUCTION_MODE_NONE:
            tl.store(loss_ptr + offsets, loss, mask=mask)
        else:
            loss_sum += tl.sum(loss, axis=0)

    if reduction != _REDUCTION_MODE_NONE:
        tl.store(loss_ptr, loss_sum)


def make_inputs(B: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    y_pred = torch.log_softmax(torch.randn((B, V), device=device, generator=g), dim=-1)
    y_true = torch.softmax(torch.randn((B, V), device=device, generator=g), dim=-1)
    return {"y_pred": y_pred, "y_true": y_true}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(the batchmean loss,) as kldiv_forward_triton computes it: per-row sums, then summed and divided by B."""
    import torch
    y_pred, y_true = inputs["y_pred"], inputs["y_true"]
    BT, V = y_pred.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    num_warps = get_num_warps(BLOCK_SIZE)
    grid = (BT,)
    reduction = _str_to_reduction_mode["batchmean"]
    out_size = (BT, V) if reduction == _REDUCTION_MODE_NONE.value else (BT,)
    output_tensor = torch.zeros(out_size, device=y_pred.device, dtype=torch.float32)
    _kldiv_kernel_forward[grid](
        y_pred, y_pred.stride(0), y_true, y_true.stride(0), output_tensor, output_tensor.stride(0), V, EPS,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=config.get("num_warps", num_warps), log_target=False,
        reduction=reduction, num_stages=config.get("num_stages", 3))
    return (output_tensor.sum() / BT).reshape(1), output_tensor


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    y, t = inputs["y_pred"].double(), inputs["y_true"].double()
    per_row = (t * (t.clamp(min=EPS).log() - y)).sum(dim=1)
    return (per_row.sum() / y.shape[0]).reshape(1), per_row
