"""SGLang's Triton decode attention, grouped (GQA) stage 1 (`_fwd_grouped_kernel_stage1`,
srt/layers/attention/triton_ops/decode_attention.py, the Req_to_tokens version): one program per (sequence,
block of query heads sharing a KV head, KV split); a [BLOCK_H, BLOCK_DMODEL] q tile with BLOCK_H = 16 and a
`VALID_BLOCK_H` constexpr chosen under `if kv_group_num > BLOCK_H:` (8 heads per KV head here, so half the
tile's rows masked by `mask_h`), the split's keys gathered token by token through `Req_to_tokens` (page size 1)
and loaded already transposed ([BLOCK_DMODEL, BLOCK_N], so `tl.dot(q, k)`), a `BLOCK_DPE > 0` rope branch
(off here), sm_scale, logit cap through SGLang's sigmoid-based `tanh` helper, `tl.where` masking of heads and
tokens, online softmax with `tl.dot(p, v)`, the loop under `if split_kv_end > split_kv_start:`, per-split
output and lse stored after the loop. BLOCK_N 32, 4 warps, 2 stages, as SGLang launches it. fp16 (the library
runs bf16; Triton 3.6's interpreter computes bf16 wrongly)."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

NUM_KV_SPLITS = 8
LOGIT_CAP = 30.0
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_grouped_kernel_stage1",
    "signature": {"Q": "*fp16", "K_Buffer": "*fp16", "V_Buffer": "*fp16", "sm_scale": "fp32",
                  "Req_to_tokens": "*i32", "B_req_idx": "*i32", "B_Seqlen": "*i32", "Att_Out": "*fp32",
                  "stride_req_to_tokens_b": "i32", "stride_qbs": "i32", "stride_qh": "i32",
                  "stride_buf_kbs": "i32", "stride_buf_kh": "i32", "stride_buf_vbs": "i32", "stride_buf_vh": "i32",
                  "stride_mid_ob": "i32", "stride_mid_oh": "i32", "stride_mid_os": "i32"},
    "constexprs": {"kv_group_num": 8, "q_head_num": 32, "BLOCK_DMODEL": 128, "BLOCK_DPE": 0, "BLOCK_DV": 128,
                   "BLOCK_N": 32, "BLOCK_H": 16, "NUM_KV_SPLITS": NUM_KV_SPLITS, "logit_cap": LOGIT_CAP,
                   "Lk": 128, "Lv": 128},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["Q", "K_Buffer", "V_Buffer", "Req_to_tokens", "B_req_idx", "B_Seqlen", "Att_Out",
                     "stride_req_to_tokens_b", "stride_qbs", "stride_qh", "stride_buf_kbs", "stride_buf_kh",
                     "stride_buf_vbs", "stride_buf_vh"]}
# q_head_num and kv_group_num are constexprs: SMALL keeps 32 query heads over 4 KV heads
PROBLEM: dict[str, int] = {"B": 32, "H": 32, "H_KV": 4, "S": 4096, "D": 128}
SMALL: dict[str, int] = {"B": 3, "H": 32, "H_KV": 4, "S": 150, "D": 128}


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
    B_req_idx,
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
    q_head_num: tl.constexpr,
    BLOCK_DMODEL: tl.constexpr,
    BLOCK_DPE: tl.constexpr,
    BLOCK_DV: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_H: tl.constexpr,
    NUM_KV_SPLITS: tl.constexpr,
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
    cur_batch_req_idx = tl.load(B_req_idx + cur_batch)

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

    if split_kv_end > split_kv_start:
        for start_n in range(split_kv_start, split_kv_end, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            kv_loc = tl.load(
                Req_to_tokens + stride_req_to_tokens_b * cur_batch_req_idx + offs_n,
                mask=offs_n < split_kv_end,
                other=0,
            )
            offs_buf_k = (kv_loc[None, :] * stride_buf_kbs + cur_kv_head * stride_buf_kh + offs_d[:, None])
            k = tl.load(
                K_Buffer + offs_buf_k,
                mask=(offs_n[None, :] < split_kv_end) & (mask_d[:, None]),
                other=0.0,
            )
            qk = tl.dot(q, k.to(q.dtype))
            if BLOCK_DPE > 0:
                offs_buf_kpe = (kv_loc[None, :] * stride_buf_kbs + cur_kv_head * stride_buf_kh + offs_dpe[:, None])
                kpe = tl.load(
                    K_Buffer + offs_buf_kpe,
                    mask=(offs_n[None, :] < split_kv_end) & (mask_dpe[:, None]),
                    other=0.0,
                )
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


def make_inputs(B: int, H: int, H_KV: int, S: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    seqlens = torch.randint(S // 4, S + 1, (B, ), device=device, generator=g).to(torch.int32)
    seqlens[0] = 5                                    # fewer tokens than splits: some splits empty
    width = (S + 63) // 64 * 64                       # req_to_token rows padded to the pool's max context
    pool = B * width + 9
    perm = torch.randperm(pool, device=device, generator=g)[: B * width]
    req_to_tokens = perm.view(B, width).to(torch.int32).contiguous()
    b_req_idx = torch.randperm(B, device=device, generator=g).to(torch.int32)
    q = torch.randn((B, H, D), device=device, generator=g).half()
    k = torch.randn((pool, H_KV, D), device=device, generator=g).half()
    v = torch.randn((pool, H_KV, D), device=device, generator=g).half()
    return {"q": q, "k": k, "v": v, "req_to_tokens": req_to_tokens, "b_req_idx": b_req_idx, "seqlens": seqlens,
            "sm_scale": 2.0 / D ** 0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(attn_logits,) as _decode_grouped_att_m_fwd launches stage 1; entries of empty splits stay zero."""
    import torch
    q, k_buffer, v_buffer = inputs["q"], inputs["k"], inputs["v"]
    Req_to_tokens, B_req_idx, B_Seqlen = inputs["req_to_tokens"], inputs["b_req_idx"], inputs["seqlens"]
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
    kv_group_num = q.shape[1] // k_buffer.shape[1]
    att_out = torch.zeros((batch, head_num, NUM_KV_SPLITS, Lv + 1), dtype=torch.float32, device=q.device)
    BLOCK_H = 16
    grid = (batch, triton.cdiv(head_num, min(BLOCK_H, kv_group_num)), NUM_KV_SPLITS)
    _fwd_grouped_kernel_stage1[grid](
        q, k_buffer, v_buffer, inputs["sm_scale"], Req_to_tokens, B_req_idx, B_Seqlen, att_out,
        Req_to_tokens.stride(0), q.stride(0), q.stride(1), k_buffer.stride(0), k_buffer.stride(1),
        v_buffer.stride(0), v_buffer.stride(1), att_out.stride(0), att_out.stride(1), att_out.stride(2),
        kv_group_num=kv_group_num, q_head_num=head_num, BLOCK_DMODEL=BLOCK_DMODEL, BLOCK_DPE=BLOCK_DPE,
        BLOCK_DV=BLOCK_DV, BLOCK_N=BLOCK, BLOCK_H=BLOCK_H, NUM_KV_SPLITS=NUM_KV_SPLITS, logit_cap=LOGIT_CAP,
        Lk=Lk, Lv=Lv, num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return (att_out, )


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, k, v = inputs["q"].double(), inputs["k"].double(), inputs["v"].double()
    r2t, ridx, seqlens = inputs["req_to_tokens"].long(), inputs["b_req_idx"].long(), inputs["seqlens"]
    B, H, D = q.shape
    G = H // k.shape[1]
    out = torch.zeros((B, H, NUM_KV_SPLITS, D + 1), dtype=torch.float64, device=q.device)
    for b in range(B):
        L = int(seqlens[b])
        loc = r2t[int(ridx[b]), :L]
        kb = k[loc].repeat_interleave(G, dim=1)       # (L, H, D)
        vb = v[loc].repeat_interleave(G, dim=1)
        per = (L + NUM_KV_SPLITS - 1) // NUM_KV_SPLITS
        for s in range(NUM_KV_SPLITS):
            lo, hi = per * s, min(per * s + per, L)
            if hi <= lo:
                continue
            sc = torch.einsum("hd,lhd->hl", q[b], kb[lo:hi]) * inputs["sm_scale"]
            sc = LOGIT_CAP * torch.tanh(sc / LOGIT_CAP)
            out[b, :, s, :D] = torch.einsum("hl,lhd->hd", torch.softmax(sc, dim=1), vb[lo:hi])
            out[b, :, s, D] = torch.logsumexp(sc, dim=1)
    return (out, )
