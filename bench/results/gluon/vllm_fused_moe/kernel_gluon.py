"""fused_moe_kernel, written by twill from its joint schedule: I=120 L=163 (optimal), 960 cycles per iteration predicted.

Decisions (each from the schedule):
- a_122 copied with cp.async at every launch, not by TMA: its addresses go through arith.divsi (%a_ptrs_66), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_122, b_126): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (112, 80 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- b_126 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over b_ptr when the base is 16-byte aligned, the row strides 16-byte multiples, (N) % 128 == 0, (1 * stride_be) % (stride_bn) == 0; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 168 registers per thread (needs about 112): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 80 registers per thread (needs about 80): cp.async copies into the rings
- ring a_122: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring b_126: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 98448 bytes planned of 232448; maxnreg 128
- early return at vllm_fused_moe.py:152 (TTGIR line 64): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at vllm_fused_moe.py:160 (TTGIR line 100): taken in the kernel itself, before gl.warp_specialize starts the partitions (its branch's 20 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 2 each of the producer's (((K + 63) // 64), from the launch's arguments), the launch runs the faster, timed on each launch key's first launch (run 156: one partition in 3 CTAs an SM against the producer's 2 ran x0.64-0.95 on three fp16 GEMMs and x1.09-1.18 on a tf32 one at 8-32 iterations; nothing in the schedule tells them apart), of this kernel and the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 164 registers, clean, 3 CTA(s) an SM against the producer's 2; simulated for 1, 2, 3, 8 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn, twill_box_b_126, a_122_buf, b_126_buf, a_122_ready, a_122_empty, b_126_ready, b_126_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m = EM + 63
    num_pid_m_7 = num_pid_m // 64
    num_pid_n_8 = N + 127
    num_pid_n_9 = num_pid_n_8 // 128
    num_pid_in_group = num_pid_n_9 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_7 - first_pid_m
    group_size_m_10 = gl.minimum(group_size_m, 8)
    pid_m = pid % num_pid_in_group
    pid_m_11 = pid_m % group_size_m_10
    pid_m_12 = first_pid_m + pid_m_11
    pid_n = pid_m // group_size_m_10
    v0 = pid_m_12 * 64
    offs_token_id = gl.arange(0, 64, layout=L0)
    offs_token_id_13 = gl.arange(0, 64, layout=L1)
    offs_token_id_14 = gl.arange(0, 64, layout=L2)
    offs_token_id_15 = offs_token_id.to(gl.int64)
    offs_token_id_16 = offs_token_id_13.to(gl.int64)
    offs_token_id_17 = offs_token_id_14.to(gl.int64)
    offs_token_id_18 = gl.cast(v0, gl.int64)
    offs_token_id_22 = offs_token_id_18 + offs_token_id_15
    offs_token_id_23 = offs_token_id_18 + offs_token_id_16
    offs_token_id_24 = offs_token_id_18 + offs_token_id_17
    offs_token_27 = sorted_token_ids_ptr + offs_token_id_22
    offs_token_28 = sorted_token_ids_ptr + offs_token_id_23
    offs_token_29 = sorted_token_ids_ptr + offs_token_id_24
    offs_token_30 = gl.load(offs_token_27)
    offs_token_31 = gl.load(offs_token_28)
    offs_token_32 = gl.load(offs_token_29)
    token_mask_35 = offs_token_30 < num_valid_tokens
    token_mask_36 = offs_token_31 < num_valid_tokens
    token_mask_37 = offs_token_32 < num_valid_tokens
    off_experts = expert_ids_ptr + pid_m_12
    off_experts_38 = gl.load(off_experts)
    off_experts_39 = gl.cast(off_experts_38, gl.int64)
    offs_bn = pid_n * 128
    offs_bn_56 = gl.arange(0, 128, layout=L3)
    offs_bn_57 = gl.arange(0, 128, layout=L4)
    offs_bn_58 = offs_bn_56.to(gl.int64)
    offs_bn_59 = gl.cast(offs_bn, gl.int64)
    offs_bn_61 = offs_bn_59 + offs_bn_58
    offs_bn_62 = gl.cast(N, gl.int64)
    offs_bn_64 = offs_bn_61 % offs_bn_62
    a_ptrs = gl.expand_dims(offs_token_31, 1)
    a_ptrs_65 = gl.expand_dims(offs_token_30, 1)
    a_ptrs_66 = a_ptrs // 2
    a_ptrs_68 = a_ptrs_66 * stride_am
    a_ptrs_69 = gl.arange(0, 64, layout=L5)
    a_ptrs_70 = gl.expand_dims(a_ptrs_69, 0)
    a_ptrs_71 = a_ptrs_68.broadcast_to([64, 64])
    a_ptrs_72 = a_ptrs_70.broadcast_to([64, 64])
    a_ptrs_73 = a_ptrs_71 + a_ptrs_72
    a_ptrs_75 = a_ptr + a_ptrs_73
    b_ptrs = gl.cast(stride_be, gl.int64)
    b_ptrs_76 = off_experts_39 * b_ptrs
    b_ptrs_77 = b_ptr + b_ptrs_76
    b_ptrs_78 = gl.arange(0, 64, layout=L6)
    b_ptrs_79 = gl.expand_dims(b_ptrs_78, 1)
    b_ptrs_80 = gl.expand_dims(offs_bn_64, 0)
    b_ptrs_81 = gl.cast(stride_bn, gl.int64)
    b_ptrs_83 = b_ptrs_80 * b_ptrs_81
    b_ptrs_84 = b_ptrs_79.to(gl.int64)
    b_ptrs_85 = b_ptrs_84.broadcast_to([64, 128])
    b_ptrs_86 = b_ptrs_83.broadcast_to([64, 128])
    b_ptrs_87 = b_ptrs_85 + b_ptrs_86
    b_ptrs_89 = b_ptrs_77 + b_ptrs_87
    v3 = K + 63
    v4 = v3 // 64
    a = gl.expand_dims(token_mask_36, 1)
    a_90 = a.broadcast_to([64, 64])
    twill_n = (v4 - 0 + 1 - 1) // 1
    accumulator_128 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
    a_116 = (0 + (0 - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
    a_117 = K - a_116  # elementwise0_a: stage 0, partition 0 (group 0)
    a_118 = a_117  # elementwise0_a: stage 0, partition 0 (group 0)
    a_119 = a_ptrs_70 < a_118  # elementwise0_a: stage 0, partition 0 (group 0)
    a_120 = a_119.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
    a_121 = a_90 & a_120  # elementwise0_a: stage 0, partition 0 (group 0)
    accumulator_128_p1 = accumulator_128
    for twill_b in range(1, twill_n):
        a_116 = (0 + (twill_b - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
        a_117 = K - a_116  # elementwise0_a: stage 0, partition 0 (group 0)
        a_118 = a_117  # elementwise0_a: stage 0, partition 0 (group 0)
        a_119 = a_ptrs_70 < a_118  # elementwise0_a: stage 0, partition 0 (group 0)
        a_120 = a_119.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_121 = a_90 & a_120  # elementwise0_a: stage 0, partition 0 (group 0)
        mbarrier.wait(a_122_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
        fence_async_shared()
        mbarrier.wait(b_126_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
        fence_async_shared()
        tok_accumulator_128 = warpgroup_mma(a_122_buf.index((twill_b - 1) % 4), b_126_buf.index((twill_b - 1) % 4).permute((1, 0)), accumulator_128_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
        mbarrier.arrive(a_122_empty.index((twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
        mbarrier.arrive(b_126_empty.index((twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
        accumulator_128 = warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
        accumulator_128_p1 = accumulator_128
    mbarrier.wait(a_122_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
    fence_async_shared()
    mbarrier.wait(b_126_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
    fence_async_shared()
    tok_accumulator_128 = warpgroup_mma(a_122_buf.index(((twill_n - 1 + 1) - 1) % 4), b_126_buf.index(((twill_n - 1 + 1) - 1) % 4).permute((1, 0)), accumulator_128_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
    mbarrier.arrive(a_122_empty.index(((twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
    mbarrier.arrive(b_126_empty.index(((twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
    accumulator_128 = warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
    accumulator_128_p1 = accumulator_128
    accumulator_128_p1 = warpgroup_mma_wait(0, deps=(accumulator_128_p1,))
    a_122_buf._keep_alive()
    b_126_buf._keep_alive()
    mbarrier.arrive(a_122_empty.index(((twill_n - 1 + 1) - 1) % 4))
    mbarrier.arrive(b_126_empty.index(((twill_n - 1 + 1) - 1) % 4))
    moe_weight_91 = topk_weights_ptr + offs_token_32
    moe_weight_92 = gl.load(moe_weight_91, mask=token_mask_37, other=0.0)
    accumulator_93 = gl.expand_dims(moe_weight_92, 1)
    accumulator_94 = accumulator_93.broadcast_to([64, 128])
    accumulator_95 = accumulator_128_p1 * accumulator_94
    accumulator_96 = accumulator_95.to(gl.float16)
    offs_cn_98 = offs_bn + offs_bn_57
    c_ptrs_100 = stride_cm * a_ptrs_65
    c_ptrs_102 = c_ptr + c_ptrs_100
    c_ptrs_103 = gl.expand_dims(offs_cn_98, 0)
    c_ptrs_104 = c_ptrs_102.broadcast_to([64, 128])
    c_ptrs_105 = c_ptrs_103.broadcast_to([64, 128])
    c_ptrs_106 = c_ptrs_104 + c_ptrs_105
    c_mask_107 = gl.expand_dims(token_mask_35, 1)
    c_mask_109 = c_ptrs_103 < N
    c_mask_110 = c_mask_107.broadcast_to([64, 128])
    c_mask_111 = c_mask_109.broadcast_to([64, 128])
    c_mask_112 = c_mask_110 & c_mask_111
    v5 = gl.convert_layout(accumulator_96, L8)
    gl.store(c_ptrs_106, v5, mask=c_mask_112)

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn, twill_box_b_126, a_122_buf, b_126_buf, a_122_ready, a_122_empty, b_126_ready, b_126_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m = EM + 63
    num_pid_m_7 = num_pid_m // 64
    num_pid_n_8 = N + 127
    num_pid_n_9 = num_pid_n_8 // 128
    num_pid_in_group = num_pid_n_9 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_7 - first_pid_m
    group_size_m_10 = gl.minimum(group_size_m, 8)
    pid_m = pid % num_pid_in_group
    pid_m_11 = pid_m % group_size_m_10
    pid_m_12 = first_pid_m + pid_m_11
    pid_n = pid_m // group_size_m_10
    v0 = pid_m_12 * 64
    offs_token_id_13 = gl.arange(0, 64, layout=L1)
    offs_token_id_16 = offs_token_id_13.to(gl.int64)
    offs_token_id_18 = gl.cast(v0, gl.int64)
    offs_token_id_23 = offs_token_id_18 + offs_token_id_16
    offs_token_28 = sorted_token_ids_ptr + offs_token_id_23
    offs_token_31 = gl.load(offs_token_28)
    token_mask_36 = offs_token_31 < num_valid_tokens
    off_experts = expert_ids_ptr + pid_m_12
    off_experts_38 = gl.load(off_experts)
    off_experts_39 = gl.cast(off_experts_38, gl.int64)
    offs_bn = pid_n * 128
    offs_bn_56 = gl.arange(0, 128, layout=L3)
    offs_bn_58 = offs_bn_56.to(gl.int64)
    offs_bn_59 = gl.cast(offs_bn, gl.int64)
    offs_bn_61 = offs_bn_59 + offs_bn_58
    offs_bn_62 = gl.cast(N, gl.int64)
    offs_bn_64 = offs_bn_61 % offs_bn_62
    a_ptrs = gl.expand_dims(offs_token_31, 1)
    a_ptrs_66 = a_ptrs // 2
    a_ptrs_68 = a_ptrs_66 * stride_am
    a_ptrs_69 = gl.arange(0, 64, layout=L5)
    a_ptrs_70 = gl.expand_dims(a_ptrs_69, 0)
    a_ptrs_71 = a_ptrs_68.broadcast_to([64, 64])
    a_ptrs_72 = a_ptrs_70.broadcast_to([64, 64])
    a_ptrs_73 = a_ptrs_71 + a_ptrs_72
    a_ptrs_75 = a_ptr + a_ptrs_73
    b_ptrs = gl.cast(stride_be, gl.int64)
    b_ptrs_76 = off_experts_39 * b_ptrs
    b_ptrs_77 = b_ptr + b_ptrs_76
    b_ptrs_78 = gl.arange(0, 64, layout=L6)
    b_ptrs_79 = gl.expand_dims(b_ptrs_78, 1)
    b_ptrs_80 = gl.expand_dims(offs_bn_64, 0)
    b_ptrs_81 = gl.cast(stride_bn, gl.int64)
    b_ptrs_83 = b_ptrs_80 * b_ptrs_81
    b_ptrs_84 = b_ptrs_79.to(gl.int64)
    b_ptrs_85 = b_ptrs_84.broadcast_to([64, 128])
    b_ptrs_86 = b_ptrs_83.broadcast_to([64, 128])
    b_ptrs_87 = b_ptrs_85 + b_ptrs_86
    b_ptrs_89 = b_ptrs_77 + b_ptrs_87
    v3 = K + 63
    v4 = v3 // 64
    a = gl.expand_dims(token_mask_36, 1)
    a_90 = a.broadcast_to([64, 64])
    a_ptrs_114 = a_ptrs_75
    b_ptrs_115 = b_ptrs_89
    for accumulator_113 in range(0, v4, 1):
        twill_k = (accumulator_113 - 0) // 1
        a_116 = accumulator_113 * 64
        a_117 = K - a_116
        a_119 = a_ptrs_70 < a_117
        a_120 = a_119.broadcast_to([64, 64])
        a_121 = a_90 & a_120
        b_124 = b_ptrs_79 < a_117
        b_125 = b_124.broadcast_to([64, 128])
        a_ptrs_129 = a_ptrs_114 + 64
        b_ptrs_130 = b_ptrs_115 + 64
        mbarrier.wait(a_122_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_122_buf.index(twill_k % 4), a_ptrs_114, mask=a_121)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_122_ready.index(twill_k % 4), increment_count=False)
        else:
            a_122_buf.index(twill_k % 4).store(gl.load(a_ptrs_114, mask=a_121, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_122_ready.index(twill_k % 4), count=128)
        mbarrier.wait(b_126_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(b_126_ready.index(twill_k % 4), twill_box_b_126.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_b_126, [gl.cast(off_experts_38 * ((1 * stride_be) // (stride_bn)) + ((128 * pid_n) % (N)), gl.int32), gl.cast(64 * accumulator_113, gl.int32)], b_126_ready.index(twill_k % 4), b_126_buf.index(twill_k % 4))  # load1_b: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_126_buf.index(twill_k % 4).permute((1, 0)), b_ptrs_115, mask=b_125)  # load1_b: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_126_ready.index(twill_k % 4), increment_count=False)
            else:
                b_126_buf.index(twill_k % 4).permute((1, 0)).store(gl.load(b_ptrs_115, mask=b_125, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_126_ready.index(twill_k % 4), count=128)
        a_ptrs_114 = a_ptrs_129
        b_ptrs_115 = b_ptrs_130

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn, twill_box_b_126, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m = EM + 63
    num_pid_m_7 = num_pid_m // 64
    num_pid_n_8 = N + 127
    num_pid_n_9 = num_pid_n_8 // 128
    num_pid_in_group = num_pid_n_9 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_7 - first_pid_m
    group_size_m_10 = gl.minimum(group_size_m, 8)
    pid_m = pid % num_pid_in_group
    pid_m_11 = pid_m % group_size_m_10
    pid_m_12 = first_pid_m + pid_m_11
    num_tokens_post_padded = gl.load(num_tokens_post_padded_ptr)
    v0 = pid_m_12 * 64
    v1 = v0 >= num_tokens_post_padded
    if v1:
        return
    pid = gl.program_id(0)
    num_pid_m = EM + 63
    num_pid_m_7 = num_pid_m // 64
    num_pid_n_8 = N + 127
    num_pid_n_9 = num_pid_n_8 // 128
    num_pid_in_group = num_pid_n_9 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_7 - first_pid_m
    group_size_m_10 = gl.minimum(group_size_m, 8)
    pid_m = pid % num_pid_in_group
    pid_m_11 = pid_m % group_size_m_10
    pid_m_12 = first_pid_m + pid_m_11
    pid_n = pid_m // group_size_m_10
    v0 = pid_m_12 * 64
    offs_token_id = gl.arange(0, 64, layout=L0)
    offs_token_id_15 = offs_token_id.to(gl.int64)
    offs_token_id_18 = gl.cast(v0, gl.int64)
    offs_token_id_22 = offs_token_id_18 + offs_token_id_15
    offs_token_27 = sorted_token_ids_ptr + offs_token_id_22
    offs_token_30 = gl.load(offs_token_27)
    token_mask_35 = offs_token_30 < num_valid_tokens
    off_experts = expert_ids_ptr + pid_m_12
    off_experts_38 = gl.load(off_experts)
    off_experts_39 = gl.cast(off_experts_38, gl.int64)
    v2 = off_experts_39 == -1
    if v2:
        offs_cn = pid_n * 128
        offs_cn_40 = gl.arange(0, 128, layout=L4)
        offs_cn_42 = offs_cn + offs_cn_40
        c_ptrs = gl.expand_dims(offs_token_30, 1)
        c_ptrs_44 = stride_cm * c_ptrs
        c_ptrs_46 = c_ptr + c_ptrs_44
        c_ptrs_47 = gl.expand_dims(offs_cn_42, 0)
        c_ptrs_48 = c_ptrs_46.broadcast_to([64, 128])
        c_ptrs_49 = c_ptrs_47.broadcast_to([64, 128])
        c_ptrs_50 = c_ptrs_48 + c_ptrs_49
        c_mask = gl.expand_dims(token_mask_35, 1)
        c_mask_52 = c_ptrs_47 < N
        c_mask_53 = c_mask.broadcast_to([64, 128])
        c_mask_54 = c_mask_52.broadcast_to([64, 128])
        c_mask_55 = c_mask_53 & c_mask_54
        gl.store(c_ptrs_50, gl.full([64, 128], 0.0, gl.float16, layout=L8), mask=c_mask_55)
        return
    a_122_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_126_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_122_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_122_ready.index(i), count=128)
    a_122_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_122_empty.index(i), count=1)
    b_126_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_126_ready.index(i), count=1 if TWILL_TMA else 128)
    b_126_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_126_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn, twill_box_b_126, a_122_buf, b_126_buf, a_122_ready, a_122_empty, b_126_ready, b_126_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn, twill_box_b_126, a_122_buf, b_126_buf, a_122_ready, a_122_empty, b_126_ready, b_126_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [80])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L7_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn):
    pid = gl.program_id(0)
    num_pid_m = EM + 63
    num_pid_m_7 = num_pid_m // 64
    num_pid_n_8 = N + 127
    num_pid_n_9 = num_pid_n_8 // 128
    num_pid_in_group = num_pid_n_9 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_7 - first_pid_m
    group_size_m_10 = gl.minimum(group_size_m, 8)
    pid_m = pid % num_pid_in_group
    pid_m_11 = pid_m % group_size_m_10
    pid_m_12 = first_pid_m + pid_m_11
    pid_n = pid_m // group_size_m_10
    v0 = pid_m_12 * 64
    offs_token_id = gl.arange(0, 64, layout=L0_short)
    offs_token_id_13 = gl.arange(0, 64, layout=L1_short)
    offs_token_id_14 = gl.arange(0, 64, layout=L2_short)
    offs_token_id_15 = offs_token_id.to(gl.int64)
    offs_token_id_16 = offs_token_id_13.to(gl.int64)
    offs_token_id_17 = offs_token_id_14.to(gl.int64)
    offs_token_id_18 = gl.cast(v0, gl.int64)
    offs_token_id_22 = offs_token_id_18 + offs_token_id_15
    offs_token_id_23 = offs_token_id_18 + offs_token_id_16
    offs_token_id_24 = offs_token_id_18 + offs_token_id_17
    offs_token_27 = sorted_token_ids_ptr + offs_token_id_22
    offs_token_28 = sorted_token_ids_ptr + offs_token_id_23
    offs_token_29 = sorted_token_ids_ptr + offs_token_id_24
    offs_token_30 = gl.load(offs_token_27)
    offs_token_31 = gl.load(offs_token_28)
    offs_token_32 = gl.load(offs_token_29)
    token_mask_35 = offs_token_30 < num_valid_tokens
    token_mask_36 = offs_token_31 < num_valid_tokens
    token_mask_37 = offs_token_32 < num_valid_tokens
    off_experts = expert_ids_ptr + pid_m_12
    off_experts_38 = gl.load(off_experts)
    off_experts_39 = gl.cast(off_experts_38, gl.int64)
    offs_bn = pid_n * 128
    offs_bn_56 = gl.arange(0, 128, layout=L3_short)
    offs_bn_57 = gl.arange(0, 128, layout=L4_short)
    offs_bn_58 = offs_bn_56.to(gl.int64)
    offs_bn_59 = gl.cast(offs_bn, gl.int64)
    offs_bn_61 = offs_bn_59 + offs_bn_58
    offs_bn_62 = gl.cast(N, gl.int64)
    offs_bn_64 = offs_bn_61 % offs_bn_62
    a_ptrs = gl.expand_dims(offs_token_31, 1)
    a_ptrs_65 = gl.expand_dims(offs_token_30, 1)
    a_ptrs_66 = a_ptrs // 2
    a_ptrs_68 = a_ptrs_66 * stride_am
    a_ptrs_69 = gl.arange(0, 64, layout=L5_short)
    a_ptrs_70 = gl.expand_dims(a_ptrs_69, 0)
    a_ptrs_71 = a_ptrs_68.broadcast_to([64, 64])
    a_ptrs_72 = a_ptrs_70.broadcast_to([64, 64])
    a_ptrs_73 = a_ptrs_71 + a_ptrs_72
    a_ptrs_75 = a_ptr + a_ptrs_73
    b_ptrs = gl.cast(stride_be, gl.int64)
    b_ptrs_76 = off_experts_39 * b_ptrs
    b_ptrs_77 = b_ptr + b_ptrs_76
    b_ptrs_78 = gl.arange(0, 64, layout=L6_short)
    b_ptrs_79 = gl.expand_dims(b_ptrs_78, 1)
    b_ptrs_80 = gl.expand_dims(offs_bn_64, 0)
    b_ptrs_81 = gl.cast(stride_bn, gl.int64)
    b_ptrs_83 = b_ptrs_80 * b_ptrs_81
    b_ptrs_84 = b_ptrs_79.to(gl.int64)
    b_ptrs_85 = b_ptrs_84.broadcast_to([64, 128])
    b_ptrs_86 = b_ptrs_83.broadcast_to([64, 128])
    b_ptrs_87 = b_ptrs_85 + b_ptrs_86
    b_ptrs_89 = b_ptrs_77 + b_ptrs_87
    v3 = K + 63
    v4 = v3 // 64
    a = gl.expand_dims(token_mask_36, 1)
    a_90 = a.broadcast_to([64, 64])
    twill_n = (v4 - 0 + 1 - 1) // 1
    a_123_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_127_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    accumulator_128 = gl.full([64, 128], 0.0, gl.float32, layout=L7_short)
    a_ptrs_129 = a_ptrs_75
    b_ptrs_130 = b_ptrs_89
    a_116 = (0 + (0 - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
    a_117 = K - a_116  # elementwise0_a: stage 0, partition 0 (group 0)
    a_118 = a_117  # elementwise0_a: stage 0, partition 0 (group 0)
    a_119 = a_ptrs_70 < a_118  # elementwise0_a: stage 0, partition 0 (group 0)
    a_120 = a_119.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
    a_121 = a_90 & a_120  # elementwise0_a: stage 0, partition 0 (group 0)
    a_117_p1 = a_117
    a_121_p1 = a_121
    a_ptrs_129_p1 = a_ptrs_129
    accumulator_128_p1 = accumulator_128
    b_ptrs_130_p1 = b_ptrs_130
    for twill_b in range(1, twill_n):
        a_116 = (0 + (twill_b - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
        a_117 = K - a_116  # elementwise0_a: stage 0, partition 0 (group 0)
        a_118 = a_117  # elementwise0_a: stage 0, partition 0 (group 0)
        a_119 = a_ptrs_70 < a_118  # elementwise0_a: stage 0, partition 0 (group 0)
        a_120 = a_119.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_121 = a_90 & a_120  # elementwise0_a: stage 0, partition 0 (group 0)
        b = a_117_p1  # load1_b: stage 1, partition 0 (group 0)
        b_124 = b_ptrs_79 < b  # load1_b: stage 1, partition 0 (group 0)
        a_ptrs_129 = a_ptrs_129_p1 + 64  # load0_a: stage 1, partition 0 (group 0)
        a_122 = gl.load(a_ptrs_129_p1, mask=a_121_p1, other=0.0)  # load0_a: stage 1, partition 0 (group 0)
        b_125 = b_124.broadcast_to([64, 128])  # load1_b: stage 1, partition 0 (group 0)
        b_ptrs_130 = b_ptrs_130_p1 + 64  # load1_b: stage 1, partition 0 (group 0)
        b_126 = gl.load(b_ptrs_130_p1, mask=b_125, other=0.0)  # load1_b: stage 1, partition 0 (group 0)
        a_123 = a_123_st.index((twill_b - 1) % 2)  # load0_a: stage 1, partition 0 (group 0)
        a_123.store(a_122)  # load0_a: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_a: stage 1, partition 0 (group 0)
        b_127 = b_127_st.index((twill_b - 1) % 2)  # load1_b: stage 1, partition 0 (group 0)
        b_127.store(b_126)  # load1_b: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_b: stage 1, partition 0 (group 0)
        tok_accumulator_128 = warpgroup_mma(a_123, b_127, accumulator_128_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
        accumulator_128 = warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
        a_117_p1 = a_117
        a_121_p1 = a_121
        a_ptrs_129_p1 = a_ptrs_129
        accumulator_128_p1 = accumulator_128
        b_ptrs_130_p1 = b_ptrs_130
    b = a_117_p1  # load1_b: stage 1, partition 0 (group 0)
    b_124 = b_ptrs_79 < b  # load1_b: stage 1, partition 0 (group 0)
    a_ptrs_129 = a_ptrs_129_p1 + 64  # load0_a: stage 1, partition 0 (group 0)
    a_122 = gl.load(a_ptrs_129_p1, mask=a_121_p1, other=0.0)  # load0_a: stage 1, partition 0 (group 0)
    b_125 = b_124.broadcast_to([64, 128])  # load1_b: stage 1, partition 0 (group 0)
    b_ptrs_130 = b_ptrs_130_p1 + 64  # load1_b: stage 1, partition 0 (group 0)
    b_126 = gl.load(b_ptrs_130_p1, mask=b_125, other=0.0)  # load1_b: stage 1, partition 0 (group 0)
    a_123 = a_123_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_a: stage 1, partition 0 (group 0)
    a_123.store(a_122)  # load0_a: stage 1, partition 0 (group 0)
    fence_async_shared()  # load0_a: stage 1, partition 0 (group 0)
    b_127 = b_127_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_b: stage 1, partition 0 (group 0)
    b_127.store(b_126)  # load1_b: stage 1, partition 0 (group 0)
    fence_async_shared()  # load1_b: stage 1, partition 0 (group 0)
    tok_accumulator_128 = warpgroup_mma(a_123, b_127, accumulator_128_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
    accumulator_128 = warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
    a_117_p1 = a_117
    a_121_p1 = a_121
    a_ptrs_129_p1 = a_ptrs_129
    accumulator_128_p1 = accumulator_128
    b_ptrs_130_p1 = b_ptrs_130
    accumulator_128_p1 = warpgroup_mma_wait(0, deps=(accumulator_128_p1,))
    a_123_st._keep_alive()
    b_127_st._keep_alive()
    moe_weight_91 = topk_weights_ptr + offs_token_32
    moe_weight_92 = gl.load(moe_weight_91, mask=token_mask_37, other=0.0)
    accumulator_93 = gl.expand_dims(moe_weight_92, 1)
    accumulator_94 = accumulator_93.broadcast_to([64, 128])
    accumulator_95 = accumulator_128_p1 * accumulator_94
    accumulator_96 = accumulator_95.to(gl.float16)
    offs_cn_98 = offs_bn + offs_bn_57
    c_ptrs_100 = stride_cm * a_ptrs_65
    c_ptrs_102 = c_ptr + c_ptrs_100
    c_ptrs_103 = gl.expand_dims(offs_cn_98, 0)
    c_ptrs_104 = c_ptrs_102.broadcast_to([64, 128])
    c_ptrs_105 = c_ptrs_103.broadcast_to([64, 128])
    c_ptrs_106 = c_ptrs_104 + c_ptrs_105
    c_mask_107 = gl.expand_dims(token_mask_35, 1)
    c_mask_109 = c_ptrs_103 < N
    c_mask_110 = c_mask_107.broadcast_to([64, 128])
    c_mask_111 = c_mask_109.broadcast_to([64, 128])
    c_mask_112 = c_mask_110 & c_mask_111
    v5 = gl.convert_layout(accumulator_96, L8_short)
    gl.store(c_ptrs_106, v5, mask=c_mask_112)

@gluon.jit
def twill_kernel_short(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn):
    pid = gl.program_id(0)
    num_pid_m = EM + 63
    num_pid_m_7 = num_pid_m // 64
    num_pid_n_8 = N + 127
    num_pid_n_9 = num_pid_n_8 // 128
    num_pid_in_group = num_pid_n_9 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_7 - first_pid_m
    group_size_m_10 = gl.minimum(group_size_m, 8)
    pid_m = pid % num_pid_in_group
    pid_m_11 = pid_m % group_size_m_10
    pid_m_12 = first_pid_m + pid_m_11
    num_tokens_post_padded = gl.load(num_tokens_post_padded_ptr)
    v0 = pid_m_12 * 64
    v1 = v0 >= num_tokens_post_padded
    if v1:
        return
    pid = gl.program_id(0)
    num_pid_m = EM + 63
    num_pid_m_7 = num_pid_m // 64
    num_pid_n_8 = N + 127
    num_pid_n_9 = num_pid_n_8 // 128
    num_pid_in_group = num_pid_n_9 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_7 - first_pid_m
    group_size_m_10 = gl.minimum(group_size_m, 8)
    pid_m = pid % num_pid_in_group
    pid_m_11 = pid_m % group_size_m_10
    pid_m_12 = first_pid_m + pid_m_11
    pid_n = pid_m // group_size_m_10
    v0 = pid_m_12 * 64
    offs_token_id = gl.arange(0, 64, layout=L0_short)
    offs_token_id_15 = offs_token_id.to(gl.int64)
    offs_token_id_18 = gl.cast(v0, gl.int64)
    offs_token_id_22 = offs_token_id_18 + offs_token_id_15
    offs_token_27 = sorted_token_ids_ptr + offs_token_id_22
    offs_token_30 = gl.load(offs_token_27)
    token_mask_35 = offs_token_30 < num_valid_tokens
    off_experts = expert_ids_ptr + pid_m_12
    off_experts_38 = gl.load(off_experts)
    off_experts_39 = gl.cast(off_experts_38, gl.int64)
    v2 = off_experts_39 == -1
    if v2:
        offs_cn = pid_n * 128
        offs_cn_40 = gl.arange(0, 128, layout=L4_short)
        offs_cn_42 = offs_cn + offs_cn_40
        c_ptrs = gl.expand_dims(offs_token_30, 1)
        c_ptrs_44 = stride_cm * c_ptrs
        c_ptrs_46 = c_ptr + c_ptrs_44
        c_ptrs_47 = gl.expand_dims(offs_cn_42, 0)
        c_ptrs_48 = c_ptrs_46.broadcast_to([64, 128])
        c_ptrs_49 = c_ptrs_47.broadcast_to([64, 128])
        c_ptrs_50 = c_ptrs_48 + c_ptrs_49
        c_mask = gl.expand_dims(token_mask_35, 1)
        c_mask_52 = c_ptrs_47 < N
        c_mask_53 = c_mask.broadcast_to([64, 128])
        c_mask_54 = c_mask_52.broadcast_to([64, 128])
        c_mask_55 = c_mask_53 & c_mask_54
        gl.store(c_ptrs_50, gl.full([64, 128], 0.0, gl.float16, layout=L8_short), mask=c_mask_55)
        return
    consumer_0_short(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_ak', 'stride_be', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_asm', 'stride_ask', 'stride_bse', 'stride_bsk', 'stride_bsn', 'group_n', 'group_k', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'MUL_ROUTED_WEIGHT', 'top_k', 'compute_type', 'use_fp8_w8a8', 'use_int8_w8a8', 'use_int8_w8a16', 'per_channel_quant']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_asm', 'stride_ask', 'stride_bse', 'stride_bsk', 'stride_bsn', 'twill_box_b_126']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_asm', 'stride_ask', 'stride_bse', 'stride_bsk', 'stride_bsn', 'compute_type']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'group_n': 0, 'group_k': 0, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'MUL_ROUTED_WEIGHT': True, 'top_k': 2, 'use_fp8_w8a8': False, 'use_int8_w8a8': False, 'use_int8_w8a16': False, 'per_channel_quant': False}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_b_126': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_b_126': ('b_ptr', ['stride_bn', '1'], [None, 'K'], [128, 64], ['(N) % 128 == 0', '(1 * stride_be) % (stride_bn) == 0'])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'K', 'stride_am', 'stride_be', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 63) // 64)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
ARGUMENTS_short = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_ak', 'stride_be', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_asm', 'stride_ask', 'stride_bse', 'stride_bsk', 'stride_bsn', 'group_n', 'group_k', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'MUL_ROUTED_WEIGHT', 'top_k', 'compute_type', 'use_fp8_w8a8', 'use_int8_w8a8', 'use_int8_w8a16', 'per_channel_quant']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'b_ptr', 'c_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_asm', 'stride_ask', 'stride_bse', 'stride_bsk', 'stride_bsn']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_asm', 'stride_ask', 'stride_bse', 'stride_bsk', 'stride_bsn', 'compute_type']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'group_n': 0, 'group_k': 0, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'MUL_ROUTED_WEIGHT': True, 'top_k': 2, 'use_fp8_w8a8': False, 'use_int8_w8a8': False, 'use_int8_w8a16': False, 'per_channel_quant': False}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
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
    trips = _ev_short('((K + 63) // 64)', dict(bound, **CONSTEXPRS_short))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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


SHORT_TRIPS = '((K + 63) // 64)'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
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
