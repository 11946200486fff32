"""_layer_norm_backward_kernel, written by twill from its joint schedule: I=565 L=776 (optimal), 1028 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 136 per thread)
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
def consumer_0(X_ptr, W_ptr, Mean_ptr, RSTD_ptr, DX_ptr, DW_ptr, DB_ptr, DY_ptr, stride_x, stride_dx, stride_dw, stride_db, stride_dy, n_rows, n_cols):
    row_block_id = gl.program_id(0)
    row_start = row_block_id * 63
    row_end = row_block_id + 1
    row_end_1 = row_end * 63
    row_end_2 = gl.minimum(row_end_1, n_rows)
    cols = gl.arange(0, 4096, layout=L0)
    cols_3 = gl.arange(0, 4096, layout=L1)
    mask_5 = cols < n_cols
    mask_6 = cols_3 < n_cols
    X_ptr_7 = row_start * stride_x
    X_ptr_8 = X_ptr + X_ptr_7
    Mean_ptr_9 = Mean_ptr + row_start
    RSTD_ptr_10 = RSTD_ptr + row_start
    DX_ptr_11 = row_start * stride_dx
    DX_ptr_12 = DX_ptr + DX_ptr_11
    DY_ptr_13 = row_start * stride_dy
    DY_ptr_14 = DY_ptr + DY_ptr_13
    w_15 = W_ptr + cols
    c1 = gl.cast(n_cols, gl.float32)
    twill_n = gl.maximum((row_end_2 - row_start + 1 - 1) // 1, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        X_ptr_44 = X_ptr_8
        Mean_ptr_45 = Mean_ptr_9
        RSTD_ptr_46 = RSTD_ptr_10
        DY_ptr_48 = DY_ptr_14
        DY_ptr_48_p1 = DY_ptr_48
        Mean_ptr_45_p1 = Mean_ptr_45
        RSTD_ptr_46_p1 = RSTD_ptr_46
        X_ptr_44_p1 = X_ptr_44
        dw_row_42 = gl.full([4096], 0.0, gl.float32, layout=L0)
        db_row_43 = gl.full([4096], 0.0, gl.float32, layout=L0)
        DY_ptr_48 = DY_ptr_48_p1 + stride_dy  # load2_dy: stage 0, partition 0 (group 0)
        dy = DY_ptr_48_p1  # load2_dy: stage 0, partition 0 (group 0)
        dy_27 = dy + cols  # load2_dy: stage 0, partition 0 (group 0)
        dy_28 = gl.load(dy_27, mask=mask_5, other=0.0)  # load2_dy: stage 0, partition 0 (group 0)
        X_ptr_44 = X_ptr_44_p1 + stride_x  # load0_x: stage 0, partition 0 (group 0)
        x = X_ptr_44_p1  # load0_x: stage 0, partition 0 (group 0)
        x_22 = x + cols  # load0_x: stage 0, partition 0 (group 0)
        x_23 = gl.load(x_22, mask=mask_5, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        Mean_ptr_45 = Mean_ptr_45_p1 + 1  # load3_mean: stage 0, partition 0 (group 0)
        RSTD_ptr_46 = RSTD_ptr_46_p1 + 1  # load4_rstd: stage 0, partition 0 (group 0)
        mean = gl.load(Mean_ptr_45_p1)  # load3_mean: stage 0, partition 0 (group 0)
        rstd = gl.load(RSTD_ptr_46_p1)  # load4_rstd: stage 0, partition 0 (group 0)
        w_25 = gl.load(w_15, mask=mask_5, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
        DY_ptr_48_p1 = DY_ptr_48
        Mean_ptr_45_p1 = Mean_ptr_45
        RSTD_ptr_46_p1 = RSTD_ptr_46
        X_ptr_44_p1 = X_ptr_44
        db_row_43_p1 = db_row_43
        dw_row_42_p1 = dw_row_42
        dy_28_p1 = dy_28
        mean_p1 = mean
        rstd_p1 = rstd
        w_25_p1 = w_25
        x_23_p1 = x_23
        DX_ptr_47 = DX_ptr_12
        DY_ptr_48 = DY_ptr_48_p1 + stride_dy  # load2_dy: stage 0, partition 0 (group 0)
        dy = DY_ptr_48_p1  # load2_dy: stage 0, partition 0 (group 0)
        dy_27 = dy + cols  # load2_dy: stage 0, partition 0 (group 0)
        dy_28 = gl.load(dy_27, mask=mask_5, other=0.0)  # load2_dy: stage 0, partition 0 (group 0)
        dy_29 = dy_28_p1.to(gl.float32)  # convert2_dy: stage 1, partition 0 (group 0)
        X_ptr_44 = X_ptr_44_p1 + stride_x  # load0_x: stage 0, partition 0 (group 0)
        x = X_ptr_44_p1  # load0_x: stage 0, partition 0 (group 0)
        x_22 = x + cols  # load0_x: stage 0, partition 0 (group 0)
        x_23 = gl.load(x_22, mask=mask_5, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_24 = x_23_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        Mean_ptr_45 = Mean_ptr_45_p1 + 1  # load3_mean: stage 0, partition 0 (group 0)
        RSTD_ptr_46 = RSTD_ptr_46_p1 + 1  # load4_rstd: stage 0, partition 0 (group 0)
        mean = gl.load(Mean_ptr_45_p1)  # load3_mean: stage 0, partition 0 (group 0)
        rstd = gl.load(RSTD_ptr_46_p1)  # load4_rstd: stage 0, partition 0 (group 0)
        x_hat = mean_p1  # elementwise0_x_hat: stage 1, partition 0 (group 0)
        x_hat_30 = x_24 - x_hat  # elementwise0_x_hat: stage 1, partition 0 (group 0)
        x_hat_31 = rstd_p1  # elementwise0_x_hat: stage 1, partition 0 (group 0)
        x_hat_32 = x_hat_30 * x_hat_31  # elementwise0_x_hat: stage 1, partition 0 (group 0)
        dw_row = dy_29 * x_hat_32  # elementwise6_dw_row: stage 1, partition 0 (group 0)
        dw_row_42 = dw_row_42_p1 + dw_row  # elementwise6_dw_row: stage 1, partition 0 (group 0)
        w_25 = gl.load(w_15, mask=mask_5, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
        w_26 = w_25_p1.to(gl.float32)  # convert1_w: stage 1, partition 0 (group 0)
        db_row_43 = db_row_43_p1 + dy_29  # elementwise7_db_row: stage 1, partition 0 (group 0)
        wdy = w_26 * dy_29  # elementwise1_wdy: stage 1, partition 0 (group 0)
        c1_33 = x_hat_32 * wdy  # elementwise2_c1: stage 1, partition 0 (group 0)
        DX_ptr_47_p1 = DX_ptr_47
        DY_ptr_48_p1 = DY_ptr_48
        Mean_ptr_45_p1 = Mean_ptr_45
        RSTD_ptr_46_p1 = RSTD_ptr_46
        X_ptr_44_p1 = X_ptr_44
        c1_33_p1 = c1_33
        db_row_43_p1 = db_row_43
        dw_row_42_p1 = dw_row_42
        dy_28_p1 = dy_28
        mean_p1 = mean
        rstd_p1 = rstd
        w_25_p1 = w_25
        wdy_p1 = wdy
        x_23_p1 = x_23
        x_hat_31_p1 = x_hat_31
        x_hat_32_p1 = x_hat_32
        for twill_b in range(2, twill_n):
            c1_34 = gl.sum(c1_33_p1, axis=0)  # reduce0_c1: stage 2, partition 0 (group 0)
            c1_35 = c1_34 / c1  # elementwise3_c1: stage 2, partition 0 (group 0)
            c2 = gl.sum(wdy_p1, axis=0)  # reduce1_c2: stage 2, partition 0 (group 0)
            c2_36 = c2 / c1  # elementwise4_c2: stage 2, partition 0 (group 0)
            dx = c1_35  # elementwise5_dx: stage 2, partition 0 (group 0)
            dx_37 = x_hat_32_p1 * dx  # elementwise5_dx: stage 2, partition 0 (group 0)
            dx_38 = c2_36  # elementwise5_dx: stage 2, partition 0 (group 0)
            dx_39 = dx_37 + dx_38  # elementwise5_dx: stage 2, partition 0 (group 0)
            dx_40 = wdy_p1 - dx_39  # elementwise5_dx: stage 2, partition 0 (group 0)
            dx_41 = dx_40 * x_hat_31_p1  # elementwise5_dx: stage 2, partition 0 (group 0)
            v12 = dx_41.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
            v10 = DX_ptr_47_p1  # store0: stage 2, partition 0 (group 0)
            v11 = v10 + cols  # store0: stage 2, partition 0 (group 0)
            gl.store(v11, v12, mask=mask_5)  # store0: stage 2, partition 0 (group 0)
            DX_ptr_47 = DX_ptr_47_p1 + stride_dx  # store0: stage 2, partition 0 (group 0)
            DY_ptr_48 = DY_ptr_48_p1 + stride_dy  # load2_dy: stage 0, partition 0 (group 0)
            dy = DY_ptr_48_p1  # load2_dy: stage 0, partition 0 (group 0)
            dy_27 = dy + cols  # load2_dy: stage 0, partition 0 (group 0)
            dy_28 = gl.load(dy_27, mask=mask_5, other=0.0)  # load2_dy: stage 0, partition 0 (group 0)
            dy_29 = dy_28_p1.to(gl.float32)  # convert2_dy: stage 1, partition 0 (group 0)
            X_ptr_44 = X_ptr_44_p1 + stride_x  # load0_x: stage 0, partition 0 (group 0)
            x = X_ptr_44_p1  # load0_x: stage 0, partition 0 (group 0)
            x_22 = x + cols  # load0_x: stage 0, partition 0 (group 0)
            x_23 = gl.load(x_22, mask=mask_5, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
            x_24 = x_23_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
            Mean_ptr_45 = Mean_ptr_45_p1 + 1  # load3_mean: stage 0, partition 0 (group 0)
            RSTD_ptr_46 = RSTD_ptr_46_p1 + 1  # load4_rstd: stage 0, partition 0 (group 0)
            mean = gl.load(Mean_ptr_45_p1)  # load3_mean: stage 0, partition 0 (group 0)
            rstd = gl.load(RSTD_ptr_46_p1)  # load4_rstd: stage 0, partition 0 (group 0)
            x_hat = mean_p1  # elementwise0_x_hat: stage 1, partition 0 (group 0)
            x_hat_30 = x_24 - x_hat  # elementwise0_x_hat: stage 1, partition 0 (group 0)
            x_hat_31 = rstd_p1  # elementwise0_x_hat: stage 1, partition 0 (group 0)
            x_hat_32 = x_hat_30 * x_hat_31  # elementwise0_x_hat: stage 1, partition 0 (group 0)
            dw_row = dy_29 * x_hat_32  # elementwise6_dw_row: stage 1, partition 0 (group 0)
            dw_row_42 = dw_row_42_p1 + dw_row  # elementwise6_dw_row: stage 1, partition 0 (group 0)
            w_25 = gl.load(w_15, mask=mask_5, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
            w_26 = w_25_p1.to(gl.float32)  # convert1_w: stage 1, partition 0 (group 0)
            db_row_43 = db_row_43_p1 + dy_29  # elementwise7_db_row: stage 1, partition 0 (group 0)
            wdy = w_26 * dy_29  # elementwise1_wdy: stage 1, partition 0 (group 0)
            c1_33 = x_hat_32 * wdy  # elementwise2_c1: stage 1, partition 0 (group 0)
            DX_ptr_47_p1 = DX_ptr_47
            DY_ptr_48_p1 = DY_ptr_48
            Mean_ptr_45_p1 = Mean_ptr_45
            RSTD_ptr_46_p1 = RSTD_ptr_46
            X_ptr_44_p1 = X_ptr_44
            c1_33_p1 = c1_33
            db_row_43_p1 = db_row_43
            dw_row_42_p1 = dw_row_42
            dy_28_p1 = dy_28
            mean_p1 = mean
            rstd_p1 = rstd
            w_25_p1 = w_25
            wdy_p1 = wdy
            x_23_p1 = x_23
            x_hat_31_p1 = x_hat_31
            x_hat_32_p1 = x_hat_32
        c1_34 = gl.sum(c1_33_p1, axis=0)  # reduce0_c1: stage 2, partition 0 (group 0)
        c1_35 = c1_34 / c1  # elementwise3_c1: stage 2, partition 0 (group 0)
        c2 = gl.sum(wdy_p1, axis=0)  # reduce1_c2: stage 2, partition 0 (group 0)
        c2_36 = c2 / c1  # elementwise4_c2: stage 2, partition 0 (group 0)
        dx = c1_35  # elementwise5_dx: stage 2, partition 0 (group 0)
        dx_37 = x_hat_32_p1 * dx  # elementwise5_dx: stage 2, partition 0 (group 0)
        dx_38 = c2_36  # elementwise5_dx: stage 2, partition 0 (group 0)
        dx_39 = dx_37 + dx_38  # elementwise5_dx: stage 2, partition 0 (group 0)
        dx_40 = wdy_p1 - dx_39  # elementwise5_dx: stage 2, partition 0 (group 0)
        dx_41 = dx_40 * x_hat_31_p1  # elementwise5_dx: stage 2, partition 0 (group 0)
        v12 = dx_41.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        v10 = DX_ptr_47_p1  # store0: stage 2, partition 0 (group 0)
        v11 = v10 + cols  # store0: stage 2, partition 0 (group 0)
        gl.store(v11, v12, mask=mask_5)  # store0: stage 2, partition 0 (group 0)
        DX_ptr_47 = DX_ptr_47_p1 + stride_dx  # store0: stage 2, partition 0 (group 0)
        dy_29 = dy_28_p1.to(gl.float32)  # convert2_dy: stage 1, partition 0 (group 0)
        x_24 = x_23_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        x_hat = mean_p1  # elementwise0_x_hat: stage 1, partition 0 (group 0)
        x_hat_30 = x_24 - x_hat  # elementwise0_x_hat: stage 1, partition 0 (group 0)
        x_hat_31 = rstd_p1  # elementwise0_x_hat: stage 1, partition 0 (group 0)
        x_hat_32 = x_hat_30 * x_hat_31  # elementwise0_x_hat: stage 1, partition 0 (group 0)
        dw_row = dy_29 * x_hat_32  # elementwise6_dw_row: stage 1, partition 0 (group 0)
        dw_row_42 = dw_row_42_p1 + dw_row  # elementwise6_dw_row: stage 1, partition 0 (group 0)
        w_26 = w_25_p1.to(gl.float32)  # convert1_w: stage 1, partition 0 (group 0)
        db_row_43 = db_row_43_p1 + dy_29  # elementwise7_db_row: stage 1, partition 0 (group 0)
        wdy = w_26 * dy_29  # elementwise1_wdy: stage 1, partition 0 (group 0)
        c1_33 = x_hat_32 * wdy  # elementwise2_c1: stage 1, partition 0 (group 0)
        DX_ptr_47_p1 = DX_ptr_47
        DY_ptr_48_p2 = DY_ptr_48_p1
        DY_ptr_48_p1 = DY_ptr_48
        Mean_ptr_45_p2 = Mean_ptr_45_p1
        Mean_ptr_45_p1 = Mean_ptr_45
        RSTD_ptr_46_p2 = RSTD_ptr_46_p1
        RSTD_ptr_46_p1 = RSTD_ptr_46
        X_ptr_44_p2 = X_ptr_44_p1
        X_ptr_44_p1 = X_ptr_44
        c1_33_p1 = c1_33
        db_row_43_p2 = db_row_43_p1
        db_row_43_p1 = db_row_43
        dw_row_42_p2 = dw_row_42_p1
        dw_row_42_p1 = dw_row_42
        dy_28_p1 = dy_28
        mean_p1 = mean
        rstd_p1 = rstd
        w_25_p1 = w_25
        wdy_p1 = wdy
        x_23_p1 = x_23
        x_hat_31_p1 = x_hat_31
        x_hat_32_p1 = x_hat_32
        c1_34 = gl.sum(c1_33_p1, axis=0)  # reduce0_c1: stage 2, partition 0 (group 0)
        c1_35 = c1_34 / c1  # elementwise3_c1: stage 2, partition 0 (group 0)
        c2 = gl.sum(wdy_p1, axis=0)  # reduce1_c2: stage 2, partition 0 (group 0)
        c2_36 = c2 / c1  # elementwise4_c2: stage 2, partition 0 (group 0)
        dx = c1_35  # elementwise5_dx: stage 2, partition 0 (group 0)
        dx_37 = x_hat_32_p1 * dx  # elementwise5_dx: stage 2, partition 0 (group 0)
        dx_38 = c2_36  # elementwise5_dx: stage 2, partition 0 (group 0)
        dx_39 = dx_37 + dx_38  # elementwise5_dx: stage 2, partition 0 (group 0)
        dx_40 = wdy_p1 - dx_39  # elementwise5_dx: stage 2, partition 0 (group 0)
        dx_41 = dx_40 * x_hat_31_p1  # elementwise5_dx: stage 2, partition 0 (group 0)
        v12 = dx_41.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        v10 = DX_ptr_47_p1  # store0: stage 2, partition 0 (group 0)
        v11 = v10 + cols  # store0: stage 2, partition 0 (group 0)
        gl.store(v11, v12, mask=mask_5)  # store0: stage 2, partition 0 (group 0)
        DX_ptr_47 = DX_ptr_47_p1 + stride_dx  # store0: stage 2, partition 0 (group 0)
        DX_ptr_47_p1 = DX_ptr_47
        DY_ptr_48_p3 = DY_ptr_48_p2
        DY_ptr_48_p2 = DY_ptr_48_p1
        DY_ptr_48_p1 = DY_ptr_48
        Mean_ptr_45_p3 = Mean_ptr_45_p2
        Mean_ptr_45_p2 = Mean_ptr_45_p1
        Mean_ptr_45_p1 = Mean_ptr_45
        RSTD_ptr_46_p3 = RSTD_ptr_46_p2
        RSTD_ptr_46_p2 = RSTD_ptr_46_p1
        RSTD_ptr_46_p1 = RSTD_ptr_46
        X_ptr_44_p3 = X_ptr_44_p2
        X_ptr_44_p2 = X_ptr_44_p1
        X_ptr_44_p1 = X_ptr_44
        c1_33_p1 = c1_33
        db_row_43_p2 = db_row_43_p1
        db_row_43_p1 = db_row_43
        dw_row_42_p2 = dw_row_42_p1
        dw_row_42_p1 = dw_row_42
        dy_28_p1 = dy_28
        mean_p1 = mean
        rstd_p1 = rstd
        w_25_p1 = w_25
        wdy_p1 = wdy
        x_23_p1 = x_23
        x_hat_31_p1 = x_hat_31
        x_hat_32_p1 = x_hat_32
    else:
        X_ptr_17_w = X_ptr_8
        Mean_ptr_18_w = Mean_ptr_9
        RSTD_ptr_19_w = RSTD_ptr_10
        DX_ptr_20_w = DX_ptr_12
        DY_ptr_21_w = DY_ptr_14
        arg21_w = gl.full([4096], 0.0, gl.float32, layout=L0)
        arg22_w = gl.full([4096], 0.0, gl.float32, layout=L0)
        for db_row_16_w in range(row_start, row_end_2, 1):
            x_22_w = X_ptr_17_w + cols
            x_23_w = gl.load(x_22_w, mask=mask_5, other=0.0)
            x_24_w = x_23_w.to(gl.float32)
            w_25_w = gl.load(w_15, mask=mask_5, other=0.0)
            w_26_w = w_25_w.to(gl.float32)
            dy_27_w = DY_ptr_21_w + cols
            dy_28_w = gl.load(dy_27_w, mask=mask_5, other=0.0)
            dy_29_w = dy_28_w.to(gl.float32)
            mean_w = gl.load(Mean_ptr_18_w)
            rstd_w = gl.load(RSTD_ptr_19_w)
            x_hat_30_w = x_24_w - mean_w
            x_hat_32_w = x_hat_30_w * rstd_w
            wdy_w = w_26_w * dy_29_w
            c1_33_w = x_hat_32_w * wdy_w
            c1_34_w = gl.sum(c1_33_w, axis=0)
            c1_35_w = c1_34_w / c1
            c2_w = gl.sum(wdy_w, axis=0)
            c2_36_w = c2_w / c1
            dx_37_w = x_hat_32_w * c1_35_w
            dx_39_w = dx_37_w + c2_36_w
            dx_40_w = wdy_w - dx_39_w
            dx_41_w = dx_40_w * rstd_w
            v11_w = DX_ptr_20_w + cols
            v12_w = dx_41_w.to(gl.float16)
            gl.store(v11_w, v12_w, mask=mask_5)
            dw_row_w = dy_29_w * x_hat_32_w
            dw_row_42_w = arg21_w + dw_row_w
            db_row_43_w = arg22_w + dy_29_w
            X_ptr_44_w = X_ptr_17_w + stride_x
            Mean_ptr_45_w = Mean_ptr_18_w + 1
            RSTD_ptr_46_w = RSTD_ptr_19_w + 1
            DX_ptr_47_w = DX_ptr_20_w + stride_dx
            DY_ptr_48_w = DY_ptr_21_w + stride_dy
            X_ptr_17_w = X_ptr_44_w
            Mean_ptr_18_w = Mean_ptr_45_w
            RSTD_ptr_19_w = RSTD_ptr_46_w
            DX_ptr_20_w = DX_ptr_47_w
            DY_ptr_21_w = DY_ptr_48_w
            arg21_w = dw_row_42_w
            arg22_w = db_row_43_w
        X_ptr_44_p3 = X_ptr_17_w
        Mean_ptr_45_p3 = Mean_ptr_18_w
        RSTD_ptr_46_p3 = RSTD_ptr_19_w
        DX_ptr_47_p1 = DX_ptr_20_w
        DY_ptr_48_p3 = DY_ptr_21_w
        dw_row_42_p2 = arg21_w
        db_row_43_p2 = arg22_w
    v0 = row_block_id * stride_dw
    v1 = DW_ptr + v0
    v3 = v1 + cols_3
    v4 = gl.convert_layout(dw_row_42_p2, L1)
    gl.store(v3, v4, mask=mask_6)
    v5 = row_block_id * stride_db
    v6 = DB_ptr + v5
    v8 = v6 + cols_3
    v9 = gl.convert_layout(db_row_43_p2, L1)
    gl.store(v8, v9, mask=mask_6)

@gluon.jit
def twill_kernel(X_ptr, W_ptr, Mean_ptr, RSTD_ptr, DX_ptr, DW_ptr, DB_ptr, DY_ptr, stride_x, stride_dx, stride_dw, stride_db, stride_dy, n_rows, n_cols):
    consumer_0(X_ptr, W_ptr, Mean_ptr, RSTD_ptr, DX_ptr, DW_ptr, DB_ptr, DY_ptr, stride_x, stride_dx, stride_dw, stride_db, stride_dy, n_rows, n_cols, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X_ptr', 'W_ptr', 'Mean_ptr', 'RSTD_ptr', 'DX_ptr', 'DW_ptr', 'DB_ptr', 'DY_ptr', 'stride_x', 'stride_dx', 'stride_dw', 'stride_db', 'stride_dy', 'n_rows', 'n_cols', 'rows_per_program', 'BLOCK_SIZE', 'dtype']          # the Triton kernel's parameters, in order
RUNTIME = ['X_ptr', 'W_ptr', 'Mean_ptr', 'RSTD_ptr', 'DX_ptr', 'DW_ptr', 'DB_ptr', 'DY_ptr', 'stride_x', 'stride_dx', 'stride_dw', 'stride_db', 'stride_dy', 'n_rows', 'n_cols']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X_ptr', 'W_ptr', 'Mean_ptr', 'RSTD_ptr', 'DX_ptr', 'DW_ptr', 'DB_ptr', 'DY_ptr', 'stride_x', 'stride_dx', 'stride_dw', 'stride_db', 'stride_dy', 'n_rows', 'n_cols', 'dtype']   # the arguments a launch key reads
CONSTEXPRS = {'rows_per_program': 63, 'BLOCK_SIZE': 4096}         # the specialisation this kernel was generated for
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
