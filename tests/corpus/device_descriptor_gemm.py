"""A GEMM whose TMA descriptors the kernel makes itself (``tl.make_tensor_descriptor``), as Triton's 3.x tutorials
(09's descriptor matmul, 06's attention where the host cannot pass one) and newer library kernels write them: made at
the top of the kernel from the pointer arguments, the shapes and the strides; B given N x K (K-major) and transposed in
the dot; the result stored through a descriptor too. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32"},
    "constexprs": {"BM": 128, "BN": 128, "BK": 64}, "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 1040}        # K not a multiple of BK: the descriptor's zero fill


@triton.jit
def device_descriptor_gemm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pid_m * BM, k * BK])
        b = b_desc.load([pid_n * BN, k * BK])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(tl.float16))


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((M, K), device=device, dtype=torch.float16, generator=g),
            "b": (torch.randn((N, K), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ B^T, fp16 [M, N], one program per 128 x 128 tile (Triton needs a global scratch allocator for the
    descriptors a kernel makes)."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[0]
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=a.device, dtype=torch.int8))
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.float16)
    device_descriptor_gemm[(triton.cdiv(M, 128), triton.cdiv(N, 128))](
        a, b, c, M, N, K, BM=128, BN=128, BK=64,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float().T


def library(inputs: dict[str, Any]) -> Any:
    return inputs["a"] @ inputs["b"].T


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
