"""GemLite's fused dequantise-and-multiply GEMM (mobiusml/gemlite ``gemlite/triton_kernels/gemm_A16fWnO16f_int32packing
.py``, ``gemm_A16fWnO16f_int32packing_kernel`` with ``utils.py``'s ``swizzle_tile`` and ``dequantize``): fp16
activations times 4-bit weights packed eight to an int32 ALONG K ([K // 8, N]), grouped asymmetric (``W_group_mode
== 3``: ``(b - zeros) * scales``, one scale and zero per group of 128 rows of K per column). The construct: the loop
calls nested ``@triton.jit`` helpers whose behaviour is chosen by constexpr arguments (``dequantize(b, scales,
zeros, q_shift, meta_dtype, unpack_mask, elements_per_sample, W_group_mode, zero_is_scalar)``), ``scales = None`` /
``zeros = None`` bound in untaken constexpr branches and passed on, dtype constexprs (``input_dtype``, ``acc_dtype``,
``meta_dtype``), a float constexpr (``stride_mul: tl.constexpr = BLOCK_SIZE_K / group_size``, 0.5) giving the
group index ``tl.cast(k * stride_mul, tl.int32)`` (GemLite writes ``(k * stride_mul).to(tl.int32)``, which the
interpreter cannot run: its loop index is a Python int there), ``A_load_order`` choosing where in the body A is loaded, the
metadata's ``eviction_policy=meta_evict_policy`` a string constexpr, ``(offs_bk // elements_per_sample)`` packed row
pointers with the nibble shift ``q_shift`` fixed before the loop, ``tl.dot(a, b.to(input_dtype), acc=acc,
out_dtype=acc_dtype, input_precision="tf32")``, and a ``channel_scale_mode`` epilogue. Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

GROUP_SIZE = 128
W_NBITS = 4
ELEMENTS_PER_SAMPLE = 32 // W_NBITS
BM, BN, BK = 128, 128, 64

TWILL_SPEC: dict[str, Any] = {
    "kernel": "gemm_A16fWnO16f_int32packing_kernel",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*i32", "c_ptr": "*fp16", "scales_ptr": "*fp16", "zeros_ptr": "*fp16",
                  "scales_a_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32", "M_CLOSEST": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr", "stride_meta_a_m": "i32", "stride_meta_a_g": "i32",
                  "stride_meta_g": "i32", "stride_meta_n": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "stride_meta_n": 1,
                   "W_nbits": W_NBITS, "group_size": GROUP_SIZE, "unpack_mask": 15,
                   "elements_per_sample": ELEMENTS_PER_SAMPLE, "type_id": 0, "a_sizeof": 2, "b_sizeof": 4,
                   "input_dtype": tl.float16, "output_dtype": tl.float16, "acc_dtype": tl.float32,
                   "meta_dtype": tl.float16, "channel_scale_mode": 0, "W_group_mode": 3, "zero_is_scalar": False,
                   "BLOCK_SIZE_M": BM, "BLOCK_SIZE_N": BN, "BLOCK_SIZE_K": BK, "GROUP_SIZE_M": 8, "NUM_STAGES": 4,
                   "A_load_order": 0, "meta_evict_policy": "evict_last", "data_contiguous": True},
    "num_warps": 8, "num_stages": 4,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "scales_ptr", "zeros_ptr", "scales_a_ptr", "N", "K",
                     "stride_am", "stride_bk", "stride_cm", "stride_meta_g"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 100, "N": 256, "K": 384}     # M partial; N, K whole blocks (GemLite asks it)


@triton.jit
def swizzle_tile(pid, M, N, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    grid_m = tl.cdiv(M, BLOCK_SIZE_M)
    grid_n = tl.cdiv(N, BLOCK_SIZE_N)
    width = GROUP_SIZE_M * grid_n
    group_id = pid // width
    group_size = tl.minimum(grid_m - group_id * GROUP_SIZE_M, GROUP_SIZE_M)
    pid_m = group_id * GROUP_SIZE_M + (pid % group_size)
    pid_n = (pid % width) // group_size
    return pid_m, pid_n


@triton.jit
def linear_tile(pid, M, N, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid_m = pid // tl.cdiv(N, BLOCK_SIZE_N)
    pid_n = pid % tl.cdiv(N, BLOCK_SIZE_N)
    return pid_m, pid_n


@triton.jit
def dequantize(b, scales, zeros, q_shift, meta_dtype, unpack_mask, elements_per_sample: tl.constexpr,
               W_group_mode: tl.constexpr, zero_is_scalar: tl.constexpr):
    # Unpack
    if (elements_per_sample > 1):
        b = (b >> q_shift) & unpack_mask  # int32 -> int32

    if (W_group_mode == 1):  # Shift
        b = b.to(meta_dtype) - zeros

    if (W_group_mode == 2):
        b = b.to(meta_dtype) * scales  # Symmetric no shift (Grouped)

    if (W_group_mode == 3):  # Asymmetric / Symmetric with shift(no zeros) (Grouped)
        if (zero_is_scalar):
            b = (b - zeros).to(meta_dtype) * scales
        else:
            b = (b.to(meta_dtype) - zeros) * scales

    if (W_group_mode == 4):  # Asymmetric (Grouped) - b*scales + zeros
        b = tl.fma(b.to(meta_dtype), scales, zeros)

    return b


@triton.jit
def gemm_A16fWnO16f_int32packing_kernel(
    a_ptr, b_ptr, c_ptr,
    scales_ptr, zeros_ptr, scales_a_ptr,
    M, N, K, M_CLOSEST,
    ######### Quant parms #########
    W_nbits: tl.constexpr,
    group_size: tl.constexpr,
    unpack_mask: tl.constexpr,
    elements_per_sample: tl.constexpr,
    #################################
    type_id: tl.constexpr,
    a_sizeof: tl.constexpr,
    b_sizeof: tl.constexpr,
    ######### Strides #########
    stride_am, stride_ak,
    stride_bk, stride_bn,
    stride_cm, stride_cn,
    stride_meta_a_m, stride_meta_a_g,
    stride_meta_g, stride_meta_n,
    ######### Dtypes #########
    input_dtype: tl.constexpr,
    output_dtype: tl.constexpr,
    acc_dtype: tl.constexpr,
    meta_dtype: tl.constexpr,
    ######### Meta-data mode #########
    channel_scale_mode: tl.constexpr,
    W_group_mode: tl.constexpr,
    zero_is_scalar: tl.constexpr,
    ######### tuning params #########
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr, NUM_STAGES: tl.constexpr,
    A_load_order: tl.constexpr, meta_evict_policy: tl.constexpr, data_contiguous: tl.constexpr,
):
    """
    Based on https://github.com/fpgaminer/GPTQ-triton
    GEMM for C = matmul(A, dequantize(B, scales, zeros))
    A is of shape (M, K): 16-bit
    B is of shape (K//elements_per_sample, N): int32 as a packed matrix
    C is of shape (M, N): 16-bit
    scales is of shape (K//group_size, N)
    zeros is of shape (K//group_size, N)
    """

    pid = tl.program_id(axis=0)
    pid_m, pid_n = swizzle_tile(pid, M, N, BLOCK_SIZE_M, BLOCK_SIZE_N, GROUP_SIZE_M)

    num_pid_k = tl.cdiv(K, BLOCK_SIZE_K)

    # Offsets
    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    offs_am = offs_m
    offs_ak = tl.max_contiguous(tl.multiple_of(offs_k, BLOCK_SIZE_K), BLOCK_SIZE_K)

    if (data_contiguous):
        offs_bn = offs_n
    else:
        offs_bn = tl.max_contiguous(tl.multiple_of(offs_n, BLOCK_SIZE_N), BLOCK_SIZE_N)
    offs_bk = offs_k

    b_ptrs = b_ptr + ((offs_bk[:, None] // elements_per_sample) * stride_bk + offs_bn[None, :] * stride_bn)
    q_shift = ((offs_bk % elements_per_sample) * W_nbits).to(tl.int32)[:, None]

    # Inputs
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_ak[None, :] * stride_ak)
    a_mask = ((offs_am[:, None] < M) & (offs_ak[None, :] < K)).to(tl.int1)

    # Meta data stuff
    scales_ptrs = scales_ptr + offs_bn[None, :] * stride_meta_n
    zeros_ptrs = zeros_ptr + offs_bn[None, :] * stride_meta_n

    stride_mul: tl.constexpr = BLOCK_SIZE_K / group_size
    BLOCK_SIZE_K_U: tl.constexpr = BLOCK_SIZE_K * 1
    BLOCK_SIZE_K_P: tl.constexpr = BLOCK_SIZE_K // elements_per_sample

    if (zero_is_scalar):
        zero_scalar = tl.load(zeros_ptr, eviction_policy='evict_last')

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=acc_dtype)

    for k in range(num_pid_k):

        if (A_load_order == 0):  # Early load
            a = tl.load(a_ptrs, mask=a_mask, other=0., eviction_policy='evict_last')

        b = tl.load(b_ptrs, eviction_policy='evict_first')

        if (A_load_order == 1):  # Early load
            a = tl.load(a_ptrs, mask=a_mask, other=0., eviction_policy='evict_last')

        # Meta-data loading policy
        if (W_group_mode > 0):
            k_m = tl.cast(k * stride_mul, tl.int32)

        if (W_group_mode >= 2):  # [2, 3, 4]
            scales = tl.load(scales_ptrs + k_m * stride_meta_g, eviction_policy=meta_evict_policy)
        else:
            scales = None

        if (W_group_mode == 1 or W_group_mode >= 3):  # [1, 3, 4]
            if (zero_is_scalar):
                zeros = zero_scalar
            else:
                zeros = tl.load(zeros_ptrs + k_m * stride_meta_g, eviction_policy=meta_evict_policy)
        else:
            zeros = None

        if (A_load_order == 2):  # Mid load
            a = tl.load(a_ptrs, mask=a_mask, other=0., eviction_policy='evict_last')

        # Unpack and dequantize
        b = dequantize(b, scales, zeros, q_shift, meta_dtype, unpack_mask, elements_per_sample, W_group_mode,
                       zero_is_scalar)

        if (A_load_order == 3):  # Late load
            a = tl.load(a_ptrs, mask=a_mask, other=0., eviction_policy='evict_last')

        # Dot
        acc = tl.dot(a, b.to(input_dtype), acc=acc, out_dtype=acc_dtype, input_precision="tf32")

        # Advance
        a_ptrs += BLOCK_SIZE_K_U * stride_ak
        b_ptrs += BLOCK_SIZE_K_P * stride_bk

    ##################################################################
    # Channel-wise scaling
    if (channel_scale_mode == 1):  # weight-only
        scales_b = tl.load(scales_ptr + offs_bn, mask=offs_bn < N, other=1, eviction_policy=meta_evict_policy)
        acc = acc.to(meta_dtype) * scales_b[None, :]

    if (channel_scale_mode == 2):  # activation-only
        scales_a = tl.load(scales_a_ptr + offs_am * stride_meta_a_m, mask=offs_am < M, other=1,
                           eviction_policy=meta_evict_policy)
        scales_b = tl.full((BLOCK_SIZE_N,), value=1, dtype=meta_dtype)
        acc = acc.to(meta_dtype) * (scales_a[:, None] * scales_b[None, :])

    if (channel_scale_mode == 3):  # weight + activation
        scales_a = tl.load(scales_a_ptr + offs_am * stride_meta_a_m, mask=offs_am < M, other=1,
                           eviction_policy=meta_evict_policy)
        scales_b = tl.load(scales_ptr + offs_bn, mask=offs_bn < N, other=1, eviction_policy=meta_evict_policy)
        acc = acc.to(meta_dtype) * (scales_a[:, None] * scales_b[None, :])
    ##################################################################

    # Output
    acc = acc.to(output_dtype)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_cn = tl.max_contiguous(tl.multiple_of(offs_cn, BLOCK_SIZE_N), BLOCK_SIZE_N)
    c_ptrs = c_ptr + (offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn)
    tl.store(c_ptrs, acc, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A fp16 [M, K]; W quantised to 4 bits per group of 128 along K (HQQ/GemLite's asymmetric min-max: W ~ (q -
    zero) * scale), packed eight to an int32 along K as GemLite's ``pack_weights_over_rows`` does: row r of the
    packed [K // 8, N] holds K rows 8r..8r+7 at bits 0, 4, ..., 28."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).half()
    q = torch.randint(0, 16, (K, N), device=device, generator=g, dtype=torch.int32)
    scales = (torch.rand((K // GROUP_SIZE, N), device=device, generator=g) * 0.02 + 0.005).half()
    zeros = (torch.rand((K // GROUP_SIZE, N), device=device, generator=g) * 15).half()
    qr = q.reshape(K // ELEMENTS_PER_SAMPLE, ELEMENTS_PER_SAMPLE, N)
    packed = torch.zeros((K // ELEMENTS_PER_SAMPLE, N), device=device, dtype=torch.int64)
    for j in range(ELEMENTS_PER_SAMPLE):
        packed |= qr[:, j, :].long() << (W_NBITS * j)
    packed = torch.where(packed >= 2 ** 31, packed - 2 ** 32, packed).to(torch.int32)
    return {"a": a, "b": packed, "q": q, "scales": scales, "zeros": zeros,
            "scales_a": torch.ones((M,), device=device, dtype=torch.float16)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """A @ dequantize(B), fp16 [M, N]."""
    import torch
    a, b, scales, zeros, scales_a = inputs["a"], inputs["b"], inputs["scales"], inputs["zeros"], inputs["scales_a"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    M_CLOSEST = triton.next_power_of_2(M)
    grid = lambda META: (triton.cdiv(M, META['BLOCK_SIZE_M']) * triton.cdiv(N, META['BLOCK_SIZE_N']),)  # noqa: E731
    gemm_A16fWnO16f_int32packing_kernel[grid](
        a, b, c, scales, zeros, scales_a, M, N, K, M_CLOSEST,
        W_NBITS, GROUP_SIZE, 2 ** W_NBITS - 1, ELEMENTS_PER_SAMPLE, 0, a.element_size(), b.element_size(),
        a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
        scales_a.stride(0), 0, scales.stride(0), scales.stride(1),
        input_dtype=tl.float16, output_dtype=tl.float16, acc_dtype=tl.float32, meta_dtype=tl.float16,
        channel_scale_mode=0, W_group_mode=3, zero_is_scalar=False,
        BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=8, NUM_STAGES=4,
        A_load_order=0, meta_evict_policy="evict_last", data_contiguous=True,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 4))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    q, scales, zeros = inputs["q"].double(), inputs["scales"], inputs["zeros"]
    s = scales.repeat_interleave(GROUP_SIZE, dim=0)
    z = zeros.repeat_interleave(GROUP_SIZE, dim=0)
    w = ((q.half() - z) * s).double()          # the kernel dequantises in fp16 (meta_dtype)
    return inputs["a"].double() @ w


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
