"""_bmm_chunk_fwd_kernel, written by twill from its joint schedule: I=230 L=274 (optimal), 1840 cycles per iteration predicted.

Decisions (each from the schedule):
- a_103 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- b_109 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_103, b_109): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (184, 64 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 184): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_103: 2 buffers of [128, 32] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring b_109: 2 buffers of [32, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 32848 bytes planned of 232448; maxnreg 128
- early return at mamba_bmm_chunk.py:84 (TTGIR line 59): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L9 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

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
    offs_m_34 = offs_m + offs_m_26
    offs_m_35 = offs_m + offs_m_27
    offs_m_36 = offs_m + offs_m_30
    offs_n_39 = v0 + offs_m_28
    offs_n_40 = v0 + offs_m_29
    offs_n_41 = v0 + offs_m_30
    a_ptrs = gl.expand_dims(offs_m_34, 1)
    a_ptrs_42 = gl.expand_dims(offs_m_35, 1)
    a_ptrs_44 = a_ptrs * stride_a_seqlen
    a_ptrs_45 = gl.arange(0, 32, layout=L5)
    a_ptrs_46 = gl.expand_dims(a_ptrs_45, 0)
    a_ptrs_47 = a_ptrs_44.broadcast_to([128, 32])
    a_ptrs_48 = a_ptrs_46.broadcast_to([128, 32])
    a_ptrs_49 = a_ptrs_47 + a_ptrs_48
    a_ptrs_51 = a_ptr_16 + a_ptrs_49
    b_ptrs = gl.arange(0, 32, layout=L6)
    b_ptrs_52 = gl.expand_dims(b_ptrs, 1)
    b_ptrs_53 = gl.expand_dims(offs_n_39, 0)
    b_ptrs_54 = gl.expand_dims(offs_n_40, 0)
    b_ptrs_56 = b_ptrs_53 * stride_b_seqlen
    b_ptrs_57 = b_ptrs_52.broadcast_to([32, 128])
    b_ptrs_58 = b_ptrs_56.broadcast_to([32, 128])
    b_ptrs_59 = b_ptrs_57 + b_ptrs_58
    b_ptrs_61 = b_ptr_22 + b_ptrs_59
    chunk_size_limit = seqlen - a_ptr_11
    chunk_size_limit_62 = gl.minimum(chunk_size, chunk_size_limit)
    v4 = K + 31
    v5 = v4 // 32
    a_63 = a_ptrs < chunk_size_limit_62
    a_64 = a_63.broadcast_to([128, 32])
    b_65 = b_ptrs_53 < chunk_size_limit_62
    b_66 = b_65.broadcast_to([32, 128])
    twill_n = (v5 - 0 + 1 - 1) // 1
    acc_111 = gl.full([128, 128], 0.0, gl.float32, layout=L7)
    a_97 = (0 + (0 - 0) * 1) * 32  # elementwise0_a: stage 0, partition 0 (group 0)
    a_98 = K - a_97  # elementwise0_a: stage 0, partition 0 (group 0)
    a_99 = a_98  # elementwise0_a: stage 0, partition 0 (group 0)
    a_100 = a_ptrs_46 < a_99  # elementwise0_a: stage 0, partition 0 (group 0)
    a_101 = a_100.broadcast_to([128, 32])  # elementwise0_a: stage 0, partition 0 (group 0)
    a_102 = a_64 & a_101  # elementwise0_a: stage 0, partition 0 (group 0)
    b_105 = a_98  # elementwise1_b: stage 0, partition 0 (group 0)
    b_106 = b_ptrs_52 < b_105  # elementwise1_b: stage 0, partition 0 (group 0)
    b_107 = b_106.broadcast_to([32, 128])  # elementwise1_b: stage 0, partition 0 (group 0)
    b_108 = b_107 & b_66  # elementwise1_b: stage 0, partition 0 (group 0)
    acc_111_p1 = acc_111
    for twill_b in range(1, twill_n):
        a_97 = (0 + (twill_b - 0) * 1) * 32  # elementwise0_a: stage 0, partition 0 (group 0)
        a_98 = K - a_97  # elementwise0_a: stage 0, partition 0 (group 0)
        a_99 = a_98  # elementwise0_a: stage 0, partition 0 (group 0)
        a_100 = a_ptrs_46 < a_99  # elementwise0_a: stage 0, partition 0 (group 0)
        a_101 = a_100.broadcast_to([128, 32])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_102 = a_64 & a_101  # elementwise0_a: stage 0, partition 0 (group 0)
        b_105 = a_98  # elementwise1_b: stage 0, partition 0 (group 0)
        b_106 = b_ptrs_52 < b_105  # elementwise1_b: stage 0, partition 0 (group 0)
        b_107 = b_106.broadcast_to([32, 128])  # elementwise1_b: stage 0, partition 0 (group 0)
        b_108 = b_107 & b_66  # elementwise1_b: stage 0, partition 0 (group 0)
        mbarrier.wait(a_103_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
        fence_async_shared()
        mbarrier.wait(b_109_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
        fence_async_shared()
        tok_acc_111 = warpgroup_mma(a_103_buf.index((twill_b - 1) % 2), b_109_buf.index((twill_b - 1) % 2), acc_111_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_111,))
        mbarrier.arrive(a_103_empty.index((twill_b - 1 - 1) % 2), pred=(twill_b - 1 - 1) >= 0)
        mbarrier.arrive(b_109_empty.index((twill_b - 1 - 1) % 2), pred=(twill_b - 1 - 1) >= 0)
        acc_111 = warpgroup_mma_wait(1, deps=(tok_acc_111,))
        acc_111_p1 = acc_111
    mbarrier.wait(a_103_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
    fence_async_shared()
    mbarrier.wait(b_109_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
    fence_async_shared()
    tok_acc_111 = warpgroup_mma(a_103_buf.index(((twill_n - 1 + 1) - 1) % 2), b_109_buf.index(((twill_n - 1 + 1) - 1) % 2), acc_111_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_acc_111,))
    mbarrier.arrive(a_103_empty.index(((twill_n - 1 + 1) - 1 - 1) % 2), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
    mbarrier.arrive(b_109_empty.index(((twill_n - 1 + 1) - 1 - 1) % 2), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
    acc_111 = warpgroup_mma_wait(1, deps=(tok_acc_111,))
    acc_111_p1 = acc_111
    acc_111_p1 = warpgroup_mma_wait(0, deps=(acc_111_p1,))
    a_103_buf._keep_alive()
    b_109_buf._keep_alive()
    mbarrier.arrive(a_103_empty.index(((twill_n - 1 + 1) - 1) % 2))
    mbarrier.arrive(b_109_empty.index(((twill_n - 1 + 1) - 1) % 2))
    seq_idx_m_67 = offs_m_36 < chunk_size_limit_62
    seq_idx_m_69 = seq_idx_ptr_25 + offs_m_36
    seq_idx_m_70 = gl.load(seq_idx_m_69, mask=seq_idx_m_67, other=-1)
    seq_idx_n = offs_n_41 < chunk_size_limit_62
    seq_idx_n_71 = seq_idx_ptr_25 + offs_n_41
    seq_idx_n_72 = gl.load(seq_idx_n_71, mask=seq_idx_n, other=-2)
    acc_73 = gl.convert_layout(seq_idx_m_70, L8)
    acc_74 = gl.expand_dims(acc_73, 1)
    acc_75 = gl.convert_layout(seq_idx_n_72, L9)
    acc_76 = gl.expand_dims(acc_75, 0)
    acc_77 = acc_74.broadcast_to([128, 128])
    acc_78 = acc_76.broadcast_to([128, 128])
    acc_79 = acc_77 == acc_78
    acc_80 = gl.convert_layout(acc_79, L7)
    acc_81 = gl.where(acc_80, acc_111_p1, 0.0)
    out = acc_81.to(gl.float16)
    out_ptr_82 = pid_b * stride_out_batch
    out_ptr_83 = pid_c * stride_out_chunk
    out_ptr_84 = out_ptr_82 + out_ptr_83
    out_ptr_85 = pid_h_6 * stride_out_head
    out_ptr_86 = out_ptr_84 + out_ptr_85
    out_ptr_87 = out_ptr + out_ptr_86
    out_ptrs_88 = stride_outm * a_ptrs_42
    out_ptrs_89 = out_ptrs_88.broadcast_to([128, 128])
    out_ptrs_90 = b_ptrs_54.broadcast_to([128, 128])
    out_ptrs_91 = out_ptrs_89 + out_ptrs_90
    out_ptrs_93 = out_ptr_87 + out_ptrs_91
    v7 = a_ptrs_42 < chunk_size
    v9 = b_ptrs_54 < chunk_size
    v10 = v7.broadcast_to([128, 128])
    v11 = v9.broadcast_to([128, 128])
    v12 = v10 & v11
    v13 = gl.convert_layout(out, L10)
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
    offs_m_28 = gl.arange(0, 128, layout=L2)
    offs_m_34 = offs_m + offs_m_26
    offs_n_39 = v0 + offs_m_28
    a_ptrs = gl.expand_dims(offs_m_34, 1)
    a_ptrs_44 = a_ptrs * stride_a_seqlen
    a_ptrs_45 = gl.arange(0, 32, layout=L5)
    a_ptrs_46 = gl.expand_dims(a_ptrs_45, 0)
    a_ptrs_47 = a_ptrs_44.broadcast_to([128, 32])
    a_ptrs_48 = a_ptrs_46.broadcast_to([128, 32])
    a_ptrs_49 = a_ptrs_47 + a_ptrs_48
    a_ptrs_51 = a_ptr_16 + a_ptrs_49
    b_ptrs = gl.arange(0, 32, layout=L6)
    b_ptrs_52 = gl.expand_dims(b_ptrs, 1)
    b_ptrs_53 = gl.expand_dims(offs_n_39, 0)
    b_ptrs_56 = b_ptrs_53 * stride_b_seqlen
    b_ptrs_57 = b_ptrs_52.broadcast_to([32, 128])
    b_ptrs_58 = b_ptrs_56.broadcast_to([32, 128])
    b_ptrs_59 = b_ptrs_57 + b_ptrs_58
    b_ptrs_61 = b_ptr_22 + b_ptrs_59
    chunk_size_limit = seqlen - a_ptr_11
    chunk_size_limit_62 = gl.minimum(chunk_size, chunk_size_limit)
    v4 = K + 31
    v5 = v4 // 32
    a_63 = a_ptrs < chunk_size_limit_62
    a_64 = a_63.broadcast_to([128, 32])
    b_65 = b_ptrs_53 < chunk_size_limit_62
    b_66 = b_65.broadcast_to([32, 128])
    a_ptrs_95 = a_ptrs_51
    b_ptrs_96 = b_ptrs_61
    for acc_94 in range(0, v5, 1):
        twill_k = (acc_94 - 0) // 1
        a_97 = acc_94 * 32
        a_98 = K - a_97
        a_100 = a_ptrs_46 < a_98
        a_101 = a_100.broadcast_to([128, 32])
        a_102 = a_64 & a_101
        b_106 = b_ptrs_52 < a_98
        b_107 = b_106.broadcast_to([32, 128])
        b_108 = b_107 & b_66
        a_ptrs_112 = a_ptrs_95 + 32
        b_ptrs_113 = b_ptrs_96 + 32
        mbarrier.wait(a_103_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_103_buf.index(twill_k % 2), a_ptrs_95, mask=a_102)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_103_ready.index(twill_k % 2), increment_count=False)
        else:
            a_103_buf.index(twill_k % 2).store(gl.load(a_ptrs_95, mask=a_102, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_103_ready.index(twill_k % 2), count=128)
        mbarrier.wait(b_109_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_109_buf.index(twill_k % 2), b_ptrs_96, mask=b_108)  # load1_b: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_109_ready.index(twill_k % 2), increment_count=False)
        else:
            b_109_buf.index(twill_k % 2).store(gl.load(b_ptrs_96, mask=b_108, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_109_ready.index(twill_k % 2), count=128)
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
    a_103_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_109_buf = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    a_103_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_103_ready.index(i), count=128)
    a_103_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_103_empty.index(i), count=1)
    b_109_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_109_ready.index(i), count=128)
    b_109_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_109_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, out_ptr, seq_idx_ptr, seqlen, chunk_size, K, ngroups, stride_a_batch, stride_a_seqlen, stride_a_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_seq_idx_batch, a_103_buf, b_109_buf, a_103_ready, a_103_empty, b_109_ready, b_109_empty, TWILL_COPY)),
        (producer_1, (a_ptr, b_ptr, out_ptr, seq_idx_ptr, seqlen, chunk_size, K, ngroups, stride_a_batch, stride_a_seqlen, stride_a_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_outm, stride_seq_idx_batch, a_103_buf, b_109_buf, a_103_ready, a_103_empty, b_109_ready, b_109_empty, TWILL_COPY)),
    ], [4], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'out_ptr', 'seq_idx_ptr', 'seqlen', 'chunk_size', 'K', 'ngroups', 'stride_a_batch', 'stride_a_seqlen', 'stride_a_head', 'stride_ak', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_bk', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_outm', 'stride_outn', 'stride_seq_idx_batch', 'stride_seq_idx_seqlen', 'IS_CAUSAL', 'dot_dtype', 'HAS_SEQ_IDX', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'out_ptr', 'seq_idx_ptr', 'seqlen', 'chunk_size', 'K', 'ngroups', 'stride_a_batch', 'stride_a_seqlen', 'stride_a_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_outm', 'stride_seq_idx_batch']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'out_ptr', 'seq_idx_ptr', 'seqlen', 'chunk_size', 'K', 'ngroups', 'stride_a_batch', 'stride_a_seqlen', 'stride_a_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_outm', 'stride_seq_idx_batch', 'dot_dtype']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_outn': 1, 'stride_seq_idx_seqlen': 1, 'IS_CAUSAL': True, 'HAS_SEQ_IDX': True, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
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
    trips = _ev('((K + 31) // 32)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 31) // 32)): run the Triton kernel for it")
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
