"""triton_conv, written by twill from its joint schedule: I=251 L=251 (optimal), 3210 cycles per iteration predicted.

Decisions (each from the schedule):
- matrix_x copied with cp.async at every launch, not by TMA: its addresses go through arith.divsi (%idx_n), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (matrix_x, matrix_w): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (200, 88 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- matrix_w by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over W when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 160 registers per thread (needs about 200): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring matrix_x: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring matrix_w: 3 buffers of [64, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 98416 bytes planned of 232448; maxnreg 128
- loop at inductor_conv_unrolled.py:41 (TTGIR line 161) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=251, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at inductor_conv_unrolled.py:41 (TTGIR line 230) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=251, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at inductor_conv_unrolled.py:41 (TTGIR line 297) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=251, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at inductor_conv_unrolled.py:41 (TTGIR line 363) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=251, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at inductor_conv_unrolled.py:41 (TTGIR line 431) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=251, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at inductor_conv_unrolled.py:41 (TTGIR line 500) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=251, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at inductor_conv_unrolled.py:41 (TTGIR line 568) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=251, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at inductor_conv_unrolled.py:41 (TTGIR line 638) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=251, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(X, W, Y, BATCH, IN_H, IN_W, IN_C, OUT_H, OUT_W, OUT_C, twill_box_matrix_w, twill_box_matrix_w_l1, twill_box_matrix_w_l2, twill_box_matrix_w_l3, twill_box_matrix_w_l4, twill_box_matrix_w_l5, twill_box_matrix_w_l6, twill_box_matrix_w_l7, twill_box_matrix_w_l8, matrix_x_buf, matrix_w_buf, matrix_x_ready, matrix_x_empty, matrix_w_ready, matrix_w_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    nhw = gl.program_id(0)
    nhw_5 = nhw * 128
    nhw_6 = gl.arange(0, 128, layout=L0)
    nhw_7 = gl.arange(0, 128, layout=L1)
    nhw_8 = gl.arange(0, 128, layout=L2)
    nhw_11 = nhw_5 + nhw_6
    nhw_12 = nhw_5 + nhw_7
    idx_y_w_14 = nhw_11 % OUT_W
    idx_y_w_15 = nhw_12 % OUT_W
    nh = nhw_11 // OUT_W
    nh_16 = nhw_12 // OUT_W
    idx_y_h_18 = nh % OUT_H
    idx_y_h_19 = nh_16 % OUT_H
    idx_n = nh // OUT_H
    idx_n_20 = nh_16 // OUT_H
    idx_y_c = gl.program_id(1)
    idx_y_c_21 = idx_y_c * 128
    idx_y_c_23 = idx_y_c_21 + nhw_8
    idx_x_h = idx_y_h_18 - 1
    idx_x_w = idx_y_w_14 - 1
    idx_x_c = gl.arange(0, 64, layout=L3)
    idx_x_c_24 = gl.arange(0, 64, layout=L1)
    x_ptrs_25 = idx_n * IN_H
    x_ptrs_26 = x_ptrs_25 + idx_x_h
    x_ptrs_28 = x_ptrs_26 * IN_W
    x_ptrs_29 = x_ptrs_28 + idx_x_w
    x_ptrs_31 = x_ptrs_29 * IN_C
    x_ptrs_32 = gl.expand_dims(x_ptrs_31, 1)
    x_ptrs_34 = X + x_ptrs_32
    x_ptrs_35 = x_ptrs_34.broadcast_to([128, 64])
    mask_x_36 = idx_n < BATCH
    mask_x_37 = idx_x_h >= 0
    mask_x_38 = mask_x_36 & mask_x_37
    mask_x_39 = idx_x_h < IN_H
    mask_x_40 = mask_x_38 & mask_x_39
    mask_x_41 = idx_x_w >= 0
    mask_x_42 = mask_x_40 & mask_x_41
    mask_x_43 = idx_x_w < IN_W
    mask_x_44 = mask_x_42 & mask_x_43
    mask_x_45 = gl.expand_dims(mask_x_44, 1)
    mask_x_47 = mask_x_45.broadcast_to([128, 64])
    w_ptrs_49 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_50 = w_ptrs_49.broadcast_to([64, 128])
    mask_w_52 = w_ptrs_49 < OUT_C
    mask_w_53 = mask_w_52.broadcast_to([64, 128])
    twill_n = (IN_C - 0 + 64 - 1) // 64
    acc_415 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
    acc_415_p1 = acc_415
    for twill_b in range(0, twill_n):
        idx_x_c_395 = (0 + (twill_b - 0) * 64)  # load1_matrix_w: stage 0, partition 0 (group 0)
        idx_x_c_397 = idx_x_c_395 + idx_x_c_24  # load1_matrix_w: stage 0, partition 0 (group 0)
        w_ptrs_406 = gl.expand_dims(idx_x_c_397, 1)  # load1_matrix_w: stage 0, partition 0 (group 0)
        mask_w_411 = w_ptrs_406 < IN_C  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_412 = mask_w_411.broadcast_to([64, 128])  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_413 = mask_w_412 & mask_w_53  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        idx_x_c_394 = (0 + (twill_b - 0) * 64)  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_c_396 = idx_x_c_394 + idx_x_c  # load0_matrix_x: stage 0, partition 0 (group 0)
        mask_x_401 = idx_x_c_396 < IN_C  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_402 = gl.expand_dims(mask_x_401, 0)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_403 = mask_x_402.broadcast_to([128, 64])  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_404 = mask_x_47 & mask_x_403  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mbarrier.wait(matrix_x_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(matrix_w_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_415 = warpgroup_mma(matrix_x_buf.index((twill_base + twill_b - 0) % 3), matrix_w_buf.index((twill_base + twill_b - 0) % 3), acc_415_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_415_p1 = warpgroup_mma_wait(1, deps=(acc_415_p1,))
        mbarrier.arrive(matrix_x_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(matrix_w_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_415 = warpgroup_mma_wait(1, deps=(tok_acc_415,))
        acc_415_p1 = acc_415
    acc_415_p1 = warpgroup_mma_wait(0, deps=(acc_415_p1,))
    matrix_x_buf._keep_alive()
    matrix_w_buf._keep_alive()
    mbarrier.arrive(matrix_x_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(matrix_w_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    twill_base += twill_n
    idx_x_h_54 = idx_y_h_18 - 1
    idx_x_c_55 = gl.arange(0, 64, layout=L3)
    idx_x_c_56 = gl.arange(0, 64, layout=L1)
    x_ptrs_58 = idx_n * IN_H
    x_ptrs_59 = x_ptrs_58 + idx_x_h_54
    x_ptrs_61 = x_ptrs_59 * IN_W
    x_ptrs_62 = x_ptrs_61 + idx_y_w_14
    x_ptrs_64 = x_ptrs_62 * IN_C
    x_ptrs_65 = gl.expand_dims(x_ptrs_64, 1)
    x_ptrs_67 = X + x_ptrs_65
    x_ptrs_68 = x_ptrs_67.broadcast_to([128, 64])
    mask_x_70 = idx_n < BATCH
    mask_x_71 = idx_x_h_54 >= 0
    mask_x_72 = mask_x_70 & mask_x_71
    mask_x_73 = idx_x_h_54 < IN_H
    mask_x_74 = mask_x_72 & mask_x_73
    mask_x_75 = idx_y_w_14 >= 0
    mask_x_76 = mask_x_74 & mask_x_75
    mask_x_77 = idx_y_w_14 < IN_W
    mask_x_78 = mask_x_76 & mask_x_77
    mask_x_79 = gl.expand_dims(mask_x_78, 1)
    mask_x_82 = mask_x_79.broadcast_to([128, 64])
    w_ptrs_85 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_86 = w_ptrs_85.broadcast_to([64, 128])
    mask_w_89 = w_ptrs_85 < OUT_C
    mask_w_90 = mask_w_89.broadcast_to([64, 128])
    twill_n = (IN_C - 0 + 64 - 1) // 64
    acc_418_l1 = acc_415_p1
    acc_418_l1_p1 = acc_418_l1
    for twill_b in range(0, twill_n):
        idx_x_c_396_l1 = (0 + (twill_b - 0) * 64)  # load1_matrix_w: stage 0, partition 0 (group 0)
        idx_x_c_398_l1 = idx_x_c_396_l1 + idx_x_c_56  # load1_matrix_w: stage 0, partition 0 (group 0)
        mask_w_413_l1 = gl.expand_dims(idx_x_c_398_l1, 1)  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_414_l1 = mask_w_413_l1 < IN_C  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_415_l1 = mask_w_414_l1.broadcast_to([64, 128])  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_416_l1 = mask_w_415_l1 & mask_w_90  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        idx_x_c_395_l1 = (0 + (twill_b - 0) * 64)  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_c_397_l1 = idx_x_c_395_l1 + idx_x_c_55  # load0_matrix_x: stage 0, partition 0 (group 0)
        mask_x_402_l1 = idx_x_c_397_l1 < IN_C  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_403_l1 = gl.expand_dims(mask_x_402_l1, 0)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_404_l1 = mask_x_403_l1.broadcast_to([128, 64])  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_405_l1 = mask_x_82 & mask_x_404_l1  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mbarrier.wait(matrix_x_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(matrix_w_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_418_l1 = warpgroup_mma(matrix_x_buf.index((twill_base + twill_b - 0) % 3), matrix_w_buf.index((twill_base + twill_b - 0) % 3), acc_418_l1_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_418_l1_p1 = warpgroup_mma_wait(1, deps=(acc_418_l1_p1,))
        mbarrier.arrive(matrix_x_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(matrix_w_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_418_l1 = warpgroup_mma_wait(1, deps=(tok_acc_418_l1,))
        acc_418_l1_p1 = acc_418_l1
    acc_418_l1_p1 = warpgroup_mma_wait(0, deps=(acc_418_l1_p1,))
    matrix_x_buf._keep_alive()
    matrix_w_buf._keep_alive()
    mbarrier.arrive(matrix_x_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(matrix_w_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    twill_base += twill_n
    idx_x_h_92 = idx_y_h_18 - 1
    idx_x_w_93 = idx_y_w_14 - 1
    idx_x_w_94 = idx_x_w_93 + 2
    idx_x_c_95 = gl.arange(0, 64, layout=L3)
    idx_x_c_96 = gl.arange(0, 64, layout=L1)
    x_ptrs_98 = idx_n * IN_H
    x_ptrs_99 = x_ptrs_98 + idx_x_h_92
    x_ptrs_101 = x_ptrs_99 * IN_W
    x_ptrs_102 = x_ptrs_101 + idx_x_w_94
    x_ptrs_104 = x_ptrs_102 * IN_C
    x_ptrs_105 = gl.expand_dims(x_ptrs_104, 1)
    x_ptrs_107 = X + x_ptrs_105
    x_ptrs_108 = x_ptrs_107.broadcast_to([128, 64])
    mask_x_110 = idx_n < BATCH
    mask_x_111 = idx_x_h_92 >= 0
    mask_x_112 = mask_x_110 & mask_x_111
    mask_x_113 = idx_x_h_92 < IN_H
    mask_x_114 = mask_x_112 & mask_x_113
    mask_x_115 = idx_x_w_94 >= 0
    mask_x_116 = mask_x_114 & mask_x_115
    mask_x_117 = idx_x_w_94 < IN_W
    mask_x_118 = mask_x_116 & mask_x_117
    mask_x_119 = gl.expand_dims(mask_x_118, 1)
    mask_x_121 = mask_x_119.broadcast_to([128, 64])
    w_ptrs_122 = IN_C * 2
    w_ptrs_126 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_127 = w_ptrs_126.broadcast_to([64, 128])
    mask_w_130 = w_ptrs_126 < OUT_C
    mask_w_131 = mask_w_130.broadcast_to([64, 128])
    twill_n = (IN_C - 0 + 64 - 1) // 64
    acc_418_l2 = acc_418_l1_p1
    acc_418_l2_p1 = acc_418_l2
    for twill_b in range(0, twill_n):
        idx_x_c_396_l2 = (0 + (twill_b - 0) * 64)  # load1_matrix_w: stage 0, partition 0 (group 0)
        idx_x_c_398_l2 = idx_x_c_396_l2 + idx_x_c_96  # load1_matrix_w: stage 0, partition 0 (group 0)
        mask_w_413_l2 = gl.expand_dims(idx_x_c_398_l2, 1)  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_414_l2 = mask_w_413_l2 < IN_C  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_415_l2 = mask_w_414_l2.broadcast_to([64, 128])  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_416_l2 = mask_w_415_l2 & mask_w_131  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        idx_x_c_395_l2 = (0 + (twill_b - 0) * 64)  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_c_397_l2 = idx_x_c_395_l2 + idx_x_c_95  # load0_matrix_x: stage 0, partition 0 (group 0)
        mask_x_402_l2 = idx_x_c_397_l2 < IN_C  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_403_l2 = gl.expand_dims(mask_x_402_l2, 0)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_404_l2 = mask_x_403_l2.broadcast_to([128, 64])  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_405_l2 = mask_x_121 & mask_x_404_l2  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mbarrier.wait(matrix_x_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(matrix_w_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_418_l2 = warpgroup_mma(matrix_x_buf.index((twill_base + twill_b - 0) % 3), matrix_w_buf.index((twill_base + twill_b - 0) % 3), acc_418_l2_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_418_l2_p1 = warpgroup_mma_wait(1, deps=(acc_418_l2_p1,))
        mbarrier.arrive(matrix_x_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(matrix_w_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_418_l2 = warpgroup_mma_wait(1, deps=(tok_acc_418_l2,))
        acc_418_l2_p1 = acc_418_l2
    acc_418_l2_p1 = warpgroup_mma_wait(0, deps=(acc_418_l2_p1,))
    matrix_x_buf._keep_alive()
    matrix_w_buf._keep_alive()
    mbarrier.arrive(matrix_x_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(matrix_w_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    twill_base += twill_n
    idx_x_w_133 = idx_y_w_14 - 1
    idx_x_c_134 = gl.arange(0, 64, layout=L3)
    idx_x_c_135 = gl.arange(0, 64, layout=L1)
    x_ptrs_137 = idx_n * IN_H
    x_ptrs_138 = x_ptrs_137 + idx_y_h_18
    x_ptrs_140 = x_ptrs_138 * IN_W
    x_ptrs_141 = x_ptrs_140 + idx_x_w_133
    x_ptrs_143 = x_ptrs_141 * IN_C
    x_ptrs_144 = gl.expand_dims(x_ptrs_143, 1)
    x_ptrs_146 = X + x_ptrs_144
    x_ptrs_147 = x_ptrs_146.broadcast_to([128, 64])
    mask_x_149 = idx_n < BATCH
    mask_x_150 = idx_y_h_18 >= 0
    mask_x_151 = mask_x_149 & mask_x_150
    mask_x_152 = idx_y_h_18 < IN_H
    mask_x_153 = mask_x_151 & mask_x_152
    mask_x_154 = idx_x_w_133 >= 0
    mask_x_155 = mask_x_153 & mask_x_154
    mask_x_156 = idx_x_w_133 < IN_W
    mask_x_157 = mask_x_155 & mask_x_156
    mask_x_158 = gl.expand_dims(mask_x_157, 1)
    mask_x_160 = mask_x_158.broadcast_to([128, 64])
    w_ptrs_161 = IN_C * 3
    w_ptrs_165 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_166 = w_ptrs_165.broadcast_to([64, 128])
    mask_w_169 = w_ptrs_165 < OUT_C
    mask_w_170 = mask_w_169.broadcast_to([64, 128])
    twill_n = (IN_C - 0 + 64 - 1) // 64
    acc_418_l3 = acc_418_l2_p1
    acc_418_l3_p1 = acc_418_l3
    for twill_b in range(0, twill_n):
        idx_x_c_396_l3 = (0 + (twill_b - 0) * 64)  # load1_matrix_w: stage 0, partition 0 (group 0)
        idx_x_c_398_l3 = idx_x_c_396_l3 + idx_x_c_135  # load1_matrix_w: stage 0, partition 0 (group 0)
        mask_w_413_l3 = gl.expand_dims(idx_x_c_398_l3, 1)  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_414_l3 = mask_w_413_l3 < IN_C  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_415_l3 = mask_w_414_l3.broadcast_to([64, 128])  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_416_l3 = mask_w_415_l3 & mask_w_170  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        idx_x_c_395_l3 = (0 + (twill_b - 0) * 64)  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_c_397_l3 = idx_x_c_395_l3 + idx_x_c_134  # load0_matrix_x: stage 0, partition 0 (group 0)
        mask_x_402_l3 = idx_x_c_397_l3 < IN_C  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_403_l3 = gl.expand_dims(mask_x_402_l3, 0)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_404_l3 = mask_x_403_l3.broadcast_to([128, 64])  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_405_l3 = mask_x_160 & mask_x_404_l3  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mbarrier.wait(matrix_x_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(matrix_w_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_418_l3 = warpgroup_mma(matrix_x_buf.index((twill_base + twill_b - 0) % 3), matrix_w_buf.index((twill_base + twill_b - 0) % 3), acc_418_l3_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_418_l3_p1 = warpgroup_mma_wait(1, deps=(acc_418_l3_p1,))
        mbarrier.arrive(matrix_x_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(matrix_w_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_418_l3 = warpgroup_mma_wait(1, deps=(tok_acc_418_l3,))
        acc_418_l3_p1 = acc_418_l3
    acc_418_l3_p1 = warpgroup_mma_wait(0, deps=(acc_418_l3_p1,))
    matrix_x_buf._keep_alive()
    matrix_w_buf._keep_alive()
    mbarrier.arrive(matrix_x_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(matrix_w_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    twill_base += twill_n
    idx_x_c_172 = gl.arange(0, 64, layout=L3)
    idx_x_c_173 = gl.arange(0, 64, layout=L1)
    x_ptrs_175 = idx_n * IN_H
    x_ptrs_176 = x_ptrs_175 + idx_y_h_18
    x_ptrs_178 = x_ptrs_176 * IN_W
    x_ptrs_179 = x_ptrs_178 + idx_y_w_14
    x_ptrs_181 = x_ptrs_179 * IN_C
    x_ptrs_182 = gl.expand_dims(x_ptrs_181, 1)
    x_ptrs_184 = X + x_ptrs_182
    x_ptrs_185 = x_ptrs_184.broadcast_to([128, 64])
    mask_x_187 = idx_n < BATCH
    mask_x_188 = idx_y_h_18 >= 0
    mask_x_189 = mask_x_187 & mask_x_188
    mask_x_190 = idx_y_h_18 < IN_H
    mask_x_191 = mask_x_189 & mask_x_190
    mask_x_192 = idx_y_w_14 >= 0
    mask_x_193 = mask_x_191 & mask_x_192
    mask_x_194 = idx_y_w_14 < IN_W
    mask_x_195 = mask_x_193 & mask_x_194
    mask_x_196 = gl.expand_dims(mask_x_195, 1)
    mask_x_198 = mask_x_196.broadcast_to([128, 64])
    w_ptrs_199 = IN_C * 4
    w_ptrs_203 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_204 = w_ptrs_203.broadcast_to([64, 128])
    mask_w_207 = w_ptrs_203 < OUT_C
    mask_w_208 = mask_w_207.broadcast_to([64, 128])
    twill_n = (IN_C - 0 + 64 - 1) // 64
    acc_418_l4 = acc_418_l3_p1
    acc_418_l4_p1 = acc_418_l4
    for twill_b in range(0, twill_n):
        idx_x_c_396_l4 = (0 + (twill_b - 0) * 64)  # load1_matrix_w: stage 0, partition 0 (group 0)
        idx_x_c_398_l4 = idx_x_c_396_l4 + idx_x_c_173  # load1_matrix_w: stage 0, partition 0 (group 0)
        mask_w_413_l4 = gl.expand_dims(idx_x_c_398_l4, 1)  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_414_l4 = mask_w_413_l4 < IN_C  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_415_l4 = mask_w_414_l4.broadcast_to([64, 128])  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_416_l4 = mask_w_415_l4 & mask_w_208  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        idx_x_c_395_l4 = (0 + (twill_b - 0) * 64)  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_c_397_l4 = idx_x_c_395_l4 + idx_x_c_172  # load0_matrix_x: stage 0, partition 0 (group 0)
        mask_x_402_l4 = idx_x_c_397_l4 < IN_C  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_403_l4 = gl.expand_dims(mask_x_402_l4, 0)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_404_l4 = mask_x_403_l4.broadcast_to([128, 64])  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_405_l4 = mask_x_198 & mask_x_404_l4  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mbarrier.wait(matrix_x_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(matrix_w_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_418_l4 = warpgroup_mma(matrix_x_buf.index((twill_base + twill_b - 0) % 3), matrix_w_buf.index((twill_base + twill_b - 0) % 3), acc_418_l4_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_418_l4_p1 = warpgroup_mma_wait(1, deps=(acc_418_l4_p1,))
        mbarrier.arrive(matrix_x_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(matrix_w_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_418_l4 = warpgroup_mma_wait(1, deps=(tok_acc_418_l4,))
        acc_418_l4_p1 = acc_418_l4
    acc_418_l4_p1 = warpgroup_mma_wait(0, deps=(acc_418_l4_p1,))
    matrix_x_buf._keep_alive()
    matrix_w_buf._keep_alive()
    mbarrier.arrive(matrix_x_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(matrix_w_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    twill_base += twill_n
    idx_x_w_210 = idx_y_w_14 - 1
    idx_x_w_211 = idx_x_w_210 + 2
    idx_x_c_212 = gl.arange(0, 64, layout=L3)
    idx_x_c_213 = gl.arange(0, 64, layout=L1)
    x_ptrs_215 = idx_n * IN_H
    x_ptrs_216 = x_ptrs_215 + idx_y_h_18
    x_ptrs_218 = x_ptrs_216 * IN_W
    x_ptrs_219 = x_ptrs_218 + idx_x_w_211
    x_ptrs_221 = x_ptrs_219 * IN_C
    x_ptrs_222 = gl.expand_dims(x_ptrs_221, 1)
    x_ptrs_224 = X + x_ptrs_222
    x_ptrs_225 = x_ptrs_224.broadcast_to([128, 64])
    mask_x_227 = idx_n < BATCH
    mask_x_228 = idx_y_h_18 >= 0
    mask_x_229 = mask_x_227 & mask_x_228
    mask_x_230 = idx_y_h_18 < IN_H
    mask_x_231 = mask_x_229 & mask_x_230
    mask_x_232 = idx_x_w_211 >= 0
    mask_x_233 = mask_x_231 & mask_x_232
    mask_x_234 = idx_x_w_211 < IN_W
    mask_x_235 = mask_x_233 & mask_x_234
    mask_x_236 = gl.expand_dims(mask_x_235, 1)
    mask_x_238 = mask_x_236.broadcast_to([128, 64])
    w_ptrs_239 = IN_C * 5
    w_ptrs_243 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_244 = w_ptrs_243.broadcast_to([64, 128])
    mask_w_247 = w_ptrs_243 < OUT_C
    mask_w_248 = mask_w_247.broadcast_to([64, 128])
    twill_n = (IN_C - 0 + 64 - 1) // 64
    acc_418_l5 = acc_418_l4_p1
    acc_418_l5_p1 = acc_418_l5
    for twill_b in range(0, twill_n):
        idx_x_c_396_l5 = (0 + (twill_b - 0) * 64)  # load1_matrix_w: stage 0, partition 0 (group 0)
        idx_x_c_398_l5 = idx_x_c_396_l5 + idx_x_c_213  # load1_matrix_w: stage 0, partition 0 (group 0)
        mask_w_413_l5 = gl.expand_dims(idx_x_c_398_l5, 1)  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_414_l5 = mask_w_413_l5 < IN_C  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_415_l5 = mask_w_414_l5.broadcast_to([64, 128])  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_416_l5 = mask_w_415_l5 & mask_w_248  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        idx_x_c_395_l5 = (0 + (twill_b - 0) * 64)  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_c_397_l5 = idx_x_c_395_l5 + idx_x_c_212  # load0_matrix_x: stage 0, partition 0 (group 0)
        mask_x_402_l5 = idx_x_c_397_l5 < IN_C  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_403_l5 = gl.expand_dims(mask_x_402_l5, 0)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_404_l5 = mask_x_403_l5.broadcast_to([128, 64])  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_405_l5 = mask_x_238 & mask_x_404_l5  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mbarrier.wait(matrix_x_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(matrix_w_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_418_l5 = warpgroup_mma(matrix_x_buf.index((twill_base + twill_b - 0) % 3), matrix_w_buf.index((twill_base + twill_b - 0) % 3), acc_418_l5_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_418_l5_p1 = warpgroup_mma_wait(1, deps=(acc_418_l5_p1,))
        mbarrier.arrive(matrix_x_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(matrix_w_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_418_l5 = warpgroup_mma_wait(1, deps=(tok_acc_418_l5,))
        acc_418_l5_p1 = acc_418_l5
    acc_418_l5_p1 = warpgroup_mma_wait(0, deps=(acc_418_l5_p1,))
    matrix_x_buf._keep_alive()
    matrix_w_buf._keep_alive()
    mbarrier.arrive(matrix_x_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(matrix_w_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    twill_base += twill_n
    idx_x_h_250 = idx_y_h_18 - 1
    idx_x_h_251 = idx_x_h_250 + 2
    idx_x_w_252 = idx_y_w_14 - 1
    idx_x_c_253 = gl.arange(0, 64, layout=L3)
    idx_x_c_254 = gl.arange(0, 64, layout=L1)
    x_ptrs_256 = idx_n * IN_H
    x_ptrs_257 = x_ptrs_256 + idx_x_h_251
    x_ptrs_259 = x_ptrs_257 * IN_W
    x_ptrs_260 = x_ptrs_259 + idx_x_w_252
    x_ptrs_262 = x_ptrs_260 * IN_C
    x_ptrs_263 = gl.expand_dims(x_ptrs_262, 1)
    x_ptrs_265 = X + x_ptrs_263
    x_ptrs_266 = x_ptrs_265.broadcast_to([128, 64])
    mask_x_268 = idx_n < BATCH
    mask_x_269 = idx_x_h_251 >= 0
    mask_x_270 = mask_x_268 & mask_x_269
    mask_x_271 = idx_x_h_251 < IN_H
    mask_x_272 = mask_x_270 & mask_x_271
    mask_x_273 = idx_x_w_252 >= 0
    mask_x_274 = mask_x_272 & mask_x_273
    mask_x_275 = idx_x_w_252 < IN_W
    mask_x_276 = mask_x_274 & mask_x_275
    mask_x_277 = gl.expand_dims(mask_x_276, 1)
    mask_x_279 = mask_x_277.broadcast_to([128, 64])
    w_ptrs_280 = IN_C * 6
    w_ptrs_284 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_285 = w_ptrs_284.broadcast_to([64, 128])
    mask_w_288 = w_ptrs_284 < OUT_C
    mask_w_289 = mask_w_288.broadcast_to([64, 128])
    twill_n = (IN_C - 0 + 64 - 1) // 64
    acc_418_l6 = acc_418_l5_p1
    acc_418_l6_p1 = acc_418_l6
    for twill_b in range(0, twill_n):
        idx_x_c_396_l6 = (0 + (twill_b - 0) * 64)  # load1_matrix_w: stage 0, partition 0 (group 0)
        idx_x_c_398_l6 = idx_x_c_396_l6 + idx_x_c_254  # load1_matrix_w: stage 0, partition 0 (group 0)
        mask_w_413_l6 = gl.expand_dims(idx_x_c_398_l6, 1)  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_414_l6 = mask_w_413_l6 < IN_C  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_415_l6 = mask_w_414_l6.broadcast_to([64, 128])  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_416_l6 = mask_w_415_l6 & mask_w_289  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        idx_x_c_395_l6 = (0 + (twill_b - 0) * 64)  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_c_397_l6 = idx_x_c_395_l6 + idx_x_c_253  # load0_matrix_x: stage 0, partition 0 (group 0)
        mask_x_402_l6 = idx_x_c_397_l6 < IN_C  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_403_l6 = gl.expand_dims(mask_x_402_l6, 0)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_404_l6 = mask_x_403_l6.broadcast_to([128, 64])  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_405_l6 = mask_x_279 & mask_x_404_l6  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mbarrier.wait(matrix_x_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(matrix_w_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_418_l6 = warpgroup_mma(matrix_x_buf.index((twill_base + twill_b - 0) % 3), matrix_w_buf.index((twill_base + twill_b - 0) % 3), acc_418_l6_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_418_l6_p1 = warpgroup_mma_wait(1, deps=(acc_418_l6_p1,))
        mbarrier.arrive(matrix_x_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(matrix_w_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_418_l6 = warpgroup_mma_wait(1, deps=(tok_acc_418_l6,))
        acc_418_l6_p1 = acc_418_l6
    acc_418_l6_p1 = warpgroup_mma_wait(0, deps=(acc_418_l6_p1,))
    matrix_x_buf._keep_alive()
    matrix_w_buf._keep_alive()
    mbarrier.arrive(matrix_x_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(matrix_w_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    twill_base += twill_n
    idx_x_h_291 = idx_y_h_18 - 1
    idx_x_h_292 = idx_x_h_291 + 2
    idx_x_c_293 = gl.arange(0, 64, layout=L3)
    idx_x_c_294 = gl.arange(0, 64, layout=L1)
    x_ptrs_296 = idx_n * IN_H
    x_ptrs_297 = x_ptrs_296 + idx_x_h_292
    x_ptrs_299 = x_ptrs_297 * IN_W
    x_ptrs_300 = x_ptrs_299 + idx_y_w_14
    x_ptrs_302 = x_ptrs_300 * IN_C
    x_ptrs_303 = gl.expand_dims(x_ptrs_302, 1)
    x_ptrs_305 = X + x_ptrs_303
    x_ptrs_306 = x_ptrs_305.broadcast_to([128, 64])
    mask_x_308 = idx_n < BATCH
    mask_x_309 = idx_x_h_292 >= 0
    mask_x_310 = mask_x_308 & mask_x_309
    mask_x_311 = idx_x_h_292 < IN_H
    mask_x_312 = mask_x_310 & mask_x_311
    mask_x_313 = idx_y_w_14 >= 0
    mask_x_314 = mask_x_312 & mask_x_313
    mask_x_315 = idx_y_w_14 < IN_W
    mask_x_316 = mask_x_314 & mask_x_315
    mask_x_317 = gl.expand_dims(mask_x_316, 1)
    mask_x_319 = mask_x_317.broadcast_to([128, 64])
    w_ptrs_320 = IN_C * 7
    w_ptrs_324 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_325 = w_ptrs_324.broadcast_to([64, 128])
    mask_w_328 = w_ptrs_324 < OUT_C
    mask_w_329 = mask_w_328.broadcast_to([64, 128])
    twill_n = (IN_C - 0 + 64 - 1) // 64
    acc_418_l7 = acc_418_l6_p1
    acc_418_l7_p1 = acc_418_l7
    for twill_b in range(0, twill_n):
        idx_x_c_396_l7 = (0 + (twill_b - 0) * 64)  # load1_matrix_w: stage 0, partition 0 (group 0)
        idx_x_c_398_l7 = idx_x_c_396_l7 + idx_x_c_294  # load1_matrix_w: stage 0, partition 0 (group 0)
        mask_w_413_l7 = gl.expand_dims(idx_x_c_398_l7, 1)  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_414_l7 = mask_w_413_l7 < IN_C  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_415_l7 = mask_w_414_l7.broadcast_to([64, 128])  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_416_l7 = mask_w_415_l7 & mask_w_329  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        idx_x_c_395_l7 = (0 + (twill_b - 0) * 64)  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_c_397_l7 = idx_x_c_395_l7 + idx_x_c_293  # load0_matrix_x: stage 0, partition 0 (group 0)
        mask_x_402_l7 = idx_x_c_397_l7 < IN_C  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_403_l7 = gl.expand_dims(mask_x_402_l7, 0)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_404_l7 = mask_x_403_l7.broadcast_to([128, 64])  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_405_l7 = mask_x_319 & mask_x_404_l7  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mbarrier.wait(matrix_x_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(matrix_w_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_418_l7 = warpgroup_mma(matrix_x_buf.index((twill_base + twill_b - 0) % 3), matrix_w_buf.index((twill_base + twill_b - 0) % 3), acc_418_l7_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_418_l7_p1 = warpgroup_mma_wait(1, deps=(acc_418_l7_p1,))
        mbarrier.arrive(matrix_x_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(matrix_w_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_418_l7 = warpgroup_mma_wait(1, deps=(tok_acc_418_l7,))
        acc_418_l7_p1 = acc_418_l7
    acc_418_l7_p1 = warpgroup_mma_wait(0, deps=(acc_418_l7_p1,))
    matrix_x_buf._keep_alive()
    matrix_w_buf._keep_alive()
    mbarrier.arrive(matrix_x_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(matrix_w_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    twill_base += twill_n
    idx_x_h_331 = idx_y_h_18 - 1
    idx_x_h_332 = idx_x_h_331 + 2
    idx_x_w_333 = idx_y_w_14 - 1
    idx_x_w_334 = idx_x_w_333 + 2
    idx_x_c_335 = gl.arange(0, 64, layout=L3)
    idx_x_c_336 = gl.arange(0, 64, layout=L1)
    mask_x_350 = idx_n < BATCH
    mask_x_351 = idx_x_h_332 >= 0
    mask_x_352 = mask_x_350 & mask_x_351
    mask_x_353 = idx_x_h_332 < IN_H
    mask_x_354 = mask_x_352 & mask_x_353
    mask_x_355 = idx_x_w_334 >= 0
    mask_x_356 = mask_x_354 & mask_x_355
    mask_x_357 = idx_x_w_334 < IN_W
    mask_x_358 = mask_x_356 & mask_x_357
    mask_x_359 = gl.expand_dims(mask_x_358, 1)
    mask_x_361 = mask_x_359.broadcast_to([128, 64])
    w_ptrs_366 = gl.expand_dims(idx_y_c_23, 0)
    mask_w_370 = w_ptrs_366 < OUT_C
    mask_w_371 = mask_w_370.broadcast_to([64, 128])
    twill_n = (IN_C - 0 + 64 - 1) // 64
    acc_418_l8 = acc_418_l7_p1
    acc_418_l8_p1 = acc_418_l8
    for twill_b in range(0, twill_n):
        idx_x_c_396_l8 = (0 + (twill_b - 0) * 64)  # load1_matrix_w: stage 0, partition 0 (group 0)
        idx_x_c_398_l8 = idx_x_c_396_l8 + idx_x_c_336  # load1_matrix_w: stage 0, partition 0 (group 0)
        mask_w_413_l8 = gl.expand_dims(idx_x_c_398_l8, 1)  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_414_l8 = mask_w_413_l8 < IN_C  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_415_l8 = mask_w_414_l8.broadcast_to([64, 128])  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        mask_w_416_l8 = mask_w_415_l8 & mask_w_371  # elementwise1_mask_w: stage 0, partition 0 (group 0)
        idx_x_c_395_l8 = (0 + (twill_b - 0) * 64)  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_c_397_l8 = idx_x_c_395_l8 + idx_x_c_335  # load0_matrix_x: stage 0, partition 0 (group 0)
        mask_x_402_l8 = idx_x_c_397_l8 < IN_C  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_403_l8 = gl.expand_dims(mask_x_402_l8, 0)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_404_l8 = mask_x_403_l8.broadcast_to([128, 64])  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_405_l8 = mask_x_361 & mask_x_404_l8  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mbarrier.wait(matrix_x_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(matrix_w_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_418_l8 = warpgroup_mma(matrix_x_buf.index((twill_base + twill_b - 0) % 3), matrix_w_buf.index((twill_base + twill_b - 0) % 3), acc_418_l8_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_418_l8_p1 = warpgroup_mma_wait(1, deps=(acc_418_l8_p1,))
        mbarrier.arrive(matrix_x_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(matrix_w_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_418_l8 = warpgroup_mma_wait(1, deps=(tok_acc_418_l8,))
        acc_418_l8_p1 = acc_418_l8
    acc_418_l8_p1 = warpgroup_mma_wait(0, deps=(acc_418_l8_p1,))
    matrix_x_buf._keep_alive()
    matrix_w_buf._keep_alive()
    mbarrier.arrive(matrix_x_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(matrix_w_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mask_373 = idx_n_20 < BATCH
    mask_374 = gl.expand_dims(mask_373, 1)
    mask_377 = idx_y_c_23 < OUT_C
    mask_378 = gl.expand_dims(mask_377, 0)
    mask_379 = mask_374.broadcast_to([128, 128])
    mask_380 = mask_378.broadcast_to([128, 128])
    mask_381 = mask_379 & mask_380
    y_ptrs = idx_n_20 * OUT_H
    y_ptrs_382 = y_ptrs + idx_y_h_19
    y_ptrs_383 = y_ptrs_382 * OUT_W
    y_ptrs_384 = y_ptrs_383 + idx_y_w_15
    y_ptrs_385 = y_ptrs_384 * OUT_C
    y_ptrs_386 = gl.expand_dims(y_ptrs_385, 1)
    y_ptrs_388 = Y + y_ptrs_386
    y_ptrs_389 = gl.expand_dims(idx_y_c_23, 0)
    y_ptrs_390 = y_ptrs_388.broadcast_to([128, 128])
    y_ptrs_391 = y_ptrs_389.broadcast_to([128, 128])
    y_ptrs_392 = y_ptrs_390 + y_ptrs_391
    v0 = acc_418_l8_p1.to(gl.float16)
    v1 = gl.convert_layout(v0, L5)
    gl.store(y_ptrs_392, v1, mask=mask_381)

@gluon.jit
def producer_1(X, W, Y, BATCH, IN_H, IN_W, IN_C, OUT_H, OUT_W, OUT_C, twill_box_matrix_w, twill_box_matrix_w_l1, twill_box_matrix_w_l2, twill_box_matrix_w_l3, twill_box_matrix_w_l4, twill_box_matrix_w_l5, twill_box_matrix_w_l6, twill_box_matrix_w_l7, twill_box_matrix_w_l8, matrix_x_buf, matrix_w_buf, matrix_x_ready, matrix_x_empty, matrix_w_ready, matrix_w_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    nhw = gl.program_id(0)
    nhw_5 = nhw * 128
    nhw_6 = gl.arange(0, 128, layout=L0)
    nhw_8 = gl.arange(0, 128, layout=L2)
    nhw_11 = nhw_5 + nhw_6
    idx_y_w_14 = nhw_11 % OUT_W
    nh = nhw_11 // OUT_W
    idx_y_h_18 = nh % OUT_H
    idx_n = nh // OUT_H
    idx_y_c = gl.program_id(1)
    idx_y_c_21 = idx_y_c * 128
    idx_y_c_23 = idx_y_c_21 + nhw_8
    idx_x_h = idx_y_h_18 - 1
    idx_x_w = idx_y_w_14 - 1
    idx_x_c = gl.arange(0, 64, layout=L3)
    idx_x_c_24 = gl.arange(0, 64, layout=L1)
    x_ptrs_25 = idx_n * IN_H
    x_ptrs_26 = x_ptrs_25 + idx_x_h
    x_ptrs_28 = x_ptrs_26 * IN_W
    x_ptrs_29 = x_ptrs_28 + idx_x_w
    x_ptrs_31 = x_ptrs_29 * IN_C
    x_ptrs_32 = gl.expand_dims(x_ptrs_31, 1)
    x_ptrs_34 = X + x_ptrs_32
    x_ptrs_35 = x_ptrs_34.broadcast_to([128, 64])
    mask_x_36 = idx_n < BATCH
    mask_x_37 = idx_x_h >= 0
    mask_x_38 = mask_x_36 & mask_x_37
    mask_x_39 = idx_x_h < IN_H
    mask_x_40 = mask_x_38 & mask_x_39
    mask_x_41 = idx_x_w >= 0
    mask_x_42 = mask_x_40 & mask_x_41
    mask_x_43 = idx_x_w < IN_W
    mask_x_44 = mask_x_42 & mask_x_43
    mask_x_45 = gl.expand_dims(mask_x_44, 1)
    mask_x_47 = mask_x_45.broadcast_to([128, 64])
    w_ptrs_49 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_50 = w_ptrs_49.broadcast_to([64, 128])
    mask_w_52 = w_ptrs_49 < OUT_C
    mask_w_53 = mask_w_52.broadcast_to([64, 128])
    for acc_393 in range(0, IN_C, 64):
        twill_k = twill_base + (acc_393 - 0) // 64
        idx_x_c_396 = acc_393 + idx_x_c
        idx_x_c_397 = acc_393 + idx_x_c_24
        x_ptrs_398 = gl.expand_dims(idx_x_c_396, 0)
        x_ptrs_399 = x_ptrs_398.broadcast_to([128, 64])
        x_ptrs_400 = x_ptrs_35 + x_ptrs_399
        mask_x_401 = idx_x_c_396 < IN_C
        mask_x_402 = gl.expand_dims(mask_x_401, 0)
        mask_x_403 = mask_x_402.broadcast_to([128, 64])
        mask_x_404 = mask_x_47 & mask_x_403
        w_ptrs_406 = gl.expand_dims(idx_x_c_397, 1)
        w_ptrs_407 = w_ptrs_406 * OUT_C
        w_ptrs_408 = W + w_ptrs_407
        w_ptrs_409 = w_ptrs_408.broadcast_to([64, 128])
        w_ptrs_410 = w_ptrs_409 + w_ptrs_50
        mask_w_411 = w_ptrs_406 < IN_C
        mask_w_412 = mask_w_411.broadcast_to([64, 128])
        mask_w_413 = mask_w_412 & mask_w_53
        mbarrier.wait(matrix_w_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(matrix_w_ready.index(twill_k % 3), twill_box_matrix_w.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_matrix_w, [64 * ((acc_393 - 0) // 64), 128 * idx_y_c], matrix_w_ready.index(twill_k % 3), matrix_w_buf.index(twill_k % 3))  # load1_matrix_w: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(matrix_w_buf.index(twill_k % 3), w_ptrs_410, mask=mask_w_413)  # load1_matrix_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(matrix_w_ready.index(twill_k % 3), increment_count=False)
            else:
                matrix_w_buf.index(twill_k % 3).store(gl.load(w_ptrs_410, mask=mask_w_413, other=0.0))  # load1_matrix_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(matrix_w_ready.index(twill_k % 3), count=128)
        mbarrier.wait(matrix_x_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(matrix_x_buf.index(twill_k % 3), x_ptrs_400, mask=mask_x_404)  # load0_matrix_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(matrix_x_ready.index(twill_k % 3), increment_count=False)
        else:
            matrix_x_buf.index(twill_k % 3).store(gl.load(x_ptrs_400, mask=mask_x_404, other=0.0))  # load0_matrix_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(matrix_x_ready.index(twill_k % 3), count=128)
    idx_x_h_54 = idx_y_h_18 - 1
    idx_x_c_55 = gl.arange(0, 64, layout=L3)
    idx_x_c_56 = gl.arange(0, 64, layout=L1)
    x_ptrs_58 = idx_n * IN_H
    x_ptrs_59 = x_ptrs_58 + idx_x_h_54
    x_ptrs_61 = x_ptrs_59 * IN_W
    x_ptrs_62 = x_ptrs_61 + idx_y_w_14
    x_ptrs_64 = x_ptrs_62 * IN_C
    x_ptrs_65 = gl.expand_dims(x_ptrs_64, 1)
    x_ptrs_67 = X + x_ptrs_65
    x_ptrs_68 = x_ptrs_67.broadcast_to([128, 64])
    mask_x_70 = idx_n < BATCH
    mask_x_71 = idx_x_h_54 >= 0
    mask_x_72 = mask_x_70 & mask_x_71
    mask_x_73 = idx_x_h_54 < IN_H
    mask_x_74 = mask_x_72 & mask_x_73
    mask_x_75 = idx_y_w_14 >= 0
    mask_x_76 = mask_x_74 & mask_x_75
    mask_x_77 = idx_y_w_14 < IN_W
    mask_x_78 = mask_x_76 & mask_x_77
    mask_x_79 = gl.expand_dims(mask_x_78, 1)
    mask_x_82 = mask_x_79.broadcast_to([128, 64])
    w_ptrs_85 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_86 = w_ptrs_85.broadcast_to([64, 128])
    mask_w_89 = w_ptrs_85 < OUT_C
    mask_w_90 = mask_w_89.broadcast_to([64, 128])
    twill_base += (IN_C - 0 + 64 - 1) // 64
    for acc_393_l1 in range(0, IN_C, 64):
        twill_k = twill_base + (acc_393_l1 - 0) // 64
        idx_x_c_397_l1 = acc_393_l1 + idx_x_c_55
        idx_x_c_398_l1 = acc_393_l1 + idx_x_c_56
        x_ptrs_399_l1 = gl.expand_dims(idx_x_c_397_l1, 0)
        x_ptrs_400_l1 = x_ptrs_399_l1.broadcast_to([128, 64])
        x_ptrs_401_l1 = x_ptrs_68 + x_ptrs_400_l1
        mask_x_402_l1 = idx_x_c_397_l1 < IN_C
        mask_x_403_l1 = gl.expand_dims(mask_x_402_l1, 0)
        mask_x_404_l1 = mask_x_403_l1.broadcast_to([128, 64])
        mask_x_405_l1 = mask_x_82 & mask_x_404_l1
        w_ptrs_407_l1 = IN_C + idx_x_c_398_l1
        w_ptrs_408_l1 = gl.expand_dims(w_ptrs_407_l1, 1)
        w_ptrs_409_l1 = w_ptrs_408_l1 * OUT_C
        w_ptrs_410_l1 = W + w_ptrs_409_l1
        w_ptrs_411_l1 = w_ptrs_410_l1.broadcast_to([64, 128])
        w_ptrs_412_l1 = w_ptrs_411_l1 + w_ptrs_86
        mask_w_413_l1 = gl.expand_dims(idx_x_c_398_l1, 1)
        mask_w_414_l1 = mask_w_413_l1 < IN_C
        mask_w_415_l1 = mask_w_414_l1.broadcast_to([64, 128])
        mask_w_416_l1 = mask_w_415_l1 & mask_w_90
        mbarrier.wait(matrix_w_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(matrix_w_ready.index(twill_k % 3), twill_box_matrix_w_l1.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_matrix_w_l1, [IN_C + 64 * ((acc_393_l1 - 0) // 64), 128 * idx_y_c], matrix_w_ready.index(twill_k % 3), matrix_w_buf.index(twill_k % 3))  # load1_matrix_w: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(matrix_w_buf.index(twill_k % 3), w_ptrs_412_l1, mask=mask_w_416_l1)  # load1_matrix_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(matrix_w_ready.index(twill_k % 3), increment_count=False)
            else:
                matrix_w_buf.index(twill_k % 3).store(gl.load(w_ptrs_412_l1, mask=mask_w_416_l1, other=0.0))  # load1_matrix_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(matrix_w_ready.index(twill_k % 3), count=128)
        mbarrier.wait(matrix_x_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(matrix_x_buf.index(twill_k % 3), x_ptrs_401_l1, mask=mask_x_405_l1)  # load0_matrix_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(matrix_x_ready.index(twill_k % 3), increment_count=False)
        else:
            matrix_x_buf.index(twill_k % 3).store(gl.load(x_ptrs_401_l1, mask=mask_x_405_l1, other=0.0))  # load0_matrix_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(matrix_x_ready.index(twill_k % 3), count=128)
    idx_x_h_92 = idx_y_h_18 - 1
    idx_x_w_93 = idx_y_w_14 - 1
    idx_x_w_94 = idx_x_w_93 + 2
    idx_x_c_95 = gl.arange(0, 64, layout=L3)
    idx_x_c_96 = gl.arange(0, 64, layout=L1)
    x_ptrs_98 = idx_n * IN_H
    x_ptrs_99 = x_ptrs_98 + idx_x_h_92
    x_ptrs_101 = x_ptrs_99 * IN_W
    x_ptrs_102 = x_ptrs_101 + idx_x_w_94
    x_ptrs_104 = x_ptrs_102 * IN_C
    x_ptrs_105 = gl.expand_dims(x_ptrs_104, 1)
    x_ptrs_107 = X + x_ptrs_105
    x_ptrs_108 = x_ptrs_107.broadcast_to([128, 64])
    mask_x_110 = idx_n < BATCH
    mask_x_111 = idx_x_h_92 >= 0
    mask_x_112 = mask_x_110 & mask_x_111
    mask_x_113 = idx_x_h_92 < IN_H
    mask_x_114 = mask_x_112 & mask_x_113
    mask_x_115 = idx_x_w_94 >= 0
    mask_x_116 = mask_x_114 & mask_x_115
    mask_x_117 = idx_x_w_94 < IN_W
    mask_x_118 = mask_x_116 & mask_x_117
    mask_x_119 = gl.expand_dims(mask_x_118, 1)
    mask_x_121 = mask_x_119.broadcast_to([128, 64])
    w_ptrs_122 = IN_C * 2
    w_ptrs_126 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_127 = w_ptrs_126.broadcast_to([64, 128])
    mask_w_130 = w_ptrs_126 < OUT_C
    mask_w_131 = mask_w_130.broadcast_to([64, 128])
    twill_base += (IN_C - 0 + 64 - 1) // 64
    for acc_393_l2 in range(0, IN_C, 64):
        twill_k = twill_base + (acc_393_l2 - 0) // 64
        idx_x_c_397_l2 = acc_393_l2 + idx_x_c_95
        idx_x_c_398_l2 = acc_393_l2 + idx_x_c_96
        x_ptrs_399_l2 = gl.expand_dims(idx_x_c_397_l2, 0)
        x_ptrs_400_l2 = x_ptrs_399_l2.broadcast_to([128, 64])
        x_ptrs_401_l2 = x_ptrs_108 + x_ptrs_400_l2
        mask_x_402_l2 = idx_x_c_397_l2 < IN_C
        mask_x_403_l2 = gl.expand_dims(mask_x_402_l2, 0)
        mask_x_404_l2 = mask_x_403_l2.broadcast_to([128, 64])
        mask_x_405_l2 = mask_x_121 & mask_x_404_l2
        w_ptrs_407_l2 = w_ptrs_122 + idx_x_c_398_l2
        w_ptrs_408_l2 = gl.expand_dims(w_ptrs_407_l2, 1)
        w_ptrs_409_l2 = w_ptrs_408_l2 * OUT_C
        w_ptrs_410_l2 = W + w_ptrs_409_l2
        w_ptrs_411_l2 = w_ptrs_410_l2.broadcast_to([64, 128])
        w_ptrs_412_l2 = w_ptrs_411_l2 + w_ptrs_127
        mask_w_413_l2 = gl.expand_dims(idx_x_c_398_l2, 1)
        mask_w_414_l2 = mask_w_413_l2 < IN_C
        mask_w_415_l2 = mask_w_414_l2.broadcast_to([64, 128])
        mask_w_416_l2 = mask_w_415_l2 & mask_w_131
        mbarrier.wait(matrix_w_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(matrix_w_ready.index(twill_k % 3), twill_box_matrix_w_l2.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_matrix_w_l2, [2 * IN_C + 64 * ((acc_393_l2 - 0) // 64), 128 * idx_y_c], matrix_w_ready.index(twill_k % 3), matrix_w_buf.index(twill_k % 3))  # load1_matrix_w: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(matrix_w_buf.index(twill_k % 3), w_ptrs_412_l2, mask=mask_w_416_l2)  # load1_matrix_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(matrix_w_ready.index(twill_k % 3), increment_count=False)
            else:
                matrix_w_buf.index(twill_k % 3).store(gl.load(w_ptrs_412_l2, mask=mask_w_416_l2, other=0.0))  # load1_matrix_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(matrix_w_ready.index(twill_k % 3), count=128)
        mbarrier.wait(matrix_x_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(matrix_x_buf.index(twill_k % 3), x_ptrs_401_l2, mask=mask_x_405_l2)  # load0_matrix_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(matrix_x_ready.index(twill_k % 3), increment_count=False)
        else:
            matrix_x_buf.index(twill_k % 3).store(gl.load(x_ptrs_401_l2, mask=mask_x_405_l2, other=0.0))  # load0_matrix_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(matrix_x_ready.index(twill_k % 3), count=128)
    idx_x_w_133 = idx_y_w_14 - 1
    idx_x_c_134 = gl.arange(0, 64, layout=L3)
    idx_x_c_135 = gl.arange(0, 64, layout=L1)
    x_ptrs_137 = idx_n * IN_H
    x_ptrs_138 = x_ptrs_137 + idx_y_h_18
    x_ptrs_140 = x_ptrs_138 * IN_W
    x_ptrs_141 = x_ptrs_140 + idx_x_w_133
    x_ptrs_143 = x_ptrs_141 * IN_C
    x_ptrs_144 = gl.expand_dims(x_ptrs_143, 1)
    x_ptrs_146 = X + x_ptrs_144
    x_ptrs_147 = x_ptrs_146.broadcast_to([128, 64])
    mask_x_149 = idx_n < BATCH
    mask_x_150 = idx_y_h_18 >= 0
    mask_x_151 = mask_x_149 & mask_x_150
    mask_x_152 = idx_y_h_18 < IN_H
    mask_x_153 = mask_x_151 & mask_x_152
    mask_x_154 = idx_x_w_133 >= 0
    mask_x_155 = mask_x_153 & mask_x_154
    mask_x_156 = idx_x_w_133 < IN_W
    mask_x_157 = mask_x_155 & mask_x_156
    mask_x_158 = gl.expand_dims(mask_x_157, 1)
    mask_x_160 = mask_x_158.broadcast_to([128, 64])
    w_ptrs_161 = IN_C * 3
    w_ptrs_165 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_166 = w_ptrs_165.broadcast_to([64, 128])
    mask_w_169 = w_ptrs_165 < OUT_C
    mask_w_170 = mask_w_169.broadcast_to([64, 128])
    twill_base += (IN_C - 0 + 64 - 1) // 64
    for acc_393_l3 in range(0, IN_C, 64):
        twill_k = twill_base + (acc_393_l3 - 0) // 64
        idx_x_c_397_l3 = acc_393_l3 + idx_x_c_134
        idx_x_c_398_l3 = acc_393_l3 + idx_x_c_135
        x_ptrs_399_l3 = gl.expand_dims(idx_x_c_397_l3, 0)
        x_ptrs_400_l3 = x_ptrs_399_l3.broadcast_to([128, 64])
        x_ptrs_401_l3 = x_ptrs_147 + x_ptrs_400_l3
        mask_x_402_l3 = idx_x_c_397_l3 < IN_C
        mask_x_403_l3 = gl.expand_dims(mask_x_402_l3, 0)
        mask_x_404_l3 = mask_x_403_l3.broadcast_to([128, 64])
        mask_x_405_l3 = mask_x_160 & mask_x_404_l3
        w_ptrs_407_l3 = w_ptrs_161 + idx_x_c_398_l3
        w_ptrs_408_l3 = gl.expand_dims(w_ptrs_407_l3, 1)
        w_ptrs_409_l3 = w_ptrs_408_l3 * OUT_C
        w_ptrs_410_l3 = W + w_ptrs_409_l3
        w_ptrs_411_l3 = w_ptrs_410_l3.broadcast_to([64, 128])
        w_ptrs_412_l3 = w_ptrs_411_l3 + w_ptrs_166
        mask_w_413_l3 = gl.expand_dims(idx_x_c_398_l3, 1)
        mask_w_414_l3 = mask_w_413_l3 < IN_C
        mask_w_415_l3 = mask_w_414_l3.broadcast_to([64, 128])
        mask_w_416_l3 = mask_w_415_l3 & mask_w_170
        mbarrier.wait(matrix_w_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(matrix_w_ready.index(twill_k % 3), twill_box_matrix_w_l3.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_matrix_w_l3, [3 * IN_C + 64 * ((acc_393_l3 - 0) // 64), 128 * idx_y_c], matrix_w_ready.index(twill_k % 3), matrix_w_buf.index(twill_k % 3))  # load1_matrix_w: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(matrix_w_buf.index(twill_k % 3), w_ptrs_412_l3, mask=mask_w_416_l3)  # load1_matrix_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(matrix_w_ready.index(twill_k % 3), increment_count=False)
            else:
                matrix_w_buf.index(twill_k % 3).store(gl.load(w_ptrs_412_l3, mask=mask_w_416_l3, other=0.0))  # load1_matrix_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(matrix_w_ready.index(twill_k % 3), count=128)
        mbarrier.wait(matrix_x_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(matrix_x_buf.index(twill_k % 3), x_ptrs_401_l3, mask=mask_x_405_l3)  # load0_matrix_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(matrix_x_ready.index(twill_k % 3), increment_count=False)
        else:
            matrix_x_buf.index(twill_k % 3).store(gl.load(x_ptrs_401_l3, mask=mask_x_405_l3, other=0.0))  # load0_matrix_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(matrix_x_ready.index(twill_k % 3), count=128)
    idx_x_c_172 = gl.arange(0, 64, layout=L3)
    idx_x_c_173 = gl.arange(0, 64, layout=L1)
    x_ptrs_175 = idx_n * IN_H
    x_ptrs_176 = x_ptrs_175 + idx_y_h_18
    x_ptrs_178 = x_ptrs_176 * IN_W
    x_ptrs_179 = x_ptrs_178 + idx_y_w_14
    x_ptrs_181 = x_ptrs_179 * IN_C
    x_ptrs_182 = gl.expand_dims(x_ptrs_181, 1)
    x_ptrs_184 = X + x_ptrs_182
    x_ptrs_185 = x_ptrs_184.broadcast_to([128, 64])
    mask_x_187 = idx_n < BATCH
    mask_x_188 = idx_y_h_18 >= 0
    mask_x_189 = mask_x_187 & mask_x_188
    mask_x_190 = idx_y_h_18 < IN_H
    mask_x_191 = mask_x_189 & mask_x_190
    mask_x_192 = idx_y_w_14 >= 0
    mask_x_193 = mask_x_191 & mask_x_192
    mask_x_194 = idx_y_w_14 < IN_W
    mask_x_195 = mask_x_193 & mask_x_194
    mask_x_196 = gl.expand_dims(mask_x_195, 1)
    mask_x_198 = mask_x_196.broadcast_to([128, 64])
    w_ptrs_199 = IN_C * 4
    w_ptrs_203 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_204 = w_ptrs_203.broadcast_to([64, 128])
    mask_w_207 = w_ptrs_203 < OUT_C
    mask_w_208 = mask_w_207.broadcast_to([64, 128])
    twill_base += (IN_C - 0 + 64 - 1) // 64
    for acc_393_l4 in range(0, IN_C, 64):
        twill_k = twill_base + (acc_393_l4 - 0) // 64
        idx_x_c_397_l4 = acc_393_l4 + idx_x_c_172
        idx_x_c_398_l4 = acc_393_l4 + idx_x_c_173
        x_ptrs_399_l4 = gl.expand_dims(idx_x_c_397_l4, 0)
        x_ptrs_400_l4 = x_ptrs_399_l4.broadcast_to([128, 64])
        x_ptrs_401_l4 = x_ptrs_185 + x_ptrs_400_l4
        mask_x_402_l4 = idx_x_c_397_l4 < IN_C
        mask_x_403_l4 = gl.expand_dims(mask_x_402_l4, 0)
        mask_x_404_l4 = mask_x_403_l4.broadcast_to([128, 64])
        mask_x_405_l4 = mask_x_198 & mask_x_404_l4
        w_ptrs_407_l4 = w_ptrs_199 + idx_x_c_398_l4
        w_ptrs_408_l4 = gl.expand_dims(w_ptrs_407_l4, 1)
        w_ptrs_409_l4 = w_ptrs_408_l4 * OUT_C
        w_ptrs_410_l4 = W + w_ptrs_409_l4
        w_ptrs_411_l4 = w_ptrs_410_l4.broadcast_to([64, 128])
        w_ptrs_412_l4 = w_ptrs_411_l4 + w_ptrs_204
        mask_w_413_l4 = gl.expand_dims(idx_x_c_398_l4, 1)
        mask_w_414_l4 = mask_w_413_l4 < IN_C
        mask_w_415_l4 = mask_w_414_l4.broadcast_to([64, 128])
        mask_w_416_l4 = mask_w_415_l4 & mask_w_208
        mbarrier.wait(matrix_w_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(matrix_w_ready.index(twill_k % 3), twill_box_matrix_w_l4.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_matrix_w_l4, [4 * IN_C + 64 * ((acc_393_l4 - 0) // 64), 128 * idx_y_c], matrix_w_ready.index(twill_k % 3), matrix_w_buf.index(twill_k % 3))  # load1_matrix_w: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(matrix_w_buf.index(twill_k % 3), w_ptrs_412_l4, mask=mask_w_416_l4)  # load1_matrix_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(matrix_w_ready.index(twill_k % 3), increment_count=False)
            else:
                matrix_w_buf.index(twill_k % 3).store(gl.load(w_ptrs_412_l4, mask=mask_w_416_l4, other=0.0))  # load1_matrix_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(matrix_w_ready.index(twill_k % 3), count=128)
        mbarrier.wait(matrix_x_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(matrix_x_buf.index(twill_k % 3), x_ptrs_401_l4, mask=mask_x_405_l4)  # load0_matrix_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(matrix_x_ready.index(twill_k % 3), increment_count=False)
        else:
            matrix_x_buf.index(twill_k % 3).store(gl.load(x_ptrs_401_l4, mask=mask_x_405_l4, other=0.0))  # load0_matrix_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(matrix_x_ready.index(twill_k % 3), count=128)
    idx_x_w_210 = idx_y_w_14 - 1
    idx_x_w_211 = idx_x_w_210 + 2
    idx_x_c_212 = gl.arange(0, 64, layout=L3)
    idx_x_c_213 = gl.arange(0, 64, layout=L1)
    x_ptrs_215 = idx_n * IN_H
    x_ptrs_216 = x_ptrs_215 + idx_y_h_18
    x_ptrs_218 = x_ptrs_216 * IN_W
    x_ptrs_219 = x_ptrs_218 + idx_x_w_211
    x_ptrs_221 = x_ptrs_219 * IN_C
    x_ptrs_222 = gl.expand_dims(x_ptrs_221, 1)
    x_ptrs_224 = X + x_ptrs_222
    x_ptrs_225 = x_ptrs_224.broadcast_to([128, 64])
    mask_x_227 = idx_n < BATCH
    mask_x_228 = idx_y_h_18 >= 0
    mask_x_229 = mask_x_227 & mask_x_228
    mask_x_230 = idx_y_h_18 < IN_H
    mask_x_231 = mask_x_229 & mask_x_230
    mask_x_232 = idx_x_w_211 >= 0
    mask_x_233 = mask_x_231 & mask_x_232
    mask_x_234 = idx_x_w_211 < IN_W
    mask_x_235 = mask_x_233 & mask_x_234
    mask_x_236 = gl.expand_dims(mask_x_235, 1)
    mask_x_238 = mask_x_236.broadcast_to([128, 64])
    w_ptrs_239 = IN_C * 5
    w_ptrs_243 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_244 = w_ptrs_243.broadcast_to([64, 128])
    mask_w_247 = w_ptrs_243 < OUT_C
    mask_w_248 = mask_w_247.broadcast_to([64, 128])
    twill_base += (IN_C - 0 + 64 - 1) // 64
    for acc_393_l5 in range(0, IN_C, 64):
        twill_k = twill_base + (acc_393_l5 - 0) // 64
        idx_x_c_397_l5 = acc_393_l5 + idx_x_c_212
        idx_x_c_398_l5 = acc_393_l5 + idx_x_c_213
        x_ptrs_399_l5 = gl.expand_dims(idx_x_c_397_l5, 0)
        x_ptrs_400_l5 = x_ptrs_399_l5.broadcast_to([128, 64])
        x_ptrs_401_l5 = x_ptrs_225 + x_ptrs_400_l5
        mask_x_402_l5 = idx_x_c_397_l5 < IN_C
        mask_x_403_l5 = gl.expand_dims(mask_x_402_l5, 0)
        mask_x_404_l5 = mask_x_403_l5.broadcast_to([128, 64])
        mask_x_405_l5 = mask_x_238 & mask_x_404_l5
        w_ptrs_407_l5 = w_ptrs_239 + idx_x_c_398_l5
        w_ptrs_408_l5 = gl.expand_dims(w_ptrs_407_l5, 1)
        w_ptrs_409_l5 = w_ptrs_408_l5 * OUT_C
        w_ptrs_410_l5 = W + w_ptrs_409_l5
        w_ptrs_411_l5 = w_ptrs_410_l5.broadcast_to([64, 128])
        w_ptrs_412_l5 = w_ptrs_411_l5 + w_ptrs_244
        mask_w_413_l5 = gl.expand_dims(idx_x_c_398_l5, 1)
        mask_w_414_l5 = mask_w_413_l5 < IN_C
        mask_w_415_l5 = mask_w_414_l5.broadcast_to([64, 128])
        mask_w_416_l5 = mask_w_415_l5 & mask_w_248
        mbarrier.wait(matrix_w_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(matrix_w_ready.index(twill_k % 3), twill_box_matrix_w_l5.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_matrix_w_l5, [5 * IN_C + 64 * ((acc_393_l5 - 0) // 64), 128 * idx_y_c], matrix_w_ready.index(twill_k % 3), matrix_w_buf.index(twill_k % 3))  # load1_matrix_w: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(matrix_w_buf.index(twill_k % 3), w_ptrs_412_l5, mask=mask_w_416_l5)  # load1_matrix_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(matrix_w_ready.index(twill_k % 3), increment_count=False)
            else:
                matrix_w_buf.index(twill_k % 3).store(gl.load(w_ptrs_412_l5, mask=mask_w_416_l5, other=0.0))  # load1_matrix_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(matrix_w_ready.index(twill_k % 3), count=128)
        mbarrier.wait(matrix_x_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(matrix_x_buf.index(twill_k % 3), x_ptrs_401_l5, mask=mask_x_405_l5)  # load0_matrix_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(matrix_x_ready.index(twill_k % 3), increment_count=False)
        else:
            matrix_x_buf.index(twill_k % 3).store(gl.load(x_ptrs_401_l5, mask=mask_x_405_l5, other=0.0))  # load0_matrix_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(matrix_x_ready.index(twill_k % 3), count=128)
    idx_x_h_250 = idx_y_h_18 - 1
    idx_x_h_251 = idx_x_h_250 + 2
    idx_x_w_252 = idx_y_w_14 - 1
    idx_x_c_253 = gl.arange(0, 64, layout=L3)
    idx_x_c_254 = gl.arange(0, 64, layout=L1)
    x_ptrs_256 = idx_n * IN_H
    x_ptrs_257 = x_ptrs_256 + idx_x_h_251
    x_ptrs_259 = x_ptrs_257 * IN_W
    x_ptrs_260 = x_ptrs_259 + idx_x_w_252
    x_ptrs_262 = x_ptrs_260 * IN_C
    x_ptrs_263 = gl.expand_dims(x_ptrs_262, 1)
    x_ptrs_265 = X + x_ptrs_263
    x_ptrs_266 = x_ptrs_265.broadcast_to([128, 64])
    mask_x_268 = idx_n < BATCH
    mask_x_269 = idx_x_h_251 >= 0
    mask_x_270 = mask_x_268 & mask_x_269
    mask_x_271 = idx_x_h_251 < IN_H
    mask_x_272 = mask_x_270 & mask_x_271
    mask_x_273 = idx_x_w_252 >= 0
    mask_x_274 = mask_x_272 & mask_x_273
    mask_x_275 = idx_x_w_252 < IN_W
    mask_x_276 = mask_x_274 & mask_x_275
    mask_x_277 = gl.expand_dims(mask_x_276, 1)
    mask_x_279 = mask_x_277.broadcast_to([128, 64])
    w_ptrs_280 = IN_C * 6
    w_ptrs_284 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_285 = w_ptrs_284.broadcast_to([64, 128])
    mask_w_288 = w_ptrs_284 < OUT_C
    mask_w_289 = mask_w_288.broadcast_to([64, 128])
    twill_base += (IN_C - 0 + 64 - 1) // 64
    for acc_393_l6 in range(0, IN_C, 64):
        twill_k = twill_base + (acc_393_l6 - 0) // 64
        idx_x_c_397_l6 = acc_393_l6 + idx_x_c_253
        idx_x_c_398_l6 = acc_393_l6 + idx_x_c_254
        x_ptrs_399_l6 = gl.expand_dims(idx_x_c_397_l6, 0)
        x_ptrs_400_l6 = x_ptrs_399_l6.broadcast_to([128, 64])
        x_ptrs_401_l6 = x_ptrs_266 + x_ptrs_400_l6
        mask_x_402_l6 = idx_x_c_397_l6 < IN_C
        mask_x_403_l6 = gl.expand_dims(mask_x_402_l6, 0)
        mask_x_404_l6 = mask_x_403_l6.broadcast_to([128, 64])
        mask_x_405_l6 = mask_x_279 & mask_x_404_l6
        w_ptrs_407_l6 = w_ptrs_280 + idx_x_c_398_l6
        w_ptrs_408_l6 = gl.expand_dims(w_ptrs_407_l6, 1)
        w_ptrs_409_l6 = w_ptrs_408_l6 * OUT_C
        w_ptrs_410_l6 = W + w_ptrs_409_l6
        w_ptrs_411_l6 = w_ptrs_410_l6.broadcast_to([64, 128])
        w_ptrs_412_l6 = w_ptrs_411_l6 + w_ptrs_285
        mask_w_413_l6 = gl.expand_dims(idx_x_c_398_l6, 1)
        mask_w_414_l6 = mask_w_413_l6 < IN_C
        mask_w_415_l6 = mask_w_414_l6.broadcast_to([64, 128])
        mask_w_416_l6 = mask_w_415_l6 & mask_w_289
        mbarrier.wait(matrix_w_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(matrix_w_ready.index(twill_k % 3), twill_box_matrix_w_l6.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_matrix_w_l6, [6 * IN_C + 64 * ((acc_393_l6 - 0) // 64), 128 * idx_y_c], matrix_w_ready.index(twill_k % 3), matrix_w_buf.index(twill_k % 3))  # load1_matrix_w: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(matrix_w_buf.index(twill_k % 3), w_ptrs_412_l6, mask=mask_w_416_l6)  # load1_matrix_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(matrix_w_ready.index(twill_k % 3), increment_count=False)
            else:
                matrix_w_buf.index(twill_k % 3).store(gl.load(w_ptrs_412_l6, mask=mask_w_416_l6, other=0.0))  # load1_matrix_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(matrix_w_ready.index(twill_k % 3), count=128)
        mbarrier.wait(matrix_x_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(matrix_x_buf.index(twill_k % 3), x_ptrs_401_l6, mask=mask_x_405_l6)  # load0_matrix_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(matrix_x_ready.index(twill_k % 3), increment_count=False)
        else:
            matrix_x_buf.index(twill_k % 3).store(gl.load(x_ptrs_401_l6, mask=mask_x_405_l6, other=0.0))  # load0_matrix_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(matrix_x_ready.index(twill_k % 3), count=128)
    idx_x_h_291 = idx_y_h_18 - 1
    idx_x_h_292 = idx_x_h_291 + 2
    idx_x_c_293 = gl.arange(0, 64, layout=L3)
    idx_x_c_294 = gl.arange(0, 64, layout=L1)
    x_ptrs_296 = idx_n * IN_H
    x_ptrs_297 = x_ptrs_296 + idx_x_h_292
    x_ptrs_299 = x_ptrs_297 * IN_W
    x_ptrs_300 = x_ptrs_299 + idx_y_w_14
    x_ptrs_302 = x_ptrs_300 * IN_C
    x_ptrs_303 = gl.expand_dims(x_ptrs_302, 1)
    x_ptrs_305 = X + x_ptrs_303
    x_ptrs_306 = x_ptrs_305.broadcast_to([128, 64])
    mask_x_308 = idx_n < BATCH
    mask_x_309 = idx_x_h_292 >= 0
    mask_x_310 = mask_x_308 & mask_x_309
    mask_x_311 = idx_x_h_292 < IN_H
    mask_x_312 = mask_x_310 & mask_x_311
    mask_x_313 = idx_y_w_14 >= 0
    mask_x_314 = mask_x_312 & mask_x_313
    mask_x_315 = idx_y_w_14 < IN_W
    mask_x_316 = mask_x_314 & mask_x_315
    mask_x_317 = gl.expand_dims(mask_x_316, 1)
    mask_x_319 = mask_x_317.broadcast_to([128, 64])
    w_ptrs_320 = IN_C * 7
    w_ptrs_324 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_325 = w_ptrs_324.broadcast_to([64, 128])
    mask_w_328 = w_ptrs_324 < OUT_C
    mask_w_329 = mask_w_328.broadcast_to([64, 128])
    twill_base += (IN_C - 0 + 64 - 1) // 64
    for acc_393_l7 in range(0, IN_C, 64):
        twill_k = twill_base + (acc_393_l7 - 0) // 64
        idx_x_c_397_l7 = acc_393_l7 + idx_x_c_293
        idx_x_c_398_l7 = acc_393_l7 + idx_x_c_294
        x_ptrs_399_l7 = gl.expand_dims(idx_x_c_397_l7, 0)
        x_ptrs_400_l7 = x_ptrs_399_l7.broadcast_to([128, 64])
        x_ptrs_401_l7 = x_ptrs_306 + x_ptrs_400_l7
        mask_x_402_l7 = idx_x_c_397_l7 < IN_C
        mask_x_403_l7 = gl.expand_dims(mask_x_402_l7, 0)
        mask_x_404_l7 = mask_x_403_l7.broadcast_to([128, 64])
        mask_x_405_l7 = mask_x_319 & mask_x_404_l7
        w_ptrs_407_l7 = w_ptrs_320 + idx_x_c_398_l7
        w_ptrs_408_l7 = gl.expand_dims(w_ptrs_407_l7, 1)
        w_ptrs_409_l7 = w_ptrs_408_l7 * OUT_C
        w_ptrs_410_l7 = W + w_ptrs_409_l7
        w_ptrs_411_l7 = w_ptrs_410_l7.broadcast_to([64, 128])
        w_ptrs_412_l7 = w_ptrs_411_l7 + w_ptrs_325
        mask_w_413_l7 = gl.expand_dims(idx_x_c_398_l7, 1)
        mask_w_414_l7 = mask_w_413_l7 < IN_C
        mask_w_415_l7 = mask_w_414_l7.broadcast_to([64, 128])
        mask_w_416_l7 = mask_w_415_l7 & mask_w_329
        mbarrier.wait(matrix_w_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(matrix_w_ready.index(twill_k % 3), twill_box_matrix_w_l7.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_matrix_w_l7, [7 * IN_C + 64 * ((acc_393_l7 - 0) // 64), 128 * idx_y_c], matrix_w_ready.index(twill_k % 3), matrix_w_buf.index(twill_k % 3))  # load1_matrix_w: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(matrix_w_buf.index(twill_k % 3), w_ptrs_412_l7, mask=mask_w_416_l7)  # load1_matrix_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(matrix_w_ready.index(twill_k % 3), increment_count=False)
            else:
                matrix_w_buf.index(twill_k % 3).store(gl.load(w_ptrs_412_l7, mask=mask_w_416_l7, other=0.0))  # load1_matrix_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(matrix_w_ready.index(twill_k % 3), count=128)
        mbarrier.wait(matrix_x_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(matrix_x_buf.index(twill_k % 3), x_ptrs_401_l7, mask=mask_x_405_l7)  # load0_matrix_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(matrix_x_ready.index(twill_k % 3), increment_count=False)
        else:
            matrix_x_buf.index(twill_k % 3).store(gl.load(x_ptrs_401_l7, mask=mask_x_405_l7, other=0.0))  # load0_matrix_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(matrix_x_ready.index(twill_k % 3), count=128)
    idx_x_h_331 = idx_y_h_18 - 1
    idx_x_h_332 = idx_x_h_331 + 2
    idx_x_w_333 = idx_y_w_14 - 1
    idx_x_w_334 = idx_x_w_333 + 2
    idx_x_c_335 = gl.arange(0, 64, layout=L3)
    idx_x_c_336 = gl.arange(0, 64, layout=L1)
    x_ptrs_338 = idx_n * IN_H
    x_ptrs_339 = x_ptrs_338 + idx_x_h_332
    x_ptrs_341 = x_ptrs_339 * IN_W
    x_ptrs_342 = x_ptrs_341 + idx_x_w_334
    x_ptrs_344 = x_ptrs_342 * IN_C
    x_ptrs_345 = gl.expand_dims(x_ptrs_344, 1)
    x_ptrs_347 = X + x_ptrs_345
    x_ptrs_348 = x_ptrs_347.broadcast_to([128, 64])
    mask_x_350 = idx_n < BATCH
    mask_x_351 = idx_x_h_332 >= 0
    mask_x_352 = mask_x_350 & mask_x_351
    mask_x_353 = idx_x_h_332 < IN_H
    mask_x_354 = mask_x_352 & mask_x_353
    mask_x_355 = idx_x_w_334 >= 0
    mask_x_356 = mask_x_354 & mask_x_355
    mask_x_357 = idx_x_w_334 < IN_W
    mask_x_358 = mask_x_356 & mask_x_357
    mask_x_359 = gl.expand_dims(mask_x_358, 1)
    mask_x_361 = mask_x_359.broadcast_to([128, 64])
    w_ptrs_362 = IN_C * 8
    w_ptrs_366 = gl.expand_dims(idx_y_c_23, 0)
    w_ptrs_367 = w_ptrs_366.broadcast_to([64, 128])
    mask_w_370 = w_ptrs_366 < OUT_C
    mask_w_371 = mask_w_370.broadcast_to([64, 128])
    twill_base += (IN_C - 0 + 64 - 1) // 64
    for acc_393_l8 in range(0, IN_C, 64):
        twill_k = twill_base + (acc_393_l8 - 0) // 64
        idx_x_c_397_l8 = acc_393_l8 + idx_x_c_335
        idx_x_c_398_l8 = acc_393_l8 + idx_x_c_336
        x_ptrs_399_l8 = gl.expand_dims(idx_x_c_397_l8, 0)
        x_ptrs_400_l8 = x_ptrs_399_l8.broadcast_to([128, 64])
        x_ptrs_401_l8 = x_ptrs_348 + x_ptrs_400_l8
        mask_x_402_l8 = idx_x_c_397_l8 < IN_C
        mask_x_403_l8 = gl.expand_dims(mask_x_402_l8, 0)
        mask_x_404_l8 = mask_x_403_l8.broadcast_to([128, 64])
        mask_x_405_l8 = mask_x_361 & mask_x_404_l8
        w_ptrs_407_l8 = w_ptrs_362 + idx_x_c_398_l8
        w_ptrs_408_l8 = gl.expand_dims(w_ptrs_407_l8, 1)
        w_ptrs_409_l8 = w_ptrs_408_l8 * OUT_C
        w_ptrs_410_l8 = W + w_ptrs_409_l8
        w_ptrs_411_l8 = w_ptrs_410_l8.broadcast_to([64, 128])
        w_ptrs_412_l8 = w_ptrs_411_l8 + w_ptrs_367
        mask_w_413_l8 = gl.expand_dims(idx_x_c_398_l8, 1)
        mask_w_414_l8 = mask_w_413_l8 < IN_C
        mask_w_415_l8 = mask_w_414_l8.broadcast_to([64, 128])
        mask_w_416_l8 = mask_w_415_l8 & mask_w_371
        mbarrier.wait(matrix_w_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(matrix_w_ready.index(twill_k % 3), twill_box_matrix_w_l8.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_matrix_w_l8, [8 * IN_C + 64 * ((acc_393_l8 - 0) // 64), 128 * idx_y_c], matrix_w_ready.index(twill_k % 3), matrix_w_buf.index(twill_k % 3))  # load1_matrix_w: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(matrix_w_buf.index(twill_k % 3), w_ptrs_412_l8, mask=mask_w_416_l8)  # load1_matrix_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(matrix_w_ready.index(twill_k % 3), increment_count=False)
            else:
                matrix_w_buf.index(twill_k % 3).store(gl.load(w_ptrs_412_l8, mask=mask_w_416_l8, other=0.0))  # load1_matrix_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(matrix_w_ready.index(twill_k % 3), count=128)
        mbarrier.wait(matrix_x_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(matrix_x_buf.index(twill_k % 3), x_ptrs_401_l8, mask=mask_x_405_l8)  # load0_matrix_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(matrix_x_ready.index(twill_k % 3), increment_count=False)
        else:
            matrix_x_buf.index(twill_k % 3).store(gl.load(x_ptrs_401_l8, mask=mask_x_405_l8, other=0.0))  # load0_matrix_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(matrix_x_ready.index(twill_k % 3), count=128)

@gluon.jit
def twill_kernel(X, W, Y, BATCH, IN_H, IN_W, IN_C, OUT_H, OUT_W, OUT_C, twill_box_matrix_w, twill_box_matrix_w_l1, twill_box_matrix_w_l2, twill_box_matrix_w_l3, twill_box_matrix_w_l4, twill_box_matrix_w_l5, twill_box_matrix_w_l6, twill_box_matrix_w_l7, twill_box_matrix_w_l8, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    matrix_x_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    matrix_w_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    matrix_x_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(matrix_x_ready.index(i), count=128)
    matrix_x_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(matrix_x_empty.index(i), count=1)
    matrix_w_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(matrix_w_ready.index(i), count=1 if TWILL_TMA else 128)
    matrix_w_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(matrix_w_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (X, W, Y, BATCH, IN_H, IN_W, IN_C, OUT_H, OUT_W, OUT_C, twill_box_matrix_w, twill_box_matrix_w_l1, twill_box_matrix_w_l2, twill_box_matrix_w_l3, twill_box_matrix_w_l4, twill_box_matrix_w_l5, twill_box_matrix_w_l6, twill_box_matrix_w_l7, twill_box_matrix_w_l8, matrix_x_buf, matrix_w_buf, matrix_x_ready, matrix_x_empty, matrix_w_ready, matrix_w_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (X, W, Y, BATCH, IN_H, IN_W, IN_C, OUT_H, OUT_W, OUT_C, twill_box_matrix_w, twill_box_matrix_w_l1, twill_box_matrix_w_l2, twill_box_matrix_w_l3, twill_box_matrix_w_l4, twill_box_matrix_w_l5, twill_box_matrix_w_l6, twill_box_matrix_w_l7, twill_box_matrix_w_l8, matrix_x_buf, matrix_w_buf, matrix_x_ready, matrix_x_empty, matrix_w_ready, matrix_w_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [88])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'W', 'Y', 'BATCH', 'IN_H', 'IN_W', 'IN_C', 'OUT_H', 'OUT_W', 'OUT_C', 'KERNEL_H', 'KERNEL_W', 'STRIDE', 'PADDING', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'W', 'Y', 'BATCH', 'IN_H', 'IN_W', 'IN_C', 'OUT_H', 'OUT_W', 'OUT_C', 'twill_box_matrix_w', 'twill_box_matrix_w_l1', 'twill_box_matrix_w_l2', 'twill_box_matrix_w_l3', 'twill_box_matrix_w_l4', 'twill_box_matrix_w_l5', 'twill_box_matrix_w_l6', 'twill_box_matrix_w_l7', 'twill_box_matrix_w_l8']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X', 'W', 'Y', 'BATCH', 'IN_H', 'IN_W', 'IN_C', 'OUT_H', 'OUT_W', 'OUT_C']   # the arguments a launch key reads
CONSTEXPRS = {'KERNEL_H': 3, 'KERNEL_W': 3, 'STRIDE': 1, 'PADDING': 1, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_matrix_w': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_matrix_w_l1': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_matrix_w_l2': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_matrix_w_l3': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_matrix_w_l4': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_matrix_w_l5': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_matrix_w_l6': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_matrix_w_l7': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_matrix_w_l8': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_matrix_w': ('W', ['OUT_C', '1'], ['IN_C', 'OUT_C'], [64, 128], []), 'twill_box_matrix_w_l1': ('W', ['OUT_C', '1'], ['2 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_matrix_w_l2': ('W', ['OUT_C', '1'], ['3 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_matrix_w_l3': ('W', ['OUT_C', '1'], ['4 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_matrix_w_l4': ('W', ['OUT_C', '1'], ['5 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_matrix_w_l5': ('W', ['OUT_C', '1'], ['6 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_matrix_w_l6': ('W', ['OUT_C', '1'], ['7 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_matrix_w_l7': ('W', ['OUT_C', '1'], ['8 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_matrix_w_l8': ('W', ['OUT_C', '1'], ['9 * IN_C', 'OUT_C'], [64, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['X', 'W', 'IN_C', 'OUT_C']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
