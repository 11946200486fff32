"""Per-token-group FP8 quantisation (groups of 128 along a row, as DeepSeek-style block-scaled GEMMs want their
activations) over a row longer than one block: each iteration's [rows, 512] tile reshaped to [rows, 4, 128], its
groups' absolute max reduced along the last axis of the 3-D tile, the scales broadcast back over the group, the
tile reshaped to 2-D, cast to e4m3 and stored with its [rows, 4] scales. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "group_quant_fp8",
    "signature": {"x_ptr": "*bf16", "y_ptr": "*fp8e4nv", "s_ptr": "*fp32", "N": "i32"},
    "constexprs": {"BLOCK_M": 16, "BLOCK_N": 512, "GROUP": 128}, "num_warps": 4, "num_stages": 2,
    "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"R": 8192, "N": 7168}
SMALL: dict[str, int] = {"R": 32, "N": 1536}


@triton.jit
def group_quant_fp8(x_ptr, y_ptr, s_ptr, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    G: tl.constexpr = BLOCK_N // GROUP
    gcols = tl.arange(0, G)
    for s in range(0, N, BLOCK_N):
        x = tl.load(x_ptr + rows[:, None] * N + s + cols[None, :]).to(tl.float32)
        xg = tl.reshape(x, [BLOCK_M, G, GROUP])
        amax = tl.max(tl.abs(xg), axis=2)
        scale = tl.maximum(amax, 1e-10) / 448.0
        y = xg / scale[:, :, None]
        y = tl.reshape(y, [BLOCK_M, BLOCK_N]).to(tl.float8e4nv)
        tl.store(y_ptr + rows[:, None] * N + s + cols[None, :], y)
        tl.store(s_ptr + rows[:, None] * (N // GROUP) + s // GROUP + gcols[None, :], scale)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [R, N] bf16 (R a multiple of 16, N of 512)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": (torch.randn((R, N), device=device, generator=g) * 3).bfloat16()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[the dequantised values (fp8 times their group's scale), the scales], fp32."""
    import torch
    x = inputs["x"]
    R, N = x.shape
    y = torch.empty((R, N), device=x.device, dtype=torch.float8_e4m3fn)
    s = torch.empty((R, N // 128), device=x.device, dtype=torch.float32)
    group_quant_fp8[(R // 16,)](x, y, s, N, BLOCK_M=16, BLOCK_N=512, GROUP=128,
                                num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return torch.cat([(y.float().view(R, N // 128, 128) * s[:, :, None]).flatten(), s.flatten()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].float()
    R, N = x.shape
    xg = x.view(R, N // 128, 128)
    s = xg.abs().amax(dim=2).clamp(min=1e-10) / 448.0
    y = (xg / s[:, :, None]).to(torch.float8_e4m3fn)
    return torch.cat([(y.float() * s[:, :, None]).flatten(), s.flatten()]).double()
