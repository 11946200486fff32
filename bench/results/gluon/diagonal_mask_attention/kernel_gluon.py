"""attn_fwd_diagonal, written by twill from its joint schedule: I=174 L=322 (optimal), 637 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (k_48, v_68): their addresses and masks spread over 256 threads, 7-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- k_48, v_68 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over K, V when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 192 registers per thread (needs about 154): sub-tile 0, 2 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 192 registers per thread (needs about 154): sub-tile 1, 2 stages
- partition 2 (worker): producer, warp group 2, 8 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring k_48: 7 buffers of [64, 64] f16 (the loads run 6 iteration(s) ahead), read by partition(s) 0, 1
- ring v_68: 7 buffers of [64, 64] f16 (the loads run 6 iteration(s) ahead), read by partition(s) 0, 1
- tensor-core order: the schedule's slots (partition 0 (1 dot) | partition 1 (2 dots) | partition 0 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 131328 bytes planned of 232448; maxnreg 128

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L9 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L10 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K, V, O, N, sm_scale, twill_g0, twill_g1, twill_g2, twill_box_k_48, twill_box_v_68, k_48_buf, v_68_buf, k_48_ready, k_48_empty, v_68_ready, v_68_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_m = twill_pid0
        bh = twill_pid1
        offs_m = start_m * 128
        offs_m_4_t0 = gl.arange(0, 64, layout=L0)
        offs_m_5_t0 = gl.arange(0, 64, layout=L1)
        offs_m_8_t0 = offs_m + offs_m_4_t0
        offs_m_9_t0 = offs_m + offs_m_5_t0
        base = bh * N
        base_11 = base * 64
        q = Q + base_11
        q_12_t0 = gl.expand_dims(offs_m_8_t0, 1)
        q_13_t0 = gl.expand_dims(offs_m_9_t0, 1)
        q_14_t0 = q_12_t0 * 64
        q_16_t0 = q + q_14_t0
        q_17 = gl.arange(0, 64, layout=L2)
        q_18 = gl.arange(0, 64, layout=L3)
        q_19 = gl.expand_dims(q_17, 0)
        q_20 = gl.expand_dims(q_18, 0)
        q_21_t0 = q_16_t0.broadcast_to([64, 64])
        q_22_t0 = q_19.broadcast_to([64, 64])
        q_22_r1_t0 = q_19.broadcast_to([64, 64])
        q_23_t0 = q_21_t0 + q_22_t0
        q_24_t0 = gl.load(q_23_t0)
        q_25_t0 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_24_t0)
        fence_async_shared()
        hi = start_m + 1
        hi_26 = hi * 128
        twill_n = (hi_26 - 0 + 64 - 1) // 64
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            m_ij_52_t0 = gl.full([64], float("-inf"), gl.float32, layout=L1)
            l_i_59_t0 = gl.full([64], 0.0, gl.float32, layout=L1)
            acc_72_t0 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
            mbarrier.wait(k_48_ready.index((twill_base + 0 - 0) % 7), ((twill_base + 0 - 0) // 7) & 1)
            fence_async_shared()
            tok_qk_50_t0 = warpgroup_mma(q_25_t0, k_48_buf.index((twill_base + 0 - 0) % 7).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
            v7 = (0 + (0 - 0) * 64) + 64  # elementwise0_qk: stage 0, partition 0 (group 0)
            v8 = v7 > offs_m  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_50_t0 = warpgroup_mma_wait(0, deps=(tok_qk_50_t0,))
            mbarrier.arrive(k_48_empty.index((twill_base + 0 - 0) % 7))
            qk_51_t0 = qk_50_t0 * sm_scale  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            v7_t0 = (0 + (0 - 0) * 64) + 64  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            v8_t0 = v7_t0 > offs_m  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            if v8_t0:  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                qk_74 = (0 + (0 - 0) * 64) + q_20  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                qk_75 = q_13_t0.broadcast_to([64, 64])  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                qk_76 = qk_74.broadcast_to([64, 64])  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                qk_77 = qk_75 >= qk_76  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                qk_78 = gl.where(qk_77, qk_51_t0, float("-inf"))  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                v9_t0 = qk_78  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            else:  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                v9_t0 = qk_51_t0  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            m_ij_t0 = gl.max(v9_t0, axis=1)  # reduce0_m_ij_s0: stage 0, partition 0 (group 0)
            acc_72_t0_p1 = acc_72_t0
            l_i_59_t0_p1 = l_i_59_t0
            m_ij_52_t0_p1 = m_ij_52_t0
            m_ij_t0_p1 = m_ij_t0
            v9_t0_p1 = v9_t0
            for twill_b in range(1, twill_n):
                mbarrier.wait(k_48_ready.index((twill_base + twill_b - 0) % 7), ((twill_base + twill_b - 0) // 7) & 1)
                fence_async_shared()
                tok_qk_50_t0 = warpgroup_mma(q_25_t0, k_48_buf.index((twill_base + twill_b - 0) % 7).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
                m_ij_52_t0 = gl.maximum(m_ij_52_t0_p1, m_ij_t0_p1)  # elementwise1_m_ij_s0: stage 1, partition 0 (group 0)
                p_t0 = gl.expand_dims(m_ij_52_t0, 1)  # sfu0_p_s0: stage 1, partition 0 (group 0)
                p_53_t0 = p_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 1, partition 0 (group 0)
                p_54_t0 = v9_t0_p1 - p_53_t0  # sfu0_p_s0: stage 1, partition 0 (group 0)
                p_55_t0 = gl.exp(p_54_t0)  # sfu0_p_s0: stage 1, partition 0 (group 0)
                alpha_t0 = m_ij_52_t0_p1 - m_ij_52_t0  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
                alpha_56_t0 = gl.exp(alpha_t0)  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
                acc_60_t0 = gl.expand_dims(alpha_56_t0, 1)  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
                acc_61_t0 = acc_60_t0.broadcast_to([64, 64])  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
                qk_50_t0 = warpgroup_mma_wait(0, deps=(tok_qk_50_t0,))
                mbarrier.arrive(k_48_empty.index((twill_base + twill_b - 0) % 7))
                acc_62_t0 = acc_72_t0_p1 * acc_61_t0  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
                acc_70_t0 = p_55_t0.to(gl.float16)  # convert0_acc_s0: stage 1, partition 0 (group 0)
                acc_71_t0 = gl.convert_layout(acc_70_t0, L5)  # convert0_acc_s0: stage 1, partition 0 (group 0)
                mbarrier.wait(v_68_ready.index((twill_base + twill_b - 1) % 7), ((twill_base + twill_b - 1) // 7) & 1)
                fence_async_shared()
                tok_acc_72_t0 = warpgroup_mma(acc_71_t0, v_68_buf.index((twill_base + twill_b - 1) % 7), acc_62_t0, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
                l_i_58_t0 = gl.sum(p_55_t0, axis=1)  # reduce1_l_i_s0: stage 1, partition 0 (group 0)
                l_i_57_t0 = l_i_59_t0_p1 * alpha_56_t0  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
                l_i_59_t0 = l_i_57_t0 + l_i_58_t0  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
                v7 = (0 + (twill_b - 0) * 64) + 64  # elementwise0_qk: stage 0, partition 0 (group 0)
                v8 = v7 > offs_m  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_51_t0 = qk_50_t0 * sm_scale  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                v7_t0 = (0 + (twill_b - 0) * 64) + 64  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                v8_t0 = v7_t0 > offs_m  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                if v8_t0:  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                    qk_74 = (0 + (twill_b - 0) * 64) + q_20  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                    qk_75 = q_13_t0.broadcast_to([64, 64])  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                    qk_76 = qk_74.broadcast_to([64, 64])  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                    qk_77 = qk_75 >= qk_76  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                    qk_78 = gl.where(qk_77, qk_51_t0, float("-inf"))  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                    v9_t0 = qk_78  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                else:  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                    v9_t0 = qk_51_t0  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
                m_ij_t0 = gl.max(v9_t0, axis=1)  # reduce0_m_ij_s0: stage 0, partition 0 (group 0)
                acc_72_t0 = warpgroup_mma_wait(0, deps=(tok_acc_72_t0,))
                mbarrier.arrive(v_68_empty.index((twill_base + twill_b - 1) % 7))
                acc_72_t0_p1 = acc_72_t0
                l_i_59_t0_p1 = l_i_59_t0
                m_ij_52_t0_p1 = m_ij_52_t0
                m_ij_t0_p1 = m_ij_t0
                v9_t0_p1 = v9_t0
            m_ij_52_t0 = gl.maximum(m_ij_52_t0_p1, m_ij_t0_p1)  # elementwise1_m_ij_s0: stage 1, partition 0 (group 0)
            p_t0 = gl.expand_dims(m_ij_52_t0, 1)  # sfu0_p_s0: stage 1, partition 0 (group 0)
            p_53_t0 = p_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 1, partition 0 (group 0)
            p_54_t0 = v9_t0_p1 - p_53_t0  # sfu0_p_s0: stage 1, partition 0 (group 0)
            p_55_t0 = gl.exp(p_54_t0)  # sfu0_p_s0: stage 1, partition 0 (group 0)
            alpha_t0 = m_ij_52_t0_p1 - m_ij_52_t0  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
            alpha_56_t0 = gl.exp(alpha_t0)  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
            acc_60_t0 = gl.expand_dims(alpha_56_t0, 1)  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
            acc_61_t0 = acc_60_t0.broadcast_to([64, 64])  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
            acc_62_t0 = acc_72_t0_p1 * acc_61_t0  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
            acc_70_t0 = p_55_t0.to(gl.float16)  # convert0_acc_s0: stage 1, partition 0 (group 0)
            acc_71_t0 = gl.convert_layout(acc_70_t0, L5)  # convert0_acc_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(v_68_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 7), ((twill_base + (twill_n - 1 + 1) - 1) // 7) & 1)
            fence_async_shared()
            tok_acc_72_t0 = warpgroup_mma(acc_71_t0, v_68_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 7), acc_62_t0, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
            l_i_58_t0 = gl.sum(p_55_t0, axis=1)  # reduce1_l_i_s0: stage 1, partition 0 (group 0)
            l_i_57_t0 = l_i_59_t0_p1 * alpha_56_t0  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
            l_i_59_t0 = l_i_57_t0 + l_i_58_t0  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
            acc_72_t0 = warpgroup_mma_wait(0, deps=(tok_acc_72_t0,))
            mbarrier.arrive(v_68_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 7))
            acc_72_t0_p1 = acc_72_t0
            l_i_59_t0_p1 = l_i_59_t0
            m_ij_52_t0_p1 = m_ij_52_t0
            m_ij_t0_p1 = m_ij_t0
            v9_t0_p1 = v9_t0
            q_25_t0._keep_alive()
            k_48_buf._keep_alive()
            v_68_buf._keep_alive()
        else:
            m_ij_52_t0_p1 = gl.full([64], float("-inf"), gl.float32, layout=L1)
            l_i_59_t0_p1 = gl.full([64], 0.0, gl.float32, layout=L1)
            acc_72_t0_p1 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
        acc_33_t0 = gl.expand_dims(l_i_59_t0_p1, 1)
        acc_34_t0 = acc_33_t0.broadcast_to([64, 64])
        acc_35_t0 = acc_72_t0_p1 / acc_34_t0
        v0 = O + base_11
        v2_t0 = v0 + q_14_t0
        v3_t0 = v2_t0.broadcast_to([64, 64])
        v4_t0 = v3_t0 + q_22_r1_t0
        v5_t0 = acc_35_t0.to(gl.float16)
        v6_t0 = gl.convert_layout(v5_t0, L6)
        gl.store(v4_t0, v6_t0)
        twill_base += twill_n

@gluon.jit
def consumer_1(Q, K, V, O, N, sm_scale, twill_g0, twill_g1, twill_g2, twill_box_k_48, twill_box_v_68, k_48_buf, v_68_buf, k_48_ready, k_48_empty, v_68_ready, v_68_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_m = twill_pid0
        bh = twill_pid1
        offs_m = start_m * 128
        offs_m_4_t1 = gl.arange(0, 64, layout=L0) + 64
        offs_m_5_t1 = gl.arange(0, 64, layout=L1) + 64
        offs_m_8_t1 = offs_m + offs_m_4_t1
        offs_m_9_t1 = offs_m + offs_m_5_t1
        base = bh * N
        base_11 = base * 64
        q = Q + base_11
        q_12_t1 = gl.expand_dims(offs_m_8_t1, 1)
        q_13_t1 = gl.expand_dims(offs_m_9_t1, 1)
        q_14_t1 = q_12_t1 * 64
        q_16_t1 = q + q_14_t1
        q_17 = gl.arange(0, 64, layout=L2)
        q_18 = gl.arange(0, 64, layout=L3)
        q_19 = gl.expand_dims(q_17, 0)
        q_20 = gl.expand_dims(q_18, 0)
        q_21_t1 = q_16_t1.broadcast_to([64, 64])
        q_22_t1 = q_19.broadcast_to([64, 64])
        q_22_r1_t1 = q_19.broadcast_to([64, 64])
        q_23_t1 = q_21_t1 + q_22_t1
        q_24_t1 = gl.load(q_23_t1)
        q_25_t1 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_24_t1)
        fence_async_shared()
        hi = start_m + 1
        hi_26 = hi * 128
        twill_n = (hi_26 - 0 + 64 - 1) // 64
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            m_ij_52_t1 = gl.full([64], float("-inf"), gl.float32, layout=L1)
            m_ij_52_t1_p1 = m_ij_52_t1
            l_i_59_t1 = gl.full([64], 0.0, gl.float32, layout=L1)
            acc_72_t1 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
            mbarrier.wait(k_48_ready.index((twill_base + 0 - 0) % 7), ((twill_base + 0 - 0) // 7) & 1)
            fence_async_shared()
            tok_qk_50_t1 = warpgroup_mma(q_25_t1, k_48_buf.index((twill_base + 0 - 0) % 7).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
            v7 = (0 + (0 - 0) * 64) + 64  # elementwise0_qk: stage 0, partition 1 (group 1)
            v8 = v7 > offs_m  # elementwise0_qk: stage 0, partition 1 (group 1)
            qk_50_t1 = warpgroup_mma_wait(0, deps=(tok_qk_50_t1,))
            mbarrier.arrive(k_48_empty.index((twill_base + 0 - 0) % 7))
            qk_51_t1 = qk_50_t1 * sm_scale  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            v7_t1 = (0 + (0 - 0) * 64) + 64  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            v8_t1 = v7_t1 > offs_m  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            if v8_t1:  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                qk_74 = (0 + (0 - 0) * 64) + q_20  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                qk_75 = q_13_t1.broadcast_to([64, 64])  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                qk_76 = qk_74.broadcast_to([64, 64])  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                qk_77 = qk_75 >= qk_76  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                qk_78 = gl.where(qk_77, qk_51_t1, float("-inf"))  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                v9_t1 = qk_78  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            else:  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                v9_t1 = qk_51_t1  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            m_ij_t1 = gl.max(v9_t1, axis=1)  # reduce0_m_ij_s1: stage 0, partition 1 (group 1)
            m_ij_52_t1 = gl.maximum(m_ij_52_t1_p1, m_ij_t1)  # elementwise1_m_ij_s1: stage 0, partition 1 (group 1)
            alpha_t1 = m_ij_52_t1_p1 - m_ij_52_t1  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
            alpha_56_t1 = gl.exp(alpha_t1)  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
            p_t1 = gl.expand_dims(m_ij_52_t1, 1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_53_t1 = p_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_54_t1 = v9_t1 - p_53_t1  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_55_t1 = gl.exp(p_54_t1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
            acc_72_t1_p1 = acc_72_t1
            alpha_56_t1_p1 = alpha_56_t1
            l_i_59_t1_p1 = l_i_59_t1
            m_ij_52_t1_p1 = m_ij_52_t1
            p_55_t1_p1 = p_55_t1
            for twill_b in range(1, twill_n):
                acc_60_t1 = gl.expand_dims(alpha_56_t1_p1, 1)  # elementwise3_acc_s1: stage 1, partition 1 (group 1)
                acc_61_t1 = acc_60_t1.broadcast_to([64, 64])  # elementwise3_acc_s1: stage 1, partition 1 (group 1)
                acc_62_t1 = acc_72_t1_p1 * acc_61_t1  # elementwise3_acc_s1: stage 1, partition 1 (group 1)
                mbarrier.wait(k_48_ready.index((twill_base + twill_b - 0) % 7), ((twill_base + twill_b - 0) // 7) & 1)
                fence_async_shared()
                tok_qk_50_t1 = warpgroup_mma(q_25_t1, k_48_buf.index((twill_base + twill_b - 0) % 7).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
                acc_70_t1 = p_55_t1_p1.to(gl.float16)  # convert0_acc_s1: stage 1, partition 1 (group 1)
                acc_71_t1 = gl.convert_layout(acc_70_t1, L5)  # convert0_acc_s1: stage 1, partition 1 (group 1)
                v7 = (0 + (twill_b - 0) * 64) + 64  # elementwise0_qk: stage 0, partition 1 (group 1)
                v8 = v7 > offs_m  # elementwise0_qk: stage 0, partition 1 (group 1)
                qk_50_t1 = warpgroup_mma_wait(0, deps=(tok_qk_50_t1,))
                mbarrier.arrive(k_48_empty.index((twill_base + twill_b - 0) % 7))
                qk_51_t1 = qk_50_t1 * sm_scale  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                v7_t1 = (0 + (twill_b - 0) * 64) + 64  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                v8_t1 = v7_t1 > offs_m  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                if v8_t1:  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                    qk_74 = (0 + (twill_b - 0) * 64) + q_20  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                    qk_75 = q_13_t1.broadcast_to([64, 64])  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                    qk_76 = qk_74.broadcast_to([64, 64])  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                    qk_77 = qk_75 >= qk_76  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                    qk_78 = gl.where(qk_77, qk_51_t1, float("-inf"))  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                    v9_t1 = qk_78  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                else:  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                    v9_t1 = qk_51_t1  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
                mbarrier.wait(v_68_ready.index((twill_base + twill_b - 1) % 7), ((twill_base + twill_b - 1) // 7) & 1)
                fence_async_shared()
                tok_acc_72_t1 = warpgroup_mma(acc_71_t1, v_68_buf.index((twill_base + twill_b - 1) % 7), acc_62_t1, is_async=True)  # dot1_acc_s1: stage 1, partition 1 (group 1)
                m_ij_t1 = gl.max(v9_t1, axis=1)  # reduce0_m_ij_s1: stage 0, partition 1 (group 1)
                l_i_58_t1 = gl.sum(p_55_t1_p1, axis=1)  # reduce1_l_i_s1: stage 1, partition 1 (group 1)
                m_ij_52_t1 = gl.maximum(m_ij_52_t1_p1, m_ij_t1)  # elementwise1_m_ij_s1: stage 0, partition 1 (group 1)
                alpha_t1 = m_ij_52_t1_p1 - m_ij_52_t1  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
                alpha_56_t1 = gl.exp(alpha_t1)  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
                p_t1 = gl.expand_dims(m_ij_52_t1, 1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
                p_53_t1 = p_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 0, partition 1 (group 1)
                p_54_t1 = v9_t1 - p_53_t1  # sfu0_p_s1: stage 0, partition 1 (group 1)
                p_55_t1 = gl.exp(p_54_t1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
                l_i_57_t1 = l_i_59_t1_p1 * alpha_56_t1_p1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
                l_i_59_t1 = l_i_57_t1 + l_i_58_t1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
                acc_72_t1 = warpgroup_mma_wait(0, deps=(tok_acc_72_t1,))
                mbarrier.arrive(v_68_empty.index((twill_base + twill_b - 1) % 7))
                acc_72_t1_p1 = acc_72_t1
                alpha_56_t1_p1 = alpha_56_t1
                l_i_59_t1_p1 = l_i_59_t1
                m_ij_52_t1_p1 = m_ij_52_t1
                p_55_t1_p1 = p_55_t1
            acc_60_t1 = gl.expand_dims(alpha_56_t1_p1, 1)  # elementwise3_acc_s1: stage 1, partition 1 (group 1)
            acc_61_t1 = acc_60_t1.broadcast_to([64, 64])  # elementwise3_acc_s1: stage 1, partition 1 (group 1)
            acc_62_t1 = acc_72_t1_p1 * acc_61_t1  # elementwise3_acc_s1: stage 1, partition 1 (group 1)
            acc_70_t1 = p_55_t1_p1.to(gl.float16)  # convert0_acc_s1: stage 1, partition 1 (group 1)
            acc_71_t1 = gl.convert_layout(acc_70_t1, L5)  # convert0_acc_s1: stage 1, partition 1 (group 1)
            mbarrier.wait(v_68_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 7), ((twill_base + (twill_n - 1 + 1) - 1) // 7) & 1)
            fence_async_shared()
            tok_acc_72_t1 = warpgroup_mma(acc_71_t1, v_68_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 7), acc_62_t1, is_async=True)  # dot1_acc_s1: stage 1, partition 1 (group 1)
            l_i_58_t1 = gl.sum(p_55_t1_p1, axis=1)  # reduce1_l_i_s1: stage 1, partition 1 (group 1)
            l_i_57_t1 = l_i_59_t1_p1 * alpha_56_t1_p1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
            l_i_59_t1 = l_i_57_t1 + l_i_58_t1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
            acc_72_t1 = warpgroup_mma_wait(0, deps=(tok_acc_72_t1,))
            mbarrier.arrive(v_68_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 7))
            acc_72_t1_p1 = acc_72_t1
            alpha_56_t1_p1 = alpha_56_t1
            l_i_59_t1_p1 = l_i_59_t1
            m_ij_52_t1_p2 = m_ij_52_t1_p1
            m_ij_52_t1_p1 = m_ij_52_t1
            p_55_t1_p1 = p_55_t1
            q_25_t1._keep_alive()
            k_48_buf._keep_alive()
            v_68_buf._keep_alive()
        else:
            m_ij_52_t1_p2 = gl.full([64], float("-inf"), gl.float32, layout=L1)
            l_i_59_t1_p1 = gl.full([64], 0.0, gl.float32, layout=L1)
            acc_72_t1_p1 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
        acc_33_t1 = gl.expand_dims(l_i_59_t1_p1, 1)
        acc_34_t1 = acc_33_t1.broadcast_to([64, 64])
        acc_35_t1 = acc_72_t1_p1 / acc_34_t1
        v0 = O + base_11
        v2_t1 = v0 + q_14_t1
        v3_t1 = v2_t1.broadcast_to([64, 64])
        v4_t1 = v3_t1 + q_22_r1_t1
        v5_t1 = acc_35_t1.to(gl.float16)
        v6_t1 = gl.convert_layout(v5_t1, L6)
        gl.store(v4_t1, v6_t1)
        twill_base += twill_n

@gluon.jit
def producer_2(Q, K, V, O, N, sm_scale, twill_g0, twill_g1, twill_g2, twill_box_k_48, twill_box_v_68, k_48_buf, v_68_buf, k_48_ready, k_48_empty, v_68_ready, v_68_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_m = twill_pid0
        bh = twill_pid1
        offs_n = gl.arange(0, 64, layout=L7)
        offs_n_10 = gl.arange(0, 64, layout=L8)
        base = bh * N
        base_11 = base * 64
        q_17 = gl.arange(0, 64, layout=L9)
        q_19 = gl.expand_dims(q_17, 0)
        hi = start_m + 1
        hi_26 = hi * 128
        k = K + base_11
        k_28 = gl.arange(0, 64, layout=L10)
        k_29 = gl.expand_dims(k_28, 1)
        k_30 = k_29.broadcast_to([64, 64])
        v = V + base_11
        v_32 = q_19.broadcast_to([64, 64])
        for acc_36 in range(0, hi_26, 64):
            twill_k = twill_base + (acc_36 - 0) // 64
            k_41 = acc_36 + offs_n
            k_42 = acc_36 + offs_n_10
            k_43 = gl.expand_dims(k_41, 0)
            k_44 = k_43 * 64
            k_45 = k + k_44
            k_46 = k_45.broadcast_to([64, 64])
            k_47 = k_46 + k_30
            v_63 = gl.expand_dims(k_42, 1)
            v_64 = v_63 * 64
            v_65 = v + v_64
            v_66 = v_65.broadcast_to([64, 64])
            v_67 = v_66 + v_32
            mbarrier.wait(k_48_empty.index(twill_k % 7), ((twill_k // 7) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(k_48_ready.index(twill_k % 7), twill_box_k_48.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_k_48, [N * bh + 64 * ((acc_36 - 0) // 64), 0], k_48_ready.index(twill_k % 7), k_48_buf.index(twill_k % 7))  # load0_k: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(k_48_buf.index(twill_k % 7).permute((1, 0)), k_47)  # load0_k: stage 0, partition 2 (group 2)
                    async_copy.mbarrier_arrive(k_48_ready.index(twill_k % 7), increment_count=False)
                else:
                    k_48_buf.index(twill_k % 7).permute((1, 0)).store(gl.load(k_47))  # load0_k: stage 0, partition 2 (group 2)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(k_48_ready.index(twill_k % 7), count=256)
            mbarrier.wait(v_68_empty.index(twill_k % 7), ((twill_k // 7) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(v_68_ready.index(twill_k % 7), twill_box_v_68.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_v_68, [N * bh + 64 * ((acc_36 - 0) // 64), 0], v_68_ready.index(twill_k % 7), v_68_buf.index(twill_k % 7))  # load1_v: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(v_68_buf.index(twill_k % 7), v_67)  # load1_v: stage 0, partition 2 (group 2)
                    async_copy.mbarrier_arrive(v_68_ready.index(twill_k % 7), increment_count=False)
                else:
                    v_68_buf.index(twill_k % 7).store(gl.load(v_67))  # load1_v: stage 0, partition 2 (group 2)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(v_68_ready.index(twill_k % 7), count=256)
        twill_base += (hi_26 - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(Q, K, V, O, N, sm_scale, twill_g0, twill_g1, twill_g2, twill_box_k_48, twill_box_v_68, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    k_48_buf = gl.allocate_shared_memory(gl.float16, [7, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    v_68_buf = gl.allocate_shared_memory(gl.float16, [7, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_48_ready = gl.allocate_shared_memory(gl.int64, [7, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(7):
        mbarrier.init(k_48_ready.index(i), count=1 if TWILL_TMA else 256)
    k_48_empty = gl.allocate_shared_memory(gl.int64, [7, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(7):
        mbarrier.init(k_48_empty.index(i), count=2)
    v_68_ready = gl.allocate_shared_memory(gl.int64, [7, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(7):
        mbarrier.init(v_68_ready.index(i), count=1 if TWILL_TMA else 256)
    v_68_empty = gl.allocate_shared_memory(gl.int64, [7, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(7):
        mbarrier.init(v_68_empty.index(i), count=2)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, O, N, sm_scale, twill_g0, twill_g1, twill_g2, twill_box_k_48, twill_box_v_68, k_48_buf, v_68_buf, k_48_ready, k_48_empty, v_68_ready, v_68_empty, TWILL_COPY, TWILL_TMA)),
        (consumer_1, (Q, K, V, O, N, sm_scale, twill_g0, twill_g1, twill_g2, twill_box_k_48, twill_box_v_68, k_48_buf, v_68_buf, k_48_ready, k_48_empty, v_68_ready, v_68_empty, TWILL_COPY, TWILL_TMA)),
        (producer_2, (Q, K, V, O, N, sm_scale, twill_g0, twill_g1, twill_g2, twill_box_k_48, twill_box_v_68, k_48_buf, v_68_buf, k_48_ready, k_48_empty, v_68_ready, v_68_empty, TWILL_COPY, TWILL_TMA)),
    ], [4, 8], [192, 56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'O', 'N', 'sm_scale', 'BLOCK_M', 'BLOCK_N', 'D']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'O', 'N', 'sm_scale', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_k_48', 'twill_box_v_68']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'O', 'N', 'sm_scale', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 64, 'D': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_k_48': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_v_68': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_k_48': ('K', ['64', '1'], [None, None], [64, 64], []), 'twill_box_v_68': ('V', ['64', '1'], [None, None], [64, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
