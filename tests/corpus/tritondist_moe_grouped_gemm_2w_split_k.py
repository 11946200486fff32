"""Triton-distributed's two-weight MoE grouped GEMM, split along K: ``moe_grouped_two_weights_split_K_gemm_kernel_nk_const``
with its helper ``dot_2parts_k_const`` (ByteDance-Seed/Triton-distributed python/triton_dist/kernels/nvidia/group_gemm.py,
launched by ``moe_grouped_gemm_2weights`` on its ``weight_reduce_last_dim=False`` path, i.e. ``call_split_K``): the
tokens are grouped by expert, one program per (128-row tile of one expert, BLOCK_N column block); the tile's expert,
its rows and its tile counts come from five int32 tables indexed by the M-tile (``expert_ids``, ``split_size_cum``,
``tile_num``, ``tile_num_cum``, plus ``split_size`` per expert) and the number of valid tiles from a one-element tensor
(``num_total_tiles_ptr``); programs past it leave by an **early ``return``**. ``tl.swizzle2d`` regroups (tile, column
block) inside the expert; ``tl.static_assert(stride_bk1 == stride_bk2)``. The result is
``x[:, :K1] @ W1[e] + x[:, K1:] @ W2[e]``: the helper runs **two K loops one after the other into one accumulator**,
the A pointer walking on from the first loop into the second (``a_ptrs += BLOCK_SIZE_K * stride_ak`` in both), each
with its own B pointer; the kernel calls it as ``return dot_2parts_k_const(...)`` under a **runtime ``if row_remain >=
BLOCK_SIZE_M``** whose two arms inline the helper with the **constexpr ``need_mask``** False / True (so the kernel holds
four K loops: unmasked rows vs rows masked ``tl.arange(0, BLOCK_SIZE_M) < M`` where M is the tile's remaining rows,
the K tail masked in both; masked loads without ``other``). Every size and stride is ``tl.constexpr`` (one compile
per weight shape), ``do_not_specialize=["M"]`` on kernel and helper, ``row_begin.to(tl.int64) * stride_ak`` (the
library multiplies the row offset by the K stride, 1 here), B's columns wrapped ``% N``, the store masked by
``min(BLOCK_SIZE_N, N - pid_n * BLOCK_SIZE_N)`` and typed ``a_ptrs.dtype.element_ty``. Port notes: the library's
defaults (BLOCK 128 x 256 x 64, GROUP_SIZE_M 3, 8 warps, 3 stages); the tile tables computed in torch in
``make_inputs`` exactly as its ``build_block_row_idx_info_kernel`` writes them; bf16; N = 768 is not a multiple of
256 (the last column block wraps and masks)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BM, BN, BK, GROUP_M = 128, 256, 64, 3
N_OUT, K1_IN, K2_IN = 768, 1024, 512
TWILL_SPEC: dict[str, Any] = {
    "kernel": "moe_grouped_two_weights_split_K_gemm_kernel_nk_const",
    "signature": {"a_ptr": "*bf16", "b1_ptr": "*bf16", "b2_ptr": "*bf16", "c_ptr": "*bf16",
                  "expert_ids_ptr": "*i32", "split_size_ptr": "*i32", "split_size_cum_ptr": "*i32",
                  "tile_num_ptr": "*i32", "tile_num_cum_ptr": "*i32", "num_total_tiles_ptr": "*i32", "M": "i32"},
    "constexprs": {"N": N_OUT, "K1": K1_IN, "K2": K2_IN, "stride_am": K1_IN + K2_IN, "stride_ak": 1,
                   "stride_be1": K1_IN * N_OUT, "stride_bn1": 1, "stride_bk1": N_OUT,
                   "stride_be2": K2_IN * N_OUT, "stride_bn2": 1, "stride_bk2": N_OUT,
                   "stride_cm": N_OUT, "stride_cn": 1,
                   "BLOCK_SIZE_M": BM, "BLOCK_SIZE_N": BN, "BLOCK_SIZE_K": BK, "GROUP_SIZE_M": GROUP_M},
    "num_warps": 8, "num_stages": 3,
    "divisibility": []}
PROBLEM: dict[str, int] = {"M": 8192, "G": 8, "N": N_OUT, "K1": K1_IN, "K2": K2_IN}
SMALL: dict[str, int] = {"M": 333, "G": 4, "N": 384, "K1": 128, "K2": 64}


@triton.jit(do_not_specialize=["M"])
def dot_2parts_k_const(
    a_ptrs,
    b1_ptrs,
    b2_ptrs,
    c_ptrs,
    M,
    N,
    K1: tl.constexpr,
    K2: tl.constexpr,
    stride_ak: tl.constexpr,
    stride_bk1: tl.constexpr,
    stride_bk2: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    need_mask: tl.constexpr,
):
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K1, BLOCK_SIZE_K)):
        if need_mask:
            a = tl.load(
                a_ptrs, mask=(tl.arange(0, BLOCK_SIZE_M) < M)[:, None] &
                (k * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K) < K1)[None, :])
        else:
            a = tl.load(a_ptrs, mask=(k * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K) < K1)[None, :])
        b = tl.load(b1_ptrs, mask=(k * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K) < K1)[:, None])

        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b1_ptrs += BLOCK_SIZE_K * stride_bk1

    for k in range(0, tl.cdiv(K2, BLOCK_SIZE_K)):
        if need_mask:
            a = tl.load(
                a_ptrs, mask=(tl.arange(0, BLOCK_SIZE_M) < M)[:, None] &
                (k * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K) < K2)[None, :])
        else:
            a = tl.load(a_ptrs, mask=(k * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K) < K2)[None, :])
        b = tl.load(b2_ptrs, mask=(k * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K) < K2)[:, None])

        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b2_ptrs += BLOCK_SIZE_K * stride_bk2

    accumulator = accumulator.to(a_ptrs.dtype.element_ty)
    if need_mask:
        c_mask = (tl.arange(0, BLOCK_SIZE_M) < M)[:, None] & (tl.arange(0, BLOCK_SIZE_N) < N)[None, :]
        tl.store(c_ptrs, accumulator, mask=c_mask)
    else:
        c_mask = (tl.arange(0, BLOCK_SIZE_N) < N)[None, :]
        tl.store(c_ptrs, accumulator, mask=c_mask)


@triton.jit(do_not_specialize=["M"])
def moe_grouped_two_weights_split_K_gemm_kernel_nk_const(
    a_ptr,
    b1_ptr,
    b2_ptr,
    c_ptr,
    expert_ids_ptr,
    split_size_ptr,
    split_size_cum_ptr,
    tile_num_ptr,
    tile_num_cum_ptr,
    num_total_tiles_ptr,
    M,
    N: tl.constexpr,
    K1: tl.constexpr,
    K2: tl.constexpr,
    stride_am: tl.constexpr,
    stride_ak: tl.constexpr,
    stride_be1: tl.constexpr,
    stride_bn1: tl.constexpr,
    stride_bk1: tl.constexpr,
    stride_be2: tl.constexpr,
    stride_bn2: tl.constexpr,
    stride_bk2: tl.constexpr,
    stride_cm: tl.constexpr,
    stride_cn: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_block_n = tl.cdiv(N, BLOCK_SIZE_N)
    total_tiles = tl.load(num_total_tiles_ptr)

    pid_m = pid // num_block_n
    pid_n = pid % num_block_n

    if pid_m >= total_tiles:
        return

    expert_id = tl.load(expert_ids_ptr + pid_m)
    split_size = tl.load(split_size_ptr + expert_id)
    split_size_cum = tl.load(split_size_cum_ptr + pid_m)
    row_begin = split_size_cum
    tile_num = tl.load(tile_num_ptr + pid_m)
    tile_num_cum = tl.load(tile_num_cum_ptr + pid_m)
    tile_begin = tile_num_cum - tile_num
    local_pid_m = pid_m - tile_begin

    offs_k = tl.arange(0, BLOCK_SIZE_K)
    local_pid_m, pid_n = tl.swizzle2d(local_pid_m, pid_n, tile_num, num_block_n, GROUP_SIZE_M)
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    b1_ptrs = (b1_ptr + expert_id * stride_be1 + offs_bn[None, :] * stride_bn1 + offs_k[:, None] * stride_bk1)
    b2_ptrs = (b2_ptr + expert_id * stride_be2 + offs_bn[None, :] * stride_bn2 + offs_k[:, None] * stride_bk2)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    row_remain = split_size - local_pid_m * BLOCK_SIZE_M

    offs_token = row_begin.to(tl.int64) * stride_ak + local_pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    a_ptrs = (a_ptr + offs_token[:, None] * stride_am + offs_k[None, :] * stride_ak)

    c_ptrs = (c_ptr + offs_token[:, None] * stride_cm + offs_cn[None, :] * stride_cn)

    if row_remain >= BLOCK_SIZE_M:
        return dot_2parts_k_const(a_ptrs, b1_ptrs, b2_ptrs, c_ptrs, row_remain,
                                  min(BLOCK_SIZE_N, N - pid_n * BLOCK_SIZE_N), K1, K2, stride_ak, stride_bk1,
                                  stride_bk2, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, False)
    else:
        return dot_2parts_k_const(a_ptrs, b1_ptrs, b2_ptrs, c_ptrs, row_remain,
                                  min(BLOCK_SIZE_N, N - pid_n * BLOCK_SIZE_N), K1, K2, stride_ak, stride_bk1,
                                  stride_bk2, BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_K, True)


def _split_sizes(M: int, G: int, g: Any) -> list[int]:
    """Rows per expert: a random split of M with one expert left empty (a zero-tile expert in the tables)."""
    import torch
    w = torch.rand(G, generator=g) + 0.2
    w[G // 2] = 0.0
    sizes = torch.floor(w / w.sum() * M).long()
    sizes[0] += M - int(sizes.sum())
    return [int(s) for s in sizes]


def _tile_tables(sizes: list[int], M: int, device: str) -> dict[str, Any]:
    """What ``build_block_row_idx_info_kernel`` writes: per M-tile its expert, the expert's first row, its tile count
    and the running tile count through it; the tables padded to M_grid = cdiv(M, 128) + G entries."""
    import torch
    G = len(sizes)
    m_grid = triton.cdiv(M, BM) + G
    expert_ids, row_off, tile_split, tile_cum = [], [], [], []
    rows_before, tiles_before = 0, 0
    for e, s in enumerate(sizes):
        t = triton.cdiv(s, BM)
        for _ in range(t):
            expert_ids.append(e)
            row_off.append(rows_before)
            tile_split.append(t)
            tile_cum.append(tiles_before + t)
        rows_before += s
        tiles_before += t
    total = len(expert_ids)
    pad = m_grid - total

    def col(v: list[int]) -> Any:
        return torch.tensor(v + [0] * pad, dtype=torch.int32, device=device)

    return {"expert_ids": col(expert_ids), "split_size": torch.tensor(sizes, dtype=torch.int32, device=device),
            "split_size_cum": col(row_off), "tile_num": col(tile_split), "tile_num_cum": col(tile_cum),
            "num_tiles_total": torch.tensor([total], dtype=torch.int32, device=device)}


def make_inputs(M: int, G: int, N: int, K1: int, K2: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [M, K1 + K2] tokens sorted by expert; W1 [G, K1, N], W2 [G, K2, N] (K-major rows: stride (K*N, N, 1)), bf16."""
    import torch
    g = torch.Generator().manual_seed(seed)
    sizes = _split_sizes(M, G, g)
    x = torch.randn((M, K1 + K2), generator=g).to(device=device, dtype=torch.bfloat16)
    w1 = (torch.randn((G, K1, N), generator=g) * (K1 + K2) ** -0.5).to(device=device, dtype=torch.bfloat16)
    w2 = (torch.randn((G, K2, N), generator=g) * (K1 + K2) ** -0.5).to(device=device, dtype=torch.bfloat16)
    return {"x": x, "w1": w1, "w2": w2, "sizes": sizes, **_tile_tables(sizes, M, device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``moe_grouped_gemm_2weights(x, w1, w2, ..., weight_reduce_last_dim=False)`` -> ``call_split_K``."""
    import torch
    input_data, weight1, weight2 = inputs["x"], inputs["w1"], inputs["w2"]
    M, K = input_data.shape
    G, K1, N1 = weight1.shape
    _, K2, N2 = weight2.shape
    assert N1 == N2 and K == K1 + K2
    output_data = torch.empty((M, N1), dtype=input_data.dtype, device=input_data.device)
    M_grid = triton.cdiv(M, BM) + G
    block_n = config.get("BLOCK_SIZE_N", BN)
    grid = lambda meta: (M_grid * triton.cdiv(N1, meta['BLOCK_SIZE_N']), )
    moe_grouped_two_weights_split_K_gemm_kernel_nk_const[grid](
        input_data, weight1, weight2, output_data,
        inputs["expert_ids"], inputs["split_size"], inputs["split_size_cum"], inputs["tile_num"],
        inputs["tile_num_cum"], inputs["num_tiles_total"],
        M, N1, K1, K2,
        input_data.stride(0), input_data.stride(1),
        weight1.stride(0), weight1.stride(2), weight1.stride(1),
        weight2.stride(0), weight2.stride(2), weight2.stride(1),
        output_data.stride(0), output_data.stride(1),
        BLOCK_SIZE_M=BM, BLOCK_SIZE_N=block_n, BLOCK_SIZE_K=config.get("BLOCK_SIZE_K", BK),
        GROUP_SIZE_M=config.get("GROUP_SIZE_M", GROUP_M),
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return output_data


def reference(inputs: dict[str, Any]) -> Any:
    """Per expert e: x[rows_e, :K1] @ W1[e] + x[rows_e, K1:] @ W2[e], fp64."""
    import torch
    x, w1, w2 = inputs["x"].double(), inputs["w1"].double(), inputs["w2"].double()
    K1 = w1.shape[1]
    out = torch.zeros((x.shape[0], w1.shape[2]), dtype=torch.float64, device=x.device)
    r = 0
    for e, s in enumerate(inputs["sizes"]):
        out[r:r + s] = x[r:r + s, :K1] @ w1[e] + x[r:r + s, K1:] @ w2[e]
        r += s
    return out


def flops(M: int, G: int, N: int, K1: int, K2: int) -> float:
    return 2.0 * M * N * (K1 + K2)
