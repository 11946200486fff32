"""HSTU-style jagged attention (generative recommenders' Triton kernels): sequences of different lengths packed
one after another, each batch's bounds loaded from an int64 offsets table (an early ``return`` past its length), the
scores through SiLU (``x * tl.sigmoid(x)``) divided by the longest length instead of a softmax, a causal ``tl.where``
to zero, and the product with V accumulated with ``acc +=``. Rows [tokens, heads * D], pointer loads. Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_hstu_fwd",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "O": "*bf16", "seq_offsets": "*i64", "alpha": "fp32",
                  "stride_qm": "i32", "stride_kn": "i32", "stride_vn": "i32", "stride_om": "i32",
                  "max_seq_len": "i32"},
    "constexprs": {"D": 128, "BLOCK_M": 128, "BLOCK_N": 64}, "num_warps": 8, "num_stages": 3,
    "divisibility": ["stride_qm", "stride_kn", "stride_vn", "stride_om"]}
PROBLEM: dict[str, int] = {"B": 16, "H": 8, "MAX_LEN": 4096}
SMALL: dict[str, int] = {"B": 3, "H": 2, "MAX_LEN": 300}


@triton.jit
def _hstu_fwd(Q, K, V, O, seq_offsets, alpha, stride_qm, stride_kn, stride_vn, stride_om, max_seq_len,
              D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    off_z = tl.program_id(1)
    off_h = tl.program_id(2)
    start_m = tl.program_id(0) * BLOCK_M
    seq_start = tl.load(seq_offsets + off_z)
    seq_end = tl.load(seq_offsets + off_z + 1)
    seq_len = (seq_end - seq_start).to(tl.int32)
    if start_m >= seq_len:
        return
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + (seq_start + offs_m[:, None]) * stride_qm + off_h * D + offs_d[None, :],
                mask=offs_m[:, None] < seq_len, other=0.0)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    for start_n in range(0, seq_len, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + (seq_start + cols[None, :]) * stride_kn + off_h * D + offs_d[:, None],
                    mask=cols[None, :] < seq_len, other=0.0)
        qk = tl.dot(q, k) * alpha
        silu = qk * tl.sigmoid(qk) / max_seq_len
        silu = tl.where((offs_m[:, None] >= cols[None, :]) & (cols[None, :] < seq_len), silu, 0.0)
        v = tl.load(V + (seq_start + cols[:, None]) * stride_vn + off_h * D + offs_d[None, :],
                    mask=cols[:, None] < seq_len, other=0.0)
        acc += tl.dot(silu.to(v.dtype), v)
    tl.store(O + (seq_start + offs_m[:, None]) * stride_om + off_h * D + offs_d[None, :], acc.to(tl.bfloat16),
             mask=offs_m[:, None] < seq_len)


def make_inputs(B: int, H: int, MAX_LEN: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """B sequences of lengths between MAX_LEN / 4 and MAX_LEN (the last MAX_LEN), packed: q, k, v [tokens, H * 128]
    bf16; offsets int64 [B + 1]."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = torch.randint(MAX_LEN // 4, MAX_LEN + 1, (B,), device=device, generator=g)
    lens[-1] = MAX_LEN
    offsets = torch.zeros(B + 1, device=device, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lens, 0)
    total = int(offsets[-1])
    q, k, v = (torch.randn((total, H * 128), device=device, generator=g).bfloat16() for _ in range(3))
    return {"q": q, "k": k, "v": v, "offsets": offsets, "H": H, "max_len": MAX_LEN, "alpha": 1.0 / 128 ** 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    o = torch.empty_like(q)
    B = inputs["offsets"].numel() - 1
    grid = (triton.cdiv(inputs["max_len"], 128), B, inputs["H"])
    _hstu_fwd[grid](q, k, v, o, inputs["offsets"], inputs["alpha"], q.stride(0), k.stride(0), v.stride(0),
                    o.stride(0), inputs["max_len"], D=128, BLOCK_M=128, BLOCK_N=64,
                    num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """Per sequence and head: SiLU of the scaled scores over the longest length, causal, times V; fp32."""
    import torch
    q, k, v, off = inputs["q"], inputs["k"], inputs["v"], inputs["offsets"].tolist()
    out = torch.empty(q.shape, device=q.device, dtype=torch.float32)
    for b in range(len(off) - 1):
        s, e = off[b], off[b + 1]
        n = e - s
        keep = torch.ones((n, n), device=q.device, dtype=torch.bool).tril()
        for h in range(inputs["H"]):
            cols = slice(h * 128, (h + 1) * 128)
            x = q[s:e, cols].float() @ k[s:e, cols].float().T * inputs["alpha"]
            p = torch.where(keep, torch.nn.functional.silu(x) / inputs["max_len"], 0.0)
            out[s:e, cols] = p @ v[s:e, cols].float()
    return out


def flops(B: int, H: int, MAX_LEN: int) -> float:
    """The causal half of the longest sequence's work, times B (the lengths vary: an estimate)."""
    return 2.0 * B * H * MAX_LEN * MAX_LEN * 128
