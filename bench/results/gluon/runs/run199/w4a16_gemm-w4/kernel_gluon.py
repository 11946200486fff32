"""w4a16_gemm, written by twill from its joint schedule: I=176 L=272 (optimal), 939 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a): their addresses and masks spread over 128 threads
- a by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 201): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared operand w_57_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 3 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 114768 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 2 iteration(s) ahead, 114944 bytes of shared memory compiled, ptxas 241 registers, clean; simulated for 0, 1, 2, 3, 4, 9 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8, 2], threads_per_warp=[4, 8, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, twill_g0, twill_g1, twill_g2, twill_box_a, a_buf, w_57_st, a_ready, a_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_m = twill_pid0
        pid_n = twill_pid1
        offs_m = pid_m * 128
        offs_m_3 = gl.arange(0, 128, layout=L0)
        offs_m_4 = gl.arange(0, 128, layout=L1)
        offs_m_5 = gl.arange(0, 128, layout=L2)
        offs_m_6 = gl.arange(0, 128, layout=L3)
        offs_m_9 = offs_m + offs_m_3
        offs_m_10 = offs_m + offs_m_4
        offs_n = pid_n * 128
        offs_n_13 = offs_n + offs_m_5
        offs_n_14 = offs_n + offs_m_6
        offs_pn = pid_n * 64
        offs_pn_15 = gl.arange(0, 64, layout=L4)
        offs_pn_17 = offs_pn + offs_pn_15
        a_ptrs = gl.expand_dims(offs_m_9, 1)
        a_ptrs_18 = gl.expand_dims(offs_m_10, 1)
        a_ptrs_20 = a_ptrs * K
        a_ptrs_22 = a_ptr + a_ptrs_20
        a_ptrs_23 = gl.expand_dims(offs_pn_15, 0)
        a_ptrs_24 = a_ptrs_22.broadcast_to([128, 64])
        a_ptrs_25 = a_ptrs_23.broadcast_to([128, 64])
        a_ptrs_26 = a_ptrs_24 + a_ptrs_25
        b_ptrs = gl.arange(0, 64, layout=L0)
        b_ptrs_27 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_28 = N // 2
        b_ptrs_30 = b_ptrs_27 * b_ptrs_28
        b_ptrs_32 = b_ptr + b_ptrs_30
        b_ptrs_33 = gl.expand_dims(offs_pn_17, 0)
        b_ptrs_34 = b_ptrs_32.broadcast_to([64, 64])
        b_ptrs_35 = b_ptrs_33.broadcast_to([64, 64])
        b_ptrs_36 = b_ptrs_34 + b_ptrs_35
        b_ptrs_37 = b_ptrs_28 * 64
        twill_n = (K - 0 + 64 - 1) // 64
        b_ptrs_60 = b_ptrs_36
        b_ptrs_60_p1 = b_ptrs_60
        scale = (0 + (0 - 0) * 64) // 128  # load2_scale: stage 0, partition 0 (group 0)
        scale_47 = scale * N  # load2_scale: stage 0, partition 0 (group 0)
        scale_48 = s_ptr + scale_47  # load2_scale: stage 0, partition 0 (group 0)
        scale_49 = scale_48  # load2_scale: stage 0, partition 0 (group 0)
        scale_50 = scale_49 + offs_n_14  # load2_scale: stage 0, partition 0 (group 0)
        scale_51 = gl.load(scale_50)  # load2_scale: stage 0, partition 0 (group 0)
        b_ptrs_60 = b_ptrs_60_p1 + b_ptrs_37  # load1_packed: stage 0, partition 0 (group 0)
        packed = gl.load(b_ptrs_60_p1)  # load1_packed: stage 0, partition 0 (group 0)
        b_ptrs_60_p1 = b_ptrs_60
        packed_p1 = packed
        scale_51_p1 = scale_51
        acc_58 = gl.full([128, 128], 0.0, gl.float32, layout=L5)
        scale = (0 + (1 - 0) * 64) // 128  # load2_scale: stage 0, partition 0 (group 0)
        scale_47 = scale * N  # load2_scale: stage 0, partition 0 (group 0)
        scale_48 = s_ptr + scale_47  # load2_scale: stage 0, partition 0 (group 0)
        scale_49 = scale_48  # load2_scale: stage 0, partition 0 (group 0)
        scale_50 = scale_49 + offs_n_14  # load2_scale: stage 0, partition 0 (group 0)
        scale_51 = gl.load(scale_50)  # load2_scale: stage 0, partition 0 (group 0)
        w_53 = gl.convert_layout(scale_51_p1, L6)  # convert2_w: stage 1, partition 0 (group 0)
        b_ptrs_60 = b_ptrs_60_p1 + b_ptrs_37  # load1_packed: stage 0, partition 0 (group 0)
        packed = gl.load(b_ptrs_60_p1)  # load1_packed: stage 0, partition 0 (group 0)
        hi = gl.cast(gl.cast(packed_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert1_hi: stage 1, partition 0 (group 0)
        hi_46 = gl.cast(hi, gl.uint8, bitcast=True).to(gl.float16)  # convert1_hi: stage 1, partition 0 (group 0)
        lo = packed_p1 & 15  # convert0_lo: stage 1, partition 0 (group 0)
        lo_45 = gl.cast(lo, gl.uint8, bitcast=True).to(gl.float16)  # convert0_lo: stage 1, partition 0 (group 0)
        c = gl.convert_layout(gl.join(lo_45, hi_46), L7)  # elementwise0_w: stage 1, partition 0 (group 0)
        w = gl.convert_layout(gl.reshape(c, [64, 128]), L8)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_52 = w - 8.0  # elementwise0_w: stage 1, partition 0 (group 0)
        w_54 = gl.expand_dims(w_53, 0)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_55 = w_54.broadcast_to([64, 128])  # elementwise0_w: stage 1, partition 0 (group 0)
        w_56 = w_52 * w_55  # elementwise0_w: stage 1, partition 0 (group 0)
        w_57 = w_57_st.index((1 - 1) % 3)  # local_store0_w: stage 1, partition 0 (group 0)
        w_57.store(w_56)  # local_store0_w: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
        acc_58_p1 = acc_58
        b_ptrs_60_p1 = b_ptrs_60
        packed_p1 = packed
        scale_51_p1 = scale_51
        w_57_p1 = w_57
        for twill_b in range(2, twill_n):
            mbarrier.wait(a_ready.index((twill_base + twill_b - 2) % 4), ((twill_base + twill_b - 2) // 4) & 1)
            fence_async_shared()
            tok_acc_58 = warpgroup_mma(a_buf.index((twill_base + twill_b - 2) % 4), w_57_p1, acc_58_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            scale = (0 + (twill_b - 0) * 64) // 128  # load2_scale: stage 0, partition 0 (group 0)
            scale_47 = scale * N  # load2_scale: stage 0, partition 0 (group 0)
            scale_48 = s_ptr + scale_47  # load2_scale: stage 0, partition 0 (group 0)
            scale_49 = scale_48  # load2_scale: stage 0, partition 0 (group 0)
            scale_50 = scale_49 + offs_n_14  # load2_scale: stage 0, partition 0 (group 0)
            scale_51 = gl.load(scale_50)  # load2_scale: stage 0, partition 0 (group 0)
            w_53 = gl.convert_layout(scale_51_p1, L6)  # convert2_w: stage 1, partition 0 (group 0)
            b_ptrs_60 = b_ptrs_60_p1 + b_ptrs_37  # load1_packed: stage 0, partition 0 (group 0)
            packed = gl.load(b_ptrs_60_p1)  # load1_packed: stage 0, partition 0 (group 0)
            hi = gl.cast(gl.cast(packed_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert1_hi: stage 1, partition 0 (group 0)
            hi_46 = gl.cast(hi, gl.uint8, bitcast=True).to(gl.float16)  # convert1_hi: stage 1, partition 0 (group 0)
            lo = packed_p1 & 15  # convert0_lo: stage 1, partition 0 (group 0)
            lo_45 = gl.cast(lo, gl.uint8, bitcast=True).to(gl.float16)  # convert0_lo: stage 1, partition 0 (group 0)
            c = gl.convert_layout(gl.join(lo_45, hi_46), L7)  # elementwise0_w: stage 1, partition 0 (group 0)
            w = gl.convert_layout(gl.reshape(c, [64, 128]), L8)  # elementwise0_w: stage 1, partition 0 (group 0)
            w_52 = w - 8.0  # elementwise0_w: stage 1, partition 0 (group 0)
            w_54 = gl.expand_dims(w_53, 0)  # elementwise0_w: stage 1, partition 0 (group 0)
            w_55 = w_54.broadcast_to([64, 128])  # elementwise0_w: stage 1, partition 0 (group 0)
            w_56 = w_52 * w_55  # elementwise0_w: stage 1, partition 0 (group 0)
            w_57 = w_57_st.index((twill_b - 1) % 3)  # local_store0_w: stage 1, partition 0 (group 0)
            w_57.store(w_56)  # local_store0_w: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_58,))
            mbarrier.arrive(a_empty.index((twill_base + twill_b - 1 - 2) % 4), pred=(twill_b - 1 - 2) >= 0)
            acc_58 = warpgroup_mma_wait(1, deps=(tok_acc_58,))
            acc_58_p1 = acc_58
            b_ptrs_60_p1 = b_ptrs_60
            packed_p1 = packed
            scale_51_p1 = scale_51
            w_57_p1 = w_57
        mbarrier.wait(a_ready.index((twill_base + (twill_n - 1 + 1) - 2) % 4), ((twill_base + (twill_n - 1 + 1) - 2) // 4) & 1)
        fence_async_shared()
        tok_acc_58 = warpgroup_mma(a_buf.index((twill_base + (twill_n - 1 + 1) - 2) % 4), w_57_p1, acc_58_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        w_53 = gl.convert_layout(scale_51_p1, L6)  # convert2_w: stage 1, partition 0 (group 0)
        hi = gl.cast(gl.cast(packed_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert1_hi: stage 1, partition 0 (group 0)
        hi_46 = gl.cast(hi, gl.uint8, bitcast=True).to(gl.float16)  # convert1_hi: stage 1, partition 0 (group 0)
        lo = packed_p1 & 15  # convert0_lo: stage 1, partition 0 (group 0)
        lo_45 = gl.cast(lo, gl.uint8, bitcast=True).to(gl.float16)  # convert0_lo: stage 1, partition 0 (group 0)
        c = gl.convert_layout(gl.join(lo_45, hi_46), L7)  # elementwise0_w: stage 1, partition 0 (group 0)
        w = gl.convert_layout(gl.reshape(c, [64, 128]), L8)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_52 = w - 8.0  # elementwise0_w: stage 1, partition 0 (group 0)
        w_54 = gl.expand_dims(w_53, 0)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_55 = w_54.broadcast_to([64, 128])  # elementwise0_w: stage 1, partition 0 (group 0)
        w_56 = w_52 * w_55  # elementwise0_w: stage 1, partition 0 (group 0)
        w_57 = w_57_st.index(((twill_n - 1 + 1) - 1) % 3)  # local_store0_w: stage 1, partition 0 (group 0)
        w_57.store(w_56)  # local_store0_w: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_58,))
        mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 2) % 4), pred=((twill_n - 1 + 1) - 1 - 2) >= 0)
        acc_58 = warpgroup_mma_wait(1, deps=(tok_acc_58,))
        acc_58_p1 = acc_58
        b_ptrs_60_p2 = b_ptrs_60_p1
        b_ptrs_60_p1 = b_ptrs_60
        packed_p1 = packed
        scale_51_p1 = scale_51
        w_57_p1 = w_57
        mbarrier.wait(a_ready.index((twill_base + (twill_n - 1 + 2) - 2) % 4), ((twill_base + (twill_n - 1 + 2) - 2) // 4) & 1)
        fence_async_shared()
        tok_acc_58 = warpgroup_mma(a_buf.index((twill_base + (twill_n - 1 + 2) - 2) % 4), w_57_p1, acc_58_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_58,))
        mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1 + 2) - 1 - 2) % 4), pred=((twill_n - 1 + 2) - 1 - 2) >= 0)
        acc_58 = warpgroup_mma_wait(1, deps=(tok_acc_58,))
        acc_58_p1 = acc_58
        b_ptrs_60_p3 = b_ptrs_60_p2
        b_ptrs_60_p2 = b_ptrs_60_p1
        b_ptrs_60_p1 = b_ptrs_60
        packed_p1 = packed
        scale_51_p1 = scale_51
        w_57_p1 = w_57
        acc_58_p1 = warpgroup_mma_wait(0, deps=(acc_58_p1,))
        a_buf._keep_alive()
        w_57_st._keep_alive()
        mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1 + 2) - 2) % 4))
        v1 = a_ptrs_18 * N
        v3 = c_ptr + v1
        v4 = gl.expand_dims(offs_n_13, 0)
        v5 = v3.broadcast_to([128, 128])
        v6 = v4.broadcast_to([128, 128])
        v7 = v5 + v6
        v8 = acc_58_p1.to(gl.float16)
        v9 = gl.convert_layout(v8, L9)
        gl.store(v7, v9)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, twill_g0, twill_g1, twill_g2, twill_box_a, a_buf, w_57_st, a_ready, a_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid_m = twill_pid0
        offs_m = pid_m * 128
        offs_m_3 = gl.arange(0, 128, layout=L0)
        offs_m_9 = offs_m + offs_m_3
        offs_pn_15 = gl.arange(0, 64, layout=L4)
        a_ptrs = gl.expand_dims(offs_m_9, 1)
        a_ptrs_20 = a_ptrs * K
        a_ptrs_22 = a_ptr + a_ptrs_20
        a_ptrs_23 = gl.expand_dims(offs_pn_15, 0)
        a_ptrs_24 = a_ptrs_22.broadcast_to([128, 64])
        a_ptrs_25 = a_ptrs_23.broadcast_to([128, 64])
        a_ptrs_26 = a_ptrs_24 + a_ptrs_25
        a_ptrs_42 = a_ptrs_26
        for acc_40 in range(0, K, 64):
            twill_k = twill_base + (acc_40 - 0) // 64
            a_ptrs_59 = a_ptrs_42 + 64
            mbarrier.wait(a_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_ready.index(twill_k % 4), twill_box_a.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a, [128 * pid_m, 64 * ((acc_40 - 0) // 64)], a_ready.index(twill_k % 4), a_buf.index(twill_k % 4))  # load0_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 4), a_ptrs_42)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_ready.index(twill_k % 4), increment_count=False)
                else:
                    a_buf.index(twill_k % 4).store(gl.load(a_ptrs_42))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_ready.index(twill_k % 4), count=128)
            a_ptrs_42 = a_ptrs_59
        twill_base += (K - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, twill_g0, twill_g1, twill_g2, twill_box_a, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_57_st = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_ready.index(i), count=1 if TWILL_TMA else 128)
    a_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, twill_g0, twill_g1, twill_g2, twill_box_a, a_buf, w_57_st, a_ready, a_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, twill_g0, twill_g1, twill_g2, twill_box_a, a_buf, w_57_st, a_ready, a_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [64])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8, 2], threads_per_warp=[4, 8, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L8_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_m = pid_m * 128
    offs_m_3 = gl.arange(0, 128, layout=L0_short)
    offs_m_4 = gl.arange(0, 128, layout=L1_short)
    offs_m_5 = gl.arange(0, 128, layout=L2_short)
    offs_m_6 = gl.arange(0, 128, layout=L3_short)
    offs_m_9 = offs_m + offs_m_3
    offs_m_10 = offs_m + offs_m_4
    offs_n = pid_n * 128
    offs_n_13 = offs_n + offs_m_5
    offs_n_14 = offs_n + offs_m_6
    offs_pn = pid_n * 64
    offs_pn_15 = gl.arange(0, 64, layout=L4_short)
    offs_pn_17 = offs_pn + offs_pn_15
    a_ptrs = gl.expand_dims(offs_m_9, 1)
    a_ptrs_18 = gl.expand_dims(offs_m_10, 1)
    a_ptrs_20 = a_ptrs * K
    a_ptrs_22 = a_ptr + a_ptrs_20
    a_ptrs_23 = gl.expand_dims(offs_pn_15, 0)
    a_ptrs_24 = a_ptrs_22.broadcast_to([128, 64])
    a_ptrs_25 = a_ptrs_23.broadcast_to([128, 64])
    a_ptrs_26 = a_ptrs_24 + a_ptrs_25
    b_ptrs = gl.arange(0, 64, layout=L0_short)
    b_ptrs_27 = gl.expand_dims(b_ptrs, 1)
    b_ptrs_28 = N // 2
    b_ptrs_30 = b_ptrs_27 * b_ptrs_28
    b_ptrs_32 = b_ptr + b_ptrs_30
    b_ptrs_33 = gl.expand_dims(offs_pn_17, 0)
    b_ptrs_34 = b_ptrs_32.broadcast_to([64, 64])
    b_ptrs_35 = b_ptrs_33.broadcast_to([64, 64])
    b_ptrs_36 = b_ptrs_34 + b_ptrs_35
    b_ptrs_37 = b_ptrs_28 * 64
    twill_n = (K - 0 + 64 - 1) // 64
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        a_44_ring = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        w_57_st = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        a_ptrs_59 = a_ptrs_26
        b_ptrs_60 = b_ptrs_36
        a_ptrs_59_p1 = a_ptrs_59
        b_ptrs_60_p1 = b_ptrs_60
        a_ptrs_59 = a_ptrs_59_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_44_ring.index((0 - 0) % 4), a_ptrs_59_p1)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_44_ring.index((0 - 0) % 4).store(gl.load(a_ptrs_59_p1))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        scale = (0 + (0 - 0) * 64) // 128  # load2_scale: stage 0, partition 0 (group 0)
        scale_47 = scale * N  # load2_scale: stage 0, partition 0 (group 0)
        scale_48 = s_ptr + scale_47  # load2_scale: stage 0, partition 0 (group 0)
        scale_49 = scale_48  # load2_scale: stage 0, partition 0 (group 0)
        scale_50 = scale_49 + offs_n_14  # load2_scale: stage 0, partition 0 (group 0)
        scale_51 = gl.load(scale_50)  # load2_scale: stage 0, partition 0 (group 0)
        b_ptrs_60 = b_ptrs_60_p1 + b_ptrs_37  # load1_packed: stage 0, partition 0 (group 0)
        packed = gl.load(b_ptrs_60_p1)  # load1_packed: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_59_p1 = a_ptrs_59
        b_ptrs_60_p1 = b_ptrs_60
        packed_p1 = packed
        scale_51_p1 = scale_51
        acc_58 = gl.full([128, 128], 0.0, gl.float32, layout=L5_short)
        a_ptrs_59 = a_ptrs_59_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_44_ring.index((1 - 0) % 4), a_ptrs_59_p1)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_44_ring.index((1 - 0) % 4).store(gl.load(a_ptrs_59_p1))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        scale = (0 + (1 - 0) * 64) // 128  # load2_scale: stage 0, partition 0 (group 0)
        scale_47 = scale * N  # load2_scale: stage 0, partition 0 (group 0)
        scale_48 = s_ptr + scale_47  # load2_scale: stage 0, partition 0 (group 0)
        scale_49 = scale_48  # load2_scale: stage 0, partition 0 (group 0)
        scale_50 = scale_49 + offs_n_14  # load2_scale: stage 0, partition 0 (group 0)
        scale_51 = gl.load(scale_50)  # load2_scale: stage 0, partition 0 (group 0)
        w_53 = gl.convert_layout(scale_51_p1, L6_short)  # convert2_w: stage 1, partition 0 (group 0)
        b_ptrs_60 = b_ptrs_60_p1 + b_ptrs_37  # load1_packed: stage 0, partition 0 (group 0)
        packed = gl.load(b_ptrs_60_p1)  # load1_packed: stage 0, partition 0 (group 0)
        hi = gl.cast(gl.cast(packed_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert1_hi: stage 1, partition 0 (group 0)
        hi_46 = gl.cast(hi, gl.uint8, bitcast=True).to(gl.float16)  # convert1_hi: stage 1, partition 0 (group 0)
        lo = packed_p1 & 15  # convert0_lo: stage 1, partition 0 (group 0)
        lo_45 = gl.cast(lo, gl.uint8, bitcast=True).to(gl.float16)  # convert0_lo: stage 1, partition 0 (group 0)
        c = gl.convert_layout(gl.join(lo_45, hi_46), L7_short)  # elementwise0_w: stage 1, partition 0 (group 0)
        w = gl.convert_layout(gl.reshape(c, [64, 128]), L8_short)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_52 = w - 8.0  # elementwise0_w: stage 1, partition 0 (group 0)
        w_54 = gl.expand_dims(w_53, 0)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_55 = w_54.broadcast_to([64, 128])  # elementwise0_w: stage 1, partition 0 (group 0)
        w_56 = w_52 * w_55  # elementwise0_w: stage 1, partition 0 (group 0)
        w_57 = w_57_st.index((1 - 1) % 3)  # local_store0_w: stage 1, partition 0 (group 0)
        w_57.store(w_56)  # local_store0_w: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_59_p1 = a_ptrs_59
        acc_58_p1 = acc_58
        b_ptrs_60_p1 = b_ptrs_60
        packed_p1 = packed
        scale_51_p1 = scale_51
        w_57_p1 = w_57
        for twill_b in range(2, twill_n):
            async_copy.wait_group(1)
            gl.thread_barrier()
            a_44 = a_44_ring.index((twill_b - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
            a_ptrs_59 = a_ptrs_59_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_44_ring.index((twill_b - 0) % 4), a_ptrs_59_p1)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_44_ring.index((twill_b - 0) % 4).store(gl.load(a_ptrs_59_p1))  # load0_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            tok_acc_58 = warpgroup_mma(a_44, w_57_p1, acc_58_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            scale = (0 + (twill_b - 0) * 64) // 128  # load2_scale: stage 0, partition 0 (group 0)
            scale_47 = scale * N  # load2_scale: stage 0, partition 0 (group 0)
            scale_48 = s_ptr + scale_47  # load2_scale: stage 0, partition 0 (group 0)
            scale_49 = scale_48  # load2_scale: stage 0, partition 0 (group 0)
            scale_50 = scale_49 + offs_n_14  # load2_scale: stage 0, partition 0 (group 0)
            scale_51 = gl.load(scale_50)  # load2_scale: stage 0, partition 0 (group 0)
            w_53 = gl.convert_layout(scale_51_p1, L6_short)  # convert2_w: stage 1, partition 0 (group 0)
            b_ptrs_60 = b_ptrs_60_p1 + b_ptrs_37  # load1_packed: stage 0, partition 0 (group 0)
            packed = gl.load(b_ptrs_60_p1)  # load1_packed: stage 0, partition 0 (group 0)
            hi = gl.cast(gl.cast(packed_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert1_hi: stage 1, partition 0 (group 0)
            hi_46 = gl.cast(hi, gl.uint8, bitcast=True).to(gl.float16)  # convert1_hi: stage 1, partition 0 (group 0)
            lo = packed_p1 & 15  # convert0_lo: stage 1, partition 0 (group 0)
            lo_45 = gl.cast(lo, gl.uint8, bitcast=True).to(gl.float16)  # convert0_lo: stage 1, partition 0 (group 0)
            c = gl.convert_layout(gl.join(lo_45, hi_46), L7_short)  # elementwise0_w: stage 1, partition 0 (group 0)
            w = gl.convert_layout(gl.reshape(c, [64, 128]), L8_short)  # elementwise0_w: stage 1, partition 0 (group 0)
            w_52 = w - 8.0  # elementwise0_w: stage 1, partition 0 (group 0)
            w_54 = gl.expand_dims(w_53, 0)  # elementwise0_w: stage 1, partition 0 (group 0)
            w_55 = w_54.broadcast_to([64, 128])  # elementwise0_w: stage 1, partition 0 (group 0)
            w_56 = w_52 * w_55  # elementwise0_w: stage 1, partition 0 (group 0)
            w_57 = w_57_st.index((twill_b - 1) % 3)  # local_store0_w: stage 1, partition 0 (group 0)
            w_57.store(w_56)  # local_store0_w: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_acc_58,))
            acc_58 = warpgroup_mma_wait(1, deps=(tok_acc_58,))
            a_ptrs_59_p1 = a_ptrs_59
            acc_58_p1 = acc_58
            b_ptrs_60_p1 = b_ptrs_60
            packed_p1 = packed
            scale_51_p1 = scale_51
            w_57_p1 = w_57
        async_copy.wait_group(1)
        gl.thread_barrier()
        a_44 = a_44_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
        tok_acc_58 = warpgroup_mma(a_44, w_57_p1, acc_58_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        w_53 = gl.convert_layout(scale_51_p1, L6_short)  # convert2_w: stage 1, partition 0 (group 0)
        hi = gl.cast(gl.cast(packed_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert1_hi: stage 1, partition 0 (group 0)
        hi_46 = gl.cast(hi, gl.uint8, bitcast=True).to(gl.float16)  # convert1_hi: stage 1, partition 0 (group 0)
        lo = packed_p1 & 15  # convert0_lo: stage 1, partition 0 (group 0)
        lo_45 = gl.cast(lo, gl.uint8, bitcast=True).to(gl.float16)  # convert0_lo: stage 1, partition 0 (group 0)
        c = gl.convert_layout(gl.join(lo_45, hi_46), L7_short)  # elementwise0_w: stage 1, partition 0 (group 0)
        w = gl.convert_layout(gl.reshape(c, [64, 128]), L8_short)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_52 = w - 8.0  # elementwise0_w: stage 1, partition 0 (group 0)
        w_54 = gl.expand_dims(w_53, 0)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_55 = w_54.broadcast_to([64, 128])  # elementwise0_w: stage 1, partition 0 (group 0)
        w_56 = w_52 * w_55  # elementwise0_w: stage 1, partition 0 (group 0)
        w_57 = w_57_st.index(((twill_n - 1 + 1) - 1) % 3)  # local_store0_w: stage 1, partition 0 (group 0)
        w_57.store(w_56)  # local_store0_w: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_58,))
        acc_58 = warpgroup_mma_wait(1, deps=(tok_acc_58,))
        a_ptrs_59_p2 = a_ptrs_59_p1
        a_ptrs_59_p1 = a_ptrs_59
        acc_58_p1 = acc_58
        b_ptrs_60_p2 = b_ptrs_60_p1
        b_ptrs_60_p1 = b_ptrs_60
        packed_p1 = packed
        scale_51_p1 = scale_51
        w_57_p1 = w_57
        async_copy.wait_group(1)
        gl.thread_barrier()
        a_44 = a_44_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
        tok_acc_58 = warpgroup_mma(a_44, w_57_p1, acc_58_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_58,))
        acc_58 = warpgroup_mma_wait(1, deps=(tok_acc_58,))
        a_ptrs_59_p3 = a_ptrs_59_p2
        a_ptrs_59_p2 = a_ptrs_59_p1
        a_ptrs_59_p1 = a_ptrs_59
        acc_58_p1 = acc_58
        b_ptrs_60_p3 = b_ptrs_60_p2
        b_ptrs_60_p2 = b_ptrs_60_p1
        b_ptrs_60_p1 = b_ptrs_60
        packed_p1 = packed
        scale_51_p1 = scale_51
        w_57_p1 = w_57
        acc_58_p1 = warpgroup_mma_wait(0, deps=(acc_58_p1,))
        a_44_ring._keep_alive()
        w_57_st._keep_alive()
    else:
        acc_41_w = gl.full([128, 128], 0.0, gl.float32, layout=L5_short)
        a_ptrs_42_w = a_ptrs_26
        b_ptrs_43_w = b_ptrs_36
        for acc_40_w in range(0, K, 64):
            a_w = gl.load(a_ptrs_42_w)
            a_44_w = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), a_w)
            fence_async_shared()
            packed_w = gl.load(b_ptrs_43_w)
            lo_w = packed_w & 15
            lo_45_w = gl.cast(lo_w, gl.uint8, bitcast=True).to(gl.float16)
            hi_w = gl.cast(gl.cast(packed_w, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)
            hi_46_w = gl.cast(hi_w, gl.uint8, bitcast=True).to(gl.float16)
            c_w = gl.convert_layout(gl.join(lo_45_w, hi_46_w), L7_short)
            w_w = gl.convert_layout(gl.reshape(c_w, [64, 128]), L8_short)
            scale_w = acc_40_w // 128
            scale_47_w = scale_w * N
            scale_48_w = s_ptr + scale_47_w
            scale_50_w = scale_48_w + offs_n_14
            scale_51_w = gl.load(scale_50_w)
            w_52_w = w_w - 8.0
            w_53_w = gl.convert_layout(scale_51_w, L6_short)
            w_54_w = gl.expand_dims(w_53_w, 0)
            w_55_w = w_54_w.broadcast_to([64, 128])
            w_56_w = w_52_w * w_55_w
            w_57_w = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), w_56_w)
            fence_async_shared()
            acc_58_w = warpgroup_mma(a_44_w, w_57_w, acc_41_w)
            a_ptrs_59_w = a_ptrs_42_w + 64
            b_ptrs_60_w = b_ptrs_43_w + b_ptrs_37
            acc_41_w = acc_58_w
            a_ptrs_42_w = a_ptrs_59_w
            b_ptrs_43_w = b_ptrs_60_w
        acc_58_p1 = acc_41_w
        a_ptrs_59_p3 = a_ptrs_42_w
        b_ptrs_60_p3 = b_ptrs_43_w
    v1 = a_ptrs_18 * N
    v3 = c_ptr + v1
    v4 = gl.expand_dims(offs_n_13, 0)
    v5 = v3.broadcast_to([128, 128])
    v6 = v4.broadcast_to([128, 128])
    v7 = v5 + v6
    v8 = acc_58_p1.to(gl.float16)
    v9 = gl.convert_layout(v8, L9_short)
    gl.store(v7, v9)

@gluon.jit
def twill_kernel_short(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, TWILL_COPY: gl.constexpr):
    consumer_0_short(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_a']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a': ('a_ptr', ['K', '1'], [None, None], [128, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'K']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(K + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} ((K + 64 - 1) // 64): run the Triton kernel for it")
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
ARGUMENTS_short = ['a_ptr', 'b_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'b_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'b_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K']   # the arguments a launch key reads
CONSTEXPRS_short = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['a_ptr', 'K']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


def launch(grid, *args, **kwargs):
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
