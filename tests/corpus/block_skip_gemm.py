"""A GEMM over block-sparse activations, in the style of the two-level block-sparse kernels (a mask of live K blocks
per row block, as structured-sparsity MLPs and sparse attention's block layouts keep one): each program owns one
[BLOCK_M, BLOCK_N] tile of C and loops over the K dimension in blocks of KB columns; it reads the block's flag
(``tl.load(mask_ptr + pid_m * n_kb + kb)``) and, ``if live != 0:``, runs the pointer-load K loop over the block's
KB // BLOCK_K steps into the accumulator it carries from block to block; the tile is stored once after the block
loop. So the scheduled loop sits inside an ``if`` inside a loop that carries the accumulator, and the store follows
that loop: the construct of torchtitan's MoE weight gradient (``tests/corpus/torchtitan_cg_backward_dw.py``) with
the inner loop's bounds read from the outer loop's index.

C = A @ B with A's [BLOCK_M, KB] blocks whose flag is 0 taken as zeros. fp16 in, fp32 accumulate, fp16 out;
nothing here is imported by twill.
"""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

KB_ = 256
TWILL_SPEC: dict[str, Any] = {
    "kernel": "block_skip_gemm",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "mask_ptr": "*i8", "M": "i32",
                  "N": "i32", "K": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "KB": KB_},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"],
}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 8192}
SMALL: dict[str, int] = {"M": 256, "N": 256, "K": 1024}
DENSITY = 0.5


@triton.jit
def block_skip_gemm(a_ptr, b_ptr, c_ptr, mask_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, KB: tl.constexpr):
    """One [BLOCK_M, BLOCK_N] tile of C, summed over the live KB-column blocks of its rows."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    n_kb = K // KB
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for kb in range(0, n_kb):
        live = tl.load(mask_ptr + pid_m * n_kb + kb)
        if live != 0:
            for k in range(kb * KB, kb * KB + KB, BLOCK_K):
                offs_k = k + tl.arange(0, BLOCK_K)
                a = tl.load(a_ptr + offs_m[:, None] * stride_am + offs_k[None, :])
                b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :])
                acc += tl.dot(a, b)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A [M, K] and B [K, N] fp16; the live-block flags [M // 128, K // KB] int8, about DENSITY of them 1 (every row
    block keeps its first block live, and the last row block none of the others)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    b = (torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)
    live = (torch.rand((M // 128, K // KB_), device=device, generator=g) < DENSITY).to(torch.int8)
    live[:, 0] = 1
    live[-1, 1:] = 0
    return {"a": a, "b": b, "live": live.contiguous()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C, fp16 [M, N], one program per tile."""
    import torch
    a, b = inputs["a"], inputs["b"]
    (M, K), (_, N) = a.shape, b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    block_skip_gemm[grid](a, b, c, inputs["live"], M, N, K, a.stride(0), b.stride(0), c.stride(0),
                          BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, KB=KB_,
                          num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    a, b, live = inputs["a"].float(), inputs["b"].float(), inputs["live"]
    keep = live.repeat_interleave(128, dim=0).repeat_interleave(KB_, dim=1).to(a.dtype)
    return (a * keep) @ b


def flops(M: int, N: int, K: int) -> float:
    """The live blocks' multiply-adds (DENSITY of the dense GEMM's, about)."""
    return 2.0 * M * N * K * DENSITY
