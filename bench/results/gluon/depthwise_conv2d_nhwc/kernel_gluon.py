"""depthwise_conv2d_nhwc_kernel, written by twill from its joint schedule: I=205 L=278 (optimal), 920 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 105 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at depthwise_conv2d_nhwc.py:60 (TTGIR line 110) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=278, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at depthwise_conv2d_nhwc.py:60 (TTGIR line 157) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=278, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(x_ptr, w_ptr, b_ptr, y_ptr, H, W, C, stride_xn, stride_xh, stride_xw, stride_yn, stride_yh, stride_yw):
    twill_base = 0
    pid_n = gl.program_id(0)
    pid_p = gl.program_id(1)
    pid_c = gl.program_id(2)
    offs_p = pid_p * 64
    offs_p_3 = gl.arange(0, 64, layout=L0)
    offs_p_4 = gl.arange(0, 64, layout=L1)
    offs_p_6 = offs_p + offs_p_3
    offs_c = pid_c * 64
    offs_c_8 = offs_c + offs_p_4
    mask_p = H * W
    mask_p_10 = offs_p_6 < mask_p
    mask_c_11 = offs_c_8 < C
    oh_12 = offs_p_6 // W
    ow = offs_p_6 % W
    x_base = gl.cast(pid_n, gl.int64)
    x_base_13 = gl.cast(stride_xn, gl.int64)
    x_base_14 = x_base * x_base_13
    x_base_15 = x_ptr + x_base_14
    ih_16 = oh_12 - 1
    in_bounds = ih_16 >= 0
    in_bounds_17 = mask_p_10 & in_bounds
    in_bounds_19 = ih_16 < H
    in_bounds_20 = in_bounds_17 & in_bounds_19
    x_ptrs_21 = ih_16 * stride_xh
    x_ptrs_24 = gl.expand_dims(offs_c_8, 0)
    x_ptrs_25 = x_ptrs_24.broadcast_to([64, 64])
    x = gl.expand_dims(mask_c_11, 0)
    x_26 = x.broadcast_to([64, 64])
    twill_n = (3 - 0 + 1 - 1) // 1
    w = (0 + (0 - 0) * 1) * C  # load1_w: stage 0, partition 0 (group 0)
    w_96 = w_ptr + w  # load1_w: stage 0, partition 0 (group 0)
    w_97 = w_96  # load1_w: stage 0, partition 0 (group 0)
    w_98 = w_97 + offs_c_8  # load1_w: stage 0, partition 0 (group 0)
    w_99 = gl.load(w_98, mask=mask_c_11, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
    w_99_p1 = w_99
    acc_105 = gl.full([64, 64], 0.0, gl.float32, layout=L2)
    iw_80 = ow + (0 + (1 - 1) * 1)  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    iw_81 = iw_80 - 1  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    in_bounds_82 = iw_81 >= 0  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    in_bounds_83 = in_bounds_20 & in_bounds_82  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    in_bounds_84 = iw_81 < W  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    in_bounds_85 = in_bounds_83 & in_bounds_84  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    x_92 = gl.expand_dims(in_bounds_85, 1)  # elementwise1_x: stage 1, partition 0 (group 0)
    x_93 = x_92.broadcast_to([64, 64])  # elementwise1_x: stage 1, partition 0 (group 0)
    x_94 = x_93 & x_26  # elementwise1_x: stage 1, partition 0 (group 0)
    w = (0 + (1 - 0) * 1) * C  # load1_w: stage 0, partition 0 (group 0)
    w_96 = w_ptr + w  # load1_w: stage 0, partition 0 (group 0)
    w_97 = w_96  # load1_w: stage 0, partition 0 (group 0)
    w_98 = w_97 + offs_c_8  # load1_w: stage 0, partition 0 (group 0)
    w_99 = gl.load(w_98, mask=mask_c_11, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
    acc_101 = w_99_p1.to(gl.float32)  # convert1_acc: stage 1, partition 0 (group 0)
    x_ptrs_86 = iw_81 * stride_xw  # load0_x: stage 1, partition 0 (group 0)
    x_ptrs_87 = x_ptrs_21 + x_ptrs_86  # load0_x: stage 1, partition 0 (group 0)
    x_ptrs_88 = gl.expand_dims(x_ptrs_87, 1)  # load0_x: stage 1, partition 0 (group 0)
    x_ptrs_89 = x_base_15 + x_ptrs_88  # load0_x: stage 1, partition 0 (group 0)
    x_ptrs_90 = x_ptrs_89.broadcast_to([64, 64])  # load0_x: stage 1, partition 0 (group 0)
    x_ptrs_91 = x_ptrs_90 + x_ptrs_25  # load0_x: stage 1, partition 0 (group 0)
    x_95 = gl.load(x_ptrs_91, mask=x_94, other=0.0)  # load0_x: stage 1, partition 0 (group 0)
    acc_101_p1 = acc_101
    acc_105_p1 = acc_105
    w_99_p1 = w_99
    x_95_p1 = x_95
    for twill_b in range(2, twill_n):
        iw = (0 + (twill_b - 1) * 1)  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
        iw_80 = ow + iw  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
        iw_81 = iw_80 - 1  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
        in_bounds_82 = iw_81 >= 0  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
        in_bounds_83 = in_bounds_20 & in_bounds_82  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
        in_bounds_84 = iw_81 < W  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
        in_bounds_85 = in_bounds_83 & in_bounds_84  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
        x_92 = gl.expand_dims(in_bounds_85, 1)  # elementwise1_x: stage 1, partition 0 (group 0)
        x_93 = x_92.broadcast_to([64, 64])  # elementwise1_x: stage 1, partition 0 (group 0)
        x_94 = x_93 & x_26  # elementwise1_x: stage 1, partition 0 (group 0)
        w = (0 + (twill_b - 0) * 1) * C  # load1_w: stage 0, partition 0 (group 0)
        w_96 = w_ptr + w  # load1_w: stage 0, partition 0 (group 0)
        w_97 = w_96  # load1_w: stage 0, partition 0 (group 0)
        w_98 = w_97 + offs_c_8  # load1_w: stage 0, partition 0 (group 0)
        w_99 = gl.load(w_98, mask=mask_c_11, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
        acc_101 = w_99_p1.to(gl.float32)  # convert1_acc: stage 1, partition 0 (group 0)
        x_ptrs_86 = iw_81 * stride_xw  # load0_x: stage 1, partition 0 (group 0)
        x_ptrs_87 = x_ptrs_21 + x_ptrs_86  # load0_x: stage 1, partition 0 (group 0)
        x_ptrs_88 = gl.expand_dims(x_ptrs_87, 1)  # load0_x: stage 1, partition 0 (group 0)
        x_ptrs_89 = x_base_15 + x_ptrs_88  # load0_x: stage 1, partition 0 (group 0)
        x_ptrs_90 = x_ptrs_89.broadcast_to([64, 64])  # load0_x: stage 1, partition 0 (group 0)
        x_ptrs_91 = x_ptrs_90 + x_ptrs_25  # load0_x: stage 1, partition 0 (group 0)
        x_95 = gl.load(x_ptrs_91, mask=x_94, other=0.0)  # load0_x: stage 1, partition 0 (group 0)
        acc_100 = x_95_p1.to(gl.float32)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_102 = gl.expand_dims(acc_101_p1, 0)  # elementwise2_acc: stage 2, partition 0 (group 0)
        acc_103 = acc_102.broadcast_to([64, 64])  # elementwise2_acc: stage 2, partition 0 (group 0)
        acc_104 = acc_100 * acc_103  # elementwise2_acc: stage 2, partition 0 (group 0)
        acc_105 = acc_105_p1 + acc_104  # elementwise2_acc: stage 2, partition 0 (group 0)
        acc_101_p1 = acc_101
        acc_105_p1 = acc_105
        w_99_p1 = w_99
        x_95_p1 = x_95
    iw = (0 + ((twill_n - 1 + 1) - 1) * 1)  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    iw_80 = ow + iw  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    iw_81 = iw_80 - 1  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    in_bounds_82 = iw_81 >= 0  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    in_bounds_83 = in_bounds_20 & in_bounds_82  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    in_bounds_84 = iw_81 < W  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    in_bounds_85 = in_bounds_83 & in_bounds_84  # elementwise0_in_bounds: stage 1, partition 0 (group 0)
    x_92 = gl.expand_dims(in_bounds_85, 1)  # elementwise1_x: stage 1, partition 0 (group 0)
    x_93 = x_92.broadcast_to([64, 64])  # elementwise1_x: stage 1, partition 0 (group 0)
    x_94 = x_93 & x_26  # elementwise1_x: stage 1, partition 0 (group 0)
    acc_101 = w_99_p1.to(gl.float32)  # convert1_acc: stage 1, partition 0 (group 0)
    x_ptrs_86 = iw_81 * stride_xw  # load0_x: stage 1, partition 0 (group 0)
    x_ptrs_87 = x_ptrs_21 + x_ptrs_86  # load0_x: stage 1, partition 0 (group 0)
    x_ptrs_88 = gl.expand_dims(x_ptrs_87, 1)  # load0_x: stage 1, partition 0 (group 0)
    x_ptrs_89 = x_base_15 + x_ptrs_88  # load0_x: stage 1, partition 0 (group 0)
    x_ptrs_90 = x_ptrs_89.broadcast_to([64, 64])  # load0_x: stage 1, partition 0 (group 0)
    x_ptrs_91 = x_ptrs_90 + x_ptrs_25  # load0_x: stage 1, partition 0 (group 0)
    x_95 = gl.load(x_ptrs_91, mask=x_94, other=0.0)  # load0_x: stage 1, partition 0 (group 0)
    acc_100 = x_95_p1.to(gl.float32)  # convert0_acc: stage 2, partition 0 (group 0)
    acc_102 = gl.expand_dims(acc_101_p1, 0)  # elementwise2_acc: stage 2, partition 0 (group 0)
    acc_103 = acc_102.broadcast_to([64, 64])  # elementwise2_acc: stage 2, partition 0 (group 0)
    acc_104 = acc_100 * acc_103  # elementwise2_acc: stage 2, partition 0 (group 0)
    acc_105 = acc_105_p1 + acc_104  # elementwise2_acc: stage 2, partition 0 (group 0)
    acc_101_p1 = acc_101
    acc_105_p1 = acc_105
    w_99_p1 = w_99
    x_95_p1 = x_95
    acc_100 = x_95_p1.to(gl.float32)  # convert0_acc: stage 2, partition 0 (group 0)
    acc_102 = gl.expand_dims(acc_101_p1, 0)  # elementwise2_acc: stage 2, partition 0 (group 0)
    acc_103 = acc_102.broadcast_to([64, 64])  # elementwise2_acc: stage 2, partition 0 (group 0)
    acc_104 = acc_100 * acc_103  # elementwise2_acc: stage 2, partition 0 (group 0)
    acc_105 = acc_105_p1 + acc_104  # elementwise2_acc: stage 2, partition 0 (group 0)
    acc_101_p1 = acc_101
    acc_105_p1 = acc_105
    w_99_p1 = w_99
    x_95_p1 = x_95
    twill_base += twill_n
    in_bounds_28 = oh_12 >= 0
    in_bounds_29 = mask_p_10 & in_bounds_28
    in_bounds_31 = oh_12 < H
    in_bounds_32 = in_bounds_29 & in_bounds_31
    x_ptrs_34 = oh_12 * stride_xh
    x_ptrs_37 = gl.expand_dims(offs_c_8, 0)
    x_ptrs_38 = x_ptrs_37.broadcast_to([64, 64])
    x_39 = gl.expand_dims(mask_c_11, 0)
    x_40 = x_39.broadcast_to([64, 64])
    twill_n = (3 - 0 + 1 - 1) // 1
    acc_106_l1 = acc_105_p1
    iw_80_l1 = ow + (0 + (0 - 0) * 1)  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    iw_81_l1 = iw_80_l1 - 1  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    in_bounds_82_l1 = iw_81_l1 >= 0  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    in_bounds_83_l1 = in_bounds_32 & in_bounds_82_l1  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    in_bounds_84_l1 = iw_81_l1 < W  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    in_bounds_85_l1 = in_bounds_83_l1 & in_bounds_84_l1  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    x_92_l1 = gl.expand_dims(in_bounds_85_l1, 1)  # elementwise1_x: stage 0, partition 0 (group 0)
    x_93_l1 = x_92_l1.broadcast_to([64, 64])  # elementwise1_x: stage 0, partition 0 (group 0)
    x_94_l1 = x_93_l1 & x_40  # elementwise1_x: stage 0, partition 0 (group 0)
    w_l1 = (0 + (0 - 0) * 1) + 3  # load1_w: stage 0, partition 0 (group 0)
    w_96_l1 = w_l1 * C  # load1_w: stage 0, partition 0 (group 0)
    w_97_l1 = w_ptr + w_96_l1  # load1_w: stage 0, partition 0 (group 0)
    w_98_l1 = w_97_l1  # load1_w: stage 0, partition 0 (group 0)
    w_99_l1 = w_98_l1 + offs_c_8  # load1_w: stage 0, partition 0 (group 0)
    w_100_l1 = gl.load(w_99_l1, mask=mask_c_11, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
    x_ptrs_86_l1 = iw_81_l1 * stride_xw  # load0_x: stage 0, partition 0 (group 0)
    x_ptrs_87_l1 = x_ptrs_34 + x_ptrs_86_l1  # load0_x: stage 0, partition 0 (group 0)
    x_ptrs_88_l1 = gl.expand_dims(x_ptrs_87_l1, 1)  # load0_x: stage 0, partition 0 (group 0)
    x_ptrs_89_l1 = x_base_15 + x_ptrs_88_l1  # load0_x: stage 0, partition 0 (group 0)
    x_ptrs_90_l1 = x_ptrs_89_l1.broadcast_to([64, 64])  # load0_x: stage 0, partition 0 (group 0)
    x_ptrs_91_l1 = x_ptrs_90_l1 + x_ptrs_38  # load0_x: stage 0, partition 0 (group 0)
    x_95_l1 = gl.load(x_ptrs_91_l1, mask=x_94_l1, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    acc_106_l1_p1 = acc_106_l1
    w_100_l1_p1 = w_100_l1
    x_95_l1_p1 = x_95_l1
    for twill_b in range(1, twill_n):
        iw_l1 = (0 + (twill_b - 0) * 1)  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        iw_80_l1 = ow + iw_l1  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        iw_81_l1 = iw_80_l1 - 1  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        in_bounds_82_l1 = iw_81_l1 >= 0  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        in_bounds_83_l1 = in_bounds_32 & in_bounds_82_l1  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        in_bounds_84_l1 = iw_81_l1 < W  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        in_bounds_85_l1 = in_bounds_83_l1 & in_bounds_84_l1  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        x_92_l1 = gl.expand_dims(in_bounds_85_l1, 1)  # elementwise1_x: stage 0, partition 0 (group 0)
        x_93_l1 = x_92_l1.broadcast_to([64, 64])  # elementwise1_x: stage 0, partition 0 (group 0)
        x_94_l1 = x_93_l1 & x_40  # elementwise1_x: stage 0, partition 0 (group 0)
        w_l1 = (0 + (twill_b - 0) * 1) + 3  # load1_w: stage 0, partition 0 (group 0)
        w_96_l1 = w_l1 * C  # load1_w: stage 0, partition 0 (group 0)
        w_97_l1 = w_ptr + w_96_l1  # load1_w: stage 0, partition 0 (group 0)
        w_98_l1 = w_97_l1  # load1_w: stage 0, partition 0 (group 0)
        w_99_l1 = w_98_l1 + offs_c_8  # load1_w: stage 0, partition 0 (group 0)
        w_100_l1 = gl.load(w_99_l1, mask=mask_c_11, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
        acc_102_l1 = w_100_l1_p1.to(gl.float32)  # convert1_acc: stage 1, partition 0 (group 0)
        x_ptrs_86_l1 = iw_81_l1 * stride_xw  # load0_x: stage 0, partition 0 (group 0)
        x_ptrs_87_l1 = x_ptrs_34 + x_ptrs_86_l1  # load0_x: stage 0, partition 0 (group 0)
        x_ptrs_88_l1 = gl.expand_dims(x_ptrs_87_l1, 1)  # load0_x: stage 0, partition 0 (group 0)
        x_ptrs_89_l1 = x_base_15 + x_ptrs_88_l1  # load0_x: stage 0, partition 0 (group 0)
        x_ptrs_90_l1 = x_ptrs_89_l1.broadcast_to([64, 64])  # load0_x: stage 0, partition 0 (group 0)
        x_ptrs_91_l1 = x_ptrs_90_l1 + x_ptrs_38  # load0_x: stage 0, partition 0 (group 0)
        x_95_l1 = gl.load(x_ptrs_91_l1, mask=x_94_l1, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        acc_101_l1 = x_95_l1_p1.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_103_l1 = gl.expand_dims(acc_102_l1, 0)  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_104_l1 = acc_103_l1.broadcast_to([64, 64])  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_105_l1 = acc_101_l1 * acc_104_l1  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_106_l1 = acc_106_l1_p1 + acc_105_l1  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_106_l1_p1 = acc_106_l1
        w_100_l1_p1 = w_100_l1
        x_95_l1_p1 = x_95_l1
    acc_102_l1 = w_100_l1_p1.to(gl.float32)  # convert1_acc: stage 1, partition 0 (group 0)
    acc_101_l1 = x_95_l1_p1.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
    acc_103_l1 = gl.expand_dims(acc_102_l1, 0)  # elementwise2_acc: stage 1, partition 0 (group 0)
    acc_104_l1 = acc_103_l1.broadcast_to([64, 64])  # elementwise2_acc: stage 1, partition 0 (group 0)
    acc_105_l1 = acc_101_l1 * acc_104_l1  # elementwise2_acc: stage 1, partition 0 (group 0)
    acc_106_l1 = acc_106_l1_p1 + acc_105_l1  # elementwise2_acc: stage 1, partition 0 (group 0)
    acc_106_l1_p1 = acc_106_l1
    w_100_l1_p1 = w_100_l1
    x_95_l1_p1 = x_95_l1
    twill_base += twill_n
    ih_42 = oh_12 + 2
    ih_43 = ih_42 - 1
    in_bounds_44 = ih_43 >= 0
    in_bounds_45 = mask_p_10 & in_bounds_44
    in_bounds_47 = ih_43 < H
    in_bounds_48 = in_bounds_45 & in_bounds_47
    x_ptrs_50 = ih_43 * stride_xh
    x_ptrs_53 = gl.expand_dims(offs_c_8, 0)
    x_ptrs_54 = x_ptrs_53.broadcast_to([64, 64])
    x_55 = gl.expand_dims(mask_c_11, 0)
    x_56 = x_55.broadcast_to([64, 64])
    twill_n = (3 - 0 + 1 - 1) // 1
    acc_106_l2 = acc_106_l1_p1
    iw_80_l2 = ow + (0 + (0 - 0) * 1)  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    iw_81_l2 = iw_80_l2 - 1  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    in_bounds_82_l2 = iw_81_l2 >= 0  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    in_bounds_83_l2 = in_bounds_48 & in_bounds_82_l2  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    in_bounds_84_l2 = iw_81_l2 < W  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    in_bounds_85_l2 = in_bounds_83_l2 & in_bounds_84_l2  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
    x_92_l2 = gl.expand_dims(in_bounds_85_l2, 1)  # elementwise1_x: stage 0, partition 0 (group 0)
    x_93_l2 = x_92_l2.broadcast_to([64, 64])  # elementwise1_x: stage 0, partition 0 (group 0)
    x_94_l2 = x_93_l2 & x_56  # elementwise1_x: stage 0, partition 0 (group 0)
    w_l2 = (0 + (0 - 0) * 1) + 6  # load1_w: stage 0, partition 0 (group 0)
    w_96_l2 = w_l2 * C  # load1_w: stage 0, partition 0 (group 0)
    w_97_l2 = w_ptr + w_96_l2  # load1_w: stage 0, partition 0 (group 0)
    w_98_l2 = w_97_l2  # load1_w: stage 0, partition 0 (group 0)
    w_99_l2 = w_98_l2 + offs_c_8  # load1_w: stage 0, partition 0 (group 0)
    w_100_l2 = gl.load(w_99_l2, mask=mask_c_11, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
    x_ptrs_86_l2 = iw_81_l2 * stride_xw  # load0_x: stage 0, partition 0 (group 0)
    x_ptrs_87_l2 = x_ptrs_50 + x_ptrs_86_l2  # load0_x: stage 0, partition 0 (group 0)
    x_ptrs_88_l2 = gl.expand_dims(x_ptrs_87_l2, 1)  # load0_x: stage 0, partition 0 (group 0)
    x_ptrs_89_l2 = x_base_15 + x_ptrs_88_l2  # load0_x: stage 0, partition 0 (group 0)
    x_ptrs_90_l2 = x_ptrs_89_l2.broadcast_to([64, 64])  # load0_x: stage 0, partition 0 (group 0)
    x_ptrs_91_l2 = x_ptrs_90_l2 + x_ptrs_54  # load0_x: stage 0, partition 0 (group 0)
    x_95_l2 = gl.load(x_ptrs_91_l2, mask=x_94_l2, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    acc_106_l2_p1 = acc_106_l2
    w_100_l2_p1 = w_100_l2
    x_95_l2_p1 = x_95_l2
    for twill_b in range(1, twill_n):
        iw_l2 = (0 + (twill_b - 0) * 1)  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        iw_80_l2 = ow + iw_l2  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        iw_81_l2 = iw_80_l2 - 1  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        in_bounds_82_l2 = iw_81_l2 >= 0  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        in_bounds_83_l2 = in_bounds_48 & in_bounds_82_l2  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        in_bounds_84_l2 = iw_81_l2 < W  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        in_bounds_85_l2 = in_bounds_83_l2 & in_bounds_84_l2  # elementwise0_in_bounds: stage 0, partition 0 (group 0)
        x_92_l2 = gl.expand_dims(in_bounds_85_l2, 1)  # elementwise1_x: stage 0, partition 0 (group 0)
        x_93_l2 = x_92_l2.broadcast_to([64, 64])  # elementwise1_x: stage 0, partition 0 (group 0)
        x_94_l2 = x_93_l2 & x_56  # elementwise1_x: stage 0, partition 0 (group 0)
        w_l2 = (0 + (twill_b - 0) * 1) + 6  # load1_w: stage 0, partition 0 (group 0)
        w_96_l2 = w_l2 * C  # load1_w: stage 0, partition 0 (group 0)
        w_97_l2 = w_ptr + w_96_l2  # load1_w: stage 0, partition 0 (group 0)
        w_98_l2 = w_97_l2  # load1_w: stage 0, partition 0 (group 0)
        w_99_l2 = w_98_l2 + offs_c_8  # load1_w: stage 0, partition 0 (group 0)
        w_100_l2 = gl.load(w_99_l2, mask=mask_c_11, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
        acc_102_l2 = w_100_l2_p1.to(gl.float32)  # convert1_acc: stage 1, partition 0 (group 0)
        x_ptrs_86_l2 = iw_81_l2 * stride_xw  # load0_x: stage 0, partition 0 (group 0)
        x_ptrs_87_l2 = x_ptrs_50 + x_ptrs_86_l2  # load0_x: stage 0, partition 0 (group 0)
        x_ptrs_88_l2 = gl.expand_dims(x_ptrs_87_l2, 1)  # load0_x: stage 0, partition 0 (group 0)
        x_ptrs_89_l2 = x_base_15 + x_ptrs_88_l2  # load0_x: stage 0, partition 0 (group 0)
        x_ptrs_90_l2 = x_ptrs_89_l2.broadcast_to([64, 64])  # load0_x: stage 0, partition 0 (group 0)
        x_ptrs_91_l2 = x_ptrs_90_l2 + x_ptrs_54  # load0_x: stage 0, partition 0 (group 0)
        x_95_l2 = gl.load(x_ptrs_91_l2, mask=x_94_l2, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        acc_101_l2 = x_95_l2_p1.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_103_l2 = gl.expand_dims(acc_102_l2, 0)  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_104_l2 = acc_103_l2.broadcast_to([64, 64])  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_105_l2 = acc_101_l2 * acc_104_l2  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_106_l2 = acc_106_l2_p1 + acc_105_l2  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_106_l2_p1 = acc_106_l2
        w_100_l2_p1 = w_100_l2
        x_95_l2_p1 = x_95_l2
    acc_102_l2 = w_100_l2_p1.to(gl.float32)  # convert1_acc: stage 1, partition 0 (group 0)
    acc_101_l2 = x_95_l2_p1.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
    acc_103_l2 = gl.expand_dims(acc_102_l2, 0)  # elementwise2_acc: stage 1, partition 0 (group 0)
    acc_104_l2 = acc_103_l2.broadcast_to([64, 64])  # elementwise2_acc: stage 1, partition 0 (group 0)
    acc_105_l2 = acc_101_l2 * acc_104_l2  # elementwise2_acc: stage 1, partition 0 (group 0)
    acc_106_l2 = acc_106_l2_p1 + acc_105_l2  # elementwise2_acc: stage 1, partition 0 (group 0)
    acc_106_l2_p1 = acc_106_l2
    w_100_l2_p1 = w_100_l2
    x_95_l2_p1 = x_95_l2
    bias_58 = b_ptr + offs_c_8
    bias_59 = gl.load(bias_58, mask=mask_c_11, other=0.0)
    acc_60 = bias_59.to(gl.float32)
    acc_61 = gl.expand_dims(acc_60, 0)
    acc_62 = acc_61.broadcast_to([64, 64])
    acc_63 = acc_106_l2_p1 + acc_62
    y_ptrs = gl.cast(stride_yn, gl.int64)
    y_ptrs_64 = x_base * y_ptrs
    y_ptrs_65 = y_ptr + y_ptrs_64
    y_ptrs_67 = oh_12 * stride_yh
    y_ptrs_69 = ow * stride_yw
    y_ptrs_70 = y_ptrs_67 + y_ptrs_69
    y_ptrs_71 = gl.expand_dims(y_ptrs_70, 1)
    y_ptrs_73 = y_ptrs_65 + y_ptrs_71
    y_ptrs_74 = gl.expand_dims(offs_c_8, 0)
    y_ptrs_75 = y_ptrs_73.broadcast_to([64, 64])
    y_ptrs_76 = y_ptrs_74.broadcast_to([64, 64])
    y_ptrs_77 = y_ptrs_75 + y_ptrs_76
    v0 = gl.expand_dims(mask_p_10, 1)
    v1 = gl.expand_dims(mask_c_11, 0)
    v2 = v0.broadcast_to([64, 64])
    v3 = v1.broadcast_to([64, 64])
    v4 = v2 & v3
    v5 = acc_63.to(gl.float16)
    gl.store(y_ptrs_77, v5, mask=v4)

@gluon.jit
def twill_kernel(x_ptr, w_ptr, b_ptr, y_ptr, H, W, C, stride_xn, stride_xh, stride_xw, stride_yn, stride_yh, stride_yw):
    consumer_0(x_ptr, w_ptr, b_ptr, y_ptr, H, W, C, stride_xn, stride_xh, stride_xw, stride_yn, stride_yh, stride_yw, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'w_ptr', 'b_ptr', 'y_ptr', 'H', 'W', 'C', 'stride_xn', 'stride_xh', 'stride_xw', 'stride_yn', 'stride_yh', 'stride_yw', 'KH', 'KW', 'PAD', 'BLOCK_P', 'BLOCK_C']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'w_ptr', 'b_ptr', 'y_ptr', 'H', 'W', 'C', 'stride_xn', 'stride_xh', 'stride_xw', 'stride_yn', 'stride_yh', 'stride_yw']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'w_ptr', 'b_ptr', 'y_ptr', 'H', 'W', 'C', 'stride_xn', 'stride_xh', 'stride_xw', 'stride_yn', 'stride_yh', 'stride_yw']   # the arguments a launch key reads
CONSTEXPRS = {'KH': 3, 'KW': 3, 'PAD': 1, 'BLOCK_P': 64, 'BLOCK_C': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
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
    flags = {}
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
