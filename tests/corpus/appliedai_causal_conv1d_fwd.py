"""PyTorch applied-ai's (IBM Research) Mamba causal depthwise conv1d forward, ``_causal_conv1d_fwd_kernel``
(pytorch-labs/applied-ai kernels/triton/inference/mamba/causal_1d_conv/causal_1d_conv/causal_1d_conv.py, launched by
``causal_conv1d_fwd`` on a channel-last x [batch, dim, seqlen] (stride_x_dim = 1) over a grid of
(cdiv(batch * seqlen, BLOCK_M), cdiv(dim, BLOCK_N))).

The constructs: an ``@triton.autotune`` decorator over 11 configs (key seqlen / dim / batch; TWILL_SPEC takes the
first, BLOCK_M 128 x BLOCK_N 256, 8 warps, 3 stages); each program's BLOCK_M rows are flattened (sequence, token)
indices (``// seqlen``, ``% seqlen``); the **loop is ``for j in range(KERNEL_WIDTH)``, a constexpr trip count of 4**
(the conv taps), carrying one [BLOCK_M, BLOCK_N] fp32 accumulator initialised from the broadcast bias under the
constexpr ``HAS_BIAS``; **inside the loop an ``if`` on a runtime scalar** (``load_init_state = tl.min(idx_tokens) <
KERNEL_WIDTH - 1``, computed before the loop, under the constexpr ``HAS_INITIAL_STATES``) chooses between loading
the initial conv states and a zero tile, and **that tile is the ``other=`` of the x load** (a tensor fill value
from another load, not a scalar); a four-way mask (``&`` of row, token >= 0, token < seqlen and channel bounds); a
[1, BLOCK_N] weight row per tap; a SiLU epilogue under the constexpr ``SILU_ACTIVATION``. Mamba-2 2.7B's conv
(d_inner 5120 + 2 * d_state 128 = 5376 channels, width 4) over 4 x 2048 tokens, bf16, with initial states and bias.
Port notes: the first config's ``stride_x_dim`` / ``stride_istate_dim`` / ``stride_o_dim`` entries are dropped (the
launch passes those strides positionally, 1 each: Triton 3.6's autotuner then raises TypeError, run 223); the
wrapper's ``torch.cuda.device`` and the autograd Function are dropped; initial_states here is
given channel-last ([batch, width - 1, dim] transposed), as the wrapper's ``stride_istate_dim == 1`` assertion asks."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_causal_conv1d_fwd_kernel",
    "signature": {"x_ptr": "*bf16", "w_ptr": "*bf16", "bias_ptr": "*bf16", "initial_states_ptr": "*bf16",
                  "o_ptr": "*bf16", "batch": "i32", "dim": "i32", "seqlen": "i32",
                  "stride_x_seq": "i32", "stride_x_dim": "constexpr", "stride_x_token": "i32",
                  "stride_weight_dim": "i32", "stride_weight_width": "i32",
                  "stride_istate_seq": "i32", "stride_istate_dim": "constexpr", "stride_istate_token": "i32",
                  "stride_o_seq": "i32", "stride_o_dim": "constexpr", "stride_o_token": "i32"},
    "constexprs": {"HAS_BIAS": True, "KERNEL_WIDTH": 4, "SILU_ACTIVATION": True, "HAS_INITIAL_STATES": True,
                   "BLOCK_M": 128, "BLOCK_N": 256, "stride_x_dim": 1, "stride_istate_dim": 1, "stride_o_dim": 1},
    "num_warps": 8, "num_stages": 3,
    # stride_x_dim / stride_istate_dim / stride_o_dim are 1 (channel-last), which Triton's launcher specialises
    "divisibility": ["stride_x_seq", "stride_x_token", "stride_weight_dim", "stride_weight_width",
                     "stride_istate_seq", "stride_istate_token", "stride_o_seq", "stride_o_token", "dim",
                     "seqlen"]}
PROBLEM: dict[str, int] = {"batch": 4, "dim": 5376, "seqlen": 2048, "width": 4}
SMALL: dict[str, int] = {"batch": 2, "dim": 272, "seqlen": 80, "width": 4}


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 256}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 32}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 128}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 32}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 256}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 128}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 64}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 32}, num_stages=3, num_warps=8),
    ],
    key=["seqlen", "dim", "batch"],
)
@triton.jit()
def _causal_conv1d_fwd_kernel(
    # Pointers to matrices
    x_ptr,  # (batch, dim, seqlen)
    w_ptr,  # (dim, width)
    bias_ptr,
    initial_states_ptr,
    o_ptr,  # (batch, dim, seqlen)
    # Matrix dimensions
    batch,
    dim,
    seqlen,
    # Strides
    stride_x_seq,  # stride to get to next sequence,
    stride_x_dim,  # stride to get to next feature-value,
    stride_x_token,  # stride to get to next token (same feature-index, same sequence-index)
    stride_weight_dim,  # stride to get to next dim-axis value
    stride_weight_width,  # stride to get to next width-axis value
    stride_istate_seq,
    stride_istate_dim,
    stride_istate_token,
    stride_o_seq,
    stride_o_dim,
    stride_o_token,
    # Meta-parameters
    HAS_BIAS: tl.constexpr,
    KERNEL_WIDTH: tl.constexpr,  # maybe using this we don't need 'width'
    SILU_ACTIVATION: tl.constexpr,
    HAS_INITIAL_STATES: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    indices_0 = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    idx_seqs = indices_0 // seqlen
    idx_tokens = indices_0 % seqlen

    x_base = x_ptr + (idx_seqs * stride_x_seq)[:, None]  # the beginning features at all tokens at all sequences processed by this Triton program
    idx_feats = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    w_base = w_ptr + (idx_feats * stride_weight_dim)  # first kernel column, configured for weights to handle BLOCK_N features in range
    load_init_state = False
    if HAS_INITIAL_STATES:
        load_init_state = tl.min(idx_tokens) < KERNEL_WIDTH - 1
        initial_states_base = initial_states_ptr + (idx_seqs * stride_istate_seq)[:, None] + (idx_feats * stride_istate_dim)[None, :]

    # store output data at the corresponding tokens (BLOCK_M of them) and feature-indices (BLOCK_N of them) in these tokens
    if HAS_BIAS:
        bias = bias_ptr + idx_feats
        mask_bias = idx_feats < dim
        acc = tl.load(bias, mask=mask_bias, other=0.0).to(tl.float32)[None, :]  # [BLOCK_N]
        acc = tl.broadcast_to(acc, (BLOCK_M, BLOCK_N))
    else:
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    PADDING_W = KERNEL_WIDTH - 1
    for j in range(KERNEL_WIDTH):
        idx_x_w = j - PADDING_W + idx_tokens  # the token index to multiply with kernel[:, 0], given kernel with width-columns, i.e. kernel[:, 0..(width-1)]
        x_ptrs = x_base + ((idx_x_w * stride_x_token)[:, None] + (idx_feats * stride_x_dim)[None, :])  # [BLOCK_M, BLOCK_N]
        mask_x = ((idx_seqs < batch)[:, None]  # sequence-index
                  & (idx_x_w >= 0)[:, None]  # token-index
                  & (idx_x_w < seqlen)[:, None]  # token-index
                  & (idx_feats < dim)[None, :]  # feature-index
                  )
        if HAS_INITIAL_STATES:
            if load_init_state:
                initial_states_ptrs = initial_states_base + ((idx_x_w + KERNEL_WIDTH - 1) * stride_istate_token)[:, None]  # [BLOCK_M, BLOCK_N]
                mask_w = (idx_seqs < batch)[:, None] & (idx_x_w < 0)[:, None] & (idx_feats < dim)[None, :]  # sequence-index  # token-index  # feature-index
                initial_states = tl.load(initial_states_ptrs, mask_w, 0.0)
            else:
                initial_states = tl.zeros((BLOCK_M, BLOCK_N), dtype=x_ptr.dtype.element_ty)
            matrix_x = tl.load(x_ptrs, mask=mask_x, other=initial_states)
        else:
            matrix_x = tl.load(x_ptrs, mask=mask_x, other=0.0)

        w_ptrs = w_base[None, :] + \
            (j * stride_weight_width)  # [1, BLOCK_N] tensor
        mask_w = (idx_feats < dim)[None, :]
        matrix_w = tl.load(w_ptrs, mask_w, other=0.0)
        acc += matrix_x * matrix_w

    if SILU_ACTIVATION:
        acc = acc / (1 + tl.exp(-acc))
    mask = (
        (idx_seqs < batch)[:, None]  # sequence-index
        & (idx_tokens < seqlen)[:, None]  # token-index
        & (idx_feats < dim)[None, :]  # feature-index
    )
    o_ptrs = (
        o_ptr
        + (idx_seqs * stride_o_seq)[:, None]
        + (idx_tokens * stride_o_token)[:, None]
        + (idx_feats * stride_o_dim)[None, :]
    )

    tl.store(o_ptrs, acc, mask=mask)


def make_inputs(batch: int, dim: int, seqlen: int, width: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [batch, dim, seqlen] bf16 channel-last (a [batch, seqlen, dim] tensor transposed), weight [dim, width],
    bias [dim], initial_states [batch, dim, width - 1] channel-last, all bf16."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((batch, seqlen, dim), device=device, generator=g).to(torch.bfloat16).transpose(1, 2)
    w = (torch.randn((dim, width), device=device, generator=g) * 0.5).to(torch.bfloat16)
    b = (torch.randn((dim,), device=device, generator=g) * 0.1).to(torch.bfloat16)
    s = torch.randn((batch, width - 1, dim), device=device, generator=g).to(torch.bfloat16).transpose(1, 2)
    return {"x": x, "weight": w, "bias": b, "initial_states": s}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """silu(causal_conv1d(x, weight, bias, initial_states)) [batch, dim, seqlen] bf16, as ``causal_conv1d_fwd``."""
    import torch
    x, weight, bias, initial_states = inputs["x"], inputs["weight"], inputs["bias"], inputs["initial_states"]
    batch, dim, seqlen = x.shape
    _, width = weight.shape
    weight = weight.transpose(0, 1).contiguous()
    stride_w_dim = weight.stride(1)
    stride_w_width = weight.stride(0)
    out = torch.empty_like(x)

    def grid(META):
        return (triton.cdiv(batch * seqlen, META["BLOCK_M"]), triton.cdiv(dim, META["BLOCK_N"]))

    _causal_conv1d_fwd_kernel[grid](
        x, weight, bias, initial_states, out, batch, dim, seqlen,
        x.stride(0), x.stride(1), x.stride(2), stride_w_dim, stride_w_width,
        initial_states.stride(0), initial_states.stride(1), initial_states.stride(2),
        out.stride(0), out.stride(1), out.stride(2),
        HAS_BIAS=True, KERNEL_WIDTH=width, SILU_ACTIVATION=True, HAS_INITIAL_STATES=True)
    return out


def reference(inputs: dict[str, Any]) -> Any:
    """out[b, c, t] = silu(bias[c] + sum_j w[c, j] * xs[b, c, t + j]) with xs = cat(initial_states, x) on time."""
    import torch
    x, w, b, s = (inputs[k].float() for k in ("x", "weight", "bias", "initial_states"))
    width = w.shape[1]
    seqlen = x.shape[2]
    xs = torch.cat([s, x], dim=2)
    out = b[None, :, None].expand_as(x).clone()
    for j in range(width):
        out += w[None, :, j, None] * xs[:, :, j:j + seqlen]
    return torch.nn.functional.silu(out)


def flops(batch: int, dim: int, seqlen: int, width: int) -> float:
    """A multiply-add per tap and element, plus the SiLU: (2 * width + 4) * batch * dim * seqlen."""
    return (2.0 * width + 4.0) * batch * dim * seqlen
