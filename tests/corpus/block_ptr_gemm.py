"""A GEMM through block pointers (``tl.make_block_ptr`` / ``tl.advance``, with ``boundary_check``), the style of
Triton's earlier tutorials and of many library kernels: Triton rewrites the block pointers into pointer tiles and
masks, the advanced pointers carried by the loop. The unit strides are declared as Triton specialises them at a
launch (an integer argument equal to 1 is a constant). C = A @ B, fp16 in, fp32 accumulate, fp16 out.
Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
    "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 384, "N": 256, "K": 320}


@triton.jit
def matmul_block_ptr(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_block = tl.make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak), (pid_m * BLOCK_M, 0), (BLOCK_M, BLOCK_K),
                                (1, 0))
    b_block = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, stride_bn), (0, pid_n * BLOCK_N), (BLOCK_K, BLOCK_N),
                                (1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_block, boundary_check=(0, 1))
        b = tl.load(b_block, boundary_check=(0, 1))
        acc += tl.dot(a, b)
        a_block = tl.advance(a_block, (0, BLOCK_K))
        b_block = tl.advance(b_block, (BLOCK_K, 0))
    c_block = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, stride_cn), (pid_m * BLOCK_M, pid_n * BLOCK_N),
                                (BLOCK_M, BLOCK_N), (1, 0))
    tl.store(c_block, acc.to(tl.float16), boundary_check=(0, 1))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((M, K), device=device, dtype=torch.float16, generator=g),
            "b": (torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ B, fp16 [M, N], one program per 128 x 128 tile."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    matmul_block_ptr[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                           c.stride(1), BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                           num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float()


def library(inputs: dict[str, Any]) -> Any:
    return inputs["a"] @ inputs["b"]


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
