"""A helper with a loop, inlined twice with the same constexprs (two ranges of one row, as FA kernels
call their inner-loop helper once per causal band): two sibling loops with the same ops in the same
order, told apart only by where they came from."""
import triton
import triton.language as tl

TWILL_SPEC = {"kernel": "two_bands", "signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "mid": "i32", "N": "i32"},
              "constexprs": {"BLOCK": 512}, "num_warps": 4, "num_stages": 3}


@triton.jit
def _accumulate(acc, x_ptr, start, end, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in range(start, end, BLOCK):
        x = tl.load(x_ptr + i + offs)
        acc += tl.exp2(x)
    return acc


@triton.jit
def two_bands(x_ptr, y_ptr, mid, N, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc = _accumulate(acc, x_ptr, 0, mid, BLOCK)
    acc = _accumulate(acc, x_ptr, mid, N, BLOCK)
    tl.store(y_ptr + tl.arange(0, BLOCK), acc)
