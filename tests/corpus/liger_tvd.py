"""Liger-Kernel's total variation distance loss ``_tv_distance_kernel`` (liger_kernel/ops/tvd.py, rewritten here): one
program a row of p, q [BT, V] fp32 probabilities. Two loops over the vocabulary in BLOCK_SIZE chunks: the first only
under ``if HAS_LABEL: if label == ignore_index:`` (an ignored row's gradient zeroed, then ``return``: a loop inside
a runtime if that leaves the kernel), the second the main one: ``0.5 * tl.abs(p - q)``, the gradient
``tl.where(p > q, 0.5, -0.5)`` stored every chunk, and (reduction batchmean) a scalar fp32 ``loss_sum`` carried
through the loop and stored once after it; with reduction none a per-element loss store instead (``if reduction
== _REDUCTION_MODE_NONE`` on module-level ``tl.constexpr`` globals, the default a constexpr parameter's default).
``tl.program_id(0).to(tl.int64)``, pointers advanced by ``+=`` before the loops, int64 labels; BLOCK_SIZE =
min(65536 // 4, next_power_of_2(V)) and num_warps from Liger's get_num_warps (16 for 16384)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536 // 4
IGNORE_INDEX = -100
_REDUCTION_MODE_NONE = tl.constexpr(0)
_REDUCTION_MODE_SUM = tl.constexpr(1)
_REDUCTION_MODE_MEAN = tl.constexpr(2)
_REDUCTION_MODE_BATCHMEAN = tl.constexpr(3)
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_tv_distance_kernel",
    "signature": {"p_ptr": "*fp32", "p_stride": "i32", "q_ptr": "*fp32", "q_stride": "i32", "loss_ptr": "*fp32",
                  "loss_stride": "i32", "grads_ptr": "*fp32", "grads_stride": "i32", "label_ptr": "*i64",
                  "n_cols": "i32"},
    "constexprs": {"ignore_index": IGNORE_INDEX, "BLOCK_SIZE": MAX_FUSED_SIZE, "HAS_LABEL": True, "reduction": 3},
    "num_warps": 16, "num_stages": 3,
    "divisibility": ["p_ptr", "p_stride", "q_ptr", "q_stride", "loss_ptr", "grads_ptr", "grads_stride",
                     "label_ptr"]}
PROBLEM: dict[str, int] = {"BT": 4096, "V": 128256}
SMALL: dict[str, int] = {"BT": 6, "V": 20000}     # BLOCK_SIZE as PROBLEM's (16384): two chunks, the second partial


@triton.jit
def _tv_distance_kernel(p_ptr, p_stride, q_ptr, q_stride, loss_ptr, loss_stride, grads_ptr, grads_stride, label_ptr,
                        ignore_index: tl.constexpr, n_cols, BLOCK_SIZE: tl.constexpr, HAS_LABEL: tl.constexpr,
                        reduction: tl.constexpr = _REDUCTION_MODE_BATCHMEAN):
    # twill corpus rendition: one row's TVD, its gradient stored chunk by chunk
    pid = tl.program_id(0).to(tl.int64)
    p_ptr += pid * p_stride
    q_ptr += pid * q_stride
    loss_ptr += pid * loss_stride
    grads_ptr += pid * grads_stride
    label_ptr += pid
    base_offsets = tl.arange(0, BLOCK_SIZE)
    if HAS_LABEL:
        label = tl.load(label_ptr)
        if label == ignore_index:                  # an ignored row: no loss, a zero gradient
            for i in range(0, n_cols, BLOCK_SIZE):
                offsets = i + base_offsets
                mask = offsets < n_cols
                tl.store(grads_ptr + offsets, 0.0, mask=mask)
                if reduction == _REDUCTION_MODE_NONE:
                    tl.store(loss_ptr + offsets, 0.0, mask=mask)
            return
    loss_sum = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + base_offsets
        mask = offsets < n_cols
        p = tl.load(p_ptr + offsets, mask=mask, other=0.0)
        q = tl.load(q_ptr + offsets, mask=mask, other=0.0)
        tv_loss = 0.5 * tl.abs(p - q)              # TVD(P || Q) = 0.5 |P - Q|
        grad_res = tl.where(p > q, 0.5, -0.5)
        tl.store(grads_ptr + offsets, grad_res, mask=mask)
        if reduction == _REDUCTION_MODE_NONE:
            tl.store(loss_ptr + offsets, tv_loss, mask=mask)
        else:
            loss_sum += tl.sum(tv_loss, axis=0)
    if reduction != _REDUCTION_MODE_NONE:
        tl.store(loss_ptr, loss_sum)


def make_inputs(BT: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """p, q [BT, V]: softmax of random logits; shift labels [BT] int64 with every third row ignored."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    p = torch.softmax(torch.randn((BT, V), device=device, generator=g), dim=-1)
    q = torch.softmax(torch.randn((BT, V), device=device, generator=g), dim=-1)
    labels = torch.randint(0, V, (BT,), device=device, generator=g)
    labels[::3] = IGNORE_INDEX
    return {"p": p, "q": q, "labels": labels}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[loss, grads (BT, V) flattened] as Liger's tv_distance_forward_triton(p, q, labels, "batchmean", -100, True)
    returns them: the row losses summed and both divided by the rows not ignored."""
    import torch
    p, q, labels = inputs["p"], inputs["q"], inputs["labels"]
    BT, V = p.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    loss = torch.zeros((BT,), device=p.device, dtype=torch.float32)
    grads = torch.empty_like(p)
    _tv_distance_kernel[(BT,)](p, p.stride(0), q, q.stride(0), loss, loss.stride(0), grads, grads.stride(0), labels,
                               IGNORE_INDEX, V, BLOCK_SIZE=BLOCK_SIZE, HAS_LABEL=True,
                               num_warps=config.get("num_warps", 16), num_stages=config.get("num_stages", 3),
                               reduction=_REDUCTION_MODE_BATCHMEAN.value)
    n = (labels != IGNORE_INDEX).sum()
    return torch.cat([(loss.sum() / n).view(1), (grads / n).flatten()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    p, q, labels = inputs["p"].double(), inputs["q"].double(), inputs["labels"]
    keep = (labels != IGNORE_INDEX)[:, None]
    n = keep.sum()
    loss = (0.5 * (p - q).abs() * keep).sum() / n
    grads = torch.where(p > q, 0.5, -0.5) * keep / n
    return torch.cat([loss.view(1), grads.flatten()])
