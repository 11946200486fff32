"""RMS-norm backward over a block of rows per program, Liger / Unsloth style: a scalar ``tl.load`` of the
row's rstd, a whole-row ``tl.sum`` feeding the row's dx, dx stored every row, dw accumulated."""
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"dY": "*fp16", "X": "*fp16", "W": "*fp16", "RSTD": "*fp32", "dX": "*fp16",
                            "dW": "*fp32", "stride": "i32", "n_rows": "i32", "n_cols": "i32",
                            "rows_per_program": "i32"},
              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3}


@triton.jit
def rms_norm_bwd(dY, X, W, RSTD, dX, dW, stride, n_rows, n_cols, rows_per_program, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row_start = pid * rows_per_program
    row_end = min(row_start + rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    dw = tl.zeros([BLOCK], dtype=tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    for row in range(row_start, row_end):
        dy = tl.load(dY + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(RSTD + row)
        m = dy * w
        dx = rstd * m
        dx += rstd * (-(1 / n_cols) * rstd * rstd * tl.sum(m * x, axis=0) * x)
        dw += dy * (x * rstd)
        tl.store(dX + row * stride + cols, dx.to(tl.float16), mask=mask)
    tl.store(dW + pid * n_cols + cols, dw, mask=mask)
