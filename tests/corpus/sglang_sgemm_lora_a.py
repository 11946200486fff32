"""SGLang's segmented LoRA-A (shrink) GEMM, ``_sgemm_lora_a_kernel`` (sgl-project/sglang
python/sglang/srt/lora/triton_ops/sgemm_lora_a.py, launched by ``sgemm_lora_a_fwd``; with kernel_utils.py's
``_resolve_token_positions`` helper kept as a separate @triton.jit function): out[tok, :stack_num * rank] =
x[tok] @ A[adapter]^T for every segment (one adapter's group of tokens) of the batch.

The constructs: grid (num_s_tiles * SPLIT_K, bs); the segment's adapter index, the adapter's **rank**, the segment's
start and length all **loaded from memory**; **three early returns** (``rank == 0``, ``seg_len == 0``, and
``pid_s * BLOCK_S >= seg_len`` for the row tiles past this segment's length); N narrowed at run time to
``tl.minimum(N, rank * stack_num)`` (stack_num a runtime i32) and used in the weight mask and the output mask;
the helper's **constexpr-if with a return in each arm** (``SORTED_BY_ADAPTER``: the token rows **gathered** through
``sorted_token_ids`` with a masked int32 load widened to int64, else contiguous rows); the split-K K loop
``for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K))`` (K a runtime i32) with masks on the segment rows and the K
remainder, ``tl.dot`` of the gathered x rows [BLOCK_S, BLOCK_K] with the weight read transposed [BLOCK_K, BLOCK_N],
both pointers advanced by ``BLOCK_K * SPLIT_K`` columns; after the loop a **constexpr-if** on ``SPLIT_K == 1``
choosing a plain store or a **``tl.atomic_add(..., sem="relaxed")``** into the scattered fp32 rows. The shapes of
``sgemm_lora_a_fwd``'s split-K path (``SGLANG_ENABLE_LORA_SHRINK_SPLIT_K``, fp32 zero-filled output, 4 warps, 3
stages, BLOCK_S 16, BLOCK_K 256, BLOCK_R = next_pow2(3 * 16)): a decode batch of 256 tokens of Llama-3-8B's hidden
size 4096 permuted by adapter into four segments (ranks 16, 8, 0, 16; the QKV stack, stack_num 3). Nothing here is
imported by twill."""
from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

STACK, MAX_RANK, RANKS = 3, 16, (16, 8, 0, 16)
NUM_SMS = 132
BLOCK_S, BLOCK_K = 16, 256
BLOCK_R = 64          # triton.next_power_of_2(STACK * MAX_RANK)
SPLIT_K = 8           # sgemm_lora_a_fwd's heuristic for PROBLEM on 132 SMs: min(2 * 132 // (4 * 7), 16, 16)
TWILL_SPEC: dict[str, Any] = {
    "kernel": "_sgemm_lora_a_kernel",
    "signature": {"x": "*bf16", "weights": "*bf16", "output": "*fp32", "N": "i32", "K": "i32", "stack_num": "i32",
                  "x_stride_0": "i32", "x_stride_1": "constexpr", "w_stride_0": "i32", "w_stride_1": "i32",
                  "w_stride_2": "constexpr", "output_stride_0": "i32", "output_stride_1": "constexpr",
                  "seg_lens": "*i32", "seg_indptr": "*i32", "weight_indices": "*i32", "lora_ranks": "*i32",
                  "sorted_token_ids": "*i32"},
    "constexprs": {"x_stride_1": 1, "w_stride_2": 1, "output_stride_1": 1, "SORTED_BY_ADAPTER": True,
                   "BLOCK_S": BLOCK_S, "BLOCK_N": BLOCK_R, "BLOCK_K": BLOCK_K, "SPLIT_K": SPLIT_K},
    "num_warps": 4, "num_stages": 3,
    # stack_num (3) is not 16-divisible; N (48) is
    "divisibility": ["x", "weights", "output", "N", "K", "x_stride_0", "w_stride_0", "w_stride_1",
                     "output_stride_0", "seg_lens", "seg_indptr", "weight_indices", "lora_ranks",
                     "sorted_token_ids"]}
PROBLEM: dict[str, int] = {"S": 256, "K": 4096}
SMALL: dict[str, int] = {"S": 37, "K": 4096}


@triton.jit
def _resolve_token_positions(
    sorted_token_ids, seg_start, s_offset, seg_len, SORTED_BY_ADAPTER: tl.constexpr
):
    if SORTED_BY_ADAPTER:
        return tl.load(
            sorted_token_ids + seg_start + s_offset, mask=s_offset < seg_len
        ).to(tl.int64)
    return (seg_start + s_offset).to(tl.int64)


@triton.jit
def _sgemm_lora_a_kernel(
    # Pointers to matrices
    x,
    weights,
    output,
    # Matrix dimensions
    N,  # stack_num * r
    K,  # input_dim
    stack_num,
    # Strides
    x_stride_0,
    x_stride_1,
    w_stride_0,
    w_stride_1,
    w_stride_2,
    output_stride_0,
    output_stride_1,
    # Information on sequence lengths,ranks and weight id
    seg_lens,
    seg_indptr,
    weight_indices,
    lora_ranks,
    sorted_token_ids,
    # Meta parameters
    SORTED_BY_ADAPTER: tl.constexpr,
    BLOCK_S: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    SPLIT_K: tl.constexpr = 1,
):
    batch_id = tl.program_id(axis=1)
    w_index = tl.load(weight_indices + batch_id)
    rank = tl.load(lora_ranks + w_index)

    # If rank is 0, this kernel becomes a no-op as the output is always trivially correct.
    if rank == 0:
        return

    pid = tl.program_id(axis=0)
    # Fold the split-K factor out of axis-0 (SPLIT_K == 1 -> pid_sk == 0, pid_tile == pid).
    pid_sk = pid % SPLIT_K
    pid_tile = pid // SPLIT_K

    seg_start = tl.load(seg_indptr + batch_id)
    seg_len = tl.load(seg_lens + batch_id)
    if seg_len == 0:
        return

    # Adjust N (stack_num * max_rank) to this adapter's actual rank.
    N = tl.minimum(N, rank * stack_num)

    # The tile in output matrix will have (pid_s, pid_n) as id
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_s = pid_tile // num_pid_n
    pid_n = pid_tile % num_pid_n
    if pid_s * BLOCK_S >= seg_len:
        return

    s_offset = tl.arange(0, BLOCK_S) + pid_s * BLOCK_S
    n_offset = tl.arange(0, BLOCK_N) + pid_n * BLOCK_N
    k_offset = pid_sk * BLOCK_K + tl.arange(0, BLOCK_K)
    s_physical = _resolve_token_positions(
        sorted_token_ids, seg_start, s_offset, seg_len, SORTED_BY_ADAPTER
    )
    x_ptrs = x + (s_physical[:, None] * x_stride_0 + k_offset[None, :] * x_stride_1)
    w_ptrs = (weights + w_index * w_stride_0) + (
        k_offset[:, None] * w_stride_2 + n_offset[None, :] * w_stride_1
    )

    # Iterate to compute the block in output matrix
    partial_sum = tl.zeros((BLOCK_S, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_remaining = K - k * (BLOCK_K * SPLIT_K)
        x_tile = tl.load(
            x_ptrs,
            mask=(s_offset[:, None] < seg_len) & (k_offset[None, :] < k_remaining),
            other=0.0,
        )
        w_tile = tl.load(
            w_ptrs,
            mask=(k_offset[:, None] < k_remaining) & (n_offset[None, :] < N),
            other=0.0,
        )
        partial_sum += tl.dot(x_tile, w_tile)

        x_ptrs += BLOCK_K * SPLIT_K * x_stride_1
        w_ptrs += BLOCK_K * SPLIT_K * w_stride_2

    # Store result to output matrix
    output_mask = (s_offset[:, None] < seg_len) & (n_offset[None, :] < N)
    output_ptr = output + (
        s_physical[:, None] * output_stride_0 + n_offset[None, :] * output_stride_1
    )
    if SPLIT_K == 1:
        tl.store(output_ptr, partial_sum.to(output.dtype.element_ty), mask=output_mask)
    else:
        tl.atomic_add(
            output_ptr,
            partial_sum.to(output.dtype.element_ty),
            mask=output_mask,
            sem="relaxed",
        )


def make_inputs(S: int, K: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """x [S, K] bf16; weights [4, 3 * 16, K] bf16 (an adapter of rank r uses its first 3 * r rows); every token
    routed to one of the four adapters; LoRABatchInfo with a permutation: the tokens sorted by adapter
    (sorted_token_ids int32), one segment per adapter (seg_lens, seg_indptr, weight_indices int32), the rank-0
    adapter's segment non-empty (first return), and a fifth, empty segment (second return); max_len kept on the
    host (the launcher's grid)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    L = len(RANKS)
    x = torch.randn((S, K), device=device, generator=g).to(torch.bfloat16)
    w = (torch.randn((L, STACK * MAX_RANK, K), device=device, generator=g) / K ** 0.5).to(torch.bfloat16)
    adapter = torch.randint(0, L, (S,), device=device, generator=g)
    perm = torch.sort(adapter, stable=True).indices
    counts = torch.bincount(adapter, minlength=L)
    seg_lens = torch.cat([counts, torch.zeros(1, dtype=counts.dtype, device=device)]).to(torch.int32)
    seg_indptr = torch.cat([torch.zeros(1, dtype=torch.int64, device=device),
                            torch.cumsum(seg_lens.long(), 0)[:-1]]).to(torch.int32)
    weight_indices = torch.tensor(list(range(L)) + [0], device=device, dtype=torch.int32)
    return {"x": x, "weights": w, "adapter": adapter, "sorted_token_ids": perm.to(torch.int32).contiguous(),
            "seg_lens": seg_lens, "seg_indptr": seg_indptr, "weight_indices": weight_indices,
            "lora_ranks": torch.tensor(RANKS, device=device, dtype=torch.int32),
            "max_len": int(counts.max())}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """sgemm_lora_a_fwd's split-K path: output [S, 3 * 16] fp32 zero-filled, atomically accumulated; returned as
    x's dtype (bf16) as the library does."""
    import torch
    x, w = inputs["x"], inputs["weights"]
    S, K = x.shape
    R = w.shape[-2]
    num_s_tiles = triton.cdiv(inputs["max_len"], BLOCK_S)
    bs = inputs["seg_lens"].shape[0]
    output = torch.zeros((S, R), device=x.device, dtype=torch.float32)
    _sgemm_lora_a_kernel[(num_s_tiles * SPLIT_K, bs)](
        x, w, output, R, K, STACK,
        x.stride(0), x.stride(1), w.stride(0), w.stride(1), w.stride(2), output.stride(0), output.stride(1),
        inputs["seg_lens"], inputs["seg_indptr"], inputs["weight_indices"], inputs["lora_ranks"],
        inputs["sorted_token_ids"], True, BLOCK_S, BLOCK_R, BLOCK_K, SPLIT_K,
        num_warps=config.get("num_warps", 4), num_stages=config.get("num_stages", 3))
    return output.to(x.dtype)


def reference(inputs: dict[str, Any]) -> Any:
    """out[t, :3 r] = x[t] @ W[a]^T[:, :3 r] for token t of adapter a (rank r); the rest of the row stays 0."""
    import torch
    x, w, adapter = inputs["x"].float(), inputs["weights"].float(), inputs["adapter"]
    out = torch.zeros((x.shape[0], w.shape[1]), dtype=torch.float32, device=x.device)
    for a, r in enumerate(RANKS):
        rows = (adapter == a).nonzero().flatten()
        if r == 0 or rows.numel() == 0:
            continue
        out[rows, :STACK * r] = x[rows] @ w[a, :STACK * r].T
    return out.to(torch.bfloat16)


def flops(S: int, K: int) -> float:
    """2 * K * 3 r per token, r its adapter's rank (about 3/4 of tokens at an average rank 40/3)."""
    return 2.0 * S * K * STACK * sum(RANKS) / len(RANKS)
