"""vLLM's Triton decode attention, stage 1 (`_fwd_kernel_stage1`, the MHA path, kv_group_num == 1): one query
row per (sequence, head, KV split), the split's keys and values gathered through the request's page table
(`Req_to_tokens`, PAGE_SIZE tokens per page), `kv_group_num` mapping the head to its KV head, logit capping by
vLLM's own `tanh` helper (a @triton.jit function over `tl.sigmoid`) under a float constexpr `logit_cap`, no
`tl.dot` (scores as `tl.sum(q * k)`), the loop inside `if split_kv_end > split_kv_start:`, the split's output and
its logsumexp stored after the loop. BLOCK_N 64, 4 warps, 2 stages, as vLLM launches it."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

NUM_KV_SPLITS = 8
PAGE = 16
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_stage1",
    "signature": {"Q": "*fp16", "K_Buffer": "*fp16", "V_Buffer": "*fp16", "sm_scale": "fp32",
                  "Req_to_tokens": "*i32", "B_Seqlen": "*i32", "Att_Out": "*fp32",
                  "stride_req_to_tokens_b": "i32", "stride_qbs": "i32", "stride_qh": "i32",
                  "stride_buf_kbs": "i32", "stride_buf_kh": "i32", "stride_buf_vbs": "i32", "stride_buf_vh": "i32",
                  "stride_mid_ob": "i32", "stride_mid_oh": "i32", "stride_mid_os": "i32"},
    "constexprs": {"kv_group_num": 1, "BLOCK_DMODEL": 128, "BLOCK_DV": 128, "BLOCK_N": 64,
                   "NUM_KV_SPLITS": NUM_KV_SPLITS, "PAGE_SIZE": PAGE, "logit_cap": 30.0, "Lk": 128, "Lv": 128},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["stride_qbs", "stride_qh", "stride_buf_kbs", "stride_buf_kh", "stride_buf_vbs",
                     "stride_buf_vh", "stride_mid_ob", "stride_mid_oh", "stride_mid_os"]}
PROBLEM: dict[str, int] = {"B": 32, "H": 32, "S": 4096, "D": 128}
SMALL: dict[str, int] = {"B": 3, "H": 2, "S": 200, "D": 128}
LOGIT_CAP = 30.0


@triton.jit
def tanh(x):
    # Tanh is just a scaled sigmoid
    return 2 * tl.sigmoid(2 * x) - 1


@triton.jit
def _fwd_kernel_stage1(
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
    kv_group_num: tl.constexpr,
    BLOCK_DMODEL: tl.constexpr,
    BLOCK_DV: tl.constexpr,
    BLOCK_N: tl.constexpr,
    NUM_KV_SPLITS: tl.constexpr,
    PAGE_SIZE: tl.constexpr,
    logit_cap: tl.constexpr,
    Lk: tl.constexpr,
    Lv: tl.constexpr,
):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    split_kv_id = tl.program_id(2)

    cur_kv_head = cur_head // kv_group_num

    offs_d = tl.arange(0, BLOCK_DMODEL)
    offs_dv = tl.arange(0, BLOCK_DV)
    mask_d = offs_d < Lk
    mask_dv = offs_dv < Lv
    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    cur_batch_req_idx = cur_batch

    off_q = cur_batch * stride_qbs + cur_head * stride_qh + offs_d
    q = tl.load(Q + off_q, mask=mask_d, other=0.0)

    kv_len_per_split = tl.cdiv(cur_batch_seq_len, NUM_KV_SPLITS)
    split_kv_start = kv_len_per_split * split_kv_id
    split_kv_end = tl.minimum(split_kv_start + kv_len_per_split, cur_batch_seq_len)

    e_max = -float("inf")
    e_sum = 0.0
    acc = tl.zeros([BLOCK_DV], dtype=tl.float32)

    if split_kv_end > split_kv_start:
        for start_n in range(split_kv_start, split_kv_end, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            kv_page_number = tl.load(
                Req_to_tokens + stride_req_to_tokens_b * cur_batch_req_idx + offs_n // PAGE_SIZE,
                mask=offs_n < split_kv_end,
                other=0,
            )
            kv_loc = kv_page_number * PAGE_SIZE + offs_n % PAGE_SIZE
            offs_buf_k = (kv_loc[:, None] * stride_buf_kbs + cur_kv_head * stride_buf_kh + offs_d[None, :])
            k = tl.load(
                K_Buffer + offs_buf_k,
                mask=(offs_n[:, None] < split_kv_end) & (mask_d[None, :]),
                other=0.0,
            )
            qk = tl.sum(q[None, :] * k, 1)
            qk *= sm_scale

            if logit_cap > 0:
                qk = logit_cap * tanh(qk / logit_cap)

            qk = tl.where(offs_n < split_kv_end, qk, float("-inf"))

            offs_buf_v = (kv_loc[:, None] * stride_buf_vbs + cur_kv_head * stride_buf_vh + offs_dv[None, :])
            v = tl.load(
                V_Buffer + offs_buf_v,
                mask=(offs_n[:, None] < split_kv_end) & (mask_dv[None, :]),
                other=0.0,
            )

            n_e_max = tl.maximum(tl.max(qk, 0), e_max)
            re_scale = tl.exp(e_max - n_e_max)
            p = tl.exp(qk - n_e_max)
            acc *= re_scale
            acc += tl.sum(p[:, None] * v, 0)

            e_sum = e_sum * re_scale + tl.sum(p, 0)
            e_max = n_e_max

        offs_mid_o = (cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os + offs_dv)

        tl.store(
            Att_Out + offs_mid_o,
            acc / e_sum,
            mask=(mask_dv),
        )

        offs_mid_o_1 = (cur_batch * stride_mid_ob + cur_head * stride_mid_oh + split_kv_id * stride_mid_os + Lv)

        tl.store(
            Att_Out + offs_mid_o_1,
            e_max + tl.log(e_sum),
        )


def make_inputs(B: int, H: int, S: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    seqlens = torch.randint(S // 4, S + 1, (B,), device=device, generator=g).to(torch.int32)
    seqlens[0] = 5                                    # fewer tokens than splits: some splits empty
    pages_per_req = (S + PAGE - 1) // PAGE
    num_pages = B * pages_per_req + 7
    perm = torch.randperm(num_pages, device=device, generator=g)[: B * pages_per_req]
    req_to_tokens = perm.view(B, pages_per_req).to(torch.int32).contiguous()
    q = (torch.randn((B, H, D), device=device, generator=g)).half()
    k = (torch.randn((num_pages, PAGE, H, D), device=device, generator=g)).half()
    v = (torch.randn((num_pages, PAGE, H, D), device=device, generator=g)).half()
    return {"q": q, "k": k, "v": v, "req_to_tokens": req_to_tokens, "seqlens": seqlens,
            "sm_scale": 2.0 / D ** 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(attn_logits,) as _decode_att_m_fwd launches stage 1; the (sequence, head, split) entries of empty splits
    are zeroed before and compared as zero."""
    import torch
    q, k_buffer, v_buffer = inputs["q"], inputs["k"], inputs["v"]
    Req_to_tokens, B_Seqlen = inputs["req_to_tokens"], inputs["seqlens"]
    batch, head_num = q.shape[0], q.shape[1]
    Lk, Lv = k_buffer.shape[-1], v_buffer.shape[-1]
    att_out = torch.zeros((batch, head_num, NUM_KV_SPLITS, Lv + 1), dtype=torch.float32, device=q.device)
    BLOCK = 64
    num_kv_splits = NUM_KV_SPLITS
    grid = (batch, head_num, num_kv_splits)
    kv_group_num = q.shape[1] // k_buffer.shape[-2]
    num_warps = 4 if kv_group_num == 1 else 2
    BLOCK_DMODEL = triton.next_power_of_2(Lk)
    BLOCK_DV = triton.next_power_of_2(Lv)
    _fwd_kernel_stage1[grid](
        q, k_buffer, v_buffer, inputs["sm_scale"], Req_to_tokens, B_Seqlen, att_out,
        Req_to_tokens.stride(0), q.stride(0), q.stride(1), k_buffer.stride(-3), k_buffer.stride(-2),
        v_buffer.stride(-3), v_buffer.stride(-2), att_out.stride(0), att_out.stride(1), att_out.stride(2),
        kv_group_num=kv_group_num, BLOCK_DMODEL=BLOCK_DMODEL, BLOCK_DV=BLOCK_DV, BLOCK_N=BLOCK,
        NUM_KV_SPLITS=num_kv_splits, PAGE_SIZE=PAGE, logit_cap=LOGIT_CAP, Lk=Lk, Lv=Lv,
        num_warps=config.get("num_warps", num_warps), num_stages=config.get("num_stages", 2))
    return (att_out,)


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = inputs["q"].double(), inputs["k"].double(), inputs["v"].double()
    r2t, seqlens = inputs["req_to_tokens"].long(), inputs["seqlens"]
    B, H, D = q.shape
    out = torch.zeros((B, H, NUM_KV_SPLITS, D + 1), dtype=torch.float64, device=q.device)
    for b in range(B):
        L = int(seqlens[b])
        tok = torch.arange(L, device=q.device)
        loc = r2t[b, tok // PAGE] * PAGE + tok % PAGE
        kb = k.reshape(-1, H, D)[loc]          # (L, H, D)
        vb = v.reshape(-1, H, D)[loc]
        per = (L + NUM_KV_SPLITS - 1) // NUM_KV_SPLITS
        for s in range(NUM_KV_SPLITS):
            lo, hi = per * s, min(per * s + per, L)
            if hi <= lo:
                continue
            sc = torch.einsum("hd,lhd->hl", q[b], kb[lo:hi]) * inputs["sm_scale"]
            sc = LOGIT_CAP * torch.tanh(sc / LOGIT_CAP)
            lse = torch.logsumexp(sc, dim=1)
            p = torch.softmax(sc, dim=1)
            out[b, :, s, :D] = torch.einsum("hl,lhd->hd", p, vb[lo:hi])
            out[b, :, s, D] = lse
    return (out,)
