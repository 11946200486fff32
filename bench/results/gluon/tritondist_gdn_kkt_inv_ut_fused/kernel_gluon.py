"""chunk_kkt_inv_ut_fused_kernel, written by twill from its joint schedule: I=258 L=258 (optimal), 603 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 43).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 44 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at tritondist_gdn_kkt_inv_ut_fused.py:131 (TTGIR line 412) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=258, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at tritondist_gdn_kkt_inv_ut_fused.py:135 (TTGIR line 446) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=258, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at tritondist_gdn_kkt_inv_ut_fused.py:139 (TTGIR line 480) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=258, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L9 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L10 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L11 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L13 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L14 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L15 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]), k_width=0))
L16 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]), k_width=0))
L17 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L18 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L19 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L20 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def twill_add(a, b):
    return a + b

@gluon.jit
def consumer_0(k, v, beta, g, cu_seqlens, chunk_indices, A, g_cumsum, Ai, w, u, T, NT):
    twill_base = 0
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    i_h = v1 % 16
    v2 = v0 * 2
    v3 = chunk_indices + v2
    v4 = gl.load(v3)
    v5 = v3 + 1
    v6 = gl.load(v5)
    v7 = cu_seqlens + v4
    v8 = gl.load(v7)
    v9 = v7 + 1
    v10 = gl.load(v9)
    T_36 = v10 - v8
    p_ginp = v8 * 16
    p_ginp_37 = g + p_ginp
    p_ginp_38 = p_ginp_37 + i_h
    p_ginp_39 = v6 * 64
    p_ginp_40 = gl.cast(T_36, gl.int64)
    p_ginp_41 = gl.cast(p_ginp_39, gl.int64)
    p_gout = g_cumsum + p_ginp
    p_gout_42 = p_gout + i_h
    b_s_48 = gl.arange(0, 64, layout=L0)
    b_s_49 = gl.arange(0, 64, layout=L1)
    b_s_50 = gl.arange(0, 64, layout=L2)
    b_s_51 = gl.arange(0, 64, layout=L3)
    b_s_52 = gl.arange(0, 64, layout=L4)
    b_s_53 = gl.arange(0, 64, layout=L5)
    b_s_54 = gl.arange(0, 64, layout=L6)
    b_s_55 = gl.arange(0, 64, layout=L7)
    b_s_56 = b_s_48.to(gl.int64)
    b_s_57 = b_s_49.to(gl.int64)
    b_s_58 = b_s_50.to(gl.int64)
    b_s_59 = b_s_51.to(gl.int64)
    b_s_60 = b_s_53.to(gl.int64)
    b_s_61 = b_s_54.to(gl.int64)
    b_s_62 = b_s_55.to(gl.int64)
    b_s_63 = p_ginp_41 + b_s_56
    b_s_64 = p_ginp_41 + b_s_57
    b_s_65 = p_ginp_41 + b_s_58
    b_s_66 = p_ginp_41 + b_s_59
    b_s_67 = p_ginp_41 + b_s_62
    b_s_68 = b_s_64 * 16
    b_s_69 = b_s_63 * 16
    b_s_70 = b_s_67 * 16
    b_s_71 = p_ginp_38 + b_s_70
    b_s_72 = b_s_64 >= 0
    b_s_73 = b_s_63 >= 0
    b_s_74 = b_s_67 >= 0
    b_s_78 = b_s_64 < p_ginp_40
    b_s_79 = b_s_63 < p_ginp_40
    b_s_80 = b_s_67 < p_ginp_40
    b_s_81 = b_s_72 & b_s_78
    b_s_82 = b_s_73 & b_s_79
    b_s_83 = b_s_74 & b_s_80
    b_s_84 = gl.load(b_s_71, mask=b_s_83)
    b_g = gl.associative_scan(b_s_84, 0, twill_add)
    v12 = p_gout_42 + b_s_70
    gl.store(v12, b_g, mask=b_s_83)
    o_t_86 = p_ginp_39 + b_s_49
    o_t_87 = p_ginp_39 + b_s_52
    m_t_89 = o_t_86 < T_36
    m_t_90 = o_t_87 < T_36
    p_beta = beta + p_ginp
    p_beta_91 = p_beta + i_h
    b_beta_93 = p_beta_91 + b_s_68
    b_beta_94 = p_beta_91 + b_s_69
    b_beta_95 = gl.load(b_beta_93, mask=b_s_81)
    b_beta_96 = gl.load(b_beta_94, mask=b_s_82)
    p_k = p_ginp + i_h
    p_k_97 = p_k * 128
    p_k_98 = k + p_k_97
    b_k_99 = gl.expand_dims(b_s_63, 1)
    b_k_100 = gl.expand_dims(b_s_65, 1)
    b_k_101 = gl.expand_dims(b_s_66, 1)
    b_k_102 = b_k_99 * 2048
    b_k_103 = b_k_102.broadcast_to([64, 128])
    b_k_104 = gl.arange(0, 128, layout=L8)
    b_k_105 = b_k_104.to(gl.int64)
    b_k_106 = gl.expand_dims(b_k_105, 0)
    b_k_107 = b_k_106.broadcast_to([64, 128])
    b_k_108 = b_k_103 + b_k_107
    b_k_109 = p_k_98 + b_k_108
    b_k_110 = b_k_99 >= 0
    b_k_111 = b_k_100 >= 0
    b_k_112 = b_k_101 >= 0
    b_k_116 = b_k_99 < p_ginp_40
    b_k_117 = b_k_100 < p_ginp_40
    b_k_118 = b_k_101 < p_ginp_40
    b_k_119 = b_k_110 & b_k_116
    b_k_120 = b_k_111 & b_k_117
    b_k_121 = b_k_112 & b_k_118
    b_k_122 = b_k_119.broadcast_to([64, 128])
    b_k_123 = b_k_106 >= 0
    b_k_124 = b_k_106 < 128
    b_k_125 = b_k_123 & b_k_124
    b_k_126 = b_k_125.broadcast_to([64, 128])
    b_k_127 = b_k_122 & b_k_126
    b_k_128 = gl.load(b_k_109, mask=b_k_127)
    b_k_129 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_k_128)
    fence_async_shared()
    b_A_130 = warpgroup_mma(b_k_129, b_k_129.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L9))
    b_A_131 = gl.expand_dims(b_beta_95, 1)
    b_A_132 = gl.expand_dims(b_beta_96, 1)
    b_A_133 = b_A_131.to(gl.float32)
    b_A_134 = b_A_133.broadcast_to([64, 64])
    b_A_135 = b_A_130 * b_A_134
    b_g_diff = gl.convert_layout(b_g, L10)
    b_g_diff_136 = gl.expand_dims(b_g_diff, 1)
    b_A_137 = gl.convert_layout(b_g, L11)
    b_g_diff_138 = gl.expand_dims(b_A_137, 0)
    b_g_diff_139 = b_g_diff_136.broadcast_to([64, 64])
    b_g_diff_140 = b_g_diff_138.broadcast_to([64, 64])
    b_g_diff_141 = b_g_diff_139 - b_g_diff_140
    b_A_142 = gl.exp(b_g_diff_141)
    b_A_143 = gl.convert_layout(b_A_142, L9)
    b_A_144 = b_A_135 * b_A_143
    m_A = gl.expand_dims(o_t_86, 1)
    m_A_145 = gl.expand_dims(o_t_87, 0)
    m_A_146 = m_A.broadcast_to([64, 64])
    m_A_147 = m_A_145.broadcast_to([64, 64])
    m_A_148 = m_A_146 > m_A_147
    m_A_149 = gl.expand_dims(m_t_89, 1)
    m_A_150 = gl.expand_dims(m_t_90, 0)
    m_A_151 = m_A_149.broadcast_to([64, 64])
    m_A_152 = m_A_150.broadcast_to([64, 64])
    m_A_153 = m_A_151 & m_A_152
    m_A_154 = m_A_148 & m_A_153
    b_A_155 = gl.where(m_A_154, b_A_144, 0.0)
    p_A = p_k * 64
    p_A_156 = A + p_A
    v14 = b_k_100 * 1024
    v15 = b_k_101 * 1024
    v16 = v14.broadcast_to([64, 64])
    v17 = v15.broadcast_to([64, 64])
    v18 = gl.expand_dims(b_s_60, 0)
    v19 = gl.expand_dims(b_s_61, 0)
    v20 = v18.broadcast_to([64, 64])
    v21 = v19.broadcast_to([64, 64])
    v22 = v16 + v20
    v23 = v17 + v21
    v24 = p_A_156 + v22
    v25 = b_k_120.broadcast_to([64, 64])
    v26 = b_k_121.broadcast_to([64, 64])
    v27 = v18 >= 0
    v28 = v19 >= 0
    v29 = v18 < 64
    v30 = v19 < 64
    v31 = v27 & v29
    v32 = v28 & v30
    v33 = v31.broadcast_to([64, 64])
    v34 = v32.broadcast_to([64, 64])
    v35 = v25 & v33
    v36 = v26 & v34
    v37 = gl.convert_layout(b_A_155, L12)
    gl.store(v24, v37, mask=v35)
    o_i = gl.arange(0, 16, layout=L13)
    o_i_157 = gl.arange(0, 16, layout=L14)
    m_A_158 = gl.expand_dims(o_i, 1)
    m_A_159 = gl.expand_dims(o_i_157, 0)
    m_A_160 = m_A_158.broadcast_to([16, 16])
    m_A_161 = m_A_159.broadcast_to([16, 16])
    m_A_162 = m_A_160 > m_A_161
    m_I = m_A_160 == m_A_161
    cur_Ai = Ai + p_A
    p_A_22 = p_ginp_39 + 16
    p_A_22_163 = gl.cast(p_A_22, gl.int64)
    p_A_33 = p_ginp_39 + 32
    p_A_33_164 = gl.cast(p_A_33, gl.int64)
    p_A_44 = p_ginp_39 + 48
    p_A_44_165 = gl.cast(p_A_44, gl.int64)
    b_Ai_11_167 = o_i.to(gl.int64)
    b_Ai_11_168 = o_i_157.to(gl.int64)
    b_Ai_11_169 = p_ginp_41 + b_Ai_11_167
    b_Ai_11_170 = gl.expand_dims(b_Ai_11_169, 1)
    b_Ai_11_171 = b_Ai_11_170 * 1024
    b_Ai_11_172 = b_Ai_11_171.broadcast_to([16, 16])
    b_Ai_11_173 = gl.expand_dims(b_Ai_11_168, 0)
    b_Ai_11_174 = b_Ai_11_173.broadcast_to([16, 16])
    b_Ai_11_175 = b_Ai_11_172 + b_Ai_11_174
    b_Ai_11_176 = p_A_156 + b_Ai_11_175
    b_Ai_11_177 = b_Ai_11_170 >= 0
    b_Ai_11_179 = b_Ai_11_170 < p_ginp_40
    b_Ai_11_180 = b_Ai_11_177 & b_Ai_11_179
    b_Ai_11_181 = b_Ai_11_180.broadcast_to([16, 16])
    b_Ai_11_182 = b_Ai_11_173 >= 0
    b_Ai_11_183 = b_Ai_11_173 < 64
    b_Ai_11_184 = b_Ai_11_182 & b_Ai_11_183
    b_Ai_11_185 = b_Ai_11_184.broadcast_to([16, 16])
    b_Ai_11_186 = b_Ai_11_181 & b_Ai_11_185
    gl.thread_barrier()
    b_Ai_11_187 = gl.load(b_Ai_11_176, mask=b_Ai_11_186)
    b_Ai_11_188 = gl.where(m_A_162, b_Ai_11_187, 0.0)
    b_Ai_11_189 = 0.0 - b_Ai_11_188
    b_Ai_22_190 = p_A_22_163 + b_Ai_11_167
    b_Ai_22_191 = gl.expand_dims(b_Ai_22_190, 1)
    b_Ai_22_192 = b_Ai_22_191 * 1024
    b_Ai_22_193 = b_Ai_22_192.broadcast_to([16, 16])
    b_Ai_22_194 = b_Ai_11_168 + 16
    b_Ai_22_195 = gl.expand_dims(b_Ai_22_194, 0)
    b_Ai_22_196 = b_Ai_22_195.broadcast_to([16, 16])
    b_Ai_22_197 = b_Ai_22_193 + b_Ai_22_196
    b_Ai_22_198 = p_A_156 + b_Ai_22_197
    b_Ai_22_199 = b_Ai_22_191 >= 0
    b_Ai_22_200 = b_Ai_22_191 < p_ginp_40
    b_Ai_22_201 = b_Ai_22_199 & b_Ai_22_200
    b_Ai_22_202 = b_Ai_22_201.broadcast_to([16, 16])
    b_Ai_22_203 = b_Ai_22_195 >= 0
    b_Ai_22_204 = b_Ai_22_195 < 64
    b_Ai_22_205 = b_Ai_22_203 & b_Ai_22_204
    b_Ai_22_206 = b_Ai_22_205.broadcast_to([16, 16])
    b_Ai_22_207 = b_Ai_22_202 & b_Ai_22_206
    b_Ai_22_208 = gl.load(b_Ai_22_198, mask=b_Ai_22_207)
    b_Ai_22_209 = gl.where(m_A_162, b_Ai_22_208, 0.0)
    b_Ai_22_210 = 0.0 - b_Ai_22_209
    b_Ai_33_211 = p_A_33_164 + b_Ai_11_167
    b_Ai_33_212 = gl.expand_dims(b_Ai_33_211, 1)
    b_Ai_33_213 = b_Ai_33_212 * 1024
    b_Ai_33_214 = b_Ai_33_213.broadcast_to([16, 16])
    b_Ai_33_215 = b_Ai_11_168 + 32
    b_Ai_33_216 = gl.expand_dims(b_Ai_33_215, 0)
    b_Ai_33_217 = b_Ai_33_216.broadcast_to([16, 16])
    b_Ai_33_218 = b_Ai_33_214 + b_Ai_33_217
    b_Ai_33_219 = p_A_156 + b_Ai_33_218
    b_Ai_33_220 = b_Ai_33_212 >= 0
    b_Ai_33_221 = b_Ai_33_212 < p_ginp_40
    b_Ai_33_222 = b_Ai_33_220 & b_Ai_33_221
    b_Ai_33_223 = b_Ai_33_222.broadcast_to([16, 16])
    b_Ai_33_224 = b_Ai_33_216 >= 0
    b_Ai_33_225 = b_Ai_33_216 < 64
    b_Ai_33_226 = b_Ai_33_224 & b_Ai_33_225
    b_Ai_33_227 = b_Ai_33_226.broadcast_to([16, 16])
    b_Ai_33_228 = b_Ai_33_223 & b_Ai_33_227
    b_Ai_33_229 = gl.load(b_Ai_33_219, mask=b_Ai_33_228)
    b_Ai_33_230 = gl.where(m_A_162, b_Ai_33_229, 0.0)
    b_Ai_33_231 = 0.0 - b_Ai_33_230
    b_Ai_44_232 = p_A_44_165 + b_Ai_11_167
    b_Ai_44_233 = gl.expand_dims(b_Ai_44_232, 1)
    b_Ai_44_234 = b_Ai_44_233 * 1024
    b_Ai_44_235 = b_Ai_44_234.broadcast_to([16, 16])
    b_Ai_44_236 = b_Ai_11_168 + 48
    b_Ai_44_237 = gl.expand_dims(b_Ai_44_236, 0)
    b_Ai_44_238 = b_Ai_44_237.broadcast_to([16, 16])
    b_Ai_44_239 = b_Ai_44_235 + b_Ai_44_238
    b_Ai_44_240 = p_A_156 + b_Ai_44_239
    b_Ai_44_241 = b_Ai_44_233 >= 0
    b_Ai_44_242 = b_Ai_44_233 < p_ginp_40
    b_Ai_44_243 = b_Ai_44_241 & b_Ai_44_242
    b_Ai_44_244 = b_Ai_44_243.broadcast_to([16, 16])
    b_Ai_44_245 = b_Ai_44_237 >= 0
    b_Ai_44_246 = b_Ai_44_237 < 64
    b_Ai_44_247 = b_Ai_44_245 & b_Ai_44_246
    b_Ai_44_248 = b_Ai_44_247.broadcast_to([16, 16])
    b_Ai_44_249 = b_Ai_44_244 & b_Ai_44_248
    b_Ai_44_250 = gl.load(b_Ai_44_240, mask=b_Ai_44_249)
    b_Ai_44_251 = gl.where(m_A_162, b_Ai_44_250, 0.0)
    b_Ai_44_252 = 0.0 - b_Ai_44_251
    v38 = T_36 - p_ginp_39
    v39 = gl.minimum(v38, 16)
    twill_n = gl.maximum((v39 - 2 + 1 - 1) // 1, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_Ai_11_358 = b_Ai_11_189
        b_a_11 = p_ginp_39 + (2 + (0 - 0) * 1)  # load0_b_a_11: stage 0, partition 0 (group 0)
        b_a_11_337 = b_a_11 * 1024  # load0_b_a_11: stage 0, partition 0 (group 0)
        b_a_11_338 = p_A_156 + b_a_11_337  # load0_b_a_11: stage 0, partition 0 (group 0)
        b_a_11_340 = b_a_11_338  # load1_b_a_11: stage 0, partition 0 (group 0)
        b_a_11_342 = b_a_11_340 + o_i  # load1_b_a_11: stage 0, partition 0 (group 0)
        b_a_11_344 = gl.load(b_a_11_342)  # load1_b_a_11: stage 0, partition 0 (group 0)
        b_a_11_339 = b_a_11_338  # load0_b_a_11: stage 0, partition 0 (group 0)
        b_a_11_341 = b_a_11_339 + o_i_157  # load0_b_a_11: stage 0, partition 0 (group 0)
        b_a_11_343 = gl.load(b_a_11_341)  # load0_b_a_11: stage 0, partition 0 (group 0)
        b_Ai_11_358_p1 = b_Ai_11_358
        b_a_11_343_p1 = b_a_11_343
        b_a_11_344_p1 = b_a_11_344
        for twill_b in range(1, twill_n):
            b_a_11 = p_ginp_39 + (2 + (twill_b - 0) * 1)  # load0_b_a_11: stage 0, partition 0 (group 0)
            b_a_11_337 = b_a_11 * 1024  # load0_b_a_11: stage 0, partition 0 (group 0)
            b_a_11_338 = p_A_156 + b_a_11_337  # load0_b_a_11: stage 0, partition 0 (group 0)
            b_a_11_340 = b_a_11_338  # load1_b_a_11: stage 0, partition 0 (group 0)
            b_a_11_342 = b_a_11_340 + o_i  # load1_b_a_11: stage 0, partition 0 (group 0)
            b_a_11_344 = gl.load(b_a_11_342)  # load1_b_a_11: stage 0, partition 0 (group 0)
            b_a_11_346 = 0.0 - b_a_11_344_p1  # elementwise1_b_a_11: stage 1, partition 0 (group 0)
            b_a_11_347 = gl.expand_dims(b_a_11_346, 1)  # elementwise2_b_a_11: stage 1, partition 0 (group 0)
            b_a_11_348 = b_a_11_347.broadcast_to([16, 16])  # elementwise2_b_a_11: stage 1, partition 0 (group 0)
            b_a_11_349 = b_a_11_348 * b_Ai_11_358_p1  # elementwise2_b_a_11: stage 1, partition 0 (group 0)
            b_a_11_350 = gl.sum(b_a_11_349, axis=0)  # reduce0_b_a_11: stage 1, partition 0 (group 0)
            b_a_11_339 = b_a_11_338  # load0_b_a_11: stage 0, partition 0 (group 0)
            b_a_11_341 = b_a_11_339 + o_i_157  # load0_b_a_11: stage 0, partition 0 (group 0)
            b_a_11_343 = gl.load(b_a_11_341)  # load0_b_a_11: stage 0, partition 0 (group 0)
            b_a_11_345 = 0.0 - b_a_11_343_p1  # elementwise0_b_a_11: stage 1, partition 0 (group 0)
            b_a_11_351 = b_a_11_345 + b_a_11_350  # elementwise0_b_a_11: stage 1, partition 0 (group 0)
            b_Ai_11_352 = (2 + (twill_b - 1) * 1)  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
            b_Ai_11_353 = o_i == b_Ai_11_352  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
            b_Ai_11_354 = gl.expand_dims(b_Ai_11_353, 1)  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
            b_Ai_11_355 = gl.expand_dims(b_a_11_351, 0)  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
            b_Ai_11_356 = b_Ai_11_355.broadcast_to([16, 16])  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
            b_Ai_11_357 = b_Ai_11_354.broadcast_to([16, 16])  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
            b_Ai_11_358 = gl.where(b_Ai_11_357, b_Ai_11_356, b_Ai_11_358_p1)  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
            b_Ai_11_358_p1 = b_Ai_11_358
            b_a_11_343_p1 = b_a_11_343
            b_a_11_344_p1 = b_a_11_344
        b_a_11_346 = 0.0 - b_a_11_344_p1  # elementwise1_b_a_11: stage 1, partition 0 (group 0)
        b_a_11_347 = gl.expand_dims(b_a_11_346, 1)  # elementwise2_b_a_11: stage 1, partition 0 (group 0)
        b_a_11_348 = b_a_11_347.broadcast_to([16, 16])  # elementwise2_b_a_11: stage 1, partition 0 (group 0)
        b_a_11_349 = b_a_11_348 * b_Ai_11_358_p1  # elementwise2_b_a_11: stage 1, partition 0 (group 0)
        b_a_11_350 = gl.sum(b_a_11_349, axis=0)  # reduce0_b_a_11: stage 1, partition 0 (group 0)
        b_a_11_345 = 0.0 - b_a_11_343_p1  # elementwise0_b_a_11: stage 1, partition 0 (group 0)
        b_a_11_351 = b_a_11_345 + b_a_11_350  # elementwise0_b_a_11: stage 1, partition 0 (group 0)
        b_Ai_11_352 = (2 + ((twill_n - 1 + 1) - 1) * 1)  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
        b_Ai_11_353 = o_i == b_Ai_11_352  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
        b_Ai_11_354 = gl.expand_dims(b_Ai_11_353, 1)  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
        b_Ai_11_355 = gl.expand_dims(b_a_11_351, 0)  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
        b_Ai_11_356 = b_Ai_11_355.broadcast_to([16, 16])  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
        b_Ai_11_357 = b_Ai_11_354.broadcast_to([16, 16])  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
        b_Ai_11_358 = gl.where(b_Ai_11_357, b_Ai_11_356, b_Ai_11_358_p1)  # elementwise3_b_Ai_11: stage 1, partition 0 (group 0)
        b_Ai_11_358_p1 = b_Ai_11_358
        b_a_11_343_p1 = b_a_11_343
        b_a_11_344_p1 = b_a_11_344
    else:
        b_Ai_11_358_p1 = b_Ai_11_189
    twill_base += twill_n
    v40 = gl.minimum(v38, 32)
    twill_n = gl.maximum((v40 - 18 + 1 - 1) // 1, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_Ai_22_361 = b_Ai_22_210
        b_a_22 = p_ginp_39 + (18 + (0 - 0) * 1)  # load0_b_a_22: stage 0, partition 0 (group 0)
        b_a_22_337 = b_a_22 * 1024  # load0_b_a_22: stage 0, partition 0 (group 0)
        b_a_22_338 = p_A_156 + b_a_22_337  # load0_b_a_22: stage 0, partition 0 (group 0)
        b_a_22_340 = b_a_22_338  # load1_b_a_22: stage 0, partition 0 (group 0)
        b_a_22_342 = b_a_22_340 + o_i  # load1_b_a_22: stage 0, partition 0 (group 0)
        b_a_22_344 = b_a_22_342 + 16  # load1_b_a_22: stage 0, partition 0 (group 0)
        b_a_22_346 = gl.load(b_a_22_344)  # load1_b_a_22: stage 0, partition 0 (group 0)
        b_a_22_339 = b_a_22_338  # load0_b_a_22: stage 0, partition 0 (group 0)
        b_a_22_341 = b_a_22_339 + o_i_157  # load0_b_a_22: stage 0, partition 0 (group 0)
        b_a_22_343 = b_a_22_341 + 16  # load0_b_a_22: stage 0, partition 0 (group 0)
        b_a_22_345 = gl.load(b_a_22_343)  # load0_b_a_22: stage 0, partition 0 (group 0)
        b_Ai_22_361_p1 = b_Ai_22_361
        b_a_22_345_p1 = b_a_22_345
        b_a_22_346_p1 = b_a_22_346
        for twill_b in range(1, twill_n):
            b_a_22 = p_ginp_39 + (18 + (twill_b - 0) * 1)  # load0_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_337 = b_a_22 * 1024  # load0_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_338 = p_A_156 + b_a_22_337  # load0_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_340 = b_a_22_338  # load1_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_342 = b_a_22_340 + o_i  # load1_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_344 = b_a_22_342 + 16  # load1_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_346 = gl.load(b_a_22_344)  # load1_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_348 = 0.0 - b_a_22_346_p1  # elementwise1_b_a_22: stage 1, partition 0 (group 0)
            b_a_22_349 = gl.expand_dims(b_a_22_348, 1)  # elementwise2_b_a_22: stage 1, partition 0 (group 0)
            b_a_22_350 = b_a_22_349.broadcast_to([16, 16])  # elementwise2_b_a_22: stage 1, partition 0 (group 0)
            b_a_22_351 = b_a_22_350 * b_Ai_22_361_p1  # elementwise2_b_a_22: stage 1, partition 0 (group 0)
            b_a_22_352 = gl.sum(b_a_22_351, axis=0)  # reduce0_b_a_22: stage 1, partition 0 (group 0)
            b_a_22_339 = b_a_22_338  # load0_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_341 = b_a_22_339 + o_i_157  # load0_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_343 = b_a_22_341 + 16  # load0_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_345 = gl.load(b_a_22_343)  # load0_b_a_22: stage 0, partition 0 (group 0)
            b_a_22_347 = 0.0 - b_a_22_345_p1  # elementwise0_b_a_22: stage 1, partition 0 (group 0)
            b_a_22_353 = b_a_22_347 + b_a_22_352  # elementwise0_b_a_22: stage 1, partition 0 (group 0)
            b_Ai_22_354 = (18 + (twill_b - 1) * 1) - 16  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
            b_Ai_22_355 = b_Ai_22_354  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
            b_Ai_22_356 = o_i == b_Ai_22_355  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
            b_Ai_22_357 = gl.expand_dims(b_Ai_22_356, 1)  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
            b_Ai_22_358 = gl.expand_dims(b_a_22_353, 0)  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
            b_Ai_22_359 = b_Ai_22_358.broadcast_to([16, 16])  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
            b_Ai_22_360 = b_Ai_22_357.broadcast_to([16, 16])  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
            b_Ai_22_361 = gl.where(b_Ai_22_360, b_Ai_22_359, b_Ai_22_361_p1)  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
            b_Ai_22_361_p1 = b_Ai_22_361
            b_a_22_345_p1 = b_a_22_345
            b_a_22_346_p1 = b_a_22_346
        b_a_22_348 = 0.0 - b_a_22_346_p1  # elementwise1_b_a_22: stage 1, partition 0 (group 0)
        b_a_22_349 = gl.expand_dims(b_a_22_348, 1)  # elementwise2_b_a_22: stage 1, partition 0 (group 0)
        b_a_22_350 = b_a_22_349.broadcast_to([16, 16])  # elementwise2_b_a_22: stage 1, partition 0 (group 0)
        b_a_22_351 = b_a_22_350 * b_Ai_22_361_p1  # elementwise2_b_a_22: stage 1, partition 0 (group 0)
        b_a_22_352 = gl.sum(b_a_22_351, axis=0)  # reduce0_b_a_22: stage 1, partition 0 (group 0)
        b_a_22_347 = 0.0 - b_a_22_345_p1  # elementwise0_b_a_22: stage 1, partition 0 (group 0)
        b_a_22_353 = b_a_22_347 + b_a_22_352  # elementwise0_b_a_22: stage 1, partition 0 (group 0)
        b_Ai_22_354 = (18 + ((twill_n - 1 + 1) - 1) * 1) - 16  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
        b_Ai_22_355 = b_Ai_22_354  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
        b_Ai_22_356 = o_i == b_Ai_22_355  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
        b_Ai_22_357 = gl.expand_dims(b_Ai_22_356, 1)  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
        b_Ai_22_358 = gl.expand_dims(b_a_22_353, 0)  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
        b_Ai_22_359 = b_Ai_22_358.broadcast_to([16, 16])  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
        b_Ai_22_360 = b_Ai_22_357.broadcast_to([16, 16])  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
        b_Ai_22_361 = gl.where(b_Ai_22_360, b_Ai_22_359, b_Ai_22_361_p1)  # elementwise3_b_Ai_22: stage 1, partition 0 (group 0)
        b_Ai_22_361_p1 = b_Ai_22_361
        b_a_22_345_p1 = b_a_22_345
        b_a_22_346_p1 = b_a_22_346
    else:
        b_Ai_22_361_p1 = b_Ai_22_210
    twill_base += twill_n
    v41 = gl.minimum(v38, 48)
    twill_n = gl.maximum((v41 - 34 + 1 - 1) // 1, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_Ai_33_361 = b_Ai_33_231
        b_a_33 = p_ginp_39 + (34 + (0 - 0) * 1)  # load0_b_a_33: stage 0, partition 0 (group 0)
        b_a_33_337 = b_a_33 * 1024  # load0_b_a_33: stage 0, partition 0 (group 0)
        b_a_33_338 = p_A_156 + b_a_33_337  # load0_b_a_33: stage 0, partition 0 (group 0)
        b_a_33_340 = b_a_33_338  # load1_b_a_33: stage 0, partition 0 (group 0)
        b_a_33_342 = b_a_33_340 + o_i  # load1_b_a_33: stage 0, partition 0 (group 0)
        b_a_33_344 = b_a_33_342 + 32  # load1_b_a_33: stage 0, partition 0 (group 0)
        b_a_33_346 = gl.load(b_a_33_344)  # load1_b_a_33: stage 0, partition 0 (group 0)
        b_a_33_339 = b_a_33_338  # load0_b_a_33: stage 0, partition 0 (group 0)
        b_a_33_341 = b_a_33_339 + o_i_157  # load0_b_a_33: stage 0, partition 0 (group 0)
        b_a_33_343 = b_a_33_341 + 32  # load0_b_a_33: stage 0, partition 0 (group 0)
        b_a_33_345 = gl.load(b_a_33_343)  # load0_b_a_33: stage 0, partition 0 (group 0)
        b_Ai_33_361_p1 = b_Ai_33_361
        b_a_33_345_p1 = b_a_33_345
        b_a_33_346_p1 = b_a_33_346
        for twill_b in range(1, twill_n):
            b_a_33 = p_ginp_39 + (34 + (twill_b - 0) * 1)  # load0_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_337 = b_a_33 * 1024  # load0_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_338 = p_A_156 + b_a_33_337  # load0_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_340 = b_a_33_338  # load1_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_342 = b_a_33_340 + o_i  # load1_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_344 = b_a_33_342 + 32  # load1_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_346 = gl.load(b_a_33_344)  # load1_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_348 = 0.0 - b_a_33_346_p1  # elementwise1_b_a_33: stage 1, partition 0 (group 0)
            b_a_33_349 = gl.expand_dims(b_a_33_348, 1)  # elementwise2_b_a_33: stage 1, partition 0 (group 0)
            b_a_33_350 = b_a_33_349.broadcast_to([16, 16])  # elementwise2_b_a_33: stage 1, partition 0 (group 0)
            b_a_33_351 = b_a_33_350 * b_Ai_33_361_p1  # elementwise2_b_a_33: stage 1, partition 0 (group 0)
            b_a_33_352 = gl.sum(b_a_33_351, axis=0)  # reduce0_b_a_33: stage 1, partition 0 (group 0)
            b_a_33_339 = b_a_33_338  # load0_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_341 = b_a_33_339 + o_i_157  # load0_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_343 = b_a_33_341 + 32  # load0_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_345 = gl.load(b_a_33_343)  # load0_b_a_33: stage 0, partition 0 (group 0)
            b_a_33_347 = 0.0 - b_a_33_345_p1  # elementwise0_b_a_33: stage 1, partition 0 (group 0)
            b_a_33_353 = b_a_33_347 + b_a_33_352  # elementwise0_b_a_33: stage 1, partition 0 (group 0)
            b_Ai_33_354 = (34 + (twill_b - 1) * 1) - 32  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
            b_Ai_33_355 = b_Ai_33_354  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
            b_Ai_33_356 = o_i == b_Ai_33_355  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
            b_Ai_33_357 = gl.expand_dims(b_Ai_33_356, 1)  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
            b_Ai_33_358 = gl.expand_dims(b_a_33_353, 0)  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
            b_Ai_33_359 = b_Ai_33_358.broadcast_to([16, 16])  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
            b_Ai_33_360 = b_Ai_33_357.broadcast_to([16, 16])  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
            b_Ai_33_361 = gl.where(b_Ai_33_360, b_Ai_33_359, b_Ai_33_361_p1)  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
            b_Ai_33_361_p1 = b_Ai_33_361
            b_a_33_345_p1 = b_a_33_345
            b_a_33_346_p1 = b_a_33_346
        b_a_33_348 = 0.0 - b_a_33_346_p1  # elementwise1_b_a_33: stage 1, partition 0 (group 0)
        b_a_33_349 = gl.expand_dims(b_a_33_348, 1)  # elementwise2_b_a_33: stage 1, partition 0 (group 0)
        b_a_33_350 = b_a_33_349.broadcast_to([16, 16])  # elementwise2_b_a_33: stage 1, partition 0 (group 0)
        b_a_33_351 = b_a_33_350 * b_Ai_33_361_p1  # elementwise2_b_a_33: stage 1, partition 0 (group 0)
        b_a_33_352 = gl.sum(b_a_33_351, axis=0)  # reduce0_b_a_33: stage 1, partition 0 (group 0)
        b_a_33_347 = 0.0 - b_a_33_345_p1  # elementwise0_b_a_33: stage 1, partition 0 (group 0)
        b_a_33_353 = b_a_33_347 + b_a_33_352  # elementwise0_b_a_33: stage 1, partition 0 (group 0)
        b_Ai_33_354 = (34 + ((twill_n - 1 + 1) - 1) * 1) - 32  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
        b_Ai_33_355 = b_Ai_33_354  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
        b_Ai_33_356 = o_i == b_Ai_33_355  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
        b_Ai_33_357 = gl.expand_dims(b_Ai_33_356, 1)  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
        b_Ai_33_358 = gl.expand_dims(b_a_33_353, 0)  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
        b_Ai_33_359 = b_Ai_33_358.broadcast_to([16, 16])  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
        b_Ai_33_360 = b_Ai_33_357.broadcast_to([16, 16])  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
        b_Ai_33_361 = gl.where(b_Ai_33_360, b_Ai_33_359, b_Ai_33_361_p1)  # elementwise3_b_Ai_33: stage 1, partition 0 (group 0)
        b_Ai_33_361_p1 = b_Ai_33_361
        b_a_33_345_p1 = b_a_33_345
        b_a_33_346_p1 = b_a_33_346
    else:
        b_Ai_33_361_p1 = b_Ai_33_231
    twill_base += twill_n
    v42 = gl.minimum(v38, 64)
    twill_n = gl.maximum((v42 - 50 + 1 - 1) // 1, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_Ai_44_361 = b_Ai_44_252
        b_a_44 = p_ginp_39 + (50 + (0 - 0) * 1)  # load0_b_a_44: stage 0, partition 0 (group 0)
        b_a_44_337 = b_a_44 * 1024  # load0_b_a_44: stage 0, partition 0 (group 0)
        b_a_44_338 = p_A_156 + b_a_44_337  # load0_b_a_44: stage 0, partition 0 (group 0)
        b_a_44_340 = b_a_44_338  # load1_b_a_44: stage 0, partition 0 (group 0)
        b_a_44_342 = b_a_44_340 + o_i  # load1_b_a_44: stage 0, partition 0 (group 0)
        b_a_44_344 = b_a_44_342 + 48  # load1_b_a_44: stage 0, partition 0 (group 0)
        b_a_44_346 = gl.load(b_a_44_344)  # load1_b_a_44: stage 0, partition 0 (group 0)
        b_a_44_339 = b_a_44_338  # load0_b_a_44: stage 0, partition 0 (group 0)
        b_a_44_341 = b_a_44_339 + o_i_157  # load0_b_a_44: stage 0, partition 0 (group 0)
        b_a_44_343 = b_a_44_341 + 48  # load0_b_a_44: stage 0, partition 0 (group 0)
        b_a_44_345 = gl.load(b_a_44_343)  # load0_b_a_44: stage 0, partition 0 (group 0)
        b_Ai_44_361_p1 = b_Ai_44_361
        b_a_44_345_p1 = b_a_44_345
        b_a_44_346_p1 = b_a_44_346
        for twill_b in range(1, twill_n):
            b_a_44 = p_ginp_39 + (50 + (twill_b - 0) * 1)  # load0_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_337 = b_a_44 * 1024  # load0_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_338 = p_A_156 + b_a_44_337  # load0_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_340 = b_a_44_338  # load1_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_342 = b_a_44_340 + o_i  # load1_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_344 = b_a_44_342 + 48  # load1_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_346 = gl.load(b_a_44_344)  # load1_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_348 = 0.0 - b_a_44_346_p1  # elementwise1_b_a_44: stage 1, partition 0 (group 0)
            b_a_44_349 = gl.expand_dims(b_a_44_348, 1)  # elementwise2_b_a_44: stage 1, partition 0 (group 0)
            b_a_44_350 = b_a_44_349.broadcast_to([16, 16])  # elementwise2_b_a_44: stage 1, partition 0 (group 0)
            b_a_44_351 = b_a_44_350 * b_Ai_44_361_p1  # elementwise2_b_a_44: stage 1, partition 0 (group 0)
            b_a_44_352 = gl.sum(b_a_44_351, axis=0)  # reduce0_b_a_44: stage 1, partition 0 (group 0)
            b_a_44_339 = b_a_44_338  # load0_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_341 = b_a_44_339 + o_i_157  # load0_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_343 = b_a_44_341 + 48  # load0_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_345 = gl.load(b_a_44_343)  # load0_b_a_44: stage 0, partition 0 (group 0)
            b_a_44_347 = 0.0 - b_a_44_345_p1  # elementwise0_b_a_44: stage 1, partition 0 (group 0)
            b_a_44_353 = b_a_44_347 + b_a_44_352  # elementwise0_b_a_44: stage 1, partition 0 (group 0)
            b_Ai_44_354 = (50 + (twill_b - 1) * 1) - 48  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
            b_Ai_44_355 = b_Ai_44_354  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
            b_Ai_44_356 = o_i == b_Ai_44_355  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
            b_Ai_44_357 = gl.expand_dims(b_Ai_44_356, 1)  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
            b_Ai_44_358 = gl.expand_dims(b_a_44_353, 0)  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
            b_Ai_44_359 = b_Ai_44_358.broadcast_to([16, 16])  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
            b_Ai_44_360 = b_Ai_44_357.broadcast_to([16, 16])  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
            b_Ai_44_361 = gl.where(b_Ai_44_360, b_Ai_44_359, b_Ai_44_361_p1)  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
            b_Ai_44_361_p1 = b_Ai_44_361
            b_a_44_345_p1 = b_a_44_345
            b_a_44_346_p1 = b_a_44_346
        b_a_44_348 = 0.0 - b_a_44_346_p1  # elementwise1_b_a_44: stage 1, partition 0 (group 0)
        b_a_44_349 = gl.expand_dims(b_a_44_348, 1)  # elementwise2_b_a_44: stage 1, partition 0 (group 0)
        b_a_44_350 = b_a_44_349.broadcast_to([16, 16])  # elementwise2_b_a_44: stage 1, partition 0 (group 0)
        b_a_44_351 = b_a_44_350 * b_Ai_44_361_p1  # elementwise2_b_a_44: stage 1, partition 0 (group 0)
        b_a_44_352 = gl.sum(b_a_44_351, axis=0)  # reduce0_b_a_44: stage 1, partition 0 (group 0)
        b_a_44_347 = 0.0 - b_a_44_345_p1  # elementwise0_b_a_44: stage 1, partition 0 (group 0)
        b_a_44_353 = b_a_44_347 + b_a_44_352  # elementwise0_b_a_44: stage 1, partition 0 (group 0)
        b_Ai_44_354 = (50 + ((twill_n - 1 + 1) - 1) * 1) - 48  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
        b_Ai_44_355 = b_Ai_44_354  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
        b_Ai_44_356 = o_i == b_Ai_44_355  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
        b_Ai_44_357 = gl.expand_dims(b_Ai_44_356, 1)  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
        b_Ai_44_358 = gl.expand_dims(b_a_44_353, 0)  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
        b_Ai_44_359 = b_Ai_44_358.broadcast_to([16, 16])  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
        b_Ai_44_360 = b_Ai_44_357.broadcast_to([16, 16])  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
        b_Ai_44_361 = gl.where(b_Ai_44_360, b_Ai_44_359, b_Ai_44_361_p1)  # elementwise3_b_Ai_44: stage 1, partition 0 (group 0)
        b_Ai_44_361_p1 = b_Ai_44_361
        b_a_44_345_p1 = b_a_44_345
        b_a_44_346_p1 = b_a_44_346
    else:
        b_Ai_44_361_p1 = b_Ai_44_252
    b_Ai_11_257 = m_I.to(gl.float32)
    b_Ai_11_258 = b_Ai_11_358_p1 + b_Ai_11_257
    b_Ai_22_259 = b_Ai_22_361_p1 + b_Ai_11_257
    b_Ai_33_260 = b_Ai_33_361_p1 + b_Ai_11_257
    b_Ai_44_261 = b_Ai_44_361_p1 + b_Ai_11_257
    b_A_21 = b_Ai_22_193 + b_Ai_11_174
    b_A_21_262 = p_A_156 + b_A_21
    b_A_21_263 = b_Ai_22_202 & b_Ai_11_185
    b_A_21_264 = gl.load(b_A_21_262, mask=b_A_21_263)
    b_A_31 = b_Ai_33_214 + b_Ai_11_174
    b_A_31_265 = p_A_156 + b_A_31
    b_A_31_266 = b_Ai_33_223 & b_Ai_11_185
    b_A_31_267 = gl.load(b_A_31_265, mask=b_A_31_266)
    b_A_32 = b_Ai_33_214 + b_Ai_22_196
    b_A_32_268 = p_A_156 + b_A_32
    b_A_32_269 = b_Ai_33_223 & b_Ai_22_206
    b_A_32_270 = gl.load(b_A_32_268, mask=b_A_32_269)
    b_A_41 = b_Ai_44_235 + b_Ai_11_174
    b_A_41_271 = p_A_156 + b_A_41
    b_A_41_272 = b_Ai_44_244 & b_Ai_11_185
    b_A_41_273 = gl.load(b_A_41_271, mask=b_A_41_272)
    b_A_42 = b_Ai_44_235 + b_Ai_22_196
    b_A_42_274 = p_A_156 + b_A_42
    b_A_42_275 = b_Ai_44_244 & b_Ai_22_206
    b_A_42_276 = gl.load(b_A_42_274, mask=b_A_42_275)
    b_A_43 = b_Ai_44_235 + b_Ai_33_217
    b_A_43_277 = p_A_156 + b_A_43
    b_A_43_278 = b_Ai_44_244 & b_Ai_33_227
    b_A_43_279 = gl.load(b_A_43_277, mask=b_A_43_278)
    b_Ai_22_280 = gl.convert_layout(b_Ai_22_259, L15)
    b_A_21_281 = gl.convert_layout(b_A_21_264, L16)
    b_Ai_21 = gl.dot_fma(b_Ai_22_280, b_A_21_281, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_Ai_21_282 = gl.convert_layout(b_Ai_21, L15)
    b_Ai_11_283 = gl.convert_layout(b_Ai_11_258, L16)
    b_Ai_21_284 = gl.dot_fma(b_Ai_21_282, b_Ai_11_283, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_Ai_21_285 = 0.0 - b_Ai_21_284
    b_Ai_33_286 = gl.convert_layout(b_Ai_33_260, L15)
    b_A_32_287 = gl.convert_layout(b_A_32_270, L16)
    b_Ai_32 = gl.dot_fma(b_Ai_33_286, b_A_32_287, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_Ai_32_288 = gl.convert_layout(b_Ai_32, L15)
    b_Ai_22_289 = gl.convert_layout(b_Ai_22_259, L16)
    b_Ai_32_290 = gl.dot_fma(b_Ai_32_288, b_Ai_22_289, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_Ai_32_291 = 0.0 - b_Ai_32_290
    b_Ai_44_292 = gl.convert_layout(b_Ai_44_261, L15)
    b_A_43_293 = gl.convert_layout(b_A_43_279, L16)
    b_Ai_43 = gl.dot_fma(b_Ai_44_292, b_A_43_293, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_Ai_43_294 = gl.convert_layout(b_Ai_43, L15)
    b_Ai_33_295 = gl.convert_layout(b_Ai_33_260, L16)
    b_Ai_43_296 = gl.dot_fma(b_Ai_43_294, b_Ai_33_295, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_Ai_43_297 = 0.0 - b_Ai_43_296
    b_A_31_298 = gl.convert_layout(b_A_31_267, L15)
    b_Ai_31 = gl.dot_fma(b_A_31_298, b_Ai_11_283, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_A_32_299 = gl.convert_layout(b_A_32_270, L15)
    b_Ai_21_300 = gl.convert_layout(b_Ai_21_285, L16)
    b_Ai_31_301 = gl.dot_fma(b_A_32_299, b_Ai_21_300, b_Ai_31)
    b_Ai_31_302 = gl.convert_layout(b_Ai_31_301, L16)
    b_Ai_31_303 = gl.dot_fma(b_Ai_33_286, b_Ai_31_302, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_Ai_31_304 = 0.0 - b_Ai_31_303
    b_A_42_305 = gl.convert_layout(b_A_42_276, L15)
    b_Ai_42 = gl.dot_fma(b_A_42_305, b_Ai_22_289, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_A_43_306 = gl.convert_layout(b_A_43_279, L15)
    b_Ai_32_307 = gl.convert_layout(b_Ai_32_291, L16)
    b_Ai_42_308 = gl.dot_fma(b_A_43_306, b_Ai_32_307, b_Ai_42)
    b_Ai_42_309 = gl.convert_layout(b_Ai_42_308, L16)
    b_Ai_42_310 = gl.dot_fma(b_Ai_44_292, b_Ai_42_309, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_Ai_42_311 = 0.0 - b_Ai_42_310
    b_A_41_312 = gl.convert_layout(b_A_41_273, L15)
    b_Ai_41 = gl.dot_fma(b_A_41_312, b_Ai_11_283, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_Ai_41_313 = gl.dot_fma(b_A_42_305, b_Ai_21_300, b_Ai_41)
    b_Ai_31_314 = gl.convert_layout(b_Ai_31_304, L16)
    b_Ai_41_315 = gl.dot_fma(b_A_43_306, b_Ai_31_314, b_Ai_41_313)
    b_Ai_41_316 = gl.convert_layout(b_Ai_41_315, L16)
    b_Ai_41_317 = gl.dot_fma(b_Ai_44_292, b_Ai_41_316, gl.full([16, 16], 0.0, gl.float32, layout=L17))
    b_Ai_41_318 = 0.0 - b_Ai_41_317
    v43 = b_Ai_11_258.to(gl.bfloat16)
    v45 = cur_Ai + b_Ai_11_175
    gl.store(v45, v43, mask=b_Ai_11_186)
    v46 = b_Ai_22_259.to(gl.bfloat16)
    v47 = cur_Ai + b_Ai_22_197
    gl.store(v47, v46, mask=b_Ai_22_207)
    v48 = b_Ai_33_260.to(gl.bfloat16)
    v49 = cur_Ai + b_Ai_33_218
    gl.store(v49, v48, mask=b_Ai_33_228)
    v50 = b_Ai_44_261.to(gl.bfloat16)
    v51 = cur_Ai + b_Ai_44_239
    gl.store(v51, v50, mask=b_Ai_44_249)
    v52 = b_Ai_21_285.to(gl.bfloat16)
    v53 = cur_Ai + b_A_21
    v54 = gl.convert_layout(v52, L18)
    gl.store(v53, v54, mask=b_A_21_263)
    v55 = b_Ai_31_304.to(gl.bfloat16)
    v56 = cur_Ai + b_A_31
    v57 = gl.convert_layout(v55, L18)
    gl.store(v56, v57, mask=b_A_31_266)
    v58 = b_Ai_32_291.to(gl.bfloat16)
    v59 = cur_Ai + b_A_32
    v60 = gl.convert_layout(v58, L18)
    gl.store(v59, v60, mask=b_A_32_269)
    v61 = b_Ai_41_318.to(gl.bfloat16)
    v62 = cur_Ai + b_A_41
    v63 = gl.convert_layout(v61, L18)
    gl.store(v62, v63, mask=b_A_41_272)
    v64 = b_Ai_42_311.to(gl.bfloat16)
    v65 = cur_Ai + b_A_42
    v66 = gl.convert_layout(v64, L18)
    gl.store(v65, v66, mask=b_A_42_275)
    v67 = b_Ai_43_297.to(gl.bfloat16)
    v68 = cur_Ai + b_A_43
    v69 = gl.convert_layout(v67, L18)
    gl.store(v68, v69, mask=b_A_43_278)
    b_A_320 = cur_Ai + v23
    gl.thread_barrier()
    b_A_321 = gl.load(b_A_320, mask=v36)
    b_A_322 = gl.allocate_shared_memory(gl.bfloat16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_A_321)
    fence_async_shared()
    b_g_exp = gl.exp(b_g)
    p_v = v + p_k_97
    p_u = u + p_k_97
    b_v_323 = p_v + b_k_108
    b_v_324 = gl.load(b_v_323, mask=b_k_127)
    b_vb = b_A_132.broadcast_to([64, 128])
    b_vb_325 = b_v_324 * b_vb
    b_vb_326 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_vb_325)
    fence_async_shared()
    b_u = warpgroup_mma(b_A_322, b_vb_326, gl.full([64, 128], 0.0, gl.float32, layout=L19))
    v70 = b_u.to(gl.bfloat16)
    v72 = p_u + b_k_108
    v73 = gl.convert_layout(v70, L20)
    gl.store(v72, v73, mask=b_k_127)
    p_w = w + p_k_97
    b_k_327 = gl.load(b_k_109, mask=b_k_127)
    b_kb = b_k_327 * b_vb
    b_kb_328 = gl.convert_layout(b_g_exp, L0)
    b_kb_329 = gl.expand_dims(b_kb_328, 1)
    b_kb_330 = b_kb.to(gl.float32)
    b_kb_331 = b_kb_329.broadcast_to([64, 128])
    b_kb_332 = b_kb_330 * b_kb_331
    b_kb_333 = b_kb_332.to(gl.bfloat16)
    b_kb_334 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_kb_333)
    fence_async_shared()
    b_w = warpgroup_mma(b_A_322, b_kb_334, gl.full([64, 128], 0.0, gl.float32, layout=L19))
    v74 = b_w.to(gl.bfloat16)
    v76 = p_w + b_k_108
    v77 = gl.convert_layout(v74, L20)
    gl.store(v76, v77, mask=b_k_127)

@gluon.jit
def twill_kernel(k, v, beta, g, cu_seqlens, chunk_indices, A, g_cumsum, Ai, w, u, T, NT):
    consumer_0(k, v, beta, g, cu_seqlens, chunk_indices, A, g_cumsum, Ai, w, u, T, NT, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['k', 'v', 'beta', 'g', 'cu_seqlens', 'chunk_indices', 'A', 'g_cumsum', 'Ai', 'w', 'u', 'T', 'NT', 'H', 'K', 'V', 'BT', 'BK', 'BV', 'USE_G']          # the Triton kernel's parameters, in order
RUNTIME = ['k', 'v', 'beta', 'g', 'cu_seqlens', 'chunk_indices', 'A', 'g_cumsum', 'Ai', 'w', 'u', 'T', 'NT']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['k', 'v', 'beta', 'g', 'cu_seqlens', 'chunk_indices', 'A', 'g_cumsum', 'Ai', 'w', 'u', 'T', 'NT']   # the arguments a launch key reads
CONSTEXPRS = {'H': 16, 'K': 128, 'V': 128, 'BT': 64, 'BK': 128, 'BV': 128, 'USE_G': True}         # the specialisation this kernel was generated for
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
