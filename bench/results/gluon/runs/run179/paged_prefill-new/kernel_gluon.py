"""paged_prefill, written by twill from its joint schedule: I=152 L=295 (optimal), 1286 cycles per iteration predicted.

Decisions (each from the schedule):
- k_55 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%bn_43), which the analysis does not follow
- v_72 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%bn_44), which the analysis does not follow
- pointer-loaded tiles copied by a 8-warp producer with cp.async (k_55, v_72): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 154): sub-tile 0, 2 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 184 registers per thread (needs about 154): sub-tile 1, 1 stages
- partition 2 (worker): producer, warp group 2, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring k_55: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0, 1
- ring v_72: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0, 1
- tensor-core order: the schedule's slots (partition 1 (1 dot) | partition 0 (1 dot) | partition 1 (1 dot) | partition 0 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 164000 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L9 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L10 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, k_55_buf, v_72_buf, k_55_ready, k_55_empty, v_72_ready, v_72_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        start_m = twill_pid0
        b = twill_pid1
        offs_m = start_m * 128
        offs_m_3_t0 = gl.arange(0, 64, layout=L0)
        offs_m_5_t0 = offs_m + offs_m_3_t0
        q = twill_g0
        q_7 = b * q
        q_8 = q_7 * 128
        q_9_t0 = gl.expand_dims(offs_m_5_t0, 1)
        q_11_t0 = q_8 + q_9_t0
        q_13_t0 = q_11_t0 * stride_qt
        q_15_t0 = Q + q_13_t0
        q_16 = gl.arange(0, 128, layout=L1)
        q_17 = gl.expand_dims(q_16, 0)
        q_18_t0 = q_15_t0.broadcast_to([64, 128])
        q_19_t0 = q_17.broadcast_to([64, 128])
        q_19_r1_t0 = q_17.broadcast_to([64, 128])
        q_20_t0 = q_18_t0 + q_19_t0
        q_21_t0 = gl.load(q_20_t0)
        q_22_t0 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_21_t0)
        fence_async_shared()
        twill_n = (ctx_len - 0 + 64 - 1) // 64
        m_new_59_t0 = gl.full([64], float("-inf"), gl.float32, layout=L2)
        l_i_66_t0 = gl.full([64], 0.0, gl.float32, layout=L2)
        acc_80_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L3)
        mbarrier.wait(k_55_ready.index((twill_base + 0 - 0) % 4), ((twill_base + 0 - 0) // 4) & 1)
        fence_async_shared()
        tok_qk_57_t0 = warpgroup_mma(q_22_t0, k_55_buf.index((twill_base + 0 - 0) % 4), gl.full([64, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
        qk_57_t0 = warpgroup_mma_wait(1, deps=(tok_qk_57_t0,))
        acc_80_t0_p1 = acc_80_t0
        l_i_66_t0_p1 = l_i_66_t0
        m_new_59_t0_p1 = m_new_59_t0
        qk_57_t0_p1 = qk_57_t0
        for twill_b in range(1, twill_n):
            qk_57_t0_p1 = warpgroup_mma_wait(0, deps=(qk_57_t0_p1,))
            mbarrier.arrive(k_55_empty.index((twill_base + twill_b - 1 - 0) % 4))
            qk_58_t0 = qk_57_t0_p1 * sm_scale  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
            m_new_t0 = gl.max(qk_58_t0, axis=1)  # reduce0_m_new_s0: stage 1, partition 0 (group 0)
            m_new_59_t0 = gl.maximum(m_new_59_t0_p1, m_new_t0)  # elementwise1_m_new_s0: stage 1, partition 0 (group 0)
            alpha_t0 = m_new_59_t0_p1 - m_new_59_t0  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
            alpha_63_t0 = gl.exp(alpha_t0)  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
            p_t0 = gl.expand_dims(m_new_59_t0, 1)  # sfu0_p_s0: stage 1, partition 0 (group 0)
            p_60_t0 = p_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 1, partition 0 (group 0)
            p_61_t0 = qk_58_t0 - p_60_t0  # sfu0_p_s0: stage 1, partition 0 (group 0)
            p_62_t0 = gl.exp(p_61_t0)  # sfu0_p_s0: stage 1, partition 0 (group 0)
            acc_74_t0 = gl.expand_dims(alpha_63_t0, 1)  # convert0_acc_s0: stage 1, partition 0 (group 0)
            acc_75_t0 = gl.convert_layout(acc_74_t0, L3)  # convert0_acc_s0: stage 1, partition 0 (group 0)
            acc_78_t0 = p_62_t0.to(gl.float16)  # convert1_acc_s0: stage 1, partition 0 (group 0)
            acc_79_t0 = gl.convert_layout(acc_78_t0, L5)  # convert1_acc_s0: stage 1, partition 0 (group 0)
            acc_76_t0 = acc_75_t0.broadcast_to([64, 128])  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
            acc_77_t0 = acc_80_t0_p1 * acc_76_t0  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(v_72_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_acc_80_t0 = warpgroup_mma(acc_79_t0, v_72_buf.index((twill_base + twill_b - 1) % 4), acc_77_t0, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
            l_i_65_t0 = gl.sum(p_62_t0, axis=1)  # reduce1_l_i_s0: stage 1, partition 0 (group 0)
            l_i_64_t0 = l_i_66_t0_p1 * alpha_63_t0  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
            l_i_66_t0 = l_i_64_t0 + l_i_65_t0  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(k_55_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_qk_57_t0 = warpgroup_mma(q_22_t0, k_55_buf.index((twill_base + twill_b - 0) % 4), gl.full([64, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
            acc_80_t0 = warpgroup_mma_wait(1, deps=(tok_acc_80_t0,))
            mbarrier.arrive(v_72_empty.index((twill_base + twill_b - 1) % 4))
            qk_57_t0 = warpgroup_mma_wait(1, deps=(tok_qk_57_t0,))
            acc_80_t0_p1 = acc_80_t0
            l_i_66_t0_p1 = l_i_66_t0
            m_new_59_t0_p1 = m_new_59_t0
            qk_57_t0_p1 = qk_57_t0
        qk_57_t0_p1 = warpgroup_mma_wait(0, deps=(qk_57_t0_p1,))
        mbarrier.arrive(k_55_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 0) % 4))
        qk_58_t0 = qk_57_t0_p1 * sm_scale  # elementwise0_qk_s0: stage 1, partition 0 (group 0)
        m_new_t0 = gl.max(qk_58_t0, axis=1)  # reduce0_m_new_s0: stage 1, partition 0 (group 0)
        m_new_59_t0 = gl.maximum(m_new_59_t0_p1, m_new_t0)  # elementwise1_m_new_s0: stage 1, partition 0 (group 0)
        alpha_t0 = m_new_59_t0_p1 - m_new_59_t0  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
        alpha_63_t0 = gl.exp(alpha_t0)  # sfu1_alpha_s0: stage 1, partition 0 (group 0)
        p_t0 = gl.expand_dims(m_new_59_t0, 1)  # sfu0_p_s0: stage 1, partition 0 (group 0)
        p_60_t0 = p_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 1, partition 0 (group 0)
        p_61_t0 = qk_58_t0 - p_60_t0  # sfu0_p_s0: stage 1, partition 0 (group 0)
        p_62_t0 = gl.exp(p_61_t0)  # sfu0_p_s0: stage 1, partition 0 (group 0)
        acc_74_t0 = gl.expand_dims(alpha_63_t0, 1)  # convert0_acc_s0: stage 1, partition 0 (group 0)
        acc_75_t0 = gl.convert_layout(acc_74_t0, L3)  # convert0_acc_s0: stage 1, partition 0 (group 0)
        acc_78_t0 = p_62_t0.to(gl.float16)  # convert1_acc_s0: stage 1, partition 0 (group 0)
        acc_79_t0 = gl.convert_layout(acc_78_t0, L5)  # convert1_acc_s0: stage 1, partition 0 (group 0)
        acc_76_t0 = acc_75_t0.broadcast_to([64, 128])  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
        acc_77_t0 = acc_80_t0_p1 * acc_76_t0  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(v_72_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_80_t0 = warpgroup_mma(acc_79_t0, v_72_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), acc_77_t0, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
        l_i_65_t0 = gl.sum(p_62_t0, axis=1)  # reduce1_l_i_s0: stage 1, partition 0 (group 0)
        l_i_64_t0 = l_i_66_t0_p1 * alpha_63_t0  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
        l_i_66_t0 = l_i_64_t0 + l_i_65_t0  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
        acc_80_t0 = warpgroup_mma_wait(0, deps=(tok_acc_80_t0,))
        mbarrier.arrive(v_72_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        acc_80_t0_p1 = acc_80_t0
        l_i_66_t0_p1 = l_i_66_t0
        m_new_59_t0_p1 = m_new_59_t0
        qk_57_t0_p1 = qk_57_t0
        q_22_t0._keep_alive()
        k_55_buf._keep_alive()
        v_72_buf._keep_alive()
        v1_t0 = O + q_13_t0
        v2_t0 = v1_t0.broadcast_to([64, 128])
        v3_t0 = v2_t0 + q_19_r1_t0
        v4_t0 = gl.expand_dims(l_i_66_t0_p1, 1)
        v5_t0 = gl.convert_layout(v4_t0, L3)
        v6_t0 = v5_t0.broadcast_to([64, 128])
        v7_t0 = acc_80_t0_p1 / v6_t0
        v8_t0 = v7_t0.to(gl.float16)
        v9_t0 = gl.convert_layout(v8_t0, L6)
        gl.store(v3_t0, v9_t0)
        twill_base += twill_n

@gluon.jit
def consumer_1(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, k_55_buf, v_72_buf, k_55_ready, k_55_empty, v_72_ready, v_72_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        start_m = twill_pid0
        b = twill_pid1
        offs_m = start_m * 128
        offs_m_3_t1 = gl.arange(0, 64, layout=L0) + 64
        offs_m_5_t1 = offs_m + offs_m_3_t1
        q = twill_g0
        q_7 = b * q
        q_8 = q_7 * 128
        q_9_t1 = gl.expand_dims(offs_m_5_t1, 1)
        q_11_t1 = q_8 + q_9_t1
        q_13_t1 = q_11_t1 * stride_qt
        q_15_t1 = Q + q_13_t1
        q_16 = gl.arange(0, 128, layout=L1)
        q_17 = gl.expand_dims(q_16, 0)
        q_18_t1 = q_15_t1.broadcast_to([64, 128])
        q_19_t1 = q_17.broadcast_to([64, 128])
        q_19_r1_t1 = q_17.broadcast_to([64, 128])
        q_20_t1 = q_18_t1 + q_19_t1
        q_21_t1 = gl.load(q_20_t1)
        q_22_t1 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_21_t1)
        fence_async_shared()
        twill_n = (ctx_len - 0 + 64 - 1) // 64
        m_new_59_t1 = gl.full([64], float("-inf"), gl.float32, layout=L2)
        l_i_66_t1 = gl.full([64], 0.0, gl.float32, layout=L2)
        acc_80_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L3)
        acc_80_t1_p1 = acc_80_t1
        l_i_66_t1_p1 = l_i_66_t1
        m_new_59_t1_p1 = m_new_59_t1
        mbarrier.wait(k_55_ready.index((twill_base + 0 - 0) % 4), ((twill_base + 0 - 0) // 4) & 1)
        fence_async_shared()
        tok_qk_57_t1 = warpgroup_mma(q_22_t1, k_55_buf.index((twill_base + 0 - 0) % 4), gl.full([64, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
        qk_57_t1 = warpgroup_mma_wait(0, deps=(tok_qk_57_t1,))
        mbarrier.arrive(k_55_empty.index((twill_base + 0 - 0) % 4))
        qk_58_t1 = qk_57_t1 * sm_scale  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        m_new_t1 = gl.max(qk_58_t1, axis=1)  # reduce0_m_new_s1: stage 0, partition 1 (group 1)
        m_new_59_t1 = gl.maximum(m_new_59_t1_p1, m_new_t1)  # elementwise1_m_new_s1: stage 0, partition 1 (group 1)
        p_t1 = gl.expand_dims(m_new_59_t1, 1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
        p_60_t1 = p_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 0, partition 1 (group 1)
        p_61_t1 = qk_58_t1 - p_60_t1  # sfu0_p_s1: stage 0, partition 1 (group 1)
        p_62_t1 = gl.exp(p_61_t1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
        alpha_t1 = m_new_59_t1_p1 - m_new_59_t1  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
        alpha_63_t1 = gl.exp(alpha_t1)  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
        acc_74_t1 = gl.expand_dims(alpha_63_t1, 1)  # convert0_acc_s1: stage 0, partition 1 (group 1)
        acc_75_t1 = gl.convert_layout(acc_74_t1, L3)  # convert0_acc_s1: stage 0, partition 1 (group 1)
        acc_78_t1 = p_62_t1.to(gl.float16)  # convert1_acc_s1: stage 0, partition 1 (group 1)
        acc_79_t1 = gl.convert_layout(acc_78_t1, L5)  # convert1_acc_s1: stage 0, partition 1 (group 1)
        acc_76_t1 = acc_75_t1.broadcast_to([64, 128])  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
        acc_77_t1 = acc_80_t1_p1 * acc_76_t1  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
        mbarrier.wait(v_72_ready.index((twill_base + 0 - 0) % 4), ((twill_base + 0 - 0) // 4) & 1)
        fence_async_shared()
        tok_acc_80_t1 = warpgroup_mma(acc_79_t1, v_72_buf.index((twill_base + 0 - 0) % 4), acc_77_t1, is_async=True)  # dot1_acc_s1: stage 0, partition 1 (group 1)
        l_i_65_t1 = gl.sum(p_62_t1, axis=1)  # reduce1_l_i_s1: stage 0, partition 1 (group 1)
        l_i_64_t1 = l_i_66_t1_p1 * alpha_63_t1  # elementwise2_l_i_s1: stage 0, partition 1 (group 1)
        l_i_66_t1 = l_i_64_t1 + l_i_65_t1  # elementwise2_l_i_s1: stage 0, partition 1 (group 1)
        acc_80_t1 = warpgroup_mma_wait(0, deps=(tok_acc_80_t1,))
        mbarrier.arrive(v_72_empty.index((twill_base + 0 - 0) % 4))
        acc_80_t1_p1 = acc_80_t1
        l_i_66_t1_p1 = l_i_66_t1
        m_new_59_t1_p1 = m_new_59_t1
        for twill_b in range(1, twill_n):
            mbarrier.wait(k_55_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_qk_57_t1 = warpgroup_mma(q_22_t1, k_55_buf.index((twill_base + twill_b - 0) % 4), gl.full([64, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
            qk_57_t1 = warpgroup_mma_wait(0, deps=(tok_qk_57_t1,))
            mbarrier.arrive(k_55_empty.index((twill_base + twill_b - 0) % 4))
            qk_58_t1 = qk_57_t1 * sm_scale  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            m_new_t1 = gl.max(qk_58_t1, axis=1)  # reduce0_m_new_s1: stage 0, partition 1 (group 1)
            m_new_59_t1 = gl.maximum(m_new_59_t1_p1, m_new_t1)  # elementwise1_m_new_s1: stage 0, partition 1 (group 1)
            p_t1 = gl.expand_dims(m_new_59_t1, 1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_60_t1 = p_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_61_t1 = qk_58_t1 - p_60_t1  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_62_t1 = gl.exp(p_61_t1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
            alpha_t1 = m_new_59_t1_p1 - m_new_59_t1  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
            alpha_63_t1 = gl.exp(alpha_t1)  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
            acc_74_t1 = gl.expand_dims(alpha_63_t1, 1)  # convert0_acc_s1: stage 0, partition 1 (group 1)
            acc_75_t1 = gl.convert_layout(acc_74_t1, L3)  # convert0_acc_s1: stage 0, partition 1 (group 1)
            acc_78_t1 = p_62_t1.to(gl.float16)  # convert1_acc_s1: stage 0, partition 1 (group 1)
            acc_79_t1 = gl.convert_layout(acc_78_t1, L5)  # convert1_acc_s1: stage 0, partition 1 (group 1)
            acc_76_t1 = acc_75_t1.broadcast_to([64, 128])  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
            acc_77_t1 = acc_80_t1_p1 * acc_76_t1  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
            mbarrier.wait(v_72_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_80_t1 = warpgroup_mma(acc_79_t1, v_72_buf.index((twill_base + twill_b - 0) % 4), acc_77_t1, is_async=True)  # dot1_acc_s1: stage 0, partition 1 (group 1)
            l_i_65_t1 = gl.sum(p_62_t1, axis=1)  # reduce1_l_i_s1: stage 0, partition 1 (group 1)
            l_i_64_t1 = l_i_66_t1_p1 * alpha_63_t1  # elementwise2_l_i_s1: stage 0, partition 1 (group 1)
            l_i_66_t1 = l_i_64_t1 + l_i_65_t1  # elementwise2_l_i_s1: stage 0, partition 1 (group 1)
            acc_80_t1 = warpgroup_mma_wait(0, deps=(tok_acc_80_t1,))
            mbarrier.arrive(v_72_empty.index((twill_base + twill_b - 0) % 4))
            acc_80_t1_p1 = acc_80_t1
            l_i_66_t1_p1 = l_i_66_t1
            m_new_59_t1_p1 = m_new_59_t1
        acc_80_t1_p2 = acc_80_t1_p1
        acc_80_t1_p1 = acc_80_t1
        l_i_66_t1_p2 = l_i_66_t1_p1
        l_i_66_t1_p1 = l_i_66_t1
        m_new_59_t1_p2 = m_new_59_t1_p1
        m_new_59_t1_p1 = m_new_59_t1
        q_22_t1._keep_alive()
        k_55_buf._keep_alive()
        v_72_buf._keep_alive()
        v1_t1 = O + q_13_t1
        v2_t1 = v1_t1.broadcast_to([64, 128])
        v3_t1 = v2_t1 + q_19_r1_t1
        v4_t1 = gl.expand_dims(l_i_66_t1_p2, 1)
        v5_t1 = gl.convert_layout(v4_t1, L3)
        v6_t1 = v5_t1.broadcast_to([64, 128])
        v7_t1 = acc_80_t1_p2 / v6_t1
        v8_t1 = v7_t1.to(gl.float16)
        v9_t1 = gl.convert_layout(v8_t1, L6)
        gl.store(v3_t1, v9_t1)
        twill_base += twill_n

@gluon.jit
def producer_2(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, k_55_buf, v_72_buf, k_55_ready, k_55_empty, v_72_ready, v_72_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        b = twill_pid1
        offs_n = gl.arange(0, 64, layout=L7)
        offs_n_6 = gl.arange(0, 64, layout=L8)
        q_16 = gl.arange(0, 128, layout=L9)
        q_17 = gl.expand_dims(q_16, 0)
        bn = b * stride_bloc
        bn_23 = B_Loc + bn
        k_27 = gl.arange(0, 128, layout=L10)
        k_28 = gl.expand_dims(k_27, 1)
        k_29 = k_28.broadcast_to([128, 64])
        v_31 = q_17.broadcast_to([64, 128])
        for acc_32 in range(0, ctx_len, 64):
            twill_k = twill_base + (acc_32 - 0) // 64
            bn_37 = acc_32 + offs_n
            bn_38 = acc_32 + offs_n_6
            bn_39 = bn_37 // 16
            bn_40 = bn_38 // 16
            bn_41 = bn_23 + bn_39
            bn_42 = bn_23 + bn_40
            bn_43 = gl.load(bn_41)
            bn_44 = gl.load(bn_42)
            slot = bn_43 * 16
            slot_45 = bn_44 * 16
            slot_46 = bn_37 % 16
            slot_47 = bn_38 % 16
            slot_48 = slot + slot_46
            slot_49 = slot_45 + slot_47
            k_50 = gl.expand_dims(slot_48, 0)
            k_51 = k_50 * stride_kb
            k_52 = K_cache + k_51
            k_53 = k_52.broadcast_to([128, 64])
            k_54 = k_53 + k_29
            v_67 = gl.expand_dims(slot_49, 1)
            v_68 = v_67 * stride_kb
            v_69 = V_cache + v_68
            v_70 = v_69.broadcast_to([64, 128])
            v_71 = v_70 + v_31
            mbarrier.wait(k_55_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(k_55_buf.index(twill_k % 4), k_54)  # load2_k: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(k_55_ready.index(twill_k % 4), increment_count=False)
            else:
                k_55_buf.index(twill_k % 4).store(gl.load(k_54))  # load2_k: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(k_55_ready.index(twill_k % 4), count=256)
            mbarrier.wait(v_72_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_72_buf.index(twill_k % 4), v_71)  # load3_v: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(v_72_ready.index(twill_k % 4), increment_count=False)
            else:
                v_72_buf.index(twill_k % 4).store(gl.load(v_71))  # load3_v: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_72_ready.index(twill_k % 4), count=256)
        twill_base += (ctx_len - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    k_55_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_72_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_55_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k_55_ready.index(i), count=256)
    k_55_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k_55_empty.index(i), count=2)
    v_72_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(v_72_ready.index(i), count=256)
    v_72_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(v_72_empty.index(i), count=2)
    gl.warp_specialize([
        (consumer_0, (Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, k_55_buf, v_72_buf, k_55_ready, k_55_empty, v_72_ready, v_72_empty, TWILL_COPY)),
        (consumer_1, (Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, k_55_buf, v_72_buf, k_55_ready, k_55_empty, v_72_ready, v_72_empty, TWILL_COPY)),
        (producer_2, (Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, k_55_buf, v_72_buf, k_55_ready, k_55_empty, v_72_ready, v_72_empty, TWILL_COPY)),
    ], [4, 8], [184, 64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K_cache', 'V_cache', 'B_Loc', 'O', 'ctx_len', 'sm_scale', 'stride_qt', 'stride_kb', 'stride_bloc', 'BLOCK_M', 'BLOCK_N', 'D', 'PAGE']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K_cache', 'V_cache', 'B_Loc', 'O', 'ctx_len', 'sm_scale', 'stride_qt', 'stride_kb', 'stride_bloc', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K_cache', 'V_cache', 'B_Loc', 'O', 'ctx_len', 'sm_scale', 'stride_qt', 'stride_kb', 'stride_bloc', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 64, 'D': 128, 'PAGE': 16}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K_cache', 'V_cache', 'stride_kb']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(ctx_len + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((ctx_len + 64 - 1) // 64): run the Triton kernel for it")
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
