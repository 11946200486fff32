"""vLLM's ``_causal_conv1d_update_kernel`` (vllm/model_executor/layers/mamba/ops/causal_conv1d.py, the Mamba-2 /
hybrid-model decode step with speculative decoding, rewritten here): one program a (sequence, BLOCK_N channels). The
sequence's conv-state line comes from ``conv_state_indices`` (continuous batching; ``if conv_state_batch_coord ==
pad_slot_id: return`` and ``if idx_seq >= batch: return`` before any work), the window's start from
``num_accepted_tokens - 1`` (IS_SPEC_DECODING: the state was rolled for draft tokens of which only some were
accepted). STEP 1 loads the KERNEL_WIDTH - 1 prior columns into named registers col0..col2; STEP 2 rolls the whole
state window in one [NP2_STATELEN, BLOCK_N] tile (the state shifted by one token plus the new tokens of x, selected by
``tl.where`` of two masks, a ``tl.debug_barrier()`` between the loads and the in-place store of the state); STEP 3-4
preload the bias and the four weight columns; STEP 5 is ``for idx_token in tl.static_range(seqlen)`` with seqlen a
constexpr (1 + 3 draft tokens): Triton unrolls it, so the kernel has no ``scf.for`` at all, only straight-line code
(the tap loop ``tl.static_range(KERNEL_WIDTH)`` inside with its ``if j == ...`` chain, the window rotated
``col0 = col1; col1 = col2; col2 = matrix_x``, SiLU, a masked store per token). The construct: a kernel whose only
loops are static ranges, which twill must refuse in one line. Strides and sizes are constexprs as vLLM declares them;
BLOCK_N = 256 as vLLM launches it. vLLM writes the output over x (``out = x``); this launch gives the kernel a fresh
output and a copy of the conv state (it updates the state in place). fp16 where vLLM runs bf16 (Triton's interpreter
mishandles bf16)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

DIM = 2048            # Mamba-2 / Nemotron-H conv channels (d_inner + 2 * ngroups * d_state)
WIDTH = 4
SEQLEN = 4            # one accepted token plus three draft tokens a step
STATE_LEN = WIDTH - 1 + (SEQLEN - 1)
PAD_SLOT_ID = -1
NUM_CACHE_LINES = 512
STRIDES = {"stride_x_seq": DIM * SEQLEN, "stride_x_dim": 1, "stride_x_token": DIM,
           "stride_w_dim": WIDTH, "stride_w_width": 1,
           "stride_conv_state_seq": DIM * STATE_LEN, "stride_conv_state_dim": 1, "stride_conv_state_tok": DIM,
           "stride_state_indices": 1,
           "stride_o_seq": DIM * SEQLEN, "stride_o_dim": 1, "stride_o_token": DIM}
CONSTS = {"dim": DIM, "seqlen": SEQLEN, "state_len": STATE_LEN, "num_cache_lines": NUM_CACHE_LINES, **STRIDES,
          "pad_slot_id": PAD_SLOT_ID, "HAS_BIAS": True, "KERNEL_WIDTH": WIDTH, "SILU_ACTIVATION": True,
          "IS_CONTINUOUS_BATCHING": True, "IS_SPEC_DECODING": True, "NP2_STATELEN": triton.next_power_of_2(STATE_LEN),
          "USE_PAD_SLOT": True, "BLOCK_N": 256}
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_causal_conv1d_update_kernel",
    "signature": {"x_ptr": "*fp16", "w_ptr": "*fp16", "bias_ptr": "*fp16", "conv_state_ptr": "*fp16",
                  "conv_state_indices_ptr": "*i32", "num_accepted_tokens_ptr": "*i32", "o_ptr": "*fp16",
                  "batch": "i32"},
    "constexprs": CONSTS,
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["x_ptr", "w_ptr", "bias_ptr", "conv_state_ptr", "o_ptr"]}
PROBLEM: dict[str, Any] = {"batch": 256}
SMALL: dict[str, Any] = {"batch": 5}      # dim / width / seqlen as PROBLEM's: they are constexprs


@triton.jit()
def _causal_conv1d_update_kernel(
    # Pointers to matrices
    x_ptr,  # (batch, dim, seqlen)
    w_ptr,  # (dim, width)
    bias_ptr,
    conv_state_ptr,
    conv_state_indices_ptr,
    num_accepted_tokens_ptr,
    o_ptr,  # (batch, dim, seqlen)
    # Matrix dimensions
    batch: int,
    dim: tl.constexpr,
    seqlen: tl.constexpr,
    state_len: tl.constexpr,
    num_cache_lines: tl.constexpr,  # added to support vLLM larger cache lines
    # Strides
    stride_x_seq: tl.constexpr,
    stride_x_dim: tl.constexpr,
    stride_x_token: tl.constexpr,
    stride_w_dim: tl.constexpr,
    stride_w_width: tl.constexpr,
    stride_conv_state_seq: tl.constexpr,
    stride_conv_state_dim: tl.constexpr,
    stride_conv_state_tok: tl.constexpr,
    stride_state_indices: tl.constexpr,
    stride_o_seq: tl.constexpr,
    stride_o_dim: tl.constexpr,
    stride_o_token: tl.constexpr,
    # others
    pad_slot_id: tl.constexpr,
    # Meta-parameters
    HAS_BIAS: tl.constexpr,
    KERNEL_WIDTH: tl.constexpr,
    SILU_ACTIVATION: tl.constexpr,
    IS_CONTINUOUS_BATCHING: tl.constexpr,
    IS_SPEC_DECODING: tl.constexpr,
    NP2_STATELEN: tl.constexpr,
    USE_PAD_SLOT: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    # ruff: noqa: E501
    idx_seq = tl.program_id(0)
    if idx_seq >= batch:
        return

    # [BLOCK_N,] elements along the feature-dimension (channel)
    idx_feats = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)

    if IS_CONTINUOUS_BATCHING:
        # mask = idx_seq < batch
        conv_state_batch_coord = tl.load(conv_state_indices_ptr + idx_seq * stride_state_indices).to(tl.int64)
    else:
        conv_state_batch_coord = idx_seq
    if USE_PAD_SLOT:  # noqa
        if conv_state_batch_coord == pad_slot_id:
            # not processing as this is not the actual sequence
            return

    if IS_SPEC_DECODING:
        # The rolling of conv state:
        #
        # Before forward, the conv_state is:
        # [history1, history2, ..., historyM].
        #
        # After forward, the conv_state becomes:
        # [history2, ..., historyM, draft1, draft2, ..., draftN].
        #
        # After acceptance, it becomes:
        #
        # - accept 1 tokens: [history2, ..., historyM, draft1]
        # - accept 2 tokens: [history3, ..., historyM, draft1, draft2]
        # - and so on.
        conv_state_token_offset = tl.load(num_accepted_tokens_ptr + idx_seq) - 1
    else:
        conv_state_token_offset = 0

    # STEP 1: READ init_state data
    conv_states_base = (conv_state_ptr + (conv_state_batch_coord * stride_conv_state_seq) +
                        (idx_feats * stride_conv_state_dim))
    mask_w = idx_feats < dim

    prior_tokens = conv_states_base + conv_state_token_offset * stride_conv_state_tok
    if KERNEL_WIDTH >= 2:
        conv_states_ptrs = prior_tokens  # [BLOCK_N]
        col0 = tl.load(conv_states_ptrs, mask_w, 0.0)
    if KERNEL_WIDTH >= 3:
        conv_states_ptrs = prior_tokens + 1 * stride_conv_state_tok  # [BLOCK_N]
        col1 = tl.load(conv_states_ptrs, mask_w, 0.0)
    if KERNEL_WIDTH >= 4:
        conv_states_ptrs = prior_tokens + 2 * stride_conv_state_tok  # [BLOCK_N]
        col2 = tl.load(conv_states_ptrs, mask_w, 0.0)

    # STEP 2: assume state_len > seqlen
    idx_tokens = tl.arange(0, NP2_STATELEN)  # [BLOCK_M]

    # The conv_state updates works in a sliding window manner,
    # at each forward pass, the tokens are shift by 1, so we
    # load since idx_tokens + 1.
    conv_state_ptrs_source = (
        conv_state_ptr + (conv_state_batch_coord * stride_conv_state_seq) +
        conv_state_token_offset * stride_conv_state_tok +
        (idx_feats * stride_conv_state_dim)[None, :] +
        ((idx_tokens + 1) * stride_conv_state_tok)[:, None])  # [BLOCK_M, BLOCK_N]
    mask = ((conv_state_batch_coord < num_cache_lines)
            & ((idx_tokens + seqlen) < state_len)[:, None]
            & (idx_feats < dim)[None, :])
    conv_state = tl.load(conv_state_ptrs_source, mask, other=0.0)

    VAL = state_len - seqlen
    x_base = x_ptr + (idx_seq * stride_x_seq) + (idx_feats * stride_x_dim)  # [BLOCK_N]

    x_ptrs = x_base[None, :] + ((idx_tokens - VAL) * stride_x_token)[:, None]  # [BLOCK_M, BLOCK_N]

    mask_x = ((idx_tokens - VAL >= 0)[:, None]
              & (idx_tokens - VAL < seqlen)[:, None]
              & (idx_feats < dim)[None, :])  # token-index  # token-index  # feature-index
    loaded_x = tl.load(x_ptrs, mask_x, 0.0)
    tl.debug_barrier()

    new_conv_state = tl.where(mask, conv_state, loaded_x)

    conv_state_base = (conv_state_ptr + (conv_state_batch_coord * stride_conv_state_seq) +
                       (idx_feats * stride_conv_state_dim))  # [BLOCK_N,]
    conv_state_ptrs_target = conv_state_base + (idx_tokens * stride_conv_state_tok)[:, None]  # [BLOCK_M, BLOCK_N]
    mask = (idx_tokens < state_len)[:, None] & (idx_feats < dim)[None, :]
    tl.store(conv_state_ptrs_target, new_conv_state, mask)

    # STEP 3: init accumulator
    if HAS_BIAS:
        bias = bias_ptr + idx_feats
        mask_bias = idx_feats < dim
        acc_preload = tl.load(bias, mask=mask_bias, other=0.0).to(tl.float32)  # [BLOCK_N]
    else:
        acc_preload = tl.zeros((BLOCK_N,), dtype=tl.float32)

    # STEP 4:
    # PRE-LOAD WEIGHTS
    # first kernel column, configured for weights to handle BLOCK_N features in range
    w_base = w_ptr + (idx_feats * stride_w_dim)  # [BLOCK_N,]
    mask_w = idx_feats < dim
    if KERNEL_WIDTH >= 2:
        w_ptrs = w_base + (0 * stride_w_width)  # [BLOCK_N] tensor
        w_col0 = tl.load(w_ptrs, mask_w, other=0.0)
        w_ptrs = w_base + (1 * stride_w_width)  # [BLOCK_N] tensor
        w_col1 = tl.load(w_ptrs, mask_w, other=0.0)
    if KERNEL_WIDTH >= 3:
        w_ptrs = w_base + (2 * stride_w_width)  # [BLOCK_N] tensor
        w_col2 = tl.load(w_ptrs, mask_w, other=0.0)
    if KERNEL_WIDTH >= 4:
        w_ptrs = w_base + (3 * stride_w_width)  # [BLOCK_N] tensor
        w_col3 = tl.load(w_ptrs, mask_w, other=0.0)

    x_base_1d = x_base  # starting of chunk [BLOCK_N]
    mask_x_1d = idx_feats < dim

    # STEP 5: compute each token
    for idx_token in tl.static_range(seqlen):
        acc = acc_preload

        matrix_w = w_col0
        matrix_x = col0
        for j in tl.static_range(KERNEL_WIDTH):
            if KERNEL_WIDTH == 2:
                if j == 1:  # KERNEL_WIDTH-1:
                    matrix_w = w_col1
                    x_ptrs_1d = x_base_1d + idx_token * stride_x_token  # [BLOCK_N]
                    matrix_x = tl.load(x_ptrs_1d, mask=mask_x_1d)
            elif KERNEL_WIDTH == 3:
                if j == 1:
                    matrix_w = w_col1
                    matrix_x = col1
                elif j == 2:
                    matrix_w = w_col2
                    x_ptrs_1d = x_base_1d + idx_token * stride_x_token  # [BLOCK_N]
                    matrix_x = tl.load(x_ptrs_1d, mask=mask_x_1d)
            elif KERNEL_WIDTH == 4:
                if j == 1:
                    matrix_w = w_col1
                    matrix_x = col1
                elif j == 2:
                    matrix_w = w_col2
                    matrix_x = col2
                elif j == 3:
                    matrix_w = w_col3
                    x_ptrs_1d = x_base_1d + idx_token * stride_x_token  # [BLOCK_N]
                    matrix_x = tl.load(x_ptrs_1d, mask=mask_x_1d)

            acc += matrix_x * matrix_w  # [BLOCK_N]

        if KERNEL_WIDTH == 2:
            col0 = matrix_x
        elif KERNEL_WIDTH == 3:
            col0 = col1
            col1 = matrix_x
        elif KERNEL_WIDTH == 4:
            col0 = col1
            col1 = col2
            col2 = matrix_x

        if SILU_ACTIVATION:
            acc = acc / (1 + tl.exp(-acc))
        mask_1d = (idx_token < seqlen) & (idx_feats < dim)  # token-index  # feature-index
        o_ptrs = o_ptr + (idx_seq) * stride_o_seq + idx_token * stride_o_token + (idx_feats * stride_o_dim)

        tl.store(o_ptrs, acc, mask=mask_1d)


def make_inputs(batch: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [batch, dim, seqlen] with dim contiguous (a transposed [batch, seqlen, dim] tensor, as vLLM's spec-decode path
    hands it), weight [dim, width], bias [dim], a conv-state cache of NUM_CACHE_LINES lines [lines, dim, state_len]
    with dim contiguous; each sequence on a shuffled line, the last one a padding slot; 1..4 tokens accepted."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn((batch, SEQLEN, DIM), device=device, generator=g).half().transpose(1, 2)
    w = (torch.randn((DIM, WIDTH), device=device, generator=g) / 2).half()
    bias = (torch.randn((DIM,), device=device, generator=g) / 4).half()
    state = torch.randn((NUM_CACHE_LINES, STATE_LEN, DIM), device=device, generator=g).half().transpose(1, 2)
    idx = torch.randperm(NUM_CACHE_LINES, device=device, generator=g)[:batch].to(torch.int32)
    idx[-1] = PAD_SLOT_ID
    accepted = torch.randint(1, SEQLEN + 1, (batch,), device=device, generator=g, dtype=torch.int32)
    return {"x": x, "weight": w, "bias": bias, "conv_state": state, "conv_state_indices": idx,
            "num_accepted_tokens": accepted}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(out [batch, dim, seqlen], the updated conv-state cache) as vLLM's ``causal_conv1d_update(x, conv_state,
    weight, bias, activation="silu", conv_state_indices=..., num_accepted_tokens=..., pad_slot_id=-1)`` leaves them;
    the launch updates a copy of the cache, and padded sequences' outputs are zeros (vLLM leaves x there)."""
    import torch
    x, weight, bias = inputs["x"], inputs["weight"], inputs["bias"]
    conv_state = inputs["conv_state"].clone(memory_format=torch.preserve_format)
    batch, dim, seqlen = x.shape
    _, width = weight.shape
    num_cache_lines, _, state_len = conv_state.size()
    assert conv_state.stride(-2) == 1 and state_len >= width - 1 and weight.stride(1) == 1
    out = torch.empty_like(x)
    idx = inputs["conv_state_indices"]
    out[idx == PAD_SLOT_ID] = 0
    assert (x.stride(), conv_state.stride()) == ((STRIDES["stride_x_seq"], 1, DIM), (STRIDES["stride_conv_state_seq"],
                                                                                    1, DIM))
    BLOCK_N = config.get("BLOCK_N", 256)
    grid = (batch, triton.cdiv(dim, BLOCK_N))
    consts = dict(CONSTS, BLOCK_N=BLOCK_N)
    _causal_conv1d_update_kernel[grid](
        x, weight, bias, conv_state, idx, inputs["num_accepted_tokens"], out, batch, **consts,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return out, conv_state


def reference(inputs: dict[str, Any]) -> Any:
    """float64: each sequence's window (width - 1 state columns from the accepted offset, then its new tokens)
    convolved, SiLU; the state line rewritten with the window's last state_len columns; padded sequences untouched
    (output zeros)."""
    import torch
    x, w, bias = inputs["x"].double(), inputs["weight"].double(), inputs["bias"].double()
    state = inputs["conv_state"].double().clone()
    out = torch.zeros_like(x)
    for i in range(x.shape[0]):
        line = int(inputs["conv_state_indices"][i])
        if line == PAD_SLOT_ID:
            continue
        off = int(inputs["num_accepted_tokens"][i]) - 1
        hist = state[line][:, off:off + WIDTH - 1]                           # the window from the accepted offset
        xs = torch.cat([hist, x[i]], dim=1)                                  # [dim, width - 1 + seqlen]
        y = torch.nn.functional.conv1d(xs[None], w[:, None, :], bias, groups=DIM)[0]
        out[i] = torch.nn.functional.silu(y)
        state[line] = xs[:, -STATE_LEN:]
    return out, state.half()
