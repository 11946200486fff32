"""A gated linear recurrence h_t = a_t * h_{t-1} + b_t over a long sequence in chunks (Mamba / linear-RNN style):
each chunk's prefix through ``tl.associative_scan`` with a two-tensor combine function, the carry across chunks."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"signature": {"a_ptr": "*fp32", "b_ptr": "*fp32", "h_ptr": "*fp32", "L": "i32"},
                              "constexprs": {"BLOCK_L": 256, "BLOCK_D": 16}, "num_warps": 4, "num_stages": 2,
                              "divisibility": ["L"]}
PROBLEM: dict[str, int] = {"D": 4096, "L": 4096}
SMALL: dict[str, int] = {"D": 32, "L": 700}


@triton.jit
def _combine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def linear_scan(a_ptr, b_ptr, h_ptr, L, BLOCK_L: tl.constexpr, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    offs_d = pid * BLOCK_D + tl.arange(0, BLOCK_D)
    carry = tl.zeros([BLOCK_D], tl.float32)
    for l0 in range(0, L, BLOCK_L):
        offs_l = l0 + tl.arange(0, BLOCK_L)
        m = offs_l[None, :] < L
        idx = offs_d[:, None] * L + offs_l[None, :]
        a = tl.load(a_ptr + idx, mask=m, other=1.0)
        b = tl.load(b_ptr + idx, mask=m, other=0.0)
        ca, cb = tl.associative_scan((a, b), 1, _combine)
        h = ca * carry[:, None] + cb
        tl.store(h_ptr + idx, h, mask=m)
        carry = tl.sum(tl.where(offs_l[None, :] == tl.minimum(l0 + BLOCK_L, L) - 1, h, 0.0), 1)


def make_inputs(D: int, L: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": 0.5 + 0.5 * torch.rand((D, L), device=device, generator=g),
            "b": torch.randn((D, L), device=device, generator=g)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """h[d, t] = a[d, t] * h[d, t - 1] + b[d, t], fp32 [D, L]; one program per 16 channels."""
    import torch
    a, b = inputs["a"], inputs["b"]
    h = torch.full_like(a, float("nan"))
    linear_scan[(a.shape[0] // 16,)](a, b, h, a.shape[1], BLOCK_L=256, BLOCK_D=16,
                                     num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return h


def reference(inputs: dict[str, Any]) -> Any:
    """The recurrence in double, one step at a time."""
    import torch
    a, b = inputs["a"].double(), inputs["b"].double()
    h = torch.empty_like(a)
    carry = torch.zeros(a.shape[0], dtype=a.dtype, device=a.device)
    for t in range(a.shape[1]):
        carry = a[:, t] * carry + b[:, t]
        h[:, t] = carry
    return h
