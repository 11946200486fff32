"""Varlen attention forward (flash-attn's Triton varlen style): cu_seqlens loaded from memory give each sequence's
start and length; the key loop's bound is the loaded length; early return past the sequence's rows."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "O": "*fp16", "cu_seqlens": "*i32", "sm_scale": "fp32",
                  "stride_tok": "i32", "stride_h": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 64, "D": 128}, "num_warps": 8, "num_stages": 2,
    "divisibility": ["stride_tok", "stride_h"]}
PROBLEM: dict[str, int] = {"B": 16, "H": 16, "L": 4096}
SMALL: dict[str, int] = {"B": 3, "H": 2, "L": 300}


@triton.jit
def attn_fwd_varlen(Q, K, V, O, cu_seqlens, sm_scale, stride_tok, stride_h,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    off_b = tl.program_id(2)
    seq_start = tl.load(cu_seqlens + off_b)
    seq_end = tl.load(cu_seqlens + off_b + 1)
    seqlen = seq_end - seq_start
    if start_m * BLOCK_M >= seqlen:
        return
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q_ptrs = Q + (seq_start + offs_m[:, None]) * stride_tok + off_h * stride_h + offs_d[None, :]
    q = tl.load(q_ptrs, mask=offs_m[:, None] < seqlen, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D], tl.float32)
    qk_scale = sm_scale * 1.44269504
    for start_n in range(0, seqlen, BLOCK_N):
        kv_rows = start_n + offs_n
        k = tl.load(K + (seq_start + kv_rows[None, :]) * stride_tok + off_h * stride_h + offs_d[:, None],
                    mask=kv_rows[None, :] < seqlen, other=0.0)
        qk = tl.dot(q, k)
        qk = tl.where(kv_rows[None, :] < seqlen, qk * qk_scale, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + (seq_start + kv_rows[:, None]) * stride_tok + off_h * stride_h + offs_d[None, :],
                    mask=kv_rows[:, None] < seqlen, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    o_ptrs = O + (seq_start + offs_m[:, None]) * stride_tok + off_h * stride_h + offs_d[None, :]
    tl.store(o_ptrs, (acc / l_i[:, None]).to(tl.float16), mask=offs_m[:, None] < seqlen)


def _lengths(B: int, L: int) -> list[int]:
    if B <= 3:
        return [300, 1, 129][:B]
    return [max(1, (i * 7919) % L) for i in range(B)]


def make_inputs(B: int, H: int, L: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = _lengths(B, L)
    tokens = sum(lens)
    cu = torch.tensor([0] + [sum(lens[:i + 1]) for i in range(B)], device=device, dtype=torch.int32)
    out = {n: torch.randn((tokens, H, 128), device=device, dtype=torch.float16, generator=g) for n in ("q", "k", "v")}
    out.update(cu_seqlens=cu, lens=lens)
    return out


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """Each sequence's softmax(Q K^T / sqrt(D)) V, fp16 [tokens, H, 128]; one program per (128 rows, head, sequence)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    T, H, D = q.shape
    o = torch.full_like(q, float("nan"))
    grid = (triton.cdiv(max(inputs["lens"]), 128), H, len(inputs["lens"]))
    attn_fwd_varlen[grid](q, k, v, o, inputs["cu_seqlens"], D ** -0.5, q.stride(0), q.stride(1),
                          BLOCK_M=128, BLOCK_N=64, D=128, num_warps=config.get("num_warps", 8),
                          num_stages=config.get("num_stages", 2))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = (inputs[n].double() for n in ("q", "k", "v"))
    out = torch.empty_like(q)
    s = 0
    for n in inputs["lens"]:
        qq, kk, vv = (t[s:s + n].transpose(0, 1) for t in (q, k, v))      # [H, n, D]
        p = torch.softmax(qq @ kk.transpose(-1, -2) * q.shape[-1] ** -0.5, dim=-1)
        out[s:s + n] = (p @ vv).transpose(0, 1)
        s += n
    return out


def flops(B: int, H: int, L: int) -> float:
    return sum(4.0 * H * n * n * 128 for n in _lengths(B, L))
