"""matmul_248, written by twill from its joint schedule: I=193 L=193 (optimal), 4209 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_105): their addresses and masks spread over 128 threads
- register-read pointer tiles copied by their consumer with cp.async (zeros_100_as 2 x 32768 B, b_107_as 2 x 32768 B, scales_95_as 2 x 16384 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- a_105 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 168): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a_105: 2 buffers of [64, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared operand b_113_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 213040 bytes planned of 232448; maxnreg 256

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros, twill_g0, twill_g1, twill_g2, twill_box_a_105, a_105_buf, zeros_100_as, b_107_as, scales_95_as, b_113_st, a_105_ready, a_105_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        infearure_per_bits = 32 // bits
        pid = twill_pid0
        num_pid_m = M + 63
        num_pid_m_5 = num_pid_m // 64
        num_pid_n_6 = N + 127
        num_pid_n_7 = num_pid_n_6 // 128
        num_pid_k = K + 63
        num_pid_k_8 = num_pid_k // 64
        num_pid_in_group = num_pid_n_7 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_5 - first_pid_m
        group_size_m_9 = gl.minimum(group_size_m, 8)
        pid_m = pid % group_size_m_9
        pid_m_10 = first_pid_m + pid_m
        pid_n = pid % num_pid_in_group
        pid_n_11 = pid_n // group_size_m_9
        offs_am = pid_m_10 * 64
        offs_am_12 = gl.arange(0, 64, layout=L0)
        offs_am_13 = gl.arange(0, 64, layout=L1)
        offs_am_14 = gl.arange(0, 64, layout=L2)
        offs_am_15 = gl.arange(0, 64, layout=L3)
        offs_am_18 = offs_am + offs_am_12
        offs_am_19 = offs_am + offs_am_13
        offs_bn = pid_n_11 * 128
        offs_bn_20 = gl.arange(0, 128, layout=L4)
        offs_bn_21 = gl.arange(0, 128, layout=L5)
        offs_bn_22 = gl.arange(0, 128, layout=L6)
        offs_bn_26 = offs_bn + offs_bn_20
        offs_bn_27 = offs_bn + offs_bn_21
        offs_bn_28 = offs_bn + offs_bn_22
        a_ptrs = gl.expand_dims(offs_am_18, 1)
        a_ptrs_29 = gl.expand_dims(offs_am_19, 1)
        a_ptrs_31 = a_ptrs * stride_am
        a_ptrs_32 = gl.arange(0, 64, layout=L7)
        a_ptrs_33 = gl.expand_dims(a_ptrs_32, 0)
        a_ptrs_34 = a_ptrs_31.broadcast_to([64, 64])
        a_ptrs_35 = a_ptrs_33.broadcast_to([64, 64])
        a_ptrs_36 = a_ptrs_34 + a_ptrs_35
        a_ptrs_38 = a_ptr + a_ptrs_36
        a_mask_41 = a_ptrs_29 < M
        b_ptrs = gl.expand_dims(offs_am_15, 1)
        b_ptrs_43 = b_ptrs // infearure_per_bits
        b_ptrs_45 = b_ptrs_43 * stride_bk
        b_ptrs_46 = gl.expand_dims(offs_bn_26, 0)
        b_ptrs_47 = gl.expand_dims(offs_bn_27, 0)
        b_ptrs_48 = gl.expand_dims(offs_bn_28, 0)
        b_ptrs_49 = b_ptrs_45.broadcast_to([64, 128])
        b_ptrs_50 = b_ptrs_48.broadcast_to([64, 128])
        b_ptrs_51 = b_ptrs_46.broadcast_to([64, 128])
        b_ptrs_52 = b_ptrs_49 + b_ptrs_50
        b_ptrs_54 = b_ptr + b_ptrs_52
        g_ptrs_56 = g_ptr + offs_am_13
        g_ptrs_57 = g_ptr + offs_am_14
        scales_ptrs_58 = scales_ptr + b_ptrs_46
        zeros_ptrs_59 = b_ptrs_47 // infearure_per_bits
        zeros_ptrs_61 = zeros_ptr + zeros_ptrs_59
        shifter_62 = offs_am_15 % infearure_per_bits
        shifter_64 = shifter_62 * bits
        zeros_shifter_65 = offs_bn_27 % infearure_per_bits
        zeros_shifter_67 = zeros_shifter_65 * bits
        scales_68 = scales_ptrs_58.broadcast_to([64, 128])
        zeros_69 = zeros_ptrs_61.broadcast_to([64, 128])
        zeros_70 = gl.expand_dims(zeros_shifter_67, 0)
        zeros_71 = zeros_70.broadcast_to([64, 128])
        b = gl.expand_dims(shifter_64, 1)
        b_74 = b.broadcast_to([64, 128])
        twill_n = (num_pid_k_8 - 0 + 1 - 1) // 1
        g_ptrs_120 = g_ptrs_56
        g_ptrs_121 = g_ptrs_57
        b_ptrs_119 = b_ptrs_54
        b_ptrs_119_p1 = b_ptrs_119
        g_ptrs_120_p1 = g_ptrs_120
        g_ptrs_121_p1 = g_ptrs_121
        accumulator_114 = gl.full([64, 128], 0.0, gl.float32, layout=L8)
        g_ptrs_121 = g_ptrs_121_p1 + 64  # load1_g_idx: stage 0, partition 0 (group 0)
        g_idx_89 = gl.load(g_ptrs_121_p1)  # load1_g_idx: stage 0, partition 0 (group 0)
        scales_91 = gl.expand_dims(g_idx_89, 1)  # load3_zeros: stage 0, partition 0 (group 0)
        zeros_97 = scales_91 * stride_zeros  # load3_zeros: stage 0, partition 0 (group 0)
        zeros_98 = zeros_97.broadcast_to([64, 128])  # load3_zeros: stage 0, partition 0 (group 0)
        zeros_99 = zeros_69 + zeros_98  # load3_zeros: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load3_zeros: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(zeros_100_as.index((twill_base + 0 - 0) % 2), zeros_99)  # load3_zeros: stage 0, partition 0 (group 0)
        else:  # load3_zeros: stage 0, partition 0 (group 0)
            zeros_100_as.index((twill_base + 0 - 0) % 2).store(gl.load(zeros_99))  # load3_zeros: stage 0, partition 0 (group 0)
        b_ptrs_116 = 64 // infearure_per_bits  # load5_b: stage 0, partition 0 (group 0)
        b_ptrs_117 = b_ptrs_116 * stride_bk  # load5_b: stage 0, partition 0 (group 0)
        b_ptrs_118 = b_ptrs_117  # load5_b: stage 0, partition 0 (group 0)
        b_ptrs_119 = b_ptrs_119_p1 + b_ptrs_118  # load5_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load5_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_107_as.index((twill_base + 0 - 0) % 2), b_ptrs_119_p1)  # load5_b: stage 0, partition 0 (group 0)
        else:  # load5_b: stage 0, partition 0 (group 0)
            b_107_as.index((twill_base + 0 - 0) % 2).store(gl.load(b_ptrs_119_p1))  # load5_b: stage 0, partition 0 (group 0)
        g_ptrs_120 = g_ptrs_120_p1 + 64  # load0_g_idx: stage 0, partition 0 (group 0)
        g_idx = gl.load(g_ptrs_120_p1)  # load0_g_idx: stage 0, partition 0 (group 0)
        scales_90 = gl.expand_dims(g_idx, 1)  # load2_scales: stage 0, partition 0 (group 0)
        scales_92 = scales_90 * stride_scales  # load2_scales: stage 0, partition 0 (group 0)
        scales_93 = scales_92.broadcast_to([64, 128])  # load2_scales: stage 0, partition 0 (group 0)
        scales_94 = scales_68 + scales_93  # load2_scales: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_scales: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(scales_95_as.index((twill_base + 0 - 0) % 2), scales_94)  # load2_scales: stage 0, partition 0 (group 0)
        else:  # load2_scales: stage 0, partition 0 (group 0)
            scales_95_as.index((twill_base + 0 - 0) % 2).store(gl.load(scales_94))  # load2_scales: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        accumulator_114_p1 = accumulator_114
        b_ptrs_119_p1 = b_ptrs_119
        g_ptrs_120_p1 = g_ptrs_120
        g_ptrs_121_p1 = g_ptrs_121
        for twill_b in range(1, twill_n):
            g_ptrs_121 = g_ptrs_121_p1 + 64  # load1_g_idx: stage 0, partition 0 (group 0)
            g_idx_89 = gl.load(g_ptrs_121_p1)  # load1_g_idx: stage 0, partition 0 (group 0)
            scales_91 = gl.expand_dims(g_idx_89, 1)  # load3_zeros: stage 0, partition 0 (group 0)
            zeros_97 = scales_91 * stride_zeros  # load3_zeros: stage 0, partition 0 (group 0)
            zeros_98 = zeros_97.broadcast_to([64, 128])  # load3_zeros: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            zeros_100 = zeros_100_as.index((twill_base + twill_b - 1) % 2).load(L9)  # load3_zeros: stage 1, partition 0 (group 0)
            zeros_99 = zeros_69 + zeros_98  # load3_zeros: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load3_zeros: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(zeros_100_as.index((twill_base + twill_b - 0) % 2), zeros_99)  # load3_zeros: stage 0, partition 0 (group 0)
            else:  # load3_zeros: stage 0, partition 0 (group 0)
                zeros_100_as.index((twill_base + twill_b - 0) % 2).store(gl.load(zeros_99))  # load3_zeros: stage 0, partition 0 (group 0)
            zeros_101 = zeros_100 >> zeros_71  # convert1_zeros: stage 1, partition 0 (group 0)
            zeros_102 = zeros_101 & maxq  # convert1_zeros: stage 1, partition 0 (group 0)
            zeros_103 = zeros_102 + 1  # convert1_zeros: stage 1, partition 0 (group 0)
            zeros_104 = gl.convert_layout(zeros_103, L10)  # convert1_zeros: stage 1, partition 0 (group 0)
            b_107 = b_107_as.index((twill_base + twill_b - 1) % 2).load(L10)  # load5_b: stage 1, partition 0 (group 0)
            b_ptrs_116 = 64 // infearure_per_bits  # load5_b: stage 0, partition 0 (group 0)
            b_ptrs_117 = b_ptrs_116 * stride_bk  # load5_b: stage 0, partition 0 (group 0)
            b_ptrs_118 = b_ptrs_117  # load5_b: stage 0, partition 0 (group 0)
            b_ptrs_119 = b_ptrs_119_p1 + b_ptrs_118  # load5_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load5_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_107_as.index((twill_base + twill_b - 0) % 2), b_ptrs_119_p1)  # load5_b: stage 0, partition 0 (group 0)
            else:  # load5_b: stage 0, partition 0 (group 0)
                b_107_as.index((twill_base + twill_b - 0) % 2).store(gl.load(b_ptrs_119_p1))  # load5_b: stage 0, partition 0 (group 0)
            b_108 = b_107 >> b_74  # convert2_b: stage 1, partition 0 (group 0)
            b_109 = b_108 & maxq  # convert2_b: stage 1, partition 0 (group 0)
            b_110 = b_109 - zeros_104  # convert2_b: stage 1, partition 0 (group 0)
            b_111 = b_110.to(gl.float16)  # convert2_b: stage 1, partition 0 (group 0)
            g_ptrs_120 = g_ptrs_120_p1 + 64  # load0_g_idx: stage 0, partition 0 (group 0)
            g_idx = gl.load(g_ptrs_120_p1)  # load0_g_idx: stage 0, partition 0 (group 0)
            scales_90 = gl.expand_dims(g_idx, 1)  # load2_scales: stage 0, partition 0 (group 0)
            scales_92 = scales_90 * stride_scales  # load2_scales: stage 0, partition 0 (group 0)
            scales_93 = scales_92.broadcast_to([64, 128])  # load2_scales: stage 0, partition 0 (group 0)
            scales_95 = scales_95_as.index((twill_base + twill_b - 1) % 2).load(L11)  # load2_scales: stage 1, partition 0 (group 0)
            scales_94 = scales_68 + scales_93  # load2_scales: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_scales: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(scales_95_as.index((twill_base + twill_b - 0) % 2), scales_94)  # load2_scales: stage 0, partition 0 (group 0)
            else:  # load2_scales: stage 0, partition 0 (group 0)
                scales_95_as.index((twill_base + twill_b - 0) % 2).store(gl.load(scales_94))  # load2_scales: stage 0, partition 0 (group 0)
            scales_96 = gl.convert_layout(scales_95, L10)  # convert0_scales: stage 1, partition 0 (group 0)
            b_112 = b_111 * scales_96  # elementwise0_b: stage 1, partition 0 (group 0)
            b_113 = b_113_st.index((twill_b - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
            b_113.store(b_112)  # local_store0_b: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
            mbarrier.wait(a_105_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_accumulator_114 = warpgroup_mma(a_105_buf.index((twill_base + twill_b - 1) % 2), b_113, accumulator_114_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_accumulator_114,))
            mbarrier.arrive(a_105_empty.index((twill_base + twill_b - 1 - 1) % 2), pred=(twill_b - 1 - 1) >= 0)
            accumulator_114 = warpgroup_mma_wait(1, deps=(tok_accumulator_114,))
            accumulator_114_p1 = accumulator_114
            b_ptrs_119_p1 = b_ptrs_119
            g_ptrs_120_p1 = g_ptrs_120
            g_ptrs_121_p1 = g_ptrs_121
        async_copy.wait_group(0)
        gl.thread_barrier()
        zeros_100 = zeros_100_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L9)  # load3_zeros: stage 1, partition 0 (group 0)
        zeros_101 = zeros_100 >> zeros_71  # convert1_zeros: stage 1, partition 0 (group 0)
        zeros_102 = zeros_101 & maxq  # convert1_zeros: stage 1, partition 0 (group 0)
        zeros_103 = zeros_102 + 1  # convert1_zeros: stage 1, partition 0 (group 0)
        zeros_104 = gl.convert_layout(zeros_103, L10)  # convert1_zeros: stage 1, partition 0 (group 0)
        b_107 = b_107_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L10)  # load5_b: stage 1, partition 0 (group 0)
        b_108 = b_107 >> b_74  # convert2_b: stage 1, partition 0 (group 0)
        b_109 = b_108 & maxq  # convert2_b: stage 1, partition 0 (group 0)
        b_110 = b_109 - zeros_104  # convert2_b: stage 1, partition 0 (group 0)
        b_111 = b_110.to(gl.float16)  # convert2_b: stage 1, partition 0 (group 0)
        scales_95 = scales_95_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L11)  # load2_scales: stage 1, partition 0 (group 0)
        scales_96 = gl.convert_layout(scales_95, L10)  # convert0_scales: stage 1, partition 0 (group 0)
        b_112 = b_111 * scales_96  # elementwise0_b: stage 1, partition 0 (group 0)
        b_113 = b_113_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
        b_113.store(b_112)  # local_store0_b: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
        mbarrier.wait(a_105_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_accumulator_114 = warpgroup_mma(a_105_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), b_113, accumulator_114_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_accumulator_114,))
        mbarrier.arrive(a_105_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 2), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        accumulator_114 = warpgroup_mma_wait(1, deps=(tok_accumulator_114,))
        accumulator_114_p1 = accumulator_114
        b_ptrs_119_p2 = b_ptrs_119_p1
        b_ptrs_119_p1 = b_ptrs_119
        g_ptrs_120_p2 = g_ptrs_120_p1
        g_ptrs_120_p1 = g_ptrs_120
        g_ptrs_121_p2 = g_ptrs_121_p1
        g_ptrs_121_p1 = g_ptrs_121
        accumulator_114_p1 = warpgroup_mma_wait(0, deps=(accumulator_114_p1,))
        a_105_buf._keep_alive()
        b_113_st._keep_alive()
        mbarrier.arrive(a_105_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
        c_ptrs_75 = stride_cm * a_ptrs_29
        c_ptrs_77 = c_ptr + c_ptrs_75
        c_ptrs_78 = c_ptrs_77.broadcast_to([64, 128])
        c_ptrs_79 = c_ptrs_78 + b_ptrs_51
        c_mask_80 = b_ptrs_46 < N
        c_mask_81 = a_mask_41.broadcast_to([64, 128])
        c_mask_82 = c_mask_80.broadcast_to([64, 128])
        c_mask_83 = c_mask_81 & c_mask_82
        v0 = accumulator_114_p1.to(gl.float16)
        v1 = gl.convert_layout(v0, L11)
        gl.store(c_ptrs_79, v1, mask=c_mask_83)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros, twill_g0, twill_g1, twill_g2, twill_box_a_105, a_105_buf, zeros_100_as, b_107_as, scales_95_as, b_113_st, a_105_ready, a_105_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 63
        num_pid_m_5 = num_pid_m // 64
        num_pid_n_6 = N + 127
        num_pid_n_7 = num_pid_n_6 // 128
        num_pid_k = K + 63
        num_pid_k_8 = num_pid_k // 64
        num_pid_in_group = num_pid_n_7 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_5 - first_pid_m
        group_size_m_9 = gl.minimum(group_size_m, 8)
        pid_m = pid % group_size_m_9
        pid_m_10 = first_pid_m + pid_m
        offs_am = pid_m_10 * 64
        offs_am_12 = gl.arange(0, 64, layout=L0)
        offs_am_18 = offs_am + offs_am_12
        a_ptrs = gl.expand_dims(offs_am_18, 1)
        a_ptrs_31 = a_ptrs * stride_am
        a_ptrs_32 = gl.arange(0, 64, layout=L7)
        a_ptrs_33 = gl.expand_dims(a_ptrs_32, 0)
        a_ptrs_34 = a_ptrs_31.broadcast_to([64, 64])
        a_ptrs_35 = a_ptrs_33.broadcast_to([64, 64])
        a_ptrs_36 = a_ptrs_34 + a_ptrs_35
        a_ptrs_38 = a_ptr + a_ptrs_36
        a_mask_40 = a_ptrs < M
        a = a_mask_40.broadcast_to([64, 64])
        a_ptrs_87 = a_ptrs_38
        for accumulator_84 in range(0, num_pid_k_8, 1):
            twill_k = twill_base + (accumulator_84 - 0) // 1
            a_ptrs_115 = a_ptrs_87 + 64
            mbarrier.wait(a_105_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_105_ready.index(twill_k % 2), twill_box_a_105.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a_105, [512 * group_id + 64 * pid_m, 64 * accumulator_84], a_105_ready.index(twill_k % 2), a_105_buf.index(twill_k % 2))  # load4_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_105_buf.index(twill_k % 2), a_ptrs_87, mask=a)  # load4_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_105_ready.index(twill_k % 2), increment_count=False)
                else:
                    a_105_buf.index(twill_k % 2).store(gl.load(a_ptrs_87, mask=a, other=0.0))  # load4_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_105_ready.index(twill_k % 2), count=128)
            a_ptrs_87 = a_ptrs_115
        twill_base += (num_pid_k_8 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros, twill_g0, twill_g1, twill_g2, twill_box_a_105, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_105_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    zeros_100_as = gl.allocate_shared_memory(gl.int32, [2, 64, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0, 1]))
    b_107_as = gl.allocate_shared_memory(gl.int32, [2, 64, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    scales_95_as = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    b_113_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_105_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_105_ready.index(i), count=1 if TWILL_TMA else 128)
    a_105_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_105_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros, twill_g0, twill_g1, twill_g2, twill_box_a_105, a_105_buf, zeros_100_as, b_107_as, scales_95_as, b_113_st, a_105_ready, a_105_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros, twill_g0, twill_g1, twill_g2, twill_box_a_105, a_105_buf, zeros_100_as, b_107_as, scales_95_as, b_113_st, a_105_ready, a_105_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'g_ptr', 'M', 'N', 'K', 'bits', 'maxq', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_scales', 'stride_zeros', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'g_ptr', 'M', 'N', 'K', 'bits', 'maxq', 'stride_am', 'stride_bk', 'stride_cm', 'stride_scales', 'stride_zeros', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_a_105']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'g_ptr', 'M', 'N', 'K', 'bits', 'maxq', 'stride_am', 'stride_bk', 'stride_cm', 'stride_scales', 'stride_zeros', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_105': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_105': ('a_ptr', ['stride_am', '1'], ['M', None], [64, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'scales_ptr', 'zeros_ptr', 'g_ptr', 'M', 'N', 'bits', 'stride_am', 'stride_bk', 'stride_scales', 'stride_zeros']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 63) // 64)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
