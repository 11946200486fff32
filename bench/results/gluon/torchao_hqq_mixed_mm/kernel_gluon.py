"""_mixed_mm_kernel, written by twill from its joint schedule: I=118 L=235 (optimal), 629 cycles per iteration predicted.

Decisions (each from the schedule):
- a copied with cp.async at every launch, not by TMA: %ram: a wrap (%) the box cannot follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (137, 56 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 192 registers per thread (needs about 137): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a: 3 buffers of [64, 64] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared operand dq_b_103_st: partition 0 stores the loop's [64, 128] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 3 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 73792 bytes planned of 232448; maxnreg 128

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.SliceLayout(0, gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 1], [0, 2], [0, 4], [0, 8], [32, 0]], lane_bases=[[0, 16], [0, 32], [0, 64], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0]], block_bases=[], shape=[64, 128])))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16, 2], threads_per_warp=[4, 8, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L10 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 1], [0, 2], [0, 4], [0, 8], [32, 0]], lane_bases=[[0, 16], [0, 32], [0, 64], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0]], block_bases=[], shape=[64, 128]))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(A, B, scales_ptr, zeros_ptr, C, M, N, K, stride_am, stride_bk, stride_cm, stride_scale_n, a_buf, dq_b_103_st, a_ready, a_empty, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    pid_z = gl.program_id(1)
    grid_m = M + 63
    grid_m_2 = grid_m // 64
    grid_n_3 = N + 127
    grid_n_4 = grid_n_3 // 128
    width = grid_n_4 * 8
    group_id = pid // width
    group_size = group_id * 8
    group_size_5 = grid_m_2 - group_size
    group_size_6 = gl.minimum(group_size_5, 8)
    pid_m = pid % group_size_6
    pid_m_7 = group_size + pid_m
    pid_n = pid % width
    pid_n_8 = pid_n // group_size_6
    rm = pid_m_7 * 64
    rm_9 = gl.arange(0, 64, layout=L0)
    rm_10 = gl.arange(0, 64, layout=L1)
    rm_11 = gl.arange(0, 64, layout=L2)
    rm_14 = rm + rm_9
    rm_15 = rm + rm_10
    rm_17 = rm_14 % M
    ram = rm_17 % M
    ram = gl.max_contiguous(gl.multiple_of(ram, [64]), [64])
    rak = pid_z * 64
    rak_19 = rak + rm_11
    rn = pid_n_8 * 128
    rn_20 = gl.arange(0, 128, layout=L3)
    rn_21 = gl.arange(0, 128, layout=L4)
    rn_22 = gl.arange(0, 128, layout=L5)
    rn_25 = rn + rn_20
    rn_26 = rn + rn_21
    rn_28 = rn_25 % N
    rbn = rn_28 % N
    rbn = gl.max_contiguous(gl.multiple_of(rbn, [128]), [128])
    rbk = rak // 2
    rbk_29 = gl.arange(0, 32, layout=L6)
    rbk_31 = rbk + rbk_29
    A_32 = gl.expand_dims(ram, 1)
    A_34 = A_32 * stride_am
    A_35 = gl.expand_dims(rak_19, 0)
    A_36 = A_34.broadcast_to([64, 64])
    A_37 = A_35.broadcast_to([64, 64])
    A_38 = A_36 + A_37
    A_40 = A + A_38
    B_41 = gl.expand_dims(rbk_31, 1)
    B_43 = B_41 * stride_bk
    B_44 = gl.expand_dims(rbn, 0)
    B_45 = B_43.broadcast_to([32, 128])
    B_46 = B_44.broadcast_to([32, 128])
    B_47 = B_45 + B_46
    B_49 = B + B_47
    offsets_scale_n = pid_n_8 * stride_scale_n
    offsets_scale_n_50 = offsets_scale_n * 128
    offsets_scale_n_52 = rn_22 * stride_scale_n
    offsets_scale_n_54 = offsets_scale_n_50 + offsets_scale_n_52
    v0 = K + 63
    v1 = v0 // 64
    scales_55 = scales_ptr + offsets_scale_n_54
    zeros_56 = zeros_ptr + offsets_scale_n_54
    B_57 = stride_bk * 64
    B_58 = B_57 // 2
    twill_n = (v1 - 0 + 1 - 1) // 1
    B_106 = B_49
    B_106_p1 = B_106
    B_106 = B_106_p1 + B_58  # load1_qb: stage 0, partition 0 (group 0)
    qb = gl.load(B_106_p1)  # load1_qb: stage 0, partition 0 (group 0)
    scale_offset_k = (0 + (0 - 0) * 1) * 64  # load2_scales: stage 0, partition 0 (group 0)
    scale_offset_k_80 = scale_offset_k // 128  # load2_scales: stage 0, partition 0 (group 0)
    scales_81 = scale_offset_k_80  # load2_scales: stage 0, partition 0 (group 0)
    zeros_84 = zeros_56 + scales_81  # load3_zeros: stage 0, partition 0 (group 0)
    zeros_85 = gl.load(zeros_84)  # load3_zeros: stage 0, partition 0 (group 0)
    scales_82 = scales_55 + scales_81  # load2_scales: stage 0, partition 0 (group 0)
    scales_83 = gl.load(scales_82)  # load2_scales: stage 0, partition 0 (group 0)
    B_106_p1 = B_106
    qb_p1 = qb
    scales_83_p1 = scales_83
    zeros_85_p1 = zeros_85
    acc_104 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
    B_106 = B_106_p1 + B_58  # load1_qb: stage 0, partition 0 (group 0)
    qb = gl.load(B_106_p1)  # load1_qb: stage 0, partition 0 (group 0)
    qb_lo = qb_p1 << 4  # convert0_dq_b: stage 1, partition 0 (group 0)
    qb_lo_86 = gl.cast(gl.cast(qb_lo, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert0_dq_b: stage 1, partition 0 (group 0)
    dq_b = gl.cast(qb_lo_86, gl.uint8, bitcast=True).to(gl.float16)  # convert0_dq_b: stage 1, partition 0 (group 0)
    dq_b_87 = dq_b.to(gl.float32)  # convert0_dq_b: stage 1, partition 0 (group 0)
    dq_b_88 = dq_b_87.to(gl.bfloat16)  # convert0_dq_b: stage 1, partition 0 (group 0)
    scale_offset_k = (0 + (1 - 0) * 1) * 64  # load2_scales: stage 0, partition 0 (group 0)
    scale_offset_k_80 = scale_offset_k // 128  # load2_scales: stage 0, partition 0 (group 0)
    scales_81 = scale_offset_k_80  # load2_scales: stage 0, partition 0 (group 0)
    zeros_84 = zeros_56 + scales_81  # load3_zeros: stage 0, partition 0 (group 0)
    zeros_85 = gl.load(zeros_84)  # load3_zeros: stage 0, partition 0 (group 0)
    dq_b_95 = gl.convert_layout(zeros_85_p1, L8)  # convert2_dq_b: stage 1, partition 0 (group 0)
    scales_82 = scales_55 + scales_81  # load2_scales: stage 0, partition 0 (group 0)
    scales_83 = gl.load(scales_82)  # load2_scales: stage 0, partition 0 (group 0)
    dq_b_97 = gl.convert_layout(scales_83_p1, L8)  # convert3_dq_b: stage 1, partition 0 (group 0)
    qb_hi = gl.cast(gl.cast(qb_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert1_dq_b: stage 1, partition 0 (group 0)
    dq_b_89 = gl.cast(qb_hi, gl.uint8, bitcast=True).to(gl.float16)  # convert1_dq_b: stage 1, partition 0 (group 0)
    dq_b_90 = dq_b_89.to(gl.float32)  # convert1_dq_b: stage 1, partition 0 (group 0)
    dq_b_91 = dq_b_90.to(gl.bfloat16)  # convert1_dq_b: stage 1, partition 0 (group 0)
    dq_b_92 = gl.convert_layout(gl.join(dq_b_88, dq_b_91), L9)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_93 = gl.permute(dq_b_92, (0, 2, 1))  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_94 = gl.convert_layout(gl.reshape(dq_b_93, [64, 128]), L10)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    zeros_96 = gl.expand_dims(dq_b_95, 0)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    scales_98 = gl.expand_dims(dq_b_97, 0)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_99 = zeros_96.broadcast_to([64, 128])  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_100 = dq_b_94 - dq_b_99  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_101 = scales_98.broadcast_to([64, 128])  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_102 = dq_b_100 * dq_b_101  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_103 = dq_b_103_st.index((1 - 1) % 3)  # local_store0_dq_b: stage 1, partition 0 (group 0)
    dq_b_103.store(dq_b_102)  # local_store0_dq_b: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_dq_b: stage 1, partition 0 (group 0)
    B_106_p1 = B_106
    acc_104_p1 = acc_104
    dq_b_103_p1 = dq_b_103
    qb_p1 = qb
    scales_83_p1 = scales_83
    zeros_85_p1 = zeros_85
    for twill_b in range(2, twill_n):
        B_106 = B_106_p1 + B_58  # load1_qb: stage 0, partition 0 (group 0)
        qb = gl.load(B_106_p1)  # load1_qb: stage 0, partition 0 (group 0)
        qb_lo = qb_p1 << 4  # convert0_dq_b: stage 1, partition 0 (group 0)
        qb_lo_86 = gl.cast(gl.cast(qb_lo, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert0_dq_b: stage 1, partition 0 (group 0)
        dq_b = gl.cast(qb_lo_86, gl.uint8, bitcast=True).to(gl.float16)  # convert0_dq_b: stage 1, partition 0 (group 0)
        dq_b_87 = dq_b.to(gl.float32)  # convert0_dq_b: stage 1, partition 0 (group 0)
        dq_b_88 = dq_b_87.to(gl.bfloat16)  # convert0_dq_b: stage 1, partition 0 (group 0)
        scale_offset_k = (0 + (twill_b - 0) * 1) * 64  # load2_scales: stage 0, partition 0 (group 0)
        scale_offset_k_80 = scale_offset_k // 128  # load2_scales: stage 0, partition 0 (group 0)
        scales_81 = scale_offset_k_80  # load2_scales: stage 0, partition 0 (group 0)
        zeros_84 = zeros_56 + scales_81  # load3_zeros: stage 0, partition 0 (group 0)
        zeros_85 = gl.load(zeros_84)  # load3_zeros: stage 0, partition 0 (group 0)
        dq_b_95 = gl.convert_layout(zeros_85_p1, L8)  # convert2_dq_b: stage 1, partition 0 (group 0)
        scales_82 = scales_55 + scales_81  # load2_scales: stage 0, partition 0 (group 0)
        scales_83 = gl.load(scales_82)  # load2_scales: stage 0, partition 0 (group 0)
        dq_b_97 = gl.convert_layout(scales_83_p1, L8)  # convert3_dq_b: stage 1, partition 0 (group 0)
        qb_hi = gl.cast(gl.cast(qb_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert1_dq_b: stage 1, partition 0 (group 0)
        dq_b_89 = gl.cast(qb_hi, gl.uint8, bitcast=True).to(gl.float16)  # convert1_dq_b: stage 1, partition 0 (group 0)
        dq_b_90 = dq_b_89.to(gl.float32)  # convert1_dq_b: stage 1, partition 0 (group 0)
        dq_b_91 = dq_b_90.to(gl.bfloat16)  # convert1_dq_b: stage 1, partition 0 (group 0)
        mbarrier.wait(a_ready.index((twill_b - 2) % 3), ((twill_b - 2) // 3) & 1)
        fence_async_shared()
        tok_acc_104 = warpgroup_mma(a_buf.index((twill_b - 2) % 3), dq_b_103_p1, acc_104_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        dq_b_92 = gl.convert_layout(gl.join(dq_b_88, dq_b_91), L9)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
        dq_b_93 = gl.permute(dq_b_92, (0, 2, 1))  # elementwise0_dq_b: stage 1, partition 0 (group 0)
        dq_b_94 = gl.convert_layout(gl.reshape(dq_b_93, [64, 128]), L10)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
        zeros_96 = gl.expand_dims(dq_b_95, 0)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
        scales_98 = gl.expand_dims(dq_b_97, 0)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
        dq_b_99 = zeros_96.broadcast_to([64, 128])  # elementwise0_dq_b: stage 1, partition 0 (group 0)
        dq_b_100 = dq_b_94 - dq_b_99  # elementwise0_dq_b: stage 1, partition 0 (group 0)
        dq_b_101 = scales_98.broadcast_to([64, 128])  # elementwise0_dq_b: stage 1, partition 0 (group 0)
        dq_b_102 = dq_b_100 * dq_b_101  # elementwise0_dq_b: stage 1, partition 0 (group 0)
        dq_b_103 = dq_b_103_st.index((twill_b - 1) % 3)  # local_store0_dq_b: stage 1, partition 0 (group 0)
        dq_b_103.store(dq_b_102)  # local_store0_dq_b: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_dq_b: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_104,))
        mbarrier.arrive(a_empty.index((twill_b - 1 - 2) % 3), pred=(twill_b - 1 - 2) >= 0)
        acc_104 = warpgroup_mma_wait(1, deps=(tok_acc_104,))
        B_106_p1 = B_106
        acc_104_p1 = acc_104
        dq_b_103_p1 = dq_b_103
        qb_p1 = qb
        scales_83_p1 = scales_83
        zeros_85_p1 = zeros_85
    qb_lo = qb_p1 << 4  # convert0_dq_b: stage 1, partition 0 (group 0)
    qb_lo_86 = gl.cast(gl.cast(qb_lo, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert0_dq_b: stage 1, partition 0 (group 0)
    dq_b = gl.cast(qb_lo_86, gl.uint8, bitcast=True).to(gl.float16)  # convert0_dq_b: stage 1, partition 0 (group 0)
    dq_b_87 = dq_b.to(gl.float32)  # convert0_dq_b: stage 1, partition 0 (group 0)
    dq_b_88 = dq_b_87.to(gl.bfloat16)  # convert0_dq_b: stage 1, partition 0 (group 0)
    dq_b_95 = gl.convert_layout(zeros_85_p1, L8)  # convert2_dq_b: stage 1, partition 0 (group 0)
    dq_b_97 = gl.convert_layout(scales_83_p1, L8)  # convert3_dq_b: stage 1, partition 0 (group 0)
    qb_hi = gl.cast(gl.cast(qb_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert1_dq_b: stage 1, partition 0 (group 0)
    dq_b_89 = gl.cast(qb_hi, gl.uint8, bitcast=True).to(gl.float16)  # convert1_dq_b: stage 1, partition 0 (group 0)
    dq_b_90 = dq_b_89.to(gl.float32)  # convert1_dq_b: stage 1, partition 0 (group 0)
    dq_b_91 = dq_b_90.to(gl.bfloat16)  # convert1_dq_b: stage 1, partition 0 (group 0)
    mbarrier.wait(a_ready.index(((twill_n - 1 + 1) - 2) % 3), (((twill_n - 1 + 1) - 2) // 3) & 1)
    fence_async_shared()
    tok_acc_104 = warpgroup_mma(a_buf.index(((twill_n - 1 + 1) - 2) % 3), dq_b_103_p1, acc_104_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
    dq_b_92 = gl.convert_layout(gl.join(dq_b_88, dq_b_91), L9)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_93 = gl.permute(dq_b_92, (0, 2, 1))  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_94 = gl.convert_layout(gl.reshape(dq_b_93, [64, 128]), L10)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    zeros_96 = gl.expand_dims(dq_b_95, 0)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    scales_98 = gl.expand_dims(dq_b_97, 0)  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_99 = zeros_96.broadcast_to([64, 128])  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_100 = dq_b_94 - dq_b_99  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_101 = scales_98.broadcast_to([64, 128])  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_102 = dq_b_100 * dq_b_101  # elementwise0_dq_b: stage 1, partition 0 (group 0)
    dq_b_103 = dq_b_103_st.index(((twill_n - 1 + 1) - 1) % 3)  # local_store0_dq_b: stage 1, partition 0 (group 0)
    dq_b_103.store(dq_b_102)  # local_store0_dq_b: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_dq_b: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_acc_104,))
    mbarrier.arrive(a_empty.index(((twill_n - 1 + 1) - 1 - 2) % 3), pred=((twill_n - 1 + 1) - 1 - 2) >= 0)
    acc_104 = warpgroup_mma_wait(1, deps=(tok_acc_104,))
    B_106_p2 = B_106_p1
    B_106_p1 = B_106
    acc_104_p1 = acc_104
    dq_b_103_p1 = dq_b_103
    qb_p1 = qb
    scales_83_p1 = scales_83
    zeros_85_p1 = zeros_85
    mbarrier.wait(a_ready.index(((twill_n - 1 + 2) - 2) % 3), (((twill_n - 1 + 2) - 2) // 3) & 1)
    fence_async_shared()
    tok_acc_104 = warpgroup_mma(a_buf.index(((twill_n - 1 + 2) - 2) % 3), dq_b_103_p1, acc_104_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_acc_104,))
    mbarrier.arrive(a_empty.index(((twill_n - 1 + 2) - 1 - 2) % 3), pred=((twill_n - 1 + 2) - 1 - 2) >= 0)
    acc_104 = warpgroup_mma_wait(1, deps=(tok_acc_104,))
    B_106_p3 = B_106_p2
    B_106_p2 = B_106_p1
    B_106_p1 = B_106
    acc_104_p1 = acc_104
    dq_b_103_p1 = dq_b_103
    qb_p1 = qb
    scales_83_p1 = scales_83
    zeros_85_p1 = zeros_85
    acc_104_p1 = warpgroup_mma_wait(0, deps=(acc_104_p1,))
    a_buf._keep_alive()
    dq_b_103_st._keep_alive()
    mbarrier.arrive(a_empty.index(((twill_n - 1 + 2) - 2) % 3))
    acc_60 = acc_104_p1.to(gl.bfloat16)
    C_61 = gl.expand_dims(rm_15, 1)
    C_63 = stride_cm * C_61
    C_65 = C + C_63
    C_66 = gl.expand_dims(rn_26, 0)
    C_67 = C_65.broadcast_to([64, 128])
    C_68 = C_66.broadcast_to([64, 128])
    C_69 = C_67 + C_68
    mask_70 = C_61 < M
    mask_72 = C_66 < N
    mask_73 = mask_70.broadcast_to([64, 128])
    mask_74 = mask_72.broadcast_to([64, 128])
    mask_75 = mask_73 & mask_74
    v2 = gl.convert_layout(acc_60, L11)
    gl.store(C_69, v2, mask=mask_75)

@gluon.jit
def producer_1(A, B, scales_ptr, zeros_ptr, C, M, N, K, stride_am, stride_bk, stride_cm, stride_scale_n, a_buf, dq_b_103_st, a_ready, a_empty, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    pid_z = gl.program_id(1)
    grid_m = M + 63
    grid_m_2 = grid_m // 64
    grid_n_3 = N + 127
    grid_n_4 = grid_n_3 // 128
    width = grid_n_4 * 8
    group_id = pid // width
    group_size = group_id * 8
    group_size_5 = grid_m_2 - group_size
    group_size_6 = gl.minimum(group_size_5, 8)
    pid_m = pid % group_size_6
    pid_m_7 = group_size + pid_m
    rm = pid_m_7 * 64
    rm_9 = gl.arange(0, 64, layout=L0)
    rm_11 = gl.arange(0, 64, layout=L2)
    rm_14 = rm + rm_9
    rm_17 = rm_14 % M
    ram = rm_17 % M
    ram = gl.max_contiguous(gl.multiple_of(ram, [64]), [64])
    rak = pid_z * 64
    rak_19 = rak + rm_11
    A_32 = gl.expand_dims(ram, 1)
    A_34 = A_32 * stride_am
    A_35 = gl.expand_dims(rak_19, 0)
    A_36 = A_34.broadcast_to([64, 64])
    A_37 = A_35.broadcast_to([64, 64])
    A_38 = A_36 + A_37
    A_40 = A + A_38
    v0 = K + 63
    v1 = v0 // 64
    A_77 = A_40
    for acc_76 in range(0, v1, 1):
        twill_k = (acc_76 - 0) // 1
        A_105 = A_77 + 64
        mbarrier.wait(a_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 3), A_77)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_ready.index(twill_k % 3), increment_count=False)
        else:
            a_buf.index(twill_k % 3).store(gl.load(A_77))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_ready.index(twill_k % 3), count=128)
        A_77 = A_105

@gluon.jit
def twill_kernel(A, B, scales_ptr, zeros_ptr, C, M, N, K, stride_am, stride_bk, stride_cm, stride_scale_n, TWILL_COPY: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    dq_b_103_st = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    a_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_ready.index(i), count=128)
    a_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (A, B, scales_ptr, zeros_ptr, C, M, N, K, stride_am, stride_bk, stride_cm, stride_scale_n, a_buf, dq_b_103_st, a_ready, a_empty, TWILL_COPY)),
        (producer_1, (A, B, scales_ptr, zeros_ptr, C, M, N, K, stride_am, stride_bk, stride_cm, stride_scale_n, a_buf, dq_b_103_st, a_ready, a_empty, TWILL_COPY)),
    ], [4], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'scales_ptr', 'zeros_ptr', 'C', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_scale_k', 'stride_scale_n', 'IS_BFLOAT16', 'QGROUP_SIZE', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'SPLIT_K', 'EVEN_K', 'TRANSPOSED', 'GROUP_M', 'acc_dtype', 'input_precision', 'fp8_fast_accum', 'DEBUG']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'scales_ptr', 'zeros_ptr', 'C', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'stride_scale_n']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'scales_ptr', 'zeros_ptr', 'C', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'stride_scale_n', 'acc_dtype']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'stride_scale_k': 1, 'IS_BFLOAT16': True, 'QGROUP_SIZE': 128, 'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 64, 'SPLIT_K': 1, 'EVEN_K': True, 'TRANSPOSED': False, 'GROUP_M': 8, 'input_precision': 'ieee', 'fp8_fast_accum': False, 'DEBUG': False}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 63) // 64)', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
