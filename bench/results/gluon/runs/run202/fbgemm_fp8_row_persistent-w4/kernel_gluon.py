"""_kernel_matmul_fp8_row, written by twill from its joint schedule: I=201 L=277 (optimal), 1600 cycles per iteration predicted.

Decisions (each from the schedule):
- a_42 copied with cp.async at every launch, not by TMA: its addresses go through scf.if (%5#3), which the analysis does not follow
- b_47 copied with cp.async at every launch, not by TMA: its addresses go through arith.select (%ki_19), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_42, b_47): their addresses and masks spread over 128 threads
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring a_42: 3 buffers of [128, 128] f8E4M3FN (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring b_47: 3 buffers of [128, 128] f8E4M3FN (the loads run 2 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 98416 bytes planned of 232448; maxnreg 256
- if at fbgemm_fp8_row_persistent.py:56 (TTGIR line 52): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 32]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L9 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L10 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, a_42_buf, b_47_buf, a_42_ready, a_42_empty, b_47_ready, b_47_empty, TWILL_COPY: gl.constexpr):
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
            tiles_per_SM_17 = tiles_per_SM + 1
            v2 = tiles_per_SM_17
        else:
            v2 = tiles_per_SM
        tile_id = start_pid - 132
        offs_k_for_mask = gl.arange(0, 128, layout=L0)
        offs_k_for_mask_8 = gl.arange(0, 128, layout=L1)
        offs_k_for_mask_10 = gl.arange(0, 128, layout=L2)
        offs_k_for_mask_11 = gl.arange(0, 128, layout=L3)
        offs_k_for_mask_12 = gl.arange(0, 128, layout=L4)
        num_pid_in_group = num_pid_n_5 * 8
        v3 = k_tiles_6 * v2
        ki_13 = k_tiles_6 - 1
        twill_n = (v3 - 0 + 1 - 1) // 1
        v5_r0 = tile_id
        ki_19 = -1
        v5_r1 = 0
        v5_r2 = 0
        acc_49 = gl.full([128, 128], 0.0, gl.float32, layout=L5)
        v5_r3 = offs_k_for_mask
        v5_r4 = offs_k_for_mask_10
        acc_50 = False
        acc_49_p1 = acc_49
        acc_50_p1 = acc_50
        ki_19_p1 = ki_19
        v5_r0_p1 = v5_r0
        v5_r1_p1 = v5_r1
        v5_r2_p1 = v5_r2
        v5_r3_p1 = v5_r3
        v5_r4_p1 = v5_r4
        for twill_b in range(0, twill_n):
            ki_17 = ki_19_p1 == ki_13  # broadcast0_ki: stage 0, partition 0 (group 0)
            ki_18 = ki_19_p1 + 1  # broadcast0_ki: stage 0, partition 0 (group 0)
            ki_19 = gl.where(ki_17, 0, ki_18)  # broadcast0_ki: stage 0, partition 0 (group 0)
            mbarrier.wait(a_42_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            mbarrier.wait(b_47_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            tok_acc_49 = warpgroup_mma(a_42_buf.index((twill_base + twill_b - 0) % 3), b_47_buf.index((twill_base + twill_b - 0) % 3), acc_49_p1, use_acc=acc_50_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_50 = ki_19 != ki_13  # dot0_acc: stage 0, partition 0 (group 0)
            v4 = ki_19 == 0  # load0_a: stage 0, partition 0 (group 0)
            if v4:  # load0_a: stage 0, partition 0 (group 0)
                tile_id_51 = v5_r0_p1 + 132  # load0_a: stage 0, partition 0 (group 0)
                group_id = tile_id_51 // num_pid_in_group  # load0_a: stage 0, partition 0 (group 0)
                first_pid_m = group_id * 8  # load0_a: stage 0, partition 0 (group 0)
                group_size_m = num_pid_m_4 - first_pid_m  # load0_a: stage 0, partition 0 (group 0)
                group_size_m_52 = gl.minimum(group_size_m, 8)  # load0_a: stage 0, partition 0 (group 0)
                pid_m = tile_id_51 % group_size_m_52  # load0_a: stage 0, partition 0 (group 0)
                pid_m_53 = first_pid_m + pid_m  # load0_a: stage 0, partition 0 (group 0)
                pid_n = tile_id_51 % num_pid_in_group  # load0_a: stage 0, partition 0 (group 0)
                pid_n_54 = pid_n // group_size_m_52  # load0_a: stage 0, partition 0 (group 0)
                start_m = pid_m_53 * 128  # load0_a: stage 0, partition 0 (group 0)
                start_n = pid_n_54 * 128  # load0_a: stage 0, partition 0 (group 0)
                offs_am_55 = start_m + offs_k_for_mask  # load0_a: stage 0, partition 0 (group 0)
                offs_bn_56 = start_n + offs_k_for_mask_10  # load0_a: stage 0, partition 0 (group 0)
                offs_am_58 = offs_am_55 < M  # load0_a: stage 0, partition 0 (group 0)
                offs_am_59 = gl.where(offs_am_58, offs_am_55, 0)  # load0_a: stage 0, partition 0 (group 0)
                offs_am_59 = gl.max_contiguous(gl.multiple_of(offs_am_59, [128]), [128])  # load0_a: stage 0, partition 0 (group 0)
                offs_bn_61 = offs_bn_56 < N  # load0_a: stage 0, partition 0 (group 0)
                offs_bn_62 = gl.where(offs_bn_61, offs_bn_56, 0)  # load0_a: stage 0, partition 0 (group 0)
                offs_bn_62 = gl.max_contiguous(gl.multiple_of(offs_bn_62, [128]), [128])  # load0_a: stage 0, partition 0 (group 0)
                v5_r0 = tile_id_51  # load0_a: stage 0, partition 0 (group 0)
                v5_r1 = pid_m_53  # load0_a: stage 0, partition 0 (group 0)
                v5_r2 = pid_n_54  # load0_a: stage 0, partition 0 (group 0)
                v5_r3 = offs_am_59  # load0_a: stage 0, partition 0 (group 0)
                v5_r4 = offs_bn_62  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                v5_r0 = v5_r0_p1  # load0_a: stage 0, partition 0 (group 0)
                v5_r1 = v5_r1_p1  # load0_a: stage 0, partition 0 (group 0)
                v5_r2 = v5_r2_p1  # load0_a: stage 0, partition 0 (group 0)
                v5_r3 = v5_r3_p1  # load0_a: stage 0, partition 0 (group 0)
                v5_r4 = v5_r4_p1  # load0_a: stage 0, partition 0 (group 0)
            v6 = ki_19 == ki_13  # store0: stage 0, partition 0 (group 0)
            if v6:  # store0: stage 0, partition 0 (group 0)
                acc_49_w = warpgroup_mma_wait(0, deps=(tok_acc_49,))  # store0: stage 0, partition 0 (group 0)
                rm = v5_r1 * 128  # store0: stage 0, partition 0 (group 0)
                rm_53 = rm + offs_k_for_mask_8  # store0: stage 0, partition 0 (group 0)
                rm_54 = rm + offs_k_for_mask_12  # store0: stage 0, partition 0 (group 0)
                rn = v5_r2 * 128  # store0: stage 0, partition 0 (group 0)
                rn_57 = rn + offs_k_for_mask_11  # store0: stage 0, partition 0 (group 0)
                rn_58 = rn + offs_k_for_mask_12  # store0: stage 0, partition 0 (group 0)
                b_scale_60 = rn_57 < N  # store0: stage 0, partition 0 (group 0)
                b_scale_61 = rn_58 < N  # store0: stage 0, partition 0 (group 0)
                b_scale_63 = B_scale + rn_58  # store0: stage 0, partition 0 (group 0)
                b_scale_64 = gl.load(b_scale_63, mask=b_scale_61)  # store0: stage 0, partition 0 (group 0)
                a_scale_66 = rm_53 < M  # store0: stage 0, partition 0 (group 0)
                a_scale_67 = rm_54 < M  # store0: stage 0, partition 0 (group 0)
                a_scale_69 = A_scale + rm_54  # store0: stage 0, partition 0 (group 0)
                a_scale_70 = gl.load(a_scale_69, mask=a_scale_67)  # store0: stage 0, partition 0 (group 0)
                scale = gl.convert_layout(a_scale_70, L6)  # store0: stage 0, partition 0 (group 0)
                scale_71 = gl.expand_dims(scale, 1)  # store0: stage 0, partition 0 (group 0)
                scale_72 = gl.convert_layout(b_scale_64, L7)  # store0: stage 0, partition 0 (group 0)
                scale_73 = gl.expand_dims(scale_72, 0)  # store0: stage 0, partition 0 (group 0)
                scale_74 = scale_71.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                scale_75 = scale_73.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                scale_76 = scale_74 * scale_75  # store0: stage 0, partition 0 (group 0)
                scale_77 = gl.convert_layout(scale_76, L5)  # store0: stage 0, partition 0 (group 0)
                acc_78 = acc_49_w * scale_77  # store0: stage 0, partition 0 (group 0)
                bias_79 = Bias + rn_58  # store0: stage 0, partition 0 (group 0)
                bias_80 = gl.load(bias_79, mask=b_scale_61)  # store0: stage 0, partition 0 (group 0)
                acc_81 = gl.convert_layout(bias_80, L7)  # store0: stage 0, partition 0 (group 0)
                acc_82 = gl.expand_dims(acc_81, 0)  # store0: stage 0, partition 0 (group 0)
                acc_83 = acc_82.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                acc_84 = gl.convert_layout(acc_82, L5).broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                acc_85 = acc_78 + acc_84  # store0: stage 0, partition 0 (group 0)
                acc_86 = acc_85.to(gl.bfloat16)  # store0: stage 0, partition 0 (group 0)
                C = gl.expand_dims(rm_53, 1)  # store0: stage 0, partition 0 (group 0)
                C_88 = C * stride_cm  # store0: stage 0, partition 0 (group 0)
                C_89 = gl.expand_dims(rn_57, 0)  # store0: stage 0, partition 0 (group 0)
                C_90 = C_88.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                C_91 = C_89.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                C_92 = C_90 + C_91  # store0: stage 0, partition 0 (group 0)
                C_94 = C_ptr + C_92  # store0: stage 0, partition 0 (group 0)
                mask = gl.expand_dims(a_scale_66, 1)  # store0: stage 0, partition 0 (group 0)
                mask_95 = gl.expand_dims(b_scale_60, 0)  # store0: stage 0, partition 0 (group 0)
                mask_96 = mask.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                mask_97 = mask_95.broadcast_to([128, 128])  # store0: stage 0, partition 0 (group 0)
                mask_98 = mask_96 & mask_97  # store0: stage 0, partition 0 (group 0)
                v7 = gl.convert_layout(acc_86, L8)  # store0: stage 0, partition 0 (group 0)
                gl.store(C_94, v7, mask=mask_98)  # store0: stage 0, partition 0 (group 0)
            acc_49_p1 = warpgroup_mma_wait(1, deps=(acc_49_p1,))
            mbarrier.arrive(a_42_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_47_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            acc_49 = warpgroup_mma_wait(1, deps=(tok_acc_49,))
            acc_49_p1 = acc_49
            acc_50_p1 = acc_50
            ki_19_p1 = ki_19
            v5_r0_p1 = v5_r0
            v5_r1_p1 = v5_r1
            v5_r2_p1 = v5_r2
            v5_r3_p1 = v5_r3
            v5_r4_p1 = v5_r4
        acc_49_p1 = warpgroup_mma_wait(0, deps=(acc_49_p1,))
        a_42_buf._keep_alive()
        b_47_buf._keep_alive()
        mbarrier.arrive(a_42_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        mbarrier.arrive(b_47_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        twill_base += twill_n

@gluon.jit
def producer_1(A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, a_42_buf, b_47_buf, a_42_ready, a_42_empty, b_47_ready, b_47_empty, TWILL_COPY: gl.constexpr):
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
            tiles_per_SM_17 = tiles_per_SM + 1
            v2 = tiles_per_SM_17
        else:
            v2 = tiles_per_SM
        tile_id = start_pid - 132
        offs_k_for_mask = gl.arange(0, 128, layout=L0)
        offs_k_for_mask_7 = gl.arange(0, 128, layout=L9)
        offs_k_for_mask_9 = gl.arange(0, 128, layout=L10)
        offs_k_for_mask_10 = gl.arange(0, 128, layout=L2)
        num_pid_in_group = num_pid_n_5 * 8
        v3 = k_tiles_6 * v2
        ki_13 = k_tiles_6 - 1
        a = gl.expand_dims(offs_k_for_mask_9, 0)
        b = gl.expand_dims(offs_k_for_mask_7, 1)
        arg16 = tile_id
        arg17 = -1
        arg18 = 0
        arg19 = 0
        arg21 = offs_k_for_mask
        arg22 = offs_k_for_mask_10
        for arg15 in range(0, v3, 1):
            twill_k = twill_base + (arg15 - 0) // 1
            ki_17 = arg17 == ki_13
            ki_18 = arg17 + 1
            ki_19 = gl.where(ki_17, 0, ki_18)
            v4 = ki_19 == 0
            if v4:
                tile_id_51 = arg16 + 132
                group_id = tile_id_51 // num_pid_in_group
                first_pid_m = group_id * 8
                group_size_m = num_pid_m_4 - first_pid_m
                group_size_m_52 = gl.minimum(group_size_m, 8)
                pid_m = tile_id_51 % group_size_m_52
                pid_m_53 = first_pid_m + pid_m
                pid_n = tile_id_51 % num_pid_in_group
                pid_n_54 = pid_n // group_size_m_52
                start_m = pid_m_53 * 128
                start_n = pid_n_54 * 128
                offs_am_55 = start_m + offs_k_for_mask
                offs_bn_56 = start_n + offs_k_for_mask_10
                offs_am_58 = offs_am_55 < M
                offs_am_59 = gl.where(offs_am_58, offs_am_55, 0)
                offs_am_59 = gl.max_contiguous(gl.multiple_of(offs_am_59, [128]), [128])
                offs_bn_61 = offs_bn_56 < N
                offs_bn_62 = gl.where(offs_bn_61, offs_bn_56, 0)
                offs_bn_62 = gl.max_contiguous(gl.multiple_of(offs_bn_62, [128]), [128])
                v5_r0 = tile_id_51
                v5_r1 = pid_m_53
                v5_r2 = pid_n_54
                v5_r3 = offs_am_59
                v5_r4 = offs_bn_62
            else:
                v5_r0 = arg16
                v5_r1 = arg18
                v5_r2 = arg19
                v5_r3 = arg21
                v5_r4 = arg22
            offs_k = ki_19 * 128
            offs_k_22 = offs_k + offs_k_for_mask_9
            offs_k_23 = offs_k + offs_k_for_mask_7
            A_24 = gl.expand_dims(v5_r3, 1)
            A_25 = A_24 * stride_am
            A_26 = gl.expand_dims(offs_k_22, 0)
            A_27 = A_25.broadcast_to([128, 128])
            A_28 = A_26.broadcast_to([128, 128])
            A_29 = A_27 + A_28
            A_30 = A_ptr + A_29
            B_31 = gl.expand_dims(offs_k_23, 1)
            B_32 = gl.expand_dims(v5_r4, 0)
            B_33 = B_32 * stride_bn
            B_34 = B_31.broadcast_to([128, 128])
            B_35 = B_33.broadcast_to([128, 128])
            B_36 = B_34 + B_35
            B_37 = B_ptr + B_36
            a_38 = K - offs_k
            a_40 = a < a_38
            a_41 = a_40.broadcast_to([128, 128])
            b_45 = b < a_38
            b_46 = b_45.broadcast_to([128, 128])
            mbarrier.wait(a_42_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_42_buf.index(twill_k % 3), A_30, mask=a_41)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_42_ready.index(twill_k % 3), increment_count=False)
            else:
                a_42_buf.index(twill_k % 3).store(gl.load(A_30, mask=a_41, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_42_ready.index(twill_k % 3), count=128)
            mbarrier.wait(b_47_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_47_buf.index(twill_k % 3), B_37, mask=b_46)  # load1_b: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_47_ready.index(twill_k % 3), increment_count=False)
            else:
                b_47_buf.index(twill_k % 3).store(gl.load(B_37, mask=b_46, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_47_ready.index(twill_k % 3), count=128)
            arg16 = v5_r0
            arg17 = ki_19
            arg18 = v5_r1
            arg19 = v5_r2
            arg21 = v5_r3
            arg22 = v5_r4
        twill_base += (v3 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    a_42_buf = gl.allocate_shared_memory(gl.float8e4nv, [3, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    b_47_buf = gl.allocate_shared_memory(gl.float8e4nv, [3, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True))
    a_42_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_42_ready.index(i), count=128)
    a_42_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_42_empty.index(i), count=1)
    b_47_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_47_ready.index(i), count=128)
    b_47_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_47_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, a_42_buf, b_47_buf, a_42_ready, a_42_empty, b_47_ready, b_47_empty, TWILL_COPY)),
        (producer_1, (A_ptr, B_ptr, C_ptr, M, N, K, m_key, n_key, k_key, A_scale, B_scale, Bias, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, a_42_buf, b_47_buf, a_42_ready, a_42_empty, b_47_ready, b_47_empty, TWILL_COPY)),
    ], [4], [88])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A_ptr', 'B_ptr', 'C_ptr', 'M', 'N', 'K', 'm_key', 'n_key', 'k_key', 'A_scale', 'B_scale', 'Bias', 'stride_am', 'stride_ak', 'stride_bn', 'stride_bk', 'stride_cm', 'stride_cn', 'dot_out_dtype', 'allow_tf32', 'fp8_fast_accum', 'skip_scaling_a', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M', 'SPLIT_K', 'USE_BIAS', 'AB_DTYPE', 'NUM_SMS']          # the Triton kernel's parameters, in order
RUNTIME = ['A_ptr', 'B_ptr', 'C_ptr', 'M', 'N', 'K', 'm_key', 'n_key', 'k_key', 'A_scale', 'B_scale', 'Bias', 'stride_am', 'stride_bn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A_ptr', 'B_ptr', 'C_ptr', 'M', 'N', 'K', 'm_key', 'n_key', 'k_key', 'A_scale', 'B_scale', 'Bias', 'stride_am', 'stride_bn', 'stride_cm', 'dot_out_dtype', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'allow_tf32': True, 'fp8_fast_accum': True, 'skip_scaling_a': False, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 128, 'GROUP_M': 8, 'SPLIT_K': 1, 'USE_BIAS': True, 'AB_DTYPE': False, 'NUM_SMS': 132}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
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
