"""_fbgemm_grouped_gemm, written by twill from its joint schedule: I=194 L=260 (optimal), 2481 cycles per iteration predicted.

Decisions (each from the schedule):
- a_93 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- b_96 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_93, b_96): their addresses and masks spread over 128 threads
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 216): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring a_93: 2 buffers of [128, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring b_96: 2 buffers of [128, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 65616 bytes planned of 232448; maxnreg 256
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 1 iteration(s) ahead, 98304 bytes of shared memory compiled, ptxas 243 registers, clean; none (one partition, no mbarrier) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, a_93_buf, b_96_buf, a_93_ready, a_93_empty, b_96_ready, b_96_empty, TWILL_COPY: gl.constexpr):
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
            tidx_32 = tidx_10
            v4 = tidx_32 >= iterated_tiles_12
            v5 = tidx_32 < v2
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
                offs_k = gl.arange(0, 64, layout=L4)
                a_ptrs_22 = gl.expand_dims(offs_k, 0)
                a_ptrs_23 = a_ptrs_22.broadcast_to([128, 64])
                bias = bias_ptr + N_start_offset_16
                tw_27 = token_weights_ptr + M_end_offset_11
                m_offsets = scatter_add_indices + M_end_offset_11
                gidx = tidx_32 - iterated_tiles_12
                tile_m_idx = gidx % num_m_tiles_17
                tile_n_idx = gidx // num_m_tiles_17
                offs_am_33 = tile_m_idx * 128
                offs_am_37 = offs_am_33 + offs_am
                offs_am_38 = offs_am_33 + offs_am_18
                offs_am_39 = offs_am_33 + offs_am_20
                offs_bn = tile_n_idx * 128
                offs_bn_43 = offs_bn + offs_am
                offs_bn_44 = offs_bn + offs_am_19
                offs_bn_45 = offs_bn + offs_am_20
                a_ptrs_46 = gl.expand_dims(offs_am_37, 1)
                a_ptrs_47 = a_ptrs_46.to(gl.int64)
                a_ptrs_48 = M_end_offset_11 + a_ptrs_47
                a_ptrs_49 = a_ptrs_48 * 2048
                a_ptrs_50 = a_desc_ptr + a_ptrs_49
                a_ptrs_51 = a_ptrs_50.broadcast_to([128, 64])
                a_ptrs_52 = a_ptrs_51 + a_ptrs_23
                b_ptrs_53 = gl.expand_dims(offs_bn_43, 1)
                b_ptrs_54 = b_ptrs_53.to(gl.int64)
                b_ptrs_55 = N_start_offset_16 + b_ptrs_54
                b_ptrs_56 = b_ptrs_55 * 2048
                b_ptrs_57 = b_desc_ptr + b_ptrs_56
                b_ptrs_58 = b_ptrs_57.broadcast_to([128, 64])
                b_ptrs_59 = b_ptrs_58 + a_ptrs_23
                a_60 = a_ptrs_46 < m_size_13
                a_61 = a_60.broadcast_to([128, 64])
                b = b_ptrs_53 < 2048
                b_62 = b.broadcast_to([128, 64])
                twill_n = (2048 - 0 + 64 - 1) // 64
                accumulator_99 = gl.full([128, 128], 0.0, gl.float32, layout=L5)
                k_mask_88 = (0 + (0 - 0) * 64) + offs_k  # elementwise0_a: stage 0, partition 0 (group 0)
                k_mask_89 = gl.expand_dims(k_mask_88, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
                k_mask_90 = k_mask_89 < 2048  # elementwise0_a: stage 0, partition 0 (group 0)
                a_91 = k_mask_90.broadcast_to([128, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
                a_92 = a_61 & a_91  # elementwise0_a: stage 0, partition 0 (group 0)
                b_95 = b_62 & a_91  # elementwise1_b: stage 0, partition 0 (group 0)
                accumulator_99_p1 = accumulator_99
                for twill_b in range(1, twill_n):
                    k_mask = (0 + (twill_b - 0) * 64)  # elementwise0_a: stage 0, partition 0 (group 0)
                    k_mask_88 = k_mask + offs_k  # elementwise0_a: stage 0, partition 0 (group 0)
                    k_mask_89 = gl.expand_dims(k_mask_88, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
                    k_mask_90 = k_mask_89 < 2048  # elementwise0_a: stage 0, partition 0 (group 0)
                    a_91 = k_mask_90.broadcast_to([128, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
                    a_92 = a_61 & a_91  # elementwise0_a: stage 0, partition 0 (group 0)
                    b_95 = b_62 & a_91  # elementwise1_b: stage 0, partition 0 (group 0)
                    mbarrier.wait(a_93_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
                    fence_async_shared()
                    mbarrier.wait(b_96_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
                    fence_async_shared()
                    tok_accumulator_99 = warpgroup_mma(a_93_buf.index((twill_base + twill_b - 1) % 2), b_96_buf.index((twill_base + twill_b - 1) % 2).permute((1, 0)), accumulator_99_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
                    warpgroup_mma_wait(1, deps=(tok_accumulator_99,))
                    mbarrier.arrive(a_93_empty.index((twill_base + twill_b - 1 - 1) % 2), pred=(twill_b - 1 - 1) >= 0)
                    mbarrier.arrive(b_96_empty.index((twill_base + twill_b - 1 - 1) % 2), pred=(twill_b - 1 - 1) >= 0)
                    accumulator_99 = warpgroup_mma_wait(1, deps=(tok_accumulator_99,))
                    accumulator_99_p1 = accumulator_99
                mbarrier.wait(a_93_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
                fence_async_shared()
                mbarrier.wait(b_96_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
                fence_async_shared()
                tok_accumulator_99 = warpgroup_mma(a_93_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), b_96_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2).permute((1, 0)), accumulator_99_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
                warpgroup_mma_wait(1, deps=(tok_accumulator_99,))
                mbarrier.arrive(a_93_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 2), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
                mbarrier.arrive(b_96_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 2), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
                accumulator_99 = warpgroup_mma_wait(1, deps=(tok_accumulator_99,))
                accumulator_99_p1 = accumulator_99
                accumulator_99_p1 = warpgroup_mma_wait(0, deps=(accumulator_99_p1,))
                a_93_buf._keep_alive()
                b_96_buf._keep_alive()
                mbarrier.arrive(a_93_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
                mbarrier.arrive(b_96_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
                bias_64 = offs_bn_45 < 2048
                bias_65 = bias + offs_bn_45
                bias_66 = gl.load(bias_65, mask=bias_64, other=0.0)
                accumulator = gl.convert_layout(bias_66, L6)
                accumulator_67 = gl.expand_dims(accumulator, 0)
                accumulator_68 = gl.convert_layout(accumulator_67, L7)
                accumulator_69 = accumulator_68.to(gl.float32)
                accumulator_70 = gl.convert_layout(accumulator_69, L5)
                accumulator_71 = accumulator_70.broadcast_to([128, 128])
                accumulator_72 = accumulator_99_p1 + accumulator_71
                tw_73 = offs_am_38 < m_size_13
                tw_74 = offs_am_39 < m_size_13
                tw_75 = tw_27 + offs_am_39
                tw_76 = gl.load(tw_75, mask=tw_74, other=1.0)
                accumulator_77 = gl.convert_layout(tw_76, L8)
                accumulator_78 = gl.expand_dims(accumulator_77, 1)
                accumulator_79 = accumulator_78.broadcast_to([128, 128])
                accumulator_80 = gl.convert_layout(accumulator_78, L5).broadcast_to([128, 128])
                accumulator_81 = accumulator_72 * accumulator_80
                m_offsets_82 = m_offsets + offs_am_39
                m_offsets_83 = gl.load(m_offsets_82, mask=tw_74, cache_modifier='.ca')
                c = accumulator_81.to(gl.float16)
                v4_b160 = gl.expand_dims(tw_73, 1)
                v5_b161 = gl.expand_dims(offs_bn_44, 0)
                v6_b162 = v5_b161 < 2048
                v7 = v4_b160.broadcast_to([128, 128])
                v8 = v6_b162.broadcast_to([128, 128])
                v9 = v7 & v8
                v10 = gl.convert_layout(m_offsets_83, L1)
                v11 = gl.expand_dims(v10, 1)
                v12 = v11 * 2048
                v13 = c_ptr + v12
                v14 = v13.broadcast_to([128, 128])
                v15 = v5_b161.broadcast_to([128, 128])
                v16 = v14 + v15
                v17 = gl.convert_layout(c, L9)
                v18 = gl.atomic_add(v16, v17, mask=v9, sem='relaxed', scope='gpu')
                tidx_84 = tidx_32 + 132
                tidx_32 = tidx_84
                twill_base += twill_n
                v4 = tidx_32 >= iterated_tiles_12
                v5 = tidx_32 < v2
                v6 = v4 & v5
                twill_go2 = v6
            M_end_offset_14 = gl.cast(m_size_13, gl.int64)
            M_end_offset_15 = M_end_offset_11 + M_end_offset_14
            iterated_tiles_31 = iterated_tiles_12 + num_tiles
            v1_r0 = tidx_32
            v1_r1 = M_end_offset_15
            v1_r2 = iterated_tiles_31
        else:
            v1_r0 = tidx_10
            v1_r1 = M_end_offset_11
            v1_r2 = iterated_tiles_12
        tidx_10 = v1_r0
        M_end_offset_11 = v1_r1
        iterated_tiles_12 = v1_r2

@gluon.jit
def producer_1(a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, a_93_buf, b_96_buf, a_93_ready, a_93_empty, b_96_ready, b_96_empty, TWILL_COPY: gl.constexpr):
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
            tidx_32 = tidx_10
            v4 = tidx_32 >= iterated_tiles_12
            v5 = tidx_32 < v2
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
                offs_k = gl.arange(0, 64, layout=L4)
                a_ptrs_22 = gl.expand_dims(offs_k, 0)
                a_ptrs_23 = a_ptrs_22.broadcast_to([128, 64])
                gidx = tidx_32 - iterated_tiles_12
                tile_m_idx = gidx % num_m_tiles_17
                tile_n_idx = gidx // num_m_tiles_17
                offs_am_33 = tile_m_idx * 128
                offs_am_37 = offs_am_33 + offs_am
                offs_bn = tile_n_idx * 128
                offs_bn_43 = offs_bn + offs_am
                a_ptrs_46 = gl.expand_dims(offs_am_37, 1)
                a_ptrs_47 = a_ptrs_46.to(gl.int64)
                a_ptrs_48 = M_end_offset_11 + a_ptrs_47
                a_ptrs_49 = a_ptrs_48 * 2048
                a_ptrs_50 = a_desc_ptr + a_ptrs_49
                a_ptrs_51 = a_ptrs_50.broadcast_to([128, 64])
                a_ptrs_52 = a_ptrs_51 + a_ptrs_23
                b_ptrs_53 = gl.expand_dims(offs_bn_43, 1)
                b_ptrs_54 = b_ptrs_53.to(gl.int64)
                b_ptrs_55 = N_start_offset_16 + b_ptrs_54
                b_ptrs_56 = b_ptrs_55 * 2048
                b_ptrs_57 = b_desc_ptr + b_ptrs_56
                b_ptrs_58 = b_ptrs_57.broadcast_to([128, 64])
                b_ptrs_59 = b_ptrs_58 + a_ptrs_23
                a_60 = a_ptrs_46 < m_size_13
                a_61 = a_60.broadcast_to([128, 64])
                b = b_ptrs_53 < 2048
                b_62 = b.broadcast_to([128, 64])
                a_ptrs_86 = a_ptrs_52
                b_ptrs_87 = b_ptrs_59
                for b_ptrs_85 in range(0, 2048, 64):
                    twill_k = twill_base + (b_ptrs_85 - 0) // 64
                    k_mask_88 = b_ptrs_85 + offs_k
                    k_mask_89 = gl.expand_dims(k_mask_88, 0)
                    k_mask_90 = k_mask_89 < 2048
                    a_91 = k_mask_90.broadcast_to([128, 64])
                    a_92 = a_61 & a_91
                    b_95 = b_62 & a_91
                    a_ptrs_100 = a_ptrs_86 + 64
                    b_ptrs_101 = b_ptrs_87 + 64
                    mbarrier.wait(b_96_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
                    if TWILL_COPY:
                        async_copy.async_copy_global_to_shared(b_96_buf.index(twill_k % 2), b_ptrs_87, mask=b_95)  # load1_b: stage 0, partition 1 (group 1)
                        async_copy.mbarrier_arrive(b_96_ready.index(twill_k % 2), increment_count=False)
                    else:
                        b_96_buf.index(twill_k % 2).store(gl.load(b_ptrs_87, mask=b_95, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                        fence_async_shared()
                        gl.thread_barrier()
                        mbarrier.arrive(b_96_ready.index(twill_k % 2), count=128)
                    mbarrier.wait(a_93_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
                    if TWILL_COPY:
                        async_copy.async_copy_global_to_shared(a_93_buf.index(twill_k % 2), a_ptrs_86, mask=a_92)  # load0_a: stage 0, partition 1 (group 1)
                        async_copy.mbarrier_arrive(a_93_ready.index(twill_k % 2), increment_count=False)
                    else:
                        a_93_buf.index(twill_k % 2).store(gl.load(a_ptrs_86, mask=a_92, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                        fence_async_shared()
                        gl.thread_barrier()
                        mbarrier.arrive(a_93_ready.index(twill_k % 2), count=128)
                    a_ptrs_86 = a_ptrs_100
                    b_ptrs_87 = b_ptrs_101
                twill_trips = (2048 - 0 + 64 - 1) // 64
                tidx_84 = tidx_32 + 132
                tidx_32 = tidx_84
                twill_base += twill_trips
                v4 = tidx_32 >= iterated_tiles_12
                v5 = tidx_32 < v2
                v6 = v4 & v5
                twill_go2 = v6
            M_end_offset_14 = gl.cast(m_size_13, gl.int64)
            M_end_offset_15 = M_end_offset_11 + M_end_offset_14
            iterated_tiles_31 = iterated_tiles_12 + num_tiles
            v1_r0 = tidx_32
            v1_r1 = M_end_offset_15
            v1_r2 = iterated_tiles_31
        else:
            v1_r0 = tidx_10
            v1_r1 = M_end_offset_11
            v1_r2 = iterated_tiles_12
        tidx_10 = v1_r0
        M_end_offset_11 = v1_r1
        iterated_tiles_12 = v1_r2

@gluon.jit
def twill_kernel(a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, TWILL_COPY: gl.constexpr):
    a_93_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_96_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_93_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_93_ready.index(i), count=128)
    a_93_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_93_empty.index(i), count=1)
    b_96_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_96_ready.index(i), count=128)
    b_96_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_96_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, a_93_buf, b_96_buf, a_93_ready, a_93_empty, b_96_ready, b_96_empty, TWILL_COPY)),
        (producer_1, (a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, a_93_buf, b_96_buf, a_93_ready, a_93_empty, b_96_ready, b_96_empty, TWILL_COPY)),
    ], [4], [88])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L7_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L8_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, TWILL_COPY: gl.constexpr):
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
            tidx_32 = tidx_10
            v4 = tidx_32 >= iterated_tiles_12
            v5 = tidx_32 < v2
            v6 = v4 & v5
            twill_go2 = v6
            while twill_go2:
                m_size = m_sizes + g
                m_size_13 = gl.load(m_size)
                N_start_offset = gl.cast(g, gl.int64)
                N_start_offset_16 = N_start_offset * 2048
                num_m_tiles = m_size_13 + 127
                num_m_tiles_17 = num_m_tiles // 128
                offs_am = gl.arange(0, 128, layout=L0_short)
                offs_am_18 = gl.arange(0, 128, layout=L1_short)
                offs_am_19 = gl.arange(0, 128, layout=L2_short)
                offs_am_20 = gl.arange(0, 128, layout=L3_short)
                offs_k = gl.arange(0, 64, layout=L4_short)
                a_ptrs_22 = gl.expand_dims(offs_k, 0)
                a_ptrs_23 = a_ptrs_22.broadcast_to([128, 64])
                bias = bias_ptr + N_start_offset_16
                tw_27 = token_weights_ptr + M_end_offset_11
                m_offsets = scatter_add_indices + M_end_offset_11
                gidx = tidx_32 - iterated_tiles_12
                tile_m_idx = gidx % num_m_tiles_17
                tile_n_idx = gidx // num_m_tiles_17
                offs_am_33 = tile_m_idx * 128
                offs_am_37 = offs_am_33 + offs_am
                offs_am_38 = offs_am_33 + offs_am_18
                offs_am_39 = offs_am_33 + offs_am_20
                offs_bn = tile_n_idx * 128
                offs_bn_43 = offs_bn + offs_am
                offs_bn_44 = offs_bn + offs_am_19
                offs_bn_45 = offs_bn + offs_am_20
                a_ptrs_46 = gl.expand_dims(offs_am_37, 1)
                a_ptrs_47 = a_ptrs_46.to(gl.int64)
                a_ptrs_48 = M_end_offset_11 + a_ptrs_47
                a_ptrs_49 = a_ptrs_48 * 2048
                a_ptrs_50 = a_desc_ptr + a_ptrs_49
                a_ptrs_51 = a_ptrs_50.broadcast_to([128, 64])
                a_ptrs_52 = a_ptrs_51 + a_ptrs_23
                b_ptrs_53 = gl.expand_dims(offs_bn_43, 1)
                b_ptrs_54 = b_ptrs_53.to(gl.int64)
                b_ptrs_55 = N_start_offset_16 + b_ptrs_54
                b_ptrs_56 = b_ptrs_55 * 2048
                b_ptrs_57 = b_desc_ptr + b_ptrs_56
                b_ptrs_58 = b_ptrs_57.broadcast_to([128, 64])
                b_ptrs_59 = b_ptrs_58 + a_ptrs_23
                a_60 = a_ptrs_46 < m_size_13
                a_61 = a_60.broadcast_to([128, 64])
                b = b_ptrs_53 < 2048
                b_62 = b.broadcast_to([128, 64])
                twill_n = (2048 - 0 + 64 - 1) // 64
                a_94_ring = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
                accumulator_97_ring = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
                a_ptrs_100 = a_ptrs_52
                b_ptrs_101 = b_ptrs_59
                a_ptrs_100_p1 = a_ptrs_100
                b_ptrs_101_p1 = b_ptrs_101
                accumulator_99 = gl.full([128, 128], 0.0, gl.float32, layout=L5_short)
                k_mask_88 = (0 + (0 - 0) * 64) + offs_k  # elementwise0_a: stage 0, partition 0 (group 0)
                k_mask_89 = gl.expand_dims(k_mask_88, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
                k_mask_90 = k_mask_89 < 2048  # elementwise0_a: stage 0, partition 0 (group 0)
                a_91 = k_mask_90.broadcast_to([128, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
                a_92 = a_61 & a_91  # elementwise0_a: stage 0, partition 0 (group 0)
                b_95 = b_62 & a_91  # elementwise1_b: stage 0, partition 0 (group 0)
                a_ptrs_100 = a_ptrs_100_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
                b_ptrs_101 = b_ptrs_101_p1 + 64  # load1_b: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(a_94_ring.index((twill_base + 0 - 0) % 3), a_ptrs_100_p1, mask=a_92)  # load0_a: stage 0, partition 0 (group 0)
                else:  # load0_a: stage 0, partition 0 (group 0)
                    a_94_ring.index((twill_base + 0 - 0) % 3).store(gl.load(a_ptrs_100_p1, mask=a_92, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(accumulator_97_ring.index((twill_base + 0 - 0) % 3), b_ptrs_101_p1, mask=b_95)  # load1_b: stage 0, partition 0 (group 0)
                else:  # load1_b: stage 0, partition 0 (group 0)
                    accumulator_97_ring.index((twill_base + 0 - 0) % 3).store(gl.load(b_ptrs_101_p1, mask=b_95, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
                async_copy.commit_group()
                a_ptrs_100_p1 = a_ptrs_100
                accumulator_99_p1 = accumulator_99
                b_ptrs_101_p1 = b_ptrs_101
                for twill_b in range(1, twill_n):
                    k_mask = (0 + (twill_b - 0) * 64)  # elementwise0_a: stage 0, partition 0 (group 0)
                    k_mask_88 = k_mask + offs_k  # elementwise0_a: stage 0, partition 0 (group 0)
                    k_mask_89 = gl.expand_dims(k_mask_88, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
                    k_mask_90 = k_mask_89 < 2048  # elementwise0_a: stage 0, partition 0 (group 0)
                    a_91 = k_mask_90.broadcast_to([128, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
                    a_92 = a_61 & a_91  # elementwise0_a: stage 0, partition 0 (group 0)
                    b_95 = b_62 & a_91  # elementwise1_b: stage 0, partition 0 (group 0)
                    async_copy.wait_group(0)
                    gl.thread_barrier()
                    accumulator_97 = accumulator_97_ring.index((twill_base + twill_b - 1) % 3)  # load1_b: stage 1, partition 0 (group 0)
                    a_94 = a_94_ring.index((twill_base + twill_b - 1) % 3)  # load0_a: stage 1, partition 0 (group 0)
                    a_ptrs_100 = a_ptrs_100_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
                    b_ptrs_101 = b_ptrs_101_p1 + 64  # load1_b: stage 0, partition 0 (group 0)
                    if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                        async_copy.async_copy_global_to_shared(a_94_ring.index((twill_base + twill_b - 0) % 3), a_ptrs_100_p1, mask=a_92)  # load0_a: stage 0, partition 0 (group 0)
                    else:  # load0_a: stage 0, partition 0 (group 0)
                        a_94_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(a_ptrs_100_p1, mask=a_92, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
                        fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
                    if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                        async_copy.async_copy_global_to_shared(accumulator_97_ring.index((twill_base + twill_b - 0) % 3), b_ptrs_101_p1, mask=b_95)  # load1_b: stage 0, partition 0 (group 0)
                    else:  # load1_b: stage 0, partition 0 (group 0)
                        accumulator_97_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(b_ptrs_101_p1, mask=b_95, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
                        fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
                    accumulator_98 = accumulator_97.permute((1, 0))  # load1_b: stage 1, partition 0 (group 0)
                    tok_accumulator_99 = warpgroup_mma(a_94, accumulator_98, accumulator_99_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
                    async_copy.commit_group()
                    warpgroup_mma_wait(1, deps=(tok_accumulator_99,))
                    accumulator_99 = warpgroup_mma_wait(1, deps=(tok_accumulator_99,))
                    a_ptrs_100_p1 = a_ptrs_100
                    accumulator_99_p1 = accumulator_99
                    b_ptrs_101_p1 = b_ptrs_101
                async_copy.wait_group(0)
                gl.thread_barrier()
                accumulator_97 = accumulator_97_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load1_b: stage 1, partition 0 (group 0)
                a_94 = a_94_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load0_a: stage 1, partition 0 (group 0)
                accumulator_98 = accumulator_97.permute((1, 0))  # load1_b: stage 1, partition 0 (group 0)
                tok_accumulator_99 = warpgroup_mma(a_94, accumulator_98, accumulator_99_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
                async_copy.commit_group()
                warpgroup_mma_wait(1, deps=(tok_accumulator_99,))
                accumulator_99 = warpgroup_mma_wait(1, deps=(tok_accumulator_99,))
                a_ptrs_100_p2 = a_ptrs_100_p1
                a_ptrs_100_p1 = a_ptrs_100
                accumulator_99_p1 = accumulator_99
                b_ptrs_101_p2 = b_ptrs_101_p1
                b_ptrs_101_p1 = b_ptrs_101
                accumulator_99_p1 = warpgroup_mma_wait(0, deps=(accumulator_99_p1,))
                a_94_ring._keep_alive()
                accumulator_97_ring._keep_alive()
                bias_64 = offs_bn_45 < 2048
                bias_65 = bias + offs_bn_45
                bias_66 = gl.load(bias_65, mask=bias_64, other=0.0)
                accumulator = gl.convert_layout(bias_66, L6_short)
                accumulator_67 = gl.expand_dims(accumulator, 0)
                accumulator_68 = gl.convert_layout(accumulator_67, L7_short)
                accumulator_69 = accumulator_68.to(gl.float32)
                accumulator_70 = gl.convert_layout(accumulator_69, L5_short)
                accumulator_71 = accumulator_70.broadcast_to([128, 128])
                accumulator_72 = accumulator_99_p1 + accumulator_71
                tw_73 = offs_am_38 < m_size_13
                tw_74 = offs_am_39 < m_size_13
                tw_75 = tw_27 + offs_am_39
                tw_76 = gl.load(tw_75, mask=tw_74, other=1.0)
                accumulator_77 = gl.convert_layout(tw_76, L8_short)
                accumulator_78 = gl.expand_dims(accumulator_77, 1)
                accumulator_79 = accumulator_78.broadcast_to([128, 128])
                accumulator_80 = gl.convert_layout(accumulator_78, L5_short).broadcast_to([128, 128])
                accumulator_81 = accumulator_72 * accumulator_80
                m_offsets_82 = m_offsets + offs_am_39
                m_offsets_83 = gl.load(m_offsets_82, mask=tw_74, cache_modifier='.ca')
                c = accumulator_81.to(gl.float16)
                v4_b160 = gl.expand_dims(tw_73, 1)
                v5_b161 = gl.expand_dims(offs_bn_44, 0)
                v6_b162 = v5_b161 < 2048
                v7 = v4_b160.broadcast_to([128, 128])
                v8 = v6_b162.broadcast_to([128, 128])
                v9 = v7 & v8
                v10 = gl.convert_layout(m_offsets_83, L1_short)
                v11 = gl.expand_dims(v10, 1)
                v12 = v11 * 2048
                v13 = c_ptr + v12
                v14 = v13.broadcast_to([128, 128])
                v15 = v5_b161.broadcast_to([128, 128])
                v16 = v14 + v15
                v17 = gl.convert_layout(c, L9_short)
                v18 = gl.atomic_add(v16, v17, mask=v9, sem='relaxed', scope='gpu')
                tidx_84 = tidx_32 + 132
                tidx_32 = tidx_84
                twill_base += twill_n
                v4 = tidx_32 >= iterated_tiles_12
                v5 = tidx_32 < v2
                v6 = v4 & v5
                twill_go2 = v6
            M_end_offset_14 = gl.cast(m_size_13, gl.int64)
            M_end_offset_15 = M_end_offset_11 + M_end_offset_14
            iterated_tiles_31 = iterated_tiles_12 + num_tiles
            v1_r0 = tidx_32
            v1_r1 = M_end_offset_15
            v1_r2 = iterated_tiles_31
        else:
            v1_r0 = tidx_10
            v1_r1 = M_end_offset_11
            v1_r2 = iterated_tiles_12
        tidx_10 = v1_r0
        M_end_offset_11 = v1_r1
        iterated_tiles_12 = v1_r2

@gluon.jit
def twill_kernel_short(a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, TWILL_COPY: gl.constexpr):
    consumer_0_short(a_desc_ptr, b_desc_ptr, c_ptr, scatter_add_indices, m_sizes, bias_ptr, token_weights_ptr, M_BUCKET, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_desc_ptr', 'b_desc_ptr', 'c_ptr', 'scatter_add_indices', 'm_sizes', 'bias_ptr', 'token_weights_ptr', 'G', 'M_BUCKET', 'N', 'K', 'NUM_SMS', 'FUSE_SCATTER_ADD', 'USE_TMA_LOAD', 'USE_TMA_STORE', 'USE_FAST_ACCUM', 'HAS_BIAS', 'HAS_TOKEN_WEIGHTS', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'NUM_CONSUMER_GROUPS']          # the Triton kernel's parameters, in order
RUNTIME = ['a_desc_ptr', 'b_desc_ptr', 'c_ptr', 'scatter_add_indices', 'm_sizes', 'bias_ptr', 'token_weights_ptr', 'M_BUCKET']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_desc_ptr', 'b_desc_ptr', 'c_ptr', 'scatter_add_indices', 'm_sizes', 'bias_ptr', 'token_weights_ptr', 'M_BUCKET']   # the arguments a launch key reads
CONSTEXPRS = {'G': 16, 'N': 2048, 'K': 2048, 'NUM_SMS': 132, 'FUSE_SCATTER_ADD': True, 'USE_TMA_LOAD': False, 'USE_TMA_STORE': False, 'USE_FAST_ACCUM': False, 'HAS_BIAS': True, 'HAS_TOKEN_WEIGHTS': True, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'NUM_CONSUMER_GROUPS': 1}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
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
ARGUMENTS_short = ['a_desc_ptr', 'b_desc_ptr', 'c_ptr', 'scatter_add_indices', 'm_sizes', 'bias_ptr', 'token_weights_ptr', 'G', 'M_BUCKET', 'N', 'K', 'NUM_SMS', 'FUSE_SCATTER_ADD', 'USE_TMA_LOAD', 'USE_TMA_STORE', 'USE_FAST_ACCUM', 'HAS_BIAS', 'HAS_TOKEN_WEIGHTS', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'NUM_CONSUMER_GROUPS']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_desc_ptr', 'b_desc_ptr', 'c_ptr', 'scatter_add_indices', 'm_sizes', 'bias_ptr', 'token_weights_ptr', 'M_BUCKET']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_desc_ptr', 'b_desc_ptr', 'c_ptr', 'scatter_add_indices', 'm_sizes', 'bias_ptr', 'token_weights_ptr', 'M_BUCKET']   # the arguments a launch key reads
CONSTEXPRS_short = {'G': 16, 'N': 2048, 'K': 2048, 'NUM_SMS': 132, 'FUSE_SCATTER_ADD': True, 'USE_TMA_LOAD': False, 'USE_TMA_STORE': False, 'USE_FAST_ACCUM': False, 'HAS_BIAS': True, 'HAS_TOKEN_WEIGHTS': True, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'NUM_CONSUMER_GROUPS': 1}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['a_desc_ptr', 'b_desc_ptr']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
