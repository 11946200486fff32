"""Cross entropy's forward as torch.compile (Inductor, dynamic vocabulary) renders ``F.cross_entropy(x.float(), y,
reduction="none")`` for long rows, in its current ``r0_`` naming (``r0_offset`` / ``r0_base`` / ``r0_mask`` /
``R0_BLOCK``, ``rnumel = r0_numel`` and ``RBLOCK: tl.constexpr = R0_BLOCK`` aliases): two sequential reduction loops
over the row's bf16 logits (the max by ``triton_helpers.maximum`` into a ``tl.full(-inf)`` accumulator kept by
``tl.where(r0_mask & xmask, ...)`` and ``triton_helpers.max2``; then the sum of ``tl_math.exp(x - max)``), the max and
the log-sum-exp stored for the backward (the second in place through ``in_out_ptr0`` after ``tl.debug_barrier()``),
then the target's logit gathered after the loops: the i64 label loaded, ``ignore_index`` (-100) replaced by 0,
negative labels wrapped by ``+ ks0``, Inductor's indirect-indexing check ``tl.device_assert(... | ~(xmask), "index
out of bounds: ...")``, and a scalar load at ``tmp + ks0 * x0``; the loss is masked to 0 for ignored rows. Inductor
decorates it with ``@triton_heuristics.reduction``; here it is the plain JIT function. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import math as tl_math


@triton.jit
def triton_red_fused__log_softmax_nll_loss_forward_0(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, out_ptr1, ks0, xnumel,
                                                      r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp3 = tl.full([XBLOCK, R0_BLOCK], float("-inf"), tl.float32)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = triton_helpers.maximum(_tmp3, tmp2)
        _tmp3 = tl.where(r0_mask & xmask, tmp4, _tmp3)
    tmp3 = triton_helpers.max2(_tmp3, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp3, xmask)
    _tmp10 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp5 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp6 = tmp5.to(tl.float32)
        tmp7 = tmp6 - tmp3
        tmp8 = tl_math.exp(tmp7)
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, R0_BLOCK])
        tmp11 = _tmp10 + tmp9
        _tmp10 = tl.where(r0_mask & xmask, tmp11, _tmp10)
    tmp10 = tl.sum(_tmp10, 1)[:, None]
    tmp12 = tl_math.log(tmp10)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp12, xmask)
    tmp13 = tl.load(in_ptr1 + (x0), xmask, eviction_policy='evict_last')
    tmp14 = tl.full([1, 1], -100, tl.int64)
    tmp15 = tmp13 != tmp14
    tmp16 = tl.full([1, 1], 0, tl.int64)
    tmp17 = tl.where(tmp15, tmp13, tmp16)
    tmp18 = ks0
    tmp19 = tmp17 + tmp18
    tmp20 = tmp17 < 0
    tmp21 = tl.where(tmp20, tmp19, tmp17)
    tl.device_assert(((0 <= tmp21) & (tmp21 < ks0)) | ~(xmask), "index out of bounds: 0 <= tmp21 < ks0")
    tmp23 = tl.load(in_ptr0 + (tmp21 + ks0*x0), xmask, eviction_policy='evict_last').to(tl.float32)
    tmp24 = tmp23 - tmp3
    tmp25 = tmp24 - tmp12
    tmp26 = -tmp25
    tmp27 = 0.0
    tmp28 = tl.where(tmp15, tmp26, tmp27)
    tl.store(out_ptr1 + (x0), tmp28, xmask)


TWILL_SPEC: dict[str, Any] = {
    "kernel": "triton_red_fused__log_softmax_nll_loss_forward_0",
    "signature": {"in_out_ptr0": "*fp32", "in_ptr0": "*bf16", "in_ptr1": "*i64", "out_ptr0": "*fp32",
                  "out_ptr1": "*fp32", "ks0": "i32", "xnumel": "i32", "r0_numel": "i32"},
    "constexprs": {"XBLOCK": 1, "R0_BLOCK": 2048}, "num_warps": 16, "num_stages": 1,
    "divisibility": ["in_out_ptr0", "in_ptr0", "in_ptr1", "out_ptr0", "out_ptr1"]}
PROBLEM: dict[str, int] = {"R": 8192, "V": 128256}    # Llama 3's vocabulary
SMALL: dict[str, int] = {"R": 9, "V": 5003}           # a masked last block; some rows ignored, one label negative


def make_inputs(R: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((R, V), device=device, generator=g) * 3).to(torch.bfloat16)
    y = torch.randint(0, V, (R,), device=device, generator=g)
    y[torch.rand((R,), device=device, generator=g) < 0.25] = -100     # ignored rows
    y[1] = -2                                                            # wrapped to V - 2, as Python indexing does
    return {"x": x, "y": y}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(loss per row, each row's max, each row's log of the sum of exp(x - max))."""
    import torch
    x, y = inputs["x"], inputs["y"]
    R, V = x.shape
    amax = torch.empty((R, 1), device=x.device, dtype=torch.float32)
    lse = torch.empty((R, 1), device=x.device, dtype=torch.float32)
    loss = torch.empty((R,), device=x.device, dtype=torch.float32)
    triton_red_fused__log_softmax_nll_loss_forward_0[(R,)](lse, x, y, amax, loss, V, R, V, XBLOCK=1,
                                                           R0_BLOCK=config.get("R0_BLOCK", 2048),
                                                           num_warps=config.get("num_warps", 16),
                                                           num_stages=config.get("num_stages", 1))
    return loss, amax, lse


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, y = inputs["x"].double(), inputs["y"]
    R, V = x.shape
    amax = x.max(1, keepdim=True).values
    lse = torch.log(torch.exp(x - amax).sum(1, keepdim=True))
    keep = y != -100
    yc = torch.where(keep, y, 0) % V
    loss = -(x.gather(1, yc[:, None])[:, 0] - amax[:, 0] - lse[:, 0])
    return torch.where(keep, loss, 0.0), amax, lse
