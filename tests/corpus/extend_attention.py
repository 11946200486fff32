"""SGLang extend (prefill with cached prefix) attention, ``_fwd_kernel`` of extend_attention.py: stage 1 loops over
the prefix KV gathered through kv_indices (req_to_token), stage 2 over the new tokens with a causal mask,
logit_cap tanh soft-capping, IS_CAUSAL / USE_CUSTOM_MASK constexprs."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl


@triton.jit
def tanh(x):
    # Tanh is just a scaled sigmoid
    return 2 * tl.sigmoid(2 * x) - 1


@triton.jit
def _fwd_kernel(
    Q_Extend, K_Extend, V_Extend, O_Extend, K_Buffer, V_Buffer,
    qo_indptr, kv_indptr, kv_indices, mask_ptr, mask_indptr,
    sm_scale, kv_group_num,
    stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh,
    stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh,
    logit_cap: tl.constexpr, Lq: tl.constexpr, Lv: tl.constexpr,
    BLOCK_DMODEL: tl.constexpr, BLOCK_DPE: tl.constexpr, BLOCK_DV: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
    USE_CUSTOM_MASK: tl.constexpr, IS_CAUSAL: tl.constexpr,
):
    cur_seq = tl.program_id(0)
    cur_head = tl.program_id(1)
    cur_block_m = tl.program_id(2)
    cur_kv_head = cur_head // kv_group_num

    cur_seq_extend_start_idx = tl.load(qo_indptr + cur_seq)
    cur_seq_len_extend = tl.load(qo_indptr + cur_seq + 1) - cur_seq_extend_start_idx
    cur_seq_kv_start_idx = tl.load(kv_indptr + cur_seq)
    cur_seq_len_prefix = tl.load(kv_indptr + cur_seq + 1) - cur_seq_kv_start_idx
    cur_seq_len = cur_seq_len_prefix + cur_seq_len_extend

    if USE_CUSTOM_MASK:
        cur_seq_mask_start_idx = tl.load(mask_indptr + cur_seq)

    offs_d = tl.arange(0, BLOCK_DMODEL)
    offs_dv = tl.arange(0, BLOCK_DV)
    offs_m = tl.arange(0, BLOCK_M)
    mask_m = (cur_block_m * BLOCK_M + offs_m) < cur_seq_len_extend

    mask_d = offs_d < Lq
    mask_dv = offs_dv < Lv

    offs_q = ((cur_seq_extend_start_idx + cur_block_m * BLOCK_M + offs_m[:, None]) * stride_qbs
              + cur_head * stride_qh + offs_d[None, :])
    q = tl.load(Q_Extend + offs_q, mask=(mask_m[:, None]) & (mask_d[None, :]), other=0.0)

    if BLOCK_DPE > 0:
        offs_dpe = BLOCK_DMODEL + tl.arange(0, BLOCK_DPE)
        offs_qpe = ((cur_seq_extend_start_idx + cur_block_m * BLOCK_M + offs_m[:, None]) * stride_qbs
                    + cur_head * stride_qh + offs_dpe[None, :])
        qpe = tl.load(Q_Extend + offs_qpe, mask=mask_m[:, None], other=0.0)

    # stage 1: compute scores with prefix
    offs_n = tl.arange(0, BLOCK_N)

    acc = tl.zeros([BLOCK_M, BLOCK_DV], dtype=tl.float32)
    deno = tl.zeros([BLOCK_M], dtype=tl.float32)
    e_max = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")

    for start_n in range(0, cur_seq_len_prefix, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        mask_n = (start_n + offs_n) < cur_seq_len_prefix
        offs_kv_loc = tl.load(kv_indices + cur_seq_kv_start_idx + start_n + offs_n, mask=mask_n, other=0)

        # load k in transposed way
        offs_buf_k = offs_kv_loc[None, :] * stride_buf_kbs + cur_kv_head * stride_buf_kh + offs_d[:, None]
        k = tl.load(K_Buffer + offs_buf_k, mask=(mask_n[None, :]) & (mask_d[:, None]), other=0.0)

        qk = tl.dot(q.to(k.dtype), k)
        if BLOCK_DPE > 0:
            offs_kpe = offs_kv_loc[None, :] * stride_buf_kbs + cur_kv_head * stride_buf_kh + offs_dpe[:, None]
            kpe = tl.load(K_Buffer + offs_kpe, mask=mask_n[None, :], other=0.0)
            qk += tl.dot(qpe.to(kpe.dtype), kpe)
        qk *= sm_scale

        if logit_cap > 0:
            qk = logit_cap * tanh(qk / logit_cap)

        if USE_CUSTOM_MASK:
            custom_mask = tl.load(
                mask_ptr + cur_seq_mask_start_idx + (cur_block_m * BLOCK_M + offs_m[:, None]) * cur_seq_len
                + start_n + offs_n[None, :],
                mask=(mask_m[:, None] & mask_n[None, :]), other=0)
            custom_mask &= mask_m[:, None] & mask_n[None, :]
            qk = tl.where(custom_mask, qk, float("-inf"))
        else:
            qk = tl.where(mask_m[:, None] & mask_n[None, :], qk, float("-inf"))

        n_e_max = tl.maximum(tl.max(qk, 1), e_max)
        re_scale = tl.exp(e_max - n_e_max)
        p = tl.exp(qk - n_e_max[:, None])
        deno = deno * re_scale + tl.sum(p, 1)

        offs_buf_v = offs_kv_loc[:, None] * stride_buf_vbs + cur_kv_head * stride_buf_vh + offs_dv[None, :]
        v = tl.load(V_Buffer + offs_buf_v, mask=mask_n[:, None] & mask_dv[None, :], other=0.0)
        p = p.to(v.dtype)
        acc = acc * re_scale[:, None] + tl.dot(p, v)

        e_max = n_e_max

    # stage 2: compute the triangle part
    cur_block_m_end = (tl.minimum(cur_seq_len_extend, (cur_block_m + 1) * BLOCK_M) if IS_CAUSAL
                       else cur_seq_len_extend)
    for start_n in range(0, cur_block_m_end, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        mask_n = (start_n + offs_n) < cur_block_m_end

        # load k in transposed way
        offs_k = ((cur_seq_extend_start_idx + start_n + offs_n[None, :]) * stride_kbs + cur_kv_head * stride_kh
                  + offs_d[:, None])
        k = tl.load(K_Extend + offs_k, mask=(mask_n[None, :]) & (mask_d[:, None]), other=0.0)

        qk = tl.dot(q, k, out_dtype=tl.float32)
        if BLOCK_DPE > 0:
            offs_kpe = ((cur_seq_extend_start_idx + start_n + offs_n[None, :]) * stride_kbs
                        + cur_kv_head * stride_kh + offs_dpe[:, None])
            kpe = tl.load(K_Extend + offs_kpe, mask=mask_n[None, :], other=0.0)
            qk += tl.dot(qpe, kpe)

        qk *= sm_scale

        if logit_cap > 0:
            qk = logit_cap * tanh(qk / logit_cap)

        if USE_CUSTOM_MASK:
            custom_mask = tl.load(
                mask_ptr + cur_seq_mask_start_idx + (cur_block_m * BLOCK_M + offs_m[:, None]) * cur_seq_len
                + cur_seq_len_prefix + start_n + offs_n[None, :],
                mask=(mask_m[:, None] & mask_n[None, :]), other=0)
            custom_mask &= mask_m[:, None] & mask_n[None, :]
            qk = tl.where(custom_mask, qk, float("-inf"))
        elif IS_CAUSAL:
            mask_causual = (cur_block_m * BLOCK_M + offs_m[:, None]) >= (start_n + offs_n[None, :])
            mask_causual &= mask_m[:, None] & mask_n[None, :]
            qk = tl.where(mask_causual, qk, float("-inf"))
        else:
            mask_non_causal = mask_m[:, None] & mask_n[None, :]
            qk = tl.where(mask_non_causal, qk, float("-inf"))

        n_e_max = tl.maximum(tl.max(qk, 1), e_max)
        re_scale = tl.exp(e_max - n_e_max)
        p = tl.exp(qk - n_e_max[:, None])
        deno = deno * re_scale + tl.sum(p, 1)

        offs_v = ((cur_seq_extend_start_idx + start_n + offs_n[:, None]) * stride_vbs + cur_kv_head * stride_vh
                  + offs_dv[None, :])
        v = tl.load(V_Extend + offs_v, mask=mask_n[:, None] & mask_dv[None, :], other=0.0)
        p = p.to(v.dtype)
        acc = acc * re_scale[:, None] + tl.dot(p, v)

        e_max = n_e_max

    offs_o = ((cur_seq_extend_start_idx + cur_block_m * BLOCK_M + offs_m[:, None]) * stride_obs
              + cur_head * stride_oh + offs_dv[None, :])
    tl.store(O_Extend + offs_o, acc / deno[:, None], mask=mask_m[:, None] & mask_dv[None, :])


_I = "i32"
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel",
    "signature": {"Q_Extend": "*fp16", "K_Extend": "*fp16", "V_Extend": "*fp16", "O_Extend": "*fp16",
                  "K_Buffer": "*fp16", "V_Buffer": "*fp16", "qo_indptr": "*i32", "kv_indptr": "*i32",
                  "kv_indices": "*i32", "mask_ptr": "*i8", "mask_indptr": "*i32", "sm_scale": "fp32",
                  "kv_group_num": _I, "stride_qbs": _I, "stride_qh": _I, "stride_kbs": _I, "stride_kh": _I,
                  "stride_vbs": _I, "stride_vh": _I, "stride_obs": _I, "stride_oh": _I, "stride_buf_kbs": _I,
                  "stride_buf_kh": _I, "stride_buf_vbs": _I, "stride_buf_vh": _I},
    "constexprs": {"logit_cap": 30.0, "Lq": 128, "Lv": 128, "BLOCK_DMODEL": 128, "BLOCK_DPE": 0, "BLOCK_DV": 128,
                   "BLOCK_M": 128, "BLOCK_N": 64, "USE_CUSTOM_MASK": False, "IS_CAUSAL": True},
    "num_warps": 8, "num_stages": 1,
    "divisibility": ["stride_qbs", "stride_qh", "stride_kbs", "stride_kh", "stride_vbs", "stride_vh", "stride_obs",
                     "stride_oh", "stride_buf_kbs", "stride_buf_kh", "stride_buf_vbs", "stride_buf_vh"]}
PROBLEM: dict[str, int] = {"B": 8, "H": 32, "HKV": 8, "PREFIX": 2048, "EXTEND": 1024}
SMALL: dict[str, int] = {"B": 2, "H": 2, "HKV": 1, "PREFIX": 70, "EXTEND": 90}
D = 128
LOGIT_CAP = 30.0


def _lens(B, PREFIX, EXTEND):
    return [max(1, PREFIX - 13 * i) for i in range(B)], [max(1, EXTEND - 7 * i) for i in range(B)]


def make_inputs(B, H, HKV, PREFIX, EXTEND, device="cuda", seed=0):
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    pl, el = _lens(B, PREFIX, EXTEND)
    pool = sum(pl) + 17
    r = lambda *s: torch.randn(s, device=device, generator=g, dtype=torch.float32).to(torch.float16)
    perm = torch.randperm(pool, device=device, generator=g)[:sum(pl)].to(torch.int32)
    return {"q": r(sum(el), H, D), "k": r(sum(el), HKV, D), "v": r(sum(el), HKV, D),
            "k_buf": r(pool, HKV, D), "v_buf": r(pool, HKV, D), "kv_indices": perm,
            "qo_indptr": torch.tensor([0] + el, device=device).cumsum(0).to(torch.int32),
            "kv_indptr": torch.tensor([0] + pl, device=device).cumsum(0).to(torch.int32),
            "max_extend": max(el)}      # on the host: a launch a CUDA graph captures reads no device value


def launch(inputs, **config):
    import torch
    q, k, v, kb, vb = (inputs[n] for n in ("q", "k", "v", "k_buf", "v_buf"))
    qo, kvp = inputs["qo_indptr"], inputs["kv_indptr"]
    B = qo.numel() - 1
    H, HKV = q.shape[1], k.shape[1]
    o = torch.empty_like(q)
    max_ext = inputs["max_extend"]
    BM, BN = config.get("BLOCK_M", 128), config.get("BLOCK_N", 64)
    dummy = torch.zeros(1, dtype=torch.int8, device=q.device)
    _fwd_kernel[(B, H, triton.cdiv(max_ext, BM))](
        q, k, v, o, kb, vb, qo, kvp, inputs["kv_indices"], dummy, qo,
        D ** -0.5, H // HKV, q.stride(0), q.stride(1), k.stride(0), k.stride(1), v.stride(0), v.stride(1),
        o.stride(0), o.stride(1), kb.stride(0), kb.stride(1), vb.stride(0), vb.stride(1),
        logit_cap=LOGIT_CAP, Lq=D, Lv=D, BLOCK_DMODEL=D, BLOCK_DPE=0, BLOCK_DV=D, BLOCK_M=BM, BLOCK_N=BN,
        USE_CUSTOM_MASK=False, IS_CAUSAL=True, num_warps=config.get("num_warps", 8),
        num_stages=config.get("num_stages", 1))
    return o


def reference(inputs):
    import torch
    q, k, v, kb, vb = (inputs[n].double() for n in ("q", "k", "v", "k_buf", "v_buf"))
    qo, kvp, idx = inputs["qo_indptr"].tolist(), inputs["kv_indptr"].tolist(), inputs["kv_indices"].long()
    H, HKV = q.shape[1], k.shape[1]
    out = torch.empty_like(q)
    for b in range(len(qo) - 1):
        qs, ks = slice(qo[b], qo[b + 1]), idx[kvp[b]:kvp[b + 1]]
        K = torch.cat([kb[ks], k[qs]], 0).repeat_interleave(H // HKV, 1)
        V = torch.cat([vb[ks], v[qs]], 0).repeat_interleave(H // HKV, 1)
        Q = q[qs]
        s = torch.einsum("mhd,nhd->hmn", Q, K) * D ** -0.5
        s = LOGIT_CAP * torch.tanh(s / LOGIT_CAP)
        Le, Lp = Q.shape[0], ks.numel()
        allowed = torch.ones(Le, Lp + Le, dtype=torch.bool, device=q.device)
        allowed[:, Lp:] = torch.tril(torch.ones(Le, Le, dtype=torch.bool, device=q.device))
        s = s.masked_fill(~allowed, float("-inf"))
        out[qs] = torch.einsum("hmn,nhd->mhd", s.softmax(-1), V)
    return out
