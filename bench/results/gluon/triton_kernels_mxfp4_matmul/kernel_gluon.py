"""_matmul_mxfp4, written by twill from its joint schedule: I=148 L=148 (optimal), 986 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (x_94): their addresses and masks spread over 128 threads
- register-read pointer tiles copied by their consumer with cp.async (w_98_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- two CTAs per SM: the partitions' registers (168, 64 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- x_94 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over X when the base is 16-byte aligned, the row strides 16-byte multiples, (M) % 64 == 0; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 168): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring x_94: 4 buffers of [64, 128] bf16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 82000 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 8], [8, 0], [16, 0], [32, 0], [0, 64]], lane_bases=[[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[0, 16], [0, 32]], block_bases=[], shape=[64, 128]))
L8 = gl.constexpr(gl.SliceLayout(2, gl.DistributedLinearLayout(reg_bases=[[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 0, 16], [0, 1, 0], [0, 2, 0], [64, 0, 0]], lane_bases=[[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp_bases=[[16, 0, 0], [32, 0, 0]], block_bases=[], shape=[128, 4, 32])))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1]))
L10 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 8], [4, 0], [8, 0], [16, 0], [32, 0], [0, 64]], lane_bases=[[1, 0], [2, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[0, 16], [0, 32]], block_bases=[], shape=[64, 128]))
L11 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=1))
L12 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L13 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L14 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L15 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Y, X, W, WMxScale, B, M, N, K, stride_x_m, stride_w_n, stride_w_mx_n, stride_y_m, twill_box_x_94, x_94_buf, w_98_as, x_94_ready, x_94_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    grid_m_6 = M + 63
    grid_m_7 = grid_m_6 // 64
    grid_n_8 = N + 127
    grid_n_9 = grid_n_8 // 128
    width = grid_n_9 * 8
    group_id = pid // width
    group_size = group_id * 8
    group_size_10 = grid_m_7 - group_size
    group_size_11 = gl.minimum(group_size_10, 8)
    pid_m = pid % group_size_11
    pid_m_12 = group_size + pid_m
    pid_n = pid % width
    pid_n_13 = pid_n // group_size_11
    offs_x_m = pid_m_12 * 64
    offs_x_m_14 = gl.arange(0, 64, layout=L0)
    offs_x_m_16 = offs_x_m + offs_x_m_14
    offs_x_m_18 = offs_x_m_16 % M
    offs_x_m_18 = gl.max_contiguous(gl.multiple_of(offs_x_m_18, [64]), [64])
    offs_w_n = pid_n_13 * 128
    offs_w_n_19 = gl.arange(0, 128, layout=L1)
    offs_w_n_20 = gl.arange(0, 128, layout=L2)
    offs_w_n_21 = gl.arange(0, 128, layout=L3)
    offs_w_n_22 = gl.arange(0, 128, layout=L4)
    offs_w_n_27 = offs_w_n + offs_w_n_19
    offs_w_n_28 = offs_w_n + offs_w_n_20
    offs_w_n_29 = offs_w_n + offs_w_n_21
    offs_w_n_30 = offs_w_n + offs_w_n_22
    offs_w_n_34 = offs_w_n_27 % N
    offs_w_n_34 = gl.max_contiguous(gl.multiple_of(offs_w_n_34, [128]), [128])
    offs_w_n_35 = offs_w_n_29 % N
    offs_w_n_35 = gl.max_contiguous(gl.multiple_of(offs_w_n_35, [128]), [128])
    XPtrs = offs_x_m_18.to(gl.int64)
    XPtrs_36 = gl.expand_dims(XPtrs, 1)
    XPtrs_37 = gl.cast(stride_x_m, gl.int64)
    XPtrs_39 = XPtrs_36 * XPtrs_37
    XPtrs_41 = X + XPtrs_39
    XPtrs_42 = gl.expand_dims(offs_w_n_20, 0)
    XPtrs_43 = XPtrs_41.broadcast_to([64, 128])
    XPtrs_44 = XPtrs_42.broadcast_to([64, 128])
    XPtrs_45 = XPtrs_43 + XPtrs_44
    WPtrs = gl.arange(0, 64, layout=L5)
    WPtrs_46 = gl.expand_dims(WPtrs, 1)
    WPtrs_48 = W + WPtrs_46
    WPtrs_49 = offs_w_n_34.to(gl.int64)
    WPtrs_50 = offs_w_n_35.to(gl.int64)
    WPtrs_51 = gl.expand_dims(WPtrs_49, 0)
    WPtrs_52 = gl.cast(stride_w_n, gl.int64)
    WPtrs_54 = WPtrs_51 * WPtrs_52
    WPtrs_55 = WPtrs_48.broadcast_to([64, 128])
    WPtrs_56 = WPtrs_54.broadcast_to([64, 128])
    WPtrs_57 = WPtrs_55 + WPtrs_56
    WMxScalePtrs = gl.expand_dims(WPtrs_50, 1)
    WMxScalePtrs_58 = gl.cast(stride_w_mx_n, gl.int64)
    WMxScalePtrs_60 = WMxScalePtrs * WMxScalePtrs_58
    WMxScalePtrs_62 = WMxScale + WMxScalePtrs_60
    WMxScalePtrs_63 = gl.arange(0, 4, layout=L6)
    WMxScalePtrs_64 = gl.expand_dims(WMxScalePtrs_63, 0)
    WMxScalePtrs_65 = WMxScalePtrs_62.broadcast_to([128, 4])
    WMxScalePtrs_66 = WMxScalePtrs_64.broadcast_to([128, 4])
    WMxScalePtrs_67 = WMxScalePtrs_65 + WMxScalePtrs_66
    twill_n = (K - 0 + 128 - 1) // 128
    WPtrs_121 = WPtrs_57
    WMxScalePtrs_122 = WMxScalePtrs_67
    WMxScalePtrs_122_p1 = WMxScalePtrs_122
    WPtrs_121_p1 = WPtrs_121
    acc_119 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
    x = K - (0 + (0 - 0) * 128)  # load0_x: stage 0, partition 0 (group 0)
    w_scales = x + 31  # load2_w_scales: stage 0, partition 0 (group 0)
    w_scales_100 = w_scales // 32  # load2_w_scales: stage 0, partition 0 (group 0)
    w_scales_101 = w_scales_100  # load2_w_scales: stage 0, partition 0 (group 0)
    w_scales_102 = WMxScalePtrs_64 < w_scales_101  # load2_w_scales: stage 0, partition 0 (group 0)
    w_scales_103 = w_scales_102.broadcast_to([128, 4])  # load2_w_scales: stage 0, partition 0 (group 0)
    WMxScalePtrs_122 = WMxScalePtrs_122_p1 + 4  # load2_w_scales: stage 0, partition 0 (group 0)
    w_scales_104 = gl.load(WMxScalePtrs_122_p1, mask=w_scales_103, other=0)  # load2_w_scales: stage 0, partition 0 (group 0)
    w = x // 2  # load1_w: stage 0, partition 0 (group 0)
    w_95 = w  # load1_w: stage 0, partition 0 (group 0)
    w_96 = WPtrs_46 < w_95  # load1_w: stage 0, partition 0 (group 0)
    w_97 = w_96.broadcast_to([64, 128])  # load1_w: stage 0, partition 0 (group 0)
    WPtrs_121 = WPtrs_121_p1 + 64  # load1_w: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_w: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(w_98_as.index((0 - 0) % 2), WPtrs_121_p1, mask=w_97)  # load1_w: stage 0, partition 0 (group 0)
    else:  # load1_w: stage 0, partition 0 (group 0)
        w_98_as.index((0 - 0) % 2).store(gl.load(WPtrs_121_p1, mask=w_97, other=0))  # load1_w: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    WMxScalePtrs_122_p1 = WMxScalePtrs_122
    WPtrs_121_p1 = WPtrs_121
    acc_119_p1 = acc_119
    w_scales_104_p1 = w_scales_104
    for twill_b in range(1, twill_n):
        x = K - (0 + (twill_b - 0) * 128)  # load0_x: stage 0, partition 0 (group 0)
        w_scales = x + 31  # load2_w_scales: stage 0, partition 0 (group 0)
        w_scales_100 = w_scales // 32  # load2_w_scales: stage 0, partition 0 (group 0)
        w_scales_101 = w_scales_100  # load2_w_scales: stage 0, partition 0 (group 0)
        w_scales_102 = WMxScalePtrs_64 < w_scales_101  # load2_w_scales: stage 0, partition 0 (group 0)
        w_scales_103 = w_scales_102.broadcast_to([128, 4])  # load2_w_scales: stage 0, partition 0 (group 0)
        WMxScalePtrs_122 = WMxScalePtrs_122_p1 + 4  # load2_w_scales: stage 0, partition 0 (group 0)
        w_scales_104 = gl.load(WMxScalePtrs_122_p1, mask=w_scales_103, other=0)  # load2_w_scales: stage 0, partition 0 (group 0)
        w_105 = gl.convert_layout(w_scales_104_p1, L8)  # convert1_w: stage 1, partition 0 (group 0)
        w_scales_109 = gl.cast(gl.cast(w_105, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert2_w_scales: stage 1, partition 0 (group 0)
        w_scales_110 = w_scales_109 << 7  # convert2_w_scales: stage 1, partition 0 (group 0)
        w_scales_111 = w_scales_110.to(gl.bfloat16, bitcast=True)  # convert2_w_scales: stage 1, partition 0 (group 0)
        w = x // 2  # load1_w: stage 0, partition 0 (group 0)
        w_95 = w  # load1_w: stage 0, partition 0 (group 0)
        w_96 = WPtrs_46 < w_95  # load1_w: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        w_98 = w_98_as.index((twill_b - 1) % 2).load(L9)  # load1_w: stage 1, partition 0 (group 0)
        w_97 = w_96.broadcast_to([64, 128])  # load1_w: stage 0, partition 0 (group 0)
        WPtrs_121 = WPtrs_121_p1 + 64  # load1_w: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_w: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(w_98_as.index((twill_b - 0) % 2), WPtrs_121_p1, mask=w_97)  # load1_w: stage 0, partition 0 (group 0)
        else:  # load1_w: stage 0, partition 0 (group 0)
            w_98_as.index((twill_b - 0) % 2).store(gl.load(WPtrs_121_p1, mask=w_97, other=0))  # load1_w: stage 0, partition 0 (group 0)
        w_99 = gl.convert_layout(w_98, L10)  # convert0_w: stage 1, partition 0 (group 0)
        w_106 = gl.convert_layout(gl.permute(w_99, (1, 0)), L11)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_108 = gl.convert_layout(gl.fp4_to_fp(w_106, gl.bfloat16, 1), L12)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_scales_112 = gl.expand_dims(w_scales_111, 2)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_scales_113 = w_scales_112.broadcast_to([128, 4, 32])  # elementwise0_w: stage 1, partition 0 (group 0)
        w_scales_114 = gl.convert_layout(gl.reshape(w_scales_113, [128, 128]), L12)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_115 = w_108 * w_scales_114  # elementwise0_w: stage 1, partition 0 (group 0)
        acc_107 = gl.convert_layout(gl.permute(acc_119_p1, (1, 0)), L13)  # dot0_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(x_94_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_118 = warpgroup_mma(w_115, x_94_buf.index((twill_b - 1) % 4).permute((1, 0)), acc_107, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        acc_118 = warpgroup_mma_wait(0, deps=(tok_acc_118,))
        mbarrier.arrive(x_94_empty.index((twill_b - 1) % 4))
        acc_119 = gl.convert_layout(gl.permute(acc_118, (1, 0)), L7)  # dot0_acc: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        WMxScalePtrs_122_p1 = WMxScalePtrs_122
        WPtrs_121_p1 = WPtrs_121
        acc_119_p1 = acc_119
        w_scales_104_p1 = w_scales_104
    w_105 = gl.convert_layout(w_scales_104_p1, L8)  # convert1_w: stage 1, partition 0 (group 0)
    w_scales_109 = gl.cast(gl.cast(w_105, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert2_w_scales: stage 1, partition 0 (group 0)
    w_scales_110 = w_scales_109 << 7  # convert2_w_scales: stage 1, partition 0 (group 0)
    w_scales_111 = w_scales_110.to(gl.bfloat16, bitcast=True)  # convert2_w_scales: stage 1, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    w_98 = w_98_as.index(((twill_n - 1 + 1) - 1) % 2).load(L9)  # load1_w: stage 1, partition 0 (group 0)
    w_99 = gl.convert_layout(w_98, L10)  # convert0_w: stage 1, partition 0 (group 0)
    w_106 = gl.convert_layout(gl.permute(w_99, (1, 0)), L11)  # elementwise0_w: stage 1, partition 0 (group 0)
    w_108 = gl.convert_layout(gl.fp4_to_fp(w_106, gl.bfloat16, 1), L12)  # elementwise0_w: stage 1, partition 0 (group 0)
    w_scales_112 = gl.expand_dims(w_scales_111, 2)  # elementwise0_w: stage 1, partition 0 (group 0)
    w_scales_113 = w_scales_112.broadcast_to([128, 4, 32])  # elementwise0_w: stage 1, partition 0 (group 0)
    w_scales_114 = gl.convert_layout(gl.reshape(w_scales_113, [128, 128]), L12)  # elementwise0_w: stage 1, partition 0 (group 0)
    w_115 = w_108 * w_scales_114  # elementwise0_w: stage 1, partition 0 (group 0)
    acc_107 = gl.convert_layout(gl.permute(acc_119_p1, (1, 0)), L13)  # dot0_acc: stage 1, partition 0 (group 0)
    mbarrier.wait(x_94_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
    fence_async_shared()
    tok_acc_118 = warpgroup_mma(w_115, x_94_buf.index(((twill_n - 1 + 1) - 1) % 4).permute((1, 0)), acc_107, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
    acc_118 = warpgroup_mma_wait(0, deps=(tok_acc_118,))
    mbarrier.arrive(x_94_empty.index(((twill_n - 1 + 1) - 1) % 4))
    acc_119 = gl.convert_layout(gl.permute(acc_118, (1, 0)), L7)  # dot0_acc: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    WMxScalePtrs_122_p2 = WMxScalePtrs_122_p1
    WMxScalePtrs_122_p1 = WMxScalePtrs_122
    WPtrs_121_p2 = WPtrs_121_p1
    WPtrs_121_p1 = WPtrs_121
    acc_119_p1 = acc_119
    w_scales_104_p1 = w_scales_104
    x_94_buf._keep_alive()
    bias_69 = offs_w_n_30 < N
    bias_71 = B + offs_w_n_30
    bias_72 = gl.load(bias_71, mask=bias_69, other=0.0)
    acc_73 = gl.convert_layout(bias_72, L14)
    acc_74 = gl.expand_dims(acc_73, 0)
    acc_75 = gl.convert_layout(acc_74, L7)
    acc_76 = acc_75.broadcast_to([64, 128])
    acc_77 = acc_119_p1 + acc_76
    mask = gl.expand_dims(offs_x_m_16, 1)
    mask_79 = mask < M
    mask_80 = gl.expand_dims(offs_w_n_28, 0)
    mask_82 = mask_80 < N
    mask_83 = mask_79.broadcast_to([64, 128])
    mask_84 = mask_82.broadcast_to([64, 128])
    mask_85 = mask_83 & mask_84
    v0 = offs_x_m_16.to(gl.int64)
    v1 = gl.expand_dims(v0, 1)
    v2 = gl.cast(stride_y_m, gl.int64)
    v4 = v1 * v2
    v6 = Y + v4
    v7 = v6.broadcast_to([64, 128])
    v8 = mask_80.broadcast_to([64, 128])
    v9 = v7 + v8
    v10 = acc_77.to(gl.bfloat16)
    v11 = gl.convert_layout(v10, L15)
    gl.store(v9, v11, mask=mask_85)

@gluon.jit
def producer_1(Y, X, W, WMxScale, B, M, N, K, stride_x_m, stride_w_n, stride_w_mx_n, stride_y_m, twill_box_x_94, x_94_buf, w_98_as, x_94_ready, x_94_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    grid_m_6 = M + 63
    grid_m_7 = grid_m_6 // 64
    grid_n_8 = N + 127
    grid_n_9 = grid_n_8 // 128
    width = grid_n_9 * 8
    group_id = pid // width
    group_size = group_id * 8
    group_size_10 = grid_m_7 - group_size
    group_size_11 = gl.minimum(group_size_10, 8)
    pid_m = pid % group_size_11
    pid_m_12 = group_size + pid_m
    offs_x_m = pid_m_12 * 64
    offs_x_m_14 = gl.arange(0, 64, layout=L0)
    offs_x_m_16 = offs_x_m + offs_x_m_14
    offs_x_m_18 = offs_x_m_16 % M
    offs_x_m_18 = gl.max_contiguous(gl.multiple_of(offs_x_m_18, [64]), [64])
    offs_w_n_20 = gl.arange(0, 128, layout=L2)
    XPtrs = offs_x_m_18.to(gl.int64)
    XPtrs_36 = gl.expand_dims(XPtrs, 1)
    XPtrs_37 = gl.cast(stride_x_m, gl.int64)
    XPtrs_39 = XPtrs_36 * XPtrs_37
    XPtrs_41 = X + XPtrs_39
    XPtrs_42 = gl.expand_dims(offs_w_n_20, 0)
    XPtrs_43 = XPtrs_41.broadcast_to([64, 128])
    XPtrs_44 = XPtrs_42.broadcast_to([64, 128])
    XPtrs_45 = XPtrs_43 + XPtrs_44
    XPtrs_88 = XPtrs_45
    for acc_86 in range(0, K, 128):
        twill_k = (acc_86 - 0) // 128
        x = K - acc_86
        x_92 = XPtrs_42 < x
        x_93 = x_92.broadcast_to([64, 128])
        XPtrs_120 = XPtrs_88 + 128
        mbarrier.wait(x_94_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(x_94_ready.index(twill_k % 4), twill_box_x_94.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_x_94, [((512 * group_id + 64 * pid_m) % (M)), 128 * ((acc_86 - 0) // 128)], x_94_ready.index(twill_k % 4), x_94_buf.index(twill_k % 4))  # load0_x: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_94_buf.index(twill_k % 4), XPtrs_88, mask=x_93)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_94_ready.index(twill_k % 4), increment_count=False)
            else:
                x_94_buf.index(twill_k % 4).store(gl.load(XPtrs_88, mask=x_93, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_94_ready.index(twill_k % 4), count=128)
        XPtrs_88 = XPtrs_120

@gluon.jit
def twill_kernel(Y, X, W, WMxScale, B, M, N, K, stride_x_m, stride_w_n, stride_w_mx_n, stride_y_m, twill_box_x_94, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    x_94_buf = gl.allocate_shared_memory(gl.bfloat16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_98_as = gl.allocate_shared_memory(gl.int8, [2, 64, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0, 1]))
    x_94_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(x_94_ready.index(i), count=1 if TWILL_TMA else 128)
    x_94_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(x_94_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Y, X, W, WMxScale, B, M, N, K, stride_x_m, stride_w_n, stride_w_mx_n, stride_y_m, twill_box_x_94, x_94_buf, w_98_as, x_94_ready, x_94_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (Y, X, W, WMxScale, B, M, N, K, stride_x_m, stride_w_n, stride_w_mx_n, stride_y_m, twill_box_x_94, x_94_buf, w_98_as, x_94_ready, x_94_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Y', 'X', 'W', 'WMxScale', 'B', 'M', 'N', 'K', 'stride_x_m', 'stride_x_k', 'stride_w_n', 'stride_w_k', 'stride_w_mx_n', 'stride_w_mx_k', 'stride_y_m', 'stride_y_n', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M', 'EVEN_K', 'HAS_BIAS']          # the Triton kernel's parameters, in order
RUNTIME = ['Y', 'X', 'W', 'WMxScale', 'B', 'M', 'N', 'K', 'stride_x_m', 'stride_w_n', 'stride_w_mx_n', 'stride_y_m', 'twill_box_x_94']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Y', 'X', 'W', 'WMxScale', 'B', 'M', 'N', 'K', 'stride_x_m', 'stride_w_n', 'stride_w_mx_n', 'stride_y_m']   # the arguments a launch key reads
CONSTEXPRS = {'stride_x_k': 1, 'stride_w_k': 1, 'stride_w_mx_k': 1, 'stride_y_n': 1, 'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 128, 'GROUP_M': 8, 'EVEN_K': False, 'HAS_BIAS': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_x_94': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_x_94': ('X', ['stride_x_m', '1'], [None, 'K'], [64, 128], ['(M) % 64 == 0'])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['X', 'W', 'K', 'stride_x_m', 'stride_w_n']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(K + 128 - 1) // 128', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((K + 128 - 1) // 128): run the Triton kernel for it")
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
