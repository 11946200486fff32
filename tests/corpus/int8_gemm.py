"""An int8 GEMM in the tutorial style (B loaded N-contiguous): wgmma reads 8-bit operands K-major, so Triton lays
B out transposed in shared memory and a cp.async copy of it would move one byte; the Gluon back end refuses it in
one line (Triton's own route schedules it). Nothing here is imported by twill."""
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"a_ptr": "*i8", "b_ptr": "*i8", "c_ptr": "*i32", "M": "i32", "N": "i32", "K": "i32",
                            "stride_am": "i32", "stride_bk": "i32", "stride_cm": "i32"},
              "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128}, "num_warps": 8, "num_stages": 3,
              "divisibility": ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"]}


@triton.jit
def gemm_i8(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc)
