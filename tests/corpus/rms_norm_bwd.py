"""RMS-norm backward over a block of rows per program, Liger / Unsloth style: a scalar ``tl.load`` of the
row's rstd, a whole-row ``tl.sum`` feeding the row's dx, dx stored every row, dw accumulated."""
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"dY": "*fp16", "X": "*fp16", "W": "*fp16", "RSTD": "*fp32", "dX": "*fp16",
                            "dW": "*fp32", "stride": "i32", "n_rows": "i32", "n_cols": "i32",
                            "rows_per_program": "i32"},
              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "num_stages": 3,
              "divisibility": ["stride", "n_cols"]}        # as a launch at PROBLEM specialises it
PROBLEM: dict[str, int] = {"rows": 16384, "cols": 1024}
SMALL: dict[str, int] = {"rows": 40, "cols": 1000}          # partial rows: masks; the last program's rows fewer
ROWS_PER_PROGRAM = 16


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


def make_inputs(rows: int, cols: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((rows, cols), device=device, dtype=torch.float32, generator=g)
    rstd = torch.rsqrt(x.pow(2).mean(-1) + 1e-6)
    dy = torch.randn((rows, cols), device=device, dtype=torch.float32, generator=g)
    w = 1 + 0.1 * torch.randn((cols,), device=device, dtype=torch.float32, generator=g)
    return {"dy": dy.half(), "x": x.half(), "w": w.half(), "rstd": rstd}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dx, dw) of y = x * rstd * w for contiguous [rows, cols] fp16 dy and x: dw summed over the programs'
    partial rows by torch."""
    import torch
    dy, x, w, rstd = inputs["dy"], inputs["x"], inputs["w"], inputs["rstd"]
    rows, cols = x.shape
    programs = triton.cdiv(rows, ROWS_PER_PROGRAM)
    dx = torch.empty_like(x)
    dw = torch.empty((programs, cols), device=x.device, dtype=torch.float32)
    rms_norm_bwd[(programs,)](dy, x, w, rstd, dx, dw, x.stride(0), rows, cols, ROWS_PER_PROGRAM, BLOCK=1024,
                              num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return dx, dw.sum(0)


def reference(inputs: dict[str, Any]) -> Any:
    dy, x, w = inputs["dy"].double(), inputs["x"].double(), inputs["w"].double()
    r = inputs["rstd"].double()[:, None]
    m = dy * w
    dx = r * m - r ** 3 / x.shape[1] * (m * x).sum(-1, keepdim=True) * x
    return dx, (dy * x * r).sum(0)
