"""_fbgemm_grouped_gemm, written by twill from its joint schedule: I=194 L=265 (optimal), 2481 cycles per iteration predicted.

Decisions (each from the schedule):
- a_89 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- b_92 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_89, b_92): their addresses and masks spread over 256 threads, 3-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 128): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_89: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring b_92: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 98416 bytes planned of 232448; maxnreg 128
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, a_89_buf, b_92_buf, a_89_ready, a_89_empty, b_92_ready, b_92_empty, TWILL_COPY: gl.constexpr):
    tidx = gl.program_id(0)
    tidx_10 = tidx
    M_end_offset_11 = gl.to_tensor(0).to(gl.int64)
    iterated_tiles_12 = gl.to_tensor(0)
    twill_base = 0
    for g in range(0, 16, 1):
        m_size = m_sizes + g
        m_size_13 = gl.load(m_size)
        v0 = m_size_13 > 0
        if v0:
            num_m_tiles = m_size_13 + 127
            num_m_tiles_17 = num_m_tiles // 128
            num_tiles = num_m_tiles_17 * 16
            v2 = iterated_tiles_12 + num_tiles
            tidx_33 = tidx_10
            v4 = tidx_33 >= iterated_tiles_12
            v5 = tidx_33 < v2
            v6 = v4 & v5
            twill_go2 = v6
            while twill_go2:
                m_size = m_sizes + g
                m_size_13 = gl.load(m_size)
                N_start_offset = gl.cast(g, gl.int64)
                N_start_offset_16 = N_start_offset * 2048
                num_m_tiles = m_size_13 + 127
                num_m_tiles_17 = num_m_tiles // 128
                offs_am = gl.arange(0, 128, layout=L0)
                offs_am_18 = gl.arange(0, 128, layout=L1)
                offs_am_19 = gl.arange(0, 128, layout=L2)
                offs_am_20 = gl.arange(0, 128, layout=L3)
                offs_am_21 = gl.arange(0, 128, layout=L4)
                offs_k = gl.arange(0, 64, layout=L5)
                a_ptrs_23 = gl.expand_dims(offs_k, 0)
                a_ptrs_24 = a_ptrs_23.broadcast_to([128, 64])
                bias = bias_ptr + N_start_offset_16
                tw_28 = token_weights_ptr + M_end_offset_11
                m_offsets = scatter_add_indices + M_end_offset_11
                gidx = tidx_33 - iterated_tiles_12
                tile_m_idx = gidx % num_m_tiles_17
                tile_n_idx = gidx // num_m_tiles_17
                offs_am_34 = tile_m_idx * 128
                offs_am_38 = offs_am_34 + offs_am
                offs_am_39 = offs_am_34 + offs_am_18
                offs_am_40 = offs_am_34 + offs_am_19
                offs_bn = tile_n_idx * 128
                offs_bn_44 = offs_bn + offs_am
                offs_bn_45 = offs_bn + offs_am_20
                offs_bn_46 = offs_bn + offs_am_21
                a_ptrs_47 = gl.expand_dims(offs_am_38, 1)
                a_ptrs_48 = a_ptrs_47.to(gl.int64)
                a_ptrs_49 = M_end_offset_11 + a_ptrs_48
                a_ptrs_50 = a_ptrs_49 * 2048
                a_ptrs_51 = a_desc_ptr + a_ptrs_50
                a_ptrs_52 = a_ptrs_51.broadcast_to([128, 64])
                a_ptrs_53 = a_ptrs_52 + a_ptrs_24
                b_ptrs_54 = gl.expand_dims(offs_bn_44, 1)
                b_ptrs_55 = b_ptrs_54.to(gl.int64)
                b_ptrs_56 = N_start_offset_16 + b_ptrs_55
                b_ptrs_57 = b_ptrs_56 * 2048
                b_ptrs_58 = b_desc_ptr + b_ptrs_57
                b_ptrs_59 = b_ptrs_58.broadcast_to([128, 64])
                b_ptrs_60 = b_ptrs_59 + a_ptrs_24
                a_61 = a_ptrs_47 < m_size_13
                a_62 = a_61.broadcast_to([128, 64])
                b = b_ptrs_54 < 2048
                b_63 = b.broadcast_to([128, 64])
                twill_n = (2048 - 0 + 64 - 1) // 64
                accumulator_95 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
                k_mask_84 = (0 + (0 - 0) * 64) + offs_k  # elementwise0_a: stage 0, partition 0 (group 0)
                k_mask_85 = gl.expand_dims(k_mask_84, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
                k_mask_86 = k_mask_85 < 2048  # elementwise0_a: stage 0, partition 0 (group 0)
                a_87 = k_mask_86.broadcast_to([128, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
                a_88 = a_62 & a_87  # elementwise0_a: stage 0, partition 0 (group 0)
                b_91 = b_63 & a_87  # elementwise1_b: stage 0, partition 0 (group 0)
                accumulator_95_p1 = accumulator_95
                for twill_b in range(1, twill_n):
                    k_mask = (0 + (twill_b - 0) * 64)  # elementwise0_a: stage 0, partition 0 (group 0)
                    k_mask_84 = k_mask + offs_k  # elementwise0_a: stage 0, partition 0 (group 0)
                    k_mask_85 = gl.expand_dims(k_mask_84, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
                    k_mask_86 = k_mask_85 < 2048  # elementwise0_a: stage 0, partition 0 (group 0)
                    a_87 = k_mask_86.broadcast_to([128, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
                    a_88 = a_62 & a_87  # elementwise0_a: stage 0, partition 0 (group 0)
                    b_91 = b_63 & a_87  # elementwise1_b: stage 0, partition 0 (group 0)
                    mbarrier.wait(a_89_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
                    fence_async_shared()
                    mbarrier.wait(b_92_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
                    fence_async_shared()
                    tok_accumulator_95 = warpgroup_mma(a_89_buf.index((twill_base + twill_b - 1) % 3), b_92_buf.index((twill_base + twill_b - 1) % 3).permute((1, 0)), accumulator_95_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
                    warpgroup_mma_wait(1, deps=(tok_accumulator_95,))
                    mbarrier.arrive(a_89_empty.index((twill_base + twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
                    mbarrier.arrive(b_92_empty.index((twill_base + twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
                    accumulator_95 = warpgroup_mma_wait(1, deps=(tok_accumulator_95,))
                    accumulator_95_p1 = accumulator_95
                mbarrier.wait(a_89_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
                fence_async_shared()
                mbarrier.wait(b_92_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
                fence_async_shared()
                tok_accumulator_95 = warpgroup_mma(a_89_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), b_92_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3).permute((1, 0)), accumulator_95_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
                warpgroup_mma_wait(1, deps=(tok_accumulator_95,))
                mbarrier.arrive(a_89_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
                mbarrier.arrive(b_92_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
                accumulator_95 = warpgroup_mma_wait(1, deps=(tok_accumulator_95,))
                accumulator_95_p1 = accumulator_95
                accumulator_95_p1 = warpgroup_mma_wait(0, deps=(accumulator_95_p1,))
                a_89_buf._keep_alive()
                b_92_buf._keep_alive()
                mbarrier.arrive(a_89_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
                mbarrier.arrive(b_92_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
                bias_65 = offs_bn_45 < 2048
                bias_66 = bias + offs_bn_45
                bias_67 = gl.load(bias_66, mask=bias_65, other=0.0)
                accumulator = gl.expand_dims(bias_67, 0)
                accumulator_68 = accumulator.to(gl.float32)
                accumulator_69 = accumulator_68.broadcast_to([128, 128])
                accumulator_70 = accumulator_95_p1 + accumulator_69
                tw_71 = offs_am_39 < m_size_13
                tw_72 = offs_am_40 < m_size_13
                tw_73 = tw_28 + offs_am_39
                tw_74 = gl.load(tw_73, mask=tw_71, other=1.0)
                accumulator_75 = gl.expand_dims(tw_74, 1)
                accumulator_76 = accumulator_75.broadcast_to([128, 128])
                accumulator_77 = accumulator_70 * accumulator_76
                m_offsets_78 = m_offsets + offs_am_40
                m_offsets_79 = gl.load(m_offsets_78, mask=tw_72, cache_modifier='.ca')
                c = accumulator_77.to(gl.float16)
                v4_b153 = gl.expand_dims(tw_72, 1)
                v5_b154 = gl.expand_dims(offs_bn_46, 0)
                v6_b155 = v5_b154 < 2048
                v7 = v4_b153.broadcast_to([128, 128])
                v8 = v6_b155.broadcast_to([128, 128])
                v9 = v7 & v8
                v10 = gl.expand_dims(m_offsets_79, 1)
                v11 = v10 * 2048
                v12 = c_ptr + v11
                v13 = v12.broadcast_to([128, 128])
                v14 = v5_b154.broadcast_to([128, 128])
                v15 = v13 + v14
                v16 = gl.convert_layout(c, L7)
                v17 = gl.atomic_add(v15, v16, mask=v9, sem='relaxed', scope='gpu')
                tidx_80 = tidx_33 + 132
                tidx_33 = tidx_80
                twill_base += twill_n
                v4 = tidx_33 >= iterated_tiles_12
                v5 = tidx_33 < v2
                v6 = v4 & v5
                twill_go2 = v6
            M_end_offset_14 = gl.cast(m_size_13, gl.int64)
            M_end_offset_15 = M_end_offset_11 + M_end_offset_14
            iterated_tiles_32 = iterated_tiles_12 + num_tiles
            v1_r0 = tidx_33
            v1_r1 = M_end_offset_15
            v1_r2 = iterated_tiles_32
        else:
            v1_r0 = tidx_10
            v1_r1 = M_end_offset_11
            v1_r2 = iterated_tiles_12
        tidx_10 = v1_r0
        M_end_offset_11 = v1_r1
        iterated_tiles_12 = v1_r2

@gluon.jit
def producer_1(a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, a_89_buf, b_92_buf, a_89_ready, a_89_empty, b_92_ready, b_92_empty, TWILL_COPY: gl.constexpr):
    tidx = gl.program_id(0)
    tidx_10 = tidx
    M_end_offset_11 = gl.to_tensor(0).to(gl.int64)
    iterated_tiles_12 = gl.to_tensor(0)
    twill_base = 0
    for g in range(0, 16, 1):
        m_size = m_sizes + g
        m_size_13 = gl.load(m_size)
        v0 = m_size_13 > 0
        if v0:
            num_m_tiles = m_size_13 + 127
            num_m_tiles_17 = num_m_tiles // 128
            num_tiles = num_m_tiles_17 * 16
            v2 = iterated_tiles_12 + num_tiles
            tidx_33 = tidx_10
            v4 = tidx_33 >= iterated_tiles_12
            v5 = tidx_33 < v2
            v6 = v4 & v5
            twill_go2 = v6
            while twill_go2:
                m_size = m_sizes + g
                m_size_13 = gl.load(m_size)
                N_start_offset = gl.cast(g, gl.int64)
                N_start_offset_16 = N_start_offset * 2048
                num_m_tiles = m_size_13 + 127
                num_m_tiles_17 = num_m_tiles // 128
                offs_am = gl.arange(0, 128, layout=L0)
                offs_k = gl.arange(0, 64, layout=L5)
                a_ptrs_23 = gl.expand_dims(offs_k, 0)
                a_ptrs_24 = a_ptrs_23.broadcast_to([128, 64])
                gidx = tidx_33 - iterated_tiles_12
                tile_m_idx = gidx % num_m_tiles_17
                tile_n_idx = gidx // num_m_tiles_17
                offs_am_34 = tile_m_idx * 128
                offs_am_38 = offs_am_34 + offs_am
                offs_bn = tile_n_idx * 128
                offs_bn_44 = offs_bn + offs_am
                a_ptrs_47 = gl.expand_dims(offs_am_38, 1)
                a_ptrs_48 = a_ptrs_47.to(gl.int64)
                a_ptrs_49 = M_end_offset_11 + a_ptrs_48
                a_ptrs_50 = a_ptrs_49 * 2048
                a_ptrs_51 = a_desc_ptr + a_ptrs_50
                a_ptrs_52 = a_ptrs_51.broadcast_to([128, 64])
                a_ptrs_53 = a_ptrs_52 + a_ptrs_24
                b_ptrs_54 = gl.expand_dims(offs_bn_44, 1)
                b_ptrs_55 = b_ptrs_54.to(gl.int64)
                b_ptrs_56 = N_start_offset_16 + b_ptrs_55
                b_ptrs_57 = b_ptrs_56 * 2048
                b_ptrs_58 = b_desc_ptr + b_ptrs_57
                b_ptrs_59 = b_ptrs_58.broadcast_to([128, 64])
                b_ptrs_60 = b_ptrs_59 + a_ptrs_24
                a_61 = a_ptrs_47 < m_size_13
                a_62 = a_61.broadcast_to([128, 64])
                b = b_ptrs_54 < 2048
                b_63 = b.broadcast_to([128, 64])
                a_ptrs_82 = a_ptrs_53
                b_ptrs_83 = b_ptrs_60
                for b_ptrs_81 in range(0, 2048, 64):
                    twill_k = twill_base + (b_ptrs_81 - 0) // 64
                    k_mask_84 = b_ptrs_81 + offs_k
                    k_mask_85 = gl.expand_dims(k_mask_84, 0)
                    k_mask_86 = k_mask_85 < 2048
                    a_87 = k_mask_86.broadcast_to([128, 64])
                    a_88 = a_62 & a_87
                    b_91 = b_63 & a_87
                    a_ptrs_96 = a_ptrs_82 + 64
                    b_ptrs_97 = b_ptrs_83 + 64
                    mbarrier.wait(b_92_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
                    if TWILL_COPY:
                        async_copy.async_copy_global_to_shared(b_92_buf.index(twill_k % 3), b_ptrs_83, mask=b_91)  # load1_b: stage 0, partition 1 (group 1)
                        async_copy.mbarrier_arrive(b_92_ready.index(twill_k % 3), increment_count=False)
                    else:
                        b_92_buf.index(twill_k % 3).store(gl.load(b_ptrs_83, mask=b_91, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                        fence_async_shared()
                        gl.thread_barrier()
                        mbarrier.arrive(b_92_ready.index(twill_k % 3), count=256)
                    mbarrier.wait(a_89_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
                    if TWILL_COPY:
                        async_copy.async_copy_global_to_shared(a_89_buf.index(twill_k % 3), a_ptrs_82, mask=a_88)  # load0_a: stage 0, partition 1 (group 1)
                        async_copy.mbarrier_arrive(a_89_ready.index(twill_k % 3), increment_count=False)
                    else:
                        a_89_buf.index(twill_k % 3).store(gl.load(a_ptrs_82, mask=a_88, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                        fence_async_shared()
                        gl.thread_barrier()
                        mbarrier.arrive(a_89_ready.index(twill_k % 3), count=256)
                    a_ptrs_82 = a_ptrs_96
                    b_ptrs_83 = b_ptrs_97
                twill_trips = (2048 - 0 + 64 - 1) // 64
                tidx_80 = tidx_33 + 132
                tidx_33 = tidx_80
                twill_base += twill_trips
                v4 = tidx_33 >= iterated_tiles_12
                v5 = tidx_33 < v2
                v6 = v4 & v5
                twill_go2 = v6
            M_end_offset_14 = gl.cast(m_size_13, gl.int64)
            M_end_offset_15 = M_end_offset_11 + M_end_offset_14
            iterated_tiles_32 = iterated_tiles_12 + num_tiles
            v1_r0 = tidx_33
            v1_r1 = M_end_offset_15
            v1_r2 = iterated_tiles_32
        else:
            v1_r0 = tidx_10
            v1_r1 = M_end_offset_11
            v1_r2 = iterated_tiles_12
        tidx_10 = v1_r0
        M_end_offset_11 = v1_r1
        iterated_tiles_12 = v1_r2

@gluon.jit
def twill_kernel(a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, TWILL_COPY: gl.constexpr):
    a_89_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_92_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_89_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_89_ready.index(i), count=256)
    a_89_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_89_empty.index(i), count=1)
    b_92_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_92_ready.index(i), count=256)
    b_92_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_92_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, a_89_buf, b_92_buf, a_89_ready, a_89_empty, b_92_ready, b_92_empty, TWILL_COPY)),
        (producer_1, (a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, a_89_buf, b_92_buf, a_89_ready, a_89_empty, b_92_ready, b_92_empty, TWILL_COPY)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_desc_ptr', 'b_desc_ptr', 'c_ptr', 'scatter_add_indices', 'm_sizes', 'bias_ptr', 'token_weights_ptr', 'G', 'M_BUCKET', 'N', 'K', 'NUM_SMS', 'FUSE_SCATTER_ADD', 'USE_TMA_LOAD', 'USE_TMA_STORE', 'USE_FAST_ACCUM', 'HAS_BIAS', 'HAS_TOKEN_WEIGHTS', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'NUM_CONSUMER_GROUPS']          # the Triton kernel's parameters, in order
RUNTIME = ['a_desc_ptr', 'b_desc_ptr', 'c_ptr', 'scatter_add_indices', 'm_sizes', 'bias_ptr', 'token_weights_ptr', 'M_BUCKET']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_desc_ptr', 'b_desc_ptr', 'c_ptr', 'scatter_add_indices', 'm_sizes', 'bias_ptr', 'token_weights_ptr', 'M_BUCKET']   # the arguments a launch key reads
CONSTEXPRS = {'G': 16, 'N': 2048, 'K': 2048, 'NUM_SMS': 132, 'FUSE_SCATTER_ADD': True, 'USE_TMA_LOAD': False, 'USE_TMA_STORE': False, 'USE_FAST_ACCUM': False, 'HAS_BIAS': True, 'HAS_TOKEN_WEIGHTS': True, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'NUM_CONSUMER_GROUPS': 1}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_desc_ptr', 'b_desc_ptr']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
