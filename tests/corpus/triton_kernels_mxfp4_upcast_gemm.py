"""A 16-bit x MXFP4 weight GEMM that upcasts the weight in software inside the K loop, as triton_kernels does on
GPUs without a native FP4 dot (python/triton_kernels/triton_kernels/numerics_details/mxfp_details/
_upcast_from_mxfp.py: its e2m1 -> fp16 bit arithmetic and E8M0 scale, here a @triton.jit helper called in the loop of
a grouped-order GEMM, rewritten). The weight W [N, K] is stored contiguous in K as triton_kernels requires: two e2m1
values a byte ([N, K // 2] uint8, the even K element in the low nibble) and one E8M0 exponent a 32-element block
([N, K // 32] uint8). The constructs, all in the K loop: uint8 tiles split into nibbles by masks (``& 0x07``,
``& 0x70``, ``& 0x08``, ``& 0x80``), widened to uint16 and shifted into fp16's exponent / mantissa fields, the bias
corrected and the subnormal 0b001 mapped to 0.5 by ``tl.where`` on the nibble, the two halves put back in K order by
``tl.interleave`` (``tt.join`` + ``tt.reshape``) and bitcast to fp16 (``.to(tl.float16, bitcast=True)``); the
scale made by ``(scale.to(tl.uint32) << 23).to(tl.float32, bitcast=True)``, then fp16; the weight tile reshaped to
[BLOCK_N, BLOCK_K // 32, 32] to broadcast the [BLOCK_N, BLOCK_K // 32, 1] scales, NaN where a scale is 0xFF, reshaped
back; ``tl.dot(a, tl.trans(w), acc)``. ``tl.static_assert`` on the block sizes and the pointer element types (the block arithmetic written with 32 where
triton_kernels writes its ``MXFP_BLOCK_SIZE`` constexpr global: the interpreter cannot take ``int % constexpr``).
fp16 activations and output where triton_kernels runs bf16 (Triton's interpreter mishandles bf16); 128 x 128 x 64
tiles, 8 warps, 3 stages. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

MXFP_BLOCK_SIZE = tl.constexpr(32)
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_matmul_a16_mxfp4_upcast",
    "signature": {"a_ptr": "*fp16", "w_ptr": "*u8", "w_scale_ptr": "*u8", "c_ptr": "*fp16",
                  "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_wn": "i32", "stride_wk": "constexpr",
                  "stride_sn": "i32", "stride_sk": "constexpr", "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_wk": 1, "stride_sk": 1, "stride_cn": 1,
                   "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["a_ptr", "w_ptr", "w_scale_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_wn",
                     "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 5760, "K": 2880}     # gpt-oss-120b's MoE up-projection shape, dense
SMALL: dict[str, int] = {"M": 200, "N": 272, "K": 224}          # partial tiles in M and N; K a multiple of 32, not 64


@triton.jit
def _upcast_mxfp4(tensor, scale, dst_dtype: tl.constexpr, BLOCK_OUT: tl.constexpr, BLOCK_QUANT: tl.constexpr):
    """[BLOCK_OUT, BLOCK_QUANT // 2] uint8 (two e2m1 along the quantised dim) and [BLOCK_OUT, BLOCK_QUANT // 32]
    uint8 E8M0 scales -> [BLOCK_OUT, BLOCK_QUANT] dst_dtype, triton_kernels' bit arithmetic."""
    tl.static_assert(tensor.dtype == tl.uint8, "uint8 signifies two fp4 e2m1 values packed into a single byte")
    tl.static_assert(scale.dtype == tl.uint8, "mx_scale_ptr must be uint8")
    BLOCK_SCALE: tl.constexpr = BLOCK_QUANT // 32
    # Upcast the scale to the destination type.
    if dst_dtype == tl.bfloat16:
        dst_scale = (scale.to(tl.uint16) << 7).to(dst_dtype, bitcast=True)
    else:
        dst_scale = (scale.to(tl.uint32) << 23).to(tl.float32, bitcast=True)
        if dst_dtype == tl.float16:
            dst_scale = dst_scale.to(tl.float16)
    intermediate_dtype: tl.constexpr = tl.bfloat16 if dst_dtype == tl.float32 else dst_dtype
    dst_bias: tl.constexpr = 127 if intermediate_dtype == tl.bfloat16 else 15
    dst_0p5: tl.constexpr = 16128 if intermediate_dtype == tl.bfloat16 else 0x3800
    dst_m_bits: tl.constexpr = 7 if intermediate_dtype == tl.bfloat16 else 10
    # e2m1
    em0 = tensor & 0x07
    em1 = tensor & 0x70
    x0 = (em0.to(tl.uint16) << (dst_m_bits - 1)) | ((tensor & 0x08).to(tl.uint16) << 12)
    x1 = (em1.to(tl.uint16) << (dst_m_bits - 5)) | ((tensor & 0x80).to(tl.uint16) << 8)
    # Three cases:
    # 1) x is normal and non-zero: Correct bias
    x0 = tl.where((em0 & 0x06) != 0, x0 + ((dst_bias - 1) << dst_m_bits), x0)
    x1 = tl.where((em1 & 0x60) != 0, x1 + ((dst_bias - 1) << dst_m_bits), x1)
    # 2) x is subnormal (x == 0bs001 where s is the sign): Map to +-0.5 in the dst type
    x0 = tl.where(em0 == 0x01, dst_0p5 | (x0 & 0x8000), x0)
    x1 = tl.where(em1 == 0x10, dst_0p5 | (x1 & 0x8000), x1)
    # 3) x is zero, do nothing
    dst_tensor = tl.interleave(x0, x1).to(intermediate_dtype, bitcast=True)
    dst_tensor = dst_tensor.to(dst_dtype)
    # Reshape for proper broadcasting: the scale was stored with a 32-sized "inner" grouping.
    dst_tensor = dst_tensor.reshape([BLOCK_OUT, BLOCK_SCALE, MXFP_BLOCK_SIZE])
    dst_scale = dst_scale.reshape([BLOCK_OUT, BLOCK_SCALE, 1])
    scale = scale.reshape(dst_scale.shape)
    out_tensor = dst_tensor * dst_scale
    # Correct any NaNs encoded via the scale.
    out_tensor = tl.where(scale == 0xFF, float("nan"), out_tensor)
    return out_tensor.reshape([BLOCK_OUT, BLOCK_QUANT])


@triton.jit
def _matmul_a16_mxfp4_upcast(a_ptr, w_ptr, w_scale_ptr, c_ptr, M, N, K,
                             stride_am, stride_ak, stride_wn, stride_wk, stride_sn, stride_sk, stride_cm, stride_cn,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                             GROUP_M: tl.constexpr):
    tl.static_assert(stride_wk == 1, "the weight must be contiguous in the k dimension for mx")
    tl.static_assert(BLOCK_K % 32 == 0, "BLOCK_K must be a multiple of 32")
    W_PACKED_BLOCK_K: tl.constexpr = BLOCK_K // 2
    SCALE_BLOCK_K: tl.constexpr = BLOCK_K // 32
    pid = tl.program_id(0)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // group_size

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_am = tl.max_contiguous(tl.multiple_of(offs_m % M, BLOCK_M), BLOCK_M)
    offs_wn = tl.max_contiguous(tl.multiple_of(offs_n % N, BLOCK_N), BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    offs_wk = tl.arange(0, W_PACKED_BLOCK_K)
    offs_sk = tl.arange(0, SCALE_BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    w_ptrs = w_ptr + offs_wn[:, None] * stride_wn + offs_wk[None, :] * stride_wk
    s_ptrs = w_scale_ptr + offs_wn[:, None] * stride_sn + offs_sk[None, :] * stride_sk

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=offs_k[None, :] < k_left, other=0.0)
        w = tl.load(w_ptrs, mask=offs_wk[None, :] < k_left // 2, other=0)
        w_scale = tl.load(s_ptrs, mask=offs_sk[None, :] < k_left // 32, other=0)
        w = _upcast_mxfp4(w, w_scale, a_ptr.dtype.element_ty, BLOCK_N, BLOCK_K)
        acc = tl.dot(a, tl.trans(w), acc)
        a_ptrs += BLOCK_K * stride_ak
        w_ptrs += W_PACKED_BLOCK_K * stride_wk
        s_ptrs += SCALE_BLOCK_K * stride_sk

    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


E2M1 = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A fp16 [M, K]; W as random e2m1 codes [N, K] (both signs, every code) packed two a byte along K (low nibble the
    even element) and E8M0 exponents [N, K // 32] in 2^-6 .. 2^2 (a scale of 0xFF is NaN)."""
    import torch
    assert K % 32 == 0
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).half()
    codes = torch.randint(0, 16, (N, K), device=device, generator=g, dtype=torch.int32)
    packed = (codes[:, 0::2] | (codes[:, 1::2] << 4)).to(torch.uint8)
    scales = torch.randint(127 - 6, 127 + 3, (N, K // 32), device=device, generator=g, dtype=torch.int32)
    return {"a": a, "w": packed.contiguous(), "w_scale": scales.to(torch.uint8).contiguous(), "codes": codes,
            "scale_exp": scales}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """A @ W^T with W the upcast MXFP4 weight, fp16 [M, N]."""
    import torch
    a, w, w_scale = inputs["a"], inputs["w"], inputs["w_scale"]
    M, K = a.shape
    N = w.shape[0]
    assert w.shape[1] * 2 == K and w_scale.shape[1] * 32 == K and w.stride(1) == 1
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    BM, BN, BK = config.get("BLOCK_M", 128), config.get("BLOCK_N", 128), config.get("BLOCK_K", 64)
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    _matmul_a16_mxfp4_upcast[grid](
        a, w, w_scale, c, M, N, K, a.stride(0), a.stride(1), w.stride(0), w.stride(1), w_scale.stride(0),
        w_scale.stride(1), c.stride(0), c.stride(1), BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, GROUP_M=8,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    """float64: each code looked up in the e2m1 table (bit 3 the sign), times 2^(exponent - 127) of its block."""
    import torch
    codes = inputs["codes"]
    lut = torch.tensor(E2M1, dtype=torch.float64, device=codes.device)
    w = lut[codes & 7] * torch.where(codes >= 8, -1.0, 1.0).double()
    w = w * torch.exp2(inputs["scale_exp"].double() - 127).repeat_interleave(32, dim=1)
    return inputs["a"].double() @ w.t()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
