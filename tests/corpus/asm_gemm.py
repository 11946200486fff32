"""A GEMM whose A tile is scaled in the loop through ``tl.inline_asm_elementwise`` (packed fp16 multiply, as
hand-tuned quantised kernels write their dequantisation), operands by tensor descriptors."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64}, "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K"]}


@triton.jit
def asm_gemm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, [N, K], [K, 1], [BLOCK_N, BLOCK_K])
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K, BLOCK_K):
        a = a_desc.load([pid_m * BLOCK_M, k])
        b = b_desc.load([pid_n * BLOCK_N, k])
        a = tl.inline_asm_elementwise("mul.f16x2 $0, $1, $2;", "=r,r,r", [a, a], dtype=tl.float16, is_pure=True,
                                      pack=2)
        acc = tl.dot(a, b.T, acc)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16))

PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 256, "K": 192}


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((M, K), device=device, dtype=torch.float16, generator=g),
            "b": torch.randn((N, K), device=device, dtype=torch.float16, generator=g)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(A * A) B^T with the square rounded to fp16 by the inline assembly, fp16 [M, N]."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[0]
    c = torch.full((M, N), float("nan"), device=a.device, dtype=torch.float16)
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=a.device))
    asm_gemm[(M // 128, N // 128)](a, b, c, M, N, K, BLOCK_M=128, BLOCK_N=128, BLOCK_K=64,
                                   num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    a = (inputs["a"].float() * inputs["a"].float()).half().double()
    return a @ inputs["b"].double().T


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
