"""_topk_forward, written by twill from its joint schedule: I=275 L=707 (feasible), 680 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 550).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 4 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 96 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at tk_topk_forward.py:184 (TTGIR line 847) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=260, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- early return at tk_topk_forward.py:147 (TTGIR line 145): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- if at tk_topk_forward.py:144 (TTGIR line 135): written as it runs (not scheduled), in the kernel before its early return (its stores run on every path, the programs that return too)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 1, 1, 1, 1, 1, 2, 2, 2], threads_per_warp=[1, 1, 2, 2, 2, 2, 2, 1, 1, 1], warps_per_cta=[2, 2, 1, 1, 1, 1, 1, 1, 1, 1], order=[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]))
L5 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0], [1], [0]], lane_bases=[[0], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L6 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0], [0], [1]], lane_bases=[[0], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L7 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0], [0], [0]], lane_bases=[[1], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L8 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1]], lane_bases=[[0], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L9 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[], lane_bases=[[0], [1], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L10 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1], [0], [0]], lane_bases=[[0], [0], [0], [0], [0]], warp_bases=[[0], [0]], block_bases=[], shape=[2]))
L11 = gl.constexpr(gl.SliceLayout(6, gl.BlockedLayout(size_per_thread=[1, 1, 1, 1, 1, 1, 1, 2, 2, 2], threads_per_warp=[1, 1, 2, 2, 2, 2, 2, 1, 1, 1], warps_per_cta=[2, 2, 1, 1, 1, 1, 1, 1, 1, 1], order=[9, 8, 7, 6, 5, 4, 3, 2, 1, 0])))
L12 = gl.constexpr(gl.SliceLayout(5, gl.SliceLayout(6, gl.BlockedLayout(size_per_thread=[1, 1, 1, 1, 1, 1, 1, 2, 2, 2], threads_per_warp=[1, 1, 2, 2, 2, 2, 2, 1, 1, 1], warps_per_cta=[2, 2, 1, 1, 1, 1, 1, 1, 1, 1], order=[9, 8, 7, 6, 5, 4, 3, 2, 1, 0]))))
L13 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 0, 0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1, 0, 0]], lane_bases=[[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0]], warp_bases=[[0, 1, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0]], block_bases=[], shape=[2, 2, 2, 2, 2, 2, 2, 2]))
L14 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4]], lane_bases=[[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0]], block_bases=[], shape=[32, 8]))
L15 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L16 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0]))
L17 = gl.constexpr(gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 1], threads_per_warp=[4, 8, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0])))
L18 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1]))
L19 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def twill_combine_436c41ef(a0, a1):
    t0 = a0 | a1
    return t0

@gluon.jit
def twill_combine_a2078901(a0, a1):
    t0 = a0 ^ a1
    return t0

@gluon.jit
def consumer_0(X, stride_xm, Yv, Yi, stride_ym, Bits, n_rows, n_expts_tot, S, s_blocks):
    twill_base = 0
    pid = gl.program_id(0)
    v1 = pid * 32
    offs_m = gl.arange(0, 32, layout=L0)
    offs_m_24 = gl.arange(0, 32, layout=L1)
    offs_m_25 = gl.arange(0, 32, layout=L2)
    offs_m_26 = gl.arange(0, 32, layout=L3)
    offs_m_30 = v1 + offs_m
    offs_m_31 = v1 + offs_m_24
    offs_m_32 = v1 + offs_m_25
    mask_m = gl.expand_dims(offs_m_30, 1)
    mask_m_33 = gl.expand_dims(offs_m_31, 1)
    mask_m_34 = gl.expand_dims(offs_m_32, 1)
    mask_m_38 = mask_m < n_rows
    mask_m_39 = mask_m_33 < n_rows
    mask_m_40 = mask_m_34 < n_rows
    offs_x_n = offs_m_26 + 224
    mask_n = gl.expand_dims(offs_x_n, 0)
    mask_n_42 = mask_n < n_expts_tot
    X_ptrs_43 = mask_m * stride_xm
    X_ptrs_45 = X + X_ptrs_43
    X_ptrs_46 = X_ptrs_45.broadcast_to([32, 32])
    X_ptrs_47 = mask_n.broadcast_to([32, 32])
    X_ptrs_48 = X_ptrs_46 + X_ptrs_47
    x = mask_m_38.broadcast_to([32, 32])
    x_49 = mask_n_42.broadcast_to([32, 32])
    x_50 = x & x_49
    x_51 = gl.load(X_ptrs_48, mask=x_50, other=float("-inf"))
    x_52 = x_51.to(gl.int16, bitcast=True)
    x_53 = gl.cast(gl.cast(x_52, gl.int16, bitcast=True) & -32768, x_52.dtype, bitcast=True)
    x_54 = gl.cast(gl.cast(x_53, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
    x_55 = x_54 != 0
    x_56 = gl.where(x_55, -1, -32768).to(gl.int16)
    x_57 = x_52 ^ x_56
    x_58 = gl.cast(gl.cast(x_57, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
    x_59 = x_58 << 16
    x_60 = 256 - offs_x_n
    x_61 = gl.expand_dims(x_60, 0)
    x_62 = x_61.broadcast_to([32, 32])
    x_63 = x_59 | x_62
    h = gl.convert_layout(gl.reshape(x_63, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L4)
    ar = gl.arange(0, 2, layout=L5)
    ar_64 = gl.arange(0, 2, layout=L6)
    ar_65 = gl.arange(0, 2, layout=L7)
    ar_66 = gl.arange(0, 2, layout=L8)
    ar_67 = gl.arange(0, 2, layout=L9)
    ar_68 = gl.arange(0, 2, layout=L10)
    ar_69 = gl.convert_layout(gl.reshape(ar, [1, 1, 1, 1, 1, 1, 1, 1, 2, 1]), L4)
    ix = h.to(gl.int32, bitcast=True)
    iy, = gl.reduce((ix,), 9, twill_combine_a2078901)
    iy_70 = gl.expand_dims(iy, 9)
    iy_71 = iy_70.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_72 = ix ^ iy_71
    y = iy_72.to(gl.int32, bitcast=True)
    ar_73 = gl.convert_layout(gl.reshape(ar_68, [1, 1, 1, 1, 1, 1, 1, 1, 1, 2]), L4)
    ret = gl.cast(h, gl.uint32, bitcast=True) > gl.cast(y, gl.uint32, bitcast=True)
    ret_74 = ar_69.broadcast_to([1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
    ret_75 = ar_73.broadcast_to([1, 1, 1, 1, 1, 1, 1, 1, 2, 2])
    ret_76 = ret_74 ^ ret_75
    ret_77 = ret.to(gl.int32)
    ret_78 = ret_76.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_79 = ret_77 != ret_78
    ret_80 = gl.where(ret_79, y, h)
    ar_81 = gl.convert_layout(gl.reshape(ar_64, [1, 1, 1, 1, 1, 1, 1, 2, 1, 1]), L4)
    ix_82 = ret_80.to(gl.int32, bitcast=True)
    iy_83, = gl.reduce((ix_82,), 8, twill_combine_a2078901)
    iy_84 = gl.expand_dims(iy_83, 8)
    iy_85 = iy_84.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_86 = ix_82 ^ iy_85
    y_87 = iy_86.to(gl.int32, bitcast=True)
    ret_88 = gl.cast(ret_80, gl.uint32, bitcast=True) > gl.cast(y_87, gl.uint32, bitcast=True)
    ret_89 = ar_81.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 2, 1])
    ret_90 = ar_69.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 2, 1])
    ret_91 = ret_89 ^ ret_90
    ret_92 = ret_88.to(gl.int32)
    ret_93 = ret_91.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_94 = ret_92 != ret_93
    ret_95 = gl.where(ret_94, y_87, ret_80)
    ix_96 = ret_95.to(gl.int32, bitcast=True)
    iy_97, = gl.reduce((ix_96,), 9, twill_combine_a2078901)
    iy_98 = gl.expand_dims(iy_97, 9)
    iy_99 = iy_98.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_100 = ix_96 ^ iy_99
    y_101 = iy_100.to(gl.int32, bitcast=True)
    ret_102 = gl.cast(ret_95, gl.uint32, bitcast=True) > gl.cast(y_101, gl.uint32, bitcast=True)
    ret_103 = ar_81.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 1, 2])
    ret_104 = ar_73.broadcast_to([1, 1, 1, 1, 1, 1, 1, 2, 1, 2])
    ret_105 = ret_103 ^ ret_104
    ret_106 = ret_102.to(gl.int32)
    ret_107 = ret_105.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_108 = ret_106 != ret_107
    ret_109 = gl.where(ret_108, y_101, ret_95)
    ar_110 = gl.convert_layout(gl.reshape(ar_65, [1, 1, 1, 1, 1, 1, 2, 1, 1, 1]), L4)
    ix_111 = ret_109.to(gl.int32, bitcast=True)
    iy_112, = gl.reduce((ix_111,), 7, twill_combine_a2078901)
    iy_113 = gl.expand_dims(iy_112, 7)
    iy_114 = iy_113.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_115 = ix_111 ^ iy_114
    y_116 = iy_115.to(gl.int32, bitcast=True)
    ret_117 = gl.cast(ret_109, gl.uint32, bitcast=True) > gl.cast(y_116, gl.uint32, bitcast=True)
    ret_118 = ar_110.broadcast_to([1, 1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_119 = ar_81.broadcast_to([1, 1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_120 = ret_118 ^ ret_119
    ret_121 = ret_117.to(gl.int32)
    ret_122 = ret_120.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_123 = ret_121 != ret_122
    ret_124 = gl.where(ret_123, y_116, ret_109)
    ix_125 = ret_124.to(gl.int32, bitcast=True)
    iy_126, = gl.reduce((ix_125,), 8, twill_combine_a2078901)
    iy_127 = gl.expand_dims(iy_126, 8)
    iy_128 = iy_127.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_129 = ix_125 ^ iy_128
    y_130 = iy_129.to(gl.int32, bitcast=True)
    ret_131 = gl.cast(ret_124, gl.uint32, bitcast=True) > gl.cast(y_130, gl.uint32, bitcast=True)
    ret_132 = ar_110.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_133 = ar_69.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_134 = ret_132 ^ ret_133
    ret_135 = ret_131.to(gl.int32)
    ret_136 = ret_134.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_137 = ret_135 != ret_136
    ret_138 = gl.where(ret_137, y_130, ret_124)
    ix_139 = ret_138.to(gl.int32, bitcast=True)
    iy_140, = gl.reduce((ix_139,), 9, twill_combine_a2078901)
    iy_141 = gl.expand_dims(iy_140, 9)
    iy_142 = iy_141.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_143 = ix_139 ^ iy_142
    y_144 = iy_143.to(gl.int32, bitcast=True)
    ret_145 = gl.cast(ret_138, gl.uint32, bitcast=True) > gl.cast(y_144, gl.uint32, bitcast=True)
    ret_146 = ar_110.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_147 = ar_73.broadcast_to([1, 1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_148 = ret_146 ^ ret_147
    ret_149 = ret_145.to(gl.int32)
    ret_150 = ret_148.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_151 = ret_149 != ret_150
    ret_152 = gl.where(ret_151, y_144, ret_138)
    h_153 = gl.cast(gl.max(gl.cast(ret_152, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)
    ar_154 = gl.convert_layout(gl.reshape(ar_67, [1, 1, 1, 1, 1, 2, 1, 1, 1]), L11)
    ix_155 = h_153.to(gl.int32, bitcast=True)
    iy_156, = gl.reduce((ix_155,), 6, twill_combine_a2078901)
    iy_157 = gl.expand_dims(iy_156, 6)
    iy_158 = iy_157.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_159 = ix_155 ^ iy_158
    y_160 = iy_159.to(gl.int32, bitcast=True)
    ar_161 = gl.convert_layout(gl.reshape(ar_66, [1, 1, 1, 1, 1, 1, 2, 1, 1]), L11)
    ret_162 = gl.cast(h_153, gl.uint32, bitcast=True) > gl.cast(y_160, gl.uint32, bitcast=True)
    ret_163 = ar_154.broadcast_to([1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_164 = ar_161.broadcast_to([1, 1, 1, 1, 1, 2, 2, 1, 1])
    ret_165 = ret_163 ^ ret_164
    ret_166 = ret_162.to(gl.int32)
    ret_167 = ret_165.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_168 = ret_166 != ret_167
    ret_169 = gl.where(ret_168, y_160, h_153)
    ix_170 = ret_169.to(gl.int32, bitcast=True)
    iy_171, = gl.reduce((ix_170,), 7, twill_combine_a2078901)
    iy_172 = gl.expand_dims(iy_171, 7)
    iy_173 = iy_172.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_174 = ix_170 ^ iy_173
    y_175 = iy_174.to(gl.int32, bitcast=True)
    ar_176 = gl.convert_layout(gl.reshape(ar_66, [1, 1, 1, 1, 1, 1, 1, 2, 1]), L11)
    ret_177 = gl.cast(ret_169, gl.uint32, bitcast=True) > gl.cast(y_175, gl.uint32, bitcast=True)
    ret_178 = ar_154.broadcast_to([1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_179 = ar_176.broadcast_to([1, 1, 1, 1, 1, 2, 1, 2, 1])
    ret_180 = ret_178 ^ ret_179
    ret_181 = ret_177.to(gl.int32)
    ret_182 = ret_180.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_183 = ret_181 != ret_182
    ret_184 = gl.where(ret_183, y_175, ret_169)
    ix_185 = ret_184.to(gl.int32, bitcast=True)
    iy_186, = gl.reduce((ix_185,), 8, twill_combine_a2078901)
    iy_187 = gl.expand_dims(iy_186, 8)
    iy_188 = iy_187.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    iy_189 = ix_185 ^ iy_188
    y_190 = iy_189.to(gl.int32, bitcast=True)
    ar_191 = gl.convert_layout(gl.reshape(ar_66, [1, 1, 1, 1, 1, 1, 1, 1, 2]), L11)
    ret_192 = gl.cast(ret_184, gl.uint32, bitcast=True) > gl.cast(y_190, gl.uint32, bitcast=True)
    ret_193 = ar_154.broadcast_to([1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_194 = ar_191.broadcast_to([1, 1, 1, 1, 1, 2, 1, 1, 2])
    ret_195 = ret_193 ^ ret_194
    ret_196 = ret_192.to(gl.int32)
    ret_197 = ret_195.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])
    ret_198 = ret_196 != ret_197
    ret_199 = gl.where(ret_198, y_190, ret_184)
    h_200 = gl.cast(gl.max(gl.cast(ret_199, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)
    ix_201 = h_200.to(gl.int32, bitcast=True)
    iy_202, = gl.reduce((ix_201,), 5, twill_combine_a2078901)
    iy_203 = gl.expand_dims(iy_202, 5)
    iy_204 = iy_203.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_205 = ix_201 ^ iy_204
    y_206 = iy_205.to(gl.int32, bitcast=True)
    ar_207 = gl.convert_layout(gl.reshape(ar_66, [1, 1, 1, 1, 1, 2, 1, 1]), L12)
    ar_208 = gl.convert_layout(gl.reshape(ar_66, [1, 1, 1, 1, 1, 2, 1, 1]), L13)
    ret_209 = gl.cast(h_200, gl.uint32, bitcast=True) > gl.cast(y_206, gl.uint32, bitcast=True)
    ret_210 = ar_207 ^ 1
    ret_211 = ar_208 ^ 1
    ret_212 = ret_209.to(gl.int32)
    ret_213 = ret_210.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_214 = ret_211.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_215 = ret_212 != ret_213
    ret_216 = gl.where(ret_215, y_206, h_200)
    ix_217 = ret_216.to(gl.int32, bitcast=True)
    iy_218, = gl.reduce((ix_217,), 6, twill_combine_a2078901)
    iy_219 = gl.expand_dims(iy_218, 6)
    iy_220 = iy_219.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_221 = ix_217 ^ iy_220
    y_222 = iy_221.to(gl.int32, bitcast=True)
    ar_223 = gl.convert_layout(gl.reshape(ar_66, [1, 1, 1, 1, 1, 1, 2, 1]), L12)
    ar_224 = gl.convert_layout(gl.reshape(ar_66, [1, 1, 1, 1, 1, 1, 2, 1]), L13)
    ret_225 = gl.cast(ret_216, gl.uint32, bitcast=True) > gl.cast(y_222, gl.uint32, bitcast=True)
    ret_226 = ar_223 ^ 1
    ret_227 = ar_224 ^ 1
    ret_228 = ret_225.to(gl.int32)
    ret_229 = ret_226.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_230 = ret_227.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_231 = ret_228 != ret_229
    ret_232 = gl.where(ret_231, y_222, ret_216)
    ix_233 = ret_232.to(gl.int32, bitcast=True)
    iy_234, = gl.reduce((ix_233,), 7, twill_combine_a2078901)
    iy_235 = gl.expand_dims(iy_234, 7)
    iy_236 = iy_235.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_237 = ix_233 ^ iy_236
    y_238 = iy_237.to(gl.int32, bitcast=True)
    ar_239 = gl.convert_layout(gl.reshape(ar_66, [1, 1, 1, 1, 1, 1, 1, 2]), L12)
    ar_240 = gl.convert_layout(gl.reshape(ar_66, [1, 1, 1, 1, 1, 1, 1, 2]), L13)
    ret_241 = gl.cast(ret_232, gl.uint32, bitcast=True) > gl.cast(y_238, gl.uint32, bitcast=True)
    ret_242 = ar_239 ^ 1
    ret_243 = ar_240 ^ 1
    ret_244 = ret_241.to(gl.int32)
    ret_245 = ret_242.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_246 = ret_243.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_247 = ret_244 != ret_245
    ret_248 = gl.where(ret_247, y_238, ret_232)
    x_249 = gl.convert_layout(gl.reshape(ret_248, [32, 8]), L14)
    ret_250 = ar_208.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_251 = ar_224.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_252 = ar_240.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    twill_n = (7 - 0 + 1 - 1) // 1
    X_ptrs_396 = X_ptrs_48
    X_ptrs_396_p1 = X_ptrs_396
    offs_x_n_397 = offs_x_n
    X_ptrs_396 = X_ptrs_396_p1 + -32  # load0_x: stage 0, partition 0 (group 0)
    x_398 = gl.load(X_ptrs_396, mask=x, other=float("-inf"))  # load0_x: stage 0, partition 0 (group 0)
    X_ptrs_396_p1 = X_ptrs_396
    offs_x_n_397_p1 = offs_x_n_397
    x_398_p1 = x_398
    X_ptrs_396 = X_ptrs_396_p1 + -32  # load0_x: stage 0, partition 0 (group 0)
    x_398 = gl.load(X_ptrs_396, mask=x, other=float("-inf"))  # load0_x: stage 0, partition 0 (group 0)
    x_399 = x_398_p1.to(gl.int16, bitcast=True)  # convert7_x: stage 1, partition 0 (group 0)
    offs_x_n_397 = offs_x_n_397_p1 - 32  # convert6_ix: stage 1, partition 0 (group 0)
    x_400 = gl.cast(gl.cast(x_399, gl.int16, bitcast=True) & -32768, x_399.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_401 = gl.cast(gl.cast(x_400, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_402 = x_401 != 0  # convert6_ix: stage 1, partition 0 (group 0)
    x_403 = gl.where(x_402, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
    x_404 = x_399 ^ x_403  # convert6_ix: stage 1, partition 0 (group 0)
    x_405 = gl.cast(gl.cast(x_404, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_406 = x_405 << 16  # convert6_ix: stage 1, partition 0 (group 0)
    x_407 = 256 - offs_x_n_397  # convert6_ix: stage 1, partition 0 (group 0)
    x_408 = gl.expand_dims(x_407, 0)  # convert6_ix: stage 1, partition 0 (group 0)
    x_409 = x_408.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
    x_410 = x_406 | x_409  # convert6_ix: stage 1, partition 0 (group 0)
    h_411 = gl.convert_layout(gl.reshape(x_410, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L4)  # convert6_ix: stage 1, partition 0 (group 0)
    ix_412 = h_411.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    iy_413, = gl.reduce((ix_412,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
    iy_414 = gl.expand_dims(iy_413, 9)  # convert8_y: stage 1, partition 0 (group 0)
    iy_415 = iy_414.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
    iy_416 = ix_412 ^ iy_415  # convert8_y: stage 1, partition 0 (group 0)
    y_417 = iy_416.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
    ret_418 = gl.cast(h_411, gl.uint32, bitcast=True) > gl.cast(y_417, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_419 = ret_418.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_420 = ret_419 != ret_78  # convert9_ix: stage 1, partition 0 (group 0)
    ret_421 = gl.where(ret_420, y_417, h_411)  # convert9_ix: stage 1, partition 0 (group 0)
    ix_422 = ret_421.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    iy_423, = gl.reduce((ix_422,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
    iy_424 = gl.expand_dims(iy_423, 8)  # convert10_y: stage 1, partition 0 (group 0)
    iy_425 = iy_424.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
    iy_426 = ix_422 ^ iy_425  # convert10_y: stage 1, partition 0 (group 0)
    y_427 = iy_426.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
    ret_428 = gl.cast(ret_421, gl.uint32, bitcast=True) > gl.cast(y_427, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_429 = ret_428.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_430 = ret_429 != ret_93  # convert11_ix: stage 1, partition 0 (group 0)
    ret_431 = gl.where(ret_430, y_427, ret_421)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_432 = ret_431.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    iy_433, = gl.reduce((ix_432,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
    iy_434 = gl.expand_dims(iy_433, 9)  # convert12_y: stage 1, partition 0 (group 0)
    iy_435 = iy_434.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
    iy_436 = ix_432 ^ iy_435  # convert12_y: stage 1, partition 0 (group 0)
    y_437 = iy_436.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
    ret_438 = gl.cast(ret_431, gl.uint32, bitcast=True) > gl.cast(y_437, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_439 = ret_438.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_440 = ret_439 != ret_107  # convert13_ix: stage 1, partition 0 (group 0)
    ret_441 = gl.where(ret_440, y_437, ret_431)  # convert13_ix: stage 1, partition 0 (group 0)
    ix_442 = ret_441.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    iy_443, = gl.reduce((ix_442,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
    iy_444 = gl.expand_dims(iy_443, 7)  # convert14_y: stage 1, partition 0 (group 0)
    iy_445 = iy_444.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
    iy_446 = ix_442 ^ iy_445  # convert14_y: stage 1, partition 0 (group 0)
    y_447 = iy_446.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
    ret_448 = gl.cast(ret_441, gl.uint32, bitcast=True) > gl.cast(y_447, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_449 = ret_448.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_450 = ret_449 != ret_122  # convert15_ix: stage 1, partition 0 (group 0)
    ret_451 = gl.where(ret_450, y_447, ret_441)  # convert15_ix: stage 1, partition 0 (group 0)
    ix_452 = ret_451.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    X_ptrs_396_p1 = X_ptrs_396
    ix_452_p1 = ix_452
    offs_x_n_397_p1 = offs_x_n_397
    ret_451_p1 = ret_451
    x_398_p1 = x_398
    acc_535 = x_249
    X_ptrs_396 = X_ptrs_396_p1 + -32  # load0_x: stage 0, partition 0 (group 0)
    x_398 = gl.load(X_ptrs_396, mask=x, other=float("-inf"))  # load0_x: stage 0, partition 0 (group 0)
    x_399 = x_398_p1.to(gl.int16, bitcast=True)  # convert7_x: stage 1, partition 0 (group 0)
    iy_453, = gl.reduce((ix_452_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
    offs_x_n_397 = offs_x_n_397_p1 - 32  # convert6_ix: stage 1, partition 0 (group 0)
    x_400 = gl.cast(gl.cast(x_399, gl.int16, bitcast=True) & -32768, x_399.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_401 = gl.cast(gl.cast(x_400, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_402 = x_401 != 0  # convert6_ix: stage 1, partition 0 (group 0)
    x_403 = gl.where(x_402, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
    x_404 = x_399 ^ x_403  # convert6_ix: stage 1, partition 0 (group 0)
    x_405 = gl.cast(gl.cast(x_404, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_406 = x_405 << 16  # convert6_ix: stage 1, partition 0 (group 0)
    x_407 = 256 - offs_x_n_397  # convert6_ix: stage 1, partition 0 (group 0)
    x_408 = gl.expand_dims(x_407, 0)  # convert6_ix: stage 1, partition 0 (group 0)
    x_409 = x_408.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
    x_410 = x_406 | x_409  # convert6_ix: stage 1, partition 0 (group 0)
    h_411 = gl.convert_layout(gl.reshape(x_410, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L4)  # convert6_ix: stage 1, partition 0 (group 0)
    ix_412 = h_411.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    iy_413, = gl.reduce((ix_412,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
    iy_454 = gl.expand_dims(iy_453, 8)  # convert16_y: stage 2, partition 0 (group 0)
    iy_455 = iy_454.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
    iy_456 = ix_452_p1 ^ iy_455  # convert16_y: stage 2, partition 0 (group 0)
    y_457 = iy_456.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
    ret_458 = gl.cast(ret_451_p1, gl.uint32, bitcast=True) > gl.cast(y_457, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_459 = ret_458.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_460 = ret_459 != ret_136  # convert17_ix: stage 2, partition 0 (group 0)
    ret_461 = gl.where(ret_460, y_457, ret_451_p1)  # convert17_ix: stage 2, partition 0 (group 0)
    ix_462 = ret_461.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    iy_414 = gl.expand_dims(iy_413, 9)  # convert8_y: stage 1, partition 0 (group 0)
    iy_415 = iy_414.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
    iy_416 = ix_412 ^ iy_415  # convert8_y: stage 1, partition 0 (group 0)
    y_417 = iy_416.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
    iy_463, = gl.reduce((ix_462,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
    ret_418 = gl.cast(h_411, gl.uint32, bitcast=True) > gl.cast(y_417, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_419 = ret_418.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_420 = ret_419 != ret_78  # convert9_ix: stage 1, partition 0 (group 0)
    ret_421 = gl.where(ret_420, y_417, h_411)  # convert9_ix: stage 1, partition 0 (group 0)
    ix_422 = ret_421.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    iy_464 = gl.expand_dims(iy_463, 9)  # convert18_y: stage 2, partition 0 (group 0)
    iy_465 = iy_464.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
    iy_466 = ix_462 ^ iy_465  # convert18_y: stage 2, partition 0 (group 0)
    y_467 = iy_466.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
    iy_423, = gl.reduce((ix_422,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
    ret_468 = gl.cast(ret_461, gl.uint32, bitcast=True) > gl.cast(y_467, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_469 = ret_468.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_470 = ret_469 != ret_150  # reduce9_h: stage 2, partition 0 (group 0)
    ret_471 = gl.where(ret_470, y_467, ret_461)  # reduce9_h: stage 2, partition 0 (group 0)
    h_472 = gl.cast(gl.max(gl.cast(ret_471, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    h_364 = gl.convert_layout(gl.reshape(acc_535, [2, 2, 2, 2, 2, 2, 2, 2]), L13)  # convert0_ix: stage 2, partition 0 (group 0)
    ix_365 = h_364.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
    iy_366, = gl.reduce((ix_365,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
    iy_424 = gl.expand_dims(iy_423, 8)  # convert10_y: stage 1, partition 0 (group 0)
    iy_425 = iy_424.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
    iy_426 = ix_422 ^ iy_425  # convert10_y: stage 1, partition 0 (group 0)
    y_427 = iy_426.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
    ix_473 = h_472.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
    iy_474, = gl.reduce((ix_473,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
    ret_428 = gl.cast(ret_421, gl.uint32, bitcast=True) > gl.cast(y_427, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_429 = ret_428.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_430 = ret_429 != ret_93  # convert11_ix: stage 1, partition 0 (group 0)
    ret_431 = gl.where(ret_430, y_427, ret_421)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_432 = ret_431.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    iy_433, = gl.reduce((ix_432,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
    iy_475 = gl.expand_dims(iy_474, 6)  # convert20_y: stage 2, partition 0 (group 0)
    iy_476 = iy_475.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
    iy_477 = ix_473 ^ iy_476  # convert20_y: stage 2, partition 0 (group 0)
    y_478 = iy_477.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
    iy_367 = gl.expand_dims(iy_366, 5)  # convert1_y: stage 2, partition 0 (group 0)
    iy_368 = iy_367.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
    iy_369 = ix_365 ^ iy_368  # convert1_y: stage 2, partition 0 (group 0)
    y_370 = iy_369.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
    ret_371 = gl.cast(h_364, gl.uint32, bitcast=True) > gl.cast(y_370, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_372 = ret_371.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_373 = ret_372 != ret_250  # convert2_ix: stage 2, partition 0 (group 0)
    ret_374 = gl.where(ret_373, y_370, h_364)  # convert2_ix: stage 2, partition 0 (group 0)
    ix_375 = ret_374.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_479 = gl.cast(h_472, gl.uint32, bitcast=True) > gl.cast(y_478, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_480 = ret_479.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_481 = ret_480 != ret_167  # convert21_ix: stage 2, partition 0 (group 0)
    ret_482 = gl.where(ret_481, y_478, h_472)  # convert21_ix: stage 2, partition 0 (group 0)
    ix_483 = ret_482.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    iy_434 = gl.expand_dims(iy_433, 9)  # convert12_y: stage 1, partition 0 (group 0)
    iy_435 = iy_434.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
    iy_436 = ix_432 ^ iy_435  # convert12_y: stage 1, partition 0 (group 0)
    y_437 = iy_436.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
    iy_484, = gl.reduce((ix_483,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
    iy_376, = gl.reduce((ix_375,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
    ret_438 = gl.cast(ret_431, gl.uint32, bitcast=True) > gl.cast(y_437, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_439 = ret_438.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_440 = ret_439 != ret_107  # convert13_ix: stage 1, partition 0 (group 0)
    ret_441 = gl.where(ret_440, y_437, ret_431)  # convert13_ix: stage 1, partition 0 (group 0)
    ix_442 = ret_441.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    iy_443, = gl.reduce((ix_442,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
    iy_377 = gl.expand_dims(iy_376, 6)  # convert3_y: stage 2, partition 0 (group 0)
    iy_378 = iy_377.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
    iy_379 = ix_375 ^ iy_378  # convert3_y: stage 2, partition 0 (group 0)
    y_380 = iy_379.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
    iy_485 = gl.expand_dims(iy_484, 7)  # convert22_y: stage 2, partition 0 (group 0)
    iy_486 = iy_485.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
    iy_487 = ix_483 ^ iy_486  # convert22_y: stage 2, partition 0 (group 0)
    y_488 = iy_487.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
    ret_381 = gl.cast(ret_374, gl.uint32, bitcast=True) > gl.cast(y_380, gl.uint32, bitcast=True)  # convert4_ix: stage 2, partition 0 (group 0)
    ret_382 = ret_381.to(gl.int32)  # convert4_ix: stage 2, partition 0 (group 0)
    ret_383 = ret_382 != ret_251  # convert4_ix: stage 2, partition 0 (group 0)
    ret_384 = gl.where(ret_383, y_380, ret_374)  # convert4_ix: stage 2, partition 0 (group 0)
    ix_385 = ret_384.to(gl.int32, bitcast=True)  # convert4_ix: stage 2, partition 0 (group 0)
    iy_386, = gl.reduce((ix_385,), 7, twill_combine_a2078901)  # reduce2_iy: stage 2, partition 0 (group 0)
    ret_489 = gl.cast(ret_482, gl.uint32, bitcast=True) > gl.cast(y_488, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_490 = ret_489.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_491 = ret_490 != ret_182  # convert23_ix: stage 2, partition 0 (group 0)
    ret_492 = gl.where(ret_491, y_488, ret_482)  # convert23_ix: stage 2, partition 0 (group 0)
    ix_493 = ret_492.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    iy_444 = gl.expand_dims(iy_443, 7)  # convert14_y: stage 1, partition 0 (group 0)
    iy_445 = iy_444.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
    iy_446 = ix_442 ^ iy_445  # convert14_y: stage 1, partition 0 (group 0)
    y_447 = iy_446.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
    iy_494, = gl.reduce((ix_493,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
    iy_387 = gl.expand_dims(iy_386, 7)  # convert5_y: stage 2, partition 0 (group 0)
    iy_388 = iy_387.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 2, partition 0 (group 0)
    iy_389 = ix_385 ^ iy_388  # convert5_y: stage 2, partition 0 (group 0)
    y_390 = iy_389.to(gl.int32, bitcast=True)  # convert5_y: stage 2, partition 0 (group 0)
    ret_448 = gl.cast(ret_441, gl.uint32, bitcast=True) > gl.cast(y_447, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_449 = ret_448.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_450 = ret_449 != ret_122  # convert15_ix: stage 1, partition 0 (group 0)
    ret_451 = gl.where(ret_450, y_447, ret_441)  # convert15_ix: stage 1, partition 0 (group 0)
    ix_452 = ret_451.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    X_ptrs_396_p1 = X_ptrs_396
    ix_452_p1 = ix_452
    ix_493_p1 = ix_493
    iy_494_p1 = iy_494
    offs_x_n_397_p1 = offs_x_n_397
    ret_384_p1 = ret_384
    ret_451_p1 = ret_451
    ret_492_p1 = ret_492
    x_398_p1 = x_398
    y_390_p1 = y_390
    for twill_b in range(3, twill_n):
        iy_495 = gl.expand_dims(iy_494_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
        iy_496 = iy_495.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
        iy_497 = ix_493_p1 ^ iy_496  # convert24_y: stage 3, partition 0 (group 0)
        y_498 = iy_497.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
        X_ptrs_396 = X_ptrs_396_p1 + -32  # load0_x: stage 0, partition 0 (group 0)
        x_398 = gl.load(X_ptrs_396, mask=x, other=float("-inf"))  # load0_x: stage 0, partition 0 (group 0)
        x_399 = x_398_p1.to(gl.int16, bitcast=True)  # convert7_x: stage 1, partition 0 (group 0)
        ret_499 = gl.cast(ret_492_p1, gl.uint32, bitcast=True) > gl.cast(y_498, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
        ret_500 = ret_499.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
        ret_501 = ret_500 != ret_197  # reduce13_h: stage 3, partition 0 (group 0)
        ret_502 = gl.where(ret_501, y_498, ret_492_p1)  # reduce13_h: stage 3, partition 0 (group 0)
        h_503 = gl.cast(gl.max(gl.cast(ret_502, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
        iy_453, = gl.reduce((ix_452_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
        offs_x_n_397 = offs_x_n_397_p1 - 32  # convert6_ix: stage 1, partition 0 (group 0)
        x_400 = gl.cast(gl.cast(x_399, gl.int16, bitcast=True) & -32768, x_399.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        x_401 = gl.cast(gl.cast(x_400, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        x_402 = x_401 != 0  # convert6_ix: stage 1, partition 0 (group 0)
        x_403 = gl.where(x_402, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
        x_404 = x_399 ^ x_403  # convert6_ix: stage 1, partition 0 (group 0)
        x_405 = gl.cast(gl.cast(x_404, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        x_406 = x_405 << 16  # convert6_ix: stage 1, partition 0 (group 0)
        x_407 = 256 - offs_x_n_397  # convert6_ix: stage 1, partition 0 (group 0)
        x_408 = gl.expand_dims(x_407, 0)  # convert6_ix: stage 1, partition 0 (group 0)
        x_409 = x_408.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
        x_410 = x_406 | x_409  # convert6_ix: stage 1, partition 0 (group 0)
        h_411 = gl.convert_layout(gl.reshape(x_410, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L4)  # convert6_ix: stage 1, partition 0 (group 0)
        ix_412 = h_411.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
        ix_504 = h_503.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
        iy_505, = gl.reduce((ix_504,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
        iy_413, = gl.reduce((ix_412,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
        iy_454 = gl.expand_dims(iy_453, 8)  # convert16_y: stage 2, partition 0 (group 0)
        iy_455 = iy_454.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
        iy_456 = ix_452_p1 ^ iy_455  # convert16_y: stage 2, partition 0 (group 0)
        y_457 = iy_456.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
        ret_458 = gl.cast(ret_451_p1, gl.uint32, bitcast=True) > gl.cast(y_457, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
        ret_459 = ret_458.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
        ret_460 = ret_459 != ret_136  # convert17_ix: stage 2, partition 0 (group 0)
        ret_461 = gl.where(ret_460, y_457, ret_451_p1)  # convert17_ix: stage 2, partition 0 (group 0)
        ix_462 = ret_461.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
        iy_506 = gl.expand_dims(iy_505, 5)  # convert26_y: stage 3, partition 0 (group 0)
        iy_507 = iy_506.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
        iy_508 = ix_504 ^ iy_507  # convert26_y: stage 3, partition 0 (group 0)
        y_509 = iy_508.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
        ret_510 = gl.cast(h_503, gl.uint32, bitcast=True) > gl.cast(y_509, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
        ret_511 = ret_510.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
        ret_512 = ret_511 != ret_213  # convert27_ix: stage 3, partition 0 (group 0)
        ret_513 = gl.where(ret_512, y_509, h_503)  # convert27_ix: stage 3, partition 0 (group 0)
        ix_514 = ret_513.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
        iy_515, = gl.reduce((ix_514,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
        iy_414 = gl.expand_dims(iy_413, 9)  # convert8_y: stage 1, partition 0 (group 0)
        iy_415 = iy_414.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
        iy_416 = ix_412 ^ iy_415  # convert8_y: stage 1, partition 0 (group 0)
        y_417 = iy_416.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
        iy_463, = gl.reduce((ix_462,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
        ret_418 = gl.cast(h_411, gl.uint32, bitcast=True) > gl.cast(y_417, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
        ret_419 = ret_418.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
        ret_420 = ret_419 != ret_78  # convert9_ix: stage 1, partition 0 (group 0)
        ret_421 = gl.where(ret_420, y_417, h_411)  # convert9_ix: stage 1, partition 0 (group 0)
        ix_422 = ret_421.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
        iy_516 = gl.expand_dims(iy_515, 6)  # convert28_y: stage 3, partition 0 (group 0)
        iy_517 = iy_516.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
        iy_518 = ix_514 ^ iy_517  # convert28_y: stage 3, partition 0 (group 0)
        y_519 = iy_518.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
        ret_520 = gl.cast(ret_513, gl.uint32, bitcast=True) > gl.cast(y_519, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
        ret_521 = ret_520.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
        ret_522 = ret_521 != ret_229  # convert29_ix: stage 3, partition 0 (group 0)
        ret_523 = gl.where(ret_522, y_519, ret_513)  # convert29_ix: stage 3, partition 0 (group 0)
        ix_524 = ret_523.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
        iy_525, = gl.reduce((ix_524,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
        iy_464 = gl.expand_dims(iy_463, 9)  # convert18_y: stage 2, partition 0 (group 0)
        iy_465 = iy_464.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
        iy_466 = ix_462 ^ iy_465  # convert18_y: stage 2, partition 0 (group 0)
        y_467 = iy_466.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
        iy_423, = gl.reduce((ix_422,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
        ret_468 = gl.cast(ret_461, gl.uint32, bitcast=True) > gl.cast(y_467, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
        ret_469 = ret_468.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
        ret_470 = ret_469 != ret_150  # reduce9_h: stage 2, partition 0 (group 0)
        ret_471 = gl.where(ret_470, y_467, ret_461)  # reduce9_h: stage 2, partition 0 (group 0)
        h_472 = gl.cast(gl.max(gl.cast(ret_471, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
        iy_526 = gl.expand_dims(iy_525, 7)  # convert30_y: stage 3, partition 0 (group 0)
        iy_527 = iy_526.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
        iy_528 = ix_524 ^ iy_527  # convert30_y: stage 3, partition 0 (group 0)
        y_529 = iy_528.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
        ret_391 = gl.cast(ret_384_p1, gl.uint32, bitcast=True) > gl.cast(y_390_p1, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_392 = ret_391.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_393 = ret_392 != ret_252  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_394 = gl.where(ret_393, y_390_p1, ret_384_p1)  # broadcast0_acc: stage 3, partition 0 (group 0)
        x_395 = gl.convert_layout(gl.reshape(ret_394, [32, 8]), L14)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_530 = gl.cast(ret_523, gl.uint32, bitcast=True) > gl.cast(y_529, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_531 = ret_530.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_532 = ret_531 != ret_245  # broadcast0_acc: stage 3, partition 0 (group 0)
        ret_533 = gl.where(ret_532, y_529, ret_523)  # broadcast0_acc: stage 3, partition 0 (group 0)
        x_534 = gl.convert_layout(gl.reshape(ret_533, [32, 8]), L14)  # broadcast0_acc: stage 3, partition 0 (group 0)
        acc_535 = gl.cast(gl.maximum(gl.cast(x_395, gl.uint32, bitcast=True), gl.cast(x_534, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
        h_364 = gl.convert_layout(gl.reshape(acc_535, [2, 2, 2, 2, 2, 2, 2, 2]), L13)  # convert0_ix: stage 2, partition 0 (group 0)
        ix_365 = h_364.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
        iy_366, = gl.reduce((ix_365,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
        iy_424 = gl.expand_dims(iy_423, 8)  # convert10_y: stage 1, partition 0 (group 0)
        iy_425 = iy_424.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
        iy_426 = ix_422 ^ iy_425  # convert10_y: stage 1, partition 0 (group 0)
        y_427 = iy_426.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
        ix_473 = h_472.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
        iy_474, = gl.reduce((ix_473,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
        ret_428 = gl.cast(ret_421, gl.uint32, bitcast=True) > gl.cast(y_427, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
        ret_429 = ret_428.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
        ret_430 = ret_429 != ret_93  # convert11_ix: stage 1, partition 0 (group 0)
        ret_431 = gl.where(ret_430, y_427, ret_421)  # convert11_ix: stage 1, partition 0 (group 0)
        ix_432 = ret_431.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
        iy_433, = gl.reduce((ix_432,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
        iy_475 = gl.expand_dims(iy_474, 6)  # convert20_y: stage 2, partition 0 (group 0)
        iy_476 = iy_475.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
        iy_477 = ix_473 ^ iy_476  # convert20_y: stage 2, partition 0 (group 0)
        y_478 = iy_477.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
        iy_367 = gl.expand_dims(iy_366, 5)  # convert1_y: stage 2, partition 0 (group 0)
        iy_368 = iy_367.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
        iy_369 = ix_365 ^ iy_368  # convert1_y: stage 2, partition 0 (group 0)
        y_370 = iy_369.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
        ret_371 = gl.cast(h_364, gl.uint32, bitcast=True) > gl.cast(y_370, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
        ret_372 = ret_371.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
        ret_373 = ret_372 != ret_250  # convert2_ix: stage 2, partition 0 (group 0)
        ret_374 = gl.where(ret_373, y_370, h_364)  # convert2_ix: stage 2, partition 0 (group 0)
        ix_375 = ret_374.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
        ret_479 = gl.cast(h_472, gl.uint32, bitcast=True) > gl.cast(y_478, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
        ret_480 = ret_479.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
        ret_481 = ret_480 != ret_167  # convert21_ix: stage 2, partition 0 (group 0)
        ret_482 = gl.where(ret_481, y_478, h_472)  # convert21_ix: stage 2, partition 0 (group 0)
        ix_483 = ret_482.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
        iy_434 = gl.expand_dims(iy_433, 9)  # convert12_y: stage 1, partition 0 (group 0)
        iy_435 = iy_434.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
        iy_436 = ix_432 ^ iy_435  # convert12_y: stage 1, partition 0 (group 0)
        y_437 = iy_436.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
        iy_484, = gl.reduce((ix_483,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
        iy_376, = gl.reduce((ix_375,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
        ret_438 = gl.cast(ret_431, gl.uint32, bitcast=True) > gl.cast(y_437, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
        ret_439 = ret_438.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
        ret_440 = ret_439 != ret_107  # convert13_ix: stage 1, partition 0 (group 0)
        ret_441 = gl.where(ret_440, y_437, ret_431)  # convert13_ix: stage 1, partition 0 (group 0)
        ix_442 = ret_441.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
        iy_443, = gl.reduce((ix_442,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
        iy_377 = gl.expand_dims(iy_376, 6)  # convert3_y: stage 2, partition 0 (group 0)
        iy_378 = iy_377.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
        iy_379 = ix_375 ^ iy_378  # convert3_y: stage 2, partition 0 (group 0)
        y_380 = iy_379.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
        iy_485 = gl.expand_dims(iy_484, 7)  # convert22_y: stage 2, partition 0 (group 0)
        iy_486 = iy_485.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
        iy_487 = ix_483 ^ iy_486  # convert22_y: stage 2, partition 0 (group 0)
        y_488 = iy_487.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
        ret_381 = gl.cast(ret_374, gl.uint32, bitcast=True) > gl.cast(y_380, gl.uint32, bitcast=True)  # convert4_ix: stage 2, partition 0 (group 0)
        ret_382 = ret_381.to(gl.int32)  # convert4_ix: stage 2, partition 0 (group 0)
        ret_383 = ret_382 != ret_251  # convert4_ix: stage 2, partition 0 (group 0)
        ret_384 = gl.where(ret_383, y_380, ret_374)  # convert4_ix: stage 2, partition 0 (group 0)
        ix_385 = ret_384.to(gl.int32, bitcast=True)  # convert4_ix: stage 2, partition 0 (group 0)
        iy_386, = gl.reduce((ix_385,), 7, twill_combine_a2078901)  # reduce2_iy: stage 2, partition 0 (group 0)
        ret_489 = gl.cast(ret_482, gl.uint32, bitcast=True) > gl.cast(y_488, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
        ret_490 = ret_489.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
        ret_491 = ret_490 != ret_182  # convert23_ix: stage 2, partition 0 (group 0)
        ret_492 = gl.where(ret_491, y_488, ret_482)  # convert23_ix: stage 2, partition 0 (group 0)
        ix_493 = ret_492.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
        iy_444 = gl.expand_dims(iy_443, 7)  # convert14_y: stage 1, partition 0 (group 0)
        iy_445 = iy_444.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
        iy_446 = ix_442 ^ iy_445  # convert14_y: stage 1, partition 0 (group 0)
        y_447 = iy_446.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
        iy_494, = gl.reduce((ix_493,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
        iy_387 = gl.expand_dims(iy_386, 7)  # convert5_y: stage 2, partition 0 (group 0)
        iy_388 = iy_387.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 2, partition 0 (group 0)
        iy_389 = ix_385 ^ iy_388  # convert5_y: stage 2, partition 0 (group 0)
        y_390 = iy_389.to(gl.int32, bitcast=True)  # convert5_y: stage 2, partition 0 (group 0)
        ret_448 = gl.cast(ret_441, gl.uint32, bitcast=True) > gl.cast(y_447, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
        ret_449 = ret_448.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
        ret_450 = ret_449 != ret_122  # convert15_ix: stage 1, partition 0 (group 0)
        ret_451 = gl.where(ret_450, y_447, ret_441)  # convert15_ix: stage 1, partition 0 (group 0)
        ix_452 = ret_451.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
        X_ptrs_396_p1 = X_ptrs_396
        ix_452_p1 = ix_452
        ix_493_p1 = ix_493
        iy_494_p1 = iy_494
        offs_x_n_397_p1 = offs_x_n_397
        ret_384_p1 = ret_384
        ret_451_p1 = ret_451
        ret_492_p1 = ret_492
        x_398_p1 = x_398
        y_390_p1 = y_390
    iy_495 = gl.expand_dims(iy_494_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
    iy_496 = iy_495.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
    iy_497 = ix_493_p1 ^ iy_496  # convert24_y: stage 3, partition 0 (group 0)
    y_498 = iy_497.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
    x_399 = x_398_p1.to(gl.int16, bitcast=True)  # convert7_x: stage 1, partition 0 (group 0)
    ret_499 = gl.cast(ret_492_p1, gl.uint32, bitcast=True) > gl.cast(y_498, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_500 = ret_499.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_501 = ret_500 != ret_197  # reduce13_h: stage 3, partition 0 (group 0)
    ret_502 = gl.where(ret_501, y_498, ret_492_p1)  # reduce13_h: stage 3, partition 0 (group 0)
    h_503 = gl.cast(gl.max(gl.cast(ret_502, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    iy_453, = gl.reduce((ix_452_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
    offs_x_n_397 = offs_x_n_397_p1 - 32  # convert6_ix: stage 1, partition 0 (group 0)
    x_400 = gl.cast(gl.cast(x_399, gl.int16, bitcast=True) & -32768, x_399.dtype, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_401 = gl.cast(gl.cast(x_400, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_402 = x_401 != 0  # convert6_ix: stage 1, partition 0 (group 0)
    x_403 = gl.where(x_402, -1, -32768).to(gl.int16)  # convert6_ix: stage 1, partition 0 (group 0)
    x_404 = x_399 ^ x_403  # convert6_ix: stage 1, partition 0 (group 0)
    x_405 = gl.cast(gl.cast(x_404, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    x_406 = x_405 << 16  # convert6_ix: stage 1, partition 0 (group 0)
    x_407 = 256 - offs_x_n_397  # convert6_ix: stage 1, partition 0 (group 0)
    x_408 = gl.expand_dims(x_407, 0)  # convert6_ix: stage 1, partition 0 (group 0)
    x_409 = x_408.broadcast_to([32, 32])  # convert6_ix: stage 1, partition 0 (group 0)
    x_410 = x_406 | x_409  # convert6_ix: stage 1, partition 0 (group 0)
    h_411 = gl.convert_layout(gl.reshape(x_410, [2, 2, 2, 2, 2, 2, 2, 2, 2, 2]), L4)  # convert6_ix: stage 1, partition 0 (group 0)
    ix_412 = h_411.to(gl.int32, bitcast=True)  # convert6_ix: stage 1, partition 0 (group 0)
    ix_504 = h_503.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
    iy_505, = gl.reduce((ix_504,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
    iy_413, = gl.reduce((ix_412,), 9, twill_combine_a2078901)  # reduce3_iy: stage 1, partition 0 (group 0)
    iy_454 = gl.expand_dims(iy_453, 8)  # convert16_y: stage 2, partition 0 (group 0)
    iy_455 = iy_454.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
    iy_456 = ix_452_p1 ^ iy_455  # convert16_y: stage 2, partition 0 (group 0)
    y_457 = iy_456.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
    ret_458 = gl.cast(ret_451_p1, gl.uint32, bitcast=True) > gl.cast(y_457, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_459 = ret_458.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_460 = ret_459 != ret_136  # convert17_ix: stage 2, partition 0 (group 0)
    ret_461 = gl.where(ret_460, y_457, ret_451_p1)  # convert17_ix: stage 2, partition 0 (group 0)
    ix_462 = ret_461.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    iy_506 = gl.expand_dims(iy_505, 5)  # convert26_y: stage 3, partition 0 (group 0)
    iy_507 = iy_506.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
    iy_508 = ix_504 ^ iy_507  # convert26_y: stage 3, partition 0 (group 0)
    y_509 = iy_508.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
    ret_510 = gl.cast(h_503, gl.uint32, bitcast=True) > gl.cast(y_509, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_511 = ret_510.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_512 = ret_511 != ret_213  # convert27_ix: stage 3, partition 0 (group 0)
    ret_513 = gl.where(ret_512, y_509, h_503)  # convert27_ix: stage 3, partition 0 (group 0)
    ix_514 = ret_513.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    iy_515, = gl.reduce((ix_514,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
    iy_414 = gl.expand_dims(iy_413, 9)  # convert8_y: stage 1, partition 0 (group 0)
    iy_415 = iy_414.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert8_y: stage 1, partition 0 (group 0)
    iy_416 = ix_412 ^ iy_415  # convert8_y: stage 1, partition 0 (group 0)
    y_417 = iy_416.to(gl.int32, bitcast=True)  # convert8_y: stage 1, partition 0 (group 0)
    iy_463, = gl.reduce((ix_462,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
    ret_418 = gl.cast(h_411, gl.uint32, bitcast=True) > gl.cast(y_417, gl.uint32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_419 = ret_418.to(gl.int32)  # convert9_ix: stage 1, partition 0 (group 0)
    ret_420 = ret_419 != ret_78  # convert9_ix: stage 1, partition 0 (group 0)
    ret_421 = gl.where(ret_420, y_417, h_411)  # convert9_ix: stage 1, partition 0 (group 0)
    ix_422 = ret_421.to(gl.int32, bitcast=True)  # convert9_ix: stage 1, partition 0 (group 0)
    iy_516 = gl.expand_dims(iy_515, 6)  # convert28_y: stage 3, partition 0 (group 0)
    iy_517 = iy_516.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
    iy_518 = ix_514 ^ iy_517  # convert28_y: stage 3, partition 0 (group 0)
    y_519 = iy_518.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
    ret_520 = gl.cast(ret_513, gl.uint32, bitcast=True) > gl.cast(y_519, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_521 = ret_520.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_522 = ret_521 != ret_229  # convert29_ix: stage 3, partition 0 (group 0)
    ret_523 = gl.where(ret_522, y_519, ret_513)  # convert29_ix: stage 3, partition 0 (group 0)
    ix_524 = ret_523.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    iy_525, = gl.reduce((ix_524,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
    iy_464 = gl.expand_dims(iy_463, 9)  # convert18_y: stage 2, partition 0 (group 0)
    iy_465 = iy_464.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
    iy_466 = ix_462 ^ iy_465  # convert18_y: stage 2, partition 0 (group 0)
    y_467 = iy_466.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
    iy_423, = gl.reduce((ix_422,), 8, twill_combine_a2078901)  # reduce4_iy: stage 1, partition 0 (group 0)
    ret_468 = gl.cast(ret_461, gl.uint32, bitcast=True) > gl.cast(y_467, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_469 = ret_468.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_470 = ret_469 != ret_150  # reduce9_h: stage 2, partition 0 (group 0)
    ret_471 = gl.where(ret_470, y_467, ret_461)  # reduce9_h: stage 2, partition 0 (group 0)
    h_472 = gl.cast(gl.max(gl.cast(ret_471, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    iy_526 = gl.expand_dims(iy_525, 7)  # convert30_y: stage 3, partition 0 (group 0)
    iy_527 = iy_526.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
    iy_528 = ix_524 ^ iy_527  # convert30_y: stage 3, partition 0 (group 0)
    y_529 = iy_528.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
    ret_391 = gl.cast(ret_384_p1, gl.uint32, bitcast=True) > gl.cast(y_390_p1, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_392 = ret_391.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_393 = ret_392 != ret_252  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_394 = gl.where(ret_393, y_390_p1, ret_384_p1)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_395 = gl.convert_layout(gl.reshape(ret_394, [32, 8]), L14)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_530 = gl.cast(ret_523, gl.uint32, bitcast=True) > gl.cast(y_529, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_531 = ret_530.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_532 = ret_531 != ret_245  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_533 = gl.where(ret_532, y_529, ret_523)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_534 = gl.convert_layout(gl.reshape(ret_533, [32, 8]), L14)  # broadcast0_acc: stage 3, partition 0 (group 0)
    acc_535 = gl.cast(gl.maximum(gl.cast(x_395, gl.uint32, bitcast=True), gl.cast(x_534, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    h_364 = gl.convert_layout(gl.reshape(acc_535, [2, 2, 2, 2, 2, 2, 2, 2]), L13)  # convert0_ix: stage 2, partition 0 (group 0)
    ix_365 = h_364.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
    iy_366, = gl.reduce((ix_365,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
    iy_424 = gl.expand_dims(iy_423, 8)  # convert10_y: stage 1, partition 0 (group 0)
    iy_425 = iy_424.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert10_y: stage 1, partition 0 (group 0)
    iy_426 = ix_422 ^ iy_425  # convert10_y: stage 1, partition 0 (group 0)
    y_427 = iy_426.to(gl.int32, bitcast=True)  # convert10_y: stage 1, partition 0 (group 0)
    ix_473 = h_472.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
    iy_474, = gl.reduce((ix_473,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
    ret_428 = gl.cast(ret_421, gl.uint32, bitcast=True) > gl.cast(y_427, gl.uint32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_429 = ret_428.to(gl.int32)  # convert11_ix: stage 1, partition 0 (group 0)
    ret_430 = ret_429 != ret_93  # convert11_ix: stage 1, partition 0 (group 0)
    ret_431 = gl.where(ret_430, y_427, ret_421)  # convert11_ix: stage 1, partition 0 (group 0)
    ix_432 = ret_431.to(gl.int32, bitcast=True)  # convert11_ix: stage 1, partition 0 (group 0)
    iy_433, = gl.reduce((ix_432,), 9, twill_combine_a2078901)  # reduce5_iy: stage 1, partition 0 (group 0)
    iy_475 = gl.expand_dims(iy_474, 6)  # convert20_y: stage 2, partition 0 (group 0)
    iy_476 = iy_475.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
    iy_477 = ix_473 ^ iy_476  # convert20_y: stage 2, partition 0 (group 0)
    y_478 = iy_477.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
    iy_367 = gl.expand_dims(iy_366, 5)  # convert1_y: stage 2, partition 0 (group 0)
    iy_368 = iy_367.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
    iy_369 = ix_365 ^ iy_368  # convert1_y: stage 2, partition 0 (group 0)
    y_370 = iy_369.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
    ret_371 = gl.cast(h_364, gl.uint32, bitcast=True) > gl.cast(y_370, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_372 = ret_371.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_373 = ret_372 != ret_250  # convert2_ix: stage 2, partition 0 (group 0)
    ret_374 = gl.where(ret_373, y_370, h_364)  # convert2_ix: stage 2, partition 0 (group 0)
    ix_375 = ret_374.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_479 = gl.cast(h_472, gl.uint32, bitcast=True) > gl.cast(y_478, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_480 = ret_479.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_481 = ret_480 != ret_167  # convert21_ix: stage 2, partition 0 (group 0)
    ret_482 = gl.where(ret_481, y_478, h_472)  # convert21_ix: stage 2, partition 0 (group 0)
    ix_483 = ret_482.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    iy_434 = gl.expand_dims(iy_433, 9)  # convert12_y: stage 1, partition 0 (group 0)
    iy_435 = iy_434.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert12_y: stage 1, partition 0 (group 0)
    iy_436 = ix_432 ^ iy_435  # convert12_y: stage 1, partition 0 (group 0)
    y_437 = iy_436.to(gl.int32, bitcast=True)  # convert12_y: stage 1, partition 0 (group 0)
    iy_484, = gl.reduce((ix_483,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
    iy_376, = gl.reduce((ix_375,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
    ret_438 = gl.cast(ret_431, gl.uint32, bitcast=True) > gl.cast(y_437, gl.uint32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_439 = ret_438.to(gl.int32)  # convert13_ix: stage 1, partition 0 (group 0)
    ret_440 = ret_439 != ret_107  # convert13_ix: stage 1, partition 0 (group 0)
    ret_441 = gl.where(ret_440, y_437, ret_431)  # convert13_ix: stage 1, partition 0 (group 0)
    ix_442 = ret_441.to(gl.int32, bitcast=True)  # convert13_ix: stage 1, partition 0 (group 0)
    iy_443, = gl.reduce((ix_442,), 7, twill_combine_a2078901)  # reduce6_iy: stage 1, partition 0 (group 0)
    iy_377 = gl.expand_dims(iy_376, 6)  # convert3_y: stage 2, partition 0 (group 0)
    iy_378 = iy_377.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
    iy_379 = ix_375 ^ iy_378  # convert3_y: stage 2, partition 0 (group 0)
    y_380 = iy_379.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
    iy_485 = gl.expand_dims(iy_484, 7)  # convert22_y: stage 2, partition 0 (group 0)
    iy_486 = iy_485.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
    iy_487 = ix_483 ^ iy_486  # convert22_y: stage 2, partition 0 (group 0)
    y_488 = iy_487.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
    ret_381 = gl.cast(ret_374, gl.uint32, bitcast=True) > gl.cast(y_380, gl.uint32, bitcast=True)  # convert4_ix: stage 2, partition 0 (group 0)
    ret_382 = ret_381.to(gl.int32)  # convert4_ix: stage 2, partition 0 (group 0)
    ret_383 = ret_382 != ret_251  # convert4_ix: stage 2, partition 0 (group 0)
    ret_384 = gl.where(ret_383, y_380, ret_374)  # convert4_ix: stage 2, partition 0 (group 0)
    ix_385 = ret_384.to(gl.int32, bitcast=True)  # convert4_ix: stage 2, partition 0 (group 0)
    iy_386, = gl.reduce((ix_385,), 7, twill_combine_a2078901)  # reduce2_iy: stage 2, partition 0 (group 0)
    ret_489 = gl.cast(ret_482, gl.uint32, bitcast=True) > gl.cast(y_488, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_490 = ret_489.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_491 = ret_490 != ret_182  # convert23_ix: stage 2, partition 0 (group 0)
    ret_492 = gl.where(ret_491, y_488, ret_482)  # convert23_ix: stage 2, partition 0 (group 0)
    ix_493 = ret_492.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    iy_444 = gl.expand_dims(iy_443, 7)  # convert14_y: stage 1, partition 0 (group 0)
    iy_445 = iy_444.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert14_y: stage 1, partition 0 (group 0)
    iy_446 = ix_442 ^ iy_445  # convert14_y: stage 1, partition 0 (group 0)
    y_447 = iy_446.to(gl.int32, bitcast=True)  # convert14_y: stage 1, partition 0 (group 0)
    iy_494, = gl.reduce((ix_493,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
    iy_387 = gl.expand_dims(iy_386, 7)  # convert5_y: stage 2, partition 0 (group 0)
    iy_388 = iy_387.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 2, partition 0 (group 0)
    iy_389 = ix_385 ^ iy_388  # convert5_y: stage 2, partition 0 (group 0)
    y_390 = iy_389.to(gl.int32, bitcast=True)  # convert5_y: stage 2, partition 0 (group 0)
    ret_448 = gl.cast(ret_441, gl.uint32, bitcast=True) > gl.cast(y_447, gl.uint32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_449 = ret_448.to(gl.int32)  # convert15_ix: stage 1, partition 0 (group 0)
    ret_450 = ret_449 != ret_122  # convert15_ix: stage 1, partition 0 (group 0)
    ret_451 = gl.where(ret_450, y_447, ret_441)  # convert15_ix: stage 1, partition 0 (group 0)
    ix_452 = ret_451.to(gl.int32, bitcast=True)  # convert15_ix: stage 1, partition 0 (group 0)
    X_ptrs_396_p2 = X_ptrs_396_p1
    X_ptrs_396_p1 = X_ptrs_396
    acc_535_p1 = acc_535
    ix_452_p1 = ix_452
    ix_493_p1 = ix_493
    iy_494_p1 = iy_494
    offs_x_n_397_p2 = offs_x_n_397_p1
    offs_x_n_397_p1 = offs_x_n_397
    ret_384_p1 = ret_384
    ret_451_p1 = ret_451
    ret_492_p1 = ret_492
    x_398_p1 = x_398
    y_390_p1 = y_390
    iy_495 = gl.expand_dims(iy_494_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
    iy_496 = iy_495.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
    iy_497 = ix_493_p1 ^ iy_496  # convert24_y: stage 3, partition 0 (group 0)
    y_498 = iy_497.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
    ret_499 = gl.cast(ret_492_p1, gl.uint32, bitcast=True) > gl.cast(y_498, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_500 = ret_499.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_501 = ret_500 != ret_197  # reduce13_h: stage 3, partition 0 (group 0)
    ret_502 = gl.where(ret_501, y_498, ret_492_p1)  # reduce13_h: stage 3, partition 0 (group 0)
    h_503 = gl.cast(gl.max(gl.cast(ret_502, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    iy_453, = gl.reduce((ix_452_p1,), 8, twill_combine_a2078901)  # reduce7_iy: stage 2, partition 0 (group 0)
    ix_504 = h_503.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
    iy_505, = gl.reduce((ix_504,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
    iy_454 = gl.expand_dims(iy_453, 8)  # convert16_y: stage 2, partition 0 (group 0)
    iy_455 = iy_454.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert16_y: stage 2, partition 0 (group 0)
    iy_456 = ix_452_p1 ^ iy_455  # convert16_y: stage 2, partition 0 (group 0)
    y_457 = iy_456.to(gl.int32, bitcast=True)  # convert16_y: stage 2, partition 0 (group 0)
    ret_458 = gl.cast(ret_451_p1, gl.uint32, bitcast=True) > gl.cast(y_457, gl.uint32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_459 = ret_458.to(gl.int32)  # convert17_ix: stage 2, partition 0 (group 0)
    ret_460 = ret_459 != ret_136  # convert17_ix: stage 2, partition 0 (group 0)
    ret_461 = gl.where(ret_460, y_457, ret_451_p1)  # convert17_ix: stage 2, partition 0 (group 0)
    ix_462 = ret_461.to(gl.int32, bitcast=True)  # convert17_ix: stage 2, partition 0 (group 0)
    iy_506 = gl.expand_dims(iy_505, 5)  # convert26_y: stage 3, partition 0 (group 0)
    iy_507 = iy_506.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
    iy_508 = ix_504 ^ iy_507  # convert26_y: stage 3, partition 0 (group 0)
    y_509 = iy_508.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
    ret_510 = gl.cast(h_503, gl.uint32, bitcast=True) > gl.cast(y_509, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_511 = ret_510.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_512 = ret_511 != ret_213  # convert27_ix: stage 3, partition 0 (group 0)
    ret_513 = gl.where(ret_512, y_509, h_503)  # convert27_ix: stage 3, partition 0 (group 0)
    ix_514 = ret_513.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    iy_515, = gl.reduce((ix_514,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
    iy_463, = gl.reduce((ix_462,), 9, twill_combine_a2078901)  # reduce8_iy: stage 2, partition 0 (group 0)
    iy_516 = gl.expand_dims(iy_515, 6)  # convert28_y: stage 3, partition 0 (group 0)
    iy_517 = iy_516.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
    iy_518 = ix_514 ^ iy_517  # convert28_y: stage 3, partition 0 (group 0)
    y_519 = iy_518.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
    ret_520 = gl.cast(ret_513, gl.uint32, bitcast=True) > gl.cast(y_519, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_521 = ret_520.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_522 = ret_521 != ret_229  # convert29_ix: stage 3, partition 0 (group 0)
    ret_523 = gl.where(ret_522, y_519, ret_513)  # convert29_ix: stage 3, partition 0 (group 0)
    ix_524 = ret_523.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    iy_525, = gl.reduce((ix_524,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
    iy_464 = gl.expand_dims(iy_463, 9)  # convert18_y: stage 2, partition 0 (group 0)
    iy_465 = iy_464.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert18_y: stage 2, partition 0 (group 0)
    iy_466 = ix_462 ^ iy_465  # convert18_y: stage 2, partition 0 (group 0)
    y_467 = iy_466.to(gl.int32, bitcast=True)  # convert18_y: stage 2, partition 0 (group 0)
    ret_468 = gl.cast(ret_461, gl.uint32, bitcast=True) > gl.cast(y_467, gl.uint32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_469 = ret_468.to(gl.int32)  # reduce9_h: stage 2, partition 0 (group 0)
    ret_470 = ret_469 != ret_150  # reduce9_h: stage 2, partition 0 (group 0)
    ret_471 = gl.where(ret_470, y_467, ret_461)  # reduce9_h: stage 2, partition 0 (group 0)
    h_472 = gl.cast(gl.max(gl.cast(ret_471, gl.uint32, bitcast=True), axis=6), gl.int32, bitcast=True)  # reduce9_h: stage 2, partition 0 (group 0)
    iy_526 = gl.expand_dims(iy_525, 7)  # convert30_y: stage 3, partition 0 (group 0)
    iy_527 = iy_526.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
    iy_528 = ix_524 ^ iy_527  # convert30_y: stage 3, partition 0 (group 0)
    y_529 = iy_528.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
    ret_391 = gl.cast(ret_384_p1, gl.uint32, bitcast=True) > gl.cast(y_390_p1, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_392 = ret_391.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_393 = ret_392 != ret_252  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_394 = gl.where(ret_393, y_390_p1, ret_384_p1)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_395 = gl.convert_layout(gl.reshape(ret_394, [32, 8]), L14)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_530 = gl.cast(ret_523, gl.uint32, bitcast=True) > gl.cast(y_529, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_531 = ret_530.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_532 = ret_531 != ret_245  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_533 = gl.where(ret_532, y_529, ret_523)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_534 = gl.convert_layout(gl.reshape(ret_533, [32, 8]), L14)  # broadcast0_acc: stage 3, partition 0 (group 0)
    acc_535 = gl.cast(gl.maximum(gl.cast(x_395, gl.uint32, bitcast=True), gl.cast(x_534, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    h_364 = gl.convert_layout(gl.reshape(acc_535, [2, 2, 2, 2, 2, 2, 2, 2]), L13)  # convert0_ix: stage 2, partition 0 (group 0)
    ix_365 = h_364.to(gl.int32, bitcast=True)  # convert0_ix: stage 2, partition 0 (group 0)
    iy_366, = gl.reduce((ix_365,), 5, twill_combine_a2078901)  # reduce0_iy: stage 2, partition 0 (group 0)
    ix_473 = h_472.to(gl.int32, bitcast=True)  # convert19_ix: stage 2, partition 0 (group 0)
    iy_474, = gl.reduce((ix_473,), 6, twill_combine_a2078901)  # reduce10_iy: stage 2, partition 0 (group 0)
    iy_475 = gl.expand_dims(iy_474, 6)  # convert20_y: stage 2, partition 0 (group 0)
    iy_476 = iy_475.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert20_y: stage 2, partition 0 (group 0)
    iy_477 = ix_473 ^ iy_476  # convert20_y: stage 2, partition 0 (group 0)
    y_478 = iy_477.to(gl.int32, bitcast=True)  # convert20_y: stage 2, partition 0 (group 0)
    iy_367 = gl.expand_dims(iy_366, 5)  # convert1_y: stage 2, partition 0 (group 0)
    iy_368 = iy_367.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert1_y: stage 2, partition 0 (group 0)
    iy_369 = ix_365 ^ iy_368  # convert1_y: stage 2, partition 0 (group 0)
    y_370 = iy_369.to(gl.int32, bitcast=True)  # convert1_y: stage 2, partition 0 (group 0)
    ret_371 = gl.cast(h_364, gl.uint32, bitcast=True) > gl.cast(y_370, gl.uint32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_372 = ret_371.to(gl.int32)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_373 = ret_372 != ret_250  # convert2_ix: stage 2, partition 0 (group 0)
    ret_374 = gl.where(ret_373, y_370, h_364)  # convert2_ix: stage 2, partition 0 (group 0)
    ix_375 = ret_374.to(gl.int32, bitcast=True)  # convert2_ix: stage 2, partition 0 (group 0)
    ret_479 = gl.cast(h_472, gl.uint32, bitcast=True) > gl.cast(y_478, gl.uint32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_480 = ret_479.to(gl.int32)  # convert21_ix: stage 2, partition 0 (group 0)
    ret_481 = ret_480 != ret_167  # convert21_ix: stage 2, partition 0 (group 0)
    ret_482 = gl.where(ret_481, y_478, h_472)  # convert21_ix: stage 2, partition 0 (group 0)
    ix_483 = ret_482.to(gl.int32, bitcast=True)  # convert21_ix: stage 2, partition 0 (group 0)
    iy_484, = gl.reduce((ix_483,), 7, twill_combine_a2078901)  # reduce11_iy: stage 2, partition 0 (group 0)
    iy_376, = gl.reduce((ix_375,), 6, twill_combine_a2078901)  # reduce1_iy: stage 2, partition 0 (group 0)
    iy_377 = gl.expand_dims(iy_376, 6)  # convert3_y: stage 2, partition 0 (group 0)
    iy_378 = iy_377.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert3_y: stage 2, partition 0 (group 0)
    iy_379 = ix_375 ^ iy_378  # convert3_y: stage 2, partition 0 (group 0)
    y_380 = iy_379.to(gl.int32, bitcast=True)  # convert3_y: stage 2, partition 0 (group 0)
    iy_485 = gl.expand_dims(iy_484, 7)  # convert22_y: stage 2, partition 0 (group 0)
    iy_486 = iy_485.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert22_y: stage 2, partition 0 (group 0)
    iy_487 = ix_483 ^ iy_486  # convert22_y: stage 2, partition 0 (group 0)
    y_488 = iy_487.to(gl.int32, bitcast=True)  # convert22_y: stage 2, partition 0 (group 0)
    ret_381 = gl.cast(ret_374, gl.uint32, bitcast=True) > gl.cast(y_380, gl.uint32, bitcast=True)  # convert4_ix: stage 2, partition 0 (group 0)
    ret_382 = ret_381.to(gl.int32)  # convert4_ix: stage 2, partition 0 (group 0)
    ret_383 = ret_382 != ret_251  # convert4_ix: stage 2, partition 0 (group 0)
    ret_384 = gl.where(ret_383, y_380, ret_374)  # convert4_ix: stage 2, partition 0 (group 0)
    ix_385 = ret_384.to(gl.int32, bitcast=True)  # convert4_ix: stage 2, partition 0 (group 0)
    iy_386, = gl.reduce((ix_385,), 7, twill_combine_a2078901)  # reduce2_iy: stage 2, partition 0 (group 0)
    ret_489 = gl.cast(ret_482, gl.uint32, bitcast=True) > gl.cast(y_488, gl.uint32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_490 = ret_489.to(gl.int32)  # convert23_ix: stage 2, partition 0 (group 0)
    ret_491 = ret_490 != ret_182  # convert23_ix: stage 2, partition 0 (group 0)
    ret_492 = gl.where(ret_491, y_488, ret_482)  # convert23_ix: stage 2, partition 0 (group 0)
    ix_493 = ret_492.to(gl.int32, bitcast=True)  # convert23_ix: stage 2, partition 0 (group 0)
    iy_494, = gl.reduce((ix_493,), 8, twill_combine_a2078901)  # reduce12_iy: stage 2, partition 0 (group 0)
    iy_387 = gl.expand_dims(iy_386, 7)  # convert5_y: stage 2, partition 0 (group 0)
    iy_388 = iy_387.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert5_y: stage 2, partition 0 (group 0)
    iy_389 = ix_385 ^ iy_388  # convert5_y: stage 2, partition 0 (group 0)
    y_390 = iy_389.to(gl.int32, bitcast=True)  # convert5_y: stage 2, partition 0 (group 0)
    X_ptrs_396_p3 = X_ptrs_396_p2
    X_ptrs_396_p2 = X_ptrs_396_p1
    X_ptrs_396_p1 = X_ptrs_396
    acc_535_p1 = acc_535
    ix_452_p1 = ix_452
    ix_493_p1 = ix_493
    iy_494_p1 = iy_494
    offs_x_n_397_p3 = offs_x_n_397_p2
    offs_x_n_397_p2 = offs_x_n_397_p1
    offs_x_n_397_p1 = offs_x_n_397
    ret_384_p1 = ret_384
    ret_451_p1 = ret_451
    ret_492_p1 = ret_492
    x_398_p1 = x_398
    y_390_p1 = y_390
    iy_495 = gl.expand_dims(iy_494_p1, 8)  # convert24_y: stage 3, partition 0 (group 0)
    iy_496 = iy_495.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2, 2])  # convert24_y: stage 3, partition 0 (group 0)
    iy_497 = ix_493_p1 ^ iy_496  # convert24_y: stage 3, partition 0 (group 0)
    y_498 = iy_497.to(gl.int32, bitcast=True)  # convert24_y: stage 3, partition 0 (group 0)
    ret_499 = gl.cast(ret_492_p1, gl.uint32, bitcast=True) > gl.cast(y_498, gl.uint32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_500 = ret_499.to(gl.int32)  # reduce13_h: stage 3, partition 0 (group 0)
    ret_501 = ret_500 != ret_197  # reduce13_h: stage 3, partition 0 (group 0)
    ret_502 = gl.where(ret_501, y_498, ret_492_p1)  # reduce13_h: stage 3, partition 0 (group 0)
    h_503 = gl.cast(gl.max(gl.cast(ret_502, gl.uint32, bitcast=True), axis=5), gl.int32, bitcast=True)  # reduce13_h: stage 3, partition 0 (group 0)
    ix_504 = h_503.to(gl.int32, bitcast=True)  # convert25_ix: stage 3, partition 0 (group 0)
    iy_505, = gl.reduce((ix_504,), 5, twill_combine_a2078901)  # reduce14_iy: stage 3, partition 0 (group 0)
    iy_506 = gl.expand_dims(iy_505, 5)  # convert26_y: stage 3, partition 0 (group 0)
    iy_507 = iy_506.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert26_y: stage 3, partition 0 (group 0)
    iy_508 = ix_504 ^ iy_507  # convert26_y: stage 3, partition 0 (group 0)
    y_509 = iy_508.to(gl.int32, bitcast=True)  # convert26_y: stage 3, partition 0 (group 0)
    ret_510 = gl.cast(h_503, gl.uint32, bitcast=True) > gl.cast(y_509, gl.uint32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_511 = ret_510.to(gl.int32)  # convert27_ix: stage 3, partition 0 (group 0)
    ret_512 = ret_511 != ret_213  # convert27_ix: stage 3, partition 0 (group 0)
    ret_513 = gl.where(ret_512, y_509, h_503)  # convert27_ix: stage 3, partition 0 (group 0)
    ix_514 = ret_513.to(gl.int32, bitcast=True)  # convert27_ix: stage 3, partition 0 (group 0)
    iy_515, = gl.reduce((ix_514,), 6, twill_combine_a2078901)  # reduce15_iy: stage 3, partition 0 (group 0)
    iy_516 = gl.expand_dims(iy_515, 6)  # convert28_y: stage 3, partition 0 (group 0)
    iy_517 = iy_516.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert28_y: stage 3, partition 0 (group 0)
    iy_518 = ix_514 ^ iy_517  # convert28_y: stage 3, partition 0 (group 0)
    y_519 = iy_518.to(gl.int32, bitcast=True)  # convert28_y: stage 3, partition 0 (group 0)
    ret_520 = gl.cast(ret_513, gl.uint32, bitcast=True) > gl.cast(y_519, gl.uint32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_521 = ret_520.to(gl.int32)  # convert29_ix: stage 3, partition 0 (group 0)
    ret_522 = ret_521 != ret_229  # convert29_ix: stage 3, partition 0 (group 0)
    ret_523 = gl.where(ret_522, y_519, ret_513)  # convert29_ix: stage 3, partition 0 (group 0)
    ix_524 = ret_523.to(gl.int32, bitcast=True)  # convert29_ix: stage 3, partition 0 (group 0)
    iy_525, = gl.reduce((ix_524,), 7, twill_combine_a2078901)  # reduce16_iy: stage 3, partition 0 (group 0)
    iy_526 = gl.expand_dims(iy_525, 7)  # convert30_y: stage 3, partition 0 (group 0)
    iy_527 = iy_526.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])  # convert30_y: stage 3, partition 0 (group 0)
    iy_528 = ix_524 ^ iy_527  # convert30_y: stage 3, partition 0 (group 0)
    y_529 = iy_528.to(gl.int32, bitcast=True)  # convert30_y: stage 3, partition 0 (group 0)
    ret_391 = gl.cast(ret_384_p1, gl.uint32, bitcast=True) > gl.cast(y_390_p1, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_392 = ret_391.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_393 = ret_392 != ret_252  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_394 = gl.where(ret_393, y_390_p1, ret_384_p1)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_395 = gl.convert_layout(gl.reshape(ret_394, [32, 8]), L14)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_530 = gl.cast(ret_523, gl.uint32, bitcast=True) > gl.cast(y_529, gl.uint32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_531 = ret_530.to(gl.int32)  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_532 = ret_531 != ret_245  # broadcast0_acc: stage 3, partition 0 (group 0)
    ret_533 = gl.where(ret_532, y_529, ret_523)  # broadcast0_acc: stage 3, partition 0 (group 0)
    x_534 = gl.convert_layout(gl.reshape(ret_533, [32, 8]), L14)  # broadcast0_acc: stage 3, partition 0 (group 0)
    acc_535 = gl.cast(gl.maximum(gl.cast(x_395, gl.uint32, bitcast=True), gl.cast(x_534, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # broadcast0_acc: stage 3, partition 0 (group 0)
    X_ptrs_396_p4 = X_ptrs_396_p3
    X_ptrs_396_p3 = X_ptrs_396_p2
    X_ptrs_396_p2 = X_ptrs_396_p1
    X_ptrs_396_p1 = X_ptrs_396
    acc_535_p1 = acc_535
    ix_452_p1 = ix_452
    ix_493_p1 = ix_493
    iy_494_p1 = iy_494
    offs_x_n_397_p3 = offs_x_n_397_p2
    offs_x_n_397_p2 = offs_x_n_397_p1
    offs_x_n_397_p1 = offs_x_n_397
    ret_384_p1 = ret_384
    ret_451_p1 = ret_451
    ret_492_p1 = ret_492
    x_398_p1 = x_398
    y_390_p1 = y_390
    twill_base += twill_n
    acc_253 = acc_535_p1 << 16
    acc_254 = gl.cast(gl.cast(acc_535_p1, gl.uint32, bitcast=True) >> 16, gl.int32, bitcast=True)
    acc_255 = acc_253 | acc_254
    h_256 = gl.convert_layout(gl.reshape(acc_255, [2, 2, 2, 2, 2, 2, 2, 2]), L13)
    ix_257 = h_256.to(gl.int32, bitcast=True)
    iy_258, = gl.reduce((ix_257,), 7, twill_combine_a2078901)
    iy_259 = gl.expand_dims(iy_258, 7)
    iy_260 = iy_259.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_261 = ix_257 ^ iy_260
    y_262 = iy_261.to(gl.int32, bitcast=True)
    ret_263 = gl.cast(h_256, gl.uint32, bitcast=True) > gl.cast(y_262, gl.uint32, bitcast=True)
    ret_264 = ar_224.broadcast_to([1, 1, 1, 1, 1, 1, 2, 2])
    ret_265 = ar_240.broadcast_to([1, 1, 1, 1, 1, 1, 2, 2])
    ret_266 = ret_264 ^ ret_265
    ret_267 = ret_263.to(gl.int32)
    ret_268 = ret_266.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_269 = ret_267 != ret_268
    ret_270 = gl.where(ret_269, y_262, h_256)
    ix_271 = ret_270.to(gl.int32, bitcast=True)
    iy_272, = gl.reduce((ix_271,), 6, twill_combine_a2078901)
    iy_273 = gl.expand_dims(iy_272, 6)
    iy_274 = iy_273.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_275 = ix_271 ^ iy_274
    y_276 = iy_275.to(gl.int32, bitcast=True)
    ret_277 = gl.cast(ret_270, gl.uint32, bitcast=True) > gl.cast(y_276, gl.uint32, bitcast=True)
    ret_278 = ar_208.broadcast_to([1, 1, 1, 1, 1, 2, 2, 1])
    ret_279 = ar_224.broadcast_to([1, 1, 1, 1, 1, 2, 2, 1])
    ret_280 = ret_278 ^ ret_279
    ret_281 = ret_277.to(gl.int32)
    ret_282 = ret_280.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_283 = ret_281 != ret_282
    ret_284 = gl.where(ret_283, y_276, ret_270)
    ix_285 = ret_284.to(gl.int32, bitcast=True)
    iy_286, = gl.reduce((ix_285,), 7, twill_combine_a2078901)
    iy_287 = gl.expand_dims(iy_286, 7)
    iy_288 = iy_287.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_289 = ix_285 ^ iy_288
    y_290 = iy_289.to(gl.int32, bitcast=True)
    ret_291 = gl.cast(ret_284, gl.uint32, bitcast=True) > gl.cast(y_290, gl.uint32, bitcast=True)
    ret_292 = ar_208.broadcast_to([1, 1, 1, 1, 1, 2, 1, 2])
    ret_293 = ar_240.broadcast_to([1, 1, 1, 1, 1, 2, 1, 2])
    ret_294 = ret_292 ^ ret_293
    ret_295 = ret_291.to(gl.int32)
    ret_296 = ret_294.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    ret_297 = ret_295 != ret_296
    ret_298 = gl.where(ret_297, y_290, ret_284)
    ix_299 = ret_298.to(gl.int32, bitcast=True)
    iy_300, = gl.reduce((ix_299,), 5, twill_combine_a2078901)
    iy_301 = gl.expand_dims(iy_300, 5)
    iy_302 = iy_301.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_303 = ix_299 ^ iy_302
    y_304 = iy_303.to(gl.int32, bitcast=True)
    ret_305 = gl.cast(ret_298, gl.uint32, bitcast=True) > gl.cast(y_304, gl.uint32, bitcast=True)
    ret_306 = ret_305.to(gl.int32)
    ret_307 = ret_306 != ret_214
    ret_308 = gl.where(ret_307, y_304, ret_298)
    ix_309 = ret_308.to(gl.int32, bitcast=True)
    iy_310, = gl.reduce((ix_309,), 6, twill_combine_a2078901)
    iy_311 = gl.expand_dims(iy_310, 6)
    iy_312 = iy_311.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_313 = ix_309 ^ iy_312
    y_314 = iy_313.to(gl.int32, bitcast=True)
    ret_315 = gl.cast(ret_308, gl.uint32, bitcast=True) > gl.cast(y_314, gl.uint32, bitcast=True)
    ret_316 = ret_315.to(gl.int32)
    ret_317 = ret_316 != ret_230
    ret_318 = gl.where(ret_317, y_314, ret_308)
    ix_319 = ret_318.to(gl.int32, bitcast=True)
    iy_320, = gl.reduce((ix_319,), 7, twill_combine_a2078901)
    iy_321 = gl.expand_dims(iy_320, 7)
    iy_322 = iy_321.broadcast_to([2, 2, 2, 2, 2, 2, 2, 2])
    iy_323 = ix_319 ^ iy_322
    y_324 = iy_323.to(gl.int32, bitcast=True)
    ret_325 = gl.cast(ret_318, gl.uint32, bitcast=True) > gl.cast(y_324, gl.uint32, bitcast=True)
    ret_326 = ret_325.to(gl.int32)
    ret_327 = ret_326 != ret_246
    ret_328 = gl.where(ret_327, y_324, ret_318)
    x_329 = gl.convert_layout(gl.reshape(ret_328, [32, 8]), L14)
    y_indices_raw = gl.cast(gl.cast(x_329, gl.uint32, bitcast=True) >> 16, gl.int32, bitcast=True)
    y_indices = 256 - y_indices_raw
    y_values_raw = x_329.to(gl.int16)
    y_values = gl.cast(gl.cast(y_values_raw, gl.int16, bitcast=True) & -32768, y_values_raw.dtype, bitcast=True)
    y_values_330 = gl.cast(gl.cast(y_values, gl.uint16, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
    y_values_331 = y_values_330 == 0
    y_values_332 = gl.where(y_values_331, -1, -32768).to(gl.int16)
    y_values_333 = y_values_raw ^ y_values_332
    y_values_334 = y_values_333.to(gl.float16, bitcast=True)
    y_values_335 = y_values_334.to(gl.float32)
    z = gl.max(y_values_335, axis=1)
    z_336 = gl.expand_dims(z, 1)
    z_337 = z_336.broadcast_to([32, 8])
    z_338 = y_values_335 - z_337
    num = gl.exp(z_338)
    den = gl.sum(num, axis=1)
    den_339 = gl.expand_dims(den, 1)
    y_values_340 = den_339.broadcast_to([32, 8])
    y_values_341 = num / y_values_340
    y_values_342 = y_values_341.to(gl.float16)
    Yv_ptrs_343 = mask_m_33 * stride_ym
    Yv_ptrs_345 = Yv + Yv_ptrs_343
    Yv_ptrs_346 = gl.arange(0, 8, layout=L15)
    Yv_ptrs_347 = gl.expand_dims(Yv_ptrs_346, 0)
    Yv_ptrs_348 = Yv_ptrs_345.broadcast_to([32, 8])
    Yv_ptrs_349 = Yv_ptrs_347.broadcast_to([32, 8])
    Yv_ptrs_350 = Yv_ptrs_348 + Yv_ptrs_349
    v3 = mask_m_39.broadcast_to([32, 8])
    v4 = gl.convert_layout(y_values_342, L16)
    gl.store(Yv_ptrs_350, v4, mask=v3)
    Yi_ptrs_351 = Yi + Yv_ptrs_343
    Yi_ptrs_352 = Yi_ptrs_351.broadcast_to([32, 8])
    Yi_ptrs_353 = Yi_ptrs_352 + Yv_ptrs_349
    v5 = y_indices.to(gl.int16)
    v6 = gl.convert_layout(v5, L16)
    gl.store(Yi_ptrs_353, v6, mask=v3)
    y_div = gl.cast(gl.cast(y_indices, gl.uint32, bitcast=True) // 32, gl.int32, bitcast=True)
    y_rem = gl.cast(gl.cast(y_indices, gl.uint32, bitcast=True) % 32, gl.int32, bitcast=True)
    y2 = gl.convert_layout(y_div, L17)
    y2_354 = gl.expand_dims(y2, 2)
    y2_355 = 1 << y_rem
    y2_356 = gl.convert_layout(y2_355, L17)
    y2_357 = gl.expand_dims(y2_356, 2)
    BitsPtrs = mask_m_34 * 8
    BitsPtrs_359 = Bits + BitsPtrs
    twill_n = (8 - 0 + 1 - 1) // 1
    for twill_b in range(0, twill_n):
        y2_360 = (0 + (twill_b - 0) * 1)  # reduce0_r: stage 0, partition 0 (group 0)
        y2_361 = y2_354 == y2_360  # reduce0_r: stage 0, partition 0 (group 0)
        y2_362 = gl.where(y2_361, y2_357, 0)  # reduce0_r: stage 0, partition 0 (group 0)
        r, = gl.reduce((y2_362,), 1, twill_combine_436c41ef)  # reduce0_r: stage 0, partition 0 (group 0)
        v7 = gl.convert_layout(r, L18)  # convert0: stage 0, partition 0 (group 0)
        BitsPtrs_363 = (0 + (twill_b - 0) * 1)  # store0: stage 0, partition 0 (group 0)
        BitsPtrs_364 = BitsPtrs_359 + BitsPtrs_363  # store0: stage 0, partition 0 (group 0)
        gl.store(BitsPtrs_364, v7, mask=mask_m_40)  # store0: stage 0, partition 0 (group 0)

@gluon.jit
def twill_kernel(X, stride_xm, Yv, Yi, stride_ym, Bits, n_rows, n_expts_tot, S, s_blocks):
    pid = gl.program_id(0)
    v0 = pid < s_blocks
    if v0:
        v7_b136 = pid * 128
        v8 = S + v7_b136
        v9 = gl.arange(0, 128, layout=L19)
        v11 = v8 + v9
        gl.store(v11, gl.full([128], 0, gl.int32, layout=L19))
    v1 = pid * 32
    v2 = v1 >= n_rows
    if v2:
        return
    consumer_0(X, stride_xm, Yv, Yi, stride_ym, Bits, n_rows, n_expts_tot, S, s_blocks, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'stride_xm', 'Yv', 'Yi', 'stride_ym', 'USE_PROVIDED_INDX', 'Bits', 'stride_rm', 'stride_rn', 'n_rows', 'n_expts_tot', 'S', 'BLOCK_S', 's_blocks', 'APPLY_SOFTMAX', 'BLOCK_M', 'N_EXPTS_PAD', 'N_EXPTS_ACT', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'stride_xm', 'Yv', 'Yi', 'stride_ym', 'Bits', 'n_rows', 'n_expts_tot', 'S', 's_blocks']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X', 'stride_xm', 'Yv', 'Yi', 'stride_ym', 'Bits', 'n_rows', 'n_expts_tot', 'S', 's_blocks']   # the arguments a launch key reads
CONSTEXPRS = {'USE_PROVIDED_INDX': False, 'stride_rm': 8, 'stride_rn': 1, 'BLOCK_S': 128, 'APPLY_SOFTMAX': True, 'BLOCK_M': 32, 'N_EXPTS_PAD': 256, 'N_EXPTS_ACT': 8, 'BLOCK_N': 32}         # the specialisation this kernel was generated for
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
