"""topk_probe, written by twill from its joint schedule: I=494 L=1356 (feasible), 494 cycles per iteration predicted.

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
L7 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1]], lane_bases=[[0], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L8 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[], lane_bases=[[0], [1], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L9 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1], [0], [0]], lane_bases=[[0], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
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
    offs_m_13 = gl.arange(0, 32, layout=L0)
    offs_m_14 = gl.arange(0, 32, layout=L1)
    offs_m_15 = gl.arange(0, 32, layout=L2)
    offs_m_18 = offs_m + offs_m_13
    offs_m_19 = offs_m + offs_m_14
    mask_m = gl.expand_dims(offs_m_18, 1)
    mask_m_20 = gl.expand_dims(offs_m_19, 1)
    mask_m_23 = mask_m < n_rows
    mask_m_24 = mask_m_20 < n_rows
    X_ptrs_25 = mask_m * stride_xm
    X_ptrs_27 = X + X_ptrs_25
    X_ptrs_28 = gl.expand_dims(offs_m_15, 0)
    X_ptrs_29 = X_ptrs_27.broadcast_to([32, 32])
    X_ptrs_30 = X_ptrs_28.broadcast_to([32, 32])
    X_ptrs_31 = X_ptrs_29 + X_ptrs_30
    x = mask_m_23.broadcast_to([32, 32])
    x_32 = gl.load(X_ptrs_31, mask=x, other=0.0)
    u = x_32.to(gl.int16, bitcast=True)
    k = gl.cast(gl.cast(u, gl.int16, bitcast=True) & -32768, u.dtype, bitcast=True)
    k_33 = gl.cast(gl.cast(k, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
    k_34 = k_33 != 0
    k_35 = gl.where(k_34, -1, -32768).to(gl.int16)
    k_36 = u ^ k_35
    x_37 = gl.cast(gl.cast(k_36, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
    x_38 = x_37 << 16
    x_39 = 256 - offs_m_15
    x_40 = gl.expand_dims(x_39, 0)
    x_41 = x_40.broadcast_to([32, 32])
    x_42 = x_38 | x_41
    h = gl.convert_layout(gl.reshape(x_42, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L3)
    ar = gl.arange(0, 2, layout=L4)
    ar_43 = gl.arange(0, 2, layout=L5)
    ar_44 = gl.arange(0, 2, layout=L6)
    ar_45 = gl.arange(0, 2, layout=L7)
    ar_46 = gl.arange(0, 2, layout=L8)
    ar_47 = gl.arange(0, 2, layout=L9)
    ar_48 = gl.convert_layout(gl.reshape(ar, [1, 1, 1, 1, 1, 1, 1, 1, 2, 1]), L3)
    ix = h.to(gl.int32, bitcast=True)
    iy, = gl.reduce((ix,), 9, twill_combine_a2078901)
    iy_49 = gl.expand_dims(iy, 9)
    iy_50 = iy_49.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_51 = ix ^ iy_50
    y = iy_51.to(gl.int32, bitcast=True)
    ar_52 = gl.convert_layout(gl.reshape(ar_47, [1, 1, 1, 1, 1, 1, 1, 1, 1, 2]), L3)
    ret = gl.cast(h, gl.uint32, bitcast=True) > gl.cast(y, gl.uint32, bitcast=True)
    ret_53 = ar_48.broadcast_to([1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
    ret_54 = ar_52.broadcast_to([1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
    ret_55 = ret_53 ^ ret_54
    ret_56 = ret.to(gl.int32)
    ret_57 = ret_55.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_58 = ret_56 != ret_57
    ret_59 = gl.where(ret_58, y, h)
    ar_60 = gl.convert_layout(gl.reshape(ar_43, [1, 1, 1, 1, 1, 1, 1, 2, 1, 1]), L3)
    ix_61 = ret_59.to(gl.int32, bitcast=True)
    iy_62, = gl.reduce((ix_61,), 8, twill_combine_a2078901)
    iy_63 = gl.expand_dims(iy_62, 8)
    iy_64 = iy_63.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_65 = ix_61 ^ iy_64
    y_66 = iy_65.to(gl.int32, bitcast=True)
    ret_67 = gl.cast(ret_59, gl.uint32, bitcast=True) > gl.cast(y_66, gl.uint32, bitcast=True)
    ret_68 = ar_60.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 2, 1])
    ret_69 = ar_48.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 2, 1])
    ret_70 = ret_68 ^ ret_69
    ret_71 = ret_67.to(gl.int32)
    ret_72 = ret_70.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_73 = ret_71 != ret_72
    ret_74 = gl.where(ret_73, y_66, ret_59)
    ix_75 = ret_74.to(gl.int32, bitcast=True)
    iy_76, = gl.reduce((ix_75,), 9, twill_combine_a2078901)
    iy_77 = gl.expand_dims(iy_76, 9)
    iy_78 = iy_77.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_79 = ix_75 ^ iy_78
    y_80 = iy_79.to(gl.int32, bitcast=True)
    ret_81 = gl.cast(ret_74, gl.uint32, bitcast=True) > gl.cast(y_80, gl.uint32, bitcast=True)
    ret_82 = ar_60.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 1, 2])
    ret_83 = ar_52.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 1, 2])
    ret_84 = ret_82 ^ ret_83
    ret_85 = ret_81.to(gl.int32)
    ret_86 = ret_84.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_87 = ret_85 != ret_86
    ret_88 = gl.where(ret_87, y_80, ret_74)
    ar_89 = gl.convert_layout(gl.reshape(ar_44, [1, 1, 1, 1, 1, 1, 2, 1, 1, 1]), L3)
    ix_90 = ret_88.to(gl.int32, bitcast=True)
    iy_91, = gl.reduce((ix_90,), 7, twill_combine_a2078901)
    iy_92 = gl.expand_dims(iy_91, 7)
    iy_93 = iy_92.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_94 = ix_90 ^ iy_93
    y_95 = iy_94.to(gl.int32, bitcast=True)
    ret_96 = gl.cast(ret_88, gl.uint32, bitcast=True) > gl.cast(y_95, gl.uint32, bitcast=True)
    ret_97 = ar_89.broadcast_to([1, 1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_98 = ar_60.broadcast_to([1, 1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_99 = ret_97 ^ ret_98
    ret_100 = ret_96.to(gl.int32)
    ret_101 = ret_99.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_102 = ret_100 != ret_101
    ret_103 = gl.where(ret_102, y_95, ret_88)
    ix_104 = ret_103.to(gl.int32, bitcast=True)
    iy_105, = gl.reduce((ix_104,), 8, twill_combine_a2078901)
    iy_106 = gl.expand_dims(iy_105, 8)
    iy_107 = iy_106.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_108 = ix_104 ^ iy_107
    y_109 = iy_108.to(gl.int32, bitcast=True)
    ret_110 = gl.cast(ret_103, gl.uint32, bitcast=True) > gl.cast(y_109, gl.uint32, bitcast=True)
    ret_111 = ar_89.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_112 = ar_48.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_113 = ret_111 ^ ret_112
    ret_114 = ret_110.to(gl.int32)
    ret_115 = ret_113.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_116 = ret_114 != ret_115
    ret_117 = gl.where(ret_116, y_109, ret_103)
    ix_118 = ret_117.to(gl.int32, bitcast=True)
    iy_119, = gl.reduce((ix_118,), 9, twill_combine_a2078901)
    iy_120 = gl.expand_dims(iy_119, 9)
    iy_121 = iy_120.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_122 = ix_118 ^ iy_121
    y_123 = iy_122.to(gl.int32, bitcast=True)
    ret_124 = gl.cast(ret_117, gl.uint32, bitcast=True) > gl.cast(y_123, gl.uint32, bitcast=True)
    ret_125 = ar_89.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_126 = ar_52.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_127 = ret_125 ^ ret_126
    ret_128 = ret_124.to(gl.int32)
    ret_129 = ret_127.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_130 = ret_128 != ret_129
    ret_131 = gl.where(ret_130, y_123, ret_117)
    h_132 = gl.cast(gl.max(gl.cast(ret_131, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)
    ar_133 = gl.convert_layout(gl.reshape(ar_46, [1, 1, 1, 1, 1, 2, 1, 1, 1]), L10)
    ix_134 = h_132.to(gl.int32, bitcast=True)
    iy_135, = gl.reduce((ix_134,), 6, twill_combine_a2078901)
    iy_136 = gl.expand_dims(iy_135, 6)
    iy_137 = iy_136.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_138 = ix_134 ^ iy_137
    y_139 = iy_138.to(gl.int32, bitcast=True)
    ar_140 = gl.convert_layout(gl.reshape(ar_45, [1, 1, 1, 1, 1, 1, 2, 1, 1]), L10)
    ret_141 = gl.cast(h_132, gl.uint32, bitcast=True) > gl.cast(y_139, gl.uint32, bitcast=True)
    ret_142 = ar_133.broadcast_to([1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_143 = ar_140.broadcast_to([1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_144 = ret_142 ^ ret_143
    ret_145 = ret_141.to(gl.int32)
    ret_146 = ret_144.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_147 = ret_145 != ret_146
    ret_148 = gl.where(ret_147, y_139, h_132)
    ix_149 = ret_148.to(gl.int32, bitcast=True)
    iy_150, = gl.reduce((ix_149,), 7, twill_combine_a2078901)
    iy_151 = gl.expand_dims(iy_150, 7)
    iy_152 = iy_151.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_153 = ix_149 ^ iy_152
    y_154 = iy_153.to(gl.int32, bitcast=True)
    ar_155 = gl.convert_layout(gl.reshape(ar_45, [1, 1, 1, 1, 1, 1, 1, 2, 1]), L10)
    ret_156 = gl.cast(ret_148, gl.uint32, bitcast=True) > gl.cast(y_154, gl.uint32, bitcast=True)
    ret_157 = ar_133.broadcast_to([1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_158 = ar_155.broadcast_to([1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_159 = ret_157 ^ ret_158
    ret_160 = ret_156.to(gl.int32)
    ret_161 = ret_159.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_162 = ret_160 != ret_161
    ret_163 = gl.where(ret_162, y_154, ret_148)
    ix_164 = ret_163.to(gl.int32, bitcast=True)
    iy_165, = gl.reduce((ix_164,), 8, twill_combine_a2078901)
    iy_166 = gl.expand_dims(iy_165, 8)
    iy_167 = iy_166.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_168 = ix_164 ^ iy_167
    y_169 = iy_168.to(gl.int32, bitcast=True)
    ar_170 = gl.convert_layout(gl.reshape(ar_45, [1, 1, 1, 1, 1, 1, 1, 1, 2]), L10)
    ret_171 = gl.cast(ret_163, gl.uint32, bitcast=True) > gl.cast(y_169, gl.uint32, bitcast=True)
    ret_172 = ar_133.broadcast_to([1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_173 = ar_170.broadcast_to([1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_174 = ret_172 ^ ret_173
    ret_175 = ret_171.to(gl.int32)
    ret_176 = ret_174.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_177 = ret_175 != ret_176
    ret_178 = gl.where(ret_177, y_169, ret_163)
    h_179 = gl.cast(gl.max(gl.cast(ret_178, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)
    ix_180 = h_179.to(gl.int32, bitcast=True)
    iy_181, = gl.reduce((ix_180,), 5, twill_combine_a2078901)
    iy_182 = gl.expand_dims(iy_181, 5)
    iy_183 = iy_182.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_184 = ix_180 ^ iy_183
    y_185 = iy_184.to(gl.int32, bitcast=True)
    ar_186 = gl.convert_layout(gl.reshape(ar_45, [1, 1, 1, 1, 1, 2, 1, 1]), L11)
    ar_187 = gl.convert_layout(gl.reshape(ar_45, [1, 1, 1, 1, 1, 2, 1, 1]), L12)
    ret_188 = gl.cast(h_179, gl.uint32, bitcast=True) > gl.cast(y_185, gl.uint32, bitcast=True)
    ret_189 = ar_186 ^ 1
    ret_190 = ar_187 ^ 1
    ret_191 = ret_188.to(gl.int32)
    ret_192 = ret_189.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_193 = ret_190.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_194 = ret_191 != ret_192
    ret_195 = gl.where(ret_194, y_185, h_179)
    ix_196 = ret_195.to(gl.int32, bitcast=True)
    iy_197, = gl.reduce((ix_196,), 6, twill_combine_a2078901)
    iy_198 = gl.expand_dims(iy_197, 6)
    iy_199 = iy_198.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_200 = ix_196 ^ iy_199
    y_201 = iy_200.to(gl.int32, bitcast=True)
    ar_202 = gl.convert_layout(gl.reshape(ar_45, [1, 1, 1, 1, 1, 1, 2, 1]), L11)
    ar_203 = gl.convert_layout(gl.reshape(ar_45, [1, 1, 1, 1, 1, 1, 2, 1]), L12)
    ret_204 = gl.cast(ret_195, gl.uint32, bitcast=True) > gl.cast(y_201, gl.uint32, bitcast=True)
    ret_205 = ar_202 ^ 1
    ret_206 = ar_203 ^ 1
    ret_207 = ret_204.to(gl.int32)
    ret_208 = ret_205.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_209 = ret_206.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_210 = ret_207 != ret_208
    ret_211 = gl.where(ret_210, y_201, ret_195)
    ix_212 = ret_211.to(gl.int32, bitcast=True)
    iy_213, = gl.reduce((ix_212,), 7, twill_combine_a2078901)
    iy_214 = gl.expand_dims(iy_213, 7)
    iy_215 = iy_214.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_216 = ix_212 ^ iy_215
    y_217 = iy_216.to(gl.int32, bitcast=True)
    ar_218 = gl.convert_layout(gl.reshape(ar_45, [1, 1, 1, 1, 1, 1, 1, 2]), L11)
    ar_219 = gl.convert_layout(gl.reshape(ar_45, [1, 1, 1, 1, 1, 1, 1, 2]), L12)
    ret_220 = gl.cast(ret_211, gl.uint32, bitcast=True) > gl.cast(y_217, gl.uint32, bitcast=True)
    ret_221 = ar_218 ^ 1
    ret_222 = ar_219 ^ 1
    ret_223 = ret_220.to(gl.int32)
    ret_224 = ret_221.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_225 = ret_222.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_226 = ret_223 != ret_224
    ret_227 = gl.where(ret_226, y_217, ret_211)
    x_228 = gl.convert_layout(gl.reshape(ret_227, [32, 8]), L13)
    ret_229 = ar_187.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_230 = ar_203.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_231 = ar_219.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    twill_n = 7
    X_ptrs_341 = X_ptrs_31
    X_ptrs_341_p1 = X_ptrs_341
    X_ptrs_341 = X_ptrs_341_p1 + 32  # load0_x: stage 0, partition 0 (group 0)
    x_342 = gl.load(X_ptrs_341, mask=x, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    X_ptrs_341_p1 = X_ptrs_341
    x_342_p1 = x_342
    X_ptrs_341 = X_ptrs_341_p1 + 32  # load0_x: stage 0, partition 0 (group 0)
    x_342 = gl.load(X_ptrs_341, mask=x, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    u_346 = x_342_p1.to(gl.int16, bitcast=True)  # convert7_u: stage 1, partition 0 (group 0)
    x_343 = (1 + (1 - 1) * 1) * 32  # convert6_ix: stage 1, partition 0 (group 0)
    x_344 = x_343  # convert6_ix: stage 1, partition 0 (group 0)
    x_345 = offs_m_15 + x_344  # convert6_ix: stage 1, partition 0 (group 0)
    k_347 = gl.cast(gl.cast(u_346, gl.int16, bitcast=True) & -32768, u_346.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_348 = gl.cast(gl.cast(k_347, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_349 = k_348 != 0  # convert6_ix: stage 1, partition 0 (group 0)
    k_350 = gl.where(k_349, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
    k_351 = u_346 ^ k_350  # convert6_ix: stage 1, partition 0 (group 0)
    x_352 = gl.cast(gl.cast(k_351, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_353 = x_352 << 16  # convert6_ix: stage 1, partition 0 (group 0)
    x_354 = 256 - x_345  # convert6_ix: stage 1, partition 0 (group 0)
    x_355 = gl.expand_dims(x_354, 0)  # convert6_ix: stage 1, partition 0 (group 0)
    x_356 = x_355.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
    x_357 = x_353 | x_356  # convert6_ix: stage 1, partition 0 (group 0)
    h_358 = gl.convert_layout(gl.reshape(x_357, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L3)  # convert6_ix: stage 1, partition 0 (group 0)
    ix_359 = h_358.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    iy_360, = gl.reduce((ix_359,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
    iy_361 = gl.expand_dims(iy_360, 9)  # convert8_y: stage 1, partition 0 (group 0)
    iy_362 = iy_361.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
    iy_363 = ix_359 ^ iy_362  # convert8_y: stage 1, partition 0 (group 0)
    y_364 = iy_363.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
    ret_365 = gl.cast(h_358, gl.uint32, bitcast=True) > gl.cast(y_364, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_366 = ret_365.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_367 = ret_366 != ret_57  # convert9_ix: stage 1, partition 0 (group 0)
    ret_368 = gl.where(ret_367, y_364, h_358)  # convert9_ix: stage 1, partition 0 (group 0)
    ix_369 = ret_368.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    iy_370, = gl.reduce((ix_369,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
    iy_371 = gl.expand_dims(iy_370, 8)  # convert10_y: stage 1, partition 0 (group 0)
    iy_372 = iy_371.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
    iy_373 = ix_369 ^ iy_372  # convert10_y: stage 1, partition 0 (group 0)
    y_374 = iy_373.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
    ret_375 = gl.cast(ret_368, gl.uint32, bitcast=True) > gl.cast(y_374, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_376 = ret_375.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_377 = ret_376 != ret_72  # convert11_ix: stage 1, partition 0 (group 0)
    ret_378 = gl.where(ret_377, y_374, ret_368)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_379 = ret_378.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    iy_380, = gl.reduce((ix_379,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
    iy_381 = gl.expand_dims(iy_380, 9)  # convert12_y: stage 1, partition 0 (group 0)
    iy_382 = iy_381.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
    iy_383 = ix_379 ^ iy_382  # convert12_y: stage 1, partition 0 (group 0)
    y_384 = iy_383.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
    ret_385 = gl.cast(ret_378, gl.uint32, bitcast=True) > gl.cast(y_384, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_386 = ret_385.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_387 = ret_386 != ret_86  # convert13_ix: stage 1, partition 0 (group 0)
    ret_388 = gl.where(ret_387, y_384, ret_378)  # convert13_ix: stage 1, partition 0 (group 0)
    ix_389 = ret_388.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    iy_390, = gl.reduce((ix_389,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
    iy_391 = gl.expand_dims(iy_390, 7)  # convert14_y: stage 1, partition 0 (group 0)
    iy_392 = iy_391.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
    iy_393 = ix_389 ^ iy_392  # convert14_y: stage 1, partition 0 (group 0)
    y_394 = iy_393.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
    ret_395 = gl.cast(ret_388, gl.uint32, bitcast=True) > gl.cast(y_394, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_396 = ret_395.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_397 = ret_396 != ret_101  # convert15_ix: stage 1, partition 0 (group 0)
    ret_398 = gl.where(ret_397, y_394, ret_388)  # convert15_ix: stage 1, partition 0 (group 0)
    ix_399 = ret_398.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    X_ptrs_341_p1 = X_ptrs_341
    ix_399_p1 = ix_399
    ret_398_p1 = ret_398
    x_342_p1 = x_342
    acc_482 = x_228
    X_ptrs_341 = X_ptrs_341_p1 + 32  # load0_x: stage 0, partition 0 (group 0)
    x_342 = gl.load(X_ptrs_341, mask=x, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    u_346 = x_342_p1.to(gl.int16, bitcast=True)  # convert7_u: stage 1, partition 0 (group 0)
    iy_400, = gl.reduce((ix_399_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
    x_343 = (1 + (2 - 1) * 1) * 32  # convert6_ix: stage 1, partition 0 (group 0)
    x_344 = x_343  # convert6_ix: stage 1, partition 0 (group 0)
    x_345 = offs_m_15 + x_344  # convert6_ix: stage 1, partition 0 (group 0)
    k_347 = gl.cast(gl.cast(u_346, gl.int16, bitcast=True) & -32768, u_346.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_348 = gl.cast(gl.cast(k_347, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_349 = k_348 != 0  # convert6_ix: stage 1, partition 0 (group 0)
    k_350 = gl.where(k_349, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
    k_351 = u_346 ^ k_350  # convert6_ix: stage 1, partition 0 (group 0)
    x_352 = gl.cast(gl.cast(k_351, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_353 = x_352 << 16  # convert6_ix: stage 1, partition 0 (group 0)
    x_354 = 256 - x_345  # convert6_ix: stage 1, partition 0 (group 0)
    x_355 = gl.expand_dims(x_354, 0)  # convert6_ix: stage 1, partition 0 (group 0)
    x_356 = x_355.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
    x_357 = x_353 | x_356  # convert6_ix: stage 1, partition 0 (group 0)
    h_358 = gl.convert_layout(gl.reshape(x_357, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L3)  # convert6_ix: stage 1, partition 0 (group 0)
    ix_359 = h_358.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    iy_401 = gl.expand_dims(iy_400, 8)  # convert16_y: stage 2, partition 0 (group 0)
    iy_402 = iy_401.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
    iy_403 = ix_399_p1 ^ iy_402  # convert16_y: stage 2, partition 0 (group 0)
    y_404 = iy_403.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
    iy_360, = gl.reduce((ix_359,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
    ret_405 = gl.cast(ret_398_p1, gl.uint32, bitcast=True) > gl.cast(y_404, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_406 = ret_405.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_407 = ret_406 != ret_115  # convert17_ix: stage 2, partition 0 (group 0)
    ret_408 = gl.where(ret_407, y_404, ret_398_p1)  # convert17_ix: stage 2, partition 0 (group 0)
    ix_409 = ret_408.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    iy_361 = gl.expand_dims(iy_360, 9)  # convert8_y: stage 1, partition 0 (group 0)
    iy_362 = iy_361.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
    iy_363 = ix_359 ^ iy_362  # convert8_y: stage 1, partition 0 (group 0)
    y_364 = iy_363.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
    iy_410, = gl.reduce((ix_409,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
    ret_365 = gl.cast(h_358, gl.uint32, bitcast=True) > gl.cast(y_364, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_366 = ret_365.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_367 = ret_366 != ret_57  # convert9_ix: stage 1, partition 0 (group 0)
    ret_368 = gl.where(ret_367, y_364, h_358)  # convert9_ix: stage 1, partition 0 (group 0)
    ix_369 = ret_368.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    iy_370, = gl.reduce((ix_369,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
    iy_411 = gl.expand_dims(iy_410, 9)  # convert18_y: stage 2, partition 0 (group 0)
    iy_412 = iy_411.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
    iy_413 = ix_409 ^ iy_412  # convert18_y: stage 2, partition 0 (group 0)
    y_414 = iy_413.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
    ret_415 = gl.cast(ret_408, gl.uint32, bitcast=True) > gl.cast(y_414, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_416 = ret_415.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_417 = ret_416 != ret_129  # reduce9_h: stage 2, partition 0 (group 0)
    ret_418 = gl.where(ret_417, y_414, ret_408)  # reduce9_h: stage 2, partition 0 (group 0)
    h_419 = gl.cast(gl.max(gl.cast(ret_418, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    iy_371 = gl.expand_dims(iy_370, 8)  # convert10_y: stage 1, partition 0 (group 0)
    iy_372 = iy_371.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
    iy_373 = ix_369 ^ iy_372  # convert10_y: stage 1, partition 0 (group 0)
    y_374 = iy_373.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
    ret_375 = gl.cast(ret_368, gl.uint32, bitcast=True) > gl.cast(y_374, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_376 = ret_375.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_377 = ret_376 != ret_72  # convert11_ix: stage 1, partition 0 (group 0)
    ret_378 = gl.where(ret_377, y_374, ret_368)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_379 = ret_378.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_420 = h_419.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
    iy_421, = gl.reduce((ix_420,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
    iy_380, = gl.reduce((ix_379,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
    h_309 = gl.convert_layout(gl.reshape(acc_482, [2, 2, 2, 2, 2, 2, 2, 2]), L12)  # convert0_ix: stage 2, partition 0 (group 0)
    ix_310 = h_309.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
    iy_422 = gl.expand_dims(iy_421, 6)  # convert20_y: stage 2, partition 0 (group 0)
    iy_423 = iy_422.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
    iy_424 = ix_420 ^ iy_423  # convert20_y: stage 2, partition 0 (group 0)
    y_425 = iy_424.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
    ret_426 = gl.cast(h_419, gl.uint32, bitcast=True) > gl.cast(y_425, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_427 = ret_426.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_428 = ret_427 != ret_146  # convert21_ix: stage 2, partition 0 (group 0)
    ret_429 = gl.where(ret_428, y_425, h_419)  # convert21_ix: stage 2, partition 0 (group 0)
    ix_430 = ret_429.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    iy_381 = gl.expand_dims(iy_380, 9)  # convert12_y: stage 1, partition 0 (group 0)
    iy_382 = iy_381.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
    iy_383 = ix_379 ^ iy_382  # convert12_y: stage 1, partition 0 (group 0)
    y_384 = iy_383.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
    iy_431, = gl.reduce((ix_430,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
    iy_311, = gl.reduce((ix_310,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
    ret_385 = gl.cast(ret_378, gl.uint32, bitcast=True) > gl.cast(y_384, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_386 = ret_385.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_387 = ret_386 != ret_86  # convert13_ix: stage 1, partition 0 (group 0)
    ret_388 = gl.where(ret_387, y_384, ret_378)  # convert13_ix: stage 1, partition 0 (group 0)
    ix_389 = ret_388.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    iy_312 = gl.expand_dims(iy_311, 5)  # convert1_y: stage 2, partition 0 (group 0)
    iy_313 = iy_312.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
    iy_314 = ix_310 ^ iy_313  # convert1_y: stage 2, partition 0 (group 0)
    y_315 = iy_314.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
    iy_390, = gl.reduce((ix_389,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
    ret_316 = gl.cast(h_309, gl.uint32, bitcast=True) > gl.cast(y_315, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_317 = ret_316.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_318 = ret_317 != ret_229  # convert2_ix: stage 2, partition 0 (group 0)
    ret_319 = gl.where(ret_318, y_315, h_309)  # convert2_ix: stage 2, partition 0 (group 0)
    ix_320 = ret_319.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    iy_321, = gl.reduce((ix_320,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
    iy_432 = gl.expand_dims(iy_431, 7)  # convert22_y: stage 2, partition 0 (group 0)
    iy_433 = iy_432.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
    iy_434 = ix_430 ^ iy_433  # convert22_y: stage 2, partition 0 (group 0)
    y_435 = iy_434.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
    ret_436 = gl.cast(ret_429, gl.uint32, bitcast=True) > gl.cast(y_435, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_437 = ret_436.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_438 = ret_437 != ret_161  # convert23_ix: stage 2, partition 0 (group 0)
    ret_439 = gl.where(ret_438, y_435, ret_429)  # convert23_ix: stage 2, partition 0 (group 0)
    ix_440 = ret_439.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    iy_441, = gl.reduce((ix_440,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
    iy_391 = gl.expand_dims(iy_390, 7)  # convert14_y: stage 1, partition 0 (group 0)
    iy_392 = iy_391.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
    iy_393 = ix_389 ^ iy_392  # convert14_y: stage 1, partition 0 (group 0)
    y_394 = iy_393.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
    iy_322 = gl.expand_dims(iy_321, 6)  # convert3_y: stage 2, partition 0 (group 0)
    iy_323 = iy_322.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
    iy_324 = ix_320 ^ iy_323  # convert3_y: stage 2, partition 0 (group 0)
    y_325 = iy_324.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
    ret_395 = gl.cast(ret_388, gl.uint32, bitcast=True) > gl.cast(y_394, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_396 = ret_395.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_397 = ret_396 != ret_101  # convert15_ix: stage 1, partition 0 (group 0)
    ret_398 = gl.where(ret_397, y_394, ret_388)  # convert15_ix: stage 1, partition 0 (group 0)
    ix_399 = ret_398.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    X_ptrs_341_p1 = X_ptrs_341
    ix_399_p1 = ix_399
    ix_440_p1 = ix_440
    iy_441_p1 = iy_441
    ret_319_p1 = ret_319
    ret_398_p1 = ret_398
    ret_439_p1 = ret_439
    x_342_p1 = x_342
    y_325_p1 = y_325
    for twill_b in range(3, twill_n):
        iy_442 = gl.expand_dims(iy_441_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
        iy_443 = iy_442.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
        iy_444 = ix_440_p1 ^ iy_443  # convert24_y: stage 3, partition 0 (group 0)
        y_445 = iy_444.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
        X_ptrs_341 = X_ptrs_341_p1 + 32  # load0_x: stage 0, partition 0 (group 0)
        x_342 = gl.load(X_ptrs_341, mask=x, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        u_346 = x_342_p1.to(gl.int16, bitcast=True)  # convert7_u: stage 1, partition 0 (group 0)
        ret_446 = gl.cast(ret_439_p1, gl.uint32, bitcast=True) > gl.cast(y_445, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
        ret_447 = ret_446.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
        ret_448 = ret_447 != ret_176  # reduce13_h: stage 3, partition 0 (group 0)
        ret_449 = gl.where(ret_448, y_445, ret_439_p1)  # reduce13_h: stage 3, partition 0 (group 0)
        h_450 = gl.cast(gl.max(gl.cast(ret_449, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
        iy_400, = gl.reduce((ix_399_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
        x_343 = (1 + (twill_b - 1) * 1) * 32  # convert6_ix: stage 1, partition 0 (group 0)
        x_344 = x_343  # convert6_ix: stage 1, partition 0 (group 0)
        x_345 = offs_m_15 + x_344  # convert6_ix: stage 1, partition 0 (group 0)
        k_347 = gl.cast(gl.cast(u_346, gl.int16, bitcast=True) & -32768, u_346.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        k_348 = gl.cast(gl.cast(k_347, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        k_349 = k_348 != 0  # convert6_ix: stage 1, partition 0 (group 0)
        k_350 = gl.where(k_349, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
        k_351 = u_346 ^ k_350  # convert6_ix: stage 1, partition 0 (group 0)
        x_352 = gl.cast(gl.cast(k_351, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        x_353 = x_352 << 16  # convert6_ix: stage 1, partition 0 (group 0)
        x_354 = 256 - x_345  # convert6_ix: stage 1, partition 0 (group 0)
        x_355 = gl.expand_dims(x_354, 0)  # convert6_ix: stage 1, partition 0 (group 0)
        x_356 = x_355.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
        x_357 = x_353 | x_356  # convert6_ix: stage 1, partition 0 (group 0)
        h_358 = gl.convert_layout(gl.reshape(x_357, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L3)  # convert6_ix: stage 1, partition 0 (group 0)
        ix_359 = h_358.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        iy_401 = gl.expand_dims(iy_400, 8)  # convert16_y: stage 2, partition 0 (group 0)
        iy_402 = iy_401.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
        iy_403 = ix_399_p1 ^ iy_402  # convert16_y: stage 2, partition 0 (group 0)
        y_404 = iy_403.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
        ix_451 = h_450.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
        iy_360, = gl.reduce((ix_359,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
        iy_452, = gl.reduce((ix_451,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
        ret_405 = gl.cast(ret_398_p1, gl.uint32, bitcast=True) > gl.cast(y_404, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
        ret_406 = ret_405.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
        ret_407 = ret_406 != ret_115  # convert17_ix: stage 2, partition 0 (group 0)
        ret_408 = gl.where(ret_407, y_404, ret_398_p1)  # convert17_ix: stage 2, partition 0 (group 0)
        ix_409 = ret_408.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
        iy_453 = gl.expand_dims(iy_452, 5)  # convert26_y: stage 3, partition 0 (group 0)
        iy_454 = iy_453.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
        iy_455 = ix_451 ^ iy_454  # convert26_y: stage 3, partition 0 (group 0)
        y_456 = iy_455.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
        iy_361 = gl.expand_dims(iy_360, 9)  # convert8_y: stage 1, partition 0 (group 0)
        iy_362 = iy_361.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
        iy_363 = ix_359 ^ iy_362  # convert8_y: stage 1, partition 0 (group 0)
        y_364 = iy_363.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
        iy_410, = gl.reduce((ix_409,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
        ret_457 = gl.cast(h_450, gl.uint32, bitcast=True) > gl.cast(y_456, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
        ret_458 = ret_457.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
        ret_459 = ret_458 != ret_192  # convert27_ix: stage 3, partition 0 (group 0)
        ret_460 = gl.where(ret_459, y_456, h_450)  # convert27_ix: stage 3, partition 0 (group 0)
        ix_461 = ret_460.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
        iy_462, = gl.reduce((ix_461,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
        ret_365 = gl.cast(h_358, gl.uint32, bitcast=True) > gl.cast(y_364, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
        ret_366 = ret_365.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
        ret_367 = ret_366 != ret_57  # convert9_ix: stage 1, partition 0 (group 0)
        ret_368 = gl.where(ret_367, y_364, h_358)  # convert9_ix: stage 1, partition 0 (group 0)
        ix_369 = ret_368.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
        iy_370, = gl.reduce((ix_369,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
        iy_411 = gl.expand_dims(iy_410, 9)  # convert18_y: stage 2, partition 0 (group 0)
        iy_412 = iy_411.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
        iy_413 = ix_409 ^ iy_412  # convert18_y: stage 2, partition 0 (group 0)
        y_414 = iy_413.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
        ret_415 = gl.cast(ret_408, gl.uint32, bitcast=True) > gl.cast(y_414, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
        ret_416 = ret_415.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
        ret_417 = ret_416 != ret_129  # reduce9_h: stage 2, partition 0 (group 0)
        ret_418 = gl.where(ret_417, y_414, ret_408)  # reduce9_h: stage 2, partition 0 (group 0)
        h_419 = gl.cast(gl.max(gl.cast(ret_418, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
        iy_463 = gl.expand_dims(iy_462, 6)  # convert28_y: stage 3, partition 0 (group 0)
        iy_464 = iy_463.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
        iy_465 = ix_461 ^ iy_464  # convert28_y: stage 3, partition 0 (group 0)
        y_466 = iy_465.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
        ret_467 = gl.cast(ret_460, gl.uint32, bitcast=True) > gl.cast(y_466, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
        ret_468 = ret_467.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
        ret_469 = ret_468 != ret_208  # convert29_ix: stage 3, partition 0 (group 0)
        ret_470 = gl.where(ret_469, y_466, ret_460)  # convert29_ix: stage 3, partition 0 (group 0)
        ix_471 = ret_470.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
        ret_326 = gl.cast(ret_319_p1, gl.uint32, bitcast=True) > gl.cast(y_325_p1, gl.uint32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
        ret_327 = ret_326.to(gl.int32)  # convert4_ix: stage 3, partition 0 (group 0)
        ret_328 = ret_327 != ret_230  # convert4_ix: stage 3, partition 0 (group 0)
        ret_329 = gl.where(ret_328, y_325_p1, ret_319_p1)  # convert4_ix: stage 3, partition 0 (group 0)
        ix_330 = ret_329.to(gl.int32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
        iy_371 = gl.expand_dims(iy_370, 8)  # convert10_y: stage 1, partition 0 (group 0)
        iy_372 = iy_371.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
        iy_373 = ix_369 ^ iy_372  # convert10_y: stage 1, partition 0 (group 0)
        y_374 = iy_373.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
        iy_472, = gl.reduce((ix_471,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
        iy_331, = gl.reduce((ix_330,), 7, twill_combine_a2078901)  # reduce2_iy: stage 3, partition 0 (group 0)
        ret_375 = gl.cast(ret_368, gl.uint32, bitcast=True) > gl.cast(y_374, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
        ret_376 = ret_375.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
        ret_377 = ret_376 != ret_72  # convert11_ix: stage 1, partition 0 (group 0)
        ret_378 = gl.where(ret_377, y_374, ret_368)  # convert11_ix: stage 1, partition 0 (group 0)
        ix_379 = ret_378.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
        ix_420 = h_419.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
        iy_421, = gl.reduce((ix_420,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
        iy_473 = gl.expand_dims(iy_472, 7)  # convert30_y: stage 3, partition 0 (group 0)
        iy_474 = iy_473.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
        iy_475 = ix_471 ^ iy_474  # convert30_y: stage 3, partition 0 (group 0)
        y_476 = iy_475.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
        iy_332 = gl.expand_dims(iy_331, 7)  # convert5_y: stage 3, partition 0 (group 0)
        iy_333 = iy_332.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 3, partition 0 (group 0)
        iy_334 = ix_330 ^ iy_333  # convert5_y: stage 3, partition 0 (group 0)
        y_335 = iy_334.to(gl.int32, bitcast=True)  # convert5_y: stage 3, partition 0 (group 0)
        iy_380, = gl.reduce((ix_379,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
        ret_336 = gl.cast(ret_329, gl.uint32, bitcast=True) > gl.cast(y_335, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_337 = ret_336.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_338 = ret_337 != ret_231  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_339 = gl.where(ret_338, y_335, ret_329)  # broadcast0_acc: stage 3, partition 0 (group 0)
        x_340 = gl.convert_layout(gl.reshape(ret_339, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_477 = gl.cast(ret_470, gl.uint32, bitcast=True) > gl.cast(y_476, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_478 = ret_477.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_479 = ret_478 != ret_224  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_480 = gl.where(ret_479, y_476, ret_470)  # broadcast0_acc: stage 3, partition 0 (group 0)
        x_481 = gl.convert_layout(gl.reshape(ret_480, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
        acc_482 = gl.cast(gl.maximum(gl.cast(x_340, gl.uint32, bitcast=True), gl.cast(x_481, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
        h_309 = gl.convert_layout(gl.reshape(acc_482, [2, 2, 2, 2, 2, 2, 2, 2]), L12)  # convert0_ix: stage 2, partition 0 (group 0)
        ix_310 = h_309.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
        iy_422 = gl.expand_dims(iy_421, 6)  # convert20_y: stage 2, partition 0 (group 0)
        iy_423 = iy_422.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
        iy_424 = ix_420 ^ iy_423  # convert20_y: stage 2, partition 0 (group 0)
        y_425 = iy_424.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
        ret_426 = gl.cast(h_419, gl.uint32, bitcast=True) > gl.cast(y_425, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
        ret_427 = ret_426.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
        ret_428 = ret_427 != ret_146  # convert21_ix: stage 2, partition 0 (group 0)
        ret_429 = gl.where(ret_428, y_425, h_419)  # convert21_ix: stage 2, partition 0 (group 0)
        ix_430 = ret_429.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
        iy_381 = gl.expand_dims(iy_380, 9)  # convert12_y: stage 1, partition 0 (group 0)
        iy_382 = iy_381.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
        iy_383 = ix_379 ^ iy_382  # convert12_y: stage 1, partition 0 (group 0)
        y_384 = iy_383.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
        iy_431, = gl.reduce((ix_430,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
        iy_311, = gl.reduce((ix_310,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
        ret_385 = gl.cast(ret_378, gl.uint32, bitcast=True) > gl.cast(y_384, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
        ret_386 = ret_385.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
        ret_387 = ret_386 != ret_86  # convert13_ix: stage 1, partition 0 (group 0)
        ret_388 = gl.where(ret_387, y_384, ret_378)  # convert13_ix: stage 1, partition 0 (group 0)
        ix_389 = ret_388.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
        iy_312 = gl.expand_dims(iy_311, 5)  # convert1_y: stage 2, partition 0 (group 0)
        iy_313 = iy_312.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
        iy_314 = ix_310 ^ iy_313  # convert1_y: stage 2, partition 0 (group 0)
        y_315 = iy_314.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
        iy_390, = gl.reduce((ix_389,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
        ret_316 = gl.cast(h_309, gl.uint32, bitcast=True) > gl.cast(y_315, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
        ret_317 = ret_316.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
        ret_318 = ret_317 != ret_229  # convert2_ix: stage 2, partition 0 (group 0)
        ret_319 = gl.where(ret_318, y_315, h_309)  # convert2_ix: stage 2, partition 0 (group 0)
        ix_320 = ret_319.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
        iy_321, = gl.reduce((ix_320,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
        iy_432 = gl.expand_dims(iy_431, 7)  # convert22_y: stage 2, partition 0 (group 0)
        iy_433 = iy_432.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
        iy_434 = ix_430 ^ iy_433  # convert22_y: stage 2, partition 0 (group 0)
        y_435 = iy_434.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
        ret_436 = gl.cast(ret_429, gl.uint32, bitcast=True) > gl.cast(y_435, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
        ret_437 = ret_436.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
        ret_438 = ret_437 != ret_161  # convert23_ix: stage 2, partition 0 (group 0)
        ret_439 = gl.where(ret_438, y_435, ret_429)  # convert23_ix: stage 2, partition 0 (group 0)
        ix_440 = ret_439.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
        iy_441, = gl.reduce((ix_440,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
        iy_391 = gl.expand_dims(iy_390, 7)  # convert14_y: stage 1, partition 0 (group 0)
        iy_392 = iy_391.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
        iy_393 = ix_389 ^ iy_392  # convert14_y: stage 1, partition 0 (group 0)
        y_394 = iy_393.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
        iy_322 = gl.expand_dims(iy_321, 6)  # convert3_y: stage 2, partition 0 (group 0)
        iy_323 = iy_322.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
        iy_324 = ix_320 ^ iy_323  # convert3_y: stage 2, partition 0 (group 0)
        y_325 = iy_324.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
        ret_395 = gl.cast(ret_388, gl.uint32, bitcast=True) > gl.cast(y_394, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
        ret_396 = ret_395.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
        ret_397 = ret_396 != ret_101  # convert15_ix: stage 1, partition 0 (group 0)
        ret_398 = gl.where(ret_397, y_394, ret_388)  # convert15_ix: stage 1, partition 0 (group 0)
        ix_399 = ret_398.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
        X_ptrs_341_p1 = X_ptrs_341
        ix_399_p1 = ix_399
        ix_440_p1 = ix_440
        iy_441_p1 = iy_441
        ret_319_p1 = ret_319
        ret_398_p1 = ret_398
        ret_439_p1 = ret_439
        x_342_p1 = x_342
        y_325_p1 = y_325
    iy_442 = gl.expand_dims(iy_441_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
    iy_443 = iy_442.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
    iy_444 = ix_440_p1 ^ iy_443  # convert24_y: stage 3, partition 0 (group 0)
    y_445 = iy_444.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
    u_346 = x_342_p1.to(gl.int16, bitcast=True)  # convert7_u: stage 1, partition 0 (group 0)
    ret_446 = gl.cast(ret_439_p1, gl.uint32, bitcast=True) > gl.cast(y_445, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_447 = ret_446.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_448 = ret_447 != ret_176  # reduce13_h: stage 3, partition 0 (group 0)
    ret_449 = gl.where(ret_448, y_445, ret_439_p1)  # reduce13_h: stage 3, partition 0 (group 0)
    h_450 = gl.cast(gl.max(gl.cast(ret_449, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    iy_400, = gl.reduce((ix_399_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
    x_343 = (1 + ((twill_n - 1 + 1) - 1) * 1) * 32  # convert6_ix: stage 1, partition 0 (group 0)
    x_344 = x_343  # convert6_ix: stage 1, partition 0 (group 0)
    x_345 = offs_m_15 + x_344  # convert6_ix: stage 1, partition 0 (group 0)
    k_347 = gl.cast(gl.cast(u_346, gl.int16, bitcast=True) & -32768, u_346.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_348 = gl.cast(gl.cast(k_347, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    k_349 = k_348 != 0  # convert6_ix: stage 1, partition 0 (group 0)
    k_350 = gl.where(k_349, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
    k_351 = u_346 ^ k_350  # convert6_ix: stage 1, partition 0 (group 0)
    x_352 = gl.cast(gl.cast(k_351, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_353 = x_352 << 16  # convert6_ix: stage 1, partition 0 (group 0)
    x_354 = 256 - x_345  # convert6_ix: stage 1, partition 0 (group 0)
    x_355 = gl.expand_dims(x_354, 0)  # convert6_ix: stage 1, partition 0 (group 0)
    x_356 = x_355.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
    x_357 = x_353 | x_356  # convert6_ix: stage 1, partition 0 (group 0)
    h_358 = gl.convert_layout(gl.reshape(x_357, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L3)  # convert6_ix: stage 1, partition 0 (group 0)
    ix_359 = h_358.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    iy_401 = gl.expand_dims(iy_400, 8)  # convert16_y: stage 2, partition 0 (group 0)
    iy_402 = iy_401.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
    iy_403 = ix_399_p1 ^ iy_402  # convert16_y: stage 2, partition 0 (group 0)
    y_404 = iy_403.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
    ix_451 = h_450.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
    iy_360, = gl.reduce((ix_359,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
    iy_452, = gl.reduce((ix_451,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
    ret_405 = gl.cast(ret_398_p1, gl.uint32, bitcast=True) > gl.cast(y_404, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_406 = ret_405.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_407 = ret_406 != ret_115  # convert17_ix: stage 2, partition 0 (group 0)
    ret_408 = gl.where(ret_407, y_404, ret_398_p1)  # convert17_ix: stage 2, partition 0 (group 0)
    ix_409 = ret_408.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    iy_453 = gl.expand_dims(iy_452, 5)  # convert26_y: stage 3, partition 0 (group 0)
    iy_454 = iy_453.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
    iy_455 = ix_451 ^ iy_454  # convert26_y: stage 3, partition 0 (group 0)
    y_456 = iy_455.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
    iy_361 = gl.expand_dims(iy_360, 9)  # convert8_y: stage 1, partition 0 (group 0)
    iy_362 = iy_361.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
    iy_363 = ix_359 ^ iy_362  # convert8_y: stage 1, partition 0 (group 0)
    y_364 = iy_363.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
    iy_410, = gl.reduce((ix_409,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
    ret_457 = gl.cast(h_450, gl.uint32, bitcast=True) > gl.cast(y_456, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_458 = ret_457.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_459 = ret_458 != ret_192  # convert27_ix: stage 3, partition 0 (group 0)
    ret_460 = gl.where(ret_459, y_456, h_450)  # convert27_ix: stage 3, partition 0 (group 0)
    ix_461 = ret_460.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    iy_462, = gl.reduce((ix_461,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
    ret_365 = gl.cast(h_358, gl.uint32, bitcast=True) > gl.cast(y_364, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_366 = ret_365.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_367 = ret_366 != ret_57  # convert9_ix: stage 1, partition 0 (group 0)
    ret_368 = gl.where(ret_367, y_364, h_358)  # convert9_ix: stage 1, partition 0 (group 0)
    ix_369 = ret_368.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    iy_370, = gl.reduce((ix_369,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
    iy_411 = gl.expand_dims(iy_410, 9)  # convert18_y: stage 2, partition 0 (group 0)
    iy_412 = iy_411.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
    iy_413 = ix_409 ^ iy_412  # convert18_y: stage 2, partition 0 (group 0)
    y_414 = iy_413.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
    ret_415 = gl.cast(ret_408, gl.uint32, bitcast=True) > gl.cast(y_414, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_416 = ret_415.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_417 = ret_416 != ret_129  # reduce9_h: stage 2, partition 0 (group 0)
    ret_418 = gl.where(ret_417, y_414, ret_408)  # reduce9_h: stage 2, partition 0 (group 0)
    h_419 = gl.cast(gl.max(gl.cast(ret_418, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    iy_463 = gl.expand_dims(iy_462, 6)  # convert28_y: stage 3, partition 0 (group 0)
    iy_464 = iy_463.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
    iy_465 = ix_461 ^ iy_464  # convert28_y: stage 3, partition 0 (group 0)
    y_466 = iy_465.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
    ret_467 = gl.cast(ret_460, gl.uint32, bitcast=True) > gl.cast(y_466, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_468 = ret_467.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_469 = ret_468 != ret_208  # convert29_ix: stage 3, partition 0 (group 0)
    ret_470 = gl.where(ret_469, y_466, ret_460)  # convert29_ix: stage 3, partition 0 (group 0)
    ix_471 = ret_470.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_326 = gl.cast(ret_319_p1, gl.uint32, bitcast=True) > gl.cast(y_325_p1, gl.uint32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_327 = ret_326.to(gl.int32)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_328 = ret_327 != ret_230  # convert4_ix: stage 3, partition 0 (group 0)
    ret_329 = gl.where(ret_328, y_325_p1, ret_319_p1)  # convert4_ix: stage 3, partition 0 (group 0)
    ix_330 = ret_329.to(gl.int32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    iy_371 = gl.expand_dims(iy_370, 8)  # convert10_y: stage 1, partition 0 (group 0)
    iy_372 = iy_371.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
    iy_373 = ix_369 ^ iy_372  # convert10_y: stage 1, partition 0 (group 0)
    y_374 = iy_373.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
    iy_472, = gl.reduce((ix_471,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
    iy_331, = gl.reduce((ix_330,), 7, twill_combine_a2078901)  # reduce2_iy: stage 3, partition 0 (group 0)
    ret_375 = gl.cast(ret_368, gl.uint32, bitcast=True) > gl.cast(y_374, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_376 = ret_375.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_377 = ret_376 != ret_72  # convert11_ix: stage 1, partition 0 (group 0)
    ret_378 = gl.where(ret_377, y_374, ret_368)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_379 = ret_378.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_420 = h_419.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
    iy_421, = gl.reduce((ix_420,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
    iy_473 = gl.expand_dims(iy_472, 7)  # convert30_y: stage 3, partition 0 (group 0)
    iy_474 = iy_473.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
    iy_475 = ix_471 ^ iy_474  # convert30_y: stage 3, partition 0 (group 0)
    y_476 = iy_475.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
    iy_332 = gl.expand_dims(iy_331, 7)  # convert5_y: stage 3, partition 0 (group 0)
    iy_333 = iy_332.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 3, partition 0 (group 0)
    iy_334 = ix_330 ^ iy_333  # convert5_y: stage 3, partition 0 (group 0)
    y_335 = iy_334.to(gl.int32, bitcast=True)  # convert5_y: stage 3, partition 0 (group 0)
    iy_380, = gl.reduce((ix_379,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
    ret_336 = gl.cast(ret_329, gl.uint32, bitcast=True) > gl.cast(y_335, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_337 = ret_336.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_338 = ret_337 != ret_231  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_339 = gl.where(ret_338, y_335, ret_329)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_340 = gl.convert_layout(gl.reshape(ret_339, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_477 = gl.cast(ret_470, gl.uint32, bitcast=True) > gl.cast(y_476, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_478 = ret_477.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_479 = ret_478 != ret_224  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_480 = gl.where(ret_479, y_476, ret_470)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_481 = gl.convert_layout(gl.reshape(ret_480, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    acc_482 = gl.cast(gl.maximum(gl.cast(x_340, gl.uint32, bitcast=True), gl.cast(x_481, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    h_309 = gl.convert_layout(gl.reshape(acc_482, [2, 2, 2, 2, 2, 2, 2, 2]), L12)  # convert0_ix: stage 2, partition 0 (group 0)
    ix_310 = h_309.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
    iy_422 = gl.expand_dims(iy_421, 6)  # convert20_y: stage 2, partition 0 (group 0)
    iy_423 = iy_422.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
    iy_424 = ix_420 ^ iy_423  # convert20_y: stage 2, partition 0 (group 0)
    y_425 = iy_424.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
    ret_426 = gl.cast(h_419, gl.uint32, bitcast=True) > gl.cast(y_425, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_427 = ret_426.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_428 = ret_427 != ret_146  # convert21_ix: stage 2, partition 0 (group 0)
    ret_429 = gl.where(ret_428, y_425, h_419)  # convert21_ix: stage 2, partition 0 (group 0)
    ix_430 = ret_429.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    iy_381 = gl.expand_dims(iy_380, 9)  # convert12_y: stage 1, partition 0 (group 0)
    iy_382 = iy_381.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
    iy_383 = ix_379 ^ iy_382  # convert12_y: stage 1, partition 0 (group 0)
    y_384 = iy_383.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
    iy_431, = gl.reduce((ix_430,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
    iy_311, = gl.reduce((ix_310,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
    ret_385 = gl.cast(ret_378, gl.uint32, bitcast=True) > gl.cast(y_384, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_386 = ret_385.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_387 = ret_386 != ret_86  # convert13_ix: stage 1, partition 0 (group 0)
    ret_388 = gl.where(ret_387, y_384, ret_378)  # convert13_ix: stage 1, partition 0 (group 0)
    ix_389 = ret_388.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    iy_312 = gl.expand_dims(iy_311, 5)  # convert1_y: stage 2, partition 0 (group 0)
    iy_313 = iy_312.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
    iy_314 = ix_310 ^ iy_313  # convert1_y: stage 2, partition 0 (group 0)
    y_315 = iy_314.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
    iy_390, = gl.reduce((ix_389,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
    ret_316 = gl.cast(h_309, gl.uint32, bitcast=True) > gl.cast(y_315, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_317 = ret_316.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_318 = ret_317 != ret_229  # convert2_ix: stage 2, partition 0 (group 0)
    ret_319 = gl.where(ret_318, y_315, h_309)  # convert2_ix: stage 2, partition 0 (group 0)
    ix_320 = ret_319.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    iy_321, = gl.reduce((ix_320,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
    iy_432 = gl.expand_dims(iy_431, 7)  # convert22_y: stage 2, partition 0 (group 0)
    iy_433 = iy_432.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
    iy_434 = ix_430 ^ iy_433  # convert22_y: stage 2, partition 0 (group 0)
    y_435 = iy_434.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
    ret_436 = gl.cast(ret_429, gl.uint32, bitcast=True) > gl.cast(y_435, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_437 = ret_436.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_438 = ret_437 != ret_161  # convert23_ix: stage 2, partition 0 (group 0)
    ret_439 = gl.where(ret_438, y_435, ret_429)  # convert23_ix: stage 2, partition 0 (group 0)
    ix_440 = ret_439.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    iy_441, = gl.reduce((ix_440,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
    iy_391 = gl.expand_dims(iy_390, 7)  # convert14_y: stage 1, partition 0 (group 0)
    iy_392 = iy_391.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
    iy_393 = ix_389 ^ iy_392  # convert14_y: stage 1, partition 0 (group 0)
    y_394 = iy_393.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
    iy_322 = gl.expand_dims(iy_321, 6)  # convert3_y: stage 2, partition 0 (group 0)
    iy_323 = iy_322.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
    iy_324 = ix_320 ^ iy_323  # convert3_y: stage 2, partition 0 (group 0)
    y_325 = iy_324.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
    ret_395 = gl.cast(ret_388, gl.uint32, bitcast=True) > gl.cast(y_394, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_396 = ret_395.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_397 = ret_396 != ret_101  # convert15_ix: stage 1, partition 0 (group 0)
    ret_398 = gl.where(ret_397, y_394, ret_388)  # convert15_ix: stage 1, partition 0 (group 0)
    ix_399 = ret_398.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    X_ptrs_341_p2 = X_ptrs_341_p1
    X_ptrs_341_p1 = X_ptrs_341
    acc_482_p1 = acc_482
    ix_399_p1 = ix_399
    ix_440_p1 = ix_440
    iy_441_p1 = iy_441
    ret_319_p1 = ret_319
    ret_398_p1 = ret_398
    ret_439_p1 = ret_439
    x_342_p1 = x_342
    y_325_p1 = y_325
    iy_442 = gl.expand_dims(iy_441_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
    iy_443 = iy_442.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
    iy_444 = ix_440_p1 ^ iy_443  # convert24_y: stage 3, partition 0 (group 0)
    y_445 = iy_444.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
    ret_446 = gl.cast(ret_439_p1, gl.uint32, bitcast=True) > gl.cast(y_445, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_447 = ret_446.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_448 = ret_447 != ret_176  # reduce13_h: stage 3, partition 0 (group 0)
    ret_449 = gl.where(ret_448, y_445, ret_439_p1)  # reduce13_h: stage 3, partition 0 (group 0)
    h_450 = gl.cast(gl.max(gl.cast(ret_449, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    iy_400, = gl.reduce((ix_399_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
    iy_401 = gl.expand_dims(iy_400, 8)  # convert16_y: stage 2, partition 0 (group 0)
    iy_402 = iy_401.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
    iy_403 = ix_399_p1 ^ iy_402  # convert16_y: stage 2, partition 0 (group 0)
    y_404 = iy_403.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
    ix_451 = h_450.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
    iy_452, = gl.reduce((ix_451,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
    ret_405 = gl.cast(ret_398_p1, gl.uint32, bitcast=True) > gl.cast(y_404, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_406 = ret_405.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_407 = ret_406 != ret_115  # convert17_ix: stage 2, partition 0 (group 0)
    ret_408 = gl.where(ret_407, y_404, ret_398_p1)  # convert17_ix: stage 2, partition 0 (group 0)
    ix_409 = ret_408.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    iy_453 = gl.expand_dims(iy_452, 5)  # convert26_y: stage 3, partition 0 (group 0)
    iy_454 = iy_453.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
    iy_455 = ix_451 ^ iy_454  # convert26_y: stage 3, partition 0 (group 0)
    y_456 = iy_455.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
    iy_410, = gl.reduce((ix_409,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
    ret_457 = gl.cast(h_450, gl.uint32, bitcast=True) > gl.cast(y_456, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_458 = ret_457.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_459 = ret_458 != ret_192  # convert27_ix: stage 3, partition 0 (group 0)
    ret_460 = gl.where(ret_459, y_456, h_450)  # convert27_ix: stage 3, partition 0 (group 0)
    ix_461 = ret_460.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    iy_462, = gl.reduce((ix_461,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
    iy_411 = gl.expand_dims(iy_410, 9)  # convert18_y: stage 2, partition 0 (group 0)
    iy_412 = iy_411.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
    iy_413 = ix_409 ^ iy_412  # convert18_y: stage 2, partition 0 (group 0)
    y_414 = iy_413.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
    ret_415 = gl.cast(ret_408, gl.uint32, bitcast=True) > gl.cast(y_414, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_416 = ret_415.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_417 = ret_416 != ret_129  # reduce9_h: stage 2, partition 0 (group 0)
    ret_418 = gl.where(ret_417, y_414, ret_408)  # reduce9_h: stage 2, partition 0 (group 0)
    h_419 = gl.cast(gl.max(gl.cast(ret_418, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    iy_463 = gl.expand_dims(iy_462, 6)  # convert28_y: stage 3, partition 0 (group 0)
    iy_464 = iy_463.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
    iy_465 = ix_461 ^ iy_464  # convert28_y: stage 3, partition 0 (group 0)
    y_466 = iy_465.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
    ret_467 = gl.cast(ret_460, gl.uint32, bitcast=True) > gl.cast(y_466, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_468 = ret_467.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_469 = ret_468 != ret_208  # convert29_ix: stage 3, partition 0 (group 0)
    ret_470 = gl.where(ret_469, y_466, ret_460)  # convert29_ix: stage 3, partition 0 (group 0)
    ix_471 = ret_470.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_326 = gl.cast(ret_319_p1, gl.uint32, bitcast=True) > gl.cast(y_325_p1, gl.uint32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_327 = ret_326.to(gl.int32)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_328 = ret_327 != ret_230  # convert4_ix: stage 3, partition 0 (group 0)
    ret_329 = gl.where(ret_328, y_325_p1, ret_319_p1)  # convert4_ix: stage 3, partition 0 (group 0)
    ix_330 = ret_329.to(gl.int32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    iy_472, = gl.reduce((ix_471,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
    iy_331, = gl.reduce((ix_330,), 7, twill_combine_a2078901)  # reduce2_iy: stage 3, partition 0 (group 0)
    ix_420 = h_419.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
    iy_421, = gl.reduce((ix_420,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
    iy_473 = gl.expand_dims(iy_472, 7)  # convert30_y: stage 3, partition 0 (group 0)
    iy_474 = iy_473.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
    iy_475 = ix_471 ^ iy_474  # convert30_y: stage 3, partition 0 (group 0)
    y_476 = iy_475.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
    iy_332 = gl.expand_dims(iy_331, 7)  # convert5_y: stage 3, partition 0 (group 0)
    iy_333 = iy_332.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 3, partition 0 (group 0)
    iy_334 = ix_330 ^ iy_333  # convert5_y: stage 3, partition 0 (group 0)
    y_335 = iy_334.to(gl.int32, bitcast=True)  # convert5_y: stage 3, partition 0 (group 0)
    ret_336 = gl.cast(ret_329, gl.uint32, bitcast=True) > gl.cast(y_335, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_337 = ret_336.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_338 = ret_337 != ret_231  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_339 = gl.where(ret_338, y_335, ret_329)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_340 = gl.convert_layout(gl.reshape(ret_339, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_477 = gl.cast(ret_470, gl.uint32, bitcast=True) > gl.cast(y_476, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_478 = ret_477.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_479 = ret_478 != ret_224  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_480 = gl.where(ret_479, y_476, ret_470)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_481 = gl.convert_layout(gl.reshape(ret_480, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    acc_482 = gl.cast(gl.maximum(gl.cast(x_340, gl.uint32, bitcast=True), gl.cast(x_481, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    h_309 = gl.convert_layout(gl.reshape(acc_482, [2, 2, 2, 2, 2, 2, 2, 2]), L12)  # convert0_ix: stage 2, partition 0 (group 0)
    ix_310 = h_309.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
    iy_422 = gl.expand_dims(iy_421, 6)  # convert20_y: stage 2, partition 0 (group 0)
    iy_423 = iy_422.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
    iy_424 = ix_420 ^ iy_423  # convert20_y: stage 2, partition 0 (group 0)
    y_425 = iy_424.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
    ret_426 = gl.cast(h_419, gl.uint32, bitcast=True) > gl.cast(y_425, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_427 = ret_426.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_428 = ret_427 != ret_146  # convert21_ix: stage 2, partition 0 (group 0)
    ret_429 = gl.where(ret_428, y_425, h_419)  # convert21_ix: stage 2, partition 0 (group 0)
    ix_430 = ret_429.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    iy_431, = gl.reduce((ix_430,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
    iy_311, = gl.reduce((ix_310,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
    iy_312 = gl.expand_dims(iy_311, 5)  # convert1_y: stage 2, partition 0 (group 0)
    iy_313 = iy_312.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
    iy_314 = ix_310 ^ iy_313  # convert1_y: stage 2, partition 0 (group 0)
    y_315 = iy_314.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
    ret_316 = gl.cast(h_309, gl.uint32, bitcast=True) > gl.cast(y_315, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_317 = ret_316.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_318 = ret_317 != ret_229  # convert2_ix: stage 2, partition 0 (group 0)
    ret_319 = gl.where(ret_318, y_315, h_309)  # convert2_ix: stage 2, partition 0 (group 0)
    ix_320 = ret_319.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    iy_321, = gl.reduce((ix_320,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
    iy_432 = gl.expand_dims(iy_431, 7)  # convert22_y: stage 2, partition 0 (group 0)
    iy_433 = iy_432.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
    iy_434 = ix_430 ^ iy_433  # convert22_y: stage 2, partition 0 (group 0)
    y_435 = iy_434.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
    ret_436 = gl.cast(ret_429, gl.uint32, bitcast=True) > gl.cast(y_435, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_437 = ret_436.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_438 = ret_437 != ret_161  # convert23_ix: stage 2, partition 0 (group 0)
    ret_439 = gl.where(ret_438, y_435, ret_429)  # convert23_ix: stage 2, partition 0 (group 0)
    ix_440 = ret_439.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    iy_441, = gl.reduce((ix_440,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
    iy_322 = gl.expand_dims(iy_321, 6)  # convert3_y: stage 2, partition 0 (group 0)
    iy_323 = iy_322.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
    iy_324 = ix_320 ^ iy_323  # convert3_y: stage 2, partition 0 (group 0)
    y_325 = iy_324.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
    X_ptrs_341_p3 = X_ptrs_341_p2
    X_ptrs_341_p2 = X_ptrs_341_p1
    X_ptrs_341_p1 = X_ptrs_341
    acc_482_p1 = acc_482
    ix_399_p1 = ix_399
    ix_440_p1 = ix_440
    iy_441_p1 = iy_441
    ret_319_p1 = ret_319
    ret_398_p1 = ret_398
    ret_439_p1 = ret_439
    x_342_p1 = x_342
    y_325_p1 = y_325
    iy_442 = gl.expand_dims(iy_441_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
    iy_443 = iy_442.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
    iy_444 = ix_440_p1 ^ iy_443  # convert24_y: stage 3, partition 0 (group 0)
    y_445 = iy_444.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
    ret_446 = gl.cast(ret_439_p1, gl.uint32, bitcast=True) > gl.cast(y_445, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_447 = ret_446.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_448 = ret_447 != ret_176  # reduce13_h: stage 3, partition 0 (group 0)
    ret_449 = gl.where(ret_448, y_445, ret_439_p1)  # reduce13_h: stage 3, partition 0 (group 0)
    h_450 = gl.cast(gl.max(gl.cast(ret_449, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ix_451 = h_450.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
    iy_452, = gl.reduce((ix_451,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
    iy_453 = gl.expand_dims(iy_452, 5)  # convert26_y: stage 3, partition 0 (group 0)
    iy_454 = iy_453.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
    iy_455 = ix_451 ^ iy_454  # convert26_y: stage 3, partition 0 (group 0)
    y_456 = iy_455.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
    ret_457 = gl.cast(h_450, gl.uint32, bitcast=True) > gl.cast(y_456, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_458 = ret_457.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_459 = ret_458 != ret_192  # convert27_ix: stage 3, partition 0 (group 0)
    ret_460 = gl.where(ret_459, y_456, h_450)  # convert27_ix: stage 3, partition 0 (group 0)
    ix_461 = ret_460.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    iy_462, = gl.reduce((ix_461,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
    iy_463 = gl.expand_dims(iy_462, 6)  # convert28_y: stage 3, partition 0 (group 0)
    iy_464 = iy_463.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
    iy_465 = ix_461 ^ iy_464  # convert28_y: stage 3, partition 0 (group 0)
    y_466 = iy_465.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
    ret_467 = gl.cast(ret_460, gl.uint32, bitcast=True) > gl.cast(y_466, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_468 = ret_467.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_469 = ret_468 != ret_208  # convert29_ix: stage 3, partition 0 (group 0)
    ret_470 = gl.where(ret_469, y_466, ret_460)  # convert29_ix: stage 3, partition 0 (group 0)
    ix_471 = ret_470.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_326 = gl.cast(ret_319_p1, gl.uint32, bitcast=True) > gl.cast(y_325_p1, gl.uint32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_327 = ret_326.to(gl.int32)  # convert4_ix: stage 3, partition 0 (group 0)
    ret_328 = ret_327 != ret_230  # convert4_ix: stage 3, partition 0 (group 0)
    ret_329 = gl.where(ret_328, y_325_p1, ret_319_p1)  # convert4_ix: stage 3, partition 0 (group 0)
    ix_330 = ret_329.to(gl.int32, bitcast=True)  # convert4_ix: stage 3, partition 0 (group 0)
    iy_472, = gl.reduce((ix_471,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
    iy_331, = gl.reduce((ix_330,), 7, twill_combine_a2078901)  # reduce2_iy: stage 3, partition 0 (group 0)
    iy_473 = gl.expand_dims(iy_472, 7)  # convert30_y: stage 3, partition 0 (group 0)
    iy_474 = iy_473.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
    iy_475 = ix_471 ^ iy_474  # convert30_y: stage 3, partition 0 (group 0)
    y_476 = iy_475.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
    iy_332 = gl.expand_dims(iy_331, 7)  # convert5_y: stage 3, partition 0 (group 0)
    iy_333 = iy_332.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 3, partition 0 (group 0)
    iy_334 = ix_330 ^ iy_333  # convert5_y: stage 3, partition 0 (group 0)
    y_335 = iy_334.to(gl.int32, bitcast=True)  # convert5_y: stage 3, partition 0 (group 0)
    ret_336 = gl.cast(ret_329, gl.uint32, bitcast=True) > gl.cast(y_335, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_337 = ret_336.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_338 = ret_337 != ret_231  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_339 = gl.where(ret_338, y_335, ret_329)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_340 = gl.convert_layout(gl.reshape(ret_339, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_477 = gl.cast(ret_470, gl.uint32, bitcast=True) > gl.cast(y_476, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_478 = ret_477.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_479 = ret_478 != ret_224  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_480 = gl.where(ret_479, y_476, ret_470)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_481 = gl.convert_layout(gl.reshape(ret_480, [32, 8]), L13)  # broadcast0_acc: stage 3, partition 0 (group 0)
    acc_482 = gl.cast(gl.maximum(gl.cast(x_340, gl.uint32, bitcast=True), gl.cast(x_481, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    X_ptrs_341_p4 = X_ptrs_341_p3
    X_ptrs_341_p3 = X_ptrs_341_p2
    X_ptrs_341_p2 = X_ptrs_341_p1
    X_ptrs_341_p1 = X_ptrs_341
    acc_482_p1 = acc_482
    ix_399_p1 = ix_399
    ix_440_p1 = ix_440
    iy_441_p1 = iy_441
    ret_319_p1 = ret_319
    ret_398_p1 = ret_398
    ret_439_p1 = ret_439
    x_342_p1 = x_342
    y_325_p1 = y_325
    h_232 = gl.convert_layout(gl.reshape(acc_482_p1, [2, 2, 2, 2, 2, 2, 2, 2]), L12)
    ix_233 = h_232.to(gl.int32, bitcast=True)
    iy_234, = gl.reduce((ix_233,), 7, twill_combine_a2078901)
    iy_235 = gl.expand_dims(iy_234, 7)
    iy_236 = iy_235.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_237 = ix_233 ^ iy_236
    y_238 = iy_237.to(gl.int32, bitcast=True)
    ret_239 = gl.cast(h_232, gl.uint32, bitcast=True) > gl.cast(y_238, gl.uint32, bitcast=True)
    ret_240 = ar_203.broadcast_to([1, 1, 1, 1, 1, 1, 2, 2])
    ret_241 = ar_219.broadcast_to([1, 1, 1, 1, 1, 1, 2, 2])
    ret_242 = ret_240 ^ ret_241
    ret_243 = ret_239.to(gl.int32)
    ret_244 = ret_242.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_245 = ret_243 != ret_244
    ret_246 = gl.where(ret_245, y_238, h_232)
    ix_247 = ret_246.to(gl.int32, bitcast=True)
    iy_248, = gl.reduce((ix_247,), 6, twill_combine_a2078901)
    iy_249 = gl.expand_dims(iy_248, 6)
    iy_250 = iy_249.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_251 = ix_247 ^ iy_250
    y_252 = iy_251.to(gl.int32, bitcast=True)
    ret_253 = gl.cast(ret_246, gl.uint32, bitcast=True) > gl.cast(y_252, gl.uint32, bitcast=True)
    ret_254 = ar_187.broadcast_to([1, 1, 1, 1, 1, 2, 2, 1])
    ret_255 = ar_203.broadcast_to([1, 1, 1, 1, 1, 2, 2, 1])
    ret_256 = ret_254 ^ ret_255
    ret_257 = ret_253.to(gl.int32)
    ret_258 = ret_256.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_259 = ret_257 != ret_258
    ret_260 = gl.where(ret_259, y_252, ret_246)
    ix_261 = ret_260.to(gl.int32, bitcast=True)
    iy_262, = gl.reduce((ix_261,), 7, twill_combine_a2078901)
    iy_263 = gl.expand_dims(iy_262, 7)
    iy_264 = iy_263.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_265 = ix_261 ^ iy_264
    y_266 = iy_265.to(gl.int32, bitcast=True)
    ret_267 = gl.cast(ret_260, gl.uint32, bitcast=True) > gl.cast(y_266, gl.uint32, bitcast=True)
    ret_268 = ar_187.broadcast_to([1, 1, 1, 1, 1, 2, 1, 2])
    ret_269 = ar_219.broadcast_to([1, 1, 1, 1, 1, 2, 1, 2])
    ret_270 = ret_268 ^ ret_269
    ret_271 = ret_267.to(gl.int32)
    ret_272 = ret_270.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_273 = ret_271 != ret_272
    ret_274 = gl.where(ret_273, y_266, ret_260)
    ix_275 = ret_274.to(gl.int32, bitcast=True)
    iy_276, = gl.reduce((ix_275,), 5, twill_combine_a2078901)
    iy_277 = gl.expand_dims(iy_276, 5)
    iy_278 = iy_277.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_279 = ix_275 ^ iy_278
    y_280 = iy_279.to(gl.int32, bitcast=True)
    ret_281 = gl.cast(ret_274, gl.uint32, bitcast=True) > gl.cast(y_280, gl.uint32, bitcast=True)
    ret_282 = ret_281.to(gl.int32)
    ret_283 = ret_282 != ret_193
    ret_284 = gl.where(ret_283, y_280, ret_274)
    ix_285 = ret_284.to(gl.int32, bitcast=True)
    iy_286, = gl.reduce((ix_285,), 6, twill_combine_a2078901)
    iy_287 = gl.expand_dims(iy_286, 6)
    iy_288 = iy_287.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_289 = ix_285 ^ iy_288
    y_290 = iy_289.to(gl.int32, bitcast=True)
    ret_291 = gl.cast(ret_284, gl.uint32, bitcast=True) > gl.cast(y_290, gl.uint32, bitcast=True)
    ret_292 = ret_291.to(gl.int32)
    ret_293 = ret_292 != ret_209
    ret_294 = gl.where(ret_293, y_290, ret_284)
    ix_295 = ret_294.to(gl.int32, bitcast=True)
    iy_296, = gl.reduce((ix_295,), 7, twill_combine_a2078901)
    iy_297 = gl.expand_dims(iy_296, 7)
    iy_298 = iy_297.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_299 = ix_295 ^ iy_298
    y_300 = iy_299.to(gl.int32, bitcast=True)
    ret_301 = gl.cast(ret_294, gl.uint32, bitcast=True) > gl.cast(y_300, gl.uint32, bitcast=True)
    ret_302 = ret_301.to(gl.int32)
    ret_303 = ret_302 != ret_225
    ret_304 = gl.where(ret_303, y_300, ret_294)
    x_305 = gl.convert_layout(gl.reshape(ret_304, [32, 8]), L13)
    v0 = mask_m_20 * 8
    v2 = Y + v0
    v3 = gl.arange(0, 8, layout=L14)
    v4 = gl.expand_dims(v3, 0)
    v5 = v2.broadcast_to([32, 8])
    v6 = v4.broadcast_to([32, 8])
    v7 = v5 + v6
    v8 = x_305.to(gl.int32, bitcast=True)
    v9 = mask_m_24.broadcast_to([32, 8])
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
CONSTEXPRS = {'MODE': 2, 'BLOCK_M': 32, 'BLOCK_N': 32, 'N_PAD': 256, 'K': 8}         # the specialisation this kernel was generated for
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
