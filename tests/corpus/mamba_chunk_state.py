"""Mamba-2 ``_chunk_state_fwd_kernel`` (mamba_ssm/ops/triton/ssd_chunk_state.py style): per (hdim x dstate tile,
batch*chunk, head), a loop over the chunk's positions: x^T @ (B * exp(dA_cs_last - dA_cs_k) * dt_k), with the
HAS_SEQ_IDX tl.where gate on seq_idx == seq_idx_last; pointer arithmetic with explicit strides, masks on the
ragged chunk limit."""
from __future__ import annotations
from typing import Any
import torch
import triton
import triton.language as tl

CHUNK = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_chunk_state_fwd_kernel",
    "signature": {"x_ptr": "*fp16", "b_ptr": "*fp16", "states_ptr": "*fp32", "dt_ptr": "*fp32",
                  "dA_cumsum_ptr": "*fp32", "seq_idx_ptr": "*i32",
                  "hdim": "i32", "dstate": "i32", "chunk_size": "i32", "batch": "i32", "seqlen": "i32",
                  "nheads_ngroups_ratio": "i32",
                  "stride_x_batch": "i32", "stride_x_seqlen": "i32", "stride_x_head": "i32",
                  "stride_b_batch": "i32", "stride_b_seqlen": "i32", "stride_b_head": "i32",
                  "stride_states_batch": "i32", "stride_states_chunk": "i32", "stride_states_head": "i32",
                  "stride_states_hdim": "i32",
                  "stride_dt_batch": "i32", "stride_dt_chunk": "i32", "stride_dt_head": "i32",
                  "stride_dA_cs_batch": "i32", "stride_dA_cs_chunk": "i32", "stride_dA_cs_head": "i32",
                  "stride_seq_idx_batch": "i32", "stride_x_hdim": "constexpr", "stride_b_dstate": "constexpr",
                  "stride_states_dstate": "constexpr", "stride_dt_csize": "constexpr",
                  "stride_dA_cs_csize": "constexpr", "stride_seq_idx_seqlen": "constexpr"},
    "constexprs": {"stride_x_hdim": 1, "stride_b_dstate": 1, "stride_states_dstate": 1, "stride_dt_csize": 1,
                   "stride_dA_cs_csize": 1, "stride_seq_idx_seqlen": 1,
                   "HAS_SEQ_IDX": True, "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["hdim", "dstate", "chunk_size", "stride_x_batch", "stride_x_seqlen", "stride_x_head",
                     "stride_b_batch", "stride_b_seqlen", "stride_b_head", "stride_states_batch",
                     "stride_states_chunk", "stride_states_head", "stride_states_hdim", "stride_dt_chunk",
                     "stride_dt_head", "stride_dt_batch", "stride_dA_cs_batch", "stride_dA_cs_chunk",
                     "stride_dA_cs_head"]}
PROBLEM: dict[str, int] = {"batch": 4, "seqlen": 4096, "nheads": 32, "ngroups": 8}
SMALL: dict[str, int] = {"batch": 1, "seqlen": 150, "nheads": 2, "ngroups": 1}


@triton.jit
def _chunk_state_fwd_kernel(
    # Pointers to matrices
    x_ptr, b_ptr, states_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr,
    # Matrix dimensions
    hdim, dstate, chunk_size, batch, seqlen, nheads_ngroups_ratio,
    # Strides
    stride_x_batch, stride_x_seqlen, stride_x_head, stride_x_hdim,
    stride_b_batch, stride_b_seqlen, stride_b_head, stride_b_dstate,
    stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, stride_states_dstate,
    stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dt_csize,
    stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_dA_cs_csize,
    stride_seq_idx_batch, stride_seq_idx_seqlen,
    # Meta-parameters
    HAS_SEQ_IDX: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
):
    pid_bc = tl.program_id(axis=1)
    pid_c = pid_bc // batch
    pid_b = pid_bc - pid_c * batch
    pid_h = tl.program_id(axis=2)
    num_pid_n = tl.cdiv(dstate, BLOCK_SIZE_N)
    pid_m = tl.program_id(axis=0) // num_pid_n
    pid_n = tl.program_id(axis=0) % num_pid_n
    b_ptr += pid_b * stride_b_batch + pid_c * chunk_size * stride_b_seqlen + (pid_h // nheads_ngroups_ratio) * stride_b_head
    x_ptr += pid_b * stride_x_batch + pid_c * chunk_size * stride_x_seqlen + pid_h * stride_x_head
    dt_ptr += pid_b * stride_dt_batch + pid_c * stride_dt_chunk + pid_h * stride_dt_head
    dA_cumsum_ptr += pid_b * stride_dA_cs_batch + pid_c * stride_dA_cs_chunk + pid_h * stride_dA_cs_head
    if HAS_SEQ_IDX:
        seq_idx_ptr += pid_b * stride_seq_idx_batch + pid_c * chunk_size * stride_seq_idx_seqlen

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    x_ptrs = x_ptr + (offs_m[:, None] * stride_x_hdim + offs_k[None, :] * stride_x_seqlen)
    b_ptrs = b_ptr + (offs_n[None, :] * stride_b_dstate + offs_k[:, None] * stride_b_seqlen)
    dt_ptrs = dt_ptr + offs_k * stride_dt_csize
    dA_cs_last = tl.load(dA_cumsum_ptr + (chunk_size - 1) * stride_dA_cs_csize).to(tl.float32)
    dA_cumsum_ptrs = dA_cumsum_ptr + offs_k * stride_dA_cs_csize
    if HAS_SEQ_IDX:
        seq_idx_ptrs = seq_idx_ptr + offs_k * stride_seq_idx_seqlen

    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)
    if HAS_SEQ_IDX:
        seq_idx_last = tl.load(seq_idx_ptr + (chunk_size_limit - 1) * stride_seq_idx_seqlen)

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, chunk_size_limit, BLOCK_SIZE_K):
        x = tl.load(x_ptrs, mask=(offs_m[:, None] < hdim) & (offs_k[None, :] < chunk_size_limit - k), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < chunk_size_limit - k) & (offs_n[None, :] < dstate),
                    other=0.0).to(tl.float32)
        dA_cs_k = tl.load(dA_cumsum_ptrs, mask=offs_k < chunk_size_limit - k, other=0.0).to(tl.float32)
        if HAS_SEQ_IDX:
            seq_idx_k = tl.load(seq_idx_ptrs, mask=offs_k < chunk_size_limit - k, other=-1)
        dt_k = tl.load(dt_ptrs, mask=offs_k < chunk_size_limit - k, other=0.0).to(tl.float32)
        if not HAS_SEQ_IDX:
            scale = tl.exp((dA_cs_last - dA_cs_k)) * dt_k
        else:
            scale = tl.where(seq_idx_k == seq_idx_last, tl.exp((dA_cs_last - dA_cs_k)) * dt_k, 0.0)
        b *= scale[:, None]
        b = b.to(x_ptr.dtype.element_ty)
        acc += tl.dot(x, b)
        x_ptrs += BLOCK_SIZE_K * stride_x_seqlen
        b_ptrs += BLOCK_SIZE_K * stride_b_seqlen
        dt_ptrs += BLOCK_SIZE_K * stride_dt_csize
        dA_cumsum_ptrs += BLOCK_SIZE_K * stride_dA_cs_csize
        if HAS_SEQ_IDX:
            seq_idx_ptrs += BLOCK_SIZE_K * stride_seq_idx_seqlen
    states = acc.to(states_ptr.dtype.element_ty)

    states_ptr += pid_b * stride_states_batch + pid_c * stride_states_chunk + pid_h * stride_states_head
    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    states_ptrs = states_ptr + (offs_m[:, None] * stride_states_hdim + offs_n[None, :] * stride_states_dstate)
    c_mask = (offs_m[:, None] < hdim) & (offs_n[None, :] < dstate)
    tl.store(states_ptrs, states, mask=c_mask)


def make_inputs(batch: int, seqlen: int, nheads: int, ngroups: int, device: str = "cuda", seed: int = 0):
    gen = torch.Generator(device=device).manual_seed(seed)
    hdim, dstate = 64, 128
    nchunks = triton.cdiv(seqlen, CHUNK)
    x = torch.randn((batch, seqlen, nheads, hdim), device=device, generator=gen).half()
    B = torch.randn((batch, seqlen, ngroups, dstate), device=device, generator=gen).half()
    dt = torch.nn.functional.softplus(torch.randn((batch, nheads, nchunks * CHUNK), device=device, generator=gen) - 2)
    dt[:, :, seqlen:] = 0
    A = -torch.rand((nheads,), device=device, generator=gen)
    dt = dt.view(batch, nheads, nchunks, CHUNK).contiguous()
    dA_cumsum = torch.cumsum(dt * A[None, :, None, None], dim=-1)
    seq_idx = torch.zeros((batch, seqlen), device=device, dtype=torch.int32)
    seq_idx[:, seqlen // 3:] = 1               # two sequences packed, boundary inside a chunk
    return {"x": x, "B": B, "dt": dt, "dA_cumsum": dA_cumsum, "seq_idx": seq_idx}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """states, fp32 [batch, nchunks, nheads, hdim, dstate]."""
    x, B, dt, dA_cumsum, seq_idx = (inputs[n] for n in ("x", "B", "dt", "dA_cumsum", "seq_idx"))
    batch, seqlen, nheads, headdim = x.shape
    _, _, nchunks, chunk_size = dt.shape
    _, _, ngroups, dstate = B.shape
    states = torch.empty((batch, nchunks, nheads, headdim, dstate), device=x.device, dtype=torch.float32)
    grid = lambda META: (triton.cdiv(headdim, META['BLOCK_SIZE_M']) * triton.cdiv(dstate, META['BLOCK_SIZE_N']),
                         batch * nchunks, nheads)
    _chunk_state_fwd_kernel[grid](
        x, B, states, dt, dA_cumsum, seq_idx,
        headdim, dstate, chunk_size, batch, seqlen, nheads // ngroups,
        x.stride(0), x.stride(1), x.stride(2), x.stride(3),
        B.stride(0), B.stride(1), B.stride(2), B.stride(-1),
        states.stride(0), states.stride(1), states.stride(2), states.stride(3), states.stride(4),
        dt.stride(0), dt.stride(2), dt.stride(1), dt.stride(3),
        dA_cumsum.stride(0), dA_cumsum.stride(2), dA_cumsum.stride(1), dA_cumsum.stride(3),
        seq_idx.stride(0), seq_idx.stride(1),
        HAS_SEQ_IDX=True, BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return states


def reference(inputs: dict[str, Any]) -> Any:
    x, B, dt, dA, seq_idx = (inputs[n] for n in ("x", "B", "dt", "dA_cumsum", "seq_idx"))
    x, B, dt, dA = x.double(), B.double(), dt.double(), dA.double()
    batch, seqlen, nheads, hdim = x.shape
    nchunks = dt.shape[2]
    ngroups = B.shape[2]
    out = torch.zeros((batch, nchunks, nheads, hdim, B.shape[-1]), dtype=torch.float64, device=x.device)
    for c in range(nchunks):
        s, e = c * CHUNK, min((c + 1) * CHUNK, seqlen)
        for h in range(nheads):
            g = h // (nheads // ngroups)
            w = torch.exp(dA[:, h, c, -1:] - dA[:, h, c, :e - s]) * dt[:, h, c, :e - s]      # batch, L
            w = w * (seq_idx[:, s:e] == seq_idx[:, e - 1:e]).double()
            out[:, c, h] = torch.einsum("blp,bln,bl->bpn", x[:, s:e, h], B[:, s:e, g], w)
    return out


def flops(batch: int, seqlen: int, nheads: int, ngroups: int) -> float:
    return 2.0 * batch * seqlen * nheads * 64 * 128
