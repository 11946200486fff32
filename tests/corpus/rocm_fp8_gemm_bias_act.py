"""The GEMM of ROCm's Triton perf-kernels (ROCm/triton ``python/perf-kernels/gemm.py`` ``matmul_kernel``, the one
its fp8 tuning runs use) as an FP8 per-tensor-scaled linear layer: A [M, K] and B [K, N] float8 e4m3 (B the
transpose of an [N, K] weight, K-major), ``tl.assume`` on every stride, the ``GROUP_SIZE_M == 1`` constexpr choice of
tile order, ``% M`` / ``% N`` wrapped offsets, the per-tensor scales loaded BEFORE the loop from 1-element tensors
(``a_scale = tl.load(a_scale_ptr)`` under ``APPLY_SCALE``), the bias (one value per output row, ``stride_bias``)
loaded before the loop too (``tl.load(bias_ptrs, mask=offs_am < M, other=0.0)`` under ``BIAS``), ``acc_dtype``
chosen by a conditional expression on ``c_ptr.type.element_ty``, ``EVEN_K`` / K-masked loads, ``accumulator +=
tl.dot(a, b)``, and after the loop ``accumulator * a_scale * b_scale``, ``+ bias[:, None]``, and ``ACTIVATION ==
"leaky_relu"`` calling a @triton.jit ``leaky_relu`` written with ``tl.where``. fp16 out. Nothing here is imported
by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "matmul_kernel",
    "signature": {"a_ptr": "*fp8e4nv", "b_ptr": "*fp8e4nv", "c_ptr": "*fp16", "a_scale_ptr": "*fp32",
                  "b_scale_ptr": "*fp32", "bias_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "constexpr", "stride_bn": "i32",
                  "stride_cm": "i32", "stride_cn": "constexpr", "stride_bias": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "stride_bias": 1,
                   "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8,
                   "SPLIT_K": 1, "EVEN_K": False, "BIAS": True, "APPLY_SCALE": True, "ACTIVATION": "leaky_relu"},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "a_scale_ptr", "b_scale_ptr", "bias_ptr", "stride_am", "stride_bn",
                     "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4160}     # K a multiple of 16, not of 128: EVEN_K False
SMALL: dict[str, int] = {"M": 200, "N": 136, "K": 288}
BM, BN, BK = 128, 128, 128


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)


@triton.jit
def matmul_kernel(
        a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, bias_ptr,
        M, N, K,
        stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn, stride_bias,
        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
        GROUP_SIZE_M: tl.constexpr, SPLIT_K: tl.constexpr, EVEN_K: tl.constexpr, BIAS: tl.constexpr,
        APPLY_SCALE: tl.constexpr, ACTIVATION: tl.constexpr,
):
    """Kernel for computing the matmul C = A x B.
    A has shape (M, K), B has shape (K, N) and C has shape (M, N)
    """

    tl.assume(stride_am > 0)
    tl.assume(stride_ak > 0)
    tl.assume(stride_bk > 0)
    tl.assume(stride_bn > 0)
    tl.assume(stride_cm > 0)
    tl.assume(stride_cn > 0)
    tl.assume(stride_bias > 0)

    # -----------------------------------------------------------
    # Map program ids `pid` to the block of C it should compute.
    # This is done in a grouped ordering to promote L2 data reuse.
    # See above `L2 Cache Optimizations` section for details.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    if GROUP_SIZE_M == 1:
        pid_m = pid // num_pid_n
        pid_n = pid % num_pid_n
    else:
        num_pid_in_group = GROUP_SIZE_M * num_pid_n
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * GROUP_SIZE_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
        pid_m = first_pid_m + (pid % group_size_m)
        pid_n = (pid % num_pid_in_group) // group_size_m
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)
    # Create pointers for first block of A and B input matrices
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    if APPLY_SCALE:
        a_scale = tl.load(a_scale_ptr)
        b_scale = tl.load(b_scale_ptr)
    if BIAS:
        bias_ptrs = bias_ptr + offs_am * stride_bias
        bias = tl.load(bias_ptrs, mask=offs_am < M, other=0.0)

    acc_dtype = tl.float32 if c_ptr.type.element_ty != tl.int8 else tl.int32
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=acc_dtype)

    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        # Load the next block of A and B, generate a mask by checking the K dimension.
        # If it is out of bounds, set it to 0.
        if EVEN_K:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        else:
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        # We accumulate along the K dimension.
        accumulator += tl.dot(a, b)

        # Advance the ptrs to the next K block.
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    # Apply scale to recover dynamic range reduced due to lower precision inputs.
    if APPLY_SCALE:
        accumulator = accumulator * a_scale * b_scale
    # Apply bias
    if BIAS:
        accumulator += bias[:, None]
    # Apply activation function, if specified.
    # TODO(vgokhale): Add more activations here.
    if ACTIVATION == "leaky_relu":
        accumulator = leaky_relu(accumulator)
    c = accumulator.to(c_ptr.type.element_ty)

    # Write back the block of the output matrix C with masks.
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A and the weight W [N, K] quantised per tensor to e4m3 (scale = amax / 448, as 1-element fp32 tensors), B =
    W^T (a K-major view), a bias per output row (ROCm's kernel adds ``bias[:, None]``)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g)
    w = torch.randn((N, K), device=device, generator=g) / K ** 0.5
    a_scale = (a.abs().max() / 448.0).reshape(1)
    w_scale = (w.abs().max() / 448.0).reshape(1)
    a8 = (a / a_scale).to(torch.float8_e4m3fn)
    w8 = (w / w_scale).to(torch.float8_e4m3fn)
    bias = torch.randn((M,), device=device, generator=g).half()
    return {"a": a8, "b": w8.T, "a_scale": a_scale.float(), "b_scale": w_scale.float(), "bias": bias}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """leaky_relu(a_scale * b_scale * (A @ B) + bias[:, None]), fp16 [M, N]."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN), 1)
    bias = inputs["bias"]
    matmul_kernel[grid](a, b, c, inputs["a_scale"], inputs["b_scale"], bias, M, N, K,
                        a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                        bias.stride(0), BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=8,
                        SPLIT_K=1, EVEN_K=K % BK == 0, BIAS=True, APPLY_SCALE=True, ACTIVATION="leaky_relu",
                        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    acc = inputs["a"].double() @ inputs["b"].double()
    acc = acc * inputs["a_scale"].double() * inputs["b_scale"].double() + inputs["bias"].double()[:, None]
    return torch.where(acc >= 0, acc, 0.01 * acc)


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
