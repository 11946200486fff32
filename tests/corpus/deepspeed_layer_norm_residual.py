"""DeepSpeed's inference LayerNorm with a fused residual add (``layer_norm_residual_kernel``), from
microsoft/DeepSpeed ``deepspeed/ops/transformer/inference/triton/layer_norm.py`` (itself the Triton tutorial 05
kernel, modified). One row per program, three ``for off in range(0, N, BLOCK_SIZE)`` loops: the first adds the
residual to the input, *stores the sum to the ``ln_input`` scratch row in global memory* and accumulates the mean;
the second and third *load that row back* (a store -> load dependence through global memory across sibling loops)
for the variance (``tl.where(cols < N, a - mean, 0.0)``) and the normalised, weighted output. fp16 in and out,
fp32 statistics (``.to(tl.float32)``), a Python ``mean = 0`` rebound after the loop, ``1 / tl.sqrt``. BLOCK_SIZE and
num_warps follow ``layer_norm_residual`` (8192 when N > 4096, num_warps = min(max(BLOCK_SIZE // 256, 1), 8))."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {"kernel": "layer_norm_residual_kernel",
                              "signature": {"Out": "*fp16", "A": "*fp16", "Residual": "*fp16", "ln_input": "*fp16",
                                            "Weight": "*fp16", "Bias": "*fp16", "stride": "i32", "N": "i32",
                                            "eps": "fp32"},
                              "constexprs": {"BLOCK_SIZE": 8192}, "num_warps": 8, "num_stages": 3,
                              "divisibility": ["Out", "A", "Residual", "ln_input", "Weight", "Bias", "stride", "N"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 12288}
SMALL: dict[str, int] = {"M": 3, "N": 9000}
EPS = 1e-5


@triton.jit
def layer_norm_residual_kernel(
    Out,
    A,
    Residual,
    ln_input,
    Weight,
    Bias,
    stride,
    N,
    eps,
    BLOCK_SIZE: tl.constexpr,
):
    # position of elements processed by this program
    row = tl.program_id(0)
    Out += row * stride
    A += row * stride
    Residual += row * stride
    ln_input += row * stride
    # compute mean
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(A + cols, mask=cols < N, other=0.0).to(tl.float32)
        res = tl.load(Residual + cols, mask=cols < N, other=0.0).to(tl.float32)
        a = a + res
        tl.store(ln_input + cols, a, mask=cols < N)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    # compute variance
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(ln_input + cols, mask=cols < N, other=0.0).to(tl.float32)
        a = tl.where(cols < N, a - mean, 0.0)
        _var += a * a
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    # multiply by weight and add bias
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        weight = tl.load(Weight + cols, mask=mask)
        bias = tl.load(Bias + cols, mask=mask)
        a = tl.load(ln_input + cols, mask=mask, other=0.0).to(tl.float32)
        a_hat = (a - mean) * rstd
        out = a_hat * weight + bias
        # write-back
        tl.store(Out + cols, out, mask=mask)


def make_inputs(M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, N), device=device, generator=g).to(torch.float16)
    residual = torch.randn((M, N), device=device, generator=g).to(torch.float16)
    weight = (1 + 0.1 * torch.randn((N,), device=device, generator=g)).to(torch.float16)
    bias = (0.1 * torch.randn((N,), device=device, generator=g)).to(torch.float16)
    return {"a": a, "residual": residual, "weight": weight, "bias": bias}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(out, ln_input) as ``layer_norm_residual`` (input_bias None) computes them."""
    import torch
    a, residual, weight, bias = inputs["a"], inputs["residual"], inputs["weight"], inputs["bias"]
    out = torch.empty_like(a)
    ln_input = torch.empty_like(a)
    a_arg = a.view(-1, a.shape[-1])
    residual = residual.view(-1, residual.shape[-1])
    M, N = a_arg.shape
    MAX_FUSED_SIZE = 65536 // a.element_size()
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
    BLOCK_SIZE = max(BLOCK_SIZE, 128)
    BLOCK_SIZE = min(BLOCK_SIZE, 4096)
    BLOCK_SIZE = BLOCK_SIZE if N <= 4096 else 8192
    num_warps = min(max(BLOCK_SIZE // 256, 1), 8)
    layer_norm_residual_kernel[(M,)](out, a_arg, residual, ln_input, weight, bias, a_arg.stride(0), N, EPS,
                                     BLOCK_SIZE=config.get("BLOCK_SIZE", BLOCK_SIZE),
                                     num_warps=config.get("num_warps", num_warps),
                                     num_stages=config.get("num_stages", 3))
    return out, ln_input


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["a"].double() + inputs["residual"].double()
    y = torch.nn.functional.layer_norm(x, (x.shape[-1],), inputs["weight"].double(), inputs["bias"].double(), EPS)
    return y, x


def flops(M: int, N: int) -> float:
    return 8.0 * M * N
