"""Kernl's fused attention forward, ``_fwd_kernel`` (ELS-RD/kernl ``src/kernl/implementations/attention.py`` at
commit 02787b1bd45b, launched by ``Attention.forward`` / ``attention_forward``), here with an additive **padding
mask** of shape [batch, 1, 1, size_n] (``HAS_MASK``, not ``IS_MATRIX_MASK``, not causal) and a sequence length that
is not a multiple of the block (``NEED_LOAD_MASK_SIZE_M`` / ``_N`` true).

The constructs: ``@triton.autotune`` over BLOCK_M / BLOCK_N over ``@triton.heuristics`` that set two constexprs and
one **runtime int argument** (``size_m_rounded``); a per-program **scratch round trip in global memory inside the
loop** (``tl.store(ptrs_t, acc_scale); acc_scale = tl.load(ptrs_t)``, kernl's workaround for an old compiler bug:
a store -> load through the same addresses every iteration); a constexpr if-ladder choosing the mask loads; an
additive mask row loaded with ``eviction_policy="evict_first"`` and ``other=-inf``, then ``tl.where(m == -inf,
min_clamp_value, m)``; ``qk`` initialised by ``tl.where(range_offs_n < size_n, 0, -inf)`` (note: ``range_offs_n``,
not ``offs_n``, as upstream writes it) before ``qk += tl.dot(q, k^T)``; a Milakov-Gimelshein online softmax that
rescales ``acc`` by ``d_i / d_new * alpha`` and normalises ``p`` inside the loop; runtime if on
``mask_batch_size == 1`` / ``mask_head_size == 1`` before the loop; K and V loaded through offsets
``block_start_index_n * stride`` added to fixed pointers. Port notes: ``tl.dot(q, k, trans_b=True)`` (removed from
Triton) is written ``tl.dot(q, tl.trans(k))``; ``mask_batch_idx = (current_batch_idx,)`` (a 1-tuple, which Triton
3.6 cannot merge with the ``0`` of the runtime if) is written ``mask_batch_idx = current_batch_idx``; the dead
``IS_CAUSAL`` branch keeps its upstream tuple. Shape: BERT-base (12 heads of 64) over 32 sequences padded to 320,
fp16; the first autotune config (128 x 128, 8 warps, 1 stage)."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "_fwd_kernel",
    "signature": {"heads": "i32", "size_m": "i32", "size_n": "i32", "size_m_cache_key": "i32",
                  "size_n_cache_key": "i32", "Q": "*fp16", "K": "*fp16", "V": "*fp16", "sm_scale": "fp32",
                  "attention_mask": "*fp16", "TMP": "*fp32", "output": "*fp16",
                  "q_batch_stride": "i32", "q_head_stride": "i32", "q_m_stride": "i32", "q_k_stride": "constexpr",
                  "k_batch_stride": "i32", "k_head_stride": "i32", "k_n_stride": "i32", "k_k_stride": "constexpr",
                  "v_batch_stride": "i32", "v_head_stride": "i32", "v_k_stride": "i32", "v_n_stride": "constexpr",
                  "o_batch_stride": "i32", "o_head_stride": "i32", "o_m_stride": "i32", "o_n_stride": "constexpr",
                  "attention_mask_batch_stride": "i32", "attention_mask_head_stride": "i32",
                  "attention_mask_m_stride": "i32", "attention_mask_k_stride": "constexpr",
                  "min_clamp_value": "fp32", "mask_batch_size": "i32", "mask_head_size": "constexpr",
                  "mask_m_size": "constexpr", "mask_k_size": "i32", "size_m_rounded": "i32"},
    "constexprs": {"q_k_stride": 1, "k_k_stride": 1, "v_n_stride": 1, "o_n_stride": 1,
                   "attention_mask_k_stride": 1, "mask_head_size": 1, "mask_m_size": 1,
                   "HAS_MASK": True, "IS_MATRIX_MASK": False, "IS_CAUSAL": False, "BLOCK_DHEAD": 64,
                   "BLOCK_M": 128, "BLOCK_N": 128, "NEED_LOAD_MASK_SIZE_M": True, "NEED_LOAD_MASK_SIZE_N": True},
    "num_warps": 8, "num_stages": 1,
    "divisibility": ["size_m", "size_n", "q_batch_stride", "q_head_stride", "q_m_stride",
                     "k_batch_stride", "k_head_stride", "k_n_stride", "v_batch_stride", "v_head_stride",
                     "v_k_stride", "o_batch_stride", "o_head_stride", "o_m_stride", "attention_mask_batch_stride",
                     "attention_mask_head_stride", "attention_mask_m_stride", "mask_batch_size", "mask_k_size", "size_m_rounded"]}
PROBLEM: dict[str, int] = {"B": 32, "H": 12, "S": 320, "D": 64}
SMALL: dict[str, int] = {"B": 2, "H": 2, "S": 200, "D": 64}


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128}, num_stages=1, num_warps=8),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128}, num_stages=1, num_warps=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_stages=1, num_warps=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 128}, num_stages=1, num_warps=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64}, num_stages=1, num_warps=4),
        triton.Config({"BLOCK_M": 16, "BLOCK_N": 16}, num_stages=1, num_warps=4),
    ],
    key=["size_m_cache_key", "size_n_cache_key", "heads", "HAS_MASK", "IS_CAUSAL"],
)
@triton.heuristics(  # order should be the same than in function args, otherwise expect strange bugs
    {
        # load mask is needed if one dim (size_n / size_m) of tensors do not align with block size
        "NEED_LOAD_MASK_SIZE_M": lambda args: args["size_m"] % args["BLOCK_M"] != 0,
        "NEED_LOAD_MASK_SIZE_N": lambda args: args["size_n"] % args["BLOCK_N"] != 0,
        "size_m_rounded": lambda args: math.ceil(args["size_m"] / args["BLOCK_M"]) * args["BLOCK_M"],
    }
)
@triton.jit
def _fwd_kernel(
    heads,
    size_m,
    size_n,
    size_m_cache_key,
    size_n_cache_key,
    Q,
    K,
    V,
    sm_scale,
    attention_mask,
    TMP,  # NOTE: TMP is a scratchpad buffer to workaround a compiler bug
    output,
    q_batch_stride,
    q_head_stride,
    q_m_stride,
    q_k_stride,
    k_batch_stride,
    k_head_stride,
    k_n_stride,
    k_k_stride,  # axis named n,k instead of k,n because of the transpose of K matrix
    v_batch_stride,
    v_head_stride,
    v_k_stride,
    v_n_stride,
    o_batch_stride,
    o_head_stride,
    o_m_stride,
    o_n_stride,
    attention_mask_batch_stride,
    attention_mask_head_stride,
    attention_mask_m_stride,
    attention_mask_k_stride,
    min_clamp_value,
    mask_batch_size,
    mask_head_size,
    mask_m_size,
    mask_k_size,
    HAS_MASK: tl.constexpr,
    IS_MATRIX_MASK: tl.constexpr,
    IS_CAUSAL: tl.constexpr,
    BLOCK_DHEAD: tl.constexpr,
    BLOCK_M: tl.constexpr,  # this parameter and below are managed by the autotune and need to be at the end
    BLOCK_N: tl.constexpr,
    NEED_LOAD_MASK_SIZE_M: tl.constexpr,
    NEED_LOAD_MASK_SIZE_N: tl.constexpr,
    size_m_rounded,
):
    """
    Computes attention
    """
    # Index of the block on M axis (M axis is the rows of matrix K)
    m_block_idx = tl.program_id(0)
    # Global index of the current head
    head_idx = tl.program_id(1)

    # offsets
    range_offs_m = tl.arange(0, BLOCK_M)  # first block on M dimension
    range_offs_n = tl.arange(0, BLOCK_N)  # first block on N dimension
    range_offs_d = tl.arange(0, BLOCK_DHEAD)  # full head

    offs_m = m_block_idx * BLOCK_M + range_offs_m  # rows offsets on M axis

    current_batch_idx = head_idx // heads
    current_head_idx = head_idx % heads

    # memory offsets matrices on whole Q, K, V, output matrices
    # offsets for the current block on matrix Q
    offs_q = (
        current_batch_idx * q_batch_stride
        + current_head_idx * q_head_stride
        + (offs_m[:, None] * q_m_stride + range_offs_d[None, :] * q_k_stride)
    )

    # offsets for the first block on matrix K
    offs_k = (
        current_batch_idx * k_batch_stride
        + current_head_idx * k_head_stride
        + (range_offs_n[:, None] * k_n_stride + range_offs_d[None, :] * k_k_stride)
    )

    # offsets for the first block on matrix V
    offs_v = (
        current_batch_idx * v_batch_stride
        + current_head_idx * v_head_stride
        + (range_offs_n[:, None] * v_k_stride + range_offs_d[None, :] * v_n_stride)
    )

    # offsets for the current block on matrix Output
    offs_o = (
        current_batch_idx * o_batch_stride
        + current_head_idx * o_head_stride
        + (offs_m[:, None] * o_m_stride + range_offs_d[None, :] * o_n_stride)
    )

    # pointers to blocks in Q, K, V
    ptrs_q = Q + offs_q
    ptrs_k = K + offs_k
    ptrs_v = V + offs_v
    ptrs_o = output + offs_o

    # Temporary pointer to memory to fix bug in triton compiler
    ptrs_t = TMP + head_idx * size_m_rounded + offs_m

    # initialize pointer to m and d used to compute normalizer for softmax
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32) - float("inf")
    d_i = tl.zeros((BLOCK_M,), dtype=tl.float32)

    # initialize the main loop accumulator, it is the size of a block of full rows, written to the output for the
    # current head
    acc = tl.zeros((BLOCK_M, BLOCK_DHEAD), dtype=tl.float32)

    # load q, a block of full rows of matrix q
    # it will stay in SRAM throughout
    if NEED_LOAD_MASK_SIZE_M:
        q = tl.load(ptrs_q, mask=offs_m[:, None] < size_m, other=0.0)
    else:
        q = tl.load(ptrs_q)

    n_end = size_n
    if IS_CAUSAL:
        n_end = ((m_block_idx + 1) * BLOCK_M,)

    if HAS_MASK:
        mask_batch_idx = current_batch_idx  # upstream: (current_batch_idx,)
        if mask_batch_size == 1:
            mask_batch_idx = 0

        mask_head_idx = current_head_idx
        if mask_head_size == 1:
            mask_head_idx = 0

        offs_base_mask = mask_batch_idx * attention_mask_batch_stride + mask_head_idx * attention_mask_head_stride

    # loop over k, v and update accumulator
    # block_start_index_n is the row offset on dimension N of the current block
    # It's used for both the N dimension of K and V because they are handled at the same time
    for block_start_index_n in range(0, n_end, BLOCK_N):
        block_start_index_n = tl.multiple_of(block_start_index_n, BLOCK_N)
        offs_n = block_start_index_n + range_offs_n
        # We load the current block in K in SRAM
        # We do the first multiplication between the block in Q and the current block in K
        # We finish with the scaling (sqrt(BLOCK_DHEAD) in Vaswani et al. but sm_scale here)
        if NEED_LOAD_MASK_SIZE_N:
            load_mask = offs_n[:, None] < size_n
            k = tl.load(ptrs_k + block_start_index_n * k_n_stride, mask=load_mask, other=0.0)
        else:
            k = tl.load(ptrs_k + block_start_index_n * k_n_stride)
        qk = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)

        # required to fix a Triton compiler bug, if not done, there is a precision issue
        if NEED_LOAD_MASK_SIZE_N:
            qk = tl.where(range_offs_n[None, :] < size_n, qk, float("-inf"))
        qk += tl.dot(q, tl.trans(k))  # upstream: tl.dot(q, k, trans_b=True)
        qk *= sm_scale
        if IS_CAUSAL:
            qk += tl.where(offs_m[:, None] >= offs_n[None, :], 0, float("-inf"))

        if HAS_MASK:
            # we assume mask has a vector shape
            offs_mask = offs_base_mask + offs_n[None, :] * attention_mask_k_stride
            if IS_MATRIX_MASK:  # mask has a matrix shape, we load (BLOCK_M, BLOCK_N) elements
                offs_mask += offs_m[:, None] * attention_mask_m_stride

            if NEED_LOAD_MASK_SIZE_N & (not IS_MATRIX_MASK):  # mask has a vector shape + need a load mask
                attention_load_mask = offs_n[None, :] < mask_k_size
            if IS_MATRIX_MASK:  # mask has a matrix shape
                if NEED_LOAD_MASK_SIZE_M & (not NEED_LOAD_MASK_SIZE_N):  # load mask on M axis
                    attention_load_mask = offs_m[:, None] < mask_m_size
                elif (not NEED_LOAD_MASK_SIZE_M) & NEED_LOAD_MASK_SIZE_N:  # load mask on N axis
                    attention_load_mask = offs_n[None, :] < mask_k_size
                elif NEED_LOAD_MASK_SIZE_M & NEED_LOAD_MASK_SIZE_N:  # load mask on both axis
                    attention_load_mask = (offs_n[None, :] < mask_k_size) & (offs_m[:, None] < mask_m_size)

            if NEED_LOAD_MASK_SIZE_M | NEED_LOAD_MASK_SIZE_N:
                m = tl.load(
                    attention_mask + offs_mask,
                    eviction_policy="evict_first",
                    mask=attention_load_mask,
                    other=float("-inf"),
                )
            else:
                m = tl.load(
                    attention_mask + offs_mask,
                    eviction_policy="evict_first",
                )
            # Avoids NaN
            m = tl.where(m == float("-inf"), min_clamp_value, m)
            qk += m

        # We compute softmax normalization like in Milakov et al.
        # We renamed m (in the original article) to l to avoid confusions
        # We start with the current block qk
        l_j = tl.max(qk, 1)

        numerators = tl.exp(qk - l_j[:, None])
        d_j = tl.sum(numerators, 1)

        l_new = tl.maximum(l_i, l_j)
        alpha = tl.exp(l_i - l_new)
        beta = tl.exp(l_j - l_new)
        d_new = alpha * d_i + beta * d_j

        # We correct the numerator for the current softmax (*beta) -> exp(l_j - l_new) * exp(qk - mj) = exp(l_new) We
        # divide by the normalization. It's strange to do it this way instead of simply computing the softmax for qk,
        # but since all needed operations are already done for updating m and d, it seems faster
        p_scale = beta / d_new

        qk_softmax = numerators * p_scale[:, None]

        # From here, qk_softmax is correct related to all over previously done block
        # However it is wrong related to the full output row if the qk isn't the last block
        # And at this stage all the previously done qk_softmax blocks are also wrong and needs to be corrected
        # To correct previous blocks we will scale the accumulator
        # d_i / d_new is for correcting denominator
        # alpha is for correcting numerator
        acc_scale = d_i / d_new * alpha

        # This isn't useful in the algorithm, simply to fix a compiler bug
        # BUG: have to store and immediately load
        tl.store(ptrs_t, acc_scale)
        acc_scale = tl.load(ptrs_t)

        # acc scaling
        acc = acc * acc_scale[:, None]

        # We now apply the last operation, the multiplication by a block of matrix V
        if NEED_LOAD_MASK_SIZE_N:
            load_mask = offs_n[:, None] < size_n  # repeated otherwise triton segfault
            v = tl.load(ptrs_v + block_start_index_n * v_k_stride, mask=load_mask, other=0.0)
        else:
            v = tl.load(ptrs_v + block_start_index_n * v_k_stride)
        qk_softmax = qk_softmax.to(Q.dtype.element_ty)
        acc += tl.dot(qk_softmax, v)

        # We update the normalizer for the next iteration
        d_i = d_new
        l_i = l_new

    if NEED_LOAD_MASK_SIZE_M:
        out_store_mask = offs_m[:, None] < size_m
        tl.store(ptrs_o, acc, mask=out_store_mask)
    else:
        tl.store(ptrs_o, acc)


def make_inputs(B: int, H: int, S: int, D: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v [B, H, S, D] fp16; an additive fp16 padding mask [B, 1, 1, S]: 0 for real tokens, -inf for each
    sequence's padded tail (lengths from S/2 to S)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((B, H, S, D), device=device, generator=g).half()
    k = torch.randn((B, H, S, D), device=device, generator=g).half()
    v = torch.randn((B, H, S, D), device=device, generator=g).half()
    lens = torch.randint(S // 2, S + 1, (B,), device=device, generator=g)
    pos = torch.arange(S, device=device)
    mask = torch.where(pos[None, :] < lens[:, None], 0.0, float("-inf")).half().view(B, 1, 1, S)
    return {"q": q, "k": k, "v": v, "mask": mask}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """output [B, H, S, D] fp16 as ``attention_forward(q, k, v, output, sm_scale, False, attention_mask)``."""
    import torch
    q, k, v, attention_mask = inputs["q"], inputs["k"], inputs["v"], inputs["mask"]
    output = torch.empty_like(q)
    sm_scale = 1.0 / math.sqrt(q.shape[-1])
    is_causal = False
    batch, heads, size_m, dhead = q.size()
    size_n = k.size(2)
    size_m_cache_key, size_n_cache_key = size_m // 32, size_n // 32
    grid = lambda args: (triton.cdiv(size_m, args["BLOCK_M"]), batch * heads)  # noqa: E731
    tmp = torch.empty((batch * heads, math.ceil(size_m / 128) * 128), device=q.device, dtype=torch.float32)
    HAS_MASK = True
    IS_MATRIX_MASK = attention_mask.size(2) != 1
    _fwd_kernel[grid](
        heads, size_m, size_n, size_m_cache_key, size_n_cache_key,
        q, k, v, sm_scale, attention_mask, tmp, output,
        *q.stride(), *k.stride(), *v.stride(), *output.stride(),
        *attention_mask.stride() if HAS_MASK else (0, 0, 0, 0),
        torch.finfo(attention_mask.dtype).min if HAS_MASK else 0,
        *attention_mask.size() if HAS_MASK else (0, 0, 0, 0),
        HAS_MASK, IS_MATRIX_MASK, is_causal, dhead,
    )
    return output


def reference(inputs: dict[str, Any]) -> Any:
    """softmax(q k^T * sm_scale + mask) v in fp64, -inf mask entries clamped to fp16's min as the kernel does."""
    import torch
    q, k, v = inputs["q"].double(), inputs["k"].double(), inputs["v"].double()
    m = inputs["mask"].double()
    m = torch.where(torch.isinf(m), torch.finfo(torch.float16).min, m)
    p = q @ k.transpose(2, 3) / math.sqrt(q.shape[-1]) + m
    return torch.softmax(p, dim=-1) @ v


def flops(B: int, H: int, S: int, D: int) -> float:
    """Two GEMMs: 4 * B * H * S * S * D."""
    return 4.0 * B * H * S * S * D
