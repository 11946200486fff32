"""An OUTER reduction as torch.compile (Inductor, dynamic shapes) writes it (``triton_red_``, ReductionHint.OUTER): the
RMSNorm weight gradient ``(grad * x * rsqrt(var + eps)).sum(0)`` over [R, N] activations, reduced over the ROWS, so
each program owns XBLOCK = 64 contiguous columns (``xindex = xoffset + tl.arange(0, XBLOCK)[:, None]``) and walks
the rows in RBLOCK = 8 steps (``for roffset in range(0, rnumel, RBLOCK)``, ``rindex = roffset + rbase``): the
[XBLOCK, RBLOCK] tiles' contiguous dimension is x, the loop's is the strided one (``x0 + ks0*r1``, ``ks0`` the
symbolic row stride). Inside: two fp16 loads ``.to(tl.float32)`` with ``eviction_policy='evict_first'`` and
``rmask & xmask``, the per-row variance loaded along r only (``evict_last``), ``libdevice.rsqrt`` of it plus eps
recomputed each iteration, the products ``tl.broadcast_to`` the tile and added into a ``tl.full`` accumulator kept
by ``tl.where(rmask & xmask, tmp, _tmp)``; ``tl.sum(_tmp, 1)[:, None]`` and a masked fp32 store after the loop.
Inductor's 4 warps and one stage for the 64 x 8 outer config. Inductor decorates it with
``@triton_heuristics.reduction``; here it is the plain JIT function. (Triton 3.6's interpreter has no libdevice: the
CPU check binds the module's ``libdevice`` to ``tl.math``, whose rsqrt is the same function.)"""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from torch._inductor.runtime.triton_helpers import libdevice


@triton.jit
def triton_red_fused__to_copy_add_mul_rsqrt_sum_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, ks0, xnumel, rnumel,
                                                  XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp10 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (x0 + (ks0*r1)), rmask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp2 = tl.load(in_ptr1 + (x0 + (ks0*r1)), rmask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp3 = tl.load(in_ptr2 + (r1), rmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tmp0.to(tl.float32)
        tmp4 = 1e-06
        tmp5 = tmp3 + tmp4
        tmp6 = libdevice.rsqrt(tmp5)
        tmp7 = tmp2 * tmp6
        tmp8 = tmp1 * tmp7
        tmp9 = tl.broadcast_to(tmp8, [XBLOCK, RBLOCK])
        tmp11 = _tmp10 + tmp9
        _tmp10 = tl.where(rmask & xmask, tmp11, _tmp10)
    tmp10 = tl.sum(_tmp10, 1)[:, None]
    tl.store(out_ptr0 + (x0), tmp10, xmask)


TWILL_SPEC: dict[str, Any] = {
    "kernel": "triton_red_fused__to_copy_add_mul_rsqrt_sum_0",
    "signature": {"in_ptr0": "*fp16", "in_ptr1": "*fp16", "in_ptr2": "*fp32", "out_ptr0": "*fp32", "ks0": "i32",
                  "xnumel": "i32", "rnumel": "i32"},
    "constexprs": {"XBLOCK": 64, "RBLOCK": 8}, "num_warps": 4, "num_stages": 1,
    "divisibility": ["in_ptr0", "in_ptr1", "in_ptr2", "out_ptr0", "ks0", "xnumel"]}
PROBLEM: dict[str, int] = {"R": 8192, "N": 4096}
SMALL: dict[str, int] = {"R": 100, "N": 208}     # R % RBLOCK and N % XBLOCK: both masks cut


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """The output gradient and the input [R, N] in fp16, each row's mean square (var) in fp32."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    grad = torch.randn((R, N), device=device, generator=g).half()
    x = (torch.randn((R, N), device=device, generator=g) * 2).half()
    var = x.float().pow(2).mean(1)
    return {"grad": grad, "x": x, "var": var}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """d weight [N] = sum over rows of grad * x * rsqrt(var + 1e-6)."""
    import torch
    grad, x, var = inputs["grad"], inputs["x"], inputs["var"]
    R, N = x.shape
    out = torch.empty((N,), device=x.device, dtype=torch.float32)
    XBLOCK = config.get("XBLOCK", 64)
    triton_red_fused__to_copy_add_mul_rsqrt_sum_0[(triton.cdiv(N, XBLOCK),)](
        grad, x, var, out, N, N, R, XBLOCK=XBLOCK, RBLOCK=config.get("RBLOCK", 8),
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 1))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    grad, x, var = inputs["grad"].double(), inputs["x"].double(), inputs["var"].double()
    return (grad * x * torch.rsqrt(var + 1e-6)[:, None]).sum(0)
