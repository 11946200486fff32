"""FlagGems' LayerNorm ``weight_bias_backward_kernel`` (FlagOpen/FlagGems, src/flag_gems/ops/layernorm.py): dW and dB
of LayerNorm as a column-parallel reduction over rows. Each program owns BLOCK_COL_SIZE columns (offsets as a
[1, BLOCK_COL_SIZE] row, the base pointers of dY / X / dW / dB advanced by them up front); a
``range(0, M, BLOCK_ROW_SIZE)`` loop over row blocks loads [BLOCK_ROW_SIZE, BLOCK_COL_SIZE] tiles of dY and X with the
mask built by Python ``and`` of two tensors (``mask = row_mask and col_mask``) and no ``other=``, per-row Mean / Rstd
vectors broadcast as [:, None], ``tl.where(col_mask, x - mean, 0.0)``, and two 2-D fp32 accumulators (dy * x_hat and
dy); after the loop both are reduced over rows (``tl.sum(..., axis=0)``) and stored as [1, BLOCK_COL_SIZE] rows into
bf16 dW / dB. Mean and Rstd are in X's dtype (bf16), as LayerNorm.forward allocates them in that version. Config from
the nvidia tune_configs.yaml "weight_bias_backward" list (BLOCK_ROW_SIZE 128, BLOCK_COL_SIZE 1/2/4/8, 4/8/16 warps):
128 x 8, 4 warps; ``@libentry`` / ``@triton.autotune`` dropped (flag_gems is not installed)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "weight_bias_backward_kernel",
    "signature": {"dY": "*bf16", "X": "*bf16", "Mean": "*bf16", "Rstd": "*bf16", "dW": "*bf16", "dB": "*bf16",
                  "M": "i32", "N": "i32"},
    "constexprs": {"BLOCK_ROW_SIZE": 128, "BLOCK_COL_SIZE": 8},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["N"]}
PROBLEM: dict[str, int] = {"M": 16384, "N": 4096}
SMALL: dict[str, int] = {"M": 997, "N": 300}


@triton.jit
def weight_bias_backward_kernel(
    dY,
    X,
    Mean,
    Rstd,
    dW,
    dB,
    M,
    N,
    BLOCK_ROW_SIZE: tl.constexpr,
    BLOCK_COL_SIZE: tl.constexpr,
):
    pid = tl.program_id(0) * BLOCK_COL_SIZE + tl.arange(0, BLOCK_COL_SIZE)[None, :]
    col_mask = pid < N
    dY += pid
    X += pid
    dW += pid
    dB += pid
    accW = tl.zeros([BLOCK_ROW_SIZE, BLOCK_COL_SIZE], dtype=tl.float32)
    accB = tl.zeros([BLOCK_ROW_SIZE, BLOCK_COL_SIZE], dtype=tl.float32)
    for off in range(0, M, BLOCK_ROW_SIZE):
        rows = off + tl.arange(0, BLOCK_ROW_SIZE)
        row_mask = rows[:, None] < M
        mask = row_mask and col_mask
        dy = tl.load(dY + rows[:, None] * N, mask).to(tl.float32)
        x = tl.load(X + rows[:, None] * N, mask).to(tl.float32)
        mean = tl.load(Mean + rows, mask=rows < M)[:, None].to(tl.float32)
        rstd = tl.load(Rstd + rows, mask=rows < M)[:, None].to(tl.float32)
        x = tl.where(col_mask, x - mean, 0.0)
        x_hat = x * rstd
        accW += dy * x_hat
        accB += dy
    dw = tl.sum(accW, axis=0)
    db = tl.sum(accB, axis=0)
    tl.store(dW, dw[None, :], mask=col_mask)
    tl.store(dB, db[None, :], mask=col_mask)


def make_inputs(M: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((M, N), device=device, generator=g) * 2 + 0.5).to(torch.bfloat16)
    dy = torch.randn((M, N), device=device, generator=g).to(torch.bfloat16)
    xf = x.float()
    mean = xf.mean(dim=1).to(torch.bfloat16)                    # LayerNorm.forward stores them in x.dtype
    rstd = torch.rsqrt(xf.var(dim=1, unbiased=False) + 1e-5).to(torch.bfloat16)
    return {"x": x, "dy": dy, "mean": mean, "rstd": rstd}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dW, dB), bf16 (N,), as LayerNorm.backward runs the kernel."""
    import torch
    dy, x, mean, rstd = inputs["dy"], inputs["x"], inputs["mean"], inputs["rstd"]
    M, N = x.shape
    BLOCK_ROW_SIZE, BLOCK_COL_SIZE = config.get("BLOCK_ROW_SIZE", 128), config.get("BLOCK_COL_SIZE", 8)
    dw = torch.empty((N,), device=x.device, dtype=x.dtype)
    db = torch.empty((N,), device=x.device, dtype=x.dtype)
    weight_bias_backward_kernel[(triton.cdiv(N, BLOCK_COL_SIZE), 1, 1)](
        dy, x, mean, rstd, dw, db, M, N, BLOCK_ROW_SIZE=BLOCK_ROW_SIZE, BLOCK_COL_SIZE=BLOCK_COL_SIZE,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return dw, db


def reference(inputs: dict[str, Any]) -> Any:
    dy, x = inputs["dy"].double(), inputs["x"].double()
    mean, rstd = inputs["mean"].double()[:, None], inputs["rstd"].double()[:, None]
    x_hat = (x - mean) * rstd
    return (dy * x_hat).sum(dim=0), dy.sum(dim=0)


def flops(M: int, N: int) -> float:
    return 5.0 * M * N
