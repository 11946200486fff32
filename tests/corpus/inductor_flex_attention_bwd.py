"""FlexAttention's backward as torch.compile (Inductor) renders its template (``flex_attention_backward`` in
torch/_inductor/kernel/flex_attention.py, PyTorch 2.5 - 2.7, whose loops advance the K / V and Q / dO pointers by each
step's offset; flex/templates/flex_backwards.py.jinja today) as ``triton_tem_fused_zeros_1`` for a causal
``mask_mod`` and no ``score_mod``, MHA: ONE kernel
whose programs split on ``if pid >= NUM_KV_BLOCKS``: the first NUM_KV_BLOCKS programs compute dK / dV for a key
block (``else`` branch), the rest dQ for a query block. The constructs kept: every helper taking all the kernel's
arguments first (``gen_argdefs``) and redefining the kernel's constants as ``tl.constexpr`` locals (``gen_defines``);
the dK / dV branch's ``for off_g in range(0, GQA_SHARED_HEADS)`` (1 here: the loop of one trip folds away) around
two calls of ``bwd_dkdv_inner`` (the query blocks the mask cuts, ``IS_FULL_BLOCKS=False``, then the ones it keeps
whole), whose loop over query blocks has a loaded trip count (``tl.minimum(sparse_q_num_blocks * SPARSE_Q_MULTIPLE,
...)``), four dots on transposed operands (``qkT = k @ qT``, ``dv += pT @ do``, ``dpT = v @ do^T``, ``dk += dsT @
qT^T``) with ``qT`` loaded transposed by pointers (``offs_m1[None, :] * stride_qm + offs_k[:, None]``), LSE loaded
before the first dot and ``tl.where(lse == -inf, 0, lse)``, ``exp2`` of scores scaled by ``RCP_LN2``, and the query
offset carried and advanced by what ``get_offset_for_next_block`` loads from the sparse index (``q_indices``);
the dQ branch's two calls of ``bwd_dq_inner`` over key blocks (three dots, ``kT`` / ``vT`` loaded transposed, the
loop in a helper called twice); the int64 batch / head offsets (``(stride_kh * off_hkv + stride_kz *
off_zkv).to(tl.int64)``); the sparse metadata's strides from the symbolic length ``ks0``; dK stored through
``store_output``'s flattened ``xindex`` with ``tl.broadcast_to``; dQ and dV stored in fp16 from fp32 tiles by
``tl.store``'s implicit cast. Inductor's default H100 config for D = 128 fp16: BLOCK_M1 = 64, BLOCK_N1 = 128,
BLOCK_M2 = 128, BLOCK_N2 = 64, 8 warps, 3 stages; sparse blocks of 128. The grid is (NUM_KV_BLOCKS + NUM_Q_BLOCKS,
B, H). Nothing here is imported by twill."""
from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

TWILL_SPEC: dict[str, Any] = {
    "kernel": "triton_tem_fused_zeros_1",
    "signature": {"arg_Q": "*fp16", "arg_K": "*fp16", "arg_V": "*fp16", "arg_LSE": "*fp32", "arg_DELTA": "*fp32",
                  "arg_DO": "*fp16", "arg_DQ": "*fp16", "arg_DV": "*fp16", "arg_KV_NUM_BLKS": "*i32",
                  "arg_KV_IDX": "*i32", "arg_Q_NUM_BLKS": "*i32", "arg_Q_IDX": "*i32", "arg_FULL_KV_NUM_BLKS": "*i32",
                  "arg_FULL_KV_IDX": "*i32", "arg_FULL_Q_NUM_BLKS": "*i32", "arg_FULL_Q_IDX": "*i32",
                  "out_ptr0": "*fp16", "ks0": "i32"},
    "constexprs": {}, "num_warps": 8, "num_stages": 3, "divisibility": ["ks0"]}
PROBLEM: dict[str, int] = {"B": 4, "H": 16, "N": 4096}
SMALL: dict[str, int] = {"B": 1, "H": 2, "N": 384}     # three sparse blocks: partial, full and skipped ones


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
def get_bounded_indices(indices, max_len=None):
    return indices % max_len if max_len is not None else indices


@triton.jit
def load_checked_2d(ptr, offs_m, offs_n, stride_m, stride_n, IS_DIVISIBLE_M: tl.constexpr,
                    IS_DIVISIBLE_N: tl.constexpr, M_LEN: tl.constexpr, N_LEN: tl.constexpr):
    if stride_m is not None and stride_n is not None:
        ptr = ptr + offs_m[:, None] * stride_m + offs_n[None, :] * stride_n
    if not IS_DIVISIBLE_M and not IS_DIVISIBLE_N:
        return tl.load(ptr, mask=(offs_m[:, None] < M_LEN) & (offs_n[None, :] < N_LEN), other=0.0)
    elif IS_DIVISIBLE_M and not IS_DIVISIBLE_N:
        return tl.load(ptr, mask=(offs_n[None, :] < N_LEN), other=0.0)
    elif not IS_DIVISIBLE_M and IS_DIVISIBLE_N:
        return tl.load(ptr, mask=(offs_m[:, None] < M_LEN), other=0.0)
    else:
        return tl.load(ptr)


@triton.jit
def triton_tem_fused_zeros_1(arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS,
                             arg_KV_IDX, arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX,
                             arg_FULL_Q_NUM_BLKS, arg_FULL_Q_IDX, out_ptr0, ks0):
    PRESCALE_QK : tl.constexpr = False
    ROWS_GUARANTEED_SAFE : tl.constexpr = False
    BLOCKS_ARE_CONTIGUOUS : tl.constexpr = False
    WRITE_DQ : tl.constexpr = True
    OUTPUT_LOGSUMEXP : tl.constexpr = True
    FLOAT32_PRECISION : tl.constexpr = 'tf32'
    IS_DIVISIBLE : tl.constexpr = True
    SM_SCALE : tl.constexpr = 0.08838834764831845
    GQA_SHARED_HEADS : tl.constexpr = 1
    HAS_FULL_BLOCKS : tl.constexpr = True
    QK_HEAD_DIM : tl.constexpr = 128
    QK_HEAD_DIM_ROUNDED : tl.constexpr = 128
    V_HEAD_DIM : tl.constexpr = 128
    V_HEAD_DIM_ROUNDED : tl.constexpr = 128
    SAFE_HEAD_DIM : tl.constexpr = True
    BLOCK_M1 : tl.constexpr = 64
    BLOCK_N1 : tl.constexpr = 128
    BLOCK_M2 : tl.constexpr = 128
    BLOCK_N2 : tl.constexpr = 64
    SPARSE_Q_BLOCK_SIZE : tl.constexpr = 128
    SPARSE_KV_BLOCK_SIZE : tl.constexpr = 128
    INDEX_DTYPE : tl.constexpr = tl.int32
    Q = arg_Q
    K = arg_K
    V = arg_V
    LSE = arg_LSE
    DELTA = arg_DELTA
    DO = arg_DO
    DQ = arg_DQ
    DV = arg_DV
    KV_NUM_BLKS = arg_KV_NUM_BLKS
    KV_IDX = arg_KV_IDX
    Q_NUM_BLKS = arg_Q_NUM_BLKS
    Q_IDX = arg_Q_IDX
    FULL_KV_NUM_BLKS = arg_FULL_KV_NUM_BLKS
    FULL_KV_IDX = arg_FULL_KV_IDX
    FULL_Q_NUM_BLKS = arg_FULL_Q_NUM_BLKS
    FULL_Q_IDX = arg_FULL_Q_IDX

    # Define strides of inputs
    stride_qz, stride_qh, stride_qm, stride_qd = 2048*ks0, 128*ks0, 128, 1
    stride_kz, stride_kh, stride_kn, stride_kd = 2048*ks0, 128*ks0, 128, 1
    stride_vz, stride_vh, stride_vn, stride_vd = 2048*ks0, 128*ks0, 128, 1
    stride_doz, stride_doh, stride_dom, stride_dod = 2048*ks0, 128*ks0, 128, 1

    stride_dqz, stride_dqh, stride_dqm, stride_dqd = 2048*ks0, 128*ks0, 128, 1
    stride_dvz, stride_dvh, stride_dvm, stride_dvd = 2048*ks0, 128*ks0, 128, 1

    ZQ = 4
    HQ = 16
    HKV = 16
    Q_LEN = ks0
    ZKV = 4
    KV_LEN = ks0

    MATMUL_PRECISION = Q.dtype.element_ty

    pid = tl.program_id(0).to(INDEX_DTYPE)
    NUM_KV_BLOCKS = tl.cdiv(KV_LEN, BLOCK_N1)
    NUM_Q_BLOCKS = tl.cdiv(Q_LEN, BLOCK_M2)

    off_zq = tl.program_id(1).to(INDEX_DTYPE) # q batch idx
    off_hkv = tl.program_id(2).to(INDEX_DTYPE) # kv head idx
    off_zkv = off_zq % ZKV # kv batch idx

    SPARSE_Z = 1
    SPARSE_HQ = 1

    sparse_idx_z = off_zq % SPARSE_Z

    k_adj = (stride_kh * off_hkv + stride_kz * off_zkv).to(tl.int64)
    v_adj = (stride_vh * off_hkv + stride_vz * off_zkv).to(tl.int64)
    # first compute broadcasted dv of shape [Bq, Hkv, KV_LEN, V_HEAD_DIM]
    # then reduce to dv of shape [Bkv, Hkv, KV_LEN, V_HEAD_DIM]
    dv_adj = (stride_dvh * off_hkv + stride_dvz * off_zq).to(tl.int64)

    # offset K, V, DV pointers for batch/kv-head
    K += k_adj
    V += v_adj
    DV += dv_adj

    RCP_LN2 = 1.44269504
    offs_k = tl.arange(0, QK_HEAD_DIM_ROUNDED)
    offs_v = tl.arange(0, V_HEAD_DIM_ROUNDED)

    if pid >= NUM_KV_BLOCKS:
        off_pid = pid - NUM_KV_BLOCKS
        # THIS BLOCK DOES DQ
        SPARSE_Q_MULTIPLE = (SPARSE_Q_BLOCK_SIZE // BLOCK_M2)
        SPARSE_KV_MULTIPLE = (SPARSE_KV_BLOCK_SIZE // BLOCK_N2)
        off_hq2 = off_pid // NUM_Q_BLOCKS + off_hkv * GQA_SHARED_HEADS
        start_m2_block = off_pid % NUM_Q_BLOCKS
        off_pid_mask = start_m2_block // SPARSE_Q_MULTIPLE
        stride_kv_num_blks_h = (ks0 + 127) // 128
        stride_kv_idx_h = ((ks0 + 127) // 128) * ((ks0 + 127) // 128)
        stride_kv_idx_m = (ks0 + 127) // 128
        stride_full_kv_num_blks_h = (ks0 + 127) // 128
        stride_full_kv_idx_h = ((ks0 + 127) // 128) * ((ks0 + 127) // 128)
        stride_full_kv_idx_m = (ks0 + 127) // 128

        sparse_idx_hq2 = off_hq2 % SPARSE_HQ
        sparse_hz_offset = sparse_idx_z * SPARSE_HQ + sparse_idx_hq2

        sparse_kv_num_blks_offset = sparse_hz_offset * stride_kv_num_blks_h + off_pid_mask
        sparse_kv_idx_offset = sparse_hz_offset * stride_kv_idx_h + off_pid_mask * stride_kv_idx_m  # noqa: B950
        sparse_full_kv_num_blks_offset = sparse_hz_offset * stride_full_kv_num_blks_h + off_pid_mask
        sparse_full_kv_idx_offset = sparse_hz_offset * stride_full_kv_idx_h + off_pid_mask * stride_full_kv_idx_m  # noqa: B950

        # Offset Q, DQ, DO, DELTA & LSE. These inputs are offsetted by query heads.
        q_adj2 = (stride_qh * off_hq2 + stride_qz * off_zq).to(tl.int64)
        do_adj2 = (stride_doh * off_hq2 + stride_doz * off_zq).to(tl.int64)
        dq_adj2 = (stride_dqh * off_hq2 + stride_dqz * off_zq).to(tl.int64)
        off_chz2 = ((off_zq * HQ + off_hq2) * Q_LEN).to(tl.int64)

        Q2 = Q + q_adj2
        DO2 = DO + do_adj2
        # TODO: This does not work if DQ is not the same layout as Q (for example,
        # if Q is broadcasted)
        DQ2 = DQ + dq_adj2
        LSE2 = LSE + off_chz2
        DELTA2 = DELTA + off_chz2

        dq = tl.zeros([BLOCK_M2, QK_HEAD_DIM_ROUNDED], dtype=tl.float32)

        start_m2 = start_m2_block * BLOCK_M2
        offs_m2 = start_m2 + tl.arange(0, BLOCK_M2)

        # load Q and do: they stay in SRAM throughout the inner loop.
        q = load_checked_2d(Q2, offs_m2, offs_k, stride_qm, stride_qd, IS_DIVISIBLE, SAFE_HEAD_DIM, Q_LEN, QK_HEAD_DIM)
        do = load_checked_2d(DO2, offs_m2, offs_v, stride_dom, stride_dod, IS_DIVISIBLE, SAFE_HEAD_DIM, Q_LEN, V_HEAD_DIM)

        if PRESCALE_QK:
            q = (q * SM_SCALE * RCP_LN2).to(MATMUL_PRECISION)

        if IS_DIVISIBLE:
            Di = tl.load(DELTA2 + offs_m2)
            lse = tl.load(LSE2 + offs_m2)
        else:
            Di = tl.load(DELTA2 + offs_m2, mask=offs_m2 < Q_LEN)
            lse = tl.load(LSE2 + offs_m2, mask=offs_m2 < Q_LEN)
        lse = tl.where(lse == -float("inf"), 0.0, lse)
        lse = lse[:, None]

        # ~~~~~~~~~~~ fully unmasked blocks ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
        # KV_IDX and KV_NUM_BLKS are always contiguous.
        kv_indices = KV_IDX + sparse_kv_idx_offset
        kv_start = tl.load(kv_indices) * SPARSE_KV_BLOCK_SIZE # first kv block we're loading
        sparse_kv_num_blocks = tl.load(KV_NUM_BLKS + sparse_kv_num_blks_offset)

        offs_n2 = kv_start + tl.arange(0, BLOCK_N2)
        dq = bwd_dq_inner(
            arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS, arg_KV_IDX,
            arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, arg_FULL_Q_NUM_BLKS, arg_FULL_Q_IDX,
            out_ptr0, ks0,
            K, V,
            dq, q, do, Di, lse,
            off_zq, off_hq2, offs_m2, offs_n2,
            stride_kn, stride_kd, stride_vn, stride_vd,
            kv_indices, sparse_kv_num_blocks,
            MATMUL_PRECISION,
            IS_FULL_BLOCKS=False,
        )

        if HAS_FULL_BLOCKS:
            # ~~~~~~~~~~~ partial unmasked blocks ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
            # FULL_KV_IDX and FULL_KV_NUM_BLKS are always contiguous.
            kv_indices = FULL_KV_IDX + sparse_full_kv_idx_offset
            kv_start = tl.load(kv_indices) * SPARSE_KV_BLOCK_SIZE # first kv block we're loading
            sparse_kv_num_blocks = tl.load(FULL_KV_NUM_BLKS + sparse_full_kv_num_blks_offset)

            offs_n2 = kv_start + tl.arange(0, BLOCK_N2)
            dq = bwd_dq_inner(
                arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS, arg_KV_IDX,
                arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, arg_FULL_Q_NUM_BLKS, arg_FULL_Q_IDX,
                out_ptr0, ks0,
                K, V,
                dq, q, do, Di, lse,
                off_zq, off_hq2, offs_m2, offs_n2,
                stride_kn, stride_kd, stride_vn, stride_vd,
                kv_indices, sparse_kv_num_blocks,
                MATMUL_PRECISION,
                IS_FULL_BLOCKS=True,
            )

        # Write back dQ.
        dq_ptrs = DQ2 + offs_m2[:, None] * stride_dqm + offs_k[None, :] * stride_dqd
        dq *= SM_SCALE
        if IS_DIVISIBLE and SAFE_HEAD_DIM:
            tl.store(dq_ptrs, dq)
        else:
            tl.store(dq_ptrs, dq, mask=(offs_m2[:, None] < Q_LEN) & (offs_k[None, :] < QK_HEAD_DIM))
    else:
        # THIS BLOCK DOES DK & DV
        SPARSE_Q_MULTIPLE = (SPARSE_Q_BLOCK_SIZE // BLOCK_M1)
        SPARSE_KV_MULTIPLE = (SPARSE_KV_BLOCK_SIZE // BLOCK_N1)

        pid_mask = pid // SPARSE_KV_MULTIPLE

        stride_q_num_blks_h = (ks0 + 127) // 128
        stride_q_idx_h = ((ks0 + 127) // 128) * ((ks0 + 127) // 128)
        stride_q_idx_n = (ks0 + 127) // 128
        stride_full_q_num_blks_h = (ks0 + 127) // 128
        stride_full_q_idx_h = ((ks0 + 127) // 128) * ((ks0 + 127) // 128)
        stride_full_q_idx_n = (ks0 + 127) // 128

        dv = tl.zeros([BLOCK_N1, V_HEAD_DIM_ROUNDED], dtype=tl.float32)
        dk = tl.zeros([BLOCK_N1, QK_HEAD_DIM_ROUNDED], dtype=tl.float32)

        start_n1 = pid * BLOCK_N1
        offs_n1 = start_n1 + tl.arange(0, BLOCK_N1)

        # load K and V: they stay in SRAM throughout the inner loop.
        k = load_checked_2d(K, offs_n1, offs_k, stride_kn, stride_kd, IS_DIVISIBLE, SAFE_HEAD_DIM, KV_LEN, QK_HEAD_DIM)
        v = load_checked_2d(V, offs_n1, offs_v, stride_vn, stride_vd, IS_DIVISIBLE, SAFE_HEAD_DIM, KV_LEN, V_HEAD_DIM)

        if PRESCALE_QK:
            k = (k * SM_SCALE * RCP_LN2).to(MATMUL_PRECISION)

        for off_g in range(0, GQA_SHARED_HEADS):
            off_hq1 = off_hkv * GQA_SHARED_HEADS + off_g

            # Offset Q, DQ, DO, DELTA & LSE. These inputs are offsetted by query heads.
            q_adj1 = (stride_qh * off_hq1 + stride_qz * off_zq).to(tl.int64)
            do_adj1 = (stride_doh * off_hq1 + stride_doz * off_zq).to(tl.int64)
            dq_adj1 = (stride_dqh * off_hq1 + stride_dqz * off_zq).to(tl.int64)
            off_chz1 = ((off_zq * HQ + off_hq1) * Q_LEN).to(tl.int64)

            Q1 = Q + q_adj1
            DO1 = DO + do_adj1
            # TODO: This does not work if DQ is not the same layout as Q (for example,
            # if Q is broadcasted)
            LSE1 = LSE + off_chz1
            DELTA1 = DELTA + off_chz1

            sparse_idx_hq1 = off_hq1 % SPARSE_HQ
            sparse_hz_offset = sparse_idx_z * SPARSE_HQ + sparse_idx_hq1

            sparse_q_num_blks_offset = sparse_hz_offset * stride_q_num_blks_h + pid_mask
            sparse_q_idx_offset = sparse_hz_offset * stride_q_idx_h + pid_mask * stride_q_idx_n  # noqa: B950
            sparse_full_q_num_blks_offset = sparse_hz_offset * stride_full_q_num_blks_h + pid_mask
            sparse_full_q_idx_offset = sparse_hz_offset * stride_full_q_idx_h + pid_mask * stride_full_q_idx_n  # noqa: B950

            # ~~~~~~~~~~~~~~~ fully unmasked blocks ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
            # Q_IDX and Q_NUM_BLKS are always contiguous.
            q_indices = Q_IDX + sparse_q_idx_offset
            q_start = tl.load(q_indices) * SPARSE_Q_BLOCK_SIZE # first q block we're loading
            sparse_q_num_blocks = tl.load(Q_NUM_BLKS + sparse_q_num_blks_offset)

            offs_m1 = q_start + tl.arange(0, BLOCK_M1)
            dk, dv = bwd_dkdv_inner(
                arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS, arg_KV_IDX,
                arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, arg_FULL_Q_NUM_BLKS, arg_FULL_Q_IDX,
                out_ptr0, ks0,
                Q1, DO1, DELTA1, LSE1,
                dk, dv, k, v,
                off_zq, off_hq1, offs_n1, offs_m1,
                stride_qm, stride_qd, stride_dom, stride_dod,
                q_indices, sparse_q_num_blocks,
                MATMUL_PRECISION,
                IS_FULL_BLOCKS=False,
            )

            if HAS_FULL_BLOCKS:
                # ~~~~~~~~~~~~~~~ fully unmasked blocks ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
                # FULL_Q_IDX and FULL_Q_NUM_BLKS are always contiguous.
                q_indices = FULL_Q_IDX + sparse_full_q_idx_offset
                q_start = tl.load(q_indices) * SPARSE_Q_BLOCK_SIZE # first q block we're loading
                sparse_q_num_blocks = tl.load(FULL_Q_NUM_BLKS + sparse_full_q_num_blks_offset)

                offs_m1 = q_start + tl.arange(0, BLOCK_M1)
                dk, dv = bwd_dkdv_inner(
                    arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS, arg_KV_IDX,
                    arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, arg_FULL_Q_NUM_BLKS,
                    arg_FULL_Q_IDX, out_ptr0, ks0,
                    Q1, DO1, DELTA1, LSE1,
                    dk, dv, k, v,
                    off_zq, off_hq1, offs_n1, offs_m1,
                    stride_qm, stride_qd, stride_dom, stride_dod,
                    q_indices, sparse_q_num_blocks,
                    MATMUL_PRECISION,
                    IS_FULL_BLOCKS=True,
                )

        # Write back dV and dK.
        dv_ptrs = DV + offs_n1[:, None] * stride_dvm + offs_v[None, :] * stride_dvd

        index_n = offs_n1[:, None]
        index_k = offs_k[None, :]
        index_v = offs_v[None, :]

        if IS_DIVISIBLE and SAFE_HEAD_DIM:
            tl.store(dv_ptrs, dv)
        else:
            tl.store(dv_ptrs, dv, mask=(index_n < KV_LEN) & (index_v < V_HEAD_DIM))

        dk *= SM_SCALE

        if SAFE_HEAD_DIM:
            mask = index_n < KV_LEN
        else:
            mask = (index_n < KV_LEN) & (index_k < QK_HEAD_DIM)

        # first compute broadcasted dk of shape [Bq, Hkv, KV_LEN, V_HEAD_DIM]
        # then reduce to dk of shape [Bkv, Hkv, KV_LEN, V_HEAD_DIM]
        tl.static_assert(dk.shape == [BLOCK_N1, QK_HEAD_DIM_ROUNDED])
        xindex = index_k + 128*index_n + 128*off_hkv*ks0 + 2048*off_zq*ks0
        tl.store(out_ptr0 + (tl.broadcast_to(xindex, dk.shape)), dk, mask)


@triton.jit
def bwd_dq_inner(arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS, arg_KV_IDX,
                 arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, arg_FULL_Q_NUM_BLKS,
                 arg_FULL_Q_IDX, out_ptr0, ks0,
                 K, V,  # pointers
                 dq, q, do, Di, lse,
                 off_z, off_hq, offs_m2, offs_n2,
                 stride_kn, stride_kd, stride_vn, stride_vd,
                 kv_indices, sparse_kv_num_blocks,
                 MATMUL_PRECISION,
                 IS_FULL_BLOCKS):
    BLOCKS_ARE_CONTIGUOUS : tl.constexpr = False
    IS_DIVISIBLE : tl.constexpr = True
    BLOCK_M2 : tl.constexpr = 128
    BLOCK_N2 : tl.constexpr = 64
    QK_HEAD_DIM_ROUNDED : tl.constexpr = 128
    V_HEAD_DIM_ROUNDED : tl.constexpr = 128
    SPARSE_KV_BLOCK_SIZE : tl.constexpr = 128
    SPARSE_KV_MULTIPLE: tl.constexpr = (SPARSE_KV_BLOCK_SIZE // BLOCK_N2)
    RCP_LN2: tl.constexpr = 1.44269504
    Q_LEN = ks0
    KV_LEN = ks0

    offs_k = tl.arange(0, QK_HEAD_DIM_ROUNDED)
    offs_v = tl.arange(0, V_HEAD_DIM_ROUNDED)

    kT_ptrs = K + offs_n2[None, :] * stride_kn + offs_k[:, None] * stride_kd
    vT_ptrs = V + offs_n2[None, :] * stride_vn + offs_v[:, None] * stride_vd
    # BLOCK_M2 must be a multiple of BLOCK_N2, otherwise the code wouldn't work.
    tl.static_assert(BLOCK_M2 % BLOCK_N2 == 0)

    hi = tl.minimum(sparse_kv_num_blocks * SPARSE_KV_MULTIPLE, tl.maximum(tl.cdiv(KV_LEN, BLOCK_N2), 1))

    for start_n in range(0, hi):
        dq = bwd_dq_block_mn(
            arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS, arg_KV_IDX,
            arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, arg_FULL_Q_NUM_BLKS, arg_FULL_Q_IDX,
            out_ptr0, ks0,
            dq, q, kT_ptrs, vT_ptrs, do, Di, lse, Q_LEN, KV_LEN,
            off_z, off_hq, offs_m2, offs_n2, offs_k, offs_v,
            stride_kn, stride_kd, stride_vn, stride_vd,
            kv_indices, sparse_kv_num_blocks,
            MATMUL_PRECISION, RCP_LN2,
            IS_FULL_BLOCKS,
        )

        # Increment pointers.
        offset = get_offset_for_next_block(
            start_n, kv_indices, sparse_kv_num_blocks,
            SPARSE_KV_BLOCK_SIZE, SPARSE_KV_MULTIPLE, BLOCK_N2, BLOCKS_ARE_CONTIGUOUS
        )

        kT_ptrs += offset * stride_kn
        vT_ptrs += offset * stride_vn

        offs_n2 += offset

    return dq


@triton.jit
def bwd_dq_block_mn(arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS, arg_KV_IDX,
                    arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, arg_FULL_Q_NUM_BLKS,
                    arg_FULL_Q_IDX, out_ptr0, ks0,
                    dq, q, kT_ptrs, vT_ptrs, do, Di, lse, Q_LEN, KV_LEN,
                    off_z, off_hq, offs_m2, offs_n2, offs_k, offs_v,
                    stride_kn, stride_kd, stride_vn, stride_vd,
                    kv_indices, sparse_kv_num_blocks,
                    MATMUL_PRECISION, RCP_LN2,
                    IS_FULL_BLOCKS):
    PRESCALE_QK : tl.constexpr = False
    WRITE_DQ : tl.constexpr = True
    FLOAT32_PRECISION : tl.constexpr = 'tf32'
    IS_DIVISIBLE : tl.constexpr = True
    SM_SCALE : tl.constexpr = 0.08838834764831845
    QK_HEAD_DIM : tl.constexpr = 128
    V_HEAD_DIM : tl.constexpr = 128
    SAFE_HEAD_DIM : tl.constexpr = True

    # NB reversed order to since K is transposed
    kT = load_checked_2d(kT_ptrs, offs_k, offs_n2, None, None, SAFE_HEAD_DIM, IS_DIVISIBLE, QK_HEAD_DIM, KV_LEN)
    qk = tl.dot(q, kT, input_precision=FLOAT32_PRECISION)
    if not PRESCALE_QK:
        qk *= SM_SCALE
    # ~~~~~~~~~~~~~~~~~~~ Apply score modification  ~~~~~~~~~~~~~~~~~~~
    pre_mod_scores = qk
    n = get_bounded_indices(offs_n2[None, :], KV_LEN if not IS_DIVISIBLE else None)
    # The boundary check is done for the outer loop, but here it's possible since we're iterating across N dim
    # that the M reads out of bounds for the PIDS spanning the Q_LEN boundary
    m = get_bounded_indices(offs_m2[:, None], Q_LEN if not IS_DIVISIBLE else None)

    tmp0 = (qk)
    post_mod_scores = tmp0

    if not IS_DIVISIBLE:
        post_mod_scores = tl.where(offs_n2[None, :] < KV_LEN, post_mod_scores, float("-inf"))

    if not IS_FULL_BLOCKS:
        tmp1 = (m)
        tmp2 = (n)
        tmp3 = tmp1 >= tmp2
        mask_mod_output = tmp3

        # apply mask for partial masked block
        post_mod_scores = tl.where(mask_mod_output, post_mod_scores, float("-inf"))
    # ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    if not PRESCALE_QK:
        post_mod_scores *= RCP_LN2
    p = tl.math.exp2(post_mod_scores - lse)
    # Compute dP and dS.
    # NB reversed order to since V is transposed
    vT = load_checked_2d(vT_ptrs, offs_v, offs_n2, None, None, SAFE_HEAD_DIM, IS_DIVISIBLE, V_HEAD_DIM, KV_LEN)

    dp = tl.dot(do, vT, input_precision=FLOAT32_PRECISION)
    ds = p * (dp - Di[:, None])
    # ~~~~~~~~~~~~~~~~~~~ Apply joint modification  ~~~~~~~~~~~~~~~~~~~
    tmp4 = (ds)
    grad_scores = tmp4

    if not IS_DIVISIBLE:
        grad_scores = tl.where(offs_n2[None, :] < KV_LEN, grad_scores, 0.0)

    # ~~~~~~~~~~~~~~~~~~~ Apply other buffer grad writes ~~~~~~~~~~~~~
    if WRITE_DQ:
        scatter_mask = (offs_m2[:, None] < Q_LEN ) & (offs_n2[None, :] < KV_LEN)

    # ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    ds = grad_scores

    if not IS_FULL_BLOCKS:
        # (grads) apply mask for partially unmasked block
        ds = tl.where(mask_mod_output, ds, 0.0)
    # ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    ds = ds.to(MATMUL_PRECISION)
    # Compute dQ.
    dq += tl.dot(ds, tl.trans(kT), input_precision=FLOAT32_PRECISION)

    return dq


@triton.jit
def bwd_dkdv_inner(arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS, arg_KV_IDX,
                   arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, arg_FULL_Q_NUM_BLKS,
                   arg_FULL_Q_IDX, out_ptr0, ks0,
                   Q, DO, DELTA, LSE,  # pointers
                   dk, dv, k, v,
                   off_z, off_hq, offs_n1, offs_m1,
                   stride_qm, stride_qd, stride_dom, stride_dod,
                   q_indices, sparse_q_num_blocks,
                   MATMUL_PRECISION,
                   IS_FULL_BLOCKS):
    BLOCKS_ARE_CONTIGUOUS : tl.constexpr = False
    BLOCK_M1 : tl.constexpr = 64
    BLOCK_N1 : tl.constexpr = 128
    QK_HEAD_DIM_ROUNDED : tl.constexpr = 128
    V_HEAD_DIM_ROUNDED : tl.constexpr = 128
    SPARSE_Q_BLOCK_SIZE : tl.constexpr = 128
    SPARSE_Q_MULTIPLE: tl.constexpr = (SPARSE_Q_BLOCK_SIZE // BLOCK_M1)
    RCP_LN2: tl.constexpr = 1.44269504
    Q_LEN = ks0
    KV_LEN = ks0

    offs_k = tl.arange(0, QK_HEAD_DIM_ROUNDED)
    offs_v = tl.arange(0, V_HEAD_DIM_ROUNDED)

    qT_ptrs = Q + offs_m1[None, :] * stride_qm + offs_k[:, None] * stride_qd
    do_ptrs = DO + offs_m1[:, None] * stride_dom + offs_v[None, :] * stride_dod
    # BLOCK_N1 must be a multiple of BLOCK_M1, otherwise the code wouldn't work.
    tl.static_assert(BLOCK_N1 % BLOCK_M1 == 0)

    # The minimum is needed to handle the case where we run with a super large
    # SPARSE_BLOCK_SIZE (i.e. no block-mask!)
    hi = tl.minimum(sparse_q_num_blocks * SPARSE_Q_MULTIPLE, tl.maximum(tl.cdiv(Q_LEN, BLOCK_M1), 1))

    for start_m in range(0, hi):
        dk, dv = bwd_dkdv_block_mn(
            arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS, arg_KV_IDX,
            arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, arg_FULL_Q_NUM_BLKS, arg_FULL_Q_IDX,
            out_ptr0, ks0,
            dk, dv, qT_ptrs, k, v, do_ptrs, DELTA, LSE, Q_LEN, KV_LEN,
            off_z, off_hq, offs_n1, offs_m1, offs_k, offs_v,
            stride_qm, stride_qd, stride_dom, stride_dod,
            q_indices, sparse_q_num_blocks,
            MATMUL_PRECISION, RCP_LN2,
            IS_FULL_BLOCKS,
        )
        # Increment pointers.
        offset = get_offset_for_next_block(
            start_m, q_indices, sparse_q_num_blocks,
            SPARSE_Q_BLOCK_SIZE, SPARSE_Q_MULTIPLE, BLOCK_M1, BLOCKS_ARE_CONTIGUOUS
        )

        qT_ptrs += offset * stride_qm
        do_ptrs += offset * stride_dom
        offs_m1 += offset

    return dk, dv


@triton.jit
def bwd_dkdv_block_mn(arg_Q, arg_K, arg_V, arg_LSE, arg_DELTA, arg_DO, arg_DQ, arg_DV, arg_KV_NUM_BLKS, arg_KV_IDX,
                      arg_Q_NUM_BLKS, arg_Q_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, arg_FULL_Q_NUM_BLKS,
                      arg_FULL_Q_IDX, out_ptr0, ks0,
                      dk, dv, qT_ptrs, k, v, do_ptrs, DELTA, LSE, Q_LEN, KV_LEN,
                      off_z, off_hq, offs_n1, offs_m1, offs_k, offs_v,
                      stride_qm, stride_qd, stride_dom, stride_dod,
                      q_indices, sparse_q_num_blocks,
                      MATMUL_PRECISION, RCP_LN2,
                      IS_FULL_BLOCKS):
    PRESCALE_QK : tl.constexpr = False
    WRITE_DQ : tl.constexpr = True
    FLOAT32_PRECISION : tl.constexpr = 'tf32'
    IS_DIVISIBLE : tl.constexpr = True
    SM_SCALE : tl.constexpr = 0.08838834764831845
    QK_HEAD_DIM : tl.constexpr = 128
    V_HEAD_DIM : tl.constexpr = 128
    SAFE_HEAD_DIM : tl.constexpr = True

    # NB reversed order since Q is transposed
    qT = load_checked_2d(qT_ptrs, offs_k, offs_m1, None, None, SAFE_HEAD_DIM, IS_DIVISIBLE, QK_HEAD_DIM, Q_LEN)
    # Load LSE before computing qk to reduce pipeline stall.
    if IS_DIVISIBLE:
        lse = tl.load(LSE + offs_m1)
    else:
        lse = tl.load(LSE + offs_m1, mask=offs_m1 < Q_LEN)
    lse = tl.where(lse == -float("inf"), 0.0, lse)
    qkT = tl.dot(k, qT, input_precision=FLOAT32_PRECISION)
    if not PRESCALE_QK:
        qkT *= SM_SCALE
    # ~~~~~~~~~~~~~~~~~~~ Apply score modification  ~~~~~~~~~~~~~~~~~~~
    m = get_bounded_indices(offs_m1[None, :], Q_LEN if not IS_DIVISIBLE else None)
    # The boundary check is done for the outer loop, but here it's possible since we're iterating across M dim
    # that the n reads out of bounds for the PIDS spanning the KV_LEN boundary
    n = get_bounded_indices(offs_n1[:, None], KV_LEN if not IS_DIVISIBLE else None)

    pre_mod_scores = qkT
    tmp5 = (qkT)
    post_mod_scores = tmp5

    if not IS_DIVISIBLE:
        post_mod_scores = tl.where(offs_m1[None, :] < Q_LEN, post_mod_scores, float("-inf"))

    if not IS_FULL_BLOCKS:
        tmp6 = (m)
        tmp7 = (n)
        tmp8 = tmp6 >= tmp7
        mask_mod_output = tmp8

        # (grads) apply mask for fully masked block
        post_mod_scores = tl.where(mask_mod_output, post_mod_scores, float("-inf"))
    # ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    if not PRESCALE_QK:
        post_mod_scores *= RCP_LN2
    pT = tl.math.exp2(post_mod_scores - lse[None, :])
    do = load_checked_2d(do_ptrs, offs_m1, offs_v, None, None, IS_DIVISIBLE, SAFE_HEAD_DIM, Q_LEN, V_HEAD_DIM)
    # Compute dV.
    ppT = pT
    dv += tl.dot(ppT.to(MATMUL_PRECISION), do, input_precision=FLOAT32_PRECISION)
    if IS_DIVISIBLE:
        Di = tl.load(DELTA + offs_m1)
    else:
        Di = tl.load(DELTA + offs_m1, mask=offs_m1 < Q_LEN)
    # Compute dP and dS.
    dpT = tl.dot(v, tl.trans(do), input_precision=FLOAT32_PRECISION)
    dsT = pT * (dpT - Di[None, :])
    # ~~~~~~~~~~~~~~~~~~~ Apply joint modification  ~~~~~~~~~~~~~~~~~~~
    tmp9 = (dsT)
    grad_scores = tmp9

    if not IS_DIVISIBLE:
        grad_scores = tl.where(offs_m1[None, :] < Q_LEN, grad_scores, 0.0)

    # ~~~~~~~~~~~~~~~~~~~ Apply other buffer grad writes ~~~~~~~~~~~~~
    if not WRITE_DQ:
        idx_b = off_z
        idx_h = off_hq
        idx_m = m
        idx_n = n
        scatter_mask = (offs_m1[None, :] < Q_LEN) & (offs_n1[:, None] < KV_LEN)

    # ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    dsT = grad_scores
    if not IS_FULL_BLOCKS:
        # (grads) apply mask for partially unmasked block
        dsT = tl.where(mask_mod_output, dsT, 0.0)
    # ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    dk += tl.dot(dsT.to(MATMUL_PRECISION), tl.trans(qT), input_precision=FLOAT32_PRECISION)

    return dk, dv


def _block_masks(N: int, device: str) -> dict[str, Any]:
    """A causal block mask of 128 x 128 blocks and its transpose, as create_block_mask builds them: query block i
    cuts key block i (the diagonal, masked) and keeps 0 .. i-1 whole; key block j is cut by query block j and kept
    whole by j+1 .. nb-1. Unused index slots are zero."""
    import torch
    nb = N // 128
    rows = torch.arange(nb, device=device, dtype=torch.int32)
    kv_idx = torch.zeros((1, 1, nb, nb), device=device, dtype=torch.int32)
    kv_idx[0, 0, :, 0] = rows
    full_kv_idx = torch.zeros((1, 1, nb, nb), device=device, dtype=torch.int32)
    q_idx = torch.zeros((1, 1, nb, nb), device=device, dtype=torch.int32)
    q_idx[0, 0, :, 0] = rows
    full_q_idx = torch.zeros((1, 1, nb, nb), device=device, dtype=torch.int32)
    for i in range(nb):
        full_kv_idx[0, 0, i, :i] = rows[:i]
        full_q_idx[0, 0, i, : nb - 1 - i] = rows[i + 1:]
    ones = torch.ones((1, 1, nb), device=device, dtype=torch.int32)
    return {"kv_num": ones, "kv_idx": kv_idx, "full_kv_num": rows.view(1, 1, nb).clone(), "full_kv_idx": full_kv_idx,
            "q_num": ones.clone(), "q_idx": q_idx, "full_q_num": (nb - 1 - rows).view(1, 1, nb).contiguous(),
            "full_q_idx": full_q_idx}


def _scores(q: Any, k: Any) -> Any:
    """Causal scaled scores, fp32 (query i sees keys 0 .. i)."""
    import torch
    N = q.shape[-2]
    s = (q.float() @ k.float().transpose(-1, -2)) / math.sqrt(q.shape[-1])
    causal = torch.ones((N, N), device=q.device, dtype=torch.bool).tril()
    return s.masked_fill(~causal, float("-inf"))


def make_inputs(B: int, H: int, N: int, device: str = "cuda", seed: int = 0) -> dict[str, Any]:
    """q, k, v, dout [B, H, N, 128] fp16; the forward's log-sum-exp in base 2 (what the forward template stores: the
    row max of the RCP_LN2-scaled scores plus log2 of the row sum) and delta = rowsum(out * dout), fp32, a head at a
    time; the two block masks."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    shape = (B, H, N, 128)
    out: dict[str, Any] = {n: torch.randn(shape, device=device, dtype=torch.float16, generator=g)
                           for n in ("q", "k", "v", "do")}
    lse = torch.empty((B, H, N), device=device, dtype=torch.float32)
    delta = torch.empty((B, H, N), device=device, dtype=torch.float32)
    for b in range(B):
        for h in range(H):
            s = _scores(out["q"][b, h], out["k"][b, h])
            lse[b, h] = torch.logsumexp(s, dim=-1) / math.log(2.0)
            o = (torch.softmax(s, dim=-1) @ out["v"][b, h].float()).half()
            delta[b, h] = (o.float() * out["do"][b, h].float()).sum(-1)
    out.update(lse=lse, delta=delta, **_block_masks(N, device))
    return out


def launch(inputs: dict[str, Any], **config: int) -> Any:
    """(dq, dk, dv) fp16 [B, H, N, 128] (B = 4, H = 16: the rendered constants), one program per key block then one
    per query block, (NUM_KV_BLOCKS + NUM_Q_BLOCKS, B, H)."""
    import torch
    q, k, v, do = inputs["q"], inputs["k"], inputs["v"], inputs["do"]
    B, H, N, D = q.shape
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    grid = (triton.cdiv(N, 128) + triton.cdiv(N, 128), B, H)
    triton_tem_fused_zeros_1[grid](
        q, k, v, inputs["lse"], inputs["delta"], do, dq, dv, inputs["kv_num"], inputs["kv_idx"], inputs["q_num"],
        inputs["q_idx"], inputs["full_kv_num"], inputs["full_kv_idx"], inputs["full_q_num"], inputs["full_q_idx"],
        dk, N, num_warps=config.get("num_warps", 8), num_stages=config.get("num_stages", 3))
    return dq, dk, dv


def reference(inputs: dict[str, Any]) -> Any:
    """dQ, dK, dV of causal softmax attention by autograd, a head at a time in fp32."""
    import torch
    q, k, v, do = inputs["q"], inputs["k"], inputs["v"], inputs["do"]
    B, H = q.shape[:2]
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    for b in range(B):
        for h in range(H):
            qq, kk, vv = (t[b, h].float().requires_grad_() for t in (q, k, v))
            (torch.softmax(_scores(qq, kk), dim=-1) @ vv).backward(do[b, h].float())
            dq[b, h], dk[b, h], dv[b, h] = qq.grad.half(), kk.grad.half(), vv.grad.half()
    return dq, dk, dv


def flops(B: int, H: int, N: int) -> float:
    """Causal: seven dots (four for dK / dV, three for dQ) of 2 * 128 flops per kept (query, key) pair, half of them."""
    return 7 * 2.0 * B * H * N * N * 128 * 0.5
