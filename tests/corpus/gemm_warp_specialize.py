"""A GEMM whose K loop asks Triton for warp specialization (``tl.range(..., warp_specialize=True)``), which
on sm_90 Triton 3.6 would run before the scheduling passes (and fails on with 4 warps)."""
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "M": "i32", "N": "i32", "K": "i32",
                            "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
              "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64},
              "num_warps": 4, "num_stages": 3, "divisibility": ["stride_am", "stride_bk", "stride_cm"]}


@triton.jit
def gemm_ws(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_bn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=True):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_am[:, None] * stride_cm + offs_bn[None, :]
    tl.store(c_ptrs, acc.to(tl.float16))
