"""_conv_fwd, written by twill from its joint schedule: I=194 L=260 (optimal), 2481 cycles per iteration predicted.

Decisions (each from the schedule):
- x_269 copied with cp.async at every launch, not by TMA: its addresses go through arith.divsi (%idx_n), which the analysis does not follow
- pointer-loaded tiles copied by a 8-warp producer with cp.async (x_269, w_279): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- w_279 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over W when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 113): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring x_269: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring w_279: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 131216 bytes planned of 232448; maxnreg 128
- loop at conv_implicit_gemm.py:41 (TTGIR line 139) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=260, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at conv_implicit_gemm.py:41 (TTGIR line 191) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=260, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at conv_implicit_gemm.py:41 (TTGIR line 246) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=260, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at conv_implicit_gemm.py:41 (TTGIR line 295) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=260, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at conv_implicit_gemm.py:41 (TTGIR line 344) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=260, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at conv_implicit_gemm.py:41 (TTGIR line 400) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=260, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at conv_implicit_gemm.py:41 (TTGIR line 449) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=260, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at conv_implicit_gemm.py:41 (TTGIR line 498) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=260, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

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
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, twill_g0, twill_g1, twill_g2, twill_box_w_279, twill_box_w_281_l1, twill_box_w_281_l2, twill_box_w_281_l3, twill_box_w_281_l4, twill_box_w_281_l5, twill_box_w_281_l6, twill_box_w_281_l7, twill_box_w_281_l8, x_269_buf, w_279_buf, x_269_ready, x_269_empty, w_279_ready, w_279_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        nhw = twill_pid0
        nhw_5 = nhw * 128
        nhw_6 = gl.arange(0, 128, layout=L0)
        nhw_7 = gl.arange(0, 128, layout=L1)
        nhw_8 = gl.arange(0, 128, layout=L2)
        nhw_11 = nhw_5 + nhw_6
        nhw_12 = nhw_5 + nhw_7
        idx_y_w_13 = nhw_11 % OUT_W
        nh = nhw_11 // OUT_W
        idx_y_h_14 = nh % OUT_H
        idx_n = nh // OUT_H
        idx_y_c = twill_pid1
        idx_y_c_15 = idx_y_c * 128
        idx_y_c_17 = idx_y_c_15 + nhw_8
        idx_x_h = idx_y_h_14 + -1
        idx_x_w = idx_y_w_13 + -1
        row_ok_18 = idx_n < BATCH
        row_ok_19 = idx_x_h >= 0
        row_ok_20 = row_ok_18 & row_ok_19
        row_ok_22 = idx_x_h < IN_H
        row_ok_23 = row_ok_20 & row_ok_22
        row_ok_24 = idx_x_w >= 0
        row_ok_25 = row_ok_23 & row_ok_24
        row_ok_27 = idx_x_w < IN_W
        row_ok_28 = row_ok_25 & row_ok_27
        x_base = idx_n * IN_H
        x_base_29 = x_base + idx_x_h
        x_base_30 = x_base_29 * IN_W
        x_base_31 = x_base_30 + idx_x_w
        x_base_33 = x_base_31 * IN_C
        x_base_35 = X + x_base_33
        idx_x_c = gl.arange(0, 64, layout=L3)
        idx_x_c_36 = gl.arange(0, 64, layout=L1)
        x = gl.expand_dims(row_ok_28, 1)
        x_38 = x.broadcast_to([128, 64])
        x_39 = gl.expand_dims(x_base_35, 1)
        x_40 = x_39.broadcast_to([128, 64])
        w_41 = gl.expand_dims(idx_y_c_17, 0)
        w_43 = w_41 < OUT_C
        w_44 = w_43.broadcast_to([64, 128])
        w_47 = w_41.broadcast_to([64, 128])
        twill_n = (IN_C - 0 + 64 - 1) // 64
        acc_281 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
        idx_x_c_261 = (0 + (0 - 0) * 64) + idx_x_c  # elementwise0_x: stage 0, partition 0 (group 0)
        x_263 = gl.expand_dims(idx_x_c_261, 0)  # elementwise0_x: stage 0, partition 0 (group 0)
        x_264 = x_263 < IN_C  # elementwise0_x: stage 0, partition 0 (group 0)
        x_265 = x_264.broadcast_to([128, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
        x_266 = x_38 & x_265  # elementwise0_x: stage 0, partition 0 (group 0)
        idx_x_c_262 = (0 + (0 - 0) * 64) + idx_x_c_36  # elementwise1_w: stage 0, partition 0 (group 0)
        w_271 = gl.expand_dims(idx_x_c_262, 1)  # elementwise1_w: stage 0, partition 0 (group 0)
        w_272 = w_271 < IN_C  # elementwise1_w: stage 0, partition 0 (group 0)
        w_273 = w_272.broadcast_to([64, 128])  # elementwise1_w: stage 0, partition 0 (group 0)
        w_274 = w_273 & w_44  # elementwise1_w: stage 0, partition 0 (group 0)
        acc_281_p1 = acc_281
        for twill_b in range(1, twill_n):
            idx_x_c_259 = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            idx_x_c_261 = idx_x_c_259 + idx_x_c  # elementwise0_x: stage 0, partition 0 (group 0)
            x_263 = gl.expand_dims(idx_x_c_261, 0)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_264 = x_263 < IN_C  # elementwise0_x: stage 0, partition 0 (group 0)
            x_265 = x_264.broadcast_to([128, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_266 = x_38 & x_265  # elementwise0_x: stage 0, partition 0 (group 0)
            mbarrier.wait(x_269_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(w_279_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_acc_281 = warpgroup_mma(x_269_buf.index((twill_base + twill_b - 1) % 4), w_279_buf.index((twill_base + twill_b - 1) % 4), acc_281_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            idx_x_c_260 = (0 + (twill_b - 0) * 64)  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_262 = idx_x_c_260 + idx_x_c_36  # elementwise1_w: stage 0, partition 0 (group 0)
            w_271 = gl.expand_dims(idx_x_c_262, 1)  # elementwise1_w: stage 0, partition 0 (group 0)
            w_272 = w_271 < IN_C  # elementwise1_w: stage 0, partition 0 (group 0)
            w_273 = w_272.broadcast_to([64, 128])  # elementwise1_w: stage 0, partition 0 (group 0)
            w_274 = w_273 & w_44  # elementwise1_w: stage 0, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_281,))
            mbarrier.arrive(x_269_empty.index((twill_base + twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
            mbarrier.arrive(w_279_empty.index((twill_base + twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
            acc_281 = warpgroup_mma_wait(1, deps=(tok_acc_281,))
            acc_281_p1 = acc_281
        mbarrier.wait(x_269_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        mbarrier.wait(w_279_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_281 = warpgroup_mma(x_269_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), w_279_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), acc_281_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_281,))
        mbarrier.arrive(x_269_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        mbarrier.arrive(w_279_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_281 = warpgroup_mma_wait(1, deps=(tok_acc_281,))
        acc_281_p1 = acc_281
        acc_281_p1 = warpgroup_mma_wait(0, deps=(acc_281_p1,))
        x_269_buf._keep_alive()
        w_279_buf._keep_alive()
        mbarrier.arrive(x_269_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        mbarrier.arrive(w_279_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        twill_base += twill_n
        row_ok_48 = idx_y_w_13 >= 0
        row_ok_49 = row_ok_23 & row_ok_48
        row_ok_50 = idx_y_w_13 < IN_W
        row_ok_51 = row_ok_49 & row_ok_50
        x_base_52 = x_base_30 + idx_y_w_13
        x_base_53 = x_base_52 * IN_C
        x_base_54 = X + x_base_53
        idx_x_c_55 = gl.arange(0, 64, layout=L3)
        idx_x_c_56 = gl.arange(0, 64, layout=L1)
        x_57 = gl.expand_dims(row_ok_51, 1)
        x_59 = x_57.broadcast_to([128, 64])
        x_60 = gl.expand_dims(x_base_54, 1)
        x_61 = x_60.broadcast_to([128, 64])
        w_63 = gl.expand_dims(idx_y_c_17, 0)
        w_65 = w_63 < OUT_C
        w_66 = w_65.broadcast_to([64, 128])
        w_69 = w_63.broadcast_to([64, 128])
        twill_n = (IN_C - 0 + 64 - 1) // 64
        acc_283_l1 = acc_281_p1
        acc_283_l1_p1 = acc_283_l1
        for twill_b in range(0, twill_n):
            idx_x_c_261_l1 = (0 + (twill_b - 0) * 64)  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_263_l1 = idx_x_c_261_l1 + idx_x_c_56  # elementwise1_w: stage 0, partition 0 (group 0)
            w_272_l1 = gl.expand_dims(idx_x_c_263_l1, 1)  # elementwise1_w: stage 0, partition 0 (group 0)
            w_273_l1 = w_272_l1 < IN_C  # elementwise1_w: stage 0, partition 0 (group 0)
            w_274_l1 = w_273_l1.broadcast_to([64, 128])  # elementwise1_w: stage 0, partition 0 (group 0)
            w_275_l1 = w_274_l1 & w_66  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_260_l1 = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            idx_x_c_262_l1 = idx_x_c_260_l1 + idx_x_c_55  # elementwise0_x: stage 0, partition 0 (group 0)
            x_264_l1 = gl.expand_dims(idx_x_c_262_l1, 0)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_265_l1 = x_264_l1 < IN_C  # elementwise0_x: stage 0, partition 0 (group 0)
            x_266_l1 = x_265_l1.broadcast_to([128, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_267_l1 = x_59 & x_266_l1  # elementwise0_x: stage 0, partition 0 (group 0)
            mbarrier.wait(x_269_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(w_279_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_283_l1 = warpgroup_mma(x_269_buf.index((twill_base + twill_b - 0) % 4), w_279_buf.index((twill_base + twill_b - 0) % 4), acc_283_l1_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_283_l1_p1 = warpgroup_mma_wait(1, deps=(acc_283_l1_p1,))
            mbarrier.arrive(x_269_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(w_279_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_283_l1 = warpgroup_mma_wait(1, deps=(tok_acc_283_l1,))
            acc_283_l1_p1 = acc_283_l1
        acc_283_l1_p1 = warpgroup_mma_wait(0, deps=(acc_283_l1_p1,))
        x_269_buf._keep_alive()
        w_279_buf._keep_alive()
        mbarrier.arrive(x_269_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(w_279_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        twill_base += twill_n
        idx_x_w_71 = idx_y_w_13 + 1
        row_ok_72 = idx_x_w_71 >= 0
        row_ok_73 = row_ok_23 & row_ok_72
        row_ok_74 = idx_x_w_71 < IN_W
        row_ok_75 = row_ok_73 & row_ok_74
        x_base_76 = x_base_30 + idx_x_w_71
        x_base_77 = x_base_76 * IN_C
        x_base_78 = X + x_base_77
        idx_x_c_79 = gl.arange(0, 64, layout=L3)
        idx_x_c_80 = gl.arange(0, 64, layout=L1)
        x_81 = gl.expand_dims(row_ok_75, 1)
        x_83 = x_81.broadcast_to([128, 64])
        x_84 = gl.expand_dims(x_base_78, 1)
        x_85 = x_84.broadcast_to([128, 64])
        w_87 = gl.expand_dims(idx_y_c_17, 0)
        w_89 = w_87 < OUT_C
        w_90 = w_89.broadcast_to([64, 128])
        w_91 = IN_C * 2
        w_95 = w_87.broadcast_to([64, 128])
        twill_n = (IN_C - 0 + 64 - 1) // 64
        acc_283_l2 = acc_283_l1_p1
        acc_283_l2_p1 = acc_283_l2
        for twill_b in range(0, twill_n):
            idx_x_c_261_l2 = (0 + (twill_b - 0) * 64)  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_263_l2 = idx_x_c_261_l2 + idx_x_c_80  # elementwise1_w: stage 0, partition 0 (group 0)
            w_272_l2 = gl.expand_dims(idx_x_c_263_l2, 1)  # elementwise1_w: stage 0, partition 0 (group 0)
            w_273_l2 = w_272_l2 < IN_C  # elementwise1_w: stage 0, partition 0 (group 0)
            w_274_l2 = w_273_l2.broadcast_to([64, 128])  # elementwise1_w: stage 0, partition 0 (group 0)
            w_275_l2 = w_274_l2 & w_90  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_260_l2 = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            idx_x_c_262_l2 = idx_x_c_260_l2 + idx_x_c_79  # elementwise0_x: stage 0, partition 0 (group 0)
            x_264_l2 = gl.expand_dims(idx_x_c_262_l2, 0)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_265_l2 = x_264_l2 < IN_C  # elementwise0_x: stage 0, partition 0 (group 0)
            x_266_l2 = x_265_l2.broadcast_to([128, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_267_l2 = x_83 & x_266_l2  # elementwise0_x: stage 0, partition 0 (group 0)
            mbarrier.wait(x_269_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(w_279_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_283_l2 = warpgroup_mma(x_269_buf.index((twill_base + twill_b - 0) % 4), w_279_buf.index((twill_base + twill_b - 0) % 4), acc_283_l2_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_283_l2_p1 = warpgroup_mma_wait(1, deps=(acc_283_l2_p1,))
            mbarrier.arrive(x_269_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(w_279_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_283_l2 = warpgroup_mma_wait(1, deps=(tok_acc_283_l2,))
            acc_283_l2_p1 = acc_283_l2
        acc_283_l2_p1 = warpgroup_mma_wait(0, deps=(acc_283_l2_p1,))
        x_269_buf._keep_alive()
        w_279_buf._keep_alive()
        mbarrier.arrive(x_269_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(w_279_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        twill_base += twill_n
        row_ok_97 = idx_y_h_14 >= 0
        row_ok_98 = row_ok_18 & row_ok_97
        row_ok_99 = idx_y_h_14 < IN_H
        row_ok_100 = row_ok_98 & row_ok_99
        row_ok_101 = row_ok_100 & row_ok_24
        row_ok_102 = row_ok_101 & row_ok_27
        x_base_103 = x_base + idx_y_h_14
        x_base_104 = x_base_103 * IN_W
        x_base_105 = x_base_104 + idx_x_w
        x_base_106 = x_base_105 * IN_C
        x_base_107 = X + x_base_106
        idx_x_c_108 = gl.arange(0, 64, layout=L3)
        idx_x_c_109 = gl.arange(0, 64, layout=L1)
        x_110 = gl.expand_dims(row_ok_102, 1)
        x_112 = x_110.broadcast_to([128, 64])
        x_113 = gl.expand_dims(x_base_107, 1)
        x_114 = x_113.broadcast_to([128, 64])
        w_116 = gl.expand_dims(idx_y_c_17, 0)
        w_118 = w_116 < OUT_C
        w_119 = w_118.broadcast_to([64, 128])
        w_120 = IN_C * 3
        w_124 = w_116.broadcast_to([64, 128])
        twill_n = (IN_C - 0 + 64 - 1) // 64
        acc_283_l3 = acc_283_l2_p1
        acc_283_l3_p1 = acc_283_l3
        for twill_b in range(0, twill_n):
            idx_x_c_261_l3 = (0 + (twill_b - 0) * 64)  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_263_l3 = idx_x_c_261_l3 + idx_x_c_109  # elementwise1_w: stage 0, partition 0 (group 0)
            w_272_l3 = gl.expand_dims(idx_x_c_263_l3, 1)  # elementwise1_w: stage 0, partition 0 (group 0)
            w_273_l3 = w_272_l3 < IN_C  # elementwise1_w: stage 0, partition 0 (group 0)
            w_274_l3 = w_273_l3.broadcast_to([64, 128])  # elementwise1_w: stage 0, partition 0 (group 0)
            w_275_l3 = w_274_l3 & w_119  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_260_l3 = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            idx_x_c_262_l3 = idx_x_c_260_l3 + idx_x_c_108  # elementwise0_x: stage 0, partition 0 (group 0)
            x_264_l3 = gl.expand_dims(idx_x_c_262_l3, 0)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_265_l3 = x_264_l3 < IN_C  # elementwise0_x: stage 0, partition 0 (group 0)
            x_266_l3 = x_265_l3.broadcast_to([128, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_267_l3 = x_112 & x_266_l3  # elementwise0_x: stage 0, partition 0 (group 0)
            mbarrier.wait(x_269_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(w_279_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_283_l3 = warpgroup_mma(x_269_buf.index((twill_base + twill_b - 0) % 4), w_279_buf.index((twill_base + twill_b - 0) % 4), acc_283_l3_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_283_l3_p1 = warpgroup_mma_wait(1, deps=(acc_283_l3_p1,))
            mbarrier.arrive(x_269_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(w_279_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_283_l3 = warpgroup_mma_wait(1, deps=(tok_acc_283_l3,))
            acc_283_l3_p1 = acc_283_l3
        acc_283_l3_p1 = warpgroup_mma_wait(0, deps=(acc_283_l3_p1,))
        x_269_buf._keep_alive()
        w_279_buf._keep_alive()
        mbarrier.arrive(x_269_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(w_279_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        twill_base += twill_n
        row_ok_126 = row_ok_100 & row_ok_48
        row_ok_127 = row_ok_126 & row_ok_50
        x_base_128 = x_base_104 + idx_y_w_13
        x_base_129 = x_base_128 * IN_C
        x_base_130 = X + x_base_129
        idx_x_c_131 = gl.arange(0, 64, layout=L3)
        idx_x_c_132 = gl.arange(0, 64, layout=L1)
        x_133 = gl.expand_dims(row_ok_127, 1)
        x_135 = x_133.broadcast_to([128, 64])
        x_136 = gl.expand_dims(x_base_130, 1)
        x_137 = x_136.broadcast_to([128, 64])
        w_139 = gl.expand_dims(idx_y_c_17, 0)
        w_141 = w_139 < OUT_C
        w_142 = w_141.broadcast_to([64, 128])
        w_143 = IN_C * 4
        w_147 = w_139.broadcast_to([64, 128])
        twill_n = (IN_C - 0 + 64 - 1) // 64
        acc_283_l4 = acc_283_l3_p1
        acc_283_l4_p1 = acc_283_l4
        for twill_b in range(0, twill_n):
            idx_x_c_261_l4 = (0 + (twill_b - 0) * 64)  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_263_l4 = idx_x_c_261_l4 + idx_x_c_132  # elementwise1_w: stage 0, partition 0 (group 0)
            w_272_l4 = gl.expand_dims(idx_x_c_263_l4, 1)  # elementwise1_w: stage 0, partition 0 (group 0)
            w_273_l4 = w_272_l4 < IN_C  # elementwise1_w: stage 0, partition 0 (group 0)
            w_274_l4 = w_273_l4.broadcast_to([64, 128])  # elementwise1_w: stage 0, partition 0 (group 0)
            w_275_l4 = w_274_l4 & w_142  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_260_l4 = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            idx_x_c_262_l4 = idx_x_c_260_l4 + idx_x_c_131  # elementwise0_x: stage 0, partition 0 (group 0)
            x_264_l4 = gl.expand_dims(idx_x_c_262_l4, 0)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_265_l4 = x_264_l4 < IN_C  # elementwise0_x: stage 0, partition 0 (group 0)
            x_266_l4 = x_265_l4.broadcast_to([128, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_267_l4 = x_135 & x_266_l4  # elementwise0_x: stage 0, partition 0 (group 0)
            mbarrier.wait(x_269_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(w_279_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_283_l4 = warpgroup_mma(x_269_buf.index((twill_base + twill_b - 0) % 4), w_279_buf.index((twill_base + twill_b - 0) % 4), acc_283_l4_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_283_l4_p1 = warpgroup_mma_wait(1, deps=(acc_283_l4_p1,))
            mbarrier.arrive(x_269_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(w_279_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_283_l4 = warpgroup_mma_wait(1, deps=(tok_acc_283_l4,))
            acc_283_l4_p1 = acc_283_l4
        acc_283_l4_p1 = warpgroup_mma_wait(0, deps=(acc_283_l4_p1,))
        x_269_buf._keep_alive()
        w_279_buf._keep_alive()
        mbarrier.arrive(x_269_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(w_279_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        twill_base += twill_n
        row_ok_149 = row_ok_100 & row_ok_72
        row_ok_150 = row_ok_149 & row_ok_74
        x_base_151 = x_base_104 + idx_x_w_71
        x_base_152 = x_base_151 * IN_C
        x_base_153 = X + x_base_152
        idx_x_c_154 = gl.arange(0, 64, layout=L3)
        idx_x_c_155 = gl.arange(0, 64, layout=L1)
        x_156 = gl.expand_dims(row_ok_150, 1)
        x_158 = x_156.broadcast_to([128, 64])
        x_159 = gl.expand_dims(x_base_153, 1)
        x_160 = x_159.broadcast_to([128, 64])
        w_162 = gl.expand_dims(idx_y_c_17, 0)
        w_164 = w_162 < OUT_C
        w_165 = w_164.broadcast_to([64, 128])
        w_166 = IN_C * 5
        w_170 = w_162.broadcast_to([64, 128])
        twill_n = (IN_C - 0 + 64 - 1) // 64
        acc_283_l5 = acc_283_l4_p1
        acc_283_l5_p1 = acc_283_l5
        for twill_b in range(0, twill_n):
            idx_x_c_261_l5 = (0 + (twill_b - 0) * 64)  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_263_l5 = idx_x_c_261_l5 + idx_x_c_155  # elementwise1_w: stage 0, partition 0 (group 0)
            w_272_l5 = gl.expand_dims(idx_x_c_263_l5, 1)  # elementwise1_w: stage 0, partition 0 (group 0)
            w_273_l5 = w_272_l5 < IN_C  # elementwise1_w: stage 0, partition 0 (group 0)
            w_274_l5 = w_273_l5.broadcast_to([64, 128])  # elementwise1_w: stage 0, partition 0 (group 0)
            w_275_l5 = w_274_l5 & w_165  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_260_l5 = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            idx_x_c_262_l5 = idx_x_c_260_l5 + idx_x_c_154  # elementwise0_x: stage 0, partition 0 (group 0)
            x_264_l5 = gl.expand_dims(idx_x_c_262_l5, 0)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_265_l5 = x_264_l5 < IN_C  # elementwise0_x: stage 0, partition 0 (group 0)
            x_266_l5 = x_265_l5.broadcast_to([128, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_267_l5 = x_158 & x_266_l5  # elementwise0_x: stage 0, partition 0 (group 0)
            mbarrier.wait(x_269_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(w_279_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_283_l5 = warpgroup_mma(x_269_buf.index((twill_base + twill_b - 0) % 4), w_279_buf.index((twill_base + twill_b - 0) % 4), acc_283_l5_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_283_l5_p1 = warpgroup_mma_wait(1, deps=(acc_283_l5_p1,))
            mbarrier.arrive(x_269_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(w_279_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_283_l5 = warpgroup_mma_wait(1, deps=(tok_acc_283_l5,))
            acc_283_l5_p1 = acc_283_l5
        acc_283_l5_p1 = warpgroup_mma_wait(0, deps=(acc_283_l5_p1,))
        x_269_buf._keep_alive()
        w_279_buf._keep_alive()
        mbarrier.arrive(x_269_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(w_279_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        twill_base += twill_n
        idx_x_h_172 = idx_y_h_14 + 1
        row_ok_173 = idx_x_h_172 >= 0
        row_ok_174 = row_ok_18 & row_ok_173
        row_ok_175 = idx_x_h_172 < IN_H
        row_ok_176 = row_ok_174 & row_ok_175
        row_ok_177 = row_ok_176 & row_ok_24
        row_ok_178 = row_ok_177 & row_ok_27
        x_base_179 = x_base + idx_x_h_172
        x_base_180 = x_base_179 * IN_W
        x_base_181 = x_base_180 + idx_x_w
        x_base_182 = x_base_181 * IN_C
        x_base_183 = X + x_base_182
        idx_x_c_184 = gl.arange(0, 64, layout=L3)
        idx_x_c_185 = gl.arange(0, 64, layout=L1)
        x_186 = gl.expand_dims(row_ok_178, 1)
        x_188 = x_186.broadcast_to([128, 64])
        x_189 = gl.expand_dims(x_base_183, 1)
        x_190 = x_189.broadcast_to([128, 64])
        w_192 = gl.expand_dims(idx_y_c_17, 0)
        w_194 = w_192 < OUT_C
        w_195 = w_194.broadcast_to([64, 128])
        w_196 = IN_C * 6
        w_200 = w_192.broadcast_to([64, 128])
        twill_n = (IN_C - 0 + 64 - 1) // 64
        acc_283_l6 = acc_283_l5_p1
        acc_283_l6_p1 = acc_283_l6
        for twill_b in range(0, twill_n):
            idx_x_c_261_l6 = (0 + (twill_b - 0) * 64)  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_263_l6 = idx_x_c_261_l6 + idx_x_c_185  # elementwise1_w: stage 0, partition 0 (group 0)
            w_272_l6 = gl.expand_dims(idx_x_c_263_l6, 1)  # elementwise1_w: stage 0, partition 0 (group 0)
            w_273_l6 = w_272_l6 < IN_C  # elementwise1_w: stage 0, partition 0 (group 0)
            w_274_l6 = w_273_l6.broadcast_to([64, 128])  # elementwise1_w: stage 0, partition 0 (group 0)
            w_275_l6 = w_274_l6 & w_195  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_260_l6 = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            idx_x_c_262_l6 = idx_x_c_260_l6 + idx_x_c_184  # elementwise0_x: stage 0, partition 0 (group 0)
            x_264_l6 = gl.expand_dims(idx_x_c_262_l6, 0)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_265_l6 = x_264_l6 < IN_C  # elementwise0_x: stage 0, partition 0 (group 0)
            x_266_l6 = x_265_l6.broadcast_to([128, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_267_l6 = x_188 & x_266_l6  # elementwise0_x: stage 0, partition 0 (group 0)
            mbarrier.wait(x_269_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(w_279_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_283_l6 = warpgroup_mma(x_269_buf.index((twill_base + twill_b - 0) % 4), w_279_buf.index((twill_base + twill_b - 0) % 4), acc_283_l6_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_283_l6_p1 = warpgroup_mma_wait(1, deps=(acc_283_l6_p1,))
            mbarrier.arrive(x_269_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(w_279_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_283_l6 = warpgroup_mma_wait(1, deps=(tok_acc_283_l6,))
            acc_283_l6_p1 = acc_283_l6
        acc_283_l6_p1 = warpgroup_mma_wait(0, deps=(acc_283_l6_p1,))
        x_269_buf._keep_alive()
        w_279_buf._keep_alive()
        mbarrier.arrive(x_269_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(w_279_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        twill_base += twill_n
        row_ok_202 = row_ok_176 & row_ok_48
        row_ok_203 = row_ok_202 & row_ok_50
        x_base_204 = x_base_180 + idx_y_w_13
        x_base_205 = x_base_204 * IN_C
        x_base_206 = X + x_base_205
        idx_x_c_207 = gl.arange(0, 64, layout=L3)
        idx_x_c_208 = gl.arange(0, 64, layout=L1)
        x_209 = gl.expand_dims(row_ok_203, 1)
        x_211 = x_209.broadcast_to([128, 64])
        x_212 = gl.expand_dims(x_base_206, 1)
        x_213 = x_212.broadcast_to([128, 64])
        w_215 = gl.expand_dims(idx_y_c_17, 0)
        w_217 = w_215 < OUT_C
        w_218 = w_217.broadcast_to([64, 128])
        w_219 = IN_C * 7
        w_223 = w_215.broadcast_to([64, 128])
        twill_n = (IN_C - 0 + 64 - 1) // 64
        acc_283_l7 = acc_283_l6_p1
        acc_283_l7_p1 = acc_283_l7
        for twill_b in range(0, twill_n):
            idx_x_c_261_l7 = (0 + (twill_b - 0) * 64)  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_263_l7 = idx_x_c_261_l7 + idx_x_c_208  # elementwise1_w: stage 0, partition 0 (group 0)
            w_272_l7 = gl.expand_dims(idx_x_c_263_l7, 1)  # elementwise1_w: stage 0, partition 0 (group 0)
            w_273_l7 = w_272_l7 < IN_C  # elementwise1_w: stage 0, partition 0 (group 0)
            w_274_l7 = w_273_l7.broadcast_to([64, 128])  # elementwise1_w: stage 0, partition 0 (group 0)
            w_275_l7 = w_274_l7 & w_218  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_260_l7 = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            idx_x_c_262_l7 = idx_x_c_260_l7 + idx_x_c_207  # elementwise0_x: stage 0, partition 0 (group 0)
            x_264_l7 = gl.expand_dims(idx_x_c_262_l7, 0)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_265_l7 = x_264_l7 < IN_C  # elementwise0_x: stage 0, partition 0 (group 0)
            x_266_l7 = x_265_l7.broadcast_to([128, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_267_l7 = x_211 & x_266_l7  # elementwise0_x: stage 0, partition 0 (group 0)
            mbarrier.wait(x_269_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(w_279_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_283_l7 = warpgroup_mma(x_269_buf.index((twill_base + twill_b - 0) % 4), w_279_buf.index((twill_base + twill_b - 0) % 4), acc_283_l7_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_283_l7_p1 = warpgroup_mma_wait(1, deps=(acc_283_l7_p1,))
            mbarrier.arrive(x_269_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(w_279_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_283_l7 = warpgroup_mma_wait(1, deps=(tok_acc_283_l7,))
            acc_283_l7_p1 = acc_283_l7
        acc_283_l7_p1 = warpgroup_mma_wait(0, deps=(acc_283_l7_p1,))
        x_269_buf._keep_alive()
        w_279_buf._keep_alive()
        mbarrier.arrive(x_269_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(w_279_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        twill_base += twill_n
        row_ok_225 = row_ok_176 & row_ok_72
        row_ok_226 = row_ok_225 & row_ok_74
        idx_x_c_230 = gl.arange(0, 64, layout=L3)
        idx_x_c_231 = gl.arange(0, 64, layout=L1)
        x_232 = gl.expand_dims(row_ok_226, 1)
        x_234 = x_232.broadcast_to([128, 64])
        w_238 = gl.expand_dims(idx_y_c_17, 0)
        w_240 = w_238 < OUT_C
        w_241 = w_240.broadcast_to([64, 128])
        twill_n = (IN_C - 0 + 64 - 1) // 64
        acc_283_l8 = acc_283_l7_p1
        acc_283_l8_p1 = acc_283_l8
        for twill_b in range(0, twill_n):
            idx_x_c_261_l8 = (0 + (twill_b - 0) * 64)  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_263_l8 = idx_x_c_261_l8 + idx_x_c_231  # elementwise1_w: stage 0, partition 0 (group 0)
            w_272_l8 = gl.expand_dims(idx_x_c_263_l8, 1)  # elementwise1_w: stage 0, partition 0 (group 0)
            w_273_l8 = w_272_l8 < IN_C  # elementwise1_w: stage 0, partition 0 (group 0)
            w_274_l8 = w_273_l8.broadcast_to([64, 128])  # elementwise1_w: stage 0, partition 0 (group 0)
            w_275_l8 = w_274_l8 & w_241  # elementwise1_w: stage 0, partition 0 (group 0)
            idx_x_c_260_l8 = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            idx_x_c_262_l8 = idx_x_c_260_l8 + idx_x_c_230  # elementwise0_x: stage 0, partition 0 (group 0)
            x_264_l8 = gl.expand_dims(idx_x_c_262_l8, 0)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_265_l8 = x_264_l8 < IN_C  # elementwise0_x: stage 0, partition 0 (group 0)
            x_266_l8 = x_265_l8.broadcast_to([128, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_267_l8 = x_234 & x_266_l8  # elementwise0_x: stage 0, partition 0 (group 0)
            mbarrier.wait(x_269_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(w_279_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_283_l8 = warpgroup_mma(x_269_buf.index((twill_base + twill_b - 0) % 4), w_279_buf.index((twill_base + twill_b - 0) % 4), acc_283_l8_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_283_l8_p1 = warpgroup_mma_wait(1, deps=(acc_283_l8_p1,))
            mbarrier.arrive(x_269_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(w_279_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_283_l8 = warpgroup_mma_wait(1, deps=(tok_acc_283_l8,))
            acc_283_l8_p1 = acc_283_l8
        acc_283_l8_p1 = warpgroup_mma_wait(0, deps=(acc_283_l8_p1,))
        x_269_buf._keep_alive()
        w_279_buf._keep_alive()
        mbarrier.arrive(x_269_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(w_279_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mask = gl.expand_dims(nhw_12, 1)
        mask_248 = BATCH * OUT_H
        mask_249 = mask_248 * OUT_W
        mask_251 = mask < mask_249
        mask_252 = gl.expand_dims(idx_y_c_17, 0)
        mask_254 = mask_252 < OUT_C
        mask_255 = mask_251.broadcast_to([128, 128])
        mask_256 = mask_254.broadcast_to([128, 128])
        mask_257 = mask_255 & mask_256
        v1 = mask * OUT_C
        v3 = Y + v1
        v4 = v3.broadcast_to([128, 128])
        v5 = mask_252.broadcast_to([128, 128])
        v6 = v4 + v5
        v7 = acc_283_l8_p1.to(gl.float16)
        v8 = gl.convert_layout(v7, L5)
        gl.store(v6, v8, mask=mask_257)
        twill_base += twill_n

@gluon.jit
def producer_1(X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, twill_g0, twill_g1, twill_g2, twill_box_w_279, twill_box_w_281_l1, twill_box_w_281_l2, twill_box_w_281_l3, twill_box_w_281_l4, twill_box_w_281_l5, twill_box_w_281_l6, twill_box_w_281_l7, twill_box_w_281_l8, x_269_buf, w_279_buf, x_269_ready, x_269_empty, w_279_ready, w_279_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        nhw = twill_pid0
        nhw_5 = nhw * 128
        nhw_6 = gl.arange(0, 128, layout=L0)
        nhw_8 = gl.arange(0, 128, layout=L2)
        nhw_11 = nhw_5 + nhw_6
        idx_y_w_13 = nhw_11 % OUT_W
        nh = nhw_11 // OUT_W
        idx_y_h_14 = nh % OUT_H
        idx_n = nh // OUT_H
        idx_y_c = twill_pid1
        idx_y_c_15 = idx_y_c * 128
        idx_y_c_17 = idx_y_c_15 + nhw_8
        idx_x_h = idx_y_h_14 + -1
        idx_x_w = idx_y_w_13 + -1
        row_ok_18 = idx_n < BATCH
        row_ok_19 = idx_x_h >= 0
        row_ok_20 = row_ok_18 & row_ok_19
        row_ok_22 = idx_x_h < IN_H
        row_ok_23 = row_ok_20 & row_ok_22
        row_ok_24 = idx_x_w >= 0
        row_ok_25 = row_ok_23 & row_ok_24
        row_ok_27 = idx_x_w < IN_W
        row_ok_28 = row_ok_25 & row_ok_27
        x_base = idx_n * IN_H
        x_base_29 = x_base + idx_x_h
        x_base_30 = x_base_29 * IN_W
        x_base_31 = x_base_30 + idx_x_w
        x_base_33 = x_base_31 * IN_C
        x_base_35 = X + x_base_33
        idx_x_c = gl.arange(0, 64, layout=L3)
        idx_x_c_36 = gl.arange(0, 64, layout=L1)
        x = gl.expand_dims(row_ok_28, 1)
        x_38 = x.broadcast_to([128, 64])
        x_39 = gl.expand_dims(x_base_35, 1)
        x_40 = x_39.broadcast_to([128, 64])
        w_41 = gl.expand_dims(idx_y_c_17, 0)
        w_43 = w_41 < OUT_C
        w_44 = w_43.broadcast_to([64, 128])
        w_47 = w_41.broadcast_to([64, 128])
        for acc_258 in range(0, IN_C, 64):
            twill_k = twill_base + (acc_258 - 0) // 64
            idx_x_c_261 = acc_258 + idx_x_c
            idx_x_c_262 = acc_258 + idx_x_c_36
            x_263 = gl.expand_dims(idx_x_c_261, 0)
            x_264 = x_263 < IN_C
            x_265 = x_264.broadcast_to([128, 64])
            x_266 = x_38 & x_265
            x_267 = x_263.broadcast_to([128, 64])
            x_268 = x_40 + x_267
            w_271 = gl.expand_dims(idx_x_c_262, 1)
            w_272 = w_271 < IN_C
            w_273 = w_272.broadcast_to([64, 128])
            w_274 = w_273 & w_44
            w_275 = w_271 * OUT_C
            w_276 = W + w_275
            w_277 = w_276.broadcast_to([64, 128])
            w_278 = w_277 + w_47
            mbarrier.wait(x_269_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_269_buf.index(twill_k % 4), x_268, mask=x_266)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_269_ready.index(twill_k % 4), increment_count=False)
            else:
                x_269_buf.index(twill_k % 4).store(gl.load(x_268, mask=x_266, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_269_ready.index(twill_k % 4), count=256)
            mbarrier.wait(w_279_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(w_279_ready.index(twill_k % 4), twill_box_w_279.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_w_279, [64 * ((acc_258 - 0) // 64), 128 * idx_y_c], w_279_ready.index(twill_k % 4), w_279_buf.index(twill_k % 4))  # load1_w: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(w_279_buf.index(twill_k % 4), w_278, mask=w_274)  # load1_w: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(w_279_ready.index(twill_k % 4), increment_count=False)
                else:
                    w_279_buf.index(twill_k % 4).store(gl.load(w_278, mask=w_274, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(w_279_ready.index(twill_k % 4), count=256)
        row_ok_48 = idx_y_w_13 >= 0
        row_ok_49 = row_ok_23 & row_ok_48
        row_ok_50 = idx_y_w_13 < IN_W
        row_ok_51 = row_ok_49 & row_ok_50
        x_base_52 = x_base_30 + idx_y_w_13
        x_base_53 = x_base_52 * IN_C
        x_base_54 = X + x_base_53
        idx_x_c_55 = gl.arange(0, 64, layout=L3)
        idx_x_c_56 = gl.arange(0, 64, layout=L1)
        x_57 = gl.expand_dims(row_ok_51, 1)
        x_59 = x_57.broadcast_to([128, 64])
        x_60 = gl.expand_dims(x_base_54, 1)
        x_61 = x_60.broadcast_to([128, 64])
        w_63 = gl.expand_dims(idx_y_c_17, 0)
        w_65 = w_63 < OUT_C
        w_66 = w_65.broadcast_to([64, 128])
        w_69 = w_63.broadcast_to([64, 128])
        twill_base += (IN_C - 0 + 64 - 1) // 64
        for acc_258_l1 in range(0, IN_C, 64):
            twill_k = twill_base + (acc_258_l1 - 0) // 64
            idx_x_c_262_l1 = acc_258_l1 + idx_x_c_55
            idx_x_c_263_l1 = acc_258_l1 + idx_x_c_56
            x_264_l1 = gl.expand_dims(idx_x_c_262_l1, 0)
            x_265_l1 = x_264_l1 < IN_C
            x_266_l1 = x_265_l1.broadcast_to([128, 64])
            x_267_l1 = x_59 & x_266_l1
            x_268_l1 = x_264_l1.broadcast_to([128, 64])
            x_269_l1 = x_61 + x_268_l1
            w_272_l1 = gl.expand_dims(idx_x_c_263_l1, 1)
            w_273_l1 = w_272_l1 < IN_C
            w_274_l1 = w_273_l1.broadcast_to([64, 128])
            w_275_l1 = w_274_l1 & w_66
            w_276_l1 = IN_C + w_272_l1
            w_277_l1 = w_276_l1 * OUT_C
            w_278_l1 = W + w_277_l1
            w_279_l1 = w_278_l1.broadcast_to([64, 128])
            w_280_l1 = w_279_l1 + w_69
            mbarrier.wait(w_279_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(w_279_ready.index(twill_k % 4), twill_box_w_281_l1.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_w_281_l1, [IN_C + 64 * ((acc_258_l1 - 0) // 64), 128 * idx_y_c], w_279_ready.index(twill_k % 4), w_279_buf.index(twill_k % 4))  # load1_w: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(w_279_buf.index(twill_k % 4), w_280_l1, mask=w_275_l1)  # load1_w: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(w_279_ready.index(twill_k % 4), increment_count=False)
                else:
                    w_279_buf.index(twill_k % 4).store(gl.load(w_280_l1, mask=w_275_l1, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(w_279_ready.index(twill_k % 4), count=256)
            mbarrier.wait(x_269_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_269_buf.index(twill_k % 4), x_269_l1, mask=x_267_l1)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_269_ready.index(twill_k % 4), increment_count=False)
            else:
                x_269_buf.index(twill_k % 4).store(gl.load(x_269_l1, mask=x_267_l1, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_269_ready.index(twill_k % 4), count=256)
        idx_x_w_71 = idx_y_w_13 + 1
        row_ok_72 = idx_x_w_71 >= 0
        row_ok_73 = row_ok_23 & row_ok_72
        row_ok_74 = idx_x_w_71 < IN_W
        row_ok_75 = row_ok_73 & row_ok_74
        x_base_76 = x_base_30 + idx_x_w_71
        x_base_77 = x_base_76 * IN_C
        x_base_78 = X + x_base_77
        idx_x_c_79 = gl.arange(0, 64, layout=L3)
        idx_x_c_80 = gl.arange(0, 64, layout=L1)
        x_81 = gl.expand_dims(row_ok_75, 1)
        x_83 = x_81.broadcast_to([128, 64])
        x_84 = gl.expand_dims(x_base_78, 1)
        x_85 = x_84.broadcast_to([128, 64])
        w_87 = gl.expand_dims(idx_y_c_17, 0)
        w_89 = w_87 < OUT_C
        w_90 = w_89.broadcast_to([64, 128])
        w_91 = IN_C * 2
        w_95 = w_87.broadcast_to([64, 128])
        twill_base += (IN_C - 0 + 64 - 1) // 64
        for acc_258_l2 in range(0, IN_C, 64):
            twill_k = twill_base + (acc_258_l2 - 0) // 64
            idx_x_c_262_l2 = acc_258_l2 + idx_x_c_79
            idx_x_c_263_l2 = acc_258_l2 + idx_x_c_80
            x_264_l2 = gl.expand_dims(idx_x_c_262_l2, 0)
            x_265_l2 = x_264_l2 < IN_C
            x_266_l2 = x_265_l2.broadcast_to([128, 64])
            x_267_l2 = x_83 & x_266_l2
            x_268_l2 = x_264_l2.broadcast_to([128, 64])
            x_269_l2 = x_85 + x_268_l2
            w_272_l2 = gl.expand_dims(idx_x_c_263_l2, 1)
            w_273_l2 = w_272_l2 < IN_C
            w_274_l2 = w_273_l2.broadcast_to([64, 128])
            w_275_l2 = w_274_l2 & w_90
            w_276_l2 = w_91 + w_272_l2
            w_277_l2 = w_276_l2 * OUT_C
            w_278_l2 = W + w_277_l2
            w_279_l2 = w_278_l2.broadcast_to([64, 128])
            w_280_l2 = w_279_l2 + w_95
            mbarrier.wait(w_279_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(w_279_ready.index(twill_k % 4), twill_box_w_281_l2.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_w_281_l2, [2 * IN_C + 64 * ((acc_258_l2 - 0) // 64), 128 * idx_y_c], w_279_ready.index(twill_k % 4), w_279_buf.index(twill_k % 4))  # load1_w: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(w_279_buf.index(twill_k % 4), w_280_l2, mask=w_275_l2)  # load1_w: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(w_279_ready.index(twill_k % 4), increment_count=False)
                else:
                    w_279_buf.index(twill_k % 4).store(gl.load(w_280_l2, mask=w_275_l2, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(w_279_ready.index(twill_k % 4), count=256)
            mbarrier.wait(x_269_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_269_buf.index(twill_k % 4), x_269_l2, mask=x_267_l2)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_269_ready.index(twill_k % 4), increment_count=False)
            else:
                x_269_buf.index(twill_k % 4).store(gl.load(x_269_l2, mask=x_267_l2, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_269_ready.index(twill_k % 4), count=256)
        row_ok_97 = idx_y_h_14 >= 0
        row_ok_98 = row_ok_18 & row_ok_97
        row_ok_99 = idx_y_h_14 < IN_H
        row_ok_100 = row_ok_98 & row_ok_99
        row_ok_101 = row_ok_100 & row_ok_24
        row_ok_102 = row_ok_101 & row_ok_27
        x_base_103 = x_base + idx_y_h_14
        x_base_104 = x_base_103 * IN_W
        x_base_105 = x_base_104 + idx_x_w
        x_base_106 = x_base_105 * IN_C
        x_base_107 = X + x_base_106
        idx_x_c_108 = gl.arange(0, 64, layout=L3)
        idx_x_c_109 = gl.arange(0, 64, layout=L1)
        x_110 = gl.expand_dims(row_ok_102, 1)
        x_112 = x_110.broadcast_to([128, 64])
        x_113 = gl.expand_dims(x_base_107, 1)
        x_114 = x_113.broadcast_to([128, 64])
        w_116 = gl.expand_dims(idx_y_c_17, 0)
        w_118 = w_116 < OUT_C
        w_119 = w_118.broadcast_to([64, 128])
        w_120 = IN_C * 3
        w_124 = w_116.broadcast_to([64, 128])
        twill_base += (IN_C - 0 + 64 - 1) // 64
        for acc_258_l3 in range(0, IN_C, 64):
            twill_k = twill_base + (acc_258_l3 - 0) // 64
            idx_x_c_262_l3 = acc_258_l3 + idx_x_c_108
            idx_x_c_263_l3 = acc_258_l3 + idx_x_c_109
            x_264_l3 = gl.expand_dims(idx_x_c_262_l3, 0)
            x_265_l3 = x_264_l3 < IN_C
            x_266_l3 = x_265_l3.broadcast_to([128, 64])
            x_267_l3 = x_112 & x_266_l3
            x_268_l3 = x_264_l3.broadcast_to([128, 64])
            x_269_l3 = x_114 + x_268_l3
            w_272_l3 = gl.expand_dims(idx_x_c_263_l3, 1)
            w_273_l3 = w_272_l3 < IN_C
            w_274_l3 = w_273_l3.broadcast_to([64, 128])
            w_275_l3 = w_274_l3 & w_119
            w_276_l3 = w_120 + w_272_l3
            w_277_l3 = w_276_l3 * OUT_C
            w_278_l3 = W + w_277_l3
            w_279_l3 = w_278_l3.broadcast_to([64, 128])
            w_280_l3 = w_279_l3 + w_124
            mbarrier.wait(w_279_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(w_279_ready.index(twill_k % 4), twill_box_w_281_l3.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_w_281_l3, [3 * IN_C + 64 * ((acc_258_l3 - 0) // 64), 128 * idx_y_c], w_279_ready.index(twill_k % 4), w_279_buf.index(twill_k % 4))  # load1_w: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(w_279_buf.index(twill_k % 4), w_280_l3, mask=w_275_l3)  # load1_w: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(w_279_ready.index(twill_k % 4), increment_count=False)
                else:
                    w_279_buf.index(twill_k % 4).store(gl.load(w_280_l3, mask=w_275_l3, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(w_279_ready.index(twill_k % 4), count=256)
            mbarrier.wait(x_269_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_269_buf.index(twill_k % 4), x_269_l3, mask=x_267_l3)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_269_ready.index(twill_k % 4), increment_count=False)
            else:
                x_269_buf.index(twill_k % 4).store(gl.load(x_269_l3, mask=x_267_l3, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_269_ready.index(twill_k % 4), count=256)
        row_ok_126 = row_ok_100 & row_ok_48
        row_ok_127 = row_ok_126 & row_ok_50
        x_base_128 = x_base_104 + idx_y_w_13
        x_base_129 = x_base_128 * IN_C
        x_base_130 = X + x_base_129
        idx_x_c_131 = gl.arange(0, 64, layout=L3)
        idx_x_c_132 = gl.arange(0, 64, layout=L1)
        x_133 = gl.expand_dims(row_ok_127, 1)
        x_135 = x_133.broadcast_to([128, 64])
        x_136 = gl.expand_dims(x_base_130, 1)
        x_137 = x_136.broadcast_to([128, 64])
        w_139 = gl.expand_dims(idx_y_c_17, 0)
        w_141 = w_139 < OUT_C
        w_142 = w_141.broadcast_to([64, 128])
        w_143 = IN_C * 4
        w_147 = w_139.broadcast_to([64, 128])
        twill_base += (IN_C - 0 + 64 - 1) // 64
        for acc_258_l4 in range(0, IN_C, 64):
            twill_k = twill_base + (acc_258_l4 - 0) // 64
            idx_x_c_262_l4 = acc_258_l4 + idx_x_c_131
            idx_x_c_263_l4 = acc_258_l4 + idx_x_c_132
            x_264_l4 = gl.expand_dims(idx_x_c_262_l4, 0)
            x_265_l4 = x_264_l4 < IN_C
            x_266_l4 = x_265_l4.broadcast_to([128, 64])
            x_267_l4 = x_135 & x_266_l4
            x_268_l4 = x_264_l4.broadcast_to([128, 64])
            x_269_l4 = x_137 + x_268_l4
            w_272_l4 = gl.expand_dims(idx_x_c_263_l4, 1)
            w_273_l4 = w_272_l4 < IN_C
            w_274_l4 = w_273_l4.broadcast_to([64, 128])
            w_275_l4 = w_274_l4 & w_142
            w_276_l4 = w_143 + w_272_l4
            w_277_l4 = w_276_l4 * OUT_C
            w_278_l4 = W + w_277_l4
            w_279_l4 = w_278_l4.broadcast_to([64, 128])
            w_280_l4 = w_279_l4 + w_147
            mbarrier.wait(w_279_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(w_279_ready.index(twill_k % 4), twill_box_w_281_l4.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_w_281_l4, [4 * IN_C + 64 * ((acc_258_l4 - 0) // 64), 128 * idx_y_c], w_279_ready.index(twill_k % 4), w_279_buf.index(twill_k % 4))  # load1_w: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(w_279_buf.index(twill_k % 4), w_280_l4, mask=w_275_l4)  # load1_w: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(w_279_ready.index(twill_k % 4), increment_count=False)
                else:
                    w_279_buf.index(twill_k % 4).store(gl.load(w_280_l4, mask=w_275_l4, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(w_279_ready.index(twill_k % 4), count=256)
            mbarrier.wait(x_269_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_269_buf.index(twill_k % 4), x_269_l4, mask=x_267_l4)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_269_ready.index(twill_k % 4), increment_count=False)
            else:
                x_269_buf.index(twill_k % 4).store(gl.load(x_269_l4, mask=x_267_l4, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_269_ready.index(twill_k % 4), count=256)
        row_ok_149 = row_ok_100 & row_ok_72
        row_ok_150 = row_ok_149 & row_ok_74
        x_base_151 = x_base_104 + idx_x_w_71
        x_base_152 = x_base_151 * IN_C
        x_base_153 = X + x_base_152
        idx_x_c_154 = gl.arange(0, 64, layout=L3)
        idx_x_c_155 = gl.arange(0, 64, layout=L1)
        x_156 = gl.expand_dims(row_ok_150, 1)
        x_158 = x_156.broadcast_to([128, 64])
        x_159 = gl.expand_dims(x_base_153, 1)
        x_160 = x_159.broadcast_to([128, 64])
        w_162 = gl.expand_dims(idx_y_c_17, 0)
        w_164 = w_162 < OUT_C
        w_165 = w_164.broadcast_to([64, 128])
        w_166 = IN_C * 5
        w_170 = w_162.broadcast_to([64, 128])
        twill_base += (IN_C - 0 + 64 - 1) // 64
        for acc_258_l5 in range(0, IN_C, 64):
            twill_k = twill_base + (acc_258_l5 - 0) // 64
            idx_x_c_262_l5 = acc_258_l5 + idx_x_c_154
            idx_x_c_263_l5 = acc_258_l5 + idx_x_c_155
            x_264_l5 = gl.expand_dims(idx_x_c_262_l5, 0)
            x_265_l5 = x_264_l5 < IN_C
            x_266_l5 = x_265_l5.broadcast_to([128, 64])
            x_267_l5 = x_158 & x_266_l5
            x_268_l5 = x_264_l5.broadcast_to([128, 64])
            x_269_l5 = x_160 + x_268_l5
            w_272_l5 = gl.expand_dims(idx_x_c_263_l5, 1)
            w_273_l5 = w_272_l5 < IN_C
            w_274_l5 = w_273_l5.broadcast_to([64, 128])
            w_275_l5 = w_274_l5 & w_165
            w_276_l5 = w_166 + w_272_l5
            w_277_l5 = w_276_l5 * OUT_C
            w_278_l5 = W + w_277_l5
            w_279_l5 = w_278_l5.broadcast_to([64, 128])
            w_280_l5 = w_279_l5 + w_170
            mbarrier.wait(w_279_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(w_279_ready.index(twill_k % 4), twill_box_w_281_l5.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_w_281_l5, [5 * IN_C + 64 * ((acc_258_l5 - 0) // 64), 128 * idx_y_c], w_279_ready.index(twill_k % 4), w_279_buf.index(twill_k % 4))  # load1_w: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(w_279_buf.index(twill_k % 4), w_280_l5, mask=w_275_l5)  # load1_w: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(w_279_ready.index(twill_k % 4), increment_count=False)
                else:
                    w_279_buf.index(twill_k % 4).store(gl.load(w_280_l5, mask=w_275_l5, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(w_279_ready.index(twill_k % 4), count=256)
            mbarrier.wait(x_269_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_269_buf.index(twill_k % 4), x_269_l5, mask=x_267_l5)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_269_ready.index(twill_k % 4), increment_count=False)
            else:
                x_269_buf.index(twill_k % 4).store(gl.load(x_269_l5, mask=x_267_l5, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_269_ready.index(twill_k % 4), count=256)
        idx_x_h_172 = idx_y_h_14 + 1
        row_ok_173 = idx_x_h_172 >= 0
        row_ok_174 = row_ok_18 & row_ok_173
        row_ok_175 = idx_x_h_172 < IN_H
        row_ok_176 = row_ok_174 & row_ok_175
        row_ok_177 = row_ok_176 & row_ok_24
        row_ok_178 = row_ok_177 & row_ok_27
        x_base_179 = x_base + idx_x_h_172
        x_base_180 = x_base_179 * IN_W
        x_base_181 = x_base_180 + idx_x_w
        x_base_182 = x_base_181 * IN_C
        x_base_183 = X + x_base_182
        idx_x_c_184 = gl.arange(0, 64, layout=L3)
        idx_x_c_185 = gl.arange(0, 64, layout=L1)
        x_186 = gl.expand_dims(row_ok_178, 1)
        x_188 = x_186.broadcast_to([128, 64])
        x_189 = gl.expand_dims(x_base_183, 1)
        x_190 = x_189.broadcast_to([128, 64])
        w_192 = gl.expand_dims(idx_y_c_17, 0)
        w_194 = w_192 < OUT_C
        w_195 = w_194.broadcast_to([64, 128])
        w_196 = IN_C * 6
        w_200 = w_192.broadcast_to([64, 128])
        twill_base += (IN_C - 0 + 64 - 1) // 64
        for acc_258_l6 in range(0, IN_C, 64):
            twill_k = twill_base + (acc_258_l6 - 0) // 64
            idx_x_c_262_l6 = acc_258_l6 + idx_x_c_184
            idx_x_c_263_l6 = acc_258_l6 + idx_x_c_185
            x_264_l6 = gl.expand_dims(idx_x_c_262_l6, 0)
            x_265_l6 = x_264_l6 < IN_C
            x_266_l6 = x_265_l6.broadcast_to([128, 64])
            x_267_l6 = x_188 & x_266_l6
            x_268_l6 = x_264_l6.broadcast_to([128, 64])
            x_269_l6 = x_190 + x_268_l6
            w_272_l6 = gl.expand_dims(idx_x_c_263_l6, 1)
            w_273_l6 = w_272_l6 < IN_C
            w_274_l6 = w_273_l6.broadcast_to([64, 128])
            w_275_l6 = w_274_l6 & w_195
            w_276_l6 = w_196 + w_272_l6
            w_277_l6 = w_276_l6 * OUT_C
            w_278_l6 = W + w_277_l6
            w_279_l6 = w_278_l6.broadcast_to([64, 128])
            w_280_l6 = w_279_l6 + w_200
            mbarrier.wait(w_279_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(w_279_ready.index(twill_k % 4), twill_box_w_281_l6.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_w_281_l6, [6 * IN_C + 64 * ((acc_258_l6 - 0) // 64), 128 * idx_y_c], w_279_ready.index(twill_k % 4), w_279_buf.index(twill_k % 4))  # load1_w: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(w_279_buf.index(twill_k % 4), w_280_l6, mask=w_275_l6)  # load1_w: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(w_279_ready.index(twill_k % 4), increment_count=False)
                else:
                    w_279_buf.index(twill_k % 4).store(gl.load(w_280_l6, mask=w_275_l6, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(w_279_ready.index(twill_k % 4), count=256)
            mbarrier.wait(x_269_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_269_buf.index(twill_k % 4), x_269_l6, mask=x_267_l6)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_269_ready.index(twill_k % 4), increment_count=False)
            else:
                x_269_buf.index(twill_k % 4).store(gl.load(x_269_l6, mask=x_267_l6, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_269_ready.index(twill_k % 4), count=256)
        row_ok_202 = row_ok_176 & row_ok_48
        row_ok_203 = row_ok_202 & row_ok_50
        x_base_204 = x_base_180 + idx_y_w_13
        x_base_205 = x_base_204 * IN_C
        x_base_206 = X + x_base_205
        idx_x_c_207 = gl.arange(0, 64, layout=L3)
        idx_x_c_208 = gl.arange(0, 64, layout=L1)
        x_209 = gl.expand_dims(row_ok_203, 1)
        x_211 = x_209.broadcast_to([128, 64])
        x_212 = gl.expand_dims(x_base_206, 1)
        x_213 = x_212.broadcast_to([128, 64])
        w_215 = gl.expand_dims(idx_y_c_17, 0)
        w_217 = w_215 < OUT_C
        w_218 = w_217.broadcast_to([64, 128])
        w_219 = IN_C * 7
        w_223 = w_215.broadcast_to([64, 128])
        twill_base += (IN_C - 0 + 64 - 1) // 64
        for acc_258_l7 in range(0, IN_C, 64):
            twill_k = twill_base + (acc_258_l7 - 0) // 64
            idx_x_c_262_l7 = acc_258_l7 + idx_x_c_207
            idx_x_c_263_l7 = acc_258_l7 + idx_x_c_208
            x_264_l7 = gl.expand_dims(idx_x_c_262_l7, 0)
            x_265_l7 = x_264_l7 < IN_C
            x_266_l7 = x_265_l7.broadcast_to([128, 64])
            x_267_l7 = x_211 & x_266_l7
            x_268_l7 = x_264_l7.broadcast_to([128, 64])
            x_269_l7 = x_213 + x_268_l7
            w_272_l7 = gl.expand_dims(idx_x_c_263_l7, 1)
            w_273_l7 = w_272_l7 < IN_C
            w_274_l7 = w_273_l7.broadcast_to([64, 128])
            w_275_l7 = w_274_l7 & w_218
            w_276_l7 = w_219 + w_272_l7
            w_277_l7 = w_276_l7 * OUT_C
            w_278_l7 = W + w_277_l7
            w_279_l7 = w_278_l7.broadcast_to([64, 128])
            w_280_l7 = w_279_l7 + w_223
            mbarrier.wait(w_279_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(w_279_ready.index(twill_k % 4), twill_box_w_281_l7.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_w_281_l7, [7 * IN_C + 64 * ((acc_258_l7 - 0) // 64), 128 * idx_y_c], w_279_ready.index(twill_k % 4), w_279_buf.index(twill_k % 4))  # load1_w: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(w_279_buf.index(twill_k % 4), w_280_l7, mask=w_275_l7)  # load1_w: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(w_279_ready.index(twill_k % 4), increment_count=False)
                else:
                    w_279_buf.index(twill_k % 4).store(gl.load(w_280_l7, mask=w_275_l7, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(w_279_ready.index(twill_k % 4), count=256)
            mbarrier.wait(x_269_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_269_buf.index(twill_k % 4), x_269_l7, mask=x_267_l7)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_269_ready.index(twill_k % 4), increment_count=False)
            else:
                x_269_buf.index(twill_k % 4).store(gl.load(x_269_l7, mask=x_267_l7, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_269_ready.index(twill_k % 4), count=256)
        row_ok_225 = row_ok_176 & row_ok_72
        row_ok_226 = row_ok_225 & row_ok_74
        x_base_227 = x_base_180 + idx_x_w_71
        x_base_228 = x_base_227 * IN_C
        x_base_229 = X + x_base_228
        idx_x_c_230 = gl.arange(0, 64, layout=L3)
        idx_x_c_231 = gl.arange(0, 64, layout=L1)
        x_232 = gl.expand_dims(row_ok_226, 1)
        x_234 = x_232.broadcast_to([128, 64])
        x_235 = gl.expand_dims(x_base_229, 1)
        x_236 = x_235.broadcast_to([128, 64])
        w_238 = gl.expand_dims(idx_y_c_17, 0)
        w_240 = w_238 < OUT_C
        w_241 = w_240.broadcast_to([64, 128])
        w_242 = IN_C * 8
        w_246 = w_238.broadcast_to([64, 128])
        twill_base += (IN_C - 0 + 64 - 1) // 64
        for acc_258_l8 in range(0, IN_C, 64):
            twill_k = twill_base + (acc_258_l8 - 0) // 64
            idx_x_c_262_l8 = acc_258_l8 + idx_x_c_230
            idx_x_c_263_l8 = acc_258_l8 + idx_x_c_231
            x_264_l8 = gl.expand_dims(idx_x_c_262_l8, 0)
            x_265_l8 = x_264_l8 < IN_C
            x_266_l8 = x_265_l8.broadcast_to([128, 64])
            x_267_l8 = x_234 & x_266_l8
            x_268_l8 = x_264_l8.broadcast_to([128, 64])
            x_269_l8 = x_236 + x_268_l8
            w_272_l8 = gl.expand_dims(idx_x_c_263_l8, 1)
            w_273_l8 = w_272_l8 < IN_C
            w_274_l8 = w_273_l8.broadcast_to([64, 128])
            w_275_l8 = w_274_l8 & w_241
            w_276_l8 = w_242 + w_272_l8
            w_277_l8 = w_276_l8 * OUT_C
            w_278_l8 = W + w_277_l8
            w_279_l8 = w_278_l8.broadcast_to([64, 128])
            w_280_l8 = w_279_l8 + w_246
            mbarrier.wait(w_279_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(w_279_ready.index(twill_k % 4), twill_box_w_281_l8.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_w_281_l8, [8 * IN_C + 64 * ((acc_258_l8 - 0) // 64), 128 * idx_y_c], w_279_ready.index(twill_k % 4), w_279_buf.index(twill_k % 4))  # load1_w: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(w_279_buf.index(twill_k % 4), w_280_l8, mask=w_275_l8)  # load1_w: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(w_279_ready.index(twill_k % 4), increment_count=False)
                else:
                    w_279_buf.index(twill_k % 4).store(gl.load(w_280_l8, mask=w_275_l8, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(w_279_ready.index(twill_k % 4), count=256)
            mbarrier.wait(x_269_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_269_buf.index(twill_k % 4), x_269_l8, mask=x_267_l8)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_269_ready.index(twill_k % 4), increment_count=False)
            else:
                x_269_buf.index(twill_k % 4).store(gl.load(x_269_l8, mask=x_267_l8, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_269_ready.index(twill_k % 4), count=256)
        twill_base += (IN_C - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, twill_g0, twill_g1, twill_g2, twill_box_w_279, twill_box_w_281_l1, twill_box_w_281_l2, twill_box_w_281_l3, twill_box_w_281_l4, twill_box_w_281_l5, twill_box_w_281_l6, twill_box_w_281_l7, twill_box_w_281_l8, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    x_269_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_279_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_269_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(x_269_ready.index(i), count=256)
    x_269_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(x_269_empty.index(i), count=1)
    w_279_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(w_279_ready.index(i), count=1 if TWILL_TMA else 256)
    w_279_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(w_279_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, twill_g0, twill_g1, twill_g2, twill_box_w_279, twill_box_w_281_l1, twill_box_w_281_l2, twill_box_w_281_l3, twill_box_w_281_l4, twill_box_w_281_l5, twill_box_w_281_l6, twill_box_w_281_l7, twill_box_w_281_l8, x_269_buf, w_279_buf, x_269_ready, x_269_empty, w_279_ready, w_279_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, twill_g0, twill_g1, twill_g2, twill_box_w_279, twill_box_w_281_l1, twill_box_w_281_l2, twill_box_w_281_l3, twill_box_w_281_l4, twill_box_w_281_l5, twill_box_w_281_l6, twill_box_w_281_l7, twill_box_w_281_l8, x_269_buf, w_279_buf, x_269_ready, x_269_empty, w_279_ready, w_279_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'W', 'Y', 'BATCH', 'IN_H', 'IN_W', 'OUT_H', 'OUT_W', 'IN_C', 'OUT_C', 'KERNEL_H', 'KERNEL_W', 'PADDING_H', 'PADDING_W', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'W', 'Y', 'BATCH', 'IN_H', 'IN_W', 'OUT_H', 'OUT_W', 'IN_C', 'OUT_C', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_w_279', 'twill_box_w_281_l1', 'twill_box_w_281_l2', 'twill_box_w_281_l3', 'twill_box_w_281_l4', 'twill_box_w_281_l5', 'twill_box_w_281_l6', 'twill_box_w_281_l7', 'twill_box_w_281_l8']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X', 'W', 'Y', 'BATCH', 'IN_H', 'IN_W', 'OUT_H', 'OUT_W', 'IN_C', 'OUT_C', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'KERNEL_H': 3, 'KERNEL_W': 3, 'PADDING_H': 1, 'PADDING_W': 1, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_w_279': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_w_281_l1': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_w_281_l2': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_w_281_l3': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_w_281_l4': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_w_281_l5': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_w_281_l6': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_w_281_l7': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_w_281_l8': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_w_279': ('W', ['OUT_C', '1'], ['IN_C', 'OUT_C'], [64, 128], []), 'twill_box_w_281_l1': ('W', ['OUT_C', '1'], ['2 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_w_281_l2': ('W', ['OUT_C', '1'], ['3 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_w_281_l3': ('W', ['OUT_C', '1'], ['4 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_w_281_l4': ('W', ['OUT_C', '1'], ['5 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_w_281_l5': ('W', ['OUT_C', '1'], ['6 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_w_281_l6': ('W', ['OUT_C', '1'], ['7 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_w_281_l7': ('W', ['OUT_C', '1'], ['8 * IN_C', 'OUT_C'], [64, 128], []), 'twill_box_w_281_l8': ('W', ['OUT_C', '1'], ['9 * IN_C', 'OUT_C'], [64, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
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
    trips = _ev('(IN_C + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((IN_C + 64 - 1) // 64): run the Triton kernel for it")
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
