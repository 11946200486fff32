"""A GEMM in the style of triton_kernels' routing and top-k kernels: every program first zeroes its block of a
scratch buffer that a later kernel fills (``if pid < s_blocks: tl.store(S + ..., 0)``, an ``scf.if`` holding a store),
then returns early where its row block lies past the rows that carry work (``if pid_m * BLOCK_M >= num_valid:
return``), then the tutorial's pointer-load K loop and a masked store. The memset runs on every path, the programs
that return included: a kernel that wrote it after the early return would leave their blocks as they were.

C = A @ B in every row block that starts below num_valid (the rest left as allocated, zero), and S zeroed in its
first s_blocks blocks of BLOCK_S (the rest left as allocated, -1). fp16 in, fp32 accumulate, fp16 out; nothing here
is imported by twill.
"""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "memset_guarded_gemm",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "s_ptr": "*i32", "M": "i32", "N": "i32",
                  "K": "i32", "num_valid": "i32", "s_blocks": "i32", "stride_am": "i32", "stride_bk": "i32",
                  "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "BLOCK_S": 64},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"],
}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096, "num_valid": 3000, "s_blocks": 1000}
SMALL: dict[str, int] = {"M": 512, "N": 384, "K": 320, "num_valid": 300, "s_blocks": 11}
MORE_CHECKS = [{"M": 512, "N": 384, "K": 320, "num_valid": 512, "s_blocks": 3}]


@triton.jit
def memset_guarded_gemm(a_ptr, b_ptr, c_ptr, s_ptr, M, N, K, num_valid, s_blocks, stride_am, stride_bk, stride_cm,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_S: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid = pid_m * tl.num_programs(1) + pid_n
    if pid < s_blocks:
        tl.store(s_ptr + BLOCK_S * pid + tl.arange(0, BLOCK_S), tl.zeros([BLOCK_S], tl.int32))
    if pid_m * BLOCK_M >= num_valid:
        return
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(tl.float16)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def make_inputs(M: int, N: int, K: int, num_valid: int, s_blocks: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, dtype=torch.float16, generator=g)
    b = (torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)
    return {"a": a, "b": b, "num_valid": num_valid, "s_blocks": s_blocks}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(C fp16 [M, N], S as float [programs x 64]): C's row blocks starting below num_valid computed, the rest zero;
    S's first s_blocks blocks zeroed, the rest -1 (as allocated here); one program per tile."""
    import torch
    a, b = inputs["a"], inputs["b"]
    (M, K), (_, N) = a.shape, b.shape
    c = torch.zeros((M, N), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    s = torch.full((grid[0] * grid[1] * 64,), -1, device=a.device, dtype=torch.int32)
    memset_guarded_gemm[grid](a, b, c, s, M, N, K, inputs["num_valid"], inputs["s_blocks"], a.stride(0), b.stride(0),
                              c.stride(0), BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, BLOCK_S=64,
                              num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c, s.float()


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a, b, v = inputs["a"], inputs["b"], inputs["num_valid"]
    (M, _), (_, N) = a.shape, b.shape
    c = a.float() @ b.float()
    c[-(-v // 128) * 128:] = 0
    s = torch.full((-(-M // 128) * -(-N // 128) * 64,), -1.0, device=a.device)
    s[:inputs["s_blocks"] * 64] = 0
    return c, s


def flops(M: int, N: int, K: int, num_valid: int, s_blocks: int) -> float:
    return 2.0 * num_valid * N * K
