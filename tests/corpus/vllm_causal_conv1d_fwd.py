"""vLLM's ``_causal_conv1d_fwd_kernel`` (vllm/model_executor/layers/mamba/ops/causal_conv1d.py, the Mamba-2 / varlen
continuous-batching prefill form, rewritten here): a depthwise causal conv1d over the time axis of channel-last x
[dim, cu_seqlen] (stride_x_dim = 1). Each program takes one BLOCK_M-token segment of one sequence, found through
host-built ``batch_ptr`` / ``token_chunk_offset_ptr`` tables (``if idx_seq == pad_slot_id: return`` before the loop),
and BLOCK_N channels. Before the loop the KERNEL_WIDTH - 1 prior columns are loaded into named registers col0..col2:
from the conv state cache through ``cache_indices`` when the segment is the sequence's first and
``has_initial_states`` says so (zeros otherwise: an if / else nested in ``if chunk_offset == 0`` that defines the
same names), from x itself (``cache_modifier=".ca"``) for later segments; the weight columns are preloaded. The loop
``for idx_token in range(segment_len)`` (a runtime trip count, ``min(BLOCK_M, seqlen - token_offset)``) walks the
tokens one at a time: a ``tl.static_range(KERNEL_WIDTH)`` inner loop picks (weight column, x column) pairs through
``if j == ...`` chains on constexprs, the fresh x column loaded at the last tap; the window then rotates
(``col0 = col1; col1 = col2; col2 = matrix_x``: three loop-carried [BLOCK_N] fp16 vectors shifted every
iteration), SiLU, and one masked store a token. Strides, dim and the flags are constexprs as vLLM declares them;
BLOCK_M = 8, BLOCK_N = 256, num_stages = 2 as vLLM launches it. The conv-state write-back vLLM does before the
loop (and prefix caching, IS_APC_ENABLED) are left out. fp16 where vLLM runs bf16 (Triton's interpreter mishandles
bf16)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

DIM = 2048
WIDTH = 4
PAD_SLOT_ID = -1
STRIDES = {"stride_x_dim": 1, "stride_x_token": DIM, "stride_w_dim": WIDTH, "stride_w_width": 1,
           "stride_istate_seq": DIM * (WIDTH - 1), "stride_istate_dim": 1, "stride_istate_token": DIM,
           "stride_o_dim": 1, "stride_o_token": DIM}
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_causal_conv1d_fwd_kernel",
    "signature": {"x_ptr": "*fp16", "w_ptr": "*fp16", "bias_ptr": "*fp16", "conv_states_ptr": "*fp16",
                  "cache_indices_ptr": "*i32", "has_initial_states_ptr": "*i1", "query_start_loc_ptr": "*i32",
                  "batch_ptr": "*i32", "token_chunk_offset_ptr": "*i32", "o_ptr": "*fp16"},
    "constexprs": {"dim": DIM, **STRIDES, "pad_slot_id": PAD_SLOT_ID, "HAS_BIAS": True, "KERNEL_WIDTH": WIDTH,
                   "SILU_ACTIVATION": True, "USE_PAD_SLOT": True, "BLOCK_M": 8, "BLOCK_N": 256},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["x_ptr", "w_ptr", "bias_ptr", "conv_states_ptr", "o_ptr"]}
PROBLEM: dict[str, Any] = {"seqlens": (1500, 3, 700, 2048, 37, 1) * 4}
SMALL: dict[str, Any] = {"seqlens": (13, 1, 2, 8, 20)}     # dim / width as PROBLEM's: they are constexprs


@triton.jit()
def _causal_conv1d_fwd_kernel(x_ptr, w_ptr, bias_ptr, conv_states_ptr, cache_indices_ptr, has_initial_states_ptr,
                              query_start_loc_ptr, batch_ptr, token_chunk_offset_ptr, o_ptr,
                              dim: tl.constexpr, stride_x_dim: tl.constexpr, stride_x_token: tl.constexpr,
                              stride_w_dim: tl.constexpr, stride_w_width: tl.constexpr,
                              stride_istate_seq: tl.constexpr, stride_istate_dim: tl.constexpr,
                              stride_istate_token: tl.constexpr, stride_o_dim: tl.constexpr,
                              stride_o_token: tl.constexpr, pad_slot_id: tl.constexpr, HAS_BIAS: tl.constexpr,
                              KERNEL_WIDTH: tl.constexpr, SILU_ACTIVATION: tl.constexpr,
                              USE_PAD_SLOT: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # twill corpus rendition: one BLOCK_M-token segment of one sequence, BLOCK_N channels
    state_len: tl.constexpr = KERNEL_WIDTH - 1
    idx_seq = tl.load(batch_ptr + tl.program_id(0))
    chunk_offset = tl.load(token_chunk_offset_ptr + tl.program_id(0))
    idx_feats = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    if idx_seq == pad_slot_id:
        return
    seq_start = tl.load(query_start_loc_ptr + idx_seq)
    seqlen = tl.load(query_start_loc_ptr + idx_seq + 1) - seq_start
    token_offset = BLOCK_M * chunk_offset
    segment_len = min(BLOCK_M, seqlen - token_offset)
    x_base = x_ptr + seq_start * stride_x_token + idx_feats * stride_x_dim
    cache_line = tl.load(cache_indices_ptr + idx_seq).to(tl.int64)
    if USE_PAD_SLOT:
        if cache_line == pad_slot_id:
            return
    conv_states_base = conv_states_ptr + cache_line * stride_istate_seq + idx_feats * stride_istate_dim
    mask_w = idx_feats < dim
    if chunk_offset == 0:
        load_init_state = tl.load(has_initial_states_ptr + idx_seq).to(tl.int1)
        if load_init_state:                       # the prior tokens from the conv state cache
            prior_tokens = conv_states_base + (state_len - 1) * stride_istate_token
            col2 = tl.load(prior_tokens, mask_w, 0.0)
            col1 = tl.load(prior_tokens - 1 * stride_istate_token, mask_w, 0.0)
            col0 = tl.load(prior_tokens - 2 * stride_istate_token, mask_w, 0.0)
        else:                                     # a fresh sequence: zeros before it
            col0 = tl.zeros((BLOCK_N,), dtype=x_ptr.dtype.element_ty)
            col1 = tl.zeros((BLOCK_N,), dtype=x_ptr.dtype.element_ty)
            col2 = tl.zeros((BLOCK_N,), dtype=x_ptr.dtype.element_ty)
    else:                                         # a later segment: the prior tokens are x's own
        prior_tokens = x_base + (token_offset - 1) * stride_x_token
        col2 = tl.load(prior_tokens, mask_w, 0.0, cache_modifier=".ca")
        col1 = tl.load(prior_tokens - 1 * stride_x_token, mask_w, 0.0, cache_modifier=".ca")
        col0 = tl.load(prior_tokens - 2 * stride_x_token, mask_w, 0.0, cache_modifier=".ca")
    if HAS_BIAS:
        acc_preload = tl.load(bias_ptr + idx_feats, mask=mask_w, other=0.0).to(tl.float32)
    else:
        acc_preload = tl.zeros((BLOCK_N,), dtype=tl.float32)
    x_base_1d = x_base + token_offset * stride_x_token
    w_base = w_ptr + idx_feats * stride_w_dim
    w_col0 = tl.load(w_base + 0 * stride_w_width, mask_w, other=0.0)
    w_col1 = tl.load(w_base + 1 * stride_w_width, mask_w, other=0.0)
    w_col2 = tl.load(w_base + 2 * stride_w_width, mask_w, other=0.0)
    w_col3 = tl.load(w_base + 3 * stride_w_width, mask_w, other=0.0)
    for idx_token in range(segment_len):
        acc = acc_preload
        matrix_w = w_col0
        matrix_x = col0
        for j in tl.static_range(KERNEL_WIDTH):
            if j == 1:
                matrix_w = w_col1
                matrix_x = col1
            elif j == 2:
                matrix_w = w_col2
                matrix_x = col2
            elif j == 3:                          # the newest tap: this token's own column of x
                matrix_w = w_col3
                matrix_x = tl.load(x_base_1d + idx_token * stride_x_token, mask=mask_w)
            acc += matrix_x * matrix_w
        col0 = col1                               # the window slides one token
        col1 = col2
        col2 = matrix_x
        if SILU_ACTIVATION:
            acc = acc / (1 + tl.exp(-acc))
        mask_1d = (idx_token < segment_len) & mask_w
        o_ptrs = o_ptr + (seq_start + token_offset + idx_token) * stride_o_token + idx_feats * stride_o_dim
        tl.store(o_ptrs, acc, mask=mask_1d)


def make_inputs(seqlens: tuple[int, ...], device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [dim, cu_seqlen] channel-last (a transposed [cu_seqlen, dim] tensor), weight [dim, width], bias [dim],
    a conv state cache of 2 * batch lines [lines, dim, width - 1] with dim contiguous, each sequence mapped to a
    shuffled line; every other sequence continues from its cached state."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    batch = len(seqlens)
    total = sum(seqlens)
    x = torch.randn((total, DIM), device=device, generator=g).half().t()
    w = (torch.randn((DIM, WIDTH), device=device, generator=g) / 2).half()
    bias = (torch.randn((DIM,), device=device, generator=g) / 4).half()
    lines = 2 * batch
    states = torch.randn((lines, WIDTH - 1, DIM), device=device, generator=g).half().transpose(1, 2)
    cache_indices = torch.randperm(lines, device=device, generator=g)[:batch].to(torch.int32)
    has_initial = torch.arange(batch, device=device) % 2 == 0
    qsl = torch.tensor((0,) + tuple(torch.tensor(seqlens).cumsum(0).tolist()), dtype=torch.int32, device=device)
    return {"x": x, "weight": w, "bias": bias, "conv_states": states, "cache_indices": cache_indices,
            "has_initial_state": has_initial, "query_start_loc": qsl, "seqlens": tuple(seqlens),
            "tables": {8: _tables(seqlens, 8, device)}}


def _tables(seqlens: tuple[int, ...], block_m: int, device: Any) -> tuple[Any, Any]:
    """The (sequence, segment) of each program, as vLLM's metadata builds them before the call (not in it: a launch
    captured in a CUDA graph cannot copy from the host)."""
    import torch
    seqs, offs = [], []
    for i, n in enumerate(seqlens):
        nseg = triton.cdiv(n, block_m)
        seqs += [i] * nseg
        offs += list(range(nseg))
    return (torch.tensor(seqs, dtype=torch.int32, device=device), torch.tensor(offs, dtype=torch.int32, device=device))


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out [dim, cu_seqlen] as vLLM's causal_conv1d_fn(x, weight, bias, conv_states, query_start_loc,
    cache_indices, has_initial_state, activation="silu"); the (sequence, segment) tables made with the inputs."""
    import torch
    x = inputs["x"]
    BLOCK_M, BLOCK_N = config.get("BLOCK_M", 8), config.get("BLOCK_N", 256)
    tables = inputs["tables"]
    if BLOCK_M not in tables:
        tables[BLOCK_M] = _tables(inputs["seqlens"], BLOCK_M, x.device)
    batch_ptr, chunk_ptr = tables[BLOCK_M]
    out = torch.empty_like(x)
    grid = (batch_ptr.numel(), triton.cdiv(DIM, BLOCK_N))
    _causal_conv1d_fwd_kernel[grid](
        x, inputs["weight"], inputs["bias"], inputs["conv_states"], inputs["cache_indices"],
        inputs["has_initial_state"], inputs["query_start_loc"], batch_ptr, chunk_ptr, out,
        dim=DIM, **STRIDES, pad_slot_id=PAD_SLOT_ID, HAS_BIAS=True, KERNEL_WIDTH=WIDTH, SILU_ACTIVATION=True,
        USE_PAD_SLOT=True, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, w, bias = inputs["x"].double(), inputs["weight"].double(), inputs["bias"].double()
    states = inputs["conv_states"].double()
    out = torch.empty_like(x)
    start = 0
    for i, n in enumerate(inputs["seqlens"]):
        line = int(inputs["cache_indices"][i])
        prior = states[line] if bool(inputs["has_initial_state"][i]) else torch.zeros_like(states[line])
        xs = torch.cat([prior, x[:, start:start + n]], dim=1)                  # [dim, width - 1 + n]
        y = torch.nn.functional.conv1d(xs[None], w[:, None, :], bias, groups=DIM)[0]
        out[:, start:start + n] = torch.nn.functional.silu(y)
        start += n
    return out
