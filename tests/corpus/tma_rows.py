"""A grid-stride loop over row blocks read and written through tensor descriptors (persistent elementwise and
norm kernels written with ``tl.make_tensor_descriptor`` or host descriptors): each block loaded by TMA, scaled and
shifted by its row's mean, and **stored by TMA inside the scheduled loop** (``tt.descriptor_store``). fp16 in and out.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"in_desc": "tensordesc<fp16[64, 128]>",
                                            "out_desc": "tensordesc<fp16[64, 128]>", "R": "i32", "scale": "fp32"},
                              "constexprs": {"BR": 64, "BC": 128}, "num_warps": 4, "num_stages": 3,
                              "divisibility": ["R"]}
PROBLEM: dict[str, int] = {"R": 1 << 20}
SMALL: dict[str, int] = {"R": 1000}       # the last block ragged: TMA clips its rows


@triton.jit
def tma_rows(in_desc, out_desc, R, scale, BR: tl.constexpr, BC: tl.constexpr):
    pid = tl.program_id(0)
    for r in range(pid * BR, R, tl.num_programs(0) * BR):
        x = in_desc.load([r, 0]).to(tl.float32)
        y = x * scale + tl.sum(x, 1)[:, None] / BC
        out_desc.store([r, 0], y.to(tl.float16))


def make_inputs(R: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"x": torch.randn((R, 128), device=device, generator=g).half(), "scale": 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """y, fp16 [R, 128]: 264 programs (two per SM of an H200) striding over the row blocks."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    x = inputs["x"]
    y = torch.empty_like(x)
    din = TensorDescriptor.from_tensor(x, [64, 128])
    dout = TensorDescriptor.from_tensor(y, [64, 128])
    grid = (min(264, triton.cdiv(x.shape[0], 64)),)
    tma_rows[grid](din, dout, x.shape[0], inputs["scale"], BR=64, BC=128, num_warps=config.get("num_warps", 4),
                   num_stages=config.get("num_stages", 3))
    return y


def reference(inputs: dict[str, Any]) -> Any:
    x = inputs["x"].double()
    return x * inputs["scale"] + x.sum(dim=1, keepdim=True) / 128
