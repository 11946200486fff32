"""Triton-distributed's grouped-GEMM tile table builder, ``build_block_row_idx_info_kernel`` with its helper
``element_at`` (ByteDance-Seed/Triton-distributed python/triton_dist/kernels/nvidia/group_gemm.py, launched by
``prepare_moe_metadata_using_kernel`` in python/triton_dist/layers/nvidia/ep_moe.py; its tables feed
``moe_grouped_gemm``): from the token count of each expert, every program recomputes in registers the experts' row
offsets (``tl.cumsum``), tiles per expert (``tl.cdiv`` of a tensor by BLOCK_SIZE_M) and their running sum, stores the
per-expert tables, program 0 stores the total (``if sm_id == 0``: a scalar store of a ``tl.sum``), then a
**grid-stride loop over the 128-row tiles whose bound is a reduction** (``for pid in range(sm_id, num_tiles_total,
NUM_SMS)``, ``num_tiles_total = tl.sum(tiles_splits, axis=0)``) whose body is all scalar work: a redundant runtime
``if pid < num_tiles_total``, the tile's expert as **``tl.argmax((pid < tiles_cumsum).to(tl.int1), axis=0,
tie_break_left=True)``** (the first expert whose running tile count passes pid: an argmax over a boolean vector), a
**runtime ``if expert_idx == 0`` / ``else``** whose arms assign the literal 0 or a gathered element to the same names,
each gather through the ``@triton.jit`` helper ``element_at(x, idx) = tl.sum(tl.where(tl.arange(0, x.numel) == idx,
x, 0))`` (a reduction per scalar: four inside the loop), and **four scalar stores** per iteration (no vector load or
dot anywhere in the loop). Port notes: the launcher's 32 programs and BLOCK_SIZE_M 128 (``GROUP_GEMM_BLOCK_SIZE_M``);
32 experts (DeepSeek-V3's 256 under expert parallelism 8, E_PAD = E), in SMALL too (E is a constexpr; expert E // 2
empty); output tables zero-filled as the launcher allocates them; the token count ``M`` given with the inputs (the
launcher's ``expert_counts.sum().item()`` syncs with the host, which no CUDA graph captures: run 224)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK_M, NUM_SMS_ = 128, 32
E_ = 32
TWILL_SPEC: dict[str, Any] = {
    "kernel": "build_block_row_idx_info_kernel",
    "signature": {"rows_splits_ptr": "*i32", "rows_splits_cum_per_expert_ptr": "*i32",
                  "block_row_idx_to_expert_idx_ptr": "*i32", "block_row_idx_to_row_offset_ptr": "*i32",
                  "block_row_idx_to_tile_split_ptr": "*i32", "block_row_idx_to_tile_cumsum_ptr": "*i32",
                  "expert_idx_to_tile_offset_ptr": "*i32", "num_tiles_total_ptr": "*i32"},
    "constexprs": {"E": E_, "E_PAD": E_, "BLOCK_SIZE_M": BLOCK_M, "NUM_SMS": NUM_SMS_},
    "num_warps": 4, "num_stages": 3,
    "divisibility": []}
PROBLEM: dict[str, int] = {"M": 65536, "E": E_}
SMALL: dict[str, int] = {"M": 1000, "E": E_}   # E a constexpr


@triton.jit
def element_at(x: tl.tensor, idx: int) -> tl.tensor:
    return tl.sum(tl.where(tl.arange(0, x.numel) == idx, x, 0))


@triton.jit
def build_block_row_idx_info_kernel(rows_splits_ptr, rows_splits_cum_per_expert_ptr, block_row_idx_to_expert_idx_ptr,
                                    block_row_idx_to_row_offset_ptr, block_row_idx_to_tile_split_ptr,
                                    block_row_idx_to_tile_cumsum_ptr, expert_idx_to_tile_offset_ptr,
                                    num_tiles_total_ptr, E: tl.constexpr, E_PAD: tl.constexpr,
                                    BLOCK_SIZE_M: tl.constexpr, NUM_SMS: tl.constexpr):
    sm_id = tl.program_id(0)
    idx = tl.arange(0, E_PAD)
    mask = idx < E
    row_splits = tl.load(rows_splits_ptr + idx, mask=mask, other=0)
    row_cumsums = tl.cumsum(row_splits, axis=0)
    row_offs = row_cumsums - row_splits
    tl.store(rows_splits_cum_per_expert_ptr + idx, row_offs, mask=mask)
    tiles_splits = tl.cdiv(row_splits, BLOCK_SIZE_M)
    tiles_cumsum = tl.cumsum(tiles_splits, axis=0)
    num_tiles_total = tl.sum(tiles_splits, axis=0)

    tl.store(expert_idx_to_tile_offset_ptr + idx, tiles_cumsum - tiles_splits, mask=mask)

    if sm_id == 0:
        tl.store(num_tiles_total_ptr, num_tiles_total)

    for pid in range(sm_id, num_tiles_total, NUM_SMS):

        if pid < num_tiles_total:
            expert_idx = tl.argmax((pid < tiles_cumsum).to(tl.int1), axis=0, tie_break_left=True)
            if expert_idx == 0:
                row_offset = 0
                tile_split = element_at(tiles_splits, 0)
                tile_cumsum = tile_split
            else:
                row_offset = element_at(row_offs, expert_idx)
                tile_split = element_at(tiles_splits, expert_idx)
                tile_cumsum = element_at(tiles_cumsum, expert_idx)
            tl.store(block_row_idx_to_expert_idx_ptr + pid, expert_idx)
            tl.store(block_row_idx_to_row_offset_ptr + pid, row_offset)
            tl.store(block_row_idx_to_tile_split_ptr + pid, tile_split)
            tl.store(block_row_idx_to_tile_cumsum_ptr + pid, tile_cumsum)


def make_inputs(M: int, E: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """Token counts per expert summing to M (expert E // 2 gets none), int32."""
    import torch
    g = torch.Generator().manual_seed(seed)
    w = torch.rand(E, generator=g) + 0.1
    w[E // 2] = 0.0
    sizes = torch.floor(w / w.sum() * M).long()
    sizes[0] += M - int(sizes.sum())
    return {"expert_counts": sizes.to(device=device, dtype=torch.int32), "M": M}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """``prepare_moe_metadata_using_kernel(expert_counts, num_experts)``; returns its seven tables."""
    import torch
    expert_counts = inputs["expert_counts"]
    num_experts = expert_counts.shape[0]
    device = expert_counts.device
    num_sms = config.get("NUM_SMS", NUM_SMS_)
    M = inputs["M"]   # the library's expert_counts.sum().item(): a host sync, which no CUDA graph captures
    M_grid = triton.cdiv(M, BLOCK_M) + num_experts
    E_PAD = triton.next_power_of_2(num_experts)
    split_size_cum_per_expert = torch.zeros(num_experts, dtype=torch.int32, device=device)
    expert_idx_to_tile_offset = torch.zeros(num_experts, dtype=torch.int32, device=device)
    block_row_idx_to_expert_idx = torch.zeros(M_grid, dtype=torch.int32, device=device)
    block_row_idx_to_row_offset = torch.zeros(M_grid, dtype=torch.int32, device=device)
    block_row_idx_to_tile_split = torch.zeros(M_grid, dtype=torch.int32, device=device)
    block_row_idx_to_tile_cumsum = torch.zeros(M_grid, dtype=torch.int32, device=device)
    num_tiles_total = torch.zeros(1, dtype=torch.int32, device=device)
    grid = (num_sms, )
    build_block_row_idx_info_kernel[grid](expert_counts, split_size_cum_per_expert, block_row_idx_to_expert_idx,
                                          block_row_idx_to_row_offset, block_row_idx_to_tile_split,
                                          block_row_idx_to_tile_cumsum, expert_idx_to_tile_offset, num_tiles_total,
                                          num_experts, E_PAD, BLOCK_M, num_sms)
    return (split_size_cum_per_expert, block_row_idx_to_expert_idx, block_row_idx_to_row_offset,
            block_row_idx_to_tile_split, block_row_idx_to_tile_cumsum, expert_idx_to_tile_offset, num_tiles_total)


def reference(inputs: dict[str, Any]) -> Any:
    """The same tables from a Python walk over the experts (float64 for comparison)."""
    import torch
    sizes = [int(s) for s in inputs["expert_counts"].tolist()]
    E = len(sizes)
    M_grid = triton.cdiv(sum(sizes), BLOCK_M) + E
    row_offs, tile_offs = [], []
    eid, roff, tsplit, tcum = [0] * M_grid, [0] * M_grid, [0] * M_grid, [0] * M_grid
    r = t = 0
    for e, s in enumerate(sizes):
        n = triton.cdiv(s, BLOCK_M)
        row_offs.append(r)
        tile_offs.append(t)
        for j in range(t, t + n):
            eid[j], roff[j], tsplit[j], tcum[j] = e, r, n, t + n
        r += s
        t += n

    def f(v: list[int]) -> Any:
        return torch.tensor(v, dtype=torch.float64, device=inputs["expert_counts"].device)

    return f(row_offs), f(eid), f(roff), f(tsplit), f(tcum), f(tile_offs), f([t])


def bytes_moved(M: int, E: int) -> float:
    return 4.0 * (3 * E + 4 * (triton.cdiv(M, BLOCK_M) + E) + 1)
