"""FBGEMM's row-wise FP8 GEMM with split-K (fbgemm_gpu/experimental/gemm/triton_gemm/fp8_gemm.py,
``_kernel_matmul_fp8_row`` with ``SPLIT_K > 1``, ``EVEN_K`` false, ``fp8_fast_accum`` false, no bias; rewritten
here): e4m3 A [M, K] (per-token scales) and B [N, K] (per-channel scales) read K-major, grid (tiles, SPLIT_K); the
tile from a GROUP_M swizzle, its rows and columns wrapped ``% M`` / ``% N`` under ``tl.max_contiguous(
tl.multiple_of(...))``; program ``pid_z`` starts at K block ``pid_z`` and strides ``BLOCK_K * SPLIT_K``, the ragged K
tail masked by ``k_remaining``; ``acc += tl.dot(a, b, out_dtype=tl.float32, allow_tf32=...)`` (the slow-accumulate
form: a fresh dot added into the accumulator, not passed as its ``acc``); after the loop the row and column indices
rematerialised, the fp32 scales loaded with masks and their outer product multiplied into the partial tile, the
result cast to ``C.dtype.element_ty`` and, the split being > 1, added into a zeroed fp32 C with ``tl.atomic_add``
under the (row, column) mask (``tl.store`` in the SPLIT_K == 1 branch, not taken). Nothing here is imported by
twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_kernel_matmul_fp8_row_splitk",
    "signature": {"A": "*fp8e4nv", "B": "*fp8e4nv", "C": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                  "A_scale": "*fp32", "B_scale": "*fp32", "stride_am": "i32", "stride_ak": "constexpr",
                  "stride_bn": "i32", "stride_bk": "constexpr", "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1, "allow_tf32": True, "BLOCK_M": 128,
                   "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_M": 8, "SPLIT_K": 4, "EVEN_K": False},
    "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K", "stride_am", "stride_bn", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 1024, "N": 4096, "K": 16384}
SMALL: dict[str, int] = {"M": 100, "N": 144, "K": 1328}    # ragged M and N, K not a multiple of SPLIT_K * BLOCK_K


@triton.jit
def _kernel_matmul_fp8_row_splitk(A, B, C, M, N, K, A_scale, B_scale, stride_am, stride_ak, stride_bn, stride_bk,
                                  stride_cm, stride_cn, allow_tf32: tl.constexpr, BLOCK_M: tl.constexpr,
                                  BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                                  SPLIT_K: tl.constexpr, EVEN_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_z = tl.program_id(1)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // group_size
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    rk = pid_z * BLOCK_K + tl.arange(0, BLOCK_K)
    A = A + (ram[:, None] * stride_am + rk[None, :] * stride_ak)
    B = B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        if EVEN_K:
            a = tl.load(A)
            b = tl.load(B)
        else:
            k_remaining = K - k * (BLOCK_K * SPLIT_K)
            a = tl.load(A, mask=rk[None, :] < k_remaining, other=0.0)
            b = tl.load(B, mask=rk[:, None] < k_remaining, other=0.0)
        acc += tl.dot(a, b, out_dtype=tl.float32, allow_tf32=allow_tf32)
        A += BLOCK_K * SPLIT_K * stride_ak
        B += BLOCK_K * SPLIT_K * stride_bk
    # rematerialize rm and rn to save registers
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    a_scale = tl.load(A_scale + rm, mask=rm < M)
    b_scale = tl.load(B_scale + rn, mask=rn < N)
    scale = a_scale[:, None] * b_scale[None, :]
    acc *= scale
    acc = acc.to(C.dtype.element_ty)
    C = C + (rm[:, None] * stride_cm + rn[None, :] * stride_cn)
    mask = (rm < M)[:, None] & (rn < N)[None, :]
    if SPLIT_K == 1:
        tl.store(C, acc, mask=mask)
    else:
        tl.atomic_add(C, acc, mask=mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [M, K], b [N, K] e4m3 (std 1); per-token scales of A and per-channel scales of B, fp32."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).to(torch.float8_e4m3fn)
    b = torch.randn((N, K), device=device, generator=g).to(torch.float8_e4m3fn)
    sa = (torch.rand(M, device=device, generator=g) + 0.5) / K ** 0.5
    sb = torch.rand(N, device=device, generator=g) + 0.5
    return {"a": a, "b": b, "sa": sa, "sb": sb}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C = (A @ B.T) * sa[:, None] * sb[None, :], fp32 [M, N], SPLIT_K programs adding into a zeroed C."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[0]
    c = torch.zeros((M, N), device=a.device, dtype=torch.float32)
    grid = (triton.cdiv(M, 128) * triton.cdiv(N, 128), 4)
    _kernel_matmul_fp8_row_splitk[grid](a, b, c, M, N, K, inputs["sa"], inputs["sb"], a.stride(0), a.stride(1),
                                        b.stride(0), b.stride(1), c.stride(0), c.stride(1), allow_tf32=True,
                                        BLOCK_M=128, BLOCK_N=128, BLOCK_K=128, GROUP_M=8, SPLIT_K=4, EVEN_K=False,
                                        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    a, b = inputs["a"].double(), inputs["b"].double()
    return (a @ b.T) * inputs["sa"].double()[:, None] * inputs["sb"].double()[None, :]


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
