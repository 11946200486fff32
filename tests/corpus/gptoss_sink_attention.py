"""gpt-oss's Triton attention forward (openai/gpt-oss, gpt_oss/triton/attention.py ``_attn_fwd``): attention sinks
(one learned logit per head that joins every row's softmax without a value: ``m_i`` starts at the sink, and
``z = l_i + exp(sink - m_i)`` divides the output) and a banded (sliding-window) causal mask for the layers with
``BANDWIDTH`` set (the loop's lower bound ``lo = max(0, start_q + start_m * BLOCK_M - BANDWIDTH)``, the band's far
edge masked by ``too_old`` in every iteration); the query offset of a KV-cached prefill read from memory
(``start_q = tl.load(Start_q)``); **4-D host tensor descriptors** over [bs, heads, ctx, head_dim] with blocks
[1, 1, BLOCK, HEAD_DIM], loaded as ``Q.load([off_z, off_h, start_m * BLOCK_M, 0]).reshape([BLOCK_M, HEAD_DIM])``
(K transposed by ``.T``) and the output stored as ``acc[None, None, :, :]``; ``if Sinks is not None`` on a pointer
argument; ``tl.static_assert``; exp (not exp2) with the mask added as ``tl.where(mask, -1.0e6, 0.0)``. GQA handled
on the host by ``repeat_interleave`` as the library does, q / k / v padded to the block size. HEAD_DIM = 64,
BLOCK_M = BLOCK_N = 64, BANDWIDTH = 128 (gpt-oss's sliding layers). fp16 (the library runs bf16). Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

HEAD_DIM = 64
BANDWIDTH = 128
BLOCK = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_attn_fwd",
    "signature": {"Q": "tensordesc<fp16[1, 1, 64, 64]>", "K": "tensordesc<fp16[1, 1, 64, 64]>",
                  "V": "tensordesc<fp16[1, 1, 64, 64]>", "Sinks": "*fp32", "sm_scale": "fp32", "M": "*fp32",
                  "Out": "tensordesc<fp16[1, 1, 64, 64]>", "Start_q": "*i32", "Z": "i32", "H": "i32",
                  "N_Q_CTX": "i32", "N_KV_CTX": "i32"},
    "constexprs": {"HEAD_DIM": HEAD_DIM, "BLOCK_M": BLOCK, "BLOCK_N": BLOCK, "BANDWIDTH": BANDWIDTH},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["N_Q_CTX"]}
# gpt-oss-20b: 64 query heads over 8 KV heads; a 4k prefill after 1k cached tokens (start_q = 1024)
PROBLEM: dict[str, int] = {"B": 1, "N_Q": 4096, "START": 1024, "HKV": 8, "REP": 8}
SMALL: dict[str, int] = {"B": 1, "N_Q": 130, "START": 64, "HKV": 1, "REP": 2}


@triton.jit
def _attn_fwd(
    Q,
    K,
    V,
    Sinks,
    sm_scale,
    M,
    Out,  #
    Start_q,
    Z,
    H,  #
    N_Q_CTX,
    N_KV_CTX,
    HEAD_DIM: tl.constexpr,  #
    BLOCK_M: tl.constexpr,  #
    BLOCK_N: tl.constexpr,  #
    BANDWIDTH: tl.constexpr,
):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_q = tl.load(Start_q).to(tl.int32)
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H

    # load attention sinks
    if Sinks is not None:
        sink = tl.load(Sinks + off_h).to(tl.float32)
    else:
        sink = 0

    # initialize offsets
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    # initialize pointer to m and l
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) + sink
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    # load scales
    qk_scale = sm_scale
    q = Q.load([off_z, off_h, start_m * BLOCK_M, 0]).reshape([BLOCK_M, HEAD_DIM])

    if BANDWIDTH:
        lo, hi = tl.maximum(0, start_q + start_m * BLOCK_M - BANDWIDTH), start_q + (start_m + 1) * BLOCK_M
    else:
        lo, hi = 0, start_q + (start_m + 1) * BLOCK_M

    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)

        mask = (start_n + offs_n)[None, :] > (start_q + offs_m)[:, None]

        if BANDWIDTH:
            too_old = (start_n + offs_n[None, :]) < (start_q + offs_m[:, None] - BANDWIDTH + 1)
            mask = mask | too_old

        k = K.load([off_z, off_h, start_n, 0]).reshape([BLOCK_N, HEAD_DIM]).T
        qk = tl.dot(q, k, allow_tf32=False)

        qk = qk * qk_scale + tl.where(mask, -1.0e6, 0.0)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk -= m_ij[:, None]

        p = tl.math.exp(qk)
        alpha = tl.math.exp(m_i - m_ij)
        l_ij = tl.sum(p, 1)
        acc = acc * alpha[:, None]

        v = V.load([off_z, off_h, start_n, 0]).reshape([BLOCK_N, HEAD_DIM])
        p = p.to(v.dtype)
        acc = tl.dot(p, v, acc, allow_tf32=False)

        l_i = l_i * alpha + l_ij
        m_i = m_ij

    sink = tl.math.exp(sink - m_i)
    z = l_i + sink
    acc = acc / z[:, None]
    m_i += tl.math.log(l_i)
    m_ptrs = M + off_hz * N_Q_CTX + offs_m
    tl.store(m_ptrs, m_i)
    acc = acc.to(Out.dtype)[None, None, :, :]
    Out.store([off_z, off_h, start_m * BLOCK_M, 0], acc)


def make_inputs(B: int, N_Q: int, START: int, HKV: int, REP: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """q [B, N_Q, HKV, REP, D], k / v [B, START + N_Q, HKV, D] fp16 as gpt-oss's model hands them over; sinks
    [HKV * REP] fp32; start_q a one-element int32 tensor (START, a multiple of BLOCK_N as in the model's prefill
    chunks)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    n_kv = START + N_Q
    q = torch.randn((B, N_Q, HKV, REP, HEAD_DIM), device=device, generator=g).half()
    k = torch.randn((B, n_kv, HKV, HEAD_DIM), device=device, generator=g).half()
    v = torch.randn((B, n_kv, HKV, HEAD_DIM), device=device, generator=g).half()
    sinks = torch.randn((HKV * REP,), device=device, generator=g) * 2.0
    start_q = torch.tensor([START], device=device, dtype=torch.int32)
    return {"q": q, "k": k, "v": v, "sinks": sinks, "start_q": start_q, "sm_scale": HEAD_DIM ** -0.5,
            "bandwidth": BANDWIDTH}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [B, N_Q, HKV * REP, D] fp16, as ``_attention.forward`` prepares and launches it."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor
    q, k, v, sinks, sm_scale, bandwidth, start_q = (inputs["q"], inputs["k"], inputs["v"], inputs["sinks"],
                                                   inputs["sm_scale"], inputs["bandwidth"], inputs["start_q"])
    assert len(start_q) == 1
    bs, n_ctx, n_kv_heads, repeat_kv, HEAD_DIM_Q = q.shape
    bs, n_kv_ctx, n_kv_heads, HEAD_DIM_K = k.shape
    bs, n_kv_ctx, n_kv_heads, HEAD_DIM_V = v.shape
    n_heads = n_kv_heads * repeat_kv
    q = q.view(bs, n_ctx, n_heads, HEAD_DIM_Q)
    k = k.view(bs, n_kv_ctx, n_kv_heads, HEAD_DIM_K)
    v = v.view(bs, n_kv_ctx, n_kv_heads, HEAD_DIM_V)
    assert HEAD_DIM_Q == HEAD_DIM_K and HEAD_DIM_K == HEAD_DIM_V
    assert HEAD_DIM_K in {16, 32, 64, 128, 256}

    q = q.transpose(1, 2).contiguous()
    k = k.repeat_interleave(repeat_kv, dim=2).transpose(1, 2).contiguous()
    v = v.repeat_interleave(repeat_kv, dim=2).transpose(1, 2).contiguous()

    BLOCK_M = BLOCK
    BLOCK_N = BLOCK
    m_pad_size = BLOCK_M - n_ctx % BLOCK_M if n_ctx % BLOCK_M != 0 else 0
    # pad q to multiple of its block size in the n_ctx dimension (-2)
    q = torch.nn.functional.pad(q, (0, 0, 0, m_pad_size))
    n_pad_size = BLOCK_N - n_kv_ctx % BLOCK_N if n_kv_ctx % BLOCK_N != 0 else 0
    # pad k and v to multiple of their block size in the n_kv_ctx dimension
    k = torch.nn.functional.pad(k, (0, 0, 0, n_pad_size))
    v = torch.nn.functional.pad(v, (0, 0, 0, n_pad_size))

    o = torch.empty_like(q)
    M = torch.empty((bs, n_heads, n_ctx + m_pad_size), device=q.device, dtype=torch.float32)
    grid = (triton.cdiv(n_ctx, BLOCK_M), bs * n_heads, 1)
    _attn_fwd[grid](
        TensorDescriptor.from_tensor(q, [1, 1, BLOCK_M, HEAD_DIM_K]),
        TensorDescriptor.from_tensor(k, [1, 1, BLOCK_N, HEAD_DIM_K]),
        TensorDescriptor.from_tensor(v, [1, 1, BLOCK_N, HEAD_DIM_K]),
        sinks,
        sm_scale,
        M,
        TensorDescriptor.from_tensor(o, [1, 1, BLOCK_M, HEAD_DIM_K]),
        start_q,
        q.shape[0],
        q.shape[1],
        N_Q_CTX=n_ctx + m_pad_size,
        N_KV_CTX=n_kv_ctx,
        HEAD_DIM=HEAD_DIM_K,
        BANDWIDTH=bandwidth,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3),
    )

    o = o[:, :, :n_ctx, :].transpose(1, 2).contiguous()
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """softmax over [sink, keys in the band] in float64, the sink's column dropped: o [B, N_Q, H, D]."""
    import torch
    q, k, v = inputs["q"].double(), inputs["k"].double(), inputs["v"].double()
    B, NQ, HKV, REP, D = q.shape
    NKV = k.shape[1]
    start = int(inputs["start_q"][0])
    q = q.reshape(B, NQ, HKV * REP, D).transpose(1, 2)                        # B H NQ D
    k = k.repeat_interleave(REP, dim=2).transpose(1, 2)                       # B H NKV D
    v = v.repeat_interleave(REP, dim=2).transpose(1, 2)
    s = (q @ k.transpose(-1, -2)) * inputs["sm_scale"]                        # B H NQ NKV
    qpos = start + torch.arange(NQ, device=q.device)[:, None]
    kpos = torch.arange(NKV, device=q.device)[None, :]
    keep = (kpos <= qpos) & (kpos > qpos - inputs["bandwidth"])
    s = s.masked_fill(~keep, float("-inf"))
    sink = inputs["sinks"].double()[None, :, None, None].expand(B, -1, NQ, 1)
    p = torch.softmax(torch.cat([s, sink], dim=-1), dim=-1)[..., :-1]
    return (p @ v).transpose(1, 2)


def flops(B: int, N_Q: int, START: int, HKV: int, REP: int) -> float:
    return 4.0 * B * HKV * REP * N_Q * (BANDWIDTH + BLOCK) * HEAD_DIM
