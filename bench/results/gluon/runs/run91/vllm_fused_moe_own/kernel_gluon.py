"""fused_moe_kernel, written by twill from its joint schedule: I=120 L=163 (optimal), 960 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (a_123_ring: 5 x 8192 B, issued 3 iteration(s) ahead, b_127_ring: 5 x 16384 B, issued 3 iteration(s) ahead): one commit group per body; read after wait_group, a proxy fence and a barrier, a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, ran x0.78 Triton's best, run 87)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 3 stage(s) ahead of their readers; 4 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 112 per thread)
- shared memory: 122896 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at vllm_fused_moe.py:152 (TTGIR line 64): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at vllm_fused_moe.py:160 (TTGIR line 100): taken in the kernel itself, before the loop (its branch's 20 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)

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
def consumer_0(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn, TWILL_COPY: gl.constexpr):
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
    if (twill_n >= 3) | (gl.program_id(0) < 0):
        a_123_ring = gl.allocate_shared_memory(gl.float16, [5, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        b_127_ring = gl.allocate_shared_memory(gl.float16, [5, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        a_ptrs_129 = a_ptrs_75
        b_ptrs_130 = b_ptrs_89
        a_ptrs_129_p1 = a_ptrs_129
        b_ptrs_130_p1 = b_ptrs_130
        a_116 = (0 + (0 - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
        a_117 = K - a_116  # elementwise0_a: stage 0, partition 0 (group 0)
        a_118 = a_117  # elementwise0_a: stage 0, partition 0 (group 0)
        a_119 = a_ptrs_70 < a_118  # elementwise0_a: stage 0, partition 0 (group 0)
        a_120 = a_119.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_121 = a_90 & a_120  # elementwise0_a: stage 0, partition 0 (group 0)
        b = a_117  # load1_b: stage 0, partition 0 (group 0)
        b_124 = b_ptrs_79 < b  # load1_b: stage 0, partition 0 (group 0)
        b_125 = b_124.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
        a_ptrs_129 = a_ptrs_129_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_130 = b_ptrs_130_p1 + 64  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_123_ring.index((0 - 0) % 5), a_ptrs_129_p1, mask=a_121)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_123_ring.index((0 - 0) % 5).store(gl.load(a_ptrs_129_p1, mask=a_121, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_127_ring.index((0 - 0) % 5), b_ptrs_130_p1, mask=b_125)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_127_ring.index((0 - 0) % 5).store(gl.load(b_ptrs_130_p1, mask=b_125, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_129_p1 = a_ptrs_129
        b_ptrs_130_p1 = b_ptrs_130
        a_116 = (0 + (1 - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
        a_117 = K - a_116  # elementwise0_a: stage 0, partition 0 (group 0)
        a_118 = a_117  # elementwise0_a: stage 0, partition 0 (group 0)
        a_119 = a_ptrs_70 < a_118  # elementwise0_a: stage 0, partition 0 (group 0)
        a_120 = a_119.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_121 = a_90 & a_120  # elementwise0_a: stage 0, partition 0 (group 0)
        b = a_117  # load1_b: stage 0, partition 0 (group 0)
        b_124 = b_ptrs_79 < b  # load1_b: stage 0, partition 0 (group 0)
        b_125 = b_124.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
        a_ptrs_129 = a_ptrs_129_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_130 = b_ptrs_130_p1 + 64  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_123_ring.index((1 - 0) % 5), a_ptrs_129_p1, mask=a_121)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_123_ring.index((1 - 0) % 5).store(gl.load(a_ptrs_129_p1, mask=a_121, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_127_ring.index((1 - 0) % 5), b_ptrs_130_p1, mask=b_125)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_127_ring.index((1 - 0) % 5).store(gl.load(b_ptrs_130_p1, mask=b_125, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_129_p1 = a_ptrs_129
        b_ptrs_130_p1 = b_ptrs_130
        accumulator_128 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
        a_116 = (0 + (2 - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
        a_117 = K - a_116  # elementwise0_a: stage 0, partition 0 (group 0)
        a_118 = a_117  # elementwise0_a: stage 0, partition 0 (group 0)
        a_119 = a_ptrs_70 < a_118  # elementwise0_a: stage 0, partition 0 (group 0)
        a_120 = a_119.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_121 = a_90 & a_120  # elementwise0_a: stage 0, partition 0 (group 0)
        b = a_117  # load1_b: stage 0, partition 0 (group 0)
        b_124 = b_ptrs_79 < b  # load1_b: stage 0, partition 0 (group 0)
        b_125 = b_124.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
        a_ptrs_129 = a_ptrs_129_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_130 = b_ptrs_130_p1 + 64  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_123_ring.index((2 - 0) % 5), a_ptrs_129_p1, mask=a_121)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_123_ring.index((2 - 0) % 5).store(gl.load(a_ptrs_129_p1, mask=a_121, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_127_ring.index((2 - 0) % 5), b_ptrs_130_p1, mask=b_125)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_127_ring.index((2 - 0) % 5).store(gl.load(b_ptrs_130_p1, mask=b_125, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_129_p1 = a_ptrs_129
        accumulator_128_p1 = accumulator_128
        b_ptrs_130_p1 = b_ptrs_130
        for twill_b in range(3, twill_n):
            a_116 = (0 + (twill_b - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
            a_117 = K - a_116  # elementwise0_a: stage 0, partition 0 (group 0)
            a_118 = a_117  # elementwise0_a: stage 0, partition 0 (group 0)
            a_119 = a_ptrs_70 < a_118  # elementwise0_a: stage 0, partition 0 (group 0)
            a_120 = a_119.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
            a_121 = a_90 & a_120  # elementwise0_a: stage 0, partition 0 (group 0)
            async_copy.wait_group(2)
            fence_async_shared()
            gl.thread_barrier()
            a_123 = a_123_ring.index((twill_b - 3) % 5)  # load0_a: stage 3, partition 0 (group 0)
            b = a_117  # load1_b: stage 0, partition 0 (group 0)
            b_127 = b_127_ring.index((twill_b - 3) % 5)  # load1_b: stage 3, partition 0 (group 0)
            b_124 = b_ptrs_79 < b  # load1_b: stage 0, partition 0 (group 0)
            b_125 = b_124.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
            a_ptrs_129 = a_ptrs_129_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_130 = b_ptrs_130_p1 + 64  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_123_ring.index((twill_b - 0) % 5), a_ptrs_129_p1, mask=a_121)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_123_ring.index((twill_b - 0) % 5).store(gl.load(a_ptrs_129_p1, mask=a_121, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_127_ring.index((twill_b - 0) % 5), b_ptrs_130_p1, mask=b_125)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_127_ring.index((twill_b - 0) % 5).store(gl.load(b_ptrs_130_p1, mask=b_125, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
            tok_accumulator_128 = warpgroup_mma(a_123, b_127, accumulator_128_p1, is_async=True)  # dot0_accumulator: stage 3, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
            accumulator_128 = warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
            a_ptrs_129_p1 = a_ptrs_129
            accumulator_128_p1 = accumulator_128
            b_ptrs_130_p1 = b_ptrs_130
        async_copy.wait_group(2)
        fence_async_shared()
        gl.thread_barrier()
        a_123 = a_123_ring.index(((twill_n - 1 + 1) - 3) % 5)  # load0_a: stage 3, partition 0 (group 0)
        b_127 = b_127_ring.index(((twill_n - 1 + 1) - 3) % 5)  # load1_b: stage 3, partition 0 (group 0)
        tok_accumulator_128 = warpgroup_mma(a_123, b_127, accumulator_128_p1, is_async=True)  # dot0_accumulator: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
        accumulator_128 = warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
        a_ptrs_129_p2 = a_ptrs_129_p1
        a_ptrs_129_p1 = a_ptrs_129
        accumulator_128_p1 = accumulator_128
        b_ptrs_130_p2 = b_ptrs_130_p1
        b_ptrs_130_p1 = b_ptrs_130
        async_copy.wait_group(2)
        fence_async_shared()
        gl.thread_barrier()
        a_123 = a_123_ring.index(((twill_n - 1 + 2) - 3) % 5)  # load0_a: stage 3, partition 0 (group 0)
        b_127 = b_127_ring.index(((twill_n - 1 + 2) - 3) % 5)  # load1_b: stage 3, partition 0 (group 0)
        tok_accumulator_128 = warpgroup_mma(a_123, b_127, accumulator_128_p1, is_async=True)  # dot0_accumulator: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
        accumulator_128 = warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
        a_ptrs_129_p3 = a_ptrs_129_p2
        a_ptrs_129_p2 = a_ptrs_129_p1
        a_ptrs_129_p1 = a_ptrs_129
        accumulator_128_p1 = accumulator_128
        b_ptrs_130_p3 = b_ptrs_130_p2
        b_ptrs_130_p2 = b_ptrs_130_p1
        b_ptrs_130_p1 = b_ptrs_130
        async_copy.wait_group(2)
        fence_async_shared()
        gl.thread_barrier()
        a_123 = a_123_ring.index(((twill_n - 1 + 3) - 3) % 5)  # load0_a: stage 3, partition 0 (group 0)
        b_127 = b_127_ring.index(((twill_n - 1 + 3) - 3) % 5)  # load1_b: stage 3, partition 0 (group 0)
        tok_accumulator_128 = warpgroup_mma(a_123, b_127, accumulator_128_p1, is_async=True)  # dot0_accumulator: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
        accumulator_128 = warpgroup_mma_wait(1, deps=(tok_accumulator_128,))
        a_ptrs_129_p4 = a_ptrs_129_p3
        a_ptrs_129_p3 = a_ptrs_129_p2
        a_ptrs_129_p2 = a_ptrs_129_p1
        a_ptrs_129_p1 = a_ptrs_129
        accumulator_128_p1 = accumulator_128
        b_ptrs_130_p4 = b_ptrs_130_p3
        b_ptrs_130_p3 = b_ptrs_130_p2
        b_ptrs_130_p2 = b_ptrs_130_p1
        b_ptrs_130_p1 = b_ptrs_130
        accumulator_128_p1 = warpgroup_mma_wait(0, deps=(accumulator_128_p1,))
        a_123_ring._keep_alive()
        b_127_ring._keep_alive()
    else:
        arg21_w = gl.full([64, 128], 0.0, gl.float32, layout=L7)
        a_ptrs_114_w = a_ptrs_75
        b_ptrs_115_w = b_ptrs_89
        for accumulator_113_w in range(0, v4, 1):
            a_116_w = accumulator_113_w * 64
            a_117_w = K - a_116_w
            a_119_w = a_ptrs_70 < a_117_w
            a_120_w = a_119_w.broadcast_to([64, 64])
            a_121_w = a_90 & a_120_w
            a_122_w = gl.load(a_ptrs_114_w, mask=a_121_w, other=0.0)
            a_123_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), a_122_w)
            fence_async_shared()
            b_124_w = b_ptrs_79 < a_117_w
            b_125_w = b_124_w.broadcast_to([64, 128])
            b_126_w = gl.load(b_ptrs_115_w, mask=b_125_w, other=0.0)
            b_127_w = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), b_126_w)
            fence_async_shared()
            accumulator_128_w = warpgroup_mma(a_123_w, b_127_w, arg21_w)
            a_ptrs_129_w = a_ptrs_114_w + 64
            b_ptrs_130_w = b_ptrs_115_w + 64
            arg21_w = accumulator_128_w
            a_ptrs_114_w = a_ptrs_129_w
            b_ptrs_115_w = b_ptrs_130_w
        accumulator_128_p1 = arg21_w
        a_ptrs_129_p4 = a_ptrs_114_w
        b_ptrs_130_p4 = b_ptrs_115_w
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
def twill_kernel(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn, TWILL_COPY: gl.constexpr):
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
    consumer_0(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_ask, stride_bse, stride_bsk, stride_bsn, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_ak', 'stride_be', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_asm', 'stride_ask', 'stride_bse', 'stride_bsk', 'stride_bsn', 'group_n', 'group_k', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'MUL_ROUTED_WEIGHT', 'top_k', 'compute_type', 'use_fp8_w8a8', 'use_int8_w8a8', 'use_int8_w8a16', 'per_channel_quant']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_asm', 'stride_ask', 'stride_bse', 'stride_bsk', 'stride_bsn']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_asm', 'stride_ask', 'stride_bse', 'stride_bsk', 'stride_bsn', 'compute_type']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'group_n': 0, 'group_k': 0, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'MUL_ROUTED_WEIGHT': True, 'top_k': 2, 'use_fp8_w8a8': False, 'use_int8_w8a8': False, 'use_int8_w8a16': False, 'per_channel_quant': False}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
