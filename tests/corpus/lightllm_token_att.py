"""LightLLM's decode attention scores, `_fwd_kernel_token_att1` (lightllm/models/llama/triton_kernel/
token_attention_nopad_att1.py) with its launcher `token_att_fwd`: one program per (sequence, head, BLOCK_N-token
block); the block's "loop" is LightLLM's guard idiom `for start_mark in range(0, block_mask, 1)` over
`block_mask = tl.where(block_stard_index < cur_batch_seq_len, 1, 0)` (0 or 1 trips), with `start_mark` added to
q's offset; K rows gathered through the request's token table (`Req_to_tokens[B_req_idx[b], n]`, a per-token
gather, masked past the sequence), GQA (`cur_kv_head = cur_head // kv_group_num`, kv_group_num a plain runtime
int), scores as `tl.sum(q[None, :] * k, 1)` (no tl.dot) cast to fp32 and scaled, stored to the flat
[heads, total_tokens] `Att_Out` at `B_Start_Loc[b] + n`. fp16 q/k/att_out, head dim 128, BLOCK_N 32, 8 query heads
per KV head (so num_warps 2, num_stages 1, as token_att_fwd picks)."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

H_Q, H_KV, HEAD_DIM = 32, 4, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_token_att1",
    "signature": {"Q": "*fp16", "K": "*fp16", "sm_scale": "fp32", "Req_to_tokens": "*i32", "B_req_idx": "*i32",
                  "B_Start_Loc": "*i32", "B_Seqlen": "*i32", "Att_Out": "*fp16",
                  "stride_req_to_tokens_b": "i32", "stride_req_to_tokens_s": "constexpr",
                  "stride_qbs": "i32", "stride_qh": "i32", "stride_qd": "constexpr",
                  "stride_kbs": "i32", "stride_kh": "i32", "stride_kd": "constexpr",
                  "att_stride_h": "i32", "att_stride_bs": "constexpr", "kv_group_num": "i32"},
    "constexprs": {"stride_req_to_tokens_s": 1, "stride_qd": 1, "stride_kd": 1, "att_stride_bs": 1,
                   "BLOCK_DMODEL": HEAD_DIM, "BLOCK_N": 32},
    "num_warps": 2, "num_stages": 1,
    "divisibility": ["stride_req_to_tokens_b", "stride_qbs", "stride_qh", "stride_kbs", "stride_kh"]}
PROBLEM: dict[str, int] = {"B": 64, "S": 4096}
SMALL: dict[str, int] = {"B": 3, "S": 203}


@triton.jit
def _fwd_kernel_token_att1(
    Q,
    K,
    sm_scale,
    Req_to_tokens,
    B_req_idx,
    B_Start_Loc,
    B_Seqlen,
    Att_Out,
    stride_req_to_tokens_b,
    stride_req_to_tokens_s,
    stride_qbs,
    stride_qh,
    stride_qd,
    stride_kbs,
    stride_kh,
    stride_kd,
    att_stride_h,
    att_stride_bs,
    kv_group_num,
    BLOCK_DMODEL: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    start_n = tl.program_id(2)

    cur_kv_head = cur_head // kv_group_num

    offs_d = tl.arange(0, BLOCK_DMODEL)
    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    cur_batch_in_all_start_index = tl.load(B_Start_Loc + cur_batch)
    cur_batch_req_idx = tl.load(B_req_idx + cur_batch)

    cur_batch_start_index = 0
    cur_batch_end_index = cur_batch_seq_len

    off_q = cur_batch * stride_qbs + cur_head * stride_qh + offs_d * stride_qd

    offs_n = start_n * BLOCK_N + tl.arange(0, BLOCK_N)

    block_stard_index = start_n * BLOCK_N
    block_mask = tl.where(block_stard_index < cur_batch_seq_len, 1, 0)

    for start_mark in range(0, block_mask, 1):
        q = tl.load(Q + off_q + start_mark)
        offs_n_new = cur_batch_start_index + offs_n
        k_loc = tl.load(
            Req_to_tokens + stride_req_to_tokens_b * cur_batch_req_idx + stride_req_to_tokens_s * offs_n_new,
            mask=offs_n_new < cur_batch_end_index,
            other=0,
        )
        off_k = k_loc[:, None] * stride_kbs + cur_kv_head * stride_kh + offs_d[None, :] * stride_kd
        k = tl.load(K + off_k, mask=offs_n_new[:, None] < cur_batch_end_index, other=0.0)
        att_value = tl.sum(q[None, :] * k, 1)
        att_value = att_value.to(tl.float32)
        att_value *= sm_scale
        off_o = cur_head * att_stride_h + (cur_batch_in_all_start_index + offs_n) * att_stride_bs
        tl.store(Att_Out + off_o, att_value, mask=offs_n_new < cur_batch_end_index)
    return


def token_att_fwd(q, k, att_out, Req_to_tokens, B_req_idx, B_Start_Loc, B_Seqlen, max_len_in_batch, num_warps=None,
                  num_stages=1):
    BLOCK = 32
    # shape constraints
    Lq, Lk = q.shape[-1], k.shape[-1]
    assert Lq == Lk
    assert Lk in {16, 32, 64, 128, 256}
    sm_scale = 1.0 / (Lk ** 0.5)

    batch, head_num = B_req_idx.shape[0], q.shape[1]

    grid = (batch, head_num, triton.cdiv(max_len_in_batch, BLOCK))
    kv_group_num = q.shape[1] // k.shape[1]

    if num_warps is None:
        if kv_group_num == 1:
            num_warps = 4
        else:
            num_warps = 2

    _fwd_kernel_token_att1[grid](
        q,
        k,
        sm_scale,
        Req_to_tokens,
        B_req_idx,
        B_Start_Loc,
        B_Seqlen,
        att_out,
        Req_to_tokens.stride(0),
        Req_to_tokens.stride(1),
        q.stride(0),
        q.stride(1),
        q.stride(2),
        k.stride(0),
        k.stride(1),
        k.stride(2),
        att_out.stride(0),
        att_out.stride(1),
        kv_group_num=kv_group_num,
        BLOCK_DMODEL=Lk,
        BLOCK_N=BLOCK,
        num_warps=num_warps,
        num_stages=num_stages,
    )
    return


def make_inputs(B: int, S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A decode batch: B requests of up to S tokens (one of them 1 token long), their KV slots scattered over a
    token pool through the request table (rows padded to a multiple of 16), requests in a shuffled order."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    seqlens = torch.randint(S // 3, S + 1, (B,), device=device, generator=g).to(torch.int32)
    seqlens[0] = 1
    max_req_len = (S + 15) // 16 * 16
    num_reqs = B + 3
    req_to_tokens = torch.zeros((num_reqs, max_req_len), dtype=torch.int32, device=device)
    pool = num_reqs * max_req_len + 11
    req_to_tokens[:] = torch.randperm(pool, device=device, generator=g)[: num_reqs * max_req_len].view(
        num_reqs, max_req_len).to(torch.int32)
    b_req_idx = torch.randperm(num_reqs, device=device, generator=g)[:B].to(torch.int32)
    b_start_loc = (torch.cumsum(seqlens, 0) - seqlens).to(torch.int32)
    total = int(seqlens.sum())
    q = torch.randn((B, H_Q, HEAD_DIM), device=device, generator=g).half()
    k = torch.randn((pool, H_KV, HEAD_DIM), device=device, generator=g).half()
    return {"q": q, "k": k, "req_to_tokens": req_to_tokens, "b_req_idx": b_req_idx, "b_start_loc": b_start_loc,
            "b_seqlen": seqlens, "max_len_in_batch": int(seqlens.max()), "total_tokens": total}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """att_out [H_Q, total_tokens] fp16: q . k * sm_scale for every (head, token) of the batch."""
    import torch
    q, k = inputs["q"], inputs["k"]
    att_out = torch.empty((q.shape[1], inputs["total_tokens"]), dtype=q.dtype, device=q.device)
    token_att_fwd(q, k, att_out, inputs["req_to_tokens"], inputs["b_req_idx"], inputs["b_start_loc"],
                  inputs["b_seqlen"], inputs["max_len_in_batch"], num_warps=config.get("num_warps", None),
                  num_stages=config.get("num_stages", 1))
    return att_out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k = inputs["q"].double(), inputs["k"].double()
    r2t, ridx = inputs["req_to_tokens"].long(), inputs["b_req_idx"].long()
    seqlens, starts = inputs["b_seqlen"].long(), inputs["b_start_loc"].long()
    out = torch.zeros((q.shape[1], inputs["total_tokens"]), dtype=torch.float64, device=q.device)
    group = H_Q // H_KV
    for b in range(q.shape[0]):
        L, s0 = int(seqlens[b]), int(starts[b])
        kb = k[r2t[ridx[b], :L]]                               # (L, H_KV, D)
        kb = kb.repeat_interleave(group, dim=1)                  # (L, H_Q, D)
        out[:, s0:s0 + L] = torch.einsum("hd,lhd->hl", q[b], kb) / HEAD_DIM ** 0.5
    return out
