"""The cross-entropy kernel that Liger-Kernel's fused linear cross entropy runs on each chunk of logits (newer
Liger): logit soft-capping (`softcap * tanh(x / softcap)`, tanh from libdevice) under a `HAS_SOFTCAPPING`
constexpr with a runtime float `softcap`, the PaLM z-loss (`lse_square_scale` constexpr, `RETURN_Z_LOSS`),
label smoothing, `reduction` as a constexpr string, an unused class-weight pointer under `HAS_WEIGHT`, the
gradient written over the logits chunk (bf16) with the softcap's chain rule, `tl.debug_barrier()`, early return
for an ignored row. BLOCK 32768 and 32 warps, as Liger picks for Gemma 2's vocabulary."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl
from triton.language.extra.libdevice import tanh

TWILL_SPEC = {"signature": {"X_ptr": "*bf16", "X_stride": "i64", "Y_ptr": "*i64", "Y_stride": "i64",
                            "weight_ptr": "*fp32", "loss_ptr": "*fp32", "z_loss_ptr": "*fp32",
                            "loss_stride": "i64", "n_cols": "i32", "n_non_ignore": "i32",
                            "sum_non_ignore_weight": "fp32", "weight_sum": "fp32", "ignore_index": "i32",
                            "softcap": "fp32"},
              "constexprs": {"lse_square_scale": 1e-4, "label_smoothing": 0.1, "reduction": "mean",
                             "RETURN_Z_LOSS": True, "BLOCK_SIZE": 32768, "HAS_WEIGHT": False,
                             "HAS_SOFTCAPPING": True},
              "num_warps": 32, "num_stages": 3,
              "divisibility": ["X_stride", "n_cols"]}
PROBLEM: dict[str, int] = {"R": 4096, "V": 256000}      # a chunk of Gemma 2's logits
SMALL: dict[str, int] = {"R": 10, "V": 40000}
IGNORE = -100
SMOOTHING = 0.1
LSE_SQUARE_SCALE = 1e-4
SOFTCAP = 30.0
MAX_FUSED_SIZE = 65536 // 2


@triton.jit
def liger_cross_entropy_kernel(
    X_ptr,
    X_stride,
    Y_ptr,
    Y_stride,
    weight_ptr,
    loss_ptr,
    z_loss_ptr,
    loss_stride,
    n_cols,
    n_non_ignore,
    sum_non_ignore_weight,
    weight_sum,
    ignore_index,
    lse_square_scale: tl.constexpr,
    label_smoothing: tl.constexpr,
    reduction: tl.constexpr,  # set it as constexpr since reduction is always known at compile time
    softcap,
    RETURN_Z_LOSS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
    HAS_WEIGHT: tl.constexpr,
    HAS_SOFTCAPPING: tl.constexpr,
):
    # https://github.com/triton-lang/triton/issues/1058
    # If B*T*V is too large, program_id * stride will overflow out of int32, so we convert to int64
    program_id = tl.program_id(0).to(tl.int64)

    # 1. Load Y_ptr first because if the target is ignore_index, we can return right away
    Y_ptr += program_id * Y_stride
    y = tl.load(Y_ptr)

    # 2. locate the start index
    X_ptr += program_id * X_stride

    if y == ignore_index:
        # set all X_ptr as 0
        for i in range(0, n_cols, BLOCK_SIZE):
            X_offsets = i + tl.arange(0, BLOCK_SIZE)
            tl.store(X_ptr + X_offsets, 0.0, mask=X_offsets < n_cols)
        return

    loss_ptr += program_id * loss_stride
    if RETURN_Z_LOSS:
        z_loss_ptr += program_id * loss_stride

    if HAS_WEIGHT:
        weight_y = tl.load(weight_ptr + y).cast(tl.float32)

    # Online softmax: 2 loads + 1 store (compared with 3 loads + 1 store for the safe softmax)
    # 3. [Online softmax] first pass: find max + sum
    m = float("-inf")  # m is the max value. use the notation from the paper
    d = 0.0  # d is the sum. use the notation from the paper
    ori_X_y = tl.load(X_ptr + y).cast(tl.float32)  # we need to store the original value of X_y for the loss calculation
    if HAS_SOFTCAPPING:
        ori_X_y = softcap * tanh(ori_X_y / softcap)

    # Label smoothing is a general case of normal cross entropy
    scaled_x_sum = 0.0
    eps = label_smoothing / n_cols

    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(
            X_ptr + X_offsets,
            mask=X_offsets < n_cols,
            other=float("-inf"),
            # Ensure float32 precision for softmax calculation
        ).cast(tl.float32)
        if HAS_SOFTCAPPING:
            X_block = softcap * tanh(X_block / softcap)
        block_max = tl.max(X_block)
        if label_smoothing > 0:
            # scale X beforehand to avoid overflow
            if HAS_WEIGHT:
                weight_block = tl.load(weight_ptr + X_offsets, mask=X_offsets < n_cols)
                scaled_x_sum += tl.sum(tl.where(X_offsets < n_cols, -eps * X_block * weight_block, 0.0))
            else:
                scaled_x_sum += tl.sum(tl.where(X_offsets < n_cols, -eps * X_block, 0.0))
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new))
        m = m_new

    # log (sum(e^(X_i))) = log (sum(e ^ (max(X) * e ^ (X_i - max(X)))))
    #                    = log (e^(max(X)) * sum(e ^ (X_i - max(X))))
    #                    = max(X) + log (sum(e ^ (X_i - max(X)))) = m + log d
    lse = m + tl.log(d)

    # 4. [Online Softmax] Second pass: compute gradients
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(
            X_ptr + X_offsets,
            mask=X_offsets < n_cols,
            other=float("-inf"),
            # Ensure float32 precision for softmax calculation
        ).cast(tl.float32)
        if HAS_SOFTCAPPING:
            intermediate = tanh(X_block / softcap)
            X_block = softcap * intermediate

        if not HAS_WEIGHT:
            # softmax(x_i)
            X_block = tl.exp(X_block - m) / d
            # derivative of z-loss: 2 * lse_square_scale * lse * softmax(x_i)
            X_block += 2 * lse_square_scale * lse * X_block
            # smoothing term
            X_block += -eps
            # special handle dx_y
            X_block = tl.where(X_offsets != y, X_block, X_block - (1 - label_smoothing))
            # reduction scale
            if reduction == "mean":
                X_block = X_block / n_non_ignore
        else:
            weight_block = tl.load(weight_ptr + X_offsets, mask=X_offsets < n_cols)
            softmax_X = tl.exp(X_block - m) / d
            # derivative of original_loss
            dloss_ori = (1 - label_smoothing) * softmax_X
            # specially handle dx_y
            dloss_ori = tl.where(X_offsets != y, dloss_ori, dloss_ori - (1 - label_smoothing))
            dloss_ori = dloss_ori * weight_y
            # derivative of smooth_loss
            dloss_smooth = label_smoothing * (-weight_block + softmax_X * weight_sum)
            # derivative of z-loss
            dz_loss = 2 * lse_square_scale * lse * softmax_X
            # reduction scale
            if reduction == "mean":
                dloss_ori = dloss_ori / sum_non_ignore_weight
                dloss_smooth = dloss_smooth / sum_non_ignore_weight
                dz_loss = dz_loss / n_non_ignore
            # derivative of total_loss
            X_block = dloss_ori + dloss_smooth + dz_loss

        # chain rule softcapping
        # d(softcap * tanh(x / softcap)) = (1 - tanh^2(x / softcap))
        if HAS_SOFTCAPPING:
            X_block = X_block * (1 - intermediate * intermediate)

        tl.store(X_ptr + X_offsets, X_block, mask=X_offsets < n_cols)

    # We need tl.debug_barrier() to ensure the new result of X_ptr is written as mentioned in
    # https://github.com/triton-lang/triton/blob/ba42a5c68fd0505f8c42f4202d53be0f8d9a5fe0/python/triton/ops/cross_entropy.py#L34
    tl.debug_barrier()

    # 5. Calculate the loss
    # loss = log (softmax(X_y)) = log ((e ^ (X_y - max(X)) / sum(e ^ (X - max(X))))
    #      = (X_y - max(X)) - log(sum(e ^ (X - max(X))))
    #      = X_y - m - log d = X_y - lse
    loss = lse - ori_X_y
    if HAS_WEIGHT:
        loss = weight_y * loss

    # Original loss = H(q, p),  with label smoothing regularization = H(q', p) and (label_smoothing / V) = eps
    if label_smoothing > 0:
        if HAS_WEIGHT:
            smooth_loss = scaled_x_sum + eps * lse * weight_sum
        else:
            smooth_loss = scaled_x_sum + label_smoothing * lse
        loss = loss * (1 - label_smoothing) + smooth_loss

    # An auxiliary loss, z_loss
    # Refer to Page14 Loss function section in the paper PaLM: https://www.jmlr.org/papers/v24/22-1144.html
    z_loss = lse_square_scale * lse * lse
    # Normalize the loss by the number of non-ignored elements if reduction is "mean"
    if reduction == "mean":
        if HAS_WEIGHT:
            loss = loss / sum_non_ignore_weight
        else:
            loss = loss / n_non_ignore
        # TODO: Implement weighted z_loss. Currently, z_loss is not scaled by weight.
        z_loss = z_loss / n_non_ignore
    loss += z_loss

    tl.store(loss_ptr, loss)
    if RETURN_Z_LOSS:
        tl.store(z_loss_ptr, z_loss)


def make_inputs(R: int, V: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = (torch.randn((R, V), device=device, dtype=torch.float32, generator=g) * 20).to(torch.bfloat16)
    y = torch.randint(0, V, (R,), device=device, generator=g)
    y[torch.arange(R, device=device) % 4 == 2] = IGNORE
    return {"x": x, "y": y, "n_non_ignore": int((y != IGNORE).sum().item())}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(loss per row, z-loss per row, the logits chunk's gradient), as fused_linear_cross_entropy_forward runs
    the kernel on one chunk (the logits written over with their gradient)."""
    import torch
    logits_chunk, target_chunk = inputs["x"].clone(), inputs["y"]
    n_rows, V = logits_chunk.shape
    loss_1d_slice = torch.zeros((n_rows,), dtype=torch.float32, device=logits_chunk.device)
    z_loss_1d_slice = torch.zeros((n_rows,), dtype=torch.float32, device=logits_chunk.device)
    dummy_weight = torch.empty((1,), dtype=torch.float32, device=logits_chunk.device)
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    liger_cross_entropy_kernel[(n_rows,)](
        X_ptr=logits_chunk, X_stride=logits_chunk.stride(-2), Y_ptr=target_chunk, Y_stride=target_chunk.stride(-1),
        weight_ptr=dummy_weight, loss_ptr=loss_1d_slice, z_loss_ptr=z_loss_1d_slice,
        loss_stride=loss_1d_slice.stride(-1), n_cols=V, n_non_ignore=inputs["n_non_ignore"],
        sum_non_ignore_weight=float(inputs["n_non_ignore"]), weight_sum=0.0, ignore_index=IGNORE,
        lse_square_scale=LSE_SQUARE_SCALE, label_smoothing=SMOOTHING, reduction="mean", softcap=SOFTCAP,
        RETURN_Z_LOSS=True, BLOCK_SIZE=BLOCK_SIZE, HAS_WEIGHT=False, HAS_SOFTCAPPING=True,
        num_warps=config.get("num_warps", 32), num_stages=config.get("num_stages", 3))
    return loss_1d_slice, z_loss_1d_slice, logits_chunk


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, y = inputs["x"].double(), inputs["y"]
    R, V = x.shape
    n = float(inputs["n_non_ignore"])
    keep = y != IGNORE
    yc = y.clamp(min=0)
    t = torch.tanh(x / SOFTCAP)
    z = SOFTCAP * t
    lse = torch.logsumexp(z, dim=1)
    zy = z.gather(1, yc[:, None])[:, 0]
    loss = (lse - zy) * (1 - SMOOTHING) + (-SMOOTHING / V * z.sum(dim=1) + SMOOTHING * lse)
    zl = LSE_SQUARE_SCALE * lse * lse / n
    loss = loss / n + zl
    p = torch.softmax(z, dim=1)
    grad = p * (1 + 2 * LSE_SQUARE_SCALE * lse[:, None]) - SMOOTHING / V
    grad[torch.arange(R), yc] -= 1 - SMOOTHING
    grad = grad / n * (1 - t * t)
    return (torch.where(keep, loss, 0.0), torch.where(keep, zl, 0.0),
            torch.where(keep[:, None], grad, 0.0).to(torch.bfloat16))
