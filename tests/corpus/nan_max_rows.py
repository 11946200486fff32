"""A NaN-propagating running maximum and argmax over a row, as reduction libraries write torch.max's semantics
(FlagGems-style): ``tl.maximum(m, x, propagate_nan=tl.PropagateNan.ALL)`` (arith.maximumf, not maxnumf) carried over
the row's blocks with the index of each lane's maximum, then tl.argmax over the lanes (tie_break_left) after the
loop (its combine is not NaN-aware: whether a NaN lane wins depends on the reduction's order, so a row holding one is
made NaN by a second reduction, as the libraries do), and the maximum's reciprocal by tl.math.div_rn of a NaN-propagating tl.clamp. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*fp32", "m_ptr": "*fp32", "i_ptr": "*i32", "r_ptr": "*fp32",
                                            "N": "i32"},
                              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 8192}
SMALL: dict[str, int] = {"R": 8, "N": 1000}


@triton.jit
def nan_max_rows(x_ptr, m_ptr, i_ptr, r_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    at = tl.zeros([BLOCK], tl.int32)
    for start in range(0, N, BLOCK):
        idx = start + offs
        x = tl.load(x_ptr + row * N + idx, mask=idx < N, other=float("-inf"))
        take = (x > m) | (x != x)
        at = tl.where(take & (m == m), idx, at)
        m = tl.maximum(m, x, propagate_nan=tl.PropagateNan.ALL)
    best, lane = tl.max(m, 0, return_indices=True, return_indices_tie_break_left=True)
    best = tl.where(tl.max((m != m).to(tl.int32), 0) > 0, float("nan"), best)   # argmax's combine skips NaN by order
    tl.store(m_ptr + row, best)
    tl.store(i_ptr + row, tl.sum(tl.where(offs == lane, at, 0), 0))
    tl.store(r_ptr + row, tl.math.div_rn(1.0, tl.clamp(best, -1e30, 1e30, propagate_nan=tl.PropagateNan.ALL)))


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((R, N), device=device, dtype=torch.float32, generator=g)
    x[1, 3] = float("nan")                        # one row with a NaN: its maximum is NaN
    return {"x": x}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[each row's max, its index (rows without NaN), 1/max], fp32 [3R]; a NaN row's index and max are not compared."""
    import torch
    x = inputs["x"]
    R, N = x.shape
    m = torch.empty((R,), device=x.device, dtype=torch.float32)
    i = torch.empty((R,), device=x.device, dtype=torch.int32)
    r = torch.empty((R,), device=x.device, dtype=torch.float32)
    nan_max_rows[(R,)](x, m, i, r, N, BLOCK=1024, num_warps=config.get("num_warps", 4),
                       num_stages=config.get("num_stages", 3))
    ok = ~torch.isnan(m)
    return torch.cat([torch.where(ok, m, 0.0), torch.where(ok, i.float(), 0.0), torch.where(ok, r, 0.0),
                      (~ok).float()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].double()
    m, i = x.max(dim=1)
    ok = ~torch.isnan(m)
    return torch.cat([torch.where(ok, m, 0.0), torch.where(ok, i.double(), 0.0), torch.where(ok, 1.0 / m, 0.0),
                      (~ok).double()])
