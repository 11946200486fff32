"""Split-K GEMM in the style of the split-K Triton kernels of several libraries: the K range cut into SPLIT_K slices
on grid axis 1, masked loads for the ragged end, the partial tile added into C with ``tl.atomic_add``. The spec
says what a launch specialises: the unit strides are constants (an integer argument equal to 1 is), the others
divisible by 16. C = A @ B, fp16 in, fp32 out. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64,
                   "SPLIT_K": 4},
    "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 2048, "N": 2048, "K": 16384}
SMALL: dict[str, int] = {"M": 256, "N": 384, "K": 1040}     # K not a multiple of SPLIT_K * BLOCK_K


@triton.jit
def splitk_gemm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    A = a_ptr + (rm[:, None] * stride_am + rk[None, :] * stride_ak)
    B = b_ptr + (rk[:, None] * stride_bk + rn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_remaining = K - k * (BLOCK_K * SPLIT_K)
        a = tl.load(A, mask=rk[None, :] < k_remaining, other=0.)
        b = tl.load(B, mask=rk[:, None] < k_remaining, other=0.)
        acc += tl.dot(a, b)
        A += BLOCK_K * SPLIT_K * stride_ak
        B += BLOCK_K * SPLIT_K * stride_bk
    C = c_ptr + (rm[:, None] * stride_cm + rn[None, :] * stride_cn)
    mask = (rm < M)[:, None] & (rn < N)[None, :]
    tl.atomic_add(C, acc, mask=mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    return {"a": torch.randn((M, K), device=device, dtype=torch.float16, generator=g),
            "b": (torch.randn((K, N), device=device, dtype=torch.float32, generator=g) / K ** 0.5).to(torch.float16)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = A @ B, fp32 [M, N], from (tiles, SPLIT_K) programs adding into a zeroed C."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.zeros((M, N), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128), 4)
    splitk_gemm[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                      BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, SPLIT_K=4,
                      num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float()


def library(inputs: dict[str, Any]) -> Any:
    return inputs["a"] @ inputs["b"]


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
