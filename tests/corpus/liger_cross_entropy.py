"""Cross entropy with label smoothing and the gradient written over the logits, as Liger-Kernel writes it: 32 warps
on one 32768-wide block of the row (more warps than a CTA may specialise), bf16 logits, a `reduction` string and a
float `label_smoothing` as constexprs, `tl.debug_barrier()` between the gradient loop's stores and the re-read of
the label's logit, early return for an ignored row."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"X_ptr": "*bf16", "X_stride": "i64", "Y_ptr": "*i64", "Y_stride": "i64",
                            "loss_ptr": "*fp32", "loss_stride": "i64", "n_cols": "i32", "n_non_ignore": "i32",
                            "ignore_index": "i32"},
              "constexprs": {"label_smoothing": 0.1, "reduction": "mean", "BLOCK_SIZE": 32768}, "num_warps": 32,
              "num_stages": 3, "divisibility": ["X_stride", "n_cols"]}     # as a launch at PROBLEM specialises it
PROBLEM: dict[str, int] = {"R": 4096, "V": 128256}      # Llama 3's vocabulary
SMALL: dict[str, int] = {"R": 20, "V": 40000}           # a partial last block; some rows ignored
IGNORE = -100
SMOOTHING = 0.1
MAX_FUSED_SIZE = 65536 // 2


@triton.jit
def liger_cross_entropy_kernel(X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, loss_stride, n_cols, n_non_ignore,
                               ignore_index, label_smoothing: tl.constexpr, reduction: tl.constexpr,
                               BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)
    Y_ptr += program_id * Y_stride
    y = tl.load(Y_ptr)
    X_ptr += program_id * X_stride
    if y == ignore_index:
        for i in range(0, n_cols, BLOCK_SIZE):
            X_offsets = i + tl.arange(0, BLOCK_SIZE)
            tl.store(X_ptr + X_offsets, 0.0, mask=X_offsets < n_cols)
        return
    loss_ptr += program_id * loss_stride
    m = float("-inf")
    d = 0.0
    ori_X_y = tl.load(X_ptr + y).cast(tl.float32)
    scaled_x_sum = 0.0
    eps = label_smoothing / n_cols
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).cast(tl.float32)
        block_max = tl.max(X_block)
        if label_smoothing > 0:
            scaled_x_sum += tl.sum(tl.where(X_offsets < n_cols, -eps * X_block, 0.0))
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new))
        m = m_new
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).cast(tl.float32)
        if reduction == "mean":
            X_block = (tl.exp(X_block - m) / d - eps) / n_non_ignore
        else:
            X_block = tl.exp(X_block - m) / d - eps
        tl.store(X_ptr + X_offsets, X_block, mask=X_offsets < n_cols)
    tl.debug_barrier()
    loss = -(ori_X_y - m - tl.log(d))
    if label_smoothing > 0:
        smooth_loss = scaled_x_sum + label_smoothing * (m + tl.log(d))
        loss = loss * (1 - label_smoothing) + smooth_loss
    if reduction == "mean":
        loss = loss / n_non_ignore
    X_y = tl.load(X_ptr + y).cast(tl.float32)
    if reduction == "mean":
        X_y += -(1 - label_smoothing) / n_non_ignore
    else:
        X_y += -(1 - label_smoothing)
    tl.store(loss_ptr, loss)
    tl.store(X_ptr + y, X_y)


def make_inputs(R: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((R, V), device=device, dtype=torch.float32, generator=g) * 2).to(torch.bfloat16)
    y = torch.randint(0, V, (R,), device=device, generator=g)
    y[torch.rand((R,), device=device, generator=g) < 0.2] = IGNORE      # a fifth of the rows ignored
    # the rows not ignored, counted on the host as Liger's forward does (before the launch: CUDA graphs capture it)
    return {"x": x, "y": y, "n_non_ignore": int((y != IGNORE).sum().item())}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(loss per row, the logits' gradient), as Liger's forward computes them: the gradient over a copy of the
    logits, both scaled by the rows not ignored (reduction "mean")."""
    import torch
    x, y = inputs["x"].clone(), inputs["y"]
    R, V = x.shape
    loss = torch.zeros((R,), device=x.device, dtype=torch.float32)
    n_non_ignore = inputs["n_non_ignore"]
    block = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    liger_cross_entropy_kernel[(R,)](x, x.stride(0), y, y.stride(-1), loss, loss.stride(-1), V, n_non_ignore, IGNORE,
                                     label_smoothing=SMOOTHING, reduction="mean", BLOCK_SIZE=block,
                                     num_warps=config.get("num_warps", 32), num_stages=config.get("num_stages", 3))
    return loss, x


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, y = inputs["x"].double(), inputs["y"]
    R, V = x.shape
    keep = y != IGNORE
    n = keep.sum().double()
    logp = torch.log_softmax(x, dim=1)
    yc = y.clamp(min=0)
    nll = -logp.gather(1, yc[:, None])[:, 0]
    smooth = -logp.sum(dim=1) * (SMOOTHING / V)
    loss = ((1 - SMOOTHING) * nll + smooth) / n
    grad = torch.softmax(x, dim=1) - SMOOTHING / V
    grad[torch.arange(R, device=x.device), yc] -= 1 - SMOOTHING
    grad = grad / n
    return torch.where(keep, loss, 0.0), torch.where(keep[:, None], grad, 0.0).to(torch.bfloat16)
