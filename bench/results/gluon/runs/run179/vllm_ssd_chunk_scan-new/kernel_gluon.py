"""_chunk_scan_fwd_kernel, written by twill from its joint schedule: I=173 L=226 (optimal), 920 cycles per iteration predicted.

Decisions (each from the schedule):
- x_230 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (x_230): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (108, 48 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- the consumers' pointer loads in their readers' stage, not a stage ahead: the loop's trip count varies between programs, and a third stage would need two iterations of every program (run 101)
- partition 0 (default): consumer, warp group 0, 4 warps, 200 registers per thread (needs about 108): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 48 registers per thread (needs about 48): cp.async copies into the rings
- ring x_230: 2 buffers of [32, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 8240 bytes planned of 232448; maxnreg 128
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 2 each of the producer's ((chunk_size + 32 - 1) // 32 at most: a bound of the loop takes a min with a value only the CTA knows, from the launch's arguments), the launch runs the faster, timed on each launch key's first launch (run 156: one partition in 3 CTAs an SM against the producer's 2 ran x0.64-0.95 on three fp16 GEMMs and x1.09-1.18 on a tf32 one at 8-32 iterations; nothing in the schedule tells them apart), of this kernel and the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 165 registers, clean, 3 CTA(s) an SM against the producer's 2; simulated for 0, 1, 2, 3, 4, 9 iterations: no deadlock, every phase complete)

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
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L9 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L10 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L11 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L12 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L13 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(cb_ptr, x_ptr, out_ptr, dt_ptr, dA_cumsum_ptr, C_ptr, prev_states_ptr, D_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_x_batch, stride_x_seqlen, stride_x_head, stride_out_batch, stride_out_seqlen, stride_out_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_C_batch, stride_C_seqlen, stride_C_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, x_230_buf, x_230_ready, x_230_empty, TWILL_COPY: gl.constexpr):
    pid_bc = gl.program_id(1)
    pid_c = pid_bc // batch
    pid_b = pid_c * batch
    pid_b_7 = pid_bc - pid_b
    pid_h = gl.program_id(2)
    num_pid_n_8 = hdim + 63
    num_pid_n_9 = num_pid_n_8 // 64
    pid_m = gl.program_id(0)
    pid_m_10 = pid_m // num_pid_n_9
    pid_n = pid_m % num_pid_n_9
    cb_ptr_11 = pid_b_7 * stride_cb_batch
    cb_ptr_12 = pid_c * stride_cb_chunk
    cb_ptr_13 = cb_ptr_11 + cb_ptr_12
    cb_ptr_14 = pid_h // nheads_ngroups_ratio
    cb_ptr_15 = cb_ptr_14 * stride_cb_head
    cb_ptr_16 = cb_ptr_13 + cb_ptr_15
    cb_ptr_17 = cb_ptr + cb_ptr_16
    x_ptr_18 = pid_b_7 * stride_x_batch
    x_ptr_19 = pid_c * chunk_size
    x_ptr_20 = x_ptr_19 * stride_x_seqlen
    x_ptr_21 = x_ptr_18 + x_ptr_20
    x_ptr_22 = pid_h * stride_x_head
    x_ptr_23 = x_ptr_21 + x_ptr_22
    x_ptr_24 = x_ptr + x_ptr_23
    dt_ptr_25 = pid_b_7 * stride_dt_batch
    dt_ptr_26 = pid_c * stride_dt_chunk
    dt_ptr_27 = dt_ptr_25 + dt_ptr_26
    dt_ptr_28 = pid_h * stride_dt_head
    dt_ptr_29 = dt_ptr_27 + dt_ptr_28
    dt_ptr_30 = dt_ptr + dt_ptr_29
    dA_cumsum_ptr_31 = pid_b_7 * stride_dA_cs_batch
    dA_cumsum_ptr_32 = pid_c * stride_dA_cs_chunk
    dA_cumsum_ptr_33 = dA_cumsum_ptr_31 + dA_cumsum_ptr_32
    dA_cumsum_ptr_34 = pid_h * stride_dA_cs_head
    dA_cumsum_ptr_35 = dA_cumsum_ptr_33 + dA_cumsum_ptr_34
    dA_cumsum_ptr_36 = dA_cumsum_ptr + dA_cumsum_ptr_35
    C_ptr_37 = pid_b_7 * stride_C_batch
    C_ptr_38 = x_ptr_19 * stride_C_seqlen
    C_ptr_39 = C_ptr_37 + C_ptr_38
    C_ptr_40 = cb_ptr_14 * stride_C_head
    C_ptr_41 = C_ptr_39 + C_ptr_40
    C_ptr_42 = C_ptr + C_ptr_41
    prev_states_ptr_43 = pid_b_7 * stride_states_batch
    prev_states_ptr_44 = prev_states_ptr + prev_states_ptr_43
    prev_states_ptr_45 = pid_c * stride_states_chunk
    prev_states_ptr_46 = prev_states_ptr_44 + prev_states_ptr_45
    prev_states_ptr_47 = pid_h * stride_states_head
    prev_states_ptr_48 = prev_states_ptr_46 + prev_states_ptr_47
    offs_m = pid_m_10 * 64
    offs_m_49 = gl.arange(0, 64, layout=L0)
    offs_m_50 = gl.arange(0, 64, layout=L1)
    offs_m_51 = gl.arange(0, 64, layout=L2)
    offs_m_52 = gl.arange(0, 64, layout=L3)
    offs_m_53 = gl.arange(0, 64, layout=L4)
    offs_m_54 = gl.arange(0, 64, layout=L5)
    offs_m_55 = gl.arange(0, 64, layout=L6)
    offs_m_56 = gl.arange(0, 64, layout=L7)
    offs_m_62 = offs_m + offs_m_49
    offs_m_63 = offs_m + offs_m_50
    offs_m_64 = offs_m + offs_m_51
    offs_m_65 = offs_m + offs_m_52
    offs_m_66 = offs_m + offs_m_53
    offs_n = pid_n * 64
    offs_n_70 = offs_n + offs_m_54
    offs_n_71 = offs_n + offs_m_55
    offs_n_72 = offs_n + offs_m_56
    dA_cs_m_75 = offs_m_63 < chunk_size
    dA_cs_m_76 = offs_m_64 < chunk_size
    dA_cs_m_79 = dA_cumsum_ptr_36 + offs_m_63
    dA_cs_m_80 = dA_cumsum_ptr_36 + offs_m_64
    dA_cs_m_81 = gl.load(dA_cs_m_79, mask=dA_cs_m_75, other=0.0)
    dA_cs_m_82 = gl.load(dA_cs_m_80, mask=dA_cs_m_76, other=0.0)
    chunk_size_limit = seqlen - x_ptr_19
    chunk_size_limit_83 = gl.minimum(chunk_size, chunk_size_limit)
    C_ptrs = gl.expand_dims(offs_m_62, 1)
    C_ptrs_84 = gl.expand_dims(offs_m_64, 1)
    C_ptrs_85 = gl.expand_dims(offs_m_65, 1)
    C_ptrs_86 = gl.expand_dims(offs_m_66, 1)
    C_ptrs_88 = C_ptrs * stride_C_seqlen
    C_ptrs_89 = gl.arange(0, 128, layout=L8)
    C_ptrs_90 = gl.expand_dims(C_ptrs_89, 0)
    C_ptrs_91 = C_ptrs_88.broadcast_to([64, 128])
    C_ptrs_92 = C_ptrs_90.broadcast_to([64, 128])
    C_ptrs_93 = C_ptrs_91 + C_ptrs_92
    C_ptrs_95 = C_ptr_42 + C_ptrs_93
    prev_states_ptrs = gl.expand_dims(offs_n_70, 0)
    prev_states_ptrs_96 = gl.expand_dims(offs_n_71, 0)
    prev_states_ptrs_97 = gl.expand_dims(offs_n_72, 0)
    prev_states_ptrs_99 = prev_states_ptrs * stride_states_hdim
    prev_states_ptrs_100 = gl.arange(0, 128, layout=L9)
    prev_states_ptrs_101 = gl.expand_dims(prev_states_ptrs_100, 1)
    prev_states_ptrs_102 = prev_states_ptrs_99.broadcast_to([128, 64])
    prev_states_ptrs_103 = prev_states_ptrs_101.broadcast_to([128, 64])
    prev_states_ptrs_104 = prev_states_ptrs_102 + prev_states_ptrs_103
    prev_states_ptrs_106 = prev_states_ptr_48 + prev_states_ptrs_104
    scale_m = gl.exp(dA_cs_m_81)
    C_110 = C_ptrs < chunk_size_limit_83
    C_111 = C_ptrs_85 < chunk_size_limit_83
    C_112 = C_ptrs_86 < chunk_size_limit_83
    C_114 = C_ptrs_90 < dstate
    C_115 = C_110.broadcast_to([64, 128])
    C_116 = C_114.broadcast_to([64, 128])
    C_117 = C_115 & C_116
    C_118 = gl.load(C_ptrs_95, mask=C_117, other=0.0)
    C_119 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), C_118)
    fence_async_shared()
    prev_states_121 = prev_states_ptrs_101 < dstate
    prev_states_125 = prev_states_ptrs < hdim
    prev_states_126 = prev_states_ptrs_96 < hdim
    prev_states_127 = prev_states_ptrs_97 < hdim
    prev_states_128 = prev_states_121.broadcast_to([128, 64])
    prev_states_129 = prev_states_125.broadcast_to([128, 64])
    prev_states_130 = prev_states_128 & prev_states_129
    prev_states_131 = gl.load(prev_states_ptrs_106, mask=prev_states_130, other=0.0)
    prev_states_132 = prev_states_131.to(gl.float16)
    prev_states_133 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), prev_states_132)
    fence_async_shared()
    acc = warpgroup_mma(C_119, prev_states_133, gl.full([64, 64], 0.0, gl.float32, layout=L10))
    acc_134 = gl.expand_dims(scale_m, 1)
    acc_135 = acc_134.broadcast_to([64, 64])
    acc_136 = acc * acc_135
    offs_k = gl.arange(0, 32, layout=L11)
    cb_ptrs_137 = C_ptrs_84 * stride_cb_csize_m
    cb_ptrs_138 = gl.expand_dims(offs_k, 0)
    cb_ptrs_139 = cb_ptrs_137.broadcast_to([64, 32])
    cb_ptrs_140 = cb_ptrs_138.broadcast_to([64, 32])
    cb_ptrs_141 = cb_ptrs_139 + cb_ptrs_140
    cb_ptrs_143 = cb_ptr_17 + cb_ptrs_141
    x_ptrs = gl.arange(0, 32, layout=L3)
    x_ptrs_144 = gl.expand_dims(x_ptrs, 1)
    x_ptrs_146 = x_ptrs_144 * stride_x_seqlen
    x_ptrs_147 = x_ptrs_146.broadcast_to([32, 64])
    x_ptrs_148 = prev_states_ptrs_96.broadcast_to([32, 64])
    x_ptrs_149 = x_ptrs_147 + x_ptrs_148
    x_ptrs_151 = x_ptr_24 + x_ptrs_149
    dt_ptrs_152 = dt_ptr_30 + offs_k
    dA_cumsum_ptrs_153 = dA_cumsum_ptr_36 + offs_k
    K_MAX = pid_m_10 + 1
    K_MAX_154 = K_MAX * 64
    K_MAX_155 = gl.minimum(K_MAX_154, chunk_size_limit_83)
    cb_156 = C_ptrs_84 < chunk_size
    cb_157 = cb_156.broadcast_to([64, 32])
    cb_158 = gl.expand_dims(dA_cs_m_82, 1)
    cb_159 = cb_158.broadcast_to([64, 32])
    mask = C_ptrs_84.broadcast_to([64, 32])
    x = prev_states_126.broadcast_to([32, 64])
    twill_n = (K_MAX_155 - 0 + 32 - 1) // 32
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        dA_cumsum_ptrs_237 = dA_cumsum_ptrs_153
        dA_cumsum_ptrs_237_p1 = dA_cumsum_ptrs_237
        acc_233 = acc_136
        cb_ptrs_234 = cb_ptrs_143
        dt_ptrs_236 = dt_ptrs_152
        x_225 = chunk_size_limit_83 - (0 + (0 - 0) * 32)  # elementwise2_x: stage 0, partition 0 (group 0)
        x_226 = x_225  # elementwise2_x: stage 0, partition 0 (group 0)
        x_227 = x_ptrs_144 < x_226  # elementwise2_x: stage 0, partition 0 (group 0)
        x_228 = x_227.broadcast_to([32, 64])  # elementwise2_x: stage 0, partition 0 (group 0)
        x_229 = x_228 & x  # elementwise2_x: stage 0, partition 0 (group 0)
        cb_202 = chunk_size - (0 + (0 - 0) * 32)  # elementwise0_cb: stage 0, partition 0 (group 0)
        cb_203 = cb_202  # elementwise0_cb: stage 0, partition 0 (group 0)
        cb_204 = cb_ptrs_138 < cb_203  # elementwise0_cb: stage 0, partition 0 (group 0)
        cb_205 = cb_204.broadcast_to([64, 32])  # elementwise0_cb: stage 0, partition 0 (group 0)
        cb_206 = cb_157 & cb_205  # elementwise0_cb: stage 0, partition 0 (group 0)
        dA_cs_k = cb_202  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_209 = offs_k < dA_cs_k  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cumsum_ptrs_237 = dA_cumsum_ptrs_237_p1 + 32  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_210 = gl.load(dA_cumsum_ptrs_237_p1, mask=dA_cs_k_209, other=0.0)  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        cb_211 = gl.expand_dims(dA_cs_k_210, 0)  # sfu0_cb: stage 0, partition 0 (group 0)
        cb_212 = cb_211.broadcast_to([64, 32])  # sfu0_cb: stage 0, partition 0 (group 0)
        cb_213 = cb_159 - cb_212  # sfu0_cb: stage 0, partition 0 (group 0)
        cb_214 = gl.exp(cb_213)  # sfu0_cb: stage 0, partition 0 (group 0)
        acc_233_p1 = acc_233
        cb_206_p1 = cb_206
        cb_214_p1 = cb_214
        cb_ptrs_234_p1 = cb_ptrs_234
        dA_cs_k_209_p1 = dA_cs_k_209
        dA_cumsum_ptrs_237_p1 = dA_cumsum_ptrs_237
        dt_ptrs_236_p1 = dt_ptrs_236
        for twill_b in range(1, twill_n):
            x_225 = chunk_size_limit_83 - (0 + (twill_b - 0) * 32)  # elementwise2_x: stage 0, partition 0 (group 0)
            x_226 = x_225  # elementwise2_x: stage 0, partition 0 (group 0)
            x_227 = x_ptrs_144 < x_226  # elementwise2_x: stage 0, partition 0 (group 0)
            x_228 = x_227.broadcast_to([32, 64])  # elementwise2_x: stage 0, partition 0 (group 0)
            x_229 = x_228 & x  # elementwise2_x: stage 0, partition 0 (group 0)
            cb_202 = chunk_size - (0 + (twill_b - 0) * 32)  # elementwise0_cb: stage 0, partition 0 (group 0)
            cb_203 = cb_202  # elementwise0_cb: stage 0, partition 0 (group 0)
            cb_204 = cb_ptrs_138 < cb_203  # elementwise0_cb: stage 0, partition 0 (group 0)
            cb_205 = cb_204.broadcast_to([64, 32])  # elementwise0_cb: stage 0, partition 0 (group 0)
            cb_206 = cb_157 & cb_205  # elementwise0_cb: stage 0, partition 0 (group 0)
            cb_ptrs_234 = cb_ptrs_234_p1 + 32  # load0_cb: stage 1, partition 0 (group 0)
            cb_207 = gl.load(cb_ptrs_234_p1, mask=cb_206_p1, other=0.0)  # load0_cb: stage 1, partition 0 (group 0)
            cb_208 = cb_207.to(gl.float32)  # convert0_cb: stage 1, partition 0 (group 0)
            dt_ptrs_236 = dt_ptrs_236_p1 + 32  # load2_dt_k: stage 1, partition 0 (group 0)
            dt_k = gl.load(dt_ptrs_236_p1, mask=dA_cs_k_209_p1, other=0.0)  # load2_dt_k: stage 1, partition 0 (group 0)
            cb_215 = cb_208 * cb_214_p1  # elementwise1_cb: stage 1, partition 0 (group 0)
            cb_216 = gl.expand_dims(dt_k, 0)  # elementwise1_cb: stage 1, partition 0 (group 0)
            cb_217 = cb_216.broadcast_to([64, 32])  # elementwise1_cb: stage 1, partition 0 (group 0)
            cb_218 = cb_215 * cb_217  # elementwise1_cb: stage 1, partition 0 (group 0)
            mask_219 = (0 + (twill_b - 1) * 32)  # elementwise1_cb: stage 1, partition 0 (group 0)
            mask_220 = mask_219 + cb_ptrs_138  # elementwise1_cb: stage 1, partition 0 (group 0)
            mask_221 = mask_220.broadcast_to([64, 32])  # elementwise1_cb: stage 1, partition 0 (group 0)
            mask_222 = mask >= mask_221  # elementwise1_cb: stage 1, partition 0 (group 0)
            cb_223 = gl.where(mask_222, cb_218, 0.0)  # elementwise1_cb: stage 1, partition 0 (group 0)
            cb_224 = cb_223.to(gl.float16)  # convert1_cb: stage 1, partition 0 (group 0)
            cb_232 = gl.convert_layout(cb_224, L12)  # convert1_cb: stage 1, partition 0 (group 0)
            mbarrier.wait(x_230_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_233 = warpgroup_mma(cb_232, x_230_buf.index((twill_b - 1) % 2), acc_233_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            dA_cs_k = cb_202  # load1_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cs_k_209 = offs_k < dA_cs_k  # load1_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cumsum_ptrs_237 = dA_cumsum_ptrs_237_p1 + 32  # load1_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cs_k_210 = gl.load(dA_cumsum_ptrs_237_p1, mask=dA_cs_k_209, other=0.0)  # load1_dA_cs_k: stage 0, partition 0 (group 0)
            cb_211 = gl.expand_dims(dA_cs_k_210, 0)  # sfu0_cb: stage 0, partition 0 (group 0)
            cb_212 = cb_211.broadcast_to([64, 32])  # sfu0_cb: stage 0, partition 0 (group 0)
            cb_213 = cb_159 - cb_212  # sfu0_cb: stage 0, partition 0 (group 0)
            cb_214 = gl.exp(cb_213)  # sfu0_cb: stage 0, partition 0 (group 0)
            acc_233 = warpgroup_mma_wait(0, deps=(tok_acc_233,))
            mbarrier.arrive(x_230_empty.index((twill_b - 1) % 2))
            acc_233_p1 = acc_233
            cb_206_p1 = cb_206
            cb_214_p1 = cb_214
            cb_ptrs_234_p1 = cb_ptrs_234
            dA_cs_k_209_p1 = dA_cs_k_209
            dA_cumsum_ptrs_237_p1 = dA_cumsum_ptrs_237
            dt_ptrs_236_p1 = dt_ptrs_236
        cb_ptrs_234 = cb_ptrs_234_p1 + 32  # load0_cb: stage 1, partition 0 (group 0)
        cb_207 = gl.load(cb_ptrs_234_p1, mask=cb_206_p1, other=0.0)  # load0_cb: stage 1, partition 0 (group 0)
        cb_208 = cb_207.to(gl.float32)  # convert0_cb: stage 1, partition 0 (group 0)
        dt_ptrs_236 = dt_ptrs_236_p1 + 32  # load2_dt_k: stage 1, partition 0 (group 0)
        dt_k = gl.load(dt_ptrs_236_p1, mask=dA_cs_k_209_p1, other=0.0)  # load2_dt_k: stage 1, partition 0 (group 0)
        cb_215 = cb_208 * cb_214_p1  # elementwise1_cb: stage 1, partition 0 (group 0)
        cb_216 = gl.expand_dims(dt_k, 0)  # elementwise1_cb: stage 1, partition 0 (group 0)
        cb_217 = cb_216.broadcast_to([64, 32])  # elementwise1_cb: stage 1, partition 0 (group 0)
        cb_218 = cb_215 * cb_217  # elementwise1_cb: stage 1, partition 0 (group 0)
        mask_219 = (0 + ((twill_n - 1 + 1) - 1) * 32)  # elementwise1_cb: stage 1, partition 0 (group 0)
        mask_220 = mask_219 + cb_ptrs_138  # elementwise1_cb: stage 1, partition 0 (group 0)
        mask_221 = mask_220.broadcast_to([64, 32])  # elementwise1_cb: stage 1, partition 0 (group 0)
        mask_222 = mask >= mask_221  # elementwise1_cb: stage 1, partition 0 (group 0)
        cb_223 = gl.where(mask_222, cb_218, 0.0)  # elementwise1_cb: stage 1, partition 0 (group 0)
        cb_224 = cb_223.to(gl.float16)  # convert1_cb: stage 1, partition 0 (group 0)
        cb_232 = gl.convert_layout(cb_224, L12)  # convert1_cb: stage 1, partition 0 (group 0)
        mbarrier.wait(x_230_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_acc_233 = warpgroup_mma(cb_232, x_230_buf.index(((twill_n - 1 + 1) - 1) % 2), acc_233_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        acc_233 = warpgroup_mma_wait(0, deps=(tok_acc_233,))
        mbarrier.arrive(x_230_empty.index(((twill_n - 1 + 1) - 1) % 2))
        acc_233_p1 = acc_233
        cb_206_p1 = cb_206
        cb_214_p1 = cb_214
        cb_ptrs_234_p1 = cb_ptrs_234
        dA_cs_k_209_p1 = dA_cs_k_209
        dA_cumsum_ptrs_237_p2 = dA_cumsum_ptrs_237_p1
        dA_cumsum_ptrs_237_p1 = dA_cumsum_ptrs_237
        dt_ptrs_236_p1 = dt_ptrs_236
        x_230_buf._keep_alive()
    else:
        acc_233_p1 = acc_136
        cb_ptrs_234_p1 = cb_ptrs_143
        dA_cumsum_ptrs_237_p2 = dA_cumsum_ptrs_153
        dt_ptrs_236_p1 = dt_ptrs_152
    D = D_ptr + pid_h
    D_163 = gl.load(D)
    x_residual_164 = C_111.broadcast_to([64, 64])
    x_residual_165 = C_112.broadcast_to([64, 64])
    x_residual_166 = prev_states_126.broadcast_to([64, 64])
    x_residual_167 = prev_states_127.broadcast_to([64, 64])
    x_residual_168 = x_residual_164 & x_residual_166
    x_residual_169 = x_residual_165 & x_residual_167
    x_residual_171 = C_ptrs_85 * stride_x_seqlen
    x_residual_172 = x_residual_171.broadcast_to([64, 64])
    x_residual_173 = prev_states_ptrs_96.broadcast_to([64, 64])
    x_residual_174 = prev_states_ptrs_97.broadcast_to([64, 64])
    x_residual_175 = x_residual_172 + x_residual_173
    x_residual_177 = x_ptr_24 + x_residual_175
    x_residual_178 = gl.load(x_residual_177, mask=x_residual_168, other=0.0)
    acc_179 = gl.convert_layout(x_residual_178, L10)
    x_residual_180 = acc_179.to(gl.float32)
    acc_182 = x_residual_180 * D_163
    acc_183 = acc_233_p1 + acc_182
    acc_184 = gl.convert_layout(acc_183, L13)
    out_ptr_185 = pid_b_7 * stride_out_batch
    out_ptr_186 = x_ptr_19 * stride_out_seqlen
    out_ptr_187 = out_ptr_185 + out_ptr_186
    out_ptr_188 = pid_h * stride_out_head
    out_ptr_189 = out_ptr_187 + out_ptr_188
    out_ptr_190 = out_ptr + out_ptr_189
    out_ptrs_191 = stride_out_seqlen * C_ptrs_86
    out_ptrs_192 = out_ptrs_191.broadcast_to([64, 64])
    out_ptrs_193 = out_ptrs_192 + x_residual_174
    out_ptrs_195 = out_ptr_190 + out_ptrs_193
    gl.store(out_ptrs_195, acc_184, mask=x_residual_169)

@gluon.jit
def producer_1(cb_ptr, x_ptr, out_ptr, dt_ptr, dA_cumsum_ptr, C_ptr, prev_states_ptr, D_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_x_batch, stride_x_seqlen, stride_x_head, stride_out_batch, stride_out_seqlen, stride_out_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_C_batch, stride_C_seqlen, stride_C_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, x_230_buf, x_230_ready, x_230_empty, TWILL_COPY: gl.constexpr):
    pid_bc = gl.program_id(1)
    pid_c = pid_bc // batch
    pid_b = pid_c * batch
    pid_b_7 = pid_bc - pid_b
    pid_h = gl.program_id(2)
    num_pid_n_8 = hdim + 63
    num_pid_n_9 = num_pid_n_8 // 64
    pid_m = gl.program_id(0)
    pid_m_10 = pid_m // num_pid_n_9
    pid_n = pid_m % num_pid_n_9
    x_ptr_18 = pid_b_7 * stride_x_batch
    x_ptr_19 = pid_c * chunk_size
    x_ptr_20 = x_ptr_19 * stride_x_seqlen
    x_ptr_21 = x_ptr_18 + x_ptr_20
    x_ptr_22 = pid_h * stride_x_head
    x_ptr_23 = x_ptr_21 + x_ptr_22
    x_ptr_24 = x_ptr + x_ptr_23
    offs_m_55 = gl.arange(0, 64, layout=L6)
    offs_n = pid_n * 64
    offs_n_71 = offs_n + offs_m_55
    chunk_size_limit = seqlen - x_ptr_19
    chunk_size_limit_83 = gl.minimum(chunk_size, chunk_size_limit)
    prev_states_ptrs_96 = gl.expand_dims(offs_n_71, 0)
    prev_states_126 = prev_states_ptrs_96 < hdim
    x_ptrs = gl.arange(0, 32, layout=L3)
    x_ptrs_144 = gl.expand_dims(x_ptrs, 1)
    x_ptrs_146 = x_ptrs_144 * stride_x_seqlen
    x_ptrs_147 = x_ptrs_146.broadcast_to([32, 64])
    x_ptrs_148 = prev_states_ptrs_96.broadcast_to([32, 64])
    x_ptrs_149 = x_ptrs_147 + x_ptrs_148
    x_ptrs_151 = x_ptr_24 + x_ptrs_149
    K_MAX = pid_m_10 + 1
    K_MAX_154 = K_MAX * 64
    K_MAX_155 = gl.minimum(K_MAX_154, chunk_size_limit_83)
    x = prev_states_126.broadcast_to([32, 64])
    x_ptrs_160 = stride_x_seqlen * 32
    x_ptrs_201 = x_ptrs_151
    for dA_cumsum_ptrs_196 in range(0, K_MAX_155, 32):
        twill_k = (dA_cumsum_ptrs_196 - 0) // 32
        x_225 = chunk_size_limit_83 - dA_cumsum_ptrs_196
        x_227 = x_ptrs_144 < x_225
        x_228 = x_227.broadcast_to([32, 64])
        x_229 = x_228 & x
        x_ptrs_235 = x_ptrs_201 + x_ptrs_160
        mbarrier.wait(x_230_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(x_230_buf.index(twill_k % 2), x_ptrs_201, mask=x_229)  # load3_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(x_230_ready.index(twill_k % 2), increment_count=False)
        else:
            x_230_buf.index(twill_k % 2).store(gl.load(x_ptrs_201, mask=x_229, other=0.0))  # load3_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(x_230_ready.index(twill_k % 2), count=128)
        x_ptrs_201 = x_ptrs_235

@gluon.jit
def twill_kernel(cb_ptr, x_ptr, out_ptr, dt_ptr, dA_cumsum_ptr, C_ptr, prev_states_ptr, D_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_x_batch, stride_x_seqlen, stride_x_head, stride_out_batch, stride_out_seqlen, stride_out_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_C_batch, stride_C_seqlen, stride_C_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, TWILL_COPY: gl.constexpr):
    x_230_buf = gl.allocate_shared_memory(gl.float16, [2, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_230_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(x_230_ready.index(i), count=128)
    x_230_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(x_230_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (cb_ptr, x_ptr, out_ptr, dt_ptr, dA_cumsum_ptr, C_ptr, prev_states_ptr, D_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_x_batch, stride_x_seqlen, stride_x_head, stride_out_batch, stride_out_seqlen, stride_out_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_C_batch, stride_C_seqlen, stride_C_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, x_230_buf, x_230_ready, x_230_empty, TWILL_COPY)),
        (producer_1, (cb_ptr, x_ptr, out_ptr, dt_ptr, dA_cumsum_ptr, C_ptr, prev_states_ptr, D_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_x_batch, stride_x_seqlen, stride_x_head, stride_out_batch, stride_out_seqlen, stride_out_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_C_batch, stride_C_seqlen, stride_C_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, x_230_buf, x_230_ready, x_230_empty, TWILL_COPY)),
    ], [4], [48])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L8_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L9_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L10_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L11_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L12_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L13_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(cb_ptr, x_ptr, out_ptr, dt_ptr, dA_cumsum_ptr, C_ptr, prev_states_ptr, D_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_x_batch, stride_x_seqlen, stride_x_head, stride_out_batch, stride_out_seqlen, stride_out_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_C_batch, stride_C_seqlen, stride_C_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim):
    pid_bc = gl.program_id(1)
    pid_c = pid_bc // batch
    pid_b = pid_c * batch
    pid_b_7 = pid_bc - pid_b
    pid_h = gl.program_id(2)
    num_pid_n_8 = hdim + 63
    num_pid_n_9 = num_pid_n_8 // 64
    pid_m = gl.program_id(0)
    pid_m_10 = pid_m // num_pid_n_9
    pid_n = pid_m % num_pid_n_9
    cb_ptr_11 = pid_b_7 * stride_cb_batch
    cb_ptr_12 = pid_c * stride_cb_chunk
    cb_ptr_13 = cb_ptr_11 + cb_ptr_12
    cb_ptr_14 = pid_h // nheads_ngroups_ratio
    cb_ptr_15 = cb_ptr_14 * stride_cb_head
    cb_ptr_16 = cb_ptr_13 + cb_ptr_15
    cb_ptr_17 = cb_ptr + cb_ptr_16
    x_ptr_18 = pid_b_7 * stride_x_batch
    x_ptr_19 = pid_c * chunk_size
    x_ptr_20 = x_ptr_19 * stride_x_seqlen
    x_ptr_21 = x_ptr_18 + x_ptr_20
    x_ptr_22 = pid_h * stride_x_head
    x_ptr_23 = x_ptr_21 + x_ptr_22
    x_ptr_24 = x_ptr + x_ptr_23
    dt_ptr_25 = pid_b_7 * stride_dt_batch
    dt_ptr_26 = pid_c * stride_dt_chunk
    dt_ptr_27 = dt_ptr_25 + dt_ptr_26
    dt_ptr_28 = pid_h * stride_dt_head
    dt_ptr_29 = dt_ptr_27 + dt_ptr_28
    dt_ptr_30 = dt_ptr + dt_ptr_29
    dA_cumsum_ptr_31 = pid_b_7 * stride_dA_cs_batch
    dA_cumsum_ptr_32 = pid_c * stride_dA_cs_chunk
    dA_cumsum_ptr_33 = dA_cumsum_ptr_31 + dA_cumsum_ptr_32
    dA_cumsum_ptr_34 = pid_h * stride_dA_cs_head
    dA_cumsum_ptr_35 = dA_cumsum_ptr_33 + dA_cumsum_ptr_34
    dA_cumsum_ptr_36 = dA_cumsum_ptr + dA_cumsum_ptr_35
    C_ptr_37 = pid_b_7 * stride_C_batch
    C_ptr_38 = x_ptr_19 * stride_C_seqlen
    C_ptr_39 = C_ptr_37 + C_ptr_38
    C_ptr_40 = cb_ptr_14 * stride_C_head
    C_ptr_41 = C_ptr_39 + C_ptr_40
    C_ptr_42 = C_ptr + C_ptr_41
    prev_states_ptr_43 = pid_b_7 * stride_states_batch
    prev_states_ptr_44 = prev_states_ptr + prev_states_ptr_43
    prev_states_ptr_45 = pid_c * stride_states_chunk
    prev_states_ptr_46 = prev_states_ptr_44 + prev_states_ptr_45
    prev_states_ptr_47 = pid_h * stride_states_head
    prev_states_ptr_48 = prev_states_ptr_46 + prev_states_ptr_47
    offs_m = pid_m_10 * 64
    offs_m_49 = gl.arange(0, 64, layout=L0_short)
    offs_m_50 = gl.arange(0, 64, layout=L1_short)
    offs_m_51 = gl.arange(0, 64, layout=L2_short)
    offs_m_52 = gl.arange(0, 64, layout=L3_short)
    offs_m_53 = gl.arange(0, 64, layout=L4_short)
    offs_m_54 = gl.arange(0, 64, layout=L5_short)
    offs_m_55 = gl.arange(0, 64, layout=L6_short)
    offs_m_56 = gl.arange(0, 64, layout=L7_short)
    offs_m_62 = offs_m + offs_m_49
    offs_m_63 = offs_m + offs_m_50
    offs_m_64 = offs_m + offs_m_51
    offs_m_65 = offs_m + offs_m_52
    offs_m_66 = offs_m + offs_m_53
    offs_n = pid_n * 64
    offs_n_70 = offs_n + offs_m_54
    offs_n_71 = offs_n + offs_m_55
    offs_n_72 = offs_n + offs_m_56
    dA_cs_m_75 = offs_m_63 < chunk_size
    dA_cs_m_76 = offs_m_64 < chunk_size
    dA_cs_m_79 = dA_cumsum_ptr_36 + offs_m_63
    dA_cs_m_80 = dA_cumsum_ptr_36 + offs_m_64
    dA_cs_m_81 = gl.load(dA_cs_m_79, mask=dA_cs_m_75, other=0.0)
    dA_cs_m_82 = gl.load(dA_cs_m_80, mask=dA_cs_m_76, other=0.0)
    chunk_size_limit = seqlen - x_ptr_19
    chunk_size_limit_83 = gl.minimum(chunk_size, chunk_size_limit)
    C_ptrs = gl.expand_dims(offs_m_62, 1)
    C_ptrs_84 = gl.expand_dims(offs_m_64, 1)
    C_ptrs_85 = gl.expand_dims(offs_m_65, 1)
    C_ptrs_86 = gl.expand_dims(offs_m_66, 1)
    C_ptrs_88 = C_ptrs * stride_C_seqlen
    C_ptrs_89 = gl.arange(0, 128, layout=L8_short)
    C_ptrs_90 = gl.expand_dims(C_ptrs_89, 0)
    C_ptrs_91 = C_ptrs_88.broadcast_to([64, 128])
    C_ptrs_92 = C_ptrs_90.broadcast_to([64, 128])
    C_ptrs_93 = C_ptrs_91 + C_ptrs_92
    C_ptrs_95 = C_ptr_42 + C_ptrs_93
    prev_states_ptrs = gl.expand_dims(offs_n_70, 0)
    prev_states_ptrs_96 = gl.expand_dims(offs_n_71, 0)
    prev_states_ptrs_97 = gl.expand_dims(offs_n_72, 0)
    prev_states_ptrs_99 = prev_states_ptrs * stride_states_hdim
    prev_states_ptrs_100 = gl.arange(0, 128, layout=L9_short)
    prev_states_ptrs_101 = gl.expand_dims(prev_states_ptrs_100, 1)
    prev_states_ptrs_102 = prev_states_ptrs_99.broadcast_to([128, 64])
    prev_states_ptrs_103 = prev_states_ptrs_101.broadcast_to([128, 64])
    prev_states_ptrs_104 = prev_states_ptrs_102 + prev_states_ptrs_103
    prev_states_ptrs_106 = prev_states_ptr_48 + prev_states_ptrs_104
    scale_m = gl.exp(dA_cs_m_81)
    C_110 = C_ptrs < chunk_size_limit_83
    C_111 = C_ptrs_85 < chunk_size_limit_83
    C_112 = C_ptrs_86 < chunk_size_limit_83
    C_114 = C_ptrs_90 < dstate
    C_115 = C_110.broadcast_to([64, 128])
    C_116 = C_114.broadcast_to([64, 128])
    C_117 = C_115 & C_116
    C_118 = gl.load(C_ptrs_95, mask=C_117, other=0.0)
    C_119 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), C_118)
    fence_async_shared()
    prev_states_121 = prev_states_ptrs_101 < dstate
    prev_states_125 = prev_states_ptrs < hdim
    prev_states_126 = prev_states_ptrs_96 < hdim
    prev_states_127 = prev_states_ptrs_97 < hdim
    prev_states_128 = prev_states_121.broadcast_to([128, 64])
    prev_states_129 = prev_states_125.broadcast_to([128, 64])
    prev_states_130 = prev_states_128 & prev_states_129
    prev_states_131 = gl.load(prev_states_ptrs_106, mask=prev_states_130, other=0.0)
    prev_states_132 = prev_states_131.to(gl.float16)
    prev_states_133 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), prev_states_132)
    fence_async_shared()
    acc = warpgroup_mma(C_119, prev_states_133, gl.full([64, 64], 0.0, gl.float32, layout=L10_short))
    acc_134 = gl.expand_dims(scale_m, 1)
    acc_135 = acc_134.broadcast_to([64, 64])
    acc_136 = acc * acc_135
    offs_k = gl.arange(0, 32, layout=L11_short)
    cb_ptrs_137 = C_ptrs_84 * stride_cb_csize_m
    cb_ptrs_138 = gl.expand_dims(offs_k, 0)
    cb_ptrs_139 = cb_ptrs_137.broadcast_to([64, 32])
    cb_ptrs_140 = cb_ptrs_138.broadcast_to([64, 32])
    cb_ptrs_141 = cb_ptrs_139 + cb_ptrs_140
    cb_ptrs_143 = cb_ptr_17 + cb_ptrs_141
    x_ptrs = gl.arange(0, 32, layout=L3_short)
    x_ptrs_144 = gl.expand_dims(x_ptrs, 1)
    x_ptrs_146 = x_ptrs_144 * stride_x_seqlen
    x_ptrs_147 = x_ptrs_146.broadcast_to([32, 64])
    x_ptrs_148 = prev_states_ptrs_96.broadcast_to([32, 64])
    x_ptrs_149 = x_ptrs_147 + x_ptrs_148
    x_ptrs_151 = x_ptr_24 + x_ptrs_149
    dt_ptrs_152 = dt_ptr_30 + offs_k
    dA_cumsum_ptrs_153 = dA_cumsum_ptr_36 + offs_k
    K_MAX = pid_m_10 + 1
    K_MAX_154 = K_MAX * 64
    K_MAX_155 = gl.minimum(K_MAX_154, chunk_size_limit_83)
    cb_156 = C_ptrs_84 < chunk_size
    cb_157 = cb_156.broadcast_to([64, 32])
    cb_158 = gl.expand_dims(dA_cs_m_82, 1)
    cb_159 = cb_158.broadcast_to([64, 32])
    mask = C_ptrs_84.broadcast_to([64, 32])
    x = prev_states_126.broadcast_to([32, 64])
    x_ptrs_160 = stride_x_seqlen * 32
    twill_n = (K_MAX_155 - 0 + 32 - 1) // 32
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        x_231_st = gl.allocate_shared_memory(gl.float16, [2, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        dA_cumsum_ptrs_237 = dA_cumsum_ptrs_153
        dA_cumsum_ptrs_237_p1 = dA_cumsum_ptrs_237
        cb_ptrs_234 = cb_ptrs_143
        dt_ptrs_236 = dt_ptrs_152
        cb_202 = chunk_size - (0 + (0 - 0) * 32)  # elementwise0_cb: stage 0, partition 0 (group 0)
        dA_cs_k = cb_202  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_209 = offs_k < dA_cs_k  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cumsum_ptrs_237 = dA_cumsum_ptrs_237_p1 + 32  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_210 = gl.load(dA_cumsum_ptrs_237_p1, mask=dA_cs_k_209, other=0.0)  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        cb_202_p1 = cb_202
        cb_ptrs_234_p1 = cb_ptrs_234
        dA_cs_k_209_p1 = dA_cs_k_209
        dA_cs_k_210_p1 = dA_cs_k_210
        dA_cumsum_ptrs_237_p1 = dA_cumsum_ptrs_237
        dt_ptrs_236_p1 = dt_ptrs_236
        acc_233 = acc_136
        x_ptrs_235 = x_ptrs_151
        x_225 = chunk_size_limit_83 - (0 + (1 - 1) * 32)  # elementwise2_x: stage 1, partition 0 (group 0)
        x_226 = x_225  # elementwise2_x: stage 1, partition 0 (group 0)
        x_227 = x_ptrs_144 < x_226  # elementwise2_x: stage 1, partition 0 (group 0)
        x_228 = x_227.broadcast_to([32, 64])  # elementwise2_x: stage 1, partition 0 (group 0)
        x_229 = x_228 & x  # elementwise2_x: stage 1, partition 0 (group 0)
        cb_202 = chunk_size - (0 + (1 - 0) * 32)  # elementwise0_cb: stage 0, partition 0 (group 0)
        cb_203 = cb_202_p1  # elementwise0_cb: stage 1, partition 0 (group 0)
        cb_204 = cb_ptrs_138 < cb_203  # elementwise0_cb: stage 1, partition 0 (group 0)
        cb_205 = cb_204.broadcast_to([64, 32])  # elementwise0_cb: stage 1, partition 0 (group 0)
        cb_206 = cb_157 & cb_205  # elementwise0_cb: stage 1, partition 0 (group 0)
        cb_ptrs_234 = cb_ptrs_234_p1 + 32  # load0_cb: stage 1, partition 0 (group 0)
        cb_207 = gl.load(cb_ptrs_234_p1, mask=cb_206, other=0.0)  # load0_cb: stage 1, partition 0 (group 0)
        dt_ptrs_236 = dt_ptrs_236_p1 + 32  # load2_dt_k: stage 1, partition 0 (group 0)
        dt_k = gl.load(dt_ptrs_236_p1, mask=dA_cs_k_209_p1, other=0.0)  # load2_dt_k: stage 1, partition 0 (group 0)
        dA_cs_k = cb_202  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_209 = offs_k < dA_cs_k  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cumsum_ptrs_237 = dA_cumsum_ptrs_237_p1 + 32  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_210 = gl.load(dA_cumsum_ptrs_237_p1, mask=dA_cs_k_209, other=0.0)  # load1_dA_cs_k: stage 0, partition 0 (group 0)
        cb_211 = gl.expand_dims(dA_cs_k_210_p1, 0)  # sfu0_cb: stage 1, partition 0 (group 0)
        cb_212 = cb_211.broadcast_to([64, 32])  # sfu0_cb: stage 1, partition 0 (group 0)
        cb_213 = cb_159 - cb_212  # sfu0_cb: stage 1, partition 0 (group 0)
        cb_214 = gl.exp(cb_213)  # sfu0_cb: stage 1, partition 0 (group 0)
        acc_233_p1 = acc_233
        cb_202_p1 = cb_202
        cb_207_p1 = cb_207
        cb_214_p1 = cb_214
        cb_ptrs_234_p1 = cb_ptrs_234
        dA_cs_k_209_p1 = dA_cs_k_209
        dA_cs_k_210_p1 = dA_cs_k_210
        dA_cumsum_ptrs_237_p1 = dA_cumsum_ptrs_237
        dt_k_p1 = dt_k
        dt_ptrs_236_p1 = dt_ptrs_236
        x_229_p1 = x_229
        x_ptrs_235_p1 = x_ptrs_235
        for twill_b in range(2, twill_n):
            x_225 = chunk_size_limit_83 - (0 + (twill_b - 1) * 32)  # elementwise2_x: stage 1, partition 0 (group 0)
            x_226 = x_225  # elementwise2_x: stage 1, partition 0 (group 0)
            x_227 = x_ptrs_144 < x_226  # elementwise2_x: stage 1, partition 0 (group 0)
            x_228 = x_227.broadcast_to([32, 64])  # elementwise2_x: stage 1, partition 0 (group 0)
            x_229 = x_228 & x  # elementwise2_x: stage 1, partition 0 (group 0)
            cb_202 = chunk_size - (0 + (twill_b - 0) * 32)  # elementwise0_cb: stage 0, partition 0 (group 0)
            cb_203 = cb_202_p1  # elementwise0_cb: stage 1, partition 0 (group 0)
            cb_204 = cb_ptrs_138 < cb_203  # elementwise0_cb: stage 1, partition 0 (group 0)
            cb_205 = cb_204.broadcast_to([64, 32])  # elementwise0_cb: stage 1, partition 0 (group 0)
            cb_206 = cb_157 & cb_205  # elementwise0_cb: stage 1, partition 0 (group 0)
            cb_ptrs_234 = cb_ptrs_234_p1 + 32  # load0_cb: stage 1, partition 0 (group 0)
            cb_207 = gl.load(cb_ptrs_234_p1, mask=cb_206, other=0.0)  # load0_cb: stage 1, partition 0 (group 0)
            cb_208 = cb_207_p1.to(gl.float32)  # convert0_cb: stage 2, partition 0 (group 0)
            dt_ptrs_236 = dt_ptrs_236_p1 + 32  # load2_dt_k: stage 1, partition 0 (group 0)
            dt_k = gl.load(dt_ptrs_236_p1, mask=dA_cs_k_209_p1, other=0.0)  # load2_dt_k: stage 1, partition 0 (group 0)
            cb_215 = cb_208 * cb_214_p1  # elementwise1_cb: stage 2, partition 0 (group 0)
            cb_216 = gl.expand_dims(dt_k_p1, 0)  # elementwise1_cb: stage 2, partition 0 (group 0)
            cb_217 = cb_216.broadcast_to([64, 32])  # elementwise1_cb: stage 2, partition 0 (group 0)
            cb_218 = cb_215 * cb_217  # elementwise1_cb: stage 2, partition 0 (group 0)
            mask_219 = (0 + (twill_b - 2) * 32)  # elementwise1_cb: stage 2, partition 0 (group 0)
            mask_220 = mask_219 + cb_ptrs_138  # elementwise1_cb: stage 2, partition 0 (group 0)
            mask_221 = mask_220.broadcast_to([64, 32])  # elementwise1_cb: stage 2, partition 0 (group 0)
            mask_222 = mask >= mask_221  # elementwise1_cb: stage 2, partition 0 (group 0)
            cb_223 = gl.where(mask_222, cb_218, 0.0)  # elementwise1_cb: stage 2, partition 0 (group 0)
            cb_224 = cb_223.to(gl.float16)  # convert1_cb: stage 2, partition 0 (group 0)
            cb_232 = gl.convert_layout(cb_224, L12_short)  # convert1_cb: stage 2, partition 0 (group 0)
            x_ptrs_235 = x_ptrs_235_p1 + x_ptrs_160  # load3_x: stage 2, partition 0 (group 0)
            x_230 = gl.load(x_ptrs_235_p1, mask=x_229_p1, other=0.0)  # load3_x: stage 2, partition 0 (group 0)
            x_231 = x_231_st.index((twill_b - 2) % 2)  # load3_x: stage 2, partition 0 (group 0)
            x_231.store(x_230)  # load3_x: stage 2, partition 0 (group 0)
            fence_async_shared()  # load3_x: stage 2, partition 0 (group 0)
            tok_acc_233 = warpgroup_mma(cb_232, x_231, acc_233_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            dA_cs_k = cb_202  # load1_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cs_k_209 = offs_k < dA_cs_k  # load1_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cumsum_ptrs_237 = dA_cumsum_ptrs_237_p1 + 32  # load1_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cs_k_210 = gl.load(dA_cumsum_ptrs_237_p1, mask=dA_cs_k_209, other=0.0)  # load1_dA_cs_k: stage 0, partition 0 (group 0)
            cb_211 = gl.expand_dims(dA_cs_k_210_p1, 0)  # sfu0_cb: stage 1, partition 0 (group 0)
            cb_212 = cb_211.broadcast_to([64, 32])  # sfu0_cb: stage 1, partition 0 (group 0)
            cb_213 = cb_159 - cb_212  # sfu0_cb: stage 1, partition 0 (group 0)
            cb_214 = gl.exp(cb_213)  # sfu0_cb: stage 1, partition 0 (group 0)
            acc_233 = warpgroup_mma_wait(0, deps=(tok_acc_233,))
            acc_233_p1 = acc_233
            cb_202_p1 = cb_202
            cb_207_p1 = cb_207
            cb_214_p1 = cb_214
            cb_ptrs_234_p1 = cb_ptrs_234
            dA_cs_k_209_p1 = dA_cs_k_209
            dA_cs_k_210_p1 = dA_cs_k_210
            dA_cumsum_ptrs_237_p1 = dA_cumsum_ptrs_237
            dt_k_p1 = dt_k
            dt_ptrs_236_p1 = dt_ptrs_236
            x_229_p1 = x_229
            x_ptrs_235_p1 = x_ptrs_235
        x_225 = chunk_size_limit_83 - (0 + ((twill_n - 1 + 1) - 1) * 32)  # elementwise2_x: stage 1, partition 0 (group 0)
        x_226 = x_225  # elementwise2_x: stage 1, partition 0 (group 0)
        x_227 = x_ptrs_144 < x_226  # elementwise2_x: stage 1, partition 0 (group 0)
        x_228 = x_227.broadcast_to([32, 64])  # elementwise2_x: stage 1, partition 0 (group 0)
        x_229 = x_228 & x  # elementwise2_x: stage 1, partition 0 (group 0)
        cb_203 = cb_202_p1  # elementwise0_cb: stage 1, partition 0 (group 0)
        cb_204 = cb_ptrs_138 < cb_203  # elementwise0_cb: stage 1, partition 0 (group 0)
        cb_205 = cb_204.broadcast_to([64, 32])  # elementwise0_cb: stage 1, partition 0 (group 0)
        cb_206 = cb_157 & cb_205  # elementwise0_cb: stage 1, partition 0 (group 0)
        cb_ptrs_234 = cb_ptrs_234_p1 + 32  # load0_cb: stage 1, partition 0 (group 0)
        cb_207 = gl.load(cb_ptrs_234_p1, mask=cb_206, other=0.0)  # load0_cb: stage 1, partition 0 (group 0)
        cb_208 = cb_207_p1.to(gl.float32)  # convert0_cb: stage 2, partition 0 (group 0)
        dt_ptrs_236 = dt_ptrs_236_p1 + 32  # load2_dt_k: stage 1, partition 0 (group 0)
        dt_k = gl.load(dt_ptrs_236_p1, mask=dA_cs_k_209_p1, other=0.0)  # load2_dt_k: stage 1, partition 0 (group 0)
        cb_215 = cb_208 * cb_214_p1  # elementwise1_cb: stage 2, partition 0 (group 0)
        cb_216 = gl.expand_dims(dt_k_p1, 0)  # elementwise1_cb: stage 2, partition 0 (group 0)
        cb_217 = cb_216.broadcast_to([64, 32])  # elementwise1_cb: stage 2, partition 0 (group 0)
        cb_218 = cb_215 * cb_217  # elementwise1_cb: stage 2, partition 0 (group 0)
        mask_219 = (0 + ((twill_n - 1 + 1) - 2) * 32)  # elementwise1_cb: stage 2, partition 0 (group 0)
        mask_220 = mask_219 + cb_ptrs_138  # elementwise1_cb: stage 2, partition 0 (group 0)
        mask_221 = mask_220.broadcast_to([64, 32])  # elementwise1_cb: stage 2, partition 0 (group 0)
        mask_222 = mask >= mask_221  # elementwise1_cb: stage 2, partition 0 (group 0)
        cb_223 = gl.where(mask_222, cb_218, 0.0)  # elementwise1_cb: stage 2, partition 0 (group 0)
        cb_224 = cb_223.to(gl.float16)  # convert1_cb: stage 2, partition 0 (group 0)
        cb_232 = gl.convert_layout(cb_224, L12_short)  # convert1_cb: stage 2, partition 0 (group 0)
        x_ptrs_235 = x_ptrs_235_p1 + x_ptrs_160  # load3_x: stage 2, partition 0 (group 0)
        x_230 = gl.load(x_ptrs_235_p1, mask=x_229_p1, other=0.0)  # load3_x: stage 2, partition 0 (group 0)
        x_231 = x_231_st.index(((twill_n - 1 + 1) - 2) % 2)  # load3_x: stage 2, partition 0 (group 0)
        x_231.store(x_230)  # load3_x: stage 2, partition 0 (group 0)
        fence_async_shared()  # load3_x: stage 2, partition 0 (group 0)
        tok_acc_233 = warpgroup_mma(cb_232, x_231, acc_233_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        cb_211 = gl.expand_dims(dA_cs_k_210_p1, 0)  # sfu0_cb: stage 1, partition 0 (group 0)
        cb_212 = cb_211.broadcast_to([64, 32])  # sfu0_cb: stage 1, partition 0 (group 0)
        cb_213 = cb_159 - cb_212  # sfu0_cb: stage 1, partition 0 (group 0)
        cb_214 = gl.exp(cb_213)  # sfu0_cb: stage 1, partition 0 (group 0)
        acc_233 = warpgroup_mma_wait(0, deps=(tok_acc_233,))
        acc_233_p1 = acc_233
        cb_202_p1 = cb_202
        cb_207_p1 = cb_207
        cb_214_p1 = cb_214
        cb_ptrs_234_p2 = cb_ptrs_234_p1
        cb_ptrs_234_p1 = cb_ptrs_234
        dA_cs_k_209_p1 = dA_cs_k_209
        dA_cs_k_210_p1 = dA_cs_k_210
        dA_cumsum_ptrs_237_p2 = dA_cumsum_ptrs_237_p1
        dA_cumsum_ptrs_237_p1 = dA_cumsum_ptrs_237
        dt_k_p1 = dt_k
        dt_ptrs_236_p2 = dt_ptrs_236_p1
        dt_ptrs_236_p1 = dt_ptrs_236
        x_229_p1 = x_229
        x_ptrs_235_p1 = x_ptrs_235
        cb_208 = cb_207_p1.to(gl.float32)  # convert0_cb: stage 2, partition 0 (group 0)
        cb_215 = cb_208 * cb_214_p1  # elementwise1_cb: stage 2, partition 0 (group 0)
        cb_216 = gl.expand_dims(dt_k_p1, 0)  # elementwise1_cb: stage 2, partition 0 (group 0)
        cb_217 = cb_216.broadcast_to([64, 32])  # elementwise1_cb: stage 2, partition 0 (group 0)
        cb_218 = cb_215 * cb_217  # elementwise1_cb: stage 2, partition 0 (group 0)
        mask_219 = (0 + ((twill_n - 1 + 2) - 2) * 32)  # elementwise1_cb: stage 2, partition 0 (group 0)
        mask_220 = mask_219 + cb_ptrs_138  # elementwise1_cb: stage 2, partition 0 (group 0)
        mask_221 = mask_220.broadcast_to([64, 32])  # elementwise1_cb: stage 2, partition 0 (group 0)
        mask_222 = mask >= mask_221  # elementwise1_cb: stage 2, partition 0 (group 0)
        cb_223 = gl.where(mask_222, cb_218, 0.0)  # elementwise1_cb: stage 2, partition 0 (group 0)
        cb_224 = cb_223.to(gl.float16)  # convert1_cb: stage 2, partition 0 (group 0)
        cb_232 = gl.convert_layout(cb_224, L12_short)  # convert1_cb: stage 2, partition 0 (group 0)
        x_ptrs_235 = x_ptrs_235_p1 + x_ptrs_160  # load3_x: stage 2, partition 0 (group 0)
        x_230 = gl.load(x_ptrs_235_p1, mask=x_229_p1, other=0.0)  # load3_x: stage 2, partition 0 (group 0)
        x_231 = x_231_st.index(((twill_n - 1 + 2) - 2) % 2)  # load3_x: stage 2, partition 0 (group 0)
        x_231.store(x_230)  # load3_x: stage 2, partition 0 (group 0)
        fence_async_shared()  # load3_x: stage 2, partition 0 (group 0)
        tok_acc_233 = warpgroup_mma(cb_232, x_231, acc_233_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        acc_233 = warpgroup_mma_wait(0, deps=(tok_acc_233,))
        acc_233_p1 = acc_233
        cb_202_p1 = cb_202
        cb_207_p1 = cb_207
        cb_214_p1 = cb_214
        cb_ptrs_234_p2 = cb_ptrs_234_p1
        cb_ptrs_234_p1 = cb_ptrs_234
        dA_cs_k_209_p1 = dA_cs_k_209
        dA_cs_k_210_p1 = dA_cs_k_210
        dA_cumsum_ptrs_237_p3 = dA_cumsum_ptrs_237_p2
        dA_cumsum_ptrs_237_p2 = dA_cumsum_ptrs_237_p1
        dA_cumsum_ptrs_237_p1 = dA_cumsum_ptrs_237
        dt_k_p1 = dt_k
        dt_ptrs_236_p2 = dt_ptrs_236_p1
        dt_ptrs_236_p1 = dt_ptrs_236
        x_229_p1 = x_229
        x_ptrs_235_p1 = x_ptrs_235
        x_231_st._keep_alive()
    else:
        acc_197_w = acc_136
        cb_ptrs_198_w = cb_ptrs_143
        dA_cumsum_ptrs_199_w = dA_cumsum_ptrs_153
        dt_ptrs_200_w = dt_ptrs_152
        x_ptrs_201_w = x_ptrs_151
        for dA_cumsum_ptrs_196_w in range(0, K_MAX_155, 32):
            cb_202_w = chunk_size - dA_cumsum_ptrs_196_w
            cb_204_w = cb_ptrs_138 < cb_202_w
            cb_205_w = cb_204_w.broadcast_to([64, 32])
            cb_206_w = cb_157 & cb_205_w
            cb_207_w = gl.load(cb_ptrs_198_w, mask=cb_206_w, other=0.0)
            cb_208_w = cb_207_w.to(gl.float32)
            dA_cs_k_209_w = offs_k < cb_202_w
            dA_cs_k_210_w = gl.load(dA_cumsum_ptrs_199_w, mask=dA_cs_k_209_w, other=0.0)
            cb_211_w = gl.expand_dims(dA_cs_k_210_w, 0)
            cb_212_w = cb_211_w.broadcast_to([64, 32])
            cb_213_w = cb_159 - cb_212_w
            cb_214_w = gl.exp(cb_213_w)
            cb_215_w = cb_208_w * cb_214_w
            dt_k_w = gl.load(dt_ptrs_200_w, mask=dA_cs_k_209_w, other=0.0)
            cb_216_w = gl.expand_dims(dt_k_w, 0)
            cb_217_w = cb_216_w.broadcast_to([64, 32])
            cb_218_w = cb_215_w * cb_217_w
            mask_220_w = dA_cumsum_ptrs_196_w + cb_ptrs_138
            mask_221_w = mask_220_w.broadcast_to([64, 32])
            mask_222_w = mask >= mask_221_w
            cb_223_w = gl.where(mask_222_w, cb_218_w, 0.0)
            cb_224_w = cb_223_w.to(gl.float16)
            x_225_w = chunk_size_limit_83 - dA_cumsum_ptrs_196_w
            x_227_w = x_ptrs_144 < x_225_w
            x_228_w = x_227_w.broadcast_to([32, 64])
            x_229_w = x_228_w & x
            x_230_w = gl.load(x_ptrs_201_w, mask=x_229_w, other=0.0)
            x_231_w = gl.allocate_shared_memory(gl.float16, [32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), x_230_w)
            fence_async_shared()
            cb_232_w = gl.convert_layout(cb_224_w, L12_short)
            acc_233_w = warpgroup_mma(cb_232_w, x_231_w, acc_197_w)
            cb_ptrs_234_w = cb_ptrs_198_w + 32
            x_ptrs_235_w = x_ptrs_201_w + x_ptrs_160
            dt_ptrs_236_w = dt_ptrs_200_w + 32
            dA_cumsum_ptrs_237_w = dA_cumsum_ptrs_199_w + 32
            acc_197_w = acc_233_w
            cb_ptrs_198_w = cb_ptrs_234_w
            dA_cumsum_ptrs_199_w = dA_cumsum_ptrs_237_w
            dt_ptrs_200_w = dt_ptrs_236_w
            x_ptrs_201_w = x_ptrs_235_w
        acc_233_p1 = acc_197_w
        cb_ptrs_234_p2 = cb_ptrs_198_w
        dA_cumsum_ptrs_237_p3 = dA_cumsum_ptrs_199_w
        dt_ptrs_236_p2 = dt_ptrs_200_w
        x_ptrs_235_p1 = x_ptrs_201_w
    D = D_ptr + pid_h
    D_163 = gl.load(D)
    x_residual_164 = C_111.broadcast_to([64, 64])
    x_residual_165 = C_112.broadcast_to([64, 64])
    x_residual_166 = prev_states_126.broadcast_to([64, 64])
    x_residual_167 = prev_states_127.broadcast_to([64, 64])
    x_residual_168 = x_residual_164 & x_residual_166
    x_residual_169 = x_residual_165 & x_residual_167
    x_residual_171 = C_ptrs_85 * stride_x_seqlen
    x_residual_172 = x_residual_171.broadcast_to([64, 64])
    x_residual_173 = prev_states_ptrs_96.broadcast_to([64, 64])
    x_residual_174 = prev_states_ptrs_97.broadcast_to([64, 64])
    x_residual_175 = x_residual_172 + x_residual_173
    x_residual_177 = x_ptr_24 + x_residual_175
    x_residual_178 = gl.load(x_residual_177, mask=x_residual_168, other=0.0)
    acc_179 = gl.convert_layout(x_residual_178, L10_short)
    x_residual_180 = acc_179.to(gl.float32)
    acc_182 = x_residual_180 * D_163
    acc_183 = acc_233_p1 + acc_182
    acc_184 = gl.convert_layout(acc_183, L13_short)
    out_ptr_185 = pid_b_7 * stride_out_batch
    out_ptr_186 = x_ptr_19 * stride_out_seqlen
    out_ptr_187 = out_ptr_185 + out_ptr_186
    out_ptr_188 = pid_h * stride_out_head
    out_ptr_189 = out_ptr_187 + out_ptr_188
    out_ptr_190 = out_ptr + out_ptr_189
    out_ptrs_191 = stride_out_seqlen * C_ptrs_86
    out_ptrs_192 = out_ptrs_191.broadcast_to([64, 64])
    out_ptrs_193 = out_ptrs_192 + x_residual_174
    out_ptrs_195 = out_ptr_190 + out_ptrs_193
    gl.store(out_ptrs_195, acc_184, mask=x_residual_169)

@gluon.jit
def twill_kernel_short(cb_ptr, x_ptr, out_ptr, dt_ptr, dA_cumsum_ptr, C_ptr, prev_states_ptr, D_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_x_batch, stride_x_seqlen, stride_x_head, stride_out_batch, stride_out_seqlen, stride_out_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_C_batch, stride_C_seqlen, stride_C_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim):
    consumer_0_short(cb_ptr, x_ptr, out_ptr, dt_ptr, dA_cumsum_ptr, C_ptr, prev_states_ptr, D_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_x_batch, stride_x_seqlen, stride_x_head, stride_out_batch, stride_out_seqlen, stride_out_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_C_batch, stride_C_seqlen, stride_C_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['cb_ptr', 'x_ptr', 'out_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'C_ptr', 'prev_states_ptr', 'D_ptr', 'chunk_size', 'hdim', 'dstate', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_cb_csize_k', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_x_hdim', 'stride_out_batch', 'stride_out_seqlen', 'stride_out_head', 'stride_out_hdim', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dt_csize', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_dA_cs_csize', 'stride_C_batch', 'stride_C_seqlen', 'stride_C_head', 'stride_C_dstate', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim', 'stride_states_dstate', 'stride_D_head', 'IS_CAUSAL', 'HAS_D', 'D_HAS_HDIM', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'BLOCK_SIZE_DSTATE', 'IS_TRITON_22']          # the Triton kernel's parameters, in order
RUNTIME = ['cb_ptr', 'x_ptr', 'out_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'C_ptr', 'prev_states_ptr', 'D_ptr', 'chunk_size', 'hdim', 'dstate', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_out_batch', 'stride_out_seqlen', 'stride_out_head', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_C_batch', 'stride_C_seqlen', 'stride_C_head', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['cb_ptr', 'x_ptr', 'out_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'C_ptr', 'prev_states_ptr', 'D_ptr', 'chunk_size', 'hdim', 'dstate', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_out_batch', 'stride_out_seqlen', 'stride_out_head', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_C_batch', 'stride_C_seqlen', 'stride_C_head', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim']   # the arguments a launch key reads
CONSTEXPRS = {'stride_cb_csize_k': 1, 'stride_x_hdim': 1, 'stride_out_hdim': 1, 'stride_dt_csize': 1, 'stride_dA_cs_csize': 1, 'stride_C_dstate': 1, 'stride_states_dstate': 1, 'stride_D_head': 1, 'IS_CAUSAL': True, 'HAS_D': True, 'D_HAS_HDIM': False, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32, 'BLOCK_SIZE_DSTATE': 128, 'IS_TRITON_22': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['x_ptr', 'hdim', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['cb_ptr', 'x_ptr', 'out_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'C_ptr', 'prev_states_ptr', 'D_ptr', 'chunk_size', 'hdim', 'dstate', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_cb_csize_k', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_x_hdim', 'stride_out_batch', 'stride_out_seqlen', 'stride_out_head', 'stride_out_hdim', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dt_csize', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_dA_cs_csize', 'stride_C_batch', 'stride_C_seqlen', 'stride_C_head', 'stride_C_dstate', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim', 'stride_states_dstate', 'stride_D_head', 'IS_CAUSAL', 'HAS_D', 'D_HAS_HDIM', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'BLOCK_SIZE_DSTATE', 'IS_TRITON_22']          # the Triton kernel's parameters, in order
RUNTIME_short = ['cb_ptr', 'x_ptr', 'out_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'C_ptr', 'prev_states_ptr', 'D_ptr', 'chunk_size', 'hdim', 'dstate', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_out_batch', 'stride_out_seqlen', 'stride_out_head', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_C_batch', 'stride_C_seqlen', 'stride_C_head', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['cb_ptr', 'x_ptr', 'out_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'C_ptr', 'prev_states_ptr', 'D_ptr', 'chunk_size', 'hdim', 'dstate', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_out_batch', 'stride_out_seqlen', 'stride_out_head', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_C_batch', 'stride_C_seqlen', 'stride_C_head', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_cb_csize_k': 1, 'stride_x_hdim': 1, 'stride_out_hdim': 1, 'stride_dt_csize': 1, 'stride_dA_cs_csize': 1, 'stride_C_dstate': 1, 'stride_states_dstate': 1, 'stride_D_head': 1, 'IS_CAUSAL': True, 'HAS_D': True, 'D_HAS_HDIM': False, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32, 'BLOCK_SIZE_DSTATE': 128, 'IS_TRITON_22': True}         # the specialisation this kernel was generated for
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


def launch_timed(grid, *args, **kwargs):
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


SHORT_TRIPS = '(chunk_size + 32 - 1) // 32'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
SHORT_LIMIT = 8      # at most this many: the faster of the two, timed (``launch_timed``), else ``launch_long``
SHORT_LIMIT_FULL = 32      # ... or this many where the launch's CTAs outnumber what the SMs hold of the producer's
LONG_CTAS_PER_SM = 2      # (the producer's CTAs an SM; the one partition holds more: run 95); 0: no such rule


def launch(grid, *args, **kwargs):
    """Run the faster of the two where the loop is short at this launch, else the warp-specialized one."""
    bound = dict(zip(ARGUMENTS, args), **CONSTEXPRS)
    bound.update(kwargs)
    try:
        trips = _ev(SHORT_TRIPS, bound)
    except (NameError, TypeError):          # an argument missing or not a number: the long kernel's launch says
        return launch_long(grid, *args, **kwargs)
    limit = SHORT_LIMIT
    if SHORT_LIMIT < trips <= SHORT_LIMIT_FULL:
        try:
            ctas = 1
            for x in (grid(bound) if callable(grid) else grid):
                ctas *= int(x)
            if ctas > _sm_count() * LONG_CTAS_PER_SM:
                limit = SHORT_LIMIT_FULL
        except Exception:                   # noqa: BLE001 - no device to count the SMs of: the lower limit
            pass
    return (launch_timed if trips <= limit else launch_long)(grid, *args, **kwargs)
