"""grouped_matmul_kernel, written by twill from its joint schedule: I=330 L=297 (optimal), 640 cycles per iteration predicted.

Decisions (each from the schedule):
- a copied with cp.async at every launch, not by TMA: its addresses go through tt.int_to_ptr (%a_ptr_22), which the analysis does not follow
- b copied with cp.async at every launch, not by TMA: its addresses go through tt.int_to_ptr (%b_ptr_24), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a, b): their addresses and masks spread over 128 threads
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a: 5 buffers of [128, 32] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- ring b: 5 buffers of [32, 128] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- shared memory: 82096 bytes planned of 232448; maxnreg 256
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 2 iteration(s) ahead, 65536 bytes of shared memory compiled, ptxas 242 registers, clean; none (one partition, no mbarrier) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0]))

@gluon.jit
def consumer_0(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr):
    tile_idx = gl.program_id(0)
    tile_idx_7 = tile_idx
    last_problem_end_8 = gl.to_tensor(0)
    twill_base = 0
    for g in range(0, group_size, 1):
        gm = g * 3
        gm_9 = group_gemm_sizes + gm
        gm_10 = gl.load(gm_9)
        gn = gm_9 + 1
        gn_11 = gl.load(gn)
        num_m_tiles = gm_10 + 127
        num_m_tiles_13 = num_m_tiles // 128
        num_n_tiles = gn_11 + 127
        num_n_tiles_14 = num_n_tiles // 128
        num_tiles = num_m_tiles_13 * num_n_tiles_14
        v0 = last_problem_end_8 + num_tiles
        tile_idx_17 = tile_idx_7
        v3_b62 = tile_idx_17 >= last_problem_end_8
        v4 = tile_idx_17 < v0
        v5 = v3_b62 & v4
        twill_go1 = v5
        while twill_go1:
            offs_am = gl.arange(0, 128, layout=L0)
            offs_am_1 = gl.arange(0, 128, layout=L1)
            offs_am_2 = gl.arange(0, 128, layout=L2)
            offs_am_3 = gl.arange(0, 128, layout=L3)
            a_ptrs = gl.arange(0, 32, layout=L4)
            a_ptrs_4 = gl.expand_dims(a_ptrs, 0)
            a_ptrs_5 = a_ptrs_4.broadcast_to([128, 32])
            b_ptrs = gl.arange(0, 32, layout=L5)
            b_ptrs_6 = gl.expand_dims(b_ptrs, 1)
            gm = g * 3
            gm_9 = group_gemm_sizes + gm
            gn = gm_9 + 1
            gn_11 = gl.load(gn)
            gk = gm_9 + 2
            gk_12 = gl.load(gk)
            num_n_tiles = gn_11 + 127
            num_n_tiles_14 = num_n_tiles // 128
            lda = g_lds + gm
            ldb = lda + 1
            ldc = lda + 2
            a_ptr = group_a_ptrs + g
            b_ptr = group_b_ptrs + g
            c_ptr = group_c_ptrs + g
            v1 = gk_12 + 31
            v2 = v1 // 32
            lda_18 = gl.load(lda)
            ldb_19 = gl.load(ldb)
            ldc_20 = gl.load(ldc)
            a_ptr_21 = gl.load(a_ptr)
            a_ptr_22 = a_ptr_21.to(gl.pointer_type(gl.float16))
            b_ptr_23 = gl.load(b_ptr)
            b_ptr_24 = b_ptr_23.to(gl.pointer_type(gl.float16))
            c_ptr_25 = gl.load(c_ptr)
            c_ptr_26 = c_ptr_25.to(gl.pointer_type(gl.float16))
            tile_idx_in_gemm = tile_idx_17 - last_problem_end_8
            tile_m_idx = tile_idx_in_gemm // num_n_tiles_14
            tile_n_idx = tile_idx_in_gemm % num_n_tiles_14
            offs_am_27 = tile_m_idx * 128
            offs_am_30 = offs_am_27 + offs_am
            offs_am_31 = offs_am_27 + offs_am_1
            offs_bn = tile_n_idx * 128
            offs_bn_34 = offs_bn + offs_am_2
            offs_bn_35 = offs_bn + offs_am_3
            a_ptrs_36 = gl.expand_dims(offs_am_30, 1)
            a_ptrs_37 = gl.expand_dims(offs_am_31, 1)
            a_ptrs_39 = a_ptrs_36 * lda_18
            a_ptrs_41 = a_ptr_22 + a_ptrs_39
            a_ptrs_42 = a_ptrs_41.broadcast_to([128, 32])
            a_ptrs_43 = a_ptrs_42 + a_ptrs_5
            a_ptrs_43 = gl.multiple_of(a_ptrs_43, [16, 16])
            b_ptrs_45 = b_ptrs_6 * ldb_19
            b_ptrs_47 = b_ptr_24 + b_ptrs_45
            b_ptrs_48 = gl.expand_dims(offs_bn_34, 0)
            b_ptrs_49 = gl.expand_dims(offs_bn_35, 0)
            b_ptrs_50 = b_ptrs_47.broadcast_to([32, 128])
            b_ptrs_51 = b_ptrs_48.broadcast_to([32, 128])
            b_ptrs_52 = b_ptrs_50 + b_ptrs_51
            b_ptrs_52 = gl.multiple_of(b_ptrs_52, [16, 16])
            twill_n = (v2 - 0 + 1 - 1) // 1
            accumulator_67 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
            accumulator_67_p1 = accumulator_67
            for twill_b in range(0, twill_n):
                mbarrier.wait(a_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
                fence_async_shared()
                mbarrier.wait(b_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
                fence_async_shared()
                tok_accumulator_67 = warpgroup_mma(a_buf.index((twill_base + twill_b - 0) % 5), b_buf.index((twill_base + twill_b - 0) % 5), accumulator_67_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
                accumulator_67_p1 = warpgroup_mma_wait(1, deps=(accumulator_67_p1,))
                mbarrier.arrive(a_empty.index((twill_base + twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
                mbarrier.arrive(b_empty.index((twill_base + twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
                accumulator_67 = warpgroup_mma_wait(1, deps=(tok_accumulator_67,))
                accumulator_67_p1 = accumulator_67
            accumulator_67_p1 = warpgroup_mma_wait(0, deps=(accumulator_67_p1,))
            a_buf._keep_alive()
            b_buf._keep_alive()
            mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1) - 0) % 5), pred=twill_n > 0)
            mbarrier.arrive(b_empty.index((twill_base + (twill_n - 1) - 0) % 5), pred=twill_n > 0)
            c = accumulator_67_p1.to(gl.float16)
            c_ptrs_55 = ldc_20 * a_ptrs_37
            c_ptrs_57 = c_ptr_26 + c_ptrs_55
            c_ptrs_58 = c_ptrs_57.broadcast_to([128, 128])
            c_ptrs_59 = b_ptrs_49.broadcast_to([128, 128])
            c_ptrs_60 = c_ptrs_58 + c_ptrs_59
            v3 = gl.convert_layout(c, L7)
            gl.store(c_ptrs_60, v3)
            tile_idx_61 = tile_idx_17 + 132
            tile_idx_17 = tile_idx_61
            twill_base += twill_n
            v3_b62 = tile_idx_17 >= last_problem_end_8
            v4 = tile_idx_17 < v0
            v5 = v3_b62 & v4
            twill_go1 = v5
        last_problem_end_16 = last_problem_end_8 + num_tiles
        tile_idx_7 = tile_idx_17
        last_problem_end_8 = last_problem_end_16

@gluon.jit
def producer_1(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr):
    tile_idx = gl.program_id(0)
    tile_idx_7 = tile_idx
    last_problem_end_8 = gl.to_tensor(0)
    twill_base = 0
    for g in range(0, group_size, 1):
        gm = g * 3
        gm_9 = group_gemm_sizes + gm
        gm_10 = gl.load(gm_9)
        gn = gm_9 + 1
        gn_11 = gl.load(gn)
        num_m_tiles = gm_10 + 127
        num_m_tiles_13 = num_m_tiles // 128
        num_n_tiles = gn_11 + 127
        num_n_tiles_14 = num_n_tiles // 128
        num_tiles = num_m_tiles_13 * num_n_tiles_14
        v0 = last_problem_end_8 + num_tiles
        tile_idx_17 = tile_idx_7
        v3_b62 = tile_idx_17 >= last_problem_end_8
        v4 = tile_idx_17 < v0
        v5 = v3_b62 & v4
        twill_go1 = v5
        while twill_go1:
            offs_am = gl.arange(0, 128, layout=L0)
            offs_am_2 = gl.arange(0, 128, layout=L2)
            a_ptrs = gl.arange(0, 32, layout=L4)
            a_ptrs_4 = gl.expand_dims(a_ptrs, 0)
            a_ptrs_5 = a_ptrs_4.broadcast_to([128, 32])
            b_ptrs = gl.arange(0, 32, layout=L5)
            b_ptrs_6 = gl.expand_dims(b_ptrs, 1)
            gm = g * 3
            gm_9 = group_gemm_sizes + gm
            gn = gm_9 + 1
            gn_11 = gl.load(gn)
            gk = gm_9 + 2
            gk_12 = gl.load(gk)
            num_n_tiles = gn_11 + 127
            num_n_tiles_14 = num_n_tiles // 128
            lda = g_lds + gm
            ldb = lda + 1
            a_ptr = group_a_ptrs + g
            b_ptr = group_b_ptrs + g
            v1 = gk_12 + 31
            v2 = v1 // 32
            lda_18 = gl.load(lda)
            ldb_19 = gl.load(ldb)
            a_ptr_21 = gl.load(a_ptr)
            a_ptr_22 = a_ptr_21.to(gl.pointer_type(gl.float16))
            b_ptr_23 = gl.load(b_ptr)
            b_ptr_24 = b_ptr_23.to(gl.pointer_type(gl.float16))
            tile_idx_in_gemm = tile_idx_17 - last_problem_end_8
            tile_m_idx = tile_idx_in_gemm // num_n_tiles_14
            tile_n_idx = tile_idx_in_gemm % num_n_tiles_14
            offs_am_27 = tile_m_idx * 128
            offs_am_30 = offs_am_27 + offs_am
            offs_bn = tile_n_idx * 128
            offs_bn_34 = offs_bn + offs_am_2
            a_ptrs_36 = gl.expand_dims(offs_am_30, 1)
            a_ptrs_39 = a_ptrs_36 * lda_18
            a_ptrs_41 = a_ptr_22 + a_ptrs_39
            a_ptrs_42 = a_ptrs_41.broadcast_to([128, 32])
            a_ptrs_43 = a_ptrs_42 + a_ptrs_5
            a_ptrs_43 = gl.multiple_of(a_ptrs_43, [16, 16])
            b_ptrs_45 = b_ptrs_6 * ldb_19
            b_ptrs_47 = b_ptr_24 + b_ptrs_45
            b_ptrs_48 = gl.expand_dims(offs_bn_34, 0)
            b_ptrs_50 = b_ptrs_47.broadcast_to([32, 128])
            b_ptrs_51 = b_ptrs_48.broadcast_to([32, 128])
            b_ptrs_52 = b_ptrs_50 + b_ptrs_51
            b_ptrs_52 = gl.multiple_of(b_ptrs_52, [16, 16])
            b_ptrs_53 = ldb_19 * 32
            a_ptrs_63 = a_ptrs_43
            b_ptrs_64 = b_ptrs_52
            for accumulator_62 in range(0, v2, 1):
                twill_k = twill_base + (accumulator_62 - 0) // 1
                a_ptrs_68 = a_ptrs_63 + 32
                b_ptrs_69 = b_ptrs_64 + b_ptrs_53
                mbarrier.wait(a_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 5), a_ptrs_63)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_ready.index(twill_k % 5), increment_count=False)
                else:
                    a_buf.index(twill_k % 5).store(gl.load(a_ptrs_63))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_ready.index(twill_k % 5), count=128)
                mbarrier.wait(b_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 5), b_ptrs_64)  # load1_b: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(b_ready.index(twill_k % 5), increment_count=False)
                else:
                    b_buf.index(twill_k % 5).store(gl.load(b_ptrs_64))  # load1_b: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(b_ready.index(twill_k % 5), count=128)
                a_ptrs_63 = a_ptrs_68
                b_ptrs_64 = b_ptrs_69
            twill_trips = (v2 - 0 + 1 - 1) // 1
            tile_idx_61 = tile_idx_17 + 132
            tile_idx_17 = tile_idx_61
            twill_base += twill_trips
            v3_b62 = tile_idx_17 >= last_problem_end_8
            v4 = tile_idx_17 < v0
            v5 = v3_b62 & v4
            twill_go1 = v5
        last_problem_end_16 = last_problem_end_8 + num_tiles
        tile_idx_7 = tile_idx_17
        last_problem_end_8 = last_problem_end_16

@gluon.jit
def twill_kernel(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size, TWILL_COPY: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.float16, [5, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_buf = gl.allocate_shared_memory(gl.float16, [5, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_ready.index(i), count=128)
    a_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_ready.index(i), count=128)
    b_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY)),
        (producer_1, (group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY)),
    ], [4], [64])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L6_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L7_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0]))

@gluon.jit
def consumer_0_short(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size, TWILL_COPY: gl.constexpr):
    twill_base = 0
    offs_am = gl.arange(0, 128, layout=L0_short)
    offs_am_1 = gl.arange(0, 128, layout=L1_short)
    offs_am_2 = gl.arange(0, 128, layout=L2_short)
    offs_am_3 = gl.arange(0, 128, layout=L3_short)
    a_ptrs = gl.arange(0, 32, layout=L4_short)
    a_ptrs_4 = gl.expand_dims(a_ptrs, 0)
    a_ptrs_5 = a_ptrs_4.broadcast_to([128, 32])
    b_ptrs = gl.arange(0, 32, layout=L5_short)
    b_ptrs_6 = gl.expand_dims(b_ptrs, 1)
    tile_idx = gl.program_id(0)
    tile_idx_7 = tile_idx
    last_problem_end_8 = gl.to_tensor(0)
    for g in range(0, group_size, 1):
        gm = g * 3
        gm_9 = group_gemm_sizes + gm
        gm_10 = gl.load(gm_9)
        gn = gm_9 + 1
        gn_11 = gl.load(gn)
        num_m_tiles = gm_10 + 127
        num_m_tiles_13 = num_m_tiles // 128
        num_n_tiles = gn_11 + 127
        num_n_tiles_14 = num_n_tiles // 128
        num_tiles = num_m_tiles_13 * num_n_tiles_14
        v0 = last_problem_end_8 + num_tiles
        tile_idx_17 = tile_idx_7
        v3_b62 = tile_idx_17 >= last_problem_end_8
        v4 = tile_idx_17 < v0
        v5 = v3_b62 & v4
        twill_go1 = v5
        while twill_go1:
            gm = g * 3
            gm_9 = group_gemm_sizes + gm
            gn = gm_9 + 1
            gn_11 = gl.load(gn)
            gk = gm_9 + 2
            gk_12 = gl.load(gk)
            num_n_tiles = gn_11 + 127
            num_n_tiles_14 = num_n_tiles // 128
            lda = g_lds + gm
            ldb = lda + 1
            ldc = lda + 2
            a_ptr = group_a_ptrs + g
            b_ptr = group_b_ptrs + g
            c_ptr = group_c_ptrs + g
            v1 = gk_12 + 31
            v2 = v1 // 32
            lda_18 = gl.load(lda)
            ldb_19 = gl.load(ldb)
            ldc_20 = gl.load(ldc)
            a_ptr_21 = gl.load(a_ptr)
            a_ptr_22 = a_ptr_21.to(gl.pointer_type(gl.float16))
            b_ptr_23 = gl.load(b_ptr)
            b_ptr_24 = b_ptr_23.to(gl.pointer_type(gl.float16))
            c_ptr_25 = gl.load(c_ptr)
            c_ptr_26 = c_ptr_25.to(gl.pointer_type(gl.float16))
            tile_idx_in_gemm = tile_idx_17 - last_problem_end_8
            tile_m_idx = tile_idx_in_gemm // num_n_tiles_14
            tile_n_idx = tile_idx_in_gemm % num_n_tiles_14
            offs_am_27 = tile_m_idx * 128
            offs_am_30 = offs_am_27 + offs_am
            offs_am_31 = offs_am_27 + offs_am_1
            offs_bn = tile_n_idx * 128
            offs_bn_34 = offs_bn + offs_am_2
            offs_bn_35 = offs_bn + offs_am_3
            a_ptrs_36 = gl.expand_dims(offs_am_30, 1)
            a_ptrs_37 = gl.expand_dims(offs_am_31, 1)
            a_ptrs_39 = a_ptrs_36 * lda_18
            a_ptrs_41 = a_ptr_22 + a_ptrs_39
            a_ptrs_42 = a_ptrs_41.broadcast_to([128, 32])
            a_ptrs_43 = a_ptrs_42 + a_ptrs_5
            a_ptrs_43 = gl.multiple_of(a_ptrs_43, [16, 16])
            b_ptrs_45 = b_ptrs_6 * ldb_19
            b_ptrs_47 = b_ptr_24 + b_ptrs_45
            b_ptrs_48 = gl.expand_dims(offs_bn_34, 0)
            b_ptrs_49 = gl.expand_dims(offs_bn_35, 0)
            b_ptrs_50 = b_ptrs_47.broadcast_to([32, 128])
            b_ptrs_51 = b_ptrs_48.broadcast_to([32, 128])
            b_ptrs_52 = b_ptrs_50 + b_ptrs_51
            b_ptrs_52 = gl.multiple_of(b_ptrs_52, [16, 16])
            b_ptrs_53 = ldb_19 * 32
            twill_n = (v2 - 0 + 1 - 1) // 1
            if (twill_n >= 2) | (gl.program_id(0) < 0):
                a_65_ring = gl.allocate_shared_memory(gl.float16, [4, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
                b_66_ring = gl.allocate_shared_memory(gl.float16, [4, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
                a_ptrs_68 = a_ptrs_43
                b_ptrs_69 = b_ptrs_52
                a_ptrs_68_p1 = a_ptrs_68
                b_ptrs_69_p1 = b_ptrs_69
                a_ptrs_68 = a_ptrs_68_p1 + 32  # load0_a: stage 0, partition 0 (group 0)
                b_ptrs_69 = b_ptrs_69_p1 + b_ptrs_53  # load1_b: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(a_65_ring.index((twill_base + 0 - 0) % 4), a_ptrs_68_p1)  # load0_a: stage 0, partition 0 (group 0)
                else:  # load0_a: stage 0, partition 0 (group 0)
                    a_65_ring.index((twill_base + 0 - 0) % 4).store(gl.load(a_ptrs_68_p1))  # load0_a: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(b_66_ring.index((twill_base + 0 - 0) % 4), b_ptrs_69_p1)  # load1_b: stage 0, partition 0 (group 0)
                else:  # load1_b: stage 0, partition 0 (group 0)
                    b_66_ring.index((twill_base + 0 - 0) % 4).store(gl.load(b_ptrs_69_p1))  # load1_b: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
                async_copy.commit_group()
                a_ptrs_68_p1 = a_ptrs_68
                b_ptrs_69_p1 = b_ptrs_69
                accumulator_67 = gl.full([128, 128], 0.0, gl.float32, layout=L6_short)
                a_ptrs_68 = a_ptrs_68_p1 + 32  # load0_a: stage 0, partition 0 (group 0)
                b_ptrs_69 = b_ptrs_69_p1 + b_ptrs_53  # load1_b: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(a_65_ring.index((twill_base + 1 - 0) % 4), a_ptrs_68_p1)  # load0_a: stage 0, partition 0 (group 0)
                else:  # load0_a: stage 0, partition 0 (group 0)
                    a_65_ring.index((twill_base + 1 - 0) % 4).store(gl.load(a_ptrs_68_p1))  # load0_a: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(b_66_ring.index((twill_base + 1 - 0) % 4), b_ptrs_69_p1)  # load1_b: stage 0, partition 0 (group 0)
                else:  # load1_b: stage 0, partition 0 (group 0)
                    b_66_ring.index((twill_base + 1 - 0) % 4).store(gl.load(b_ptrs_69_p1))  # load1_b: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
                async_copy.commit_group()
                a_ptrs_68_p1 = a_ptrs_68
                accumulator_67_p1 = accumulator_67
                b_ptrs_69_p1 = b_ptrs_69
                for twill_b in range(2, twill_n):
                    async_copy.wait_group(1)
                    gl.thread_barrier()
                    a_65 = a_65_ring.index((twill_base + twill_b - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
                    b_66 = b_66_ring.index((twill_base + twill_b - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
                    a_ptrs_68 = a_ptrs_68_p1 + 32  # load0_a: stage 0, partition 0 (group 0)
                    b_ptrs_69 = b_ptrs_69_p1 + b_ptrs_53  # load1_b: stage 0, partition 0 (group 0)
                    if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                        async_copy.async_copy_global_to_shared(a_65_ring.index((twill_base + twill_b - 0) % 4), a_ptrs_68_p1)  # load0_a: stage 0, partition 0 (group 0)
                    else:  # load0_a: stage 0, partition 0 (group 0)
                        a_65_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(a_ptrs_68_p1))  # load0_a: stage 0, partition 0 (group 0)
                        fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
                    if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                        async_copy.async_copy_global_to_shared(b_66_ring.index((twill_base + twill_b - 0) % 4), b_ptrs_69_p1)  # load1_b: stage 0, partition 0 (group 0)
                    else:  # load1_b: stage 0, partition 0 (group 0)
                        b_66_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(b_ptrs_69_p1))  # load1_b: stage 0, partition 0 (group 0)
                        fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
                    tok_accumulator_67 = warpgroup_mma(a_65, b_66, accumulator_67_p1, is_async=True)  # dot0_accumulator: stage 2, partition 0 (group 0)
                    async_copy.commit_group()
                    warpgroup_mma_wait(1, deps=(tok_accumulator_67,))
                    accumulator_67 = warpgroup_mma_wait(1, deps=(tok_accumulator_67,))
                    a_ptrs_68_p1 = a_ptrs_68
                    accumulator_67_p1 = accumulator_67
                    b_ptrs_69_p1 = b_ptrs_69
                async_copy.wait_group(1)
                gl.thread_barrier()
                a_65 = a_65_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
                b_66 = b_66_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
                tok_accumulator_67 = warpgroup_mma(a_65, b_66, accumulator_67_p1, is_async=True)  # dot0_accumulator: stage 2, partition 0 (group 0)
                async_copy.commit_group()
                warpgroup_mma_wait(1, deps=(tok_accumulator_67,))
                accumulator_67 = warpgroup_mma_wait(1, deps=(tok_accumulator_67,))
                a_ptrs_68_p2 = a_ptrs_68_p1
                a_ptrs_68_p1 = a_ptrs_68
                accumulator_67_p1 = accumulator_67
                b_ptrs_69_p2 = b_ptrs_69_p1
                b_ptrs_69_p1 = b_ptrs_69
                async_copy.wait_group(1)
                gl.thread_barrier()
                a_65 = a_65_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
                b_66 = b_66_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
                tok_accumulator_67 = warpgroup_mma(a_65, b_66, accumulator_67_p1, is_async=True)  # dot0_accumulator: stage 2, partition 0 (group 0)
                async_copy.commit_group()
                warpgroup_mma_wait(1, deps=(tok_accumulator_67,))
                accumulator_67 = warpgroup_mma_wait(1, deps=(tok_accumulator_67,))
                a_ptrs_68_p3 = a_ptrs_68_p2
                a_ptrs_68_p2 = a_ptrs_68_p1
                a_ptrs_68_p1 = a_ptrs_68
                accumulator_67_p1 = accumulator_67
                b_ptrs_69_p3 = b_ptrs_69_p2
                b_ptrs_69_p2 = b_ptrs_69_p1
                b_ptrs_69_p1 = b_ptrs_69
                accumulator_67_p1 = warpgroup_mma_wait(0, deps=(accumulator_67_p1,))
                a_65_ring._keep_alive()
                b_66_ring._keep_alive()
            else:
                arg11_w = gl.full([128, 128], 0.0, gl.float32, layout=L6_short)
                a_ptrs_63_w = a_ptrs_43
                b_ptrs_64_w = b_ptrs_52
                for accumulator_62_w in range(0, v2, 1):
                    a_w = gl.load(a_ptrs_63_w)
                    a_65_w = gl.allocate_shared_memory(gl.float16, [128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False), a_w)
                    fence_async_shared()
                    b_w = gl.load(b_ptrs_64_w)
                    b_66_w = gl.allocate_shared_memory(gl.float16, [32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_w)
                    fence_async_shared()
                    accumulator_67_w = warpgroup_mma(a_65_w, b_66_w, arg11_w)
                    a_ptrs_68_w = a_ptrs_63_w + 32
                    b_ptrs_69_w = b_ptrs_64_w + b_ptrs_53
                    arg11_w = accumulator_67_w
                    a_ptrs_63_w = a_ptrs_68_w
                    b_ptrs_64_w = b_ptrs_69_w
                accumulator_67_p1 = arg11_w
                a_ptrs_68_p3 = a_ptrs_63_w
                b_ptrs_69_p3 = b_ptrs_64_w
            c = accumulator_67_p1.to(gl.float16)
            c_ptrs_55 = ldc_20 * a_ptrs_37
            c_ptrs_57 = c_ptr_26 + c_ptrs_55
            c_ptrs_58 = c_ptrs_57.broadcast_to([128, 128])
            c_ptrs_59 = b_ptrs_49.broadcast_to([128, 128])
            c_ptrs_60 = c_ptrs_58 + c_ptrs_59
            v3 = gl.convert_layout(c, L7_short)
            gl.store(c_ptrs_60, v3)
            tile_idx_61 = tile_idx_17 + 132
            tile_idx_17 = tile_idx_61
            twill_base += twill_n
            v3_b62 = tile_idx_17 >= last_problem_end_8
            v4 = tile_idx_17 < v0
            v5 = v3_b62 & v4
            twill_go1 = v5
        last_problem_end_16 = last_problem_end_8 + num_tiles
        tile_idx_7 = tile_idx_17
        last_problem_end_8 = last_problem_end_16

@gluon.jit
def twill_kernel_short(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size, TWILL_COPY: gl.constexpr):
    consumer_0_short(group_a_ptrs, group_b_ptrs, group_c_ptrs, group_gemm_sizes, g_lds, group_size, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['group_a_ptrs', 'group_b_ptrs', 'group_c_ptrs', 'group_gemm_sizes', 'g_lds', 'group_size', 'NUM_SM', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME = ['group_a_ptrs', 'group_b_ptrs', 'group_c_ptrs', 'group_gemm_sizes', 'g_lds', 'group_size']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['group_a_ptrs', 'group_b_ptrs', 'group_c_ptrs', 'group_gemm_sizes', 'g_lds', 'group_size']   # the arguments a launch key reads
CONSTEXPRS = {'NUM_SM': 132, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = []   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['group_a_ptrs', 'group_b_ptrs', 'group_c_ptrs', 'group_gemm_sizes', 'g_lds', 'group_size', 'NUM_SM', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME_short = ['group_a_ptrs', 'group_b_ptrs', 'group_c_ptrs', 'group_gemm_sizes', 'g_lds', 'group_size']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['group_a_ptrs', 'group_b_ptrs', 'group_c_ptrs', 'group_gemm_sizes', 'g_lds', 'group_size']   # the arguments a launch key reads
CONSTEXPRS_short = {'NUM_SM': 132, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = []   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    flags = {'TWILL_COPY': all(_aligned_short(bound[n]) for n in COPY_ALIGNED_short)}
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


def _aligned_short(value):
    """Whether an argument is specialised as 16-divisible (Triton's rule): an integer's value, a tensor's address."""
    if hasattr(value, "data_ptr"):
        return value.data_ptr() % 16 == 0
    return isinstance(value, int) and value % 16 == 0


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
