"""A kernel whose loop is in a helper that stays a call (``@triton.jit(noinline=True)``): the loop is in
another function of the module; the helper is not a kernel of its own."""
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32"},
              "constexprs": {"BLOCK": 256}, "num_warps": 4}


@triton.jit(noinline=True)
def _row_sum(x_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + start + offs, mask=start + offs < N, other=0.0)
        acc += x * x
    return tl.sum(acc, 0)


@triton.jit
def outer(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    s = _row_sum(x_ptr + row * N, N, BLOCK)
    tl.store(y_ptr + row, s)
