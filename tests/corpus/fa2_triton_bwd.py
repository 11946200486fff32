"""FlashAttention-2's Triton backward in Tri Dao's style (flash_attn/flash_attn_triton.py: ``_bwd_kernel`` calling
``_bwd_kernel_one_col_block``, causal, SEQUENCE_PARALLEL: one program per column block of K/V, dq added atomically):
the row index ``offs_m_curr`` feeds both the causal mask and the LSE and D loads' addresses."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

HEAD_DIM = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_bwd_kernel",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "DO": "*fp16", "DQ": "*fp32", "DK": "*fp16",
                  "DV": "*fp16", "LSE": "*fp32", "D": "*fp32", "softmax_scale": "fp32",
                  "stride_qb": "i32", "stride_qh": "i32", "stride_qm": "i32", "nheads": "i32", "seqlen_q": "i32",
                  "seqlen_k": "i32", "seqlen_q_rounded": "i32"},
    "constexprs": {"IS_CAUSAL": True, "BLOCK_HEADDIM": HEAD_DIM, "BLOCK_M": 128, "BLOCK_N": 128},
    "num_warps": 8, "num_stages": 1,
    "divisibility": ["stride_qb", "stride_qh", "stride_qm", "seqlen_q", "seqlen_k", "seqlen_q_rounded"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 16, "N": 2048}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 256}


@triton.jit
def _bwd_kernel_one_col_block(start_n, Q, K, V, DO, DQ, DK, DV, LSE, D, softmax_scale, stride_qm, seqlen_q, seqlen_k,
                              IS_CAUSAL: tl.constexpr, BLOCK_HEADDIM: tl.constexpr, BLOCK_M: tl.constexpr,
                              BLOCK_N: tl.constexpr):
    begin_m = 0 if not IS_CAUSAL else ((start_n * BLOCK_N) // BLOCK_M) * BLOCK_M
    offs_qm = begin_m + tl.arange(0, BLOCK_M)
    offs_n = start_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m = tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, BLOCK_HEADDIM)
    q_ptrs = Q + (offs_qm[:, None] * stride_qm + offs_d[None, :])
    k_ptrs = K + (offs_n[:, None] * stride_qm + offs_d[None, :])
    v_ptrs = V + (offs_n[:, None] * stride_qm + offs_d[None, :])
    do_ptrs = DO + (offs_qm[:, None] * stride_qm + offs_d[None, :])
    dq_ptrs = DQ + (offs_qm[:, None] * stride_qm + offs_d[None, :])
    dv = tl.zeros([BLOCK_N, BLOCK_HEADDIM], dtype=tl.float32)
    dk = tl.zeros([BLOCK_N, BLOCK_HEADDIM], dtype=tl.float32)
    k = tl.load(k_ptrs)
    v = tl.load(v_ptrs)
    num_block_m = tl.cdiv(seqlen_q, BLOCK_M)
    for start_m in range(begin_m, num_block_m * BLOCK_M, BLOCK_M):
        start_m = tl.multiple_of(start_m, BLOCK_M)
        offs_m_curr = start_m + offs_m
        q = tl.load(q_ptrs)
        qk = tl.dot(q, tl.trans(k))
        if IS_CAUSAL:
            qk = tl.where(offs_m_curr[:, None] >= (offs_n[None, :]), qk, float("-inf"))
        lse_i = tl.load(LSE + offs_m_curr)
        p = tl.exp(qk * softmax_scale - lse_i[:, None])
        do = tl.load(do_ptrs)
        dv += tl.dot(tl.trans(p.to(do.dtype)), do)
        dp = tl.dot(do, tl.trans(v))
        Di = tl.load(D + offs_m_curr)
        ds = (p * (dp - Di[:, None]) * softmax_scale).to(q.dtype)
        dk += tl.dot(tl.trans(ds), q)
        dq = tl.dot(ds, k)
        tl.atomic_add(dq_ptrs, dq)
        dq_ptrs += BLOCK_M * stride_qm
        q_ptrs += BLOCK_M * stride_qm
        do_ptrs += BLOCK_M * stride_qm
    dv_ptrs = DV + (offs_n[:, None] * stride_qm + offs_d[None, :])
    dk_ptrs = DK + (offs_n[:, None] * stride_qm + offs_d[None, :])
    tl.store(dv_ptrs, dv.to(DV.dtype.element_ty))
    tl.store(dk_ptrs, dk.to(DK.dtype.element_ty))


@triton.jit
def _bwd_kernel(Q, K, V, DO, DQ, DK, DV, LSE, D, softmax_scale, stride_qb, stride_qh, stride_qm, nheads, seqlen_q,
                seqlen_k, seqlen_q_rounded, IS_CAUSAL: tl.constexpr, BLOCK_HEADDIM: tl.constexpr,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    off_hb = tl.program_id(1)
    off_b = off_hb // nheads
    off_h = off_hb % nheads
    Q += off_b * stride_qb + off_h * stride_qh
    K += off_b * stride_qb + off_h * stride_qh
    V += off_b * stride_qb + off_h * stride_qh
    DO += off_b * stride_qb + off_h * stride_qh
    DQ += off_b * stride_qb + off_h * stride_qh
    DK += off_b * stride_qb + off_h * stride_qh
    DV += off_b * stride_qb + off_h * stride_qh
    D += off_hb * seqlen_q_rounded
    LSE += off_hb * seqlen_q_rounded
    start_n = tl.program_id(0)
    _bwd_kernel_one_col_block(start_n, Q, K, V, DO, DQ, DK, DV, LSE, D, softmax_scale, stride_qm, seqlen_q, seqlen_k,
                              IS_CAUSAL=IS_CAUSAL, BLOCK_HEADDIM=BLOCK_HEADDIM, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)


def make_inputs(B: int, H: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v, do fp16 [B, N, H, 64] (flash_attn's layout, heads inside rows); the forward's o (fp16) and its
    natural-log LSE [B, H, N rounded up to 128] (what ``_fwd_kernel`` stores), computed by torch in fp32, causal, a
    few heads at a time."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q, k, v, do = (torch.randn((B, N, H, HEAD_DIM), device=device, generator=g).half() for _ in range(4))
    scale = HEAD_DIM ** -0.5
    rounded = -(-N // 128) * 128
    lse = torch.full((B, H, rounded), float("inf"), device=device, dtype=torch.float32)
    o = torch.empty_like(q)
    causal = torch.ones((N, N), device=device, dtype=torch.bool).tril()
    for b in range(B):
        for h in range(0, H, 4):
            qh, kh, vh = (t[b, :, h:h + 4].float().transpose(0, 1) for t in (q, k, v))
            s = (qh @ kh.transpose(-1, -2) * scale).masked_fill(~causal, float("-inf"))
            lse[b, h:h + 4, :N] = torch.logsumexp(s, dim=-1)
            o[b, :, h:h + 4] = (torch.softmax(s, dim=-1) @ vh).transpose(0, 1).half()
    return {"q": q, "k": k, "v": v, "o": o, "do": do, "lse": lse, "scale": scale}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dq, dk, dv) as ``_flash_attn_backward`` computes them with SEQUENCE_PARALLEL: delta = rowsum(o * do) (its
    preprocess kernel's result, here by torch), dq accumulated in fp32 from zero, one program per column block."""
    import torch
    q, k, v, o, do, lse, scale = (inputs[n] for n in ("q", "k", "v", "o", "do", "lse", "scale"))
    B, N, H, D = q.shape
    rounded = lse.shape[-1]
    delta = torch.zeros((B, H, rounded), device=q.device, dtype=torch.float32)
    delta[:, :, :N] = (o.float() * do.float()).sum(-1).transpose(1, 2)
    dq_accum = torch.zeros((B, N, H, D), device=q.device, dtype=torch.float32)
    dk, dv = torch.empty_like(k), torch.empty_like(v)
    grid = (triton.cdiv(N, 128), B * H)
    _bwd_kernel[grid](q, k, v, do, dq_accum, dk, dv, lse, delta, scale, q.stride(0), q.stride(2), q.stride(1), H, N,
                      N, rounded, IS_CAUSAL=True, BLOCK_HEADDIM=D, BLOCK_M=128, BLOCK_N=128,
                      num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 1))
    return dq_accum.half(), dk, dv


def reference(inputs: dict[str, Any]) -> Any:
    """The causal attention backward in float64 from the forward's definition, one head at a time."""
    import torch
    q, k, v, do, scale = (inputs[n] for n in ("q", "k", "v", "do", "scale"))
    B, N, H, D = q.shape
    dq, dk, dv = (torch.empty((B, N, H, D), device=q.device, dtype=torch.float64) for _ in range(3))
    causal = torch.ones((N, N), device=q.device, dtype=torch.bool).tril()
    for b in range(B):
        for h in range(H):
            qi, ki, vi, doi = (t[b, :, h].double() for t in (q, k, v, do))
            p = torch.softmax((qi @ ki.T * scale).masked_fill(~causal, float("-inf")), dim=-1)
            dp = doi @ vi.T
            ds = p * (dp - (p * dp).sum(-1, keepdim=True))
            dq[b, :, h], dk[b, :, h], dv[b, :, h] = ds @ ki * scale, ds.T @ qi * scale, p.T @ doi
    return dq, dk, dv


def flops(B: int, H: int, N: int) -> float:
    """Five N x N x D GEMMs over the causal half."""
    return 5 * 2.0 * B * H * N * N * HEAD_DIM * 0.5
