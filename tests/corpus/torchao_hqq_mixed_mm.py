"""torchao's HQQ int4 GEMM ``_mixed_mm_kernel`` (pytorch/ao torchao/prototype/hqq/kernels.py, launched as
``triton_mixed_mm`` in mixed_mm.py does, the weights packed by its ``pack_2xint4``): bf16 activations A [M, K] times
4-bit weights packed two to a uint8 ALONG K (B [K // 2, N]: row r holds rows 2r and 2r + 1 of the unpacked weight,
the low nibble first), asymmetric per-group quantisation with bf16 ``scales`` and ``zeros`` [K // 128, N] (HQQ's
[N, K // 128] metadata passed transposed, so ``stride_scale_k`` is 1 and ``stride_scale_n`` K // 128), the weight
dequantised as ``(b - zeros) * scales``. Constructs kept: ``MIXED_MM_HEURISTICS`` (``triton.heuristics``: EVEN_K,
BLOCK_K = min(BLOCK_K, QGROUP_SIZE), SPLIT_K forced 1 for bf16) under ``triton.autotune`` over its compute-bound
configs; ``tl.static_assert(QGROUP_SIZE % BLOCK_K == 0)``; the GROUP_M swizzle written inline with Python ``min``;
``(... ) % M`` wrapped rows with ``tl.max_contiguous(tl.multiple_of(...))`` under ``if not DEBUG``; the
``TRANSPOSED`` constexpr branches (offsets, masks, scale indexing, pointer steps); the EVEN_K unmasked loads (the
masked ones with ``other=tl.zeros((1, 1), dtype=C.dtype.element_ty)``); the group's scale row found in the loop as
``k * BLOCK_K * SPLIT_K * stride_scale_k // QGROUP_SIZE`` and loaded with the zeros every step; the nibbles unpacked
with uint8 shifts by a ``tl.full((1,), 4, dtype=tl.int8)`` (``(qb << 4) >> 4`` and ``qb >> 4``); the bf16 cast
through fp16, ``tl.join(lo, hi).permute(0, 2, 1).reshape(BLOCK_K, BLOCK_N)`` putting the two nibbles' rows back in
K order; ``acc += tl.dot(a, dq_b, out_dtype=acc_dtype, input_precision=input_precision)`` with dtype and string
constexpr defaults; ``A += BLOCK_K * SPLIT_K * stride_ak`` and ``B += BLOCK_K * SPLIT_K * stride_bk // 2``; the
SPLIT_K epilogue's ``tl.atomic_add`` under ``tl.constexpr(torch.version.hip is not None)`` (not taken: SPLIT_K 1).
TWILL_SPEC takes its compute-bound config {64, 128, 64, 4 stages, 4 warps}; a Llama-class 4096 x 4096 projection at
a prefill of 2048 tokens."""
from __future__ import annotations

from typing import Any

import torch
import triton
import triton.language as tl
from triton import Config

QGROUP = 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_mixed_mm_kernel",
    "signature": {"A": "*bf16", "B": "*u8", "scales_ptr": "*bf16", "zeros_ptr": "*bf16", "C": "*bf16",
                  "M": "i32", "N": "i32", "K": "i32", "stride_am": "i32", "stride_ak": "constexpr",
                  "stride_bk": "i32", "stride_bn": "constexpr", "stride_cm": "i32", "stride_cn": "constexpr",
                  "stride_scale_k": "constexpr", "stride_scale_n": "i32"},
    # the unit strides a launch passes, which Triton's launcher specialises as constants
    "constexprs": {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "stride_scale_k": 1, "IS_BFLOAT16": True,
                   "QGROUP_SIZE": QGROUP, "BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64, "SPLIT_K": 1, "EVEN_K": True,
                   "TRANSPOSED": False, "GROUP_M": 8},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["A", "B", "scales_ptr", "zeros_ptr", "C", "M", "N", "K", "stride_am", "stride_bk",
                     "stride_cm", "stride_scale_n"]}   # 4096 and K // 128 = 32
PROBLEM: dict[str, int] = {"M": 2048, "N": 4096, "K": 4096}
SMALL: dict[str, int] = {"M": 80, "N": 256, "K": 256}    # EVEN_K as PROBLEM's (K a multiple of 64); rows wrap


def get_configs_compute_bound():
    return [Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "SPLIT_K": 1}, num_stages=s, num_warps=w)
            for bm, bn, bk, s, w in [(128, 256, 32, 3, 8), (256, 128, 32, 3, 8), (256, 64, 32, 4, 4),
                                     (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
                                     (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (64, 32, 32, 5, 2),
                                     (128, 256, 128, 3, 8), (256, 128, 128, 3, 8), (256, 64, 128, 4, 4),
                                     (64, 256, 128, 4, 4), (128, 128, 128, 4, 4), (128, 64, 64, 4, 4),
                                     (64, 128, 64, 4, 4), (128, 32, 64, 4, 4), (64, 32, 64, 5, 2)]]


MIXED_MM_HEURISTICS = {
    "EVEN_K": lambda args: args["K"] % (args["BLOCK_K"] * args["SPLIT_K"]) == 0,
    "BLOCK_K": lambda args: min(args["BLOCK_K"], args["QGROUP_SIZE"]) if not args["TRANSPOSED"] else args["BLOCK_K"],
    "BLOCK_N": lambda args: min(args["BLOCK_N"], args["QGROUP_SIZE"]) if args["TRANSPOSED"] else args["BLOCK_N"],
    "SPLIT_K": lambda args: 1 if args["IS_BFLOAT16"] else args["SPLIT_K"],  # atomic add not supported for bfloat16
}


@triton.jit
def _mixed_mm_kernel(A, B, scales_ptr, zeros_ptr, C, M, N, K,
                     stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     stride_scale_k, stride_scale_n,
                     IS_BFLOAT16: tl.constexpr, QGROUP_SIZE: tl.constexpr, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr, EVEN_K: tl.constexpr,
                     TRANSPOSED: tl.constexpr = False, GROUP_M: tl.constexpr = 8,
                     acc_dtype: tl.constexpr = tl.float32, input_precision: tl.constexpr = "ieee",
                     fp8_fast_accum: tl.constexpr = False, DEBUG: tl.constexpr = False):
    # twill corpus rendition: C = A @ ((B_int4 - zeros) * scales), B packed two nibbles a byte along K
    if not TRANSPOSED:
        tl.static_assert(QGROUP_SIZE % BLOCK_K == 0)
    else:
        tl.static_assert(QGROUP_SIZE % BLOCK_N == 0)
    pid = tl.program_id(0)
    pid_z = tl.program_id(1)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // group_size

    rm = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    if not DEBUG:
        ram = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        ram = rm
    rak = pid_z * BLOCK_K + tl.arange(0, BLOCK_K)
    if not TRANSPOSED:                     # BLOCK_K for b is effectively BLOCK_K // 2
        rn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
        if not DEBUG:
            rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
        else:
            rbn = rn
        rbk = pid_z * BLOCK_K // 2 + tl.arange(0, BLOCK_K // 2)
    else:
        rn = (pid_n * BLOCK_N // 2 + tl.arange(0, BLOCK_N // 2)) % N
        if not DEBUG:
            rbn = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N // 2), BLOCK_N // 2)
        else:
            rbn = rn
        rbk = rak
    A = A + (ram[:, None] * stride_am + rak[None, :] * stride_ak)
    if not TRANSPOSED:
        B = B + (rbk[:, None] * stride_bk + rbn[None, :] * stride_bn)
    else:
        B = B + (rbn[:, None] * stride_bk + rbk[None, :] * stride_bn)
    if not TRANSPOSED:
        offsets_scale_n = pid_n * stride_scale_n * BLOCK_N + tl.arange(0, BLOCK_N) * stride_scale_n
    else:
        scale_offset_k = pid_n * BLOCK_N * stride_scale_k // QGROUP_SIZE
        offsets_scale_n = tl.arange(0, BLOCK_K) * stride_scale_n

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=acc_dtype)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        if EVEN_K:
            a = tl.load(A)
            qb = tl.load(B)
        else:
            k_remaining_a = K - k * (BLOCK_K * SPLIT_K)
            if not TRANSPOSED:
                k_remaining_b = K - k * (BLOCK_K * SPLIT_K) // 2     # Note the division by 2
            else:
                k_remaining_b = K - k * (BLOCK_K * SPLIT_K)
            _0 = tl.zeros((1, 1), dtype=C.dtype.element_ty)
            a = tl.load(A, mask=rak[None, :] < k_remaining_a, other=_0)
            qb = tl.load(B, mask=rbk[:, None] < k_remaining_b, other=_0)
        if not TRANSPOSED:
            scale_offset_k = k * BLOCK_K * SPLIT_K * stride_scale_k // QGROUP_SIZE
        else:
            offsets_scale_n = k * stride_scale_n * BLOCK_K + tl.arange(0, BLOCK_K) * stride_scale_n
        scales = tl.load(scales_ptr + offsets_scale_n + scale_offset_k)
        zeros = tl.load(zeros_ptr + offsets_scale_n + scale_offset_k)

        _4_i8 = tl.full((1,), 4, dtype=tl.int8)         # unpack the nibbles
        qb_lo = (qb << _4_i8) >> _4_i8
        qb_hi = qb >> _4_i8
        if IS_BFLOAT16:                                  # int8 -> bf16 goes through fp16
            dq_b = tl.join(qb_lo.to(tl.float16).to(A.dtype.element_ty),
                           qb_hi.to(tl.float16).to(A.dtype.element_ty)).permute(0, 2, 1)
        else:
            dq_b = tl.join(qb_lo.to(A.dtype.element_ty), qb_hi.to(A.dtype.element_ty)).permute(0, 2, 1)
        if not TRANSPOSED:
            dq_b = dq_b.reshape(BLOCK_K, BLOCK_N)
        else:
            dq_b = dq_b.reshape(BLOCK_N, BLOCK_K)
        zeros = zeros[None, :]
        scales = scales[None, :]
        dq_b = (dq_b - zeros) * scales
        if TRANSPOSED:
            dq_b = tl.trans(dq_b)
        if fp8_fast_accum:
            acc = tl.dot(a, dq_b, acc, out_dtype=acc_dtype, input_precision=input_precision)
        else:
            acc += tl.dot(a, dq_b, out_dtype=acc_dtype, input_precision=input_precision)
        A += BLOCK_K * SPLIT_K * stride_ak
        if not TRANSPOSED:                               # half the block: two weights a byte
            B += BLOCK_K * SPLIT_K * stride_bk // 2
        else:
            B += BLOCK_K * SPLIT_K * stride_bn
    acc = acc.to(C.dtype.element_ty)

    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    C = C + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    if SPLIT_K == 1:
        tl.store(C, acc, mask=mask)
    else:
        if tl.constexpr(torch.version.hip is not None):   # AMD GPUs need relaxed semantics
            tl.atomic_add(C, acc, mask=mask, sem="relaxed")
        else:
            tl.atomic_add(C, acc, mask=mask)


_mixed_mm = triton.heuristics(MIXED_MM_HEURISTICS)(_mixed_mm_kernel)
mixed_mm_kernel_compute_bound = triton.autotune(configs=get_configs_compute_bound(), key=["M", "N", "K"])(_mixed_mm)


def pack_2xint4(t):
    """torchao's packing: rows 2r and 2r + 1 of t [K, N] into row r, the low nibble first."""
    t = t.reshape(t.shape[0] // 2, 2, t.shape[1]).permute(1, 0, 2)
    return (t[0] & 0xF) | (t[1] << 4)


def make_inputs(M: int, N: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [M, K] bf16; W_q [N, K] in 0..15 with HQQ's per-group scale and zero [N, K // 128], packed from W_q^T and
    the metadata passed transposed, as torchao's test does."""
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((M, K), device=device, generator=g).to(torch.bfloat16)
    w_q = torch.randint(0, 16, (N, K), device=device, generator=g, dtype=torch.uint8)
    scales = (torch.rand((N, K // QGROUP), device=device, generator=g) * 0.02 + 0.005).to(torch.bfloat16)
    zeros = (torch.rand((N, K // QGROUP), device=device, generator=g) * 2.0 + 6.5).to(torch.bfloat16)
    return {"a": x, "b": pack_2xint4(w_q.T.contiguous()), "w_q": w_q, "scales": scales.T, "zeros": zeros.T}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """triton_mixed_mm(x, packed_w, scales.T, zeros.T, group_size=128) with the spec's tile (the heuristics fill in
    EVEN_K, BLOCK_K and SPLIT_K), bf16 [M, N]."""
    a, b, scales, zeros = inputs["a"], inputs["b"], inputs["scales"], inputs["zeros"]
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    bm, bn = config.get("BLOCK_M", 64), config.get("BLOCK_N", 128)
    grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]) * triton.cdiv(N, META["BLOCK_N"]),  # noqa: E731
                         META["SPLIT_K"])
    _mixed_mm[grid](a, b, scales, zeros, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                    c.stride(0), c.stride(1), scales.stride(0), scales.stride(1),
                    TRANSPOSED=False, IS_BFLOAT16=a.dtype == torch.bfloat16, QGROUP_SIZE=QGROUP,
                    BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=config.get("BLOCK_K", 64), SPLIT_K=1,
                    num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 4))
    return c


def reference(inputs: dict[str, Any]) -> Any:
    w = inputs["w_q"].double()
    s = inputs["scales"].T.double().repeat_interleave(QGROUP, dim=1)
    z = inputs["zeros"].T.double().repeat_interleave(QGROUP, dim=1)
    w_dq = ((w - z) * s).to(torch.bfloat16)
    return (inputs["a"].double() @ w_dq.double().T).to(torch.bfloat16)


def flops(M: int, N: int, K: int) -> float:
    return 2.0 * M * N * K
