"""gemm_A16fWnO16f_int32packing_kernel, written by twill from its joint schedule: I=210 L=197 (optimal), 2068 cycles per iteration predicted.

Decisions (each from the schedule):
- a copied with cp.async at every launch, not by TMA: a mask along dimension 1 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a): their addresses and masks spread over 128 threads
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 200): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared operand b_93_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 81984 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 0 iteration(s) ahead, 67584 bytes of shared memory compiled, ptxas 255 registers, clean; simulated for 1, 2, 3, 8 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, scales_a_ptr, M, N, K, M_CLOSEST, stride_am, stride_bk, stride_cm, stride_meta_a_m, stride_meta_a_g, stride_meta_g, twill_g0, twill_g1, twill_g2, a_buf, b_93_st, a_ready, a_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        grid_m = M + 127
        grid_m_5 = grid_m // 128
        grid_n = N + 127
        grid_n_6 = grid_n // 128
        width = grid_n_6 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_7 = grid_m_5 - group_size
        group_size_8 = gl.minimum(group_size_7, 8)
        pid_m = pid % group_size_8
        pid_m_9 = group_size + pid_m
        pid_n = pid % width
        pid_n_10 = pid_n // group_size_8
        num_pid_k_11 = K + 63
        num_pid_k_12 = num_pid_k_11 // 64
        offs_m = pid_m_9 * 128
        offs_m_13 = gl.arange(0, 128, layout=L0)
        offs_m_14 = gl.arange(0, 128, layout=L1)
        offs_m_15 = gl.arange(0, 128, layout=L2)
        offs_m_16 = gl.arange(0, 128, layout=L3)
        offs_m_17 = gl.arange(0, 128, layout=L4)
        offs_m_20 = offs_m + offs_m_16
        offs_m_21 = offs_m + offs_m_17
        offs_n = pid_n_10 * 128
        offs_n_25 = offs_n + offs_m_13
        offs_n_26 = offs_n + offs_m_15
        offs_k = gl.arange(0, 64, layout=L5)
        offs_k = gl.max_contiguous(gl.multiple_of(offs_k, [64]), [64])
        b_ptrs_27 = gl.arange(0, 64, layout=L5)
        b_ptrs_28 = gl.expand_dims(b_ptrs_27, 1)
        b_ptrs_29 = b_ptrs_28 // 8
        b_ptrs_31 = b_ptrs_29 * stride_bk
        b_ptrs_32 = gl.expand_dims(offs_n_25, 0)
        b_ptrs_33 = gl.expand_dims(offs_n_26, 0)
        b_ptrs_34 = b_ptrs_31.broadcast_to([64, 128])
        b_ptrs_35 = b_ptrs_32.broadcast_to([64, 128])
        b_ptrs_36 = b_ptrs_34 + b_ptrs_35
        b_ptrs_38 = b_ptr + b_ptrs_36
        q_shift_39 = offs_k % 8
        q_shift_40 = q_shift_39 * 4
        q_shift_41 = gl.expand_dims(q_shift_40, 1)
        a_ptrs = gl.expand_dims(offs_m_20, 1)
        a_ptrs_42 = gl.expand_dims(offs_m_21, 1)
        a_ptrs_44 = a_ptrs * stride_am
        a_ptrs_45 = gl.arange(0, 64, layout=L6)
        a_ptrs_46 = gl.expand_dims(a_ptrs_45, 0)
        a_ptrs_47 = a_ptrs_44.broadcast_to([128, 64])
        a_ptrs_48 = a_ptrs_46.broadcast_to([128, 64])
        a_ptrs_49 = a_ptrs_47 + a_ptrs_48
        a_ptrs_51 = a_ptr + a_ptrs_49
        a_mask_54 = a_ptrs_42 < M
        scales_ptrs_60 = scales_ptr + b_ptrs_33
        zeros_ptrs_61 = zeros_ptr + b_ptrs_33
        b = q_shift_41.broadcast_to([64, 128])
        b_ptrs_62 = stride_bk * 8
        twill_n = (num_pid_k_12 - 0 + 1 - 1) // 1
        b_ptrs_96 = b_ptrs_38
        b_ptrs_96_p1 = b_ptrs_96
        acc_94 = gl.full([128, 128], 0.0, gl.float32, layout=L7)
        b_ptrs_96 = b_ptrs_96_p1 + b_ptrs_62  # load1_b: stage 0, partition 0 (group 0)
        b_78 = gl.load(b_ptrs_96_p1, eviction_policy='evict_first')  # load1_b: stage 0, partition 0 (group 0)
        k_m = gl.cast((0 + (0 - 0) * 1), gl.float32)  # load2_scales: stage 0, partition 0 (group 0)
        k_m_79 = k_m * 0.5  # load2_scales: stage 0, partition 0 (group 0)
        k_m_80 = gl.cast(k_m_79, gl.int32)  # load2_scales: stage 0, partition 0 (group 0)
        scales = k_m_80 * stride_meta_g  # load2_scales: stage 0, partition 0 (group 0)
        scales_81 = scales  # load2_scales: stage 0, partition 0 (group 0)
        zeros = zeros_ptrs_61 + scales_81  # load3_zeros: stage 0, partition 0 (group 0)
        scales_82 = scales_ptrs_60 + scales_81  # load2_scales: stage 0, partition 0 (group 0)
        zeros_84 = gl.load(zeros, eviction_policy='evict_last')  # load3_zeros: stage 0, partition 0 (group 0)
        scales_83 = gl.load(scales_82, eviction_policy='evict_last')  # load2_scales: stage 0, partition 0 (group 0)
        acc_94_p1 = acc_94
        b_78_p1 = b_78
        b_ptrs_96_p1 = b_ptrs_96
        scales_83_p1 = scales_83
        zeros_84_p1 = zeros_84
        for twill_b in range(1, twill_n):
            b_ptrs_96 = b_ptrs_96_p1 + b_ptrs_62  # load1_b: stage 0, partition 0 (group 0)
            b_78 = gl.load(b_ptrs_96_p1, eviction_policy='evict_first')  # load1_b: stage 0, partition 0 (group 0)
            b_85 = b_78_p1 >> b  # convert0_b: stage 1, partition 0 (group 0)
            b_86 = b_85 & 15  # convert0_b: stage 1, partition 0 (group 0)
            b_87 = b_86.to(gl.float16)  # convert0_b: stage 1, partition 0 (group 0)
            b_88 = gl.convert_layout(b_87, L8)  # convert0_b: stage 1, partition 0 (group 0)
            k_m = gl.cast((0 + (twill_b - 0) * 1), gl.float32)  # load2_scales: stage 0, partition 0 (group 0)
            k_m_79 = k_m * 0.5  # load2_scales: stage 0, partition 0 (group 0)
            k_m_80 = gl.cast(k_m_79, gl.int32)  # load2_scales: stage 0, partition 0 (group 0)
            scales = k_m_80 * stride_meta_g  # load2_scales: stage 0, partition 0 (group 0)
            scales_81 = scales  # load2_scales: stage 0, partition 0 (group 0)
            zeros = zeros_ptrs_61 + scales_81  # load3_zeros: stage 0, partition 0 (group 0)
            scales_82 = scales_ptrs_60 + scales_81  # load2_scales: stage 0, partition 0 (group 0)
            zeros_84 = gl.load(zeros, eviction_policy='evict_last')  # load3_zeros: stage 0, partition 0 (group 0)
            scales_83 = gl.load(scales_82, eviction_policy='evict_last')  # load2_scales: stage 0, partition 0 (group 0)
            b_89 = zeros_84_p1.broadcast_to([64, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
            b_90 = b_88 - b_89  # elementwise0_b: stage 1, partition 0 (group 0)
            b_91 = scales_83_p1.broadcast_to([64, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
            b_92 = b_90 * b_91  # elementwise0_b: stage 1, partition 0 (group 0)
            b_93 = b_93_st.index((twill_b - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
            b_93.store(b_92)  # local_store0_b: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
            mbarrier.wait(a_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_94 = warpgroup_mma(a_buf.index((twill_base + twill_b - 1) % 3), b_93, acc_94_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_94,))
            mbarrier.arrive(a_empty.index((twill_base + twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
            acc_94 = warpgroup_mma_wait(1, deps=(tok_acc_94,))
            acc_94_p1 = acc_94
            b_78_p1 = b_78
            b_ptrs_96_p1 = b_ptrs_96
            scales_83_p1 = scales_83
            zeros_84_p1 = zeros_84
        b_85 = b_78_p1 >> b  # convert0_b: stage 1, partition 0 (group 0)
        b_86 = b_85 & 15  # convert0_b: stage 1, partition 0 (group 0)
        b_87 = b_86.to(gl.float16)  # convert0_b: stage 1, partition 0 (group 0)
        b_88 = gl.convert_layout(b_87, L8)  # convert0_b: stage 1, partition 0 (group 0)
        b_89 = zeros_84_p1.broadcast_to([64, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
        b_90 = b_88 - b_89  # elementwise0_b: stage 1, partition 0 (group 0)
        b_91 = scales_83_p1.broadcast_to([64, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
        b_92 = b_90 * b_91  # elementwise0_b: stage 1, partition 0 (group 0)
        b_93 = b_93_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
        b_93.store(b_92)  # local_store0_b: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
        mbarrier.wait(a_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_acc_94 = warpgroup_mma(a_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), b_93, acc_94_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_94,))
        mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_94 = warpgroup_mma_wait(1, deps=(tok_acc_94,))
        acc_94_p1 = acc_94
        b_78_p1 = b_78
        b_ptrs_96_p2 = b_ptrs_96_p1
        b_ptrs_96_p1 = b_ptrs_96
        scales_83_p1 = scales_83
        zeros_84_p1 = zeros_84
        acc_94_p1 = warpgroup_mma_wait(0, deps=(acc_94_p1,))
        a_buf._keep_alive()
        b_93_st._keep_alive()
        mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        acc_65 = acc_94_p1.to(gl.float16)
        offs_cn = offs_n + offs_m_14
        offs_cn = gl.max_contiguous(gl.multiple_of(offs_cn, [128]), [128])
        c_ptrs_66 = a_ptrs_42 * stride_cm
        c_ptrs_67 = gl.expand_dims(offs_cn, 0)
        c_ptrs_68 = c_ptrs_66.broadcast_to([128, 128])
        c_ptrs_69 = c_ptrs_67.broadcast_to([128, 128])
        c_ptrs_70 = c_ptrs_68 + c_ptrs_69
        c_ptrs_72 = c_ptr + c_ptrs_70
        v1 = c_ptrs_67 < N
        v2 = a_mask_54.broadcast_to([128, 128])
        v3 = v1.broadcast_to([128, 128])
        v4 = v2 & v3
        v5 = gl.convert_layout(acc_65, L9)
        gl.store(c_ptrs_72, v5, mask=v4)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, scales_a_ptr, M, N, K, M_CLOSEST, stride_am, stride_bk, stride_cm, stride_meta_a_m, stride_meta_a_g, stride_meta_g, twill_g0, twill_g1, twill_g2, a_buf, b_93_st, a_ready, a_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        grid_m = M + 127
        grid_m_5 = grid_m // 128
        grid_n = N + 127
        grid_n_6 = grid_n // 128
        width = grid_n_6 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_7 = grid_m_5 - group_size
        group_size_8 = gl.minimum(group_size_7, 8)
        pid_m = pid % group_size_8
        pid_m_9 = group_size + pid_m
        num_pid_k_11 = K + 63
        num_pid_k_12 = num_pid_k_11 // 64
        offs_m = pid_m_9 * 128
        offs_m_16 = gl.arange(0, 128, layout=L3)
        offs_m_20 = offs_m + offs_m_16
        a_ptrs = gl.expand_dims(offs_m_20, 1)
        a_ptrs_44 = a_ptrs * stride_am
        a_ptrs_45 = gl.arange(0, 64, layout=L6)
        a_ptrs_46 = gl.expand_dims(a_ptrs_45, 0)
        a_ptrs_47 = a_ptrs_44.broadcast_to([128, 64])
        a_ptrs_48 = a_ptrs_46.broadcast_to([128, 64])
        a_ptrs_49 = a_ptrs_47 + a_ptrs_48
        a_ptrs_51 = a_ptr + a_ptrs_49
        a_mask_53 = a_ptrs < M
        a_mask_56 = a_ptrs_46 < K
        a_mask_57 = a_mask_53.broadcast_to([128, 64])
        a_mask_58 = a_mask_56.broadcast_to([128, 64])
        a_mask_59 = a_mask_57 & a_mask_58
        a_ptrs_75 = a_ptrs_51
        for acc_73 in range(0, num_pid_k_12, 1):
            twill_k = twill_base + (acc_73 - 0) // 1
            a_ptrs_95 = a_ptrs_75 + 64
            mbarrier.wait(a_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 3), a_ptrs_75, mask=a_mask_59, eviction_policy='evict_last')  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_ready.index(twill_k % 3), increment_count=False)
            else:
                a_buf.index(twill_k % 3).store(gl.load(a_ptrs_75, mask=a_mask_59, other=0.0, eviction_policy='evict_last'))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_ready.index(twill_k % 3), count=128)
            a_ptrs_75 = a_ptrs_95
        twill_base += (num_pid_k_12 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, scales_a_ptr, M, N, K, M_CLOSEST, stride_am, stride_bk, stride_cm, stride_meta_a_m, stride_meta_a_g, stride_meta_g, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_93_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_ready.index(i), count=128)
    a_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, scales_a_ptr, M, N, K, M_CLOSEST, stride_am, stride_bk, stride_cm, stride_meta_a_m, stride_meta_a_g, stride_meta_g, twill_g0, twill_g1, twill_g2, a_buf, b_93_st, a_ready, a_empty, TWILL_COPY)),
        (producer_1, (a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, scales_a_ptr, M, N, K, M_CLOSEST, stride_am, stride_bk, stride_cm, stride_meta_a_m, stride_meta_a_g, stride_meta_g, twill_g0, twill_g1, twill_g2, a_buf, b_93_st, a_ready, a_empty, TWILL_COPY)),
    ], [4], [64])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0]))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, scales_a_ptr, M, N, K, M_CLOSEST, stride_am, stride_bk, stride_cm, stride_meta_a_m, stride_meta_a_g, stride_meta_g):
    pid = gl.program_id(0)
    grid_m = M + 127
    grid_m_5 = grid_m // 128
    grid_n = N + 127
    grid_n_6 = grid_n // 128
    width = grid_n_6 * 8
    group_id = pid // width
    group_size = group_id * 8
    group_size_7 = grid_m_5 - group_size
    group_size_8 = gl.minimum(group_size_7, 8)
    pid_m = pid % group_size_8
    pid_m_9 = group_size + pid_m
    pid_n = pid % width
    pid_n_10 = pid_n // group_size_8
    num_pid_k_11 = K + 63
    num_pid_k_12 = num_pid_k_11 // 64
    offs_m = pid_m_9 * 128
    offs_m_13 = gl.arange(0, 128, layout=L0_short)
    offs_m_14 = gl.arange(0, 128, layout=L1_short)
    offs_m_15 = gl.arange(0, 128, layout=L2_short)
    offs_m_16 = gl.arange(0, 128, layout=L3_short)
    offs_m_17 = gl.arange(0, 128, layout=L4_short)
    offs_m_20 = offs_m + offs_m_16
    offs_m_21 = offs_m + offs_m_17
    offs_n = pid_n_10 * 128
    offs_n_25 = offs_n + offs_m_13
    offs_n_26 = offs_n + offs_m_15
    offs_k = gl.arange(0, 64, layout=L5_short)
    offs_k = gl.max_contiguous(gl.multiple_of(offs_k, [64]), [64])
    b_ptrs_27 = gl.arange(0, 64, layout=L5_short)
    b_ptrs_28 = gl.expand_dims(b_ptrs_27, 1)
    b_ptrs_29 = b_ptrs_28 // 8
    b_ptrs_31 = b_ptrs_29 * stride_bk
    b_ptrs_32 = gl.expand_dims(offs_n_25, 0)
    b_ptrs_33 = gl.expand_dims(offs_n_26, 0)
    b_ptrs_34 = b_ptrs_31.broadcast_to([64, 128])
    b_ptrs_35 = b_ptrs_32.broadcast_to([64, 128])
    b_ptrs_36 = b_ptrs_34 + b_ptrs_35
    b_ptrs_38 = b_ptr + b_ptrs_36
    q_shift_39 = offs_k % 8
    q_shift_40 = q_shift_39 * 4
    q_shift_41 = gl.expand_dims(q_shift_40, 1)
    a_ptrs = gl.expand_dims(offs_m_20, 1)
    a_ptrs_42 = gl.expand_dims(offs_m_21, 1)
    a_ptrs_44 = a_ptrs * stride_am
    a_ptrs_45 = gl.arange(0, 64, layout=L6_short)
    a_ptrs_46 = gl.expand_dims(a_ptrs_45, 0)
    a_ptrs_47 = a_ptrs_44.broadcast_to([128, 64])
    a_ptrs_48 = a_ptrs_46.broadcast_to([128, 64])
    a_ptrs_49 = a_ptrs_47 + a_ptrs_48
    a_ptrs_51 = a_ptr + a_ptrs_49
    a_mask_53 = a_ptrs < M
    a_mask_54 = a_ptrs_42 < M
    a_mask_56 = a_ptrs_46 < K
    a_mask_57 = a_mask_53.broadcast_to([128, 64])
    a_mask_58 = a_mask_56.broadcast_to([128, 64])
    a_mask_59 = a_mask_57 & a_mask_58
    scales_ptrs_60 = scales_ptr + b_ptrs_33
    zeros_ptrs_61 = zeros_ptr + b_ptrs_33
    b = q_shift_41.broadcast_to([64, 128])
    b_ptrs_62 = stride_bk * 8
    twill_n = (num_pid_k_12 - 0 + 1 - 1) // 1
    b_93_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_77_st = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_ptrs_96 = b_ptrs_38
    b_ptrs_96_p1 = b_ptrs_96
    acc_94 = gl.full([128, 128], 0.0, gl.float32, layout=L7_short)
    a_ptrs_95 = a_ptrs_51
    b_ptrs_96 = b_ptrs_96_p1 + b_ptrs_62  # load1_b: stage 0, partition 0 (group 0)
    b_78 = gl.load(b_ptrs_96_p1, eviction_policy='evict_first')  # load1_b: stage 0, partition 0 (group 0)
    k_m = gl.cast((0 + (0 - 0) * 1), gl.float32)  # load2_scales: stage 0, partition 0 (group 0)
    k_m_79 = k_m * 0.5  # load2_scales: stage 0, partition 0 (group 0)
    k_m_80 = gl.cast(k_m_79, gl.int32)  # load2_scales: stage 0, partition 0 (group 0)
    scales = k_m_80 * stride_meta_g  # load2_scales: stage 0, partition 0 (group 0)
    scales_81 = scales  # load2_scales: stage 0, partition 0 (group 0)
    zeros = zeros_ptrs_61 + scales_81  # load3_zeros: stage 0, partition 0 (group 0)
    scales_82 = scales_ptrs_60 + scales_81  # load2_scales: stage 0, partition 0 (group 0)
    zeros_84 = gl.load(zeros, eviction_policy='evict_last')  # load3_zeros: stage 0, partition 0 (group 0)
    scales_83 = gl.load(scales_82, eviction_policy='evict_last')  # load2_scales: stage 0, partition 0 (group 0)
    a_ptrs_95_p1 = a_ptrs_95
    acc_94_p1 = acc_94
    b_78_p1 = b_78
    b_ptrs_96_p1 = b_ptrs_96
    scales_83_p1 = scales_83
    zeros_84_p1 = zeros_84
    for twill_b in range(1, twill_n):
        b_ptrs_96 = b_ptrs_96_p1 + b_ptrs_62  # load1_b: stage 0, partition 0 (group 0)
        b_78 = gl.load(b_ptrs_96_p1, eviction_policy='evict_first')  # load1_b: stage 0, partition 0 (group 0)
        b_85 = b_78_p1 >> b  # convert0_b: stage 1, partition 0 (group 0)
        b_86 = b_85 & 15  # convert0_b: stage 1, partition 0 (group 0)
        b_87 = b_86.to(gl.float16)  # convert0_b: stage 1, partition 0 (group 0)
        b_88 = gl.convert_layout(b_87, L8_short)  # convert0_b: stage 1, partition 0 (group 0)
        k_m = gl.cast((0 + (twill_b - 0) * 1), gl.float32)  # load2_scales: stage 0, partition 0 (group 0)
        k_m_79 = k_m * 0.5  # load2_scales: stage 0, partition 0 (group 0)
        k_m_80 = gl.cast(k_m_79, gl.int32)  # load2_scales: stage 0, partition 0 (group 0)
        scales = k_m_80 * stride_meta_g  # load2_scales: stage 0, partition 0 (group 0)
        scales_81 = scales  # load2_scales: stage 0, partition 0 (group 0)
        zeros = zeros_ptrs_61 + scales_81  # load3_zeros: stage 0, partition 0 (group 0)
        scales_82 = scales_ptrs_60 + scales_81  # load2_scales: stage 0, partition 0 (group 0)
        zeros_84 = gl.load(zeros, eviction_policy='evict_last')  # load3_zeros: stage 0, partition 0 (group 0)
        scales_83 = gl.load(scales_82, eviction_policy='evict_last')  # load2_scales: stage 0, partition 0 (group 0)
        b_89 = zeros_84_p1.broadcast_to([64, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
        b_90 = b_88 - b_89  # elementwise0_b: stage 1, partition 0 (group 0)
        b_91 = scales_83_p1.broadcast_to([64, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
        b_92 = b_90 * b_91  # elementwise0_b: stage 1, partition 0 (group 0)
        b_93 = b_93_st.index((twill_b - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
        b_93.store(b_92)  # local_store0_b: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
        a_ptrs_95 = a_ptrs_95_p1 + 64  # load0_a: stage 1, partition 0 (group 0)
        a = gl.load(a_ptrs_95_p1, mask=a_mask_59, other=0.0, eviction_policy='evict_last')  # load0_a: stage 1, partition 0 (group 0)
        a_77 = a_77_st.index((twill_b - 1) % 2)  # load0_a: stage 1, partition 0 (group 0)
        a_77.store(a)  # load0_a: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_a: stage 1, partition 0 (group 0)
        tok_acc_94 = warpgroup_mma(a_77, b_93, acc_94_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_94,))
        acc_94 = warpgroup_mma_wait(1, deps=(tok_acc_94,))
        a_ptrs_95_p1 = a_ptrs_95
        acc_94_p1 = acc_94
        b_78_p1 = b_78
        b_ptrs_96_p1 = b_ptrs_96
        scales_83_p1 = scales_83
        zeros_84_p1 = zeros_84
    b_85 = b_78_p1 >> b  # convert0_b: stage 1, partition 0 (group 0)
    b_86 = b_85 & 15  # convert0_b: stage 1, partition 0 (group 0)
    b_87 = b_86.to(gl.float16)  # convert0_b: stage 1, partition 0 (group 0)
    b_88 = gl.convert_layout(b_87, L8_short)  # convert0_b: stage 1, partition 0 (group 0)
    b_89 = zeros_84_p1.broadcast_to([64, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
    b_90 = b_88 - b_89  # elementwise0_b: stage 1, partition 0 (group 0)
    b_91 = scales_83_p1.broadcast_to([64, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
    b_92 = b_90 * b_91  # elementwise0_b: stage 1, partition 0 (group 0)
    b_93 = b_93_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
    b_93.store(b_92)  # local_store0_b: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
    a_ptrs_95 = a_ptrs_95_p1 + 64  # load0_a: stage 1, partition 0 (group 0)
    a = gl.load(a_ptrs_95_p1, mask=a_mask_59, other=0.0, eviction_policy='evict_last')  # load0_a: stage 1, partition 0 (group 0)
    a_77 = a_77_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_a: stage 1, partition 0 (group 0)
    a_77.store(a)  # load0_a: stage 1, partition 0 (group 0)
    fence_async_shared()  # load0_a: stage 1, partition 0 (group 0)
    tok_acc_94 = warpgroup_mma(a_77, b_93, acc_94_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_acc_94,))
    acc_94 = warpgroup_mma_wait(1, deps=(tok_acc_94,))
    a_ptrs_95_p1 = a_ptrs_95
    acc_94_p1 = acc_94
    b_78_p1 = b_78
    b_ptrs_96_p2 = b_ptrs_96_p1
    b_ptrs_96_p1 = b_ptrs_96
    scales_83_p1 = scales_83
    zeros_84_p1 = zeros_84
    acc_94_p1 = warpgroup_mma_wait(0, deps=(acc_94_p1,))
    a_77_st._keep_alive()
    b_93_st._keep_alive()
    acc_65 = acc_94_p1.to(gl.float16)
    offs_cn = offs_n + offs_m_14
    offs_cn = gl.max_contiguous(gl.multiple_of(offs_cn, [128]), [128])
    c_ptrs_66 = a_ptrs_42 * stride_cm
    c_ptrs_67 = gl.expand_dims(offs_cn, 0)
    c_ptrs_68 = c_ptrs_66.broadcast_to([128, 128])
    c_ptrs_69 = c_ptrs_67.broadcast_to([128, 128])
    c_ptrs_70 = c_ptrs_68 + c_ptrs_69
    c_ptrs_72 = c_ptr + c_ptrs_70
    v1 = c_ptrs_67 < N
    v2 = a_mask_54.broadcast_to([128, 128])
    v3 = v1.broadcast_to([128, 128])
    v4 = v2 & v3
    v5 = gl.convert_layout(acc_65, L9_short)
    gl.store(c_ptrs_72, v5, mask=v4)

@gluon.jit
def twill_kernel_short(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, scales_a_ptr, M, N, K, M_CLOSEST, stride_am, stride_bk, stride_cm, stride_meta_a_m, stride_meta_a_g, stride_meta_g):
    consumer_0_short(a_ptr, b_ptr, c_ptr, scales_ptr, zeros_ptr, scales_a_ptr, M, N, K, M_CLOSEST, stride_am, stride_bk, stride_cm, stride_meta_a_m, stride_meta_a_g, stride_meta_g, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'scales_a_ptr', 'M', 'N', 'K', 'M_CLOSEST', 'W_nbits', 'group_size', 'unpack_mask', 'elements_per_sample', 'type_id', 'a_sizeof', 'b_sizeof', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_meta_a_m', 'stride_meta_a_g', 'stride_meta_g', 'stride_meta_n', 'input_dtype', 'output_dtype', 'acc_dtype', 'meta_dtype', 'channel_scale_mode', 'W_group_mode', 'zero_is_scalar', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'NUM_STAGES', 'A_load_order', 'meta_evict_policy', 'data_contiguous']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'scales_a_ptr', 'M', 'N', 'K', 'M_CLOSEST', 'stride_am', 'stride_bk', 'stride_cm', 'stride_meta_a_m', 'stride_meta_a_g', 'stride_meta_g', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'scales_a_ptr', 'M', 'N', 'K', 'M_CLOSEST', 'stride_am', 'stride_bk', 'stride_cm', 'stride_meta_a_m', 'stride_meta_a_g', 'stride_meta_g', 'input_dtype', 'output_dtype', 'acc_dtype', 'meta_dtype', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'W_nbits': 4, 'group_size': 128, 'unpack_mask': 15, 'elements_per_sample': 8, 'type_id': 0, 'a_sizeof': 2, 'b_sizeof': 4, 'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'stride_meta_n': 1, 'channel_scale_mode': 0, 'W_group_mode': 3, 'zero_is_scalar': False, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'NUM_STAGES': 4, 'A_load_order': 0, 'meta_evict_policy': 'evict_last', 'data_contiguous': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'K', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 63) // 64)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
ARGUMENTS_short = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'scales_a_ptr', 'M', 'N', 'K', 'M_CLOSEST', 'W_nbits', 'group_size', 'unpack_mask', 'elements_per_sample', 'type_id', 'a_sizeof', 'b_sizeof', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_meta_a_m', 'stride_meta_a_g', 'stride_meta_g', 'stride_meta_n', 'input_dtype', 'output_dtype', 'acc_dtype', 'meta_dtype', 'channel_scale_mode', 'W_group_mode', 'zero_is_scalar', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'NUM_STAGES', 'A_load_order', 'meta_evict_policy', 'data_contiguous']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'scales_a_ptr', 'M', 'N', 'K', 'M_CLOSEST', 'stride_am', 'stride_bk', 'stride_cm', 'stride_meta_a_m', 'stride_meta_a_g', 'stride_meta_g']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'b_ptr', 'c_ptr', 'scales_ptr', 'zeros_ptr', 'scales_a_ptr', 'M', 'N', 'K', 'M_CLOSEST', 'stride_am', 'stride_bk', 'stride_cm', 'stride_meta_a_m', 'stride_meta_a_g', 'stride_meta_g', 'input_dtype', 'output_dtype', 'acc_dtype', 'meta_dtype']   # the arguments a launch key reads
CONSTEXPRS_short = {'W_nbits': 4, 'group_size': 128, 'unpack_mask': 15, 'elements_per_sample': 8, 'type_id': 0, 'a_sizeof': 2, 'b_sizeof': 4, 'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'stride_meta_n': 1, 'channel_scale_mode': 0, 'W_group_mode': 3, 'zero_is_scalar': False, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'NUM_STAGES': 4, 'A_load_order': 0, 'meta_evict_policy': 'evict_last', 'data_contiguous': True}         # the specialisation this kernel was generated for
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
    trips = _ev_short('((K + 63) // 64)', dict(bound, **CONSTEXPRS_short))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
