"""Mamba-2's ``_state_passing_fwd_kernel`` (mamba_ssm/ops/triton/ssd_state_passing.py, also vLLM's copy, rewritten
here): the sequential pass over chunks of the SSD scan. Each program owns BLOCK_SIZE elements of one (batch, head)'s
flattened state (headdim * dstate) and walks ``for c in range(nchunks)`` (a runtime trip count) carrying that state
vector in fp32: every chunk loads its chunk-local state [BLOCK_SIZE] and ONE scalar decay ``dA_cs`` (the chunk's
last cumulative dA, ``tl.exp``'d), and with HAS_SEQ_IDX the sequence index at the chunk's last position
(``min((c + 1) * chunk_size, seqlen) - 1``: a clamped scalar address) zeroes the decay where a new sequence starts,
the index itself carried across chunks (an ``int`` 0 before the loop, an i32 load after: ``seq_idx = seq_idx_new``).
The updated state is stored under ``if c < nchunks - 1`` into out's next chunk slot, else into final_states (a store
on each side of an if / else in the loop). Three pointers are advanced by ``+=`` their chunk strides every
iteration; the initial state is loaded (HAS_INITSTATES) and stored into out's chunk 0 before the loop. Strides are
runtime ints except the unit ``dim`` strides, which a launch specialises to 1; BLOCK_SIZE 512 of the autotuner's
six. fp32 states as Mamba keeps them."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

CHUNK = 256
_STRIDES = ("stride_states_batch", "stride_states_chunk", "stride_states_head",
            "stride_out_batch", "stride_out_chunk", "stride_out_head",
            "stride_final_states_batch", "stride_final_states_head",
            "stride_dA_cs_batch", "stride_dA_cs_chunk", "stride_dA_cs_head",
            "stride_initstates_batch", "stride_initstates_head", "stride_seq_idx_batch")
_UNIT = ("stride_states_dim", "stride_out_dim", "stride_final_states_dim", "stride_initstates_dim",
         "stride_seq_idx_seqlen")
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_state_passing_fwd_kernel",
    "signature": {"states_ptr": "*fp32", "out_ptr": "*fp32", "final_states_ptr": "*fp32", "dA_cs_ptr": "*fp32",
                  "initstates_ptr": "*fp32", "seq_idx_ptr": "*i32",
                  "dim": "i32", "nchunks": "i32", "seqlen": "i32", "chunk_size": "i32",
                  **{s: "i32" for s in _STRIDES}, **{s: "constexpr" for s in _UNIT}},
    "constexprs": {**{s: 1 for s in _UNIT}, "HAS_INITSTATES": True, "HAS_SEQ_IDX": True, "BLOCK_SIZE": 512},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["states_ptr", "out_ptr", "final_states_ptr", "dA_cs_ptr", "initstates_ptr", "seq_idx_ptr",
                     "dim", "stride_states_chunk", "stride_out_chunk", "stride_states_head", "stride_out_head"]}
PROBLEM: dict[str, Any] = {"batch": 4, "seqlen": 16384, "nheads": 16, "dim": 64 * 128, "seqs": 3}
SMALL: dict[str, Any] = {"batch": 2, "seqlen": 1100, "nheads": 3, "dim": 700, "seqs": 3}   # 5 chunks, the last short


@triton.jit
def _state_passing_fwd_kernel(
        states_ptr, out_ptr, final_states_ptr, dA_cs_ptr, initstates_ptr, seq_idx_ptr,
        dim, nchunks, seqlen, chunk_size,
        stride_states_batch, stride_states_chunk, stride_states_head, stride_states_dim: tl.constexpr,
        stride_out_batch, stride_out_chunk, stride_out_head, stride_out_dim: tl.constexpr,
        stride_final_states_batch, stride_final_states_head, stride_final_states_dim: tl.constexpr,
        stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head,
        stride_initstates_batch, stride_initstates_head, stride_initstates_dim: tl.constexpr,
        stride_seq_idx_batch, stride_seq_idx_seqlen: tl.constexpr,
        HAS_INITSTATES: tl.constexpr, HAS_SEQ_IDX: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    # twill corpus rendition: one (batch, head) state slice carried over the chunks
    pid_m = tl.program_id(axis=0)
    pid_b = tl.program_id(axis=1)
    pid_h = tl.program_id(axis=2)
    states_ptr += pid_b * stride_states_batch + pid_h * stride_states_head
    dA_cs_ptr += pid_b * stride_dA_cs_batch + pid_h * stride_dA_cs_head
    out_ptr += pid_b * stride_out_batch + pid_h * stride_out_head
    final_states_ptr += pid_b * stride_final_states_batch + pid_h * stride_final_states_head
    if HAS_INITSTATES:
        initstates_ptr += pid_b * stride_initstates_batch + pid_h * stride_initstates_head
    if HAS_SEQ_IDX:
        seq_idx_ptr += pid_b * stride_seq_idx_batch
    offs_m = pid_m * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_dim = offs_m < dim
    states_ptrs = states_ptr + offs_m * stride_states_dim
    out_ptrs = out_ptr + offs_m * stride_out_dim
    final_states_ptrs = final_states_ptr + offs_m * stride_final_states_dim
    if HAS_INITSTATES:
        states = tl.load(initstates_ptr + offs_m * stride_initstates_dim, mask=in_dim, other=0.0).to(tl.float32)
    else:
        states = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    tl.store(out_ptrs, states, mask=in_dim)
    out_ptrs += stride_out_chunk
    seq_idx = 0
    for c in range(nchunks):
        chunk_states = tl.load(states_ptrs, mask=in_dim, other=0.0).to(tl.float32)
        decay = tl.exp(tl.load(dA_cs_ptr).to(tl.float32))
        if HAS_SEQ_IDX:                           # the sequence at the chunk's last position
            last = min((c + 1) * chunk_size, seqlen) - 1
            seq_idx_new = tl.load(seq_idx_ptr + last * stride_seq_idx_seqlen)
            decay = tl.where(seq_idx_new == seq_idx, decay, 0.0)
            seq_idx = seq_idx_new
        states = decay * states + chunk_states
        if c < nchunks - 1:
            tl.store(out_ptrs, states, mask=in_dim)
        else:
            tl.store(final_states_ptrs, states, mask=in_dim)
        states_ptrs += stride_states_chunk
        dA_cs_ptr += stride_dA_cs_chunk
        out_ptrs += stride_out_chunk


def make_inputs(batch: int, seqlen: int, nheads: int, dim: int, seqs: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """Chunk-local states [batch, nchunks, nheads, dim] fp32, the chunks' last cumulative dA [batch, nheads, nchunks]
    (negative: a decay), initial states [batch, nheads, dim], and seq_idx [batch, seqlen]: ``seqs`` packed sequences
    whose boundaries fall inside chunks."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    nchunks = triton.cdiv(seqlen, CHUNK)
    states = torch.randn((batch, nchunks, nheads, dim), device=device, generator=g)
    dA = -torch.rand((batch, nheads, nchunks), device=device, generator=g) * 2
    init = torch.randn((batch, nheads, dim), device=device, generator=g)
    cuts = torch.sort(torch.randint(1, seqlen, (batch, seqs - 1), device=device, generator=g), dim=1).values
    pos = torch.arange(seqlen, device=device)
    seq_idx = (pos[None, None, :] >= cuts[:, :, None]).sum(1).to(torch.int32).contiguous()
    return {"states": states, "dA_chunk_cumsum": dA, "initial_states": init, "seq_idx": seq_idx}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(out [batch, nchunks, nheads, dim], final_states [batch, nheads, dim]) as Mamba's _state_passing_fwd."""
    import torch
    states, dA, init, seq_idx = (inputs[k] for k in ("states", "dA_chunk_cumsum", "initial_states", "seq_idx"))
    batch, nchunks, nheads, dim = states.shape
    out = torch.empty_like(states)
    final = torch.empty((batch, nheads, dim), device=states.device, dtype=torch.float32)
    BLOCK_SIZE = config.get("BLOCK_SIZE", 512)
    grid = (triton.cdiv(dim, BLOCK_SIZE), batch, nheads)
    _state_passing_fwd_kernel[grid](
        states, out, final, dA, init, seq_idx, dim, nchunks, seq_idx.shape[-1], CHUNK,
        states.stride(0), states.stride(1), states.stride(2), states.stride(3),
        out.stride(0), out.stride(1), out.stride(2), out.stride(3),
        final.stride(0), final.stride(1), final.stride(2),
        dA.stride(0), dA.stride(2), dA.stride(1),
        init.stride(0), init.stride(1), init.stride(2),
        seq_idx.stride(0), seq_idx.stride(1),
        HAS_INITSTATES=True, HAS_SEQ_IDX=True, BLOCK_SIZE=BLOCK_SIZE,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return out, final


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    states, dA, seq_idx = inputs["states"].double(), inputs["dA_chunk_cumsum"].double(), inputs["seq_idx"]
    batch, nchunks, nheads, dim = states.shape
    seqlen = seq_idx.shape[-1]
    out = torch.empty_like(states)
    h = inputs["initial_states"].double().clone()
    prev = torch.zeros((batch,), dtype=seq_idx.dtype, device=seq_idx.device)
    for c in range(nchunks):
        out[:, c] = h
        now = seq_idx[:, min((c + 1) * CHUNK, seqlen) - 1]
        decay = torch.where((now == prev)[:, None], dA[:, :, c].exp(), torch.zeros_like(dA[:, :, c]))
        h = decay[:, :, None] * h + states[:, c]
        prev = now
    return out.float(), h.float()
