"""_fwd_kernel_splitK, written by twill from its joint schedule: I=417 L=417 (optimal), 2892 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (k_103_as 2 x 16384 B, v_115_as 2 x 16384 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 2 warps, registers as ptxas allocates them (the schedule's tiles need about 145 per thread)
- shared memory: 65552 bytes planned of 232448; maxnreg unset (ptxas allocates)
- timed at launch: the same loop in one stage, `twill_kernel_short` (I=417 optimal among one-stage schedules, ptxas 248 registers, 4 CTA(s) an SM against this kernel's 3 at 254), beside this pipelined kernel; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 139-142 and 219: one stage x0.44-1.20 of the pipelined kernel's speed over eighteen loops; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[2, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[2, 1], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[2], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[2, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[2, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 2], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 2], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8])))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8]), k_width=2))
L9 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8])))
L10 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8]))
L11 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8]), k_width=2))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[2, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, sm_scale, Out_splitK, Metadata, stride_qz, stride_qm, stride_qg, stride_qh, stride_kz, stride_kn, stride_kg, stride_kh, stride_vz, stride_vn, stride_vg, stride_vh, stride_osk_zhg, stride_osk_s, stride_osk_m, stride_mzhg, stride_m2, stride_ms, Z, N_CTX_Q, N_CTX_K, BLOCK_N_PER_SPLIT, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_zhg = gl.program_id(1)
    off_z = off_zhg // 8
    off_h = off_zhg % 8
    splitk_idx = gl.program_id(2)
    lo = splitk_idx * BLOCK_N_PER_SPLIT
    hi = splitk_idx + 1
    hi_8 = hi * BLOCK_N_PER_SPLIT
    hi_9 = gl.minimum(hi_8, N_CTX_K)
    Q_block_ptr = off_h * stride_qh
    Q_block_ptr_10 = Q + Q_block_ptr
    Q_block_ptr_11 = off_z * stride_qz
    Q_block_ptr_12 = Q_block_ptr_10 + Q_block_ptr_11
    Q_block_ptr_13 = start_m * 16
    Q_block_ptr_14 = gl.cast(N_CTX_Q, gl.int64)
    Q_block_ptr_15 = gl.cast(stride_qm, gl.int64)
    Q_block_ptr_16 = gl.cast(Q_block_ptr_13, gl.int64)
    k_base = off_h * stride_kh
    k_base_17 = K + k_base
    k_base_18 = off_z * stride_kz
    k_base_19 = k_base_17 + k_base_18
    K_block_ptr = gl.cast(hi_9, gl.int64)
    K_block_ptr_20 = gl.cast(stride_kn, gl.int64)
    K_block_ptr_21 = gl.cast(lo, gl.int64)
    v_base = off_h * stride_vh
    v_base_22 = V + v_base
    v_base_23 = off_z * stride_vz
    v_base_24 = v_base_22 + v_base_23
    V_block_ptr = gl.cast(stride_vn, gl.int64)
    qk_scale = sm_scale * 1.44269502
    q_27 = gl.arange(0, 16, layout=L0)
    q_28 = gl.arange(0, 16, layout=L1)
    q_29 = gl.arange(0, 16, layout=L2)
    q_30 = q_27.to(gl.int64)
    q_31 = q_28.to(gl.int64)
    q_32 = Q_block_ptr_16 + q_30
    q_33 = Q_block_ptr_16 + q_31
    q_34 = gl.expand_dims(q_32, 1)
    q_35 = gl.expand_dims(q_33, 1)
    q_37 = q_34 * Q_block_ptr_15
    q_38 = q_37.broadcast_to([16, 128])
    q_39 = gl.arange(0, 128, layout=L3)
    q_40 = gl.arange(0, 128, layout=L4)
    q_41 = gl.arange(0, 128, layout=L5)
    q_42 = q_39.to(gl.int64)
    q_43 = q_40.to(gl.int64)
    q_44 = q_41.to(gl.int64)
    q_45 = gl.expand_dims(q_42, 0)
    q_46 = gl.expand_dims(q_43, 0)
    q_47 = q_45.broadcast_to([16, 128])
    q_48 = q_46.broadcast_to([16, 128])
    q_49 = q_38 + q_47
    q_50 = Q_block_ptr_12 + q_49
    q_51 = q_34 >= 0
    q_52 = q_35 >= 0
    q_55 = q_34 < Q_block_ptr_14
    q_56 = q_35 < Q_block_ptr_14
    q_57 = q_51 & q_55
    q_58 = q_52 & q_56
    q_59 = q_57.broadcast_to([16, 128])
    q_60 = q_58.broadcast_to([16, 128])
    q_61 = gl.load(q_50, mask=q_59)
    q_62 = q_61.to(gl.float32)
    q_64 = q_62 * qk_scale
    q_65 = q_64.to(gl.float16)
    k_66 = gl.expand_dims(q_44, 1)
    k_67 = k_66.broadcast_to([128, 64])
    k_68 = gl.arange(0, 64, layout=L6)
    k_69 = gl.arange(0, 64, layout=L7)
    k_70 = gl.arange(0, 64, layout=L0)
    k_71 = k_68.to(gl.int64)
    k_72 = k_70.to(gl.int64)
    v_76 = q_45.broadcast_to([64, 128])
    q_78 = gl.convert_layout(q_65, L8)
    twill_n = gl.maximum((hi_9 - lo + 64 - 1) // 64, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        k_103_as = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[0, 1]))
        v_115_as = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
        K_block_ptr_137 = K_block_ptr_21
        K_block_ptr_137_p1 = K_block_ptr_137
        m_i_new_123 = gl.full([16], float("-inf"), gl.float32, layout=L9)
        l_i_129 = gl.full([16], 0.0, gl.float32, layout=L9)
        acc_136 = gl.full([16, 128], 0.0, gl.float32, layout=L10)
        k_92 = K_block_ptr_137_p1  # load0_k: stage 0, partition 0 (group 0)
        k_93 = k_92 + k_71  # load0_k: stage 0, partition 0 (group 0)
        k_94 = gl.expand_dims(k_93, 0)  # load0_k: stage 0, partition 0 (group 0)
        k_99 = k_94 >= 0  # elementwise0_k: stage 0, partition 0 (group 0)
        k_100 = k_94 < K_block_ptr  # elementwise0_k: stage 0, partition 0 (group 0)
        k_101 = k_99 & k_100  # elementwise0_k: stage 0, partition 0 (group 0)
        v_104 = K_block_ptr_137_p1  # load1_v: stage 0, partition 0 (group 0)
        v_105 = v_104 + k_72  # load1_v: stage 0, partition 0 (group 0)
        v_106 = gl.expand_dims(v_105, 1)  # load1_v: stage 0, partition 0 (group 0)
        v_111 = v_106 >= 0  # elementwise1_v: stage 0, partition 0 (group 0)
        v_112 = v_106 < K_block_ptr  # elementwise1_v: stage 0, partition 0 (group 0)
        v_113 = v_111 & v_112  # elementwise1_v: stage 0, partition 0 (group 0)
        k_95 = k_94 * K_block_ptr_20  # load0_k: stage 0, partition 0 (group 0)
        k_96 = k_95.broadcast_to([128, 64])  # load0_k: stage 0, partition 0 (group 0)
        k_97 = k_67 + k_96  # load0_k: stage 0, partition 0 (group 0)
        k_98 = k_base_19 + k_97  # load0_k: stage 0, partition 0 (group 0)
        k_102 = k_101.broadcast_to([128, 64])  # load0_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_103_as.index((0 - 0) % 2), k_98, mask=k_102)  # load0_k: stage 0, partition 0 (group 0)
        else:  # load0_k: stage 0, partition 0 (group 0)
            k_103_as.index((0 - 0) % 2).store(gl.load(k_98, mask=k_102))  # load0_k: stage 0, partition 0 (group 0)
        K_block_ptr_137 = K_block_ptr_137_p1 + 64  # load0_k: stage 0, partition 0 (group 0)
        v_107 = v_106 * V_block_ptr  # load1_v: stage 0, partition 0 (group 0)
        v_108 = v_107.broadcast_to([64, 128])  # load1_v: stage 0, partition 0 (group 0)
        v_109 = v_108 + v_76  # load1_v: stage 0, partition 0 (group 0)
        v_110 = v_base_24 + v_109  # load1_v: stage 0, partition 0 (group 0)
        v_114 = v_113.broadcast_to([64, 128])  # load1_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_115_as.index((0 - 0) % 2), v_110, mask=v_114)  # load1_v: stage 0, partition 0 (group 0)
        else:  # load1_v: stage 0, partition 0 (group 0)
            v_115_as.index((0 - 0) % 2).store(gl.load(v_110, mask=v_114))  # load1_v: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        K_block_ptr_137_p1 = K_block_ptr_137
        acc_136_p1 = acc_136
        l_i_129_p1 = l_i_129
        m_i_new_123_p1 = m_i_new_123
        for twill_b in range(1, twill_n):
            k_92 = K_block_ptr_137_p1  # load0_k: stage 0, partition 0 (group 0)
            k_93 = k_92 + k_71  # load0_k: stage 0, partition 0 (group 0)
            k_94 = gl.expand_dims(k_93, 0)  # load0_k: stage 0, partition 0 (group 0)
            k_99 = k_94 >= 0  # elementwise0_k: stage 0, partition 0 (group 0)
            k_100 = k_94 < K_block_ptr  # elementwise0_k: stage 0, partition 0 (group 0)
            k_101 = k_99 & k_100  # elementwise0_k: stage 0, partition 0 (group 0)
            v_104 = K_block_ptr_137_p1  # load1_v: stage 0, partition 0 (group 0)
            v_105 = v_104 + k_72  # load1_v: stage 0, partition 0 (group 0)
            v_106 = gl.expand_dims(v_105, 1)  # load1_v: stage 0, partition 0 (group 0)
            v_111 = v_106 >= 0  # elementwise1_v: stage 0, partition 0 (group 0)
            v_112 = v_106 < K_block_ptr  # elementwise1_v: stage 0, partition 0 (group 0)
            v_113 = v_111 & v_112  # elementwise1_v: stage 0, partition 0 (group 0)
            k_95 = k_94 * K_block_ptr_20  # load0_k: stage 0, partition 0 (group 0)
            k_96 = k_95.broadcast_to([128, 64])  # load0_k: stage 0, partition 0 (group 0)
            k_97 = k_67 + k_96  # load0_k: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            k_103 = k_103_as.index((twill_b - 1) % 2).load(L11)  # load0_k: stage 1, partition 0 (group 0)
            k_98 = k_base_19 + k_97  # load0_k: stage 0, partition 0 (group 0)
            k_102 = k_101.broadcast_to([128, 64])  # load0_k: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_k: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_103_as.index((twill_b - 0) % 2), k_98, mask=k_102)  # load0_k: stage 0, partition 0 (group 0)
            else:  # load0_k: stage 0, partition 0 (group 0)
                k_103_as.index((twill_b - 0) % 2).store(gl.load(k_98, mask=k_102))  # load0_k: stage 0, partition 0 (group 0)
            k_116 = gl.convert_layout(k_103, L11)  # convert0_k: stage 1, partition 0 (group 0)
            qk = mma_v2(q_78, k_116, gl.full([16, 64], 0.0, gl.float32, layout=L10))  # dot0_qk: stage 1, partition 0 (group 0)
            qk_117 = hi_9 - (lo + (twill_b - 1) * 64)  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_118 = qk_117  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_119 = k_69 < qk_118  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_120 = gl.expand_dims(qk_119, 0)  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_121 = qk_120.broadcast_to([16, 64])  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_122 = gl.where(qk_121, qk, float("-inf"))  # elementwise2_qk: stage 1, partition 0 (group 0)
            m_i_new = gl.max(qk_122, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
            m_i_new_123 = gl.maximum(m_i_new_123_p1, m_i_new)  # elementwise3_m_i_new: stage 1, partition 0 (group 0)
            p = gl.expand_dims(m_i_new_123, 1)  # sfu1_p: stage 1, partition 0 (group 0)
            p_125 = p.broadcast_to([16, 64])  # sfu1_p: stage 1, partition 0 (group 0)
            p_126 = qk_122 - p_125  # sfu1_p: stage 1, partition 0 (group 0)
            p_127 = gl.exp2(p_126)  # sfu1_p: stage 1, partition 0 (group 0)
            l_i_128 = gl.sum(p_127, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            alpha = m_i_new_123_p1 - m_i_new_123  # sfu0_alpha: stage 1, partition 0 (group 0)
            alpha_124 = gl.exp2(alpha)  # sfu0_alpha: stage 1, partition 0 (group 0)
            p_130 = p_127.to(gl.float16)  # convert1_p: stage 1, partition 0 (group 0)
            p_134 = gl.convert_layout(p_130, L8)  # convert1_p: stage 1, partition 0 (group 0)
            l_i = l_i_129_p1 * alpha_124  # elementwise4_l_i: stage 1, partition 0 (group 0)
            l_i_129 = l_i + l_i_128  # elementwise4_l_i: stage 1, partition 0 (group 0)
            acc_131 = gl.expand_dims(alpha_124, 1)  # elementwise5_acc: stage 1, partition 0 (group 0)
            acc_132 = acc_131.broadcast_to([16, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
            acc_133 = acc_136_p1 * acc_132  # elementwise5_acc: stage 1, partition 0 (group 0)
            K_block_ptr_137 = K_block_ptr_137_p1 + 64  # load0_k: stage 0, partition 0 (group 0)
            v_107 = v_106 * V_block_ptr  # load1_v: stage 0, partition 0 (group 0)
            v_108 = v_107.broadcast_to([64, 128])  # load1_v: stage 0, partition 0 (group 0)
            v_109 = v_108 + v_76  # load1_v: stage 0, partition 0 (group 0)
            v_115 = v_115_as.index((twill_b - 1) % 2).load(L11)  # load1_v: stage 1, partition 0 (group 0)
            v_110 = v_base_24 + v_109  # load1_v: stage 0, partition 0 (group 0)
            v_114 = v_113.broadcast_to([64, 128])  # load1_v: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_v: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(v_115_as.index((twill_b - 0) % 2), v_110, mask=v_114)  # load1_v: stage 0, partition 0 (group 0)
            else:  # load1_v: stage 0, partition 0 (group 0)
                v_115_as.index((twill_b - 0) % 2).store(gl.load(v_110, mask=v_114))  # load1_v: stage 0, partition 0 (group 0)
            v_135 = gl.convert_layout(v_115, L11)  # convert2_v: stage 1, partition 0 (group 0)
            acc_136 = mma_v2(p_134, v_135, acc_133)  # dot1_acc: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            K_block_ptr_137_p1 = K_block_ptr_137
            acc_136_p1 = acc_136
            l_i_129_p1 = l_i_129
            m_i_new_123_p1 = m_i_new_123
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_103 = k_103_as.index(((twill_n - 1 + 1) - 1) % 2).load(L11)  # load0_k: stage 1, partition 0 (group 0)
        k_116 = gl.convert_layout(k_103, L11)  # convert0_k: stage 1, partition 0 (group 0)
        qk = mma_v2(q_78, k_116, gl.full([16, 64], 0.0, gl.float32, layout=L10))  # dot0_qk: stage 1, partition 0 (group 0)
        qk_117 = hi_9 - (lo + ((twill_n - 1 + 1) - 1) * 64)  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_118 = qk_117  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_119 = k_69 < qk_118  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_120 = gl.expand_dims(qk_119, 0)  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_121 = qk_120.broadcast_to([16, 64])  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_122 = gl.where(qk_121, qk, float("-inf"))  # elementwise2_qk: stage 1, partition 0 (group 0)
        m_i_new = gl.max(qk_122, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
        m_i_new_123 = gl.maximum(m_i_new_123_p1, m_i_new)  # elementwise3_m_i_new: stage 1, partition 0 (group 0)
        p = gl.expand_dims(m_i_new_123, 1)  # sfu1_p: stage 1, partition 0 (group 0)
        p_125 = p.broadcast_to([16, 64])  # sfu1_p: stage 1, partition 0 (group 0)
        p_126 = qk_122 - p_125  # sfu1_p: stage 1, partition 0 (group 0)
        p_127 = gl.exp2(p_126)  # sfu1_p: stage 1, partition 0 (group 0)
        l_i_128 = gl.sum(p_127, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
        alpha = m_i_new_123_p1 - m_i_new_123  # sfu0_alpha: stage 1, partition 0 (group 0)
        alpha_124 = gl.exp2(alpha)  # sfu0_alpha: stage 1, partition 0 (group 0)
        p_130 = p_127.to(gl.float16)  # convert1_p: stage 1, partition 0 (group 0)
        p_134 = gl.convert_layout(p_130, L8)  # convert1_p: stage 1, partition 0 (group 0)
        l_i = l_i_129_p1 * alpha_124  # elementwise4_l_i: stage 1, partition 0 (group 0)
        l_i_129 = l_i + l_i_128  # elementwise4_l_i: stage 1, partition 0 (group 0)
        acc_131 = gl.expand_dims(alpha_124, 1)  # elementwise5_acc: stage 1, partition 0 (group 0)
        acc_132 = acc_131.broadcast_to([16, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
        acc_133 = acc_136_p1 * acc_132  # elementwise5_acc: stage 1, partition 0 (group 0)
        v_115 = v_115_as.index(((twill_n - 1 + 1) - 1) % 2).load(L11)  # load1_v: stage 1, partition 0 (group 0)
        v_135 = gl.convert_layout(v_115, L11)  # convert2_v: stage 1, partition 0 (group 0)
        acc_136 = mma_v2(p_134, v_135, acc_133)  # dot1_acc: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        K_block_ptr_137_p2 = K_block_ptr_137_p1
        K_block_ptr_137_p1 = K_block_ptr_137
        acc_136_p1 = acc_136
        l_i_129_p1 = l_i_129
        m_i_new_123_p1 = m_i_new_123
    else:
        K_block_ptr_137_p2 = K_block_ptr_21
        m_i_new_123_p1 = gl.full([16], float("-inf"), gl.float32, layout=L9)
        l_i_129_p1 = gl.full([16], 0.0, gl.float32, layout=L9)
        acc_136_p1 = gl.full([16, 128], 0.0, gl.float32, layout=L10)
    O_block_ptr = off_zhg * stride_osk_zhg
    O_block_ptr_79 = Out_splitK + O_block_ptr
    O_block_ptr_80 = splitk_idx * stride_osk_s
    O_block_ptr_81 = O_block_ptr_79 + O_block_ptr_80
    O_block_ptr_82 = gl.cast(stride_osk_m, gl.int64)
    v2 = q_35 * O_block_ptr_82
    v3 = v2.broadcast_to([16, 128])
    v4 = v3 + q_48
    v5 = O_block_ptr_81 + v4
    v6 = gl.convert_layout(acc_136_p1, L12)
    gl.store(v5, v6, mask=q_60)
    Metadata_ptr = off_zhg * stride_mzhg
    Metadata_ptr_83 = Metadata + Metadata_ptr
    Metadata_ptr_84 = splitk_idx * stride_ms
    Metadata_ptr_85 = Metadata_ptr_83 + Metadata_ptr_84
    Metadata_ptr_86 = Metadata_ptr_85 + Q_block_ptr_13
    Metadata_ptr_88 = Metadata_ptr_86 + q_29
    v7 = gl.convert_layout(m_i_new_123_p1, L2)
    gl.store(Metadata_ptr_88, v7)
    v9 = Metadata_ptr_88 + stride_m2
    v10 = gl.convert_layout(l_i_129_p1, L2)
    gl.store(v9, v10)

@gluon.jit
def twill_kernel(Q, K, V, sm_scale, Out_splitK, Metadata, stride_qz, stride_qm, stride_qg, stride_qh, stride_kz, stride_kn, stride_kg, stride_kh, stride_vz, stride_vn, stride_vg, stride_vh, stride_osk_zhg, stride_osk_s, stride_osk_m, stride_mzhg, stride_m2, stride_ms, Z, N_CTX_Q, N_CTX_K, BLOCK_N_PER_SPLIT, TWILL_COPY: gl.constexpr):
    consumer_0(Q, K, V, sm_scale, Out_splitK, Metadata, stride_qz, stride_qm, stride_qg, stride_qh, stride_kz, stride_kn, stride_kg, stride_kh, stride_vz, stride_vn, stride_vg, stride_vh, stride_osk_zhg, stride_osk_s, stride_osk_m, stride_mzhg, stride_m2, stride_ms, Z, N_CTX_Q, N_CTX_K, BLOCK_N_PER_SPLIT, TWILL_COPY)



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[2, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[2, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[2], order=[0]))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[2, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[2, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 2], order=[0, 1])))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 2], order=[0, 1])))
L7_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8])))
L8_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8]), k_width=2))
L9_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8])))
L10_short = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8]))
L11_short = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8]), k_width=2))
L12_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[2, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(Q, K, V, sm_scale, Out_splitK, Metadata, stride_qz, stride_qm, stride_qg, stride_qh, stride_kz, stride_kn, stride_kg, stride_kh, stride_vz, stride_vn, stride_vg, stride_vh, stride_osk_zhg, stride_osk_s, stride_osk_m, stride_mzhg, stride_m2, stride_ms, Z, N_CTX_Q, N_CTX_K, BLOCK_N_PER_SPLIT):
    start_m = gl.program_id(0)
    off_zhg = gl.program_id(1)
    off_z = off_zhg // 8
    off_h = off_zhg % 8
    splitk_idx = gl.program_id(2)
    lo = splitk_idx * BLOCK_N_PER_SPLIT
    hi = splitk_idx + 1
    hi_8 = hi * BLOCK_N_PER_SPLIT
    hi_9 = gl.minimum(hi_8, N_CTX_K)
    Q_block_ptr = off_h * stride_qh
    Q_block_ptr_10 = Q + Q_block_ptr
    Q_block_ptr_11 = off_z * stride_qz
    Q_block_ptr_12 = Q_block_ptr_10 + Q_block_ptr_11
    Q_block_ptr_13 = start_m * 16
    Q_block_ptr_14 = gl.cast(N_CTX_Q, gl.int64)
    Q_block_ptr_15 = gl.cast(stride_qm, gl.int64)
    Q_block_ptr_16 = gl.cast(Q_block_ptr_13, gl.int64)
    k_base = off_h * stride_kh
    k_base_17 = K + k_base
    k_base_18 = off_z * stride_kz
    k_base_19 = k_base_17 + k_base_18
    K_block_ptr = gl.cast(hi_9, gl.int64)
    K_block_ptr_20 = gl.cast(stride_kn, gl.int64)
    K_block_ptr_21 = gl.cast(lo, gl.int64)
    v_base = off_h * stride_vh
    v_base_22 = V + v_base
    v_base_23 = off_z * stride_vz
    v_base_24 = v_base_22 + v_base_23
    V_block_ptr = gl.cast(stride_vn, gl.int64)
    qk_scale = sm_scale * 1.44269502
    q_27 = gl.arange(0, 16, layout=L0_short)
    q_28 = gl.arange(0, 16, layout=L1_short)
    q_29 = gl.arange(0, 16, layout=L2_short)
    q_30 = q_27.to(gl.int64)
    q_31 = q_28.to(gl.int64)
    q_32 = Q_block_ptr_16 + q_30
    q_33 = Q_block_ptr_16 + q_31
    q_34 = gl.expand_dims(q_32, 1)
    q_35 = gl.expand_dims(q_33, 1)
    q_37 = q_34 * Q_block_ptr_15
    q_38 = q_37.broadcast_to([16, 128])
    q_39 = gl.arange(0, 128, layout=L3_short)
    q_40 = gl.arange(0, 128, layout=L4_short)
    q_41 = gl.arange(0, 128, layout=L5_short)
    q_42 = q_39.to(gl.int64)
    q_43 = q_40.to(gl.int64)
    q_44 = q_41.to(gl.int64)
    q_45 = gl.expand_dims(q_42, 0)
    q_46 = gl.expand_dims(q_43, 0)
    q_47 = q_45.broadcast_to([16, 128])
    q_48 = q_46.broadcast_to([16, 128])
    q_49 = q_38 + q_47
    q_50 = Q_block_ptr_12 + q_49
    q_51 = q_34 >= 0
    q_52 = q_35 >= 0
    q_55 = q_34 < Q_block_ptr_14
    q_56 = q_35 < Q_block_ptr_14
    q_57 = q_51 & q_55
    q_58 = q_52 & q_56
    q_59 = q_57.broadcast_to([16, 128])
    q_60 = q_58.broadcast_to([16, 128])
    q_61 = gl.load(q_50, mask=q_59)
    q_62 = q_61.to(gl.float32)
    q_64 = q_62 * qk_scale
    q_65 = q_64.to(gl.float16)
    k_66 = gl.expand_dims(q_44, 1)
    k_67 = k_66.broadcast_to([128, 64])
    k_68 = gl.arange(0, 64, layout=L6_short)
    k_69 = gl.arange(0, 64, layout=L7_short)
    k_70 = gl.arange(0, 64, layout=L0_short)
    k_71 = k_68.to(gl.int64)
    k_72 = k_70.to(gl.int64)
    v_76 = q_45.broadcast_to([64, 128])
    q_78 = gl.convert_layout(q_65, L8_short)
    twill_n = gl.maximum((hi_9 - lo + 64 - 1) // 64, 0)
    K_block_ptr_137 = K_block_ptr_21
    m_i_new_123 = gl.full([16], float("-inf"), gl.float32, layout=L9_short)
    l_i_129 = gl.full([16], 0.0, gl.float32, layout=L9_short)
    acc_136 = gl.full([16, 128], 0.0, gl.float32, layout=L10_short)
    K_block_ptr_137_p1 = K_block_ptr_137
    acc_136_p1 = acc_136
    l_i_129_p1 = l_i_129
    m_i_new_123_p1 = m_i_new_123
    for twill_b in range(0, twill_n):
        k_92 = K_block_ptr_137_p1  # load0_k: stage 0, partition 0 (group 0)
        k_93 = k_92 + k_71  # load0_k: stage 0, partition 0 (group 0)
        k_94 = gl.expand_dims(k_93, 0)  # load0_k: stage 0, partition 0 (group 0)
        k_99 = k_94 >= 0  # elementwise0_k: stage 0, partition 0 (group 0)
        k_100 = k_94 < K_block_ptr  # elementwise0_k: stage 0, partition 0 (group 0)
        k_101 = k_99 & k_100  # elementwise0_k: stage 0, partition 0 (group 0)
        v_104 = K_block_ptr_137_p1  # load1_v: stage 0, partition 0 (group 0)
        v_105 = v_104 + k_72  # load1_v: stage 0, partition 0 (group 0)
        v_106 = gl.expand_dims(v_105, 1)  # load1_v: stage 0, partition 0 (group 0)
        v_111 = v_106 >= 0  # elementwise1_v: stage 0, partition 0 (group 0)
        v_112 = v_106 < K_block_ptr  # elementwise1_v: stage 0, partition 0 (group 0)
        v_113 = v_111 & v_112  # elementwise1_v: stage 0, partition 0 (group 0)
        k_95 = k_94 * K_block_ptr_20  # load0_k: stage 0, partition 0 (group 0)
        k_96 = k_95.broadcast_to([128, 64])  # load0_k: stage 0, partition 0 (group 0)
        k_97 = k_67 + k_96  # load0_k: stage 0, partition 0 (group 0)
        k_98 = k_base_19 + k_97  # load0_k: stage 0, partition 0 (group 0)
        k_102 = k_101.broadcast_to([128, 64])  # load0_k: stage 0, partition 0 (group 0)
        k_103 = gl.load(k_98, mask=k_102)  # load0_k: stage 0, partition 0 (group 0)
        k_116 = gl.convert_layout(k_103, L11_short)  # convert0_k: stage 0, partition 0 (group 0)
        qk = mma_v2(q_78, k_116, gl.full([16, 64], 0.0, gl.float32, layout=L10_short))  # dot0_qk: stage 0, partition 0 (group 0)
        qk_117 = hi_9 - (lo + (twill_b - 0) * 64)  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_118 = qk_117  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_119 = k_69 < qk_118  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_120 = gl.expand_dims(qk_119, 0)  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_121 = qk_120.broadcast_to([16, 64])  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_122 = gl.where(qk_121, qk, float("-inf"))  # elementwise2_qk: stage 0, partition 0 (group 0)
        m_i_new = gl.max(qk_122, axis=1)  # reduce0_m_i_new: stage 0, partition 0 (group 0)
        m_i_new_123 = gl.maximum(m_i_new_123_p1, m_i_new)  # elementwise3_m_i_new: stage 0, partition 0 (group 0)
        p = gl.expand_dims(m_i_new_123, 1)  # sfu1_p: stage 0, partition 0 (group 0)
        p_125 = p.broadcast_to([16, 64])  # sfu1_p: stage 0, partition 0 (group 0)
        p_126 = qk_122 - p_125  # sfu1_p: stage 0, partition 0 (group 0)
        p_127 = gl.exp2(p_126)  # sfu1_p: stage 0, partition 0 (group 0)
        l_i_128 = gl.sum(p_127, axis=1)  # reduce1_l_i: stage 0, partition 0 (group 0)
        alpha = m_i_new_123_p1 - m_i_new_123  # sfu0_alpha: stage 0, partition 0 (group 0)
        alpha_124 = gl.exp2(alpha)  # sfu0_alpha: stage 0, partition 0 (group 0)
        p_130 = p_127.to(gl.float16)  # convert1_p: stage 0, partition 0 (group 0)
        p_134 = gl.convert_layout(p_130, L8_short)  # convert1_p: stage 0, partition 0 (group 0)
        l_i = l_i_129_p1 * alpha_124  # elementwise4_l_i: stage 0, partition 0 (group 0)
        l_i_129 = l_i + l_i_128  # elementwise4_l_i: stage 0, partition 0 (group 0)
        acc_131 = gl.expand_dims(alpha_124, 1)  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_132 = acc_131.broadcast_to([16, 128])  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_133 = acc_136_p1 * acc_132  # elementwise5_acc: stage 0, partition 0 (group 0)
        K_block_ptr_137 = K_block_ptr_137_p1 + 64  # load0_k: stage 0, partition 0 (group 0)
        v_107 = v_106 * V_block_ptr  # load1_v: stage 0, partition 0 (group 0)
        v_108 = v_107.broadcast_to([64, 128])  # load1_v: stage 0, partition 0 (group 0)
        v_109 = v_108 + v_76  # load1_v: stage 0, partition 0 (group 0)
        v_110 = v_base_24 + v_109  # load1_v: stage 0, partition 0 (group 0)
        v_114 = v_113.broadcast_to([64, 128])  # load1_v: stage 0, partition 0 (group 0)
        v_115 = gl.load(v_110, mask=v_114)  # load1_v: stage 0, partition 0 (group 0)
        v_135 = gl.convert_layout(v_115, L11_short)  # convert2_v: stage 0, partition 0 (group 0)
        acc_136 = mma_v2(p_134, v_135, acc_133)  # dot1_acc: stage 0, partition 0 (group 0)
        K_block_ptr_137_p1 = K_block_ptr_137
        acc_136_p1 = acc_136
        l_i_129_p1 = l_i_129
        m_i_new_123_p1 = m_i_new_123
    O_block_ptr = off_zhg * stride_osk_zhg
    O_block_ptr_79 = Out_splitK + O_block_ptr
    O_block_ptr_80 = splitk_idx * stride_osk_s
    O_block_ptr_81 = O_block_ptr_79 + O_block_ptr_80
    O_block_ptr_82 = gl.cast(stride_osk_m, gl.int64)
    v2 = q_35 * O_block_ptr_82
    v3 = v2.broadcast_to([16, 128])
    v4 = v3 + q_48
    v5 = O_block_ptr_81 + v4
    v6 = gl.convert_layout(acc_136_p1, L12_short)
    gl.store(v5, v6, mask=q_60)
    Metadata_ptr = off_zhg * stride_mzhg
    Metadata_ptr_83 = Metadata + Metadata_ptr
    Metadata_ptr_84 = splitk_idx * stride_ms
    Metadata_ptr_85 = Metadata_ptr_83 + Metadata_ptr_84
    Metadata_ptr_86 = Metadata_ptr_85 + Q_block_ptr_13
    Metadata_ptr_88 = Metadata_ptr_86 + q_29
    v7 = gl.convert_layout(m_i_new_123_p1, L2_short)
    gl.store(Metadata_ptr_88, v7)
    v9 = Metadata_ptr_88 + stride_m2
    v10 = gl.convert_layout(l_i_129_p1, L2_short)
    gl.store(v9, v10)

@gluon.jit
def twill_kernel_short(Q, K, V, sm_scale, Out_splitK, Metadata, stride_qz, stride_qm, stride_qg, stride_qh, stride_kz, stride_kn, stride_kg, stride_kh, stride_vz, stride_vn, stride_vg, stride_vh, stride_osk_zhg, stride_osk_s, stride_osk_m, stride_mzhg, stride_m2, stride_ms, Z, N_CTX_Q, N_CTX_K, BLOCK_N_PER_SPLIT):
    consumer_0_short(Q, K, V, sm_scale, Out_splitK, Metadata, stride_qz, stride_qm, stride_qg, stride_qh, stride_kz, stride_kn, stride_kg, stride_kh, stride_vz, stride_vn, stride_vg, stride_vh, stride_osk_zhg, stride_osk_s, stride_osk_m, stride_mzhg, stride_m2, stride_ms, Z, N_CTX_Q, N_CTX_K, BLOCK_N_PER_SPLIT, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'sm_scale', 'Out_splitK', 'Metadata', 'Seq_len', 'stride_qz', 'stride_qm', 'stride_qg', 'stride_qh', 'stride_qk', 'stride_kz', 'stride_kn', 'stride_kg', 'stride_kh', 'stride_kk', 'stride_vz', 'stride_vn', 'stride_vg', 'stride_vh', 'stride_vk', 'stride_osk_zhg', 'stride_osk_s', 'stride_osk_m', 'stride_osk_k', 'stride_mzhg', 'stride_m2', 'stride_ms', 'stride_mm', 'Z', 'N_CTX_Q', 'N_CTX_K', 'BLOCK_N_PER_SPLIT', 'H', 'G', 'BLOCK_M', 'BLOCK_DMODEL', 'BLOCK_N', 'BOUNDS_CHECKS_N', 'USE_SEQ_LEN', 'PACKED_PER_VAL', 'N_GROUPS']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'sm_scale', 'Out_splitK', 'Metadata', 'stride_qz', 'stride_qm', 'stride_qg', 'stride_qh', 'stride_kz', 'stride_kn', 'stride_kg', 'stride_kh', 'stride_vz', 'stride_vn', 'stride_vg', 'stride_vh', 'stride_osk_zhg', 'stride_osk_s', 'stride_osk_m', 'stride_mzhg', 'stride_m2', 'stride_ms', 'Z', 'N_CTX_Q', 'N_CTX_K', 'BLOCK_N_PER_SPLIT']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'sm_scale', 'Out_splitK', 'Metadata', 'Seq_len', 'stride_qz', 'stride_qm', 'stride_qg', 'stride_qh', 'stride_kz', 'stride_kn', 'stride_kg', 'stride_kh', 'stride_vz', 'stride_vn', 'stride_vg', 'stride_vh', 'stride_osk_zhg', 'stride_osk_s', 'stride_osk_m', 'stride_mzhg', 'stride_m2', 'stride_ms', 'Z', 'N_CTX_Q', 'N_CTX_K', 'BLOCK_N_PER_SPLIT']   # the arguments a launch key reads
CONSTEXPRS = {'stride_qk': 1, 'stride_kk': 1, 'stride_vk': 1, 'stride_osk_k': 1, 'stride_mm': 1, 'H': 8, 'G': 1, 'BLOCK_M': 16, 'BLOCK_DMODEL': 128, 'BLOCK_N': 64, 'BOUNDS_CHECKS_N': True, 'USE_SEQ_LEN': False, 'PACKED_PER_VAL': 1, 'N_GROUPS': 1}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 2
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_kz', 'stride_kn', 'stride_kh', 'stride_vz', 'stride_vn', 'stride_vh']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


def launch_long(grid, *args, **kwargs):
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

# -- the one-partition kernel for short loops (host side) ---------------------------------------------
ARGUMENTS_short = ['Q', 'K', 'V', 'sm_scale', 'Out_splitK', 'Metadata', 'Seq_len', 'stride_qz', 'stride_qm', 'stride_qg', 'stride_qh', 'stride_qk', 'stride_kz', 'stride_kn', 'stride_kg', 'stride_kh', 'stride_kk', 'stride_vz', 'stride_vn', 'stride_vg', 'stride_vh', 'stride_vk', 'stride_osk_zhg', 'stride_osk_s', 'stride_osk_m', 'stride_osk_k', 'stride_mzhg', 'stride_m2', 'stride_ms', 'stride_mm', 'Z', 'N_CTX_Q', 'N_CTX_K', 'BLOCK_N_PER_SPLIT', 'H', 'G', 'BLOCK_M', 'BLOCK_DMODEL', 'BLOCK_N', 'BOUNDS_CHECKS_N', 'USE_SEQ_LEN', 'PACKED_PER_VAL', 'N_GROUPS']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Q', 'K', 'V', 'sm_scale', 'Out_splitK', 'Metadata', 'stride_qz', 'stride_qm', 'stride_qg', 'stride_qh', 'stride_kz', 'stride_kn', 'stride_kg', 'stride_kh', 'stride_vz', 'stride_vn', 'stride_vg', 'stride_vh', 'stride_osk_zhg', 'stride_osk_s', 'stride_osk_m', 'stride_mzhg', 'stride_m2', 'stride_ms', 'Z', 'N_CTX_Q', 'N_CTX_K', 'BLOCK_N_PER_SPLIT']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Q', 'K', 'V', 'sm_scale', 'Out_splitK', 'Metadata', 'Seq_len', 'stride_qz', 'stride_qm', 'stride_qg', 'stride_qh', 'stride_kz', 'stride_kn', 'stride_kg', 'stride_kh', 'stride_vz', 'stride_vn', 'stride_vg', 'stride_vh', 'stride_osk_zhg', 'stride_osk_s', 'stride_osk_m', 'stride_mzhg', 'stride_m2', 'stride_ms', 'Z', 'N_CTX_Q', 'N_CTX_K', 'BLOCK_N_PER_SPLIT']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_qk': 1, 'stride_kk': 1, 'stride_vk': 1, 'stride_osk_k': 1, 'stride_mm': 1, 'H': 8, 'G': 1, 'BLOCK_M': 16, 'BLOCK_DMODEL': 128, 'BLOCK_N': 64, 'BOUNDS_CHECKS_N': True, 'USE_SEQ_LEN': False, 'PACKED_PER_VAL': 1, 'N_GROUPS': 1}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 2
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
LAUNCH_OPTIONS_short = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")
FAST_LAUNCH_short = True   # a launch with an earlier one's key calls the kernel compiled for it; False: the JIT each time


_LAYOUTS_short = {}                  # argument -> its layout object, made on first use
_CODE_short = {}                     # expression -> its compiled code
_DESCS_short = {}                    # (argument, address, dtype, shape, strides) -> its descriptor
_KEYED_short = {}                    # launch key -> [flags' values, boxes (None: none), compiled kernel (None: not yet)]
_MODES_short = []                    # Triton's compilation and runtime knobs (instrumentation, debug)
_DEVICE_short = []                   # the active driver's current device, read per launch


def _ev_short(e, bound):
    code = _CODE_short.get(e)
    if code is None:
        code = _CODE_short[e] = compile(e, "launch", "eval")
    return eval(code, {}, bound)


class _Base_short:
    """A descriptor's base as the launch reads it (address, dtype): the descriptor holds no tensor alive."""

    __slots__ = ("ptr", "dtype")

    def __init__(self, t):
        self.ptr, self.dtype = t.data_ptr(), t.dtype

    def data_ptr(self):
        return self.ptr


def _desc_short(name, t, shape, strides, block):
    """The Gluon tensor descriptor of argument ``name`` over ``t`` (kept: at most 256)."""
    key = (name, t.data_ptr(), t.dtype, tuple(shape), tuple(strides))
    d = _DESCS_short.get(key)
    if d is None:
        from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

        layout = _LAYOUTS_short.get(name)
        if layout is None:
            from triton.experimental.gluon import language as gl
            layout = _LAYOUTS_short[name] = eval("gl." + DESCRIPTOR_LAYOUTS_short[name])
        if len(_DESCS_short) >= 256:
            _DESCS_short.clear()
        d = _DESCS_short[key] = TensorDescriptor(_Base_short(t), list(shape), list(strides), list(block), layout)
    return d


def _descriptor_short(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    base = getattr(value, "base", value)
    shape = getattr(value, "shape", base.shape)
    strides = getattr(value, "strides", None) or base.stride()
    return _desc_short(name, base, shape, strides, DESCRIPTOR_BLOCKS_short[name])


def _key_short(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES_short:
        from triton import knobs
        _MODES_short.extend((knobs.compilation, knobs.runtime))
    key = [g, _MODES_short[0].instrumentation_mode, _MODES_short[1].debug, _device_short()]
    for n in KEYED_short:
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


def _device_short():
    if not _DEVICE_short:
        from triton.runtime import driver
        _DEVICE_short.append(driver.active.get_current_device)
    return _DEVICE_short[0]()


def _decide_short(bound):
    """A launch key's decisions: the flags' values, the pointer tiles' boxes (None: none)."""
    shapes = None
    flags = {}
    return [tuple(flags[f] for f in FLAGS_short), shapes, None]


def launch_short(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS_short, args))
    if kwargs:
        bound.update({k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS_short})
    for k, v in CONSTEXPRS_short.items():
        if k in bound and bound[k] != v:
            raise ValueError(f"twill: this Gluon kernel was generated for {k}={v!r}, launched with {bound[k]!r}")
    g = grid(dict(bound, **CONSTEXPRS_short)) if callable(grid) else grid
    g = tuple(int(x) for x in g)
    if PERSISTENT_short:
        g = g + (1,) * (3 - len(g))
        bound.update(twill_g0=g[0], twill_g1=g[1], twill_g2=g[2])
        g = (max(1, min(g[0] * g[1] * g[2], _sm_count_short())),)
    key = _key_short(bound, g)
    entry = _KEYED_short.get(key) if key is not None else None
    if entry is None:
        entry = _decide_short(bound)
        if key is not None:
            if len(_KEYED_short) >= 64:
                _KEYED_short.clear()
            _KEYED_short[key] = entry
    missing = [n for n in RUNTIME_short if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor_short(bound[n], n) if n in DESCRIPTOR_BLOCKS_short else bound[n] for n in RUNTIME_short]
    return _run_short(entry, g, runtime)


def _run_short(entry, g, runtime):
    """The kernel compiled for this launch's key where a launch with it ran before, else through the JIT."""
    compiled = entry[2]
    if compiled is not None and FAST_LAUNCH_short:
        compiled[g + (1,) * (3 - len(g))](*runtime, *entry[0])
        return compiled
    compiled = twill_kernel_short[g](*runtime, **dict(zip(FLAGS_short, entry[0])), num_warps=NUM_WARPS_short, maxnreg=MAXNREG_short)
    if hasattr(compiled, "function") and hasattr(compiled, "__getitem__"):
        entry[2] = compiled
    return compiled


_SMS_short = []


def _sm_count_short():
    """The multiprocessors of the current device (a persistent kernel launches one program on each)."""
    if not _SMS_short:
        import torch
        _SMS_short.append(torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count)
    return _SMS_short[0]


class _Config_short:
    """``kernel.best_config`` as an autotuner has it after a run (Mamba reads its ``kwargs["BLOCK_SIZE_M"]`` to size
    its grid): the constexprs this kernel was generated for."""

    def __init__(self):
        self.kwargs, self.num_warps, self.num_stages, self.num_ctas = dict(CONSTEXPRS_short), NUM_WARPS_short, None, 1
        self.maxnreg, self.pre_hook = MAXNREG_short, None

    def all_kwargs(self):
        return dict(self.kwargs, num_warps=self.num_warps, num_ctas=self.num_ctas)


class _Kernel_short:
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
            return launch_short(grid, *args, **kwargs)
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
        return _Config_short()


kernel_short = _Kernel_short()


TIMED_ROUNDS = 2      # a launch key's first launch times each kernel in this many rounds, alternating,
TIMED_RUNS = 5        # of this many launches each
_TIMED = {}           # launch key -> the faster of ``launch_long`` and ``launch_short`` there


def launch(grid, *args, **kwargs):
    """Run the faster of the pipelined kernel and the one-stage one for this launch's key, timed on the
    key's first launch (the pipelined one where no timing can run: no CUDA device, a graph being captured)."""
    key = _timed_key(grid, args, kwargs)
    chosen = _TIMED.get(key) if key is not None else None
    if chosen is None:
        chosen = _timed(grid, args, kwargs)
        if key is not None and chosen is not None:
            if len(_TIMED) >= 64:
                _TIMED.clear()
            _TIMED[key] = chosen
    return (chosen or launch_long)(grid, *args, **kwargs)


def _timed_key(grid, args, kwargs):
    """The grid and every argument's shape, strides, type and alignment, or value (integers): what the two kernels'
    speeds depend on (the constexprs are the module's: none other launches); None where a part cannot be hashed.
    Read in the arguments' order, integers by their type alone: a launch pays it on the host (run 158)."""
    try:
        if callable(grid):
            bound = dict(zip(ARGUMENTS, args), **CONSTEXPRS)
            bound.update(kwargs)
            grid = grid(bound)
        g = tuple(int(x) for x in grid)
    except Exception:                       # noqa: BLE001 - the launch itself says what is wrong with its grid
        return None
    names = sorted(kwargs)
    key = [g, *names]
    for v in (*args, *(kwargs[n] for n in names)):
        t = type(v)
        if t is int or t is bool or v is None:
            key.append(v)
        elif hasattr(v, "data_ptr"):
            key.append((v.shape, v.stride(), v.dtype, v.data_ptr() % 16))
        elif hasattr(getattr(v, "base", None), "data_ptr"):     # a host tensor descriptor
            key.append((tuple(v.shape), tuple(v.strides), v.base.dtype, v.base.data_ptr() % 16))
        else:
            key.append(t.__name__)
    try:
        hash(key := tuple(key))
    except TypeError:
        return None
    return key


def _timed(grid, args, kwargs):
    """The faster launch function at these arguments, each timed with CUDA events after a first launch, behind a
    sleep on the device long enough for the host to queue every timed launch (the events then time the device's
    work, not the launches' host cost: run 157 timed vLLM's MoE so and chose the one partition, 257 TFLOP/s against
    the producer's 386 in graphs, its host path 100 us shorter), every tensor argument (a descriptor's base too)
    copied before and restored after; None where nothing can be timed now (no device, a graph being captured), the
    pipelined kernel's launch where the copies do not fit in memory (kept for the key: not tried again)."""
    try:
        import time
        import torch
        if not torch.cuda.is_available() or torch.cuda.is_current_stream_capturing():
            return None
    except Exception:                       # noqa: BLE001 - no device to ask: not timed
        return None
    try:
        values = list(args) + list(kwargs.values())
        tensors = [v if hasattr(v, "data_ptr") else v.base for v in values
                   if hasattr(v, "data_ptr") or hasattr(getattr(v, "base", None), "data_ptr")]
        # an expanded view (a zero stride) is read only: it cannot be copied back into
        tensors = [t for t in tensors if all(st or n <= 1 for st, n in zip(t.stride(), t.shape))]
        saved = [t.clone() for t in tensors]
    except Exception:                       # noqa: BLE001 - no memory for the copies: the pipelined kernel
        return launch_long
    try:
        launch_long(grid, *args, **kwargs)  # compiled, and its errors the launch's own
        try:
            launch_short(grid, *args, **kwargs)
        except Exception:                   # noqa: BLE001 - the one-stage kernel refuses this launch: the other runs
            return launch_long
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        launch_long(grid, *args, **kwargs)
        launch_short(grid, *args, **kwargs)
        host = time.perf_counter() - t0     # the host's time for one launch of each, compiled
        spent = {launch_long: 0.0, launch_short: 0.0}
        for _ in range(TIMED_ROUNDS):
            for fn in spent:
                _backlog(host * TIMED_RUNS)
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(TIMED_RUNS):
                    fn(grid, *args, **kwargs)
                end.record()
                end.synchronize()
                spent[fn] += start.elapsed_time(end)
        return min(spent, key=spent.get)
    finally:
        for t, s in zip(tensors, saved):
            t.copy_(s)


def _backlog(seconds):
    """Keep the device busy for twice ``seconds`` at up to 2 GHz (capped at 50 ms): the launches queued meanwhile
    start back to back when it ends."""
    import torch
    sleep = getattr(torch.cuda, "_sleep", None)
    if sleep is not None:
        sleep(int(min(2 * seconds, 0.05) * 2e9))
