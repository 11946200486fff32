"""i64_gemm, written by twill from its joint schedule: I=40 L=73 (optimal), 1273 cycles per iteration predicted.

Decisions (each from the schedule):
- a_57 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- b_64 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 8-warp producer through registers (a_57, b_64): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- pointer tiles copied through registers (the producer's loads, then stores to the rings): cp.async would copy them in pieces under 4 bytes, their addresses not known aligned (computed from values loaded from memory, or from arguments not specialised divisible)
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 112): sub-tiles 0, 1, 2 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 184 registers per thread (needs about 120): sub-tiles None, 0, 1, 2 stages
- partition 2 (worker): producer, warp group 2, 8 warps, 64 registers per thread (needs about 64): copies through registers into the rings
- ring a_57: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0, 1
- ring b_64: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0, 1
- tensor-core order: the schedule's slots (partition 1 (1 dot) | partition 0 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 131232 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L9 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, sizes, twill_g0, twill_g1, twill_g2, a_57_buf, b_64_buf, a_57_ready, a_57_empty, b_64_ready, b_64_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        M = gl.load(sizes)
        N_2 = sizes + 1
        N_3 = gl.load(N_2)
        K_4 = sizes + 2
        K_5 = gl.load(K_4)
        pid_m = twill_pid0
        pid_n = twill_pid1
        offs_m = pid_m * 128
        offs_m_6_t0 = gl.arange(0, 64, layout=L0)
        offs_m_6_t1 = gl.arange(0, 64, layout=L0) + 64
        offs_m_7_t0 = gl.arange(0, 64, layout=L1)
        offs_m_7_t1 = gl.arange(0, 64, layout=L1) + 64
        offs_m_8 = gl.arange(0, 128, layout=L2)
        offs_m_11_t0 = offs_m + offs_m_6_t0
        offs_m_11_t1 = offs_m + offs_m_6_t1
        offs_m_12_t0 = offs_m + offs_m_7_t0
        offs_m_12_t1 = offs_m + offs_m_7_t1
        offs_n = pid_n * 128
        offs_n_14 = offs_n + offs_m_8
        a_ptrs_t0 = gl.expand_dims(offs_m_11_t0, 1)
        a_ptrs_t1 = gl.expand_dims(offs_m_11_t1, 1)
        a_ptrs_15_t0 = gl.expand_dims(offs_m_12_t0, 1)
        a_ptrs_15_t1 = gl.expand_dims(offs_m_12_t1, 1)
        a_ptrs_16_t0 = a_ptrs_t0.to(gl.int64)
        a_ptrs_16_t1 = a_ptrs_t1.to(gl.int64)
        a_ptrs_17_t0 = a_ptrs_15_t0.to(gl.int64)
        a_ptrs_17_t1 = a_ptrs_15_t1.to(gl.int64)
        a_ptrs_19_t0 = a_ptrs_16_t0 * K_5
        a_ptrs_19_t1 = a_ptrs_16_t1 * K_5
        a_ptrs_21_t0 = a_ptr + a_ptrs_19_t0
        a_ptrs_21_t1 = a_ptr + a_ptrs_19_t1
        a_ptrs_22 = gl.arange(0, 64, layout=L3)
        a_ptrs_23 = gl.expand_dims(a_ptrs_22, 0)
        a_ptrs_24_t0 = a_ptrs_21_t0.broadcast_to([64, 64])
        a_ptrs_24_t1 = a_ptrs_21_t1.broadcast_to([64, 64])
        a_ptrs_25_t0 = a_ptrs_23.broadcast_to([64, 64])
        a_ptrs_25_t1 = a_ptrs_23.broadcast_to([64, 64])
        a_ptrs_26_t0 = a_ptrs_24_t0 + a_ptrs_25_t0
        a_ptrs_26_t1 = a_ptrs_24_t1 + a_ptrs_25_t1
        b_ptrs = gl.arange(0, 64, layout=L1)
        b_ptrs_27 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_28 = b_ptrs_27.to(gl.int64)
        b_ptrs_30 = b_ptrs_28 * N_3
        b_ptrs_32 = b_ptr + b_ptrs_30
        b_ptrs_33 = gl.expand_dims(offs_n_14, 0)
        b_ptrs_34 = b_ptrs_32.broadcast_to([64, 128])
        b_ptrs_35 = b_ptrs_33.broadcast_to([64, 128])
        b_ptrs_36 = b_ptrs_34 + b_ptrs_35
        a_37_t0 = a_ptrs_16_t0 < M
        a_37_t1 = a_ptrs_16_t1 < M
        a_38 = a_ptrs_23.to(gl.int64)
        a_40_t0 = a_37_t0.broadcast_to([64, 64])
        a_40_t1 = a_37_t1.broadcast_to([64, 64])
        twill_n = gl.cast((K_5 - 0 + 64 - 1) // 64, gl.int32)
        acc_66_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        a_53 = a_38 + (0 + (0 - 0) * 64)  # elementwise0_a: stage 0, partition 0 (group 0)
        a_54 = a_53 < K_5  # elementwise0_a: stage 0, partition 0 (group 0)
        a_53_t0 = a_38 + (0 + (0 - 0) * 64)  # elementwise0_a_s0: stage 0, partition 0 (group 0)
        a_54_t0 = a_53_t0 < K_5  # elementwise0_a_s0: stage 0, partition 0 (group 0)
        a_55_t0 = a_54_t0.broadcast_to([64, 64])  # elementwise0_a_s0: stage 0, partition 0 (group 0)
        a_56_t0 = a_40_t0 & a_55_t0  # elementwise0_a_s0: stage 0, partition 0 (group 0)
        acc_66_t1_p1 = acc_66_t1
        for twill_b in range(1, twill_n):
            a_52 = (0 + (twill_b - 0) * 64)  # elementwise0_a: stage 0, partition 0 (group 0)
            a_53 = a_38 + a_52  # elementwise0_a: stage 0, partition 0 (group 0)
            a_54 = a_53 < K_5  # elementwise0_a: stage 0, partition 0 (group 0)
            a_52_t0 = (0 + (twill_b - 0) * 64)  # elementwise0_a_s0: stage 0, partition 0 (group 0)
            a_53_t0 = a_38 + a_52_t0  # elementwise0_a_s0: stage 0, partition 0 (group 0)
            a_54_t0 = a_53_t0 < K_5  # elementwise0_a_s0: stage 0, partition 0 (group 0)
            a_55_t0 = a_54_t0.broadcast_to([64, 64])  # elementwise0_a_s0: stage 0, partition 0 (group 0)
            a_56_t0 = a_40_t0 & a_55_t0  # elementwise0_a_s0: stage 0, partition 0 (group 0)
            mbarrier.wait(a_57_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(b_64_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_acc_66_t1 = warpgroup_mma(a_57_buf.index((twill_base + twill_b - 1) % 4).slice(64, 64, 0), b_64_buf.index((twill_base + twill_b - 1) % 4), acc_66_t1_p1, is_async=True)  # dot0_acc_s1: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_66_t1,))
            mbarrier.arrive(a_57_empty.index((twill_base + twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
            mbarrier.arrive(b_64_empty.index((twill_base + twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
            acc_66_t1 = warpgroup_mma_wait(1, deps=(tok_acc_66_t1,))
            acc_66_t1_p1 = acc_66_t1
        mbarrier.wait(a_57_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        mbarrier.wait(b_64_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_66_t1 = warpgroup_mma(a_57_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4).slice(64, 64, 0), b_64_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), acc_66_t1_p1, is_async=True)  # dot0_acc_s1: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_66_t1,))
        mbarrier.arrive(a_57_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        mbarrier.arrive(b_64_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_66_t1 = warpgroup_mma_wait(1, deps=(tok_acc_66_t1,))
        acc_66_t1_p1 = acc_66_t1
        acc_66_t1_p1 = warpgroup_mma_wait(0, deps=(acc_66_t1_p1,))
        a_57_buf._keep_alive()
        b_64_buf._keep_alive()
        mbarrier.arrive(a_57_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        mbarrier.arrive(b_64_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        v1_t1 = a_ptrs_17_t1 < M
        v2 = b_ptrs_33.to(gl.int64)
        v4 = v2 < N_3
        v5_t1 = v1_t1.broadcast_to([64, 128])
        v6_t1 = v4.broadcast_to([64, 128])
        v7_t1 = v5_t1 & v6_t1
        v9_t1 = a_ptrs_17_t1 * N_3
        v11_t1 = c_ptr + v9_t1
        v12_t1 = v11_t1.broadcast_to([64, 128])
        v13_t1 = b_ptrs_33.broadcast_to([64, 128])
        v14_t1 = v12_t1 + v13_t1
        v15_t1 = acc_66_t1_p1.to(gl.float16)
        v16_t1 = gl.convert_layout(v15_t1, L5)
        gl.store(v14_t1, v16_t1, mask=v7_t1)
        twill_base += twill_n

@gluon.jit
def consumer_1(a_ptr, b_ptr, c_ptr, sizes, twill_g0, twill_g1, twill_g2, a_57_buf, b_64_buf, a_57_ready, a_57_empty, b_64_ready, b_64_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        M = gl.load(sizes)
        N_2 = sizes + 1
        N_3 = gl.load(N_2)
        K_4 = sizes + 2
        K_5 = gl.load(K_4)
        pid_m = twill_pid0
        pid_n = twill_pid1
        offs_m = pid_m * 128
        offs_m_6_t0 = gl.arange(0, 64, layout=L0)
        offs_m_6_t1 = gl.arange(0, 64, layout=L0) + 64
        offs_m_7_t0 = gl.arange(0, 64, layout=L1)
        offs_m_7_t1 = gl.arange(0, 64, layout=L1) + 64
        offs_m_8 = gl.arange(0, 128, layout=L2)
        offs_m_11_t0 = offs_m + offs_m_6_t0
        offs_m_11_t1 = offs_m + offs_m_6_t1
        offs_m_12_t0 = offs_m + offs_m_7_t0
        offs_m_12_t1 = offs_m + offs_m_7_t1
        offs_n = pid_n * 128
        offs_n_14 = offs_n + offs_m_8
        a_ptrs_t0 = gl.expand_dims(offs_m_11_t0, 1)
        a_ptrs_t1 = gl.expand_dims(offs_m_11_t1, 1)
        a_ptrs_15_t0 = gl.expand_dims(offs_m_12_t0, 1)
        a_ptrs_15_t1 = gl.expand_dims(offs_m_12_t1, 1)
        a_ptrs_16_t0 = a_ptrs_t0.to(gl.int64)
        a_ptrs_16_t1 = a_ptrs_t1.to(gl.int64)
        a_ptrs_17_t0 = a_ptrs_15_t0.to(gl.int64)
        a_ptrs_17_t1 = a_ptrs_15_t1.to(gl.int64)
        a_ptrs_19_t0 = a_ptrs_16_t0 * K_5
        a_ptrs_19_t1 = a_ptrs_16_t1 * K_5
        a_ptrs_21_t0 = a_ptr + a_ptrs_19_t0
        a_ptrs_21_t1 = a_ptr + a_ptrs_19_t1
        a_ptrs_22 = gl.arange(0, 64, layout=L3)
        a_ptrs_23 = gl.expand_dims(a_ptrs_22, 0)
        a_ptrs_24_t0 = a_ptrs_21_t0.broadcast_to([64, 64])
        a_ptrs_24_t1 = a_ptrs_21_t1.broadcast_to([64, 64])
        a_ptrs_25_t0 = a_ptrs_23.broadcast_to([64, 64])
        a_ptrs_25_t1 = a_ptrs_23.broadcast_to([64, 64])
        a_ptrs_26_t0 = a_ptrs_24_t0 + a_ptrs_25_t0
        a_ptrs_26_t1 = a_ptrs_24_t1 + a_ptrs_25_t1
        b_ptrs = gl.arange(0, 64, layout=L1)
        b_ptrs_27 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_28 = b_ptrs_27.to(gl.int64)
        b_ptrs_30 = b_ptrs_28 * N_3
        b_ptrs_32 = b_ptr + b_ptrs_30
        b_ptrs_33 = gl.expand_dims(offs_n_14, 0)
        b_ptrs_34 = b_ptrs_32.broadcast_to([64, 128])
        b_ptrs_35 = b_ptrs_33.broadcast_to([64, 128])
        b_ptrs_36 = b_ptrs_34 + b_ptrs_35
        a_37_t0 = a_ptrs_16_t0 < M
        a_37_t1 = a_ptrs_16_t1 < M
        a_38 = a_ptrs_23.to(gl.int64)
        a_40_t0 = a_37_t0.broadcast_to([64, 64])
        a_40_t1 = a_37_t1.broadcast_to([64, 64])
        b_41 = b_ptrs_33.to(gl.int64)
        b_43 = b_41 < N_3
        b_44 = b_43.broadcast_to([64, 128])
        twill_n = gl.cast((K_5 - 0 + 64 - 1) // 64, gl.int32)
        acc_66_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        b_60 = b_ptrs_28 + (0 + (0 - 0) * 64)  # elementwise1_b: stage 0, partition 1 (group 1)
        b_61 = b_60 < K_5  # elementwise1_b: stage 0, partition 1 (group 1)
        b_62 = b_61.broadcast_to([64, 128])  # elementwise1_b: stage 0, partition 1 (group 1)
        b_63 = b_62 & b_44  # elementwise1_b: stage 0, partition 1 (group 1)
        a_53 = a_38 + (0 + (0 - 0) * 64)  # elementwise0_a: stage 0, partition 1 (group 1)
        a_54 = a_53 < K_5  # elementwise0_a: stage 0, partition 1 (group 1)
        a_53_t1 = a_38 + (0 + (0 - 0) * 64)  # elementwise0_a_s1: stage 0, partition 1 (group 1)
        a_54_t1 = a_53_t1 < K_5  # elementwise0_a_s1: stage 0, partition 1 (group 1)
        a_55_t1 = a_54_t1.broadcast_to([64, 64])  # elementwise0_a_s1: stage 0, partition 1 (group 1)
        a_56_t1 = a_40_t1 & a_55_t1  # elementwise0_a_s1: stage 0, partition 1 (group 1)
        acc_66_t0_p1 = acc_66_t0
        for twill_b in range(1, twill_n):
            b_59 = (0 + (twill_b - 0) * 64)  # elementwise1_b: stage 0, partition 1 (group 1)
            b_60 = b_ptrs_28 + b_59  # elementwise1_b: stage 0, partition 1 (group 1)
            b_61 = b_60 < K_5  # elementwise1_b: stage 0, partition 1 (group 1)
            b_62 = b_61.broadcast_to([64, 128])  # elementwise1_b: stage 0, partition 1 (group 1)
            b_63 = b_62 & b_44  # elementwise1_b: stage 0, partition 1 (group 1)
            mbarrier.wait(a_57_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(b_64_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_acc_66_t0 = warpgroup_mma(a_57_buf.index((twill_base + twill_b - 1) % 4).slice(0, 64, 0), b_64_buf.index((twill_base + twill_b - 1) % 4), acc_66_t0_p1, is_async=True)  # dot0_acc_s0: stage 1, partition 1 (group 1)
            a_52 = (0 + (twill_b - 0) * 64)  # elementwise0_a: stage 0, partition 1 (group 1)
            a_53 = a_38 + a_52  # elementwise0_a: stage 0, partition 1 (group 1)
            a_54 = a_53 < K_5  # elementwise0_a: stage 0, partition 1 (group 1)
            a_52_t1 = (0 + (twill_b - 0) * 64)  # elementwise0_a_s1: stage 0, partition 1 (group 1)
            a_53_t1 = a_38 + a_52_t1  # elementwise0_a_s1: stage 0, partition 1 (group 1)
            a_54_t1 = a_53_t1 < K_5  # elementwise0_a_s1: stage 0, partition 1 (group 1)
            a_55_t1 = a_54_t1.broadcast_to([64, 64])  # elementwise0_a_s1: stage 0, partition 1 (group 1)
            a_56_t1 = a_40_t1 & a_55_t1  # elementwise0_a_s1: stage 0, partition 1 (group 1)
            warpgroup_mma_wait(1, deps=(tok_acc_66_t0,))
            mbarrier.arrive(a_57_empty.index((twill_base + twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
            mbarrier.arrive(b_64_empty.index((twill_base + twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
            acc_66_t0 = warpgroup_mma_wait(1, deps=(tok_acc_66_t0,))
            acc_66_t0_p1 = acc_66_t0
        mbarrier.wait(a_57_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        mbarrier.wait(b_64_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_66_t0 = warpgroup_mma(a_57_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4).slice(0, 64, 0), b_64_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), acc_66_t0_p1, is_async=True)  # dot0_acc_s0: stage 1, partition 1 (group 1)
        warpgroup_mma_wait(1, deps=(tok_acc_66_t0,))
        mbarrier.arrive(a_57_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        mbarrier.arrive(b_64_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_66_t0 = warpgroup_mma_wait(1, deps=(tok_acc_66_t0,))
        acc_66_t0_p1 = acc_66_t0
        acc_66_t0_p1 = warpgroup_mma_wait(0, deps=(acc_66_t0_p1,))
        a_57_buf._keep_alive()
        b_64_buf._keep_alive()
        mbarrier.arrive(a_57_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        mbarrier.arrive(b_64_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        v1_t0 = a_ptrs_17_t0 < M
        v2 = b_ptrs_33.to(gl.int64)
        v4 = v2 < N_3
        v5_t0 = v1_t0.broadcast_to([64, 128])
        v6_t0 = v4.broadcast_to([64, 128])
        v7_t0 = v5_t0 & v6_t0
        v9_t0 = a_ptrs_17_t0 * N_3
        v11_t0 = c_ptr + v9_t0
        v12_t0 = v11_t0.broadcast_to([64, 128])
        v13_t0 = b_ptrs_33.broadcast_to([64, 128])
        v14_t0 = v12_t0 + v13_t0
        v15_t0 = acc_66_t0_p1.to(gl.float16)
        v16_t0 = gl.convert_layout(v15_t0, L5)
        gl.store(v14_t0, v16_t0, mask=v7_t0)
        twill_base += twill_n

@gluon.jit
def producer_2(a_ptr, b_ptr, c_ptr, sizes, twill_g0, twill_g1, twill_g2, a_57_buf, b_64_buf, a_57_ready, a_57_empty, b_64_ready, b_64_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        M = gl.load(sizes)
        N_2 = sizes + 1
        N_3 = gl.load(N_2)
        K_4 = sizes + 2
        K_5 = gl.load(K_4)
        pid_m = twill_pid0
        pid_n = twill_pid1
        offs_m = pid_m * 128
        offs_m_6 = gl.arange(0, 128, layout=L6)
        offs_m_8 = gl.arange(0, 128, layout=L7)
        offs_m_11 = offs_m + offs_m_6
        offs_n = pid_n * 128
        offs_n_14 = offs_n + offs_m_8
        a_ptrs = gl.expand_dims(offs_m_11, 1)
        a_ptrs_16 = a_ptrs.to(gl.int64)
        a_ptrs_19 = a_ptrs_16 * K_5
        a_ptrs_21 = a_ptr + a_ptrs_19
        a_ptrs_22 = gl.arange(0, 64, layout=L8)
        a_ptrs_23 = gl.expand_dims(a_ptrs_22, 0)
        a_ptrs_24 = a_ptrs_21.broadcast_to([128, 64])
        a_ptrs_25 = a_ptrs_23.broadcast_to([128, 64])
        a_ptrs_26 = a_ptrs_24 + a_ptrs_25
        b_ptrs = gl.arange(0, 64, layout=L9)
        b_ptrs_27 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_28 = b_ptrs_27.to(gl.int64)
        b_ptrs_30 = b_ptrs_28 * N_3
        b_ptrs_32 = b_ptr + b_ptrs_30
        b_ptrs_33 = gl.expand_dims(offs_n_14, 0)
        b_ptrs_34 = b_ptrs_32.broadcast_to([64, 128])
        b_ptrs_35 = b_ptrs_33.broadcast_to([64, 128])
        b_ptrs_36 = b_ptrs_34 + b_ptrs_35
        a_37 = a_ptrs_16 < M
        a_38 = a_ptrs_23.to(gl.int64)
        a_40 = a_37.broadcast_to([128, 64])
        b_41 = b_ptrs_33.to(gl.int64)
        b_43 = b_41 < N_3
        b_44 = b_43.broadcast_to([64, 128])
        b_ptrs_45 = N_3 * 64
        a_ptrs_49 = a_ptrs_26
        b_ptrs_50 = b_ptrs_36
        for acc_48 in range(0, K_5, 64):
            twill_k = twill_base + gl.cast((acc_48 - 0) // 64, gl.int32)
            a_53 = a_38 + acc_48
            a_54 = a_53 < K_5
            a_55 = a_54.broadcast_to([128, 64])
            a_56 = a_40 & a_55
            b_60 = b_ptrs_28 + acc_48
            b_61 = b_60 < K_5
            b_62 = b_61.broadcast_to([64, 128])
            b_63 = b_62 & b_44
            a_ptrs_67 = a_ptrs_49 + 64
            b_ptrs_68 = b_ptrs_50 + b_ptrs_45
            mbarrier.wait(a_57_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_57_buf.index(twill_k % 4), a_ptrs_49, mask=a_56)  # load0_a: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(a_57_ready.index(twill_k % 4), increment_count=False)
            else:
                a_57_buf.index(twill_k % 4).store(gl.load(a_ptrs_49, mask=a_56, other=0.0))  # load0_a: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_57_ready.index(twill_k % 4), count=256)
            mbarrier.wait(b_64_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_64_buf.index(twill_k % 4), b_ptrs_50, mask=b_63)  # load1_b: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(b_64_ready.index(twill_k % 4), increment_count=False)
            else:
                b_64_buf.index(twill_k % 4).store(gl.load(b_ptrs_50, mask=b_63, other=0.0))  # load1_b: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_64_ready.index(twill_k % 4), count=256)
            a_ptrs_49 = a_ptrs_67
            b_ptrs_50 = b_ptrs_68
        twill_base += gl.cast((K_5 - 0 + 64 - 1) // 64, gl.int32)

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, sizes, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    a_57_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_64_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_57_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_57_ready.index(i), count=256)
    a_57_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_57_empty.index(i), count=2)
    b_64_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_64_ready.index(i), count=256)
    b_64_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_64_empty.index(i), count=2)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, sizes, twill_g0, twill_g1, twill_g2, a_57_buf, b_64_buf, a_57_ready, a_57_empty, b_64_ready, b_64_empty, TWILL_COPY)),
        (consumer_1, (a_ptr, b_ptr, c_ptr, sizes, twill_g0, twill_g1, twill_g2, a_57_buf, b_64_buf, a_57_ready, a_57_empty, b_64_ready, b_64_empty, TWILL_COPY)),
        (producer_2, (a_ptr, b_ptr, c_ptr, sizes, twill_g0, twill_g1, twill_g2, a_57_buf, b_64_buf, a_57_ready, a_57_empty, b_64_ready, b_64_empty, TWILL_COPY)),
    ], [4, 8], [184, 64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'sizes', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'sizes', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'sizes', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = None   # the copies go through registers at every launch: cp.async cannot copy these tiles in pieces of 4 bytes or more (their addresses are not known aligned)
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
    flags = {'TWILL_COPY': False}
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
