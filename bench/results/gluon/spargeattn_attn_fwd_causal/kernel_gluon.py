"""_attn_fwd, written by twill from its joint schedule: I=90 L=90 (optimal), 2230 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 105 per thread)
- shared memory: 16400 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at spargeattn_attn_fwd_causal.py:65 (in a helper called at line 141) (TTGIR line 264) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=90, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 32])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 32])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L9 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 32]))
L10 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]), k_width=2))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, K_blkid, V, Q_scale, K_scale, PVThreshd, Out, stride_qz, stride_qh, stride_qn, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_on, stride_kbidq, stride_kbidk, qo_len, kv_len):
    twill_base = 0
    start_m = gl.program_id(0)
    off_z = gl.program_id(2)
    off_z_4 = gl.cast(off_z, gl.int64)
    off_h = gl.program_id(1)
    off_h_5 = gl.cast(off_h, gl.int64)
    q_scale_offset_6 = off_z_4 * 32
    q_scale_offset_7 = q_scale_offset_6 + off_h_5
    q_scale_offset_8 = qo_len + 127
    q_scale_offset_9 = q_scale_offset_8 // 128
    q_scale_offset_10 = gl.cast(q_scale_offset_9, gl.int64)
    q_scale_offset_11 = q_scale_offset_7 * q_scale_offset_10
    k_scale_offset_12 = off_z_4 * 8
    k_scale_offset_13 = off_h_5 // 4
    k_scale_offset_14 = k_scale_offset_12 + k_scale_offset_13
    k_scale_offset_15 = kv_len + 63
    k_scale_offset_16 = k_scale_offset_15 // 64
    k_scale_offset_17 = gl.cast(k_scale_offset_16, gl.int64)
    k_scale_offset_18 = k_scale_offset_14 * k_scale_offset_17
    k_bid_offset = gl.cast(stride_kbidq, gl.int64)
    k_bid_offset_19 = k_scale_offset_14 * k_bid_offset
    offs_m = start_m * 128
    offs_m_20 = gl.arange(0, 128, layout=L0)
    offs_m_21 = gl.arange(0, 128, layout=L1)
    offs_m_22 = gl.arange(0, 128, layout=L2)
    offs_m_26 = offs_m + offs_m_20
    offs_m_27 = offs_m + offs_m_21
    offs_m_28 = offs_m + offs_m_22
    Q_ptrs = gl.cast(stride_qz, gl.int64)
    Q_ptrs_29 = off_z_4 * Q_ptrs
    Q_ptrs_30 = gl.cast(stride_qh, gl.int64)
    Q_ptrs_31 = off_h_5 * Q_ptrs_30
    Q_ptrs_32 = Q_ptrs_29 + Q_ptrs_31
    Q_ptrs_33 = Q + Q_ptrs_32
    Q_ptrs_34 = gl.expand_dims(offs_m_26, 1)
    Q_ptrs_35 = gl.expand_dims(offs_m_27, 1)
    Q_ptrs_36 = gl.expand_dims(offs_m_28, 1)
    Q_ptrs_38 = Q_ptrs_34 * stride_qn
    Q_ptrs_40 = Q_ptrs_33 + Q_ptrs_38
    Q_ptrs_41 = gl.arange(0, 128, layout=L3)
    Q_ptrs_42 = gl.arange(0, 128, layout=L4)
    Q_ptrs_43 = gl.expand_dims(Q_ptrs_41, 0)
    Q_ptrs_44 = gl.expand_dims(Q_ptrs_42, 0)
    Q_ptrs_45 = Q_ptrs_40.broadcast_to([128, 128])
    Q_ptrs_46 = Q_ptrs_43.broadcast_to([128, 128])
    Q_ptrs_47 = Q_ptrs_44.broadcast_to([128, 128])
    Q_ptrs_48 = Q_ptrs_45 + Q_ptrs_46
    Q_scale_ptr = Q_scale + q_scale_offset_11
    Q_scale_ptr_49 = Q_scale_ptr + start_m
    K_ptrs = gl.cast(stride_kz, gl.int64)
    K_ptrs_50 = off_z_4 * K_ptrs
    K_ptrs_51 = gl.cast(stride_kh, gl.int64)
    K_ptrs_52 = k_scale_offset_13 * K_ptrs_51
    K_ptrs_53 = K_ptrs_50 + K_ptrs_52
    K_ptrs_54 = K + K_ptrs_53
    K_ptrs_55 = gl.arange(0, 64, layout=L5)
    K_ptrs_56 = gl.arange(0, 64, layout=L6)
    K_ptrs_57 = gl.expand_dims(K_ptrs_55, 0)
    K_ptrs_58 = gl.expand_dims(K_ptrs_56, 0)
    K_ptrs_60 = K_ptrs_57 * stride_kn
    K_ptrs_62 = K_ptrs_54 + K_ptrs_60
    K_ptrs_63 = gl.arange(0, 128, layout=L7)
    K_ptrs_64 = gl.expand_dims(K_ptrs_63, 1)
    K_ptrs_65 = K_ptrs_62.broadcast_to([128, 64])
    K_ptrs_66 = K_ptrs_64.broadcast_to([128, 64])
    K_ptrs_67 = K_ptrs_65 + K_ptrs_66
    K_scale_ptr = K_scale + k_scale_offset_18
    K_bid_ptr = K_blkid + k_bid_offset_19
    K_bid_ptr_68 = start_m * stride_kbidk
    K_bid_ptr_69 = K_bid_ptr + K_bid_ptr_68
    V_ptrs = gl.cast(stride_vz, gl.int64)
    V_ptrs_70 = off_z_4 * V_ptrs
    V_ptrs_71 = gl.cast(stride_vh, gl.int64)
    V_ptrs_72 = k_scale_offset_13 * V_ptrs_71
    V_ptrs_73 = V_ptrs_70 + V_ptrs_72
    V_ptrs_74 = V + V_ptrs_73
    V_ptrs_75 = gl.arange(0, 64, layout=L1)
    V_ptrs_76 = gl.expand_dims(V_ptrs_75, 1)
    V_ptrs_78 = V_ptrs_76 * stride_vn
    V_ptrs_80 = V_ptrs_74 + V_ptrs_78
    V_ptrs_81 = V_ptrs_80.broadcast_to([64, 128])
    V_ptrs_82 = Q_ptrs_44.broadcast_to([64, 128])
    V_ptrs_83 = V_ptrs_81 + V_ptrs_82
    O_block_ptr = gl.cast(stride_oz, gl.int64)
    O_block_ptr_84 = off_z_4 * O_block_ptr
    O_block_ptr_85 = gl.cast(stride_oh, gl.int64)
    O_block_ptr_86 = off_h_5 * O_block_ptr_85
    O_block_ptr_87 = O_block_ptr_84 + O_block_ptr_86
    O_block_ptr_88 = Out + O_block_ptr_87
    O_block_ptr_90 = Q_ptrs_35 * stride_on
    O_block_ptr_92 = O_block_ptr_88 + O_block_ptr_90
    O_block_ptr_93 = O_block_ptr_92.broadcast_to([128, 128])
    O_block_ptr_94 = O_block_ptr_93 + Q_ptrs_47
    q_96 = Q_ptrs_34 < qo_len
    q_97 = Q_ptrs_35 < qo_len
    q_98 = q_96.broadcast_to([128, 128])
    q_99 = q_97.broadcast_to([128, 128])
    q_100 = gl.load(Q_ptrs_48, mask=q_98)
    q_101 = gl.allocate_shared_memory(gl.int8, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False), q_100)
    fence_async_shared()
    q_scale = gl.load(Q_scale_ptr_49)
    K_ptrs_102 = stride_kn * 64
    V_ptrs_104 = stride_vn * 64
    twill_n = (offs_m - 0 + 64 - 1) // 64
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        v5_r0 = gl.full([128, 128], 0.0, gl.float32, layout=L8)
        v5_r1 = gl.full([128], 1.0, gl.float32, layout=L2)
        v5_r2 = gl.full([128], float("-inf"), gl.float32, layout=L2)
        K_scale_ptr_136 = K_scale_ptr
        K_ptrs_135 = K_ptrs_67
        V_ptrs_137 = V_ptrs_83
        kbid = (0 + (0 - 0) * 64) // 64  # load0_kbid: stage 0, partition 0 (group 0)
        kbid_131 = K_bid_ptr_69 + kbid  # load0_kbid: stage 0, partition 0 (group 0)
        kbid_132 = gl.cast(kbid_131, gl.pointer_type(gl.int8), bitcast=True)  # load0_kbid: stage 0, partition 0 (group 0)
        kbid_133 = gl.load(kbid_132)  # load0_kbid: stage 0, partition 0 (group 0)
        K_ptrs_135_p1 = K_ptrs_135
        K_scale_ptr_136_p1 = K_scale_ptr_136
        V_ptrs_137_p1 = V_ptrs_137
        kbid_133_p1 = kbid_133
        v5_r0_p1 = v5_r0
        v5_r1_p1 = v5_r1
        v5_r2_p1 = v5_r2
        for twill_b in range(1, twill_n):
            kbid = (0 + (twill_b - 0) * 64) // 64  # load0_kbid: stage 0, partition 0 (group 0)
            kbid_131 = K_bid_ptr_69 + kbid  # load0_kbid: stage 0, partition 0 (group 0)
            kbid_132 = gl.cast(kbid_131, gl.pointer_type(gl.int8), bitcast=True)  # load0_kbid: stage 0, partition 0 (group 0)
            kbid_133 = gl.load(kbid_132)  # load0_kbid: stage 0, partition 0 (group 0)
            kbid_134 = kbid_133_p1 != 0  # elementwise0_kbid: stage 1, partition 0 (group 0)
            if kbid_134:  # elementwise1: stage 1, partition 0 (group 0)
                k_mask = kv_len - (0 + (twill_b - 1) * 64)  # elementwise1: stage 1, partition 0 (group 0)
                k_mask_139 = K_ptrs_57 < k_mask  # elementwise1: stage 1, partition 0 (group 0)
                k = k_mask_139.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
                k_140 = gl.load(K_ptrs_135_p1, mask=k)  # elementwise1: stage 1, partition 0 (group 0)
                k_141 = gl.allocate_shared_memory(gl.int8, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True), k_140)  # elementwise1: stage 1, partition 0 (group 0)
                fence_async_shared()  # elementwise1: stage 1, partition 0 (group 0)
                k_scale = gl.load(K_scale_ptr_136_p1)  # elementwise1: stage 1, partition 0 (group 0)
                qk = warpgroup_mma(q_101, k_141, gl.full([128, 64], 0, gl.int32, layout=L9))  # elementwise1: stage 1, partition 0 (group 0)
                qk_142 = qk.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
                qk_144 = qk_142 * q_scale  # elementwise1: stage 1, partition 0 (group 0)
                qk_146 = qk_144 * k_scale  # elementwise1: stage 1, partition 0 (group 0)
                local_m = gl.max(qk_146, axis=1)  # elementwise1: stage 1, partition 0 (group 0)
                old_m = gl.maximum(v5_r2_p1, local_m)  # elementwise1: stage 1, partition 0 (group 0)
                qk_147 = gl.expand_dims(old_m, 1)  # elementwise1: stage 1, partition 0 (group 0)
                qk_148 = qk_147.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
                qk_149 = qk_146 - qk_148  # elementwise1: stage 1, partition 0 (group 0)
                p = gl.exp2(qk_149)  # elementwise1: stage 1, partition 0 (group 0)
                l_ij = gl.sum(p, axis=1)  # elementwise1: stage 1, partition 0 (group 0)
                alpha = v5_r2_p1 - old_m  # elementwise1: stage 1, partition 0 (group 0)
                alpha_150 = gl.exp2(alpha)  # elementwise1: stage 1, partition 0 (group 0)
                l_i_151 = v5_r1_p1 * alpha_150  # elementwise1: stage 1, partition 0 (group 0)
                l_i_152 = l_i_151 + l_ij  # elementwise1: stage 1, partition 0 (group 0)
                acc_153 = gl.expand_dims(alpha_150, 1)  # elementwise1: stage 1, partition 0 (group 0)
                acc_154 = gl.convert_layout(acc_153, L8)  # elementwise1: stage 1, partition 0 (group 0)
                acc_155 = acc_154.broadcast_to([128, 128])  # elementwise1: stage 1, partition 0 (group 0)
                acc_156 = v5_r0_p1 * acc_155  # elementwise1: stage 1, partition 0 (group 0)
                v_157 = V_ptrs_76 < k_mask  # elementwise1: stage 1, partition 0 (group 0)
                v_158 = v_157.broadcast_to([64, 128])  # elementwise1: stage 1, partition 0 (group 0)
                v_159 = gl.load(V_ptrs_137_p1, mask=v_158)  # elementwise1: stage 1, partition 0 (group 0)
                v_160 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v_159)  # elementwise1: stage 1, partition 0 (group 0)
                fence_async_shared()  # elementwise1: stage 1, partition 0 (group 0)
                p_161 = p.to(gl.float16)  # elementwise1: stage 1, partition 0 (group 0)
                p_162 = gl.convert_layout(p_161, L10)  # elementwise1: stage 1, partition 0 (group 0)
                acc_163 = warpgroup_mma(p_162, v_160, gl.full([128, 128], 0.0, gl.float16, layout=L8))  # elementwise1: stage 1, partition 0 (group 0)
                acc_164 = acc_163.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
                acc_165 = acc_156 + acc_164  # elementwise1: stage 1, partition 0 (group 0)
                v5_r0 = acc_165  # elementwise1: stage 1, partition 0 (group 0)
                v5_r1 = l_i_152  # elementwise1: stage 1, partition 0 (group 0)
                v5_r2 = old_m  # elementwise1: stage 1, partition 0 (group 0)
            else:  # elementwise1: stage 1, partition 0 (group 0)
                v5_r0 = v5_r0_p1  # elementwise1: stage 1, partition 0 (group 0)
                v5_r1 = v5_r1_p1  # elementwise1: stage 1, partition 0 (group 0)
                v5_r2 = v5_r2_p1  # elementwise1: stage 1, partition 0 (group 0)
            K_ptrs_135 = K_ptrs_135_p1 + K_ptrs_102  # elementwise1: stage 1, partition 0 (group 0)
            K_scale_ptr_136 = K_scale_ptr_136_p1 + 1  # elementwise1: stage 1, partition 0 (group 0)
            V_ptrs_137 = V_ptrs_137_p1 + V_ptrs_104  # elementwise1: stage 1, partition 0 (group 0)
            K_ptrs_135_p1 = K_ptrs_135
            K_scale_ptr_136_p1 = K_scale_ptr_136
            V_ptrs_137_p1 = V_ptrs_137
            kbid_133_p1 = kbid_133
            v5_r0_p1 = v5_r0
            v5_r1_p1 = v5_r1
            v5_r2_p1 = v5_r2
        kbid_134 = kbid_133_p1 != 0  # elementwise0_kbid: stage 1, partition 0 (group 0)
        if kbid_134:  # elementwise1: stage 1, partition 0 (group 0)
            k_mask = kv_len - (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise1: stage 1, partition 0 (group 0)
            k_mask_139 = K_ptrs_57 < k_mask  # elementwise1: stage 1, partition 0 (group 0)
            k = k_mask_139.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
            k_140 = gl.load(K_ptrs_135_p1, mask=k)  # elementwise1: stage 1, partition 0 (group 0)
            k_141 = gl.allocate_shared_memory(gl.int8, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True), k_140)  # elementwise1: stage 1, partition 0 (group 0)
            fence_async_shared()  # elementwise1: stage 1, partition 0 (group 0)
            k_scale = gl.load(K_scale_ptr_136_p1)  # elementwise1: stage 1, partition 0 (group 0)
            qk = warpgroup_mma(q_101, k_141, gl.full([128, 64], 0, gl.int32, layout=L9))  # elementwise1: stage 1, partition 0 (group 0)
            qk_142 = qk.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
            qk_144 = qk_142 * q_scale  # elementwise1: stage 1, partition 0 (group 0)
            qk_146 = qk_144 * k_scale  # elementwise1: stage 1, partition 0 (group 0)
            local_m = gl.max(qk_146, axis=1)  # elementwise1: stage 1, partition 0 (group 0)
            old_m = gl.maximum(v5_r2_p1, local_m)  # elementwise1: stage 1, partition 0 (group 0)
            qk_147 = gl.expand_dims(old_m, 1)  # elementwise1: stage 1, partition 0 (group 0)
            qk_148 = qk_147.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
            qk_149 = qk_146 - qk_148  # elementwise1: stage 1, partition 0 (group 0)
            p = gl.exp2(qk_149)  # elementwise1: stage 1, partition 0 (group 0)
            l_ij = gl.sum(p, axis=1)  # elementwise1: stage 1, partition 0 (group 0)
            alpha = v5_r2_p1 - old_m  # elementwise1: stage 1, partition 0 (group 0)
            alpha_150 = gl.exp2(alpha)  # elementwise1: stage 1, partition 0 (group 0)
            l_i_151 = v5_r1_p1 * alpha_150  # elementwise1: stage 1, partition 0 (group 0)
            l_i_152 = l_i_151 + l_ij  # elementwise1: stage 1, partition 0 (group 0)
            acc_153 = gl.expand_dims(alpha_150, 1)  # elementwise1: stage 1, partition 0 (group 0)
            acc_154 = gl.convert_layout(acc_153, L8)  # elementwise1: stage 1, partition 0 (group 0)
            acc_155 = acc_154.broadcast_to([128, 128])  # elementwise1: stage 1, partition 0 (group 0)
            acc_156 = v5_r0_p1 * acc_155  # elementwise1: stage 1, partition 0 (group 0)
            v_157 = V_ptrs_76 < k_mask  # elementwise1: stage 1, partition 0 (group 0)
            v_158 = v_157.broadcast_to([64, 128])  # elementwise1: stage 1, partition 0 (group 0)
            v_159 = gl.load(V_ptrs_137_p1, mask=v_158)  # elementwise1: stage 1, partition 0 (group 0)
            v_160 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v_159)  # elementwise1: stage 1, partition 0 (group 0)
            fence_async_shared()  # elementwise1: stage 1, partition 0 (group 0)
            p_161 = p.to(gl.float16)  # elementwise1: stage 1, partition 0 (group 0)
            p_162 = gl.convert_layout(p_161, L10)  # elementwise1: stage 1, partition 0 (group 0)
            acc_163 = warpgroup_mma(p_162, v_160, gl.full([128, 128], 0.0, gl.float16, layout=L8))  # elementwise1: stage 1, partition 0 (group 0)
            acc_164 = acc_163.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
            acc_165 = acc_156 + acc_164  # elementwise1: stage 1, partition 0 (group 0)
            v5_r0 = acc_165  # elementwise1: stage 1, partition 0 (group 0)
            v5_r1 = l_i_152  # elementwise1: stage 1, partition 0 (group 0)
            v5_r2 = old_m  # elementwise1: stage 1, partition 0 (group 0)
        else:  # elementwise1: stage 1, partition 0 (group 0)
            v5_r0 = v5_r0_p1  # elementwise1: stage 1, partition 0 (group 0)
            v5_r1 = v5_r1_p1  # elementwise1: stage 1, partition 0 (group 0)
            v5_r2 = v5_r2_p1  # elementwise1: stage 1, partition 0 (group 0)
        K_ptrs_135 = K_ptrs_135_p1 + K_ptrs_102  # elementwise1: stage 1, partition 0 (group 0)
        K_scale_ptr_136 = K_scale_ptr_136_p1 + 1  # elementwise1: stage 1, partition 0 (group 0)
        V_ptrs_137 = V_ptrs_137_p1 + V_ptrs_104  # elementwise1: stage 1, partition 0 (group 0)
        K_ptrs_135_p1 = K_ptrs_135
        K_scale_ptr_136_p1 = K_scale_ptr_136
        V_ptrs_137_p1 = V_ptrs_137
        kbid_133_p1 = kbid_133
        v5_r0_p1 = v5_r0
        v5_r1_p1 = v5_r1
        v5_r2_p1 = v5_r2
    else:
        v5_r0_p1 = gl.full([128, 128], 0.0, gl.float32, layout=L8)
        v5_r1_p1 = gl.full([128], 1.0, gl.float32, layout=L2)
        v5_r2_p1 = gl.full([128], float("-inf"), gl.float32, layout=L2)
        K_scale_ptr_136_p1 = K_scale_ptr
        K_ptrs_135_p1 = K_ptrs_67
        V_ptrs_137_p1 = V_ptrs_83
    twill_base += twill_n
    v0 = start_m * 128
    v1 = start_m + 1
    v2 = v1 * 128
    K_scale_ptr_107 = v0 // 64
    K_scale_ptr_108 = K_scale_ptr + K_scale_ptr_107
    K_ptrs_109 = stride_kn * v0
    K_ptrs_111 = K_ptrs_67 + K_ptrs_109
    V_ptrs_112 = stride_vn * v0
    V_ptrs_114 = V_ptrs_83 + V_ptrs_112
    K_ptrs_115 = stride_kn * 64
    V_ptrs_117 = stride_vn * 64
    twill_n = gl.maximum((v2 - v0 + 64 - 1) // 64, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        v5_l1_r0 = v5_r0_p1
        v5_l1_r1 = v5_r1_p1
        v5_l1_r2 = v5_r2_p1
        K_scale_ptr_136_l1 = K_scale_ptr_108
        K_ptrs_135_l1 = K_ptrs_111
        V_ptrs_137_l1 = V_ptrs_114
        kbid_l1 = (v0 + (0 - 0) * 64) // 64  # load0_kbid: stage 0, partition 0 (group 0)
        kbid_131_l1 = K_bid_ptr_69 + kbid_l1  # load0_kbid: stage 0, partition 0 (group 0)
        kbid_132_l1 = gl.cast(kbid_131_l1, gl.pointer_type(gl.int8), bitcast=True)  # load0_kbid: stage 0, partition 0 (group 0)
        kbid_133_l1 = gl.load(kbid_132_l1)  # load0_kbid: stage 0, partition 0 (group 0)
        K_ptrs_135_l1_p1 = K_ptrs_135_l1
        K_scale_ptr_136_l1_p1 = K_scale_ptr_136_l1
        V_ptrs_137_l1_p1 = V_ptrs_137_l1
        kbid_133_l1_p1 = kbid_133_l1
        v5_l1_r0_p1 = v5_l1_r0
        v5_l1_r1_p1 = v5_l1_r1
        v5_l1_r2_p1 = v5_l1_r2
        for twill_b in range(1, twill_n):
            kbid_l1 = (v0 + (twill_b - 0) * 64) // 64  # load0_kbid: stage 0, partition 0 (group 0)
            kbid_131_l1 = K_bid_ptr_69 + kbid_l1  # load0_kbid: stage 0, partition 0 (group 0)
            kbid_132_l1 = gl.cast(kbid_131_l1, gl.pointer_type(gl.int8), bitcast=True)  # load0_kbid: stage 0, partition 0 (group 0)
            kbid_133_l1 = gl.load(kbid_132_l1)  # load0_kbid: stage 0, partition 0 (group 0)
            kbid_134_l1 = kbid_133_l1_p1 != 0  # elementwise0_kbid: stage 1, partition 0 (group 0)
            if kbid_134_l1:  # elementwise1: stage 1, partition 0 (group 0)
                k_mask_l1 = kv_len - (v0 + (twill_b - 1) * 64)  # elementwise1: stage 1, partition 0 (group 0)
                k_mask_139_l1 = K_ptrs_57 < k_mask_l1  # elementwise1: stage 1, partition 0 (group 0)
                k_l1 = k_mask_139_l1.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
                k_140_l1 = gl.load(K_ptrs_135_l1_p1, mask=k_l1)  # elementwise1: stage 1, partition 0 (group 0)
                k_141_l1 = gl.allocate_shared_memory(gl.int8, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True), k_140_l1)  # elementwise1: stage 1, partition 0 (group 0)
                fence_async_shared()  # elementwise1: stage 1, partition 0 (group 0)
                k_scale_l1 = gl.load(K_scale_ptr_136_l1_p1)  # elementwise1: stage 1, partition 0 (group 0)
                qk_l1 = warpgroup_mma(q_101, k_141_l1, gl.full([128, 64], 0, gl.int32, layout=L9))  # elementwise1: stage 1, partition 0 (group 0)
                qk_142_l1 = qk_l1.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
                qk_144_l1 = qk_142_l1 * q_scale  # elementwise1: stage 1, partition 0 (group 0)
                qk_146_l1 = qk_144_l1 * k_scale_l1  # elementwise1: stage 1, partition 0 (group 0)
                mask_147 = (v0 + (twill_b - 1) * 64) + K_ptrs_58  # elementwise1: stage 1, partition 0 (group 0)
                mask_148 = Q_ptrs_36.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
                mask_149 = mask_147.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
                mask_150 = mask_148 >= mask_149  # elementwise1: stage 1, partition 0 (group 0)
                qk_151 = gl.where(mask_150, 0.0, -1000000.0)  # elementwise1: stage 1, partition 0 (group 0)
                qk_152 = qk_146_l1 + qk_151  # elementwise1: stage 1, partition 0 (group 0)
                local_m_l1 = gl.max(qk_152, axis=1)  # elementwise1: stage 1, partition 0 (group 0)
                old_m_l1 = gl.maximum(v5_l1_r2_p1, local_m_l1)  # elementwise1: stage 1, partition 0 (group 0)
                qk_153 = gl.expand_dims(old_m_l1, 1)  # elementwise1: stage 1, partition 0 (group 0)
                qk_154 = qk_153.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
                qk_155 = qk_152 - qk_154  # elementwise1: stage 1, partition 0 (group 0)
                p_l1 = gl.exp2(qk_155)  # elementwise1: stage 1, partition 0 (group 0)
                l_ij_l1 = gl.sum(p_l1, axis=1)  # elementwise1: stage 1, partition 0 (group 0)
                alpha_l1 = v5_l1_r2_p1 - old_m_l1  # elementwise1: stage 1, partition 0 (group 0)
                alpha_156 = gl.exp2(alpha_l1)  # elementwise1: stage 1, partition 0 (group 0)
                l_i_157 = v5_l1_r1_p1 * alpha_156  # elementwise1: stage 1, partition 0 (group 0)
                l_i_158 = l_i_157 + l_ij_l1  # elementwise1: stage 1, partition 0 (group 0)
                acc_159 = gl.expand_dims(alpha_156, 1)  # elementwise1: stage 1, partition 0 (group 0)
                acc_160 = gl.convert_layout(acc_159, L8)  # elementwise1: stage 1, partition 0 (group 0)
                acc_161 = acc_160.broadcast_to([128, 128])  # elementwise1: stage 1, partition 0 (group 0)
                acc_162 = v5_l1_r0_p1 * acc_161  # elementwise1: stage 1, partition 0 (group 0)
                v_163 = V_ptrs_76 < k_mask_l1  # elementwise1: stage 1, partition 0 (group 0)
                v_164 = v_163.broadcast_to([64, 128])  # elementwise1: stage 1, partition 0 (group 0)
                v_165 = gl.load(V_ptrs_137_l1_p1, mask=v_164)  # elementwise1: stage 1, partition 0 (group 0)
                v_166 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v_165)  # elementwise1: stage 1, partition 0 (group 0)
                fence_async_shared()  # elementwise1: stage 1, partition 0 (group 0)
                p_167 = p_l1.to(gl.float16)  # elementwise1: stage 1, partition 0 (group 0)
                p_168 = gl.convert_layout(p_167, L10)  # elementwise1: stage 1, partition 0 (group 0)
                acc_169 = warpgroup_mma(p_168, v_166, gl.full([128, 128], 0.0, gl.float16, layout=L8))  # elementwise1: stage 1, partition 0 (group 0)
                acc_170 = acc_169.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
                acc_171 = acc_162 + acc_170  # elementwise1: stage 1, partition 0 (group 0)
                v5_l1_r0 = acc_171  # elementwise1: stage 1, partition 0 (group 0)
                v5_l1_r1 = l_i_158  # elementwise1: stage 1, partition 0 (group 0)
                v5_l1_r2 = old_m_l1  # elementwise1: stage 1, partition 0 (group 0)
            else:  # elementwise1: stage 1, partition 0 (group 0)
                v5_l1_r0 = v5_l1_r0_p1  # elementwise1: stage 1, partition 0 (group 0)
                v5_l1_r1 = v5_l1_r1_p1  # elementwise1: stage 1, partition 0 (group 0)
                v5_l1_r2 = v5_l1_r2_p1  # elementwise1: stage 1, partition 0 (group 0)
            K_ptrs_135_l1 = K_ptrs_135_l1_p1 + K_ptrs_115  # elementwise1: stage 1, partition 0 (group 0)
            K_scale_ptr_136_l1 = K_scale_ptr_136_l1_p1 + 1  # elementwise1: stage 1, partition 0 (group 0)
            V_ptrs_137_l1 = V_ptrs_137_l1_p1 + V_ptrs_117  # elementwise1: stage 1, partition 0 (group 0)
            K_ptrs_135_l1_p1 = K_ptrs_135_l1
            K_scale_ptr_136_l1_p1 = K_scale_ptr_136_l1
            V_ptrs_137_l1_p1 = V_ptrs_137_l1
            kbid_133_l1_p1 = kbid_133_l1
            v5_l1_r0_p1 = v5_l1_r0
            v5_l1_r1_p1 = v5_l1_r1
            v5_l1_r2_p1 = v5_l1_r2
        kbid_134_l1 = kbid_133_l1_p1 != 0  # elementwise0_kbid: stage 1, partition 0 (group 0)
        if kbid_134_l1:  # elementwise1: stage 1, partition 0 (group 0)
            k_mask_l1 = kv_len - (v0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise1: stage 1, partition 0 (group 0)
            k_mask_139_l1 = K_ptrs_57 < k_mask_l1  # elementwise1: stage 1, partition 0 (group 0)
            k_l1 = k_mask_139_l1.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
            k_140_l1 = gl.load(K_ptrs_135_l1_p1, mask=k_l1)  # elementwise1: stage 1, partition 0 (group 0)
            k_141_l1 = gl.allocate_shared_memory(gl.int8, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True), k_140_l1)  # elementwise1: stage 1, partition 0 (group 0)
            fence_async_shared()  # elementwise1: stage 1, partition 0 (group 0)
            k_scale_l1 = gl.load(K_scale_ptr_136_l1_p1)  # elementwise1: stage 1, partition 0 (group 0)
            qk_l1 = warpgroup_mma(q_101, k_141_l1, gl.full([128, 64], 0, gl.int32, layout=L9))  # elementwise1: stage 1, partition 0 (group 0)
            qk_142_l1 = qk_l1.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
            qk_144_l1 = qk_142_l1 * q_scale  # elementwise1: stage 1, partition 0 (group 0)
            qk_146_l1 = qk_144_l1 * k_scale_l1  # elementwise1: stage 1, partition 0 (group 0)
            mask_147 = (v0 + ((twill_n - 1 + 1) - 1) * 64) + K_ptrs_58  # elementwise1: stage 1, partition 0 (group 0)
            mask_148 = Q_ptrs_36.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
            mask_149 = mask_147.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
            mask_150 = mask_148 >= mask_149  # elementwise1: stage 1, partition 0 (group 0)
            qk_151 = gl.where(mask_150, 0.0, -1000000.0)  # elementwise1: stage 1, partition 0 (group 0)
            qk_152 = qk_146_l1 + qk_151  # elementwise1: stage 1, partition 0 (group 0)
            local_m_l1 = gl.max(qk_152, axis=1)  # elementwise1: stage 1, partition 0 (group 0)
            old_m_l1 = gl.maximum(v5_l1_r2_p1, local_m_l1)  # elementwise1: stage 1, partition 0 (group 0)
            qk_153 = gl.expand_dims(old_m_l1, 1)  # elementwise1: stage 1, partition 0 (group 0)
            qk_154 = qk_153.broadcast_to([128, 64])  # elementwise1: stage 1, partition 0 (group 0)
            qk_155 = qk_152 - qk_154  # elementwise1: stage 1, partition 0 (group 0)
            p_l1 = gl.exp2(qk_155)  # elementwise1: stage 1, partition 0 (group 0)
            l_ij_l1 = gl.sum(p_l1, axis=1)  # elementwise1: stage 1, partition 0 (group 0)
            alpha_l1 = v5_l1_r2_p1 - old_m_l1  # elementwise1: stage 1, partition 0 (group 0)
            alpha_156 = gl.exp2(alpha_l1)  # elementwise1: stage 1, partition 0 (group 0)
            l_i_157 = v5_l1_r1_p1 * alpha_156  # elementwise1: stage 1, partition 0 (group 0)
            l_i_158 = l_i_157 + l_ij_l1  # elementwise1: stage 1, partition 0 (group 0)
            acc_159 = gl.expand_dims(alpha_156, 1)  # elementwise1: stage 1, partition 0 (group 0)
            acc_160 = gl.convert_layout(acc_159, L8)  # elementwise1: stage 1, partition 0 (group 0)
            acc_161 = acc_160.broadcast_to([128, 128])  # elementwise1: stage 1, partition 0 (group 0)
            acc_162 = v5_l1_r0_p1 * acc_161  # elementwise1: stage 1, partition 0 (group 0)
            v_163 = V_ptrs_76 < k_mask_l1  # elementwise1: stage 1, partition 0 (group 0)
            v_164 = v_163.broadcast_to([64, 128])  # elementwise1: stage 1, partition 0 (group 0)
            v_165 = gl.load(V_ptrs_137_l1_p1, mask=v_164)  # elementwise1: stage 1, partition 0 (group 0)
            v_166 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v_165)  # elementwise1: stage 1, partition 0 (group 0)
            fence_async_shared()  # elementwise1: stage 1, partition 0 (group 0)
            p_167 = p_l1.to(gl.float16)  # elementwise1: stage 1, partition 0 (group 0)
            p_168 = gl.convert_layout(p_167, L10)  # elementwise1: stage 1, partition 0 (group 0)
            acc_169 = warpgroup_mma(p_168, v_166, gl.full([128, 128], 0.0, gl.float16, layout=L8))  # elementwise1: stage 1, partition 0 (group 0)
            acc_170 = acc_169.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
            acc_171 = acc_162 + acc_170  # elementwise1: stage 1, partition 0 (group 0)
            v5_l1_r0 = acc_171  # elementwise1: stage 1, partition 0 (group 0)
            v5_l1_r1 = l_i_158  # elementwise1: stage 1, partition 0 (group 0)
            v5_l1_r2 = old_m_l1  # elementwise1: stage 1, partition 0 (group 0)
        else:  # elementwise1: stage 1, partition 0 (group 0)
            v5_l1_r0 = v5_l1_r0_p1  # elementwise1: stage 1, partition 0 (group 0)
            v5_l1_r1 = v5_l1_r1_p1  # elementwise1: stage 1, partition 0 (group 0)
            v5_l1_r2 = v5_l1_r2_p1  # elementwise1: stage 1, partition 0 (group 0)
        K_ptrs_135_l1 = K_ptrs_135_l1_p1 + K_ptrs_115  # elementwise1: stage 1, partition 0 (group 0)
        K_scale_ptr_136_l1 = K_scale_ptr_136_l1_p1 + 1  # elementwise1: stage 1, partition 0 (group 0)
        V_ptrs_137_l1 = V_ptrs_137_l1_p1 + V_ptrs_117  # elementwise1: stage 1, partition 0 (group 0)
        K_ptrs_135_l1_p1 = K_ptrs_135_l1
        K_scale_ptr_136_l1_p1 = K_scale_ptr_136_l1
        V_ptrs_137_l1_p1 = V_ptrs_137_l1
        kbid_133_l1_p1 = kbid_133_l1
        v5_l1_r0_p1 = v5_l1_r0
        v5_l1_r1_p1 = v5_l1_r1
        v5_l1_r2_p1 = v5_l1_r2
    else:
        v5_l1_r0_p1 = v5_r0_p1
        v5_l1_r1_p1 = v5_r1_p1
        v5_l1_r2_p1 = v5_r2_p1
        K_scale_ptr_136_l1_p1 = K_scale_ptr_108
        K_ptrs_135_l1_p1 = K_ptrs_111
        V_ptrs_137_l1_p1 = V_ptrs_114
    acc_120 = gl.expand_dims(v5_l1_r1_p1, 1)
    acc_121 = gl.convert_layout(acc_120, L8)
    acc_122 = acc_121.broadcast_to([128, 128])
    acc_123 = v5_l1_r0_p1 / acc_122
    v3 = acc_123.to(gl.float16)
    v4 = gl.convert_layout(v3, L11)
    gl.store(O_block_ptr_94, v4, mask=q_99)

@gluon.jit
def twill_kernel(Q, K, K_blkid, V, Q_scale, K_scale, PVThreshd, Out, stride_qz, stride_qh, stride_qn, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_on, stride_kbidq, stride_kbidk, qo_len, kv_len):
    consumer_0(Q, K, K_blkid, V, Q_scale, K_scale, PVThreshd, Out, stride_qz, stride_qh, stride_qn, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_on, stride_kbidq, stride_kbidk, qo_len, kv_len, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'K_blkid', 'V', 'Q_scale', 'K_scale', 'PVThreshd', 'Out', 'stride_qz', 'stride_qh', 'stride_qn', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_on', 'stride_kbidq', 'stride_kbidk', 'qo_len', 'kv_len', 'H', 'num_kv_groups', 'HEAD_DIM', 'BLOCK_M', 'BLOCK_N', 'STAGE']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'K_blkid', 'V', 'Q_scale', 'K_scale', 'PVThreshd', 'Out', 'stride_qz', 'stride_qh', 'stride_qn', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_on', 'stride_kbidq', 'stride_kbidk', 'qo_len', 'kv_len']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'K_blkid', 'V', 'Q_scale', 'K_scale', 'PVThreshd', 'Out', 'stride_qz', 'stride_qh', 'stride_qn', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_on', 'stride_kbidq', 'stride_kbidk', 'qo_len', 'kv_len']   # the arguments a launch key reads
CONSTEXPRS = {'H': 32, 'num_kv_groups': 4, 'HEAD_DIM': 128, 'BLOCK_M': 128, 'BLOCK_N': 64, 'STAGE': 3}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
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
    flags = {}
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
