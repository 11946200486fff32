"""Mamba-2 SSD ``_chunk_scan_fwd_kernel`` as mamba_ssm (ops/triton/ssd_chunk_scan.py) and vLLM
(model_executor/layers/mamba/ops/ssd_chunk_scan.py) write it: per (chunk-position x hdim tile, batch*chunk, head),
out = exp(dA_cs_m) * (C @ prev_states)  +  sum_k (cb * exp(dA_cs_m - dA_cs_k) * dt_k, causally masked) @ x  +  D * x.

The constructs: the inter-chunk half as ONE dot of C [BLOCK_M, BLOCK_SIZE_DSTATE] by the previous chunk's fp32
states cast to fp16, scaled by ``tl.exp(dA_cs_m)`` per row, under mamba's ``if IS_TRITON_22 or pid_c > -1``
guard; then the loop over the chunk's K blocks with the loop bound
``K_MAX = chunk_size_limit if not IS_CAUSAL else min((pid_m + 1) * BLOCK_SIZE_M, chunk_size_limit)`` (a bound that
reads the program id and the ragged last chunk), the decay ``tl.exp(dA_cs_m[:, None] - dA_cs_k[None, :])`` of two
per-iteration vectors, ``cb *= dt_k``, the causal mask ``offs_m[:, None] >= k + offs_k[None, :]`` by ``tl.where``,
the fp16 cast and ``acc += tl.dot(cb, x)``; the D skip connection (``HAS_D``, a per-head scalar D) re-reading x in
the epilogue. Explicit strides, unit strides as constexprs (Triton's specialisation of 1). Nothing here is imported
by twill."""
from __future__ import annotations

from typing import Any

import torch
import triton
import triton.language as tl

CHUNK = 256
HDIM = 64
DSTATE = 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_chunk_scan_fwd_kernel",
    "signature": {"cb_ptr": "*fp16", "x_ptr": "*fp16", "out_ptr": "*fp32", "dt_ptr": "*fp32",
                  "dA_cumsum_ptr": "*fp32", "C_ptr": "*fp16", "prev_states_ptr": "*fp32", "D_ptr": "*fp32",
                  "chunk_size": "i32", "hdim": "i32", "dstate": "i32", "batch": "i32", "seqlen": "i32",
                  "nheads_ngroups_ratio": "i32",
                  "stride_cb_batch": "i32", "stride_cb_chunk": "i32", "stride_cb_head": "i32",
                  "stride_cb_csize_m": "i32", "stride_cb_csize_k": "constexpr",
                  "stride_x_batch": "i32", "stride_x_seqlen": "i32", "stride_x_head": "i32",
                  "stride_x_hdim": "constexpr",
                  "stride_out_batch": "i32", "stride_out_seqlen": "i32", "stride_out_head": "i32",
                  "stride_out_hdim": "constexpr",
                  "stride_dt_batch": "i32", "stride_dt_chunk": "i32", "stride_dt_head": "i32",
                  "stride_dt_csize": "constexpr",
                  "stride_dA_cs_batch": "i32", "stride_dA_cs_chunk": "i32", "stride_dA_cs_head": "i32",
                  "stride_dA_cs_csize": "constexpr",
                  "stride_C_batch": "i32", "stride_C_seqlen": "i32", "stride_C_head": "i32",
                  "stride_C_dstate": "constexpr",
                  "stride_states_batch": "i32", "stride_states_chunk": "i32", "stride_states_head": "i32",
                  "stride_states_hdim": "i32", "stride_states_dstate": "constexpr",
                  "stride_D_head": "constexpr"},
    "constexprs": {"stride_cb_csize_k": 1, "stride_x_hdim": 1, "stride_out_hdim": 1, "stride_dt_csize": 1,
                   "stride_dA_cs_csize": 1, "stride_C_dstate": 1, "stride_states_dstate": 1, "stride_D_head": 1,
                   "IS_CAUSAL": True, "HAS_D": True, "D_HAS_HDIM": False,
                   "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32, "BLOCK_SIZE_DSTATE": 128,
                   "IS_TRITON_22": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["chunk_size", "hdim", "dstate", "stride_cb_batch", "stride_cb_chunk", "stride_cb_head",
                     "stride_cb_csize_m", "stride_x_batch", "stride_x_seqlen", "stride_x_head",
                     "stride_out_batch", "stride_out_seqlen", "stride_out_head", "stride_dt_batch",
                     "stride_dt_chunk", "stride_dt_head", "stride_dA_cs_batch", "stride_dA_cs_chunk",
                     "stride_dA_cs_head", "stride_C_batch", "stride_C_seqlen", "stride_C_head",
                     "stride_states_batch", "stride_states_chunk", "stride_states_head", "stride_states_hdim"]}
PROBLEM: dict[str, int] = {"batch": 4, "seqlen": 4096, "nheads": 32, "ngroups": 8}
SMALL: dict[str, int] = {"batch": 2, "seqlen": 300, "nheads": 4, "ngroups": 2}   # last chunk 44 long


@triton.jit
def _chunk_scan_fwd_kernel(
    # Pointers to matrices
    cb_ptr, x_ptr, out_ptr, dt_ptr, dA_cumsum_ptr, C_ptr, prev_states_ptr, D_ptr,
    # Matrix dimensions
    chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio,
    # Strides
    stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_cb_csize_k,
    stride_x_batch, stride_x_seqlen, stride_x_head, stride_x_hdim,
    stride_out_batch, stride_out_seqlen, stride_out_head, stride_out_hdim,
    stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dt_csize,
    stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_dA_cs_csize,
    stride_C_batch, stride_C_seqlen, stride_C_head, stride_C_dstate,
    stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, stride_states_dstate,
    stride_D_head,
    # Meta-parameters
    IS_CAUSAL: tl.constexpr,
    HAS_D: tl.constexpr,
    D_HAS_HDIM: tl.constexpr,
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
    cb_ptr += pid_b * stride_cb_batch + pid_c * stride_cb_chunk + (pid_h // nheads_ngroups_ratio) * stride_cb_head
    x_ptr += pid_b * stride_x_batch + pid_c * chunk_size * stride_x_seqlen + pid_h * stride_x_head
    dt_ptr += pid_b * stride_dt_batch + pid_c * stride_dt_chunk + pid_h * stride_dt_head
    dA_cumsum_ptr += pid_b * stride_dA_cs_batch + pid_c * stride_dA_cs_chunk + pid_h * stride_dA_cs_head
    C_ptr += pid_b * stride_C_batch + pid_c * chunk_size * stride_C_seqlen + (pid_h // nheads_ngroups_ratio) * stride_C_head
    prev_states_ptr = prev_states_ptr + pid_b * stride_states_batch + pid_c * stride_states_chunk + pid_h * stride_states_head

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dA_cs_m = tl.load(dA_cumsum_ptr + offs_m * stride_dA_cs_csize, mask=offs_m < chunk_size, other=0.0).to(tl.float32)

    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)

    # Without the if (pid_c > -1), with Triton 2.1.0, I get
    # Assertion `!(srcMmaLayout && dstMmaLayout) && "Unexpected mma -> mma layout conversion"' failed.
    # With Triton 2.2.0, this works
    if IS_TRITON_22 or pid_c > -1:
        # Faster to just do 1 iteration with larger BLOCK_SIZE_K, up to block size 128
        offs_k_dstate = tl.arange(0, BLOCK_SIZE_DSTATE if BLOCK_SIZE_DSTATE <= 128 else BLOCK_SIZE_K)
        C_ptrs = C_ptr + (offs_m[:, None] * stride_C_seqlen + offs_k_dstate[None, :] * stride_C_dstate)
        prev_states_ptrs = prev_states_ptr + (offs_n[None, :] * stride_states_hdim
                                              + offs_k_dstate[:, None] * stride_states_dstate)
        scale_m = tl.exp(dA_cs_m)
        if BLOCK_SIZE_DSTATE <= 128:
            C = tl.load(C_ptrs, mask=(offs_m[:, None] < chunk_size_limit) & (offs_k_dstate[None, :] < dstate),
                        other=0.0)
            prev_states = tl.load(prev_states_ptrs,
                                  mask=(offs_k_dstate[:, None] < dstate) & (offs_n[None, :] < hdim), other=0.0)
            prev_states = prev_states.to(C_ptr.dtype.element_ty)
            acc = tl.dot(C, prev_states) * scale_m[:, None]
        else:
            for k in range(0, dstate, BLOCK_SIZE_K):
                C = tl.load(C_ptrs, mask=(offs_m[:, None] < chunk_size_limit)
                            & (offs_k_dstate[None, :] < dstate - k), other=0.0)
                prev_states = tl.load(prev_states_ptrs, mask=(offs_k_dstate[:, None] < dstate - k)
                                      & (offs_n[None, :] < hdim), other=0.0)
                prev_states = prev_states.to(C_ptr.dtype.element_ty)
                acc += tl.dot(C, prev_states)
                C_ptrs += BLOCK_SIZE_K
                prev_states_ptrs += BLOCK_SIZE_K
            acc *= scale_m[:, None]

    offs_k = tl.arange(0, BLOCK_SIZE_K)
    cb_ptrs = cb_ptr + (offs_m[:, None] * stride_cb_csize_m + offs_k[None, :] * stride_cb_csize_k)
    x_ptrs = x_ptr + (offs_k[:, None] * stride_x_seqlen + offs_n[None, :] * stride_x_hdim)
    dt_ptrs = dt_ptr + offs_k * stride_dt_csize
    dA_cumsum_ptrs = dA_cumsum_ptr + offs_k * stride_dA_cs_csize
    K_MAX = chunk_size_limit if not IS_CAUSAL else min((pid_m + 1) * BLOCK_SIZE_M, chunk_size_limit)
    for k in range(0, K_MAX, BLOCK_SIZE_K):
        cb = tl.load(cb_ptrs, mask=(offs_m[:, None] < chunk_size) & (offs_k[None, :] < chunk_size - k),
                     other=0.0).to(tl.float32)
        dA_cs_k = tl.load(dA_cumsum_ptrs, mask=offs_k < chunk_size - k, other=0.0).to(tl.float32)
        # If there's seq_idx, we already set cb[i, j] = 0 for seq_idx[i] != seq_idx[j].
        # So we don't need masking wrt seq_idx here.
        cb *= tl.exp(dA_cs_m[:, None] - dA_cs_k[None, :])
        dt_k = tl.load(dt_ptrs, mask=offs_k < chunk_size - k, other=0.0).to(tl.float32)
        cb *= dt_k
        if IS_CAUSAL:
            mask = offs_m[:, None] >= k + offs_k[None, :]
            cb = tl.where(mask, cb, 0.0)
        cb = cb.to(x_ptr.dtype.element_ty)
        x = tl.load(x_ptrs, mask=(offs_k[:, None] < chunk_size_limit - k) & (offs_n[None, :] < hdim), other=0.0)
        acc += tl.dot(cb, x)
        cb_ptrs += BLOCK_SIZE_K * stride_cb_csize_k
        x_ptrs += BLOCK_SIZE_K * stride_x_seqlen
        dt_ptrs += BLOCK_SIZE_K * stride_dt_csize
        dA_cumsum_ptrs += BLOCK_SIZE_K * stride_dA_cs_csize

    offs_out_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_out_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)

    if HAS_D:
        if D_HAS_HDIM:
            D = tl.load(D_ptr + pid_h * stride_D_head + offs_n, mask=offs_n < hdim, other=0.0).to(tl.float32)
        else:
            D = tl.load(D_ptr + pid_h * stride_D_head).to(tl.float32)
        x_residual = tl.load(x_ptr + (offs_m[:, None] * stride_x_seqlen + offs_n[None, :] * stride_x_hdim),
                             mask=(offs_m[:, None] < chunk_size_limit) & (offs_n[None, :] < hdim),
                             other=0.0).to(tl.float32)
        acc += x_residual * D

    out_ptr += pid_b * stride_out_batch + pid_c * chunk_size * stride_out_seqlen + pid_h * stride_out_head
    out_ptrs = out_ptr + (stride_out_seqlen * offs_out_m[:, None] + offs_out_n[None, :] * stride_out_hdim)
    tl.store(out_ptrs, acc, mask=(offs_out_m[:, None] < chunk_size_limit) & (offs_out_n[None, :] < hdim))


def make_inputs(batch: int, seqlen: int, nheads: int, ngroups: int, device: str = "cuda", seed: int = 0):
    """cb = C_chunk @ B_chunk^T per (batch, chunk, group) as ``_bmm_chunk_fwd`` makes it; prev_states[:, c] the
    state entering chunk c (zeros for chunk 0), fp32, as ``_state_passing_fwd`` leaves it."""
    gen = torch.Generator(device=device).manual_seed(seed)
    nchunks = triton.cdiv(seqlen, CHUNK)
    x = torch.randn((batch, seqlen, nheads, HDIM), device=device, generator=gen).half()
    C = (torch.randn((batch, seqlen, ngroups, DSTATE), device=device, generator=gen) / DSTATE ** 0.5).half()
    B = (torch.randn((batch, seqlen, ngroups, DSTATE), device=device, generator=gen) / DSTATE ** 0.5).half()
    pad = nchunks * CHUNK - seqlen
    Cp = torch.nn.functional.pad(C.float(), (0, 0, 0, 0, 0, pad)).view(batch, nchunks, CHUNK, ngroups, DSTATE)
    Bp = torch.nn.functional.pad(B.float(), (0, 0, 0, 0, 0, pad)).view(batch, nchunks, CHUNK, ngroups, DSTATE)
    cb = torch.einsum("bclgn,bcsgn->bcgls", Cp, Bp).half().contiguous()
    dt = torch.nn.functional.softplus(torch.randn((batch, nheads, nchunks * CHUNK), device=device, generator=gen) - 4)
    dt[:, :, seqlen:] = 0
    A = -torch.rand((nheads,), device=device, generator=gen)
    dt = dt.view(batch, nheads, nchunks, CHUNK).contiguous()
    dA_cumsum = torch.cumsum(dt * A[None, :, None, None], dim=-1)
    prev_states = torch.randn((batch, nchunks, nheads, HDIM, DSTATE), device=device, generator=gen)
    prev_states[:, 0] = 0
    D = torch.randn((nheads,), device=device, generator=gen)
    return {"cb": cb, "x": x, "dt": dt, "dA_cumsum": dA_cumsum, "C": C, "prev_states": prev_states, "D": D}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out, fp32 [batch, seqlen, nheads, hdim]."""
    cb, x, dt, dA_cumsum, C, states, D = (inputs[n] for n in ("cb", "x", "dt", "dA_cumsum", "C", "prev_states", "D"))
    batch, seqlen, nheads, headdim = x.shape
    _, _, nchunks, chunk_size = dt.shape
    _, _, ngroups, dstate = C.shape
    out = torch.empty((batch, seqlen, nheads, headdim), device=x.device, dtype=torch.float32)
    grid = lambda META: (triton.cdiv(chunk_size, META["BLOCK_SIZE_M"]) * triton.cdiv(headdim, META["BLOCK_SIZE_N"]),
                         batch * nchunks, nheads)
    _chunk_scan_fwd_kernel[grid](
        cb, x, out, dt, dA_cumsum, C, states, D,
        chunk_size, headdim, dstate, batch, seqlen, nheads // ngroups,
        cb.stride(0), cb.stride(1), cb.stride(2), cb.stride(3), cb.stride(4),
        x.stride(0), x.stride(1), x.stride(2), x.stride(3),
        out.stride(0), out.stride(1), out.stride(2), out.stride(3),
        dt.stride(0), dt.stride(2), dt.stride(1), dt.stride(3),
        dA_cumsum.stride(0), dA_cumsum.stride(2), dA_cumsum.stride(1), dA_cumsum.stride(3),
        C.stride(0), C.stride(1), C.stride(2), C.stride(3),
        states.stride(0), states.stride(1), states.stride(2), states.stride(3), states.stride(4),
        D.stride(0),
        IS_CAUSAL=True, HAS_D=True, D_HAS_HDIM=False,
        BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, BLOCK_SIZE_DSTATE=max(triton.next_power_of_2(dstate), 16),
        IS_TRITON_22=True,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    cb, x, dt, dA, C, states, D = (inputs[n].double() for n in ("cb", "x", "dt", "dA_cumsum", "C", "prev_states", "D"))
    batch, seqlen, nheads, hdim = x.shape
    nchunks = dt.shape[2]
    ngroups = C.shape[2]
    out = torch.zeros((batch, seqlen, nheads, hdim), dtype=torch.float64, device=x.device)
    for c in range(nchunks):
        s, e = c * CHUNK, min((c + 1) * CHUNK, seqlen)
        L = e - s
        causal = torch.tril(torch.ones((L, L), dtype=torch.float64, device=x.device))
        for h in range(nheads):
            g = h // (nheads // ngroups)
            dA_c = dA[:, h, c, :L]                                                      # batch, L
            decay = torch.exp(dA_c[:, :, None] - dA_c[:, None, :]) * causal            # batch, l, s
            w = cb[:, c, g, :L, :L] * decay * dt[:, h, c, None, :L]
            y = torch.einsum("bls,bsp->blp", w, x[:, s:e, h])
            y += torch.exp(dA_c)[:, :, None] * torch.einsum("bln,bpn->blp", C[:, s:e, g], states[:, c, h])
            y += D[h] * x[:, s:e, h]
            out[:, s:e, h] = y
    return out


def flops(batch: int, seqlen: int, nheads: int, ngroups: int) -> float:
    """The causal C·B-weighted x (half the chunk on average) and C @ prev_states."""
    return 2.0 * batch * seqlen * nheads * HDIM * (CHUNK / 2 + DSTATE)
