"""_kernel_matmul_fp8_row, written by twill from its joint schedule: I=201 L=277 (optimal), 1600 cycles per iteration predicted.

Decisions (each from the schedule):
- a_43 copied with cp.async at every launch, not by TMA: its addresses go through scf.if (%5#3), which the analysis does not follow
- b_48 copied with cp.async at every launch, not by TMA: its addresses go through arith.select (%ki_20), which the analysis does not follow
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_43, b_48): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 104): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_43: 4 buffers of [128, 128] f8E4M3FN (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring b_48: 4 buffers of [128, 128] f8E4M3FN (the loads run 3 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 131216 bytes planned of 232448; maxnreg 128
- if at fbgemm_fp8_row_persistent.py:56 (TTGIR line 50): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 32])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 32])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 32]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L9 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))

@gluon.jit
def consumer_0(A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, a_43_buf, b_48_buf, a_43_ready, a_43_empty, b_48_ready, b_48_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_4 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_5 = num_pid_n // 128
        k_tiles = K + 127
        k_tiles_6 = k_tiles // 128
        num_tiles = num_pid_m_4 * num_pid_n_5
        tiles_per_SM = num_tiles // 132
        v0 = num_tiles % 132
        v1 = start_pid < v0
        if v1:
            tiles_per_SM_18 = tiles_per_SM + 1
            v2 = tiles_per_SM_18
        else:
            v2 = tiles_per_SM
        tile_id = start_pid - 132
        offs_k_for_mask = gl.arange(0, 128, layout=L0)
        offs_k_for_mask_8 = gl.arange(0, 128, layout=L1)
        offs_k_for_mask_9 = gl.arange(0, 128, layout=L2)
        offs_k_for_mask_11 = gl.arange(0, 128, layout=L3)
        offs_k_for_mask_12 = gl.arange(0, 128, layout=L4)
        offs_k_for_mask_13 = gl.arange(0, 128, layout=L5)
        num_pid_in_group = num_pid_n_5 * 8
        v3 = k_tiles_6 * v2
        ki_14 = k_tiles_6 - 1
        twill_n = (v3 - 0 + 1 - 1) // 1
        v5_r0 = tile_id
        ki_20 = -1
        v5_r1 = 0
        v5_r2 = 0
        acc_50 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
        v5_r3 = offs_k_for_mask
        v5_r4 = offs_k_for_mask_11
        acc_51 = False
        acc_50_p1 = acc_50
        acc_51_p1 = acc_51
        ki_20_p1 = ki_20
        v5_r0_p1 = v5_r0
        v5_r1_p1 = v5_r1
        v5_r2_p1 = v5_r2
        v5_r3_p1 = v5_r3
        v5_r4_p1 = v5_r4
        for twill_b in range(0, twill_n):
            ki_18 = ki_20_p1 == ki_14  # broadcast0_ki: stage 0, partition 0 (group 0)
            ki_19 = ki_20_p1 + 1  # broadcast0_ki: stage 0, partition 0 (group 0)
            ki_20 = gl.where(ki_18, 0, ki_19)  # broadcast0_ki: stage 0, partition 0 (group 0)
            mbarrier.wait(a_43_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(b_48_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_50 = warpgroup_mma(a_43_buf.index((twill_base + twill_b - 0) % 4), b_48_buf.index((twill_base + twill_b - 0) % 4), acc_50_p1, use_acc=acc_51_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_51 = ki_20 != ki_14  # dot0_acc: stage 0, partition 0 (group 0)
            v4 = ki_20 == 0  # load0_a: stage 0, partition 0 (group 0)
            if v4:  # load0_a: stage 0, partition 0 (group 0)
                tile_id_52 = v5_r0_p1 + 132  # load0_a: stage 0, partition 0 (group 0)
                group_id = tile_id_52 // num_pid_in_group  # load0_a: stage 0, partition 0 (group 0)
                first_pid_m = group_id * 8  # load0_a: stage 0, partition 0 (group 0)
                group_size_m = num_pid_m_4 - first_pid_m  # load0_a: stage 0, partition 0 (group 0)
                group_size_m_53 = gl.minimum(group_size_m, 8)  # load0_a: stage 0, partition 0 (group 0)
                pid_m = tile_id_52 % group_size_m_53  # load0_a: stage 0, partition 0 (group 0)
                pid_m_54 = first_pid_m + pid_m  # load0_a: stage 0, partition 0 (group 0)
                pid_n = tile_id_52 % num_pid_in_group  # load0_a: stage 0, partition 0 (group 0)
                pid_n_55 = pid_n // group_size_m_53  # load0_a: stage 0, partition 0 (group 0)
                start_m = pid_m_54 * 128  # load0_a: stage 0, partition 0 (group 0)
                start_n = pid_n_55 * 128  # load0_a: stage 0, partition 0 (group 0)
                offs_am_56 = start_m + offs_k_for_mask  # load0_a: stage 0, partition 0 (group 0)
                offs_bn_57 = start_n + offs_k_for_mask_11  # load0_a: stage 0, partition 0 (group 0)
                offs_am_59 = offs_am_56 < M  # load0_a: stage 0, partition 0 (group 0)
                offs_am_60 = gl.where(offs_am_59, offs_am_56, 0)  # load0_a: stage 0, partition 0 (group 0)
                offs_am_60 = gl.max_contiguous(gl.multiple_of(offs_am_60, [128]), [128])  # load0_a: stage 0, partition 0 (group 0)
                offs_bn_62 = offs_bn_57 < N  # load0_a: stage 0, partition 0 (group 0)
                offs_bn_63 = gl.where(offs_bn_62, offs_bn_57, 0)  # load0_a: stage 0, partition 0 (group 0)
                offs_bn_63 = gl.max_contiguous(gl.multiple_of(offs_bn_63, [128]), [128])  # load0_a: stage 0, partition 0 (group 0)
                v5_r0 = tile_id_52  # load0_a: stage 0, partition 0 (group 0)
                v5_r1 = pid_m_54  # load0_a: stage 0, partition 0 (group 0)
                v5_r2 = pid_n_55  # load0_a: stage 0, partition 0 (group 0)
                v5_r3 = offs_am_60  # load0_a: stage 0, partition 0 (group 0)
                v5_r4 = offs_bn_63  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                v5_r0 = v5_r0_p1  # load0_a: stage 0, partition 0 (group 0)
                v5_r1 = v5_r1_p1  # load0_a: stage 0, partition 0 (group 0)
                v5_r2 = v5_r2_p1  # load0_a: stage 0, partition 0 (group 0)
                v5_r3 = v5_r3_p1  # load0_a: stage 0, partition 0 (group 0)
                v5_r4 = v5_r4_p1  # load0_a: stage 0, partition 0 (group 0)
            v6 = ki_20 == ki_14  # store0: stage 0, partition 0 (group 0)
            if v6:  # store0: stage 0, partition 0 (group 0)
                acc_50_w = warpgroup_mma_wait(0, deps=(tok_acc_50,))  # store0: stage 0, partition 0 (group 0)
                rm = v5_r1 * 128  # store0: stage 0, partition 0 (group 0)
                rm_54 = rm + offs_k_for_mask_8  # store0: stage 0, partition 0 (group 0)
                rm_55 = rm + offs_k_for_mask_9  # store0: stage 0, partition 0 (group 0)
                rn = v5_r2 * 128  # store0: stage 0, partition 0 (group 0)
                rn_58 = rn + offs_k_for_mask_12  # store0: stage 0, partition 0 (group 0)
                rn_59 = rn + offs_k_for_mask_13  # store0: stage 0, partition 0 (group 0)
                b_scale_61 = rn_58 < N  # store0: stage 0, partition 0 (group 0)
                b_scale_62 = rn_59 < N  # store0: stage 0, partition 0 (group 0)
                b_scale_64 = B_scale + rn_58  # store0: stage 0, partition 0 (group 0)
                b_scale_65 = gl.load(b_scale_64, mask=b_scale_61)  # store0: stage 0, partition 0 (group 0)
                a_scale_67 = rm_54 < M  # store0: stage 0, partition 0 (group 0)
                a_scale_68 = rm_55 < M  # store0: stage 0, partition 0 (group 0)
                a_scale_70 = A_scale + rm_54  # store0: stage 0, partition 0 (group 0)
                a_scale_71 = gl.load(a_scale_70, mask=a_scale_67)  # store0: stage 0, partition 0 (group 0)
                scale = gl.expand_dims(a_scale_71, 1)  # store0: stage 0, partition 0 (group 0)
                scale_72 = gl.expand_dims(b_scale_65, 0)  # store0: stage 0, partition 0 (group 0)
                scale_73 = scale.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                scale_74 = scale_72.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                scale_75 = scale_73 * scale_74  # store0: stage 0, partition 0 (group 0)
                acc_76 = acc_50_w * scale_75  # store0: stage 0, partition 0 (group 0)
                bias_77 = Bias + rn_58  # store0: stage 0, partition 0 (group 0)
                bias_78 = gl.load(bias_77, mask=b_scale_61)  # store0: stage 0, partition 0 (group 0)
                acc_79 = gl.expand_dims(bias_78, 0)  # store0: stage 0, partition 0 (group 0)
                acc_80 = acc_79.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                acc_81 = acc_76 + acc_80  # store0: stage 0, partition 0 (group 0)
                acc_82 = acc_81.to(gl.bfloat16)  # store0: stage 0, partition 0 (group 0)
                C = gl.expand_dims(rm_55, 1)  # store0: stage 0, partition 0 (group 0)
                C_84 = C * stride_cm  # store0: stage 0, partition 0 (group 0)
                C_85 = gl.expand_dims(rn_59, 0)  # store0: stage 0, partition 0 (group 0)
                C_86 = C_84.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                C_87 = C_85.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                C_88 = C_86 + C_87  # store0: stage 0, partition 0 (group 0)
                C_90 = C_ptr + C_88  # store0: stage 0, partition 0 (group 0)
                mask = gl.expand_dims(a_scale_68, 1)  # store0: stage 0, partition 0 (group 0)
                mask_91 = gl.expand_dims(b_scale_62, 0)  # store0: stage 0, partition 0 (group 0)
                mask_92 = mask.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                mask_93 = mask_91.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                mask_94 = mask_92 & mask_93  # store0: stage 0, partition 0 (group 0)
                v7 = gl.convert_layout(acc_82, L7)  # store0: stage 0, partition 0 (group 0)
                gl.store(C_90, v7, mask=mask_94)  # store0: stage 0, partition 0 (group 0)
            acc_50_p1 = warpgroup_mma_wait(1, deps=(acc_50_p1,))
            mbarrier.arrive(a_43_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_48_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_50 = warpgroup_mma_wait(1, deps=(tok_acc_50,))
            acc_50_p1 = acc_50
            acc_51_p1 = acc_51
            ki_20_p1 = ki_20
            v5_r0_p1 = v5_r0
            v5_r1_p1 = v5_r1
            v5_r2_p1 = v5_r2
            v5_r3_p1 = v5_r3
            v5_r4_p1 = v5_r4
        acc_50_p1 = warpgroup_mma_wait(0, deps=(acc_50_p1,))
        a_43_buf._keep_alive()
        b_48_buf._keep_alive()
        mbarrier.arrive(a_43_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(b_48_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        twill_base += twill_n

@gluon.jit
def producer_1(A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, a_43_buf, b_48_buf, a_43_ready, a_43_empty, b_48_ready, b_48_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_4 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_5 = num_pid_n // 128
        k_tiles = K + 127
        k_tiles_6 = k_tiles // 128
        num_tiles = num_pid_m_4 * num_pid_n_5
        tiles_per_SM = num_tiles // 132
        v0 = num_tiles % 132
        v1 = start_pid < v0
        if v1:
            tiles_per_SM_18 = tiles_per_SM + 1
            v2 = tiles_per_SM_18
        else:
            v2 = tiles_per_SM
        tile_id = start_pid - 132
        offs_k_for_mask = gl.arange(0, 128, layout=L0)
        offs_k_for_mask_7 = gl.arange(0, 128, layout=L8)
        offs_k_for_mask_10 = gl.arange(0, 128, layout=L9)
        offs_k_for_mask_11 = gl.arange(0, 128, layout=L3)
        num_pid_in_group = num_pid_n_5 * 8
        v3 = k_tiles_6 * v2
        ki_14 = k_tiles_6 - 1
        a = gl.expand_dims(offs_k_for_mask_10, 0)
        b = gl.expand_dims(offs_k_for_mask_7, 1)
        arg16 = tile_id
        arg17 = -1
        arg18 = 0
        arg19 = 0
        arg21 = offs_k_for_mask
        arg22 = offs_k_for_mask_11
        for arg15 in range(0, v3, 1):
            twill_k = twill_base + (arg15 - 0) // 1
            ki_18 = arg17 == ki_14
            ki_19 = arg17 + 1
            ki_20 = gl.where(ki_18, 0, ki_19)
            v4 = ki_20 == 0
            if v4:
                tile_id_52 = arg16 + 132
                group_id = tile_id_52 // num_pid_in_group
                first_pid_m = group_id * 8
                group_size_m = num_pid_m_4 - first_pid_m
                group_size_m_53 = gl.minimum(group_size_m, 8)
                pid_m = tile_id_52 % group_size_m_53
                pid_m_54 = first_pid_m + pid_m
                pid_n = tile_id_52 % num_pid_in_group
                pid_n_55 = pid_n // group_size_m_53
                start_m = pid_m_54 * 128
                start_n = pid_n_55 * 128
                offs_am_56 = start_m + offs_k_for_mask
                offs_bn_57 = start_n + offs_k_for_mask_11
                offs_am_59 = offs_am_56 < M
                offs_am_60 = gl.where(offs_am_59, offs_am_56, 0)
                offs_am_60 = gl.max_contiguous(gl.multiple_of(offs_am_60, [128]), [128])
                offs_bn_62 = offs_bn_57 < N
                offs_bn_63 = gl.where(offs_bn_62, offs_bn_57, 0)
                offs_bn_63 = gl.max_contiguous(gl.multiple_of(offs_bn_63, [128]), [128])
                v5_r0 = tile_id_52
                v5_r1 = pid_m_54
                v5_r2 = pid_n_55
                v5_r3 = offs_am_60
                v5_r4 = offs_bn_63
            else:
                v5_r0 = arg16
                v5_r1 = arg18
                v5_r2 = arg19
                v5_r3 = arg21
                v5_r4 = arg22
            offs_k = ki_20 * 128
            offs_k_23 = offs_k + offs_k_for_mask_10
            offs_k_24 = offs_k + offs_k_for_mask_7
            A_25 = gl.expand_dims(v5_r3, 1)
            A_26 = A_25 * stride_am
            A_27 = gl.expand_dims(offs_k_23, 0)
            A_28 = A_26.broadcast_to([128, 128])
            A_29 = A_27.broadcast_to([128, 128])
            A_30 = A_28 + A_29
            A_31 = A_ptr + A_30
            B_32 = gl.expand_dims(offs_k_24, 1)
            B_33 = gl.expand_dims(v5_r4, 0)
            B_34 = B_33 * stride_bn
            B_35 = B_32.broadcast_to([128, 128])
            B_36 = B_34.broadcast_to([128, 128])
            B_37 = B_35 + B_36
            B_38 = B_ptr + B_37
            a_39 = K - offs_k
            a_41 = a < a_39
            a_42 = a_41.broadcast_to([128, 128])
            b_46 = b < a_39
            b_47 = b_46.broadcast_to([128, 128])
            mbarrier.wait(a_43_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_43_buf.index(twill_k % 4), A_31, mask=a_42)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_43_ready.index(twill_k % 4), increment_count=False)
            else:
                a_43_buf.index(twill_k % 4).store(gl.load(A_31, mask=a_42, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_43_ready.index(twill_k % 4), count=256)
            mbarrier.wait(b_48_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_48_buf.index(twill_k % 4), B_38, mask=b_47)  # load1_b: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_48_ready.index(twill_k % 4), increment_count=False)
            else:
                b_48_buf.index(twill_k % 4).store(gl.load(B_38, mask=b_47, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_48_ready.index(twill_k % 4), count=256)
            arg16 = v5_r0
            arg17 = ki_20
            arg18 = v5_r1
            arg19 = v5_r2
            arg21 = v5_r3
            arg22 = v5_r4
        twill_base += (v3 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    a_43_buf = gl.allocate_shared_memory(gl.float8e4nv, [4, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    b_48_buf = gl.allocate_shared_memory(gl.float8e4nv, [4, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True))
    a_43_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_43_ready.index(i), count=256)
    a_43_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_43_empty.index(i), count=1)
    b_48_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_48_ready.index(i), count=256)
    b_48_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_48_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, a_43_buf, b_48_buf, a_43_ready, a_43_empty, b_48_ready, b_48_empty, TWILL_COPY)),
        (producer_1, (A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, a_43_buf, b_48_buf, a_43_ready, a_43_empty, b_48_ready, b_48_empty, TWILL_COPY)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A_ptr', 'B_ptr', 'C_ptr', 'M', 'N', 'K', 'm_key', 'n_key', 'k_key', 'A_scale', 'B_scale', 'Bias', 'stride_am', 'stride_ak', 'stride_bn', 'stride_bk', 'stride_cm', 'stride_cn', 'dot_out_dtype', 'allow_tf32', 'fp8_fast_accum', 'skip_scaling_a', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M', 'SPLIT_K', 'USE_BIAS', 'AB_DTYPE', 'NUM_SMS']          # the Triton kernel's parameters, in order
RUNTIME = ['A_ptr', 'B_ptr', 'C_ptr', 'M', 'N', 'K', 'm_key', 'n_key', 'k_key', 'A_scale', 'B_scale', 'Bias', 'stride_am', 'stride_bn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A_ptr', 'B_ptr', 'C_ptr', 'M', 'N', 'K', 'm_key', 'n_key', 'k_key', 'A_scale', 'B_scale', 'Bias', 'stride_am', 'stride_bn', 'stride_cm', 'dot_out_dtype', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'allow_tf32': True, 'fp8_fast_accum': True, 'skip_scaling_a': False, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 128, 'GROUP_M': 8, 'SPLIT_K': 1, 'USE_BIAS': True, 'AB_DTYPE': False, 'NUM_SMS': 132}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A_ptr', 'B_ptr', 'K', 'stride_am', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
