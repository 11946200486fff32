"""FBGEMM's persistent FP8 row-wise GEMM (fbgemm_gpu/experimental/gemm/triton_gemm/fp8_gemm.py,
``_kernel_matmul_fp8_row`` with ``NUM_SMS``): C = (A @ B^T) * a_scale[:, None] * b_scale[None, :] + bias, A [M, K]
and B [N, K] e4m3 (both K-major, B read transposed through its strides), bf16 out.

The constructs: the flat persistent form, ONE loop ``for _ in range(0, k_tiles * tiles_per_SM)`` over the program's
(tile, k) pairs, ``ki = tl.where(ki == k_tiles - 1, 0, ki + 1)``, the grouped tile offsets recomputed under
``if ki == 0`` (clamped with ``tl.where``, ``tl.max_contiguous(tl.multiple_of(...))``), fp8 tiles loaded through
pointers with a mask along K, ``tl.dot(a, b, acc, out_dtype=dot_out_dtype, allow_tf32=allow_tf32)``, and under
``if ki == k_tiles - 1`` the epilogue inside the loop: the row scales of A and column scales of B loaded and
multiplied in (``skip_scaling_a`` constexpr), the optional bias (``USE_BIAS`` constexpr) added, a bf16 masked store,
then ``acc = tl.zeros(...)`` for the next tile. m_key / n_key / k_key are FBGEMM's autotuning keys (unused in the
body). ``launch`` starts min(NUM_SMS, tiles) programs. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_SMS = 132
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_kernel_matmul_fp8_row",
    "signature": {"A_ptr": "*fp8e4nv", "B_ptr": "*fp8e4nv", "C_ptr": "*bf16", "M": "i32", "N": "i32", "K": "i32",
                  "m_key": "i32", "n_key": "i32", "k_key": "i32",
                  "A_scale": "*fp32", "B_scale": "*fp32", "Bias": "*fp32",
                  "stride_am": "i32", "stride_ak": "constexpr", "stride_bn": "i32", "stride_bk": "constexpr",
                  "stride_cm": "i32", "stride_cn": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_cn": 1,
                   "dot_out_dtype": tl.float32, "allow_tf32": True, "fp8_fast_accum": True, "skip_scaling_a": False,
                   "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_M": 8, "SPLIT_K": 1, "USE_BIAS": True,
                   "AB_DTYPE": False, "NUM_SMS": NUM_SMS},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["A_ptr", "B_ptr", "C_ptr", "A_scale", "B_scale", "Bias", "M", "N", "K",
                     "stride_am", "stride_bn", "stride_cm"]}
PROBLEM: dict[str, int] = {"M": 8192, "N": 8192, "K": 8192}
SMALL: dict[str, int] = {"M": 1800, "N": 1500, "K": 400}     # 180 tiles > 132 programs (some walk two), ragged M, N, partial last K tile


@triton.jit
def _kernel_matmul_fp8_row(
    A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias,
    stride_am, stride_ak, stride_bn, stride_bk, stride_cm, stride_cn,
    dot_out_dtype: tl.constexpr, allow_tf32: tl.constexpr, fp8_fast_accum: tl.constexpr,
    skip_scaling_a: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr, SPLIT_K: tl.constexpr, USE_BIAS: tl.constexpr, AB_DTYPE: tl.constexpr,
    NUM_SMS: tl.constexpr,
) -> None:
    # Matrix multiplication.
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n

    tiles_per_SM = num_tiles // NUM_SMS
    if start_pid < num_tiles % NUM_SMS:
        tiles_per_SM += 1

    tile_id = start_pid - NUM_SMS
    ki = -1

    offs_k_for_mask = tl.arange(0, BLOCK_K)

    num_pid_in_group = GROUP_M * num_pid_n

    pid_m = 0
    pid_n = 0
    offs_am = tl.arange(0, BLOCK_M)
    offs_bn = tl.arange(0, BLOCK_N)
    acc_dtype = tl.float32 if allow_tf32 else dot_out_dtype
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=acc_dtype)

    for _ in range(0, k_tiles * tiles_per_SM):
        ki = tl.where(ki == k_tiles - 1, 0, ki + 1)
        if ki == 0:
            tile_id += NUM_SMS
            group_id = tile_id // num_pid_in_group
            first_pid_m = group_id * GROUP_M
            group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
            pid_m = first_pid_m + (tile_id % group_size_m)
            pid_n = (tile_id % num_pid_in_group) // group_size_m

            start_m = pid_m * BLOCK_M
            start_n = pid_n * BLOCK_N
            offs_am = start_m + tl.arange(0, BLOCK_M)
            offs_bn = start_n + tl.arange(0, BLOCK_N)
            offs_am = tl.where(offs_am < M, offs_am, 0)
            offs_bn = tl.where(offs_bn < N, offs_bn, 0)
            offs_am = tl.max_contiguous(tl.multiple_of(offs_am, BLOCK_M), BLOCK_M)
            offs_bn = tl.max_contiguous(tl.multiple_of(offs_bn, BLOCK_N), BLOCK_N)
        offs_k = ki * BLOCK_K + tl.arange(0, BLOCK_K)
        A = A_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
        B = B_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)

        a = tl.load(A, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_K, other=0.0)
        b = tl.load(B, mask=offs_k_for_mask[:, None] < K - ki * BLOCK_K, other=0.0)
        if AB_DTYPE:
            a = a.to(C_ptr.dtype.element_ty)
            b = b.to(C_ptr.dtype.element_ty)
        acc = tl.dot(a, b, acc, out_dtype=acc_dtype, allow_tf32=allow_tf32)

        if ki == k_tiles - 1:
            # rematerialize rm and rn to save registers
            rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
            rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)

            # Invert scaling.
            b_scale = tl.load(B_scale + rn, mask=rn < N)
            if skip_scaling_a:
                acc *= b_scale[None, :]
            else:
                a_scale = tl.load(A_scale + rm, mask=rm < M)
                scale = a_scale[:, None] * b_scale[None, :]
                acc *= scale

            # Load and add bias if specified.
            if USE_BIAS:
                bias = tl.load(Bias + rn, mask=rn < N)
                acc += bias[None, :]

            acc = acc.to(C_ptr.dtype.element_ty)
            C = C_ptr + (rm[:, None] * stride_cm + rn[None, :] * stride_cn)
            mask = (rm < M)[:, None] & (rn < N)[None, :]
            # Handles write-back with reduction-splitting
            tl.store(C, acc, mask=mask)
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=acc_dtype)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0,
                dtype: Any = None) -> dict[str, Any]:
    """Row-wise quantised operands as fbgemm's quantize_fp8_row makes them: x = x_fp8 * scale, e4m3 max 448.
    ``dtype`` overrides the operands' storage type (a check where fp8 cannot run)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    a = torch.randn((M, K), device=device, generator=g)
    b = torch.randn((N, K), device=device, generator=g) * 0.05
    a_scale = a.abs().amax(dim=1).clamp(min=1e-12) / 448.0
    b_scale = b.abs().amax(dim=1).clamp(min=1e-12) / 448.0
    qdtype = dtype or torch.float8_e4m3fn
    a_q = (a / a_scale[:, None]).clamp(-448, 448).to(torch.float8_e4m3fn).to(qdtype)
    b_q = (b / b_scale[:, None]).clamp(-448, 448).to(torch.float8_e4m3fn).to(qdtype)
    bias = torch.randn((N,), device=device, generator=g)
    return {"a": a_q, "b": b_q, "a_scale": a_scale.float(), "b_scale": b_scale.float(), "bias": bias.float()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """C, bf16 [M, N], from min(NUM_SMS, tiles) programs."""
    import torch
    a, b = inputs["a"], inputs["b"]
    (M, K), (N, _) = a.shape, b.shape
    c = torch.empty((M, N), device=a.device, dtype=torch.bfloat16)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 128
    grid = (min(NUM_SMS, triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)),)
    _kernel_matmul_fp8_row[grid](
        a, b, c, M, N, K, M, N, K, inputs["a_scale"], inputs["b_scale"], inputs["bias"],
        a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
        dot_out_dtype=tl.float32, allow_tf32=True, fp8_fast_accum=True, skip_scaling_a=False,
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8, SPLIT_K=1, USE_BIAS=True, AB_DTYPE=False,
        NUM_SMS=NUM_SMS, num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    a, b = inputs["a"].double(), inputs["b"].double()
    return (a @ b.T) * inputs["a_scale"].double()[:, None] * inputs["b_scale"].double()[None, :] \
        + inputs["bias"].double()[None, :]


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
