"""_attn_fwd_sparse, written by twill from its joint schedule: I=316 L=316 (optimal), 3351 cycles per iteration predicted.

Decisions (each from the schedule):
- k_69 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%kv_idx_57), which the analysis does not follow
- v_95 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%kv_idx_57), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_69, v_95): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (138, 88 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 160 registers per thread (needs about 138): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring k_69: 2 buffers of [128, 64] bf16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring v_95: 2 buffers of [64, 128] bf16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 82000 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L9 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L10 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K, V, sm_scale, q2k_index, q2k_num, max_kv_blks, variable_block_sizes, M, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vk, stride_oz, stride_oh, stride_om, Z, H, N_CTX, k_69_buf, v_95_buf, k_69_ready, k_69_empty, v_95_ready, v_95_empty, TWILL_COPY: gl.constexpr):
    q_blk = gl.program_id(0)
    off_hz = gl.program_id(1)
    b = off_hz // H
    h = off_hz % H
    q_tiles = N_CTX // 64
    meta_base = b * H
    meta_base_2 = meta_base + h
    meta_base_3 = meta_base_2 * q_tiles
    meta_base_4 = meta_base_3 + q_blk
    kv_blocks = q2k_num + meta_base_4
    kv_blocks_5 = gl.load(kv_blocks)
    kv_ptr = meta_base_4 * max_kv_blks
    kv_ptr_6 = q2k_index + kv_ptr
    qvk_off = gl.cast(b, gl.int64)
    qvk_off_7 = gl.cast(stride_qz, gl.int64)
    qvk_off_8 = qvk_off * qvk_off_7
    qvk_off_9 = gl.cast(h, gl.int64)
    qvk_off_10 = gl.cast(stride_qh, gl.int64)
    qvk_off_11 = qvk_off_9 * qvk_off_10
    qvk_off_12 = qvk_off_8 + qvk_off_11
    Q_ptr = Q + qvk_off_12
    Q_ptr_13 = q_blk * 64
    Q_ptr_14 = gl.cast(stride_qm, gl.int64)
    Q_ptr_15 = gl.cast(Q_ptr_13, gl.int64)
    O_ptr = Out + qvk_off_12
    O_ptr_18 = gl.cast(stride_om, gl.int64)
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_20 = gl.arange(0, 64, layout=L1)
    offs_m_21 = gl.arange(0, 64, layout=L2)
    offs_m_23 = Q_ptr_13 + offs_m_21
    qk_scale = sm_scale * 1.44269502
    q_25 = offs_m.to(gl.int64)
    q_27 = Q_ptr_15 + q_25
    q_28 = gl.expand_dims(q_27, 1)
    q_30 = q_28 * Q_ptr_14
    q_31 = q_30.broadcast_to([64, 128])
    q_32 = gl.arange(0, 128, layout=L3)
    q_34 = q_32.to(gl.int64)
    q_36 = gl.expand_dims(q_34, 0)
    q_37 = q_36.broadcast_to([64, 128])
    q_38 = q_31 + q_37
    q_39 = Q_ptr + q_38
    q_40 = gl.load(q_39)
    q_41 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_40)
    fence_async_shared()
    twill_n = (kv_blocks_5 - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        m_ij_77 = gl.full([64], float("-inf"), gl.float32, layout=L4)
        l_i_85 = gl.full([64], 1.0, gl.float32, layout=L4)
        acc_99 = gl.full([64, 128], 0.0, gl.float32, layout=L5)
        kv_idx = kv_ptr_6 + (0 + (0 - 0) * 1)  # load0_kv_idx: stage 0, partition 0 (group 0)
        kv_idx_57 = gl.load(kv_idx)  # load0_kv_idx: stage 0, partition 0 (group 0)
        block_size = variable_block_sizes + kv_idx_57  # load1_block_size: stage 0, partition 0 (group 0)
        block_size_58 = gl.load(block_size)  # load1_block_size: stage 0, partition 0 (group 0)
        acc_99_p1 = acc_99
        block_size_58_p1 = block_size_58
        kv_idx_57_p1 = kv_idx_57
        l_i_85_p1 = l_i_85
        m_ij_77_p1 = m_ij_77
        for twill_b in range(1, twill_n):
            kv_idx = kv_ptr_6 + (0 + (twill_b - 0) * 1)  # load0_kv_idx: stage 0, partition 0 (group 0)
            kv_idx_57 = gl.load(kv_idx)  # load0_kv_idx: stage 0, partition 0 (group 0)
            K_ptr = kv_idx_57_p1 * 64  # elementwise0_K_ptr: stage 1, partition 0 (group 0)
            K_ptr_59 = gl.cast(K_ptr, gl.int64)  # convert0_K_ptr: stage 1, partition 0 (group 0)
            mbarrier.wait(k_69_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_qk = warpgroup_mma(q_41, k_69_buf.index((twill_b - 1) % 2), gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            block_size = variable_block_sizes + kv_idx_57  # load1_block_size: stage 0, partition 0 (group 0)
            block_size_58 = gl.load(block_size)  # load1_block_size: stage 0, partition 0 (group 0)
            mask = block_size_58_p1  # elementwise1_qk: stage 1, partition 0 (group 0)
            mask_71 = offs_m_20 < mask  # elementwise1_qk: stage 1, partition 0 (group 0)
            qk_72 = gl.expand_dims(mask_71, 0)  # elementwise1_qk: stage 1, partition 0 (group 0)
            qk_73 = qk_72.broadcast_to([64, 64])  # elementwise1_qk: stage 1, partition 0 (group 0)
            acc_99_p1, qk = warpgroup_mma_wait(0, deps=(acc_99_p1, tok_qk,))
            mbarrier.arrive(v_95_empty.index((twill_b - 1 - 1) % 2), pred=(twill_b - 1 - 1) >= 0)
            mbarrier.arrive(k_69_empty.index((twill_b - 1) % 2))
            qk_74 = gl.where(qk_73, qk, float("-inf"))  # elementwise1_qk: stage 1, partition 0 (group 0)
            m_ij_75 = gl.max(qk_74, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
            m_ij_76 = m_ij_75 * qk_scale  # elementwise2_m_ij: stage 1, partition 0 (group 0)
            m_ij_77 = gl.maximum(m_ij_77_p1, m_ij_76)  # elementwise2_m_ij: stage 1, partition 0 (group 0)
            p_78 = qk_74 * qk_scale  # sfu0_p: stage 1, partition 0 (group 0)
            p_79 = gl.expand_dims(m_ij_77, 1)  # sfu0_p: stage 1, partition 0 (group 0)
            p_80 = p_79.broadcast_to([64, 64])  # sfu0_p: stage 1, partition 0 (group 0)
            p_81 = p_78 - p_80  # sfu0_p: stage 1, partition 0 (group 0)
            p_82 = gl.exp2(p_81)  # sfu0_p: stage 1, partition 0 (group 0)
            l_ij = gl.sum(p_82, axis=1)  # reduce1_l_ij: stage 1, partition 0 (group 0)
            alpha = m_ij_77_p1 - m_ij_77  # sfu1_alpha: stage 1, partition 0 (group 0)
            alpha_83 = gl.exp2(alpha)  # sfu1_alpha: stage 1, partition 0 (group 0)
            acc_97 = p_82.to(gl.bfloat16)  # convert2_acc: stage 1, partition 0 (group 0)
            acc_98 = gl.convert_layout(acc_97, L7)  # convert2_acc: stage 1, partition 0 (group 0)
            acc_86 = gl.expand_dims(alpha_83, 1)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_87 = gl.convert_layout(acc_86, L5)  # convert1_acc: stage 1, partition 0 (group 0)
            l_i_84 = l_i_85_p1 * alpha_83  # elementwise3_l_i: stage 1, partition 0 (group 0)
            l_i_85 = l_i_84 + l_ij  # elementwise3_l_i: stage 1, partition 0 (group 0)
            acc_88 = acc_87.broadcast_to([64, 128])  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_89 = acc_99_p1 * acc_88  # elementwise4_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(v_95_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_99 = warpgroup_mma(acc_98, v_95_buf.index((twill_b - 1) % 2), acc_89, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            acc_99 = warpgroup_mma_wait(1, deps=(tok_acc_99,))
            acc_99_p1 = acc_99
            block_size_58_p1 = block_size_58
            kv_idx_57_p1 = kv_idx_57
            l_i_85_p1 = l_i_85
            m_ij_77_p1 = m_ij_77
        K_ptr = kv_idx_57_p1 * 64  # elementwise0_K_ptr: stage 1, partition 0 (group 0)
        K_ptr_59 = gl.cast(K_ptr, gl.int64)  # convert0_K_ptr: stage 1, partition 0 (group 0)
        mbarrier.wait(k_69_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_qk = warpgroup_mma(q_41, k_69_buf.index(((twill_n - 1 + 1) - 1) % 2), gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        mask = block_size_58_p1  # elementwise1_qk: stage 1, partition 0 (group 0)
        mask_71 = offs_m_20 < mask  # elementwise1_qk: stage 1, partition 0 (group 0)
        qk_72 = gl.expand_dims(mask_71, 0)  # elementwise1_qk: stage 1, partition 0 (group 0)
        qk_73 = qk_72.broadcast_to([64, 64])  # elementwise1_qk: stage 1, partition 0 (group 0)
        acc_99_p1, qk = warpgroup_mma_wait(0, deps=(acc_99_p1, tok_qk,))
        mbarrier.arrive(v_95_empty.index(((twill_n - 1 + 1) - 1 - 1) % 2), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        mbarrier.arrive(k_69_empty.index(((twill_n - 1 + 1) - 1) % 2))
        qk_74 = gl.where(qk_73, qk, float("-inf"))  # elementwise1_qk: stage 1, partition 0 (group 0)
        m_ij_75 = gl.max(qk_74, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
        m_ij_76 = m_ij_75 * qk_scale  # elementwise2_m_ij: stage 1, partition 0 (group 0)
        m_ij_77 = gl.maximum(m_ij_77_p1, m_ij_76)  # elementwise2_m_ij: stage 1, partition 0 (group 0)
        p_78 = qk_74 * qk_scale  # sfu0_p: stage 1, partition 0 (group 0)
        p_79 = gl.expand_dims(m_ij_77, 1)  # sfu0_p: stage 1, partition 0 (group 0)
        p_80 = p_79.broadcast_to([64, 64])  # sfu0_p: stage 1, partition 0 (group 0)
        p_81 = p_78 - p_80  # sfu0_p: stage 1, partition 0 (group 0)
        p_82 = gl.exp2(p_81)  # sfu0_p: stage 1, partition 0 (group 0)
        l_ij = gl.sum(p_82, axis=1)  # reduce1_l_ij: stage 1, partition 0 (group 0)
        alpha = m_ij_77_p1 - m_ij_77  # sfu1_alpha: stage 1, partition 0 (group 0)
        alpha_83 = gl.exp2(alpha)  # sfu1_alpha: stage 1, partition 0 (group 0)
        acc_97 = p_82.to(gl.bfloat16)  # convert2_acc: stage 1, partition 0 (group 0)
        acc_98 = gl.convert_layout(acc_97, L7)  # convert2_acc: stage 1, partition 0 (group 0)
        acc_86 = gl.expand_dims(alpha_83, 1)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_87 = gl.convert_layout(acc_86, L5)  # convert1_acc: stage 1, partition 0 (group 0)
        l_i_84 = l_i_85_p1 * alpha_83  # elementwise3_l_i: stage 1, partition 0 (group 0)
        l_i_85 = l_i_84 + l_ij  # elementwise3_l_i: stage 1, partition 0 (group 0)
        acc_88 = acc_87.broadcast_to([64, 128])  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_89 = acc_99_p1 * acc_88  # elementwise4_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(v_95_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_acc_99 = warpgroup_mma(acc_98, v_95_buf.index(((twill_n - 1 + 1) - 1) % 2), acc_89, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        acc_99 = warpgroup_mma_wait(1, deps=(tok_acc_99,))
        acc_99_p1 = acc_99
        block_size_58_p1 = block_size_58
        kv_idx_57_p1 = kv_idx_57
        l_i_85_p1 = l_i_85
        m_ij_77_p1 = m_ij_77
        acc_99_p1 = warpgroup_mma_wait(0, deps=(acc_99_p1,))
        q_41._keep_alive()
        k_69_buf._keep_alive()
        v_95_buf._keep_alive()
        mbarrier.arrive(v_95_empty.index(((twill_n - 1 + 1) - 1) % 2))
    else:
        m_ij_77_p1 = gl.full([64], float("-inf"), gl.float32, layout=L4)
        l_i_85_p1 = gl.full([64], 1.0, gl.float32, layout=L4)
        acc_99_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L5)
    m_i_47 = gl.log2(l_i_85_p1)
    m_i_48 = m_ij_77_p1 + m_i_47
    acc_49 = gl.expand_dims(l_i_85_p1, 1)
    acc_50 = gl.convert_layout(acc_49, L5)
    acc_51 = acc_50.broadcast_to([64, 128])
    acc_52 = acc_99_p1 / acc_51
    v0 = off_hz * N_CTX
    v1 = M + v0
    v3 = v1 + offs_m_23
    v4 = gl.convert_layout(m_i_48, L2)
    gl.store(v3, v4)
    v5 = acc_52.to(gl.bfloat16)
    v8 = q_28 * O_ptr_18
    v9 = v8.broadcast_to([64, 128])
    v10 = v9 + q_37
    v11 = O_ptr + v10
    v12 = gl.convert_layout(v5, L8)
    gl.store(v11, v12)

@gluon.jit
def producer_1(Q, K, V, sm_scale, q2k_index, q2k_num, max_kv_blks, variable_block_sizes, M, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vk, stride_oz, stride_oh, stride_om, Z, H, N_CTX, k_69_buf, v_95_buf, k_69_ready, k_69_empty, v_95_ready, v_95_empty, TWILL_COPY: gl.constexpr):
    q_blk = gl.program_id(0)
    off_hz = gl.program_id(1)
    b = off_hz // H
    h = off_hz % H
    q_tiles = N_CTX // 64
    meta_base = b * H
    meta_base_2 = meta_base + h
    meta_base_3 = meta_base_2 * q_tiles
    meta_base_4 = meta_base_3 + q_blk
    kv_blocks = q2k_num + meta_base_4
    kv_blocks_5 = gl.load(kv_blocks)
    kv_ptr = meta_base_4 * max_kv_blks
    kv_ptr_6 = q2k_index + kv_ptr
    qvk_off = gl.cast(b, gl.int64)
    qvk_off_7 = gl.cast(stride_qz, gl.int64)
    qvk_off_8 = qvk_off * qvk_off_7
    qvk_off_9 = gl.cast(h, gl.int64)
    qvk_off_10 = gl.cast(stride_qh, gl.int64)
    qvk_off_11 = qvk_off_9 * qvk_off_10
    qvk_off_12 = qvk_off_8 + qvk_off_11
    K_base = K + qvk_off_12
    K_base_16 = gl.cast(stride_kn, gl.int64)
    V_base = V + qvk_off_12
    V_base_17 = gl.cast(stride_vk, gl.int64)
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_19 = gl.arange(0, 64, layout=L9)
    q_25 = offs_m.to(gl.int64)
    q_26 = offs_m_19.to(gl.int64)
    q_32 = gl.arange(0, 128, layout=L3)
    q_33 = gl.arange(0, 128, layout=L10)
    q_34 = q_32.to(gl.int64)
    q_35 = q_33.to(gl.int64)
    q_36 = gl.expand_dims(q_34, 0)
    q_37 = q_36.broadcast_to([64, 128])
    k_42 = gl.expand_dims(q_35, 1)
    k_43 = k_42.broadcast_to([128, 64])
    for acc_53 in range(0, kv_blocks_5, 1):
        twill_k = (acc_53 - 0) // 1
        kv_idx = kv_ptr_6 + acc_53
        kv_idx_57 = gl.load(kv_idx)
        K_ptr = kv_idx_57 * 64
        K_ptr_59 = gl.cast(K_ptr, gl.int64)
        k_62 = K_ptr_59 + q_26
        k_63 = K_ptr_59 + q_25
        k_64 = gl.expand_dims(k_62, 0)
        k_65 = k_64 * K_base_16
        k_66 = k_65.broadcast_to([128, 64])
        k_67 = k_43 + k_66
        k_68 = K_base + k_67
        v_90 = gl.expand_dims(k_63, 1)
        v_91 = v_90 * V_base_17
        v_92 = v_91.broadcast_to([64, 128])
        v_93 = v_92 + q_37
        v_94 = V_base + v_93
        mbarrier.wait(k_69_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(k_69_buf.index(twill_k % 2), k_68)  # load2_k: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(k_69_ready.index(twill_k % 2), increment_count=False)
        else:
            k_69_buf.index(twill_k % 2).store(gl.load(k_68))  # load2_k: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(k_69_ready.index(twill_k % 2), count=128)
        mbarrier.wait(v_95_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(v_95_buf.index(twill_k % 2), v_94)  # load3_v: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(v_95_ready.index(twill_k % 2), increment_count=False)
        else:
            v_95_buf.index(twill_k % 2).store(gl.load(v_94))  # load3_v: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(v_95_ready.index(twill_k % 2), count=128)

@gluon.jit
def twill_kernel(Q, K, V, sm_scale, q2k_index, q2k_num, max_kv_blks, variable_block_sizes, M, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vk, stride_oz, stride_oh, stride_om, Z, H, N_CTX, TWILL_COPY: gl.constexpr):
    k_69_buf = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_95_buf = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_69_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_69_ready.index(i), count=128)
    k_69_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_69_empty.index(i), count=1)
    v_95_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_95_ready.index(i), count=128)
    v_95_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_95_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, sm_scale, q2k_index, q2k_num, max_kv_blks, variable_block_sizes, M, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vk, stride_oz, stride_oh, stride_om, Z, H, N_CTX, k_69_buf, v_95_buf, k_69_ready, k_69_empty, v_95_ready, v_95_empty, TWILL_COPY)),
        (producer_1, (Q, K, V, sm_scale, q2k_index, q2k_num, max_kv_blks, variable_block_sizes, M, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vk, stride_oz, stride_oh, stride_om, Z, H, N_CTX, k_69_buf, v_95_buf, k_69_ready, k_69_empty, v_95_ready, v_95_empty, TWILL_COPY)),
    ], [4], [88])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'sm_scale', 'q2k_index', 'q2k_num', 'max_kv_blks', 'variable_block_sizes', 'M', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vk', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'stride_on', 'Z', 'H', 'N_CTX', 'HEAD_DIM', 'BLOCK_M', 'BLOCK_N', 'STAGE']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'sm_scale', 'q2k_index', 'q2k_num', 'max_kv_blks', 'variable_block_sizes', 'M', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vk', 'stride_oz', 'stride_oh', 'stride_om', 'Z', 'H', 'N_CTX']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'sm_scale', 'q2k_index', 'q2k_num', 'max_kv_blks', 'variable_block_sizes', 'M', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vk', 'stride_oz', 'stride_oh', 'stride_om', 'Z', 'H', 'N_CTX']   # the arguments a launch key reads
CONSTEXPRS = {'stride_qk': 1, 'stride_kk': 1, 'stride_vn': 1, 'stride_on': 1, 'HEAD_DIM': 128, 'BLOCK_M': 64, 'BLOCK_N': 64, 'STAGE': 3}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_qz', 'stride_qh', 'stride_kn', 'stride_vk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")
FAST_LAUNCH = True   # a launch with an earlier one's key calls the kernel compiled for it; False: the JIT each time


_LAYOUTS = {}                  # argument -> its layout object, made on first use
_CODE = {}                     # expression -> its compiled code
_DESCS = {}                    # (argument, address, dtype, shape, strides) -> its descriptor
_KEYED = {}                    # launch key -> [flags' values, boxes (None: none), compiled kernel (None: not yet)]
_MODES = []                    # Triton's compilation and runtime knobs (instrumentation, debug)
_DEVICE = []                   # the active driver's current device, read per launch


def _ev(e, bound):
    code = _CODE.get(e)
    if code is None:
        code = _CODE[e] = compile(e, "launch", "eval")
    return eval(code, {}, bound)


class _Base:
    """A descriptor's base as the launch reads it (address, dtype): the descriptor holds no tensor alive."""

    __slots__ = ("ptr", "dtype")

    def __init__(self, t):
        self.ptr, self.dtype = t.data_ptr(), t.dtype

    def data_ptr(self):
        return self.ptr


def _desc(name, t, shape, strides, block):
    """The Gluon tensor descriptor of argument ``name`` over ``t`` (kept: at most 256)."""
    key = (name, t.data_ptr(), t.dtype, tuple(shape), tuple(strides))
    d = _DESCS.get(key)
    if d is None:
        from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

        layout = _LAYOUTS.get(name)
        if layout is None:
            from triton.experimental.gluon import language as gl
            layout = _LAYOUTS[name] = eval("gl." + DESCRIPTOR_LAYOUTS[name])
        if len(_DESCS) >= 256:
            _DESCS.clear()
        d = _DESCS[key] = TensorDescriptor(_Base(t), list(shape), list(strides), list(block), layout)
    return d


def _descriptor(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    base = getattr(value, "base", value)
    shape = getattr(value, "shape", base.shape)
    strides = getattr(value, "strides", None) or base.stride()
    return _desc(name, base, shape, strides, DESCRIPTOR_BLOCKS[name])


def _key(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES:
        from triton import knobs
        _MODES.extend((knobs.compilation, knobs.runtime))
    key = [g, _MODES[0].instrumentation_mode, _MODES[1].debug, _device()]
    for n in KEYED:
        v = bound.get(n)
        t = type(v)
        if t is int or t is bool or v is None:
            key.append(v)
        elif t is float:
            key.append(float)
        elif hasattr(v, "data_ptr"):
            key.append((v.dtype, v.data_ptr() % 16 == 0))
        elif hasattr(v, "base") and hasattr(v.base, "data_ptr"):          # a host descriptor
            key.append((v.base.dtype, v.base.data_ptr() % 16 == 0, tuple(v.shape), tuple(v.strides)))
        else:
            key.append(v)
    try:
        hash(key := tuple(key))
    except TypeError:
        return None
    return key


def _device():
    if not _DEVICE:
        from triton.runtime import driver
        _DEVICE.append(driver.active.get_current_device)
    return _DEVICE[0]()


def _decide(bound):
    """A launch key's decisions: the flags' values, the pointer tiles' boxes (None: none)."""
    shapes = None
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED)}
    return [tuple(flags[f] for f in FLAGS), shapes, None]


def launch(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS, args))
    if kwargs:
        bound.update({k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS})
    for k, v in CONSTEXPRS.items():
        if k in bound and bound[k] != v:
            raise ValueError(f"twill: this Gluon kernel was generated for {k}={v!r}, launched with {bound[k]!r}")
    g = grid(dict(bound, **CONSTEXPRS)) if callable(grid) else grid
    g = tuple(int(x) for x in g)
    if PERSISTENT:
        g = g + (1,) * (3 - len(g))
        bound.update(twill_g0=g[0], twill_g1=g[1], twill_g2=g[2])
        g = (max(1, min(g[0] * g[1] * g[2], _sm_count())),)
    key = _key(bound, g)
    entry = _KEYED.get(key) if key is not None else None
    if entry is None:
        entry = _decide(bound)
        if key is not None:
            if len(_KEYED) >= 64:
                _KEYED.clear()
            _KEYED[key] = entry
    missing = [n for n in RUNTIME if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor(bound[n], n) if n in DESCRIPTOR_BLOCKS else bound[n] for n in RUNTIME]
    return _run(entry, g, runtime)


def _run(entry, g, runtime):
    """The kernel compiled for this launch's key where a launch with it ran before, else through the JIT."""
    compiled = entry[2]
    if compiled is not None and FAST_LAUNCH:
        compiled[g + (1,) * (3 - len(g))](*runtime, *entry[0])
        return compiled
    compiled = twill_kernel[g](*runtime, **dict(zip(FLAGS, entry[0])), num_warps=NUM_WARPS, maxnreg=MAXNREG)
    if hasattr(compiled, "function") and hasattr(compiled, "__getitem__"):
        entry[2] = compiled
    return compiled


def _aligned(value):
    """Whether an argument is specialised as 16-divisible (Triton's rule): an integer's value, a tensor's address."""
    if hasattr(value, "data_ptr"):
        return value.data_ptr() % 16 == 0
    return isinstance(value, int) and value % 16 == 0


_SMS = []


def _sm_count():
    """The multiprocessors of the current device (a persistent kernel launches one program on each)."""
    if not _SMS:
        import torch
        _SMS.append(torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count)
    return _SMS[0]


class _Config:
    """``kernel.best_config`` as an autotuner has it after a run (Mamba reads its ``kwargs["BLOCK_SIZE_M"]`` to size
    its grid): the constexprs this kernel was generated for."""

    def __init__(self):
        self.kwargs, self.num_warps, self.num_stages, self.num_ctas = dict(CONSTEXPRS), NUM_WARPS, None, 1
        self.maxnreg, self.pre_hook = MAXNREG, None

    def all_kwargs(self):
        return dict(self.kwargs, num_warps=self.num_warps, num_ctas=self.num_ctas)


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called; ``kernel.fn[grid](*args)`` as a heuristics' or an
    autotuner's wrapped function is called past them (FlagGems), ``kernel.best_config`` and ``kernel.run(*args,
    grid=grid)``: the kernel is specialised already (a warmup run compiles nothing here: the first launch does).
    ``kernel.fallback``: the Triton kernel this one replaces, set by whoever swaps it in; a launch this kernel was not
    generated for (other constexprs, too few iterations, a pre_hook it cannot run) then runs it, counted in
    ``kernel.fallbacks``, where without it the launch is refused in one line."""

    fallback = None
    fallbacks = 0

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self._launch(grid, args, kwargs)

    def run(self, *args, grid, warmup=False, **kwargs):
        """``kernel.run(*args, grid=grid, warmup=False)``, as a JIT function is run without its ``[grid]``."""
        return None if warmup else self._launch(grid, args, kwargs)

    def _launch(self, grid, args, kwargs):
        try:
            return launch(grid, *args, **kwargs)
        except ValueError as e:
            refused = str(e).startswith("twill: ") and "missing kernel arguments" not in str(e)
            if self.fallback is None or not refused:
                raise
            self.fallbacks += 1
            return self.fallback[grid](*args, **kwargs)

    @property
    def fn(self):
        return self

    @property
    def best_config(self):
        return _Config()


kernel = _Kernel()
