"""_ring_attn_fwd_step_kernel, written by twill from its joint schedule: I=276 L=386 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (k_134, v_153): their addresses and masks spread over 256 threads, 5-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- k_134, v_153 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over K, V when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 154): sub-tile 0, 1 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 184 registers per thread (needs about 138): sub-tile 1, 2 stages
- partition 2 (worker): producer, warp group 2, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring k_134: 5 buffers of [128, 64] bf16 (the loads run 4 iteration(s) ahead), read by partition(s) 0, 1
- ring v_153: 5 buffers of [64, 128] bf16 (the loads run 4 iteration(s) ahead), read by partition(s) 0, 1
- tensor-core order: the schedule's slots (partition 0 (1 dot) | partition 1 (2 dots) | partition 0 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 196800 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L11 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))
L12 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L13 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L14 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K, V, Out, Lse, sm_scale, N_Q, N_KV, stride_qh, stride_qn, stride_kh, stride_kn, stride_oh, stride_on, twill_g0, twill_g1, twill_g2, twill_box_k_134, twill_box_v_153, k_134_buf, v_153_buf, k_134_ready, k_134_empty, v_153_ready, v_153_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        start_m = twill_pid0
        off_bh = twill_pid1
        offs_m = start_m * 128
        offs_m_8_t0 = gl.arange(0, 64, layout=L0)
        offs_m_9_t0 = gl.arange(0, 64, layout=L1)
        offs_m_10_t0 = gl.arange(0, 64, layout=L2)
        offs_m_11_t0 = gl.arange(0, 64, layout=L3)
        offs_m_16_t0 = offs_m + offs_m_8_t0
        offs_m_17_t0 = offs_m + offs_m_9_t0
        offs_m_18_t0 = offs_m + offs_m_10_t0
        offs_m_19_t0 = offs_m + offs_m_11_t0
        offs_n = gl.arange(0, 64, layout=L4)
        mask_m_25_t0 = offs_m_16_t0 < N_Q
        mask_m_26_t0 = offs_m_17_t0 < N_Q
        mask_m_27_t0 = offs_m_18_t0 < N_Q
        mask_m_28_t0 = offs_m_19_t0 < N_Q
        q_ptrs = gl.cast(off_bh, gl.int64)
        q_ptrs_29 = gl.cast(stride_qh, gl.int64)
        q_ptrs_30 = q_ptrs * q_ptrs_29
        q_ptrs_31 = Q + q_ptrs_30
        q_ptrs_32_t0 = gl.expand_dims(offs_m_16_t0, 1)
        q_ptrs_33_t0 = gl.expand_dims(offs_m_17_t0, 1)
        q_ptrs_35_t0 = q_ptrs_32_t0 * stride_qn
        q_ptrs_37_t0 = q_ptrs_31 + q_ptrs_35_t0
        q_ptrs_38 = gl.arange(0, 128, layout=L5)
        q_ptrs_39 = gl.arange(0, 128, layout=L6)
        q_ptrs_40 = gl.expand_dims(q_ptrs_38, 0)
        q_ptrs_41 = gl.expand_dims(q_ptrs_39, 0)
        q_ptrs_42_t0 = q_ptrs_37_t0.broadcast_to([64, 128])
        q_ptrs_43_t0 = q_ptrs_40.broadcast_to([64, 128])
        q_ptrs_43_r1_t0 = q_ptrs_40.broadcast_to([64, 128])
        q_ptrs_44_t0 = q_ptrs_41.broadcast_to([64, 128])
        q_ptrs_45_t0 = q_ptrs_42_t0 + q_ptrs_43_t0
        q_66_t0 = gl.expand_dims(mask_m_25_t0, 1)
        q_67_t0 = gl.expand_dims(mask_m_26_t0, 1)
        q_68_t0 = q_66_t0.broadcast_to([64, 128])
        q_68_r1_t0 = q_66_t0.broadcast_to([64, 128])
        q_69_t0 = q_67_t0.broadcast_to([64, 128])
        q_70_t0 = gl.load(q_ptrs_45_t0, mask=q_68_t0, other=0.0)
        q_71_t0 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_70_t0)
        fence_async_shared()
        qk_scale = sm_scale * 1.44269502
        twill_n = (N_KV - 0 + 64 - 1) // 64
        m_ij_139_t0 = gl.full([64], float("-inf"), gl.float32, layout=L2)
        l_i_145_t0 = gl.full([64], 0.0, gl.float32, layout=L2)
        acc_157_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
        acc_157_t0_p1 = acc_157_t0
        l_i_145_t0_p1 = l_i_145_t0
        m_ij_139_t0_p1 = m_ij_139_t0
        mbarrier.wait(k_134_ready.index((twill_base + 0 - 0) % 5), ((twill_base + 0 - 0) // 5) & 1)
        fence_async_shared()
        tok_qk_136_t0 = warpgroup_mma(q_71_t0, k_134_buf.index((twill_base + 0 - 0) % 5).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
        mask_n_122 = (0 + (0 - 0) * 64) + offs_n  # elementwise0_qk: stage 0, partition 0 (group 0)
        mask_n_125 = mask_n_122 < N_KV  # elementwise0_qk: stage 0, partition 0 (group 0)
        k = gl.expand_dims(mask_n_125, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
        mask_n_122_t0 = (0 + (0 - 0) * 64) + offs_n  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        mask_n_125_t0 = mask_n_122_t0 < N_KV  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        k_t0 = gl.expand_dims(mask_n_125_t0, 0)  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        k_132_t0 = k_t0.broadcast_to([64, 64])  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        qk_136_t0 = warpgroup_mma_wait(0, deps=(tok_qk_136_t0,))
        mbarrier.arrive(k_134_empty.index((twill_base + 0 - 0) % 5))
        qk_137_t0 = qk_136_t0 * qk_scale  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        qk_138_t0 = gl.where(k_132_t0, qk_137_t0, float("-inf"))  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        m_ij_t0 = gl.max(qk_138_t0, axis=1)  # reduce0_m_ij_s0: stage 0, partition 0 (group 0)
        m_ij_139_t0 = gl.maximum(m_ij_139_t0_p1, m_ij_t0)  # elementwise1_m_ij_s0: stage 0, partition 0 (group 0)
        alpha_t0 = m_ij_139_t0_p1 - m_ij_139_t0  # sfu1_alpha_s0: stage 0, partition 0 (group 0)
        alpha_143_t0 = gl.exp2(alpha_t0)  # sfu1_alpha_s0: stage 0, partition 0 (group 0)
        p_t0 = gl.expand_dims(m_ij_139_t0, 1)  # sfu0_p_s0: stage 0, partition 0 (group 0)
        p_140_t0 = p_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 0, partition 0 (group 0)
        p_141_t0 = qk_138_t0 - p_140_t0  # sfu0_p_s0: stage 0, partition 0 (group 0)
        p_142_t0 = gl.exp2(p_141_t0)  # sfu0_p_s0: stage 0, partition 0 (group 0)
        acc_146_t0 = gl.expand_dims(alpha_143_t0, 1)  # convert0_acc_s0: stage 0, partition 0 (group 0)
        acc_147_t0 = gl.convert_layout(acc_146_t0, L7)  # convert0_acc_s0: stage 0, partition 0 (group 0)
        acc_155_t0 = p_142_t0.to(gl.bfloat16)  # convert1_acc_s0: stage 0, partition 0 (group 0)
        acc_156_t0 = gl.convert_layout(acc_155_t0, L9)  # convert1_acc_s0: stage 0, partition 0 (group 0)
        l_i_144_t0 = gl.sum(p_142_t0, axis=1)  # reduce1_l_i_s0: stage 0, partition 0 (group 0)
        l_i_t0 = l_i_145_t0_p1 * alpha_143_t0  # elementwise2_l_i_s0: stage 0, partition 0 (group 0)
        l_i_145_t0 = l_i_t0 + l_i_144_t0  # elementwise2_l_i_s0: stage 0, partition 0 (group 0)
        acc_148_t0 = acc_147_t0.broadcast_to([64, 128])  # elementwise3_acc_s0: stage 0, partition 0 (group 0)
        acc_149_t0 = acc_157_t0_p1 * acc_148_t0  # elementwise3_acc_s0: stage 0, partition 0 (group 0)
        mbarrier.wait(v_153_ready.index((twill_base + 0 - 0) % 5), ((twill_base + 0 - 0) // 5) & 1)
        fence_async_shared()
        tok_acc_157_t0 = warpgroup_mma(acc_156_t0, v_153_buf.index((twill_base + 0 - 0) % 5), acc_149_t0, is_async=True)  # dot1_acc_s0: stage 0, partition 0 (group 0)
        acc_157_t0 = warpgroup_mma_wait(0, deps=(tok_acc_157_t0,))
        mbarrier.arrive(v_153_empty.index((twill_base + 0 - 0) % 5))
        acc_157_t0_p1 = acc_157_t0
        l_i_145_t0_p1 = l_i_145_t0
        m_ij_139_t0_p1 = m_ij_139_t0
        for twill_b in range(1, twill_n):
            mbarrier.wait(k_134_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
            fence_async_shared()
            tok_qk_136_t0 = warpgroup_mma(q_71_t0, k_134_buf.index((twill_base + twill_b - 0) % 5).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
            mask_n_119 = (0 + (twill_b - 0) * 64)  # elementwise0_qk: stage 0, partition 0 (group 0)
            mask_n_122 = mask_n_119 + offs_n  # elementwise0_qk: stage 0, partition 0 (group 0)
            mask_n_125 = mask_n_122 < N_KV  # elementwise0_qk: stage 0, partition 0 (group 0)
            k = gl.expand_dims(mask_n_125, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
            mask_n_119_t0 = (0 + (twill_b - 0) * 64)  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            mask_n_122_t0 = mask_n_119_t0 + offs_n  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            mask_n_125_t0 = mask_n_122_t0 < N_KV  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            k_t0 = gl.expand_dims(mask_n_125_t0, 0)  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            k_132_t0 = k_t0.broadcast_to([64, 64])  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            qk_136_t0 = warpgroup_mma_wait(0, deps=(tok_qk_136_t0,))
            mbarrier.arrive(k_134_empty.index((twill_base + twill_b - 0) % 5))
            qk_137_t0 = qk_136_t0 * qk_scale  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            qk_138_t0 = gl.where(k_132_t0, qk_137_t0, float("-inf"))  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            m_ij_t0 = gl.max(qk_138_t0, axis=1)  # reduce0_m_ij_s0: stage 0, partition 0 (group 0)
            m_ij_139_t0 = gl.maximum(m_ij_139_t0_p1, m_ij_t0)  # elementwise1_m_ij_s0: stage 0, partition 0 (group 0)
            alpha_t0 = m_ij_139_t0_p1 - m_ij_139_t0  # sfu1_alpha_s0: stage 0, partition 0 (group 0)
            alpha_143_t0 = gl.exp2(alpha_t0)  # sfu1_alpha_s0: stage 0, partition 0 (group 0)
            p_t0 = gl.expand_dims(m_ij_139_t0, 1)  # sfu0_p_s0: stage 0, partition 0 (group 0)
            p_140_t0 = p_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 0, partition 0 (group 0)
            p_141_t0 = qk_138_t0 - p_140_t0  # sfu0_p_s0: stage 0, partition 0 (group 0)
            p_142_t0 = gl.exp2(p_141_t0)  # sfu0_p_s0: stage 0, partition 0 (group 0)
            acc_146_t0 = gl.expand_dims(alpha_143_t0, 1)  # convert0_acc_s0: stage 0, partition 0 (group 0)
            acc_147_t0 = gl.convert_layout(acc_146_t0, L7)  # convert0_acc_s0: stage 0, partition 0 (group 0)
            acc_155_t0 = p_142_t0.to(gl.bfloat16)  # convert1_acc_s0: stage 0, partition 0 (group 0)
            acc_156_t0 = gl.convert_layout(acc_155_t0, L9)  # convert1_acc_s0: stage 0, partition 0 (group 0)
            l_i_144_t0 = gl.sum(p_142_t0, axis=1)  # reduce1_l_i_s0: stage 0, partition 0 (group 0)
            l_i_t0 = l_i_145_t0_p1 * alpha_143_t0  # elementwise2_l_i_s0: stage 0, partition 0 (group 0)
            l_i_145_t0 = l_i_t0 + l_i_144_t0  # elementwise2_l_i_s0: stage 0, partition 0 (group 0)
            acc_148_t0 = acc_147_t0.broadcast_to([64, 128])  # elementwise3_acc_s0: stage 0, partition 0 (group 0)
            acc_149_t0 = acc_157_t0_p1 * acc_148_t0  # elementwise3_acc_s0: stage 0, partition 0 (group 0)
            mbarrier.wait(v_153_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
            fence_async_shared()
            tok_acc_157_t0 = warpgroup_mma(acc_156_t0, v_153_buf.index((twill_base + twill_b - 0) % 5), acc_149_t0, is_async=True)  # dot1_acc_s0: stage 0, partition 0 (group 0)
            acc_157_t0 = warpgroup_mma_wait(0, deps=(tok_acc_157_t0,))
            mbarrier.arrive(v_153_empty.index((twill_base + twill_b - 0) % 5))
            acc_157_t0_p1 = acc_157_t0
            l_i_145_t0_p1 = l_i_145_t0
            m_ij_139_t0_p1 = m_ij_139_t0
        acc_157_t0_p2 = acc_157_t0_p1
        acc_157_t0_p1 = acc_157_t0
        l_i_145_t0_p2 = l_i_145_t0_p1
        l_i_145_t0_p1 = l_i_145_t0
        m_ij_139_t0_p2 = m_ij_139_t0_p1
        m_ij_139_t0_p1 = m_ij_139_t0
        q_71_t0._keep_alive()
        k_134_buf._keep_alive()
        v_153_buf._keep_alive()
        block_out_t0 = gl.expand_dims(l_i_145_t0_p2, 1)
        block_out_74_t0 = gl.convert_layout(block_out_t0, L7)
        block_out_75_t0 = block_out_74_t0.broadcast_to([64, 128])
        block_out_76_t0 = acc_157_t0_p2 / block_out_75_t0
        block_lse_77_t0 = gl.log2(l_i_145_t0_p2)
        block_lse_78_t0 = m_ij_139_t0_p2 + block_lse_77_t0
        block_lse_79_t0 = block_lse_78_t0 * 0.693147182
        lse_ptrs = gl.cast(N_Q, gl.int64)
        lse_ptrs_80 = q_ptrs * lse_ptrs
        lse_ptrs_81 = Lse + lse_ptrs_80
        lse_ptrs_84_t0 = lse_ptrs_81 + offs_m_18_t0
        lse_ptrs_85_t0 = lse_ptrs_81 + offs_m_19_t0
        o_ptrs = gl.cast(stride_oh, gl.int64)
        o_ptrs_86 = q_ptrs * o_ptrs
        o_ptrs_87 = Out + o_ptrs_86
        o_ptrs_90_t0 = q_ptrs_32_t0 * stride_on
        o_ptrs_91_t0 = q_ptrs_33_t0 * stride_on
        o_ptrs_94_t0 = o_ptrs_87 + o_ptrs_90_t0
        o_ptrs_95_t0 = o_ptrs_87 + o_ptrs_91_t0
        o_ptrs_96_t0 = o_ptrs_94_t0.broadcast_to([64, 128])
        o_ptrs_97_t0 = o_ptrs_95_t0.broadcast_to([64, 128])
        o_ptrs_98_t0 = o_ptrs_96_t0 + q_ptrs_43_r1_t0
        o_ptrs_99_t0 = o_ptrs_97_t0 + q_ptrs_44_t0
        lse_t0 = gl.load(lse_ptrs_84_t0, mask=mask_m_27_t0, other=0.0)
        out_100_t0 = gl.load(o_ptrs_98_t0, mask=q_68_r1_t0, other=0.0)
        out_101_t0 = gl.convert_layout(out_100_t0, L7)
        x_t0 = lse_t0 - block_lse_79_t0
        sig_t0 = gl.exp(x_t0)
        sig_102_t0 = sig_t0 + 1.0
        sig_103_t0 = 1.0 / sig_102_t0
        out_104_t0 = gl.expand_dims(sig_103_t0, 1)
        out_105_t0 = out_101_t0 - block_out_76_t0
        out_106_t0 = gl.convert_layout(out_104_t0, L7)
        out_107_t0 = out_106_t0.broadcast_to([64, 128])
        out_108_t0 = out_107_t0 * out_105_t0
        out_109_t0 = out_101_t0 - out_108_t0
        logsig_t0 = gl.minimum(x_t0, gl.full([64], 0.0, gl.float32, layout=L2))
        logsig_110_t0 = gl.abs(x_t0)
        logsig_111_t0 = 0.0 - logsig_110_t0
        logsig_112_t0 = gl.exp(logsig_111_t0)
        logsig_113_t0 = logsig_112_t0 + 1.0
        logsig_114_t0 = gl.log(logsig_113_t0)
        logsig_115_t0 = logsig_t0 - logsig_114_t0
        new_lse_t0 = lse_t0 == float("-inf")
        new_lse_116_t0 = lse_t0 - logsig_115_t0
        new_lse_117_t0 = gl.where(new_lse_t0, block_lse_79_t0, new_lse_116_t0)
        v0_t0 = gl.convert_layout(out_109_t0, L10)
        gl.store(o_ptrs_99_t0, v0_t0, mask=q_69_t0)
        v1_t0 = gl.convert_layout(new_lse_117_t0, L3)
        gl.store(lse_ptrs_85_t0, v1_t0, mask=mask_m_28_t0)
        twill_base += twill_n

@gluon.jit
def consumer_1(Q, K, V, Out, Lse, sm_scale, N_Q, N_KV, stride_qh, stride_qn, stride_kh, stride_kn, stride_oh, stride_on, twill_g0, twill_g1, twill_g2, twill_box_k_134, twill_box_v_153, k_134_buf, v_153_buf, k_134_ready, k_134_empty, v_153_ready, v_153_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        start_m = twill_pid0
        off_bh = twill_pid1
        offs_m = start_m * 128
        offs_m_8_t1 = gl.arange(0, 64, layout=L0) + 64
        offs_m_9_t1 = gl.arange(0, 64, layout=L1) + 64
        offs_m_10_t1 = gl.arange(0, 64, layout=L2) + 64
        offs_m_11_t1 = gl.arange(0, 64, layout=L3) + 64
        offs_m_16_t1 = offs_m + offs_m_8_t1
        offs_m_17_t1 = offs_m + offs_m_9_t1
        offs_m_18_t1 = offs_m + offs_m_10_t1
        offs_m_19_t1 = offs_m + offs_m_11_t1
        offs_n = gl.arange(0, 64, layout=L4)
        mask_m_25_t1 = offs_m_16_t1 < N_Q
        mask_m_26_t1 = offs_m_17_t1 < N_Q
        mask_m_27_t1 = offs_m_18_t1 < N_Q
        mask_m_28_t1 = offs_m_19_t1 < N_Q
        q_ptrs = gl.cast(off_bh, gl.int64)
        q_ptrs_29 = gl.cast(stride_qh, gl.int64)
        q_ptrs_30 = q_ptrs * q_ptrs_29
        q_ptrs_31 = Q + q_ptrs_30
        q_ptrs_32_t1 = gl.expand_dims(offs_m_16_t1, 1)
        q_ptrs_33_t1 = gl.expand_dims(offs_m_17_t1, 1)
        q_ptrs_35_t1 = q_ptrs_32_t1 * stride_qn
        q_ptrs_37_t1 = q_ptrs_31 + q_ptrs_35_t1
        q_ptrs_38 = gl.arange(0, 128, layout=L5)
        q_ptrs_39 = gl.arange(0, 128, layout=L6)
        q_ptrs_40 = gl.expand_dims(q_ptrs_38, 0)
        q_ptrs_41 = gl.expand_dims(q_ptrs_39, 0)
        q_ptrs_42_t1 = q_ptrs_37_t1.broadcast_to([64, 128])
        q_ptrs_43_t1 = q_ptrs_40.broadcast_to([64, 128])
        q_ptrs_43_r1_t1 = q_ptrs_40.broadcast_to([64, 128])
        q_ptrs_44_t1 = q_ptrs_41.broadcast_to([64, 128])
        q_ptrs_45_t1 = q_ptrs_42_t1 + q_ptrs_43_t1
        q_66_t1 = gl.expand_dims(mask_m_25_t1, 1)
        q_67_t1 = gl.expand_dims(mask_m_26_t1, 1)
        q_68_t1 = q_66_t1.broadcast_to([64, 128])
        q_68_r1_t1 = q_66_t1.broadcast_to([64, 128])
        q_69_t1 = q_67_t1.broadcast_to([64, 128])
        q_70_t1 = gl.load(q_ptrs_45_t1, mask=q_68_t1, other=0.0)
        q_71_t1 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_70_t1)
        fence_async_shared()
        qk_scale = sm_scale * 1.44269502
        twill_n = (N_KV - 0 + 64 - 1) // 64
        m_ij_139_t1 = gl.full([64], float("-inf"), gl.float32, layout=L2)
        m_ij_139_t1_p1 = m_ij_139_t1
        l_i_145_t1 = gl.full([64], 0.0, gl.float32, layout=L2)
        acc_157_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
        mbarrier.wait(k_134_ready.index((twill_base + 0 - 0) % 5), ((twill_base + 0 - 0) // 5) & 1)
        fence_async_shared()
        tok_qk_136_t1 = warpgroup_mma(q_71_t1, k_134_buf.index((twill_base + 0 - 0) % 5).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
        mask_n_122 = (0 + (0 - 0) * 64) + offs_n  # elementwise0_qk: stage 0, partition 1 (group 1)
        mask_n_125 = mask_n_122 < N_KV  # elementwise0_qk: stage 0, partition 1 (group 1)
        k = gl.expand_dims(mask_n_125, 0)  # elementwise0_qk: stage 0, partition 1 (group 1)
        mask_n_122_t1 = (0 + (0 - 0) * 64) + offs_n  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        mask_n_125_t1 = mask_n_122_t1 < N_KV  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        k_t1 = gl.expand_dims(mask_n_125_t1, 0)  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        k_132_t1 = k_t1.broadcast_to([64, 64])  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        qk_136_t1 = warpgroup_mma_wait(0, deps=(tok_qk_136_t1,))
        mbarrier.arrive(k_134_empty.index((twill_base + 0 - 0) % 5))
        qk_137_t1 = qk_136_t1 * qk_scale  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        qk_138_t1 = gl.where(k_132_t1, qk_137_t1, float("-inf"))  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        m_ij_t1 = gl.max(qk_138_t1, axis=1)  # reduce0_m_ij_s1: stage 0, partition 1 (group 1)
        m_ij_139_t1 = gl.maximum(m_ij_139_t1_p1, m_ij_t1)  # elementwise1_m_ij_s1: stage 0, partition 1 (group 1)
        alpha_t1 = m_ij_139_t1_p1 - m_ij_139_t1  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
        alpha_143_t1 = gl.exp2(alpha_t1)  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
        acc_146_t1 = gl.expand_dims(alpha_143_t1, 1)  # convert0_acc_s1: stage 0, partition 1 (group 1)
        acc_147_t1 = gl.convert_layout(acc_146_t1, L7)  # convert0_acc_s1: stage 0, partition 1 (group 1)
        acc_148_t1 = acc_147_t1.broadcast_to([64, 128])  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
        acc_149_t1 = acc_157_t1 * acc_148_t1  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
        p_t1 = gl.expand_dims(m_ij_139_t1, 1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
        p_140_t1 = p_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 0, partition 1 (group 1)
        p_141_t1 = qk_138_t1 - p_140_t1  # sfu0_p_s1: stage 0, partition 1 (group 1)
        p_142_t1 = gl.exp2(p_141_t1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
        acc_149_t1_p1 = acc_149_t1
        alpha_143_t1_p1 = alpha_143_t1
        l_i_145_t1_p1 = l_i_145_t1
        m_ij_139_t1_p1 = m_ij_139_t1
        p_142_t1_p1 = p_142_t1
        for twill_b in range(1, twill_n):
            l_i_144_t1 = gl.sum(p_142_t1_p1, axis=1)  # reduce1_l_i_s1: stage 1, partition 1 (group 1)
            acc_155_t1 = p_142_t1_p1.to(gl.bfloat16)  # convert1_acc_s1: stage 1, partition 1 (group 1)
            acc_156_t1 = gl.convert_layout(acc_155_t1, L9)  # convert1_acc_s1: stage 1, partition 1 (group 1)
            mbarrier.wait(v_153_ready.index((twill_base + twill_b - 1) % 5), ((twill_base + twill_b - 1) // 5) & 1)
            fence_async_shared()
            tok_acc_157_t1 = warpgroup_mma(acc_156_t1, v_153_buf.index((twill_base + twill_b - 1) % 5), acc_149_t1_p1, is_async=True)  # dot1_acc_s1: stage 1, partition 1 (group 1)
            l_i_t1 = l_i_145_t1_p1 * alpha_143_t1_p1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
            l_i_145_t1 = l_i_t1 + l_i_144_t1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
            mbarrier.wait(k_134_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
            fence_async_shared()
            tok_qk_136_t1 = warpgroup_mma(q_71_t1, k_134_buf.index((twill_base + twill_b - 0) % 5).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
            mask_n_119 = (0 + (twill_b - 0) * 64)  # elementwise0_qk: stage 0, partition 1 (group 1)
            mask_n_122 = mask_n_119 + offs_n  # elementwise0_qk: stage 0, partition 1 (group 1)
            mask_n_125 = mask_n_122 < N_KV  # elementwise0_qk: stage 0, partition 1 (group 1)
            k = gl.expand_dims(mask_n_125, 0)  # elementwise0_qk: stage 0, partition 1 (group 1)
            mask_n_119_t1 = (0 + (twill_b - 0) * 64)  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            mask_n_122_t1 = mask_n_119_t1 + offs_n  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            mask_n_125_t1 = mask_n_122_t1 < N_KV  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            k_t1 = gl.expand_dims(mask_n_125_t1, 0)  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            k_132_t1 = k_t1.broadcast_to([64, 64])  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            acc_157_t1, qk_136_t1 = warpgroup_mma_wait(0, deps=(tok_acc_157_t1, tok_qk_136_t1,))
            mbarrier.arrive(v_153_empty.index((twill_base + twill_b - 1) % 5))
            mbarrier.arrive(k_134_empty.index((twill_base + twill_b - 0) % 5))
            qk_137_t1 = qk_136_t1 * qk_scale  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            qk_138_t1 = gl.where(k_132_t1, qk_137_t1, float("-inf"))  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            m_ij_t1 = gl.max(qk_138_t1, axis=1)  # reduce0_m_ij_s1: stage 0, partition 1 (group 1)
            m_ij_139_t1 = gl.maximum(m_ij_139_t1_p1, m_ij_t1)  # elementwise1_m_ij_s1: stage 0, partition 1 (group 1)
            alpha_t1 = m_ij_139_t1_p1 - m_ij_139_t1  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
            alpha_143_t1 = gl.exp2(alpha_t1)  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
            acc_146_t1 = gl.expand_dims(alpha_143_t1, 1)  # convert0_acc_s1: stage 0, partition 1 (group 1)
            acc_147_t1 = gl.convert_layout(acc_146_t1, L7)  # convert0_acc_s1: stage 0, partition 1 (group 1)
            acc_148_t1 = acc_147_t1.broadcast_to([64, 128])  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
            acc_149_t1 = acc_157_t1 * acc_148_t1  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
            p_t1 = gl.expand_dims(m_ij_139_t1, 1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_140_t1 = p_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_141_t1 = qk_138_t1 - p_140_t1  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_142_t1 = gl.exp2(p_141_t1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
            acc_149_t1_p1 = acc_149_t1
            alpha_143_t1_p1 = alpha_143_t1
            l_i_145_t1_p1 = l_i_145_t1
            m_ij_139_t1_p1 = m_ij_139_t1
            p_142_t1_p1 = p_142_t1
        l_i_144_t1 = gl.sum(p_142_t1_p1, axis=1)  # reduce1_l_i_s1: stage 1, partition 1 (group 1)
        acc_155_t1 = p_142_t1_p1.to(gl.bfloat16)  # convert1_acc_s1: stage 1, partition 1 (group 1)
        acc_156_t1 = gl.convert_layout(acc_155_t1, L9)  # convert1_acc_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(v_153_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 5), ((twill_base + (twill_n - 1 + 1) - 1) // 5) & 1)
        fence_async_shared()
        tok_acc_157_t1 = warpgroup_mma(acc_156_t1, v_153_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 5), acc_149_t1_p1, is_async=True)  # dot1_acc_s1: stage 1, partition 1 (group 1)
        l_i_t1 = l_i_145_t1_p1 * alpha_143_t1_p1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
        l_i_145_t1 = l_i_t1 + l_i_144_t1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
        acc_157_t1 = warpgroup_mma_wait(0, deps=(tok_acc_157_t1,))
        mbarrier.arrive(v_153_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 5))
        acc_149_t1_p1 = acc_149_t1
        acc_157_t1_p1 = acc_157_t1
        alpha_143_t1_p1 = alpha_143_t1
        l_i_145_t1_p1 = l_i_145_t1
        m_ij_139_t1_p2 = m_ij_139_t1_p1
        m_ij_139_t1_p1 = m_ij_139_t1
        p_142_t1_p1 = p_142_t1
        q_71_t1._keep_alive()
        k_134_buf._keep_alive()
        v_153_buf._keep_alive()
        block_out_t1 = gl.expand_dims(l_i_145_t1_p1, 1)
        block_out_74_t1 = gl.convert_layout(block_out_t1, L7)
        block_out_75_t1 = block_out_74_t1.broadcast_to([64, 128])
        block_out_76_t1 = acc_157_t1_p1 / block_out_75_t1
        block_lse_77_t1 = gl.log2(l_i_145_t1_p1)
        block_lse_78_t1 = m_ij_139_t1_p2 + block_lse_77_t1
        block_lse_79_t1 = block_lse_78_t1 * 0.693147182
        lse_ptrs = gl.cast(N_Q, gl.int64)
        lse_ptrs_80 = q_ptrs * lse_ptrs
        lse_ptrs_81 = Lse + lse_ptrs_80
        lse_ptrs_84_t1 = lse_ptrs_81 + offs_m_18_t1
        lse_ptrs_85_t1 = lse_ptrs_81 + offs_m_19_t1
        o_ptrs = gl.cast(stride_oh, gl.int64)
        o_ptrs_86 = q_ptrs * o_ptrs
        o_ptrs_87 = Out + o_ptrs_86
        o_ptrs_90_t1 = q_ptrs_32_t1 * stride_on
        o_ptrs_91_t1 = q_ptrs_33_t1 * stride_on
        o_ptrs_94_t1 = o_ptrs_87 + o_ptrs_90_t1
        o_ptrs_95_t1 = o_ptrs_87 + o_ptrs_91_t1
        o_ptrs_96_t1 = o_ptrs_94_t1.broadcast_to([64, 128])
        o_ptrs_97_t1 = o_ptrs_95_t1.broadcast_to([64, 128])
        o_ptrs_98_t1 = o_ptrs_96_t1 + q_ptrs_43_r1_t1
        o_ptrs_99_t1 = o_ptrs_97_t1 + q_ptrs_44_t1
        lse_t1 = gl.load(lse_ptrs_84_t1, mask=mask_m_27_t1, other=0.0)
        out_100_t1 = gl.load(o_ptrs_98_t1, mask=q_68_r1_t1, other=0.0)
        out_101_t1 = gl.convert_layout(out_100_t1, L7)
        x_t1 = lse_t1 - block_lse_79_t1
        sig_t1 = gl.exp(x_t1)
        sig_102_t1 = sig_t1 + 1.0
        sig_103_t1 = 1.0 / sig_102_t1
        out_104_t1 = gl.expand_dims(sig_103_t1, 1)
        out_105_t1 = out_101_t1 - block_out_76_t1
        out_106_t1 = gl.convert_layout(out_104_t1, L7)
        out_107_t1 = out_106_t1.broadcast_to([64, 128])
        out_108_t1 = out_107_t1 * out_105_t1
        out_109_t1 = out_101_t1 - out_108_t1
        logsig_t1 = gl.minimum(x_t1, gl.full([64], 0.0, gl.float32, layout=L2))
        logsig_110_t1 = gl.abs(x_t1)
        logsig_111_t1 = 0.0 - logsig_110_t1
        logsig_112_t1 = gl.exp(logsig_111_t1)
        logsig_113_t1 = logsig_112_t1 + 1.0
        logsig_114_t1 = gl.log(logsig_113_t1)
        logsig_115_t1 = logsig_t1 - logsig_114_t1
        new_lse_t1 = lse_t1 == float("-inf")
        new_lse_116_t1 = lse_t1 - logsig_115_t1
        new_lse_117_t1 = gl.where(new_lse_t1, block_lse_79_t1, new_lse_116_t1)
        v0_t1 = gl.convert_layout(out_109_t1, L10)
        gl.store(o_ptrs_99_t1, v0_t1, mask=q_69_t1)
        v1_t1 = gl.convert_layout(new_lse_117_t1, L3)
        gl.store(lse_ptrs_85_t1, v1_t1, mask=mask_m_28_t1)
        twill_base += twill_n

@gluon.jit
def producer_2(Q, K, V, Out, Lse, sm_scale, N_Q, N_KV, stride_qh, stride_qn, stride_kh, stride_kn, stride_oh, stride_on, twill_g0, twill_g1, twill_g2, twill_box_k_134, twill_box_v_153, k_134_buf, v_153_buf, k_134_ready, k_134_empty, v_153_ready, v_153_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        off_bh = twill_pid1
        offs_n_20 = gl.arange(0, 64, layout=L11)
        offs_n_20_r1 = gl.arange(0, 64, layout=L11)
        offs_n_21 = gl.arange(0, 64, layout=L12)
        offs_n_21_r1 = gl.arange(0, 64, layout=L12)
        q_ptrs = gl.cast(off_bh, gl.int64)
        q_ptrs_38 = gl.arange(0, 128, layout=L13)
        q_ptrs_40 = gl.expand_dims(q_ptrs_38, 0)
        k_ptrs = gl.cast(stride_kh, gl.int64)
        k_ptrs_46 = q_ptrs * k_ptrs
        k_ptrs_47 = K + k_ptrs_46
        k_ptrs_48 = gl.expand_dims(offs_n_20_r1, 0)
        k_ptrs_50 = k_ptrs_48 * stride_kn
        k_ptrs_52 = k_ptrs_47 + k_ptrs_50
        k_ptrs_53 = gl.arange(0, 128, layout=L14)
        k_ptrs_54 = gl.expand_dims(k_ptrs_53, 1)
        k_ptrs_55 = k_ptrs_52.broadcast_to([128, 64])
        k_ptrs_56 = k_ptrs_54.broadcast_to([128, 64])
        k_ptrs_57 = k_ptrs_55 + k_ptrs_56
        v_ptrs = V + k_ptrs_46
        v_ptrs_58 = gl.expand_dims(offs_n_21_r1, 1)
        v_ptrs_60 = v_ptrs_58 * stride_kn
        v_ptrs_62 = v_ptrs + v_ptrs_60
        v_ptrs_63 = v_ptrs_62.broadcast_to([64, 128])
        v_ptrs_64 = q_ptrs_40.broadcast_to([64, 128])
        v_ptrs_65 = v_ptrs_63 + v_ptrs_64
        for acc_118 in range(0, N_KV, 64):
            twill_k = twill_base + (acc_118 - 0) // 64
            mask_n_123 = acc_118 + offs_n_20
            mask_n_124 = acc_118 + offs_n_21
            mask_n_126 = mask_n_123 < N_KV
            mask_n_127 = mask_n_124 < N_KV
            k_128 = gl.expand_dims(mask_n_126, 0)
            k_129 = acc_118 * stride_kn
            k_131 = k_ptrs_57 + k_129
            k_133 = k_128.broadcast_to([128, 64])
            v = gl.expand_dims(mask_n_127, 1)
            v_151 = v_ptrs_65 + k_129
            v_152 = v.broadcast_to([64, 128])
            mbarrier.wait(k_134_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(k_134_ready.index(twill_k % 5), twill_box_k_134.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_k_134, [64 * ((acc_118 - 0) // 64), off_bh * stride_kh], k_134_ready.index(twill_k % 5), k_134_buf.index(twill_k % 5))  # load0_k: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(k_134_buf.index(twill_k % 5).permute((1, 0)), k_131, mask=k_133)  # load0_k: stage 0, partition 2 (group 2)
                    async_copy.mbarrier_arrive(k_134_ready.index(twill_k % 5), increment_count=False)
                else:
                    k_134_buf.index(twill_k % 5).permute((1, 0)).store(gl.load(k_131, mask=k_133, other=0.0))  # load0_k: stage 0, partition 2 (group 2)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(k_134_ready.index(twill_k % 5), count=256)
            mbarrier.wait(v_153_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(v_153_ready.index(twill_k % 5), twill_box_v_153.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_v_153, [64 * ((acc_118 - 0) // 64), off_bh * stride_kh], v_153_ready.index(twill_k % 5), v_153_buf.index(twill_k % 5))  # load1_v: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(v_153_buf.index(twill_k % 5), v_151, mask=v_152)  # load1_v: stage 0, partition 2 (group 2)
                    async_copy.mbarrier_arrive(v_153_ready.index(twill_k % 5), increment_count=False)
                else:
                    v_153_buf.index(twill_k % 5).store(gl.load(v_151, mask=v_152, other=0.0))  # load1_v: stage 0, partition 2 (group 2)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(v_153_ready.index(twill_k % 5), count=256)
        twill_base += (N_KV - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(Q, K, V, Out, Lse, sm_scale, N_Q, N_KV, stride_qh, stride_qn, stride_kh, stride_kn, stride_oh, stride_on, twill_g0, twill_g1, twill_g2, twill_box_k_134, twill_box_v_153, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    k_134_buf = gl.allocate_shared_memory(gl.bfloat16, [5, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    v_153_buf = gl.allocate_shared_memory(gl.bfloat16, [5, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_134_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(k_134_ready.index(i), count=1 if TWILL_TMA else 256)
    k_134_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(k_134_empty.index(i), count=2)
    v_153_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(v_153_ready.index(i), count=1 if TWILL_TMA else 256)
    v_153_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(v_153_empty.index(i), count=2)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, Out, Lse, sm_scale, N_Q, N_KV, stride_qh, stride_qn, stride_kh, stride_kn, stride_oh, stride_on, twill_g0, twill_g1, twill_g2, twill_box_k_134, twill_box_v_153, k_134_buf, v_153_buf, k_134_ready, k_134_empty, v_153_ready, v_153_empty, TWILL_COPY, TWILL_TMA)),
        (consumer_1, (Q, K, V, Out, Lse, sm_scale, N_Q, N_KV, stride_qh, stride_qn, stride_kh, stride_kn, stride_oh, stride_on, twill_g0, twill_g1, twill_g2, twill_box_k_134, twill_box_v_153, k_134_buf, v_153_buf, k_134_ready, k_134_empty, v_153_ready, v_153_empty, TWILL_COPY, TWILL_TMA)),
        (producer_2, (Q, K, V, Out, Lse, sm_scale, N_Q, N_KV, stride_qh, stride_qn, stride_kh, stride_kn, stride_oh, stride_on, twill_g0, twill_g1, twill_g2, twill_box_k_134, twill_box_v_153, k_134_buf, v_153_buf, k_134_ready, k_134_empty, v_153_ready, v_153_empty, TWILL_COPY, TWILL_TMA)),
    ], [4, 8], [184, 64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Out', 'Lse', 'sm_scale', 'N_Q', 'N_KV', 'stride_qh', 'stride_qn', 'stride_kh', 'stride_kn', 'stride_oh', 'stride_on', 'HEAD_DIM', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Out', 'Lse', 'sm_scale', 'N_Q', 'N_KV', 'stride_qh', 'stride_qn', 'stride_kh', 'stride_kn', 'stride_oh', 'stride_on', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_k_134', 'twill_box_v_153']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Out', 'Lse', 'sm_scale', 'N_Q', 'N_KV', 'stride_qh', 'stride_qn', 'stride_kh', 'stride_kn', 'stride_oh', 'stride_on', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'HEAD_DIM': 128, 'BLOCK_M': 128, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_k_134': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_v_153': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_k_134': ('K', ['stride_kn', '1'], ['N_KV', None], [64, 128], []), 'twill_box_v_153': ('V', ['stride_kn', '1'], ['N_KV', None], [64, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_kh', 'stride_kn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(N_KV + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((N_KV + 64 - 1) // 64): run the Triton kernel for it")
    shapes = _box_shapes(bound)
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED), 'TWILL_TMA': shapes is not None}
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
