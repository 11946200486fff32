"""Split-K GEMM whose last-arriving program finishes the tile, as newer split-K kernels avoid a second launch: each
program of grid axis 1 takes a contiguous K slice (``tl.assume`` on the program ids and on the slice being whole
BLOCK_K steps), reads A and B through device-side TMA descriptors in a ``tl.range(k_lo, k_hi, BLOCK_K)`` loop, adds
its fp32 partial tile into a workspace with ``tl.atomic_add(..., sem="release", scope="gpu")``, then takes a ticket
from a per-tile counter (``tl.atomic_add(lock, 1, sem="acq_rel", scope="gpu")``); the program drawing the last ticket
reads the finished sum back (``cache_modifier=".cg"``) and stores it as bf16. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "splitk_release_last_cta",
    "signature": {"a_ptr": "*bf16", "b_ptr": "*bf16", "ws_ptr": "*fp32", "lock_ptr": "*i32", "c_ptr": "*bf16",
                  "M": "i32", "N": "i32", "K": "i32", "K_PER_SPLIT": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "SPLIT_K": 4}, "num_warps": 8, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "ws_ptr", "lock_ptr", "c_ptr", "N", "K", "K_PER_SPLIT"]}
PROBLEM: dict[str, int] = {"M": 1024, "N": 1024, "K": 16384}
SMALL: dict[str, int] = {"M": 200, "N": 272, "K": 1088}    # M and N ragged; K's last slice shorter (zero fill)


@triton.jit
def splitk_release_last_cta(a_ptr, b_ptr, ws_ptr, lock_ptr, c_ptr, M, N, K, K_PER_SPLIT, BLOCK_M: tl.constexpr,
                            BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    tl.assume(pid >= 0)
    tl.assume(pid_k >= 0)
    tl.assume(K_PER_SPLIT % BLOCK_K == 0)
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    k_lo = pid_k * K_PER_SPLIT
    k_hi = tl.minimum(k_lo + K_PER_SPLIT, K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(k_lo, k_hi, BLOCK_K):
        a = a_desc.load([pid_m * BLOCK_M, k])
        b = b_desc.load([pid_n * BLOCK_N, k])
        acc = tl.dot(a, b.T, acc)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m < M)[:, None] & (offs_n < N)[None, :]
    offs = offs_m[:, None] * N + offs_n[None, :]
    tl.atomic_add(ws_ptr + offs, acc, mask=mask, sem="release", scope="gpu")
    ticket = tl.atomic_add(lock_ptr + pid, 1, sem="acq_rel", scope="gpu")
    if ticket == SPLIT_K - 1:
        total = tl.load(ws_ptr + offs, mask=mask, other=0.0, cache_modifier=".cg")
        tl.store(c_ptr + offs, total.to(tl.bfloat16), mask=mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((M, K), device=device, dtype=torch.bfloat16, generator=g),
            "b": (torch.randn((N, K), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.bfloat16)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ B^T in bf16 from (tiles, 4) programs: a zeroed fp32 workspace and ticket counters (Triton needs a
    global scratch allocator for the descriptors a kernel makes)."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[0]
    tiles = triton.cdiv(M, 128) * triton.cdiv(N, 128)
    k_per_split = triton.cdiv(triton.cdiv(K, 4), 64) * 64
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=a.device, dtype=torch.int8))
    ws = torch.zeros((M, N), device=a.device, dtype=torch.float32)
    lock = torch.zeros((tiles,), device=a.device, dtype=torch.int32)
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.bfloat16)
    splitk_release_last_cta[(tiles, 4)](a, b, ws, lock, c, M, N, K, k_per_split, BLOCK_M=128, BLOCK_N=128,
                                        BLOCK_K=64, SPLIT_K=4, num_warps=config.get("num_warps", 8),
                                        num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float().T


def library(inputs: dict[str, Any]) -> Any:
    return inputs["a"] @ inputs["b"].T


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
