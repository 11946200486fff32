"""Rotary embedding over a sequence in blocks, interleaved pairs taken apart with ``tl.split`` and put back with
``tl.join`` (newer RoPE kernels' style), cos/sin loaded per block."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"x_ptr": "*fp16", "cos_ptr": "*fp32", "sin_ptr": "*fp32", "out_ptr": "*fp16",
                                            "seqlen": "i32"},
                              "constexprs": {"BLOCK_S": 64, "D": 128}, "num_warps": 4, "num_stages": 3,
                              "divisibility": ["seqlen"]}
PROBLEM: dict[str, int] = {"BH": 512, "S": 4096}
SMALL: dict[str, int] = {"BH": 3, "S": 200}


@triton.jit
def rope_split(x_ptr, cos_ptr, sin_ptr, out_ptr, seqlen, BLOCK_S: tl.constexpr, D: tl.constexpr):
    bh = tl.program_id(0)
    offs_d = tl.arange(0, D)
    offs_h = tl.arange(0, D // 2)
    for s0 in range(0, seqlen, BLOCK_S):
        offs_s = s0 + tl.arange(0, BLOCK_S)
        m = offs_s[:, None] < seqlen
        x = tl.load(x_ptr + (bh * seqlen + offs_s[:, None]) * D + offs_d[None, :], mask=m, other=0.0).to(tl.float32)
        c = tl.load(cos_ptr + offs_s[:, None] * (D // 2) + offs_h[None, :], mask=m, other=0.0)
        s = tl.load(sin_ptr + offs_s[:, None] * (D // 2) + offs_h[None, :], mask=m, other=0.0)
        x1, x2 = tl.split(tl.reshape(x, [BLOCK_S, D // 2, 2]))
        y = tl.reshape(tl.join(x1 * c - x2 * s, x1 * s + x2 * c), [BLOCK_S, D])
        tl.store(out_ptr + (bh * seqlen + offs_s[:, None]) * D + offs_d[None, :], y.to(tl.float16), mask=m)


def make_inputs(BH: int, S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    ang = torch.rand((S, 64), device=device, generator=g) * 6.28
    return {"x": torch.randn((BH, S, 128), device=device, dtype=torch.float16, generator=g),
            "cos": ang.cos(), "sin": ang.sin()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Rotary embedding of interleaved pairs, fp16 [BH, S, 128]; one program per (batch, head)."""
    import torch
    x = inputs["x"]
    out = torch.full_like(x, float("nan"))
    rope_split[(x.shape[0],)](x, inputs["cos"], inputs["sin"], out, x.shape[1], BLOCK_S=64, D=128,
                              num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].double()
    c, s = inputs["cos"].double(), inputs["sin"].double()
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack((x1 * c - x2 * s, x1 * s + x2 * c), dim=-1).flatten(-2)
