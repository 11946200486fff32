"""fused_chunk_retention_fwd_kernel, written by twill from its joint schedule: I=187 L=337 (optimal), 1079 cycles per iteration predicted.

Decisions (each from the schedule):
- b_k_139 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- pointer-loaded tiles copied by a 4-warp producer with cp.async (b_k_139): their addresses and masks spread over 128 threads
- register-read pointer tiles copied by their consumer with cp.async (b_q_160_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 201): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring b_k_139: 2 buffers of [64, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- staged operand b_q_163_st: partition 0 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot0_b_s (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- staged operand b_o_st: partition 0 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot1_b_o (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- shared operand b_v_154_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 65584 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 0 iteration(s) ahead, 57344 bytes of shared memory compiled, ptxas 255 registers, ptxas spills registers (368 bytes stored, 520 loaded, 150 spill instructions in the loop); simulated for 0, 1, 2, 3, 4, 9 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

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
L3 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L10 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, v, o, initial_state, final_state, s_qk_h, s_qk_t, s_vo_h, s_vo_t, B, H, T, scale, twill_g0, twill_g1, twill_g2, b_k_139_buf, b_q_160_as, b_q_163_st, b_o_st, b_v_154_st, b_k_139_ready, b_k_139_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        v0 = twill_pid0
        v1 = twill_pid1
        v2 = twill_pid2
        i_h = v2 % H
        o_i = gl.arange(0, 64, layout=L0)
        o_i_16 = gl.arange(0, 64, layout=L1)
        o_i_17 = gl.arange(0, 64, layout=L2)
        o_i_18 = gl.arange(0, 64, layout=L3)
        o_i_19 = gl.arange(0, 64, layout=L4)
        o_i_20 = gl.arange(0, 64, layout=L5)
        o_i_21 = gl.arange(0, 64, layout=L6)
        b_b_22 = gl.cast(i_h, gl.float32)
        b_b_23 = -5.0 - b_b_22
        b_b_24 = gl.exp2(b_b_23)
        b_b_25 = 1.0 - b_b_24
        b_b_26 = gl.log2(b_b_25)
        v3 = b_b_26 * 64.0
        d_b = gl.exp2(v3)
        v4 = o_i_18 + 1
        v5 = v4.to(gl.float32)
        v8 = v5 * b_b_26
        v9 = gl.exp2(v8)
        v10 = 64 - o_i
        v11 = v10 - 1
        v12 = v11.to(gl.float32)
        v13 = v12 * b_b_26
        d_h = gl.exp2(v13)
        m_s = gl.expand_dims(o_i_18, 1)
        m_s_27 = gl.arange(0, 64, layout=L7)
        m_s_28 = gl.expand_dims(m_s_27, 0)
        m_s_29 = m_s.broadcast_to([64, 64])
        m_s_30 = m_s_28.broadcast_to([64, 64])
        m_s_31 = m_s_29 >= m_s_30
        d_s = m_s_29 - m_s_30
        d_s_32 = d_s.to(gl.float32)
        d_s_34 = d_s_32 * b_b_26
        d_s_35 = gl.exp2(d_s_34)
        d_s_36 = gl.where(m_s_31, d_s_35, 0.0)
        p_q = v2 * s_qk_h
        p_q_37 = q + p_q
        p_q_38 = v1 * 64
        p_q_39 = gl.cast(T, gl.int64)
        p_q_40 = gl.cast(s_qk_t, gl.int64)
        p_q_41 = gl.cast(p_q_38, gl.int64)
        p_v = v2 * s_vo_h
        p_v_42 = v + p_v
        p_v_43 = v0 * 64
        p_v_44 = gl.cast(s_vo_t, gl.int64)
        p_v_45 = gl.cast(p_v_43, gl.int64)
        p_o = v1 * B
        p_o_46 = p_o * H
        p_o_47 = v2 + p_o_46
        p_o_48 = p_o_47 * s_vo_h
        p_o_49 = o + p_o_48
        p_h = v2 * 16384
        p_h_50 = initial_state + p_h
        b_h_55 = o_i.to(gl.int64)
        b_h_56 = o_i_16.to(gl.int64)
        b_h_57 = o_i_17.to(gl.int64)
        b_h_58 = o_i_19.to(gl.int64)
        b_h_59 = o_i_20.to(gl.int64)
        b_h_60 = o_i_21.to(gl.int64)
        b_h_61 = p_q_41 + b_h_55
        b_h_62 = p_q_41 + b_h_56
        b_h_63 = p_q_41 + b_h_57
        b_h_64 = p_q_41 + b_h_58
        b_h_65 = gl.expand_dims(b_h_61, 1)
        b_h_66 = gl.expand_dims(b_h_62, 1)
        b_h_67 = gl.expand_dims(b_h_63, 1)
        b_h_68 = b_h_65 * 128
        b_h_69 = b_h_67 * 128
        b_h_70 = b_h_68.broadcast_to([64, 64])
        b_h_71 = b_h_69.broadcast_to([64, 64])
        b_h_74 = p_v_45 + b_h_58
        b_h_75 = p_v_45 + b_h_60
        b_h_76 = gl.expand_dims(b_h_74, 0)
        b_h_77 = gl.expand_dims(b_h_75, 0)
        b_h_78 = b_h_76.broadcast_to([64, 64])
        b_h_79 = b_h_77.broadcast_to([64, 64])
        b_h_80 = b_h_70 + b_h_78
        b_h_81 = b_h_71 + b_h_79
        b_h_82 = p_h_50 + b_h_80
        b_h_83 = b_h_65 >= 0
        b_h_84 = b_h_66 >= 0
        b_h_85 = b_h_67 >= 0
        b_h_86 = b_h_65 < 128
        b_h_87 = b_h_66 < 128
        b_h_88 = b_h_67 < 128
        b_h_89 = b_h_83 & b_h_86
        b_h_90 = b_h_84 & b_h_87
        b_h_91 = b_h_85 & b_h_88
        b_h_92 = b_h_89.broadcast_to([64, 64])
        b_h_93 = b_h_90.broadcast_to([64, 64])
        b_h_94 = b_h_91.broadcast_to([64, 64])
        b_h_95 = b_h_76 >= 0
        b_h_96 = b_h_77 >= 0
        b_h_97 = b_h_76 < 128
        b_h_98 = b_h_77 < 128
        b_h_99 = b_h_95 & b_h_97
        b_h_100 = b_h_96 & b_h_98
        b_h_101 = b_h_99.broadcast_to([64, 64])
        b_h_102 = b_h_100.broadcast_to([64, 64])
        b_h_103 = b_h_92 & b_h_101
        b_h_104 = b_h_94 & b_h_102
        b_h_105 = gl.load(b_h_82, mask=b_h_103)
        b_h_106 = gl.convert_layout(b_h_105, L8)
        NT_107 = T + 63
        NT_108 = NT_107 // 64
        b_q_115 = gl.expand_dims(b_h_64, 0)
        b_q_116 = b_q_115.broadcast_to([64, 64])
        b_q_117 = b_q_115 >= 0
        b_q_118 = b_q_115 < 128
        b_q_119 = b_q_117 & b_q_118
        b_q_120 = b_q_119.broadcast_to([64, 64])
        twill_n = (NT_108 - 0 + 1 - 1) // 1
        p_q_168 = gl.to_tensor(0).to(gl.int64)
        p_q_168_p1 = p_q_168
        b_v_141 = p_q_168_p1  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_142 = b_v_141 + b_h_55  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_143 = gl.expand_dims(b_v_142, 1)  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_148 = b_v_143 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_149 = b_v_143 < p_q_39  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_150 = b_v_148 & b_v_149  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_151 = b_v_150.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
        b_q_159 = b_v_151 & b_q_120  # elementwise4_b_q: stage 0, partition 0 (group 0)
        p_q_168 = p_q_168_p1 + 64  # load0_b_k: stage 0, partition 0 (group 0)
        b_q_155 = b_v_143 * p_q_40  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_156 = b_q_155.broadcast_to([64, 64])  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_157 = b_q_156 + b_q_116  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_158 = p_q_37 + b_q_157  # load2_b_q: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_b_q: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_q_160_as.index((twill_base + 0 - 0) % 2), b_q_158, mask=b_q_159)  # load2_b_q: stage 0, partition 0 (group 0)
        else:  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_160_as.index((twill_base + 0 - 0) % 2).store(gl.load(b_q_158, mask=b_q_159))  # load2_b_q: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        b_v_143_p1 = b_v_143
        b_v_151_p1 = b_v_151
        p_q_168_p2 = p_q_168_p1
        p_q_168_p1 = p_q_168
        v19_r0 = d_b
        v19_r1 = b_h_106
        v19_r3 = d_h
        b_v_141 = p_q_168_p1  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_142 = b_v_141 + b_h_55  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_143 = gl.expand_dims(b_v_142, 1)  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_148 = b_v_143 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_149 = b_v_143 < p_q_39  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_150 = b_v_148 & b_v_149  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_151 = b_v_150.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
        b_v_152 = b_v_151_p1 & b_h_101  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_k_127 = p_q_168_p2  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_128 = b_k_127 + b_h_59  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_129 = gl.expand_dims(b_k_128, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_134 = b_k_129 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_135 = b_k_129 < p_q_39  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_136 = b_k_134 & b_k_135  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_137 = b_k_136.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_138 = b_h_93 & b_k_137  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_q_159 = b_v_151 & b_q_120  # elementwise4_b_q: stage 0, partition 0 (group 0)
        b_v_144 = b_v_143_p1 * p_v_44  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_145 = b_v_144.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_146 = b_v_145 + b_h_78  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_147 = p_v_42 + b_v_146  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_153 = gl.load(b_v_147, mask=b_v_152)  # load1_b_v: stage 1, partition 0 (group 0)
        p_q_168 = p_q_168_p1 + 64  # load0_b_k: stage 0, partition 0 (group 0)
        b_q_155 = b_v_143 * p_q_40  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_156 = b_q_155.broadcast_to([64, 64])  # load2_b_q: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_q_160 = b_q_160_as.index((twill_base + 1 - 1) % 2).load(L9)  # load2_b_q: stage 1, partition 0 (group 0)
        b_q_157 = b_q_156 + b_q_116  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_158 = p_q_37 + b_q_157  # load2_b_q: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_b_q: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_q_160_as.index((twill_base + 1 - 0) % 2), b_q_158, mask=b_q_159)  # load2_b_q: stage 0, partition 0 (group 0)
        else:  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_160_as.index((twill_base + 1 - 0) % 2).store(gl.load(b_q_158, mask=b_q_159))  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_161 = b_q_160.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
        b_q_162 = b_q_161 * scale  # elementwise5_b_q: stage 1, partition 0 (group 0)
        b_q_163 = b_q_162.to(gl.float16)  # convert1_b_q: stage 1, partition 0 (group 0)
        b_q_164 = gl.convert_layout(b_q_163, L10)  # convert1_b_q: stage 1, partition 0 (group 0)
        mbarrier.wait(b_k_139_ready.index((twill_base + 1 - 1) % 2), ((twill_base + 1 - 1) // 2) & 1)
        fence_async_shared()
        b_q_163_st.store(b_q_163)  # dot0_b_s: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot0_b_s: stage 1, partition 0 (group 0)
        tok_b_s = warpgroup_mma(b_q_163_st, b_k_139_buf.index((twill_base + 1 - 1) % 2), gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
        b_s = warpgroup_mma_wait(0, deps=(tok_b_s,))
        b_s_165 = b_s * d_s_36  # elementwise6_b_s: stage 1, partition 0 (group 0)
        b_o = b_s_165.to(gl.float16)  # convert2_b_o: stage 1, partition 0 (group 0)
        b_v_154 = b_v_154_st.index((1 - 1) % 2)  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_154.store(b_v_153)  # load1_b_v: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_b_v: stage 1, partition 0 (group 0)
        b_o_st.store(b_o)  # dot1_b_o: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot1_b_o: stage 1, partition 0 (group 0)
        tok_b_o_167 = warpgroup_mma(b_o_st, b_v_154, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_o_167 = warpgroup_mma_wait(1, deps=(tok_b_o_167,))
        b_o_167_p1 = b_o_167
        b_q_164_p1 = b_q_164
        b_v_143_p1 = b_v_143
        b_v_146_p1 = b_v_146
        b_v_151_p1 = b_v_151
        b_v_152_p1 = b_v_152
        b_v_153_p1 = b_v_153
        p_q_168_p2 = p_q_168_p1
        p_q_168_p1 = p_q_168
        v19_r0_p1 = v19_r0
        v19_r1_p1 = v19_r1
        v19_r3_p1 = v19_r3
        for twill_b in range(2, twill_n):
            b_v_141 = p_q_168_p1  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_142 = b_v_141 + b_h_55  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_143 = gl.expand_dims(b_v_142, 1)  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_148 = b_v_143 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_149 = b_v_143 < p_q_39  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_150 = b_v_148 & b_v_149  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_151 = b_v_150.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_v_152 = b_v_151_p1 & b_h_101  # elementwise3_b_v: stage 1, partition 0 (group 0)
            b_k_127 = p_q_168_p2  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_128 = b_k_127 + b_h_59  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_129 = gl.expand_dims(b_k_128, 0)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_134 = b_k_129 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_135 = b_k_129 < p_q_39  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_136 = b_k_134 & b_k_135  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_137 = b_k_136.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_k_138 = b_h_93 & b_k_137  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_q_159 = b_v_151 & b_q_120  # elementwise4_b_q: stage 0, partition 0 (group 0)
            b_v_144 = b_v_143_p1 * p_v_44  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_145 = b_v_144.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_146 = b_v_145 + b_h_78  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_147 = p_v_42 + b_v_146  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_153 = gl.load(b_v_147, mask=b_v_152)  # load1_b_v: stage 1, partition 0 (group 0)
            v18 = (0 + (twill_b - 2) * 1) == 0  # elementwise7: stage 2, partition 0 (group 0)
            b_o_167_p1 = warpgroup_mma_wait(0, deps=(b_o_167_p1,))
            if v18:  # elementwise7: stage 2, partition 0 (group 0)
                b_o_169 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
                b_o_170 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169)  # elementwise7: stage 2, partition 0 (group 0)
                fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
                b_o_171 = warpgroup_mma(b_q_164_p1, b_o_170, gl.full([64, 64], 0.0, gl.float32, layout=L8))  # elementwise7: stage 2, partition 0 (group 0)
                b_o_172 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
                b_o_173 = b_o_172.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
                b_o_174 = b_o_171 * b_o_173  # elementwise7: stage 2, partition 0 (group 0)
                b_o_175 = b_o_167_p1 + b_o_174  # elementwise7: stage 2, partition 0 (group 0)
                b_h_177 = v19_r0_p1 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
                b_h_178 = gl.expand_dims(v19_r3_p1, 1)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_179 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_180 = b_h_178.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
                b_h_181 = b_h_179 * b_h_180  # elementwise7: stage 2, partition 0 (group 0)
                b_h_182 = b_h_181.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_183 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_182)  # elementwise7: stage 2, partition 0 (group 0)
                fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
                b_h_184 = warpgroup_mma(b_k_139_buf.index((twill_base + twill_b - 2) % 2), b_h_183, b_h_177)  # elementwise7: stage 2, partition 0 (group 0)
                v19_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
                v19_r1 = b_h_184  # elementwise7: stage 2, partition 0 (group 0)
                v19_r2 = b_o_175  # elementwise7: stage 2, partition 0 (group 0)
                v19_r3 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
            else:  # elementwise7: stage 2, partition 0 (group 0)
                b_o_169_b250 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
                b_o_170_b251 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169_b250)  # elementwise7: stage 2, partition 0 (group 0)
                fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
                b_o_171_b252 = warpgroup_mma(b_q_164_p1, b_o_170_b251, gl.full([64, 64], 0.0, gl.float32, layout=L8))  # elementwise7: stage 2, partition 0 (group 0)
                b_o_172_b253 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
                b_o_173_b254 = b_o_172_b253.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
                b_o_174_b255 = b_o_171_b252 * b_o_173_b254  # elementwise7: stage 2, partition 0 (group 0)
                b_o_175_b256 = b_o_167_p1 + b_o_174_b255  # elementwise7: stage 2, partition 0 (group 0)
                v23 = NT_108 - 1  # elementwise7: stage 2, partition 0 (group 0)
                v24 = (0 + (twill_b - 2) * 1) == v23  # elementwise7: stage 2, partition 0 (group 0)
                v25 = T % 64  # elementwise7: stage 2, partition 0 (group 0)
                v26 = v25 != 0  # elementwise7: stage 2, partition 0 (group 0)
                v27 = v24 & v26  # elementwise7: stage 2, partition 0 (group 0)
                if v27:  # elementwise7: stage 2, partition 0 (group 0)
                    d_b_186 = gl.cast(v25, gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                    d_b_187 = d_b_186 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                    d_b_188 = gl.exp2(d_b_187)  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_190 = v25 - o_i  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_191 = d_h_190 - 1  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_192 = d_h_191.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_193 = d_h_192 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_194 = gl.exp2(d_h_193)  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r0 = d_b_188  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r1 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r2 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
                else:  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r1 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r2 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
                b_h_178_b277 = d_h_176_r0 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
                b_h_179_b278 = gl.expand_dims(d_h_176_r2, 1)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_180_b279 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_181_b280 = b_h_179_b278.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
                b_h_182_b281 = b_h_180_b279 * b_h_181_b280  # elementwise7: stage 2, partition 0 (group 0)
                b_h_183_b282 = b_h_182_b281.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_184_b283 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_183_b282)  # elementwise7: stage 2, partition 0 (group 0)
                fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
                b_h_185 = warpgroup_mma(b_k_139_buf.index((twill_base + twill_b - 2) % 2), b_h_184_b283, b_h_178_b277)  # elementwise7: stage 2, partition 0 (group 0)
                v19_r0 = d_h_176_r0  # elementwise7: stage 2, partition 0 (group 0)
                v19_r1 = b_h_185  # elementwise7: stage 2, partition 0 (group 0)
                v19_r2 = b_o_175_b256  # elementwise7: stage 2, partition 0 (group 0)
                v19_r3 = d_h_176_r1  # elementwise7: stage 2, partition 0 (group 0)
            mbarrier.arrive(b_k_139_empty.index((twill_base + twill_b - 2) % 2))
            v20 = v19_r2.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
            v22 = gl.convert_layout(v20, L9)  # convert3: stage 2, partition 0 (group 0)
            p_q_168 = p_q_168_p1 + 64  # load0_b_k: stage 0, partition 0 (group 0)
            b_q_155 = b_v_143 * p_q_40  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_156 = b_q_155.broadcast_to([64, 64])  # load2_b_q: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_q_160 = b_q_160_as.index((twill_base + twill_b - 1) % 2).load(L9)  # load2_b_q: stage 1, partition 0 (group 0)
            b_q_157 = b_q_156 + b_q_116  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_158 = p_q_37 + b_q_157  # load2_b_q: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_b_q: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_q_160_as.index((twill_base + twill_b - 0) % 2), b_q_158, mask=b_q_159)  # load2_b_q: stage 0, partition 0 (group 0)
            else:  # load2_b_q: stage 0, partition 0 (group 0)
                b_q_160_as.index((twill_base + twill_b - 0) % 2).store(gl.load(b_q_158, mask=b_q_159))  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_161 = b_q_160.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
            v21 = p_o_49 + b_v_146_p1  # store0: stage 2, partition 0 (group 0)
            gl.store(v21, v22, mask=b_v_152_p1)  # store0: stage 2, partition 0 (group 0)
            b_q_162 = b_q_161 * scale  # elementwise5_b_q: stage 1, partition 0 (group 0)
            b_q_163 = b_q_162.to(gl.float16)  # convert1_b_q: stage 1, partition 0 (group 0)
            b_q_164 = gl.convert_layout(b_q_163, L10)  # convert1_b_q: stage 1, partition 0 (group 0)
            mbarrier.wait(b_k_139_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            fence_async_shared()
            b_q_163_st.store(b_q_163)  # dot0_b_s: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot0_b_s: stage 1, partition 0 (group 0)
            tok_b_s = warpgroup_mma(b_q_163_st, b_k_139_buf.index((twill_base + twill_b - 1) % 2), gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
            b_s = warpgroup_mma_wait(0, deps=(tok_b_s,))
            b_s_165 = b_s * d_s_36  # elementwise6_b_s: stage 1, partition 0 (group 0)
            b_o = b_s_165.to(gl.float16)  # convert2_b_o: stage 1, partition 0 (group 0)
            b_v_154 = b_v_154_st.index((twill_b - 1) % 2)  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_154.store(b_v_153)  # load1_b_v: stage 1, partition 0 (group 0)
            fence_async_shared()  # load1_b_v: stage 1, partition 0 (group 0)
            b_o_st.store(b_o)  # dot1_b_o: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot1_b_o: stage 1, partition 0 (group 0)
            tok_b_o_167 = warpgroup_mma(b_o_st, b_v_154, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            b_o_167 = warpgroup_mma_wait(1, deps=(tok_b_o_167,))
            b_o_167_p1 = b_o_167
            b_q_164_p1 = b_q_164
            b_v_143_p1 = b_v_143
            b_v_146_p1 = b_v_146
            b_v_151_p1 = b_v_151
            b_v_152_p1 = b_v_152
            b_v_153_p1 = b_v_153
            p_q_168_p2 = p_q_168_p1
            p_q_168_p1 = p_q_168
            v19_r0_p1 = v19_r0
            v19_r1_p1 = v19_r1
            v19_r3_p1 = v19_r3
        b_v_152 = b_v_151_p1 & b_h_101  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_k_127 = p_q_168_p2  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_128 = b_k_127 + b_h_59  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_129 = gl.expand_dims(b_k_128, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_134 = b_k_129 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_135 = b_k_129 < p_q_39  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_136 = b_k_134 & b_k_135  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_137 = b_k_136.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_138 = b_h_93 & b_k_137  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_v_144 = b_v_143_p1 * p_v_44  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_145 = b_v_144.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_146 = b_v_145 + b_h_78  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_147 = p_v_42 + b_v_146  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_153 = gl.load(b_v_147, mask=b_v_152)  # load1_b_v: stage 1, partition 0 (group 0)
        v18 = (0 + ((twill_n - 1 + 1) - 2) * 1) == 0  # elementwise7: stage 2, partition 0 (group 0)
        b_o_167_p1 = warpgroup_mma_wait(0, deps=(b_o_167_p1,))
        if v18:  # elementwise7: stage 2, partition 0 (group 0)
            b_o_169 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_170 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_o_171 = warpgroup_mma(b_q_164_p1, b_o_170, gl.full([64, 64], 0.0, gl.float32, layout=L8))  # elementwise7: stage 2, partition 0 (group 0)
            b_o_172 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_173 = b_o_172.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_o_174 = b_o_171 * b_o_173  # elementwise7: stage 2, partition 0 (group 0)
            b_o_175 = b_o_167_p1 + b_o_174  # elementwise7: stage 2, partition 0 (group 0)
            b_h_177 = v19_r0_p1 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_178 = gl.expand_dims(v19_r3_p1, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_179 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_180 = b_h_178.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_h_181 = b_h_179 * b_h_180  # elementwise7: stage 2, partition 0 (group 0)
            b_h_182 = b_h_181.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_183 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_182)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_h_184 = warpgroup_mma(b_k_139_buf.index((twill_base + (twill_n - 1 + 1) - 2) % 2), b_h_183, b_h_177)  # elementwise7: stage 2, partition 0 (group 0)
            v19_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
            v19_r1 = b_h_184  # elementwise7: stage 2, partition 0 (group 0)
            v19_r2 = b_o_175  # elementwise7: stage 2, partition 0 (group 0)
            v19_r3 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
        else:  # elementwise7: stage 2, partition 0 (group 0)
            b_o_169_b250 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_170_b251 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169_b250)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_o_171_b252 = warpgroup_mma(b_q_164_p1, b_o_170_b251, gl.full([64, 64], 0.0, gl.float32, layout=L8))  # elementwise7: stage 2, partition 0 (group 0)
            b_o_172_b253 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_173_b254 = b_o_172_b253.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_o_174_b255 = b_o_171_b252 * b_o_173_b254  # elementwise7: stage 2, partition 0 (group 0)
            b_o_175_b256 = b_o_167_p1 + b_o_174_b255  # elementwise7: stage 2, partition 0 (group 0)
            v23 = NT_108 - 1  # elementwise7: stage 2, partition 0 (group 0)
            v24 = (0 + ((twill_n - 1 + 1) - 2) * 1) == v23  # elementwise7: stage 2, partition 0 (group 0)
            v25 = T % 64  # elementwise7: stage 2, partition 0 (group 0)
            v26 = v25 != 0  # elementwise7: stage 2, partition 0 (group 0)
            v27 = v24 & v26  # elementwise7: stage 2, partition 0 (group 0)
            if v27:  # elementwise7: stage 2, partition 0 (group 0)
                d_b_186 = gl.cast(v25, gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                d_b_187 = d_b_186 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                d_b_188 = gl.exp2(d_b_187)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_190 = v25 - o_i  # elementwise7: stage 2, partition 0 (group 0)
                d_h_191 = d_h_190 - 1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_192 = d_h_191.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_193 = d_h_192 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                d_h_194 = gl.exp2(d_h_193)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r0 = d_b_188  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r1 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r2 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
            else:  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r1 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r2 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_178_b277 = d_h_176_r0 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_179_b278 = gl.expand_dims(d_h_176_r2, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_180_b279 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_181_b280 = b_h_179_b278.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_h_182_b281 = b_h_180_b279 * b_h_181_b280  # elementwise7: stage 2, partition 0 (group 0)
            b_h_183_b282 = b_h_182_b281.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_184_b283 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_183_b282)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_h_185 = warpgroup_mma(b_k_139_buf.index((twill_base + (twill_n - 1 + 1) - 2) % 2), b_h_184_b283, b_h_178_b277)  # elementwise7: stage 2, partition 0 (group 0)
            v19_r0 = d_h_176_r0  # elementwise7: stage 2, partition 0 (group 0)
            v19_r1 = b_h_185  # elementwise7: stage 2, partition 0 (group 0)
            v19_r2 = b_o_175_b256  # elementwise7: stage 2, partition 0 (group 0)
            v19_r3 = d_h_176_r1  # elementwise7: stage 2, partition 0 (group 0)
        mbarrier.arrive(b_k_139_empty.index((twill_base + (twill_n - 1 + 1) - 2) % 2))
        v20 = v19_r2.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        v22 = gl.convert_layout(v20, L9)  # convert3: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_q_160 = b_q_160_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L9)  # load2_b_q: stage 1, partition 0 (group 0)
        b_q_161 = b_q_160.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
        v21 = p_o_49 + b_v_146_p1  # store0: stage 2, partition 0 (group 0)
        gl.store(v21, v22, mask=b_v_152_p1)  # store0: stage 2, partition 0 (group 0)
        b_q_162 = b_q_161 * scale  # elementwise5_b_q: stage 1, partition 0 (group 0)
        b_q_163 = b_q_162.to(gl.float16)  # convert1_b_q: stage 1, partition 0 (group 0)
        b_q_164 = gl.convert_layout(b_q_163, L10)  # convert1_b_q: stage 1, partition 0 (group 0)
        mbarrier.wait(b_k_139_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        b_q_163_st.store(b_q_163)  # dot0_b_s: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot0_b_s: stage 1, partition 0 (group 0)
        tok_b_s = warpgroup_mma(b_q_163_st, b_k_139_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
        b_s = warpgroup_mma_wait(0, deps=(tok_b_s,))
        b_s_165 = b_s * d_s_36  # elementwise6_b_s: stage 1, partition 0 (group 0)
        b_o = b_s_165.to(gl.float16)  # convert2_b_o: stage 1, partition 0 (group 0)
        b_v_154 = b_v_154_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_154.store(b_v_153)  # load1_b_v: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_b_v: stage 1, partition 0 (group 0)
        b_o_st.store(b_o)  # dot1_b_o: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot1_b_o: stage 1, partition 0 (group 0)
        tok_b_o_167 = warpgroup_mma(b_o_st, b_v_154, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_o_167 = warpgroup_mma_wait(1, deps=(tok_b_o_167,))
        b_o_167_p1 = b_o_167
        b_q_164_p1 = b_q_164
        b_v_143_p1 = b_v_143
        b_v_146_p1 = b_v_146
        b_v_151_p1 = b_v_151
        b_v_152_p1 = b_v_152
        b_v_153_p1 = b_v_153
        p_q_168_p3 = p_q_168_p2
        p_q_168_p2 = p_q_168_p1
        p_q_168_p1 = p_q_168
        v19_r0_p1 = v19_r0
        v19_r1_p1 = v19_r1
        v19_r3_p1 = v19_r3
        v18 = (0 + ((twill_n - 1 + 2) - 2) * 1) == 0  # elementwise7: stage 2, partition 0 (group 0)
        b_o_167_p1 = warpgroup_mma_wait(0, deps=(b_o_167_p1,))
        if v18:  # elementwise7: stage 2, partition 0 (group 0)
            b_o_169 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_170 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_o_171 = warpgroup_mma(b_q_164_p1, b_o_170, gl.full([64, 64], 0.0, gl.float32, layout=L8))  # elementwise7: stage 2, partition 0 (group 0)
            b_o_172 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_173 = b_o_172.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_o_174 = b_o_171 * b_o_173  # elementwise7: stage 2, partition 0 (group 0)
            b_o_175 = b_o_167_p1 + b_o_174  # elementwise7: stage 2, partition 0 (group 0)
            b_h_177 = v19_r0_p1 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_178 = gl.expand_dims(v19_r3_p1, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_179 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_180 = b_h_178.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_h_181 = b_h_179 * b_h_180  # elementwise7: stage 2, partition 0 (group 0)
            b_h_182 = b_h_181.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_183 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_182)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_h_184 = warpgroup_mma(b_k_139_buf.index((twill_base + (twill_n - 1 + 2) - 2) % 2), b_h_183, b_h_177)  # elementwise7: stage 2, partition 0 (group 0)
            v19_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
            v19_r1 = b_h_184  # elementwise7: stage 2, partition 0 (group 0)
            v19_r2 = b_o_175  # elementwise7: stage 2, partition 0 (group 0)
            v19_r3 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
        else:  # elementwise7: stage 2, partition 0 (group 0)
            b_o_169_b250 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_170_b251 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169_b250)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_o_171_b252 = warpgroup_mma(b_q_164_p1, b_o_170_b251, gl.full([64, 64], 0.0, gl.float32, layout=L8))  # elementwise7: stage 2, partition 0 (group 0)
            b_o_172_b253 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_173_b254 = b_o_172_b253.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_o_174_b255 = b_o_171_b252 * b_o_173_b254  # elementwise7: stage 2, partition 0 (group 0)
            b_o_175_b256 = b_o_167_p1 + b_o_174_b255  # elementwise7: stage 2, partition 0 (group 0)
            v23 = NT_108 - 1  # elementwise7: stage 2, partition 0 (group 0)
            v24 = (0 + ((twill_n - 1 + 2) - 2) * 1) == v23  # elementwise7: stage 2, partition 0 (group 0)
            v25 = T % 64  # elementwise7: stage 2, partition 0 (group 0)
            v26 = v25 != 0  # elementwise7: stage 2, partition 0 (group 0)
            v27 = v24 & v26  # elementwise7: stage 2, partition 0 (group 0)
            if v27:  # elementwise7: stage 2, partition 0 (group 0)
                d_b_186 = gl.cast(v25, gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                d_b_187 = d_b_186 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                d_b_188 = gl.exp2(d_b_187)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_190 = v25 - o_i  # elementwise7: stage 2, partition 0 (group 0)
                d_h_191 = d_h_190 - 1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_192 = d_h_191.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_193 = d_h_192 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                d_h_194 = gl.exp2(d_h_193)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r0 = d_b_188  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r1 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r2 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
            else:  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r1 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r2 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_178_b277 = d_h_176_r0 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_179_b278 = gl.expand_dims(d_h_176_r2, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_180_b279 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_181_b280 = b_h_179_b278.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_h_182_b281 = b_h_180_b279 * b_h_181_b280  # elementwise7: stage 2, partition 0 (group 0)
            b_h_183_b282 = b_h_182_b281.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_184_b283 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_183_b282)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_h_185 = warpgroup_mma(b_k_139_buf.index((twill_base + (twill_n - 1 + 2) - 2) % 2), b_h_184_b283, b_h_178_b277)  # elementwise7: stage 2, partition 0 (group 0)
            v19_r0 = d_h_176_r0  # elementwise7: stage 2, partition 0 (group 0)
            v19_r1 = b_h_185  # elementwise7: stage 2, partition 0 (group 0)
            v19_r2 = b_o_175_b256  # elementwise7: stage 2, partition 0 (group 0)
            v19_r3 = d_h_176_r1  # elementwise7: stage 2, partition 0 (group 0)
        mbarrier.arrive(b_k_139_empty.index((twill_base + (twill_n - 1 + 2) - 2) % 2))
        v20 = v19_r2.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        v22 = gl.convert_layout(v20, L9)  # convert3: stage 2, partition 0 (group 0)
        v21 = p_o_49 + b_v_146_p1  # store0: stage 2, partition 0 (group 0)
        gl.store(v21, v22, mask=b_v_152_p1)  # store0: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        b_o_167_p1 = b_o_167
        b_q_164_p1 = b_q_164
        b_v_143_p1 = b_v_143
        b_v_146_p1 = b_v_146
        b_v_151_p1 = b_v_151
        b_v_152_p1 = b_v_152
        b_v_153_p1 = b_v_153
        p_q_168_p3 = p_q_168_p2
        p_q_168_p2 = p_q_168_p1
        p_q_168_p1 = p_q_168
        v19_r0_p1 = v19_r0
        v19_r1_p1 = v19_r1
        v19_r3_p1 = v19_r3
        b_q_163_st._keep_alive()
        b_k_139_buf._keep_alive()
        b_o_st._keep_alive()
        b_v_154_st._keep_alive()
        p_final = final_state + p_h
        v16 = p_final + b_h_81
        v17 = gl.convert_layout(v19_r1_p1, L11)
        gl.store(v16, v17, mask=b_h_104)
        twill_base += twill_n

@gluon.jit
def producer_1(q, k, v, o, initial_state, final_state, s_qk_h, s_qk_t, s_vo_h, s_vo_t, B, H, T, scale, twill_g0, twill_g1, twill_g2, b_k_139_buf, b_q_160_as, b_q_163_st, b_o_st, b_v_154_st, b_k_139_ready, b_k_139_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        v1 = twill_pid1
        v2 = twill_pid2
        o_i_16 = gl.arange(0, 64, layout=L1)
        o_i_20 = gl.arange(0, 64, layout=L5)
        p_q = v2 * s_qk_h
        p_q_38 = v1 * 64
        p_q_39 = gl.cast(T, gl.int64)
        p_q_40 = gl.cast(s_qk_t, gl.int64)
        p_q_41 = gl.cast(p_q_38, gl.int64)
        p_k = k + p_q
        b_h_56 = o_i_16.to(gl.int64)
        b_h_59 = o_i_20.to(gl.int64)
        b_h_62 = p_q_41 + b_h_56
        b_h_66 = gl.expand_dims(b_h_62, 1)
        b_h_84 = b_h_66 >= 0
        b_h_87 = b_h_66 < 128
        b_h_90 = b_h_84 & b_h_87
        b_h_93 = b_h_90.broadcast_to([64, 64])
        NT_107 = T + 63
        NT_108 = NT_107 // 64
        b_k_109 = b_h_66.broadcast_to([64, 64])
        arg17 = 0
        for p_o_123 in range(0, NT_108, 1):
            twill_k = twill_base + (p_o_123 - 0) // 1
            b_k_128 = arg17 + b_h_59
            b_k_129 = gl.expand_dims(b_k_128, 0)
            b_k_130 = b_k_129 * p_q_40
            b_k_131 = b_k_130.broadcast_to([64, 64])
            b_k_132 = b_k_109 + b_k_131
            b_k_133 = p_k + b_k_132
            b_k_134 = b_k_129 >= 0
            b_k_135 = b_k_129 < p_q_39
            b_k_136 = b_k_134 & b_k_135
            b_k_137 = b_k_136.broadcast_to([64, 64])
            b_k_138 = b_h_93 & b_k_137
            p_q_168 = arg17 + 64
            mbarrier.wait(b_k_139_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_k_139_buf.index(twill_k % 2), b_k_133, mask=b_k_138)  # load0_b_k: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_k_139_ready.index(twill_k % 2), increment_count=False)
            else:
                b_k_139_buf.index(twill_k % 2).store(gl.load(b_k_133, mask=b_k_138, other=0.0))  # load0_b_k: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_k_139_ready.index(twill_k % 2), count=128)
            arg17 = p_q_168
        twill_base += (NT_108 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(q, k, v, o, initial_state, final_state, s_qk_h, s_qk_t, s_vo_h, s_vo_t, B, H, T, scale, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    b_k_139_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    b_q_160_as = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    b_q_163_st = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    b_o_st = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    b_v_154_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_k_139_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_k_139_ready.index(i), count=128)
    b_k_139_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_k_139_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (q, k, v, o, initial_state, final_state, s_qk_h, s_qk_t, s_vo_h, s_vo_t, B, H, T, scale, twill_g0, twill_g1, twill_g2, b_k_139_buf, b_q_160_as, b_q_163_st, b_o_st, b_v_154_st, b_k_139_ready, b_k_139_empty, TWILL_COPY)),
        (producer_1, (q, k, v, o, initial_state, final_state, s_qk_h, s_qk_t, s_vo_h, s_vo_t, B, H, T, scale, twill_g0, twill_g1, twill_g2, b_k_139_buf, b_q_160_as, b_q_163_st, b_o_st, b_v_154_st, b_k_139_ready, b_k_139_empty, TWILL_COPY)),
    ], [4], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L7_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L8_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L10_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L11_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(q, k, v, o, initial_state, final_state, s_qk_h, s_qk_t, s_vo_h, s_vo_t, B, H, T, scale, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    i_h = v2 % H
    o_i = gl.arange(0, 64, layout=L0_short)
    o_i_16 = gl.arange(0, 64, layout=L1_short)
    o_i_17 = gl.arange(0, 64, layout=L2_short)
    o_i_18 = gl.arange(0, 64, layout=L3_short)
    o_i_19 = gl.arange(0, 64, layout=L4_short)
    o_i_20 = gl.arange(0, 64, layout=L5_short)
    o_i_21 = gl.arange(0, 64, layout=L6_short)
    b_b_22 = gl.cast(i_h, gl.float32)
    b_b_23 = -5.0 - b_b_22
    b_b_24 = gl.exp2(b_b_23)
    b_b_25 = 1.0 - b_b_24
    b_b_26 = gl.log2(b_b_25)
    v3 = b_b_26 * 64.0
    d_b = gl.exp2(v3)
    v4 = o_i_18 + 1
    v5 = v4.to(gl.float32)
    v8 = v5 * b_b_26
    v9 = gl.exp2(v8)
    v10 = 64 - o_i
    v11 = v10 - 1
    v12 = v11.to(gl.float32)
    v13 = v12 * b_b_26
    d_h = gl.exp2(v13)
    m_s = gl.expand_dims(o_i_18, 1)
    m_s_27 = gl.arange(0, 64, layout=L7_short)
    m_s_28 = gl.expand_dims(m_s_27, 0)
    m_s_29 = m_s.broadcast_to([64, 64])
    m_s_30 = m_s_28.broadcast_to([64, 64])
    m_s_31 = m_s_29 >= m_s_30
    d_s = m_s_29 - m_s_30
    d_s_32 = d_s.to(gl.float32)
    d_s_34 = d_s_32 * b_b_26
    d_s_35 = gl.exp2(d_s_34)
    d_s_36 = gl.where(m_s_31, d_s_35, 0.0)
    p_q = v2 * s_qk_h
    p_q_37 = q + p_q
    p_q_38 = v1 * 64
    p_q_39 = gl.cast(T, gl.int64)
    p_q_40 = gl.cast(s_qk_t, gl.int64)
    p_q_41 = gl.cast(p_q_38, gl.int64)
    p_k = k + p_q
    p_v = v2 * s_vo_h
    p_v_42 = v + p_v
    p_v_43 = v0 * 64
    p_v_44 = gl.cast(s_vo_t, gl.int64)
    p_v_45 = gl.cast(p_v_43, gl.int64)
    p_o = v1 * B
    p_o_46 = p_o * H
    p_o_47 = v2 + p_o_46
    p_o_48 = p_o_47 * s_vo_h
    p_o_49 = o + p_o_48
    p_h = v2 * 16384
    p_h_50 = initial_state + p_h
    b_h_55 = o_i.to(gl.int64)
    b_h_56 = o_i_16.to(gl.int64)
    b_h_57 = o_i_17.to(gl.int64)
    b_h_58 = o_i_19.to(gl.int64)
    b_h_59 = o_i_20.to(gl.int64)
    b_h_60 = o_i_21.to(gl.int64)
    b_h_61 = p_q_41 + b_h_55
    b_h_62 = p_q_41 + b_h_56
    b_h_63 = p_q_41 + b_h_57
    b_h_64 = p_q_41 + b_h_58
    b_h_65 = gl.expand_dims(b_h_61, 1)
    b_h_66 = gl.expand_dims(b_h_62, 1)
    b_h_67 = gl.expand_dims(b_h_63, 1)
    b_h_68 = b_h_65 * 128
    b_h_69 = b_h_67 * 128
    b_h_70 = b_h_68.broadcast_to([64, 64])
    b_h_71 = b_h_69.broadcast_to([64, 64])
    b_h_74 = p_v_45 + b_h_58
    b_h_75 = p_v_45 + b_h_60
    b_h_76 = gl.expand_dims(b_h_74, 0)
    b_h_77 = gl.expand_dims(b_h_75, 0)
    b_h_78 = b_h_76.broadcast_to([64, 64])
    b_h_79 = b_h_77.broadcast_to([64, 64])
    b_h_80 = b_h_70 + b_h_78
    b_h_81 = b_h_71 + b_h_79
    b_h_82 = p_h_50 + b_h_80
    b_h_83 = b_h_65 >= 0
    b_h_84 = b_h_66 >= 0
    b_h_85 = b_h_67 >= 0
    b_h_86 = b_h_65 < 128
    b_h_87 = b_h_66 < 128
    b_h_88 = b_h_67 < 128
    b_h_89 = b_h_83 & b_h_86
    b_h_90 = b_h_84 & b_h_87
    b_h_91 = b_h_85 & b_h_88
    b_h_92 = b_h_89.broadcast_to([64, 64])
    b_h_93 = b_h_90.broadcast_to([64, 64])
    b_h_94 = b_h_91.broadcast_to([64, 64])
    b_h_95 = b_h_76 >= 0
    b_h_96 = b_h_77 >= 0
    b_h_97 = b_h_76 < 128
    b_h_98 = b_h_77 < 128
    b_h_99 = b_h_95 & b_h_97
    b_h_100 = b_h_96 & b_h_98
    b_h_101 = b_h_99.broadcast_to([64, 64])
    b_h_102 = b_h_100.broadcast_to([64, 64])
    b_h_103 = b_h_92 & b_h_101
    b_h_104 = b_h_94 & b_h_102
    b_h_105 = gl.load(b_h_82, mask=b_h_103)
    b_h_106 = gl.convert_layout(b_h_105, L8_short)
    NT_107 = T + 63
    NT_108 = NT_107 // 64
    b_k_109 = b_h_66.broadcast_to([64, 64])
    b_q_115 = gl.expand_dims(b_h_64, 0)
    b_q_116 = b_q_115.broadcast_to([64, 64])
    b_q_117 = b_q_115 >= 0
    b_q_118 = b_q_115 < 128
    b_q_119 = b_q_117 & b_q_118
    b_q_120 = b_q_119.broadcast_to([64, 64])
    twill_n = (NT_108 - 0 + 1 - 1) // 1
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        b_q_160_as = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
        b_k_140_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        b_v_154_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        p_q_168 = gl.to_tensor(0).to(gl.int64)
        p_q_168_p1 = p_q_168
        b_v_141 = p_q_168_p1  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_142 = b_v_141 + b_h_55  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_143 = gl.expand_dims(b_v_142, 1)  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_148 = b_v_143 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_149 = b_v_143 < p_q_39  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_150 = b_v_148 & b_v_149  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_151 = b_v_150.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
        b_q_159 = b_v_151 & b_q_120  # elementwise4_b_q: stage 0, partition 0 (group 0)
        p_q_168 = p_q_168_p1 + 64  # load0_b_k: stage 0, partition 0 (group 0)
        b_q_155 = b_v_143 * p_q_40  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_156 = b_q_155.broadcast_to([64, 64])  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_157 = b_q_156 + b_q_116  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_158 = p_q_37 + b_q_157  # load2_b_q: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_b_q: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_q_160_as.index((0 - 0) % 2), b_q_158, mask=b_q_159)  # load2_b_q: stage 0, partition 0 (group 0)
        else:  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_160_as.index((0 - 0) % 2).store(gl.load(b_q_158, mask=b_q_159))  # load2_b_q: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        b_v_143_p1 = b_v_143
        b_v_151_p1 = b_v_151
        p_q_168_p2 = p_q_168_p1
        p_q_168_p1 = p_q_168
        v19_r0 = d_b
        v19_r1 = b_h_106
        v19_r3 = d_h
        b_v_141 = p_q_168_p1  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_142 = b_v_141 + b_h_55  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_143 = gl.expand_dims(b_v_142, 1)  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_148 = b_v_143 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_149 = b_v_143 < p_q_39  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_150 = b_v_148 & b_v_149  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_151 = b_v_150.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
        b_v_152 = b_v_151_p1 & b_h_101  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_k_127 = p_q_168_p2  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_128 = b_k_127 + b_h_59  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_129 = gl.expand_dims(b_k_128, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_134 = b_k_129 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_135 = b_k_129 < p_q_39  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_136 = b_k_134 & b_k_135  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_137 = b_k_136.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_138 = b_h_93 & b_k_137  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_q_159 = b_v_151 & b_q_120  # elementwise4_b_q: stage 0, partition 0 (group 0)
        b_v_144 = b_v_143_p1 * p_v_44  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_145 = b_v_144.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_146 = b_v_145 + b_h_78  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_147 = p_v_42 + b_v_146  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_153 = gl.load(b_v_147, mask=b_v_152)  # load1_b_v: stage 1, partition 0 (group 0)
        p_q_168 = p_q_168_p1 + 64  # load0_b_k: stage 0, partition 0 (group 0)
        b_q_155 = b_v_143 * p_q_40  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_156 = b_q_155.broadcast_to([64, 64])  # load2_b_q: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_q_160 = b_q_160_as.index((1 - 1) % 2).load(L9_short)  # load2_b_q: stage 1, partition 0 (group 0)
        b_q_157 = b_q_156 + b_q_116  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_158 = p_q_37 + b_q_157  # load2_b_q: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_b_q: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_q_160_as.index((1 - 0) % 2), b_q_158, mask=b_q_159)  # load2_b_q: stage 0, partition 0 (group 0)
        else:  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_160_as.index((1 - 0) % 2).store(gl.load(b_q_158, mask=b_q_159))  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_161 = b_q_160.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
        b_q_162 = b_q_161 * scale  # elementwise5_b_q: stage 1, partition 0 (group 0)
        b_q_163 = b_q_162.to(gl.float16)  # convert1_b_q: stage 1, partition 0 (group 0)
        b_q_164 = gl.convert_layout(b_q_163, L10_short)  # convert1_b_q: stage 1, partition 0 (group 0)
        b_k_130 = b_k_129 * p_q_40  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_131 = b_k_130.broadcast_to([64, 64])  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_132 = b_k_109 + b_k_131  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_133 = p_k + b_k_132  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_139 = gl.load(b_k_133, mask=b_k_138)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_140 = b_k_140_st.index((1 - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_140.store(b_k_139)  # load0_b_k: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
        tok_b_s = warpgroup_mma(b_q_164, b_k_140, gl.full([64, 64], 0.0, gl.float32, layout=L8_short), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
        b_s = warpgroup_mma_wait(0, deps=(tok_b_s,))
        b_s_165 = b_s * d_s_36  # elementwise6_b_s: stage 1, partition 0 (group 0)
        b_o = b_s_165.to(gl.float16)  # convert2_b_o: stage 1, partition 0 (group 0)
        b_o_166 = gl.convert_layout(b_o, L10_short)  # convert2_b_o: stage 1, partition 0 (group 0)
        b_v_154 = b_v_154_st.index((1 - 1) % 2)  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_154.store(b_v_153)  # load1_b_v: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_b_v: stage 1, partition 0 (group 0)
        tok_b_o_167 = warpgroup_mma(b_o_166, b_v_154, gl.full([64, 64], 0.0, gl.float32, layout=L8_short), use_acc=False, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_o_167 = warpgroup_mma_wait(1, deps=(tok_b_o_167,))
        b_k_140_p1 = b_k_140
        b_o_167_p1 = b_o_167
        b_q_164_p1 = b_q_164
        b_v_143_p1 = b_v_143
        b_v_146_p1 = b_v_146
        b_v_151_p1 = b_v_151
        b_v_152_p1 = b_v_152
        b_v_153_p1 = b_v_153
        p_q_168_p2 = p_q_168_p1
        p_q_168_p1 = p_q_168
        v19_r0_p1 = v19_r0
        v19_r1_p1 = v19_r1
        v19_r3_p1 = v19_r3
        for twill_b in range(2, twill_n):
            b_v_141 = p_q_168_p1  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_142 = b_v_141 + b_h_55  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_143 = gl.expand_dims(b_v_142, 1)  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_148 = b_v_143 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_149 = b_v_143 < p_q_39  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_150 = b_v_148 & b_v_149  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_151 = b_v_150.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_v_152 = b_v_151_p1 & b_h_101  # elementwise3_b_v: stage 1, partition 0 (group 0)
            b_k_127 = p_q_168_p2  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_128 = b_k_127 + b_h_59  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_129 = gl.expand_dims(b_k_128, 0)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_134 = b_k_129 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_135 = b_k_129 < p_q_39  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_136 = b_k_134 & b_k_135  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_137 = b_k_136.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_k_138 = b_h_93 & b_k_137  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_q_159 = b_v_151 & b_q_120  # elementwise4_b_q: stage 0, partition 0 (group 0)
            b_v_144 = b_v_143_p1 * p_v_44  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_145 = b_v_144.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_146 = b_v_145 + b_h_78  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_147 = p_v_42 + b_v_146  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_153 = gl.load(b_v_147, mask=b_v_152)  # load1_b_v: stage 1, partition 0 (group 0)
            v18 = (0 + (twill_b - 2) * 1) == 0  # elementwise7: stage 2, partition 0 (group 0)
            b_o_167_p1 = warpgroup_mma_wait(0, deps=(b_o_167_p1,))
            if v18:  # elementwise7: stage 2, partition 0 (group 0)
                b_o_169 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
                b_o_170 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169)  # elementwise7: stage 2, partition 0 (group 0)
                fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
                b_o_171 = warpgroup_mma(b_q_164_p1, b_o_170, gl.full([64, 64], 0.0, gl.float32, layout=L8_short))  # elementwise7: stage 2, partition 0 (group 0)
                b_o_172 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
                b_o_173 = b_o_172.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
                b_o_174 = b_o_171 * b_o_173  # elementwise7: stage 2, partition 0 (group 0)
                b_o_175 = b_o_167_p1 + b_o_174  # elementwise7: stage 2, partition 0 (group 0)
                b_h_177 = v19_r0_p1 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
                b_h_178 = gl.expand_dims(v19_r3_p1, 1)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_179 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_180 = b_h_178.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
                b_h_181 = b_h_179 * b_h_180  # elementwise7: stage 2, partition 0 (group 0)
                b_h_182 = b_h_181.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_183 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_182)  # elementwise7: stage 2, partition 0 (group 0)
                fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
                b_h_184 = warpgroup_mma(b_k_140_p1, b_h_183, b_h_177)  # elementwise7: stage 2, partition 0 (group 0)
                v19_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
                v19_r1 = b_h_184  # elementwise7: stage 2, partition 0 (group 0)
                v19_r2 = b_o_175  # elementwise7: stage 2, partition 0 (group 0)
                v19_r3 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
            else:  # elementwise7: stage 2, partition 0 (group 0)
                b_o_169_b250 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
                b_o_170_b251 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169_b250)  # elementwise7: stage 2, partition 0 (group 0)
                fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
                b_o_171_b252 = warpgroup_mma(b_q_164_p1, b_o_170_b251, gl.full([64, 64], 0.0, gl.float32, layout=L8_short))  # elementwise7: stage 2, partition 0 (group 0)
                b_o_172_b253 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
                b_o_173_b254 = b_o_172_b253.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
                b_o_174_b255 = b_o_171_b252 * b_o_173_b254  # elementwise7: stage 2, partition 0 (group 0)
                b_o_175_b256 = b_o_167_p1 + b_o_174_b255  # elementwise7: stage 2, partition 0 (group 0)
                v23 = NT_108 - 1  # elementwise7: stage 2, partition 0 (group 0)
                v24 = (0 + (twill_b - 2) * 1) == v23  # elementwise7: stage 2, partition 0 (group 0)
                v25 = T % 64  # elementwise7: stage 2, partition 0 (group 0)
                v26 = v25 != 0  # elementwise7: stage 2, partition 0 (group 0)
                v27 = v24 & v26  # elementwise7: stage 2, partition 0 (group 0)
                if v27:  # elementwise7: stage 2, partition 0 (group 0)
                    d_b_186 = gl.cast(v25, gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                    d_b_187 = d_b_186 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                    d_b_188 = gl.exp2(d_b_187)  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_190 = v25 - o_i  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_191 = d_h_190 - 1  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_192 = d_h_191.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_193 = d_h_192 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_194 = gl.exp2(d_h_193)  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r0 = d_b_188  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r1 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r2 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
                else:  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r1 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
                    d_h_176_r2 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
                b_h_178_b277 = d_h_176_r0 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
                b_h_179_b278 = gl.expand_dims(d_h_176_r2, 1)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_180_b279 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_181_b280 = b_h_179_b278.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
                b_h_182_b281 = b_h_180_b279 * b_h_181_b280  # elementwise7: stage 2, partition 0 (group 0)
                b_h_183_b282 = b_h_182_b281.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
                b_h_184_b283 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_183_b282)  # elementwise7: stage 2, partition 0 (group 0)
                fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
                b_h_185 = warpgroup_mma(b_k_140_p1, b_h_184_b283, b_h_178_b277)  # elementwise7: stage 2, partition 0 (group 0)
                v19_r0 = d_h_176_r0  # elementwise7: stage 2, partition 0 (group 0)
                v19_r1 = b_h_185  # elementwise7: stage 2, partition 0 (group 0)
                v19_r2 = b_o_175_b256  # elementwise7: stage 2, partition 0 (group 0)
                v19_r3 = d_h_176_r1  # elementwise7: stage 2, partition 0 (group 0)
            v20 = v19_r2.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
            v22 = gl.convert_layout(v20, L9_short)  # convert3: stage 2, partition 0 (group 0)
            p_q_168 = p_q_168_p1 + 64  # load0_b_k: stage 0, partition 0 (group 0)
            b_q_155 = b_v_143 * p_q_40  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_156 = b_q_155.broadcast_to([64, 64])  # load2_b_q: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_q_160 = b_q_160_as.index((twill_b - 1) % 2).load(L9_short)  # load2_b_q: stage 1, partition 0 (group 0)
            b_q_157 = b_q_156 + b_q_116  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_158 = p_q_37 + b_q_157  # load2_b_q: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_b_q: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_q_160_as.index((twill_b - 0) % 2), b_q_158, mask=b_q_159)  # load2_b_q: stage 0, partition 0 (group 0)
            else:  # load2_b_q: stage 0, partition 0 (group 0)
                b_q_160_as.index((twill_b - 0) % 2).store(gl.load(b_q_158, mask=b_q_159))  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_161 = b_q_160.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
            v21 = p_o_49 + b_v_146_p1  # store0: stage 2, partition 0 (group 0)
            gl.store(v21, v22, mask=b_v_152_p1)  # store0: stage 2, partition 0 (group 0)
            b_q_162 = b_q_161 * scale  # elementwise5_b_q: stage 1, partition 0 (group 0)
            b_q_163 = b_q_162.to(gl.float16)  # convert1_b_q: stage 1, partition 0 (group 0)
            b_q_164 = gl.convert_layout(b_q_163, L10_short)  # convert1_b_q: stage 1, partition 0 (group 0)
            b_k_130 = b_k_129 * p_q_40  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_131 = b_k_130.broadcast_to([64, 64])  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_132 = b_k_109 + b_k_131  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_133 = p_k + b_k_132  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_139 = gl.load(b_k_133, mask=b_k_138)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_140 = b_k_140_st.index((twill_b - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_140.store(b_k_139)  # load0_b_k: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
            tok_b_s = warpgroup_mma(b_q_164, b_k_140, gl.full([64, 64], 0.0, gl.float32, layout=L8_short), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
            b_s = warpgroup_mma_wait(0, deps=(tok_b_s,))
            b_s_165 = b_s * d_s_36  # elementwise6_b_s: stage 1, partition 0 (group 0)
            b_o = b_s_165.to(gl.float16)  # convert2_b_o: stage 1, partition 0 (group 0)
            b_o_166 = gl.convert_layout(b_o, L10_short)  # convert2_b_o: stage 1, partition 0 (group 0)
            b_v_154 = b_v_154_st.index((twill_b - 1) % 2)  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_154.store(b_v_153)  # load1_b_v: stage 1, partition 0 (group 0)
            fence_async_shared()  # load1_b_v: stage 1, partition 0 (group 0)
            tok_b_o_167 = warpgroup_mma(b_o_166, b_v_154, gl.full([64, 64], 0.0, gl.float32, layout=L8_short), use_acc=False, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            b_o_167 = warpgroup_mma_wait(1, deps=(tok_b_o_167,))
            b_k_140_p1 = b_k_140
            b_o_167_p1 = b_o_167
            b_q_164_p1 = b_q_164
            b_v_143_p1 = b_v_143
            b_v_146_p1 = b_v_146
            b_v_151_p1 = b_v_151
            b_v_152_p1 = b_v_152
            b_v_153_p1 = b_v_153
            p_q_168_p2 = p_q_168_p1
            p_q_168_p1 = p_q_168
            v19_r0_p1 = v19_r0
            v19_r1_p1 = v19_r1
            v19_r3_p1 = v19_r3
        b_v_152 = b_v_151_p1 & b_h_101  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_k_127 = p_q_168_p2  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_128 = b_k_127 + b_h_59  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_129 = gl.expand_dims(b_k_128, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_134 = b_k_129 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_135 = b_k_129 < p_q_39  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_136 = b_k_134 & b_k_135  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_137 = b_k_136.broadcast_to([64, 64])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_138 = b_h_93 & b_k_137  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_v_144 = b_v_143_p1 * p_v_44  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_145 = b_v_144.broadcast_to([64, 64])  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_146 = b_v_145 + b_h_78  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_147 = p_v_42 + b_v_146  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_153 = gl.load(b_v_147, mask=b_v_152)  # load1_b_v: stage 1, partition 0 (group 0)
        v18 = (0 + ((twill_n - 1 + 1) - 2) * 1) == 0  # elementwise7: stage 2, partition 0 (group 0)
        b_o_167_p1 = warpgroup_mma_wait(0, deps=(b_o_167_p1,))
        if v18:  # elementwise7: stage 2, partition 0 (group 0)
            b_o_169 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_170 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_o_171 = warpgroup_mma(b_q_164_p1, b_o_170, gl.full([64, 64], 0.0, gl.float32, layout=L8_short))  # elementwise7: stage 2, partition 0 (group 0)
            b_o_172 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_173 = b_o_172.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_o_174 = b_o_171 * b_o_173  # elementwise7: stage 2, partition 0 (group 0)
            b_o_175 = b_o_167_p1 + b_o_174  # elementwise7: stage 2, partition 0 (group 0)
            b_h_177 = v19_r0_p1 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_178 = gl.expand_dims(v19_r3_p1, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_179 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_180 = b_h_178.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_h_181 = b_h_179 * b_h_180  # elementwise7: stage 2, partition 0 (group 0)
            b_h_182 = b_h_181.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_183 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_182)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_h_184 = warpgroup_mma(b_k_140_p1, b_h_183, b_h_177)  # elementwise7: stage 2, partition 0 (group 0)
            v19_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
            v19_r1 = b_h_184  # elementwise7: stage 2, partition 0 (group 0)
            v19_r2 = b_o_175  # elementwise7: stage 2, partition 0 (group 0)
            v19_r3 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
        else:  # elementwise7: stage 2, partition 0 (group 0)
            b_o_169_b250 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_170_b251 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169_b250)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_o_171_b252 = warpgroup_mma(b_q_164_p1, b_o_170_b251, gl.full([64, 64], 0.0, gl.float32, layout=L8_short))  # elementwise7: stage 2, partition 0 (group 0)
            b_o_172_b253 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_173_b254 = b_o_172_b253.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_o_174_b255 = b_o_171_b252 * b_o_173_b254  # elementwise7: stage 2, partition 0 (group 0)
            b_o_175_b256 = b_o_167_p1 + b_o_174_b255  # elementwise7: stage 2, partition 0 (group 0)
            v23 = NT_108 - 1  # elementwise7: stage 2, partition 0 (group 0)
            v24 = (0 + ((twill_n - 1 + 1) - 2) * 1) == v23  # elementwise7: stage 2, partition 0 (group 0)
            v25 = T % 64  # elementwise7: stage 2, partition 0 (group 0)
            v26 = v25 != 0  # elementwise7: stage 2, partition 0 (group 0)
            v27 = v24 & v26  # elementwise7: stage 2, partition 0 (group 0)
            if v27:  # elementwise7: stage 2, partition 0 (group 0)
                d_b_186 = gl.cast(v25, gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                d_b_187 = d_b_186 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                d_b_188 = gl.exp2(d_b_187)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_190 = v25 - o_i  # elementwise7: stage 2, partition 0 (group 0)
                d_h_191 = d_h_190 - 1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_192 = d_h_191.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_193 = d_h_192 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                d_h_194 = gl.exp2(d_h_193)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r0 = d_b_188  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r1 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r2 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
            else:  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r1 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r2 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_178_b277 = d_h_176_r0 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_179_b278 = gl.expand_dims(d_h_176_r2, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_180_b279 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_181_b280 = b_h_179_b278.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_h_182_b281 = b_h_180_b279 * b_h_181_b280  # elementwise7: stage 2, partition 0 (group 0)
            b_h_183_b282 = b_h_182_b281.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_184_b283 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_183_b282)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_h_185 = warpgroup_mma(b_k_140_p1, b_h_184_b283, b_h_178_b277)  # elementwise7: stage 2, partition 0 (group 0)
            v19_r0 = d_h_176_r0  # elementwise7: stage 2, partition 0 (group 0)
            v19_r1 = b_h_185  # elementwise7: stage 2, partition 0 (group 0)
            v19_r2 = b_o_175_b256  # elementwise7: stage 2, partition 0 (group 0)
            v19_r3 = d_h_176_r1  # elementwise7: stage 2, partition 0 (group 0)
        v20 = v19_r2.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        v22 = gl.convert_layout(v20, L9_short)  # convert3: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_q_160 = b_q_160_as.index(((twill_n - 1 + 1) - 1) % 2).load(L9_short)  # load2_b_q: stage 1, partition 0 (group 0)
        b_q_161 = b_q_160.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
        v21 = p_o_49 + b_v_146_p1  # store0: stage 2, partition 0 (group 0)
        gl.store(v21, v22, mask=b_v_152_p1)  # store0: stage 2, partition 0 (group 0)
        b_q_162 = b_q_161 * scale  # elementwise5_b_q: stage 1, partition 0 (group 0)
        b_q_163 = b_q_162.to(gl.float16)  # convert1_b_q: stage 1, partition 0 (group 0)
        b_q_164 = gl.convert_layout(b_q_163, L10_short)  # convert1_b_q: stage 1, partition 0 (group 0)
        b_k_130 = b_k_129 * p_q_40  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_131 = b_k_130.broadcast_to([64, 64])  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_132 = b_k_109 + b_k_131  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_133 = p_k + b_k_132  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_139 = gl.load(b_k_133, mask=b_k_138)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_140 = b_k_140_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_140.store(b_k_139)  # load0_b_k: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
        tok_b_s = warpgroup_mma(b_q_164, b_k_140, gl.full([64, 64], 0.0, gl.float32, layout=L8_short), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
        b_s = warpgroup_mma_wait(0, deps=(tok_b_s,))
        b_s_165 = b_s * d_s_36  # elementwise6_b_s: stage 1, partition 0 (group 0)
        b_o = b_s_165.to(gl.float16)  # convert2_b_o: stage 1, partition 0 (group 0)
        b_o_166 = gl.convert_layout(b_o, L10_short)  # convert2_b_o: stage 1, partition 0 (group 0)
        b_v_154 = b_v_154_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_154.store(b_v_153)  # load1_b_v: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_b_v: stage 1, partition 0 (group 0)
        tok_b_o_167 = warpgroup_mma(b_o_166, b_v_154, gl.full([64, 64], 0.0, gl.float32, layout=L8_short), use_acc=False, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_o_167 = warpgroup_mma_wait(1, deps=(tok_b_o_167,))
        b_k_140_p1 = b_k_140
        b_o_167_p1 = b_o_167
        b_q_164_p1 = b_q_164
        b_v_143_p1 = b_v_143
        b_v_146_p1 = b_v_146
        b_v_151_p1 = b_v_151
        b_v_152_p1 = b_v_152
        b_v_153_p1 = b_v_153
        p_q_168_p3 = p_q_168_p2
        p_q_168_p2 = p_q_168_p1
        p_q_168_p1 = p_q_168
        v19_r0_p1 = v19_r0
        v19_r1_p1 = v19_r1
        v19_r3_p1 = v19_r3
        v18 = (0 + ((twill_n - 1 + 2) - 2) * 1) == 0  # elementwise7: stage 2, partition 0 (group 0)
        b_o_167_p1 = warpgroup_mma_wait(0, deps=(b_o_167_p1,))
        if v18:  # elementwise7: stage 2, partition 0 (group 0)
            b_o_169 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_170 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_o_171 = warpgroup_mma(b_q_164_p1, b_o_170, gl.full([64, 64], 0.0, gl.float32, layout=L8_short))  # elementwise7: stage 2, partition 0 (group 0)
            b_o_172 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_173 = b_o_172.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_o_174 = b_o_171 * b_o_173  # elementwise7: stage 2, partition 0 (group 0)
            b_o_175 = b_o_167_p1 + b_o_174  # elementwise7: stage 2, partition 0 (group 0)
            b_h_177 = v19_r0_p1 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_178 = gl.expand_dims(v19_r3_p1, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_179 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_180 = b_h_178.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_h_181 = b_h_179 * b_h_180  # elementwise7: stage 2, partition 0 (group 0)
            b_h_182 = b_h_181.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_183 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_182)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_h_184 = warpgroup_mma(b_k_140_p1, b_h_183, b_h_177)  # elementwise7: stage 2, partition 0 (group 0)
            v19_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
            v19_r1 = b_h_184  # elementwise7: stage 2, partition 0 (group 0)
            v19_r2 = b_o_175  # elementwise7: stage 2, partition 0 (group 0)
            v19_r3 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
        else:  # elementwise7: stage 2, partition 0 (group 0)
            b_o_169_b250 = v19_r1_p1.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_170_b251 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169_b250)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_o_171_b252 = warpgroup_mma(b_q_164_p1, b_o_170_b251, gl.full([64, 64], 0.0, gl.float32, layout=L8_short))  # elementwise7: stage 2, partition 0 (group 0)
            b_o_172_b253 = gl.expand_dims(v9, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_o_173_b254 = b_o_172_b253.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_o_174_b255 = b_o_171_b252 * b_o_173_b254  # elementwise7: stage 2, partition 0 (group 0)
            b_o_175_b256 = b_o_167_p1 + b_o_174_b255  # elementwise7: stage 2, partition 0 (group 0)
            v23 = NT_108 - 1  # elementwise7: stage 2, partition 0 (group 0)
            v24 = (0 + ((twill_n - 1 + 2) - 2) * 1) == v23  # elementwise7: stage 2, partition 0 (group 0)
            v25 = T % 64  # elementwise7: stage 2, partition 0 (group 0)
            v26 = v25 != 0  # elementwise7: stage 2, partition 0 (group 0)
            v27 = v24 & v26  # elementwise7: stage 2, partition 0 (group 0)
            if v27:  # elementwise7: stage 2, partition 0 (group 0)
                d_b_186 = gl.cast(v25, gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                d_b_187 = d_b_186 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                d_b_188 = gl.exp2(d_b_187)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_190 = v25 - o_i  # elementwise7: stage 2, partition 0 (group 0)
                d_h_191 = d_h_190 - 1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_192 = d_h_191.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_193 = d_h_192 * b_b_26  # elementwise7: stage 2, partition 0 (group 0)
                d_h_194 = gl.exp2(d_h_193)  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r0 = d_b_188  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r1 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r2 = d_h_194  # elementwise7: stage 2, partition 0 (group 0)
            else:  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r0 = v19_r0_p1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r1 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
                d_h_176_r2 = v19_r3_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_178_b277 = d_h_176_r0 * v19_r1_p1  # elementwise7: stage 2, partition 0 (group 0)
            b_h_179_b278 = gl.expand_dims(d_h_176_r2, 1)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_180_b279 = b_v_153_p1.to(gl.float32)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_181_b280 = b_h_179_b278.broadcast_to([64, 64])  # elementwise7: stage 2, partition 0 (group 0)
            b_h_182_b281 = b_h_180_b279 * b_h_181_b280  # elementwise7: stage 2, partition 0 (group 0)
            b_h_183_b282 = b_h_182_b281.to(gl.float16)  # elementwise7: stage 2, partition 0 (group 0)
            b_h_184_b283 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_183_b282)  # elementwise7: stage 2, partition 0 (group 0)
            fence_async_shared()  # elementwise7: stage 2, partition 0 (group 0)
            b_h_185 = warpgroup_mma(b_k_140_p1, b_h_184_b283, b_h_178_b277)  # elementwise7: stage 2, partition 0 (group 0)
            v19_r0 = d_h_176_r0  # elementwise7: stage 2, partition 0 (group 0)
            v19_r1 = b_h_185  # elementwise7: stage 2, partition 0 (group 0)
            v19_r2 = b_o_175_b256  # elementwise7: stage 2, partition 0 (group 0)
            v19_r3 = d_h_176_r1  # elementwise7: stage 2, partition 0 (group 0)
        v20 = v19_r2.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        v22 = gl.convert_layout(v20, L9_short)  # convert3: stage 2, partition 0 (group 0)
        v21 = p_o_49 + b_v_146_p1  # store0: stage 2, partition 0 (group 0)
        gl.store(v21, v22, mask=b_v_152_p1)  # store0: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        b_k_140_p1 = b_k_140
        b_o_167_p1 = b_o_167
        b_q_164_p1 = b_q_164
        b_v_143_p1 = b_v_143
        b_v_146_p1 = b_v_146
        b_v_151_p1 = b_v_151
        b_v_152_p1 = b_v_152
        b_v_153_p1 = b_v_153
        p_q_168_p3 = p_q_168_p2
        p_q_168_p2 = p_q_168_p1
        p_q_168_p1 = p_q_168
        v19_r0_p1 = v19_r0
        v19_r1_p1 = v19_r1
        v19_r3_p1 = v19_r3
        b_k_140_st._keep_alive()
        b_v_154_st._keep_alive()
    else:
        d_b_124_w = d_b
        b_h_125_w = b_h_106
        arg17_w = gl.to_tensor(0).to(gl.int64)
        d_h_126_w = d_h
        for p_o_123_w in range(0, NT_108, 1):
            b_k_128_w = arg17_w + b_h_59
            b_k_129_w = gl.expand_dims(b_k_128_w, 0)
            b_k_130_w = b_k_129_w * p_q_40
            b_k_131_w = b_k_130_w.broadcast_to([64, 64])
            b_k_132_w = b_k_109 + b_k_131_w
            b_k_133_w = p_k + b_k_132_w
            b_k_134_w = b_k_129_w >= 0
            b_k_135_w = b_k_129_w < p_q_39
            b_k_136_w = b_k_134_w & b_k_135_w
            b_k_137_w = b_k_136_w.broadcast_to([64, 64])
            b_k_138_w = b_h_93 & b_k_137_w
            b_k_139_w = gl.load(b_k_133_w, mask=b_k_138_w)
            b_k_140_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), b_k_139_w)
            fence_async_shared()
            b_v_142_w = arg17_w + b_h_55
            b_v_143_w = gl.expand_dims(b_v_142_w, 1)
            b_v_144_w = b_v_143_w * p_v_44
            b_v_145_w = b_v_144_w.broadcast_to([64, 64])
            b_v_146_w = b_v_145_w + b_h_78
            b_v_147_w = p_v_42 + b_v_146_w
            b_v_148_w = b_v_143_w >= 0
            b_v_149_w = b_v_143_w < p_q_39
            b_v_150_w = b_v_148_w & b_v_149_w
            b_v_151_w = b_v_150_w.broadcast_to([64, 64])
            b_v_152_w = b_v_151_w & b_h_101
            b_v_153_w = gl.load(b_v_147_w, mask=b_v_152_w)
            b_v_154_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_v_153_w)
            fence_async_shared()
            b_q_155_w = b_v_143_w * p_q_40
            b_q_156_w = b_q_155_w.broadcast_to([64, 64])
            b_q_157_w = b_q_156_w + b_q_116
            b_q_158_w = p_q_37 + b_q_157_w
            b_q_159_w = b_v_151_w & b_q_120
            b_q_160_w = gl.load(b_q_158_w, mask=b_q_159_w)
            b_q_161_w = b_q_160_w.to(gl.float32)
            b_q_162_w = b_q_161_w * scale
            b_q_163_w = b_q_162_w.to(gl.float16)
            b_q_164_w = gl.convert_layout(b_q_163_w, L10_short)
            b_s_w = warpgroup_mma(b_q_164_w, b_k_140_w, gl.full([64, 64], 0.0, gl.float32, layout=L8_short))
            b_s_165_w = b_s_w * d_s_36
            b_o_w = b_s_165_w.to(gl.float16)
            b_o_166_w = gl.convert_layout(b_o_w, L10_short)
            b_o_167_w = warpgroup_mma(b_o_166_w, b_v_154_w, gl.full([64, 64], 0.0, gl.float32, layout=L8_short))
            v18_w = p_o_123_w == 0
            if v18_w:
                b_o_169_w = b_h_125_w.to(gl.float16)
                b_o_170_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169_w)
                fence_async_shared()
                b_o_171_w = warpgroup_mma(b_q_164_w, b_o_170_w, gl.full([64, 64], 0.0, gl.float32, layout=L8_short))
                b_o_172_w = gl.expand_dims(v9, 1)
                b_o_173_w = b_o_172_w.broadcast_to([64, 64])
                b_o_174_w = b_o_171_w * b_o_173_w
                b_o_175_w = b_o_167_w + b_o_174_w
                b_h_177_w = d_b_124_w * b_h_125_w
                b_h_178_w = gl.expand_dims(d_h_126_w, 1)
                b_h_179_w = b_v_153_w.to(gl.float32)
                b_h_180_w = b_h_178_w.broadcast_to([64, 64])
                b_h_181_w = b_h_179_w * b_h_180_w
                b_h_182_w = b_h_181_w.to(gl.float16)
                b_h_183_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_182_w)
                fence_async_shared()
                b_h_184_w = warpgroup_mma(b_k_140_w, b_h_183_w, b_h_177_w)
                v19_r0_w = d_b_124_w
                v19_r1_w = b_h_184_w
                v19_r2_w = b_o_175_w
                v19_r3_w = d_h_126_w
            else:
                b_o_169_b250_w = b_h_125_w.to(gl.float16)
                b_o_170_b251_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_o_169_b250_w)
                fence_async_shared()
                b_o_171_b252_w = warpgroup_mma(b_q_164_w, b_o_170_b251_w, gl.full([64, 64], 0.0, gl.float32, layout=L8_short))
                b_o_172_b253_w = gl.expand_dims(v9, 1)
                b_o_173_b254_w = b_o_172_b253_w.broadcast_to([64, 64])
                b_o_174_b255_w = b_o_171_b252_w * b_o_173_b254_w
                b_o_175_b256_w = b_o_167_w + b_o_174_b255_w
                v23_w = NT_108 - 1
                v24_w = p_o_123_w == v23_w
                v25_w = T % 64
                v26_w = v25_w != 0
                v27_w = v24_w & v26_w
                if v27_w:
                    d_b_186_w = gl.cast(v25_w, gl.float32)
                    d_b_187_w = d_b_186_w * b_b_26
                    d_b_188_w = gl.exp2(d_b_187_w)
                    d_h_190_w = v25_w - o_i
                    d_h_191_w = d_h_190_w - 1
                    d_h_192_w = d_h_191_w.to(gl.float32)
                    d_h_193_w = d_h_192_w * b_b_26
                    d_h_194_w = gl.exp2(d_h_193_w)
                    d_h_176_r0_w = d_b_188_w
                    d_h_176_r1_w = d_h_194_w
                    d_h_176_r2_w = d_h_194_w
                else:
                    d_h_176_r0_w = d_b_124_w
                    d_h_176_r1_w = d_h_126_w
                    d_h_176_r2_w = d_h_126_w
                b_h_178_b277_w = d_h_176_r0_w * b_h_125_w
                b_h_179_b278_w = gl.expand_dims(d_h_176_r2_w, 1)
                b_h_180_b279_w = b_v_153_w.to(gl.float32)
                b_h_181_b280_w = b_h_179_b278_w.broadcast_to([64, 64])
                b_h_182_b281_w = b_h_180_b279_w * b_h_181_b280_w
                b_h_183_b282_w = b_h_182_b281_w.to(gl.float16)
                b_h_184_b283_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_h_183_b282_w)
                fence_async_shared()
                b_h_185_w = warpgroup_mma(b_k_140_w, b_h_184_b283_w, b_h_178_b277_w)
                v19_r0_w = d_h_176_r0_w
                v19_r1_w = b_h_185_w
                v19_r2_w = b_o_175_b256_w
                v19_r3_w = d_h_176_r1_w
            v20_w = v19_r2_w.to(gl.float16)
            v21_w = p_o_49 + b_v_146_w
            v22_w = gl.convert_layout(v20_w, L9_short)
            gl.store(v21_w, v22_w, mask=b_v_152_w)
            p_q_168_w = arg17_w + 64
            d_b_124_w = v19_r0_w
            b_h_125_w = v19_r1_w
            arg17_w = p_q_168_w
            d_h_126_w = v19_r3_w
        v19_r0_p1 = d_b_124_w
        v19_r1_p1 = b_h_125_w
        p_q_168_p3 = arg17_w
        v19_r3_p1 = d_h_126_w
    p_final = final_state + p_h
    v16 = p_final + b_h_81
    v17 = gl.convert_layout(v19_r1_p1, L11_short)
    gl.store(v16, v17, mask=b_h_104)

@gluon.jit
def twill_kernel_short(q, k, v, o, initial_state, final_state, s_qk_h, s_qk_t, s_vo_h, s_vo_t, B, H, T, scale, TWILL_COPY: gl.constexpr):
    consumer_0_short(q, k, v, o, initial_state, final_state, s_qk_h, s_qk_t, s_vo_h, s_vo_t, B, H, T, scale, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'o', 'initial_state', 'final_state', 's_qk_h', 's_qk_t', 's_qk_d', 's_vo_h', 's_vo_t', 's_vo_d', 'B', 'H', 'T', 'scale', 'BT', 'BK', 'BV', 'DK', 'DV', 'USE_INITIAL_STATE', 'STORE_FINAL_STATE', 'CHECK']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'o', 'initial_state', 'final_state', 's_qk_h', 's_qk_t', 's_vo_h', 's_vo_t', 'B', 'H', 'T', 'scale', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'o', 'initial_state', 'final_state', 's_qk_h', 's_qk_t', 's_vo_h', 's_vo_t', 'B', 'H', 'T', 'scale', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'s_qk_d': 1, 's_vo_d': 1, 'BT': 64, 'BK': 64, 'BV': 64, 'DK': 128, 'DV': 128, 'USE_INITIAL_STATE': True, 'STORE_FINAL_STATE': True, 'CHECK': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['q', 'k', 's_qk_h', 's_qk_t']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['q', 'k', 'v', 'o', 'initial_state', 'final_state', 's_qk_h', 's_qk_t', 's_qk_d', 's_vo_h', 's_vo_t', 's_vo_d', 'B', 'H', 'T', 'scale', 'BT', 'BK', 'BV', 'DK', 'DV', 'USE_INITIAL_STATE', 'STORE_FINAL_STATE', 'CHECK']          # the Triton kernel's parameters, in order
RUNTIME_short = ['q', 'k', 'v', 'o', 'initial_state', 'final_state', 's_qk_h', 's_qk_t', 's_vo_h', 's_vo_t', 'B', 'H', 'T', 'scale']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['q', 'k', 'v', 'o', 'initial_state', 'final_state', 's_qk_h', 's_qk_t', 's_vo_h', 's_vo_t', 'B', 'H', 'T', 'scale']   # the arguments a launch key reads
CONSTEXPRS_short = {'s_qk_d': 1, 's_vo_d': 1, 'BT': 64, 'BK': 64, 'BV': 64, 'DK': 128, 'DV': 128, 'USE_INITIAL_STATE': True, 'STORE_FINAL_STATE': True, 'CHECK': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['q', 's_qk_h', 's_qk_t']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
