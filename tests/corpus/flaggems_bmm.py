"""FlagGems' batched matmul (src/flag_gems/ops/bmm.py ``bmm_kernel`` with flag_gems/utils/triton_lang_extension.py's
``program_id`` / ``num_programs``, which widen the ids to int64): grid (M tiles, N tiles, batch), the batch on axis 2
(``A += pid_b * stride_ab``), the CTA reordering in groups of GROUP_M built from ``ext.num_programs`` with a scalar
``tl.where`` for the last group's size, and the masks chosen by the DIVISIBLE_M / DIVISIBLE_N / DIVISIBLE_K
constexprs (FlagGems' heuristics): ``mask_a = mask_m[:, None]`` (a [TILE_M, 1] mask broadcast over the load),
``mask_b = None`` (the load's mask passed positionally as None), ``mask_k`` unused; ``offs_k += TILE_K`` advanced in
the loop beside the pointers; ``o += tl.dot(a, b, allow_tf32=False)``; the fp32 accumulator stored into the fp16
output through the store's implicit cast, under ``mask_c = mask_m[:, None]``. IS_FP64 is off. Here M is ragged
(DIVISIBLE_M False), N and K are multiples of the tiles, as an attention-score bmm over a padded head dimension has
them. Config {TILE_M 128, TILE_N 128, TILE_K 64, GROUP_M 8, 8 warps, 3 stages}. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TILE_M, TILE_N, TILE_K, GROUP_M = 128, 128, 64, 8
TWILL_SPEC: dict[str, Any] = {
    "kernel": "bmm_kernel",
    "signature": {"A": "*fp16", "B": "*fp16", "O": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                  "stride_ab": "i32", "stride_am": "i32", "stride_ak": "constexpr",
                  "stride_bb": "i32", "stride_bk": "i32", "stride_bn": "constexpr",
                  "stride_ob": "i32", "stride_om": "i32", "stride_on": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_on": 1, "TILE_M": TILE_M, "TILE_N": TILE_N,
                   "TILE_K": TILE_K, "GROUP_M": GROUP_M, "DIVISIBLE_M": False, "DIVISIBLE_N": True,
                   "DIVISIBLE_K": True, "IS_FP64": False},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["N", "K", "stride_ab", "stride_am", "stride_bb", "stride_bk", "stride_ob", "stride_om"]}
PROBLEM: dict[str, int] = {"Bt": 32, "M": 2000, "N": 2048, "K": 1024}
SMALL: dict[str, int] = {"Bt": 3, "M": 200, "N": 256, "K": 192}     # 2 x 2 tiles a batch, 3 K steps


@triton.jit
def program_id(axis: tl.constexpr) -> tl.tensor:
    return tl.program_id(axis).to(tl.int64)


@triton.jit
def num_programs(axis: tl.constexpr) -> tl.tensor:
    return tl.num_programs(axis).to(tl.int64)


@triton.jit
def bmm_kernel(
    A,
    B,
    O,
    M,
    N,
    K,
    stride_ab,
    stride_am,
    stride_ak,
    stride_bb,
    stride_bk,
    stride_bn,
    stride_ob,
    stride_om,
    stride_on,
    TILE_M: tl.constexpr,
    TILE_N: tl.constexpr,
    TILE_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    DIVISIBLE_M: tl.constexpr,
    DIVISIBLE_N: tl.constexpr,
    DIVISIBLE_K: tl.constexpr,
    IS_FP64: tl.constexpr = False,
):
    # batch offsets
    pid_b = program_id(2)
    A += pid_b * stride_ab
    B += pid_b * stride_bb
    O += pid_b * stride_ob

    pidx = program_id(0)
    pidy = program_id(1)

    if GROUP_M == 1:
        pid_m, pid_n = pidx, pidy
    else:
        # reorder CTAs
        gridx = num_programs(0)
        gridy = num_programs(1)
        pid = pidx + pidy * gridx

        num_CTA_per_group = gridy * GROUP_M

        group_id = pid // num_CTA_per_group
        inner_group_id = pid % num_CTA_per_group
        GROUP_SIZE = tl.where(
            (group_id * GROUP_M + GROUP_M) > gridx, gridx % GROUP_M, GROUP_M
        )
        pid_m = group_id * GROUP_M + inner_group_id % GROUP_SIZE
        pid_n = inner_group_id // GROUP_SIZE

    offs_m = pid_m * TILE_M + tl.arange(0, TILE_M)
    offs_n = pid_n * TILE_N + tl.arange(0, TILE_N)
    offs_k = tl.arange(0, TILE_K)

    if not DIVISIBLE_M:
        mask_m = offs_m < M
    if not DIVISIBLE_N:
        mask_n = offs_n < N

    a_ptrs = A + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = B + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    o_ptrs = O + offs_m[:, None] * stride_om + offs_n[None, :] * stride_on

    num_iters = tl.cdiv(K, TILE_K)
    if IS_FP64:
        o = tl.zeros((TILE_M, TILE_N), dtype=tl.float64)
    else:
        o = tl.zeros((TILE_M, TILE_N), dtype=tl.float32)
    for _ in range(num_iters):
        if DIVISIBLE_K:
            if DIVISIBLE_M:
                mask_a = None
            else:
                mask_a = mask_m[:, None]
            if DIVISIBLE_N:
                mask_b = None
            else:
                mask_b = mask_n[None, :]
        else:
            mask_k = offs_k < K
            if DIVISIBLE_M:
                mask_a = mask_k[None, :]
            else:
                mask_a = mask_m[:, None] & mask_k[None, :]
            if DIVISIBLE_N:
                mask_b = mask_k[:, None]
            else:
                mask_b = mask_k[:, None] & mask_n[None, :]

        a = tl.load(a_ptrs, mask_a)
        b = tl.load(b_ptrs, mask_b)

        offs_k += TILE_K
        a_ptrs += TILE_K * stride_ak
        b_ptrs += TILE_K * stride_bk

        o += tl.dot(a, b, allow_tf32=False)

    if DIVISIBLE_M and DIVISIBLE_N:
        mask_c = None
    elif DIVISIBLE_M and not DIVISIBLE_N:
        mask_c = mask_n[None, :]
    elif not DIVISIBLE_M and DIVISIBLE_N:
        mask_c = mask_m[:, None]
    else:
        mask_c = mask_m[:, None] & mask_n[None, :]
    tl.store(o_ptrs, o, mask_c)


def make_inputs(Bt: int, M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((Bt, M, K), device=device, generator=g).half()
    b = (torch.randn((Bt, K, N), device=device, generator=g) / K ** 0.5).half()
    return {"a": a, "b": b}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """O = A @ B per batch, fp16 [Bt, M, N]; the DIVISIBLE_* flags as FlagGems' heuristics compute them."""
    import torch
    A, B = inputs["a"], inputs["b"]
    batch, M, K = A.shape
    _, _, N = B.shape
    out = torch.empty((batch, M, N), dtype=A.dtype, device=A.device)
    grid = (triton.cdiv(M, TILE_M), triton.cdiv(N, TILE_N), batch)
    bmm_kernel[grid](
        A, B, out, M, N, K, A.stride(0), A.stride(1), A.stride(2), B.stride(0), B.stride(1), B.stride(2),
        out.stride(0), out.stride(1), out.stride(2), TILE_M=TILE_M, TILE_N=TILE_N, TILE_K=TILE_K, GROUP_M=GROUP_M,
        DIVISIBLE_M=M % TILE_M == 0, DIVISIBLE_N=N % TILE_N == 0, DIVISIBLE_K=K % TILE_K == 0,
        IS_FP64=A.dtype == torch.float64,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    return inputs["a"].float() @ inputs["b"].float()


def flops(Bt: int, M: int, N: int, K: int) -> float:
    return 2.0 * Bt * M * N * K


def library(inputs: dict[str, Any]) -> Any:
    """cuBLAS's batched product of the same operands."""
    return inputs["a"] @ inputs["b"]
