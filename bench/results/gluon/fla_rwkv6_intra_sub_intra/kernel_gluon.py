"""chunk_rwkv6_fwd_A_kernel_intra_sub_intra, written by twill from its joint schedule: I=75 L=150 (optimal), 610 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 75).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 58 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at fla_rwkv6_intra_sub_intra.py:50 (TTGIR line 64): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(q, k, gi, ge, u, A, offsets, indices, scale, T):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 % 32
    v4 = v0 * 2
    v5 = indices + v4
    v6 = gl.load(v5)
    v7 = v5 + 1
    v8 = gl.load(v7)
    v9 = offsets + v6
    v10 = gl.load(v9)
    v11 = v9 + 1
    v12 = gl.load(v11)
    T_15 = v12 - v10
    v13 = v8 * 64
    v14 = v1 * 16
    v15 = v13 + v14
    o_i = gl.arange(0, 16, layout=L0)
    o_i_16 = gl.arange(0, 16, layout=L1)
    o_k = gl.arange(0, 64, layout=L2)
    o_k_17 = gl.arange(0, 64, layout=L1)
    m_k = o_k < 64
    m_k_18 = o_k_17 < 64
    m_A_19 = v15 + o_i_16
    m_A_21 = m_A_19 < T_15
    o_A = v10 + v13
    o_A_22 = o_A + v14
    o_A_24 = o_A_22 + o_i_16
    o_A_25 = o_A_24 * 32
    o_A_26 = o_A_25 * 64
    o_A_27 = v3 * 64
    o_A_29 = o_A_26 + o_A_27
    o_A_31 = o_A_29 + v14
    p_q = v10 * 32
    p_q_32 = p_q + v3
    p_q_33 = p_q_32 * 64
    p_q_34 = q + p_q_33
    p_q_35 = gl.cast(T_15, gl.int64)
    p_q_36 = gl.cast(v15, gl.int64)
    p_g = ge + p_q_33
    p_qj = o_A_22 * 2048
    p_qj_37 = q + p_qj
    p_qj_38 = p_qj_37 + o_A_27
    p_qj_40 = p_qj_38 + o_k_17
    p_qj_40 = gl.max_contiguous(gl.multiple_of(p_qj_40, [64]), [64])
    p_k = k + p_qj
    p_k_41 = p_k + o_A_27
    p_k_44 = p_k_41 + o_k
    p_k_44 = gl.max_contiguous(gl.multiple_of(p_k_44, [64]), [64])
    p_k_45 = p_k_41 + o_k_17
    p_k_45 = gl.max_contiguous(gl.multiple_of(p_k_45, [64]), [64])
    p_gk = gi + p_qj
    p_gk_46 = p_gk + o_A_27
    p_gk_48 = p_gk_46 + o_k
    p_gk_48 = gl.max_contiguous(gl.multiple_of(p_gk_48, [64]), [64])
    p_u = u + o_A_27
    b_q_50 = o_i.to(gl.int64)
    b_q_51 = p_q_36 + b_q_50
    b_q_52 = gl.expand_dims(b_q_51, 1)
    b_q_53 = b_q_52 * 2048
    b_q_54 = b_q_53.broadcast_to([16, 64])
    b_q_55 = o_k.to(gl.int64)
    b_q_56 = o_k_17.to(gl.int64)
    b_q_57 = gl.expand_dims(b_q_55, 0)
    b_q_58 = b_q_57.broadcast_to([16, 64])
    b_q_59 = b_q_54 + b_q_58
    b_q_60 = p_q_34 + b_q_59
    b_q_61 = b_q_52 >= 0
    b_q_63 = b_q_52 < p_q_35
    b_q_64 = b_q_61 & b_q_63
    b_q_65 = b_q_64.broadcast_to([16, 64])
    b_q_66 = b_q_57 >= 0
    b_q_67 = b_q_57 < 64
    b_q_68 = b_q_66 & b_q_67
    b_q_69 = b_q_68.broadcast_to([16, 64])
    b_q_70 = b_q_65 & b_q_69
    b_q_71 = gl.load(b_q_60, mask=b_q_70)
    b_g_72 = p_g + b_q_59
    b_g_73 = gl.load(b_g_72, mask=b_q_70)
    b_u_74 = p_u + b_q_56
    b_u_75 = b_q_56 >= 0
    b_u_76 = b_q_56 < 64
    b_u_77 = b_u_75 & b_u_76
    b_u_78 = gl.load(b_u_74, mask=b_u_77)
    v17 = T_15 - v13
    v18 = v17 - v14
    v19 = gl.minimum(v18, 16)
    b_A = b_q_71.to(gl.float32)
    b_A_80 = b_u_78.to(gl.float32)
    v21 = A + o_A_31
    twill_n = (v19 - 0 + 1 - 1) // 1
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        p_gk_117 = p_gk_48
        p_gk_117_p1 = p_gk_117
        p_qj_114 = p_qj_40
        p_k_116 = p_k_45
        p_k_115 = p_k_44
        p_gk_117 = p_gk_117_p1 + 2048  # load3_b_gk: stage 0, partition 0 (group 0)
        b_gk = gl.load(p_gk_117_p1, mask=m_k, other=0.0)  # load3_b_gk: stage 0, partition 0 (group 0)
        b_gk_p1 = b_gk
        p_gk_117_p1 = p_gk_117
        p_k_115_p1 = p_k_115
        p_k_116_p1 = p_k_116
        p_qj_114_p1 = p_qj_114
        p_k_115 = p_k_115_p1 + 2048  # load1_b_k: stage 1, partition 0 (group 0)
        b_k = gl.load(p_k_115_p1, mask=m_k, other=0.0)  # load1_b_k: stage 1, partition 0 (group 0)
        p_qj_114 = p_qj_114_p1 + 2048  # load0_b_qj: stage 1, partition 0 (group 0)
        b_qj = gl.load(p_qj_114_p1, mask=m_k_18, other=0.0)  # load0_b_qj: stage 1, partition 0 (group 0)
        p_k_116 = p_k_116_p1 + 2048  # load2_b_k: stage 1, partition 0 (group 0)
        b_k_89 = gl.load(p_k_116_p1, mask=m_k_18, other=0.0)  # load2_b_k: stage 1, partition 0 (group 0)
        p_gk_117 = p_gk_117_p1 + 2048  # load3_b_gk: stage 0, partition 0 (group 0)
        b_gk = gl.load(p_gk_117_p1, mask=m_k, other=0.0)  # load3_b_gk: stage 0, partition 0 (group 0)
        b_A_95 = gl.expand_dims(b_gk_p1, 0)  # sfu0_b_A: stage 1, partition 0 (group 0)
        b_A_96 = b_A_95.broadcast_to([16, 64])  # sfu0_b_A: stage 1, partition 0 (group 0)
        b_A_97 = b_g_73 - b_A_96  # sfu0_b_A: stage 1, partition 0 (group 0)
        b_A_98 = gl.exp(b_A_97)  # sfu0_b_A: stage 1, partition 0 (group 0)
        b_A_98_p1 = b_A_98
        b_gk_p1 = b_gk
        b_k_p1 = b_k
        b_k_89_p1 = b_k_89
        b_qj_p1 = b_qj
        p_gk_117_p1 = p_gk_117
        p_k_115_p1 = p_k_115
        p_k_116_p1 = p_k_116
        p_qj_114_p1 = p_qj_114
        for twill_b in range(2, twill_n):
            p_k_115 = p_k_115_p1 + 2048  # load1_b_k: stage 1, partition 0 (group 0)
            b_k = gl.load(p_k_115_p1, mask=m_k, other=0.0)  # load1_b_k: stage 1, partition 0 (group 0)
            b_k_90 = b_k_p1.to(gl.float32)  # convert1_b_k: stage 2, partition 0 (group 0)
            p_qj_114 = p_qj_114_p1 + 2048  # load0_b_qj: stage 1, partition 0 (group 0)
            b_qj = gl.load(p_qj_114_p1, mask=m_k_18, other=0.0)  # load0_b_qj: stage 1, partition 0 (group 0)
            b_qj_88 = b_qj_p1.to(gl.float32)  # convert0_b_qj: stage 2, partition 0 (group 0)
            p_k_116 = p_k_116_p1 + 2048  # load2_b_k: stage 1, partition 0 (group 0)
            b_k_89 = gl.load(p_k_116_p1, mask=m_k_18, other=0.0)  # load2_b_k: stage 1, partition 0 (group 0)
            b_k_91 = b_k_89_p1.to(gl.float32)  # convert2_b_k: stage 2, partition 0 (group 0)
            p_gk_117 = p_gk_117_p1 + 2048  # load3_b_gk: stage 0, partition 0 (group 0)
            b_gk = gl.load(p_gk_117_p1, mask=m_k, other=0.0)  # load3_b_gk: stage 0, partition 0 (group 0)
            b_A_95 = gl.expand_dims(b_gk_p1, 0)  # sfu0_b_A: stage 1, partition 0 (group 0)
            b_A_96 = b_A_95.broadcast_to([16, 64])  # sfu0_b_A: stage 1, partition 0 (group 0)
            b_A_97 = b_g_73 - b_A_96  # sfu0_b_A: stage 1, partition 0 (group 0)
            b_A_98 = gl.exp(b_A_97)  # sfu0_b_A: stage 1, partition 0 (group 0)
            b_A_92 = gl.expand_dims(b_k_90, 0)  # elementwise0_b_A: stage 2, partition 0 (group 0)
            b_A_93 = b_A_92.broadcast_to([16, 64])  # elementwise0_b_A: stage 2, partition 0 (group 0)
            b_A_94 = b_A * b_A_93  # elementwise0_b_A: stage 2, partition 0 (group 0)
            b_A_99 = b_A_94 * b_A_98_p1  # elementwise0_b_A: stage 2, partition 0 (group 0)
            b_A_100 = gl.sum(b_A_99, axis=1)  # reduce0_b_A: stage 2, partition 0 (group 0)
            b_A_107 = b_qj_88 * b_k_91  # elementwise2_b_A: stage 2, partition 0 (group 0)
            b_A_108 = b_A_107 * b_A_80  # elementwise2_b_A: stage 2, partition 0 (group 0)
            b_A_109 = b_A_108 * scale  # elementwise2_b_A: stage 2, partition 0 (group 0)
            b_A_110 = b_A_109  # reduce1_b_A: stage 2, partition 0 (group 0)
            b_A_111 = gl.sum(b_A_110, axis=0)  # reduce1_b_A: stage 2, partition 0 (group 0)
            b_A_101 = (0 + (twill_b - 2) * 1)  # elementwise1_b_A: stage 2, partition 0 (group 0)
            b_A_103 = o_i > b_A_101  # elementwise1_b_A: stage 2, partition 0 (group 0)
            b_A_104 = b_A_100 * scale  # elementwise1_b_A: stage 2, partition 0 (group 0)
            b_A_105 = gl.where(b_A_103, b_A_104, 0.0)  # elementwise1_b_A: stage 2, partition 0 (group 0)
            b_A_106 = o_i != b_A_101  # elementwise1_b_A: stage 2, partition 0 (group 0)
            b_A_112 = b_A_111  # elementwise1_b_A: stage 2, partition 0 (group 0)
            b_A_113 = gl.where(b_A_106, b_A_105, b_A_112)  # elementwise1_b_A: stage 2, partition 0 (group 0)
            v23 = gl.convert_layout(b_A_113, L1)  # convert3: stage 2, partition 0 (group 0)
            b_A_102 = (0 + (twill_b - 2) * 1)  # store0: stage 2, partition 0 (group 0)
            v22 = v21 + b_A_102  # store0: stage 2, partition 0 (group 0)
            gl.store(v22, v23, mask=m_A_21)  # store0: stage 2, partition 0 (group 0)
            b_A_98_p1 = b_A_98
            b_gk_p1 = b_gk
            b_k_p1 = b_k
            b_k_89_p1 = b_k_89
            b_qj_p1 = b_qj
            p_gk_117_p1 = p_gk_117
            p_k_115_p1 = p_k_115
            p_k_116_p1 = p_k_116
            p_qj_114_p1 = p_qj_114
        p_k_115 = p_k_115_p1 + 2048  # load1_b_k: stage 1, partition 0 (group 0)
        b_k = gl.load(p_k_115_p1, mask=m_k, other=0.0)  # load1_b_k: stage 1, partition 0 (group 0)
        b_k_90 = b_k_p1.to(gl.float32)  # convert1_b_k: stage 2, partition 0 (group 0)
        p_qj_114 = p_qj_114_p1 + 2048  # load0_b_qj: stage 1, partition 0 (group 0)
        b_qj = gl.load(p_qj_114_p1, mask=m_k_18, other=0.0)  # load0_b_qj: stage 1, partition 0 (group 0)
        b_qj_88 = b_qj_p1.to(gl.float32)  # convert0_b_qj: stage 2, partition 0 (group 0)
        p_k_116 = p_k_116_p1 + 2048  # load2_b_k: stage 1, partition 0 (group 0)
        b_k_89 = gl.load(p_k_116_p1, mask=m_k_18, other=0.0)  # load2_b_k: stage 1, partition 0 (group 0)
        b_k_91 = b_k_89_p1.to(gl.float32)  # convert2_b_k: stage 2, partition 0 (group 0)
        b_A_95 = gl.expand_dims(b_gk_p1, 0)  # sfu0_b_A: stage 1, partition 0 (group 0)
        b_A_96 = b_A_95.broadcast_to([16, 64])  # sfu0_b_A: stage 1, partition 0 (group 0)
        b_A_97 = b_g_73 - b_A_96  # sfu0_b_A: stage 1, partition 0 (group 0)
        b_A_98 = gl.exp(b_A_97)  # sfu0_b_A: stage 1, partition 0 (group 0)
        b_A_92 = gl.expand_dims(b_k_90, 0)  # elementwise0_b_A: stage 2, partition 0 (group 0)
        b_A_93 = b_A_92.broadcast_to([16, 64])  # elementwise0_b_A: stage 2, partition 0 (group 0)
        b_A_94 = b_A * b_A_93  # elementwise0_b_A: stage 2, partition 0 (group 0)
        b_A_99 = b_A_94 * b_A_98_p1  # elementwise0_b_A: stage 2, partition 0 (group 0)
        b_A_100 = gl.sum(b_A_99, axis=1)  # reduce0_b_A: stage 2, partition 0 (group 0)
        b_A_107 = b_qj_88 * b_k_91  # elementwise2_b_A: stage 2, partition 0 (group 0)
        b_A_108 = b_A_107 * b_A_80  # elementwise2_b_A: stage 2, partition 0 (group 0)
        b_A_109 = b_A_108 * scale  # elementwise2_b_A: stage 2, partition 0 (group 0)
        b_A_110 = b_A_109  # reduce1_b_A: stage 2, partition 0 (group 0)
        b_A_111 = gl.sum(b_A_110, axis=0)  # reduce1_b_A: stage 2, partition 0 (group 0)
        b_A_101 = (0 + ((twill_n - 1 + 1) - 2) * 1)  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_103 = o_i > b_A_101  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_104 = b_A_100 * scale  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_105 = gl.where(b_A_103, b_A_104, 0.0)  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_106 = o_i != b_A_101  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_112 = b_A_111  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_113 = gl.where(b_A_106, b_A_105, b_A_112)  # elementwise1_b_A: stage 2, partition 0 (group 0)
        v23 = gl.convert_layout(b_A_113, L1)  # convert3: stage 2, partition 0 (group 0)
        b_A_102 = (0 + ((twill_n - 1 + 1) - 2) * 1)  # store0: stage 2, partition 0 (group 0)
        v22 = v21 + b_A_102  # store0: stage 2, partition 0 (group 0)
        gl.store(v22, v23, mask=m_A_21)  # store0: stage 2, partition 0 (group 0)
        b_A_98_p1 = b_A_98
        b_gk_p1 = b_gk
        b_k_p1 = b_k
        b_k_89_p1 = b_k_89
        b_qj_p1 = b_qj
        p_gk_117_p2 = p_gk_117_p1
        p_gk_117_p1 = p_gk_117
        p_k_115_p2 = p_k_115_p1
        p_k_115_p1 = p_k_115
        p_k_116_p2 = p_k_116_p1
        p_k_116_p1 = p_k_116
        p_qj_114_p2 = p_qj_114_p1
        p_qj_114_p1 = p_qj_114
        b_k_90 = b_k_p1.to(gl.float32)  # convert1_b_k: stage 2, partition 0 (group 0)
        b_qj_88 = b_qj_p1.to(gl.float32)  # convert0_b_qj: stage 2, partition 0 (group 0)
        b_k_91 = b_k_89_p1.to(gl.float32)  # convert2_b_k: stage 2, partition 0 (group 0)
        b_A_92 = gl.expand_dims(b_k_90, 0)  # elementwise0_b_A: stage 2, partition 0 (group 0)
        b_A_93 = b_A_92.broadcast_to([16, 64])  # elementwise0_b_A: stage 2, partition 0 (group 0)
        b_A_94 = b_A * b_A_93  # elementwise0_b_A: stage 2, partition 0 (group 0)
        b_A_99 = b_A_94 * b_A_98_p1  # elementwise0_b_A: stage 2, partition 0 (group 0)
        b_A_100 = gl.sum(b_A_99, axis=1)  # reduce0_b_A: stage 2, partition 0 (group 0)
        b_A_107 = b_qj_88 * b_k_91  # elementwise2_b_A: stage 2, partition 0 (group 0)
        b_A_108 = b_A_107 * b_A_80  # elementwise2_b_A: stage 2, partition 0 (group 0)
        b_A_109 = b_A_108 * scale  # elementwise2_b_A: stage 2, partition 0 (group 0)
        b_A_110 = b_A_109  # reduce1_b_A: stage 2, partition 0 (group 0)
        b_A_111 = gl.sum(b_A_110, axis=0)  # reduce1_b_A: stage 2, partition 0 (group 0)
        b_A_101 = (0 + ((twill_n - 1 + 2) - 2) * 1)  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_103 = o_i > b_A_101  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_104 = b_A_100 * scale  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_105 = gl.where(b_A_103, b_A_104, 0.0)  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_106 = o_i != b_A_101  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_112 = b_A_111  # elementwise1_b_A: stage 2, partition 0 (group 0)
        b_A_113 = gl.where(b_A_106, b_A_105, b_A_112)  # elementwise1_b_A: stage 2, partition 0 (group 0)
        v23 = gl.convert_layout(b_A_113, L1)  # convert3: stage 2, partition 0 (group 0)
        b_A_102 = (0 + ((twill_n - 1 + 2) - 2) * 1)  # store0: stage 2, partition 0 (group 0)
        v22 = v21 + b_A_102  # store0: stage 2, partition 0 (group 0)
        gl.store(v22, v23, mask=m_A_21)  # store0: stage 2, partition 0 (group 0)
        b_A_98_p1 = b_A_98
        b_gk_p1 = b_gk
        b_k_p1 = b_k
        b_k_89_p1 = b_k_89
        b_qj_p1 = b_qj
        p_gk_117_p3 = p_gk_117_p2
        p_gk_117_p2 = p_gk_117_p1
        p_gk_117_p1 = p_gk_117
        p_k_115_p2 = p_k_115_p1
        p_k_115_p1 = p_k_115
        p_k_116_p2 = p_k_116_p1
        p_k_116_p1 = p_k_116
        p_qj_114_p2 = p_qj_114_p1
        p_qj_114_p1 = p_qj_114
    else:
        p_qj_84_w = p_qj_40
        p_k_85_w = p_k_45
        p_k_86_w = p_k_44
        p_gk_87_w = p_gk_48
        for p_gk_83_w in range(0, v19, 1):
            b_qj_w = gl.load(p_qj_84_w, mask=m_k_18, other=0.0)
            b_qj_88_w = b_qj_w.to(gl.float32)
            b_k_w = gl.load(p_k_86_w, mask=m_k, other=0.0)
            b_k_89_w = gl.load(p_k_85_w, mask=m_k_18, other=0.0)
            b_k_90_w = b_k_w.to(gl.float32)
            b_k_91_w = b_k_89_w.to(gl.float32)
            b_gk_w = gl.load(p_gk_87_w, mask=m_k, other=0.0)
            b_A_92_w = gl.expand_dims(b_k_90_w, 0)
            b_A_93_w = b_A_92_w.broadcast_to([16, 64])
            b_A_94_w = b_A * b_A_93_w
            b_A_95_w = gl.expand_dims(b_gk_w, 0)
            b_A_96_w = b_A_95_w.broadcast_to([16, 64])
            b_A_97_w = b_g_73 - b_A_96_w
            b_A_98_w = gl.exp(b_A_97_w)
            b_A_99_w = b_A_94_w * b_A_98_w
            b_A_100_w = gl.sum(b_A_99_w, axis=1)
            b_A_103_w = o_i > p_gk_83_w
            b_A_104_w = b_A_100_w * scale
            b_A_105_w = gl.where(b_A_103_w, b_A_104_w, 0.0)
            b_A_106_w = o_i != p_gk_83_w
            b_A_107_w = b_qj_88_w * b_k_91_w
            b_A_108_w = b_A_107_w * b_A_80
            b_A_109_w = b_A_108_w * scale
            b_A_110_w = b_A_109_w
            b_A_111_w = gl.sum(b_A_110_w, axis=0)
            b_A_113_w = gl.where(b_A_106_w, b_A_105_w, b_A_111_w)
            v22_w = v21 + p_gk_83_w
            v23_w = gl.convert_layout(b_A_113_w, L1)
            gl.store(v22_w, v23_w, mask=m_A_21)
            p_qj_114_w = p_qj_84_w + 2048
            p_k_115_w = p_k_86_w + 2048
            p_k_116_w = p_k_85_w + 2048
            p_gk_117_w = p_gk_87_w + 2048
            p_qj_84_w = p_qj_114_w
            p_k_85_w = p_k_116_w
            p_k_86_w = p_k_115_w
            p_gk_87_w = p_gk_117_w
        p_qj_114_p2 = p_qj_84_w
        p_k_116_p2 = p_k_85_w
        p_k_115_p2 = p_k_86_w
        p_gk_117_p3 = p_gk_87_w

@gluon.jit
def twill_kernel(q, k, gi, ge, u, A, offsets, indices, scale, T):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v4 = v0 * 2
    v5 = indices + v4
    v6 = gl.load(v5)
    v7 = v5 + 1
    v8 = gl.load(v7)
    v9 = offsets + v6
    v10 = gl.load(v9)
    v11 = v9 + 1
    v12 = gl.load(v11)
    T_15 = v12 - v10
    v13 = v8 * 64
    v14 = v1 * 16
    v15 = v13 + v14
    v16 = v15 >= T_15
    if v16:
        return
    consumer_0(q, k, gi, ge, u, A, offsets, indices, scale, T, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'gi', 'ge', 'u', 'A', 'offsets', 'indices', 'scale', 'T', 'H', 'K', 'BT', 'BC', 'BK', 'NC', 'USE_OFFSETS', 'HEAD_FIRST']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'gi', 'ge', 'u', 'A', 'offsets', 'indices', 'scale', 'T']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'gi', 'ge', 'u', 'A', 'offsets', 'indices', 'scale', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'H': 32, 'K': 64, 'BT': 64, 'BC': 16, 'BK': 64, 'NC': 4, 'USE_OFFSETS': True, 'HEAD_FIRST': False}         # the specialisation this kernel was generated for
HEURISTICS = {'USE_OFFSETS': "lambda args: args['offsets'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
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
