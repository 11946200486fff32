"""attn_fwd, written by twill from its joint schedule: I=284 L=338 (feasible), 7932 cycles per iteration predicted.

Decisions (each from the schedule):
- k_176 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- v_279 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_176, v_279): their addresses and masks spread over 128 threads
- partition 0 (default): consumer, warp group 0, 8 warps, 208 registers per thread (needs about 202): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring k_176: 2 buffers of [128, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring v_279: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 98384 bytes planned of 232448; maxnreg 168
- early return at amd_fa_dropout_alibi.py:84 (TTGIR line 102): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at amd_fa_dropout_alibi.py:93 (TTGIR line 121): taken in the kernel itself, before gl.warp_specialize starts the partitions (its branch's 18 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)
- written from the layouts Triton gives philox_seed, philox_offset_base, stride_qh, stride_kh, stride_vh, stride_oh, stride_az, HQ, HK 16-divisible (its pointer loads 16 bytes a thread where the launch's specialisation proves them aligned, as Triton's own kernel at such a launch; at one where they are not, Gluon's lowering loads narrower vectors: run 66, FlagGems' softmax correct at N = 33001, x0.64 -> x1.00)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]), k_width=2))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L9 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L10 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L11 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K, V, Out, Alibi_slopes, cu_seqlens_q, cu_seqlens_k, sm_scale, philox_seed, philox_offset_base, dropout_p, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_om, stride_oh, stride_az, HQ, HK, k_176_buf, v_279_buf, k_176_ready, k_176_empty, v_279_ready, v_279_empty, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_h_q = gl.program_id(1)
    off_z = gl.program_id(2)
    offs_m = start_m * 128
    offs_m_17 = gl.arange(0, 128, layout=L0)
    offs_m_18 = gl.arange(0, 128, layout=L1)
    offs_m_21 = offs_m + offs_m_17
    offs_m_22 = offs_m + offs_m_18
    offs_n = gl.arange(0, 64, layout=L2)
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_25 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_26 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_26 - cu_seqlens_q_start_25
    cu_seqlens_k_start = cu_seqlens_k + off_z
    cu_seqlens_k_start_27 = gl.load(cu_seqlens_k_start)
    cu_seqlens_k_end = cu_seqlens_k_start + 1
    cu_seqlens_k_end_28 = gl.load(cu_seqlens_k_end)
    seqlen_k = cu_seqlens_k_end_28 - cu_seqlens_k_start_27
    n_blocks = seqlen_k + 63
    n_blocks_29 = n_blocks // 64
    n_blocks_seqlen = start_m + 1
    n_blocks_seqlen_30 = n_blocks_seqlen * 128
    n_blocks_seqlen_31 = n_blocks_seqlen_30 + seqlen_k
    n_blocks_seqlen_32 = n_blocks_seqlen_31 - seqlen_q
    n_blocks_seqlen_33 = n_blocks_seqlen_32 + 63
    n_blocks_seqlen_34 = n_blocks_seqlen_33 // 64
    n_blocks_35 = gl.minimum(n_blocks_29, n_blocks_seqlen_34)
    q_offset = cu_seqlens_q_start_25 * stride_qm
    q_offset_49 = Q + q_offset
    q_offset_50 = off_h_q * stride_qh
    q_offset_51 = q_offset_49 + q_offset_50
    q_ptrs = gl.expand_dims(offs_m_21, 1)
    q_ptrs_52 = gl.expand_dims(offs_m_22, 1)
    q_ptrs_54 = q_ptrs * stride_qm
    q_ptrs_56 = q_offset_51 + q_ptrs_54
    q_ptrs_57 = gl.arange(0, 128, layout=L3)
    q_ptrs_58 = gl.expand_dims(q_ptrs_57, 0)
    q_ptrs_59 = q_ptrs_56.broadcast_to([128, 128])
    q_ptrs_60 = q_ptrs_58.broadcast_to([128, 128])
    q_ptrs_61 = q_ptrs_59 + q_ptrs_60
    k_ptrs_66 = gl.expand_dims(offs_m_18, 1)
    k_ptrs_70 = gl.expand_dims(offs_n, 0)
    alibi_slope = off_z * stride_az
    alibi_slope_86 = Alibi_slopes + alibi_slope
    alibi_slope_87 = alibi_slope_86 + off_h_q
    alibi_slope_88 = gl.load(alibi_slope_87)
    batch_philox_offset = off_z * HQ
    batch_philox_offset_89 = batch_philox_offset + off_h_q
    batch_philox_offset_90 = batch_philox_offset_89 * seqlen_q
    batch_philox_offset_91 = batch_philox_offset_90 * seqlen_k
    batch_philox_offset_92 = philox_offset_base + batch_philox_offset_91
    qk_scale = sm_scale * 1.44269502
    q_94 = q_ptrs < seqlen_q
    q_95 = q_94.broadcast_to([128, 128])
    q_96 = gl.load(q_ptrs_61, mask=q_95, other=0.0)
    q_97 = gl.allocate_shared_memory(gl.float16, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_96)
    fence_async_shared()
    v5 = n_blocks_35 * 64
    causal_boundary = seqlen_k - seqlen_q
    causal_mask = q_ptrs_52.broadcast_to([128, 64])
    relative_pos_block_100 = q_ptrs_52 + seqlen_k
    relative_pos_block_101 = relative_pos_block_100 - seqlen_q
    relative_pos_block_102 = relative_pos_block_101.broadcast_to([128, 64])
    alibi_block = alibi_slope_88 * -1.0
    philox_offset = offs_m * seqlen_k
    philox_offset_104 = batch_philox_offset_92 + philox_offset
    rng_offsets = k_ptrs_66 * seqlen_k
    rng_offsets_105 = k_ptrs_70.broadcast_to([128, 64])
    seed = gl.cast(philox_seed, gl.int64)
    seed_hi = gl.cast(gl.cast(seed, gl.uint64, bitcast=True) >> 32, gl.int64, bitcast=True)
    seed_hi_106 = seed_hi & 4294967295
    seed_hi_107 = gl.cast(seed_hi_106, gl.int32)
    seed_lo = seed & 4294967295
    seed_lo_108 = gl.cast(seed_lo, gl.int32)
    c0 = gl.cast(gl.umulhi(3449720151, 0), gl.int32, bitcast=True)
    c0_109 = c0 ^ seed_lo_108
    k0 = seed_lo_108 + -1640531527
    k1 = seed_hi_107 + -1150833019
    c2_111 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_109, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c3 = c0_109 * -766435501
    k0_115 = seed_lo_108 + 1013904242
    k1_116 = seed_hi_107 + 1993301258
    k0_119 = seed_lo_108 + -626627285
    k1_120 = seed_hi_107 + 842468239
    k0_123 = seed_lo_108 + 2027808484
    k1_124 = seed_hi_107 + -308364780
    k0_127 = seed_lo_108 + 387276957
    k1_128 = seed_hi_107 + -1459197799
    k0_131 = seed_lo_108 + -1253254570
    k1_132 = seed_hi_107 + 1684936478
    k0_135 = seed_lo_108 + 1401181199
    k1_136 = seed_hi_107 + 534103459
    k1_139 = seed_hi_107 + -616729560
    k0_141 = seed_lo_108 + -1879881855
    twill_n = (v5 - 0 + 64 - 1) // 64
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        m_ij_192 = gl.full([128], float("-inf"), gl.float32, layout=L1)
        m_ij_192_p1 = m_ij_192
        l_i_281 = gl.full([128], 1.0, gl.float32, layout=L1)
        acc_284 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
        mbarrier.wait(k_176_ready.index((0 - 0) % 2), ((0 - 0) // 2) & 1)
        fence_async_shared()
        tok_qk = warpgroup_mma(q_97, k_176_buf.index((0 - 0) % 2), gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        k_164 = (0 + (0 - 0) * 64) + offs_n  # convert0_alibi_block: stage 0, partition 0 (group 0)
        k_167 = gl.expand_dims(k_164, 0)  # convert0_alibi_block: stage 0, partition 0 (group 0)
        relative_pos_block_185 = k_167.broadcast_to([128, 64])  # convert0_alibi_block: stage 0, partition 0 (group 0)
        relative_pos_block_186 = relative_pos_block_102 - relative_pos_block_185  # convert0_alibi_block: stage 0, partition 0 (group 0)
        alibi_block_187 = gl.abs(relative_pos_block_186)  # convert0_alibi_block: stage 0, partition 0 (group 0)
        alibi_block_188 = alibi_block_187.to(gl.float32)  # convert0_alibi_block: stage 0, partition 0 (group 0)
        k_169 = k_167 < seqlen_k  # elementwise0_qk: stage 0, partition 0 (group 0)
        k_174 = k_169.broadcast_to([128, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk = warpgroup_mma_wait(0, deps=(tok_qk,))
        mbarrier.arrive(k_176_empty.index((0 - 0) % 2))
        qk_178 = gl.where(k_174, qk, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
        causal_boundary_179 = k_164 - causal_boundary  # elementwise0_qk: stage 0, partition 0 (group 0)
        causal_mask_180 = gl.expand_dims(causal_boundary_179, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
        causal_mask_181 = causal_mask_180.broadcast_to([128, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
        causal_mask_182 = causal_mask >= causal_mask_181  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk_183 = gl.where(causal_mask_182, qk_178, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk_scaled_184 = qk_183 * qk_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
        alibi_block_189 = alibi_block * alibi_block_188  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk_scaled_190 = alibi_block_189 * 1.44269502  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk_scaled_191 = qk_scaled_184 + qk_scaled_190  # elementwise0_qk: stage 0, partition 0 (group 0)
        m_ij = gl.max(qk_scaled_191, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
        m_ij_192 = gl.maximum(m_ij_192_p1, m_ij)  # elementwise1_m_ij: stage 0, partition 0 (group 0)
        alpha = m_ij_192_p1 - m_ij_192  # sfu1_alpha: stage 0, partition 0 (group 0)
        alpha_268 = gl.exp2(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
        q_shifted = gl.expand_dims(m_ij_192, 1)  # sfu0_p: stage 0, partition 0 (group 0)
        q_shifted_193 = q_shifted.broadcast_to([128, 64])  # sfu0_p: stage 0, partition 0 (group 0)
        q_shifted_194 = qk_scaled_191 - q_shifted_193  # sfu0_p: stage 0, partition 0 (group 0)
        p = gl.exp2(q_shifted_194)  # sfu0_p: stage 0, partition 0 (group 0)
        philox_offset_195 = philox_offset_104 + (0 + (0 - 0) * 64)  # convert1_x: stage 0, partition 0 (group 0)
        rng_offsets_196 = philox_offset_195  # convert1_x: stage 0, partition 0 (group 0)
        rng_offsets_197 = rng_offsets_196 + rng_offsets  # convert1_x: stage 0, partition 0 (group 0)
        rng_offsets_198 = rng_offsets_197.broadcast_to([128, 64])  # convert1_x: stage 0, partition 0 (group 0)
        rng_offsets_199 = rng_offsets_198 + rng_offsets_105  # convert1_x: stage 0, partition 0 (group 0)
        c2_200 = gl.cast(gl.umulhi(3528531795, gl.cast(rng_offsets_199, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c2_201 = c2_200 ^ seed_hi_107  # convert1_x: stage 0, partition 0 (group 0)
        c3_202 = rng_offsets_199 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
        c0_203 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_201, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c0_204 = c0_203 ^ k0  # convert1_x: stage 0, partition 0 (group 0)
        c2_205 = c2_111 ^ c3_202  # convert1_x: stage 0, partition 0 (group 0)
        c2_206 = c2_205 ^ k1  # convert1_x: stage 0, partition 0 (group 0)
        c1 = c2_201 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
        c0_207 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_206, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c0_208 = c0_207 ^ c1  # convert1_x: stage 0, partition 0 (group 0)
        c0_209 = c0_208 ^ k0_115  # convert1_x: stage 0, partition 0 (group 0)
        c2_210 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_204, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c2_211 = c2_210 ^ c3  # convert1_x: stage 0, partition 0 (group 0)
        c2_212 = c2_211 ^ k1_116  # convert1_x: stage 0, partition 0 (group 0)
        c1_213 = c2_206 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
        c3_214 = c0_204 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
        c0_215 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_212, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c0_216 = c0_215 ^ c1_213  # convert1_x: stage 0, partition 0 (group 0)
        c0_217 = c0_216 ^ k0_119  # convert1_x: stage 0, partition 0 (group 0)
        c2_218 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_209, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c2_219 = c2_218 ^ c3_214  # convert1_x: stage 0, partition 0 (group 0)
        c2_220 = c2_219 ^ k1_120  # convert1_x: stage 0, partition 0 (group 0)
        c1_221 = c2_212 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
        c3_222 = c0_209 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
        c0_223 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_220, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c0_224 = c0_223 ^ c1_221  # convert1_x: stage 0, partition 0 (group 0)
        c0_225 = c0_224 ^ k0_123  # convert1_x: stage 0, partition 0 (group 0)
        c2_226 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_217, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c2_227 = c2_226 ^ c3_222  # convert1_x: stage 0, partition 0 (group 0)
        c2_228 = c2_227 ^ k1_124  # convert1_x: stage 0, partition 0 (group 0)
        c1_229 = c2_220 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
        c3_230 = c0_217 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
        c0_231 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_228, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c0_232 = c0_231 ^ c1_229  # convert1_x: stage 0, partition 0 (group 0)
        c0_233 = c0_232 ^ k0_127  # convert1_x: stage 0, partition 0 (group 0)
        c2_234 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_225, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c2_235 = c2_234 ^ c3_230  # convert1_x: stage 0, partition 0 (group 0)
        c2_236 = c2_235 ^ k1_128  # convert1_x: stage 0, partition 0 (group 0)
        c1_237 = c2_228 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
        c3_238 = c0_225 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
        c0_239 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_236, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c0_240 = c0_239 ^ c1_237  # convert1_x: stage 0, partition 0 (group 0)
        c0_241 = c0_240 ^ k0_131  # convert1_x: stage 0, partition 0 (group 0)
        c2_242 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_233, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c2_243 = c2_242 ^ c3_238  # convert1_x: stage 0, partition 0 (group 0)
        c2_244 = c2_243 ^ k1_132  # convert1_x: stage 0, partition 0 (group 0)
        c1_245 = c2_236 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
        c3_246 = c0_233 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
        c0_247 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_244, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c0_248 = c0_247 ^ c1_245  # convert1_x: stage 0, partition 0 (group 0)
        c0_249 = c0_248 ^ k0_135  # convert1_x: stage 0, partition 0 (group 0)
        c2_250 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_241, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c2_251 = c2_250 ^ c3_246  # convert1_x: stage 0, partition 0 (group 0)
        c2_252 = c2_251 ^ k1_136  # convert1_x: stage 0, partition 0 (group 0)
        c3_253 = c0_241 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
        c2_254 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_249, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c2_255 = c2_254 ^ c3_253  # convert1_x: stage 0, partition 0 (group 0)
        c2_256 = c2_255 ^ k1_139  # convert1_x: stage 0, partition 0 (group 0)
        c1_257 = c2_252 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
        c0_258 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_256, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        c0_259 = c0_258 ^ c1_257  # convert1_x: stage 0, partition 0 (group 0)
        c0_260 = c0_259 ^ k0_141  # convert1_x: stage 0, partition 0 (group 0)
        x = c0_260.to(gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        acc_269 = gl.expand_dims(alpha_268, 1)  # convert3_acc: stage 0, partition 0 (group 0)
        acc_270 = gl.convert_layout(acc_269, L4)  # convert3_acc: stage 0, partition 0 (group 0)
        acc_271 = acc_270.broadcast_to([128, 128])  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_272 = acc_284 * acc_271  # elementwise3_acc: stage 0, partition 0 (group 0)
        l_ij = gl.sum(p, axis=1)  # reduce1_l_ij: stage 0, partition 0 (group 0)
        x_261 = x < 0  # convert2_rng_output: stage 0, partition 0 (group 0)
        x_262 = 0 - x  # convert2_rng_output: stage 0, partition 0 (group 0)
        x_263 = x_262 - 1  # convert2_rng_output: stage 0, partition 0 (group 0)
        x_264 = gl.where(x_261, x_263, x)  # convert2_rng_output: stage 0, partition 0 (group 0)
        rng_output = x_264.to(gl.float32)  # convert2_rng_output: stage 0, partition 0 (group 0)
        acc_272_p1 = acc_272
        alpha_268_p1 = alpha_268
        l_i_281_p1 = l_i_281
        l_ij_p1 = l_ij
        m_ij_192_p1 = m_ij_192
        p_p1 = p
        rng_output_p1 = rng_output
        for twill_b in range(1, twill_n):
            mbarrier.wait(k_176_ready.index((twill_b - 0) % 2), ((twill_b - 0) // 2) & 1)
            fence_async_shared()
            tok_qk = warpgroup_mma(q_97, k_176_buf.index((twill_b - 0) % 2), gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            rng_output_265 = rng_output_p1 * 4.6566126e-10  # elementwise2_rng_output: stage 1, partition 0 (group 0)
            rng_keep_266 = rng_output_265 > dropout_p  # elementwise2_rng_output: stage 1, partition 0 (group 0)
            p_267 = gl.where(rng_keep_266, p_p1, 0.0)  # elementwise2_rng_output: stage 1, partition 0 (group 0)
            acc_282 = p_267.to(gl.float16)  # convert4_acc: stage 1, partition 0 (group 0)
            acc_283 = gl.convert_layout(acc_282, L6)  # convert4_acc: stage 1, partition 0 (group 0)
            k_161 = (0 + (twill_b - 0) * 64)  # convert0_alibi_block: stage 0, partition 0 (group 0)
            k_164 = k_161 + offs_n  # convert0_alibi_block: stage 0, partition 0 (group 0)
            k_167 = gl.expand_dims(k_164, 0)  # convert0_alibi_block: stage 0, partition 0 (group 0)
            relative_pos_block_185 = k_167.broadcast_to([128, 64])  # convert0_alibi_block: stage 0, partition 0 (group 0)
            relative_pos_block_186 = relative_pos_block_102 - relative_pos_block_185  # convert0_alibi_block: stage 0, partition 0 (group 0)
            alibi_block_187 = gl.abs(relative_pos_block_186)  # convert0_alibi_block: stage 0, partition 0 (group 0)
            alibi_block_188 = alibi_block_187.to(gl.float32)  # convert0_alibi_block: stage 0, partition 0 (group 0)
            k_169 = k_167 < seqlen_k  # elementwise0_qk: stage 0, partition 0 (group 0)
            k_174 = k_169.broadcast_to([128, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk = warpgroup_mma_wait(0, deps=(tok_qk,))
            mbarrier.arrive(k_176_empty.index((twill_b - 0) % 2))
            qk_178 = gl.where(k_174, qk, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
            causal_boundary_179 = k_164 - causal_boundary  # elementwise0_qk: stage 0, partition 0 (group 0)
            causal_mask_180 = gl.expand_dims(causal_boundary_179, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
            causal_mask_181 = causal_mask_180.broadcast_to([128, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
            causal_mask_182 = causal_mask >= causal_mask_181  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_183 = gl.where(causal_mask_182, qk_178, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_scaled_184 = qk_183 * qk_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
            alibi_block_189 = alibi_block * alibi_block_188  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_scaled_190 = alibi_block_189 * 1.44269502  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_scaled_191 = qk_scaled_184 + qk_scaled_190  # elementwise0_qk: stage 0, partition 0 (group 0)
            mbarrier.wait(v_279_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_284 = warpgroup_mma(acc_283, v_279_buf.index((twill_b - 1) % 2), acc_272_p1, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            m_ij = gl.max(qk_scaled_191, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
            l_i = l_i_281_p1 * alpha_268_p1  # elementwise4_l_i: stage 1, partition 0 (group 0)
            l_i_281 = l_i + l_ij_p1  # elementwise4_l_i: stage 1, partition 0 (group 0)
            m_ij_192 = gl.maximum(m_ij_192_p1, m_ij)  # elementwise1_m_ij: stage 0, partition 0 (group 0)
            alpha = m_ij_192_p1 - m_ij_192  # sfu1_alpha: stage 0, partition 0 (group 0)
            alpha_268 = gl.exp2(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
            q_shifted = gl.expand_dims(m_ij_192, 1)  # sfu0_p: stage 0, partition 0 (group 0)
            q_shifted_193 = q_shifted.broadcast_to([128, 64])  # sfu0_p: stage 0, partition 0 (group 0)
            q_shifted_194 = qk_scaled_191 - q_shifted_193  # sfu0_p: stage 0, partition 0 (group 0)
            p = gl.exp2(q_shifted_194)  # sfu0_p: stage 0, partition 0 (group 0)
            philox_offset_195 = philox_offset_104 + (0 + (twill_b - 0) * 64)  # convert1_x: stage 0, partition 0 (group 0)
            rng_offsets_196 = philox_offset_195  # convert1_x: stage 0, partition 0 (group 0)
            rng_offsets_197 = rng_offsets_196 + rng_offsets  # convert1_x: stage 0, partition 0 (group 0)
            rng_offsets_198 = rng_offsets_197.broadcast_to([128, 64])  # convert1_x: stage 0, partition 0 (group 0)
            rng_offsets_199 = rng_offsets_198 + rng_offsets_105  # convert1_x: stage 0, partition 0 (group 0)
            c2_200 = gl.cast(gl.umulhi(3528531795, gl.cast(rng_offsets_199, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c2_201 = c2_200 ^ seed_hi_107  # convert1_x: stage 0, partition 0 (group 0)
            c3_202 = rng_offsets_199 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
            c0_203 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_201, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c0_204 = c0_203 ^ k0  # convert1_x: stage 0, partition 0 (group 0)
            c2_205 = c2_111 ^ c3_202  # convert1_x: stage 0, partition 0 (group 0)
            c2_206 = c2_205 ^ k1  # convert1_x: stage 0, partition 0 (group 0)
            c1 = c2_201 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
            c0_207 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_206, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c0_208 = c0_207 ^ c1  # convert1_x: stage 0, partition 0 (group 0)
            c0_209 = c0_208 ^ k0_115  # convert1_x: stage 0, partition 0 (group 0)
            c2_210 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_204, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c2_211 = c2_210 ^ c3  # convert1_x: stage 0, partition 0 (group 0)
            c2_212 = c2_211 ^ k1_116  # convert1_x: stage 0, partition 0 (group 0)
            c1_213 = c2_206 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
            c3_214 = c0_204 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
            c0_215 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_212, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c0_216 = c0_215 ^ c1_213  # convert1_x: stage 0, partition 0 (group 0)
            c0_217 = c0_216 ^ k0_119  # convert1_x: stage 0, partition 0 (group 0)
            c2_218 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_209, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c2_219 = c2_218 ^ c3_214  # convert1_x: stage 0, partition 0 (group 0)
            c2_220 = c2_219 ^ k1_120  # convert1_x: stage 0, partition 0 (group 0)
            c1_221 = c2_212 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
            c3_222 = c0_209 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
            c0_223 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_220, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c0_224 = c0_223 ^ c1_221  # convert1_x: stage 0, partition 0 (group 0)
            c0_225 = c0_224 ^ k0_123  # convert1_x: stage 0, partition 0 (group 0)
            c2_226 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_217, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c2_227 = c2_226 ^ c3_222  # convert1_x: stage 0, partition 0 (group 0)
            c2_228 = c2_227 ^ k1_124  # convert1_x: stage 0, partition 0 (group 0)
            c1_229 = c2_220 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
            c3_230 = c0_217 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
            c0_231 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_228, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c0_232 = c0_231 ^ c1_229  # convert1_x: stage 0, partition 0 (group 0)
            c0_233 = c0_232 ^ k0_127  # convert1_x: stage 0, partition 0 (group 0)
            c2_234 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_225, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c2_235 = c2_234 ^ c3_230  # convert1_x: stage 0, partition 0 (group 0)
            c2_236 = c2_235 ^ k1_128  # convert1_x: stage 0, partition 0 (group 0)
            c1_237 = c2_228 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
            c3_238 = c0_225 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
            c0_239 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_236, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c0_240 = c0_239 ^ c1_237  # convert1_x: stage 0, partition 0 (group 0)
            c0_241 = c0_240 ^ k0_131  # convert1_x: stage 0, partition 0 (group 0)
            c2_242 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_233, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c2_243 = c2_242 ^ c3_238  # convert1_x: stage 0, partition 0 (group 0)
            c2_244 = c2_243 ^ k1_132  # convert1_x: stage 0, partition 0 (group 0)
            c1_245 = c2_236 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
            c3_246 = c0_233 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
            c0_247 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_244, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c0_248 = c0_247 ^ c1_245  # convert1_x: stage 0, partition 0 (group 0)
            c0_249 = c0_248 ^ k0_135  # convert1_x: stage 0, partition 0 (group 0)
            c2_250 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_241, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c2_251 = c2_250 ^ c3_246  # convert1_x: stage 0, partition 0 (group 0)
            c2_252 = c2_251 ^ k1_136  # convert1_x: stage 0, partition 0 (group 0)
            c3_253 = c0_241 * -766435501  # convert1_x: stage 0, partition 0 (group 0)
            c2_254 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_249, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c2_255 = c2_254 ^ c3_253  # convert1_x: stage 0, partition 0 (group 0)
            c2_256 = c2_255 ^ k1_139  # convert1_x: stage 0, partition 0 (group 0)
            c1_257 = c2_252 * -845247145  # convert1_x: stage 0, partition 0 (group 0)
            c0_258 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_256, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            c0_259 = c0_258 ^ c1_257  # convert1_x: stage 0, partition 0 (group 0)
            c0_260 = c0_259 ^ k0_141  # convert1_x: stage 0, partition 0 (group 0)
            x = c0_260.to(gl.int32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
            acc_269 = gl.expand_dims(alpha_268, 1)  # convert3_acc: stage 0, partition 0 (group 0)
            acc_270 = gl.convert_layout(acc_269, L4)  # convert3_acc: stage 0, partition 0 (group 0)
            acc_271 = acc_270.broadcast_to([128, 128])  # elementwise3_acc: stage 0, partition 0 (group 0)
            acc_284 = warpgroup_mma_wait(0, deps=(tok_acc_284,))
            mbarrier.arrive(v_279_empty.index((twill_b - 1) % 2))
            acc_272 = acc_284 * acc_271  # elementwise3_acc: stage 0, partition 0 (group 0)
            l_ij = gl.sum(p, axis=1)  # reduce1_l_ij: stage 0, partition 0 (group 0)
            x_261 = x < 0  # convert2_rng_output: stage 0, partition 0 (group 0)
            x_262 = 0 - x  # convert2_rng_output: stage 0, partition 0 (group 0)
            x_263 = x_262 - 1  # convert2_rng_output: stage 0, partition 0 (group 0)
            x_264 = gl.where(x_261, x_263, x)  # convert2_rng_output: stage 0, partition 0 (group 0)
            rng_output = x_264.to(gl.float32)  # convert2_rng_output: stage 0, partition 0 (group 0)
            acc_272_p1 = acc_272
            alpha_268_p1 = alpha_268
            l_i_281_p1 = l_i_281
            l_ij_p1 = l_ij
            m_ij_192_p1 = m_ij_192
            p_p1 = p
            rng_output_p1 = rng_output
        rng_output_265 = rng_output_p1 * 4.6566126e-10  # elementwise2_rng_output: stage 1, partition 0 (group 0)
        rng_keep_266 = rng_output_265 > dropout_p  # elementwise2_rng_output: stage 1, partition 0 (group 0)
        p_267 = gl.where(rng_keep_266, p_p1, 0.0)  # elementwise2_rng_output: stage 1, partition 0 (group 0)
        acc_282 = p_267.to(gl.float16)  # convert4_acc: stage 1, partition 0 (group 0)
        acc_283 = gl.convert_layout(acc_282, L6)  # convert4_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(v_279_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_acc_284 = warpgroup_mma(acc_283, v_279_buf.index(((twill_n - 1 + 1) - 1) % 2), acc_272_p1, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        l_i = l_i_281_p1 * alpha_268_p1  # elementwise4_l_i: stage 1, partition 0 (group 0)
        l_i_281 = l_i + l_ij_p1  # elementwise4_l_i: stage 1, partition 0 (group 0)
        acc_284 = warpgroup_mma_wait(0, deps=(tok_acc_284,))
        mbarrier.arrive(v_279_empty.index(((twill_n - 1 + 1) - 1) % 2))
        acc_272_p1 = acc_272
        acc_284_p1 = acc_284
        alpha_268_p1 = alpha_268
        l_i_281_p1 = l_i_281
        l_ij_p1 = l_ij
        m_ij_192_p2 = m_ij_192_p1
        m_ij_192_p1 = m_ij_192
        p_p1 = p
        rng_output_p1 = rng_output
        q_97._keep_alive()
        k_176_buf._keep_alive()
        v_279_buf._keep_alive()
    else:
        m_ij_192_p2 = gl.full([128], float("-inf"), gl.float32, layout=L1)
        l_i_281_p1 = gl.full([128], 1.0, gl.float32, layout=L1)
        acc_284_p1 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
    l_recip = gl.expand_dims(l_i_281_p1, 1)
    l_recip_143 = 1.0 / l_recip
    acc_144 = gl.convert_layout(l_recip_143, L4)
    acc_145 = acc_144.broadcast_to([128, 128])
    acc_146 = acc_284_p1 * acc_145
    acc_147 = 1.0 - dropout_p
    acc_149 = acc_146 / acc_147
    o_offset_150 = cu_seqlens_q_start_25 * stride_om
    o_offset_151 = Out + o_offset_150
    o_offset_152 = off_h_q * stride_oh
    o_offset_153 = o_offset_151 + o_offset_152
    o_ptrs_155 = q_ptrs * stride_om
    o_ptrs_157 = o_offset_153 + o_ptrs_155
    o_ptrs_158 = o_ptrs_157.broadcast_to([128, 128])
    o_ptrs_159 = o_ptrs_158 + q_ptrs_60
    v6 = acc_149.to(gl.float16)
    v7 = gl.convert_layout(v6, L7)
    gl.store(o_ptrs_159, v7, mask=q_95)

@gluon.jit
def producer_1(Q, K, V, Out, Alibi_slopes, cu_seqlens_q, cu_seqlens_k, sm_scale, philox_seed, philox_offset_base, dropout_p, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_om, stride_oh, stride_az, HQ, HK, k_176_buf, v_279_buf, k_176_ready, k_176_empty, v_279_ready, v_279_empty, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_h_q = gl.program_id(1)
    off_z = gl.program_id(2)
    offs_n_23 = gl.arange(0, 64, layout=L8)
    offs_n_24 = gl.arange(0, 64, layout=L9)
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_25 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_26 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_26 - cu_seqlens_q_start_25
    cu_seqlens_k_start = cu_seqlens_k + off_z
    cu_seqlens_k_start_27 = gl.load(cu_seqlens_k_start)
    cu_seqlens_k_end = cu_seqlens_k_start + 1
    cu_seqlens_k_end_28 = gl.load(cu_seqlens_k_end)
    seqlen_k = cu_seqlens_k_end_28 - cu_seqlens_k_start_27
    n_blocks = seqlen_k + 63
    n_blocks_29 = n_blocks // 64
    n_blocks_seqlen = start_m + 1
    n_blocks_seqlen_30 = n_blocks_seqlen * 128
    n_blocks_seqlen_31 = n_blocks_seqlen_30 + seqlen_k
    n_blocks_seqlen_32 = n_blocks_seqlen_31 - seqlen_q
    n_blocks_seqlen_33 = n_blocks_seqlen_32 + 63
    n_blocks_seqlen_34 = n_blocks_seqlen_33 // 64
    n_blocks_35 = gl.minimum(n_blocks_29, n_blocks_seqlen_34)
    off_h_k = HQ // HK
    off_h_k_48 = off_h_q // off_h_k
    q_ptrs_57 = gl.arange(0, 128, layout=L10)
    q_ptrs_58 = gl.expand_dims(q_ptrs_57, 0)
    k_offset = cu_seqlens_k_start_27 * stride_kn
    k_offset_62 = K + k_offset
    k_offset_63 = off_h_k_48 * stride_kh
    k_offset_64 = k_offset_62 + k_offset_63
    k_ptrs = gl.arange(0, 128, layout=L11)
    k_ptrs_65 = gl.expand_dims(k_ptrs, 1)
    k_ptrs_68 = k_offset_64 + k_ptrs_65
    k_ptrs_69 = gl.expand_dims(offs_n_23, 0)
    k_ptrs_72 = k_ptrs_69 * stride_kn
    k_ptrs_73 = k_ptrs_68.broadcast_to([128, 64])
    k_ptrs_74 = k_ptrs_72.broadcast_to([128, 64])
    k_ptrs_75 = k_ptrs_73 + k_ptrs_74
    v_offset = cu_seqlens_k_start_27 * stride_vn
    v_offset_76 = V + v_offset
    v_offset_77 = off_h_k_48 * stride_vh
    v_offset_78 = v_offset_76 + v_offset_77
    v_ptrs = gl.expand_dims(offs_n_24, 1)
    v_ptrs_80 = v_ptrs * stride_vn
    v_ptrs_82 = v_offset_78 + v_ptrs_80
    v_ptrs_83 = v_ptrs_82.broadcast_to([64, 128])
    v_ptrs_84 = q_ptrs_58.broadcast_to([64, 128])
    v_ptrs_85 = v_ptrs_83 + v_ptrs_84
    v5 = n_blocks_35 * 64
    for acc_160 in range(0, v5, 64):
        twill_k = (acc_160 - 0) // 64
        k_165 = acc_160 + offs_n_23
        k_166 = acc_160 + offs_n_24
        k_168 = gl.expand_dims(k_165, 0)
        k_170 = k_168 < seqlen_k
        k_171 = acc_160 * stride_kn
        k_173 = k_ptrs_75 + k_171
        k_175 = k_170.broadcast_to([128, 64])
        v_273 = gl.expand_dims(k_166, 1)
        v_274 = v_273 < seqlen_k
        v_275 = acc_160 * stride_vn
        v_277 = v_ptrs_85 + v_275
        v_278 = v_274.broadcast_to([64, 128])
        mbarrier.wait(k_176_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(k_176_buf.index(twill_k % 2), k_173, mask=k_175)  # load0_k: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(k_176_ready.index(twill_k % 2), increment_count=False)
        else:
            k_176_buf.index(twill_k % 2).store(gl.load(k_173, mask=k_175, other=0.0))  # load0_k: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(k_176_ready.index(twill_k % 2), count=128)
        mbarrier.wait(v_279_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(v_279_buf.index(twill_k % 2), v_277, mask=v_278)  # load1_v: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(v_279_ready.index(twill_k % 2), increment_count=False)
        else:
            v_279_buf.index(twill_k % 2).store(gl.load(v_277, mask=v_278, other=0.0))  # load1_v: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(v_279_ready.index(twill_k % 2), count=128)

@gluon.jit
def twill_kernel(Q, K, V, Out, Alibi_slopes, cu_seqlens_q, cu_seqlens_k, sm_scale, philox_seed, philox_offset_base, dropout_p, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_om, stride_oh, stride_az, HQ, HK, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_z = gl.program_id(2)
    offs_m = start_m * 128
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_25 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_26 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_26 - cu_seqlens_q_start_25
    v0 = offs_m > seqlen_q
    if v0:
        return
    start_m = gl.program_id(0)
    off_h_q = gl.program_id(1)
    off_z = gl.program_id(2)
    offs_m = start_m * 128
    offs_m_17 = gl.arange(0, 128, layout=L0)
    offs_m_21 = offs_m + offs_m_17
    cu_seqlens_q_start = cu_seqlens_q + off_z
    cu_seqlens_q_start_25 = gl.load(cu_seqlens_q_start)
    cu_seqlens_q_end = cu_seqlens_q_start + 1
    cu_seqlens_q_end_26 = gl.load(cu_seqlens_q_end)
    seqlen_q = cu_seqlens_q_end_26 - cu_seqlens_q_start_25
    cu_seqlens_k_start = cu_seqlens_k + off_z
    cu_seqlens_k_start_27 = gl.load(cu_seqlens_k_start)
    cu_seqlens_k_end = cu_seqlens_k_start + 1
    cu_seqlens_k_end_28 = gl.load(cu_seqlens_k_end)
    seqlen_k = cu_seqlens_k_end_28 - cu_seqlens_k_start_27
    n_blocks = seqlen_k + 63
    n_blocks_29 = n_blocks // 64
    n_blocks_seqlen = start_m + 1
    n_blocks_seqlen_30 = n_blocks_seqlen * 128
    n_blocks_seqlen_31 = n_blocks_seqlen_30 + seqlen_k
    n_blocks_seqlen_32 = n_blocks_seqlen_31 - seqlen_q
    n_blocks_seqlen_33 = n_blocks_seqlen_32 + 63
    n_blocks_seqlen_34 = n_blocks_seqlen_33 // 64
    n_blocks_35 = gl.minimum(n_blocks_29, n_blocks_seqlen_34)
    v1 = n_blocks_35 <= 0
    if v1:
        o_offset = cu_seqlens_q_start_25 * stride_om
        o_offset_36 = Out + o_offset
        o_offset_37 = off_h_q * stride_oh
        o_offset_38 = o_offset_36 + o_offset_37
        o_ptrs = gl.expand_dims(offs_m_21, 1)
        o_ptrs_40 = o_ptrs * stride_om
        o_ptrs_42 = o_offset_38 + o_ptrs_40
        o_ptrs_43 = gl.arange(0, 128, layout=L3)
        o_ptrs_44 = gl.expand_dims(o_ptrs_43, 0)
        o_ptrs_45 = o_ptrs_42.broadcast_to([128, 128])
        o_ptrs_46 = o_ptrs_44.broadcast_to([128, 128])
        o_ptrs_47 = o_ptrs_45 + o_ptrs_46
        v3 = o_ptrs < seqlen_q
        v4 = v3.broadcast_to([128, 128])
        gl.store(o_ptrs_47, gl.full([128, 128], 0.0, gl.float16, layout=L7), mask=v4)
        return
    k_176_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_279_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_176_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_176_ready.index(i), count=128)
    k_176_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_176_empty.index(i), count=1)
    v_279_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_279_ready.index(i), count=128)
    v_279_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_279_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, Out, Alibi_slopes, cu_seqlens_q, cu_seqlens_k, sm_scale, philox_seed, philox_offset_base, dropout_p, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_om, stride_oh, stride_az, HQ, HK, k_176_buf, v_279_buf, k_176_ready, k_176_empty, v_279_ready, v_279_empty, TWILL_COPY)),
        (producer_1, (Q, K, V, Out, Alibi_slopes, cu_seqlens_q, cu_seqlens_k, sm_scale, philox_seed, philox_offset_base, dropout_p, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_om, stride_oh, stride_az, HQ, HK, k_176_buf, v_279_buf, k_176_ready, k_176_empty, v_279_ready, v_279_empty, TWILL_COPY)),
    ], [4], [88])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Out', 'Alibi_slopes', 'cu_seqlens_q', 'cu_seqlens_k', 'sm_scale', 'philox_seed', 'philox_offset_base', 'dropout_p', 'stride_qm', 'stride_qh', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh', 'stride_om', 'stride_oh', 'stride_az', 'HQ', 'HK', 'IS_CAUSAL', 'BLOCK_M', 'BLOCK_N', 'BLOCK_DMODEL', 'ENABLE_DROPOUT', 'USE_ALIBI']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Out', 'Alibi_slopes', 'cu_seqlens_q', 'cu_seqlens_k', 'sm_scale', 'philox_seed', 'philox_offset_base', 'dropout_p', 'stride_qm', 'stride_qh', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh', 'stride_om', 'stride_oh', 'stride_az', 'HQ', 'HK']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Out', 'Alibi_slopes', 'cu_seqlens_q', 'cu_seqlens_k', 'sm_scale', 'philox_seed', 'philox_offset_base', 'dropout_p', 'stride_qm', 'stride_qh', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh', 'stride_om', 'stride_oh', 'stride_az', 'HQ', 'HK']   # the arguments a launch key reads
CONSTEXPRS = {'IS_CAUSAL': True, 'BLOCK_M': 128, 'BLOCK_N': 64, 'BLOCK_DMODEL': 128, 'ENABLE_DROPOUT': True, 'USE_ALIBI': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = 168
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
