"""An int8 GEMM in the tutorial style (B loaded N-contiguous, int32 accumulate): wgmma reads 8-bit operands K-major,
so Triton lays B out transposed in shared memory, where a cp.async copy of it would move one byte: the Gluon back end
copies B through the producer's registers (as Triton's pipeline does) and A with cp.async. Nothing here is imported
by twill."""
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*i32", "M": "i32", "N": "i32", "K": "i32",
                            "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
              "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128}, "num_warps": 8, "num_stages": 3,
              "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 512}


@triton.jit
def gemm_i8(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randint(-128, 128, (M, K), device=device, dtype=torch.int8, generator=g),
            "b": torch.randint(-128, 128, (K, N), device=device, dtype=torch.int8, generator=g)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ B, int32 [M, N] (exact), one program per 128 x 128 tile; M, N, K multiples of 128."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.full((M, N), -1, device=a.device, dtype=torch.int32)
    gemm_i8[(M // 128, N // 128)](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                  BLOCK_M=128, BLOCK_N=128, BLOCK_K=128,
                                  num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return (inputs["a"].double() @ inputs["b"].double())


def library(inputs: dict[str, Any]) -> Any:
    """cuBLAS's int8 GEMM (torch._int_mm), int32 out."""
    import torch
    return torch._int_mm(inputs["a"], inputs["b"])


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
