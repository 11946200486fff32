"""matmul_248, written by twill from its joint schedule: I=193 L=193 (optimal), 4261 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_105): their addresses and masks spread over 128 threads
- the consumers' pointer loads in their readers' stage: a stage ahead, ptxas spills registers (836 bytes stored, 1264 loaded, 122 spill instructions in the loop)
- a_105 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a_105: 2 buffers of [64, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared operand b_113_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 49200 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 3 iteration(s) ahead, 65536 bytes of shared memory compiled, ptxas 255 registers, ptxas spills registers (780 bytes stored, 780 loaded, 129 spill instructions in the loop); simulated for 0, 1, 2, 3, 8 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

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
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros, twill_g0, twill_g1, twill_g2, twill_box_a_105, a_105_buf, b_113_st, a_105_ready, a_105_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
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
        accumulator_114 = gl.full([64, 128], 0.0, gl.float32, layout=L8)
        g_ptrs_120 = g_ptrs_56
        g_ptrs_121 = g_ptrs_57
        b_ptrs_119 = b_ptrs_54
        accumulator_114_p1 = accumulator_114
        b_ptrs_119_p1 = b_ptrs_119
        g_ptrs_120_p1 = g_ptrs_120
        g_ptrs_121_p1 = g_ptrs_121
        for twill_b in range(0, twill_n):
            g_ptrs_121 = g_ptrs_121_p1 + 64  # load1_g_idx: stage 0, partition 0 (group 0)
            g_idx_89 = gl.load(g_ptrs_121_p1)  # load1_g_idx: stage 0, partition 0 (group 0)
            scales_91 = gl.expand_dims(g_idx_89, 1)  # load3_zeros: stage 0, partition 0 (group 0)
            zeros_97 = scales_91 * stride_zeros  # load3_zeros: stage 0, partition 0 (group 0)
            zeros_98 = zeros_97.broadcast_to([64, 128])  # load3_zeros: stage 0, partition 0 (group 0)
            zeros_99 = zeros_69 + zeros_98  # load3_zeros: stage 0, partition 0 (group 0)
            zeros_100 = gl.load(zeros_99)  # load3_zeros: stage 0, partition 0 (group 0)
            zeros_101 = zeros_100 >> zeros_71  # convert1_zeros: stage 0, partition 0 (group 0)
            zeros_102 = zeros_101 & maxq  # convert1_zeros: stage 0, partition 0 (group 0)
            zeros_103 = zeros_102 + 1  # convert1_zeros: stage 0, partition 0 (group 0)
            zeros_104 = gl.convert_layout(zeros_103, L9)  # convert1_zeros: stage 0, partition 0 (group 0)
            b_ptrs_116 = 64 // infearure_per_bits  # load5_b: stage 0, partition 0 (group 0)
            b_ptrs_117 = b_ptrs_116 * stride_bk  # load5_b: stage 0, partition 0 (group 0)
            b_ptrs_118 = b_ptrs_117  # load5_b: stage 0, partition 0 (group 0)
            b_ptrs_119 = b_ptrs_119_p1 + b_ptrs_118  # load5_b: stage 0, partition 0 (group 0)
            b_107 = gl.load(b_ptrs_119_p1)  # load5_b: stage 0, partition 0 (group 0)
            b_108 = b_107 >> b_74  # convert2_b: stage 0, partition 0 (group 0)
            b_109 = b_108 & maxq  # convert2_b: stage 0, partition 0 (group 0)
            b_110 = b_109 - zeros_104  # convert2_b: stage 0, partition 0 (group 0)
            b_111 = b_110.to(gl.float16)  # convert2_b: stage 0, partition 0 (group 0)
            g_ptrs_120 = g_ptrs_120_p1 + 64  # load0_g_idx: stage 0, partition 0 (group 0)
            g_idx = gl.load(g_ptrs_120_p1)  # load0_g_idx: stage 0, partition 0 (group 0)
            scales_90 = gl.expand_dims(g_idx, 1)  # load2_scales: stage 0, partition 0 (group 0)
            scales_92 = scales_90 * stride_scales  # load2_scales: stage 0, partition 0 (group 0)
            scales_93 = scales_92.broadcast_to([64, 128])  # load2_scales: stage 0, partition 0 (group 0)
            scales_94 = scales_68 + scales_93  # load2_scales: stage 0, partition 0 (group 0)
            scales_95 = gl.load(scales_94)  # load2_scales: stage 0, partition 0 (group 0)
            scales_96 = gl.convert_layout(scales_95, L9)  # convert0_scales: stage 0, partition 0 (group 0)
            b_112 = b_111 * scales_96  # elementwise0_b: stage 0, partition 0 (group 0)
            b_113 = b_113_st.index((twill_b - 0) % 2)  # local_store0_b: stage 0, partition 0 (group 0)
            b_113.store(b_112)  # local_store0_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # local_store0_b: stage 0, partition 0 (group 0)
            mbarrier.wait(a_105_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
            fence_async_shared()
            tok_accumulator_114 = warpgroup_mma(a_105_buf.index((twill_base + twill_b - 0) % 2), b_113, accumulator_114_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_accumulator_114,))
            mbarrier.arrive(a_105_empty.index((twill_base + twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
            accumulator_114 = warpgroup_mma_wait(1, deps=(tok_accumulator_114,))
            accumulator_114_p1 = accumulator_114
            b_ptrs_119_p1 = b_ptrs_119
            g_ptrs_120_p1 = g_ptrs_120
            g_ptrs_121_p1 = g_ptrs_121
        accumulator_114_p1 = warpgroup_mma_wait(0, deps=(accumulator_114_p1,))
        a_105_buf._keep_alive()
        b_113_st._keep_alive()
        mbarrier.arrive(a_105_empty.index((twill_base + (twill_n - 1) - 0) % 2), pred=twill_n > 0)
        c_ptrs_75 = stride_cm * a_ptrs_29
        c_ptrs_77 = c_ptr + c_ptrs_75
        c_ptrs_78 = c_ptrs_77.broadcast_to([64, 128])
        c_ptrs_79 = c_ptrs_78 + b_ptrs_51
        c_mask_80 = b_ptrs_46 < N
        c_mask_81 = a_mask_41.broadcast_to([64, 128])
        c_mask_82 = c_mask_80.broadcast_to([64, 128])
        c_mask_83 = c_mask_81 & c_mask_82
        v0 = accumulator_114_p1.to(gl.float16)
        v1 = gl.convert_layout(v0, L10)
        gl.store(c_ptrs_79, v1, mask=c_mask_83)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros, twill_g0, twill_g1, twill_g2, twill_box_a_105, a_105_buf, b_113_st, a_105_ready, a_105_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
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
    b_113_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_105_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_105_ready.index(i), count=1 if TWILL_TMA else 128)
    a_105_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_105_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros, twill_g0, twill_g1, twill_g2, twill_box_a_105, a_105_buf, b_113_st, a_105_ready, a_105_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros, twill_g0, twill_g1, twill_g2, twill_box_a_105, a_105_buf, b_113_st, a_105_ready, a_105_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L3_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L7_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L8_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L10_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros):
    infearure_per_bits = 32 // bits
    pid = gl.program_id(0)
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
    offs_am_12 = gl.arange(0, 64, layout=L0_short)
    offs_am_13 = gl.arange(0, 64, layout=L1_short)
    offs_am_14 = gl.arange(0, 64, layout=L2_short)
    offs_am_15 = gl.arange(0, 64, layout=L3_short)
    offs_am_18 = offs_am + offs_am_12
    offs_am_19 = offs_am + offs_am_13
    offs_bn = pid_n_11 * 128
    offs_bn_20 = gl.arange(0, 128, layout=L4_short)
    offs_bn_21 = gl.arange(0, 128, layout=L5_short)
    offs_bn_22 = gl.arange(0, 128, layout=L6_short)
    offs_bn_26 = offs_bn + offs_bn_20
    offs_bn_27 = offs_bn + offs_bn_21
    offs_bn_28 = offs_bn + offs_bn_22
    a_ptrs = gl.expand_dims(offs_am_18, 1)
    a_ptrs_29 = gl.expand_dims(offs_am_19, 1)
    a_ptrs_31 = a_ptrs * stride_am
    a_ptrs_32 = gl.arange(0, 64, layout=L7_short)
    a_ptrs_33 = gl.expand_dims(a_ptrs_32, 0)
    a_ptrs_34 = a_ptrs_31.broadcast_to([64, 64])
    a_ptrs_35 = a_ptrs_33.broadcast_to([64, 64])
    a_ptrs_36 = a_ptrs_34 + a_ptrs_35
    a_ptrs_38 = a_ptr + a_ptrs_36
    a_mask_40 = a_ptrs < M
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
    a = a_mask_40.broadcast_to([64, 64])
    b = gl.expand_dims(shifter_64, 1)
    b_74 = b.broadcast_to([64, 128])
    twill_n = (num_pid_k_8 - 0 + 1 - 1) // 1
    b_113_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_106_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    accumulator_114 = gl.full([64, 128], 0.0, gl.float32, layout=L8_short)
    g_ptrs_120 = g_ptrs_56
    g_ptrs_121 = g_ptrs_57
    a_ptrs_115 = a_ptrs_38
    b_ptrs_119 = b_ptrs_54
    a_ptrs_115_p1 = a_ptrs_115
    accumulator_114_p1 = accumulator_114
    b_ptrs_119_p1 = b_ptrs_119
    g_ptrs_120_p1 = g_ptrs_120
    g_ptrs_121_p1 = g_ptrs_121
    for twill_b in range(0, twill_n):
        g_ptrs_121 = g_ptrs_121_p1 + 64  # load1_g_idx: stage 0, partition 0 (group 0)
        g_idx_89 = gl.load(g_ptrs_121_p1)  # load1_g_idx: stage 0, partition 0 (group 0)
        scales_91 = gl.expand_dims(g_idx_89, 1)  # load3_zeros: stage 0, partition 0 (group 0)
        zeros_97 = scales_91 * stride_zeros  # load3_zeros: stage 0, partition 0 (group 0)
        zeros_98 = zeros_97.broadcast_to([64, 128])  # load3_zeros: stage 0, partition 0 (group 0)
        zeros_99 = zeros_69 + zeros_98  # load3_zeros: stage 0, partition 0 (group 0)
        zeros_100 = gl.load(zeros_99)  # load3_zeros: stage 0, partition 0 (group 0)
        zeros_101 = zeros_100 >> zeros_71  # convert1_zeros: stage 0, partition 0 (group 0)
        zeros_102 = zeros_101 & maxq  # convert1_zeros: stage 0, partition 0 (group 0)
        zeros_103 = zeros_102 + 1  # convert1_zeros: stage 0, partition 0 (group 0)
        zeros_104 = gl.convert_layout(zeros_103, L9_short)  # convert1_zeros: stage 0, partition 0 (group 0)
        b_ptrs_116 = 64 // infearure_per_bits  # load5_b: stage 0, partition 0 (group 0)
        b_ptrs_117 = b_ptrs_116 * stride_bk  # load5_b: stage 0, partition 0 (group 0)
        b_ptrs_118 = b_ptrs_117  # load5_b: stage 0, partition 0 (group 0)
        b_ptrs_119 = b_ptrs_119_p1 + b_ptrs_118  # load5_b: stage 0, partition 0 (group 0)
        b_107 = gl.load(b_ptrs_119_p1)  # load5_b: stage 0, partition 0 (group 0)
        b_108 = b_107 >> b_74  # convert2_b: stage 0, partition 0 (group 0)
        b_109 = b_108 & maxq  # convert2_b: stage 0, partition 0 (group 0)
        b_110 = b_109 - zeros_104  # convert2_b: stage 0, partition 0 (group 0)
        b_111 = b_110.to(gl.float16)  # convert2_b: stage 0, partition 0 (group 0)
        g_ptrs_120 = g_ptrs_120_p1 + 64  # load0_g_idx: stage 0, partition 0 (group 0)
        g_idx = gl.load(g_ptrs_120_p1)  # load0_g_idx: stage 0, partition 0 (group 0)
        scales_90 = gl.expand_dims(g_idx, 1)  # load2_scales: stage 0, partition 0 (group 0)
        scales_92 = scales_90 * stride_scales  # load2_scales: stage 0, partition 0 (group 0)
        scales_93 = scales_92.broadcast_to([64, 128])  # load2_scales: stage 0, partition 0 (group 0)
        scales_94 = scales_68 + scales_93  # load2_scales: stage 0, partition 0 (group 0)
        scales_95 = gl.load(scales_94)  # load2_scales: stage 0, partition 0 (group 0)
        scales_96 = gl.convert_layout(scales_95, L9_short)  # convert0_scales: stage 0, partition 0 (group 0)
        b_112 = b_111 * scales_96  # elementwise0_b: stage 0, partition 0 (group 0)
        b_113 = b_113_st.index((twill_b - 0) % 2)  # local_store0_b: stage 0, partition 0 (group 0)
        b_113.store(b_112)  # local_store0_b: stage 0, partition 0 (group 0)
        fence_async_shared()  # local_store0_b: stage 0, partition 0 (group 0)
        a_ptrs_115 = a_ptrs_115_p1 + 64  # load4_a: stage 0, partition 0 (group 0)
        a_105 = gl.load(a_ptrs_115_p1, mask=a, other=0.0)  # load4_a: stage 0, partition 0 (group 0)
        a_106 = a_106_st.index((twill_b - 0) % 2)  # load4_a: stage 0, partition 0 (group 0)
        a_106.store(a_105)  # load4_a: stage 0, partition 0 (group 0)
        fence_async_shared()  # load4_a: stage 0, partition 0 (group 0)
        tok_accumulator_114 = warpgroup_mma(a_106, b_113, accumulator_114_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
        accumulator_114_p1 = warpgroup_mma_wait(1, deps=(accumulator_114_p1,))
        accumulator_114 = warpgroup_mma_wait(1, deps=(tok_accumulator_114,))
        a_ptrs_115_p1 = a_ptrs_115
        accumulator_114_p1 = accumulator_114
        b_ptrs_119_p1 = b_ptrs_119
        g_ptrs_120_p1 = g_ptrs_120
        g_ptrs_121_p1 = g_ptrs_121
    accumulator_114_p1 = warpgroup_mma_wait(0, deps=(accumulator_114_p1,))
    a_106_st._keep_alive()
    b_113_st._keep_alive()
    c_ptrs_75 = stride_cm * a_ptrs_29
    c_ptrs_77 = c_ptr + c_ptrs_75
    c_ptrs_78 = c_ptrs_77.broadcast_to([64, 128])
    c_ptrs_79 = c_ptrs_78 + b_ptrs_51
    c_mask_80 = b_ptrs_46 < N
    c_mask_81 = a_mask_41.broadcast_to([64, 128])
    c_mask_82 = c_mask_80.broadcast_to([64, 128])
    c_mask_83 = c_mask_81 & c_mask_82
    v0 = accumulator_114_p1.to(gl.float16)
    v1 = gl.convert_layout(v0, L10_short)
    gl.store(c_ptrs_79, v1, mask=c_mask_83)

@gluon.jit
def twill_kernel_short(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros):
    consumer_0_short(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, g_ptr, M, N, K, bits, maxq, stride_am, stride_bk, stride_cm, stride_scales, stride_zeros, )



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
COPY_ALIGNED = ['a_ptr', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'g_ptr', 'M', 'N', 'K', 'bits', 'maxq', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_scales', 'stride_zeros', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'g_ptr', 'M', 'N', 'K', 'bits', 'maxq', 'stride_am', 'stride_bk', 'stride_cm', 'stride_scales', 'stride_zeros']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'g_ptr', 'M', 'N', 'K', 'bits', 'maxq', 'stride_am', 'stride_bk', 'stride_cm', 'stride_scales', 'stride_zeros']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
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
    flags = {}
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
