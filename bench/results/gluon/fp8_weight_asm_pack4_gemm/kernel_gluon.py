"""fp8_weight_asm_pack4_gemm, written by twill from its joint schedule: I=264 L=360 (optimal), 704 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (wq_49_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- two CTAs per SM: the partitions' registers (200, 0 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 224 registers per thread (needs about 200): sub-tiles None, 0, 1, 3 stages
- partition 1 (worker): producer, warp group 2, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings
- ring x_47_t0: 3 buffers of [64, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring x_47_t1: 3 buffers of [64, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared operand acc_51_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 98416 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, x_47_t0_buf, x_47_t1_buf, wq_49_as, acc_51_st, x_47_t0_ready, x_47_t0_empty, x_47_t1_ready, x_47_t1_empty, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_n = pid_n * 128
    offs_n_2 = gl.arange(0, 128, layout=L0)
    offs_n_3 = gl.arange(0, 128, layout=L1)
    offs_n_4 = gl.arange(0, 128, layout=L2)
    offs_n_5_t0 = gl.arange(0, 64, layout=L3)
    offs_n_5_t1 = gl.arange(0, 64, layout=L3) + 64
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
    acc_52_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L5)
    w_ptrs_53 = w_ptrs_53_p1 + w_ptrs_28  # load0_wq: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_wq: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(wq_49_as.index((0 - 0) % 2), w_ptrs_53_p1, mask=wq_27)  # load0_wq: stage 0, partition 0 (group 0)
    else:  # load0_wq: stage 0, partition 0 (group 0)
        wq_49_as.index((0 - 0) % 2).store(gl.load(w_ptrs_53_p1, mask=wq_27, other=0))  # load0_wq: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    acc_52_t0_p1 = acc_52_t0
    w_ptrs_53_p1 = w_ptrs_53
    acc_52_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L5)
    async_copy.wait_group(0)
    gl.thread_barrier()
    wq_49 = wq_49_as.index((1 - 1) % 2).load(L6)  # load0_wq: stage 1, partition 0 (group 0)
    w_ptrs_53 = w_ptrs_53_p1 + w_ptrs_28  # load0_wq: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_wq: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(wq_49_as.index((1 - 0) % 2), w_ptrs_53_p1, mask=wq_27)  # load0_wq: stage 0, partition 0 (group 0)
    else:  # load0_wq: stage 0, partition 0 (group 0)
        wq_49_as.index((1 - 0) % 2).store(gl.load(w_ptrs_53_p1, mask=wq_27, other=0))  # load0_wq: stage 0, partition 0 (group 0)
    acc_50_asm = gl.inline_asm_elementwise('{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $2; cvt.rn.f16x2.e4m3x2 $0, lo; cvt.rn.f16x2.e4m3x2 $1, hi; }', '=r,=r,r', [wq_49], dtype=(gl.float16,), is_pure=True, pack=4)  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_50 = gl.convert_layout(acc_50_asm[0], L6)  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_51 = acc_51_st.index((1 - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
    acc_51.store(acc_50)  # local_store0_acc: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
    mbarrier.wait(x_47_t0_ready.index((1 - 1) % 3), ((1 - 1) // 3) & 1)
    tok_acc_52_t0 = warpgroup_mma(x_47_t0_buf.index((1 - 1) % 3), acc_51, acc_52_t0_p1, is_async=True)  # dot0_acc_s0: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    acc_52_t0 = warpgroup_mma_wait(1, deps=(tok_acc_52_t0,))
    acc_51_p1 = acc_51
    acc_52_t0_p1 = acc_52_t0
    acc_52_t1_p1 = acc_52_t1
    w_ptrs_53_p1 = w_ptrs_53
    for twill_b in range(2, twill_n):
        mbarrier.wait(x_47_t1_ready.index((twill_b - 2) % 3), ((twill_b - 2) // 3) & 1)
        tok_acc_52_t1 = warpgroup_mma(x_47_t1_buf.index((twill_b - 2) % 3), acc_51_p1, acc_52_t1_p1, is_async=True)  # dot0_acc_s1: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        wq_49 = wq_49_as.index((twill_b - 1) % 2).load(L6)  # load0_wq: stage 1, partition 0 (group 0)
        w_ptrs_53 = w_ptrs_53_p1 + w_ptrs_28  # load0_wq: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_wq: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(wq_49_as.index((twill_b - 0) % 2), w_ptrs_53_p1, mask=wq_27)  # load0_wq: stage 0, partition 0 (group 0)
        else:  # load0_wq: stage 0, partition 0 (group 0)
            wq_49_as.index((twill_b - 0) % 2).store(gl.load(w_ptrs_53_p1, mask=wq_27, other=0))  # load0_wq: stage 0, partition 0 (group 0)
        acc_50_asm = gl.inline_asm_elementwise('{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $2; cvt.rn.f16x2.e4m3x2 $0, lo; cvt.rn.f16x2.e4m3x2 $1, hi; }', '=r,=r,r', [wq_49], dtype=(gl.float16,), is_pure=True, pack=4)  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_50 = gl.convert_layout(acc_50_asm[0], L6)  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_51 = acc_51_st.index((twill_b - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
        acc_51.store(acc_50)  # local_store0_acc: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(x_47_t0_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
        tok_acc_52_t0 = warpgroup_mma(x_47_t0_buf.index((twill_b - 1) % 3), acc_51, acc_52_t0_p1, is_async=True)  # dot0_acc_s0: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(2, deps=(tok_acc_52_t1,))
        mbarrier.arrive(x_47_t1_empty.index((twill_b - 1 - 2) % 3), pred=(twill_b - 1 - 2) >= 0)
        mbarrier.arrive(x_47_t0_empty.index((twill_b - 1 - 1) % 3))
        acc_52_t1, acc_52_t0 = warpgroup_mma_wait(2, deps=(tok_acc_52_t1, tok_acc_52_t0,))
        acc_51_p1 = acc_51
        acc_52_t0_p1 = acc_52_t0
        acc_52_t1_p1 = acc_52_t1
        w_ptrs_53_p1 = w_ptrs_53
    mbarrier.wait(x_47_t1_ready.index(((twill_n - 1 + 1) - 2) % 3), (((twill_n - 1 + 1) - 2) // 3) & 1)
    tok_acc_52_t1 = warpgroup_mma(x_47_t1_buf.index(((twill_n - 1 + 1) - 2) % 3), acc_51_p1, acc_52_t1_p1, is_async=True)  # dot0_acc_s1: stage 2, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    wq_49 = wq_49_as.index(((twill_n - 1 + 1) - 1) % 2).load(L6)  # load0_wq: stage 1, partition 0 (group 0)
    acc_50_asm = gl.inline_asm_elementwise('{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $2; cvt.rn.f16x2.e4m3x2 $0, lo; cvt.rn.f16x2.e4m3x2 $1, hi; }', '=r,=r,r', [wq_49], dtype=(gl.float16,), is_pure=True, pack=4)  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_50 = gl.convert_layout(acc_50_asm[0], L6)  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_51 = acc_51_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
    acc_51.store(acc_50)  # local_store0_acc: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
    mbarrier.wait(x_47_t0_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
    tok_acc_52_t0 = warpgroup_mma(x_47_t0_buf.index(((twill_n - 1 + 1) - 1) % 3), acc_51, acc_52_t0_p1, is_async=True)  # dot0_acc_s0: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    warpgroup_mma_wait(2, deps=(tok_acc_52_t1,))
    mbarrier.arrive(x_47_t1_empty.index(((twill_n - 1 + 1) - 1 - 2) % 3), pred=((twill_n - 1 + 1) - 1 - 2) >= 0)
    mbarrier.arrive(x_47_t0_empty.index(((twill_n - 1 + 1) - 1 - 1) % 3))
    acc_52_t1, acc_52_t0 = warpgroup_mma_wait(2, deps=(tok_acc_52_t1, tok_acc_52_t0,))
    acc_51_p1 = acc_51
    acc_52_t0_p2 = acc_52_t0_p1
    acc_52_t0_p1 = acc_52_t0
    acc_52_t1_p1 = acc_52_t1
    w_ptrs_53_p2 = w_ptrs_53_p1
    w_ptrs_53_p1 = w_ptrs_53
    mbarrier.wait(x_47_t1_ready.index(((twill_n - 1 + 2) - 2) % 3), (((twill_n - 1 + 2) - 2) // 3) & 1)
    tok_acc_52_t1 = warpgroup_mma(x_47_t1_buf.index(((twill_n - 1 + 2) - 2) % 3), acc_51_p1, acc_52_t1_p1, is_async=True)  # dot0_acc_s1: stage 2, partition 0 (group 0)
    async_copy.commit_group()
    acc_52_t0_p1 = warpgroup_mma_wait(1, deps=(acc_52_t0_p1,))
    mbarrier.arrive(x_47_t1_empty.index(((twill_n - 1 + 2) - 1 - 2) % 3), pred=((twill_n - 1 + 2) - 1 - 2) >= 0)
    mbarrier.arrive(x_47_t0_empty.index(((twill_n - 1 + 2) - 1 - 1) % 3))
    acc_52_t1 = warpgroup_mma_wait(1, deps=(tok_acc_52_t1,))
    acc_51_p1 = acc_51
    acc_52_t0_p2 = acc_52_t0_p1
    acc_52_t0_p1 = acc_52_t0
    acc_52_t1_p1 = acc_52_t1
    w_ptrs_53_p3 = w_ptrs_53_p2
    w_ptrs_53_p2 = w_ptrs_53_p1
    w_ptrs_53_p1 = w_ptrs_53
    acc_52_t1_p1 = warpgroup_mma_wait(0, deps=(acc_52_t1_p1,))
    x_47_t0_buf._keep_alive()
    acc_51_st._keep_alive()
    x_47_t1_buf._keep_alive()
    mbarrier.arrive(x_47_t1_empty.index(((twill_n - 1 + 2) - 2) % 3))
    scale_32 = s_ptr + offs_n_10
    scale_33 = gl.load(scale_32, mask=n_mask_15, other=0.0)
    offs_m = pid_m * 128
    offs_m_35_t0 = offs_m + offs_n_5_t0
    offs_m_35_t1 = offs_m + offs_n_5_t1
    y_ptrs_t0 = gl.expand_dims(offs_m_35_t0, 1)
    y_ptrs_t1 = gl.expand_dims(offs_m_35_t1, 1)
    y_ptrs_37_t0 = y_ptrs_t0 * N
    y_ptrs_37_t1 = y_ptrs_t1 * N
    y_ptrs_39_t0 = y_ptr + y_ptrs_37_t0
    y_ptrs_39_t1 = y_ptr + y_ptrs_37_t1
    y_ptrs_40_t0 = y_ptrs_39_t0.broadcast_to([64, 128])
    y_ptrs_40_t1 = y_ptrs_39_t1.broadcast_to([64, 128])
    y_ptrs_41_t0 = w_ptrs_23.broadcast_to([64, 128])
    y_ptrs_41_t1 = w_ptrs_23.broadcast_to([64, 128])
    y_ptrs_42_t0 = y_ptrs_40_t0 + y_ptrs_41_t0
    y_ptrs_42_t1 = y_ptrs_40_t1 + y_ptrs_41_t1
    v3_t0 = offs_m_35_t0 < M
    v3_t1 = offs_m_35_t1 < M
    v4_t0 = gl.expand_dims(v3_t0, 1)
    v4_t1 = gl.expand_dims(v3_t1, 1)
    v5 = gl.expand_dims(n_mask_16, 0)
    v6_t0 = v4_t0.broadcast_to([64, 128])
    v6_t1 = v4_t1.broadcast_to([64, 128])
    v7_t0 = v5.broadcast_to([64, 128])
    v7_t1 = v5.broadcast_to([64, 128])
    v8_t0 = v6_t0 & v7_t0
    v8_t1 = v6_t1 & v7_t1
    v9 = gl.expand_dims(scale_33, 0)
    v10_t0 = v9.broadcast_to([64, 128])
    v10_t1 = v9.broadcast_to([64, 128])
    v11_t0 = acc_52_t0_p2 * v10_t0
    v11_t1 = acc_52_t1_p1 * v10_t1
    v12_t0 = v11_t0.to(gl.float16)
    v12_t1 = v11_t1.to(gl.float16)
    v13_t0 = gl.convert_layout(v12_t0, L7)
    v13_t1 = gl.convert_layout(v12_t1, L7)
    gl.store(y_ptrs_42_t0, v13_t0, mask=v8_t0)
    gl.store(y_ptrs_42_t1, v13_t1, mask=v8_t1)

@gluon.jit
def producer_1(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, x_47_t0_buf, x_47_t1_buf, wq_49_as, acc_51_st, x_47_t0_ready, x_47_t0_empty, x_47_t1_ready, x_47_t1_empty, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    v0 = K + 63
    v1 = v0 // 64
    x = pid_m * 128
    for acc_43 in range(0, v1, 1):
        twill_k = (acc_43 - 0) // 1
        x_46 = acc_43 * 64
        mbarrier.wait(x_47_t0_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        mbarrier.expect(x_47_t0_ready.index(twill_k % 3), x_desc_1.block_type.nbytes)
        tma.async_copy_global_to_shared(x_desc_1, [x + 0, x_46], x_47_t0_ready.index(twill_k % 3), x_47_t0_buf.index(twill_k % 3))
        mbarrier.wait(x_47_t1_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        mbarrier.expect(x_47_t1_ready.index(twill_k % 3), x_desc_1.block_type.nbytes)
        tma.async_copy_global_to_shared(x_desc_1, [x + 64, x_46], x_47_t1_ready.index(twill_k % 3), x_47_t1_buf.index(twill_k % 3))

@gluon.jit
def twill_kernel(x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, TWILL_COPY: gl.constexpr):
    x_47_t0_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 64], x_desc_1.layout)
    x_47_t1_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 64], x_desc_1.layout)
    wq_49_as = gl.allocate_shared_memory(gl.int8, [2, 64, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    acc_51_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_47_t0_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_47_t0_ready.index(i), count=1)
    x_47_t0_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_47_t0_empty.index(i), count=1)
    x_47_t1_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_47_t1_ready.index(i), count=1)
    x_47_t1_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_47_t1_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, x_47_t0_buf, x_47_t1_buf, wq_49_as, acc_51_st, x_47_t0_ready, x_47_t0_empty, x_47_t1_ready, x_47_t1_empty, TWILL_COPY)),
        (producer_1, (x_ptr, w_ptr, s_ptr, y_ptr, M, N, K, x_desc_1, x_47_t0_buf, x_47_t1_buf, wq_49_as, acc_51_st, x_47_t0_ready, x_47_t0_empty, x_47_t1_ready, x_47_t1_empty, TWILL_COPY)),
    ], [1], [24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'w_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'w_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'x_desc_1']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'w_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'x_desc_1']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {'x_desc_1': [64, 64]}
DESCRIPTOR_LAYOUTS = {'x_desc_1': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
LAUNCH_DESCRIPTORS = {'x_desc_1': ('x_ptr', ['M', 'K'], ['K', '1'])}   # tl.make_tensor_descriptor in the kernel: (base, shape, strides)
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
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
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
