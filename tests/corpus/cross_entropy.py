"""Cross-entropy forward with the gradient written in place, Liger style: an early-return branch for the
ignored label (a loop inside an scf.if), an online log-sum-exp loop over the row, then a loop that
overwrites the logits with the gradient (a store to the buffer it loads), scalar loads of the label."""
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"X_ptr": "*fp32", "Y_ptr": "*i64", "loss_ptr": "*fp32", "stride": "i64",
                            "n_cols": "i32", "ignore_index": "i32"},
              "constexprs": {"BLOCK": 2048}, "num_warps": 8, "num_stages": 3}


@triton.jit
def cross_entropy_fwd(X_ptr, Y_ptr, loss_ptr, stride, n_cols, ignore_index, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    X_ptr += row * stride
    offs = tl.arange(0, BLOCK)
    y = tl.load(Y_ptr + row)
    if y == ignore_index:
        for i in range(0, n_cols, BLOCK):
            tl.store(X_ptr + i + offs, 0.0, mask=i + offs < n_cols)
        return
    m = float("-inf")
    d = 0.0
    x_y = tl.load(X_ptr + y).cast(tl.float32)
    for i in range(0, n_cols, BLOCK):
        x = tl.load(X_ptr + i + offs, mask=i + offs < n_cols, other=float("-inf")).cast(tl.float32)
        m_new = tl.maximum(m, tl.max(x))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new))
        m = m_new
    lse = m + tl.log(d)
    for i in range(0, n_cols, BLOCK):
        x = tl.load(X_ptr + i + offs, mask=i + offs < n_cols, other=float("-inf")).cast(tl.float32)
        g = tl.exp(x - m) / d
        g = tl.where(i + offs == y, g - 1.0, g)
        tl.store(X_ptr + i + offs, g, mask=i + offs < n_cols)
    tl.store(loss_ptr + row, lse - x_y)
