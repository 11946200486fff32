"""_chunk_scan_chunk_state_bwd_dx_kernel, written by twill from its joint schedule: I=128 L=168 (optimal), 1080 cycles per iteration predicted.

Decisions (each from the schedule):
- dout_241 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (dout_241): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (112, 48 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- the consumers' pointer loads in their readers' stage, not a stage ahead: the loop's trip count varies between programs, and a third stage would need two iterations of every program (run 101)
- partition 0 (default): consumer, warp group 0, 4 warps, 200 registers per thread (needs about 112): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 48 registers per thread (needs about 48): cp.async copies into the rings
- ring dout_241: 2 buffers of [32, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 8240 bytes planned of 232448; maxnreg 128

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
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L9 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L10 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L11 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(x_ptr, cb_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, D_ptr, b_ptr, dstates_ptr, dx_ptr, ddt_ptr, dD_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_k, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, stride_seq_idx_seqlen, stride_b_batch, stride_b_seqlen, stride_b_head, stride_dstates_batch, stride_dstates_chunk, stride_dstates_head, stride_dstates_hdim, stride_dx_batch, stride_dx_seqlen, stride_dx_head, stride_ddt_batch, stride_ddt_chunk, stride_ddt_head, stride_dD_batch, stride_dD_chunk, stride_dD_head, stride_dD_csize, dout_241_buf, dout_241_ready, dout_241_empty, TWILL_COPY: gl.constexpr):
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
    x_ptr_11 = pid_b_7 * stride_x_batch
    x_ptr_12 = pid_c * chunk_size
    x_ptr_13 = x_ptr_12 * stride_x_seqlen
    x_ptr_14 = x_ptr_11 + x_ptr_13
    x_ptr_15 = pid_h * stride_x_head
    x_ptr_16 = x_ptr_14 + x_ptr_15
    x_ptr_17 = x_ptr + x_ptr_16
    cb_ptr_18 = pid_b_7 * stride_cb_batch
    cb_ptr_19 = pid_c * stride_cb_chunk
    cb_ptr_20 = cb_ptr_18 + cb_ptr_19
    cb_ptr_21 = pid_h // nheads_ngroups_ratio
    cb_ptr_22 = cb_ptr_21 * stride_cb_head
    cb_ptr_23 = cb_ptr_20 + cb_ptr_22
    cb_ptr_24 = cb_ptr + cb_ptr_23
    dout_ptr_25 = pid_b_7 * stride_dout_batch
    dout_ptr_26 = x_ptr_12 * stride_dout_seqlen
    dout_ptr_27 = dout_ptr_25 + dout_ptr_26
    dout_ptr_28 = pid_h * stride_dout_head
    dout_ptr_29 = dout_ptr_27 + dout_ptr_28
    dout_ptr_30 = dout_ptr + dout_ptr_29
    dt_ptr_31 = pid_b_7 * stride_dt_batch
    dt_ptr_32 = pid_c * stride_dt_chunk
    dt_ptr_33 = dt_ptr_31 + dt_ptr_32
    dt_ptr_34 = pid_h * stride_dt_head
    dt_ptr_35 = dt_ptr_33 + dt_ptr_34
    dt_ptr_36 = dt_ptr + dt_ptr_35
    ddt_ptr_37 = pid_b_7 * stride_ddt_batch
    ddt_ptr_38 = pid_c * stride_ddt_chunk
    ddt_ptr_39 = ddt_ptr_37 + ddt_ptr_38
    ddt_ptr_40 = pid_h * stride_ddt_head
    ddt_ptr_41 = ddt_ptr_39 + ddt_ptr_40
    ddt_ptr_42 = ddt_ptr + ddt_ptr_41
    dA_cumsum_ptr_43 = pid_b_7 * stride_dA_cs_batch
    dA_cumsum_ptr_44 = pid_c * stride_dA_cs_chunk
    dA_cumsum_ptr_45 = dA_cumsum_ptr_43 + dA_cumsum_ptr_44
    dA_cumsum_ptr_46 = pid_h * stride_dA_cs_head
    dA_cumsum_ptr_47 = dA_cumsum_ptr_45 + dA_cumsum_ptr_46
    dA_cumsum_ptr_48 = dA_cumsum_ptr + dA_cumsum_ptr_47
    b_ptr_49 = pid_b_7 * stride_b_batch
    b_ptr_50 = x_ptr_12 * stride_b_seqlen
    b_ptr_51 = b_ptr_49 + b_ptr_50
    b_ptr_52 = cb_ptr_21 * stride_b_head
    b_ptr_53 = b_ptr_51 + b_ptr_52
    b_ptr_54 = b_ptr + b_ptr_53
    dstates_ptr_55 = pid_b_7 * stride_dstates_batch
    dstates_ptr_56 = pid_c * stride_dstates_chunk
    dstates_ptr_57 = dstates_ptr_55 + dstates_ptr_56
    dstates_ptr_58 = pid_h * stride_dstates_head
    dstates_ptr_59 = dstates_ptr_57 + dstates_ptr_58
    dstates_ptr_60 = dstates_ptr + dstates_ptr_59
    offs_m = pid_m_10 * 64
    offs_m_61 = gl.arange(0, 64, layout=L0)
    offs_m_62 = gl.arange(0, 64, layout=L1)
    offs_m_63 = gl.arange(0, 64, layout=L2)
    offs_m_64 = gl.arange(0, 64, layout=L3)
    offs_m_65 = gl.arange(0, 64, layout=L4)
    offs_m_66 = gl.arange(0, 64, layout=L5)
    offs_m_67 = gl.arange(0, 64, layout=L6)
    offs_m_73 = offs_m + offs_m_61
    offs_m_74 = offs_m + offs_m_62
    offs_m_75 = offs_m + offs_m_63
    offs_m_76 = offs_m + offs_m_64
    offs_m_77 = offs_m + offs_m_67
    offs_n = pid_n * 64
    offs_n_80 = offs_n + offs_m_65
    offs_n_81 = offs_n + offs_m_66
    chunk_size_limit = seqlen - x_ptr_12
    chunk_size_limit_82 = gl.minimum(chunk_size, chunk_size_limit)
    dA_cs_m_84 = offs_m_74 < chunk_size_limit_82
    dA_cs_m_85 = offs_m_75 < chunk_size_limit_82
    dA_cs_m_88 = dA_cumsum_ptr_48 + offs_m_74
    dA_cs_m_89 = dA_cumsum_ptr_48 + offs_m_75
    dA_cs_m_90 = gl.load(dA_cs_m_88, mask=dA_cs_m_84, other=0.0)
    dA_cs_m_91 = gl.load(dA_cs_m_89, mask=dA_cs_m_85, other=0.0)
    dA_cs_last = chunk_size - 1
    dA_cs_last_92 = dA_cumsum_ptr_48 + dA_cs_last
    dA_cs_last_93 = gl.load(dA_cs_last_92)
    scale_94 = dA_cs_last_93 - dA_cs_m_90
    scale_95 = gl.exp(scale_94)
    b_ptrs = gl.expand_dims(offs_m_73, 1)
    b_ptrs_96 = gl.expand_dims(offs_m_75, 1)
    b_ptrs_97 = gl.expand_dims(offs_m_76, 1)
    b_ptrs_99 = b_ptrs * stride_b_seqlen
    b_ptrs_100 = gl.arange(0, 128, layout=L7)
    b_ptrs_101 = gl.expand_dims(b_ptrs_100, 0)
    b_ptrs_102 = b_ptrs_99.broadcast_to([64, 128])
    b_ptrs_103 = b_ptrs_101.broadcast_to([64, 128])
    b_ptrs_104 = b_ptrs_102 + b_ptrs_103
    b_ptrs_106 = b_ptr_54 + b_ptrs_104
    dstates_ptrs = gl.expand_dims(offs_n_80, 0)
    dstates_ptrs_107 = gl.expand_dims(offs_n_81, 0)
    dstates_ptrs_109 = dstates_ptrs * stride_dstates_hdim
    dstates_ptrs_110 = gl.arange(0, 128, layout=L8)
    dstates_ptrs_111 = gl.expand_dims(dstates_ptrs_110, 1)
    dstates_ptrs_112 = dstates_ptrs_109.broadcast_to([128, 64])
    dstates_ptrs_113 = dstates_ptrs_111.broadcast_to([128, 64])
    dstates_ptrs_114 = dstates_ptrs_112 + dstates_ptrs_113
    dstates_ptrs_116 = dstates_ptr_60 + dstates_ptrs_114
    b_119 = b_ptrs < chunk_size_limit_82
    b_120 = b_ptrs_97 < chunk_size_limit_82
    b_122 = b_ptrs_101 < dstate
    b_123 = b_119.broadcast_to([64, 128])
    b_124 = b_122.broadcast_to([64, 128])
    b_125 = b_123 & b_124
    b_126 = gl.load(b_ptrs_106, mask=b_125, other=0.0)
    b_127 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_126)
    fence_async_shared()
    dstates_129 = dstates_ptrs_111 < dstate
    dstates_132 = dstates_ptrs < hdim
    dstates_133 = dstates_ptrs_107 < hdim
    dstates_134 = dstates_129.broadcast_to([128, 64])
    dstates_135 = dstates_132.broadcast_to([128, 64])
    dstates_136 = dstates_134 & dstates_135
    dstates_137 = gl.load(dstates_ptrs_116, mask=dstates_136, other=0.0)
    dstates_138 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), dstates_137)
    fence_async_shared()
    acc = warpgroup_mma(b_127, dstates_138, gl.full([64, 64], 0.0, gl.float32, layout=L9))
    acc_139 = gl.expand_dims(scale_95, 1)
    acc_140 = acc_139.broadcast_to([64, 64])
    acc_141 = acc * acc_140
    offs_k = gl.arange(0, 32, layout=L10)
    cb_ptrs = gl.expand_dims(offs_k, 0)
    cb_ptrs_143 = cb_ptrs * stride_cb_csize_k
    cb_ptrs_144 = b_ptrs_96.broadcast_to([64, 32])
    cb_ptrs_145 = cb_ptrs_143.broadcast_to([64, 32])
    cb_ptrs_146 = cb_ptrs_144 + cb_ptrs_145
    cb_ptrs_148 = cb_ptr_24 + cb_ptrs_146
    dout_ptrs = gl.arange(0, 32, layout=L3)
    dout_ptrs_149 = gl.expand_dims(dout_ptrs, 1)
    dout_ptrs_151 = dout_ptrs_149 * stride_dout_seqlen
    dout_ptrs_152 = dout_ptrs_151.broadcast_to([32, 64])
    dout_ptrs_153 = dstates_ptrs_107.broadcast_to([32, 64])
    dout_ptrs_154 = dout_ptrs_152 + dout_ptrs_153
    dout_ptrs_156 = dout_ptr_30 + dout_ptrs_154
    dA_cumsum_ptrs_157 = dA_cumsum_ptr_48 + offs_k
    cb_ptrs_158 = offs_m * stride_cb_csize_k
    cb_ptrs_160 = cb_ptrs_148 + cb_ptrs_158
    dout_ptrs_161 = offs_m * stride_dout_seqlen
    dout_ptrs_163 = dout_ptrs_156 + dout_ptrs_161
    dA_cumsum_ptrs_165 = dA_cumsum_ptrs_157 + offs_m
    cb_166 = b_ptrs_96 < chunk_size
    cb_167 = cb_166.broadcast_to([64, 32])
    dout = dstates_133.broadcast_to([32, 64])
    cb_168 = gl.expand_dims(dA_cs_m_91, 1)
    cb_169 = cb_168.broadcast_to([64, 32])
    cb_ptrs_170 = stride_cb_csize_k * 32
    twill_n = gl.maximum((chunk_size_limit_82 - offs_m + 32 - 1) // 32, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        dA_cumsum_ptrs_263 = dA_cumsum_ptrs_165
        dA_cumsum_ptrs_263_p1 = dA_cumsum_ptrs_263
        acc_260 = acc_141
        cb_ptrs_261 = cb_ptrs_160
        cb_231 = chunk_size_limit_82 - (offs_m + (0 - 0) * 32)  # elementwise0_cb: stage 0, partition 0 (group 0)
        dout_237 = cb_231  # elementwise1_dout: stage 0, partition 0 (group 0)
        dout_238 = dout_ptrs_149 < dout_237  # elementwise1_dout: stage 0, partition 0 (group 0)
        dout_239 = dout_238.broadcast_to([32, 64])  # elementwise1_dout: stage 0, partition 0 (group 0)
        dout_240 = dout_239 & dout  # elementwise1_dout: stage 0, partition 0 (group 0)
        dA_cs_k = cb_231  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_243 = offs_k < dA_cs_k  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cumsum_ptrs_263 = dA_cumsum_ptrs_263_p1 + 32  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_244 = gl.load(dA_cumsum_ptrs_263_p1, mask=dA_cs_k_243, other=0.0)  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        cb_245 = gl.expand_dims(dA_cs_k_244, 0)  # sfu0_cb: stage 0, partition 0 (group 0)
        cb_246 = cb_245.broadcast_to([64, 32])  # sfu0_cb: stage 0, partition 0 (group 0)
        cb_247 = cb_246 - cb_169  # sfu0_cb: stage 0, partition 0 (group 0)
        cb_248 = gl.exp(cb_247)  # sfu0_cb: stage 0, partition 0 (group 0)
        cb_232 = cb_231  # elementwise0_cb: stage 0, partition 0 (group 0)
        cb_233 = cb_ptrs < cb_232  # elementwise0_cb: stage 0, partition 0 (group 0)
        cb_234 = cb_233.broadcast_to([64, 32])  # elementwise0_cb: stage 0, partition 0 (group 0)
        cb_235 = cb_167 & cb_234  # elementwise0_cb: stage 0, partition 0 (group 0)
        acc_260_p1 = acc_260
        cb_235_p1 = cb_235
        cb_248_p1 = cb_248
        cb_ptrs_261_p1 = cb_ptrs_261
        dA_cumsum_ptrs_263_p1 = dA_cumsum_ptrs_263
        for twill_b in range(1, twill_n):
            cb_231 = chunk_size_limit_82 - (offs_m + (twill_b - 0) * 32)  # elementwise0_cb: stage 0, partition 0 (group 0)
            dout_237 = cb_231  # elementwise1_dout: stage 0, partition 0 (group 0)
            dout_238 = dout_ptrs_149 < dout_237  # elementwise1_dout: stage 0, partition 0 (group 0)
            dout_239 = dout_238.broadcast_to([32, 64])  # elementwise1_dout: stage 0, partition 0 (group 0)
            dout_240 = dout_239 & dout  # elementwise1_dout: stage 0, partition 0 (group 0)
            dA_cs_k = cb_231  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cs_k_243 = offs_k < dA_cs_k  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cumsum_ptrs_263 = dA_cumsum_ptrs_263_p1 + 32  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cs_k_244 = gl.load(dA_cumsum_ptrs_263_p1, mask=dA_cs_k_243, other=0.0)  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            cb_245 = gl.expand_dims(dA_cs_k_244, 0)  # sfu0_cb: stage 0, partition 0 (group 0)
            cb_246 = cb_245.broadcast_to([64, 32])  # sfu0_cb: stage 0, partition 0 (group 0)
            cb_247 = cb_246 - cb_169  # sfu0_cb: stage 0, partition 0 (group 0)
            cb_248 = gl.exp(cb_247)  # sfu0_cb: stage 0, partition 0 (group 0)
            cb_232 = cb_231  # elementwise0_cb: stage 0, partition 0 (group 0)
            cb_233 = cb_ptrs < cb_232  # elementwise0_cb: stage 0, partition 0 (group 0)
            cb_234 = cb_233.broadcast_to([64, 32])  # elementwise0_cb: stage 0, partition 0 (group 0)
            cb_235 = cb_167 & cb_234  # elementwise0_cb: stage 0, partition 0 (group 0)
            cb_ptrs_261 = cb_ptrs_261_p1 + cb_ptrs_170  # load0_cb: stage 1, partition 0 (group 0)
            cb_236 = gl.load(cb_ptrs_261_p1, mask=cb_235_p1, other=0.0)  # load0_cb: stage 1, partition 0 (group 0)
            cb_249 = cb_236 * cb_248_p1  # elementwise2_cb: stage 1, partition 0 (group 0)
            mask_250 = (offs_m + (twill_b - 1) * 32)  # elementwise2_cb: stage 1, partition 0 (group 0)
            mask_251 = mask_250 + cb_ptrs  # elementwise2_cb: stage 1, partition 0 (group 0)
            mask_252 = mask_251.broadcast_to([64, 32])  # elementwise2_cb: stage 1, partition 0 (group 0)
            mask_253 = mask_252 >= cb_ptrs_144  # elementwise2_cb: stage 1, partition 0 (group 0)
            mask_254 = mask_251 < chunk_size_limit_82  # elementwise2_cb: stage 1, partition 0 (group 0)
            mask_255 = mask_254.broadcast_to([64, 32])  # elementwise2_cb: stage 1, partition 0 (group 0)
            mask_256 = mask_253 & mask_255  # elementwise2_cb: stage 1, partition 0 (group 0)
            cb_257 = gl.where(mask_256, cb_249, 0.0)  # elementwise2_cb: stage 1, partition 0 (group 0)
            cb_258 = cb_257.to(gl.float16)  # convert0_cb: stage 1, partition 0 (group 0)
            cb_259 = gl.convert_layout(cb_258, L11)  # convert0_cb: stage 1, partition 0 (group 0)
            mbarrier.wait(dout_241_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_260 = warpgroup_mma(cb_259, dout_241_buf.index((twill_b - 1) % 2), acc_260_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            acc_260 = warpgroup_mma_wait(0, deps=(tok_acc_260,))
            mbarrier.arrive(dout_241_empty.index((twill_b - 1) % 2))
            acc_260_p1 = acc_260
            cb_235_p1 = cb_235
            cb_248_p1 = cb_248
            cb_ptrs_261_p1 = cb_ptrs_261
            dA_cumsum_ptrs_263_p1 = dA_cumsum_ptrs_263
        cb_ptrs_261 = cb_ptrs_261_p1 + cb_ptrs_170  # load0_cb: stage 1, partition 0 (group 0)
        cb_236 = gl.load(cb_ptrs_261_p1, mask=cb_235_p1, other=0.0)  # load0_cb: stage 1, partition 0 (group 0)
        cb_249 = cb_236 * cb_248_p1  # elementwise2_cb: stage 1, partition 0 (group 0)
        mask_250 = (offs_m + ((twill_n - 1 + 1) - 1) * 32)  # elementwise2_cb: stage 1, partition 0 (group 0)
        mask_251 = mask_250 + cb_ptrs  # elementwise2_cb: stage 1, partition 0 (group 0)
        mask_252 = mask_251.broadcast_to([64, 32])  # elementwise2_cb: stage 1, partition 0 (group 0)
        mask_253 = mask_252 >= cb_ptrs_144  # elementwise2_cb: stage 1, partition 0 (group 0)
        mask_254 = mask_251 < chunk_size_limit_82  # elementwise2_cb: stage 1, partition 0 (group 0)
        mask_255 = mask_254.broadcast_to([64, 32])  # elementwise2_cb: stage 1, partition 0 (group 0)
        mask_256 = mask_253 & mask_255  # elementwise2_cb: stage 1, partition 0 (group 0)
        cb_257 = gl.where(mask_256, cb_249, 0.0)  # elementwise2_cb: stage 1, partition 0 (group 0)
        cb_258 = cb_257.to(gl.float16)  # convert0_cb: stage 1, partition 0 (group 0)
        cb_259 = gl.convert_layout(cb_258, L11)  # convert0_cb: stage 1, partition 0 (group 0)
        mbarrier.wait(dout_241_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_acc_260 = warpgroup_mma(cb_259, dout_241_buf.index(((twill_n - 1 + 1) - 1) % 2), acc_260_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        acc_260 = warpgroup_mma_wait(0, deps=(tok_acc_260,))
        mbarrier.arrive(dout_241_empty.index(((twill_n - 1 + 1) - 1) % 2))
        acc_260_p1 = acc_260
        cb_235_p1 = cb_235
        cb_248_p1 = cb_248
        cb_ptrs_261_p1 = cb_ptrs_261
        dA_cumsum_ptrs_263_p2 = dA_cumsum_ptrs_263_p1
        dA_cumsum_ptrs_263_p1 = dA_cumsum_ptrs_263
        dout_241_buf._keep_alive()
    else:
        acc_260_p1 = acc_141
        cb_ptrs_261_p1 = cb_ptrs_160
        dA_cumsum_ptrs_263_p2 = dA_cumsum_ptrs_165
    dt_ptrs_175 = dt_ptr_36 + offs_m_74
    dt_m = gl.load(dt_ptrs_175, mask=dA_cs_m_84, other=0.0)
    dx = gl.expand_dims(dt_m, 1)
    dx_176 = dx.broadcast_to([64, 64])
    dx_177 = acc_260_p1 * dx_176
    dx_ptr_178 = pid_b_7 * stride_dx_batch
    dx_ptr_179 = x_ptr_12 * stride_dx_seqlen
    dx_ptr_180 = dx_ptr_178 + dx_ptr_179
    dx_ptr_181 = pid_h * stride_dx_head
    dx_ptr_182 = dx_ptr_180 + dx_ptr_181
    dx_ptr_183 = dx_ptr + dx_ptr_182
    dx_ptrs_184 = b_ptrs_97 * stride_dx_seqlen
    dx_ptrs_185 = dx_ptrs_184.broadcast_to([64, 64])
    dx_ptrs_186 = dstates_ptrs_107.broadcast_to([64, 64])
    dx_ptrs_187 = dx_ptrs_185 + dx_ptrs_186
    dx_ptrs_189 = dx_ptr_183 + dx_ptrs_187
    dout_res_ptrs_190 = b_ptrs_97 * stride_dout_seqlen
    dout_res_ptrs_191 = dout_res_ptrs_190.broadcast_to([64, 64])
    dout_res_ptrs_192 = dout_res_ptrs_191 + dx_ptrs_186
    dout_res_ptrs_194 = dout_ptr_30 + dout_res_ptrs_192
    dout_res = b_120.broadcast_to([64, 64])
    dout_res_195 = dstates_133.broadcast_to([64, 64])
    dout_res_196 = dout_res & dout_res_195
    dout_res_197 = gl.load(dout_res_ptrs_194, mask=dout_res_196, other=0.0)
    dx_198 = gl.convert_layout(dout_res_197, L9)
    dout_res_199 = dx_198.to(gl.float32)
    dout_res_200 = dout_res_197.to(gl.float32)
    D = D_ptr + pid_h
    D_201 = gl.load(D)
    dx_203 = dout_res_199 * D_201
    dx_204 = dx_177 + dx_203
    v0 = dx_204.to(gl.float16)
    v1 = gl.convert_layout(v0, L12)
    gl.store(dx_ptrs_189, v1, mask=dout_res_196)
    x_ptrs_205 = b_ptrs_97 * stride_x_seqlen
    x_ptrs_206 = x_ptrs_205.broadcast_to([64, 64])
    x_ptrs_207 = x_ptrs_206 + dx_ptrs_186
    x_ptrs_209 = x_ptr_17 + x_ptrs_207
    x = gl.load(x_ptrs_209, mask=dout_res_196, other=0.0)
    x_210 = gl.convert_layout(x, L9)
    x_211 = x_210.to(gl.float32)
    x_212 = x.to(gl.float32)
    dD_ptr_213 = pid_b_7 * stride_dD_batch
    dD_ptr_214 = pid_c * stride_dD_chunk
    dD_ptr_215 = dD_ptr_213 + dD_ptr_214
    dD_ptr_216 = pid_h * stride_dD_head
    dD_ptr_217 = dD_ptr_215 + dD_ptr_216
    dD_ptr_218 = pid_m_10 * stride_dD_csize
    dD_ptr_219 = dD_ptr_217 + dD_ptr_218
    dD_ptr_220 = dD_ptr + dD_ptr_219
    dD = dout_res_200 * x_212
    dD_221 = gl.convert_layout(gl.reshape(dD, [4096]), L6)
    dD_222 = gl.sum(dD_221, axis=0)
    gl.store(dD_ptr_220, dD_222)
    ddt = acc_260_p1 * x_211
    ddt_223 = gl.convert_layout(ddt, L12)
    ddt_224 = gl.sum(ddt_223, axis=1)
    ddt_ptrs_225 = ddt_ptr_42 + offs_m_77
    v3 = offs_m_77 < chunk_size
    v4 = gl.convert_layout(ddt_224, L6)
    v5 = gl.atomic_add(ddt_ptrs_225, v4, mask=v3, sem='acq_rel', scope='gpu')

@gluon.jit
def producer_1(x_ptr, cb_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, D_ptr, b_ptr, dstates_ptr, dx_ptr, ddt_ptr, dD_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_k, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, stride_seq_idx_seqlen, stride_b_batch, stride_b_seqlen, stride_b_head, stride_dstates_batch, stride_dstates_chunk, stride_dstates_head, stride_dstates_hdim, stride_dx_batch, stride_dx_seqlen, stride_dx_head, stride_ddt_batch, stride_ddt_chunk, stride_ddt_head, stride_dD_batch, stride_dD_chunk, stride_dD_head, stride_dD_csize, dout_241_buf, dout_241_ready, dout_241_empty, TWILL_COPY: gl.constexpr):
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
    x_ptr_12 = pid_c * chunk_size
    dout_ptr_25 = pid_b_7 * stride_dout_batch
    dout_ptr_26 = x_ptr_12 * stride_dout_seqlen
    dout_ptr_27 = dout_ptr_25 + dout_ptr_26
    dout_ptr_28 = pid_h * stride_dout_head
    dout_ptr_29 = dout_ptr_27 + dout_ptr_28
    dout_ptr_30 = dout_ptr + dout_ptr_29
    offs_m = pid_m_10 * 64
    offs_m_66 = gl.arange(0, 64, layout=L5)
    offs_n = pid_n * 64
    offs_n_81 = offs_n + offs_m_66
    chunk_size_limit = seqlen - x_ptr_12
    chunk_size_limit_82 = gl.minimum(chunk_size, chunk_size_limit)
    dstates_ptrs_107 = gl.expand_dims(offs_n_81, 0)
    dstates_133 = dstates_ptrs_107 < hdim
    dout_ptrs = gl.arange(0, 32, layout=L3)
    dout_ptrs_149 = gl.expand_dims(dout_ptrs, 1)
    dout_ptrs_151 = dout_ptrs_149 * stride_dout_seqlen
    dout_ptrs_152 = dout_ptrs_151.broadcast_to([32, 64])
    dout_ptrs_153 = dstates_ptrs_107.broadcast_to([32, 64])
    dout_ptrs_154 = dout_ptrs_152 + dout_ptrs_153
    dout_ptrs_156 = dout_ptr_30 + dout_ptrs_154
    dout_ptrs_161 = offs_m * stride_dout_seqlen
    dout_ptrs_163 = dout_ptrs_156 + dout_ptrs_161
    dout = dstates_133.broadcast_to([32, 64])
    dout_ptrs_172 = stride_dout_seqlen * 32
    dout_ptrs_229 = dout_ptrs_163
    for dA_cumsum_ptrs_226 in range(offs_m, chunk_size_limit_82, 32):
        twill_k = (dA_cumsum_ptrs_226 - offs_m) // 32
        cb_231 = chunk_size_limit_82 - dA_cumsum_ptrs_226
        dout_238 = dout_ptrs_149 < cb_231
        dout_239 = dout_238.broadcast_to([32, 64])
        dout_240 = dout_239 & dout
        dout_ptrs_262 = dout_ptrs_229 + dout_ptrs_172
        mbarrier.wait(dout_241_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(dout_241_buf.index(twill_k % 2), dout_ptrs_229, mask=dout_240)  # load1_dout: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(dout_241_ready.index(twill_k % 2), increment_count=False)
        else:
            dout_241_buf.index(twill_k % 2).store(gl.load(dout_ptrs_229, mask=dout_240, other=0.0))  # load1_dout: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(dout_241_ready.index(twill_k % 2), count=128)
        dout_ptrs_229 = dout_ptrs_262

@gluon.jit
def twill_kernel(x_ptr, cb_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, D_ptr, b_ptr, dstates_ptr, dx_ptr, ddt_ptr, dD_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_k, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, stride_seq_idx_seqlen, stride_b_batch, stride_b_seqlen, stride_b_head, stride_dstates_batch, stride_dstates_chunk, stride_dstates_head, stride_dstates_hdim, stride_dx_batch, stride_dx_seqlen, stride_dx_head, stride_ddt_batch, stride_ddt_chunk, stride_ddt_head, stride_dD_batch, stride_dD_chunk, stride_dD_head, stride_dD_csize, TWILL_COPY: gl.constexpr):
    dout_241_buf = gl.allocate_shared_memory(gl.float16, [2, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    dout_241_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(dout_241_ready.index(i), count=128)
    dout_241_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(dout_241_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, cb_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, D_ptr, b_ptr, dstates_ptr, dx_ptr, ddt_ptr, dD_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_k, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, stride_seq_idx_seqlen, stride_b_batch, stride_b_seqlen, stride_b_head, stride_dstates_batch, stride_dstates_chunk, stride_dstates_head, stride_dstates_hdim, stride_dx_batch, stride_dx_seqlen, stride_dx_head, stride_ddt_batch, stride_ddt_chunk, stride_ddt_head, stride_dD_batch, stride_dD_chunk, stride_dD_head, stride_dD_csize, dout_241_buf, dout_241_ready, dout_241_empty, TWILL_COPY)),
        (producer_1, (x_ptr, cb_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, D_ptr, b_ptr, dstates_ptr, dx_ptr, ddt_ptr, dD_ptr, chunk_size, hdim, dstate, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_k, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, stride_seq_idx_seqlen, stride_b_batch, stride_b_seqlen, stride_b_head, stride_dstates_batch, stride_dstates_chunk, stride_dstates_head, stride_dstates_hdim, stride_dx_batch, stride_dx_seqlen, stride_dx_head, stride_ddt_batch, stride_ddt_chunk, stride_ddt_head, stride_dD_batch, stride_dD_chunk, stride_dD_head, stride_dD_csize, dout_241_buf, dout_241_ready, dout_241_empty, TWILL_COPY)),
    ], [4], [48])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'cb_ptr', 'dout_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'seq_idx_ptr', 'D_ptr', 'b_ptr', 'dstates_ptr', 'dx_ptr', 'ddt_ptr', 'dD_ptr', 'chunk_size', 'hdim', 'dstate', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_x_hdim', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_cb_csize_k', 'stride_dout_batch', 'stride_dout_seqlen', 'stride_dout_head', 'stride_dout_hdim', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dt_csize', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_dA_cs_csize', 'stride_seq_idx_batch', 'stride_seq_idx_seqlen', 'stride_D_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_b_dstate', 'stride_dstates_batch', 'stride_dstates_chunk', 'stride_dstates_head', 'stride_dstates_hdim', 'stride_dstates_dstate', 'stride_dx_batch', 'stride_dx_seqlen', 'stride_dx_head', 'stride_dx_hdim', 'stride_ddt_batch', 'stride_ddt_chunk', 'stride_ddt_head', 'stride_ddt_csize', 'stride_dD_batch', 'stride_dD_chunk', 'stride_dD_head', 'stride_dD_csize', 'stride_dD_hdim', 'HAS_D', 'D_HAS_HDIM', 'HAS_SEQ_IDX', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'BLOCK_SIZE_DSTATE', 'IS_TRITON_22']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'cb_ptr', 'dout_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'D_ptr', 'b_ptr', 'dstates_ptr', 'dx_ptr', 'ddt_ptr', 'dD_ptr', 'chunk_size', 'hdim', 'dstate', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_k', 'stride_dout_batch', 'stride_dout_seqlen', 'stride_dout_head', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_seq_idx_batch', 'stride_seq_idx_seqlen', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_dstates_batch', 'stride_dstates_chunk', 'stride_dstates_head', 'stride_dstates_hdim', 'stride_dx_batch', 'stride_dx_seqlen', 'stride_dx_head', 'stride_ddt_batch', 'stride_ddt_chunk', 'stride_ddt_head', 'stride_dD_batch', 'stride_dD_chunk', 'stride_dD_head', 'stride_dD_csize']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'cb_ptr', 'dout_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'seq_idx_ptr', 'D_ptr', 'b_ptr', 'dstates_ptr', 'dx_ptr', 'ddt_ptr', 'dD_ptr', 'chunk_size', 'hdim', 'dstate', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_k', 'stride_dout_batch', 'stride_dout_seqlen', 'stride_dout_head', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_seq_idx_batch', 'stride_seq_idx_seqlen', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_dstates_batch', 'stride_dstates_chunk', 'stride_dstates_head', 'stride_dstates_hdim', 'stride_dx_batch', 'stride_dx_seqlen', 'stride_dx_head', 'stride_ddt_batch', 'stride_ddt_chunk', 'stride_ddt_head', 'stride_dD_batch', 'stride_dD_chunk', 'stride_dD_head', 'stride_dD_csize']   # the arguments a launch key reads
CONSTEXPRS = {'stride_x_hdim': 1, 'stride_cb_csize_m': 1, 'stride_dout_hdim': 1, 'stride_dt_csize': 1, 'stride_dA_cs_csize': 1, 'stride_D_head': 1, 'stride_b_dstate': 1, 'stride_dstates_dstate': 1, 'stride_dx_hdim': 1, 'stride_ddt_csize': 1, 'stride_dD_hdim': 1, 'HAS_D': True, 'D_HAS_HDIM': False, 'HAS_SEQ_IDX': False, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32, 'BLOCK_SIZE_DSTATE': 128, 'IS_TRITON_22': True}         # the specialisation this kernel was generated for
ZERO_BEFORE = ['ddt_ptr']   # the autotune config's pre_hook: these arguments zeroed before each launch
PRE_HOOK = None   # a pre_hook the launcher cannot run (refused)
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['dout_ptr', 'hdim', 'stride_dout_batch', 'stride_dout_seqlen', 'stride_dout_head']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    if PRE_HOOK:        # Triton's autotuner runs it before every launch; this launcher cannot
        raise ValueError(f"twill: the kernel's autotune config runs pre_hook={PRE_HOOK} before each launch, which "
                         "this generated launcher cannot run; run it yourself and call the kernel without it")
    for n in ZERO_BEFORE:   # the config's pre_hook (``init_to_zero``): Triton's autotuner zeroes them every launch
        if bound.get(n) is not None:
            bound[n].zero_()
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
