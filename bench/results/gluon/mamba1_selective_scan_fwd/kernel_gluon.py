"""_selective_scan_fwd_kernel, written by twill from its joint schedule: I=88 L=349 (feasible), 605 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 88).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 5 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 94 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(u_ptr, delta_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, delta_bias_ptr, out_ptr, last_state_ptr, dim, dstate, seqlen, stride_u_batch, stride_u_dim, stride_A_dim, stride_B_batch, stride_B_dstate, stride_state_batch, stride_state_dim):
    pid_d = gl.program_id(0)
    pid_b = gl.program_id(1)
    offs_d = pid_d * 64
    offs_d_5 = gl.arange(0, 64, layout=L0)
    offs_d_6 = gl.arange(0, 64, layout=L1)
    offs_d_9 = offs_d + offs_d_5
    offs_d_10 = offs_d + offs_d_6
    offs_n = gl.arange(0, 16, layout=L2)
    mask_d_12 = offs_d_9 < dim
    mask_d_13 = offs_d_10 < dim
    mask_n_14 = offs_n < dstate
    u_ptr_15 = pid_b * stride_u_batch
    u_ptr_18 = offs_d_9 * stride_u_dim
    u_ptr_19 = offs_d_10 * stride_u_dim
    u_ptr_22 = u_ptr_15 + u_ptr_18
    u_ptr_23 = u_ptr_15 + u_ptr_19
    u_ptr_25 = u_ptr + u_ptr_22
    delta_ptr_27 = delta_ptr + u_ptr_22
    z_ptr_29 = z_ptr + u_ptr_22
    out_ptr_31 = out_ptr + u_ptr_23
    B_ptr_32 = pid_b * stride_B_batch
    B_ptr_34 = offs_n * stride_B_dstate
    B_ptr_36 = B_ptr_32 + B_ptr_34
    B_ptr_38 = B_ptr + B_ptr_36
    C_ptr_40 = C_ptr + B_ptr_36
    A = gl.expand_dims(mask_d_12, 1)
    A_41 = gl.expand_dims(mask_n_14, 0)
    A_42 = A.broadcast_to([64, 16])
    A_43 = A_41.broadcast_to([64, 16])
    A_44 = A_42 & A_43
    A_45 = gl.expand_dims(offs_d_9, 1)
    A_47 = A_45 * stride_A_dim
    A_49 = A_ptr + A_47
    A_50 = gl.expand_dims(offs_n, 0)
    A_51 = A_49.broadcast_to([64, 16])
    A_52 = A_50.broadcast_to([64, 16])
    A_53 = A_51 + A_52
    A_54 = gl.load(A_53, mask=A_44, other=0.0)
    D_55 = D_ptr + offs_d_9
    D_56 = gl.load(D_55, mask=mask_d_12, other=0.0)
    dt_bias_57 = delta_bias_ptr + offs_d_9
    dt_bias_58 = gl.load(dt_bias_57, mask=mask_d_12, other=0.0)
    twill_n = (seqlen - 0 + 1 - 1) // 1
    if (twill_n >= 4) | (gl.program_id(0) < 0):
        C = C_ptr_40 + (0 + (0 - 0) * 1)  # load3_C: stage 0, partition 0 (group 0)
        C_82 = gl.load(C, mask=mask_n_14, other=0.0)  # load3_C: stage 0, partition 0 (group 0)
        z = z_ptr_29 + (0 + (0 - 0) * 1)  # load4_z: stage 0, partition 0 (group 0)
        z_99 = gl.load(z, mask=mask_d_12, other=0.0)  # load4_z: stage 0, partition 0 (group 0)
        dt = delta_ptr_27 + (0 + (0 - 0) * 1)  # load1_dt: stage 0, partition 0 (group 0)
        dt_71 = gl.load(dt, mask=mask_d_12, other=0.0)  # load1_dt: stage 0, partition 0 (group 0)
        u_68 = u_ptr_25 + (0 + (0 - 0) * 1)  # load0_u: stage 0, partition 0 (group 0)
        u_69 = gl.load(u_68, mask=mask_d_12, other=0.0)  # load0_u: stage 0, partition 0 (group 0)
        B_79 = B_ptr_38 + (0 + (0 - 0) * 1)  # load2_B: stage 0, partition 0 (group 0)
        B_80 = gl.load(B_79, mask=mask_n_14, other=0.0)  # load2_B: stage 0, partition 0 (group 0)
        B_80_p1 = B_80
        C_82_p1 = C_82
        dt_71_p1 = dt_71
        u_69_p1 = u_69
        z_99_p1 = z_99
        C = C_ptr_40 + (0 + (1 - 0) * 1)  # load3_C: stage 0, partition 0 (group 0)
        C_82 = gl.load(C, mask=mask_n_14, other=0.0)  # load3_C: stage 0, partition 0 (group 0)
        z = z_ptr_29 + (0 + (1 - 0) * 1)  # load4_z: stage 0, partition 0 (group 0)
        z_99 = gl.load(z, mask=mask_d_12, other=0.0)  # load4_z: stage 0, partition 0 (group 0)
        dt = delta_ptr_27 + (0 + (1 - 0) * 1)  # load1_dt: stage 0, partition 0 (group 0)
        dt_71 = gl.load(dt, mask=mask_d_12, other=0.0)  # load1_dt: stage 0, partition 0 (group 0)
        dt_72 = dt_71_p1.to(gl.float32)  # convert1_dt: stage 1, partition 0 (group 0)
        dt_73 = dt_72 + dt_bias_58  # elementwise0_dt: stage 1, partition 0 (group 0)
        dt_75 = gl.exp(dt_73)  # sfu0_dt: stage 1, partition 0 (group 0)
        dt_76 = dt_75 + 1.0  # sfu1_dt: stage 1, partition 0 (group 0)
        dt_77 = gl.log(dt_76)  # sfu1_dt: stage 1, partition 0 (group 0)
        u_68 = u_ptr_25 + (0 + (1 - 0) * 1)  # load0_u: stage 0, partition 0 (group 0)
        u_69 = gl.load(u_68, mask=mask_d_12, other=0.0)  # load0_u: stage 0, partition 0 (group 0)
        u_70 = u_69_p1.to(gl.float32)  # convert0_u: stage 1, partition 0 (group 0)
        dt_74 = dt_73 <= 20.0  # elementwise1_dt: stage 1, partition 0 (group 0)
        dt_78 = gl.where(dt_74, dt_77, dt_73)  # elementwise1_dt: stage 1, partition 0 (group 0)
        B_79 = B_ptr_38 + (0 + (1 - 0) * 1)  # load2_B: stage 0, partition 0 (group 0)
        B_80 = gl.load(B_79, mask=mask_n_14, other=0.0)  # load2_B: stage 0, partition 0 (group 0)
        B_81 = B_80_p1.to(gl.float32)  # convert2_B: stage 1, partition 0 (group 0)
        B_80_p1 = B_80
        B_81_p1 = B_81
        C_82_p2 = C_82_p1
        C_82_p1 = C_82
        dt_71_p1 = dt_71
        dt_78_p1 = dt_78
        u_69_p1 = u_69
        u_70_p1 = u_70
        z_99_p2 = z_99_p1
        z_99_p1 = z_99
        h_93 = gl.full([64, 16], 0.0, gl.float32, layout=L3)
        C = C_ptr_40 + (0 + (2 - 0) * 1)  # load3_C: stage 0, partition 0 (group 0)
        C_82 = gl.load(C, mask=mask_n_14, other=0.0)  # load3_C: stage 0, partition 0 (group 0)
        C_83 = C_82_p2.to(gl.float32)  # convert3_C: stage 2, partition 0 (group 0)
        z = z_ptr_29 + (0 + (2 - 0) * 1)  # load4_z: stage 0, partition 0 (group 0)
        z_99 = gl.load(z, mask=mask_d_12, other=0.0)  # load4_z: stage 0, partition 0 (group 0)
        z_100 = z_99_p2.to(gl.float32)  # convert4_z: stage 2, partition 0 (group 0)
        dt = delta_ptr_27 + (0 + (2 - 0) * 1)  # load1_dt: stage 0, partition 0 (group 0)
        dt_71 = gl.load(dt, mask=mask_d_12, other=0.0)  # load1_dt: stage 0, partition 0 (group 0)
        dt_72 = dt_71_p1.to(gl.float32)  # convert1_dt: stage 1, partition 0 (group 0)
        dt_73 = dt_72 + dt_bias_58  # elementwise0_dt: stage 1, partition 0 (group 0)
        y_101 = 0.0 - z_100  # sfu3_y: stage 2, partition 0 (group 0)
        y_102 = gl.exp(y_101)  # sfu3_y: stage 2, partition 0 (group 0)
        dA = gl.expand_dims(dt_78_p1, 1)  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_84 = dA.broadcast_to([64, 16])  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_85 = A_54 * dA_84  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_86 = gl.exp(dA_85)  # sfu2_dA: stage 2, partition 0 (group 0)
        dt_75 = gl.exp(dt_73)  # sfu0_dt: stage 1, partition 0 (group 0)
        dt_76 = dt_75 + 1.0  # sfu1_dt: stage 1, partition 0 (group 0)
        dt_77 = gl.log(dt_76)  # sfu1_dt: stage 1, partition 0 (group 0)
        u_68 = u_ptr_25 + (0 + (2 - 0) * 1)  # load0_u: stage 0, partition 0 (group 0)
        u_69 = gl.load(u_68, mask=mask_d_12, other=0.0)  # load0_u: stage 0, partition 0 (group 0)
        u_70 = u_69_p1.to(gl.float32)  # convert0_u: stage 1, partition 0 (group 0)
        dt_74 = dt_73 <= 20.0  # elementwise1_dt: stage 1, partition 0 (group 0)
        dt_78 = gl.where(dt_74, dt_77, dt_73)  # elementwise1_dt: stage 1, partition 0 (group 0)
        B_79 = B_ptr_38 + (0 + (2 - 0) * 1)  # load2_B: stage 0, partition 0 (group 0)
        B_80 = gl.load(B_79, mask=mask_n_14, other=0.0)  # load2_B: stage 0, partition 0 (group 0)
        B_81 = B_80_p1.to(gl.float32)  # convert2_B: stage 1, partition 0 (group 0)
        B_80_p1 = B_80
        B_81_p2 = B_81_p1
        B_81_p1 = B_81
        C_82_p2 = C_82_p1
        C_82_p1 = C_82
        C_83_p1 = C_83
        dA_84_p1 = dA_84
        dA_86_p1 = dA_86
        dt_71_p1 = dt_71
        dt_78_p1 = dt_78
        h_93_p1 = h_93
        u_69_p1 = u_69
        u_70_p2 = u_70_p1
        u_70_p1 = u_70
        y_102_p1 = y_102
        z_100_p1 = z_100
        z_99_p2 = z_99_p1
        z_99_p1 = z_99
        C = C_ptr_40 + (0 + (3 - 0) * 1)  # load3_C: stage 0, partition 0 (group 0)
        C_82 = gl.load(C, mask=mask_n_14, other=0.0)  # load3_C: stage 0, partition 0 (group 0)
        C_83 = C_82_p2.to(gl.float32)  # convert3_C: stage 2, partition 0 (group 0)
        z = z_ptr_29 + (0 + (3 - 0) * 1)  # load4_z: stage 0, partition 0 (group 0)
        z_99 = gl.load(z, mask=mask_d_12, other=0.0)  # load4_z: stage 0, partition 0 (group 0)
        z_100 = z_99_p2.to(gl.float32)  # convert4_z: stage 2, partition 0 (group 0)
        dt = delta_ptr_27 + (0 + (3 - 0) * 1)  # load1_dt: stage 0, partition 0 (group 0)
        dt_71 = gl.load(dt, mask=mask_d_12, other=0.0)  # load1_dt: stage 0, partition 0 (group 0)
        dt_72 = dt_71_p1.to(gl.float32)  # convert1_dt: stage 1, partition 0 (group 0)
        dt_73 = dt_72 + dt_bias_58  # elementwise0_dt: stage 1, partition 0 (group 0)
        y_101 = 0.0 - z_100  # sfu3_y: stage 2, partition 0 (group 0)
        y_102 = gl.exp(y_101)  # sfu3_y: stage 2, partition 0 (group 0)
        dA = gl.expand_dims(dt_78_p1, 1)  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_84 = dA.broadcast_to([64, 16])  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_85 = A_54 * dA_84  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_86 = gl.exp(dA_85)  # sfu2_dA: stage 2, partition 0 (group 0)
        dt_75 = gl.exp(dt_73)  # sfu0_dt: stage 1, partition 0 (group 0)
        dB = gl.expand_dims(B_81_p2, 0)  # elementwise2_dB: stage 3, partition 0 (group 0)
        dB_87 = dB.broadcast_to([64, 16])  # elementwise2_dB: stage 3, partition 0 (group 0)
        dB_88 = dB_87 * dA_84_p1  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_89 = h_93_p1 * dA_86_p1  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_90 = gl.expand_dims(u_70_p2, 1)  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_91 = h_90.broadcast_to([64, 16])  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_92 = dB_88 * h_91  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_93 = h_89 + h_92  # elementwise2_dB: stage 3, partition 0 (group 0)
        y = gl.expand_dims(C_83_p1, 0)  # elementwise3_y: stage 3, partition 0 (group 0)
        y_94 = y.broadcast_to([64, 16])  # elementwise3_y: stage 3, partition 0 (group 0)
        y_95 = h_93 * y_94  # elementwise3_y: stage 3, partition 0 (group 0)
        dt_76 = dt_75 + 1.0  # sfu1_dt: stage 1, partition 0 (group 0)
        dt_77 = gl.log(dt_76)  # sfu1_dt: stage 1, partition 0 (group 0)
        u_68 = u_ptr_25 + (0 + (3 - 0) * 1)  # load0_u: stage 0, partition 0 (group 0)
        u_69 = gl.load(u_68, mask=mask_d_12, other=0.0)  # load0_u: stage 0, partition 0 (group 0)
        u_70 = u_69_p1.to(gl.float32)  # convert0_u: stage 1, partition 0 (group 0)
        dt_74 = dt_73 <= 20.0  # elementwise1_dt: stage 1, partition 0 (group 0)
        dt_78 = gl.where(dt_74, dt_77, dt_73)  # elementwise1_dt: stage 1, partition 0 (group 0)
        B_79 = B_ptr_38 + (0 + (3 - 0) * 1)  # load2_B: stage 0, partition 0 (group 0)
        B_80 = gl.load(B_79, mask=mask_n_14, other=0.0)  # load2_B: stage 0, partition 0 (group 0)
        B_81 = B_80_p1.to(gl.float32)  # convert2_B: stage 1, partition 0 (group 0)
        B_80_p1 = B_80
        B_81_p2 = B_81_p1
        B_81_p1 = B_81
        C_82_p2 = C_82_p1
        C_82_p1 = C_82
        C_83_p1 = C_83
        dA_84_p1 = dA_84
        dA_86_p1 = dA_86
        dt_71_p1 = dt_71
        dt_78_p1 = dt_78
        h_93_p1 = h_93
        u_69_p1 = u_69
        u_70_p3 = u_70_p2
        u_70_p2 = u_70_p1
        u_70_p1 = u_70
        y_102_p2 = y_102_p1
        y_102_p1 = y_102
        y_95_p1 = y_95
        z_100_p2 = z_100_p1
        z_100_p1 = z_100
        z_99_p2 = z_99_p1
        z_99_p1 = z_99
        for twill_b in range(4, twill_n):
            B = (0 + (twill_b - 0) * 1)  # load2_B: stage 0, partition 0 (group 0)
            C = C_ptr_40 + B  # load3_C: stage 0, partition 0 (group 0)
            C_82 = gl.load(C, mask=mask_n_14, other=0.0)  # load3_C: stage 0, partition 0 (group 0)
            C_83 = C_82_p2.to(gl.float32)  # convert3_C: stage 2, partition 0 (group 0)
            u = (0 + (twill_b - 0) * 1)  # load0_u: stage 0, partition 0 (group 0)
            z = z_ptr_29 + u  # load4_z: stage 0, partition 0 (group 0)
            z_99 = gl.load(z, mask=mask_d_12, other=0.0)  # load4_z: stage 0, partition 0 (group 0)
            z_100 = z_99_p2.to(gl.float32)  # convert4_z: stage 2, partition 0 (group 0)
            dt = delta_ptr_27 + u  # load1_dt: stage 0, partition 0 (group 0)
            dt_71 = gl.load(dt, mask=mask_d_12, other=0.0)  # load1_dt: stage 0, partition 0 (group 0)
            dt_72 = dt_71_p1.to(gl.float32)  # convert1_dt: stage 1, partition 0 (group 0)
            dt_73 = dt_72 + dt_bias_58  # elementwise0_dt: stage 1, partition 0 (group 0)
            y_101 = 0.0 - z_100  # sfu3_y: stage 2, partition 0 (group 0)
            y_102 = gl.exp(y_101)  # sfu3_y: stage 2, partition 0 (group 0)
            dA = gl.expand_dims(dt_78_p1, 1)  # sfu2_dA: stage 2, partition 0 (group 0)
            dA_84 = dA.broadcast_to([64, 16])  # sfu2_dA: stage 2, partition 0 (group 0)
            dA_85 = A_54 * dA_84  # sfu2_dA: stage 2, partition 0 (group 0)
            dA_86 = gl.exp(dA_85)  # sfu2_dA: stage 2, partition 0 (group 0)
            dt_75 = gl.exp(dt_73)  # sfu0_dt: stage 1, partition 0 (group 0)
            y_96 = gl.sum(y_95_p1, axis=1)  # reduce0_y: stage 4, partition 0 (group 0)
            dB = gl.expand_dims(B_81_p2, 0)  # elementwise2_dB: stage 3, partition 0 (group 0)
            dB_87 = dB.broadcast_to([64, 16])  # elementwise2_dB: stage 3, partition 0 (group 0)
            dB_88 = dB_87 * dA_84_p1  # elementwise2_dB: stage 3, partition 0 (group 0)
            h_89 = h_93_p1 * dA_86_p1  # elementwise2_dB: stage 3, partition 0 (group 0)
            h_90 = gl.expand_dims(u_70_p2, 1)  # elementwise2_dB: stage 3, partition 0 (group 0)
            h_91 = h_90.broadcast_to([64, 16])  # elementwise2_dB: stage 3, partition 0 (group 0)
            h_92 = dB_88 * h_91  # elementwise2_dB: stage 3, partition 0 (group 0)
            h_93 = h_89 + h_92  # elementwise2_dB: stage 3, partition 0 (group 0)
            y = gl.expand_dims(C_83_p1, 0)  # elementwise3_y: stage 3, partition 0 (group 0)
            y_94 = y.broadcast_to([64, 16])  # elementwise3_y: stage 3, partition 0 (group 0)
            y_95 = h_93 * y_94  # elementwise3_y: stage 3, partition 0 (group 0)
            y_97 = D_56 * u_70_p3  # elementwise4_y: stage 4, partition 0 (group 0)
            y_98 = y_96 + y_97  # elementwise4_y: stage 4, partition 0 (group 0)
            y_103 = y_102_p2 + 1.0  # elementwise4_y: stage 4, partition 0 (group 0)
            y_104 = 1.0 / y_103  # elementwise4_y: stage 4, partition 0 (group 0)
            y_105 = z_100_p2 * y_104  # elementwise4_y: stage 4, partition 0 (group 0)
            y_106 = y_98 * y_105  # elementwise4_y: stage 4, partition 0 (group 0)
            dt_76 = dt_75 + 1.0  # sfu1_dt: stage 1, partition 0 (group 0)
            dt_77 = gl.log(dt_76)  # sfu1_dt: stage 1, partition 0 (group 0)
            v1 = y_106.to(gl.float16)  # convert5: stage 4, partition 0 (group 0)
            v2 = gl.convert_layout(v1, L1)  # convert5: stage 4, partition 0 (group 0)
            u_67 = (0 + (twill_b - 4) * 1)  # store0: stage 4, partition 0 (group 0)
            v0 = out_ptr_31 + u_67  # store0: stage 4, partition 0 (group 0)
            gl.store(v0, v2, mask=mask_d_13)  # store0: stage 4, partition 0 (group 0)
            u_68 = u_ptr_25 + u  # load0_u: stage 0, partition 0 (group 0)
            u_69 = gl.load(u_68, mask=mask_d_12, other=0.0)  # load0_u: stage 0, partition 0 (group 0)
            u_70 = u_69_p1.to(gl.float32)  # convert0_u: stage 1, partition 0 (group 0)
            dt_74 = dt_73 <= 20.0  # elementwise1_dt: stage 1, partition 0 (group 0)
            dt_78 = gl.where(dt_74, dt_77, dt_73)  # elementwise1_dt: stage 1, partition 0 (group 0)
            B_79 = B_ptr_38 + B  # load2_B: stage 0, partition 0 (group 0)
            B_80 = gl.load(B_79, mask=mask_n_14, other=0.0)  # load2_B: stage 0, partition 0 (group 0)
            B_81 = B_80_p1.to(gl.float32)  # convert2_B: stage 1, partition 0 (group 0)
            B_80_p1 = B_80
            B_81_p2 = B_81_p1
            B_81_p1 = B_81
            C_82_p2 = C_82_p1
            C_82_p1 = C_82
            C_83_p1 = C_83
            dA_84_p1 = dA_84
            dA_86_p1 = dA_86
            dt_71_p1 = dt_71
            dt_78_p1 = dt_78
            h_93_p1 = h_93
            u_69_p1 = u_69
            u_70_p3 = u_70_p2
            u_70_p2 = u_70_p1
            u_70_p1 = u_70
            y_102_p2 = y_102_p1
            y_102_p1 = y_102
            y_95_p1 = y_95
            z_100_p2 = z_100_p1
            z_100_p1 = z_100
            z_99_p2 = z_99_p1
            z_99_p1 = z_99
        C_83 = C_82_p2.to(gl.float32)  # convert3_C: stage 2, partition 0 (group 0)
        z_100 = z_99_p2.to(gl.float32)  # convert4_z: stage 2, partition 0 (group 0)
        dt_72 = dt_71_p1.to(gl.float32)  # convert1_dt: stage 1, partition 0 (group 0)
        dt_73 = dt_72 + dt_bias_58  # elementwise0_dt: stage 1, partition 0 (group 0)
        y_101 = 0.0 - z_100  # sfu3_y: stage 2, partition 0 (group 0)
        y_102 = gl.exp(y_101)  # sfu3_y: stage 2, partition 0 (group 0)
        dA = gl.expand_dims(dt_78_p1, 1)  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_84 = dA.broadcast_to([64, 16])  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_85 = A_54 * dA_84  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_86 = gl.exp(dA_85)  # sfu2_dA: stage 2, partition 0 (group 0)
        dt_75 = gl.exp(dt_73)  # sfu0_dt: stage 1, partition 0 (group 0)
        y_96 = gl.sum(y_95_p1, axis=1)  # reduce0_y: stage 4, partition 0 (group 0)
        dB = gl.expand_dims(B_81_p2, 0)  # elementwise2_dB: stage 3, partition 0 (group 0)
        dB_87 = dB.broadcast_to([64, 16])  # elementwise2_dB: stage 3, partition 0 (group 0)
        dB_88 = dB_87 * dA_84_p1  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_89 = h_93_p1 * dA_86_p1  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_90 = gl.expand_dims(u_70_p2, 1)  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_91 = h_90.broadcast_to([64, 16])  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_92 = dB_88 * h_91  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_93 = h_89 + h_92  # elementwise2_dB: stage 3, partition 0 (group 0)
        y = gl.expand_dims(C_83_p1, 0)  # elementwise3_y: stage 3, partition 0 (group 0)
        y_94 = y.broadcast_to([64, 16])  # elementwise3_y: stage 3, partition 0 (group 0)
        y_95 = h_93 * y_94  # elementwise3_y: stage 3, partition 0 (group 0)
        y_97 = D_56 * u_70_p3  # elementwise4_y: stage 4, partition 0 (group 0)
        y_98 = y_96 + y_97  # elementwise4_y: stage 4, partition 0 (group 0)
        y_103 = y_102_p2 + 1.0  # elementwise4_y: stage 4, partition 0 (group 0)
        y_104 = 1.0 / y_103  # elementwise4_y: stage 4, partition 0 (group 0)
        y_105 = z_100_p2 * y_104  # elementwise4_y: stage 4, partition 0 (group 0)
        y_106 = y_98 * y_105  # elementwise4_y: stage 4, partition 0 (group 0)
        dt_76 = dt_75 + 1.0  # sfu1_dt: stage 1, partition 0 (group 0)
        dt_77 = gl.log(dt_76)  # sfu1_dt: stage 1, partition 0 (group 0)
        v1 = y_106.to(gl.float16)  # convert5: stage 4, partition 0 (group 0)
        v2 = gl.convert_layout(v1, L1)  # convert5: stage 4, partition 0 (group 0)
        u_67 = (0 + ((twill_n - 1 + 1) - 4) * 1)  # store0: stage 4, partition 0 (group 0)
        v0 = out_ptr_31 + u_67  # store0: stage 4, partition 0 (group 0)
        gl.store(v0, v2, mask=mask_d_13)  # store0: stage 4, partition 0 (group 0)
        u_70 = u_69_p1.to(gl.float32)  # convert0_u: stage 1, partition 0 (group 0)
        dt_74 = dt_73 <= 20.0  # elementwise1_dt: stage 1, partition 0 (group 0)
        dt_78 = gl.where(dt_74, dt_77, dt_73)  # elementwise1_dt: stage 1, partition 0 (group 0)
        B_81 = B_80_p1.to(gl.float32)  # convert2_B: stage 1, partition 0 (group 0)
        B_80_p1 = B_80
        B_81_p2 = B_81_p1
        B_81_p1 = B_81
        C_82_p2 = C_82_p1
        C_82_p1 = C_82
        C_83_p1 = C_83
        dA_84_p1 = dA_84
        dA_86_p1 = dA_86
        dt_71_p1 = dt_71
        dt_78_p1 = dt_78
        h_93_p2 = h_93_p1
        h_93_p1 = h_93
        u_69_p1 = u_69
        u_70_p3 = u_70_p2
        u_70_p2 = u_70_p1
        u_70_p1 = u_70
        y_102_p2 = y_102_p1
        y_102_p1 = y_102
        y_95_p1 = y_95
        z_100_p2 = z_100_p1
        z_100_p1 = z_100
        z_99_p2 = z_99_p1
        z_99_p1 = z_99
        C_83 = C_82_p2.to(gl.float32)  # convert3_C: stage 2, partition 0 (group 0)
        z_100 = z_99_p2.to(gl.float32)  # convert4_z: stage 2, partition 0 (group 0)
        y_101 = 0.0 - z_100  # sfu3_y: stage 2, partition 0 (group 0)
        y_102 = gl.exp(y_101)  # sfu3_y: stage 2, partition 0 (group 0)
        dA = gl.expand_dims(dt_78_p1, 1)  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_84 = dA.broadcast_to([64, 16])  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_85 = A_54 * dA_84  # sfu2_dA: stage 2, partition 0 (group 0)
        dA_86 = gl.exp(dA_85)  # sfu2_dA: stage 2, partition 0 (group 0)
        y_96 = gl.sum(y_95_p1, axis=1)  # reduce0_y: stage 4, partition 0 (group 0)
        dB = gl.expand_dims(B_81_p2, 0)  # elementwise2_dB: stage 3, partition 0 (group 0)
        dB_87 = dB.broadcast_to([64, 16])  # elementwise2_dB: stage 3, partition 0 (group 0)
        dB_88 = dB_87 * dA_84_p1  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_89 = h_93_p1 * dA_86_p1  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_90 = gl.expand_dims(u_70_p2, 1)  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_91 = h_90.broadcast_to([64, 16])  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_92 = dB_88 * h_91  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_93 = h_89 + h_92  # elementwise2_dB: stage 3, partition 0 (group 0)
        y = gl.expand_dims(C_83_p1, 0)  # elementwise3_y: stage 3, partition 0 (group 0)
        y_94 = y.broadcast_to([64, 16])  # elementwise3_y: stage 3, partition 0 (group 0)
        y_95 = h_93 * y_94  # elementwise3_y: stage 3, partition 0 (group 0)
        y_97 = D_56 * u_70_p3  # elementwise4_y: stage 4, partition 0 (group 0)
        y_98 = y_96 + y_97  # elementwise4_y: stage 4, partition 0 (group 0)
        y_103 = y_102_p2 + 1.0  # elementwise4_y: stage 4, partition 0 (group 0)
        y_104 = 1.0 / y_103  # elementwise4_y: stage 4, partition 0 (group 0)
        y_105 = z_100_p2 * y_104  # elementwise4_y: stage 4, partition 0 (group 0)
        y_106 = y_98 * y_105  # elementwise4_y: stage 4, partition 0 (group 0)
        v1 = y_106.to(gl.float16)  # convert5: stage 4, partition 0 (group 0)
        v2 = gl.convert_layout(v1, L1)  # convert5: stage 4, partition 0 (group 0)
        u_67 = (0 + ((twill_n - 1 + 2) - 4) * 1)  # store0: stage 4, partition 0 (group 0)
        v0 = out_ptr_31 + u_67  # store0: stage 4, partition 0 (group 0)
        gl.store(v0, v2, mask=mask_d_13)  # store0: stage 4, partition 0 (group 0)
        B_80_p1 = B_80
        B_81_p2 = B_81_p1
        B_81_p1 = B_81
        C_82_p2 = C_82_p1
        C_82_p1 = C_82
        C_83_p1 = C_83
        dA_84_p1 = dA_84
        dA_86_p1 = dA_86
        dt_71_p1 = dt_71
        dt_78_p1 = dt_78
        h_93_p2 = h_93_p1
        h_93_p1 = h_93
        u_69_p1 = u_69
        u_70_p3 = u_70_p2
        u_70_p2 = u_70_p1
        u_70_p1 = u_70
        y_102_p2 = y_102_p1
        y_102_p1 = y_102
        y_95_p1 = y_95
        z_100_p2 = z_100_p1
        z_100_p1 = z_100
        z_99_p2 = z_99_p1
        z_99_p1 = z_99
        y_96 = gl.sum(y_95_p1, axis=1)  # reduce0_y: stage 4, partition 0 (group 0)
        dB = gl.expand_dims(B_81_p2, 0)  # elementwise2_dB: stage 3, partition 0 (group 0)
        dB_87 = dB.broadcast_to([64, 16])  # elementwise2_dB: stage 3, partition 0 (group 0)
        dB_88 = dB_87 * dA_84_p1  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_89 = h_93_p1 * dA_86_p1  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_90 = gl.expand_dims(u_70_p2, 1)  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_91 = h_90.broadcast_to([64, 16])  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_92 = dB_88 * h_91  # elementwise2_dB: stage 3, partition 0 (group 0)
        h_93 = h_89 + h_92  # elementwise2_dB: stage 3, partition 0 (group 0)
        y = gl.expand_dims(C_83_p1, 0)  # elementwise3_y: stage 3, partition 0 (group 0)
        y_94 = y.broadcast_to([64, 16])  # elementwise3_y: stage 3, partition 0 (group 0)
        y_95 = h_93 * y_94  # elementwise3_y: stage 3, partition 0 (group 0)
        y_97 = D_56 * u_70_p3  # elementwise4_y: stage 4, partition 0 (group 0)
        y_98 = y_96 + y_97  # elementwise4_y: stage 4, partition 0 (group 0)
        y_103 = y_102_p2 + 1.0  # elementwise4_y: stage 4, partition 0 (group 0)
        y_104 = 1.0 / y_103  # elementwise4_y: stage 4, partition 0 (group 0)
        y_105 = z_100_p2 * y_104  # elementwise4_y: stage 4, partition 0 (group 0)
        y_106 = y_98 * y_105  # elementwise4_y: stage 4, partition 0 (group 0)
        v1 = y_106.to(gl.float16)  # convert5: stage 4, partition 0 (group 0)
        v2 = gl.convert_layout(v1, L1)  # convert5: stage 4, partition 0 (group 0)
        u_67 = (0 + ((twill_n - 1 + 3) - 4) * 1)  # store0: stage 4, partition 0 (group 0)
        v0 = out_ptr_31 + u_67  # store0: stage 4, partition 0 (group 0)
        gl.store(v0, v2, mask=mask_d_13)  # store0: stage 4, partition 0 (group 0)
        B_80_p1 = B_80
        B_81_p2 = B_81_p1
        B_81_p1 = B_81
        C_82_p2 = C_82_p1
        C_82_p1 = C_82
        C_83_p1 = C_83
        dA_84_p1 = dA_84
        dA_86_p1 = dA_86
        dt_71_p1 = dt_71
        dt_78_p1 = dt_78
        h_93_p2 = h_93_p1
        h_93_p1 = h_93
        u_69_p1 = u_69
        u_70_p3 = u_70_p2
        u_70_p2 = u_70_p1
        u_70_p1 = u_70
        y_102_p2 = y_102_p1
        y_102_p1 = y_102
        y_95_p1 = y_95
        z_100_p2 = z_100_p1
        z_100_p1 = z_100
        z_99_p2 = z_99_p1
        z_99_p1 = z_99
        y_96 = gl.sum(y_95_p1, axis=1)  # reduce0_y: stage 4, partition 0 (group 0)
        y_97 = D_56 * u_70_p3  # elementwise4_y: stage 4, partition 0 (group 0)
        y_98 = y_96 + y_97  # elementwise4_y: stage 4, partition 0 (group 0)
        y_103 = y_102_p2 + 1.0  # elementwise4_y: stage 4, partition 0 (group 0)
        y_104 = 1.0 / y_103  # elementwise4_y: stage 4, partition 0 (group 0)
        y_105 = z_100_p2 * y_104  # elementwise4_y: stage 4, partition 0 (group 0)
        y_106 = y_98 * y_105  # elementwise4_y: stage 4, partition 0 (group 0)
        v1 = y_106.to(gl.float16)  # convert5: stage 4, partition 0 (group 0)
        v2 = gl.convert_layout(v1, L1)  # convert5: stage 4, partition 0 (group 0)
        u_67 = (0 + ((twill_n - 1 + 4) - 4) * 1)  # store0: stage 4, partition 0 (group 0)
        v0 = out_ptr_31 + u_67  # store0: stage 4, partition 0 (group 0)
        gl.store(v0, v2, mask=mask_d_13)  # store0: stage 4, partition 0 (group 0)
        B_80_p1 = B_80
        B_81_p2 = B_81_p1
        B_81_p1 = B_81
        C_82_p2 = C_82_p1
        C_82_p1 = C_82
        C_83_p1 = C_83
        dA_84_p1 = dA_84
        dA_86_p1 = dA_86
        dt_71_p1 = dt_71
        dt_78_p1 = dt_78
        h_93_p2 = h_93_p1
        h_93_p1 = h_93
        u_69_p1 = u_69
        u_70_p3 = u_70_p2
        u_70_p2 = u_70_p1
        u_70_p1 = u_70
        y_102_p2 = y_102_p1
        y_102_p1 = y_102
        y_95_p1 = y_95
        z_100_p2 = z_100_p1
        z_100_p1 = z_100
        z_99_p2 = z_99_p1
        z_99_p1 = z_99
    else:
        arg21_w = gl.full([64, 16], 0.0, gl.float32, layout=L3)
        for h_66_w in range(0, seqlen, 1):
            u_68_w = u_ptr_25 + h_66_w
            u_69_w = gl.load(u_68_w, mask=mask_d_12, other=0.0)
            u_70_w = u_69_w.to(gl.float32)
            dt_w = delta_ptr_27 + h_66_w
            dt_71_w = gl.load(dt_w, mask=mask_d_12, other=0.0)
            dt_72_w = dt_71_w.to(gl.float32)
            dt_73_w = dt_72_w + dt_bias_58
            dt_74_w = dt_73_w <= 20.0
            dt_75_w = gl.exp(dt_73_w)
            dt_76_w = dt_75_w + 1.0
            dt_77_w = gl.log(dt_76_w)
            dt_78_w = gl.where(dt_74_w, dt_77_w, dt_73_w)
            B_79_w = B_ptr_38 + h_66_w
            B_80_w = gl.load(B_79_w, mask=mask_n_14, other=0.0)
            B_81_w = B_80_w.to(gl.float32)
            C_w = C_ptr_40 + h_66_w
            C_82_w = gl.load(C_w, mask=mask_n_14, other=0.0)
            C_83_w = C_82_w.to(gl.float32)
            dA_w = gl.expand_dims(dt_78_w, 1)
            dA_84_w = dA_w.broadcast_to([64, 16])
            dA_85_w = A_54 * dA_84_w
            dA_86_w = gl.exp(dA_85_w)
            dB_w = gl.expand_dims(B_81_w, 0)
            dB_87_w = dB_w.broadcast_to([64, 16])
            dB_88_w = dB_87_w * dA_84_w
            h_89_w = arg21_w * dA_86_w
            h_90_w = gl.expand_dims(u_70_w, 1)
            h_91_w = h_90_w.broadcast_to([64, 16])
            h_92_w = dB_88_w * h_91_w
            h_93_w = h_89_w + h_92_w
            y_w = gl.expand_dims(C_83_w, 0)
            y_94_w = y_w.broadcast_to([64, 16])
            y_95_w = h_93_w * y_94_w
            y_96_w = gl.sum(y_95_w, axis=1)
            y_97_w = D_56 * u_70_w
            y_98_w = y_96_w + y_97_w
            z_w = z_ptr_29 + h_66_w
            z_99_w = gl.load(z_w, mask=mask_d_12, other=0.0)
            z_100_w = z_99_w.to(gl.float32)
            y_101_w = 0.0 - z_100_w
            y_102_w = gl.exp(y_101_w)
            y_103_w = y_102_w + 1.0
            y_104_w = 1.0 / y_103_w
            y_105_w = z_100_w * y_104_w
            y_106_w = y_98_w * y_105_w
            v0_w = out_ptr_31 + h_66_w
            v1_w = y_106_w.to(gl.float16)
            v2_w = gl.convert_layout(v1_w, L1)
            gl.store(v0_w, v2_w, mask=mask_d_13)
            arg21_w = h_93_w
        h_93_p2 = arg21_w
    state_ptrs = pid_b * stride_state_batch
    state_ptrs_59 = last_state_ptr + state_ptrs
    state_ptrs_61 = A_45 * stride_state_dim
    state_ptrs_63 = state_ptrs_59 + state_ptrs_61
    state_ptrs_64 = state_ptrs_63.broadcast_to([64, 16])
    state_ptrs_65 = state_ptrs_64 + A_52
    gl.store(state_ptrs_65, h_93_p2, mask=A_44)

@gluon.jit
def twill_kernel(u_ptr, delta_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, delta_bias_ptr, out_ptr, last_state_ptr, dim, dstate, seqlen, stride_u_batch, stride_u_dim, stride_A_dim, stride_B_batch, stride_B_dstate, stride_state_batch, stride_state_dim):
    consumer_0(u_ptr, delta_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, delta_bias_ptr, out_ptr, last_state_ptr, dim, dstate, seqlen, stride_u_batch, stride_u_dim, stride_A_dim, stride_B_batch, stride_B_dstate, stride_state_batch, stride_state_dim, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['u_ptr', 'delta_ptr', 'A_ptr', 'B_ptr', 'C_ptr', 'D_ptr', 'z_ptr', 'delta_bias_ptr', 'out_ptr', 'last_state_ptr', 'dim', 'dstate', 'seqlen', 'stride_u_batch', 'stride_u_dim', 'stride_A_dim', 'stride_B_batch', 'stride_B_dstate', 'stride_state_batch', 'stride_state_dim', 'DELTA_SOFTPLUS', 'BLOCK_D', 'BLOCK_DSTATE']          # the Triton kernel's parameters, in order
RUNTIME = ['u_ptr', 'delta_ptr', 'A_ptr', 'B_ptr', 'C_ptr', 'D_ptr', 'z_ptr', 'delta_bias_ptr', 'out_ptr', 'last_state_ptr', 'dim', 'dstate', 'seqlen', 'stride_u_batch', 'stride_u_dim', 'stride_A_dim', 'stride_B_batch', 'stride_B_dstate', 'stride_state_batch', 'stride_state_dim']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['u_ptr', 'delta_ptr', 'A_ptr', 'B_ptr', 'C_ptr', 'D_ptr', 'z_ptr', 'delta_bias_ptr', 'out_ptr', 'last_state_ptr', 'dim', 'dstate', 'seqlen', 'stride_u_batch', 'stride_u_dim', 'stride_A_dim', 'stride_B_batch', 'stride_B_dstate', 'stride_state_batch', 'stride_state_dim']   # the arguments a launch key reads
CONSTEXPRS = {'DELTA_SOFTPLUS': True, 'BLOCK_D': 64, 'BLOCK_DSTATE': 16}         # the specialisation this kernel was generated for
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
