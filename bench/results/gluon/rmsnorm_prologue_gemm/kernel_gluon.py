"""rmsnorm_matmul_kernel, written by twill from its joint schedule: I=361 L=361 (optimal), 3862 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (wt_83): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- wt_83 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over w when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 8 warps, 192 registers per thread (needs about 137): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring wt_83: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 65616 bytes planned of 232448; maxnreg 128
- loop at rmsnorm_prologue_gemm.py:37 (TTGIR line 58) (before the scheduled loop): written by the same partitions, no tile streamed: its loads issued by the consumers in registers, the producer copying nothing for it, in one stage of its own schedule (I=276, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]), k_width=2))
L6 = gl.constexpr(gl.SliceLayout(0, gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]), k_width=2)))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(x, g, w, y, M, N, K, eps, twill_g0, twill_g1, twill_g2, twill_box_wt_83, wt_83_buf, wt_83_ready, wt_83_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_m = twill_pid0
        pid_n = twill_pid1
        offs_m = pid_m * 128
        offs_m_2 = gl.arange(0, 128, layout=L0)
        offs_m_3 = gl.arange(0, 128, layout=L1)
        offs_m_4 = gl.arange(0, 128, layout=L2)
        offs_m_7 = offs_m + offs_m_2
        offs_m_8 = offs_m + offs_m_3
        offs_n = pid_n * 128
        offs_n_10 = offs_n + offs_m_4
        offs_k = gl.arange(0, 64, layout=L3)
        offs_k_11 = gl.arange(0, 64, layout=L1)
        row_ok_13 = offs_m_7 < M
        row_ok_14 = offs_m_8 < M
        xt = gl.expand_dims(row_ok_13, 1)
        xt_16 = xt.broadcast_to([128, 64])
        xt_17 = gl.expand_dims(offs_m_7, 1)
        xt_19 = xt_17 * K
        xt_21 = x + xt_19
        xt_22 = xt_21.broadcast_to([128, 64])
        twill_n = (K - 0 + 64 - 1) // 64
        sq_65 = gl.full([128], 0.0, gl.float32, layout=L0)
        kk_55_l0 = (0 + (0 - 0) * 64) + offs_k  # elementwise0_xt: stage 0, partition 0 (group 0)
        xt_56 = gl.expand_dims(kk_55_l0, 0)  # elementwise0_xt: stage 0, partition 0 (group 0)
        xt_57 = xt_56 < K  # elementwise0_xt: stage 0, partition 0 (group 0)
        xt_58_l0 = xt_57.broadcast_to([128, 64])  # elementwise0_xt: stage 0, partition 0 (group 0)
        xt_59_l0 = xt_16 & xt_58_l0  # elementwise0_xt: stage 0, partition 0 (group 0)
        xt_60_l0 = xt_56.broadcast_to([128, 64])  # load0_xt: stage 0, partition 0 (group 0)
        xt_61_l0 = xt_22 + xt_60_l0  # load0_xt: stage 0, partition 0 (group 0)
        xt_62_l0 = gl.load(xt_61_l0, mask=xt_59_l0, other=0.0)  # load0_xt: stage 0, partition 0 (group 0)
        sq_65_p1 = sq_65
        xt_62_l0_p1 = xt_62_l0
        for twill_b in range(1, twill_n):
            kk_l0 = (0 + (twill_b - 0) * 64)  # elementwise0_xt: stage 0, partition 0 (group 0)
            kk_55_l0 = kk_l0 + offs_k  # elementwise0_xt: stage 0, partition 0 (group 0)
            xt_56 = gl.expand_dims(kk_55_l0, 0)  # elementwise0_xt: stage 0, partition 0 (group 0)
            xt_57 = xt_56 < K  # elementwise0_xt: stage 0, partition 0 (group 0)
            xt_58_l0 = xt_57.broadcast_to([128, 64])  # elementwise0_xt: stage 0, partition 0 (group 0)
            xt_59_l0 = xt_16 & xt_58_l0  # elementwise0_xt: stage 0, partition 0 (group 0)
            xt_60_l0 = xt_56.broadcast_to([128, 64])  # load0_xt: stage 0, partition 0 (group 0)
            xt_61_l0 = xt_22 + xt_60_l0  # load0_xt: stage 0, partition 0 (group 0)
            xt_62_l0 = gl.load(xt_61_l0, mask=xt_59_l0, other=0.0)  # load0_xt: stage 0, partition 0 (group 0)
            xf = xt_62_l0_p1.to(gl.float32)  # convert0_xf: stage 1, partition 0 (group 0)
            sq_63 = xf * xf  # elementwise1_sq: stage 1, partition 0 (group 0)
            sq_64 = gl.sum(sq_63, axis=1)  # reduce0_sq: stage 1, partition 0 (group 0)
            sq_65 = sq_65_p1 + sq_64  # elementwise2_sq: stage 1, partition 0 (group 0)
            sq_65_p1 = sq_65
            xt_62_l0_p1 = xt_62_l0
        xf = xt_62_l0_p1.to(gl.float32)  # convert0_xf: stage 1, partition 0 (group 0)
        sq_63 = xf * xf  # elementwise1_sq: stage 1, partition 0 (group 0)
        sq_64 = gl.sum(sq_63, axis=1)  # reduce0_sq: stage 1, partition 0 (group 0)
        sq_65 = sq_65_p1 + sq_64  # elementwise2_sq: stage 1, partition 0 (group 0)
        sq_65_p1 = sq_65
        xt_62_l0_p1 = xt_62_l0
        rstd_24 = gl.cast(K, gl.float32)
        rstd_26 = sq_65_p1 / rstd_24
        rstd_28 = rstd_26 + eps
        rstd_29 = gl.sqrt(rstd_28)
        rstd_30 = 1.0 / rstd_29
        xt_31 = gl.expand_dims(row_ok_13, 1)
        xt_33 = xt_31.broadcast_to([128, 64])
        xt_34 = gl.expand_dims(offs_m_7, 1)
        xt_36 = xt_34 * K
        xt_38 = x + xt_36
        xt_39 = xt_38.broadcast_to([128, 64])
        wt_41 = gl.expand_dims(offs_n_10, 0)
        wt_43 = wt_41 < N
        wt_44 = wt_43.broadcast_to([64, 128])
        twill_n = (K - 0 + 64 - 1) // 64
        acc_85 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
        kk_56 = (0 + (0 - 0) * 64) + offs_k  # elementwise0_xt: stage 0, partition 0 (group 0)
        xt_58 = gl.expand_dims(kk_56, 0)  # elementwise0_xt: stage 0, partition 0 (group 0)
        xt_59 = xt_58 < K  # elementwise0_xt: stage 0, partition 0 (group 0)
        xt_60 = xt_59.broadcast_to([128, 64])  # elementwise0_xt: stage 0, partition 0 (group 0)
        xt_61 = xt_33 & xt_60  # elementwise0_xt: stage 0, partition 0 (group 0)
        xt_62 = xt_58.broadcast_to([128, 64])  # load0_xt: stage 0, partition 0 (group 0)
        xt_63 = xt_39 + xt_62  # load0_xt: stage 0, partition 0 (group 0)
        xt_64 = gl.load(xt_63, mask=xt_61, other=0.0)  # load0_xt: stage 0, partition 0 (group 0)
        gk_65 = kk_56 < K  # load1_gk: stage 0, partition 0 (group 0)
        gk_66 = g + kk_56  # load1_gk: stage 0, partition 0 (group 0)
        gk_67 = gl.load(gk_66, mask=gk_65, other=0.0)  # load1_gk: stage 0, partition 0 (group 0)
        acc_85_p1 = acc_85
        gk_67_p1 = gk_67
        xt_64_p1 = xt_64
        for twill_b in range(1, twill_n):
            kk = (0 + (twill_b - 0) * 64)  # elementwise0_xt: stage 0, partition 0 (group 0)
            kk_56 = kk + offs_k  # elementwise0_xt: stage 0, partition 0 (group 0)
            xt_58 = gl.expand_dims(kk_56, 0)  # elementwise0_xt: stage 0, partition 0 (group 0)
            xt_59 = xt_58 < K  # elementwise0_xt: stage 0, partition 0 (group 0)
            xt_60 = xt_59.broadcast_to([128, 64])  # elementwise0_xt: stage 0, partition 0 (group 0)
            xt_61 = xt_33 & xt_60  # elementwise0_xt: stage 0, partition 0 (group 0)
            kk_55 = (0 + (twill_b - 1) * 64)  # elementwise1_wt: stage 1, partition 0 (group 0)
            kk_57 = kk_55 + offs_k_11  # elementwise1_wt: stage 1, partition 0 (group 0)
            wt_75 = gl.expand_dims(kk_57, 1)  # elementwise1_wt: stage 1, partition 0 (group 0)
            wt_76 = wt_75 < K  # elementwise1_wt: stage 1, partition 0 (group 0)
            wt_77 = wt_76.broadcast_to([64, 128])  # elementwise1_wt: stage 1, partition 0 (group 0)
            wt_78 = wt_77 & wt_44  # elementwise1_wt: stage 1, partition 0 (group 0)
            xt_62 = xt_58.broadcast_to([128, 64])  # load0_xt: stage 0, partition 0 (group 0)
            xt_63 = xt_39 + xt_62  # load0_xt: stage 0, partition 0 (group 0)
            xt_64 = gl.load(xt_63, mask=xt_61, other=0.0)  # load0_xt: stage 0, partition 0 (group 0)
            xn = gl.convert_layout(xt_64_p1, L5)  # convert0_xn: stage 1, partition 0 (group 0)
            xn_69 = xn.to(gl.float32)  # convert0_xn: stage 1, partition 0 (group 0)
            gk_65 = kk_56 < K  # load1_gk: stage 0, partition 0 (group 0)
            gk_66 = g + kk_56  # load1_gk: stage 0, partition 0 (group 0)
            gk_67 = gl.load(gk_66, mask=gk_65, other=0.0)  # load1_gk: stage 0, partition 0 (group 0)
            xn_68 = gl.convert_layout(gk_67_p1, L6)  # convert1_xn: stage 1, partition 0 (group 0)
            xn_70 = xn_68.to(gl.float32)  # convert1_xn: stage 1, partition 0 (group 0)
            xn_71 = gl.expand_dims(xn_70, 0)  # elementwise2_xn: stage 1, partition 0 (group 0)
            xn_72 = xn_71.broadcast_to([128, 64])  # elementwise2_xn: stage 1, partition 0 (group 0)
            xn_73 = xn_69 * xn_72  # elementwise2_xn: stage 1, partition 0 (group 0)
            xn_74 = xn_73.to(gl.float16)  # convert2_xn: stage 1, partition 0 (group 0)
            mbarrier.wait(wt_83_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_acc_85 = warpgroup_mma(xn_74, wt_83_buf.index((twill_base + twill_b - 1) % 4), acc_85_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            acc_85 = warpgroup_mma_wait(0, deps=(tok_acc_85,))
            mbarrier.arrive(wt_83_empty.index((twill_base + twill_b - 1) % 4))
            acc_85_p1 = acc_85
            gk_67_p1 = gk_67
            xt_64_p1 = xt_64
        kk_55 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise1_wt: stage 1, partition 0 (group 0)
        kk_57 = kk_55 + offs_k_11  # elementwise1_wt: stage 1, partition 0 (group 0)
        wt_75 = gl.expand_dims(kk_57, 1)  # elementwise1_wt: stage 1, partition 0 (group 0)
        wt_76 = wt_75 < K  # elementwise1_wt: stage 1, partition 0 (group 0)
        wt_77 = wt_76.broadcast_to([64, 128])  # elementwise1_wt: stage 1, partition 0 (group 0)
        wt_78 = wt_77 & wt_44  # elementwise1_wt: stage 1, partition 0 (group 0)
        xn = gl.convert_layout(xt_64_p1, L5)  # convert0_xn: stage 1, partition 0 (group 0)
        xn_69 = xn.to(gl.float32)  # convert0_xn: stage 1, partition 0 (group 0)
        xn_68 = gl.convert_layout(gk_67_p1, L6)  # convert1_xn: stage 1, partition 0 (group 0)
        xn_70 = xn_68.to(gl.float32)  # convert1_xn: stage 1, partition 0 (group 0)
        xn_71 = gl.expand_dims(xn_70, 0)  # elementwise2_xn: stage 1, partition 0 (group 0)
        xn_72 = xn_71.broadcast_to([128, 64])  # elementwise2_xn: stage 1, partition 0 (group 0)
        xn_73 = xn_69 * xn_72  # elementwise2_xn: stage 1, partition 0 (group 0)
        xn_74 = xn_73.to(gl.float16)  # convert2_xn: stage 1, partition 0 (group 0)
        mbarrier.wait(wt_83_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_85 = warpgroup_mma(xn_74, wt_83_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), acc_85_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        acc_85 = warpgroup_mma_wait(0, deps=(tok_acc_85,))
        mbarrier.arrive(wt_83_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        acc_85_p1 = acc_85
        gk_67_p1 = gk_67
        xt_64_p1 = xt_64
        wt_83_buf._keep_alive()
        acc_49 = gl.expand_dims(rstd_30, 1)
        acc_50 = gl.convert_layout(acc_49, L4)
        acc_51 = acc_50.broadcast_to([128, 128])
        acc_52 = acc_85_p1 * acc_51
        v0 = gl.expand_dims(row_ok_14, 1)
        v1 = gl.expand_dims(offs_n_10, 0)
        v3 = v1 < N
        v4 = v0.broadcast_to([128, 128])
        v5 = v3.broadcast_to([128, 128])
        v6 = v4 & v5
        v7 = gl.expand_dims(offs_m_8, 1)
        v9 = v7 * N
        v11 = y + v9
        v12 = v11.broadcast_to([128, 128])
        v13 = v1.broadcast_to([128, 128])
        v14 = v12 + v13
        v15 = acc_52.to(gl.float16)
        v16 = gl.convert_layout(v15, L7)
        gl.store(v14, v16, mask=v6)
        twill_base += twill_n

@gluon.jit
def producer_1(x, g, w, y, M, N, K, eps, twill_g0, twill_g1, twill_g2, twill_box_wt_83, wt_83_buf, wt_83_ready, wt_83_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_n = twill_pid1
        offs_m_4 = gl.arange(0, 128, layout=L2)
        offs_n = pid_n * 128
        offs_n_10 = offs_n + offs_m_4
        offs_k_11 = gl.arange(0, 64, layout=L1)
        wt_41 = gl.expand_dims(offs_n_10, 0)
        wt_43 = wt_41 < N
        wt_44 = wt_43.broadcast_to([64, 128])
        wt_47 = wt_41.broadcast_to([64, 128])
        for acc_53 in range(0, K, 64):
            twill_k = twill_base + (acc_53 - 0) // 64
            kk_57 = acc_53 + offs_k_11
            wt_75 = gl.expand_dims(kk_57, 1)
            wt_76 = wt_75 < K
            wt_77 = wt_76.broadcast_to([64, 128])
            wt_78 = wt_77 & wt_44
            wt_79 = wt_75 * N
            wt_80 = w + wt_79
            wt_81 = wt_80.broadcast_to([64, 128])
            wt_82 = wt_81 + wt_47
            mbarrier.wait(wt_83_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(wt_83_ready.index(twill_k % 4), twill_box_wt_83.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_wt_83, [64 * ((acc_53 - 0) // 64), 128 * pid_n], wt_83_ready.index(twill_k % 4), wt_83_buf.index(twill_k % 4))  # load2_wt: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(wt_83_buf.index(twill_k % 4), wt_82, mask=wt_78)  # load2_wt: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(wt_83_ready.index(twill_k % 4), increment_count=False)
                else:
                    wt_83_buf.index(twill_k % 4).store(gl.load(wt_82, mask=wt_78, other=0.0))  # load2_wt: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(wt_83_ready.index(twill_k % 4), count=256)
        twill_base += (K - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(x, g, w, y, M, N, K, eps, twill_g0, twill_g1, twill_g2, twill_box_wt_83, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    wt_83_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    wt_83_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(wt_83_ready.index(i), count=1 if TWILL_TMA else 256)
    wt_83_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(wt_83_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x, g, w, y, M, N, K, eps, twill_g0, twill_g1, twill_g2, twill_box_wt_83, wt_83_buf, wt_83_ready, wt_83_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (x, g, w, y, M, N, K, eps, twill_g0, twill_g1, twill_g2, twill_box_wt_83, wt_83_buf, wt_83_ready, wt_83_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x', 'g', 'w', 'y', 'M', 'N', 'K', 'eps', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x', 'g', 'w', 'y', 'M', 'N', 'K', 'eps', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_wt_83']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x', 'g', 'w', 'y', 'M', 'N', 'K', 'eps', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_wt_83': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_wt_83': ('w', ['N', '1'], ['K', 'N'], [64, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['w', 'N']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((K + 64 - 1) // 64): run the Triton kernel for it")
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
