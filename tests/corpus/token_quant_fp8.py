"""Per-token FP8 quantisation in two passes over a row, as vLLM's and SGLang's dynamic per-token quant kernels write it
when a row exceeds one block: a loop for the row's absolute max, the scale stored, then a loop dividing, clamping to
the e4m3 range (``tl.clamp``, which Gluon 3.6 does not have: written as a max and a min) and casting to
``tl.float8e4nv``. bf16 in, fp8 and fp32 scales out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"kernel": "per_token_quant",
                              "signature": {"x_ptr": "*bf16", "y_ptr": "*fp8e4nv", "s_ptr": "*fp32", "N": "i32"},
                              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 2, "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"R": 8192, "N": 8192}
SMALL: dict[str, int] = {"R": 5, "N": 3000}


@triton.jit
def per_token_quant(x_ptr, y_ptr, s_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    amax = tl.zeros([BLOCK], tl.float32)
    for s in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + s + offs, mask=s + offs < N, other=0.0).to(tl.float32)
        amax = tl.maximum(amax, tl.abs(x))
    scale = tl.maximum(tl.max(amax, 0), 1e-10) / 448.0
    tl.store(s_ptr + row, scale)
    for s in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + s + offs, mask=s + offs < N, other=0.0).to(tl.float32)
        y = tl.clamp(x / scale, -448.0, 448.0).to(tl.float8e4nv)
        tl.store(y_ptr + row * N + s + offs, y, mask=s + offs < N)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": (torch.randn((R, N), device=device, generator=g) * 3).bfloat16()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[the dequantised rows (fp8 values times their row's scale), the scales], fp32."""
    import torch
    x = inputs["x"]
    R, N = x.shape
    y = torch.empty((R, N), device=x.device, dtype=torch.float8_e4m3fn)
    s = torch.empty((R,), device=x.device, dtype=torch.float32)
    per_token_quant[(R,)](x, y, s, N, BLOCK=1024, num_warps=config.get("num_warps", 4),
                          num_stages=config.get("num_stages", 2))
    return torch.cat([(y.float() * s[:, None]).flatten(), s])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].float()
    s = x.abs().amax(dim=1).clamp(min=1e-10) / 448.0
    y = (x / s[:, None]).clamp(-448.0, 448.0).to(torch.float8_e4m3fn)
    return torch.cat([(y.float() * s[:, None]).flatten(), s]).double()
