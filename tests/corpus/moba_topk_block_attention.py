"""MoBA (Mixture of Block Attention, MoonshotAI/MoBA) forward as block-gated Triton kernels write it (the MoBA
semantics of moba_efficient.py: each query block attends to the top-k past key chunks its gate picked plus its own
chunk causally, in the pointer idiom of the public Triton MoBA / NSA kernels): one program per (query chunk,
batch * head), the chunk size BS = 64 both the query tile and the key block; the chunk's selected key-block indices
read from a top-k index tensor [B, H, NC, TOPK] (int32, padded with -1); the loop ``for i in range(TOPK)`` loads
one index a step (``i_s = tl.load(p_idx + i)``), builds the K and V pointers from it (``k + (i_s * BS +
offs_n)[:, None] * stride_kn``: a data-dependent block address) and guards the padded / future selections by
**masks, not an if**: ``ok = (i_s >= 0) & (i_s < i_c)`` folded into the loads' masks (``other=0``) and into the
scores' ``tl.where(..., -inf)``; online softmax in base 2 (``tl.math.exp2``, qk scaled by sm_scale * log2 e) with a
guard for a row with no valid key yet (``m_new == -inf``); after the loop the query's own chunk, peeled, with the
causal ``offs_m >= offs_n`` mask and the sequence tail (``offs_n < T``); lse stored beside o. fp16, D = 128, TOPK = 8,
4 warps, 2 stages. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BS, D, TOPK = 64, 128, 8
TWILL_SPEC: dict[str, Any] = {
    "kernel": "moba_fwd_kernel",
    "signature": {"q": "*fp16", "k": "*fp16", "v": "*fp16", "o": "*fp16", "lse": "*fp32", "block_indices": "*i32",
                  "sm_scale": "fp32", "T": "i32", "H": "i32"},
    "constexprs": {"BS": BS, "D": D, "TOPK": TOPK},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["q", "k", "v", "o", "lse", "block_indices", "T"]}
PROBLEM: dict[str, int] = {"B": 2, "H": 16, "T": 8192}
SMALL: dict[str, int] = {"B": 1, "H": 2, "T": 300}


@triton.jit
def moba_fwd_kernel(q, k, v, o, lse, block_indices, sm_scale, T, H,
                    BS: tl.constexpr, D: tl.constexpr, TOPK: tl.constexpr):
    i_c, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = i_bh // H, i_bh % H
    NC = tl.cdiv(T, BS)
    # [B, T, H, D] layout: token stride H * D
    stride_t = H * D
    bos = i_b * T * stride_t + i_h * D
    offs_m = i_c * BS + tl.arange(0, BS)
    offs_n = tl.arange(0, BS)
    offs_d = tl.arange(0, D)
    m_valid = offs_m < T

    b_q = tl.load(q + bos + offs_m[:, None] * stride_t + offs_d[None, :], mask=m_valid[:, None], other=0.0)
    qk_scale = sm_scale * 1.44269504

    b_m = tl.full([BS], float("-inf"), dtype=tl.float32)
    b_acc = tl.zeros([BS], dtype=tl.float32)
    b_o = tl.zeros([BS, D], dtype=tl.float32)

    p_idx = block_indices + (i_bh * NC + i_c) * TOPK
    for i in range(TOPK):
        i_s = tl.load(p_idx + i)
        ok = (i_s >= 0) & (i_s < i_c)
        o_n = i_s * BS + offs_n
        n_valid = (o_n < T) & ok
        b_k = tl.load(k + bos + o_n[:, None] * stride_t + offs_d[None, :], mask=n_valid[:, None], other=0.0)
        b_v = tl.load(v + bos + o_n[:, None] * stride_t + offs_d[None, :], mask=n_valid[:, None], other=0.0)
        b_s = tl.dot(b_q, tl.trans(b_k)) * qk_scale
        b_s = tl.where(n_valid[None, :], b_s, float("-inf"))
        b_m_new = tl.maximum(b_m, tl.max(b_s, 1))
        b_m_safe = tl.where(b_m_new == float("-inf"), 0.0, b_m_new)
        b_r = tl.math.exp2(b_m - b_m_safe)
        b_p = tl.math.exp2(b_s - b_m_safe[:, None])
        b_acc = b_acc * b_r + tl.sum(b_p, 1)
        b_o = b_o * b_r[:, None] + tl.dot(b_p.to(b_v.dtype), b_v)
        b_m = b_m_new

    # the query's own chunk, causal (always selected in MoBA)
    o_n = i_c * BS + offs_n
    n_valid = o_n < T
    b_k = tl.load(k + bos + o_n[:, None] * stride_t + offs_d[None, :], mask=n_valid[:, None], other=0.0)
    b_v = tl.load(v + bos + o_n[:, None] * stride_t + offs_d[None, :], mask=n_valid[:, None], other=0.0)
    b_s = tl.dot(b_q, tl.trans(b_k)) * qk_scale
    b_s = tl.where((offs_m[:, None] >= o_n[None, :]) & n_valid[None, :], b_s, float("-inf"))
    b_m_new = tl.maximum(b_m, tl.max(b_s, 1))
    b_r = tl.math.exp2(b_m - b_m_new)
    b_p = tl.math.exp2(b_s - b_m_new[:, None])
    b_acc = b_acc * b_r + tl.sum(b_p, 1)
    b_o = b_o * b_r[:, None] + tl.dot(b_p.to(b_v.dtype), b_v)
    b_m = b_m_new

    b_o = b_o / b_acc[:, None]
    b_lse = (b_m + tl.math.log2(b_acc)) / 1.44269504
    tl.store(o + bos + offs_m[:, None] * stride_t + offs_d[None, :], b_o.to(o.dtype.element_ty),
             mask=m_valid[:, None])
    tl.store(lse + (i_b * T + offs_m) * H + i_h, b_lse, mask=m_valid)


def make_inputs(B: int, H: int, T: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [B, T, H, D] fp16; per (b, h, query chunk) TOPK distinct past chunks picked at random (MoBA's gate
    picks by the chunk-mean scores; the kernel only reads the indices), the rest -1, and one future chunk index in
    chunk 2's list (the kernel must ignore it)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v = (torch.randn((B, T, H, D), device=device, generator=g).half() for _ in range(3))
    NC = triton.cdiv(T, BS)
    idx = torch.full((B, H, NC, TOPK), -1, dtype=torch.int32)
    gc = torch.Generator().manual_seed(seed)
    for b in range(B):
        for h in range(H):
            for c in range(NC):
                n = min(c, TOPK)
                if n:
                    idx[b, h, c, :n] = torch.randperm(c, generator=gc)[:n].to(torch.int32)
    if NC > 3:
        idx[:, :, 2, TOPK - 1] = NC - 1
    return {"q": q, "k": k, "v": v, "block_indices": idx.to(device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """[o flattened, lse flattened] fp32."""
    import torch
    q, k, v, idx = inputs["q"], inputs["k"], inputs["v"], inputs["block_indices"]
    B, T, H, _ = q.shape
    o = torch.empty_like(q)
    lse = torch.empty((B, T, H), dtype=torch.float32, device=q.device)
    moba_fwd_kernel[(triton.cdiv(T, BS), B * H)](q, k, v, o, lse, idx, D ** -0.5, T, H, BS=BS, D=D, TOPK=TOPK,
                                                 num_warps=config.get("num_warps", 4),
                                                 num_stages=config.get("num_stages", 2))
    return torch.cat([o.float().flatten(), lse.flatten()])


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = (inputs[n].double() for n in ("q", "k", "v"))
    idx = inputs["block_indices"].long().cpu()
    B, T, H, _ = q.shape
    NC = triton.cdiv(T, BS)
    pos = torch.arange(T, device=q.device)
    allowed = torch.zeros((B, H, T, T), dtype=torch.bool, device=q.device)
    for c in range(NC):
        rows = slice(c * BS, min((c + 1) * BS, T))
        allowed[:, :, rows, :] |= ((pos[None, :] // BS == c) & (pos[None, :] <= pos[rows, None]))[None, None]
        for b in range(B):
            for h in range(H):
                for s in idx[b, h, c].tolist():
                    if 0 <= s < c:
                        allowed[b, h, rows, s * BS:(s + 1) * BS] = True
    s = torch.einsum("bihd,bjhd->bhij", q, k) * D ** -0.5
    s = s.masked_fill(~allowed, float("-inf"))
    lse = torch.logsumexp(s, -1)                           # [B, H, T]
    o = torch.einsum("bhij,bjhd->bihd", torch.softmax(s, -1), v)
    return torch.cat([o.half().double().flatten(), lse.permute(0, 2, 1).flatten()])


def flops(B: int, H: int, T: int) -> float:
    return 4.0 * B * H * T * BS * (TOPK + 0.5) * D
