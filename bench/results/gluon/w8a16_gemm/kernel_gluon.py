"""w8a16_gemm, written by twill from its joint schedule: I=169 L=230 (optimal), 2161 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_59): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- a_59 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 8 warps, 192 registers per thread (needs about 128): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a_59: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared operand b_75_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 98384 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_sg, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_59, a_59_buf, b_75_st, a_59_ready, a_59_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
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
        a_ptrs = gl.expand_dims(offs_m_9, 1)
        a_ptrs_15 = gl.expand_dims(offs_m_10, 1)
        a_ptrs_17 = a_ptrs * stride_am
        a_ptrs_19 = a_ptr + a_ptrs_17
        a_ptrs_20 = gl.arange(0, 64, layout=L4)
        a_ptrs_21 = gl.expand_dims(a_ptrs_20, 0)
        a_ptrs_22 = a_ptrs_19.broadcast_to([128, 64])
        a_ptrs_23 = a_ptrs_21.broadcast_to([128, 64])
        a_ptrs_24 = a_ptrs_22 + a_ptrs_23
        b_ptrs = gl.arange(0, 64, layout=L5)
        b_ptrs_25 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_27 = b_ptrs_25 * stride_bk
        b_ptrs_29 = b_ptr + b_ptrs_27
        b_ptrs_30 = gl.expand_dims(offs_n_13, 0)
        b_ptrs_31 = gl.expand_dims(offs_n_14, 0)
        b_ptrs_32 = b_ptrs_29.broadcast_to([64, 128])
        b_ptrs_33 = b_ptrs_30.broadcast_to([64, 128])
        b_ptrs_34 = b_ptrs_32 + b_ptrs_33
        v0 = K + 63
        v1 = v0 // 64
        a_35 = a_ptrs < M
        a_36 = a_35.broadcast_to([128, 64])
        q_37 = b_ptrs_30 < N
        q_38 = q_37.broadcast_to([64, 128])
        s_39 = offs_n_13 < N
        b_ptrs_40 = stride_bk * 64
        twill_n = (v1 - 0 + 1 - 1) // 1
        b_ptrs_78 = b_ptrs_34
        b_ptrs_78_p1 = b_ptrs_78
        a_53 = (0 + (0 - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
        a_54 = K - a_53  # elementwise0_a: stage 0, partition 0 (group 0)
        q_61 = a_54  # elementwise1_q: stage 0, partition 0 (group 0)
        q_62 = b_ptrs_25 < q_61  # elementwise1_q: stage 0, partition 0 (group 0)
        q_63 = q_62.broadcast_to([64, 128])  # elementwise1_q: stage 0, partition 0 (group 0)
        q_64 = q_63 & q_38  # elementwise1_q: stage 0, partition 0 (group 0)
        b_ptrs_78 = b_ptrs_78_p1 + b_ptrs_40  # load1_q: stage 0, partition 0 (group 0)
        q_65 = gl.load(b_ptrs_78_p1, mask=q_64, other=0)  # load1_q: stage 0, partition 0 (group 0)
        s_66 = a_53 // 128  # load2_s: stage 0, partition 0 (group 0)
        s_67 = s_66 * stride_sg  # load2_s: stage 0, partition 0 (group 0)
        s_68 = s_ptr + s_67  # load2_s: stage 0, partition 0 (group 0)
        s_69 = s_68  # load2_s: stage 0, partition 0 (group 0)
        s_70 = s_69 + offs_n_13  # load2_s: stage 0, partition 0 (group 0)
        s_71 = gl.load(s_70, mask=s_39, other=0.0)  # load2_s: stage 0, partition 0 (group 0)
        a_54_p1 = a_54
        b_ptrs_78_p1 = b_ptrs_78
        q_65_p1 = q_65
        s_71_p1 = s_71
        acc_76 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
        a_53 = (0 + (1 - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
        a_54 = K - a_53  # elementwise0_a: stage 0, partition 0 (group 0)
        q_61 = a_54  # elementwise1_q: stage 0, partition 0 (group 0)
        q_62 = b_ptrs_25 < q_61  # elementwise1_q: stage 0, partition 0 (group 0)
        q_63 = q_62.broadcast_to([64, 128])  # elementwise1_q: stage 0, partition 0 (group 0)
        q_64 = q_63 & q_38  # elementwise1_q: stage 0, partition 0 (group 0)
        a_55 = a_54_p1  # elementwise0_a: stage 1, partition 0 (group 0)
        a_56 = a_ptrs_21 < a_55  # elementwise0_a: stage 1, partition 0 (group 0)
        a_57 = a_56.broadcast_to([128, 64])  # elementwise0_a: stage 1, partition 0 (group 0)
        a_58 = a_36 & a_57  # elementwise0_a: stage 1, partition 0 (group 0)
        b_ptrs_78 = b_ptrs_78_p1 + b_ptrs_40  # load1_q: stage 0, partition 0 (group 0)
        q_65 = gl.load(b_ptrs_78_p1, mask=q_64, other=0)  # load1_q: stage 0, partition 0 (group 0)
        b = gl.cast(q_65_p1, gl.int8, bitcast=True).to(gl.float16)  # convert0_b: stage 1, partition 0 (group 0)
        s_66 = a_53 // 128  # load2_s: stage 0, partition 0 (group 0)
        s_67 = s_66 * stride_sg  # load2_s: stage 0, partition 0 (group 0)
        s_68 = s_ptr + s_67  # load2_s: stage 0, partition 0 (group 0)
        s_69 = s_68  # load2_s: stage 0, partition 0 (group 0)
        s_70 = s_69 + offs_n_13  # load2_s: stage 0, partition 0 (group 0)
        s_71 = gl.load(s_70, mask=s_39, other=0.0)  # load2_s: stage 0, partition 0 (group 0)
        b_72 = gl.expand_dims(s_71_p1, 0)  # elementwise2_b: stage 1, partition 0 (group 0)
        b_73 = b_72.broadcast_to([64, 128])  # elementwise2_b: stage 1, partition 0 (group 0)
        b_74 = b * b_73  # elementwise2_b: stage 1, partition 0 (group 0)
        a_54_p1 = a_54
        acc_76_p1 = acc_76
        b_74_p1 = b_74
        b_ptrs_78_p1 = b_ptrs_78
        q_65_p1 = q_65
        s_71_p1 = s_71
        for twill_b in range(2, twill_n):
            a_53 = (0 + (twill_b - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
            a_54 = K - a_53  # elementwise0_a: stage 0, partition 0 (group 0)
            q_61 = a_54  # elementwise1_q: stage 0, partition 0 (group 0)
            q_62 = b_ptrs_25 < q_61  # elementwise1_q: stage 0, partition 0 (group 0)
            q_63 = q_62.broadcast_to([64, 128])  # elementwise1_q: stage 0, partition 0 (group 0)
            q_64 = q_63 & q_38  # elementwise1_q: stage 0, partition 0 (group 0)
            b_75 = b_75_st.index((twill_b - 2) % 2)  # local_store0_b: stage 2, partition 0 (group 0)
            b_75.store(b_74_p1)  # local_store0_b: stage 2, partition 0 (group 0)
            fence_async_shared()  # local_store0_b: stage 2, partition 0 (group 0)
            a_55 = a_54_p1  # elementwise0_a: stage 1, partition 0 (group 0)
            a_56 = a_ptrs_21 < a_55  # elementwise0_a: stage 1, partition 0 (group 0)
            a_57 = a_56.broadcast_to([128, 64])  # elementwise0_a: stage 1, partition 0 (group 0)
            a_58 = a_36 & a_57  # elementwise0_a: stage 1, partition 0 (group 0)
            mbarrier.wait(a_59_ready.index((twill_base + twill_b - 2) % 4), ((twill_base + twill_b - 2) // 4) & 1)
            fence_async_shared()
            tok_acc_76 = warpgroup_mma(a_59_buf.index((twill_base + twill_b - 2) % 4), b_75, acc_76_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            b_ptrs_78 = b_ptrs_78_p1 + b_ptrs_40  # load1_q: stage 0, partition 0 (group 0)
            q_65 = gl.load(b_ptrs_78_p1, mask=q_64, other=0)  # load1_q: stage 0, partition 0 (group 0)
            b = gl.cast(q_65_p1, gl.int8, bitcast=True).to(gl.float16)  # convert0_b: stage 1, partition 0 (group 0)
            s_66 = a_53 // 128  # load2_s: stage 0, partition 0 (group 0)
            s_67 = s_66 * stride_sg  # load2_s: stage 0, partition 0 (group 0)
            s_68 = s_ptr + s_67  # load2_s: stage 0, partition 0 (group 0)
            s_69 = s_68  # load2_s: stage 0, partition 0 (group 0)
            s_70 = s_69 + offs_n_13  # load2_s: stage 0, partition 0 (group 0)
            s_71 = gl.load(s_70, mask=s_39, other=0.0)  # load2_s: stage 0, partition 0 (group 0)
            b_72 = gl.expand_dims(s_71_p1, 0)  # elementwise2_b: stage 1, partition 0 (group 0)
            b_73 = b_72.broadcast_to([64, 128])  # elementwise2_b: stage 1, partition 0 (group 0)
            b_74 = b * b_73  # elementwise2_b: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_76,))
            mbarrier.arrive(a_59_empty.index((twill_base + twill_b - 1 - 2) % 4), pred=(twill_b - 1 - 2) >= 0)
            acc_76 = warpgroup_mma_wait(1, deps=(tok_acc_76,))
            a_54_p1 = a_54
            acc_76_p1 = acc_76
            b_74_p1 = b_74
            b_ptrs_78_p1 = b_ptrs_78
            q_65_p1 = q_65
            s_71_p1 = s_71
        b_75 = b_75_st.index(((twill_n - 1 + 1) - 2) % 2)  # local_store0_b: stage 2, partition 0 (group 0)
        b_75.store(b_74_p1)  # local_store0_b: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_b: stage 2, partition 0 (group 0)
        a_55 = a_54_p1  # elementwise0_a: stage 1, partition 0 (group 0)
        a_56 = a_ptrs_21 < a_55  # elementwise0_a: stage 1, partition 0 (group 0)
        a_57 = a_56.broadcast_to([128, 64])  # elementwise0_a: stage 1, partition 0 (group 0)
        a_58 = a_36 & a_57  # elementwise0_a: stage 1, partition 0 (group 0)
        mbarrier.wait(a_59_ready.index((twill_base + (twill_n - 1 + 1) - 2) % 4), ((twill_base + (twill_n - 1 + 1) - 2) // 4) & 1)
        fence_async_shared()
        tok_acc_76 = warpgroup_mma(a_59_buf.index((twill_base + (twill_n - 1 + 1) - 2) % 4), b_75, acc_76_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        b = gl.cast(q_65_p1, gl.int8, bitcast=True).to(gl.float16)  # convert0_b: stage 1, partition 0 (group 0)
        b_72 = gl.expand_dims(s_71_p1, 0)  # elementwise2_b: stage 1, partition 0 (group 0)
        b_73 = b_72.broadcast_to([64, 128])  # elementwise2_b: stage 1, partition 0 (group 0)
        b_74 = b * b_73  # elementwise2_b: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_76,))
        mbarrier.arrive(a_59_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 2) % 4), pred=((twill_n - 1 + 1) - 1 - 2) >= 0)
        acc_76 = warpgroup_mma_wait(1, deps=(tok_acc_76,))
        a_54_p1 = a_54
        acc_76_p1 = acc_76
        b_74_p1 = b_74
        b_ptrs_78_p2 = b_ptrs_78_p1
        b_ptrs_78_p1 = b_ptrs_78
        q_65_p1 = q_65
        s_71_p1 = s_71
        b_75 = b_75_st.index(((twill_n - 1 + 2) - 2) % 2)  # local_store0_b: stage 2, partition 0 (group 0)
        b_75.store(b_74_p1)  # local_store0_b: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_b: stage 2, partition 0 (group 0)
        mbarrier.wait(a_59_ready.index((twill_base + (twill_n - 1 + 2) - 2) % 4), ((twill_base + (twill_n - 1 + 2) - 2) // 4) & 1)
        fence_async_shared()
        tok_acc_76 = warpgroup_mma(a_59_buf.index((twill_base + (twill_n - 1 + 2) - 2) % 4), b_75, acc_76_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_76,))
        mbarrier.arrive(a_59_empty.index((twill_base + (twill_n - 1 + 2) - 1 - 2) % 4), pred=((twill_n - 1 + 2) - 1 - 2) >= 0)
        acc_76 = warpgroup_mma_wait(1, deps=(tok_acc_76,))
        a_54_p1 = a_54
        acc_76_p1 = acc_76
        b_74_p1 = b_74
        b_ptrs_78_p3 = b_ptrs_78_p2
        b_ptrs_78_p2 = b_ptrs_78_p1
        b_ptrs_78_p1 = b_ptrs_78
        q_65_p1 = q_65
        s_71_p1 = s_71
        acc_76_p1 = warpgroup_mma_wait(0, deps=(acc_76_p1,))
        a_59_buf._keep_alive()
        b_75_st._keep_alive()
        mbarrier.arrive(a_59_empty.index((twill_base + (twill_n - 1 + 2) - 2) % 4))
        c_ptrs_43 = a_ptrs_15 * stride_cm
        c_ptrs_45 = c_ptr + c_ptrs_43
        c_ptrs_46 = c_ptrs_45.broadcast_to([128, 128])
        c_ptrs_47 = b_ptrs_31.broadcast_to([128, 128])
        c_ptrs_48 = c_ptrs_46 + c_ptrs_47
        v3 = a_ptrs_15 < M
        v5 = b_ptrs_31 < N
        v6 = v3.broadcast_to([128, 128])
        v7 = v5.broadcast_to([128, 128])
        v8 = v6 & v7
        v9 = acc_76_p1.to(gl.float16)
        v10 = gl.convert_layout(v9, L7)
        gl.store(c_ptrs_48, v10, mask=v8)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_sg, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_59, a_59_buf, b_75_st, a_59_ready, a_59_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid_m = twill_pid0
        offs_m = pid_m * 128
        offs_m_3 = gl.arange(0, 128, layout=L0)
        offs_m_9 = offs_m + offs_m_3
        a_ptrs = gl.expand_dims(offs_m_9, 1)
        a_ptrs_17 = a_ptrs * stride_am
        a_ptrs_19 = a_ptr + a_ptrs_17
        a_ptrs_20 = gl.arange(0, 64, layout=L4)
        a_ptrs_21 = gl.expand_dims(a_ptrs_20, 0)
        a_ptrs_22 = a_ptrs_19.broadcast_to([128, 64])
        a_ptrs_23 = a_ptrs_21.broadcast_to([128, 64])
        a_ptrs_24 = a_ptrs_22 + a_ptrs_23
        v0 = K + 63
        v1 = v0 // 64
        a_35 = a_ptrs < M
        a_36 = a_35.broadcast_to([128, 64])
        a_ptrs_51 = a_ptrs_24
        for acc_49 in range(0, v1, 1):
            twill_k = twill_base + (acc_49 - 0) // 1
            a_53 = acc_49 * 64
            a_54 = K - a_53
            a_56 = a_ptrs_21 < a_54
            a_57 = a_56.broadcast_to([128, 64])
            a_58 = a_36 & a_57
            a_ptrs_77 = a_ptrs_51 + 64
            mbarrier.wait(a_59_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_59_ready.index(twill_k % 4), twill_box_a_59.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a_59, [128 * pid_m, 64 * acc_49], a_59_ready.index(twill_k % 4), a_59_buf.index(twill_k % 4))  # load0_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_59_buf.index(twill_k % 4), a_ptrs_51, mask=a_58)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_59_ready.index(twill_k % 4), increment_count=False)
                else:
                    a_59_buf.index(twill_k % 4).store(gl.load(a_ptrs_51, mask=a_58, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_59_ready.index(twill_k % 4), count=256)
            a_ptrs_51 = a_ptrs_77
        twill_base += (v1 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_sg, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_59, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_59_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_75_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_59_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_59_ready.index(i), count=1 if TWILL_TMA else 256)
    a_59_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_59_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_sg, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_59, a_59_buf, b_75_st, a_59_ready, a_59_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, s_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_sg, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_59, a_59_buf, b_75_st, a_59_ready, a_59_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_sg', 'stride_cm', 'GROUP_K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_sg', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_a_59']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_sg', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'GROUP_K': 128, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_59': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_59': ('a_ptr', ['stride_am', '1'], ['M', 'K'], [128, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'K', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
