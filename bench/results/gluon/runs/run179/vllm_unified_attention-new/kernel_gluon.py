"""kernel_unified_attention_2d, written by twill from its joint schedule: I=146 L=284 (optimal), 1303 cycles per iteration predicted.

Decisions (each from the schedule):
- K_load_167 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%physical_block_idx_138), which the analysis does not follow
- V_load_173 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%physical_block_idx_137), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (K_load_167, V_load_173): their addresses and masks spread over 128 threads
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 169): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring K_load_167: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring V_load_173: 3 buffers of [64, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 114800 bytes planned of 232448; maxnreg 256
- early return at vllm_unified_attention.py:112 (TTGIR line 113): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 1 iteration(s) ahead, 114688 bytes of shared memory compiled, ptxas 153 registers, clean; none (one partition, no mbarrier) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, query_start_len_ptr, num_seqs, K_load_167_buf, V_load_173_buf, K_load_167_ready, K_load_167_empty, V_load_173_ready, V_load_173_empty, TWILL_COPY: gl.constexpr):
    q_block_global_idx = gl.program_id(0)
    kv_head_idx = gl.program_id(1)
    left = gl.to_tensor(0)
    right_124 = num_seqs
    seq_idx_125 = left < right_124
    right_r0_go = seq_idx_125
    right_r0 = left
    right_r1 = right_124
    while right_r0_go:
        mid = right_r0 + right_r1
        right_125 = mid // 2
        val = query_start_len_ptr + right_125
        val_126 = gl.load(val)
        mid_val = val_126 // 16
        mid_val_127 = mid_val + right_125
        seq_idx_128 = mid_val_127 <= q_block_global_idx
        seq_idx_129 = gl.where(seq_idx_128, right_r1, right_125)
        if seq_idx_128:
            left_131 = right_125 + 1
            seq_idx_130 = left_131
        else:
            seq_idx_130 = right_r0
        left = seq_idx_130
        right_124 = seq_idx_129
        seq_idx_125 = left < right_124
        right_r0_go = seq_idx_125
        right_r0 = left
        right_r1 = right_124
    seq_idx_25 = right_r0 - 1
    q_block_start_idx = query_start_len_ptr + seq_idx_25
    q_block_start_idx_26 = gl.load(q_block_start_idx)
    q_block_start_idx_27 = q_block_start_idx_26 // 16
    q_block_start_idx_28 = q_block_start_idx_27 + seq_idx_25
    q_block_local_idx = q_block_global_idx - q_block_start_idx_28
    cur_batch_in_all_stop_index = q_block_start_idx + 1
    cur_batch_in_all_stop_index_29 = gl.load(cur_batch_in_all_stop_index)
    cur_batch_query_len = cur_batch_in_all_stop_index_29 - q_block_start_idx_26
    v0 = q_block_local_idx * 16
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_30 = gl.arange(0, 64, layout=L1)
    offs_m_31 = gl.arange(0, 64, layout=L2)
    offs_m_32 = gl.arange(0, 64, layout=L3)
    offs_d = gl.arange(0, 128, layout=L4)
    offs_d_33 = gl.arange(0, 128, layout=L5)
    query_pos = offs_m // 4
    query_pos_34 = offs_m_30 // 4
    query_pos_37 = v0 + query_pos
    query_pos_38 = v0 + query_pos_34
    query_offset_0_39 = q_block_start_idx_26 + query_pos_37
    query_offset_1 = kv_head_idx * 4
    query_offset_1_40 = offs_m % 4
    query_offset_1_41 = offs_m_30 % 4
    query_offset_1_44 = query_offset_1 + query_offset_1_40
    query_offset_1_45 = query_offset_1 + query_offset_1_41
    query_offset = gl.expand_dims(query_offset_0_39, 1)
    query_offset_47 = query_offset * query_stride_0
    query_offset_48 = gl.expand_dims(query_offset_1_44, 1)
    query_offset_50 = query_offset_48 * query_stride_1
    query_offset_51 = query_offset_47 + query_offset_50
    query_offset_52 = gl.expand_dims(offs_d, 0)
    query_offset_53 = query_offset_51.broadcast_to([64, 128])
    query_offset_54 = query_offset_52.broadcast_to([64, 128])
    query_offset_55 = query_offset_53 + query_offset_54
    dim_mask = offs_d < 128
    dim_mask_56 = offs_d_33 < 128
    dim_mask_57 = gl.where(dim_mask, 1, 0)
    dim_mask_58 = gl.where(dim_mask_56, 1, 0)
    dim_mask_59 = dim_mask_57 != 0
    dim_mask_60 = dim_mask_58 != 0
    query_mask_0_62 = query_pos_37 < cur_batch_query_len
    query_mask_0_63 = query_pos_38 < cur_batch_query_len
    query_mask_0_64 = gl.where(query_mask_0_62, 1, 0)
    query_mask_0_65 = gl.where(query_mask_0_63, 1, 0)
    query_mask_0_66 = query_mask_0_64 != 0
    query_mask_0_67 = query_mask_0_65 != 0
    query_mask_1 = query_offset_1_44 < 32
    query_mask_1_68 = query_offset_1_45 < 32
    query_mask_1_69 = gl.where(query_mask_1, 1, 0)
    query_mask_1_70 = gl.where(query_mask_1_68, 1, 0)
    query_mask_1_71 = query_mask_1_69 != 0
    query_mask_1_72 = query_mask_1_70 != 0
    Q = gl.expand_dims(dim_mask_59, 0)
    Q_73 = gl.expand_dims(query_mask_0_66, 1)
    Q_74 = gl.expand_dims(query_mask_0_67, 1)
    Q_75 = Q.broadcast_to([64, 128])
    Q_76 = Q_73.broadcast_to([64, 128])
    Q_77 = Q_75 & Q_76
    Q_78 = gl.expand_dims(query_mask_1_71, 1)
    Q_79 = gl.expand_dims(query_mask_1_72, 1)
    Q_80 = Q_78.broadcast_to([64, 128])
    Q_81 = Q_77 & Q_80
    Q_83 = query_ptr + query_offset_55
    Q_84 = gl.load(Q_83, mask=Q_81, other=0.0)
    Q_85 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), Q_84)
    fence_async_shared()
    seq_len = seq_lens_ptr + seq_idx_25
    seq_len_87 = gl.load(seq_len)
    context_len = seq_len_87 - cur_batch_query_len
    max_seq_prefix_len = context_len + v0
    max_seq_prefix_len_88 = max_seq_prefix_len + 16
    max_seq_prefix_len_89 = gl.minimum(max_seq_prefix_len_88, seq_len_87)
    num_tiles = max_seq_prefix_len_89 + 63
    num_tiles_90 = num_tiles // 64
    K_load = gl.expand_dims(dim_mask_60, 1)
    K_load_106 = K_load.broadcast_to([128, 64])
    seq_mask = gl.expand_dims(query_pos_38, 1)
    seq_mask_109 = context_len + seq_mask
    seq_mask_110 = seq_mask_109 + 1
    seq_mask_111 = seq_mask_110.broadcast_to([64, 64])
    S_112 = Q_79 & Q_74
    S_113 = S_112.broadcast_to([64, 64])
    twill_n = (num_tiles_90 - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        m_j_185 = gl.full([64], float("-inf"), gl.float32, layout=L1)
        L_194 = gl.full([64], 1.0, gl.float32, layout=L1)
        acc_197 = gl.full([64, 128], 0.0, gl.float32, layout=L6)
        seq_offset = (0 + (0 - 0) * 1) * 64  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        seq_offset_126 = seq_offset  # load1_physical_block_idx: stage 0, partition 0 (group 0)
        seq_offset_129 = seq_offset_126 + offs_m_31  # load1_physical_block_idx: stage 0, partition 0 (group 0)
        tile_mask_132 = seq_offset_129 < max_seq_prefix_len_89  # load1_physical_block_idx: stage 0, partition 0 (group 0)
        K_load_163 = gl.expand_dims(tile_mask_132, 0)  # elementwise1_K_load: stage 0, partition 0 (group 0)
        K_load_164 = K_load_163.broadcast_to([128, 64])  # elementwise1_K_load: stage 0, partition 0 (group 0)
        K_load_165 = K_load_106 & K_load_164  # elementwise1_K_load: stage 0, partition 0 (group 0)
        seq_offset_125 = seq_offset  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        seq_offset_128 = seq_offset_125 + offs_m  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        tile_mask_131 = seq_offset_128 < max_seq_prefix_len_89  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        V_load_169 = gl.expand_dims(tile_mask_131, 1)  # elementwise2_V_load: stage 0, partition 0 (group 0)
        V_load_170 = V_load_169.broadcast_to([64, 128])  # elementwise2_V_load: stage 0, partition 0 (group 0)
        V_load_171 = Q_75 & V_load_170  # elementwise2_V_load: stage 0, partition 0 (group 0)
        L_194_p1 = L_194
        acc_197_p1 = acc_197
        m_j_185_p1 = m_j_185
        seq_offset_p1 = seq_offset
        for twill_b in range(1, twill_n):
            seq_offset = (0 + (twill_b - 0) * 1) * 64  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            seq_offset_126 = seq_offset  # load1_physical_block_idx: stage 0, partition 0 (group 0)
            seq_offset_129 = seq_offset_126 + offs_m_31  # load1_physical_block_idx: stage 0, partition 0 (group 0)
            tile_mask_132 = seq_offset_129 < max_seq_prefix_len_89  # load1_physical_block_idx: stage 0, partition 0 (group 0)
            K_load_163 = gl.expand_dims(tile_mask_132, 0)  # elementwise1_K_load: stage 0, partition 0 (group 0)
            K_load_164 = K_load_163.broadcast_to([128, 64])  # elementwise1_K_load: stage 0, partition 0 (group 0)
            K_load_165 = K_load_106 & K_load_164  # elementwise1_K_load: stage 0, partition 0 (group 0)
            seq_offset_125 = seq_offset  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            seq_offset_128 = seq_offset_125 + offs_m  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            tile_mask_131 = seq_offset_128 < max_seq_prefix_len_89  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            V_load_169 = gl.expand_dims(tile_mask_131, 1)  # elementwise2_V_load: stage 0, partition 0 (group 0)
            V_load_170 = V_load_169.broadcast_to([64, 128])  # elementwise2_V_load: stage 0, partition 0 (group 0)
            V_load_171 = Q_75 & V_load_170  # elementwise2_V_load: stage 0, partition 0 (group 0)
            mbarrier.wait(K_load_167_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_S_178 = warpgroup_mma(Q_85, K_load_167_buf.index((twill_b - 1) % 3), gl.full([64, 64], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_S: stage 1, partition 0 (group 0)
            seq_offset_127 = seq_offset_p1  # elementwise0_S: stage 1, partition 0 (group 0)
            seq_offset_130 = seq_offset_127 + offs_m_32  # elementwise0_S: stage 1, partition 0 (group 0)
            seq_mask_175 = gl.expand_dims(seq_offset_130, 0)  # elementwise0_S: stage 1, partition 0 (group 0)
            seq_mask_176 = seq_mask_175.broadcast_to([64, 64])  # elementwise0_S: stage 1, partition 0 (group 0)
            seq_mask_177 = seq_mask_176 < seq_mask_111  # elementwise0_S: stage 1, partition 0 (group 0)
            S_178 = warpgroup_mma_wait(0, deps=(tok_S_178,))
            mbarrier.arrive(K_load_167_empty.index((twill_b - 1) % 3))
            S_179 = scale * S_178  # elementwise0_S: stage 1, partition 0 (group 0)
            S_180 = S_179 + 0.0  # elementwise0_S: stage 1, partition 0 (group 0)
            S_181 = S_113 & seq_mask_177  # elementwise0_S: stage 1, partition 0 (group 0)
            S_182 = gl.where(S_181, S_180, float("-inf"))  # elementwise0_S: stage 1, partition 0 (group 0)
            m_j = gl.max(S_182, axis=1)  # reduce0_m_j: stage 1, partition 0 (group 0)
            m_j_183 = gl.maximum(m_j_185_p1, m_j)  # elementwise3_m_j: stage 1, partition 0 (group 0)
            m_j_184 = m_j_183 > float("-inf")  # elementwise4_m_j: stage 1, partition 0 (group 0)
            m_j_185 = gl.where(m_j_184, m_j_183, 0.0)  # elementwise4_m_j: stage 1, partition 0 (group 0)
            alpha = m_j_185_p1 - m_j_185  # sfu1_alpha: stage 1, partition 0 (group 0)
            alpha_189 = gl.exp(alpha)  # sfu1_alpha: stage 1, partition 0 (group 0)
            P = gl.expand_dims(m_j_185, 1)  # sfu0_P: stage 1, partition 0 (group 0)
            P_186 = P.broadcast_to([64, 64])  # sfu0_P: stage 1, partition 0 (group 0)
            P_187 = S_182 - P_186  # sfu0_P: stage 1, partition 0 (group 0)
            P_188 = gl.exp(P_187)  # sfu0_P: stage 1, partition 0 (group 0)
            acc_190 = gl.expand_dims(alpha_189, 1)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_191 = gl.convert_layout(acc_190, L6)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_195 = P_188.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_196 = gl.convert_layout(acc_195, L8)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_192 = acc_191.broadcast_to([64, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
            acc_193 = acc_197_p1 * acc_192  # elementwise5_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(V_load_173_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_197 = warpgroup_mma(acc_196, V_load_173_buf.index((twill_b - 1) % 3), acc_193, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_j = gl.sum(P_188, axis=1)  # reduce1_l_j: stage 1, partition 0 (group 0)
            L = L_194_p1 * alpha_189  # elementwise6_L: stage 1, partition 0 (group 0)
            L_194 = L + l_j  # elementwise6_L: stage 1, partition 0 (group 0)
            acc_197 = warpgroup_mma_wait(0, deps=(tok_acc_197,))
            mbarrier.arrive(V_load_173_empty.index((twill_b - 1) % 3))
            L_194_p1 = L_194
            acc_197_p1 = acc_197
            m_j_185_p1 = m_j_185
            seq_offset_p1 = seq_offset
        mbarrier.wait(K_load_167_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_S_178 = warpgroup_mma(Q_85, K_load_167_buf.index(((twill_n - 1 + 1) - 1) % 3), gl.full([64, 64], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_S: stage 1, partition 0 (group 0)
        seq_offset_127 = seq_offset_p1  # elementwise0_S: stage 1, partition 0 (group 0)
        seq_offset_130 = seq_offset_127 + offs_m_32  # elementwise0_S: stage 1, partition 0 (group 0)
        seq_mask_175 = gl.expand_dims(seq_offset_130, 0)  # elementwise0_S: stage 1, partition 0 (group 0)
        seq_mask_176 = seq_mask_175.broadcast_to([64, 64])  # elementwise0_S: stage 1, partition 0 (group 0)
        seq_mask_177 = seq_mask_176 < seq_mask_111  # elementwise0_S: stage 1, partition 0 (group 0)
        S_178 = warpgroup_mma_wait(0, deps=(tok_S_178,))
        mbarrier.arrive(K_load_167_empty.index(((twill_n - 1 + 1) - 1) % 3))
        S_179 = scale * S_178  # elementwise0_S: stage 1, partition 0 (group 0)
        S_180 = S_179 + 0.0  # elementwise0_S: stage 1, partition 0 (group 0)
        S_181 = S_113 & seq_mask_177  # elementwise0_S: stage 1, partition 0 (group 0)
        S_182 = gl.where(S_181, S_180, float("-inf"))  # elementwise0_S: stage 1, partition 0 (group 0)
        m_j = gl.max(S_182, axis=1)  # reduce0_m_j: stage 1, partition 0 (group 0)
        m_j_183 = gl.maximum(m_j_185_p1, m_j)  # elementwise3_m_j: stage 1, partition 0 (group 0)
        m_j_184 = m_j_183 > float("-inf")  # elementwise4_m_j: stage 1, partition 0 (group 0)
        m_j_185 = gl.where(m_j_184, m_j_183, 0.0)  # elementwise4_m_j: stage 1, partition 0 (group 0)
        alpha = m_j_185_p1 - m_j_185  # sfu1_alpha: stage 1, partition 0 (group 0)
        alpha_189 = gl.exp(alpha)  # sfu1_alpha: stage 1, partition 0 (group 0)
        P = gl.expand_dims(m_j_185, 1)  # sfu0_P: stage 1, partition 0 (group 0)
        P_186 = P.broadcast_to([64, 64])  # sfu0_P: stage 1, partition 0 (group 0)
        P_187 = S_182 - P_186  # sfu0_P: stage 1, partition 0 (group 0)
        P_188 = gl.exp(P_187)  # sfu0_P: stage 1, partition 0 (group 0)
        acc_190 = gl.expand_dims(alpha_189, 1)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_191 = gl.convert_layout(acc_190, L6)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_195 = P_188.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_196 = gl.convert_layout(acc_195, L8)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_192 = acc_191.broadcast_to([64, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
        acc_193 = acc_197_p1 * acc_192  # elementwise5_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(V_load_173_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_acc_197 = warpgroup_mma(acc_196, V_load_173_buf.index(((twill_n - 1 + 1) - 1) % 3), acc_193, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        l_j = gl.sum(P_188, axis=1)  # reduce1_l_j: stage 1, partition 0 (group 0)
        L = L_194_p1 * alpha_189  # elementwise6_L: stage 1, partition 0 (group 0)
        L_194 = L + l_j  # elementwise6_L: stage 1, partition 0 (group 0)
        acc_197 = warpgroup_mma_wait(0, deps=(tok_acc_197,))
        mbarrier.arrive(V_load_173_empty.index(((twill_n - 1 + 1) - 1) % 3))
        L_194_p1 = L_194
        acc_197_p1 = acc_197
        m_j_185_p1 = m_j_185
        seq_offset_p1 = seq_offset
        Q_85._keep_alive()
        K_load_167_buf._keep_alive()
        V_load_173_buf._keep_alive()
    else:
        m_j_185_p1 = gl.full([64], float("-inf"), gl.float32, layout=L1)
        L_194_p1 = gl.full([64], 1.0, gl.float32, layout=L1)
        acc_197_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L6)
    acc_114 = gl.expand_dims(L_194_p1, 1)
    acc_115 = gl.convert_layout(acc_114, L6)
    acc_116 = acc_115.broadcast_to([64, 128])
    acc_117 = acc_197_p1 / acc_116
    output_offset_118 = query_offset * output_stride_0
    output_offset_120 = query_offset_48 * output_stride_1
    output_offset_121 = output_offset_118 + output_offset_120
    output_offset_122 = output_offset_121.broadcast_to([64, 128])
    output_offset_123 = output_offset_122 + query_offset_54
    v3 = output_ptr + output_offset_123
    v4 = acc_117.to(gl.float16)
    v5 = gl.convert_layout(v4, L9)
    gl.store(v3, v5, mask=Q_81)

@gluon.jit
def producer_1(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, query_start_len_ptr, num_seqs, K_load_167_buf, V_load_173_buf, K_load_167_ready, K_load_167_empty, V_load_173_ready, V_load_173_empty, TWILL_COPY: gl.constexpr):
    q_block_global_idx = gl.program_id(0)
    kv_head_idx = gl.program_id(1)
    left = gl.to_tensor(0)
    right_124 = num_seqs
    seq_idx_125 = left < right_124
    right_r0_go = seq_idx_125
    right_r0 = left
    right_r1 = right_124
    while right_r0_go:
        mid = right_r0 + right_r1
        right_125 = mid // 2
        val = query_start_len_ptr + right_125
        val_126 = gl.load(val)
        mid_val = val_126 // 16
        mid_val_127 = mid_val + right_125
        seq_idx_128 = mid_val_127 <= q_block_global_idx
        seq_idx_129 = gl.where(seq_idx_128, right_r1, right_125)
        if seq_idx_128:
            left_131 = right_125 + 1
            seq_idx_130 = left_131
        else:
            seq_idx_130 = right_r0
        left = seq_idx_130
        right_124 = seq_idx_129
        seq_idx_125 = left < right_124
        right_r0_go = seq_idx_125
        right_r0 = left
        right_r1 = right_124
    seq_idx_25 = right_r0 - 1
    q_block_start_idx = query_start_len_ptr + seq_idx_25
    q_block_start_idx_26 = gl.load(q_block_start_idx)
    q_block_start_idx_27 = q_block_start_idx_26 // 16
    q_block_start_idx_28 = q_block_start_idx_27 + seq_idx_25
    q_block_local_idx = q_block_global_idx - q_block_start_idx_28
    cur_batch_in_all_stop_index = q_block_start_idx + 1
    cur_batch_in_all_stop_index_29 = gl.load(cur_batch_in_all_stop_index)
    cur_batch_query_len = cur_batch_in_all_stop_index_29 - q_block_start_idx_26
    v0 = q_block_local_idx * 16
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_31 = gl.arange(0, 64, layout=L2)
    offs_d = gl.arange(0, 128, layout=L4)
    offs_d_33 = gl.arange(0, 128, layout=L5)
    query_offset_52 = gl.expand_dims(offs_d, 0)
    dim_mask = offs_d < 128
    dim_mask_56 = offs_d_33 < 128
    dim_mask_57 = gl.where(dim_mask, 1, 0)
    dim_mask_58 = gl.where(dim_mask_56, 1, 0)
    dim_mask_59 = dim_mask_57 != 0
    dim_mask_60 = dim_mask_58 != 0
    Q = gl.expand_dims(dim_mask_59, 0)
    Q_75 = Q.broadcast_to([64, 128])
    block_table_offset = gl.cast(seq_idx_25, gl.int64)
    block_table_offset_86 = block_table_offset * block_table_stride
    seq_len = seq_lens_ptr + seq_idx_25
    seq_len_87 = gl.load(seq_len)
    context_len = seq_len_87 - cur_batch_query_len
    max_seq_prefix_len = context_len + v0
    max_seq_prefix_len_88 = max_seq_prefix_len + 16
    max_seq_prefix_len_89 = gl.minimum(max_seq_prefix_len_88, seq_len_87)
    num_tiles = max_seq_prefix_len_89 + 63
    num_tiles_90 = num_tiles // 64
    physical_block_idx = block_tables_ptr + block_table_offset_86
    v_offset_94 = gl.cast(kv_head_idx, gl.int64)
    v_offset_95 = v_offset_94 * stride_v_cache_2
    v_offset_97 = query_offset_52.to(gl.int64)
    v_offset_98 = v_offset_97.broadcast_to([64, 128])
    k_offset_100 = v_offset_94 * stride_k_cache_2
    k_offset_102 = gl.expand_dims(offs_d_33, 1)
    k_offset_103 = k_offset_102.to(gl.int64)
    k_offset_104 = k_offset_103.broadcast_to([128, 64])
    K_load = gl.expand_dims(dim_mask_60, 1)
    K_load_106 = K_load.broadcast_to([128, 64])
    for acc_124 in range(0, num_tiles_90, 1):
        twill_k = (acc_124 - 0) // 1
        seq_offset = acc_124 * 64
        seq_offset_128 = seq_offset + offs_m
        seq_offset_129 = seq_offset + offs_m_31
        tile_mask_131 = seq_offset_128 < max_seq_prefix_len_89
        tile_mask_132 = seq_offset_129 < max_seq_prefix_len_89
        physical_block_idx_133 = seq_offset_128 // 16
        physical_block_idx_134 = seq_offset_129 // 16
        physical_block_idx_135 = physical_block_idx + physical_block_idx_133
        physical_block_idx_136 = physical_block_idx + physical_block_idx_134
        physical_block_idx_137 = gl.load(physical_block_idx_135, mask=tile_mask_131, other=0)
        physical_block_idx_138 = gl.load(physical_block_idx_136, mask=tile_mask_132, other=0)
        physical_block_idx_139 = physical_block_idx_137.to(gl.int64)
        physical_block_idx_140 = physical_block_idx_138.to(gl.int64)
        v_offset_141 = gl.expand_dims(physical_block_idx_139, 1)
        v_offset_142 = v_offset_141 * stride_v_cache_0
        v_offset_143 = v_offset_142 + v_offset_95
        v_offset_144 = v_offset_143.broadcast_to([64, 128])
        v_offset_145 = v_offset_144 + v_offset_98
        v_offset_146 = seq_offset_128 % 16
        v_offset_147 = seq_offset_129 % 16
        v_offset_148 = gl.expand_dims(v_offset_146, 1)
        v_offset_149 = v_offset_148.to(gl.int64)
        v_offset_150 = v_offset_149 * stride_v_cache_1
        v_offset_151 = v_offset_150.broadcast_to([64, 128])
        v_offset_152 = v_offset_145 + v_offset_151
        k_offset_153 = gl.expand_dims(physical_block_idx_140, 0)
        k_offset_154 = k_offset_153 * stride_k_cache_0
        k_offset_155 = k_offset_154 + k_offset_100
        k_offset_156 = k_offset_155.broadcast_to([128, 64])
        k_offset_157 = k_offset_156 + k_offset_104
        k_offset_158 = gl.expand_dims(v_offset_147, 0)
        k_offset_159 = k_offset_158.to(gl.int64)
        k_offset_160 = k_offset_159 * stride_k_cache_1
        k_offset_161 = k_offset_160.broadcast_to([128, 64])
        k_offset_162 = k_offset_157 + k_offset_161
        K_load_163 = gl.expand_dims(tile_mask_132, 0)
        K_load_164 = K_load_163.broadcast_to([128, 64])
        K_load_165 = K_load_106 & K_load_164
        K_load_166 = key_cache_ptr + k_offset_162
        V_load_169 = gl.expand_dims(tile_mask_131, 1)
        V_load_170 = V_load_169.broadcast_to([64, 128])
        V_load_171 = Q_75 & V_load_170
        V_load_172 = value_cache_ptr + v_offset_152
        mbarrier.wait(K_load_167_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(K_load_167_buf.index(twill_k % 3), K_load_166, mask=K_load_165)  # load3_K_load: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(K_load_167_ready.index(twill_k % 3), increment_count=False)
        else:
            K_load_167_buf.index(twill_k % 3).store(gl.load(K_load_166, mask=K_load_165, other=0.0))  # load3_K_load: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(K_load_167_ready.index(twill_k % 3), count=128)
        mbarrier.wait(V_load_173_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(V_load_173_buf.index(twill_k % 3), V_load_172, mask=V_load_171)  # load2_V_load: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(V_load_173_ready.index(twill_k % 3), increment_count=False)
        else:
            V_load_173_buf.index(twill_k % 3).store(gl.load(V_load_172, mask=V_load_171, other=0.0))  # load2_V_load: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(V_load_173_ready.index(twill_k % 3), count=128)

@gluon.jit
def twill_kernel(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, query_start_len_ptr, num_seqs, TWILL_COPY: gl.constexpr):
    q_block_global_idx = gl.program_id(0)
    left = gl.to_tensor(0)
    right_124 = num_seqs
    seq_idx_125 = left < right_124
    right_r0_go = seq_idx_125
    right_r0 = left
    right_r1 = right_124
    while right_r0_go:
        mid = right_r0 + right_r1
        right_125 = mid // 2
        val = query_start_len_ptr + right_125
        val_126 = gl.load(val)
        mid_val = val_126 // 16
        mid_val_127 = mid_val + right_125
        seq_idx_128 = mid_val_127 <= q_block_global_idx
        seq_idx_129 = gl.where(seq_idx_128, right_r1, right_125)
        if seq_idx_128:
            left_131 = right_125 + 1
            seq_idx_130 = left_131
        else:
            seq_idx_130 = right_r0
        left = seq_idx_130
        right_124 = seq_idx_129
        seq_idx_125 = left < right_124
        right_r0_go = seq_idx_125
        right_r0 = left
        right_r1 = right_124
    seq_idx_25 = right_r0 - 1
    q_block_start_idx = query_start_len_ptr + seq_idx_25
    q_block_start_idx_26 = gl.load(q_block_start_idx)
    q_block_start_idx_27 = q_block_start_idx_26 // 16
    q_block_start_idx_28 = q_block_start_idx_27 + seq_idx_25
    q_block_local_idx = q_block_global_idx - q_block_start_idx_28
    cur_batch_in_all_stop_index = q_block_start_idx + 1
    cur_batch_in_all_stop_index_29 = gl.load(cur_batch_in_all_stop_index)
    cur_batch_query_len = cur_batch_in_all_stop_index_29 - q_block_start_idx_26
    v0 = q_block_local_idx * 16
    v1 = v0 >= cur_batch_query_len
    if v1:
        return
    K_load_167_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    V_load_173_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    K_load_167_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(K_load_167_ready.index(i), count=128)
    K_load_167_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(K_load_167_empty.index(i), count=1)
    V_load_173_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(V_load_173_ready.index(i), count=128)
    V_load_173_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(V_load_173_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, query_start_len_ptr, num_seqs, K_load_167_buf, V_load_173_buf, K_load_167_ready, K_load_167_empty, V_load_173_ready, V_load_173_empty, TWILL_COPY)),
        (producer_1, (output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, query_start_len_ptr, num_seqs, K_load_167_buf, V_load_173_buf, K_load_167_ready, K_load_167_empty, V_load_173_ready, V_load_173_empty, TWILL_COPY)),
    ], [4], [88])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L6_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L7_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L8_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, query_start_len_ptr, num_seqs, TWILL_COPY: gl.constexpr):
    q_block_global_idx = gl.program_id(0)
    kv_head_idx = gl.program_id(1)
    left = gl.to_tensor(0)
    right_124 = num_seqs
    seq_idx_125 = left < right_124
    right_r0_go = seq_idx_125
    right_r0 = left
    right_r1 = right_124
    while right_r0_go:
        mid = right_r0 + right_r1
        right_125 = mid // 2
        val = query_start_len_ptr + right_125
        val_126 = gl.load(val)
        mid_val = val_126 // 16
        mid_val_127 = mid_val + right_125
        seq_idx_128 = mid_val_127 <= q_block_global_idx
        seq_idx_129 = gl.where(seq_idx_128, right_r1, right_125)
        if seq_idx_128:
            left_131 = right_125 + 1
            seq_idx_130 = left_131
        else:
            seq_idx_130 = right_r0
        left = seq_idx_130
        right_124 = seq_idx_129
        seq_idx_125 = left < right_124
        right_r0_go = seq_idx_125
        right_r0 = left
        right_r1 = right_124
    seq_idx_25 = right_r0 - 1
    q_block_start_idx = query_start_len_ptr + seq_idx_25
    q_block_start_idx_26 = gl.load(q_block_start_idx)
    q_block_start_idx_27 = q_block_start_idx_26 // 16
    q_block_start_idx_28 = q_block_start_idx_27 + seq_idx_25
    q_block_local_idx = q_block_global_idx - q_block_start_idx_28
    cur_batch_in_all_stop_index = q_block_start_idx + 1
    cur_batch_in_all_stop_index_29 = gl.load(cur_batch_in_all_stop_index)
    cur_batch_query_len = cur_batch_in_all_stop_index_29 - q_block_start_idx_26
    v0 = q_block_local_idx * 16
    offs_m = gl.arange(0, 64, layout=L0_short)
    offs_m_30 = gl.arange(0, 64, layout=L1_short)
    offs_m_31 = gl.arange(0, 64, layout=L2_short)
    offs_m_32 = gl.arange(0, 64, layout=L3_short)
    offs_d = gl.arange(0, 128, layout=L4_short)
    offs_d_33 = gl.arange(0, 128, layout=L5_short)
    query_pos = offs_m // 4
    query_pos_34 = offs_m_30 // 4
    query_pos_37 = v0 + query_pos
    query_pos_38 = v0 + query_pos_34
    query_offset_0_39 = q_block_start_idx_26 + query_pos_37
    query_offset_1 = kv_head_idx * 4
    query_offset_1_40 = offs_m % 4
    query_offset_1_41 = offs_m_30 % 4
    query_offset_1_44 = query_offset_1 + query_offset_1_40
    query_offset_1_45 = query_offset_1 + query_offset_1_41
    query_offset = gl.expand_dims(query_offset_0_39, 1)
    query_offset_47 = query_offset * query_stride_0
    query_offset_48 = gl.expand_dims(query_offset_1_44, 1)
    query_offset_50 = query_offset_48 * query_stride_1
    query_offset_51 = query_offset_47 + query_offset_50
    query_offset_52 = gl.expand_dims(offs_d, 0)
    query_offset_53 = query_offset_51.broadcast_to([64, 128])
    query_offset_54 = query_offset_52.broadcast_to([64, 128])
    query_offset_55 = query_offset_53 + query_offset_54
    dim_mask = offs_d < 128
    dim_mask_56 = offs_d_33 < 128
    dim_mask_57 = gl.where(dim_mask, 1, 0)
    dim_mask_58 = gl.where(dim_mask_56, 1, 0)
    dim_mask_59 = dim_mask_57 != 0
    dim_mask_60 = dim_mask_58 != 0
    query_mask_0_62 = query_pos_37 < cur_batch_query_len
    query_mask_0_63 = query_pos_38 < cur_batch_query_len
    query_mask_0_64 = gl.where(query_mask_0_62, 1, 0)
    query_mask_0_65 = gl.where(query_mask_0_63, 1, 0)
    query_mask_0_66 = query_mask_0_64 != 0
    query_mask_0_67 = query_mask_0_65 != 0
    query_mask_1 = query_offset_1_44 < 32
    query_mask_1_68 = query_offset_1_45 < 32
    query_mask_1_69 = gl.where(query_mask_1, 1, 0)
    query_mask_1_70 = gl.where(query_mask_1_68, 1, 0)
    query_mask_1_71 = query_mask_1_69 != 0
    query_mask_1_72 = query_mask_1_70 != 0
    Q = gl.expand_dims(dim_mask_59, 0)
    Q_73 = gl.expand_dims(query_mask_0_66, 1)
    Q_74 = gl.expand_dims(query_mask_0_67, 1)
    Q_75 = Q.broadcast_to([64, 128])
    Q_76 = Q_73.broadcast_to([64, 128])
    Q_77 = Q_75 & Q_76
    Q_78 = gl.expand_dims(query_mask_1_71, 1)
    Q_79 = gl.expand_dims(query_mask_1_72, 1)
    Q_80 = Q_78.broadcast_to([64, 128])
    Q_81 = Q_77 & Q_80
    Q_83 = query_ptr + query_offset_55
    Q_84 = gl.load(Q_83, mask=Q_81, other=0.0)
    Q_85 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), Q_84)
    fence_async_shared()
    block_table_offset = gl.cast(seq_idx_25, gl.int64)
    block_table_offset_86 = block_table_offset * block_table_stride
    seq_len = seq_lens_ptr + seq_idx_25
    seq_len_87 = gl.load(seq_len)
    context_len = seq_len_87 - cur_batch_query_len
    max_seq_prefix_len = context_len + v0
    max_seq_prefix_len_88 = max_seq_prefix_len + 16
    max_seq_prefix_len_89 = gl.minimum(max_seq_prefix_len_88, seq_len_87)
    num_tiles = max_seq_prefix_len_89 + 63
    num_tiles_90 = num_tiles // 64
    physical_block_idx = block_tables_ptr + block_table_offset_86
    v_offset_94 = gl.cast(kv_head_idx, gl.int64)
    v_offset_95 = v_offset_94 * stride_v_cache_2
    v_offset_97 = query_offset_52.to(gl.int64)
    v_offset_98 = v_offset_97.broadcast_to([64, 128])
    k_offset_100 = v_offset_94 * stride_k_cache_2
    k_offset_102 = gl.expand_dims(offs_d_33, 1)
    k_offset_103 = k_offset_102.to(gl.int64)
    k_offset_104 = k_offset_103.broadcast_to([128, 64])
    K_load = gl.expand_dims(dim_mask_60, 1)
    K_load_106 = K_load.broadcast_to([128, 64])
    seq_mask = gl.expand_dims(query_pos_38, 1)
    seq_mask_109 = context_len + seq_mask
    seq_mask_110 = seq_mask_109 + 1
    seq_mask_111 = seq_mask_110.broadcast_to([64, 64])
    S_112 = Q_79 & Q_74
    S_113 = S_112.broadcast_to([64, 64])
    twill_n = (num_tiles_90 - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        K_load_168_ring = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        V_load_174_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        m_j_185 = gl.full([64], float("-inf"), gl.float32, layout=L1_short)
        L_194 = gl.full([64], 1.0, gl.float32, layout=L1_short)
        acc_197 = gl.full([64, 128], 0.0, gl.float32, layout=L6_short)
        seq_offset = (0 + (0 - 0) * 1) * 64  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        seq_offset_126 = seq_offset  # load1_physical_block_idx: stage 0, partition 0 (group 0)
        seq_offset_129 = seq_offset_126 + offs_m_31  # load1_physical_block_idx: stage 0, partition 0 (group 0)
        tile_mask_132 = seq_offset_129 < max_seq_prefix_len_89  # load1_physical_block_idx: stage 0, partition 0 (group 0)
        K_load_163 = gl.expand_dims(tile_mask_132, 0)  # elementwise1_K_load: stage 0, partition 0 (group 0)
        K_load_164 = K_load_163.broadcast_to([128, 64])  # elementwise1_K_load: stage 0, partition 0 (group 0)
        K_load_165 = K_load_106 & K_load_164  # elementwise1_K_load: stage 0, partition 0 (group 0)
        seq_offset_125 = seq_offset  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        seq_offset_128 = seq_offset_125 + offs_m  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        tile_mask_131 = seq_offset_128 < max_seq_prefix_len_89  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        V_load_169 = gl.expand_dims(tile_mask_131, 1)  # elementwise2_V_load: stage 0, partition 0 (group 0)
        V_load_170 = V_load_169.broadcast_to([64, 128])  # elementwise2_V_load: stage 0, partition 0 (group 0)
        V_load_171 = Q_75 & V_load_170  # elementwise2_V_load: stage 0, partition 0 (group 0)
        physical_block_idx_134 = seq_offset_129 // 16  # load1_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_136 = physical_block_idx + physical_block_idx_134  # load1_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_138 = gl.load(physical_block_idx_136, mask=tile_mask_132, other=0)  # load1_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_140 = physical_block_idx_138.to(gl.int64)  # load3_K_load: stage 0, partition 0 (group 0)
        k_offset_153 = gl.expand_dims(physical_block_idx_140, 0)  # load3_K_load: stage 0, partition 0 (group 0)
        v_offset_147 = seq_offset_129 % 16  # load3_K_load: stage 0, partition 0 (group 0)
        k_offset_154 = k_offset_153 * stride_k_cache_0  # load3_K_load: stage 0, partition 0 (group 0)
        k_offset_158 = gl.expand_dims(v_offset_147, 0)  # load3_K_load: stage 0, partition 0 (group 0)
        k_offset_155 = k_offset_154 + k_offset_100  # load3_K_load: stage 0, partition 0 (group 0)
        k_offset_159 = k_offset_158.to(gl.int64)  # load3_K_load: stage 0, partition 0 (group 0)
        k_offset_156 = k_offset_155.broadcast_to([128, 64])  # load3_K_load: stage 0, partition 0 (group 0)
        k_offset_160 = k_offset_159 * stride_k_cache_1  # load3_K_load: stage 0, partition 0 (group 0)
        k_offset_157 = k_offset_156 + k_offset_104  # load3_K_load: stage 0, partition 0 (group 0)
        k_offset_161 = k_offset_160.broadcast_to([128, 64])  # load3_K_load: stage 0, partition 0 (group 0)
        k_offset_162 = k_offset_157 + k_offset_161  # load3_K_load: stage 0, partition 0 (group 0)
        K_load_166 = key_cache_ptr + k_offset_162  # load3_K_load: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load3_K_load: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(K_load_168_ring.index((0 - 0) % 3), K_load_166, mask=K_load_165)  # load3_K_load: stage 0, partition 0 (group 0)
        else:  # load3_K_load: stage 0, partition 0 (group 0)
            K_load_168_ring.index((0 - 0) % 3).store(gl.load(K_load_166, mask=K_load_165, other=0.0))  # load3_K_load: stage 0, partition 0 (group 0)
            fence_async_shared()  # load3_K_load: stage 0, partition 0 (group 0)
        physical_block_idx_133 = seq_offset_128 // 16  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_135 = physical_block_idx + physical_block_idx_133  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_137 = gl.load(physical_block_idx_135, mask=tile_mask_131, other=0)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
        physical_block_idx_139 = physical_block_idx_137.to(gl.int64)  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_141 = gl.expand_dims(physical_block_idx_139, 1)  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_146 = seq_offset_128 % 16  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_142 = v_offset_141 * stride_v_cache_0  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_148 = gl.expand_dims(v_offset_146, 1)  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_143 = v_offset_142 + v_offset_95  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_149 = v_offset_148.to(gl.int64)  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_144 = v_offset_143.broadcast_to([64, 128])  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_150 = v_offset_149 * stride_v_cache_1  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_145 = v_offset_144 + v_offset_98  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_151 = v_offset_150.broadcast_to([64, 128])  # load2_V_load: stage 0, partition 0 (group 0)
        v_offset_152 = v_offset_145 + v_offset_151  # load2_V_load: stage 0, partition 0 (group 0)
        V_load_172 = value_cache_ptr + v_offset_152  # load2_V_load: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_V_load: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(V_load_174_ring.index((0 - 0) % 3), V_load_172, mask=V_load_171)  # load2_V_load: stage 0, partition 0 (group 0)
        else:  # load2_V_load: stage 0, partition 0 (group 0)
            V_load_174_ring.index((0 - 0) % 3).store(gl.load(V_load_172, mask=V_load_171, other=0.0))  # load2_V_load: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_V_load: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        L_194_p1 = L_194
        acc_197_p1 = acc_197
        m_j_185_p1 = m_j_185
        seq_offset_p1 = seq_offset
        for twill_b in range(1, twill_n):
            seq_offset = (0 + (twill_b - 0) * 1) * 64  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            seq_offset_126 = seq_offset  # load1_physical_block_idx: stage 0, partition 0 (group 0)
            seq_offset_129 = seq_offset_126 + offs_m_31  # load1_physical_block_idx: stage 0, partition 0 (group 0)
            tile_mask_132 = seq_offset_129 < max_seq_prefix_len_89  # load1_physical_block_idx: stage 0, partition 0 (group 0)
            K_load_163 = gl.expand_dims(tile_mask_132, 0)  # elementwise1_K_load: stage 0, partition 0 (group 0)
            K_load_164 = K_load_163.broadcast_to([128, 64])  # elementwise1_K_load: stage 0, partition 0 (group 0)
            K_load_165 = K_load_106 & K_load_164  # elementwise1_K_load: stage 0, partition 0 (group 0)
            seq_offset_125 = seq_offset  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            seq_offset_128 = seq_offset_125 + offs_m  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            tile_mask_131 = seq_offset_128 < max_seq_prefix_len_89  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            V_load_169 = gl.expand_dims(tile_mask_131, 1)  # elementwise2_V_load: stage 0, partition 0 (group 0)
            V_load_170 = V_load_169.broadcast_to([64, 128])  # elementwise2_V_load: stage 0, partition 0 (group 0)
            V_load_171 = Q_75 & V_load_170  # elementwise2_V_load: stage 0, partition 0 (group 0)
            physical_block_idx_134 = seq_offset_129 // 16  # load1_physical_block_idx: stage 0, partition 0 (group 0)
            physical_block_idx_136 = physical_block_idx + physical_block_idx_134  # load1_physical_block_idx: stage 0, partition 0 (group 0)
            physical_block_idx_138 = gl.load(physical_block_idx_136, mask=tile_mask_132, other=0)  # load1_physical_block_idx: stage 0, partition 0 (group 0)
            physical_block_idx_140 = physical_block_idx_138.to(gl.int64)  # load3_K_load: stage 0, partition 0 (group 0)
            k_offset_153 = gl.expand_dims(physical_block_idx_140, 0)  # load3_K_load: stage 0, partition 0 (group 0)
            v_offset_147 = seq_offset_129 % 16  # load3_K_load: stage 0, partition 0 (group 0)
            k_offset_154 = k_offset_153 * stride_k_cache_0  # load3_K_load: stage 0, partition 0 (group 0)
            k_offset_158 = gl.expand_dims(v_offset_147, 0)  # load3_K_load: stage 0, partition 0 (group 0)
            k_offset_155 = k_offset_154 + k_offset_100  # load3_K_load: stage 0, partition 0 (group 0)
            k_offset_159 = k_offset_158.to(gl.int64)  # load3_K_load: stage 0, partition 0 (group 0)
            k_offset_156 = k_offset_155.broadcast_to([128, 64])  # load3_K_load: stage 0, partition 0 (group 0)
            k_offset_160 = k_offset_159 * stride_k_cache_1  # load3_K_load: stage 0, partition 0 (group 0)
            k_offset_157 = k_offset_156 + k_offset_104  # load3_K_load: stage 0, partition 0 (group 0)
            k_offset_161 = k_offset_160.broadcast_to([128, 64])  # load3_K_load: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            K_load_168 = K_load_168_ring.index((twill_b - 1) % 3)  # load3_K_load: stage 1, partition 0 (group 0)
            k_offset_162 = k_offset_157 + k_offset_161  # load3_K_load: stage 0, partition 0 (group 0)
            K_load_166 = key_cache_ptr + k_offset_162  # load3_K_load: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load3_K_load: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(K_load_168_ring.index((twill_b - 0) % 3), K_load_166, mask=K_load_165)  # load3_K_load: stage 0, partition 0 (group 0)
            else:  # load3_K_load: stage 0, partition 0 (group 0)
                K_load_168_ring.index((twill_b - 0) % 3).store(gl.load(K_load_166, mask=K_load_165, other=0.0))  # load3_K_load: stage 0, partition 0 (group 0)
                fence_async_shared()  # load3_K_load: stage 0, partition 0 (group 0)
            tok_S_178 = warpgroup_mma(Q_85, K_load_168, gl.full([64, 64], 0.0, gl.float32, layout=L7_short), use_acc=False, is_async=True)  # dot0_S: stage 1, partition 0 (group 0)
            seq_offset_127 = seq_offset_p1  # elementwise0_S: stage 1, partition 0 (group 0)
            seq_offset_130 = seq_offset_127 + offs_m_32  # elementwise0_S: stage 1, partition 0 (group 0)
            seq_mask_175 = gl.expand_dims(seq_offset_130, 0)  # elementwise0_S: stage 1, partition 0 (group 0)
            seq_mask_176 = seq_mask_175.broadcast_to([64, 64])  # elementwise0_S: stage 1, partition 0 (group 0)
            seq_mask_177 = seq_mask_176 < seq_mask_111  # elementwise0_S: stage 1, partition 0 (group 0)
            S_178 = warpgroup_mma_wait(0, deps=(tok_S_178,))
            S_179 = scale * S_178  # elementwise0_S: stage 1, partition 0 (group 0)
            S_180 = S_179 + 0.0  # elementwise0_S: stage 1, partition 0 (group 0)
            S_181 = S_113 & seq_mask_177  # elementwise0_S: stage 1, partition 0 (group 0)
            S_182 = gl.where(S_181, S_180, float("-inf"))  # elementwise0_S: stage 1, partition 0 (group 0)
            m_j = gl.max(S_182, axis=1)  # reduce0_m_j: stage 1, partition 0 (group 0)
            m_j_183 = gl.maximum(m_j_185_p1, m_j)  # elementwise3_m_j: stage 1, partition 0 (group 0)
            m_j_184 = m_j_183 > float("-inf")  # elementwise4_m_j: stage 1, partition 0 (group 0)
            m_j_185 = gl.where(m_j_184, m_j_183, 0.0)  # elementwise4_m_j: stage 1, partition 0 (group 0)
            alpha = m_j_185_p1 - m_j_185  # sfu1_alpha: stage 1, partition 0 (group 0)
            alpha_189 = gl.exp(alpha)  # sfu1_alpha: stage 1, partition 0 (group 0)
            P = gl.expand_dims(m_j_185, 1)  # sfu0_P: stage 1, partition 0 (group 0)
            P_186 = P.broadcast_to([64, 64])  # sfu0_P: stage 1, partition 0 (group 0)
            P_187 = S_182 - P_186  # sfu0_P: stage 1, partition 0 (group 0)
            P_188 = gl.exp(P_187)  # sfu0_P: stage 1, partition 0 (group 0)
            acc_190 = gl.expand_dims(alpha_189, 1)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_191 = gl.convert_layout(acc_190, L6_short)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_195 = P_188.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_196 = gl.convert_layout(acc_195, L8_short)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_192 = acc_191.broadcast_to([64, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
            acc_193 = acc_197_p1 * acc_192  # elementwise5_acc: stage 1, partition 0 (group 0)
            physical_block_idx_133 = seq_offset_128 // 16  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            physical_block_idx_135 = physical_block_idx + physical_block_idx_133  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            physical_block_idx_137 = gl.load(physical_block_idx_135, mask=tile_mask_131, other=0)  # load0_physical_block_idx: stage 0, partition 0 (group 0)
            physical_block_idx_139 = physical_block_idx_137.to(gl.int64)  # load2_V_load: stage 0, partition 0 (group 0)
            v_offset_141 = gl.expand_dims(physical_block_idx_139, 1)  # load2_V_load: stage 0, partition 0 (group 0)
            v_offset_146 = seq_offset_128 % 16  # load2_V_load: stage 0, partition 0 (group 0)
            v_offset_142 = v_offset_141 * stride_v_cache_0  # load2_V_load: stage 0, partition 0 (group 0)
            v_offset_148 = gl.expand_dims(v_offset_146, 1)  # load2_V_load: stage 0, partition 0 (group 0)
            v_offset_143 = v_offset_142 + v_offset_95  # load2_V_load: stage 0, partition 0 (group 0)
            v_offset_149 = v_offset_148.to(gl.int64)  # load2_V_load: stage 0, partition 0 (group 0)
            v_offset_144 = v_offset_143.broadcast_to([64, 128])  # load2_V_load: stage 0, partition 0 (group 0)
            v_offset_150 = v_offset_149 * stride_v_cache_1  # load2_V_load: stage 0, partition 0 (group 0)
            v_offset_145 = v_offset_144 + v_offset_98  # load2_V_load: stage 0, partition 0 (group 0)
            v_offset_151 = v_offset_150.broadcast_to([64, 128])  # load2_V_load: stage 0, partition 0 (group 0)
            V_load_174 = V_load_174_ring.index((twill_b - 1) % 3)  # load2_V_load: stage 1, partition 0 (group 0)
            v_offset_152 = v_offset_145 + v_offset_151  # load2_V_load: stage 0, partition 0 (group 0)
            V_load_172 = value_cache_ptr + v_offset_152  # load2_V_load: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_V_load: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(V_load_174_ring.index((twill_b - 0) % 3), V_load_172, mask=V_load_171)  # load2_V_load: stage 0, partition 0 (group 0)
            else:  # load2_V_load: stage 0, partition 0 (group 0)
                V_load_174_ring.index((twill_b - 0) % 3).store(gl.load(V_load_172, mask=V_load_171, other=0.0))  # load2_V_load: stage 0, partition 0 (group 0)
                fence_async_shared()  # load2_V_load: stage 0, partition 0 (group 0)
            tok_acc_197 = warpgroup_mma(acc_196, V_load_174, acc_193, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_j = gl.sum(P_188, axis=1)  # reduce1_l_j: stage 1, partition 0 (group 0)
            L = L_194_p1 * alpha_189  # elementwise6_L: stage 1, partition 0 (group 0)
            L_194 = L + l_j  # elementwise6_L: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_197 = warpgroup_mma_wait(0, deps=(tok_acc_197,))
            L_194_p1 = L_194
            acc_197_p1 = acc_197
            m_j_185_p1 = m_j_185
            seq_offset_p1 = seq_offset
        async_copy.wait_group(0)
        gl.thread_barrier()
        K_load_168 = K_load_168_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load3_K_load: stage 1, partition 0 (group 0)
        tok_S_178 = warpgroup_mma(Q_85, K_load_168, gl.full([64, 64], 0.0, gl.float32, layout=L7_short), use_acc=False, is_async=True)  # dot0_S: stage 1, partition 0 (group 0)
        seq_offset_127 = seq_offset_p1  # elementwise0_S: stage 1, partition 0 (group 0)
        seq_offset_130 = seq_offset_127 + offs_m_32  # elementwise0_S: stage 1, partition 0 (group 0)
        seq_mask_175 = gl.expand_dims(seq_offset_130, 0)  # elementwise0_S: stage 1, partition 0 (group 0)
        seq_mask_176 = seq_mask_175.broadcast_to([64, 64])  # elementwise0_S: stage 1, partition 0 (group 0)
        seq_mask_177 = seq_mask_176 < seq_mask_111  # elementwise0_S: stage 1, partition 0 (group 0)
        S_178 = warpgroup_mma_wait(0, deps=(tok_S_178,))
        S_179 = scale * S_178  # elementwise0_S: stage 1, partition 0 (group 0)
        S_180 = S_179 + 0.0  # elementwise0_S: stage 1, partition 0 (group 0)
        S_181 = S_113 & seq_mask_177  # elementwise0_S: stage 1, partition 0 (group 0)
        S_182 = gl.where(S_181, S_180, float("-inf"))  # elementwise0_S: stage 1, partition 0 (group 0)
        m_j = gl.max(S_182, axis=1)  # reduce0_m_j: stage 1, partition 0 (group 0)
        m_j_183 = gl.maximum(m_j_185_p1, m_j)  # elementwise3_m_j: stage 1, partition 0 (group 0)
        m_j_184 = m_j_183 > float("-inf")  # elementwise4_m_j: stage 1, partition 0 (group 0)
        m_j_185 = gl.where(m_j_184, m_j_183, 0.0)  # elementwise4_m_j: stage 1, partition 0 (group 0)
        alpha = m_j_185_p1 - m_j_185  # sfu1_alpha: stage 1, partition 0 (group 0)
        alpha_189 = gl.exp(alpha)  # sfu1_alpha: stage 1, partition 0 (group 0)
        P = gl.expand_dims(m_j_185, 1)  # sfu0_P: stage 1, partition 0 (group 0)
        P_186 = P.broadcast_to([64, 64])  # sfu0_P: stage 1, partition 0 (group 0)
        P_187 = S_182 - P_186  # sfu0_P: stage 1, partition 0 (group 0)
        P_188 = gl.exp(P_187)  # sfu0_P: stage 1, partition 0 (group 0)
        acc_190 = gl.expand_dims(alpha_189, 1)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_191 = gl.convert_layout(acc_190, L6_short)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_195 = P_188.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_196 = gl.convert_layout(acc_195, L8_short)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_192 = acc_191.broadcast_to([64, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
        acc_193 = acc_197_p1 * acc_192  # elementwise5_acc: stage 1, partition 0 (group 0)
        V_load_174 = V_load_174_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load2_V_load: stage 1, partition 0 (group 0)
        tok_acc_197 = warpgroup_mma(acc_196, V_load_174, acc_193, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        l_j = gl.sum(P_188, axis=1)  # reduce1_l_j: stage 1, partition 0 (group 0)
        L = L_194_p1 * alpha_189  # elementwise6_L: stage 1, partition 0 (group 0)
        L_194 = L + l_j  # elementwise6_L: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_197 = warpgroup_mma_wait(0, deps=(tok_acc_197,))
        L_194_p1 = L_194
        acc_197_p1 = acc_197
        m_j_185_p1 = m_j_185
        seq_offset_p1 = seq_offset
        Q_85._keep_alive()
        K_load_168_ring._keep_alive()
        V_load_174_ring._keep_alive()
    else:
        m_j_185_p1 = gl.full([64], float("-inf"), gl.float32, layout=L1_short)
        L_194_p1 = gl.full([64], 1.0, gl.float32, layout=L1_short)
        acc_197_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L6_short)
    acc_114 = gl.expand_dims(L_194_p1, 1)
    acc_115 = gl.convert_layout(acc_114, L6_short)
    acc_116 = acc_115.broadcast_to([64, 128])
    acc_117 = acc_197_p1 / acc_116
    output_offset_118 = query_offset * output_stride_0
    output_offset_120 = query_offset_48 * output_stride_1
    output_offset_121 = output_offset_118 + output_offset_120
    output_offset_122 = output_offset_121.broadcast_to([64, 128])
    output_offset_123 = output_offset_122 + query_offset_54
    v3 = output_ptr + output_offset_123
    v4 = acc_117.to(gl.float16)
    v5 = gl.convert_layout(v4, L9_short)
    gl.store(v3, v5, mask=Q_81)

@gluon.jit
def twill_kernel_short(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, query_start_len_ptr, num_seqs, TWILL_COPY: gl.constexpr):
    q_block_global_idx = gl.program_id(0)
    left = gl.to_tensor(0)
    right_124 = num_seqs
    seq_idx_125 = left < right_124
    right_r0_go = seq_idx_125
    right_r0 = left
    right_r1 = right_124
    while right_r0_go:
        mid = right_r0 + right_r1
        right_125 = mid // 2
        val = query_start_len_ptr + right_125
        val_126 = gl.load(val)
        mid_val = val_126 // 16
        mid_val_127 = mid_val + right_125
        seq_idx_128 = mid_val_127 <= q_block_global_idx
        seq_idx_129 = gl.where(seq_idx_128, right_r1, right_125)
        if seq_idx_128:
            left_131 = right_125 + 1
            seq_idx_130 = left_131
        else:
            seq_idx_130 = right_r0
        left = seq_idx_130
        right_124 = seq_idx_129
        seq_idx_125 = left < right_124
        right_r0_go = seq_idx_125
        right_r0 = left
        right_r1 = right_124
    seq_idx_25 = right_r0 - 1
    q_block_start_idx = query_start_len_ptr + seq_idx_25
    q_block_start_idx_26 = gl.load(q_block_start_idx)
    q_block_start_idx_27 = q_block_start_idx_26 // 16
    q_block_start_idx_28 = q_block_start_idx_27 + seq_idx_25
    q_block_local_idx = q_block_global_idx - q_block_start_idx_28
    cur_batch_in_all_stop_index = q_block_start_idx + 1
    cur_batch_in_all_stop_index_29 = gl.load(cur_batch_in_all_stop_index)
    cur_batch_query_len = cur_batch_in_all_stop_index_29 - q_block_start_idx_26
    v0 = q_block_local_idx * 16
    v1 = v0 >= cur_batch_query_len
    if v1:
        return
    consumer_0_short(output_ptr, query_ptr, key_cache_ptr, value_cache_ptr, block_tables_ptr, seq_lens_ptr, scale, block_table_stride, query_stride_0, query_stride_1, output_stride_0, output_stride_1, stride_k_cache_0, stride_k_cache_1, stride_k_cache_2, stride_v_cache_0, stride_v_cache_1, stride_v_cache_2, query_start_len_ptr, num_seqs, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'scale', 'num_query_heads', 'num_queries_per_kv', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'BLOCK_SIZE', 'TILE_SIZE', 'HEAD_SIZE', 'HEAD_SIZE_PADDED', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_k_cache_3', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'stride_v_cache_3', 'query_start_len_ptr', 'BLOCK_Q', 'num_seqs', 'BLOCK_M']          # the Triton kernel's parameters, in order
RUNTIME = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'scale', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'query_start_len_ptr', 'num_seqs']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'scale', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'query_start_len_ptr', 'num_seqs']   # the arguments a launch key reads
CONSTEXPRS = {'num_query_heads': 32, 'num_queries_per_kv': 4, 'BLOCK_SIZE': 16, 'TILE_SIZE': 64, 'HEAD_SIZE': 128, 'HEAD_SIZE_PADDED': 128, 'stride_k_cache_3': 1, 'stride_v_cache_3': 1, 'BLOCK_Q': 16, 'BLOCK_M': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['key_cache_ptr', 'value_cache_ptr', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'scale', 'num_query_heads', 'num_queries_per_kv', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'BLOCK_SIZE', 'TILE_SIZE', 'HEAD_SIZE', 'HEAD_SIZE_PADDED', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_k_cache_3', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'stride_v_cache_3', 'query_start_len_ptr', 'BLOCK_Q', 'num_seqs', 'BLOCK_M']          # the Triton kernel's parameters, in order
RUNTIME_short = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'scale', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'query_start_len_ptr', 'num_seqs']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['output_ptr', 'query_ptr', 'key_cache_ptr', 'value_cache_ptr', 'block_tables_ptr', 'seq_lens_ptr', 'scale', 'block_table_stride', 'query_stride_0', 'query_stride_1', 'output_stride_0', 'output_stride_1', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2', 'query_start_len_ptr', 'num_seqs']   # the arguments a launch key reads
CONSTEXPRS_short = {'num_query_heads': 32, 'num_queries_per_kv': 4, 'BLOCK_SIZE': 16, 'TILE_SIZE': 64, 'HEAD_SIZE': 128, 'HEAD_SIZE_PADDED': 128, 'stride_k_cache_3': 1, 'stride_v_cache_3': 1, 'BLOCK_Q': 16, 'BLOCK_M': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['key_cache_ptr', 'value_cache_ptr', 'stride_k_cache_0', 'stride_k_cache_1', 'stride_k_cache_2', 'stride_v_cache_0', 'stride_v_cache_1', 'stride_v_cache_2']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    flags = {'TWILL_COPY': all(_aligned_short(bound[n]) for n in COPY_ALIGNED_short)}
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


def _aligned_short(value):
    """Whether an argument is specialised as 16-divisible (Triton's rule): an integer's value, a tensor's address."""
    if hasattr(value, "data_ptr"):
        return value.data_ptr() % 16 == 0
    return isinstance(value, int) and value % 16 == 0


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
    """Run the faster of the warp-specialized kernel and the one-partition one for this launch's key, timed on the
    key's first launch (the warp-specialized one where no timing can run: no CUDA device, a graph being captured)."""
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
    warp-specialized kernel's launch where the copies do not fit in memory (kept for the key: not tried again)."""
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
    except Exception:                       # noqa: BLE001 - no memory for the copies: the warp-specialized kernel
        return launch_long
    try:
        launch_long(grid, *args, **kwargs)  # compiled, and its errors the launch's own
        try:
            launch_short(grid, *args, **kwargs)
        except Exception:                   # noqa: BLE001 - the one partition refuses this launch: the other runs
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
