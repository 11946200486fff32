"""_sdd_kernel, written by twill from its joint schedule: I=420 L=294 (optimal), 320 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a, b): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (72, 56 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- a, b by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over A, B when the base is 16-byte aligned, the row strides 16-byte multiples, (64) % 64 == 0; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 192 registers per thread (needs about 72): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a: 8 buffers of [64, 32] f16 (the loads run 7 iteration(s) ahead), read by partition(s) 0
- ring b: 8 buffers of [32, 64] f16 (the loads run 7 iteration(s) ahead), read by partition(s) 0
- shared memory: 65808 bytes planned of 232448; maxnreg 128
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 2 each of the producer's ((K + 32 - 1) // 32, from the launch's arguments), the launch runs the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 72 registers, clean, 5 CTA(s) an SM against the producer's 2; simulated for 0, 1, 2, 3, 4, 5, 10 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    block_id = gl.program_id(0)
    block_id_6 = block_id + grid_offset
    lut_7 = block_id_6 * 3
    lut_8 = lut + lut_7
    off_z = gl.program_id(2)
    off_h = gl.load(lut_8)
    start_am = lut_8 + 1
    start_am_9 = gl.load(start_am)
    offs_am = start_am_9 * 64
    offs_am_10 = gl.arange(0, 64, layout=L0)
    offs_am_11 = gl.arange(0, 64, layout=L1)
    offs_am_12 = gl.arange(0, 64, layout=L2)
    offs_am_13 = gl.arange(0, 64, layout=L3)
    offs_am_14 = offs_am_10 % 64
    offs_am_15 = offs_am_11 % 64
    offs_am_16 = offs_am_12 % 64
    offs_am_17 = offs_am_13 % 64
    offs_am_19 = offs_am + offs_am_14
    a_ptrs = off_z * stride_za
    a_ptrs_20 = A + a_ptrs
    a_ptrs_21 = off_h * stride_ha
    a_ptrs_22 = a_ptrs_20 + a_ptrs_21
    a_ptrs_23 = gl.expand_dims(offs_am_19, 1)
    a_ptrs_25 = a_ptrs_23 * stride_ma
    a_ptrs_27 = a_ptrs_22 + a_ptrs_25
    a_ptrs_28 = gl.arange(0, 32, layout=L4)
    a_ptrs_29 = gl.expand_dims(a_ptrs_28, 0)
    a_ptrs_30 = a_ptrs_27.broadcast_to([64, 32])
    a_ptrs_31 = a_ptrs_29.broadcast_to([64, 32])
    a_ptrs_32 = a_ptrs_30 + a_ptrs_31
    start_bn_33 = lut_8 + 2
    start_bn_34 = gl.load(start_bn_33)
    offs_bn = start_bn_34 * 64
    offs_bn_36 = offs_bn + offs_am_16
    b_ptrs = off_z * stride_zb
    b_ptrs_37 = B + b_ptrs
    b_ptrs_38 = off_h * stride_hb
    b_ptrs_39 = b_ptrs_37 + b_ptrs_38
    b_ptrs_40 = gl.expand_dims(offs_bn_36, 0)
    b_ptrs_42 = b_ptrs_40 * stride_nb
    b_ptrs_44 = b_ptrs_39 + b_ptrs_42
    b_ptrs_45 = gl.arange(0, 32, layout=L5)
    b_ptrs_46 = gl.expand_dims(b_ptrs_45, 1)
    b_ptrs_47 = b_ptrs_44.broadcast_to([32, 64])
    b_ptrs_48 = b_ptrs_46.broadcast_to([32, 64])
    b_ptrs_49 = b_ptrs_47 + b_ptrs_48
    twill_n = (K - 0 + 32 - 1) // 32
    acc_67 = gl.full([64, 64], 0.0, gl.float32, layout=L6)
    acc_67_p1 = acc_67
    for twill_b in range(0, twill_n):
        mbarrier.wait(a_ready.index((twill_b - 0) % 8), ((twill_b - 0) // 8) & 1)
        fence_async_shared()
        mbarrier.wait(b_ready.index((twill_b - 0) % 8), ((twill_b - 0) // 8) & 1)
        fence_async_shared()
        tok_acc_67 = warpgroup_mma(a_buf.index((twill_b - 0) % 8), b_buf.index((twill_b - 0) % 8).permute((1, 0)), acc_67_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_67_p1 = warpgroup_mma_wait(1, deps=(acc_67_p1,))
        mbarrier.arrive(a_empty.index((twill_b - 1 - 0) % 8), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(b_empty.index((twill_b - 1 - 0) % 8), pred=(twill_b - 1 - 0) >= 0)
        acc_67 = warpgroup_mma_wait(1, deps=(tok_acc_67,))
        acc_67_p1 = acc_67
    acc_67_p1 = warpgroup_mma_wait(0, deps=(acc_67_p1,))
    a_buf._keep_alive()
    b_buf._keep_alive()
    mbarrier.arrive(a_empty.index(((twill_n - 1) - 0) % 8), pred=twill_n > 0)
    mbarrier.arrive(b_empty.index(((twill_n - 1) - 0) % 8), pred=twill_n > 0)
    c = acc_67_p1.to(gl.float16)
    pc = off_z * stride_zc
    pc_50 = C + pc
    pc_51 = block_id_6 * stride_hc
    pc_52 = pc_50 + pc_51
    pc_53 = gl.expand_dims(offs_am_15, 1)
    pc_55 = pc_53 * stride_mc
    pc_57 = pc_52 + pc_55
    pc_58 = gl.expand_dims(offs_am_17, 0)
    pc_59 = pc_57.broadcast_to([64, 64])
    pc_60 = pc_58.broadcast_to([64, 64])
    pc_61 = pc_59 + pc_60
    v0 = gl.convert_layout(c, L7)
    gl.store(pc_61, v0)

@gluon.jit
def producer_1(A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    block_id = gl.program_id(0)
    block_id_6 = block_id + grid_offset
    lut_7 = block_id_6 * 3
    lut_8 = lut + lut_7
    off_z = gl.program_id(2)
    off_h = gl.load(lut_8)
    start_am = lut_8 + 1
    start_am_9 = gl.load(start_am)
    offs_am = start_am_9 * 64
    offs_am_10 = gl.arange(0, 64, layout=L0)
    offs_am_12 = gl.arange(0, 64, layout=L2)
    offs_am_14 = offs_am_10 % 64
    offs_am_16 = offs_am_12 % 64
    offs_am_19 = offs_am + offs_am_14
    a_ptrs = off_z * stride_za
    a_ptrs_20 = A + a_ptrs
    a_ptrs_21 = off_h * stride_ha
    a_ptrs_22 = a_ptrs_20 + a_ptrs_21
    a_ptrs_23 = gl.expand_dims(offs_am_19, 1)
    a_ptrs_25 = a_ptrs_23 * stride_ma
    a_ptrs_27 = a_ptrs_22 + a_ptrs_25
    a_ptrs_28 = gl.arange(0, 32, layout=L4)
    a_ptrs_29 = gl.expand_dims(a_ptrs_28, 0)
    a_ptrs_30 = a_ptrs_27.broadcast_to([64, 32])
    a_ptrs_31 = a_ptrs_29.broadcast_to([64, 32])
    a_ptrs_32 = a_ptrs_30 + a_ptrs_31
    start_bn_33 = lut_8 + 2
    start_bn_34 = gl.load(start_bn_33)
    offs_bn = start_bn_34 * 64
    offs_bn_36 = offs_bn + offs_am_16
    b_ptrs = off_z * stride_zb
    b_ptrs_37 = B + b_ptrs
    b_ptrs_38 = off_h * stride_hb
    b_ptrs_39 = b_ptrs_37 + b_ptrs_38
    b_ptrs_40 = gl.expand_dims(offs_bn_36, 0)
    b_ptrs_42 = b_ptrs_40 * stride_nb
    b_ptrs_44 = b_ptrs_39 + b_ptrs_42
    b_ptrs_45 = gl.arange(0, 32, layout=L5)
    b_ptrs_46 = gl.expand_dims(b_ptrs_45, 1)
    b_ptrs_47 = b_ptrs_44.broadcast_to([32, 64])
    b_ptrs_48 = b_ptrs_46.broadcast_to([32, 64])
    b_ptrs_49 = b_ptrs_47 + b_ptrs_48
    a_ptrs_63 = a_ptrs_32
    b_ptrs_64 = b_ptrs_49
    for acc_62 in range(0, K, 32):
        twill_k = (acc_62 - 0) // 32
        a_ptrs_68 = a_ptrs_63 + 32
        b_ptrs_69 = b_ptrs_64 + 32
        mbarrier.wait(a_empty.index(twill_k % 8), ((twill_k // 8) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(a_ready.index(twill_k % 8), twill_box_a.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_a, [((0) % (64)) + 64 * start_am_9, off_h * stride_ha + off_z * stride_za + 32 * ((acc_62 - 0) // 32)], a_ready.index(twill_k % 8), a_buf.index(twill_k % 8))  # load0_a: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 8), a_ptrs_63)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_ready.index(twill_k % 8), increment_count=False)
            else:
                a_buf.index(twill_k % 8).store(gl.load(a_ptrs_63))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_ready.index(twill_k % 8), count=128)
        mbarrier.wait(b_empty.index(twill_k % 8), ((twill_k // 8) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(b_ready.index(twill_k % 8), twill_box_b.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_b, [((0) % (64)) + 64 * start_bn_34, off_h * stride_hb + off_z * stride_zb + 32 * ((acc_62 - 0) // 32)], b_ready.index(twill_k % 8), b_buf.index(twill_k % 8))  # load1_b: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 8).permute((1, 0)), b_ptrs_64)  # load1_b: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_ready.index(twill_k % 8), increment_count=False)
            else:
                b_buf.index(twill_k % 8).permute((1, 0)).store(gl.load(b_ptrs_64))  # load1_b: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_ready.index(twill_k % 8), count=128)
        a_ptrs_63 = a_ptrs_68
        b_ptrs_64 = b_ptrs_69

@gluon.jit
def twill_kernel(A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, twill_box_a, twill_box_b, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.float16, [8, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_buf = gl.allocate_shared_memory(gl.float16, [8, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    a_ready = gl.allocate_shared_memory(gl.int64, [8, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(8):
        mbarrier.init(a_ready.index(i), count=1 if TWILL_TMA else 128)
    a_empty = gl.allocate_shared_memory(gl.int64, [8, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(8):
        mbarrier.init(a_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [8, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(8):
        mbarrier.init(b_ready.index(i), count=1 if TWILL_TMA else 128)
    b_empty = gl.allocate_shared_memory(gl.int64, [8, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(8):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L6_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, TWILL_COPY: gl.constexpr):
    block_id = gl.program_id(0)
    block_id_6 = block_id + grid_offset
    lut_7 = block_id_6 * 3
    lut_8 = lut + lut_7
    off_z = gl.program_id(2)
    off_h = gl.load(lut_8)
    start_am = lut_8 + 1
    start_am_9 = gl.load(start_am)
    offs_am = start_am_9 * 64
    offs_am_10 = gl.arange(0, 64, layout=L0_short)
    offs_am_11 = gl.arange(0, 64, layout=L1_short)
    offs_am_12 = gl.arange(0, 64, layout=L2_short)
    offs_am_13 = gl.arange(0, 64, layout=L3_short)
    offs_am_14 = offs_am_10 % 64
    offs_am_15 = offs_am_11 % 64
    offs_am_16 = offs_am_12 % 64
    offs_am_17 = offs_am_13 % 64
    offs_am_19 = offs_am + offs_am_14
    a_ptrs = off_z * stride_za
    a_ptrs_20 = A + a_ptrs
    a_ptrs_21 = off_h * stride_ha
    a_ptrs_22 = a_ptrs_20 + a_ptrs_21
    a_ptrs_23 = gl.expand_dims(offs_am_19, 1)
    a_ptrs_25 = a_ptrs_23 * stride_ma
    a_ptrs_27 = a_ptrs_22 + a_ptrs_25
    a_ptrs_28 = gl.arange(0, 32, layout=L4_short)
    a_ptrs_29 = gl.expand_dims(a_ptrs_28, 0)
    a_ptrs_30 = a_ptrs_27.broadcast_to([64, 32])
    a_ptrs_31 = a_ptrs_29.broadcast_to([64, 32])
    a_ptrs_32 = a_ptrs_30 + a_ptrs_31
    start_bn_33 = lut_8 + 2
    start_bn_34 = gl.load(start_bn_33)
    offs_bn = start_bn_34 * 64
    offs_bn_36 = offs_bn + offs_am_16
    b_ptrs = off_z * stride_zb
    b_ptrs_37 = B + b_ptrs
    b_ptrs_38 = off_h * stride_hb
    b_ptrs_39 = b_ptrs_37 + b_ptrs_38
    b_ptrs_40 = gl.expand_dims(offs_bn_36, 0)
    b_ptrs_42 = b_ptrs_40 * stride_nb
    b_ptrs_44 = b_ptrs_39 + b_ptrs_42
    b_ptrs_45 = gl.arange(0, 32, layout=L5_short)
    b_ptrs_46 = gl.expand_dims(b_ptrs_45, 1)
    b_ptrs_47 = b_ptrs_44.broadcast_to([32, 64])
    b_ptrs_48 = b_ptrs_46.broadcast_to([32, 64])
    b_ptrs_49 = b_ptrs_47 + b_ptrs_48
    twill_n = (K - 0 + 32 - 1) // 32
    if (twill_n >= 3) | (gl.program_id(0) < 0):
        a_65_ring = gl.allocate_shared_memory(gl.float16, [5, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
        b_66_ring = gl.allocate_shared_memory(gl.float16, [5, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
        a_ptrs_68 = a_ptrs_32
        b_ptrs_69 = b_ptrs_49
        a_ptrs_68_p1 = a_ptrs_68
        b_ptrs_69_p1 = b_ptrs_69
        a_ptrs_68 = a_ptrs_68_p1 + 32  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_69 = b_ptrs_69_p1 + 32  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_65_ring.index((0 - 0) % 5), a_ptrs_68_p1)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_65_ring.index((0 - 0) % 5).store(gl.load(a_ptrs_68_p1))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_66_ring.index((0 - 0) % 5), b_ptrs_69_p1)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_66_ring.index((0 - 0) % 5).store(gl.load(b_ptrs_69_p1))  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_68_p1 = a_ptrs_68
        b_ptrs_69_p1 = b_ptrs_69
        a_ptrs_68 = a_ptrs_68_p1 + 32  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_69 = b_ptrs_69_p1 + 32  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_65_ring.index((1 - 0) % 5), a_ptrs_68_p1)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_65_ring.index((1 - 0) % 5).store(gl.load(a_ptrs_68_p1))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_66_ring.index((1 - 0) % 5), b_ptrs_69_p1)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_66_ring.index((1 - 0) % 5).store(gl.load(b_ptrs_69_p1))  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_68_p1 = a_ptrs_68
        b_ptrs_69_p1 = b_ptrs_69
        acc_67 = gl.full([64, 64], 0.0, gl.float32, layout=L6_short)
        a_ptrs_68 = a_ptrs_68_p1 + 32  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_69 = b_ptrs_69_p1 + 32  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_65_ring.index((2 - 0) % 5), a_ptrs_68_p1)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_65_ring.index((2 - 0) % 5).store(gl.load(a_ptrs_68_p1))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_66_ring.index((2 - 0) % 5), b_ptrs_69_p1)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_66_ring.index((2 - 0) % 5).store(gl.load(b_ptrs_69_p1))  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_68_p1 = a_ptrs_68
        acc_67_p1 = acc_67
        b_ptrs_69_p1 = b_ptrs_69
        for twill_b in range(3, twill_n):
            async_copy.wait_group(2)
            gl.thread_barrier()
            a_65 = a_65_ring.index((twill_b - 3) % 5)  # load0_a: stage 3, partition 0 (group 0)
            b_66 = b_66_ring.index((twill_b - 3) % 5)  # load1_b: stage 3, partition 0 (group 0)
            a_ptrs_68 = a_ptrs_68_p1 + 32  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_69 = b_ptrs_69_p1 + 32  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_65_ring.index((twill_b - 0) % 5), a_ptrs_68_p1)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_65_ring.index((twill_b - 0) % 5).store(gl.load(a_ptrs_68_p1))  # load0_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_66_ring.index((twill_b - 0) % 5), b_ptrs_69_p1)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_66_ring.index((twill_b - 0) % 5).store(gl.load(b_ptrs_69_p1))  # load1_b: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            tok_acc_67 = warpgroup_mma(a_65, b_66, acc_67_p1, is_async=True)  # dot0_acc: stage 3, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_acc_67,))
            acc_67 = warpgroup_mma_wait(1, deps=(tok_acc_67,))
            a_ptrs_68_p1 = a_ptrs_68
            acc_67_p1 = acc_67
            b_ptrs_69_p1 = b_ptrs_69
        async_copy.wait_group(2)
        gl.thread_barrier()
        a_65 = a_65_ring.index(((twill_n - 1 + 1) - 3) % 5)  # load0_a: stage 3, partition 0 (group 0)
        b_66 = b_66_ring.index(((twill_n - 1 + 1) - 3) % 5)  # load1_b: stage 3, partition 0 (group 0)
        tok_acc_67 = warpgroup_mma(a_65, b_66, acc_67_p1, is_async=True)  # dot0_acc: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_67,))
        acc_67 = warpgroup_mma_wait(1, deps=(tok_acc_67,))
        a_ptrs_68_p2 = a_ptrs_68_p1
        a_ptrs_68_p1 = a_ptrs_68
        acc_67_p1 = acc_67
        b_ptrs_69_p2 = b_ptrs_69_p1
        b_ptrs_69_p1 = b_ptrs_69
        async_copy.wait_group(2)
        gl.thread_barrier()
        a_65 = a_65_ring.index(((twill_n - 1 + 2) - 3) % 5)  # load0_a: stage 3, partition 0 (group 0)
        b_66 = b_66_ring.index(((twill_n - 1 + 2) - 3) % 5)  # load1_b: stage 3, partition 0 (group 0)
        tok_acc_67 = warpgroup_mma(a_65, b_66, acc_67_p1, is_async=True)  # dot0_acc: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_67,))
        acc_67 = warpgroup_mma_wait(1, deps=(tok_acc_67,))
        a_ptrs_68_p3 = a_ptrs_68_p2
        a_ptrs_68_p2 = a_ptrs_68_p1
        a_ptrs_68_p1 = a_ptrs_68
        acc_67_p1 = acc_67
        b_ptrs_69_p3 = b_ptrs_69_p2
        b_ptrs_69_p2 = b_ptrs_69_p1
        b_ptrs_69_p1 = b_ptrs_69
        async_copy.wait_group(2)
        gl.thread_barrier()
        a_65 = a_65_ring.index(((twill_n - 1 + 3) - 3) % 5)  # load0_a: stage 3, partition 0 (group 0)
        b_66 = b_66_ring.index(((twill_n - 1 + 3) - 3) % 5)  # load1_b: stage 3, partition 0 (group 0)
        tok_acc_67 = warpgroup_mma(a_65, b_66, acc_67_p1, is_async=True)  # dot0_acc: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_67,))
        acc_67 = warpgroup_mma_wait(1, deps=(tok_acc_67,))
        a_ptrs_68_p4 = a_ptrs_68_p3
        a_ptrs_68_p3 = a_ptrs_68_p2
        a_ptrs_68_p2 = a_ptrs_68_p1
        a_ptrs_68_p1 = a_ptrs_68
        acc_67_p1 = acc_67
        b_ptrs_69_p4 = b_ptrs_69_p3
        b_ptrs_69_p3 = b_ptrs_69_p2
        b_ptrs_69_p2 = b_ptrs_69_p1
        b_ptrs_69_p1 = b_ptrs_69
        acc_67_p1 = warpgroup_mma_wait(0, deps=(acc_67_p1,))
        a_65_ring._keep_alive()
        b_66_ring._keep_alive()
    else:
        arg16_w = gl.full([64, 64], 0.0, gl.float32, layout=L6_short)
        a_ptrs_63_w = a_ptrs_32
        b_ptrs_64_w = b_ptrs_49
        for acc_62_w in range(0, K, 32):
            a_w = gl.load(a_ptrs_63_w)
            a_65_w = gl.allocate_shared_memory(gl.float16, [64, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False), a_w)
            fence_async_shared()
            b_w = gl.load(b_ptrs_64_w)
            b_66_w = gl.allocate_shared_memory(gl.float16, [32, 64], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True), b_w)
            fence_async_shared()
            acc_67_w = warpgroup_mma(a_65_w, b_66_w, arg16_w)
            a_ptrs_68_w = a_ptrs_63_w + 32
            b_ptrs_69_w = b_ptrs_64_w + 32
            arg16_w = acc_67_w
            a_ptrs_63_w = a_ptrs_68_w
            b_ptrs_64_w = b_ptrs_69_w
        acc_67_p1 = arg16_w
        a_ptrs_68_p4 = a_ptrs_63_w
        b_ptrs_69_p4 = b_ptrs_64_w
    c = acc_67_p1.to(gl.float16)
    pc = off_z * stride_zc
    pc_50 = C + pc
    pc_51 = block_id_6 * stride_hc
    pc_52 = pc_50 + pc_51
    pc_53 = gl.expand_dims(offs_am_15, 1)
    pc_55 = pc_53 * stride_mc
    pc_57 = pc_52 + pc_55
    pc_58 = gl.expand_dims(offs_am_17, 0)
    pc_59 = pc_57.broadcast_to([64, 64])
    pc_60 = pc_58.broadcast_to([64, 64])
    pc_61 = pc_59 + pc_60
    v0 = gl.convert_layout(c, L7_short)
    gl.store(pc_61, v0)

@gluon.jit
def twill_kernel_short(A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, TWILL_COPY: gl.constexpr):
    consumer_0_short(A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'C', 'stride_za', 'stride_ha', 'stride_ma', 'stride_ak', 'stride_zb', 'stride_hb', 'stride_bk', 'stride_nb', 'stride_zc', 'stride_hc', 'stride_mc', 'stride_nc', 'K', 'grid_offset', 'lut', 'TILE_M', 'TILE_N', 'TILE_K', 'BLOCK', 'EVEN_K']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'C', 'stride_za', 'stride_ha', 'stride_ma', 'stride_zb', 'stride_hb', 'stride_nb', 'stride_zc', 'stride_hc', 'stride_mc', 'K', 'grid_offset', 'lut', 'twill_box_a', 'twill_box_b']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'C', 'stride_za', 'stride_ha', 'stride_ma', 'stride_zb', 'stride_hb', 'stride_nb', 'stride_zc', 'stride_hc', 'stride_mc', 'K', 'grid_offset', 'lut']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_nc': 1, 'TILE_M': 64, 'TILE_N': 64, 'TILE_K': 32, 'BLOCK': 64, 'EVEN_K': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a': 'NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_b': 'NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a': ('A', ['stride_ma', '1'], [None, None], [64, 32], ['(64) % 64 == 0']), 'twill_box_b': ('B', ['stride_nb', '1'], [None, None], [64, 32], ['(64) % 64 == 0'])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A', 'B', 'stride_za', 'stride_ha', 'stride_ma', 'stride_zb', 'stride_hb', 'stride_nb', 'grid_offset', 'lut']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()

# -- the one-partition kernel for short loops (host side) ---------------------------------------------
ARGUMENTS_short = ['A', 'B', 'C', 'stride_za', 'stride_ha', 'stride_ma', 'stride_ak', 'stride_zb', 'stride_hb', 'stride_bk', 'stride_nb', 'stride_zc', 'stride_hc', 'stride_mc', 'stride_nc', 'K', 'grid_offset', 'lut', 'TILE_M', 'TILE_N', 'TILE_K', 'BLOCK', 'EVEN_K']          # the Triton kernel's parameters, in order
RUNTIME_short = ['A', 'B', 'C', 'stride_za', 'stride_ha', 'stride_ma', 'stride_zb', 'stride_hb', 'stride_nb', 'stride_zc', 'stride_hc', 'stride_mc', 'K', 'grid_offset', 'lut']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['A', 'B', 'C', 'stride_za', 'stride_ha', 'stride_ma', 'stride_zb', 'stride_hb', 'stride_nb', 'stride_zc', 'stride_hc', 'stride_mc', 'K', 'grid_offset', 'lut']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_ak': 1, 'stride_bk': 1, 'stride_nc': 1, 'TILE_M': 64, 'TILE_N': 64, 'TILE_K': 32, 'BLOCK': 64, 'EVEN_K': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['A', 'B', 'stride_za', 'stride_ha', 'stride_ma', 'stride_zb', 'stride_hb', 'stride_nb', 'grid_offset', 'lut']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


class _Kernel_short:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch_short(grid, *args, **kwargs)


kernel_short = _Kernel_short()


SHORT_TRIPS = '(K + 32 - 1) // 32'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
SHORT_LIMIT = 8      # at most this many: the one-partition kernel (``launch_short``), else ``launch_long``
SHORT_LIMIT_FULL = 32      # ... or this many where the launch's CTAs outnumber what the SMs hold of the producer's
LONG_CTAS_PER_SM = 2      # (the producer's CTAs an SM; the one partition holds more: run 95); 0: no such rule


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
