"""An fp32 GEMM at near-fp32 accuracy on the TF32 tensor cores, as scientific-computing codes that keep fp32 data write
it (the three-pass split ``tl.dot(..., input_precision="tf32x3")``: a = a_hi + a_lo in TF32, a_hi b_hi + a_hi b_lo +
a_lo b_hi), the precision chosen by a string constexpr ``DOT_PRECISION`` that the host wrapper sets from a
``precision=`` argument ("ieee" / "tf32x3" / "tf32"), in the Triton tutorial 03 structure those libraries start from.

The constructs: the tutorial's ``GROUP_SIZE_M`` swizzle of the 1-D program id; ``offs_am = (pid_m * BLOCK_SIZE_M +
tl.arange(0, BLOCK_SIZE_M)) % M`` (and ``% N``) wrapped rows; a K loop ``for k in range(0, tl.cdiv(K, BLOCK_SIZE_K))``
with the K tail masked (``offs_k < K - k * BLOCK_SIZE_K``, ``other=0.0``); ``accumulator = tl.dot(a, b,
accumulator, input_precision=DOT_PRECISION)``; an optional fused ``alpha`` / ``beta * C`` epilogue (BLAS sgemm
semantics, ``HAS_BETA`` constexpr) and a masked fp32 store.

Specialisation: fp32 A [M, K], B [K, N] (both row-major), C [M, N]; 128 x 128 x 32 tiles, GROUP_SIZE_M 8, 8 warps,
3 stages, tf32x3, beta on. SMALL keeps M, N, K multiples of 16 (the spec's divisibility) but not of the blocks (a
K tail). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "sgemm_kernel",
    "signature": {"a_ptr": "*fp32", "b_ptr": "*fp32", "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                  "alpha": "fp32", "beta": "fp32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "HAS_BETA": True, "DOT_PRECISION": "tf32x3",
                   "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 208, "N": 176, "K": 112}
VALIDATE_TOL = 1e-4      # tf32x3 is close to fp32 (a plain TF32 dot misses this by 10x-100x)


@triton.jit
def sgemm_kernel(
    a_ptr, b_ptr, c_ptr,
    M, N, K,
    alpha, beta,
    stride_am, stride_ak,
    stride_bk, stride_bn,
    stride_cm, stride_cn,
    HAS_BETA: tl.constexpr,
    DOT_PRECISION: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
):
    """C <- alpha * A @ B + beta * C in fp32."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator, input_precision=DOT_PRECISION)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    result = alpha * accumulator
    if HAS_BETA:
        c_old = tl.load(c_ptrs, mask=c_mask, other=0.0)
        result += beta * c_old
    tl.store(c_ptrs, result, mask=c_mask)


def sgemm(a: Any, b: Any, c: Any = None, alpha: float = 1.0, beta: float = 0.0, precision: str = "tf32x3",
          num_warps: int = 8, num_stages: int = 3) -> Any:
    """BLAS-style sgemm: returns alpha * a @ b + beta * c (c updated in place when given)."""
    import torch
    assert a.dtype == b.dtype == torch.float32 and a.shape[1] == b.shape[0]
    assert precision in ("ieee", "tf32x3", "tf32")
    M, K = a.shape
    _, N = b.shape
    if c is None:
        c = torch.empty((M, N), device=a.device, dtype=torch.float32)
        beta = 0.0
    grid = lambda META: (triton.cdiv(M, META["BLOCK_SIZE_M"]) * triton.cdiv(N, META["BLOCK_SIZE_N"]),)
    sgemm_kernel[grid](
        a, b, c, M, N, K, alpha, beta,
        a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
        HAS_BETA=beta != 0.0, DOT_PRECISION=precision,
        BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=32, GROUP_SIZE_M=8,
        num_warps=num_warps, num_stages=num_stages)
    return c


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """fp32 a [M, K], b [K, N] (entries of C of order 1) and c [M, N]; alpha 1.5, beta -0.5."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g)
    b = torch.randn((K, N), device=device, generator=g) / K ** 0.5
    c = torch.randn((M, N), device=device, generator=g)
    return {"a": a, "b": b, "c": c, "alpha": 1.5, "beta": -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """alpha * a @ b + beta * c, fp32 [M, N], into a copy of c (the inputs stay as they are)."""
    c = inputs["c"].clone()
    return sgemm(inputs["a"], inputs["b"], c, inputs["alpha"], inputs["beta"],
                 num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["alpha"] * (inputs["a"].double() @ inputs["b"].double()) + inputs["beta"] * inputs["c"].double()


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
