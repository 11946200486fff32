"""_bmm_chunk_fwd_kernel, written by twill from its joint schedule: I=278 L=278 (optimal), 2224 cycles per iteration predicted.

Decisions (each from the schedule):
- a_103 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- b_109 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_103, b_109): their addresses and masks spread over 256 threads, 3-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- partition 0 (default): consumer, warp group 0, 8 warps, 192 registers per thread (needs about 112): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a_103: 3 buffers of [128, 32] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring b_109: 3 buffers of [32, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 49264 bytes planned of 232448; maxnreg 128
- early return at mamba_bmm_chunk.py:84 (TTGIR line 57): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 1 each of the producer's (((K + 31) // 32), from the launch's arguments), the launch runs the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 128 registers, clean, 2 CTA(s) an SM against the producer's 1; simulated for 0, 1, 2, 3, 8 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 8], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 8], order=[0, 1])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, out_ptr, seq_idx_ptr, seqlen, chunk_size, K, ngroups, stride_a_batch, stride_a_seqlen, stride_a_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_seq_idx_batch, a_103_buf, b_109_buf, a_103_ready, a_103_empty, b_109_ready, b_109_empty, TWILL_COPY: gl.constexpr):
    pid_b = gl.program_id(1)
    pid_ch = gl.program_id(2)
    pid_c = pid_ch // ngroups
    pid_h = pid_c * ngroups
    pid_h_6 = pid_ch - pid_h
    num_pid_n_7 = chunk_size + 127
    num_pid_n_8 = num_pid_n_7 // 128
    pid_m = gl.program_id(0)
    pid_m_9 = pid_m // num_pid_n_8
    pid_n = pid_m % num_pid_n_8
    v0 = pid_n * 128
    a_ptr_10 = pid_b * stride_a_batch
    a_ptr_11 = pid_c * chunk_size
    a_ptr_12 = a_ptr_11 * stride_a_seqlen
    a_ptr_13 = a_ptr_10 + a_ptr_12
    a_ptr_14 = pid_h_6 * stride_a_head
    a_ptr_15 = a_ptr_13 + a_ptr_14
    a_ptr_16 = a_ptr + a_ptr_15
    b_ptr_17 = pid_b * stride_b_batch
    b_ptr_18 = a_ptr_11 * stride_b_seqlen
    b_ptr_19 = b_ptr_17 + b_ptr_18
    b_ptr_20 = pid_h_6 * stride_b_head
    b_ptr_21 = b_ptr_19 + b_ptr_20
    b_ptr_22 = b_ptr + b_ptr_21
    seq_idx_ptr_23 = pid_b * stride_seq_idx_batch
    seq_idx_ptr_24 = seq_idx_ptr_23 + a_ptr_11
    seq_idx_ptr_25 = seq_idx_ptr + seq_idx_ptr_24
    offs_m = pid_m_9 * 128
    offs_m_26 = gl.arange(0, 128, layout=L0)
    offs_m_27 = gl.arange(0, 128, layout=L1)
    offs_m_28 = gl.arange(0, 128, layout=L2)
    offs_m_29 = gl.arange(0, 128, layout=L3)
    offs_m_30 = gl.arange(0, 128, layout=L4)
    offs_m_31 = gl.arange(0, 128, layout=L5)
    offs_m_35 = offs_m + offs_m_26
    offs_m_36 = offs_m + offs_m_27
    offs_m_37 = offs_m + offs_m_28
    offs_n_40 = v0 + offs_m_29
    offs_n_41 = v0 + offs_m_30
    offs_n_42 = v0 + offs_m_31
    a_ptrs = gl.expand_dims(offs_m_35, 1)
    a_ptrs_43 = gl.expand_dims(offs_m_37, 1)
    a_ptrs_45 = a_ptrs * stride_a_seqlen
    a_ptrs_46 = gl.arange(0, 32, layout=L6)
    a_ptrs_47 = gl.expand_dims(a_ptrs_46, 0)
    a_ptrs_48 = a_ptrs_45.broadcast_to([128, 32])
    a_ptrs_49 = a_ptrs_47.broadcast_to([128, 32])
    a_ptrs_50 = a_ptrs_48 + a_ptrs_49
    a_ptrs_52 = a_ptr_16 + a_ptrs_50
    b_ptrs = gl.arange(0, 32, layout=L7)
    b_ptrs_53 = gl.expand_dims(b_ptrs, 1)
    b_ptrs_54 = gl.expand_dims(offs_n_40, 0)
    b_ptrs_55 = gl.expand_dims(offs_n_42, 0)
    b_ptrs_57 = b_ptrs_54 * stride_b_seqlen
    b_ptrs_58 = b_ptrs_53.broadcast_to([32, 128])
    b_ptrs_59 = b_ptrs_57.broadcast_to([32, 128])
    b_ptrs_60 = b_ptrs_58 + b_ptrs_59
    b_ptrs_62 = b_ptr_22 + b_ptrs_60
    chunk_size_limit = seqlen - a_ptr_11
    chunk_size_limit_63 = gl.minimum(chunk_size, chunk_size_limit)
    v4 = K + 31
    v5 = v4 // 32
    a_64 = a_ptrs < chunk_size_limit_63
    a_65 = a_64.broadcast_to([128, 32])
    b_66 = b_ptrs_54 < chunk_size_limit_63
    b_67 = b_66.broadcast_to([32, 128])
    twill_n = (v5 - 0 + 1 - 1) // 1
    acc_111 = gl.full([128, 128], 0.0, gl.float32, layout=L8)
    acc_111_p1 = acc_111
    for twill_b in range(0, twill_n):
        a_97 = (0 + (twill_b - 0) * 1) * 32  # elementwise0_a: stage 0, partition 0 (group 0)
        a_98 = K - a_97  # elementwise0_a: stage 0, partition 0 (group 0)
        b_105 = a_98  # elementwise1_b: stage 0, partition 0 (group 0)
        b_106 = b_ptrs_53 < b_105  # elementwise1_b: stage 0, partition 0 (group 0)
        b_107 = b_106.broadcast_to([32, 128])  # elementwise1_b: stage 0, partition 0 (group 0)
        b_108 = b_107 & b_67  # elementwise1_b: stage 0, partition 0 (group 0)
        a_99 = a_98  # elementwise0_a: stage 0, partition 0 (group 0)
        a_100 = a_ptrs_47 < a_99  # elementwise0_a: stage 0, partition 0 (group 0)
        a_101 = a_100.broadcast_to([128, 32])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_102 = a_65 & a_101  # elementwise0_a: stage 0, partition 0 (group 0)
        mbarrier.wait(a_103_ready.index((twill_b - 0) % 3), ((twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(b_109_ready.index((twill_b - 0) % 3), ((twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_111 = warpgroup_mma(a_103_buf.index((twill_b - 0) % 3), b_109_buf.index((twill_b - 0) % 3), acc_111_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_111_p1 = warpgroup_mma_wait(1, deps=(acc_111_p1,))
        mbarrier.arrive(a_103_empty.index((twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(b_109_empty.index((twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_111 = warpgroup_mma_wait(1, deps=(tok_acc_111,))
        acc_111_p1 = acc_111
    acc_111_p1 = warpgroup_mma_wait(0, deps=(acc_111_p1,))
    a_103_buf._keep_alive()
    b_109_buf._keep_alive()
    mbarrier.arrive(a_103_empty.index(((twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(b_109_empty.index(((twill_n - 1) - 0) % 3), pred=twill_n > 0)
    seq_idx_m_69 = offs_m_36 < chunk_size_limit_63
    seq_idx_m_72 = seq_idx_ptr_25 + offs_m_36
    seq_idx_m_73 = gl.load(seq_idx_m_72, mask=seq_idx_m_69, other=-1)
    seq_idx_n = offs_n_41 < chunk_size_limit_63
    seq_idx_n_74 = seq_idx_ptr_25 + offs_n_41
    seq_idx_n_75 = gl.load(seq_idx_n_74, mask=seq_idx_n, other=-2)
    acc_76 = gl.expand_dims(seq_idx_m_73, 1)
    acc_77 = gl.expand_dims(seq_idx_n_75, 0)
    acc_78 = acc_76.broadcast_to([128, 128])
    acc_79 = acc_77.broadcast_to([128, 128])
    acc_80 = acc_78 == acc_79
    acc_81 = gl.where(acc_80, acc_111_p1, 0.0)
    out = acc_81.to(gl.float16)
    out_ptr_82 = pid_b * stride_out_batch
    out_ptr_83 = pid_c * stride_out_chunk
    out_ptr_84 = out_ptr_82 + out_ptr_83
    out_ptr_85 = pid_h_6 * stride_out_head
    out_ptr_86 = out_ptr_84 + out_ptr_85
    out_ptr_87 = out_ptr + out_ptr_86
    out_ptrs_88 = stride_outm * a_ptrs_43
    out_ptrs_89 = out_ptrs_88.broadcast_to([128, 128])
    out_ptrs_90 = b_ptrs_55.broadcast_to([128, 128])
    out_ptrs_91 = out_ptrs_89 + out_ptrs_90
    out_ptrs_93 = out_ptr_87 + out_ptrs_91
    v7 = a_ptrs_43 < chunk_size
    v9 = b_ptrs_55 < chunk_size
    v10 = v7.broadcast_to([128, 128])
    v11 = v9.broadcast_to([128, 128])
    v12 = v10 & v11
    v13 = gl.convert_layout(out, L9)
    gl.store(out_ptrs_93, v13, mask=v12)

@gluon.jit
def producer_1(a_ptr, b_ptr, out_ptr, seq_idx_ptr, seqlen, chunk_size, K, ngroups, stride_a_batch, stride_a_seqlen, stride_a_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_seq_idx_batch, a_103_buf, b_109_buf, a_103_ready, a_103_empty, b_109_ready, b_109_empty, TWILL_COPY: gl.constexpr):
    pid_b = gl.program_id(1)
    pid_ch = gl.program_id(2)
    pid_c = pid_ch // ngroups
    pid_h = pid_c * ngroups
    pid_h_6 = pid_ch - pid_h
    num_pid_n_7 = chunk_size + 127
    num_pid_n_8 = num_pid_n_7 // 128
    pid_m = gl.program_id(0)
    pid_m_9 = pid_m // num_pid_n_8
    pid_n = pid_m % num_pid_n_8
    v0 = pid_n * 128
    a_ptr_10 = pid_b * stride_a_batch
    a_ptr_11 = pid_c * chunk_size
    a_ptr_12 = a_ptr_11 * stride_a_seqlen
    a_ptr_13 = a_ptr_10 + a_ptr_12
    a_ptr_14 = pid_h_6 * stride_a_head
    a_ptr_15 = a_ptr_13 + a_ptr_14
    a_ptr_16 = a_ptr + a_ptr_15
    b_ptr_17 = pid_b * stride_b_batch
    b_ptr_18 = a_ptr_11 * stride_b_seqlen
    b_ptr_19 = b_ptr_17 + b_ptr_18
    b_ptr_20 = pid_h_6 * stride_b_head
    b_ptr_21 = b_ptr_19 + b_ptr_20
    b_ptr_22 = b_ptr + b_ptr_21
    offs_m = pid_m_9 * 128
    offs_m_26 = gl.arange(0, 128, layout=L0)
    offs_m_29 = gl.arange(0, 128, layout=L3)
    offs_m_35 = offs_m + offs_m_26
    offs_n_40 = v0 + offs_m_29
    a_ptrs = gl.expand_dims(offs_m_35, 1)
    a_ptrs_45 = a_ptrs * stride_a_seqlen
    a_ptrs_46 = gl.arange(0, 32, layout=L6)
    a_ptrs_47 = gl.expand_dims(a_ptrs_46, 0)
    a_ptrs_48 = a_ptrs_45.broadcast_to([128, 32])
    a_ptrs_49 = a_ptrs_47.broadcast_to([128, 32])
    a_ptrs_50 = a_ptrs_48 + a_ptrs_49
    a_ptrs_52 = a_ptr_16 + a_ptrs_50
    b_ptrs = gl.arange(0, 32, layout=L7)
    b_ptrs_53 = gl.expand_dims(b_ptrs, 1)
    b_ptrs_54 = gl.expand_dims(offs_n_40, 0)
    b_ptrs_57 = b_ptrs_54 * stride_b_seqlen
    b_ptrs_58 = b_ptrs_53.broadcast_to([32, 128])
    b_ptrs_59 = b_ptrs_57.broadcast_to([32, 128])
    b_ptrs_60 = b_ptrs_58 + b_ptrs_59
    b_ptrs_62 = b_ptr_22 + b_ptrs_60
    chunk_size_limit = seqlen - a_ptr_11
    chunk_size_limit_63 = gl.minimum(chunk_size, chunk_size_limit)
    v4 = K + 31
    v5 = v4 // 32
    a_64 = a_ptrs < chunk_size_limit_63
    a_65 = a_64.broadcast_to([128, 32])
    b_66 = b_ptrs_54 < chunk_size_limit_63
    b_67 = b_66.broadcast_to([32, 128])
    a_ptrs_95 = a_ptrs_52
    b_ptrs_96 = b_ptrs_62
    for acc_94 in range(0, v5, 1):
        twill_k = (acc_94 - 0) // 1
        a_97 = acc_94 * 32
        a_98 = K - a_97
        a_100 = a_ptrs_47 < a_98
        a_101 = a_100.broadcast_to([128, 32])
        a_102 = a_65 & a_101
        b_106 = b_ptrs_53 < a_98
        b_107 = b_106.broadcast_to([32, 128])
        b_108 = b_107 & b_67
        a_ptrs_112 = a_ptrs_95 + 32
        b_ptrs_113 = b_ptrs_96 + 32
        mbarrier.wait(b_109_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_109_buf.index(twill_k % 3), b_ptrs_96, mask=b_108)  # load1_b: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_109_ready.index(twill_k % 3), increment_count=False)
        else:
            b_109_buf.index(twill_k % 3).store(gl.load(b_ptrs_96, mask=b_108, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_109_ready.index(twill_k % 3), count=256)
        mbarrier.wait(a_103_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_103_buf.index(twill_k % 3), a_ptrs_95, mask=a_102)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_103_ready.index(twill_k % 3), increment_count=False)
        else:
            a_103_buf.index(twill_k % 3).store(gl.load(a_ptrs_95, mask=a_102, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_103_ready.index(twill_k % 3), count=256)
        a_ptrs_95 = a_ptrs_112
        b_ptrs_96 = b_ptrs_113

@gluon.jit
def twill_kernel(a_ptr, b_ptr, out_ptr, seq_idx_ptr, seqlen, chunk_size, K, ngroups, stride_a_batch, stride_a_seqlen, stride_a_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_seq_idx_batch, TWILL_COPY: gl.constexpr):
    num_pid_n_7 = chunk_size + 127
    num_pid_n_8 = num_pid_n_7 // 128
    pid_m = gl.program_id(0)
    pid_m_9 = pid_m // num_pid_n_8
    pid_n = pid_m % num_pid_n_8
    v0 = pid_n * 128
    v1 = pid_m_9 + 1
    v2 = v1 * 128
    v3 = v0 >= v2
    if v3:
        return
    a_103_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_109_buf = gl.allocate_shared_memory(gl.float16, [3, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    a_103_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_103_ready.index(i), count=256)
    a_103_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_103_empty.index(i), count=1)
    b_109_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_109_ready.index(i), count=256)
    b_109_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_109_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, out_ptr, seq_idx_ptr, seqlen, chunk_size, K, ngroups, stride_a_batch, stride_a_seqlen, stride_a_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_seq_idx_batch, a_103_buf, b_109_buf, a_103_ready, a_103_empty, b_109_ready, b_109_empty, TWILL_COPY)),
        (producer_1, (a_ptr, b_ptr, out_ptr, seq_idx_ptr, seqlen, chunk_size, K, ngroups, stride_a_batch, stride_a_seqlen, stride_a_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_seq_idx_batch, a_103_buf, b_109_buf, a_103_ready, a_103_empty, b_109_ready, b_109_empty, TWILL_COPY)),
    ], [8], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 8], order=[0, 1])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L7_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 8], order=[0, 1])))
L8_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, b_ptr, out_ptr, seq_idx_ptr, seqlen, chunk_size, K, ngroups, stride_a_batch, stride_a_seqlen, stride_a_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_seq_idx_batch):
    pid_b = gl.program_id(1)
    pid_ch = gl.program_id(2)
    pid_c = pid_ch // ngroups
    pid_h = pid_c * ngroups
    pid_h_6 = pid_ch - pid_h
    num_pid_n_7 = chunk_size + 127
    num_pid_n_8 = num_pid_n_7 // 128
    pid_m = gl.program_id(0)
    pid_m_9 = pid_m // num_pid_n_8
    pid_n = pid_m % num_pid_n_8
    v0 = pid_n * 128
    a_ptr_10 = pid_b * stride_a_batch
    a_ptr_11 = pid_c * chunk_size
    a_ptr_12 = a_ptr_11 * stride_a_seqlen
    a_ptr_13 = a_ptr_10 + a_ptr_12
    a_ptr_14 = pid_h_6 * stride_a_head
    a_ptr_15 = a_ptr_13 + a_ptr_14
    a_ptr_16 = a_ptr + a_ptr_15
    b_ptr_17 = pid_b * stride_b_batch
    b_ptr_18 = a_ptr_11 * stride_b_seqlen
    b_ptr_19 = b_ptr_17 + b_ptr_18
    b_ptr_20 = pid_h_6 * stride_b_head
    b_ptr_21 = b_ptr_19 + b_ptr_20
    b_ptr_22 = b_ptr + b_ptr_21
    seq_idx_ptr_23 = pid_b * stride_seq_idx_batch
    seq_idx_ptr_24 = seq_idx_ptr_23 + a_ptr_11
    seq_idx_ptr_25 = seq_idx_ptr + seq_idx_ptr_24
    offs_m = pid_m_9 * 128
    offs_m_26 = gl.arange(0, 128, layout=L0_short)
    offs_m_27 = gl.arange(0, 128, layout=L1_short)
    offs_m_28 = gl.arange(0, 128, layout=L2_short)
    offs_m_29 = gl.arange(0, 128, layout=L3_short)
    offs_m_30 = gl.arange(0, 128, layout=L4_short)
    offs_m_31 = gl.arange(0, 128, layout=L5_short)
    offs_m_35 = offs_m + offs_m_26
    offs_m_36 = offs_m + offs_m_27
    offs_m_37 = offs_m + offs_m_28
    offs_n_40 = v0 + offs_m_29
    offs_n_41 = v0 + offs_m_30
    offs_n_42 = v0 + offs_m_31
    a_ptrs = gl.expand_dims(offs_m_35, 1)
    a_ptrs_43 = gl.expand_dims(offs_m_37, 1)
    a_ptrs_45 = a_ptrs * stride_a_seqlen
    a_ptrs_46 = gl.arange(0, 32, layout=L6_short)
    a_ptrs_47 = gl.expand_dims(a_ptrs_46, 0)
    a_ptrs_48 = a_ptrs_45.broadcast_to([128, 32])
    a_ptrs_49 = a_ptrs_47.broadcast_to([128, 32])
    a_ptrs_50 = a_ptrs_48 + a_ptrs_49
    a_ptrs_52 = a_ptr_16 + a_ptrs_50
    b_ptrs = gl.arange(0, 32, layout=L7_short)
    b_ptrs_53 = gl.expand_dims(b_ptrs, 1)
    b_ptrs_54 = gl.expand_dims(offs_n_40, 0)
    b_ptrs_55 = gl.expand_dims(offs_n_42, 0)
    b_ptrs_57 = b_ptrs_54 * stride_b_seqlen
    b_ptrs_58 = b_ptrs_53.broadcast_to([32, 128])
    b_ptrs_59 = b_ptrs_57.broadcast_to([32, 128])
    b_ptrs_60 = b_ptrs_58 + b_ptrs_59
    b_ptrs_62 = b_ptr_22 + b_ptrs_60
    chunk_size_limit = seqlen - a_ptr_11
    chunk_size_limit_63 = gl.minimum(chunk_size, chunk_size_limit)
    v4 = K + 31
    v5 = v4 // 32
    a_64 = a_ptrs < chunk_size_limit_63
    a_65 = a_64.broadcast_to([128, 32])
    b_66 = b_ptrs_54 < chunk_size_limit_63
    b_67 = b_66.broadcast_to([32, 128])
    twill_n = (v5 - 0 + 1 - 1) // 1
    a_104_st = gl.allocate_shared_memory(gl.float16, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_110_st = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    acc_111 = gl.full([128, 128], 0.0, gl.float32, layout=L8_short)
    a_ptrs_112 = a_ptrs_52
    b_ptrs_113 = b_ptrs_62
    a_ptrs_112_p1 = a_ptrs_112
    acc_111_p1 = acc_111
    b_ptrs_113_p1 = b_ptrs_113
    for twill_b in range(0, twill_n):
        a_97 = (0 + (twill_b - 0) * 1) * 32  # elementwise0_a: stage 0, partition 0 (group 0)
        a_98 = K - a_97  # elementwise0_a: stage 0, partition 0 (group 0)
        b_105 = a_98  # elementwise1_b: stage 0, partition 0 (group 0)
        b_106 = b_ptrs_53 < b_105  # elementwise1_b: stage 0, partition 0 (group 0)
        b_107 = b_106.broadcast_to([32, 128])  # elementwise1_b: stage 0, partition 0 (group 0)
        b_108 = b_107 & b_67  # elementwise1_b: stage 0, partition 0 (group 0)
        a_99 = a_98  # elementwise0_a: stage 0, partition 0 (group 0)
        a_100 = a_ptrs_47 < a_99  # elementwise0_a: stage 0, partition 0 (group 0)
        a_101 = a_100.broadcast_to([128, 32])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_102 = a_65 & a_101  # elementwise0_a: stage 0, partition 0 (group 0)
        a_ptrs_112 = a_ptrs_112_p1 + 32  # load0_a: stage 0, partition 0 (group 0)
        a_103 = gl.load(a_ptrs_112_p1, mask=a_102, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_113 = b_ptrs_113_p1 + 32  # load1_b: stage 0, partition 0 (group 0)
        a_104 = a_104_st.index((twill_b - 0) % 2)  # load0_a: stage 0, partition 0 (group 0)
        a_104.store(a_103)  # load0_a: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        b_109 = gl.load(b_ptrs_113_p1, mask=b_108, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
        b_110 = b_110_st.index((twill_b - 0) % 2)  # load1_b: stage 0, partition 0 (group 0)
        b_110.store(b_109)  # load1_b: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        tok_acc_111 = warpgroup_mma(a_104, b_110, acc_111_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_111_p1 = warpgroup_mma_wait(1, deps=(acc_111_p1,))
        acc_111 = warpgroup_mma_wait(1, deps=(tok_acc_111,))
        a_ptrs_112_p1 = a_ptrs_112
        acc_111_p1 = acc_111
        b_ptrs_113_p1 = b_ptrs_113
    acc_111_p1 = warpgroup_mma_wait(0, deps=(acc_111_p1,))
    a_104_st._keep_alive()
    b_110_st._keep_alive()
    seq_idx_m_69 = offs_m_36 < chunk_size_limit_63
    seq_idx_m_72 = seq_idx_ptr_25 + offs_m_36
    seq_idx_m_73 = gl.load(seq_idx_m_72, mask=seq_idx_m_69, other=-1)
    seq_idx_n = offs_n_41 < chunk_size_limit_63
    seq_idx_n_74 = seq_idx_ptr_25 + offs_n_41
    seq_idx_n_75 = gl.load(seq_idx_n_74, mask=seq_idx_n, other=-2)
    acc_76 = gl.expand_dims(seq_idx_m_73, 1)
    acc_77 = gl.expand_dims(seq_idx_n_75, 0)
    acc_78 = acc_76.broadcast_to([128, 128])
    acc_79 = acc_77.broadcast_to([128, 128])
    acc_80 = acc_78 == acc_79
    acc_81 = gl.where(acc_80, acc_111_p1, 0.0)
    out = acc_81.to(gl.float16)
    out_ptr_82 = pid_b * stride_out_batch
    out_ptr_83 = pid_c * stride_out_chunk
    out_ptr_84 = out_ptr_82 + out_ptr_83
    out_ptr_85 = pid_h_6 * stride_out_head
    out_ptr_86 = out_ptr_84 + out_ptr_85
    out_ptr_87 = out_ptr + out_ptr_86
    out_ptrs_88 = stride_outm * a_ptrs_43
    out_ptrs_89 = out_ptrs_88.broadcast_to([128, 128])
    out_ptrs_90 = b_ptrs_55.broadcast_to([128, 128])
    out_ptrs_91 = out_ptrs_89 + out_ptrs_90
    out_ptrs_93 = out_ptr_87 + out_ptrs_91
    v7 = a_ptrs_43 < chunk_size
    v9 = b_ptrs_55 < chunk_size
    v10 = v7.broadcast_to([128, 128])
    v11 = v9.broadcast_to([128, 128])
    v12 = v10 & v11
    v13 = gl.convert_layout(out, L9_short)
    gl.store(out_ptrs_93, v13, mask=v12)

@gluon.jit
def twill_kernel_short(a_ptr, b_ptr, out_ptr, seq_idx_ptr, seqlen, chunk_size, K, ngroups, stride_a_batch, stride_a_seqlen, stride_a_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_seq_idx_batch):
    num_pid_n_7 = chunk_size + 127
    num_pid_n_8 = num_pid_n_7 // 128
    pid_m = gl.program_id(0)
    pid_m_9 = pid_m // num_pid_n_8
    pid_n = pid_m % num_pid_n_8
    v0 = pid_n * 128
    v1 = pid_m_9 + 1
    v2 = v1 * 128
    v3 = v0 >= v2
    if v3:
        return
    consumer_0_short(a_ptr, b_ptr, out_ptr, seq_idx_ptr, seqlen, chunk_size, K, ngroups, stride_a_batch, stride_a_seqlen, stride_a_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_seq_idx_batch, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'out_ptr', 'seq_idx_ptr', 'seqlen', 'chunk_size', 'K', 'ngroups', 'stride_a_batch', 'stride_a_seqlen', 'stride_a_head', 'stride_ak', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_bk', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_outm', 'stride_outn', 'stride_seq_idx_batch', 'stride_seq_idx_seqlen', 'IS_CAUSAL', 'dot_dtype', 'HAS_SEQ_IDX', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'out_ptr', 'seq_idx_ptr', 'seqlen', 'chunk_size', 'K', 'ngroups', 'stride_a_batch', 'stride_a_seqlen', 'stride_a_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_outm', 'stride_seq_idx_batch']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'out_ptr', 'seq_idx_ptr', 'seqlen', 'chunk_size', 'K', 'ngroups', 'stride_a_batch', 'stride_a_seqlen', 'stride_a_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_outm', 'stride_seq_idx_batch', 'dot_dtype']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_outn': 1, 'stride_seq_idx_seqlen': 1, 'IS_CAUSAL': True, 'HAS_SEQ_IDX': True, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'K', 'stride_a_batch', 'stride_a_seqlen', 'stride_a_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['a_ptr', 'b_ptr', 'out_ptr', 'seq_idx_ptr', 'seqlen', 'chunk_size', 'K', 'ngroups', 'stride_a_batch', 'stride_a_seqlen', 'stride_a_head', 'stride_ak', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_bk', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_outm', 'stride_outn', 'stride_seq_idx_batch', 'stride_seq_idx_seqlen', 'IS_CAUSAL', 'dot_dtype', 'HAS_SEQ_IDX', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'b_ptr', 'out_ptr', 'seq_idx_ptr', 'seqlen', 'chunk_size', 'K', 'ngroups', 'stride_a_batch', 'stride_a_seqlen', 'stride_a_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_outm', 'stride_seq_idx_batch']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'b_ptr', 'out_ptr', 'seq_idx_ptr', 'seqlen', 'chunk_size', 'K', 'ngroups', 'stride_a_batch', 'stride_a_seqlen', 'stride_a_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_outm', 'stride_seq_idx_batch', 'dot_dtype']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_ak': 1, 'stride_bk': 1, 'stride_outn': 1, 'stride_seq_idx_seqlen': 1, 'IS_CAUSAL': True, 'HAS_SEQ_IDX': True, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}         # the specialisation this kernel was generated for
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


SHORT_TRIPS = '((K + 31) // 32)'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
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
