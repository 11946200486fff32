"""chunk_gla_fwd_kernel_o, written by twill from its joint schedule: I=312 L=312 (optimal), 2597 cycles per iteration predicted.

Decisions (each from the schedule):
- b_h_144 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- pointer-loaded tiles copied by a 4-warp producer with cp.async (b_h_144): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (104, 48 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 200 registers per thread (needs about 104): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 48 registers per thread (needs about 48): cp.async copies into the rings
- ring b_h_144: 2 buffers of [32, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 8240 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, v, g, h, o, A, scale, T, b_h_144_buf, b_h_144_ready, b_h_144_empty, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    v5 = v3 * T
    m_s = gl.arange(0, 64, layout=L0)
    m_s_15 = gl.arange(0, 64, layout=L1)
    m_s_16 = gl.arange(0, 64, layout=L2)
    m_s_17 = gl.expand_dims(m_s_15, 1)
    m_s_18 = gl.expand_dims(m_s_16, 0)
    m_s_19 = m_s_17.broadcast_to([64, 64])
    m_s_20 = m_s_18.broadcast_to([64, 64])
    m_s_21 = m_s_19 >= m_s_20
    p_q = v5 * 4
    p_q_22 = p_q + v4
    p_q_23 = p_q_22 * 128
    p_q_24 = q + p_q_23
    p_q_25 = v1 * 64
    p_q_26 = gl.cast(T, gl.int64)
    p_q_27 = gl.cast(p_q_25, gl.int64)
    p_g = g + p_q_23
    p_h_31 = v0 * 64
    p_h_32 = gl.cast(p_h_31, gl.int64)
    b_q_34 = m_s.to(gl.int64)
    b_q_35 = m_s_16.to(gl.int64)
    b_q_36 = p_q_27 + b_q_34
    b_q_37 = gl.expand_dims(b_q_36, 1)
    b_q_38 = b_q_37 * 512
    b_q_39 = b_q_38.broadcast_to([64, 32])
    b_q_40 = gl.arange(0, 32, layout=L3)
    b_q_41 = gl.arange(0, 32, layout=L1)
    b_q_42 = b_q_40.to(gl.int64)
    b_q_43 = b_q_41.to(gl.int64)
    b_q_44 = b_q_37 >= 0
    b_q_46 = b_q_37 < p_q_26
    b_q_47 = b_q_44 & b_q_46
    b_q_48 = b_q_47.broadcast_to([64, 32])
    b_h_51 = p_h_32 + b_q_35
    b_h_52 = gl.expand_dims(b_h_51, 0)
    b_h_54 = b_h_52 >= 0
    b_h_55 = b_h_52 < 128
    b_h_56 = b_h_54 & b_h_55
    b_h_57 = b_h_56.broadcast_to([32, 64])
    twill_n = (4 - 0 + 1 - 1) // 1
    v11 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    p_q_110 = (0 + (0 - 0) * 1) * 32  # load0_b_q: stage 0, partition 0 (group 0)
    p_q_111 = gl.cast(p_q_110, gl.int64)  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_112 = p_q_111  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_114 = b_q_112 + b_q_42  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_116 = gl.expand_dims(b_q_114, 0)  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_120 = b_q_116 >= 0  # elementwise0_b_q: stage 0, partition 0 (group 0)
    b_q_121 = b_q_116 < 128  # elementwise0_b_q: stage 0, partition 0 (group 0)
    b_q_122 = b_q_120 & b_q_121  # elementwise0_b_q: stage 0, partition 0 (group 0)
    b_q_123 = b_q_122.broadcast_to([64, 32])  # elementwise1_b_q: stage 0, partition 0 (group 0)
    b_q_124 = b_q_48 & b_q_123  # elementwise1_b_q: stage 0, partition 0 (group 0)
    b_q_117 = b_q_116.broadcast_to([64, 32])  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_118 = b_q_39 + b_q_117  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_119 = p_q_24 + b_q_118  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_125 = gl.load(b_q_119, mask=b_q_124)  # load0_b_q: stage 0, partition 0 (group 0)
    b_g_129 = p_g + b_q_118  # load2_b_g: stage 0, partition 0 (group 0)
    b_g_130 = gl.load(b_g_129, mask=b_q_124)  # load2_b_g: stage 0, partition 0 (group 0)
    b_g_130_p1 = b_g_130
    b_q_125_p1 = b_q_125
    p_q_111_p1 = p_q_111
    v11_p1 = v11
    for twill_b in range(1, twill_n):
        p_q_110 = (0 + (twill_b - 0) * 1) * 32  # load0_b_q: stage 0, partition 0 (group 0)
        p_q_111 = gl.cast(p_q_110, gl.int64)  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_112 = p_q_111  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_114 = b_q_112 + b_q_42  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_116 = gl.expand_dims(b_q_114, 0)  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_120 = b_q_116 >= 0  # elementwise0_b_q: stage 0, partition 0 (group 0)
        b_q_121 = b_q_116 < 128  # elementwise0_b_q: stage 0, partition 0 (group 0)
        b_q_122 = b_q_120 & b_q_121  # elementwise0_b_q: stage 0, partition 0 (group 0)
        b_q_123 = b_q_122.broadcast_to([64, 32])  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_124 = b_q_48 & b_q_123  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_113 = p_q_111_p1  # load1_b_h: stage 1, partition 0 (group 0)
        b_q_115 = b_q_113 + b_q_43  # load1_b_h: stage 1, partition 0 (group 0)
        b_h_134 = gl.expand_dims(b_q_115, 1)  # load1_b_h: stage 1, partition 0 (group 0)
        b_h_139 = b_h_134 >= 0  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_140 = b_h_134 < 128  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_141 = b_h_139 & b_h_140  # elementwise4_b_h: stage 1, partition 0 (group 0)
        b_h_142 = b_h_141.broadcast_to([32, 64])  # elementwise5_b_h: stage 1, partition 0 (group 0)
        b_h_143 = b_h_142 & b_h_57  # elementwise5_b_h: stage 1, partition 0 (group 0)
        b_q_117 = b_q_116.broadcast_to([64, 32])  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_118 = b_q_39 + b_q_117  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_119 = p_q_24 + b_q_118  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_125 = gl.load(b_q_119, mask=b_q_124)  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_126 = b_q_125_p1.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
        b_q_127 = b_q_126 * scale  # elementwise2_b_q: stage 1, partition 0 (group 0)
        b_q_128 = b_q_127.to(gl.float16)  # convert1_b_q: stage 1, partition 0 (group 0)
        b_qg_131 = b_q_128.to(gl.float32)  # convert1_b_q: stage 1, partition 0 (group 0)
        b_g_129 = p_g + b_q_118  # load2_b_g: stage 0, partition 0 (group 0)
        b_g_130 = gl.load(b_g_129, mask=b_q_124)  # load2_b_g: stage 0, partition 0 (group 0)
        b_qg = gl.exp(b_g_130_p1)  # sfu0_b_qg: stage 1, partition 0 (group 0)
        b_qg_132 = b_qg_131 * b_qg  # elementwise3_b_qg: stage 1, partition 0 (group 0)
        b_qg_133 = b_qg_132.to(gl.float16)  # convert2_b_qg: stage 1, partition 0 (group 0)
        v10 = (0 + (twill_b - 1) * 1) >= 0  # elementwise6: stage 1, partition 0 (group 0)
        mbarrier.wait(b_h_144_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
        fence_async_shared()
        if v10:  # elementwise6: stage 1, partition 0 (group 0)
            b_qg_146 = gl.convert_layout(b_qg_133, L5)  # elementwise6: stage 1, partition 0 (group 0)
            b_o_147 = warpgroup_mma(b_qg_146, b_h_144_buf.index((twill_b - 1) % 2), v11_p1)  # elementwise6: stage 1, partition 0 (group 0)
            v11 = b_o_147  # elementwise6: stage 1, partition 0 (group 0)
        else:  # elementwise6: stage 1, partition 0 (group 0)
            v11 = v11_p1  # elementwise6: stage 1, partition 0 (group 0)
        mbarrier.arrive(b_h_144_empty.index((twill_b - 1) % 2))
        b_g_130_p1 = b_g_130
        b_q_125_p1 = b_q_125
        p_q_111_p1 = p_q_111
        v11_p1 = v11
    b_q_113 = p_q_111_p1  # load1_b_h: stage 1, partition 0 (group 0)
    b_q_115 = b_q_113 + b_q_43  # load1_b_h: stage 1, partition 0 (group 0)
    b_h_134 = gl.expand_dims(b_q_115, 1)  # load1_b_h: stage 1, partition 0 (group 0)
    b_h_139 = b_h_134 >= 0  # elementwise4_b_h: stage 1, partition 0 (group 0)
    b_h_140 = b_h_134 < 128  # elementwise4_b_h: stage 1, partition 0 (group 0)
    b_h_141 = b_h_139 & b_h_140  # elementwise4_b_h: stage 1, partition 0 (group 0)
    b_h_142 = b_h_141.broadcast_to([32, 64])  # elementwise5_b_h: stage 1, partition 0 (group 0)
    b_h_143 = b_h_142 & b_h_57  # elementwise5_b_h: stage 1, partition 0 (group 0)
    b_q_126 = b_q_125_p1.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
    b_q_127 = b_q_126 * scale  # elementwise2_b_q: stage 1, partition 0 (group 0)
    b_q_128 = b_q_127.to(gl.float16)  # convert1_b_q: stage 1, partition 0 (group 0)
    b_qg_131 = b_q_128.to(gl.float32)  # convert1_b_q: stage 1, partition 0 (group 0)
    b_qg = gl.exp(b_g_130_p1)  # sfu0_b_qg: stage 1, partition 0 (group 0)
    b_qg_132 = b_qg_131 * b_qg  # elementwise3_b_qg: stage 1, partition 0 (group 0)
    b_qg_133 = b_qg_132.to(gl.float16)  # convert2_b_qg: stage 1, partition 0 (group 0)
    v10 = (0 + ((twill_n - 1 + 1) - 1) * 1) >= 0  # elementwise6: stage 1, partition 0 (group 0)
    mbarrier.wait(b_h_144_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
    fence_async_shared()
    if v10:  # elementwise6: stage 1, partition 0 (group 0)
        b_qg_146 = gl.convert_layout(b_qg_133, L5)  # elementwise6: stage 1, partition 0 (group 0)
        b_o_147 = warpgroup_mma(b_qg_146, b_h_144_buf.index(((twill_n - 1 + 1) - 1) % 2), v11_p1)  # elementwise6: stage 1, partition 0 (group 0)
        v11 = b_o_147  # elementwise6: stage 1, partition 0 (group 0)
    else:  # elementwise6: stage 1, partition 0 (group 0)
        v11 = v11_p1  # elementwise6: stage 1, partition 0 (group 0)
    mbarrier.arrive(b_h_144_empty.index(((twill_n - 1 + 1) - 1) % 2))
    b_g_130_p1 = b_g_130
    b_q_125_p1 = b_q_125
    p_q_111_p1 = p_q_111
    v11_p1 = v11
    p_v = v5 * 4
    p_v_58 = p_v + v4
    p_v_59 = p_v_58 * 128
    p_v_60 = v + p_v_59
    p_v_61 = v1 * 64
    p_v_62 = v0 * 64
    p_v_63 = gl.cast(T, gl.int64)
    p_v_64 = gl.cast(p_v_61, gl.int64)
    p_v_65 = gl.cast(p_v_62, gl.int64)
    p_o = o + p_v_59
    p_A = p_v_58 * 64
    p_A_66 = A + p_A
    b_v_68 = m_s_15.to(gl.int64)
    b_v_69 = m_s_16.to(gl.int64)
    b_v_70 = p_v_64 + b_v_68
    b_v_71 = gl.expand_dims(b_v_70, 1)
    b_v_72 = b_v_71 * 512
    b_v_73 = b_v_72.broadcast_to([64, 64])
    b_v_75 = p_v_65 + b_v_69
    b_v_76 = gl.expand_dims(b_v_75, 0)
    b_v_77 = b_v_76.broadcast_to([64, 64])
    b_v_78 = b_v_73 + b_v_77
    b_v_79 = p_v_60 + b_v_78
    b_v_80 = b_v_71 >= 0
    b_v_82 = b_v_71 < p_v_63
    b_v_83 = b_v_80 & b_v_82
    b_v_84 = b_v_83.broadcast_to([64, 64])
    b_v_85 = b_v_76 >= 0
    b_v_86 = b_v_76 < 128
    b_v_87 = b_v_85 & b_v_86
    b_v_88 = b_v_87.broadcast_to([64, 64])
    b_v_89 = b_v_84 & b_v_88
    b_v_90 = gl.load(b_v_79, mask=b_v_89)
    b_v_91 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_v_90)
    fence_async_shared()
    b_A_93 = b_v_71 * 256
    b_A_94 = b_A_93.broadcast_to([64, 64])
    b_A_95 = gl.expand_dims(b_v_69, 0)
    b_A_96 = b_A_95.broadcast_to([64, 64])
    b_A_97 = b_A_94 + b_A_96
    b_A_98 = p_A_66 + b_A_97
    b_A_99 = b_A_95 >= 0
    b_A_100 = b_A_95 < 64
    b_A_101 = b_A_99 & b_A_100
    b_A_102 = b_A_101.broadcast_to([64, 64])
    b_A_103 = b_v_84 & b_A_102
    b_A_104 = gl.load(b_A_98, mask=b_A_103)
    b_A_105 = gl.where(m_s_21, b_A_104, 0.0)
    b_A_106 = b_A_105.to(gl.float16)
    b_A_107 = gl.convert_layout(b_A_106, L5)
    b_o_108 = warpgroup_mma(b_A_107, b_v_91, v11_p1)
    v6 = b_o_108.to(gl.float16)
    v8 = p_o + b_v_78
    v9 = gl.convert_layout(v6, L6)
    gl.store(v8, v9, mask=b_v_89)

@gluon.jit
def producer_1(q, v, g, h, o, A, scale, T, b_h_144_buf, b_h_144_ready, b_h_144_empty, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    NT_12 = T + 63
    NT_13 = NT_12 // 64
    i_tg = v3 * NT_13
    i_tg_14 = i_tg + v1
    m_s_16 = gl.arange(0, 64, layout=L2)
    p_h = i_tg_14 * 4
    p_h_28 = p_h + v4
    p_h_29 = p_h_28 * 16384
    p_h_30 = h + p_h_29
    p_h_31 = v0 * 64
    p_h_32 = gl.cast(p_h_31, gl.int64)
    b_q_35 = m_s_16.to(gl.int64)
    b_q_41 = gl.arange(0, 32, layout=L1)
    b_q_43 = b_q_41.to(gl.int64)
    b_h_51 = p_h_32 + b_q_35
    b_h_52 = gl.expand_dims(b_h_51, 0)
    b_h_53 = b_h_52.broadcast_to([32, 64])
    b_h_54 = b_h_52 >= 0
    b_h_55 = b_h_52 < 128
    b_h_56 = b_h_54 & b_h_55
    b_h_57 = b_h_56.broadcast_to([32, 64])
    for b_o_109 in range(0, 4, 1):
        twill_k = (b_o_109 - 0) // 1
        p_q_110 = b_o_109 * 32
        p_q_111 = gl.cast(p_q_110, gl.int64)
        b_q_115 = p_q_111 + b_q_43
        b_h_134 = gl.expand_dims(b_q_115, 1)
        b_h_135 = b_h_134 * 128
        b_h_136 = b_h_135.broadcast_to([32, 64])
        b_h_137 = b_h_136 + b_h_53
        b_h_138 = p_h_30 + b_h_137
        b_h_139 = b_h_134 >= 0
        b_h_140 = b_h_134 < 128
        b_h_141 = b_h_139 & b_h_140
        b_h_142 = b_h_141.broadcast_to([32, 64])
        b_h_143 = b_h_142 & b_h_57
        mbarrier.wait(b_h_144_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_h_144_buf.index(twill_k % 2), b_h_138, mask=b_h_143)  # load1_b_h: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_h_144_ready.index(twill_k % 2), increment_count=False)
        else:
            b_h_144_buf.index(twill_k % 2).store(gl.load(b_h_138, mask=b_h_143, other=0.0))  # load1_b_h: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_h_144_ready.index(twill_k % 2), count=128)

@gluon.jit
def twill_kernel(q, v, g, h, o, A, scale, T, TWILL_COPY: gl.constexpr):
    b_h_144_buf = gl.allocate_shared_memory(gl.float16, [2, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_h_144_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_h_144_ready.index(i), count=128)
    b_h_144_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_h_144_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (q, v, g, h, o, A, scale, T, b_h_144_buf, b_h_144_ready, b_h_144_empty, TWILL_COPY)),
        (producer_1, (q, v, g, h, o, A, scale, T, b_h_144_buf, b_h_144_ready, b_h_144_empty, TWILL_COPY)),
    ], [4], [48])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'v', 'g', 'h', 'o', 'A', 'cu_seqlens', 'chunk_indices', 'scale', 'T', 'H', 'K', 'V', 'BT', 'BK', 'BV', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'v', 'g', 'h', 'o', 'A', 'scale', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'v', 'g', 'h', 'o', 'A', 'cu_seqlens', 'chunk_indices', 'scale', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'H': 4, 'K': 128, 'V': 128, 'BT': 64, 'BK': 32, 'BV': 64, 'IS_VARLEN': False}         # the specialisation this kernel was generated for
HEURISTICS = {'IS_VARLEN': "lambda args: args['cu_seqlens'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['h']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
