"""FlashInfer's Triton RMSNorm, ``rms_norm_kernel`` (flashinfer-ai/flashinfer flashinfer/triton/kernels/norm.py, with its
``scale_and_clamp`` helper from flashinfer/triton/kernels/quant.py), launched as flashinfer/triton/norm.py's
``rms_norm_add_residual`` does (grid (b,), BLOCK_SIZE = next_power_of_2(n), num_warps = min(32, cdiv(BLOCK_SIZE,
32))), here with a residual, an fp8 output and an output scale: ``HAS_RESIDUAL``, ``HAS_OUTPUT`` and
``HAS_OUT_SCALE`` True, ``HAS_IN_SCALE`` False (``x_scale_ptr`` None).

The constructs: the row index ``tl.program_id(0).to(tl.int64)``; pointers chosen by constexpr conditional
expressions (``o_ptr + i * o_stride if HAS_OUTPUT else x_row``, ``r_row = ... if HAS_RESIDUAL else None``) and a
scalar ``tl.load(o_scale_ptr) if HAS_OUT_SCALE else None``; **two loops in sequence over the row**
(``for off in range(0, n, BLOCK_SIZE)``, runtime bound, masked tail): the first adds the residual and **stores x + r
back into the residual row inside the loop** (the in-place update), carrying a [BLOCK_SIZE] fp32 sum of squares;
the second **re-reads that residual row** (a read after the first loop's write, through memory), loads the weight
and writes ``scale_and_clamp(w * (x * rms), o_scale, o_row.dtype.element_ty)`` -- a helper whose
``if dtype == tl.float8e4nv: ... elif ...`` chain is resolved at compile time on the output pointer's element type
-- as fp8 e4m3. The library's launcher makes BLOCK_SIZE the whole row, so each loop runs once (Llama-3-8B hidden
4096 in bf16: BLOCK_SIZE 4096, 32 warps); SMALL keeps BLOCK_SIZE 4096 with n = 4000 (a masked tail) and 5 rows. Nothing here is imported by twill; the only
port change is the helper inlined into this file instead of imported from flashinfer."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "rms_norm_kernel",
    "signature": {"n": "i32", "b": "i32", "x_ptr": "*bf16", "x_stride": "i32", "x_scale_ptr": "constexpr",
                  "r_ptr": "*bf16", "r_stride": "i32", "w_ptr": "*bf16", "o_ptr": "*fp8e4nv", "o_stride": "i32",
                  "o_scale_ptr": "*fp32"},
    "constexprs": {"x_scale_ptr": None, "EPS": 1e-6, "BLOCK_SIZE": 4096, "HAS_IN_SCALE": False,
                   "HAS_OUT_SCALE": True, "HAS_OUTPUT": True, "HAS_RESIDUAL": True},
    "num_warps": 32, "num_stages": 3,
    "divisibility": ["n", "x_stride", "r_stride", "o_stride"]}
PROBLEM: dict[str, int] = {"b": 4096, "n": 4096}
SMALL: dict[str, int] = {"b": 5, "n": 4000}


@triton.jit
def scale_and_clamp(x, scale, dtype):
    """Scales a value and clamps it to the range of the target dtype.

    This function hard-wires the upper/lower bounds in order to be
    compatible with both `torch.compile` and `triton.jit`.
    """
    if dtype == tl.float8e4nv:
        clamp_min = -448.0
        clamp_max = 448.0
    elif dtype == tl.float8e5:
        clamp_min = -57344.0
        clamp_max = 57344.0
    elif dtype == tl.float16:
        clamp_min = -65504.0
        clamp_max = 65504.0
    elif dtype == tl.bfloat16:
        clamp_min = -3.3895313892515355e38
        clamp_max = 3.3895313892515355e38
    else:
        tl.static_assert(False, f"Unsupported dtype: {dtype}")

    return tl.clamp(x.to(tl.float32) * scale, clamp_min, clamp_max).to(dtype)


@triton.jit
def rms_norm_kernel(
    n,
    b,
    x_ptr,
    x_stride,
    x_scale_ptr,
    r_ptr,
    r_stride,
    w_ptr,
    o_ptr,
    o_stride,
    o_scale_ptr,
    EPS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    HAS_IN_SCALE: tl.constexpr,
    HAS_OUT_SCALE: tl.constexpr,
    HAS_OUTPUT: tl.constexpr,
    HAS_RESIDUAL: tl.constexpr,
) -> None:
    i = tl.program_id(axis=0).to(tl.int64)

    # If r_ptr is present, the input to norm is x + r.
    x_row = x_ptr + i * x_stride
    o_row = o_ptr + i * o_stride if HAS_OUTPUT else x_row
    r_row = r_ptr + i * r_stride if HAS_RESIDUAL else None

    x_scale = tl.load(x_scale_ptr) if HAS_IN_SCALE else None
    o_scale = tl.load(o_scale_ptr) if HAS_OUT_SCALE else None

    # Find the root mean square for the given row.
    square_sum = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n, BLOCK_SIZE):
        offsets = off + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n

        x = tl.load(x_row + offsets, mask=mask, other=0.0).to(tl.float32)
        if HAS_IN_SCALE:
            x *= x_scale

        if HAS_RESIDUAL:
            r = tl.load(r_row + offsets, mask=mask, other=0.0).to(tl.float32)
            x += r
            tl.store(r_row + offsets, x, mask=mask)

        square_sum += x * x

    # Compute the norm.
    rms = tl.rsqrt(tl.sum(square_sum) / n + EPS)

    # x[i] = r[i] + x[i] / rms * weight[i]
    output_dtype = o_row.dtype.element_ty
    for off in range(0, n, BLOCK_SIZE):
        offsets = off + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n

        if HAS_RESIDUAL:
            x = tl.load(r_row + offsets, mask=mask).to(tl.float32)
        else:
            x = tl.load(x_row + offsets, mask=mask).to(tl.float32)
            if HAS_IN_SCALE:
                x *= x_scale

        w = tl.load(w_ptr + offsets, mask=mask).to(tl.float32)

        # Multiply x with RMS on float32, but cast to the narrower type before
        # multiplying with the weights to replicate the HF behaviour precisely.
        result = w * (x * rms)
        if HAS_OUT_SCALE:
            result = scale_and_clamp(result, o_scale, output_dtype)
        tl.store(o_row + offsets, result, mask=mask)


def make_inputs(b: int, n: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x, residual [b, n] bf16; weight [n] bf16 near 1; the fp8 output's scale (1 / 0.05, a per-tensor static scale)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((b, n), device=device, generator=g).bfloat16()
    r = torch.randn((b, n), device=device, generator=g).bfloat16()
    w = (1.0 + 0.1 * torch.randn((n,), device=device, generator=g)).bfloat16()
    return {"x": x, "residual": r, "weight": w, "out_scale": torch.tensor([20.0], device=device), "eps": 1e-6}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(the updated residual x + r in bf16, the normalised row in fp8 e4m3 read back as fp32), as
    ``rms_norm_add_residual(x, residual, weight, eps, x_out=out_fp8, x_out_scale=out_scale)``."""
    import torch
    x, weight = inputs["x"], inputs["weight"]
    residual = inputs["residual"].clone()
    b, n = x.shape
    x_out = torch.empty((b, n), device=x.device, dtype=torch.float8_e4m3fn)
    block_size = triton.next_power_of_2(n)
    num_warps = min(32, triton.cdiv(block_size, 32))
    rms_norm_kernel[(b,)](
        n=n, b=b, x_ptr=x, x_stride=x.stride(0), x_scale_ptr=None, r_ptr=residual, r_stride=residual.stride(0),
        w_ptr=weight, o_ptr=x_out, o_stride=x_out.stride(0), o_scale_ptr=inputs["out_scale"], EPS=inputs["eps"],
        BLOCK_SIZE=block_size, HAS_IN_SCALE=False, HAS_OUT_SCALE=True, HAS_OUTPUT=True, HAS_RESIDUAL=True,
        num_warps=num_warps)
    return residual, x_out.float()


def reference(inputs: dict[str, Any]) -> Any:
    """r' = bf16(x + r); out = e4m3(clamp(w * (r' * rsqrt(mean(r'^2) + eps)) * scale, +-448))."""
    import torch
    s = inputs["x"].float() + inputs["residual"].float()
    r = s.bfloat16()
    rms = torch.rsqrt((s * s).mean(dim=1, keepdim=True) + inputs["eps"])
    y = inputs["weight"].float() * (r.float() * rms) * inputs["out_scale"].float()
    return r, y.clamp(-448.0, 448.0).to(torch.float8_e4m3fn).float()


def flops(b: int, n: int) -> float:
    """An add, a square-accumulate, three multiplies and a clamp an element: about 7 * b * n."""
    return 7.0 * b * n
