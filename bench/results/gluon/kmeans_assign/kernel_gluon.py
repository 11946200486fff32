"""kmeans_assign_kernel, written by twill from its joint schedule: I=134 L=172 (optimal), 651 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (c_48): their addresses and masks spread over 128 threads
- c_48 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over c_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 172): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring c_48: 6 buffers of [64, 128] f16 (the loads run 5 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 131184 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 2 iteration(s) ahead, 98304 bytes of shared memory compiled, ptxas 199 registers, clean; simulated for 0, 1, 2, 3, 4, 5, 10 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))

@gluon.jit
def twill_combine_d54653c1(a0, a1, a2, a3):
    t0 = a0 == a2
    t1 = a1 < a3
    t2 = t0 & t1
    t3 = a0 < a2
    t4 = t3 | t2
    t5 = gl.where(t4, a0, a2)
    t6 = gl.where(t4, a1, a3)
    return t5, t6

@gluon.jit
def consumer_0(x_ptr, c_ptr, cnorm_ptr, out_idx_ptr, out_dist_ptr, N, K, stride_x, stride_c, twill_g0, twill_g1, twill_g2, twill_box_c_48, c_48_buf, c_48_ready, c_48_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        offs_n = pid * 128
        offs_n_3 = gl.arange(0, 128, layout=L0)
        offs_n_4 = gl.arange(0, 128, layout=L1)
        offs_n_7 = offs_n + offs_n_3
        offs_n_8 = offs_n + offs_n_4
        n_mask_10 = offs_n_7 < N
        n_mask_11 = offs_n_8 < N
        x_12 = gl.expand_dims(n_mask_10, 1)
        x_13 = gl.expand_dims(offs_n_7, 1)
        x_15 = x_13 * stride_x
        x_17 = x_ptr + x_15
        x_18 = gl.arange(0, 128, layout=L2)
        x_19 = gl.expand_dims(x_18, 0)
        x_20 = x_17.broadcast_to([128, 128])
        x_21 = x_19.broadcast_to([128, 128])
        x_22 = x_20 + x_21
        x_23 = x_12.broadcast_to([128, 128])
        x_24 = gl.load(x_22, mask=x_23, other=0.0)
        x_25 = gl.allocate_shared_memory(gl.float16, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), x_24)
        fence_async_shared()
        offs_k_26 = gl.arange(0, 64, layout=L3)
        blk_arg = gl.expand_dims(offs_k_26, 0)
        blk_arg_30 = blk_arg.broadcast_to([128, 64])
        twill_n = (K - 0 + 64 - 1) // 64
        offs_k_38 = (0 + (0 - 0) * 64) + offs_k_26  # load1_cn: stage 0, partition 0 (group 0)
        k_mask_40 = offs_k_38 < K  # load1_cn: stage 0, partition 0 (group 0)
        cn_49 = cnorm_ptr + offs_k_38  # load1_cn: stage 0, partition 0 (group 0)
        cn_50 = gl.load(cn_49, mask=k_mask_40, other=float("inf"))  # load1_cn: stage 0, partition 0 (group 0)
        cn_50_p1 = cn_50
        best_dist_59 = gl.full([128], float("inf"), gl.float32, layout=L4)
        best_idx_60 = gl.full([128], 0, gl.int32, layout=L4)
        mbarrier.wait(c_48_ready.index((twill_base + 1 - 1) % 6), ((twill_base + 1 - 1) // 6) & 1)
        fence_async_shared()
        tok_xc_52 = warpgroup_mma(x_25, c_48_buf.index((twill_base + 1 - 1) % 6).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_xc: stage 1, partition 0 (group 0)
        offs_k_38 = (0 + (1 - 0) * 64) + offs_k_26  # load1_cn: stage 0, partition 0 (group 0)
        k_mask_40 = offs_k_38 < K  # load1_cn: stage 0, partition 0 (group 0)
        cn_49 = cnorm_ptr + offs_k_38  # load1_cn: stage 0, partition 0 (group 0)
        cn_50 = gl.load(cn_49, mask=k_mask_40, other=float("inf"))  # load1_cn: stage 0, partition 0 (group 0)
        dist = gl.expand_dims(cn_50_p1, 0)  # elementwise0_dist: stage 1, partition 0 (group 0)
        xc_52 = warpgroup_mma_wait(0, deps=(tok_xc_52,))
        mbarrier.arrive(c_48_empty.index((twill_base + 1 - 1) % 6))
        dist_53 = xc_52 * 2.0  # elementwise0_dist: stage 1, partition 0 (group 0)
        dist_54 = dist.broadcast_to([128, 64])  # elementwise0_dist: stage 1, partition 0 (group 0)
        dist_55 = dist_54 - dist_53  # elementwise0_dist: stage 1, partition 0 (group 0)
        best_dist_59_p1 = best_dist_59
        best_idx_60_p1 = best_idx_60
        cn_50_p1 = cn_50
        dist_55_p1 = dist_55
        for twill_b in range(2, twill_n):
            mbarrier.wait(c_48_ready.index((twill_base + twill_b - 1) % 6), ((twill_base + twill_b - 1) // 6) & 1)
            fence_async_shared()
            tok_xc_52 = warpgroup_mma(x_25, c_48_buf.index((twill_base + twill_b - 1) % 6).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_xc: stage 1, partition 0 (group 0)
            blk_arg_56_r0, blk_arg_56_r1 = gl.reduce((dist_55_p1, blk_arg_30), 1, twill_combine_d54653c1)  # reduce1_blk_arg: stage 2, partition 0 (group 0)
            blk_min = gl.min(dist_55_p1, axis=1)  # reduce0_blk_min: stage 2, partition 0 (group 0)
            blk_arg_57 = (0 + (twill_b - 2) * 64)  # elementwise1_better: stage 2, partition 0 (group 0)
            blk_arg_58 = blk_arg_56_r1 + blk_arg_57  # elementwise1_better: stage 2, partition 0 (group 0)
            better = blk_min < best_dist_59_p1  # elementwise1_better: stage 2, partition 0 (group 0)
            best_idx_60 = gl.where(better, blk_arg_58, best_idx_60_p1)  # elementwise1_better: stage 2, partition 0 (group 0)
            best_dist_59 = gl.where(better, blk_min, best_dist_59_p1)  # elementwise2_best_dist: stage 2, partition 0 (group 0)
            offs_k_36 = (0 + (twill_b - 0) * 64)  # load1_cn: stage 0, partition 0 (group 0)
            offs_k_38 = offs_k_36 + offs_k_26  # load1_cn: stage 0, partition 0 (group 0)
            k_mask_40 = offs_k_38 < K  # load1_cn: stage 0, partition 0 (group 0)
            cn_49 = cnorm_ptr + offs_k_38  # load1_cn: stage 0, partition 0 (group 0)
            cn_50 = gl.load(cn_49, mask=k_mask_40, other=float("inf"))  # load1_cn: stage 0, partition 0 (group 0)
            dist = gl.expand_dims(cn_50_p1, 0)  # elementwise0_dist: stage 1, partition 0 (group 0)
            xc_52 = warpgroup_mma_wait(0, deps=(tok_xc_52,))
            mbarrier.arrive(c_48_empty.index((twill_base + twill_b - 1) % 6))
            dist_53 = xc_52 * 2.0  # elementwise0_dist: stage 1, partition 0 (group 0)
            dist_54 = dist.broadcast_to([128, 64])  # elementwise0_dist: stage 1, partition 0 (group 0)
            dist_55 = dist_54 - dist_53  # elementwise0_dist: stage 1, partition 0 (group 0)
            best_dist_59_p1 = best_dist_59
            best_idx_60_p1 = best_idx_60
            cn_50_p1 = cn_50
            dist_55_p1 = dist_55
        mbarrier.wait(c_48_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 6), ((twill_base + (twill_n - 1 + 1) - 1) // 6) & 1)
        fence_async_shared()
        tok_xc_52 = warpgroup_mma(x_25, c_48_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 6).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_xc: stage 1, partition 0 (group 0)
        blk_arg_56_r0, blk_arg_56_r1 = gl.reduce((dist_55_p1, blk_arg_30), 1, twill_combine_d54653c1)  # reduce1_blk_arg: stage 2, partition 0 (group 0)
        blk_min = gl.min(dist_55_p1, axis=1)  # reduce0_blk_min: stage 2, partition 0 (group 0)
        blk_arg_57 = (0 + ((twill_n - 1 + 1) - 2) * 64)  # elementwise1_better: stage 2, partition 0 (group 0)
        blk_arg_58 = blk_arg_56_r1 + blk_arg_57  # elementwise1_better: stage 2, partition 0 (group 0)
        better = blk_min < best_dist_59_p1  # elementwise1_better: stage 2, partition 0 (group 0)
        best_idx_60 = gl.where(better, blk_arg_58, best_idx_60_p1)  # elementwise1_better: stage 2, partition 0 (group 0)
        best_dist_59 = gl.where(better, blk_min, best_dist_59_p1)  # elementwise2_best_dist: stage 2, partition 0 (group 0)
        dist = gl.expand_dims(cn_50_p1, 0)  # elementwise0_dist: stage 1, partition 0 (group 0)
        xc_52 = warpgroup_mma_wait(0, deps=(tok_xc_52,))
        mbarrier.arrive(c_48_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 6))
        dist_53 = xc_52 * 2.0  # elementwise0_dist: stage 1, partition 0 (group 0)
        dist_54 = dist.broadcast_to([128, 64])  # elementwise0_dist: stage 1, partition 0 (group 0)
        dist_55 = dist_54 - dist_53  # elementwise0_dist: stage 1, partition 0 (group 0)
        best_dist_59_p1 = best_dist_59
        best_idx_60_p1 = best_idx_60
        cn_50_p1 = cn_50
        dist_55_p1 = dist_55
        blk_arg_56_r0, blk_arg_56_r1 = gl.reduce((dist_55_p1, blk_arg_30), 1, twill_combine_d54653c1)  # reduce1_blk_arg: stage 2, partition 0 (group 0)
        blk_min = gl.min(dist_55_p1, axis=1)  # reduce0_blk_min: stage 2, partition 0 (group 0)
        blk_arg_57 = (0 + ((twill_n - 1 + 2) - 2) * 64)  # elementwise1_better: stage 2, partition 0 (group 0)
        blk_arg_58 = blk_arg_56_r1 + blk_arg_57  # elementwise1_better: stage 2, partition 0 (group 0)
        better = blk_min < best_dist_59_p1  # elementwise1_better: stage 2, partition 0 (group 0)
        best_idx_60 = gl.where(better, blk_arg_58, best_idx_60_p1)  # elementwise1_better: stage 2, partition 0 (group 0)
        best_dist_59 = gl.where(better, blk_min, best_dist_59_p1)  # elementwise2_best_dist: stage 2, partition 0 (group 0)
        best_dist_59_p1 = best_dist_59
        best_idx_60_p1 = best_idx_60
        cn_50_p1 = cn_50
        dist_55_p1 = dist_55
        x_25._keep_alive()
        c_48_buf._keep_alive()
        v1 = out_idx_ptr + offs_n_8
        v2 = gl.convert_layout(best_idx_60_p1, L1)
        gl.store(v1, v2, mask=n_mask_11)
        v4 = out_dist_ptr + offs_n_8
        v5 = gl.convert_layout(best_dist_59_p1, L1)
        gl.store(v4, v5, mask=n_mask_11)
        twill_base += twill_n

@gluon.jit
def producer_1(x_ptr, c_ptr, cnorm_ptr, out_idx_ptr, out_dist_ptr, N, K, stride_x, stride_c, twill_g0, twill_g1, twill_g2, twill_box_c_48, c_48_buf, c_48_ready, c_48_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        x_18 = gl.arange(0, 128, layout=L2)
        x_19 = gl.expand_dims(x_18, 0)
        offs_k = gl.arange(0, 64, layout=L0)
        c_29 = x_19.broadcast_to([64, 128])
        for best_idx_32 in range(0, K, 64):
            twill_k = twill_base + (best_idx_32 - 0) // 64
            offs_k_37 = best_idx_32 + offs_k
            k_mask_39 = offs_k_37 < K
            c_41 = gl.expand_dims(k_mask_39, 1)
            c_42 = gl.expand_dims(offs_k_37, 1)
            c_43 = c_42 * stride_c
            c_44 = c_ptr + c_43
            c_45 = c_44.broadcast_to([64, 128])
            c_46 = c_45 + c_29
            c_47 = c_41.broadcast_to([64, 128])
            mbarrier.wait(c_48_empty.index(twill_k % 6), ((twill_k // 6) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(c_48_ready.index(twill_k % 6), twill_box_c_48.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_c_48, [64 * ((best_idx_32 - 0) // 64), 0], c_48_ready.index(twill_k % 6), c_48_buf.index(twill_k % 6))  # load0_c: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(c_48_buf.index(twill_k % 6), c_46, mask=c_47)  # load0_c: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(c_48_ready.index(twill_k % 6), increment_count=False)
                else:
                    c_48_buf.index(twill_k % 6).store(gl.load(c_46, mask=c_47, other=0.0))  # load0_c: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(c_48_ready.index(twill_k % 6), count=128)
        twill_base += (K - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(x_ptr, c_ptr, cnorm_ptr, out_idx_ptr, out_dist_ptr, N, K, stride_x, stride_c, twill_g0, twill_g1, twill_g2, twill_box_c_48, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    c_48_buf = gl.allocate_shared_memory(gl.float16, [6, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    c_48_ready = gl.allocate_shared_memory(gl.int64, [6, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(6):
        mbarrier.init(c_48_ready.index(i), count=1 if TWILL_TMA else 128)
    c_48_empty = gl.allocate_shared_memory(gl.int64, [6, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(6):
        mbarrier.init(c_48_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, c_ptr, cnorm_ptr, out_idx_ptr, out_dist_ptr, N, K, stride_x, stride_c, twill_g0, twill_g1, twill_g2, twill_box_c_48, c_48_buf, c_48_ready, c_48_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (x_ptr, c_ptr, cnorm_ptr, out_idx_ptr, out_dist_ptr, N, K, stride_x, stride_c, twill_g0, twill_g1, twill_g2, twill_box_c_48, c_48_buf, c_48_ready, c_48_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [64])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))

@gluon.jit
def twill_combine_d54653c1_short(a0, a1, a2, a3):
    t0 = a0 == a2
    t1 = a1 < a3
    t2 = t0 & t1
    t3 = a0 < a2
    t4 = t3 | t2
    t5 = gl.where(t4, a0, a2)
    t6 = gl.where(t4, a1, a3)
    return t5, t6

@gluon.jit
def consumer_0_short(x_ptr, c_ptr, cnorm_ptr, out_idx_ptr, out_dist_ptr, N, K, stride_x, stride_c, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    offs_n = pid * 128
    offs_n_3 = gl.arange(0, 128, layout=L0_short)
    offs_n_4 = gl.arange(0, 128, layout=L1_short)
    offs_n_7 = offs_n + offs_n_3
    offs_n_8 = offs_n + offs_n_4
    n_mask_10 = offs_n_7 < N
    n_mask_11 = offs_n_8 < N
    x_12 = gl.expand_dims(n_mask_10, 1)
    x_13 = gl.expand_dims(offs_n_7, 1)
    x_15 = x_13 * stride_x
    x_17 = x_ptr + x_15
    x_18 = gl.arange(0, 128, layout=L2_short)
    x_19 = gl.expand_dims(x_18, 0)
    x_20 = x_17.broadcast_to([128, 128])
    x_21 = x_19.broadcast_to([128, 128])
    x_22 = x_20 + x_21
    x_23 = x_12.broadcast_to([128, 128])
    x_24 = gl.load(x_22, mask=x_23, other=0.0)
    x_25 = gl.allocate_shared_memory(gl.float16, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), x_24)
    fence_async_shared()
    offs_k = gl.arange(0, 64, layout=L0_short)
    offs_k_26 = gl.arange(0, 64, layout=L3_short)
    c_29 = x_19.broadcast_to([64, 128])
    blk_arg = gl.expand_dims(offs_k_26, 0)
    blk_arg_30 = blk_arg.broadcast_to([128, 64])
    twill_n = (K - 0 + 64 - 1) // 64
    if (twill_n >= 3) | (gl.program_id(0) < 0):
        xc_ring = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        offs_k_37 = (0 + (0 - 0) * 64) + offs_k  # load0_c: stage 0, partition 0 (group 0)
        c_42 = gl.expand_dims(offs_k_37, 1)  # load0_c: stage 0, partition 0 (group 0)
        c_43 = c_42 * stride_c  # load0_c: stage 0, partition 0 (group 0)
        k_mask_39 = offs_k_37 < K  # load0_c: stage 0, partition 0 (group 0)
        c_44 = c_ptr + c_43  # load0_c: stage 0, partition 0 (group 0)
        c_41 = gl.expand_dims(k_mask_39, 1)  # load0_c: stage 0, partition 0 (group 0)
        c_45 = c_44.broadcast_to([64, 128])  # load0_c: stage 0, partition 0 (group 0)
        c_46 = c_45 + c_29  # load0_c: stage 0, partition 0 (group 0)
        c_47 = c_41.broadcast_to([64, 128])  # load0_c: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_c: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(xc_ring.index((0 - 0) % 4), c_46, mask=c_47)  # load0_c: stage 0, partition 0 (group 0)
        else:  # load0_c: stage 0, partition 0 (group 0)
            xc_ring.index((0 - 0) % 4).store(gl.load(c_46, mask=c_47, other=0.0))  # load0_c: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_c: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        offs_k_37 = (0 + (1 - 0) * 64) + offs_k  # load0_c: stage 0, partition 0 (group 0)
        c_42 = gl.expand_dims(offs_k_37, 1)  # load0_c: stage 0, partition 0 (group 0)
        c_43 = c_42 * stride_c  # load0_c: stage 0, partition 0 (group 0)
        k_mask_39 = offs_k_37 < K  # load0_c: stage 0, partition 0 (group 0)
        c_44 = c_ptr + c_43  # load0_c: stage 0, partition 0 (group 0)
        c_41 = gl.expand_dims(k_mask_39, 1)  # load0_c: stage 0, partition 0 (group 0)
        c_45 = c_44.broadcast_to([64, 128])  # load0_c: stage 0, partition 0 (group 0)
        c_46 = c_45 + c_29  # load0_c: stage 0, partition 0 (group 0)
        c_47 = c_41.broadcast_to([64, 128])  # load0_c: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_c: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(xc_ring.index((1 - 0) % 4), c_46, mask=c_47)  # load0_c: stage 0, partition 0 (group 0)
        else:  # load0_c: stage 0, partition 0 (group 0)
            xc_ring.index((1 - 0) % 4).store(gl.load(c_46, mask=c_47, other=0.0))  # load0_c: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_c: stage 0, partition 0 (group 0)
        offs_k_38 = (0 + (1 - 1) * 64) + offs_k_26  # load1_cn: stage 1, partition 0 (group 0)
        k_mask_40 = offs_k_38 < K  # load1_cn: stage 1, partition 0 (group 0)
        cn_49 = cnorm_ptr + offs_k_38  # load1_cn: stage 1, partition 0 (group 0)
        cn_50 = gl.load(cn_49, mask=k_mask_40, other=float("inf"))  # load1_cn: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        cn_50_p1 = cn_50
        best_dist_59 = gl.full([128], float("inf"), gl.float32, layout=L4_short)
        best_idx_60 = gl.full([128], 0, gl.int32, layout=L4_short)
        offs_k_37 = (0 + (2 - 0) * 64) + offs_k  # load0_c: stage 0, partition 0 (group 0)
        c_42 = gl.expand_dims(offs_k_37, 1)  # load0_c: stage 0, partition 0 (group 0)
        c_43 = c_42 * stride_c  # load0_c: stage 0, partition 0 (group 0)
        k_mask_39 = offs_k_37 < K  # load0_c: stage 0, partition 0 (group 0)
        c_44 = c_ptr + c_43  # load0_c: stage 0, partition 0 (group 0)
        async_copy.wait_group(1)
        gl.thread_barrier()
        xc = xc_ring.index((2 - 2) % 4)  # load0_c: stage 2, partition 0 (group 0)
        c_41 = gl.expand_dims(k_mask_39, 1)  # load0_c: stage 0, partition 0 (group 0)
        c_45 = c_44.broadcast_to([64, 128])  # load0_c: stage 0, partition 0 (group 0)
        c_46 = c_45 + c_29  # load0_c: stage 0, partition 0 (group 0)
        c_47 = c_41.broadcast_to([64, 128])  # load0_c: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_c: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(xc_ring.index((2 - 0) % 4), c_46, mask=c_47)  # load0_c: stage 0, partition 0 (group 0)
        else:  # load0_c: stage 0, partition 0 (group 0)
            xc_ring.index((2 - 0) % 4).store(gl.load(c_46, mask=c_47, other=0.0))  # load0_c: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_c: stage 0, partition 0 (group 0)
        xc_51 = xc.permute((1, 0))  # load0_c: stage 2, partition 0 (group 0)
        tok_xc_52 = warpgroup_mma(x_25, xc_51, gl.full([128, 64], 0.0, gl.float32, layout=L5_short), use_acc=False, is_async=True)  # dot0_xc: stage 2, partition 0 (group 0)
        offs_k_38 = (0 + (2 - 1) * 64) + offs_k_26  # load1_cn: stage 1, partition 0 (group 0)
        k_mask_40 = offs_k_38 < K  # load1_cn: stage 1, partition 0 (group 0)
        cn_49 = cnorm_ptr + offs_k_38  # load1_cn: stage 1, partition 0 (group 0)
        cn_50 = gl.load(cn_49, mask=k_mask_40, other=float("inf"))  # load1_cn: stage 1, partition 0 (group 0)
        dist = gl.expand_dims(cn_50_p1, 0)  # elementwise0_dist: stage 2, partition 0 (group 0)
        xc_52 = warpgroup_mma_wait(0, deps=(tok_xc_52,))
        dist_53 = xc_52 * 2.0  # elementwise0_dist: stage 2, partition 0 (group 0)
        dist_54 = dist.broadcast_to([128, 64])  # elementwise0_dist: stage 2, partition 0 (group 0)
        dist_55 = dist_54 - dist_53  # elementwise0_dist: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        best_dist_59_p1 = best_dist_59
        best_idx_60_p1 = best_idx_60
        cn_50_p1 = cn_50
        dist_55_p1 = dist_55
        for twill_b in range(3, twill_n):
            offs_k_35 = (0 + (twill_b - 0) * 64)  # load0_c: stage 0, partition 0 (group 0)
            offs_k_37 = offs_k_35 + offs_k  # load0_c: stage 0, partition 0 (group 0)
            c_42 = gl.expand_dims(offs_k_37, 1)  # load0_c: stage 0, partition 0 (group 0)
            c_43 = c_42 * stride_c  # load0_c: stage 0, partition 0 (group 0)
            k_mask_39 = offs_k_37 < K  # load0_c: stage 0, partition 0 (group 0)
            c_44 = c_ptr + c_43  # load0_c: stage 0, partition 0 (group 0)
            async_copy.wait_group(1)
            gl.thread_barrier()
            xc = xc_ring.index((twill_b - 2) % 4)  # load0_c: stage 2, partition 0 (group 0)
            c_41 = gl.expand_dims(k_mask_39, 1)  # load0_c: stage 0, partition 0 (group 0)
            c_45 = c_44.broadcast_to([64, 128])  # load0_c: stage 0, partition 0 (group 0)
            c_46 = c_45 + c_29  # load0_c: stage 0, partition 0 (group 0)
            c_47 = c_41.broadcast_to([64, 128])  # load0_c: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_c: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(xc_ring.index((twill_b - 0) % 4), c_46, mask=c_47)  # load0_c: stage 0, partition 0 (group 0)
            else:  # load0_c: stage 0, partition 0 (group 0)
                xc_ring.index((twill_b - 0) % 4).store(gl.load(c_46, mask=c_47, other=0.0))  # load0_c: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_c: stage 0, partition 0 (group 0)
            xc_51 = xc.permute((1, 0))  # load0_c: stage 2, partition 0 (group 0)
            tok_xc_52 = warpgroup_mma(x_25, xc_51, gl.full([128, 64], 0.0, gl.float32, layout=L5_short), use_acc=False, is_async=True)  # dot0_xc: stage 2, partition 0 (group 0)
            blk_arg_56_r0, blk_arg_56_r1 = gl.reduce((dist_55_p1, blk_arg_30), 1, twill_combine_d54653c1_short)  # reduce1_blk_arg: stage 3, partition 0 (group 0)
            blk_min = gl.min(dist_55_p1, axis=1)  # reduce0_blk_min: stage 3, partition 0 (group 0)
            blk_arg_57 = (0 + (twill_b - 3) * 64)  # elementwise1_better: stage 3, partition 0 (group 0)
            blk_arg_58 = blk_arg_56_r1 + blk_arg_57  # elementwise1_better: stage 3, partition 0 (group 0)
            better = blk_min < best_dist_59_p1  # elementwise1_better: stage 3, partition 0 (group 0)
            best_idx_60 = gl.where(better, blk_arg_58, best_idx_60_p1)  # elementwise1_better: stage 3, partition 0 (group 0)
            best_dist_59 = gl.where(better, blk_min, best_dist_59_p1)  # elementwise2_best_dist: stage 3, partition 0 (group 0)
            offs_k_36 = (0 + (twill_b - 1) * 64)  # load1_cn: stage 1, partition 0 (group 0)
            offs_k_38 = offs_k_36 + offs_k_26  # load1_cn: stage 1, partition 0 (group 0)
            k_mask_40 = offs_k_38 < K  # load1_cn: stage 1, partition 0 (group 0)
            cn_49 = cnorm_ptr + offs_k_38  # load1_cn: stage 1, partition 0 (group 0)
            cn_50 = gl.load(cn_49, mask=k_mask_40, other=float("inf"))  # load1_cn: stage 1, partition 0 (group 0)
            dist = gl.expand_dims(cn_50_p1, 0)  # elementwise0_dist: stage 2, partition 0 (group 0)
            xc_52 = warpgroup_mma_wait(0, deps=(tok_xc_52,))
            dist_53 = xc_52 * 2.0  # elementwise0_dist: stage 2, partition 0 (group 0)
            dist_54 = dist.broadcast_to([128, 64])  # elementwise0_dist: stage 2, partition 0 (group 0)
            dist_55 = dist_54 - dist_53  # elementwise0_dist: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            best_dist_59_p1 = best_dist_59
            best_idx_60_p1 = best_idx_60
            cn_50_p1 = cn_50
            dist_55_p1 = dist_55
        async_copy.wait_group(1)
        gl.thread_barrier()
        xc = xc_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load0_c: stage 2, partition 0 (group 0)
        xc_51 = xc.permute((1, 0))  # load0_c: stage 2, partition 0 (group 0)
        tok_xc_52 = warpgroup_mma(x_25, xc_51, gl.full([128, 64], 0.0, gl.float32, layout=L5_short), use_acc=False, is_async=True)  # dot0_xc: stage 2, partition 0 (group 0)
        blk_arg_56_r0, blk_arg_56_r1 = gl.reduce((dist_55_p1, blk_arg_30), 1, twill_combine_d54653c1_short)  # reduce1_blk_arg: stage 3, partition 0 (group 0)
        blk_min = gl.min(dist_55_p1, axis=1)  # reduce0_blk_min: stage 3, partition 0 (group 0)
        blk_arg_57 = (0 + ((twill_n - 1 + 1) - 3) * 64)  # elementwise1_better: stage 3, partition 0 (group 0)
        blk_arg_58 = blk_arg_56_r1 + blk_arg_57  # elementwise1_better: stage 3, partition 0 (group 0)
        better = blk_min < best_dist_59_p1  # elementwise1_better: stage 3, partition 0 (group 0)
        best_idx_60 = gl.where(better, blk_arg_58, best_idx_60_p1)  # elementwise1_better: stage 3, partition 0 (group 0)
        best_dist_59 = gl.where(better, blk_min, best_dist_59_p1)  # elementwise2_best_dist: stage 3, partition 0 (group 0)
        offs_k_36 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # load1_cn: stage 1, partition 0 (group 0)
        offs_k_38 = offs_k_36 + offs_k_26  # load1_cn: stage 1, partition 0 (group 0)
        k_mask_40 = offs_k_38 < K  # load1_cn: stage 1, partition 0 (group 0)
        cn_49 = cnorm_ptr + offs_k_38  # load1_cn: stage 1, partition 0 (group 0)
        cn_50 = gl.load(cn_49, mask=k_mask_40, other=float("inf"))  # load1_cn: stage 1, partition 0 (group 0)
        dist = gl.expand_dims(cn_50_p1, 0)  # elementwise0_dist: stage 2, partition 0 (group 0)
        xc_52 = warpgroup_mma_wait(0, deps=(tok_xc_52,))
        dist_53 = xc_52 * 2.0  # elementwise0_dist: stage 2, partition 0 (group 0)
        dist_54 = dist.broadcast_to([128, 64])  # elementwise0_dist: stage 2, partition 0 (group 0)
        dist_55 = dist_54 - dist_53  # elementwise0_dist: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        best_dist_59_p1 = best_dist_59
        best_idx_60_p1 = best_idx_60
        cn_50_p1 = cn_50
        dist_55_p1 = dist_55
        async_copy.wait_group(1)
        gl.thread_barrier()
        xc = xc_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load0_c: stage 2, partition 0 (group 0)
        xc_51 = xc.permute((1, 0))  # load0_c: stage 2, partition 0 (group 0)
        tok_xc_52 = warpgroup_mma(x_25, xc_51, gl.full([128, 64], 0.0, gl.float32, layout=L5_short), use_acc=False, is_async=True)  # dot0_xc: stage 2, partition 0 (group 0)
        blk_arg_56_r0, blk_arg_56_r1 = gl.reduce((dist_55_p1, blk_arg_30), 1, twill_combine_d54653c1_short)  # reduce1_blk_arg: stage 3, partition 0 (group 0)
        blk_min = gl.min(dist_55_p1, axis=1)  # reduce0_blk_min: stage 3, partition 0 (group 0)
        blk_arg_57 = (0 + ((twill_n - 1 + 2) - 3) * 64)  # elementwise1_better: stage 3, partition 0 (group 0)
        blk_arg_58 = blk_arg_56_r1 + blk_arg_57  # elementwise1_better: stage 3, partition 0 (group 0)
        better = blk_min < best_dist_59_p1  # elementwise1_better: stage 3, partition 0 (group 0)
        best_idx_60 = gl.where(better, blk_arg_58, best_idx_60_p1)  # elementwise1_better: stage 3, partition 0 (group 0)
        best_dist_59 = gl.where(better, blk_min, best_dist_59_p1)  # elementwise2_best_dist: stage 3, partition 0 (group 0)
        dist = gl.expand_dims(cn_50_p1, 0)  # elementwise0_dist: stage 2, partition 0 (group 0)
        xc_52 = warpgroup_mma_wait(0, deps=(tok_xc_52,))
        dist_53 = xc_52 * 2.0  # elementwise0_dist: stage 2, partition 0 (group 0)
        dist_54 = dist.broadcast_to([128, 64])  # elementwise0_dist: stage 2, partition 0 (group 0)
        dist_55 = dist_54 - dist_53  # elementwise0_dist: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        best_dist_59_p1 = best_dist_59
        best_idx_60_p1 = best_idx_60
        cn_50_p1 = cn_50
        dist_55_p1 = dist_55
        blk_arg_56_r0, blk_arg_56_r1 = gl.reduce((dist_55_p1, blk_arg_30), 1, twill_combine_d54653c1_short)  # reduce1_blk_arg: stage 3, partition 0 (group 0)
        blk_min = gl.min(dist_55_p1, axis=1)  # reduce0_blk_min: stage 3, partition 0 (group 0)
        blk_arg_57 = (0 + ((twill_n - 1 + 3) - 3) * 64)  # elementwise1_better: stage 3, partition 0 (group 0)
        blk_arg_58 = blk_arg_56_r1 + blk_arg_57  # elementwise1_better: stage 3, partition 0 (group 0)
        better = blk_min < best_dist_59_p1  # elementwise1_better: stage 3, partition 0 (group 0)
        best_idx_60 = gl.where(better, blk_arg_58, best_idx_60_p1)  # elementwise1_better: stage 3, partition 0 (group 0)
        best_dist_59 = gl.where(better, blk_min, best_dist_59_p1)  # elementwise2_best_dist: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        best_dist_59_p1 = best_dist_59
        best_idx_60_p1 = best_idx_60
        cn_50_p1 = cn_50
        dist_55_p1 = dist_55
        x_25._keep_alive()
        xc_ring._keep_alive()
    else:
        best_dist_33_w = gl.full([128], float("inf"), gl.float32, layout=L4_short)
        best_idx_34_w = gl.full([128], 0, gl.int32, layout=L4_short)
        for best_idx_32_w in range(0, K, 64):
            offs_k_37_w = best_idx_32_w + offs_k
            offs_k_38_w = best_idx_32_w + offs_k_26
            k_mask_39_w = offs_k_37_w < K
            k_mask_40_w = offs_k_38_w < K
            c_41_w = gl.expand_dims(k_mask_39_w, 1)
            c_42_w = gl.expand_dims(offs_k_37_w, 1)
            c_43_w = c_42_w * stride_c
            c_44_w = c_ptr + c_43_w
            c_45_w = c_44_w.broadcast_to([64, 128])
            c_46_w = c_45_w + c_29
            c_47_w = c_41_w.broadcast_to([64, 128])
            c_48_w = gl.load(c_46_w, mask=c_47_w, other=0.0)
            cn_49_w = cnorm_ptr + offs_k_38_w
            cn_50_w = gl.load(cn_49_w, mask=k_mask_40_w, other=float("inf"))
            xc_w = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), c_48_w)
            fence_async_shared()
            xc_52_w = warpgroup_mma(x_25, xc_w.permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L5_short))
            dist_w = gl.expand_dims(cn_50_w, 0)
            dist_53_w = xc_52_w * 2.0
            dist_54_w = dist_w.broadcast_to([128, 64])
            dist_55_w = dist_54_w - dist_53_w
            blk_min_w = gl.min(dist_55_w, axis=1)
            blk_arg_56_r0_w, blk_arg_56_r1_w = gl.reduce((dist_55_w, blk_arg_30), 1, twill_combine_d54653c1_short)
            blk_arg_58_w = blk_arg_56_r1_w + best_idx_32_w
            better_w = blk_min_w < best_dist_33_w
            best_dist_59_w = gl.where(better_w, blk_min_w, best_dist_33_w)
            best_idx_60_w = gl.where(better_w, blk_arg_58_w, best_idx_34_w)
            best_dist_33_w = best_dist_59_w
            best_idx_34_w = best_idx_60_w
        best_dist_59_p1 = best_dist_33_w
        best_idx_60_p1 = best_idx_34_w
    v1 = out_idx_ptr + offs_n_8
    v2 = gl.convert_layout(best_idx_60_p1, L1_short)
    gl.store(v1, v2, mask=n_mask_11)
    v4 = out_dist_ptr + offs_n_8
    v5 = gl.convert_layout(best_dist_59_p1, L1_short)
    gl.store(v4, v5, mask=n_mask_11)

@gluon.jit
def twill_kernel_short(x_ptr, c_ptr, cnorm_ptr, out_idx_ptr, out_dist_ptr, N, K, stride_x, stride_c, TWILL_COPY: gl.constexpr):
    consumer_0_short(x_ptr, c_ptr, cnorm_ptr, out_idx_ptr, out_dist_ptr, N, K, stride_x, stride_c, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'c_ptr', 'cnorm_ptr', 'out_idx_ptr', 'out_dist_ptr', 'N', 'K', 'stride_x', 'stride_c', 'D', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'c_ptr', 'cnorm_ptr', 'out_idx_ptr', 'out_dist_ptr', 'N', 'K', 'stride_x', 'stride_c', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_c_48']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'c_ptr', 'cnorm_ptr', 'out_idx_ptr', 'out_dist_ptr', 'N', 'K', 'stride_x', 'stride_c', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'D': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_c_48': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_c_48': ('c_ptr', ['stride_c', '1'], ['K', None], [64, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['c_ptr', 'stride_c']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(K + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} ((K + 64 - 1) // 64): run the Triton kernel for it")
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
ARGUMENTS_short = ['x_ptr', 'c_ptr', 'cnorm_ptr', 'out_idx_ptr', 'out_dist_ptr', 'N', 'K', 'stride_x', 'stride_c', 'D', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME_short = ['x_ptr', 'c_ptr', 'cnorm_ptr', 'out_idx_ptr', 'out_dist_ptr', 'N', 'K', 'stride_x', 'stride_c']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['x_ptr', 'c_ptr', 'cnorm_ptr', 'out_idx_ptr', 'out_dist_ptr', 'N', 'K', 'stride_x', 'stride_c']   # the arguments a launch key reads
CONSTEXPRS_short = {'D': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['c_ptr', 'stride_c']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
