"""Attention over right-padded keys whose length the kernel counts itself, as padding-aware Triton attention kernels
write it where the batch carries a key-padding mask instead of sequence lengths (the HF-style ``attention_mask``
ports): one program per (query block, batch * head); a **first loop** over the key positions sums the int8 mask's
chunks (pointer loads of a vector, no dot), ``n_valid = tl.sum(cnt)``; the **attention loop** then runs over
``range(0, n_valid, BLOCK_N)`` (its trip count read from the first loop's result), online softmax in base 2, the
tail masked by ``offs_n < n_valid``. fp16, D = 64, BLOCK_M = 128, BLOCK_N = 64, 4 warps. A producer partition would
need the first loop's count before its first copy: twill refuses it in one line. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BM, BN, D = 128, 64, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "padded_attention_kernel",
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16", "kpm": "*i8", "sm_scale": "fp32",
                  "N": "i32", "H": "i32"},
    "constexprs": {"BLOCK_M": BM, "BLOCK_N": BN, "D": D},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["q", "k", "v", "o", "kpm", "N"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 16, "N": 4096}
SMALL: dict[str, int] = {"B": 2, "H": 2, "N": 200}


@triton.jit
def padded_attention_kernel(q, k, v, o, kpm, sm_scale, N, H,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, D: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    cnt = tl.zeros([BLOCK_N], dtype=tl.int32)
    for s in range(0, N, BLOCK_N):
        mk = tl.load(kpm + b * N + s + offs_n, mask=s + offs_n < N, other=0)
        cnt += mk.to(tl.int32)
    n_valid = tl.sum(cnt, axis=0)
    base = bh.to(tl.int64) * N * D
    qt = tl.load(q + base + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < N, other=0.0)
    qk_scale = sm_scale * 1.44269504
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    for start_n in range(0, n_valid, BLOCK_N):
        cols = start_n + offs_n
        kt = tl.load(k + base + cols[:, None] * D + offs_d[None, :], mask=cols[:, None] < n_valid, other=0.0)
        vt = tl.load(v + base + cols[:, None] * D + offs_d[None, :], mask=cols[:, None] < n_valid, other=0.0)
        qk = tl.dot(qt, tl.trans(kt)) * qk_scale
        qk = tl.where(cols[None, :] < n_valid, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), vt)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o + base + offs_m[:, None] * D + offs_d[None, :], acc.to(tl.float16), mask=offs_m[:, None] < N)


def make_inputs(B: int, H: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [B, H, N, D] fp16; per batch a right-padded key mask [B, N] int8 (a prefix of ones, at least one)."""
    import torch
    gen = torch.Generator(device=device).manual_seed(seed)
    q, k, v = (torch.randn((B, H, N, D), device=device, generator=gen).half() for _ in range(3))
    lens = torch.randint(1, N + 1, (B,), generator=torch.Generator().manual_seed(seed))
    kpm = (torch.arange(N)[None, :] < lens[:, None]).to(torch.int8).to(device)
    return {"q": q, "k": k, "v": v, "kpm": kpm}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o flattened, fp32."""
    import torch
    q, k, v, kpm = inputs["q"], inputs["k"], inputs["v"], inputs["kpm"]
    B, H, N, _ = q.shape
    o = torch.empty_like(q)
    padded_attention_kernel[(triton.cdiv(N, BM), B * H)](q, k, v, o, kpm, D ** -0.5, N, H, BLOCK_M=BM, BLOCK_N=BN,
                                                         D=D, num_warps=config.get("num_warps", 4),
                                                         num_stages=config.get("num_stages", 2))
    return o.float().flatten()


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = (inputs[n].double() for n in ("q", "k", "v"))
    keep = inputs["kpm"].bool()[:, None, None, :]
    s = (q @ k.transpose(-1, -2)) * D ** -0.5
    s = s.masked_fill(~keep, float("-inf"))
    return (torch.softmax(s, -1) @ v).flatten()


def flops(B: int, H: int, N: int) -> float:
    return 4.0 * B * H * N * N * D
