"""Mamba-2's chunk-state backward for B (mamba_ssm/ops/triton/ssd_chunk_state.py ``_chunk_state_bwd_db_kernel``
and its host ``_chunk_state_bwd_db``): dB[l, g, n] = sum over the group's heads h of
(x[l, h, :] @ dstates[c, h, :, n]) * exp(dA_cs_last - dA_cs[l]) * dt[l], and, with B given, the gradient of
dA_cumsum accumulated across heads *and* splits with ``tl.atomic_add`` and a reverse-exclusive cumsum on the host.

The constructs: a loop over a program's share of heads (``nheads_iter = min(nheads_per_program, nheads // ngroups -
pid_s * nheads_per_program)``, the share computed on the host from the SM count), one dot per iteration
(``tl.dot(x, dstates)`` with dstates cast from fp32 to x's fp16 in the loop, K = headdim in one block) scaled by
per-row exp factors read from memory in the loop (``dA_cs_last`` a scalar load at a pointer the loop advances),
under ``HAS_DDA_CS`` a row reduction ``tl.sum(db * b, axis=1)`` and an **atomic add inside the loop** at a pointer
shifted by one (``ddA_cumsum_ptrs + stride_ddA_cs_csize``, masked ``offs_m < chunk_size - 1``); ``HAS_SEQ_IDX`` a
``tl.where(seq_idx_m == seq_idx_last, ...)`` on the scale; pointers carried and bumped by head strides, one
(``dA_cumsum_ptr``) both as a scalar base and a vector; the ragged last chunk (``chunk_size_limit = min(chunk_size,
seqlen - pid_c * chunk_size)``); a 3-D grid whose axes split (batch, chunk) and (split, group) by division; the
library's ``@triton.autotune`` with ``pre_hook=init_to_zero(["ddA_cumsum_ptr"])`` (one config kept; the others
commented out, as the CPU interpreter runs a single config without benchmarking), so the launch passes no block
sizes; the per-split partials summed (``dB.sum(2)``) and ``torch.cumsum(..., out=)`` on the host after the kernel.
fp16 x and B, fp32 dstates / dt / dA_cumsum. Nothing here is imported by twill."""
from __future__ import annotations

import contextlib
import math
from typing import Any

import torch
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_chunk_state_bwd_db_kernel",
    "signature": {"x_ptr": "*fp16", "dstates_ptr": "*fp32", "b_ptr": "*fp16", "dt_ptr": "*fp32",
                  "dA_cumsum_ptr": "*fp32", "seq_idx_ptr": "*i32", "db_ptr": "*fp32", "ddA_cumsum_ptr": "*fp32",
                  "chunk_size": "i32", "dstate": "i32", "hdim": "i32", "batch": "i32", "seqlen": "i32",
                  "nheads": "i32", "nheads_per_program": "i32", "ngroups": "i32",
                  "stride_x_batch": "i32", "stride_x_seqlen": "i32", "stride_x_head": "i32",
                  "stride_x_hdim": "constexpr",
                  "stride_dstates_batch": "i32", "stride_dstates_chunk": "i32", "stride_states_head": "i32",
                  "stride_states_hdim": "i32", "stride_states_dstate": "constexpr",
                  "stride_b_batch": "i32", "stride_b_seqlen": "i32", "stride_b_head": "i32",
                  "stride_b_dstate": "constexpr",
                  "stride_dt_batch": "i32", "stride_dt_chunk": "i32", "stride_dt_head": "i32",
                  "stride_dt_csize": "constexpr",
                  "stride_dA_cs_batch": "i32", "stride_dA_cs_chunk": "i32", "stride_dA_cs_head": "i32",
                  "stride_dA_cs_csize": "constexpr",
                  "stride_seq_idx_batch": "i32", "stride_seq_idx_seqlen": "constexpr",
                  "stride_db_batch": "i32", "stride_db_seqlen": "i32", "stride_db_split": "i32",
                  "stride_db_group": "i32", "stride_db_dstate": "constexpr",
                  "stride_ddA_cs_batch": "i32", "stride_ddA_cs_chunk": "i32", "stride_ddA_cs_head": "i32",
                  "stride_ddA_cs_csize": "constexpr"},
    "constexprs": {"stride_x_hdim": 1, "stride_states_dstate": 1, "stride_b_dstate": 1, "stride_dt_csize": 1,
                   "stride_dA_cs_csize": 1, "stride_seq_idx_seqlen": 1, "stride_db_dstate": 1,
                   "stride_ddA_cs_csize": 1, "HAS_DDA_CS": True, "HAS_SEQ_IDX": True,
                   "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["chunk_size", "dstate", "hdim", "stride_x_batch", "stride_x_seqlen", "stride_x_head",
                     "stride_dstates_batch", "stride_dstates_chunk", "stride_states_head", "stride_states_hdim",
                     "stride_b_batch", "stride_b_seqlen", "stride_b_head", "stride_dt_batch", "stride_dt_chunk",
                     "stride_dt_head", "stride_dA_cs_batch", "stride_dA_cs_chunk", "stride_dA_cs_head",
                     "stride_seq_idx_batch", "stride_db_batch", "stride_db_seqlen", "stride_db_split",
                     "stride_db_group", "stride_ddA_cs_batch", "stride_ddA_cs_chunk", "stride_ddA_cs_head"]}
# Mamba-2 2.7B's SSD layer: 80 heads of 64 over one group, dstate 128, chunks of 256; 4 x 4k tokens, two
# documents per row (seq_idx)
PROBLEM: dict[str, int] = {"batch": 4, "seqlen": 4096, "nheads": 80, "headdim": 64, "ngroups": 1, "dstate": 128,
                           "chunk_size": 256}
# 2 x 4 chunks x 32 heads > 132 SMs: two heads a program, eight splits; a ragged last chunk
SMALL: dict[str, int] = {"batch": 2, "seqlen": 200, "nheads": 32, "headdim": 64, "ngroups": 2, "dstate": 32,
                         "chunk_size": 64}


def init_to_zero(names):
    return lambda nargs: [nargs[name].zero_() for name in names if nargs[name] is not None]


@triton.autotune(
    configs=[
        # triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 256}, num_stages=3, num_warps=8, pre_hook=init_to_zero(["ddA_cumsum_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 256}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddA_cumsum_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddA_cumsum_ptr"])),
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 64}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddA_cumsum_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddA_cumsum_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 32}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddA_cumsum_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 32}, num_stages=5, num_warps=2, pre_hook=init_to_zero(["ddA_cumsum_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 64}, num_stages=5, num_warps=2, pre_hook=init_to_zero(["ddA_cumsum_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64}, num_stages=4, num_warps=2, pre_hook=init_to_zero(["ddA_cumsum_ptr"])),
    ],
    key=['chunk_size', 'dstate', 'hdim'],
)
@triton.jit
def _chunk_state_bwd_db_kernel(
    # Pointers to matrices
    x_ptr, dstates_ptr, b_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr,
    db_ptr, ddA_cumsum_ptr,
    # Matrix dimensions
    chunk_size, dstate, hdim,
    batch, seqlen, nheads, nheads_per_program, ngroups,
    # Strides
    stride_x_batch, stride_x_seqlen, stride_x_head, stride_x_hdim,
    stride_dstates_batch, stride_dstates_chunk, stride_states_head, stride_states_hdim, stride_states_dstate,
    stride_b_batch, stride_b_seqlen, stride_b_head, stride_b_dstate,
    stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dt_csize,
    stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_dA_cs_csize,
    stride_seq_idx_batch, stride_seq_idx_seqlen,
    stride_db_batch, stride_db_seqlen, stride_db_split, stride_db_group, stride_db_dstate,
    stride_ddA_cs_batch, stride_ddA_cs_chunk, stride_ddA_cs_head, stride_ddA_cs_csize,
    # Meta-parameters
    HAS_DDA_CS: tl.constexpr,
    HAS_SEQ_IDX: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
):
    pid_bc = tl.program_id(axis=1)
    pid_c = pid_bc // batch
    pid_b = pid_bc - pid_c * batch
    pid_sg = tl.program_id(axis=2)
    pid_s = pid_sg // ngroups
    pid_g = pid_sg - pid_s * ngroups
    num_pid_n = tl.cdiv(dstate, BLOCK_SIZE_N)
    pid_m = tl.program_id(axis=0) // num_pid_n
    pid_n = tl.program_id(axis=0) % num_pid_n
    x_ptr += pid_b * stride_x_batch + pid_c * chunk_size * stride_x_seqlen + (pid_g * (nheads // ngroups) + pid_s * nheads_per_program) * stride_x_head
    db_ptr += pid_b * stride_db_batch + pid_c * chunk_size * stride_db_seqlen + pid_g * stride_db_group + pid_s * stride_db_split
    dstates_ptr += pid_b * stride_dstates_batch + pid_c * stride_dstates_chunk + (pid_g * (nheads // ngroups) + pid_s * nheads_per_program) * stride_states_head
    dt_ptr += pid_b * stride_dt_batch + pid_c * stride_dt_chunk + (pid_g * (nheads // ngroups) + pid_s * nheads_per_program) * stride_dt_head
    dA_cumsum_ptr += pid_b * stride_dA_cs_batch + pid_c * stride_dA_cs_chunk + (pid_g * (nheads // ngroups) + pid_s * nheads_per_program) * stride_dA_cs_head
    if HAS_DDA_CS:
        b_ptr += pid_b * stride_b_batch + pid_c * chunk_size * stride_b_seqlen + pid_g * stride_b_head
        ddA_cumsum_ptr += pid_b * stride_ddA_cs_batch + pid_c * stride_ddA_cs_chunk + (pid_g * (nheads // ngroups) + pid_s * nheads_per_program) * stride_ddA_cs_head
    if HAS_SEQ_IDX:
        seq_idx_ptr += pid_b * stride_seq_idx_batch + pid_c * chunk_size * stride_seq_idx_seqlen

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    x_ptrs = x_ptr + (offs_m[:, None] * stride_x_seqlen + offs_k[None, :] * stride_x_hdim)
    dstates_ptrs = dstates_ptr + (offs_n[None, :] * stride_states_dstate + offs_k[:, None] * stride_states_hdim)
    dt_ptrs = dt_ptr + offs_m * stride_dt_csize
    dA_cumsum_ptrs = dA_cumsum_ptr + offs_m * stride_dA_cs_csize
    if HAS_DDA_CS:
        b_ptrs = b_ptr + (offs_m[:, None] * stride_b_seqlen + offs_n[None, :] * stride_b_dstate)
        ddA_cumsum_ptrs = ddA_cumsum_ptr + offs_m * stride_ddA_cs_csize

    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)
    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    if HAS_DDA_CS:
        b = tl.load(b_ptrs, mask=(offs_m[:, None] < chunk_size_limit) & (offs_n[None, :] < dstate), other=0.0).to(tl.float32)
    if HAS_SEQ_IDX:
        seq_idx_m = tl.load(seq_idx_ptr + offs_m * stride_seq_idx_seqlen, mask=offs_m < chunk_size_limit, other=-1)
        seq_idx_last = tl.load(seq_idx_ptr + (chunk_size_limit - 1) * stride_seq_idx_seqlen)
    nheads_iter = min(nheads_per_program, nheads // ngroups - pid_s * nheads_per_program)
    for h in range(nheads_iter):
        x = tl.load(x_ptrs, mask=(offs_m[:, None] < chunk_size_limit) & (offs_k[None, :] < hdim), other=0.0)
        dstates = tl.load(dstates_ptrs, mask=(offs_k[:, None] < hdim) & (offs_n[None, :] < dstate), other=0.0)
        dstates = dstates.to(x_ptrs.dtype.element_ty)
        db = tl.dot(x, dstates)
        dA_cs_last = tl.load(dA_cumsum_ptr + (chunk_size - 1) * stride_dA_cs_csize).to(tl.float32)
        dA_cs_m = tl.load(dA_cumsum_ptrs, mask=offs_m < chunk_size, other=0.0).to(tl.float32)
        dt_m = tl.load(dt_ptrs, mask=offs_m < chunk_size, other=0.0).to(tl.float32)
        if not HAS_SEQ_IDX:
            scale = tl.exp(dA_cs_last - dA_cs_m)
        else:
            scale = tl.where(seq_idx_m == seq_idx_last, tl.exp(dA_cs_last - dA_cs_m), 0.0)
        db *= (scale * dt_m)[:, None]
        if HAS_DDA_CS:
            # This is the gradient wrt (dA_cs_last - dA_cs_m), i.e. the exclusive reverse cumsum
            ddA_cs = tl.sum(db * b, axis=1)
            tl.atomic_add(ddA_cumsum_ptrs + stride_ddA_cs_csize, ddA_cs, mask=offs_m < chunk_size - 1)
        acc += db
        x_ptrs += stride_x_head
        dstates_ptrs += stride_states_head
        dt_ptrs += stride_dt_head
        dA_cumsum_ptr += stride_dA_cs_head
        dA_cumsum_ptrs += stride_dA_cs_head
        if HAS_DDA_CS:
            ddA_cumsum_ptrs += stride_ddA_cs_head

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    # if HAS_SEQ_IDX:
    #     seq_idx_prev = tl.load(seq_idx_ptr - stride_seq_idx_seqlen, mask=pid_c >= 1, other=0)
    #     seq_idx_m = tl.load(seq_idx_ptr + offs_m * stride_seq_idx_seqlen, mask=offs_m < chunk_size_limit, other=-1)
    #     acc = tl.where(seq_idx_m[:, None] == seq_idx_prev, acc, 0.0)
    db_ptrs = db_ptr + (offs_m[:, None] * stride_db_seqlen + offs_n[None, :] * stride_db_dstate)
    tl.store(db_ptrs, acc, mask=(offs_m[:, None] < chunk_size_limit) & (offs_n[None, :] < dstate))


def _sm_count(device: Any) -> int:
    """The library asks the device; off the GPU (the interpreter, dry runs) an H100's 132."""
    if isinstance(device, torch.device) and device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return 132


def make_inputs(batch: int, seqlen: int, nheads: int, headdim: int, ngroups: int, dstate: int, chunk_size: int,
                device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [batch, seqlen, nheads, headdim] fp16; dt, dA_cumsum [batch, nheads, nchunks, chunk_size] fp32 as
    ``_chunk_cumsum_fwd`` leaves them (softplus'd dt, zero past seqlen; the within-chunk cumsum of dt * A);
    dstates [batch, nchunks, nheads, headdim, dstate] fp32; B [batch, seqlen, ngroups, dstate] fp16; seq_idx
    [batch, seqlen] int32 with two documents per row."""
    g = torch.Generator(device=device).manual_seed(seed)
    nchunks = math.ceil(seqlen / chunk_size)
    x = torch.randn((batch, seqlen, nheads, headdim), device=device, generator=g).half()
    dt = torch.nn.functional.softplus(torch.randn((batch, nheads, nchunks * chunk_size), device=device, generator=g) - 2.0)
    dt[:, :, seqlen:] = 0.0
    A = -torch.rand((nheads,), device=device, generator=g) * 4.0 - 0.5
    dt = dt.view(batch, nheads, nchunks, chunk_size).contiguous()
    dA_cumsum = torch.cumsum(dt * A[None, :, None, None], dim=-1)
    dstates = torch.randn((batch, nchunks, nheads, headdim, dstate), device=device, generator=g) / 8.0
    B = torch.randn((batch, seqlen, ngroups, dstate), device=device, generator=g).half()
    seq_idx = torch.zeros((batch, seqlen), device=device, dtype=torch.int32)
    seq_idx[:, (seqlen * 3) // 5:] = 1
    return {"x": x, "dt": dt, "dA_cumsum": dA_cumsum, "dstates": dstates, "B": B, "seq_idx": seq_idx}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dB [batch, seqlen, ngroups, dstate], ddA_cumsum [batch, nheads, nchunks, chunk_size]) fp32, as
    ``_chunk_state_bwd_db(x, dt, dA_cumsum, dstates, seq_idx=seq_idx, B=B, ngroups=ngroups)`` returns them
    (``config`` accepted and ignored: the autotuner picks the blocks)."""
    x, dt, dA_cumsum, dstates, B, seq_idx = (inputs[n] for n in ("x", "dt", "dA_cumsum", "dstates", "B", "seq_idx"))
    ngroups = B.shape[2]
    batch, seqlen, nheads, headdim = x.shape
    _, _, nchunks, chunk_size = dt.shape
    dstate = dstates.shape[-1]
    assert dt.shape == (batch, nheads, nchunks, chunk_size)
    assert dA_cumsum.shape == dt.shape
    assert dstates.shape == (batch, nchunks, nheads, headdim, dstate)
    if seq_idx is not None:
        assert seq_idx.shape == (batch, seqlen)
    if B is not None:
        assert B.shape == (batch, seqlen, ngroups, dstate)
        B_strides = (B.stride(0), B.stride(1), B.stride(2), B.stride(3))
        # Use torch.empty since the Triton kernel will call init_to_zero
        ddA_cumsum = torch.empty(batch, nheads, nchunks, chunk_size, device=x.device, dtype=torch.float32)
        ddA_cumsum_strides = (ddA_cumsum.stride(0), ddA_cumsum.stride(2), ddA_cumsum.stride(1), ddA_cumsum.stride(3))
    else:
        B_strides = (0, 0, 0, 0)
        ddA_cumsum = None
        ddA_cumsum_strides = (0, 0, 0, 0)
    nheads_ngroups_ratio = nheads // ngroups
    sm_count = _sm_count(x.device)
    nheads_per_program = max(min(math.ceil(batch * nchunks * nheads / sm_count), nheads_ngroups_ratio), 1)
    nsplits = triton.cdiv(nheads_ngroups_ratio, nheads_per_program)
    dB = torch.empty(batch, seqlen, nsplits, ngroups, dstate, device=x.device, dtype=torch.float32)
    grid_db = lambda META: (triton.cdiv(chunk_size, META['BLOCK_SIZE_M']) * triton.cdiv(dstate, META['BLOCK_SIZE_N']),
                            batch * nchunks, nsplits * ngroups)
    # the library's `with torch.cuda.device(x.device.index):`, a no-op off the GPU (the CPU interpreter, dry runs)
    with (torch.cuda.device(x.device.index) if x.device.type == "cuda" else contextlib.nullcontext()):
        _chunk_state_bwd_db_kernel[grid_db](
            x, dstates, B, dt, dA_cumsum, seq_idx, dB, ddA_cumsum,
            chunk_size, dstate, headdim,
            batch, seqlen, nheads, nheads_per_program, ngroups,
            x.stride(0), x.stride(1), x.stride(2), x.stride(3),
            dstates.stride(0), dstates.stride(1), dstates.stride(2), dstates.stride(3), dstates.stride(4),
            *B_strides,
            dt.stride(0), dt.stride(2), dt.stride(1), dt.stride(3),
            dA_cumsum.stride(0), dA_cumsum.stride(2), dA_cumsum.stride(1), dA_cumsum.stride(3),
            *((seq_idx.stride(0), seq_idx.stride(1)) if seq_idx is not None else (0, 0)),
            dB.stride(0), dB.stride(1), dB.stride(2), dB.stride(3), dB.stride(4),
            *ddA_cumsum_strides,
            HAS_DDA_CS=ddA_cumsum is not None,
            HAS_SEQ_IDX=seq_idx is not None,
            BLOCK_SIZE_K=max(triton.next_power_of_2(headdim), 16),
        )
    dB = dB.sum(2)
    if ddA_cumsum is not None:
        # The first element of ddA_cumsum is always zero, since that dA_cumsum does not contribute
        # to the state of the chunk.
        # torch.cumsum(ddA_cumsum[..., 1:], dim=-1, out=ddA_cumsum[..., 1:])
        # But it's easier to just do the cumsum for all elements, the result will be the same.
        torch.cumsum(ddA_cumsum, dim=-1, out=ddA_cumsum)
    return dB if B is None else (dB, ddA_cumsum)


def reference(inputs: dict[str, Any]) -> Any:
    """float64, one head at a time: db_h[l] = (x_h[l] @ dstates_h) * exp(dA_last - dA[l]) * dt[l] (zero where l's
    document is not the chunk's last one), dB = the group's sum, ddA[l + 1] += rowsum(db_h * B) then a cumsum."""
    x, dt, dA, dstates, B, seq_idx = (inputs[n] for n in ("x", "dt", "dA_cumsum", "dstates", "B", "seq_idx"))
    batch, seqlen, nheads, headdim = x.shape
    _, _, nchunks, cs = dt.shape
    ngroups, dstate = B.shape[2], B.shape[3]
    pad = nchunks * cs - seqlen
    xp = torch.nn.functional.pad(x, (0, 0, 0, 0, 0, pad)).view(batch, nchunks, cs, nheads, headdim)
    Bp = torch.nn.functional.pad(B, (0, 0, 0, 0, 0, pad)).view(batch, nchunks, cs, ngroups, dstate).double()
    sp = torch.nn.functional.pad(seq_idx.long(), (0, pad), value=-1).view(batch, nchunks, cs)
    last = torch.tensor([min(cs, seqlen - c * cs) - 1 for c in range(nchunks)], device=x.device)
    same = sp == sp.gather(2, last[None, :, None].expand(batch, -1, 1))                     # b c l
    dB = torch.zeros((batch, nchunks, cs, ngroups, dstate), device=x.device, dtype=torch.float64)
    ddA = torch.zeros((batch, nheads, nchunks, cs), device=x.device, dtype=torch.float64)
    ratio = nheads // ngroups
    for h in range(nheads):
        gi = h // ratio
        dah = dA[:, h].double()                                                                # b c l
        scale = torch.exp(dah[..., -1:] - dah) * dt[:, h].double() * same                      # b c l
        db = torch.einsum("bclp,bcpn->bcln", xp[..., h, :].double(), dstates[:, :, h].double()) * scale[..., None]
        dB[..., gi, :] += db
        r = (db * Bp[..., gi, :]).sum(-1)                                                      # b c l
        ddA[:, h, :, 1:] += r[..., :-1]
    dB = dB.view(batch, nchunks * cs, ngroups, dstate)[:, :seqlen]
    return dB, torch.cumsum(ddA, dim=-1)


def flops(batch: int, seqlen: int, nheads: int, headdim: int, ngroups: int, dstate: int, chunk_size: int) -> float:
    return 2.0 * batch * seqlen * nheads * headdim * dstate
