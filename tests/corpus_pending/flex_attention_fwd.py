"""PyTorch Inductor ``flex_attention`` forward template style (torch/_inductor/kernel/flex/templates): block-sparse
KV iteration through a BlockMask's ``KV_NUM_BLKS`` / ``KV_IDX`` (partial blocks) and ``FULL_KV_NUM_BLKS`` /
``FULL_KV_IDX`` (full blocks): the loop's bound ``block_n_end`` is loaded from memory and each next KV offset comes from
``get_offset_for_next_block`` (two loads from the index row, a ``needs_jump`` select). The inner loop is a separate
``forward_inner`` @triton.jit helper (called twice, IS_FULL_BLOCKS False / True) calling ``forward_block_mn`` and
``load_checked_2d``; a score_mod adding a per-head relative-position bias gathered from a captured buffer
(``in_ptr8``), a causal mask_mod on partial blocks only, exp2 online softmax with ``RCP_LN2``, ROWS_GUARANTEED_SAFE
off, IS_DIVISIBLE off (boundary masks), a base-2 logsumexp output. fp16, D = 128."""
from __future__ import annotations
from typing import Any
import triton
import triton.language as tl

HEAD_DIM = 128
SPARSE_BLOCK = 128
REL = 256            # relative bias table has 2 * REL + 1 entries per head
TWILL_SPEC: dict[str, Any] = {
    "kernel": "triton_flex_attention",
    "signature": {"arg_Q": "*fp16", "arg_K": "*fp16", "arg_V": "*fp16", "arg_LSE": "*fp32",
                  "arg_KV_NUM_BLKS": "*i32", "arg_KV_IDX": "*i32", "arg_FULL_KV_NUM_BLKS": "*i32",
                  "arg_FULL_KV_IDX": "*i32", "in_ptr8": "*fp32", "out_ptr0": "*fp16",
                  "HQ": "i32", "Q_LEN": "i32", "KV_LEN": "i32",
                  "stride_qz": "i32", "stride_qh": "i32", "stride_qm": "i32",
                  "stride_kz": "i32", "stride_kh": "i32", "stride_kn": "i32",
                  "stride_vz": "i32", "stride_vh": "i32", "stride_vn": "i32",
                  "stride_kv_num_blks_h": "i32", "stride_kv_idx_h": "i32", "stride_kv_idx_m": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 64, "SPARSE_Q_BLOCK_SIZE": SPARSE_BLOCK,
                   "SPARSE_KV_BLOCK_SIZE": SPARSE_BLOCK, "QK_HEAD_DIM": HEAD_DIM, "QK_HEAD_DIM_ROUNDED": HEAD_DIM,
                   "V_HEAD_DIM": HEAD_DIM, "V_HEAD_DIM_ROUNDED": HEAD_DIM, "SAFE_HEAD_DIM": True,
                   "IS_DIVISIBLE": False, "SM_SCALE": HEAD_DIM ** -0.5, "GQA_SHARED_HEADS": 1,
                   "HAS_FULL_BLOCKS": True, "SPARSE_Z": 1, "SPARSE_HQ": 1, "PRESCALE_QK": False,
                   "ROWS_GUARANTEED_SAFE": False, "BLOCKS_ARE_CONTIGUOUS": False, "OUTPUT_LOGSUMEXP": True,
                   "FLOAT32_PRECISION": "ieee", "REL": REL},
    "num_warps": 8, "num_stages": 3,
    "divisibility": ["arg_Q", "arg_K", "arg_V", "arg_LSE", "arg_KV_NUM_BLKS", "arg_KV_IDX", "arg_FULL_KV_NUM_BLKS",
                     "arg_FULL_KV_IDX", "in_ptr8", "out_ptr0", "Q_LEN", "KV_LEN", "stride_qz", "stride_qh",
                     "stride_qm", "stride_kz", "stride_kh", "stride_kn", "stride_vz", "stride_vh", "stride_vn",
                     "stride_kv_num_blks_h", "stride_kv_idx_h", "stride_kv_idx_m"]}
PROBLEM: dict[str, int] = {"Z": 4, "H": 16, "L": 4096}
SMALL: dict[str, int] = {"Z": 1, "H": 2, "L": 300}


@triton.jit
def get_bounded_indices(indices, max_len=None):
    return indices % max_len if max_len is not None else indices


@triton.jit
def load_checked_2d(ptr, offs_m, offs_n, stride_m, stride_n, IS_DIVISIBLE_M: tl.constexpr,
                    IS_DIVISIBLE_N: tl.constexpr, M_LEN, N_DIM: tl.constexpr):
    # Calculate final pointer if strides are provided
    if stride_m is not None and stride_n is not None:
        ptr = ptr + offs_m[:, None] * stride_m + offs_n[None, :] * stride_n

    # Handle all masking cases
    if not IS_DIVISIBLE_M and not IS_DIVISIBLE_N:
        return tl.load(ptr, mask=(offs_m[:, None] < M_LEN) & (offs_n[None, :] < N_DIM), other=0.0)
    elif IS_DIVISIBLE_M and not IS_DIVISIBLE_N:
        return tl.load(ptr, mask=(offs_n[None, :] < N_DIM), other=0.0)
    elif not IS_DIVISIBLE_M and IS_DIVISIBLE_N:
        return tl.load(ptr, mask=(offs_m[:, None] < M_LEN), other=0.0)
    else:  # Both divisible
        return tl.load(ptr)


@triton.jit
def get_offset_for_next_block(loop_iter, col_indices, total_blocks, SPARSE_BLOCK, SPARSE_BLOCK_MULTIPLE, BLOCK,
                              BLOCKS_ARE_CONTIGUOUS: tl.constexpr):
    if BLOCKS_ARE_CONTIGUOUS:
        return BLOCK
    cur_block_idx = loop_iter // SPARSE_BLOCK_MULTIPLE
    cur_block = tl.load(col_indices + cur_block_idx, eviction_policy="evict_last")
    next_block = tl.load(col_indices + cur_block_idx + 1, eviction_policy="evict_last",
                         mask=cur_block_idx + 1 < total_blocks)
    needs_jump = (loop_iter + 1) % SPARSE_BLOCK_MULTIPLE == 0
    jump_to_block = (next_block - cur_block) * SPARSE_BLOCK - (SPARSE_BLOCK_MULTIPLE - 1) * BLOCK
    offset = jump_to_block * needs_jump + (1 - needs_jump) * BLOCK
    return offset


@triton.jit
def forward_block_mn(q, K, V, in_ptr8, Q_LEN, KV_LEN, acc, l_i, m_i, off_z, off_h, offs_m, offs_n, kv_start,
                     kv_offset, MATMUL_PRECISION, RCP_LN2, stride_kk, stride_kn, stride_vn, stride_vk,
                     IS_FULL_BLOCKS, CHECK_BLOCK_BOUNDARY=False, BLOCK_N: tl.constexpr = 64,
                     QK_HEAD_DIM: tl.constexpr = 128, QK_HEAD_DIM_ROUNDED: tl.constexpr = 128,
                     V_HEAD_DIM: tl.constexpr = 128, V_HEAD_DIM_ROUNDED: tl.constexpr = 128,
                     SAFE_HEAD_DIM: tl.constexpr = True, SM_SCALE: tl.constexpr = 1.0,
                     PRESCALE_QK: tl.constexpr = False, ROWS_GUARANTEED_SAFE: tl.constexpr = False,
                     FLOAT32_PRECISION: tl.constexpr = "ieee", REL: tl.constexpr = 256):
    # -- load k --
    kv_base_offset = kv_start + kv_offset
    offs_k = tl.arange(0, QK_HEAD_DIM_ROUNDED)
    offs_v = tl.arange(0, V_HEAD_DIM_ROUNDED)
    offs_n_load = kv_base_offset + tl.arange(0, BLOCK_N)
    k = load_checked_2d(K, offs_k, offs_n_load, stride_kk, stride_kn, SAFE_HEAD_DIM, not CHECK_BLOCK_BOUNDARY,
                        QK_HEAD_DIM, KV_LEN)
    # -- compute qk ---
    qk = tl.dot(q, k, input_precision=FLOAT32_PRECISION)
    if not PRESCALE_QK:
        qk *= SM_SCALE
    # ~~~~~~~~~~~~~~~~~~~ Apply score modification  ~~~~~~~~~~~~~~~~~~~
    # If this is the last block of a non divisible seqlen, we still need to load [BLOCK_M, BLOCK_N] elements,
    # which is larger than the actual number of elements. To avoid access memory out of bound,
    # we need to mask out the elements that are out of Q_LEN & KV_LEN.
    m = get_bounded_indices(offs_m, Q_LEN if CHECK_BLOCK_BOUNDARY else None)
    n = get_bounded_indices(offs_n, KV_LEN if CHECK_BLOCK_BOUNDARY else None)

    tmp0 = (qk)
    tmp1 = m - n
    tmp2 = tl.full([1], -REL, tl.int32)
    tmp3 = triton_helpers_maximum(tmp1, tmp2)
    tmp4 = tl.full([1], REL, tl.int32)
    tmp5 = triton_helpers_minimum(tmp3, tmp4)
    tmp6 = tmp5 + REL
    tmp7 = tl.load(in_ptr8 + (tmp6 + (2 * REL + 1) * off_h), eviction_policy="evict_last")
    tmp8 = tmp0 + tmp7
    post_mod_scores = tmp8

    if CHECK_BLOCK_BOUNDARY:
        # Mask out the elements that are out of the KV_LEN for non divisible seqlen.
        post_mod_scores = tl.where(offs_n < KV_LEN, post_mod_scores, float("-inf"))

    if not IS_FULL_BLOCKS:
        tmp9 = (m)
        tmp10 = (n)
        tmp11 = tmp9 >= tmp10
        mask_mod_output = tmp11

        if CHECK_BLOCK_BOUNDARY:
            mask_mod_output = tl.where(offs_n < KV_LEN, mask_mod_output, False)
        # apply mask for partially unmasked blocks
        post_mod_scores = tl.where(mask_mod_output, post_mod_scores, float("-inf"))

    if not PRESCALE_QK:
        post_mod_scores *= RCP_LN2
    # ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

    # -- compute scaling constant ---
    m_ij = tl.maximum(m_i, tl.max(post_mod_scores, 1))
    if not ROWS_GUARANTEED_SAFE:
        masked_out_rows = (m_ij == float("-inf"))
        m_ij_masked = tl.where(masked_out_rows, 0, m_ij)
    else:
        m_ij_masked = m_ij

    alpha = tl.math.exp2(m_i - m_ij_masked)
    p = tl.math.exp2(post_mod_scores - m_ij_masked[:, None])

    # NB: l_i update is pulled up here since it's a bit faster
    # NB: For headdim=512 the sum is the slowest part of the block
    l_i = l_i * alpha + tl.sum(p, 1)
    # # -- scale and update acc --
    acc = acc * alpha[:, None]
    v = load_checked_2d(V, offs_n_load, offs_v, stride_vn, stride_vk, not CHECK_BLOCK_BOUNDARY, SAFE_HEAD_DIM,
                        KV_LEN, V_HEAD_DIM)
    acc = tl.dot(p.to(MATMUL_PRECISION), v, acc, input_precision=FLOAT32_PRECISION)

    # -- update m_i
    m_i = m_ij

    return acc, l_i, m_i


@triton.jit
def triton_helpers_maximum(a, b):
    return tl.maximum(a, b)


@triton.jit
def triton_helpers_minimum(a, b):
    return tl.minimum(a, b)


@triton.jit
def forward_inner(q, K, V, in_ptr8, Q_LEN, KV_LEN,
                  # accumulated values
                  acc, l_i, m_i,
                  # Offsets used as inputs to score_mod & mask_mod
                  # of size [BLOCK_M, BLOCK_N] or scalar.
                  off_z, off_h, offs_m, offs_n,
                  # Offsets needed for TMA loads
                  kv_start,
                  # blocksparse data
                  kv_indices, kv_num_blocks,
                  # start kv and end kv block
                  block_n_start, block_n_end, MATMUL_PRECISION,
                  # Strides for K and V
                  stride_kk, stride_kn, stride_vn, stride_vk, IS_FULL_BLOCKS,
                  BLOCK_N: tl.constexpr, SPARSE_KV_BLOCK_SIZE: tl.constexpr, QK_HEAD_DIM: tl.constexpr,
                  QK_HEAD_DIM_ROUNDED: tl.constexpr, V_HEAD_DIM: tl.constexpr, V_HEAD_DIM_ROUNDED: tl.constexpr,
                  SAFE_HEAD_DIM: tl.constexpr, SM_SCALE: tl.constexpr, PRESCALE_QK: tl.constexpr,
                  ROWS_GUARANTEED_SAFE: tl.constexpr, BLOCKS_ARE_CONTIGUOUS: tl.constexpr,
                  IS_DIVISIBLE: tl.constexpr, FLOAT32_PRECISION: tl.constexpr, REL: tl.constexpr):
    # Redefines all kernel parameters (BLOCK_M, etc.) so we don't need to plumb them all through
    SPARSE_KV_MULTIPLE: tl.constexpr = (SPARSE_KV_BLOCK_SIZE // BLOCK_N)
    RCP_LN2: tl.constexpr = 1.44269504

    if PRESCALE_QK:
        q = (q * SM_SCALE * RCP_LN2).to(MATMUL_PRECISION)

    kv_offset = 0

    # loop over k, v and update accumulator until block_n_end
    for start_n in range(block_n_start, block_n_end):
        # Here IS_DIVISIBLE acts are the start_n = tl.multiple_of(start_n, BLOCK_N) from triton_fused_attention.
        if IS_DIVISIBLE:
            acc, l_i, m_i = forward_block_mn(
                q, K, V, in_ptr8, Q_LEN, KV_LEN,
                # accumulated values
                acc, l_i, m_i,
                # Offsets
                off_z, off_h, offs_m, offs_n,
                # Offsets needed for TMA loads
                kv_start, kv_offset,
                MATMUL_PRECISION, RCP_LN2,
                # Strides for K and V
                stride_kk, stride_kn, stride_vn, stride_vk,
                IS_FULL_BLOCKS, False, BLOCK_N, QK_HEAD_DIM, QK_HEAD_DIM_ROUNDED, V_HEAD_DIM, V_HEAD_DIM_ROUNDED,
                SAFE_HEAD_DIM, SM_SCALE, PRESCALE_QK, ROWS_GUARANTEED_SAFE, FLOAT32_PRECISION, REL,
            )
        else:
            # Benchmark shows even we applied mod & mask to each block for non divisible seqlen,
            # it's on par or slightly faster than only applying to the last block in fwd.
            # However, we choose different strategy for bwd, where we only apply mod & mask
            # to the last block because it's faster a lot.
            acc, l_i, m_i = forward_block_mn(
                q, K, V, in_ptr8, Q_LEN, KV_LEN,
                # accumulated values
                acc, l_i, m_i,
                # Offsets
                off_z, off_h, offs_m, offs_n,
                # Offsets needed for TMA loads
                kv_start, kv_offset,
                MATMUL_PRECISION, RCP_LN2,
                # Strides for K and V
                stride_kk, stride_kn, stride_vn, stride_vk,
                IS_FULL_BLOCKS, True, BLOCK_N, QK_HEAD_DIM, QK_HEAD_DIM_ROUNDED, V_HEAD_DIM, V_HEAD_DIM_ROUNDED,
                SAFE_HEAD_DIM, SM_SCALE, PRESCALE_QK, ROWS_GUARANTEED_SAFE, FLOAT32_PRECISION, REL,
            )

        offset = get_offset_for_next_block(
            start_n, kv_indices, kv_num_blocks,
            SPARSE_KV_BLOCK_SIZE, SPARSE_KV_MULTIPLE, BLOCK_N, BLOCKS_ARE_CONTIGUOUS
        )

        offs_n = offs_n + offset
        kv_offset += offset

    return acc, l_i, m_i


@triton.jit
def triton_flex_attention(arg_Q, arg_K, arg_V, arg_LSE, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS,
                          arg_FULL_KV_IDX, in_ptr8, out_ptr0, HQ, Q_LEN, KV_LEN,
                          stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn,
                          stride_vz, stride_vh, stride_vn, stride_kv_num_blks_h, stride_kv_idx_h, stride_kv_idx_m,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, SPARSE_Q_BLOCK_SIZE: tl.constexpr,
                          SPARSE_KV_BLOCK_SIZE: tl.constexpr, QK_HEAD_DIM: tl.constexpr,
                          QK_HEAD_DIM_ROUNDED: tl.constexpr, V_HEAD_DIM: tl.constexpr,
                          V_HEAD_DIM_ROUNDED: tl.constexpr, SAFE_HEAD_DIM: tl.constexpr, IS_DIVISIBLE: tl.constexpr,
                          SM_SCALE: tl.constexpr, GQA_SHARED_HEADS: tl.constexpr, HAS_FULL_BLOCKS: tl.constexpr,
                          SPARSE_Z: tl.constexpr, SPARSE_HQ: tl.constexpr, PRESCALE_QK: tl.constexpr,
                          ROWS_GUARANTEED_SAFE: tl.constexpr, BLOCKS_ARE_CONTIGUOUS: tl.constexpr,
                          OUTPUT_LOGSUMEXP: tl.constexpr, FLOAT32_PRECISION: tl.constexpr, REL: tl.constexpr):
    Q = arg_Q
    K = arg_K
    V = arg_V
    LSE = arg_LSE
    KV_NUM_BLKS = arg_KV_NUM_BLKS
    KV_IDX = arg_KV_IDX
    FULL_KV_NUM_BLKS = arg_FULL_KV_NUM_BLKS
    FULL_KV_IDX = arg_FULL_KV_IDX

    # Sub notation for this kernel:
    #
    # Q: Query, K: Key, V: Value
    # M: Number of queries, N: Number of keys/values, D: Model dimension
    # QK_HEAD_DIM: The dimension of the query and key embeddings
    # V_HEAD_DIM: The dimension of the value embeddings
    # z: Batch size, h: Number of heads, m: Number of queries per head, k: Number of keys per head
    # GQA_SHARED_HEADS: number of query heads sharing one kv head in GQA setups.
    #
    # The following FULL_* and PARTIAL_* is defined in the block sparse mask grid, rather than the thread block grid.
    # KV_NUM_BLKS: The number of KV blocks (that may or may not require masking) for each query.
    # KV_IDX: The indices of KV blocks (that may or may not require masking) for each query.
    # FULL_KV_NUM_BLKS: The number of fully unmasked KV blocks (so we don't need masking) for each query.
    # FULL_KV_IDX: The indices of fully unmasked KV blocks (so we don't need masking) for each query.
    #
    # OUTPUT_LOGSUMEXP: We only need to store the logsumexp if we require grad
    #
    # (Modifiable) Performance tuning options
    # BLOCK_M: The thread block size across the seqlen dim of Q.
    # BLOCK_N: Iterate over BLOCK_N across the seqlen dim of K/V in each thread block.

    # The below are kernel options that can be applied for certain score_mods,
    # or involve a numerics vs. perf tradeoff
    # PRESCALE_QK: Whether to pre-scale QK by 1/sqrt(d) and change of base. Has
    # about 20% more numerical error, but slightly faster.
    # ROWS_GUARANTEED_SAFE: Is it guaranteed that at least one value in each row
    # is not masked out? If so, we can skip an extra safety check
    # BLOCKS_ARE_CONTIGUOUS: Is it guaranteed that all blocks in the mask are
    # contiguous? If so, we don't need to do an indirect jump for every block

    tl.static_assert(SPARSE_Q_BLOCK_SIZE >= BLOCK_M and SPARSE_Q_BLOCK_SIZE % BLOCK_M == 0)
    tl.static_assert(SPARSE_KV_BLOCK_SIZE >= BLOCK_N and SPARSE_KV_BLOCK_SIZE % BLOCK_N == 0)

    # Define strides of inputs
    stride_qk = 1
    stride_kk = 1
    stride_vk = 1

    MATMUL_PRECISION = Q.dtype.element_ty

    q_start = tl.program_id(0).to(tl.int64)
    off_zq = tl.program_id(1).to(tl.int64) // HQ
    off_hq = tl.program_id(1).to(tl.int64) % HQ

    # We support two cases for batch dimension. a) (ZKV == ZQ) where off_zkv = off_zq.
    # b) (ZKV == 1 and ZQ > 1) where KV is broadcasted along the batch dimension and off_zkv=0.
    off_zkv = off_zq
    off_hkv = off_hq // GQA_SHARED_HEADS
    off_g = off_hq % GQA_SHARED_HEADS

    q_offset = off_zq * stride_qz + off_hq * stride_qh
    k_offset = off_zkv * stride_kz + off_hkv * stride_kh
    v_offset = off_zkv * stride_vz + off_hkv * stride_vh

    Q = Q + q_offset
    K = K + k_offset
    V = V + v_offset

    sparse_idx_z = off_zq % SPARSE_Z
    sparse_idx_hq = off_hq % SPARSE_HQ

    SPARSE_Q_MULTIPLE: tl.constexpr = (SPARSE_Q_BLOCK_SIZE // BLOCK_M)
    SPARSE_KV_MULTIPLE: tl.constexpr = (SPARSE_KV_BLOCK_SIZE // BLOCK_N)

    # initialize pointer to m and l
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, V_HEAD_DIM_ROUNDED], dtype=tl.float32)

    offs_m = q_start * BLOCK_M + tl.arange(0, BLOCK_M)

    # KV_IDX and KV_NUM_BLKS are always contiguous.
    sparse_hz_offset = sparse_idx_z * SPARSE_HQ + sparse_idx_hq
    sparse_kv_num_blks_offset = sparse_hz_offset * stride_kv_num_blks_h + q_start // SPARSE_Q_MULTIPLE
    sparse_kv_idx_offset = sparse_hz_offset * stride_kv_idx_h + (q_start // SPARSE_Q_MULTIPLE) * stride_kv_idx_m

    offs_k = tl.arange(0, QK_HEAD_DIM_ROUNDED)
    q = load_checked_2d(Q, offs_m, offs_k, stride_qm, stride_qk, IS_DIVISIBLE, SAFE_HEAD_DIM, Q_LEN, QK_HEAD_DIM)

    # ~~~~~~~~~~~~~~ normal blocks ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # We don't know anything "special" about these blocks, so we need to apply
    # both score_mod and mask_mod to it
    kv_indices = KV_IDX + sparse_kv_idx_offset
    kv_start = tl.load(kv_indices) * SPARSE_KV_BLOCK_SIZE  # first kv block we're loading
    kv_num_blocks = tl.load(KV_NUM_BLKS + sparse_kv_num_blks_offset)
    block_n_end = tl.minimum(kv_num_blocks * SPARSE_KV_MULTIPLE, tl.maximum(tl.cdiv(KV_LEN, BLOCK_N), 1))

    offs_n = kv_start + tl.arange(0, BLOCK_N)

    acc, l_i, m_i = forward_inner(
        q, K, V, in_ptr8, Q_LEN, KV_LEN,
        acc, l_i, m_i,
        off_zq, off_hq, offs_m[:, None], offs_n[None, :],
        kv_start,
        kv_indices, kv_num_blocks,
        0, block_n_end,
        MATMUL_PRECISION,
        stride_kk, stride_kn, stride_vn, stride_vk,
        False, BLOCK_N, SPARSE_KV_BLOCK_SIZE, QK_HEAD_DIM, QK_HEAD_DIM_ROUNDED, V_HEAD_DIM, V_HEAD_DIM_ROUNDED,
        SAFE_HEAD_DIM, SM_SCALE, PRESCALE_QK, ROWS_GUARANTEED_SAFE, BLOCKS_ARE_CONTIGUOUS, IS_DIVISIBLE,
        FLOAT32_PRECISION, REL,
    )

    # ~~~~~~~~~~~~~~ "full" blocks ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    # We know these blocks are guaranteed to be "full", so we don't need to
    # apply mask_mod to them - only score_mod
    if HAS_FULL_BLOCKS:
        # FULL_KV_IDX and FULL_KV_NUM_BLKS are always contiguous.
        kv_indices = FULL_KV_IDX + sparse_kv_idx_offset
        kv_start = tl.load(kv_indices) * SPARSE_KV_BLOCK_SIZE  # first kv block we're loading
        kv_num_blocks = tl.load(FULL_KV_NUM_BLKS + sparse_kv_num_blks_offset)
        block_n_end = tl.minimum(kv_num_blocks * SPARSE_KV_MULTIPLE, tl.maximum(tl.cdiv(KV_LEN, BLOCK_N), 1))
        offs_n = kv_start + tl.arange(0, BLOCK_N)

        acc, l_i, m_i = forward_inner(
            q, K, V, in_ptr8, Q_LEN, KV_LEN,
            acc, l_i, m_i,
            off_zq, off_hq, offs_m[:, None], offs_n[None, :],
            kv_start,
            kv_indices, kv_num_blocks,
            0, block_n_end,
            MATMUL_PRECISION,
            stride_kk, stride_kn, stride_vn, stride_vk,
            True, BLOCK_N, SPARSE_KV_BLOCK_SIZE, QK_HEAD_DIM, QK_HEAD_DIM_ROUNDED, V_HEAD_DIM, V_HEAD_DIM_ROUNDED,
            SAFE_HEAD_DIM, SM_SCALE, PRESCALE_QK, ROWS_GUARANTEED_SAFE, BLOCKS_ARE_CONTIGUOUS, IS_DIVISIBLE,
            FLOAT32_PRECISION, REL,
        )

    # [Note] Handle fully masked out rows:
    # Li will be the sum(e^(-inf)) == 0.0 for masked out rows, mi will be -inf.
    # We set Li to 1.0 which will result in lse/out = 0.0 | after the log(li) + mi(0.0) step
    l_i = tl.where(l_i == 0.0, 1, l_i)

    acc = acc / l_i[:, None]
    idx_zq = tl.program_id(1).to(tl.int64) // HQ
    idx_hq = tl.program_id(1).to(tl.int64) % HQ
    idx_m = offs_m[:, None]
    idx_d = tl.arange(0, V_HEAD_DIM_ROUNDED)[None, :]

    mask = (idx_m < Q_LEN) & (idx_d < V_HEAD_DIM)

    xindex = idx_d + V_HEAD_DIM * idx_hq + V_HEAD_DIM * HQ * idx_m + V_HEAD_DIM * HQ * Q_LEN * idx_zq
    tl.store(out_ptr0 + (tl.broadcast_to(xindex, acc.shape)), acc, mask)

    if OUTPUT_LOGSUMEXP:
        off_hz = tl.program_id(1).to(tl.int64)
        l_ptrs = LSE + off_hz * Q_LEN + offs_m
        lse = m_i + tl.math.log2(l_i)
        if IS_DIVISIBLE:
            tl.store(l_ptrs, lse)
        else:
            tl.store(l_ptrs, lse, mask=offs_m < Q_LEN)


def make_inputs(Z: int, H: int, L: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v as [Z, H, L, D] (the usual transpose of [Z, L, H, D]); a causal BlockMask in create_block_mask's
    layout (one [1, 1] sparse batch/head, partial = the diagonal block, full = the blocks left of it)."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    q = torch.randn((Z, L, H, HEAD_DIM), device=device, generator=g).half().transpose(1, 2)
    k = torch.randn((Z, L, H, HEAD_DIM), device=device, generator=g).half().transpose(1, 2)
    v = torch.randn((Z, L, H, HEAD_DIM), device=device, generator=g).half().transpose(1, 2)
    rel_bias = torch.randn((H, 2 * REL + 1), device=device, generator=g) * 0.5
    nb = triton.cdiv(L, SPARSE_BLOCK)
    rows = torch.arange(nb, device=device)
    cols = torch.arange(nb, device=device)
    partial = (cols[None, :] == rows[:, None])
    full = (cols[None, :] < rows[:, None])

    def to_idx(dense):
        num = dense.sum(-1).to(torch.int32)
        idx = torch.argsort(dense.to(torch.int32), dim=-1, descending=True, stable=True).to(torch.int32)
        return num.view(1, 1, nb).contiguous(), idx.view(1, 1, nb, nb).contiguous()

    kv_num_blocks, kv_indices = to_idx(partial)
    full_kv_num_blocks, full_kv_indices = to_idx(full)
    return {"q": q, "k": k, "v": v, "rel_bias": rel_bias, "kv_num_blocks": kv_num_blocks, "kv_indices": kv_indices,
            "full_kv_num_blocks": full_kv_num_blocks, "full_kv_indices": full_kv_indices}


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """flex_attention(q, k, v, score_mod=rel_bias, block_mask=causal, return_lse=True): (out fp16 [Z, H, L, D] with
    the [Z, L, H, D] memory layout, lse fp32 [Z, H, L] in base 2)."""
    import torch
    q, k, v = inputs["q"], inputs["k"], inputs["v"]
    Z, HQ, Q_LEN, D = q.shape
    KV_LEN = k.shape[2]
    out = torch.empty((Z, Q_LEN, HQ, D), device=q.device, dtype=q.dtype).transpose(1, 2)
    lse = torch.empty((Z, HQ, Q_LEN), device=q.device, dtype=torch.float32)
    kvn, kvi = inputs["kv_num_blocks"], inputs["kv_indices"]
    BLOCK_M, BLOCK_N = 128, 64
    grid = (triton.cdiv(Q_LEN, BLOCK_M), Z * HQ, 1)
    triton_flex_attention[grid](
        q, k, v, lse, kvn, kvi, inputs["full_kv_num_blocks"], inputs["full_kv_indices"], inputs["rel_bias"], out,
        HQ, Q_LEN, KV_LEN, q.stride(0), q.stride(1), q.stride(2), k.stride(0), k.stride(1), k.stride(2),
        v.stride(0), v.stride(1), v.stride(2), kvn.stride(1), kvi.stride(1), kvi.stride(2),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, SPARSE_Q_BLOCK_SIZE=SPARSE_BLOCK, SPARSE_KV_BLOCK_SIZE=SPARSE_BLOCK,
        QK_HEAD_DIM=D, QK_HEAD_DIM_ROUNDED=D, V_HEAD_DIM=D, V_HEAD_DIM_ROUNDED=D, SAFE_HEAD_DIM=True,
        IS_DIVISIBLE=False, SM_SCALE=D ** -0.5, GQA_SHARED_HEADS=1, HAS_FULL_BLOCKS=True, SPARSE_Z=1, SPARSE_HQ=1,
        PRESCALE_QK=False, ROWS_GUARANTEED_SAFE=False, BLOCKS_ARE_CONTIGUOUS=False, OUTPUT_LOGSUMEXP=True,
        FLOAT32_PRECISION="ieee", REL=REL,
        num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return out, lse


def reference(inputs: dict[str, Any]) -> Any:
    import math
    import torch
    q, k, v = inputs["q"].float(), inputs["k"].float(), inputs["v"].float()
    L = q.shape[2]
    pos = torch.arange(L, device=q.device)
    rel = (pos[:, None] - pos[None, :]).clamp(-REL, REL) + REL                       # [L, L]
    bias = inputs["rel_bias"][:, rel]                                                 # [H, L, L]
    s = q @ k.transpose(-1, -2) * HEAD_DIM ** -0.5 + bias[None]
    s = s.masked_fill(pos[None, :] > pos[:, None], float("-inf"))
    lse = torch.logsumexp(s, -1) / math.log(2.0)
    return torch.softmax(s, -1) @ v, lse


def flops(Z: int, H: int, L: int) -> float:
    return 2.0 * Z * H * L * L * HEAD_DIM
