"""vLLM's decode kernel of its Triton chunked-prefill backend, ``kernel_paged_attention_2d``
(vllm/attention/ops/chunked_prefill_paged_decode.py, as ``chunked_prefill_paged_decode`` launches it once the
prefix-prefill kernel has handled the sequences with more than one query token): a fixed grid of (4096, num_kv_heads)
programs with ``if seq_idx >= num_seqs: return``, the sequence's query start loaded from ``query_start_len_ptr`` and a
second early ``return`` for a sequence whose query length is above 1 (``filter_by_query_len``, a constexpr True), the
KV head's ``num_queries_per_kv`` query heads padded to ``num_queries_per_kv_padded`` = 16 rows (``head_mask``), Q
loaded once; the loop ``for j in range(0, num_blocks)`` over the sequence's cache blocks (``cdiv_fn``, a @triton.jit
helper), one physical block number a step from the block table, K read from vLLM's paged layout [num_blks,
num_kv_heads, head_size // x, blk_size, x] (``(offs_d // x) * stride_k_cache_2 + (offs_d % x) * stride_k_cache_4``,
x = 8 halves) and V from [num_blks, num_kv_heads, head_size, blk_size] (a [BLOCK_SIZE, HEAD] tile whose rows are
the contiguous axis), the fp8 branches on ``K_load.dtype.is_fp8()`` present and dead for fp16, S started from a
``tl.where`` of the masks (0 or -inf) plus ``scale * tl.dot(Q, K)`` (16 x 16 tiles: mma.sync), the SLIDING_WINDOW and
ALiBi branches constexpr-off (alibi_slopes None, as vLLM passes it), online softmax with ``tl.exp`` and L starting at
1.0, ``acc / L`` stored for the valid heads. Its strides annotated ``tl.int64`` as vLLM declares them. 32 query heads
over 8 KV heads, head size 128, cache blocks of 16 tokens, fp16; 4 warps, Triton's default stages."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

H_Q, H_KV, HEAD, PAGE, X = 32, 8, 128, 16, 8
QPKV = H_Q // H_KV
QPKV_PADDED = max(triton.next_power_of_2(QPKV), 16)
TWILL_SPEC: dict[str, Any] = {
    "kernel": "kernel_paged_attention_2d",
    "signature": {"output_ptr": "*fp16", "query_ptr": "*fp16", "key_cache_ptr": "*fp16", "value_cache_ptr": "*fp16",
                  "block_tables_ptr": "*i32", "seq_lens_ptr": "*i32", "alibi_slopes_ptr": "constexpr",
                  "scale": "fp32", "k_scale": "*fp32", "v_scale": "*fp32",
                  "block_table_stride": "i64", "query_stride_0": "i64", "query_stride_1": "i64",
                  "output_stride_0": "i64", "output_stride_1": "i64",
                  "stride_k_cache_0": "i64", "stride_k_cache_1": "i64", "stride_k_cache_2": "i64",
                  "stride_k_cache_3": "i64", "stride_k_cache_4": "i64", "stride_v_cache_0": "i64",
                  "stride_v_cache_1": "i64", "stride_v_cache_2": "i64", "stride_v_cache_3": "i64",
                  "query_start_len_ptr": "*i32", "num_seqs": "i32"},
    "constexprs": {"alibi_slopes_ptr": None, "num_query_heads": H_Q, "num_queries_per_kv": QPKV,
                   "num_queries_per_kv_padded": QPKV_PADDED, "BLOCK_SIZE": PAGE, "HEAD_SIZE": HEAD,
                   "HEAD_SIZE_PADDED": HEAD, "USE_ALIBI_SLOPES": False, "SLIDING_WINDOW": 0, "x": X,
                   "filter_by_query_len": True},
    "num_warps": 4, "num_stages": 3,
    "divisibility": ["output_ptr", "query_ptr", "key_cache_ptr", "value_cache_ptr", "block_tables_ptr",
                     "seq_lens_ptr", "query_start_len_ptr", "block_table_stride", "query_stride_0",
                     "query_stride_1", "output_stride_0", "output_stride_1", "stride_k_cache_0", "stride_k_cache_1",
                     "stride_k_cache_2", "stride_v_cache_0", "stride_v_cache_1", "stride_v_cache_2"]}
# B sequences of up to S tokens (decode: one query token each, and one chunked-prefill entry the kernel skips)
PROBLEM: dict[str, int] = {"B": 64, "S": 4096}
SMALL: dict[str, int] = {"B": 5, "S": 75}


@triton.jit
def cdiv_fn(x, y):
    return (x + y - 1) // y


@triton.jit
def kernel_paged_attention_2d(
    output_ptr,  # [num_tokens, num_query_heads, head_size]
    query_ptr,  # [num_tokens, num_query_heads, head_size]
    key_cache_ptr,  # [num_blks, num_kv_heads, head_size // x, blk_size, x]
    value_cache_ptr,  # [num_blks, num_kv_heads, head_size, blk_size]
    block_tables_ptr,  # [num_seqs, max_num_blocks_per_seq]
    seq_lens_ptr,  # [num_seqs]
    alibi_slopes_ptr,  # [num_query_heads]
    scale,  # float32
    k_scale,  # float32
    v_scale,  # float32
    num_query_heads: tl.constexpr,
    num_queries_per_kv: tl.constexpr,
    num_queries_per_kv_padded: tl.constexpr,
    block_table_stride: tl.int64,
    query_stride_0: tl.int64,
    query_stride_1: tl.int64,  # should be equal to head_size
    output_stride_0: tl.int64,
    output_stride_1: tl.int64,  # should be equal to head_size
    BLOCK_SIZE: tl.constexpr,
    HEAD_SIZE: tl.constexpr,
    HEAD_SIZE_PADDED: tl.constexpr,  # must be power of 2
    USE_ALIBI_SLOPES: tl.constexpr,
    SLIDING_WINDOW: tl.constexpr,
    x: tl.constexpr,
    stride_k_cache_0: tl.int64,
    stride_k_cache_1: tl.int64,
    stride_k_cache_2: tl.int64,
    stride_k_cache_3: tl.int64,
    stride_k_cache_4: tl.int64,
    stride_v_cache_0: tl.int64,
    stride_v_cache_1: tl.int64,
    stride_v_cache_2: tl.int64,
    stride_v_cache_3: tl.int64,
    filter_by_query_len: tl.constexpr,
    query_start_len_ptr,  # [num_seqs+1]
    num_seqs,
):
    # twill corpus rendition: one sequence's decode token, the query heads of one KV head
    seq_idx = tl.program_id(0)
    if seq_idx >= num_seqs:
        return
    kv_head_idx = tl.program_id(1)

    if filter_by_query_len:
        cur_batch_in_all_start_index = tl.load(query_start_len_ptr + seq_idx)
        cur_batch_in_all_stop_index = tl.load(query_start_len_ptr + seq_idx + 1)
        cur_batch_query_len = cur_batch_in_all_stop_index - cur_batch_in_all_start_index
        if cur_batch_query_len > 1:
            return
    else:
        cur_batch_in_all_start_index = seq_idx

    query_head_idx = kv_head_idx * num_queries_per_kv + tl.arange(0, num_queries_per_kv_padded)
    query_offset = cur_batch_in_all_start_index * query_stride_0 + query_head_idx[:, None] * query_stride_1

    head_mask = query_head_idx < (kv_head_idx + 1) * num_queries_per_kv
    head_mask = head_mask & (query_head_idx < num_query_heads)

    dim_mask = tl.where(tl.arange(0, HEAD_SIZE_PADDED) < HEAD_SIZE, 1, 0).to(tl.int1)

    # Q : (num_queries_per_kv, HEAD_SIZE,)
    Q = tl.load(query_ptr + query_offset + tl.arange(0, HEAD_SIZE_PADDED)[None, :],
                mask=dim_mask[None, :] & head_mask[:, None], other=0.0)

    block_table_offset = seq_idx * block_table_stride

    M = tl.full([num_queries_per_kv_padded], float("-inf"), dtype=tl.float32)
    L = tl.full([num_queries_per_kv_padded], 1.0, dtype=tl.float32)
    acc = tl.zeros([num_queries_per_kv_padded, HEAD_SIZE_PADDED], dtype=tl.float32)

    seq_len = tl.load(seq_lens_ptr + seq_idx)

    if USE_ALIBI_SLOPES:
        alibi_slope = tl.load(alibi_slopes_ptr + query_head_idx, mask=head_mask, other=0.0)

    num_blocks = cdiv_fn(seq_len, BLOCK_SIZE)

    for j in range(0, num_blocks):
        physical_block_idx = tl.load(block_tables_ptr + block_table_offset + j)

        offs_n = tl.arange(0, BLOCK_SIZE)
        offs_d = tl.arange(0, HEAD_SIZE_PADDED)

        v_offset = (physical_block_idx * stride_v_cache_0 + kv_head_idx * stride_v_cache_1 +
                    offs_d[None, :] * stride_v_cache_2 + offs_n[:, None] * stride_v_cache_3)
        k_offset = (physical_block_idx * stride_k_cache_0 + kv_head_idx * stride_k_cache_1 +
                    (offs_d[:, None] // x) * stride_k_cache_2 + offs_n[None, :] * stride_k_cache_3 +
                    (offs_d[:, None] % x) * stride_k_cache_4)

        # K : (HEAD_SIZE, BLOCK_SIZE)
        K_load = tl.load(key_cache_ptr + k_offset, mask=dim_mask[:, None], other=0.0)
        if K_load.dtype.is_fp8():
            K = (K_load.to(tl.float32) * tl.load(k_scale)).to(Q.dtype)
        else:
            K = K_load

        # V : (BLOCK_SIZE, HEAD_SIZE)
        V_load = tl.load(value_cache_ptr + v_offset, mask=dim_mask[None, :], other=0.0)
        if V_load.dtype.is_fp8():
            V = (V_load.to(tl.float32) * tl.load(v_scale)).to(Q.dtype)
        else:
            V = V_load

        seq_offset = j * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        boundary = tl.full([BLOCK_SIZE], seq_len, dtype=tl.int32)
        seq_mask = seq_offset[None, :] < boundary

        # S : (num_queries_per_kv, BLOCK_SIZE,)
        S = tl.where(head_mask[:, None] & seq_mask, 0.0, float("-inf")).to(tl.float32)
        S += scale * tl.dot(Q, K)

        context_len = seq_len - 1
        if SLIDING_WINDOW > 0:
            S = tl.where((context_len - seq_offset) < SLIDING_WINDOW, S, -10000)
        if USE_ALIBI_SLOPES:
            S += alibi_slope[:, None] * (seq_offset - context_len)

        m_j = tl.maximum(M, tl.max(S, axis=1))
        P = tl.exp(S - m_j[:, None])
        l_j = tl.sum(P, axis=1)
        alpha = tl.exp(M - m_j)
        acc = acc * alpha[:, None]
        L = L * alpha + l_j
        M = m_j
        acc += tl.dot(P.to(V.dtype), V)

    acc = acc / L[:, None]
    output_offset = cur_batch_in_all_start_index * output_stride_0 + query_head_idx * output_stride_1
    tl.store(output_ptr + output_offset[:, None] + tl.arange(0, HEAD_SIZE_PADDED)[None, :], acc,
             mask=dim_mask[None, :] & head_mask[:, None])


def make_inputs(B: int, S: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """B sequences: all decode steps (one query token, the last of the sequence) but sequence 1, a chunked-prefill
    entry of 3 query tokens (the prefix-prefill kernel's: this kernel returns for it); sequence lengths ragged in
    [S // 4, S] with one of 1 token; their cache blocks scattered over a shuffled pool (K in vLLM's x-split layout)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    seq_lens = torch.randint(S // 4, S + 1, (B,), device=device, generator=g).to(torch.int32)
    seq_lens[0] = 1
    q_lens = [3 if i == 1 else 1 for i in range(B)]
    qsl = [0]
    for n in q_lens:
        qsl.append(qsl[-1] + n)
    blocks_per_seq = triton.cdiv(S, PAGE)
    num_blks = B * blocks_per_seq + 5
    block_tables = torch.randperm(num_blks, device=device, generator=g)[:B * blocks_per_seq]
    return {"query": torch.randn((qsl[-1], H_Q, HEAD), device=device, generator=g).half(),
            "key_cache": torch.randn((num_blks, H_KV, HEAD // X, PAGE, X), device=device, generator=g).half(),
            "value_cache": torch.randn((num_blks, H_KV, HEAD, PAGE), device=device, generator=g).half(),
            "block_tables": block_tables.to(torch.int32).view(B, blocks_per_seq),
            "seq_lens": seq_lens, "query_start_loc": torch.tensor(qsl, dtype=torch.int32, device=device),
            "k_scale": torch.ones((1,), dtype=torch.float32, device=device),
            "v_scale": torch.ones((1,), dtype=torch.float32, device=device)}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """The decode path of chunked_prefill_paged_decode: output [num_tokens, H_Q, HEAD] fp16, the skipped prefill
    entry's rows left zero."""
    import torch
    query, key_cache, value_cache = inputs["query"], inputs["key_cache"], inputs["value_cache"]
    block_table, seq_lens = inputs["block_tables"], inputs["seq_lens"]
    output = torch.zeros_like(query)
    block_size = value_cache.shape[3]
    num_seqs = len(seq_lens)
    num_query_heads = query.shape[1]
    num_kv_heads = key_cache.shape[1]
    num_queries_per_kv = num_query_heads // num_kv_heads
    head_size = query.shape[2]
    num_queries_per_kv_padded = max(triton.next_power_of_2(num_queries_per_kv), 16)
    assert num_seqs <= 4096
    kernel_paged_attention_2d[(4096, num_kv_heads)](
        output_ptr=output, query_ptr=query, key_cache_ptr=key_cache, value_cache_ptr=value_cache,
        block_tables_ptr=block_table, seq_lens_ptr=seq_lens, alibi_slopes_ptr=None, scale=head_size ** -0.5,
        k_scale=inputs["k_scale"], v_scale=inputs["v_scale"], num_query_heads=num_query_heads,
        num_queries_per_kv=num_queries_per_kv, num_queries_per_kv_padded=num_queries_per_kv_padded,
        block_table_stride=block_table.stride(0), query_stride_0=query.stride(0), query_stride_1=query.stride(1),
        output_stride_0=output.stride(0), output_stride_1=output.stride(1), BLOCK_SIZE=block_size,
        HEAD_SIZE=head_size, HEAD_SIZE_PADDED=triton.next_power_of_2(head_size), USE_ALIBI_SLOPES=False,
        SLIDING_WINDOW=0, x=key_cache.shape[4], stride_k_cache_0=key_cache.stride(0),
        stride_k_cache_1=key_cache.stride(1), stride_k_cache_2=key_cache.stride(2),
        stride_k_cache_3=key_cache.stride(3), stride_k_cache_4=key_cache.stride(4),
        stride_v_cache_0=value_cache.stride(0), stride_v_cache_1=value_cache.stride(1),
        stride_v_cache_2=value_cache.stride(2), stride_v_cache_3=value_cache.stride(3), filter_by_query_len=True,
        query_start_len_ptr=inputs["query_start_loc"], num_seqs=num_seqs,
        **{k: v for k, v in config.items() if k in ("num_warps", "num_stages")})
    return output


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q = inputs["query"].double()
    kc = inputs["key_cache"].double()                     # [blks, H_KV, D // x, PAGE, x]
    kc = kc.permute(0, 3, 1, 2, 4).reshape(kc.shape[0], PAGE, H_KV, HEAD)
    vc = inputs["value_cache"].double().permute(0, 3, 1, 2)   # [blks, PAGE, H_KV, D]
    bt, seq_lens, qsl = inputs["block_tables"].long(), inputs["seq_lens"].tolist(), inputs["query_start_loc"].tolist()
    out = torch.zeros_like(q)
    for i, L in enumerate(seq_lens):
        if qsl[i + 1] - qsl[i] != 1:
            continue
        pos = torch.arange(L, device=q.device)
        k = kc[bt[i][pos // PAGE], pos % PAGE].repeat_interleave(QPKV, dim=1)     # [L, H_Q, D]
        v = vc[bt[i][pos // PAGE], pos % PAGE].repeat_interleave(QPKV, dim=1)
        s = torch.einsum("hd,lhd->hl", q[qsl[i]], k) * HEAD ** -0.5
        out[qsl[i]] = torch.einsum("hl,lhd->hd", torch.softmax(s, -1), v)
    return out.to(inputs["query"].dtype)


def flops(B: int, S: int) -> float:
    return 4.0 * B * (0.625 * S) * HEAD * H_Q     # mean length of make_inputs' ragged sequences
