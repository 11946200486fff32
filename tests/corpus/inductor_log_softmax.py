"""A log_softmax as torch.compile (Inductor) writes it for long rows: ``triton_red_fused__log_softmax_0`` with two
``for roffset in range(0, rnumel, RBLOCK)`` reduction loops (the row max via ``triton_helpers.maximum`` /
``max2``, then the sum of ``tl_math.exp(x - max)``), ``tl.full`` accumulators, ``rmask & xmask`` masks,
``eviction_policy`` hints, ``tl_math.log`` of the sum, and the third loop that stores ``x - max - log(sum)``.
Inductor's imports from ``torch._inductor.runtime`` and its ``@triton_heuristics.reduction(...)`` decorator (its
GPU autotuner) are kept as Inductor emits them; ``launch`` runs the JIT function the autotuner wraps (its ``.fn``)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
# (Inductor also emits triton_helpers.set_driver_to_gpu() here; it raises without a GPU, so it is left out)

TWILL_SPEC: dict[str, Any] = {"kernel": "triton_red_fused__log_softmax_0",
                              "signature": {"in_ptr0": "*fp32", "out_ptr2": "*fp32", "xnumel": "i32",
                                            "rnumel": "i32"},
                              "constexprs": {"XBLOCK": 1, "RBLOCK": 2048}, "num_warps": 16, "num_stages": 1,
                              "divisibility": ["in_ptr0", "out_ptr2", "rnumel"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 32768}
SMALL: dict[str, int] = {"R": 3, "N": 4112}


@triton_heuristics.reduction(
    size_hints={'x': 4096, 'r0_': 32768},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr2': '*fp32', 'xnumel': 'i32', 'rnumel': 'i32'},
                 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9,
                                            regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048,
                                            warp_size=32),
                 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]],
                                               (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'autotune_hints': set(), 'kernel_name': 'triton_red_fused__log_softmax_0',
                   'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'num_load': 3,
                   'num_reduction': 2, 'backend_hash': 'B91BCB695E38B71032F752AC651072418AF5211154BE3FA45647342762FB601F',
                   'are_deterministic_algorithms_enabled': False, 'assert_indirect_indexing': True,
                   'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None,
                   'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False,
                   'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16,
                   'store_cubin': False}
)
@triton.jit
def triton_red_fused__log_softmax_0(in_ptr0, out_ptr2, xnumel, rnumel, XBLOCK : tl.constexpr, RBLOCK : tl.constexpr):
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
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel*x0)), rmask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        tmp3 = triton_helpers.maximum(_tmp2, tmp1)
        _tmp2 = tl.where(rmask & xmask, tmp3, _tmp2)
    tmp2 = triton_helpers.max2(_tmp2, 1)[:, None]
    _tmp8 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp4 = tl.load(in_ptr0 + (r1 + (rnumel*x0)), rmask & xmask, eviction_policy='evict_last', other=0.0)
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
        tmp10 = tl.load(in_ptr0 + (r1 + (rnumel*x0)), rmask & xmask, eviction_policy='evict_first', other=0.0)
        tmp11 = tmp10 - tmp2
        tmp12 = tl_math.log(tmp8)
        tmp13 = tmp11 - tmp12
        tl.store(out_ptr2 + (r1 + (rnumel*x0)), tmp13, rmask & xmask)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, generator=g) * 4}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    x = inputs["x"]
    R, N = x.shape
    y = torch.empty_like(x)
    kernel = getattr(triton_red_fused__log_softmax_0, "fn", triton_red_fused__log_softmax_0)  # the wrapped JIT fn
    kernel[(R,)](x, y, R, N, XBLOCK=1, RBLOCK=2048, num_warps=config.get("num_warps", 16),
                 num_stages=config.get("num_stages", 1))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    return torch.log_softmax(inputs["x"].double(), dim=1)
