"""_masked_grouped_fp8_gemm_kernel, written by twill from its joint schedule: I=108 L=87 (optimal), 987 cycles per iteration predicted.

Decisions (each from the schedule):
- a_93 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_93, b_95): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' live tiles fit half the register file (200, 80 needed per thread with the 40 the model adds for addresses and indices; consumer 0 is given 168, the allowance left to ptxas), so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- b_95 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over b_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 168 registers per thread (needs about 200): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 80 registers per thread (needs about 80): cp.async copies into the rings
- ring a_93: 4 buffers of [64, 128] f8E4M3FN (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring b_95: 4 buffers of [128, 128] f8E4M3FN (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 98448 bytes planned of 232448; maxnreg 128
- pointer loads held across the iteration in a compact layout (the prefetched value is converted to its readers' layout where it is read; in theirs, each thread would hold a replicated copy): a_s_98 (partition 0: 1 register(s) per thread, not 2)
- early return at deepgemm_masked_grouped_fp8.py:57 (TTGIR line 65): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 32]))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 32])))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, as_ptr, bs_ptr, masked_m_ptr, M_max, N, K, stride_ag, stride_am, stride_bg, stride_bn, stride_cg, stride_cm, stride_asg, stride_asm, stride_bsg, stride_bsn, twill_box_b_95, a_93_buf, b_95_buf, a_93_ready, a_93_empty, b_95_ready, b_95_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    g = gl.program_id(1)
    m = masked_m_ptr + g
    m_7 = gl.load(m)
    num_pid_m_8 = M_max + 63
    num_pid_m_9 = num_pid_m_8 // 64
    num_pid_n = N + 127
    num_pid_n_10 = num_pid_n // 128
    num_pid_in_group = num_pid_n_10 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_9 - first_pid_m
    group_size_m_11 = gl.minimum(group_size_m, 8)
    pid_m = pid % group_size_m_11
    pid_m_12 = first_pid_m + pid_m
    pid_n = pid % num_pid_in_group
    pid_n_13 = pid_n // group_size_m_11
    v0 = pid_m_12 * 64
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_14 = gl.arange(0, 64, layout=L1)
    offs_m_15 = gl.arange(0, 64, layout=L2)
    offs_m_19 = v0 + offs_m
    offs_m_20 = v0 + offs_m_14
    offs_m_21 = v0 + offs_m_15
    offs_n = pid_n_13 * 128
    offs_n_22 = gl.arange(0, 128, layout=L0)
    offs_n_23 = gl.arange(0, 128, layout=L3)
    offs_n_24 = gl.arange(0, 128, layout=L2)
    offs_n_28 = offs_n + offs_n_22
    offs_n_29 = offs_n + offs_n_23
    offs_n_30 = offs_n + offs_n_24
    mask_m_34 = offs_m_21 < m_7
    mask_m_35 = offs_m_20 < m_7
    mask_n_39 = offs_n_29 < N
    mask_n_40 = offs_n_30 < N
    a_ptrs = gl.cast(g, gl.int64)
    a_ptrs_41 = gl.cast(stride_ag, gl.int64)
    a_ptrs_42 = a_ptrs * a_ptrs_41
    a_ptrs_43 = a_ptr + a_ptrs_42
    a_ptrs_44 = gl.expand_dims(offs_m_19, 1)
    a_ptrs_45 = gl.expand_dims(offs_m_20, 1)
    a_ptrs_47 = a_ptrs_44 * stride_am
    a_ptrs_49 = a_ptrs_43 + a_ptrs_47
    a_ptrs_50 = gl.arange(0, 128, layout=L4)
    a_ptrs_51 = gl.expand_dims(a_ptrs_50, 0)
    a_ptrs_52 = a_ptrs_49.broadcast_to([64, 128])
    a_ptrs_53 = a_ptrs_51.broadcast_to([64, 128])
    a_ptrs_54 = a_ptrs_52 + a_ptrs_53
    b_ptrs = gl.cast(stride_bg, gl.int64)
    b_ptrs_55 = a_ptrs * b_ptrs
    b_ptrs_56 = b_ptr + b_ptrs_55
    b_ptrs_57 = gl.expand_dims(offs_n_28, 1)
    b_ptrs_59 = b_ptrs_57 * stride_bn
    b_ptrs_61 = b_ptrs_56 + b_ptrs_59
    b_ptrs_62 = b_ptrs_61.broadcast_to([128, 128])
    b_ptrs_63 = a_ptrs_51.broadcast_to([128, 128])
    b_ptrs_64 = b_ptrs_62 + b_ptrs_63
    as_ptrs = gl.cast(stride_asg, gl.int64)
    as_ptrs_65 = a_ptrs * as_ptrs
    as_ptrs_66 = as_ptr + as_ptrs_65
    as_ptrs_68 = offs_m_21 * stride_asm
    as_ptrs_70 = as_ptrs_66 + as_ptrs_68
    bs_ptrs = gl.cast(stride_bsg, gl.int64)
    bs_ptrs_71 = a_ptrs * bs_ptrs
    bs_ptrs_72 = bs_ptr + bs_ptrs_71
    bs_ptrs_73 = offs_n_30 // 128
    bs_ptrs_75 = bs_ptrs_73 * stride_bsn
    bs_ptrs_77 = bs_ptrs_72 + bs_ptrs_75
    v2 = K + 127
    v3 = v2 // 128
    twill_n = (v3 - 0 + 1 - 1) // 1
    acc_112 = gl.full([64, 128], 0.0, gl.float32, layout=L5)
    offs_ks = (0 + (0 - 0) * 1) * 128  # load2_a_s: stage 0, partition 0 (group 0)
    offs_ks_96 = offs_ks // 128  # load2_a_s: stage 0, partition 0 (group 0)
    b_s = offs_ks_96  # load3_b_s: stage 0, partition 0 (group 0)
    b_s_99 = bs_ptrs_77 + b_s  # load3_b_s: stage 0, partition 0 (group 0)
    b_s_100 = gl.load(b_s_99, mask=mask_n_40, other=0.0)  # load3_b_s: stage 0, partition 0 (group 0)
    a_s = offs_ks_96  # load2_a_s: stage 0, partition 0 (group 0)
    a_s_97 = as_ptrs_70 + a_s  # load2_a_s: stage 0, partition 0 (group 0)
    a_s_98 = gl.load(a_s_97, mask=mask_m_34, other=0.0)  # load2_a_s: stage 0, partition 0 (group 0)
    a_s_98_p1 = a_s_98
    acc_112_p1 = acc_112
    b_s_100_p1 = b_s_100
    for twill_b in range(1, twill_n):
        offs_ks = (0 + (twill_b - 0) * 1) * 128  # load2_a_s: stage 0, partition 0 (group 0)
        offs_ks_96 = offs_ks // 128  # load2_a_s: stage 0, partition 0 (group 0)
        b_s = offs_ks_96  # load3_b_s: stage 0, partition 0 (group 0)
        b_s_99 = bs_ptrs_77 + b_s  # load3_b_s: stage 0, partition 0 (group 0)
        b_s_100 = gl.load(b_s_99, mask=mask_n_40, other=0.0)  # load3_b_s: stage 0, partition 0 (group 0)
        acc_107 = gl.convert_layout(b_s_100_p1, L6)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_108 = gl.expand_dims(acc_107, 0)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_109 = acc_108.broadcast_to([64, 128])  # convert1_acc: stage 1, partition 0 (group 0)
        acc_110 = gl.convert_layout(acc_108, L5).broadcast_to([64, 128])  # convert1_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(a_93_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
        fence_async_shared()
        mbarrier.wait(b_95_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_103 = warpgroup_mma(a_93_buf.index((twill_b - 1) % 4), b_95_buf.index((twill_b - 1) % 4).permute((1, 0)), gl.full([64, 128], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        a_s = offs_ks_96  # load2_a_s: stage 0, partition 0 (group 0)
        a_s_97 = as_ptrs_70 + a_s  # load2_a_s: stage 0, partition 0 (group 0)
        a_s_98 = gl.load(a_s_97, mask=mask_m_34, other=0.0)  # load2_a_s: stage 0, partition 0 (group 0)
        a_s_98_p1_cv = gl.convert_layout(a_s_98_p1, L7)  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_104 = gl.expand_dims(a_s_98_p1_cv, 1)  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_105 = acc_104.broadcast_to([64, 128])  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_103 = warpgroup_mma_wait(0, deps=(tok_acc_103,))
        mbarrier.arrive(a_93_empty.index((twill_b - 1) % 4))
        mbarrier.arrive(b_95_empty.index((twill_b - 1) % 4))
        acc_106 = acc_103 * acc_105  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_111 = acc_106 * acc_110  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_112 = acc_112_p1 + acc_111  # elementwise0_acc: stage 1, partition 0 (group 0)
        a_s_98_p1 = a_s_98
        acc_112_p1 = acc_112
        b_s_100_p1 = b_s_100
    acc_107 = gl.convert_layout(b_s_100_p1, L6)  # convert0_acc: stage 1, partition 0 (group 0)
    acc_108 = gl.expand_dims(acc_107, 0)  # convert1_acc: stage 1, partition 0 (group 0)
    acc_109 = acc_108.broadcast_to([64, 128])  # convert1_acc: stage 1, partition 0 (group 0)
    acc_110 = gl.convert_layout(acc_108, L5).broadcast_to([64, 128])  # convert1_acc: stage 1, partition 0 (group 0)
    mbarrier.wait(a_93_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
    fence_async_shared()
    mbarrier.wait(b_95_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
    fence_async_shared()
    tok_acc_103 = warpgroup_mma(a_93_buf.index(((twill_n - 1 + 1) - 1) % 4), b_95_buf.index(((twill_n - 1 + 1) - 1) % 4).permute((1, 0)), gl.full([64, 128], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
    a_s_98_p1_cv = gl.convert_layout(a_s_98_p1, L7)  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_104 = gl.expand_dims(a_s_98_p1_cv, 1)  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_105 = acc_104.broadcast_to([64, 128])  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_103 = warpgroup_mma_wait(0, deps=(tok_acc_103,))
    mbarrier.arrive(a_93_empty.index(((twill_n - 1 + 1) - 1) % 4))
    mbarrier.arrive(b_95_empty.index(((twill_n - 1 + 1) - 1) % 4))
    acc_106 = acc_103 * acc_105  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_111 = acc_106 * acc_110  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_112 = acc_112_p1 + acc_111  # elementwise0_acc: stage 1, partition 0 (group 0)
    a_s_98_p1 = a_s_98
    acc_112_p1 = acc_112
    b_s_100_p1 = b_s_100
    a_93_buf._keep_alive()
    b_95_buf._keep_alive()
    c = acc_112_p1.to(gl.bfloat16)
    c_ptrs = gl.cast(stride_cg, gl.int64)
    c_ptrs_80 = a_ptrs * c_ptrs
    c_ptrs_81 = c_ptr + c_ptrs_80
    c_ptrs_83 = a_ptrs_45 * stride_cm
    c_ptrs_85 = c_ptrs_81 + c_ptrs_83
    c_ptrs_86 = gl.expand_dims(offs_n_29, 0)
    c_ptrs_87 = c_ptrs_85.broadcast_to([64, 128])
    c_ptrs_88 = c_ptrs_86.broadcast_to([64, 128])
    c_ptrs_89 = c_ptrs_87 + c_ptrs_88
    v4 = gl.expand_dims(mask_m_35, 1)
    v5 = gl.expand_dims(mask_n_39, 0)
    v6 = v4.broadcast_to([64, 128])
    v7 = v5.broadcast_to([64, 128])
    v8 = v6 & v7
    v9 = gl.convert_layout(c, L8)
    gl.store(c_ptrs_89, v9, mask=v8)

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, as_ptr, bs_ptr, masked_m_ptr, M_max, N, K, stride_ag, stride_am, stride_bg, stride_bn, stride_cg, stride_cm, stride_asg, stride_asm, stride_bsg, stride_bsn, twill_box_b_95, a_93_buf, b_95_buf, a_93_ready, a_93_empty, b_95_ready, b_95_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    g = gl.program_id(1)
    m = masked_m_ptr + g
    m_7 = gl.load(m)
    num_pid_m_8 = M_max + 63
    num_pid_m_9 = num_pid_m_8 // 64
    num_pid_n = N + 127
    num_pid_n_10 = num_pid_n // 128
    num_pid_in_group = num_pid_n_10 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_9 - first_pid_m
    group_size_m_11 = gl.minimum(group_size_m, 8)
    pid_m = pid % group_size_m_11
    pid_m_12 = first_pid_m + pid_m
    pid_n = pid % num_pid_in_group
    pid_n_13 = pid_n // group_size_m_11
    v0 = pid_m_12 * 64
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_19 = v0 + offs_m
    offs_n = pid_n_13 * 128
    offs_n_22 = gl.arange(0, 128, layout=L0)
    offs_n_28 = offs_n + offs_n_22
    mask_m_33 = offs_m_19 < m_7
    mask_n_38 = offs_n_28 < N
    a_ptrs = gl.cast(g, gl.int64)
    a_ptrs_41 = gl.cast(stride_ag, gl.int64)
    a_ptrs_42 = a_ptrs * a_ptrs_41
    a_ptrs_43 = a_ptr + a_ptrs_42
    a_ptrs_44 = gl.expand_dims(offs_m_19, 1)
    a_ptrs_47 = a_ptrs_44 * stride_am
    a_ptrs_49 = a_ptrs_43 + a_ptrs_47
    a_ptrs_50 = gl.arange(0, 128, layout=L4)
    a_ptrs_51 = gl.expand_dims(a_ptrs_50, 0)
    a_ptrs_52 = a_ptrs_49.broadcast_to([64, 128])
    a_ptrs_53 = a_ptrs_51.broadcast_to([64, 128])
    a_ptrs_54 = a_ptrs_52 + a_ptrs_53
    b_ptrs = gl.cast(stride_bg, gl.int64)
    b_ptrs_55 = a_ptrs * b_ptrs
    b_ptrs_56 = b_ptr + b_ptrs_55
    b_ptrs_57 = gl.expand_dims(offs_n_28, 1)
    b_ptrs_59 = b_ptrs_57 * stride_bn
    b_ptrs_61 = b_ptrs_56 + b_ptrs_59
    b_ptrs_62 = b_ptrs_61.broadcast_to([128, 128])
    b_ptrs_63 = a_ptrs_51.broadcast_to([128, 128])
    b_ptrs_64 = b_ptrs_62 + b_ptrs_63
    v2 = K + 127
    v3 = v2 // 128
    a = gl.expand_dims(mask_m_33, 1)
    a_78 = a.broadcast_to([64, 128])
    b = gl.expand_dims(mask_n_38, 1)
    b_79 = b.broadcast_to([128, 128])
    a_ptrs_91 = a_ptrs_54
    b_ptrs_92 = b_ptrs_64
    for acc_90 in range(0, v3, 1):
        twill_k = (acc_90 - 0) // 1
        a_ptrs_113 = a_ptrs_91 + 128
        b_ptrs_114 = b_ptrs_92 + 128
        mbarrier.wait(a_93_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_93_buf.index(twill_k % 4), a_ptrs_91, mask=a_78)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_93_ready.index(twill_k % 4), increment_count=False)
        else:
            a_93_buf.index(twill_k % 4).store(gl.load(a_ptrs_91, mask=a_78, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_93_ready.index(twill_k % 4), count=128)
        mbarrier.wait(b_95_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(b_95_ready.index(twill_k % 4), twill_box_b_95.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_b_95, [128 * pid_n_13, g * stride_bg + 128 * acc_90], b_95_ready.index(twill_k % 4), b_95_buf.index(twill_k % 4))  # load1_b: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_95_buf.index(twill_k % 4), b_ptrs_92, mask=b_79)  # load1_b: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_95_ready.index(twill_k % 4), increment_count=False)
            else:
                b_95_buf.index(twill_k % 4).store(gl.load(b_ptrs_92, mask=b_79, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_95_ready.index(twill_k % 4), count=128)
        a_ptrs_91 = a_ptrs_113
        b_ptrs_92 = b_ptrs_114

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, as_ptr, bs_ptr, masked_m_ptr, M_max, N, K, stride_ag, stride_am, stride_bg, stride_bn, stride_cg, stride_cm, stride_asg, stride_asm, stride_bsg, stride_bsn, twill_box_b_95, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    g = gl.program_id(1)
    m = masked_m_ptr + g
    m_7 = gl.load(m)
    num_pid_m_8 = M_max + 63
    num_pid_m_9 = num_pid_m_8 // 64
    num_pid_n = N + 127
    num_pid_n_10 = num_pid_n // 128
    num_pid_in_group = num_pid_n_10 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_9 - first_pid_m
    group_size_m_11 = gl.minimum(group_size_m, 8)
    pid_m = pid % group_size_m_11
    pid_m_12 = first_pid_m + pid_m
    v0 = pid_m_12 * 64
    v1 = v0 >= m_7
    if v1:
        return
    a_93_buf = gl.allocate_shared_memory(gl.float8e4nv, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    b_95_buf = gl.allocate_shared_memory(gl.float8e4nv, [4, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    a_93_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_93_ready.index(i), count=128)
    a_93_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_93_empty.index(i), count=1)
    b_95_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_95_ready.index(i), count=1 if TWILL_TMA else 128)
    b_95_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_95_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, as_ptr, bs_ptr, masked_m_ptr, M_max, N, K, stride_ag, stride_am, stride_bg, stride_bn, stride_cg, stride_cm, stride_asg, stride_asm, stride_bsg, stride_bsn, twill_box_b_95, a_93_buf, b_95_buf, a_93_ready, a_93_empty, b_95_ready, b_95_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, c_ptr, as_ptr, bs_ptr, masked_m_ptr, M_max, N, K, stride_ag, stride_am, stride_bg, stride_bn, stride_cg, stride_cm, stride_asg, stride_asm, stride_bsg, stride_bsn, twill_box_b_95, a_93_buf, b_95_buf, a_93_ready, a_93_empty, b_95_ready, b_95_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [80])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'as_ptr', 'bs_ptr', 'masked_m_ptr', 'M_max', 'N', 'K', 'stride_ag', 'stride_am', 'stride_bg', 'stride_bn', 'stride_cg', 'stride_cm', 'stride_asg', 'stride_asm', 'stride_bsg', 'stride_bsn', 'group_k', 'group_n', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'as_ptr', 'bs_ptr', 'masked_m_ptr', 'M_max', 'N', 'K', 'stride_ag', 'stride_am', 'stride_bg', 'stride_bn', 'stride_cg', 'stride_cm', 'stride_asg', 'stride_asm', 'stride_bsg', 'stride_bsn', 'twill_box_b_95']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'as_ptr', 'bs_ptr', 'masked_m_ptr', 'M_max', 'N', 'K', 'stride_ag', 'stride_am', 'stride_bg', 'stride_bn', 'stride_cg', 'stride_cm', 'stride_asg', 'stride_asm', 'stride_bsg', 'stride_bsn']   # the arguments a launch key reads
CONSTEXPRS = {'group_k': 128, 'group_n': 128, 'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 128, 'GROUP_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_b_95': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_b_95': ('b_ptr', ['stride_bn', '1'], ['N', None], [128, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'stride_ag', 'stride_am', 'stride_bg', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 127) // 128)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 127) // 128)): run the Triton kernel for it")
    shapes = _box_shapes(bound)
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED), 'TWILL_TMA': shapes is not None}
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
