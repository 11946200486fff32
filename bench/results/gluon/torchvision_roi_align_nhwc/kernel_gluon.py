"""roi_align_fwd_nhwc_kernel, written by twill from its joint schedule: I=661 L=661 (optimal), 605 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 22).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 2 warps, registers as ptxas allocates them (the schedule's tiles need about 45 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- if at torchvision_roi_align_nhwc.py:64 (TTGIR line 68): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[2], order=[0]))

@gluon.jit
def consumer_0(feat_ptr, rois_ptr, out_ptr, spatial_scale, H, W, C, sampling_ratio):
    pid = gl.program_id(0)
    pid_c = gl.program_id(1)
    pw = pid % 7
    ph = pid // 7
    ph_5 = ph % 7
    n = pid // 49
    offs_c = pid_c * 64
    offs_c_6 = gl.arange(0, 64, layout=L0)
    offs_c_8 = offs_c + offs_c_6
    mask_c_9 = offs_c_8 < C
    roi = n * 5
    roi_10 = rois_ptr + roi
    batch_idx = gl.load(roi_10)
    batch_idx_11 = gl.cast(batch_idx, gl.int32)
    roi_start_w = roi_10 + 1
    roi_start_w_12 = gl.load(roi_start_w)
    roi_start_w_13 = roi_start_w_12 * spatial_scale
    roi_start_w_14 = roi_start_w_13 - 0.5
    roi_start_h_15 = roi_10 + 2
    roi_start_h_16 = gl.load(roi_start_h_15)
    roi_start_h_17 = roi_start_h_16 * spatial_scale
    roi_start_h_18 = roi_start_h_17 - 0.5
    roi_end_w_19 = roi_10 + 3
    roi_end_w_20 = gl.load(roi_end_w_19)
    roi_end_w_21 = roi_end_w_20 * spatial_scale
    roi_end_w_22 = roi_end_w_21 - 0.5
    roi_end_h_23 = roi_10 + 4
    roi_end_h_24 = gl.load(roi_end_h_23)
    roi_end_h_25 = roi_end_h_24 * spatial_scale
    roi_end_h_26 = roi_end_h_25 - 0.5
    roi_width = roi_end_w_22 - roi_start_w_14
    roi_height = roi_end_h_26 - roi_start_h_18
    bin_size_h = roi_height / 7.0
    bin_size_w = roi_width / 7.0
    v0 = sampling_ratio > 0
    if v0:
        v1_r0 = sampling_ratio
        v1_r1 = sampling_ratio
    else:
        roi_bin_grid_h = gl.ceil(bin_size_h)
        roi_bin_grid_h_49 = gl.cast(roi_bin_grid_h, gl.int32)
        roi_bin_grid_w_50 = gl.ceil(bin_size_w)
        roi_bin_grid_w_51 = gl.cast(roi_bin_grid_w_50, gl.int32)
        v1_r0 = roi_bin_grid_h_49
        v1_r1 = roi_bin_grid_w_51
    count = v1_r0 * v1_r1
    count_27 = gl.maximum(count, 1)
    base = gl.cast(batch_idx_11, gl.int64)
    base_28 = gl.cast(H, gl.int64)
    base_29 = base * base_28
    base_30 = gl.cast(W, gl.int64)
    base_31 = base_29 * base_30
    base_32 = gl.cast(C, gl.int64)
    base_33 = base_31 * base_32
    base_34 = feat_ptr + base_33
    base_36 = base_34 + offs_c_8
    y = gl.cast(ph_5, gl.float32)
    y_37 = y * bin_size_h
    y_38 = roi_start_h_18 + y_37
    y_39 = gl.cast(v1_r0, gl.float32)
    x = gl.cast(pw, gl.float32)
    x_40 = x * bin_size_w
    x_41 = roi_start_w_14 + x_40
    x_42 = gl.cast(v1_r1, gl.float32)
    valid = gl.cast(H, gl.float32)
    valid_43 = gl.cast(W, gl.float32)
    y_edge = H - 1
    x_edge = W - 1
    twill_flat0_no_ = gl.maximum(v1_r0, 0)
    twill_flat0_ni_ = gl.maximum(v1_r1, 0)
    twill_flat0_n_ = twill_flat0_no_ * twill_flat0_ni_
    twill_n = (twill_flat0_n_ - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        acc_118 = gl.full([64], 0.0, gl.float32, layout=L0)
        iy = (0 + (0 - 0) * 1) // twill_flat0_ni_  # elementwise0_acc: stage 0, partition 0 (group 0)
        y_50 = gl.cast(iy, gl.float32)  # elementwise0_acc: stage 0, partition 0 (group 0)
        y_51 = y_50 + 0.5  # elementwise0_acc: stage 0, partition 0 (group 0)
        y_52 = y_51 * bin_size_h  # elementwise0_acc: stage 0, partition 0 (group 0)
        ix = (0 + (0 - 0) * 1) % twill_flat0_ni_  # elementwise0_acc: stage 0, partition 0 (group 0)
        y_53 = y_52 / y_39  # elementwise0_acc: stage 0, partition 0 (group 0)
        x_65 = gl.cast(ix, gl.float32)  # elementwise0_acc: stage 0, partition 0 (group 0)
        x_66 = x_65 + 0.5  # elementwise0_acc: stage 0, partition 0 (group 0)
        y_54 = y_38 + y_53  # elementwise0_acc: stage 0, partition 0 (group 0)
        x_67 = x_66 * bin_size_w  # elementwise0_acc: stage 0, partition 0 (group 0)
        yc = gl.maximum(y_54, 0.0)  # load0_v3: stage 0, partition 0 (group 0)
        x_68 = x_67 / x_42  # elementwise0_acc: stage 0, partition 0 (group 0)
        y_low = gl.cast(yc, gl.int32)  # load0_v3: stage 0, partition 0 (group 0)
        x_69 = x_41 + x_68  # elementwise0_acc: stage 0, partition 0 (group 0)
        y_edge_58 = y_low >= y_edge  # load0_v3: stage 0, partition 0 (group 0)
        xc = gl.maximum(x_69, 0.0)  # load2_v2: stage 0, partition 0 (group 0)
        x_low = gl.cast(xc, gl.int32)  # load2_v2: stage 0, partition 0 (group 0)
        y_low_59 = gl.where(y_edge_58, y_edge, y_low)  # load0_v3: stage 0, partition 0 (group 0)
        x_edge_74 = x_low >= x_edge  # load2_v2: stage 0, partition 0 (group 0)
        v1_u = y_low_59 * W  # load1_v1: stage 0, partition 0 (group 0)
        x_low_75 = gl.where(x_edge_74, x_edge, x_low)  # load2_v2: stage 0, partition 0 (group 0)
        v1_81 = v1_u + x_low_75  # load1_v1: stage 0, partition 0 (group 0)
        v1_82 = v1_81 * C  # load1_v1: stage 0, partition 0 (group 0)
        v1_83 = v1_82  # load1_v1: stage 0, partition 0 (group 0)
        v1_84 = base_36 + v1_83  # load1_v1: stage 0, partition 0 (group 0)
        v1_85 = gl.load(v1_84, mask=mask_c_9, other=0.0)  # load1_v1: stage 0, partition 0 (group 0)
        x_high = x_low_75 + 1  # load2_v2: stage 0, partition 0 (group 0)
        x_high_76 = gl.where(x_edge_74, x_edge, x_high)  # load2_v2: stage 0, partition 0 (group 0)
        v2_u = v1_u + x_high_76  # load2_v2: stage 0, partition 0 (group 0)
        v2_87 = v2_u * C  # load2_v2: stage 0, partition 0 (group 0)
        v2_88 = v2_87  # load2_v2: stage 0, partition 0 (group 0)
        v2_89 = base_36 + v2_88  # load2_v2: stage 0, partition 0 (group 0)
        v2_90 = gl.load(v2_89, mask=mask_c_9, other=0.0)  # load2_v2: stage 0, partition 0 (group 0)
        y_high = y_low_59 + 1  # load0_v3: stage 0, partition 0 (group 0)
        y_high_60 = gl.where(y_edge_58, y_edge, y_high)  # load0_v3: stage 0, partition 0 (group 0)
        v3_u = y_high_60 * W  # load0_v3: stage 0, partition 0 (group 0)
        v3_92 = v3_u + x_low_75  # load0_v3: stage 0, partition 0 (group 0)
        v3_93 = v3_92 * C  # load0_v3: stage 0, partition 0 (group 0)
        v3_94 = v3_93  # load0_v3: stage 0, partition 0 (group 0)
        v3_95 = base_36 + v3_94  # load0_v3: stage 0, partition 0 (group 0)
        v3_96 = gl.load(v3_95, mask=mask_c_9, other=0.0)  # load0_v3: stage 0, partition 0 (group 0)
        v4_u = v3_u + x_high_76  # load3_v4: stage 0, partition 0 (group 0)
        v4_98 = v4_u * C  # load3_v4: stage 0, partition 0 (group 0)
        v4_99 = v4_98  # load3_v4: stage 0, partition 0 (group 0)
        v4_100 = base_36 + v4_99  # load3_v4: stage 0, partition 0 (group 0)
        v4_101 = gl.load(v4_100, mask=mask_c_9, other=0.0)  # load3_v4: stage 0, partition 0 (group 0)
        acc_118_p1 = acc_118
        v1_85_p1 = v1_85
        v2_90_p1 = v2_90
        v3_96_p1 = v3_96
        v4_101_p1 = v4_101
        x_69_p1 = x_69
        x_edge_74_p1 = x_edge_74
        x_low_75_p1 = x_low_75
        xc_p1 = xc
        y_54_p1 = y_54
        y_edge_58_p1 = y_edge_58
        y_low_59_p1 = y_low_59
        yc_p1 = yc
        for twill_b in range(1, twill_n):
            v2_91 = v2_90_p1.to(gl.float32)  # convert1_v2: stage 1, partition 0 (group 0)
            iy = (0 + (twill_b - 0) * 1) // twill_flat0_ni_  # elementwise0_acc: stage 0, partition 0 (group 0)
            y_50 = gl.cast(iy, gl.float32)  # elementwise0_acc: stage 0, partition 0 (group 0)
            y_51 = y_50 + 0.5  # elementwise0_acc: stage 0, partition 0 (group 0)
            y_52 = y_51 * bin_size_h  # elementwise0_acc: stage 0, partition 0 (group 0)
            ix = (0 + (twill_b - 0) * 1) % twill_flat0_ni_  # elementwise0_acc: stage 0, partition 0 (group 0)
            y_53 = y_52 / y_39  # elementwise0_acc: stage 0, partition 0 (group 0)
            x_65 = gl.cast(ix, gl.float32)  # elementwise0_acc: stage 0, partition 0 (group 0)
            x_66 = x_65 + 0.5  # elementwise0_acc: stage 0, partition 0 (group 0)
            y_54 = y_38 + y_53  # elementwise0_acc: stage 0, partition 0 (group 0)
            x_67 = x_66 * bin_size_w  # elementwise0_acc: stage 0, partition 0 (group 0)
            yc = gl.maximum(y_54, 0.0)  # load0_v3: stage 0, partition 0 (group 0)
            x_68 = x_67 / x_42  # elementwise0_acc: stage 0, partition 0 (group 0)
            y_low = gl.cast(yc, gl.int32)  # load0_v3: stage 0, partition 0 (group 0)
            x_69 = x_41 + x_68  # elementwise0_acc: stage 0, partition 0 (group 0)
            y_edge_58 = y_low >= y_edge  # load0_v3: stage 0, partition 0 (group 0)
            xc = gl.maximum(x_69, 0.0)  # load2_v2: stage 0, partition 0 (group 0)
            x_low = gl.cast(xc, gl.int32)  # load2_v2: stage 0, partition 0 (group 0)
            y_low_59 = gl.where(y_edge_58, y_edge, y_low)  # load0_v3: stage 0, partition 0 (group 0)
            x_edge_74 = x_low >= x_edge  # load2_v2: stage 0, partition 0 (group 0)
            v1_u = y_low_59 * W  # load1_v1: stage 0, partition 0 (group 0)
            x_low_75 = gl.where(x_edge_74, x_edge, x_low)  # load2_v2: stage 0, partition 0 (group 0)
            v1_81 = v1_u + x_low_75  # load1_v1: stage 0, partition 0 (group 0)
            v1_82 = v1_81 * C  # load1_v1: stage 0, partition 0 (group 0)
            v1_83 = v1_82  # load1_v1: stage 0, partition 0 (group 0)
            v1_84 = base_36 + v1_83  # load1_v1: stage 0, partition 0 (group 0)
            v1_85 = gl.load(v1_84, mask=mask_c_9, other=0.0)  # load1_v1: stage 0, partition 0 (group 0)
            v1_86 = v1_85_p1.to(gl.float32)  # convert0_v1: stage 1, partition 0 (group 0)
            x_high = x_low_75 + 1  # load2_v2: stage 0, partition 0 (group 0)
            x_high_76 = gl.where(x_edge_74, x_edge, x_high)  # load2_v2: stage 0, partition 0 (group 0)
            v2_u = v1_u + x_high_76  # load2_v2: stage 0, partition 0 (group 0)
            v2_87 = v2_u * C  # load2_v2: stage 0, partition 0 (group 0)
            v2_88 = v2_87  # load2_v2: stage 0, partition 0 (group 0)
            v2_89 = base_36 + v2_88  # load2_v2: stage 0, partition 0 (group 0)
            v2_90 = gl.load(v2_89, mask=mask_c_9, other=0.0)  # load2_v2: stage 0, partition 0 (group 0)
            y_high = y_low_59 + 1  # load0_v3: stage 0, partition 0 (group 0)
            y_high_60 = gl.where(y_edge_58, y_edge, y_high)  # load0_v3: stage 0, partition 0 (group 0)
            v3_u = y_high_60 * W  # load0_v3: stage 0, partition 0 (group 0)
            v3_92 = v3_u + x_low_75  # load0_v3: stage 0, partition 0 (group 0)
            v3_93 = v3_92 * C  # load0_v3: stage 0, partition 0 (group 0)
            v3_94 = v3_93  # load0_v3: stage 0, partition 0 (group 0)
            v3_95 = base_36 + v3_94  # load0_v3: stage 0, partition 0 (group 0)
            v3_96 = gl.load(v3_95, mask=mask_c_9, other=0.0)  # load0_v3: stage 0, partition 0 (group 0)
            v3_97 = v3_96_p1.to(gl.float32)  # convert2_v3: stage 1, partition 0 (group 0)
            v4_u = v3_u + x_high_76  # load3_v4: stage 0, partition 0 (group 0)
            v4_98 = v4_u * C  # load3_v4: stage 0, partition 0 (group 0)
            v4_99 = v4_98  # load3_v4: stage 0, partition 0 (group 0)
            v4_100 = base_36 + v4_99  # load3_v4: stage 0, partition 0 (group 0)
            v4_101 = gl.load(v4_100, mask=mask_c_9, other=0.0)  # load3_v4: stage 0, partition 0 (group 0)
            v4_102 = v4_101_p1.to(gl.float32)  # convert3_v4: stage 1, partition 0 (group 0)
            valid_55 = y_54_p1 >= -1.0  # elementwise0_acc: stage 1, partition 0 (group 0)
            valid_56 = y_54_p1 <= valid  # elementwise0_acc: stage 1, partition 0 (group 0)
            valid_57 = valid_55 & valid_56  # elementwise0_acc: stage 1, partition 0 (group 0)
            yc_61 = gl.cast(y_low_59_p1, gl.float32)  # elementwise0_acc: stage 1, partition 0 (group 0)
            yc_62 = gl.where(y_edge_58_p1, yc_61, yc_p1)  # elementwise0_acc: stage 1, partition 0 (group 0)
            ly = yc_62 - yc_61  # elementwise0_acc: stage 1, partition 0 (group 0)
            hy = 1.0 - ly  # elementwise0_acc: stage 1, partition 0 (group 0)
            valid_70 = x_69_p1 >= -1.0  # elementwise0_acc: stage 1, partition 0 (group 0)
            valid_71 = valid_57 & valid_70  # elementwise0_acc: stage 1, partition 0 (group 0)
            valid_72 = x_69_p1 <= valid_43  # elementwise0_acc: stage 1, partition 0 (group 0)
            valid_73 = valid_71 & valid_72  # elementwise0_acc: stage 1, partition 0 (group 0)
            xc_77 = gl.cast(x_low_75_p1, gl.float32)  # elementwise0_acc: stage 1, partition 0 (group 0)
            xc_78 = gl.where(x_edge_74_p1, xc_77, xc_p1)  # elementwise0_acc: stage 1, partition 0 (group 0)
            lx = xc_78 - xc_77  # elementwise0_acc: stage 1, partition 0 (group 0)
            hx = 1.0 - lx  # elementwise0_acc: stage 1, partition 0 (group 0)
            ly_79 = gl.where(valid_73, ly, 0.0)  # elementwise0_acc: stage 1, partition 0 (group 0)
            hy_80 = gl.where(valid_73, hy, 0.0)  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_103 = hy_80 * hx  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_104 = acc_103  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_105 = acc_104 * v1_86  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_106 = hy_80 * lx  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_107 = acc_106  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_108 = acc_107 * v2_91  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_109 = acc_105 + acc_108  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_110 = ly_79 * hx  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_111 = acc_110  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_112 = acc_111 * v3_97  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_113 = acc_109 + acc_112  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_114 = ly_79 * lx  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_115 = acc_114  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_116 = acc_115 * v4_102  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_117 = acc_113 + acc_116  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_118 = acc_118_p1 + acc_117  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_118_p1 = acc_118
            v1_85_p1 = v1_85
            v2_90_p1 = v2_90
            v3_96_p1 = v3_96
            v4_101_p1 = v4_101
            x_69_p1 = x_69
            x_edge_74_p1 = x_edge_74
            x_low_75_p1 = x_low_75
            xc_p1 = xc
            y_54_p1 = y_54
            y_edge_58_p1 = y_edge_58
            y_low_59_p1 = y_low_59
            yc_p1 = yc
        v2_91 = v2_90_p1.to(gl.float32)  # convert1_v2: stage 1, partition 0 (group 0)
        v1_86 = v1_85_p1.to(gl.float32)  # convert0_v1: stage 1, partition 0 (group 0)
        v3_97 = v3_96_p1.to(gl.float32)  # convert2_v3: stage 1, partition 0 (group 0)
        v4_102 = v4_101_p1.to(gl.float32)  # convert3_v4: stage 1, partition 0 (group 0)
        valid_55 = y_54_p1 >= -1.0  # elementwise0_acc: stage 1, partition 0 (group 0)
        valid_56 = y_54_p1 <= valid  # elementwise0_acc: stage 1, partition 0 (group 0)
        valid_57 = valid_55 & valid_56  # elementwise0_acc: stage 1, partition 0 (group 0)
        yc_61 = gl.cast(y_low_59_p1, gl.float32)  # elementwise0_acc: stage 1, partition 0 (group 0)
        yc_62 = gl.where(y_edge_58_p1, yc_61, yc_p1)  # elementwise0_acc: stage 1, partition 0 (group 0)
        ly = yc_62 - yc_61  # elementwise0_acc: stage 1, partition 0 (group 0)
        hy = 1.0 - ly  # elementwise0_acc: stage 1, partition 0 (group 0)
        valid_70 = x_69_p1 >= -1.0  # elementwise0_acc: stage 1, partition 0 (group 0)
        valid_71 = valid_57 & valid_70  # elementwise0_acc: stage 1, partition 0 (group 0)
        valid_72 = x_69_p1 <= valid_43  # elementwise0_acc: stage 1, partition 0 (group 0)
        valid_73 = valid_71 & valid_72  # elementwise0_acc: stage 1, partition 0 (group 0)
        xc_77 = gl.cast(x_low_75_p1, gl.float32)  # elementwise0_acc: stage 1, partition 0 (group 0)
        xc_78 = gl.where(x_edge_74_p1, xc_77, xc_p1)  # elementwise0_acc: stage 1, partition 0 (group 0)
        lx = xc_78 - xc_77  # elementwise0_acc: stage 1, partition 0 (group 0)
        hx = 1.0 - lx  # elementwise0_acc: stage 1, partition 0 (group 0)
        ly_79 = gl.where(valid_73, ly, 0.0)  # elementwise0_acc: stage 1, partition 0 (group 0)
        hy_80 = gl.where(valid_73, hy, 0.0)  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_103 = hy_80 * hx  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_104 = acc_103  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_105 = acc_104 * v1_86  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_106 = hy_80 * lx  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_107 = acc_106  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_108 = acc_107 * v2_91  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_109 = acc_105 + acc_108  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_110 = ly_79 * hx  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_111 = acc_110  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_112 = acc_111 * v3_97  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_113 = acc_109 + acc_112  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_114 = ly_79 * lx  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_115 = acc_114  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_116 = acc_115 * v4_102  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_117 = acc_113 + acc_116  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_118 = acc_118_p1 + acc_117  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_118_p1 = acc_118
        v1_85_p1 = v1_85
        v2_90_p1 = v2_90
        v3_96_p1 = v3_96
        v4_101_p1 = v4_101
        x_69_p1 = x_69
        x_edge_74_p1 = x_edge_74
        x_low_75_p1 = x_low_75
        xc_p1 = xc
        y_54_p1 = y_54
        y_edge_58_p1 = y_edge_58
        y_low_59_p1 = y_low_59
        yc_p1 = yc
    else:
        acc_118_p1 = gl.full([64], 0.0, gl.float32, layout=L0)
    out = gl.cast(pid, gl.int64)
    out_45 = out * base_32
    out_46 = out_ptr + out_45
    out_48 = out_46 + offs_c_8
    v2 = gl.cast(count_27, gl.float32)
    v4 = acc_118_p1 / v2
    v5 = v4.to(gl.float16)
    gl.store(out_48, v5, mask=mask_c_9)

@gluon.jit
def twill_kernel(feat_ptr, rois_ptr, out_ptr, spatial_scale, H, W, C, sampling_ratio):
    consumer_0(feat_ptr, rois_ptr, out_ptr, spatial_scale, H, W, C, sampling_ratio, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['feat_ptr', 'rois_ptr', 'out_ptr', 'spatial_scale', 'H', 'W', 'C', 'sampling_ratio', 'POOLED_H', 'POOLED_W', 'BLOCK_C', 'ALIGNED']          # the Triton kernel's parameters, in order
RUNTIME = ['feat_ptr', 'rois_ptr', 'out_ptr', 'spatial_scale', 'H', 'W', 'C', 'sampling_ratio']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['feat_ptr', 'rois_ptr', 'out_ptr', 'spatial_scale', 'H', 'W', 'C', 'sampling_ratio']   # the arguments a launch key reads
CONSTEXPRS = {'POOLED_H': 7, 'POOLED_W': 7, 'BLOCK_C': 64, 'ALIGNED': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 2
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
