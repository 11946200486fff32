"""_fwd_kernel, written by twill from its joint schedule: I=270 L=378 (optimal), 2564 cycles per iteration predicted.

Decisions (each from the schedule):
- k_72 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- v_99 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_72, v_99): their addresses and masks spread over 128 threads
- ring k_72 made 2 deep to fit shared memory
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 171): sub-tile 0, 2 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 184 registers per thread (needs about 171): sub-tile 1, 1 stages
- partition 2 (worker): producer, warp group 2, 4 warps, 136 registers per thread (needs about 136): cp.async copies into the rings
- ring k_72: 2 buffers of [128, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0, 1
- ring v_99: 3 buffers of [128, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0, 1
- staged operand p_101_st_t0: partition 0 stores the [64, 128] f16 tile once per iteration in shared memory, read there by dot1_acc (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- staged operand p_101_st_t1: partition 1 stores the [64, 128] f16 tile once per iteration in shared memory, read there by dot1_acc (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- tensor-core order: the schedule's slots (partition 1 (1 dot) | partition 0 (2 dots) | partition 1 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 229488 bytes planned of 232448; maxnreg 168

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K, V, sm_scale, B_Start_Loc, B_Seqlen, Out, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, kv_group_num, twill_g0, twill_g1, twill_g2, k_72_buf, v_99_buf, p_101_st_t0, p_101_st_t1, k_72_ready, k_72_empty, v_99_ready, v_99_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        cur_batch = twill_pid0
        cur_head = twill_pid1
        start_m = twill_pid2
        cur_batch_seq_len = B_Seqlen + cur_batch
        cur_batch_seq_len_4 = gl.load(cur_batch_seq_len)
        cur_batch_in_all_start_index = B_Start_Loc + cur_batch
        cur_batch_in_all_start_index_5 = gl.load(cur_batch_in_all_start_index)
        block_start_loc = start_m * 128
        offs_n_t0 = gl.arange(0, 64, layout=L0)
        offs_n_6_t0 = gl.arange(0, 64, layout=L1)
        offs_m_8_t0 = block_start_loc + offs_n_t0
        offs_m_9_t0 = block_start_loc + offs_n_6_t0
        off_q_t0 = gl.expand_dims(offs_m_8_t0, 1)
        off_q_10_t0 = gl.expand_dims(offs_m_9_t0, 1)
        off_q_12_t0 = cur_batch_in_all_start_index_5 + off_q_t0
        off_q_14_t0 = off_q_12_t0 * stride_qbs
        off_q_15 = cur_head * stride_qh
        off_q_17_t0 = off_q_14_t0 + off_q_15
        off_q_18 = gl.arange(0, 128, layout=L2)
        off_q_20 = gl.arange(0, 128, layout=L3)
        off_q_21 = gl.expand_dims(off_q_18, 0)
        off_q_23 = gl.expand_dims(off_q_20, 0)
        off_q_24_t0 = off_q_17_t0.broadcast_to([64, 128])
        off_q_25_t0 = off_q_21.broadcast_to([64, 128])
        off_q_25_r2_t0 = off_q_21.broadcast_to([64, 128])
        off_q_26_t0 = off_q_24_t0 + off_q_25_t0
        q_43_t0 = off_q_t0 < cur_batch_seq_len_4
        q_45_t0 = Q + off_q_26_t0
        q_46_t0 = q_43_t0.broadcast_to([64, 128])
        q_46_r1_t0 = q_43_t0.broadcast_to([64, 128])
        q_47_t0 = gl.load(q_45_t0, mask=q_46_t0, other=0.0)
        q_48_t0 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_47_t0)
        fence_async_shared()
        block_mask = block_start_loc < cur_batch_seq_len_4
        block_mask_51 = gl.cast(block_mask, gl.int32)
        v0 = start_m + 1
        v1 = block_mask_51 * v0
        v2 = v1 * 128
        qk_52_t0 = off_q_10_t0.broadcast_to([64, 128])
        twill_n = (v2 - 0 + 128 - 1) // 128
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            m_i_new_t0 = gl.full([64], float("-inf"), gl.float32, layout=L1)
            m_i_new_t0_p1 = m_i_new_t0
            l_i_new_85_t0 = gl.full([64], 0.0, gl.float32, layout=L1)
            acc_103_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
            mbarrier.wait(k_72_ready.index((twill_base + 0 - 0) % 2), ((twill_base + 0 - 0) // 2) & 1)
            fence_async_shared()
            tok_qk_74_t0 = warpgroup_mma(q_48_t0, k_72_buf.index((twill_base + 0 - 0) % 2), gl.full([64, 128], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
            k_65 = (0 + (0 - 0) * 128) + off_q_23  # elementwise0_qk: stage 0, partition 0 (group 0)
            k_65_t0 = (0 + (0 - 0) * 128) + off_q_23  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            qk_74_t0 = warpgroup_mma_wait(0, deps=(tok_qk_74_t0,))
            mbarrier.arrive(k_72_empty.index((twill_base + 0 - 0) % 2))
            qk_75_t0 = qk_74_t0 * sm_scale  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            qk_76_t0 = k_65_t0.broadcast_to([64, 128])  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            qk_77_t0 = qk_52_t0 >= qk_76_t0  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            qk_78_t0 = gl.where(qk_77_t0, qk_75_t0, float("-inf"))  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            m_ij_t0 = gl.max(qk_78_t0, axis=1)  # reduce0_m_ij_s0: stage 0, partition 0 (group 0)
            p_t0 = gl.expand_dims(m_ij_t0, 1)  # sfu0_p_s0: stage 0, partition 0 (group 0)
            p_79_t0 = p_t0.broadcast_to([64, 128])  # sfu0_p_s0: stage 0, partition 0 (group 0)
            p_80_t0 = qk_78_t0 - p_79_t0  # sfu0_p_s0: stage 0, partition 0 (group 0)
            p_81_t0 = gl.exp(p_80_t0)  # sfu0_p_s0: stage 0, partition 0 (group 0)
            m_i_new_t0 = gl.maximum(m_i_new_t0_p1, m_ij_t0)  # elementwise1_m_i_new_s0: stage 0, partition 0 (group 0)
            acc_103_t0_p1 = acc_103_t0
            l_i_new_85_t0_p1 = l_i_new_85_t0
            m_i_new_t0_p2 = m_i_new_t0_p1
            m_i_new_t0_p1 = m_i_new_t0
            m_ij_t0_p1 = m_ij_t0
            p_81_t0_p1 = p_81_t0
            for twill_b in range(1, twill_n):
                l_ij_t0 = gl.sum(p_81_t0_p1, axis=1)  # reduce1_l_ij_s0: stage 1, partition 0 (group 0)
                alpha_t0 = m_i_new_t0_p2 - m_i_new_t0_p1  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
                alpha_82_t0 = gl.exp(alpha_t0)  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
                beta_t0 = m_ij_t0_p1 - m_i_new_t0_p1  # sfu2_beta_s0: stage 1, partition 0 (group 0)
                beta_83_t0 = gl.exp(beta_t0)  # sfu2_beta_s0: stage 1, partition 0 (group 0)
                l_i_new_t0 = alpha_82_t0 * l_i_new_85_t0_p1  # elementwise2_l_i_new_s0: stage 1, partition 0 (group 0)
                l_i_new_84_t0 = beta_83_t0 * l_ij_t0  # elementwise2_l_i_new_s0: stage 1, partition 0 (group 0)
                l_i_new_85_t0 = l_i_new_t0 + l_i_new_84_t0  # elementwise2_l_i_new_s0: stage 1, partition 0 (group 0)
                p_scale_t0 = beta_83_t0 / l_i_new_85_t0  # elementwise3_p_scale_s0: stage 1, partition 0 (group 0)
                p_86_t0 = gl.expand_dims(p_scale_t0, 1)  # elementwise4_p_s0: stage 1, partition 0 (group 0)
                p_87_t0 = p_86_t0.broadcast_to([64, 128])  # elementwise4_p_s0: stage 1, partition 0 (group 0)
                p_88_t0 = p_81_t0_p1 * p_87_t0  # elementwise4_p_s0: stage 1, partition 0 (group 0)
                p_101_t0 = p_88_t0.to(gl.float16)  # convert0_p_s0: stage 1, partition 0 (group 0)
                acc_scale_t0 = l_i_new_85_t0_p1 / l_i_new_85_t0  # elementwise5_acc_scale_s0: stage 1, partition 0 (group 0)
                acc_scale_89_t0 = acc_scale_t0 * alpha_82_t0  # elementwise5_acc_scale_s0: stage 1, partition 0 (group 0)
                acc_90_t0 = gl.expand_dims(acc_scale_89_t0, 1)  # elementwise6_acc_s0: stage 1, partition 0 (group 0)
                acc_91_t0 = acc_90_t0.broadcast_to([64, 128])  # elementwise6_acc_s0: stage 1, partition 0 (group 0)
                acc_92_t0 = acc_103_t0_p1 * acc_91_t0  # elementwise6_acc_s0: stage 1, partition 0 (group 0)
                mbarrier.wait(v_99_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
                fence_async_shared()
                p_101_st_t0.store(p_101_t0)  # dot1_acc_s0: stage 1, partition 0 (group 0)
                fence_async_shared()  # dot1_acc_s0: stage 1, partition 0 (group 0)
                tok_acc_103_t0 = warpgroup_mma(p_101_st_t0, v_99_buf.index((twill_base + twill_b - 1) % 3), acc_92_t0, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
                mbarrier.wait(k_72_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
                fence_async_shared()
                tok_qk_74_t0 = warpgroup_mma(q_48_t0, k_72_buf.index((twill_base + twill_b - 0) % 2), gl.full([64, 128], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
                k_63 = (0 + (twill_b - 0) * 128)  # elementwise0_qk: stage 0, partition 0 (group 0)
                k_65 = k_63 + off_q_23  # elementwise0_qk: stage 0, partition 0 (group 0)
                k_63_t0 = (0 + (twill_b - 0) * 128)  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                k_65_t0 = k_63_t0 + off_q_23  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                acc_103_t0, qk_74_t0 = warpgroup_mma_wait(0, deps=(tok_acc_103_t0, tok_qk_74_t0,))
                mbarrier.arrive(v_99_empty.index((twill_base + twill_b - 1) % 3))
                mbarrier.arrive(k_72_empty.index((twill_base + twill_b - 0) % 2))
                qk_75_t0 = qk_74_t0 * sm_scale  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                qk_76_t0 = k_65_t0.broadcast_to([64, 128])  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                qk_77_t0 = qk_52_t0 >= qk_76_t0  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                qk_78_t0 = gl.where(qk_77_t0, qk_75_t0, float("-inf"))  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                m_ij_t0 = gl.max(qk_78_t0, axis=1)  # reduce0_m_ij_s0: stage 0, partition 0 (group 0)
                p_t0 = gl.expand_dims(m_ij_t0, 1)  # sfu0_p_s0: stage 0, partition 0 (group 0)
                p_79_t0 = p_t0.broadcast_to([64, 128])  # sfu0_p_s0: stage 0, partition 0 (group 0)
                p_80_t0 = qk_78_t0 - p_79_t0  # sfu0_p_s0: stage 0, partition 0 (group 0)
                p_81_t0 = gl.exp(p_80_t0)  # sfu0_p_s0: stage 0, partition 0 (group 0)
                m_i_new_t0 = gl.maximum(m_i_new_t0_p1, m_ij_t0)  # elementwise1_m_i_new_s0: stage 0, partition 0 (group 0)
                acc_103_t0_p1 = acc_103_t0
                l_i_new_85_t0_p1 = l_i_new_85_t0
                m_i_new_t0_p2 = m_i_new_t0_p1
                m_i_new_t0_p1 = m_i_new_t0
                m_ij_t0_p1 = m_ij_t0
                p_81_t0_p1 = p_81_t0
            l_ij_t0 = gl.sum(p_81_t0_p1, axis=1)  # reduce1_l_ij_s0: stage 1, partition 0 (group 0)
            alpha_t0 = m_i_new_t0_p2 - m_i_new_t0_p1  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
            alpha_82_t0 = gl.exp(alpha_t0)  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
            beta_t0 = m_ij_t0_p1 - m_i_new_t0_p1  # sfu2_beta_s0: stage 1, partition 0 (group 0)
            beta_83_t0 = gl.exp(beta_t0)  # sfu2_beta_s0: stage 1, partition 0 (group 0)
            l_i_new_t0 = alpha_82_t0 * l_i_new_85_t0_p1  # elementwise2_l_i_new_s0: stage 1, partition 0 (group 0)
            l_i_new_84_t0 = beta_83_t0 * l_ij_t0  # elementwise2_l_i_new_s0: stage 1, partition 0 (group 0)
            l_i_new_85_t0 = l_i_new_t0 + l_i_new_84_t0  # elementwise2_l_i_new_s0: stage 1, partition 0 (group 0)
            p_scale_t0 = beta_83_t0 / l_i_new_85_t0  # elementwise3_p_scale_s0: stage 1, partition 0 (group 0)
            p_86_t0 = gl.expand_dims(p_scale_t0, 1)  # elementwise4_p_s0: stage 1, partition 0 (group 0)
            p_87_t0 = p_86_t0.broadcast_to([64, 128])  # elementwise4_p_s0: stage 1, partition 0 (group 0)
            p_88_t0 = p_81_t0_p1 * p_87_t0  # elementwise4_p_s0: stage 1, partition 0 (group 0)
            p_101_t0 = p_88_t0.to(gl.float16)  # convert0_p_s0: stage 1, partition 0 (group 0)
            acc_scale_t0 = l_i_new_85_t0_p1 / l_i_new_85_t0  # elementwise5_acc_scale_s0: stage 1, partition 0 (group 0)
            acc_scale_89_t0 = acc_scale_t0 * alpha_82_t0  # elementwise5_acc_scale_s0: stage 1, partition 0 (group 0)
            acc_90_t0 = gl.expand_dims(acc_scale_89_t0, 1)  # elementwise6_acc_s0: stage 1, partition 0 (group 0)
            acc_91_t0 = acc_90_t0.broadcast_to([64, 128])  # elementwise6_acc_s0: stage 1, partition 0 (group 0)
            acc_92_t0 = acc_103_t0_p1 * acc_91_t0  # elementwise6_acc_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(v_99_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
            fence_async_shared()
            p_101_st_t0.store(p_101_t0)  # dot1_acc_s0: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot1_acc_s0: stage 1, partition 0 (group 0)
            tok_acc_103_t0 = warpgroup_mma(p_101_st_t0, v_99_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), acc_92_t0, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
            acc_103_t0 = warpgroup_mma_wait(1, deps=(tok_acc_103_t0,))
            acc_103_t0_p1 = acc_103_t0
            l_i_new_85_t0_p1 = l_i_new_85_t0
            m_i_new_t0_p2 = m_i_new_t0_p1
            m_i_new_t0_p1 = m_i_new_t0
            m_ij_t0_p1 = m_ij_t0
            p_81_t0_p1 = p_81_t0
            acc_103_t0_p1 = warpgroup_mma_wait(0, deps=(acc_103_t0_p1,))
            q_48_t0._keep_alive()
            k_72_buf._keep_alive()
            p_101_st_t0._keep_alive()
            v_99_buf._keep_alive()
            mbarrier.arrive(v_99_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        else:
            m_i_new_t0_p2 = gl.full([64], float("-inf"), gl.float32, layout=L1)
            l_i_new_85_t0_p1 = gl.full([64], 0.0, gl.float32, layout=L1)
            acc_103_t0_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        off_o_53_t0 = off_q_12_t0 * stride_obs
        off_o_54 = cur_head * stride_oh
        off_o_56_t0 = off_o_53_t0 + off_o_54
        off_o_57_t0 = off_o_56_t0.broadcast_to([64, 128])
        off_o_58_t0 = off_o_57_t0 + off_q_25_r2_t0
        out_ptrs_59_t0 = Out + off_o_58_t0
        v3_t0 = acc_103_t0_p1.to(gl.float16)
        v4_t0 = gl.convert_layout(v3_t0, L5)
        gl.store(out_ptrs_59_t0, v4_t0, mask=q_46_r1_t0)
        twill_base += twill_n

@gluon.jit
def consumer_1(Q, K, V, sm_scale, B_Start_Loc, B_Seqlen, Out, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, kv_group_num, twill_g0, twill_g1, twill_g2, k_72_buf, v_99_buf, p_101_st_t0, p_101_st_t1, k_72_ready, k_72_empty, v_99_ready, v_99_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        cur_batch = twill_pid0
        cur_head = twill_pid1
        start_m = twill_pid2
        cur_batch_seq_len = B_Seqlen + cur_batch
        cur_batch_seq_len_4 = gl.load(cur_batch_seq_len)
        cur_batch_in_all_start_index = B_Start_Loc + cur_batch
        cur_batch_in_all_start_index_5 = gl.load(cur_batch_in_all_start_index)
        block_start_loc = start_m * 128
        offs_n_t1 = gl.arange(0, 64, layout=L0) + 64
        offs_n_6_t1 = gl.arange(0, 64, layout=L1) + 64
        offs_m_8_t1 = block_start_loc + offs_n_t1
        offs_m_9_t1 = block_start_loc + offs_n_6_t1
        off_q_t1 = gl.expand_dims(offs_m_8_t1, 1)
        off_q_10_t1 = gl.expand_dims(offs_m_9_t1, 1)
        off_q_12_t1 = cur_batch_in_all_start_index_5 + off_q_t1
        off_q_14_t1 = off_q_12_t1 * stride_qbs
        off_q_15 = cur_head * stride_qh
        off_q_17_t1 = off_q_14_t1 + off_q_15
        off_q_18 = gl.arange(0, 128, layout=L2)
        off_q_20 = gl.arange(0, 128, layout=L3)
        off_q_21 = gl.expand_dims(off_q_18, 0)
        off_q_23 = gl.expand_dims(off_q_20, 0)
        off_q_24_t1 = off_q_17_t1.broadcast_to([64, 128])
        off_q_25_t1 = off_q_21.broadcast_to([64, 128])
        off_q_25_r2_t1 = off_q_21.broadcast_to([64, 128])
        off_q_26_t1 = off_q_24_t1 + off_q_25_t1
        q_43_t1 = off_q_t1 < cur_batch_seq_len_4
        q_45_t1 = Q + off_q_26_t1
        q_46_t1 = q_43_t1.broadcast_to([64, 128])
        q_46_r1_t1 = q_43_t1.broadcast_to([64, 128])
        q_47_t1 = gl.load(q_45_t1, mask=q_46_t1, other=0.0)
        q_48_t1 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_47_t1)
        fence_async_shared()
        block_mask = block_start_loc < cur_batch_seq_len_4
        block_mask_51 = gl.cast(block_mask, gl.int32)
        v0 = start_m + 1
        v1 = block_mask_51 * v0
        v2 = v1 * 128
        qk_52_t1 = off_q_10_t1.broadcast_to([64, 128])
        twill_n = (v2 - 0 + 128 - 1) // 128
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            m_i_new_t1 = gl.full([64], float("-inf"), gl.float32, layout=L1)
            l_i_new_85_t1 = gl.full([64], 0.0, gl.float32, layout=L1)
            acc_103_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
            acc_103_t1_p1 = acc_103_t1
            l_i_new_85_t1_p1 = l_i_new_85_t1
            m_i_new_t1_p1 = m_i_new_t1
            mbarrier.wait(k_72_ready.index((twill_base + 0 - 0) % 2), ((twill_base + 0 - 0) // 2) & 1)
            fence_async_shared()
            tok_qk_74_t1 = warpgroup_mma(q_48_t1, k_72_buf.index((twill_base + 0 - 0) % 2), gl.full([64, 128], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
            k_65 = (0 + (0 - 0) * 128) + off_q_23  # elementwise0_qk: stage 0, partition 1 (group 1)
            k_65_t1 = (0 + (0 - 0) * 128) + off_q_23  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            qk_74_t1 = warpgroup_mma_wait(0, deps=(tok_qk_74_t1,))
            mbarrier.arrive(k_72_empty.index((twill_base + 0 - 0) % 2))
            qk_75_t1 = qk_74_t1 * sm_scale  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            qk_76_t1 = k_65_t1.broadcast_to([64, 128])  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            qk_77_t1 = qk_52_t1 >= qk_76_t1  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            qk_78_t1 = gl.where(qk_77_t1, qk_75_t1, float("-inf"))  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            m_ij_t1 = gl.max(qk_78_t1, axis=1)  # reduce0_m_ij_s1: stage 0, partition 1 (group 1)
            p_t1 = gl.expand_dims(m_ij_t1, 1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_79_t1 = p_t1.broadcast_to([64, 128])  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_80_t1 = qk_78_t1 - p_79_t1  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_81_t1 = gl.exp(p_80_t1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
            m_i_new_t1 = gl.maximum(m_i_new_t1_p1, m_ij_t1)  # elementwise1_m_i_new_s1: stage 0, partition 1 (group 1)
            l_ij_t1 = gl.sum(p_81_t1, axis=1)  # reduce1_l_ij_s1: stage 0, partition 1 (group 1)
            beta_t1 = m_ij_t1 - m_i_new_t1  # sfu2_beta_s1: stage 0, partition 1 (group 1)
            beta_83_t1 = gl.exp(beta_t1)  # sfu2_beta_s1: stage 0, partition 1 (group 1)
            alpha_t1 = m_i_new_t1_p1 - m_i_new_t1  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
            alpha_82_t1 = gl.exp(alpha_t1)  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
            l_i_new_t1 = alpha_82_t1 * l_i_new_85_t1_p1  # elementwise2_l_i_new_s1: stage 0, partition 1 (group 1)
            l_i_new_84_t1 = beta_83_t1 * l_ij_t1  # elementwise2_l_i_new_s1: stage 0, partition 1 (group 1)
            l_i_new_85_t1 = l_i_new_t1 + l_i_new_84_t1  # elementwise2_l_i_new_s1: stage 0, partition 1 (group 1)
            acc_scale_t1 = l_i_new_85_t1_p1 / l_i_new_85_t1  # elementwise5_acc_scale_s1: stage 0, partition 1 (group 1)
            acc_scale_89_t1 = acc_scale_t1 * alpha_82_t1  # elementwise5_acc_scale_s1: stage 0, partition 1 (group 1)
            acc_90_t1 = gl.expand_dims(acc_scale_89_t1, 1)  # elementwise6_acc_s1: stage 0, partition 1 (group 1)
            acc_91_t1 = acc_90_t1.broadcast_to([64, 128])  # elementwise6_acc_s1: stage 0, partition 1 (group 1)
            acc_92_t1 = acc_103_t1_p1 * acc_91_t1  # elementwise6_acc_s1: stage 0, partition 1 (group 1)
            p_scale_t1 = beta_83_t1 / l_i_new_85_t1  # elementwise3_p_scale_s1: stage 0, partition 1 (group 1)
            p_86_t1 = gl.expand_dims(p_scale_t1, 1)  # elementwise4_p_s1: stage 0, partition 1 (group 1)
            p_87_t1 = p_86_t1.broadcast_to([64, 128])  # elementwise4_p_s1: stage 0, partition 1 (group 1)
            p_88_t1 = p_81_t1 * p_87_t1  # elementwise4_p_s1: stage 0, partition 1 (group 1)
            p_101_t1 = p_88_t1.to(gl.float16)  # convert0_p_s1: stage 0, partition 1 (group 1)
            mbarrier.wait(v_99_ready.index((twill_base + 0 - 0) % 3), ((twill_base + 0 - 0) // 3) & 1)
            fence_async_shared()
            p_101_st_t1.store(p_101_t1)  # dot1_acc_s1: stage 0, partition 1 (group 1)
            fence_async_shared()  # dot1_acc_s1: stage 0, partition 1 (group 1)
            tok_acc_103_t1 = warpgroup_mma(p_101_st_t1, v_99_buf.index((twill_base + 0 - 0) % 3), acc_92_t1, is_async=True)  # dot1_acc_s1: stage 0, partition 1 (group 1)
            acc_103_t1 = warpgroup_mma_wait(1, deps=(tok_acc_103_t1,))
            acc_103_t1_p1 = acc_103_t1
            l_i_new_85_t1_p1 = l_i_new_85_t1
            m_i_new_t1_p1 = m_i_new_t1
            for twill_b in range(1, twill_n):
                mbarrier.wait(k_72_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
                fence_async_shared()
                tok_qk_74_t1 = warpgroup_mma(q_48_t1, k_72_buf.index((twill_base + twill_b - 0) % 2), gl.full([64, 128], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
                k_63 = (0 + (twill_b - 0) * 128)  # elementwise0_qk: stage 0, partition 1 (group 1)
                k_65 = k_63 + off_q_23  # elementwise0_qk: stage 0, partition 1 (group 1)
                k_63_t1 = (0 + (twill_b - 0) * 128)  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                k_65_t1 = k_63_t1 + off_q_23  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                acc_103_t1_p1, qk_74_t1 = warpgroup_mma_wait(0, deps=(acc_103_t1_p1, tok_qk_74_t1,))
                mbarrier.arrive(v_99_empty.index((twill_base + twill_b - 1 - 0) % 3))
                mbarrier.arrive(k_72_empty.index((twill_base + twill_b - 0) % 2))
                qk_75_t1 = qk_74_t1 * sm_scale  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                qk_76_t1 = k_65_t1.broadcast_to([64, 128])  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                qk_77_t1 = qk_52_t1 >= qk_76_t1  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                qk_78_t1 = gl.where(qk_77_t1, qk_75_t1, float("-inf"))  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                m_ij_t1 = gl.max(qk_78_t1, axis=1)  # reduce0_m_ij_s1: stage 0, partition 1 (group 1)
                p_t1 = gl.expand_dims(m_ij_t1, 1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
                p_79_t1 = p_t1.broadcast_to([64, 128])  # sfu0_p_s1: stage 0, partition 1 (group 1)
                p_80_t1 = qk_78_t1 - p_79_t1  # sfu0_p_s1: stage 0, partition 1 (group 1)
                p_81_t1 = gl.exp(p_80_t1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
                m_i_new_t1 = gl.maximum(m_i_new_t1_p1, m_ij_t1)  # elementwise1_m_i_new_s1: stage 0, partition 1 (group 1)
                l_ij_t1 = gl.sum(p_81_t1, axis=1)  # reduce1_l_ij_s1: stage 0, partition 1 (group 1)
                beta_t1 = m_ij_t1 - m_i_new_t1  # sfu2_beta_s1: stage 0, partition 1 (group 1)
                beta_83_t1 = gl.exp(beta_t1)  # sfu2_beta_s1: stage 0, partition 1 (group 1)
                alpha_t1 = m_i_new_t1_p1 - m_i_new_t1  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
                alpha_82_t1 = gl.exp(alpha_t1)  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
                l_i_new_t1 = alpha_82_t1 * l_i_new_85_t1_p1  # elementwise2_l_i_new_s1: stage 0, partition 1 (group 1)
                l_i_new_84_t1 = beta_83_t1 * l_ij_t1  # elementwise2_l_i_new_s1: stage 0, partition 1 (group 1)
                l_i_new_85_t1 = l_i_new_t1 + l_i_new_84_t1  # elementwise2_l_i_new_s1: stage 0, partition 1 (group 1)
                acc_scale_t1 = l_i_new_85_t1_p1 / l_i_new_85_t1  # elementwise5_acc_scale_s1: stage 0, partition 1 (group 1)
                acc_scale_89_t1 = acc_scale_t1 * alpha_82_t1  # elementwise5_acc_scale_s1: stage 0, partition 1 (group 1)
                acc_90_t1 = gl.expand_dims(acc_scale_89_t1, 1)  # elementwise6_acc_s1: stage 0, partition 1 (group 1)
                acc_91_t1 = acc_90_t1.broadcast_to([64, 128])  # elementwise6_acc_s1: stage 0, partition 1 (group 1)
                acc_92_t1 = acc_103_t1_p1 * acc_91_t1  # elementwise6_acc_s1: stage 0, partition 1 (group 1)
                p_scale_t1 = beta_83_t1 / l_i_new_85_t1  # elementwise3_p_scale_s1: stage 0, partition 1 (group 1)
                p_86_t1 = gl.expand_dims(p_scale_t1, 1)  # elementwise4_p_s1: stage 0, partition 1 (group 1)
                p_87_t1 = p_86_t1.broadcast_to([64, 128])  # elementwise4_p_s1: stage 0, partition 1 (group 1)
                p_88_t1 = p_81_t1 * p_87_t1  # elementwise4_p_s1: stage 0, partition 1 (group 1)
                p_101_t1 = p_88_t1.to(gl.float16)  # convert0_p_s1: stage 0, partition 1 (group 1)
                mbarrier.wait(v_99_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
                fence_async_shared()
                p_101_st_t1.store(p_101_t1)  # dot1_acc_s1: stage 0, partition 1 (group 1)
                fence_async_shared()  # dot1_acc_s1: stage 0, partition 1 (group 1)
                tok_acc_103_t1 = warpgroup_mma(p_101_st_t1, v_99_buf.index((twill_base + twill_b - 0) % 3), acc_92_t1, is_async=True)  # dot1_acc_s1: stage 0, partition 1 (group 1)
                acc_103_t1 = warpgroup_mma_wait(1, deps=(tok_acc_103_t1,))
                acc_103_t1_p1 = acc_103_t1
                l_i_new_85_t1_p1 = l_i_new_85_t1
                m_i_new_t1_p1 = m_i_new_t1
            acc_103_t1_p1 = warpgroup_mma_wait(0, deps=(acc_103_t1_p1,))
            mbarrier.arrive(v_99_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 0) % 3))
            acc_103_t1_p2 = acc_103_t1_p1
            acc_103_t1_p1 = acc_103_t1
            l_i_new_85_t1_p2 = l_i_new_85_t1_p1
            l_i_new_85_t1_p1 = l_i_new_85_t1
            m_i_new_t1_p2 = m_i_new_t1_p1
            m_i_new_t1_p1 = m_i_new_t1
            q_48_t1._keep_alive()
            k_72_buf._keep_alive()
            p_101_st_t1._keep_alive()
            v_99_buf._keep_alive()
        else:
            m_i_new_t1_p2 = gl.full([64], float("-inf"), gl.float32, layout=L1)
            l_i_new_85_t1_p2 = gl.full([64], 0.0, gl.float32, layout=L1)
            acc_103_t1_p2 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        off_o_53_t1 = off_q_12_t1 * stride_obs
        off_o_54 = cur_head * stride_oh
        off_o_56_t1 = off_o_53_t1 + off_o_54
        off_o_57_t1 = off_o_56_t1.broadcast_to([64, 128])
        off_o_58_t1 = off_o_57_t1 + off_q_25_r2_t1
        out_ptrs_59_t1 = Out + off_o_58_t1
        v3_t1 = acc_103_t1_p2.to(gl.float16)
        v4_t1 = gl.convert_layout(v3_t1, L5)
        gl.store(out_ptrs_59_t1, v4_t1, mask=q_46_r1_t1)
        twill_base += twill_n

@gluon.jit
def producer_2(Q, K, V, sm_scale, B_Start_Loc, B_Seqlen, Out, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, kv_group_num, twill_g0, twill_g1, twill_g2, k_72_buf, v_99_buf, p_101_st_t0, p_101_st_t1, k_72_ready, k_72_empty, v_99_ready, v_99_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        cur_batch = twill_pid0
        cur_head = twill_pid1
        start_m = twill_pid2
        cur_kv_head = cur_head // kv_group_num
        cur_batch_seq_len = B_Seqlen + cur_batch
        cur_batch_seq_len_4 = gl.load(cur_batch_seq_len)
        cur_batch_in_all_start_index = B_Start_Loc + cur_batch
        cur_batch_in_all_start_index_5 = gl.load(cur_batch_in_all_start_index)
        block_start_loc = start_m * 128
        offs_n_r1 = gl.arange(0, 128, layout=L0)
        off_q_18 = gl.arange(0, 128, layout=L2)
        off_q_19 = gl.arange(0, 128, layout=L6)
        off_q_21 = gl.expand_dims(off_q_18, 0)
        off_q_22 = gl.expand_dims(off_q_19, 0)
        off_q_25_r1 = off_q_21.broadcast_to([128, 128])
        off_k_27 = off_q_22 * stride_kbs
        off_k_28 = cur_kv_head * stride_kh
        off_k_30 = off_k_27 + off_k_28
        off_k_31 = gl.arange(0, 128, layout=L7)
        off_k_32 = gl.expand_dims(off_k_31, 1)
        off_k_33 = gl.expand_dims(offs_n_r1, 1)
        off_k_34 = off_k_30.broadcast_to([128, 128])
        off_k_35 = off_k_32.broadcast_to([128, 128])
        off_k_36 = off_k_34 + off_k_35
        off_v_37 = off_k_33 * stride_vbs
        off_v_38 = cur_kv_head * stride_vh
        off_v_40 = off_v_37 + off_v_38
        off_v_41 = off_v_40.broadcast_to([128, 128])
        off_v_42 = off_v_41 + off_q_25_r1
        k_ptrs_49 = K + off_k_36
        v_ptrs_50 = V + off_v_42
        block_mask = block_start_loc < cur_batch_seq_len_4
        block_mask_51 = gl.cast(block_mask, gl.int32)
        v0 = start_m + 1
        v1 = block_mask_51 * v0
        v2 = v1 * 128
        for acc_60 in range(0, v2, 128):
            twill_k = twill_base + (acc_60 - 0) // 128
            k_64 = acc_60 + off_q_22
            k_66 = k_64 < cur_batch_seq_len_4
            k_67 = cur_batch_in_all_start_index_5 + acc_60
            k_68 = k_67 * stride_kbs
            k_70 = k_ptrs_49 + k_68
            k_71 = k_66.broadcast_to([128, 128])
            v_93 = acc_60 + off_k_33
            v_94 = v_93 < cur_batch_seq_len_4
            v_95 = k_67 * stride_vbs
            v_97 = v_ptrs_50 + v_95
            v_98 = v_94.broadcast_to([128, 128])
            mbarrier.wait(k_72_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(k_72_buf.index(twill_k % 2), k_70, mask=k_71)  # load0_k: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(k_72_ready.index(twill_k % 2), increment_count=False)
            else:
                k_72_buf.index(twill_k % 2).store(gl.load(k_70, mask=k_71, other=0.0))  # load0_k: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(k_72_ready.index(twill_k % 2), count=128)
            mbarrier.wait(v_99_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_99_buf.index(twill_k % 3), v_97, mask=v_98)  # load1_v: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(v_99_ready.index(twill_k % 3), increment_count=False)
            else:
                v_99_buf.index(twill_k % 3).store(gl.load(v_97, mask=v_98, other=0.0))  # load1_v: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_99_ready.index(twill_k % 3), count=128)
        twill_base += (v2 - 0 + 128 - 1) // 128

@gluon.jit
def twill_kernel(Q, K, V, sm_scale, B_Start_Loc, B_Seqlen, Out, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, kv_group_num, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    k_72_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_99_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    p_101_st_t0 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout.get_default_for([64, 128], gl.float16))
    p_101_st_t1 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout.get_default_for([64, 128], gl.float16))
    k_72_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_72_ready.index(i), count=128)
    k_72_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_72_empty.index(i), count=2)
    v_99_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_99_ready.index(i), count=128)
    v_99_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_99_empty.index(i), count=2)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, sm_scale, B_Start_Loc, B_Seqlen, Out, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, kv_group_num, twill_g0, twill_g1, twill_g2, k_72_buf, v_99_buf, p_101_st_t0, p_101_st_t1, k_72_ready, k_72_empty, v_99_ready, v_99_empty, TWILL_COPY)),
        (consumer_1, (Q, K, V, sm_scale, B_Start_Loc, B_Seqlen, Out, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, kv_group_num, twill_g0, twill_g1, twill_g2, k_72_buf, v_99_buf, p_101_st_t0, p_101_st_t1, k_72_ready, k_72_empty, v_99_ready, v_99_empty, TWILL_COPY)),
        (producer_2, (Q, K, V, sm_scale, B_Start_Loc, B_Seqlen, Out, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_obs, stride_oh, kv_group_num, twill_g0, twill_g1, twill_g2, k_72_buf, v_99_buf, p_101_st_t0, p_101_st_t1, k_72_ready, k_72_empty, v_99_ready, v_99_empty, TWILL_COPY)),
    ], [4, 4], [184, 136])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'sm_scale', 'B_Start_Loc', 'B_Seqlen', 'Out', 'stride_qbs', 'stride_qh', 'stride_qd', 'stride_kbs', 'stride_kh', 'stride_kd', 'stride_vbs', 'stride_vh', 'stride_vd', 'stride_obs', 'stride_oh', 'stride_od', 'kv_group_num', 'BLOCK_M', 'BLOCK_DMODEL', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'sm_scale', 'B_Start_Loc', 'B_Seqlen', 'Out', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_obs', 'stride_oh', 'kv_group_num', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'sm_scale', 'B_Start_Loc', 'B_Seqlen', 'Out', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_obs', 'stride_oh', 'kv_group_num', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_qd': 1, 'stride_kd': 1, 'stride_vd': 1, 'stride_od': 1, 'BLOCK_M': 128, 'BLOCK_DMODEL': 128, 'BLOCK_N': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 168
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
