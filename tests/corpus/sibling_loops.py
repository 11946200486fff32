"""Two sibling loops whose bodies MLIR prints with the same SSA names: an optional copy pass inside an
``if`` on a runtime flag, then the GEMM loop (the one scheduled by default)."""
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp16", "y_ptr": "*fp16", "a_ptr": "*fp16", "b_ptr": "*fp16",
                            "c_ptr": "*fp32", "N": "i32", "K": "i32", "flag": "i32"},
              "constexprs": {"BM": 64, "BN": 64, "BK": 32}, "num_warps": 4, "num_stages": 3}


@triton.jit
def sibling_loops(x_ptr, y_ptr, a_ptr, b_ptr, c_ptr, N, K, flag,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    if flag > 0:
        for k in range(0, N, BK):
            a = tl.load(x_ptr + k + rk)
            tl.store(y_ptr + k + rk, a * 2.0)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
