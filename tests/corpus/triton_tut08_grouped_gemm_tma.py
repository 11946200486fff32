"""Triton tutorial 08's TMA grouped GEMM (triton-lang/triton python/tutorials/08-grouped-gemm.py,
``grouped_matmul_tma_kernel``, launched by ``group_gemm_tma_fn``): a fixed grid of NUM_SM programs walks the
tiles of a group of GEMMs C_i = A_i @ B_i^T (A_i [M_i, K_i], B_i given transposed [N_i, K_i], both K-major fp16).

The constructs: a ``for g in range(group_size)`` over the problems carrying ``tile_idx`` and ``last_problem_end``;
per problem, the sizes, leading dimensions and the A/B/C base pointers **loaded from device arrays** (``tl.load(
group_a_ptrs + g).to(tl.pointer_type(dtype))``, int64 addresses) and three **device-side tensor descriptors**
``tl.make_tensor_descriptor(ptr, shape=[gm, gk], strides=[lda, 1], ...)`` built from those loaded values, inside an
``if`` on the tile range; then a ``while`` over this program's tiles of the problem (stride NUM_SM) holding the K
loop ``for kk in range(0, tl.cdiv(k, BLOCK_SIZE_K))`` of two descriptor loads and ``tl.dot(a, b.T)``, and a
descriptor store of the tile (depth-3 nest). ``dtype = tl.float8e4nv if FP8 else tl.float16`` is a conditional
expression on a constexpr (FP8 = False here). Simplified: the tutorial's ``@triton.autotune(tma_configs, ...)``
(a list comprehension of 16 configs) is dropped and its config {BM 128, BN 128, BK 64, 3 stages, 8 warps} given
in TWILL_SPEC; the tutorial's module-level test/benchmark code is not copied. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_SM = 132
TWILL_SPEC: dict[str, Any] = {
    "kernel": "grouped_matmul_tma_kernel",
    "signature": {"group_a_ptrs": "*i64", "group_b_ptrs": "*i64", "group_c_ptrs": "*i64",
                  "group_gemm_sizes": "*i32", "g_lds": "*i32", "group_size": "i32"},
    "constexprs": {"NUM_SM": NUM_SM, "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "FP8": False},
    "num_warps": 8, "num_stages": 3}
PROBLEM: dict[str, int] = {"groups": 4, "N": 1024}     # the tutorial's benchmark: 4 square problems of N = 1024
SMALL: dict[str, int] = {"groups": 3, "N": 256}


@triton.jit
def grouped_matmul_tma_kernel(
    # device tensor of matrices pointers
    group_a_ptrs,
    group_b_ptrs,
    group_c_ptrs,
    # device tensor of gemm sizes. its shape is [group_size, 3]
    # dim 0 is group_size, dim 1 is the values of <M, N, K> of each gemm
    group_gemm_sizes,
    # device tensor of leading dimension sizes. its shape is [group_size, 3]
    # dim 0 is group_size, dim 1 is the values of <lda, ldb, ldc> of each gemm
    g_lds,
    # number of gemms
    group_size,
    # number of virtual SM
    NUM_SM: tl.constexpr,
    # tile sizes
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    # is the output FP8 or FP16
    FP8: tl.constexpr,
):
    dtype = tl.float8e4nv if FP8 else tl.float16
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        # get the gemm size of the current problem
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_SIZE_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_SIZE_N)
        num_tiles = num_m_tiles * num_n_tiles
        if tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            # pick up a tile from the current gemm problem
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)

            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(dtype))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(dtype))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(dtype))

            a_desc = tl.make_tensor_descriptor(
                a_ptr,
                shape=[gm, gk],
                strides=[lda, 1],
                block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K],
            )

            b_desc = tl.make_tensor_descriptor(
                b_ptr,
                shape=[gn, gk],
                strides=[ldb, 1],
                block_shape=[BLOCK_SIZE_N, BLOCK_SIZE_K],
            )
            c_desc = tl.make_tensor_descriptor(
                c_ptr,
                shape=[gm, gn],
                strides=[ldc, 1],
                block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N],
            )

            # iterate through the tiles in the current gemm problem
            while (tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles):
                k = gk
                # figure out tile coordinates
                tile_idx_in_gemm = tile_idx - last_problem_end
                tile_m_idx = tile_idx_in_gemm // num_n_tiles
                tile_n_idx = tile_idx_in_gemm % num_n_tiles

                # do regular gemm here
                offs_am = tile_m_idx * BLOCK_SIZE_M
                offs_bn = tile_n_idx * BLOCK_SIZE_N

                accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
                for kk in range(0, tl.cdiv(k, BLOCK_SIZE_K)):
                    a = a_desc.load([offs_am, kk * BLOCK_SIZE_K])
                    b = b_desc.load([offs_bn, kk * BLOCK_SIZE_K])
                    accumulator += tl.dot(a, b.T)

                offs_cm = tile_m_idx * BLOCK_SIZE_M
                offs_cn = tile_n_idx * BLOCK_SIZE_N

                c = accumulator.to(dtype)
                c_desc.store([offs_cm, offs_cn], c)

                # go to the next tile by advancing NUM_SM
                tile_idx += NUM_SM

        # get ready to go to the next gemm problem
        last_problem_end = last_problem_end + num_tiles


def _shapes(groups: int, N: int) -> list[tuple[int, int, int]]:
    """(M_i, N_i, K_i): the tutorial's sizes halving from N (1024, 512, 256, 128 for N = 1024), but never under 64."""
    return [(max(64, N >> i), max(64, N >> i), max(64, N >> i)) for i in range(groups)]


def make_inputs(groups: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """fp16 A_i [M_i, K_i] and B_i^T [N_i, K_i] (torch.rand, as the tutorial), their addresses, sizes and strides."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    shapes = _shapes(groups, N)
    a = [torch.rand((m, k), device=device, generator=g).to(torch.float16) for m, n, k in shapes]
    bt = [torch.rand((n, k), device=device, generator=g).to(torch.float16) for m, n, k in shapes]
    return {"a": a, "bt": bt, "shapes": shapes}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The C_i, fp16, from NUM_SM programs (``group_gemm_tma_fn``; the descriptors need a global scratch allocator)."""
    import torch
    a, bt, shapes = inputs["a"], inputs["bt"], inputs["shapes"]
    device = a[0].device
    c = [torch.empty((m, n), device=device, dtype=torch.float16) for m, n, k in shapes]
    i64 = dict(device=device, dtype=torch.int64)
    d_a_ptrs = torch.tensor([x.data_ptr() for x in a], **i64)
    d_b_ptrs = torch.tensor([x.data_ptr() for x in bt], **i64)
    d_c_ptrs = torch.tensor([x.data_ptr() for x in c], **i64)
    d_g_sizes = torch.tensor([v for s in shapes for v in s], device=device, dtype=torch.int32)
    d_g_lds = torch.tensor([v for x, y, z in zip(a, bt, c) for v in (x.stride(0), y.stride(0), z.stride(0))],
                           device=device, dtype=torch.int32)
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=device, dtype=torch.int8))
    grouped_matmul_tma_kernel[(NUM_SM,)](d_a_ptrs, d_b_ptrs, d_c_ptrs, d_g_sizes, d_g_lds, len(shapes),
                                         NUM_SM=NUM_SM, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64,
                                         FP8=False, num_warps=config.get("num_warps", 8),
                                         num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return [x.float() @ y.float().T for x, y in zip(inputs["a"], inputs["bt"])]


def flops(groups: int, N: int) -> float:
    return sum(2.0 * m * n * k for m, n, k in _shapes(groups, N))
