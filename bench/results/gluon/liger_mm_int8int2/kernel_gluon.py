"""matmul_kernel, written by twill from its joint schedule: I=330 L=300 (optimal), 704 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_107): their addresses and masks spread over 256 threads, 7-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- the consumers' pointer loads in their readers' stage: a stage ahead, ptxas serialises the wgmmas (non wgmma instructions reading accumulator registers of  a wgmma between start and end of the pipeline stage)
- a_107 copied with cp.async at every launch, not by TMA: a later loop streams through its ring tiles that are not TMA boxes
- partition 0 (default): consumer, warp group 0, 8 warps, 200 registers per thread (needs about 104): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 48 registers per thread (needs about 48): cp.async copies into the rings
- ring a_107: 7 buffers of [128, 64] i8 (the loads run 6 iteration(s) ahead), read by partition(s) 0
- shared operand accumulator_113_st: partition 0 stores the loop's [64, 128] i8 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 73856 bytes planned of 232448; maxnreg 128
- loop at liger_mm_int8int2.py:100 (TTGIR line 139) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=330, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at liger_mm_int8int2.py:100 (TTGIR line 165) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=330, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at liger_mm_int8int2.py:100 (TTGIR line 191) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=330, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[4, 2], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[4, 2], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 32]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, M, N, stride_am, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, a_107_buf, accumulator_113_st, accumulator_115_l1_st, accumulator_115_l2_st, accumulator_115_l3_st, a_107_ready, a_107_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_13 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_14 = num_pid_n // 128
        num_pid_in_group = num_pid_n_14 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_13 - first_pid_m
        group_size_m_15 = gl.minimum(group_size_m, 8)
        pid_m = pid % num_pid_in_group
        pid_m_16 = pid_m % group_size_m_15
        pid_m_17 = first_pid_m + pid_m_16
        pid_n = pid_m // group_size_m_15
        offs_am = pid_m_17 * 128
        offs_am_18 = gl.arange(0, 128, layout=L0)
        offs_am_19 = gl.arange(0, 128, layout=L1)
        offs_am_20 = gl.arange(0, 128, layout=L2)
        offs_am_21 = gl.arange(0, 128, layout=L3)
        offs_am_22 = gl.arange(0, 128, layout=L4)
        offs_am_26 = offs_am + offs_am_18
        offs_am_27 = offs_am + offs_am_19
        offs_am_28 = offs_am + offs_am_20
        offs_am_31 = offs_am_26 % M
        offs_am_32 = offs_am_27 % M
        offs_bn = pid_n * 128
        offs_bn_35 = offs_bn + offs_am_21
        offs_bn_36 = offs_bn + offs_am_22
        offs_bn_38 = offs_bn_35 % N
        a_ptrs = gl.expand_dims(offs_am_31, 1)
        a_ptrs_39 = gl.expand_dims(offs_am_32, 1)
        a_ptrs_42 = a_ptrs * stride_am
        a_ptrs_43 = a_ptrs_39 * stride_am
        a_ptrs_44 = gl.arange(0, 64, layout=L5)
        a_ptrs_45 = gl.arange(0, 64, layout=L6)
        a_ptrs_46 = gl.expand_dims(a_ptrs_44, 0)
        a_ptrs_47 = gl.expand_dims(a_ptrs_45, 0)
        a_ptrs_48 = a_ptrs_42.broadcast_to([128, 64])
        a_ptrs_49 = a_ptrs_43.broadcast_to([128, 64])
        a_ptrs_50 = a_ptrs_46.broadcast_to([128, 64])
        a_ptrs_51 = a_ptrs_47.broadcast_to([128, 64])
        a_ptrs_52 = a_ptrs_48 + a_ptrs_50
        a_ptrs_53 = a_ptrs_49 + a_ptrs_51
        a_ptrs_56 = a_ptr + a_ptrs_52
        a_ptrs_57 = a_ptr + a_ptrs_53
        b_ptrs = gl.arange(0, 64, layout=L7)
        b_ptrs_58 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_60 = b_ptrs_58 * stride_bk
        b_ptrs_61 = gl.expand_dims(offs_bn_38, 0)
        b_ptrs_62 = b_ptrs_60.broadcast_to([64, 128])
        b_ptrs_63 = b_ptrs_61.broadcast_to([64, 128])
        b_ptrs_64 = b_ptrs_62 + b_ptrs_63
        b_ptrs_66 = b_ptr + b_ptrs_64
        b_uint8 = b_ptrs_58 < 4096
        b_uint8_67 = b_uint8.broadcast_to([64, 128])
        b_ptrs_68 = stride_bk * 64
        twill_n = (16 - 0 + 1 - 1) // 1
        accumulator_114 = gl.full([128, 128], 0, gl.int32, layout=L8)
        b_ptrs_117 = b_ptrs_66
        accumulator_114_p1 = accumulator_114
        b_ptrs_117_p1 = b_ptrs_117
        for twill_b in range(0, twill_n):
            b_ptrs_117 = b_ptrs_117_p1 + b_ptrs_68  # load1_b_uint8: stage 0, partition 0 (group 0)
            b_uint8_109 = gl.load(b_ptrs_117_p1, mask=b_uint8_67, other=0)  # load1_b_uint8: stage 0, partition 0 (group 0)
            b = gl.cast(gl.cast(b_uint8_109, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            b_110 = b & 3  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_111 = b_110.to(gl.int8)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_112 = accumulator_111 - 1  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_113 = accumulator_113_st.index((twill_b - 0) % 2)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_113.store(accumulator_112)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            fence_async_shared()  # local_store0_accumulator: stage 0, partition 0 (group 0)
            mbarrier.wait(a_107_ready.index((twill_base + twill_b - 0) % 7), ((twill_base + twill_b - 0) // 7) & 1)
            fence_async_shared()
            tok_accumulator_114 = warpgroup_mma(a_107_buf.index((twill_base + twill_b - 0) % 7), accumulator_113, accumulator_114_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            accumulator_114_p1 = warpgroup_mma_wait(1, deps=(accumulator_114_p1,))
            mbarrier.arrive(a_107_empty.index((twill_base + twill_b - 1 - 0) % 7), pred=(twill_b - 1 - 0) >= 0)
            accumulator_114 = warpgroup_mma_wait(1, deps=(tok_accumulator_114,))
            accumulator_114_p1 = accumulator_114
            b_ptrs_117_p1 = b_ptrs_117
        accumulator_114_p1 = warpgroup_mma_wait(0, deps=(accumulator_114_p1,))
        a_107_buf._keep_alive()
        accumulator_113_st._keep_alive()
        mbarrier.arrive(a_107_empty.index((twill_base + (twill_n - 1) - 0) % 7), pred=twill_n > 0)
        twill_base += twill_n
        b_uint8_70 = b_ptrs_58 < 4096
        b_uint8_71 = b_uint8_70.broadcast_to([64, 128])
        b_ptrs_72 = stride_bk * 64
        twill_n = (16 - 0 + 1 - 1) // 1
        accumulator_116_l1 = accumulator_114_p1
        b_ptrs_118_l1 = b_ptrs_66
        accumulator_116_l1_p1 = accumulator_116_l1
        b_ptrs_118_l1_p1 = b_ptrs_118_l1
        for twill_b in range(0, twill_n):
            b_ptrs_118_l1 = b_ptrs_118_l1_p1 + b_ptrs_72  # load1_b_uint8: stage 0, partition 0 (group 0)
            b_uint8_110_l1 = gl.load(b_ptrs_118_l1_p1, mask=b_uint8_71, other=0)  # load1_b_uint8: stage 0, partition 0 (group 0)
            b_l1 = gl.cast(gl.cast(b_uint8_110_l1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            b_111_l1 = b_l1 & 12  # local_store0_accumulator: stage 0, partition 0 (group 0)
            b_112_l1 = b_111_l1 >> 2  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_113_l1 = b_112_l1.to(gl.int8)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_114_l1 = accumulator_113_l1 - 1  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_115_l1 = accumulator_115_l1_st.index((twill_b - 0) % 2)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_115_l1.store(accumulator_114_l1)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            fence_async_shared()  # local_store0_accumulator: stage 0, partition 0 (group 0)
            mbarrier.wait(a_107_ready.index((twill_base + twill_b - 0) % 7), ((twill_base + twill_b - 0) // 7) & 1)
            fence_async_shared()
            tok_accumulator_116_l1 = warpgroup_mma(a_107_buf.index((twill_base + twill_b - 0) % 7), accumulator_115_l1, accumulator_116_l1_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            accumulator_116_l1_p1 = warpgroup_mma_wait(1, deps=(accumulator_116_l1_p1,))
            mbarrier.arrive(a_107_empty.index((twill_base + twill_b - 1 - 0) % 7), pred=(twill_b - 1 - 0) >= 0)
            accumulator_116_l1 = warpgroup_mma_wait(1, deps=(tok_accumulator_116_l1,))
            accumulator_116_l1_p1 = accumulator_116_l1
            b_ptrs_118_l1_p1 = b_ptrs_118_l1
        accumulator_116_l1_p1 = warpgroup_mma_wait(0, deps=(accumulator_116_l1_p1,))
        a_107_buf._keep_alive()
        accumulator_115_l1_st._keep_alive()
        mbarrier.arrive(a_107_empty.index((twill_base + (twill_n - 1) - 0) % 7), pred=twill_n > 0)
        twill_base += twill_n
        b_uint8_75 = b_ptrs_58 < 4096
        b_uint8_76 = b_uint8_75.broadcast_to([64, 128])
        b_ptrs_77 = stride_bk * 64
        twill_n = (16 - 0 + 1 - 1) // 1
        accumulator_116_l2 = accumulator_116_l1_p1
        b_ptrs_118_l2 = b_ptrs_66
        accumulator_116_l2_p1 = accumulator_116_l2
        b_ptrs_118_l2_p1 = b_ptrs_118_l2
        for twill_b in range(0, twill_n):
            b_ptrs_118_l2 = b_ptrs_118_l2_p1 + b_ptrs_77  # load1_b_uint8: stage 0, partition 0 (group 0)
            b_uint8_110_l2 = gl.load(b_ptrs_118_l2_p1, mask=b_uint8_76, other=0)  # load1_b_uint8: stage 0, partition 0 (group 0)
            b_l2 = gl.cast(gl.cast(b_uint8_110_l2, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            b_111_l2 = b_l2 & 48  # local_store0_accumulator: stage 0, partition 0 (group 0)
            b_112_l2 = b_111_l2 >> 4  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_113_l2 = b_112_l2.to(gl.int8)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_114_l2 = accumulator_113_l2 - 1  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_115_l2 = accumulator_115_l2_st.index((twill_b - 0) % 2)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_115_l2.store(accumulator_114_l2)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            fence_async_shared()  # local_store0_accumulator: stage 0, partition 0 (group 0)
            mbarrier.wait(a_107_ready.index((twill_base + twill_b - 0) % 7), ((twill_base + twill_b - 0) // 7) & 1)
            fence_async_shared()
            tok_accumulator_116_l2 = warpgroup_mma(a_107_buf.index((twill_base + twill_b - 0) % 7), accumulator_115_l2, accumulator_116_l2_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            accumulator_116_l2_p1 = warpgroup_mma_wait(1, deps=(accumulator_116_l2_p1,))
            mbarrier.arrive(a_107_empty.index((twill_base + twill_b - 1 - 0) % 7), pred=(twill_b - 1 - 0) >= 0)
            accumulator_116_l2 = warpgroup_mma_wait(1, deps=(tok_accumulator_116_l2,))
            accumulator_116_l2_p1 = accumulator_116_l2
            b_ptrs_118_l2_p1 = b_ptrs_118_l2
        accumulator_116_l2_p1 = warpgroup_mma_wait(0, deps=(accumulator_116_l2_p1,))
        a_107_buf._keep_alive()
        accumulator_115_l2_st._keep_alive()
        mbarrier.arrive(a_107_empty.index((twill_base + (twill_n - 1) - 0) % 7), pred=twill_n > 0)
        twill_base += twill_n
        b_uint8_80 = b_ptrs_58 < 4096
        b_uint8_81 = b_uint8_80.broadcast_to([64, 128])
        b_ptrs_82 = stride_bk * 64
        twill_n = (16 - 0 + 1 - 1) // 1
        accumulator_116_l3 = accumulator_116_l2_p1
        b_ptrs_118_l3 = b_ptrs_66
        accumulator_116_l3_p1 = accumulator_116_l3
        b_ptrs_118_l3_p1 = b_ptrs_118_l3
        for twill_b in range(0, twill_n):
            b_ptrs_118_l3 = b_ptrs_118_l3_p1 + b_ptrs_82  # load1_b_uint8: stage 0, partition 0 (group 0)
            b_uint8_110_l3 = gl.load(b_ptrs_118_l3_p1, mask=b_uint8_81, other=0)  # load1_b_uint8: stage 0, partition 0 (group 0)
            b_l3 = gl.cast(gl.cast(b_uint8_110_l3, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            b_111_l3 = b_l3 & 192  # local_store0_accumulator: stage 0, partition 0 (group 0)
            b_112_l3 = b_111_l3 >> 6  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_113_l3 = b_112_l3.to(gl.int8)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_114_l3 = accumulator_113_l3 - 1  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_115_l3 = accumulator_115_l3_st.index((twill_b - 0) % 2)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            accumulator_115_l3.store(accumulator_114_l3)  # local_store0_accumulator: stage 0, partition 0 (group 0)
            fence_async_shared()  # local_store0_accumulator: stage 0, partition 0 (group 0)
            mbarrier.wait(a_107_ready.index((twill_base + twill_b - 0) % 7), ((twill_base + twill_b - 0) // 7) & 1)
            fence_async_shared()
            tok_accumulator_116_l3 = warpgroup_mma(a_107_buf.index((twill_base + twill_b - 0) % 7), accumulator_115_l3, accumulator_116_l3_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            accumulator_116_l3_p1 = warpgroup_mma_wait(1, deps=(accumulator_116_l3_p1,))
            mbarrier.arrive(a_107_empty.index((twill_base + twill_b - 1 - 0) % 7), pred=(twill_b - 1 - 0) >= 0)
            accumulator_116_l3 = warpgroup_mma_wait(1, deps=(tok_accumulator_116_l3,))
            accumulator_116_l3_p1 = accumulator_116_l3
            b_ptrs_118_l3_p1 = b_ptrs_118_l3
        accumulator_116_l3_p1 = warpgroup_mma_wait(0, deps=(accumulator_116_l3_p1,))
        a_107_buf._keep_alive()
        accumulator_115_l3_st._keep_alive()
        mbarrier.arrive(a_107_empty.index((twill_base + (twill_n - 1) - 0) % 7), pred=twill_n > 0)
        c_ptrs = gl.expand_dims(offs_am_28, 1)
        c_ptrs_86 = stride_cm * c_ptrs
        c_ptrs_88 = c_ptr + c_ptrs_86
        c_ptrs_89 = gl.expand_dims(offs_bn_36, 0)
        c_ptrs_90 = c_ptrs_88.broadcast_to([128, 128])
        c_ptrs_91 = c_ptrs_89.broadcast_to([128, 128])
        c_ptrs_92 = c_ptrs_90 + c_ptrs_91
        c_mask_93 = c_ptrs < M
        c_mask_95 = c_ptrs_89 < N
        c_mask_96 = c_mask_93.broadcast_to([128, 128])
        c_mask_97 = c_mask_95.broadcast_to([128, 128])
        c_mask_98 = c_mask_96 & c_mask_97
        v0 = gl.convert_layout(accumulator_116_l3_p1, L9)
        gl.store(c_ptrs_92, v0, mask=c_mask_98)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, M, N, stride_am, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, a_107_buf, accumulator_113_st, accumulator_115_l1_st, accumulator_115_l2_st, accumulator_115_l3_st, a_107_ready, a_107_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_13 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_14 = num_pid_n // 128
        num_pid_in_group = num_pid_n_14 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_13 - first_pid_m
        group_size_m_15 = gl.minimum(group_size_m, 8)
        pid_m = pid % num_pid_in_group
        pid_m_16 = pid_m % group_size_m_15
        pid_m_17 = first_pid_m + pid_m_16
        offs_am = pid_m_17 * 128
        offs_am_18 = gl.arange(0, 128, layout=L0)
        offs_am_19 = gl.arange(0, 128, layout=L0)
        offs_am_26 = offs_am + offs_am_18
        offs_am_27 = offs_am + offs_am_19
        offs_am_31 = offs_am_26 % M
        offs_am_32 = offs_am_27 % M
        a_ptrs = gl.expand_dims(offs_am_31, 1)
        a_ptrs_39 = gl.expand_dims(offs_am_32, 1)
        a_ptrs_42 = a_ptrs * stride_am
        a_ptrs_43 = a_ptrs_39 * stride_am
        a_ptrs_44 = gl.arange(0, 64, layout=L5)
        a_ptrs_45 = gl.arange(0, 64, layout=L5)
        a_ptrs_46 = gl.expand_dims(a_ptrs_44, 0)
        a_ptrs_47 = gl.expand_dims(a_ptrs_45, 0)
        a_ptrs_48 = a_ptrs_42.broadcast_to([128, 64])
        a_ptrs_49 = a_ptrs_43.broadcast_to([128, 64])
        a_ptrs_50 = a_ptrs_46.broadcast_to([128, 64])
        a_ptrs_51 = a_ptrs_47.broadcast_to([128, 64])
        a_ptrs_52 = a_ptrs_48 + a_ptrs_50
        a_ptrs_53 = a_ptrs_49 + a_ptrs_51
        a_ptrs_56 = a_ptr + a_ptrs_52
        a_ptrs_57 = a_ptr + a_ptrs_53
        a_ptrs_100 = a_ptrs_57
        a_ptrs_101 = a_ptrs_56
        for accumulator_99 in range(0, 16, 1):
            twill_k = twill_base + (accumulator_99 - 0) // 1
            a = accumulator_99 * 64
            a_103 = 4096 - a
            a_105 = a_ptrs_46 < a_103
            a_106 = a_105.broadcast_to([128, 64])
            a_ptrs_115 = a_ptrs_101 + 64
            a_ptrs_116 = a_ptrs_100 + 64
            mbarrier.wait(a_107_empty.index(twill_k % 7), ((twill_k // 7) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_107_buf.index(twill_k % 7), a_ptrs_101, mask=a_106)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_107_ready.index(twill_k % 7), increment_count=False)
            else:
                a_107_buf.index(twill_k % 7).store(gl.load(a_ptrs_101, mask=a_106, other=0))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_107_ready.index(twill_k % 7), count=256)
            a_ptrs_100 = a_ptrs_116
            a_ptrs_101 = a_ptrs_115
        twill_base += (16 - 0 + 1 - 1) // 1
        accumulator_100_l1 = a_ptrs_100
        for accumulator_99_l1 in range(0, 16, 1):
            twill_k = twill_base + (accumulator_99_l1 - 0) // 1
            k_l1 = accumulator_99_l1 + 16
            a_l1 = k_l1 * 64
            a_103_l1 = 4096 - a_l1
            a_105_l1 = a_ptrs_46 < a_103_l1
            a_106_l1 = a_105_l1.broadcast_to([128, 64])
            a_107_l1 = gl.convert_layout(accumulator_100_l1, L10)
            a_ptrs_117_l1 = accumulator_100_l1 + 64
            mbarrier.wait(a_107_empty.index(twill_k % 7), ((twill_k // 7) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_107_buf.index(twill_k % 7), a_107_l1, mask=a_106_l1)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_107_ready.index(twill_k % 7), increment_count=False)
            else:
                a_107_buf.index(twill_k % 7).store(gl.load(a_107_l1, mask=a_106_l1, other=0))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_107_ready.index(twill_k % 7), count=256)
            accumulator_100_l1 = a_ptrs_117_l1
        twill_base += (16 - 0 + 1 - 1) // 1
        accumulator_100_l2 = accumulator_100_l1
        for accumulator_99_l2 in range(0, 16, 1):
            twill_k = twill_base + (accumulator_99_l2 - 0) // 1
            k_l2 = accumulator_99_l2 + 32
            a_l2 = k_l2 * 64
            a_103_l2 = 4096 - a_l2
            a_105_l2 = a_ptrs_46 < a_103_l2
            a_106_l2 = a_105_l2.broadcast_to([128, 64])
            a_107_l2 = gl.convert_layout(accumulator_100_l2, L10)
            a_ptrs_117_l2 = accumulator_100_l2 + 64
            mbarrier.wait(a_107_empty.index(twill_k % 7), ((twill_k // 7) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_107_buf.index(twill_k % 7), a_107_l2, mask=a_106_l2)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_107_ready.index(twill_k % 7), increment_count=False)
            else:
                a_107_buf.index(twill_k % 7).store(gl.load(a_107_l2, mask=a_106_l2, other=0))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_107_ready.index(twill_k % 7), count=256)
            accumulator_100_l2 = a_ptrs_117_l2
        twill_base += (16 - 0 + 1 - 1) // 1
        accumulator_100_l3 = accumulator_100_l2
        for accumulator_99_l3 in range(0, 16, 1):
            twill_k = twill_base + (accumulator_99_l3 - 0) // 1
            k_l3 = accumulator_99_l3 + 48
            a_l3 = k_l3 * 64
            a_103_l3 = 4096 - a_l3
            a_105_l3 = a_ptrs_46 < a_103_l3
            a_106_l3 = a_105_l3.broadcast_to([128, 64])
            a_107_l3 = gl.convert_layout(accumulator_100_l3, L10)
            a_ptrs_117_l3 = accumulator_100_l3 + 64
            mbarrier.wait(a_107_empty.index(twill_k % 7), ((twill_k // 7) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_107_buf.index(twill_k % 7), a_107_l3, mask=a_106_l3)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_107_ready.index(twill_k % 7), increment_count=False)
            else:
                a_107_buf.index(twill_k % 7).store(gl.load(a_107_l3, mask=a_106_l3, other=0))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_107_ready.index(twill_k % 7), count=256)
            accumulator_100_l3 = a_ptrs_117_l3
        twill_base += (16 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, M, N, stride_am, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    a_107_buf = gl.allocate_shared_memory(gl.int8, [7, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=8, rank=2, transposed=False))
    accumulator_113_st = gl.allocate_shared_memory(gl.int8, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=8, rank=2, transposed=True))
    accumulator_115_l1_st = accumulator_113_st
    accumulator_115_l2_st = accumulator_113_st
    accumulator_115_l3_st = accumulator_113_st
    a_107_ready = gl.allocate_shared_memory(gl.int64, [7, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(7):
        mbarrier.init(a_107_ready.index(i), count=256)
    a_107_empty = gl.allocate_shared_memory(gl.int64, [7, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(7):
        mbarrier.init(a_107_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, M, N, stride_am, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, a_107_buf, accumulator_113_st, accumulator_115_l1_st, accumulator_115_l2_st, accumulator_115_l3_st, a_107_ready, a_107_empty, TWILL_COPY)),
        (producer_1, (a_ptr, b_ptr, c_ptr, M, N, stride_am, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, a_107_buf, accumulator_113_st, accumulator_115_l1_st, accumulator_115_l2_st, accumulator_115_l3_st, a_107_ready, a_107_empty, TWILL_COPY)),
    ], [8], [48])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'stride_am', 'stride_bk', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'stride_am', 'stride_bk', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'K': 4096, 'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = 128
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
