"""A 3-D (batched) dot inside the K loop, as some MoE / small-head attention kernels write it: each program owns
BLOCK_B batch entries and loads [BLOCK_B, BLOCK_M, BLOCK_K] x [BLOCK_B, BLOCK_K, BLOCK_N] tiles through 3-D pointer
blocks, ``acc = tl.dot(a, b, acc)`` with a [BLOCK_B, BLOCK_M, BLOCK_N] accumulator; fp16 in, fp32 acc, fp16 out."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "bmm3d_kernel",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "BATCH": "i32", "M": "i32", "N": "i32",
                  "K": "i32", "stride_ab": "i32", "stride_am": "i32", "stride_bb": "i32", "stride_bk": "i32",
                  "stride_cb": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_B": 4, "BLOCK_M": 32, "BLOCK_N": 64, "BLOCK_K": 32},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_ab", "stride_am", "stride_bb", "stride_bk",
                     "stride_cb", "stride_cm"]}
PROBLEM: dict[str, int] = {"BATCH": 1024, "M": 64, "N": 64, "K": 1024}
SMALL: dict[str, int] = {"BATCH": 6, "M": 40, "N": 70, "K": 100}


@triton.jit
def bmm3d_kernel(a_ptr, b_ptr, c_ptr, BATCH, M, N, K, stride_ab, stride_am, stride_bb, stride_bk, stride_cb,
                 stride_cm, BLOCK_B: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_b = tl.program_id(2)
    offs_b = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_b[:, None, None] * stride_ab + offs_m[None, :, None] * stride_am + offs_k[None, None, :]
    b_ptrs = b_ptr + offs_b[:, None, None] * stride_bb + offs_k[None, :, None] * stride_bk + offs_n[None, None, :]
    mask_a = (offs_b[:, None, None] < BATCH) & (offs_m[None, :, None] < M)
    mask_b = (offs_b[:, None, None] < BATCH) & (offs_n[None, None, :] < N)
    acc = tl.zeros([BLOCK_B, BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_rem = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=mask_a & (offs_k[None, None, :] < k_rem), other=0.0)
        b = tl.load(b_ptrs, mask=mask_b & (offs_k[None, :, None] < k_rem), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_b[:, None, None] * stride_cb + offs_m[None, :, None] * stride_cm + offs_n[None, None, :]
    c_mask = (offs_b[:, None, None] < BATCH) & (offs_m[None, :, None] < M) & (offs_n[None, None, :] < N)
    tl.store(c_ptrs, acc.to(tl.float16), mask=c_mask)


def make_inputs(BATCH: int, M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((BATCH, M, K), device=device, generator=g).half()
    b = (torch.randn((BATCH, K, N), device=device, generator=g) / K ** 0.5).half()
    return {"a": a, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """a @ b, fp16 [BATCH, M, N]."""
    import torch
    a, b = inputs["a"], inputs["b"]
    BATCH, M, K = a.shape
    N = b.shape[-1]
    c = torch.empty((BATCH, M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 64), triton.cdiv(BATCH, 4))
    bmm3d_kernel[grid](a, b, c, BATCH, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                       c.stride(1), BLOCK_B=4, BLOCK_M=32, BLOCK_N=64, BLOCK_K=32,
                       num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].double() @ inputs["b"].double()


def flops(BATCH: int, M: int, N: int, K: int) -> float:
    return 2.0 * BATCH * M * N * K
