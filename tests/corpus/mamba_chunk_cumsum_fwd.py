"""Mamba-2's ``_chunk_cumsum_fwd_kernel`` (mamba_ssm/ops/triton/ssd_chunk_state.py, also vLLM's copy in
vllm/model_executor/layers/mamba/ops/ssd_chunk_state.py, rewritten here): the first kernel of the SSD scan. A 3-D grid
over (batch, chunk, head block); each program loads a [BLOCK_SIZE_H, BLOCK_SIZE_CHUNK] tile of dt (heads by the
chunk's positions, read transposed from dt's [batch, seqlen, nheads] layout), adds dt_bias per head
(``HAS_DT_BIAS``), takes Mamba's ``softplus`` helper (a ``tl.where(dt <= 20.0, log(exp(dt) + 1), dt)`` @triton.jit
function), clamps to ``dt_limit`` with ``tl.minimum(tl.maximum(dt, dt_min), dt_max)`` (Mamba's comment: "tl.clamp is
not available yet"; dt_min / dt_max fp32 runtime scalars, the default limit (0, inf)), zeroes the positions past
the sequence's end (``chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)``: the last chunk ragged),
stores dt, and stores ``tl.cumsum(dt * A[:, None], axis=1)``: a scan along the chunk's 256 positions. The
construct: a kernel with NO loop at all (the whole chunk is one tile; the scan is ``tl.cumsum``), which twill must
refuse in one line. BLOCK_SIZE_H = 2 of the autotuner's seven configs (1..64 heads), BLOCK_SIZE_CHUNK =
next_power_of_2(chunk_size) = 256; fp16 dt where Mamba runs bf16 (Triton's interpreter mishandles bf16); fp32 A,
dt_bias and outputs as Mamba keeps them."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

CHUNK = 256
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_chunk_cumsum_fwd_kernel",
    "signature": {"dt_ptr": "*fp16", "A_ptr": "*fp32", "dt_bias_ptr": "*fp32", "dt_out_ptr": "*fp32",
                  "dA_cumsum_ptr": "*fp32", "batch": "i32", "seqlen": "i32", "nheads": "i32", "chunk_size": "i32",
                  "dt_min": "fp32", "dt_max": "fp32",
                  "stride_dt_batch": "i32", "stride_dt_seqlen": "i32", "stride_dt_head": "i32",
                  "stride_A_head": "i32", "stride_dt_bias_head": "i32",
                  "stride_dt_out_batch": "i32", "stride_dt_out_chunk": "i32", "stride_dt_out_head": "i32",
                  "stride_dt_out_csize": "i32",
                  "stride_dA_cs_batch": "i32", "stride_dA_cs_chunk": "i32", "stride_dA_cs_head": "i32",
                  "stride_dA_cs_csize": "i32"},
    "constexprs": {"DT_SOFTPLUS": True, "HAS_DT_BIAS": True, "BLOCK_SIZE_H": 2, "BLOCK_SIZE_CHUNK": CHUNK},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["dt_ptr", "A_ptr", "dt_bias_ptr", "dt_out_ptr", "dA_cumsum_ptr", "seqlen", "chunk_size",
                     "stride_dt_batch", "stride_dt_seqlen", "stride_dt_out_batch", "stride_dt_out_chunk",
                     "stride_dt_out_head", "stride_dA_cs_batch", "stride_dA_cs_chunk", "stride_dA_cs_head"]}
PROBLEM: dict[str, Any] = {"batch": 4, "seqlen": 16384, "nheads": 80}      # Mamba-2 2.7B: 80 heads of 64
SMALL: dict[str, Any] = {"batch": 2, "seqlen": 700, "nheads": 5}           # 3 chunks, the last ragged; 5 heads


@triton.jit
def softplus(dt):
    dt = tl.where(dt <= 20.0, tl.math.log(tl.math.exp(dt) + 1), dt)
    return dt


@triton.jit
def _chunk_cumsum_fwd_kernel(
    # Pointers to matrices
    dt_ptr, A_ptr, dt_bias_ptr, dt_out_ptr, dA_cumsum_ptr,
    # Matrix dimension
    batch, seqlen, nheads, chunk_size,
    dt_min, dt_max,
    # Strides
    stride_dt_batch, stride_dt_seqlen, stride_dt_head,
    stride_A_head,
    stride_dt_bias_head,
    stride_dt_out_batch, stride_dt_out_chunk, stride_dt_out_head, stride_dt_out_csize,
    stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_dA_cs_csize,
    # Meta-parameters
    DT_SOFTPLUS: tl.constexpr,
    HAS_DT_BIAS: tl.constexpr,
    BLOCK_SIZE_H: tl.constexpr, BLOCK_SIZE_CHUNK: tl.constexpr,
):
    pid_b = tl.program_id(axis=0)
    pid_c = tl.program_id(axis=1)
    pid_h = tl.program_id(axis=2)
    dt_ptr += pid_b * stride_dt_batch + pid_c * chunk_size * stride_dt_seqlen
    dt_out_ptr += pid_b * stride_dt_out_batch + pid_c * stride_dt_out_chunk
    dA_cumsum_ptr += pid_b * stride_dA_cs_batch + pid_c * stride_dA_cs_chunk

    offs_h = pid_h * BLOCK_SIZE_H + tl.arange(0, BLOCK_SIZE_H)
    offs_c = tl.arange(0, BLOCK_SIZE_CHUNK)
    dt_ptrs = dt_ptr + (offs_h[:, None] * stride_dt_head + offs_c[None, :] * stride_dt_seqlen)
    A_ptrs = A_ptr + offs_h * stride_A_head
    dt_out_ptrs = dt_out_ptr + (offs_h[:, None] * stride_dt_out_head + offs_c[None, :] * stride_dt_out_csize)
    dA_cs_ptrs = dA_cumsum_ptr + (offs_h[:, None] * stride_dA_cs_head + offs_c[None, :] * stride_dA_cs_csize)
    chunk_size_limit = min(chunk_size, seqlen - pid_c * chunk_size)

    dt = tl.load(dt_ptrs, mask=(offs_h[:, None] < nheads) & (offs_c[None, :] < chunk_size_limit),
                 other=0.0).to(tl.float32)
    if HAS_DT_BIAS:
        dt_bias = tl.load(dt_bias_ptr + offs_h * stride_dt_bias_head, mask=offs_h < nheads, other=0.0).to(tl.float32)
        dt += dt_bias[:, None]
    if DT_SOFTPLUS:
        dt = softplus(dt)
    # As of Triton 2.2.0, tl.clamp is not available yet
    # dt = tl.clamp(dt, dt_min, dt_max)
    dt = tl.minimum(tl.maximum(dt, dt_min), dt_max)
    dt = tl.where((offs_h[:, None] < nheads) & (offs_c[None, :] < chunk_size_limit), dt, 0.0)
    tl.store(dt_out_ptrs, dt, mask=(offs_h[:, None] < nheads) & (offs_c[None, :] < chunk_size))
    A = tl.load(A_ptrs, mask=offs_h < nheads, other=0.0).to(tl.float32)
    dA = dt * A[:, None]
    dA_cs = tl.cumsum(dA, axis=1)
    tl.store(dA_cs_ptrs, dA_cs, mask=(offs_h[:, None] < nheads) & (offs_c[None, :] < chunk_size))


def make_inputs(batch: int, seqlen: int, nheads: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """dt [batch, seqlen, nheads] fp16 (pre-softplus, as the in-projection leaves it), A = -exp(A_log) [nheads] and
    dt_bias [nheads] fp32 as Mamba-2 initialises them (dt_bias the inverse softplus of dt in [0.001, 0.1])."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    dt = (torch.randn((batch, seqlen, nheads), device=device, generator=g) * 2.0).half()
    A = -torch.exp(torch.rand((nheads,), device=device, generator=g) * math.log(16.0))
    dt0 = torch.exp(torch.rand((nheads,), device=device, generator=g) * (math.log(0.1) - math.log(0.001))
                    + math.log(0.001))
    dt_bias = dt0 + torch.log(-torch.expm1(-dt0))
    return {"dt": dt, "A": A, "dt_bias": dt_bias, "dt_limit": (0.0, float("inf"))}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dA_cumsum, dt_out), each [batch, nheads, nchunks, chunk_size] fp32, as ``_chunk_cumsum_fwd(dt, A,
    chunk_size, dt_bias=dt_bias, dt_softplus=True, dt_limit=(0.0, inf))`` returns them."""
    import torch
    dt, A, dt_bias = inputs["dt"], inputs["A"], inputs["dt_bias"]
    dt_limit = inputs["dt_limit"]
    chunk_size = CHUNK
    batch, seqlen, nheads = dt.shape
    assert A.shape == (nheads,)
    if dt_bias is not None:
        assert dt_bias.shape == (nheads,)
    nchunks = math.ceil(seqlen / chunk_size)
    dt_out = torch.empty(batch, nheads, nchunks, chunk_size, device=dt.device, dtype=torch.float32)
    dA_cumsum = torch.empty(batch, nheads, nchunks, chunk_size, device=dt.device, dtype=torch.float32)
    BLOCK_SIZE_H = config.get("BLOCK_SIZE_H", 2)
    grid_chunk_cs = (batch, nchunks, triton.cdiv(nheads, BLOCK_SIZE_H))
    _chunk_cumsum_fwd_kernel[grid_chunk_cs](
        dt, A, dt_bias, dt_out, dA_cumsum,
        batch, seqlen, nheads, chunk_size,
        dt_limit[0], dt_limit[1],
        dt.stride(0), dt.stride(1), dt.stride(2),
        A.stride(0),
        dt_bias.stride(0) if dt_bias is not None else 0,
        dt_out.stride(0), dt_out.stride(2), dt_out.stride(1), dt_out.stride(3),
        dA_cumsum.stride(0), dA_cumsum.stride(2), dA_cumsum.stride(1), dA_cumsum.stride(3),
        DT_SOFTPLUS=True,
        HAS_DT_BIAS=dt_bias is not None,
        BLOCK_SIZE_H=BLOCK_SIZE_H, BLOCK_SIZE_CHUNK=triton.next_power_of_2(chunk_size),
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return dA_cumsum, dt_out


def reference(inputs: dict[str, Any]) -> Any:
    """float64: softplus(dt + bias) clamped, zero-padded to whole chunks, its chunk-local cumsum times A."""
    import torch
    dt = inputs["dt"].double() + inputs["dt_bias"].double()
    dt = torch.nn.functional.softplus(dt)
    lo, hi = inputs["dt_limit"]
    dt = dt.clamp(min=lo, max=hi)
    batch, seqlen, nheads = dt.shape
    nchunks = math.ceil(seqlen / CHUNK)
    dt = torch.nn.functional.pad(dt, (0, 0, 0, nchunks * CHUNK - seqlen))       # zeros past the end
    dt = dt.reshape(batch, nchunks, CHUNK, nheads).permute(0, 3, 1, 2)           # [batch, nheads, nchunks, chunk]
    dA_cumsum = torch.cumsum(dt * inputs["A"].double()[None, :, None, None], dim=-1)
    return dA_cumsum, dt
