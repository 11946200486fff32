"""A LayerNorm as torch.compile (Inductor) writes it for rows too long for one block (``triton_red_``): a welford loop
over the row (``triton_helpers.welford_reduce`` with ``roffset == 0`` as first_iteration, then
``triton_helpers.welford`` = tl.reduce with welford_combine), mean and rstd stored (rstd in place through
in_out_ptr0, after ``tl.debug_barrier()``), then a second loop normalising and applying weight and bias.
Inductor decorates it with ``@triton_heuristics.reduction``; here it is the plain JIT function."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import libdevice


@triton.jit
def triton_red_fused_native_layer_norm_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, rnumel,
                                         XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    tmp2_mean = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    tmp2_m2 = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    tmp2_weight = tl.zeros([XBLOCK, RBLOCK], tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel*x0)), rmask & xmask, eviction_policy='evict_last', other=0.0).to(tl.float32)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = triton_helpers.welford_reduce(
            tmp1, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0
        )
        tmp2_mean = tl.where(rmask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(rmask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(rmask & xmask, tmp2_weight_next, tmp2_weight)
    tmp2_tmp, tmp3_tmp, tmp4_tmp = triton_helpers.welford(
        tmp2_mean, tmp2_m2, tmp2_weight, 1
    )
    tmp2 = tmp2_tmp[:, None]
    tmp3 = tmp3_tmp[:, None]
    tmp4 = tmp4_tmp[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tmp5 = rnumel.to(tl.float32)
    tmp6 = tmp3 / tmp5
    tmp7 = 1e-05
    tmp8 = tmp6 + tmp7
    tmp9 = libdevice.rsqrt(tmp8)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (x0), tmp9, xmask)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp10 = tl.load(in_ptr0 + (r1 + (rnumel*x0)), rmask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp14 = tl.load(in_ptr1 + (r1), rmask, eviction_policy='evict_last', other=0.0)
        tmp16 = tl.load(in_ptr2 + (r1), rmask, eviction_policy='evict_last', other=0.0)
        tmp11 = tmp10 - tmp2
        tmp12 = tmp11 * tmp9
        tmp13 = tmp12.to(tl.float32)
        tmp15 = tmp13 * tmp14
        tmp17 = tmp15 + tmp16
        tmp18 = tmp17.to(tl.float32)
        tl.store(out_ptr1 + (r1 + (rnumel*x0)), tmp18, rmask & xmask)


TWILL_SPEC: dict[str, Any] = {
    "kernel": "triton_red_fused_native_layer_norm_0",
    "signature": {"in_out_ptr0": "*fp32", "in_ptr0": "*fp16", "in_ptr1": "*fp32", "in_ptr2": "*fp32",
                  "out_ptr0": "*fp32", "out_ptr1": "*fp16", "xnumel": "i32", "rnumel": "i32"},
    "constexprs": {"XBLOCK": 1, "RBLOCK": 2048}, "num_warps": 16, "num_stages": 1, "divisibility": ["rnumel"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 16384}
SMALL: dict[str, int] = {"R": 3, "N": 5000}


def make_inputs(R, N, device="cuda", seed=0):
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": (torch.randn((R, N), device=device, generator=g) * 2 + 1).half(),
            "w": torch.randn((N,), device=device, generator=g), "b": torch.randn((N,), device=device, generator=g)}


def launch(inputs, **config):
    import torch
    x, w, b = inputs["x"], inputs["w"], inputs["b"]
    R, N = x.shape
    mean = torch.empty((R, 1), device=x.device, dtype=torch.float32)
    rstd = torch.empty((R, 1), device=x.device, dtype=torch.float32)
    y = torch.empty_like(x)
    triton_red_fused_native_layer_norm_0[(R,)](rstd, x, w, b, mean, y, R, N, XBLOCK=1, RBLOCK=2048,
                                               num_warps=config.get("num_warps", 16),
                                               num_stages=config.get("num_stages", 1))
    return y, mean, rstd


def reference(inputs):
    import torch
    x = inputs["x"].double()
    mean = x.mean(1, keepdim=True)
    var = x.var(1, unbiased=False, keepdim=True)
    rstd = (var + 1e-5).rsqrt()
    return (x - mean) * rstd * inputs["w"].double() + inputs["b"].double(), mean, rstd
