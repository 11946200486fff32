"""Mamba-2's ``_bmm_chunk_fwd_kernel`` (mamba_ssm/ops/triton/ssd_bmm.py, as ``_bmm_chunk_fwd`` launches it): per
(M x N tile of the chunk, batch, chunk*group) program, ``out = a_chunk @ b_chunk^T`` (C @ B^T within each chunk,
with groups): ``@triton.autotune`` over BLOCK_SIZE_M/N/K (key chunk_size, K, IS_CAUSAL), an ``IS_CAUSAL`` early
``return`` for tiles strictly above the diagonal, a K loop over dstate with masked loads (ragged chunk limit
``min(chunk_size, seqlen - pid_c * chunk_size)`` as a runtime ``min``, K tail), operands cast to a ``dot_dtype``
constexpr (a tl dtype), ``acc += tl.dot(a, b)`` in fp32, the ``HAS_SEQ_IDX`` gate ``tl.where(seq_idx_m ==
seq_idx_n, acc, 0)`` after the loop, and ``acc.to(out_ptr.dtype.element_ty)``. fp16 in, fp16 out,
causal (fp16 rather than bf16: the CPU interpreter of Triton 3.6 computes bf16 tl.dot wrongly).

The launch is the library's: the autotuner picks the blocks, so no BLOCK_* kwargs and no num_warps/num_stages are
passed (an autotuned kernel refuses them); ``config`` is accepted and ignored. The autotuner benchmarks its nine
configs, which the CPU interpreter cannot do. Tiles above the diagonal are never written (the library leaves them as
``torch.empty``): this launch zeroes them (``torch.zeros``) and the reference zeroes the same tiles, for the
spec's 128 x 128 blocks."""
from __future__ import annotations

import contextlib
import math
from typing import Any

import torch
import triton
import triton.language as tl

BM, BN = 128, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_bmm_chunk_fwd_kernel",
    "signature": {"a_ptr": "*fp16", "b_ptr": "*fp16", "out_ptr": "*fp16", "seq_idx_ptr": "*i32",
                  "seqlen": "i32", "chunk_size": "i32", "K": "i32", "ngroups": "i32",
                  "stride_a_batch": "i32", "stride_a_seqlen": "i32", "stride_a_head": "i32", "stride_ak": "constexpr",
                  "stride_b_batch": "i32", "stride_b_seqlen": "i32", "stride_b_head": "i32", "stride_bk": "constexpr",
                  "stride_out_batch": "i32", "stride_out_chunk": "i32", "stride_out_head": "i32",
                  "stride_outm": "i32", "stride_outn": "constexpr",
                  "stride_seq_idx_batch": "i32", "stride_seq_idx_seqlen": "constexpr"},
    "constexprs": {"stride_ak": 1, "stride_bk": 1, "stride_outn": 1, "stride_seq_idx_seqlen": 1,
                   "IS_CAUSAL": True, "dot_dtype": "fp16", "HAS_SEQ_IDX": True,
                   "BLOCK_SIZE_M": BM, "BLOCK_SIZE_N": BN, "BLOCK_SIZE_K": 32},
    "num_warps": 4, "num_stages": 4,
    "divisibility": ["chunk_size", "K", "stride_a_batch", "stride_a_seqlen", "stride_a_head", "stride_b_batch",
                     "stride_b_seqlen", "stride_b_head", "stride_out_batch", "stride_out_chunk", "stride_out_head",
                     "stride_outm"]}
PROBLEM: dict[str, int] = {"batch": 8, "seqlen": 4096, "ngroups": 8, "dstate": 128, "chunk_size": 256}
SMALL: dict[str, int] = {"batch": 2, "seqlen": 300, "ngroups": 2, "dstate": 48, "chunk_size": 256}


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 64}, num_stages=3, num_warps=8),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32}, num_stages=5, num_warps=2),
        triton.Config({'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32}, num_stages=5, num_warps=2),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32}, num_stages=4, num_warps=2),
    ],
    key=['chunk_size', 'K', 'IS_CAUSAL'],
)
@triton.jit
def _bmm_chunk_fwd_kernel(
    # Pointers to matrices
    a_ptr, b_ptr, out_ptr, seq_idx_ptr,
    # Matrix dimensions
    seqlen, chunk_size, K, ngroups,
    stride_a_batch, stride_a_seqlen, stride_a_head, stride_ak,
    stride_b_batch, stride_b_seqlen, stride_b_head, stride_bk,
    stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_outn,
    stride_seq_idx_batch, stride_seq_idx_seqlen,
    # Meta-parameters
    IS_CAUSAL: tl.constexpr,
    dot_dtype: tl.constexpr,
    HAS_SEQ_IDX: tl.constexpr,
    BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
):
    pid_b = tl.program_id(axis=1)
    pid_ch = tl.program_id(axis=2)
    pid_c = pid_ch // ngroups
    pid_h = pid_ch - pid_c * ngroups
    num_pid_n = tl.cdiv(chunk_size, BLOCK_SIZE_N)
    pid_m = tl.program_id(axis=0) // num_pid_n
    pid_n = tl.program_id(axis=0) % num_pid_n
    if IS_CAUSAL:
        if pid_n * BLOCK_SIZE_N >= (pid_m + 1) * BLOCK_SIZE_M:
            return
    a_ptr += pid_b * stride_a_batch + pid_c * chunk_size * stride_a_seqlen + pid_h * stride_a_head
    b_ptr += pid_b * stride_b_batch + pid_c * chunk_size * stride_b_seqlen + pid_h * stride_b_head
    if HAS_SEQ_IDX:
        seq_idx_ptr += pid_b * stride_seq_idx_batch + pid_c * chunk_size * stride_seq_idx_seqlen

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_m[:, None] * stride_a_seqlen + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_n[None, :] * stride_b_seqlen)
    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < chunk_size_limit) & (offs_k[None, :] < K - k * BLOCK_SIZE_K),
                    other=0.0).to(dot_dtype)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BLOCK_SIZE_K) & (offs_n[None, :] < chunk_size_limit),
                    other=0.0).to(dot_dtype)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    if HAS_SEQ_IDX:
        chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)
        seq_idx_m = tl.load(seq_idx_ptr + offs_m * stride_seq_idx_seqlen, mask=offs_m < chunk_size_limit, other=-1)
        seq_idx_n = tl.load(seq_idx_ptr + offs_n * stride_seq_idx_seqlen, mask=offs_n < chunk_size_limit, other=-2)
        acc = tl.where(seq_idx_m[:, None] == seq_idx_n[None, :], acc, 0.0)
    out = acc.to(out_ptr.dtype.element_ty)

    out_ptr += pid_b * stride_out_batch + pid_c * stride_out_chunk + pid_h * stride_out_head
    out_ptrs = out_ptr + (stride_outm * offs_m[:, None] + offs_n[None, :] * stride_outn)
    tl.store(out_ptrs, out, mask=(offs_m[:, None] < chunk_size) & (offs_n[None, :] < chunk_size))


def make_inputs(batch: int, seqlen: int, ngroups: int, dstate: int, chunk_size: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """C and B [batch, seqlen, ngroups, dstate] fp16; seq_idx [batch, seqlen] int32 with sequence boundaries inside
    chunks (packed variable-length sequences)."""
    g = torch.Generator(device=device).manual_seed(seed)
    a = (torch.randn((batch, seqlen, ngroups, dstate), device=device, generator=g) / dstate ** 0.25).half()
    b = (torch.randn((batch, seqlen, ngroups, dstate), device=device, generator=g) / dstate ** 0.25).half()
    cuts = torch.randint(1, seqlen, (batch, 3), device=device, generator=g)
    pos = torch.arange(seqlen, device=device)
    seq_idx = (pos[None, :, None] >= cuts[:, None, :]).sum(-1).to(torch.int32).contiguous()
    return {"a": a, "b": b, "seq_idx": seq_idx, "chunk_size": chunk_size}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out [batch, nchunks, ngroups, chunk_size, chunk_size] fp16, as ``_bmm_chunk_fwd(C, B, chunk_size,
    seq_idx=seq_idx, causal=True)`` computes it."""
    a, b, seq_idx, chunk_size = inputs["a"], inputs["b"], inputs["seq_idx"], inputs["chunk_size"]
    causal, output_dtype = True, None
    has_groups = a.dim() == 4
    if not has_groups:
        batch, seqlen, k = a.shape
    else:
        batch, seqlen, ngroups, k = a.shape
    assert b.shape == a.shape
    if seq_idx is not None:
        assert seq_idx.shape == (batch, seqlen)
    if a.stride(-1) != 1 and a.stride(1) != 1:
        a = a.contiguous()
    if b.stride(-1) != 1 and b.stride(1) != 1:
        b = b.contiguous()
    nchunks = math.ceil(seqlen / chunk_size)
    # Allocates output.
    out_dtype = a.dtype if output_dtype is None else output_dtype
    out = torch.zeros((batch, nchunks, chunk_size, chunk_size) if not has_groups
                      else (batch, nchunks, ngroups, chunk_size, chunk_size), device=a.device, dtype=out_dtype)
    dot_dtype = (tl.bfloat16 if a.dtype == torch.bfloat16 or b.dtype == torch.bfloat16 else
                 (tl.float16 if a.dtype == torch.float16 or b.dtype == torch.float16 else tl.float32))
    grid = lambda META: (triton.cdiv(chunk_size, META['BLOCK_SIZE_M']) * triton.cdiv(chunk_size, META['BLOCK_SIZE_N']),
                         batch, nchunks if not has_groups else nchunks * ngroups)
    # the library's `with torch.cuda.device(a.device.index):`, a no-op off the GPU (the CPU interpreter, dry runs)
    with (torch.cuda.device(a.device.index) if a.device.type == "cuda" else contextlib.nullcontext()):
        _bmm_chunk_fwd_kernel[grid](
            a, b, out, seq_idx,
            seqlen, chunk_size, k, ngroups if has_groups else 1,
            a.stride(0), a.stride(1), 0 if not has_groups else a.stride(2), a.stride(-1),
            b.stride(0), b.stride(1), 0 if not has_groups else b.stride(2), b.stride(-1),
            out.stride(0), out.stride(1), 0 if not has_groups else out.stride(2), out.stride(-2), out.stride(-1),
            *((seq_idx.stride(0), seq_idx.stride(1)) if seq_idx is not None else (0, 0)),
            causal,
            dot_dtype,
            HAS_SEQ_IDX=seq_idx is not None,
        )
    return out


def reference(inputs: dict[str, Any]) -> Any:
    a, b, seq_idx, cs = inputs["a"].double(), inputs["b"].double(), inputs["seq_idx"], inputs["chunk_size"]
    batch, seqlen, ngroups, k = a.shape
    nchunks = math.ceil(seqlen / cs)
    pad = nchunks * cs - seqlen
    ap = torch.nn.functional.pad(a, (0, 0, 0, 0, 0, pad)).view(batch, nchunks, cs, ngroups, k)
    bp = torch.nn.functional.pad(b, (0, 0, 0, 0, 0, pad)).view(batch, nchunks, cs, ngroups, k)
    out = torch.einsum("bcmgk,bcngk->bcgmn", ap, bp)
    sp = torch.nn.functional.pad(seq_idx.long(), (0, pad), value=-1).view(batch, nchunks, cs)
    same = sp[:, :, :, None] == sp[:, :, None, :]
    out = out * same[:, :, None].to(out.dtype)
    i = torch.arange(cs, device=a.device)
    skipped = (i[None, :] // BN) * BN >= (i[:, None] // BM + 1) * BM     # tiles the causal early return skips
    return out.masked_fill(skipped, 0.0)
