"""Grouped-query split-KV decode attention, stage 1, in the style of SGLang's and vLLM's Triton decode kernels for
GQA (``_fwd_grouped_kernel_stage1``): one program per (sequence, KV head, split) computes the query heads that share
the KV head, BLOCK_H = 16 rows of which kv_group_num = 8 are valid (``mask_h``), with ``tl.dot`` for the scores and
for P @ V: a 16-row tile, so Triton lowers both dots to mma.sync (``#ttg.nvidia_mma`` version 2), not wgmma. The
split's keys and values are gathered through a token table, the loop and its stores inside ``if split_kv_end >
split_kv_start:``. Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

SPLITS = 8
KV_GROUP = 8
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_grouped_kernel_stage1",
    "signature": {"Q": "*fp16", "K_Buffer": "*fp16", "V_Buffer": "*fp16", "sm_scale": "fp32",
                  "kv_indptr": "*i32", "kv_indices": "*i32", "Att_Out": "*fp32", "Att_Lse": "*fp32",
                  "stride_qbs": "i32", "stride_qh": "i32", "stride_buf_kbs": "i32", "stride_buf_kh": "i32",
                  "stride_buf_vbs": "i32", "stride_buf_vh": "i32", "stride_mid_ob": "i32", "stride_mid_oh": "i32",
                  "stride_mid_os": "i32"},
    "constexprs": {"kv_group_num": KV_GROUP, "q_head_num": 32, "BLOCK_DMODEL": 128, "BLOCK_DV": 128, "BLOCK_N": 32,
                   "BLOCK_H": 16, "NUM_KV_SPLITS": SPLITS, "Lk": 128, "Lv": 128},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["stride_qbs", "stride_qh", "stride_buf_kbs", "stride_buf_kh", "stride_buf_vbs",
                     "stride_buf_vh", "stride_mid_ob", "stride_mid_oh", "stride_mid_os"],
}
PROBLEM: dict[str, int] = {"B": 64, "H": 32, "L": 4096}      # sequence lengths spread over 1..L
SMALL: dict[str, int] = {"B": 6, "H": 32, "L": 1500}         # lengths 1, 7, 100, 300, 700, 1500


@triton.jit
def _fwd_grouped_kernel_stage1(Q, K_Buffer, V_Buffer, sm_scale, kv_indptr, kv_indices, Att_Out, Att_Lse,
                               stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh,
                               stride_mid_ob, stride_mid_oh, stride_mid_os,
                               kv_group_num: tl.constexpr, q_head_num: tl.constexpr, BLOCK_DMODEL: tl.constexpr,
                               BLOCK_DV: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_H: tl.constexpr,
                               NUM_KV_SPLITS: tl.constexpr, Lk: tl.constexpr, Lv: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head_id = tl.program_id(1)
    cur_kv_head = cur_head_id // tl.cdiv(kv_group_num, BLOCK_H)
    split_kv_id = tl.program_id(2)
    if kv_group_num > BLOCK_H:
        VALID_BLOCK_H: tl.constexpr = BLOCK_H
    else:
        VALID_BLOCK_H: tl.constexpr = kv_group_num
    cur_head = cur_head_id * VALID_BLOCK_H + tl.arange(0, BLOCK_H)
    mask_h = cur_head < (cur_head_id + 1) * VALID_BLOCK_H
    mask_h = mask_h & (cur_head < q_head_num)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    offs_dv = tl.arange(0, BLOCK_DV)
    mask_d = offs_d < Lk
    mask_dv = offs_dv < Lv
    cur_batch_kv_start_idx = tl.load(kv_indptr + cur_batch)
    cur_batch_seq_len = tl.load(kv_indptr + cur_batch + 1) - cur_batch_kv_start_idx
    offs_q = cur_batch * stride_qbs + cur_head[:, None] * stride_qh + offs_d[None, :]
    q = tl.load(Q + offs_q, mask=(mask_h[:, None]) & (mask_d[None, :]), other=0.0)
    kv_len_per_split = tl.cdiv(cur_batch_seq_len, NUM_KV_SPLITS)
    split_kv_start = kv_len_per_split * split_kv_id
    split_kv_end = tl.minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len)
    e_max = tl.zeros([BLOCK_H], dtype=tl.float32) - float("inf")
    e_sum = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, BLOCK_DV], dtype=tl.float32)
    if split_kv_end > split_kv_start:
        for start_n in range(split_kv_start, split_kv_end, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            kv_loc = tl.load(kv_indices + cur_batch_kv_start_idx + offs_n, mask=offs_n < split_kv_end, other=0)
            offs_buf_k = kv_loc[None, :] * stride_buf_kbs + cur_kv_head * stride_buf_kh + offs_d[:, None]
            k = tl.load(K_Buffer + offs_buf_k, mask=(offs_n[None, :] < split_kv_end) & (mask_d[:, None]),
                        other=0.0)
            qk = tl.dot(q, k.to(q.dtype))
            qk *= sm_scale
            qk = tl.where(mask_h[:, None] & (offs_n[None, :] < split_kv_end), qk, float("-inf"))
            offs_buf_v = kv_loc[:, None] * stride_buf_vbs + cur_kv_head * stride_buf_vh + offs_dv[None, :]
            v = tl.load(V_Buffer + offs_buf_v, mask=(offs_n[:, None] < split_kv_end) & (mask_dv[None, :]),
                        other=0.0)
            n_e_max = tl.maximum(tl.max(qk, 1), e_max)
            re_scale = tl.exp(e_max - n_e_max)
            p = tl.exp(qk - n_e_max[:, None])
            acc *= re_scale[:, None]
            acc += tl.dot(p.to(v.dtype), v)
            e_sum = e_sum * re_scale + tl.sum(p, 1)
            e_max = n_e_max
        offs_mid_o = (cur_batch * stride_mid_ob + cur_head[:, None] * stride_mid_oh + split_kv_id * stride_mid_os
                      + offs_dv[None, :])
        tl.store(Att_Out + offs_mid_o, acc / e_sum[:, None], mask=(mask_h[:, None]) & (mask_dv[None, :]))
        offs_mid_o_1 = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os + Lv
        tl.store(Att_Lse + offs_mid_o_1, e_max + tl.log(e_sum), mask=mask_h)


def _lengths(B: int, L: int) -> list[int]:
    if B <= 6:
        return [1, 7, 100, 300, 700, 1500][:B]
    return [1 + (i * 7919) % L for i in range(B)]


def make_inputs(B: int, H: int, L: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    lens = _lengths(B, L)
    tokens = sum(lens)
    indptr = torch.tensor([0] + [sum(lens[:i + 1]) for i in range(B)], device=device, dtype=torch.int32)
    inputs = {"q": torch.randn((B, H, 128), device=device, dtype=torch.float16, generator=g),
              "k": torch.randn((tokens, H // KV_GROUP, 128), device=device, dtype=torch.float16, generator=g),
              "v": torch.randn((tokens, H // KV_GROUP, 128), device=device, dtype=torch.float16, generator=g),
              "indptr": indptr, "lens": lens,
              "indices": torch.randperm(tokens, device=device, generator=g).to(torch.int32)}
    keep = _written(lens)[:, None, :].expand(B, H, SPLITS).flatten()
    inputs["written"] = keep.nonzero()[:, 0].to(device)     # indices, not a mask: a launch inside a CUDA graph
    return inputs


def _written(lens: list[int]) -> Any:
    """Which (sequence, split) pairs hold a key (the others' outputs are not written), on the host."""
    import torch
    out = torch.zeros((len(lens), SPLITS), dtype=torch.bool)
    for b, n in enumerate(lens):
        per = -(-n // SPLITS)
        for s in range(SPLITS):
            out[b, s] = min(per * s + per, n) > per * s
    return out


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(each written split's partial output, its log-sum-exp), fp32; one program per (sequence, KV head, split)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    B, H, D = q.shape
    out = torch.full((B, H, SPLITS, D + 1), float("nan"), device=q.device, dtype=torch.float32)
    grid = (B, triton.cdiv(H, min(16, KV_GROUP)), SPLITS)
    _fwd_grouped_kernel_stage1[grid](q, k, v, D ** -0.5, inputs["indptr"], inputs["indices"], out, out,
                                     q.stride(0), q.stride(1), k.stride(0), k.stride(1), v.stride(0), v.stride(1),
                                     out.stride(0), out.stride(1), out.stride(2),
                                     kv_group_num=KV_GROUP, q_head_num=H, BLOCK_DMODEL=128, BLOCK_DV=128, BLOCK_N=32,
                                     BLOCK_H=16, NUM_KV_SPLITS=SPLITS, Lk=128, Lv=128,
                                     num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    rows = out.view(-1, D + 1).index_select(0, inputs["written"])
    return rows[:, :D], rows[:, D]


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = inputs["q"].double(), inputs["k"].double(), inputs["v"].double()
    B, H, D = q.shape
    out = torch.zeros((B, H, SPLITS, D), dtype=torch.float64, device=q.device)
    lse = torch.zeros((B, H, SPLITS), dtype=torch.float64, device=q.device)
    starts = inputs["indptr"].tolist()
    idx = inputs["indices"].long()
    for b, n in enumerate(inputs["lens"]):
        per = -(-n // SPLITS)
        for s in range(SPLITS):
            lo, hi = per * s, min(per * s + per, n)
            if hi <= lo:
                continue
            rows = idx[starts[b] + lo:starts[b] + hi]
            kk = k[rows].repeat_interleave(KV_GROUP, dim=1)          # [n, H, D]
            vv = v[rows].repeat_interleave(KV_GROUP, dim=1)
            scores = torch.einsum("hd,nhd->hn", q[b], kk) * D ** -0.5
            lse[b, :, s] = torch.logsumexp(scores, dim=1)
            out[b, :, s] = torch.einsum("hn,nhd->hd", torch.softmax(scores, dim=1), vv)
    return out.view(-1, D)[inputs["written"]], lse.view(-1)[inputs["written"]]
