"""vLLM's gated group norm forward, ``_layer_norm_fwd_1pass_kernel`` (vllm/model_executor/layers/mamba/ops/
layernorm_gated.py, from Tri Dao's / FLA's layernorm_gated, used by Mamba2's and the GDN models' gated norms), with
the row's group walked in BLOCK_N chunks instead of one BLOCK_N >= group_size tile, so that it has loops: grid
(M rows, ngroups); the pointers advanced by ``row * stride + group * N`` as the library does (X, Y, Z, W, B, and
Mean / Rstd by ``group * M``); a first loop accumulating the chunk sums of x and x * x into fp32 vectors, with the
gate applied before the statistics (``HAS_Z and not NORM_BEFORE_GATE``: ``x *= z * tl.sigmoid(z)``, silu of a
second fp16 input), the mean and ``1 / tl.sqrt(var + eps)`` stored per (group, row); a second loop re-reading x and
z, ``(x - mean) * rstd * w + b`` (fp16 weight / bias upcast), the gate re-applied on the input, the masked fp16
store. ``@triton.heuristics`` sets HAS_BIAS / HAS_Z from the pointers; IS_RMS_NORM False, NORM_BEFORE_GATE False
(Mamba2's RMSNormGated default); the group's tail masked (``cols < N``, N a runtime i32). Nothing here is imported
by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK = 1024
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_layer_norm_fwd_1pass_kernel",
    "signature": {"X": "*fp16", "Y": "*fp16", "W": "*fp16", "B": "*fp16", "Z": "*fp16", "Mean": "*fp32",
                  "Rstd": "*fp32", "stride_x_row": "i32", "stride_y_row": "i32", "stride_z_row": "i32",
                  "M": "i32", "N": "i32", "eps": "fp32"},
    "constexprs": {"BLOCK_N": BLOCK, "HAS_BIAS": True, "HAS_Z": True, "NORM_BEFORE_GATE": False,
                   "IS_RMS_NORM": False},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["X", "Y", "W", "B", "Z", "Mean", "Rstd", "stride_x_row", "stride_y_row", "stride_z_row",
                     "M", "N"]}
PROBLEM: dict[str, int] = {"M": 4096, "HIDDEN": 8192, "NGROUPS": 1}
SMALL: dict[str, int] = {"M": 6, "HIDDEN": 2600, "NGROUPS": 2}


@triton.heuristics({"HAS_BIAS": lambda args: args["B"] is not None})
@triton.heuristics({"HAS_Z": lambda args: args["Z"] is not None})
@triton.jit
def _layer_norm_fwd_1pass_kernel(
    X,  # pointer to the input
    Y,  # pointer to the output
    W,  # pointer to the weights
    B,  # pointer to the biases
    Z,  # pointer to the other branch
    Mean,  # pointer to the mean
    Rstd,  # pointer to the 1/std
    stride_x_row,  # how much to increase the pointer when moving by 1 row
    stride_y_row,
    stride_z_row,
    M,  # number of rows in X
    N,  # number of columns in X (the group size)
    eps,  # epsilon to avoid division by zero
    BLOCK_N: tl.constexpr,
    HAS_BIAS: tl.constexpr,
    HAS_Z: tl.constexpr,
    NORM_BEFORE_GATE: tl.constexpr,
    IS_RMS_NORM: tl.constexpr,
):
    # Map the program id to the row of X and Y it should compute.
    row = tl.program_id(0)
    group = tl.program_id(1)
    X += row * stride_x_row + group * N
    Y += row * stride_y_row + group * N
    if HAS_Z:
        Z += row * stride_z_row + group * N
    if not IS_RMS_NORM:
        Mean += group * M
    Rstd += group * M
    W += group * N
    if HAS_BIAS:
        B += group * N
    # twill corpus rendition: the statistics over the group in BLOCK_N chunks
    sum_x = tl.zeros([BLOCK_N], dtype=tl.float32)
    sum_xx = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        if HAS_Z and not NORM_BEFORE_GATE:
            z = tl.load(Z + cols, mask=cols < N).to(tl.float32)
            x *= z * tl.sigmoid(z)
        if not IS_RMS_NORM:
            sum_x += x
        sum_xx += tl.where(cols < N, x * x, 0.0)
    if not IS_RMS_NORM:
        mean = tl.sum(sum_x, axis=0) / N
        tl.store(Mean + row, mean)
        var = tl.sum(sum_xx, axis=0) / N - mean * mean
    else:
        var = tl.sum(sum_xx, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Rstd + row, rstd)
    # Normalize and apply linear transformation, chunk by chunk
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < N
        w = tl.load(W + cols, mask=mask).to(tl.float32)
        if HAS_BIAS:
            b = tl.load(B + cols, mask=mask).to(tl.float32)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        if HAS_Z and not NORM_BEFORE_GATE:
            z = tl.load(Z + cols, mask=mask).to(tl.float32)
            x *= z * tl.sigmoid(z)
        x_hat = (x - mean) * rstd if not IS_RMS_NORM else x * rstd
        y = x_hat * w + b if HAS_BIAS else x_hat * w
        if HAS_Z and NORM_BEFORE_GATE:
            z = tl.load(Z + cols, mask=mask).to(tl.float32)
            y *= z * tl.sigmoid(z)
        # Write output
        tl.store(Y + cols, y, mask=mask)


def make_inputs(M: int, HIDDEN: int, NGROUPS: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((M, HIDDEN), device=device, generator=g) * 2.0 + 0.5).half()
    z = torch.randn((M, HIDDEN), device=device, generator=g).half()
    w = (1.0 + 0.1 * torch.randn((HIDDEN,), device=device, generator=g)).half()
    b = (0.1 * torch.randn((HIDDEN,), device=device, generator=g)).half()
    return {"x": x, "z": z, "weight": w, "bias": b, "group_size": HIDDEN // NGROUPS}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """layer_norm_fwd's launch (norm_before_gate=False): [y flattened, mean, rstd] in fp32."""
    import torch
    x, z, weight, bias = inputs["x"], inputs["z"], inputs["weight"], inputs["bias"]
    M, N = x.shape
    group_size = inputs["group_size"]
    ngroups = N // group_size
    out = torch.empty_like(x)
    mean = torch.empty((ngroups * M,), dtype=torch.float32, device=x.device)
    rstd = torch.empty((ngroups * M,), dtype=torch.float32, device=x.device)
    _layer_norm_fwd_1pass_kernel[(M, ngroups)](x, out, weight, bias, z, mean, rstd, x.stride(0), out.stride(0),
                                              z.stride(0), M, group_size, 1e-5, BLOCK_N=BLOCK,
                                              NORM_BEFORE_GATE=False, IS_RMS_NORM=False,
                                              num_warps=config.get("num_warps", 4),
                                              num_stages=config.get("num_stages", 3))
    return torch.cat([out.float().flatten(), mean, rstd])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, z = inputs["x"].double(), inputs["z"].double()
    w, b = inputs["weight"].double(), inputs["bias"].double()
    M, N = x.shape
    gs = inputs["group_size"]
    x = x * z * torch.sigmoid(z)
    xg = x.view(M, N // gs, gs)
    mean = xg.mean(-1, keepdim=True)
    var = ((xg - mean) ** 2).mean(-1, keepdim=True)
    rstd = 1.0 / torch.sqrt(var + 1e-5)
    y = ((xg - mean) * rstd).view(M, N) * w + b
    return torch.cat([y.half().double().flatten(), mean.squeeze(-1).t().flatten(), rstd.squeeze(-1).t().flatten()])
