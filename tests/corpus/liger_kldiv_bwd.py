"""Liger-Kernel's KL-divergence backward (`_kldiv_kernel_backward`, liger_kernel/ops/kl_div.py) as
`kldiv_backward_triton` launches it: one program per row (`tl.program_id(0).to(tl.int64)` row offsets), a dead
`offsets`/`mask` pair computed before the loop (as Liger writes it), a loop over the row's column blocks that loads the
target and stores -target (`log_target` False) or -exp(target) (`log_target` True, the constexpr branch taken here),
BLOCK_SIZE = min(MAX_FUSED_SIZE 16384, next_power_of_2(V)) with `get_num_warps` (16 warps). The host's
`torch.equal(grad_output, 1.0)` shortcut (a device->host sync) is replaced by always multiplying by grad_output."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_kldiv_kernel_backward",
    "signature": {"target_ptr": "*fp32", "target_stride": "i32", "new_grads_ptr": "*fp32", "new_grads_stride": "i32",
                  "n_cols": "i32"},
    "constexprs": {"BLOCK_SIZE": 16384, "log_target": True},
    "num_warps": 16, "num_stages": 3,
    "divisibility": ["target_ptr", "new_grads_ptr", "target_stride", "new_grads_stride", "n_cols"]}
PROBLEM: dict[str, int] = {"B": 4096, "V": 128256}
SMALL: dict[str, int] = {"B": 6, "V": 20001}          # a partial second block
MAX_FUSED_SIZE = 65536 // 4


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
def _kldiv_kernel_backward(
    target_ptr,
    target_stride,
    new_grads_ptr,
    new_grads_stride,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
    log_target: tl.constexpr = False,
):
    pid = tl.program_id(0).to(tl.int64)

    target_ptr += pid * target_stride
    new_grads_ptr += pid * new_grads_stride

    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_cols

    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_cols

        target = tl.load(target_ptr + offsets, mask=mask, other=0.0)

        if not log_target:
            res = target * -1
        else:
            res = -tl.exp(target)

        tl.store(new_grads_ptr + offsets, res, mask=mask)


def make_inputs(B: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    y_true = torch.log_softmax(torch.randn((B, V), device=device, generator=g), dim=-1)   # log-space target
    grad_output = torch.rand((), device=device, generator=g) + 0.5
    return {"y_true": y_true, "grad_output": grad_output}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """d loss / d y_pred [B, V] fp32 for log_target=True: -exp(target) * grad_output (before the batchmean division
    that LigerKLDivLossFunction.backward applies)."""
    import torch
    target, grad_output = inputs["y_true"], inputs["grad_output"]
    log_target = True
    new_grads = torch.empty_like(target)
    BT, V = target.shape

    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    num_warps = get_num_warps(BLOCK_SIZE)

    grid = (BT,)

    # We store the gradients in-place in the input tensor
    _kldiv_kernel_backward[grid](
        target,
        target.stride(0),
        new_grads,
        new_grads.stride(0),
        V,
        BLOCK_SIZE=BLOCK_SIZE,
        num_warps=config.get("num_warps", num_warps),
        num_stages=config.get("num_stages", 3),
        log_target=log_target,
    )

    # Liger: `if torch.equal(grad_output, torch.tensor(1.0, ...)): return new_grads` (a host sync), skipped here
    return new_grads * grad_output


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    t = inputs["y_true"].double()
    return -torch.exp(t) * inputs["grad_output"].double()


def bytes_moved(B: int, V: int) -> float:
    return 2.0 * 4 * B * V
