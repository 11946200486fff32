"""Cross-entropy forward with the gradient written in place, Liger style: an early-return branch for the
ignored label (a loop inside an scf.if), an online log-sum-exp loop over the row, then a loop that
overwrites the logits with the gradient (a store to the buffer it loads), scalar loads of the label."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"X_ptr": "*fp32", "Y_ptr": "*i64", "loss_ptr": "*fp32", "stride": "i64",
                            "n_cols": "i32", "ignore_index": "i32"},
              "constexprs": {"BLOCK": 2048}, "num_warps": 8, "num_stages": 3,
              "divisibility": ["stride", "n_cols"]}      # as a launch at PROBLEM specialises it
PROBLEM: dict[str, int] = {"R": 4096, "V": 32000}
SMALL: dict[str, int] = {"R": 24, "V": 3000}            # a partial last block; some rows ignored
IGNORE = -100


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


def make_inputs(R: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((R, V), device=device, dtype=torch.float32, generator=g) * 3
    y = torch.randint(0, V, (R,), device=device, generator=g)
    y[torch.rand((R,), device=device, generator=g) < 0.25] = IGNORE      # a quarter of the rows ignored
    return {"x": x, "y": y}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(loss per row, the logits' gradient): the kernel writes the gradient over a copy of the logits; an
    ignored row's loss stays 0, its gradient 0."""
    import torch
    x, y = inputs["x"].clone(), inputs["y"]
    loss = torch.zeros((x.shape[0],), device=x.device, dtype=torch.float32)
    cross_entropy_fwd[(x.shape[0],)](x, y, loss, x.stride(0), x.shape[1], IGNORE, BLOCK=2048,
                                     num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return loss, x


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, y = inputs["x"].double(), inputs["y"]
    keep = y != IGNORE
    lse = torch.logsumexp(x, dim=1)
    picked = x.gather(1, y.clamp(min=0)[:, None])[:, 0]
    grad = torch.softmax(x, dim=1)
    grad[torch.arange(x.shape[0], device=x.device), y.clamp(min=0)] -= 1.0
    return torch.where(keep, lse - picked, 0.0), torch.where(keep[:, None], grad, 0.0)
