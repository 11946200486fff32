"""vLLM ``_fwd_kernel_alibi`` (vllm/attention/ops/prefix_prefill.py style): prefix-prefill attention, a first loop
over the cached context read from the paged KV cache through the block table B_Loc (K cache in the
[blocks, heads, D/x, block_size, x] layout), a second causal loop over the new tokens, alibi slopes added to the
scores with tl.where(-inf) gating, exp (not exp2), dim_mask for padded head dims, fp8 k/v scale branches."""
from __future__ import annotations
from typing import Any
import torch
import triton
import triton.language as tl

BLOCK, BS, X, D = 64, 16, 8, 64
_CONST = ["stride_b_loc_s", "stride_qd", "stride_kd", "stride_vd", "stride_od", "stride_k_cache_x",
          "stride_v_cache_bl"]
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_alibi",
    "signature": {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "K_cache": "*fp16", "V_cache": "*fp16", "B_Loc": "*i32",
                  "sm_scale": "fp32", "k_scale": "*fp32", "v_scale": "*fp32", "B_Start_Loc": "*i32",
                  "B_Seqlen": "*i32", "Alibi_slopes": "*fp32", "block_size": "i32", "x": "i32", "Out": "*fp16",
                  "stride_b_loc_b": "i32", "stride_qbs": "i32", "stride_qh": "i32", "stride_kbs": "i32",
                  "stride_kh": "i32", "stride_vbs": "i32", "stride_vh": "i32", "stride_obs": "i32",
                  "stride_oh": "i32", "stride_k_cache_bs": "i32", "stride_k_cache_h": "i32",
                  "stride_k_cache_d": "i32", "stride_k_cache_bl": "i32", "stride_v_cache_bs": "i32",
                  "stride_v_cache_h": "i32", "stride_v_cache_d": "i32", "num_queries_per_kv": "i32",
                  **{n: "constexpr" for n in _CONST}},
    "constexprs": {**{n: 1 for n in _CONST}, "IN_PRECISION": "ieee", "BLOCK_M": BLOCK, "BLOCK_DMODEL": D,
                   "BLOCK_DMODEL_PADDED": D, "BLOCK_N": BLOCK, "SKIP_DECODE": False},
    "num_warps": 4, "num_stages": 1,
    "divisibility": ["block_size", "stride_b_loc_b", "stride_qbs", "stride_qh", "stride_kbs", "stride_kh",
                     "stride_vbs", "stride_vh", "stride_obs", "stride_oh", "stride_k_cache_bs", "stride_k_cache_h",
                     "stride_k_cache_d", "stride_k_cache_bl", "stride_v_cache_bs", "stride_v_cache_h",
                     "stride_v_cache_d"]}
PROBLEM: dict[str, int] = {"batch": 16, "H": 32, "ctx": 2048, "qlen": 512}
SMALL: dict[str, int] = {"batch": 2, "H": 2, "ctx": 100, "qlen": 70}


@triton.jit
def _fwd_kernel_alibi(
    Q, K, V, K_cache, V_cache, B_Loc, sm_scale, k_scale, v_scale, B_Start_Loc, B_Seqlen, Alibi_slopes,
    block_size, x, Out,
    stride_b_loc_b, stride_b_loc_s,
    stride_qbs, stride_qh, stride_qd,
    stride_kbs, stride_kh, stride_kd,
    stride_vbs, stride_vh, stride_vd,
    stride_obs, stride_oh, stride_od,
    stride_k_cache_bs, stride_k_cache_h, stride_k_cache_d, stride_k_cache_bl, stride_k_cache_x,
    stride_v_cache_bs, stride_v_cache_h, stride_v_cache_d, stride_v_cache_bl,
    num_queries_per_kv: int,
    IN_PRECISION: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_DMODEL: tl.constexpr,  # head size
    BLOCK_DMODEL_PADDED: tl.constexpr,  # head size padded to a power of 2
    BLOCK_N: tl.constexpr,
    SKIP_DECODE: tl.constexpr,
):
    # attn_bias[]
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    start_m = tl.program_id(2)

    cur_kv_head = cur_head // num_queries_per_kv

    # cur_batch_seq_len: the length of prompts
    # cur_batch_ctx_len: the length of prefix
    # cur_batch_in_all_start_index: the start id of the dim=0
    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    cur_batch_in_all_start_index = tl.load(B_Start_Loc + cur_batch)
    cur_batch_in_all_stop_index = tl.load(B_Start_Loc + cur_batch + 1)
    cur_batch_query_len = (cur_batch_in_all_stop_index - cur_batch_in_all_start_index)
    cur_batch_ctx_len = cur_batch_seq_len - cur_batch_query_len

    if SKIP_DECODE and cur_batch_query_len == 1:
        return

    block_start_loc = BLOCK_M * start_m

    # initialize offsets
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_DMODEL_PADDED)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    off_q = ((cur_batch_in_all_start_index + offs_m[:, None]) * stride_qbs + cur_head * stride_qh +
             offs_d[None, :] * stride_qd)

    dim_mask = tl.where(tl.arange(0, BLOCK_DMODEL_PADDED) < BLOCK_DMODEL, 1, 0).to(tl.int1)

    q = tl.load(Q + off_q,
                mask=dim_mask[None, :] & (offs_m[:, None] < cur_batch_seq_len - cur_batch_ctx_len),
                other=0.0)

    # # initialize pointer to m and l
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DMODEL_PADDED], dtype=tl.float32)

    alibi_slope = tl.load(Alibi_slopes + cur_head)
    alibi_start_q = tl.arange(0, BLOCK_M) + block_start_loc + cur_batch_ctx_len
    alibi_start_k = 0
    for start_n in range(0, cur_batch_ctx_len, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        # -- compute qk ----
        bn = tl.load(B_Loc + cur_batch * stride_b_loc_b +
                     ((start_n + offs_n) // block_size) * stride_b_loc_s,
                     mask=(start_n + offs_n) < cur_batch_ctx_len, other=0)
        off_k = (bn[None, :] * stride_k_cache_bs + cur_kv_head * stride_k_cache_h +
                 (offs_d[:, None] // x) * stride_k_cache_d +
                 ((start_n + offs_n[None, :]) % block_size) * stride_k_cache_bl +
                 (offs_d[:, None] % x) * stride_k_cache_x)
        off_v = (bn[:, None] * stride_v_cache_bs + cur_kv_head * stride_v_cache_h +
                 offs_d[None, :] * stride_v_cache_d +
                 (start_n + offs_n[:, None]) % block_size * stride_v_cache_bl)
        k_load = tl.load(K_cache + off_k,
                         mask=dim_mask[:, None] & ((start_n + offs_n[None, :]) < cur_batch_ctx_len),
                         other=0.0)  # [D,N]

        if k_load.dtype.is_fp8():
            k = (k_load.to(tl.float32) * tl.load(k_scale)).to(q.dtype)
        else:
            k = k_load

        qk = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        qk = tl.dot(q, k, acc=qk, input_precision=IN_PRECISION)
        qk = tl.where((start_n + offs_n[None, :]) < cur_batch_ctx_len, qk, float("-inf"))
        qk *= sm_scale

        # load alibi
        alibi = (tl.arange(0, BLOCK_N)[None, :] + alibi_start_k - alibi_start_q[:, None]) * alibi_slope
        alibi = tl.where((alibi <= 0) & (alibi_start_q[:, None] < cur_batch_seq_len), alibi, float("-inf"))
        qk += alibi
        alibi_start_k += BLOCK_N

        # -- compute m_ij, p, l_ij
        m_ij = tl.max(qk, 1)
        m_i_new = tl.maximum(m_i, m_ij)
        p = tl.math.exp(qk - m_i_new[:, None])
        l_ij = tl.sum(p, 1)
        # -- update m_i and l_i

        alpha = tl.math.exp(m_i - m_i_new)
        l_i_new = alpha * l_i + l_ij
        # -- update output accumulator --
        # scale p
        # scale acc
        acc_scale = alpha
        # acc_scale = l_i / l_i_new * alpha
        acc = acc * acc_scale[:, None]
        # update acc
        v_load = tl.load(V_cache + off_v,
                         mask=dim_mask[None, :] & ((start_n + offs_n[:, None]) < cur_batch_ctx_len),
                         other=0.0)
        if v_load.dtype.is_fp8():
            v = (v_load.to(tl.float32) * tl.load(v_scale)).to(q.dtype)
        else:
            v = v_load
        p = p.to(v.dtype)

        acc = tl.dot(p, v, acc=acc, input_precision='ieee')
        # update m_i and l_i
        l_i = l_i_new
        m_i = m_i_new

    off_k = (offs_n[None, :] * stride_kbs + cur_kv_head * stride_kh + offs_d[:, None] * stride_kd)
    off_v = (offs_n[:, None] * stride_vbs + cur_kv_head * stride_vh + offs_d[None, :] * stride_vd)
    k_ptrs = K + off_k
    v_ptrs = V + off_v

    block_mask = tl.where(block_start_loc < cur_batch_seq_len - cur_batch_ctx_len, 1, 0)

    # init alibi
    alibi_slope = tl.load(Alibi_slopes + cur_head)
    alibi_start_q = tl.arange(0, BLOCK_M) + block_start_loc + cur_batch_ctx_len
    alibi_start_k = cur_batch_ctx_len
    # # init debugger
    # offset_db_q = tl.arange(0, BLOCK_M) + block_start_loc
    # offset_db_k = tl.arange(0, BLOCK_N)
    # calc q[BLOCK_M, BLOCK_MODEL] mul k[prefix_len: , BLOCK_DMODEL]
    for start_n in range(0, block_mask * (start_m + 1) * BLOCK_M, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        # -- compute qk ----
        k = tl.load(k_ptrs + (cur_batch_in_all_start_index + start_n) * stride_kbs,
                    mask=dim_mask[:, None] & ((start_n + offs_n[None, :]) < cur_batch_seq_len - cur_batch_ctx_len),
                    other=0.0)

        qk = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        qk = tl.dot(q, k, acc=qk, input_precision='ieee')
        qk *= sm_scale
        qk = tl.where(offs_m[:, None] >= (start_n + offs_n[None, :]), qk, float("-inf"))

        # load alibi
        alibi = (tl.arange(0, BLOCK_N)[None, :] + alibi_start_k - alibi_start_q[:, None]) * alibi_slope
        alibi = tl.where((alibi <= 0) & (alibi_start_q[:, None] < cur_batch_seq_len), alibi, float("-inf"))
        qk += alibi
        alibi_start_k += BLOCK_N

        # -- compute m_ij, p, l_ij
        m_ij = tl.max(qk, 1)
        m_i_new = tl.maximum(m_i, m_ij)
        p = tl.math.exp(qk - m_i_new[:, None])
        l_ij = tl.sum(p, 1)
        # -- update m_i and l_i
        alpha = tl.math.exp(m_i - m_i_new)
        l_i_new = alpha * l_i + l_ij
        # -- update output accumulator --
        # scale p
        # scale acc
        acc_scale = alpha
        # acc_scale = l_i / l_i_new * alpha
        acc = acc * acc_scale[:, None]
        # update acc
        v = tl.load(v_ptrs + (cur_batch_in_all_start_index + start_n) * stride_vbs,
                    mask=dim_mask[None, :] & ((start_n + offs_n[:, None]) < cur_batch_seq_len - cur_batch_ctx_len),
                    other=0.0)
        p = p.to(v.dtype)

        acc = tl.dot(p, v, acc=acc, input_precision='ieee')
        # update m_i and l_i
        l_i = l_i_new
        m_i = m_i_new

    acc = acc / l_i[:, None]

    # initialize pointers to output
    off_o = ((cur_batch_in_all_start_index + offs_m[:, None]) * stride_obs + cur_head * stride_oh +
             offs_d[None, :] * stride_od)
    out_ptrs = Out + off_o
    tl.store(out_ptrs, acc,
             mask=dim_mask[None, :] & (offs_m[:, None] < cur_batch_seq_len - cur_batch_ctx_len))
    return


def make_inputs(batch: int, H: int, ctx: int, qlen: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    g = torch.Generator(device=device).manual_seed(seed)
    ctx_lens = [ctx + 7 * i for i in range(batch)]
    q_lens = [qlen - 5 * i for i in range(batch)]
    Hkv = max(H // 2, 1)
    nblk_per = [triton.cdiv(c, BS) for c in ctx_lens]
    nblocks = sum(nblk_per) + 4
    perm = torch.randperm(nblocks, generator=g, device=device).to(torch.int32)
    maxb = max(nblk_per)
    b_loc = torch.zeros((batch, maxb), dtype=torch.int32, device=device)
    used = 0
    for b, n in enumerate(nblk_per):
        b_loc[b, :n] = perm[used:used + n]
        used += n
    T = sum(q_lens)
    return {
        "q": torch.randn((T, H, D), generator=g, device=device).half(),
        "k": torch.randn((T, Hkv, D), generator=g, device=device).half(),
        "v": torch.randn((T, Hkv, D), generator=g, device=device).half(),
        "k_cache": torch.randn((nblocks, Hkv, D // X, BS, X), generator=g, device=device).half(),
        "v_cache": torch.randn((nblocks, Hkv, D, BS), generator=g, device=device).half(),
        "b_loc": b_loc,
        "b_start_loc": torch.tensor([0] + list(torch.cumsum(torch.tensor(q_lens), 0)), dtype=torch.int32,
                                    device=device),
        "b_seq_len": torch.tensor([c + q for c, q in zip(ctx_lens, q_lens)], dtype=torch.int32, device=device),
        "alibi_slopes": torch.tensor([2.0 ** (-8 * (h + 1) / H) for h in range(H)], device=device),
        "max_q": max(q_lens),      # on the host, as vLLM's caller knows it (CUDA graphs capture the launch)
    }


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """o, fp16 [T, H, D]."""
    q, k, v, kc, vc = (inputs[n] for n in ("q", "k", "v", "k_cache", "v_cache"))
    b_loc, b_start_loc, b_seq_len, slopes = (inputs[n] for n in ("b_loc", "b_start_loc", "b_seq_len", "alibi_slopes"))
    o = torch.zeros_like(q)
    batch, H = b_seq_len.shape[0], q.shape[1]
    max_q = inputs["max_q"]
    one = torch.ones(1, device=q.device)
    grid = (batch, H, triton.cdiv(max_q, BLOCK))
    _fwd_kernel_alibi[grid](
        q, k, v, kc, vc, b_loc, D ** -0.5, one, one, b_start_loc, b_seq_len, slopes, vc.shape[3], kc.shape[4], o,
        b_loc.stride(0), b_loc.stride(1), q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1),
        k.stride(2), v.stride(0), v.stride(1), v.stride(2), o.stride(0), o.stride(1), o.stride(2),
        kc.stride(0), kc.stride(1), kc.stride(2), kc.stride(3), kc.stride(4),
        vc.stride(0), vc.stride(1), vc.stride(2), vc.stride(3),
        num_queries_per_kv=H // k.shape[1], IN_PRECISION="ieee", BLOCK_M=BLOCK, BLOCK_DMODEL=D,
        BLOCK_DMODEL_PADDED=D, BLOCK_N=BLOCK, SKIP_DECODE=False,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 1))
    return o


def reference(inputs: dict[str, Any]) -> Any:
    q, k, v, kc, vc = (inputs[n].double() for n in ("q", "k", "v", "k_cache", "v_cache"))
    b_loc, b_start_loc, b_seq_len, slopes = (inputs[n] for n in ("b_loc", "b_start_loc", "b_seq_len", "alibi_slopes"))
    H, Hkv = q.shape[1], k.shape[1]
    out = torch.zeros_like(q)
    for b in range(b_seq_len.shape[0]):
        s, e = int(b_start_loc[b]), int(b_start_loc[b + 1])
        ql = e - s
        cl = int(b_seq_len[b]) - ql
        dev = q.device
        pos = torch.arange(cl, device=dev)
        blk = b_loc[b, pos // BS].long()
        kctx = kc[blk, :, :, pos % BS, :].reshape(cl, Hkv, D)          # [cl, Hkv, D]
        vctx = vc[blk, :, :, pos % BS]                                    # [cl, Hkv, D]
        kk = torch.cat([kctx, k[s:e]], 0).repeat_interleave(H // Hkv, 1)
        vv = torch.cat([vctx, v[s:e]], 0).repeat_interleave(H // Hkv, 1)
        sc = torch.einsum("qhd,khd->hqk", q[s:e], kk) * D ** -0.5
        qpos = cl + torch.arange(ql, device=dev)
        kpos = torch.arange(cl + ql, device=dev)
        rel = (kpos[None, :] - qpos[:, None]).double()
        sc = sc + slopes.double()[:, None, None] * rel
        sc = sc.masked_fill(rel[None] > 0, float("-inf"))
        out[s:e] = torch.einsum("hqk,khd->qhd", torch.softmax(sc, -1), vv)
    return out


def flops(batch: int, H: int, ctx: int, qlen: int) -> float:
    return 4.0 * batch * H * qlen * (ctx + qlen / 2) * D
