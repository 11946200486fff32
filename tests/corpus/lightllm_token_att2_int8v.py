"""LightLLM's int8-KV decode attention, its second stage ``_fwd_kernel_token_att2_int8v``
(lightllm/models/llama/triton_kernel/token_attention_nopad_reduceV.py, with its launcher ``token_att_fwd2_int8v``):
after the first stage's scores went through a softmax, one program per (sequence, query head) sums the probabilities
times the values over the whole sequence: ``for start_n in range(0, cur_batch_seq_len, BLOCK_N)`` with
``start_n = tl.multiple_of(start_n, BLOCK_N)``, the probabilities read from the flat [heads, total_tokens] ``Prob`` at
the sequence's ``B_Start_Loc``, each token's KV slot gathered through the request's row of ``Req_to_tokens`` (a
masked int32 load with ``other=0.0``), then the int8 V rows [BLOCK_N, D] and their per-(token, KV head) fp16 scales
[BLOCK_N, 1] both gathered with that slot (``v_loc[:, None] * stride_vbs``, ``v_loc[:, None] * stride_vsbs``), GQA
through a runtime ``kv_group_num``, no dot: ``acc += tl.sum(p_value[:, None] * v_value * vs_value, 0)`` (int8
promoted to fp16 by the product), the fp32 [D] accumulator cast to the output's type after the loop. BLOCK_N =
``triton.next_power_of_2(max_len_in_batch)`` up to 512 (512 for these sequences), 4 warps, 1 stage, as the launcher
picks. fp16 probabilities and output, 32 query heads over 8 KV heads, head size 128."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

H_Q, H_KV, HEAD = 32, 8, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_token_att2_int8v",
    "signature": {"Prob": "*fp16", "V": "*i8", "V_scale": "*fp16", "Out": "*fp16", "Req_to_tokens": "*i32",
                  "B_req_idx": "*i32", "B_Start_Loc": "*i32", "B_Seqlen": "*i32",
                  "stride_req_to_tokens_b": "i32", "stride_req_to_tokens_s": "constexpr", "stride_ph": "i32",
                  "stride_pbs": "constexpr", "stride_vbs": "i32", "stride_vh": "i32", "stride_vd": "constexpr",
                  "stride_vsbs": "i32", "stride_vsh": "constexpr", "stride_vsd": "constexpr", "stride_obs": "i32",
                  "stride_oh": "i32", "stride_od": "constexpr", "kv_group_num": "i32"},
    "constexprs": {"stride_req_to_tokens_s": 1, "stride_pbs": 1, "stride_vd": 1, "stride_vsh": 1, "stride_vsd": 1,
                   "stride_od": 1, "BLOCK_DMODEL": HEAD, "BLOCK_N": 512},
    "num_warps": 4, "num_stages": 1,
    # stride_ph is the batch's total token count (ragged) and stride_vsbs the KV head count (8): neither divisible
    "divisibility": ["Prob", "V", "V_scale", "Out", "Req_to_tokens", "B_req_idx", "B_Start_Loc", "B_Seqlen",
                     "stride_req_to_tokens_b", "stride_vbs", "stride_vh", "stride_obs", "stride_oh"]}
PROBLEM: dict[str, int] = {"B": 64, "S": 4096}
SMALL: dict[str, int] = {"B": 3, "S": 700}      # a longest sequence over 512: the same BLOCK_N


@triton.jit
def _fwd_kernel_token_att2_int8v(
    Prob,
    V,
    V_scale,
    Out,
    Req_to_tokens,
    B_req_idx,
    B_Start_Loc,
    B_Seqlen,  # B_Start_Loc: where each sequence's probabilities start in Prob's token axis
    stride_req_to_tokens_b,
    stride_req_to_tokens_s,
    stride_ph,
    stride_pbs,
    stride_vbs,
    stride_vh,
    stride_vd,
    stride_vsbs,
    stride_vsh,
    stride_vsd,
    stride_obs,
    stride_oh,
    stride_od,
    kv_group_num,
    BLOCK_DMODEL: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    # twill corpus rendition: P @ V over one sequence, V int8 with a scale per token and KV head
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)

    cur_kv_head = cur_head // kv_group_num

    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    cur_batch_start_index = 0
    cur_batch_in_all_start_index = tl.load(B_Start_Loc + cur_batch)
    cur_batch_req_idx = tl.load(B_req_idx + cur_batch)

    v_loc_off = cur_batch_req_idx * stride_req_to_tokens_b + (cur_batch_start_index + offs_n) * stride_req_to_tokens_s
    p_offs = cur_head * stride_ph + (cur_batch_in_all_start_index + offs_n) * stride_pbs
    v_offs = cur_kv_head * stride_vh + offs_d[None, :] * stride_vd
    vs_offs = cur_kv_head * stride_vsh

    acc = tl.zeros([BLOCK_DMODEL], dtype=tl.float32)
    for start_n in range(0, cur_batch_seq_len, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        p_value = tl.load(Prob + p_offs + start_n, mask=(start_n + offs_n) < cur_batch_seq_len, other=0.0)
        v_loc = tl.load(
            Req_to_tokens + v_loc_off + start_n * stride_req_to_tokens_s,
            mask=(start_n + offs_n) < cur_batch_seq_len,
            other=0.0,
        )
        v_value = tl.load(
            V + v_offs + v_loc[:, None] * stride_vbs,
            mask=(start_n + offs_n[:, None]) < cur_batch_seq_len,
            other=0.0,
        )
        vs_value = tl.load(
            V_scale + vs_offs + v_loc[:, None] * stride_vsbs,
            mask=(start_n + offs_n[:, None]) < cur_batch_seq_len,
            other=0.0,
        )
        acc += tl.sum(p_value[:, None] * v_value * vs_value, 0)

    acc = acc.to(Out.dtype.element_ty)
    off_o = cur_batch * stride_obs + cur_head * stride_oh + offs_d * stride_od
    out_ptrs = Out + off_o
    tl.store(out_ptrs, acc)
    return


def token_att_fwd2_int8v(prob, v, v_scale, out, Req_to_tokens, B_req_idx, B_Start_Loc, B_Seqlen, max_len_in_batch,
                         num_warps=4, num_stages=1):
    if max_len_in_batch < 512:
        BLOCK = triton.next_power_of_2(max_len_in_batch)
    else:
        BLOCK = 512
    batch, head = B_req_idx.shape[0], prob.shape[0]
    grid = (batch, head)
    dim = v.shape[-1]
    kv_group_num = prob.shape[0] // v.shape[1]

    _fwd_kernel_token_att2_int8v[grid](
        prob,
        v,
        v_scale,
        out,
        Req_to_tokens,
        B_req_idx,
        B_Start_Loc,
        B_Seqlen,
        Req_to_tokens.stride(0),
        Req_to_tokens.stride(1),
        prob.stride(0),
        prob.stride(1),
        v.stride(0),
        v.stride(1),
        v.stride(2),
        v_scale.stride(0),
        v_scale.stride(1),
        v_scale.stride(2),
        out.stride(0),
        out.stride(1),
        out.stride(2),
        kv_group_num=kv_group_num,
        BLOCK_DMODEL=dim,
        BLOCK_N=BLOCK,
        num_warps=num_warps,
        num_stages=num_stages,
    )
    return


def make_inputs(B: int, S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """A decode batch: B requests of up to S tokens (the first S long, one 1 token long), their KV slots scattered
    over a token pool through the request table (rows padded to a multiple of 16), requests in a shuffled order;
    V quantised per (token, KV head) to int8 with its fp16 scale (LightLLM's destindex_copy_quantize_kv), the
    probabilities a softmax per (head, sequence)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    seqlens = torch.randint(S // 3, S + 1, (B,), device=device, generator=g).to(torch.int32)
    seqlens[0] = S
    seqlens[-1] = 1
    max_req_len = (S + 15) // 16 * 16
    num_reqs = B + 3
    pool = num_reqs * max_req_len + 11
    req_to_tokens = torch.randperm(pool, device=device, generator=g)[: num_reqs * max_req_len].view(
        num_reqs, max_req_len).to(torch.int32).contiguous()
    b_req_idx = torch.randperm(num_reqs, device=device, generator=g)[:B].to(torch.int32)
    b_start_loc = (torch.cumsum(seqlens, 0) - seqlens).to(torch.int32)
    total = int(seqlens.sum())
    v = torch.randn((pool, H_KV, HEAD), device=device, generator=g)
    v_scale = v.abs().amax(-1, keepdim=True) / 127.0
    v_int8 = torch.round(v / v_scale).clamp(-127, 127).to(torch.int8)
    scores = torch.randn((H_Q, total), device=device, generator=g) * 2.0
    prob = torch.empty_like(scores)
    for b in range(B):
        s0, n = int(b_start_loc[b]), int(seqlens[b])
        prob[:, s0:s0 + n] = torch.softmax(scores[:, s0:s0 + n], dim=-1)
    return {"prob": prob.half(), "v": v_int8, "v_scale": v_scale.half(), "req_to_tokens": req_to_tokens,
            "b_req_idx": b_req_idx, "b_start_loc": b_start_loc, "b_seqlen": seqlens,
            "max_len_in_batch": int(seqlens.max())}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out [B, H_Q, HEAD] fp16: sum over the sequence's tokens of prob * (v_int8 * v_scale)."""
    import torch
    prob = inputs["prob"]
    out = torch.empty((inputs["b_req_idx"].shape[0], prob.shape[0], HEAD), dtype=prob.dtype, device=prob.device)
    token_att_fwd2_int8v(prob, inputs["v"], inputs["v_scale"], out, inputs["req_to_tokens"], inputs["b_req_idx"],
                         inputs["b_start_loc"], inputs["b_seqlen"], inputs["max_len_in_batch"],
                         num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 1))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    prob = inputs["prob"].double()
    v = inputs["v"].double() * inputs["v_scale"].double()          # [pool, H_KV, D]
    r2t, ridx = inputs["req_to_tokens"].long(), inputs["b_req_idx"].long()
    seqlens, starts = inputs["b_seqlen"].long(), inputs["b_start_loc"].long()
    B = ridx.shape[0]
    out = torch.zeros((B, H_Q, HEAD), dtype=torch.float64, device=prob.device)
    for b in range(B):
        L, s0 = int(seqlens[b]), int(starts[b])
        vb = v[r2t[ridx[b], :L]].repeat_interleave(H_Q // H_KV, dim=1)     # [L, H_Q, D]
        out[b] = torch.einsum("hl,lhd->hd", prob[:, s0:s0 + L], vb)
    return out.to(inputs["prob"].dtype)
