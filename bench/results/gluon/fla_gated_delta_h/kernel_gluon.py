"""chunk_gated_delta_rule_fwd_kernel_h, written by twill from its joint schedule: I=291 L=291 (optimal), 4314 cycles per iteration predicted.

Decisions (each from the schedule):
- b_w_145 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- b_k_193 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- pointer-loaded tiles copied by a 4-warp producer with cp.async (b_w_145, b_k_193): their addresses and masks spread over 128 threads
- register-read pointer tiles copied by their consumer with cp.async (b_v_152_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 177): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring b_w_145: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring b_k_193: 2 buffers of [128, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared operand v10_st: partition 0 stores the loop's [128, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand b_v_new_182_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 131152 bytes planned of 232448; maxnreg 256

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L8 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L9 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(k, v, w, v_new, g, h, h0, ht, T, twill_g0, twill_g1, twill_g2, b_w_145_buf, b_k_193_buf, b_v_152_as, v10_st, b_v_new_182_st, b_w_145_ready, b_w_145_empty, b_k_193_ready, b_k_193_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        v0 = twill_pid0
        v1 = twill_pid1
        v2 = v1 // 4
        v3 = v1 % 4
        v4 = v2 * T
        NT_22 = T + 63
        NT_23 = NT_22 // 64
        boh = v2 * NT_23
        h_24 = boh * 4
        h_25 = h_24 + v3
        h_26 = h_25 * 16384
        h_27 = gl.cast(h_26, gl.int64)
        h_28 = h + h_27
        v_29 = v4 * 4
        v_30 = v_29 + v3
        v_31 = v_30 * 128
        v_32 = gl.cast(v_31, gl.int64)
        v_33 = v + v_32
        v_new_36 = v_new + v_32
        h0_37 = v1 * 16384
        h0_38 = h0 + h0_37
        ht_39 = ht + h0_37
        p_h0 = v0 * 64
        p_h0_40 = gl.cast(p_h0, gl.int64)
        b_h_41 = gl.arange(0, 128, layout=L0)
        b_h_42 = gl.arange(0, 128, layout=L1)
        b_h_43 = gl.arange(0, 128, layout=L2)
        b_h_44 = gl.arange(0, 128, layout=L3)
        b_h_45 = b_h_41.to(gl.int64)
        b_h_46 = b_h_42.to(gl.int64)
        b_h_47 = b_h_43.to(gl.int64)
        b_h_48 = b_h_44.to(gl.int64)
        b_h_49 = gl.expand_dims(b_h_45, 1)
        b_h_50 = gl.expand_dims(b_h_46, 1)
        b_h_51 = gl.expand_dims(b_h_47, 1)
        b_h_52 = b_h_49 * 128
        b_h_53 = b_h_51 * 128
        b_h_54 = b_h_52.broadcast_to([128, 64])
        b_h_55 = b_h_53.broadcast_to([128, 64])
        b_h_58 = gl.arange(0, 64, layout=L4)
        b_h_59 = gl.arange(0, 64, layout=L5)
        b_h_60 = gl.arange(0, 64, layout=L6)
        b_h_61 = gl.arange(0, 64, layout=L7)
        b_h_62 = gl.arange(0, 64, layout=L0)
        b_h_63 = gl.arange(0, 64, layout=L8)
        b_h_64 = b_h_58.to(gl.int64)
        b_h_65 = b_h_59.to(gl.int64)
        b_h_66 = b_h_60.to(gl.int64)
        b_h_67 = b_h_61.to(gl.int64)
        b_h_68 = b_h_62.to(gl.int64)
        b_h_69 = b_h_63.to(gl.int64)
        b_h_70 = p_h0_40 + b_h_64
        b_h_71 = p_h0_40 + b_h_66
        b_h_72 = gl.expand_dims(b_h_70, 0)
        b_h_73 = gl.expand_dims(b_h_71, 0)
        b_h_74 = b_h_72.broadcast_to([128, 64])
        b_h_75 = b_h_73.broadcast_to([128, 64])
        b_h_76 = b_h_54 + b_h_74
        b_h_77 = b_h_55 + b_h_75
        b_h_78 = h0_38 + b_h_76
        b_h_79 = b_h_49 >= 0
        b_h_80 = b_h_50 >= 0
        b_h_81 = b_h_51 >= 0
        b_h_82 = b_h_49 < 128
        b_h_83 = b_h_50 < 128
        b_h_84 = b_h_51 < 128
        b_h_85 = b_h_79 & b_h_82
        b_h_86 = b_h_80 & b_h_83
        b_h_87 = b_h_81 & b_h_84
        b_h_88 = b_h_85.broadcast_to([128, 64])
        b_h_89 = b_h_86.broadcast_to([128, 64])
        b_h_90 = b_h_87.broadcast_to([128, 64])
        b_h_91 = b_h_72 >= 0
        b_h_92 = b_h_73 >= 0
        b_h_93 = b_h_72 < 128
        b_h_94 = b_h_73 < 128
        b_h_95 = b_h_91 & b_h_93
        b_h_96 = b_h_92 & b_h_94
        b_h_97 = b_h_95.broadcast_to([128, 64])
        b_h_98 = b_h_96.broadcast_to([128, 64])
        b_h_99 = b_h_88 & b_h_97
        b_h_100 = b_h_90 & b_h_98
        b_h_101 = gl.load(b_h_78, mask=b_h_99)
        b_h_102 = gl.convert_layout(b_h_101, L9)
        p_v = gl.cast(T, gl.int64)
        b_w_103 = gl.expand_dims(b_h_48, 0)
        b_w_107 = b_w_103 >= 0
        b_w_108 = b_w_103 < 128
        b_w_109 = b_w_107 & b_w_108
        b_w_110 = b_w_109.broadcast_to([64, 128])
        b_v_111 = b_h_72.broadcast_to([64, 64])
        b_v_112 = b_h_95.broadcast_to([64, 64])
        b_g_last = g + v_29
        p_g = b_g_last + v3
        twill_n = (NT_23 - 0 + 1 - 1) // 1
        b_h_195 = b_h_102
        p_v_120 = (0 + (0 - 0) * 1) * 64  # load0_b_w: stage 0, partition 0 (group 0)
        p_v_121 = gl.cast(p_v_120, gl.int64)  # load0_b_w: stage 0, partition 0 (group 0)
        b_w_124 = p_v_121  # load2_b_g: stage 0, partition 0 (group 0)
        b_w_128 = b_w_124 + b_h_69  # load2_b_g: stage 0, partition 0 (group 0)
        b_g_166 = b_w_128 >= 0  # elementwise5_b_g: stage 0, partition 0 (group 0)
        b_g_167 = b_w_128 < p_v  # elementwise5_b_g: stage 0, partition 0 (group 0)
        b_g_168 = b_g_166 & b_g_167  # elementwise5_b_g: stage 0, partition 0 (group 0)
        b_w_123 = p_v_121  # load1_b_v: stage 0, partition 0 (group 0)
        b_w_127 = b_w_123 + b_h_68  # load1_b_v: stage 0, partition 0 (group 0)
        b_w_131 = gl.expand_dims(b_w_127, 1)  # load1_b_v: stage 0, partition 0 (group 0)
        b_w_138 = b_w_131 >= 0  # elementwise1_b_w: stage 0, partition 0 (group 0)
        b_w_140 = b_w_131 < p_v  # elementwise1_b_w: stage 0, partition 0 (group 0)
        b_w_142 = b_w_138 & b_w_140  # elementwise1_b_w: stage 0, partition 0 (group 0)
        b_v_150 = b_w_142.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
        b_v_151 = b_v_150 & b_v_112  # elementwise3_b_v: stage 0, partition 0 (group 0)
        last_idx = (0 + (0 - 0) * 1) + 1  # load4_b_g_last: stage 0, partition 0 (group 0)
        last_idx_157 = last_idx * 64  # load4_b_g_last: stage 0, partition 0 (group 0)
        last_idx_158 = gl.minimum(last_idx_157, T)  # load4_b_g_last: stage 0, partition 0 (group 0)
        last_idx_159 = last_idx_158 - 1  # load4_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_160 = last_idx_159 * 4  # load4_b_g_last: stage 0, partition 0 (group 0)
        b_g_last_161 = b_g_last + b_g_last_160  # load4_b_g_last: stage 0, partition 0 (group 0)
        b_g_164 = b_w_128 * 4  # load2_b_g: stage 0, partition 0 (group 0)
        b_g_last_162 = b_g_last_161 + v3  # load4_b_g_last: stage 0, partition 0 (group 0)
        b_g_165 = p_g + b_g_164  # load2_b_g: stage 0, partition 0 (group 0)
        b_g_last_163 = gl.load(b_g_last_162)  # load4_b_g_last: stage 0, partition 0 (group 0)
        b_g_169 = gl.load(b_g_165, mask=b_g_168)  # load2_b_g: stage 0, partition 0 (group 0)
        b_w_133 = b_w_131 * 512  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_147 = b_w_133.broadcast_to([64, 64])  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_148 = b_v_147 + b_v_111  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_149 = v_33 + b_v_148  # load1_b_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_v_152_as.index((twill_base + 0 - 0) % 2), b_v_149, mask=b_v_151)  # load1_b_v: stage 0, partition 0 (group 0)
        else:  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_152_as.index((twill_base + 0 - 0) % 2).store(gl.load(b_v_149, mask=b_v_151))  # load1_b_v: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        b_g_169_p1 = b_g_169
        b_g_last_163_p1 = b_g_last_163
        b_h_195_p1 = b_h_195
        b_v_148_p1 = b_v_148
        b_v_151_p1 = b_v_151
        p_v_121_p1 = p_v_121
        for twill_b in range(1, twill_n):
            p_v_120 = (0 + (twill_b - 0) * 1) * 64  # load0_b_w: stage 0, partition 0 (group 0)
            p_v_121 = gl.cast(p_v_120, gl.int64)  # load0_b_w: stage 0, partition 0 (group 0)
            b_w_124 = p_v_121  # load2_b_g: stage 0, partition 0 (group 0)
            b_w_128 = b_w_124 + b_h_69  # load2_b_g: stage 0, partition 0 (group 0)
            b_g_166 = b_w_128 >= 0  # elementwise5_b_g: stage 0, partition 0 (group 0)
            b_g_167 = b_w_128 < p_v  # elementwise5_b_g: stage 0, partition 0 (group 0)
            b_g_168 = b_g_166 & b_g_167  # elementwise5_b_g: stage 0, partition 0 (group 0)
            b_w_122 = p_v_121_p1  # load0_b_w: stage 1, partition 0 (group 0)
            b_w_126 = b_w_122 + b_h_67  # load0_b_w: stage 1, partition 0 (group 0)
            b_w_130 = gl.expand_dims(b_w_126, 1)  # load0_b_w: stage 1, partition 0 (group 0)
            b_w_137 = b_w_130 >= 0  # elementwise0_b_w: stage 1, partition 0 (group 0)
            b_w_139 = b_w_130 < p_v  # elementwise0_b_w: stage 1, partition 0 (group 0)
            b_w_141 = b_w_137 & b_w_139  # elementwise0_b_w: stage 1, partition 0 (group 0)
            b_w_143 = b_w_141.broadcast_to([64, 128])  # elementwise2_b_w: stage 1, partition 0 (group 0)
            b_w_144 = b_w_143 & b_w_110  # elementwise2_b_w: stage 1, partition 0 (group 0)
            b_w_125 = p_v_121_p1  # load3_b_k: stage 1, partition 0 (group 0)
            b_w_129 = b_w_125 + b_h_65  # load3_b_k: stage 1, partition 0 (group 0)
            b_k_183 = gl.expand_dims(b_w_129, 0)  # load3_b_k: stage 1, partition 0 (group 0)
            b_k_188 = b_k_183 >= 0  # elementwise9_b_k: stage 1, partition 0 (group 0)
            b_k_189 = b_k_183 < p_v  # elementwise9_b_k: stage 1, partition 0 (group 0)
            b_k_190 = b_k_188 & b_k_189  # elementwise9_b_k: stage 1, partition 0 (group 0)
            b_k_191 = b_k_190.broadcast_to([128, 64])  # elementwise10_b_k: stage 1, partition 0 (group 0)
            b_k_192 = b_h_89 & b_k_191  # elementwise10_b_k: stage 1, partition 0 (group 0)
            b_w_123 = p_v_121  # load1_b_v: stage 0, partition 0 (group 0)
            b_w_127 = b_w_123 + b_h_68  # load1_b_v: stage 0, partition 0 (group 0)
            b_w_131 = gl.expand_dims(b_w_127, 1)  # load1_b_v: stage 0, partition 0 (group 0)
            b_w_138 = b_w_131 >= 0  # elementwise1_b_w: stage 0, partition 0 (group 0)
            b_w_140 = b_w_131 < p_v  # elementwise1_b_w: stage 0, partition 0 (group 0)
            b_w_142 = b_w_138 & b_w_140  # elementwise1_b_w: stage 0, partition 0 (group 0)
            b_v_150 = b_w_142.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_v_151 = b_v_150 & b_v_112  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_h_195_p1 = warpgroup_mma_wait(0, deps=(b_h_195_p1,))
            mbarrier.arrive(b_k_193_empty.index((twill_base + twill_b - 1 - 1) % 2), pred=(twill_b - 1 - 1) >= 0)
            v9 = b_h_195_p1.to(gl.float16)  # convert0: stage 1, partition 0 (group 0)
            v10 = v10_st.index((twill_b - 1) % 2)  # local_store0: stage 1, partition 0 (group 0)
            v10.store(v9)  # local_store0: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0: stage 1, partition 0 (group 0)
            v13 = gl.convert_layout(v9, L10)  # convert1: stage 1, partition 0 (group 0)
            p_h = (0 + (twill_b - 1) * 1) * 65536  # store0: stage 1, partition 0 (group 0)
            p_h_119 = h_28 + p_h  # store0: stage 1, partition 0 (group 0)
            v11 = p_h_119  # store0: stage 1, partition 0 (group 0)
            v12 = v11 + b_h_76  # store0: stage 1, partition 0 (group 0)
            gl.store(v12, v13, mask=b_h_99)  # store0: stage 1, partition 0 (group 0)
            mbarrier.wait(b_w_145_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_b_v_new = warpgroup_mma(b_w_145_buf.index((twill_base + twill_b - 1) % 2), v10, gl.full([64, 64], 0.0, gl.float32, layout=L9), use_acc=False, is_async=True)  # dot0_b_v_new: stage 1, partition 0 (group 0)
            last_idx = (0 + (twill_b - 0) * 1) + 1  # load4_b_g_last: stage 0, partition 0 (group 0)
            last_idx_157 = last_idx * 64  # load4_b_g_last: stage 0, partition 0 (group 0)
            last_idx_158 = gl.minimum(last_idx_157, T)  # load4_b_g_last: stage 0, partition 0 (group 0)
            last_idx_159 = last_idx_158 - 1  # load4_b_g_last: stage 0, partition 0 (group 0)
            b_g_last_160 = last_idx_159 * 4  # load4_b_g_last: stage 0, partition 0 (group 0)
            b_g_last_161 = b_g_last + b_g_last_160  # load4_b_g_last: stage 0, partition 0 (group 0)
            b_g_164 = b_w_128 * 4  # load2_b_g: stage 0, partition 0 (group 0)
            b_g_last_162 = b_g_last_161 + v3  # load4_b_g_last: stage 0, partition 0 (group 0)
            b_g_165 = p_g + b_g_164  # load2_b_g: stage 0, partition 0 (group 0)
            b_g_last_163 = gl.load(b_g_last_162)  # load4_b_g_last: stage 0, partition 0 (group 0)
            b_g_169 = gl.load(b_g_165, mask=b_g_168)  # load2_b_g: stage 0, partition 0 (group 0)
            b_v_new_170 = b_g_last_163_p1  # elementwise6_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_171 = b_v_new_170 - b_g_169_p1  # elementwise6_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_172 = b_v_new_171 <= 0.0  # sfu0_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_173 = gl.where(b_v_new_172, b_v_new_171, float("-inf"))  # sfu0_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_174 = gl.exp(b_v_new_173)  # sfu0_b_v_new: stage 1, partition 0 (group 0)
            b_w_133 = b_w_131 * 512  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_147 = b_w_133.broadcast_to([64, 64])  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_148 = b_v_147 + b_v_111  # load1_b_v: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_v_152 = b_v_152_as.index((twill_base + twill_b - 1) % 2).load(L9)  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_149 = v_33 + b_v_148  # load1_b_v: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b_v: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_v_152_as.index((twill_base + twill_b - 0) % 2), b_v_149, mask=b_v_151)  # load1_b_v: stage 0, partition 0 (group 0)
            else:  # load1_b_v: stage 0, partition 0 (group 0)
                b_v_152_as.index((twill_base + twill_b - 0) % 2).store(gl.load(b_v_149, mask=b_v_151))  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_new_154 = gl.convert_layout(b_v_152, L9)  # convert2_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_155 = b_v_new_154.to(gl.float32)  # convert2_b_v_new: stage 1, partition 0 (group 0)
            b_v_new = warpgroup_mma_wait(0, deps=(tok_b_v_new,))
            mbarrier.arrive(b_w_145_empty.index((twill_base + twill_b - 1) % 2))
            b_v_new_153 = 0.0 - b_v_new  # elementwise4_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_156 = b_v_new_153 + b_v_new_155  # elementwise4_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_175 = gl.expand_dims(b_v_new_174, 1)  # elementwise7_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_176 = b_v_new_175.broadcast_to([64, 64])  # elementwise7_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_177 = b_v_new_156 * b_v_new_176  # elementwise7_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_181 = b_v_new_177.to(gl.float16)  # convert4_b_v_new: stage 1, partition 0 (group 0)
            b_g_last_178 = gl.exp(b_g_last_163_p1)  # sfu1_b_g_last: stage 1, partition 0 (group 0)
            b_h_179 = b_g_last_178  # elementwise8_b_h: stage 1, partition 0 (group 0)
            b_h_180 = b_h_195_p1 * b_h_179  # elementwise8_b_h: stage 1, partition 0 (group 0)
            b_v_new_182 = b_v_new_182_st.index((twill_b - 1) % 2)  # local_store1_b_v_new: stage 1, partition 0 (group 0)
            b_v_new_182.store(b_v_new_181)  # local_store1_b_v_new: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store1_b_v_new: stage 1, partition 0 (group 0)
            mbarrier.wait(b_k_193_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_b_h_195 = warpgroup_mma(b_k_193_buf.index((twill_base + twill_b - 1) % 2), b_v_new_182, b_h_180, is_async=True)  # dot1_b_h: stage 1, partition 0 (group 0)
            v14 = b_v_new_156.to(gl.float16)  # convert3: stage 1, partition 0 (group 0)
            v15 = gl.convert_layout(v14, L10)  # convert3: stage 1, partition 0 (group 0)
            v16 = v_new_36 + b_v_148_p1  # store1: stage 1, partition 0 (group 0)
            gl.store(v16, v15, mask=b_v_151_p1)  # store1: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            b_h_195 = warpgroup_mma_wait(1, deps=(tok_b_h_195,))
            b_g_169_p1 = b_g_169
            b_g_last_163_p1 = b_g_last_163
            b_h_195_p1 = b_h_195
            b_v_148_p1 = b_v_148
            b_v_151_p1 = b_v_151
            p_v_121_p1 = p_v_121
        b_w_122 = p_v_121_p1  # load0_b_w: stage 1, partition 0 (group 0)
        b_w_126 = b_w_122 + b_h_67  # load0_b_w: stage 1, partition 0 (group 0)
        b_w_130 = gl.expand_dims(b_w_126, 1)  # load0_b_w: stage 1, partition 0 (group 0)
        b_w_137 = b_w_130 >= 0  # elementwise0_b_w: stage 1, partition 0 (group 0)
        b_w_139 = b_w_130 < p_v  # elementwise0_b_w: stage 1, partition 0 (group 0)
        b_w_141 = b_w_137 & b_w_139  # elementwise0_b_w: stage 1, partition 0 (group 0)
        b_w_143 = b_w_141.broadcast_to([64, 128])  # elementwise2_b_w: stage 1, partition 0 (group 0)
        b_w_144 = b_w_143 & b_w_110  # elementwise2_b_w: stage 1, partition 0 (group 0)
        b_w_125 = p_v_121_p1  # load3_b_k: stage 1, partition 0 (group 0)
        b_w_129 = b_w_125 + b_h_65  # load3_b_k: stage 1, partition 0 (group 0)
        b_k_183 = gl.expand_dims(b_w_129, 0)  # load3_b_k: stage 1, partition 0 (group 0)
        b_k_188 = b_k_183 >= 0  # elementwise9_b_k: stage 1, partition 0 (group 0)
        b_k_189 = b_k_183 < p_v  # elementwise9_b_k: stage 1, partition 0 (group 0)
        b_k_190 = b_k_188 & b_k_189  # elementwise9_b_k: stage 1, partition 0 (group 0)
        b_k_191 = b_k_190.broadcast_to([128, 64])  # elementwise10_b_k: stage 1, partition 0 (group 0)
        b_k_192 = b_h_89 & b_k_191  # elementwise10_b_k: stage 1, partition 0 (group 0)
        b_h_195_p1 = warpgroup_mma_wait(0, deps=(b_h_195_p1,))
        mbarrier.arrive(b_k_193_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 2), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        v9 = b_h_195_p1.to(gl.float16)  # convert0: stage 1, partition 0 (group 0)
        v10 = v10_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0: stage 1, partition 0 (group 0)
        v10.store(v9)  # local_store0: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0: stage 1, partition 0 (group 0)
        v13 = gl.convert_layout(v9, L10)  # convert1: stage 1, partition 0 (group 0)
        p_h = (0 + ((twill_n - 1 + 1) - 1) * 1) * 65536  # store0: stage 1, partition 0 (group 0)
        p_h_119 = h_28 + p_h  # store0: stage 1, partition 0 (group 0)
        v11 = p_h_119  # store0: stage 1, partition 0 (group 0)
        v12 = v11 + b_h_76  # store0: stage 1, partition 0 (group 0)
        gl.store(v12, v13, mask=b_h_99)  # store0: stage 1, partition 0 (group 0)
        mbarrier.wait(b_w_145_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_b_v_new = warpgroup_mma(b_w_145_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), v10, gl.full([64, 64], 0.0, gl.float32, layout=L9), use_acc=False, is_async=True)  # dot0_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_170 = b_g_last_163_p1  # elementwise6_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_171 = b_v_new_170 - b_g_169_p1  # elementwise6_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_172 = b_v_new_171 <= 0.0  # sfu0_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_173 = gl.where(b_v_new_172, b_v_new_171, float("-inf"))  # sfu0_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_174 = gl.exp(b_v_new_173)  # sfu0_b_v_new: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_v_152 = b_v_152_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L9)  # load1_b_v: stage 1, partition 0 (group 0)
        b_v_new_154 = gl.convert_layout(b_v_152, L9)  # convert2_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_155 = b_v_new_154.to(gl.float32)  # convert2_b_v_new: stage 1, partition 0 (group 0)
        b_v_new = warpgroup_mma_wait(0, deps=(tok_b_v_new,))
        mbarrier.arrive(b_w_145_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
        b_v_new_153 = 0.0 - b_v_new  # elementwise4_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_156 = b_v_new_153 + b_v_new_155  # elementwise4_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_175 = gl.expand_dims(b_v_new_174, 1)  # elementwise7_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_176 = b_v_new_175.broadcast_to([64, 64])  # elementwise7_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_177 = b_v_new_156 * b_v_new_176  # elementwise7_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_181 = b_v_new_177.to(gl.float16)  # convert4_b_v_new: stage 1, partition 0 (group 0)
        b_g_last_178 = gl.exp(b_g_last_163_p1)  # sfu1_b_g_last: stage 1, partition 0 (group 0)
        b_h_179 = b_g_last_178  # elementwise8_b_h: stage 1, partition 0 (group 0)
        b_h_180 = b_h_195_p1 * b_h_179  # elementwise8_b_h: stage 1, partition 0 (group 0)
        b_v_new_182 = b_v_new_182_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store1_b_v_new: stage 1, partition 0 (group 0)
        b_v_new_182.store(b_v_new_181)  # local_store1_b_v_new: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store1_b_v_new: stage 1, partition 0 (group 0)
        mbarrier.wait(b_k_193_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_b_h_195 = warpgroup_mma(b_k_193_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), b_v_new_182, b_h_180, is_async=True)  # dot1_b_h: stage 1, partition 0 (group 0)
        v14 = b_v_new_156.to(gl.float16)  # convert3: stage 1, partition 0 (group 0)
        v15 = gl.convert_layout(v14, L10)  # convert3: stage 1, partition 0 (group 0)
        v16 = v_new_36 + b_v_148_p1  # store1: stage 1, partition 0 (group 0)
        gl.store(v16, v15, mask=b_v_151_p1)  # store1: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_h_195 = warpgroup_mma_wait(1, deps=(tok_b_h_195,))
        b_g_169_p1 = b_g_169
        b_g_last_163_p1 = b_g_last_163
        b_h_195_p1 = b_h_195
        b_v_148_p1 = b_v_148
        b_v_151_p1 = b_v_151
        p_v_121_p1 = p_v_121
        b_h_195_p1 = warpgroup_mma_wait(0, deps=(b_h_195_p1,))
        b_w_145_buf._keep_alive()
        v10_st._keep_alive()
        b_k_193_buf._keep_alive()
        b_v_new_182_st._keep_alive()
        mbarrier.arrive(b_k_193_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
        v7 = ht_39 + b_h_77
        v8 = gl.convert_layout(b_h_195_p1, L11)
        gl.store(v7, v8, mask=b_h_100)
        twill_base += twill_n

@gluon.jit
def producer_1(k, v, w, v_new, g, h, h0, ht, T, twill_g0, twill_g1, twill_g2, b_w_145_buf, b_k_193_buf, b_v_152_as, v10_st, b_v_new_182_st, b_w_145_ready, b_w_145_empty, b_k_193_ready, b_k_193_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        v1 = twill_pid1
        v2 = v1 // 4
        v3 = v1 % 4
        v4 = v2 * T
        NT_22 = T + 63
        NT_23 = NT_22 // 64
        v_29 = v4 * 4
        v_30 = v_29 + v3
        v_31 = v_30 * 128
        v_32 = gl.cast(v_31, gl.int64)
        k_34 = k + v_32
        w_35 = w + v_32
        b_h_42 = gl.arange(0, 128, layout=L1)
        b_h_44 = gl.arange(0, 128, layout=L3)
        b_h_46 = b_h_42.to(gl.int64)
        b_h_48 = b_h_44.to(gl.int64)
        b_h_50 = gl.expand_dims(b_h_46, 1)
        b_h_59 = gl.arange(0, 64, layout=L5)
        b_h_61 = gl.arange(0, 64, layout=L7)
        b_h_65 = b_h_59.to(gl.int64)
        b_h_67 = b_h_61.to(gl.int64)
        b_h_80 = b_h_50 >= 0
        b_h_83 = b_h_50 < 128
        b_h_86 = b_h_80 & b_h_83
        b_h_89 = b_h_86.broadcast_to([128, 64])
        p_v = gl.cast(T, gl.int64)
        b_w_103 = gl.expand_dims(b_h_48, 0)
        b_w_104 = b_w_103.broadcast_to([64, 128])
        b_w_107 = b_w_103 >= 0
        b_w_108 = b_w_103 < 128
        b_w_109 = b_w_107 & b_w_108
        b_w_110 = b_w_109.broadcast_to([64, 128])
        b_k_114 = b_h_50.broadcast_to([128, 64])
        for b_h_117 in range(0, NT_23, 1):
            twill_k = twill_base + (b_h_117 - 0) // 1
            p_v_120 = b_h_117 * 64
            p_v_121 = gl.cast(p_v_120, gl.int64)
            b_w_126 = p_v_121 + b_h_67
            b_w_129 = p_v_121 + b_h_65
            b_w_130 = gl.expand_dims(b_w_126, 1)
            b_w_132 = b_w_130 * 512
            b_w_134 = b_w_132.broadcast_to([64, 128])
            b_w_135 = b_w_134 + b_w_104
            b_w_136 = w_35 + b_w_135
            b_w_137 = b_w_130 >= 0
            b_w_139 = b_w_130 < p_v
            b_w_141 = b_w_137 & b_w_139
            b_w_143 = b_w_141.broadcast_to([64, 128])
            b_w_144 = b_w_143 & b_w_110
            b_k_183 = gl.expand_dims(b_w_129, 0)
            b_k_184 = b_k_183 * 512
            b_k_185 = b_k_184.broadcast_to([128, 64])
            b_k_186 = b_k_114 + b_k_185
            b_k_187 = k_34 + b_k_186
            b_k_188 = b_k_183 >= 0
            b_k_189 = b_k_183 < p_v
            b_k_190 = b_k_188 & b_k_189
            b_k_191 = b_k_190.broadcast_to([128, 64])
            b_k_192 = b_h_89 & b_k_191
            mbarrier.wait(b_w_145_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_w_145_buf.index(twill_k % 2), b_w_136, mask=b_w_144)  # load0_b_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_w_145_ready.index(twill_k % 2), increment_count=False)
            else:
                b_w_145_buf.index(twill_k % 2).store(gl.load(b_w_136, mask=b_w_144, other=0.0))  # load0_b_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_w_145_ready.index(twill_k % 2), count=128)
            mbarrier.wait(b_k_193_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_k_193_buf.index(twill_k % 2), b_k_187, mask=b_k_192)  # load3_b_k: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_k_193_ready.index(twill_k % 2), increment_count=False)
            else:
                b_k_193_buf.index(twill_k % 2).store(gl.load(b_k_187, mask=b_k_192, other=0.0))  # load3_b_k: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_k_193_ready.index(twill_k % 2), count=128)
        twill_base += (NT_23 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(k, v, w, v_new, g, h, h0, ht, T, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    b_w_145_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_k_193_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    b_v_152_as = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
    v10_st = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_v_new_182_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_w_145_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_w_145_ready.index(i), count=128)
    b_w_145_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_w_145_empty.index(i), count=1)
    b_k_193_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_k_193_ready.index(i), count=128)
    b_k_193_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_k_193_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (k, v, w, v_new, g, h, h0, ht, T, twill_g0, twill_g1, twill_g2, b_w_145_buf, b_k_193_buf, b_v_152_as, v10_st, b_v_new_182_st, b_w_145_ready, b_w_145_empty, b_k_193_ready, b_k_193_empty, TWILL_COPY)),
        (producer_1, (k, v, w, v_new, g, h, h0, ht, T, twill_g0, twill_g1, twill_g2, b_w_145_buf, b_k_193_buf, b_v_152_as, v10_st, b_v_new_182_st, b_w_145_ready, b_w_145_empty, b_k_193_ready, b_k_193_empty, TWILL_COPY)),
    ], [4], [88])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['k', 'v', 'w', 'v_new', 'g', 'h', 'h0', 'ht', 'cu_seqlens', 'chunk_offsets', 'T', 'H', 'K', 'V', 'BT', 'BK', 'BV', 'USE_G', 'USE_INITIAL_STATE', 'STORE_FINAL_STATE', 'SAVE_NEW_VALUE', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['k', 'v', 'w', 'v_new', 'g', 'h', 'h0', 'ht', 'T', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['k', 'v', 'w', 'v_new', 'g', 'h', 'h0', 'ht', 'cu_seqlens', 'chunk_offsets', 'T', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'H': 4, 'K': 128, 'V': 128, 'BT': 64, 'BK': 128, 'BV': 64, 'USE_G': True, 'USE_INITIAL_STATE': True, 'STORE_FINAL_STATE': True, 'SAVE_NEW_VALUE': True, 'IS_VARLEN': False}         # the specialisation this kernel was generated for
HEURISTICS = {'USE_G': "lambda args: args['g'] is not None", 'USE_INITIAL_STATE': "lambda args: args['h0'] is not None", 'STORE_FINAL_STATE': "lambda args: args['ht'] is not None", 'SAVE_NEW_VALUE': "lambda args: args['v_new'] is not None", 'IS_VARLEN': "lambda args: args['cu_seqlens'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['k', 'v', 'w']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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

_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristic(name, src):
    """Heuristic ``name``'s function, from its source and the kernel module's names it reads (``HEURISTIC_SCOPE``:
    the module's imports, constants and the functions it calls); False where it cannot be made here."""
    fn = _HEUR.get(name)
    if fn is None:
        import math
        import torch
        import triton
        import triton.language as tl
        scope = {"torch": torch, "triton": triton, "tl": tl, "math": math}
        for part in HEURISTIC_SCOPE:
            try:
                exec(part, scope)
            except Exception:     # noqa: BLE001 - an import of the kernel's own package: its names not here
                pass
        try:
            fn = eval(src, scope)
        except Exception:         # noqa: BLE001 - names of the kernel's module not found: not checked
            fn = False
        if fn is False:
            import warnings
            warnings.warn(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated by this "
                          "launcher: launches are not checked against it", stacklevel=3)
        _HEUR[name] = fn
    return fn


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _heuristic(name, src)
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


def _heuristic_args(bound):
    """The kernel arguments its @triton.heuristics supply (kernl's ``size_m_rounded``), set as Triton sets them."""
    for name, src in HEURISTIC_ARGS.items():
        fn = _heuristic(name, src)
        if fn is False:
            raise ValueError(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated here")
        bound[name] = fn(dict(bound, **CONSTEXPRS))


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
    _heuristics(bound)
    trips = _ev('((T + 63) // 64)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((T + 63) // 64)): run the Triton kernel for it")
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
