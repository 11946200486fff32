"""fused_recurrent_dplr_delta_rule_fwd_kernel, written by twill from its joint schedule: I=417 L=834 (optimal), 610 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 104).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 2 warps, registers as ptxas allocates them (the schedule's tiles need about 77 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 2], order=[0, 1])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[2], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 2], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 2], order=[1, 0])))

@gluon.jit
def consumer_0(q, k, v, a, b, gk, o, h0, ht, cu_seqlens, scale, T):
    v0 = gl.program_id(0)
    v1 = gl.cast(v0, gl.int64)
    v2 = gl.program_id(1)
    v3 = gl.cast(v2, gl.int64)
    v4 = v3 // 32
    v5 = v3 % 32
    v6 = cu_seqlens + v4
    v7 = gl.load(v6)
    v8 = gl.cast(v7, gl.int64)
    v9 = v6 + 1
    v10 = gl.load(v9)
    v11 = gl.cast(v10, gl.int64)
    T_10 = v11 - v8
    o_k = gl.arange(0, 64, layout=L0)
    o_k_11 = gl.arange(0, 64, layout=L1)
    o_v_12 = v1 * 16
    o_v_13 = gl.arange(0, 16, layout=L2)
    o_v_14 = gl.arange(0, 16, layout=L1)
    o_v_15 = o_v_13.to(gl.int64)
    o_v_16 = o_v_14.to(gl.int64)
    o_v_19 = o_v_12 + o_v_15
    o_v_20 = o_v_12 + o_v_16
    p_q = v8 * 2048
    p_q_21 = v5 * 64
    p_q_22 = p_q + p_q_21
    p_q_23 = q + p_q_22
    p_q_25 = p_q_23 + o_k_11
    p_k = k + p_q_22
    p_k_27 = p_k + o_k_11
    p_a = a + p_q_22
    p_a_29 = p_a + o_k_11
    p_b = b + p_q_22
    p_b_31 = p_b + o_k_11
    p_gk = gk + p_q_22
    p_gk_33 = p_gk + o_k_11
    p_v = v + p_q_22
    p_v_35 = p_v + o_v_19
    p_o = o + p_q_22
    p_o_37 = p_o + o_v_20
    mask_k_38 = o_k < 64
    mask_k_39 = o_k_11 < 64
    mask_v = o_v_19 < 64
    mask_v_40 = o_v_20 < 64
    mask_h = gl.expand_dims(mask_k_38, 0)
    mask_h_41 = gl.expand_dims(mask_v, 1)
    mask_h_42 = mask_h.broadcast_to([16, 64])
    mask_h_43 = mask_h_41.broadcast_to([16, 64])
    mask_h_44 = mask_h_42 & mask_h_43
    p_h0 = v3 * 4096
    p_h0_45 = h0 + p_h0
    p_h0_46 = gl.expand_dims(o_k, 0)
    p_h0_47 = p_h0_46 * 64
    p_h0_49 = p_h0_45 + p_h0_47
    p_h0_50 = gl.expand_dims(o_v_19, 1)
    p_h0_51 = p_h0_49.broadcast_to([16, 64])
    p_h0_52 = p_h0_50.broadcast_to([16, 64])
    p_h0_53 = p_h0_51 + p_h0_52
    b_h = gl.load(p_h0_53, mask=mask_h_44, other=0.0)
    b_h_54 = b_h + 0.0
    twill_n = gl.cast((T_10 - 0 + 1 - 1) // 1, gl.int32)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        p_k_108 = p_k_27
        p_a_109 = p_a_29
        p_b_110 = p_b_31
        p_gk_111 = p_gk_33
        p_v_112 = p_v_35
        p_a_109_p1 = p_a_109
        p_b_110_p1 = p_b_110
        p_gk_111_p1 = p_gk_111
        p_k_108_p1 = p_k_108
        p_v_112_p1 = p_v_112
        p_q_107 = p_q_25
        b_h_101 = b_h_54
        p_a_109 = p_a_109_p1 + 2048  # load2_b_a: stage 0, partition 0 (group 0)
        b_a = gl.load(p_a_109_p1, mask=mask_k_39, other=0.0)  # load2_b_a: stage 0, partition 0 (group 0)
        p_b_110 = p_b_110_p1 + 2048  # load3_b_b: stage 0, partition 0 (group 0)
        b_b = gl.load(p_b_110_p1, mask=mask_k_39, other=0.0)  # load3_b_b: stage 0, partition 0 (group 0)
        p_v_112 = p_v_112_p1 + 2048  # load5_b_v: stage 0, partition 0 (group 0)
        b_v = gl.load(p_v_112_p1, mask=mask_v, other=0.0)  # load5_b_v: stage 0, partition 0 (group 0)
        p_k_108 = p_k_108_p1 + 2048  # load1_b_k: stage 0, partition 0 (group 0)
        b_k = gl.load(p_k_108_p1, mask=mask_k_39, other=0.0)  # load1_b_k: stage 0, partition 0 (group 0)
        p_gk_111 = p_gk_111_p1 + 2048  # load4_b_gk: stage 0, partition 0 (group 0)
        b_gk = gl.load(p_gk_111_p1, mask=mask_k_39, other=0.0)  # load4_b_gk: stage 0, partition 0 (group 0)
        b_a_p1 = b_a
        b_b_p1 = b_b
        b_gk_p1 = b_gk
        b_h_101_p1 = b_h_101
        b_k_p1 = b_k
        b_v_p1 = b_v
        p_a_109_p1 = p_a_109
        p_b_110_p1 = p_b_110
        p_gk_111_p1 = p_gk_111
        p_k_108_p1 = p_k_108
        p_q_107_p1 = p_q_107
        p_v_112_p1 = p_v_112
        p_o_113 = p_o_37
        p_q_107 = p_q_107_p1 + 2048  # load0_b_q: stage 1, partition 0 (group 0)
        b_q_69 = gl.load(p_q_107_p1, mask=mask_k_39, other=0.0)  # load0_b_q: stage 1, partition 0 (group 0)
        p_a_109 = p_a_109_p1 + 2048  # load2_b_a: stage 0, partition 0 (group 0)
        b_a = gl.load(p_a_109_p1, mask=mask_k_39, other=0.0)  # load2_b_a: stage 0, partition 0 (group 0)
        tmp = gl.convert_layout(b_a_p1, L3)  # convert2_tmp: stage 1, partition 0 (group 0)
        b_a_74 = tmp.to(gl.float32)  # convert2_tmp: stage 1, partition 0 (group 0)
        tmp_78 = gl.convert_layout(b_a_74, L0)  # convert2_tmp: stage 1, partition 0 (group 0)
        tmp_79 = gl.expand_dims(tmp_78, 0)  # elementwise1_tmp: stage 1, partition 0 (group 0)
        tmp_80 = tmp_79.broadcast_to([16, 64])  # elementwise1_tmp: stage 1, partition 0 (group 0)
        tmp_81 = b_h_101_p1 * tmp_80  # elementwise1_tmp: stage 1, partition 0 (group 0)
        p_b_110 = p_b_110_p1 + 2048  # load3_b_b: stage 0, partition 0 (group 0)
        b_b = gl.load(p_b_110_p1, mask=mask_k_39, other=0.0)  # load3_b_b: stage 0, partition 0 (group 0)
        b_h_75 = gl.convert_layout(b_b_p1, L3)  # convert3_b_h: stage 1, partition 0 (group 0)
        b_b_76 = b_h_75.to(gl.float32)  # convert3_b_h: stage 1, partition 0 (group 0)
        b_h_89 = gl.convert_layout(b_b_76, L0)  # convert3_b_h: stage 1, partition 0 (group 0)
        p_v_112 = p_v_112_p1 + 2048  # load5_b_v: stage 0, partition 0 (group 0)
        b_v = gl.load(p_v_112_p1, mask=mask_v, other=0.0)  # load5_b_v: stage 0, partition 0 (group 0)
        b_v_77 = b_v_p1.to(gl.float32)  # convert4_b_v: stage 1, partition 0 (group 0)
        p_k_108 = p_k_108_p1 + 2048  # load1_b_k: stage 0, partition 0 (group 0)
        b_k = gl.load(p_k_108_p1, mask=mask_k_39, other=0.0)  # load1_b_k: stage 0, partition 0 (group 0)
        b_h_72 = gl.convert_layout(b_k_p1, L3)  # convert1_b_h: stage 1, partition 0 (group 0)
        b_k_73 = b_h_72.to(gl.float32)  # convert1_b_h: stage 1, partition 0 (group 0)
        b_h_94 = gl.convert_layout(b_k_73, L0)  # convert1_b_h: stage 1, partition 0 (group 0)
        p_gk_111 = p_gk_111_p1 + 2048  # load4_b_gk: stage 0, partition 0 (group 0)
        b_gk = gl.load(p_gk_111_p1, mask=mask_k_39, other=0.0)  # load4_b_gk: stage 0, partition 0 (group 0)
        b_h_83 = gl.exp(b_gk_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
        tmp_82 = gl.sum(tmp_81, axis=1)  # reduce0_tmp: stage 1, partition 0 (group 0)
        b_h_84 = gl.convert_layout(b_h_83, L0)  # convert5_b_h: stage 1, partition 0 (group 0)
        b_h_85 = gl.expand_dims(b_h_84, 0)  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_86 = b_h_85.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_87 = b_h_86 * b_h_101_p1  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_88 = gl.expand_dims(tmp_82, 1)  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_90 = gl.expand_dims(b_h_89, 0)  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_91 = b_h_88.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_92 = b_h_90.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_93 = b_h_91 * b_h_92  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_95 = gl.expand_dims(b_h_94, 0)  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_96 = gl.expand_dims(b_v_77, 1)  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_97 = b_h_95.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_98 = b_h_96.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_99 = b_h_97 * b_h_98  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_100 = b_h_93 + b_h_99  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_101 = b_h_87 + b_h_100  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_a_p1 = b_a
        b_b_p1 = b_b
        b_gk_p1 = b_gk
        b_h_101_p1 = b_h_101
        b_k_p1 = b_k
        b_q_69_p1 = b_q_69
        b_v_p1 = b_v
        p_a_109_p1 = p_a_109
        p_b_110_p1 = p_b_110
        p_gk_111_p1 = p_gk_111
        p_k_108_p1 = p_k_108
        p_o_113_p1 = p_o_113
        p_q_107_p1 = p_q_107
        p_v_112_p1 = p_v_112
        for twill_b in range(2, twill_n):
            p_q_107 = p_q_107_p1 + 2048  # load0_b_q: stage 1, partition 0 (group 0)
            b_q_69 = gl.load(p_q_107_p1, mask=mask_k_39, other=0.0)  # load0_b_q: stage 1, partition 0 (group 0)
            b_o = gl.convert_layout(b_q_69_p1, L3)  # convert0_b_o: stage 2, partition 0 (group 0)
            b_q_70 = b_o.to(gl.float32)  # convert0_b_o: stage 2, partition 0 (group 0)
            p_a_109 = p_a_109_p1 + 2048  # load2_b_a: stage 0, partition 0 (group 0)
            b_a = gl.load(p_a_109_p1, mask=mask_k_39, other=0.0)  # load2_b_a: stage 0, partition 0 (group 0)
            tmp = gl.convert_layout(b_a_p1, L3)  # convert2_tmp: stage 1, partition 0 (group 0)
            b_a_74 = tmp.to(gl.float32)  # convert2_tmp: stage 1, partition 0 (group 0)
            tmp_78 = gl.convert_layout(b_a_74, L0)  # convert2_tmp: stage 1, partition 0 (group 0)
            tmp_79 = gl.expand_dims(tmp_78, 0)  # elementwise1_tmp: stage 1, partition 0 (group 0)
            tmp_80 = tmp_79.broadcast_to([16, 64])  # elementwise1_tmp: stage 1, partition 0 (group 0)
            tmp_81 = b_h_101_p1 * tmp_80  # elementwise1_tmp: stage 1, partition 0 (group 0)
            p_b_110 = p_b_110_p1 + 2048  # load3_b_b: stage 0, partition 0 (group 0)
            b_b = gl.load(p_b_110_p1, mask=mask_k_39, other=0.0)  # load3_b_b: stage 0, partition 0 (group 0)
            b_h_75 = gl.convert_layout(b_b_p1, L3)  # convert3_b_h: stage 1, partition 0 (group 0)
            b_b_76 = b_h_75.to(gl.float32)  # convert3_b_h: stage 1, partition 0 (group 0)
            b_h_89 = gl.convert_layout(b_b_76, L0)  # convert3_b_h: stage 1, partition 0 (group 0)
            p_v_112 = p_v_112_p1 + 2048  # load5_b_v: stage 0, partition 0 (group 0)
            b_v = gl.load(p_v_112_p1, mask=mask_v, other=0.0)  # load5_b_v: stage 0, partition 0 (group 0)
            b_v_77 = b_v_p1.to(gl.float32)  # convert4_b_v: stage 1, partition 0 (group 0)
            p_k_108 = p_k_108_p1 + 2048  # load1_b_k: stage 0, partition 0 (group 0)
            b_k = gl.load(p_k_108_p1, mask=mask_k_39, other=0.0)  # load1_b_k: stage 0, partition 0 (group 0)
            b_h_72 = gl.convert_layout(b_k_p1, L3)  # convert1_b_h: stage 1, partition 0 (group 0)
            b_k_73 = b_h_72.to(gl.float32)  # convert1_b_h: stage 1, partition 0 (group 0)
            b_h_94 = gl.convert_layout(b_k_73, L0)  # convert1_b_h: stage 1, partition 0 (group 0)
            p_gk_111 = p_gk_111_p1 + 2048  # load4_b_gk: stage 0, partition 0 (group 0)
            b_gk = gl.load(p_gk_111_p1, mask=mask_k_39, other=0.0)  # load4_b_gk: stage 0, partition 0 (group 0)
            b_h_83 = gl.exp(b_gk_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
            tmp_82 = gl.sum(tmp_81, axis=1)  # reduce0_tmp: stage 1, partition 0 (group 0)
            b_q_71 = b_q_70 * scale  # elementwise0_b_q: stage 2, partition 0 (group 0)
            b_o_102 = gl.convert_layout(b_q_71, L0)  # convert6_b_o: stage 2, partition 0 (group 0)
            b_o_103 = gl.expand_dims(b_o_102, 0)  # elementwise3_b_o: stage 2, partition 0 (group 0)
            b_o_104 = b_o_103.broadcast_to([16, 64])  # elementwise3_b_o: stage 2, partition 0 (group 0)
            b_o_105 = b_h_101_p1 * b_o_104  # elementwise3_b_o: stage 2, partition 0 (group 0)
            b_o_106 = gl.sum(b_o_105, axis=1)  # reduce1_b_o: stage 2, partition 0 (group 0)
            b_h_84 = gl.convert_layout(b_h_83, L0)  # convert5_b_h: stage 1, partition 0 (group 0)
            b_h_85 = gl.expand_dims(b_h_84, 0)  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_86 = b_h_85.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_87 = b_h_86 * b_h_101_p1  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_88 = gl.expand_dims(tmp_82, 1)  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_90 = gl.expand_dims(b_h_89, 0)  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_91 = b_h_88.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_92 = b_h_90.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_93 = b_h_91 * b_h_92  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_95 = gl.expand_dims(b_h_94, 0)  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_96 = gl.expand_dims(b_v_77, 1)  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_97 = b_h_95.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_98 = b_h_96.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_99 = b_h_97 * b_h_98  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_100 = b_h_93 + b_h_99  # elementwise2_b_h: stage 1, partition 0 (group 0)
            b_h_101 = b_h_87 + b_h_100  # elementwise2_b_h: stage 1, partition 0 (group 0)
            v12 = b_o_106.to(gl.bfloat16)  # convert7: stage 2, partition 0 (group 0)
            v13 = gl.convert_layout(v12, L1)  # convert7: stage 2, partition 0 (group 0)
            gl.store(p_o_113_p1, v13, mask=mask_v_40)  # store0: stage 2, partition 0 (group 0)
            p_o_113 = p_o_113_p1 + 2048  # store0: stage 2, partition 0 (group 0)
            b_a_p1 = b_a
            b_b_p1 = b_b
            b_gk_p1 = b_gk
            b_h_101_p1 = b_h_101
            b_k_p1 = b_k
            b_q_69_p1 = b_q_69
            b_v_p1 = b_v
            p_a_109_p1 = p_a_109
            p_b_110_p1 = p_b_110
            p_gk_111_p1 = p_gk_111
            p_k_108_p1 = p_k_108
            p_o_113_p1 = p_o_113
            p_q_107_p1 = p_q_107
            p_v_112_p1 = p_v_112
        p_q_107 = p_q_107_p1 + 2048  # load0_b_q: stage 1, partition 0 (group 0)
        b_q_69 = gl.load(p_q_107_p1, mask=mask_k_39, other=0.0)  # load0_b_q: stage 1, partition 0 (group 0)
        b_o = gl.convert_layout(b_q_69_p1, L3)  # convert0_b_o: stage 2, partition 0 (group 0)
        b_q_70 = b_o.to(gl.float32)  # convert0_b_o: stage 2, partition 0 (group 0)
        tmp = gl.convert_layout(b_a_p1, L3)  # convert2_tmp: stage 1, partition 0 (group 0)
        b_a_74 = tmp.to(gl.float32)  # convert2_tmp: stage 1, partition 0 (group 0)
        tmp_78 = gl.convert_layout(b_a_74, L0)  # convert2_tmp: stage 1, partition 0 (group 0)
        tmp_79 = gl.expand_dims(tmp_78, 0)  # elementwise1_tmp: stage 1, partition 0 (group 0)
        tmp_80 = tmp_79.broadcast_to([16, 64])  # elementwise1_tmp: stage 1, partition 0 (group 0)
        tmp_81 = b_h_101_p1 * tmp_80  # elementwise1_tmp: stage 1, partition 0 (group 0)
        b_h_75 = gl.convert_layout(b_b_p1, L3)  # convert3_b_h: stage 1, partition 0 (group 0)
        b_b_76 = b_h_75.to(gl.float32)  # convert3_b_h: stage 1, partition 0 (group 0)
        b_h_89 = gl.convert_layout(b_b_76, L0)  # convert3_b_h: stage 1, partition 0 (group 0)
        b_v_77 = b_v_p1.to(gl.float32)  # convert4_b_v: stage 1, partition 0 (group 0)
        b_h_72 = gl.convert_layout(b_k_p1, L3)  # convert1_b_h: stage 1, partition 0 (group 0)
        b_k_73 = b_h_72.to(gl.float32)  # convert1_b_h: stage 1, partition 0 (group 0)
        b_h_94 = gl.convert_layout(b_k_73, L0)  # convert1_b_h: stage 1, partition 0 (group 0)
        b_h_83 = gl.exp(b_gk_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
        tmp_82 = gl.sum(tmp_81, axis=1)  # reduce0_tmp: stage 1, partition 0 (group 0)
        b_q_71 = b_q_70 * scale  # elementwise0_b_q: stage 2, partition 0 (group 0)
        b_o_102 = gl.convert_layout(b_q_71, L0)  # convert6_b_o: stage 2, partition 0 (group 0)
        b_o_103 = gl.expand_dims(b_o_102, 0)  # elementwise3_b_o: stage 2, partition 0 (group 0)
        b_o_104 = b_o_103.broadcast_to([16, 64])  # elementwise3_b_o: stage 2, partition 0 (group 0)
        b_o_105 = b_h_101_p1 * b_o_104  # elementwise3_b_o: stage 2, partition 0 (group 0)
        b_o_106 = gl.sum(b_o_105, axis=1)  # reduce1_b_o: stage 2, partition 0 (group 0)
        b_h_84 = gl.convert_layout(b_h_83, L0)  # convert5_b_h: stage 1, partition 0 (group 0)
        b_h_85 = gl.expand_dims(b_h_84, 0)  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_86 = b_h_85.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_87 = b_h_86 * b_h_101_p1  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_88 = gl.expand_dims(tmp_82, 1)  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_90 = gl.expand_dims(b_h_89, 0)  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_91 = b_h_88.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_92 = b_h_90.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_93 = b_h_91 * b_h_92  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_95 = gl.expand_dims(b_h_94, 0)  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_96 = gl.expand_dims(b_v_77, 1)  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_97 = b_h_95.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_98 = b_h_96.broadcast_to([16, 64])  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_99 = b_h_97 * b_h_98  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_100 = b_h_93 + b_h_99  # elementwise2_b_h: stage 1, partition 0 (group 0)
        b_h_101 = b_h_87 + b_h_100  # elementwise2_b_h: stage 1, partition 0 (group 0)
        v12 = b_o_106.to(gl.bfloat16)  # convert7: stage 2, partition 0 (group 0)
        v13 = gl.convert_layout(v12, L1)  # convert7: stage 2, partition 0 (group 0)
        gl.store(p_o_113_p1, v13, mask=mask_v_40)  # store0: stage 2, partition 0 (group 0)
        p_o_113 = p_o_113_p1 + 2048  # store0: stage 2, partition 0 (group 0)
        b_a_p1 = b_a
        b_b_p1 = b_b
        b_gk_p1 = b_gk
        b_h_101_p2 = b_h_101_p1
        b_h_101_p1 = b_h_101
        b_k_p1 = b_k
        b_q_69_p1 = b_q_69
        b_v_p1 = b_v
        p_a_109_p2 = p_a_109_p1
        p_a_109_p1 = p_a_109
        p_b_110_p2 = p_b_110_p1
        p_b_110_p1 = p_b_110
        p_gk_111_p2 = p_gk_111_p1
        p_gk_111_p1 = p_gk_111
        p_k_108_p2 = p_k_108_p1
        p_k_108_p1 = p_k_108
        p_o_113_p1 = p_o_113
        p_q_107_p2 = p_q_107_p1
        p_q_107_p1 = p_q_107
        p_v_112_p2 = p_v_112_p1
        p_v_112_p1 = p_v_112
        b_o = gl.convert_layout(b_q_69_p1, L3)  # convert0_b_o: stage 2, partition 0 (group 0)
        b_q_70 = b_o.to(gl.float32)  # convert0_b_o: stage 2, partition 0 (group 0)
        b_q_71 = b_q_70 * scale  # elementwise0_b_q: stage 2, partition 0 (group 0)
        b_o_102 = gl.convert_layout(b_q_71, L0)  # convert6_b_o: stage 2, partition 0 (group 0)
        b_o_103 = gl.expand_dims(b_o_102, 0)  # elementwise3_b_o: stage 2, partition 0 (group 0)
        b_o_104 = b_o_103.broadcast_to([16, 64])  # elementwise3_b_o: stage 2, partition 0 (group 0)
        b_o_105 = b_h_101_p1 * b_o_104  # elementwise3_b_o: stage 2, partition 0 (group 0)
        b_o_106 = gl.sum(b_o_105, axis=1)  # reduce1_b_o: stage 2, partition 0 (group 0)
        v12 = b_o_106.to(gl.bfloat16)  # convert7: stage 2, partition 0 (group 0)
        v13 = gl.convert_layout(v12, L1)  # convert7: stage 2, partition 0 (group 0)
        gl.store(p_o_113_p1, v13, mask=mask_v_40)  # store0: stage 2, partition 0 (group 0)
        p_o_113 = p_o_113_p1 + 2048  # store0: stage 2, partition 0 (group 0)
        b_a_p1 = b_a
        b_b_p1 = b_b
        b_gk_p1 = b_gk
        b_h_101_p2 = b_h_101_p1
        b_h_101_p1 = b_h_101
        b_k_p1 = b_k
        b_q_69_p1 = b_q_69
        b_v_p1 = b_v
        p_a_109_p3 = p_a_109_p2
        p_a_109_p2 = p_a_109_p1
        p_a_109_p1 = p_a_109
        p_b_110_p3 = p_b_110_p2
        p_b_110_p2 = p_b_110_p1
        p_b_110_p1 = p_b_110
        p_gk_111_p3 = p_gk_111_p2
        p_gk_111_p2 = p_gk_111_p1
        p_gk_111_p1 = p_gk_111
        p_k_108_p3 = p_k_108_p2
        p_k_108_p2 = p_k_108_p1
        p_k_108_p1 = p_k_108
        p_o_113_p1 = p_o_113
        p_q_107_p2 = p_q_107_p1
        p_q_107_p1 = p_q_107
        p_v_112_p3 = p_v_112_p2
        p_v_112_p2 = p_v_112_p1
        p_v_112_p1 = p_v_112
    else:
        p_q_61_w = p_q_25
        p_k_62_w = p_k_27
        p_a_63_w = p_a_29
        p_b_64_w = p_b_31
        p_gk_65_w = p_gk_33
        p_o_66_w = p_o_37
        b_h_67_w = b_h_54
        p_v_68_w = p_v_35
        for b_h_60_w in range(0, T_10, 1):
            b_q_69_w = gl.load(p_q_61_w, mask=mask_k_39, other=0.0)
            b_o_w = gl.convert_layout(b_q_69_w, L3)
            b_q_70_w = b_o_w.to(gl.float32)
            b_q_71_w = b_q_70_w * scale
            b_k_w = gl.load(p_k_62_w, mask=mask_k_39, other=0.0)
            b_h_72_w = gl.convert_layout(b_k_w, L3)
            b_k_73_w = b_h_72_w.to(gl.float32)
            b_a_w = gl.load(p_a_63_w, mask=mask_k_39, other=0.0)
            tmp_w = gl.convert_layout(b_a_w, L3)
            b_a_74_w = tmp_w.to(gl.float32)
            b_b_w = gl.load(p_b_64_w, mask=mask_k_39, other=0.0)
            b_h_75_w = gl.convert_layout(b_b_w, L3)
            b_b_76_w = b_h_75_w.to(gl.float32)
            b_gk_w = gl.load(p_gk_65_w, mask=mask_k_39, other=0.0)
            b_v_w = gl.load(p_v_68_w, mask=mask_v, other=0.0)
            b_v_77_w = b_v_w.to(gl.float32)
            tmp_78_w = gl.convert_layout(b_a_74_w, L0)
            tmp_79_w = gl.expand_dims(tmp_78_w, 0)
            tmp_80_w = tmp_79_w.broadcast_to([16, 64])
            tmp_81_w = b_h_67_w * tmp_80_w
            tmp_82_w = gl.sum(tmp_81_w, axis=1)
            b_h_83_w = gl.exp(b_gk_w)
            b_h_84_w = gl.convert_layout(b_h_83_w, L0)
            b_h_85_w = gl.expand_dims(b_h_84_w, 0)
            b_h_86_w = b_h_85_w.broadcast_to([16, 64])
            b_h_87_w = b_h_86_w * b_h_67_w
            b_h_88_w = gl.expand_dims(tmp_82_w, 1)
            b_h_89_w = gl.convert_layout(b_b_76_w, L0)
            b_h_90_w = gl.expand_dims(b_h_89_w, 0)
            b_h_91_w = b_h_88_w.broadcast_to([16, 64])
            b_h_92_w = b_h_90_w.broadcast_to([16, 64])
            b_h_93_w = b_h_91_w * b_h_92_w
            b_h_94_w = gl.convert_layout(b_k_73_w, L0)
            b_h_95_w = gl.expand_dims(b_h_94_w, 0)
            b_h_96_w = gl.expand_dims(b_v_77_w, 1)
            b_h_97_w = b_h_95_w.broadcast_to([16, 64])
            b_h_98_w = b_h_96_w.broadcast_to([16, 64])
            b_h_99_w = b_h_97_w * b_h_98_w
            b_h_100_w = b_h_93_w + b_h_99_w
            b_h_101_w = b_h_87_w + b_h_100_w
            b_o_102_w = gl.convert_layout(b_q_71_w, L0)
            b_o_103_w = gl.expand_dims(b_o_102_w, 0)
            b_o_104_w = b_o_103_w.broadcast_to([16, 64])
            b_o_105_w = b_h_101_w * b_o_104_w
            b_o_106_w = gl.sum(b_o_105_w, axis=1)
            v12_w = b_o_106_w.to(gl.bfloat16)
            v13_w = gl.convert_layout(v12_w, L1)
            gl.store(p_o_66_w, v13_w, mask=mask_v_40)
            p_q_107_w = p_q_61_w + 2048
            p_k_108_w = p_k_62_w + 2048
            p_a_109_w = p_a_63_w + 2048
            p_b_110_w = p_b_64_w + 2048
            p_gk_111_w = p_gk_65_w + 2048
            p_v_112_w = p_v_68_w + 2048
            p_o_113_w = p_o_66_w + 2048
            p_q_61_w = p_q_107_w
            p_k_62_w = p_k_108_w
            p_a_63_w = p_a_109_w
            p_b_64_w = p_b_110_w
            p_gk_65_w = p_gk_111_w
            p_o_66_w = p_o_113_w
            b_h_67_w = b_h_101_w
            p_v_68_w = p_v_112_w
        p_q_107_p2 = p_q_61_w
        p_k_108_p3 = p_k_62_w
        p_a_109_p3 = p_a_63_w
        p_b_110_p3 = p_b_64_w
        p_gk_111_p3 = p_gk_65_w
        p_o_113_p1 = p_o_66_w
        b_h_101_p2 = b_h_67_w
        p_v_112_p3 = p_v_68_w
    p_ht = ht + p_h0
    p_ht_57 = p_ht + p_h0_47
    p_ht_58 = p_ht_57.broadcast_to([16, 64])
    p_ht_59 = p_ht_58 + p_h0_52
    gl.store(p_ht_59, b_h_101_p2, mask=mask_h_44)

@gluon.jit
def twill_kernel(q, k, v, a, b, gk, o, h0, ht, cu_seqlens, scale, T):
    consumer_0(q, k, v, a, b, gk, o, h0, ht, cu_seqlens, scale, T, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'a', 'b', 'gk', 'o', 'h0', 'ht', 'cu_seqlens', 'scale', 'T', 'B', 'H', 'K', 'V', 'BK', 'BV', 'REVERSE', 'USE_INITIAL_STATE', 'STORE_FINAL_STATE', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'a', 'b', 'gk', 'o', 'h0', 'ht', 'cu_seqlens', 'scale', 'T']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'a', 'b', 'gk', 'o', 'h0', 'ht', 'cu_seqlens', 'scale', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'B': 1, 'H': 32, 'K': 64, 'V': 64, 'BK': 64, 'BV': 16, 'REVERSE': False, 'USE_INITIAL_STATE': True, 'STORE_FINAL_STATE': True, 'IS_VARLEN': True}         # the specialisation this kernel was generated for
HEURISTICS = {'USE_INITIAL_STATE': "lambda args: args['h0'] is not None", 'STORE_FINAL_STATE': "lambda args: args['ht'] is not None", 'IS_VARLEN': "lambda args: args['cu_seqlens'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
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
