"""Mamba-2's ``_bmm_chunk_bwd_kernel`` (mamba_ssm/ops/triton/ssd_bmm.py, as ``_bmm_chunk_bwd`` launches it in the
SSD backward, ``_bmm_chunk_bwd(C, dCB, residual=dB)``): the gradient of the chunk's C B^T scores with respect to B,
dB[l, n] = sum_s dCB[s, l] * C[s, n] + residual[l, n], per (M x N tile of chunk positions x dstate, batch,
chunk*group) program.

The constructs: the grid's first axis split into (pid_m, pid_n) by ``num_pid_n = tl.cdiv(K, BLOCK_SIZE_N)``, the
third into (chunk, group) by ``ngroups``; the scores' gradient dCB (fp32, [batch, nchunks, ngroups, cs, cs]) read
*transposed*: its tile [BLOCK_SIZE_M, BLOCK_SIZE_CS] takes rows along ``stride_dout_csize_n`` (the contiguous axis,
a constexpr 1 here) and the reduction axis along ``stride_dout_csize_m``, cast to ``dot_dtype`` (a tl dtype the host
passes, fp16) in registers; C's tile [BLOCK_SIZE_CS, BLOCK_SIZE_N] along the sequence; the loop
``for cs in range(0, tl.cdiv(chunk_size_limit, BLOCK_SIZE_CS))`` whose bound is the ragged last chunk's length
(``chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)``, a runtime ``min``), both loads masked against
``chunk_size_limit - cs * BLOCK_SIZE_CS``, ``acc += tl.dot(dout, a)`` in fp32, both pointers bumped by
``BLOCK_SIZE_CS`` strides; after the loop the ``HAS_RESIDUAL`` add of an fp32 tile loaded without ``other`` and
``acc.to(db_ptr.dtype.element_ty)`` stored under the ragged mask. The library's ``@triton.autotune`` over nine
(BLOCK_SIZE_M, BLOCK_SIZE_N, BLOCK_SIZE_CS, stages, warps) configs keyed on (chunk_size, K), so the launch passes no
block sizes. C fp16 (rather than bf16: the CPU interpreter of Triton 3.6 computes bf16 tl.dot wrongly), dCB and the
residual fp32, dB fp16."""
from __future__ import annotations

import contextlib
import math
from typing import Any

import torch
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_bmm_chunk_bwd_kernel",
    "signature": {"a_ptr": "*fp16", "dout_ptr": "*fp32", "db_ptr": "*fp16", "res_ptr": "*fp32",
                  "seqlen": "i32", "chunk_size": "i32", "K": "i32", "ngroups": "i32",
                  "stride_a_batch": "i32", "stride_a_seqlen": "i32", "stride_a_head": "i32", "stride_ak": "constexpr",
                  "stride_dout_batch": "i32", "stride_dout_chunk": "i32", "stride_dout_head": "i32",
                  "stride_dout_csize_m": "i32", "stride_dout_csize_n": "constexpr",
                  "stride_db_batch": "i32", "stride_db_seqlen": "i32", "stride_db_head": "i32",
                  "stride_db_k": "constexpr",
                  "stride_res_batch": "i32", "stride_res_seqlen": "i32", "stride_res_head": "i32",
                  "stride_res_k": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_dout_csize_n": 1, "stride_db_k": 1, "stride_res_k": 1,
                   "dot_dtype": "fp16", "HAS_RESIDUAL": True,
                   "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_CS": 32},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["a_ptr", "dout_ptr", "db_ptr", "res_ptr", "chunk_size", "K", "stride_a_batch",
                     "stride_a_seqlen", "stride_a_head", "stride_dout_batch", "stride_dout_chunk", "stride_dout_head",
                     "stride_dout_csize_m", "stride_db_batch", "stride_db_seqlen", "stride_db_head",
                     "stride_res_batch", "stride_res_seqlen", "stride_res_head"]}
PROBLEM: dict[str, int] = {"batch": 8, "seqlen": 4096, "ngroups": 8, "dstate": 128, "chunk_size": 256}
SMALL: dict[str, int] = {"batch": 2, "seqlen": 300, "ngroups": 2, "dstate": 48, "chunk_size": 256}


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_CS': 64}, num_stages=3, num_warps=8),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_CS': 32}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_CS': 32}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_CS': 32}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_CS': 32}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_CS': 32}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_CS': 32}, num_stages=5, num_warps=2),
        triton.Config({'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_CS': 32}, num_stages=5, num_warps=2),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_CS': 32}, num_stages=4, num_warps=2),
    ],
    key=['chunk_size', 'K'],
)
@triton.jit
def _bmm_chunk_bwd_kernel(
    # Pointers to matrices
    a_ptr, dout_ptr, db_ptr, res_ptr,
    # Matrix dimensions
    seqlen, chunk_size, K, ngroups,
    stride_a_batch, stride_a_seqlen, stride_a_head, stride_ak,
    stride_dout_batch, stride_dout_chunk, stride_dout_head, stride_dout_csize_m, stride_dout_csize_n,
    stride_db_batch, stride_db_seqlen, stride_db_head, stride_db_k,
    stride_res_batch, stride_res_seqlen, stride_res_head, stride_res_k,
    # Meta-parameters
    dot_dtype: tl.constexpr,
    HAS_RESIDUAL: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_CS: tl.constexpr,
):
    # twill corpus rendition: dB = dCB^T @ C over the chunk's positions, a residual added after the loop
    pid_b = tl.program_id(axis=1)
    pid_ch = tl.program_id(axis=2)
    pid_c = pid_ch // ngroups
    pid_h = pid_ch - pid_c * ngroups
    num_pid_n = tl.cdiv(K, BLOCK_SIZE_N)
    pid_m = tl.program_id(axis=0) // num_pid_n
    pid_n = tl.program_id(axis=0) % num_pid_n

    a_ptr += pid_b * stride_a_batch + pid_c * chunk_size * stride_a_seqlen + pid_h * stride_a_head
    dout_ptr += pid_b * stride_dout_batch + pid_c * stride_dout_chunk + pid_h * stride_dout_head

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_cs = tl.arange(0, BLOCK_SIZE_CS)
    dout_ptrs = dout_ptr + (offs_m[:, None] * stride_dout_csize_n + offs_cs[None, :] * stride_dout_csize_m)
    a_ptrs = a_ptr + (offs_cs[:, None] * stride_a_seqlen + offs_n[None, :] * stride_ak)
    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for cs in range(0, tl.cdiv(chunk_size_limit, BLOCK_SIZE_CS)):
        dout = tl.load(dout_ptrs, mask=(offs_m[:, None] < chunk_size)
                       & (offs_cs[None, :] < chunk_size_limit - cs * BLOCK_SIZE_CS), other=0.0).to(dot_dtype)
        a = tl.load(a_ptrs, mask=(offs_cs[:, None] < chunk_size_limit - cs * BLOCK_SIZE_CS) & (offs_n[None, :] < K),
                    other=0.0).to(dot_dtype)
        acc += tl.dot(dout, a)
        dout_ptrs += BLOCK_SIZE_CS * stride_dout_csize_m
        a_ptrs += BLOCK_SIZE_CS * stride_a_seqlen

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    if HAS_RESIDUAL:
        res_ptr += pid_b * stride_res_batch + pid_c * chunk_size * stride_res_seqlen + pid_h * stride_res_head
        res_ptrs = res_ptr + (offs_m[:, None] * stride_res_seqlen + offs_n[None, :] * stride_res_k)
        res = tl.load(res_ptrs, mask=(offs_m[:, None] < chunk_size_limit) & (offs_n[None, :] < K)).to(tl.float32)
        acc += res
    db = acc.to(db_ptr.dtype.element_ty)

    db_ptr += pid_b * stride_db_batch + pid_c * chunk_size * stride_db_seqlen + pid_h * stride_db_head
    db_ptrs = db_ptr + (offs_m[:, None] * stride_db_seqlen + offs_n[None, :] * stride_db_k)
    tl.store(db_ptrs, db, mask=(offs_m[:, None] < chunk_size_limit) & (offs_n[None, :] < K))


def make_inputs(batch: int, seqlen: int, ngroups: int, dstate: int, chunk_size: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """C [batch, seqlen, ngroups, dstate] fp16; dCB [batch, nchunks, ngroups, cs, cs] fp32 (as the chunk scan's
    backward leaves it, zero past the sequence's end); the residual dB [batch, seqlen, ngroups, dstate] fp32 (the
    chunk state's share of the gradient)."""
    g = torch.Generator(device=device).manual_seed(seed)
    nchunks = math.ceil(seqlen / chunk_size)
    a = (torch.randn((batch, seqlen, ngroups, dstate), device=device, generator=g) / 4).half()
    dcb = torch.randn((batch, nchunks, ngroups, chunk_size, chunk_size), device=device, generator=g) / 8
    pos = torch.arange(nchunks * chunk_size, device=device).view(nchunks, chunk_size) < seqlen
    dcb = dcb * (pos[:, :, None] & pos[:, None, :])[None, :, None]
    res = torch.randn((batch, seqlen, ngroups, dstate), device=device, generator=g)
    return {"a": a, "dout": dcb.contiguous(), "residual": res}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """dB [batch, seqlen, ngroups, dstate] fp16, as ``_bmm_chunk_bwd(C, dCB, residual=dB)`` computes it."""
    a, dout, residual, out = inputs["a"], inputs["dout"], inputs["residual"], None
    has_groups = a.dim() == 4
    if not has_groups:
        batch, seqlen, k = a.shape
    else:
        batch, seqlen, ngroups, k = a.shape
    nchunks, chunk_size = dout.shape[1], dout.shape[-1]
    if a.stride(-1) != 1 and a.stride(-2) != 1:
        a = a.contiguous()
    if dout.stride(-1) != 1 and dout.stride(-2) != 1:
        dout = dout.contiguous()
    if residual is not None:
        assert residual.shape == ((batch, seqlen, k) if not has_groups else (batch, seqlen, ngroups, k))
        if residual.stride(-1) != 1 and residual.stride(1) != 1:
            residual = residual.contiguous()
    out = torch.empty_like(a)
    dot_dtype = (tl.bfloat16 if a.dtype == torch.bfloat16 or dout.dtype == torch.bfloat16 else
                 (tl.float16 if a.dtype == torch.float16 or dout.dtype == torch.float16 else tl.float32))
    grid = lambda META: (  # noqa: E731
        triton.cdiv(chunk_size, META['BLOCK_SIZE_M']) * triton.cdiv(k, META['BLOCK_SIZE_N']), batch,
        nchunks if not has_groups else nchunks * ngroups)
    residual_strides = ((residual.stride(0), residual.stride(1), 0 if not has_groups else residual.stride(2),
                         residual.stride(-1)) if residual is not None else (0, 0, 0, 0))
    # the library's `with torch.cuda.device(a.device.index):`, a no-op off the GPU (the CPU interpreter, dry runs)
    with (torch.cuda.device(a.device.index) if a.device.type == "cuda" else contextlib.nullcontext()):
        _bmm_chunk_bwd_kernel[grid](
            a, dout, out, residual,
            seqlen, chunk_size, k, ngroups if has_groups else 1,
            a.stride(0), a.stride(1), 0 if not has_groups else a.stride(2), a.stride(-1),
            dout.stride(0), dout.stride(1), 0 if not has_groups else dout.stride(2), dout.stride(-2),
            dout.stride(-1),
            out.stride(0), out.stride(1), 0 if not has_groups else out.stride(2), out.stride(-1),
            residual_strides[0], residual_strides[1], residual_strides[2], residual_strides[3],
            dot_dtype,
            HAS_RESIDUAL=residual is not None,
        )
    return out


def reference(inputs: dict[str, Any]) -> Any:
    a, dout, res = inputs["a"].double(), inputs["dout"].double(), inputs["residual"].double()
    batch, seqlen, ngroups, k = a.shape
    nchunks, cs = dout.shape[1], dout.shape[-1]
    pad = nchunks * cs - seqlen
    ap = torch.nn.functional.pad(a, (0, 0, 0, 0, 0, pad)).view(batch, nchunks, cs, ngroups, k)
    db = torch.einsum("bcgsl,bcsgk->bclgk", dout, ap).reshape(batch, nchunks * cs, ngroups, k)[:, :seqlen]
    return db + res


def flops(batch: int, seqlen: int, ngroups: int, dstate: int, chunk_size: int) -> float:
    return 2.0 * batch * seqlen * ngroups * dstate * chunk_size
