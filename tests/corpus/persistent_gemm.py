"""Persistent GEMM as the Triton tutorial writes it (09-persistent-matmul): ``tl.range(..., flatten=True)``
over tiles with the K loop inside, which Triton fuses into one loop guarded by an scf.if, with the tile
prologue and the epilogue store as scf.if ops in its body; ``tile_id_c`` carried from tile to tile names the
tile the epilogue stores. The Gluon back end writes the nest as written (the tile loop around the K loop).

C = A @ B, A [M, K] row-major, B [K, N] row-major, fp16 in, fp32 accumulate, fp16 out; K need not be a
multiple of BLOCK_K (the loads are masked). ``launch`` starts min(NUM_SMS, tiles) programs, as the tutorial
does; nothing here is imported by twill.
"""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_SMS = 132
PROBLEM: dict[str, int] = {"M": 8192, "N": 8192, "K": 4096}
SMALL: dict[str, int] = {"M": 496, "N": 624, "K": 336}

TWILL_SPEC = {"signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                            "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
              "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8, "NUM_SMS": NUM_SMS},
              "num_warps": 8, "num_stages": 3,
              "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_M: tl.constexpr):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul_persistent(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                      GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    tile_id_c = start_pid - NUM_SMS
    offs_k_for_mask = tl.arange(0, BLOCK_K)
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_M)
        offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        offs_am = tl.where(offs_am < M, offs_am, 0)
        offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_M), BLOCK_M)
        offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BLOCK_N), BLOCK_N)
        accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_K + tl.arange(0, BLOCK_K)
            a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :])
            b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :])
            a = tl.load(a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k_for_mask[:, None] < K - ki * BLOCK_K, other=0.0)
            accumulator = tl.dot(a, b, accumulator)
        tile_id_c += NUM_SMS
        pid_m, pid_n = _compute_pid(tile_id_c, num_pid_in_group, num_pid_m, GROUP_M)
        offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + offs_cn[None, :]
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptrs, accumulator.to(tl.float16), mask=c_mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    b = (torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)
    return {"a": a, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C, fp16 [M, N], from min(NUM_SMS, tiles) programs."""
    import torch
    a, b = inputs["a"], inputs["b"]
    (M, K), (_, N) = a.shape, b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (min(NUM_SMS, triton.cdiv(M, 128) * triton.cdiv(N, 128)),)
    matmul_persistent[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0), BLOCK_M=128, BLOCK_N=128,
                            BLOCK_K=64, GROUP_M=8, NUM_SMS=NUM_SMS, num_warps=config.get("num_warps", 8),
                            num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K


def library(inputs: dict[str, Any]) -> Any:
    """cuBLAS's product of the same operands (B is [K, N] here)."""
    return inputs["a"] @ inputs["b"]
