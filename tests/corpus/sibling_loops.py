"""Two sibling loops whose bodies MLIR prints with the same SSA names: an optional copy pass inside an
``if`` on a runtime flag, then the GEMM loop (the one scheduled by default)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp16", "y_ptr": "*fp16", "a_ptr": "*fp16", "b_ptr": "*fp16",
                            "c_ptr": "*fp32", "N": "i32", "K": "i32", "flag": "i32"},
              "constexprs": {"BM": 64, "BN": 64, "BK": 32}, "num_warps": 4, "num_stages": 3}
PROBLEM: dict[str, int] = {"N": 1 << 20, "K": 4096, "flag": 1}
SMALL: dict[str, int] = {"N": 4096, "K": 256, "flag": 1}
MORE_CHECKS = [{"N": 4096, "K": 256, "flag": 0}]       # the copy skipped: y keeps its zeros (x + y = x)


@triton.jit
def sibling_loops(x_ptr, y_ptr, a_ptr, b_ptr, c_ptr, N, K, flag,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    if flag > 0:
        for k in range(0, N, BK):
            a = tl.load(x_ptr + k + rk)
            tl.store(y_ptr + k + rk, a * 2.0)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


def make_inputs(N: int, K: int, flag: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((N,), device=device, dtype=torch.float16, generator=g),
            "a": torch.randn((64, K), device=device, dtype=torch.float16, generator=g),
            "b": (torch.randn((K, 64), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16),
            "flag": flag}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(x + y, where y is 2x if flag, else the zeros allocated here; c = a @ b, fp32 64x64), one program."""
    import torch
    x, a, b = inputs["x"], inputs["a"], inputs["b"]
    y = torch.zeros_like(x)
    c = torch.empty((64, 64), device=x.device, dtype=torch.float32)
    sibling_loops[(1,)](x, y, a, b, c, x.shape[0], a.shape[1], inputs["flag"], BM=64, BN=64, BK=32,
                        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return x.float() + y.float(), c


def library(inputs: dict[str, Any]) -> Any:
    """The benchmark's library baseline: the copy and the product by torch."""
    return inputs["x"] * 2, inputs["a"] @ inputs["b"]


def reference(inputs: dict[str, Any]) -> Any:
    c = inputs["a"].float() @ inputs["b"].float()
    return inputs["x"].float() * (3 if inputs["flag"] else 1), c
