"""Paged GQA decode attention over an **FP8 KV cache**, as vLLM's Triton attention backends write it
(``kv_cache_dtype="fp8"``: the cache stored as ``float8_e4m3fn`` with per-tensor ``k_scale`` / ``v_scale``, the
``K_load.dtype.is_fp8()`` branches of ``kernel_paged_attention_2d`` / ``kernel_unified_attention_2d`` taken, not
dead): one program per (sequence, KV head), the KV head's ``num_queries_per_kv`` query heads padded to BLOCK_H = 16
rows (``head_mask``) so that Q·K^T is a tensor-core dot; the sequence length loaded (``seq_lens``) and the loop
``for start_n in range(0, seq_len, BLOCK_N)`` over BLOCK_N = 64 keys, **four cache pages a tile**: each key's
physical block number gathered from the block table (``tl.load(block_tables + ... + offs_n // PAGE_SIZE)``), its
slot ``offs_n % PAGE_SIZE``, K read transposed from the [num_blocks, PAGE_SIZE, num_kv_heads, HEAD] fp8 cache as a
[HEAD, BLOCK_N] tile with int64 offsets and V as [BLOCK_N, HEAD]; **both dequantized inside the loop**
(``(K_load.to(tl.float32) * k_scale).to(Q.dtype)``, the scales loaded from device pointers once, before the loop)
and fed to ``tl.dot`` in bf16; the tail masked with ``tl.where(mask, S, float("-inf"))``; online softmax with
``tl.exp`` and vLLM's ``M = -inf``, ``L = 1.0`` start; out normalised and stored in bf16. Llama-3-70B shapes: 64
query heads, 8 KV heads, head 128, page 16. 4 warps, 2 stages. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

HEAD, PAGE_SIZE, BLOCK_H, BLOCK_N = 128, 16, 16, 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_paged_decode_fp8kv_kernel",
    "signature": {"Q": "*bf16", "K_cache": "*fp8e4nv", "V_cache": "*fp8e4nv", "block_tables": "*i32",
                  "seq_lens": "*i32", "k_scale": "*fp32", "v_scale": "*fp32", "Out": "*bf16", "sm_scale": "fp32",
                  "num_queries_per_kv": "i32", "stride_qb": "i32", "stride_qh": "i32", "stride_bt": "i32",
                  "stride_kb": "i32", "stride_ks": "i32", "stride_kh": "i32", "stride_ob": "i32", "stride_oh": "i32",
                  "HEAD": "constexpr", "PAGE_SIZE": "constexpr", "BLOCK_H": "constexpr", "BLOCK_N": "constexpr"},
    "constexprs": {"HEAD": HEAD, "PAGE_SIZE": PAGE_SIZE, "BLOCK_H": BLOCK_H, "BLOCK_N": BLOCK_N},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["Q", "K_cache", "V_cache", "block_tables", "seq_lens", "k_scale", "v_scale", "Out",
                     "stride_qb", "stride_qh", "stride_bt", "stride_kb", "stride_ks", "stride_kh", "stride_ob",
                     "stride_oh"]}
PROBLEM: dict[str, int] = {"batch": 64, "num_heads": 64, "num_kv_heads": 8, "max_len": 8192}
SMALL: dict[str, int] = {"batch": 3, "num_heads": 6, "num_kv_heads": 2, "max_len": 150}


@triton.jit
def _paged_decode_fp8kv_kernel(
    Q, K_cache, V_cache, block_tables, seq_lens, k_scale, v_scale, Out, sm_scale, num_queries_per_kv,
    stride_qb, stride_qh, stride_bt, stride_kb, stride_ks, stride_kh, stride_ob, stride_oh,
    HEAD: tl.constexpr, PAGE_SIZE: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_N: tl.constexpr,
):
    seq_idx = tl.program_id(0)
    kv_head_idx = tl.program_id(1)

    offs_h = tl.arange(0, BLOCK_H)
    offs_d = tl.arange(0, HEAD)
    head_mask = offs_h < num_queries_per_kv
    query_heads = kv_head_idx * num_queries_per_kv + offs_h
    q_offset = seq_idx * stride_qb + query_heads[:, None] * stride_qh + offs_d[None, :]
    Q_tile = tl.load(Q + q_offset, mask=head_mask[:, None], other=0.0)           # [BLOCK_H, HEAD]

    seq_len = tl.load(seq_lens + seq_idx)
    bt_base = block_tables + seq_idx.to(tl.int64) * stride_bt
    k_scale_val = tl.load(k_scale)
    v_scale_val = tl.load(v_scale)

    M = tl.full([BLOCK_H], float("-inf"), dtype=tl.float32)
    L = tl.full([BLOCK_H], 1.0, dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, HEAD], dtype=tl.float32)

    for start_n in range(0, seq_len, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        mask_n = offs_n < seq_len
        physical_block = tl.load(bt_base + offs_n // PAGE_SIZE, mask=mask_n, other=0)
        slot = offs_n % PAGE_SIZE
        kv_offset = physical_block.to(tl.int64) * stride_kb + slot * stride_ks + kv_head_idx * stride_kh

        K_load = tl.load(K_cache + kv_offset[None, :] + offs_d[:, None], mask=mask_n[None, :], other=0.0)
        if K_load.dtype.is_fp8():
            K = (K_load.to(tl.float32) * k_scale_val).to(Q_tile.dtype)
        else:
            K = K_load
        V_load = tl.load(V_cache + kv_offset[:, None] + offs_d[None, :], mask=mask_n[:, None], other=0.0)
        if V_load.dtype.is_fp8():
            V = (V_load.to(tl.float32) * v_scale_val).to(Q_tile.dtype)
        else:
            V = V_load

        S = sm_scale * tl.dot(Q_tile, K)                                          # [BLOCK_H, BLOCK_N]
        S = tl.where(mask_n[None, :], S, float("-inf"))
        m_j = tl.maximum(M, tl.max(S, axis=1))
        P = tl.exp(S - m_j[:, None])
        l_j = tl.sum(P, axis=1)
        alpha = tl.exp(M - m_j)
        acc = acc * alpha[:, None]
        L = L * alpha + l_j
        M = m_j
        acc += tl.dot(P.to(V.dtype), V)

    acc = acc / L[:, None]
    o_offset = seq_idx * stride_ob + query_heads[:, None] * stride_oh + offs_d[None, :]
    tl.store(Out + o_offset, acc.to(Out.dtype.element_ty), mask=head_mask[:, None])


def make_inputs(batch: int, num_heads: int, num_kv_heads: int, max_len: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """Sequence lengths uniform in [1, max_len] (one at max_len, one of a single token), each sequence's pages a
    random permutation of the cache's blocks; q [batch, num_heads, 128] bf16; the cache's K and V quantised
    per tensor to float8_e4m3fn (scale = amax / 448, as vLLM's calibrated scales)."""
    import torch
    gc = torch.Generator().manual_seed(seed)
    lens = torch.randint(1, max_len + 1, (batch,), generator=gc)
    lens[0] = max_len
    lens[-1] = 1
    pages = (lens + PAGE_SIZE - 1) // PAGE_SIZE
    num_blocks = int(pages.sum()) + 7
    max_pages = (max_len + PAGE_SIZE - 1) // PAGE_SIZE
    perm = torch.randperm(num_blocks, generator=gc)
    block_tables = torch.zeros((batch, max_pages), dtype=torch.int32)
    start = 0
    for i in range(batch):
        block_tables[i, :pages[i]] = perm[start:start + pages[i]].int()
        start += int(pages[i])
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((batch, num_heads, HEAD), device=device, dtype=torch.float32, generator=g).bfloat16()
    k = torch.randn((num_blocks, PAGE_SIZE, num_kv_heads, HEAD), device=device, dtype=torch.float32, generator=g)
    v = torch.randn((num_blocks, PAGE_SIZE, num_kv_heads, HEAD), device=device, dtype=torch.float32, generator=g)
    k_scale = (k.abs().amax() / 448.0).reshape(1)
    v_scale = (v.abs().amax() / 448.0).reshape(1)
    return {"q": q, "k_cache": (k / k_scale).to(torch.float8_e4m3fn), "v_cache": (v / v_scale).to(torch.float8_e4m3fn),
            "k_scale": k_scale, "v_scale": v_scale, "block_tables": block_tables.to(device),
            "seq_lens": lens.int().to(device), "sm_scale": HEAD ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out [batch, num_heads, 128] bf16, flattened as fp32."""
    import torch
    q, kc, vc, bt = inputs["q"], inputs["k_cache"], inputs["v_cache"], inputs["block_tables"]
    batch, num_heads, _ = q.shape
    num_kv_heads = kc.shape[2]
    out = torch.empty_like(q)
    _paged_decode_fp8kv_kernel[(batch, num_kv_heads)](
        q, kc, vc, bt, inputs["seq_lens"], inputs["k_scale"], inputs["v_scale"], out, inputs["sm_scale"],
        num_heads // num_kv_heads, q.stride(0), q.stride(1), bt.stride(0), kc.stride(0), kc.stride(1), kc.stride(2),
        out.stride(0), out.stride(1), HEAD=HEAD, PAGE_SIZE=PAGE_SIZE, BLOCK_H=BLOCK_H, BLOCK_N=BLOCK_N,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return out.float().flatten()


def reference(inputs: dict[str, Any]) -> Any:
    """Per sequence: its pages gathered, K and V dequantised in float64, softmax attention of each query head over
    its KV head's keys; rounded to bf16 as the kernel stores it."""
    import torch
    q, bt, lens = inputs["q"], inputs["block_tables"], inputs["seq_lens"]
    k = inputs["k_cache"].double() * inputs["k_scale"].double()
    v = inputs["v_cache"].double() * inputs["v_scale"].double()
    batch, num_heads, _ = q.shape
    group = num_heads // k.shape[2]
    out = torch.empty((batch, num_heads, HEAD), dtype=torch.float64, device=q.device)
    for i in range(batch):
        n = int(lens[i])
        blocks = bt[i, :(n + PAGE_SIZE - 1) // PAGE_SIZE].long()
        ki = k[blocks].reshape(-1, k.shape[2], HEAD)[:n].repeat_interleave(group, dim=1)   # [n, H, D]
        vi = v[blocks].reshape(-1, v.shape[2], HEAD)[:n].repeat_interleave(group, dim=1)
        s = torch.einsum("hd,nhd->hn", q[i].double(), ki) * inputs["sm_scale"]
        out[i] = torch.einsum("hn,nhd->hd", torch.softmax(s, -1), vi)
    return out.bfloat16().double().flatten()


def flops(batch: int, num_heads: int, num_kv_heads: int, max_len: int) -> float:
    """4 * D per (query head, key) pair; the mean sequence is about max_len / 2."""
    return 4.0 * batch * num_heads * (max_len / 2) * HEAD
