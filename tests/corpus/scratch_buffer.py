"""A loop that stages a tile through a global scratch buffer: store, barrier, read back in another order
(the same iteration must write before it reads, and the next must not write before this one read)."""
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "scratch_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32"},
              "constexprs": {"BLOCK": 256}, "num_warps": 4}


@triton.jit
def scratch_loop(x_ptr, scratch_ptr, y_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    rev = BLOCK - 1 - offs
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + start + offs)
        tl.store(scratch_ptr + offs, x * 2.0)
        tl.debug_barrier()
        r = tl.load(scratch_ptr + rev)
        acc += r
    tl.store(y_ptr + offs, acc)
