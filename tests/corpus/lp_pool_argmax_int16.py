"""An Lp-norm pooling row kernel with the row's arg-max carried as scalars, as pooling and quantisation libraries write
it: |x|^p by libdevice.pow with a run-time p; each block's (max, index) pair reduced by tl.reduce with a combine
function of two tuples, then folded into two scalar loop-carried values (tl.where on scalars); tl.full of a tensor's shape and
tl.broadcast; each block's values stored as int16 (x * 64, rounded, clamped: int16 arithmetic). Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra import libdevice

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*fp32", "q_ptr": "*i16", "pool_ptr": "*fp32", "arg_ptr": "*i32",
                                            "N": "i32", "p": "fp32"},
                              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 8192}
SMALL: dict[str, int] = {"R": 8, "N": 1000}


@triton.jit
def _argmax_combine(v0, i0, v1, i1):
    take = (v1 > v0) | ((v1 == v0) & (i1 < i0))
    return tl.where(take, v1, v0), tl.where(take, i1, i0)


@triton.jit
def lp_pool_argmax(x_ptr, q_ptr, pool_ptr, arg_ptr, N, p, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    best = float("-inf")
    best_i = 0
    for start in range(0, N, BLOCK):
        idx = start + offs
        m = idx < N
        x = tl.load(x_ptr + row * N + idx, mask=m, other=0.0)
        acc += tl.where(m, libdevice.pow(tl.abs(x), p), 0.0)
        xm = tl.where(m, x, tl.full(x.shape, float("-inf"), x.dtype))
        idx_b, _ = tl.broadcast(idx, xm)
        v, i = tl.reduce((xm, idx_b), 0, _argmax_combine)
        better = v > best
        best_i = tl.where(better, i, best_i)
        best = tl.where(better, v, best)
        q = tl.minimum(tl.maximum(x * 64.0 + tl.where(x >= 0, 0.5, -0.5), -32768.0), 32767.0).to(tl.int16)
        tl.store(q_ptr + row * N + idx, q + tl.zeros_like(q), mask=m)
    tl.store(pool_ptr + row, libdevice.pow(tl.sum(acc, 0), 1.0 / p))
    tl.store(arg_ptr + row, best_i)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, dtype=torch.float32, generator=g)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[the int16 codes, each row's L3 norm, its arg-max], fp64 [R * N + 2R]."""
    import torch
    x = inputs["x"]
    R, N = x.shape
    q = torch.empty((R, N), device=x.device, dtype=torch.int16)
    pool = torch.empty((R,), device=x.device, dtype=torch.float32)
    arg = torch.empty((R,), device=x.device, dtype=torch.int32)
    lp_pool_argmax[(R,)](x, q, pool, arg, N, 3.0, BLOCK=1024, num_warps=config.get("num_warps", 4),
                         num_stages=config.get("num_stages", 3))
    return torch.cat([q.double().flatten(), pool.double(), arg.double()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].double()
    q = torch.clamp(torch.trunc(x * 64.0 + torch.where(x >= 0, 0.5, -0.5)), -32768, 32767)
    return torch.cat([q.flatten(), (x.abs() ** 3).sum(dim=1) ** (1 / 3), x.argmax(dim=1).double()])
