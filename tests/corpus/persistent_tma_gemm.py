"""A persistent TMA GEMM in the style of Triton's persistent matmul tutorial (its descriptor variant, without
``flatten``): each program loops over output tiles ``for tile_id in tl.range(start_pid, num_tiles, NUM_SMS)``
with the K loop inside; C = A @ B^T, A [M, K], B [N, K], C [M, N], fp16 in, fp32 accumulate.

The Gluon back end keeps the kernel's own tile loop around each partition's loop (``Module.tile_loop``).
``launch`` starts min(NUM_SMS, tiles) programs, as the tutorial does; nothing here is imported by twill.
"""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_SMS = 132

TWILL_SPEC: dict[str, Any] = {
    "kernel": "gemm_persistent_tma",
    "signature": {"a_desc": "tensordesc<fp16[128, 64]>", "b_desc": "tensordesc<fp16[256, 64]>",
                  "c_desc": "tensordesc<fp16[128, 256]>", "M": "i32", "N": "i32", "K": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8, "NUM_SMS": NUM_SMS},
    "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K"],
}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 500, "N": 648, "K": 328}


@triton.jit
def gemm_persistent_tma(a_desc, b_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.maximum(tl.cdiv(K, BLOCK_K), 1)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + (tile_id % group_size_m)
        pid_n = (tile_id % num_pid_in_group) // group_size_m
        offs_am = pid_m * BLOCK_M
        offs_bn = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([offs_am, ki * BLOCK_K])
            b = b_desc.load([offs_bn, ki * BLOCK_K])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([offs_am, offs_bn], acc.to(tl.float16))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    b = (torch.randn((N, K), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)
    return {"a": a, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = a @ b^T, fp16 [M, N], by min(NUM_SMS, tiles) programs."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    a, b = inputs["a"], inputs["b"]
    (M, K), (N, _) = a.shape, b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    bm, bn, bk = 128, 256, 64
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    gemm_persistent_tma[(min(NUM_SMS, tiles),)](
        TensorDescriptor(a, [M, K], [K, 1], [bm, bk]), TensorDescriptor(b, [N, K], [K, 1], [bn, bk]),
        TensorDescriptor(c, [M, N], [N, 1], [bm, bn]), M, N, K, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8,
        NUM_SMS=NUM_SMS, num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float().T


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
