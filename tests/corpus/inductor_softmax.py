"""A softmax as torch.compile (Inductor) writes it for rows too long for one block: three loops over the row (its max,
its sum of exponentials, the normalised values stored), 2-D ``[XBLOCK, RBLOCK]`` tiles, ``rmask & xmask`` masks,
``eviction_policy`` hints and Inductor's own Triton helpers (``triton_helpers.maximum`` / ``max2``, ``tl_math.exp``)
imported from ``torch._inductor.runtime``; 16 warps. Inductor decorates it with ``@triton_heuristics.reduction``
(its GPU autotuner: twill leaves it out, with a note); here it is launched as the plain JIT function it wraps.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import math as tl_math

TWILL_SPEC: dict[str, Any] = {"kernel": "triton_red_fused__softmax_0",
                              "signature": {"in_ptr0": "*fp32", "out_ptr2": "*fp32", "xnumel": "i32", "rnumel": "i32"},
                              "constexprs": {"XBLOCK": 1, "RBLOCK": 2048}, "num_warps": 16, "num_stages": 1,
                              "divisibility": ["rnumel"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 32768}
SMALL: dict[str, int] = {"R": 3, "N": 5000}


@triton.jit
def triton_red_fused__softmax_0(in_ptr0, out_ptr2, xnumel, rnumel, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, RBLOCK], float("-inf"), tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        tmp3 = triton_helpers.maximum(_tmp2, tmp1)
        _tmp2 = tl.where(rmask & xmask, tmp3, _tmp2)
    tmp2 = triton_helpers.max2(_tmp2, 1)[:, None]
    _tmp8 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp4 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy='evict_last', other=0.0)
        tmp5 = tmp4 - tmp2
        tmp6 = tl_math.exp(tmp5)
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, RBLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(rmask & xmask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp10 = tl.load(in_ptr0 + (r1 + (rnumel * x0)), rmask & xmask, eviction_policy='evict_first', other=0.0)
        tmp11 = tmp10 - tmp2
        tmp12 = tl_math.exp(tmp11)
        tmp13 = tmp12 / tmp8
        tl.store(out_ptr2 + (r1 + (rnumel * x0)), tmp13, rmask & xmask)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, generator=g) * 4}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    x = inputs["x"]
    R, N = x.shape
    y = torch.empty_like(x)
    triton_red_fused__softmax_0[(R,)](x, y, R, N, XBLOCK=1, RBLOCK=2048, num_warps=config.get("num_warps", 16),
                                      num_stages=config.get("num_stages", 1))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    return torch.softmax(inputs["x"].double(), dim=1)
