"""splitk_guarded's split-K GEMM with a bias the first slice adds into C before its K loop (``if pid_k == 0:
tl.atomic_add(c_ptrs, bias)``): memory written before the ``if`` around the scheduled loop, which the Gluon back end
takes as an early return before any partition starts; refused in one line naming the ``if``. Nothing here is
imported by twill."""
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32", "bias_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                  "k_per_split": "i32", "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
    "num_warps": 8, "num_stages": 3, "divisibility": ["M", "N", "K", "k_per_split", "stride_am", "stride_bk", "stride_cm"]}


@triton.jit
def splitk_bias_guarded(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, k_per_split, stride_am, stride_bk, stride_cm,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    k_lo = pid_k * k_per_split
    k_hi = tl.minimum(k_lo + k_per_split, K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    if pid_k == 0:
        tl.atomic_add(c_ptrs, tl.load(bias_ptr + offs_n)[None, :] + tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32))
    if k_lo < k_hi:
        a_ptrs = a_ptr + offs_m[:, None] * stride_am + (k_lo + offs_k)[None, :]
        b_ptrs = b_ptr + (k_lo + offs_k)[:, None] * stride_bk + offs_n[None, :]
        for k in range(k_lo, k_hi, BLOCK_K):
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
            acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K
            b_ptrs += BLOCK_K * stride_bk
    tl.atomic_add(c_ptrs, acc)
