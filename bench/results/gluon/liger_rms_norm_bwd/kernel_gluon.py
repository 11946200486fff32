"""_rms_norm_backward_kernel, written by twill from its joint schedule: I=329 L=508 (optimal), 920 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 705).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 120 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0(dY_ptr, dY_row_stride, dX_ptr, dX_row_stride, X_ptr, X_row_stride, W_ptr, W_row_stride, RSTD_ptr, RSTD_row_stride, dW_ptr, dW_row_stride, n_rows, n_cols, offset):
    row_block_id = gl.program_id(0)
    row_start = row_block_id * 125
    row_end = row_block_id + 1
    row_end_2 = row_end * 125
    row_end_3 = gl.minimum(row_end_2, n_rows)
    col_offsets = gl.arange(0, 4096, layout=L0)
    col_offsets_4 = gl.arange(0, 4096, layout=L1)
    mask_6 = col_offsets < n_cols
    mask_7 = col_offsets_4 < n_cols
    dY_ptr_8 = row_start * dY_row_stride
    dY_ptr_9 = dY_ptr + dY_ptr_8
    dX_ptr_10 = row_start * dX_row_stride
    dX_ptr_11 = dX_ptr + dX_ptr_10
    X_ptr_12 = row_start * X_row_stride
    X_ptr_13 = X_ptr + X_ptr_12
    RSTD_ptr_14 = RSTD_ptr + row_start
    W_row_15 = W_ptr + col_offsets
    W_row_16 = gl.load(W_row_15, mask=mask_6, other=0.0)
    W_row_17 = W_row_16.to(gl.float32)
    W_row_19 = W_row_17 + offset
    dX_row = gl.cast(n_cols, gl.float32)
    dX_row_20 = 1.0 / dX_row
    dX_row_21 = 0.0 - dX_row_20
    twill_n = gl.maximum((row_end_3 - row_start + 1 - 1) // 1, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        dY_ptr_49 = dY_ptr_9
        X_ptr_51 = X_ptr_13
        RSTD_ptr_52 = RSTD_ptr_14
        RSTD_ptr_52_p1 = RSTD_ptr_52
        X_ptr_51_p1 = X_ptr_51
        dY_ptr_49_p1 = dY_ptr_49
        X_ptr_51 = X_ptr_51_p1 + X_row_stride  # load1_X_row: stage 0, partition 0 (group 0)
        X_row = X_ptr_51_p1  # load1_X_row: stage 0, partition 0 (group 0)
        X_row_31 = X_row + col_offsets  # load1_X_row: stage 0, partition 0 (group 0)
        X_row_32 = gl.load(X_row_31, mask=mask_6, other=0.0)  # load1_X_row: stage 0, partition 0 (group 0)
        dY_ptr_49 = dY_ptr_49_p1 + dY_row_stride  # load0_dY_row: stage 0, partition 0 (group 0)
        dY_row = dY_ptr_49_p1  # load0_dY_row: stage 0, partition 0 (group 0)
        dY_row_29 = dY_row + col_offsets  # load0_dY_row: stage 0, partition 0 (group 0)
        dY_row_30 = gl.load(dY_row_29, mask=mask_6, other=0.0)  # load0_dY_row: stage 0, partition 0 (group 0)
        RSTD_ptr_52 = RSTD_ptr_52_p1 + RSTD_row_stride  # load2_rstd_row: stage 0, partition 0 (group 0)
        rstd_row = gl.load(RSTD_ptr_52_p1)  # load2_rstd_row: stage 0, partition 0 (group 0)
        RSTD_ptr_52_p1 = RSTD_ptr_52
        X_ptr_51_p1 = X_ptr_51
        X_row_32_p1 = X_row_32
        dY_ptr_49_p1 = dY_ptr_49
        dY_row_30_p1 = dY_row_30
        rstd_row_p1 = rstd_row
        dX_ptr_50 = dX_ptr_11
        dW_row_48 = gl.full([4096], 0.0, gl.float32, layout=L0)
        X_ptr_51 = X_ptr_51_p1 + X_row_stride  # load1_X_row: stage 0, partition 0 (group 0)
        X_row = X_ptr_51_p1  # load1_X_row: stage 0, partition 0 (group 0)
        X_row_31 = X_row + col_offsets  # load1_X_row: stage 0, partition 0 (group 0)
        X_row_32 = gl.load(X_row_31, mask=mask_6, other=0.0)  # load1_X_row: stage 0, partition 0 (group 0)
        X_row_33 = X_row_32_p1.to(gl.float32)  # convert0_X_row: stage 1, partition 0 (group 0)
        dY_ptr_49 = dY_ptr_49_p1 + dY_row_stride  # load0_dY_row: stage 0, partition 0 (group 0)
        dY_row = dY_ptr_49_p1  # load0_dY_row: stage 0, partition 0 (group 0)
        dY_row_29 = dY_row + col_offsets  # load0_dY_row: stage 0, partition 0 (group 0)
        dY_row_30 = gl.load(dY_row_29, mask=mask_6, other=0.0)  # load0_dY_row: stage 0, partition 0 (group 0)
        dY_row_34 = dY_row_30_p1.to(gl.float32)  # convert1_dY_row: stage 1, partition 0 (group 0)
        m = dY_row_34 * W_row_19  # elementwise0_m: stage 1, partition 0 (group 0)
        dX_row_39 = m * X_row_33  # elementwise3_dX_row: stage 1, partition 0 (group 0)
        dX_row_40 = gl.sum(dX_row_39, axis=0)  # reduce0_dX_row: stage 1, partition 0 (group 0)
        RSTD_ptr_52 = RSTD_ptr_52_p1 + RSTD_row_stride  # load2_rstd_row: stage 0, partition 0 (group 0)
        rstd_row = gl.load(RSTD_ptr_52_p1)  # load2_rstd_row: stage 0, partition 0 (group 0)
        dX_row_37 = dX_row_21 * rstd_row_p1  # elementwise2_dX_row: stage 1, partition 0 (group 0)
        dX_row_38 = dX_row_37 * rstd_row_p1  # elementwise2_dX_row: stage 1, partition 0 (group 0)
        dX_row_41 = dX_row_38 * dX_row_40  # elementwise2_dX_row: stage 1, partition 0 (group 0)
        dX_row_35 = rstd_row_p1  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        dX_row_36 = dX_row_35 * m  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        dX_row_42 = dX_row_41  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        dX_row_43 = dX_row_42 * X_row_33  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        dX_row_44 = dX_row_35 * dX_row_43  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        dX_row_45 = dX_row_36 + dX_row_44  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        RSTD_ptr_52_p1 = RSTD_ptr_52
        X_ptr_51_p1 = X_ptr_51
        X_row_32_p1 = X_row_32
        X_row_33_p1 = X_row_33
        dW_row_48_p1 = dW_row_48
        dX_ptr_50_p1 = dX_ptr_50
        dX_row_35_p1 = dX_row_35
        dX_row_45_p1 = dX_row_45
        dY_ptr_49_p1 = dY_ptr_49
        dY_row_30_p1 = dY_row_30
        dY_row_34_p1 = dY_row_34
        rstd_row_p1 = rstd_row
        for twill_b in range(2, twill_n):
            dW_row_46 = X_row_33_p1 * dX_row_35_p1  # elementwise4_dW_row: stage 2, partition 0 (group 0)
            dW_row_47 = dY_row_34_p1 * dW_row_46  # elementwise4_dW_row: stage 2, partition 0 (group 0)
            dW_row_48 = dW_row_48_p1 + dW_row_47  # elementwise4_dW_row: stage 2, partition 0 (group 0)
            v7 = dX_row_45_p1.to(gl.bfloat16)  # convert2: stage 2, partition 0 (group 0)
            X_ptr_51 = X_ptr_51_p1 + X_row_stride  # load1_X_row: stage 0, partition 0 (group 0)
            X_row = X_ptr_51_p1  # load1_X_row: stage 0, partition 0 (group 0)
            X_row_31 = X_row + col_offsets  # load1_X_row: stage 0, partition 0 (group 0)
            X_row_32 = gl.load(X_row_31, mask=mask_6, other=0.0)  # load1_X_row: stage 0, partition 0 (group 0)
            X_row_33 = X_row_32_p1.to(gl.float32)  # convert0_X_row: stage 1, partition 0 (group 0)
            v5 = dX_ptr_50_p1  # store0: stage 2, partition 0 (group 0)
            v6 = v5 + col_offsets  # store0: stage 2, partition 0 (group 0)
            gl.store(v6, v7, mask=mask_6)  # store0: stage 2, partition 0 (group 0)
            dX_ptr_50 = dX_ptr_50_p1 + dX_row_stride  # store0: stage 2, partition 0 (group 0)
            dY_ptr_49 = dY_ptr_49_p1 + dY_row_stride  # load0_dY_row: stage 0, partition 0 (group 0)
            dY_row = dY_ptr_49_p1  # load0_dY_row: stage 0, partition 0 (group 0)
            dY_row_29 = dY_row + col_offsets  # load0_dY_row: stage 0, partition 0 (group 0)
            dY_row_30 = gl.load(dY_row_29, mask=mask_6, other=0.0)  # load0_dY_row: stage 0, partition 0 (group 0)
            dY_row_34 = dY_row_30_p1.to(gl.float32)  # convert1_dY_row: stage 1, partition 0 (group 0)
            m = dY_row_34 * W_row_19  # elementwise0_m: stage 1, partition 0 (group 0)
            dX_row_39 = m * X_row_33  # elementwise3_dX_row: stage 1, partition 0 (group 0)
            dX_row_40 = gl.sum(dX_row_39, axis=0)  # reduce0_dX_row: stage 1, partition 0 (group 0)
            RSTD_ptr_52 = RSTD_ptr_52_p1 + RSTD_row_stride  # load2_rstd_row: stage 0, partition 0 (group 0)
            rstd_row = gl.load(RSTD_ptr_52_p1)  # load2_rstd_row: stage 0, partition 0 (group 0)
            dX_row_37 = dX_row_21 * rstd_row_p1  # elementwise2_dX_row: stage 1, partition 0 (group 0)
            dX_row_38 = dX_row_37 * rstd_row_p1  # elementwise2_dX_row: stage 1, partition 0 (group 0)
            dX_row_41 = dX_row_38 * dX_row_40  # elementwise2_dX_row: stage 1, partition 0 (group 0)
            dX_row_35 = rstd_row_p1  # elementwise1_dX_row: stage 1, partition 0 (group 0)
            dX_row_36 = dX_row_35 * m  # elementwise1_dX_row: stage 1, partition 0 (group 0)
            dX_row_42 = dX_row_41  # elementwise1_dX_row: stage 1, partition 0 (group 0)
            dX_row_43 = dX_row_42 * X_row_33  # elementwise1_dX_row: stage 1, partition 0 (group 0)
            dX_row_44 = dX_row_35 * dX_row_43  # elementwise1_dX_row: stage 1, partition 0 (group 0)
            dX_row_45 = dX_row_36 + dX_row_44  # elementwise1_dX_row: stage 1, partition 0 (group 0)
            RSTD_ptr_52_p1 = RSTD_ptr_52
            X_ptr_51_p1 = X_ptr_51
            X_row_32_p1 = X_row_32
            X_row_33_p1 = X_row_33
            dW_row_48_p1 = dW_row_48
            dX_ptr_50_p1 = dX_ptr_50
            dX_row_35_p1 = dX_row_35
            dX_row_45_p1 = dX_row_45
            dY_ptr_49_p1 = dY_ptr_49
            dY_row_30_p1 = dY_row_30
            dY_row_34_p1 = dY_row_34
            rstd_row_p1 = rstd_row
        dW_row_46 = X_row_33_p1 * dX_row_35_p1  # elementwise4_dW_row: stage 2, partition 0 (group 0)
        dW_row_47 = dY_row_34_p1 * dW_row_46  # elementwise4_dW_row: stage 2, partition 0 (group 0)
        dW_row_48 = dW_row_48_p1 + dW_row_47  # elementwise4_dW_row: stage 2, partition 0 (group 0)
        v7 = dX_row_45_p1.to(gl.bfloat16)  # convert2: stage 2, partition 0 (group 0)
        X_row_33 = X_row_32_p1.to(gl.float32)  # convert0_X_row: stage 1, partition 0 (group 0)
        v5 = dX_ptr_50_p1  # store0: stage 2, partition 0 (group 0)
        v6 = v5 + col_offsets  # store0: stage 2, partition 0 (group 0)
        gl.store(v6, v7, mask=mask_6)  # store0: stage 2, partition 0 (group 0)
        dX_ptr_50 = dX_ptr_50_p1 + dX_row_stride  # store0: stage 2, partition 0 (group 0)
        dY_row_34 = dY_row_30_p1.to(gl.float32)  # convert1_dY_row: stage 1, partition 0 (group 0)
        m = dY_row_34 * W_row_19  # elementwise0_m: stage 1, partition 0 (group 0)
        dX_row_39 = m * X_row_33  # elementwise3_dX_row: stage 1, partition 0 (group 0)
        dX_row_40 = gl.sum(dX_row_39, axis=0)  # reduce0_dX_row: stage 1, partition 0 (group 0)
        dX_row_37 = dX_row_21 * rstd_row_p1  # elementwise2_dX_row: stage 1, partition 0 (group 0)
        dX_row_38 = dX_row_37 * rstd_row_p1  # elementwise2_dX_row: stage 1, partition 0 (group 0)
        dX_row_41 = dX_row_38 * dX_row_40  # elementwise2_dX_row: stage 1, partition 0 (group 0)
        dX_row_35 = rstd_row_p1  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        dX_row_36 = dX_row_35 * m  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        dX_row_42 = dX_row_41  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        dX_row_43 = dX_row_42 * X_row_33  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        dX_row_44 = dX_row_35 * dX_row_43  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        dX_row_45 = dX_row_36 + dX_row_44  # elementwise1_dX_row: stage 1, partition 0 (group 0)
        RSTD_ptr_52_p2 = RSTD_ptr_52_p1
        RSTD_ptr_52_p1 = RSTD_ptr_52
        X_ptr_51_p2 = X_ptr_51_p1
        X_ptr_51_p1 = X_ptr_51
        X_row_32_p1 = X_row_32
        X_row_33_p1 = X_row_33
        dW_row_48_p1 = dW_row_48
        dX_ptr_50_p1 = dX_ptr_50
        dX_row_35_p1 = dX_row_35
        dX_row_45_p1 = dX_row_45
        dY_ptr_49_p2 = dY_ptr_49_p1
        dY_ptr_49_p1 = dY_ptr_49
        dY_row_30_p1 = dY_row_30
        dY_row_34_p1 = dY_row_34
        rstd_row_p1 = rstd_row
        dW_row_46 = X_row_33_p1 * dX_row_35_p1  # elementwise4_dW_row: stage 2, partition 0 (group 0)
        dW_row_47 = dY_row_34_p1 * dW_row_46  # elementwise4_dW_row: stage 2, partition 0 (group 0)
        dW_row_48 = dW_row_48_p1 + dW_row_47  # elementwise4_dW_row: stage 2, partition 0 (group 0)
        v7 = dX_row_45_p1.to(gl.bfloat16)  # convert2: stage 2, partition 0 (group 0)
        v5 = dX_ptr_50_p1  # store0: stage 2, partition 0 (group 0)
        v6 = v5 + col_offsets  # store0: stage 2, partition 0 (group 0)
        gl.store(v6, v7, mask=mask_6)  # store0: stage 2, partition 0 (group 0)
        dX_ptr_50 = dX_ptr_50_p1 + dX_row_stride  # store0: stage 2, partition 0 (group 0)
        RSTD_ptr_52_p3 = RSTD_ptr_52_p2
        RSTD_ptr_52_p2 = RSTD_ptr_52_p1
        RSTD_ptr_52_p1 = RSTD_ptr_52
        X_ptr_51_p3 = X_ptr_51_p2
        X_ptr_51_p2 = X_ptr_51_p1
        X_ptr_51_p1 = X_ptr_51
        X_row_32_p1 = X_row_32
        X_row_33_p1 = X_row_33
        dW_row_48_p1 = dW_row_48
        dX_ptr_50_p1 = dX_ptr_50
        dX_row_35_p1 = dX_row_35
        dX_row_45_p1 = dX_row_45
        dY_ptr_49_p3 = dY_ptr_49_p2
        dY_ptr_49_p2 = dY_ptr_49_p1
        dY_ptr_49_p1 = dY_ptr_49
        dY_row_30_p1 = dY_row_30
        dY_row_34_p1 = dY_row_34
        rstd_row_p1 = rstd_row
    else:
        dY_ptr_24_w = dY_ptr_9
        dX_ptr_25_w = dX_ptr_11
        X_ptr_26_w = X_ptr_13
        RSTD_ptr_27_w = RSTD_ptr_14
        dW_row_28_w = gl.full([4096], 0.0, gl.float32, layout=L0)
        for dW_row_23_w in range(row_start, row_end_3, 1):
            dY_row_29_w = dY_ptr_24_w + col_offsets
            dY_row_30_w = gl.load(dY_row_29_w, mask=mask_6, other=0.0)
            X_row_31_w = X_ptr_26_w + col_offsets
            X_row_32_w = gl.load(X_row_31_w, mask=mask_6, other=0.0)
            rstd_row_w = gl.load(RSTD_ptr_27_w)
            X_row_33_w = X_row_32_w.to(gl.float32)
            dY_row_34_w = dY_row_30_w.to(gl.float32)
            m_w = dY_row_34_w * W_row_19
            dX_row_36_w = rstd_row_w * m_w
            dX_row_37_w = dX_row_21 * rstd_row_w
            dX_row_38_w = dX_row_37_w * rstd_row_w
            dX_row_39_w = m_w * X_row_33_w
            dX_row_40_w = gl.sum(dX_row_39_w, axis=0)
            dX_row_41_w = dX_row_38_w * dX_row_40_w
            dX_row_43_w = dX_row_41_w * X_row_33_w
            dX_row_44_w = rstd_row_w * dX_row_43_w
            dX_row_45_w = dX_row_36_w + dX_row_44_w
            dW_row_46_w = X_row_33_w * rstd_row_w
            dW_row_47_w = dY_row_34_w * dW_row_46_w
            dW_row_48_w = dW_row_28_w + dW_row_47_w
            v6_w = dX_ptr_25_w + col_offsets
            v7_w = dX_row_45_w.to(gl.bfloat16)
            gl.store(v6_w, v7_w, mask=mask_6)
            dY_ptr_49_w = dY_ptr_24_w + dY_row_stride
            dX_ptr_50_w = dX_ptr_25_w + dX_row_stride
            X_ptr_51_w = X_ptr_26_w + X_row_stride
            RSTD_ptr_52_w = RSTD_ptr_27_w + RSTD_row_stride
            dY_ptr_24_w = dY_ptr_49_w
            dX_ptr_25_w = dX_ptr_50_w
            X_ptr_26_w = X_ptr_51_w
            RSTD_ptr_27_w = RSTD_ptr_52_w
            dW_row_28_w = dW_row_48_w
        dY_ptr_49_p3 = dY_ptr_24_w
        dX_ptr_50_p1 = dX_ptr_25_w
        X_ptr_51_p3 = X_ptr_26_w
        RSTD_ptr_52_p3 = RSTD_ptr_27_w
        dW_row_48_p1 = dW_row_28_w
    v0 = row_block_id * dW_row_stride
    v1 = dW_ptr + v0
    v3 = v1 + col_offsets_4
    v4 = gl.convert_layout(dW_row_48_p1, L1)
    gl.store(v3, v4, mask=mask_7)

@gluon.jit
def twill_kernel(dY_ptr, dY_row_stride, dX_ptr, dX_row_stride, X_ptr, X_row_stride, W_ptr, W_row_stride, RSTD_ptr, RSTD_row_stride, dW_ptr, dW_row_stride, n_rows, n_cols, offset):
    consumer_0(dY_ptr, dY_row_stride, dX_ptr, dX_row_stride, X_ptr, X_row_stride, W_ptr, W_row_stride, RSTD_ptr, RSTD_row_stride, dW_ptr, dW_row_stride, n_rows, n_cols, offset, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['dY_ptr', 'dY_row_stride', 'dX_ptr', 'dX_row_stride', 'X_ptr', 'X_row_stride', 'X_dtype', 'W_ptr', 'W_row_stride', 'RSTD_ptr', 'RSTD_row_stride', 'dW_ptr', 'dW_row_stride', 'n_rows', 'n_cols', 'offset', 'rows_per_program', 'casting_mode', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['dY_ptr', 'dY_row_stride', 'dX_ptr', 'dX_row_stride', 'X_ptr', 'X_row_stride', 'W_ptr', 'W_row_stride', 'RSTD_ptr', 'RSTD_row_stride', 'dW_ptr', 'dW_row_stride', 'n_rows', 'n_cols', 'offset']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['dY_ptr', 'dY_row_stride', 'dX_ptr', 'dX_row_stride', 'X_ptr', 'X_row_stride', 'X_dtype', 'W_ptr', 'W_row_stride', 'RSTD_ptr', 'RSTD_row_stride', 'dW_ptr', 'dW_row_stride', 'n_rows', 'n_cols', 'offset']   # the arguments a launch key reads
CONSTEXPRS = {'rows_per_program': 125, 'casting_mode': 'gemma', 'BLOCK_SIZE': 4096}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
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
