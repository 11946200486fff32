"""_fwd_kernel_alibi, written by twill from its joint schedule: I=270 L=270 (optimal), 2079 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (the dots' tiles loaded by its own warps and stored to shared memory for the wgmma, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, a stage ahead of their readers; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 137 per thread)
- shared operand k_load_180_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand v_load_208_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 40976 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at vllm_prefix_prefill.py:175 (TTGIR line 308) (after the scheduled loop): written by the same partitions, its tiles loaded by the partition itself, in one stage of its own schedule (I=273, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, K_cache, V_cache, B_Loc, sm_scale, k_scale, v_scale, B_Start_Loc, B_Seqlen, Alibi_slopes, block_size, x, Out, stride_b_loc_b, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, stride_k_cache_bs, stride_k_cache_h, stride_k_cache_d, stride_k_cache_bl, stride_v_cache_bs, stride_v_cache_h, stride_v_cache_d, num_queries_per_kv):
    twill_base = 0
    cur_batch = gl.program_id(0)
    cur_head = gl.program_id(1)
    start_m = gl.program_id(2)
    cur_kv_head = cur_head // num_queries_per_kv
    cur_batch_seq_len = B_Seqlen + cur_batch
    cur_batch_seq_len_12 = gl.load(cur_batch_seq_len)
    cur_batch_in_all_start_index = B_Start_Loc + cur_batch
    cur_batch_in_all_start_index_13 = gl.load(cur_batch_in_all_start_index)
    cur_batch_in_all_stop_index = cur_batch_in_all_start_index + 1
    cur_batch_in_all_stop_index_14 = gl.load(cur_batch_in_all_stop_index)
    cur_batch_query_len = cur_batch_in_all_stop_index_14 - cur_batch_in_all_start_index_13
    cur_batch_ctx_len = cur_batch_seq_len_12 - cur_batch_query_len
    block_start_loc = start_m * 64
    offs_n = gl.arange(0, 64, layout=L0)
    offs_n_15 = gl.arange(0, 64, layout=L1)
    offs_n_16 = gl.arange(0, 64, layout=L2)
    offs_n_17 = gl.arange(0, 64, layout=L3)
    offs_n_18 = gl.arange(0, 64, layout=L4)
    offs_m_20 = block_start_loc + offs_n
    offs_m_21 = block_start_loc + offs_n_16
    off_q = gl.expand_dims(offs_m_20, 1)
    off_q_22 = gl.expand_dims(offs_m_21, 1)
    off_q_24 = cur_batch_in_all_start_index_13 + off_q
    off_q_26 = off_q_24 * stride_qbs
    off_q_27 = cur_head * stride_qh
    off_q_29 = off_q_26 + off_q_27
    off_q_30 = gl.arange(0, 64, layout=L5)
    off_q_31 = gl.expand_dims(offs_n_17, 0)
    off_q_32 = gl.expand_dims(off_q_30, 0)
    off_q_33 = gl.expand_dims(offs_n_18, 0)
    off_q_34 = off_q_29.broadcast_to([64, 64])
    off_q_35 = off_q_31.broadcast_to([64, 64])
    off_q_36 = off_q_34 + off_q_35
    dim_mask_37 = offs_n_17 < 64
    dim_mask_38 = offs_n_18 < 64
    dim_mask_39 = offs_n_15 < 64
    dim_mask_40 = gl.where(dim_mask_37, 1, 0)
    dim_mask_41 = gl.where(dim_mask_38, 1, 0)
    dim_mask_42 = gl.where(dim_mask_39, 1, 0)
    dim_mask_43 = dim_mask_40 != 0
    dim_mask_44 = dim_mask_41 != 0
    dim_mask_45 = dim_mask_42 != 0
    q = gl.expand_dims(dim_mask_43, 0)
    q_46 = gl.expand_dims(dim_mask_44, 0)
    q_47 = cur_batch_seq_len_12 - cur_batch_ctx_len
    q_49 = off_q < q_47
    q_50 = q.broadcast_to([64, 64])
    q_51 = q_46.broadcast_to([64, 64])
    q_52 = q_49.broadcast_to([64, 64])
    q_53 = q_50 & q_52
    q_55 = Q + off_q_36
    q_56 = gl.load(q_55, mask=q_53, other=0.0)
    q_57 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_56)
    fence_async_shared()
    alibi_slope = Alibi_slopes + cur_head
    alibi_slope_58 = gl.load(alibi_slope)
    alibi_start_q_61 = offs_m_21 + cur_batch_ctx_len
    bn = cur_batch * stride_b_loc_b
    bn_62 = B_Loc + bn
    off_k_67 = cur_kv_head * stride_k_cache_h
    off_k_69 = gl.expand_dims(offs_n_15, 1)
    off_k_74 = off_k_69 % x
    off_k_75 = off_k_74.broadcast_to([64, 64])
    off_v_76 = cur_kv_head * stride_v_cache_h
    off_v_79 = off_q_33 * stride_v_cache_d
    off_v_80 = off_v_79.broadcast_to([64, 64])
    k_load = gl.expand_dims(dim_mask_45, 1)
    k_load_84 = k_load.broadcast_to([64, 64])
    alibi = gl.expand_dims(alibi_start_q_61, 1)
    alibi_86 = alibi.broadcast_to([64, 64])
    alibi_89 = alibi < cur_batch_seq_len_12
    alibi_90 = alibi_89.broadcast_to([64, 64])
    twill_n = (cur_batch_ctx_len - 0 + 64 - 1) // 64
    k_load_180_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_load_208_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    m_i_new = gl.full([64], float("-inf"), gl.float32, layout=L2)
    l_i_new_199 = gl.full([64], 0.0, gl.float32, layout=L2)
    acc_211 = gl.full([64, 64], 0.0, gl.float32, layout=L6)
    alibi_start_k_194 = 0
    acc_211_p1 = acc_211
    alibi_start_k_194_p1 = alibi_start_k_194
    l_i_new_199_p1 = l_i_new_199
    m_i_new_p1 = m_i_new
    for twill_b in range(0, twill_n):
        off_k_155 = (0 + (twill_b - 0) * 64)  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_157 = off_k_155 + off_q_33  # load2_k_load: stage 0, partition 0 (group 0)
        k_load_174 = off_k_157 < cur_batch_ctx_len  # elementwise1_k_load: stage 0, partition 0 (group 0)
        k_load_176 = k_load_174.broadcast_to([64, 64])  # elementwise1_k_load: stage 0, partition 0 (group 0)
        k_load_177 = k_load_84 & k_load_176  # elementwise1_k_load: stage 0, partition 0 (group 0)
        off_v_168 = (0 + (twill_b - 0) * 64)  # load3_v_load: stage 0, partition 0 (group 0)
        off_v_169 = off_v_168 + off_k_69  # load3_v_load: stage 0, partition 0 (group 0)
        v_load_203 = off_v_169 < cur_batch_ctx_len  # elementwise6_v_load: stage 0, partition 0 (group 0)
        v_load_204 = v_load_203.broadcast_to([64, 64])  # elementwise6_v_load: stage 0, partition 0 (group 0)
        v_load_205 = q_51 & v_load_204  # elementwise6_v_load: stage 0, partition 0 (group 0)
        alibi_184 = alibi_start_k_194_p1  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_185 = off_q_32 + alibi_184  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_186 = alibi_185.broadcast_to([64, 64])  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_187 = alibi_186 - alibi_86  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_188 = alibi_187.to(gl.float32)  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_start_k_194 = alibi_start_k_194_p1 + 64  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_189 = alibi_188 * alibi_slope_58  # elementwise2_alibi: stage 0, partition 0 (group 0)
        bn_134 = (0 + (twill_b - 0) * 64)  # load0_bn: stage 0, partition 0 (group 0)
        bn_136 = bn_134 + offs_n_18  # load0_bn: stage 0, partition 0 (group 0)
        bn_140 = bn_136 // block_size  # load0_bn: stage 0, partition 0 (group 0)
        bn_138 = bn_136 < cur_batch_ctx_len  # load0_bn: stage 0, partition 0 (group 0)
        bn_142 = bn_62 + bn_140  # load0_bn: stage 0, partition 0 (group 0)
        bn_144 = gl.load(bn_142, mask=bn_138, other=0)  # load0_bn: stage 0, partition 0 (group 0)
        off_k_146 = gl.expand_dims(bn_144, 0)  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_147 = off_k_146 * stride_k_cache_bs  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_149 = off_k_69 // x  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_148 = off_k_147 + off_k_67  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_150 = off_k_149 * stride_k_cache_d  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_158 = off_k_157 % block_size  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_151 = off_k_148.broadcast_to([64, 64])  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_152 = off_k_150.broadcast_to([64, 64])  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_159 = off_k_158 * stride_k_cache_bl  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_153 = off_k_151 + off_k_152  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_160 = off_k_159.broadcast_to([64, 64])  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_161 = off_k_153 + off_k_160  # load2_k_load: stage 0, partition 0 (group 0)
        off_k_162 = off_k_161 + off_k_75  # load2_k_load: stage 0, partition 0 (group 0)
        k_load_178 = K_cache + off_k_162  # load2_k_load: stage 0, partition 0 (group 0)
        k_load_179 = gl.load(k_load_178, mask=k_load_177, other=0.0)  # load2_k_load: stage 0, partition 0 (group 0)
        k_load_180 = k_load_180_st.index((twill_b - 0) % 2)  # load2_k_load: stage 0, partition 0 (group 0)
        k_load_180.store(k_load_179)  # load2_k_load: stage 0, partition 0 (group 0)
        fence_async_shared()  # load2_k_load: stage 0, partition 0 (group 0)
        tok_qk_181 = warpgroup_mma(q_57, k_load_180, gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        off_k_154 = (0 + (twill_b - 0) * 64)  # elementwise0_qk: stage 0, partition 0 (group 0)
        off_k_156 = off_k_154 + off_q_32  # elementwise0_qk: stage 0, partition 0 (group 0)
        k_load_173 = off_k_156 < cur_batch_ctx_len  # elementwise0_qk: stage 0, partition 0 (group 0)
        k_load_175 = k_load_173.broadcast_to([64, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
        acc_211_p1, qk_181 = warpgroup_mma_wait(0, deps=(acc_211_p1, tok_qk_181,))
        qk_182 = gl.where(k_load_175, qk_181, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk_183 = qk_182 * sm_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
        alibi_190 = alibi_189 <= 0.0  # elementwise0_qk: stage 0, partition 0 (group 0)
        alibi_191 = alibi_190 & alibi_90  # elementwise0_qk: stage 0, partition 0 (group 0)
        alibi_192 = gl.where(alibi_191, alibi_189, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk_193 = qk_183 + alibi_192  # elementwise0_qk: stage 0, partition 0 (group 0)
        m_ij = gl.max(qk_193, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
        m_i_new = gl.maximum(m_i_new_p1, m_ij)  # elementwise3_m_i_new: stage 0, partition 0 (group 0)
        p = gl.expand_dims(m_i_new, 1)  # sfu0_p: stage 0, partition 0 (group 0)
        p_195 = p.broadcast_to([64, 64])  # sfu0_p: stage 0, partition 0 (group 0)
        p_196 = qk_193 - p_195  # sfu0_p: stage 0, partition 0 (group 0)
        p_197 = gl.exp(p_196)  # sfu0_p: stage 0, partition 0 (group 0)
        l_ij = gl.sum(p_197, axis=1)  # reduce1_l_ij: stage 0, partition 0 (group 0)
        p_209 = p_197.to(gl.float16)  # convert1_p: stage 0, partition 0 (group 0)
        p_210 = gl.convert_layout(p_209, L7)  # convert1_p: stage 0, partition 0 (group 0)
        alpha = m_i_new_p1 - m_i_new  # sfu1_alpha: stage 0, partition 0 (group 0)
        alpha_198 = gl.exp(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
        l_i_new = alpha_198 * l_i_new_199_p1  # elementwise4_l_i_new: stage 0, partition 0 (group 0)
        l_i_new_199 = l_i_new + l_ij  # elementwise4_l_i_new: stage 0, partition 0 (group 0)
        acc_200 = gl.expand_dims(alpha_198, 1)  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_201 = acc_200.broadcast_to([64, 64])  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_202 = acc_211_p1 * acc_201  # elementwise5_acc: stage 0, partition 0 (group 0)
        bn_135 = (0 + (twill_b - 0) * 64)  # load1_bn: stage 0, partition 0 (group 0)
        bn_137 = bn_135 + offs_n_15  # load1_bn: stage 0, partition 0 (group 0)
        bn_141 = bn_137 // block_size  # load1_bn: stage 0, partition 0 (group 0)
        bn_139 = bn_137 < cur_batch_ctx_len  # load1_bn: stage 0, partition 0 (group 0)
        bn_143 = bn_62 + bn_141  # load1_bn: stage 0, partition 0 (group 0)
        bn_145 = gl.load(bn_143, mask=bn_139, other=0)  # load1_bn: stage 0, partition 0 (group 0)
        off_v_163 = gl.expand_dims(bn_145, 1)  # load3_v_load: stage 0, partition 0 (group 0)
        off_v_164 = off_v_163 * stride_v_cache_bs  # load3_v_load: stage 0, partition 0 (group 0)
        off_v_165 = off_v_164 + off_v_76  # load3_v_load: stage 0, partition 0 (group 0)
        off_v_166 = off_v_165.broadcast_to([64, 64])  # load3_v_load: stage 0, partition 0 (group 0)
        off_v_170 = off_v_169 % block_size  # load3_v_load: stage 0, partition 0 (group 0)
        off_v_167 = off_v_166 + off_v_80  # load3_v_load: stage 0, partition 0 (group 0)
        off_v_171 = off_v_170.broadcast_to([64, 64])  # load3_v_load: stage 0, partition 0 (group 0)
        off_v_172 = off_v_167 + off_v_171  # load3_v_load: stage 0, partition 0 (group 0)
        v_load_206 = V_cache + off_v_172  # load3_v_load: stage 0, partition 0 (group 0)
        v_load_207 = gl.load(v_load_206, mask=v_load_205, other=0.0)  # load3_v_load: stage 0, partition 0 (group 0)
        v_load_208 = v_load_208_st.index((twill_b - 0) % 2)  # load3_v_load: stage 0, partition 0 (group 0)
        v_load_208.store(v_load_207)  # load3_v_load: stage 0, partition 0 (group 0)
        fence_async_shared()  # load3_v_load: stage 0, partition 0 (group 0)
        tok_acc_211 = warpgroup_mma(p_210, v_load_208, acc_202, is_async=True)  # dot1_acc: stage 0, partition 0 (group 0)
        acc_211 = warpgroup_mma_wait(1, deps=(tok_acc_211,))
        acc_211_p1 = acc_211
        alibi_start_k_194_p1 = alibi_start_k_194
        l_i_new_199_p1 = l_i_new_199
        m_i_new_p1 = m_i_new
    acc_211_p1 = warpgroup_mma_wait(0, deps=(acc_211_p1,))
    q_57._keep_alive()
    k_load_180_st._keep_alive()
    v_load_208_st._keep_alive()
    twill_base += twill_n
    off_k_93 = off_q_33 * stride_kbs
    off_k_94 = cur_kv_head * stride_kh
    off_k_96 = off_k_93 + off_k_94
    off_k_97 = gl.expand_dims(offs_n_15, 1)
    off_k_98 = gl.expand_dims(offs_n, 1)
    off_k_99 = off_k_96.broadcast_to([64, 64])
    off_k_100 = off_k_97.broadcast_to([64, 64])
    off_k_101 = off_k_99 + off_k_100
    off_v_103 = off_k_98 * stride_vbs
    off_v_104 = cur_kv_head * stride_vh
    off_v_106 = off_v_103 + off_v_104
    off_v_107 = off_v_106.broadcast_to([64, 64])
    off_v_108 = off_v_107 + off_q_35
    k_ptrs_109 = K + off_k_101
    v_ptrs_110 = V + off_v_108
    block_mask = block_start_loc < q_47
    block_mask_111 = gl.cast(block_mask, gl.int32)
    v0 = start_m + 1
    v1 = block_mask_111 * v0
    v2 = v1 * 64
    k = gl.expand_dims(dim_mask_45, 1)
    k_113 = k.broadcast_to([64, 64])
    qk_115 = off_q_22.broadcast_to([64, 64])
    alibi_116 = gl.expand_dims(alibi_start_q_61, 1)
    alibi_117 = alibi_116.broadcast_to([64, 64])
    alibi_120 = alibi_116 < cur_batch_seq_len_12
    alibi_121 = alibi_120.broadcast_to([64, 64])
    twill_n = (v2 - 0 + 64 - 1) // 64
    k_149_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_182_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    m_i_new_l1 = m_i_new_p1
    l_i_new_170 = l_i_new_199_p1
    acc_185 = acc_211_p1
    alibi_start_k_165 = cur_batch_ctx_len
    acc_185_p1 = acc_185
    alibi_start_k_165_p1 = alibi_start_k_165
    l_i_new_170_p1 = l_i_new_170
    m_i_new_l1_p1 = m_i_new_l1
    for twill_b in range(0, twill_n):
        k_137 = (0 + (twill_b - 0) * 64)  # elementwise0_k: stage 0, partition 0 (group 0)
        k_139 = k_137 + off_q_33  # elementwise0_k: stage 0, partition 0 (group 0)
        k_141 = k_139 < q_47  # elementwise0_k: stage 0, partition 0 (group 0)
        k_142 = k_141.broadcast_to([64, 64])  # elementwise0_k: stage 0, partition 0 (group 0)
        k_143 = k_113 & k_142  # elementwise0_k: stage 0, partition 0 (group 0)
        v = (0 + (twill_b - 0) * 64)  # elementwise6_v: stage 0, partition 0 (group 0)
        v_174 = v + off_k_98  # elementwise6_v: stage 0, partition 0 (group 0)
        v_175 = v_174 < q_47  # elementwise6_v: stage 0, partition 0 (group 0)
        v_176 = v_175.broadcast_to([64, 64])  # elementwise6_v: stage 0, partition 0 (group 0)
        v_177 = q_50 & v_176  # elementwise6_v: stage 0, partition 0 (group 0)
        alibi_155 = alibi_start_k_165_p1  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_156 = off_q_32 + alibi_155  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_157 = alibi_156.broadcast_to([64, 64])  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_158 = alibi_157 - alibi_117  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_159 = alibi_158.to(gl.float32)  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_start_k_165 = alibi_start_k_165_p1 + 64  # convert0_alibi: stage 0, partition 0 (group 0)
        alibi_160 = alibi_159 * alibi_slope_58  # elementwise2_alibi: stage 0, partition 0 (group 0)
        k_144 = cur_batch_in_all_start_index_13 + (0 + (twill_b - 0) * 64)  # load0_k: stage 0, partition 0 (group 0)
        k_145 = k_144 * stride_kbs  # load0_k: stage 0, partition 0 (group 0)
        k_146 = k_145  # load0_k: stage 0, partition 0 (group 0)
        k_147 = k_ptrs_109 + k_146  # load0_k: stage 0, partition 0 (group 0)
        k_148 = gl.load(k_147, mask=k_143, other=0.0)  # load0_k: stage 0, partition 0 (group 0)
        k_149 = k_149_st.index((twill_b - 0) % 2)  # load0_k: stage 0, partition 0 (group 0)
        k_149.store(k_148)  # load0_k: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_k: stage 0, partition 0 (group 0)
        tok_qk_150 = warpgroup_mma(q_57, k_149, gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        k_138 = (0 + (twill_b - 0) * 64)  # elementwise1_qk: stage 0, partition 0 (group 0)
        k_140 = k_138 + off_q_32  # elementwise1_qk: stage 0, partition 0 (group 0)
        acc_185_p1, qk_150 = warpgroup_mma_wait(0, deps=(acc_185_p1, tok_qk_150,))
        qk_151 = qk_150 * sm_scale  # elementwise1_qk: stage 0, partition 0 (group 0)
        qk_152 = k_140.broadcast_to([64, 64])  # elementwise1_qk: stage 0, partition 0 (group 0)
        qk_153 = qk_115 >= qk_152  # elementwise1_qk: stage 0, partition 0 (group 0)
        qk_154 = gl.where(qk_153, qk_151, float("-inf"))  # elementwise1_qk: stage 0, partition 0 (group 0)
        alibi_161 = alibi_160 <= 0.0  # elementwise1_qk: stage 0, partition 0 (group 0)
        alibi_162 = alibi_161 & alibi_121  # elementwise1_qk: stage 0, partition 0 (group 0)
        alibi_163 = gl.where(alibi_162, alibi_160, float("-inf"))  # elementwise1_qk: stage 0, partition 0 (group 0)
        qk_164 = qk_154 + alibi_163  # elementwise1_qk: stage 0, partition 0 (group 0)
        m_ij_l1 = gl.max(qk_164, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
        m_i_new_l1 = gl.maximum(m_i_new_l1_p1, m_ij_l1)  # elementwise3_m_i_new: stage 0, partition 0 (group 0)
        p_l1 = gl.expand_dims(m_i_new_l1, 1)  # sfu0_p: stage 0, partition 0 (group 0)
        p_166 = p_l1.broadcast_to([64, 64])  # sfu0_p: stage 0, partition 0 (group 0)
        p_167 = qk_164 - p_166  # sfu0_p: stage 0, partition 0 (group 0)
        p_168 = gl.exp(p_167)  # sfu0_p: stage 0, partition 0 (group 0)
        l_ij_l1 = gl.sum(p_168, axis=1)  # reduce1_l_ij: stage 0, partition 0 (group 0)
        p_183 = p_168.to(gl.float16)  # convert1_p: stage 0, partition 0 (group 0)
        p_184 = gl.convert_layout(p_183, L7)  # convert1_p: stage 0, partition 0 (group 0)
        alpha_l1 = m_i_new_l1_p1 - m_i_new_l1  # sfu1_alpha: stage 0, partition 0 (group 0)
        alpha_169 = gl.exp(alpha_l1)  # sfu1_alpha: stage 0, partition 0 (group 0)
        l_i_new_l1 = alpha_169 * l_i_new_170_p1  # elementwise4_l_i_new: stage 0, partition 0 (group 0)
        l_i_new_170 = l_i_new_l1 + l_ij_l1  # elementwise4_l_i_new: stage 0, partition 0 (group 0)
        acc_171 = gl.expand_dims(alpha_169, 1)  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_172 = acc_171.broadcast_to([64, 64])  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_173 = acc_185_p1 * acc_172  # elementwise5_acc: stage 0, partition 0 (group 0)
        v_178 = k_144 * stride_vbs  # load1_v: stage 0, partition 0 (group 0)
        v_179 = v_178  # load1_v: stage 0, partition 0 (group 0)
        v_180 = v_ptrs_110 + v_179  # load1_v: stage 0, partition 0 (group 0)
        v_181 = gl.load(v_180, mask=v_177, other=0.0)  # load1_v: stage 0, partition 0 (group 0)
        v_182 = v_182_st.index((twill_b - 0) % 2)  # load1_v: stage 0, partition 0 (group 0)
        v_182.store(v_181)  # load1_v: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_v: stage 0, partition 0 (group 0)
        tok_acc_185 = warpgroup_mma(p_184, v_182, acc_173, is_async=True)  # dot1_acc: stage 0, partition 0 (group 0)
        acc_185 = warpgroup_mma_wait(1, deps=(tok_acc_185,))
        acc_185_p1 = acc_185
        alibi_start_k_165_p1 = alibi_start_k_165
        l_i_new_170_p1 = l_i_new_170
        m_i_new_l1_p1 = m_i_new_l1
    acc_185_p1 = warpgroup_mma_wait(0, deps=(acc_185_p1,))
    q_57._keep_alive()
    k_149_st._keep_alive()
    v_182_st._keep_alive()
    acc = gl.expand_dims(l_i_new_170_p1, 1)
    acc_123 = acc.broadcast_to([64, 64])
    acc_124 = acc_185_p1 / acc_123
    off_o_125 = off_q_24 * stride_obs
    off_o_126 = cur_head * stride_oh
    off_o_128 = off_o_125 + off_o_126
    off_o_129 = off_o_128.broadcast_to([64, 64])
    off_o_130 = off_o_129 + off_q_35
    out_ptrs_131 = Out + off_o_130
    v3 = acc_124.to(gl.float16)
    v4 = gl.convert_layout(v3, L8)
    gl.store(out_ptrs_131, v4, mask=q_53)

@gluon.jit
def twill_kernel(Q, K, V, K_cache, V_cache, B_Loc, sm_scale, k_scale, v_scale, B_Start_Loc, B_Seqlen, Alibi_slopes, block_size, x, Out, stride_b_loc_b, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, stride_k_cache_bs, stride_k_cache_h, stride_k_cache_d, stride_k_cache_bl, stride_v_cache_bs, stride_v_cache_h, stride_v_cache_d, num_queries_per_kv):
    consumer_0(Q, K, V, K_cache, V_cache, B_Loc, sm_scale, k_scale, v_scale, B_Start_Loc, B_Seqlen, Alibi_slopes, block_size, x, Out, stride_b_loc_b, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, stride_k_cache_bs, stride_k_cache_h, stride_k_cache_d, stride_k_cache_bl, stride_v_cache_bs, stride_v_cache_h, stride_v_cache_d, num_queries_per_kv, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'K_cache', 'V_cache', 'B_Loc', 'sm_scale', 'k_scale', 'v_scale', 'B_Start_Loc', 'B_Seqlen', 'Alibi_slopes', 'block_size', 'x', 'Out', 'stride_b_loc_b', 'stride_b_loc_s', 'stride_qbs', 'stride_qh', 'stride_qd', 'stride_kbs', 'stride_kh', 'stride_kd', 'stride_vbs', 'stride_vh', 'stride_vd', 'stride_obs', 'stride_oh', 'stride_od', 'stride_k_cache_bs', 'stride_k_cache_h', 'stride_k_cache_d', 'stride_k_cache_bl', 'stride_k_cache_x', 'stride_v_cache_bs', 'stride_v_cache_h', 'stride_v_cache_d', 'stride_v_cache_bl', 'num_queries_per_kv', 'IN_PRECISION', 'BLOCK_M', 'BLOCK_DMODEL', 'BLOCK_DMODEL_PADDED', 'BLOCK_N', 'SKIP_DECODE']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'K_cache', 'V_cache', 'B_Loc', 'sm_scale', 'k_scale', 'v_scale', 'B_Start_Loc', 'B_Seqlen', 'Alibi_slopes', 'block_size', 'x', 'Out', 'stride_b_loc_b', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_obs', 'stride_oh', 'stride_k_cache_bs', 'stride_k_cache_h', 'stride_k_cache_d', 'stride_k_cache_bl', 'stride_v_cache_bs', 'stride_v_cache_h', 'stride_v_cache_d', 'num_queries_per_kv']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'K_cache', 'V_cache', 'B_Loc', 'sm_scale', 'k_scale', 'v_scale', 'B_Start_Loc', 'B_Seqlen', 'Alibi_slopes', 'block_size', 'x', 'Out', 'stride_b_loc_b', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_obs', 'stride_oh', 'stride_k_cache_bs', 'stride_k_cache_h', 'stride_k_cache_d', 'stride_k_cache_bl', 'stride_v_cache_bs', 'stride_v_cache_h', 'stride_v_cache_d', 'num_queries_per_kv']   # the arguments a launch key reads
CONSTEXPRS = {'stride_b_loc_s': 1, 'stride_qd': 1, 'stride_kd': 1, 'stride_vd': 1, 'stride_od': 1, 'stride_k_cache_x': 1, 'stride_v_cache_bl': 1, 'IN_PRECISION': 'ieee', 'BLOCK_M': 64, 'BLOCK_DMODEL': 64, 'BLOCK_DMODEL_PADDED': 64, 'BLOCK_N': 64, 'SKIP_DECODE': False}         # the specialisation this kernel was generated for
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
