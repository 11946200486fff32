"""matmul_kernel_persistent_bias_act, written by twill from its joint schedule: I=330 L=297 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- a_101 copied with cp.async at every launch, not by TMA: %offs_am_32: rows past its clamp (tl.where) read row 0, not a box's zeros, and it reaches math.exp
- b_106 copied with cp.async at every launch, not by TMA: %offs_bn_34: rows past its clamp (tl.where) read row 0, not a box's zeros, and it reaches math.exp
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_101, b_106): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 104): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_101: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring b_106: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 131216 bytes planned of 232448; maxnreg 128
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 1 each of the producer's (((K + 63) // 64), from the launch's arguments), the launch runs the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 128 registers, clean, 2 CTA(s) an SM against the producer's 1; simulated for 0, 1, 2, 3, 8 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L3 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_101_buf, b_106_buf, a_101_ready, a_101_empty, b_106_ready, b_106_empty, TWILL_COPY: gl.constexpr):
    start_pid = gl.program_id(0)
    num_pid_m = M + 127
    num_pid_m_8 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_9 = num_pid_n // 128
    num_tiles = num_pid_m_8 * num_pid_n_9
    tile_id_c = start_pid - 132
    tile_id_c_23 = tile_id_c
    twill_tile_lb = start_pid
    twill_tile_step = 132
    twill_base = 0
    for tile_id in range(twill_tile_lb, num_tiles, twill_tile_step):
        num_pid_m = M + 127
        num_pid_m_8 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_9 = num_pid_n // 128
        k_tiles_10 = K + 63
        k_tiles_11 = k_tiles_10 // 64
        num_pid_in_group = num_pid_n_9 * 8
        offs_am_13 = gl.arange(0, 128, layout=L0)
        offs_am_14 = gl.arange(0, 128, layout=L1)
        offs_am_15 = gl.arange(0, 128, layout=L2)
        twill_n = (k_tiles_11 - 0 + 1 - 1) // 1
        accumulator_108 = gl.full([128, 128], 0.0, gl.float32, layout=L3)
        accumulator_108_p1 = accumulator_108
        for twill_b in range(0, twill_n):
            mbarrier.wait(a_101_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(b_106_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_accumulator_108 = warpgroup_mma(a_101_buf.index((twill_base + twill_b - 0) % 4), b_106_buf.index((twill_base + twill_b - 0) % 4), accumulator_108_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            accumulator_108_p1 = warpgroup_mma_wait(1, deps=(accumulator_108_p1,))
            mbarrier.arrive(a_101_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_106_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            accumulator_108 = warpgroup_mma_wait(1, deps=(tok_accumulator_108,))
            accumulator_108_p1 = accumulator_108
        accumulator_108_p1 = warpgroup_mma_wait(0, deps=(accumulator_108_p1,))
        a_101_buf._keep_alive()
        b_106_buf._keep_alive()
        mbarrier.arrive(a_101_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(b_106_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        tile_id_c_40 = tile_id_c_23 + 132
        group_id_41 = tile_id_c_40 // num_pid_in_group
        first_pid_m_42 = group_id_41 * 8
        group_size_m_43 = num_pid_m_8 - first_pid_m_42
        group_size_m_44 = gl.minimum(group_size_m_43, 8)
        pid_m_45 = tile_id_c_40 % group_size_m_44
        pid_m_46 = first_pid_m_42 + pid_m_45
        pid_n_47 = tile_id_c_40 % num_pid_in_group
        pid_n_48 = pid_n_47 // group_size_m_44
        offs_cm = pid_m_46 * 128
        offs_cm_50 = offs_cm + offs_am_13
        offs_cn = pid_n_48 * 128
        offs_cn_53 = offs_cn + offs_am_15
        offs_cn_54 = offs_cn + offs_am_14
        bias_55 = offs_cn_53 < N
        bias_56 = bias_ptr + offs_cn_53
        bias_57 = gl.load(bias_56, mask=bias_55, other=0.0)
        accumulator_58 = gl.expand_dims(bias_57, 0)
        accumulator_59 = accumulator_58.broadcast_to([128, 128])
        accumulator_60 = accumulator_108_p1 + accumulator_59
        accumulator_61 = accumulator_60 * 0.044715
        accumulator_62 = accumulator_61 * accumulator_60
        accumulator_63 = accumulator_62 * accumulator_60
        accumulator_64 = accumulator_60 + accumulator_63
        accumulator_65 = accumulator_64 * 1.59576917
        accumulator_66 = 0.0 - accumulator_65
        accumulator_67 = gl.exp(accumulator_66)
        accumulator_68 = accumulator_67 + 1.0
        accumulator_69 = 1.0 / accumulator_68
        accumulator_70 = accumulator_60 * accumulator_69
        c_ptrs_71 = gl.expand_dims(offs_cm_50, 1)
        c_ptrs_72 = stride_cm * c_ptrs_71
        c_ptrs_73 = c_ptr + c_ptrs_72
        c_ptrs_74 = gl.expand_dims(offs_cn_54, 0)
        c_ptrs_75 = c_ptrs_73.broadcast_to([128, 128])
        c_ptrs_76 = c_ptrs_74.broadcast_to([128, 128])
        c_ptrs_77 = c_ptrs_75 + c_ptrs_76
        c_mask_78 = c_ptrs_71 < M
        c_mask_79 = c_ptrs_74 < N
        c_mask_80 = c_mask_78.broadcast_to([128, 128])
        c_mask_81 = c_mask_79.broadcast_to([128, 128])
        c_mask_82 = c_mask_80 & c_mask_81
        c = accumulator_70.to(gl.float16)
        v0 = gl.convert_layout(c, L4)
        gl.store(c_ptrs_77, v0, mask=c_mask_82)
        tile_id_c_23 = tile_id_c_40
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_101_buf, b_106_buf, a_101_ready, a_101_empty, b_106_ready, b_106_empty, TWILL_COPY: gl.constexpr):
    start_pid = gl.program_id(0)
    num_pid_m = M + 127
    num_pid_m_8 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_9 = num_pid_n // 128
    num_tiles = num_pid_m_8 * num_pid_n_9
    tile_id_c = start_pid - 132
    twill_tile_lb = start_pid
    twill_tile_step = 132
    twill_base = 0
    for tile_id in range(twill_tile_lb, num_tiles, twill_tile_step):
        num_pid_m = M + 127
        num_pid_m_8 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_9 = num_pid_n // 128
        k_tiles_10 = K + 63
        k_tiles_11 = k_tiles_10 // 64
        offs_k_for_mask = gl.arange(0, 64, layout=L5)
        offs_k_for_mask_12 = gl.arange(0, 64, layout=L0)
        num_pid_in_group = num_pid_n_9 * 8
        offs_am = gl.arange(0, 128, layout=L6)
        offs_am_14 = gl.arange(0, 128, layout=L1)
        a = gl.expand_dims(offs_k_for_mask, 0)
        b = gl.expand_dims(offs_k_for_mask_12, 1)
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_8 - first_pid_m
        group_size_m_24 = gl.minimum(group_size_m, 8)
        pid_m = tile_id % group_size_m_24
        pid_m_25 = first_pid_m + pid_m
        pid_n = tile_id % num_pid_in_group
        pid_n_26 = pid_n // group_size_m_24
        start_m = pid_m_25 * 128
        start_n = pid_n_26 * 128
        offs_am_28 = start_m + offs_am
        offs_bn_30 = start_n + offs_am_14
        offs_am_31 = offs_am_28 < M
        offs_am_32 = gl.where(offs_am_31, offs_am_28, 0)
        offs_am_32 = gl.max_contiguous(gl.multiple_of(offs_am_32, [128]), [128])
        offs_bn_33 = offs_bn_30 < N
        offs_bn_34 = gl.where(offs_bn_33, offs_bn_30, 0)
        offs_bn_34 = gl.max_contiguous(gl.multiple_of(offs_bn_34, [128]), [128])
        a_ptrs_35 = gl.expand_dims(offs_am_32, 1)
        a_ptrs_36 = a_ptrs_35 * stride_am
        a_ptrs_37 = a_ptrs_36.broadcast_to([128, 64])
        b_ptrs_38 = gl.expand_dims(offs_bn_34, 0)
        b_ptrs_39 = b_ptrs_38.broadcast_to([64, 128])
        for accumulator_83 in range(0, k_tiles_11, 1):
            twill_k = twill_base + (accumulator_83 - 0) // 1
            offs_k = accumulator_83 * 64
            offs_k_86 = offs_k + offs_k_for_mask
            offs_k_87 = offs_k + offs_k_for_mask_12
            a_ptrs_88 = gl.expand_dims(offs_k_86, 0)
            a_ptrs_89 = a_ptrs_88.broadcast_to([128, 64])
            a_ptrs_90 = a_ptrs_37 + a_ptrs_89
            a_ptrs_91 = a_ptr + a_ptrs_90
            b_ptrs_92 = gl.expand_dims(offs_k_87, 1)
            b_ptrs_93 = b_ptrs_92 * stride_bk
            b_ptrs_94 = b_ptrs_93.broadcast_to([64, 128])
            b_ptrs_95 = b_ptrs_94 + b_ptrs_39
            b_ptrs_96 = b_ptr + b_ptrs_95
            a_97 = K - offs_k
            a_99 = a < a_97
            a_100 = a_99.broadcast_to([128, 64])
            b_104 = b < a_97
            b_105 = b_104.broadcast_to([64, 128])
            mbarrier.wait(a_101_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_101_buf.index(twill_k % 4), a_ptrs_91, mask=a_100)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_101_ready.index(twill_k % 4), increment_count=False)
            else:
                a_101_buf.index(twill_k % 4).store(gl.load(a_ptrs_91, mask=a_100, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_101_ready.index(twill_k % 4), count=256)
            mbarrier.wait(b_106_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_106_buf.index(twill_k % 4), b_ptrs_96, mask=b_105)  # load1_b: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_106_ready.index(twill_k % 4), increment_count=False)
            else:
                b_106_buf.index(twill_k % 4).store(gl.load(b_ptrs_96, mask=b_105, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_106_ready.index(twill_k % 4), count=256)
        twill_trips = (k_tiles_11 - 0 + 1 - 1) // 1
        twill_base += twill_trips

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bk, stride_cm, TWILL_COPY: gl.constexpr):
    a_101_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_106_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_101_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_101_ready.index(i), count=256)
    a_101_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_101_empty.index(i), count=1)
    b_106_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_106_ready.index(i), count=256)
    b_106_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_106_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_101_buf, b_106_buf, a_101_ready, a_101_empty, b_106_ready, b_106_empty, TWILL_COPY)),
        (producer_1, (a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_101_buf, b_106_buf, a_101_ready, a_101_empty, b_106_ready, b_106_empty, TWILL_COPY)),
    ], [8], [64])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L5_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L6_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bk, stride_cm):
    twill_base = 0
    num_pid_m = M + 127
    num_pid_m_8 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_9 = num_pid_n // 128
    k_tiles_10 = K + 63
    k_tiles_11 = k_tiles_10 // 64
    offs_k_for_mask = gl.arange(0, 64, layout=L0_short)
    offs_k_for_mask_12 = gl.arange(0, 64, layout=L1_short)
    num_pid_in_group = num_pid_n_9 * 8
    offs_am = gl.arange(0, 128, layout=L2_short)
    offs_am_13 = gl.arange(0, 128, layout=L1_short)
    offs_am_14 = gl.arange(0, 128, layout=L3_short)
    offs_am_15 = gl.arange(0, 128, layout=L4_short)
    a = gl.expand_dims(offs_k_for_mask, 0)
    b = gl.expand_dims(offs_k_for_mask_12, 1)
    start_pid = gl.program_id(0)
    num_tiles = num_pid_m_8 * num_pid_n_9
    tile_id_c = start_pid - 132
    tile_id_c_23 = tile_id_c
    twill_tile_lb = start_pid
    twill_tile_step = 132
    for tile_id in range(twill_tile_lb, num_tiles, twill_tile_step):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_8 - first_pid_m
        group_size_m_24 = gl.minimum(group_size_m, 8)
        pid_m = tile_id % group_size_m_24
        pid_m_25 = first_pid_m + pid_m
        pid_n = tile_id % num_pid_in_group
        pid_n_26 = pid_n // group_size_m_24
        start_m = pid_m_25 * 128
        start_n = pid_n_26 * 128
        offs_am_28 = start_m + offs_am
        offs_bn_30 = start_n + offs_am_14
        offs_am_31 = offs_am_28 < M
        offs_am_32 = gl.where(offs_am_31, offs_am_28, 0)
        offs_am_32 = gl.max_contiguous(gl.multiple_of(offs_am_32, [128]), [128])
        offs_bn_33 = offs_bn_30 < N
        offs_bn_34 = gl.where(offs_bn_33, offs_bn_30, 0)
        offs_bn_34 = gl.max_contiguous(gl.multiple_of(offs_bn_34, [128]), [128])
        a_ptrs_35 = gl.expand_dims(offs_am_32, 1)
        a_ptrs_36 = a_ptrs_35 * stride_am
        a_ptrs_37 = a_ptrs_36.broadcast_to([128, 64])
        b_ptrs_38 = gl.expand_dims(offs_bn_34, 0)
        b_ptrs_39 = b_ptrs_38.broadcast_to([64, 128])
        twill_n = (k_tiles_11 - 0 + 1 - 1) // 1
        a_102_st = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        b_107_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        accumulator_108 = gl.full([128, 128], 0.0, gl.float32, layout=L5_short)
        accumulator_108_p1 = accumulator_108
        for twill_b in range(0, twill_n):
            offs_k = (0 + (twill_b - 0) * 1) * 64  # load0_a: stage 0, partition 0 (group 0)
            offs_k_84 = offs_k  # load0_a: stage 0, partition 0 (group 0)
            offs_k_85 = offs_k  # load1_b: stage 0, partition 0 (group 0)
            offs_k_86 = offs_k_84 + offs_k_for_mask  # load0_a: stage 0, partition 0 (group 0)
            offs_k_87 = offs_k_85 + offs_k_for_mask_12  # load1_b: stage 0, partition 0 (group 0)
            a_ptrs_88 = gl.expand_dims(offs_k_86, 0)  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_92 = gl.expand_dims(offs_k_87, 1)  # load1_b: stage 0, partition 0 (group 0)
            a_ptrs_89 = a_ptrs_88.broadcast_to([128, 64])  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_93 = b_ptrs_92 * stride_bk  # load1_b: stage 0, partition 0 (group 0)
            a_97 = K - offs_k  # load0_a: stage 0, partition 0 (group 0)
            a_ptrs_90 = a_ptrs_37 + a_ptrs_89  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_94 = b_ptrs_93.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
            a_98 = a_97  # load0_a: stage 0, partition 0 (group 0)
            a_99 = a < a_98  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_95 = b_ptrs_94 + b_ptrs_39  # load1_b: stage 0, partition 0 (group 0)
            a_ptrs_91 = a_ptr + a_ptrs_90  # load0_a: stage 0, partition 0 (group 0)
            a_100 = a_99.broadcast_to([128, 64])  # load0_a: stage 0, partition 0 (group 0)
            b_103 = a_97  # load1_b: stage 0, partition 0 (group 0)
            b_ptrs_96 = b_ptr + b_ptrs_95  # load1_b: stage 0, partition 0 (group 0)
            b_104 = b < b_103  # load1_b: stage 0, partition 0 (group 0)
            a_101 = gl.load(a_ptrs_91, mask=a_100, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
            b_105 = b_104.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
            a_102 = a_102_st.index((twill_b - 0) % 2)  # load0_a: stage 0, partition 0 (group 0)
            a_102.store(a_101)  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            b_106 = gl.load(b_ptrs_96, mask=b_105, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
            b_107 = b_107_st.index((twill_b - 0) % 2)  # load1_b: stage 0, partition 0 (group 0)
            b_107.store(b_106)  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            tok_accumulator_108 = warpgroup_mma(a_102, b_107, accumulator_108_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            accumulator_108_p1 = warpgroup_mma_wait(1, deps=(accumulator_108_p1,))
            accumulator_108 = warpgroup_mma_wait(1, deps=(tok_accumulator_108,))
            accumulator_108_p1 = accumulator_108
        accumulator_108_p1 = warpgroup_mma_wait(0, deps=(accumulator_108_p1,))
        a_102_st._keep_alive()
        b_107_st._keep_alive()
        tile_id_c_40 = tile_id_c_23 + 132
        group_id_41 = tile_id_c_40 // num_pid_in_group
        first_pid_m_42 = group_id_41 * 8
        group_size_m_43 = num_pid_m_8 - first_pid_m_42
        group_size_m_44 = gl.minimum(group_size_m_43, 8)
        pid_m_45 = tile_id_c_40 % group_size_m_44
        pid_m_46 = first_pid_m_42 + pid_m_45
        pid_n_47 = tile_id_c_40 % num_pid_in_group
        pid_n_48 = pid_n_47 // group_size_m_44
        offs_cm = pid_m_46 * 128
        offs_cm_50 = offs_cm + offs_am_13
        offs_cn = pid_n_48 * 128
        offs_cn_53 = offs_cn + offs_am_15
        offs_cn_54 = offs_cn + offs_am_14
        bias_55 = offs_cn_53 < N
        bias_56 = bias_ptr + offs_cn_53
        bias_57 = gl.load(bias_56, mask=bias_55, other=0.0)
        accumulator_58 = gl.expand_dims(bias_57, 0)
        accumulator_59 = accumulator_58.broadcast_to([128, 128])
        accumulator_60 = accumulator_108_p1 + accumulator_59
        accumulator_61 = accumulator_60 * 0.044715
        accumulator_62 = accumulator_61 * accumulator_60
        accumulator_63 = accumulator_62 * accumulator_60
        accumulator_64 = accumulator_60 + accumulator_63
        accumulator_65 = accumulator_64 * 1.59576917
        accumulator_66 = 0.0 - accumulator_65
        accumulator_67 = gl.exp(accumulator_66)
        accumulator_68 = accumulator_67 + 1.0
        accumulator_69 = 1.0 / accumulator_68
        accumulator_70 = accumulator_60 * accumulator_69
        c_ptrs_71 = gl.expand_dims(offs_cm_50, 1)
        c_ptrs_72 = stride_cm * c_ptrs_71
        c_ptrs_73 = c_ptr + c_ptrs_72
        c_ptrs_74 = gl.expand_dims(offs_cn_54, 0)
        c_ptrs_75 = c_ptrs_73.broadcast_to([128, 128])
        c_ptrs_76 = c_ptrs_74.broadcast_to([128, 128])
        c_ptrs_77 = c_ptrs_75 + c_ptrs_76
        c_mask_78 = c_ptrs_71 < M
        c_mask_79 = c_ptrs_74 < N
        c_mask_80 = c_mask_78.broadcast_to([128, 128])
        c_mask_81 = c_mask_79.broadcast_to([128, 128])
        c_mask_82 = c_mask_80 & c_mask_81
        c = accumulator_70.to(gl.float16)
        v0 = gl.convert_layout(c, L6_short)
        gl.store(c_ptrs_77, v0, mask=c_mask_82)
        tile_id_c_23 = tile_id_c_40
        twill_base += twill_n

@gluon.jit
def twill_kernel_short(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bk, stride_cm):
    consumer_0_short(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bk, stride_cm, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'NUM_SMS', 'NUM_STAGES', 'DISALLOW_ACC_MULTI_BUFFER', 'FLATTEN', 'ACTIVATION']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'NUM_SMS': 132, 'NUM_STAGES': 4, 'DISALLOW_ACC_MULTI_BUFFER': True, 'FLATTEN': False, 'ACTIVATION': 'gelu'}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'K', 'stride_am', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'NUM_SMS', 'NUM_STAGES', 'DISALLOW_ACC_MULTI_BUFFER', 'FLATTEN', 'ACTIVATION']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'NUM_SMS': 132, 'NUM_STAGES': 4, 'DISALLOW_ACC_MULTI_BUFFER': True, 'FLATTEN': False, 'ACTIVATION': 'gelu'}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 8
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


SHORT_TRIPS = '((K + 63) // 64)'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
SHORT_LIMIT = 8      # at most this many: the one-partition kernel (``launch_short``), else ``launch_long``
SHORT_LIMIT_FULL = 32      # ... or this many where the launch's CTAs outnumber what the SMs hold of the producer's
LONG_CTAS_PER_SM = 1      # (the producer's CTAs an SM; the one partition holds more: run 95); 0: no such rule


def launch(grid, *args, **kwargs):
    """Run the one-partition kernel where the loop is short at this launch, else the warp-specialized one."""
    bound = dict(zip(ARGUMENTS, args), **CONSTEXPRS)
    bound.update(kwargs)
    try:
        trips = _ev(SHORT_TRIPS, bound)
    except (NameError, TypeError):          # an argument missing or not a number: the long kernel's launch says
        return launch_long(grid, *args, **kwargs)
    limit = SHORT_LIMIT
    if SHORT_LIMIT < trips <= SHORT_LIMIT_FULL:
        try:
            ctas = 1
            for x in (grid(bound) if callable(grid) else grid):
                ctas *= int(x)
            if ctas > _sm_count() * LONG_CTAS_PER_SM:
                limit = SHORT_LIMIT_FULL
        except Exception:                   # noqa: BLE001 - no device to count the SMs of: the lower limit
            pass
    return (launch_short if trips <= limit else launch_long)(grid, *args, **kwargs)
