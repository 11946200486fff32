"""vLLM's ALiBi prefill kernel, the new-token part of ``_fwd_kernel_alibi`` (vllm/attention/ops/prefix_prefill.py,
the path BLOOM / MPT / Baichuan-13B take: ``alibi_slopes is not None``) for a batch with no cached prefix: packed
variable-length sequences [total_tokens, heads, 128] in bf16, each sequence's start ``B_Start_Loc`` and length
``B_Seqlen`` loaded, one program per (sequence, head, BLOCK_M rows), GQA through ``num_queries_per_kv``;
**the head's ALiBi slope loaded once** (``tl.load(Alibi_slopes + cur_head)``) and the bias **computed on each
[BLOCK_M, BLOCK_N] tile** from positions, ``(arange(BLOCK_N)[None, :] + alibi_start_k - alibi_start_q[:, None]) *
alibi_slope``, with ``alibi_start_k`` **a loop-carried int advanced by BLOCK_N every trip** (besides the induction
variable); **causal early stop**: the loop ``for start_n in range(0, block_mask * (start_m + 1) * BLOCK_M,
BLOCK_N)`` (its upper bound the program's row block times ``block_mask = tl.where(block_start_loc <
cur_batch_seq_len, 1, 0)``: no trip for row blocks past the sequence), the causal mask a ``tl.where(offs_m[:, None]
>= start_n + offs_n[None, :], qk, -inf)`` and the bias's own ``tl.where((alibi <= 0) & (alibi_start_q[:, None] <
cur_batch_seq_len), alibi, -inf)``; ``qk = tl.dot(q, k, acc=qk)`` on a zeroed fp32 tile, ``*= sm_scale``, online
softmax in ``tl.math.exp`` with the running sum, ``acc = tl.dot(p, v, acc=acc)``, out normalised after the loop.
Baichuan2-13B shapes (40 heads of 128, no GQA), BLOCK = 128, 8 warps, num_stages 1 as vLLM launches it.
Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

D, BLOCK = 128, 128
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel_alibi",
    "signature": {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "Alibi_slopes": "*fp32", "sm_scale": "fp32",
                  "B_Start_Loc": "*i32", "B_Seqlen": "*i32", "Out": "*bf16",
                  "stride_qbs": "i32", "stride_qh": "i32", "stride_kbs": "i32", "stride_kh": "i32",
                  "stride_obs": "i32", "stride_oh": "i32", "num_queries_per_kv": "i32",
                  "BLOCK_M": "constexpr", "BLOCK_DMODEL": "constexpr", "BLOCK_N": "constexpr"},
    "constexprs": {"BLOCK_M": BLOCK, "BLOCK_DMODEL": D, "BLOCK_N": BLOCK},
    "num_warps": 8, "num_stages": 1,
    "divisibility": ["Q", "K", "V", "Alibi_slopes", "B_Start_Loc", "B_Seqlen", "Out", "stride_qbs", "stride_qh",
                     "stride_kbs", "stride_kh", "stride_obs", "stride_oh"]}
PROBLEM: dict[str, int] = {"batch": 8, "heads": 40, "kv_heads": 40, "max_len": 4096}
SMALL: dict[str, int] = {"batch": 3, "heads": 6, "kv_heads": 3, "max_len": 300}


@triton.jit
def _fwd_kernel_alibi(
    Q, K, V, Alibi_slopes, sm_scale, B_Start_Loc, B_Seqlen, Out,
    stride_qbs, stride_qh, stride_kbs, stride_kh, stride_obs, stride_oh, num_queries_per_kv: int,
    BLOCK_M: tl.constexpr, BLOCK_DMODEL: tl.constexpr, BLOCK_N: tl.constexpr,
):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    start_m = tl.program_id(2)
    cur_kv_head = cur_head // num_queries_per_kv

    cur_batch_seq_len = tl.load(B_Seqlen + cur_batch)
    cur_batch_in_all_start_index = tl.load(B_Start_Loc + cur_batch)
    block_start_loc = BLOCK_M * start_m

    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_DMODEL)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    off_q = (cur_batch_in_all_start_index + offs_m[:, None]) * stride_qbs + cur_head * stride_qh + offs_d[None, :]
    q = tl.load(Q + off_q, mask=offs_m[:, None] < cur_batch_seq_len, other=0.0)

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_DMODEL], dtype=tl.float32)

    alibi_slope = tl.load(Alibi_slopes + cur_head)
    alibi_start_q = tl.arange(0, BLOCK_M) + block_start_loc
    alibi_start_k = 0

    off_k = offs_n[None, :] * stride_kbs + cur_kv_head * stride_kh + offs_d[:, None]
    off_v = offs_n[:, None] * stride_kbs + cur_kv_head * stride_kh + offs_d[None, :]
    k_ptrs = K + off_k
    v_ptrs = V + off_v

    block_mask = tl.where(block_start_loc < cur_batch_seq_len, 1, 0)
    for start_n in range(0, block_mask * (start_m + 1) * BLOCK_M, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        # -- compute qk ----
        k = tl.load(k_ptrs + (cur_batch_in_all_start_index + start_n) * stride_kbs,
                    mask=(start_n + offs_n[None, :]) < cur_batch_seq_len, other=0.0)

        qk = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        qk = tl.dot(q, k, acc=qk)
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
        acc = acc * alpha[:, None]

        # update acc
        v = tl.load(v_ptrs + (cur_batch_in_all_start_index + start_n) * stride_kbs,
                    mask=(start_n + offs_n[:, None]) < cur_batch_seq_len, other=0.0)
        p = p.to(v.dtype)
        acc = tl.dot(p, v, acc=acc)
        # update m_i and l_i
        l_i = l_i_new
        m_i = m_i_new

    acc = acc / l_i[:, None]

    # initialize pointers to output
    off_o = (cur_batch_in_all_start_index + offs_m[:, None]) * stride_obs + cur_head * stride_oh + offs_d[None, :]
    out_ptrs = Out + off_o
    tl.store(out_ptrs, acc.to(Out.dtype.element_ty), mask=offs_m[:, None] < cur_batch_seq_len)


def _get_alibi_slopes(total_num_heads: int) -> list[float]:
    """vLLM's ``_get_alibi_slopes`` (the BLOOM / Baichuan formula, with the odd extra slopes for a head count that
    is not a power of two)."""
    closest_power_of_2 = 2 ** math.floor(math.log2(total_num_heads))
    base = 2 ** (-(2 ** -(math.log2(closest_power_of_2) - 3)))
    slopes = [base ** p for p in range(1, 1 + closest_power_of_2)]
    if closest_power_of_2 != total_num_heads:
        extra_base = 2 ** (-(2 ** -(math.log2(2 * closest_power_of_2) - 3)))
        num_remaining_heads = min(closest_power_of_2, total_num_heads - closest_power_of_2)
        slopes += [extra_base ** p for p in range(1, 1 + 2 * num_remaining_heads, 2)]
    return slopes


def make_inputs(batch: int, heads: int, kv_heads: int, max_len: int, device: str = "cuda",
                seed: int = 0) -> dict[str, Any]:
    """Sequence lengths in [1, max_len] (one of max_len, one of 1 token), packed; q [total, heads, 128], k / v
    [total, kv_heads, 128] bf16; the slopes [heads] fp32; sm_scale = 1 / sqrt(128)."""
    import torch
    gc = torch.Generator().manual_seed(seed)
    lens = torch.randint(1, max_len + 1, (batch,), generator=gc)
    lens[0] = max_len
    lens[-1] = 1
    starts = torch.zeros(batch, dtype=torch.int64)
    starts[1:] = torch.cumsum(lens, 0)[:-1]
    total = int(lens.sum())
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((total, heads, D), device=device, dtype=torch.float32, generator=g).bfloat16()
    k = torch.randn((total, kv_heads, D), device=device, dtype=torch.float32, generator=g).bfloat16()
    v = torch.randn((total, kv_heads, D), device=device, dtype=torch.float32, generator=g).bfloat16()
    slopes = torch.tensor(_get_alibi_slopes(heads), dtype=torch.float32, device=device)
    return {"q": q, "k": k, "v": v, "slopes": slopes, "b_start_loc": starts.int().to(device),
            "b_seq_len": lens.int().to(device), "max_len": int(lens.max()), "sm_scale": D ** -0.5}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """out [total, heads, 128] bf16, flattened as fp32."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    batch = inputs["b_seq_len"].numel()
    heads = q.shape[1]
    o = torch.empty_like(q)
    grid = (batch, heads, triton.cdiv(inputs["max_len"], BLOCK))
    _fwd_kernel_alibi[grid](q, k, v, inputs["slopes"], inputs["sm_scale"], inputs["b_start_loc"],
                            inputs["b_seq_len"], o, q.stride(0), q.stride(1), k.stride(0), k.stride(1), o.stride(0),
                            o.stride(1), heads // k.shape[1], BLOCK_M=BLOCK, BLOCK_DMODEL=D, BLOCK_N=BLOCK,
                            num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 1))
    return o.float().flatten()


def reference(inputs: dict[str, Any]) -> Any:
    """Per sequence and head, float64: softmax(q k^T * sm_scale + slope * (j - i)) over keys j <= i."""
    import torch
    q, k, v, slopes = inputs["q"], inputs["k"], inputs["v"], inputs["slopes"].double()
    group = q.shape[1] // k.shape[1]
    out = torch.empty(q.shape, dtype=torch.float64, device=q.device)
    for s, n in zip(inputs["b_start_loc"].tolist(), inputs["b_seq_len"].tolist()):
        i = torch.arange(n, device=q.device)
        rel = (i[None, :] - i[:, None]).double()
        causal = i[:, None] >= i[None, :]
        for h in range(q.shape[1]):
            qs = q[s:s + n, h].double()
            ks, vs = k[s:s + n, h // group].double(), v[s:s + n, h // group].double()
            sc = (qs @ ks.T * inputs["sm_scale"] + slopes[h] * rel).masked_fill(~causal, float("-inf"))
            out[s:s + n, h] = torch.softmax(sc, -1) @ vs
    return out.bfloat16().double().flatten()


def flops(batch: int, heads: int, kv_heads: int, max_len: int) -> float:
    """4 * D per causal (query, key) pair; sequences of about max_len / 2 on average."""
    n = max_len / 2
    return 4.0 * batch * heads * (n * (n + 1) / 2) * D
