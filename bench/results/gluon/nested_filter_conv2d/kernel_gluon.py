"""_conv_fwd, written by twill from its joint schedule: I=294 L=386 (optimal), 2478 cycles per iteration predicted.

Decisions (each from the schedule):
- x_78 copied with cp.async at every launch, not by TMA: its addresses go through arith.divsi (%idx_n), which the analysis does not follow
- w_89 copied with cp.async at every launch, not by TMA: its addresses go through arith.divsi (%acc_38), which the analysis does not follow
- pointer-loaded tiles copied by a 8-warp producer with cp.async (x_78, w_89): their addresses and masks spread over 256 threads, 3-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 122): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring x_78: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring w_89: 3 buffers of [64, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 98416 bytes planned of 232448; maxnreg 128

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
def consumer_0(X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, KERNEL_H, KERNEL_W, PADDING_H, PADDING_W, twill_g0, twill_g1, twill_g2, x_78_buf, w_89_buf, x_78_ready, x_78_empty, w_89_ready, w_89_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        nhw = twill_pid0
        nhw_3 = nhw * 128
        nhw_4 = gl.arange(0, 128, layout=L0)
        nhw_5 = gl.arange(0, 128, layout=L1)
        nhw_6 = gl.arange(0, 128, layout=L2)
        nhw_9 = nhw_3 + nhw_4
        nhw_10 = nhw_3 + nhw_5
        idx_y_w_11 = nhw_9 % OUT_W
        nh = nhw_9 // OUT_W
        idx_y_h_12 = nh % OUT_H
        idx_n = nh // OUT_H
        idx_y_c = twill_pid1
        idx_y_c_13 = idx_y_c * 128
        idx_y_c_15 = idx_y_c_13 + nhw_6
        h_ok_16 = idx_n < BATCH
        idx_x_c = gl.arange(0, 64, layout=L3)
        idx_x_c_20 = gl.arange(0, 64, layout=L1)
        w_21 = gl.expand_dims(idx_y_c_15, 0)
        w_23 = w_21 < OUT_C
        w_24 = w_23.broadcast_to([64, 128])
        twill_flat0_no_ = gl.maximum(KERNEL_W, 0)
        twill_flat0_ni_d_ = IN_C - 0
        twill_flat0_ni_e_ = twill_flat0_ni_d_ + 63
        twill_flat0_ni_q_ = twill_flat0_ni_e_ // 64
        twill_flat0_ni_ = gl.maximum(twill_flat0_ni_q_, 0)
        twill_flat0_n_ = twill_flat0_no_ * twill_flat0_ni_
        twill_flat1_no_ = gl.maximum(KERNEL_H, 0)
        twill_flat1_ni_ = gl.maximum(twill_flat0_n_, 0)
        twill_flat1_n_ = twill_flat1_no_ * twill_flat1_ni_
        twill_n = (twill_flat1_n_ - 0 + 1 - 1) // 1
        acc_91 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
        twill_flat0_t_ = (0 + (0 - 0) * 1) % twill_flat1_ni_  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        twill_flat0_qi_ = twill_flat0_t_ % twill_flat0_ni_  # elementwise1_x: stage 0, partition 0 (group 0)
        twill_flat0_qi_s_ = twill_flat0_qi_ * 64  # elementwise1_x: stage 0, partition 0 (group 0)
        acc_67 = 0 + twill_flat0_qi_s_  # elementwise1_x: stage 0, partition 0 (group 0)
        idx_x_c_69 = acc_67  # elementwise2_w: stage 0, partition 0 (group 0)
        idx_x_c_71 = idx_x_c_69 + idx_x_c_20  # elementwise2_w: stage 0, partition 0 (group 0)
        w_80 = gl.expand_dims(idx_x_c_71, 1)  # elementwise2_w: stage 0, partition 0 (group 0)
        w_81 = w_80 < IN_C  # elementwise2_w: stage 0, partition 0 (group 0)
        w_82 = w_81.broadcast_to([64, 128])  # elementwise2_w: stage 0, partition 0 (group 0)
        w_83 = w_82 & w_24  # elementwise2_w: stage 0, partition 0 (group 0)
        acc_38 = (0 + (0 - 0) * 1) // twill_flat1_ni_  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        idx_x_h = acc_38 - PADDING_H  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        idx_x_h_39 = idx_x_h  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        idx_x_h_40 = idx_x_h_39 + idx_y_h_12  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        h_ok_41 = idx_x_h_40 >= 0  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        h_ok_42 = h_ok_16 & h_ok_41  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        h_ok_43 = idx_x_h_40 < IN_H  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        h_ok_44 = h_ok_42 & h_ok_43  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        acc_49 = twill_flat0_t_ // twill_flat0_ni_  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        idx_x_w = acc_49 - PADDING_W  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        idx_x_w_50 = idx_x_w  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        idx_x_w_51 = idx_x_w_50 + idx_y_w_11  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        row_ok_52 = idx_x_w_51 >= 0  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        row_ok_53 = h_ok_44 & row_ok_52  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        row_ok_54 = idx_x_w_51 < IN_W  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        row_ok_55 = row_ok_53 & row_ok_54  # elementwise0_h_ok: stage 0, partition 0 (group 0)
        x_59 = gl.expand_dims(row_ok_55, 1)  # elementwise1_x: stage 0, partition 0 (group 0)
        x_60 = x_59.broadcast_to([128, 64])  # elementwise1_x: stage 0, partition 0 (group 0)
        idx_x_c_68 = acc_67  # elementwise1_x: stage 0, partition 0 (group 0)
        idx_x_c_70 = idx_x_c_68 + idx_x_c  # elementwise1_x: stage 0, partition 0 (group 0)
        x_72 = gl.expand_dims(idx_x_c_70, 0)  # elementwise1_x: stage 0, partition 0 (group 0)
        x_73 = x_72 < IN_C  # elementwise1_x: stage 0, partition 0 (group 0)
        x_74 = x_73.broadcast_to([128, 64])  # elementwise1_x: stage 0, partition 0 (group 0)
        x_75 = x_60 & x_74  # elementwise1_x: stage 0, partition 0 (group 0)
        acc_91_p1 = acc_91
        for twill_b in range(1, twill_n):
            twill_flat0_t_ = (0 + (twill_b - 0) * 1) % twill_flat1_ni_  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            twill_flat0_qi_ = twill_flat0_t_ % twill_flat0_ni_  # elementwise1_x: stage 0, partition 0 (group 0)
            twill_flat0_qi_s_ = twill_flat0_qi_ * 64  # elementwise1_x: stage 0, partition 0 (group 0)
            acc_67 = 0 + twill_flat0_qi_s_  # elementwise1_x: stage 0, partition 0 (group 0)
            idx_x_c_69 = acc_67  # elementwise2_w: stage 0, partition 0 (group 0)
            idx_x_c_71 = idx_x_c_69 + idx_x_c_20  # elementwise2_w: stage 0, partition 0 (group 0)
            w_80 = gl.expand_dims(idx_x_c_71, 1)  # elementwise2_w: stage 0, partition 0 (group 0)
            w_81 = w_80 < IN_C  # elementwise2_w: stage 0, partition 0 (group 0)
            w_82 = w_81.broadcast_to([64, 128])  # elementwise2_w: stage 0, partition 0 (group 0)
            w_83 = w_82 & w_24  # elementwise2_w: stage 0, partition 0 (group 0)
            acc_38 = (0 + (twill_b - 0) * 1) // twill_flat1_ni_  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            idx_x_h = acc_38 - PADDING_H  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            idx_x_h_39 = idx_x_h  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            idx_x_h_40 = idx_x_h_39 + idx_y_h_12  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            h_ok_41 = idx_x_h_40 >= 0  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            h_ok_42 = h_ok_16 & h_ok_41  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            h_ok_43 = idx_x_h_40 < IN_H  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            h_ok_44 = h_ok_42 & h_ok_43  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            acc_49 = twill_flat0_t_ // twill_flat0_ni_  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            idx_x_w = acc_49 - PADDING_W  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            idx_x_w_50 = idx_x_w  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            idx_x_w_51 = idx_x_w_50 + idx_y_w_11  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            row_ok_52 = idx_x_w_51 >= 0  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            row_ok_53 = h_ok_44 & row_ok_52  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            row_ok_54 = idx_x_w_51 < IN_W  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            row_ok_55 = row_ok_53 & row_ok_54  # elementwise0_h_ok: stage 0, partition 0 (group 0)
            x_59 = gl.expand_dims(row_ok_55, 1)  # elementwise1_x: stage 0, partition 0 (group 0)
            x_60 = x_59.broadcast_to([128, 64])  # elementwise1_x: stage 0, partition 0 (group 0)
            idx_x_c_68 = acc_67  # elementwise1_x: stage 0, partition 0 (group 0)
            idx_x_c_70 = idx_x_c_68 + idx_x_c  # elementwise1_x: stage 0, partition 0 (group 0)
            x_72 = gl.expand_dims(idx_x_c_70, 0)  # elementwise1_x: stage 0, partition 0 (group 0)
            x_73 = x_72 < IN_C  # elementwise1_x: stage 0, partition 0 (group 0)
            x_74 = x_73.broadcast_to([128, 64])  # elementwise1_x: stage 0, partition 0 (group 0)
            x_75 = x_60 & x_74  # elementwise1_x: stage 0, partition 0 (group 0)
            mbarrier.wait(x_78_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
            fence_async_shared()
            mbarrier.wait(w_89_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_91 = warpgroup_mma(x_78_buf.index((twill_base + twill_b - 1) % 3), w_89_buf.index((twill_base + twill_b - 1) % 3), acc_91_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_91,))
            mbarrier.arrive(x_78_empty.index((twill_base + twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
            mbarrier.arrive(w_89_empty.index((twill_base + twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
            acc_91 = warpgroup_mma_wait(1, deps=(tok_acc_91,))
            acc_91_p1 = acc_91
        mbarrier.wait(x_78_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(w_89_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_acc_91 = warpgroup_mma(x_78_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), w_89_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), acc_91_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_91,))
        mbarrier.arrive(x_78_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        mbarrier.arrive(w_89_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_91 = warpgroup_mma_wait(1, deps=(tok_acc_91,))
        acc_91_p1 = acc_91
        acc_91_p1 = warpgroup_mma_wait(0, deps=(acc_91_p1,))
        x_78_buf._keep_alive()
        w_89_buf._keep_alive()
        mbarrier.arrive(x_78_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        mbarrier.arrive(w_89_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        mask = gl.expand_dims(nhw_10, 1)
        mask_28 = BATCH * OUT_H
        mask_29 = mask_28 * OUT_W
        mask_31 = mask < mask_29
        mask_32 = gl.expand_dims(idx_y_c_15, 0)
        mask_34 = mask_32 < OUT_C
        mask_35 = mask_31.broadcast_to([128, 128])
        mask_36 = mask_34.broadcast_to([128, 128])
        mask_37 = mask_35 & mask_36
        v1 = mask * OUT_C
        v3 = Y + v1
        v4 = v3.broadcast_to([128, 128])
        v5 = mask_32.broadcast_to([128, 128])
        v6 = v4 + v5
        v7 = acc_91_p1.to(gl.float16)
        v8 = gl.convert_layout(v7, L5)
        gl.store(v6, v8, mask=mask_37)
        twill_base += twill_n

@gluon.jit
def producer_1(X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, KERNEL_H, KERNEL_W, PADDING_H, PADDING_W, twill_g0, twill_g1, twill_g2, x_78_buf, w_89_buf, x_78_ready, x_78_empty, w_89_ready, w_89_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        nhw = twill_pid0
        nhw_3 = nhw * 128
        nhw_4 = gl.arange(0, 128, layout=L0)
        nhw_6 = gl.arange(0, 128, layout=L2)
        nhw_9 = nhw_3 + nhw_4
        idx_y_w_11 = nhw_9 % OUT_W
        nh = nhw_9 // OUT_W
        idx_y_h_12 = nh % OUT_H
        idx_n = nh // OUT_H
        idx_y_c = twill_pid1
        idx_y_c_13 = idx_y_c * 128
        idx_y_c_15 = idx_y_c_13 + nhw_6
        h_ok_16 = idx_n < BATCH
        x_base = idx_n * IN_H
        idx_x_c = gl.arange(0, 64, layout=L3)
        idx_x_c_20 = gl.arange(0, 64, layout=L1)
        w_21 = gl.expand_dims(idx_y_c_15, 0)
        w_23 = w_21 < OUT_C
        w_24 = w_23.broadcast_to([64, 128])
        w_27 = w_21.broadcast_to([64, 128])
        twill_flat0_no_ = gl.maximum(KERNEL_W, 0)
        twill_flat0_ni_d_ = IN_C - 0
        twill_flat0_ni_e_ = twill_flat0_ni_d_ + 63
        twill_flat0_ni_q_ = twill_flat0_ni_e_ // 64
        twill_flat0_ni_ = gl.maximum(twill_flat0_ni_q_, 0)
        twill_flat0_n_ = twill_flat0_no_ * twill_flat0_ni_
        twill_flat1_no_ = gl.maximum(KERNEL_H, 0)
        twill_flat1_ni_ = gl.maximum(twill_flat0_n_, 0)
        twill_flat1_n_ = twill_flat1_no_ * twill_flat1_ni_
        for twill_flat1_t_ in range(0, twill_flat1_n_, 1):
            twill_k = twill_base + (twill_flat1_t_ - 0) // 1
            acc_38 = twill_flat1_t_ // twill_flat1_ni_
            twill_flat0_t_ = twill_flat1_t_ % twill_flat1_ni_
            idx_x_h = acc_38 - PADDING_H
            idx_x_h_40 = idx_x_h + idx_y_h_12
            h_ok_41 = idx_x_h_40 >= 0
            h_ok_42 = h_ok_16 & h_ok_41
            h_ok_43 = idx_x_h_40 < IN_H
            h_ok_44 = h_ok_42 & h_ok_43
            x_base_45 = x_base + idx_x_h_40
            x_base_46 = x_base_45 * IN_W
            w_47 = acc_38 * KERNEL_W
            acc_49 = twill_flat0_t_ // twill_flat0_ni_
            twill_flat0_qi_ = twill_flat0_t_ % twill_flat0_ni_
            twill_flat0_qi_s_ = twill_flat0_qi_ * 64
            acc_67 = 0 + twill_flat0_qi_s_
            idx_x_w = acc_49 - PADDING_W
            idx_x_w_51 = idx_x_w + idx_y_w_11
            row_ok_52 = idx_x_w_51 >= 0
            row_ok_53 = h_ok_44 & row_ok_52
            row_ok_54 = idx_x_w_51 < IN_W
            row_ok_55 = row_ok_53 & row_ok_54
            x_base_56 = x_base_46 + idx_x_w_51
            x_base_57 = x_base_56 * IN_C
            x_base_58 = X + x_base_57
            x_59 = gl.expand_dims(row_ok_55, 1)
            x_60 = x_59.broadcast_to([128, 64])
            x_61 = gl.expand_dims(x_base_58, 1)
            x_62 = x_61.broadcast_to([128, 64])
            w_63 = w_47 + acc_49
            w_64 = w_63 * IN_C
            idx_x_c_70 = acc_67 + idx_x_c
            idx_x_c_71 = acc_67 + idx_x_c_20
            x_72 = gl.expand_dims(idx_x_c_70, 0)
            x_73 = x_72 < IN_C
            x_74 = x_73.broadcast_to([128, 64])
            x_75 = x_60 & x_74
            x_76 = x_72.broadcast_to([128, 64])
            x_77 = x_62 + x_76
            w_80 = gl.expand_dims(idx_x_c_71, 1)
            w_81 = w_80 < IN_C
            w_82 = w_81.broadcast_to([64, 128])
            w_83 = w_82 & w_24
            w_84 = w_64 + w_80
            w_85 = w_84 * OUT_C
            w_86 = W + w_85
            w_87 = w_86.broadcast_to([64, 128])
            w_88 = w_87 + w_27
            mbarrier.wait(w_89_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(w_89_buf.index(twill_k % 3), w_88, mask=w_83)  # load1_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(w_89_ready.index(twill_k % 3), increment_count=False)
            else:
                w_89_buf.index(twill_k % 3).store(gl.load(w_88, mask=w_83, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(w_89_ready.index(twill_k % 3), count=256)
            mbarrier.wait(x_78_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_78_buf.index(twill_k % 3), x_77, mask=x_75)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_78_ready.index(twill_k % 3), increment_count=False)
            else:
                x_78_buf.index(twill_k % 3).store(gl.load(x_77, mask=x_75, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_78_ready.index(twill_k % 3), count=256)
        twill_base += (twill_flat1_n_ - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, KERNEL_H, KERNEL_W, PADDING_H, PADDING_W, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    x_78_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_89_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_78_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_78_ready.index(i), count=256)
    x_78_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_78_empty.index(i), count=1)
    w_89_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(w_89_ready.index(i), count=256)
    w_89_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(w_89_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, KERNEL_H, KERNEL_W, PADDING_H, PADDING_W, twill_g0, twill_g1, twill_g2, x_78_buf, w_89_buf, x_78_ready, x_78_empty, w_89_ready, w_89_empty, TWILL_COPY)),
        (producer_1, (X, W, Y, BATCH, IN_H, IN_W, OUT_H, OUT_W, IN_C, OUT_C, KERNEL_H, KERNEL_W, PADDING_H, PADDING_W, twill_g0, twill_g1, twill_g2, x_78_buf, w_89_buf, x_78_ready, x_78_empty, w_89_ready, w_89_empty, TWILL_COPY)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'W', 'Y', 'BATCH', 'IN_H', 'IN_W', 'OUT_H', 'OUT_W', 'IN_C', 'OUT_C', 'KERNEL_H', 'KERNEL_W', 'PADDING_H', 'PADDING_W', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'W', 'Y', 'BATCH', 'IN_H', 'IN_W', 'OUT_H', 'OUT_W', 'IN_C', 'OUT_C', 'KERNEL_H', 'KERNEL_W', 'PADDING_H', 'PADDING_W', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X', 'W', 'Y', 'BATCH', 'IN_H', 'IN_W', 'OUT_H', 'OUT_W', 'IN_C', 'OUT_C', 'KERNEL_H', 'KERNEL_W', 'PADDING_H', 'PADDING_W', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
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
    trips = _ev('(max(KERNEL_H, 0) * max((max(KERNEL_W, 0) * max((((IN_C - 0) + 63) // 64), 0)), 0))', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((max(KERNEL_H, 0) * max((max(KERNEL_W, 0) * max((((IN_C - 0) + 63) // 64), 0)), 0))): run the Triton kernel for it")
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
