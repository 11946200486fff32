"""_selective_scan_update_kernel, written by twill from its joint schedule: I=512 L=512 (optimal), 1481 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 50 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(state_ptr, x_ptr, dt_ptr, dt_bias_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, out_ptr, batch, nheads, dim, dstate, nheads_ngroups_ratio, stride_state_batch, stride_state_head, stride_state_dim, stride_x_batch, stride_x_head, stride_dt_batch, stride_dt_head, stride_dt_bias_head, stride_A_head, stride_A_dim, stride_B_batch, stride_B_group, stride_C_batch, stride_C_group, stride_D_head, stride_z_batch, stride_z_head, stride_out_batch, stride_out_head):
    pid_m = gl.program_id(0)
    pid_b = gl.program_id(1)
    pid_h = gl.program_id(2)
    state_ptr_5 = pid_b * stride_state_batch
    state_ptr_6 = pid_h * stride_state_head
    state_ptr_7 = state_ptr_5 + state_ptr_6
    state_ptr_8 = state_ptr + state_ptr_7
    x_ptr_9 = pid_b * stride_x_batch
    x_ptr_10 = pid_h * stride_x_head
    x_ptr_11 = x_ptr_9 + x_ptr_10
    x_ptr_12 = x_ptr + x_ptr_11
    dt_ptr_13 = pid_b * stride_dt_batch
    dt_ptr_14 = pid_h * stride_dt_head
    dt_ptr_15 = dt_ptr_13 + dt_ptr_14
    dt_ptr_16 = dt_ptr + dt_ptr_15
    dt_bias_ptr_17 = pid_h * stride_dt_bias_head
    dt_bias_ptr_18 = dt_bias_ptr + dt_bias_ptr_17
    A_ptr_19 = pid_h * stride_A_head
    A_ptr_20 = A_ptr + A_ptr_19
    B_ptr_21 = pid_b * stride_B_batch
    B_ptr_22 = pid_h // nheads_ngroups_ratio
    B_ptr_23 = B_ptr_22 * stride_B_group
    B_ptr_24 = B_ptr_21 + B_ptr_23
    B_ptr_25 = B_ptr + B_ptr_24
    C_ptr_26 = pid_b * stride_C_batch
    C_ptr_27 = B_ptr_22 * stride_C_group
    C_ptr_28 = C_ptr_26 + C_ptr_27
    C_ptr_29 = C_ptr + C_ptr_28
    z_ptr_30 = pid_b * stride_z_batch
    z_ptr_31 = pid_h * stride_z_head
    z_ptr_32 = z_ptr_30 + z_ptr_31
    z_ptr_33 = z_ptr + z_ptr_32
    out_ptr_34 = pid_b * stride_out_batch
    out_ptr_35 = pid_h * stride_out_head
    out_ptr_36 = out_ptr_34 + out_ptr_35
    out_ptr_37 = out_ptr + out_ptr_36
    offs_n = gl.arange(0, 16, layout=L0)
    B_ptrs_38 = B_ptr_25 + offs_n
    C_ptrs_39 = C_ptr_29 + offs_n
    D_ptr_40 = pid_h * stride_D_head
    D_ptr_41 = D_ptr + D_ptr_40
    B_42 = offs_n < dstate
    B_43 = gl.load(B_ptrs_38, mask=B_42, other=0.0)
    B_44 = B_43.to(gl.float32)
    C = gl.load(C_ptrs_39, mask=B_42, other=0.0)
    C_45 = C.to(gl.float32)
    v0 = pid_m * 32
    offs_m = gl.arange(0, 32, layout=L1)
    offs_m_46 = gl.arange(0, 32, layout=L2)
    state_ptrs_47 = gl.expand_dims(offs_n, 0)
    state_ptrs_48 = state_ptrs_47.broadcast_to([32, 16])
    state_52 = state_ptrs_47 < dstate
    state_53 = state_52.broadcast_to([32, 16])
    dB = gl.expand_dims(B_44, 0)
    dB_55 = dB.broadcast_to([32, 16])
    out = gl.expand_dims(C_45, 0)
    out_56 = out.broadcast_to([32, 16])
    twill_n = gl.maximum((dim - v0 + 32 - 1) // 32, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        offs_m_57 = (v0 + (0 - 0) * 32)  # load0_state: stage 0, partition 0 (group 0)
        offs_m_59 = offs_m_57 + offs_m  # load0_state: stage 0, partition 0 (group 0)
        state_ptrs_61 = gl.expand_dims(offs_m_59, 1)  # load0_state: stage 0, partition 0 (group 0)
        state_76 = state_ptrs_61 < dim  # elementwise0_state: stage 0, partition 0 (group 0)
        state_77 = state_76.broadcast_to([32, 16])  # elementwise0_state: stage 0, partition 0 (group 0)
        state_78 = state_77 & state_53  # elementwise0_state: stage 0, partition 0 (group 0)
        dt_ptrs_67 = dt_ptr_16 + offs_m_59  # load2_dt: stage 0, partition 0 (group 0)
        x_80 = offs_m_59 < dim  # load1_x: stage 0, partition 0 (group 0)
        dt = gl.load(dt_ptrs_67, mask=x_80, other=0.0)  # load2_dt: stage 0, partition 0 (group 0)
        dt_bias_ptrs_68 = dt_bias_ptr_18 + offs_m_59  # load3_dt: stage 0, partition 0 (group 0)
        dt_85 = gl.load(dt_bias_ptrs_68, mask=x_80, other=0.0)  # load3_dt: stage 0, partition 0 (group 0)
        x_ptrs_66 = x_ptr_12 + offs_m_59  # load1_x: stage 0, partition 0 (group 0)
        x_82 = gl.load(x_ptrs_66, mask=x_80, other=0.0)  # load1_x: stage 0, partition 0 (group 0)
        A_ptrs_69 = state_ptrs_61 * stride_A_dim  # load4_A: stage 0, partition 0 (group 0)
        A_ptrs_70 = A_ptrs_69.broadcast_to([32, 16])  # load4_A: stage 0, partition 0 (group 0)
        A_ptrs_71 = A_ptrs_70 + state_ptrs_48  # load4_A: stage 0, partition 0 (group 0)
        A_ptrs_72 = A_ptr_20 + A_ptrs_71  # load4_A: stage 0, partition 0 (group 0)
        A = gl.load(A_ptrs_72, mask=state_78, other=0.0)  # load4_A: stage 0, partition 0 (group 0)
        z_ptrs_74 = z_ptr_33 + offs_m_59  # load6_z: stage 0, partition 0 (group 0)
        z = gl.load(z_ptrs_74, mask=x_80, other=0.0)  # load6_z: stage 0, partition 0 (group 0)
        D_ptrs_73 = D_ptr_41 + offs_m_59  # load5_D: stage 0, partition 0 (group 0)
        D = gl.load(D_ptrs_73, mask=x_80, other=0.0)  # load5_D: stage 0, partition 0 (group 0)
        A_p1 = A
        D_p1 = D
        dt_p1 = dt
        dt_85_p1 = dt_85
        state_78_p1 = state_78
        state_ptrs_61_p1 = state_ptrs_61
        x_82_p1 = x_82
        z_p1 = z
        for twill_b in range(1, twill_n):
            offs_m_57 = (v0 + (twill_b - 0) * 32)  # load0_state: stage 0, partition 0 (group 0)
            offs_m_59 = offs_m_57 + offs_m  # load0_state: stage 0, partition 0 (group 0)
            state_ptrs_61 = gl.expand_dims(offs_m_59, 1)  # load0_state: stage 0, partition 0 (group 0)
            state_76 = state_ptrs_61 < dim  # elementwise0_state: stage 0, partition 0 (group 0)
            state_77 = state_76.broadcast_to([32, 16])  # elementwise0_state: stage 0, partition 0 (group 0)
            state_78 = state_77 & state_53  # elementwise0_state: stage 0, partition 0 (group 0)
            dt_ptrs_67 = dt_ptr_16 + offs_m_59  # load2_dt: stage 0, partition 0 (group 0)
            x_80 = offs_m_59 < dim  # load1_x: stage 0, partition 0 (group 0)
            dt = gl.load(dt_ptrs_67, mask=x_80, other=0.0)  # load2_dt: stage 0, partition 0 (group 0)
            dt_84 = dt_p1.to(gl.float32)  # convert1_dt: stage 1, partition 0 (group 0)
            dt_bias_ptrs_68 = dt_bias_ptr_18 + offs_m_59  # load3_dt: stage 0, partition 0 (group 0)
            dt_85 = gl.load(dt_bias_ptrs_68, mask=x_80, other=0.0)  # load3_dt: stage 0, partition 0 (group 0)
            dt_86 = dt_84 + dt_85_p1  # elementwise1_dt: stage 1, partition 0 (group 0)
            dt_88 = gl.exp(dt_86)  # sfu0_dt: stage 1, partition 0 (group 0)
            dt_89 = dt_88 + 1.0  # sfu1_dt: stage 1, partition 0 (group 0)
            dt_90 = gl.log(dt_89)  # sfu1_dt: stage 1, partition 0 (group 0)
            dt_87 = dt_86 <= 20.0  # elementwise2_dt: stage 1, partition 0 (group 0)
            dt_91 = gl.where(dt_87, dt_90, dt_86)  # elementwise2_dt: stage 1, partition 0 (group 0)
            x_ptrs_66 = x_ptr_12 + offs_m_59  # load1_x: stage 0, partition 0 (group 0)
            x_82 = gl.load(x_ptrs_66, mask=x_80, other=0.0)  # load1_x: stage 0, partition 0 (group 0)
            x_83 = x_82_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
            state_ptrs_62 = state_ptrs_61_p1 * stride_state_dim  # load0_state: stage 1, partition 0 (group 0)
            state_ptrs_63 = state_ptrs_62.broadcast_to([32, 16])  # load0_state: stage 1, partition 0 (group 0)
            state_ptrs_64 = state_ptrs_63 + state_ptrs_48  # load0_state: stage 1, partition 0 (group 0)
            state_ptrs_65 = state_ptr_8 + state_ptrs_64  # load0_state: stage 1, partition 0 (group 0)
            gl.thread_barrier()
            state_79 = gl.load(state_ptrs_65, mask=state_78_p1, other=0.0)  # load0_state: stage 1, partition 0 (group 0)
            A_ptrs_69 = state_ptrs_61 * stride_A_dim  # load4_A: stage 0, partition 0 (group 0)
            A_ptrs_70 = A_ptrs_69.broadcast_to([32, 16])  # load4_A: stage 0, partition 0 (group 0)
            A_ptrs_71 = A_ptrs_70 + state_ptrs_48  # load4_A: stage 0, partition 0 (group 0)
            A_ptrs_72 = A_ptr_20 + A_ptrs_71  # load4_A: stage 0, partition 0 (group 0)
            A = gl.load(A_ptrs_72, mask=state_78, other=0.0)  # load4_A: stage 0, partition 0 (group 0)
            dA = gl.expand_dims(dt_91, 1)  # sfu2_dA: stage 1, partition 0 (group 0)
            dA_92 = dA.broadcast_to([32, 16])  # sfu2_dA: stage 1, partition 0 (group 0)
            dA_93 = A_p1 * dA_92  # sfu2_dA: stage 1, partition 0 (group 0)
            dA_94 = gl.exp(dA_93)  # sfu2_dA: stage 1, partition 0 (group 0)
            z_ptrs_74 = z_ptr_33 + offs_m_59  # load6_z: stage 0, partition 0 (group 0)
            z = gl.load(z_ptrs_74, mask=x_80, other=0.0)  # load6_z: stage 0, partition 0 (group 0)
            z_96 = z_p1.to(gl.float32)  # convert2_z: stage 1, partition 0 (group 0)
            out_106 = 0.0 - z_96  # sfu3_out: stage 1, partition 0 (group 0)
            out_107 = gl.exp(out_106)  # sfu3_out: stage 1, partition 0 (group 0)
            dB_95 = dB_55 * dA_92  # elementwise3_dB: stage 1, partition 0 (group 0)
            state_97 = state_79 * dA_94  # elementwise3_dB: stage 1, partition 0 (group 0)
            state_98 = gl.expand_dims(x_83, 1)  # elementwise3_dB: stage 1, partition 0 (group 0)
            state_99 = state_98.broadcast_to([32, 16])  # elementwise3_dB: stage 1, partition 0 (group 0)
            state_100 = dB_95 * state_99  # elementwise3_dB: stage 1, partition 0 (group 0)
            state_101 = state_97 + state_100  # elementwise3_dB: stage 1, partition 0 (group 0)
            out_102 = state_101 * out_56  # elementwise4_out: stage 1, partition 0 (group 0)
            gl.store(state_ptrs_65, state_101, mask=state_78_p1)  # store1: stage 1, partition 0 (group 0)
            out_103 = gl.sum(out_102, axis=1)  # reduce0_out: stage 1, partition 0 (group 0)
            D_ptrs_73 = D_ptr_41 + offs_m_59  # load5_D: stage 0, partition 0 (group 0)
            D = gl.load(D_ptrs_73, mask=x_80, other=0.0)  # load5_D: stage 0, partition 0 (group 0)
            out_104 = x_83 * D_p1  # elementwise5_out: stage 1, partition 0 (group 0)
            out_105 = out_103 + out_104  # elementwise5_out: stage 1, partition 0 (group 0)
            out_108 = out_107 + 1.0  # elementwise5_out: stage 1, partition 0 (group 0)
            out_109 = 1.0 / out_108  # elementwise5_out: stage 1, partition 0 (group 0)
            out_110 = z_96 * out_109  # elementwise5_out: stage 1, partition 0 (group 0)
            out_111 = out_105 * out_110  # elementwise5_out: stage 1, partition 0 (group 0)
            v1 = out_111.to(gl.float16)  # convert3: stage 1, partition 0 (group 0)
            v2 = gl.convert_layout(v1, L2)  # convert3: stage 1, partition 0 (group 0)
            offs_m_58 = (v0 + (twill_b - 1) * 32)  # store0: stage 1, partition 0 (group 0)
            offs_m_60 = offs_m_58 + offs_m_46  # store0: stage 1, partition 0 (group 0)
            out_ptrs_75 = out_ptr_37 + offs_m_60  # store0: stage 1, partition 0 (group 0)
            x_81 = offs_m_60 < dim  # store0: stage 1, partition 0 (group 0)
            gl.store(out_ptrs_75, v2, mask=x_81)  # store0: stage 1, partition 0 (group 0)
            A_p1 = A
            D_p1 = D
            dt_p1 = dt
            dt_85_p1 = dt_85
            state_78_p1 = state_78
            state_ptrs_61_p1 = state_ptrs_61
            x_82_p1 = x_82
            z_p1 = z
        dt_84 = dt_p1.to(gl.float32)  # convert1_dt: stage 1, partition 0 (group 0)
        dt_86 = dt_84 + dt_85_p1  # elementwise1_dt: stage 1, partition 0 (group 0)
        dt_88 = gl.exp(dt_86)  # sfu0_dt: stage 1, partition 0 (group 0)
        dt_89 = dt_88 + 1.0  # sfu1_dt: stage 1, partition 0 (group 0)
        dt_90 = gl.log(dt_89)  # sfu1_dt: stage 1, partition 0 (group 0)
        dt_87 = dt_86 <= 20.0  # elementwise2_dt: stage 1, partition 0 (group 0)
        dt_91 = gl.where(dt_87, dt_90, dt_86)  # elementwise2_dt: stage 1, partition 0 (group 0)
        x_83 = x_82_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        state_ptrs_62 = state_ptrs_61_p1 * stride_state_dim  # load0_state: stage 1, partition 0 (group 0)
        state_ptrs_63 = state_ptrs_62.broadcast_to([32, 16])  # load0_state: stage 1, partition 0 (group 0)
        state_ptrs_64 = state_ptrs_63 + state_ptrs_48  # load0_state: stage 1, partition 0 (group 0)
        state_ptrs_65 = state_ptr_8 + state_ptrs_64  # load0_state: stage 1, partition 0 (group 0)
        gl.thread_barrier()
        state_79 = gl.load(state_ptrs_65, mask=state_78_p1, other=0.0)  # load0_state: stage 1, partition 0 (group 0)
        dA = gl.expand_dims(dt_91, 1)  # sfu2_dA: stage 1, partition 0 (group 0)
        dA_92 = dA.broadcast_to([32, 16])  # sfu2_dA: stage 1, partition 0 (group 0)
        dA_93 = A_p1 * dA_92  # sfu2_dA: stage 1, partition 0 (group 0)
        dA_94 = gl.exp(dA_93)  # sfu2_dA: stage 1, partition 0 (group 0)
        z_96 = z_p1.to(gl.float32)  # convert2_z: stage 1, partition 0 (group 0)
        out_106 = 0.0 - z_96  # sfu3_out: stage 1, partition 0 (group 0)
        out_107 = gl.exp(out_106)  # sfu3_out: stage 1, partition 0 (group 0)
        dB_95 = dB_55 * dA_92  # elementwise3_dB: stage 1, partition 0 (group 0)
        state_97 = state_79 * dA_94  # elementwise3_dB: stage 1, partition 0 (group 0)
        state_98 = gl.expand_dims(x_83, 1)  # elementwise3_dB: stage 1, partition 0 (group 0)
        state_99 = state_98.broadcast_to([32, 16])  # elementwise3_dB: stage 1, partition 0 (group 0)
        state_100 = dB_95 * state_99  # elementwise3_dB: stage 1, partition 0 (group 0)
        state_101 = state_97 + state_100  # elementwise3_dB: stage 1, partition 0 (group 0)
        out_102 = state_101 * out_56  # elementwise4_out: stage 1, partition 0 (group 0)
        gl.store(state_ptrs_65, state_101, mask=state_78_p1)  # store1: stage 1, partition 0 (group 0)
        out_103 = gl.sum(out_102, axis=1)  # reduce0_out: stage 1, partition 0 (group 0)
        out_104 = x_83 * D_p1  # elementwise5_out: stage 1, partition 0 (group 0)
        out_105 = out_103 + out_104  # elementwise5_out: stage 1, partition 0 (group 0)
        out_108 = out_107 + 1.0  # elementwise5_out: stage 1, partition 0 (group 0)
        out_109 = 1.0 / out_108  # elementwise5_out: stage 1, partition 0 (group 0)
        out_110 = z_96 * out_109  # elementwise5_out: stage 1, partition 0 (group 0)
        out_111 = out_105 * out_110  # elementwise5_out: stage 1, partition 0 (group 0)
        v1 = out_111.to(gl.float16)  # convert3: stage 1, partition 0 (group 0)
        v2 = gl.convert_layout(v1, L2)  # convert3: stage 1, partition 0 (group 0)
        offs_m_58 = (v0 + ((twill_n - 1 + 1) - 1) * 32)  # store0: stage 1, partition 0 (group 0)
        offs_m_60 = offs_m_58 + offs_m_46  # store0: stage 1, partition 0 (group 0)
        out_ptrs_75 = out_ptr_37 + offs_m_60  # store0: stage 1, partition 0 (group 0)
        x_81 = offs_m_60 < dim  # store0: stage 1, partition 0 (group 0)
        gl.store(out_ptrs_75, v2, mask=x_81)  # store0: stage 1, partition 0 (group 0)
        A_p1 = A
        D_p1 = D
        dt_p1 = dt
        dt_85_p1 = dt_85
        state_78_p1 = state_78
        state_ptrs_61_p1 = state_ptrs_61
        x_82_p1 = x_82
        z_p1 = z

@gluon.jit
def twill_kernel(state_ptr, x_ptr, dt_ptr, dt_bias_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, out_ptr, batch, nheads, dim, dstate, nheads_ngroups_ratio, stride_state_batch, stride_state_head, stride_state_dim, stride_x_batch, stride_x_head, stride_dt_batch, stride_dt_head, stride_dt_bias_head, stride_A_head, stride_A_dim, stride_B_batch, stride_B_group, stride_C_batch, stride_C_group, stride_D_head, stride_z_batch, stride_z_head, stride_out_batch, stride_out_head):
    consumer_0(state_ptr, x_ptr, dt_ptr, dt_bias_ptr, A_ptr, B_ptr, C_ptr, D_ptr, z_ptr, out_ptr, batch, nheads, dim, dstate, nheads_ngroups_ratio, stride_state_batch, stride_state_head, stride_state_dim, stride_x_batch, stride_x_head, stride_dt_batch, stride_dt_head, stride_dt_bias_head, stride_A_head, stride_A_dim, stride_B_batch, stride_B_group, stride_C_batch, stride_C_group, stride_D_head, stride_z_batch, stride_z_head, stride_out_batch, stride_out_head, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['state_ptr', 'x_ptr', 'dt_ptr', 'dt_bias_ptr', 'A_ptr', 'B_ptr', 'C_ptr', 'D_ptr', 'z_ptr', 'out_ptr', 'batch', 'nheads', 'dim', 'dstate', 'nheads_ngroups_ratio', 'stride_state_batch', 'stride_state_head', 'stride_state_dim', 'stride_state_dstate', 'stride_x_batch', 'stride_x_head', 'stride_x_dim', 'stride_dt_batch', 'stride_dt_head', 'stride_dt_dim', 'stride_dt_bias_head', 'stride_dt_bias_dim', 'stride_A_head', 'stride_A_dim', 'stride_A_dstate', 'stride_B_batch', 'stride_B_group', 'stride_B_dstate', 'stride_C_batch', 'stride_C_group', 'stride_C_dstate', 'stride_D_head', 'stride_D_dim', 'stride_z_batch', 'stride_z_head', 'stride_z_dim', 'stride_out_batch', 'stride_out_head', 'stride_out_dim', 'DT_SOFTPLUS', 'TIE_HDIM', 'BLOCK_SIZE_M', 'HAS_DT_BIAS', 'HAS_D', 'HAS_Z', 'BLOCK_SIZE_DSTATE']          # the Triton kernel's parameters, in order
RUNTIME = ['state_ptr', 'x_ptr', 'dt_ptr', 'dt_bias_ptr', 'A_ptr', 'B_ptr', 'C_ptr', 'D_ptr', 'z_ptr', 'out_ptr', 'batch', 'nheads', 'dim', 'dstate', 'nheads_ngroups_ratio', 'stride_state_batch', 'stride_state_head', 'stride_state_dim', 'stride_x_batch', 'stride_x_head', 'stride_dt_batch', 'stride_dt_head', 'stride_dt_bias_head', 'stride_A_head', 'stride_A_dim', 'stride_B_batch', 'stride_B_group', 'stride_C_batch', 'stride_C_group', 'stride_D_head', 'stride_z_batch', 'stride_z_head', 'stride_out_batch', 'stride_out_head']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['state_ptr', 'x_ptr', 'dt_ptr', 'dt_bias_ptr', 'A_ptr', 'B_ptr', 'C_ptr', 'D_ptr', 'z_ptr', 'out_ptr', 'batch', 'nheads', 'dim', 'dstate', 'nheads_ngroups_ratio', 'stride_state_batch', 'stride_state_head', 'stride_state_dim', 'stride_x_batch', 'stride_x_head', 'stride_dt_batch', 'stride_dt_head', 'stride_dt_bias_head', 'stride_A_head', 'stride_A_dim', 'stride_B_batch', 'stride_B_group', 'stride_C_batch', 'stride_C_group', 'stride_D_head', 'stride_z_batch', 'stride_z_head', 'stride_out_batch', 'stride_out_head']   # the arguments a launch key reads
CONSTEXPRS = {'stride_state_dstate': 1, 'stride_x_dim': 1, 'stride_dt_dim': 1, 'stride_dt_bias_dim': 1, 'stride_A_dstate': 1, 'stride_B_dstate': 1, 'stride_C_dstate': 1, 'stride_D_dim': 1, 'stride_z_dim': 1, 'stride_out_dim': 1, 'DT_SOFTPLUS': True, 'TIE_HDIM': False, 'BLOCK_SIZE_M': 32, 'HAS_DT_BIAS': True, 'HAS_D': True, 'HAS_Z': True, 'BLOCK_SIZE_DSTATE': 16}         # the specialisation this kernel was generated for
HEURISTICS = {'HAS_DT_BIAS': "lambda args: args['dt_bias_ptr'] is not None", 'HAS_D': "lambda args: args['D_ptr'] is not None", 'HAS_Z': "lambda args: args['z_ptr'] is not None", 'BLOCK_SIZE_DSTATE': "lambda args: triton.next_power_of_2(args['dstate'])"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = ['import triton']   # what they read of the kernel's module
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

_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristic(name, src):
    """Heuristic ``name``'s function, from its source and the kernel module's names it reads (``HEURISTIC_SCOPE``:
    the module's imports, constants and the functions it calls); False where it cannot be made here."""
    fn = _HEUR.get(name)
    if fn is None:
        import math
        import torch
        import triton
        import triton.language as tl
        scope = {"torch": torch, "triton": triton, "tl": tl, "math": math}
        for part in HEURISTIC_SCOPE:
            try:
                exec(part, scope)
            except Exception:     # noqa: BLE001 - an import of the kernel's own package: its names not here
                pass
        try:
            fn = eval(src, scope)
        except Exception:         # noqa: BLE001 - names of the kernel's module not found: not checked
            fn = False
        if fn is False:
            import warnings
            warnings.warn(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated by this "
                          "launcher: launches are not checked against it", stacklevel=3)
        _HEUR[name] = fn
    return fn


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _heuristic(name, src)
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


def _heuristic_args(bound):
    """The kernel arguments its @triton.heuristics supply (kernl's ``size_m_rounded``), set as Triton sets them."""
    for name, src in HEURISTIC_ARGS.items():
        fn = _heuristic(name, src)
        if fn is False:
            raise ValueError(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated here")
        bound[name] = fn(dict(bound, **CONSTEXPRS))


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
    _heuristics(bound)
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
