"""forward_kernel, written by twill from its joint schedule: I=415 L=415 (optimal), 2878 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (k_131_as 2 x 16384 B, v_161_as 2 x 16384 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 93 per thread)
- shared memory: 65552 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's
- early return at xunhao_nsa_topk_sparse_fwd.py:112 (TTGIR line 78): taken in the kernel itself, before the loop; the kernel's own tile loop after it

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
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L7 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q_ptr, k_ptr, v_ptr, t_ptr, o_ptr, lse_ptr, cu_seqlens_q, cu_seqlens_k, NUM_KV_HEADS, NUM_SHARE_Q_HEADS, HEAD_DIM, TOPK, sm_scale, stride_qn, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_th, stride_tn, stride_on, stride_oh, stride_lh, TWILL_COPY: gl.constexpr):
    twill_base = 0
    qk_scale = sm_scale * 1.44269502
    pid_b = gl.program_id(0)
    pid_kh = gl.program_id(1)
    pid_h = pid_kh * NUM_SHARE_Q_HEADS
    pid_q = gl.program_id(2)
    q_start = cu_seqlens_q + pid_b
    q_start_16 = gl.load(q_start)
    k_start = cu_seqlens_k + pid_b
    k_start_19 = gl.load(k_start)
    k_len = k_start + 1
    k_len_20 = gl.load(k_len)
    k_len_21 = k_len_20 - k_start_19
    off_t = gl.arange(0, 16, layout=L0)
    off_t_23 = gl.arange(0, 16, layout=L1)
    t_ptr_j = pid_kh * stride_th
    topk_idx_24 = off_t_23 < TOPK
    q_ptrs = pid_h * stride_qh
    q_ptrs_25 = gl.cast(NUM_SHARE_Q_HEADS, gl.int64)
    q_ptrs_26 = gl.cast(HEAD_DIM, gl.int64)
    q_ptrs_27 = gl.cast(stride_qh, gl.int64)
    k_ptrs = k_start_19 * stride_kn
    k_ptrs_28 = k_ptr + k_ptrs
    k_ptrs_29 = pid_kh * stride_kh
    k_ptrs_30 = k_ptrs_28 + k_ptrs_29
    k_ptrs_31 = gl.cast(k_len_21, gl.int64)
    k_ptrs_32 = gl.cast(stride_kn, gl.int64)
    v_ptrs = k_start_19 * stride_vn
    v_ptrs_33 = v_ptr + v_ptrs
    v_ptrs_34 = pid_kh * stride_vh
    v_ptrs_35 = v_ptrs_33 + v_ptrs_34
    v_ptrs_36 = gl.cast(stride_vn, gl.int64)
    q = off_t.to(gl.int64)
    q_37 = gl.expand_dims(q, 1)
    q_39 = q_37 * q_ptrs_27
    q_40 = q_39.broadcast_to([16, 128])
    q_41 = gl.arange(0, 128, layout=L2)
    q_42 = gl.arange(0, 128, layout=L3)
    q_43 = q_41.to(gl.int64)
    q_44 = q_42.to(gl.int64)
    q_45 = gl.expand_dims(q_43, 0)
    q_46 = q_45.broadcast_to([16, 128])
    q_47 = q_40 + q_46
    q_48 = q_37 >= 0
    q_50 = q_37 < q_ptrs_25
    q_51 = q_48 & q_50
    q_52 = q_51.broadcast_to([16, 128])
    q_53 = q_45 >= 0
    q_55 = q_45 < q_ptrs_26
    q_56 = q_53 & q_55
    q_57 = q_56.broadcast_to([16, 128])
    q_58 = q_52 & q_57
    off_k = gl.arange(0, 64, layout=L4)
    off_k_59 = gl.arange(0, 64, layout=L5)
    off_k_60 = gl.arange(0, 64, layout=L0)
    k_61 = gl.expand_dims(q_44, 1)
    k_62 = k_61.broadcast_to([128, 64])
    k_63 = off_k.to(gl.int64)
    k_64 = off_k_60.to(gl.int64)
    k_66 = k_61 >= 0
    k_68 = k_61 < q_ptrs_26
    k_69 = k_66 & k_68
    k_70 = k_69.broadcast_to([128, 64])
    v_73 = q_45.broadcast_to([64, 128])
    v_75 = q_56.broadcast_to([64, 128])
    o_ptrs = pid_h * stride_oh
    o_ptrs_76 = gl.cast(stride_oh, gl.int64)
    v2 = q_37 * o_ptrs_76
    v3 = v2.broadcast_to([16, 128])
    v4 = v3 + q_46
    lse_ptrs_77 = pid_h + off_t_23
    lse_ptrs_79 = lse_ptrs_77 * stride_lh
    v6 = off_t_23 < NUM_SHARE_Q_HEADS
    q_len = q_start + 1
    q_len_17 = gl.load(q_len)
    q_len_18 = q_len_17 - q_start_16
    real_q_loop = q_len_18 - pid_q
    real_q_loop_22 = gl.minimum(real_q_loop, 1)
    twill_tile_lb = 0
    twill_tile_step = 1
    for j in range(twill_tile_lb, real_q_loop_22, twill_tile_step):
        pid_q_j = pid_q + j
        t_ptr_j_80 = q_start_16 + pid_q_j
        t_ptr_j_81 = t_ptr_j_80 * stride_tn
        t_ptr_j_82 = t_ptr + t_ptr_j_81
        t_ptr_j_83 = t_ptr_j_82 + t_ptr_j
        topk_idx_85 = t_ptr_j_83 + off_t_23
        topk_idx_86 = gl.load(topk_idx_85, mask=topk_idx_24, other=-1)
        real_topk = topk_idx_86 >= 0
        real_topk_87 = pid_q_j // 64
        real_topk_89 = topk_idx_86 <= real_topk_87
        real_topk_90 = real_topk & real_topk_89
        real_topk_91 = gl.where(real_topk_90, 1, 0)
        real_topk_92 = gl.sum(real_topk_91, axis=0)
        q_ptrs_93 = t_ptr_j_80 * stride_qn
        q_ptrs_94 = q_ptr + q_ptrs_93
        q_ptrs_95 = q_ptrs_94 + q_ptrs
        q_97 = q_ptrs_95 + q_47
        q_98 = gl.load(q_97, mask=q_58, other=0.0)
        q_100 = gl.convert_layout(q_98, L6)
        twill_n = (real_topk_92 - 0 + 1 - 1) // 1
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            k_131_as = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[0, 1]))
            v_161_as = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
            t_ptr_j_115 = t_ptr_j_83
            t_ptr_j_115_p1 = t_ptr_j_115
            m_ij_143 = gl.full([16], float("-inf"), gl.float32, layout=L7)
            lse_i_169 = gl.full([16], float("-inf"), gl.float32, layout=L7)
            acc_o_165 = gl.full([16, 128], 0.0, gl.float32, layout=L8)
            t_ptr_j_115 = t_ptr_j_115_p1 + 1  # load0_c: stage 0, partition 0 (group 0)
            c = gl.load(t_ptr_j_115_p1)  # load0_c: stage 0, partition 0 (group 0)
            c_114 = c * 64  # elementwise0_c: stage 0, partition 0 (group 0)
            k_116 = gl.cast(c_114, gl.int64)  # convert0_k: stage 0, partition 0 (group 0)
            k_117 = k_116  # load1_k: stage 0, partition 0 (group 0)
            k_119 = k_117 + k_63  # load1_k: stage 0, partition 0 (group 0)
            k_121 = gl.expand_dims(k_119, 0)  # load1_k: stage 0, partition 0 (group 0)
            k_122 = k_121 * k_ptrs_32  # load1_k: stage 0, partition 0 (group 0)
            k_126 = k_121 >= 0  # load1_k: stage 0, partition 0 (group 0)
            k_127 = k_121 < k_ptrs_31  # load1_k: stage 0, partition 0 (group 0)
            k_123 = k_122.broadcast_to([128, 64])  # load1_k: stage 0, partition 0 (group 0)
            k_128 = k_126 & k_127  # load1_k: stage 0, partition 0 (group 0)
            k_124 = k_62 + k_123  # load1_k: stage 0, partition 0 (group 0)
            k_129 = k_128.broadcast_to([128, 64])  # load1_k: stage 0, partition 0 (group 0)
            k_125 = k_ptrs_30 + k_124  # load1_k: stage 0, partition 0 (group 0)
            k_130 = k_70 & k_129  # load1_k: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_k: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_131_as.index((twill_base + 0 - 0) % 2), k_125, mask=k_130)  # load1_k: stage 0, partition 0 (group 0)
            else:  # load1_k: stage 0, partition 0 (group 0)
                k_131_as.index((twill_base + 0 - 0) % 2).store(gl.load(k_125, mask=k_130, other=0.0))  # load1_k: stage 0, partition 0 (group 0)
            k_118 = k_116  # load2_v: stage 0, partition 0 (group 0)
            k_120 = k_118 + k_64  # load2_v: stage 0, partition 0 (group 0)
            v_151 = gl.expand_dims(k_120, 1)  # load2_v: stage 0, partition 0 (group 0)
            v_152 = v_151 * v_ptrs_36  # load2_v: stage 0, partition 0 (group 0)
            v_156 = v_151 >= 0  # load2_v: stage 0, partition 0 (group 0)
            v_157 = v_151 < k_ptrs_31  # load2_v: stage 0, partition 0 (group 0)
            v_153 = v_152.broadcast_to([64, 128])  # load2_v: stage 0, partition 0 (group 0)
            v_158 = v_156 & v_157  # load2_v: stage 0, partition 0 (group 0)
            v_154 = v_153 + v_73  # load2_v: stage 0, partition 0 (group 0)
            v_159 = v_158.broadcast_to([64, 128])  # load2_v: stage 0, partition 0 (group 0)
            v_155 = v_ptrs_35 + v_154  # load2_v: stage 0, partition 0 (group 0)
            v_160 = v_159 & v_75  # load2_v: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_v: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(v_161_as.index((twill_base + 0 - 0) % 2), v_155, mask=v_160)  # load2_v: stage 0, partition 0 (group 0)
            else:  # load2_v: stage 0, partition 0 (group 0)
                v_161_as.index((twill_base + 0 - 0) % 2).store(gl.load(v_155, mask=v_160, other=0.0))  # load2_v: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            acc_o_165_p1 = acc_o_165
            c_114_p1 = c_114
            lse_i_169_p1 = lse_i_169
            m_ij_143_p1 = m_ij_143
            t_ptr_j_115_p1 = t_ptr_j_115
            for twill_b in range(1, twill_n):
                t_ptr_j_115 = t_ptr_j_115_p1 + 1  # load0_c: stage 0, partition 0 (group 0)
                c = gl.load(t_ptr_j_115_p1)  # load0_c: stage 0, partition 0 (group 0)
                c_114 = c * 64  # elementwise0_c: stage 0, partition 0 (group 0)
                k_116 = gl.cast(c_114, gl.int64)  # convert0_k: stage 0, partition 0 (group 0)
                qk_132 = c_114_p1  # elementwise1_qk: stage 1, partition 0 (group 0)
                qk_133 = qk_132 + off_k_59  # elementwise1_qk: stage 1, partition 0 (group 0)
                qk_134 = pid_q_j >= qk_133  # elementwise1_qk: stage 1, partition 0 (group 0)
                qk_135 = gl.expand_dims(qk_134, 0)  # elementwise1_qk: stage 1, partition 0 (group 0)
                qk_136 = gl.where(qk_135, 0.0, float("-inf"))  # elementwise1_qk: stage 1, partition 0 (group 0)
                qk_137 = qk_136 + 0.0  # elementwise1_qk: stage 1, partition 0 (group 0)
                k_117 = k_116  # load1_k: stage 0, partition 0 (group 0)
                k_119 = k_117 + k_63  # load1_k: stage 0, partition 0 (group 0)
                k_121 = gl.expand_dims(k_119, 0)  # load1_k: stage 0, partition 0 (group 0)
                k_122 = k_121 * k_ptrs_32  # load1_k: stage 0, partition 0 (group 0)
                k_126 = k_121 >= 0  # load1_k: stage 0, partition 0 (group 0)
                k_127 = k_121 < k_ptrs_31  # load1_k: stage 0, partition 0 (group 0)
                k_123 = k_122.broadcast_to([128, 64])  # load1_k: stage 0, partition 0 (group 0)
                k_128 = k_126 & k_127  # load1_k: stage 0, partition 0 (group 0)
                k_124 = k_62 + k_123  # load1_k: stage 0, partition 0 (group 0)
                k_129 = k_128.broadcast_to([128, 64])  # load1_k: stage 0, partition 0 (group 0)
                async_copy.wait_group(0)
                gl.thread_barrier()
                k_131 = k_131_as.index((twill_base + twill_b - 1) % 2).load(L9)  # load1_k: stage 1, partition 0 (group 0)
                k_125 = k_ptrs_30 + k_124  # load1_k: stage 0, partition 0 (group 0)
                k_130 = k_70 & k_129  # load1_k: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_k: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(k_131_as.index((twill_base + twill_b - 0) % 2), k_125, mask=k_130)  # load1_k: stage 0, partition 0 (group 0)
                else:  # load1_k: stage 0, partition 0 (group 0)
                    k_131_as.index((twill_base + twill_b - 0) % 2).store(gl.load(k_125, mask=k_130, other=0.0))  # load1_k: stage 0, partition 0 (group 0)
                k_139 = gl.convert_layout(k_131, L9)  # convert1_k: stage 1, partition 0 (group 0)
                qk_140 = mma_v2(q_100, k_139, gl.full([16, 64], 0.0, gl.float32, layout=L8))  # dot0_qk: stage 1, partition 0 (group 0)
                qk_138 = qk_137.broadcast_to([16, 64])  # elementwise2_qk: stage 1, partition 0 (group 0)
                qk_141 = qk_140 * qk_scale  # elementwise2_qk: stage 1, partition 0 (group 0)
                qk_142 = qk_138 + qk_141  # elementwise2_qk: stage 1, partition 0 (group 0)
                m_ij = gl.max(qk_142, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
                m_ij_143 = gl.maximum(m_ij_143_p1, m_ij)  # elementwise3_m_ij: stage 1, partition 0 (group 0)
                p = gl.expand_dims(m_ij_143, 1)  # sfu0_p: stage 1, partition 0 (group 0)
                p_144 = p.broadcast_to([16, 64])  # sfu0_p: stage 1, partition 0 (group 0)
                p_145 = qk_142 - p_144  # sfu0_p: stage 1, partition 0 (group 0)
                p_146 = gl.exp2(p_145)  # sfu0_p: stage 1, partition 0 (group 0)
                l_ij = gl.sum(p_146, axis=1)  # reduce1_l_ij: stage 1, partition 0 (group 0)
                lse_i = lse_i_169_p1 - m_ij_143  # sfu2_lse_i: stage 1, partition 0 (group 0)
                lse_i_166 = gl.exp2(lse_i)  # sfu2_lse_i: stage 1, partition 0 (group 0)
                acc_o_scale = m_ij_143_p1 - m_ij_143  # sfu1_acc_o_scale: stage 1, partition 0 (group 0)
                acc_o_scale_147 = gl.exp2(acc_o_scale)  # sfu1_acc_o_scale: stage 1, partition 0 (group 0)
                p_162 = p_146.to(gl.float16)  # convert2_p: stage 1, partition 0 (group 0)
                p_163 = gl.convert_layout(p_162, L6)  # convert2_p: stage 1, partition 0 (group 0)
                lse_i_167 = lse_i_166 + l_ij  # sfu3_lse_i: stage 1, partition 0 (group 0)
                lse_i_168 = gl.log2(lse_i_167)  # sfu3_lse_i: stage 1, partition 0 (group 0)
                lse_i_169 = m_ij_143 + lse_i_168  # elementwise5_lse_i: stage 1, partition 0 (group 0)
                acc_o_148 = gl.expand_dims(acc_o_scale_147, 1)  # elementwise4_acc_o: stage 1, partition 0 (group 0)
                acc_o_149 = acc_o_148.broadcast_to([16, 128])  # elementwise4_acc_o: stage 1, partition 0 (group 0)
                acc_o_150 = acc_o_165_p1 * acc_o_149  # elementwise4_acc_o: stage 1, partition 0 (group 0)
                k_118 = k_116  # load2_v: stage 0, partition 0 (group 0)
                k_120 = k_118 + k_64  # load2_v: stage 0, partition 0 (group 0)
                v_151 = gl.expand_dims(k_120, 1)  # load2_v: stage 0, partition 0 (group 0)
                v_152 = v_151 * v_ptrs_36  # load2_v: stage 0, partition 0 (group 0)
                v_161 = v_161_as.index((twill_base + twill_b - 1) % 2).load(L9)  # load2_v: stage 1, partition 0 (group 0)
                v_156 = v_151 >= 0  # load2_v: stage 0, partition 0 (group 0)
                v_157 = v_151 < k_ptrs_31  # load2_v: stage 0, partition 0 (group 0)
                v_153 = v_152.broadcast_to([64, 128])  # load2_v: stage 0, partition 0 (group 0)
                v_158 = v_156 & v_157  # load2_v: stage 0, partition 0 (group 0)
                v_154 = v_153 + v_73  # load2_v: stage 0, partition 0 (group 0)
                v_159 = v_158.broadcast_to([64, 128])  # load2_v: stage 0, partition 0 (group 0)
                v_155 = v_ptrs_35 + v_154  # load2_v: stage 0, partition 0 (group 0)
                v_160 = v_159 & v_75  # load2_v: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load2_v: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(v_161_as.index((twill_base + twill_b - 0) % 2), v_155, mask=v_160)  # load2_v: stage 0, partition 0 (group 0)
                else:  # load2_v: stage 0, partition 0 (group 0)
                    v_161_as.index((twill_base + twill_b - 0) % 2).store(gl.load(v_155, mask=v_160, other=0.0))  # load2_v: stage 0, partition 0 (group 0)
                v_164 = gl.convert_layout(v_161, L9)  # convert3_v: stage 1, partition 0 (group 0)
                acc_o_165 = mma_v2(p_163, v_164, acc_o_150)  # dot1_acc_o: stage 1, partition 0 (group 0)
                async_copy.commit_group()
                acc_o_165_p1 = acc_o_165
                c_114_p1 = c_114
                lse_i_169_p1 = lse_i_169
                m_ij_143_p1 = m_ij_143
                t_ptr_j_115_p1 = t_ptr_j_115
            qk_132 = c_114_p1  # elementwise1_qk: stage 1, partition 0 (group 0)
            qk_133 = qk_132 + off_k_59  # elementwise1_qk: stage 1, partition 0 (group 0)
            qk_134 = pid_q_j >= qk_133  # elementwise1_qk: stage 1, partition 0 (group 0)
            qk_135 = gl.expand_dims(qk_134, 0)  # elementwise1_qk: stage 1, partition 0 (group 0)
            qk_136 = gl.where(qk_135, 0.0, float("-inf"))  # elementwise1_qk: stage 1, partition 0 (group 0)
            qk_137 = qk_136 + 0.0  # elementwise1_qk: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            k_131 = k_131_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L9)  # load1_k: stage 1, partition 0 (group 0)
            k_139 = gl.convert_layout(k_131, L9)  # convert1_k: stage 1, partition 0 (group 0)
            qk_140 = mma_v2(q_100, k_139, gl.full([16, 64], 0.0, gl.float32, layout=L8))  # dot0_qk: stage 1, partition 0 (group 0)
            qk_138 = qk_137.broadcast_to([16, 64])  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_141 = qk_140 * qk_scale  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_142 = qk_138 + qk_141  # elementwise2_qk: stage 1, partition 0 (group 0)
            m_ij = gl.max(qk_142, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
            m_ij_143 = gl.maximum(m_ij_143_p1, m_ij)  # elementwise3_m_ij: stage 1, partition 0 (group 0)
            p = gl.expand_dims(m_ij_143, 1)  # sfu0_p: stage 1, partition 0 (group 0)
            p_144 = p.broadcast_to([16, 64])  # sfu0_p: stage 1, partition 0 (group 0)
            p_145 = qk_142 - p_144  # sfu0_p: stage 1, partition 0 (group 0)
            p_146 = gl.exp2(p_145)  # sfu0_p: stage 1, partition 0 (group 0)
            l_ij = gl.sum(p_146, axis=1)  # reduce1_l_ij: stage 1, partition 0 (group 0)
            lse_i = lse_i_169_p1 - m_ij_143  # sfu2_lse_i: stage 1, partition 0 (group 0)
            lse_i_166 = gl.exp2(lse_i)  # sfu2_lse_i: stage 1, partition 0 (group 0)
            acc_o_scale = m_ij_143_p1 - m_ij_143  # sfu1_acc_o_scale: stage 1, partition 0 (group 0)
            acc_o_scale_147 = gl.exp2(acc_o_scale)  # sfu1_acc_o_scale: stage 1, partition 0 (group 0)
            p_162 = p_146.to(gl.float16)  # convert2_p: stage 1, partition 0 (group 0)
            p_163 = gl.convert_layout(p_162, L6)  # convert2_p: stage 1, partition 0 (group 0)
            lse_i_167 = lse_i_166 + l_ij  # sfu3_lse_i: stage 1, partition 0 (group 0)
            lse_i_168 = gl.log2(lse_i_167)  # sfu3_lse_i: stage 1, partition 0 (group 0)
            lse_i_169 = m_ij_143 + lse_i_168  # elementwise5_lse_i: stage 1, partition 0 (group 0)
            acc_o_148 = gl.expand_dims(acc_o_scale_147, 1)  # elementwise4_acc_o: stage 1, partition 0 (group 0)
            acc_o_149 = acc_o_148.broadcast_to([16, 128])  # elementwise4_acc_o: stage 1, partition 0 (group 0)
            acc_o_150 = acc_o_165_p1 * acc_o_149  # elementwise4_acc_o: stage 1, partition 0 (group 0)
            v_161 = v_161_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L9)  # load2_v: stage 1, partition 0 (group 0)
            v_164 = gl.convert_layout(v_161, L9)  # convert3_v: stage 1, partition 0 (group 0)
            acc_o_165 = mma_v2(p_163, v_164, acc_o_150)  # dot1_acc_o: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_o_165_p1 = acc_o_165
            c_114_p1 = c_114
            lse_i_169_p1 = lse_i_169
            m_ij_143_p1 = m_ij_143
            t_ptr_j_115_p2 = t_ptr_j_115_p1
            t_ptr_j_115_p1 = t_ptr_j_115
        else:
            t_ptr_j_115_p2 = t_ptr_j_83
            m_ij_143_p1 = gl.full([16], float("-inf"), gl.float32, layout=L7)
            lse_i_169_p1 = gl.full([16], float("-inf"), gl.float32, layout=L7)
            acc_o_165_p1 = gl.full([16, 128], 0.0, gl.float32, layout=L8)
        acc_o_101 = m_ij_143_p1 - lse_i_169_p1
        acc_o_102 = gl.exp2(acc_o_101)
        acc_o_103 = gl.expand_dims(acc_o_102, 1)
        acc_o_104 = acc_o_103.broadcast_to([16, 128])
        acc_o_105 = acc_o_165_p1 * acc_o_104
        o_ptrs_106 = t_ptr_j_80 * stride_on
        o_ptrs_107 = o_ptr + o_ptrs_106
        o_ptrs_108 = o_ptrs_107 + o_ptrs
        v7 = acc_o_105.to(gl.float16)
        v9 = o_ptrs_108 + v4
        v10 = gl.convert_layout(v7, L10)
        gl.store(v9, v10, mask=q_58)
        lse_ptrs_109 = lse_ptr + t_ptr_j_80
        lse_ptrs_111 = lse_ptrs_109 + lse_ptrs_79
        v11 = gl.convert_layout(lse_i_169_p1, L1)
        gl.store(lse_ptrs_111, v11, mask=v6)
        twill_base += twill_n

@gluon.jit
def twill_kernel(q_ptr, k_ptr, v_ptr, t_ptr, o_ptr, lse_ptr, cu_seqlens_q, cu_seqlens_k, NUM_KV_HEADS, NUM_SHARE_Q_HEADS, HEAD_DIM, TOPK, sm_scale, stride_qn, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_th, stride_tn, stride_on, stride_oh, stride_lh, TWILL_COPY: gl.constexpr):
    pid_b = gl.program_id(0)
    pid_q = gl.program_id(2)
    q_start = cu_seqlens_q + pid_b
    q_start_16 = gl.load(q_start)
    q_len = q_start + 1
    q_len_17 = gl.load(q_len)
    q_len_18 = q_len_17 - q_start_16
    v0 = pid_q >= q_len_18
    if v0:
        return
    consumer_0(q_ptr, k_ptr, v_ptr, t_ptr, o_ptr, lse_ptr, cu_seqlens_q, cu_seqlens_k, NUM_KV_HEADS, NUM_SHARE_Q_HEADS, HEAD_DIM, TOPK, sm_scale, stride_qn, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_th, stride_tn, stride_on, stride_oh, stride_lh, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q_ptr', 'k_ptr', 'v_ptr', 't_ptr', 'o_ptr', 'lse_ptr', 'cu_seqlens_q', 'cu_seqlens_k', 'NUM_KV_HEADS', 'NUM_SHARE_Q_HEADS', 'HEAD_DIM', 'TOPK', 'num_q_loop', 'sm_scale', 'stride_qn', 'stride_qh', 'stride_qd', 'stride_kn', 'stride_kh', 'stride_kd', 'stride_vn', 'stride_vh', 'stride_vd', 'stride_th', 'stride_tn', 'stride_tk', 'stride_on', 'stride_oh', 'stride_od', 'stride_lh', 'stride_ln', 'BLOCK_SIZE_K', 'BLOCK_SIZE_D', 'BLOCK_SIZE_H', 'BLOCK_SIZE_T']          # the Triton kernel's parameters, in order
RUNTIME = ['q_ptr', 'k_ptr', 'v_ptr', 't_ptr', 'o_ptr', 'lse_ptr', 'cu_seqlens_q', 'cu_seqlens_k', 'NUM_KV_HEADS', 'NUM_SHARE_Q_HEADS', 'HEAD_DIM', 'TOPK', 'sm_scale', 'stride_qn', 'stride_qh', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh', 'stride_th', 'stride_tn', 'stride_on', 'stride_oh', 'stride_lh']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q_ptr', 'k_ptr', 'v_ptr', 't_ptr', 'o_ptr', 'lse_ptr', 'cu_seqlens_q', 'cu_seqlens_k', 'NUM_KV_HEADS', 'NUM_SHARE_Q_HEADS', 'HEAD_DIM', 'TOPK', 'sm_scale', 'stride_qn', 'stride_qh', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh', 'stride_th', 'stride_tn', 'stride_on', 'stride_oh', 'stride_lh']   # the arguments a launch key reads
CONSTEXPRS = {'num_q_loop': 1, 'stride_qd': 1, 'stride_kd': 1, 'stride_vd': 1, 'stride_tk': 1, 'stride_od': 1, 'stride_ln': 1, 'BLOCK_SIZE_K': 64, 'BLOCK_SIZE_D': 128, 'BLOCK_SIZE_H': 16, 'BLOCK_SIZE_T': 16}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['k_ptr', 'v_ptr', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
