"""Row softmax in two passes, as the online-softmax tutorials write it: pass 1 keeps a running max and
sum of the row as rank-0 values (whole-block ``tl.max`` / ``tl.sum``), pass 2 normalises and stores."""
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32"},
              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3}


@triton.jit
def online_softmax(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = tl.full([], float("-inf"), tl.float32)
    l = tl.full([], 0.0, tl.float32)
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + start + offs, mask=start + offs < N, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, 0))
        p = tl.exp2(x - m_new)
        l = l * tl.exp2(m - m_new) + tl.sum(p, 0)
        m = m_new
    for start in range(0, N, BLOCK):
        x = tl.load(x_ptr + row * N + start + offs, mask=start + offs < N, other=float("-inf"))
        y = tl.exp2(x - m) / l
        tl.store(y_ptr + row * N + start + offs, y, mask=start + offs < N)
