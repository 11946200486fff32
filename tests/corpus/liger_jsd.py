"""Liger-Kernel's generalised JSD forward (`_jsd_kernel`): log-space inputs X = log Q, Y = log P, a float `beta`
constexpr choosing forward KL / reverse KL / JSD branches, an optional label with an ignored row's early return,
the per-element loss and the gradient written every column block. BLOCK 32768 and 32 warps, as Liger's
MAX_FUSED_SIZE / _get_num_warps pick for a large vocabulary."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"X_ptr": "*bf16", "X_stride": "i64", "Y_ptr": "*bf16", "Y_stride": "i64",
                            "loss_ptr": "*fp32", "loss_stride": "i64", "dX_ptr": "*bf16", "dX_stride": "i64",
                            "label_ptr": "*i64", "n_non_ignore": "i32", "n_cols": "i32"},
              "constexprs": {"beta": 0.5, "ignore_index": -100, "BLOCK_SIZE": 32768, "HAS_LABEL": True},
              "num_warps": 32, "num_stages": 3,
              "divisibility": ["X_stride", "Y_stride", "loss_stride", "dX_stride", "n_cols"]}
PROBLEM: dict[str, int] = {"R": 4096, "V": 128256}
SMALL: dict[str, int] = {"R": 6, "V": 40000}
BETA = 0.5
IGNORE = -100
MAX_FUSED_SIZE = 65536 // 2


def _get_num_warps(BLOCK_SIZE):
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return num_warps


@triton.jit
def _jsd_kernel(
    X_ptr,  # input in logspace, X = log Q
    X_stride,
    Y_ptr,  # ground truth in logspace, Y = log P
    Y_stride,
    loss_ptr,
    loss_stride,
    dX_ptr,
    dX_stride,
    label_ptr,
    beta: tl.constexpr,
    n_non_ignore: int,
    ignore_index: tl.constexpr,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
    HAS_LABEL: tl.constexpr,
):
    # JSD(P || Q) = (KL(P || M) + KL(Q || M)) / 2, M = (1/2) * (P + Q) = (1/2) * (e ^ Y + e ^ X)
    #             = sum(P * log P + Q * log Q - 2 * M * log M) / 2
    # grad_x_i = 0.5 * Q * (X - log_M)
    pid = tl.program_id(0).to(tl.int64)
    X_ptr += pid * X_stride
    dX_ptr += pid * dX_stride
    Y_ptr += pid * Y_stride
    loss_ptr += pid * loss_stride
    label_ptr += pid

    if HAS_LABEL:
        label = tl.load(label_ptr)
        if label == ignore_index:
            for i in range(0, n_cols, BLOCK_SIZE):
                offsets = i + tl.arange(0, BLOCK_SIZE)
                tl.store(dX_ptr + offsets, 0.0, mask=offsets < n_cols)
            return

    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_cols
        X = tl.load(X_ptr + offsets, mask=mask, other=float("-inf")).to(tl.float32)
        Y = tl.load(Y_ptr + offsets, mask=mask, other=float("-inf")).to(tl.float32)

        if beta == 0.0:  # forward KL
            Y_max = tl.max(Y, axis=0)
            Y_shifted = Y - Y_max
            Y_prob = tl.exp(Y_shifted) * tl.exp(Y_max)  # Compensate for the shift
            loss = Y_prob * (Y - X)
            dX = -Y_prob
        elif beta == 1.0:  # reverse KL
            X_max = tl.max(X, axis=0)
            X_shifted = X - X_max
            X_prob = tl.exp(X_shifted) * tl.exp(X_max)  # Compensate for the shift
            loss = X_prob * (X - Y)
            dX = loss + X_prob
        else:
            max_val = tl.maximum(tl.max(X, axis=0), tl.max(Y, axis=0))
            X_shifted = X - max_val
            Y_shifted = Y - max_val

            # Pre-compute exp(max_val) since it's used twice
            exp_max = tl.exp(max_val)

            # Compute exp terms with compensation
            Q = tl.exp(X_shifted) * exp_max  # = exp(X)
            P = tl.exp(Y_shifted) * exp_max  # = exp(Y)

            # Pre-compute common terms
            beta_P = beta * P
            one_minus_beta_Q = (1 - beta) * Q
            M = beta_P + one_minus_beta_Q
            log_M = tl.log(M)  # No need to compensate as M is already in original scale

            loss = beta_P * Y + one_minus_beta_Q * X - M * log_M
            dX = one_minus_beta_Q * (X - log_M)

        # Pre-compute scaling factor
        scale = 1.0 / n_non_ignore
        loss = loss * scale
        dX = dX * scale

        tl.store(loss_ptr + offsets, loss, mask=mask)
        tl.store(dX_ptr + offsets, dX, mask=mask)


def make_inputs(R: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.log_softmax(torch.randn((R, V), device=device, generator=g) * 2, dim=-1).to(torch.bfloat16)
    y = torch.log_softmax(torch.randn((R, V), device=device, generator=g) * 2, dim=-1).to(torch.bfloat16)
    label = torch.randint(0, V, (R,), device=device, generator=g)
    label[torch.arange(R, device=device) % 3 == 1] = IGNORE
    return {"x": x, "y": y, "label": label, "n_non_ignore": int((label != IGNORE).sum().item())}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(per-element loss, dX), as LigerJSDFunction.forward runs the kernel (loss summed on the host later)."""
    import torch
    _input, target, label = inputs["x"], inputs["y"], inputs["label"]
    BT, V = _input.shape
    n_rows = BT
    loss = torch.zeros(_input.shape, dtype=torch.float32, device=_input.device)
    dX = torch.empty_like(_input)
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    num_warps = _get_num_warps(BLOCK_SIZE)
    _jsd_kernel[(n_rows,)](
        X_ptr=_input, X_stride=_input.stride(-2), Y_ptr=target, Y_stride=target.stride(-2),
        loss_ptr=loss, loss_stride=loss.stride(-2), dX_ptr=dX, dX_stride=dX.stride(-2),
        label_ptr=label, beta=BETA, n_non_ignore=inputs["n_non_ignore"], ignore_index=IGNORE, n_cols=V,
        BLOCK_SIZE=BLOCK_SIZE, HAS_LABEL=True,
        num_warps=config.get("num_warps", num_warps), num_stages=config.get("num_stages", 3))
    return loss, dX


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    X, Y, label = inputs["x"].double(), inputs["y"].double(), inputs["label"]
    n = inputs["n_non_ignore"]
    Q, P = X.exp(), Y.exp()
    M = BETA * P + (1 - BETA) * Q
    logM = M.log()
    loss = (BETA * P * Y + (1 - BETA) * Q * X - M * logM) / n
    dX = (1 - BETA) * Q * (X - logM) / n
    keep = (label != IGNORE)[:, None]
    return torch.where(keep, loss, 0.0), torch.where(keep, dX, 0.0)
