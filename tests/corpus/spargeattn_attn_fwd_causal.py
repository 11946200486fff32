"""SpargeAttn's Triton block-sparse int8 attention forward, ``_attn_fwd`` with its ``_attn_fwd_inner`` helper
(thu-ml/SpargeAttn Triton_SpargeAttn/triton_kernel_example.py, launched by that file's ``forward`` from
``spas_sage_attn_meansim(..., is_causal=True)``): Q and K quantised to int8 per block (Q per 128 rows with
sm_scale * log2(e) folded in, K per 64 rows, as spas_sage_attn/quant_per_block.py's ``per_block_int8`` does), V
fp16, and a boolean [B, H_kv, Q/128, K/64] block map saying which key blocks each query block attends to.

The constructs: causal (``STAGE = 3``), so **two loops**, each the inlined helper with a different constexpr
``STAGE`` (``4 - STAGE`` = 1: the key blocks left of the diagonal, then 2: the diagonal's two 64-key blocks, its
``lo`` through ``tl.multiple_of`` and its pointers advanced by ``lo`` before the loop); per iteration a **bool flag
loaded from the block map** (``kbid = tl.load(K_bid_ptr + start_n // BLOCK_N)``) and **the whole attention body
inside ``if kbid:``** -- the masked K load, a scalar K scale load, an **int8 x int8 -> int32 ``tl.dot``** rescaled by
the two scales, in the diagonal stage a causal ``tl.where(mask, 0, -1.0e6)``, the exp2 online softmax, the V load,
``tl.dot(p.to(fp16), v, out_dtype=tl.float16)`` added into the fp32 accumulator, and the three carries (acc, l_i,
old_m) updated only in that branch -- while the **three pointer carries advance outside the ``if``** every
iteration (``K_ptrs += BLOCK_N * stride_kn``, ``K_scale_ptr += 1``, ``V_ptrs += ...``); GQA (``off_h //
num_kv_groups``); ``l_i`` starting at 1.0; a per-head ``PVThreshd`` loaded and unused (its test is commented out
upstream). fp16 out (``Out.type.element_ty``). Launch as ``forward``: BLOCK_M 128, BLOCK_N 64, 8 warps for head dim
128, num_stages 4. Llama-style causal prefill: 8192 tokens, 32 q heads over 8 kv heads, head 128. Port notes: the
kernels are verbatim; make_inputs quantises as ``per_block_int8`` does and draws a random block map that always
keeps the diagonal blocks (upstream, a query row whose diagonal blocks are all skipped and nothing before them kept
would normalise garbage: the -1.0e6 mask is not -inf). Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_attn_fwd",
    "signature": {"Q": "*i8", "K": "*i8", "K_blkid": "*i1", "V": "*fp16", "Q_scale": "*fp32", "K_scale": "*fp32",
                  "PVThreshd": "*fp32", "Out": "*fp16",
                  "stride_qz": "i32", "stride_qh": "i32", "stride_qn": "i32",
                  "stride_kz": "i32", "stride_kh": "i32", "stride_kn": "i32",
                  "stride_vz": "i32", "stride_vh": "i32", "stride_vn": "i32",
                  "stride_oz": "i32", "stride_oh": "i32", "stride_on": "i32",
                  "stride_kbidq": "i32", "stride_kbidk": "i32", "qo_len": "i32", "kv_len": "i32"},
    "constexprs": {"H": 32, "num_kv_groups": 4, "HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 64, "STAGE": 3},
    "num_warps": 8, "num_stages": 4,
    "divisibility": ["stride_qz", "stride_qh", "stride_qn", "stride_kz", "stride_kh", "stride_kn", "stride_vz",
                     "stride_vh", "stride_vn", "stride_oz", "stride_oh", "stride_on", "stride_kbidq", "qo_len",
                     "kv_len"]}
PROBLEM: dict[str, int] = {"B": 1, "L": 8192, "HQ": 32, "HKV": 8, "D": 128}
SMALL: dict[str, int] = {"B": 1, "L": 300, "HQ": 32, "HKV": 8, "D": 128}


@triton.jit
def _attn_fwd_inner(acc, l_i, old_m, q, q_scale, kv_len,
                    K_ptrs, K_bid_ptr, K_scale_ptr, V_ptrs, stride_kn, stride_vn, 
                    pvthreshd, start_m,  
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,  
                    STAGE: tl.constexpr, offs_m: tl.constexpr, offs_n: tl.constexpr,  
                    ):
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
        K_scale_ptr += lo // BLOCK_N
        K_ptrs += stride_kn * lo
        V_ptrs += stride_vn * lo
    elif STAGE == 3:
        lo, hi = 0, kv_len
    for start_n in range(lo, hi, BLOCK_N):
        kbid = tl.load(K_bid_ptr + start_n//BLOCK_N)
        if kbid:
            k_mask = offs_n[None, :] < (kv_len - start_n)   
            k = tl.load(K_ptrs, mask = k_mask)
            k_scale = tl.load(K_scale_ptr)
            qk = tl.dot(q, k).to(tl.float32) * q_scale * k_scale 
            if STAGE == 2:
                mask = offs_m[:, None] >= (start_n + offs_n[None, :])
                qk = qk + tl.where(mask, 0, -1.0e6)
                local_m = tl.max(qk, 1)
                new_m = tl.maximum(old_m, local_m)
                qk -= new_m[:, None]
            else:
                local_m = tl.max(qk, 1)
                new_m = tl.maximum(old_m, local_m)
                qk = qk - new_m[:, None]
            # if tl.min(new_m - local_m) < pvthreshd:
            p = tl.math.exp2(qk)
            l_ij = tl.sum(p, 1)
            alpha = tl.math.exp2(old_m - new_m)
            l_i = l_i * alpha + l_ij
            acc = acc * alpha[:, None]
            v = tl.load(V_ptrs, mask = offs_n[:, None] < (kv_len - start_n))
            p = p.to(tl.float16)
            acc += tl.dot(p, v, out_dtype=tl.float16)   
            old_m = new_m
        K_ptrs += BLOCK_N * stride_kn
        K_scale_ptr += 1
        V_ptrs += BLOCK_N * stride_vn
    return acc, l_i, old_m

@triton.jit
def _attn_fwd(Q, K, K_blkid, V, Q_scale, K_scale, PVThreshd, Out,  
              stride_qz, stride_qh, stride_qn,
              stride_kz, stride_kh, stride_kn,  
              stride_vz, stride_vh, stride_vn,  
              stride_oz, stride_oh, stride_on,  
              stride_kbidq, stride_kbidk,
              qo_len, kv_len, H:tl.constexpr, num_kv_groups:tl.constexpr, 
              HEAD_DIM: tl.constexpr,  
              BLOCK_M: tl.constexpr,  
              BLOCK_N: tl.constexpr,  
              STAGE: tl.constexpr
              ):
    start_m = tl.program_id(0)
    off_z = tl.program_id(2).to(tl.int64)
    off_h = tl.program_id(1).to(tl.int64)
    q_scale_offset = (off_z * H + off_h) * tl.cdiv(qo_len, BLOCK_M)
    k_scale_offset = (off_z * (H // num_kv_groups) + off_h // num_kv_groups) * tl.cdiv(kv_len, BLOCK_N)  
    k_bid_offset = (off_z * (H // num_kv_groups) + off_h // num_kv_groups) * stride_kbidq
    pvthreshd = tl.load(PVThreshd+off_h)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, HEAD_DIM)
    Q_ptrs = Q + (off_z * stride_qz + off_h * stride_qh) + offs_m[:, None] * stride_qn + offs_k[None, :]
    Q_scale_ptr = Q_scale + q_scale_offset + start_m
    K_ptrs = K + (off_z * stride_kz + (off_h // num_kv_groups) * stride_kh) + offs_n[None, :] * stride_kn + offs_k[:, None] 
    K_scale_ptr = K_scale + k_scale_offset
    K_bid_ptr = K_blkid + k_bid_offset + start_m * stride_kbidk 
    V_ptrs = V + (off_z * stride_vz + (off_h // num_kv_groups) * stride_vh) + offs_n[:, None] * stride_vn + offs_k[None, :]
    O_block_ptr = Out + (off_z * stride_oz + off_h * stride_oh) + offs_m[:, None] * stride_on + offs_k[None, :]
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    q = tl.load(Q_ptrs, mask = offs_m[:, None] < qo_len)
    q_scale = tl.load(Q_scale_ptr)
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, q_scale, kv_len, K_ptrs, K_bid_ptr, K_scale_ptr, V_ptrs, stride_kn, stride_vn,
                                    pvthreshd, start_m,  
                                    BLOCK_M, HEAD_DIM, BLOCK_N,  
                                    4 - STAGE, offs_m, offs_n 
                                    )
    if STAGE != 1:
        acc, l_i, _ = _attn_fwd_inner(acc, l_i, m_i, q, q_scale, kv_len, K_ptrs, K_bid_ptr, K_scale_ptr, V_ptrs, stride_kn, stride_vn,
                                        pvthreshd, start_m,  
                                        BLOCK_M, HEAD_DIM, BLOCK_N,  
                                        2, offs_m, offs_n 
                                        )
    acc = acc / l_i[:, None]
    tl.store(O_block_ptr, acc.to(Out.type.element_ty), mask = (offs_m[:, None] < qo_len))


def _quant(x: Any, blk: int, scale: float) -> Any:
    """``quant_per_block_int8_kernel``: per BLK rows of [B, H, L, D], x * scale / (amax / 127 + 1e-7), rounded half
    away from zero by ``+= 0.5 * sign`` and truncation; returns (int8, scales [B, H, nblk, 1])."""
    import torch
    B, H, L, D = x.shape
    n = (L + blk - 1) // blk
    xp = torch.zeros((B, H, n * blk, D), dtype=torch.float32, device=x.device)
    xp[:, :, :L] = x.float() * scale
    xb = xp.view(B, H, n, blk, D)
    s = xb.abs().amax(dim=(3, 4)) / 127.0 + 1e-7
    q = xb / s[..., None, None]
    q = (q + 0.5 * torch.where(q >= 0, 1.0, -1.0)).trunc().to(torch.int8)
    return q.view(B, H, n * blk, D)[:, :, :L].contiguous(), s[..., None].contiguous()


def make_inputs(B: int, L: int, HQ: int, HKV: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q [B, HQ, L, D], k / v [B, HKV, L, D] fp16 (HND), quantised as ``per_block_int8`` (k mean-smoothed first,
    as ``smooth_k``); a bool block map [B, HKV, cdiv(L, 128), cdiv(L, 64)], about half the blocks left of the
    diagonal kept, the diagonal's always."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, HQ, L, D), device=device, generator=g).half()
    k = torch.randn((B, HKV, L, D), device=device, generator=g).half()
    v = torch.randn((B, HKV, L, D), device=device, generator=g).half()
    k = (k.float() - k.float().mean(dim=-2, keepdim=True)).half()
    q_int8, q_scale = _quant(q, 128, D ** -0.5 * 1.44269504)
    k_int8, k_scale = _quant(k, 64, 1.0)
    nq, nk = (L + 127) // 128, (L + 63) // 64
    bm = torch.rand((B, HKV, nq, nk), device=device, generator=g) < 0.5
    qi = torch.arange(nq, device=device)[:, None]
    ki = torch.arange(nk, device=device)[None, :]
    bm |= (ki >= 2 * qi) & (ki < 2 * qi + 2)
    return {"q_int8": q_int8, "q_scale": q_scale, "k_int8": k_int8, "k_scale": k_scale, "v": v,
            "block_map": bm.contiguous(), "pvthreshd": torch.full((HQ,), 20.0, device=device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [B, HQ, L, D] fp16, as ``forward(q_int8, k_int8, block_map, v, q_scale, k_scale, pvthreshd,
    is_causal=True)``."""
    import torch
    q, k, v = inputs["q_int8"], inputs["k_int8"], inputs["v"]
    k_block_id = inputs["block_map"]
    BLOCK_M, BLOCK_N = 128, 64
    stage = 3
    o = torch.empty(q.shape, dtype=torch.float16, device=q.device)
    b, h_qo, qo_len, head_dim = q.shape
    _, h_kv, kv_len, _ = k.shape
    num_kv_groups = h_qo // h_kv
    grid = (triton.cdiv(qo_len, BLOCK_M), h_qo, b)
    _attn_fwd[grid](
        q, k, k_block_id, v, inputs["q_scale"], inputs["k_scale"], inputs["pvthreshd"], o,
        q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2), o.stride(0), o.stride(1), o.stride(2),
        k_block_id.stride(1), k_block_id.stride(2), qo_len, kv_len, h_qo, num_kv_groups,
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, HEAD_DIM=head_dim, STAGE=stage,
        num_warps=4 if head_dim == 64 else 8, num_stages=4)
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """Softmax (base 2) of the dequantised scores over the keys that are causal and in a kept 64-key block, times V
    (fp32; the kernel's fp16 P and PV partials are within tolerance)."""
    import torch
    q = inputs["q_int8"].float()
    k = inputs["k_int8"].float()
    B, HQ, L, D = q.shape
    HKV = k.shape[1]
    grp = HQ // HKV
    qs = inputs["q_scale"][..., 0].repeat_interleave(128, dim=2)[:, :, :L]
    ks = inputs["k_scale"][..., 0].repeat_interleave(64, dim=2)[:, :, :L]
    qd = q * qs[..., None]
    kd = (k * ks[..., None]).repeat_interleave(grp, dim=1)
    v = inputs["v"].float().repeat_interleave(grp, dim=1)
    s = qd @ kd.transpose(-1, -2)
    bm = inputs["block_map"].repeat_interleave(grp, dim=1)
    keep = bm.repeat_interleave(128, dim=2)[:, :, :L].repeat_interleave(64, dim=3)[..., :L]
    causal = torch.ones((L, L), dtype=torch.bool, device=q.device).tril()
    keep = keep & causal
    s = s.masked_fill(~keep, float("-inf"))
    p = torch.exp2(s - s.amax(dim=-1, keepdim=True))
    p = p / p.sum(dim=-1, keepdim=True)
    return (p @ v).half()


def flops(B: int, L: int, HQ: int, HKV: int, D: int) -> float:
    """Dense causal attention's two matmuls, 2 * 2 * B * HQ * L * L * D / 2 (the block map's sparsity not counted)."""
    return 2.0 * B * HQ * L * L * D
