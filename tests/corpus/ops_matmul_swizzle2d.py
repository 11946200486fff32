"""The GEMM ``triton.ops.matmul`` shipped (Triton 2.x ``python/triton/ops/matmul.py`` ``_kernel``; bitsandbytes'
``int8_matmul_*`` and several forks still carry it) as its later forks write it: a 2-D grid whose tile order comes from
``tl.swizzle2d(pid_m, pid_n, grid_m, grid_n, GROUP_M)`` (``tl.num_programs`` for the grid's sizes) instead of the
hand-written grouping, split-K on grid axis 2 (``pid_z``), ``rm % M`` / ``rn % N`` wrapped offsets hinted with
``tl.max_contiguous(tl.multiple_of(...))``, the K loop written as ``tl.range(0, tl.cdiv(K, BLOCK_K * SPLIT_K),
num_stages=NUM_STAGES, disallow_acc_multi_buffer=True)``, ``EVEN_K`` / masked loads with ``other=_0`` a (1, 1)
zeros block in C's element type, ``AB_DTYPE is not None`` (a None constexpr) casting both operands, the
``fp8_fast_accum`` choice between ``tl.dot(a, b, acc, ...)`` and ``acc += tl.dot(...)``, ``out_dtype=acc_dtype``
and ``input_precision`` constexprs, ``acc.to(C.dtype.element_ty)``, and ``SPLIT_K == 1`` store / ``tl.atomic_add``.
fp16 in, fp32 accumulate, fp16 out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_kernel",
    "signature": {"A": "*fp16", "B": "*fp16", "C": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "acc_dtype": tl.float32,
                   "input_precision": "tf32", "fp8_fast_accum": True, "BLOCK_M": 128, "BLOCK_N": 128,
                   "BLOCK_K": 64, "GROUP_M": 8, "SPLIT_K": 1, "EVEN_K": False, "AB_DTYPE": None, "NUM_STAGES": 4},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["A", "B", "C", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4000}   # K not a multiple of BLOCK_K: EVEN_K False as in the spec
SMALL: dict[str, int] = {"M": 300, "N": 260, "K": 200}   # partial tiles in M and N, a K tail of 8

BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 64


@triton.jit
def _kernel(A, B, C, M, N, K,  #
            stride_am, stride_ak,  #
            stride_bk, stride_bn,  #
            stride_cm, stride_cn,  #
            acc_dtype: tl.constexpr,  #
            input_precision: tl.constexpr,  #
            fp8_fast_accum: tl.constexpr,  #
            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,  #
            GROUP_M: tl.constexpr, SPLIT_K: tl.constexpr, EVEN_K: tl.constexpr, AB_DTYPE: tl.constexpr,  #
            NUM_STAGES: tl.constexpr  #
            ):
    # matrix multiplication
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_z = tl.program_id(2)
    grid_m = tl.num_programs(0)
    grid_n = tl.num_programs(1)
    # re-order program ID for better L2 performance
    pid_m, pid_n = tl.swizzle2d(pid_m, pid_n, grid_m, grid_n, GROUP_M)
    # do matrix multiplication
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    rk = pid_z * BLOCK_K + tl.arange(0, BLOCK_K)
    # pointers
    A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak)
    B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=acc_dtype)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K * SPLIT_K), num_stages=NUM_STAGES, disallow_acc_multi_buffer=True):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            k_remaining = K - k * (BLOCK_K * SPLIT_K)
            _0 = tl.zeros((1, 1), dtype=C.dtype.element_ty)
            a = tl.load(A, mask=rk[None, :] < k_remaining, other=_0)
            b = tl.load(B, mask=rk[:, None] < k_remaining, other=_0)
        if AB_DTYPE is not None:
            a = a.to(AB_DTYPE)
            b = b.to(AB_DTYPE)
        if fp8_fast_accum:
            acc = tl.dot(a, b, acc, out_dtype=acc_dtype, input_precision=input_precision)
        else:
            acc += tl.dot(a, b, out_dtype=acc_dtype, input_precision=input_precision)
        A += BLOCK_K * SPLIT_K * stride_ak
        B += BLOCK_K * SPLIT_K * stride_bk
    acc = acc.to(C.dtype.element_ty)
    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    C = C + (rm[:, None] * stride_cm + rn[None, :] * stride_cn)
    mask = (rm < M)[:, None] & (rn < N)[None, :]
    # handles write-back with reduction-splitting
    if SPLIT_K == 1:
        tl.store(C, acc, mask=mask)
    else:
        tl.atomic_add(C, acc, mask=mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float32, generator=g).half()
    b = (torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).half()
    return {"a": a, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """A @ B, fp16 [M, N], one program per (tile_m, tile_n), SPLIT_K = 1."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N), 1)
    _kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                  acc_dtype=tl.float32, input_precision="tf32", fp8_fast_accum=True,
                  BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8, SPLIT_K=1,
                  EVEN_K=K % BLOCK_K == 0, AB_DTYPE=None, NUM_STAGES=4,
                  num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].double() @ inputs["b"].double()


def library(inputs: dict[str, Any]) -> Any:
    return inputs["a"] @ inputs["b"]


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
