"""GEGLU over long rows in blocks, in the style of Liger's and unsloth's GEGLU kernels: the tanh approximation of GELU
through ``libdevice.tanh`` (``tt.extern_elementwise`` in TTGIR), the row's pointers moved once by an int64 row
offset (``tl.program_id(0).to(tl.int64)``). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice

TWILL_SPEC: dict[str, Any] = {"signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "stride": "i64",
                                            "n_cols": "i32"},
                              "constexprs": {"BLOCK_SIZE": 1024}, "num_warps": 4, "num_stages": 3,
                              "divisibility": ["stride", "n_cols"]}
PROBLEM: dict[str, int] = {"R": 8192, "N": 14336}
SMALL: dict[str, int] = {"R": 8, "N": 3000}          # a partial last block


@triton.jit
def geglu_rows(a_ptr, b_ptr, c_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    a_ptr += row * stride
    b_ptr += row * stride
    c_ptr += row * stride
    for start in tl.range(0, n_cols, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        a = tl.load(a_ptr + offs, mask=mask, other=0).to(tl.float32)
        b = tl.load(b_ptr + offs, mask=mask, other=0)
        sqrt_2_over_pi = 0.7978845608028654
        inner = sqrt_2_over_pi * (a + 0.044715 * a * a * a)
        gelu = 0.5 * a * (1 + libdevice.tanh(inner))
        tl.store(c_ptr + offs, gelu.to(b.dtype) * b, mask=mask)


def make_inputs(R: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((R, N), device=device, dtype=torch.float16, generator=g),
            "b": torch.randn((R, N), device=device, dtype=torch.float16, generator=g)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """gelu_tanh(a) * b, fp16 [R, N], one program per row."""
    import torch
    a, b = inputs["a"], inputs["b"]
    c = torch.full_like(a, float("nan"))
    geglu_rows[(a.shape[0],)](a, b, c, a.stride(0), a.shape[1], BLOCK_SIZE=1024,
                              num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, b = inputs["a"].double(), inputs["b"].double()
    return torch.nn.functional.gelu(a, approximate="tanh") * b
