"""_fwd_grouped_kernel_stage1, written by twill from its joint schedule: I=410 L=475 (optimal), 1841 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (v_159_as 2 x 8192 B, k_142_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 83 per thread)
- shared memory: 32784 bytes planned of 232448; maxnreg unset (ptxas allocates)
- if at grouped_decode_attention.py:65 (TTGIR line 133) around the scheduled loop: taken as an early return where its condition fails in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)

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
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L8 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L10 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))
L11 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K_Buffer, V_Buffer, sm_scale, kv_indptr, kv_indices, Att_Out, Att_Lse, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, TWILL_COPY: gl.constexpr):
    cur_batch = gl.program_id(0)
    cur_head_id = gl.program_id(1)
    split_kv_id = gl.program_id(2)
    cur_head = cur_head_id * 8
    cur_head_14 = gl.arange(0, 16, layout=L0)
    cur_head_15 = gl.arange(0, 16, layout=L1)
    cur_head_16 = gl.arange(0, 16, layout=L2)
    cur_head_17 = gl.arange(0, 16, layout=L3)
    cur_head_22 = cur_head + cur_head_14
    cur_head_23 = cur_head + cur_head_15
    cur_head_24 = cur_head + cur_head_16
    cur_head_25 = cur_head + cur_head_17
    mask_h_26 = cur_head_id + 1
    mask_h_27 = mask_h_26 * 8
    mask_h_32 = cur_head_22 < mask_h_27
    mask_h_33 = cur_head_23 < mask_h_27
    mask_h_34 = cur_head_24 < mask_h_27
    mask_h_35 = cur_head_25 < mask_h_27
    mask_h_36 = cur_head_22 < 32
    mask_h_37 = cur_head_23 < 32
    mask_h_38 = cur_head_24 < 32
    mask_h_39 = cur_head_25 < 32
    mask_h_40 = mask_h_32 & mask_h_36
    mask_h_41 = mask_h_33 & mask_h_37
    mask_h_42 = mask_h_34 & mask_h_38
    mask_h_43 = mask_h_35 & mask_h_39
    offs_d = gl.arange(0, 128, layout=L4)
    offs_d_44 = gl.arange(0, 128, layout=L5)
    offs_d_45 = gl.arange(0, 128, layout=L6)
    mask_d = offs_d < 128
    mask_d_46 = offs_d_44 < 128
    mask_d_47 = offs_d_45 < 128
    cur_batch_kv_start_idx = kv_indptr + cur_batch
    cur_batch_kv_start_idx_48 = gl.load(cur_batch_kv_start_idx)
    cur_batch_seq_len = cur_batch_kv_start_idx + 1
    cur_batch_seq_len_49 = gl.load(cur_batch_seq_len)
    cur_batch_seq_len_50 = cur_batch_seq_len_49 - cur_batch_kv_start_idx_48
    offs_q = cur_batch * stride_qbs
    offs_q_51 = gl.expand_dims(cur_head_22, 1)
    offs_q_52 = gl.expand_dims(cur_head_23, 1)
    offs_q_54 = offs_q_51 * stride_qh
    offs_q_56 = offs_q + offs_q_54
    offs_q_57 = gl.expand_dims(offs_d, 0)
    offs_q_58 = gl.expand_dims(offs_d_44, 0)
    offs_q_59 = offs_q_56.broadcast_to([16, 128])
    offs_q_60 = offs_q_57.broadcast_to([16, 128])
    offs_q_61 = offs_q_58.broadcast_to([16, 128])
    offs_q_62 = offs_q_59 + offs_q_60
    q_63 = gl.expand_dims(mask_h_40, 1)
    q_64 = gl.expand_dims(mask_h_41, 1)
    q_65 = gl.expand_dims(mask_h_42, 1)
    q_66 = gl.expand_dims(mask_d, 0)
    q_67 = gl.expand_dims(mask_d_46, 0)
    q_68 = q_63.broadcast_to([16, 128])
    q_69 = q_64.broadcast_to([16, 128])
    q_70 = q_66.broadcast_to([16, 128])
    q_71 = q_67.broadcast_to([16, 128])
    q_72 = q_68 & q_70
    q_73 = q_69 & q_71
    q_75 = Q + offs_q_62
    q_76 = gl.load(q_75, mask=q_72, other=0.0)
    kv_len_per_split_77 = cur_batch_seq_len_50 + 7
    kv_len_per_split_78 = kv_len_per_split_77 // 8
    split_kv_start = kv_len_per_split_78 * split_kv_id
    split_kv_end = split_kv_start + kv_len_per_split_78
    split_kv_end_79 = gl.minimum(split_kv_end, cur_batch_seq_len_50)
    offs_n = gl.arange(0, 32, layout=L7)
    offs_n_80 = gl.arange(0, 32, layout=L8)
    offs_n_81 = gl.arange(0, 32, layout=L0)
    kv_loc_83 = kv_indices + cur_batch_kv_start_idx_48
    offs_buf_k_86 = cur_head_id * stride_buf_kh
    offs_buf_k_88 = gl.expand_dims(offs_d_45, 1)
    offs_buf_k_89 = offs_buf_k_88.broadcast_to([128, 32])
    k_91 = gl.expand_dims(mask_d_47, 1)
    k_92 = k_91.broadcast_to([128, 32])
    q_94 = gl.convert_layout(q_76, L9)
    qk_95 = q_65.broadcast_to([16, 32])
    offs_buf_v_96 = cur_head_id * stride_buf_vh
    offs_buf_v_98 = offs_q_57.broadcast_to([32, 128])
    v_99 = q_66.broadcast_to([32, 128])
    twill_n = gl.maximum((split_kv_end_79 - split_kv_start + 32 - 1) // 32, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        v_159_as = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
        k_142_as = gl.allocate_shared_memory(gl.float16, [2, 128, 32], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[0, 1]))
        n_e_max_160 = gl.full([16], float("-inf"), gl.float32, layout=L2)
        offs_n_118 = (split_kv_start + (0 - 0) * 32)  # load0_kv_loc: stage 0, partition 0 (group 0)
        offs_n_121 = offs_n_118 + offs_n  # load0_kv_loc: stage 0, partition 0 (group 0)
        k_135 = gl.expand_dims(offs_n_121, 0)  # elementwise1_k: stage 0, partition 0 (group 0)
        k_137 = k_135 < split_kv_end_79  # elementwise1_k: stage 0, partition 0 (group 0)
        k_139 = k_137.broadcast_to([128, 32])  # elementwise1_k: stage 0, partition 0 (group 0)
        k_140 = k_139 & k_92  # elementwise1_k: stage 0, partition 0 (group 0)
        kv_loc_124 = offs_n_121 < split_kv_end_79  # load0_kv_loc: stage 0, partition 0 (group 0)
        kv_loc_126 = kv_loc_83 + offs_n_121  # load0_kv_loc: stage 0, partition 0 (group 0)
        kv_loc_128 = gl.load(kv_loc_126, mask=kv_loc_124, other=0)  # load0_kv_loc: stage 0, partition 0 (group 0)
        offs_buf_k_130 = gl.expand_dims(kv_loc_128, 0)  # load2_k: stage 0, partition 0 (group 0)
        offs_buf_k_131 = offs_buf_k_130 * stride_buf_kbs  # load2_k: stage 0, partition 0 (group 0)
        offs_buf_k_132 = offs_buf_k_131 + offs_buf_k_86  # load2_k: stage 0, partition 0 (group 0)
        offs_buf_k_133 = offs_buf_k_132.broadcast_to([128, 32])  # load2_k: stage 0, partition 0 (group 0)
        offs_buf_k_134 = offs_buf_k_133 + offs_buf_k_89  # load2_k: stage 0, partition 0 (group 0)
        k_141 = K_Buffer + offs_buf_k_134  # load2_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_142_as.index((0 - 0) % 2), k_141, mask=k_140)  # load2_k: stage 0, partition 0 (group 0)
        else:  # load2_k: stage 0, partition 0 (group 0)
            k_142_as.index((0 - 0) % 2).store(gl.load(k_141, mask=k_140, other=0.0))  # load2_k: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        n_e_max_160_p1 = n_e_max_160
        e_sum_173 = gl.full([16], 0.0, gl.float32, layout=L2)
        acc_171 = gl.full([16, 128], 0.0, gl.float32, layout=L10)
        offs_n_118 = (split_kv_start + (1 - 0) * 32)  # load0_kv_loc: stage 0, partition 0 (group 0)
        offs_n_121 = offs_n_118 + offs_n  # load0_kv_loc: stage 0, partition 0 (group 0)
        k_135 = gl.expand_dims(offs_n_121, 0)  # elementwise1_k: stage 0, partition 0 (group 0)
        k_137 = k_135 < split_kv_end_79  # elementwise1_k: stage 0, partition 0 (group 0)
        k_139 = k_137.broadcast_to([128, 32])  # elementwise1_k: stage 0, partition 0 (group 0)
        k_140 = k_139 & k_92  # elementwise1_k: stage 0, partition 0 (group 0)
        offs_n_120 = (split_kv_start + (1 - 1) * 32)  # load1_kv_loc: stage 1, partition 0 (group 0)
        offs_n_123 = offs_n_120 + offs_n_81  # load1_kv_loc: stage 1, partition 0 (group 0)
        v_154 = gl.expand_dims(offs_n_123, 1)  # elementwise2_v: stage 1, partition 0 (group 0)
        v_155 = v_154 < split_kv_end_79  # elementwise2_v: stage 1, partition 0 (group 0)
        v_156 = v_155.broadcast_to([32, 128])  # elementwise2_v: stage 1, partition 0 (group 0)
        v_157 = v_156 & v_99  # elementwise2_v: stage 1, partition 0 (group 0)
        kv_loc_125 = offs_n_123 < split_kv_end_79  # load1_kv_loc: stage 1, partition 0 (group 0)
        kv_loc_127 = kv_loc_83 + offs_n_123  # load1_kv_loc: stage 1, partition 0 (group 0)
        kv_loc_129 = gl.load(kv_loc_127, mask=kv_loc_125, other=0)  # load1_kv_loc: stage 1, partition 0 (group 0)
        offs_buf_v_149 = gl.expand_dims(kv_loc_129, 1)  # load3_v: stage 1, partition 0 (group 0)
        offs_buf_v_150 = offs_buf_v_149 * stride_buf_vbs  # load3_v: stage 1, partition 0 (group 0)
        offs_buf_v_151 = offs_buf_v_150 + offs_buf_v_96  # load3_v: stage 1, partition 0 (group 0)
        offs_buf_v_152 = offs_buf_v_151.broadcast_to([32, 128])  # load3_v: stage 1, partition 0 (group 0)
        offs_buf_v_153 = offs_buf_v_152 + offs_buf_v_98  # load3_v: stage 1, partition 0 (group 0)
        v_158 = V_Buffer + offs_buf_v_153  # load3_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load3_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_159_as.index((1 - 1) % 2), v_158, mask=v_157)  # load3_v: stage 1, partition 0 (group 0)
        else:  # load3_v: stage 1, partition 0 (group 0)
            v_159_as.index((1 - 1) % 2).store(gl.load(v_158, mask=v_157, other=0.0))  # load3_v: stage 1, partition 0 (group 0)
        kv_loc_124 = offs_n_121 < split_kv_end_79  # load0_kv_loc: stage 0, partition 0 (group 0)
        kv_loc_126 = kv_loc_83 + offs_n_121  # load0_kv_loc: stage 0, partition 0 (group 0)
        kv_loc_128 = gl.load(kv_loc_126, mask=kv_loc_124, other=0)  # load0_kv_loc: stage 0, partition 0 (group 0)
        offs_buf_k_130 = gl.expand_dims(kv_loc_128, 0)  # load2_k: stage 0, partition 0 (group 0)
        offs_buf_k_131 = offs_buf_k_130 * stride_buf_kbs  # load2_k: stage 0, partition 0 (group 0)
        offs_buf_k_132 = offs_buf_k_131 + offs_buf_k_86  # load2_k: stage 0, partition 0 (group 0)
        offs_buf_k_133 = offs_buf_k_132.broadcast_to([128, 32])  # load2_k: stage 0, partition 0 (group 0)
        offs_buf_k_134 = offs_buf_k_133 + offs_buf_k_89  # load2_k: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_142 = k_142_as.index((1 - 1) % 2).load(L11)  # load2_k: stage 1, partition 0 (group 0)
        k_141 = K_Buffer + offs_buf_k_134  # load2_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_142_as.index((1 - 0) % 2), k_141, mask=k_140)  # load2_k: stage 0, partition 0 (group 0)
        else:  # load2_k: stage 0, partition 0 (group 0)
            k_142_as.index((1 - 0) % 2).store(gl.load(k_141, mask=k_140, other=0.0))  # load2_k: stage 0, partition 0 (group 0)
        k_143 = gl.convert_layout(k_142, L11)  # convert0_k: stage 1, partition 0 (group 0)
        qk_144 = mma_v2(q_94, k_143, gl.full([16, 32], 0.0, gl.float32, layout=L10))  # dot0_qk: stage 1, partition 0 (group 0)
        offs_n_119 = (split_kv_start + (1 - 1) * 32)  # elementwise0_qk: stage 1, partition 0 (group 0)
        offs_n_122 = offs_n_119 + offs_n_80  # elementwise0_qk: stage 1, partition 0 (group 0)
        k_136 = gl.expand_dims(offs_n_122, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        k_138 = k_136 < split_kv_end_79  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_145 = qk_144 * sm_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_146 = k_138.broadcast_to([16, 32])  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_147 = qk_95 & qk_146  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_148 = gl.where(qk_147, qk_145, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        n_e_max = gl.max(qk_148, axis=1)  # reduce0_n_e_max: stage 1, partition 0 (group 0)
        n_e_max_160 = gl.maximum(n_e_max, n_e_max_160_p1)  # elementwise3_n_e_max: stage 1, partition 0 (group 0)
        re_scale = n_e_max_160_p1 - n_e_max_160  # sfu0_re_scale: stage 1, partition 0 (group 0)
        re_scale_161 = gl.exp(re_scale)  # sfu0_re_scale: stage 1, partition 0 (group 0)
        acc_165 = gl.expand_dims(re_scale_161, 1)  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_166 = acc_165.broadcast_to([16, 128])  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_167 = acc_171 * acc_166  # elementwise4_acc: stage 1, partition 0 (group 0)
        p = gl.expand_dims(n_e_max_160, 1)  # sfu1_p: stage 1, partition 0 (group 0)
        p_162 = p.broadcast_to([16, 32])  # sfu1_p: stage 1, partition 0 (group 0)
        p_163 = qk_148 - p_162  # sfu1_p: stage 1, partition 0 (group 0)
        p_164 = gl.exp(p_163)  # sfu1_p: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_167_p1 = acc_167
        e_sum_173_p1 = e_sum_173
        n_e_max_160_p1 = n_e_max_160
        p_164_p1 = p_164
        re_scale_161_p1 = re_scale_161
        for twill_b in range(2, twill_n):
            offs_n_118 = (split_kv_start + (twill_b - 0) * 32)  # load0_kv_loc: stage 0, partition 0 (group 0)
            offs_n_121 = offs_n_118 + offs_n  # load0_kv_loc: stage 0, partition 0 (group 0)
            k_135 = gl.expand_dims(offs_n_121, 0)  # elementwise1_k: stage 0, partition 0 (group 0)
            k_137 = k_135 < split_kv_end_79  # elementwise1_k: stage 0, partition 0 (group 0)
            k_139 = k_137.broadcast_to([128, 32])  # elementwise1_k: stage 0, partition 0 (group 0)
            k_140 = k_139 & k_92  # elementwise1_k: stage 0, partition 0 (group 0)
            e_sum_172 = gl.sum(p_164_p1, axis=1)  # reduce1_e_sum: stage 2, partition 0 (group 0)
            acc_168 = p_164_p1.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
            acc_169 = gl.convert_layout(acc_168, L9)  # convert1_acc: stage 2, partition 0 (group 0)
            offs_n_120 = (split_kv_start + (twill_b - 1) * 32)  # load1_kv_loc: stage 1, partition 0 (group 0)
            offs_n_123 = offs_n_120 + offs_n_81  # load1_kv_loc: stage 1, partition 0 (group 0)
            v_154 = gl.expand_dims(offs_n_123, 1)  # elementwise2_v: stage 1, partition 0 (group 0)
            v_155 = v_154 < split_kv_end_79  # elementwise2_v: stage 1, partition 0 (group 0)
            v_156 = v_155.broadcast_to([32, 128])  # elementwise2_v: stage 1, partition 0 (group 0)
            v_157 = v_156 & v_99  # elementwise2_v: stage 1, partition 0 (group 0)
            kv_loc_125 = offs_n_123 < split_kv_end_79  # load1_kv_loc: stage 1, partition 0 (group 0)
            kv_loc_127 = kv_loc_83 + offs_n_123  # load1_kv_loc: stage 1, partition 0 (group 0)
            kv_loc_129 = gl.load(kv_loc_127, mask=kv_loc_125, other=0)  # load1_kv_loc: stage 1, partition 0 (group 0)
            offs_buf_v_149 = gl.expand_dims(kv_loc_129, 1)  # load3_v: stage 1, partition 0 (group 0)
            offs_buf_v_150 = offs_buf_v_149 * stride_buf_vbs  # load3_v: stage 1, partition 0 (group 0)
            offs_buf_v_151 = offs_buf_v_150 + offs_buf_v_96  # load3_v: stage 1, partition 0 (group 0)
            offs_buf_v_152 = offs_buf_v_151.broadcast_to([32, 128])  # load3_v: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            v_159 = v_159_as.index((twill_b - 2) % 2).load(L11)  # load3_v: stage 2, partition 0 (group 0)
            offs_buf_v_153 = offs_buf_v_152 + offs_buf_v_98  # load3_v: stage 1, partition 0 (group 0)
            v_158 = V_Buffer + offs_buf_v_153  # load3_v: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load3_v: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(v_159_as.index((twill_b - 1) % 2), v_158, mask=v_157)  # load3_v: stage 1, partition 0 (group 0)
            else:  # load3_v: stage 1, partition 0 (group 0)
                v_159_as.index((twill_b - 1) % 2).store(gl.load(v_158, mask=v_157, other=0.0))  # load3_v: stage 1, partition 0 (group 0)
            v_170 = gl.convert_layout(v_159, L11)  # convert2_v: stage 2, partition 0 (group 0)
            acc_171 = mma_v2(acc_169, v_170, acc_167_p1)  # dot1_acc: stage 2, partition 0 (group 0)
            e_sum = e_sum_173_p1 * re_scale_161_p1  # elementwise5_e_sum: stage 2, partition 0 (group 0)
            e_sum_173 = e_sum + e_sum_172  # elementwise5_e_sum: stage 2, partition 0 (group 0)
            kv_loc_124 = offs_n_121 < split_kv_end_79  # load0_kv_loc: stage 0, partition 0 (group 0)
            kv_loc_126 = kv_loc_83 + offs_n_121  # load0_kv_loc: stage 0, partition 0 (group 0)
            kv_loc_128 = gl.load(kv_loc_126, mask=kv_loc_124, other=0)  # load0_kv_loc: stage 0, partition 0 (group 0)
            offs_buf_k_130 = gl.expand_dims(kv_loc_128, 0)  # load2_k: stage 0, partition 0 (group 0)
            offs_buf_k_131 = offs_buf_k_130 * stride_buf_kbs  # load2_k: stage 0, partition 0 (group 0)
            offs_buf_k_132 = offs_buf_k_131 + offs_buf_k_86  # load2_k: stage 0, partition 0 (group 0)
            offs_buf_k_133 = offs_buf_k_132.broadcast_to([128, 32])  # load2_k: stage 0, partition 0 (group 0)
            offs_buf_k_134 = offs_buf_k_133 + offs_buf_k_89  # load2_k: stage 0, partition 0 (group 0)
            k_142 = k_142_as.index((twill_b - 1) % 2).load(L11)  # load2_k: stage 1, partition 0 (group 0)
            k_141 = K_Buffer + offs_buf_k_134  # load2_k: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_k: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_142_as.index((twill_b - 0) % 2), k_141, mask=k_140)  # load2_k: stage 0, partition 0 (group 0)
            else:  # load2_k: stage 0, partition 0 (group 0)
                k_142_as.index((twill_b - 0) % 2).store(gl.load(k_141, mask=k_140, other=0.0))  # load2_k: stage 0, partition 0 (group 0)
            k_143 = gl.convert_layout(k_142, L11)  # convert0_k: stage 1, partition 0 (group 0)
            qk_144 = mma_v2(q_94, k_143, gl.full([16, 32], 0.0, gl.float32, layout=L10))  # dot0_qk: stage 1, partition 0 (group 0)
            offs_n_119 = (split_kv_start + (twill_b - 1) * 32)  # elementwise0_qk: stage 1, partition 0 (group 0)
            offs_n_122 = offs_n_119 + offs_n_80  # elementwise0_qk: stage 1, partition 0 (group 0)
            k_136 = gl.expand_dims(offs_n_122, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
            k_138 = k_136 < split_kv_end_79  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_145 = qk_144 * sm_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_146 = k_138.broadcast_to([16, 32])  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_147 = qk_95 & qk_146  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_148 = gl.where(qk_147, qk_145, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
            n_e_max = gl.max(qk_148, axis=1)  # reduce0_n_e_max: stage 1, partition 0 (group 0)
            n_e_max_160 = gl.maximum(n_e_max, n_e_max_160_p1)  # elementwise3_n_e_max: stage 1, partition 0 (group 0)
            re_scale = n_e_max_160_p1 - n_e_max_160  # sfu0_re_scale: stage 1, partition 0 (group 0)
            re_scale_161 = gl.exp(re_scale)  # sfu0_re_scale: stage 1, partition 0 (group 0)
            acc_165 = gl.expand_dims(re_scale_161, 1)  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_166 = acc_165.broadcast_to([16, 128])  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_167 = acc_171 * acc_166  # elementwise4_acc: stage 1, partition 0 (group 0)
            p = gl.expand_dims(n_e_max_160, 1)  # sfu1_p: stage 1, partition 0 (group 0)
            p_162 = p.broadcast_to([16, 32])  # sfu1_p: stage 1, partition 0 (group 0)
            p_163 = qk_148 - p_162  # sfu1_p: stage 1, partition 0 (group 0)
            p_164 = gl.exp(p_163)  # sfu1_p: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_167_p1 = acc_167
            e_sum_173_p1 = e_sum_173
            n_e_max_160_p1 = n_e_max_160
            p_164_p1 = p_164
            re_scale_161_p1 = re_scale_161
        e_sum_172 = gl.sum(p_164_p1, axis=1)  # reduce1_e_sum: stage 2, partition 0 (group 0)
        acc_168 = p_164_p1.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_169 = gl.convert_layout(acc_168, L9)  # convert1_acc: stage 2, partition 0 (group 0)
        offs_n_120 = (split_kv_start + ((twill_n - 1 + 1) - 1) * 32)  # load1_kv_loc: stage 1, partition 0 (group 0)
        offs_n_123 = offs_n_120 + offs_n_81  # load1_kv_loc: stage 1, partition 0 (group 0)
        v_154 = gl.expand_dims(offs_n_123, 1)  # elementwise2_v: stage 1, partition 0 (group 0)
        v_155 = v_154 < split_kv_end_79  # elementwise2_v: stage 1, partition 0 (group 0)
        v_156 = v_155.broadcast_to([32, 128])  # elementwise2_v: stage 1, partition 0 (group 0)
        v_157 = v_156 & v_99  # elementwise2_v: stage 1, partition 0 (group 0)
        kv_loc_125 = offs_n_123 < split_kv_end_79  # load1_kv_loc: stage 1, partition 0 (group 0)
        kv_loc_127 = kv_loc_83 + offs_n_123  # load1_kv_loc: stage 1, partition 0 (group 0)
        kv_loc_129 = gl.load(kv_loc_127, mask=kv_loc_125, other=0)  # load1_kv_loc: stage 1, partition 0 (group 0)
        offs_buf_v_149 = gl.expand_dims(kv_loc_129, 1)  # load3_v: stage 1, partition 0 (group 0)
        offs_buf_v_150 = offs_buf_v_149 * stride_buf_vbs  # load3_v: stage 1, partition 0 (group 0)
        offs_buf_v_151 = offs_buf_v_150 + offs_buf_v_96  # load3_v: stage 1, partition 0 (group 0)
        offs_buf_v_152 = offs_buf_v_151.broadcast_to([32, 128])  # load3_v: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        v_159 = v_159_as.index(((twill_n - 1 + 1) - 2) % 2).load(L11)  # load3_v: stage 2, partition 0 (group 0)
        offs_buf_v_153 = offs_buf_v_152 + offs_buf_v_98  # load3_v: stage 1, partition 0 (group 0)
        v_158 = V_Buffer + offs_buf_v_153  # load3_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load3_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_159_as.index(((twill_n - 1 + 1) - 1) % 2), v_158, mask=v_157)  # load3_v: stage 1, partition 0 (group 0)
        else:  # load3_v: stage 1, partition 0 (group 0)
            v_159_as.index(((twill_n - 1 + 1) - 1) % 2).store(gl.load(v_158, mask=v_157, other=0.0))  # load3_v: stage 1, partition 0 (group 0)
        v_170 = gl.convert_layout(v_159, L11)  # convert2_v: stage 2, partition 0 (group 0)
        acc_171 = mma_v2(acc_169, v_170, acc_167_p1)  # dot1_acc: stage 2, partition 0 (group 0)
        e_sum = e_sum_173_p1 * re_scale_161_p1  # elementwise5_e_sum: stage 2, partition 0 (group 0)
        e_sum_173 = e_sum + e_sum_172  # elementwise5_e_sum: stage 2, partition 0 (group 0)
        k_142 = k_142_as.index(((twill_n - 1 + 1) - 1) % 2).load(L11)  # load2_k: stage 1, partition 0 (group 0)
        k_143 = gl.convert_layout(k_142, L11)  # convert0_k: stage 1, partition 0 (group 0)
        qk_144 = mma_v2(q_94, k_143, gl.full([16, 32], 0.0, gl.float32, layout=L10))  # dot0_qk: stage 1, partition 0 (group 0)
        offs_n_119 = (split_kv_start + ((twill_n - 1 + 1) - 1) * 32)  # elementwise0_qk: stage 1, partition 0 (group 0)
        offs_n_122 = offs_n_119 + offs_n_80  # elementwise0_qk: stage 1, partition 0 (group 0)
        k_136 = gl.expand_dims(offs_n_122, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        k_138 = k_136 < split_kv_end_79  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_145 = qk_144 * sm_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_146 = k_138.broadcast_to([16, 32])  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_147 = qk_95 & qk_146  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_148 = gl.where(qk_147, qk_145, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        n_e_max = gl.max(qk_148, axis=1)  # reduce0_n_e_max: stage 1, partition 0 (group 0)
        n_e_max_160 = gl.maximum(n_e_max, n_e_max_160_p1)  # elementwise3_n_e_max: stage 1, partition 0 (group 0)
        re_scale = n_e_max_160_p1 - n_e_max_160  # sfu0_re_scale: stage 1, partition 0 (group 0)
        re_scale_161 = gl.exp(re_scale)  # sfu0_re_scale: stage 1, partition 0 (group 0)
        acc_165 = gl.expand_dims(re_scale_161, 1)  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_166 = acc_165.broadcast_to([16, 128])  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_167 = acc_171 * acc_166  # elementwise4_acc: stage 1, partition 0 (group 0)
        p = gl.expand_dims(n_e_max_160, 1)  # sfu1_p: stage 1, partition 0 (group 0)
        p_162 = p.broadcast_to([16, 32])  # sfu1_p: stage 1, partition 0 (group 0)
        p_163 = qk_148 - p_162  # sfu1_p: stage 1, partition 0 (group 0)
        p_164 = gl.exp(p_163)  # sfu1_p: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_167_p1 = acc_167
        acc_171_p1 = acc_171
        e_sum_173_p1 = e_sum_173
        n_e_max_160_p2 = n_e_max_160_p1
        n_e_max_160_p1 = n_e_max_160
        p_164_p1 = p_164
        re_scale_161_p1 = re_scale_161
        e_sum_172 = gl.sum(p_164_p1, axis=1)  # reduce1_e_sum: stage 2, partition 0 (group 0)
        acc_168 = p_164_p1.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_169 = gl.convert_layout(acc_168, L9)  # convert1_acc: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        v_159 = v_159_as.index(((twill_n - 1 + 2) - 2) % 2).load(L11)  # load3_v: stage 2, partition 0 (group 0)
        v_170 = gl.convert_layout(v_159, L11)  # convert2_v: stage 2, partition 0 (group 0)
        acc_171 = mma_v2(acc_169, v_170, acc_167_p1)  # dot1_acc: stage 2, partition 0 (group 0)
        e_sum = e_sum_173_p1 * re_scale_161_p1  # elementwise5_e_sum: stage 2, partition 0 (group 0)
        e_sum_173 = e_sum + e_sum_172  # elementwise5_e_sum: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_167_p1 = acc_167
        acc_171_p1 = acc_171
        e_sum_173_p1 = e_sum_173
        n_e_max_160_p2 = n_e_max_160_p1
        n_e_max_160_p1 = n_e_max_160
        p_164_p1 = p_164
        re_scale_161_p1 = re_scale_161
    else:
        e_max_117_w = gl.full([16], float("-inf"), gl.float32, layout=L2)
        arg19_w = gl.full([16], 0.0, gl.float32, layout=L2)
        arg20_w = gl.full([16, 128], 0.0, gl.float32, layout=L10)
        for acc_116_w in range(split_kv_start, split_kv_end_79, 32):
            offs_n_121_w = acc_116_w + offs_n
            offs_n_122_w = acc_116_w + offs_n_80
            offs_n_123_w = acc_116_w + offs_n_81
            kv_loc_124_w = offs_n_121_w < split_kv_end_79
            kv_loc_125_w = offs_n_123_w < split_kv_end_79
            kv_loc_126_w = kv_loc_83 + offs_n_121_w
            kv_loc_127_w = kv_loc_83 + offs_n_123_w
            kv_loc_128_w = gl.load(kv_loc_126_w, mask=kv_loc_124_w, other=0)
            kv_loc_129_w = gl.load(kv_loc_127_w, mask=kv_loc_125_w, other=0)
            offs_buf_k_130_w = gl.expand_dims(kv_loc_128_w, 0)
            offs_buf_k_131_w = offs_buf_k_130_w * stride_buf_kbs
            offs_buf_k_132_w = offs_buf_k_131_w + offs_buf_k_86
            offs_buf_k_133_w = offs_buf_k_132_w.broadcast_to([128, 32])
            offs_buf_k_134_w = offs_buf_k_133_w + offs_buf_k_89
            k_135_w = gl.expand_dims(offs_n_121_w, 0)
            k_136_w = gl.expand_dims(offs_n_122_w, 0)
            k_137_w = k_135_w < split_kv_end_79
            k_138_w = k_136_w < split_kv_end_79
            k_139_w = k_137_w.broadcast_to([128, 32])
            k_140_w = k_139_w & k_92
            k_141_w = K_Buffer + offs_buf_k_134_w
            k_142_w = gl.load(k_141_w, mask=k_140_w, other=0.0)
            k_143_w = gl.convert_layout(k_142_w, L11)
            qk_144_w = mma_v2(q_94, k_143_w, gl.full([16, 32], 0.0, gl.float32, layout=L10))
            qk_145_w = qk_144_w * sm_scale
            qk_146_w = k_138_w.broadcast_to([16, 32])
            qk_147_w = qk_95 & qk_146_w
            qk_148_w = gl.where(qk_147_w, qk_145_w, float("-inf"))
            offs_buf_v_149_w = gl.expand_dims(kv_loc_129_w, 1)
            offs_buf_v_150_w = offs_buf_v_149_w * stride_buf_vbs
            offs_buf_v_151_w = offs_buf_v_150_w + offs_buf_v_96
            offs_buf_v_152_w = offs_buf_v_151_w.broadcast_to([32, 128])
            offs_buf_v_153_w = offs_buf_v_152_w + offs_buf_v_98
            v_154_w = gl.expand_dims(offs_n_123_w, 1)
            v_155_w = v_154_w < split_kv_end_79
            v_156_w = v_155_w.broadcast_to([32, 128])
            v_157_w = v_156_w & v_99
            v_158_w = V_Buffer + offs_buf_v_153_w
            v_159_w = gl.load(v_158_w, mask=v_157_w, other=0.0)
            n_e_max_w = gl.max(qk_148_w, axis=1)
            n_e_max_160_w = gl.maximum(n_e_max_w, e_max_117_w)
            re_scale_w = e_max_117_w - n_e_max_160_w
            re_scale_161_w = gl.exp(re_scale_w)
            p_w = gl.expand_dims(n_e_max_160_w, 1)
            p_162_w = p_w.broadcast_to([16, 32])
            p_163_w = qk_148_w - p_162_w
            p_164_w = gl.exp(p_163_w)
            acc_165_w = gl.expand_dims(re_scale_161_w, 1)
            acc_166_w = acc_165_w.broadcast_to([16, 128])
            acc_167_w = arg20_w * acc_166_w
            acc_168_w = p_164_w.to(gl.float16)
            acc_169_w = gl.convert_layout(acc_168_w, L9)
            v_170_w = gl.convert_layout(v_159_w, L11)
            acc_171_w = mma_v2(acc_169_w, v_170_w, acc_167_w)
            e_sum_w = arg19_w * re_scale_161_w
            e_sum_172_w = gl.sum(p_164_w, axis=1)
            e_sum_173_w = e_sum_w + e_sum_172_w
            e_max_117_w = n_e_max_160_w
            arg19_w = e_sum_173_w
            arg20_w = acc_171_w
        n_e_max_160_p2 = e_max_117_w
        e_sum_173_p1 = arg19_w
        acc_171_p1 = arg20_w
    offs_mid_o = cur_batch * stride_mid_ob
    offs_mid_o_102 = offs_q_52 * stride_mid_oh
    offs_mid_o_104 = offs_mid_o + offs_mid_o_102
    offs_mid_o_105 = split_kv_id * stride_mid_os
    offs_mid_o_107 = offs_mid_o_104 + offs_mid_o_105
    offs_mid_o_108 = offs_mid_o_107.broadcast_to([16, 128])
    offs_mid_o_109 = offs_mid_o_108 + offs_q_61
    v2 = Att_Out + offs_mid_o_109
    v3 = gl.expand_dims(e_sum_173_p1, 1)
    v4 = v3.broadcast_to([16, 128])
    v5 = acc_171_p1 / v4
    v6 = gl.convert_layout(v5, L12)
    gl.store(v2, v6, mask=q_73)
    offs_mid_o_1_110 = cur_head_25 * stride_mid_oh
    offs_mid_o_1_112 = offs_mid_o + offs_mid_o_1_110
    offs_mid_o_1_114 = offs_mid_o_1_112 + offs_mid_o_105
    offs_mid_o_1_115 = offs_mid_o_1_114 + 128
    v8 = Att_Lse + offs_mid_o_1_115
    v9 = gl.log(e_sum_173_p1)
    v10 = n_e_max_160_p2 + v9
    v11 = gl.convert_layout(v10, L3)
    gl.store(v8, v11, mask=mask_h_43)

@gluon.jit
def twill_kernel(Q, K_Buffer, V_Buffer, sm_scale, kv_indptr, kv_indices, Att_Out, Att_Lse, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, TWILL_COPY: gl.constexpr):
    cur_batch = gl.program_id(0)
    split_kv_id = gl.program_id(2)
    cur_batch_kv_start_idx = kv_indptr + cur_batch
    cur_batch_kv_start_idx_48 = gl.load(cur_batch_kv_start_idx)
    cur_batch_seq_len = cur_batch_kv_start_idx + 1
    cur_batch_seq_len_49 = gl.load(cur_batch_seq_len)
    cur_batch_seq_len_50 = cur_batch_seq_len_49 - cur_batch_kv_start_idx_48
    kv_len_per_split_77 = cur_batch_seq_len_50 + 7
    kv_len_per_split_78 = kv_len_per_split_77 // 8
    split_kv_start = kv_len_per_split_78 * split_kv_id
    split_kv_end = split_kv_start + kv_len_per_split_78
    split_kv_end_79 = gl.minimum(split_kv_end, cur_batch_seq_len_50)
    v0 = split_kv_end_79 > split_kv_start
    if not v0:
        return
    consumer_0(Q, K_Buffer, V_Buffer, sm_scale, kv_indptr, kv_indices, Att_Out, Att_Lse, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'kv_indptr', 'kv_indices', 'Att_Out', 'Att_Lse', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os', 'kv_group_num', 'q_head_num', 'BLOCK_DMODEL', 'BLOCK_DV', 'BLOCK_N', 'BLOCK_H', 'NUM_KV_SPLITS', 'Lk', 'Lv']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'kv_indptr', 'kv_indices', 'Att_Out', 'Att_Lse', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'kv_indptr', 'kv_indices', 'Att_Out', 'Att_Lse', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os']   # the arguments a launch key reads
CONSTEXPRS = {'kv_group_num': 8, 'q_head_num': 32, 'BLOCK_DMODEL': 128, 'BLOCK_DV': 128, 'BLOCK_N': 32, 'BLOCK_H': 16, 'NUM_KV_SPLITS': 8, 'Lk': 128, 'Lv': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K_Buffer', 'V_Buffer', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
