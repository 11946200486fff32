"""MInference's vertical-slash sparse prefill attention (microsoft/MInference, ``_triton_mixed_sparse_attn_fwd_kernel``
in minference/ops/pit_sparse_flash_attention_v2.py): one program per (query row block, batch*head); the batch's
sequence length loaded (``seqlens``) with an early ``return`` for a row block past it; two loops after each other
over what the row block attends to: the "slash" key blocks, their count loaded (``block_count``) as the first loop's
bound and each block's start loaded from ``block_offset`` inside it (K / V rows addressed from the loaded start,
masked by the sequence length, a causal mask), then the "vertical" key columns, counted by ``column_count`` and
gathered a BLOCK_N vector at a time from ``column_index`` (indices loaded under a mask, K / V rows addressed by the
loaded vector: a gather); exp2 online softmax with the scale folded into Q; a ``dtype`` constexpr; pointer loads with
the strides passed as arguments; launched on 4 warps, 2 stages, BLOCK_M = BLOCK_N = 64 as the library does. fp16
(the library runs bf16 or fp16). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

BLOCK = 64
HEAD_DIM = 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_triton_mixed_sparse_attn_fwd_kernel",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "seqlens": "*i32", "sm_scale": "fp32",
                  "block_count": "*i32", "block_offset": "*i32", "column_count": "*i32", "column_index": "*i32",
                  "Out": "*fp16",
                  "stride_qz": "i32", "stride_qh": "i32", "stride_qm": "i32", "stride_qk": "constexpr",
                  "stride_kz": "i32", "stride_kh": "i32", "stride_kn": "i32", "stride_kk": "constexpr",
                  "stride_vz": "i32", "stride_vh": "i32", "stride_vn": "i32", "stride_vk": "constexpr",
                  "stride_oz": "i32", "stride_oh": "i32", "stride_om": "i32", "stride_ok": "constexpr",
                  "Z": "i32", "H": "i32", "N_CTX": "i32", "NUM_ROWS": "i32", "NNZ_S": "i32", "NNZ_V": "i32"},
    "constexprs": {"stride_qk": 1, "stride_kk": 1, "stride_vk": 1, "stride_ok": 1, "BLOCK_M": BLOCK,
                   "BLOCK_N": BLOCK, "BLOCK_DMODEL": HEAD_DIM, "dtype": "fp16"},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["stride_qz", "stride_qh", "stride_qm", "stride_kz", "stride_kh", "stride_kn", "stride_vz",
                     "stride_vh", "stride_vn", "stride_oz", "stride_oh", "stride_om", "N_CTX", "NNZ_S", "NNZ_V"]}
PROBLEM: dict[str, int] = {"B": 1, "H": 16, "N": 8192, "NNZ_S": 16, "NNZ_V": 1024}
SMALL: dict[str, int] = {"B": 2, "H": 2, "N": 320, "NNZ_S": 3, "NNZ_V": 40}


@triton.jit
def _triton_mixed_sparse_attn_fwd_kernel(
    Q, K, V, seqlens, sm_scale,
    block_count, block_offset, column_count, column_index,
    Out,
    stride_qz, stride_qh, stride_qm, stride_qk,
    stride_kz, stride_kh, stride_kn, stride_kk,
    stride_vz, stride_vh, stride_vn, stride_vk,
    stride_oz, stride_oh, stride_om, stride_ok,
    Z, H, N_CTX,
    NUM_ROWS, NNZ_S, NNZ_V,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_DMODEL: tl.constexpr,
    dtype: tl.constexpr,
):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)

    seqlen = tl.load(seqlens + off_hz // H)
    if start_m * BLOCK_M >= seqlen:
        return

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_DMODEL)

    qo_offset = (off_hz // H) * stride_qz + (off_hz % H) * stride_qh
    kv_offset = (off_hz // H) * stride_kz + (off_hz % H) * stride_kh

    q_ptrs = Q + qo_offset + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qk
    k_ptrs = K + kv_offset + offs_d[:, None] * stride_kk
    v_ptrs = V + kv_offset + offs_d[None, :] * stride_vk
    o_ptrs = Out + qo_offset + offs_m[:, None] * stride_om + offs_d[None, :] * stride_ok

    num_blks = tl.load(block_count + off_hz * NUM_ROWS + start_m)
    blks_ptr = block_offset + (off_hz * NUM_ROWS + start_m) * NNZ_S
    num_cols = tl.load(column_count + off_hz * NUM_ROWS + start_m)
    cols_ptr = column_index + (off_hz * NUM_ROWS + start_m) * NNZ_V

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DMODEL], dtype=tl.float32)
    # scale sm_scale by log_2(e) and use 2^x in the loop
    qk_scale = sm_scale * 1.44269504
    q = tl.load(q_ptrs)
    q = (q * qk_scale).to(dtype)

    m_mask = offs_m[:, None] < seqlen

    # the slash lines: whole key blocks, each one's start loaded
    for block_index in range(num_blks):
        start_n = tl.load(blks_ptr + block_index)
        cols = start_n + offs_n
        n_mask = cols < seqlen
        k = tl.load(k_ptrs + cols[None, :] * stride_kn, mask=n_mask[None, :], other=0.0)
        v = tl.load(v_ptrs + cols[:, None] * stride_vn, mask=n_mask[:, None], other=0.0)
        qk = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        causal_mask = cols[None, :] <= offs_m[:, None]
        qk = tl.where(m_mask & causal_mask, qk, float("-inf"))
        qk += tl.dot(q, k)
        m_i_new = tl.maximum(m_i, tl.max(qk, 1))
        alpha = tl.math.exp2(m_i - m_i_new)
        p = tl.math.exp2(qk - m_i_new[:, None])
        acc_scale = l_i * 0 + alpha  # workaround some compiler bug
        acc *= acc_scale[:, None]
        acc += tl.dot(p.to(dtype), v)
        l_i = l_i * alpha + tl.sum(p, 1)
        m_i = m_i_new

    # the vertical lines: single key columns, gathered BLOCK_N at a time
    for start_n in range(0, num_cols, BLOCK_N):
        n_mask = start_n + offs_n < num_cols
        cols = tl.load(cols_ptr + start_n + offs_n, mask=n_mask, other=0)
        k = tl.load(k_ptrs + cols[None, :] * stride_kn, mask=n_mask[None, :], other=0.0)
        v = tl.load(v_ptrs + cols[:, None] * stride_vn, mask=n_mask[:, None], other=0.0)
        qk = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        qk = tl.where(m_mask & n_mask, qk, float("-inf"))
        qk += tl.dot(q, k)
        m_i_new = tl.maximum(m_i, tl.max(qk, 1))
        alpha = tl.math.exp2(m_i - m_i_new)
        p = tl.math.exp2(qk - m_i_new[:, None])
        acc_scale = l_i * 0 + alpha  # workaround some compiler bug
        acc *= acc_scale[:, None]
        acc += tl.dot(p.to(dtype), v)
        l_i = l_i * alpha + tl.sum(p, 1)
        m_i = m_i_new

    acc /= l_i[:, None]
    tl.store(o_ptrs, acc.to(dtype), mask=m_mask)


def make_inputs(B: int, H: int, N: int, NNZ_S: int, NNZ_V: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """q / k / v [B, H, N, 128] fp16 and the index tensors ``convert_vertical_slash_indexes`` hands the kernel, per
    (batch, head, row block): the slash blocks (block 0, the attention sink, then the row's own block and the blocks
    before it, at most NNZ_S) and the vertical columns (sorted, before the row block, outside its slash blocks, at
    most NNZ_V, a random number of them: some rows have none). The last batch is shorter than N (padding)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, H, N, HEAD_DIM), device=device, generator=g).half()
    k = torch.randn((B, H, N, HEAD_DIM), device=device, generator=g).half()
    v = torch.randn((B, H, N, HEAD_DIM), device=device, generator=g).half()
    rows = triton.cdiv(N, BLOCK)
    seqlens = torch.full((B,), N, device=device, dtype=torch.int32)
    seqlens[-1] = N - BLOCK // 2 - 3 if B > 1 else N
    block_offset = torch.zeros((B, H, rows, NNZ_S), device=device, dtype=torch.int32)
    block_count = torch.zeros((B, H, rows), device=device, dtype=torch.int32)
    in_slash = torch.zeros((rows, rows), device=device, dtype=torch.bool)      # row block -> key blocks
    for r in range(rows):
        blocks = [0] + [b for b in range(max(1, r - NNZ_S + 2), r + 1)]
        block_offset[:, :, r, :len(blocks)] = torch.tensor(blocks, device=device, dtype=torch.int32) * BLOCK
        block_count[:, :, r] = len(blocks)
        in_slash[r, blocks] = True
    key = torch.arange(N, device=device)
    row_start = torch.arange(rows, device=device) * BLOCK
    allowed = (key[None, :] < row_start[:, None]) & ~in_slash[:, key // BLOCK]                 # rows x N
    score = torch.rand((B, H, rows, N), device=device, generator=g)
    score = torch.where(allowed, score, torch.full_like(score, -1.0))
    top, idx = score.topk(min(NNZ_V, N), dim=-1)
    want = torch.randint(0, NNZ_V + 1, (B, H, rows), device=device, generator=g)
    valid = (top >= 0) & (torch.arange(top.shape[-1], device=device) < want[..., None])
    column_count = valid.sum(-1).to(torch.int32)
    idx = torch.where(valid, idx, torch.full_like(idx, N)).sort(dim=-1).values
    column_index = torch.zeros((B, H, rows, NNZ_V), device=device, dtype=torch.int32)
    column_index[..., :idx.shape[-1]] = torch.where(idx < N, idx, torch.zeros_like(idx)).to(torch.int32)
    return {"q": q, "k": k, "v": v, "seqlens": seqlens, "block_count": block_count, "block_offset": block_offset,
            "column_count": column_count, "column_index": column_index, "sm_scale": HEAD_DIM ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [B, H, N, 128] fp16, as ``_triton_mixed_sparse_attention`` launches it: grid (row blocks, B * H, 1)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    o = torch.zeros_like(q)
    grid = (triton.cdiv(q.shape[2], BLOCK), q.shape[0] * q.shape[1], 1)
    dtype = tl.bfloat16 if q.dtype == torch.bfloat16 else tl.float16
    bc, bo, cc, ci = inputs["block_count"], inputs["block_offset"], inputs["column_count"], inputs["column_index"]
    _triton_mixed_sparse_attn_fwd_kernel[grid](
        q, k, v, inputs["seqlens"], inputs["sm_scale"],
        bc, bo, cc, ci,
        o,
        q.stride(0), q.stride(1), q.stride(2), q.stride(3),
        k.stride(0), k.stride(1), k.stride(2), k.stride(3),
        v.stride(0), v.stride(1), v.stride(2), v.stride(3),
        o.stride(0), o.stride(1), o.stride(2), o.stride(3),
        q.shape[0], q.shape[1], q.shape[2],
        bc.shape[-1], bo.shape[-1], ci.shape[-1],
        BLOCK_M=BLOCK, BLOCK_N=BLOCK, BLOCK_DMODEL=HEAD_DIM, dtype=dtype,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2),
    )
    return o


def reference(inputs: dict[str, Any]) -> Any:
    """Per row: softmax over its slash blocks' keys up to the row and its vertical columns; rows past the batch's
    sequence length are left zero, as the kernel leaves them."""
    import torch
    q, k, v = inputs["q"].float(), inputs["k"].float(), inputs["v"].float()
    B, H, N, _ = q.shape
    rows = triton.cdiv(N, BLOCK)
    o = torch.zeros_like(q)
    pos = torch.arange(N, device=q.device)
    for b in range(B):
        n = int(inputs["seqlens"][b])
        for h in range(H):
            keep = torch.zeros((rows, N), dtype=torch.bool, device=q.device)      # row block x key
            for r in range(rows):
                for s in inputs["block_offset"][b, h, r, :int(inputs["block_count"][b, h, r])].tolist():
                    keep[r, s:s + BLOCK] = True
                keep[r, inputs["column_index"][b, h, r, :int(inputs["column_count"][b, h, r])].long()] = True
            mask = keep[pos // BLOCK] & (pos[None, :] <= pos[:, None]) & (pos[None, :] < n)
            s = (q[b, h] @ k[b, h].T) * inputs["sm_scale"]
            s = s.masked_fill(~mask, float("-inf"))
            o[b, h, :n] = (torch.softmax(s, dim=-1) @ v[b, h])[:n]
    return o.to(inputs["q"].dtype)


def flops(B: int, H: int, N: int, NNZ_S: int, NNZ_V: int) -> float:
    """About: every row block's NNZ_S blocks (fewer near the start) and half of NNZ_V columns on average."""
    rows = triton.cdiv(N, BLOCK)
    return 4.0 * B * H * HEAD_DIM * rows * BLOCK * (NNZ_S * BLOCK + NNZ_V / 2)
