"""chunk_fwd_kernel_h, written by twill from its joint schedule: I=226 L=380 (optimal), 1239 cycles per iteration predicted.

Decisions (each from the schedule):
- b_k_112 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- pointer-loaded tiles copied by a 4-warp producer with cp.async (b_k_112): their addresses and masks spread over 128 threads
- register-read pointer tiles copied by their consumer with cp.async (b_v_124_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- two CTAs per SM: the partitions' registers (113, 56 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 192 registers per thread (needs about 113): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring b_k_112: 2 buffers of [64, 64] bf16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared operand b_v_150_st: partition 0 stores the loop's [64, 64] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 49200 bytes planned of 232448; maxnreg 128
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 2 each of the producer's (((T + 63) // 64), from the launch's arguments), the launch runs the faster, timed on each launch key's first launch (run 156: one partition in 3 CTAs an SM against the producer's 2 ran x0.64-0.95 on three fp16 GEMMs and x1.09-1.18 on a tf32 one at 8-32 iterations; nothing in the schedule tells them apart), of this kernel and the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 153 registers, clean, 3 CTA(s) an SM against the producer's 2; simulated for 0, 1, 2, 3, 4, 9 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(k, v, h, g, h0, ht, cu_seqlens, chunk_offsets, T, b_k_112_buf, b_v_124_as, b_v_150_st, b_k_112_ready, b_k_112_empty, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    v5 = v3 * T
    NT_14 = T + 63
    NT_15 = NT_14 // 64
    boh = v3 * NT_15
    p_h0 = v2 * 16384
    p_h0_16 = h0 + p_h0
    p_h0_17 = v0 * 64
    p_h0_18 = v1 * 64
    p_h0_19 = gl.cast(p_h0_17, gl.int64)
    p_h0_20 = gl.cast(p_h0_18, gl.int64)
    b_h_24 = gl.arange(0, 64, layout=L0)
    b_h_25 = gl.arange(0, 64, layout=L1)
    b_h_26 = gl.arange(0, 64, layout=L2)
    b_h_27 = gl.arange(0, 64, layout=L3)
    b_h_28 = gl.arange(0, 64, layout=L4)
    b_h_29 = gl.arange(0, 64, layout=L5)
    b_h_30 = b_h_24.to(gl.int64)
    b_h_31 = b_h_25.to(gl.int64)
    b_h_32 = b_h_26.to(gl.int64)
    b_h_33 = b_h_27.to(gl.int64)
    b_h_34 = b_h_28.to(gl.int64)
    b_h_35 = b_h_29.to(gl.int64)
    b_h_36 = p_h0_19 + b_h_30
    b_h_37 = p_h0_19 + b_h_31
    b_h_38 = p_h0_19 + b_h_32
    b_h_39 = gl.expand_dims(b_h_36, 1)
    b_h_40 = gl.expand_dims(b_h_37, 1)
    b_h_41 = gl.expand_dims(b_h_38, 1)
    b_h_42 = b_h_39 * 128
    b_h_43 = b_h_41 * 128
    b_h_44 = b_h_42.broadcast_to([64, 64])
    b_h_45 = b_h_43.broadcast_to([64, 64])
    b_h_48 = p_h0_20 + b_h_33
    b_h_49 = p_h0_20 + b_h_35
    b_h_50 = gl.expand_dims(b_h_48, 0)
    b_h_51 = gl.expand_dims(b_h_49, 0)
    b_h_52 = b_h_50.broadcast_to([64, 64])
    b_h_53 = b_h_51.broadcast_to([64, 64])
    b_h_54 = b_h_44 + b_h_52
    b_h_55 = b_h_45 + b_h_53
    b_h_56 = p_h0_16 + b_h_54
    b_h_57 = b_h_39 >= 0
    b_h_58 = b_h_40 >= 0
    b_h_59 = b_h_41 >= 0
    b_h_60 = b_h_39 < 128
    b_h_61 = b_h_40 < 128
    b_h_62 = b_h_41 < 128
    b_h_63 = b_h_57 & b_h_60
    b_h_64 = b_h_58 & b_h_61
    b_h_65 = b_h_59 & b_h_62
    b_h_66 = b_h_63.broadcast_to([64, 64])
    b_h_67 = b_h_64.broadcast_to([64, 64])
    b_h_68 = b_h_65.broadcast_to([64, 64])
    b_h_69 = b_h_50 >= 0
    b_h_70 = b_h_51 >= 0
    b_h_71 = b_h_50 < 128
    b_h_72 = b_h_51 < 128
    b_h_73 = b_h_69 & b_h_71
    b_h_74 = b_h_70 & b_h_72
    b_h_75 = b_h_73.broadcast_to([64, 64])
    b_h_76 = b_h_74.broadcast_to([64, 64])
    b_h_77 = b_h_66 & b_h_75
    b_h_78 = b_h_68 & b_h_76
    b_h_79 = gl.load(b_h_56, mask=b_h_77)
    b_h_80 = gl.convert_layout(b_h_79, L6)
    p_k = v5 * 4
    p_k_81 = p_k + v4
    p_k_82 = p_k_81 * 128
    p_k_84 = gl.cast(T, gl.int64)
    p_v = v + p_k_82
    b_g_last = g + p_k
    twill_n = (NT_15 - 0 + 1 - 1) // 1
    last_idx = (0 + (0 - 0) * 1) + 1  # load2_b_g_last: stage 0, partition 0 (group 0)
    last_idx_125 = last_idx * 64  # load2_b_g_last: stage 0, partition 0 (group 0)
    last_idx_126 = gl.minimum(last_idx_125, T)  # load2_b_g_last: stage 0, partition 0 (group 0)
    last_idx_127 = last_idx_126 - 1  # load2_b_g_last: stage 0, partition 0 (group 0)
    b_g_last_128 = last_idx_127 * 4  # load2_b_g_last: stage 0, partition 0 (group 0)
    b_g_last_129 = b_g_last + b_g_last_128  # load2_b_g_last: stage 0, partition 0 (group 0)
    b_g_last_130 = b_g_last_129 + v4  # load2_b_g_last: stage 0, partition 0 (group 0)
    b_g_last_131 = gl.load(b_g_last_130)  # load2_b_g_last: stage 0, partition 0 (group 0)
    p_k_92 = (0 + (0 - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
    p_g_132 = p_k_92  # load3_b_g: stage 0, partition 0 (group 0)
    p_g_133 = p_g_132 + b_h_24  # load3_b_g: stage 0, partition 0 (group 0)
    p_g_134 = p_g_133 * 4  # load3_b_g: stage 0, partition 0 (group 0)
    p_g_135 = b_g_last + p_g_134  # load3_b_g: stage 0, partition 0 (group 0)
    p_g_136 = p_g_135 + v4  # load3_b_g: stage 0, partition 0 (group 0)
    b_g_140 = p_g_133 < T  # load3_b_g: stage 0, partition 0 (group 0)
    b_g_141 = gl.load(p_g_136, mask=b_g_140, other=0.0)  # load3_b_g: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    b_g_141_p1 = b_g_141
    b_g_last_131_p1 = b_g_last_131
    p_k_92_p1 = p_k_92
    b_h_151 = b_h_80
    p_k_93 = gl.cast(p_k_92_p1, gl.int64)  # load0_b_k: stage 1, partition 0 (group 0)
    b_k_99 = p_k_93  # load1_b_v: stage 1, partition 0 (group 0)
    b_k_101 = b_k_99 + b_h_30  # load1_b_v: stage 1, partition 0 (group 0)
    b_v_114 = gl.expand_dims(b_k_101, 1)  # load1_b_v: stage 1, partition 0 (group 0)
    b_v_119 = b_v_114 >= 0  # elementwise2_b_v: stage 1, partition 0 (group 0)
    b_v_120 = b_v_114 < p_k_84  # elementwise2_b_v: stage 1, partition 0 (group 0)
    b_v_121 = b_v_119 & b_v_120  # elementwise2_b_v: stage 1, partition 0 (group 0)
    b_v_122 = b_v_121.broadcast_to([64, 64])  # elementwise3_b_v: stage 1, partition 0 (group 0)
    b_v_123 = b_v_122 & b_h_75  # elementwise3_b_v: stage 1, partition 0 (group 0)
    b_k_98 = p_k_93  # load0_b_k: stage 1, partition 0 (group 0)
    b_k_100 = b_k_98 + b_h_34  # load0_b_k: stage 1, partition 0 (group 0)
    b_k_102 = gl.expand_dims(b_k_100, 0)  # load0_b_k: stage 1, partition 0 (group 0)
    b_k_107 = b_k_102 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
    b_k_108 = b_k_102 < p_k_84  # elementwise0_b_k: stage 1, partition 0 (group 0)
    b_k_109 = b_k_107 & b_k_108  # elementwise0_b_k: stage 1, partition 0 (group 0)
    last_idx = (0 + (1 - 0) * 1) + 1  # load2_b_g_last: stage 0, partition 0 (group 0)
    last_idx_125 = last_idx * 64  # load2_b_g_last: stage 0, partition 0 (group 0)
    last_idx_126 = gl.minimum(last_idx_125, T)  # load2_b_g_last: stage 0, partition 0 (group 0)
    last_idx_127 = last_idx_126 - 1  # load2_b_g_last: stage 0, partition 0 (group 0)
    b_g_last_128 = last_idx_127 * 4  # load2_b_g_last: stage 0, partition 0 (group 0)
    b_g_last_129 = b_g_last + b_g_last_128  # load2_b_g_last: stage 0, partition 0 (group 0)
    b_g_last_130 = b_g_last_129 + v4  # load2_b_g_last: stage 0, partition 0 (group 0)
    b_g_last_131 = gl.load(b_g_last_130)  # load2_b_g_last: stage 0, partition 0 (group 0)
    b_h_137 = gl.exp(b_g_last_131_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
    b_k_110 = b_k_109.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
    b_k_111 = b_h_67 & b_k_110  # elementwise1_b_k: stage 1, partition 0 (group 0)
    b_v_115 = b_v_114 * 512  # load1_b_v: stage 1, partition 0 (group 0)
    b_v_116 = b_v_115.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
    b_v_117 = b_v_116 + b_h_52  # load1_b_v: stage 1, partition 0 (group 0)
    b_v_118 = p_v + b_v_117  # load1_b_v: stage 1, partition 0 (group 0)
    if TWILL_COPY:  # load1_b_v: stage 1, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_v_124_as.index((1 - 1) % 2), b_v_118, mask=b_v_123)  # load1_b_v: stage 1, partition 0 (group 0)
    else:  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_124_as.index((1 - 1) % 2).store(gl.load(b_v_118, mask=b_v_123))  # load1_b_v: stage 1, partition 0 (group 0)
    p_k_92 = (0 + (1 - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
    p_g_132 = p_k_92  # load3_b_g: stage 0, partition 0 (group 0)
    p_g_133 = p_g_132 + b_h_24  # load3_b_g: stage 0, partition 0 (group 0)
    p_g_134 = p_g_133 * 4  # load3_b_g: stage 0, partition 0 (group 0)
    p_g_135 = b_g_last + p_g_134  # load3_b_g: stage 0, partition 0 (group 0)
    p_g_136 = p_g_135 + v4  # load3_b_g: stage 0, partition 0 (group 0)
    b_g_140 = p_g_133 < T  # load3_b_g: stage 0, partition 0 (group 0)
    b_g_141 = gl.load(p_g_136, mask=b_g_140, other=0.0)  # load3_b_g: stage 0, partition 0 (group 0)
    b_v_142 = b_g_last_131_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
    b_v_143 = b_v_142 - b_g_141_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
    b_v_144 = gl.exp(b_v_143)  # sfu1_b_v: stage 1, partition 0 (group 0)
    b_h_138 = b_h_137  # elementwise4_b_h: stage 1, partition 0 (group 0)
    b_h_139 = b_h_151 * b_h_138  # elementwise4_b_h: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    b_g_141_p1 = b_g_141
    b_g_last_131_p1 = b_g_last_131
    b_h_139_p1 = b_h_139
    b_h_151_p1 = b_h_151
    b_v_144_p1 = b_v_144
    p_k_92_p1 = p_k_92
    for twill_b in range(2, twill_n):
        p_k_93 = gl.cast(p_k_92_p1, gl.int64)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_99 = p_k_93  # load1_b_v: stage 1, partition 0 (group 0)
        b_k_101 = b_k_99 + b_h_30  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_114 = gl.expand_dims(b_k_101, 1)  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_119 = b_v_114 >= 0  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_120 = b_v_114 < p_k_84  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_121 = b_v_119 & b_v_120  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_122 = b_v_121.broadcast_to([64, 64])  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_v_123 = b_v_122 & b_h_75  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_k_98 = p_k_93  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_100 = b_k_98 + b_h_34  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_102 = gl.expand_dims(b_k_100, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_107 = b_k_102 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_108 = b_k_102 < p_k_84  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_109 = b_k_107 & b_k_108  # elementwise0_b_k: stage 1, partition 0 (group 0)
        v9 = b_h_151_p1.to(gl.bfloat16)  # convert0: stage 2, partition 0 (group 0)
        v12 = gl.convert_layout(v9, L7)  # convert0: stage 2, partition 0 (group 0)
        last_idx = (0 + (twill_b - 0) * 1) + 1  # load2_b_g_last: stage 0, partition 0 (group 0)
        last_idx_125 = last_idx * 64  # load2_b_g_last: stage 0, partition 0 (group 0)
        last_idx_126 = gl.minimum(last_idx_125, T)  # load2_b_g_last: stage 0, partition 0 (group 0)
        last_idx_127 = last_idx_126 - 1  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_128 = last_idx_127 * 4  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_129 = b_g_last + b_g_last_128  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_130 = b_g_last_129 + v4  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_131 = gl.load(b_g_last_130)  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_h_137 = gl.exp(b_g_last_131_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
        o_h = boh + (0 + (twill_b - 2) * 1)  # store0: stage 2, partition 0 (group 0)
        o_h_94 = o_h * 4  # store0: stage 2, partition 0 (group 0)
        o_h_95 = o_h_94 + v4  # store0: stage 2, partition 0 (group 0)
        o_h_96 = gl.cast(o_h_95, gl.int64)  # store0: stage 2, partition 0 (group 0)
        o_h_97 = o_h_96 * 16384  # store0: stage 2, partition 0 (group 0)
        p_h = h + o_h_97  # store0: stage 2, partition 0 (group 0)
        v10 = p_h  # store0: stage 2, partition 0 (group 0)
        v11 = v10 + b_h_54  # store0: stage 2, partition 0 (group 0)
        gl.store(v11, v12, mask=b_h_77)  # store0: stage 2, partition 0 (group 0)
        b_k_110 = b_k_109.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_111 = b_h_67 & b_k_110  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_v_115 = b_v_114 * 512  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_116 = b_v_115.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_117 = b_v_116 + b_h_52  # load1_b_v: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_v_124 = b_v_124_as.index((twill_b - 2) % 2).load(L7)  # load1_b_v: stage 2, partition 0 (group 0)
        b_v_118 = p_v + b_v_117  # load1_b_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_v_124_as.index((twill_b - 1) % 2), b_v_118, mask=b_v_123)  # load1_b_v: stage 1, partition 0 (group 0)
        else:  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_124_as.index((twill_b - 1) % 2).store(gl.load(b_v_118, mask=b_v_123))  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_146 = b_v_124.to(gl.float32)  # convert1_b_v: stage 2, partition 0 (group 0)
        b_v_145 = gl.expand_dims(b_v_144_p1, 1)  # elementwise5_b_v: stage 2, partition 0 (group 0)
        b_v_147 = b_v_145.broadcast_to([64, 64])  # elementwise5_b_v: stage 2, partition 0 (group 0)
        b_v_148 = b_v_146 * b_v_147  # elementwise5_b_v: stage 2, partition 0 (group 0)
        b_v_149 = b_v_148.to(gl.bfloat16)  # convert2_b_v: stage 2, partition 0 (group 0)
        b_v_150 = b_v_150_st.index((twill_b - 2) % 2)  # local_store0_b_v: stage 2, partition 0 (group 0)
        b_v_150.store(b_v_149)  # local_store0_b_v: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_b_v: stage 2, partition 0 (group 0)
        p_k_92 = (0 + (twill_b - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
        p_g_132 = p_k_92  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_133 = p_g_132 + b_h_24  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_134 = p_g_133 * 4  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_135 = b_g_last + p_g_134  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_136 = p_g_135 + v4  # load3_b_g: stage 0, partition 0 (group 0)
        b_g_140 = p_g_133 < T  # load3_b_g: stage 0, partition 0 (group 0)
        b_g_141 = gl.load(p_g_136, mask=b_g_140, other=0.0)  # load3_b_g: stage 0, partition 0 (group 0)
        b_v_142 = b_g_last_131_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
        b_v_143 = b_v_142 - b_g_141_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
        b_v_144 = gl.exp(b_v_143)  # sfu1_b_v: stage 1, partition 0 (group 0)
        mbarrier.wait(b_k_112_ready.index((twill_b - 2) % 2), ((twill_b - 2) // 2) & 1)
        fence_async_shared()
        tok_b_h_151 = warpgroup_mma(b_k_112_buf.index((twill_b - 2) % 2), b_v_150, b_h_139_p1, is_async=True)  # dot0_b_h: stage 2, partition 0 (group 0)
        b_h_138 = b_h_137  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_151 = warpgroup_mma_wait(0, deps=(tok_b_h_151,))
        mbarrier.arrive(b_k_112_empty.index((twill_b - 2) % 2))
        b_h_139 = b_h_151 * b_h_138  # elementwise4_b_h: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_g_141_p1 = b_g_141
        b_g_last_131_p1 = b_g_last_131
        b_h_139_p1 = b_h_139
        b_h_151_p1 = b_h_151
        b_v_144_p1 = b_v_144
        p_k_92_p1 = p_k_92
    p_k_93 = gl.cast(p_k_92_p1, gl.int64)  # load0_b_k: stage 1, partition 0 (group 0)
    b_k_99 = p_k_93  # load1_b_v: stage 1, partition 0 (group 0)
    b_k_101 = b_k_99 + b_h_30  # load1_b_v: stage 1, partition 0 (group 0)
    b_v_114 = gl.expand_dims(b_k_101, 1)  # load1_b_v: stage 1, partition 0 (group 0)
    b_v_119 = b_v_114 >= 0  # elementwise2_b_v: stage 1, partition 0 (group 0)
    b_v_120 = b_v_114 < p_k_84  # elementwise2_b_v: stage 1, partition 0 (group 0)
    b_v_121 = b_v_119 & b_v_120  # elementwise2_b_v: stage 1, partition 0 (group 0)
    b_v_122 = b_v_121.broadcast_to([64, 64])  # elementwise3_b_v: stage 1, partition 0 (group 0)
    b_v_123 = b_v_122 & b_h_75  # elementwise3_b_v: stage 1, partition 0 (group 0)
    b_k_98 = p_k_93  # load0_b_k: stage 1, partition 0 (group 0)
    b_k_100 = b_k_98 + b_h_34  # load0_b_k: stage 1, partition 0 (group 0)
    b_k_102 = gl.expand_dims(b_k_100, 0)  # load0_b_k: stage 1, partition 0 (group 0)
    b_k_107 = b_k_102 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
    b_k_108 = b_k_102 < p_k_84  # elementwise0_b_k: stage 1, partition 0 (group 0)
    b_k_109 = b_k_107 & b_k_108  # elementwise0_b_k: stage 1, partition 0 (group 0)
    v9 = b_h_151_p1.to(gl.bfloat16)  # convert0: stage 2, partition 0 (group 0)
    v12 = gl.convert_layout(v9, L7)  # convert0: stage 2, partition 0 (group 0)
    b_h_137 = gl.exp(b_g_last_131_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
    o_h = boh + (0 + ((twill_n - 1 + 1) - 2) * 1)  # store0: stage 2, partition 0 (group 0)
    o_h_94 = o_h * 4  # store0: stage 2, partition 0 (group 0)
    o_h_95 = o_h_94 + v4  # store0: stage 2, partition 0 (group 0)
    o_h_96 = gl.cast(o_h_95, gl.int64)  # store0: stage 2, partition 0 (group 0)
    o_h_97 = o_h_96 * 16384  # store0: stage 2, partition 0 (group 0)
    p_h = h + o_h_97  # store0: stage 2, partition 0 (group 0)
    v10 = p_h  # store0: stage 2, partition 0 (group 0)
    v11 = v10 + b_h_54  # store0: stage 2, partition 0 (group 0)
    gl.store(v11, v12, mask=b_h_77)  # store0: stage 2, partition 0 (group 0)
    b_k_110 = b_k_109.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
    b_k_111 = b_h_67 & b_k_110  # elementwise1_b_k: stage 1, partition 0 (group 0)
    b_v_115 = b_v_114 * 512  # load1_b_v: stage 1, partition 0 (group 0)
    b_v_116 = b_v_115.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
    b_v_117 = b_v_116 + b_h_52  # load1_b_v: stage 1, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    b_v_124 = b_v_124_as.index(((twill_n - 1 + 1) - 2) % 2).load(L7)  # load1_b_v: stage 2, partition 0 (group 0)
    b_v_118 = p_v + b_v_117  # load1_b_v: stage 1, partition 0 (group 0)
    if TWILL_COPY:  # load1_b_v: stage 1, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_v_124_as.index(((twill_n - 1 + 1) - 1) % 2), b_v_118, mask=b_v_123)  # load1_b_v: stage 1, partition 0 (group 0)
    else:  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_124_as.index(((twill_n - 1 + 1) - 1) % 2).store(gl.load(b_v_118, mask=b_v_123))  # load1_b_v: stage 1, partition 0 (group 0)
    b_v_146 = b_v_124.to(gl.float32)  # convert1_b_v: stage 2, partition 0 (group 0)
    b_v_145 = gl.expand_dims(b_v_144_p1, 1)  # elementwise5_b_v: stage 2, partition 0 (group 0)
    b_v_147 = b_v_145.broadcast_to([64, 64])  # elementwise5_b_v: stage 2, partition 0 (group 0)
    b_v_148 = b_v_146 * b_v_147  # elementwise5_b_v: stage 2, partition 0 (group 0)
    b_v_149 = b_v_148.to(gl.bfloat16)  # convert2_b_v: stage 2, partition 0 (group 0)
    b_v_150 = b_v_150_st.index(((twill_n - 1 + 1) - 2) % 2)  # local_store0_b_v: stage 2, partition 0 (group 0)
    b_v_150.store(b_v_149)  # local_store0_b_v: stage 2, partition 0 (group 0)
    fence_async_shared()  # local_store0_b_v: stage 2, partition 0 (group 0)
    b_v_142 = b_g_last_131_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
    b_v_143 = b_v_142 - b_g_141_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
    b_v_144 = gl.exp(b_v_143)  # sfu1_b_v: stage 1, partition 0 (group 0)
    mbarrier.wait(b_k_112_ready.index(((twill_n - 1 + 1) - 2) % 2), (((twill_n - 1 + 1) - 2) // 2) & 1)
    fence_async_shared()
    tok_b_h_151 = warpgroup_mma(b_k_112_buf.index(((twill_n - 1 + 1) - 2) % 2), b_v_150, b_h_139_p1, is_async=True)  # dot0_b_h: stage 2, partition 0 (group 0)
    b_h_138 = b_h_137  # elementwise4_b_h: stage 1, partition 0 (group 0)
    b_h_151 = warpgroup_mma_wait(0, deps=(tok_b_h_151,))
    mbarrier.arrive(b_k_112_empty.index(((twill_n - 1 + 1) - 2) % 2))
    b_h_139 = b_h_151 * b_h_138  # elementwise4_b_h: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    b_g_141_p1 = b_g_141
    b_g_last_131_p1 = b_g_last_131
    b_h_139_p1 = b_h_139
    b_h_151_p1 = b_h_151
    b_v_144_p1 = b_v_144
    p_k_92_p1 = p_k_92
    v9 = b_h_151_p1.to(gl.bfloat16)  # convert0: stage 2, partition 0 (group 0)
    v12 = gl.convert_layout(v9, L7)  # convert0: stage 2, partition 0 (group 0)
    o_h = boh + (0 + ((twill_n - 1 + 2) - 2) * 1)  # store0: stage 2, partition 0 (group 0)
    o_h_94 = o_h * 4  # store0: stage 2, partition 0 (group 0)
    o_h_95 = o_h_94 + v4  # store0: stage 2, partition 0 (group 0)
    o_h_96 = gl.cast(o_h_95, gl.int64)  # store0: stage 2, partition 0 (group 0)
    o_h_97 = o_h_96 * 16384  # store0: stage 2, partition 0 (group 0)
    p_h = h + o_h_97  # store0: stage 2, partition 0 (group 0)
    v10 = p_h  # store0: stage 2, partition 0 (group 0)
    v11 = v10 + b_h_54  # store0: stage 2, partition 0 (group 0)
    gl.store(v11, v12, mask=b_h_77)  # store0: stage 2, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    b_v_124 = b_v_124_as.index(((twill_n - 1 + 2) - 2) % 2).load(L7)  # load1_b_v: stage 2, partition 0 (group 0)
    b_v_146 = b_v_124.to(gl.float32)  # convert1_b_v: stage 2, partition 0 (group 0)
    b_v_145 = gl.expand_dims(b_v_144_p1, 1)  # elementwise5_b_v: stage 2, partition 0 (group 0)
    b_v_147 = b_v_145.broadcast_to([64, 64])  # elementwise5_b_v: stage 2, partition 0 (group 0)
    b_v_148 = b_v_146 * b_v_147  # elementwise5_b_v: stage 2, partition 0 (group 0)
    b_v_149 = b_v_148.to(gl.bfloat16)  # convert2_b_v: stage 2, partition 0 (group 0)
    b_v_150 = b_v_150_st.index(((twill_n - 1 + 2) - 2) % 2)  # local_store0_b_v: stage 2, partition 0 (group 0)
    b_v_150.store(b_v_149)  # local_store0_b_v: stage 2, partition 0 (group 0)
    fence_async_shared()  # local_store0_b_v: stage 2, partition 0 (group 0)
    mbarrier.wait(b_k_112_ready.index(((twill_n - 1 + 2) - 2) % 2), (((twill_n - 1 + 2) - 2) // 2) & 1)
    fence_async_shared()
    tok_b_h_151 = warpgroup_mma(b_k_112_buf.index(((twill_n - 1 + 2) - 2) % 2), b_v_150, b_h_139_p1, is_async=True)  # dot0_b_h: stage 2, partition 0 (group 0)
    async_copy.commit_group()
    b_h_151 = warpgroup_mma_wait(1, deps=(tok_b_h_151,))
    b_g_141_p1 = b_g_141
    b_g_last_131_p1 = b_g_last_131
    b_h_139_p1 = b_h_139
    b_h_151_p1 = b_h_151
    b_v_144_p1 = b_v_144
    p_k_92_p1 = p_k_92
    b_h_151_p1 = warpgroup_mma_wait(0, deps=(b_h_151_p1,))
    b_k_112_buf._keep_alive()
    b_v_150_st._keep_alive()
    mbarrier.arrive(b_k_112_empty.index(((twill_n - 1 + 2) - 2) % 2))
    p_ht = ht + p_h0
    v7 = p_ht + b_h_55
    v8 = gl.convert_layout(b_h_151_p1, L8)
    gl.store(v7, v8, mask=b_h_78)

@gluon.jit
def producer_1(k, v, h, g, h0, ht, cu_seqlens, chunk_offsets, T, b_k_112_buf, b_v_124_as, b_v_150_st, b_k_112_ready, b_k_112_empty, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    v5 = v3 * T
    NT_14 = T + 63
    NT_15 = NT_14 // 64
    p_h0_17 = v0 * 64
    p_h0_19 = gl.cast(p_h0_17, gl.int64)
    b_h_25 = gl.arange(0, 64, layout=L1)
    b_h_28 = gl.arange(0, 64, layout=L4)
    b_h_31 = b_h_25.to(gl.int64)
    b_h_34 = b_h_28.to(gl.int64)
    b_h_37 = p_h0_19 + b_h_31
    b_h_40 = gl.expand_dims(b_h_37, 1)
    b_h_58 = b_h_40 >= 0
    b_h_61 = b_h_40 < 128
    b_h_64 = b_h_58 & b_h_61
    b_h_67 = b_h_64.broadcast_to([64, 64])
    p_k = v5 * 4
    p_k_81 = p_k + v4
    p_k_82 = p_k_81 * 128
    p_k_83 = k + p_k_82
    p_k_84 = gl.cast(T, gl.int64)
    b_k_85 = b_h_40.broadcast_to([64, 64])
    for b_h_90 in range(0, NT_15, 1):
        twill_k = (b_h_90 - 0) // 1
        p_k_92 = b_h_90 * 64
        p_k_93 = gl.cast(p_k_92, gl.int64)
        b_k_100 = p_k_93 + b_h_34
        b_k_102 = gl.expand_dims(b_k_100, 0)
        b_k_103 = b_k_102 * 512
        b_k_104 = b_k_103.broadcast_to([64, 64])
        b_k_105 = b_k_85 + b_k_104
        b_k_106 = p_k_83 + b_k_105
        b_k_107 = b_k_102 >= 0
        b_k_108 = b_k_102 < p_k_84
        b_k_109 = b_k_107 & b_k_108
        b_k_110 = b_k_109.broadcast_to([64, 64])
        b_k_111 = b_h_67 & b_k_110
        mbarrier.wait(b_k_112_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_k_112_buf.index(twill_k % 2), b_k_106, mask=b_k_111)  # load0_b_k: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_k_112_ready.index(twill_k % 2), increment_count=False)
        else:
            b_k_112_buf.index(twill_k % 2).store(gl.load(b_k_106, mask=b_k_111, other=0.0))  # load0_b_k: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_k_112_ready.index(twill_k % 2), count=128)

@gluon.jit
def twill_kernel(k, v, h, g, h0, ht, cu_seqlens, chunk_offsets, T, TWILL_COPY: gl.constexpr):
    b_k_112_buf = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    b_v_124_as = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    b_v_150_st = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_k_112_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_k_112_ready.index(i), count=128)
    b_k_112_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_k_112_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (k, v, h, g, h0, ht, cu_seqlens, chunk_offsets, T, b_k_112_buf, b_v_124_as, b_v_150_st, b_k_112_ready, b_k_112_empty, TWILL_COPY)),
        (producer_1, (k, v, h, g, h0, ht, cu_seqlens, chunk_offsets, T, b_k_112_buf, b_v_124_as, b_v_150_st, b_k_112_ready, b_k_112_empty, TWILL_COPY)),
    ], [4], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L6_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L8_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(k, v, h, g, h0, ht, cu_seqlens, chunk_offsets, T, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    v5 = v3 * T
    NT_14 = T + 63
    NT_15 = NT_14 // 64
    boh = v3 * NT_15
    p_h0 = v2 * 16384
    p_h0_16 = h0 + p_h0
    p_h0_17 = v0 * 64
    p_h0_18 = v1 * 64
    p_h0_19 = gl.cast(p_h0_17, gl.int64)
    p_h0_20 = gl.cast(p_h0_18, gl.int64)
    b_h_24 = gl.arange(0, 64, layout=L0_short)
    b_h_25 = gl.arange(0, 64, layout=L1_short)
    b_h_26 = gl.arange(0, 64, layout=L2_short)
    b_h_27 = gl.arange(0, 64, layout=L3_short)
    b_h_28 = gl.arange(0, 64, layout=L4_short)
    b_h_29 = gl.arange(0, 64, layout=L5_short)
    b_h_30 = b_h_24.to(gl.int64)
    b_h_31 = b_h_25.to(gl.int64)
    b_h_32 = b_h_26.to(gl.int64)
    b_h_33 = b_h_27.to(gl.int64)
    b_h_34 = b_h_28.to(gl.int64)
    b_h_35 = b_h_29.to(gl.int64)
    b_h_36 = p_h0_19 + b_h_30
    b_h_37 = p_h0_19 + b_h_31
    b_h_38 = p_h0_19 + b_h_32
    b_h_39 = gl.expand_dims(b_h_36, 1)
    b_h_40 = gl.expand_dims(b_h_37, 1)
    b_h_41 = gl.expand_dims(b_h_38, 1)
    b_h_42 = b_h_39 * 128
    b_h_43 = b_h_41 * 128
    b_h_44 = b_h_42.broadcast_to([64, 64])
    b_h_45 = b_h_43.broadcast_to([64, 64])
    b_h_48 = p_h0_20 + b_h_33
    b_h_49 = p_h0_20 + b_h_35
    b_h_50 = gl.expand_dims(b_h_48, 0)
    b_h_51 = gl.expand_dims(b_h_49, 0)
    b_h_52 = b_h_50.broadcast_to([64, 64])
    b_h_53 = b_h_51.broadcast_to([64, 64])
    b_h_54 = b_h_44 + b_h_52
    b_h_55 = b_h_45 + b_h_53
    b_h_56 = p_h0_16 + b_h_54
    b_h_57 = b_h_39 >= 0
    b_h_58 = b_h_40 >= 0
    b_h_59 = b_h_41 >= 0
    b_h_60 = b_h_39 < 128
    b_h_61 = b_h_40 < 128
    b_h_62 = b_h_41 < 128
    b_h_63 = b_h_57 & b_h_60
    b_h_64 = b_h_58 & b_h_61
    b_h_65 = b_h_59 & b_h_62
    b_h_66 = b_h_63.broadcast_to([64, 64])
    b_h_67 = b_h_64.broadcast_to([64, 64])
    b_h_68 = b_h_65.broadcast_to([64, 64])
    b_h_69 = b_h_50 >= 0
    b_h_70 = b_h_51 >= 0
    b_h_71 = b_h_50 < 128
    b_h_72 = b_h_51 < 128
    b_h_73 = b_h_69 & b_h_71
    b_h_74 = b_h_70 & b_h_72
    b_h_75 = b_h_73.broadcast_to([64, 64])
    b_h_76 = b_h_74.broadcast_to([64, 64])
    b_h_77 = b_h_66 & b_h_75
    b_h_78 = b_h_68 & b_h_76
    b_h_79 = gl.load(b_h_56, mask=b_h_77)
    b_h_80 = gl.convert_layout(b_h_79, L6_short)
    p_k = v5 * 4
    p_k_81 = p_k + v4
    p_k_82 = p_k_81 * 128
    p_k_83 = k + p_k_82
    p_k_84 = gl.cast(T, gl.int64)
    p_v = v + p_k_82
    b_k_85 = b_h_40.broadcast_to([64, 64])
    b_g_last = g + p_k
    twill_n = (NT_15 - 0 + 1 - 1) // 1
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        b_v_124_as = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
        b_v_150_st = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        b_k_113_st = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        last_idx = (0 + (0 - 0) * 1) + 1  # load2_b_g_last: stage 0, partition 0 (group 0)
        last_idx_125 = last_idx * 64  # load2_b_g_last: stage 0, partition 0 (group 0)
        last_idx_126 = gl.minimum(last_idx_125, T)  # load2_b_g_last: stage 0, partition 0 (group 0)
        last_idx_127 = last_idx_126 - 1  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_128 = last_idx_127 * 4  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_129 = b_g_last + b_g_last_128  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_130 = b_g_last_129 + v4  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_131 = gl.load(b_g_last_130)  # load2_b_g_last: stage 0, partition 0 (group 0)
        p_k_92 = (0 + (0 - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
        p_g_132 = p_k_92  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_133 = p_g_132 + b_h_24  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_134 = p_g_133 * 4  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_135 = b_g_last + p_g_134  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_136 = p_g_135 + v4  # load3_b_g: stage 0, partition 0 (group 0)
        b_g_140 = p_g_133 < T  # load3_b_g: stage 0, partition 0 (group 0)
        b_g_141 = gl.load(p_g_136, mask=b_g_140, other=0.0)  # load3_b_g: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        b_g_141_p1 = b_g_141
        b_g_last_131_p1 = b_g_last_131
        p_k_92_p1 = p_k_92
        b_h_151 = b_h_80
        p_k_93 = gl.cast(p_k_92_p1, gl.int64)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_99 = p_k_93  # load1_b_v: stage 1, partition 0 (group 0)
        b_k_101 = b_k_99 + b_h_30  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_114 = gl.expand_dims(b_k_101, 1)  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_119 = b_v_114 >= 0  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_120 = b_v_114 < p_k_84  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_121 = b_v_119 & b_v_120  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_122 = b_v_121.broadcast_to([64, 64])  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_v_123 = b_v_122 & b_h_75  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_k_98 = p_k_93  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_100 = b_k_98 + b_h_34  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_102 = gl.expand_dims(b_k_100, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_107 = b_k_102 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_108 = b_k_102 < p_k_84  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_109 = b_k_107 & b_k_108  # elementwise0_b_k: stage 1, partition 0 (group 0)
        last_idx = (0 + (1 - 0) * 1) + 1  # load2_b_g_last: stage 0, partition 0 (group 0)
        last_idx_125 = last_idx * 64  # load2_b_g_last: stage 0, partition 0 (group 0)
        last_idx_126 = gl.minimum(last_idx_125, T)  # load2_b_g_last: stage 0, partition 0 (group 0)
        last_idx_127 = last_idx_126 - 1  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_128 = last_idx_127 * 4  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_129 = b_g_last + b_g_last_128  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_130 = b_g_last_129 + v4  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_131 = gl.load(b_g_last_130)  # load2_b_g_last: stage 0, partition 0 (group 0)
        b_h_137 = gl.exp(b_g_last_131_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
        b_k_110 = b_k_109.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_111 = b_h_67 & b_k_110  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_v_115 = b_v_114 * 512  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_116 = b_v_115.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_117 = b_v_116 + b_h_52  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_118 = p_v + b_v_117  # load1_b_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_v_124_as.index((1 - 1) % 2), b_v_118, mask=b_v_123)  # load1_b_v: stage 1, partition 0 (group 0)
        else:  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_124_as.index((1 - 1) % 2).store(gl.load(b_v_118, mask=b_v_123))  # load1_b_v: stage 1, partition 0 (group 0)
        p_k_92 = (0 + (1 - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
        p_g_132 = p_k_92  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_133 = p_g_132 + b_h_24  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_134 = p_g_133 * 4  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_135 = b_g_last + p_g_134  # load3_b_g: stage 0, partition 0 (group 0)
        p_g_136 = p_g_135 + v4  # load3_b_g: stage 0, partition 0 (group 0)
        b_g_140 = p_g_133 < T  # load3_b_g: stage 0, partition 0 (group 0)
        b_g_141 = gl.load(p_g_136, mask=b_g_140, other=0.0)  # load3_b_g: stage 0, partition 0 (group 0)
        b_v_142 = b_g_last_131_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
        b_v_143 = b_v_142 - b_g_141_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
        b_v_144 = gl.exp(b_v_143)  # sfu1_b_v: stage 1, partition 0 (group 0)
        b_h_138 = b_h_137  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_139 = b_h_151 * b_h_138  # elementwise4_b_h: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_g_141_p1 = b_g_141
        b_g_last_131_p1 = b_g_last_131
        b_h_139_p1 = b_h_139
        b_h_151_p1 = b_h_151
        b_k_102_p1 = b_k_102
        b_k_111_p1 = b_k_111
        b_v_144_p1 = b_v_144
        p_k_92_p1 = p_k_92
        for twill_b in range(2, twill_n):
            p_k_93 = gl.cast(p_k_92_p1, gl.int64)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_99 = p_k_93  # load1_b_v: stage 1, partition 0 (group 0)
            b_k_101 = b_k_99 + b_h_30  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_114 = gl.expand_dims(b_k_101, 1)  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_119 = b_v_114 >= 0  # elementwise2_b_v: stage 1, partition 0 (group 0)
            b_v_120 = b_v_114 < p_k_84  # elementwise2_b_v: stage 1, partition 0 (group 0)
            b_v_121 = b_v_119 & b_v_120  # elementwise2_b_v: stage 1, partition 0 (group 0)
            b_v_122 = b_v_121.broadcast_to([64, 64])  # elementwise3_b_v: stage 1, partition 0 (group 0)
            b_v_123 = b_v_122 & b_h_75  # elementwise3_b_v: stage 1, partition 0 (group 0)
            b_k_98 = p_k_93  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_100 = b_k_98 + b_h_34  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_102 = gl.expand_dims(b_k_100, 0)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_107 = b_k_102 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_108 = b_k_102 < p_k_84  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_109 = b_k_107 & b_k_108  # elementwise0_b_k: stage 1, partition 0 (group 0)
            v9 = b_h_151_p1.to(gl.bfloat16)  # convert0: stage 2, partition 0 (group 0)
            v12 = gl.convert_layout(v9, L7_short)  # convert0: stage 2, partition 0 (group 0)
            last_idx = (0 + (twill_b - 0) * 1) + 1  # load2_b_g_last: stage 0, partition 0 (group 0)
            last_idx_125 = last_idx * 64  # load2_b_g_last: stage 0, partition 0 (group 0)
            last_idx_126 = gl.minimum(last_idx_125, T)  # load2_b_g_last: stage 0, partition 0 (group 0)
            last_idx_127 = last_idx_126 - 1  # load2_b_g_last: stage 0, partition 0 (group 0)
            b_g_last_128 = last_idx_127 * 4  # load2_b_g_last: stage 0, partition 0 (group 0)
            b_g_last_129 = b_g_last + b_g_last_128  # load2_b_g_last: stage 0, partition 0 (group 0)
            b_g_last_130 = b_g_last_129 + v4  # load2_b_g_last: stage 0, partition 0 (group 0)
            b_g_last_131 = gl.load(b_g_last_130)  # load2_b_g_last: stage 0, partition 0 (group 0)
            b_h_137 = gl.exp(b_g_last_131_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
            o_h = boh + (0 + (twill_b - 2) * 1)  # store0: stage 2, partition 0 (group 0)
            o_h_94 = o_h * 4  # store0: stage 2, partition 0 (group 0)
            o_h_95 = o_h_94 + v4  # store0: stage 2, partition 0 (group 0)
            o_h_96 = gl.cast(o_h_95, gl.int64)  # store0: stage 2, partition 0 (group 0)
            o_h_97 = o_h_96 * 16384  # store0: stage 2, partition 0 (group 0)
            p_h = h + o_h_97  # store0: stage 2, partition 0 (group 0)
            v10 = p_h  # store0: stage 2, partition 0 (group 0)
            v11 = v10 + b_h_54  # store0: stage 2, partition 0 (group 0)
            gl.store(v11, v12, mask=b_h_77)  # store0: stage 2, partition 0 (group 0)
            b_k_110 = b_k_109.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_k_111 = b_h_67 & b_k_110  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_v_115 = b_v_114 * 512  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_116 = b_v_115.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_117 = b_v_116 + b_h_52  # load1_b_v: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_v_124 = b_v_124_as.index((twill_b - 2) % 2).load(L7_short)  # load1_b_v: stage 2, partition 0 (group 0)
            b_v_118 = p_v + b_v_117  # load1_b_v: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load1_b_v: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_v_124_as.index((twill_b - 1) % 2), b_v_118, mask=b_v_123)  # load1_b_v: stage 1, partition 0 (group 0)
            else:  # load1_b_v: stage 1, partition 0 (group 0)
                b_v_124_as.index((twill_b - 1) % 2).store(gl.load(b_v_118, mask=b_v_123))  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_146 = b_v_124.to(gl.float32)  # convert1_b_v: stage 2, partition 0 (group 0)
            b_v_145 = gl.expand_dims(b_v_144_p1, 1)  # elementwise5_b_v: stage 2, partition 0 (group 0)
            b_v_147 = b_v_145.broadcast_to([64, 64])  # elementwise5_b_v: stage 2, partition 0 (group 0)
            b_v_148 = b_v_146 * b_v_147  # elementwise5_b_v: stage 2, partition 0 (group 0)
            b_v_149 = b_v_148.to(gl.bfloat16)  # convert2_b_v: stage 2, partition 0 (group 0)
            b_v_150 = b_v_150_st.index((twill_b - 2) % 2)  # local_store0_b_v: stage 2, partition 0 (group 0)
            b_v_150.store(b_v_149)  # local_store0_b_v: stage 2, partition 0 (group 0)
            fence_async_shared()  # local_store0_b_v: stage 2, partition 0 (group 0)
            p_k_92 = (0 + (twill_b - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
            p_g_132 = p_k_92  # load3_b_g: stage 0, partition 0 (group 0)
            p_g_133 = p_g_132 + b_h_24  # load3_b_g: stage 0, partition 0 (group 0)
            p_g_134 = p_g_133 * 4  # load3_b_g: stage 0, partition 0 (group 0)
            p_g_135 = b_g_last + p_g_134  # load3_b_g: stage 0, partition 0 (group 0)
            p_g_136 = p_g_135 + v4  # load3_b_g: stage 0, partition 0 (group 0)
            b_g_140 = p_g_133 < T  # load3_b_g: stage 0, partition 0 (group 0)
            b_g_141 = gl.load(p_g_136, mask=b_g_140, other=0.0)  # load3_b_g: stage 0, partition 0 (group 0)
            b_v_142 = b_g_last_131_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
            b_v_143 = b_v_142 - b_g_141_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
            b_v_144 = gl.exp(b_v_143)  # sfu1_b_v: stage 1, partition 0 (group 0)
            b_k_103 = b_k_102_p1 * 512  # load0_b_k: stage 2, partition 0 (group 0)
            b_k_104 = b_k_103.broadcast_to([64, 64])  # load0_b_k: stage 2, partition 0 (group 0)
            b_k_105 = b_k_85 + b_k_104  # load0_b_k: stage 2, partition 0 (group 0)
            b_k_106 = p_k_83 + b_k_105  # load0_b_k: stage 2, partition 0 (group 0)
            b_k_112 = gl.load(b_k_106, mask=b_k_111_p1)  # load0_b_k: stage 2, partition 0 (group 0)
            b_k_113 = b_k_113_st.index((twill_b - 2) % 2)  # load0_b_k: stage 2, partition 0 (group 0)
            b_k_113.store(b_k_112)  # load0_b_k: stage 2, partition 0 (group 0)
            fence_async_shared()  # load0_b_k: stage 2, partition 0 (group 0)
            tok_b_h_151 = warpgroup_mma(b_k_113, b_v_150, b_h_139_p1, is_async=True)  # dot0_b_h: stage 2, partition 0 (group 0)
            b_h_138 = b_h_137  # elementwise4_b_h: stage 1, partition 0 (group 0)
            b_h_151 = warpgroup_mma_wait(0, deps=(tok_b_h_151,))
            b_h_139 = b_h_151 * b_h_138  # elementwise4_b_h: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            b_g_141_p1 = b_g_141
            b_g_last_131_p1 = b_g_last_131
            b_h_139_p1 = b_h_139
            b_h_151_p1 = b_h_151
            b_k_102_p1 = b_k_102
            b_k_111_p1 = b_k_111
            b_v_144_p1 = b_v_144
            p_k_92_p1 = p_k_92
        p_k_93 = gl.cast(p_k_92_p1, gl.int64)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_99 = p_k_93  # load1_b_v: stage 1, partition 0 (group 0)
        b_k_101 = b_k_99 + b_h_30  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_114 = gl.expand_dims(b_k_101, 1)  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_119 = b_v_114 >= 0  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_120 = b_v_114 < p_k_84  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_121 = b_v_119 & b_v_120  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_122 = b_v_121.broadcast_to([64, 64])  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_v_123 = b_v_122 & b_h_75  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_k_98 = p_k_93  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_100 = b_k_98 + b_h_34  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_102 = gl.expand_dims(b_k_100, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_107 = b_k_102 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_108 = b_k_102 < p_k_84  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_109 = b_k_107 & b_k_108  # elementwise0_b_k: stage 1, partition 0 (group 0)
        v9 = b_h_151_p1.to(gl.bfloat16)  # convert0: stage 2, partition 0 (group 0)
        v12 = gl.convert_layout(v9, L7_short)  # convert0: stage 2, partition 0 (group 0)
        b_h_137 = gl.exp(b_g_last_131_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
        o_h = boh + (0 + ((twill_n - 1 + 1) - 2) * 1)  # store0: stage 2, partition 0 (group 0)
        o_h_94 = o_h * 4  # store0: stage 2, partition 0 (group 0)
        o_h_95 = o_h_94 + v4  # store0: stage 2, partition 0 (group 0)
        o_h_96 = gl.cast(o_h_95, gl.int64)  # store0: stage 2, partition 0 (group 0)
        o_h_97 = o_h_96 * 16384  # store0: stage 2, partition 0 (group 0)
        p_h = h + o_h_97  # store0: stage 2, partition 0 (group 0)
        v10 = p_h  # store0: stage 2, partition 0 (group 0)
        v11 = v10 + b_h_54  # store0: stage 2, partition 0 (group 0)
        gl.store(v11, v12, mask=b_h_77)  # store0: stage 2, partition 0 (group 0)
        b_k_110 = b_k_109.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_111 = b_h_67 & b_k_110  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_v_115 = b_v_114 * 512  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_116 = b_v_115.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_117 = b_v_116 + b_h_52  # load1_b_v: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_v_124 = b_v_124_as.index(((twill_n - 1 + 1) - 2) % 2).load(L7_short)  # load1_b_v: stage 2, partition 0 (group 0)
        b_v_118 = p_v + b_v_117  # load1_b_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_v_124_as.index(((twill_n - 1 + 1) - 1) % 2), b_v_118, mask=b_v_123)  # load1_b_v: stage 1, partition 0 (group 0)
        else:  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_124_as.index(((twill_n - 1 + 1) - 1) % 2).store(gl.load(b_v_118, mask=b_v_123))  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_146 = b_v_124.to(gl.float32)  # convert1_b_v: stage 2, partition 0 (group 0)
        b_v_145 = gl.expand_dims(b_v_144_p1, 1)  # elementwise5_b_v: stage 2, partition 0 (group 0)
        b_v_147 = b_v_145.broadcast_to([64, 64])  # elementwise5_b_v: stage 2, partition 0 (group 0)
        b_v_148 = b_v_146 * b_v_147  # elementwise5_b_v: stage 2, partition 0 (group 0)
        b_v_149 = b_v_148.to(gl.bfloat16)  # convert2_b_v: stage 2, partition 0 (group 0)
        b_v_150 = b_v_150_st.index(((twill_n - 1 + 1) - 2) % 2)  # local_store0_b_v: stage 2, partition 0 (group 0)
        b_v_150.store(b_v_149)  # local_store0_b_v: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_b_v: stage 2, partition 0 (group 0)
        b_v_142 = b_g_last_131_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
        b_v_143 = b_v_142 - b_g_141_p1  # sfu1_b_v: stage 1, partition 0 (group 0)
        b_v_144 = gl.exp(b_v_143)  # sfu1_b_v: stage 1, partition 0 (group 0)
        b_k_103 = b_k_102_p1 * 512  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_104 = b_k_103.broadcast_to([64, 64])  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_105 = b_k_85 + b_k_104  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_106 = p_k_83 + b_k_105  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_112 = gl.load(b_k_106, mask=b_k_111_p1)  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_113 = b_k_113_st.index(((twill_n - 1 + 1) - 2) % 2)  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_113.store(b_k_112)  # load0_b_k: stage 2, partition 0 (group 0)
        fence_async_shared()  # load0_b_k: stage 2, partition 0 (group 0)
        tok_b_h_151 = warpgroup_mma(b_k_113, b_v_150, b_h_139_p1, is_async=True)  # dot0_b_h: stage 2, partition 0 (group 0)
        b_h_138 = b_h_137  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_151 = warpgroup_mma_wait(0, deps=(tok_b_h_151,))
        b_h_139 = b_h_151 * b_h_138  # elementwise4_b_h: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_g_141_p1 = b_g_141
        b_g_last_131_p1 = b_g_last_131
        b_h_139_p1 = b_h_139
        b_h_151_p1 = b_h_151
        b_k_102_p1 = b_k_102
        b_k_111_p1 = b_k_111
        b_v_144_p1 = b_v_144
        p_k_92_p1 = p_k_92
        v9 = b_h_151_p1.to(gl.bfloat16)  # convert0: stage 2, partition 0 (group 0)
        v12 = gl.convert_layout(v9, L7_short)  # convert0: stage 2, partition 0 (group 0)
        o_h = boh + (0 + ((twill_n - 1 + 2) - 2) * 1)  # store0: stage 2, partition 0 (group 0)
        o_h_94 = o_h * 4  # store0: stage 2, partition 0 (group 0)
        o_h_95 = o_h_94 + v4  # store0: stage 2, partition 0 (group 0)
        o_h_96 = gl.cast(o_h_95, gl.int64)  # store0: stage 2, partition 0 (group 0)
        o_h_97 = o_h_96 * 16384  # store0: stage 2, partition 0 (group 0)
        p_h = h + o_h_97  # store0: stage 2, partition 0 (group 0)
        v10 = p_h  # store0: stage 2, partition 0 (group 0)
        v11 = v10 + b_h_54  # store0: stage 2, partition 0 (group 0)
        gl.store(v11, v12, mask=b_h_77)  # store0: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_v_124 = b_v_124_as.index(((twill_n - 1 + 2) - 2) % 2).load(L7_short)  # load1_b_v: stage 2, partition 0 (group 0)
        b_v_146 = b_v_124.to(gl.float32)  # convert1_b_v: stage 2, partition 0 (group 0)
        b_v_145 = gl.expand_dims(b_v_144_p1, 1)  # elementwise5_b_v: stage 2, partition 0 (group 0)
        b_v_147 = b_v_145.broadcast_to([64, 64])  # elementwise5_b_v: stage 2, partition 0 (group 0)
        b_v_148 = b_v_146 * b_v_147  # elementwise5_b_v: stage 2, partition 0 (group 0)
        b_v_149 = b_v_148.to(gl.bfloat16)  # convert2_b_v: stage 2, partition 0 (group 0)
        b_v_150 = b_v_150_st.index(((twill_n - 1 + 2) - 2) % 2)  # local_store0_b_v: stage 2, partition 0 (group 0)
        b_v_150.store(b_v_149)  # local_store0_b_v: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_b_v: stage 2, partition 0 (group 0)
        b_k_103 = b_k_102_p1 * 512  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_104 = b_k_103.broadcast_to([64, 64])  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_105 = b_k_85 + b_k_104  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_106 = p_k_83 + b_k_105  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_112 = gl.load(b_k_106, mask=b_k_111_p1)  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_113 = b_k_113_st.index(((twill_n - 1 + 2) - 2) % 2)  # load0_b_k: stage 2, partition 0 (group 0)
        b_k_113.store(b_k_112)  # load0_b_k: stage 2, partition 0 (group 0)
        fence_async_shared()  # load0_b_k: stage 2, partition 0 (group 0)
        tok_b_h_151 = warpgroup_mma(b_k_113, b_v_150, b_h_139_p1, is_async=True)  # dot0_b_h: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        b_h_151 = warpgroup_mma_wait(1, deps=(tok_b_h_151,))
        b_g_141_p1 = b_g_141
        b_g_last_131_p1 = b_g_last_131
        b_h_139_p1 = b_h_139
        b_h_151_p1 = b_h_151
        b_k_102_p1 = b_k_102
        b_k_111_p1 = b_k_111
        b_v_144_p1 = b_v_144
        p_k_92_p1 = p_k_92
        b_h_151_p1 = warpgroup_mma_wait(0, deps=(b_h_151_p1,))
        b_k_113_st._keep_alive()
        b_v_150_st._keep_alive()
    else:
        b_h_91_w = b_h_80
        for b_h_90_w in range(0, NT_15, 1):
            p_k_92_w = b_h_90_w * 64
            p_k_93_w = gl.cast(p_k_92_w, gl.int64)
            o_h_w = boh + b_h_90_w
            o_h_94_w = o_h_w * 4
            o_h_95_w = o_h_94_w + v4
            o_h_96_w = gl.cast(o_h_95_w, gl.int64)
            o_h_97_w = o_h_96_w * 16384
            p_h_w = h + o_h_97_w
            v9_w = b_h_91_w.to(gl.bfloat16)
            v11_w = p_h_w + b_h_54
            v12_w = gl.convert_layout(v9_w, L7_short)
            gl.store(v11_w, v12_w, mask=b_h_77)
            b_k_100_w = p_k_93_w + b_h_34
            b_k_101_w = p_k_93_w + b_h_30
            b_k_102_w = gl.expand_dims(b_k_100_w, 0)
            b_k_103_w = b_k_102_w * 512
            b_k_104_w = b_k_103_w.broadcast_to([64, 64])
            b_k_105_w = b_k_85 + b_k_104_w
            b_k_106_w = p_k_83 + b_k_105_w
            b_k_107_w = b_k_102_w >= 0
            b_k_108_w = b_k_102_w < p_k_84
            b_k_109_w = b_k_107_w & b_k_108_w
            b_k_110_w = b_k_109_w.broadcast_to([64, 64])
            b_k_111_w = b_h_67 & b_k_110_w
            b_k_112_w = gl.load(b_k_106_w, mask=b_k_111_w)
            b_k_113_w = gl.allocate_shared_memory(gl.bfloat16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), b_k_112_w)
            fence_async_shared()
            b_v_114_w = gl.expand_dims(b_k_101_w, 1)
            b_v_115_w = b_v_114_w * 512
            b_v_116_w = b_v_115_w.broadcast_to([64, 64])
            b_v_117_w = b_v_116_w + b_h_52
            b_v_118_w = p_v + b_v_117_w
            b_v_119_w = b_v_114_w >= 0
            b_v_120_w = b_v_114_w < p_k_84
            b_v_121_w = b_v_119_w & b_v_120_w
            b_v_122_w = b_v_121_w.broadcast_to([64, 64])
            b_v_123_w = b_v_122_w & b_h_75
            b_v_124_w = gl.load(b_v_118_w, mask=b_v_123_w)
            last_idx_w = b_h_90_w + 1
            last_idx_125_w = last_idx_w * 64
            last_idx_126_w = gl.minimum(last_idx_125_w, T)
            last_idx_127_w = last_idx_126_w - 1
            b_g_last_128_w = last_idx_127_w * 4
            b_g_last_129_w = b_g_last + b_g_last_128_w
            b_g_last_130_w = b_g_last_129_w + v4
            b_g_last_131_w = gl.load(b_g_last_130_w)
            p_g_133_w = p_k_92_w + b_h_24
            p_g_134_w = p_g_133_w * 4
            p_g_135_w = b_g_last + p_g_134_w
            p_g_136_w = p_g_135_w + v4
            b_h_137_w = gl.exp(b_g_last_131_w)
            b_h_139_w = b_h_91_w * b_h_137_w
            b_g_140_w = p_g_133_w < T
            b_g_141_w = gl.load(p_g_136_w, mask=b_g_140_w, other=0.0)
            b_v_143_w = b_g_last_131_w - b_g_141_w
            b_v_144_w = gl.exp(b_v_143_w)
            b_v_145_w = gl.expand_dims(b_v_144_w, 1)
            b_v_146_w = b_v_124_w.to(gl.float32)
            b_v_147_w = b_v_145_w.broadcast_to([64, 64])
            b_v_148_w = b_v_146_w * b_v_147_w
            b_v_149_w = b_v_148_w.to(gl.bfloat16)
            b_v_150_w = gl.allocate_shared_memory(gl.bfloat16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_v_149_w)
            fence_async_shared()
            b_h_151_w = warpgroup_mma(b_k_113_w, b_v_150_w, b_h_139_w)
            b_h_91_w = b_h_151_w
        b_h_151_p1 = b_h_91_w
    p_ht = ht + p_h0
    v7 = p_ht + b_h_55
    v8 = gl.convert_layout(b_h_151_p1, L8_short)
    gl.store(v7, v8, mask=b_h_78)

@gluon.jit
def twill_kernel_short(k, v, h, g, h0, ht, cu_seqlens, chunk_offsets, T, TWILL_COPY: gl.constexpr):
    consumer_0_short(k, v, h, g, h0, ht, cu_seqlens, chunk_offsets, T, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['k', 'v', 'h', 'g', 'h0', 'ht', 'cu_seqlens', 'chunk_offsets', 'T', 'H', 'K', 'V', 'BT', 'BK', 'BV', 'USE_G', 'USE_INITIAL_STATE', 'STORE_FINAL_STATE', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['k', 'v', 'h', 'g', 'h0', 'ht', 'cu_seqlens', 'chunk_offsets', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['k', 'v', 'h', 'g', 'h0', 'ht', 'cu_seqlens', 'chunk_offsets', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'H': 4, 'K': 128, 'V': 128, 'BT': 64, 'BK': 64, 'BV': 64, 'USE_G': True, 'USE_INITIAL_STATE': True, 'STORE_FINAL_STATE': True, 'IS_VARLEN': False}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['k', 'v']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((T + 63) // 64)', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} (((T + 63) // 64)): run the Triton kernel for it")
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
ARGUMENTS_short = ['k', 'v', 'h', 'g', 'h0', 'ht', 'cu_seqlens', 'chunk_offsets', 'T', 'H', 'K', 'V', 'BT', 'BK', 'BV', 'USE_G', 'USE_INITIAL_STATE', 'STORE_FINAL_STATE', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME_short = ['k', 'v', 'h', 'g', 'h0', 'ht', 'cu_seqlens', 'chunk_offsets', 'T']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['k', 'v', 'h', 'g', 'h0', 'ht', 'cu_seqlens', 'chunk_offsets', 'T']   # the arguments a launch key reads
CONSTEXPRS_short = {'H': 4, 'K': 128, 'V': 128, 'BT': 64, 'BK': 64, 'BV': 64, 'USE_G': True, 'USE_INITIAL_STATE': True, 'STORE_FINAL_STATE': True, 'IS_VARLEN': False}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['v']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


SHORT_TRIPS = '((T + 63) // 64)'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
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
