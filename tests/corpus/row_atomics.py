"""Scalar atomics after a row loop, as reductions across programs write them: a float ``tl.atomic_max`` (Triton
writes it as an integer max for non-negative values and an unsigned min for negative ones, on the buffer's pointer
bitcast to integers), a counter's ``tl.atomic_add``, a flag taken with ``tl.atomic_cas`` (a lock's acquire, as
tutorial 05's layer-norm backward spins on it); the row loop's loads evict first through the ``.cg`` cache, its
masked lanes read ``-inf``, and the row's sums are stored reversed (``tl.flip``). Every value is negative, so the
max takes the unsigned path. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "m_ptr": "*fp32", "cnt_ptr": "*i32",
                                            "N": "i32"},
                              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 8192}
SMALL: dict[str, int] = {"R": 7, "N": 1000}


@triton.jit
def row_atomics(x_ptr, y_ptr, m_ptr, cnt_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    tl.static_assert(BLOCK % 128 == 0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    mx = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + start + offs, mask=start + offs < N, other=float("-inf"),
                    eviction_policy="evict_first", cache_modifier=".cg")
        mx = tl.maximum(mx, x)
        acc += tl.where(x > float("-inf"), -x, 0.0)
    tl.store(y_ptr + row * BLOCK + offs, tl.flip(acc, 0))
    tl.atomic_max(m_ptr, tl.max(mx, 0))
    tl.atomic_add(cnt_ptr, 1)
    tl.atomic_cas(cnt_ptr + 1, 0, row + 1)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": -torch.rand((R, N), device=device, generator=g) - 0.25}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[each row's lane sums of -x, lanes reversed; the max of x; the rows counted; whether a row took the flag]."""
    import torch
    x = inputs["x"]
    R, N = x.shape
    y = torch.empty((R, 1024), device=x.device, dtype=torch.float32)
    m = torch.full((1,), float("-inf"), device=x.device, dtype=torch.float32)
    cnt = torch.zeros((2,), device=x.device, dtype=torch.int32)
    row_atomics[(R,)](x, y, m, cnt, N, BLOCK=1024, num_warps=config.get("num_warps", 4),
                      num_stages=config.get("num_stages", 3))
    return torch.cat([y.flatten(), m, cnt[:1].float(), (cnt[1:] > 0).float()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].double()
    R, N = x.shape
    pad = torch.nn.functional.pad(-x, (0, (-N) % 1024)).view(R, -1, 1024).sum(dim=1).flip(1)
    return torch.cat([pad.flatten(), x.max().view(1), torch.tensor([float(R), 1.0], dtype=torch.float64,
                                                                    device=x.device)])
