"""chunk_fwd_kernel_h, written by twill from its joint schedule: I=130 L=279 (optimal), 704 cycles per iteration predicted.

Decisions (each from the schedule):
- b_k_38 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- b_v_50 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- pointer-loaded tiles copied by a 4-warp producer with cp.async (b_k_38, b_v_50): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (96, 64 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 96): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring b_k_38: 5 buffers of [64, 64] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- ring b_v_50: 5 buffers of [64, 64] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- shared memory: 82096 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(k, v, h, T, b_k_38_buf, b_v_50_buf, b_k_38_ready, b_k_38_empty, b_v_50_ready, b_v_50_empty, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    p_h = v2 * 1048576
    p_h_8 = h + p_h
    p_h_9 = v0 * 64
    p_h_10 = v1 * 64
    p_h_11 = gl.cast(p_h_9, gl.int64)
    p_h_12 = gl.cast(p_h_10, gl.int64)
    v5 = gl.arange(0, 64, layout=L0)
    v6 = gl.arange(0, 64, layout=L1)
    v7 = gl.arange(0, 64, layout=L2)
    v8 = gl.arange(0, 64, layout=L3)
    v9 = v5.to(gl.int64)
    v10 = v6.to(gl.int64)
    v11 = v7.to(gl.int64)
    v12 = v8.to(gl.int64)
    v13 = p_h_11 + v9
    v14 = p_h_11 + v10
    v15 = gl.expand_dims(v13, 1)
    v16 = gl.expand_dims(v14, 1)
    v17 = v15 * 128
    v18 = v17.broadcast_to([64, 64])
    v20 = p_h_12 + v11
    v21 = gl.expand_dims(v20, 0)
    v22 = v21.broadcast_to([64, 64])
    v23 = v18 + v22
    v24 = v15 >= 0
    v25 = v16 >= 0
    v26 = v15 < 128
    v27 = v16 < 128
    v28 = v24 & v26
    v29 = v25 & v27
    v30 = v28.broadcast_to([64, 64])
    v31 = v29.broadcast_to([64, 64])
    v32 = v21 >= 0
    v33 = v21 < 128
    v34 = v32 & v33
    v35 = v34.broadcast_to([64, 64])
    v36 = v30 & v35
    p_k_15 = gl.cast(T, gl.int64)
    twill_n = (64 - 0 + 1 - 1) // 1
    b_h_52 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    p_k_22 = (0 + (0 - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
    p_k_23 = gl.cast(p_k_22, gl.int64)  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_25 = p_k_23  # load1_b_v: stage 0, partition 0 (group 0)
    b_k_27 = b_k_25 + v9  # load1_b_v: stage 0, partition 0 (group 0)
    b_v_40 = gl.expand_dims(b_k_27, 1)  # load1_b_v: stage 0, partition 0 (group 0)
    b_v_45 = b_v_40 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
    b_v_46 = b_v_40 < p_k_15  # elementwise2_b_v: stage 0, partition 0 (group 0)
    b_v_47 = b_v_45 & b_v_46  # elementwise2_b_v: stage 0, partition 0 (group 0)
    b_v_48 = b_v_47.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
    b_v_49 = b_v_48 & v35  # elementwise3_b_v: stage 0, partition 0 (group 0)
    b_k_24 = p_k_23  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_26 = b_k_24 + v12  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_28 = gl.expand_dims(b_k_26, 0)  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_33 = b_k_28 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_34 = b_k_28 < p_k_15  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_35 = b_k_33 & b_k_34  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_36 = b_k_35.broadcast_to([64, 64])  # elementwise1_b_k: stage 0, partition 0 (group 0)
    b_k_37 = v31 & b_k_36  # elementwise1_b_k: stage 0, partition 0 (group 0)
    b_h_52_p1 = b_h_52
    p_k_22 = (0 + (1 - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
    p_k_23 = gl.cast(p_k_22, gl.int64)  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_25 = p_k_23  # load1_b_v: stage 0, partition 0 (group 0)
    b_k_27 = b_k_25 + v9  # load1_b_v: stage 0, partition 0 (group 0)
    b_v_40 = gl.expand_dims(b_k_27, 1)  # load1_b_v: stage 0, partition 0 (group 0)
    b_v_45 = b_v_40 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
    b_v_46 = b_v_40 < p_k_15  # elementwise2_b_v: stage 0, partition 0 (group 0)
    b_v_47 = b_v_45 & b_v_46  # elementwise2_b_v: stage 0, partition 0 (group 0)
    b_v_48 = b_v_47.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
    b_v_49 = b_v_48 & v35  # elementwise3_b_v: stage 0, partition 0 (group 0)
    b_k_24 = p_k_23  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_26 = b_k_24 + v12  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_28 = gl.expand_dims(b_k_26, 0)  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_33 = b_k_28 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_34 = b_k_28 < p_k_15  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_35 = b_k_33 & b_k_34  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_36 = b_k_35.broadcast_to([64, 64])  # elementwise1_b_k: stage 0, partition 0 (group 0)
    b_k_37 = v31 & b_k_36  # elementwise1_b_k: stage 0, partition 0 (group 0)
    v37 = b_h_52_p1.to(gl.float16)  # convert0: stage 1, partition 0 (group 0)
    v40 = gl.convert_layout(v37, L5)  # convert0: stage 1, partition 0 (group 0)
    mbarrier.wait(b_k_38_ready.index((1 - 1) % 5), ((1 - 1) // 5) & 1)
    fence_async_shared()
    mbarrier.wait(b_v_50_ready.index((1 - 1) % 5), ((1 - 1) // 5) & 1)
    fence_async_shared()
    tok_b_h_52 = warpgroup_mma(b_k_38_buf.index((1 - 1) % 5), b_v_50_buf.index((1 - 1) % 5), b_h_52_p1, is_async=True)  # dot0_b_h: stage 1, partition 0 (group 0)
    b_h_52 = warpgroup_mma_wait(1, deps=(tok_b_h_52,))
    b_h_52_p1 = b_h_52
    v40_p1 = v40
    for twill_b in range(2, twill_n):
        p_k_22 = (0 + (twill_b - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
        p_k_23 = gl.cast(p_k_22, gl.int64)  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_25 = p_k_23  # load1_b_v: stage 0, partition 0 (group 0)
        b_k_27 = b_k_25 + v9  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_40 = gl.expand_dims(b_k_27, 1)  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_45 = b_v_40 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_46 = b_v_40 < p_k_15  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_47 = b_v_45 & b_v_46  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_48 = b_v_47.broadcast_to([64, 64])  # elementwise3_b_v: stage 0, partition 0 (group 0)
        b_v_49 = b_v_48 & v35  # elementwise3_b_v: stage 0, partition 0 (group 0)
        p_h_20 = (0 + (twill_b - 2) * 1) * 16384  # store0: stage 2, partition 0 (group 0)
        p_h_21 = p_h_8 + p_h_20  # store0: stage 2, partition 0 (group 0)
        v38 = p_h_21  # store0: stage 2, partition 0 (group 0)
        v39 = v38 + v23  # store0: stage 2, partition 0 (group 0)
        gl.store(v39, v40_p1, mask=v36)  # store0: stage 2, partition 0 (group 0)
        b_k_24 = p_k_23  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_26 = b_k_24 + v12  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_28 = gl.expand_dims(b_k_26, 0)  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_33 = b_k_28 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_34 = b_k_28 < p_k_15  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_35 = b_k_33 & b_k_34  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_36 = b_k_35.broadcast_to([64, 64])  # elementwise1_b_k: stage 0, partition 0 (group 0)
        b_k_37 = v31 & b_k_36  # elementwise1_b_k: stage 0, partition 0 (group 0)
        b_h_52_p1 = warpgroup_mma_wait(0, deps=(b_h_52_p1,))
        mbarrier.arrive(b_k_38_empty.index((twill_b - 1 - 1) % 5))
        mbarrier.arrive(b_v_50_empty.index((twill_b - 1 - 1) % 5))
        v37 = b_h_52_p1.to(gl.float16)  # convert0: stage 1, partition 0 (group 0)
        v40 = gl.convert_layout(v37, L5)  # convert0: stage 1, partition 0 (group 0)
        mbarrier.wait(b_k_38_ready.index((twill_b - 1) % 5), ((twill_b - 1) // 5) & 1)
        fence_async_shared()
        mbarrier.wait(b_v_50_ready.index((twill_b - 1) % 5), ((twill_b - 1) // 5) & 1)
        fence_async_shared()
        tok_b_h_52 = warpgroup_mma(b_k_38_buf.index((twill_b - 1) % 5), b_v_50_buf.index((twill_b - 1) % 5), b_h_52_p1, is_async=True)  # dot0_b_h: stage 1, partition 0 (group 0)
        b_h_52 = warpgroup_mma_wait(1, deps=(tok_b_h_52,))
        b_h_52_p1 = b_h_52
        v40_p1 = v40
    p_h_20 = (0 + ((twill_n - 1 + 1) - 2) * 1) * 16384  # store0: stage 2, partition 0 (group 0)
    p_h_21 = p_h_8 + p_h_20  # store0: stage 2, partition 0 (group 0)
    v38 = p_h_21  # store0: stage 2, partition 0 (group 0)
    v39 = v38 + v23  # store0: stage 2, partition 0 (group 0)
    gl.store(v39, v40_p1, mask=v36)  # store0: stage 2, partition 0 (group 0)
    b_h_52_p1 = warpgroup_mma_wait(0, deps=(b_h_52_p1,))
    mbarrier.arrive(b_k_38_empty.index(((twill_n - 1 + 1) - 1 - 1) % 5))
    mbarrier.arrive(b_v_50_empty.index(((twill_n - 1 + 1) - 1 - 1) % 5))
    v37 = b_h_52_p1.to(gl.float16)  # convert0: stage 1, partition 0 (group 0)
    v40 = gl.convert_layout(v37, L5)  # convert0: stage 1, partition 0 (group 0)
    mbarrier.wait(b_k_38_ready.index(((twill_n - 1 + 1) - 1) % 5), (((twill_n - 1 + 1) - 1) // 5) & 1)
    fence_async_shared()
    mbarrier.wait(b_v_50_ready.index(((twill_n - 1 + 1) - 1) % 5), (((twill_n - 1 + 1) - 1) // 5) & 1)
    fence_async_shared()
    tok_b_h_52 = warpgroup_mma(b_k_38_buf.index(((twill_n - 1 + 1) - 1) % 5), b_v_50_buf.index(((twill_n - 1 + 1) - 1) % 5), b_h_52_p1, is_async=True)  # dot0_b_h: stage 1, partition 0 (group 0)
    b_h_52 = warpgroup_mma_wait(1, deps=(tok_b_h_52,))
    b_h_52_p2 = b_h_52_p1
    b_h_52_p1 = b_h_52
    v40_p1 = v40
    p_h_20 = (0 + ((twill_n - 1 + 2) - 2) * 1) * 16384  # store0: stage 2, partition 0 (group 0)
    p_h_21 = p_h_8 + p_h_20  # store0: stage 2, partition 0 (group 0)
    v38 = p_h_21  # store0: stage 2, partition 0 (group 0)
    v39 = v38 + v23  # store0: stage 2, partition 0 (group 0)
    gl.store(v39, v40_p1, mask=v36)  # store0: stage 2, partition 0 (group 0)
    b_h_52_p1 = warpgroup_mma_wait(0, deps=(b_h_52_p1,))
    mbarrier.arrive(b_k_38_empty.index(((twill_n - 1 + 2) - 1 - 1) % 5))
    mbarrier.arrive(b_v_50_empty.index(((twill_n - 1 + 2) - 1 - 1) % 5))
    b_h_52_p2 = b_h_52_p1
    b_h_52_p1 = b_h_52
    v40_p1 = v40
    b_k_38_buf._keep_alive()
    b_v_50_buf._keep_alive()

@gluon.jit
def producer_1(k, v, h, T, b_k_38_buf, b_v_50_buf, b_k_38_ready, b_k_38_empty, b_v_50_ready, b_v_50_empty, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    p_h_9 = v0 * 64
    p_h_10 = v1 * 64
    p_h_11 = gl.cast(p_h_9, gl.int64)
    p_h_12 = gl.cast(p_h_10, gl.int64)
    v5 = gl.arange(0, 64, layout=L0)
    v6 = gl.arange(0, 64, layout=L1)
    v7 = gl.arange(0, 64, layout=L2)
    v8 = gl.arange(0, 64, layout=L3)
    v9 = v5.to(gl.int64)
    v10 = v6.to(gl.int64)
    v11 = v7.to(gl.int64)
    v12 = v8.to(gl.int64)
    v14 = p_h_11 + v10
    v16 = gl.expand_dims(v14, 1)
    v20 = p_h_12 + v11
    v21 = gl.expand_dims(v20, 0)
    v22 = v21.broadcast_to([64, 64])
    v25 = v16 >= 0
    v27 = v16 < 128
    v29 = v25 & v27
    v31 = v29.broadcast_to([64, 64])
    v32 = v21 >= 0
    v33 = v21 < 128
    v34 = v32 & v33
    v35 = v34.broadcast_to([64, 64])
    p_k = v2 * T
    p_k_13 = p_k * 128
    p_k_14 = k + p_k_13
    p_k_15 = gl.cast(T, gl.int64)
    p_v = v + p_k_13
    b_k_16 = v16.broadcast_to([64, 64])
    for b_h_19 in range(0, 64, 1):
        twill_k = (b_h_19 - 0) // 1
        p_k_22 = b_h_19 * 64
        p_k_23 = gl.cast(p_k_22, gl.int64)
        b_k_26 = p_k_23 + v12
        b_k_27 = p_k_23 + v9
        b_k_28 = gl.expand_dims(b_k_26, 0)
        b_k_29 = b_k_28 * 128
        b_k_30 = b_k_29.broadcast_to([64, 64])
        b_k_31 = b_k_16 + b_k_30
        b_k_32 = p_k_14 + b_k_31
        b_k_33 = b_k_28 >= 0
        b_k_34 = b_k_28 < p_k_15
        b_k_35 = b_k_33 & b_k_34
        b_k_36 = b_k_35.broadcast_to([64, 64])
        b_k_37 = v31 & b_k_36
        b_v_40 = gl.expand_dims(b_k_27, 1)
        b_v_41 = b_v_40 * 128
        b_v_42 = b_v_41.broadcast_to([64, 64])
        b_v_43 = b_v_42 + v22
        b_v_44 = p_v + b_v_43
        b_v_45 = b_v_40 >= 0
        b_v_46 = b_v_40 < p_k_15
        b_v_47 = b_v_45 & b_v_46
        b_v_48 = b_v_47.broadcast_to([64, 64])
        b_v_49 = b_v_48 & v35
        mbarrier.wait(b_v_50_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_v_50_buf.index(twill_k % 5), b_v_44, mask=b_v_49)  # load1_b_v: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_v_50_ready.index(twill_k % 5), increment_count=False)
        else:
            b_v_50_buf.index(twill_k % 5).store(gl.load(b_v_44, mask=b_v_49, other=0.0))  # load1_b_v: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_v_50_ready.index(twill_k % 5), count=128)
        mbarrier.wait(b_k_38_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_k_38_buf.index(twill_k % 5), b_k_32, mask=b_k_37)  # load0_b_k: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_k_38_ready.index(twill_k % 5), increment_count=False)
        else:
            b_k_38_buf.index(twill_k % 5).store(gl.load(b_k_32, mask=b_k_37, other=0.0))  # load0_b_k: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_k_38_ready.index(twill_k % 5), count=128)

@gluon.jit
def twill_kernel(k, v, h, T, TWILL_COPY: gl.constexpr):
    b_k_38_buf = gl.allocate_shared_memory(gl.float16, [5, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    b_v_50_buf = gl.allocate_shared_memory(gl.float16, [5, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_k_38_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_k_38_ready.index(i), count=128)
    b_k_38_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_k_38_empty.index(i), count=1)
    b_v_50_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_v_50_ready.index(i), count=128)
    b_v_50_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_v_50_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (k, v, h, T, b_k_38_buf, b_v_50_buf, b_k_38_ready, b_k_38_empty, b_v_50_ready, b_v_50_empty, TWILL_COPY)),
        (producer_1, (k, v, h, T, b_k_38_buf, b_v_50_buf, b_k_38_ready, b_k_38_empty, b_v_50_ready, b_v_50_empty, TWILL_COPY)),
    ], [4], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['k', 'v', 'h', 'T', 'K', 'V', 'BT', 'BK', 'BV', 'NT']          # the Triton kernel's parameters, in order
RUNTIME = ['k', 'v', 'h', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['k', 'v', 'h', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'K': 128, 'V': 128, 'BT': 64, 'BK': 64, 'BV': 64, 'NT': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['k', 'v']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
