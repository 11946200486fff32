"""The Intel XPU backend's batched GEMM with an exp pre-op through device-side tensor descriptors,
``matmul_kernel_with_tensor_descriptors_batched`` (intel/intel-xpu-backend-for-triton
``benchmarks/triton_kernels_benchmark/gemm_preop_exp_tensor_desc_benchmark.py``): C[z] = exp(A[z]) @ B[z], A and B
bf16, C fp32.

The constructs: **every size and stride a constexpr** (``M``, ``N``, ``K``, the nine strides, ``B``), so the loop
trip count is a compile-time constant; a 2-D grid whose axis 1 is the batch, the batch offset ``bid.to(tl.int64) *
stride_az`` **added to the base pointer of a device-side ``tl.make_tensor_descriptor``** (three descriptors built
in the kernel: A, B, and C for the epilogue store); a grouped (GROUP_SIZE_M) tile order written inline with a
Python ``min``; a K loop ``for _ in range(0, K, BLOCK_SIZE_K)`` whose induction variable is unused, with a
**separate scalar carry** ``off_k += BLOCK_SIZE_K`` giving both descriptor-load coordinates; and a **pre-op on the
TMA-loaded A tile before the dot** (``a.to(tl.float32)``, ``tl.math.exp``, back to bf16) so the A operand must pass
through registers while B can stay in shared memory; the result stored through a descriptor. Port notes: the
kernel verbatim; its ``@triton.autotune`` left off (every config is an XPU one: ``grf_mode='large'``, 32 warps),
an H100 config given instead (128 x 128 x 64, GROUP_SIZE_M 4, 8 warps, 3 stages); ``launch`` installs the global
scratch allocator that device-side descriptors need on a GPU. M, N, K and the strides are constexprs, so SMALL is
PROBLEM (8 batches of 1024 x 1024 x 1024)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BATCH, MM, NN, KK = 8, 1024, 1024, 1024
BM, BN, BK, GM = 128, 128, 64, 4

TWILL_SPEC: dict[str, Any] = {
    "kernel": "matmul_kernel_with_tensor_descriptors_batched",
    "signature": {"a_ptr": "*bf16", "b_ptr": "*bf16", "c_ptr": "*fp32"},
    "constexprs": {"B": BATCH, "M": MM, "N": NN, "K": KK,
                   "stride_az": MM * KK, "stride_am": KK, "stride_ak": 1,
                   "stride_bz": KK * NN, "stride_bk": NN, "stride_bn": 1,
                   "stride_cz": MM * NN, "stride_cm": NN, "stride_cn": 1,
                   "BLOCK_SIZE_M": BM, "BLOCK_SIZE_N": BN, "BLOCK_SIZE_K": BK, "GROUP_SIZE_M": GM},
    "num_warps": 8, "num_stages": 3}
PROBLEM: dict[str, int] = {"B": BATCH, "M": MM, "N": NN, "K": KK}
SMALL: dict[str, int] = {"B": BATCH, "M": MM, "N": NN, "K": KK}


@triton.jit
def matmul_kernel_with_tensor_descriptors_batched(
        # Pointers to matrices
        a_ptr, b_ptr, c_ptr,
        # Matrix dimensions
        B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
        # Stride variables
        stride_az: tl.constexpr, stride_am: tl.constexpr, stride_ak: tl.constexpr,  #
        stride_bz: tl.constexpr, stride_bk: tl.constexpr, stride_bn: tl.constexpr,  #
        stride_cz: tl.constexpr, stride_cm: tl.constexpr, stride_cn: tl.constexpr,
        # Meta-parameters
        BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    bid = tl.program_id(axis=1)
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offset_a = bid.to(tl.int64) * stride_az
    offset_b = bid.to(tl.int64) * stride_bz

    a_desc = tl.make_tensor_descriptor(base=a_ptr + offset_a, shape=(M, K), strides=(stride_am, stride_ak),
                                       block_shape=(BLOCK_SIZE_M, BLOCK_SIZE_K))
    b_desc = tl.make_tensor_descriptor(base=b_ptr + offset_b, shape=(K, N), strides=(stride_bk, stride_bn),
                                       block_shape=(BLOCK_SIZE_K, BLOCK_SIZE_N))

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    off_k = 0
    for _ in range(0, K, BLOCK_SIZE_K):
        a = a_desc.load([pid_m * BLOCK_SIZE_M, off_k])
        a = a.to(tl.float32)
        a = tl.math.exp(a)
        a = a.to(tl.bfloat16)
        b = b_desc.load([off_k, pid_n * BLOCK_SIZE_N])
        accumulator += tl.dot(a, b)
        off_k += BLOCK_SIZE_K
    c = accumulator.to(tl.float32)

    offset_c = bid.to(tl.int64) * stride_cz
    c_desc = tl.make_tensor_descriptor(base=c_ptr + offset_c, shape=(M, N), strides=(stride_cm, stride_cn),
                                       block_shape=(BLOCK_SIZE_M, BLOCK_SIZE_N))
    c_desc.store([pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N], c)


def make_inputs(B: int, M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [B, M, K], b [B, K, N] bf16, uniform in [0, 1) as the benchmark draws them."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.rand((B, M, K), device=device, generator=g).bfloat16()
    b = torch.rand((B, K, N), device=device, generator=g).bfloat16()
    return {"a": a, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """c [B, M, N] fp32, as the benchmark's ``matmul(a, b, c)`` for 3-D inputs."""
    import torch
    a, b = inputs["a"], inputs["b"]
    B, M, K = a.shape
    N = b.shape[2]
    c = torch.empty((B, M, N), device=a.device, dtype=torch.float32)
    if a.device.type == "cuda":
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    bm, bn = config.get("BLOCK_SIZE_M", BM), config.get("BLOCK_SIZE_N", BN)
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), B)
    matmul_kernel_with_tensor_descriptors_batched[grid](
        a, b, c, B, M, N, K,
        a.stride(0), a.stride(1), a.stride(2), b.stride(0), b.stride(1), b.stride(2),
        c.stride(0), c.stride(1), c.stride(2),
        BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=config.get("BLOCK_SIZE_K", BK),
        GROUP_SIZE_M=config.get("GROUP_SIZE_M", GM),
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    """exp(a) rounded to bf16, times b, in fp32 (the benchmark's ``torch.matmul(torch.exp(a), b)``)."""
    import torch
    a = torch.exp(inputs["a"].float()).bfloat16().float()
    return torch.matmul(a, inputs["b"].float())


def flops(B: int, M: int, N: int, K: int) -> float:
    """2 B M N K for the GEMM plus one exp per A element each time an N tile reads it."""
    return 2.0 * B * M * N * K + B * M * K * (N // BN)
