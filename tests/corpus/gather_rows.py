"""Embedding-bag style: each block of a row's indices gathers columns of a table row with ``tl.gather`` (a
register gather along an axis) and accumulates them."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*fp32", "n": "i32"},
                              "constexprs": {"BLOCK": 256}, "num_warps": 4, "num_stages": 2,
                              "divisibility": ["n"]}


@triton.jit
def gather_rows(x_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], tl.float32)
    for s in range(0, n, BLOCK):
        offs = s + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * n + offs)
        idx = tl.load(idx_ptr + offs) % BLOCK
        acc += tl.gather(x, idx, 0)
    tl.store(out_ptr + row * BLOCK + tl.arange(0, BLOCK), acc)

PROBLEM: dict[str, int] = {"R": 4096, "N": 16384}
SMALL: dict[str, int] = {"R": 3, "N": 512}


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, N), device=device, generator=g),
            "idx": torch.randint(0, 1 << 20, (N,), device=device, generator=g, dtype=torch.int32)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out[r, j] = sum over blocks s of x[r, s + idx[s + j] % 256], fp32 [R, 256]; one program per row."""
    import torch
    x = inputs["x"]
    out = torch.full((x.shape[0], 256), float("nan"), device=x.device)
    gather_rows[(x.shape[0],)](x, inputs["idx"], out, x.shape[1], BLOCK=256,
                               num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    x, idx = inputs["x"].double(), inputs["idx"].long()
    R, N = x.shape
    xb = x.view(R, N // 256, 256)
    ib = (idx.view(N // 256, 256) % 256).expand(R, -1, -1)
    return xb.gather(2, ib).sum(1)
