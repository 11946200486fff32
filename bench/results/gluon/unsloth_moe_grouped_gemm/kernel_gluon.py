"""_grouped_gemm_forward_kernel, written by twill from its joint schedule: I=225 L=135 (optimal), 960 cycles per iteration predicted.

Decisions (each from the schedule):
- x_64 copied with cp.async at every launch, not by TMA: its addresses go through arith.divsi (%load_idx_41), which the analysis does not follow
- w_66 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (x_64, w_66): their addresses and masks spread over 128 threads
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 104): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 80 registers per thread (needs about 80): cp.async copies into the rings
- ring x_64: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring w_66: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 98448 bytes planned of 232448; maxnreg 256
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 2 iteration(s) ahead, 98304 bytes of shared memory compiled, ptxas 128 registers, clean; none (one partition, no mbarrier) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

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
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(x_ptr, w_ptr, y_ptr, m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, NUM_TOKENS, NUM_SMS, x_64_buf, w_66_buf, x_64_ready, x_64_empty, w_66_ready, w_66_empty, TWILL_COPY: gl.constexpr):
    tidx = gl.program_id(0)
    tidx_9 = tidx
    m_end = gl.to_tensor(0)
    processed_tiles_10 = gl.to_tensor(0)
    twill_base = 0
    for expert_idx in range(0, 8, 1):
        m_size = m_sizes_ptr + expert_idx
        m_size_11 = gl.load(m_size)
        v0 = m_size_11 > 0
        if v0:
            num_m_tiles = m_size_11 + 63
            num_m_tiles_13 = num_m_tiles // 64
            num_tiles = num_m_tiles_13 * 16
            v2 = processed_tiles_10 + num_tiles
            tidx_26 = tidx_9
            v4 = tidx_26 >= processed_tiles_10
            v5 = tidx_26 < v2
            v6 = v4 & v5
            twill_go2 = v6
            while twill_go2:
                TOTAL_TOKENS = NUM_TOKENS * 2
                rows = gl.arange(0, 64, layout=L0)
                rows_8 = gl.arange(0, 64, layout=L1)
                m_size = m_sizes_ptr + expert_idx
                m_size_11 = gl.load(m_size)
                n_start = expert_idx * 2048
                num_m_tiles = m_size_11 + 63
                num_m_tiles_13 = num_m_tiles // 64
                offs_n = gl.arange(0, 128, layout=L0)
                offs_n_18 = gl.arange(0, 128, layout=L2)
                x_ptrs_19 = gl.arange(0, 64, layout=L3)
                x_ptrs_20 = gl.expand_dims(x_ptrs_19, 0)
                x_ptrs_21 = x_ptrs_20.broadcast_to([64, 64])
                w_ptrs_23 = x_ptrs_20.broadcast_to([128, 64])
                tile = tidx_26 - processed_tiles_10
                tile_m = tile % num_m_tiles_13
                tile_n = tile // num_m_tiles_13
                local = tile_m * 64
                local_29 = local + rows
                local_30 = local + rows_8
                gathered_31 = local_29 % m_size_11
                gathered_31 = gl.max_contiguous(gl.multiple_of(gathered_31, [64]), [64])
                gathered_32 = local_30 % m_size_11
                gathered_32 = gl.max_contiguous(gl.multiple_of(gathered_32, [64]), [64])
                gathered_33 = m_end + gathered_31
                gathered_34 = m_end + gathered_32
                token_35 = gathered_33 < TOTAL_TOKENS
                token_36 = gather_indices_ptr + gathered_33
                token_37 = gl.load(token_36, mask=token_35)
                row_mask_38 = local_30 < m_size_11
                row_mask_40 = gl.expand_dims(row_mask_38, 1)
                load_idx = gl.expand_dims(token_37, 1)
                load_idx_41 = load_idx // 2
                load_idx_42 = load_idx_41 * 2048
                store_idx = gl.expand_dims(gathered_34, 1)
                store_idx_43 = store_idx * 2048
                offs_n_44 = tile_n * 128
                offs_n_47 = offs_n_44 + offs_n
                offs_n_48 = offs_n_44 + offs_n_18
                offs_n_49 = offs_n_47 % 2048
                offs_n_49 = gl.max_contiguous(gl.multiple_of(offs_n_49, [128]), [128])
                x_ptrs_50 = x_ptr + load_idx_42
                x_ptrs_51 = x_ptrs_50.broadcast_to([64, 64])
                x_ptrs_52 = x_ptrs_51 + x_ptrs_21
                w_ptrs_53 = gl.expand_dims(offs_n_49, 1)
                w_ptrs_54 = n_start + w_ptrs_53
                w_ptrs_55 = w_ptrs_54 * 2048
                w_ptrs_56 = w_ptr + w_ptrs_55
                w_ptrs_57 = w_ptrs_56.broadcast_to([128, 64])
                w_ptrs_58 = w_ptrs_57 + w_ptrs_23
                twill_n = (2048 - 0 + 64 - 1) // 64
                acc_69 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
                acc_69_p1 = acc_69
                for twill_b in range(0, twill_n):
                    mbarrier.wait(x_64_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
                    fence_async_shared()
                    mbarrier.wait(w_66_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
                    fence_async_shared()
                    tok_acc_69 = warpgroup_mma(x_64_buf.index((twill_base + twill_b - 0) % 4), w_66_buf.index((twill_base + twill_b - 0) % 4).permute((1, 0)), acc_69_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
                    acc_69_p1 = warpgroup_mma_wait(1, deps=(acc_69_p1,))
                    mbarrier.arrive(x_64_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
                    mbarrier.arrive(w_66_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
                    acc_69 = warpgroup_mma_wait(1, deps=(tok_acc_69,))
                    acc_69_p1 = acc_69
                acc_69_p1 = warpgroup_mma_wait(0, deps=(acc_69_p1,))
                x_64_buf._keep_alive()
                w_66_buf._keep_alive()
                mbarrier.arrive(x_64_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
                mbarrier.arrive(w_66_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
                y = acc_69_p1.to(gl.float16)
                v4_b129 = gl.expand_dims(offs_n_48, 0)
                v5_b130 = v4_b129 < 2048
                v6_b131 = row_mask_40.broadcast_to([64, 128])
                v7 = v5_b130.broadcast_to([64, 128])
                v8 = v6_b131 & v7
                v9 = y_ptr + store_idx_43
                v10 = v9.broadcast_to([64, 128])
                v11 = v4_b129.broadcast_to([64, 128])
                v12 = v10 + v11
                v13 = gl.convert_layout(y, L5)
                gl.store(v12, v13, mask=v8)
                tidx_60 = tidx_26 + NUM_SMS
                tidx_26 = tidx_60
                twill_base += twill_n
                v4 = tidx_26 >= processed_tiles_10
                v5 = tidx_26 < v2
                v6 = v4 & v5
                twill_go2 = v6
            processed_tiles_25 = processed_tiles_10 + num_tiles
            v1_r0 = tidx_26
            v1_r1 = processed_tiles_25
        else:
            v1_r0 = tidx_9
            v1_r1 = processed_tiles_10
        m_end_12 = m_end + m_size_11
        tidx_9 = v1_r0
        m_end = m_end_12
        processed_tiles_10 = v1_r1

@gluon.jit
def producer_1(x_ptr, w_ptr, y_ptr, m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, NUM_TOKENS, NUM_SMS, x_64_buf, w_66_buf, x_64_ready, x_64_empty, w_66_ready, w_66_empty, TWILL_COPY: gl.constexpr):
    tidx = gl.program_id(0)
    tidx_9 = tidx
    m_end = gl.to_tensor(0)
    processed_tiles_10 = gl.to_tensor(0)
    twill_base = 0
    for expert_idx in range(0, 8, 1):
        m_size = m_sizes_ptr + expert_idx
        m_size_11 = gl.load(m_size)
        v0 = m_size_11 > 0
        if v0:
            num_m_tiles = m_size_11 + 63
            num_m_tiles_13 = num_m_tiles // 64
            num_tiles = num_m_tiles_13 * 16
            v2 = processed_tiles_10 + num_tiles
            tidx_26 = tidx_9
            v4 = tidx_26 >= processed_tiles_10
            v5 = tidx_26 < v2
            v6 = v4 & v5
            twill_go2 = v6
            while twill_go2:
                TOTAL_TOKENS = NUM_TOKENS * 2
                rows = gl.arange(0, 64, layout=L0)
                m_size = m_sizes_ptr + expert_idx
                m_size_11 = gl.load(m_size)
                n_start = expert_idx * 2048
                num_m_tiles = m_size_11 + 63
                num_m_tiles_13 = num_m_tiles // 64
                offs_n = gl.arange(0, 128, layout=L0)
                x_ptrs_19 = gl.arange(0, 64, layout=L3)
                x_ptrs_20 = gl.expand_dims(x_ptrs_19, 0)
                x_ptrs_21 = x_ptrs_20.broadcast_to([64, 64])
                w_ptrs_23 = x_ptrs_20.broadcast_to([128, 64])
                tile = tidx_26 - processed_tiles_10
                tile_m = tile % num_m_tiles_13
                tile_n = tile // num_m_tiles_13
                local = tile_m * 64
                local_29 = local + rows
                gathered_31 = local_29 % m_size_11
                gathered_31 = gl.max_contiguous(gl.multiple_of(gathered_31, [64]), [64])
                gathered_33 = m_end + gathered_31
                token_35 = gathered_33 < TOTAL_TOKENS
                token_36 = gather_indices_ptr + gathered_33
                token_37 = gl.load(token_36, mask=token_35)
                row_mask = local_29 < m_size_11
                row_mask_39 = gl.expand_dims(row_mask, 1)
                load_idx = gl.expand_dims(token_37, 1)
                load_idx_41 = load_idx // 2
                load_idx_42 = load_idx_41 * 2048
                offs_n_44 = tile_n * 128
                offs_n_47 = offs_n_44 + offs_n
                offs_n_49 = offs_n_47 % 2048
                offs_n_49 = gl.max_contiguous(gl.multiple_of(offs_n_49, [128]), [128])
                x_ptrs_50 = x_ptr + load_idx_42
                x_ptrs_51 = x_ptrs_50.broadcast_to([64, 64])
                x_ptrs_52 = x_ptrs_51 + x_ptrs_21
                w_ptrs_53 = gl.expand_dims(offs_n_49, 1)
                w_ptrs_54 = n_start + w_ptrs_53
                w_ptrs_55 = w_ptrs_54 * 2048
                w_ptrs_56 = w_ptr + w_ptrs_55
                w_ptrs_57 = w_ptrs_56.broadcast_to([128, 64])
                w_ptrs_58 = w_ptrs_57 + w_ptrs_23
                x = row_mask_39.broadcast_to([64, 64])
                w = w_ptrs_53 < 2048
                w_59 = w.broadcast_to([128, 64])
                w_ptrs_63 = w_ptrs_58
                x_ptrs_62 = x_ptrs_52
                for acc_61 in range(0, 2048, 64):
                    twill_k = twill_base + (acc_61 - 0) // 64
                    x_ptrs_70 = x_ptrs_62 + 64
                    w_ptrs_71 = w_ptrs_63 + 64
                    mbarrier.wait(x_64_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
                    if TWILL_COPY:
                        async_copy.async_copy_global_to_shared(x_64_buf.index(twill_k % 4), x_ptrs_62, mask=x)  # load0_x: stage 0, partition 1 (group 1)
                        async_copy.mbarrier_arrive(x_64_ready.index(twill_k % 4), increment_count=False)
                    else:
                        x_64_buf.index(twill_k % 4).store(gl.load(x_ptrs_62, mask=x, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                        fence_async_shared()
                        gl.thread_barrier()
                        mbarrier.arrive(x_64_ready.index(twill_k % 4), count=128)
                    mbarrier.wait(w_66_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
                    if TWILL_COPY:
                        async_copy.async_copy_global_to_shared(w_66_buf.index(twill_k % 4), w_ptrs_63, mask=w_59)  # load1_w: stage 0, partition 1 (group 1)
                        async_copy.mbarrier_arrive(w_66_ready.index(twill_k % 4), increment_count=False)
                    else:
                        w_66_buf.index(twill_k % 4).store(gl.load(w_ptrs_63, mask=w_59, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                        fence_async_shared()
                        gl.thread_barrier()
                        mbarrier.arrive(w_66_ready.index(twill_k % 4), count=128)
                    w_ptrs_63 = w_ptrs_71
                    x_ptrs_62 = x_ptrs_70
                twill_trips = (2048 - 0 + 64 - 1) // 64
                tidx_60 = tidx_26 + NUM_SMS
                tidx_26 = tidx_60
                twill_base += twill_trips
                v4 = tidx_26 >= processed_tiles_10
                v5 = tidx_26 < v2
                v6 = v4 & v5
                twill_go2 = v6
            processed_tiles_25 = processed_tiles_10 + num_tiles
            v1_r0 = tidx_26
            v1_r1 = processed_tiles_25
        else:
            v1_r0 = tidx_9
            v1_r1 = processed_tiles_10
        m_end_12 = m_end + m_size_11
        tidx_9 = v1_r0
        m_end = m_end_12
        processed_tiles_10 = v1_r1

@gluon.jit
def twill_kernel(x_ptr, w_ptr, y_ptr, m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, NUM_TOKENS, NUM_SMS, TWILL_COPY: gl.constexpr):
    x_64_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_66_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_64_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(x_64_ready.index(i), count=128)
    x_64_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(x_64_empty.index(i), count=1)
    w_66_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(w_66_ready.index(i), count=128)
    w_66_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(w_66_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, w_ptr, y_ptr, m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, NUM_TOKENS, NUM_SMS, x_64_buf, w_66_buf, x_64_ready, x_64_empty, w_66_ready, w_66_empty, TWILL_COPY)),
        (producer_1, (x_ptr, w_ptr, y_ptr, m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, NUM_TOKENS, NUM_SMS, x_64_buf, w_66_buf, x_64_ready, x_64_empty, w_66_ready, w_66_empty, TWILL_COPY)),
    ], [4], [80])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(x_ptr, w_ptr, y_ptr, m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, NUM_TOKENS, NUM_SMS, TWILL_COPY: gl.constexpr):
    twill_base = 0
    TOTAL_TOKENS = NUM_TOKENS * 2
    rows = gl.arange(0, 64, layout=L0_short)
    rows_8 = gl.arange(0, 64, layout=L1_short)
    tidx = gl.program_id(0)
    tidx_9 = tidx
    m_end = gl.to_tensor(0)
    processed_tiles_10 = gl.to_tensor(0)
    for expert_idx in range(0, 8, 1):
        m_size = m_sizes_ptr + expert_idx
        m_size_11 = gl.load(m_size)
        v0 = m_size_11 > 0
        if v0:
            num_m_tiles = m_size_11 + 63
            num_m_tiles_13 = num_m_tiles // 64
            num_tiles = num_m_tiles_13 * 16
            v2 = processed_tiles_10 + num_tiles
            tidx_26 = tidx_9
            v4 = tidx_26 >= processed_tiles_10
            v5 = tidx_26 < v2
            v6 = v4 & v5
            twill_go2 = v6
            while twill_go2:
                m_size = m_sizes_ptr + expert_idx
                m_size_11 = gl.load(m_size)
                n_start = expert_idx * 2048
                num_m_tiles = m_size_11 + 63
                num_m_tiles_13 = num_m_tiles // 64
                offs_n = gl.arange(0, 128, layout=L0_short)
                offs_n_18 = gl.arange(0, 128, layout=L2_short)
                x_ptrs_19 = gl.arange(0, 64, layout=L3_short)
                x_ptrs_20 = gl.expand_dims(x_ptrs_19, 0)
                x_ptrs_21 = x_ptrs_20.broadcast_to([64, 64])
                w_ptrs_23 = x_ptrs_20.broadcast_to([128, 64])
                tile = tidx_26 - processed_tiles_10
                tile_m = tile % num_m_tiles_13
                tile_n = tile // num_m_tiles_13
                local = tile_m * 64
                local_29 = local + rows
                local_30 = local + rows_8
                gathered_31 = local_29 % m_size_11
                gathered_31 = gl.max_contiguous(gl.multiple_of(gathered_31, [64]), [64])
                gathered_32 = local_30 % m_size_11
                gathered_32 = gl.max_contiguous(gl.multiple_of(gathered_32, [64]), [64])
                gathered_33 = m_end + gathered_31
                gathered_34 = m_end + gathered_32
                token_35 = gathered_33 < TOTAL_TOKENS
                token_36 = gather_indices_ptr + gathered_33
                token_37 = gl.load(token_36, mask=token_35)
                row_mask = local_29 < m_size_11
                row_mask_38 = local_30 < m_size_11
                row_mask_39 = gl.expand_dims(row_mask, 1)
                row_mask_40 = gl.expand_dims(row_mask_38, 1)
                load_idx = gl.expand_dims(token_37, 1)
                load_idx_41 = load_idx // 2
                load_idx_42 = load_idx_41 * 2048
                store_idx = gl.expand_dims(gathered_34, 1)
                store_idx_43 = store_idx * 2048
                offs_n_44 = tile_n * 128
                offs_n_47 = offs_n_44 + offs_n
                offs_n_48 = offs_n_44 + offs_n_18
                offs_n_49 = offs_n_47 % 2048
                offs_n_49 = gl.max_contiguous(gl.multiple_of(offs_n_49, [128]), [128])
                x_ptrs_50 = x_ptr + load_idx_42
                x_ptrs_51 = x_ptrs_50.broadcast_to([64, 64])
                x_ptrs_52 = x_ptrs_51 + x_ptrs_21
                w_ptrs_53 = gl.expand_dims(offs_n_49, 1)
                w_ptrs_54 = n_start + w_ptrs_53
                w_ptrs_55 = w_ptrs_54 * 2048
                w_ptrs_56 = w_ptr + w_ptrs_55
                w_ptrs_57 = w_ptrs_56.broadcast_to([128, 64])
                w_ptrs_58 = w_ptrs_57 + w_ptrs_23
                x = row_mask_39.broadcast_to([64, 64])
                w = w_ptrs_53 < 2048
                w_59 = w.broadcast_to([128, 64])
                twill_n = (2048 - 0 + 64 - 1) // 64
                x_65_ring = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
                acc_67_ring = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
                x_ptrs_70 = x_ptrs_52
                w_ptrs_71 = w_ptrs_58
                w_ptrs_71_p1 = w_ptrs_71
                x_ptrs_70_p1 = x_ptrs_70
                x_ptrs_70 = x_ptrs_70_p1 + 64  # load0_x: stage 0, partition 0 (group 0)
                w_ptrs_71 = w_ptrs_71_p1 + 64  # load1_w: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load0_x: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(x_65_ring.index((twill_base + 0 - 0) % 4), x_ptrs_70_p1, mask=x)  # load0_x: stage 0, partition 0 (group 0)
                else:  # load0_x: stage 0, partition 0 (group 0)
                    x_65_ring.index((twill_base + 0 - 0) % 4).store(gl.load(x_ptrs_70_p1, mask=x))  # load0_x: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load0_x: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_w: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(acc_67_ring.index((twill_base + 0 - 0) % 4), w_ptrs_71_p1, mask=w_59)  # load1_w: stage 0, partition 0 (group 0)
                else:  # load1_w: stage 0, partition 0 (group 0)
                    acc_67_ring.index((twill_base + 0 - 0) % 4).store(gl.load(w_ptrs_71_p1, mask=w_59))  # load1_w: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load1_w: stage 0, partition 0 (group 0)
                async_copy.commit_group()
                w_ptrs_71_p1 = w_ptrs_71
                x_ptrs_70_p1 = x_ptrs_70
                acc_69 = gl.full([64, 128], 0.0, gl.float32, layout=L4_short)
                x_ptrs_70 = x_ptrs_70_p1 + 64  # load0_x: stage 0, partition 0 (group 0)
                w_ptrs_71 = w_ptrs_71_p1 + 64  # load1_w: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load0_x: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(x_65_ring.index((twill_base + 1 - 0) % 4), x_ptrs_70_p1, mask=x)  # load0_x: stage 0, partition 0 (group 0)
                else:  # load0_x: stage 0, partition 0 (group 0)
                    x_65_ring.index((twill_base + 1 - 0) % 4).store(gl.load(x_ptrs_70_p1, mask=x))  # load0_x: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load0_x: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_w: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(acc_67_ring.index((twill_base + 1 - 0) % 4), w_ptrs_71_p1, mask=w_59)  # load1_w: stage 0, partition 0 (group 0)
                else:  # load1_w: stage 0, partition 0 (group 0)
                    acc_67_ring.index((twill_base + 1 - 0) % 4).store(gl.load(w_ptrs_71_p1, mask=w_59))  # load1_w: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load1_w: stage 0, partition 0 (group 0)
                async_copy.commit_group()
                acc_69_p1 = acc_69
                w_ptrs_71_p1 = w_ptrs_71
                x_ptrs_70_p1 = x_ptrs_70
                for twill_b in range(2, twill_n):
                    async_copy.wait_group(1)
                    gl.thread_barrier()
                    acc_67 = acc_67_ring.index((twill_base + twill_b - 2) % 4)  # load1_w: stage 2, partition 0 (group 0)
                    x_65 = x_65_ring.index((twill_base + twill_b - 2) % 4)  # load0_x: stage 2, partition 0 (group 0)
                    x_ptrs_70 = x_ptrs_70_p1 + 64  # load0_x: stage 0, partition 0 (group 0)
                    w_ptrs_71 = w_ptrs_71_p1 + 64  # load1_w: stage 0, partition 0 (group 0)
                    if TWILL_COPY:  # load0_x: stage 0, partition 0 (group 0)
                        async_copy.async_copy_global_to_shared(x_65_ring.index((twill_base + twill_b - 0) % 4), x_ptrs_70_p1, mask=x)  # load0_x: stage 0, partition 0 (group 0)
                    else:  # load0_x: stage 0, partition 0 (group 0)
                        x_65_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(x_ptrs_70_p1, mask=x))  # load0_x: stage 0, partition 0 (group 0)
                        fence_async_shared()  # load0_x: stage 0, partition 0 (group 0)
                    if TWILL_COPY:  # load1_w: stage 0, partition 0 (group 0)
                        async_copy.async_copy_global_to_shared(acc_67_ring.index((twill_base + twill_b - 0) % 4), w_ptrs_71_p1, mask=w_59)  # load1_w: stage 0, partition 0 (group 0)
                    else:  # load1_w: stage 0, partition 0 (group 0)
                        acc_67_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(w_ptrs_71_p1, mask=w_59))  # load1_w: stage 0, partition 0 (group 0)
                        fence_async_shared()  # load1_w: stage 0, partition 0 (group 0)
                    acc_68 = acc_67.permute((1, 0))  # load1_w: stage 2, partition 0 (group 0)
                    tok_acc_69 = warpgroup_mma(x_65, acc_68, acc_69_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
                    async_copy.commit_group()
                    warpgroup_mma_wait(1, deps=(tok_acc_69,))
                    acc_69 = warpgroup_mma_wait(1, deps=(tok_acc_69,))
                    acc_69_p1 = acc_69
                    w_ptrs_71_p1 = w_ptrs_71
                    x_ptrs_70_p1 = x_ptrs_70
                async_copy.wait_group(1)
                gl.thread_barrier()
                acc_67 = acc_67_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load1_w: stage 2, partition 0 (group 0)
                x_65 = x_65_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load0_x: stage 2, partition 0 (group 0)
                acc_68 = acc_67.permute((1, 0))  # load1_w: stage 2, partition 0 (group 0)
                tok_acc_69 = warpgroup_mma(x_65, acc_68, acc_69_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
                async_copy.commit_group()
                warpgroup_mma_wait(1, deps=(tok_acc_69,))
                acc_69 = warpgroup_mma_wait(1, deps=(tok_acc_69,))
                acc_69_p1 = acc_69
                w_ptrs_71_p2 = w_ptrs_71_p1
                w_ptrs_71_p1 = w_ptrs_71
                x_ptrs_70_p2 = x_ptrs_70_p1
                x_ptrs_70_p1 = x_ptrs_70
                async_copy.wait_group(1)
                gl.thread_barrier()
                acc_67 = acc_67_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load1_w: stage 2, partition 0 (group 0)
                x_65 = x_65_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load0_x: stage 2, partition 0 (group 0)
                acc_68 = acc_67.permute((1, 0))  # load1_w: stage 2, partition 0 (group 0)
                tok_acc_69 = warpgroup_mma(x_65, acc_68, acc_69_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
                async_copy.commit_group()
                warpgroup_mma_wait(1, deps=(tok_acc_69,))
                acc_69 = warpgroup_mma_wait(1, deps=(tok_acc_69,))
                acc_69_p1 = acc_69
                w_ptrs_71_p3 = w_ptrs_71_p2
                w_ptrs_71_p2 = w_ptrs_71_p1
                w_ptrs_71_p1 = w_ptrs_71
                x_ptrs_70_p3 = x_ptrs_70_p2
                x_ptrs_70_p2 = x_ptrs_70_p1
                x_ptrs_70_p1 = x_ptrs_70
                acc_69_p1 = warpgroup_mma_wait(0, deps=(acc_69_p1,))
                x_65_ring._keep_alive()
                acc_67_ring._keep_alive()
                y = acc_69_p1.to(gl.float16)
                v4_b129 = gl.expand_dims(offs_n_48, 0)
                v5_b130 = v4_b129 < 2048
                v6_b131 = row_mask_40.broadcast_to([64, 128])
                v7 = v5_b130.broadcast_to([64, 128])
                v8 = v6_b131 & v7
                v9 = y_ptr + store_idx_43
                v10 = v9.broadcast_to([64, 128])
                v11 = v4_b129.broadcast_to([64, 128])
                v12 = v10 + v11
                v13 = gl.convert_layout(y, L5_short)
                gl.store(v12, v13, mask=v8)
                tidx_60 = tidx_26 + NUM_SMS
                tidx_26 = tidx_60
                twill_base += twill_n
                v4 = tidx_26 >= processed_tiles_10
                v5 = tidx_26 < v2
                v6 = v4 & v5
                twill_go2 = v6
            processed_tiles_25 = processed_tiles_10 + num_tiles
            v1_r0 = tidx_26
            v1_r1 = processed_tiles_25
        else:
            v1_r0 = tidx_9
            v1_r1 = processed_tiles_10
        m_end_12 = m_end + m_size_11
        tidx_9 = v1_r0
        m_end = m_end_12
        processed_tiles_10 = v1_r1

@gluon.jit
def twill_kernel_short(x_ptr, w_ptr, y_ptr, m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, NUM_TOKENS, NUM_SMS, TWILL_COPY: gl.constexpr):
    consumer_0_short(x_ptr, w_ptr, y_ptr, m_sizes_ptr, gather_indices_ptr, topk_weights_ptr, NUM_TOKENS, NUM_SMS, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'w_ptr', 'y_ptr', 'm_sizes_ptr', 'gather_indices_ptr', 'topk_weights_ptr', 'NUM_EXPERTS', 'NUM_TOKENS', 'TOPK', 'N', 'K', 'NUM_SMS', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'PERMUTE_X', 'PERMUTE_Y', 'FUSE_MUL_PRE', 'FUSE_MUL_POST', 'USE_TMA_LOAD_W', 'USE_TMA_LOAD_X', 'USE_TMA_STORE', 'acc_dtype', 'FLATTEN']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'w_ptr', 'y_ptr', 'm_sizes_ptr', 'gather_indices_ptr', 'topk_weights_ptr', 'NUM_TOKENS', 'NUM_SMS']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'w_ptr', 'y_ptr', 'm_sizes_ptr', 'gather_indices_ptr', 'topk_weights_ptr', 'NUM_TOKENS', 'NUM_SMS', 'acc_dtype']   # the arguments a launch key reads
CONSTEXPRS = {'NUM_EXPERTS': 8, 'TOPK': 2, 'N': 2048, 'K': 2048, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'PERMUTE_X': True, 'PERMUTE_Y': False, 'FUSE_MUL_PRE': False, 'FUSE_MUL_POST': False, 'USE_TMA_LOAD_W': False, 'USE_TMA_LOAD_X': False, 'USE_TMA_STORE': False, 'FLATTEN': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['x_ptr', 'w_ptr']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['x_ptr', 'w_ptr', 'y_ptr', 'm_sizes_ptr', 'gather_indices_ptr', 'topk_weights_ptr', 'NUM_EXPERTS', 'NUM_TOKENS', 'TOPK', 'N', 'K', 'NUM_SMS', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'PERMUTE_X', 'PERMUTE_Y', 'FUSE_MUL_PRE', 'FUSE_MUL_POST', 'USE_TMA_LOAD_W', 'USE_TMA_LOAD_X', 'USE_TMA_STORE', 'acc_dtype', 'FLATTEN']          # the Triton kernel's parameters, in order
RUNTIME_short = ['x_ptr', 'w_ptr', 'y_ptr', 'm_sizes_ptr', 'gather_indices_ptr', 'topk_weights_ptr', 'NUM_TOKENS', 'NUM_SMS']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['x_ptr', 'w_ptr', 'y_ptr', 'm_sizes_ptr', 'gather_indices_ptr', 'topk_weights_ptr', 'NUM_TOKENS', 'NUM_SMS', 'acc_dtype']   # the arguments a launch key reads
CONSTEXPRS_short = {'NUM_EXPERTS': 8, 'TOPK': 2, 'N': 2048, 'K': 2048, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'PERMUTE_X': True, 'PERMUTE_Y': False, 'FUSE_MUL_PRE': False, 'FUSE_MUL_POST': False, 'USE_TMA_LOAD_W': False, 'USE_TMA_LOAD_X': False, 'USE_TMA_STORE': False, 'FLATTEN': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['x_ptr', 'w_ptr']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
