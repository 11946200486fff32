"""Liger-Kernel's experimental int8 x int2 GEMM, ``matmul_kernel`` (linkedin/Liger-Kernel
src/liger_kernel/ops/experimental/mm_int8int2.py, launched by ``matmul(a, b)`` after ``pack_weights``): BitNet-style
ternary weights {-1, 0, 1} stored as 2-bit codes (w + 1), four to a uint8, packed by **quarters of K** (packed row r
holds K rows r, r + K/4, r + 2K/4 and r + 3K/4 at bits 0, 2, 4, 6), times int8 activations, int32 accumulate and
int32 out.

The constructs, as Liger writes them: ``K: tl.constexpr`` with ``tl.static_assert(K % (4 * BLOCK_SIZE_K) == 0,
...)``; a **loop nest**: ``for i in range(4)`` (a runtime loop over the four bit planes) around ``for j in range(0,
tl.cdiv(K // 4, BLOCK_SIZE_K))`` (over the packed rows), the B pointers **reset** at the top of each outer iteration
(``b_ptrs = b_ptr + ...``) while the A pointers run on through the nest (``a_ptrs += BLOCK_SIZE_K * stride_ak`` in
the inner body only: the four passes together walk all of K), the flattened step ``k = i * tl.cdiv(K // 4,
BLOCK_SIZE_K) + j`` feeding A's K-tail mask, the bit plane picked by the OUTER index (``mask = 3 << (2 * i)``,
``(b_uint8 & mask) >> (2 * i)``: a shift by a loop-carried amount), ``b.to(tl.int8) - tl.full((1,), 1,
dtype=tl.int8)`` (codes back to {-1, 0, 1}), ``accumulator += tl.dot(a, ..., out_dtype=tl.int32)``; a B mask
``offs_k[:, None] < K`` that is always true; rows and columns wrapped with ``% M`` / ``% N`` (no load masks on them),
the store masked; the GROUP_SIZE_M swizzle of the tutorial. Config: the autotuner's first but with BLOCK_SIZE_N 128
(128 x 128 x 64, 8 warps, 3 stages): at its 256 the Gluon kernel needs more shared memory than the SM has (its
int32 accumulator's conversion for the store takes Triton's scratch beside the rings). The K loop is written four
times (the constant-trip outer loop unrolled), each staging its dequantised B tile: one buffer for the four since
session 88 (four before: 188544 bytes compiled). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BM, BN, BK, GM = 128, 128, 64, 8

TWILL_SPEC: dict[str, Any] = {
    "kernel": "matmul_kernel",
    "signature": {"a_ptr": "*i8", "b_ptr": "*u8", "c_ptr": "*i32", "M": "i32", "N": "i32", "stride_am": "i32",
                  "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr", "stride_cm": "i32",
                  "stride_cn": "constexpr"},
    "constexprs": {"K": 4096, "stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_SIZE_M": BM,
                   "BLOCK_SIZE_N": BN, "BLOCK_SIZE_K": BK, "GROUP_SIZE_M": GM},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 2048, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 100, "N": 200, "K": 4096}    # partial tiles on M and N (wrapped); K the constexpr it was generated for


@triton.jit
def matmul_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K: tl.constexpr,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
):
    # We want K / 4 to be divisible by BLOCK_SIZE_K so that the multiplication can be aligned
    tl.static_assert(
        K % (4 * BLOCK_SIZE_K) == 0,
        "K / 4 must be divisible by BLOCK_SIZE_K => K divisible by 4*BLOCK_SIZE_K",
    )
    # determine the block id in the 1D grid, pid <=> blockId in cuda
    pid = tl.program_id(axis=0)
    # number of blocks we would need in the M dimension
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    # number of blocks we would need in the N dimension
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    # blocks are grouped along the M dimension. num_pid_in_group computes how many blocks are grouped together,
    # and group_id calculates the group to which the current block (pid) belongs.
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group

    # pid of the first block in the group that the current block belongs too
    first_pid_m = group_id * GROUP_SIZE_M

    # pid_m : pid of the block along the M dimension of the output matrix, and pid_n : pid of the block along the N dimension of the output matrix
    # remember that the grid of blocks is 1D, but we calculate pid_m and pid_n to locate the block pid place in the output matrix
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    # offs_am represent the indices of elements within the block for matrices A with respect to the M dimension
    # offs_bn represent the indices of elements within the block for matrices B with respect to the N dimension
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)

    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    # An accumulator matrix is initialized with zeros. It stores the intermediate results of the block matrix multiplication.
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.int32)
    for i in range(4):
        b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
        for j in range(0, tl.cdiv(K // 4, BLOCK_SIZE_K)):
            k = i * tl.cdiv(K // 4, BLOCK_SIZE_K) + j
            # load the block of matrix A
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0)
            # load the block of matrix B
            b_uint8 = tl.load(b_ptrs, mask=offs_k[:, None] < K, other=0)
            # when i = 0 for example, we only care about the first 2 bits of the elements of the matrix B, so we use the mask 00000011 to mask the other bits
            mask = 3 << (2 * i)
            # we shift the results after the mask
            b = (b_uint8 & mask) >> (2 * i)
            # During the packing of the weights, it's easier to pack 0, 1, 2, then -1, 0, 1, so we add 1 to the weight tensor, and we substract it here
            tensor_full = tl.full((1,), 1, dtype=tl.int8)
            # We accumulate the result of multiplication of the blocks along the K dimension on int32 to avoid any overflows or underflows.
            accumulator += tl.dot(a, (b.to(tl.int8) - tensor_full), out_dtype=tl.int32)
            # we move the pointers, for the a_ptrs we more in a horizontal way along the second dimension -> we use strid_ak=1
            # for b_ptrs we move in a vertical way, along the rows -> we use stride_bk=N
            a_ptrs += BLOCK_SIZE_K * stride_ak
            b_ptrs += BLOCK_SIZE_K * stride_bk

    c = accumulator
    # These lines compute the offsets into matrix C where the result of this block's computation should be stored.
    # stride_cm = N & stride_cn = 1
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    # we do a boundary check to ensure only elements within matrix bounds are stored
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """int8 activations [M, K]; ternary weights [K, N] in {-1, 0, 1} packed by Liger's ``pack_weights`` (codes w + 1,
    row r of the packed [K // 4, N] uint8 holding rows r + q * K / 4 at bits 2q)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randint(-127, 128, (M, K), device=device, generator=g).to(torch.int8)
    w = torch.randint(-1, 2, (K, N), device=device, generator=g).to(torch.int32)
    codes = (w + 1).to(torch.uint8)
    rows = K // 4
    packed = torch.zeros((rows, N), device=device, dtype=torch.uint8)
    for q in range(4):
        packed |= codes[q * rows:(q + 1) * rows] << (2 * q)
    return {"a": a, "b": packed, "w": w}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """A @ W, int32 [M, N]."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.int32)
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                        c.stride(1), BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=BK, GROUP_SIZE_M=GM,
                        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].double() @ inputs["w"].double()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
