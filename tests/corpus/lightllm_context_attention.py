"""LightLLM's prefill attention ``_fwd_kernel`` (lightllm/models/llama/triton_kernel/context_flashattention_nopad.py,
as ``context_attention_fwd`` launches it): packed variable-length sequences without padding, each sequence's
start ``B_Start_Loc`` and length ``B_Seqlen`` loaded from memory, one program per (sequence, head, BLOCK_M rows),
GQA through a runtime ``kv_group_num`` (``cur_head // kv_group_num``), the loop bound ``block_mask * (start_m + 1) *
BLOCK_M`` (``block_mask = tl.where(block_start_loc < cur_batch_seq_len, 1, 0)``: zero iterations for row blocks past
the sequence), ``tl.multiple_of(start_n, BLOCK_N)``, K loaded transposed through pointer arithmetic
(``offs_d[:, None] * stride_kd``), ``qk = tl.zeros(...); qk += tl.dot(q, k)``, causal masking by ``tl.where(offs_m >=
start_n + offs_n, qk, -inf)``, LightLLM's online softmax that renormalises the accumulator every iteration
(``p_scale = beta / l_i_new``, ``acc_scale = l_i / l_i_new * alpha``, ``tl.exp``), ``p.to(v.dtype)`` for the PV dot,
and an fp32 accumulator stored into the fp16 output (an implicit cast). BLOCK 128, 8 warps (head dim 128),
num_stages 1, as LightLLM launches it on non-Tesla GPUs. The launch's ``max_input_len`` is a host integer computed in
``make_inputs``."""
from __future__ import annotations

from typing import Any

import torch
import triton
import triton.language as tl

TESLA = False
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "sm_scale": "fp32",
                  "B_Start_Loc": "*i32", "B_Seqlen": "*i32", "Out": "*fp16",
                  "stride_qbs": "i32", "stride_qh": "i32", "stride_qd": "constexpr",
                  "stride_kbs": "i32", "stride_kh": "i32", "stride_kd": "constexpr",
                  "stride_vbs": "i32", "stride_vh": "i32", "stride_vd": "constexpr",
                  "stride_obs": "i32", "stride_oh": "i32", "stride_od": "constexpr",
                  "kv_group_num": "i32"},
    "constexprs": {"stride_qd": 1, "stride_kd": 1, "stride_vd": 1, "stride_od": 1,
                   "BLOCK_M": 128, "BLOCK_DMODEL": 128, "BLOCK_N": 128},
    "num_warps": 8, "num_stages": 1,
    "divisibility": ["stride_qbs", "stride_qh", "stride_kbs", "stride_kh", "stride_vbs", "stride_vh",
                     "stride_obs", "stride_oh"]}
PROBLEM: dict[str, int] = {"batch": 16, "max_len": 2048, "H": 32, "KVH": 8, "D": 128}
SMALL: dict[str, int] = {"batch": 3, "max_len": 300, "H": 4, "KVH": 2, "D": 128}


@triton.jit
def _fwd_kernel(
    Q, K, V, sm_scale, B_Start_Loc, B_Seqlen,  # B_LOC 内部记录每个batch 输入的真实位置， B_SEQ_len 记录当前输入的真实长度
    Out,
    stride_qbs, stride_qh, stride_qd,
    stride_kbs, stride_kh, stride_kd,
    stride_vbs, stride_vh, stride_vd,
    stride_obs, stride_oh, stride_od,
    kv_group_num,
    BLOCK_M: tl.constexpr, BLOCK_DMODEL: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    start_m = tl.program_id(2)

    cur_kv_head = cur_head // kv_group_num

    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    cur_batch_in_all_start_index = tl.load(B_Start_Loc + cur_batch)

    block_start_loc = BLOCK_M * start_m

    # initialize offsets
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    off_q = (cur_batch_in_all_start_index + offs_m[:, None]) * stride_qbs + cur_head * stride_qh + offs_d[None, :] * stride_qd
    off_k = offs_n[None, :] * stride_kbs + cur_kv_head * stride_kh + offs_d[:, None] * stride_kd
    off_v = offs_n[:, None] * stride_vbs + cur_kv_head * stride_vh + offs_d[None, :] * stride_vd

    q = tl.load(Q + off_q, mask=offs_m[:, None] < cur_batch_seq_len, other=0.0)

    k_ptrs = K + off_k
    v_ptrs = V + off_v

    # initialize pointer to m and l
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DMODEL], dtype=tl.float32)

    block_mask = tl.where(block_start_loc < cur_batch_seq_len, 1, 0)

    for start_n in range(0, block_mask * (start_m + 1) * BLOCK_M, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        # -- compute qk ----
        k = tl.load(k_ptrs + (cur_batch_in_all_start_index + start_n) * stride_kbs,
                    mask=(start_n + offs_n[None, :]) < cur_batch_seq_len, other=0.0)
        # mask = tl.load(mask_ptrs + start_n, mask=start_n + offs_n < cur_batch_end_loc, other=0.0)

        qk = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        qk += tl.dot(q, k)
        qk *= sm_scale
        qk = tl.where(offs_m[:, None] >= (start_n + offs_n[None, :]), qk, float("-inf"))

        # -- compute m_ij, p, l_ij
        m_ij = tl.max(qk, 1)
        p = tl.exp(qk - m_ij[:, None])
        l_ij = tl.sum(p, 1)
        # -- update m_i and l_i
        m_i_new = tl.maximum(m_i, m_ij)
        alpha = tl.exp(m_i - m_i_new)
        beta = tl.exp(m_ij - m_i_new)
        l_i_new = alpha * l_i + beta * l_ij
        # -- update output accumulator --
        # scale p
        p_scale = beta / l_i_new
        p = p * p_scale[:, None]
        # scale acc
        acc_scale = l_i / l_i_new * alpha
        acc = acc * acc_scale[:, None]
        # update acc
        v = tl.load(v_ptrs + (cur_batch_in_all_start_index + start_n) * stride_vbs,
                    mask=(start_n + offs_n[:, None]) < cur_batch_seq_len, other=0.0)

        p = p.to(v.dtype)
        acc += tl.dot(p, v)
        # update m_i and l_i
        l_i = l_i_new
        m_i = m_i_new
    # initialize pointers to output
    off_o = (cur_batch_in_all_start_index + offs_m[:, None]) * stride_obs + cur_head * stride_oh + offs_d[None, :] * stride_od
    out_ptrs = Out + off_o
    tl.store(out_ptrs, acc, mask=offs_m[:, None] < cur_batch_seq_len)
    return


def make_inputs(batch: int, max_len: int, H: int, KVH: int, D: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """q [total_tokens, H, D], k and v [total_tokens, KVH, D] fp16, packed; b_start_loc / b_seq_len int32; the
    host-side max_input_len."""
    g = torch.Generator(device=device).manual_seed(seed)
    seqlens = torch.randint(max_len // 3, max_len + 1, (batch,), device=device, generator=g)
    seqlens[0] = max_len
    if batch > 2:
        seqlens[1] = 5                                  # a sequence shorter than one block
    total = int(seqlens.sum())
    start = torch.cumsum(seqlens, 0) - seqlens
    q = torch.randn((total, H, D), device=device, generator=g).half()
    k = torch.randn((total, KVH, D), device=device, generator=g).half()
    v = torch.randn((total, KVH, D), device=device, generator=g).half()
    return {"q": q, "k": k, "v": v, "b_start_loc": start.to(torch.int32), "b_seq_len": seqlens.to(torch.int32),
            "max_input_len": max_len}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o [total_tokens, H, D] fp16, as ``context_attention_fwd(q, k, v, o, b_start_loc, b_seq_len, max_input_len)``."""
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    b_start_loc, b_seq_len, max_input_len = inputs["b_start_loc"], inputs["b_seq_len"], inputs["max_input_len"]
    o = torch.empty_like(q)
    BLOCK = 128 if not TESLA else 64
    # shape constraints
    Lq, Lk, Lv = q.shape[-1], k.shape[-1], v.shape[-1]
    assert Lq == Lk and Lk == Lv
    assert Lk in {16, 32, 64, 128, 256}

    sm_scale = 1.0 / (Lq**0.5)  # 计算scale系数
    batch, head = b_seq_len.shape[0], q.shape[1]
    kv_group_num = q.shape[1] // k.shape[1]

    grid = (batch, head, triton.cdiv(max_input_len, BLOCK))  # batch, head,

    num_warps = 4 if Lk <= 64 else 8
    _fwd_kernel[grid](
        q, k, v, sm_scale, b_start_loc, b_seq_len,
        o,
        q.stride(0), q.stride(1), q.stride(2),
        k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2),
        o.stride(0), o.stride(1), o.stride(2),
        kv_group_num=kv_group_num,
        BLOCK_M=BLOCK,
        BLOCK_DMODEL=Lk,
        BLOCK_N=BLOCK,
        num_warps=config.get("num_warps", num_warps),
        num_stages=config.get("num_stages", 1),
    )
    return o


def reference(inputs: dict[str, Any]) -> Any:
    q, k, v = inputs["q"].double(), inputs["k"].double(), inputs["v"].double()
    H, KVH, D = q.shape[1], k.shape[1], q.shape[2]
    out = torch.zeros_like(q)
    for start, n in zip(inputs["b_start_loc"].tolist(), inputs["b_seq_len"].tolist()):
        qs, ks, vs = q[start:start + n], k[start:start + n], v[start:start + n]
        ks = ks.repeat_interleave(H // KVH, dim=1)
        vs = vs.repeat_interleave(H // KVH, dim=1)
        s = torch.einsum("mhd,nhd->hmn", qs, ks) / D ** 0.5
        causal = torch.ones((n, n), dtype=torch.bool, device=q.device).tril()
        p = torch.softmax(s.masked_fill(~causal, float("-inf")), dim=-1)
        out[start:start + n] = torch.einsum("hmn,nhd->mhd", p, vs)
    return out
