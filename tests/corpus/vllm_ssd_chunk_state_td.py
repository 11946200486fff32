"""vLLM's Mamba-2 SSD chunk-state kernel, ``_chunk_state_fwd_kernel`` (vllm-project/vllm
vllm/model_executor/layers/mamba/ops/ssd_chunk_state.py, launched by ``_chunk_state_fwd``; its ``fast_exp`` helper
from triton_helpers.py kept as a separate @triton.jit function), in its newest form: **varlen chunks** whose bounds
come from ``cu_chunk_seqlens`` (chunks are cut at sequence boundaries, so a chunk holds 1 to chunk_size tokens) and
the **tensor-descriptor path** (``USE_TD=True``, what vLLM picks where ``use_tensor_descriptor()`` holds and the
operands are 16-byte aligned: TMA on sm90). Per (hdim x dstate tile, chunk, head): states[c, h] =
x[chunk, h]^T @ (B[chunk, g] * exp(min(dA_cs_last - dA_cs_k, 0)) * dt_k).

The constructs: ``tl.int64``-annotated stride parameters and ``tl.constexpr`` ones (the unit strides, hdim, dstate,
chunk_size, the heads-per-group ratio: one compile per model); the chunk's start and end **loaded** (``tl.load
(cu_chunk_seqlens_ptr + pid_c)`` with pid_c widened to int64) and the chunk's length ``chunk_size_limit`` used as
the **runtime bound of the K loop** ``for k in range(0, chunk_size_limit, BLOCK_SIZE_K)`` (its induction variable the
token offset itself); base pointers advanced by loaded offsets before **two tensor descriptors made in the kernel
under ``if USE_TD:``** (``tl.make_tensor_descriptor`` over [chunk_size_limit, hdim] and [chunk_size_limit, dstate]:
a **runtime shape**, so the descriptor's zero fill replaces the masks on the chunk's tail); in the loop a
**constexpr ``if USE_TD: ... else:``** choosing descriptor loads (``x_desc.load([k, pid_m * BLOCK_SIZE_M])``
**transposed** by ``tl.trans``, B's tile cast to fp32) over masked pointer loads, the dt and dA_cumsum vectors loaded
through pointers either way (masked on the tail), B scaled by ``fast_exp(tl.minimum(...)) * dt`` per row, cast back
to x's dtype and fed to ``tl.dot`` accumulating fp32; the pointer-path increments under a constexpr ``if not
USE_TD:``, the dt / dA ones unconditional; after the loop the state stored **through a third descriptor** (a
constexpr ``if / else`` with a masked pointer store in the other arm). ``@triton.autotune`` over vLLM's 14 configs
(the file's tile is the one for hdim 64, dstate 128: 64 x 128 x 64, 4 warps, 2 stages). Mamba2-2.7B's shapes:
80 heads of 64, one group, dstate 128, chunk 256, bf16 x and B, fp32 dt / dA_cumsum / states; a varlen prefill of
8 sequences, 8,192 tokens. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

HDIM, DSTATE, CHUNK = 64, 128, 256
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_chunk_state_fwd_kernel",
    "signature": {"x_ptr": "*bf16", "b_ptr": "*bf16", "states_ptr": "*fp32", "dt_ptr": "*fp32",
                  "dA_cumsum_ptr": "*fp32", "cu_chunk_seqlens_ptr": "*i32",
                  "hdim": "constexpr", "dstate": "constexpr", "chunk_size": "constexpr",
                  "nheads_ngroups_ratio": "constexpr",
                  "stride_x_seqlen": "i64", "stride_x_head": "i64", "stride_x_hdim": "constexpr",
                  "stride_b_seqlen": "i64", "stride_b_head": "i64", "stride_b_dstate": "constexpr",
                  "stride_states_chunk": "i64", "stride_states_head": "i64", "stride_states_hdim": "i64",
                  "stride_states_dstate": "constexpr", "stride_dt_head": "i64", "stride_dt_chunk": "i64",
                  "stride_dt_csize": "constexpr", "stride_dA_cs_head": "i64", "stride_dA_cs_chunk": "i64",
                  "stride_dA_cs_csize": "constexpr"},
    "constexprs": {"hdim": HDIM, "dstate": DSTATE, "chunk_size": CHUNK, "nheads_ngroups_ratio": 80,
                   "stride_x_hdim": 1, "stride_b_dstate": 1, "stride_states_dstate": 1, "stride_dt_csize": 1,
                   "stride_dA_cs_csize": 1,
                   "BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "USE_TD": True},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["x_ptr", "b_ptr", "states_ptr", "dt_ptr", "dA_cumsum_ptr", "cu_chunk_seqlens_ptr",
                     "stride_x_seqlen", "stride_x_head", "stride_b_seqlen", "stride_b_head", "stride_states_chunk",
                     "stride_states_head", "stride_states_hdim", "stride_dt_head", "stride_dt_chunk",
                     "stride_dA_cs_head", "stride_dA_cs_chunk"]}
PROBLEM: dict[str, int] = {"T": 8192, "NSEQ": 8, "H": 80, "G": 1}
SMALL: dict[str, int] = {"T": 700, "NSEQ": 3, "H": 4, "G": 2}


@triton.jit
def fast_exp(x):
    # exp(x) = exp2(x * log2(e)), where log2(e) = 1/ln(2) = 1.4426950408889634
    LOG2E = tl.constexpr(1.4426950408889634)
    return tl.math.exp2(LOG2E * x)


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32}, num_stages=3, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32}, num_stages=3, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32}, num_stages=3, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64}, num_stages=2, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64}, num_stages=2, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64}, num_stages=3, num_warps=8),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 32}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32}, num_stages=4, num_warps=4),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 32}, num_stages=5, num_warps=2),
        triton.Config({"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32}, num_stages=5, num_warps=2),
        triton.Config({"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32}, num_stages=4, num_warps=2),
    ],
    key=["hdim", "dstate", "chunk_size", "USE_TD"],
)
@triton.jit
def _chunk_state_fwd_kernel(
    # Pointers to matrices
    x_ptr,
    b_ptr,
    states_ptr,
    dt_ptr,
    dA_cumsum_ptr,
    cu_chunk_seqlens_ptr,
    # Matrix dimensions
    hdim: tl.constexpr,
    dstate: tl.constexpr,
    chunk_size: tl.constexpr,
    nheads_ngroups_ratio: tl.constexpr,
    # Strides
    stride_x_seqlen: tl.int64,
    stride_x_head: tl.int64,
    stride_x_hdim: tl.constexpr,
    stride_b_seqlen: tl.int64,
    stride_b_head: tl.int64,
    stride_b_dstate: tl.constexpr,
    stride_states_chunk: tl.int64,
    stride_states_head: tl.int64,
    stride_states_hdim: tl.int64,
    stride_states_dstate: tl.constexpr,
    stride_dt_head: tl.int64,
    stride_dt_chunk: tl.int64,
    stride_dt_csize: tl.constexpr,
    stride_dA_cs_head: tl.int64,
    stride_dA_cs_chunk: tl.int64,
    stride_dA_cs_csize: tl.constexpr,
    # Meta-parameters
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    USE_TD: tl.constexpr = False,
):
    pid_c = tl.program_id(axis=1).to(tl.int64)
    pid_h = tl.program_id(axis=2)
    num_pid_n = tl.cdiv(dstate, BLOCK_SIZE_N)
    pid_m = tl.program_id(axis=0) // num_pid_n
    pid_n = tl.program_id(axis=0) % num_pid_n
    chunk_seqlen_start = tl.load(cu_chunk_seqlens_ptr + pid_c)
    chunk_seqlen_end = tl.load(cu_chunk_seqlens_ptr + pid_c + 1)
    b_ptr += (
        chunk_seqlen_start * stride_b_seqlen
        + (pid_h // nheads_ngroups_ratio) * stride_b_head
    )
    x_ptr += chunk_seqlen_start * stride_x_seqlen + pid_h * stride_x_head
    dt_ptr += pid_c * stride_dt_chunk + pid_h * stride_dt_head
    dA_cumsum_ptr += pid_c * stride_dA_cs_chunk + pid_h * stride_dA_cs_head

    offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    x_ptrs = x_ptr + (
        offs_m[:, None] * stride_x_hdim + offs_k[None, :] * stride_x_seqlen
    )
    b_ptrs = b_ptr + (
        offs_n[None, :] * stride_b_dstate + offs_k[:, None] * stride_b_seqlen
    )
    dt_ptrs = dt_ptr + offs_k * stride_dt_csize
    dA_cs_last = tl.load(dA_cumsum_ptr + (chunk_size - 1) * stride_dA_cs_csize).to(
        tl.float32
    )
    dA_cumsum_ptrs = dA_cumsum_ptr + offs_k * stride_dA_cs_csize

    chunk_size_limit = chunk_seqlen_end - chunk_seqlen_start

    if USE_TD:
        # Descriptors zero-pad outside `shape`, which replaces the masks.
        # x is stored [seqlen, hdim], so load it that way and transpose the tile.
        x_desc = tl.make_tensor_descriptor(
            x_ptr,
            shape=[chunk_size_limit, hdim],
            strides=[stride_x_seqlen, 1],
            block_shape=[BLOCK_SIZE_K, BLOCK_SIZE_M],
        )
        b_desc = tl.make_tensor_descriptor(
            b_ptr,
            shape=[chunk_size_limit, dstate],
            strides=[stride_b_seqlen, 1],
            block_shape=[BLOCK_SIZE_K, BLOCK_SIZE_N],
        )

    acc = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, chunk_size_limit, BLOCK_SIZE_K):
        if USE_TD:
            x = tl.trans(x_desc.load([k, pid_m * BLOCK_SIZE_M]))
            b = b_desc.load([k, pid_n * BLOCK_SIZE_N]).to(tl.float32)
        else:
            x = tl.load(
                x_ptrs,
                mask=(offs_m[:, None] < hdim)
                & (offs_k[None, :] < chunk_size_limit - k),
                other=0.0,
            )
            b = tl.load(
                b_ptrs,
                mask=(offs_k[:, None] < chunk_size_limit - k)
                & (offs_n[None, :] < dstate),
                other=0.0,
            ).to(tl.float32)
        dA_cs_k = tl.load(
            dA_cumsum_ptrs, mask=offs_k < chunk_size_limit - k, other=0.0
        ).to(tl.float32)
        dt_k = tl.load(dt_ptrs, mask=offs_k < chunk_size_limit - k, other=0.0).to(
            tl.float32
        )
        scale = fast_exp(tl.minimum(dA_cs_last - dA_cs_k, 0.0)) * dt_k
        b *= scale[:, None]
        b = b.to(x_ptr.dtype.element_ty)
        acc += tl.dot(x, b)

        if not USE_TD:
            # TD loads take absolute tile offsets instead.
            x_ptrs += BLOCK_SIZE_K * stride_x_seqlen
            b_ptrs += BLOCK_SIZE_K * stride_b_seqlen
        dt_ptrs += BLOCK_SIZE_K * stride_dt_csize
        dA_cumsum_ptrs += BLOCK_SIZE_K * stride_dA_cs_csize

    states = acc.to(states_ptr.dtype.element_ty)

    states_ptr += pid_c * stride_states_chunk + pid_h * stride_states_head
    if USE_TD:
        states_desc = tl.make_tensor_descriptor(
            states_ptr,
            shape=[hdim, dstate],
            strides=[stride_states_hdim, 1],
            block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N],
        )
        states_desc.store([pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N], states)
    else:
        offs_m = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_n = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        states_ptrs = states_ptr + (
            offs_m[:, None] * stride_states_hdim
            + offs_n[None, :] * stride_states_dstate
        )
        c_mask = (offs_m[:, None] < hdim) & (offs_n[None, :] < dstate)
        tl.store(states_ptrs, states, mask=c_mask)


def make_inputs(T: int, NSEQ: int, H: int, G: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """NSEQ sequences of random lengths summing to T (one of a single token); cu_chunk_seqlens int32 cutting each
    sequence every 256 tokens (vLLM's varlen chunking: a chunk never spans two sequences); x [T, H, 64] and B
    [T, G, 128] bf16; dt [H, nchunks, 256] fp32 (softplus-range values, 0 past a chunk's length, as
    _chunk_cumsum_fwd writes it) and dA_cumsum its per-chunk cumulative sum times A (A < 0 per head)."""
    import torch
    g = torch.Generator(device="cpu").manual_seed(seed)
    cuts = sorted(torch.randperm(T - 2, generator=g)[:NSEQ - 2].add(1).tolist())
    lens = [b - a for a, b in zip([0] + cuts, cuts + [T - 1])] + [1]
    bounds = [0]
    for ln in lens:
        s = bounds[-1]
        bounds += list(range(s + CHUNK, s + ln, CHUNK)) + [s + ln]
    cu = torch.tensor(bounds, dtype=torch.int32)
    nchunks = len(bounds) - 1
    x = torch.randn((T, H, HDIM), generator=g).to(torch.bfloat16)
    B = torch.randn((T, G, DSTATE), generator=g).to(torch.bfloat16)
    A = -torch.rand(H, generator=g) * 0.5 - 0.05
    dt = torch.zeros((H, nchunks, CHUNK))
    for c in range(nchunks):
        n = bounds[c + 1] - bounds[c]
        dt[:, c, :n] = torch.rand((H, n), generator=g) * 0.1 + 0.001
    dA_cumsum = torch.cumsum(dt * A[:, None, None], dim=-1)
    out = {"x": x, "B": B, "dt": dt, "dA_cumsum": dA_cumsum, "cu_chunk_seqlens": cu}
    return {k: v.to(device) for k, v in out.items()}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """_chunk_state_fwd with states_in_fp32: states [nchunks, H, 64, 128] fp32, USE_TD on (Triton's global scratch
    allocator set for the descriptors the kernel makes, as set_triton_allocator does)."""
    import torch
    x, B, dt, dA_cumsum = inputs["x"], inputs["B"], inputs["dt"], inputs["dA_cumsum"]
    seqlen, nheads, headdim = x.shape
    _, nchunks, chunk_size = dt.shape
    _, ngroups, dstate = B.shape
    states = torch.empty((nchunks, nheads, headdim, dstate), device=x.device, dtype=torch.float32)
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device=x.device, dtype=torch.int8))
    grid = lambda META: (
        triton.cdiv(headdim, META["BLOCK_SIZE_M"]) * triton.cdiv(dstate, META["BLOCK_SIZE_N"]),
        nchunks,
        nheads,
    )
    _chunk_state_fwd_kernel[grid](
        x_ptr=x, b_ptr=B, states_ptr=states, dt_ptr=dt, dA_cumsum_ptr=dA_cumsum,
        cu_chunk_seqlens_ptr=inputs["cu_chunk_seqlens"],
        hdim=headdim, dstate=dstate, chunk_size=chunk_size, nheads_ngroups_ratio=nheads // ngroups,
        stride_x_seqlen=x.stride(0), stride_x_head=x.stride(1), stride_x_hdim=x.stride(2),
        stride_b_seqlen=B.stride(0), stride_b_head=B.stride(1), stride_b_dstate=B.stride(2),
        stride_states_chunk=states.stride(0), stride_states_head=states.stride(1),
        stride_states_hdim=states.stride(2), stride_states_dstate=states.stride(3),
        stride_dt_head=dt.stride(0), stride_dt_chunk=dt.stride(1), stride_dt_csize=dt.stride(2),
        stride_dA_cs_head=dA_cumsum.stride(0), stride_dA_cs_chunk=dA_cumsum.stride(1),
        stride_dA_cs_csize=dA_cumsum.stride(2),
        USE_TD=True,
    )
    return states


def reference(inputs: dict[str, Any]) -> Any:
    """states[c, h] = x[chunk, h]^T @ (B[chunk, h // ratio] * exp(min(dA_last - dA_k, 0)) * dt_k), B's scaled rows
    rounded to bf16 as the kernel feeds them to its dot."""
    import torch
    x, B, dt, dA = inputs["x"].float(), inputs["B"].float(), inputs["dt"], inputs["dA_cumsum"]
    cu = inputs["cu_chunk_seqlens"].tolist()
    H, G = x.shape[1], B.shape[1]
    ratio = H // G
    out = torch.empty((len(cu) - 1, H, HDIM, DSTATE), dtype=torch.float32, device=x.device)
    for c in range(len(cu) - 1):
        s, e = cu[c], cu[c + 1]
        n = e - s
        for h in range(H):
            scale = torch.exp(torch.clamp(dA[h, c, CHUNK - 1] - dA[h, c, :n], max=0.0)) * dt[h, c, :n]
            bs = (B[s:e, h // ratio] * scale[:, None]).to(torch.bfloat16).float()
            out[c, h] = x[s:e, h].T @ bs
    return out


def flops(T: int, NSEQ: int, H: int, G: int) -> float:
    """2 * 64 * 128 per token and head."""
    return 2.0 * T * H * HDIM * DSTATE
