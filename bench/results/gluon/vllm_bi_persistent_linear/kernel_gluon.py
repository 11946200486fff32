"""matmul_kernel_persistent, written by twill from its joint schedule: I=330 L=297 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_89, b_94): their addresses and masks spread over 256 threads, 5-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- a_89, b_94 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr, b_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies; offs_am_30, offs_bn_32 clamped by tl.where: the box reads zeros past the bound where the clamp reads row 0, and those rows reach only accumulator rows every store masks off
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 104): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_89: 5 buffers of [128, 64] bf16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- ring b_94: 5 buffers of [64, 128] bf16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- shared memory: 164016 bytes planned of 232448; maxnreg 128
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 1 each of the producer's (((K + 63) // 64), from the launch's arguments), the launch runs the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 127 registers, clean, 2 CTA(s) an SM against the producer's 1; simulated for 0, 1, 2, 3, 8 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_box_a_89, twill_box_b_94, a_89_buf, b_94_buf, a_89_ready, a_89_empty, b_94_ready, b_94_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    start_pid = gl.program_id(0)
    num_pid_m = M + 127
    num_pid_m_5 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_6 = num_pid_n // 128
    num_tiles = num_pid_m_5 * num_pid_n_6
    tile_id_c = start_pid - 132
    tile_id_c_21 = tile_id_c
    twill_tile_lb = start_pid
    twill_tile_step = 132
    twill_base = 0
    for tile_id in range(twill_tile_lb, num_tiles, twill_tile_step):
        num_pid_m = M + 127
        num_pid_m_5 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_6 = num_pid_n // 128
        k_tiles_7 = K + 63
        k_tiles_8 = k_tiles_7 // 64
        num_pid_in_group = num_pid_n_6 * 8
        offs_am_10 = gl.arange(0, 128, layout=L0)
        offs_am_12 = gl.arange(0, 128, layout=L1)
        offs_am_13 = gl.arange(0, 128, layout=L2)
        twill_n = (k_tiles_8 - 0 + 1 - 1) // 1
        accumulator_96 = gl.full([128, 128], 0.0, gl.float32, layout=L3)
        accumulator_96_p1 = accumulator_96
        for twill_b in range(0, twill_n):
            mbarrier.wait(a_89_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
            fence_async_shared()
            mbarrier.wait(b_94_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
            fence_async_shared()
            tok_accumulator_96 = warpgroup_mma(a_89_buf.index((twill_base + twill_b - 0) % 5), b_94_buf.index((twill_base + twill_b - 0) % 5).permute((1, 0)), accumulator_96_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            accumulator_96_p1 = warpgroup_mma_wait(1, deps=(accumulator_96_p1,))
            mbarrier.arrive(a_89_empty.index((twill_base + twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_94_empty.index((twill_base + twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
            accumulator_96 = warpgroup_mma_wait(1, deps=(tok_accumulator_96,))
            accumulator_96_p1 = accumulator_96
        accumulator_96_p1 = warpgroup_mma_wait(0, deps=(accumulator_96_p1,))
        a_89_buf._keep_alive()
        b_94_buf._keep_alive()
        mbarrier.arrive(a_89_empty.index((twill_base + (twill_n - 1) - 0) % 5), pred=twill_n > 0)
        mbarrier.arrive(b_94_empty.index((twill_base + (twill_n - 1) - 0) % 5), pred=twill_n > 0)
        tile_id_c_39 = tile_id_c_21 + 132
        group_id_40 = tile_id_c_39 // num_pid_in_group
        first_pid_m_41 = group_id_40 * 8
        group_size_m_42 = num_pid_m_5 - first_pid_m_41
        group_size_m_43 = gl.minimum(group_size_m_42, 8)
        pid_m_44 = tile_id_c_39 % group_size_m_43
        pid_m_45 = first_pid_m_41 + pid_m_44
        pid_n_46 = tile_id_c_39 % num_pid_in_group
        pid_n_47 = pid_n_46 // group_size_m_43
        offs_cm = pid_m_45 * 128
        offs_cm_49 = offs_cm + offs_am_10
        offs_cn = pid_n_47 * 128
        offs_cn_52 = offs_cn + offs_am_12
        offs_cn_53 = offs_cn + offs_am_13
        c_ptrs_54 = gl.expand_dims(offs_cm_49, 1)
        c_ptrs_55 = stride_cm * c_ptrs_54
        c_ptrs_56 = c_ptr + c_ptrs_55
        c_ptrs_57 = gl.expand_dims(offs_cn_53, 0)
        c_ptrs_58 = c_ptrs_56.broadcast_to([128, 128])
        c_ptrs_59 = c_ptrs_57.broadcast_to([128, 128])
        c_ptrs_60 = c_ptrs_58 + c_ptrs_59
        c_mask_61 = c_ptrs_54 < M
        c_mask_62 = c_ptrs_57 < N
        c_mask_63 = c_mask_61.broadcast_to([128, 128])
        c_mask_64 = c_mask_62.broadcast_to([128, 128])
        c_mask_65 = c_mask_63 & c_mask_64
        bias_ptrs_66 = bias_ptr + offs_cn_52
        bias = offs_cn_52 < N
        bias_67 = gl.load(bias_ptrs_66, mask=bias, other=0.0)
        bias_68 = bias_67.to(gl.float32)
        accumulator_69 = gl.expand_dims(bias_68, 0)
        accumulator_70 = accumulator_69.broadcast_to([128, 128])
        accumulator_71 = accumulator_96_p1 + accumulator_70
        c = accumulator_71.to(gl.bfloat16)
        v0 = gl.convert_layout(c, L4)
        gl.store(c_ptrs_60, v0, mask=c_mask_65)
        tile_id_c_21 = tile_id_c_39
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_box_a_89, twill_box_b_94, a_89_buf, b_94_buf, a_89_ready, a_89_empty, b_94_ready, b_94_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    start_pid = gl.program_id(0)
    num_pid_m = M + 127
    num_pid_m_5 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_6 = num_pid_n // 128
    num_tiles = num_pid_m_5 * num_pid_n_6
    tile_id_c = start_pid - 132
    twill_tile_lb = start_pid
    twill_tile_step = 132
    twill_base = 0
    for tile_id in range(twill_tile_lb, num_tiles, twill_tile_step):
        num_pid_m = M + 127
        num_pid_m_5 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_6 = num_pid_n // 128
        k_tiles_7 = K + 63
        k_tiles_8 = k_tiles_7 // 64
        offs_k_for_mask = gl.arange(0, 64, layout=L5)
        offs_k_for_mask_9 = gl.arange(0, 64, layout=L6)
        num_pid_in_group = num_pid_n_6 * 8
        offs_am = gl.arange(0, 128, layout=L7)
        offs_am_11 = gl.arange(0, 128, layout=L8)
        a = gl.expand_dims(offs_k_for_mask, 0)
        b = gl.expand_dims(offs_k_for_mask_9, 1)
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_5 - first_pid_m
        group_size_m_22 = gl.minimum(group_size_m, 8)
        pid_m = tile_id % group_size_m_22
        pid_m_23 = first_pid_m + pid_m
        pid_n = tile_id % num_pid_in_group
        pid_n_24 = pid_n // group_size_m_22
        start_m = pid_m_23 * 128
        start_n = pid_n_24 * 128
        offs_am_26 = start_m + offs_am
        offs_bn_28 = start_n + offs_am_11
        offs_am_29 = offs_am_26 < M
        offs_am_30 = gl.where(offs_am_29, offs_am_26, 0)
        offs_am_30 = gl.max_contiguous(gl.multiple_of(offs_am_30, [128]), [128])
        offs_bn_31 = offs_bn_28 < N
        offs_bn_32 = gl.where(offs_bn_31, offs_bn_28, 0)
        offs_bn_32 = gl.max_contiguous(gl.multiple_of(offs_bn_32, [128]), [128])
        a_ptrs_33 = gl.expand_dims(offs_am_30, 1)
        a_ptrs_34 = a_ptrs_33 * stride_am
        a_ptrs_35 = a_ptrs_34.broadcast_to([128, 64])
        b_ptrs_36 = gl.expand_dims(offs_bn_32, 0)
        b_ptrs_37 = b_ptrs_36 * stride_bn
        b_ptrs_38 = b_ptrs_37.broadcast_to([64, 128])
        for accumulator_72 in range(0, k_tiles_8, 1):
            twill_k = twill_base + (accumulator_72 - 0) // 1
            offs_k = accumulator_72 * 64
            offs_k_75 = offs_k + offs_k_for_mask
            offs_k_76 = offs_k + offs_k_for_mask_9
            a_ptrs_77 = gl.expand_dims(offs_k_75, 0)
            a_ptrs_78 = a_ptrs_77.broadcast_to([128, 64])
            a_ptrs_79 = a_ptrs_35 + a_ptrs_78
            a_ptrs_80 = a_ptr + a_ptrs_79
            b_ptrs_81 = gl.expand_dims(offs_k_76, 1)
            b_ptrs_82 = b_ptrs_81.broadcast_to([64, 128])
            b_ptrs_83 = b_ptrs_82 + b_ptrs_38
            b_ptrs_84 = b_ptr + b_ptrs_83
            a_85 = K - offs_k
            a_87 = a < a_85
            a_88 = a_87.broadcast_to([128, 64])
            b_92 = b < a_85
            b_93 = b_92.broadcast_to([64, 128])
            mbarrier.wait(a_89_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_89_ready.index(twill_k % 5), twill_box_a_89.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a_89, [1024 * group_id + 128 * pid_m, 64 * accumulator_72], a_89_ready.index(twill_k % 5), a_89_buf.index(twill_k % 5))  # load0_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_89_buf.index(twill_k % 5), a_ptrs_80, mask=a_88)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_89_ready.index(twill_k % 5), increment_count=False)
                else:
                    a_89_buf.index(twill_k % 5).store(gl.load(a_ptrs_80, mask=a_88, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_89_ready.index(twill_k % 5), count=256)
            mbarrier.wait(b_94_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(b_94_ready.index(twill_k % 5), twill_box_b_94.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_b_94, [128 * pid_n_24, 64 * accumulator_72], b_94_ready.index(twill_k % 5), b_94_buf.index(twill_k % 5))  # load1_b: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(b_94_buf.index(twill_k % 5).permute((1, 0)), b_ptrs_84, mask=b_93)  # load1_b: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(b_94_ready.index(twill_k % 5), increment_count=False)
                else:
                    b_94_buf.index(twill_k % 5).permute((1, 0)).store(gl.load(b_ptrs_84, mask=b_93, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(b_94_ready.index(twill_k % 5), count=256)
        twill_trips = (k_tiles_8 - 0 + 1 - 1) // 1
        twill_base += twill_trips

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_box_a_89, twill_box_b_94, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_89_buf = gl.allocate_shared_memory(gl.bfloat16, [5, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_94_buf = gl.allocate_shared_memory(gl.bfloat16, [5, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_89_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_89_ready.index(i), count=1 if TWILL_TMA else 256)
    a_89_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_89_empty.index(i), count=1)
    b_94_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_94_ready.index(i), count=1 if TWILL_TMA else 256)
    b_94_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_94_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_box_a_89, twill_box_b_94, a_89_buf, b_94_buf, a_89_ready, a_89_empty, b_94_ready, b_94_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_box_a_89, twill_box_b_94, a_89_buf, b_94_buf, a_89_ready, a_89_empty, b_94_ready, b_94_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [64])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L7_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L8_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm):
    twill_base = 0
    num_pid_m = M + 127
    num_pid_m_5 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_6 = num_pid_n // 128
    k_tiles_7 = K + 63
    k_tiles_8 = k_tiles_7 // 64
    offs_k_for_mask = gl.arange(0, 64, layout=L0_short)
    offs_k_for_mask_9 = gl.arange(0, 64, layout=L1_short)
    num_pid_in_group = num_pid_n_6 * 8
    offs_am = gl.arange(0, 128, layout=L2_short)
    offs_am_10 = gl.arange(0, 128, layout=L3_short)
    offs_am_11 = gl.arange(0, 128, layout=L4_short)
    offs_am_12 = gl.arange(0, 128, layout=L5_short)
    offs_am_13 = gl.arange(0, 128, layout=L6_short)
    a = gl.expand_dims(offs_k_for_mask, 0)
    b = gl.expand_dims(offs_k_for_mask_9, 1)
    start_pid = gl.program_id(0)
    num_tiles = num_pid_m_5 * num_pid_n_6
    tile_id_c = start_pid - 132
    tile_id_c_21 = tile_id_c
    twill_tile_lb = start_pid
    twill_tile_step = 132
    for tile_id in range(twill_tile_lb, num_tiles, twill_tile_step):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_5 - first_pid_m
        group_size_m_22 = gl.minimum(group_size_m, 8)
        pid_m = tile_id % group_size_m_22
        pid_m_23 = first_pid_m + pid_m
        pid_n = tile_id % num_pid_in_group
        pid_n_24 = pid_n // group_size_m_22
        start_m = pid_m_23 * 128
        start_n = pid_n_24 * 128
        offs_am_26 = start_m + offs_am
        offs_bn_28 = start_n + offs_am_11
        offs_am_29 = offs_am_26 < M
        offs_am_30 = gl.where(offs_am_29, offs_am_26, 0)
        offs_am_30 = gl.max_contiguous(gl.multiple_of(offs_am_30, [128]), [128])
        offs_bn_31 = offs_bn_28 < N
        offs_bn_32 = gl.where(offs_bn_31, offs_bn_28, 0)
        offs_bn_32 = gl.max_contiguous(gl.multiple_of(offs_bn_32, [128]), [128])
        a_ptrs_33 = gl.expand_dims(offs_am_30, 1)
        a_ptrs_34 = a_ptrs_33 * stride_am
        a_ptrs_35 = a_ptrs_34.broadcast_to([128, 64])
        b_ptrs_36 = gl.expand_dims(offs_bn_32, 0)
        b_ptrs_37 = b_ptrs_36 * stride_bn
        b_ptrs_38 = b_ptrs_37.broadcast_to([64, 128])
        twill_n = (k_tiles_8 - 0 + 1 - 1) // 1
        a_90_st = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        b_95_st = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        accumulator_96 = gl.full([128, 128], 0.0, gl.float32, layout=L7_short)
        accumulator_96_p1 = accumulator_96
        for twill_b in range(0, twill_n):
            offs_k = (0 + (twill_b - 0) * 1) * 64  # load0_a: stage 0, partition 0 (group 0)
            offs_k_73 = offs_k  # load0_a: stage 0, partition 0 (group 0)
            offs_k_75 = offs_k_73 + offs_k_for_mask  # load0_a: stage 0, partition 0 (group 0)
            offs_k_74 = offs_k  # load1_b: stage 0, partition 0 (group 0)
            a_ptrs_77 = gl.expand_dims(offs_k_75, 0)  # load0_a: stage 0, partition 0 (group 0)
            offs_k_76 = offs_k_74 + offs_k_for_mask_9  # load1_b: stage 0, partition 0 (group 0)
            a_ptrs_78 = a_ptrs_77.broadcast_to([128, 64])  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_81 = gl.expand_dims(offs_k_76, 1)  # load1_b: stage 0, partition 0 (group 0)
            a_85 = K - offs_k  # load0_a: stage 0, partition 0 (group 0)
            a_ptrs_79 = a_ptrs_35 + a_ptrs_78  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_82 = b_ptrs_81.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
            a_86 = a_85  # load0_a: stage 0, partition 0 (group 0)
            a_87 = a < a_86  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_83 = b_ptrs_82 + b_ptrs_38  # load1_b: stage 0, partition 0 (group 0)
            a_ptrs_80 = a_ptr + a_ptrs_79  # load0_a: stage 0, partition 0 (group 0)
            a_88 = a_87.broadcast_to([128, 64])  # load0_a: stage 0, partition 0 (group 0)
            b_91 = a_85  # load1_b: stage 0, partition 0 (group 0)
            b_ptrs_84 = b_ptr + b_ptrs_83  # load1_b: stage 0, partition 0 (group 0)
            b_92 = b < b_91  # load1_b: stage 0, partition 0 (group 0)
            a_89 = gl.load(a_ptrs_80, mask=a_88, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
            b_93 = b_92.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
            a_90 = a_90_st.index((twill_b - 0) % 2)  # load0_a: stage 0, partition 0 (group 0)
            a_90.store(a_89)  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            b_94 = gl.load(b_ptrs_84, mask=b_93, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
            b_95 = b_95_st.index((twill_b - 0) % 2)  # load1_b: stage 0, partition 0 (group 0)
            b_95.store(b_94)  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            tok_accumulator_96 = warpgroup_mma(a_90, b_95, accumulator_96_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            accumulator_96_p1 = warpgroup_mma_wait(1, deps=(accumulator_96_p1,))
            accumulator_96 = warpgroup_mma_wait(1, deps=(tok_accumulator_96,))
            accumulator_96_p1 = accumulator_96
        accumulator_96_p1 = warpgroup_mma_wait(0, deps=(accumulator_96_p1,))
        a_90_st._keep_alive()
        b_95_st._keep_alive()
        tile_id_c_39 = tile_id_c_21 + 132
        group_id_40 = tile_id_c_39 // num_pid_in_group
        first_pid_m_41 = group_id_40 * 8
        group_size_m_42 = num_pid_m_5 - first_pid_m_41
        group_size_m_43 = gl.minimum(group_size_m_42, 8)
        pid_m_44 = tile_id_c_39 % group_size_m_43
        pid_m_45 = first_pid_m_41 + pid_m_44
        pid_n_46 = tile_id_c_39 % num_pid_in_group
        pid_n_47 = pid_n_46 // group_size_m_43
        offs_cm = pid_m_45 * 128
        offs_cm_49 = offs_cm + offs_am_10
        offs_cn = pid_n_47 * 128
        offs_cn_52 = offs_cn + offs_am_12
        offs_cn_53 = offs_cn + offs_am_13
        c_ptrs_54 = gl.expand_dims(offs_cm_49, 1)
        c_ptrs_55 = stride_cm * c_ptrs_54
        c_ptrs_56 = c_ptr + c_ptrs_55
        c_ptrs_57 = gl.expand_dims(offs_cn_53, 0)
        c_ptrs_58 = c_ptrs_56.broadcast_to([128, 128])
        c_ptrs_59 = c_ptrs_57.broadcast_to([128, 128])
        c_ptrs_60 = c_ptrs_58 + c_ptrs_59
        c_mask_61 = c_ptrs_54 < M
        c_mask_62 = c_ptrs_57 < N
        c_mask_63 = c_mask_61.broadcast_to([128, 128])
        c_mask_64 = c_mask_62.broadcast_to([128, 128])
        c_mask_65 = c_mask_63 & c_mask_64
        bias_ptrs_66 = bias_ptr + offs_cn_52
        bias = offs_cn_52 < N
        bias_67 = gl.load(bias_ptrs_66, mask=bias, other=0.0)
        bias_68 = bias_67.to(gl.float32)
        accumulator_69 = gl.expand_dims(bias_68, 0)
        accumulator_70 = accumulator_69.broadcast_to([128, 128])
        accumulator_71 = accumulator_96_p1 + accumulator_70
        c = accumulator_71.to(gl.bfloat16)
        v0 = gl.convert_layout(c, L8_short)
        gl.store(c_ptrs_60, v0, mask=c_mask_65)
        tile_id_c_21 = tile_id_c_39
        twill_base += twill_n

@gluon.jit
def twill_kernel_short(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm):
    consumer_0_short(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'NUM_SMS', 'A_LARGE', 'B_LARGE', 'C_LARGE', 'HAS_BIAS']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bn', 'stride_cm', 'twill_box_a_89', 'twill_box_b_94']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bn', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'NUM_SMS': 132, 'A_LARGE': False, 'B_LARGE': False, 'C_LARGE': False, 'HAS_BIAS': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_89': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_b_94': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_89': ('a_ptr', ['stride_am', '1'], ['M', 'K'], [128, 64], []), 'twill_box_b_94': ('b_ptr', ['stride_bn', '1'], ['N', 'K'], [128, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'K', 'stride_am', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'NUM_SMS', 'A_LARGE', 'B_LARGE', 'C_LARGE', 'HAS_BIAS']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bn', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'b_ptr', 'c_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bn', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'NUM_SMS': 132, 'A_LARGE': False, 'B_LARGE': False, 'C_LARGE': False, 'HAS_BIAS': True}         # the specialisation this kernel was generated for
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
