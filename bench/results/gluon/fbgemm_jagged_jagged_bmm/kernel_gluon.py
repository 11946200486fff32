"""jagged_jagged_bmm_kernel, written by twill from its joint schedule: I=256 L=256 (optimal), 2048 cycles per iteration predicted.

Decisions (each from the schedule):
- a_80 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- b_86 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_80, b_86): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (80, 64 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 80): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_80: 2 buffers of [64, 32] f32 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring b_86: 2 buffers of [32, 64] f32 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 32848 bytes planned of 232448; maxnreg 128
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 2 each of the producer's ((max_seq_len + 32 - 1) // 32 at most: a bound of the loop takes a min with a value only the CTA knows, from the launch's arguments), the launch runs the faster, timed on each launch key's first launch (run 156: one partition in 3 CTAs an SM against the producer's 2 ran x0.64-0.95 on three fp16 GEMMs and x1.09-1.18 on a tf32 one at 8-32 iterations; nothing in the schedule tells them apart), of this kernel and the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 96 registers, clean, 3 CTA(s) an SM against the producer's 2; simulated for 0, 1, 2, 3, 4, 9 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 8]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, a_offset_ptr, b_ptr, c_ptr, M, N, stride_ak, stride_bk, stride_cl, stride_cm, max_seq_len, a_80_buf, b_86_buf, a_80_ready, a_80_empty, b_86_ready, b_86_empty, TWILL_COPY: gl.constexpr):
    pid_batch = gl.program_id(0)
    pid = gl.program_id(1)
    begin = a_offset_ptr + pid_batch
    begin_2 = gl.load(begin)
    end = begin + 1
    end_3 = gl.load(end)
    K = end_3 - begin_2
    K_4 = gl.cast(max_seq_len, gl.int64)
    K_5 = gl.minimum(K, K_4)
    num_pid_n_6 = N + 63
    num_pid_n_7 = num_pid_n_6 // 64
    pid_m = pid // num_pid_n_7
    pid_n = pid % num_pid_n_7
    offs_am = pid_m * 64
    offs_am_8 = gl.arange(0, 64, layout=L0)
    offs_am_9 = gl.arange(0, 64, layout=L1)
    offs_am_10 = gl.arange(0, 64, layout=L2)
    offs_am_13 = offs_am + offs_am_8
    offs_am_14 = offs_am + offs_am_9
    offs_bn = pid_n * 64
    offs_bn_16 = offs_bn + offs_am_10
    offs_k = gl.arange(0, 32, layout=L3)
    offs_k_17 = gl.arange(0, 32, layout=L1)
    a_ptrs = gl.expand_dims(offs_am_13, 1)
    a_ptrs_18 = gl.expand_dims(offs_am_14, 1)
    a_ptrs_19 = gl.expand_dims(offs_k, 0)
    a_ptrs_21 = a_ptrs_19 * stride_ak
    a_ptrs_22 = a_ptrs.broadcast_to([64, 32])
    a_ptrs_23 = a_ptrs_21.broadcast_to([64, 32])
    a_ptrs_24 = a_ptrs_22 + a_ptrs_23
    a_ptrs_26 = a_ptr + a_ptrs_24
    a_ptrs_27 = gl.cast(stride_ak, gl.int64)
    a_ptrs_28 = begin_2 * a_ptrs_27
    a_ptrs_30 = a_ptrs_26 + a_ptrs_28
    b_ptrs = gl.expand_dims(offs_k_17, 1)
    b_ptrs_32 = b_ptrs * stride_bk
    b_ptrs_33 = gl.expand_dims(offs_bn_16, 0)
    b_ptrs_34 = b_ptrs_32.broadcast_to([32, 64])
    b_ptrs_35 = b_ptrs_33.broadcast_to([32, 64])
    b_ptrs_36 = b_ptrs_34 + b_ptrs_35
    b_ptrs_38 = b_ptr + b_ptrs_36
    b_ptrs_39 = gl.cast(stride_bk, gl.int64)
    b_ptrs_40 = begin_2 * b_ptrs_39
    b_ptrs_42 = b_ptrs_38 + b_ptrs_40
    updated_offset = offs_k.to(gl.int64)
    updated_offset_43 = offs_k_17.to(gl.int64)
    a_45 = a_ptrs < M
    a_46 = a_45.broadcast_to([64, 32])
    b_48 = b_ptrs_33 < N
    b_49 = b_48.broadcast_to([32, 64])
    twill_n = gl.cast((K_5 - 0 + 32 - 1) // 32, gl.int32)
    c_88 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    c_88_p1 = c_88
    for twill_b in range(0, twill_n):
        updated_offset_73 = (0 + (twill_b - 0) * 32)  # elementwise1_b: stage 0, partition 0 (group 0)
        updated_offset_75 = updated_offset_73 + updated_offset_43  # elementwise1_b: stage 0, partition 0 (group 0)
        b_82 = gl.expand_dims(updated_offset_75, 1)  # elementwise1_b: stage 0, partition 0 (group 0)
        b_83 = b_82 < K_5  # elementwise1_b: stage 0, partition 0 (group 0)
        b_84 = b_83.broadcast_to([32, 64])  # elementwise1_b: stage 0, partition 0 (group 0)
        b_85 = b_84 & b_49  # elementwise1_b: stage 0, partition 0 (group 0)
        updated_offset_72 = (0 + (twill_b - 0) * 32)  # elementwise0_a: stage 0, partition 0 (group 0)
        updated_offset_74 = updated_offset_72 + updated_offset  # elementwise0_a: stage 0, partition 0 (group 0)
        a_76 = gl.expand_dims(updated_offset_74, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
        a_77 = a_76 < K_5  # elementwise0_a: stage 0, partition 0 (group 0)
        a_78 = a_77.broadcast_to([64, 32])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_79 = a_78 & a_46  # elementwise0_a: stage 0, partition 0 (group 0)
        mbarrier.wait(a_80_ready.index((twill_b - 0) % 2), ((twill_b - 0) // 2) & 1)
        fence_async_shared()
        mbarrier.wait(b_86_ready.index((twill_b - 0) % 2), ((twill_b - 0) // 2) & 1)
        fence_async_shared()
        tok_c_88 = warpgroup_mma(a_80_buf.index((twill_b - 0) % 2), b_86_buf.index((twill_b - 0) % 2), c_88_p1, is_async=True)  # dot0_c: stage 0, partition 0 (group 0)
        c_88_p1 = warpgroup_mma_wait(1, deps=(c_88_p1,))
        mbarrier.arrive(a_80_empty.index((twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(b_86_empty.index((twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
        c_88 = warpgroup_mma_wait(1, deps=(tok_c_88,))
        c_88_p1 = c_88
    c_88_p1 = warpgroup_mma_wait(0, deps=(c_88_p1,))
    a_80_buf._keep_alive()
    b_86_buf._keep_alive()
    mbarrier.arrive(a_80_empty.index(((twill_n - 1) - 0) % 2), pred=twill_n > 0)
    mbarrier.arrive(b_86_empty.index(((twill_n - 1) - 0) % 2), pred=twill_n > 0)
    mask_54 = a_ptrs_18 < M
    mask_56 = b_ptrs_33 < N
    mask_57 = mask_54.broadcast_to([64, 64])
    mask_58 = mask_56.broadcast_to([64, 64])
    mask_59 = mask_57 & mask_58
    c_ptrs_60 = stride_cm * a_ptrs_18
    c_ptrs_62 = c_ptr + c_ptrs_60
    c_ptrs_63 = c_ptrs_62.broadcast_to([64, 64])
    c_ptrs_64 = b_ptrs_33.broadcast_to([64, 64])
    c_ptrs_65 = c_ptrs_63 + c_ptrs_64
    c_ptrs_66 = stride_cl * pid_batch
    c_ptrs_68 = c_ptrs_65 + c_ptrs_66
    v0 = gl.convert_layout(c_88_p1, L5)
    gl.store(c_ptrs_68, v0, mask=mask_59)

@gluon.jit
def producer_1(a_ptr, a_offset_ptr, b_ptr, c_ptr, M, N, stride_ak, stride_bk, stride_cl, stride_cm, max_seq_len, a_80_buf, b_86_buf, a_80_ready, a_80_empty, b_86_ready, b_86_empty, TWILL_COPY: gl.constexpr):
    pid_batch = gl.program_id(0)
    pid = gl.program_id(1)
    begin = a_offset_ptr + pid_batch
    begin_2 = gl.load(begin)
    end = begin + 1
    end_3 = gl.load(end)
    K = end_3 - begin_2
    K_4 = gl.cast(max_seq_len, gl.int64)
    K_5 = gl.minimum(K, K_4)
    num_pid_n_6 = N + 63
    num_pid_n_7 = num_pid_n_6 // 64
    pid_m = pid // num_pid_n_7
    pid_n = pid % num_pid_n_7
    offs_am = pid_m * 64
    offs_am_8 = gl.arange(0, 64, layout=L0)
    offs_am_10 = gl.arange(0, 64, layout=L2)
    offs_am_13 = offs_am + offs_am_8
    offs_bn = pid_n * 64
    offs_bn_16 = offs_bn + offs_am_10
    offs_k = gl.arange(0, 32, layout=L3)
    offs_k_17 = gl.arange(0, 32, layout=L1)
    a_ptrs = gl.expand_dims(offs_am_13, 1)
    a_ptrs_19 = gl.expand_dims(offs_k, 0)
    a_ptrs_21 = a_ptrs_19 * stride_ak
    a_ptrs_22 = a_ptrs.broadcast_to([64, 32])
    a_ptrs_23 = a_ptrs_21.broadcast_to([64, 32])
    a_ptrs_24 = a_ptrs_22 + a_ptrs_23
    a_ptrs_26 = a_ptr + a_ptrs_24
    a_ptrs_27 = gl.cast(stride_ak, gl.int64)
    a_ptrs_28 = begin_2 * a_ptrs_27
    a_ptrs_30 = a_ptrs_26 + a_ptrs_28
    b_ptrs = gl.expand_dims(offs_k_17, 1)
    b_ptrs_32 = b_ptrs * stride_bk
    b_ptrs_33 = gl.expand_dims(offs_bn_16, 0)
    b_ptrs_34 = b_ptrs_32.broadcast_to([32, 64])
    b_ptrs_35 = b_ptrs_33.broadcast_to([32, 64])
    b_ptrs_36 = b_ptrs_34 + b_ptrs_35
    b_ptrs_38 = b_ptr + b_ptrs_36
    b_ptrs_39 = gl.cast(stride_bk, gl.int64)
    b_ptrs_40 = begin_2 * b_ptrs_39
    b_ptrs_42 = b_ptrs_38 + b_ptrs_40
    updated_offset = offs_k.to(gl.int64)
    updated_offset_43 = offs_k_17.to(gl.int64)
    a_45 = a_ptrs < M
    a_46 = a_45.broadcast_to([64, 32])
    b_48 = b_ptrs_33 < N
    b_49 = b_48.broadcast_to([32, 64])
    a_ptrs_50 = stride_ak * 32
    b_ptrs_52 = stride_bk * 32
    a_ptrs_70 = a_ptrs_30
    b_ptrs_71 = b_ptrs_42
    for c_69 in range(0, K_5, 32):
        twill_k = gl.cast((c_69 - 0) // 32, gl.int32)
        updated_offset_74 = c_69 + updated_offset
        updated_offset_75 = c_69 + updated_offset_43
        a_76 = gl.expand_dims(updated_offset_74, 0)
        a_77 = a_76 < K_5
        a_78 = a_77.broadcast_to([64, 32])
        a_79 = a_78 & a_46
        b_82 = gl.expand_dims(updated_offset_75, 1)
        b_83 = b_82 < K_5
        b_84 = b_83.broadcast_to([32, 64])
        b_85 = b_84 & b_49
        a_ptrs_89 = a_ptrs_70 + a_ptrs_50
        b_ptrs_90 = b_ptrs_71 + b_ptrs_52
        mbarrier.wait(b_86_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_86_buf.index(twill_k % 2), b_ptrs_71, mask=b_85)  # load1_b: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_86_ready.index(twill_k % 2), increment_count=False)
        else:
            b_86_buf.index(twill_k % 2).store(gl.load(b_ptrs_71, mask=b_85, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_86_ready.index(twill_k % 2), count=128)
        mbarrier.wait(a_80_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_80_buf.index(twill_k % 2), a_ptrs_70, mask=a_79)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_80_ready.index(twill_k % 2), increment_count=False)
        else:
            a_80_buf.index(twill_k % 2).store(gl.load(a_ptrs_70, mask=a_79, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_80_ready.index(twill_k % 2), count=128)
        a_ptrs_70 = a_ptrs_89
        b_ptrs_71 = b_ptrs_90

@gluon.jit
def twill_kernel(a_ptr, a_offset_ptr, b_ptr, c_ptr, M, N, stride_ak, stride_bk, stride_cl, stride_cm, max_seq_len, TWILL_COPY: gl.constexpr):
    a_80_buf = gl.allocate_shared_memory(gl.float32, [2, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=False))
    b_86_buf = gl.allocate_shared_memory(gl.float32, [2, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=True))
    a_80_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_80_ready.index(i), count=128)
    a_80_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_80_empty.index(i), count=1)
    b_86_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_86_ready.index(i), count=128)
    b_86_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_86_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, a_offset_ptr, b_ptr, c_ptr, M, N, stride_ak, stride_bk, stride_cl, stride_cm, max_seq_len, a_80_buf, b_86_buf, a_80_ready, a_80_empty, b_86_ready, b_86_empty, TWILL_COPY)),
        (producer_1, (a_ptr, a_offset_ptr, b_ptr, c_ptr, M, N, stride_ak, stride_bk, stride_cl, stride_cm, max_seq_len, a_80_buf, b_86_buf, a_80_ready, a_80_empty, b_86_ready, b_86_empty, TWILL_COPY)),
    ], [4], [64])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L4_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 8]))
L5_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, a_offset_ptr, b_ptr, c_ptr, M, N, stride_ak, stride_bk, stride_cl, stride_cm, max_seq_len, TWILL_COPY: gl.constexpr):
    pid_batch = gl.program_id(0)
    pid = gl.program_id(1)
    begin = a_offset_ptr + pid_batch
    begin_2 = gl.load(begin)
    end = begin + 1
    end_3 = gl.load(end)
    K = end_3 - begin_2
    K_4 = gl.cast(max_seq_len, gl.int64)
    K_5 = gl.minimum(K, K_4)
    num_pid_n_6 = N + 63
    num_pid_n_7 = num_pid_n_6 // 64
    pid_m = pid // num_pid_n_7
    pid_n = pid % num_pid_n_7
    offs_am = pid_m * 64
    offs_am_8 = gl.arange(0, 64, layout=L0_short)
    offs_am_9 = gl.arange(0, 64, layout=L1_short)
    offs_am_10 = gl.arange(0, 64, layout=L2_short)
    offs_am_13 = offs_am + offs_am_8
    offs_am_14 = offs_am + offs_am_9
    offs_bn = pid_n * 64
    offs_bn_16 = offs_bn + offs_am_10
    offs_k = gl.arange(0, 32, layout=L3_short)
    offs_k_17 = gl.arange(0, 32, layout=L1_short)
    a_ptrs = gl.expand_dims(offs_am_13, 1)
    a_ptrs_18 = gl.expand_dims(offs_am_14, 1)
    a_ptrs_19 = gl.expand_dims(offs_k, 0)
    a_ptrs_21 = a_ptrs_19 * stride_ak
    a_ptrs_22 = a_ptrs.broadcast_to([64, 32])
    a_ptrs_23 = a_ptrs_21.broadcast_to([64, 32])
    a_ptrs_24 = a_ptrs_22 + a_ptrs_23
    a_ptrs_26 = a_ptr + a_ptrs_24
    a_ptrs_27 = gl.cast(stride_ak, gl.int64)
    a_ptrs_28 = begin_2 * a_ptrs_27
    a_ptrs_30 = a_ptrs_26 + a_ptrs_28
    b_ptrs = gl.expand_dims(offs_k_17, 1)
    b_ptrs_32 = b_ptrs * stride_bk
    b_ptrs_33 = gl.expand_dims(offs_bn_16, 0)
    b_ptrs_34 = b_ptrs_32.broadcast_to([32, 64])
    b_ptrs_35 = b_ptrs_33.broadcast_to([32, 64])
    b_ptrs_36 = b_ptrs_34 + b_ptrs_35
    b_ptrs_38 = b_ptr + b_ptrs_36
    b_ptrs_39 = gl.cast(stride_bk, gl.int64)
    b_ptrs_40 = begin_2 * b_ptrs_39
    b_ptrs_42 = b_ptrs_38 + b_ptrs_40
    updated_offset = offs_k.to(gl.int64)
    updated_offset_43 = offs_k_17.to(gl.int64)
    a_45 = a_ptrs < M
    a_46 = a_45.broadcast_to([64, 32])
    b_48 = b_ptrs_33 < N
    b_49 = b_48.broadcast_to([32, 64])
    a_ptrs_50 = stride_ak * 32
    b_ptrs_52 = stride_bk * 32
    twill_n = gl.cast((K_5 - 0 + 32 - 1) // 32, gl.int32)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        a_81_ring = gl.allocate_shared_memory(gl.float32, [4, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=False))
        b_87_ring = gl.allocate_shared_memory(gl.float32, [4, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=True))
        a_ptrs_89 = a_ptrs_30
        b_ptrs_90 = b_ptrs_42
        a_ptrs_89_p1 = a_ptrs_89
        b_ptrs_90_p1 = b_ptrs_90
        updated_offset_75 = (0 + (0 - 0) * 32) + updated_offset_43  # elementwise1_b: stage 0, partition 0 (group 0)
        b_82 = gl.expand_dims(updated_offset_75, 1)  # elementwise1_b: stage 0, partition 0 (group 0)
        b_83 = b_82 < K_5  # elementwise1_b: stage 0, partition 0 (group 0)
        b_84 = b_83.broadcast_to([32, 64])  # elementwise1_b: stage 0, partition 0 (group 0)
        b_85 = b_84 & b_49  # elementwise1_b: stage 0, partition 0 (group 0)
        updated_offset_74 = (0 + (0 - 0) * 32) + updated_offset  # elementwise0_a: stage 0, partition 0 (group 0)
        a_76 = gl.expand_dims(updated_offset_74, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
        a_77 = a_76 < K_5  # elementwise0_a: stage 0, partition 0 (group 0)
        a_78 = a_77.broadcast_to([64, 32])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_79 = a_78 & a_46  # elementwise0_a: stage 0, partition 0 (group 0)
        a_ptrs_89 = a_ptrs_89_p1 + a_ptrs_50  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_90 = b_ptrs_90_p1 + b_ptrs_52  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_81_ring.index((0 - 0) % 4), a_ptrs_89_p1, mask=a_79)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_81_ring.index((0 - 0) % 4).store(gl.load(a_ptrs_89_p1, mask=a_79, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_87_ring.index((0 - 0) % 4), b_ptrs_90_p1, mask=b_85)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_87_ring.index((0 - 0) % 4).store(gl.load(b_ptrs_90_p1, mask=b_85, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_89_p1 = a_ptrs_89
        b_ptrs_90_p1 = b_ptrs_90
        c_88 = gl.full([64, 64], 0.0, gl.float32, layout=L4_short)
        updated_offset_75 = (0 + (1 - 0) * 32) + updated_offset_43  # elementwise1_b: stage 0, partition 0 (group 0)
        b_82 = gl.expand_dims(updated_offset_75, 1)  # elementwise1_b: stage 0, partition 0 (group 0)
        b_83 = b_82 < K_5  # elementwise1_b: stage 0, partition 0 (group 0)
        b_84 = b_83.broadcast_to([32, 64])  # elementwise1_b: stage 0, partition 0 (group 0)
        b_85 = b_84 & b_49  # elementwise1_b: stage 0, partition 0 (group 0)
        updated_offset_74 = (0 + (1 - 0) * 32) + updated_offset  # elementwise0_a: stage 0, partition 0 (group 0)
        a_76 = gl.expand_dims(updated_offset_74, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
        a_77 = a_76 < K_5  # elementwise0_a: stage 0, partition 0 (group 0)
        a_78 = a_77.broadcast_to([64, 32])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_79 = a_78 & a_46  # elementwise0_a: stage 0, partition 0 (group 0)
        a_ptrs_89 = a_ptrs_89_p1 + a_ptrs_50  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_90 = b_ptrs_90_p1 + b_ptrs_52  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_81_ring.index((1 - 0) % 4), a_ptrs_89_p1, mask=a_79)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_81_ring.index((1 - 0) % 4).store(gl.load(a_ptrs_89_p1, mask=a_79, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_87_ring.index((1 - 0) % 4), b_ptrs_90_p1, mask=b_85)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_87_ring.index((1 - 0) % 4).store(gl.load(b_ptrs_90_p1, mask=b_85, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_89_p1 = a_ptrs_89
        b_ptrs_90_p1 = b_ptrs_90
        c_88_p1 = c_88
        for twill_b in range(2, twill_n):
            updated_offset_73 = (0 + (twill_b - 0) * 32)  # elementwise1_b: stage 0, partition 0 (group 0)
            updated_offset_75 = updated_offset_73 + updated_offset_43  # elementwise1_b: stage 0, partition 0 (group 0)
            b_82 = gl.expand_dims(updated_offset_75, 1)  # elementwise1_b: stage 0, partition 0 (group 0)
            b_83 = b_82 < K_5  # elementwise1_b: stage 0, partition 0 (group 0)
            b_84 = b_83.broadcast_to([32, 64])  # elementwise1_b: stage 0, partition 0 (group 0)
            b_85 = b_84 & b_49  # elementwise1_b: stage 0, partition 0 (group 0)
            updated_offset_72 = (0 + (twill_b - 0) * 32)  # elementwise0_a: stage 0, partition 0 (group 0)
            updated_offset_74 = updated_offset_72 + updated_offset  # elementwise0_a: stage 0, partition 0 (group 0)
            a_76 = gl.expand_dims(updated_offset_74, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
            a_77 = a_76 < K_5  # elementwise0_a: stage 0, partition 0 (group 0)
            a_78 = a_77.broadcast_to([64, 32])  # elementwise0_a: stage 0, partition 0 (group 0)
            a_79 = a_78 & a_46  # elementwise0_a: stage 0, partition 0 (group 0)
            async_copy.wait_group(1)
            gl.thread_barrier()
            a_81 = a_81_ring.index((twill_b - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
            b_87 = b_87_ring.index((twill_b - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
            a_ptrs_89 = a_ptrs_89_p1 + a_ptrs_50  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_90 = b_ptrs_90_p1 + b_ptrs_52  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_81_ring.index((twill_b - 0) % 4), a_ptrs_89_p1, mask=a_79)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_81_ring.index((twill_b - 0) % 4).store(gl.load(a_ptrs_89_p1, mask=a_79, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_87_ring.index((twill_b - 0) % 4), b_ptrs_90_p1, mask=b_85)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_87_ring.index((twill_b - 0) % 4).store(gl.load(b_ptrs_90_p1, mask=b_85, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            tok_c_88 = warpgroup_mma(a_81, b_87, c_88_p1, is_async=True)  # dot0_c: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_c_88,))
            c_88 = warpgroup_mma_wait(1, deps=(tok_c_88,))
            a_ptrs_89_p1 = a_ptrs_89
            b_ptrs_90_p1 = b_ptrs_90
            c_88_p1 = c_88
        async_copy.wait_group(1)
        gl.thread_barrier()
        a_81 = a_81_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
        b_87 = b_87_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
        tok_c_88 = warpgroup_mma(a_81, b_87, c_88_p1, is_async=True)  # dot0_c: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_c_88,))
        c_88 = warpgroup_mma_wait(1, deps=(tok_c_88,))
        a_ptrs_89_p2 = a_ptrs_89_p1
        a_ptrs_89_p1 = a_ptrs_89
        b_ptrs_90_p2 = b_ptrs_90_p1
        b_ptrs_90_p1 = b_ptrs_90
        c_88_p1 = c_88
        async_copy.wait_group(1)
        gl.thread_barrier()
        a_81 = a_81_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
        b_87 = b_87_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
        tok_c_88 = warpgroup_mma(a_81, b_87, c_88_p1, is_async=True)  # dot0_c: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_c_88,))
        c_88 = warpgroup_mma_wait(1, deps=(tok_c_88,))
        a_ptrs_89_p3 = a_ptrs_89_p2
        a_ptrs_89_p2 = a_ptrs_89_p1
        a_ptrs_89_p1 = a_ptrs_89
        b_ptrs_90_p3 = b_ptrs_90_p2
        b_ptrs_90_p2 = b_ptrs_90_p1
        b_ptrs_90_p1 = b_ptrs_90
        c_88_p1 = c_88
        c_88_p1 = warpgroup_mma_wait(0, deps=(c_88_p1,))
        a_81_ring._keep_alive()
        b_87_ring._keep_alive()
    else:
        arg12_w = gl.full([64, 64], 0.0, gl.float32, layout=L4_short)
        a_ptrs_70_w = a_ptrs_30
        b_ptrs_71_w = b_ptrs_42
        for c_69_w in range(0, K_5, 32):
            updated_offset_74_w = c_69_w + updated_offset
            updated_offset_75_w = c_69_w + updated_offset_43
            a_76_w = gl.expand_dims(updated_offset_74_w, 0)
            a_77_w = a_76_w < K_5
            a_78_w = a_77_w.broadcast_to([64, 32])
            a_79_w = a_78_w & a_46
            a_80_w = gl.load(a_ptrs_70_w, mask=a_79_w, other=0.0)
            a_81_w = gl.allocate_shared_memory(gl.float32, [64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=False), a_80_w)
            fence_async_shared()
            b_82_w = gl.expand_dims(updated_offset_75_w, 1)
            b_83_w = b_82_w < K_5
            b_84_w = b_83_w.broadcast_to([32, 64])
            b_85_w = b_84_w & b_49
            b_86_w = gl.load(b_ptrs_71_w, mask=b_85_w, other=0.0)
            b_87_w = gl.allocate_shared_memory(gl.float32, [32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=True), b_86_w)
            fence_async_shared()
            c_88_w = warpgroup_mma(a_81_w, b_87_w, arg12_w)
            a_ptrs_89_w = a_ptrs_70_w + a_ptrs_50
            b_ptrs_90_w = b_ptrs_71_w + b_ptrs_52
            arg12_w = c_88_w
            a_ptrs_70_w = a_ptrs_89_w
            b_ptrs_71_w = b_ptrs_90_w
        c_88_p1 = arg12_w
        a_ptrs_89_p3 = a_ptrs_70_w
        b_ptrs_90_p3 = b_ptrs_71_w
    mask_54 = a_ptrs_18 < M
    mask_56 = b_ptrs_33 < N
    mask_57 = mask_54.broadcast_to([64, 64])
    mask_58 = mask_56.broadcast_to([64, 64])
    mask_59 = mask_57 & mask_58
    c_ptrs_60 = stride_cm * a_ptrs_18
    c_ptrs_62 = c_ptr + c_ptrs_60
    c_ptrs_63 = c_ptrs_62.broadcast_to([64, 64])
    c_ptrs_64 = b_ptrs_33.broadcast_to([64, 64])
    c_ptrs_65 = c_ptrs_63 + c_ptrs_64
    c_ptrs_66 = stride_cl * pid_batch
    c_ptrs_68 = c_ptrs_65 + c_ptrs_66
    v0 = gl.convert_layout(c_88_p1, L5_short)
    gl.store(c_ptrs_68, v0, mask=mask_59)

@gluon.jit
def twill_kernel_short(a_ptr, a_offset_ptr, b_ptr, c_ptr, M, N, stride_ak, stride_bk, stride_cl, stride_cm, max_seq_len, TWILL_COPY: gl.constexpr):
    consumer_0_short(a_ptr, a_offset_ptr, b_ptr, c_ptr, M, N, stride_ak, stride_bk, stride_cl, stride_cm, max_seq_len, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'a_offset_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cl', 'stride_cm', 'stride_cn', 'max_seq_len', 'allow_tf32', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'a_offset_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'stride_ak', 'stride_bk', 'stride_cl', 'stride_cm', 'max_seq_len']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'a_offset_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'stride_ak', 'stride_bk', 'stride_cl', 'stride_cm', 'max_seq_len']   # the arguments a launch key reads
CONSTEXPRS = {'stride_am': 1, 'stride_bn': 1, 'stride_cn': 1, 'allow_tf32': True, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'M', 'N', 'stride_ak', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['a_ptr', 'a_offset_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cl', 'stride_cm', 'stride_cn', 'max_seq_len', 'allow_tf32', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'a_offset_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'stride_ak', 'stride_bk', 'stride_cl', 'stride_cm', 'max_seq_len']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'a_offset_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'stride_ak', 'stride_bk', 'stride_cl', 'stride_cm', 'max_seq_len']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_am': 1, 'stride_bn': 1, 'stride_cn': 1, 'allow_tf32': True, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['a_ptr', 'b_ptr', 'M', 'N', 'stride_ak', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


def launch_timed(grid, *args, **kwargs):
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


SHORT_TRIPS = '(max_seq_len + 32 - 1) // 32'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
SHORT_LIMIT = 8      # at most this many: the faster of the two, timed (``launch_timed``), else ``launch_long``
SHORT_LIMIT_FULL = 32      # ... or this many where the launch's CTAs outnumber what the SMs hold of the producer's
LONG_CTAS_PER_SM = 2      # (the producer's CTAs an SM; the one partition holds more: run 95); 0: no such rule


def launch(grid, *args, **kwargs):
    """Run the faster of the two where the loop is short at this launch, else the warp-specialized one."""
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
    return (launch_timed if trips <= limit else launch_long)(grid, *args, **kwargs)
