"""FlagGems' general matmul ``mm_kernel_general`` (FlagOpen/FlagGems src/flag_gems/ops/mm.py, launched by
``general_mm`` from ``mm(a, b)``; ``tle.program_id`` from flag_gems/utils/triton_lang_extension.py widens the id to
int64): the K loop PEELED as straight-line code: ``prev_multiple = prev_multiple_of(K, BLOCK_K)`` (a
``@triton.jit`` helper, ``tl.cdiv(a, b) * b - b``: the loop runs every whole block but the last), the loop's loads
unmasked, then the last block loaded once more after the loop with ``mask_k`` and ``other=0.0`` and a second
``acc += tl.dot(...)`` on the loop's accumulator. Mixed input dtypes as ``mm`` allows them (``c_dtype =
get_higher_dtype(a.dtype, b.dtype)``): fp16 activations times a bf16 weight into bf16, so the compile-time ``if
a.dtype != b.dtype:`` is taken in the loop and in the peeled step (both operands cast to ``C.dtype.element_ty``
before the dot). Also kept: the GROUP_M reordering with Python ``min``, ``tl.max_contiguous(tl.multiple_of(rm % M,
BLOCK_M), BLOCK_M)`` wrapped rows and columns, ``rk`` recomputed from ``start_k`` each step (no pointer
increments), ``tl.dot(a, b, out_dtype=tl.float32, allow_tf32=False)``, rm / rn rematerialised for the masked store.
FlagGems' ``libtuner`` keyed on M, N, K and the strides is rendered as ``triton.autotune`` over its nvidia
tune_configs.yaml ``mm`` entries; TWILL_SPEC takes {64, 128, 64, 3 stages, 4 warps}; ``@libentry()`` is left out."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "mm_kernel_general",
    "signature": {"A": "*fp16", "B": "*bf16", "C": "*bf16", "M": "i32", "N": "i32", "K": "i32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    # the unit strides a launch passes, which Triton's launcher specialises as constants
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64,
                   "GROUP_M": 8},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["A", "B", "C", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 4096, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 100, "N": 200, "K": 200}      # ragged M and N (wrapped), K's last block partial


def mm_configs():
    return [triton.Config({"BLOCK_M": m, "BLOCK_N": n, "BLOCK_K": k}, num_stages=s, num_warps=w)
            for m, n, k, s, w in [(64, 64, 64, 5, 4), (64, 128, 64, 3, 4), (64, 64, 128, 4, 8),
                                  (64, 128, 128, 4, 8), (64, 64, 64, 4, 4), (64, 64, 128, 3, 4)]]


@triton.jit
def program_id(axis: tl.constexpr) -> tl.tensor:
    return tl.program_id(axis).to(tl.int64)


@triton.jit
def prev_multiple_of(a, b):
    # the largest x<a that x%b ==0
    return tl.cdiv(a, b) * b - b


@triton.autotune(configs=mm_configs(), key=["M", "N", "K", "stride_am", "stride_bk"])
@triton.jit
def mm_kernel_general(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    # twill corpus rendition: C = A @ B, the last K block peeled after the loop
    pid = program_id(0)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * grid_n                   # re-order program ID for better L2 performance
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    prev_multiple = prev_multiple_of(K, BLOCK_K)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start_k in range(0, prev_multiple, BLOCK_K):
        rk = start_k + tl.arange(0, BLOCK_K)
        a = tl.load(A + (ram[:, None] * stride_am + rk[None, :] * stride_ak))
        b = tl.load(B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn))
        if a.dtype != b.dtype:
            a = a.to(C.dtype.element_ty)
            b = b.to(C.dtype.element_ty)
        acc += tl.dot(a, b, out_dtype=tl.float32, allow_tf32=False)

    # loop peeling
    rk = prev_multiple + tl.arange(0, BLOCK_K)
    mask_k = rk < K
    a = tl.load(A + (ram[:, None] * stride_am + rk[None, :] * stride_ak), mask=mask_k[None, :], other=0.0)
    b = tl.load(B + (rk[:, None] * stride_bk + rbn[None, :] * stride_bn), mask=mask_k[:, None], other=0.0)
    if a.dtype != b.dtype:
        a = a.to(C.dtype.element_ty)
        b = b.to(C.dtype.element_ty)
    acc += tl.dot(a, b, out_dtype=tl.float32, allow_tf32=False)

    acc = acc.to(C.dtype.element_ty)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)      # rematerialize rm and rn to save registers
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    C = C + (rm[:, None] * stride_cm + rn[None, :] * stride_cn)
    mask = (rm < M)[:, None] & (rn < N)[None, :]
    tl.store(C, acc, mask=mask)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """a [M, K] fp16 activations, b [K, N] a bf16 weight (row-major both)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g).half()
    b = (torch.randn((K, N), device=device, generator=g) / K ** 0.5).bfloat16()
    return {"a": a, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """general_mm(a, b, c, M, N, K) with c in the higher dtype (bf16), the spec's tile (the autotuner's configs
    bypassed: ``.fn``)."""
    import torch
    a, b = inputs["a"], inputs["b"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=torch.bfloat16)
    bm, bn = config.get("BLOCK_M", 64), config.get("BLOCK_N", 128)
    mm_kernel_general.fn[(triton.cdiv(M, bm) * triton.cdiv(N, bn),)](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
        BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=config.get("BLOCK_K", 64), GROUP_M=8,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    a = inputs["a"].bfloat16().double()
    return (a @ inputs["b"].double()).to(torch.bfloat16)


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
