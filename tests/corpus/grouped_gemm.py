"""Grouped GEMM as the Triton tutorial writes it (08-grouped-gemm): a loop over the group, a ``while`` over
the tiles a program owns, the K loop inside (depth 2), pointers loaded from memory.

Group i computes C_i = A_i @ B_i, A_i [M_i, K] and B_i [K, N] row-major, fp16 in, fp32 accumulate, fp16 out; the
tutorial's kernel has no masks, so M_i and N are multiples of 128 and K of 64. ``launch`` starts NUM_SM programs,
as the tutorial does; nothing here is imported by twill.
"""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_SM = 132
PROBLEM: dict[str, int] = {"groups": 4, "M": 4096, "N": 4096, "K": 4096}     # M_i = 1024, 2048, 3072, 4096
SMALL: dict[str, int] = {"groups": 3, "M": 384, "N": 256, "K": 192}

TWILL_SPEC = {"signature": {"group_a_ptrs": "*i64", "group_b_ptrs": "*i64", "group_c_ptrs": "*i64",
                            "group_gemm_sizes": "*i32", "g_lds": "*i32", "group_size": "i32"},
              "constexprs": {"NUM_SM": NUM_SM, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, "num_warps": 8}


@triton.jit
def grouped_matmul(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size,
                   NUM_SM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tile_idx = tl.program_id(0)
    last_problem_end = 0
    for g in range(group_size):
        gm = tl.load(group_gemm_sizes + g * 3)
        gn = tl.load(group_gemm_sizes + g * 3 + 1)
        gk = tl.load(group_gemm_sizes + g * 3 + 2)
        num_m_tiles = tl.cdiv(gm, BLOCK_M)
        num_n_tiles = tl.cdiv(gn, BLOCK_N)
        num_tiles = num_m_tiles * num_n_tiles
        while tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            k = gk
            lda = tl.load(g_lds + g * 3)
            ldb = tl.load(g_lds + g * 3 + 1)
            ldc = tl.load(g_lds + g * 3 + 2)
            a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
            b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
            c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
            tile_idx_in_gemm = tile_idx - last_problem_end
            tile_m_idx = tile_idx_in_gemm // num_n_tiles
            tile_n_idx = tile_idx_in_gemm % num_n_tiles
            offs_am = tile_m_idx * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_bn = tile_n_idx * BLOCK_N + tl.arange(0, BLOCK_N)
            offs_k = tl.arange(0, BLOCK_K)
            a_ptrs = a_ptr + offs_am[:, None] * lda + offs_k[None, :]
            b_ptrs = b_ptr + offs_k[:, None] * ldb + offs_bn[None, :]
            accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for kk in range(0, tl.cdiv(k, BLOCK_K)):
                tl.multiple_of(a_ptrs, [16, 16])      # the tutorial's hints: the pointers loaded from memory aligned
                tl.multiple_of(b_ptrs, [16, 16])
                a = tl.load(a_ptrs)
                b = tl.load(b_ptrs)
                accumulator += tl.dot(a, b)
                a_ptrs += BLOCK_K
                b_ptrs += BLOCK_K * ldb
            c = accumulator.to(tl.float16)
            offs_cm = tile_m_idx * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_cn = tile_n_idx * BLOCK_N + tl.arange(0, BLOCK_N)
            c_ptrs = c_ptr + ldc * offs_cm[:, None] + offs_cn[None, :]
            tl.store(c_ptrs, c)
            tile_idx += NUM_SM
        last_problem_end = last_problem_end + num_tiles


def _rows(groups: int, M: int) -> list[int]:
    return [max(128, M * (i + 1) // groups // 128 * 128) for i in range(groups)]


def make_inputs(groups: int, M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    rows = _rows(groups, M)
    a = [torch.randn((m, K), device=device, dtype=torch.float16, generator=g) for m in rows]
    b = [(torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)
         for _ in rows]
    i64 = dict(device=device, dtype=torch.int64)
    starts = [sum(rows[:i]) * N * 2 for i in range(groups)]      # each C_i's byte offset in one output buffer
    return {"a": a, "b": b, "rows": rows, "N": N,
            "a_ptrs": torch.tensor([x.data_ptr() for x in a], **i64),
            "b_ptrs": torch.tensor([x.data_ptr() for x in b], **i64),
            "c_offsets": torch.tensor(starts, **i64),
            "sizes": torch.tensor([[m, N, K] for m in rows], device=device, dtype=torch.int32).flatten(),
            "lds": torch.tensor([[K, N, N] for _ in rows], device=device, dtype=torch.int32).flatten()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The groups' C_i (views of one output buffer, allocated here), from NUM_SM programs."""
    import torch
    rows, N = inputs["rows"], inputs["N"]
    c = torch.empty((sum(rows) * N,), device=inputs["a_ptrs"].device, dtype=torch.float16)
    c_ptrs = inputs["c_offsets"] + c.data_ptr()
    grouped_matmul[(NUM_SM,)](inputs["a_ptrs"], inputs["b_ptrs"], c_ptrs, inputs["sizes"], inputs["lds"], len(rows),
                              NUM_SM=NUM_SM, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                              num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    out, at = [], 0
    for m in rows:
        out.append(c[at:at + m * N].view(m, N))
        at += m * N
    return out


def reference(inputs: dict[str, Any]) -> Any:
    return [a.float() @ b.float() for a, b in zip(inputs["a"], inputs["b"])]


def library(inputs: dict[str, Any]) -> Any:
    """cuBLAS: one product per group."""
    return [a @ b for a, b in zip(inputs["a"], inputs["b"])]


def flops(groups: int, M: int, N: int, K: int) -> float:
    return 2.0 * sum(_rows(groups, M)) * N * K
