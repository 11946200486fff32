"""kernel_paged_attention_2d, written by twill from its joint schedule: I=97 L=356 (optimal), 601 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 323).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 5 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 66 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at vllm_paged_attention_2d.py:97 (TTGIR line 67): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at vllm_paged_attention_2d.py:105 (TTGIR line 78): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- pointer loads in narrow vectors: K_load_129 (2 bytes), V_load_131 (2 bytes) per thread and access; a stride that launches pass as 1 (stride_k_cache_3?) Triton's launcher specialises as that constant, and a load along it is contiguous: say so (--const stride_k_cache_3=1, TWILL_SPEC's constexprs)
- timed at launch: the same loop in one stage, `twill_kernel_short` (I=308 optimal among one-stage schedules, ptxas 128 registers, 4 CTA(s) an SM against this kernel's 2 at 222), beside this pipelined kernel; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 139-142 and 219: one stage x0.44-1.20 of the pipelined kernel's speed over eighteen loops; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L9 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))
L10 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, k_scale, v_scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_k_cache_3, stride_k_cache_4, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, stride_v_cache_3, query_start_len_ptr, num_seqs):
    seq_idx = gl.program_id(0)
    kv_head_idx = gl.program_id(1)
    cur_batch_in_all_start_index = query_start_len_ptr + seq_idx
    cur_batch_in_all_start_index_19 = gl.load(cur_batch_in_all_start_index)
    query_head_idx = kv_head_idx * 4
    query_head_idx_21 = gl.arange(0, 16, layout=L0)
    query_head_idx_22 = gl.arange(0, 16, layout=L1)
    query_head_idx_23 = gl.arange(0, 16, layout=L2)
    query_head_idx_26 = query_head_idx + query_head_idx_21
    query_head_idx_27 = query_head_idx + query_head_idx_22
    query_offset = gl.cast(cur_batch_in_all_start_index_19, gl.int64)
    query_offset_28 = query_offset * query_stride_0
    query_offset_29 = gl.expand_dims(query_head_idx_26, 1)
    query_offset_30 = query_offset_29.to(gl.int64)
    query_offset_32 = query_offset_30 * query_stride_1
    query_offset_34 = query_offset_28 + query_offset_32
    head_mask = kv_head_idx + 1
    head_mask_35 = head_mask * 4
    head_mask_38 = query_head_idx_26 < head_mask_35
    head_mask_39 = query_head_idx_27 < head_mask_35
    head_mask_40 = query_head_idx_26 < 32
    head_mask_41 = query_head_idx_27 < 32
    head_mask_42 = head_mask_38 & head_mask_40
    head_mask_43 = head_mask_39 & head_mask_41
    dim_mask = gl.arange(0, 128, layout=L3)
    dim_mask_44 = gl.arange(0, 128, layout=L4)
    dim_mask_45 = gl.arange(0, 128, layout=L5)
    dim_mask_46 = dim_mask < 128
    dim_mask_47 = dim_mask_44 < 128
    dim_mask_48 = dim_mask_45 < 128
    dim_mask_49 = gl.where(dim_mask_46, 1, 0)
    dim_mask_50 = gl.where(dim_mask_47, 1, 0)
    dim_mask_51 = gl.where(dim_mask_48, 1, 0)
    dim_mask_52 = dim_mask_49 != 0
    dim_mask_53 = dim_mask_50 != 0
    dim_mask_54 = dim_mask_51 != 0
    Q = gl.expand_dims(dim_mask_52, 0)
    Q_55 = gl.expand_dims(dim_mask_53, 0)
    Q_56 = gl.expand_dims(head_mask_42, 1)
    Q_57 = gl.expand_dims(head_mask_43, 1)
    Q_58 = Q.broadcast_to([16, 128])
    Q_59 = Q_55.broadcast_to([16, 128])
    Q_60 = Q_56.broadcast_to([16, 128])
    Q_61 = Q_58 & Q_60
    Q_63 = query_ptr + query_offset_34
    Q_64 = gl.expand_dims(dim_mask, 0)
    Q_65 = gl.expand_dims(dim_mask_44, 0)
    Q_66 = Q_63.broadcast_to([16, 128])
    Q_67 = Q_64.broadcast_to([16, 128])
    Q_68 = Q_66 + Q_67
    Q_69 = gl.load(Q_68, mask=Q_61, other=0.0)
    block_table_offset = gl.cast(seq_idx, gl.int64)
    block_table_offset_70 = block_table_offset * block_table_stride
    seq_len = seq_lens_ptr + seq_idx
    seq_len_71 = gl.load(seq_len)
    num_blocks = seq_len_71 + 15
    num_blocks_72 = num_blocks // 16
    physical_block_idx = block_tables_ptr + block_table_offset_70
    v_offset = gl.cast(kv_head_idx, gl.int64)
    v_offset_73 = v_offset * stride_v_cache_1
    v_offset_74 = Q_65.to(gl.int64)
    v_offset_76 = v_offset_74 * stride_v_cache_2
    v_offset_77 = gl.arange(0, 16, layout=L6)
    v_offset_78 = gl.expand_dims(v_offset_77, 1)
    v_offset_79 = v_offset_78.to(gl.int64)
    v_offset_81 = v_offset_79 * stride_v_cache_3
    v_offset_82 = v_offset_81.broadcast_to([16, 128])
    k_offset = v_offset * stride_k_cache_1
    k_offset_83 = gl.expand_dims(dim_mask_45, 1)
    k_offset_84 = k_offset_83 // 8
    k_offset_85 = k_offset_84.to(gl.int64)
    k_offset_87 = k_offset_85 * stride_k_cache_2
    k_offset_88 = gl.arange(0, 16, layout=L7)
    k_offset_89 = gl.expand_dims(k_offset_88, 0)
    k_offset_90 = k_offset_89.to(gl.int64)
    k_offset_92 = k_offset_90 * stride_k_cache_3
    k_offset_93 = k_offset_92.broadcast_to([128, 16])
    k_offset_94 = k_offset_83 % 8
    k_offset_95 = k_offset_94.to(gl.int64)
    k_offset_97 = k_offset_95 * stride_k_cache_4
    k_offset_98 = k_offset_97.broadcast_to([128, 16])
    K_load = gl.expand_dims(dim_mask_54, 1)
    K_load_100 = K_load.broadcast_to([128, 16])
    S = Q_57.broadcast_to([16, 16])
    Q_101 = gl.convert_layout(Q_69, L8)
    twill_n = (num_blocks_72 - 0 + 1 - 1) // 1
    if (twill_n >= 4) | (gl.program_id(0) < 0):
        physical_block_idx_112 = physical_block_idx + (0 + (0 - 0) * 1)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_113 = gl.load(physical_block_idx_112)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_113_p1 = physical_block_idx_113
        physical_block_idx_112 = physical_block_idx + (0 + (1 - 0) * 1)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_113 = gl.load(physical_block_idx_112)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        v_offset_114 = gl.cast(physical_block_idx_113_p1, gl.int64)  # convert0_v_offset: stage 1, partition 0 (group 0)
        v_offset_115 = v_offset_114 * stride_v_cache_0  # elementwise0_v_offset: stage 1, partition 0 (group 0)
        v_offset_116 = v_offset_115 + v_offset_73  # elementwise0_v_offset: stage 1, partition 0 (group 0)
        k_offset_121 = v_offset_114 * stride_k_cache_0  # elementwise1_k_offset: stage 1, partition 0 (group 0)
        k_offset_122 = k_offset_121 + k_offset  # elementwise1_k_offset: stage 1, partition 0 (group 0)
        k_offset_122_p1 = k_offset_122
        physical_block_idx_113_p1 = physical_block_idx_113
        v_offset_116_p1 = v_offset_116
        physical_block_idx_112 = physical_block_idx + (0 + (2 - 0) * 1)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_113 = gl.load(physical_block_idx_112)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        v_offset_114 = gl.cast(physical_block_idx_113_p1, gl.int64)  # convert0_v_offset: stage 1, partition 0 (group 0)
        v_offset_115 = v_offset_114 * stride_v_cache_0  # elementwise0_v_offset: stage 1, partition 0 (group 0)
        v_offset_116 = v_offset_115 + v_offset_73  # elementwise0_v_offset: stage 1, partition 0 (group 0)
        k_offset_121 = v_offset_114 * stride_k_cache_0  # elementwise1_k_offset: stage 1, partition 0 (group 0)
        k_offset_122 = k_offset_121 + k_offset  # elementwise1_k_offset: stage 1, partition 0 (group 0)
        k_offset_122_p2 = k_offset_122_p1
        k_offset_122_p1 = k_offset_122
        physical_block_idx_113_p1 = physical_block_idx_113
        v_offset_116_p2 = v_offset_116_p1
        v_offset_116_p1 = v_offset_116
        m_j_143 = gl.full([16], float("-inf"), gl.float32, layout=L1)
        L_151 = gl.full([16], 1.0, gl.float32, layout=L1)
        acc_155 = gl.full([16, 128], 0.0, gl.float32, layout=L9)
        k_offset_123 = k_offset_122_p2  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_124 = k_offset_123 + k_offset_87  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_125 = k_offset_124.broadcast_to([128, 16])  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_126 = k_offset_125 + k_offset_93  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_127 = k_offset_126 + k_offset_98  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_128 = key_cache_ptr + k_offset_127  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_129 = gl.load(K_load_128, mask=K_load_100, other=0.0)  # load2_K_load: stage 3, partition 0 (group 0)
        physical_block_idx_112 = physical_block_idx + (0 + (3 - 0) * 1)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_113 = gl.load(physical_block_idx_112)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        v_offset_114 = gl.cast(physical_block_idx_113_p1, gl.int64)  # convert0_v_offset: stage 1, partition 0 (group 0)
        v_offset_115 = v_offset_114 * stride_v_cache_0  # elementwise0_v_offset: stage 1, partition 0 (group 0)
        v_offset_116 = v_offset_115 + v_offset_73  # elementwise0_v_offset: stage 1, partition 0 (group 0)
        k_offset_121 = v_offset_114 * stride_k_cache_0  # elementwise1_k_offset: stage 1, partition 0 (group 0)
        k_offset_122 = k_offset_121 + k_offset  # elementwise1_k_offset: stage 1, partition 0 (group 0)
        v_offset_117 = v_offset_116_p2  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_118 = v_offset_117 + v_offset_76  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_119 = v_offset_118.broadcast_to([16, 128])  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_120 = v_offset_119 + v_offset_82  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_130 = value_cache_ptr + v_offset_120  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_131 = gl.load(V_load_130, mask=Q_59, other=0.0)  # load1_V_load: stage 3, partition 0 (group 0)
        K_load_129_p1 = K_load_129
        L_151_p1 = L_151
        V_load_131_p1 = V_load_131
        acc_155_p1 = acc_155
        k_offset_122_p2 = k_offset_122_p1
        k_offset_122_p1 = k_offset_122
        m_j_143_p1 = m_j_143
        physical_block_idx_113_p1 = physical_block_idx_113
        v_offset_116_p2 = v_offset_116_p1
        v_offset_116_p1 = v_offset_116
        for twill_b in range(4, twill_n):
            k_offset_123 = k_offset_122_p2  # load2_K_load: stage 3, partition 0 (group 0)
            k_offset_124 = k_offset_123 + k_offset_87  # load2_K_load: stage 3, partition 0 (group 0)
            k_offset_125 = k_offset_124.broadcast_to([128, 16])  # load2_K_load: stage 3, partition 0 (group 0)
            k_offset_126 = k_offset_125 + k_offset_93  # load2_K_load: stage 3, partition 0 (group 0)
            k_offset_127 = k_offset_126 + k_offset_98  # load2_K_load: stage 3, partition 0 (group 0)
            K_load_128 = key_cache_ptr + k_offset_127  # load2_K_load: stage 3, partition 0 (group 0)
            K_load_129 = gl.load(K_load_128, mask=K_load_100, other=0.0)  # load2_K_load: stage 3, partition 0 (group 0)
            K_load_139 = gl.convert_layout(K_load_129_p1, L10)  # convert1_K_load: stage 4, partition 0 (group 0)
            S_140 = mma_v2(Q_101, K_load_139, gl.full([16, 16], 0.0, gl.float32, layout=L9))  # dot0_S: stage 4, partition 0 (group 0)
            seq_offset = (0 + (twill_b - 4) * 1) * 16  # elementwise2_S: stage 4, partition 0 (group 0)
            seq_offset_132 = seq_offset  # elementwise2_S: stage 4, partition 0 (group 0)
            seq_offset_133 = seq_offset_132 + query_head_idx_23  # elementwise2_S: stage 4, partition 0 (group 0)
            seq_mask_134 = gl.expand_dims(seq_offset_133, 0)  # elementwise2_S: stage 4, partition 0 (group 0)
            seq_mask_135 = seq_mask_134 < seq_len_71  # elementwise2_S: stage 4, partition 0 (group 0)
            S_136 = seq_mask_135.broadcast_to([16, 16])  # elementwise2_S: stage 4, partition 0 (group 0)
            S_137 = S & S_136  # elementwise2_S: stage 4, partition 0 (group 0)
            S_138 = gl.where(S_137, 0.0, float("-inf"))  # elementwise2_S: stage 4, partition 0 (group 0)
            S_141 = scale * S_140  # elementwise2_S: stage 4, partition 0 (group 0)
            S_142 = S_138 + S_141  # elementwise2_S: stage 4, partition 0 (group 0)
            physical_block_idx_112 = physical_block_idx + (0 + (twill_b - 0) * 1)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            physical_block_idx_113 = gl.load(physical_block_idx_112)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            v_offset_114 = gl.cast(physical_block_idx_113_p1, gl.int64)  # convert0_v_offset: stage 1, partition 0 (group 0)
            m_j = gl.max(S_142, axis=1)  # reduce0_m_j: stage 4, partition 0 (group 0)
            v_offset_115 = v_offset_114 * stride_v_cache_0  # elementwise0_v_offset: stage 1, partition 0 (group 0)
            v_offset_116 = v_offset_115 + v_offset_73  # elementwise0_v_offset: stage 1, partition 0 (group 0)
            k_offset_121 = v_offset_114 * stride_k_cache_0  # elementwise1_k_offset: stage 1, partition 0 (group 0)
            k_offset_122 = k_offset_121 + k_offset  # elementwise1_k_offset: stage 1, partition 0 (group 0)
            m_j_143 = gl.maximum(m_j_143_p1, m_j)  # elementwise3_m_j: stage 4, partition 0 (group 0)
            P = gl.expand_dims(m_j_143, 1)  # sfu0_P: stage 4, partition 0 (group 0)
            P_144 = P.broadcast_to([16, 16])  # sfu0_P: stage 4, partition 0 (group 0)
            P_145 = S_142 - P_144  # sfu0_P: stage 4, partition 0 (group 0)
            P_146 = gl.exp(P_145)  # sfu0_P: stage 4, partition 0 (group 0)
            l_j = gl.sum(P_146, axis=1)  # reduce1_l_j: stage 4, partition 0 (group 0)
            alpha = m_j_143_p1 - m_j_143  # sfu1_alpha: stage 4, partition 0 (group 0)
            alpha_147 = gl.exp(alpha)  # sfu1_alpha: stage 4, partition 0 (group 0)
            acc_152 = P_146.to(gl.float16)  # convert2_acc: stage 4, partition 0 (group 0)
            acc_153 = gl.convert_layout(acc_152, L8)  # convert2_acc: stage 4, partition 0 (group 0)
            acc_148 = gl.expand_dims(alpha_147, 1)  # elementwise4_acc: stage 4, partition 0 (group 0)
            acc_149 = acc_148.broadcast_to([16, 128])  # elementwise4_acc: stage 4, partition 0 (group 0)
            acc_150 = acc_155_p1 * acc_149  # elementwise4_acc: stage 4, partition 0 (group 0)
            v_offset_117 = v_offset_116_p2  # load1_V_load: stage 3, partition 0 (group 0)
            v_offset_118 = v_offset_117 + v_offset_76  # load1_V_load: stage 3, partition 0 (group 0)
            v_offset_119 = v_offset_118.broadcast_to([16, 128])  # load1_V_load: stage 3, partition 0 (group 0)
            v_offset_120 = v_offset_119 + v_offset_82  # load1_V_load: stage 3, partition 0 (group 0)
            V_load_130 = value_cache_ptr + v_offset_120  # load1_V_load: stage 3, partition 0 (group 0)
            V_load_131 = gl.load(V_load_130, mask=Q_59, other=0.0)  # load1_V_load: stage 3, partition 0 (group 0)
            V_load_154 = gl.convert_layout(V_load_131_p1, L10)  # convert3_V_load: stage 4, partition 0 (group 0)
            L = L_151_p1 * alpha_147  # elementwise5_L: stage 4, partition 0 (group 0)
            L_151 = L + l_j  # elementwise5_L: stage 4, partition 0 (group 0)
            acc_155 = mma_v2(acc_153, V_load_154, acc_150)  # dot1_acc: stage 4, partition 0 (group 0)
            K_load_129_p1 = K_load_129
            L_151_p1 = L_151
            V_load_131_p1 = V_load_131
            acc_155_p1 = acc_155
            k_offset_122_p2 = k_offset_122_p1
            k_offset_122_p1 = k_offset_122
            m_j_143_p1 = m_j_143
            physical_block_idx_113_p1 = physical_block_idx_113
            v_offset_116_p2 = v_offset_116_p1
            v_offset_116_p1 = v_offset_116
        k_offset_123 = k_offset_122_p2  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_124 = k_offset_123 + k_offset_87  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_125 = k_offset_124.broadcast_to([128, 16])  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_126 = k_offset_125 + k_offset_93  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_127 = k_offset_126 + k_offset_98  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_128 = key_cache_ptr + k_offset_127  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_129 = gl.load(K_load_128, mask=K_load_100, other=0.0)  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_139 = gl.convert_layout(K_load_129_p1, L10)  # convert1_K_load: stage 4, partition 0 (group 0)
        S_140 = mma_v2(Q_101, K_load_139, gl.full([16, 16], 0.0, gl.float32, layout=L9))  # dot0_S: stage 4, partition 0 (group 0)
        seq_offset = (0 + ((twill_n - 1 + 1) - 4) * 1) * 16  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_offset_132 = seq_offset  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_offset_133 = seq_offset_132 + query_head_idx_23  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_mask_134 = gl.expand_dims(seq_offset_133, 0)  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_mask_135 = seq_mask_134 < seq_len_71  # elementwise2_S: stage 4, partition 0 (group 0)
        S_136 = seq_mask_135.broadcast_to([16, 16])  # elementwise2_S: stage 4, partition 0 (group 0)
        S_137 = S & S_136  # elementwise2_S: stage 4, partition 0 (group 0)
        S_138 = gl.where(S_137, 0.0, float("-inf"))  # elementwise2_S: stage 4, partition 0 (group 0)
        S_141 = scale * S_140  # elementwise2_S: stage 4, partition 0 (group 0)
        S_142 = S_138 + S_141  # elementwise2_S: stage 4, partition 0 (group 0)
        v_offset_114 = gl.cast(physical_block_idx_113_p1, gl.int64)  # convert0_v_offset: stage 1, partition 0 (group 0)
        m_j = gl.max(S_142, axis=1)  # reduce0_m_j: stage 4, partition 0 (group 0)
        v_offset_115 = v_offset_114 * stride_v_cache_0  # elementwise0_v_offset: stage 1, partition 0 (group 0)
        v_offset_116 = v_offset_115 + v_offset_73  # elementwise0_v_offset: stage 1, partition 0 (group 0)
        k_offset_121 = v_offset_114 * stride_k_cache_0  # elementwise1_k_offset: stage 1, partition 0 (group 0)
        k_offset_122 = k_offset_121 + k_offset  # elementwise1_k_offset: stage 1, partition 0 (group 0)
        m_j_143 = gl.maximum(m_j_143_p1, m_j)  # elementwise3_m_j: stage 4, partition 0 (group 0)
        P = gl.expand_dims(m_j_143, 1)  # sfu0_P: stage 4, partition 0 (group 0)
        P_144 = P.broadcast_to([16, 16])  # sfu0_P: stage 4, partition 0 (group 0)
        P_145 = S_142 - P_144  # sfu0_P: stage 4, partition 0 (group 0)
        P_146 = gl.exp(P_145)  # sfu0_P: stage 4, partition 0 (group 0)
        l_j = gl.sum(P_146, axis=1)  # reduce1_l_j: stage 4, partition 0 (group 0)
        alpha = m_j_143_p1 - m_j_143  # sfu1_alpha: stage 4, partition 0 (group 0)
        alpha_147 = gl.exp(alpha)  # sfu1_alpha: stage 4, partition 0 (group 0)
        acc_152 = P_146.to(gl.float16)  # convert2_acc: stage 4, partition 0 (group 0)
        acc_153 = gl.convert_layout(acc_152, L8)  # convert2_acc: stage 4, partition 0 (group 0)
        acc_148 = gl.expand_dims(alpha_147, 1)  # elementwise4_acc: stage 4, partition 0 (group 0)
        acc_149 = acc_148.broadcast_to([16, 128])  # elementwise4_acc: stage 4, partition 0 (group 0)
        acc_150 = acc_155_p1 * acc_149  # elementwise4_acc: stage 4, partition 0 (group 0)
        v_offset_117 = v_offset_116_p2  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_118 = v_offset_117 + v_offset_76  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_119 = v_offset_118.broadcast_to([16, 128])  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_120 = v_offset_119 + v_offset_82  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_130 = value_cache_ptr + v_offset_120  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_131 = gl.load(V_load_130, mask=Q_59, other=0.0)  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_154 = gl.convert_layout(V_load_131_p1, L10)  # convert3_V_load: stage 4, partition 0 (group 0)
        L = L_151_p1 * alpha_147  # elementwise5_L: stage 4, partition 0 (group 0)
        L_151 = L + l_j  # elementwise5_L: stage 4, partition 0 (group 0)
        acc_155 = mma_v2(acc_153, V_load_154, acc_150)  # dot1_acc: stage 4, partition 0 (group 0)
        K_load_129_p1 = K_load_129
        L_151_p1 = L_151
        V_load_131_p1 = V_load_131
        acc_155_p1 = acc_155
        k_offset_122_p2 = k_offset_122_p1
        k_offset_122_p1 = k_offset_122
        m_j_143_p1 = m_j_143
        physical_block_idx_113_p1 = physical_block_idx_113
        v_offset_116_p2 = v_offset_116_p1
        v_offset_116_p1 = v_offset_116
        k_offset_123 = k_offset_122_p2  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_124 = k_offset_123 + k_offset_87  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_125 = k_offset_124.broadcast_to([128, 16])  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_126 = k_offset_125 + k_offset_93  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_127 = k_offset_126 + k_offset_98  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_128 = key_cache_ptr + k_offset_127  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_129 = gl.load(K_load_128, mask=K_load_100, other=0.0)  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_139 = gl.convert_layout(K_load_129_p1, L10)  # convert1_K_load: stage 4, partition 0 (group 0)
        S_140 = mma_v2(Q_101, K_load_139, gl.full([16, 16], 0.0, gl.float32, layout=L9))  # dot0_S: stage 4, partition 0 (group 0)
        seq_offset = (0 + ((twill_n - 1 + 2) - 4) * 1) * 16  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_offset_132 = seq_offset  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_offset_133 = seq_offset_132 + query_head_idx_23  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_mask_134 = gl.expand_dims(seq_offset_133, 0)  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_mask_135 = seq_mask_134 < seq_len_71  # elementwise2_S: stage 4, partition 0 (group 0)
        S_136 = seq_mask_135.broadcast_to([16, 16])  # elementwise2_S: stage 4, partition 0 (group 0)
        S_137 = S & S_136  # elementwise2_S: stage 4, partition 0 (group 0)
        S_138 = gl.where(S_137, 0.0, float("-inf"))  # elementwise2_S: stage 4, partition 0 (group 0)
        S_141 = scale * S_140  # elementwise2_S: stage 4, partition 0 (group 0)
        S_142 = S_138 + S_141  # elementwise2_S: stage 4, partition 0 (group 0)
        m_j = gl.max(S_142, axis=1)  # reduce0_m_j: stage 4, partition 0 (group 0)
        m_j_143 = gl.maximum(m_j_143_p1, m_j)  # elementwise3_m_j: stage 4, partition 0 (group 0)
        P = gl.expand_dims(m_j_143, 1)  # sfu0_P: stage 4, partition 0 (group 0)
        P_144 = P.broadcast_to([16, 16])  # sfu0_P: stage 4, partition 0 (group 0)
        P_145 = S_142 - P_144  # sfu0_P: stage 4, partition 0 (group 0)
        P_146 = gl.exp(P_145)  # sfu0_P: stage 4, partition 0 (group 0)
        l_j = gl.sum(P_146, axis=1)  # reduce1_l_j: stage 4, partition 0 (group 0)
        alpha = m_j_143_p1 - m_j_143  # sfu1_alpha: stage 4, partition 0 (group 0)
        alpha_147 = gl.exp(alpha)  # sfu1_alpha: stage 4, partition 0 (group 0)
        acc_152 = P_146.to(gl.float16)  # convert2_acc: stage 4, partition 0 (group 0)
        acc_153 = gl.convert_layout(acc_152, L8)  # convert2_acc: stage 4, partition 0 (group 0)
        acc_148 = gl.expand_dims(alpha_147, 1)  # elementwise4_acc: stage 4, partition 0 (group 0)
        acc_149 = acc_148.broadcast_to([16, 128])  # elementwise4_acc: stage 4, partition 0 (group 0)
        acc_150 = acc_155_p1 * acc_149  # elementwise4_acc: stage 4, partition 0 (group 0)
        v_offset_117 = v_offset_116_p2  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_118 = v_offset_117 + v_offset_76  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_119 = v_offset_118.broadcast_to([16, 128])  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_120 = v_offset_119 + v_offset_82  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_130 = value_cache_ptr + v_offset_120  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_131 = gl.load(V_load_130, mask=Q_59, other=0.0)  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_154 = gl.convert_layout(V_load_131_p1, L10)  # convert3_V_load: stage 4, partition 0 (group 0)
        L = L_151_p1 * alpha_147  # elementwise5_L: stage 4, partition 0 (group 0)
        L_151 = L + l_j  # elementwise5_L: stage 4, partition 0 (group 0)
        acc_155 = mma_v2(acc_153, V_load_154, acc_150)  # dot1_acc: stage 4, partition 0 (group 0)
        K_load_129_p1 = K_load_129
        L_151_p1 = L_151
        V_load_131_p1 = V_load_131
        acc_155_p1 = acc_155
        k_offset_122_p2 = k_offset_122_p1
        k_offset_122_p1 = k_offset_122
        m_j_143_p1 = m_j_143
        physical_block_idx_113_p1 = physical_block_idx_113
        v_offset_116_p2 = v_offset_116_p1
        v_offset_116_p1 = v_offset_116
        k_offset_123 = k_offset_122_p2  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_124 = k_offset_123 + k_offset_87  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_125 = k_offset_124.broadcast_to([128, 16])  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_126 = k_offset_125 + k_offset_93  # load2_K_load: stage 3, partition 0 (group 0)
        k_offset_127 = k_offset_126 + k_offset_98  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_128 = key_cache_ptr + k_offset_127  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_129 = gl.load(K_load_128, mask=K_load_100, other=0.0)  # load2_K_load: stage 3, partition 0 (group 0)
        K_load_139 = gl.convert_layout(K_load_129_p1, L10)  # convert1_K_load: stage 4, partition 0 (group 0)
        S_140 = mma_v2(Q_101, K_load_139, gl.full([16, 16], 0.0, gl.float32, layout=L9))  # dot0_S: stage 4, partition 0 (group 0)
        seq_offset = (0 + ((twill_n - 1 + 3) - 4) * 1) * 16  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_offset_132 = seq_offset  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_offset_133 = seq_offset_132 + query_head_idx_23  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_mask_134 = gl.expand_dims(seq_offset_133, 0)  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_mask_135 = seq_mask_134 < seq_len_71  # elementwise2_S: stage 4, partition 0 (group 0)
        S_136 = seq_mask_135.broadcast_to([16, 16])  # elementwise2_S: stage 4, partition 0 (group 0)
        S_137 = S & S_136  # elementwise2_S: stage 4, partition 0 (group 0)
        S_138 = gl.where(S_137, 0.0, float("-inf"))  # elementwise2_S: stage 4, partition 0 (group 0)
        S_141 = scale * S_140  # elementwise2_S: stage 4, partition 0 (group 0)
        S_142 = S_138 + S_141  # elementwise2_S: stage 4, partition 0 (group 0)
        m_j = gl.max(S_142, axis=1)  # reduce0_m_j: stage 4, partition 0 (group 0)
        m_j_143 = gl.maximum(m_j_143_p1, m_j)  # elementwise3_m_j: stage 4, partition 0 (group 0)
        P = gl.expand_dims(m_j_143, 1)  # sfu0_P: stage 4, partition 0 (group 0)
        P_144 = P.broadcast_to([16, 16])  # sfu0_P: stage 4, partition 0 (group 0)
        P_145 = S_142 - P_144  # sfu0_P: stage 4, partition 0 (group 0)
        P_146 = gl.exp(P_145)  # sfu0_P: stage 4, partition 0 (group 0)
        l_j = gl.sum(P_146, axis=1)  # reduce1_l_j: stage 4, partition 0 (group 0)
        alpha = m_j_143_p1 - m_j_143  # sfu1_alpha: stage 4, partition 0 (group 0)
        alpha_147 = gl.exp(alpha)  # sfu1_alpha: stage 4, partition 0 (group 0)
        acc_152 = P_146.to(gl.float16)  # convert2_acc: stage 4, partition 0 (group 0)
        acc_153 = gl.convert_layout(acc_152, L8)  # convert2_acc: stage 4, partition 0 (group 0)
        acc_148 = gl.expand_dims(alpha_147, 1)  # elementwise4_acc: stage 4, partition 0 (group 0)
        acc_149 = acc_148.broadcast_to([16, 128])  # elementwise4_acc: stage 4, partition 0 (group 0)
        acc_150 = acc_155_p1 * acc_149  # elementwise4_acc: stage 4, partition 0 (group 0)
        v_offset_117 = v_offset_116_p2  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_118 = v_offset_117 + v_offset_76  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_119 = v_offset_118.broadcast_to([16, 128])  # load1_V_load: stage 3, partition 0 (group 0)
        v_offset_120 = v_offset_119 + v_offset_82  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_130 = value_cache_ptr + v_offset_120  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_131 = gl.load(V_load_130, mask=Q_59, other=0.0)  # load1_V_load: stage 3, partition 0 (group 0)
        V_load_154 = gl.convert_layout(V_load_131_p1, L10)  # convert3_V_load: stage 4, partition 0 (group 0)
        L = L_151_p1 * alpha_147  # elementwise5_L: stage 4, partition 0 (group 0)
        L_151 = L + l_j  # elementwise5_L: stage 4, partition 0 (group 0)
        acc_155 = mma_v2(acc_153, V_load_154, acc_150)  # dot1_acc: stage 4, partition 0 (group 0)
        K_load_129_p1 = K_load_129
        L_151_p1 = L_151
        V_load_131_p1 = V_load_131
        acc_155_p1 = acc_155
        k_offset_122_p2 = k_offset_122_p1
        k_offset_122_p1 = k_offset_122
        m_j_143_p1 = m_j_143
        physical_block_idx_113_p1 = physical_block_idx_113
        v_offset_116_p2 = v_offset_116_p1
        v_offset_116_p1 = v_offset_116
        K_load_139 = gl.convert_layout(K_load_129_p1, L10)  # convert1_K_load: stage 4, partition 0 (group 0)
        S_140 = mma_v2(Q_101, K_load_139, gl.full([16, 16], 0.0, gl.float32, layout=L9))  # dot0_S: stage 4, partition 0 (group 0)
        seq_offset = (0 + ((twill_n - 1 + 4) - 4) * 1) * 16  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_offset_132 = seq_offset  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_offset_133 = seq_offset_132 + query_head_idx_23  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_mask_134 = gl.expand_dims(seq_offset_133, 0)  # elementwise2_S: stage 4, partition 0 (group 0)
        seq_mask_135 = seq_mask_134 < seq_len_71  # elementwise2_S: stage 4, partition 0 (group 0)
        S_136 = seq_mask_135.broadcast_to([16, 16])  # elementwise2_S: stage 4, partition 0 (group 0)
        S_137 = S & S_136  # elementwise2_S: stage 4, partition 0 (group 0)
        S_138 = gl.where(S_137, 0.0, float("-inf"))  # elementwise2_S: stage 4, partition 0 (group 0)
        S_141 = scale * S_140  # elementwise2_S: stage 4, partition 0 (group 0)
        S_142 = S_138 + S_141  # elementwise2_S: stage 4, partition 0 (group 0)
        m_j = gl.max(S_142, axis=1)  # reduce0_m_j: stage 4, partition 0 (group 0)
        m_j_143 = gl.maximum(m_j_143_p1, m_j)  # elementwise3_m_j: stage 4, partition 0 (group 0)
        P = gl.expand_dims(m_j_143, 1)  # sfu0_P: stage 4, partition 0 (group 0)
        P_144 = P.broadcast_to([16, 16])  # sfu0_P: stage 4, partition 0 (group 0)
        P_145 = S_142 - P_144  # sfu0_P: stage 4, partition 0 (group 0)
        P_146 = gl.exp(P_145)  # sfu0_P: stage 4, partition 0 (group 0)
        l_j = gl.sum(P_146, axis=1)  # reduce1_l_j: stage 4, partition 0 (group 0)
        alpha = m_j_143_p1 - m_j_143  # sfu1_alpha: stage 4, partition 0 (group 0)
        alpha_147 = gl.exp(alpha)  # sfu1_alpha: stage 4, partition 0 (group 0)
        acc_152 = P_146.to(gl.float16)  # convert2_acc: stage 4, partition 0 (group 0)
        acc_153 = gl.convert_layout(acc_152, L8)  # convert2_acc: stage 4, partition 0 (group 0)
        acc_148 = gl.expand_dims(alpha_147, 1)  # elementwise4_acc: stage 4, partition 0 (group 0)
        acc_149 = acc_148.broadcast_to([16, 128])  # elementwise4_acc: stage 4, partition 0 (group 0)
        acc_150 = acc_155_p1 * acc_149  # elementwise4_acc: stage 4, partition 0 (group 0)
        V_load_154 = gl.convert_layout(V_load_131_p1, L10)  # convert3_V_load: stage 4, partition 0 (group 0)
        L = L_151_p1 * alpha_147  # elementwise5_L: stage 4, partition 0 (group 0)
        L_151 = L + l_j  # elementwise5_L: stage 4, partition 0 (group 0)
        acc_155 = mma_v2(acc_153, V_load_154, acc_150)  # dot1_acc: stage 4, partition 0 (group 0)
        K_load_129_p1 = K_load_129
        L_151_p1 = L_151
        V_load_131_p1 = V_load_131
        acc_155_p1 = acc_155
        k_offset_122_p2 = k_offset_122_p1
        k_offset_122_p1 = k_offset_122
        m_j_143_p1 = m_j_143
        physical_block_idx_113_p1 = physical_block_idx_113
        v_offset_116_p2 = v_offset_116_p1
        v_offset_116_p1 = v_offset_116
    else:
        arg26_w = gl.full([16], float("-inf"), gl.float32, layout=L1)
        arg27_w = gl.full([16], 1.0, gl.float32, layout=L1)
        arg28_w = gl.full([16, 128], 0.0, gl.float32, layout=L9)
        for acc_111_w in range(0, num_blocks_72, 1):
            physical_block_idx_112_w = physical_block_idx + acc_111_w
            physical_block_idx_113_w = gl.load(physical_block_idx_112_w)
            v_offset_114_w = gl.cast(physical_block_idx_113_w, gl.int64)
            v_offset_115_w = v_offset_114_w * stride_v_cache_0
            v_offset_116_w = v_offset_115_w + v_offset_73
            v_offset_118_w = v_offset_116_w + v_offset_76
            v_offset_119_w = v_offset_118_w.broadcast_to([16, 128])
            v_offset_120_w = v_offset_119_w + v_offset_82
            k_offset_121_w = v_offset_114_w * stride_k_cache_0
            k_offset_122_w = k_offset_121_w + k_offset
            k_offset_124_w = k_offset_122_w + k_offset_87
            k_offset_125_w = k_offset_124_w.broadcast_to([128, 16])
            k_offset_126_w = k_offset_125_w + k_offset_93
            k_offset_127_w = k_offset_126_w + k_offset_98
            K_load_128_w = key_cache_ptr + k_offset_127_w
            K_load_129_w = gl.load(K_load_128_w, mask=K_load_100, other=0.0)
            V_load_130_w = value_cache_ptr + v_offset_120_w
            V_load_131_w = gl.load(V_load_130_w, mask=Q_59, other=0.0)
            seq_offset_w = acc_111_w * 16
            seq_offset_133_w = seq_offset_w + query_head_idx_23
            seq_mask_134_w = gl.expand_dims(seq_offset_133_w, 0)
            seq_mask_135_w = seq_mask_134_w < seq_len_71
            S_136_w = seq_mask_135_w.broadcast_to([16, 16])
            S_137_w = S & S_136_w
            S_138_w = gl.where(S_137_w, 0.0, float("-inf"))
            K_load_139_w = gl.convert_layout(K_load_129_w, L10)
            S_140_w = mma_v2(Q_101, K_load_139_w, gl.full([16, 16], 0.0, gl.float32, layout=L9))
            S_141_w = scale * S_140_w
            S_142_w = S_138_w + S_141_w
            m_j_w = gl.max(S_142_w, axis=1)
            m_j_143_w = gl.maximum(arg26_w, m_j_w)
            P_w = gl.expand_dims(m_j_143_w, 1)
            P_144_w = P_w.broadcast_to([16, 16])
            P_145_w = S_142_w - P_144_w
            P_146_w = gl.exp(P_145_w)
            l_j_w = gl.sum(P_146_w, axis=1)
            alpha_w = arg26_w - m_j_143_w
            alpha_147_w = gl.exp(alpha_w)
            acc_148_w = gl.expand_dims(alpha_147_w, 1)
            acc_149_w = acc_148_w.broadcast_to([16, 128])
            acc_150_w = arg28_w * acc_149_w
            L_w = arg27_w * alpha_147_w
            L_151_w = L_w + l_j_w
            acc_152_w = P_146_w.to(gl.float16)
            acc_153_w = gl.convert_layout(acc_152_w, L8)
            V_load_154_w = gl.convert_layout(V_load_131_w, L10)
            acc_155_w = mma_v2(acc_153_w, V_load_154_w, acc_150_w)
            arg26_w = m_j_143_w
            arg27_w = L_151_w
            arg28_w = acc_155_w
        m_j_143_p1 = arg26_w
        L_151_p1 = arg27_w
        acc_155_p1 = arg28_w
    acc_103 = gl.expand_dims(L_151_p1, 1)
    acc_104 = acc_103.broadcast_to([16, 128])
    acc_105 = acc_155_p1 / acc_104
    output_offset = query_offset * output_stride_0
    output_offset_106 = query_head_idx_26.to(gl.int64)
    output_offset_108 = output_offset_106 * output_stride_1
    output_offset_110 = output_offset + output_offset_108
    v2 = gl.expand_dims(output_offset_110, 1)
    v4 = output_ptr + v2
    v5 = v4.broadcast_to([16, 128])
    v6 = v5 + Q_67
    v7 = acc_105.to(gl.float16)
    v8 = gl.convert_layout(v7, L11)
    gl.store(v6, v8, mask=Q_61)

@gluon.jit
def twill_kernel(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, k_scale, v_scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_k_cache_3, stride_k_cache_4, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, stride_v_cache_3, query_start_len_ptr, num_seqs):
    seq_idx = gl.program_id(0)
    v0 = seq_idx >= num_seqs
    if v0:
        return
    seq_idx = gl.program_id(0)
    cur_batch_in_all_start_index = query_start_len_ptr + seq_idx
    cur_batch_in_all_start_index_19 = gl.load(cur_batch_in_all_start_index)
    cur_batch_in_all_stop_index = cur_batch_in_all_start_index + 1
    cur_batch_in_all_stop_index_20 = gl.load(cur_batch_in_all_stop_index)
    cur_batch_query_len = cur_batch_in_all_stop_index_20 - cur_batch_in_all_start_index_19
    v1 = cur_batch_query_len > 1
    if v1:
        return
    consumer_0(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, k_scale, v_scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_k_cache_3, stride_k_cache_4, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, stride_v_cache_3, query_start_len_ptr, num_seqs, )



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L5_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L6_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L7_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L8_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L9_short = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))
L10_short = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L11_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, k_scale, v_scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_k_cache_3, stride_k_cache_4, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, stride_v_cache_3, query_start_len_ptr, num_seqs):
    seq_idx = gl.program_id(0)
    kv_head_idx = gl.program_id(1)
    cur_batch_in_all_start_index = query_start_len_ptr + seq_idx
    cur_batch_in_all_start_index_19 = gl.load(cur_batch_in_all_start_index)
    query_head_idx = kv_head_idx * 4
    query_head_idx_21 = gl.arange(0, 16, layout=L0_short)
    query_head_idx_22 = gl.arange(0, 16, layout=L1_short)
    query_head_idx_23 = gl.arange(0, 16, layout=L2_short)
    query_head_idx_26 = query_head_idx + query_head_idx_21
    query_head_idx_27 = query_head_idx + query_head_idx_22
    query_offset = gl.cast(cur_batch_in_all_start_index_19, gl.int64)
    query_offset_28 = query_offset * query_stride_0
    query_offset_29 = gl.expand_dims(query_head_idx_26, 1)
    query_offset_30 = query_offset_29.to(gl.int64)
    query_offset_32 = query_offset_30 * query_stride_1
    query_offset_34 = query_offset_28 + query_offset_32
    head_mask = kv_head_idx + 1
    head_mask_35 = head_mask * 4
    head_mask_38 = query_head_idx_26 < head_mask_35
    head_mask_39 = query_head_idx_27 < head_mask_35
    head_mask_40 = query_head_idx_26 < 32
    head_mask_41 = query_head_idx_27 < 32
    head_mask_42 = head_mask_38 & head_mask_40
    head_mask_43 = head_mask_39 & head_mask_41
    dim_mask = gl.arange(0, 128, layout=L3_short)
    dim_mask_44 = gl.arange(0, 128, layout=L4_short)
    dim_mask_45 = gl.arange(0, 128, layout=L5_short)
    dim_mask_46 = dim_mask < 128
    dim_mask_47 = dim_mask_44 < 128
    dim_mask_48 = dim_mask_45 < 128
    dim_mask_49 = gl.where(dim_mask_46, 1, 0)
    dim_mask_50 = gl.where(dim_mask_47, 1, 0)
    dim_mask_51 = gl.where(dim_mask_48, 1, 0)
    dim_mask_52 = dim_mask_49 != 0
    dim_mask_53 = dim_mask_50 != 0
    dim_mask_54 = dim_mask_51 != 0
    Q = gl.expand_dims(dim_mask_52, 0)
    Q_55 = gl.expand_dims(dim_mask_53, 0)
    Q_56 = gl.expand_dims(head_mask_42, 1)
    Q_57 = gl.expand_dims(head_mask_43, 1)
    Q_58 = Q.broadcast_to([16, 128])
    Q_59 = Q_55.broadcast_to([16, 128])
    Q_60 = Q_56.broadcast_to([16, 128])
    Q_61 = Q_58 & Q_60
    Q_63 = query_ptr + query_offset_34
    Q_64 = gl.expand_dims(dim_mask, 0)
    Q_65 = gl.expand_dims(dim_mask_44, 0)
    Q_66 = Q_63.broadcast_to([16, 128])
    Q_67 = Q_64.broadcast_to([16, 128])
    Q_68 = Q_66 + Q_67
    Q_69 = gl.load(Q_68, mask=Q_61, other=0.0)
    block_table_offset = gl.cast(seq_idx, gl.int64)
    block_table_offset_70 = block_table_offset * block_table_stride
    seq_len = seq_lens_ptr + seq_idx
    seq_len_71 = gl.load(seq_len)
    num_blocks = seq_len_71 + 15
    num_blocks_72 = num_blocks // 16
    physical_block_idx = block_tables_ptr + block_table_offset_70
    v_offset = gl.cast(kv_head_idx, gl.int64)
    v_offset_73 = v_offset * stride_v_cache_1
    v_offset_74 = Q_65.to(gl.int64)
    v_offset_76 = v_offset_74 * stride_v_cache_2
    v_offset_77 = gl.arange(0, 16, layout=L6_short)
    v_offset_78 = gl.expand_dims(v_offset_77, 1)
    v_offset_79 = v_offset_78.to(gl.int64)
    v_offset_81 = v_offset_79 * stride_v_cache_3
    v_offset_82 = v_offset_81.broadcast_to([16, 128])
    k_offset = v_offset * stride_k_cache_1
    k_offset_83 = gl.expand_dims(dim_mask_45, 1)
    k_offset_84 = k_offset_83 // 8
    k_offset_85 = k_offset_84.to(gl.int64)
    k_offset_87 = k_offset_85 * stride_k_cache_2
    k_offset_88 = gl.arange(0, 16, layout=L7_short)
    k_offset_89 = gl.expand_dims(k_offset_88, 0)
    k_offset_90 = k_offset_89.to(gl.int64)
    k_offset_92 = k_offset_90 * stride_k_cache_3
    k_offset_93 = k_offset_92.broadcast_to([128, 16])
    k_offset_94 = k_offset_83 % 8
    k_offset_95 = k_offset_94.to(gl.int64)
    k_offset_97 = k_offset_95 * stride_k_cache_4
    k_offset_98 = k_offset_97.broadcast_to([128, 16])
    K_load = gl.expand_dims(dim_mask_54, 1)
    K_load_100 = K_load.broadcast_to([128, 16])
    S = Q_57.broadcast_to([16, 16])
    Q_101 = gl.convert_layout(Q_69, L8_short)
    twill_n = (num_blocks_72 - 0 + 1 - 1) // 1
    m_j_143 = gl.full([16], float("-inf"), gl.float32, layout=L1_short)
    L_151 = gl.full([16], 1.0, gl.float32, layout=L1_short)
    acc_155 = gl.full([16, 128], 0.0, gl.float32, layout=L9_short)
    L_151_p1 = L_151
    acc_155_p1 = acc_155
    m_j_143_p1 = m_j_143
    for twill_b in range(0, twill_n):
        physical_block_idx_112 = physical_block_idx + (0 + (twill_b - 0) * 1)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_113 = gl.load(physical_block_idx_112)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        v_offset_114 = gl.cast(physical_block_idx_113, gl.int64)  # convert0_v_offset: stage 0, partition 0 (group 0)
        k_offset_121 = v_offset_114 * stride_k_cache_0  # elementwise1_k_offset: stage 0, partition 0 (group 0)
        k_offset_122 = k_offset_121 + k_offset  # elementwise1_k_offset: stage 0, partition 0 (group 0)
        v_offset_115 = v_offset_114 * stride_v_cache_0  # elementwise0_v_offset: stage 0, partition 0 (group 0)
        v_offset_116 = v_offset_115 + v_offset_73  # elementwise0_v_offset: stage 0, partition 0 (group 0)
        k_offset_123 = k_offset_122  # load2_K_load: stage 0, partition 0 (group 0)
        k_offset_124 = k_offset_123 + k_offset_87  # load2_K_load: stage 0, partition 0 (group 0)
        k_offset_125 = k_offset_124.broadcast_to([128, 16])  # load2_K_load: stage 0, partition 0 (group 0)
        k_offset_126 = k_offset_125 + k_offset_93  # load2_K_load: stage 0, partition 0 (group 0)
        k_offset_127 = k_offset_126 + k_offset_98  # load2_K_load: stage 0, partition 0 (group 0)
        K_load_128 = key_cache_ptr + k_offset_127  # load2_K_load: stage 0, partition 0 (group 0)
        K_load_129 = gl.load(K_load_128, mask=K_load_100, other=0.0)  # load2_K_load: stage 0, partition 0 (group 0)
        K_load_139 = gl.convert_layout(K_load_129, L10_short)  # convert1_K_load: stage 0, partition 0 (group 0)
        S_140 = mma_v2(Q_101, K_load_139, gl.full([16, 16], 0.0, gl.float32, layout=L9_short))  # dot0_S: stage 0, partition 0 (group 0)
        seq_offset = (0 + (twill_b - 0) * 1) * 16  # elementwise2_S: stage 0, partition 0 (group 0)
        seq_offset_132 = seq_offset  # elementwise2_S: stage 0, partition 0 (group 0)
        seq_offset_133 = seq_offset_132 + query_head_idx_23  # elementwise2_S: stage 0, partition 0 (group 0)
        seq_mask_134 = gl.expand_dims(seq_offset_133, 0)  # elementwise2_S: stage 0, partition 0 (group 0)
        seq_mask_135 = seq_mask_134 < seq_len_71  # elementwise2_S: stage 0, partition 0 (group 0)
        S_136 = seq_mask_135.broadcast_to([16, 16])  # elementwise2_S: stage 0, partition 0 (group 0)
        S_137 = S & S_136  # elementwise2_S: stage 0, partition 0 (group 0)
        S_138 = gl.where(S_137, 0.0, float("-inf"))  # elementwise2_S: stage 0, partition 0 (group 0)
        S_141 = scale * S_140  # elementwise2_S: stage 0, partition 0 (group 0)
        S_142 = S_138 + S_141  # elementwise2_S: stage 0, partition 0 (group 0)
        m_j = gl.max(S_142, axis=1)  # reduce0_m_j: stage 0, partition 0 (group 0)
        m_j_143 = gl.maximum(m_j_143_p1, m_j)  # elementwise3_m_j: stage 0, partition 0 (group 0)
        P = gl.expand_dims(m_j_143, 1)  # sfu0_P: stage 0, partition 0 (group 0)
        P_144 = P.broadcast_to([16, 16])  # sfu0_P: stage 0, partition 0 (group 0)
        P_145 = S_142 - P_144  # sfu0_P: stage 0, partition 0 (group 0)
        P_146 = gl.exp(P_145)  # sfu0_P: stage 0, partition 0 (group 0)
        l_j = gl.sum(P_146, axis=1)  # reduce1_l_j: stage 0, partition 0 (group 0)
        alpha = m_j_143_p1 - m_j_143  # sfu1_alpha: stage 0, partition 0 (group 0)
        alpha_147 = gl.exp(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
        acc_152 = P_146.to(gl.float16)  # convert2_acc: stage 0, partition 0 (group 0)
        acc_153 = gl.convert_layout(acc_152, L8_short)  # convert2_acc: stage 0, partition 0 (group 0)
        L = L_151_p1 * alpha_147  # elementwise5_L: stage 0, partition 0 (group 0)
        L_151 = L + l_j  # elementwise5_L: stage 0, partition 0 (group 0)
        acc_148 = gl.expand_dims(alpha_147, 1)  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_149 = acc_148.broadcast_to([16, 128])  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_150 = acc_155_p1 * acc_149  # elementwise4_acc: stage 0, partition 0 (group 0)
        v_offset_117 = v_offset_116  # load1_V_load: stage 0, partition 0 (group 0)
        v_offset_118 = v_offset_117 + v_offset_76  # load1_V_load: stage 0, partition 0 (group 0)
        v_offset_119 = v_offset_118.broadcast_to([16, 128])  # load1_V_load: stage 0, partition 0 (group 0)
        v_offset_120 = v_offset_119 + v_offset_82  # load1_V_load: stage 0, partition 0 (group 0)
        V_load_130 = value_cache_ptr + v_offset_120  # load1_V_load: stage 0, partition 0 (group 0)
        V_load_131 = gl.load(V_load_130, mask=Q_59, other=0.0)  # load1_V_load: stage 0, partition 0 (group 0)
        V_load_154 = gl.convert_layout(V_load_131, L10_short)  # convert3_V_load: stage 0, partition 0 (group 0)
        acc_155 = mma_v2(acc_153, V_load_154, acc_150)  # dot1_acc: stage 0, partition 0 (group 0)
        L_151_p1 = L_151
        acc_155_p1 = acc_155
        m_j_143_p1 = m_j_143
    acc_103 = gl.expand_dims(L_151_p1, 1)
    acc_104 = acc_103.broadcast_to([16, 128])
    acc_105 = acc_155_p1 / acc_104
    output_offset = query_offset * output_stride_0
    output_offset_106 = query_head_idx_26.to(gl.int64)
    output_offset_108 = output_offset_106 * output_stride_1
    output_offset_110 = output_offset + output_offset_108
    v2 = gl.expand_dims(output_offset_110, 1)
    v4 = output_ptr + v2
    v5 = v4.broadcast_to([16, 128])
    v6 = v5 + Q_67
    v7 = acc_105.to(gl.float16)
    v8 = gl.convert_layout(v7, L11_short)
    gl.store(v6, v8, mask=Q_61)

@gluon.jit
def twill_kernel_short(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, k_scale, v_scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_k_cache_3, stride_k_cache_4, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, stride_v_cache_3, query_start_len_ptr, num_seqs):
    seq_idx = gl.program_id(0)
    v0 = seq_idx >= num_seqs
    if v0:
        return
    seq_idx = gl.program_id(0)
    cur_batch_in_all_start_index = query_start_len_ptr + seq_idx
    cur_batch_in_all_start_index_19 = gl.load(cur_batch_in_all_start_index)
    cur_batch_in_all_stop_index = cur_batch_in_all_start_index + 1
    cur_batch_in_all_stop_index_20 = gl.load(cur_batch_in_all_stop_index)
    cur_batch_query_len = cur_batch_in_all_stop_index_20 - cur_batch_in_all_start_index_19
    v1 = cur_batch_query_len > 1
    if v1:
        return
    consumer_0_short(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, k_scale, v_scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_k_cache_3, stride_k_cache_4, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, stride_v_cache_3, query_start_len_ptr, num_seqs, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'alibi_slopes_ptr', 'scale', 'k_scale', 'v_scale', 'num_query_heads', 'num_queries_per_kv', 'num_queries_per_kv_padded', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'BLOCK_SIZE', 'HEAD_SIZE', 'HEAD_SIZE_PADDED', 'USE_ALIBI_SLOPES', 'SLIDING_WINDOW', 'x', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_k_cache_3', 'stride_k_cache_4', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'stride_v_cache_3', 'filter_by_query_len', 'query_start_len_ptr', 'num_seqs']          # the Triton kernel's parameters, in order
RUNTIME = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'scale', 'k_scale', 'v_scale', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_k_cache_3', 'stride_k_cache_4', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'stride_v_cache_3', 'query_start_len_ptr', 'num_seqs']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'alibi_slopes_ptr', 'scale', 'k_scale', 'v_scale', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_k_cache_3', 'stride_k_cache_4', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'stride_v_cache_3', 'query_start_len_ptr', 'num_seqs']   # the arguments a launch key reads
CONSTEXPRS = {'num_query_heads': 32, 'num_queries_per_kv': 4, 'num_queries_per_kv_padded': 16, 'BLOCK_SIZE': 16, 'HEAD_SIZE': 128, 'HEAD_SIZE_PADDED': 128, 'USE_ALIBI_SLOPES': False, 'SLIDING_WINDOW': 0, 'x': 8, 'filter_by_query_len': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
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
ARGUMENTS_short = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'alibi_slopes_ptr', 'scale', 'k_scale', 'v_scale', 'num_query_heads', 'num_queries_per_kv', 'num_queries_per_kv_padded', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'BLOCK_SIZE', 'HEAD_SIZE', 'HEAD_SIZE_PADDED', 'USE_ALIBI_SLOPES', 'SLIDING_WINDOW', 'x', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_k_cache_3', 'stride_k_cache_4', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'stride_v_cache_3', 'filter_by_query_len', 'query_start_len_ptr', 'num_seqs']          # the Triton kernel's parameters, in order
RUNTIME_short = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'scale', 'k_scale', 'v_scale', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_k_cache_3', 'stride_k_cache_4', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'stride_v_cache_3', 'query_start_len_ptr', 'num_seqs']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'alibi_slopes_ptr', 'scale', 'k_scale', 'v_scale', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_k_cache_3', 'stride_k_cache_4', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'stride_v_cache_3', 'query_start_len_ptr', 'num_seqs']   # the arguments a launch key reads
CONSTEXPRS_short = {'num_query_heads': 32, 'num_queries_per_kv': 4, 'num_queries_per_kv_padded': 16, 'BLOCK_SIZE': 16, 'HEAD_SIZE': 128, 'HEAD_SIZE_PADDED': 128, 'USE_ALIBI_SLOPES': False, 'SLIDING_WINDOW': 0, 'x': 8, 'filter_by_query_len': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
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
