"""_hstu_fwd, written by twill from its joint schedule: I=172 L=344 (feasible), 1835 cycles per iteration predicted.

Decisions (each from the schedule):
- k_75 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- v_99 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_75, v_99): their addresses and masks spread over 128 threads
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 208 registers per thread (needs about 168): sub-tile 0, 2 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 208 registers per thread (needs about 200): sub-tile 1, 2 stages
- partition 2 (worker): producer, warp group 2, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring k_75: 3 buffers of [128, 64] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0, 1
- ring v_99: 3 buffers of [64, 128] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0, 1
- tensor-core order: the schedule's slots (partition 1 (1 dot) | partition 0 (2 dots) | partition 1 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- shared memory: 131200 bytes planned of 232448; maxnreg 168
- early return at jagged_silu_attention.py:33 (TTGIR line 43): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L9 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K, V, O, seq_offsets, alpha, stride_qm, stride_kn, stride_vn, stride_om, max_seq_len, k_75_buf, v_99_buf, k_75_ready, k_75_empty, v_99_ready, v_99_empty, TWILL_COPY: gl.constexpr):
    off_z = gl.program_id(1)
    off_h = gl.program_id(2)
    start_m = gl.program_id(0)
    start_m_5 = start_m * 128
    seq_start = seq_offsets + off_z
    seq_start_6 = gl.load(seq_start)
    seq_end_7 = seq_start + 1
    seq_end_8 = gl.load(seq_end_7)
    seq_len = seq_end_8 - seq_start_6
    seq_len_9 = gl.cast(seq_len, gl.int32)
    offs_m_t0 = gl.arange(0, 64, layout=L0)
    offs_m_10_t0 = gl.arange(0, 64, layout=L1)
    offs_m_13_t0 = start_m_5 + offs_m_t0
    offs_m_14_t0 = start_m_5 + offs_m_10_t0
    offs_n_15 = gl.arange(0, 64, layout=L2)
    q_t0 = gl.expand_dims(offs_m_13_t0, 1)
    q_17_t0 = gl.expand_dims(offs_m_14_t0, 1)
    q_19_t0 = q_t0 < seq_len_9
    q_20_t0 = q_t0.to(gl.int64)
    q_22_t0 = seq_start_6 + q_20_t0
    q_23 = gl.cast(stride_qm, gl.int64)
    q_25_t0 = q_22_t0 * q_23
    q_27_t0 = Q + q_25_t0
    q_28 = off_h * 128
    q_30_t0 = q_27_t0 + q_28
    q_31 = gl.arange(0, 128, layout=L3)
    q_32 = gl.expand_dims(q_31, 0)
    q_33_t0 = q_30_t0.broadcast_to([64, 128])
    q_34_t0 = q_32.broadcast_to([64, 128])
    q_34_r1_t0 = q_32.broadcast_to([64, 128])
    q_35_t0 = q_33_t0 + q_34_t0
    q_36_t0 = q_19_t0.broadcast_to([64, 128])
    q_36_r1_t0 = q_19_t0.broadcast_to([64, 128])
    q_37_t0 = gl.load(q_35_t0, mask=q_36_t0, other=0.0)
    q_38_t0 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_37_t0)
    fence_async_shared()
    silu = gl.cast(max_seq_len, gl.float32)
    silu_49_t0 = q_17_t0.broadcast_to([64, 64])
    twill_n = (seq_len_9 - 0 + 64 - 1) // 64
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        acc_103_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        mbarrier.wait(k_75_ready.index((0 - 0) % 3), ((0 - 0) // 3) & 1)
        fence_async_shared()
        tok_qk_77_t0 = warpgroup_mma(q_38_t0, k_75_buf.index((0 - 0) % 3), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
        qk_77_t0 = warpgroup_mma_wait(0, deps=(tok_qk_77_t0,))
        mbarrier.arrive(k_75_empty.index((0 - 0) % 3))
        qk_78_t0 = qk_77_t0 * alpha  # elementwise1_qk_s0: stage 0, partition 0 (group 0)
        silu_79_t0 = 0.0 - qk_78_t0  # sfu0_silu_s0: stage 0, partition 0 (group 0)
        silu_80_t0 = gl.exp(silu_79_t0)  # sfu0_silu_s0: stage 0, partition 0 (group 0)
        acc_103_t0_p1 = acc_103_t0
        qk_78_t0_p1 = qk_78_t0
        silu_80_t0_p1 = silu_80_t0
        for twill_b in range(1, twill_n):
            cols_57 = (0 + (twill_b - 1) * 64)  # elementwise0_silu: stage 1, partition 0 (group 0)
            cols_60 = cols_57 + offs_n_15  # elementwise0_silu: stage 1, partition 0 (group 0)
            k_63 = gl.expand_dims(cols_60, 0)  # elementwise0_silu: stage 1, partition 0 (group 0)
            k_65 = k_63 < seq_len_9  # elementwise0_silu: stage 1, partition 0 (group 0)
            cols_57_t0 = (0 + (twill_b - 1) * 64)  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            cols_60_t0 = cols_57_t0 + offs_n_15  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            k_63_t0 = gl.expand_dims(cols_60_t0, 0)  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            k_65_t0 = k_63_t0 < seq_len_9  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            k_74_t0 = k_65_t0.broadcast_to([64, 64])  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            silu_81_t0 = silu_80_t0_p1 + 1.0  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            silu_82_t0 = 1.0 / silu_81_t0  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            silu_83_t0 = qk_78_t0_p1 * silu_82_t0  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            silu_84_t0 = silu_83_t0 / silu  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            silu_85_t0 = k_63_t0.broadcast_to([64, 64])  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            silu_86_t0 = silu_49_t0 >= silu_85_t0  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            silu_87_t0 = silu_86_t0 & k_74_t0  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            silu_88_t0 = gl.where(silu_87_t0, silu_84_t0, 0.0)  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(k_75_ready.index((twill_b - 0) % 3), ((twill_b - 0) // 3) & 1)
            fence_async_shared()
            tok_qk_77_t0 = warpgroup_mma(q_38_t0, k_75_buf.index((twill_b - 0) % 3), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
            acc_101_t0 = silu_88_t0.to(gl.bfloat16)  # convert0_acc_s0: stage 1, partition 0 (group 0)
            acc_102_t0 = gl.convert_layout(acc_101_t0, L6)  # convert0_acc_s0: stage 1, partition 0 (group 0)
            qk_77_t0 = warpgroup_mma_wait(0, deps=(tok_qk_77_t0,))
            mbarrier.arrive(k_75_empty.index((twill_b - 0) % 3))
            qk_78_t0 = qk_77_t0 * alpha  # elementwise1_qk_s0: stage 0, partition 0 (group 0)
            mbarrier.wait(v_99_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_103_t0 = warpgroup_mma(acc_102_t0, v_99_buf.index((twill_b - 1) % 3), acc_103_t0_p1, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
            silu_79_t0 = 0.0 - qk_78_t0  # sfu0_silu_s0: stage 0, partition 0 (group 0)
            silu_80_t0 = gl.exp(silu_79_t0)  # sfu0_silu_s0: stage 0, partition 0 (group 0)
            acc_103_t0 = warpgroup_mma_wait(0, deps=(tok_acc_103_t0,))
            mbarrier.arrive(v_99_empty.index((twill_b - 1) % 3))
            acc_103_t0_p1 = acc_103_t0
            qk_78_t0_p1 = qk_78_t0
            silu_80_t0_p1 = silu_80_t0
        cols_57 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_silu: stage 1, partition 0 (group 0)
        cols_60 = cols_57 + offs_n_15  # elementwise0_silu: stage 1, partition 0 (group 0)
        k_63 = gl.expand_dims(cols_60, 0)  # elementwise0_silu: stage 1, partition 0 (group 0)
        k_65 = k_63 < seq_len_9  # elementwise0_silu: stage 1, partition 0 (group 0)
        cols_57_t0 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        cols_60_t0 = cols_57_t0 + offs_n_15  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        k_63_t0 = gl.expand_dims(cols_60_t0, 0)  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        k_65_t0 = k_63_t0 < seq_len_9  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        k_74_t0 = k_65_t0.broadcast_to([64, 64])  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        silu_81_t0 = silu_80_t0_p1 + 1.0  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        silu_82_t0 = 1.0 / silu_81_t0  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        silu_83_t0 = qk_78_t0_p1 * silu_82_t0  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        silu_84_t0 = silu_83_t0 / silu  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        silu_85_t0 = k_63_t0.broadcast_to([64, 64])  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        silu_86_t0 = silu_49_t0 >= silu_85_t0  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        silu_87_t0 = silu_86_t0 & k_74_t0  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        silu_88_t0 = gl.where(silu_87_t0, silu_84_t0, 0.0)  # elementwise0_silu_s0: stage 1, partition 0 (group 0)
        acc_101_t0 = silu_88_t0.to(gl.bfloat16)  # convert0_acc_s0: stage 1, partition 0 (group 0)
        acc_102_t0 = gl.convert_layout(acc_101_t0, L6)  # convert0_acc_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(v_99_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_acc_103_t0 = warpgroup_mma(acc_102_t0, v_99_buf.index(((twill_n - 1 + 1) - 1) % 3), acc_103_t0_p1, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
        acc_103_t0 = warpgroup_mma_wait(0, deps=(tok_acc_103_t0,))
        mbarrier.arrive(v_99_empty.index(((twill_n - 1 + 1) - 1) % 3))
        acc_103_t0_p1 = acc_103_t0
        qk_78_t0_p1 = qk_78_t0
        silu_80_t0_p1 = silu_80_t0
        q_38_t0._keep_alive()
        k_75_buf._keep_alive()
        v_99_buf._keep_alive()
    else:
        acc_103_t0_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
    v1 = gl.cast(stride_om, gl.int64)
    v3_t0 = q_22_t0 * v1
    v5_t0 = O + v3_t0
    v6_t0 = v5_t0 + q_28
    v7_t0 = v6_t0.broadcast_to([64, 128])
    v8_t0 = v7_t0 + q_34_r1_t0
    v9_t0 = acc_103_t0_p1.to(gl.bfloat16)
    v10_t0 = gl.convert_layout(v9_t0, L7)
    gl.store(v8_t0, v10_t0, mask=q_36_r1_t0)

@gluon.jit
def consumer_1(Q, K, V, O, seq_offsets, alpha, stride_qm, stride_kn, stride_vn, stride_om, max_seq_len, k_75_buf, v_99_buf, k_75_ready, k_75_empty, v_99_ready, v_99_empty, TWILL_COPY: gl.constexpr):
    off_z = gl.program_id(1)
    off_h = gl.program_id(2)
    start_m = gl.program_id(0)
    start_m_5 = start_m * 128
    seq_start = seq_offsets + off_z
    seq_start_6 = gl.load(seq_start)
    seq_end_7 = seq_start + 1
    seq_end_8 = gl.load(seq_end_7)
    seq_len = seq_end_8 - seq_start_6
    seq_len_9 = gl.cast(seq_len, gl.int32)
    offs_m_t1 = gl.arange(0, 64, layout=L0) + 64
    offs_m_10_t1 = gl.arange(0, 64, layout=L1) + 64
    offs_m_13_t1 = start_m_5 + offs_m_t1
    offs_m_14_t1 = start_m_5 + offs_m_10_t1
    offs_n_15 = gl.arange(0, 64, layout=L2)
    q_t1 = gl.expand_dims(offs_m_13_t1, 1)
    q_17_t1 = gl.expand_dims(offs_m_14_t1, 1)
    q_19_t1 = q_t1 < seq_len_9
    q_20_t1 = q_t1.to(gl.int64)
    q_22_t1 = seq_start_6 + q_20_t1
    q_23 = gl.cast(stride_qm, gl.int64)
    q_25_t1 = q_22_t1 * q_23
    q_27_t1 = Q + q_25_t1
    q_28 = off_h * 128
    q_30_t1 = q_27_t1 + q_28
    q_31 = gl.arange(0, 128, layout=L3)
    q_32 = gl.expand_dims(q_31, 0)
    q_33_t1 = q_30_t1.broadcast_to([64, 128])
    q_34_t1 = q_32.broadcast_to([64, 128])
    q_34_r1_t1 = q_32.broadcast_to([64, 128])
    q_35_t1 = q_33_t1 + q_34_t1
    q_36_t1 = q_19_t1.broadcast_to([64, 128])
    q_36_r1_t1 = q_19_t1.broadcast_to([64, 128])
    q_37_t1 = gl.load(q_35_t1, mask=q_36_t1, other=0.0)
    q_38_t1 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_37_t1)
    fence_async_shared()
    silu = gl.cast(max_seq_len, gl.float32)
    silu_49_t1 = q_17_t1.broadcast_to([64, 64])
    twill_n = (seq_len_9 - 0 + 64 - 1) // 64
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        acc_103_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        mbarrier.wait(k_75_ready.index((0 - 0) % 3), ((0 - 0) // 3) & 1)
        fence_async_shared()
        tok_qk_77_t1 = warpgroup_mma(q_38_t1, k_75_buf.index((0 - 0) % 3), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
        qk_77_t1 = warpgroup_mma_wait(0, deps=(tok_qk_77_t1,))
        mbarrier.arrive(k_75_empty.index((0 - 0) % 3))
        qk_78_t1 = qk_77_t1 * alpha  # elementwise1_qk_s1: stage 0, partition 1 (group 1)
        acc_103_t1_p1 = acc_103_t1
        qk_78_t1_p1 = qk_78_t1
        for twill_b in range(1, twill_n):
            mbarrier.wait(k_75_ready.index((twill_b - 0) % 3), ((twill_b - 0) // 3) & 1)
            fence_async_shared()
            tok_qk_77_t1 = warpgroup_mma(q_38_t1, k_75_buf.index((twill_b - 0) % 3), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
            silu_79_t1 = 0.0 - qk_78_t1_p1  # sfu0_silu_s1: stage 1, partition 1 (group 1)
            silu_80_t1 = gl.exp(silu_79_t1)  # sfu0_silu_s1: stage 1, partition 1 (group 1)
            qk_77_t1 = warpgroup_mma_wait(0, deps=(tok_qk_77_t1,))
            mbarrier.arrive(k_75_empty.index((twill_b - 0) % 3))
            qk_78_t1 = qk_77_t1 * alpha  # elementwise1_qk_s1: stage 0, partition 1 (group 1)
            cols_57 = (0 + (twill_b - 1) * 64)  # elementwise0_silu: stage 1, partition 1 (group 1)
            cols_60 = cols_57 + offs_n_15  # elementwise0_silu: stage 1, partition 1 (group 1)
            k_63 = gl.expand_dims(cols_60, 0)  # elementwise0_silu: stage 1, partition 1 (group 1)
            k_65 = k_63 < seq_len_9  # elementwise0_silu: stage 1, partition 1 (group 1)
            cols_57_t1 = (0 + (twill_b - 1) * 64)  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            cols_60_t1 = cols_57_t1 + offs_n_15  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            k_63_t1 = gl.expand_dims(cols_60_t1, 0)  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            k_65_t1 = k_63_t1 < seq_len_9  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            k_74_t1 = k_65_t1.broadcast_to([64, 64])  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            silu_81_t1 = silu_80_t1 + 1.0  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            silu_82_t1 = 1.0 / silu_81_t1  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            silu_83_t1 = qk_78_t1_p1 * silu_82_t1  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            silu_84_t1 = silu_83_t1 / silu  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            silu_85_t1 = k_63_t1.broadcast_to([64, 64])  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            silu_86_t1 = silu_49_t1 >= silu_85_t1  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            silu_87_t1 = silu_86_t1 & k_74_t1  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            silu_88_t1 = gl.where(silu_87_t1, silu_84_t1, 0.0)  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
            acc_101_t1 = silu_88_t1.to(gl.bfloat16)  # convert0_acc_s1: stage 1, partition 1 (group 1)
            acc_102_t1 = gl.convert_layout(acc_101_t1, L6)  # convert0_acc_s1: stage 1, partition 1 (group 1)
            mbarrier.wait(v_99_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_103_t1 = warpgroup_mma(acc_102_t1, v_99_buf.index((twill_b - 1) % 3), acc_103_t1_p1, is_async=True)  # dot1_acc_s1: stage 1, partition 1 (group 1)
            acc_103_t1 = warpgroup_mma_wait(0, deps=(tok_acc_103_t1,))
            mbarrier.arrive(v_99_empty.index((twill_b - 1) % 3))
            acc_103_t1_p1 = acc_103_t1
            qk_78_t1_p1 = qk_78_t1
        silu_79_t1 = 0.0 - qk_78_t1_p1  # sfu0_silu_s1: stage 1, partition 1 (group 1)
        silu_80_t1 = gl.exp(silu_79_t1)  # sfu0_silu_s1: stage 1, partition 1 (group 1)
        cols_57 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_silu: stage 1, partition 1 (group 1)
        cols_60 = cols_57 + offs_n_15  # elementwise0_silu: stage 1, partition 1 (group 1)
        k_63 = gl.expand_dims(cols_60, 0)  # elementwise0_silu: stage 1, partition 1 (group 1)
        k_65 = k_63 < seq_len_9  # elementwise0_silu: stage 1, partition 1 (group 1)
        cols_57_t1 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        cols_60_t1 = cols_57_t1 + offs_n_15  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        k_63_t1 = gl.expand_dims(cols_60_t1, 0)  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        k_65_t1 = k_63_t1 < seq_len_9  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        k_74_t1 = k_65_t1.broadcast_to([64, 64])  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        silu_81_t1 = silu_80_t1 + 1.0  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        silu_82_t1 = 1.0 / silu_81_t1  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        silu_83_t1 = qk_78_t1_p1 * silu_82_t1  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        silu_84_t1 = silu_83_t1 / silu  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        silu_85_t1 = k_63_t1.broadcast_to([64, 64])  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        silu_86_t1 = silu_49_t1 >= silu_85_t1  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        silu_87_t1 = silu_86_t1 & k_74_t1  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        silu_88_t1 = gl.where(silu_87_t1, silu_84_t1, 0.0)  # elementwise0_silu_s1: stage 1, partition 1 (group 1)
        acc_101_t1 = silu_88_t1.to(gl.bfloat16)  # convert0_acc_s1: stage 1, partition 1 (group 1)
        acc_102_t1 = gl.convert_layout(acc_101_t1, L6)  # convert0_acc_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(v_99_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_acc_103_t1 = warpgroup_mma(acc_102_t1, v_99_buf.index(((twill_n - 1 + 1) - 1) % 3), acc_103_t1_p1, is_async=True)  # dot1_acc_s1: stage 1, partition 1 (group 1)
        acc_103_t1 = warpgroup_mma_wait(0, deps=(tok_acc_103_t1,))
        mbarrier.arrive(v_99_empty.index(((twill_n - 1 + 1) - 1) % 3))
        acc_103_t1_p1 = acc_103_t1
        qk_78_t1_p1 = qk_78_t1
        q_38_t1._keep_alive()
        k_75_buf._keep_alive()
        v_99_buf._keep_alive()
    else:
        acc_103_t1_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
    v1 = gl.cast(stride_om, gl.int64)
    v3_t1 = q_22_t1 * v1
    v5_t1 = O + v3_t1
    v6_t1 = v5_t1 + q_28
    v7_t1 = v6_t1.broadcast_to([64, 128])
    v8_t1 = v7_t1 + q_34_r1_t1
    v9_t1 = acc_103_t1_p1.to(gl.bfloat16)
    v10_t1 = gl.convert_layout(v9_t1, L7)
    gl.store(v8_t1, v10_t1, mask=q_36_r1_t1)

@gluon.jit
def producer_2(Q, K, V, O, seq_offsets, alpha, stride_qm, stride_kn, stride_vn, stride_om, max_seq_len, k_75_buf, v_99_buf, k_75_ready, k_75_empty, v_99_ready, v_99_empty, TWILL_COPY: gl.constexpr):
    off_z = gl.program_id(1)
    off_h = gl.program_id(2)
    seq_start = seq_offsets + off_z
    seq_start_6 = gl.load(seq_start)
    seq_end_7 = seq_start + 1
    seq_end_8 = gl.load(seq_end_7)
    seq_len = seq_end_8 - seq_start_6
    seq_len_9 = gl.cast(seq_len, gl.int32)
    offs_n = gl.arange(0, 64, layout=L8)
    offs_n_16 = gl.arange(0, 64, layout=L0)
    q_28 = off_h * 128
    q_31 = gl.arange(0, 128, layout=L3)
    q_32 = gl.expand_dims(q_31, 0)
    k_41 = gl.cast(stride_kn, gl.int64)
    k_45 = gl.arange(0, 128, layout=L9)
    k_46 = gl.expand_dims(k_45, 1)
    k_47 = k_46.broadcast_to([128, 64])
    v_51 = gl.cast(stride_vn, gl.int64)
    v_55 = q_32.broadcast_to([64, 128])
    for acc_56 in range(0, seq_len_9, 64):
        twill_k = (acc_56 - 0) // 64
        cols_59 = acc_56 + offs_n
        cols_61 = acc_56 + offs_n_16
        k_62 = gl.expand_dims(cols_59, 0)
        k_64 = k_62 < seq_len_9
        k_66 = k_62.to(gl.int64)
        k_67 = seq_start_6 + k_66
        k_68 = k_67 * k_41
        k_69 = K + k_68
        k_70 = k_69 + q_28
        k_71 = k_70.broadcast_to([128, 64])
        k_72 = k_71 + k_47
        k_73 = k_64.broadcast_to([128, 64])
        v_89 = gl.expand_dims(cols_61, 1)
        v_90 = v_89 < seq_len_9
        v_91 = v_89.to(gl.int64)
        v_92 = seq_start_6 + v_91
        v_93 = v_92 * v_51
        v_94 = V + v_93
        v_95 = v_94 + q_28
        v_96 = v_95.broadcast_to([64, 128])
        v_97 = v_96 + v_55
        v_98 = v_90.broadcast_to([64, 128])
        mbarrier.wait(k_75_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(k_75_buf.index(twill_k % 3), k_72, mask=k_73)  # load0_k: stage 0, partition 2 (group 2)
            async_copy.mbarrier_arrive(k_75_ready.index(twill_k % 3), increment_count=False)
        else:
            k_75_buf.index(twill_k % 3).store(gl.load(k_72, mask=k_73, other=0.0))  # load0_k: stage 0, partition 2 (group 2)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(k_75_ready.index(twill_k % 3), count=128)
        mbarrier.wait(v_99_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(v_99_buf.index(twill_k % 3), v_97, mask=v_98)  # load1_v: stage 0, partition 2 (group 2)
            async_copy.mbarrier_arrive(v_99_ready.index(twill_k % 3), increment_count=False)
        else:
            v_99_buf.index(twill_k % 3).store(gl.load(v_97, mask=v_98, other=0.0))  # load1_v: stage 0, partition 2 (group 2)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(v_99_ready.index(twill_k % 3), count=128)

@gluon.jit
def twill_kernel(Q, K, V, O, seq_offsets, alpha, stride_qm, stride_kn, stride_vn, stride_om, max_seq_len, TWILL_COPY: gl.constexpr):
    off_z = gl.program_id(1)
    start_m = gl.program_id(0)
    start_m_5 = start_m * 128
    seq_start = seq_offsets + off_z
    seq_start_6 = gl.load(seq_start)
    seq_end_7 = seq_start + 1
    seq_end_8 = gl.load(seq_end_7)
    seq_len = seq_end_8 - seq_start_6
    seq_len_9 = gl.cast(seq_len, gl.int32)
    v0 = start_m_5 >= seq_len_9
    if v0:
        return
    k_75_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_99_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_75_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(k_75_ready.index(i), count=128)
    k_75_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(k_75_empty.index(i), count=2)
    v_99_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_99_ready.index(i), count=128)
    v_99_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_99_empty.index(i), count=2)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, O, seq_offsets, alpha, stride_qm, stride_kn, stride_vn, stride_om, max_seq_len, k_75_buf, v_99_buf, k_75_ready, k_75_empty, v_99_ready, v_99_empty, TWILL_COPY)),
        (consumer_1, (Q, K, V, O, seq_offsets, alpha, stride_qm, stride_kn, stride_vn, stride_om, max_seq_len, k_75_buf, v_99_buf, k_75_ready, k_75_empty, v_99_ready, v_99_empty, TWILL_COPY)),
        (producer_2, (Q, K, V, O, seq_offsets, alpha, stride_qm, stride_kn, stride_vn, stride_om, max_seq_len, k_75_buf, v_99_buf, k_75_ready, k_75_empty, v_99_ready, v_99_empty, TWILL_COPY)),
    ], [4, 4], [208, 88])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'O', 'seq_offsets', 'alpha', 'stride_qm', 'stride_kn', 'stride_vn', 'stride_om', 'max_seq_len', 'D', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'O', 'seq_offsets', 'alpha', 'stride_qm', 'stride_kn', 'stride_vn', 'stride_om', 'max_seq_len']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'O', 'seq_offsets', 'alpha', 'stride_qm', 'stride_kn', 'stride_vn', 'stride_om', 'max_seq_len']   # the arguments a launch key reads
CONSTEXPRS = {'D': 128, 'BLOCK_M': 128, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 168
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_kn', 'stride_vn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
