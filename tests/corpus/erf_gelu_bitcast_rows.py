"""A row kernel of elementwise math libraries use and the corpus lacked: exact GELU through tl.erf, a sign flip and
an absolute value by integer bit operations on the fp32 bits (``x.to(tl.int32, bitcast=True)``, as fast-math
kernels write them), a multiplicative hash with tl.umulhi for a per-element keep mask (hash dropout, no Philox), over
a row in a loop, with a running sum of the kept values stored after it. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "s_ptr": "*fp32", "N": "i32",
                                            "seed": "i32"},
                              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"R": 4096, "N": 8192}
SMALL: dict[str, int] = {"R": 8, "N": 1000}


@triton.jit
def erf_gelu_rows(x_ptr, y_ptr, s_ptr, N, seed, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        idx = start + offs
        m = idx < N
        x = tl.load(x_ptr + row * N + idx, mask=m, other=0.0)
        g = 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))
        bits = g.to(tl.int32, bitcast=True)
        mag = (bits & 0x7FFFFFFF).to(tl.float32, bitcast=True)
        h = tl.umulhi((row * N + idx).to(tl.uint32) ^ seed.to(tl.uint32), 0x9E3779B1)
        keep = (h & 255) < 230
        y = tl.where(keep, mag, 0.0)
        tl.store(y_ptr + row * N + idx, y, mask=m)
        acc += y
    tl.store(s_ptr + row, tl.sum(acc, 0))


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, dtype=torch.float32, generator=g)}


def _keep(R: int, N: int, seed: int, device: Any) -> Any:
    import torch
    i = torch.arange(R * N, device=device, dtype=torch.int64) ^ seed
    h = (i * 0x9E3779B1) >> 32
    return (h & 255) < 230


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[|gelu(x)| where kept, then each row's sum], fp32, one program per row."""
    import torch
    x = inputs["x"]
    R, N = x.shape
    y = torch.empty_like(x)
    s = torch.empty((R,), device=x.device, dtype=torch.float32)
    erf_gelu_rows[(R,)](x, y, s, N, 77, BLOCK=1024, num_warps=config.get("num_warps", 4),
                        num_stages=config.get("num_stages", 3))
    return torch.cat([y.flatten(), s])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].double()
    R, N = x.shape
    g = (0.5 * x * (1.0 + torch.erf(x / 2 ** 0.5))).abs()
    y = torch.where(_keep(R, N, 77, x.device).reshape(R, N), g, torch.zeros_like(g))
    return torch.cat([y.flatten(), y.sum(dim=1)])
