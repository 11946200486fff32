"""Mamba-2 ``_chunk_scan_bwd_ddAcs_stable_kernel`` (state-spaces/mamba, mamba_ssm/ops/triton/ssd_chunk_scan.py): the
gradient of the chunk-local dA cumsum through the intra-chunk term. Per (row block of the chunk, batch*chunk, head)
program: dout's [BLOCK_SIZE_M, hdim] tile loaded once before the loop, then a causal ``range(0, (pid_m + 1) *
BLOCK_SIZE_M, BLOCK_SIZE_N)`` loop (``tl.multiple_of`` on the induction variable) doing one tl.dot per step (dout @ x
over the whole head dim: the source notes a K loop with a cumsum after it crashed Triton), scaled by dt, the fp32 CB
tile and ``tl.exp(tl.minimum(dA_m - dA_n, 0))``, a strict causal tl.where, then a carried running row sum
(``rowsum``, a [BLOCK_SIZE_M] loop-carried vector) added to a ``tl.cumsum(acc, axis=1)`` along the columns, masked
again, reduced over rows (``tl.sum(acc, axis=0)``) and stored every iteration one element to the right (a store
inside the loop whose mask depends on the induction variable); a scalar ``tl.store(ddA_cumsum_ptr, 0.0)`` before the
loop and a sibling loop after it that zero-fills the rest of the row. The host sums the per-row-block partial rows.
bf16 x / dout, fp32 dt / dA_cumsum / CB (as _chunk_scan_bwd computes CB in fp32). chunk_size 256, hdim 64
(BLOCK_SIZE_K = next_power_of_2(hdim)), BLOCK_SIZE_M = BLOCK_SIZE_N = 64 with 4 warps / 3 stages from the autotune
list (``autotune_configs`` wrapper and @triton.autotune dropped)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

CHUNK, HDIM, NGROUPS = 256, 64, 1
BLOCK_M = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_chunk_scan_bwd_ddAcs_stable_kernel",
    "signature": {"x_ptr": "*bf16", "dout_ptr": "*bf16", "dt_ptr": "*fp32", "dA_cumsum_ptr": "*fp32",
                  "cb_ptr": "*fp32", "ddA_cumsum_ptr": "*fp32",
                  "chunk_size": "i32", "hdim": "i32", "batch": "i32", "seqlen": "i32", "nheads_ngroups_ratio": "i32",
                  "stride_x_batch": "i32", "stride_x_seqlen": "i32", "stride_x_head": "i32",
                  "stride_x_hdim": "constexpr",
                  "stride_dout_batch": "i32", "stride_dout_seqlen": "i32", "stride_dout_head": "i32",
                  "stride_dout_hdim": "constexpr",
                  "stride_dt_batch": "i32", "stride_dt_chunk": "i32", "stride_dt_head": "i32",
                  "stride_dt_csize": "constexpr",
                  "stride_dA_cs_batch": "i32", "stride_dA_cs_chunk": "i32", "stride_dA_cs_head": "i32",
                  "stride_dA_cs_csize": "constexpr",
                  "stride_cb_batch": "i32", "stride_cb_chunk": "i32", "stride_cb_head": "i32",
                  "stride_cb_csize_m": "i32", "stride_cb_csize_n": "constexpr",
                  "stride_ddA_cs_batch": "i32", "stride_ddA_cs_chunk": "i32", "stride_ddA_cs_head": "i32",
                  "stride_ddA_cs_csize_m": "i32", "stride_ddA_cs_csize_n": "constexpr"},
    "constexprs": {"stride_x_hdim": 1, "stride_dout_hdim": 1, "stride_dt_csize": 1, "stride_dA_cs_csize": 1,
                   "stride_cb_csize_n": 1, "stride_ddA_cs_csize_n": 1,
                   "BLOCK_SIZE_M": BLOCK_M, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["chunk_size", "hdim", "stride_x_batch", "stride_x_seqlen", "stride_x_head",
                     "stride_dout_batch", "stride_dout_seqlen", "stride_dout_head", "stride_dt_batch",
                     "stride_dt_chunk", "stride_dt_head", "stride_dA_cs_batch", "stride_dA_cs_chunk",
                     "stride_dA_cs_head", "stride_cb_batch", "stride_cb_chunk", "stride_cb_head",
                     "stride_cb_csize_m", "stride_ddA_cs_batch", "stride_ddA_cs_chunk", "stride_ddA_cs_head",
                     "stride_ddA_cs_csize_m"]}
PROBLEM: dict[str, int] = {"batch": 4, "seqlen": 4096, "nheads": 32}
SMALL: dict[str, int] = {"batch": 1, "seqlen": 300, "nheads": 2}    # the second chunk is ragged (44 of 256)


@triton.jit
def _chunk_scan_bwd_ddAcs_stable_kernel(
    # Pointers to matrices
    x_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, cb_ptr,
    ddA_cumsum_ptr,
    # Matrix dimensions
    chunk_size, hdim,
    batch, seqlen, nheads_ngroups_ratio,
    # Strides
    stride_x_batch, stride_x_seqlen, stride_x_head, stride_x_hdim,
    stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dout_hdim,
    stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dt_csize,
    stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_dA_cs_csize,
    stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_cb_csize_n,
    stride_ddA_cs_batch, stride_ddA_cs_chunk, stride_ddA_cs_head, stride_ddA_cs_csize_m, stride_ddA_cs_csize_n,
    # Meta-parameters
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
):
    pid_bc = tl.program_id(axis=1)
    pid_c = pid_bc // batch
    pid_b = pid_bc - pid_c * batch
    pid_h = tl.program_id(axis=2)
    pid_m = tl.program_id(axis=0)

    x_ptr += pid_b * stride_x_batch + pid_c * chunk_size * stride_x_seqlen + pid_h * stride_x_head
    dout_ptr += pid_b * stride_dout_batch + pid_c * chunk_size * stride_dout_seqlen + pid_h * stride_dout_head
    dt_ptr += pid_b * stride_dt_batch + pid_c * stride_dt_chunk + pid_h * stride_dt_head
    dA_cumsum_ptr += pid_b * stride_dA_cs_batch + pid_c * stride_dA_cs_chunk + pid_h * stride_dA_cs_head
    cb_ptr += pid_b * stride_cb_batch + pid_c * stride_cb_chunk + (pid_h // nheads_ngroups_ratio) * stride_cb_head
    ddA_cumsum_ptr += pid_b * stride_ddA_cs_batch + pid_c * stride_ddA_cs_chunk + pid_h * stride_ddA_cs_head + pid_m * stride_ddA_cs_csize_m

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    dout_ptrs = dout_ptr + (offs_m[:, None] * stride_dout_seqlen + offs_k[None, :] * stride_dout_hdim)
    x_ptrs = x_ptr + (offs_n[None, :] * stride_x_seqlen + offs_k[:, None] * stride_x_hdim)
    dt_ptrs = dt_ptr + offs_n * stride_dt_csize
    cb_ptrs = cb_ptr + (offs_m[:, None] * stride_cb_csize_m + offs_n[None, :] * stride_cb_csize_n)
    ddAcs_ptrs = ddA_cumsum_ptr + offs_n * stride_ddA_cs_csize_n
    tl.store(ddA_cumsum_ptr, 0.0)

    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)
    rowsum = tl.zeros((BLOCK_SIZE_M,), dtype=tl.float32)
    dout = tl.load(dout_ptrs, mask=(offs_m[:, None] < chunk_size_limit) & (offs_k[None, :] < hdim), other=0.0)
    dA_cs_m = tl.load(dA_cumsum_ptr + offs_m * stride_dA_cs_csize, mask=offs_m < chunk_size, other=0.0).to(tl.float32)
    # Actually hi is (pid_m + 1) * BLOCK_SIZE_M - 1 but subtracting 1 makes it slower
    lo, hi = 0, (pid_m + 1) * BLOCK_SIZE_M
    # lo, hi = 0, chunk_size
    for start_n in range(lo, hi, BLOCK_SIZE_N):
        start_n = tl.multiple_of(start_n, BLOCK_SIZE_N)
        # Doing a matmul loop with cumsum later on will cause Triton to crash
        # Instead we do just one big matmul
        x = tl.load(x_ptrs, mask=(offs_k[:, None] < hdim) & (offs_n[None, :] < chunk_size_limit - start_n), other=0.0)
        acc = tl.dot(dout, x)
        dt_n = tl.load(dt_ptrs, mask=offs_n < chunk_size - start_n, other=0.0).to(tl.float32)
        acc *= dt_n
        # If there's seq_idx, we already zero'ed out cb[i, j] for seq_idx[i] != seq_idx[j]
        cb = tl.load(cb_ptrs, mask=(offs_m[:, None] < chunk_size) & (offs_n[None, :] < chunk_size - start_n), other=0.0).to(tl.float32)
        acc *= cb
        dA_cs_n = tl.load(dA_cumsum_ptr + (start_n + offs_n) * stride_dA_cs_csize, mask=offs_n < chunk_size - start_n, other=0.0).to(tl.float32)
        # acc *= tl.exp(dA_cs_m[:, None] - dA_cs_n[None, :])
        acc *= tl.exp(tl.minimum((dA_cs_m[:, None] - dA_cs_n[None, :]), 0.0))
        mask = offs_m[:, None] >= start_n + offs_n[None, :] + 1
        acc = tl.where(mask, acc, 0.0)
        rowsum_new = rowsum + tl.sum(acc, axis=1)
        acc = rowsum[:, None] + tl.cumsum(acc, axis=1)
        rowsum = rowsum_new
        acc = tl.where(mask, acc, 0.0)
        ddA_cs = tl.sum(acc, axis=0)
        tl.store(ddAcs_ptrs + stride_ddA_cs_csize_n, ddA_cs, mask=offs_n < chunk_size - start_n - 1)
        x_ptrs += BLOCK_SIZE_N * stride_x_seqlen
        dt_ptrs += BLOCK_SIZE_N * stride_dt_csize
        cb_ptrs += BLOCK_SIZE_N * stride_cb_csize_n
        ddAcs_ptrs += BLOCK_SIZE_N * stride_ddA_cs_csize_n

    # Need to zero out the rest, since we'll be summing the rows together
    for start_n in range(hi, chunk_size, BLOCK_SIZE_N):
        tl.store(ddAcs_ptrs + stride_ddA_cs_csize_n, tl.zeros((BLOCK_SIZE_N,), dtype=tl.float32), mask=offs_n < chunk_size - start_n - 1)
        ddAcs_ptrs += BLOCK_SIZE_N * stride_ddA_cs_csize_n


def make_inputs(batch: int, seqlen: int, nheads: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    nchunks = triton.cdiv(seqlen, CHUNK)
    x = torch.randn((batch, seqlen, nheads, HDIM), device=device, generator=gen).bfloat16()
    dout = (torch.randn((batch, seqlen, nheads, HDIM), device=device, generator=gen) / 8).bfloat16()
    dt = torch.nn.functional.softplus(torch.randn((batch, nheads, nchunks * CHUNK), device=device, generator=gen) - 2)
    dt[:, :, seqlen:] = 0
    A = -torch.rand((nheads,), device=device, generator=gen)
    dt = dt.view(batch, nheads, nchunks, CHUNK).contiguous()
    dA_cumsum = torch.cumsum(dt * A[None, :, None, None], dim=-1)
    cb = torch.randn((batch, nchunks, NGROUPS, CHUNK, CHUNK), device=device, generator=gen) / 8
    return {"x": x, "dout": dout, "dt": dt, "dA_cumsum": dA_cumsum, "cb": cb}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """ddA_cumsum fp32 (batch, nheads, nchunks, chunk_size), as _chunk_scan_bwd_ddAcs_stable runs the kernel (the
    per-row-block partial rows summed on the host)."""
    import torch
    x, dout, dt, dA_cumsum, cb = (inputs[n] for n in ("x", "dout", "dt", "dA_cumsum", "cb"))
    batch, seqlen, nheads, headdim = x.shape
    _, _, nchunks, chunk_size = dt.shape
    ngroups = cb.shape[2]
    BM, BN = config.get("BLOCK_SIZE_M", BLOCK_M), config.get("BLOCK_SIZE_N", 64)
    ddA_cumsum = torch.empty(batch, nheads, nchunks, triton.cdiv(chunk_size, 32), chunk_size, device=x.device,
                             dtype=torch.float32)
    grid = (triton.cdiv(chunk_size, BM), batch * nchunks, nheads)
    _chunk_scan_bwd_ddAcs_stable_kernel[grid](
        x, dout, dt, dA_cumsum, cb, ddA_cumsum,
        chunk_size, headdim,
        batch, seqlen, nheads // ngroups,
        x.stride(0), x.stride(1), x.stride(2), x.stride(3),
        dout.stride(0), dout.stride(1), dout.stride(2), dout.stride(3),
        dt.stride(0), dt.stride(2), dt.stride(1), dt.stride(3),
        dA_cumsum.stride(0), dA_cumsum.stride(2), dA_cumsum.stride(1), dA_cumsum.stride(3),
        cb.stride(0), cb.stride(1), cb.stride(2), cb.stride(3), cb.stride(4),
        ddA_cumsum.stride(0), ddA_cumsum.stride(2), ddA_cumsum.stride(1), ddA_cumsum.stride(3), ddA_cumsum.stride(4),
        BLOCK_SIZE_M=BM, BLOCK_SIZE_N=BN, BLOCK_SIZE_K=max(triton.next_power_of_2(headdim), 16),
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    n_valid_blocks = (chunk_size + BM - 1) // BM
    return ddA_cumsum[:, :, :, :n_valid_blocks].sum(dim=3)


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    x, dout, dt, dA, cb = (inputs[n].double() for n in ("x", "dout", "dt", "dA_cumsum", "cb"))
    batch, seqlen, nheads, hdim = x.shape
    nchunks = dt.shape[2]
    pad = nchunks * CHUNK - seqlen
    xc = torch.nn.functional.pad(x, (0, 0, 0, 0, 0, pad)).view(batch, nchunks, CHUNK, nheads, hdim)
    dc = torch.nn.functional.pad(dout, (0, 0, 0, 0, 0, pad)).view(batch, nchunks, CHUNK, nheads, hdim)
    S = torch.einsum("bcmhd,bcnhd->bhcmn", dc, xc)                               # dout @ x^T per chunk
    cbh = cb.repeat_interleave(nheads // cb.shape[2], dim=2).permute(0, 2, 1, 3, 4)  # (b, h, c, m, n)
    decay = torch.exp(torch.clamp(dA[..., :, None] - dA[..., None, :], max=0.0))
    Amat = S * dt[..., None, :] * cbh * decay
    idx = torch.arange(CHUNK, device=x.device)
    strict = idx[:, None] > idx[None, :]                                          # m >= n + 1
    Amat = torch.where(strict, Amat, torch.zeros_like(Amat))
    P = torch.where(strict, Amat.cumsum(dim=-1), torch.zeros_like(Amat))         # row-wise cumsum, masked again
    col = P.sum(dim=-2)                                                           # (b, h, c, n)
    out = torch.zeros_like(dt)
    out[..., 1:] = col[..., :-1]
    return out


def flops(batch: int, seqlen: int, nheads: int) -> float:
    return 1.0 * batch * nheads * seqlen * (CHUNK + BLOCK_M) * HDIM
