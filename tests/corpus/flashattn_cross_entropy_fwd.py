"""Tri Dao's cross-entropy forward with label smoothing and z-loss, ``cross_entropy_fwd_kernel``
(Dao-AILab/flash-attention flash_attn/ops/triton/cross_entropy.py, launched by ``CrossEntropyLoss.forward``):
one program per row of logits, an online log-sum-exp over the vocabulary, then the loss of the row's label.

The constructs: ``@triton.heuristics`` setting HAS_SMOOTHING from the runtime float ``smoothing``; the row pointer
advanced by ``row_idx * logits_row_stride.to(tl.int64)``; ``sum_logits = 0.0`` before a **constexpr-if ``if not
PRECOMPUTED_LSE:`` that holds the loop** (its else loads a precomputed lse); the loop ``for col_offset in range(0,
n_cols, BLOCK_SIZE)`` (runtime vocabulary, masked tail with ``other=-inf``) with **three scalar carries**: the
running max ``m_i``, the rescaled sum ``l_i = tl.exp(m_i - m_i_new) * l_i + tl.sum(...)`` and, under the
constexpr ``if HAS_SMOOTHING:`` inside the loop, ``sum_logits += tl.sum(tl.where(cols < n_cols, logits, 0.0))``
(a carry defined only in one constexpr arm, its initial value outside the if); the bf16 logits upcast and scaled
by a runtime ``logit_scale``; after the loop ``lse = tl.log(l_i) + m_i`` stored; then **nested runtime scalar
ifs**: ``if label_idx == ignore_index:`` (zero loss) else the label shifted by ``class_start_idx`` and ``if
label_idx >= 0 and label_idx < n_cols:`` (an ``and`` of two scalar compares) choosing a scalar load of the label's
logit, the smoothing formula with ``(lse if not SPLIT else 0.0)`` constexpr conditional expressions, the z-loss
``lse_square_scale * lse * lse`` under ``if not SPLIT``; two scalar stores after the ifs. Specialisation: one
rank (SPLIT False), no precomputed lse, smoothing 0.1, z-loss 1e-4, logit_scale 1; Llama 3's 128,256-token
vocabulary in bf16, BLOCK_SIZE 16384 and 16 warps as the wrapper chooses (``min(next_power_of_2(n_cols), 16K)``;
16 warps for 8K <= BLOCK_SIZE < 128K). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

IGNORE = -100
SMOOTHING, LOGIT_SCALE, LSE_SQUARE_SCALE = 0.1, 1.0, 1e-4
TWILL_SPEC: dict[str, Any] = {
    "kernel": "cross_entropy_fwd_kernel",
    "signature": {"loss_ptr": "*fp32", "lse_ptr": "*fp32", "z_loss_ptr": "*fp32", "logits_ptr": "*bf16",
                  "labels_ptr": "*i64", "smoothing": "fp32", "logit_scale": "fp32", "lse_square_scale": "fp32",
                  "ignore_index": "i32", "total_classes": "i32", "class_start_idx": "i32", "n_cols": "i32",
                  "logits_row_stride": "i32"},
    "constexprs": {"BLOCK_SIZE": 16384, "HAS_SMOOTHING": True, "SPLIT": False, "PRECOMPUTED_LSE": False},
    "num_warps": 16, "num_stages": 3,
    # class_start_idx is 0 on one rank (Triton would specialise it as an i32 equal to 0, not as a constexpr)
    "divisibility": ["loss_ptr", "lse_ptr", "z_loss_ptr", "logits_ptr", "labels_ptr", "total_classes", "n_cols",
                     "logits_row_stride"]}
PROBLEM: dict[str, int] = {"R": 8192, "V": 128256}
SMALL: dict[str, int] = {"R": 9, "V": 40000}     # 3 blocks of 16384, a partial last one; some rows ignored


@triton.heuristics(
    {
        "HAS_SMOOTHING": lambda args: args["smoothing"] > 0.0,
    }
)
@triton.jit
def cross_entropy_fwd_kernel(
    loss_ptr,  # data ptrs
    lse_ptr,
    z_loss_ptr,
    logits_ptr,
    labels_ptr,
    smoothing,
    logit_scale,
    lse_square_scale,
    ignore_index,
    total_classes,
    class_start_idx,  # Useful for tensor parallel when each rank only has a subset of classes
    n_cols,  # shapes
    logits_row_stride,  # strides
    BLOCK_SIZE: tl.constexpr,
    HAS_SMOOTHING: tl.constexpr,
    # if SPLIT (e.g. tensor parallel), don't include the LSE in the loss since it's not the final LSE
    SPLIT: tl.constexpr,
    PRECOMPUTED_LSE: tl.constexpr,  # If LSE is already computed (also no smoothing and logit_scale == 1.0)
):
    row_idx = tl.program_id(0)
    logits_ptr = logits_ptr + row_idx * logits_row_stride.to(tl.int64)
    sum_logits = 0.0  # For smoothing
    if not PRECOMPUTED_LSE:
        # Statistics for online softmax
        m_i = -float("inf")
        l_i = 0.0
        for col_offset in range(0, n_cols, BLOCK_SIZE):
            cols = col_offset + tl.arange(0, BLOCK_SIZE)
            logits = tl.load(logits_ptr + cols, mask=cols < n_cols, other=-float("inf")).to(
                tl.float32
            ) * logit_scale
            if HAS_SMOOTHING:
                sum_logits += tl.sum(tl.where(cols < n_cols, logits, 0.0))
            m_i_new = tl.maximum(m_i, tl.max(logits))
            l_i = tl.exp(m_i - m_i_new) * l_i + tl.sum(tl.exp(logits - m_i_new))
            m_i = m_i_new
        lse = tl.log(l_i) + m_i
        tl.store(lse_ptr + row_idx, lse)
    else:
        lse = tl.load(lse_ptr + row_idx)
    label_idx = tl.load(labels_ptr + row_idx)
    if label_idx == ignore_index:
        loss = 0.0
        z_loss = 0.0
    else:
        label_idx -= class_start_idx
        if label_idx >= 0 and label_idx < n_cols:
            logits_label = tl.load(logits_ptr + label_idx) * logit_scale
            if HAS_SMOOTHING:
                loss = (
                    (lse if not SPLIT else 0.0)
                    - smoothing * sum_logits / total_classes
                    - (1 - smoothing) * logits_label
                )
            else:
                loss = (lse if not SPLIT else 0.0) - logits_label
        else:
            # If label is out of bounds, we set the CE loss to 0.0. But we still want the smoothing loss
            if HAS_SMOOTHING:
                loss = smoothing * ((lse if not SPLIT else 0.0) - sum_logits / total_classes)
            else:
                loss = 0.0
        if not SPLIT:
            z_loss = lse_square_scale * lse * lse
            loss += z_loss
        else:
            z_loss = 0.0
    tl.store(loss_ptr + row_idx, loss)
    if not SPLIT:
        tl.store(z_loss_ptr + row_idx, z_loss)


def make_inputs(R: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """logits [R, V] bf16 (randn * 4); labels [R] int64, about one in six ignore_index (-100), row 0 ignored."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    logits = (torch.randn((R, V), device=device, generator=g) * 4.0).bfloat16()
    labels = torch.randint(0, V, (R,), device=device, generator=g)
    labels = torch.where(torch.rand((R,), device=device, generator=g) < 0.17, torch.full_like(labels, IGNORE),
                         labels)
    labels[0] = IGNORE
    return {"logits": logits, "labels": labels.contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(losses, z_losses, lse) fp32 [R], as ``CrossEntropyLoss.forward`` launches the kernel on one rank."""
    import torch
    logits, labels = inputs["logits"], inputs["labels"]
    n_rows, n_cols = logits.shape
    total_classes, class_start_idx = n_cols, 0
    BLOCK_SIZE = min(triton.next_power_of_2(n_cols), 16 * 1024)
    num_warps = 4 if BLOCK_SIZE < 2048 else (8 if BLOCK_SIZE < 8192 else (16 if BLOCK_SIZE < 128 * 1024 else 32))
    losses = torch.empty(n_rows, dtype=torch.float, device=logits.device)
    lse = torch.empty(n_rows, dtype=torch.float, device=logits.device)
    z_losses = torch.empty(n_rows, dtype=torch.float, device=logits.device)
    cross_entropy_fwd_kernel[(n_rows,)](
        losses, lse, z_losses, logits, labels, SMOOTHING, LOGIT_SCALE, LSE_SQUARE_SCALE, IGNORE, total_classes,
        class_start_idx, n_cols, logits.stride(0), BLOCK_SIZE=BLOCK_SIZE, SPLIT=False, PRECOMPUTED_LSE=False,
        num_warps=config.get("num_warps", num_warps), num_stages=config.get("num_stages", 3))
    return losses, z_losses, lse


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["logits"].double() * LOGIT_SCALE
    labels = inputs["labels"]
    V = x.shape[1]
    lse = torch.logsumexp(x, dim=-1)
    ignored = labels == IGNORE
    lab = torch.where(ignored, torch.zeros_like(labels), labels)
    x_label = x.gather(1, lab[:, None])[:, 0]
    loss = lse - SMOOTHING * x.sum(-1) / V - (1 - SMOOTHING) * x_label
    z = LSE_SQUARE_SCALE * lse * lse
    loss = torch.where(ignored, torch.zeros_like(loss), loss + z)
    z = torch.where(ignored, torch.zeros_like(z), z)
    return loss.float(), z.float(), lse.float()


def flops(R: int, V: int) -> float:
    """An exp, a max, two sums and a scale an element: about 5 * R * V (memory-bound)."""
    return 5.0 * R * V
