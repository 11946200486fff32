"""parallel_based_fwd_kernel, written by twill from its joint schedule: I=229 L=229 (optimal), 1844 cycles per iteration predicted.

Decisions (each from the schedule):
- b_k_141 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- b_v_155 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- pointer-loaded tiles copied by a 4-warp producer with cp.async (b_k_141, b_v_155): their addresses and masks spread over 128 threads
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 217): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring b_k_141: 2 buffers of [16, 32] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring b_v_155: 2 buffers of [32, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 18512 bytes planned of 232448; maxnreg 256
- loop at fla_parallel_based.py:92 (TTGIR line 215) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=223, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 1 iteration(s) ahead, 32768 bytes of shared memory compiled, ptxas 220 registers, ptxas serialises the wgmmas (non wgmma instructions defining accumulator registers of a wgmma between start and end of the pipeline stage); simulated for 0, 1, 2, 3, 8 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16]), k_width=2))
L10 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L11 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16])))
L12 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16]))
L13 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L14 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16])))
L15 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L16 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[2, 16], warps_per_cta=[1, 4], order=[0, 1])))
L17 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[2, 16], warps_per_cta=[1, 4], order=[0, 1])))

@gluon.jit
def consumer_0(q, k, v, o, z, scale, T, twill_g0, twill_g1, twill_g2, b_k_141_buf, b_v_155_buf, b_k_141_ready, b_k_141_empty, b_v_155_ready, b_v_155_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        v0 = twill_pid0
        v1 = twill_pid1
        v2 = twill_pid2
        p_q = v2 * T
        p_q_19 = p_q * 16
        p_q_20 = q + p_q_19
        p_q_21 = v1 * 128
        p_q_22 = v0 * 16
        p_q_23 = gl.cast(T, gl.int64)
        p_q_24 = gl.cast(p_q_21, gl.int64)
        p_q_25 = gl.cast(p_q_22, gl.int64)
        p_k = k + p_q_19
        p_v = p_q * 128
        p_v_26 = v + p_v
        b_q_30 = gl.arange(0, 128, layout=L0)
        b_q_31 = gl.arange(0, 128, layout=L1)
        b_q_32 = gl.arange(0, 128, layout=L2)
        b_q_33 = gl.arange(0, 128, layout=L3)
        b_q_34 = gl.arange(0, 128, layout=L4)
        b_q_35 = b_q_30.to(gl.int64)
        b_q_36 = b_q_31.to(gl.int64)
        b_q_37 = b_q_32.to(gl.int64)
        b_q_38 = b_q_33.to(gl.int64)
        b_q_39 = p_q_24 + b_q_35
        b_q_40 = p_q_24 + b_q_36
        b_q_41 = gl.expand_dims(b_q_39, 1)
        b_q_42 = gl.expand_dims(b_q_40, 1)
        b_q_43 = b_q_41 * 16
        b_q_44 = b_q_43.broadcast_to([128, 16])
        b_q_47 = gl.arange(0, 16, layout=L5)
        b_q_48 = gl.arange(0, 16, layout=L6)
        b_q_49 = b_q_47.to(gl.int64)
        b_q_50 = b_q_48.to(gl.int64)
        b_q_51 = p_q_25 + b_q_49
        b_q_52 = p_q_25 + b_q_50
        b_q_53 = gl.expand_dims(b_q_51, 0)
        b_q_54 = b_q_53.broadcast_to([128, 16])
        b_q_55 = b_q_44 + b_q_54
        b_q_56 = p_q_20 + b_q_55
        b_q_57 = b_q_41 >= 0
        b_q_58 = b_q_42 >= 0
        b_q_61 = b_q_41 < p_q_23
        b_q_62 = b_q_42 < p_q_23
        b_q_63 = b_q_57 & b_q_61
        b_q_64 = b_q_58 & b_q_62
        b_q_65 = b_q_63.broadcast_to([128, 16])
        b_q_66 = b_q_53 >= 0
        b_q_67 = b_q_53 < 16
        b_q_68 = b_q_66 & b_q_67
        b_q_69 = b_q_68.broadcast_to([128, 16])
        b_q_70 = b_q_65 & b_q_69
        b_q_71 = gl.load(b_q_56, mask=b_q_70)
        b_q_72 = b_q_71.to(gl.float32)
        b_q_74 = b_q_72 * scale
        b_q_75 = b_q_74.to(gl.float16)
        b_k_76 = gl.expand_dims(b_q_52, 1)
        b_k_77 = b_k_76.broadcast_to([16, 32])
        b_k_78 = gl.arange(0, 32, layout=L7)
        b_k_79 = gl.arange(0, 32, layout=L8)
        b_k_80 = b_k_78.to(gl.int64)
        b_k_81 = b_k_79.to(gl.int64)
        b_k_82 = b_k_76 >= 0
        b_k_83 = b_k_76 < 16
        b_k_84 = b_k_82 & b_k_83
        b_k_85 = b_k_84.broadcast_to([16, 32])
        b_v_87 = gl.expand_dims(b_q_37, 0)
        b_v_88 = b_v_87.broadcast_to([32, 128])
        b_v_90 = b_v_87 >= 0
        b_v_91 = b_v_87 < 128
        b_v_92 = b_v_90 & b_v_91
        b_v_93 = b_v_92.broadcast_to([32, 128])
        b_q_94 = gl.convert_layout(b_q_75, L9)
        twill_n = (p_q_21 - 0 + 32 - 1) // 32
        p_k_165 = gl.to_tensor(0).to(gl.int64)
        b_o_164 = gl.full([128, 128], 0.0, gl.float32, layout=L10)
        b_z_162 = gl.full([128], 0.0, gl.float32, layout=L11)
        b_o_164_p1 = b_o_164
        b_z_162_p1 = b_z_162
        p_k_165_p1 = p_k_165
        for twill_b in range(0, twill_n):
            b_k_129 = p_k_165_p1  # load0_b_k: stage 0, partition 0 (group 0)
            b_k_130 = b_k_129 + b_k_80  # load0_b_k: stage 0, partition 0 (group 0)
            b_k_131 = gl.expand_dims(b_k_130, 0)  # load0_b_k: stage 0, partition 0 (group 0)
            b_k_136 = b_k_131 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
            b_k_137 = b_k_131 < p_q_23  # elementwise0_b_k: stage 0, partition 0 (group 0)
            b_k_138 = b_k_136 & b_k_137  # elementwise0_b_k: stage 0, partition 0 (group 0)
            b_k_139 = b_k_138.broadcast_to([16, 32])  # elementwise1_b_k: stage 0, partition 0 (group 0)
            b_k_140 = b_k_85 & b_k_139  # elementwise1_b_k: stage 0, partition 0 (group 0)
            p_k_165 = p_k_165_p1 + 32  # load0_b_k: stage 0, partition 0 (group 0)
            b_v_143 = p_k_165_p1  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_144 = b_v_143 + b_k_81  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_145 = gl.expand_dims(b_v_144, 1)  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_150 = b_v_145 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_151 = b_v_145 < p_q_23  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_152 = b_v_150 & b_v_151  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_153 = b_v_152.broadcast_to([32, 128])  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_v_154 = b_v_153 & b_v_93  # elementwise3_b_v: stage 0, partition 0 (group 0)
            mbarrier.wait(b_k_141_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
            fence_async_shared()
            tok_b_s = warpgroup_mma(b_q_94, b_k_141_buf.index((twill_base + twill_b - 0) % 2), gl.full([128, 32], 0.0, gl.float32, layout=L12), use_acc=False, is_async=True)  # dot0_b_s: stage 0, partition 0 (group 0)
            b_o_164_p1, b_s = warpgroup_mma_wait(0, deps=(b_o_164_p1, tok_b_s,))
            mbarrier.arrive(b_v_155_empty.index((twill_base + twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_k_141_empty.index((twill_base + twill_b - 0) % 2))
            b_s_157 = b_s + 1.0  # elementwise4_b_s: stage 0, partition 0 (group 0)
            b_s_158 = b_s * 0.5  # elementwise4_b_s: stage 0, partition 0 (group 0)
            b_s_159 = b_s_158 * b_s  # elementwise4_b_s: stage 0, partition 0 (group 0)
            b_s_160 = b_s_157 + b_s_159  # elementwise4_b_s: stage 0, partition 0 (group 0)
            b_o = b_s_160.to(gl.float16)  # convert0_b_o: stage 0, partition 0 (group 0)
            b_o_163 = gl.convert_layout(b_o, L13)  # convert0_b_o: stage 0, partition 0 (group 0)
            b_z_161 = gl.sum(b_s_160, axis=1)  # reduce0_b_z: stage 0, partition 0 (group 0)
            b_z_162 = b_z_162_p1 + b_z_161  # elementwise5_b_z: stage 0, partition 0 (group 0)
            mbarrier.wait(b_v_155_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
            fence_async_shared()
            tok_b_o_164 = warpgroup_mma(b_o_163, b_v_155_buf.index((twill_base + twill_b - 0) % 2), b_o_164_p1, is_async=True)  # dot1_b_o: stage 0, partition 0 (group 0)
            b_o_164 = warpgroup_mma_wait(1, deps=(tok_b_o_164,))
            b_o_164_p1 = b_o_164
            b_z_162_p1 = b_z_162
            p_k_165_p1 = p_k_165
        b_o_164_p1 = warpgroup_mma_wait(0, deps=(b_o_164_p1,))
        b_k_141_buf._keep_alive()
        b_v_155_buf._keep_alive()
        mbarrier.arrive(b_v_155_empty.index((twill_base + (twill_n - 1) - 0) % 2), pred=twill_n > 0)
        twill_base += twill_n
        gl.thread_barrier()
        o_k = gl.arange(0, 32, layout=L7)
        o_k_96 = gl.arange(0, 32, layout=L14)
        o_k_97 = gl.arange(0, 32, layout=L8)
        v3 = v1 + 1
        v4 = v3 * 128
        b_k_99 = gl.expand_dims(b_q_52, 1)
        b_k_101 = o_k.to(gl.int64)
        b_k_102 = o_k_97.to(gl.int64)
        b_k_103 = b_k_99 >= 0
        b_k_104 = b_k_99 < 16
        b_k_105 = b_k_103 & b_k_104
        b_k_106 = b_k_105.broadcast_to([16, 32])
        b_v_109 = gl.expand_dims(b_q_37, 0)
        b_v_112 = b_v_109 >= 0
        b_v_113 = b_v_109 < 128
        b_v_114 = b_v_112 & b_v_113
        b_v_115 = b_v_114.broadcast_to([32, 128])
        m_s = gl.arange(0, 128, layout=L11)
        m_s_116 = gl.expand_dims(m_s, 1)
        m_s_117 = m_s_116.broadcast_to([128, 32])
        b_q_118 = gl.convert_layout(b_q_75, L9)
        twill_n = gl.maximum((v4 - p_q_21 + 32 - 1) // 32, 0)
        p_k_172 = p_q_24
        b_o_171 = b_o_164_p1
        b_z_169 = b_z_162_p1
        o_k_173 = o_k_96
        b_o_171_p1 = b_o_171
        b_z_169_p1 = b_z_169
        o_k_173_p1 = o_k_173
        p_k_172_p1 = p_k_172
        for twill_b in range(0, twill_n):
            b_k_132_l1 = p_k_172_p1  # load0_b_k: stage 0, partition 0 (group 0)
            b_k_133_l1 = b_k_132_l1 + b_k_101  # load0_b_k: stage 0, partition 0 (group 0)
            b_k_134_l1 = gl.expand_dims(b_k_133_l1, 0)  # load0_b_k: stage 0, partition 0 (group 0)
            b_k_139_l1 = b_k_134_l1 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
            b_k_140_l1 = b_k_134_l1 < p_q_23  # elementwise0_b_k: stage 0, partition 0 (group 0)
            b_k_141_l1 = b_k_139_l1 & b_k_140_l1  # elementwise0_b_k: stage 0, partition 0 (group 0)
            b_k_142_l1 = b_k_141_l1.broadcast_to([16, 32])  # elementwise1_b_k: stage 0, partition 0 (group 0)
            b_k_143 = b_k_106 & b_k_142_l1  # elementwise1_b_k: stage 0, partition 0 (group 0)
            p_k_172 = p_k_172_p1 + 32  # load0_b_k: stage 0, partition 0 (group 0)
            b_v_146_l1 = p_k_172_p1  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_147_l1 = b_v_146_l1 + b_k_102  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_148_l1 = gl.expand_dims(b_v_147_l1, 1)  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_153_l1 = b_v_148_l1 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_154_l1 = b_v_148_l1 < p_q_23  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_155_l1 = b_v_153_l1 & b_v_154_l1  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_156_l1 = b_v_155_l1.broadcast_to([32, 128])  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_v_157 = b_v_156_l1 & b_v_115  # elementwise3_b_v: stage 0, partition 0 (group 0)
            mbarrier.wait(b_k_141_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
            fence_async_shared()
            tok_b_s_l1 = warpgroup_mma(b_q_118, b_k_141_buf.index((twill_base + twill_b - 0) % 2), gl.full([128, 32], 0.0, gl.float32, layout=L12), use_acc=False, is_async=True)  # dot0_b_s: stage 0, partition 0 (group 0)
            m_s_160 = gl.expand_dims(o_k_173_p1, 0)  # elementwise4_b_s: stage 0, partition 0 (group 0)
            m_s_161 = m_s_160.broadcast_to([128, 32])  # elementwise4_b_s: stage 0, partition 0 (group 0)
            m_s_162 = m_s_117 >= m_s_161  # elementwise4_b_s: stage 0, partition 0 (group 0)
            b_o_171_p1, b_s_l1 = warpgroup_mma_wait(0, deps=(b_o_171_p1, tok_b_s_l1,))
            mbarrier.arrive(b_v_155_empty.index((twill_base + twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_k_141_empty.index((twill_base + twill_b - 0) % 2))
            b_s_163 = b_s_l1 + 1.0  # elementwise4_b_s: stage 0, partition 0 (group 0)
            b_s_164 = b_s_l1 * 0.5  # elementwise4_b_s: stage 0, partition 0 (group 0)
            b_s_165 = b_s_164 * b_s_l1  # elementwise4_b_s: stage 0, partition 0 (group 0)
            b_s_166 = b_s_163 + b_s_165  # elementwise4_b_s: stage 0, partition 0 (group 0)
            b_s_167 = gl.where(m_s_162, b_s_166, 0.0)  # elementwise4_b_s: stage 0, partition 0 (group 0)
            o_k_173 = o_k_173_p1 + 32  # elementwise4_b_s: stage 0, partition 0 (group 0)
            b_o_l1 = b_s_167.to(gl.float16)  # convert0_b_o: stage 0, partition 0 (group 0)
            b_o_170 = gl.convert_layout(b_o_l1, L13)  # convert0_b_o: stage 0, partition 0 (group 0)
            b_z_168_l1 = gl.sum(b_s_167, axis=1)  # reduce0_b_z: stage 0, partition 0 (group 0)
            b_z_169 = b_z_169_p1 + b_z_168_l1  # elementwise5_b_z: stage 0, partition 0 (group 0)
            mbarrier.wait(b_v_155_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
            fence_async_shared()
            tok_b_o_171 = warpgroup_mma(b_o_170, b_v_155_buf.index((twill_base + twill_b - 0) % 2), b_o_171_p1, is_async=True)  # dot1_b_o: stage 0, partition 0 (group 0)
            b_o_171 = warpgroup_mma_wait(1, deps=(tok_b_o_171,))
            b_o_171_p1 = b_o_171
            b_z_169_p1 = b_z_169
            o_k_173_p1 = o_k_173
            p_k_172_p1 = p_k_172
        b_o_171_p1 = warpgroup_mma_wait(0, deps=(b_o_171_p1,))
        b_k_141_buf._keep_alive()
        b_v_155_buf._keep_alive()
        mbarrier.arrive(b_v_155_empty.index((twill_base + (twill_n - 1) - 0) % 2), pred=twill_n > 0)
        p_o = v0 * 128
        p_o_120 = v2 + p_o
        p_o_121 = p_o_120 * T
        p_o_122 = p_o_121 * 128
        p_o_123 = o + p_o_122
        p_z = z + p_o_121
        p_z_124 = p_z + p_q_21
        p_z_126 = p_z_124 + b_q_34
        v6 = b_q_42 * 128
        v7 = v6.broadcast_to([128, 128])
        v8 = gl.expand_dims(b_q_38, 0)
        v9 = v8.broadcast_to([128, 128])
        v10 = v7 + v9
        v11 = p_o_123 + v10
        v12 = b_q_64.broadcast_to([128, 128])
        v13 = v8 >= 0
        v14 = v8 < 128
        v15 = v13 & v14
        v16 = v15.broadcast_to([128, 128])
        v17 = v12 & v16
        v18 = gl.convert_layout(b_o_171_p1, L15)
        gl.store(v11, v18, mask=v17)
        v20 = p_q_21 + b_q_34
        v22 = v20 < T
        v23 = gl.convert_layout(b_z_169_p1, L4)
        gl.store(p_z_126, v23, mask=v22)
        twill_base += twill_n

@gluon.jit
def producer_1(q, k, v, o, z, scale, T, twill_g0, twill_g1, twill_g2, b_k_141_buf, b_v_155_buf, b_k_141_ready, b_k_141_empty, b_v_155_ready, b_v_155_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        v0 = twill_pid0
        v1 = twill_pid1
        v2 = twill_pid2
        p_q = v2 * T
        p_q_19 = p_q * 16
        p_q_21 = v1 * 128
        p_q_22 = v0 * 16
        p_q_23 = gl.cast(T, gl.int64)
        p_q_24 = gl.cast(p_q_21, gl.int64)
        p_q_25 = gl.cast(p_q_22, gl.int64)
        p_k = k + p_q_19
        p_v = p_q * 128
        p_v_26 = v + p_v
        b_q_32 = gl.arange(0, 128, layout=L2)
        b_q_37 = b_q_32.to(gl.int64)
        b_q_48 = gl.arange(0, 16, layout=L16)
        b_q_50 = b_q_48.to(gl.int64)
        b_q_52 = p_q_25 + b_q_50
        b_k_76 = gl.expand_dims(b_q_52, 1)
        b_k_77 = b_k_76.broadcast_to([16, 32])
        b_k_78 = gl.arange(0, 32, layout=L17)
        b_k_79 = gl.arange(0, 32, layout=L8)
        b_k_80 = b_k_78.to(gl.int64)
        b_k_81 = b_k_79.to(gl.int64)
        b_k_82 = b_k_76 >= 0
        b_k_83 = b_k_76 < 16
        b_k_84 = b_k_82 & b_k_83
        b_k_85 = b_k_84.broadcast_to([16, 32])
        b_v_87 = gl.expand_dims(b_q_37, 0)
        b_v_88 = b_v_87.broadcast_to([32, 128])
        b_v_90 = b_v_87 >= 0
        b_v_91 = b_v_87 < 128
        b_v_92 = b_v_90 & b_v_91
        b_v_93 = b_v_92.broadcast_to([32, 128])
        arg8 = 0
        for b_z_127 in range(0, p_q_21, 32):
            twill_k = twill_base + (b_z_127 - 0) // 32
            b_k_130 = arg8 + b_k_80
            b_k_131 = gl.expand_dims(b_k_130, 0)
            b_k_132 = b_k_131 * 16
            b_k_133 = b_k_132.broadcast_to([16, 32])
            b_k_134 = b_k_77 + b_k_133
            b_k_135 = p_k + b_k_134
            b_k_136 = b_k_131 >= 0
            b_k_137 = b_k_131 < p_q_23
            b_k_138 = b_k_136 & b_k_137
            b_k_139 = b_k_138.broadcast_to([16, 32])
            b_k_140 = b_k_85 & b_k_139
            b_v_144 = arg8 + b_k_81
            b_v_145 = gl.expand_dims(b_v_144, 1)
            b_v_146 = b_v_145 * 128
            b_v_147 = b_v_146.broadcast_to([32, 128])
            b_v_148 = b_v_147 + b_v_88
            b_v_149 = p_v_26 + b_v_148
            b_v_150 = b_v_145 >= 0
            b_v_151 = b_v_145 < p_q_23
            b_v_152 = b_v_150 & b_v_151
            b_v_153 = b_v_152.broadcast_to([32, 128])
            b_v_154 = b_v_153 & b_v_93
            p_k_165 = arg8 + 32
            mbarrier.wait(b_k_141_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_k_141_buf.index(twill_k % 2), b_k_135, mask=b_k_140)  # load0_b_k: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_k_141_ready.index(twill_k % 2), increment_count=False)
            else:
                b_k_141_buf.index(twill_k % 2).store(gl.load(b_k_135, mask=b_k_140, other=0.0))  # load0_b_k: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_k_141_ready.index(twill_k % 2), count=128)
            mbarrier.wait(b_v_155_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_v_155_buf.index(twill_k % 2), b_v_149, mask=b_v_154)  # load1_b_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_v_155_ready.index(twill_k % 2), increment_count=False)
            else:
                b_v_155_buf.index(twill_k % 2).store(gl.load(b_v_149, mask=b_v_154, other=0.0))  # load1_b_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_v_155_ready.index(twill_k % 2), count=128)
            arg8 = p_k_165
        o_k = gl.arange(0, 32, layout=L17)
        o_k_97 = gl.arange(0, 32, layout=L8)
        v3 = v1 + 1
        v4 = v3 * 128
        b_k_99 = gl.expand_dims(b_q_52, 1)
        b_k_100 = b_k_99.broadcast_to([16, 32])
        b_k_101 = o_k.to(gl.int64)
        b_k_102 = o_k_97.to(gl.int64)
        b_k_103 = b_k_99 >= 0
        b_k_104 = b_k_99 < 16
        b_k_105 = b_k_103 & b_k_104
        b_k_106 = b_k_105.broadcast_to([16, 32])
        b_v_109 = gl.expand_dims(b_q_37, 0)
        b_v_110 = b_v_109.broadcast_to([32, 128])
        b_v_112 = b_v_109 >= 0
        b_v_113 = b_v_109 < 128
        b_v_114 = b_v_112 & b_v_113
        b_v_115 = b_v_114.broadcast_to([32, 128])
        twill_base += (p_q_21 - 0 + 32 - 1) // 32
        p_q_128 = p_q_24
        for o_k_127 in range(p_q_21, v4, 32):
            twill_k = twill_base + (o_k_127 - p_q_21) // 32
            b_k_133_l1 = p_q_128 + b_k_101
            b_k_134_l1 = gl.expand_dims(b_k_133_l1, 0)
            b_k_135_l1 = b_k_134_l1 * 16
            b_k_136_l1 = b_k_135_l1.broadcast_to([16, 32])
            b_k_137_l1 = b_k_100 + b_k_136_l1
            b_k_138_l1 = p_k + b_k_137_l1
            b_k_139_l1 = b_k_134_l1 >= 0
            b_k_140_l1 = b_k_134_l1 < p_q_23
            b_k_141_l1 = b_k_139_l1 & b_k_140_l1
            b_k_142_l1 = b_k_141_l1.broadcast_to([16, 32])
            b_k_143 = b_k_106 & b_k_142_l1
            b_v_147_l1 = p_q_128 + b_k_102
            b_v_148_l1 = gl.expand_dims(b_v_147_l1, 1)
            b_v_149_l1 = b_v_148_l1 * 128
            b_v_150_l1 = b_v_149_l1.broadcast_to([32, 128])
            b_v_151_l1 = b_v_150_l1 + b_v_110
            b_v_152_l1 = p_v_26 + b_v_151_l1
            b_v_153_l1 = b_v_148_l1 >= 0
            b_v_154_l1 = b_v_148_l1 < p_q_23
            b_v_155_l1 = b_v_153_l1 & b_v_154_l1
            b_v_156_l1 = b_v_155_l1.broadcast_to([32, 128])
            b_v_157 = b_v_156_l1 & b_v_115
            p_k_172 = p_q_128 + 32
            mbarrier.wait(b_k_141_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_k_141_buf.index(twill_k % 2), b_k_138_l1, mask=b_k_143)  # load0_b_k: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_k_141_ready.index(twill_k % 2), increment_count=False)
            else:
                b_k_141_buf.index(twill_k % 2).store(gl.load(b_k_138_l1, mask=b_k_143, other=0.0))  # load0_b_k: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_k_141_ready.index(twill_k % 2), count=128)
            mbarrier.wait(b_v_155_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_v_155_buf.index(twill_k % 2), b_v_152_l1, mask=b_v_157)  # load1_b_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_v_155_ready.index(twill_k % 2), increment_count=False)
            else:
                b_v_155_buf.index(twill_k % 2).store(gl.load(b_v_152_l1, mask=b_v_157, other=0.0))  # load1_b_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_v_155_ready.index(twill_k % 2), count=128)
            p_q_128 = p_k_172
        twill_base += gl.maximum((v4 - p_q_21 + 32 - 1) // 32, 0)

@gluon.jit
def twill_kernel(q, k, v, o, z, scale, T, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    b_k_141_buf = gl.allocate_shared_memory(gl.float16, [2, 16, 32], gl.NVMMASharedLayout(swizzle_byte_width=32, element_bitwidth=16, rank=2, transposed=True))
    b_v_155_buf = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_k_141_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_k_141_ready.index(i), count=128)
    b_k_141_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_k_141_empty.index(i), count=1)
    b_v_155_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_v_155_ready.index(i), count=128)
    b_v_155_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_v_155_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (q, k, v, o, z, scale, T, twill_g0, twill_g1, twill_g2, b_k_141_buf, b_v_155_buf, b_k_141_ready, b_k_141_empty, b_v_155_ready, b_v_155_empty, TWILL_COPY)),
        (producer_1, (q, k, v, o, z, scale, T, twill_g0, twill_g1, twill_g2, b_k_141_buf, b_v_155_buf, b_k_141_ready, b_k_141_empty, b_v_155_ready, b_v_155_empty, TWILL_COPY)),
    ], [4], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0])))
L6_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L7_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L8_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L9_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16]), k_width=2))
L10_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L11_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16])))
L12_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16]))
L13_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L14_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16])))
L15_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(q, k, v, o, z, scale, T, TWILL_COPY: gl.constexpr):
    twill_base = 0
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    p_q = v2 * T
    p_q_19 = p_q * 16
    p_q_20 = q + p_q_19
    p_q_21 = v1 * 128
    p_q_22 = v0 * 16
    p_q_23 = gl.cast(T, gl.int64)
    p_q_24 = gl.cast(p_q_21, gl.int64)
    p_q_25 = gl.cast(p_q_22, gl.int64)
    p_k = k + p_q_19
    p_v = p_q * 128
    p_v_26 = v + p_v
    b_q_30 = gl.arange(0, 128, layout=L0_short)
    b_q_31 = gl.arange(0, 128, layout=L1_short)
    b_q_32 = gl.arange(0, 128, layout=L2_short)
    b_q_33 = gl.arange(0, 128, layout=L3_short)
    b_q_34 = gl.arange(0, 128, layout=L4_short)
    b_q_35 = b_q_30.to(gl.int64)
    b_q_36 = b_q_31.to(gl.int64)
    b_q_37 = b_q_32.to(gl.int64)
    b_q_38 = b_q_33.to(gl.int64)
    b_q_39 = p_q_24 + b_q_35
    b_q_40 = p_q_24 + b_q_36
    b_q_41 = gl.expand_dims(b_q_39, 1)
    b_q_42 = gl.expand_dims(b_q_40, 1)
    b_q_43 = b_q_41 * 16
    b_q_44 = b_q_43.broadcast_to([128, 16])
    b_q_47 = gl.arange(0, 16, layout=L5_short)
    b_q_48 = gl.arange(0, 16, layout=L6_short)
    b_q_49 = b_q_47.to(gl.int64)
    b_q_50 = b_q_48.to(gl.int64)
    b_q_51 = p_q_25 + b_q_49
    b_q_52 = p_q_25 + b_q_50
    b_q_53 = gl.expand_dims(b_q_51, 0)
    b_q_54 = b_q_53.broadcast_to([128, 16])
    b_q_55 = b_q_44 + b_q_54
    b_q_56 = p_q_20 + b_q_55
    b_q_57 = b_q_41 >= 0
    b_q_58 = b_q_42 >= 0
    b_q_61 = b_q_41 < p_q_23
    b_q_62 = b_q_42 < p_q_23
    b_q_63 = b_q_57 & b_q_61
    b_q_64 = b_q_58 & b_q_62
    b_q_65 = b_q_63.broadcast_to([128, 16])
    b_q_66 = b_q_53 >= 0
    b_q_67 = b_q_53 < 16
    b_q_68 = b_q_66 & b_q_67
    b_q_69 = b_q_68.broadcast_to([128, 16])
    b_q_70 = b_q_65 & b_q_69
    b_q_71 = gl.load(b_q_56, mask=b_q_70)
    b_q_72 = b_q_71.to(gl.float32)
    b_q_74 = b_q_72 * scale
    b_q_75 = b_q_74.to(gl.float16)
    b_k_76 = gl.expand_dims(b_q_52, 1)
    b_k_77 = b_k_76.broadcast_to([16, 32])
    b_k_78 = gl.arange(0, 32, layout=L7_short)
    b_k_79 = gl.arange(0, 32, layout=L8_short)
    b_k_80 = b_k_78.to(gl.int64)
    b_k_81 = b_k_79.to(gl.int64)
    b_k_82 = b_k_76 >= 0
    b_k_83 = b_k_76 < 16
    b_k_84 = b_k_82 & b_k_83
    b_k_85 = b_k_84.broadcast_to([16, 32])
    b_v_87 = gl.expand_dims(b_q_37, 0)
    b_v_88 = b_v_87.broadcast_to([32, 128])
    b_v_90 = b_v_87 >= 0
    b_v_91 = b_v_87 < 128
    b_v_92 = b_v_90 & b_v_91
    b_v_93 = b_v_92.broadcast_to([32, 128])
    b_q_94 = gl.convert_layout(b_q_75, L9_short)
    twill_n = (p_q_21 - 0 + 32 - 1) // 32
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_v_156_ring = gl.allocate_shared_memory(gl.float16, [3, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        b_k_142_st = gl.allocate_shared_memory(gl.float16, [2, 16, 32], gl.NVMMASharedLayout(swizzle_byte_width=32, element_bitwidth=16, rank=2, transposed=True))
        p_k_165 = gl.to_tensor(0).to(gl.int64)
        p_k_165_p1 = p_k_165
        b_o_164 = gl.full([128, 128], 0.0, gl.float32, layout=L10_short)
        b_z_162 = gl.full([128], 0.0, gl.float32, layout=L11_short)
        b_v_143 = p_k_165_p1  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_144 = b_v_143 + b_k_81  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_145 = gl.expand_dims(b_v_144, 1)  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_150 = b_v_145 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_151 = b_v_145 < p_q_23  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_152 = b_v_150 & b_v_151  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_153 = b_v_152.broadcast_to([32, 128])  # elementwise3_b_v: stage 0, partition 0 (group 0)
        b_v_154 = b_v_153 & b_v_93  # elementwise3_b_v: stage 0, partition 0 (group 0)
        p_k_165 = p_k_165_p1 + 32  # load0_b_k: stage 0, partition 0 (group 0)
        b_v_146 = b_v_145 * 128  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_147 = b_v_146.broadcast_to([32, 128])  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_148 = b_v_147 + b_v_88  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_149 = p_v_26 + b_v_148  # load1_b_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_v_156_ring.index((twill_base + 0 - 0) % 3), b_v_149, mask=b_v_154)  # load1_b_v: stage 0, partition 0 (group 0)
        else:  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_156_ring.index((twill_base + 0 - 0) % 3).store(gl.load(b_v_149, mask=b_v_154))  # load1_b_v: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b_v: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        b_o_164_p1 = b_o_164
        b_z_162_p1 = b_z_162
        p_k_165_p2 = p_k_165_p1
        p_k_165_p1 = p_k_165
        for twill_b in range(1, twill_n):
            b_k_129 = p_k_165_p2  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_130 = b_k_129 + b_k_80  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_131 = gl.expand_dims(b_k_130, 0)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_136 = b_k_131 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_137 = b_k_131 < p_q_23  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_138 = b_k_136 & b_k_137  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_139 = b_k_138.broadcast_to([16, 32])  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_k_140 = b_k_85 & b_k_139  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_v_143 = p_k_165_p1  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_144 = b_v_143 + b_k_81  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_145 = gl.expand_dims(b_v_144, 1)  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_150 = b_v_145 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_151 = b_v_145 < p_q_23  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_152 = b_v_150 & b_v_151  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_153 = b_v_152.broadcast_to([32, 128])  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_v_154 = b_v_153 & b_v_93  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_k_132 = b_k_131 * 16  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_133 = b_k_132.broadcast_to([16, 32])  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_134 = b_k_77 + b_k_133  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_135 = p_k + b_k_134  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_141 = gl.load(b_k_135, mask=b_k_140)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_142 = b_k_142_st.index((twill_b - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_142.store(b_k_141)  # load0_b_k: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
            tok_b_s = warpgroup_mma(b_q_94, b_k_142, gl.full([128, 32], 0.0, gl.float32, layout=L12_short), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
            b_o_164_p1, b_s = warpgroup_mma_wait(0, deps=(b_o_164_p1, tok_b_s,))
            b_s_157 = b_s + 1.0  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_158 = b_s * 0.5  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_159 = b_s_158 * b_s  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_160 = b_s_157 + b_s_159  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_o = b_s_160.to(gl.float16)  # convert0_b_o: stage 1, partition 0 (group 0)
            b_o_163 = gl.convert_layout(b_o, L13_short)  # convert0_b_o: stage 1, partition 0 (group 0)
            b_z_161 = gl.sum(b_s_160, axis=1)  # reduce0_b_z: stage 1, partition 0 (group 0)
            b_z_162 = b_z_162_p1 + b_z_161  # elementwise5_b_z: stage 1, partition 0 (group 0)
            p_k_165 = p_k_165_p1 + 32  # load0_b_k: stage 0, partition 0 (group 0)
            b_v_146 = b_v_145 * 128  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_147 = b_v_146.broadcast_to([32, 128])  # load1_b_v: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_v_156 = b_v_156_ring.index((twill_base + twill_b - 1) % 3)  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_148 = b_v_147 + b_v_88  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_149 = p_v_26 + b_v_148  # load1_b_v: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b_v: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_v_156_ring.index((twill_base + twill_b - 0) % 3), b_v_149, mask=b_v_154)  # load1_b_v: stage 0, partition 0 (group 0)
            else:  # load1_b_v: stage 0, partition 0 (group 0)
                b_v_156_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(b_v_149, mask=b_v_154))  # load1_b_v: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b_v: stage 0, partition 0 (group 0)
            tok_b_o_164 = warpgroup_mma(b_o_163, b_v_156, b_o_164_p1, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            b_o_164 = warpgroup_mma_wait(1, deps=(tok_b_o_164,))
            b_o_164_p1 = b_o_164
            b_z_162_p1 = b_z_162
            p_k_165_p2 = p_k_165_p1
            p_k_165_p1 = p_k_165
        b_k_129 = p_k_165_p2  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_130 = b_k_129 + b_k_80  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_131 = gl.expand_dims(b_k_130, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_136 = b_k_131 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_137 = b_k_131 < p_q_23  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_138 = b_k_136 & b_k_137  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_139 = b_k_138.broadcast_to([16, 32])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_140 = b_k_85 & b_k_139  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_132 = b_k_131 * 16  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_133 = b_k_132.broadcast_to([16, 32])  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_134 = b_k_77 + b_k_133  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_135 = p_k + b_k_134  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_141 = gl.load(b_k_135, mask=b_k_140)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_142 = b_k_142_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_142.store(b_k_141)  # load0_b_k: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
        tok_b_s = warpgroup_mma(b_q_94, b_k_142, gl.full([128, 32], 0.0, gl.float32, layout=L12_short), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
        b_o_164_p1, b_s = warpgroup_mma_wait(0, deps=(b_o_164_p1, tok_b_s,))
        b_s_157 = b_s + 1.0  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_158 = b_s * 0.5  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_159 = b_s_158 * b_s  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_160 = b_s_157 + b_s_159  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_o = b_s_160.to(gl.float16)  # convert0_b_o: stage 1, partition 0 (group 0)
        b_o_163 = gl.convert_layout(b_o, L13_short)  # convert0_b_o: stage 1, partition 0 (group 0)
        b_z_161 = gl.sum(b_s_160, axis=1)  # reduce0_b_z: stage 1, partition 0 (group 0)
        b_z_162 = b_z_162_p1 + b_z_161  # elementwise5_b_z: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_v_156 = b_v_156_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load1_b_v: stage 1, partition 0 (group 0)
        tok_b_o_164 = warpgroup_mma(b_o_163, b_v_156, b_o_164_p1, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_o_164 = warpgroup_mma_wait(1, deps=(tok_b_o_164,))
        b_o_164_p1 = b_o_164
        b_z_162_p1 = b_z_162
        p_k_165_p2 = p_k_165_p1
        p_k_165_p1 = p_k_165
        b_o_164_p1 = warpgroup_mma_wait(0, deps=(b_o_164_p1,))
        b_k_142_st._keep_alive()
        b_v_156_ring._keep_alive()
    else:
        p_k_165_p2 = gl.to_tensor(0).to(gl.int64)
        b_o_164_p1 = gl.full([128, 128], 0.0, gl.float32, layout=L10_short)
        b_z_162_p1 = gl.full([128], 0.0, gl.float32, layout=L11_short)
    twill_base += twill_n
    gl.thread_barrier()
    o_k = gl.arange(0, 32, layout=L7_short)
    o_k_96 = gl.arange(0, 32, layout=L14_short)
    o_k_97 = gl.arange(0, 32, layout=L8_short)
    v3 = v1 + 1
    v4 = v3 * 128
    b_k_99 = gl.expand_dims(b_q_52, 1)
    b_k_100 = b_k_99.broadcast_to([16, 32])
    b_k_101 = o_k.to(gl.int64)
    b_k_102 = o_k_97.to(gl.int64)
    b_k_103 = b_k_99 >= 0
    b_k_104 = b_k_99 < 16
    b_k_105 = b_k_103 & b_k_104
    b_k_106 = b_k_105.broadcast_to([16, 32])
    b_v_109 = gl.expand_dims(b_q_37, 0)
    b_v_110 = b_v_109.broadcast_to([32, 128])
    b_v_112 = b_v_109 >= 0
    b_v_113 = b_v_109 < 128
    b_v_114 = b_v_112 & b_v_113
    b_v_115 = b_v_114.broadcast_to([32, 128])
    m_s = gl.arange(0, 128, layout=L11_short)
    m_s_116 = gl.expand_dims(m_s, 1)
    m_s_117 = m_s_116.broadcast_to([128, 32])
    b_q_118 = gl.convert_layout(b_q_75, L9_short)
    twill_n = gl.maximum((v4 - p_q_21 + 32 - 1) // 32, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_v_159_ring = gl.allocate_shared_memory(gl.float16, [3, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        b_k_145_st = gl.allocate_shared_memory(gl.float16, [2, 16, 32], gl.NVMMASharedLayout(swizzle_byte_width=32, element_bitwidth=16, rank=2, transposed=True))
        p_k_172 = p_q_24
        p_k_172_p1 = p_k_172
        b_o_171 = b_o_164_p1
        b_z_169 = b_z_162_p1
        o_k_173 = o_k_96
        b_v_146_l1 = p_k_172_p1  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_147_l1 = b_v_146_l1 + b_k_102  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_148_l1 = gl.expand_dims(b_v_147_l1, 1)  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_153_l1 = b_v_148_l1 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_154_l1 = b_v_148_l1 < p_q_23  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_155_l1 = b_v_153_l1 & b_v_154_l1  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_156_l1 = b_v_155_l1.broadcast_to([32, 128])  # elementwise3_b_v: stage 0, partition 0 (group 0)
        b_v_157 = b_v_156_l1 & b_v_115  # elementwise3_b_v: stage 0, partition 0 (group 0)
        p_k_172 = p_k_172_p1 + 32  # load0_b_k: stage 0, partition 0 (group 0)
        b_v_149_l1 = b_v_148_l1 * 128  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_150_l1 = b_v_149_l1.broadcast_to([32, 128])  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_151_l1 = b_v_150_l1 + b_v_110  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_152_l1 = p_v_26 + b_v_151_l1  # load1_b_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_v_159_ring.index((twill_base + 0 - 0) % 3), b_v_152_l1, mask=b_v_157)  # load1_b_v: stage 0, partition 0 (group 0)
        else:  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_159_ring.index((twill_base + 0 - 0) % 3).store(gl.load(b_v_152_l1, mask=b_v_157))  # load1_b_v: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b_v: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        b_o_171_p1 = b_o_171
        b_z_169_p1 = b_z_169
        o_k_173_p1 = o_k_173
        p_k_172_p2 = p_k_172_p1
        p_k_172_p1 = p_k_172
        for twill_b in range(1, twill_n):
            b_k_132_l1 = p_k_172_p2  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_133_l1 = b_k_132_l1 + b_k_101  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_134_l1 = gl.expand_dims(b_k_133_l1, 0)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_139_l1 = b_k_134_l1 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_140_l1 = b_k_134_l1 < p_q_23  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_141_l1 = b_k_139_l1 & b_k_140_l1  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_142_l1 = b_k_141_l1.broadcast_to([16, 32])  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_k_143 = b_k_106 & b_k_142_l1  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_v_146_l1 = p_k_172_p1  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_147_l1 = b_v_146_l1 + b_k_102  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_148_l1 = gl.expand_dims(b_v_147_l1, 1)  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_153_l1 = b_v_148_l1 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_154_l1 = b_v_148_l1 < p_q_23  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_155_l1 = b_v_153_l1 & b_v_154_l1  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_156_l1 = b_v_155_l1.broadcast_to([32, 128])  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_v_157 = b_v_156_l1 & b_v_115  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_k_135_l1 = b_k_134_l1 * 16  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_136_l1 = b_k_135_l1.broadcast_to([16, 32])  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_137_l1 = b_k_100 + b_k_136_l1  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_138_l1 = p_k + b_k_137_l1  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_144 = gl.load(b_k_138_l1, mask=b_k_143)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_145 = b_k_145_st.index((twill_b - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_145.store(b_k_144)  # load0_b_k: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
            tok_b_s_l1 = warpgroup_mma(b_q_118, b_k_145, gl.full([128, 32], 0.0, gl.float32, layout=L12_short), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
            m_s_160 = gl.expand_dims(o_k_173_p1, 0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
            m_s_161 = m_s_160.broadcast_to([128, 32])  # elementwise4_b_s: stage 1, partition 0 (group 0)
            m_s_162 = m_s_117 >= m_s_161  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_o_171_p1, b_s_l1 = warpgroup_mma_wait(0, deps=(b_o_171_p1, tok_b_s_l1,))
            b_s_163 = b_s_l1 + 1.0  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_164 = b_s_l1 * 0.5  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_165 = b_s_164 * b_s_l1  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_166 = b_s_163 + b_s_165  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_167 = gl.where(m_s_162, b_s_166, 0.0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
            o_k_173 = o_k_173_p1 + 32  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_o_l1 = b_s_167.to(gl.float16)  # convert0_b_o: stage 1, partition 0 (group 0)
            b_o_170 = gl.convert_layout(b_o_l1, L13_short)  # convert0_b_o: stage 1, partition 0 (group 0)
            b_z_168_l1 = gl.sum(b_s_167, axis=1)  # reduce0_b_z: stage 1, partition 0 (group 0)
            b_z_169 = b_z_169_p1 + b_z_168_l1  # elementwise5_b_z: stage 1, partition 0 (group 0)
            p_k_172 = p_k_172_p1 + 32  # load0_b_k: stage 0, partition 0 (group 0)
            b_v_149_l1 = b_v_148_l1 * 128  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_150_l1 = b_v_149_l1.broadcast_to([32, 128])  # load1_b_v: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_v_159 = b_v_159_ring.index((twill_base + twill_b - 1) % 3)  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_151_l1 = b_v_150_l1 + b_v_110  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_152_l1 = p_v_26 + b_v_151_l1  # load1_b_v: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b_v: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_v_159_ring.index((twill_base + twill_b - 0) % 3), b_v_152_l1, mask=b_v_157)  # load1_b_v: stage 0, partition 0 (group 0)
            else:  # load1_b_v: stage 0, partition 0 (group 0)
                b_v_159_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(b_v_152_l1, mask=b_v_157))  # load1_b_v: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b_v: stage 0, partition 0 (group 0)
            tok_b_o_171 = warpgroup_mma(b_o_170, b_v_159, b_o_171_p1, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            b_o_171 = warpgroup_mma_wait(1, deps=(tok_b_o_171,))
            b_o_171_p1 = b_o_171
            b_z_169_p1 = b_z_169
            o_k_173_p1 = o_k_173
            p_k_172_p2 = p_k_172_p1
            p_k_172_p1 = p_k_172
        b_k_132_l1 = p_k_172_p2  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_133_l1 = b_k_132_l1 + b_k_101  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_134_l1 = gl.expand_dims(b_k_133_l1, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_139_l1 = b_k_134_l1 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_140_l1 = b_k_134_l1 < p_q_23  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_141_l1 = b_k_139_l1 & b_k_140_l1  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_142_l1 = b_k_141_l1.broadcast_to([16, 32])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_143 = b_k_106 & b_k_142_l1  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_135_l1 = b_k_134_l1 * 16  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_136_l1 = b_k_135_l1.broadcast_to([16, 32])  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_137_l1 = b_k_100 + b_k_136_l1  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_138_l1 = p_k + b_k_137_l1  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_144 = gl.load(b_k_138_l1, mask=b_k_143)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_145 = b_k_145_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_145.store(b_k_144)  # load0_b_k: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
        tok_b_s_l1 = warpgroup_mma(b_q_118, b_k_145, gl.full([128, 32], 0.0, gl.float32, layout=L12_short), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
        m_s_160 = gl.expand_dims(o_k_173_p1, 0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
        m_s_161 = m_s_160.broadcast_to([128, 32])  # elementwise4_b_s: stage 1, partition 0 (group 0)
        m_s_162 = m_s_117 >= m_s_161  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_o_171_p1, b_s_l1 = warpgroup_mma_wait(0, deps=(b_o_171_p1, tok_b_s_l1,))
        b_s_163 = b_s_l1 + 1.0  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_164 = b_s_l1 * 0.5  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_165 = b_s_164 * b_s_l1  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_166 = b_s_163 + b_s_165  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_167 = gl.where(m_s_162, b_s_166, 0.0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
        o_k_173 = o_k_173_p1 + 32  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_o_l1 = b_s_167.to(gl.float16)  # convert0_b_o: stage 1, partition 0 (group 0)
        b_o_170 = gl.convert_layout(b_o_l1, L13_short)  # convert0_b_o: stage 1, partition 0 (group 0)
        b_z_168_l1 = gl.sum(b_s_167, axis=1)  # reduce0_b_z: stage 1, partition 0 (group 0)
        b_z_169 = b_z_169_p1 + b_z_168_l1  # elementwise5_b_z: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_v_159 = b_v_159_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load1_b_v: stage 1, partition 0 (group 0)
        tok_b_o_171 = warpgroup_mma(b_o_170, b_v_159, b_o_171_p1, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_o_171 = warpgroup_mma_wait(1, deps=(tok_b_o_171,))
        b_o_171_p1 = b_o_171
        b_z_169_p1 = b_z_169
        o_k_173_p1 = o_k_173
        p_k_172_p2 = p_k_172_p1
        p_k_172_p1 = p_k_172
        b_o_171_p1 = warpgroup_mma_wait(0, deps=(b_o_171_p1,))
        b_k_145_st._keep_alive()
        b_v_159_ring._keep_alive()
    else:
        p_k_172_p2 = p_q_24
        b_o_171_p1 = b_o_164_p1
        b_z_169_p1 = b_z_162_p1
        o_k_173_p1 = o_k_96
    p_o = v0 * 128
    p_o_120 = v2 + p_o
    p_o_121 = p_o_120 * T
    p_o_122 = p_o_121 * 128
    p_o_123 = o + p_o_122
    p_z = z + p_o_121
    p_z_124 = p_z + p_q_21
    p_z_126 = p_z_124 + b_q_34
    v6 = b_q_42 * 128
    v7 = v6.broadcast_to([128, 128])
    v8 = gl.expand_dims(b_q_38, 0)
    v9 = v8.broadcast_to([128, 128])
    v10 = v7 + v9
    v11 = p_o_123 + v10
    v12 = b_q_64.broadcast_to([128, 128])
    v13 = v8 >= 0
    v14 = v8 < 128
    v15 = v13 & v14
    v16 = v15.broadcast_to([128, 128])
    v17 = v12 & v16
    v18 = gl.convert_layout(b_o_171_p1, L15_short)
    gl.store(v11, v18, mask=v17)
    v20 = p_q_21 + b_q_34
    v22 = v20 < T
    v23 = gl.convert_layout(b_z_169_p1, L4_short)
    gl.store(p_z_126, v23, mask=v22)

@gluon.jit
def twill_kernel_short(q, k, v, o, z, scale, T, TWILL_COPY: gl.constexpr):
    consumer_0_short(q, k, v, o, z, scale, T, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'o', 'z', 'scale', 'T', 'B', 'H', 'K', 'V', 'BTL', 'BTS', 'BK', 'BV']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'o', 'z', 'scale', 'T', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'o', 'z', 'scale', 'T', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'B': 8, 'H': 16, 'K': 16, 'V': 128, 'BTL': 128, 'BTS': 32, 'BK': 16, 'BV': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['k', 'v']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED)}
    return [tuple(flags[f] for f in FLAGS), shapes, None]


def launch_long(grid, *args, **kwargs):
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

# -- the one-partition kernel for short loops (host side) ---------------------------------------------
ARGUMENTS_short = ['q', 'k', 'v', 'o', 'z', 'scale', 'T', 'B', 'H', 'K', 'V', 'BTL', 'BTS', 'BK', 'BV']          # the Triton kernel's parameters, in order
RUNTIME_short = ['q', 'k', 'v', 'o', 'z', 'scale', 'T']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['q', 'k', 'v', 'o', 'z', 'scale', 'T']   # the arguments a launch key reads
CONSTEXPRS_short = {'B': 8, 'H': 16, 'K': 16, 'V': 128, 'BTL': 128, 'BTS': 32, 'BK': 16, 'BV': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['v']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
LAUNCH_OPTIONS_short = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")
FAST_LAUNCH_short = True   # a launch with an earlier one's key calls the kernel compiled for it; False: the JIT each time


_LAYOUTS_short = {}                  # argument -> its layout object, made on first use
_CODE_short = {}                     # expression -> its compiled code
_DESCS_short = {}                    # (argument, address, dtype, shape, strides) -> its descriptor
_KEYED_short = {}                    # launch key -> [flags' values, boxes (None: none), compiled kernel (None: not yet)]
_MODES_short = []                    # Triton's compilation and runtime knobs (instrumentation, debug)
_DEVICE_short = []                   # the active driver's current device, read per launch


def _ev_short(e, bound):
    code = _CODE_short.get(e)
    if code is None:
        code = _CODE_short[e] = compile(e, "launch", "eval")
    return eval(code, {}, bound)


class _Base_short:
    """A descriptor's base as the launch reads it (address, dtype): the descriptor holds no tensor alive."""

    __slots__ = ("ptr", "dtype")

    def __init__(self, t):
        self.ptr, self.dtype = t.data_ptr(), t.dtype

    def data_ptr(self):
        return self.ptr


def _desc_short(name, t, shape, strides, block):
    """The Gluon tensor descriptor of argument ``name`` over ``t`` (kept: at most 256)."""
    key = (name, t.data_ptr(), t.dtype, tuple(shape), tuple(strides))
    d = _DESCS_short.get(key)
    if d is None:
        from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

        layout = _LAYOUTS_short.get(name)
        if layout is None:
            from triton.experimental.gluon import language as gl
            layout = _LAYOUTS_short[name] = eval("gl." + DESCRIPTOR_LAYOUTS_short[name])
        if len(_DESCS_short) >= 256:
            _DESCS_short.clear()
        d = _DESCS_short[key] = TensorDescriptor(_Base_short(t), list(shape), list(strides), list(block), layout)
    return d


def _descriptor_short(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    base = getattr(value, "base", value)
    shape = getattr(value, "shape", base.shape)
    strides = getattr(value, "strides", None) or base.stride()
    return _desc_short(name, base, shape, strides, DESCRIPTOR_BLOCKS_short[name])


def _key_short(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES_short:
        from triton import knobs
        _MODES_short.extend((knobs.compilation, knobs.runtime))
    key = [g, _MODES_short[0].instrumentation_mode, _MODES_short[1].debug, _device_short()]
    for n in KEYED_short:
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


def _device_short():
    if not _DEVICE_short:
        from triton.runtime import driver
        _DEVICE_short.append(driver.active.get_current_device)
    return _DEVICE_short[0]()


def _decide_short(bound):
    """A launch key's decisions: the flags' values, the pointer tiles' boxes (None: none)."""
    shapes = None
    flags = {'TWILL_COPY': all(_aligned_short(bound[n]) for n in COPY_ALIGNED_short)}
    return [tuple(flags[f] for f in FLAGS_short), shapes, None]


def launch_short(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS_short, args))
    if kwargs:
        bound.update({k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS_short})
    for k, v in CONSTEXPRS_short.items():
        if k in bound and bound[k] != v:
            raise ValueError(f"twill: this Gluon kernel was generated for {k}={v!r}, launched with {bound[k]!r}")
    g = grid(dict(bound, **CONSTEXPRS_short)) if callable(grid) else grid
    g = tuple(int(x) for x in g)
    if PERSISTENT_short:
        g = g + (1,) * (3 - len(g))
        bound.update(twill_g0=g[0], twill_g1=g[1], twill_g2=g[2])
        g = (max(1, min(g[0] * g[1] * g[2], _sm_count_short())),)
    key = _key_short(bound, g)
    entry = _KEYED_short.get(key) if key is not None else None
    if entry is None:
        entry = _decide_short(bound)
        if key is not None:
            if len(_KEYED_short) >= 64:
                _KEYED_short.clear()
            _KEYED_short[key] = entry
    missing = [n for n in RUNTIME_short if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor_short(bound[n], n) if n in DESCRIPTOR_BLOCKS_short else bound[n] for n in RUNTIME_short]
    return _run_short(entry, g, runtime)


def _run_short(entry, g, runtime):
    """The kernel compiled for this launch's key where a launch with it ran before, else through the JIT."""
    compiled = entry[2]
    if compiled is not None and FAST_LAUNCH_short:
        compiled[g + (1,) * (3 - len(g))](*runtime, *entry[0])
        return compiled
    compiled = twill_kernel_short[g](*runtime, **dict(zip(FLAGS_short, entry[0])), num_warps=NUM_WARPS_short, maxnreg=MAXNREG_short)
    if hasattr(compiled, "function") and hasattr(compiled, "__getitem__"):
        entry[2] = compiled
    return compiled


def _aligned_short(value):
    """Whether an argument is specialised as 16-divisible (Triton's rule): an integer's value, a tensor's address."""
    if hasattr(value, "data_ptr"):
        return value.data_ptr() % 16 == 0
    return isinstance(value, int) and value % 16 == 0


_SMS_short = []


def _sm_count_short():
    """The multiprocessors of the current device (a persistent kernel launches one program on each)."""
    if not _SMS_short:
        import torch
        _SMS_short.append(torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count)
    return _SMS_short[0]


class _Config_short:
    """``kernel.best_config`` as an autotuner has it after a run (Mamba reads its ``kwargs["BLOCK_SIZE_M"]`` to size
    its grid): the constexprs this kernel was generated for."""

    def __init__(self):
        self.kwargs, self.num_warps, self.num_stages, self.num_ctas = dict(CONSTEXPRS_short), NUM_WARPS_short, None, 1
        self.maxnreg, self.pre_hook = MAXNREG_short, None

    def all_kwargs(self):
        return dict(self.kwargs, num_warps=self.num_warps, num_ctas=self.num_ctas)


class _Kernel_short:
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
            return launch_short(grid, *args, **kwargs)
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
        return _Config_short()


kernel_short = _Kernel_short()


TIMED_ROUNDS = 2      # a launch key's first launch times each kernel in this many rounds, alternating,
TIMED_RUNS = 5        # of this many launches each
_TIMED = {}           # launch key -> the faster of ``launch_long`` and ``launch_short`` there


def launch(grid, *args, **kwargs):
    """Run the faster of the warp-specialized kernel and the one-partition one for this launch's key, timed on the
    key's first launch (the warp-specialized one where no timing can run: no CUDA device, a graph being captured)."""
    key = _timed_key(grid, args, kwargs)
    chosen = _TIMED.get(key) if key is not None else None
    if chosen is None:
        chosen = _timed(grid, args, kwargs)
        if key is not None and chosen is not None:
            if len(_TIMED) >= 64:
                _TIMED.clear()
            _TIMED[key] = chosen
    return (chosen or launch_long)(grid, *args, **kwargs)


def _timed_key(grid, args, kwargs):
    """The grid and every argument's shape, strides, type and alignment, or value (integers): what the two kernels'
    speeds depend on (the constexprs are the module's: none other launches); None where a part cannot be hashed.
    Read in the arguments' order, integers by their type alone: a launch pays it on the host (run 158)."""
    try:
        if callable(grid):
            bound = dict(zip(ARGUMENTS, args), **CONSTEXPRS)
            bound.update(kwargs)
            grid = grid(bound)
        g = tuple(int(x) for x in grid)
    except Exception:                       # noqa: BLE001 - the launch itself says what is wrong with its grid
        return None
    names = sorted(kwargs)
    key = [g, *names]
    for v in (*args, *(kwargs[n] for n in names)):
        t = type(v)
        if t is int or t is bool or v is None:
            key.append(v)
        elif hasattr(v, "data_ptr"):
            key.append((v.shape, v.stride(), v.dtype, v.data_ptr() % 16))
        elif hasattr(getattr(v, "base", None), "data_ptr"):     # a host tensor descriptor
            key.append((tuple(v.shape), tuple(v.strides), v.base.dtype, v.base.data_ptr() % 16))
        else:
            key.append(t.__name__)
    try:
        hash(key := tuple(key))
    except TypeError:
        return None
    return key


def _timed(grid, args, kwargs):
    """The faster launch function at these arguments, each timed with CUDA events after a first launch, behind a
    sleep on the device long enough for the host to queue every timed launch (the events then time the device's
    work, not the launches' host cost: run 157 timed vLLM's MoE so and chose the one partition, 257 TFLOP/s against
    the producer's 386 in graphs, its host path 100 us shorter), every tensor argument (a descriptor's base too)
    copied before and restored after; None where nothing can be timed now (no device, a graph being captured), the
    warp-specialized kernel's launch where the copies do not fit in memory (kept for the key: not tried again)."""
    try:
        import time
        import torch
        if not torch.cuda.is_available() or torch.cuda.is_current_stream_capturing():
            return None
    except Exception:                       # noqa: BLE001 - no device to ask: not timed
        return None
    try:
        values = list(args) + list(kwargs.values())
        tensors = [v if hasattr(v, "data_ptr") else v.base for v in values
                   if hasattr(v, "data_ptr") or hasattr(getattr(v, "base", None), "data_ptr")]
        # an expanded view (a zero stride) is read only: it cannot be copied back into
        tensors = [t for t in tensors if all(st or n <= 1 for st, n in zip(t.stride(), t.shape))]
        saved = [t.clone() for t in tensors]
    except Exception:                       # noqa: BLE001 - no memory for the copies: the warp-specialized kernel
        return launch_long
    try:
        launch_long(grid, *args, **kwargs)  # compiled, and its errors the launch's own
        try:
            launch_short(grid, *args, **kwargs)
        except Exception:                   # noqa: BLE001 - the one partition refuses this launch: the other runs
            return launch_long
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        launch_long(grid, *args, **kwargs)
        launch_short(grid, *args, **kwargs)
        host = time.perf_counter() - t0     # the host's time for one launch of each, compiled
        spent = {launch_long: 0.0, launch_short: 0.0}
        for _ in range(TIMED_ROUNDS):
            for fn in spent:
                _backlog(host * TIMED_RUNS)
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(TIMED_RUNS):
                    fn(grid, *args, **kwargs)
                end.record()
                end.synchronize()
                spent[fn] += start.elapsed_time(end)
        return min(spent, key=spent.get)
    finally:
        for t, s in zip(tensors, saved):
            t.copy_(s)


def _backlog(seconds):
    """Keep the device busy for twice ``seconds`` at up to 2 GHz (capped at 50 ms): the launches queued meanwhile
    start back to back when it ends."""
    import torch
    sleep = getattr(torch.cuda, "_sleep", None)
    if sleep is not None:
        sleep(int(min(2 * seconds, 0.05) * 2e9))
