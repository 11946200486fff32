"""topk_probe, written by twill from its joint schedule: I=494 L=1356 (feasible), 680 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 494).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 4 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 88 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 1, 1, 1, 1, 1, 2, 2, 2], threads_per_warp=[1, 1, 2, 2, 2, 2, 2, 1, 1, 1], warps_per_cta=[2, 2, 1, 1, 1, 1, 1, 1, 1, 1], order=[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]))
L4 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0], [1], [0]], lane_bases=[[0], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L5 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0], [0], [1]], lane_bases=[[0], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L6 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0], [0], [0]], lane_bases=[[1], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L7 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[], lane_bases=[[0], [1], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L8 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1], [0], [0]], lane_bases=[[0], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L9 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1]], lane_bases=[[0], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L10 = gl.constexpr(gl.SliceLayout(6, gl.BlockedLayout(size_per_thread=[1, 1, 1, 1, 1, 1, 1, 2, 2, 2], threads_per_warp=[1, 1, 2, 2, 2, 2, 2, 1, 1, 1], warps_per_cta=[2, 2, 1, 1, 1, 1, 1, 1, 1, 1], order=[9, 8, 7, 6, 5, 4, 3, 2, 1, 0])))
L11 = gl.constexpr(gl.SliceLayout(5, gl.SliceLayout(6, gl.BlockedLayout(size_per_thread=[1, 1, 1, 1, 1, 1, 1, 2, 2, 2], threads_per_warp=[1, 1, 2, 2, 2, 2, 2, 1, 1, 1], warps_per_cta=[2, 2, 1, 1, 1, 1, 1, 1, 1, 1], order=[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]))))
L12 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1, 0, 0]], lane_bases=[[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0]], warp_bases=[[0, 1, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0]], block_bases=[], shape=[2, 2, 2, 2, 2, 2, 2, 2]))
L13 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4]], lane_bases=[[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0]], block_bases=[], shape=[32, 8]))
L14 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L15 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def twill_combine_a2078901(a0, a1):
    t0 = a0 ^ a1
    return t0

@gluon.jit
def consumer_0(X, Y, stride_xm, n_rows):
    pid = gl.program_id(0)
    offs_m = pid * 32
    offs_m_10 = gl.arange(0, 32, layout=L0)
    offs_m_11 = gl.arange(0, 32, layout=L1)
    offs_m_12 = gl.arange(0, 32, layout=L2)
    offs_m_15 = offs_m + offs_m_10
    offs_m_16 = offs_m + offs_m_11
    mask_m = gl.expand_dims(offs_m_15, 1)
    mask_m_17 = gl.expand_dims(offs_m_16, 1)
    mask_m_20 = mask_m < n_rows
    mask_m_21 = mask_m_17 < n_rows
    X_ptrs_22 = mask_m * stride_xm
    X_ptrs_24 = X + X_ptrs_22
    X_ptrs_25 = gl.expand_dims(offs_m_12, 0)
    X_ptrs_26 = X_ptrs_24.broadcast_to([32, 32])
    X_ptrs_27 = X_ptrs_25.broadcast_to([32, 32])
    X_ptrs_28 = X_ptrs_26 + X_ptrs_27
    x = mask_m_20.broadcast_to([32, 32])
    x_29 = gl.load(X_ptrs_28, mask=x, other=0.0)
    u = x_29.to(gl.int16, bitcast=True)
    k = gl.cast(gl.cast(u, gl.int16, bitcast=True) & -32768, u.dtype, bitcast=True)
    k_30 = gl.cast(gl.cast(k, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
    k_31 = k_30 != 0
    k_32 = gl.where(k_31, -1, -32768).to(gl.int16)
    k_33 = u ^ k_32
    x_34 = gl.cast(gl.cast(k_33, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
    x_35 = x_34 << 16
    x_36 = 256 - offs_m_12
    x_37 = gl.expand_dims(x_36, 0)
    x_38 = x_37.broadcast_to([32, 32])
    x_39 = x_35 | x_38
    h = gl.convert_layout(gl.reshape(x_39, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L3)
    ar = gl.arange(0, 2, layout=L4)
    ar_40 = gl.arange(0, 2, layout=L5)
    ar_41 = gl.arange(0, 2, layout=L6)
    ar_42 = gl.arange(0, 2, layout=L7)
    ar_43 = gl.arange(0, 2, layout=L8)
    ar_44 = gl.arange(0, 2, layout=L9)
    ar_45 = gl.convert_layout(gl.reshape(ar, [1, 1, 1, 1, 1, 1, 1, 1, 2, 1]), L3)
    ix = h.to(gl.int32, bitcast=True)
    iy, = gl.reduce((ix,), 9, twill_combine_a2078901)
    iy_46 = gl.expand_dims(iy, 9)
    iy_47 = iy_46.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_48 = ix ^ iy_47
    y = iy_48.to(gl.int32, bitcast=True)
    ar_49 = gl.convert_layout(gl.reshape(ar_43, [1, 1, 1, 1, 1, 1, 1, 1, 1, 2]), L3)
    ret = gl.cast(h, gl.uint32, bitcast=True) > gl.cast(y, gl.uint32, bitcast=True)
    ret_50 = ar_45.broadcast_to([1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
    ret_51 = ar_49.broadcast_to([1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
    ret_52 = ret_50 ^ ret_51
    ret_53 = ret.to(gl.int32)
    ret_54 = ret_52.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_55 = ret_53 != ret_54
    ret_56 = gl.where(ret_55, y, h)
    ar_57 = gl.convert_layout(gl.reshape(ar_40, [1, 1, 1, 1, 1, 1, 1, 2, 1, 1]), L3)
    ix_58 = ret_56.to(gl.int32, bitcast=True)
    iy_59, = gl.reduce((ix_58,), 8, twill_combine_a2078901)
    iy_60 = gl.expand_dims(iy_59, 8)
    iy_61 = iy_60.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_62 = ix_58 ^ iy_61
    y_63 = iy_62.to(gl.int32, bitcast=True)
    ret_64 = gl.cast(ret_56, gl.uint32, bitcast=True) > gl.cast(y_63, gl.uint32, bitcast=True)
    ret_65 = ar_57.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 2, 1])
    ret_66 = ar_45.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 2, 1])
    ret_67 = ret_65 ^ ret_66
    ret_68 = ret_64.to(gl.int32)
    ret_69 = ret_67.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_70 = ret_68 != ret_69
    ret_71 = gl.where(ret_70, y_63, ret_56)
    ix_72 = ret_71.to(gl.int32, bitcast=True)
    iy_73, = gl.reduce((ix_72,), 9, twill_combine_a2078901)
    iy_74 = gl.expand_dims(iy_73, 9)
    iy_75 = iy_74.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_76 = ix_72 ^ iy_75
    y_77 = iy_76.to(gl.int32, bitcast=True)
    ret_78 = gl.cast(ret_71, gl.uint32, bitcast=True) > gl.cast(y_77, gl.uint32, bitcast=True)
    ret_79 = ar_57.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 1, 2])
    ret_80 = ar_49.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 1, 2])
    ret_81 = ret_79 ^ ret_80
    ret_82 = ret_78.to(gl.int32)
    ret_83 = ret_81.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_84 = ret_82 != ret_83
    ret_85 = gl.where(ret_84, y_77, ret_71)
    ar_86 = gl.convert_layout(gl.reshape(ar_41, [1, 1, 1, 1, 1, 1, 2, 1, 1, 1]), L3)
    ix_87 = ret_85.to(gl.int32, bitcast=True)
    iy_88, = gl.reduce((ix_87,), 7, twill_combine_a2078901)
    iy_89 = gl.expand_dims(iy_88, 7)
    iy_90 = iy_89.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_91 = ix_87 ^ iy_90
    y_92 = iy_91.to(gl.int32, bitcast=True)
    ret_93 = gl.cast(ret_85, gl.uint32, bitcast=True) > gl.cast(y_92, gl.uint32, bitcast=True)
    ret_94 = ar_86.broadcast_to([1, 1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_95 = ar_57.broadcast_to([1, 1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_96 = ret_94 ^ ret_95
    ret_97 = ret_93.to(gl.int32)
    ret_98 = ret_96.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_99 = ret_97 != ret_98
    ret_100 = gl.where(ret_99, y_92, ret_85)
    ix_101 = ret_100.to(gl.int32, bitcast=True)
    iy_102, = gl.reduce((ix_101,), 8, twill_combine_a2078901)
    iy_103 = gl.expand_dims(iy_102, 8)
    iy_104 = iy_103.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_105 = ix_101 ^ iy_104
    y_106 = iy_105.to(gl.int32, bitcast=True)
    ret_107 = gl.cast(ret_100, gl.uint32, bitcast=True) > gl.cast(y_106, gl.uint32, bitcast=True)
    ret_108 = ar_86.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_109 = ar_45.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_110 = ret_108 ^ ret_109
    ret_111 = ret_107.to(gl.int32)
    ret_112 = ret_110.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_113 = ret_111 != ret_112
    ret_114 = gl.where(ret_113, y_106, ret_100)
    ix_115 = ret_114.to(gl.int32, bitcast=True)
    iy_116, = gl.reduce((ix_115,), 9, twill_combine_a2078901)
    iy_117 = gl.expand_dims(iy_116, 9)
    iy_118 = iy_117.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_119 = ix_115 ^ iy_118
    y_120 = iy_119.to(gl.int32, bitcast=True)
    ret_121 = gl.cast(ret_114, gl.uint32, bitcast=True) > gl.cast(y_120, gl.uint32, bitcast=True)
    ret_122 = ar_86.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_123 = ar_49.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_124 = ret_122 ^ ret_123
    ret_125 = ret_121.to(gl.int32)
    ret_126 = ret_124.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_127 = ret_125 != ret_126
    ret_128 = gl.where(ret_127, y_120, ret_114)
    h_129 = gl.cast(gl.max(gl.cast(ret_128, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)
    ar_130 = gl.convert_layout(gl.reshape(ar_42, [1, 1, 1, 1, 1, 2, 1, 1, 1]), L10)
    ix_131 = h_129.to(gl.int32, bitcast=True)
    iy_132, = gl.reduce((ix_131,), 6, twill_combine_a2078901)
    iy_133 = gl.expand_dims(iy_132, 6)
    iy_134 = iy_133.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_135 = ix_131 ^ iy_134
    y_136 = iy_135.to(gl.int32, bitcast=True)
    ar_137 = gl.convert_layout(gl.reshape(ar_44, [1, 1, 1, 1, 1, 1, 2, 1, 1]), L10)
    ret_138 = gl.cast(h_129, gl.uint32, bitcast=True) > gl.cast(y_136, gl.uint32, bitcast=True)
    ret_139 = ar_130.broadcast_to([1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_140 = ar_137.broadcast_to([1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_141 = ret_139 ^ ret_140
    ret_142 = ret_138.to(gl.int32)
    ret_143 = ret_141.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_144 = ret_142 != ret_143
    ret_145 = gl.where(ret_144, y_136, h_129)
    ix_146 = ret_145.to(gl.int32, bitcast=True)
    iy_147, = gl.reduce((ix_146,), 7, twill_combine_a2078901)
    iy_148 = gl.expand_dims(iy_147, 7)
    iy_149 = iy_148.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_150 = ix_146 ^ iy_149
    y_151 = iy_150.to(gl.int32, bitcast=True)
    ar_152 = gl.convert_layout(gl.reshape(ar_44, [1, 1, 1, 1, 1, 1, 1, 2, 1]), L10)
    ret_153 = gl.cast(ret_145, gl.uint32, bitcast=True) > gl.cast(y_151, gl.uint32, bitcast=True)
    ret_154 = ar_130.broadcast_to([1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_155 = ar_152.broadcast_to([1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_156 = ret_154 ^ ret_155
    ret_157 = ret_153.to(gl.int32)
    ret_158 = ret_156.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_159 = ret_157 != ret_158
    ret_160 = gl.where(ret_159, y_151, ret_145)
    ix_161 = ret_160.to(gl.int32, bitcast=True)
    iy_162, = gl.reduce((ix_161,), 8, twill_combine_a2078901)
    iy_163 = gl.expand_dims(iy_162, 8)
    iy_164 = iy_163.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_165 = ix_161 ^ iy_164
    y_166 = iy_165.to(gl.int32, bitcast=True)
    ar_167 = gl.convert_layout(gl.reshape(ar_44, [1, 1, 1, 1, 1, 1, 1, 1, 2]), L10)
    ret_168 = gl.cast(ret_160, gl.uint32, bitcast=True) > gl.cast(y_166, gl.uint32, bitcast=True)
    ret_169 = ar_130.broadcast_to([1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_170 = ar_167.broadcast_to([1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_171 = ret_169 ^ ret_170
    ret_172 = ret_168.to(gl.int32)
    ret_173 = ret_171.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_174 = ret_172 != ret_173
    ret_175 = gl.where(ret_174, y_166, ret_160)
    h_176 = gl.cast(gl.max(gl.cast(ret_175, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)
    ix_177 = h_176.to(gl.int32, bitcast=True)
    iy_178, = gl.reduce((ix_177,), 5, twill_combine_a2078901)
    iy_179 = gl.expand_dims(iy_178, 5)
    iy_180 = iy_179.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_181 = ix_177 ^ iy_180
    y_182 = iy_181.to(gl.int32, bitcast=True)
    ar_183 = gl.convert_layout(gl.reshape(ar_44, [1, 1, 1, 1, 1, 2, 1, 1]), L11)
    ar_184 = gl.convert_layout(gl.reshape(ar_44, [1, 1, 1, 1, 1, 2, 1, 1]), L12)
    ret_185 = gl.cast(h_176, gl.uint32, bitcast=True) > gl.cast(y_182, gl.uint32, bitcast=True)
    ret_186 = ar_183 ^ 1
    ret_187 = ret_185.to(gl.int32)
    ret_188 = ret_186.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_189 = ret_187 != ret_188
    ret_190 = gl.where(ret_189, y_182, h_176)
    ix_191 = ret_190.to(gl.int32, bitcast=True)
    iy_192, = gl.reduce((ix_191,), 6, twill_combine_a2078901)
    iy_193 = gl.expand_dims(iy_192, 6)
    iy_194 = iy_193.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_195 = ix_191 ^ iy_194
    y_196 = iy_195.to(gl.int32, bitcast=True)
    ar_197 = gl.convert_layout(gl.reshape(ar_44, [1, 1, 1, 1, 1, 1, 2, 1]), L11)
    ar_198 = gl.convert_layout(gl.reshape(ar_44, [1, 1, 1, 1, 1, 1, 2, 1]), L12)
    ret_199 = gl.cast(ret_190, gl.uint32, bitcast=True) > gl.cast(y_196, gl.uint32, bitcast=True)
    ret_200 = ar_197 ^ 1
    ret_201 = ret_199.to(gl.int32)
    ret_202 = ret_200.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_203 = ret_201 != ret_202
    ret_204 = gl.where(ret_203, y_196, ret_190)
    ix_205 = ret_204.to(gl.int32, bitcast=True)
    iy_206, = gl.reduce((ix_205,), 7, twill_combine_a2078901)
    iy_207 = gl.expand_dims(iy_206, 7)
    iy_208 = iy_207.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_209 = ix_205 ^ iy_208
    y_210 = iy_209.to(gl.int32, bitcast=True)
    ar_211 = gl.convert_layout(gl.reshape(ar_44, [1, 1, 1, 1, 1, 1, 1, 2]), L11)
    ar_212 = gl.convert_layout(gl.reshape(ar_44, [1, 1, 1, 1, 1, 1, 1, 2]), L12)
    ret_213 = gl.cast(ret_204, gl.uint32, bitcast=True) > gl.cast(y_210, gl.uint32, bitcast=True)
    ret_214 = ar_211 ^ 1
    ret_215 = ret_213.to(gl.int32)
    ret_216 = ret_214.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_217 = ret_215 != ret_216
    ret_218 = gl.where(ret_217, y_210, ret_204)
    x_219 = gl.convert_layout(gl.reshape(ret_218, [32, 8]), L13)
    ret_220 = ar_184.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_221 = ar_198.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_222 = ar_212.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    twill_n = 7
    X_ptrs_258 = X_ptrs_28
    X_ptrs_258_p1 = X_ptrs_258
    X_ptrs_258 = X_ptrs_258_p1 + 32  # load0_x: stage 0, partition 0 (group 0)
    x_259 = gl.load(X_ptrs_258, mask=x, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    X_ptrs_258_p1 = X_ptrs_258
    x_259_p1 = x_259
    X_ptrs_258 = X_ptrs_258_p1 + 32  # load0_x: stage 0, partition 0 (group 0)
    x_259 = gl.load(X_ptrs_258, mask=x, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    u_263 = x_259_p1.to(gl.int16, bitcast=True)  # convert7_u: stage 1, partition 0 (group 0)
    x_260 = (1 + (1 - 1) * 1) * 32  # convert6_ix: stage 1, partition 0 (group 0)
    x_261 = x_260  # convert6_ix: stage 1, partition 0 (group 0)
    x_262 = offs_m_12 + x_261  # convert6_ix: stage 1, partition 0 (group 0)
    k_264 = gl.cast(gl.cast(u_263, gl.int16, bitcast=True) & -32768, u_263.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_265 = gl.cast(gl.cast(k_264, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_266 = k_265 != 0  # convert6_ix: stage 1, partition 0 (group 0)
    k_267 = gl.where(k_266, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
    k_268 = u_263 ^ k_267  # convert6_ix: stage 1, partition 0 (group 0)
    x_269 = gl.cast(gl.cast(k_268, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_270 = x_269 << 16  # convert6_ix: stage 1, partition 0 (group 0)
    x_271 = 256 - x_262  # convert6_ix: stage 1, partition 0 (group 0)
    x_272 = gl.expand_dims(x_271, 0)  # convert6_ix: stage 1, partition 0 (group 0)
    x_273 = x_272.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
    x_274 = x_270 | x_273  # convert6_ix: stage 1, partition 0 (group 0)
    h_275 = gl.convert_layout(gl.reshape(x_274, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L3)  # convert6_ix: stage 1, partition 0 (group 0)
    ix_276 = h_275.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    iy_277, = gl.reduce((ix_276,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
    iy_278 = gl.expand_dims(iy_277, 9)  # convert8_y: stage 1, partition 0 (group 0)
    iy_279 = iy_278.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
    iy_280 = ix_276 ^ iy_279  # convert8_y: stage 1, partition 0 (group 0)
    y_281 = iy_280.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
    ret_282 = gl.cast(h_275, gl.uint32, bitcast=True) > gl.cast(y_281, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_283 = ret_282.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_284 = ret_283 != ret_54  # convert9_ix: stage 1, partition 0 (group 0)
    ret_285 = gl.where(ret_284, y_281, h_275)  # convert9_ix: stage 1, partition 0 (group 0)
    ix_286 = ret_285.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    iy_287, = gl.reduce((ix_286,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
    iy_288 = gl.expand_dims(iy_287, 8)  # convert10_y: stage 1, partition 0 (group 0)
    iy_289 = iy_288.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
    iy_290 = ix_286 ^ iy_289  # convert10_y: stage 1, partition 0 (group 0)
    y_291 = iy_290.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
    ret_292 = gl.cast(ret_285, gl.uint32, bitcast=True) > gl.cast(y_291, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_293 = ret_292.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_294 = ret_293 != ret_69  # convert11_ix: stage 1, partition 0 (group 0)
    ret_295 = gl.where(ret_294, y_291, ret_285)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_296 = ret_295.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    iy_297, = gl.reduce((ix_296,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
    iy_298 = gl.expand_dims(iy_297, 9)  # convert12_y: stage 1, partition 0 (group 0)
    iy_299 = iy_298.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
    iy_300 = ix_296 ^ iy_299  # convert12_y: stage 1, partition 0 (group 0)
    y_301 = iy_300.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
    ret_302 = gl.cast(ret_295, gl.uint32, bitcast=True) > gl.cast(y_301, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_303 = ret_302.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_304 = ret_303 != ret_83  # convert13_ix: stage 1, partition 0 (group 0)
    ret_305 = gl.where(ret_304, y_301, ret_295)  # convert13_ix: stage 1, partition 0 (group 0)
    ix_306 = ret_305.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    iy_307, = gl.reduce((ix_306,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
    iy_308 = gl.expand_dims(iy_307, 7)  # convert14_y: stage 1, partition 0 (group 0)
    iy_309 = iy_308.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
    iy_310 = ix_306 ^ iy_309  # convert14_y: stage 1, partition 0 (group 0)
    y_311 = iy_310.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
    ret_312 = gl.cast(ret_305, gl.uint32, bitcast=True) > gl.cast(y_311, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_313 = ret_312.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_314 = ret_313 != ret_98  # convert15_ix: stage 1, partition 0 (group 0)
    ret_315 = gl.where(ret_314, y_311, ret_305)  # convert15_ix: stage 1, partition 0 (group 0)
    ix_316 = ret_315.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    X_ptrs_258_p1 = X_ptrs_258
    ix_316_p1 = ix_316
    ret_315_p1 = ret_315
    x_259_p1 = x_259
    acc_399 = x_219
    X_ptrs_258 = X_ptrs_258_p1 + 32  # load0_x: stage 0, partition 0 (group 0)
    x_259 = gl.load(X_ptrs_258, mask=x, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    u_263 = x_259_p1.to(gl.int16, bitcast=True)  # convert7_u: stage 1, partition 0 (group 0)
    iy_317, = gl.reduce((ix_316_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
    x_260 = (1 + (2 - 1) * 1) * 32  # convert6_ix: stage 1, partition 0 (group 0)
    x_261 = x_260  # convert6_ix: stage 1, partition 0 (group 0)
    x_262 = offs_m_12 + x_261  # convert6_ix: stage 1, partition 0 (group 0)
    k_264 = gl.cast(gl.cast(u_263, gl.int16, bitcast=True) & -32768, u_263.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_265 = gl.cast(gl.cast(k_264, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_266 = k_265 != 0  # convert6_ix: stage 1, partition 0 (group 0)
    k_267 = gl.where(k_266, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
    k_268 = u_263 ^ k_267  # convert6_ix: stage 1, partition 0 (group 0)
    x_269 = gl.cast(gl.cast(k_268, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_270 = x_269 << 16  # convert6_ix: stage 1, partition 0 (group 0)
    x_271 = 256 - x_262  # convert6_ix: stage 1, partition 0 (group 0)
    x_272 = gl.expand_dims(x_271, 0)  # convert6_ix: stage 1, partition 0 (group 0)
    x_273 = x_272.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
    x_274 = x_270 | x_273  # convert6_ix: stage 1, partition 0 (group 0)
    h_275 = gl.convert_layout(gl.reshape(x_274, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L3)  # convert6_ix: stage 1, partition 0 (group 0)
    ix_276 = h_275.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    iy_318 = gl.expand_dims(iy_317, 8)  # convert16_y: stage 2, partition 0 (group 0)
    iy_319 = iy_318.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
    iy_320 = ix_316_p1 ^ iy_319  # convert16_y: stage 2, partition 0 (group 0)
    y_321 = iy_320.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
    iy_277, = gl.reduce((ix_276,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
    ret_322 = gl.cast(ret_315_p1, gl.uint32, bitcast=True) > gl.cast(y_321, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_323 = ret_322.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_324 = ret_323 != ret_112  # convert17_ix: stage 2, partition 0 (group 0)
    ret_325 = gl.where(ret_324, y_321, ret_315_p1)  # convert17_ix: stage 2, partition 0 (group 0)
    ix_326 = ret_325.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    iy_278 = gl.expand_dims(iy_277, 9)  # convert8_y: stage 1, partition 0 (group 0)
    iy_279 = iy_278.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
    iy_280 = ix_276 ^ iy_279  # convert8_y: stage 1, partition 0 (group 0)
    y_281 = iy_280.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
    iy_327, = gl.reduce((ix_326,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
    ret_282 = gl.cast(h_275, gl.uint32, bitcast=True) > gl.cast(y_281, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_283 = ret_282.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_284 = ret_283 != ret_54  # convert9_ix: stage 1, partition 0 (group 0)
    ret_285 = gl.where(ret_284, y_281, h_275)  # convert9_ix: stage 1, partition 0 (group 0)
    ix_286 = ret_285.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    iy_287, = gl.reduce((ix_286,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
    iy_328 = gl.expand_dims(iy_327, 9)  # convert18_y: stage 2, partition 0 (group 0)
    iy_329 = iy_328.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
    iy_330 = ix_326 ^ iy_329  # convert18_y: stage 2, partition 0 (group 0)
    y_331 = iy_330.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
    ret_332 = gl.cast(ret_325, gl.uint32, bitcast=True) > gl.cast(y_331, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_333 = ret_332.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_334 = ret_333 != ret_126  # reduce9_h: stage 2, partition 0 (group 0)
    ret_335 = gl.where(ret_334, y_331, ret_325)  # reduce9_h: stage 2, partition 0 (group 0)
    h_336 = gl.cast(gl.max(gl.cast(ret_335, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    iy_288 = gl.expand_dims(iy_287, 8)  # convert10_y: stage 1, partition 0 (group 0)
    iy_289 = iy_288.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
    iy_290 = ix_286 ^ iy_289  # convert10_y: stage 1, partition 0 (group 0)
    y_291 = iy_290.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
    ret_292 = gl.cast(ret_285, gl.uint32, bitcast=True) > gl.cast(y_291, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_293 = ret_292.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_294 = ret_293 != ret_69  # convert11_ix: stage 1, partition 0 (group 0)
    ret_295 = gl.where(ret_294, y_291, ret_285)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_296 = ret_295.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_337 = h_336.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
    iy_338, = gl.reduce((ix_337,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
    iy_297, = gl.reduce((ix_296,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
    h_226 = gl.convert_layout(gl.reshape(acc_399, [2, 2, 2, 2, 2, 2, 2, 2]), L12)  # convert0_ix: stage 2, partition 0 (group 0)
    ix_227 = h_226.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
    iy_339 = gl.expand_dims(iy_338, 6)  # convert20_y: stage 2, partition 0 (group 0)
    iy_340 = iy_339.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
    iy_341 = ix_337 ^ iy_340  # convert20_y: stage 2, partition 0 (group 0)
    y_342 = iy_341.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
    ret_343 = gl.cast(h_336, gl.uint32, bitcast=True) > gl.cast(y_342, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_344 = ret_343.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_345 = ret_344 != ret_143  # convert21_ix: stage 2, partition 0 (group 0)
    ret_346 = gl.where(ret_345, y_342, h_336)  # convert21_ix: stage 2, partition 0 (group 0)
    ix_347 = ret_346.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    iy_298 = gl.expand_dims(iy_297, 9)  # convert12_y: stage 1, partition 0 (group 0)
    iy_299 = iy_298.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
    iy_300 = ix_296 ^ iy_299  # convert12_y: stage 1, partition 0 (group 0)
    y_301 = iy_300.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
    iy_348, = gl.reduce((ix_347,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
    iy_228, = gl.reduce((ix_227,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
    ret_302 = gl.cast(ret_295, gl.uint32, bitcast=True) > gl.cast(y_301, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_303 = ret_302.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_304 = ret_303 != ret_83  # convert13_ix: stage 1, partition 0 (group 0)
    ret_305 = gl.where(ret_304, y_301, ret_295)  # convert13_ix: stage 1, partition 0 (group 0)
    ix_306 = ret_305.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    iy_229 = gl.expand_dims(iy_228, 5)  # convert1_y: stage 2, partition 0 (group 0)
    iy_230 = iy_229.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
    iy_231 = ix_227 ^ iy_230  # convert1_y: stage 2, partition 0 (group 0)
    y_232 = iy_231.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
    iy_307, = gl.reduce((ix_306,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
    ret_233 = gl.cast(h_226, gl.uint32, bitcast=True) > gl.cast(y_232, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_234 = ret_233.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_235 = ret_234 != ret_220  # convert2_ix: stage 2, partition 0 (group 0)
    ret_236 = gl.where(ret_235, y_232, h_226)  # convert2_ix: stage 2, partition 0 (group 0)
    ix_237 = ret_236.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    iy_238, = gl.reduce((ix_237,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
    iy_349 = gl.expand_dims(iy_348, 7)  # convert22_y: stage 2, partition 0 (group 0)
    iy_350 = iy_349.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
    iy_351 = ix_347 ^ iy_350  # convert22_y: stage 2, partition 0 (group 0)
    y_352 = iy_351.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
    ret_353 = gl.cast(ret_346, gl.uint32, bitcast=True) > gl.cast(y_352, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_354 = ret_353.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_355 = ret_354 != ret_158  # convert23_ix: stage 2, partition 0 (group 0)
    ret_356 = gl.where(ret_355, y_352, ret_346)  # convert23_ix: stage 2, partition 0 (group 0)
    ix_357 = ret_356.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    iy_358, = gl.reduce((ix_357,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
    iy_308 = gl.expand_dims(iy_307, 7)  # convert14_y: stage 1, partition 0 (group 0)
    iy_309 = iy_308.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
    iy_310 = ix_306 ^ iy_309  # convert14_y: stage 1, partition 0 (group 0)
    y_311 = iy_310.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
    iy_239 = gl.expand_dims(iy_238, 6)  # convert3_y: stage 2, partition 0 (group 0)
    iy_240 = iy_239.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
    iy_241 = ix_237 ^ iy_240  # convert3_y: stage 2, partition 0 (group 0)
    y_242 = iy_241.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
    ret_312 = gl.cast(ret_305, gl.uint32, bitcast=True) > gl.cast(y_311, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_313 = ret_312.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_314 = ret_313 != ret_98  # convert15_ix: stage 1, partition 0 (group 0)
    ret_315 = gl.where(ret_314, y_311, ret_305)  # convert15_ix: stage 1, partition 0 (group 0)
    ix_316 = ret_315.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    X_ptrs_258_p1 = X_ptrs_258
    ix_316_p1 = ix_316
    ix_357_p1 = ix_357
    iy_358_p1 = iy_358
    ret_236_p1 = ret_236
    ret_315_p1 = ret_315
    ret_356_p1 = ret_356
    x_259_p1 = x_259
    y_242_p1 = y_242
    for twill_b in range(3, twill_n):
        iy_359 = gl.expand_dims(iy_358_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
        iy_360 = iy_359.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
        iy_361 = ix_357_p1 ^ iy_360  # convert24_y: stage 3, partition 0 (group 0)
        y_362 = iy_361.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
        X_ptrs_258 = X_ptrs_258_p1 + 32  # load0_x: stage 0, partition 0 (group 0)
        x_259 = gl.load(X_ptrs_258, mask=x, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        u_263 = x_259_p1.to(gl.int16, bitcast=True)  # convert7_u: stage 1, partition 0 (group 0)
        ret_363 = gl.cast(ret_356_p1, gl.uint32, bitcast=True) > gl.cast(y_362, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
        ret_364 = ret_363.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
        ret_365 = ret_364 != ret_173  # reduce13_h: stage 3, partition 0 (group 0)
        ret_366 = gl.where(ret_365, y_362, ret_356_p1)  # reduce13_h: stage 3, partition 0 (group 0)
        h_367 = gl.cast(gl.max(gl.cast(ret_366, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
        iy_317, = gl.reduce((ix_316_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
        x_260 = (1 + (twill_b - 1) * 1) * 32  # convert6_ix: stage 1, partition 0 (group 0)
        x_261 = x_260  # convert6_ix: stage 1, partition 0 (group 0)
        x_262 = offs_m_12 + x_261  # convert6_ix: stage 1, partition 0 (group 0)
        k_264 = gl.cast(gl.cast(u_263, gl.int16, bitcast=True) & -32768, u_263.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        k_265 = gl.cast(gl.cast(k_264, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        k_266 = k_265 != 0  # convert6_ix: stage 1, partition 0 (group 0)
        k_267 = gl.where(k_266, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
        k_268 = u_263 ^ k_267  # convert6_ix: stage 1, partition 0 (group 0)
        x_269 = gl.cast(gl.cast(k_268, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        x_270 = x_269 << 16  # convert6_ix: stage 1, partition 0 (group 0)
        x_271 = 256 - x_262  # convert6_ix: stage 1, partition 0 (group 0)
        x_272 = gl.expand_dims(x_271, 0)  # convert6_ix: stage 1, partition 0 (group 0)
        x_273 = x_272.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
        x_274 = x_270 | x_273  # convert6_ix: stage 1, partition 0 (group 0)
        h_275 = gl.convert_layout(gl.reshape(x_274, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L3)  # convert6_ix: stage 1, partition 0 (group 0)
        ix_276 = h_275.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        iy_318 = gl.expand_dims(iy_317, 8)  # convert16_y: stage 2, partition 0 (group 0)
        iy_319 = iy_318.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
        iy_320 = ix_316_p1 ^ iy_319  # convert16_y: stage 2, partition 0 (group 0)
        y_321 = iy_320.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
        ix_368 = h_367.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
        iy_277, = gl.reduce((ix_276,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
        iy_369, = gl.reduce((ix_368,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
        ret_322 = gl.cast(ret_315_p1, gl.uint32, bitcast=True) > gl.cast(y_321, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
        ret_323 = ret_322.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
        ret_324 = ret_323 != ret_112  # convert17_ix: stage 2, partition 0 (group 0)
        ret_325 = gl.where(ret_324, y_321, ret_315_p1)  # convert17_ix: stage 2, partition 0 (group 0)
        ix_326 = ret_325.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
        iy_370 = gl.expand_dims(iy_369, 5)  # convert26_y: stage 3, partition 0 (group 0)
        iy_371 = iy_370.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
        iy_372 = ix_368 ^ iy_371  # convert26_y: stage 3, partition 0 (group 0)
        y_373 = iy_372.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
        iy_278 = gl.expand_dims(iy_277, 9)  # convert8_y: stage 1, partition 0 (group 0)
        iy_279 = iy_278.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
        iy_280 = ix_276 ^ iy_279  # convert8_y: stage 1, partition 0 (group 0)
        y_281 = iy_280.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
        iy_327, = gl.reduce((ix_326,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
        ret_374 = gl.cast(h_367, gl.uint32, bitcast=True) > gl.cast(y_373, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
        ret_375 = ret_374.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
        ret_376 = ret_375 != ret_188  # convert27_ix: stage 3, partition 0 (group 0)
        ret_377 = gl.where(ret_376, y_373, h_367)  # convert27_ix: stage 3, partition 0 (group 0)
        ix_378 = ret_377.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
        iy_379, = gl.reduce((ix_378,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
        ret_282 = gl.cast(h_275, gl.uint32, bitcast=True) > gl.cast(y_281, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
        ret_283 = ret_282.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
        ret_284 = ret_283 != ret_54  # convert9_ix: stage 1, partition 0 (group 0)
        ret_285 = gl.where(ret_284, y_281, h_275)  # convert9_ix: stage 1, partition 0 (group 0)
        ix_286 = ret_285.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
        iy_287, = gl.reduce((ix_286,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
        iy_328 = gl.expand_dims(iy_327, 9)  # convert18_y: stage 2, partition 0 (group 0)
        iy_329 = iy_328.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
        iy_330 = ix_326 ^ iy_329  # convert18_y: stage 2, partition 0 (group 0)
        y_331 = iy_330.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
        ret_332 = gl.cast(ret_325, gl.uint32, bitcast=True) > gl.cast(y_331, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
        ret_333 = ret_332.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
        ret_334 = ret_333 != ret_126  # reduce9_h: stage 2, partition 0 (group 0)
        ret_335 = gl.where(ret_334, y_331, ret_325)  # reduce9_h: stage 2, partition 0 (group 0)
        h_336 = gl.cast(gl.max(gl.cast(ret_335, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
        iy_380 = gl.expand_dims(iy_379, 6)  # convert28_y: stage 3, partition 0 (group 0)
        iy_381 = iy_380.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
        iy_382 = ix_378 ^ iy_381  # convert28_y: stage 3, partition 0 (group 0)
        y_383 = iy_382.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
        ret_384 = gl.cast(ret_377, gl.uint32, bitcast=True) > gl.cast(y_383, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
        ret_385 = ret_384.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
        ret_386 = ret_385 != ret_202  # convert29_ix: stage 3, partition 0 (group 0)
        ret_387 = gl.where(ret_386, y_383, ret_377)  # convert29_ix: stage 3, partition 0 (group 0)
        ix_388 = ret_387.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
        ret_243 = gl.cast(ret_236_p1, gl.uint32, bitcast=True) > gl.cast(y_242_p1, gl.uint32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
        ret_244 = ret_243.to(gl.int32)  # convert4_ix: stage 3, partition 0 (group 0)
        ret_245 = ret_244 != ret_221  # convert4_ix: stage 3, partition 0 (group 0)
        ret_246 = gl.where(ret_245, y_242_p1, ret_236_p1)  # convert4_ix: stage 3, partition 0 (group 0)
        ix_247 = ret_246.to(gl.int32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
        iy_288 = gl.expand_dims(iy_287, 8)  # convert10_y: stage 1, partition 0 (group 0)
        iy_289 = iy_288.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
        iy_290 = ix_286 ^ iy_289  # convert10_y: stage 1, partition 0 (group 0)
        y_291 = iy_290.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
        iy_389, = gl.reduce((ix_388,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
        iy_248, = gl.reduce((ix_247,), 7, twill_combine_a2078901)  # reduce2_iy: stage 3, partition 0 (group 0)
        ret_292 = gl.cast(ret_285, gl.uint32, bitcast=True) > gl.cast(y_291, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
        ret_293 = ret_292.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
        ret_294 = ret_293 != ret_69  # convert11_ix: stage 1, partition 0 (group 0)
        ret_295 = gl.where(ret_294, y_291, ret_285)  # convert11_ix: stage 1, partition 0 (group 0)
        ix_296 = ret_295.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
        ix_337 = h_336.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
        iy_338, = gl.reduce((ix_337,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
        iy_390 = gl.expand_dims(iy_389, 7)  # convert30_y: stage 3, partition 0 (group 0)
        iy_391 = iy_390.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
        iy_392 = ix_388 ^ iy_391  # convert30_y: stage 3, partition 0 (group 0)
        y_393 = iy_392.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
        iy_249 = gl.expand_dims(iy_248, 7)  # convert5_y: stage 3, partition 0 (group 0)
        iy_250 = iy_249.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 3, partition 0 (group 0)
        iy_251 = ix_247 ^ iy_250  # convert5_y: stage 3, partition 0 (group 0)
        y_252 = iy_251.to(gl.int32, bitcast=True)  # convert5_y: stage 3, partition 0 (group 0)
        iy_297, = gl.reduce((ix_296,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
        ret_253 = gl.cast(ret_246, gl.uint32, bitcast=True) > gl.cast(y_252, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_254 = ret_253.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_255 = ret_254 != ret_222  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_256 = gl.where(ret_255, y_252, ret_246)  # broadcast0_acc: stage 3, partition 0 (group 0)
        x_257 = gl.convert_layout(gl.reshape(ret_256, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_394 = gl.cast(ret_387, gl.uint32, bitcast=True) > gl.cast(y_393, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_395 = ret_394.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_396 = ret_395 != ret_216  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_397 = gl.where(ret_396, y_393, ret_387)  # broadcast0_acc: stage 3, partition 0 (group 0)
        x_398 = gl.convert_layout(gl.reshape(ret_397, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
        acc_399 = gl.cast(gl.maximum(gl.cast(x_257, gl.uint32, bitcast=True), gl.cast(x_398, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
        h_226 = gl.convert_layout(gl.reshape(acc_399, [2, 2, 2, 2, 2, 2, 2, 2]), L12)  # convert0_ix: stage 2, partition 0 (group 0)
        ix_227 = h_226.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
        iy_339 = gl.expand_dims(iy_338, 6)  # convert20_y: stage 2, partition 0 (group 0)
        iy_340 = iy_339.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
        iy_341 = ix_337 ^ iy_340  # convert20_y: stage 2, partition 0 (group 0)
        y_342 = iy_341.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
        ret_343 = gl.cast(h_336, gl.uint32, bitcast=True) > gl.cast(y_342, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
        ret_344 = ret_343.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
        ret_345 = ret_344 != ret_143  # convert21_ix: stage 2, partition 0 (group 0)
        ret_346 = gl.where(ret_345, y_342, h_336)  # convert21_ix: stage 2, partition 0 (group 0)
        ix_347 = ret_346.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
        iy_298 = gl.expand_dims(iy_297, 9)  # convert12_y: stage 1, partition 0 (group 0)
        iy_299 = iy_298.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
        iy_300 = ix_296 ^ iy_299  # convert12_y: stage 1, partition 0 (group 0)
        y_301 = iy_300.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
        iy_348, = gl.reduce((ix_347,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
        iy_228, = gl.reduce((ix_227,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
        ret_302 = gl.cast(ret_295, gl.uint32, bitcast=True) > gl.cast(y_301, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
        ret_303 = ret_302.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
        ret_304 = ret_303 != ret_83  # convert13_ix: stage 1, partition 0 (group 0)
        ret_305 = gl.where(ret_304, y_301, ret_295)  # convert13_ix: stage 1, partition 0 (group 0)
        ix_306 = ret_305.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
        iy_229 = gl.expand_dims(iy_228, 5)  # convert1_y: stage 2, partition 0 (group 0)
        iy_230 = iy_229.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
        iy_231 = ix_227 ^ iy_230  # convert1_y: stage 2, partition 0 (group 0)
        y_232 = iy_231.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
        iy_307, = gl.reduce((ix_306,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
        ret_233 = gl.cast(h_226, gl.uint32, bitcast=True) > gl.cast(y_232, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
        ret_234 = ret_233.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
        ret_235 = ret_234 != ret_220  # convert2_ix: stage 2, partition 0 (group 0)
        ret_236 = gl.where(ret_235, y_232, h_226)  # convert2_ix: stage 2, partition 0 (group 0)
        ix_237 = ret_236.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
        iy_238, = gl.reduce((ix_237,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
        iy_349 = gl.expand_dims(iy_348, 7)  # convert22_y: stage 2, partition 0 (group 0)
        iy_350 = iy_349.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
        iy_351 = ix_347 ^ iy_350  # convert22_y: stage 2, partition 0 (group 0)
        y_352 = iy_351.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
        ret_353 = gl.cast(ret_346, gl.uint32, bitcast=True) > gl.cast(y_352, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
        ret_354 = ret_353.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
        ret_355 = ret_354 != ret_158  # convert23_ix: stage 2, partition 0 (group 0)
        ret_356 = gl.where(ret_355, y_352, ret_346)  # convert23_ix: stage 2, partition 0 (group 0)
        ix_357 = ret_356.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
        iy_358, = gl.reduce((ix_357,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
        iy_308 = gl.expand_dims(iy_307, 7)  # convert14_y: stage 1, partition 0 (group 0)
        iy_309 = iy_308.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
        iy_310 = ix_306 ^ iy_309  # convert14_y: stage 1, partition 0 (group 0)
        y_311 = iy_310.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
        iy_239 = gl.expand_dims(iy_238, 6)  # convert3_y: stage 2, partition 0 (group 0)
        iy_240 = iy_239.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
        iy_241 = ix_237 ^ iy_240  # convert3_y: stage 2, partition 0 (group 0)
        y_242 = iy_241.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
        ret_312 = gl.cast(ret_305, gl.uint32, bitcast=True) > gl.cast(y_311, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
        ret_313 = ret_312.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
        ret_314 = ret_313 != ret_98  # convert15_ix: stage 1, partition 0 (group 0)
        ret_315 = gl.where(ret_314, y_311, ret_305)  # convert15_ix: stage 1, partition 0 (group 0)
        ix_316 = ret_315.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
        X_ptrs_258_p1 = X_ptrs_258
        ix_316_p1 = ix_316
        ix_357_p1 = ix_357
        iy_358_p1 = iy_358
        ret_236_p1 = ret_236
        ret_315_p1 = ret_315
        ret_356_p1 = ret_356
        x_259_p1 = x_259
        y_242_p1 = y_242
    iy_359 = gl.expand_dims(iy_358_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
    iy_360 = iy_359.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
    iy_361 = ix_357_p1 ^ iy_360  # convert24_y: stage 3, partition 0 (group 0)
    y_362 = iy_361.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
    u_263 = x_259_p1.to(gl.int16, bitcast=True)  # convert7_u: stage 1, partition 0 (group 0)
    ret_363 = gl.cast(ret_356_p1, gl.uint32, bitcast=True) > gl.cast(y_362, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_364 = ret_363.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_365 = ret_364 != ret_173  # reduce13_h: stage 3, partition 0 (group 0)
    ret_366 = gl.where(ret_365, y_362, ret_356_p1)  # reduce13_h: stage 3, partition 0 (group 0)
    h_367 = gl.cast(gl.max(gl.cast(ret_366, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    iy_317, = gl.reduce((ix_316_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
    x_260 = (1 + ((twill_n - 1 + 1) - 1) * 1) * 32  # convert6_ix: stage 1, partition 0 (group 0)
    x_261 = x_260  # convert6_ix: stage 1, partition 0 (group 0)
    x_262 = offs_m_12 + x_261  # convert6_ix: stage 1, partition 0 (group 0)
    k_264 = gl.cast(gl.cast(u_263, gl.int16, bitcast=True) & -32768, u_263.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_265 = gl.cast(gl.cast(k_264, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_266 = k_265 != 0  # convert6_ix: stage 1, partition 0 (group 0)
    k_267 = gl.where(k_266, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
    k_268 = u_263 ^ k_267  # convert6_ix: stage 1, partition 0 (group 0)
    x_269 = gl.cast(gl.cast(k_268, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_270 = x_269 << 16  # convert6_ix: stage 1, partition 0 (group 0)
    x_271 = 256 - x_262  # convert6_ix: stage 1, partition 0 (group 0)
    x_272 = gl.expand_dims(x_271, 0)  # convert6_ix: stage 1, partition 0 (group 0)
    x_273 = x_272.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
    x_274 = x_270 | x_273  # convert6_ix: stage 1, partition 0 (group 0)
    h_275 = gl.convert_layout(gl.reshape(x_274, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L3)  # convert6_ix: stage 1, partition 0 (group 0)
    ix_276 = h_275.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    iy_318 = gl.expand_dims(iy_317, 8)  # convert16_y: stage 2, partition 0 (group 0)
    iy_319 = iy_318.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
    iy_320 = ix_316_p1 ^ iy_319  # convert16_y: stage 2, partition 0 (group 0)
    y_321 = iy_320.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
    ix_368 = h_367.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
    iy_277, = gl.reduce((ix_276,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
    iy_369, = gl.reduce((ix_368,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
    ret_322 = gl.cast(ret_315_p1, gl.uint32, bitcast=True) > gl.cast(y_321, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_323 = ret_322.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_324 = ret_323 != ret_112  # convert17_ix: stage 2, partition 0 (group 0)
    ret_325 = gl.where(ret_324, y_321, ret_315_p1)  # convert17_ix: stage 2, partition 0 (group 0)
    ix_326 = ret_325.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    iy_370 = gl.expand_dims(iy_369, 5)  # convert26_y: stage 3, partition 0 (group 0)
    iy_371 = iy_370.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
    iy_372 = ix_368 ^ iy_371  # convert26_y: stage 3, partition 0 (group 0)
    y_373 = iy_372.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
    iy_278 = gl.expand_dims(iy_277, 9)  # convert8_y: stage 1, partition 0 (group 0)
    iy_279 = iy_278.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
    iy_280 = ix_276 ^ iy_279  # convert8_y: stage 1, partition 0 (group 0)
    y_281 = iy_280.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
    iy_327, = gl.reduce((ix_326,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
    ret_374 = gl.cast(h_367, gl.uint32, bitcast=True) > gl.cast(y_373, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_375 = ret_374.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_376 = ret_375 != ret_188  # convert27_ix: stage 3, partition 0 (group 0)
    ret_377 = gl.where(ret_376, y_373, h_367)  # convert27_ix: stage 3, partition 0 (group 0)
    ix_378 = ret_377.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    iy_379, = gl.reduce((ix_378,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
    ret_282 = gl.cast(h_275, gl.uint32, bitcast=True) > gl.cast(y_281, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_283 = ret_282.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_284 = ret_283 != ret_54  # convert9_ix: stage 1, partition 0 (group 0)
    ret_285 = gl.where(ret_284, y_281, h_275)  # convert9_ix: stage 1, partition 0 (group 0)
    ix_286 = ret_285.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    iy_287, = gl.reduce((ix_286,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
    iy_328 = gl.expand_dims(iy_327, 9)  # convert18_y: stage 2, partition 0 (group 0)
    iy_329 = iy_328.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
    iy_330 = ix_326 ^ iy_329  # convert18_y: stage 2, partition 0 (group 0)
    y_331 = iy_330.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
    ret_332 = gl.cast(ret_325, gl.uint32, bitcast=True) > gl.cast(y_331, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_333 = ret_332.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_334 = ret_333 != ret_126  # reduce9_h: stage 2, partition 0 (group 0)
    ret_335 = gl.where(ret_334, y_331, ret_325)  # reduce9_h: stage 2, partition 0 (group 0)
    h_336 = gl.cast(gl.max(gl.cast(ret_335, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    iy_380 = gl.expand_dims(iy_379, 6)  # convert28_y: stage 3, partition 0 (group 0)
    iy_381 = iy_380.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
    iy_382 = ix_378 ^ iy_381  # convert28_y: stage 3, partition 0 (group 0)
    y_383 = iy_382.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
    ret_384 = gl.cast(ret_377, gl.uint32, bitcast=True) > gl.cast(y_383, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_385 = ret_384.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_386 = ret_385 != ret_202  # convert29_ix: stage 3, partition 0 (group 0)
    ret_387 = gl.where(ret_386, y_383, ret_377)  # convert29_ix: stage 3, partition 0 (group 0)
    ix_388 = ret_387.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_243 = gl.cast(ret_236_p1, gl.uint32, bitcast=True) > gl.cast(y_242_p1, gl.uint32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_244 = ret_243.to(gl.int32)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_245 = ret_244 != ret_221  # convert4_ix: stage 3, partition 0 (group 0)
    ret_246 = gl.where(ret_245, y_242_p1, ret_236_p1)  # convert4_ix: stage 3, partition 0 (group 0)
    ix_247 = ret_246.to(gl.int32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    iy_288 = gl.expand_dims(iy_287, 8)  # convert10_y: stage 1, partition 0 (group 0)
    iy_289 = iy_288.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
    iy_290 = ix_286 ^ iy_289  # convert10_y: stage 1, partition 0 (group 0)
    y_291 = iy_290.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
    iy_389, = gl.reduce((ix_388,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
    iy_248, = gl.reduce((ix_247,), 7, twill_combine_a2078901)  # reduce2_iy: stage 3, partition 0 (group 0)
    ret_292 = gl.cast(ret_285, gl.uint32, bitcast=True) > gl.cast(y_291, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_293 = ret_292.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_294 = ret_293 != ret_69  # convert11_ix: stage 1, partition 0 (group 0)
    ret_295 = gl.where(ret_294, y_291, ret_285)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_296 = ret_295.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_337 = h_336.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
    iy_338, = gl.reduce((ix_337,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
    iy_390 = gl.expand_dims(iy_389, 7)  # convert30_y: stage 3, partition 0 (group 0)
    iy_391 = iy_390.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
    iy_392 = ix_388 ^ iy_391  # convert30_y: stage 3, partition 0 (group 0)
    y_393 = iy_392.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
    iy_249 = gl.expand_dims(iy_248, 7)  # convert5_y: stage 3, partition 0 (group 0)
    iy_250 = iy_249.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 3, partition 0 (group 0)
    iy_251 = ix_247 ^ iy_250  # convert5_y: stage 3, partition 0 (group 0)
    y_252 = iy_251.to(gl.int32, bitcast=True)  # convert5_y: stage 3, partition 0 (group 0)
    iy_297, = gl.reduce((ix_296,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
    ret_253 = gl.cast(ret_246, gl.uint32, bitcast=True) > gl.cast(y_252, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_254 = ret_253.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_255 = ret_254 != ret_222  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_256 = gl.where(ret_255, y_252, ret_246)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_257 = gl.convert_layout(gl.reshape(ret_256, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_394 = gl.cast(ret_387, gl.uint32, bitcast=True) > gl.cast(y_393, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_395 = ret_394.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_396 = ret_395 != ret_216  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_397 = gl.where(ret_396, y_393, ret_387)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_398 = gl.convert_layout(gl.reshape(ret_397, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    acc_399 = gl.cast(gl.maximum(gl.cast(x_257, gl.uint32, bitcast=True), gl.cast(x_398, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    h_226 = gl.convert_layout(gl.reshape(acc_399, [2, 2, 2, 2, 2, 2, 2, 2]), L12)  # convert0_ix: stage 2, partition 0 (group 0)
    ix_227 = h_226.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
    iy_339 = gl.expand_dims(iy_338, 6)  # convert20_y: stage 2, partition 0 (group 0)
    iy_340 = iy_339.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
    iy_341 = ix_337 ^ iy_340  # convert20_y: stage 2, partition 0 (group 0)
    y_342 = iy_341.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
    ret_343 = gl.cast(h_336, gl.uint32, bitcast=True) > gl.cast(y_342, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_344 = ret_343.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_345 = ret_344 != ret_143  # convert21_ix: stage 2, partition 0 (group 0)
    ret_346 = gl.where(ret_345, y_342, h_336)  # convert21_ix: stage 2, partition 0 (group 0)
    ix_347 = ret_346.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    iy_298 = gl.expand_dims(iy_297, 9)  # convert12_y: stage 1, partition 0 (group 0)
    iy_299 = iy_298.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
    iy_300 = ix_296 ^ iy_299  # convert12_y: stage 1, partition 0 (group 0)
    y_301 = iy_300.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
    iy_348, = gl.reduce((ix_347,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
    iy_228, = gl.reduce((ix_227,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
    ret_302 = gl.cast(ret_295, gl.uint32, bitcast=True) > gl.cast(y_301, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_303 = ret_302.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_304 = ret_303 != ret_83  # convert13_ix: stage 1, partition 0 (group 0)
    ret_305 = gl.where(ret_304, y_301, ret_295)  # convert13_ix: stage 1, partition 0 (group 0)
    ix_306 = ret_305.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    iy_229 = gl.expand_dims(iy_228, 5)  # convert1_y: stage 2, partition 0 (group 0)
    iy_230 = iy_229.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
    iy_231 = ix_227 ^ iy_230  # convert1_y: stage 2, partition 0 (group 0)
    y_232 = iy_231.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
    iy_307, = gl.reduce((ix_306,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
    ret_233 = gl.cast(h_226, gl.uint32, bitcast=True) > gl.cast(y_232, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_234 = ret_233.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_235 = ret_234 != ret_220  # convert2_ix: stage 2, partition 0 (group 0)
    ret_236 = gl.where(ret_235, y_232, h_226)  # convert2_ix: stage 2, partition 0 (group 0)
    ix_237 = ret_236.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    iy_238, = gl.reduce((ix_237,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
    iy_349 = gl.expand_dims(iy_348, 7)  # convert22_y: stage 2, partition 0 (group 0)
    iy_350 = iy_349.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
    iy_351 = ix_347 ^ iy_350  # convert22_y: stage 2, partition 0 (group 0)
    y_352 = iy_351.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
    ret_353 = gl.cast(ret_346, gl.uint32, bitcast=True) > gl.cast(y_352, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_354 = ret_353.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_355 = ret_354 != ret_158  # convert23_ix: stage 2, partition 0 (group 0)
    ret_356 = gl.where(ret_355, y_352, ret_346)  # convert23_ix: stage 2, partition 0 (group 0)
    ix_357 = ret_356.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    iy_358, = gl.reduce((ix_357,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
    iy_308 = gl.expand_dims(iy_307, 7)  # convert14_y: stage 1, partition 0 (group 0)
    iy_309 = iy_308.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
    iy_310 = ix_306 ^ iy_309  # convert14_y: stage 1, partition 0 (group 0)
    y_311 = iy_310.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
    iy_239 = gl.expand_dims(iy_238, 6)  # convert3_y: stage 2, partition 0 (group 0)
    iy_240 = iy_239.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
    iy_241 = ix_237 ^ iy_240  # convert3_y: stage 2, partition 0 (group 0)
    y_242 = iy_241.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
    ret_312 = gl.cast(ret_305, gl.uint32, bitcast=True) > gl.cast(y_311, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_313 = ret_312.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_314 = ret_313 != ret_98  # convert15_ix: stage 1, partition 0 (group 0)
    ret_315 = gl.where(ret_314, y_311, ret_305)  # convert15_ix: stage 1, partition 0 (group 0)
    ix_316 = ret_315.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    X_ptrs_258_p2 = X_ptrs_258_p1
    X_ptrs_258_p1 = X_ptrs_258
    acc_399_p1 = acc_399
    ix_316_p1 = ix_316
    ix_357_p1 = ix_357
    iy_358_p1 = iy_358
    ret_236_p1 = ret_236
    ret_315_p1 = ret_315
    ret_356_p1 = ret_356
    x_259_p1 = x_259
    y_242_p1 = y_242
    iy_359 = gl.expand_dims(iy_358_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
    iy_360 = iy_359.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
    iy_361 = ix_357_p1 ^ iy_360  # convert24_y: stage 3, partition 0 (group 0)
    y_362 = iy_361.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
    ret_363 = gl.cast(ret_356_p1, gl.uint32, bitcast=True) > gl.cast(y_362, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_364 = ret_363.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_365 = ret_364 != ret_173  # reduce13_h: stage 3, partition 0 (group 0)
    ret_366 = gl.where(ret_365, y_362, ret_356_p1)  # reduce13_h: stage 3, partition 0 (group 0)
    h_367 = gl.cast(gl.max(gl.cast(ret_366, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    iy_317, = gl.reduce((ix_316_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
    iy_318 = gl.expand_dims(iy_317, 8)  # convert16_y: stage 2, partition 0 (group 0)
    iy_319 = iy_318.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
    iy_320 = ix_316_p1 ^ iy_319  # convert16_y: stage 2, partition 0 (group 0)
    y_321 = iy_320.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
    ix_368 = h_367.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
    iy_369, = gl.reduce((ix_368,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
    ret_322 = gl.cast(ret_315_p1, gl.uint32, bitcast=True) > gl.cast(y_321, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_323 = ret_322.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_324 = ret_323 != ret_112  # convert17_ix: stage 2, partition 0 (group 0)
    ret_325 = gl.where(ret_324, y_321, ret_315_p1)  # convert17_ix: stage 2, partition 0 (group 0)
    ix_326 = ret_325.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    iy_370 = gl.expand_dims(iy_369, 5)  # convert26_y: stage 3, partition 0 (group 0)
    iy_371 = iy_370.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
    iy_372 = ix_368 ^ iy_371  # convert26_y: stage 3, partition 0 (group 0)
    y_373 = iy_372.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
    iy_327, = gl.reduce((ix_326,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
    ret_374 = gl.cast(h_367, gl.uint32, bitcast=True) > gl.cast(y_373, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_375 = ret_374.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_376 = ret_375 != ret_188  # convert27_ix: stage 3, partition 0 (group 0)
    ret_377 = gl.where(ret_376, y_373, h_367)  # convert27_ix: stage 3, partition 0 (group 0)
    ix_378 = ret_377.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    iy_379, = gl.reduce((ix_378,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
    iy_328 = gl.expand_dims(iy_327, 9)  # convert18_y: stage 2, partition 0 (group 0)
    iy_329 = iy_328.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
    iy_330 = ix_326 ^ iy_329  # convert18_y: stage 2, partition 0 (group 0)
    y_331 = iy_330.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
    ret_332 = gl.cast(ret_325, gl.uint32, bitcast=True) > gl.cast(y_331, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_333 = ret_332.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_334 = ret_333 != ret_126  # reduce9_h: stage 2, partition 0 (group 0)
    ret_335 = gl.where(ret_334, y_331, ret_325)  # reduce9_h: stage 2, partition 0 (group 0)
    h_336 = gl.cast(gl.max(gl.cast(ret_335, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    iy_380 = gl.expand_dims(iy_379, 6)  # convert28_y: stage 3, partition 0 (group 0)
    iy_381 = iy_380.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
    iy_382 = ix_378 ^ iy_381  # convert28_y: stage 3, partition 0 (group 0)
    y_383 = iy_382.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
    ret_384 = gl.cast(ret_377, gl.uint32, bitcast=True) > gl.cast(y_383, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_385 = ret_384.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_386 = ret_385 != ret_202  # convert29_ix: stage 3, partition 0 (group 0)
    ret_387 = gl.where(ret_386, y_383, ret_377)  # convert29_ix: stage 3, partition 0 (group 0)
    ix_388 = ret_387.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_243 = gl.cast(ret_236_p1, gl.uint32, bitcast=True) > gl.cast(y_242_p1, gl.uint32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_244 = ret_243.to(gl.int32)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_245 = ret_244 != ret_221  # convert4_ix: stage 3, partition 0 (group 0)
    ret_246 = gl.where(ret_245, y_242_p1, ret_236_p1)  # convert4_ix: stage 3, partition 0 (group 0)
    ix_247 = ret_246.to(gl.int32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    iy_389, = gl.reduce((ix_388,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
    iy_248, = gl.reduce((ix_247,), 7, twill_combine_a2078901)  # reduce2_iy: stage 3, partition 0 (group 0)
    ix_337 = h_336.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
    iy_338, = gl.reduce((ix_337,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
    iy_390 = gl.expand_dims(iy_389, 7)  # convert30_y: stage 3, partition 0 (group 0)
    iy_391 = iy_390.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
    iy_392 = ix_388 ^ iy_391  # convert30_y: stage 3, partition 0 (group 0)
    y_393 = iy_392.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
    iy_249 = gl.expand_dims(iy_248, 7)  # convert5_y: stage 3, partition 0 (group 0)
    iy_250 = iy_249.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 3, partition 0 (group 0)
    iy_251 = ix_247 ^ iy_250  # convert5_y: stage 3, partition 0 (group 0)
    y_252 = iy_251.to(gl.int32, bitcast=True)  # convert5_y: stage 3, partition 0 (group 0)
    ret_253 = gl.cast(ret_246, gl.uint32, bitcast=True) > gl.cast(y_252, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_254 = ret_253.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_255 = ret_254 != ret_222  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_256 = gl.where(ret_255, y_252, ret_246)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_257 = gl.convert_layout(gl.reshape(ret_256, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_394 = gl.cast(ret_387, gl.uint32, bitcast=True) > gl.cast(y_393, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_395 = ret_394.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_396 = ret_395 != ret_216  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_397 = gl.where(ret_396, y_393, ret_387)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_398 = gl.convert_layout(gl.reshape(ret_397, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    acc_399 = gl.cast(gl.maximum(gl.cast(x_257, gl.uint32, bitcast=True), gl.cast(x_398, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    h_226 = gl.convert_layout(gl.reshape(acc_399, [2, 2, 2, 2, 2, 2, 2, 2]), L12)  # convert0_ix: stage 2, partition 0 (group 0)
    ix_227 = h_226.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
    iy_339 = gl.expand_dims(iy_338, 6)  # convert20_y: stage 2, partition 0 (group 0)
    iy_340 = iy_339.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
    iy_341 = ix_337 ^ iy_340  # convert20_y: stage 2, partition 0 (group 0)
    y_342 = iy_341.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
    ret_343 = gl.cast(h_336, gl.uint32, bitcast=True) > gl.cast(y_342, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_344 = ret_343.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_345 = ret_344 != ret_143  # convert21_ix: stage 2, partition 0 (group 0)
    ret_346 = gl.where(ret_345, y_342, h_336)  # convert21_ix: stage 2, partition 0 (group 0)
    ix_347 = ret_346.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    iy_348, = gl.reduce((ix_347,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
    iy_228, = gl.reduce((ix_227,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
    iy_229 = gl.expand_dims(iy_228, 5)  # convert1_y: stage 2, partition 0 (group 0)
    iy_230 = iy_229.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
    iy_231 = ix_227 ^ iy_230  # convert1_y: stage 2, partition 0 (group 0)
    y_232 = iy_231.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
    ret_233 = gl.cast(h_226, gl.uint32, bitcast=True) > gl.cast(y_232, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_234 = ret_233.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_235 = ret_234 != ret_220  # convert2_ix: stage 2, partition 0 (group 0)
    ret_236 = gl.where(ret_235, y_232, h_226)  # convert2_ix: stage 2, partition 0 (group 0)
    ix_237 = ret_236.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    iy_238, = gl.reduce((ix_237,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
    iy_349 = gl.expand_dims(iy_348, 7)  # convert22_y: stage 2, partition 0 (group 0)
    iy_350 = iy_349.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
    iy_351 = ix_347 ^ iy_350  # convert22_y: stage 2, partition 0 (group 0)
    y_352 = iy_351.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
    ret_353 = gl.cast(ret_346, gl.uint32, bitcast=True) > gl.cast(y_352, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_354 = ret_353.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_355 = ret_354 != ret_158  # convert23_ix: stage 2, partition 0 (group 0)
    ret_356 = gl.where(ret_355, y_352, ret_346)  # convert23_ix: stage 2, partition 0 (group 0)
    ix_357 = ret_356.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    iy_358, = gl.reduce((ix_357,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
    iy_239 = gl.expand_dims(iy_238, 6)  # convert3_y: stage 2, partition 0 (group 0)
    iy_240 = iy_239.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
    iy_241 = ix_237 ^ iy_240  # convert3_y: stage 2, partition 0 (group 0)
    y_242 = iy_241.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
    X_ptrs_258_p3 = X_ptrs_258_p2
    X_ptrs_258_p2 = X_ptrs_258_p1
    X_ptrs_258_p1 = X_ptrs_258
    acc_399_p1 = acc_399
    ix_316_p1 = ix_316
    ix_357_p1 = ix_357
    iy_358_p1 = iy_358
    ret_236_p1 = ret_236
    ret_315_p1 = ret_315
    ret_356_p1 = ret_356
    x_259_p1 = x_259
    y_242_p1 = y_242
    iy_359 = gl.expand_dims(iy_358_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
    iy_360 = iy_359.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
    iy_361 = ix_357_p1 ^ iy_360  # convert24_y: stage 3, partition 0 (group 0)
    y_362 = iy_361.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
    ret_363 = gl.cast(ret_356_p1, gl.uint32, bitcast=True) > gl.cast(y_362, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_364 = ret_363.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_365 = ret_364 != ret_173  # reduce13_h: stage 3, partition 0 (group 0)
    ret_366 = gl.where(ret_365, y_362, ret_356_p1)  # reduce13_h: stage 3, partition 0 (group 0)
    h_367 = gl.cast(gl.max(gl.cast(ret_366, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ix_368 = h_367.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
    iy_369, = gl.reduce((ix_368,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
    iy_370 = gl.expand_dims(iy_369, 5)  # convert26_y: stage 3, partition 0 (group 0)
    iy_371 = iy_370.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
    iy_372 = ix_368 ^ iy_371  # convert26_y: stage 3, partition 0 (group 0)
    y_373 = iy_372.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
    ret_374 = gl.cast(h_367, gl.uint32, bitcast=True) > gl.cast(y_373, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_375 = ret_374.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_376 = ret_375 != ret_188  # convert27_ix: stage 3, partition 0 (group 0)
    ret_377 = gl.where(ret_376, y_373, h_367)  # convert27_ix: stage 3, partition 0 (group 0)
    ix_378 = ret_377.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    iy_379, = gl.reduce((ix_378,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
    iy_380 = gl.expand_dims(iy_379, 6)  # convert28_y: stage 3, partition 0 (group 0)
    iy_381 = iy_380.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
    iy_382 = ix_378 ^ iy_381  # convert28_y: stage 3, partition 0 (group 0)
    y_383 = iy_382.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
    ret_384 = gl.cast(ret_377, gl.uint32, bitcast=True) > gl.cast(y_383, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_385 = ret_384.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_386 = ret_385 != ret_202  # convert29_ix: stage 3, partition 0 (group 0)
    ret_387 = gl.where(ret_386, y_383, ret_377)  # convert29_ix: stage 3, partition 0 (group 0)
    ix_388 = ret_387.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_243 = gl.cast(ret_236_p1, gl.uint32, bitcast=True) > gl.cast(y_242_p1, gl.uint32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_244 = ret_243.to(gl.int32)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_245 = ret_244 != ret_221  # convert4_ix: stage 3, partition 0 (group 0)
    ret_246 = gl.where(ret_245, y_242_p1, ret_236_p1)  # convert4_ix: stage 3, partition 0 (group 0)
    ix_247 = ret_246.to(gl.int32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    iy_389, = gl.reduce((ix_388,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
    iy_248, = gl.reduce((ix_247,), 7, twill_combine_a2078901)  # reduce2_iy: stage 3, partition 0 (group 0)
    iy_390 = gl.expand_dims(iy_389, 7)  # convert30_y: stage 3, partition 0 (group 0)
    iy_391 = iy_390.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
    iy_392 = ix_388 ^ iy_391  # convert30_y: stage 3, partition 0 (group 0)
    y_393 = iy_392.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
    iy_249 = gl.expand_dims(iy_248, 7)  # convert5_y: stage 3, partition 0 (group 0)
    iy_250 = iy_249.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 3, partition 0 (group 0)
    iy_251 = ix_247 ^ iy_250  # convert5_y: stage 3, partition 0 (group 0)
    y_252 = iy_251.to(gl.int32, bitcast=True)  # convert5_y: stage 3, partition 0 (group 0)
    ret_253 = gl.cast(ret_246, gl.uint32, bitcast=True) > gl.cast(y_252, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_254 = ret_253.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_255 = ret_254 != ret_222  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_256 = gl.where(ret_255, y_252, ret_246)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_257 = gl.convert_layout(gl.reshape(ret_256, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_394 = gl.cast(ret_387, gl.uint32, bitcast=True) > gl.cast(y_393, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_395 = ret_394.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_396 = ret_395 != ret_216  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_397 = gl.where(ret_396, y_393, ret_387)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_398 = gl.convert_layout(gl.reshape(ret_397, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    acc_399 = gl.cast(gl.maximum(gl.cast(x_257, gl.uint32, bitcast=True), gl.cast(x_398, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    X_ptrs_258_p4 = X_ptrs_258_p3
    X_ptrs_258_p3 = X_ptrs_258_p2
    X_ptrs_258_p2 = X_ptrs_258_p1
    X_ptrs_258_p1 = X_ptrs_258
    acc_399_p1 = acc_399
    ix_316_p1 = ix_316
    ix_357_p1 = ix_357
    iy_358_p1 = iy_358
    ret_236_p1 = ret_236
    ret_315_p1 = ret_315
    ret_356_p1 = ret_356
    x_259_p1 = x_259
    y_242_p1 = y_242
    v0 = mask_m_17 * 8
    v2 = Y + v0
    v3 = gl.arange(0, 8, layout=L14)
    v4 = gl.expand_dims(v3, 0)
    v5 = v2.broadcast_to([32, 8])
    v6 = v4.broadcast_to([32, 8])
    v7 = v5 + v6
    v8 = acc_399_p1.to(gl.int32, bitcast=True)
    v9 = mask_m_21.broadcast_to([32, 8])
    v10 = gl.convert_layout(v8, L15)
    gl.store(v7, v10, mask=v9)

@gluon.jit
def twill_kernel(X, Y, stride_xm, n_rows):
    consumer_0(X, Y, stride_xm, n_rows, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'Y', 'stride_xm', 'n_rows', 'MODE', 'BLOCK_M', 'BLOCK_N', 'N_PAD', 'K']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'Y', 'stride_xm', 'n_rows']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X', 'Y', 'stride_xm', 'n_rows']   # the arguments a launch key reads
CONSTEXPRS = {'MODE': 1, 'BLOCK_M': 32, 'BLOCK_N': 32, 'N_PAD': 256, 'K': 8}         # the specialisation this kernel was generated for
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
