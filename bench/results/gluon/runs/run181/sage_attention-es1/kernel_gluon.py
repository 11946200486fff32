"""_sage_fwd, written by twill from its joint schedule: I=166 L=338 (feasible), 967 cycles per iteration predicted.

Decisions (each from the schedule):
- k_96 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- v_116 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_96, v_116): their addresses and masks spread over 128 threads
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 208 registers per thread (needs about 202): sub-tile 0, 3 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 208 registers per thread (needs about 203): sub-tile 1, 3 stages
- partition 2 (worker): producer, warp group 2, 4 warps, 80 registers per thread (needs about 80): cp.async copies into the rings
- ring k_96: 4 buffers of [128, 64] i8 (the loads run 3 iteration(s) ahead), read by partition(s) 0, 1
- ring v_116: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0, 1
- tensor-core order: the schedule's slots (partition 0 (1 dot) | partition 1 (2 dots) | partition 0 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 114848 bytes planned of 232448; maxnreg 168

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 32])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 32]))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, Qs, Ks, O, stride_qn, stride_kn, stride_vn, stride_on, N, twill_g0, twill_g1, twill_g2, k_96_buf, v_116_buf, k_96_ready, k_96_empty, v_116_ready, v_116_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        start_m = twill_pid0
        bh = twill_pid1
        bh_1 = gl.cast(bh, gl.int64)
        offs_m = start_m * 128
        offs_m_2_t0 = gl.arange(0, 64, layout=L0)
        offs_m_3_t0 = gl.arange(0, 64, layout=L1)
        offs_m_6_t0 = offs_m + offs_m_2_t0
        offs_m_7_t0 = offs_m + offs_m_3_t0
        q_ptrs = gl.cast(N, gl.int64)
        q_ptrs_8 = bh_1 * q_ptrs
        q_ptrs_9 = gl.cast(stride_qn, gl.int64)
        q_ptrs_10 = q_ptrs_8 * q_ptrs_9
        q_ptrs_11 = Q + q_ptrs_10
        q_ptrs_12_t0 = gl.expand_dims(offs_m_6_t0, 1)
        q_ptrs_13_t0 = gl.expand_dims(offs_m_7_t0, 1)
        q_ptrs_15_t0 = q_ptrs_12_t0 * stride_qn
        q_ptrs_17_t0 = q_ptrs_11 + q_ptrs_15_t0
        q_ptrs_18 = gl.arange(0, 128, layout=L2)
        q_ptrs_19 = gl.arange(0, 128, layout=L3)
        q_ptrs_20 = gl.expand_dims(q_ptrs_18, 0)
        q_ptrs_21 = gl.expand_dims(q_ptrs_19, 0)
        q_ptrs_22_t0 = q_ptrs_17_t0.broadcast_to([64, 128])
        q_ptrs_23_t0 = q_ptrs_20.broadcast_to([64, 128])
        q_ptrs_24_t0 = q_ptrs_21.broadcast_to([64, 128])
        q_ptrs_25_t0 = q_ptrs_22_t0 + q_ptrs_23_t0
        k_ptrs = gl.cast(stride_kn, gl.int64)
        k_ptrs_26 = q_ptrs_8 * k_ptrs
        k_ptrs_27 = K + k_ptrs_26
        k_ptrs_28 = gl.arange(0, 64, layout=L4)
        k_ptrs_29 = gl.expand_dims(k_ptrs_28, 0)
        k_ptrs_31 = k_ptrs_29 * stride_kn
        k_ptrs_33 = k_ptrs_27 + k_ptrs_31
        k_ptrs_34 = gl.arange(0, 128, layout=L5)
        k_ptrs_35 = gl.expand_dims(k_ptrs_34, 1)
        k_ptrs_36 = k_ptrs_33.broadcast_to([128, 64])
        k_ptrs_37 = k_ptrs_35.broadcast_to([128, 64])
        k_ptrs_38 = k_ptrs_36 + k_ptrs_37
        v_ptrs = gl.cast(stride_vn, gl.int64)
        v_ptrs_39 = q_ptrs_8 * v_ptrs
        v_ptrs_40 = V + v_ptrs_39
        v_ptrs_41 = gl.arange(0, 64, layout=L1)
        v_ptrs_42 = gl.expand_dims(v_ptrs_41, 1)
        v_ptrs_44 = v_ptrs_42 * stride_vn
        v_ptrs_46 = v_ptrs_40 + v_ptrs_44
        v_ptrs_47 = v_ptrs_46.broadcast_to([64, 128])
        v_ptrs_48 = q_ptrs_21.broadcast_to([64, 128])
        v_ptrs_49 = v_ptrs_47 + v_ptrs_48
        ks_ptr_50 = N + 63
        ks_ptr_51 = ks_ptr_50 // 64
        ks_ptr_52 = gl.cast(ks_ptr_51, gl.int64)
        ks_ptr_53 = bh_1 * ks_ptr_52
        ks_ptr_54 = Ks + ks_ptr_53
        q_scale_55 = N + 127
        q_scale_56 = q_scale_55 // 128
        q_scale_57 = gl.cast(q_scale_56, gl.int64)
        q_scale_58 = bh_1 * q_scale_57
        q_scale_59 = Qs + q_scale_58
        q_scale_60 = q_scale_59 + start_m
        q_scale_61 = gl.load(q_scale_60)
        q_63_t0 = q_ptrs_12_t0 < N
        q_64_t0 = q_ptrs_13_t0 < N
        q_65_t0 = q_63_t0.broadcast_to([64, 128])
        q_66_t0 = q_64_t0.broadcast_to([64, 128])
        q_67_t0 = gl.load(q_ptrs_25_t0, mask=q_65_t0)
        q_68_t0 = gl.allocate_shared_memory(gl.int8, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False), q_67_t0)
        fence_async_shared()
        twill_n = (N - 0 + 64 - 1) // 64
        ks_ptr_124 = ks_ptr_54
        ks_ptr_124_p1 = ks_ptr_124
        m_ij_103_t0 = gl.full([64], float("-inf"), gl.float32, layout=L6)
        ks_ptr_124 = ks_ptr_124_p1 + 1  # load1_k_scale: stage 0, partition 0 (group 0)
        k_scale_t0 = gl.load(ks_ptr_124_p1)  # load1_k_scale_s0: stage 0, partition 0 (group 0)
        k_scale_t0_p1 = k_scale_t0
        ks_ptr_124_p2 = ks_ptr_124_p1
        ks_ptr_124_p1 = ks_ptr_124
        m_ij_103_t0_p1 = m_ij_103_t0
        l_i_109_t0 = gl.full([64], 1.0, gl.float32, layout=L6)
        acc_122_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
        mbarrier.wait(k_96_ready.index((twill_base + 1 - 1) % 4), ((twill_base + 1 - 1) // 4) & 1)
        fence_async_shared()
        tok_qk_98_t0 = warpgroup_mma(q_68_t0, k_96_buf.index((twill_base + 1 - 1) % 4), gl.full([64, 64], 0, gl.int32, layout=L8), use_acc=False, is_async=True)  # dot0_qk_s0: stage 1, partition 0 (group 0)
        qk_98_t0 = warpgroup_mma_wait(0, deps=(tok_qk_98_t0,))
        mbarrier.arrive(k_96_empty.index((twill_base + 1 - 1) % 4))
        qk_99_t0 = qk_98_t0.to(gl.float32)  # convert0_qk_s0: stage 1, partition 0 (group 0)
        k_scale = gl.load(ks_ptr_124_p2)  # load1_k_scale: stage 1, partition 0 (group 0)
        ks_ptr_124 = ks_ptr_124_p1 + 1  # load1_k_scale: stage 0, partition 0 (group 0)
        k_scale_t0 = gl.load(ks_ptr_124_p1)  # load1_k_scale_s0: stage 0, partition 0 (group 0)
        qk_101 = k_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_100_t0 = qk_99_t0 * q_scale_61  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
        qk_101_t0 = k_scale_t0_p1  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
        qk_102_t0 = qk_100_t0 * qk_101_t0  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
        m_ij_t0 = gl.max(qk_102_t0, axis=1)  # reduce0_m_ij_s0: stage 1, partition 0 (group 0)
        m_ij_103_t0 = gl.maximum(m_ij_103_t0_p1, m_ij_t0)  # elementwise1_m_ij_s0: stage 1, partition 0 (group 0)
        qk_104_t0 = gl.expand_dims(m_ij_103_t0, 1)  # sfu0_p_s0: stage 1, partition 0 (group 0)
        qk_105_t0 = qk_104_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 1, partition 0 (group 0)
        qk_106_t0 = qk_102_t0 - qk_105_t0  # sfu0_p_s0: stage 1, partition 0 (group 0)
        p_t0 = gl.exp2(qk_106_t0)  # sfu0_p_s0: stage 1, partition 0 (group 0)
        p_118_t0 = p_t0.to(gl.float16)  # convert2_p_s0: stage 1, partition 0 (group 0)
        p_119_t0 = gl.convert_layout(p_118_t0, L9)  # convert2_p_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(v_116_ready.index((twill_base + 1 - 1) % 4), ((twill_base + 1 - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_120_t0 = warpgroup_mma(p_119_t0, v_116_buf.index((twill_base + 1 - 1) % 4), gl.full([64, 128], 0.0, gl.float16, layout=L7), use_acc=False, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
        alpha_t0 = m_ij_103_t0_p1 - m_ij_103_t0  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
        alpha_107_t0 = gl.exp2(alpha_t0)  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
        acc_120_t0 = warpgroup_mma_wait(1, deps=(tok_acc_120_t0,))
        acc_120_t0_p1 = acc_120_t0
        acc_122_t0_p1 = acc_122_t0
        alpha_107_t0_p1 = alpha_107_t0
        k_scale_t0_p1 = k_scale_t0
        ks_ptr_124_p2 = ks_ptr_124_p1
        ks_ptr_124_p1 = ks_ptr_124
        l_i_109_t0_p1 = l_i_109_t0
        m_ij_103_t0_p1 = m_ij_103_t0
        p_t0_p1 = p_t0
        for twill_b in range(2, twill_n):
            mbarrier.wait(k_96_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_qk_98_t0 = warpgroup_mma(q_68_t0, k_96_buf.index((twill_base + twill_b - 1) % 4), gl.full([64, 64], 0, gl.int32, layout=L8), use_acc=False, is_async=True)  # dot0_qk_s0: stage 1, partition 0 (group 0)
            l_ij_t0 = gl.sum(p_t0_p1, axis=1)  # reduce1_l_ij_s0: stage 2, partition 0 (group 0)
            l_i_108_t0 = l_i_109_t0_p1 * alpha_107_t0_p1  # elementwise2_l_i_s0: stage 2, partition 0 (group 0)
            l_i_109_t0 = l_i_108_t0 + l_ij_t0  # elementwise2_l_i_s0: stage 2, partition 0 (group 0)
            acc_110_t0 = gl.expand_dims(alpha_107_t0_p1, 1)  # convert1_acc_s0: stage 2, partition 0 (group 0)
            acc_111_t0 = gl.convert_layout(acc_110_t0, L7)  # convert1_acc_s0: stage 2, partition 0 (group 0)
            acc_120_t0_p1, qk_98_t0 = warpgroup_mma_wait(0, deps=(acc_120_t0_p1, tok_qk_98_t0,))
            mbarrier.arrive(v_116_empty.index((twill_base + twill_b - 1 - 1) % 4))
            mbarrier.arrive(k_96_empty.index((twill_base + twill_b - 1) % 4))
            qk_99_t0 = qk_98_t0.to(gl.float32)  # convert0_qk_s0: stage 1, partition 0 (group 0)
            k_scale = gl.load(ks_ptr_124_p2)  # load1_k_scale: stage 1, partition 0 (group 0)
            ks_ptr_124 = ks_ptr_124_p1 + 1  # load1_k_scale: stage 0, partition 0 (group 0)
            k_scale_t0 = gl.load(ks_ptr_124_p1)  # load1_k_scale_s0: stage 0, partition 0 (group 0)
            qk_101 = k_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_100_t0 = qk_99_t0 * q_scale_61  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
            qk_101_t0 = k_scale_t0_p1  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
            qk_102_t0 = qk_100_t0 * qk_101_t0  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
            m_ij_t0 = gl.max(qk_102_t0, axis=1)  # reduce0_m_ij_s0: stage 1, partition 0 (group 0)
            acc_121_t0 = acc_120_t0_p1.to(gl.float32)  # convert3_acc_s0: stage 2, partition 0 (group 0)
            m_ij_103_t0 = gl.maximum(m_ij_103_t0_p1, m_ij_t0)  # elementwise1_m_ij_s0: stage 1, partition 0 (group 0)
            qk_104_t0 = gl.expand_dims(m_ij_103_t0, 1)  # sfu0_p_s0: stage 1, partition 0 (group 0)
            qk_105_t0 = qk_104_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 1, partition 0 (group 0)
            qk_106_t0 = qk_102_t0 - qk_105_t0  # sfu0_p_s0: stage 1, partition 0 (group 0)
            p_t0 = gl.exp2(qk_106_t0)  # sfu0_p_s0: stage 1, partition 0 (group 0)
            acc_112_t0 = acc_111_t0.broadcast_to([64, 128])  # elementwise3_acc_s0: stage 2, partition 0 (group 0)
            acc_113_t0 = acc_122_t0_p1 * acc_112_t0  # elementwise3_acc_s0: stage 2, partition 0 (group 0)
            acc_122_t0 = acc_113_t0 + acc_121_t0  # elementwise3_acc_s0: stage 2, partition 0 (group 0)
            p_118_t0 = p_t0.to(gl.float16)  # convert2_p_s0: stage 1, partition 0 (group 0)
            p_119_t0 = gl.convert_layout(p_118_t0, L9)  # convert2_p_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(v_116_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_acc_120_t0 = warpgroup_mma(p_119_t0, v_116_buf.index((twill_base + twill_b - 1) % 4), gl.full([64, 128], 0.0, gl.float16, layout=L7), use_acc=False, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
            alpha_t0 = m_ij_103_t0_p1 - m_ij_103_t0  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
            alpha_107_t0 = gl.exp2(alpha_t0)  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
            acc_120_t0 = warpgroup_mma_wait(1, deps=(tok_acc_120_t0,))
            acc_120_t0_p1 = acc_120_t0
            acc_122_t0_p1 = acc_122_t0
            alpha_107_t0_p1 = alpha_107_t0
            k_scale_t0_p1 = k_scale_t0
            ks_ptr_124_p2 = ks_ptr_124_p1
            ks_ptr_124_p1 = ks_ptr_124
            l_i_109_t0_p1 = l_i_109_t0
            m_ij_103_t0_p1 = m_ij_103_t0
            p_t0_p1 = p_t0
        mbarrier.wait(k_96_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_qk_98_t0 = warpgroup_mma(q_68_t0, k_96_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), gl.full([64, 64], 0, gl.int32, layout=L8), use_acc=False, is_async=True)  # dot0_qk_s0: stage 1, partition 0 (group 0)
        l_ij_t0 = gl.sum(p_t0_p1, axis=1)  # reduce1_l_ij_s0: stage 2, partition 0 (group 0)
        l_i_108_t0 = l_i_109_t0_p1 * alpha_107_t0_p1  # elementwise2_l_i_s0: stage 2, partition 0 (group 0)
        l_i_109_t0 = l_i_108_t0 + l_ij_t0  # elementwise2_l_i_s0: stage 2, partition 0 (group 0)
        acc_110_t0 = gl.expand_dims(alpha_107_t0_p1, 1)  # convert1_acc_s0: stage 2, partition 0 (group 0)
        acc_111_t0 = gl.convert_layout(acc_110_t0, L7)  # convert1_acc_s0: stage 2, partition 0 (group 0)
        acc_120_t0_p1, qk_98_t0 = warpgroup_mma_wait(0, deps=(acc_120_t0_p1, tok_qk_98_t0,))
        mbarrier.arrive(v_116_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4))
        mbarrier.arrive(k_96_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        qk_99_t0 = qk_98_t0.to(gl.float32)  # convert0_qk_s0: stage 1, partition 0 (group 0)
        k_scale = gl.load(ks_ptr_124_p2)  # load1_k_scale: stage 1, partition 0 (group 0)
        qk_101 = k_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_100_t0 = qk_99_t0 * q_scale_61  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
        qk_101_t0 = k_scale_t0_p1  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
        qk_102_t0 = qk_100_t0 * qk_101_t0  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
        m_ij_t0 = gl.max(qk_102_t0, axis=1)  # reduce0_m_ij_s0: stage 1, partition 0 (group 0)
        acc_121_t0 = acc_120_t0_p1.to(gl.float32)  # convert3_acc_s0: stage 2, partition 0 (group 0)
        m_ij_103_t0 = gl.maximum(m_ij_103_t0_p1, m_ij_t0)  # elementwise1_m_ij_s0: stage 1, partition 0 (group 0)
        qk_104_t0 = gl.expand_dims(m_ij_103_t0, 1)  # sfu0_p_s0: stage 1, partition 0 (group 0)
        qk_105_t0 = qk_104_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 1, partition 0 (group 0)
        qk_106_t0 = qk_102_t0 - qk_105_t0  # sfu0_p_s0: stage 1, partition 0 (group 0)
        p_t0 = gl.exp2(qk_106_t0)  # sfu0_p_s0: stage 1, partition 0 (group 0)
        acc_112_t0 = acc_111_t0.broadcast_to([64, 128])  # elementwise3_acc_s0: stage 2, partition 0 (group 0)
        acc_113_t0 = acc_122_t0_p1 * acc_112_t0  # elementwise3_acc_s0: stage 2, partition 0 (group 0)
        acc_122_t0 = acc_113_t0 + acc_121_t0  # elementwise3_acc_s0: stage 2, partition 0 (group 0)
        p_118_t0 = p_t0.to(gl.float16)  # convert2_p_s0: stage 1, partition 0 (group 0)
        p_119_t0 = gl.convert_layout(p_118_t0, L9)  # convert2_p_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(v_116_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_120_t0 = warpgroup_mma(p_119_t0, v_116_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), gl.full([64, 128], 0.0, gl.float16, layout=L7), use_acc=False, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
        alpha_t0 = m_ij_103_t0_p1 - m_ij_103_t0  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
        alpha_107_t0 = gl.exp2(alpha_t0)  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
        acc_120_t0 = warpgroup_mma_wait(1, deps=(tok_acc_120_t0,))
        acc_120_t0_p1 = acc_120_t0
        acc_122_t0_p1 = acc_122_t0
        alpha_107_t0_p1 = alpha_107_t0
        k_scale_t0_p1 = k_scale_t0
        ks_ptr_124_p3 = ks_ptr_124_p2
        ks_ptr_124_p2 = ks_ptr_124_p1
        ks_ptr_124_p1 = ks_ptr_124
        l_i_109_t0_p1 = l_i_109_t0
        m_ij_103_t0_p2 = m_ij_103_t0_p1
        m_ij_103_t0_p1 = m_ij_103_t0
        p_t0_p1 = p_t0
        l_ij_t0 = gl.sum(p_t0_p1, axis=1)  # reduce1_l_ij_s0: stage 2, partition 0 (group 0)
        l_i_108_t0 = l_i_109_t0_p1 * alpha_107_t0_p1  # elementwise2_l_i_s0: stage 2, partition 0 (group 0)
        l_i_109_t0 = l_i_108_t0 + l_ij_t0  # elementwise2_l_i_s0: stage 2, partition 0 (group 0)
        acc_110_t0 = gl.expand_dims(alpha_107_t0_p1, 1)  # convert1_acc_s0: stage 2, partition 0 (group 0)
        acc_111_t0 = gl.convert_layout(acc_110_t0, L7)  # convert1_acc_s0: stage 2, partition 0 (group 0)
        acc_120_t0_p1 = warpgroup_mma_wait(0, deps=(acc_120_t0_p1,))
        mbarrier.arrive(v_116_empty.index((twill_base + (twill_n - 1 + 2) - 1 - 1) % 4))
        acc_121_t0 = acc_120_t0_p1.to(gl.float32)  # convert3_acc_s0: stage 2, partition 0 (group 0)
        acc_112_t0 = acc_111_t0.broadcast_to([64, 128])  # elementwise3_acc_s0: stage 2, partition 0 (group 0)
        acc_113_t0 = acc_122_t0_p1 * acc_112_t0  # elementwise3_acc_s0: stage 2, partition 0 (group 0)
        acc_122_t0 = acc_113_t0 + acc_121_t0  # elementwise3_acc_s0: stage 2, partition 0 (group 0)
        acc_120_t0_p1 = acc_120_t0
        acc_122_t0_p1 = acc_122_t0
        alpha_107_t0_p1 = alpha_107_t0
        k_scale_t0_p1 = k_scale_t0
        ks_ptr_124_p3 = ks_ptr_124_p2
        ks_ptr_124_p2 = ks_ptr_124_p1
        ks_ptr_124_p1 = ks_ptr_124
        l_i_109_t0_p1 = l_i_109_t0
        m_ij_103_t0_p2 = m_ij_103_t0_p1
        m_ij_103_t0_p1 = m_ij_103_t0
        p_t0_p1 = p_t0
        q_68_t0._keep_alive()
        k_96_buf._keep_alive()
        v_116_buf._keep_alive()
        acc_74_t0 = gl.expand_dims(l_i_109_t0_p1, 1)
        acc_75_t0 = gl.convert_layout(acc_74_t0, L7)
        acc_76_t0 = acc_75_t0.broadcast_to([64, 128])
        acc_77_t0 = acc_122_t0_p1 / acc_76_t0
        o_ptrs = gl.cast(stride_on, gl.int64)
        o_ptrs_78 = q_ptrs_8 * o_ptrs
        o_ptrs_79 = O + o_ptrs_78
        o_ptrs_81_t0 = q_ptrs_13_t0 * stride_on
        o_ptrs_83_t0 = o_ptrs_79 + o_ptrs_81_t0
        o_ptrs_84_t0 = o_ptrs_83_t0.broadcast_to([64, 128])
        o_ptrs_85_t0 = o_ptrs_84_t0 + q_ptrs_24_t0
        v0_t0 = acc_77_t0.to(gl.float16)
        v1_t0 = gl.convert_layout(v0_t0, L10)
        gl.store(o_ptrs_85_t0, v1_t0, mask=q_66_t0)
        twill_base += twill_n

@gluon.jit
def consumer_1(Q, K, V, Qs, Ks, O, stride_qn, stride_kn, stride_vn, stride_on, N, twill_g0, twill_g1, twill_g2, k_96_buf, v_116_buf, k_96_ready, k_96_empty, v_116_ready, v_116_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        start_m = twill_pid0
        bh = twill_pid1
        bh_1 = gl.cast(bh, gl.int64)
        offs_m = start_m * 128
        offs_m_2_t1 = gl.arange(0, 64, layout=L0) + 64
        offs_m_3_t1 = gl.arange(0, 64, layout=L1) + 64
        offs_m_6_t1 = offs_m + offs_m_2_t1
        offs_m_7_t1 = offs_m + offs_m_3_t1
        q_ptrs = gl.cast(N, gl.int64)
        q_ptrs_8 = bh_1 * q_ptrs
        q_ptrs_9 = gl.cast(stride_qn, gl.int64)
        q_ptrs_10 = q_ptrs_8 * q_ptrs_9
        q_ptrs_11 = Q + q_ptrs_10
        q_ptrs_12_t1 = gl.expand_dims(offs_m_6_t1, 1)
        q_ptrs_13_t1 = gl.expand_dims(offs_m_7_t1, 1)
        q_ptrs_15_t1 = q_ptrs_12_t1 * stride_qn
        q_ptrs_17_t1 = q_ptrs_11 + q_ptrs_15_t1
        q_ptrs_18 = gl.arange(0, 128, layout=L2)
        q_ptrs_19 = gl.arange(0, 128, layout=L3)
        q_ptrs_20 = gl.expand_dims(q_ptrs_18, 0)
        q_ptrs_21 = gl.expand_dims(q_ptrs_19, 0)
        q_ptrs_22_t1 = q_ptrs_17_t1.broadcast_to([64, 128])
        q_ptrs_23_t1 = q_ptrs_20.broadcast_to([64, 128])
        q_ptrs_24_t1 = q_ptrs_21.broadcast_to([64, 128])
        q_ptrs_25_t1 = q_ptrs_22_t1 + q_ptrs_23_t1
        k_ptrs = gl.cast(stride_kn, gl.int64)
        k_ptrs_26 = q_ptrs_8 * k_ptrs
        k_ptrs_27 = K + k_ptrs_26
        k_ptrs_28 = gl.arange(0, 64, layout=L4)
        k_ptrs_29 = gl.expand_dims(k_ptrs_28, 0)
        k_ptrs_31 = k_ptrs_29 * stride_kn
        k_ptrs_33 = k_ptrs_27 + k_ptrs_31
        k_ptrs_34 = gl.arange(0, 128, layout=L5)
        k_ptrs_35 = gl.expand_dims(k_ptrs_34, 1)
        k_ptrs_36 = k_ptrs_33.broadcast_to([128, 64])
        k_ptrs_37 = k_ptrs_35.broadcast_to([128, 64])
        k_ptrs_38 = k_ptrs_36 + k_ptrs_37
        v_ptrs = gl.cast(stride_vn, gl.int64)
        v_ptrs_39 = q_ptrs_8 * v_ptrs
        v_ptrs_40 = V + v_ptrs_39
        v_ptrs_41 = gl.arange(0, 64, layout=L1)
        v_ptrs_42 = gl.expand_dims(v_ptrs_41, 1)
        v_ptrs_44 = v_ptrs_42 * stride_vn
        v_ptrs_46 = v_ptrs_40 + v_ptrs_44
        v_ptrs_47 = v_ptrs_46.broadcast_to([64, 128])
        v_ptrs_48 = q_ptrs_21.broadcast_to([64, 128])
        v_ptrs_49 = v_ptrs_47 + v_ptrs_48
        ks_ptr_50 = N + 63
        ks_ptr_51 = ks_ptr_50 // 64
        ks_ptr_52 = gl.cast(ks_ptr_51, gl.int64)
        ks_ptr_53 = bh_1 * ks_ptr_52
        ks_ptr_54 = Ks + ks_ptr_53
        q_scale_55 = N + 127
        q_scale_56 = q_scale_55 // 128
        q_scale_57 = gl.cast(q_scale_56, gl.int64)
        q_scale_58 = bh_1 * q_scale_57
        q_scale_59 = Qs + q_scale_58
        q_scale_60 = q_scale_59 + start_m
        q_scale_61 = gl.load(q_scale_60)
        q_63_t1 = q_ptrs_12_t1 < N
        q_64_t1 = q_ptrs_13_t1 < N
        q_65_t1 = q_63_t1.broadcast_to([64, 128])
        q_66_t1 = q_64_t1.broadcast_to([64, 128])
        q_67_t1 = gl.load(q_ptrs_25_t1, mask=q_65_t1)
        q_68_t1 = gl.allocate_shared_memory(gl.int8, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False), q_67_t1)
        fence_async_shared()
        twill_n = (N - 0 + 64 - 1) // 64
        ks_ptr_124 = ks_ptr_54
        ks_ptr_124_p1 = ks_ptr_124
        m_ij_103_t1 = gl.full([64], float("-inf"), gl.float32, layout=L6)
        ks_ptr_124 = ks_ptr_124_p1 + 1  # load1_k_scale: stage 0, partition 1 (group 1)
        k_scale_t1 = gl.load(ks_ptr_124_p1)  # load1_k_scale_s1: stage 0, partition 1 (group 1)
        k_scale_t1_p1 = k_scale_t1
        ks_ptr_124_p2 = ks_ptr_124_p1
        ks_ptr_124_p1 = ks_ptr_124
        m_ij_103_t1_p1 = m_ij_103_t1
        l_i_109_t1 = gl.full([64], 1.0, gl.float32, layout=L6)
        acc_122_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
        mbarrier.wait(k_96_ready.index((twill_base + 1 - 1) % 4), ((twill_base + 1 - 1) // 4) & 1)
        fence_async_shared()
        tok_qk_98_t1 = warpgroup_mma(q_68_t1, k_96_buf.index((twill_base + 1 - 1) % 4), gl.full([64, 64], 0, gl.int32, layout=L8), use_acc=False, is_async=True)  # dot0_qk_s1: stage 1, partition 1 (group 1)
        qk_98_t1 = warpgroup_mma_wait(0, deps=(tok_qk_98_t1,))
        mbarrier.arrive(k_96_empty.index((twill_base + 1 - 1) % 4))
        qk_99_t1 = qk_98_t1.to(gl.float32)  # convert0_qk_s1: stage 1, partition 1 (group 1)
        k_scale = gl.load(ks_ptr_124_p2)  # load1_k_scale: stage 1, partition 1 (group 1)
        ks_ptr_124 = ks_ptr_124_p1 + 1  # load1_k_scale: stage 0, partition 1 (group 1)
        k_scale_t1 = gl.load(ks_ptr_124_p1)  # load1_k_scale_s1: stage 0, partition 1 (group 1)
        qk_101 = k_scale  # elementwise0_qk: stage 1, partition 1 (group 1)
        qk_100_t1 = qk_99_t1 * q_scale_61  # elementwise0_qk_s1: stage 1, partition 1 (group 1)
        qk_101_t1 = k_scale_t1_p1  # elementwise0_qk_s1: stage 1, partition 1 (group 1)
        qk_102_t1 = qk_100_t1 * qk_101_t1  # elementwise0_qk_s1: stage 1, partition 1 (group 1)
        m_ij_t1 = gl.max(qk_102_t1, axis=1)  # reduce0_m_ij_s1: stage 1, partition 1 (group 1)
        m_ij_103_t1 = gl.maximum(m_ij_103_t1_p1, m_ij_t1)  # elementwise1_m_ij_s1: stage 1, partition 1 (group 1)
        qk_104_t1 = gl.expand_dims(m_ij_103_t1, 1)  # sfu0_p_s1: stage 1, partition 1 (group 1)
        qk_105_t1 = qk_104_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 1, partition 1 (group 1)
        qk_106_t1 = qk_102_t1 - qk_105_t1  # sfu0_p_s1: stage 1, partition 1 (group 1)
        p_t1 = gl.exp2(qk_106_t1)  # sfu0_p_s1: stage 1, partition 1 (group 1)
        acc_122_t1_p1 = acc_122_t1
        k_scale_t1_p1 = k_scale_t1
        ks_ptr_124_p2 = ks_ptr_124_p1
        ks_ptr_124_p1 = ks_ptr_124
        l_i_109_t1_p1 = l_i_109_t1
        m_ij_103_t1_p2 = m_ij_103_t1_p1
        m_ij_103_t1_p1 = m_ij_103_t1
        p_t1_p1 = p_t1
        for twill_b in range(2, twill_n):
            mbarrier.wait(k_96_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_qk_98_t1 = warpgroup_mma(q_68_t1, k_96_buf.index((twill_base + twill_b - 1) % 4), gl.full([64, 64], 0, gl.int32, layout=L8), use_acc=False, is_async=True)  # dot0_qk_s1: stage 1, partition 1 (group 1)
            p_118_t1 = p_t1_p1.to(gl.float16)  # convert2_p_s1: stage 2, partition 1 (group 1)
            p_119_t1 = gl.convert_layout(p_118_t1, L9)  # convert2_p_s1: stage 2, partition 1 (group 1)
            mbarrier.wait(v_116_ready.index((twill_base + twill_b - 2) % 4), ((twill_base + twill_b - 2) // 4) & 1)
            fence_async_shared()
            tok_acc_120_t1 = warpgroup_mma(p_119_t1, v_116_buf.index((twill_base + twill_b - 2) % 4), gl.full([64, 128], 0.0, gl.float16, layout=L7), use_acc=False, is_async=True)  # dot1_acc_s1: stage 2, partition 1 (group 1)
            l_ij_t1 = gl.sum(p_t1_p1, axis=1)  # reduce1_l_ij_s1: stage 2, partition 1 (group 1)
            qk_98_t1, acc_120_t1 = warpgroup_mma_wait(0, deps=(tok_qk_98_t1, tok_acc_120_t1,))
            mbarrier.arrive(k_96_empty.index((twill_base + twill_b - 1) % 4))
            mbarrier.arrive(v_116_empty.index((twill_base + twill_b - 2) % 4))
            acc_121_t1 = acc_120_t1.to(gl.float32)  # convert3_acc_s1: stage 2, partition 1 (group 1)
            qk_99_t1 = qk_98_t1.to(gl.float32)  # convert0_qk_s1: stage 1, partition 1 (group 1)
            k_scale = gl.load(ks_ptr_124_p2)  # load1_k_scale: stage 1, partition 1 (group 1)
            ks_ptr_124 = ks_ptr_124_p1 + 1  # load1_k_scale: stage 0, partition 1 (group 1)
            k_scale_t1 = gl.load(ks_ptr_124_p1)  # load1_k_scale_s1: stage 0, partition 1 (group 1)
            qk_101 = k_scale  # elementwise0_qk: stage 1, partition 1 (group 1)
            qk_100_t1 = qk_99_t1 * q_scale_61  # elementwise0_qk_s1: stage 1, partition 1 (group 1)
            qk_101_t1 = k_scale_t1_p1  # elementwise0_qk_s1: stage 1, partition 1 (group 1)
            qk_102_t1 = qk_100_t1 * qk_101_t1  # elementwise0_qk_s1: stage 1, partition 1 (group 1)
            m_ij_t1 = gl.max(qk_102_t1, axis=1)  # reduce0_m_ij_s1: stage 1, partition 1 (group 1)
            alpha_t1 = m_ij_103_t1_p2 - m_ij_103_t1_p1  # sfu1_alpha_s1: stage 2, partition 1 (group 1)
            alpha_107_t1 = gl.exp2(alpha_t1)  # sfu1_alpha_s1: stage 2, partition 1 (group 1)
            acc_110_t1 = gl.expand_dims(alpha_107_t1, 1)  # convert1_acc_s1: stage 2, partition 1 (group 1)
            acc_111_t1 = gl.convert_layout(acc_110_t1, L7)  # convert1_acc_s1: stage 2, partition 1 (group 1)
            l_i_108_t1 = l_i_109_t1_p1 * alpha_107_t1  # elementwise2_l_i_s1: stage 2, partition 1 (group 1)
            l_i_109_t1 = l_i_108_t1 + l_ij_t1  # elementwise2_l_i_s1: stage 2, partition 1 (group 1)
            m_ij_103_t1 = gl.maximum(m_ij_103_t1_p1, m_ij_t1)  # elementwise1_m_ij_s1: stage 1, partition 1 (group 1)
            qk_104_t1 = gl.expand_dims(m_ij_103_t1, 1)  # sfu0_p_s1: stage 1, partition 1 (group 1)
            qk_105_t1 = qk_104_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 1, partition 1 (group 1)
            qk_106_t1 = qk_102_t1 - qk_105_t1  # sfu0_p_s1: stage 1, partition 1 (group 1)
            p_t1 = gl.exp2(qk_106_t1)  # sfu0_p_s1: stage 1, partition 1 (group 1)
            acc_112_t1 = acc_111_t1.broadcast_to([64, 128])  # elementwise3_acc_s1: stage 2, partition 1 (group 1)
            acc_113_t1 = acc_122_t1_p1 * acc_112_t1  # elementwise3_acc_s1: stage 2, partition 1 (group 1)
            acc_122_t1 = acc_113_t1 + acc_121_t1  # elementwise3_acc_s1: stage 2, partition 1 (group 1)
            acc_122_t1_p1 = acc_122_t1
            k_scale_t1_p1 = k_scale_t1
            ks_ptr_124_p2 = ks_ptr_124_p1
            ks_ptr_124_p1 = ks_ptr_124
            l_i_109_t1_p1 = l_i_109_t1
            m_ij_103_t1_p2 = m_ij_103_t1_p1
            m_ij_103_t1_p1 = m_ij_103_t1
            p_t1_p1 = p_t1
        mbarrier.wait(k_96_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_qk_98_t1 = warpgroup_mma(q_68_t1, k_96_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), gl.full([64, 64], 0, gl.int32, layout=L8), use_acc=False, is_async=True)  # dot0_qk_s1: stage 1, partition 1 (group 1)
        p_118_t1 = p_t1_p1.to(gl.float16)  # convert2_p_s1: stage 2, partition 1 (group 1)
        p_119_t1 = gl.convert_layout(p_118_t1, L9)  # convert2_p_s1: stage 2, partition 1 (group 1)
        mbarrier.wait(v_116_ready.index((twill_base + (twill_n - 1 + 1) - 2) % 4), ((twill_base + (twill_n - 1 + 1) - 2) // 4) & 1)
        fence_async_shared()
        tok_acc_120_t1 = warpgroup_mma(p_119_t1, v_116_buf.index((twill_base + (twill_n - 1 + 1) - 2) % 4), gl.full([64, 128], 0.0, gl.float16, layout=L7), use_acc=False, is_async=True)  # dot1_acc_s1: stage 2, partition 1 (group 1)
        l_ij_t1 = gl.sum(p_t1_p1, axis=1)  # reduce1_l_ij_s1: stage 2, partition 1 (group 1)
        qk_98_t1, acc_120_t1 = warpgroup_mma_wait(0, deps=(tok_qk_98_t1, tok_acc_120_t1,))
        mbarrier.arrive(k_96_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        mbarrier.arrive(v_116_empty.index((twill_base + (twill_n - 1 + 1) - 2) % 4))
        acc_121_t1 = acc_120_t1.to(gl.float32)  # convert3_acc_s1: stage 2, partition 1 (group 1)
        qk_99_t1 = qk_98_t1.to(gl.float32)  # convert0_qk_s1: stage 1, partition 1 (group 1)
        k_scale = gl.load(ks_ptr_124_p2)  # load1_k_scale: stage 1, partition 1 (group 1)
        qk_101 = k_scale  # elementwise0_qk: stage 1, partition 1 (group 1)
        qk_100_t1 = qk_99_t1 * q_scale_61  # elementwise0_qk_s1: stage 1, partition 1 (group 1)
        qk_101_t1 = k_scale_t1_p1  # elementwise0_qk_s1: stage 1, partition 1 (group 1)
        qk_102_t1 = qk_100_t1 * qk_101_t1  # elementwise0_qk_s1: stage 1, partition 1 (group 1)
        m_ij_t1 = gl.max(qk_102_t1, axis=1)  # reduce0_m_ij_s1: stage 1, partition 1 (group 1)
        alpha_t1 = m_ij_103_t1_p2 - m_ij_103_t1_p1  # sfu1_alpha_s1: stage 2, partition 1 (group 1)
        alpha_107_t1 = gl.exp2(alpha_t1)  # sfu1_alpha_s1: stage 2, partition 1 (group 1)
        acc_110_t1 = gl.expand_dims(alpha_107_t1, 1)  # convert1_acc_s1: stage 2, partition 1 (group 1)
        acc_111_t1 = gl.convert_layout(acc_110_t1, L7)  # convert1_acc_s1: stage 2, partition 1 (group 1)
        l_i_108_t1 = l_i_109_t1_p1 * alpha_107_t1  # elementwise2_l_i_s1: stage 2, partition 1 (group 1)
        l_i_109_t1 = l_i_108_t1 + l_ij_t1  # elementwise2_l_i_s1: stage 2, partition 1 (group 1)
        m_ij_103_t1 = gl.maximum(m_ij_103_t1_p1, m_ij_t1)  # elementwise1_m_ij_s1: stage 1, partition 1 (group 1)
        qk_104_t1 = gl.expand_dims(m_ij_103_t1, 1)  # sfu0_p_s1: stage 1, partition 1 (group 1)
        qk_105_t1 = qk_104_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 1, partition 1 (group 1)
        qk_106_t1 = qk_102_t1 - qk_105_t1  # sfu0_p_s1: stage 1, partition 1 (group 1)
        p_t1 = gl.exp2(qk_106_t1)  # sfu0_p_s1: stage 1, partition 1 (group 1)
        acc_112_t1 = acc_111_t1.broadcast_to([64, 128])  # elementwise3_acc_s1: stage 2, partition 1 (group 1)
        acc_113_t1 = acc_122_t1_p1 * acc_112_t1  # elementwise3_acc_s1: stage 2, partition 1 (group 1)
        acc_122_t1 = acc_113_t1 + acc_121_t1  # elementwise3_acc_s1: stage 2, partition 1 (group 1)
        acc_122_t1_p1 = acc_122_t1
        k_scale_t1_p1 = k_scale_t1
        ks_ptr_124_p3 = ks_ptr_124_p2
        ks_ptr_124_p2 = ks_ptr_124_p1
        ks_ptr_124_p1 = ks_ptr_124
        l_i_109_t1_p1 = l_i_109_t1
        m_ij_103_t1_p2 = m_ij_103_t1_p1
        m_ij_103_t1_p1 = m_ij_103_t1
        p_t1_p1 = p_t1
        p_118_t1 = p_t1_p1.to(gl.float16)  # convert2_p_s1: stage 2, partition 1 (group 1)
        p_119_t1 = gl.convert_layout(p_118_t1, L9)  # convert2_p_s1: stage 2, partition 1 (group 1)
        mbarrier.wait(v_116_ready.index((twill_base + (twill_n - 1 + 2) - 2) % 4), ((twill_base + (twill_n - 1 + 2) - 2) // 4) & 1)
        fence_async_shared()
        tok_acc_120_t1 = warpgroup_mma(p_119_t1, v_116_buf.index((twill_base + (twill_n - 1 + 2) - 2) % 4), gl.full([64, 128], 0.0, gl.float16, layout=L7), use_acc=False, is_async=True)  # dot1_acc_s1: stage 2, partition 1 (group 1)
        l_ij_t1 = gl.sum(p_t1_p1, axis=1)  # reduce1_l_ij_s1: stage 2, partition 1 (group 1)
        acc_120_t1 = warpgroup_mma_wait(0, deps=(tok_acc_120_t1,))
        mbarrier.arrive(v_116_empty.index((twill_base + (twill_n - 1 + 2) - 2) % 4))
        acc_121_t1 = acc_120_t1.to(gl.float32)  # convert3_acc_s1: stage 2, partition 1 (group 1)
        alpha_t1 = m_ij_103_t1_p2 - m_ij_103_t1_p1  # sfu1_alpha_s1: stage 2, partition 1 (group 1)
        alpha_107_t1 = gl.exp2(alpha_t1)  # sfu1_alpha_s1: stage 2, partition 1 (group 1)
        acc_110_t1 = gl.expand_dims(alpha_107_t1, 1)  # convert1_acc_s1: stage 2, partition 1 (group 1)
        acc_111_t1 = gl.convert_layout(acc_110_t1, L7)  # convert1_acc_s1: stage 2, partition 1 (group 1)
        l_i_108_t1 = l_i_109_t1_p1 * alpha_107_t1  # elementwise2_l_i_s1: stage 2, partition 1 (group 1)
        l_i_109_t1 = l_i_108_t1 + l_ij_t1  # elementwise2_l_i_s1: stage 2, partition 1 (group 1)
        acc_112_t1 = acc_111_t1.broadcast_to([64, 128])  # elementwise3_acc_s1: stage 2, partition 1 (group 1)
        acc_113_t1 = acc_122_t1_p1 * acc_112_t1  # elementwise3_acc_s1: stage 2, partition 1 (group 1)
        acc_122_t1 = acc_113_t1 + acc_121_t1  # elementwise3_acc_s1: stage 2, partition 1 (group 1)
        acc_122_t1_p1 = acc_122_t1
        k_scale_t1_p1 = k_scale_t1
        ks_ptr_124_p3 = ks_ptr_124_p2
        ks_ptr_124_p2 = ks_ptr_124_p1
        ks_ptr_124_p1 = ks_ptr_124
        l_i_109_t1_p1 = l_i_109_t1
        m_ij_103_t1_p2 = m_ij_103_t1_p1
        m_ij_103_t1_p1 = m_ij_103_t1
        p_t1_p1 = p_t1
        q_68_t1._keep_alive()
        k_96_buf._keep_alive()
        v_116_buf._keep_alive()
        acc_74_t1 = gl.expand_dims(l_i_109_t1_p1, 1)
        acc_75_t1 = gl.convert_layout(acc_74_t1, L7)
        acc_76_t1 = acc_75_t1.broadcast_to([64, 128])
        acc_77_t1 = acc_122_t1_p1 / acc_76_t1
        o_ptrs = gl.cast(stride_on, gl.int64)
        o_ptrs_78 = q_ptrs_8 * o_ptrs
        o_ptrs_79 = O + o_ptrs_78
        o_ptrs_81_t1 = q_ptrs_13_t1 * stride_on
        o_ptrs_83_t1 = o_ptrs_79 + o_ptrs_81_t1
        o_ptrs_84_t1 = o_ptrs_83_t1.broadcast_to([64, 128])
        o_ptrs_85_t1 = o_ptrs_84_t1 + q_ptrs_24_t1
        v0_t1 = acc_77_t1.to(gl.float16)
        v1_t1 = gl.convert_layout(v0_t1, L10)
        gl.store(o_ptrs_85_t1, v1_t1, mask=q_66_t1)
        twill_base += twill_n

@gluon.jit
def producer_2(Q, K, V, Qs, Ks, O, stride_qn, stride_kn, stride_vn, stride_on, N, twill_g0, twill_g1, twill_g2, k_96_buf, v_116_buf, k_96_ready, k_96_empty, v_116_ready, v_116_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        bh = twill_pid1
        bh_1 = gl.cast(bh, gl.int64)
        q_ptrs = gl.cast(N, gl.int64)
        q_ptrs_8 = bh_1 * q_ptrs
        q_ptrs_19 = gl.arange(0, 128, layout=L3)
        q_ptrs_21 = gl.expand_dims(q_ptrs_19, 0)
        k_ptrs = gl.cast(stride_kn, gl.int64)
        k_ptrs_26 = q_ptrs_8 * k_ptrs
        k_ptrs_27 = K + k_ptrs_26
        k_ptrs_28 = gl.arange(0, 64, layout=L4)
        k_ptrs_29 = gl.expand_dims(k_ptrs_28, 0)
        k_ptrs_31 = k_ptrs_29 * stride_kn
        k_ptrs_33 = k_ptrs_27 + k_ptrs_31
        k_ptrs_34 = gl.arange(0, 128, layout=L5)
        k_ptrs_35 = gl.expand_dims(k_ptrs_34, 1)
        k_ptrs_36 = k_ptrs_33.broadcast_to([128, 64])
        k_ptrs_37 = k_ptrs_35.broadcast_to([128, 64])
        k_ptrs_38 = k_ptrs_36 + k_ptrs_37
        v_ptrs = gl.cast(stride_vn, gl.int64)
        v_ptrs_39 = q_ptrs_8 * v_ptrs
        v_ptrs_40 = V + v_ptrs_39
        v_ptrs_41 = gl.arange(0, 64, layout=L1)
        v_ptrs_42 = gl.expand_dims(v_ptrs_41, 1)
        v_ptrs_44 = v_ptrs_42 * stride_vn
        v_ptrs_46 = v_ptrs_40 + v_ptrs_44
        v_ptrs_47 = v_ptrs_46.broadcast_to([64, 128])
        v_ptrs_48 = q_ptrs_21.broadcast_to([64, 128])
        v_ptrs_49 = v_ptrs_47 + v_ptrs_48
        k_ptrs_69 = stride_kn * 64
        v_ptrs_71 = stride_vn * 64
        k_ptrs_91 = k_ptrs_38
        v_ptrs_92 = v_ptrs_49
        for acc_86 in range(0, N, 64):
            twill_k = twill_base + (acc_86 - 0) // 64
            k = N - acc_86
            k_94 = k_ptrs_29 < k
            k_95 = k_94.broadcast_to([128, 64])
            v_114 = v_ptrs_42 < k
            v_115 = v_114.broadcast_to([64, 128])
            k_ptrs_123 = k_ptrs_91 + k_ptrs_69
            v_ptrs_125 = v_ptrs_92 + v_ptrs_71
            mbarrier.wait(k_96_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(k_96_buf.index(twill_k % 4), k_ptrs_91, mask=k_95)  # load0_k: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(k_96_ready.index(twill_k % 4), increment_count=False)
            else:
                k_96_buf.index(twill_k % 4).store(gl.load(k_ptrs_91, mask=k_95, other=0))  # load0_k: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(k_96_ready.index(twill_k % 4), count=128)
            mbarrier.wait(v_116_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_116_buf.index(twill_k % 4), v_ptrs_92, mask=v_115)  # load2_v: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(v_116_ready.index(twill_k % 4), increment_count=False)
            else:
                v_116_buf.index(twill_k % 4).store(gl.load(v_ptrs_92, mask=v_115, other=0.0))  # load2_v: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_116_ready.index(twill_k % 4), count=128)
            k_ptrs_91 = k_ptrs_123
            v_ptrs_92 = v_ptrs_125
        twill_base += (N - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(Q, K, V, Qs, Ks, O, stride_qn, stride_kn, stride_vn, stride_on, N, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    k_96_buf = gl.allocate_shared_memory(gl.int8, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True))
    v_116_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_96_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k_96_ready.index(i), count=128)
    k_96_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k_96_empty.index(i), count=2)
    v_116_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(v_116_ready.index(i), count=128)
    v_116_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(v_116_empty.index(i), count=2)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, Qs, Ks, O, stride_qn, stride_kn, stride_vn, stride_on, N, twill_g0, twill_g1, twill_g2, k_96_buf, v_116_buf, k_96_ready, k_96_empty, v_116_ready, v_116_empty, TWILL_COPY)),
        (consumer_1, (Q, K, V, Qs, Ks, O, stride_qn, stride_kn, stride_vn, stride_on, N, twill_g0, twill_g1, twill_g2, k_96_buf, v_116_buf, k_96_ready, k_96_empty, v_116_ready, v_116_empty, TWILL_COPY)),
        (producer_2, (Q, K, V, Qs, Ks, O, stride_qn, stride_kn, stride_vn, stride_on, N, twill_g0, twill_g1, twill_g2, k_96_buf, v_116_buf, k_96_ready, k_96_empty, v_116_ready, v_116_empty, TWILL_COPY)),
    ], [4, 4], [208, 80])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Qs', 'Ks', 'O', 'stride_qn', 'stride_kn', 'stride_vn', 'stride_on', 'N', 'D', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Qs', 'Ks', 'O', 'stride_qn', 'stride_kn', 'stride_vn', 'stride_on', 'N', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Qs', 'Ks', 'O', 'stride_qn', 'stride_kn', 'stride_vn', 'stride_on', 'N', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'D': 128, 'BLOCK_M': 128, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 168
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_kn', 'stride_vn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(N + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} ((N + 64 - 1) // 64): run the Triton kernel for it")
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
