"""A loop that stages a tile through a global scratch buffer: store, barrier, read back in another order
(the same iteration must write before it reads, and the next must not write before this one read: a barrier after
the read too, as a kernel reusing a scratch buffer across threads needs). One program: the buffer is the launch's."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "scratch_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32"},
              "constexprs": {"BLOCK": 256}, "num_warps": 4}


@triton.jit
def scratch_loop(x_ptr, scratch_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    rev = BLOCK - 1 - offs
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + start + offs)
        tl.store(scratch_ptr + offs, x * 2.0)
        tl.debug_barrier()
        r = tl.load(scratch_ptr + rev)
        acc += r
        tl.debug_barrier()
    tl.store(y_ptr + offs, acc)


PROBLEM: dict[str, int] = {"N": 1 << 20}
SMALL: dict[str, int] = {"N": 256}       # one iteration


def make_inputs(N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((N,), device=device, dtype=torch.float32, generator=g),
            "scratch": torch.empty((256,), device=device, dtype=torch.float32)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y[i] = 2 * sum over blocks of x[block + 255 - i], fp32 [256], one program."""
    import torch
    x = inputs["x"]
    y = torch.empty((256,), device=x.device, dtype=torch.float32)
    scratch_loop[(1,)](x, inputs["scratch"], y, x.shape[0], BLOCK=256, num_warps=config.get("num_warps", 4),
                       num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    x = inputs["x"].double().reshape(-1, 256)
    return 2.0 * x.flip(1).sum(dim=0)
