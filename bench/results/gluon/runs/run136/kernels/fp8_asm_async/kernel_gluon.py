"""fp8_weight_asm_pack4_gemm, written by twill from its joint schedule: I=198 L=270 (optimal), 704 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (wq_49_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 8 warps, 240 registers per thread (needs about 120): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings
- ring x_47: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared operand acc_51_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 98368 bytes planned of 232448; maxnreg 168
- short loops: where the scheduled loop runs at most 8 iterations a CTA (((K + 63) // 64), from the launch's arguments), the launch runs the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 168 registers, clean, 1 CTA(s) an SM against the producer's 1; simulated for 1, 2, 3, 8 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, twill_g0, twill_g1, twill_g2, x_47_buf, wq_49_as, acc_51_st, x_47_ready, x_47_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_m = twill_pid0
        pid_n = twill_pid1
        offs_n = pid_n * 128
        offs_n_2 = gl.arange(0, 128, layout=L0)
        offs_n_3 = gl.arange(0, 128, layout=L1)
        offs_n_4 = gl.arange(0, 128, layout=L2)
        offs_n_5 = gl.arange(0, 128, layout=L3)
        offs_n_9 = offs_n + offs_n_2
        offs_n_10 = offs_n + offs_n_3
        offs_n_11 = offs_n + offs_n_4
        n_mask_14 = offs_n_9 < N
        n_mask_15 = offs_n_10 < N
        n_mask_16 = offs_n_11 < N
        w_ptrs = gl.arange(0, 64, layout=L4)
        w_ptrs_17 = gl.expand_dims(w_ptrs, 1)
        w_ptrs_19 = w_ptrs_17 * N
        w_ptrs_21 = w_ptr + w_ptrs_19
        w_ptrs_22 = gl.expand_dims(offs_n_9, 0)
        w_ptrs_23 = gl.expand_dims(offs_n_11, 0)
        w_ptrs_24 = w_ptrs_21.broadcast_to([64, 128])
        w_ptrs_25 = w_ptrs_22.broadcast_to([64, 128])
        w_ptrs_26 = w_ptrs_24 + w_ptrs_25
        v0 = K + 63
        v1 = v0 // 64
        wq = gl.expand_dims(n_mask_14, 0)
        wq_27 = wq.broadcast_to([64, 128])
        w_ptrs_28 = N * 64
        twill_n = (v1 - 0 + 1 - 1) // 1
        w_ptrs_53 = w_ptrs_26
        w_ptrs_53_p1 = w_ptrs_53
        acc_52 = gl.full([128, 128], 0.0, gl.float32, layout=L5)
        w_ptrs_53 = w_ptrs_53_p1 + w_ptrs_28  # load0_wq: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_wq: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(wq_49_as.index((twill_base + 0 - 0) % 2), w_ptrs_53_p1, mask=wq_27)  # load0_wq: stage 0, partition 0 (group 0)
        else:  # load0_wq: stage 0, partition 0 (group 0)
            wq_49_as.index((twill_base + 0 - 0) % 2).store(gl.load(w_ptrs_53_p1, mask=wq_27, other=0))  # load0_wq: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        acc_52_p1 = acc_52
        w_ptrs_53_p1 = w_ptrs_53
        for twill_b in range(1, twill_n):
            async_copy.wait_group(0)
            gl.thread_barrier()
            wq_49 = wq_49_as.index((twill_base + twill_b - 1) % 2).load(L6)  # load0_wq: stage 1, partition 0 (group 0)
            w_ptrs_53 = w_ptrs_53_p1 + w_ptrs_28  # load0_wq: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_wq: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(wq_49_as.index((twill_base + twill_b - 0) % 2), w_ptrs_53_p1, mask=wq_27)  # load0_wq: stage 0, partition 0 (group 0)
            else:  # load0_wq: stage 0, partition 0 (group 0)
                wq_49_as.index((twill_base + twill_b - 0) % 2).store(gl.load(w_ptrs_53_p1, mask=wq_27, other=0))  # load0_wq: stage 0, partition 0 (group 0)
            acc_50_asm = gl.inline_asm_elementwise('{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $2; cvt.rn.f16x2.e4m3x2 $0, lo; cvt.rn.f16x2.e4m3x2 $1, hi; }', '=r,=r,r', [wq_49], dtype=(gl.float16,), is_pure=True, pack=4)  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_50 = gl.convert_layout(acc_50_asm[0], L6)  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_51 = acc_51_st.index((twill_b - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
            acc_51.store(acc_50)  # local_store0_acc: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(x_47_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
            tok_acc_52 = warpgroup_mma(x_47_buf.index((twill_base + twill_b - 1) % 3), acc_51, acc_52_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_acc_52,))
            mbarrier.arrive(x_47_empty.index((twill_base + twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
            acc_52 = warpgroup_mma_wait(1, deps=(tok_acc_52,))
            acc_52_p1 = acc_52
            w_ptrs_53_p1 = w_ptrs_53
        async_copy.wait_group(0)
        gl.thread_barrier()
        wq_49 = wq_49_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L6)  # load0_wq: stage 1, partition 0 (group 0)
        acc_50_asm = gl.inline_asm_elementwise('{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $2; cvt.rn.f16x2.e4m3x2 $0, lo; cvt.rn.f16x2.e4m3x2 $1, hi; }', '=r,=r,r', [wq_49], dtype=(gl.float16,), is_pure=True, pack=4)  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_50 = gl.convert_layout(acc_50_asm[0], L6)  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_51 = acc_51_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
        acc_51.store(acc_50)  # local_store0_acc: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(x_47_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
        tok_acc_52 = warpgroup_mma(x_47_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), acc_51, acc_52_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_52,))
        mbarrier.arrive(x_47_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_52 = warpgroup_mma_wait(1, deps=(tok_acc_52,))
        acc_52_p1 = acc_52
        w_ptrs_53_p2 = w_ptrs_53_p1
        w_ptrs_53_p1 = w_ptrs_53
        acc_52_p1 = warpgroup_mma_wait(0, deps=(acc_52_p1,))
        x_47_buf._keep_alive()
        acc_51_st._keep_alive()
        mbarrier.arrive(x_47_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        scale_32 = s_ptr + offs_n_10
        scale_33 = gl.load(scale_32, mask=n_mask_15, other=0.0)
        offs_m = pid_m * 128
        offs_m_35 = offs_m + offs_n_5
        y_ptrs = gl.expand_dims(offs_m_35, 1)
        y_ptrs_37 = y_ptrs * N
        y_ptrs_39 = y_ptr + y_ptrs_37
        y_ptrs_40 = y_ptrs_39.broadcast_to([128, 128])
        y_ptrs_41 = w_ptrs_23.broadcast_to([128, 128])
        y_ptrs_42 = y_ptrs_40 + y_ptrs_41
        v3 = offs_m_35 < M
        v4 = gl.expand_dims(v3, 1)
        v5 = gl.expand_dims(n_mask_16, 0)
        v6 = v4.broadcast_to([128, 128])
        v7 = v5.broadcast_to([128, 128])
        v8 = v6 & v7
        v9 = gl.expand_dims(scale_33, 0)
        v10 = v9.broadcast_to([128, 128])
        v11 = acc_52_p1 * v10
        v12 = v11.to(gl.float16)
        v13 = gl.convert_layout(v12, L7)
        gl.store(y_ptrs_42, v13, mask=v8)
        twill_base += twill_n

@gluon.jit
def producer_1(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, twill_g0, twill_g1, twill_g2, x_47_buf, wq_49_as, acc_51_st, x_47_ready, x_47_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid_m = twill_pid0
        v0 = K + 63
        v1 = v0 // 64
        x = pid_m * 128
        for acc_43 in range(0, v1, 1):
            twill_k = twill_base + (acc_43 - 0) // 1
            x_46 = acc_43 * 64
            mbarrier.wait(x_47_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            mbarrier.expect(x_47_ready.index(twill_k % 3), x_desc_1.block_type.nbytes)
            tma.async_copy_global_to_shared(x_desc_1, [x, x_46], x_47_ready.index(twill_k % 3), x_47_buf.index(twill_k % 3))
        twill_base += (v1 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    x_47_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], x_desc_1.layout)
    wq_49_as = gl.allocate_shared_memory(gl.int8, [2, 64, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    acc_51_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_47_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_47_ready.index(i), count=1)
    x_47_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_47_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, twill_g0, twill_g1, twill_g2, x_47_buf, wq_49_as, acc_51_st, x_47_ready, x_47_empty, TWILL_COPY)),
        (producer_1, (x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, twill_g0, twill_g1, twill_g2, x_47_buf, wq_49_as, acc_51_st, x_47_ready, x_47_empty, TWILL_COPY)),
    ], [1], [24])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L6_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0]))
L7_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, twill_g0, twill_g1, twill_g2, x_47_buf, wq_49_as, acc_51_st, x_47_ready, x_47_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_m = twill_pid0
        pid_n = twill_pid1
        offs_n = pid_n * 128
        offs_n_2 = gl.arange(0, 128, layout=L0_short)
        offs_n_3 = gl.arange(0, 128, layout=L1_short)
        offs_n_4 = gl.arange(0, 128, layout=L2_short)
        offs_n_5 = gl.arange(0, 128, layout=L3_short)
        offs_n_9 = offs_n + offs_n_2
        offs_n_10 = offs_n + offs_n_3
        offs_n_11 = offs_n + offs_n_4
        n_mask_14 = offs_n_9 < N
        n_mask_15 = offs_n_10 < N
        n_mask_16 = offs_n_11 < N
        w_ptrs = gl.arange(0, 64, layout=L4_short)
        w_ptrs_17 = gl.expand_dims(w_ptrs, 1)
        w_ptrs_19 = w_ptrs_17 * N
        w_ptrs_21 = w_ptr + w_ptrs_19
        w_ptrs_22 = gl.expand_dims(offs_n_9, 0)
        w_ptrs_23 = gl.expand_dims(offs_n_11, 0)
        w_ptrs_24 = w_ptrs_21.broadcast_to([64, 128])
        w_ptrs_25 = w_ptrs_22.broadcast_to([64, 128])
        w_ptrs_26 = w_ptrs_24 + w_ptrs_25
        v0 = K + 63
        v1 = v0 // 64
        wq = gl.expand_dims(n_mask_14, 0)
        wq_27 = wq.broadcast_to([64, 128])
        w_ptrs_28 = N * 64
        twill_n = (v1 - 0 + 1 - 1) // 1
        w_ptrs_53 = w_ptrs_26
        w_ptrs_53_p1 = w_ptrs_53
        acc_52 = gl.full([128, 128], 0.0, gl.float32, layout=L5_short)
        w_ptrs_53 = w_ptrs_53_p1 + w_ptrs_28  # load0_wq: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_wq: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(wq_49_as.index((twill_base + 0 - 0) % 2), w_ptrs_53_p1, mask=wq_27)  # load0_wq: stage 0, partition 0 (group 0)
        else:  # load0_wq: stage 0, partition 0 (group 0)
            wq_49_as.index((twill_base + 0 - 0) % 2).store(gl.load(w_ptrs_53_p1, mask=wq_27, other=0))  # load0_wq: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        acc_52_p1 = acc_52
        w_ptrs_53_p1 = w_ptrs_53
        for twill_b in range(1, twill_n):
            async_copy.wait_group(0)
            gl.thread_barrier()
            wq_49 = wq_49_as.index((twill_base + twill_b - 1) % 2).load(L6_short)  # load0_wq: stage 1, partition 0 (group 0)
            w_ptrs_53 = w_ptrs_53_p1 + w_ptrs_28  # load0_wq: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_wq: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(wq_49_as.index((twill_base + twill_b - 0) % 2), w_ptrs_53_p1, mask=wq_27)  # load0_wq: stage 0, partition 0 (group 0)
            else:  # load0_wq: stage 0, partition 0 (group 0)
                wq_49_as.index((twill_base + twill_b - 0) % 2).store(gl.load(w_ptrs_53_p1, mask=wq_27, other=0))  # load0_wq: stage 0, partition 0 (group 0)
            acc_50_asm = gl.inline_asm_elementwise('{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $2; cvt.rn.f16x2.e4m3x2 $0, lo; cvt.rn.f16x2.e4m3x2 $1, hi; }', '=r,=r,r', [wq_49], dtype=(gl.float16,), is_pure=True, pack=4)  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_50 = gl.convert_layout(acc_50_asm[0], L6_short)  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_51 = acc_51_st.index((twill_b - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
            acc_51.store(acc_50)  # local_store0_acc: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(x_47_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
            tok_acc_52 = warpgroup_mma(x_47_buf.index((twill_base + twill_b - 1) % 3), acc_51, acc_52_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_acc_52,))
            mbarrier.arrive(x_47_empty.index((twill_base + twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
            acc_52 = warpgroup_mma_wait(1, deps=(tok_acc_52,))
            acc_52_p1 = acc_52
            w_ptrs_53_p1 = w_ptrs_53
        async_copy.wait_group(0)
        gl.thread_barrier()
        wq_49 = wq_49_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L6_short)  # load0_wq: stage 1, partition 0 (group 0)
        acc_50_asm = gl.inline_asm_elementwise('{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $2; cvt.rn.f16x2.e4m3x2 $0, lo; cvt.rn.f16x2.e4m3x2 $1, hi; }', '=r,=r,r', [wq_49], dtype=(gl.float16,), is_pure=True, pack=4)  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_50 = gl.convert_layout(acc_50_asm[0], L6_short)  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_51 = acc_51_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
        acc_51.store(acc_50)  # local_store0_acc: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(x_47_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
        tok_acc_52 = warpgroup_mma(x_47_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), acc_51, acc_52_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_52,))
        mbarrier.arrive(x_47_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_52 = warpgroup_mma_wait(1, deps=(tok_acc_52,))
        acc_52_p1 = acc_52
        w_ptrs_53_p2 = w_ptrs_53_p1
        w_ptrs_53_p1 = w_ptrs_53
        acc_52_p1 = warpgroup_mma_wait(0, deps=(acc_52_p1,))
        x_47_buf._keep_alive()
        acc_51_st._keep_alive()
        mbarrier.arrive(x_47_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        scale_32 = s_ptr + offs_n_10
        scale_33 = gl.load(scale_32, mask=n_mask_15, other=0.0)
        offs_m = pid_m * 128
        offs_m_35 = offs_m + offs_n_5
        y_ptrs = gl.expand_dims(offs_m_35, 1)
        y_ptrs_37 = y_ptrs * N
        y_ptrs_39 = y_ptr + y_ptrs_37
        y_ptrs_40 = y_ptrs_39.broadcast_to([128, 128])
        y_ptrs_41 = w_ptrs_23.broadcast_to([128, 128])
        y_ptrs_42 = y_ptrs_40 + y_ptrs_41
        v3 = offs_m_35 < M
        v4 = gl.expand_dims(v3, 1)
        v5 = gl.expand_dims(n_mask_16, 0)
        v6 = v4.broadcast_to([128, 128])
        v7 = v5.broadcast_to([128, 128])
        v8 = v6 & v7
        v9 = gl.expand_dims(scale_33, 0)
        v10 = v9.broadcast_to([128, 128])
        v11 = acc_52_p1 * v10
        v12 = v11.to(gl.float16)
        v13 = gl.convert_layout(v12, L7_short)
        gl.store(y_ptrs_42, v13, mask=v8)
        twill_base += twill_n

@gluon.jit
def producer_1_short(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, twill_g0, twill_g1, twill_g2, x_47_buf, wq_49_as, acc_51_st, x_47_ready, x_47_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid_m = twill_pid0
        v0 = K + 63
        v1 = v0 // 64
        x = pid_m * 128
        for acc_43 in range(0, v1, 1):
            twill_k = twill_base + (acc_43 - 0) // 1
            x_46 = acc_43 * 64
            mbarrier.wait(x_47_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            mbarrier.expect(x_47_ready.index(twill_k % 3), x_desc_1.block_type.nbytes)
            tma.async_copy_global_to_shared(x_desc_1, [x, x_46], x_47_ready.index(twill_k % 3), x_47_buf.index(twill_k % 3))
        twill_base += (v1 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel_short(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    x_47_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], x_desc_1.layout)
    wq_49_as = gl.allocate_shared_memory(gl.int8, [2, 64, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    acc_51_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_47_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_47_ready.index(i), count=1)
    x_47_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_47_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0_short, (x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, twill_g0, twill_g1, twill_g2, x_47_buf, wq_49_as, acc_51_st, x_47_ready, x_47_empty, TWILL_COPY)),
        (producer_1_short, (x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, twill_g0, twill_g1, twill_g2, x_47_buf, wq_49_as, acc_51_st, x_47_ready, x_47_empty, TWILL_COPY)),
    ], [1], [24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'w_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'w_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'x_desc_1', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'w_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'x_desc_1', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {'x_desc_1': [128, 64]}
DESCRIPTOR_LAYOUTS = {'x_desc_1': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
LAUNCH_DESCRIPTORS = {'x_desc_1': ('x_ptr', ['M', 'K'], ['K', '1'])}   # tl.make_tensor_descriptor in the kernel: (base, shape, strides)
NUM_WARPS = 8
MAXNREG = 168
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['w_ptr', 'N']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


class _Made:
    """A descriptor the kernel made itself: its base tensor, shape and strides, as a host descriptor holds them."""

    def __init__(self, base, shape, strides):
        self.base, self.shape, self.strides = base, shape, strides


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
    trips = _ev('((K + 63) // 64)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
    for n, (base, shape, strides) in LAUNCH_DESCRIPTORS.items():
        bound[n] = _Made(bound[base], [_ev(e, bound) for e in shape], [_ev(e, bound) for e in strides])
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
    grid=grid)``: the kernel is specialised already (a warmup run compiles nothing here: the first launch does)."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)

    def run(self, *args, grid, warmup=False, **kwargs):
        """``kernel.run(*args, grid=grid, warmup=False)``, as a JIT function is run without its ``[grid]``."""
        return None if warmup else launch(grid, *args, **kwargs)

    @property
    def fn(self):
        return self

    @property
    def best_config(self):
        return _Config()


kernel = _Kernel()

# -- the one-partition kernel for short loops (host side) ---------------------------------------------
ARGUMENTS_short = ['x_ptr', 'w_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME_short = ['x_ptr', 'w_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'x_desc_1', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['x_ptr', 'w_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'x_desc_1', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS_short = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {'x_desc_1': [128, 64]}
DESCRIPTOR_LAYOUTS_short = {'x_desc_1': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
LAUNCH_DESCRIPTORS_short = {'x_desc_1': ('x_ptr', ['M', 'K'], ['K', '1'])}   # tl.make_tensor_descriptor in the kernel: (base, shape, strides)
NUM_WARPS_short = 8
MAXNREG_short = 168
PERSISTENT_short = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['w_ptr', 'N']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


class _Made_short:
    """A descriptor the kernel made itself: its base tensor, shape and strides, as a host descriptor holds them."""

    def __init__(self, base, shape, strides):
        self.base, self.shape, self.strides = base, shape, strides


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
    for n, (base, shape, strides) in LAUNCH_DESCRIPTORS_short.items():
        bound[n] = _Made_short(bound[base], [_ev_short(e, bound) for e in shape], [_ev_short(e, bound) for e in strides])
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
    grid=grid)``: the kernel is specialised already (a warmup run compiles nothing here: the first launch does)."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch_short(grid, *args, **kwargs)

    def run(self, *args, grid, warmup=False, **kwargs):
        """``kernel.run(*args, grid=grid, warmup=False)``, as a JIT function is run without its ``[grid]``."""
        return None if warmup else launch_short(grid, *args, **kwargs)

    @property
    def fn(self):
        return self

    @property
    def best_config(self):
        return _Config_short()


kernel_short = _Kernel_short()


SHORT_TRIPS = '((K + 63) // 64)'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
SHORT_LIMIT = 8      # at most this many: the one-partition kernel (``launch_short``), else ``launch_long``
SHORT_LIMIT_FULL = 0      # ... or this many where the launch's CTAs outnumber what the SMs hold of the producer's
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
