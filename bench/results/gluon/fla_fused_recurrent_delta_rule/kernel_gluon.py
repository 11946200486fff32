"""fused_recurrent_delta_rule_fwd_kernel, written by twill from its joint schedule: I=242 L=484 (optimal), 610 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 81).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 1 warps, registers as ptxas allocates them (the schedule's tiles need about 169 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[2, 16], warps_per_cta=[1, 1], order=[0, 1])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[1], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[2, 16], warps_per_cta=[1, 1], order=[0, 1])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[1], order=[0]))

@gluon.jit
def consumer_0(q, k, v, u, beta, o, h0, ht, scale, T):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 8
    v4 = v2 % 8
    v5 = gl.cast(v3, gl.int64)
    v6 = gl.cast(T, gl.int64)
    v7 = v5 * v6
    all = T * 4
    o_k = v1 * 128
    o_k_9 = gl.arange(0, 128, layout=L0)
    o_k_10 = gl.arange(0, 128, layout=L1)
    o_k_13 = o_k + o_k_9
    o_k_14 = o_k + o_k_10
    o_v = v0 * 8
    o_v_15 = gl.arange(0, 8, layout=L2)
    o_v_16 = gl.arange(0, 8, layout=L3)
    o_v_19 = o_v + o_v_15
    o_v_20 = o_v + o_v_16
    p_q = v7 * 8
    p_q_21 = gl.cast(v4, gl.int64)
    p_q_22 = p_q + p_q_21
    p_q_23 = p_q_22 * 128
    p_q_24 = q + p_q_23
    p_q_26 = p_q_24 + o_k_14
    p_k = k + p_q_23
    p_k_28 = p_k + o_k_14
    p_v = v + p_q_23
    p_v_30 = p_v + o_v_19
    p_u = u + p_q_23
    p_u_32 = p_u + o_v_20
    p_beta = beta + p_q
    p_beta_33 = p_beta + v4
    p_o = v1 * all
    p_o_34 = gl.cast(p_o, gl.int64)
    p_o_35 = p_o_34 + v7
    p_o_36 = p_o_35 * 8
    p_o_37 = p_o_36 + p_q_21
    p_o_38 = p_o_37 * 128
    p_o_39 = o + p_o_38
    p_o_41 = p_o_39 + o_v_20
    mask_k_42 = o_k_13 < 128
    mask_k_43 = o_k_14 < 128
    mask_v = o_v_19 < 128
    mask_v_44 = o_v_20 < 128
    mask_h = gl.expand_dims(mask_k_42, 0)
    mask_h_45 = gl.expand_dims(mask_v, 1)
    mask_h_46 = mask_h.broadcast_to([8, 128])
    mask_h_47 = mask_h_45.broadcast_to([8, 128])
    mask_h_48 = mask_h_46 & mask_h_47
    p_h0 = v2 * 16384
    p_h0_49 = h0 + p_h0
    p_h0_50 = gl.expand_dims(o_k_13, 0)
    p_h0_51 = p_h0_50 * 128
    p_h0_53 = p_h0_49 + p_h0_51
    p_h0_54 = gl.expand_dims(o_v_19, 1)
    p_h0_55 = p_h0_53.broadcast_to([8, 128])
    p_h0_56 = p_h0_54.broadcast_to([8, 128])
    p_h0_57 = p_h0_55 + p_h0_56
    b_h = gl.load(p_h0_57, mask=mask_h_48, other=0.0)
    b_h_58 = b_h + 0.0
    twill_n = (T - 0 + 1 - 1) // 1
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        p_beta_99 = p_beta_33
        p_k_95 = p_k_28
        p_v_97 = p_v_30
        p_q_94 = p_q_26
        p_beta_99_p1 = p_beta_99
        p_k_95_p1 = p_k_95
        p_q_94_p1 = p_q_94
        p_v_97_p1 = p_v_97
        b_h_90 = b_h_58
        p_k_95 = p_k_95_p1 + 1024  # load0_b_k: stage 0, partition 0 (group 0)
        b_k = gl.load(p_k_95_p1, mask=mask_k_43, other=0.0)  # load0_b_k: stage 0, partition 0 (group 0)
        p_v_97 = p_v_97_p1 + 1024  # load1_b_v: stage 0, partition 0 (group 0)
        b_v = gl.load(p_v_97_p1, mask=mask_v, other=0.0)  # load1_b_v: stage 0, partition 0 (group 0)
        p_beta_99 = p_beta_99_p1 + 8  # load3_b_beta: stage 0, partition 0 (group 0)
        b_beta = gl.load(p_beta_99_p1)  # load3_b_beta: stage 0, partition 0 (group 0)
        p_q_94 = p_q_94_p1 + 1024  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_75 = gl.load(p_q_94_p1, mask=mask_k_43, other=0.0)  # load2_b_q: stage 0, partition 0 (group 0)
        b_beta_p1 = b_beta
        b_h_90_p1 = b_h_90
        b_k_p1 = b_k
        b_q_75_p1 = b_q_75
        b_v_p1 = b_v
        p_beta_99_p1 = p_beta_99
        p_k_95_p1 = p_k_95
        p_q_94_p1 = p_q_94
        p_v_97_p1 = p_v_97
        p_u_98 = p_u_32
        p_o_96 = p_o_41
        p_k_95 = p_k_95_p1 + 1024  # load0_b_k: stage 0, partition 0 (group 0)
        b_k = gl.load(p_k_95_p1, mask=mask_k_43, other=0.0)  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_72 = gl.convert_layout(b_k_p1, L0)  # convert0_b_k: stage 1, partition 0 (group 0)
        b_k_73 = b_k_72.to(gl.float32)  # convert0_b_k: stage 1, partition 0 (group 0)
        b_v_79 = gl.expand_dims(b_k_73, 0)  # elementwise1_b_v: stage 1, partition 0 (group 0)
        b_v_80 = b_v_79.broadcast_to([8, 128])  # elementwise1_b_v: stage 1, partition 0 (group 0)
        b_v_81 = b_h_90_p1 * b_v_80  # elementwise1_b_v: stage 1, partition 0 (group 0)
        p_v_97 = p_v_97_p1 + 1024  # load1_b_v: stage 0, partition 0 (group 0)
        b_v = gl.load(p_v_97_p1, mask=mask_v, other=0.0)  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_74 = b_v_p1.to(gl.float32)  # convert1_b_v: stage 1, partition 0 (group 0)
        p_beta_99 = p_beta_99_p1 + 8  # load3_b_beta: stage 0, partition 0 (group 0)
        b_beta = gl.load(p_beta_99_p1)  # load3_b_beta: stage 0, partition 0 (group 0)
        b_beta_84 = gl.cast(b_beta_p1, gl.float32)  # convert3_b_beta: stage 1, partition 0 (group 0)
        b_v_82 = gl.sum(b_v_81, axis=1)  # reduce0_b_v: stage 1, partition 0 (group 0)
        b_v_83 = b_v_74 - b_v_82  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_85 = b_beta_84  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_v_86 = b_v_83 * b_v_85  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_h_87 = gl.expand_dims(b_v_86, 1)  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_88 = b_h_87.broadcast_to([8, 128])  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_89 = b_v_80 * b_h_88  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_90 = b_h_90_p1 + b_h_89  # elementwise4_b_h: stage 1, partition 0 (group 0)
        p_q_94 = p_q_94_p1 + 1024  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_75 = gl.load(p_q_94_p1, mask=mask_k_43, other=0.0)  # load2_b_q: stage 0, partition 0 (group 0)
        b_q_76 = gl.convert_layout(b_q_75_p1, L0)  # convert2_b_q: stage 1, partition 0 (group 0)
        b_q_77 = b_q_76.to(gl.float32)  # convert2_b_q: stage 1, partition 0 (group 0)
        b_beta_p1 = b_beta
        b_h_90_p1 = b_h_90
        b_k_p1 = b_k
        b_q_75_p1 = b_q_75
        b_q_77_p1 = b_q_77
        b_v_p1 = b_v
        b_v_83_p1 = b_v_83
        p_beta_99_p1 = p_beta_99
        p_k_95_p1 = p_k_95
        p_o_96_p1 = p_o_96
        p_q_94_p1 = p_q_94
        p_u_98_p1 = p_u_98
        p_v_97_p1 = p_v_97
        for twill_b in range(2, twill_n):
            p_k_95 = p_k_95_p1 + 1024  # load0_b_k: stage 0, partition 0 (group 0)
            b_k = gl.load(p_k_95_p1, mask=mask_k_43, other=0.0)  # load0_b_k: stage 0, partition 0 (group 0)
            b_k_72 = gl.convert_layout(b_k_p1, L0)  # convert0_b_k: stage 1, partition 0 (group 0)
            b_k_73 = b_k_72.to(gl.float32)  # convert0_b_k: stage 1, partition 0 (group 0)
            b_v_79 = gl.expand_dims(b_k_73, 0)  # elementwise1_b_v: stage 1, partition 0 (group 0)
            b_v_80 = b_v_79.broadcast_to([8, 128])  # elementwise1_b_v: stage 1, partition 0 (group 0)
            b_v_81 = b_h_90_p1 * b_v_80  # elementwise1_b_v: stage 1, partition 0 (group 0)
            p_v_97 = p_v_97_p1 + 1024  # load1_b_v: stage 0, partition 0 (group 0)
            b_v = gl.load(p_v_97_p1, mask=mask_v, other=0.0)  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_74 = b_v_p1.to(gl.float32)  # convert1_b_v: stage 1, partition 0 (group 0)
            p_beta_99 = p_beta_99_p1 + 8  # load3_b_beta: stage 0, partition 0 (group 0)
            b_beta = gl.load(p_beta_99_p1)  # load3_b_beta: stage 0, partition 0 (group 0)
            b_beta_84 = gl.cast(b_beta_p1, gl.float32)  # convert3_b_beta: stage 1, partition 0 (group 0)
            b_v_82 = gl.sum(b_v_81, axis=1)  # reduce0_b_v: stage 1, partition 0 (group 0)
            b_q_78 = b_q_77_p1 * scale  # elementwise0_b_q: stage 2, partition 0 (group 0)
            b_o = gl.expand_dims(b_q_78, 0)  # elementwise5_b_o: stage 2, partition 0 (group 0)
            b_o_91 = b_o.broadcast_to([8, 128])  # elementwise5_b_o: stage 2, partition 0 (group 0)
            b_o_92 = b_h_90_p1 * b_o_91  # elementwise5_b_o: stage 2, partition 0 (group 0)
            b_o_93 = gl.sum(b_o_92, axis=1)  # reduce1_b_o: stage 2, partition 0 (group 0)
            v8 = b_v_83_p1.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
            v9 = gl.convert_layout(v8, L3)  # convert4: stage 2, partition 0 (group 0)
            gl.store(p_u_98_p1, v9, mask=mask_v_44)  # store0: stage 2, partition 0 (group 0)
            p_u_98 = p_u_98_p1 + 1024  # store0: stage 2, partition 0 (group 0)
            b_v_83 = b_v_74 - b_v_82  # elementwise2_b_v: stage 1, partition 0 (group 0)
            b_v_85 = b_beta_84  # elementwise3_b_v: stage 1, partition 0 (group 0)
            b_v_86 = b_v_83 * b_v_85  # elementwise3_b_v: stage 1, partition 0 (group 0)
            b_h_87 = gl.expand_dims(b_v_86, 1)  # elementwise4_b_h: stage 1, partition 0 (group 0)
            b_h_88 = b_h_87.broadcast_to([8, 128])  # elementwise4_b_h: stage 1, partition 0 (group 0)
            b_h_89 = b_v_80 * b_h_88  # elementwise4_b_h: stage 1, partition 0 (group 0)
            b_h_90 = b_h_90_p1 + b_h_89  # elementwise4_b_h: stage 1, partition 0 (group 0)
            v10 = b_o_93.to(gl.float16)  # convert5: stage 2, partition 0 (group 0)
            v11 = gl.convert_layout(v10, L3)  # convert5: stage 2, partition 0 (group 0)
            p_q_94 = p_q_94_p1 + 1024  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_75 = gl.load(p_q_94_p1, mask=mask_k_43, other=0.0)  # load2_b_q: stage 0, partition 0 (group 0)
            b_q_76 = gl.convert_layout(b_q_75_p1, L0)  # convert2_b_q: stage 1, partition 0 (group 0)
            b_q_77 = b_q_76.to(gl.float32)  # convert2_b_q: stage 1, partition 0 (group 0)
            gl.store(p_o_96_p1, v11, mask=mask_v_44)  # store1: stage 2, partition 0 (group 0)
            p_o_96 = p_o_96_p1 + 1024  # store1: stage 2, partition 0 (group 0)
            b_beta_p1 = b_beta
            b_h_90_p1 = b_h_90
            b_k_p1 = b_k
            b_q_75_p1 = b_q_75
            b_q_77_p1 = b_q_77
            b_v_p1 = b_v
            b_v_83_p1 = b_v_83
            p_beta_99_p1 = p_beta_99
            p_k_95_p1 = p_k_95
            p_o_96_p1 = p_o_96
            p_q_94_p1 = p_q_94
            p_u_98_p1 = p_u_98
            p_v_97_p1 = p_v_97
        b_k_72 = gl.convert_layout(b_k_p1, L0)  # convert0_b_k: stage 1, partition 0 (group 0)
        b_k_73 = b_k_72.to(gl.float32)  # convert0_b_k: stage 1, partition 0 (group 0)
        b_v_79 = gl.expand_dims(b_k_73, 0)  # elementwise1_b_v: stage 1, partition 0 (group 0)
        b_v_80 = b_v_79.broadcast_to([8, 128])  # elementwise1_b_v: stage 1, partition 0 (group 0)
        b_v_81 = b_h_90_p1 * b_v_80  # elementwise1_b_v: stage 1, partition 0 (group 0)
        b_v_74 = b_v_p1.to(gl.float32)  # convert1_b_v: stage 1, partition 0 (group 0)
        b_beta_84 = gl.cast(b_beta_p1, gl.float32)  # convert3_b_beta: stage 1, partition 0 (group 0)
        b_v_82 = gl.sum(b_v_81, axis=1)  # reduce0_b_v: stage 1, partition 0 (group 0)
        b_q_78 = b_q_77_p1 * scale  # elementwise0_b_q: stage 2, partition 0 (group 0)
        b_o = gl.expand_dims(b_q_78, 0)  # elementwise5_b_o: stage 2, partition 0 (group 0)
        b_o_91 = b_o.broadcast_to([8, 128])  # elementwise5_b_o: stage 2, partition 0 (group 0)
        b_o_92 = b_h_90_p1 * b_o_91  # elementwise5_b_o: stage 2, partition 0 (group 0)
        b_o_93 = gl.sum(b_o_92, axis=1)  # reduce1_b_o: stage 2, partition 0 (group 0)
        v8 = b_v_83_p1.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
        v9 = gl.convert_layout(v8, L3)  # convert4: stage 2, partition 0 (group 0)
        gl.store(p_u_98_p1, v9, mask=mask_v_44)  # store0: stage 2, partition 0 (group 0)
        p_u_98 = p_u_98_p1 + 1024  # store0: stage 2, partition 0 (group 0)
        b_v_83 = b_v_74 - b_v_82  # elementwise2_b_v: stage 1, partition 0 (group 0)
        b_v_85 = b_beta_84  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_v_86 = b_v_83 * b_v_85  # elementwise3_b_v: stage 1, partition 0 (group 0)
        b_h_87 = gl.expand_dims(b_v_86, 1)  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_88 = b_h_87.broadcast_to([8, 128])  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_89 = b_v_80 * b_h_88  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_90 = b_h_90_p1 + b_h_89  # elementwise4_b_h: stage 1, partition 0 (group 0)
        v10 = b_o_93.to(gl.float16)  # convert5: stage 2, partition 0 (group 0)
        v11 = gl.convert_layout(v10, L3)  # convert5: stage 2, partition 0 (group 0)
        b_q_76 = gl.convert_layout(b_q_75_p1, L0)  # convert2_b_q: stage 1, partition 0 (group 0)
        b_q_77 = b_q_76.to(gl.float32)  # convert2_b_q: stage 1, partition 0 (group 0)
        gl.store(p_o_96_p1, v11, mask=mask_v_44)  # store1: stage 2, partition 0 (group 0)
        p_o_96 = p_o_96_p1 + 1024  # store1: stage 2, partition 0 (group 0)
        b_beta_p1 = b_beta
        b_h_90_p2 = b_h_90_p1
        b_h_90_p1 = b_h_90
        b_k_p1 = b_k
        b_q_75_p1 = b_q_75
        b_q_77_p1 = b_q_77
        b_v_p1 = b_v
        b_v_83_p1 = b_v_83
        p_beta_99_p2 = p_beta_99_p1
        p_beta_99_p1 = p_beta_99
        p_k_95_p2 = p_k_95_p1
        p_k_95_p1 = p_k_95
        p_o_96_p1 = p_o_96
        p_q_94_p2 = p_q_94_p1
        p_q_94_p1 = p_q_94
        p_u_98_p1 = p_u_98
        p_v_97_p2 = p_v_97_p1
        p_v_97_p1 = p_v_97
        b_q_78 = b_q_77_p1 * scale  # elementwise0_b_q: stage 2, partition 0 (group 0)
        b_o = gl.expand_dims(b_q_78, 0)  # elementwise5_b_o: stage 2, partition 0 (group 0)
        b_o_91 = b_o.broadcast_to([8, 128])  # elementwise5_b_o: stage 2, partition 0 (group 0)
        b_o_92 = b_h_90_p1 * b_o_91  # elementwise5_b_o: stage 2, partition 0 (group 0)
        b_o_93 = gl.sum(b_o_92, axis=1)  # reduce1_b_o: stage 2, partition 0 (group 0)
        v8 = b_v_83_p1.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
        v9 = gl.convert_layout(v8, L3)  # convert4: stage 2, partition 0 (group 0)
        gl.store(p_u_98_p1, v9, mask=mask_v_44)  # store0: stage 2, partition 0 (group 0)
        p_u_98 = p_u_98_p1 + 1024  # store0: stage 2, partition 0 (group 0)
        v10 = b_o_93.to(gl.float16)  # convert5: stage 2, partition 0 (group 0)
        v11 = gl.convert_layout(v10, L3)  # convert5: stage 2, partition 0 (group 0)
        gl.store(p_o_96_p1, v11, mask=mask_v_44)  # store1: stage 2, partition 0 (group 0)
        p_o_96 = p_o_96_p1 + 1024  # store1: stage 2, partition 0 (group 0)
        b_beta_p1 = b_beta
        b_h_90_p2 = b_h_90_p1
        b_h_90_p1 = b_h_90
        b_k_p1 = b_k
        b_q_75_p1 = b_q_75
        b_q_77_p1 = b_q_77
        b_v_p1 = b_v
        b_v_83_p1 = b_v_83
        p_beta_99_p3 = p_beta_99_p2
        p_beta_99_p2 = p_beta_99_p1
        p_beta_99_p1 = p_beta_99
        p_k_95_p3 = p_k_95_p2
        p_k_95_p2 = p_k_95_p1
        p_k_95_p1 = p_k_95
        p_o_96_p1 = p_o_96
        p_q_94_p3 = p_q_94_p2
        p_q_94_p2 = p_q_94_p1
        p_q_94_p1 = p_q_94
        p_u_98_p1 = p_u_98
        p_v_97_p3 = p_v_97_p2
        p_v_97_p2 = p_v_97_p1
        p_v_97_p1 = p_v_97
    else:
        p_u_65_w = p_u_32
        p_beta_66_w = p_beta_33
        p_o_67_w = p_o_41
        b_h_68_w = b_h_58
        p_k_69_w = p_k_28
        p_v_70_w = p_v_30
        p_q_71_w = p_q_26
        for b_h_64_w in range(0, T, 1):
            b_k_w = gl.load(p_k_69_w, mask=mask_k_43, other=0.0)
            b_k_72_w = gl.convert_layout(b_k_w, L0)
            b_k_73_w = b_k_72_w.to(gl.float32)
            b_v_w = gl.load(p_v_70_w, mask=mask_v, other=0.0)
            b_v_74_w = b_v_w.to(gl.float32)
            b_q_75_w = gl.load(p_q_71_w, mask=mask_k_43, other=0.0)
            b_q_76_w = gl.convert_layout(b_q_75_w, L0)
            b_q_77_w = b_q_76_w.to(gl.float32)
            b_q_78_w = b_q_77_w * scale
            b_v_79_w = gl.expand_dims(b_k_73_w, 0)
            b_v_80_w = b_v_79_w.broadcast_to([8, 128])
            b_v_81_w = b_h_68_w * b_v_80_w
            b_v_82_w = gl.sum(b_v_81_w, axis=1)
            b_v_83_w = b_v_74_w - b_v_82_w
            b_beta_w = gl.load(p_beta_66_w)
            b_beta_84_w = gl.cast(b_beta_w, gl.float32)
            v8_w = b_v_83_w.to(gl.float16)
            v9_w = gl.convert_layout(v8_w, L3)
            gl.store(p_u_65_w, v9_w, mask=mask_v_44)
            b_v_86_w = b_v_83_w * b_beta_84_w
            b_h_87_w = gl.expand_dims(b_v_86_w, 1)
            b_h_88_w = b_h_87_w.broadcast_to([8, 128])
            b_h_89_w = b_v_80_w * b_h_88_w
            b_h_90_w = b_h_68_w + b_h_89_w
            b_o_w = gl.expand_dims(b_q_78_w, 0)
            b_o_91_w = b_o_w.broadcast_to([8, 128])
            b_o_92_w = b_h_90_w * b_o_91_w
            b_o_93_w = gl.sum(b_o_92_w, axis=1)
            v10_w = b_o_93_w.to(gl.float16)
            v11_w = gl.convert_layout(v10_w, L3)
            gl.store(p_o_67_w, v11_w, mask=mask_v_44)
            p_q_94_w = p_q_71_w + 1024
            p_k_95_w = p_k_69_w + 1024
            p_o_96_w = p_o_67_w + 1024
            p_v_97_w = p_v_70_w + 1024
            p_u_98_w = p_u_65_w + 1024
            p_beta_99_w = p_beta_66_w + 8
            p_u_65_w = p_u_98_w
            p_beta_66_w = p_beta_99_w
            p_o_67_w = p_o_96_w
            b_h_68_w = b_h_90_w
            p_k_69_w = p_k_95_w
            p_v_70_w = p_v_97_w
            p_q_71_w = p_q_94_w
        p_u_98_p1 = p_u_65_w
        p_beta_99_p3 = p_beta_66_w
        p_o_96_p1 = p_o_67_w
        b_h_90_p2 = b_h_68_w
        p_k_95_p3 = p_k_69_w
        p_v_97_p3 = p_v_70_w
        p_q_94_p3 = p_q_71_w
    p_ht = ht + p_h0
    p_ht_61 = p_ht + p_h0_51
    p_ht_62 = p_ht_61.broadcast_to([8, 128])
    p_ht_63 = p_ht_62 + p_h0_56
    gl.store(p_ht_63, b_h_90_p2, mask=mask_h_48)

@gluon.jit
def twill_kernel(q, k, v, u, beta, o, h0, ht, scale, T):
    consumer_0(q, k, v, u, beta, o, h0, ht, scale, T, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'u', 'beta', 'o', 'h0', 'ht', 'cu_seqlens', 'scale', 'T', 'B', 'H', 'K', 'V', 'BK', 'BV', 'USE_INITIAL_STATE', 'STORE_FINAL_STATE', 'IS_BETA_HEADWISE', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'u', 'beta', 'o', 'h0', 'ht', 'scale', 'T']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'u', 'beta', 'o', 'h0', 'ht', 'cu_seqlens', 'scale', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'B': 4, 'H': 8, 'K': 128, 'V': 128, 'BK': 128, 'BV': 8, 'USE_INITIAL_STATE': True, 'STORE_FINAL_STATE': True, 'IS_BETA_HEADWISE': False, 'IS_VARLEN': False}         # the specialisation this kernel was generated for
HEURISTICS = {'USE_INITIAL_STATE': "lambda args: args['h0'] is not None", 'STORE_FINAL_STATE': "lambda args: args['ht'] is not None", 'IS_VARLEN': "lambda args: args['cu_seqlens'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 1
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
