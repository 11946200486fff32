"""_reverse_cumsum_norm, written by twill from its joint schedule: I=468 L=468 (optimal), 3681 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 177 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 1, 1, 1, 1, 4], threads_per_warp=[1, 1, 1, 1, 1, 2, 16], warps_per_cta=[1, 1, 1, 2, 2, 1, 1], order=[6, 5, 4, 3, 2, 1, 0]))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def twill_add(a, b):
    return a + b

@gluon.jit
def twill_combine_a2078901(a0, a1):
    t0 = a0 ^ a1
    return t0

@gluon.jit
def consumer_0(S, Z, R, T, D):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    base = gl.cast(v1, gl.int64)
    base_3 = gl.cast(T, gl.int64)
    base_4 = base * base_3
    base_5 = gl.cast(D, gl.int64)
    base_6 = base_4 * base_5
    n_chunks_7 = T + 63
    n_chunks_8 = n_chunks_7 // 64
    last = n_chunks_8 - 1
    last_9 = last * 64
    p_s = S + base_6
    p_s_10 = v0 * 64
    p_s_11 = gl.cast(last_9, gl.int64)
    p_s_12 = gl.cast(p_s_10, gl.int64)
    p_z = Z + base_6
    p_r = R + base_6
    b_s_13 = gl.arange(0, 64, layout=L0)
    b_s_14 = gl.arange(0, 64, layout=L1)
    b_s_15 = b_s_13.to(gl.int64)
    b_s_16 = b_s_14.to(gl.int64)
    b_s_19 = p_s_12 + b_s_16
    b_s_20 = gl.expand_dims(b_s_19, 0)
    b_s_21 = b_s_20.broadcast_to([64, 64])
    b_s_23 = b_s_20 >= 0
    b_s_25 = b_s_20 < base_5
    b_s_26 = b_s_23 & b_s_25
    b_s_27 = b_s_26.broadcast_to([64, 64])
    twill_n = (n_chunks_8 - 0 + 1 - 1) // 1
    p_s_163 = p_s_11
    b_z_160 = gl.full([64], 0.0, gl.float32, layout=L1)
    b_q_162 = gl.full([64], 0.0, gl.float32, layout=L1)
    b_q_162_p1 = b_q_162
    b_z_160_p1 = b_z_160
    p_s_163_p1 = p_s_163
    for twill_b in range(0, twill_n):
        b_s_30 = p_s_163_p1  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_31 = b_s_30 + b_s_15  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_32 = gl.expand_dims(b_s_31, 1)  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_37 = b_s_32 >= 0  # elementwise0_b_s: stage 0, partition 0 (group 0)
        b_s_38 = b_s_32 < base_3  # elementwise0_b_s: stage 0, partition 0 (group 0)
        b_s_39 = b_s_37 & b_s_38  # elementwise0_b_s: stage 0, partition 0 (group 0)
        b_s_40 = b_s_39.broadcast_to([64, 64])  # elementwise1_b_s: stage 0, partition 0 (group 0)
        b_s_41 = b_s_40 & b_s_27  # elementwise1_b_s: stage 0, partition 0 (group 0)
        p_s_163 = p_s_163_p1 + -64  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_33 = b_s_32 * base_5  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_34 = b_s_33.broadcast_to([64, 64])  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_35 = b_s_34 + b_s_21  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_36 = p_s + b_s_35  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_42 = gl.load(b_s_36, mask=b_s_41, other=0.0)  # load0_b_s: stage 0, partition 0 (group 0)
        y = b_s_42.to(gl.int32, bitcast=True)  # convert0_y: stage 0, partition 0 (group 0)
        b_sq = b_s_42 * b_s_42  # elementwise4_b_sq: stage 0, partition 0 (group 0)
        y_43 = gl.convert_layout(gl.reshape(y, [2, 2, 2, 2, 2, 2, 64]), L2)  # reduce0_y: stage 0, partition 0 (group 0)
        y_44, = gl.reduce((y_43,), 0, twill_combine_a2078901)  # reduce0_y: stage 0, partition 0 (group 0)
        y_100 = b_sq.to(gl.int32, bitcast=True)  # convert4_y: stage 0, partition 0 (group 0)
        y_45 = gl.expand_dims(y_44, 0)  # reduce1_y: stage 0, partition 0 (group 0)
        y_46 = y_45.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce1_y: stage 0, partition 0 (group 0)
        y_47 = y_43 ^ y_46  # reduce1_y: stage 0, partition 0 (group 0)
        y_48, = gl.reduce((y_47,), 1, twill_combine_a2078901)  # reduce1_y: stage 0, partition 0 (group 0)
        y_101 = gl.convert_layout(gl.reshape(y_100, [2, 2, 2, 2, 2, 2, 64]), L2)  # reduce12_y: stage 0, partition 0 (group 0)
        y_102, = gl.reduce((y_101,), 0, twill_combine_a2078901)  # reduce12_y: stage 0, partition 0 (group 0)
        y_49 = gl.expand_dims(y_48, 1)  # reduce2_y: stage 0, partition 0 (group 0)
        y_50 = y_49.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce2_y: stage 0, partition 0 (group 0)
        y_51 = y_47 ^ y_50  # reduce2_y: stage 0, partition 0 (group 0)
        y_52, = gl.reduce((y_51,), 2, twill_combine_a2078901)  # reduce2_y: stage 0, partition 0 (group 0)
        y_103 = gl.expand_dims(y_102, 0)  # reduce13_y: stage 0, partition 0 (group 0)
        y_104 = y_103.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce13_y: stage 0, partition 0 (group 0)
        y_105 = y_101 ^ y_104  # reduce13_y: stage 0, partition 0 (group 0)
        y_106, = gl.reduce((y_105,), 1, twill_combine_a2078901)  # reduce13_y: stage 0, partition 0 (group 0)
        y_53 = gl.expand_dims(y_52, 2)  # reduce3_y: stage 0, partition 0 (group 0)
        y_54 = y_53.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce3_y: stage 0, partition 0 (group 0)
        y_55 = y_51 ^ y_54  # reduce3_y: stage 0, partition 0 (group 0)
        y_56, = gl.reduce((y_55,), 3, twill_combine_a2078901)  # reduce3_y: stage 0, partition 0 (group 0)
        y_107 = gl.expand_dims(y_106, 1)  # reduce14_y: stage 0, partition 0 (group 0)
        y_108 = y_107.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce14_y: stage 0, partition 0 (group 0)
        y_109 = y_105 ^ y_108  # reduce14_y: stage 0, partition 0 (group 0)
        y_110, = gl.reduce((y_109,), 2, twill_combine_a2078901)  # reduce14_y: stage 0, partition 0 (group 0)
        y_57 = gl.expand_dims(y_56, 3)  # reduce4_y: stage 0, partition 0 (group 0)
        y_58 = y_57.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce4_y: stage 0, partition 0 (group 0)
        y_59 = y_55 ^ y_58  # reduce4_y: stage 0, partition 0 (group 0)
        y_60, = gl.reduce((y_59,), 4, twill_combine_a2078901)  # reduce4_y: stage 0, partition 0 (group 0)
        y_111 = gl.expand_dims(y_110, 2)  # reduce15_y: stage 0, partition 0 (group 0)
        y_112 = y_111.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce15_y: stage 0, partition 0 (group 0)
        y_113 = y_109 ^ y_112  # reduce15_y: stage 0, partition 0 (group 0)
        y_114, = gl.reduce((y_113,), 3, twill_combine_a2078901)  # reduce15_y: stage 0, partition 0 (group 0)
        y_61 = gl.expand_dims(y_60, 4)  # reduce5_y: stage 0, partition 0 (group 0)
        y_62 = y_61.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce5_y: stage 0, partition 0 (group 0)
        y_63 = y_59 ^ y_62  # reduce5_y: stage 0, partition 0 (group 0)
        y_64, = gl.reduce((y_63,), 5, twill_combine_a2078901)  # reduce5_y: stage 0, partition 0 (group 0)
        y_115 = gl.expand_dims(y_114, 3)  # reduce16_y: stage 0, partition 0 (group 0)
        y_116 = y_115.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce16_y: stage 0, partition 0 (group 0)
        y_117 = y_113 ^ y_116  # reduce16_y: stage 0, partition 0 (group 0)
        y_118, = gl.reduce((y_117,), 4, twill_combine_a2078901)  # reduce16_y: stage 0, partition 0 (group 0)
        y_65 = gl.expand_dims(y_64, 5)  # convert1_x: stage 0, partition 0 (group 0)
        y_66 = y_65.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # convert1_x: stage 0, partition 0 (group 0)
        y_67 = y_63 ^ y_66  # convert1_x: stage 0, partition 0 (group 0)
        x = gl.convert_layout(gl.reshape(y_67, [64, 64]), L3)  # convert1_x: stage 0, partition 0 (group 0)
        x_68 = x.to(gl.float32, bitcast=True)  # convert1_x: stage 0, partition 0 (group 0)
        y_119 = gl.expand_dims(y_118, 4)  # reduce17_y: stage 0, partition 0 (group 0)
        y_120 = y_119.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce17_y: stage 0, partition 0 (group 0)
        y_121 = y_117 ^ y_120  # reduce17_y: stage 0, partition 0 (group 0)
        y_122, = gl.reduce((y_121,), 5, twill_combine_a2078901)  # reduce17_y: stage 0, partition 0 (group 0)
        b_c = gl.associative_scan(x_68, 0, twill_add)  # elementwise2_b_c: stage 0, partition 0 (group 0)
        y_123 = gl.expand_dims(y_122, 5)  # convert5_x: stage 0, partition 0 (group 0)
        y_124 = y_123.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # convert5_x: stage 0, partition 0 (group 0)
        y_125 = y_121 ^ y_124  # convert5_x: stage 0, partition 0 (group 0)
        x_126 = gl.convert_layout(gl.reshape(y_125, [64, 64]), L3)  # convert5_x: stage 0, partition 0 (group 0)
        x_127 = x_126.to(gl.float32, bitcast=True)  # convert5_x: stage 0, partition 0 (group 0)
        y_69 = b_c.to(gl.int32, bitcast=True)  # convert2_y: stage 0, partition 0 (group 0)
        b_sq_128 = gl.associative_scan(x_127, 0, twill_add)  # elementwise5_b_sq: stage 0, partition 0 (group 0)
        y_129 = b_sq_128.to(gl.int32, bitcast=True)  # convert6_y: stage 0, partition 0 (group 0)
        y_130 = gl.convert_layout(gl.reshape(y_129, [2, 2, 2, 2, 2, 2, 64]), L2)  # reduce18_y: stage 0, partition 0 (group 0)
        y_131, = gl.reduce((y_130,), 0, twill_combine_a2078901)  # reduce18_y: stage 0, partition 0 (group 0)
        y_70 = gl.convert_layout(gl.reshape(y_69, [2, 2, 2, 2, 2, 2, 64]), L2)  # reduce6_y: stage 0, partition 0 (group 0)
        y_71, = gl.reduce((y_70,), 0, twill_combine_a2078901)  # reduce6_y: stage 0, partition 0 (group 0)
        y_132 = gl.expand_dims(y_131, 0)  # reduce19_y: stage 0, partition 0 (group 0)
        y_133 = y_132.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce19_y: stage 0, partition 0 (group 0)
        y_134 = y_130 ^ y_133  # reduce19_y: stage 0, partition 0 (group 0)
        y_135, = gl.reduce((y_134,), 1, twill_combine_a2078901)  # reduce19_y: stage 0, partition 0 (group 0)
        y_72 = gl.expand_dims(y_71, 0)  # reduce7_y: stage 0, partition 0 (group 0)
        y_73 = y_72.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce7_y: stage 0, partition 0 (group 0)
        y_74 = y_70 ^ y_73  # reduce7_y: stage 0, partition 0 (group 0)
        y_75, = gl.reduce((y_74,), 1, twill_combine_a2078901)  # reduce7_y: stage 0, partition 0 (group 0)
        y_136 = gl.expand_dims(y_135, 1)  # reduce20_y: stage 0, partition 0 (group 0)
        y_137 = y_136.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce20_y: stage 0, partition 0 (group 0)
        y_138 = y_134 ^ y_137  # reduce20_y: stage 0, partition 0 (group 0)
        y_139, = gl.reduce((y_138,), 2, twill_combine_a2078901)  # reduce20_y: stage 0, partition 0 (group 0)
        y_76 = gl.expand_dims(y_75, 1)  # reduce8_y: stage 0, partition 0 (group 0)
        y_77 = y_76.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce8_y: stage 0, partition 0 (group 0)
        y_78 = y_74 ^ y_77  # reduce8_y: stage 0, partition 0 (group 0)
        y_79, = gl.reduce((y_78,), 2, twill_combine_a2078901)  # reduce8_y: stage 0, partition 0 (group 0)
        y_140 = gl.expand_dims(y_139, 2)  # reduce21_y: stage 0, partition 0 (group 0)
        y_141 = y_140.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce21_y: stage 0, partition 0 (group 0)
        y_142 = y_138 ^ y_141  # reduce21_y: stage 0, partition 0 (group 0)
        y_143, = gl.reduce((y_142,), 3, twill_combine_a2078901)  # reduce21_y: stage 0, partition 0 (group 0)
        y_80 = gl.expand_dims(y_79, 2)  # reduce9_y: stage 0, partition 0 (group 0)
        y_81 = y_80.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce9_y: stage 0, partition 0 (group 0)
        y_82 = y_78 ^ y_81  # reduce9_y: stage 0, partition 0 (group 0)
        y_83, = gl.reduce((y_82,), 3, twill_combine_a2078901)  # reduce9_y: stage 0, partition 0 (group 0)
        y_144 = gl.expand_dims(y_143, 3)  # reduce22_y: stage 0, partition 0 (group 0)
        y_145 = y_144.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce22_y: stage 0, partition 0 (group 0)
        y_146 = y_142 ^ y_145  # reduce22_y: stage 0, partition 0 (group 0)
        y_147, = gl.reduce((y_146,), 4, twill_combine_a2078901)  # reduce22_y: stage 0, partition 0 (group 0)
        y_84 = gl.expand_dims(y_83, 3)  # reduce10_y: stage 0, partition 0 (group 0)
        y_85 = y_84.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce10_y: stage 0, partition 0 (group 0)
        y_86 = y_82 ^ y_85  # reduce10_y: stage 0, partition 0 (group 0)
        y_87, = gl.reduce((y_86,), 4, twill_combine_a2078901)  # reduce10_y: stage 0, partition 0 (group 0)
        y_148 = gl.expand_dims(y_147, 4)  # reduce23_y: stage 0, partition 0 (group 0)
        y_149 = y_148.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce23_y: stage 0, partition 0 (group 0)
        y_150 = y_146 ^ y_149  # reduce23_y: stage 0, partition 0 (group 0)
        y_151, = gl.reduce((y_150,), 5, twill_combine_a2078901)  # reduce23_y: stage 0, partition 0 (group 0)
        y_88 = gl.expand_dims(y_87, 4)  # reduce11_y: stage 0, partition 0 (group 0)
        y_89 = y_88.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # reduce11_y: stage 0, partition 0 (group 0)
        y_90 = y_86 ^ y_89  # reduce11_y: stage 0, partition 0 (group 0)
        y_91, = gl.reduce((y_90,), 5, twill_combine_a2078901)  # reduce11_y: stage 0, partition 0 (group 0)
        y_152 = gl.expand_dims(y_151, 5)  # convert7_x: stage 0, partition 0 (group 0)
        y_153 = y_152.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # convert7_x: stage 0, partition 0 (group 0)
        y_154 = y_150 ^ y_153  # convert7_x: stage 0, partition 0 (group 0)
        x_155 = gl.convert_layout(gl.reshape(y_154, [64, 64]), L3)  # convert7_x: stage 0, partition 0 (group 0)
        x_156 = x_155.to(gl.float32, bitcast=True)  # convert7_x: stage 0, partition 0 (group 0)
        b_z = gl.sum(b_s_42, axis=0)  # reduce24_b_z: stage 0, partition 0 (group 0)
        b_sq_157 = gl.expand_dims(b_q_162_p1, 0)  # sfu0: stage 0, partition 0 (group 0)
        b_sq_158 = b_sq_157.broadcast_to([64, 64])  # sfu0: stage 0, partition 0 (group 0)
        b_sq_159 = x_156 + b_sq_158  # sfu0: stage 0, partition 0 (group 0)
        v5 = gl.sqrt_rn(b_sq_159)  # sfu0: stage 0, partition 0 (group 0)
        y_92 = gl.expand_dims(y_91, 5)  # convert3_x: stage 0, partition 0 (group 0)
        y_93 = y_92.broadcast_to([2, 2, 2, 2, 2, 2, 64])  # convert3_x: stage 0, partition 0 (group 0)
        y_94 = y_90 ^ y_93  # convert3_x: stage 0, partition 0 (group 0)
        x_95 = gl.convert_layout(gl.reshape(y_94, [64, 64]), L3)  # convert3_x: stage 0, partition 0 (group 0)
        x_96 = x_95.to(gl.float32, bitcast=True)  # convert3_x: stage 0, partition 0 (group 0)
        b_z_160 = b_z_160_p1 + b_z  # elementwise6_b_z: stage 0, partition 0 (group 0)
        b_c_97 = gl.expand_dims(b_z_160_p1, 0)  # elementwise3_b_c: stage 0, partition 0 (group 0)
        b_c_98 = b_c_97.broadcast_to([64, 64])  # elementwise3_b_c: stage 0, partition 0 (group 0)
        b_c_99 = x_96 + b_c_98  # elementwise3_b_c: stage 0, partition 0 (group 0)
        v4 = p_z + b_s_35  # store0: stage 0, partition 0 (group 0)
        gl.store(v4, b_c_99, mask=b_s_41)  # store0: stage 0, partition 0 (group 0)
        b_q_161 = gl.sum(b_sq, axis=0)  # reduce25_b_q: stage 0, partition 0 (group 0)
        b_q_162 = b_q_162_p1 + b_q_161  # elementwise7_b_q: stage 0, partition 0 (group 0)
        v6 = p_r + b_s_35  # store1: stage 0, partition 0 (group 0)
        gl.store(v6, v5, mask=b_s_41)  # store1: stage 0, partition 0 (group 0)
        b_q_162_p1 = b_q_162
        b_z_160_p1 = b_z_160
        p_s_163_p1 = p_s_163

@gluon.jit
def twill_kernel(S, Z, R, T, D):
    consumer_0(S, Z, R, T, D, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['S', 'Z', 'R', 'T', 'D', 'BT', 'BD']          # the Triton kernel's parameters, in order
RUNTIME = ['S', 'Z', 'R', 'T', 'D']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['S', 'Z', 'R', 'T', 'D']   # the arguments a launch key reads
CONSTEXPRS = {'BT': 64, 'BD': 64}         # the specialisation this kernel was generated for
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
