"""_fwd_kernel, written by twill from its joint schedule: I=260 L=410 (optimal), 1767 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k1, k2, v): their addresses and masks spread over 128 threads
- k1, k2, v by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over K1, K2, V when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 236): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 80 registers per thread (needs about 80): cp.async copies into the rings
- ring k1: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring k2: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring v: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 98512 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 1 iteration(s) ahead, 106496 bytes of shared memory compiled, ptxas 255 registers, ptxas spills registers (420 bytes stored, 540 loaded, 96 spill instructions in the loop); simulated for 0, 1, 2, 3, 4, 9 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q1, K1, Q2, K2, V, sm_scale, L, O, stride_q1z, stride_q1h, stride_q1m, stride_k1z, stride_k1h, stride_k1n, stride_q2z, stride_q2h, stride_q2m, stride_k2z, stride_k2h, stride_k2n, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, twill_box_k1, twill_box_k2, twill_box_v, k1_buf, k2_buf, v_buf, k1_ready, k1_empty, k2_ready, k2_empty, v_ready, v_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_m = twill_pid0
        off_h = twill_pid1
        off_z = twill_pid2
        qk_scale = sm_scale * 1.44269502
        Q1_4 = off_z * stride_q1z
        Q1_5 = off_h * stride_q1h
        Q1_6 = Q1_4 + Q1_5
        Q1_7 = Q1 + Q1_6
        Q2_8 = off_z * stride_q2z
        Q2_9 = off_h * stride_q2h
        Q2_10 = Q2_8 + Q2_9
        Q2_11 = Q2 + Q2_10
        K1_12 = off_z * stride_k1z
        K1_13 = off_h * stride_k1h
        K1_14 = K1_12 + K1_13
        K1_15 = K1 + K1_14
        K2_16 = off_z * stride_k2z
        K2_17 = off_h * stride_k2h
        K2_18 = K2_16 + K2_17
        K2_19 = K2 + K2_18
        V_20 = off_z * stride_vz
        V_21 = off_h * stride_vh
        V_22 = V_20 + V_21
        V_23 = V + V_22
        O_24 = off_z * stride_oz
        O_25 = off_h * stride_oh
        O_26 = O_24 + O_25
        O_27 = O + O_26
        L_28 = off_z * H
        L_29 = L_28 + off_h
        L_30 = L_29 * M
        L_31 = L + L_30
        offs_m = start_m * 128
        offs_m_32 = gl.arange(0, 128, layout=L0)
        offs_m_33 = gl.arange(0, 128, layout=L1)
        offs_m_34 = gl.arange(0, 128, layout=L2)
        offs_m_38 = offs_m + offs_m_32
        offs_m_39 = offs_m + offs_m_33
        offs_m_40 = offs_m + offs_m_34
        offs_n_base = gl.arange(0, 64, layout=L3)
        q1_ptrs = gl.expand_dims(offs_m_38, 1)
        q1_ptrs_41 = gl.expand_dims(offs_m_39, 1)
        q1_ptrs_43 = q1_ptrs * stride_q1m
        q1_ptrs_44 = gl.arange(0, 64, layout=L4)
        q1_ptrs_45 = gl.arange(0, 64, layout=L5)
        q1_ptrs_46 = gl.expand_dims(q1_ptrs_44, 0)
        q1_ptrs_47 = gl.expand_dims(q1_ptrs_45, 0)
        q1_ptrs_48 = q1_ptrs_43.broadcast_to([128, 64])
        q1_ptrs_49 = q1_ptrs_46.broadcast_to([128, 64])
        q1_ptrs_50 = q1_ptrs_48 + q1_ptrs_49
        q1_ptrs_52 = Q1_7 + q1_ptrs_50
        q2_ptrs_53 = q1_ptrs * stride_q2m
        q2_ptrs_54 = q2_ptrs_53.broadcast_to([128, 64])
        q2_ptrs_55 = q2_ptrs_54 + q1_ptrs_49
        q2_ptrs_57 = Q2_11 + q2_ptrs_55
        k1_ptrs = gl.arange(0, 64, layout=L0)
        k1_ptrs_58 = gl.arange(0, 64, layout=L6)
        k1_ptrs_59 = gl.expand_dims(k1_ptrs, 1)
        k1_ptrs_60 = gl.expand_dims(k1_ptrs_58, 1)
        k1_ptrs_62 = k1_ptrs_59 * stride_k1n
        k1_ptrs_63 = k1_ptrs_62.broadcast_to([64, 64])
        k1_ptrs_64 = q1_ptrs_46.broadcast_to([64, 64])
        k1_ptrs_65 = q1_ptrs_47.broadcast_to([64, 64])
        k1_ptrs_66 = k1_ptrs_63 + k1_ptrs_64
        k1_ptrs_68 = K1_15 + k1_ptrs_66
        k2_ptrs_69 = k1_ptrs_59 * stride_k2n
        k2_ptrs_70 = k2_ptrs_69.broadcast_to([64, 64])
        k2_ptrs_71 = k2_ptrs_70 + k1_ptrs_64
        k2_ptrs_73 = K2_19 + k2_ptrs_71
        v_ptrs_74 = k1_ptrs_59 * stride_vn
        v_ptrs_75 = v_ptrs_74.broadcast_to([64, 64])
        v_ptrs_76 = v_ptrs_75 + k1_ptrs_64
        v_ptrs_78 = V_23 + v_ptrs_76
        o_ptrs_79 = q1_ptrs * stride_om
        o_ptrs_80 = o_ptrs_79.broadcast_to([128, 64])
        o_ptrs_81 = o_ptrs_80 + q1_ptrs_49
        o_ptrs_83 = O_27 + o_ptrs_81
        l_ptrs_84 = L_31 + offs_m_40
        q1 = gl.load(q1_ptrs_52)
        q1_85 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q1)
        fence_async_shared()
        q2 = gl.load(q2_ptrs_57)
        q2_86 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q2)
        fence_async_shared()
        I_87 = k1_ptrs_60.broadcast_to([64, 64])
        I_88 = I_87 == k1_ptrs_65
        I_89 = gl.where(I_88, 1.0, 0.0).to(gl.float16)
        I_90 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), I_89)
        fence_async_shared()
        q1_91 = warpgroup_mma(q1_85, I_90, gl.full([128, 64], 0.0, gl.float32, layout=L7))
        q1_92 = q1_91.to(gl.float16)
        q2_93 = warpgroup_mma(q2_86, I_90, gl.full([128, 64], 0.0, gl.float32, layout=L7))
        q2_94 = q2_93.to(gl.float16)
        hi = start_m + 1
        hi_95 = hi * 128
        hi_96 = P_SEQ + hi_95
        hi_97 = gl.minimum(N, hi_96)
        piecewise_mask_98 = P_SEQ + q1_ptrs_41
        piecewise_mask_99 = piecewise_mask_98.broadcast_to([128, 64])
        q2_100_sm = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q2_94)  # held here, not in registers: [128, 64] f16 for the loop's wgmmas
        fence_async_shared()
        q1_101_sm = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q1_92)  # held here, not in registers: [128, 64] f16 for the loop's wgmmas
        fence_async_shared()
        twill_n = (hi_97 - 0 + 64 - 1) // 64
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            m_i_new_138 = gl.full([128], float("-inf"), gl.float32, layout=L1)
            m_i_new_138_p1 = m_i_new_138
            l_i_156 = gl.full([128], 0.0, gl.float32, layout=L1)
            acc_153 = gl.full([128, 64], 0.0, gl.float32, layout=L7)
            mbarrier.wait(k1_ready.index((twill_base + 0 - 0) % 4), ((twill_base + 0 - 0) // 4) & 1)
            fence_async_shared()
            tok_s_133 = warpgroup_mma(q1_101_sm, k1_buf.index((twill_base + 0 - 0) % 4).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot1_s: stage 0, partition 0 (group 0)
            mbarrier.wait(k2_ready.index((twill_base + 0 - 0) % 4), ((twill_base + 0 - 0) // 4) & 1)
            fence_async_shared()
            tok_s_130 = warpgroup_mma(q2_100_sm, k2_buf.index((twill_base + 0 - 0) % 4).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_s: stage 0, partition 0 (group 0)
            offs_n_123 = (0 + (0 - 0) * 64) + offs_n_base  # elementwise0_s: stage 0, partition 0 (group 0)
            piecewise_mask_125 = gl.expand_dims(offs_n_123, 0)  # elementwise0_s: stage 0, partition 0 (group 0)
            piecewise_mask_126 = piecewise_mask_125 + 128  # elementwise0_s: stage 0, partition 0 (group 0)
            piecewise_mask_127 = piecewise_mask_126.broadcast_to([128, 64])  # elementwise0_s: stage 0, partition 0 (group 0)
            piecewise_mask_128 = piecewise_mask_99 >= piecewise_mask_127  # elementwise0_s: stage 0, partition 0 (group 0)
            s_133, s_130 = warpgroup_mma_wait(0, deps=(tok_s_133, tok_s_130,))
            mbarrier.arrive(k1_empty.index((twill_base + 0 - 0) % 4))
            mbarrier.arrive(k2_empty.index((twill_base + 0 - 0) % 4))
            s_134 = gl.where(piecewise_mask_128, s_130, s_133)  # elementwise0_s: stage 0, partition 0 (group 0)
            s_135 = s_134 + 0.0  # elementwise0_s: stage 0, partition 0 (group 0)
            causal_mask = piecewise_mask_125.broadcast_to([128, 64])  # elementwise0_s: stage 0, partition 0 (group 0)
            causal_mask_136 = piecewise_mask_99 >= causal_mask  # elementwise0_s: stage 0, partition 0 (group 0)
            s_137 = gl.where(causal_mask_136, s_135, float("-inf"))  # elementwise0_s: stage 0, partition 0 (group 0)
            m_i_new = gl.max(s_137, axis=1)  # reduce0_m_i_new: stage 0, partition 0 (group 0)
            m_i_new_138 = gl.maximum(m_i_new_138_p1, m_i_new)  # elementwise1_m_i_new: stage 0, partition 0 (group 0)
            alpha_139 = m_i_new_138_p1 - m_i_new_138  # sfu0_alpha: stage 0, partition 0 (group 0)
            alpha_140 = alpha_139 * qk_scale  # sfu0_alpha: stage 0, partition 0 (group 0)
            alpha_141 = gl.exp2(alpha_140)  # sfu0_alpha: stage 0, partition 0 (group 0)
            acc_148 = gl.expand_dims(alpha_141, 1)  # elementwise3_acc: stage 0, partition 0 (group 0)
            acc_149 = acc_148.broadcast_to([128, 64])  # elementwise3_acc: stage 0, partition 0 (group 0)
            acc_150 = acc_153 * acc_149  # elementwise3_acc: stage 0, partition 0 (group 0)
            p_143 = gl.expand_dims(m_i_new_138, 1)  # elementwise2_p: stage 0, partition 0 (group 0)
            p_144 = p_143 * qk_scale  # elementwise2_p: stage 0, partition 0 (group 0)
            acc_150_p1 = acc_150
            alpha_141_p1 = alpha_141
            l_i_156_p1 = l_i_156
            m_i_new_138_p1 = m_i_new_138
            p_144_p1 = p_144
            s_137_p1 = s_137
            for twill_b in range(1, twill_n):
                mbarrier.wait(k1_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
                fence_async_shared()
                tok_s_133 = warpgroup_mma(q1_101_sm, k1_buf.index((twill_base + twill_b - 0) % 4).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot1_s: stage 0, partition 0 (group 0)
                p_142 = s_137_p1 * qk_scale  # sfu1_p: stage 1, partition 0 (group 0)
                p_145 = p_144_p1.broadcast_to([128, 64])  # sfu1_p: stage 1, partition 0 (group 0)
                p_146 = p_142 - p_145  # sfu1_p: stage 1, partition 0 (group 0)
                p_147 = gl.exp2(p_146)  # sfu1_p: stage 1, partition 0 (group 0)
                l_i_155 = gl.sum(p_147, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
                acc_151 = p_147.to(gl.float16)  # convert0_acc: stage 1, partition 0 (group 0)
                acc_152 = gl.convert_layout(acc_151, L8)  # convert0_acc: stage 1, partition 0 (group 0)
                mbarrier.wait(v_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
                fence_async_shared()
                tok_acc_153 = warpgroup_mma(acc_152, v_buf.index((twill_base + twill_b - 1) % 4), acc_150_p1, is_async=True)  # dot2_acc: stage 1, partition 0 (group 0)
                l_i_154 = l_i_156_p1 * alpha_141_p1  # elementwise4_l_i: stage 1, partition 0 (group 0)
                l_i_156 = l_i_154 + l_i_155  # elementwise4_l_i: stage 1, partition 0 (group 0)
                mbarrier.wait(k2_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
                fence_async_shared()
                tok_s_130 = warpgroup_mma(q2_100_sm, k2_buf.index((twill_base + twill_b - 0) % 4).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_s: stage 0, partition 0 (group 0)
                offs_n = (0 + (twill_b - 0) * 64)  # elementwise0_s: stage 0, partition 0 (group 0)
                offs_n_123 = offs_n + offs_n_base  # elementwise0_s: stage 0, partition 0 (group 0)
                piecewise_mask_125 = gl.expand_dims(offs_n_123, 0)  # elementwise0_s: stage 0, partition 0 (group 0)
                piecewise_mask_126 = piecewise_mask_125 + 128  # elementwise0_s: stage 0, partition 0 (group 0)
                piecewise_mask_127 = piecewise_mask_126.broadcast_to([128, 64])  # elementwise0_s: stage 0, partition 0 (group 0)
                piecewise_mask_128 = piecewise_mask_99 >= piecewise_mask_127  # elementwise0_s: stage 0, partition 0 (group 0)
                s_133, acc_153, s_130 = warpgroup_mma_wait(0, deps=(tok_s_133, tok_acc_153, tok_s_130,))
                mbarrier.arrive(k1_empty.index((twill_base + twill_b - 0) % 4))
                mbarrier.arrive(v_empty.index((twill_base + twill_b - 1) % 4))
                mbarrier.arrive(k2_empty.index((twill_base + twill_b - 0) % 4))
                s_134 = gl.where(piecewise_mask_128, s_130, s_133)  # elementwise0_s: stage 0, partition 0 (group 0)
                s_135 = s_134 + 0.0  # elementwise0_s: stage 0, partition 0 (group 0)
                causal_mask = piecewise_mask_125.broadcast_to([128, 64])  # elementwise0_s: stage 0, partition 0 (group 0)
                causal_mask_136 = piecewise_mask_99 >= causal_mask  # elementwise0_s: stage 0, partition 0 (group 0)
                s_137 = gl.where(causal_mask_136, s_135, float("-inf"))  # elementwise0_s: stage 0, partition 0 (group 0)
                m_i_new = gl.max(s_137, axis=1)  # reduce0_m_i_new: stage 0, partition 0 (group 0)
                m_i_new_138 = gl.maximum(m_i_new_138_p1, m_i_new)  # elementwise1_m_i_new: stage 0, partition 0 (group 0)
                alpha_139 = m_i_new_138_p1 - m_i_new_138  # sfu0_alpha: stage 0, partition 0 (group 0)
                alpha_140 = alpha_139 * qk_scale  # sfu0_alpha: stage 0, partition 0 (group 0)
                alpha_141 = gl.exp2(alpha_140)  # sfu0_alpha: stage 0, partition 0 (group 0)
                acc_148 = gl.expand_dims(alpha_141, 1)  # elementwise3_acc: stage 0, partition 0 (group 0)
                acc_149 = acc_148.broadcast_to([128, 64])  # elementwise3_acc: stage 0, partition 0 (group 0)
                acc_150 = acc_153 * acc_149  # elementwise3_acc: stage 0, partition 0 (group 0)
                p_143 = gl.expand_dims(m_i_new_138, 1)  # elementwise2_p: stage 0, partition 0 (group 0)
                p_144 = p_143 * qk_scale  # elementwise2_p: stage 0, partition 0 (group 0)
                acc_150_p1 = acc_150
                alpha_141_p1 = alpha_141
                l_i_156_p1 = l_i_156
                m_i_new_138_p1 = m_i_new_138
                p_144_p1 = p_144
                s_137_p1 = s_137
            p_142 = s_137_p1 * qk_scale  # sfu1_p: stage 1, partition 0 (group 0)
            p_145 = p_144_p1.broadcast_to([128, 64])  # sfu1_p: stage 1, partition 0 (group 0)
            p_146 = p_142 - p_145  # sfu1_p: stage 1, partition 0 (group 0)
            p_147 = gl.exp2(p_146)  # sfu1_p: stage 1, partition 0 (group 0)
            l_i_155 = gl.sum(p_147, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            acc_151 = p_147.to(gl.float16)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_152 = gl.convert_layout(acc_151, L8)  # convert0_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(v_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
            fence_async_shared()
            tok_acc_153 = warpgroup_mma(acc_152, v_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), acc_150_p1, is_async=True)  # dot2_acc: stage 1, partition 0 (group 0)
            l_i_154 = l_i_156_p1 * alpha_141_p1  # elementwise4_l_i: stage 1, partition 0 (group 0)
            l_i_156 = l_i_154 + l_i_155  # elementwise4_l_i: stage 1, partition 0 (group 0)
            acc_153 = warpgroup_mma_wait(0, deps=(tok_acc_153,))
            mbarrier.arrive(v_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
            acc_150_p1 = acc_150
            acc_153_p1 = acc_153
            alpha_141_p1 = alpha_141
            l_i_156_p1 = l_i_156
            m_i_new_138_p2 = m_i_new_138_p1
            m_i_new_138_p1 = m_i_new_138
            p_144_p1 = p_144
            s_137_p1 = s_137
            q1_101_sm._keep_alive()
            k1_buf._keep_alive()
            q2_100_sm._keep_alive()
            k2_buf._keep_alive()
            v_buf._keep_alive()
        else:
            m_i_new_138_p2 = gl.full([128], float("-inf"), gl.float32, layout=L1)
            l_i_156_p1 = gl.full([128], 0.0, gl.float32, layout=L1)
            acc_153_p1 = gl.full([128, 64], 0.0, gl.float32, layout=L7)
        acc_110 = gl.expand_dims(l_i_156_p1, 1)
        acc_111 = 1.0 / acc_110
        acc_112 = acc_111.broadcast_to([128, 64])
        acc_113 = acc_153_p1 * acc_112
        l_114 = m_i_new_138_p2 * sm_scale
        l_115 = gl.log(l_i_156_p1)
        l_116 = l_114 + l_115
        v0 = gl.convert_layout(l_116, L2)
        gl.store(l_ptrs_84, v0)
        v1 = acc_113.to(gl.float16)
        v2 = gl.convert_layout(v1, L9)
        gl.store(o_ptrs_83, v2)
        twill_base += twill_n

@gluon.jit
def producer_1(Q1, K1, Q2, K2, V, sm_scale, L, O, stride_q1z, stride_q1h, stride_q1m, stride_k1z, stride_k1h, stride_k1n, stride_q2z, stride_q2h, stride_q2m, stride_k2z, stride_k2h, stride_k2n, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, twill_box_k1, twill_box_k2, twill_box_v, k1_buf, k2_buf, v_buf, k1_ready, k1_empty, k2_ready, k2_empty, v_ready, v_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_m = twill_pid0
        off_h = twill_pid1
        off_z = twill_pid2
        K1_12 = off_z * stride_k1z
        K1_13 = off_h * stride_k1h
        K1_14 = K1_12 + K1_13
        K1_15 = K1 + K1_14
        K2_16 = off_z * stride_k2z
        K2_17 = off_h * stride_k2h
        K2_18 = K2_16 + K2_17
        K2_19 = K2 + K2_18
        V_20 = off_z * stride_vz
        V_21 = off_h * stride_vh
        V_22 = V_20 + V_21
        V_23 = V + V_22
        q1_ptrs_44 = gl.arange(0, 64, layout=L4)
        q1_ptrs_46 = gl.expand_dims(q1_ptrs_44, 0)
        k1_ptrs = gl.arange(0, 64, layout=L0)
        k1_ptrs_59 = gl.expand_dims(k1_ptrs, 1)
        k1_ptrs_62 = k1_ptrs_59 * stride_k1n
        k1_ptrs_63 = k1_ptrs_62.broadcast_to([64, 64])
        k1_ptrs_64 = q1_ptrs_46.broadcast_to([64, 64])
        k1_ptrs_66 = k1_ptrs_63 + k1_ptrs_64
        k1_ptrs_68 = K1_15 + k1_ptrs_66
        k2_ptrs_69 = k1_ptrs_59 * stride_k2n
        k2_ptrs_70 = k2_ptrs_69.broadcast_to([64, 64])
        k2_ptrs_71 = k2_ptrs_70 + k1_ptrs_64
        k2_ptrs_73 = K2_19 + k2_ptrs_71
        v_ptrs_74 = k1_ptrs_59 * stride_vn
        v_ptrs_75 = v_ptrs_74.broadcast_to([64, 64])
        v_ptrs_76 = v_ptrs_75 + k1_ptrs_64
        v_ptrs_78 = V_23 + v_ptrs_76
        hi = start_m + 1
        hi_95 = hi * 128
        hi_96 = P_SEQ + hi_95
        hi_97 = gl.minimum(N, hi_96)
        k1_ptrs_103 = stride_k1n * 64
        k2_ptrs_105 = stride_k2n * 64
        v_ptrs_107 = stride_vn * 64
        k1_ptrs_120 = k1_ptrs_68
        k2_ptrs_121 = k2_ptrs_73
        v_ptrs_122 = v_ptrs_78
        for acc_117 in range(0, hi_97, 64):
            twill_k = twill_base + (acc_117 - 0) // 64
            k1_ptrs_157 = k1_ptrs_120 + k1_ptrs_103
            k2_ptrs_158 = k2_ptrs_121 + k2_ptrs_105
            v_ptrs_159 = v_ptrs_122 + v_ptrs_107
            mbarrier.wait(k1_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(k1_ready.index(twill_k % 4), twill_box_k1.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_k1, [64 * ((acc_117 - 0) // 64), off_h * stride_k1h + off_z * stride_k1z], k1_ready.index(twill_k % 4), k1_buf.index(twill_k % 4))  # load0_k1: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(k1_buf.index(twill_k % 4), k1_ptrs_120)  # load0_k1: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(k1_ready.index(twill_k % 4), increment_count=False)
                else:
                    k1_buf.index(twill_k % 4).store(gl.load(k1_ptrs_120))  # load0_k1: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(k1_ready.index(twill_k % 4), count=128)
            mbarrier.wait(v_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(v_ready.index(twill_k % 4), twill_box_v.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_v, [64 * ((acc_117 - 0) // 64), off_h * stride_vh + off_z * stride_vz], v_ready.index(twill_k % 4), v_buf.index(twill_k % 4))  # load2_v: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(v_buf.index(twill_k % 4), v_ptrs_122)  # load2_v: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(v_ready.index(twill_k % 4), increment_count=False)
                else:
                    v_buf.index(twill_k % 4).store(gl.load(v_ptrs_122))  # load2_v: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(v_ready.index(twill_k % 4), count=128)
            mbarrier.wait(k2_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(k2_ready.index(twill_k % 4), twill_box_k2.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_k2, [64 * ((acc_117 - 0) // 64), off_h * stride_k2h + off_z * stride_k2z], k2_ready.index(twill_k % 4), k2_buf.index(twill_k % 4))  # load1_k2: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(k2_buf.index(twill_k % 4), k2_ptrs_121)  # load1_k2: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(k2_ready.index(twill_k % 4), increment_count=False)
                else:
                    k2_buf.index(twill_k % 4).store(gl.load(k2_ptrs_121))  # load1_k2: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(k2_ready.index(twill_k % 4), count=128)
            k1_ptrs_120 = k1_ptrs_157
            k2_ptrs_121 = k2_ptrs_158
            v_ptrs_122 = v_ptrs_159
        twill_base += (hi_97 - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(Q1, K1, Q2, K2, V, sm_scale, L, O, stride_q1z, stride_q1h, stride_q1m, stride_k1z, stride_k1h, stride_k1n, stride_q2z, stride_q2h, stride_q2m, stride_k2z, stride_k2h, stride_k2n, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, twill_box_k1, twill_box_k2, twill_box_v, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    k1_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k2_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    v_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k1_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k1_ready.index(i), count=1 if TWILL_TMA else 128)
    k1_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k1_empty.index(i), count=1)
    k2_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k2_ready.index(i), count=1 if TWILL_TMA else 128)
    k2_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k2_empty.index(i), count=1)
    v_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(v_ready.index(i), count=1 if TWILL_TMA else 128)
    v_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(v_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q1, K1, Q2, K2, V, sm_scale, L, O, stride_q1z, stride_q1h, stride_q1m, stride_k1z, stride_k1h, stride_k1n, stride_q2z, stride_q2h, stride_q2m, stride_k2z, stride_k2h, stride_k2n, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, twill_box_k1, twill_box_k2, twill_box_v, k1_buf, k2_buf, v_buf, k1_ready, k1_empty, k2_ready, k2_empty, v_ready, v_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (Q1, K1, Q2, K2, V, sm_scale, L, O, stride_q1z, stride_q1h, stride_q1m, stride_k1z, stride_k1h, stride_k1n, stride_q2z, stride_q2h, stride_q2m, stride_k2z, stride_k2h, stride_k2n, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, twill_box_k1, twill_box_k2, twill_box_v, k1_buf, k2_buf, v_buf, k1_ready, k1_empty, k2_ready, k2_empty, v_ready, v_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [80])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L6_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L7_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L8_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(Q1, K1, Q2, K2, V, sm_scale, L, O, stride_q1z, stride_q1h, stride_q1m, stride_k1z, stride_k1h, stride_k1n, stride_q2z, stride_q2h, stride_q2m, stride_k2z, stride_k2h, stride_k2n, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, M, N, P_SEQ, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_h = gl.program_id(1)
    off_z = gl.program_id(2)
    qk_scale = sm_scale * 1.44269502
    Q1_4 = off_z * stride_q1z
    Q1_5 = off_h * stride_q1h
    Q1_6 = Q1_4 + Q1_5
    Q1_7 = Q1 + Q1_6
    Q2_8 = off_z * stride_q2z
    Q2_9 = off_h * stride_q2h
    Q2_10 = Q2_8 + Q2_9
    Q2_11 = Q2 + Q2_10
    K1_12 = off_z * stride_k1z
    K1_13 = off_h * stride_k1h
    K1_14 = K1_12 + K1_13
    K1_15 = K1 + K1_14
    K2_16 = off_z * stride_k2z
    K2_17 = off_h * stride_k2h
    K2_18 = K2_16 + K2_17
    K2_19 = K2 + K2_18
    V_20 = off_z * stride_vz
    V_21 = off_h * stride_vh
    V_22 = V_20 + V_21
    V_23 = V + V_22
    O_24 = off_z * stride_oz
    O_25 = off_h * stride_oh
    O_26 = O_24 + O_25
    O_27 = O + O_26
    L_28 = off_z * H
    L_29 = L_28 + off_h
    L_30 = L_29 * M
    L_31 = L + L_30
    offs_m = start_m * 128
    offs_m_32 = gl.arange(0, 128, layout=L0_short)
    offs_m_33 = gl.arange(0, 128, layout=L1_short)
    offs_m_34 = gl.arange(0, 128, layout=L2_short)
    offs_m_38 = offs_m + offs_m_32
    offs_m_39 = offs_m + offs_m_33
    offs_m_40 = offs_m + offs_m_34
    offs_n_base = gl.arange(0, 64, layout=L3_short)
    q1_ptrs = gl.expand_dims(offs_m_38, 1)
    q1_ptrs_41 = gl.expand_dims(offs_m_39, 1)
    q1_ptrs_43 = q1_ptrs * stride_q1m
    q1_ptrs_44 = gl.arange(0, 64, layout=L4_short)
    q1_ptrs_45 = gl.arange(0, 64, layout=L5_short)
    q1_ptrs_46 = gl.expand_dims(q1_ptrs_44, 0)
    q1_ptrs_47 = gl.expand_dims(q1_ptrs_45, 0)
    q1_ptrs_48 = q1_ptrs_43.broadcast_to([128, 64])
    q1_ptrs_49 = q1_ptrs_46.broadcast_to([128, 64])
    q1_ptrs_50 = q1_ptrs_48 + q1_ptrs_49
    q1_ptrs_52 = Q1_7 + q1_ptrs_50
    q2_ptrs_53 = q1_ptrs * stride_q2m
    q2_ptrs_54 = q2_ptrs_53.broadcast_to([128, 64])
    q2_ptrs_55 = q2_ptrs_54 + q1_ptrs_49
    q2_ptrs_57 = Q2_11 + q2_ptrs_55
    k1_ptrs = gl.arange(0, 64, layout=L0_short)
    k1_ptrs_58 = gl.arange(0, 64, layout=L6_short)
    k1_ptrs_59 = gl.expand_dims(k1_ptrs, 1)
    k1_ptrs_60 = gl.expand_dims(k1_ptrs_58, 1)
    k1_ptrs_62 = k1_ptrs_59 * stride_k1n
    k1_ptrs_63 = k1_ptrs_62.broadcast_to([64, 64])
    k1_ptrs_64 = q1_ptrs_46.broadcast_to([64, 64])
    k1_ptrs_65 = q1_ptrs_47.broadcast_to([64, 64])
    k1_ptrs_66 = k1_ptrs_63 + k1_ptrs_64
    k1_ptrs_68 = K1_15 + k1_ptrs_66
    k2_ptrs_69 = k1_ptrs_59 * stride_k2n
    k2_ptrs_70 = k2_ptrs_69.broadcast_to([64, 64])
    k2_ptrs_71 = k2_ptrs_70 + k1_ptrs_64
    k2_ptrs_73 = K2_19 + k2_ptrs_71
    v_ptrs_74 = k1_ptrs_59 * stride_vn
    v_ptrs_75 = v_ptrs_74.broadcast_to([64, 64])
    v_ptrs_76 = v_ptrs_75 + k1_ptrs_64
    v_ptrs_78 = V_23 + v_ptrs_76
    o_ptrs_79 = q1_ptrs * stride_om
    o_ptrs_80 = o_ptrs_79.broadcast_to([128, 64])
    o_ptrs_81 = o_ptrs_80 + q1_ptrs_49
    o_ptrs_83 = O_27 + o_ptrs_81
    l_ptrs_84 = L_31 + offs_m_40
    q1 = gl.load(q1_ptrs_52)
    q1_85 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q1)
    fence_async_shared()
    q2 = gl.load(q2_ptrs_57)
    q2_86 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q2)
    fence_async_shared()
    I_87 = k1_ptrs_60.broadcast_to([64, 64])
    I_88 = I_87 == k1_ptrs_65
    I_89 = gl.where(I_88, 1.0, 0.0).to(gl.float16)
    I_90 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), I_89)
    fence_async_shared()
    q1_91 = warpgroup_mma(q1_85, I_90, gl.full([128, 64], 0.0, gl.float32, layout=L7_short))
    q1_92 = q1_91.to(gl.float16)
    q2_93 = warpgroup_mma(q2_86, I_90, gl.full([128, 64], 0.0, gl.float32, layout=L7_short))
    q2_94 = q2_93.to(gl.float16)
    hi = start_m + 1
    hi_95 = hi * 128
    hi_96 = P_SEQ + hi_95
    hi_97 = gl.minimum(N, hi_96)
    piecewise_mask_98 = P_SEQ + q1_ptrs_41
    piecewise_mask_99 = piecewise_mask_98.broadcast_to([128, 64])
    q2_100_sm = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q2_94)  # held here, not in registers: [128, 64] f16 for the loop's wgmmas
    fence_async_shared()
    q1_101_sm = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q1_92)  # held here, not in registers: [128, 64] f16 for the loop's wgmmas
    fence_async_shared()
    k1_ptrs_103 = stride_k1n * 64
    k2_ptrs_105 = stride_k2n * 64
    v_ptrs_107 = stride_vn * 64
    twill_n = (hi_97 - 0 + 64 - 1) // 64
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        s_131_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        v_124_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        s_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        k1_ptrs_157 = k1_ptrs_68
        k2_ptrs_158 = k2_ptrs_73
        k1_ptrs_157_p1 = k1_ptrs_157
        k2_ptrs_158_p1 = k2_ptrs_158
        m_i_new_138 = gl.full([128], float("-inf"), gl.float32, layout=L1_short)
        v_ptrs_159 = v_ptrs_78
        k1_ptrs_157 = k1_ptrs_157_p1 + k1_ptrs_103  # load0_k1: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_k1: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(s_131_ring.index((0 - 0) % 3), k1_ptrs_157_p1)  # load0_k1: stage 0, partition 0 (group 0)
        else:  # load0_k1: stage 0, partition 0 (group 0)
            s_131_ring.index((0 - 0) % 3).store(gl.load(k1_ptrs_157_p1))  # load0_k1: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_k1: stage 0, partition 0 (group 0)
        k2_ptrs_158 = k2_ptrs_158_p1 + k2_ptrs_105  # load1_k2: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_k2: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(s_ring.index((0 - 0) % 3), k2_ptrs_158_p1)  # load1_k2: stage 0, partition 0 (group 0)
        else:  # load1_k2: stage 0, partition 0 (group 0)
            s_ring.index((0 - 0) % 3).store(gl.load(k2_ptrs_158_p1))  # load1_k2: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_k2: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        k1_ptrs_157_p1 = k1_ptrs_157
        k2_ptrs_158_p1 = k2_ptrs_158
        m_i_new_138_p1 = m_i_new_138
        v_ptrs_159_p1 = v_ptrs_159
        l_i_156 = gl.full([128], 0.0, gl.float32, layout=L1_short)
        acc_153 = gl.full([128, 64], 0.0, gl.float32, layout=L7_short)
        async_copy.wait_group(0)
        gl.thread_barrier()
        s_131 = s_131_ring.index((1 - 1) % 3)  # load0_k1: stage 1, partition 0 (group 0)
        k1_ptrs_157 = k1_ptrs_157_p1 + k1_ptrs_103  # load0_k1: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_k1: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(s_131_ring.index((1 - 0) % 3), k1_ptrs_157_p1)  # load0_k1: stage 0, partition 0 (group 0)
        else:  # load0_k1: stage 0, partition 0 (group 0)
            s_131_ring.index((1 - 0) % 3).store(gl.load(k1_ptrs_157_p1))  # load0_k1: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_k1: stage 0, partition 0 (group 0)
        s_132 = s_131.permute((1, 0))  # load0_k1: stage 1, partition 0 (group 0)
        tok_s_133 = warpgroup_mma(q1_101_sm, s_132, gl.full([128, 64], 0.0, gl.float32, layout=L7_short), use_acc=False, is_async=True)  # dot1_s: stage 1, partition 0 (group 0)
        v_ptrs_159 = v_ptrs_159_p1 + v_ptrs_107  # load2_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load2_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_124_ring.index((1 - 1) % 3), v_ptrs_159_p1)  # load2_v: stage 1, partition 0 (group 0)
        else:  # load2_v: stage 1, partition 0 (group 0)
            v_124_ring.index((1 - 1) % 3).store(gl.load(v_ptrs_159_p1))  # load2_v: stage 1, partition 0 (group 0)
            fence_async_shared()  # load2_v: stage 1, partition 0 (group 0)
        s = s_ring.index((1 - 1) % 3)  # load1_k2: stage 1, partition 0 (group 0)
        k2_ptrs_158 = k2_ptrs_158_p1 + k2_ptrs_105  # load1_k2: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_k2: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(s_ring.index((1 - 0) % 3), k2_ptrs_158_p1)  # load1_k2: stage 0, partition 0 (group 0)
        else:  # load1_k2: stage 0, partition 0 (group 0)
            s_ring.index((1 - 0) % 3).store(gl.load(k2_ptrs_158_p1))  # load1_k2: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_k2: stage 0, partition 0 (group 0)
        s_129 = s.permute((1, 0))  # load1_k2: stage 1, partition 0 (group 0)
        tok_s_130 = warpgroup_mma(q2_100_sm, s_129, gl.full([128, 64], 0.0, gl.float32, layout=L7_short), use_acc=False, is_async=True)  # dot0_s: stage 1, partition 0 (group 0)
        offs_n_123 = (0 + (1 - 1) * 64) + offs_n_base  # elementwise0_s: stage 1, partition 0 (group 0)
        piecewise_mask_125 = gl.expand_dims(offs_n_123, 0)  # elementwise0_s: stage 1, partition 0 (group 0)
        piecewise_mask_126 = piecewise_mask_125 + 128  # elementwise0_s: stage 1, partition 0 (group 0)
        piecewise_mask_127 = piecewise_mask_126.broadcast_to([128, 64])  # elementwise0_s: stage 1, partition 0 (group 0)
        piecewise_mask_128 = piecewise_mask_99 >= piecewise_mask_127  # elementwise0_s: stage 1, partition 0 (group 0)
        s_133, s_130 = warpgroup_mma_wait(0, deps=(tok_s_133, tok_s_130,))
        s_134 = gl.where(piecewise_mask_128, s_130, s_133)  # elementwise0_s: stage 1, partition 0 (group 0)
        s_135 = s_134 + 0.0  # elementwise0_s: stage 1, partition 0 (group 0)
        causal_mask = piecewise_mask_125.broadcast_to([128, 64])  # elementwise0_s: stage 1, partition 0 (group 0)
        causal_mask_136 = piecewise_mask_99 >= causal_mask  # elementwise0_s: stage 1, partition 0 (group 0)
        s_137 = gl.where(causal_mask_136, s_135, float("-inf"))  # elementwise0_s: stage 1, partition 0 (group 0)
        m_i_new = gl.max(s_137, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
        m_i_new_138 = gl.maximum(m_i_new_138_p1, m_i_new)  # elementwise1_m_i_new: stage 1, partition 0 (group 0)
        alpha_139 = m_i_new_138_p1 - m_i_new_138  # sfu0_alpha: stage 1, partition 0 (group 0)
        alpha_140 = alpha_139 * qk_scale  # sfu0_alpha: stage 1, partition 0 (group 0)
        alpha_141 = gl.exp2(alpha_140)  # sfu0_alpha: stage 1, partition 0 (group 0)
        acc_148 = gl.expand_dims(alpha_141, 1)  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_149 = acc_148.broadcast_to([128, 64])  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_150 = acc_153 * acc_149  # elementwise3_acc: stage 1, partition 0 (group 0)
        p_143 = gl.expand_dims(m_i_new_138, 1)  # elementwise2_p: stage 1, partition 0 (group 0)
        p_144 = p_143 * qk_scale  # elementwise2_p: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_150_p1 = acc_150
        alpha_141_p1 = alpha_141
        k1_ptrs_157_p1 = k1_ptrs_157
        k2_ptrs_158_p1 = k2_ptrs_158
        l_i_156_p1 = l_i_156
        m_i_new_138_p1 = m_i_new_138
        p_144_p1 = p_144
        s_137_p1 = s_137
        v_ptrs_159_p1 = v_ptrs_159
        for twill_b in range(2, twill_n):
            async_copy.wait_group(0)
            gl.thread_barrier()
            s_131 = s_131_ring.index((twill_b - 1) % 3)  # load0_k1: stage 1, partition 0 (group 0)
            k1_ptrs_157 = k1_ptrs_157_p1 + k1_ptrs_103  # load0_k1: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_k1: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(s_131_ring.index((twill_b - 0) % 3), k1_ptrs_157_p1)  # load0_k1: stage 0, partition 0 (group 0)
            else:  # load0_k1: stage 0, partition 0 (group 0)
                s_131_ring.index((twill_b - 0) % 3).store(gl.load(k1_ptrs_157_p1))  # load0_k1: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_k1: stage 0, partition 0 (group 0)
            s_132 = s_131.permute((1, 0))  # load0_k1: stage 1, partition 0 (group 0)
            tok_s_133 = warpgroup_mma(q1_101_sm, s_132, gl.full([128, 64], 0.0, gl.float32, layout=L7_short), use_acc=False, is_async=True)  # dot1_s: stage 1, partition 0 (group 0)
            p_142 = s_137_p1 * qk_scale  # sfu1_p: stage 2, partition 0 (group 0)
            p_145 = p_144_p1.broadcast_to([128, 64])  # sfu1_p: stage 2, partition 0 (group 0)
            p_146 = p_142 - p_145  # sfu1_p: stage 2, partition 0 (group 0)
            p_147 = gl.exp2(p_146)  # sfu1_p: stage 2, partition 0 (group 0)
            l_i_155 = gl.sum(p_147, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
            acc_151 = p_147.to(gl.float16)  # convert0_acc: stage 2, partition 0 (group 0)
            acc_152 = gl.convert_layout(acc_151, L8_short)  # convert0_acc: stage 2, partition 0 (group 0)
            v_124 = v_124_ring.index((twill_b - 2) % 3)  # load2_v: stage 2, partition 0 (group 0)
            v_ptrs_159 = v_ptrs_159_p1 + v_ptrs_107  # load2_v: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load2_v: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(v_124_ring.index((twill_b - 1) % 3), v_ptrs_159_p1)  # load2_v: stage 1, partition 0 (group 0)
            else:  # load2_v: stage 1, partition 0 (group 0)
                v_124_ring.index((twill_b - 1) % 3).store(gl.load(v_ptrs_159_p1))  # load2_v: stage 1, partition 0 (group 0)
                fence_async_shared()  # load2_v: stage 1, partition 0 (group 0)
            tok_acc_153 = warpgroup_mma(acc_152, v_124, acc_150_p1, is_async=True)  # dot2_acc: stage 2, partition 0 (group 0)
            l_i_154 = l_i_156_p1 * alpha_141_p1  # elementwise4_l_i: stage 2, partition 0 (group 0)
            l_i_156 = l_i_154 + l_i_155  # elementwise4_l_i: stage 2, partition 0 (group 0)
            s = s_ring.index((twill_b - 1) % 3)  # load1_k2: stage 1, partition 0 (group 0)
            k2_ptrs_158 = k2_ptrs_158_p1 + k2_ptrs_105  # load1_k2: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_k2: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(s_ring.index((twill_b - 0) % 3), k2_ptrs_158_p1)  # load1_k2: stage 0, partition 0 (group 0)
            else:  # load1_k2: stage 0, partition 0 (group 0)
                s_ring.index((twill_b - 0) % 3).store(gl.load(k2_ptrs_158_p1))  # load1_k2: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_k2: stage 0, partition 0 (group 0)
            s_129 = s.permute((1, 0))  # load1_k2: stage 1, partition 0 (group 0)
            tok_s_130 = warpgroup_mma(q2_100_sm, s_129, gl.full([128, 64], 0.0, gl.float32, layout=L7_short), use_acc=False, is_async=True)  # dot0_s: stage 1, partition 0 (group 0)
            offs_n = (0 + (twill_b - 1) * 64)  # elementwise0_s: stage 1, partition 0 (group 0)
            offs_n_123 = offs_n + offs_n_base  # elementwise0_s: stage 1, partition 0 (group 0)
            piecewise_mask_125 = gl.expand_dims(offs_n_123, 0)  # elementwise0_s: stage 1, partition 0 (group 0)
            piecewise_mask_126 = piecewise_mask_125 + 128  # elementwise0_s: stage 1, partition 0 (group 0)
            piecewise_mask_127 = piecewise_mask_126.broadcast_to([128, 64])  # elementwise0_s: stage 1, partition 0 (group 0)
            piecewise_mask_128 = piecewise_mask_99 >= piecewise_mask_127  # elementwise0_s: stage 1, partition 0 (group 0)
            s_133, acc_153, s_130 = warpgroup_mma_wait(0, deps=(tok_s_133, tok_acc_153, tok_s_130,))
            s_134 = gl.where(piecewise_mask_128, s_130, s_133)  # elementwise0_s: stage 1, partition 0 (group 0)
            s_135 = s_134 + 0.0  # elementwise0_s: stage 1, partition 0 (group 0)
            causal_mask = piecewise_mask_125.broadcast_to([128, 64])  # elementwise0_s: stage 1, partition 0 (group 0)
            causal_mask_136 = piecewise_mask_99 >= causal_mask  # elementwise0_s: stage 1, partition 0 (group 0)
            s_137 = gl.where(causal_mask_136, s_135, float("-inf"))  # elementwise0_s: stage 1, partition 0 (group 0)
            m_i_new = gl.max(s_137, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
            m_i_new_138 = gl.maximum(m_i_new_138_p1, m_i_new)  # elementwise1_m_i_new: stage 1, partition 0 (group 0)
            alpha_139 = m_i_new_138_p1 - m_i_new_138  # sfu0_alpha: stage 1, partition 0 (group 0)
            alpha_140 = alpha_139 * qk_scale  # sfu0_alpha: stage 1, partition 0 (group 0)
            alpha_141 = gl.exp2(alpha_140)  # sfu0_alpha: stage 1, partition 0 (group 0)
            acc_148 = gl.expand_dims(alpha_141, 1)  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_149 = acc_148.broadcast_to([128, 64])  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_150 = acc_153 * acc_149  # elementwise3_acc: stage 1, partition 0 (group 0)
            p_143 = gl.expand_dims(m_i_new_138, 1)  # elementwise2_p: stage 1, partition 0 (group 0)
            p_144 = p_143 * qk_scale  # elementwise2_p: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_150_p1 = acc_150
            alpha_141_p1 = alpha_141
            k1_ptrs_157_p1 = k1_ptrs_157
            k2_ptrs_158_p1 = k2_ptrs_158
            l_i_156_p1 = l_i_156
            m_i_new_138_p1 = m_i_new_138
            p_144_p1 = p_144
            s_137_p1 = s_137
            v_ptrs_159_p1 = v_ptrs_159
        async_copy.wait_group(0)
        gl.thread_barrier()
        s_131 = s_131_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load0_k1: stage 1, partition 0 (group 0)
        s_132 = s_131.permute((1, 0))  # load0_k1: stage 1, partition 0 (group 0)
        tok_s_133 = warpgroup_mma(q1_101_sm, s_132, gl.full([128, 64], 0.0, gl.float32, layout=L7_short), use_acc=False, is_async=True)  # dot1_s: stage 1, partition 0 (group 0)
        p_142 = s_137_p1 * qk_scale  # sfu1_p: stage 2, partition 0 (group 0)
        p_145 = p_144_p1.broadcast_to([128, 64])  # sfu1_p: stage 2, partition 0 (group 0)
        p_146 = p_142 - p_145  # sfu1_p: stage 2, partition 0 (group 0)
        p_147 = gl.exp2(p_146)  # sfu1_p: stage 2, partition 0 (group 0)
        l_i_155 = gl.sum(p_147, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
        acc_151 = p_147.to(gl.float16)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_152 = gl.convert_layout(acc_151, L8_short)  # convert0_acc: stage 2, partition 0 (group 0)
        v_124 = v_124_ring.index(((twill_n - 1 + 1) - 2) % 3)  # load2_v: stage 2, partition 0 (group 0)
        v_ptrs_159 = v_ptrs_159_p1 + v_ptrs_107  # load2_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load2_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_124_ring.index(((twill_n - 1 + 1) - 1) % 3), v_ptrs_159_p1)  # load2_v: stage 1, partition 0 (group 0)
        else:  # load2_v: stage 1, partition 0 (group 0)
            v_124_ring.index(((twill_n - 1 + 1) - 1) % 3).store(gl.load(v_ptrs_159_p1))  # load2_v: stage 1, partition 0 (group 0)
            fence_async_shared()  # load2_v: stage 1, partition 0 (group 0)
        tok_acc_153 = warpgroup_mma(acc_152, v_124, acc_150_p1, is_async=True)  # dot2_acc: stage 2, partition 0 (group 0)
        l_i_154 = l_i_156_p1 * alpha_141_p1  # elementwise4_l_i: stage 2, partition 0 (group 0)
        l_i_156 = l_i_154 + l_i_155  # elementwise4_l_i: stage 2, partition 0 (group 0)
        s = s_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load1_k2: stage 1, partition 0 (group 0)
        s_129 = s.permute((1, 0))  # load1_k2: stage 1, partition 0 (group 0)
        tok_s_130 = warpgroup_mma(q2_100_sm, s_129, gl.full([128, 64], 0.0, gl.float32, layout=L7_short), use_acc=False, is_async=True)  # dot0_s: stage 1, partition 0 (group 0)
        offs_n = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_s: stage 1, partition 0 (group 0)
        offs_n_123 = offs_n + offs_n_base  # elementwise0_s: stage 1, partition 0 (group 0)
        piecewise_mask_125 = gl.expand_dims(offs_n_123, 0)  # elementwise0_s: stage 1, partition 0 (group 0)
        piecewise_mask_126 = piecewise_mask_125 + 128  # elementwise0_s: stage 1, partition 0 (group 0)
        piecewise_mask_127 = piecewise_mask_126.broadcast_to([128, 64])  # elementwise0_s: stage 1, partition 0 (group 0)
        piecewise_mask_128 = piecewise_mask_99 >= piecewise_mask_127  # elementwise0_s: stage 1, partition 0 (group 0)
        s_133, acc_153, s_130 = warpgroup_mma_wait(0, deps=(tok_s_133, tok_acc_153, tok_s_130,))
        s_134 = gl.where(piecewise_mask_128, s_130, s_133)  # elementwise0_s: stage 1, partition 0 (group 0)
        s_135 = s_134 + 0.0  # elementwise0_s: stage 1, partition 0 (group 0)
        causal_mask = piecewise_mask_125.broadcast_to([128, 64])  # elementwise0_s: stage 1, partition 0 (group 0)
        causal_mask_136 = piecewise_mask_99 >= causal_mask  # elementwise0_s: stage 1, partition 0 (group 0)
        s_137 = gl.where(causal_mask_136, s_135, float("-inf"))  # elementwise0_s: stage 1, partition 0 (group 0)
        m_i_new = gl.max(s_137, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
        m_i_new_138 = gl.maximum(m_i_new_138_p1, m_i_new)  # elementwise1_m_i_new: stage 1, partition 0 (group 0)
        alpha_139 = m_i_new_138_p1 - m_i_new_138  # sfu0_alpha: stage 1, partition 0 (group 0)
        alpha_140 = alpha_139 * qk_scale  # sfu0_alpha: stage 1, partition 0 (group 0)
        alpha_141 = gl.exp2(alpha_140)  # sfu0_alpha: stage 1, partition 0 (group 0)
        acc_148 = gl.expand_dims(alpha_141, 1)  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_149 = acc_148.broadcast_to([128, 64])  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_150 = acc_153 * acc_149  # elementwise3_acc: stage 1, partition 0 (group 0)
        p_143 = gl.expand_dims(m_i_new_138, 1)  # elementwise2_p: stage 1, partition 0 (group 0)
        p_144 = p_143 * qk_scale  # elementwise2_p: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_150_p1 = acc_150
        acc_153_p1 = acc_153
        alpha_141_p1 = alpha_141
        k1_ptrs_157_p2 = k1_ptrs_157_p1
        k1_ptrs_157_p1 = k1_ptrs_157
        k2_ptrs_158_p2 = k2_ptrs_158_p1
        k2_ptrs_158_p1 = k2_ptrs_158
        l_i_156_p1 = l_i_156
        m_i_new_138_p2 = m_i_new_138_p1
        m_i_new_138_p1 = m_i_new_138
        p_144_p1 = p_144
        s_137_p1 = s_137
        v_ptrs_159_p2 = v_ptrs_159_p1
        v_ptrs_159_p1 = v_ptrs_159
        p_142 = s_137_p1 * qk_scale  # sfu1_p: stage 2, partition 0 (group 0)
        p_145 = p_144_p1.broadcast_to([128, 64])  # sfu1_p: stage 2, partition 0 (group 0)
        p_146 = p_142 - p_145  # sfu1_p: stage 2, partition 0 (group 0)
        p_147 = gl.exp2(p_146)  # sfu1_p: stage 2, partition 0 (group 0)
        l_i_155 = gl.sum(p_147, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
        acc_151 = p_147.to(gl.float16)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_152 = gl.convert_layout(acc_151, L8_short)  # convert0_acc: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        v_124 = v_124_ring.index(((twill_n - 1 + 2) - 2) % 3)  # load2_v: stage 2, partition 0 (group 0)
        tok_acc_153 = warpgroup_mma(acc_152, v_124, acc_150_p1, is_async=True)  # dot2_acc: stage 2, partition 0 (group 0)
        l_i_154 = l_i_156_p1 * alpha_141_p1  # elementwise4_l_i: stage 2, partition 0 (group 0)
        l_i_156 = l_i_154 + l_i_155  # elementwise4_l_i: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_153 = warpgroup_mma_wait(0, deps=(tok_acc_153,))
        acc_150_p1 = acc_150
        acc_153_p1 = acc_153
        alpha_141_p1 = alpha_141
        k1_ptrs_157_p3 = k1_ptrs_157_p2
        k1_ptrs_157_p2 = k1_ptrs_157_p1
        k1_ptrs_157_p1 = k1_ptrs_157
        k2_ptrs_158_p3 = k2_ptrs_158_p2
        k2_ptrs_158_p2 = k2_ptrs_158_p1
        k2_ptrs_158_p1 = k2_ptrs_158
        l_i_156_p1 = l_i_156
        m_i_new_138_p2 = m_i_new_138_p1
        m_i_new_138_p1 = m_i_new_138
        p_144_p1 = p_144
        s_137_p1 = s_137
        v_ptrs_159_p2 = v_ptrs_159_p1
        v_ptrs_159_p1 = v_ptrs_159
        q1_101_sm._keep_alive()
        s_131_ring._keep_alive()
        q2_100_sm._keep_alive()
        s_ring._keep_alive()
        v_124_ring._keep_alive()
    else:
        m_i_118_w = gl.full([128], float("-inf"), gl.float32, layout=L1_short)
        l_i_119_w = gl.full([128], 0.0, gl.float32, layout=L1_short)
        arg34_w = gl.full([128, 64], 0.0, gl.float32, layout=L7_short)
        k1_ptrs_120_w = k1_ptrs_68
        k2_ptrs_121_w = k2_ptrs_73
        v_ptrs_122_w = v_ptrs_78
        for acc_117_w in range(0, hi_97, 64):
            offs_n_123_w = acc_117_w + offs_n_base
            k1_w = gl.load(k1_ptrs_120_w)
            k2_w = gl.load(k2_ptrs_121_w)
            v_w = gl.load(v_ptrs_122_w)
            v_124_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v_w)
            fence_async_shared()
            piecewise_mask_125_w = gl.expand_dims(offs_n_123_w, 0)
            piecewise_mask_126_w = piecewise_mask_125_w + 128
            piecewise_mask_127_w = piecewise_mask_126_w.broadcast_to([128, 64])
            piecewise_mask_128_w = piecewise_mask_99 >= piecewise_mask_127_w
            s_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), k2_w)
            fence_async_shared()
            s_130_w = warpgroup_mma(q2_100_sm, s_w.permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L7_short))
            s_131_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), k1_w)
            fence_async_shared()
            s_133_w = warpgroup_mma(q1_101_sm, s_131_w.permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L7_short))
            s_134_w = gl.where(piecewise_mask_128_w, s_130_w, s_133_w)
            s_135_w = s_134_w + 0.0
            causal_mask_w = piecewise_mask_125_w.broadcast_to([128, 64])
            causal_mask_136_w = piecewise_mask_99 >= causal_mask_w
            s_137_w = gl.where(causal_mask_136_w, s_135_w, float("-inf"))
            m_i_new_w = gl.max(s_137_w, axis=1)
            m_i_new_138_w = gl.maximum(m_i_118_w, m_i_new_w)
            alpha_139_w = m_i_118_w - m_i_new_138_w
            alpha_140_w = alpha_139_w * qk_scale
            alpha_141_w = gl.exp2(alpha_140_w)
            p_142_w = s_137_w * qk_scale
            p_143_w = gl.expand_dims(m_i_new_138_w, 1)
            p_144_w = p_143_w * qk_scale
            p_145_w = p_144_w.broadcast_to([128, 64])
            p_146_w = p_142_w - p_145_w
            p_147_w = gl.exp2(p_146_w)
            acc_148_w = gl.expand_dims(alpha_141_w, 1)
            acc_149_w = acc_148_w.broadcast_to([128, 64])
            acc_150_w = arg34_w * acc_149_w
            acc_151_w = p_147_w.to(gl.float16)
            acc_152_w = gl.convert_layout(acc_151_w, L8_short)
            acc_153_w = warpgroup_mma(acc_152_w, v_124_w, acc_150_w)
            l_i_154_w = l_i_119_w * alpha_141_w
            l_i_155_w = gl.sum(p_147_w, axis=1)
            l_i_156_w = l_i_154_w + l_i_155_w
            k1_ptrs_157_w = k1_ptrs_120_w + k1_ptrs_103
            k2_ptrs_158_w = k2_ptrs_121_w + k2_ptrs_105
            v_ptrs_159_w = v_ptrs_122_w + v_ptrs_107
            m_i_118_w = m_i_new_138_w
            l_i_119_w = l_i_156_w
            arg34_w = acc_153_w
            k1_ptrs_120_w = k1_ptrs_157_w
            k2_ptrs_121_w = k2_ptrs_158_w
            v_ptrs_122_w = v_ptrs_159_w
        m_i_new_138_p2 = m_i_118_w
        l_i_156_p1 = l_i_119_w
        acc_153_p1 = arg34_w
        k1_ptrs_157_p3 = k1_ptrs_120_w
        k2_ptrs_158_p3 = k2_ptrs_121_w
        v_ptrs_159_p2 = v_ptrs_122_w
    acc_110 = gl.expand_dims(l_i_156_p1, 1)
    acc_111 = 1.0 / acc_110
    acc_112 = acc_111.broadcast_to([128, 64])
    acc_113 = acc_153_p1 * acc_112
    l_114 = m_i_new_138_p2 * sm_scale
    l_115 = gl.log(l_i_156_p1)
    l_116 = l_114 + l_115
    v0 = gl.convert_layout(l_116, L2_short)
    gl.store(l_ptrs_84, v0)
    v1 = acc_113.to(gl.float16)
    v2 = gl.convert_layout(v1, L9_short)
    gl.store(o_ptrs_83, v2)

@gluon.jit
def twill_kernel_short(Q1, K1, Q2, K2, V, sm_scale, L, O, stride_q1z, stride_q1h, stride_q1m, stride_k1z, stride_k1h, stride_k1n, stride_q2z, stride_q2h, stride_q2m, stride_k2z, stride_k2h, stride_k2n, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, M, N, P_SEQ, TWILL_COPY: gl.constexpr):
    consumer_0_short(Q1, K1, Q2, K2, V, sm_scale, L, O, stride_q1z, stride_q1h, stride_q1m, stride_k1z, stride_k1h, stride_k1n, stride_q2z, stride_q2h, stride_q2m, stride_k2z, stride_k2h, stride_k2n, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, M, N, P_SEQ, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q1', 'K1', 'Q2', 'K2', 'V', 'sm_scale', 'L', 'O', 'stride_q1z', 'stride_q1h', 'stride_q1m', 'stride_q1k', 'stride_k1z', 'stride_k1h', 'stride_k1n', 'stride_k1k', 'stride_q2z', 'stride_q2h', 'stride_q2m', 'stride_q2k', 'stride_k2z', 'stride_k2h', 'stride_k2n', 'stride_k2k', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_vk', 'stride_oz', 'stride_oh', 'stride_om', 'stride_ok', 'Z', 'H', 'M', 'N', 'P_SEQ', 'w', 'BLOCK_M', 'BLOCK_DMODEL', 'BLOCK_N', 'IS_CAUSAL', 'LARGER_M', 'DIVISIBLE_M', 'DIVISIBLE_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q1', 'K1', 'Q2', 'K2', 'V', 'sm_scale', 'L', 'O', 'stride_q1z', 'stride_q1h', 'stride_q1m', 'stride_k1z', 'stride_k1h', 'stride_k1n', 'stride_q2z', 'stride_q2h', 'stride_q2m', 'stride_k2z', 'stride_k2h', 'stride_k2n', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'Z', 'H', 'M', 'N', 'P_SEQ', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_k1', 'twill_box_k2', 'twill_box_v']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q1', 'K1', 'Q2', 'K2', 'V', 'sm_scale', 'L', 'O', 'stride_q1z', 'stride_q1h', 'stride_q1m', 'stride_k1z', 'stride_k1h', 'stride_k1n', 'stride_q2z', 'stride_q2h', 'stride_q2m', 'stride_k2z', 'stride_k2h', 'stride_k2n', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'Z', 'H', 'M', 'N', 'P_SEQ', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_q1k': 1, 'stride_k1k': 1, 'stride_q2k': 1, 'stride_k2k': 1, 'stride_vk': 1, 'stride_ok': 1, 'w': 128, 'BLOCK_M': 128, 'BLOCK_DMODEL': 64, 'BLOCK_N': 64, 'IS_CAUSAL': True, 'LARGER_M': False, 'DIVISIBLE_M': True, 'DIVISIBLE_N': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_k1': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_k2': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_v': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_k1': ('K1', ['stride_k1n', '1'], [None, None], [64, 64], []), 'twill_box_k2': ('K2', ['stride_k2n', '1'], [None, None], [64, 64], []), 'twill_box_v': ('V', ['stride_vn', '1'], [None, None], [64, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K1', 'K2', 'V', 'stride_k1z', 'stride_k1h', 'stride_k1n', 'stride_k2z', 'stride_k2h', 'stride_k2n', 'stride_vz', 'stride_vh', 'stride_vn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


def _box_shapes(bound):
    """Each pointer tile's (base, extents, strides), or None where the launch does not allow them (a base not
    16-byte aligned, a row stride not a 16-byte multiple, an extent not positive, a check failed, a shape
    or stride the descriptor refuses)."""
    out = {}
    for n, (base, strides, extents, block, checks) in POINTER_BOXES.items():
        t = bound[base]
        if not TMA_BOXES or not hasattr(t, 'data_ptr') or not all(_ev(c, bound) for c in checks):
            return None
        st = tuple(int(_ev(e, bound)) for e in strides)
        ext = tuple(2 ** 31 - 1 if e is None else int(_ev(e, bound)) for e in extents)   # None: unmasked
        if t.data_ptr() % 16 or any(x * t.element_size() % 16 for x in st[:-1]) or min(ext) <= 0:
            return None
        # unmasked, a coordinate holds the element offsets folded into it (an expert's, a batch's): TMA's
        # coordinates and the kernel's arithmetic are 32-bit, so the tensor's whole span must fit them
        span = _span(t)
        if any(e is None and span // max(s, 1) >= 2 ** 31 - 1 for e, s in zip(extents, st)):
            return None
        try:
            _desc(n, t, ext, st, block)
        except (AssertionError, ValueError, TypeError):
            return None
        out[n] = (base, ext, st)
    return out


def _span(t):
    """The elements from ``t``'s first to the end of its storage."""
    try:
        return t.untyped_storage().nbytes() // t.element_size() - t.storage_offset()
    except (AttributeError, RuntimeError):
        return t.numel()


def _boxes(bound, shapes=None):
    """The pointer tiles' descriptors over ``shapes`` (else ``_box_shapes``'), None where the launch does not
    allow them."""
    shapes = _box_shapes(bound) if shapes is None else shapes
    if shapes is None:
        return None
    return {n: _desc(n, bound[b], ext, st, POINTER_BOXES[n][3]) for n, (b, ext, st) in shapes.items()}


def _key(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES:
        from triton import knobs
        _MODES.extend((knobs.compilation, knobs.runtime))
    key = [g, TMA_BOXES, _MODES[0].instrumentation_mode, _MODES[1].debug, _device()]
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
    shapes = _box_shapes(bound)
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED), 'TWILL_TMA': shapes is not None}
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
    bound.update(dict.fromkeys(POINTER_BOXES) if entry[1] is None else _boxes(bound, entry[1]))
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
ARGUMENTS_short = ['Q1', 'K1', 'Q2', 'K2', 'V', 'sm_scale', 'L', 'O', 'stride_q1z', 'stride_q1h', 'stride_q1m', 'stride_q1k', 'stride_k1z', 'stride_k1h', 'stride_k1n', 'stride_k1k', 'stride_q2z', 'stride_q2h', 'stride_q2m', 'stride_q2k', 'stride_k2z', 'stride_k2h', 'stride_k2n', 'stride_k2k', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_vk', 'stride_oz', 'stride_oh', 'stride_om', 'stride_ok', 'Z', 'H', 'M', 'N', 'P_SEQ', 'w', 'BLOCK_M', 'BLOCK_DMODEL', 'BLOCK_N', 'IS_CAUSAL', 'LARGER_M', 'DIVISIBLE_M', 'DIVISIBLE_N']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Q1', 'K1', 'Q2', 'K2', 'V', 'sm_scale', 'L', 'O', 'stride_q1z', 'stride_q1h', 'stride_q1m', 'stride_k1z', 'stride_k1h', 'stride_k1n', 'stride_q2z', 'stride_q2h', 'stride_q2m', 'stride_k2z', 'stride_k2h', 'stride_k2n', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'Z', 'H', 'M', 'N', 'P_SEQ']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Q1', 'K1', 'Q2', 'K2', 'V', 'sm_scale', 'L', 'O', 'stride_q1z', 'stride_q1h', 'stride_q1m', 'stride_k1z', 'stride_k1h', 'stride_k1n', 'stride_q2z', 'stride_q2h', 'stride_q2m', 'stride_k2z', 'stride_k2h', 'stride_k2n', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'Z', 'H', 'M', 'N', 'P_SEQ']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_q1k': 1, 'stride_k1k': 1, 'stride_q2k': 1, 'stride_k2k': 1, 'stride_vk': 1, 'stride_ok': 1, 'w': 128, 'BLOCK_M': 128, 'BLOCK_DMODEL': 64, 'BLOCK_N': 64, 'IS_CAUSAL': True, 'LARGER_M': False, 'DIVISIBLE_M': True, 'DIVISIBLE_N': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['K1', 'K2', 'V', 'stride_k1z', 'stride_k1h', 'stride_k1n', 'stride_k2z', 'stride_k2h', 'stride_k2n', 'stride_vz', 'stride_vh', 'stride_vn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
