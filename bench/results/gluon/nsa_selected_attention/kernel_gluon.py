"""parallel_nsa_fwd_kernel, written by twill from its joint schedule: I=83 L=166 (optimal), 2044 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 57 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))
L5 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, v, o, lse, scale, block_indices, block_counts, offsets, token_indices, T):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    v5 = v3 * T
    k_13 = v5 * 4
    k_14 = k_13 + v4
    k_15 = k_14 * 128
    k_16 = k + k_15
    v_17 = v + k_15
    block_indices_18 = v5 + v0
    block_indices_19 = block_indices_18 * 64
    block_indices_20 = v4 * 16
    block_indices_21 = block_indices_19 + block_indices_20
    block_indices_22 = block_indices + block_indices_21
    NS = block_indices_18 * 4
    NS_23 = block_counts + NS
    NS_24 = NS_23 + v4
    NS_25 = gl.load(NS_24)
    p_q = block_indices_18 * 8192
    p_q_26 = q + p_q
    p_q_27 = gl.cast(block_indices_20, gl.int64)
    b_q_29 = gl.arange(0, 16, layout=L0)
    b_q_30 = gl.arange(0, 16, layout=L1)
    b_q_31 = b_q_29.to(gl.int64)
    b_q_32 = p_q_27 + b_q_31
    b_q_33 = gl.expand_dims(b_q_32, 1)
    b_q_34 = b_q_33 * 128
    b_q_35 = b_q_34.broadcast_to([16, 128])
    b_q_36 = gl.arange(0, 128, layout=L2)
    b_q_37 = gl.arange(0, 128, layout=L3)
    b_q_38 = b_q_36.to(gl.int64)
    b_q_39 = b_q_37.to(gl.int64)
    b_q_40 = gl.expand_dims(b_q_38, 0)
    b_q_41 = b_q_40.broadcast_to([16, 128])
    b_q_42 = b_q_35 + b_q_41
    b_q_43 = p_q_26 + b_q_42
    b_q_44 = b_q_33 >= 0
    b_q_45 = b_q_33 < 64
    b_q_46 = b_q_44 & b_q_45
    b_q_47 = b_q_46.broadcast_to([16, 128])
    b_q_48 = b_q_40 >= 0
    b_q_49 = b_q_40 < 128
    b_q_50 = b_q_48 & b_q_49
    b_q_51 = b_q_50.broadcast_to([16, 128])
    b_q_52 = b_q_47 & b_q_51
    b_q_53 = gl.load(b_q_43, mask=b_q_52)
    b_q_54 = b_q_53.to(gl.float32)
    b_q_56 = b_q_54 * scale
    b_q_57 = b_q_56.to(gl.float16)
    p_o = o + p_q
    p_o_58 = v1 * 128
    p_o_59 = gl.cast(p_o_58, gl.int64)
    p_lse = lse + block_indices_19
    p_lse_60 = p_lse + block_indices_20
    p_lse_62 = p_lse_60 + b_q_30
    twill_n = (NS_25 - 0 + 1 - 1) // 1
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        i_s = block_indices_22 + (0 + (0 - 0) * 1)  # load0_i_s: stage 0, partition 0 (group 0)
        i_s_71 = gl.load(i_s)  # load0_i_s: stage 0, partition 0 (group 0)
        i_s_71_p1 = i_s_71
        v24_r0 = gl.full([16, 128], 0.0, gl.float32, layout=L4)
        v24_r1 = gl.full([16], float("-inf"), gl.float32, layout=L5)
        v24_r2 = gl.full([16], 0.0, gl.float32, layout=L5)
        i_s = block_indices_22 + (0 + (1 - 0) * 1)  # load0_i_s: stage 0, partition 0 (group 0)
        i_s_71 = gl.load(i_s)  # load0_i_s: stage 0, partition 0 (group 0)
        i_s_72 = i_s_71_p1 * 64  # elementwise0_i_s: stage 1, partition 0 (group 0)
        v21 = i_s_72 <= v0  # elementwise1: stage 1, partition 0 (group 0)
        v22 = i_s_72 >= 0  # elementwise1: stage 1, partition 0 (group 0)
        v23 = v21 & v22  # elementwise1: stage 1, partition 0 (group 0)
        i_s_71_p1 = i_s_71
        i_s_72_p1 = i_s_72
        v23_p1 = v23
        v24_r0_p1 = v24_r0
        v24_r1_p1 = v24_r1
        v24_r2_p1 = v24_r2
        for twill_b in range(2, twill_n):
            i_s = block_indices_22 + (0 + (twill_b - 0) * 1)  # load0_i_s: stage 0, partition 0 (group 0)
            i_s_71 = gl.load(i_s)  # load0_i_s: stage 0, partition 0 (group 0)
            i_s_72 = i_s_71_p1 * 64  # elementwise0_i_s: stage 1, partition 0 (group 0)
            if v23_p1:  # elementwise2: stage 2, partition 0 (group 0)
                p_k = gl.cast(T, gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
                p_k_73 = gl.cast(i_s_72_p1, gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
                b_k_74 = gl.expand_dims(b_q_39, 1)  # elementwise2: stage 2, partition 0 (group 0)
                b_k_75 = b_k_74.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
                b_k_78 = gl.arange(0, 64, layout=L6)  # elementwise2: stage 2, partition 0 (group 0)
                b_k_79 = gl.arange(0, 64, layout=L7)  # elementwise2: stage 2, partition 0 (group 0)
                b_k_80 = gl.arange(0, 64, layout=L0)  # elementwise2: stage 2, partition 0 (group 0)
                b_k_81 = b_k_78.to(gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
                b_k_82 = b_k_80.to(gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
                b_k_83 = p_k_73 + b_k_81  # elementwise2: stage 2, partition 0 (group 0)
                b_k_84 = p_k_73 + b_k_82  # elementwise2: stage 2, partition 0 (group 0)
                b_k_85 = gl.expand_dims(b_k_83, 0)  # elementwise2: stage 2, partition 0 (group 0)
                b_k_86 = b_k_85 * 512  # elementwise2: stage 2, partition 0 (group 0)
                b_k_87 = b_k_86.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
                b_k_88 = b_k_75 + b_k_87  # elementwise2: stage 2, partition 0 (group 0)
                b_k_89 = k_16 + b_k_88  # elementwise2: stage 2, partition 0 (group 0)
                b_k_90 = b_k_74 >= 0  # elementwise2: stage 2, partition 0 (group 0)
                b_k_91 = b_k_74 < 128  # elementwise2: stage 2, partition 0 (group 0)
                b_k_92 = b_k_90 & b_k_91  # elementwise2: stage 2, partition 0 (group 0)
                b_k_93 = b_k_92.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
                b_k_94 = b_k_85 >= 0  # elementwise2: stage 2, partition 0 (group 0)
                b_k_96 = b_k_85 < p_k  # elementwise2: stage 2, partition 0 (group 0)
                b_k_97 = b_k_94 & b_k_96  # elementwise2: stage 2, partition 0 (group 0)
                b_k_98 = b_k_97.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
                b_k_99 = b_k_93 & b_k_98  # elementwise2: stage 2, partition 0 (group 0)
                b_k_100 = gl.load(b_k_89, mask=b_k_99)  # elementwise2: stage 2, partition 0 (group 0)
                b_v_101 = gl.expand_dims(b_k_84, 1)  # elementwise2: stage 2, partition 0 (group 0)
                b_v_102 = b_v_101 * 512  # elementwise2: stage 2, partition 0 (group 0)
                b_v_103 = b_v_102.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
                b_v_105 = p_o_59 + b_q_38  # elementwise2: stage 2, partition 0 (group 0)
                b_v_106 = gl.expand_dims(b_v_105, 0)  # elementwise2: stage 2, partition 0 (group 0)
                b_v_107 = b_v_106.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
                b_v_108 = b_v_103 + b_v_107  # elementwise2: stage 2, partition 0 (group 0)
                b_v_109 = v_17 + b_v_108  # elementwise2: stage 2, partition 0 (group 0)
                b_v_110 = b_v_101 >= 0  # elementwise2: stage 2, partition 0 (group 0)
                b_v_112 = b_v_101 < p_k  # elementwise2: stage 2, partition 0 (group 0)
                b_v_113 = b_v_110 & b_v_112  # elementwise2: stage 2, partition 0 (group 0)
                b_v_114 = b_v_113.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
                b_v_115 = b_v_106 >= 0  # elementwise2: stage 2, partition 0 (group 0)
                b_v_116 = b_v_106 < 128  # elementwise2: stage 2, partition 0 (group 0)
                b_v_117 = b_v_115 & b_v_116  # elementwise2: stage 2, partition 0 (group 0)
                b_v_118 = b_v_117.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
                b_v_119 = b_v_114 & b_v_118  # elementwise2: stage 2, partition 0 (group 0)
                b_v_120 = gl.load(b_v_109, mask=b_v_119)  # elementwise2: stage 2, partition 0 (group 0)
                b_q_121 = gl.convert_layout(b_q_57, L8)  # elementwise2: stage 2, partition 0 (group 0)
                b_k_122 = gl.convert_layout(b_k_100, L9)  # elementwise2: stage 2, partition 0 (group 0)
                b_s = mma_v2(b_q_121, b_k_122, gl.full([16, 64], 0.0, gl.float32, layout=L4))  # elementwise2: stage 2, partition 0 (group 0)
                b_s_124 = i_s_72_p1 + b_k_79  # elementwise2: stage 2, partition 0 (group 0)
                b_s_126 = v0 >= b_s_124  # elementwise2: stage 2, partition 0 (group 0)
                b_s_127 = gl.expand_dims(b_s_126, 0)  # elementwise2: stage 2, partition 0 (group 0)
                b_s_128 = b_s_127.broadcast_to([16, 64])  # elementwise2: stage 2, partition 0 (group 0)
                b_s_129 = gl.where(b_s_128, b_s, float("-inf"))  # elementwise2: stage 2, partition 0 (group 0)
                v25 = gl.max(b_s_129, axis=1)  # elementwise2: stage 2, partition 0 (group 0)
                b_m_130 = gl.maximum(v24_r1_p1, v25)  # elementwise2: stage 2, partition 0 (group 0)
                b_r = v24_r1_p1 - b_m_130  # elementwise2: stage 2, partition 0 (group 0)
                b_r_131 = gl.exp(b_r)  # elementwise2: stage 2, partition 0 (group 0)
                b_p = gl.expand_dims(b_m_130, 1)  # elementwise2: stage 2, partition 0 (group 0)
                b_p_132 = b_p.broadcast_to([16, 64])  # elementwise2: stage 2, partition 0 (group 0)
                b_p_133 = b_s_129 - b_p_132  # elementwise2: stage 2, partition 0 (group 0)
                b_p_134 = gl.exp(b_p_133)  # elementwise2: stage 2, partition 0 (group 0)
                b_acc_135 = v24_r2_p1 * b_r_131  # elementwise2: stage 2, partition 0 (group 0)
                b_acc_136 = gl.sum(b_p_134, axis=1)  # elementwise2: stage 2, partition 0 (group 0)
                b_acc_137 = b_acc_135 + b_acc_136  # elementwise2: stage 2, partition 0 (group 0)
                b_o_138 = gl.expand_dims(b_r_131, 1)  # elementwise2: stage 2, partition 0 (group 0)
                b_o_139 = b_o_138.broadcast_to([16, 128])  # elementwise2: stage 2, partition 0 (group 0)
                b_o_140 = v24_r0_p1 * b_o_139  # elementwise2: stage 2, partition 0 (group 0)
                b_o_141 = b_p_134.to(gl.float16)  # elementwise2: stage 2, partition 0 (group 0)
                b_o_142 = gl.convert_layout(b_o_141, L8)  # elementwise2: stage 2, partition 0 (group 0)
                b_v_143 = gl.convert_layout(b_v_120, L9)  # elementwise2: stage 2, partition 0 (group 0)
                b_o_144 = mma_v2(b_o_142, b_v_143, b_o_140)  # elementwise2: stage 2, partition 0 (group 0)
                v24_r0 = b_o_144  # elementwise2: stage 2, partition 0 (group 0)
                v24_r1 = b_m_130  # elementwise2: stage 2, partition 0 (group 0)
                v24_r2 = b_acc_137  # elementwise2: stage 2, partition 0 (group 0)
            else:  # elementwise2: stage 2, partition 0 (group 0)
                v24_r0 = v24_r0_p1  # elementwise2: stage 2, partition 0 (group 0)
                v24_r1 = v24_r1_p1  # elementwise2: stage 2, partition 0 (group 0)
                v24_r2 = v24_r2_p1  # elementwise2: stage 2, partition 0 (group 0)
            v21 = i_s_72 <= v0  # elementwise1: stage 1, partition 0 (group 0)
            v22 = i_s_72 >= 0  # elementwise1: stage 1, partition 0 (group 0)
            v23 = v21 & v22  # elementwise1: stage 1, partition 0 (group 0)
            i_s_71_p1 = i_s_71
            i_s_72_p1 = i_s_72
            v23_p1 = v23
            v24_r0_p1 = v24_r0
            v24_r1_p1 = v24_r1
            v24_r2_p1 = v24_r2
        i_s_72 = i_s_71_p1 * 64  # elementwise0_i_s: stage 1, partition 0 (group 0)
        if v23_p1:  # elementwise2: stage 2, partition 0 (group 0)
            p_k = gl.cast(T, gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
            p_k_73 = gl.cast(i_s_72_p1, gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_74 = gl.expand_dims(b_q_39, 1)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_75 = b_k_74.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_k_78 = gl.arange(0, 64, layout=L6)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_79 = gl.arange(0, 64, layout=L7)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_80 = gl.arange(0, 64, layout=L0)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_81 = b_k_78.to(gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_82 = b_k_80.to(gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_83 = p_k_73 + b_k_81  # elementwise2: stage 2, partition 0 (group 0)
            b_k_84 = p_k_73 + b_k_82  # elementwise2: stage 2, partition 0 (group 0)
            b_k_85 = gl.expand_dims(b_k_83, 0)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_86 = b_k_85 * 512  # elementwise2: stage 2, partition 0 (group 0)
            b_k_87 = b_k_86.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_k_88 = b_k_75 + b_k_87  # elementwise2: stage 2, partition 0 (group 0)
            b_k_89 = k_16 + b_k_88  # elementwise2: stage 2, partition 0 (group 0)
            b_k_90 = b_k_74 >= 0  # elementwise2: stage 2, partition 0 (group 0)
            b_k_91 = b_k_74 < 128  # elementwise2: stage 2, partition 0 (group 0)
            b_k_92 = b_k_90 & b_k_91  # elementwise2: stage 2, partition 0 (group 0)
            b_k_93 = b_k_92.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_k_94 = b_k_85 >= 0  # elementwise2: stage 2, partition 0 (group 0)
            b_k_96 = b_k_85 < p_k  # elementwise2: stage 2, partition 0 (group 0)
            b_k_97 = b_k_94 & b_k_96  # elementwise2: stage 2, partition 0 (group 0)
            b_k_98 = b_k_97.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_k_99 = b_k_93 & b_k_98  # elementwise2: stage 2, partition 0 (group 0)
            b_k_100 = gl.load(b_k_89, mask=b_k_99)  # elementwise2: stage 2, partition 0 (group 0)
            b_v_101 = gl.expand_dims(b_k_84, 1)  # elementwise2: stage 2, partition 0 (group 0)
            b_v_102 = b_v_101 * 512  # elementwise2: stage 2, partition 0 (group 0)
            b_v_103 = b_v_102.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
            b_v_105 = p_o_59 + b_q_38  # elementwise2: stage 2, partition 0 (group 0)
            b_v_106 = gl.expand_dims(b_v_105, 0)  # elementwise2: stage 2, partition 0 (group 0)
            b_v_107 = b_v_106.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
            b_v_108 = b_v_103 + b_v_107  # elementwise2: stage 2, partition 0 (group 0)
            b_v_109 = v_17 + b_v_108  # elementwise2: stage 2, partition 0 (group 0)
            b_v_110 = b_v_101 >= 0  # elementwise2: stage 2, partition 0 (group 0)
            b_v_112 = b_v_101 < p_k  # elementwise2: stage 2, partition 0 (group 0)
            b_v_113 = b_v_110 & b_v_112  # elementwise2: stage 2, partition 0 (group 0)
            b_v_114 = b_v_113.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
            b_v_115 = b_v_106 >= 0  # elementwise2: stage 2, partition 0 (group 0)
            b_v_116 = b_v_106 < 128  # elementwise2: stage 2, partition 0 (group 0)
            b_v_117 = b_v_115 & b_v_116  # elementwise2: stage 2, partition 0 (group 0)
            b_v_118 = b_v_117.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
            b_v_119 = b_v_114 & b_v_118  # elementwise2: stage 2, partition 0 (group 0)
            b_v_120 = gl.load(b_v_109, mask=b_v_119)  # elementwise2: stage 2, partition 0 (group 0)
            b_q_121 = gl.convert_layout(b_q_57, L8)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_122 = gl.convert_layout(b_k_100, L9)  # elementwise2: stage 2, partition 0 (group 0)
            b_s = mma_v2(b_q_121, b_k_122, gl.full([16, 64], 0.0, gl.float32, layout=L4))  # elementwise2: stage 2, partition 0 (group 0)
            b_s_124 = i_s_72_p1 + b_k_79  # elementwise2: stage 2, partition 0 (group 0)
            b_s_126 = v0 >= b_s_124  # elementwise2: stage 2, partition 0 (group 0)
            b_s_127 = gl.expand_dims(b_s_126, 0)  # elementwise2: stage 2, partition 0 (group 0)
            b_s_128 = b_s_127.broadcast_to([16, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_s_129 = gl.where(b_s_128, b_s, float("-inf"))  # elementwise2: stage 2, partition 0 (group 0)
            v25 = gl.max(b_s_129, axis=1)  # elementwise2: stage 2, partition 0 (group 0)
            b_m_130 = gl.maximum(v24_r1_p1, v25)  # elementwise2: stage 2, partition 0 (group 0)
            b_r = v24_r1_p1 - b_m_130  # elementwise2: stage 2, partition 0 (group 0)
            b_r_131 = gl.exp(b_r)  # elementwise2: stage 2, partition 0 (group 0)
            b_p = gl.expand_dims(b_m_130, 1)  # elementwise2: stage 2, partition 0 (group 0)
            b_p_132 = b_p.broadcast_to([16, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_p_133 = b_s_129 - b_p_132  # elementwise2: stage 2, partition 0 (group 0)
            b_p_134 = gl.exp(b_p_133)  # elementwise2: stage 2, partition 0 (group 0)
            b_acc_135 = v24_r2_p1 * b_r_131  # elementwise2: stage 2, partition 0 (group 0)
            b_acc_136 = gl.sum(b_p_134, axis=1)  # elementwise2: stage 2, partition 0 (group 0)
            b_acc_137 = b_acc_135 + b_acc_136  # elementwise2: stage 2, partition 0 (group 0)
            b_o_138 = gl.expand_dims(b_r_131, 1)  # elementwise2: stage 2, partition 0 (group 0)
            b_o_139 = b_o_138.broadcast_to([16, 128])  # elementwise2: stage 2, partition 0 (group 0)
            b_o_140 = v24_r0_p1 * b_o_139  # elementwise2: stage 2, partition 0 (group 0)
            b_o_141 = b_p_134.to(gl.float16)  # elementwise2: stage 2, partition 0 (group 0)
            b_o_142 = gl.convert_layout(b_o_141, L8)  # elementwise2: stage 2, partition 0 (group 0)
            b_v_143 = gl.convert_layout(b_v_120, L9)  # elementwise2: stage 2, partition 0 (group 0)
            b_o_144 = mma_v2(b_o_142, b_v_143, b_o_140)  # elementwise2: stage 2, partition 0 (group 0)
            v24_r0 = b_o_144  # elementwise2: stage 2, partition 0 (group 0)
            v24_r1 = b_m_130  # elementwise2: stage 2, partition 0 (group 0)
            v24_r2 = b_acc_137  # elementwise2: stage 2, partition 0 (group 0)
        else:  # elementwise2: stage 2, partition 0 (group 0)
            v24_r0 = v24_r0_p1  # elementwise2: stage 2, partition 0 (group 0)
            v24_r1 = v24_r1_p1  # elementwise2: stage 2, partition 0 (group 0)
            v24_r2 = v24_r2_p1  # elementwise2: stage 2, partition 0 (group 0)
        v21 = i_s_72 <= v0  # elementwise1: stage 1, partition 0 (group 0)
        v22 = i_s_72 >= 0  # elementwise1: stage 1, partition 0 (group 0)
        v23 = v21 & v22  # elementwise1: stage 1, partition 0 (group 0)
        i_s_71_p1 = i_s_71
        i_s_72_p1 = i_s_72
        v23_p1 = v23
        v24_r0_p1 = v24_r0
        v24_r1_p1 = v24_r1
        v24_r2_p1 = v24_r2
        if v23_p1:  # elementwise2: stage 2, partition 0 (group 0)
            p_k = gl.cast(T, gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
            p_k_73 = gl.cast(i_s_72_p1, gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_74 = gl.expand_dims(b_q_39, 1)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_75 = b_k_74.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_k_78 = gl.arange(0, 64, layout=L6)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_79 = gl.arange(0, 64, layout=L7)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_80 = gl.arange(0, 64, layout=L0)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_81 = b_k_78.to(gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_82 = b_k_80.to(gl.int64)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_83 = p_k_73 + b_k_81  # elementwise2: stage 2, partition 0 (group 0)
            b_k_84 = p_k_73 + b_k_82  # elementwise2: stage 2, partition 0 (group 0)
            b_k_85 = gl.expand_dims(b_k_83, 0)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_86 = b_k_85 * 512  # elementwise2: stage 2, partition 0 (group 0)
            b_k_87 = b_k_86.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_k_88 = b_k_75 + b_k_87  # elementwise2: stage 2, partition 0 (group 0)
            b_k_89 = k_16 + b_k_88  # elementwise2: stage 2, partition 0 (group 0)
            b_k_90 = b_k_74 >= 0  # elementwise2: stage 2, partition 0 (group 0)
            b_k_91 = b_k_74 < 128  # elementwise2: stage 2, partition 0 (group 0)
            b_k_92 = b_k_90 & b_k_91  # elementwise2: stage 2, partition 0 (group 0)
            b_k_93 = b_k_92.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_k_94 = b_k_85 >= 0  # elementwise2: stage 2, partition 0 (group 0)
            b_k_96 = b_k_85 < p_k  # elementwise2: stage 2, partition 0 (group 0)
            b_k_97 = b_k_94 & b_k_96  # elementwise2: stage 2, partition 0 (group 0)
            b_k_98 = b_k_97.broadcast_to([128, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_k_99 = b_k_93 & b_k_98  # elementwise2: stage 2, partition 0 (group 0)
            b_k_100 = gl.load(b_k_89, mask=b_k_99)  # elementwise2: stage 2, partition 0 (group 0)
            b_v_101 = gl.expand_dims(b_k_84, 1)  # elementwise2: stage 2, partition 0 (group 0)
            b_v_102 = b_v_101 * 512  # elementwise2: stage 2, partition 0 (group 0)
            b_v_103 = b_v_102.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
            b_v_105 = p_o_59 + b_q_38  # elementwise2: stage 2, partition 0 (group 0)
            b_v_106 = gl.expand_dims(b_v_105, 0)  # elementwise2: stage 2, partition 0 (group 0)
            b_v_107 = b_v_106.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
            b_v_108 = b_v_103 + b_v_107  # elementwise2: stage 2, partition 0 (group 0)
            b_v_109 = v_17 + b_v_108  # elementwise2: stage 2, partition 0 (group 0)
            b_v_110 = b_v_101 >= 0  # elementwise2: stage 2, partition 0 (group 0)
            b_v_112 = b_v_101 < p_k  # elementwise2: stage 2, partition 0 (group 0)
            b_v_113 = b_v_110 & b_v_112  # elementwise2: stage 2, partition 0 (group 0)
            b_v_114 = b_v_113.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
            b_v_115 = b_v_106 >= 0  # elementwise2: stage 2, partition 0 (group 0)
            b_v_116 = b_v_106 < 128  # elementwise2: stage 2, partition 0 (group 0)
            b_v_117 = b_v_115 & b_v_116  # elementwise2: stage 2, partition 0 (group 0)
            b_v_118 = b_v_117.broadcast_to([64, 128])  # elementwise2: stage 2, partition 0 (group 0)
            b_v_119 = b_v_114 & b_v_118  # elementwise2: stage 2, partition 0 (group 0)
            b_v_120 = gl.load(b_v_109, mask=b_v_119)  # elementwise2: stage 2, partition 0 (group 0)
            b_q_121 = gl.convert_layout(b_q_57, L8)  # elementwise2: stage 2, partition 0 (group 0)
            b_k_122 = gl.convert_layout(b_k_100, L9)  # elementwise2: stage 2, partition 0 (group 0)
            b_s = mma_v2(b_q_121, b_k_122, gl.full([16, 64], 0.0, gl.float32, layout=L4))  # elementwise2: stage 2, partition 0 (group 0)
            b_s_124 = i_s_72_p1 + b_k_79  # elementwise2: stage 2, partition 0 (group 0)
            b_s_126 = v0 >= b_s_124  # elementwise2: stage 2, partition 0 (group 0)
            b_s_127 = gl.expand_dims(b_s_126, 0)  # elementwise2: stage 2, partition 0 (group 0)
            b_s_128 = b_s_127.broadcast_to([16, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_s_129 = gl.where(b_s_128, b_s, float("-inf"))  # elementwise2: stage 2, partition 0 (group 0)
            v25 = gl.max(b_s_129, axis=1)  # elementwise2: stage 2, partition 0 (group 0)
            b_m_130 = gl.maximum(v24_r1_p1, v25)  # elementwise2: stage 2, partition 0 (group 0)
            b_r = v24_r1_p1 - b_m_130  # elementwise2: stage 2, partition 0 (group 0)
            b_r_131 = gl.exp(b_r)  # elementwise2: stage 2, partition 0 (group 0)
            b_p = gl.expand_dims(b_m_130, 1)  # elementwise2: stage 2, partition 0 (group 0)
            b_p_132 = b_p.broadcast_to([16, 64])  # elementwise2: stage 2, partition 0 (group 0)
            b_p_133 = b_s_129 - b_p_132  # elementwise2: stage 2, partition 0 (group 0)
            b_p_134 = gl.exp(b_p_133)  # elementwise2: stage 2, partition 0 (group 0)
            b_acc_135 = v24_r2_p1 * b_r_131  # elementwise2: stage 2, partition 0 (group 0)
            b_acc_136 = gl.sum(b_p_134, axis=1)  # elementwise2: stage 2, partition 0 (group 0)
            b_acc_137 = b_acc_135 + b_acc_136  # elementwise2: stage 2, partition 0 (group 0)
            b_o_138 = gl.expand_dims(b_r_131, 1)  # elementwise2: stage 2, partition 0 (group 0)
            b_o_139 = b_o_138.broadcast_to([16, 128])  # elementwise2: stage 2, partition 0 (group 0)
            b_o_140 = v24_r0_p1 * b_o_139  # elementwise2: stage 2, partition 0 (group 0)
            b_o_141 = b_p_134.to(gl.float16)  # elementwise2: stage 2, partition 0 (group 0)
            b_o_142 = gl.convert_layout(b_o_141, L8)  # elementwise2: stage 2, partition 0 (group 0)
            b_v_143 = gl.convert_layout(b_v_120, L9)  # elementwise2: stage 2, partition 0 (group 0)
            b_o_144 = mma_v2(b_o_142, b_v_143, b_o_140)  # elementwise2: stage 2, partition 0 (group 0)
            v24_r0 = b_o_144  # elementwise2: stage 2, partition 0 (group 0)
            v24_r1 = b_m_130  # elementwise2: stage 2, partition 0 (group 0)
            v24_r2 = b_acc_137  # elementwise2: stage 2, partition 0 (group 0)
        else:  # elementwise2: stage 2, partition 0 (group 0)
            v24_r0 = v24_r0_p1  # elementwise2: stage 2, partition 0 (group 0)
            v24_r1 = v24_r1_p1  # elementwise2: stage 2, partition 0 (group 0)
            v24_r2 = v24_r2_p1  # elementwise2: stage 2, partition 0 (group 0)
        i_s_71_p1 = i_s_71
        i_s_72_p1 = i_s_72
        v23_p1 = v23
        v24_r0_p1 = v24_r0
        v24_r1_p1 = v24_r1
        v24_r2_p1 = v24_r2
    else:
        arg12_w = gl.full([16, 128], 0.0, gl.float32, layout=L4)
        b_m_69_w = gl.full([16], float("-inf"), gl.float32, layout=L5)
        b_acc_70_w = gl.full([16], 0.0, gl.float32, layout=L5)
        for b_acc_68_w in range(0, NS_25, 1):
            i_s_w = block_indices_22 + b_acc_68_w
            i_s_71_w = gl.load(i_s_w)
            i_s_72_w = i_s_71_w * 64
            v21_w = i_s_72_w <= v0
            v22_w = i_s_72_w >= 0
            v23_w = v21_w & v22_w
            if v23_w:
                p_k_w = gl.cast(T, gl.int64)
                p_k_73_w = gl.cast(i_s_72_w, gl.int64)
                b_k_74_w = gl.expand_dims(b_q_39, 1)
                b_k_75_w = b_k_74_w.broadcast_to([128, 64])
                b_k_78_w = gl.arange(0, 64, layout=L6)
                b_k_79_w = gl.arange(0, 64, layout=L7)
                b_k_80_w = gl.arange(0, 64, layout=L0)
                b_k_81_w = b_k_78_w.to(gl.int64)
                b_k_82_w = b_k_80_w.to(gl.int64)
                b_k_83_w = p_k_73_w + b_k_81_w
                b_k_84_w = p_k_73_w + b_k_82_w
                b_k_85_w = gl.expand_dims(b_k_83_w, 0)
                b_k_86_w = b_k_85_w * 512
                b_k_87_w = b_k_86_w.broadcast_to([128, 64])
                b_k_88_w = b_k_75_w + b_k_87_w
                b_k_89_w = k_16 + b_k_88_w
                b_k_90_w = b_k_74_w >= 0
                b_k_91_w = b_k_74_w < 128
                b_k_92_w = b_k_90_w & b_k_91_w
                b_k_93_w = b_k_92_w.broadcast_to([128, 64])
                b_k_94_w = b_k_85_w >= 0
                b_k_96_w = b_k_85_w < p_k_w
                b_k_97_w = b_k_94_w & b_k_96_w
                b_k_98_w = b_k_97_w.broadcast_to([128, 64])
                b_k_99_w = b_k_93_w & b_k_98_w
                b_k_100_w = gl.load(b_k_89_w, mask=b_k_99_w)
                b_v_101_w = gl.expand_dims(b_k_84_w, 1)
                b_v_102_w = b_v_101_w * 512
                b_v_103_w = b_v_102_w.broadcast_to([64, 128])
                b_v_105_w = p_o_59 + b_q_38
                b_v_106_w = gl.expand_dims(b_v_105_w, 0)
                b_v_107_w = b_v_106_w.broadcast_to([64, 128])
                b_v_108_w = b_v_103_w + b_v_107_w
                b_v_109_w = v_17 + b_v_108_w
                b_v_110_w = b_v_101_w >= 0
                b_v_112_w = b_v_101_w < p_k_w
                b_v_113_w = b_v_110_w & b_v_112_w
                b_v_114_w = b_v_113_w.broadcast_to([64, 128])
                b_v_115_w = b_v_106_w >= 0
                b_v_116_w = b_v_106_w < 128
                b_v_117_w = b_v_115_w & b_v_116_w
                b_v_118_w = b_v_117_w.broadcast_to([64, 128])
                b_v_119_w = b_v_114_w & b_v_118_w
                b_v_120_w = gl.load(b_v_109_w, mask=b_v_119_w)
                b_q_121_w = gl.convert_layout(b_q_57, L8)
                b_k_122_w = gl.convert_layout(b_k_100_w, L9)
                b_s_w = mma_v2(b_q_121_w, b_k_122_w, gl.full([16, 64], 0.0, gl.float32, layout=L4))
                b_s_124_w = i_s_72_w + b_k_79_w
                b_s_126_w = v0 >= b_s_124_w
                b_s_127_w = gl.expand_dims(b_s_126_w, 0)
                b_s_128_w = b_s_127_w.broadcast_to([16, 64])
                b_s_129_w = gl.where(b_s_128_w, b_s_w, float("-inf"))
                v25_w = gl.max(b_s_129_w, axis=1)
                b_m_130_w = gl.maximum(b_m_69_w, v25_w)
                b_r_w = b_m_69_w - b_m_130_w
                b_r_131_w = gl.exp(b_r_w)
                b_p_w = gl.expand_dims(b_m_130_w, 1)
                b_p_132_w = b_p_w.broadcast_to([16, 64])
                b_p_133_w = b_s_129_w - b_p_132_w
                b_p_134_w = gl.exp(b_p_133_w)
                b_acc_135_w = b_acc_70_w * b_r_131_w
                b_acc_136_w = gl.sum(b_p_134_w, axis=1)
                b_acc_137_w = b_acc_135_w + b_acc_136_w
                b_o_138_w = gl.expand_dims(b_r_131_w, 1)
                b_o_139_w = b_o_138_w.broadcast_to([16, 128])
                b_o_140_w = arg12_w * b_o_139_w
                b_o_141_w = b_p_134_w.to(gl.float16)
                b_o_142_w = gl.convert_layout(b_o_141_w, L8)
                b_v_143_w = gl.convert_layout(b_v_120_w, L9)
                b_o_144_w = mma_v2(b_o_142_w, b_v_143_w, b_o_140_w)
                v24_r0_w = b_o_144_w
                v24_r1_w = b_m_130_w
                v24_r2_w = b_acc_137_w
            else:
                v24_r0_w = arg12_w
                v24_r1_w = b_m_69_w
                v24_r2_w = b_acc_70_w
            arg12_w = v24_r0_w
            b_m_69_w = v24_r1_w
            b_acc_70_w = v24_r2_w
        v24_r0_p1 = arg12_w
        v24_r1_p1 = b_m_69_w
        v24_r2_p1 = b_acc_70_w
    b_o = gl.expand_dims(v24_r2_p1, 1)
    b_o_64 = b_o.broadcast_to([16, 128])
    b_o_65 = v24_r0_p1 / b_o_64
    b_m_66 = gl.log(v24_r2_p1)
    b_m_67 = v24_r1_p1 + b_m_66
    v6 = b_o_65.to(gl.float16)
    v9 = p_o_59 + b_q_38
    v10 = gl.expand_dims(v9, 0)
    v11 = v10.broadcast_to([16, 128])
    v12 = b_q_35 + v11
    v13 = p_o + v12
    v14 = v10 >= 0
    v15 = v10 < 128
    v16 = v14 & v15
    v17 = v16.broadcast_to([16, 128])
    v18 = b_q_47 & v17
    v19 = gl.convert_layout(v6, L10)
    gl.store(v13, v19, mask=v18)
    v20 = gl.convert_layout(b_m_67, L1)
    gl.store(p_lse_62, v20)

@gluon.jit
def twill_kernel(q, k, v, o, lse, scale, block_indices, block_counts, offsets, token_indices, T):
    consumer_0(q, k, v, o, lse, scale, block_indices, block_counts, offsets, token_indices, T, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'o', 'lse', 'scale', 'block_indices', 'block_counts', 'offsets', 'token_indices', 'T', 'H', 'HQ', 'G', 'K', 'V', 'S', 'BS', 'BK', 'BV', 'USE_OFFSETS', 'USE_BLOCK_COUNTS']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'o', 'lse', 'scale', 'block_indices', 'block_counts', 'offsets', 'token_indices', 'T']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'o', 'lse', 'scale', 'block_indices', 'block_counts', 'offsets', 'token_indices', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'H': 4, 'HQ': 64, 'G': 16, 'K': 128, 'V': 128, 'S': 16, 'BS': 64, 'BK': 128, 'BV': 128, 'USE_OFFSETS': False, 'USE_BLOCK_COUNTS': True}         # the specialisation this kernel was generated for
HEURISTICS = {'USE_OFFSETS': "lambda args: args['offsets'] is not None", 'USE_BLOCK_COUNTS': "lambda args: isinstance(args['block_counts'], torch.Tensor)"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = ['import torch']   # what they read of the kernel's module
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
