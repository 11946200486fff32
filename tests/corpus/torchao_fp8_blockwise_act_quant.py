"""torchao's blockwise FP8 activation quantisation (`triton_fp8_blockwise_act_quant_lhs_kernel`,
torchao/prototype/blockwise_fp8_training/kernels.py, DeepSeek-V3 style 1 x 128 blocks) with the K blocks walked in a
loop inside each program (torchao launches one program per (row group, K block); here a program takes NUM_GROUPS
rows and loops over all K // 128 blocks): `K: tl.constexpr`, strided 2D loads with row and column masks, per-row
amax of each 1 x 128 block with `tl.clamp(..., min=EPS, max=float("inf")).to(tl.float64)`, scale = 448 / amax cast
back to fp32, `tl.clamp(y, -448, 448).to(y_ptr.dtype.element_ty)` (float8_e4m3fn), the reciprocal scale stored with
`tl.reshape(..., (NUM_GROUPS, 1))` into a column-major [M, K // 128] scale tensor (`as_strided((M, K//128), (1, M))`,
as torchao lays it out for the GEMM's A scales). bf16 in."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

EPS = 1e-12
TWILL_SPEC: dict[str, Any] = {
    "kernel": "triton_fp8_blockwise_act_quant_lhs_kernel",
    "signature": {"x_ptr": "*bf16", "x_stride_dim_0": "i32", "x_stride_dim_1": "constexpr",
                  "y_ptr": "*fp8e4nv", "y_stride_dim_0": "i32", "y_stride_dim_1": "constexpr",
                  "s_ptr": "*fp32", "s_stride_dim_0": "constexpr", "s_stride_dim_1": "i32",
                  "M": "i32", "K": "constexpr"},
    "constexprs": {"x_stride_dim_1": 1, "y_stride_dim_1": 1, "s_stride_dim_0": 1, "K": 7168, "BLOCK_SIZE": 128,
                   "NUM_GROUPS": 32, "EPS": EPS},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["x_ptr", "y_ptr", "s_ptr", "x_stride_dim_0", "y_stride_dim_0", "s_stride_dim_1", "M"]}
PROBLEM: dict[str, int] = {"M": 8192, "K": 7168}      # DeepSeek-V3 hidden size
SMALL: dict[str, int] = {"M": 37, "K": 7168}          # K is a constexpr; M ragged (37 rows: a partial row group)


@triton.jit
def triton_fp8_blockwise_act_quant_lhs_kernel(
    x_ptr,
    x_stride_dim_0,
    x_stride_dim_1,
    y_ptr,
    y_stride_dim_0,
    y_stride_dim_1,
    s_ptr,
    s_stride_dim_0,
    s_stride_dim_1,
    M,
    K: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    NUM_GROUPS: tl.constexpr,
    EPS: tl.constexpr,
):
    # This kernel works on a group of NUM_GROUPS rows, 1 x BLOCK_SIZE columns at a time
    pid_m = tl.program_id(axis=0)
    m_offs = pid_m * NUM_GROUPS + tl.arange(0, NUM_GROUPS)
    for pid_k in tl.range(0, tl.cdiv(K, BLOCK_SIZE)):
        k_offs = pid_k * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        x_offs = m_offs[:, None] * x_stride_dim_0 + k_offs[None, :] * x_stride_dim_1
        x_mask = (m_offs[:, None] < M) & (k_offs[None, :] < K)
        x = tl.load(x_ptr + x_offs, mask=x_mask)

        # Perform scaling
        amax = tl.clamp(tl.max(tl.abs(x), axis=1), min=EPS, max=float("inf")).to(tl.float64)
        scale = (448.0 / amax).to(tl.float32)
        y = x * scale[:, None]
        y = tl.clamp(y, min=-448.0, max=448.0).to(y_ptr.dtype.element_ty)

        # Write output to column major format
        y_offs = m_offs[:, None] * y_stride_dim_0 + k_offs[None, :] * y_stride_dim_1
        y_mask = (m_offs[:, None] < M) & (k_offs[None, :] < K)
        tl.store(y_ptr + y_offs, y, mask=y_mask)

        # Write reciprocal scales
        reciprocal_scale = 1.0 / scale
        s_offs = m_offs[:, None] * s_stride_dim_0 + pid_k * s_stride_dim_1
        s_mask = m_offs[:, None] < M
        tl.store(s_ptr + s_offs, tl.reshape(reciprocal_scale, (NUM_GROUPS, 1)), mask=s_mask)


def make_inputs(M: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=g)
    x = x * (torch.rand((M, K // 128, 1), device=device, generator=g) * 8).repeat_interleave(128, -1).view(M, K)
    return {"x": x.bfloat16()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """triton_fp8_blockwise_act_quant_lhs(x, block_size=128): (y float8_e4m3fn [M, K] as fp32, s fp32 [M, K // 128]
    column-major, the reciprocal scales)."""
    import torch
    x = inputs["x"]
    block_size = 128
    dtype = torch.float8_e4m3fn
    assert x.is_contiguous(), "Input tensor must be contiguous"
    assert x.size(-1) % block_size == 0, (
        f"Last dimension size must be divisible by block_size (block_size={block_size})"
    )
    assert dtype in [torch.float8_e4m3fn], "dtype must be torch.float8_e4m3fn"
    M, K = x.size()
    y = torch.empty_like(x, dtype=dtype)
    # Write scales to column-major format to align with torch._scaled_mm requirements.
    s = x.new_empty(M, K // block_size, dtype=torch.float32).as_strided(
        (M, K // block_size),  # shape
        (1, M),  # stride
    )
    NUM_GROUPS = 32
    grid = lambda meta: (triton.cdiv(M, meta["NUM_GROUPS"]),)
    triton_fp8_blockwise_act_quant_lhs_kernel[grid](
        x, x.stride(0), x.stride(1),
        y, y.stride(0), y.stride(1),
        s, s.stride(0), s.stride(1),
        M, K=K, BLOCK_SIZE=block_size, NUM_GROUPS=NUM_GROUPS, EPS=EPS,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2),
    )
    return y.float(), s


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x = inputs["x"].float()
    M, K = x.shape
    xb = x.view(M, K // 128, 128)
    amax = xb.abs().amax(-1).clamp(min=EPS).double()
    scale = (448.0 / amax).float()
    y = (xb * scale[..., None]).clamp(-448.0, 448.0).to(torch.float8_e4m3fn).view(M, K)
    return y.float(), 1.0 / scale


def bytes_moved(M: int, K: int) -> float:
    return 3.0 * M * K + 4.0 * M * K / 128
