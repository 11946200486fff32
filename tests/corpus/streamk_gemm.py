"""Stream-K + data-parallel hybrid GEMM in the style of the PyTorch/Triton stream-K kernel (``first_wave`` /
``full_tiles`` / ``mac_loop`` / ``swizzle_tile``, as in the triton-streamk experiments the PyTorch blog built on),
WITHOUT the spin locks: ``first_wave`` (the kernel twill reads) gives each program a contiguous range of the
flattened (tile, k-iteration) space; a ``while start_iter < last_iter`` loop walks the tiles it touches, calling
the ``mac_loop`` helper whose ``for current_iter in range(start_iter, end_iter)`` ``tl.dot`` loop starts mid-tile
(A/B advanced by ``start_iter % iters_per_tile``) and whose partial tile is added with ``tl.atomic_add`` into a
zeroed fp32 C. ``full_tiles`` then computes the remaining tiles data-parallel and stores them plainly. No masks (the
blog kernel's divisibility assumption), GROUP_M swizzle, fp16 in, fp32 out."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

NUM_SMS = 132
TWILL_SPEC: dict[str, Any] = {
    "kernel": "first_wave",
    "signature": {"A": "*fp16", "B": "*fp16", "C": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr", "total_full_tiles_streamk": "i32",
                  "total_partial_tiles_streamk": "i32", "iters_per_tile": "i32"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64,
                   "ACC_TYPE": tl.float32, "GROUP_M": 8},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 320}    # no masks in the kernel: multiples of the tile


@triton.jit()
def swizzle_tile(tile_id, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                 GROUP_M: tl.constexpr):
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    # re-order program ID for better L2 performance
    width = GROUP_M * grid_n
    group_id = tile_id // width
    group_size = tl.minimum(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (tile_id % group_size)
    pid_n = (tile_id % width) // group_size
    return pid_m, pid_n


@triton.jit()
def linear_tile(tile_id, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                GROUP_M: tl.constexpr):
    pid_m = tile_id // tl.cdiv(N, BLOCK_N)
    pid_n = tile_id % tl.cdiv(N, BLOCK_N)
    return pid_m, pid_n


@triton.jit()
def mac_loop(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn, iters_per_tile,
             start_iter, end_iter, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
             ACC_TYPE: tl.constexpr, GROUP_M: tl.constexpr):
    # where are we in the grid
    tile_id = start_iter // iters_per_tile
    if GROUP_M > 0:
        pid_m, pid_n = swizzle_tile(tile_id, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M)
    else:
        pid_m, pid_n = linear_tile(tile_id, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M)

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    A = A + (rm[:, None] * stride_am + rk[None, :] * stride_ak) + BLOCK_K * stride_ak * (start_iter % iters_per_tile)
    B = B + (rk[:, None] * stride_bk + rn[None, :] * stride_bn) + BLOCK_K * stride_bk * (start_iter % iters_per_tile)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)

    for current_iter in range(start_iter, end_iter):
        a = tl.load(A)
        b = tl.load(B)
        acc += tl.dot(a, b)
        A += BLOCK_K * stride_ak
        B += BLOCK_K * stride_bk

    # no locks: every contribution to a stream-K tile is added atomically into the zeroed fp32 output
    C_ = C + (rm[:, None] * stride_cm + rn[None, :] * stride_cn)  # compute inside the if/else to avoid spilling!
    tl.atomic_add(C_, acc, sem="relaxed")


@triton.jit()
def first_wave(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
               total_full_tiles_streamk, total_partial_tiles_streamk, iters_per_tile, BLOCK_M: tl.constexpr,
               BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, ACC_TYPE: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    start_iter = pid * total_full_tiles_streamk + tl.minimum(pid, total_partial_tiles_streamk)
    last_iter = (pid + 1) * total_full_tiles_streamk + tl.minimum(pid + 1, total_partial_tiles_streamk)

    while start_iter < last_iter:
        end_iter = tl.minimum(start_iter + (iters_per_tile - start_iter % iters_per_tile), last_iter)
        mac_loop(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                 iters_per_tile, start_iter, end_iter, BLOCK_M, BLOCK_N, BLOCK_K, ACC_TYPE, GROUP_M)

        start_iter = end_iter


# similar to the "classical" tiled GEMM
@triton.jit()
def full_tiles(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
               total_tiles_streamk, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
               ACC_TYPE: tl.constexpr, GROUP_M: tl.constexpr):
    # first wave has done more tiles than there are SMs, we adjust pid
    tile_id = tl.program_id(0) + total_tiles_streamk
    if GROUP_M > 0:
        pid_m, pid_n = swizzle_tile(tile_id, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M)
    else:
        pid_m, pid_n = linear_tile(tile_id, M, N, K, BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M)

    # do matrix multiplication
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    # pointers
    A = A + (rm[:, None] * stride_am + rk[None, :] * stride_ak)
    B = B + (rk[:, None] * stride_bk + rn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(A)
        b = tl.load(B)
        acc += tl.dot(a, b)
        A += BLOCK_K * stride_ak
        B += BLOCK_K * stride_bk
    acc = acc.to(C.dtype.element_ty)
    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    C = C + (rm[:, None] * stride_cm + rn[None, :] * stride_cn)
    tl.store(C, acc)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((M, K), device=device, generator=g).half(),
            "b": torch.randn((K, N), device=device, generator=g).half()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """matmul(a, b) with 132 stream-K programs plus the data-parallel remainder (two-tile stream-K): fp32 [M, N]."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    _, N = b.shape
    BLK_M, BLK_N, BLK_K, group_m, two_tiles = 128, 128, 64, 8, True
    total_programs_streamk = NUM_SMS
    total_blocks_M = triton.cdiv(M, BLK_M)
    total_blocks_N = triton.cdiv(N, BLK_N)
    iters_per_tile = triton.cdiv(K, BLK_K)
    total_tiles = total_blocks_M * total_blocks_N
    # last wave may occupy less than total_programs_streamk SMs
    total_tiles_streamk = total_tiles % total_programs_streamk
    # for two-tile Stream-K + data-parallel from original paper
    if two_tiles and total_tiles - total_tiles_streamk > total_programs_streamk:
        total_tiles_streamk += total_programs_streamk
    # remaining tiles are computed using classical blocking
    total_blocking_tiles = total_tiles - total_tiles_streamk
    total_iters_streamk = total_tiles_streamk * iters_per_tile
    # iterations related to full waves
    total_full_tiles_streamk = total_iters_streamk // total_programs_streamk
    # iterations related to last (partial) wave
    total_partial_tiles_streamk = total_iters_streamk % total_programs_streamk

    c = torch.zeros((M, N), device=a.device, dtype=torch.float32)
    nw, ns = config.get("num_warps", 8), config.get("num_stages", 3)
    first_wave[(total_programs_streamk,)](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
        total_full_tiles_streamk=total_full_tiles_streamk, total_partial_tiles_streamk=total_partial_tiles_streamk,
        iters_per_tile=iters_per_tile, BLOCK_M=BLK_M, BLOCK_N=BLK_N, BLOCK_K=BLK_K, ACC_TYPE=tl.float32,
        GROUP_M=group_m, num_warps=nw, num_stages=ns)
    if total_blocking_tiles > 0:
        full_tiles[(total_blocking_tiles,)](
            a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
            total_tiles_streamk=total_tiles_streamk, BLOCK_M=BLK_M, BLOCK_N=BLK_N, BLOCK_K=BLK_K,
            ACC_TYPE=tl.float32, GROUP_M=group_m, num_warps=nw, num_stages=ns)
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
