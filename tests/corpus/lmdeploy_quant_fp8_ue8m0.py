"""LMDeploy's per-token-group fp8 activation quantiser, ``_quant_fp8_kernel`` (InternLM/lmdeploy
lmdeploy/pytorch/kernels/cuda/blocked_gemm_fp8.py, launched by ``_quant_fp8_launcher`` from ``quant_fp8`` /
``per_token_group_quant_fp8`` before the blocked fp8 GEMM / DeepGEMM), here with ``scale_fmt='ue8m0'``
(``ROUND_SCALE=1``: each group's scale rounded up to a power of two, as DeepGEMM's UE8M0 scales want).

The constructs: a 2-D grid whose axis 0 picks ``num_groups_per_cta`` groups of 128 columns and whose axis 1 is a
**grid-stride loop over rows** ``for m_id in tl.range(m_id_start, M_out, m_id_stride, num_stages=NUM_STAGES)``
(``m_id_stride = tl.num_programs(1)``, the start a program id; ``M``/``M_out`` under ``do_not_specialize``), with
three **pointer carries** advanced by ``m_id_stride * stride`` at the end of each iteration (the row index itself
only feeds the mask ``m_id < M``); constexpr-chosen masks (``if K % GROUP_SIZE_CTA == 0: mask_n = True`` — Python
bools as masks — else compares); ``tl.max_contiguous(tl.multiple_of(...))`` on the column offsets; per iteration a
bf16 [512] row chunk **reshaped to [4, 128]**, its groups' ``tl.max(tl.abs(a), axis=1)``, a power-of-two scale
built by **bit tricks** (``fast_log2_ceil``: ``tl.cast(x, tl.uint32, bitcast=True)``, exponent/mantissa fields;
``fast_pow2``: ``(x + 127) << 23`` bitcast back to fp32), ``tl.clamp`` to the e4m3 range, a cast to the **output
pointer's fp8 element type**, the tile reshaped back and **two stores per iteration** (the fp8 chunk and the [4]
scales). DeepSeek-V3 shapes: 4096 tokens of hidden 7168 in bf16, group 128; the launcher's H100 grid (14 x 301
programs, 2 warps, num_stages = NUM_STAGES = 4). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

GROUP, N_SM, WARPS_PER_SM, BLOCKS_PER_SM = 128, 132, 64, 32    # an H100's get_device_props
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_quant_fp8_kernel",
    "signature": {"a_ptr": "*bf16", "out_ptr": "*fp8e4nv", "scale_ptr": "*fp32", "M": "i32", "M_out": "i32",
                  "stride_am": "i32", "stride_om": "i32", "stride_sm": "i32", "stride_sg": "constexpr"},
    "constexprs": {"K": 7168, "num_groups_per_cta": 4, "fp8_min": -448.0, "fp8_max": 448.0, "stride_ak": 1,
                   "stride_ok": 1, "stride_sg": 1, "ROUND_SCALE": 1, "GROUP_SIZE": GROUP, "NUM_STAGES": 4},
    "num_warps": 2, "num_stages": 4,
    # stride_sm is 56 (the scale row), not 16-divisible; M and M_out are do_not_specialize
    "divisibility": ["stride_am", "stride_om"]}
PROBLEM: dict[str, int] = {"M": 4096, "K": 7168}
SMALL: dict[str, int] = {"M": 4500, "K": 512}


@triton.jit
def fast_log2_ceil(x):
    bits_x = tl.cast(x, tl.uint32, bitcast=True)
    exp_x = (bits_x >> 23) & 0xFF
    man_bits = bits_x & ((1 << 23) - 1)
    tmp = exp_x - 127 + tl.where(man_bits != 0, 1, 0)
    return tl.cast(tmp, tl.int32)


@triton.jit
def fast_pow2(x):
    bits_x = (x + 127) << 23
    return tl.cast(bits_x, tl.float32, bitcast=True)


@triton.jit
def fast_round_scale(amax, fp8_max_inv):
    return fast_pow2(fast_log2_ceil(amax * fp8_max_inv))


@triton.jit(do_not_specialize=['M', 'M_out'])
def _quant_fp8_kernel(
    a_ptr,
    out_ptr,
    scale_ptr,
    M,
    M_out,
    K: tl.constexpr,
    num_groups_per_cta: tl.constexpr,
    fp8_min: tl.constexpr,
    fp8_max: tl.constexpr,
    stride_am,
    stride_ak: tl.constexpr,
    stride_om,
    stride_ok: tl.constexpr,
    stride_sm,
    stride_sg,
    ROUND_SCALE: tl.constexpr,
    GROUP_SIZE: tl.constexpr,
    NUM_STAGES: tl.constexpr,
):
    """Quant fp8 kernel."""
    group_id = tl.program_id(0) * num_groups_per_cta
    m_id_start = tl.program_id(1)
    m_id_stride = tl.num_programs(1)

    GROUP_SIZE_CTA: tl.constexpr = GROUP_SIZE * num_groups_per_cta
    g_offs = group_id * GROUP_SIZE + tl.arange(0, GROUP_SIZE_CTA)
    g_offs = tl.max_contiguous(tl.multiple_of(g_offs, GROUP_SIZE), GROUP_SIZE)
    gs_offs = group_id + tl.arange(0, num_groups_per_cta)
    rfp8_max = 1 / fp8_max

    m_id = m_id_start
    a_ptrs = a_ptr + m_id * stride_am + g_offs * stride_ak
    o_ptrs = out_ptr + m_id * stride_om + g_offs * stride_ok
    s_ptr = scale_ptr + m_id * stride_sm + gs_offs * stride_sg
    if K % GROUP_SIZE_CTA == 0:
        mask_n = True
        mask_s = True
        mask_o = True
    else:
        mask_n = g_offs < K
        mask_o = g_offs < K
        mask_s = gs_offs < tl.cdiv(K, GROUP_SIZE)

    for m_id in tl.range(m_id_start, M_out, m_id_stride, num_stages=NUM_STAGES):
        a = tl.load(a_ptrs, mask=mask_n & (m_id < M), other=0)
        a = a.reshape(num_groups_per_cta, GROUP_SIZE)
        a_max = tl.max(tl.abs(a), axis=1)
        a_max = tl.maximum(a_max, 1e-6).to(tl.float32)
        if ROUND_SCALE == 1:
            scale = fast_round_scale(a_max, rfp8_max)
            rscale = 1 / scale
        else:
            scale = a_max * rfp8_max
            rscale = fp8_max / a_max  # triton does not support rcp
        out = a.to(tl.float32) * rscale[:, None]

        out = tl.clamp(out, fp8_min, fp8_max)
        out = out.to(out_ptr.dtype.element_ty)
        out = out.reshape(GROUP_SIZE * num_groups_per_cta)
        tl.store(o_ptrs, out, mask=mask_o)
        tl.store(s_ptr, scale, mask=mask_s)

        a_ptrs += m_id_stride * stride_am
        o_ptrs += m_id_stride * stride_om
        s_ptr += m_id_stride * stride_sm


def make_inputs(M: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A [M, K] bf16 activations (randn with a per-row scale spanning 2^-6..2^6, a few rows all zero)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g)
    a = a * torch.exp2(torch.randint(-6, 7, (M, 1), device=device, generator=g).float())
    a[::97] = 0.0
    return {"a": a.bfloat16()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(out [M, K] fp8e4nv as fp32, scales [M, K / 128] fp32), as ``quant_fp8(A, 128, scale_fmt='ue8m0')``."""
    import torch
    A = inputs["a"]
    group_size = GROUP
    M, K = A.shape
    out = torch.empty_like(A, dtype=torch.float8_e4m3fn)
    scales = A.new_empty(M, K // group_size, dtype=torch.float32)
    M_out = out.size(0)
    finfo = torch.finfo(out.dtype)
    num_warps = 2
    elem_size = A.element_size()
    num_groups_per_warp = 512 // (group_size * elem_size)
    num_groups_per_cta = num_groups_per_warp * num_warps
    grid_size0 = triton.cdiv(K, group_size * num_groups_per_cta)
    max_ctas = N_SM * min(BLOCKS_PER_SM, WARPS_PER_SM // num_warps)
    grid_size1 = min(M_out, max_ctas // grid_size0)
    num_stages = min(4, max(1, triton.cdiv(M_out, grid_size1)))
    _quant_fp8_kernel[(grid_size0, grid_size1)](
        A, out, scales, M, M_out, K, num_groups_per_cta=num_groups_per_cta, fp8_min=finfo.min, fp8_max=finfo.max,
        stride_am=A.stride(0), stride_ak=A.stride(1), stride_om=out.stride(0), stride_ok=out.stride(1),
        stride_sm=scales.stride(0), stride_sg=scales.stride(1), ROUND_SCALE=1, GROUP_SIZE=group_size,
        NUM_STAGES=num_stages, num_warps=num_warps, num_stages=num_stages)
    return out.float(), scales


def reference(inputs: dict[str, Any]) -> Any:
    """Per group of 128: amax = max(|a|, 1e-6); scale = 2^ceil(log2(amax / 448)) (exponent bits, +1 unless the
    mantissa is 0); out = e4m3(clamp(a * (1 / scale), -448, 448))."""
    import torch
    a = inputs["a"].float()
    M, K = a.shape
    g = a.view(M, K // GROUP, GROUP)
    amax = g.abs().amax(-1).clamp_min(1e-6)
    x = amax * torch.tensor(1 / 448.0, dtype=torch.float32)
    bits = x.view(torch.int32)
    e = ((bits >> 23) & 0xFF) - 127 + ((bits & ((1 << 23) - 1)) != 0).to(torch.int32)
    scale = ((e + 127) << 23).view(torch.float32)
    out = (g * (1 / scale)[..., None]).clamp(-448.0, 448.0).to(torch.float8_e4m3fn).float()
    return out.view(M, K), scale


def flops(M: int, K: int) -> float:
    """An abs, a max, a multiply and a clamp an element: 4 * M * K (memory-bound)."""
    return 4.0 * M * K
