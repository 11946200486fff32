"""DeepSeek MLA decode through vLLM's Triton MLA backend (vllm/attention/ops/triton_decode_attention.py
``_fwd_grouped_kernel_stage1`` + ``_fwd_kernel_stage2``, as ``TritonMLAImpl._forward_decode`` calls them): the
latent KV cache [num_pages, PAGE_SIZE, 1, 576] holds the 512-wide compressed KV (kv_c) and the 64-wide rope key
(k_pe) of each token; q [B, 16, 576] (q_nope already absorbed through W_UK, then q_pe). Stage 1: one program per
(sequence, block of BLOCK_H = 16 heads, KV split), the split's tokens found through a paged block table
(``kv_page_number = tl.load(Req_to_tokens + ... + offs_n // PAGE_SIZE)``, ``kv_loc = page * PAGE_SIZE +
offs_n % PAGE_SIZE``), **two dots summed** for the scores (``qk = dot(q_nope, kv_c^T)`` then, under
``BLOCK_DPE > 0``, ``qk += dot(q_pe, k_pe^T)``) and V the first 512 columns of the **same** cache (a strided view,
``V_Buffer = K_Buffer[..., :512]``), so P @ kv_c is a [16, 32] x [32, 512] dot into a [16, 512] fp32 accumulator;
``logit_cap`` constexpr (0: off), ``k_scale``/``v_scale`` loaded from one-element tensors, the loop under
``if split_kv_end > split_kv_start:``, the split's normalised output and its lse stored after it. Stage 2 merges
the splits (here its
merge in torch ops in ``launch``). fp16 (vLLM runs bf16). Nothing here is imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

KV_LORA_RANK = 512
QK_ROPE_DIM = 64
NUM_KV_SPLITS = 4
PAGE_SIZE = 16
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_grouped_kernel_stage1",
    "signature": {"Q": "*fp16", "K_Buffer": "*fp16", "V_Buffer": "*fp16", "sm_scale": "fp32",
                  "Req_to_tokens": "*i32", "B_Seqlen": "*i32", "Att_Out": "*fp32",
                  "stride_req_to_tokens_b": "i32", "stride_qbs": "i32", "stride_qh": "i32",
                  "stride_buf_kbs": "i32", "stride_buf_kh": "i32", "stride_buf_vbs": "i32", "stride_buf_vh": "i32",
                  "stride_mid_ob": "i32", "stride_mid_oh": "i32", "stride_mid_os": "i32",
                  "k_scale": "*fp32", "v_scale": "*fp32"},
    "constexprs": {"kv_group_num": 16, "q_head_num": 16, "BLOCK_DMODEL": 512, "BLOCK_DPE": 64, "BLOCK_DV": 512,
                   "BLOCK_N": 32, "BLOCK_H": 16, "NUM_KV_SPLITS": NUM_KV_SPLITS, "PAGE_SIZE": PAGE_SIZE,
                   "logit_cap": 0.0, "Lk": KV_LORA_RANK + QK_ROPE_DIM, "Lv": KV_LORA_RANK},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["stride_req_to_tokens_b", "stride_qbs", "stride_qh", "stride_buf_kbs", "stride_buf_kh",
                     "stride_buf_vbs", "stride_buf_vh", "stride_mid_ob", "stride_mid_oh", "stride_mid_os"]}
# 16 heads: DeepSeek-V3's 128 over tensor parallelism 8, all on the one latent KV head
PROBLEM: dict[str, int] = {"B": 64, "H": 16, "S": 4096}
SMALL: dict[str, int] = {"B": 3, "H": 16, "S": 90}


@triton.jit
def tanh(x):
    # Tanh is just a scaled sigmoid
    return 2 * tl.sigmoid(2 * x) - 1


@triton.jit
def _fwd_grouped_kernel_stage1(
    Q,
    K_Buffer,
    V_Buffer,
    sm_scale,
    Req_to_tokens,
    B_Seqlen,
    Att_Out,
    stride_req_to_tokens_b,
    stride_qbs,
    stride_qh,
    stride_buf_kbs,
    stride_buf_kh,
    stride_buf_vbs,
    stride_buf_vh,
    stride_mid_ob,
    stride_mid_oh,
    stride_mid_os,
    k_scale,
    v_scale,
    kv_group_num: tl.constexpr,
    q_head_num: tl.constexpr,
    BLOCK_DMODEL: tl.constexpr,
    BLOCK_DPE: tl.constexpr,
    BLOCK_DV: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_H: tl.constexpr,
    NUM_KV_SPLITS: tl.constexpr,
    PAGE_SIZE: tl.constexpr,
    logit_cap: tl.constexpr,
    Lk: tl.constexpr,
    Lv: tl.constexpr,
):
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
    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    cur_batch_req_idx = cur_batch

    offs_q = cur_batch * stride_qbs + cur_head[:, None] * stride_qh + offs_d[None, :]
    q = tl.load(Q + offs_q, mask=(mask_h[:, None]) & (mask_d[None, :]), other=0.0)

    if BLOCK_DPE > 0:
        offs_dpe = BLOCK_DMODEL + tl.arange(0, BLOCK_DPE)
        mask_dpe = offs_dpe < Lk
        off_qpe = (cur_batch * stride_qbs + cur_head[:, None] * stride_qh + offs_dpe[None, :])
        qpe = tl.load(Q + off_qpe, mask=(mask_h[:, None]) & (mask_dpe[None, :]), other=0.0)

    kv_len_per_split = tl.cdiv(cur_batch_seq_len, NUM_KV_SPLITS)
    split_kv_start = kv_len_per_split * split_kv_id
    split_kv_end = tl.minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len)

    e_max = tl.zeros([BLOCK_H], dtype=tl.float32) - float("inf")
    e_sum = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, BLOCK_DV], dtype=tl.float32)

    ks = tl.load(k_scale)
    vs = tl.load(v_scale)

    if split_kv_end > split_kv_start:
        for start_n in range(split_kv_start, split_kv_end, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            kv_page_number = tl.load(
                Req_to_tokens + stride_req_to_tokens_b * cur_batch_req_idx + offs_n // PAGE_SIZE,
                mask=offs_n < split_kv_end,
                other=0,
            )
            kv_loc = kv_page_number * PAGE_SIZE + offs_n % PAGE_SIZE
            offs_buf_k = (kv_loc[None, :] * stride_buf_kbs + cur_kv_head * stride_buf_kh + offs_d[:, None])
            k = tl.load(
                K_Buffer + offs_buf_k,
                mask=(offs_n[None, :] < split_kv_end) & (mask_d[:, None]),
                other=0.0,
            )
            if k.dtype.is_fp8():
                k = (k.to(tl.float32) * ks).to(q.dtype)
            qk = tl.dot(q, k.to(q.dtype))
            if BLOCK_DPE > 0:
                offs_buf_kpe = (kv_loc[None, :] * stride_buf_kbs + cur_kv_head * stride_buf_kh + offs_dpe[:, None])
                kpe = tl.load(
                    K_Buffer + offs_buf_kpe,
                    mask=(offs_n[None, :] < split_kv_end) & (mask_dpe[:, None]),
                    other=0.0,
                )
                if kpe.dtype.is_fp8():
                    kpe = (kpe.to(tl.float32) * ks).to(qpe.dtype)
                qk += tl.dot(qpe, kpe.to(qpe.dtype))
            qk *= sm_scale

            if logit_cap > 0:
                qk = logit_cap * tanh(qk / logit_cap)

            qk = tl.where(mask_h[:, None] & (offs_n[None, :] < split_kv_end), qk, float("-inf"))

            offs_buf_v = (kv_loc[:, None] * stride_buf_vbs + cur_kv_head * stride_buf_vh + offs_dv[None, :])
            v = tl.load(
                V_Buffer + offs_buf_v,
                mask=(offs_n[:, None] < split_kv_end) & (mask_dv[None, :]),
                other=0.0,
            )
            if v.dtype.is_fp8():
                v = (v.to(tl.float32) * vs).to(q.dtype)

            n_e_max = tl.maximum(tl.max(qk, 1), e_max)
            re_scale = tl.exp(e_max - n_e_max)
            p = tl.exp(qk - n_e_max[:, None])
            acc *= re_scale[:, None]
            acc += tl.dot(p.to(v.dtype), v)

            e_sum = e_sum * re_scale + tl.sum(p, 1)
            e_max = n_e_max

        offs_mid_o = (cur_batch * stride_mid_ob + cur_head[:, None] * stride_mid_oh + split_kv_id * stride_mid_os +
                      offs_dv[None, :])

        tl.store(
            Att_Out + offs_mid_o,
            acc / e_sum[:, None],
            mask=(mask_h[:, None]) & (mask_dv[None, :]),
        )

        offs_mid_o_1 = (cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os + Lv)

        tl.store(
            Att_Out + offs_mid_o_1,
            e_max + tl.log(e_sum),
            mask=mask_h,
        )


@triton.jit
def _fwd_kernel_stage2(
    Mid_O,
    o,
    B_Seqlen,
    stride_mid_ob,
    stride_mid_oh,
    stride_mid_os,
    stride_obs,
    stride_oh,
    NUM_KV_SPLITS: tl.constexpr,
    BLOCK_DV: tl.constexpr,
    Lv: tl.constexpr,
):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)

    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)

    offs_d = tl.arange(0, BLOCK_DV)
    mask_d = offs_d < Lv

    e_sum = 0.0
    e_max = -float("inf")
    acc = tl.zeros([BLOCK_DV], dtype=tl.float32)

    offs_v = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + offs_d
    offs_logic = cur_batch * stride_mid_ob + cur_head * stride_mid_oh + Lv

    for split_kv_id in range(0, NUM_KV_SPLITS):
        kv_len_per_split = tl.cdiv(cur_batch_seq_len, NUM_KV_SPLITS)
        split_kv_start = kv_len_per_split * split_kv_id
        split_kv_end = tl.minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len)

        if split_kv_end > split_kv_start:
            tv = tl.load(Mid_O + offs_v + split_kv_id * stride_mid_os, mask=mask_d, other=0.0)
            tlogic = tl.load(Mid_O + offs_logic + split_kv_id * stride_mid_os)
            n_e_max = tl.maximum(tlogic, e_max)

            old_scale = tl.exp(e_max - n_e_max)
            acc *= old_scale
            exp_logic = tl.exp(tlogic - n_e_max)
            acc += exp_logic * tv

            e_sum = e_sum * old_scale + exp_logic
            e_max = n_e_max

    tl.store(
        o + cur_batch * stride_obs + cur_head * stride_oh + offs_d,
        acc / e_sum,
        mask=mask_d,
    )


def make_inputs(B: int, H: int, S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q [B, H, 576] fp16; the latent cache [pages, PAGE_SIZE, 1, 576] fp16 with a block table [B, max_pages] of
    shuffled pages; sequence lengths in [S // 4, S] (one of 3 tokens: fewer than the splits, some empty);
    the split buffer and the output allocated here (as vLLM's metadata builder does), so a launch only launches."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    D = KV_LORA_RANK + QK_ROPE_DIM
    seqlens = torch.randint(S // 4, S + 1, (B,), device=device, generator=g).to(torch.int32)
    seqlens[0] = 3
    max_pages = triton.cdiv(S, PAGE_SIZE)
    pages = B * max_pages + 5
    block_table = torch.randperm(pages, device=device, generator=g)[: B * max_pages].view(B, max_pages)
    block_table = block_table.to(torch.int32).contiguous()
    q = (torch.randn((B, H, D), device=device, generator=g) * 0.5).half()
    kv_cache = (torch.randn((pages, PAGE_SIZE, D), device=device, generator=g) * 0.5).half()
    attn_logits = torch.empty((B, H, NUM_KV_SPLITS, KV_LORA_RANK + 1), device=device, dtype=torch.float32)
    o = torch.empty((B, H, KV_LORA_RANK), device=device, dtype=torch.float32)
    one = torch.ones((1,), device=device, dtype=torch.float32)
    return {"q": q, "kv_cache": kv_cache, "block_table": block_table, "seqlens": seqlens,
            "attn_logits": attn_logits, "o": o, "k_scale": one, "v_scale": one.clone(), "sm_scale": D ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [B, H, 512] fp32: stage 1 then stage 2, as ``decode_attention_fwd_grouped`` with ``Lk == 576``."""
    q = inputs["q"]
    kv_c_and_k_pe_cache = inputs["kv_cache"].unsqueeze(2)          # add a head dim of 1
    k_buffer = kv_c_and_k_pe_cache
    v_buffer = kv_c_and_k_pe_cache[..., :KV_LORA_RANK]
    Req_to_tokens, B_Seqlen = inputs["block_table"], inputs["seqlens"]
    att_out, o = inputs["attn_logits"], inputs["o"]
    BLOCK = 32
    Lk = k_buffer.shape[-1]
    Lv = v_buffer.shape[-1]
    if Lk == 576:
        BLOCK_DMODEL = 512
        BLOCK_DPE = 64
    elif Lk == 288:
        BLOCK_DMODEL = 256
        BLOCK_DPE = 32
    else:
        BLOCK_DMODEL = triton.next_power_of_2(Lk)
        BLOCK_DPE = 0
    BLOCK_DV = triton.next_power_of_2(Lv)
    batch, head_num = q.shape[0], q.shape[1]
    kv_group_num = q.shape[1] // k_buffer.shape[-2]
    BLOCK_H = 16
    grid = (batch, triton.cdiv(head_num, min(BLOCK_H, kv_group_num)), NUM_KV_SPLITS)
    _fwd_grouped_kernel_stage1[grid](
        q, k_buffer, v_buffer, inputs["sm_scale"], Req_to_tokens, B_Seqlen, att_out,
        Req_to_tokens.stride(0), q.stride(0), q.stride(1),
        k_buffer.stride(-3), k_buffer.stride(-2), v_buffer.stride(-3), v_buffer.stride(-2),
        att_out.stride(0), att_out.stride(1), att_out.stride(2), inputs["k_scale"], inputs["v_scale"],
        kv_group_num=kv_group_num, q_head_num=head_num, BLOCK_DMODEL=BLOCK_DMODEL, BLOCK_DPE=BLOCK_DPE,
        BLOCK_DV=BLOCK_DV, BLOCK_N=BLOCK, BLOCK_H=BLOCK_H, NUM_KV_SPLITS=NUM_KV_SPLITS, PAGE_SIZE=PAGE_SIZE,
        logit_cap=0.0, Lk=Lk, Lv=Lv, num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    # stage 2 (``_fwd_kernel_stage2`` above) as torch ops, so a CPU dry run exercises stage 1's launcher alone
    _merge_splits(att_out, B_Seqlen, o, Lv)
    return o


def _merge_splits(att_out: Any, seqlens: Any, o: Any, Lv: int) -> None:
    """``_fwd_kernel_stage2``'s merge of the splits (empty splits skipped) in torch ops, graph-capturable."""
    import torch
    per = (seqlens.long() + NUM_KV_SPLITS - 1) // NUM_KV_SPLITS                       # B
    sid = torch.arange(NUM_KV_SPLITS, device=att_out.device)
    start = per[:, None] * sid[None, :]
    end = torch.minimum(start + per[:, None], seqlens.long()[:, None])
    valid = (end > start)[:, None, :]                                                # B 1 S
    lse = torch.where(valid, att_out[..., Lv], torch.full_like(att_out[..., Lv], float("-inf")))
    w = torch.softmax(lse, dim=-1)                                                   # B H S
    o.copy_((w[..., None] * torch.where(valid[..., None], att_out[..., :Lv], 0.0)).sum(2))


def reference(inputs: dict[str, Any]) -> Any:
    """softmax(scale * (q_nope kv_c^T + q_pe k_pe^T)) kv_c per sequence, in float64."""
    import torch
    q, cache = inputs["q"].double(), inputs["kv_cache"].double()
    bt, seqlens = inputs["block_table"].long(), inputs["seqlens"]
    B, H, D = q.shape
    out = torch.zeros((B, H, KV_LORA_RANK), dtype=torch.float64, device=q.device)
    for b in range(B):
        L = int(seqlens[b])
        pos = torch.arange(L, device=q.device)
        rows = cache[bt[b, pos // PAGE_SIZE], pos % PAGE_SIZE]          # L, 576
        s = (q[b] @ rows.T) * inputs["sm_scale"]                         # H, L: both dots in one
        out[b] = torch.softmax(s, dim=-1) @ rows[:, :KV_LORA_RANK]
    return out


def flops(B: int, H: int, S: int) -> float:
    return 2.0 * B * H * S * (KV_LORA_RANK + QK_ROPE_DIM + KV_LORA_RANK)
