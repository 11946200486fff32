"""Mamba-2's fused chunk-scan / chunk-state backward for x (mamba_ssm/ops/triton/ssd_combined.py
``_chunk_scan_chunk_state_bwd_dx_kernel`` and its host ``_chunk_scan_chunk_state_bwd_dx``): per (M x N tile of chunk
positions x headdim, batch*chunk, head),
acc[m, p] = exp(dA_cs_last - dA_cs[m]) * (B[m, :] @ dstates[p, :])  +  sum_{k >= m} CB[k, m] exp(dA_cs[k] - dA_cs[m]) dout[k, p],
then dx = acc * dt[m] + D * dout, ddt[m] += sum_p acc * x (``tl.atomic_add``), dD per M block (``tl.sum`` to a scalar).

The constructs: the grid's first axis split into (pid_m, pid_n) by ``num_pid_n = tl.cdiv(hdim, BLOCK_SIZE_N)``, the
second into (chunk, batch) by division; GQA-style groups (``pid_h // nheads_ngroups_ratio``) for B and CB; pointers
pre-offset with ``+=``; the ragged last chunk from Python's ``min`` of runtime values (``chunk_size_limit``); the
state half as ONE dot **before the loop** under ``if IS_TRITON_22 and BLOCK_SIZE_DSTATE <= 128`` (the ``else`` loop
over dstate blocks compiled away), scaled per row by ``tl.exp`` of a scalar load minus a vector load; the scheduled
loop starting at the program's diagonal (``K_MIN = pid_m * BLOCK_SIZE_M``, the pointers moved there before the loop),
``tl.multiple_of`` on the induction variable, masks against ``K_MAX - k``, CB read **transposed** by swapped strides
(``CB.stride(-1), CB.stride(-2)`` passed for ``stride_cb_csize_m, stride_cb_csize_k``), an fp32 CB tile scaled by the
decay, masked causally with ``tl.where`` and cast to dout's dtype (``dout_ptr.dtype.element_ty``) for the dot; after
the loop a masked store, ``HAS_D`` with ``D_HAS_HDIM`` False (a scalar ``D`` and a whole-tile ``tl.sum`` stored at a
scalar pointer) and a masked ``tl.atomic_add`` of a row sum; the library's ``@triton.autotune`` with
``pre_hook=init_to_zero(["ddt_ptr"])`` (one config kept, the others commented out: the CPU interpreter runs a single
config without benchmarking), so the launch passes no block sizes; dD's per-M-block partials summed on the host with
``best_config``. fp16 x / dout / B / dstates (the state-passing backward leaves dstates in x's dtype), fp32 CB (as
``_bmm_chunk_fwd(..., output_dtype=torch.float32)`` gives it), dt, dA_cumsum, D. Nothing here is imported by twill."""
from __future__ import annotations

import contextlib
import math
from typing import Any

import torch
import triton
import triton.language as tl

TRITON_22 = True
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_chunk_scan_chunk_state_bwd_dx_kernel",
    "signature": {"x_ptr": "*fp16", "cb_ptr": "*fp32", "dout_ptr": "*fp16", "dt_ptr": "*fp32",
                  "dA_cumsum_ptr": "*fp32", "seq_idx_ptr": "constexpr", "D_ptr": "*fp32", "b_ptr": "*fp16",
                  "dstates_ptr": "*fp16", "dx_ptr": "*fp16", "ddt_ptr": "*fp32", "dD_ptr": "*fp32",
                  "chunk_size": "i32", "hdim": "i32", "dstate": "i32", "batch": "i32", "seqlen": "i32",
                  "nheads_ngroups_ratio": "i32",
                  "stride_x_batch": "i32", "stride_x_seqlen": "i32", "stride_x_head": "i32",
                  "stride_x_hdim": "constexpr",
                  "stride_cb_batch": "i32", "stride_cb_chunk": "i32", "stride_cb_head": "i32",
                  "stride_cb_csize_m": "constexpr", "stride_cb_csize_k": "i32",
                  "stride_dout_batch": "i32", "stride_dout_seqlen": "i32", "stride_dout_head": "i32",
                  "stride_dout_hdim": "constexpr",
                  "stride_dt_batch": "i32", "stride_dt_chunk": "i32", "stride_dt_head": "i32",
                  "stride_dt_csize": "constexpr",
                  "stride_dA_cs_batch": "i32", "stride_dA_cs_chunk": "i32", "stride_dA_cs_head": "i32",
                  "stride_dA_cs_csize": "constexpr",
                  "stride_seq_idx_batch": "i32", "stride_seq_idx_seqlen": "i32",
                  "stride_D_head": "constexpr",
                  "stride_b_batch": "i32", "stride_b_seqlen": "i32", "stride_b_head": "i32",
                  "stride_b_dstate": "constexpr",
                  "stride_dstates_batch": "i32", "stride_dstates_chunk": "i32", "stride_dstates_head": "i32",
                  "stride_dstates_hdim": "i32", "stride_dstates_dstate": "constexpr",
                  "stride_dx_batch": "i32", "stride_dx_seqlen": "i32", "stride_dx_head": "i32",
                  "stride_dx_hdim": "constexpr",
                  "stride_ddt_batch": "i32", "stride_ddt_chunk": "i32", "stride_ddt_head": "i32",
                  "stride_ddt_csize": "constexpr",
                  "stride_dD_batch": "i32", "stride_dD_chunk": "i32", "stride_dD_head": "i32",
                  "stride_dD_csize": "i32", "stride_dD_hdim": "constexpr"},
    "constexprs": {"seq_idx_ptr": None, "stride_x_hdim": 1, "stride_cb_csize_m": 1, "stride_dout_hdim": 1,
                   "stride_dt_csize": 1, "stride_dA_cs_csize": 1, "stride_D_head": 1, "stride_b_dstate": 1,
                   "stride_dstates_dstate": 1, "stride_dx_hdim": 1, "stride_ddt_csize": 1, "stride_dD_hdim": 1,
                   "HAS_D": True, "D_HAS_HDIM": False, "HAS_SEQ_IDX": False,
                   "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32, "BLOCK_SIZE_DSTATE": 128,
                   "IS_TRITON_22": True},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["chunk_size", "hdim", "dstate", "stride_x_batch", "stride_x_seqlen", "stride_x_head",
                     "stride_cb_batch", "stride_cb_chunk", "stride_cb_head", "stride_cb_csize_k",
                     "stride_dout_batch", "stride_dout_seqlen", "stride_dout_head", "stride_dt_batch",
                     "stride_dt_chunk", "stride_dt_head", "stride_dA_cs_batch", "stride_dA_cs_chunk",
                     "stride_dA_cs_head", "stride_b_batch", "stride_b_seqlen", "stride_b_head",
                     "stride_dstates_batch", "stride_dstates_chunk", "stride_dstates_head", "stride_dstates_hdim",
                     "stride_dx_batch", "stride_dx_seqlen", "stride_dx_head", "stride_ddt_batch", "stride_ddt_chunk",
                     "stride_ddt_head", "stride_dD_batch", "stride_dD_chunk", "stride_dD_csize"]}
# Mamba-2 2.7B's SSD layer: 80 heads of 64 over one group, dstate 128, chunks of 256; 2 x 4k tokens
PROBLEM: dict[str, int] = {"batch": 2, "seqlen": 4096, "nheads": 80, "headdim": 64, "ngroups": 1, "dstate": 128,
                           "chunk_size": 256}
# two groups of two heads; 320 = 256 + 64: a ragged last chunk; dstate 128 as generated (BLOCK_SIZE_DSTATE)
SMALL: dict[str, int] = {"batch": 1, "seqlen": 320, "nheads": 4, "headdim": 64, "ngroups": 2, "dstate": 128,
                         "chunk_size": 256}


def init_to_zero(names):
    return lambda nargs: [nargs[name].zero_() for name in names if nargs[name] is not None]


@triton.autotune(
    configs=[
        # triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 64}, num_stages=3, num_warps=8, pre_hook=init_to_zero(["ddt_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddt_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddt_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddt_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddt_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddt_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32}, num_stages=5, num_warps=4, pre_hook=init_to_zero(["ddt_ptr"])),
        # triton.Config({'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32}, num_stages=5, num_warps=4, pre_hook=init_to_zero(["ddt_ptr"])),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4, pre_hook=init_to_zero(["ddt_ptr"])),
    ],
    key=['chunk_size', 'hdim', 'dstate'],
)
@triton.jit
def _chunk_scan_chunk_state_bwd_dx_kernel(
    # Pointers to matrices
    x_ptr, cb_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr, D_ptr,
    b_ptr, dstates_ptr,
    dx_ptr, ddt_ptr, dD_ptr,
    # Matrix dimensions
    chunk_size, hdim, dstate,
    batch, seqlen, nheads_ngroups_ratio,
    # Strides
    stride_x_batch, stride_x_seqlen, stride_x_head, stride_x_hdim,
    stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_cb_csize_k,
    stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dout_hdim,
    stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dt_csize,
    stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_dA_cs_csize,
    stride_seq_idx_batch, stride_seq_idx_seqlen,
    stride_D_head,
    stride_b_batch, stride_b_seqlen, stride_b_head, stride_b_dstate,
    stride_dstates_batch, stride_dstates_chunk, stride_dstates_head, stride_dstates_hdim, stride_dstates_dstate,
    stride_dx_batch, stride_dx_seqlen, stride_dx_head, stride_dx_hdim,
    stride_ddt_batch, stride_ddt_chunk, stride_ddt_head, stride_ddt_csize,
    stride_dD_batch, stride_dD_chunk, stride_dD_head, stride_dD_csize, stride_dD_hdim,
    # Meta-parameters
    HAS_D: tl.constexpr,
    D_HAS_HDIM: tl.constexpr,
    HAS_SEQ_IDX: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
    BLOCK_SIZE_DSTATE: tl.constexpr,
    IS_TRITON_22: tl.constexpr,
):
    pid_bc = tl.program_id(axis=1)
    pid_c = pid_bc // batch
    pid_b = pid_bc - pid_c * batch
    pid_h = tl.program_id(axis=2)
    num_pid_n = tl.cdiv(hdim, BLOCK_SIZE_N)
    pid_m = tl.program_id(axis=0) // num_pid_n
    pid_n = tl.program_id(axis=0) % num_pid_n
    x_ptr += pid_b * stride_x_batch + pid_c * chunk_size * stride_x_seqlen + pid_h * stride_x_head
    cb_ptr += pid_b * stride_cb_batch + pid_c * stride_cb_chunk + (pid_h // nheads_ngroups_ratio) * stride_cb_head
    dout_ptr += pid_b * stride_dout_batch + pid_c * chunk_size * stride_dout_seqlen + pid_h * stride_dout_head
    dt_ptr += pid_b * stride_dt_batch + pid_c * stride_dt_chunk + pid_h * stride_dt_head
    ddt_ptr += pid_b * stride_ddt_batch + pid_c * stride_ddt_chunk + pid_h * stride_ddt_head
    dA_cumsum_ptr += pid_b * stride_dA_cs_batch + pid_c * stride_dA_cs_chunk + pid_h * stride_dA_cs_head
    b_ptr += pid_b * stride_b_batch + pid_c * chunk_size * stride_b_seqlen + (pid_h // nheads_ngroups_ratio) * stride_b_head
    dstates_ptr += pid_b * stride_dstates_batch + pid_c * stride_dstates_chunk + pid_h * stride_dstates_head
    if HAS_SEQ_IDX:
        seq_idx_ptr += pid_b * stride_seq_idx_batch + pid_c * chunk_size * stride_seq_idx_seqlen

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)

    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)

    dA_cs_m = tl.load(dA_cumsum_ptr + offs_m * stride_dA_cs_csize, mask=offs_m < chunk_size_limit, other=0.0).to(tl.float32)

    dA_cs_last = tl.load(dA_cumsum_ptr + (chunk_size - 1) * stride_dA_cs_csize).to(tl.float32)
    if not HAS_SEQ_IDX:
        scale = tl.exp(dA_cs_last - dA_cs_m)
    else:
        seq_idx_m = tl.load(seq_idx_ptr + offs_m * stride_seq_idx_seqlen, mask=offs_m < chunk_size_limit, other=-1)
        seq_idx_last = tl.load(seq_idx_ptr + (chunk_size_limit - 1) * stride_seq_idx_seqlen)
        scale = tl.where(seq_idx_m == seq_idx_last, tl.exp(dA_cs_last - dA_cs_m), 0.0)
    # Might be faster to just do 1 iteration with larger BLOCK_SIZE_K, up to block size 128
    # However, we're getting error with the Triton compiler 2.1.0 for that code path:
    # Unexpected mma -> mma layout conversion
    # Triton 2.2.0 fixes this
    offs_dstate = tl.arange(0, BLOCK_SIZE_DSTATE if IS_TRITON_22 and BLOCK_SIZE_DSTATE <= 128 else BLOCK_SIZE_K)
    b_ptrs = b_ptr + (offs_m[:, None] * stride_b_seqlen + offs_dstate[None, :] * stride_b_dstate)
    dstates_ptrs = dstates_ptr + (offs_n[None, :] * stride_dstates_hdim + offs_dstate[:, None] * stride_dstates_dstate)
    if IS_TRITON_22 and BLOCK_SIZE_DSTATE <= 128:
        b = tl.load(b_ptrs, mask=(offs_m[:, None] < chunk_size_limit) & (offs_dstate[None, :] < dstate), other=0.0)
        dstates = tl.load(dstates_ptrs, mask=(offs_dstate[:, None] < dstate) & (offs_n[None, :] < hdim), other=0.0)
        dstates = dstates.to(b_ptr.dtype.element_ty)
        acc = tl.dot(b, dstates) * scale[:, None]
    else:
        for k in range(0, dstate, BLOCK_SIZE_K):
            b = tl.load(b_ptrs, mask=(offs_m[:, None] < chunk_size_limit) & (offs_dstate[None, :] < dstate - k), other=0.0)
            dstates = tl.load(dstates_ptrs, mask=(offs_dstate[:, None] < dstate - k) & (offs_n[None, :] < hdim), other=0.0)
            dstates = dstates.to(b_ptr.dtype.element_ty)
            acc += tl.dot(b, dstates)
            b_ptrs += BLOCK_SIZE_K * stride_b_dstate
            dstates_ptrs += BLOCK_SIZE_K * stride_dstates_dstate
        acc *= scale[:, None]

    offs_k = tl.arange(0, BLOCK_SIZE_K)
    cb_ptrs = cb_ptr + (offs_m[:, None] * stride_cb_csize_m + offs_k[None, :] * stride_cb_csize_k)
    dout_ptrs = dout_ptr + (offs_k[:, None] * stride_dout_seqlen + offs_n[None, :] * stride_dout_hdim)
    dA_cumsum_ptrs = dA_cumsum_ptr + offs_k * stride_dA_cs_csize
    K_MAX = chunk_size_limit
    K_MIN = pid_m * BLOCK_SIZE_M
    cb_ptrs += K_MIN * stride_cb_csize_k
    dout_ptrs += K_MIN * stride_dout_seqlen
    dA_cumsum_ptrs += K_MIN * stride_dA_cs_csize
    for k in range(K_MIN, K_MAX, BLOCK_SIZE_K):
        k = tl.multiple_of(k, BLOCK_SIZE_K)
        # For some reason setting mask to (offs_m[:, None] < chunk_size_limit) is much slower
        cb = tl.load(cb_ptrs, mask=(offs_m[:, None] < chunk_size) & (offs_k[None, :] < K_MAX - k), other=0.0)
        dout = tl.load(dout_ptrs, mask=(offs_k[:, None] < K_MAX - k) & (offs_n[None, :] < hdim), other=0.0)
        dA_cs_k = tl.load(dA_cumsum_ptrs, mask=offs_k < K_MAX - k, other=0.0).to(tl.float32)
        cb *= tl.exp(dA_cs_k[None, :] - dA_cs_m[:, None])
        # If we don't have the (k + offs_k[None, :] < K_MAX) mask, for indices outside this range,
        # we might have dA_cs_m = 0.0 and dA_cs_k very negative, and tl.exp will return inf.
        # Multiplying with cb, which is 0.0 outside the range, will make the result NaN.
        # This will cause NaN in acc, and hence NaN in dx and ddt.
        mask = (k + offs_k[None, :] >= offs_m[:, None]) & (k + offs_k[None, :] < K_MAX)
        cb = tl.where(mask, cb, 0.0)
        cb = cb.to(dout_ptr.dtype.element_ty)
        acc += tl.dot(cb, dout)
        cb_ptrs += BLOCK_SIZE_K * stride_cb_csize_k
        dout_ptrs += BLOCK_SIZE_K * stride_dout_seqlen
        dA_cumsum_ptrs += BLOCK_SIZE_K * stride_dA_cs_csize

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dt_ptrs = dt_ptr + offs_m * stride_dt_csize
    dt_m = tl.load(dt_ptrs, mask=offs_m < chunk_size_limit, other=0.0).to(tl.float32)
    dx = acc * dt_m[:, None]
    dx_ptr += pid_b * stride_dx_batch + pid_c * chunk_size * stride_dx_seqlen + pid_h * stride_dx_head
    dx_ptrs = dx_ptr + (offs_m[:, None] * stride_dx_seqlen + offs_n[None, :] * stride_dx_hdim)
    if HAS_D:
        dout_res_ptrs = dout_ptr + (offs_m[:, None] * stride_dout_seqlen + offs_n[None, :] * stride_dout_hdim)
        dout_res = tl.load(dout_res_ptrs, mask=(offs_m[:, None] < chunk_size_limit) & (offs_n[None, :] < hdim), other=0.0).to(tl.float32)
        if D_HAS_HDIM:
            D = tl.load(D_ptr + pid_h * stride_D_head + offs_n, mask=offs_n < hdim, other=0.0).to(tl.float32)
        else:
            D = tl.load(D_ptr + pid_h * stride_D_head).to(tl.float32)
        dx += dout_res * D
    tl.store(dx_ptrs, dx, mask=(offs_m[:, None] < chunk_size_limit) & (offs_n[None, :] < hdim))

    x_ptrs = x_ptr + (offs_m[:, None] * stride_x_seqlen + offs_n[None, :] * stride_x_hdim)
    x = tl.load(x_ptrs, mask=(offs_m[:, None] < chunk_size_limit) & (offs_n[None, :] < hdim), other=0.0).to(tl.float32)
    if HAS_D:
        dD_ptr += pid_b * stride_dD_batch + pid_c * stride_dD_chunk + pid_h * stride_dD_head + pid_m * stride_dD_csize
        if D_HAS_HDIM:
            dD_ptrs = dD_ptr + offs_n * stride_dD_hdim
            dD = tl.sum(dout_res * x, axis=0)
            tl.store(dD_ptrs, dD, mask=offs_n < hdim)
        else:
            dD = tl.sum(dout_res * x)
            tl.store(dD_ptr, dD)
    ddt = tl.sum(acc * x, axis=1)
    ddt_ptrs = ddt_ptr + offs_m * stride_ddt_csize
    tl.atomic_add(ddt_ptrs, ddt, mask=offs_m < chunk_size)


def make_inputs(batch: int, seqlen: int, nheads: int, headdim: int, ngroups: int, dstate: int, chunk_size: int,
                device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x, dout [batch, seqlen, nheads, headdim] fp16; dt, dA_cumsum [batch, nheads, nchunks, chunk_size] fp32 as
    ``_chunk_cumsum_fwd`` leaves them (softplus'd dt, zero past seqlen; the within-chunk cumsum of dt * A); B
    [batch, seqlen, ngroups, dstate] fp16; CB [batch, nchunks, ngroups, chunk_size, chunk_size] fp32 (C B^T within
    each chunk, zero past seqlen); dstates [batch, nchunks, nheads, headdim, dstate] fp16; D [nheads] fp32."""
    g = torch.Generator(device=device).manual_seed(seed)
    nchunks = math.ceil(seqlen / chunk_size)
    pad = nchunks * chunk_size
    x = torch.randn((batch, seqlen, nheads, headdim), device=device, generator=g).half()
    dout = torch.randn((batch, seqlen, nheads, headdim), device=device, generator=g).half()
    dt = torch.nn.functional.softplus(torch.randn((batch, nheads, pad), device=device, generator=g) - 2.0)
    dt[:, :, seqlen:] = 0.0
    A = -torch.rand((nheads,), device=device, generator=g) * 4.0 - 0.5
    dt = dt.view(batch, nheads, nchunks, chunk_size).contiguous()
    dA_cumsum = torch.cumsum(dt * A[None, :, None, None], dim=-1)
    B = (torch.randn((batch, seqlen, ngroups, dstate), device=device, generator=g) / 4.0).half()
    C = (torch.randn((batch, seqlen, ngroups, dstate), device=device, generator=g) / 4.0).half()
    Bp = torch.zeros((batch, pad, ngroups, dstate), device=device)
    Cp = torch.zeros((batch, pad, ngroups, dstate), device=device)
    Bp[:, :seqlen], Cp[:, :seqlen] = B.float(), C.float()
    Bc = Bp.view(batch, nchunks, chunk_size, ngroups, dstate)
    Cc = Cp.view(batch, nchunks, chunk_size, ngroups, dstate)
    CB = torch.einsum("bclgn,bcsgn->bcgls", Cc, Bc).contiguous()
    dstates = (torch.randn((batch, nchunks, nheads, headdim, dstate), device=device, generator=g) / 8.0).half()
    D = torch.randn((nheads,), device=device, generator=g)
    return {"x": x, "dout": dout, "dt": dt, "dA_cumsum": dA_cumsum, "B": B, "CB": CB, "dstates": dstates, "D": D}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dx fp16, ddt [batch, nheads, nchunks, chunk_size] fp32, dD [nheads] fp32) as
    ``_chunk_scan_chunk_state_bwd_dx(x, dt, dA_cumsum, B, CB, dout, dstates, D=D)`` returns them (``config`` accepted
    and ignored: the autotuner picks the blocks)."""
    x, dt, dA_cumsum, B, CB, dout, dstates, D = (inputs[n] for n in ("x", "dt", "dA_cumsum", "B", "CB", "dout",
                                                                      "dstates", "D"))
    seq_idx = None
    batch, seqlen, nheads, headdim = x.shape
    _, _, nchunks, chunk_size = dt.shape
    _, _, ngroups, dstate = B.shape
    assert nheads % ngroups == 0
    assert CB.shape == (batch, nchunks, ngroups, chunk_size, chunk_size)
    assert dstates.shape == (batch, nchunks, nheads, headdim, dstate)
    BLOCK_SIZE_min = 32
    dD = torch.empty(triton.cdiv(chunk_size, BLOCK_SIZE_min), batch, nchunks, nheads,
                     headdim if D.dim() == 2 else 1, device=D.device, dtype=torch.float32)
    dD_strides = (dD.stride(0), dD.stride(1), dD.stride(2), dD.stride(3), dD.stride(4))
    dx = torch.empty_like(x)
    ddt = torch.empty(batch, nheads, nchunks, chunk_size, device=dout.device, dtype=torch.float32)
    grid_dx = lambda META: (triton.cdiv(chunk_size, META['BLOCK_SIZE_M']) * triton.cdiv(headdim, META['BLOCK_SIZE_N']),
                            batch * nchunks, nheads)
    # the library's `with torch.cuda.device(x.device.index):`, a no-op off the GPU (the CPU interpreter, dry runs)
    with (torch.cuda.device(x.device.index) if x.device.type == "cuda" else contextlib.nullcontext()):
        _chunk_scan_chunk_state_bwd_dx_kernel[grid_dx](
            x, CB, dout, dt, dA_cumsum, seq_idx, D, B, dstates, dx, ddt, dD,
            chunk_size, headdim, dstate,
            batch, seqlen, nheads // ngroups,
            x.stride(0), x.stride(1), x.stride(2), x.stride(3),
            CB.stride(0), CB.stride(1), CB.stride(2), CB.stride(-1), CB.stride(-2),
            dout.stride(0), dout.stride(1), dout.stride(2), dout.stride(3),
            dt.stride(0), dt.stride(2), dt.stride(1), dt.stride(3),
            dA_cumsum.stride(0), dA_cumsum.stride(2), dA_cumsum.stride(1), dA_cumsum.stride(3),
            0, 0,
            D.stride(0),
            B.stride(0), B.stride(1), B.stride(2), B.stride(3),
            dstates.stride(0), dstates.stride(1), dstates.stride(2), dstates.stride(3), dstates.stride(4),
            dx.stride(0), dx.stride(1), dx.stride(2), dx.stride(3),
            ddt.stride(0), ddt.stride(2), ddt.stride(1), ddt.stride(3),
            dD_strides[1], dD_strides[2], dD_strides[3], dD_strides[0], dD_strides[4],
            True,
            D.dim() == 2,
            HAS_SEQ_IDX=False,
            BLOCK_SIZE_DSTATE=max(triton.next_power_of_2(dstate), 16),
            IS_TRITON_22=TRITON_22,
        )
    BLOCK_SIZE_actual = _chunk_scan_chunk_state_bwd_dx_kernel.best_config.kwargs["BLOCK_SIZE_M"]
    n_valid_blocks = (chunk_size + BLOCK_SIZE_actual - 1) // BLOCK_SIZE_actual
    dD = dD[:n_valid_blocks].sum(dim=(0, 1, 2)).to(dtype=D.dtype)
    dD = dD.reshape(nheads)
    return dx, ddt, dD


def reference(inputs: dict[str, Any]) -> Any:
    """The same gradients in fp32 torch, chunk by chunk: the state term through B and dstates scaled by
    exp(dA_cs_last - dA_cs), the intra-chunk term through CB^T with the causal decay, then dx, ddt, dD."""
    x, dt, dA_cumsum, B, CB, dout, dstates, D = (inputs[n] for n in ("x", "dt", "dA_cumsum", "B", "CB", "dout",
                                                                      "dstates", "D"))
    batch, seqlen, nheads, headdim = x.shape
    _, _, nchunks, chunk_size = dt.shape
    ngroups = B.shape[2]
    ratio = nheads // ngroups
    pad = nchunks * chunk_size

    def chunked(t: Any) -> Any:
        out = torch.zeros((batch, pad, *t.shape[2:]), device=t.device, dtype=torch.float32)
        out[:, :seqlen] = t.float()
        return out.view(batch, nchunks, chunk_size, *t.shape[2:])

    xc, doc, Bc = chunked(x), chunked(dout), chunked(B)
    heads_g = torch.arange(nheads, device=x.device) // ratio
    dA = dA_cumsum.permute(0, 2, 1, 3)                                      # [b, c, h, l]
    scale = torch.exp(dA[..., -1:] - dA)                                    # [b, c, h, l]
    acc = torch.einsum("bclhn,bchpn->bclhp", Bc[:, :, :, heads_g], dstates.float()) * scale.permute(0, 1, 3, 2)[..., None]
    decay = torch.exp(dA[..., :, None] - dA[..., None, :])                  # [b, c, h, k, m]: exp(dA_k - dA_m)
    idx = torch.arange(chunk_size, device=x.device)
    causal = idx[:, None] >= idx[None, :]
    w = torch.where(causal, CB[:, :, heads_g] * decay, torch.zeros((), device=x.device))   # [b, c, h, k, m]
    acc = acc + torch.einsum("bchkm,bckhp->bcmhp", w, doc)
    dtc = dt.permute(0, 2, 3, 1)                                            # [b, c, l, h]
    dx = acc * dtc[..., None] + doc * D[None, None, None, :, None]
    ddt = (acc * xc).sum(-1).permute(0, 3, 1, 2)                           # [b, h, c, l]
    dD = (doc * xc).sum(dim=(0, 1, 2, 4))
    dx = dx.reshape(batch, pad, nheads, headdim)[:, :seqlen].half()
    return dx, ddt, dD


def flops(batch: int, seqlen: int, nheads: int, headdim: int, ngroups: int, dstate: int, chunk_size: int) -> float:
    """The state dot (2 * L * P * N) and the causal half of the intra-chunk dot (L^2 * P) per chunk and head."""
    return 2.0 * batch * seqlen * nheads * headdim * dstate + 1.0 * batch * seqlen * nheads * headdim * chunk_size
