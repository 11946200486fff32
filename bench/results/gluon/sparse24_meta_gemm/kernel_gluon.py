"""sparse24_dense_mm_kernel, written by twill from its joint schedule: I=560 L=532 (optimal), 2560 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (b_92): their addresses and masks spread over 128 threads
- b_92 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over b_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 216 registers per thread (needs about 120): sub-tile 0, 2 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 216 registers per thread (needs about 120): sub-tile 1, 2 stages
- partition 2 (worker): producer, warp group 2, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring b_92: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0, 1
- tensor-core order: the schedule's slots (partition 0 (1 dot) | partition 1 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 32832 bytes planned of 232448; maxnreg 168

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_vals, a_meta, b_ptr, c_ptr, M, N, K, stride_vm, stride_mm, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_b_92, b_92_buf, b_92_ready, b_92_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_11 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_12 = num_pid_n // 128
        num_pid_in_group = num_pid_n_12 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_11 - first_pid_m
        group_size_m_13 = gl.minimum(group_size_m, 8)
        pid_m = pid % group_size_m_13
        pid_m_14 = first_pid_m + pid_m
        pid_n = pid % num_pid_in_group
        pid_n_15 = pid_n // group_size_m_13
        offs_m = pid_m_14 * 128
        offs_m_16_t0 = gl.arange(0, 64, layout=L0)
        offs_m_17_t0 = gl.arange(0, 64, layout=L1)
        offs_m_18 = gl.arange(0, 128, layout=L2)
        offs_m_21_t0 = offs_m + offs_m_16_t0
        offs_m_22_t0 = offs_m + offs_m_17_t0
        offs_n = pid_n_15 * 128
        offs_n_24 = offs_n + offs_m_18
        offs_k = gl.arange(0, 64, layout=L3)
        offs_k_r1 = gl.arange(0, 64, layout=L3)
        offs_k_r2 = gl.arange(0, 64, layout=L3)
        offs_k_r3 = gl.arange(0, 64, layout=L3)
        mask_m_t0 = gl.expand_dims(offs_m_21_t0, 1)
        mask_m_25_t0 = gl.expand_dims(offs_m_22_t0, 1)
        mask_m_28_t0 = mask_m_t0 < M
        mask_m_29_t0 = mask_m_25_t0 < M
        mask_n = gl.expand_dims(offs_n_24, 0)
        mask_n_31 = mask_n < N
        grp = offs_k // 4
        pos = offs_k_r1 % 4
        pos_32 = gl.expand_dims(pos, 0)
        nib_shift = offs_k_r2 % 16
        nib_shift_33 = nib_shift // 4
        nib_shift_34 = nib_shift_33 * 4
        nib_shift_35 = gl.expand_dims(nib_shift_34, 0)
        nib_shift_36 = nib_shift_35.to(gl.int16)
        v0_ptrs_37_t0 = mask_m_t0.to(gl.int64)
        v0_ptrs_38_t0 = mask_m_25_t0.to(gl.int64)
        v0_ptrs_39 = gl.cast(stride_vm, gl.int64)
        v0_ptrs_41_t0 = v0_ptrs_37_t0 * v0_ptrs_39
        v0_ptrs_43_t0 = a_vals + v0_ptrs_41_t0
        v0_ptrs_44 = grp * 2
        v0_ptrs_45 = gl.expand_dims(v0_ptrs_44, 0)
        v0_ptrs_46_t0 = v0_ptrs_43_t0.broadcast_to([64, 64])
        v0_ptrs_47_t0 = v0_ptrs_45.broadcast_to([64, 64])
        v0_ptrs_48_t0 = v0_ptrs_46_t0 + v0_ptrs_47_t0
        meta_ptrs = gl.cast(stride_mm, gl.int64)
        meta_ptrs_50_t0 = v0_ptrs_37_t0 * meta_ptrs
        meta_ptrs_52_t0 = a_meta + meta_ptrs_50_t0
        meta_ptrs_53 = offs_k_r3 // 16
        meta_ptrs_54 = gl.expand_dims(meta_ptrs_53, 0)
        meta_ptrs_55_t0 = meta_ptrs_52_t0.broadcast_to([64, 64])
        meta_ptrs_56_t0 = meta_ptrs_54.broadcast_to([64, 64])
        meta_ptrs_57_t0 = meta_ptrs_55_t0 + meta_ptrs_56_t0
        b_ptrs = gl.arange(0, 64, layout=L1)
        b_ptrs_58 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_59 = b_ptrs_58.to(gl.int64)
        b_ptrs_60 = gl.cast(stride_bk, gl.int64)
        b_ptrs_62 = b_ptrs_59 * b_ptrs_60
        b_ptrs_64 = b_ptr + b_ptrs_62
        b_ptrs_65 = b_ptrs_64.broadcast_to([64, 128])
        b_ptrs_66 = mask_n.broadcast_to([64, 128])
        b_ptrs_67 = b_ptrs_65 + b_ptrs_66
        v0 = K + 63
        v1 = v0 // 64
        v0_u_t0 = mask_m_28_t0.broadcast_to([64, 64])
        nib_t0 = nib_shift_36.broadcast_to([64, 64])
        a_t0 = pos_32.broadcast_to([64, 64])
        twill_n = (v1 - 0 + 1 - 1) // 1
        v0_ptrs_96_t0 = v0_ptrs_48_t0
        meta_ptrs_97_t0 = meta_ptrs_57_t0
        meta_ptrs_97_t0_p1 = meta_ptrs_97_t0
        v0_ptrs_96_t0_p1 = v0_ptrs_96_t0
        acc_95_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        v0_ptrs_96_t0 = v0_ptrs_96_t0_p1 + 32  # load0_v0_s0: stage 0, partition 0 (group 0)
        v1_u_t0 = v0_ptrs_96_t0_p1 + 1  # load1_v1_s0: stage 0, partition 0 (group 0)
        meta_ptrs_97_t0 = meta_ptrs_97_t0_p1 + 4  # load2_meta_s0: stage 0, partition 0 (group 0)
        meta_t0 = gl.load(meta_ptrs_97_t0_p1, mask=v0_u_t0, other=0)  # load2_meta_s0: stage 0, partition 0 (group 0)
        v1_82_t0 = gl.load(v1_u_t0, mask=v0_u_t0, other=0.0)  # load1_v1_s0: stage 0, partition 0 (group 0)
        v0_81_t0 = gl.load(v0_ptrs_96_t0_p1, mask=v0_u_t0, other=0.0)  # load0_v0_s0: stage 0, partition 0 (group 0)
        acc_95_t0_p1 = acc_95_t0
        meta_ptrs_97_t0_p1 = meta_ptrs_97_t0
        meta_t0_p1 = meta_t0
        v0_81_t0_p1 = v0_81_t0
        v0_ptrs_96_t0_p1 = v0_ptrs_96_t0
        v1_82_t0_p1 = v1_82_t0
        for twill_b in range(1, twill_n):
            v0_ptrs_96_t0 = v0_ptrs_96_t0_p1 + 32  # load0_v0_s0: stage 0, partition 0 (group 0)
            v1_u_t0 = v0_ptrs_96_t0_p1 + 1  # load1_v1_s0: stage 0, partition 0 (group 0)
            meta_ptrs_97_t0 = meta_ptrs_97_t0_p1 + 4  # load2_meta_s0: stage 0, partition 0 (group 0)
            meta_t0 = gl.load(meta_ptrs_97_t0_p1, mask=v0_u_t0, other=0)  # load2_meta_s0: stage 0, partition 0 (group 0)
            v1_82_t0 = gl.load(v1_u_t0, mask=v0_u_t0, other=0.0)  # load1_v1_s0: stage 0, partition 0 (group 0)
            v0_81_t0 = gl.load(v0_ptrs_96_t0_p1, mask=v0_u_t0, other=0.0)  # load0_v0_s0: stage 0, partition 0 (group 0)
            nib_83_t0 = gl.cast(gl.cast(meta_t0_p1, gl.int16, bitcast=True) >> gl.cast(nib_t0, gl.int16, bitcast=True), meta_t0_p1.dtype, bitcast=True)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            nib_84_t0 = nib_83_t0 & 15  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            i0_t0 = nib_84_t0 & 3  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            i1_t0 = gl.cast(gl.cast(nib_84_t0, gl.int16, bitcast=True) >> 2, nib_84_t0.dtype, bitcast=True)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            i1_85_t0 = i1_t0 & 3  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            a_86_t0 = gl.cast(i0_t0, gl.int16, bitcast=True).to(gl.int32)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            a_87_t0 = a_86_t0 == a_t0  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            a_88_t0 = gl.cast(i1_85_t0, gl.int16, bitcast=True).to(gl.int32)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            a_89_t0 = a_88_t0 == a_t0  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            a_90_t0 = gl.where(a_89_t0, v1_82_t0_p1, 0.0)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            a_91_t0 = gl.where(a_87_t0, v0_81_t0_p1, a_90_t0)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
            a_94_t0 = gl.convert_layout(a_91_t0, L5)  # convert0_a_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(b_92_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_95_t0 = warpgroup_mma(a_94_t0, b_92_buf.index((twill_base + twill_b - 1) % 2), acc_95_t0_p1, is_async=True)  # dot0_acc_s0: stage 1, partition 0 (group 0)
            acc_95_t0 = warpgroup_mma_wait(0, deps=(tok_acc_95_t0,))
            mbarrier.arrive(b_92_empty.index((twill_base + twill_b - 1) % 2))
            acc_95_t0_p1 = acc_95_t0
            meta_ptrs_97_t0_p1 = meta_ptrs_97_t0
            meta_t0_p1 = meta_t0
            v0_81_t0_p1 = v0_81_t0
            v0_ptrs_96_t0_p1 = v0_ptrs_96_t0
            v1_82_t0_p1 = v1_82_t0
        nib_83_t0 = gl.cast(gl.cast(meta_t0_p1, gl.int16, bitcast=True) >> gl.cast(nib_t0, gl.int16, bitcast=True), meta_t0_p1.dtype, bitcast=True)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        nib_84_t0 = nib_83_t0 & 15  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        i0_t0 = nib_84_t0 & 3  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        i1_t0 = gl.cast(gl.cast(nib_84_t0, gl.int16, bitcast=True) >> 2, nib_84_t0.dtype, bitcast=True)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        i1_85_t0 = i1_t0 & 3  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        a_86_t0 = gl.cast(i0_t0, gl.int16, bitcast=True).to(gl.int32)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        a_87_t0 = a_86_t0 == a_t0  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        a_88_t0 = gl.cast(i1_85_t0, gl.int16, bitcast=True).to(gl.int32)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        a_89_t0 = a_88_t0 == a_t0  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        a_90_t0 = gl.where(a_89_t0, v1_82_t0_p1, 0.0)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        a_91_t0 = gl.where(a_87_t0, v0_81_t0_p1, a_90_t0)  # elementwise0_a_s0: stage 1, partition 0 (group 0)
        a_94_t0 = gl.convert_layout(a_91_t0, L5)  # convert0_a_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(b_92_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_acc_95_t0 = warpgroup_mma(a_94_t0, b_92_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), acc_95_t0_p1, is_async=True)  # dot0_acc_s0: stage 1, partition 0 (group 0)
        acc_95_t0 = warpgroup_mma_wait(0, deps=(tok_acc_95_t0,))
        mbarrier.arrive(b_92_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
        acc_95_t0_p1 = acc_95_t0
        meta_ptrs_97_t0_p2 = meta_ptrs_97_t0_p1
        meta_ptrs_97_t0_p1 = meta_ptrs_97_t0
        meta_t0_p1 = meta_t0
        v0_81_t0_p1 = v0_81_t0
        v0_ptrs_96_t0_p2 = v0_ptrs_96_t0_p1
        v0_ptrs_96_t0_p1 = v0_ptrs_96_t0
        v1_82_t0_p1 = v1_82_t0
        b_92_buf._keep_alive()
        c_ptrs = gl.cast(stride_cm, gl.int64)
        c_ptrs_71_t0 = v0_ptrs_38_t0 * c_ptrs
        c_ptrs_73_t0 = c_ptr + c_ptrs_71_t0
        c_ptrs_74_t0 = c_ptrs_73_t0.broadcast_to([64, 128])
        c_ptrs_75_t0 = mask_n.broadcast_to([64, 128])
        c_ptrs_76_t0 = c_ptrs_74_t0 + c_ptrs_75_t0
        v2_t0 = mask_m_29_t0.broadcast_to([64, 128])
        v3_t0 = mask_n_31.broadcast_to([64, 128])
        v4_t0 = v2_t0 & v3_t0
        v5_t0 = acc_95_t0_p1.to(gl.float16)
        v6_t0 = gl.convert_layout(v5_t0, L6)
        gl.store(c_ptrs_76_t0, v6_t0, mask=v4_t0)
        twill_base += twill_n

@gluon.jit
def consumer_1(a_vals, a_meta, b_ptr, c_ptr, M, N, K, stride_vm, stride_mm, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_b_92, b_92_buf, b_92_ready, b_92_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_11 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_12 = num_pid_n // 128
        num_pid_in_group = num_pid_n_12 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_11 - first_pid_m
        group_size_m_13 = gl.minimum(group_size_m, 8)
        pid_m = pid % group_size_m_13
        pid_m_14 = first_pid_m + pid_m
        pid_n = pid % num_pid_in_group
        pid_n_15 = pid_n // group_size_m_13
        offs_m = pid_m_14 * 128
        offs_m_16_t1 = gl.arange(0, 64, layout=L0) + 64
        offs_m_17_t1 = gl.arange(0, 64, layout=L1) + 64
        offs_m_18 = gl.arange(0, 128, layout=L2)
        offs_m_21_t1 = offs_m + offs_m_16_t1
        offs_m_22_t1 = offs_m + offs_m_17_t1
        offs_n = pid_n_15 * 128
        offs_n_24 = offs_n + offs_m_18
        offs_k = gl.arange(0, 64, layout=L3)
        offs_k_r1 = gl.arange(0, 64, layout=L3)
        offs_k_r2 = gl.arange(0, 64, layout=L3)
        offs_k_r3 = gl.arange(0, 64, layout=L3)
        mask_m_t1 = gl.expand_dims(offs_m_21_t1, 1)
        mask_m_25_t1 = gl.expand_dims(offs_m_22_t1, 1)
        mask_m_28_t1 = mask_m_t1 < M
        mask_m_29_t1 = mask_m_25_t1 < M
        mask_n = gl.expand_dims(offs_n_24, 0)
        mask_n_31 = mask_n < N
        grp = offs_k // 4
        pos = offs_k_r1 % 4
        pos_32 = gl.expand_dims(pos, 0)
        nib_shift = offs_k_r2 % 16
        nib_shift_33 = nib_shift // 4
        nib_shift_34 = nib_shift_33 * 4
        nib_shift_35 = gl.expand_dims(nib_shift_34, 0)
        nib_shift_36 = nib_shift_35.to(gl.int16)
        v0_ptrs_37_t1 = mask_m_t1.to(gl.int64)
        v0_ptrs_38_t1 = mask_m_25_t1.to(gl.int64)
        v0_ptrs_39 = gl.cast(stride_vm, gl.int64)
        v0_ptrs_41_t1 = v0_ptrs_37_t1 * v0_ptrs_39
        v0_ptrs_43_t1 = a_vals + v0_ptrs_41_t1
        v0_ptrs_44 = grp * 2
        v0_ptrs_45 = gl.expand_dims(v0_ptrs_44, 0)
        v0_ptrs_46_t1 = v0_ptrs_43_t1.broadcast_to([64, 64])
        v0_ptrs_47_t1 = v0_ptrs_45.broadcast_to([64, 64])
        v0_ptrs_48_t1 = v0_ptrs_46_t1 + v0_ptrs_47_t1
        meta_ptrs = gl.cast(stride_mm, gl.int64)
        meta_ptrs_50_t1 = v0_ptrs_37_t1 * meta_ptrs
        meta_ptrs_52_t1 = a_meta + meta_ptrs_50_t1
        meta_ptrs_53 = offs_k_r3 // 16
        meta_ptrs_54 = gl.expand_dims(meta_ptrs_53, 0)
        meta_ptrs_55_t1 = meta_ptrs_52_t1.broadcast_to([64, 64])
        meta_ptrs_56_t1 = meta_ptrs_54.broadcast_to([64, 64])
        meta_ptrs_57_t1 = meta_ptrs_55_t1 + meta_ptrs_56_t1
        b_ptrs = gl.arange(0, 64, layout=L1)
        b_ptrs_58 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_59 = b_ptrs_58.to(gl.int64)
        b_ptrs_60 = gl.cast(stride_bk, gl.int64)
        b_ptrs_62 = b_ptrs_59 * b_ptrs_60
        b_ptrs_64 = b_ptr + b_ptrs_62
        b_ptrs_65 = b_ptrs_64.broadcast_to([64, 128])
        b_ptrs_66 = mask_n.broadcast_to([64, 128])
        b_ptrs_67 = b_ptrs_65 + b_ptrs_66
        v0 = K + 63
        v1 = v0 // 64
        v0_u_t1 = mask_m_28_t1.broadcast_to([64, 64])
        nib_t1 = nib_shift_36.broadcast_to([64, 64])
        a_t1 = pos_32.broadcast_to([64, 64])
        twill_n = (v1 - 0 + 1 - 1) // 1
        v0_ptrs_96_t1 = v0_ptrs_48_t1
        meta_ptrs_97_t1 = meta_ptrs_57_t1
        meta_ptrs_97_t1_p1 = meta_ptrs_97_t1
        v0_ptrs_96_t1_p1 = v0_ptrs_96_t1
        acc_95_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        v0_ptrs_96_t1 = v0_ptrs_96_t1_p1 + 32  # load0_v0_s1: stage 0, partition 1 (group 1)
        v1_u_t1 = v0_ptrs_96_t1_p1 + 1  # load1_v1_s1: stage 0, partition 1 (group 1)
        meta_ptrs_97_t1 = meta_ptrs_97_t1_p1 + 4  # load2_meta_s1: stage 0, partition 1 (group 1)
        meta_t1 = gl.load(meta_ptrs_97_t1_p1, mask=v0_u_t1, other=0)  # load2_meta_s1: stage 0, partition 1 (group 1)
        v1_82_t1 = gl.load(v1_u_t1, mask=v0_u_t1, other=0.0)  # load1_v1_s1: stage 0, partition 1 (group 1)
        v0_81_t1 = gl.load(v0_ptrs_96_t1_p1, mask=v0_u_t1, other=0.0)  # load0_v0_s1: stage 0, partition 1 (group 1)
        acc_95_t1_p1 = acc_95_t1
        meta_ptrs_97_t1_p1 = meta_ptrs_97_t1
        meta_t1_p1 = meta_t1
        v0_81_t1_p1 = v0_81_t1
        v0_ptrs_96_t1_p1 = v0_ptrs_96_t1
        v1_82_t1_p1 = v1_82_t1
        for twill_b in range(1, twill_n):
            v0_ptrs_96_t1 = v0_ptrs_96_t1_p1 + 32  # load0_v0_s1: stage 0, partition 1 (group 1)
            v1_u_t1 = v0_ptrs_96_t1_p1 + 1  # load1_v1_s1: stage 0, partition 1 (group 1)
            meta_ptrs_97_t1 = meta_ptrs_97_t1_p1 + 4  # load2_meta_s1: stage 0, partition 1 (group 1)
            meta_t1 = gl.load(meta_ptrs_97_t1_p1, mask=v0_u_t1, other=0)  # load2_meta_s1: stage 0, partition 1 (group 1)
            v1_82_t1 = gl.load(v1_u_t1, mask=v0_u_t1, other=0.0)  # load1_v1_s1: stage 0, partition 1 (group 1)
            v0_81_t1 = gl.load(v0_ptrs_96_t1_p1, mask=v0_u_t1, other=0.0)  # load0_v0_s1: stage 0, partition 1 (group 1)
            nib_83_t1 = gl.cast(gl.cast(meta_t1_p1, gl.int16, bitcast=True) >> gl.cast(nib_t1, gl.int16, bitcast=True), meta_t1_p1.dtype, bitcast=True)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            nib_84_t1 = nib_83_t1 & 15  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            i0_t1 = nib_84_t1 & 3  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            i1_t1 = gl.cast(gl.cast(nib_84_t1, gl.int16, bitcast=True) >> 2, nib_84_t1.dtype, bitcast=True)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            i1_85_t1 = i1_t1 & 3  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            a_86_t1 = gl.cast(i0_t1, gl.int16, bitcast=True).to(gl.int32)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            a_87_t1 = a_86_t1 == a_t1  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            a_88_t1 = gl.cast(i1_85_t1, gl.int16, bitcast=True).to(gl.int32)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            a_89_t1 = a_88_t1 == a_t1  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            a_90_t1 = gl.where(a_89_t1, v1_82_t1_p1, 0.0)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            a_91_t1 = gl.where(a_87_t1, v0_81_t1_p1, a_90_t1)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
            a_94_t1 = gl.convert_layout(a_91_t1, L5)  # convert0_a_s1: stage 1, partition 1 (group 1)
            mbarrier.wait(b_92_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_95_t1 = warpgroup_mma(a_94_t1, b_92_buf.index((twill_base + twill_b - 1) % 2), acc_95_t1_p1, is_async=True)  # dot0_acc_s1: stage 1, partition 1 (group 1)
            acc_95_t1 = warpgroup_mma_wait(0, deps=(tok_acc_95_t1,))
            mbarrier.arrive(b_92_empty.index((twill_base + twill_b - 1) % 2))
            acc_95_t1_p1 = acc_95_t1
            meta_ptrs_97_t1_p1 = meta_ptrs_97_t1
            meta_t1_p1 = meta_t1
            v0_81_t1_p1 = v0_81_t1
            v0_ptrs_96_t1_p1 = v0_ptrs_96_t1
            v1_82_t1_p1 = v1_82_t1
        nib_83_t1 = gl.cast(gl.cast(meta_t1_p1, gl.int16, bitcast=True) >> gl.cast(nib_t1, gl.int16, bitcast=True), meta_t1_p1.dtype, bitcast=True)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        nib_84_t1 = nib_83_t1 & 15  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        i0_t1 = nib_84_t1 & 3  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        i1_t1 = gl.cast(gl.cast(nib_84_t1, gl.int16, bitcast=True) >> 2, nib_84_t1.dtype, bitcast=True)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        i1_85_t1 = i1_t1 & 3  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        a_86_t1 = gl.cast(i0_t1, gl.int16, bitcast=True).to(gl.int32)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        a_87_t1 = a_86_t1 == a_t1  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        a_88_t1 = gl.cast(i1_85_t1, gl.int16, bitcast=True).to(gl.int32)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        a_89_t1 = a_88_t1 == a_t1  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        a_90_t1 = gl.where(a_89_t1, v1_82_t1_p1, 0.0)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        a_91_t1 = gl.where(a_87_t1, v0_81_t1_p1, a_90_t1)  # elementwise0_a_s1: stage 1, partition 1 (group 1)
        a_94_t1 = gl.convert_layout(a_91_t1, L5)  # convert0_a_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(b_92_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_acc_95_t1 = warpgroup_mma(a_94_t1, b_92_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), acc_95_t1_p1, is_async=True)  # dot0_acc_s1: stage 1, partition 1 (group 1)
        acc_95_t1 = warpgroup_mma_wait(0, deps=(tok_acc_95_t1,))
        mbarrier.arrive(b_92_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
        acc_95_t1_p1 = acc_95_t1
        meta_ptrs_97_t1_p2 = meta_ptrs_97_t1_p1
        meta_ptrs_97_t1_p1 = meta_ptrs_97_t1
        meta_t1_p1 = meta_t1
        v0_81_t1_p1 = v0_81_t1
        v0_ptrs_96_t1_p2 = v0_ptrs_96_t1_p1
        v0_ptrs_96_t1_p1 = v0_ptrs_96_t1
        v1_82_t1_p1 = v1_82_t1
        b_92_buf._keep_alive()
        c_ptrs = gl.cast(stride_cm, gl.int64)
        c_ptrs_71_t1 = v0_ptrs_38_t1 * c_ptrs
        c_ptrs_73_t1 = c_ptr + c_ptrs_71_t1
        c_ptrs_74_t1 = c_ptrs_73_t1.broadcast_to([64, 128])
        c_ptrs_75_t1 = mask_n.broadcast_to([64, 128])
        c_ptrs_76_t1 = c_ptrs_74_t1 + c_ptrs_75_t1
        v2_t1 = mask_m_29_t1.broadcast_to([64, 128])
        v3_t1 = mask_n_31.broadcast_to([64, 128])
        v4_t1 = v2_t1 & v3_t1
        v5_t1 = acc_95_t1_p1.to(gl.float16)
        v6_t1 = gl.convert_layout(v5_t1, L6)
        gl.store(c_ptrs_76_t1, v6_t1, mask=v4_t1)
        twill_base += twill_n

@gluon.jit
def producer_2(a_vals, a_meta, b_ptr, c_ptr, M, N, K, stride_vm, stride_mm, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_b_92, b_92_buf, b_92_ready, b_92_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_11 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_12 = num_pid_n // 128
        num_pid_in_group = num_pid_n_12 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_11 - first_pid_m
        group_size_m_13 = gl.minimum(group_size_m, 8)
        pid_n = pid % num_pid_in_group
        pid_n_15 = pid_n // group_size_m_13
        offs_m_18 = gl.arange(0, 128, layout=L2)
        offs_n = pid_n_15 * 128
        offs_n_24 = offs_n + offs_m_18
        mask_n = gl.expand_dims(offs_n_24, 0)
        mask_n_31 = mask_n < N
        b_ptrs = gl.arange(0, 64, layout=L1)
        b_ptrs_58 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_59 = b_ptrs_58.to(gl.int64)
        b_ptrs_60 = gl.cast(stride_bk, gl.int64)
        b_ptrs_62 = b_ptrs_59 * b_ptrs_60
        b_ptrs_64 = b_ptr + b_ptrs_62
        b_ptrs_65 = b_ptrs_64.broadcast_to([64, 128])
        b_ptrs_66 = mask_n.broadcast_to([64, 128])
        b_ptrs_67 = b_ptrs_65 + b_ptrs_66
        v0 = K + 63
        v1 = v0 // 64
        b = mask_n_31.broadcast_to([64, 128])
        b_ptrs_68 = stride_bk * 64
        b_ptrs_80 = b_ptrs_67
        for acc_77 in range(0, v1, 1):
            twill_k = twill_base + (acc_77 - 0) // 1
            b_ptrs_98 = b_ptrs_80 + b_ptrs_68
            mbarrier.wait(b_92_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(b_92_ready.index(twill_k % 2), twill_box_b_92.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_b_92, [64 * acc_77, 128 * pid_n_15], b_92_ready.index(twill_k % 2), b_92_buf.index(twill_k % 2))  # load3_b: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(b_92_buf.index(twill_k % 2), b_ptrs_80, mask=b)  # load3_b: stage 0, partition 2 (group 2)
                    async_copy.mbarrier_arrive(b_92_ready.index(twill_k % 2), increment_count=False)
                else:
                    b_92_buf.index(twill_k % 2).store(gl.load(b_ptrs_80, mask=b, other=0.0))  # load3_b: stage 0, partition 2 (group 2)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(b_92_ready.index(twill_k % 2), count=128)
            b_ptrs_80 = b_ptrs_98
        twill_base += (v1 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(a_vals, a_meta, b_ptr, c_ptr, M, N, K, stride_vm, stride_mm, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_b_92, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    b_92_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_92_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_92_ready.index(i), count=1 if TWILL_TMA else 128)
    b_92_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_92_empty.index(i), count=2)
    gl.warp_specialize([
        (consumer_0, (a_vals, a_meta, b_ptr, c_ptr, M, N, K, stride_vm, stride_mm, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_b_92, b_92_buf, b_92_ready, b_92_empty, TWILL_COPY, TWILL_TMA)),
        (consumer_1, (a_vals, a_meta, b_ptr, c_ptr, M, N, K, stride_vm, stride_mm, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_b_92, b_92_buf, b_92_ready, b_92_empty, TWILL_COPY, TWILL_TMA)),
        (producer_2, (a_vals, a_meta, b_ptr, c_ptr, M, N, K, stride_vm, stride_mm, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_b_92, b_92_buf, b_92_ready, b_92_empty, TWILL_COPY, TWILL_TMA)),
    ], [4, 4], [216, 64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_vals', 'a_meta', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_vm', 'stride_mm', 'stride_bk', 'stride_cm', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_vals', 'a_meta', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_vm', 'stride_mm', 'stride_bk', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_b_92']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_vals', 'a_meta', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_vm', 'stride_mm', 'stride_bk', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_b_92': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_b_92': ('b_ptr', ['stride_bk', '1'], [None, 'N'], [64, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 168
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['b_ptr', 'N', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
