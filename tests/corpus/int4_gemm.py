"""gemlite-style int4 weight-only GEMM (gemm_A16fWnO16f, int32 packing): fp16 activations, 8 4-bit weights
packed along K into each int32, unpacked with a shift per row of the tile and a mask, per-group zeros and scales
(W_group_mode 3: (W - z) * s), tl.dot in fp16 with an fp32 accumulator; GROUP_SIZE_M tile swizzle."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl


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
def dequantize(b, scales, zeros, q_shift, meta_dtype, unpack_mask, elements_per_sample: tl.constexpr,
               W_group_mode: tl.constexpr, zero_is_scalar: tl.constexpr):
    # Unpack
    if elements_per_sample > 1:
        b = (b >> q_shift) & unpack_mask  # int32 -> int32

    if W_group_mode == 1:  # Shift
        b = b.to(meta_dtype) - zeros
    if W_group_mode == 2:
        b = b.to(meta_dtype) * scales  # Symmetric no shift (Grouped)
    if W_group_mode == 3:  # Asymmetric / Symmetric with shift(Grouped - (w - z) * s)
        if zero_is_scalar:
            b = (b - zeros).to(meta_dtype) * scales
        else:
            b = (b.to(meta_dtype) - zeros) * scales
    if W_group_mode == 4:  # Asymmetric (Grouped - b*scales + zeros)
        b = tl.fma(b.to(meta_dtype), scales, zeros)
    return b


@triton.jit
def gemm_A16fWnO16f_int32packing_kernel(
    a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr,
    M, N, K,
    W_nbits: tl.constexpr, group_size: tl.constexpr, unpack_mask: tl.constexpr, elements_per_sample: tl.constexpr,
    stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn, stride_meta_g, stride_meta_n,
    W_group_mode: tl.constexpr, zero_is_scalar: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
):
    """
    Based on https://github.com/fpgaminer/GPTQ-triton
    GEMM for C = matmul(A, dequantize(B, scales, zeros))
    A is of shape (M, K): float16
    B is of shape (K//elements_per_sample, N): int32 as a packed matrix
    C is of shape (M, N): float16
    scales and zeros is of shape (group_size, N): float16
    """
    pid = tl.program_id(axis=0)
    pid_m, pid_n = swizzle_tile(pid, M, N, BLOCK_SIZE_M, BLOCK_SIZE_N, GROUP_SIZE_M)
    num_pid_k = tl.cdiv(K, BLOCK_SIZE_K)

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)

    offs_am = tl.max_contiguous(tl.multiple_of(offs_m, BLOCK_SIZE_M), BLOCK_SIZE_M)
    offs_bn = tl.max_contiguous(tl.multiple_of(offs_n, BLOCK_SIZE_N), BLOCK_SIZE_N)

    # Inputs
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    a_mask = (offs_am[:, None] < M)

    b_ptrs = b_ptr + ((offs_k[:, None] // elements_per_sample) * stride_bk + offs_bn[None, :] * stride_bn)

    # Meta data stuff
    q_shift = ((offs_k % elements_per_sample) * W_nbits).to(tl.int32)[:, None]
    scales_ptrs = scales_ptr + offs_bn[None, :] * stride_meta_n
    zeros_ptrs = zeros_ptr + offs_bn[None, :] * stride_meta_n

    stride_mul: tl.constexpr = BLOCK_SIZE_K / group_size

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)

    for k in range(num_pid_k):
        a = tl.load(a_ptrs, mask=a_mask, other=0., eviction_policy='evict_last')
        b = tl.load(b_ptrs, eviction_policy='evict_first')

        # Meta-data loading policy
        k_m = (k * stride_mul).to(tl.int32)
        scales = tl.load(scales_ptrs + k_m * stride_meta_g, eviction_policy='evict_last')
        zeros = tl.load(zeros_ptrs + k_m * stride_meta_g, eviction_policy='evict_last')

        # Unpack and dequantize
        b = dequantize(b, scales, zeros, q_shift, tl.float16, unpack_mask, elements_per_sample, W_group_mode,
                       zero_is_scalar)

        # Dot
        acc = tl.dot(a, b.to(tl.float16), acc=acc, out_dtype=tl.float32, input_precision="tf32")

        # Advance
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += (BLOCK_SIZE_K // elements_per_sample) * stride_bk

    acc = acc.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_cn = tl.max_contiguous(tl.multiple_of(offs_cn, BLOCK_SIZE_N), BLOCK_SIZE_N)
    c_ptrs = c_ptr + (offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn)
    tl.store(c_ptrs, acc, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


_I = "i32"
TWILL_SPEC: dict[str, Any] = {
    "kernel": "gemm_A16fWnO16f_int32packing_kernel",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*i32", "c_ptr": "*fp16", "scales_ptr": "*fp16", "zeros_ptr": "*fp16",
                  "M": _I, "N": _I, "K": _I, "stride_am": _I, "stride_ak": "constexpr", "stride_bk": _I,
                  "stride_bn": "constexpr", "stride_cm": _I, "stride_cn": "constexpr", "stride_meta_g": _I,
                  "stride_meta_n": "constexpr"},
    # the unit strides: Triton's launcher specialises an integer equal to 1 as that constant
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "stride_meta_n": 1, "W_nbits": 4, "group_size": 128, "unpack_mask": 15, "elements_per_sample": 8,
                   "W_group_mode": 3, "zero_is_scalar": False,
                   "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["N", "K", "stride_am", "stride_bk", "stride_cm", "stride_meta_g"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 70, "N": 256, "K": 256}
GS = 128


def make_inputs(M, N, K, device="cuda", seed=0):
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    w = torch.randint(0, 16, (K, N), device=device, generator=g, dtype=torch.int32)
    packed = torch.zeros((K // 8, N), dtype=torch.int32, device=device)
    for i in range(8):
        packed |= w[i::8] << (4 * i)
    return {"a": torch.randn((M, K), device=device, generator=g).to(torch.float16), "w": w, "b": packed,
            "scales": (torch.rand((K // GS, N), device=device, generator=g) / 32 + 0.01).to(torch.float16),
            "zeros": (torch.rand((K // GS, N), device=device, generator=g) * 15).round().to(torch.float16)}


def launch(inputs, **config):
    import torch
    a, b, s, z = inputs["a"], inputs["b"], inputs["scales"], inputs["zeros"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), dtype=torch.float16, device=a.device)
    BM, BN = config.get("BLOCK_SIZE_M", 64), config.get("BLOCK_SIZE_N", 128)
    gemm_A16fWnO16f_int32packing_kernel[(triton.cdiv(M, BM) * triton.cdiv(N, BN),)](
        a, b, c, s, z, M, N, K, W_nbits=4, group_size=GS, unpack_mask=15, elements_per_sample=8,
        stride_am=a.stride(0), stride_ak=a.stride(1), stride_bk=b.stride(0), stride_bn=b.stride(1),
        stride_cm=c.stride(0), stride_cn=c.stride(1), stride_meta_g=s.stride(0), stride_meta_n=s.stride(1),
        W_group_mode=3, zero_is_scalar=False, BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=64, GROUP_SIZE_M=8,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 4))
    return c


def reference(inputs):
    w = inputs["w"].double()
    s = inputs["scales"].double().repeat_interleave(GS, 0)
    z = inputs["zeros"].double().repeat_interleave(GS, 0)
    return inputs["a"].double() @ ((w - z) * s)
