"""lora_shrink, written by twill from its joint schedule: I=100 L=112 (optimal), 800 cycles per iteration predicted.

Decisions (each from the schedule):
- a_69 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%rows_22), which the analysis does not follow
- b_75 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_69, b_75): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (52, 72 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 176 registers per thread (needs about 52): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 72 registers per thread (needs about 72): cp.async copies into the rings
- ring a_69: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring b_75: 4 buffers of [128, 16] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 82064 bytes planned of 232448; maxnreg 128
- early return at lora_shrink.py:30 (TTGIR line 41): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 2 each of the producer's (((K + 511) // 512), from the launch's arguments), the launch runs the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 80 registers, clean, 5 CTA(s) an SM against the producer's 2; simulated for 1, 2, 3, 8 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 16, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(x_ptr, w_ptr, out_ptr, token_idx, lora_ids, num_tokens, idx_stride, K, R, scaling, a_69_buf, b_75_buf, a_69_ready, a_69_empty, b_75_ready, b_75_empty, TWILL_COPY: gl.constexpr):
    pid_sk = gl.program_id(0)
    pid_m = gl.program_id(1)
    lora = gl.program_id(2)
    M = num_tokens + lora
    M_6 = gl.load(M)
    v0 = pid_m * 64
    lora_id = lora_ids + lora
    lora_id_7 = gl.load(lora_id)
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_8 = gl.arange(0, 64, layout=L1)
    offs_m_11 = v0 + offs_m
    offs_m_12 = v0 + offs_m_8
    rows_14 = offs_m_11 < M_6
    rows_15 = offs_m_12 < M_6
    rows_16 = lora * idx_stride
    rows_17 = token_idx + rows_16
    rows_20 = rows_17 + offs_m_11
    rows_21 = rows_17 + offs_m_12
    rows_22 = gl.load(rows_20, mask=rows_14, other=0)
    rows_23 = gl.load(rows_21, mask=rows_15, other=0)
    offs_k = pid_sk * 128
    offs_k_24 = gl.arange(0, 128, layout=L2)
    offs_k_25 = gl.arange(0, 128, layout=L3)
    offs_k_28 = offs_k + offs_k_24
    offs_k_29 = offs_k + offs_k_25
    a_ptrs = gl.expand_dims(rows_22, 1)
    a_ptrs_30 = gl.expand_dims(rows_23, 1)
    a_ptrs_32 = a_ptrs * K
    a_ptrs_34 = x_ptr + a_ptrs_32
    a_ptrs_35 = gl.expand_dims(offs_k_28, 0)
    a_ptrs_36 = a_ptrs_34.broadcast_to([64, 128])
    a_ptrs_37 = a_ptrs_35.broadcast_to([64, 128])
    a_ptrs_38 = a_ptrs_36 + a_ptrs_37
    b_ptrs = lora_id_7 * R
    b_ptrs_39 = b_ptrs * K
    b_ptrs_40 = w_ptr + b_ptrs_39
    b_ptrs_41 = gl.arange(0, 16, layout=L4)
    b_ptrs_42 = gl.arange(0, 16, layout=L5)
    b_ptrs_43 = gl.expand_dims(b_ptrs_41, 0)
    b_ptrs_44 = gl.expand_dims(b_ptrs_42, 0)
    b_ptrs_46 = b_ptrs_43 * K
    b_ptrs_48 = b_ptrs_40 + b_ptrs_46
    b_ptrs_49 = gl.expand_dims(offs_k_29, 1)
    b_ptrs_50 = b_ptrs_48.broadcast_to([128, 16])
    b_ptrs_51 = b_ptrs_49.broadcast_to([128, 16])
    b_ptrs_52 = b_ptrs_50 + b_ptrs_51
    v2 = K + 511
    v3 = v2 // 512
    b_53 = b_ptrs_43 < R
    b_54 = b_53.broadcast_to([128, 16])
    twill_n = (v3 - 0 + 1 - 1) // 1
    acc_77 = gl.full([64, 16], 0.0, gl.float32, layout=L6)
    k_rem = (0 + (0 - 0) * 1) * 512  # load0_a: stage 0, partition 0 (group 0)
    k_rem_66 = K - k_rem  # load0_a: stage 0, partition 0 (group 0)
    b_71 = k_rem_66  # elementwise0_b: stage 0, partition 0 (group 0)
    b_72 = b_ptrs_49 < b_71  # elementwise0_b: stage 0, partition 0 (group 0)
    b_73 = b_72.broadcast_to([128, 16])  # elementwise0_b: stage 0, partition 0 (group 0)
    b_74 = b_73 & b_54  # elementwise0_b: stage 0, partition 0 (group 0)
    acc_77_p1 = acc_77
    for twill_b in range(1, twill_n):
        k_rem = (0 + (twill_b - 0) * 1) * 512  # load0_a: stage 0, partition 0 (group 0)
        k_rem_66 = K - k_rem  # load0_a: stage 0, partition 0 (group 0)
        b_71 = k_rem_66  # elementwise0_b: stage 0, partition 0 (group 0)
        b_72 = b_ptrs_49 < b_71  # elementwise0_b: stage 0, partition 0 (group 0)
        b_73 = b_72.broadcast_to([128, 16])  # elementwise0_b: stage 0, partition 0 (group 0)
        b_74 = b_73 & b_54  # elementwise0_b: stage 0, partition 0 (group 0)
        mbarrier.wait(a_69_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
        fence_async_shared()
        mbarrier.wait(b_75_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_77 = warpgroup_mma(a_69_buf.index((twill_b - 1) % 4), b_75_buf.index((twill_b - 1) % 4), acc_77_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_77,))
        mbarrier.arrive(a_69_empty.index((twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
        mbarrier.arrive(b_75_empty.index((twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
        acc_77 = warpgroup_mma_wait(1, deps=(tok_acc_77,))
        acc_77_p1 = acc_77
    mbarrier.wait(a_69_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
    fence_async_shared()
    mbarrier.wait(b_75_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
    fence_async_shared()
    tok_acc_77 = warpgroup_mma(a_69_buf.index(((twill_n - 1 + 1) - 1) % 4), b_75_buf.index(((twill_n - 1 + 1) - 1) % 4), acc_77_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_acc_77,))
    mbarrier.arrive(a_69_empty.index(((twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
    mbarrier.arrive(b_75_empty.index(((twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
    acc_77 = warpgroup_mma_wait(1, deps=(tok_acc_77,))
    acc_77_p1 = acc_77
    acc_77_p1 = warpgroup_mma_wait(0, deps=(acc_77_p1,))
    a_69_buf._keep_alive()
    b_75_buf._keep_alive()
    mbarrier.arrive(a_69_empty.index(((twill_n - 1 + 1) - 1) % 4))
    mbarrier.arrive(b_75_empty.index(((twill_n - 1 + 1) - 1) % 4))
    acc_56 = acc_77_p1 * scaling
    c_57 = a_ptrs_30 * R
    c_59 = out_ptr + c_57
    c_60 = c_59.broadcast_to([64, 16])
    c_61 = b_ptrs_44.broadcast_to([64, 16])
    c_62 = c_60 + c_61
    v4 = gl.expand_dims(offs_m_12, 1)
    v6 = v4 < M_6
    v8 = b_ptrs_44 < R
    v9 = v6.broadcast_to([64, 16])
    v10 = v8.broadcast_to([64, 16])
    v11 = v9 & v10
    v12 = gl.convert_layout(acc_56, L7)
    v13 = gl.atomic_add(c_62, v12, mask=v11, sem='acq_rel', scope='gpu')

@gluon.jit
def producer_1(x_ptr, w_ptr, out_ptr, token_idx, lora_ids, num_tokens, idx_stride, K, R, scaling, a_69_buf, b_75_buf, a_69_ready, a_69_empty, b_75_ready, b_75_empty, TWILL_COPY: gl.constexpr):
    pid_sk = gl.program_id(0)
    pid_m = gl.program_id(1)
    lora = gl.program_id(2)
    M = num_tokens + lora
    M_6 = gl.load(M)
    v0 = pid_m * 64
    lora_id = lora_ids + lora
    lora_id_7 = gl.load(lora_id)
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_11 = v0 + offs_m
    rows_14 = offs_m_11 < M_6
    rows_16 = lora * idx_stride
    rows_17 = token_idx + rows_16
    rows_20 = rows_17 + offs_m_11
    rows_22 = gl.load(rows_20, mask=rows_14, other=0)
    offs_k = pid_sk * 128
    offs_k_24 = gl.arange(0, 128, layout=L2)
    offs_k_25 = gl.arange(0, 128, layout=L3)
    offs_k_28 = offs_k + offs_k_24
    offs_k_29 = offs_k + offs_k_25
    a_ptrs = gl.expand_dims(rows_22, 1)
    a_ptrs_32 = a_ptrs * K
    a_ptrs_34 = x_ptr + a_ptrs_32
    a_ptrs_35 = gl.expand_dims(offs_k_28, 0)
    a_ptrs_36 = a_ptrs_34.broadcast_to([64, 128])
    a_ptrs_37 = a_ptrs_35.broadcast_to([64, 128])
    a_ptrs_38 = a_ptrs_36 + a_ptrs_37
    b_ptrs = lora_id_7 * R
    b_ptrs_39 = b_ptrs * K
    b_ptrs_40 = w_ptr + b_ptrs_39
    b_ptrs_41 = gl.arange(0, 16, layout=L4)
    b_ptrs_43 = gl.expand_dims(b_ptrs_41, 0)
    b_ptrs_46 = b_ptrs_43 * K
    b_ptrs_48 = b_ptrs_40 + b_ptrs_46
    b_ptrs_49 = gl.expand_dims(offs_k_29, 1)
    b_ptrs_50 = b_ptrs_48.broadcast_to([128, 16])
    b_ptrs_51 = b_ptrs_49.broadcast_to([128, 16])
    b_ptrs_52 = b_ptrs_50 + b_ptrs_51
    v2 = K + 511
    v3 = v2 // 512
    b_53 = b_ptrs_43 < R
    b_54 = b_53.broadcast_to([128, 16])
    a_ptrs_64 = a_ptrs_38
    b_ptrs_65 = b_ptrs_52
    for acc_63 in range(0, v3, 1):
        twill_k = (acc_63 - 0) // 1
        k_rem = acc_63 * 512
        k_rem_66 = K - k_rem
        a_67 = a_ptrs_35 < k_rem_66
        a_68 = a_67.broadcast_to([64, 128])
        b_72 = b_ptrs_49 < k_rem_66
        b_73 = b_72.broadcast_to([128, 16])
        b_74 = b_73 & b_54
        a_ptrs_78 = a_ptrs_64 + 512
        b_ptrs_79 = b_ptrs_65 + 512
        mbarrier.wait(b_75_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_75_buf.index(twill_k % 4), b_ptrs_65, mask=b_74)  # load1_b: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_75_ready.index(twill_k % 4), increment_count=False)
        else:
            b_75_buf.index(twill_k % 4).store(gl.load(b_ptrs_65, mask=b_74, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_75_ready.index(twill_k % 4), count=128)
        mbarrier.wait(a_69_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_69_buf.index(twill_k % 4), a_ptrs_64, mask=a_68)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_69_ready.index(twill_k % 4), increment_count=False)
        else:
            a_69_buf.index(twill_k % 4).store(gl.load(a_ptrs_64, mask=a_68, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_69_ready.index(twill_k % 4), count=128)
        a_ptrs_64 = a_ptrs_78
        b_ptrs_65 = b_ptrs_79

@gluon.jit
def twill_kernel(x_ptr, w_ptr, out_ptr, token_idx, lora_ids, num_tokens, idx_stride, K, R, scaling, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(1)
    lora = gl.program_id(2)
    M = num_tokens + lora
    M_6 = gl.load(M)
    v0 = pid_m * 64
    v1 = v0 >= M_6
    if v1:
        return
    a_69_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_75_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 16], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    a_69_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_69_ready.index(i), count=128)
    a_69_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_69_empty.index(i), count=1)
    b_75_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_75_ready.index(i), count=128)
    b_75_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_75_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, w_ptr, out_ptr, token_idx, lora_ids, num_tokens, idx_stride, K, R, scaling, a_69_buf, b_75_buf, a_69_ready, a_69_empty, b_75_ready, b_75_empty, TWILL_COPY)),
        (producer_1, (x_ptr, w_ptr, out_ptr, token_idx, lora_ids, num_tokens, idx_stride, K, R, scaling, a_69_buf, b_75_buf, a_69_ready, a_69_empty, b_75_ready, b_75_empty, TWILL_COPY)),
    ], [4], [72])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L6_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 16, 16]))
L7_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(x_ptr, w_ptr, out_ptr, token_idx, lora_ids, num_tokens, idx_stride, K, R, scaling):
    pid_sk = gl.program_id(0)
    pid_m = gl.program_id(1)
    lora = gl.program_id(2)
    M = num_tokens + lora
    M_6 = gl.load(M)
    v0 = pid_m * 64
    lora_id = lora_ids + lora
    lora_id_7 = gl.load(lora_id)
    offs_m = gl.arange(0, 64, layout=L0_short)
    offs_m_8 = gl.arange(0, 64, layout=L1_short)
    offs_m_11 = v0 + offs_m
    offs_m_12 = v0 + offs_m_8
    rows_14 = offs_m_11 < M_6
    rows_15 = offs_m_12 < M_6
    rows_16 = lora * idx_stride
    rows_17 = token_idx + rows_16
    rows_20 = rows_17 + offs_m_11
    rows_21 = rows_17 + offs_m_12
    rows_22 = gl.load(rows_20, mask=rows_14, other=0)
    rows_23 = gl.load(rows_21, mask=rows_15, other=0)
    offs_k = pid_sk * 128
    offs_k_24 = gl.arange(0, 128, layout=L2_short)
    offs_k_25 = gl.arange(0, 128, layout=L3_short)
    offs_k_28 = offs_k + offs_k_24
    offs_k_29 = offs_k + offs_k_25
    a_ptrs = gl.expand_dims(rows_22, 1)
    a_ptrs_30 = gl.expand_dims(rows_23, 1)
    a_ptrs_32 = a_ptrs * K
    a_ptrs_34 = x_ptr + a_ptrs_32
    a_ptrs_35 = gl.expand_dims(offs_k_28, 0)
    a_ptrs_36 = a_ptrs_34.broadcast_to([64, 128])
    a_ptrs_37 = a_ptrs_35.broadcast_to([64, 128])
    a_ptrs_38 = a_ptrs_36 + a_ptrs_37
    b_ptrs = lora_id_7 * R
    b_ptrs_39 = b_ptrs * K
    b_ptrs_40 = w_ptr + b_ptrs_39
    b_ptrs_41 = gl.arange(0, 16, layout=L4_short)
    b_ptrs_42 = gl.arange(0, 16, layout=L5_short)
    b_ptrs_43 = gl.expand_dims(b_ptrs_41, 0)
    b_ptrs_44 = gl.expand_dims(b_ptrs_42, 0)
    b_ptrs_46 = b_ptrs_43 * K
    b_ptrs_48 = b_ptrs_40 + b_ptrs_46
    b_ptrs_49 = gl.expand_dims(offs_k_29, 1)
    b_ptrs_50 = b_ptrs_48.broadcast_to([128, 16])
    b_ptrs_51 = b_ptrs_49.broadcast_to([128, 16])
    b_ptrs_52 = b_ptrs_50 + b_ptrs_51
    v2 = K + 511
    v3 = v2 // 512
    b_53 = b_ptrs_43 < R
    b_54 = b_53.broadcast_to([128, 16])
    twill_n = (v3 - 0 + 1 - 1) // 1
    a_70_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_76_st = gl.allocate_shared_memory(gl.float16, [2, 128, 16], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    acc_77 = gl.full([64, 16], 0.0, gl.float32, layout=L6_short)
    a_ptrs_78 = a_ptrs_38
    b_ptrs_79 = b_ptrs_52
    k_rem = (0 + (0 - 0) * 1) * 512  # load0_a: stage 0, partition 0 (group 0)
    k_rem_66 = K - k_rem  # load0_a: stage 0, partition 0 (group 0)
    b_71 = k_rem_66  # elementwise0_b: stage 0, partition 0 (group 0)
    b_72 = b_ptrs_49 < b_71  # elementwise0_b: stage 0, partition 0 (group 0)
    b_73 = b_72.broadcast_to([128, 16])  # elementwise0_b: stage 0, partition 0 (group 0)
    b_74 = b_73 & b_54  # elementwise0_b: stage 0, partition 0 (group 0)
    a_ptrs_78_p1 = a_ptrs_78
    acc_77_p1 = acc_77
    b_74_p1 = b_74
    b_ptrs_79_p1 = b_ptrs_79
    k_rem_66_p1 = k_rem_66
    for twill_b in range(1, twill_n):
        k_rem = (0 + (twill_b - 0) * 1) * 512  # load0_a: stage 0, partition 0 (group 0)
        k_rem_66 = K - k_rem  # load0_a: stage 0, partition 0 (group 0)
        b_71 = k_rem_66  # elementwise0_b: stage 0, partition 0 (group 0)
        b_72 = b_ptrs_49 < b_71  # elementwise0_b: stage 0, partition 0 (group 0)
        b_73 = b_72.broadcast_to([128, 16])  # elementwise0_b: stage 0, partition 0 (group 0)
        b_74 = b_73 & b_54  # elementwise0_b: stage 0, partition 0 (group 0)
        a = k_rem_66_p1  # load0_a: stage 1, partition 0 (group 0)
        a_67 = a_ptrs_35 < a  # load0_a: stage 1, partition 0 (group 0)
        a_68 = a_67.broadcast_to([64, 128])  # load0_a: stage 1, partition 0 (group 0)
        a_ptrs_78 = a_ptrs_78_p1 + 512  # load0_a: stage 1, partition 0 (group 0)
        a_69 = gl.load(a_ptrs_78_p1, mask=a_68, other=0.0)  # load0_a: stage 1, partition 0 (group 0)
        b_ptrs_79 = b_ptrs_79_p1 + 512  # load1_b: stage 1, partition 0 (group 0)
        a_70 = a_70_st.index((twill_b - 1) % 2)  # load0_a: stage 1, partition 0 (group 0)
        a_70.store(a_69)  # load0_a: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_a: stage 1, partition 0 (group 0)
        b_75 = gl.load(b_ptrs_79_p1, mask=b_74_p1, other=0.0)  # load1_b: stage 1, partition 0 (group 0)
        b_76 = b_76_st.index((twill_b - 1) % 2)  # load1_b: stage 1, partition 0 (group 0)
        b_76.store(b_75)  # load1_b: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_b: stage 1, partition 0 (group 0)
        tok_acc_77 = warpgroup_mma(a_70, b_76, acc_77_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_77,))
        acc_77 = warpgroup_mma_wait(1, deps=(tok_acc_77,))
        a_ptrs_78_p1 = a_ptrs_78
        acc_77_p1 = acc_77
        b_74_p1 = b_74
        b_ptrs_79_p1 = b_ptrs_79
        k_rem_66_p1 = k_rem_66
    a = k_rem_66_p1  # load0_a: stage 1, partition 0 (group 0)
    a_67 = a_ptrs_35 < a  # load0_a: stage 1, partition 0 (group 0)
    a_68 = a_67.broadcast_to([64, 128])  # load0_a: stage 1, partition 0 (group 0)
    a_ptrs_78 = a_ptrs_78_p1 + 512  # load0_a: stage 1, partition 0 (group 0)
    a_69 = gl.load(a_ptrs_78_p1, mask=a_68, other=0.0)  # load0_a: stage 1, partition 0 (group 0)
    b_ptrs_79 = b_ptrs_79_p1 + 512  # load1_b: stage 1, partition 0 (group 0)
    a_70 = a_70_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_a: stage 1, partition 0 (group 0)
    a_70.store(a_69)  # load0_a: stage 1, partition 0 (group 0)
    fence_async_shared()  # load0_a: stage 1, partition 0 (group 0)
    b_75 = gl.load(b_ptrs_79_p1, mask=b_74_p1, other=0.0)  # load1_b: stage 1, partition 0 (group 0)
    b_76 = b_76_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_b: stage 1, partition 0 (group 0)
    b_76.store(b_75)  # load1_b: stage 1, partition 0 (group 0)
    fence_async_shared()  # load1_b: stage 1, partition 0 (group 0)
    tok_acc_77 = warpgroup_mma(a_70, b_76, acc_77_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_acc_77,))
    acc_77 = warpgroup_mma_wait(1, deps=(tok_acc_77,))
    a_ptrs_78_p1 = a_ptrs_78
    acc_77_p1 = acc_77
    b_74_p1 = b_74
    b_ptrs_79_p1 = b_ptrs_79
    k_rem_66_p1 = k_rem_66
    acc_77_p1 = warpgroup_mma_wait(0, deps=(acc_77_p1,))
    a_70_st._keep_alive()
    b_76_st._keep_alive()
    acc_56 = acc_77_p1 * scaling
    c_57 = a_ptrs_30 * R
    c_59 = out_ptr + c_57
    c_60 = c_59.broadcast_to([64, 16])
    c_61 = b_ptrs_44.broadcast_to([64, 16])
    c_62 = c_60 + c_61
    v4 = gl.expand_dims(offs_m_12, 1)
    v6 = v4 < M_6
    v8 = b_ptrs_44 < R
    v9 = v6.broadcast_to([64, 16])
    v10 = v8.broadcast_to([64, 16])
    v11 = v9 & v10
    v12 = gl.convert_layout(acc_56, L7_short)
    v13 = gl.atomic_add(c_62, v12, mask=v11, sem='acq_rel', scope='gpu')

@gluon.jit
def twill_kernel_short(x_ptr, w_ptr, out_ptr, token_idx, lora_ids, num_tokens, idx_stride, K, R, scaling):
    pid_m = gl.program_id(1)
    lora = gl.program_id(2)
    M = num_tokens + lora
    M_6 = gl.load(M)
    v0 = pid_m * 64
    v1 = v0 >= M_6
    if v1:
        return
    consumer_0_short(x_ptr, w_ptr, out_ptr, token_idx, lora_ids, num_tokens, idx_stride, K, R, scaling, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'w_ptr', 'out_ptr', 'token_idx', 'lora_ids', 'num_tokens', 'idx_stride', 'K', 'R', 'scaling', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'SPLIT_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'w_ptr', 'out_ptr', 'token_idx', 'lora_ids', 'num_tokens', 'idx_stride', 'K', 'R', 'scaling']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'w_ptr', 'out_ptr', 'token_idx', 'lora_ids', 'num_tokens', 'idx_stride', 'K', 'R', 'scaling']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 64, 'BLOCK_N': 16, 'BLOCK_K': 128, 'SPLIT_K': 4}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['x_ptr', 'w_ptr', 'K']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 511) // 512)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 511) // 512)): run the Triton kernel for it")
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
ARGUMENTS_short = ['x_ptr', 'w_ptr', 'out_ptr', 'token_idx', 'lora_ids', 'num_tokens', 'idx_stride', 'K', 'R', 'scaling', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'SPLIT_K']          # the Triton kernel's parameters, in order
RUNTIME_short = ['x_ptr', 'w_ptr', 'out_ptr', 'token_idx', 'lora_ids', 'num_tokens', 'idx_stride', 'K', 'R', 'scaling']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['x_ptr', 'w_ptr', 'out_ptr', 'token_idx', 'lora_ids', 'num_tokens', 'idx_stride', 'K', 'R', 'scaling']   # the arguments a launch key reads
CONSTEXPRS_short = {'BLOCK_M': 64, 'BLOCK_N': 16, 'BLOCK_K': 128, 'SPLIT_K': 4}         # the specialisation this kernel was generated for
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
    trips = _ev_short('((K + 511) // 512)', dict(bound, **CONSTEXPRS_short))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 511) // 512)): run the Triton kernel for it")
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


SHORT_TRIPS = '((K + 511) // 512)'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
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
