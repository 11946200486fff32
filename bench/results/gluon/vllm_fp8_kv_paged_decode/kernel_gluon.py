"""_paged_decode_fp8kv_kernel, written by twill from its joint schedule: I=455 L=455 (optimal), 2239 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (K_load_97_as 2 x 8192 B, V_load_107_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 125 per thread)
- shared memory: 32784 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=4))
L8 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L9 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1]))
L11 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=4))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L13 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K_cache, V_cache, block_tables, seq_lens, k_scale, v_scale, Out, sm_scale, num_queries_per_kv, stride_qb, stride_qh, stride_bt, stride_kb, stride_ks, stride_kh, stride_ob, stride_oh, TWILL_COPY: gl.constexpr):
    seq_idx = gl.program_id(0)
    kv_head_idx = gl.program_id(1)
    offs_h = gl.arange(0, 16, layout=L0)
    head_mask_8 = offs_h < num_queries_per_kv
    query_heads = kv_head_idx * num_queries_per_kv
    query_heads_10 = query_heads + offs_h
    q_offset = seq_idx * stride_qb
    q_offset_11 = gl.expand_dims(query_heads_10, 1)
    q_offset_13 = q_offset_11 * stride_qh
    q_offset_15 = q_offset + q_offset_13
    q_offset_16 = gl.arange(0, 128, layout=L1)
    q_offset_17 = gl.arange(0, 128, layout=L2)
    q_offset_18 = gl.expand_dims(q_offset_16, 0)
    q_offset_19 = gl.expand_dims(q_offset_17, 0)
    q_offset_20 = q_offset_15.broadcast_to([16, 128])
    q_offset_21 = q_offset_18.broadcast_to([16, 128])
    q_offset_22 = q_offset_20 + q_offset_21
    Q_tile_23 = gl.expand_dims(head_mask_8, 1)
    Q_tile_25 = Q + q_offset_22
    Q_tile_26 = Q_tile_23.broadcast_to([16, 128])
    Q_tile_27 = gl.load(Q_tile_25, mask=Q_tile_26, other=0.0)
    seq_len = seq_lens + seq_idx
    seq_len_28 = gl.load(seq_len)
    bt_base = gl.cast(seq_idx, gl.int64)
    bt_base_29 = gl.cast(stride_bt, gl.int64)
    bt_base_30 = bt_base * bt_base_29
    bt_base_31 = block_tables + bt_base_30
    k_scale_val = gl.load(k_scale)
    v_scale_val = gl.load(v_scale)
    offs_n = gl.arange(0, 64, layout=L3)
    offs_n_32 = gl.arange(0, 64, layout=L4)
    offs_n_33 = gl.arange(0, 64, layout=L5)
    kv_offset = gl.cast(stride_kb, gl.int64)
    kv_offset_41 = kv_head_idx * stride_kh
    kv_offset_42 = gl.cast(kv_offset_41, gl.int64)
    K_load_45 = gl.arange(0, 128, layout=L6)
    K_load_46 = gl.expand_dims(K_load_45, 1)
    K_load_47 = K_load_46.broadcast_to([128, 64])
    V_load_48 = q_offset_19.broadcast_to([64, 128])
    Q_tile_49 = gl.convert_layout(Q_tile_27, L7)
    twill_n = (seq_len_28 - 0 + 64 - 1) // 64
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        K_load_97_as = gl.allocate_shared_memory(gl.float8e4nv, [2, 128, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0, 1]))
        V_load_107_as = gl.allocate_shared_memory(gl.float8e4nv, [2, 64, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
        m_j_116 = gl.full([16], float("-inf"), gl.float32, layout=L8)
        L_125 = gl.full([16], 1.0, gl.float32, layout=L8)
        acc_129 = gl.full([16, 128], 0.0, gl.float32, layout=L9)
        offs_n_65 = (0 + (0 - 0) * 64) + offs_n  # load0_physical_block: stage 0, partition 0 (group 0)
        physical_block_71 = offs_n_65 // 16  # load0_physical_block: stage 0, partition 0 (group 0)
        mask_n_68 = offs_n_65 < seq_len_28  # load0_physical_block: stage 0, partition 0 (group 0)
        physical_block_73 = bt_base_31 + physical_block_71  # load0_physical_block: stage 0, partition 0 (group 0)
        physical_block_75 = gl.load(physical_block_73, mask=mask_n_68, other=0)  # load0_physical_block: stage 0, partition 0 (group 0)
        slot = offs_n_65 % 16  # load2_K_load: stage 0, partition 0 (group 0)
        kv_offset_78 = physical_block_75.to(gl.int64)  # load2_K_load: stage 0, partition 0 (group 0)
        kv_offset_82 = slot * stride_ks  # load2_K_load: stage 0, partition 0 (group 0)
        kv_offset_80 = kv_offset_78 * kv_offset  # load2_K_load: stage 0, partition 0 (group 0)
        kv_offset_84 = kv_offset_82.to(gl.int64)  # load2_K_load: stage 0, partition 0 (group 0)
        kv_offset_86 = kv_offset_80 + kv_offset_84  # load2_K_load: stage 0, partition 0 (group 0)
        kv_offset_88 = kv_offset_86 + kv_offset_42  # load2_K_load: stage 0, partition 0 (group 0)
        K_load_92 = gl.expand_dims(kv_offset_88, 0)  # load2_K_load: stage 0, partition 0 (group 0)
        K_load_93 = K_cache + K_load_92  # load2_K_load: stage 0, partition 0 (group 0)
        K_load_90 = gl.expand_dims(mask_n_68, 0)  # load2_K_load: stage 0, partition 0 (group 0)
        K_load_94 = K_load_93.broadcast_to([128, 64])  # load2_K_load: stage 0, partition 0 (group 0)
        K_load_95 = K_load_94 + K_load_47  # load2_K_load: stage 0, partition 0 (group 0)
        K_load_96 = K_load_90.broadcast_to([128, 64])  # load2_K_load: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_K_load: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(K_load_97_as.index((0 - 0) % 2), K_load_95, mask=K_load_96)  # load2_K_load: stage 0, partition 0 (group 0)
        else:  # load2_K_load: stage 0, partition 0 (group 0)
            K_load_97_as.index((0 - 0) % 2).store(gl.load(K_load_95, mask=K_load_96, other=0.0))  # load2_K_load: stage 0, partition 0 (group 0)
        offs_n_67 = (0 + (0 - 0) * 64) + offs_n_33  # load1_physical_block: stage 0, partition 0 (group 0)
        physical_block_72 = offs_n_67 // 16  # load1_physical_block: stage 0, partition 0 (group 0)
        mask_n_70 = offs_n_67 < seq_len_28  # load1_physical_block: stage 0, partition 0 (group 0)
        physical_block_74 = bt_base_31 + physical_block_72  # load1_physical_block: stage 0, partition 0 (group 0)
        physical_block_76 = gl.load(physical_block_74, mask=mask_n_70, other=0)  # load1_physical_block: stage 0, partition 0 (group 0)
        slot_77 = offs_n_67 % 16  # load3_V_load: stage 0, partition 0 (group 0)
        kv_offset_79 = physical_block_76.to(gl.int64)  # load3_V_load: stage 0, partition 0 (group 0)
        kv_offset_83 = slot_77 * stride_ks  # load3_V_load: stage 0, partition 0 (group 0)
        kv_offset_81 = kv_offset_79 * kv_offset  # load3_V_load: stage 0, partition 0 (group 0)
        kv_offset_85 = kv_offset_83.to(gl.int64)  # load3_V_load: stage 0, partition 0 (group 0)
        kv_offset_87 = kv_offset_81 + kv_offset_85  # load3_V_load: stage 0, partition 0 (group 0)
        kv_offset_89 = kv_offset_87 + kv_offset_42  # load3_V_load: stage 0, partition 0 (group 0)
        V_load_102 = gl.expand_dims(kv_offset_89, 1)  # load3_V_load: stage 0, partition 0 (group 0)
        V_load_103 = V_cache + V_load_102  # load3_V_load: stage 0, partition 0 (group 0)
        V_load_101 = gl.expand_dims(mask_n_70, 1)  # load3_V_load: stage 0, partition 0 (group 0)
        V_load_104 = V_load_103.broadcast_to([64, 128])  # load3_V_load: stage 0, partition 0 (group 0)
        V_load_105 = V_load_104 + V_load_48  # load3_V_load: stage 0, partition 0 (group 0)
        V_load_106 = V_load_101.broadcast_to([64, 128])  # load3_V_load: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load3_V_load: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(V_load_107_as.index((0 - 0) % 2), V_load_105, mask=V_load_106)  # load3_V_load: stage 0, partition 0 (group 0)
        else:  # load3_V_load: stage 0, partition 0 (group 0)
            V_load_107_as.index((0 - 0) % 2).store(gl.load(V_load_105, mask=V_load_106, other=0.0))  # load3_V_load: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        L_125_p1 = L_125
        acc_129_p1 = acc_129
        m_j_116_p1 = m_j_116
        for twill_b in range(1, twill_n):
            offs_n_62 = (0 + (twill_b - 0) * 64)  # load0_physical_block: stage 0, partition 0 (group 0)
            offs_n_65 = offs_n_62 + offs_n  # load0_physical_block: stage 0, partition 0 (group 0)
            physical_block_71 = offs_n_65 // 16  # load0_physical_block: stage 0, partition 0 (group 0)
            mask_n_68 = offs_n_65 < seq_len_28  # load0_physical_block: stage 0, partition 0 (group 0)
            physical_block_73 = bt_base_31 + physical_block_71  # load0_physical_block: stage 0, partition 0 (group 0)
            physical_block_75 = gl.load(physical_block_73, mask=mask_n_68, other=0)  # load0_physical_block: stage 0, partition 0 (group 0)
            slot = offs_n_65 % 16  # load2_K_load: stage 0, partition 0 (group 0)
            kv_offset_78 = physical_block_75.to(gl.int64)  # load2_K_load: stage 0, partition 0 (group 0)
            kv_offset_82 = slot * stride_ks  # load2_K_load: stage 0, partition 0 (group 0)
            kv_offset_80 = kv_offset_78 * kv_offset  # load2_K_load: stage 0, partition 0 (group 0)
            kv_offset_84 = kv_offset_82.to(gl.int64)  # load2_K_load: stage 0, partition 0 (group 0)
            kv_offset_86 = kv_offset_80 + kv_offset_84  # load2_K_load: stage 0, partition 0 (group 0)
            kv_offset_88 = kv_offset_86 + kv_offset_42  # load2_K_load: stage 0, partition 0 (group 0)
            K_load_92 = gl.expand_dims(kv_offset_88, 0)  # load2_K_load: stage 0, partition 0 (group 0)
            K_load_93 = K_cache + K_load_92  # load2_K_load: stage 0, partition 0 (group 0)
            K_load_90 = gl.expand_dims(mask_n_68, 0)  # load2_K_load: stage 0, partition 0 (group 0)
            K_load_94 = K_load_93.broadcast_to([128, 64])  # load2_K_load: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            K_load_97 = K_load_97_as.index((twill_b - 1) % 2).load(L10)  # load2_K_load: stage 1, partition 0 (group 0)
            K_load_95 = K_load_94 + K_load_47  # load2_K_load: stage 0, partition 0 (group 0)
            K_load_96 = K_load_90.broadcast_to([128, 64])  # load2_K_load: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_K_load: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(K_load_97_as.index((twill_b - 0) % 2), K_load_95, mask=K_load_96)  # load2_K_load: stage 0, partition 0 (group 0)
            else:  # load2_K_load: stage 0, partition 0 (group 0)
                K_load_97_as.index((twill_b - 0) % 2).store(gl.load(K_load_95, mask=K_load_96, other=0.0))  # load2_K_load: stage 0, partition 0 (group 0)
            K_98 = K_load_97.to(gl.float32)  # convert0_K: stage 1, partition 0 (group 0)
            K_99 = K_98 * k_scale_val  # elementwise1_K: stage 1, partition 0 (group 0)
            K_100 = K_99.to(gl.bfloat16)  # convert1_K: stage 1, partition 0 (group 0)
            K_111 = gl.convert_layout(K_100, L11)  # convert1_K: stage 1, partition 0 (group 0)
            S_112 = mma_v2(Q_tile_49, K_111, gl.full([16, 64], 0.0, gl.float32, layout=L9))  # dot0_S: stage 1, partition 0 (group 0)
            offs_n_63 = (0 + (twill_b - 1) * 64)  # elementwise0_S: stage 1, partition 0 (group 0)
            offs_n_66 = offs_n_63 + offs_n_32  # elementwise0_S: stage 1, partition 0 (group 0)
            mask_n_69 = offs_n_66 < seq_len_28  # elementwise0_S: stage 1, partition 0 (group 0)
            K_load_91 = gl.expand_dims(mask_n_69, 0)  # elementwise0_S: stage 1, partition 0 (group 0)
            S_113 = sm_scale * S_112  # elementwise0_S: stage 1, partition 0 (group 0)
            S_114 = K_load_91.broadcast_to([16, 64])  # elementwise0_S: stage 1, partition 0 (group 0)
            S_115 = gl.where(S_114, S_113, float("-inf"))  # elementwise0_S: stage 1, partition 0 (group 0)
            m_j = gl.max(S_115, axis=1)  # reduce0_m_j: stage 1, partition 0 (group 0)
            m_j_116 = gl.maximum(m_j_116_p1, m_j)  # elementwise3_m_j: stage 1, partition 0 (group 0)
            P = gl.expand_dims(m_j_116, 1)  # sfu0_P: stage 1, partition 0 (group 0)
            P_117 = P.broadcast_to([16, 64])  # sfu0_P: stage 1, partition 0 (group 0)
            P_118 = S_115 - P_117  # sfu0_P: stage 1, partition 0 (group 0)
            P_119 = gl.exp(P_118)  # sfu0_P: stage 1, partition 0 (group 0)
            l_j = gl.sum(P_119, axis=1)  # reduce1_l_j: stage 1, partition 0 (group 0)
            alpha = m_j_116_p1 - m_j_116  # sfu1_alpha: stage 1, partition 0 (group 0)
            alpha_120 = gl.exp(alpha)  # sfu1_alpha: stage 1, partition 0 (group 0)
            acc_126 = P_119.to(gl.bfloat16)  # convert4_acc: stage 1, partition 0 (group 0)
            acc_127 = gl.convert_layout(acc_126, L7)  # convert4_acc: stage 1, partition 0 (group 0)
            L_124 = L_125_p1 * alpha_120  # elementwise5_L: stage 1, partition 0 (group 0)
            L_125 = L_124 + l_j  # elementwise5_L: stage 1, partition 0 (group 0)
            acc_121 = gl.expand_dims(alpha_120, 1)  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_122 = acc_121.broadcast_to([16, 128])  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_123 = acc_129_p1 * acc_122  # elementwise4_acc: stage 1, partition 0 (group 0)
            offs_n_64 = (0 + (twill_b - 0) * 64)  # load1_physical_block: stage 0, partition 0 (group 0)
            offs_n_67 = offs_n_64 + offs_n_33  # load1_physical_block: stage 0, partition 0 (group 0)
            physical_block_72 = offs_n_67 // 16  # load1_physical_block: stage 0, partition 0 (group 0)
            mask_n_70 = offs_n_67 < seq_len_28  # load1_physical_block: stage 0, partition 0 (group 0)
            physical_block_74 = bt_base_31 + physical_block_72  # load1_physical_block: stage 0, partition 0 (group 0)
            physical_block_76 = gl.load(physical_block_74, mask=mask_n_70, other=0)  # load1_physical_block: stage 0, partition 0 (group 0)
            slot_77 = offs_n_67 % 16  # load3_V_load: stage 0, partition 0 (group 0)
            kv_offset_79 = physical_block_76.to(gl.int64)  # load3_V_load: stage 0, partition 0 (group 0)
            kv_offset_83 = slot_77 * stride_ks  # load3_V_load: stage 0, partition 0 (group 0)
            kv_offset_81 = kv_offset_79 * kv_offset  # load3_V_load: stage 0, partition 0 (group 0)
            kv_offset_85 = kv_offset_83.to(gl.int64)  # load3_V_load: stage 0, partition 0 (group 0)
            kv_offset_87 = kv_offset_81 + kv_offset_85  # load3_V_load: stage 0, partition 0 (group 0)
            kv_offset_89 = kv_offset_87 + kv_offset_42  # load3_V_load: stage 0, partition 0 (group 0)
            V_load_102 = gl.expand_dims(kv_offset_89, 1)  # load3_V_load: stage 0, partition 0 (group 0)
            V_load_103 = V_cache + V_load_102  # load3_V_load: stage 0, partition 0 (group 0)
            V_load_107 = V_load_107_as.index((twill_b - 1) % 2).load(L12)  # load3_V_load: stage 1, partition 0 (group 0)
            V_load_101 = gl.expand_dims(mask_n_70, 1)  # load3_V_load: stage 0, partition 0 (group 0)
            V_load_104 = V_load_103.broadcast_to([64, 128])  # load3_V_load: stage 0, partition 0 (group 0)
            V_load_105 = V_load_104 + V_load_48  # load3_V_load: stage 0, partition 0 (group 0)
            V_load_106 = V_load_101.broadcast_to([64, 128])  # load3_V_load: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load3_V_load: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(V_load_107_as.index((twill_b - 0) % 2), V_load_105, mask=V_load_106)  # load3_V_load: stage 0, partition 0 (group 0)
            else:  # load3_V_load: stage 0, partition 0 (group 0)
                V_load_107_as.index((twill_b - 0) % 2).store(gl.load(V_load_105, mask=V_load_106, other=0.0))  # load3_V_load: stage 0, partition 0 (group 0)
            V_108 = V_load_107.to(gl.float32)  # convert2_V: stage 1, partition 0 (group 0)
            V_109 = V_108 * v_scale_val  # elementwise2_V: stage 1, partition 0 (group 0)
            V_110 = V_109.to(gl.bfloat16)  # convert3_V: stage 1, partition 0 (group 0)
            V_128 = gl.convert_layout(V_110, L11)  # convert3_V: stage 1, partition 0 (group 0)
            acc_129 = mma_v2(acc_127, V_128, acc_123)  # dot1_acc: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            L_125_p1 = L_125
            acc_129_p1 = acc_129
            m_j_116_p1 = m_j_116
        async_copy.wait_group(0)
        gl.thread_barrier()
        K_load_97 = K_load_97_as.index(((twill_n - 1 + 1) - 1) % 2).load(L10)  # load2_K_load: stage 1, partition 0 (group 0)
        K_98 = K_load_97.to(gl.float32)  # convert0_K: stage 1, partition 0 (group 0)
        K_99 = K_98 * k_scale_val  # elementwise1_K: stage 1, partition 0 (group 0)
        K_100 = K_99.to(gl.bfloat16)  # convert1_K: stage 1, partition 0 (group 0)
        K_111 = gl.convert_layout(K_100, L11)  # convert1_K: stage 1, partition 0 (group 0)
        S_112 = mma_v2(Q_tile_49, K_111, gl.full([16, 64], 0.0, gl.float32, layout=L9))  # dot0_S: stage 1, partition 0 (group 0)
        offs_n_63 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_S: stage 1, partition 0 (group 0)
        offs_n_66 = offs_n_63 + offs_n_32  # elementwise0_S: stage 1, partition 0 (group 0)
        mask_n_69 = offs_n_66 < seq_len_28  # elementwise0_S: stage 1, partition 0 (group 0)
        K_load_91 = gl.expand_dims(mask_n_69, 0)  # elementwise0_S: stage 1, partition 0 (group 0)
        S_113 = sm_scale * S_112  # elementwise0_S: stage 1, partition 0 (group 0)
        S_114 = K_load_91.broadcast_to([16, 64])  # elementwise0_S: stage 1, partition 0 (group 0)
        S_115 = gl.where(S_114, S_113, float("-inf"))  # elementwise0_S: stage 1, partition 0 (group 0)
        m_j = gl.max(S_115, axis=1)  # reduce0_m_j: stage 1, partition 0 (group 0)
        m_j_116 = gl.maximum(m_j_116_p1, m_j)  # elementwise3_m_j: stage 1, partition 0 (group 0)
        P = gl.expand_dims(m_j_116, 1)  # sfu0_P: stage 1, partition 0 (group 0)
        P_117 = P.broadcast_to([16, 64])  # sfu0_P: stage 1, partition 0 (group 0)
        P_118 = S_115 - P_117  # sfu0_P: stage 1, partition 0 (group 0)
        P_119 = gl.exp(P_118)  # sfu0_P: stage 1, partition 0 (group 0)
        l_j = gl.sum(P_119, axis=1)  # reduce1_l_j: stage 1, partition 0 (group 0)
        alpha = m_j_116_p1 - m_j_116  # sfu1_alpha: stage 1, partition 0 (group 0)
        alpha_120 = gl.exp(alpha)  # sfu1_alpha: stage 1, partition 0 (group 0)
        acc_126 = P_119.to(gl.bfloat16)  # convert4_acc: stage 1, partition 0 (group 0)
        acc_127 = gl.convert_layout(acc_126, L7)  # convert4_acc: stage 1, partition 0 (group 0)
        L_124 = L_125_p1 * alpha_120  # elementwise5_L: stage 1, partition 0 (group 0)
        L_125 = L_124 + l_j  # elementwise5_L: stage 1, partition 0 (group 0)
        acc_121 = gl.expand_dims(alpha_120, 1)  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_122 = acc_121.broadcast_to([16, 128])  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_123 = acc_129_p1 * acc_122  # elementwise4_acc: stage 1, partition 0 (group 0)
        V_load_107 = V_load_107_as.index(((twill_n - 1 + 1) - 1) % 2).load(L12)  # load3_V_load: stage 1, partition 0 (group 0)
        V_108 = V_load_107.to(gl.float32)  # convert2_V: stage 1, partition 0 (group 0)
        V_109 = V_108 * v_scale_val  # elementwise2_V: stage 1, partition 0 (group 0)
        V_110 = V_109.to(gl.bfloat16)  # convert3_V: stage 1, partition 0 (group 0)
        V_128 = gl.convert_layout(V_110, L11)  # convert3_V: stage 1, partition 0 (group 0)
        acc_129 = mma_v2(acc_127, V_128, acc_123)  # dot1_acc: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        L_125_p1 = L_125
        acc_129_p1 = acc_129
        m_j_116_p1 = m_j_116
    else:
        m_j_116_p1 = gl.full([16], float("-inf"), gl.float32, layout=L8)
        L_125_p1 = gl.full([16], 1.0, gl.float32, layout=L8)
        acc_129_p1 = gl.full([16, 128], 0.0, gl.float32, layout=L9)
    acc_50 = gl.expand_dims(L_125_p1, 1)
    acc_51 = acc_50.broadcast_to([16, 128])
    acc_52 = acc_129_p1 / acc_51
    o_offset = seq_idx * stride_ob
    o_offset_54 = q_offset_11 * stride_oh
    o_offset_56 = o_offset + o_offset_54
    o_offset_57 = o_offset_56.broadcast_to([16, 128])
    o_offset_58 = o_offset_57 + q_offset_21
    v1 = Out + o_offset_58
    v2 = acc_52.to(gl.bfloat16)
    v3 = gl.convert_layout(v2, L13)
    gl.store(v1, v3, mask=Q_tile_26)

@gluon.jit
def twill_kernel(Q, K_cache, V_cache, block_tables, seq_lens, k_scale, v_scale, Out, sm_scale, num_queries_per_kv, stride_qb, stride_qh, stride_bt, stride_kb, stride_ks, stride_kh, stride_ob, stride_oh, TWILL_COPY: gl.constexpr):
    consumer_0(Q, K_cache, V_cache, block_tables, seq_lens, k_scale, v_scale, Out, sm_scale, num_queries_per_kv, stride_qb, stride_qh, stride_bt, stride_kb, stride_ks, stride_kh, stride_ob, stride_oh, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K_cache', 'V_cache', 'block_tables', 'seq_lens', 'k_scale', 'v_scale', 'Out', 'sm_scale', 'num_queries_per_kv', 'stride_qb', 'stride_qh', 'stride_bt', 'stride_kb', 'stride_ks', 'stride_kh', 'stride_ob', 'stride_oh', 'HEAD', 'PAGE_SIZE', 'BLOCK_H', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K_cache', 'V_cache', 'block_tables', 'seq_lens', 'k_scale', 'v_scale', 'Out', 'sm_scale', 'num_queries_per_kv', 'stride_qb', 'stride_qh', 'stride_bt', 'stride_kb', 'stride_ks', 'stride_kh', 'stride_ob', 'stride_oh']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K_cache', 'V_cache', 'block_tables', 'seq_lens', 'k_scale', 'v_scale', 'Out', 'sm_scale', 'num_queries_per_kv', 'stride_qb', 'stride_qh', 'stride_bt', 'stride_kb', 'stride_ks', 'stride_kh', 'stride_ob', 'stride_oh']   # the arguments a launch key reads
CONSTEXPRS = {'HEAD': 128, 'PAGE_SIZE': 16, 'BLOCK_H': 16, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K_cache', 'V_cache', 'stride_kb', 'stride_ks', 'stride_kh']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
