"""vLLM ``kernel_unified_attention_2d`` (vllm/attention/ops/triton_unified_attention.py style): queries of several
sequences packed along tokens (``query_start_len_ptr``), the program's sequence found by a binary search
(``find_seq_idx``, a ``while`` loop of loads) and an early ``return`` for q-blocks past the sequence's queries, GQA
with ``num_queries_per_kv`` query heads of one KV head packed into BLOCK_M rows (``offs_m // num_queries_per_kv``),
a paged KV cache [num_blocks, BLOCK_SIZE, num_kv_heads, HEAD_SIZE] read through the block table with one physical
block number per key (``seq_offset // BLOCK_SIZE``) in TILE_SIZE tiles, causal mask by position
(``context_len + query_pos``), ``tl.where`` masks built from ints, online softmax with L starting at 1.0. fp16."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

NUM_Q_HEADS, NUM_KV_HEADS, HEAD = 32, 8, 128
QPKV = NUM_Q_HEADS // NUM_KV_HEADS
BLOCK_M = 64
BLOCK_Q = BLOCK_M // QPKV
PAGE = 16
TILE = 64
TWILL_SPEC: dict[str, Any] = {
    "kernel": "kernel_unified_attention_2d",
    "signature": {"output_ptr": "*fp16", "query_ptr": "*fp16", "key_cache_ptr": "*fp16", "value_cache_ptr": "*fp16",
                  "block_tables_ptr": "*i32", "seq_lens_ptr": "*i32", "scale": "fp32",
                  "block_table_stride": "i64", "query_stride_0": "i32", "query_stride_1": "i32",
                  "output_stride_0": "i32", "output_stride_1": "i32",
                  "stride_k_cache_0": "i64", "stride_k_cache_1": "i64", "stride_k_cache_2": "i64",
                  "stride_k_cache_3": "constexpr", "stride_v_cache_0": "i64", "stride_v_cache_1": "i64",
                  "stride_v_cache_2": "i64", "stride_v_cache_3": "constexpr", "query_start_len_ptr": "*i32",
                  "num_seqs": "i32"},
    "constexprs": {"num_query_heads": NUM_Q_HEADS, "num_queries_per_kv": QPKV, "BLOCK_SIZE": PAGE,
                   "TILE_SIZE": TILE, "HEAD_SIZE": HEAD, "HEAD_SIZE_PADDED": HEAD, "stride_k_cache_3": 1,
                   "stride_v_cache_3": 1, "BLOCK_Q": BLOCK_Q, "BLOCK_M": BLOCK_M},
    "num_warps": 4, "num_stages": 2,
    "divisibility": ["output_ptr", "query_ptr", "key_cache_ptr", "value_cache_ptr", "block_tables_ptr",
                     "seq_lens_ptr", "query_start_len_ptr", "block_table_stride", "query_stride_0",
                     "query_stride_1", "output_stride_0", "output_stride_1", "stride_k_cache_0",
                     "stride_k_cache_1", "stride_k_cache_2", "stride_v_cache_0", "stride_v_cache_1",
                     "stride_v_cache_2"]}
# S sequences, each with Q new query tokens after C cached context tokens
PROBLEM: dict[str, int] = {"S": 16, "Q": 512, "C": 2048}
SMALL: dict[str, int] = {"S": 3, "Q": 37, "C": 70}


@triton.jit
def cdiv_fn(x, y):
    return (x + y - 1) // y


@triton.jit
def find_seq_idx(query_start_len_ptr, target_idx, num_seqs, BLOCK_Q: tl.constexpr, use_q_block_mode: tl.constexpr):
    left: tl.int32 = 0
    right = num_seqs
    while left < right:
        mid = (left + right) // 2
        val = tl.load(query_start_len_ptr + mid)
        mid_val = val // BLOCK_Q + mid if use_q_block_mode else val

        if mid_val <= target_idx:
            left = mid + 1
        else:
            right = mid

    return left - 1


@triton.jit
def kernel_unified_attention_2d(
        output_ptr,  # [num_tokens, num_query_heads, head_size]
        query_ptr,  # [num_tokens, num_query_heads, head_size]
        key_cache_ptr,  # [num_blks, blk_size, num_kv_heads, head_size]
        value_cache_ptr,  # [num_blks, blk_size, num_kv_heads, head_size]
        block_tables_ptr,  # [num_seqs, max_num_blocks_per_seq]
        seq_lens_ptr,  # [num_seqs]
        scale,  # float32
        num_query_heads: tl.constexpr,  # int
        num_queries_per_kv: tl.constexpr,  # int
        block_table_stride: tl.int64,  # int
        query_stride_0: tl.int64,  # int
        query_stride_1: tl.int64,  # int, should be equal to head_size
        output_stride_0: tl.int64,  # int
        output_stride_1: tl.int64,  # int, should be equal to head_size
        BLOCK_SIZE: tl.constexpr,  # int
        TILE_SIZE: tl.constexpr,  # int must be power of 2
        HEAD_SIZE: tl.constexpr,  # int
        HEAD_SIZE_PADDED: tl.constexpr,  # int, must be power of 2
        stride_k_cache_0: tl.int64,  # int
        stride_k_cache_1: tl.int64,  # int
        stride_k_cache_2: tl.int64,  # int
        stride_k_cache_3: tl.constexpr,  # int
        stride_v_cache_0: tl.int64,  # int
        stride_v_cache_1: tl.int64,  # int
        stride_v_cache_2: tl.int64,  # int
        stride_v_cache_3: tl.constexpr,  # int
        query_start_len_ptr,  # [num_seqs+1]
        BLOCK_Q: tl.constexpr,  # int
        num_seqs: tl.int32,
        BLOCK_M: tl.constexpr,  # int
):
    q_block_global_idx = tl.program_id(0)
    kv_head_idx = tl.program_id(1)

    seq_idx = find_seq_idx(query_start_len_ptr, q_block_global_idx, num_seqs, BLOCK_Q, True)

    q_block_start_idx = tl.load(query_start_len_ptr + seq_idx) // BLOCK_Q + seq_idx

    q_block_local_idx = q_block_global_idx - q_block_start_idx

    cur_batch_in_all_start_index = tl.load(query_start_len_ptr + seq_idx)
    cur_batch_in_all_stop_index = tl.load(query_start_len_ptr + seq_idx + 1)

    cur_batch_query_len = cur_batch_in_all_stop_index - cur_batch_in_all_start_index

    if q_block_local_idx * BLOCK_Q >= cur_batch_query_len:
        return

    offs_m = tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_SIZE_PADDED)
    offs_t = tl.arange(0, TILE_SIZE)
    query_pos = q_block_local_idx * BLOCK_Q + offs_m // num_queries_per_kv

    query_offset_0 = cur_batch_in_all_start_index + query_pos
    query_offset_1 = kv_head_idx * num_queries_per_kv + offs_m % num_queries_per_kv
    query_offset = (query_offset_0[:, None] * query_stride_0 + query_offset_1[:, None] * query_stride_1 +
                    offs_d[None, :])

    dim_mask = tl.where(offs_d < HEAD_SIZE, 1, 0).to(tl.int1)
    query_mask_0 = tl.where(query_pos < cur_batch_query_len, 1, 0).to(tl.int1)
    query_mask_1 = tl.where(query_offset_1 < num_query_heads, 1, 0).to(tl.int1)

    # Q : (BLOCK_M, HEAD_SIZE_PADDED)
    Q = tl.load(
        query_ptr + query_offset,
        mask=dim_mask[None, :] & query_mask_0[:, None] & query_mask_1[:, None],
        other=0.0,
    )

    block_table_offset = seq_idx * block_table_stride

    M = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    L = tl.full([BLOCK_M], 1.0, dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_SIZE_PADDED], dtype=tl.float32)

    # sequence len for this particular sequence
    seq_len = tl.load(seq_lens_ptr + seq_idx)

    # context length for this particular sequences
    context_len = seq_len - cur_batch_query_len

    # compute the length of the longest sequence prefix spanned by any
    # query token in the current q_block (q_block_local_idx)
    max_seq_prefix_len = (context_len + q_block_local_idx * BLOCK_Q + (BLOCK_M - 1) // num_queries_per_kv + 1)

    # adjust for potential padding in the last q_block by considering the
    # actual sequence length
    max_seq_prefix_len = tl.minimum(max_seq_prefix_len, seq_len)

    # calculate the number of tiles that need to be processed to
    # cover the longest sequence prefix (due to causal masking, tiles beyond
    # this prefix can be skipped)
    num_tiles = cdiv_fn(max_seq_prefix_len, TILE_SIZE)

    # iterate through tiles
    for j in range(0, num_tiles):
        seq_offset = j * TILE_SIZE + offs_t
        tile_mask = seq_offset < max_seq_prefix_len

        physical_block_idx = tl.load(block_tables_ptr + block_table_offset + seq_offset // BLOCK_SIZE,
                                     mask=tile_mask, other=0).to(tl.int64)

        v_offset = (physical_block_idx[:, None] * stride_v_cache_0 + kv_head_idx * stride_v_cache_2 +
                    offs_d[None, :] * stride_v_cache_3 + (seq_offset % BLOCK_SIZE)[:, None] * stride_v_cache_1)

        k_offset = (physical_block_idx[None, :] * stride_k_cache_0 + kv_head_idx * stride_k_cache_2 +
                    offs_d[:, None] * stride_k_cache_3 + (seq_offset % BLOCK_SIZE)[None, :] * stride_k_cache_1)

        # K : (HEAD_SIZE, TILE_SIZE)
        K_load = tl.load(key_cache_ptr + k_offset, mask=dim_mask[:, None] & tile_mask[None, :], other=0.0)
        K = K_load

        # V : (TILE_SIZE, HEAD_SIZE)
        V_load = tl.load(value_cache_ptr + v_offset, mask=dim_mask[None, :] & tile_mask[:, None], other=0.0)
        V = V_load

        seq_mask = seq_offset[None, :] < context_len + query_pos[:, None] + 1

        # S : (BLOCK_M, TILE_SIZE)
        S = tl.zeros(shape=(BLOCK_M, TILE_SIZE), dtype=tl.float32)

        S += scale * tl.dot(Q, K)

        S = tl.where(query_mask_1[:, None] & query_mask_0[:, None] & seq_mask, S, float("-inf"))

        # compute running maximum
        # m_j : (BLOCK_M,)
        m_j = tl.maximum(M, tl.max(S, axis=1))
        # For sliding window there's a chance the max is -inf due to masking of
        # the entire row. In this case we need to set m_j 0 to avoid NaN
        m_j = tl.where(m_j > float("-inf"), m_j, 0.0)

        # P : (BLOCK_M, TILE_SIZE)
        P = tl.exp(S - m_j[:, None])

        # l_j : (BLOCK_M,)
        l_j = tl.sum(P, axis=1)

        # alpha : (BLOCK_M, )
        alpha = tl.exp(M - m_j)

        # acc : (BLOCK_M, HEAD_SIZE_PADDED)
        acc = acc * alpha[:, None]

        # update constants
        L = L * alpha + l_j
        M = m_j

        # acc : (BLOCK_M, HEAD_SIZE_PADDED)
        acc += tl.dot(P.to(V.dtype), V)

    # epilogue
    acc = acc / L[:, None]

    output_offset = (query_offset_0[:, None] * output_stride_0 + query_offset_1[:, None] * output_stride_1 +
                     offs_d[None, :])

    tl.store(
        output_ptr + output_offset,
        acc,
        mask=dim_mask[None, :] & query_mask_0[:, None] & query_mask_1[:, None],
    )


def make_inputs(S: int, Q: int, C: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    # ragged: sequence i has Q + i query tokens and C + 3 i context tokens
    q_lens = [Q + i for i in range(S)]
    seq_lens = [C + 3 * i + q_lens[i] for i in range(S)]
    blocks_per_seq = max(triton.cdiv(s, PAGE) for s in seq_lens)
    num_blocks = S * blocks_per_seq + 7
    T = sum(q_lens)
    qsl = [0]
    for n in q_lens:
        qsl.append(qsl[-1] + n)
    return {
        "query": torch.randn((T, NUM_Q_HEADS, HEAD), device=device, generator=g).half(),
        "key_cache": torch.randn((num_blocks, PAGE, NUM_KV_HEADS, HEAD), device=device, generator=g).half(),
        "value_cache": torch.randn((num_blocks, PAGE, NUM_KV_HEADS, HEAD), device=device, generator=g).half(),
        "block_tables": torch.randperm(num_blocks, device=device, generator=g)[:S * blocks_per_seq]
        .to(torch.int32).view(S, blocks_per_seq),
        "seq_lens": torch.tensor(seq_lens, dtype=torch.int32, device=device),
        "cu_seqlens_q": torch.tensor(qsl, dtype=torch.int32, device=device),
        "max_seqlen_q": max(q_lens),
        "total_num_q_blocks": T // BLOCK_Q + S,
    }


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """vLLM unified_attention (2d path, causal, no alibi/softcap/sinks/window): fp16 [num_tokens, 32, 128]."""
    import torch
    q, k, v = inputs["query"], inputs["key_cache"], inputs["value_cache"]
    block_table, seqused_k, cu_seqlens_q = inputs["block_tables"], inputs["seq_lens"], inputs["cu_seqlens_q"]
    num_seqs = len(seqused_k)
    block_size = v.shape[1]
    num_query_heads = q.shape[1]
    num_kv_heads = k.shape[2]
    num_queries_per_kv = num_query_heads // num_kv_heads
    head_size = q.shape[2]
    out = torch.empty_like(q)
    BLOCK_M_ = BLOCK_M
    BLOCK_Q_ = BLOCK_M_ // num_queries_per_kv
    total_num_q_blocks = inputs["total_num_q_blocks"]
    kernel_unified_attention_2d[(total_num_q_blocks, num_kv_heads)](
        output_ptr=out, query_ptr=q, key_cache_ptr=k, value_cache_ptr=v, block_tables_ptr=block_table,
        seq_lens_ptr=seqused_k, scale=head_size ** -0.5, num_query_heads=num_query_heads,
        num_queries_per_kv=num_queries_per_kv, block_table_stride=block_table.stride(0),
        query_stride_0=q.stride(0), query_stride_1=q.stride(1), output_stride_0=out.stride(0),
        output_stride_1=out.stride(1), BLOCK_SIZE=block_size, TILE_SIZE=TILE, HEAD_SIZE=head_size,
        HEAD_SIZE_PADDED=triton.next_power_of_2(head_size),
        stride_k_cache_0=k.stride(0), stride_k_cache_1=k.stride(1), stride_k_cache_2=k.stride(2),
        stride_k_cache_3=k.stride(3), stride_v_cache_0=v.stride(0), stride_v_cache_1=v.stride(1),
        stride_v_cache_2=v.stride(2), stride_v_cache_3=v.stride(3), query_start_len_ptr=cu_seqlens_q,
        BLOCK_Q=BLOCK_Q_, num_seqs=num_seqs, BLOCK_M=BLOCK_M_,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 2))
    return out


def reference(inputs: dict[str, Any]) -> Any:
    import torch
    q, kc, vc = inputs["query"].float(), inputs["key_cache"].float(), inputs["value_cache"].float()
    bt, seq_lens, qsl = inputs["block_tables"].long(), inputs["seq_lens"].tolist(), inputs["cu_seqlens_q"].tolist()
    out = torch.empty_like(q)
    for i in range(len(seq_lens)):
        s, e, L = qsl[i], qsl[i + 1], seq_lens[i]
        ql = e - s
        pos = torch.arange(L, device=q.device)
        slots_b, slots_o = bt[i][pos // PAGE], pos % PAGE
        k = kc[slots_b, slots_o].repeat_interleave(QPKV, dim=1)       # [L, Hq, D]
        v = vc[slots_b, slots_o].repeat_interleave(QPKV, dim=1)
        s_ = torch.einsum("qhd,khd->hqk", q[s:e], k) * HEAD ** -0.5
        qpos = (L - ql) + torch.arange(ql, device=q.device)
        s_ = s_.masked_fill(pos[None, None, :] > qpos[None, :, None], float("-inf"))
        out[s:e] = torch.einsum("hqk,khd->qhd", torch.softmax(s_, -1), v)
    return out


def flops(S: int, Q: int, C: int) -> float:
    return 4.0 * S * Q * (C + Q / 2) * HEAD * NUM_Q_HEADS
