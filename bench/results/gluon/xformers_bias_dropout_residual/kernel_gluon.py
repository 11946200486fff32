"""_bias_dropout_add_fw, written by twill from its joint schedule: I=357 L=360 (optimal), 714 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 102 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- timed at launch: the same loop in one stage, `twill_kernel_short` (I=357 optimal among one-stage schedules, ptxas 90 registers, 5 CTA(s) an SM against this kernel's 4 at 128), beside this pipelined kernel; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 139-142 and 219: one stage x0.44-1.20 of the pipelined kernel's speed over eighteen loops; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def twill_combine_a2078901(a0, a1):
    t0 = a0 ^ a1
    return t0

@gluon.jit
def consumer_0(X, BIAS, RES, Y, BITS, KEPT, n_cols, stride, n_words, p, seed):
    row = gl.program_id(0)
    thresh = p * 16777216.0
    thresh_6 = gl.cast(gl.cast(thresh, gl.uint32), gl.int32, bitcast=True)
    scale = 1.0 - p
    scale_7 = 1.0 / scale
    rng = row * n_cols
    rng_8 = gl.arange(0, 512, layout=L0)
    rng_9 = gl.arange(0, 512, layout=L1)
    seed_10 = gl.cast(seed, gl.int64)
    seed_hi = gl.cast(gl.cast(seed_10, gl.uint64, bitcast=True) >> 32, gl.int64, bitcast=True)
    seed_hi_11 = seed_hi & 4294967295
    seed_hi_12 = gl.cast(seed_hi_11, gl.int32)
    seed_lo = seed_10 & 4294967295
    seed_lo_13 = gl.cast(seed_lo, gl.int32)
    c0 = gl.cast(gl.umulhi(3449720151, 0), gl.int32, bitcast=True)
    c0_14 = c0 ^ seed_lo_13
    k0 = seed_lo_13 + -1640531527
    k1 = seed_hi_12 + -1150833019
    c2_16 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_14, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c3 = c0_14 * -766435501
    k0_20 = seed_lo_13 + 1013904242
    k1_21 = seed_hi_12 + 1993301258
    k0_24 = seed_lo_13 + -626627285
    k1_25 = seed_hi_12 + 842468239
    k0_28 = seed_lo_13 + 2027808484
    k1_29 = seed_hi_12 + -308364780
    k0_32 = seed_lo_13 + 387276957
    k1_33 = seed_hi_12 + -1459197799
    k0_36 = seed_lo_13 + -1253254570
    k1_37 = seed_hi_12 + 1684936478
    k0_40 = seed_lo_13 + 1401181199
    k1_41 = seed_hi_12 + 534103459
    k0_44 = seed_lo_13 + -239350328
    k1_45 = seed_hi_12 + -616729560
    k0_48 = seed_lo_13 + -1879881855
    k1_49 = seed_hi_12 + -1767562579
    x = row * stride
    x_53 = X + x
    res = RES + x
    k0_56 = Y + x
    lanes = gl.arange(0, 32, layout=L2)
    lanes_58 = gl.expand_dims(lanes, 0)
    lanes_59 = lanes_58.broadcast_to([16, 32])
    w_idx = gl.arange(0, 16, layout=L1)
    k0_61 = row * n_words
    k0_62 = BITS + k0_61
    twill_n = (n_cols - 0 + 2048 - 1) // 2048
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        kept_283 = 0
        cols_141 = (0 + (0 - 0) * 2048) + rng_8  # load0_x: stage 0, partition 0 (group 0)
        inb_143 = cols_141 < n_cols  # load0_x: stage 0, partition 0 (group 0)
        b_148 = BIAS + cols_141  # load1_b: stage 0, partition 0 (group 0)
        b_149 = gl.load(b_148, mask=inb_143, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
        x_145 = x_53 + cols_141  # load0_x: stage 0, partition 0 (group 0)
        x_146 = gl.load(x_145, mask=inb_143, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        res_151 = res + cols_141  # load2_res: stage 0, partition 0 (group 0)
        res_152 = gl.load(res_151, mask=inb_143, other=0.0)  # load2_res: stage 0, partition 0 (group 0)
        k2 = (0 + (0 - 0) * 2048) + 1024  # load6_x: stage 0, partition 0 (group 0)
        cols_209 = k2  # load6_x: stage 0, partition 0 (group 0)
        cols_211 = cols_209 + rng_8  # load6_x: stage 0, partition 0 (group 0)
        inb_213 = cols_211 < n_cols  # load6_x: stage 0, partition 0 (group 0)
        x_215 = x_53 + cols_211  # load6_x: stage 0, partition 0 (group 0)
        x_216 = gl.load(x_215, mask=inb_213, other=0.0)  # load6_x: stage 0, partition 0 (group 0)
        b_218 = BIAS + cols_211  # load7_b: stage 0, partition 0 (group 0)
        b_219 = gl.load(b_218, mask=inb_213, other=0.0)  # load7_b: stage 0, partition 0 (group 0)
        k1_173 = (0 + (0 - 0) * 2048) + 512  # load3_x: stage 0, partition 0 (group 0)
        cols_174 = k1_173  # load3_x: stage 0, partition 0 (group 0)
        cols_176 = cols_174 + rng_8  # load3_x: stage 0, partition 0 (group 0)
        inb_178 = cols_176 < n_cols  # load3_x: stage 0, partition 0 (group 0)
        x_180 = x_53 + cols_176  # load3_x: stage 0, partition 0 (group 0)
        x_181 = gl.load(x_180, mask=inb_178, other=0.0)  # load3_x: stage 0, partition 0 (group 0)
        k3 = (0 + (0 - 0) * 2048) + 1536  # load9_x: stage 0, partition 0 (group 0)
        cols_244 = k3  # load9_x: stage 0, partition 0 (group 0)
        cols_246 = cols_244 + rng_8  # load9_x: stage 0, partition 0 (group 0)
        inb_248 = cols_246 < n_cols  # load9_x: stage 0, partition 0 (group 0)
        res_256 = res + cols_246  # load11_res: stage 0, partition 0 (group 0)
        res_257 = gl.load(res_256, mask=inb_248, other=0.0)  # load11_res: stage 0, partition 0 (group 0)
        res_221 = res + cols_211  # load8_res: stage 0, partition 0 (group 0)
        res_222 = gl.load(res_221, mask=inb_213, other=0.0)  # load8_res: stage 0, partition 0 (group 0)
        b_183 = BIAS + cols_176  # load4_b: stage 0, partition 0 (group 0)
        b_184 = gl.load(b_183, mask=inb_178, other=0.0)  # load4_b: stage 0, partition 0 (group 0)
        res_186 = res + cols_176  # load5_res: stage 0, partition 0 (group 0)
        res_187 = gl.load(res_186, mask=inb_178, other=0.0)  # load5_res: stage 0, partition 0 (group 0)
        b_253 = BIAS + cols_246  # load10_b: stage 0, partition 0 (group 0)
        b_254 = gl.load(b_253, mask=inb_248, other=0.0)  # load10_b: stage 0, partition 0 (group 0)
        x_250 = x_53 + cols_246  # load9_x: stage 0, partition 0 (group 0)
        x_251 = gl.load(x_250, mask=inb_248, other=0.0)  # load9_x: stage 0, partition 0 (group 0)
        b_149_p1 = b_149
        b_184_p1 = b_184
        b_219_p1 = b_219
        b_254_p1 = b_254
        cols_141_p1 = cols_141
        cols_176_p1 = cols_176
        cols_211_p1 = cols_211
        cols_246_p1 = cols_246
        inb_143_p1 = inb_143
        inb_178_p1 = inb_178
        inb_213_p1 = inb_213
        inb_248_p1 = inb_248
        k1_173_p1 = k1_173
        k2_p1 = k2
        k3_p1 = k3
        kept_283_p1 = kept_283
        res_152_p1 = res_152
        res_187_p1 = res_187
        res_222_p1 = res_222
        res_257_p1 = res_257
        x_146_p1 = x_146
        x_181_p1 = x_181
        x_216_p1 = x_216
        x_251_p1 = x_251
        rng_65 = (0 + (1 - 1) * 2048) // 4  # elementwise0_keep: stage 1, partition 0 (group 0)
        rng_66 = rng + rng_65  # elementwise0_keep: stage 1, partition 0 (group 0)
        rng_67 = rng_66  # elementwise0_keep: stage 1, partition 0 (group 0)
        rng_68 = rng_67 + rng_9  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_69 = gl.cast(gl.umulhi(3528531795, gl.cast(rng_68, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_70 = c2_69 ^ seed_hi_12  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_71 = rng_68 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_72 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_70, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_73 = c0_72 ^ k0  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_74 = c2_16 ^ c3_71  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_75 = c2_74 ^ k1  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1 = c2_70 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_76 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_75, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_77 = c0_76 ^ c1  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_78 = c0_77 ^ k0_20  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_79 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_73, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_80 = c2_79 ^ c3  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_81 = c2_80 ^ k1_21  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_82 = c2_75 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_83 = c0_73 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_84 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_81, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_85 = c0_84 ^ c1_82  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_86 = c0_85 ^ k0_24  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_87 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_78, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_88 = c2_87 ^ c3_83  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_89 = c2_88 ^ k1_25  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_90 = c2_81 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_91 = c0_78 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_92 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_89, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_93 = c0_92 ^ c1_90  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_94 = c0_93 ^ k0_28  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_95 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_86, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_96 = c2_95 ^ c3_91  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_97 = c2_96 ^ k1_29  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_98 = c2_89 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_99 = c0_86 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_100 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_97, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_101 = c0_100 ^ c1_98  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_102 = c0_101 ^ k0_32  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_103 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_94, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_104 = c2_103 ^ c3_99  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_105 = c2_104 ^ k1_33  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_106 = c2_97 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_107 = c0_94 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_108 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_105, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_109 = c0_108 ^ c1_106  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_110 = c0_109 ^ k0_36  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_111 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_102, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_112 = c2_111 ^ c3_107  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_113 = c2_112 ^ k1_37  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_114 = c2_105 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_115 = c0_102 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_116 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_113, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_117 = c0_116 ^ c1_114  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_118 = c0_117 ^ k0_40  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_119 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_110, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_120 = c2_119 ^ c3_115  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_121 = c2_120 ^ k1_41  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_123 = c0_110 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_127 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_118, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_128 = c2_127 ^ c3_123  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_129 = c2_128 ^ k1_45  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_130 = c2_121 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_132 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_129, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_133 = c0_132 ^ c1_130  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_134 = c0_133 ^ k0_48  # elementwise0_keep: stage 1, partition 0 (group 0)
        cols_142 = (0 + (1 - 1) * 2048) + rng_9  # elementwise0_keep: stage 1, partition 0 (group 0)
        inb_144 = cols_142 < n_cols  # elementwise0_keep: stage 1, partition 0 (group 0)
        keep_154 = c0_134 & 16777215  # elementwise0_keep: stage 1, partition 0 (group 0)
        keep_155 = gl.cast(keep_154, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        keep_156 = keep_155 & inb_144  # elementwise0_keep: stage 1, partition 0 (group 0)
        keep_157 = gl.convert_layout(keep_156, L0)  # convert3_keep: stage 1, partition 0 (group 0)
        cols_141 = (0 + (1 - 0) * 2048) + rng_8  # load0_x: stage 0, partition 0 (group 0)
        inb_143 = cols_141 < n_cols  # load0_x: stage 0, partition 0 (group 0)
        b_148 = BIAS + cols_141  # load1_b: stage 0, partition 0 (group 0)
        b_149 = gl.load(b_148, mask=inb_143, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
        b_150 = b_149_p1.to(gl.float32)  # convert1_b: stage 1, partition 0 (group 0)
        x_145 = x_53 + cols_141  # load0_x: stage 0, partition 0 (group 0)
        x_146 = gl.load(x_145, mask=inb_143, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_147 = x_146_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        res_151 = res + cols_141  # load2_res: stage 0, partition 0 (group 0)
        res_152 = gl.load(res_151, mask=inb_143, other=0.0)  # load2_res: stage 0, partition 0 (group 0)
        res_153 = res_152_p1.to(gl.float32)  # convert2_res: stage 1, partition 0 (group 0)
        y_158 = x_147 + b_150  # elementwise4_y: stage 1, partition 0 (group 0)
        y_159 = y_158 * scale_7  # elementwise4_y: stage 1, partition 0 (group 0)
        y_160 = gl.where(keep_157, y_159, 0.0)  # elementwise4_y: stage 1, partition 0 (group 0)
        y_161 = y_160 + res_153  # elementwise4_y: stage 1, partition 0 (group 0)
        c1_138 = c2_129 * -845247145  # elementwise2_keep: stage 1, partition 0 (group 0)
        cols_175 = k1_173_p1  # elementwise2_keep: stage 1, partition 0 (group 0)
        cols_177 = cols_175 + rng_9  # elementwise2_keep: stage 1, partition 0 (group 0)
        inb_179 = cols_177 < n_cols  # elementwise2_keep: stage 1, partition 0 (group 0)
        keep_189 = c1_138 & 16777215  # elementwise2_keep: stage 1, partition 0 (group 0)
        keep_190 = gl.cast(keep_189, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise2_keep: stage 1, partition 0 (group 0)
        keep_191 = keep_190 & inb_179  # elementwise2_keep: stage 1, partition 0 (group 0)
        k2 = (0 + (1 - 0) * 2048) + 1024  # load6_x: stage 0, partition 0 (group 0)
        cols_209 = k2  # load6_x: stage 0, partition 0 (group 0)
        cols_211 = cols_209 + rng_8  # load6_x: stage 0, partition 0 (group 0)
        inb_213 = cols_211 < n_cols  # load6_x: stage 0, partition 0 (group 0)
        x_215 = x_53 + cols_211  # load6_x: stage 0, partition 0 (group 0)
        x_216 = gl.load(x_215, mask=inb_213, other=0.0)  # load6_x: stage 0, partition 0 (group 0)
        x_217 = x_216_p1.to(gl.float32)  # convert12_x: stage 1, partition 0 (group 0)
        c1_122 = c2_113 * -845247145  # elementwise1_keep: stage 1, partition 0 (group 0)
        c0_124 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_121, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise1_keep: stage 1, partition 0 (group 0)
        c0_125 = c0_124 ^ c1_122  # elementwise1_keep: stage 1, partition 0 (group 0)
        c0_126 = c0_125 ^ k0_44  # elementwise1_keep: stage 1, partition 0 (group 0)
        c3_131 = c0_118 * -766435501  # elementwise1_keep: stage 1, partition 0 (group 0)
        c2_135 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_126, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise1_keep: stage 1, partition 0 (group 0)
        c2_136 = c2_135 ^ c3_131  # elementwise1_keep: stage 1, partition 0 (group 0)
        c2_137 = c2_136 ^ k1_49  # elementwise1_keep: stage 1, partition 0 (group 0)
        cols_210 = k2_p1  # elementwise1_keep: stage 1, partition 0 (group 0)
        cols_212 = cols_210 + rng_9  # elementwise1_keep: stage 1, partition 0 (group 0)
        inb_214 = cols_212 < n_cols  # elementwise1_keep: stage 1, partition 0 (group 0)
        keep_224 = c2_137 & 16777215  # elementwise1_keep: stage 1, partition 0 (group 0)
        keep_225 = gl.cast(keep_224, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise1_keep: stage 1, partition 0 (group 0)
        keep_226 = keep_225 & inb_214  # elementwise1_keep: stage 1, partition 0 (group 0)
        c3_139 = c0_126 * -766435501  # elementwise3_keep: stage 1, partition 0 (group 0)
        cols_245 = k3_p1  # elementwise3_keep: stage 1, partition 0 (group 0)
        cols_247 = cols_245 + rng_9  # elementwise3_keep: stage 1, partition 0 (group 0)
        inb_249 = cols_247 < n_cols  # elementwise3_keep: stage 1, partition 0 (group 0)
        keep_259 = c3_139 & 16777215  # elementwise3_keep: stage 1, partition 0 (group 0)
        keep_260 = gl.cast(keep_259, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise3_keep: stage 1, partition 0 (group 0)
        keep_261 = keep_260 & inb_249  # elementwise3_keep: stage 1, partition 0 (group 0)
        keep_227 = gl.convert_layout(keep_226, L0)  # convert15_keep: stage 1, partition 0 (group 0)
        both = gl.convert_layout(gl.reshape(gl.permute(gl.join(keep_156, keep_191), (1, 0)), [1024]), L1)  # elementwise8_both: stage 1, partition 0 (group 0)
        both_279 = gl.convert_layout(gl.reshape(gl.permute(gl.join(keep_226, keep_261), (1, 0)), [1024]), L1)  # elementwise9_both: stage 1, partition 0 (group 0)
        b_218 = BIAS + cols_211  # load7_b: stage 0, partition 0 (group 0)
        b_219 = gl.load(b_218, mask=inb_213, other=0.0)  # load7_b: stage 0, partition 0 (group 0)
        b_220 = b_219_p1.to(gl.float32)  # convert13_b: stage 1, partition 0 (group 0)
        k1_173 = (0 + (1 - 0) * 2048) + 512  # load3_x: stage 0, partition 0 (group 0)
        cols_174 = k1_173  # load3_x: stage 0, partition 0 (group 0)
        cols_176 = cols_174 + rng_8  # load3_x: stage 0, partition 0 (group 0)
        inb_178 = cols_176 < n_cols  # load3_x: stage 0, partition 0 (group 0)
        x_180 = x_53 + cols_176  # load3_x: stage 0, partition 0 (group 0)
        x_181 = gl.load(x_180, mask=inb_178, other=0.0)  # load3_x: stage 0, partition 0 (group 0)
        x_182 = x_181_p1.to(gl.float32)  # convert6_x: stage 1, partition 0 (group 0)
        k3 = (0 + (1 - 0) * 2048) + 1536  # load9_x: stage 0, partition 0 (group 0)
        cols_244 = k3  # load9_x: stage 0, partition 0 (group 0)
        cols_246 = cols_244 + rng_8  # load9_x: stage 0, partition 0 (group 0)
        inb_248 = cols_246 < n_cols  # load9_x: stage 0, partition 0 (group 0)
        res_256 = res + cols_246  # load11_res: stage 0, partition 0 (group 0)
        res_257 = gl.load(res_256, mask=inb_248, other=0.0)  # load11_res: stage 0, partition 0 (group 0)
        res_258 = res_257_p1.to(gl.float32)  # convert20_res: stage 1, partition 0 (group 0)
        res_221 = res + cols_211  # load8_res: stage 0, partition 0 (group 0)
        res_222 = gl.load(res_221, mask=inb_213, other=0.0)  # load8_res: stage 0, partition 0 (group 0)
        res_223 = res_222_p1.to(gl.float32)  # convert14_res: stage 1, partition 0 (group 0)
        keep_192 = gl.convert_layout(keep_191, L0)  # convert9_keep: stage 1, partition 0 (group 0)
        b_183 = BIAS + cols_176  # load4_b: stage 0, partition 0 (group 0)
        b_184 = gl.load(b_183, mask=inb_178, other=0.0)  # load4_b: stage 0, partition 0 (group 0)
        b_185 = b_184_p1.to(gl.float32)  # convert7_b: stage 1, partition 0 (group 0)
        res_186 = res + cols_176  # load5_res: stage 0, partition 0 (group 0)
        res_187 = gl.load(res_186, mask=inb_178, other=0.0)  # load5_res: stage 0, partition 0 (group 0)
        res_188 = res_187_p1.to(gl.float32)  # convert8_res: stage 1, partition 0 (group 0)
        y_228 = x_217 + b_220  # elementwise6_y: stage 1, partition 0 (group 0)
        y_229 = y_228 * scale_7  # elementwise6_y: stage 1, partition 0 (group 0)
        y_230 = gl.where(keep_227, y_229, 0.0)  # elementwise6_y: stage 1, partition 0 (group 0)
        y_231 = y_230 + res_223  # elementwise6_y: stage 1, partition 0 (group 0)
        keep_262 = gl.convert_layout(keep_261, L0)  # convert21_keep: stage 1, partition 0 (group 0)
        both_280 = gl.convert_layout(gl.reshape(gl.permute(gl.join(both, both_279), (1, 0)), [2048]), L1)  # elementwise10_both: stage 1, partition 0 (group 0)
        y_193 = x_182 + b_185  # elementwise5_y: stage 1, partition 0 (group 0)
        y_194 = y_193 * scale_7  # elementwise5_y: stage 1, partition 0 (group 0)
        y_195 = gl.where(keep_192, y_194, 0.0)  # elementwise5_y: stage 1, partition 0 (group 0)
        y_196 = y_195 + res_188  # elementwise5_y: stage 1, partition 0 (group 0)
        b_253 = BIAS + cols_246  # load10_b: stage 0, partition 0 (group 0)
        b_254 = gl.load(b_253, mask=inb_248, other=0.0)  # load10_b: stage 0, partition 0 (group 0)
        b_255 = b_254_p1.to(gl.float32)  # convert19_b: stage 1, partition 0 (group 0)
        x_250 = x_53 + cols_246  # load9_x: stage 0, partition 0 (group 0)
        x_251 = gl.load(x_250, mask=inb_248, other=0.0)  # load9_x: stage 0, partition 0 (group 0)
        x_252 = x_251_p1.to(gl.float32)  # convert18_x: stage 1, partition 0 (group 0)
        lanes_164 = keep_156.to(gl.int32)  # reduce0_words: stage 1, partition 0 (group 0)
        lanes_165 = gl.convert_layout(gl.reshape(lanes_164, [16, 32]), L3)  # reduce0_words: stage 1, partition 0 (group 0)
        lanes_166 = lanes_165 << lanes_59  # reduce0_words: stage 1, partition 0 (group 0)
        words, = gl.reduce((lanes_166,), 1, twill_combine_a2078901)  # reduce0_words: stage 1, partition 0 (group 0)
        k0_163 = y_161.to(gl.float16)  # convert4_k0: stage 1, partition 0 (group 0)
        k0_162 = k0_56 + cols_141_p1  # store0_k0: stage 1, partition 0 (group 0)
        gl.store(k0_162, k0_163, mask=inb_143_p1)  # store0_k0: stage 1, partition 0 (group 0)
        lanes_199 = keep_191.to(gl.int32)  # reduce1_words: stage 1, partition 0 (group 0)
        lanes_200 = gl.convert_layout(gl.reshape(lanes_199, [16, 32]), L3)  # reduce1_words: stage 1, partition 0 (group 0)
        lanes_201 = lanes_200 << lanes_59  # reduce1_words: stage 1, partition 0 (group 0)
        words_202, = gl.reduce((lanes_201,), 1, twill_combine_a2078901)  # reduce1_words: stage 1, partition 0 (group 0)
        lanes_269 = keep_261.to(gl.int32)  # reduce3_words: stage 1, partition 0 (group 0)
        lanes_270 = gl.convert_layout(gl.reshape(lanes_269, [16, 32]), L3)  # reduce3_words: stage 1, partition 0 (group 0)
        lanes_271 = lanes_270 << lanes_59  # reduce3_words: stage 1, partition 0 (group 0)
        words_272, = gl.reduce((lanes_271,), 1, twill_combine_a2078901)  # reduce3_words: stage 1, partition 0 (group 0)
        lanes_234 = keep_226.to(gl.int32)  # reduce2_words: stage 1, partition 0 (group 0)
        lanes_235 = gl.convert_layout(gl.reshape(lanes_234, [16, 32]), L3)  # reduce2_words: stage 1, partition 0 (group 0)
        lanes_236 = lanes_235 << lanes_59  # reduce2_words: stage 1, partition 0 (group 0)
        words_237, = gl.reduce((lanes_236,), 1, twill_combine_a2078901)  # reduce2_words: stage 1, partition 0 (group 0)
        kept_281 = both_280.to(gl.int32)  # reduce4_kept: stage 1, partition 0 (group 0)
        kept_282 = gl.sum(kept_281, axis=0)  # reduce4_kept: stage 1, partition 0 (group 0)
        k0_167 = gl.convert_layout(words, L1)  # convert5_k0: stage 1, partition 0 (group 0)
        w_idx_168 = (0 + (1 - 1) * 2048) // 32  # store1_k0: stage 1, partition 0 (group 0)
        w_idx_169 = w_idx_168  # store1_k0: stage 1, partition 0 (group 0)
        w_idx_170 = w_idx_169 + w_idx  # store1_k0: stage 1, partition 0 (group 0)
        k0_171 = w_idx_170 < n_words  # store1_k0: stage 1, partition 0 (group 0)
        k0_172 = k0_62 + w_idx_170  # store1_k0: stage 1, partition 0 (group 0)
        gl.store(k0_172, k0_167, mask=k0_171)  # store1_k0: stage 1, partition 0 (group 0)
        k2_233 = y_231.to(gl.float16)  # convert16_k2: stage 1, partition 0 (group 0)
        k1_198 = y_196.to(gl.float16)  # convert10_k1: stage 1, partition 0 (group 0)
        k2_232 = k0_56 + cols_211_p1  # store4_k2: stage 1, partition 0 (group 0)
        gl.store(k2_232, k2_233, mask=inb_213_p1)  # store4_k2: stage 1, partition 0 (group 0)
        k1_203 = gl.convert_layout(words_202, L1)  # convert11_k1: stage 1, partition 0 (group 0)
        y_263 = x_252 + b_255  # elementwise7_y: stage 1, partition 0 (group 0)
        y_264 = y_263 * scale_7  # elementwise7_y: stage 1, partition 0 (group 0)
        y_265 = gl.where(keep_262, y_264, 0.0)  # elementwise7_y: stage 1, partition 0 (group 0)
        y_266 = y_265 + res_258  # elementwise7_y: stage 1, partition 0 (group 0)
        w_idx_204 = k1_173_p1 // 32  # store3_k1: stage 1, partition 0 (group 0)
        w_idx_205 = w_idx_204  # store3_k1: stage 1, partition 0 (group 0)
        w_idx_206 = w_idx_205 + w_idx  # store3_k1: stage 1, partition 0 (group 0)
        k1_207 = w_idx_206 < n_words  # store3_k1: stage 1, partition 0 (group 0)
        k1_208 = k0_62 + w_idx_206  # store3_k1: stage 1, partition 0 (group 0)
        gl.store(k1_208, k1_203, mask=k1_207)  # store3_k1: stage 1, partition 0 (group 0)
        k1_197 = k0_56 + cols_176_p1  # store2_k1: stage 1, partition 0 (group 0)
        gl.store(k1_197, k1_198, mask=inb_178_p1)  # store2_k1: stage 1, partition 0 (group 0)
        k2_238 = gl.convert_layout(words_237, L1)  # convert17_k2: stage 1, partition 0 (group 0)
        w_idx_239 = k2_p1 // 32  # store5_k2: stage 1, partition 0 (group 0)
        w_idx_240 = w_idx_239  # store5_k2: stage 1, partition 0 (group 0)
        w_idx_241 = w_idx_240 + w_idx  # store5_k2: stage 1, partition 0 (group 0)
        k2_242 = w_idx_241 < n_words  # store5_k2: stage 1, partition 0 (group 0)
        k2_243 = k0_62 + w_idx_241  # store5_k2: stage 1, partition 0 (group 0)
        gl.store(k2_243, k2_238, mask=k2_242)  # store5_k2: stage 1, partition 0 (group 0)
        k3_268 = y_266.to(gl.float16)  # convert22_k3: stage 1, partition 0 (group 0)
        k3_267 = k0_56 + cols_246_p1  # store6_k3: stage 1, partition 0 (group 0)
        gl.store(k3_267, k3_268, mask=inb_248_p1)  # store6_k3: stage 1, partition 0 (group 0)
        k3_273 = gl.convert_layout(words_272, L1)  # convert23_k3: stage 1, partition 0 (group 0)
        kept_283 = kept_283_p1 + kept_282  # elementwise11_kept: stage 1, partition 0 (group 0)
        b_149_p1 = b_149
        b_184_p1 = b_184
        b_219_p1 = b_219
        b_254_p1 = b_254
        cols_141_p1 = cols_141
        cols_176_p1 = cols_176
        cols_211_p1 = cols_211
        cols_246_p1 = cols_246
        inb_143_p1 = inb_143
        inb_178_p1 = inb_178
        inb_213_p1 = inb_213
        inb_248_p1 = inb_248
        k1_173_p1 = k1_173
        k2_p1 = k2
        k3_p2 = k3_p1
        k3_p1 = k3
        k3_273_p1 = k3_273
        kept_283_p1 = kept_283
        res_152_p1 = res_152
        res_187_p1 = res_187
        res_222_p1 = res_222
        res_257_p1 = res_257
        x_146_p1 = x_146
        x_181_p1 = x_181
        x_216_p1 = x_216
        x_251_p1 = x_251
        for twill_b in range(2, twill_n):
            rng_65 = (0 + (twill_b - 1) * 2048) // 4  # elementwise0_keep: stage 1, partition 0 (group 0)
            rng_66 = rng + rng_65  # elementwise0_keep: stage 1, partition 0 (group 0)
            rng_67 = rng_66  # elementwise0_keep: stage 1, partition 0 (group 0)
            rng_68 = rng_67 + rng_9  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_69 = gl.cast(gl.umulhi(3528531795, gl.cast(rng_68, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_70 = c2_69 ^ seed_hi_12  # elementwise0_keep: stage 1, partition 0 (group 0)
            c3_71 = rng_68 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_72 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_70, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_73 = c0_72 ^ k0  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_74 = c2_16 ^ c3_71  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_75 = c2_74 ^ k1  # elementwise0_keep: stage 1, partition 0 (group 0)
            c1 = c2_70 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_76 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_75, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_77 = c0_76 ^ c1  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_78 = c0_77 ^ k0_20  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_79 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_73, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_80 = c2_79 ^ c3  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_81 = c2_80 ^ k1_21  # elementwise0_keep: stage 1, partition 0 (group 0)
            c1_82 = c2_75 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
            c3_83 = c0_73 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_84 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_81, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_85 = c0_84 ^ c1_82  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_86 = c0_85 ^ k0_24  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_87 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_78, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_88 = c2_87 ^ c3_83  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_89 = c2_88 ^ k1_25  # elementwise0_keep: stage 1, partition 0 (group 0)
            c1_90 = c2_81 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
            c3_91 = c0_78 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_92 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_89, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_93 = c0_92 ^ c1_90  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_94 = c0_93 ^ k0_28  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_95 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_86, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_96 = c2_95 ^ c3_91  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_97 = c2_96 ^ k1_29  # elementwise0_keep: stage 1, partition 0 (group 0)
            c1_98 = c2_89 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
            c3_99 = c0_86 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_100 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_97, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_101 = c0_100 ^ c1_98  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_102 = c0_101 ^ k0_32  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_103 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_94, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_104 = c2_103 ^ c3_99  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_105 = c2_104 ^ k1_33  # elementwise0_keep: stage 1, partition 0 (group 0)
            c1_106 = c2_97 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
            c3_107 = c0_94 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_108 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_105, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_109 = c0_108 ^ c1_106  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_110 = c0_109 ^ k0_36  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_111 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_102, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_112 = c2_111 ^ c3_107  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_113 = c2_112 ^ k1_37  # elementwise0_keep: stage 1, partition 0 (group 0)
            c1_114 = c2_105 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
            c3_115 = c0_102 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_116 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_113, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_117 = c0_116 ^ c1_114  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_118 = c0_117 ^ k0_40  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_119 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_110, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_120 = c2_119 ^ c3_115  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_121 = c2_120 ^ k1_41  # elementwise0_keep: stage 1, partition 0 (group 0)
            c3_123 = c0_110 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_127 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_118, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_128 = c2_127 ^ c3_123  # elementwise0_keep: stage 1, partition 0 (group 0)
            c2_129 = c2_128 ^ k1_45  # elementwise0_keep: stage 1, partition 0 (group 0)
            c1_130 = c2_121 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_132 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_129, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_133 = c0_132 ^ c1_130  # elementwise0_keep: stage 1, partition 0 (group 0)
            c0_134 = c0_133 ^ k0_48  # elementwise0_keep: stage 1, partition 0 (group 0)
            cols_140 = (0 + (twill_b - 1) * 2048)  # elementwise0_keep: stage 1, partition 0 (group 0)
            cols_142 = cols_140 + rng_9  # elementwise0_keep: stage 1, partition 0 (group 0)
            inb_144 = cols_142 < n_cols  # elementwise0_keep: stage 1, partition 0 (group 0)
            keep_154 = c0_134 & 16777215  # elementwise0_keep: stage 1, partition 0 (group 0)
            keep_155 = gl.cast(keep_154, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
            keep_156 = keep_155 & inb_144  # elementwise0_keep: stage 1, partition 0 (group 0)
            w_idx_274 = k3_p2 // 32  # store7_k3: stage 2, partition 0 (group 0)
            w_idx_275 = w_idx_274  # store7_k3: stage 2, partition 0 (group 0)
            w_idx_276 = w_idx_275 + w_idx  # store7_k3: stage 2, partition 0 (group 0)
            k3_277 = w_idx_276 < n_words  # store7_k3: stage 2, partition 0 (group 0)
            k3_278 = k0_62 + w_idx_276  # store7_k3: stage 2, partition 0 (group 0)
            gl.store(k3_278, k3_273_p1, mask=k3_277)  # store7_k3: stage 2, partition 0 (group 0)
            keep_157 = gl.convert_layout(keep_156, L0)  # convert3_keep: stage 1, partition 0 (group 0)
            cols = (0 + (twill_b - 0) * 2048)  # load0_x: stage 0, partition 0 (group 0)
            cols_141 = cols + rng_8  # load0_x: stage 0, partition 0 (group 0)
            inb_143 = cols_141 < n_cols  # load0_x: stage 0, partition 0 (group 0)
            b_148 = BIAS + cols_141  # load1_b: stage 0, partition 0 (group 0)
            b_149 = gl.load(b_148, mask=inb_143, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
            b_150 = b_149_p1.to(gl.float32)  # convert1_b: stage 1, partition 0 (group 0)
            x_145 = x_53 + cols_141  # load0_x: stage 0, partition 0 (group 0)
            x_146 = gl.load(x_145, mask=inb_143, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
            x_147 = x_146_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
            res_151 = res + cols_141  # load2_res: stage 0, partition 0 (group 0)
            res_152 = gl.load(res_151, mask=inb_143, other=0.0)  # load2_res: stage 0, partition 0 (group 0)
            res_153 = res_152_p1.to(gl.float32)  # convert2_res: stage 1, partition 0 (group 0)
            y_158 = x_147 + b_150  # elementwise4_y: stage 1, partition 0 (group 0)
            y_159 = y_158 * scale_7  # elementwise4_y: stage 1, partition 0 (group 0)
            y_160 = gl.where(keep_157, y_159, 0.0)  # elementwise4_y: stage 1, partition 0 (group 0)
            y_161 = y_160 + res_153  # elementwise4_y: stage 1, partition 0 (group 0)
            c1_138 = c2_129 * -845247145  # elementwise2_keep: stage 1, partition 0 (group 0)
            cols_175 = k1_173_p1  # elementwise2_keep: stage 1, partition 0 (group 0)
            cols_177 = cols_175 + rng_9  # elementwise2_keep: stage 1, partition 0 (group 0)
            inb_179 = cols_177 < n_cols  # elementwise2_keep: stage 1, partition 0 (group 0)
            keep_189 = c1_138 & 16777215  # elementwise2_keep: stage 1, partition 0 (group 0)
            keep_190 = gl.cast(keep_189, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise2_keep: stage 1, partition 0 (group 0)
            keep_191 = keep_190 & inb_179  # elementwise2_keep: stage 1, partition 0 (group 0)
            k2 = (0 + (twill_b - 0) * 2048) + 1024  # load6_x: stage 0, partition 0 (group 0)
            cols_209 = k2  # load6_x: stage 0, partition 0 (group 0)
            cols_211 = cols_209 + rng_8  # load6_x: stage 0, partition 0 (group 0)
            inb_213 = cols_211 < n_cols  # load6_x: stage 0, partition 0 (group 0)
            x_215 = x_53 + cols_211  # load6_x: stage 0, partition 0 (group 0)
            x_216 = gl.load(x_215, mask=inb_213, other=0.0)  # load6_x: stage 0, partition 0 (group 0)
            x_217 = x_216_p1.to(gl.float32)  # convert12_x: stage 1, partition 0 (group 0)
            c1_122 = c2_113 * -845247145  # elementwise1_keep: stage 1, partition 0 (group 0)
            c0_124 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_121, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise1_keep: stage 1, partition 0 (group 0)
            c0_125 = c0_124 ^ c1_122  # elementwise1_keep: stage 1, partition 0 (group 0)
            c0_126 = c0_125 ^ k0_44  # elementwise1_keep: stage 1, partition 0 (group 0)
            c3_131 = c0_118 * -766435501  # elementwise1_keep: stage 1, partition 0 (group 0)
            c2_135 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_126, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise1_keep: stage 1, partition 0 (group 0)
            c2_136 = c2_135 ^ c3_131  # elementwise1_keep: stage 1, partition 0 (group 0)
            c2_137 = c2_136 ^ k1_49  # elementwise1_keep: stage 1, partition 0 (group 0)
            cols_210 = k2_p1  # elementwise1_keep: stage 1, partition 0 (group 0)
            cols_212 = cols_210 + rng_9  # elementwise1_keep: stage 1, partition 0 (group 0)
            inb_214 = cols_212 < n_cols  # elementwise1_keep: stage 1, partition 0 (group 0)
            keep_224 = c2_137 & 16777215  # elementwise1_keep: stage 1, partition 0 (group 0)
            keep_225 = gl.cast(keep_224, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise1_keep: stage 1, partition 0 (group 0)
            keep_226 = keep_225 & inb_214  # elementwise1_keep: stage 1, partition 0 (group 0)
            c3_139 = c0_126 * -766435501  # elementwise3_keep: stage 1, partition 0 (group 0)
            cols_245 = k3_p1  # elementwise3_keep: stage 1, partition 0 (group 0)
            cols_247 = cols_245 + rng_9  # elementwise3_keep: stage 1, partition 0 (group 0)
            inb_249 = cols_247 < n_cols  # elementwise3_keep: stage 1, partition 0 (group 0)
            keep_259 = c3_139 & 16777215  # elementwise3_keep: stage 1, partition 0 (group 0)
            keep_260 = gl.cast(keep_259, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise3_keep: stage 1, partition 0 (group 0)
            keep_261 = keep_260 & inb_249  # elementwise3_keep: stage 1, partition 0 (group 0)
            keep_227 = gl.convert_layout(keep_226, L0)  # convert15_keep: stage 1, partition 0 (group 0)
            both = gl.convert_layout(gl.reshape(gl.permute(gl.join(keep_156, keep_191), (1, 0)), [1024]), L1)  # elementwise8_both: stage 1, partition 0 (group 0)
            both_279 = gl.convert_layout(gl.reshape(gl.permute(gl.join(keep_226, keep_261), (1, 0)), [1024]), L1)  # elementwise9_both: stage 1, partition 0 (group 0)
            b_218 = BIAS + cols_211  # load7_b: stage 0, partition 0 (group 0)
            b_219 = gl.load(b_218, mask=inb_213, other=0.0)  # load7_b: stage 0, partition 0 (group 0)
            b_220 = b_219_p1.to(gl.float32)  # convert13_b: stage 1, partition 0 (group 0)
            k1_173 = (0 + (twill_b - 0) * 2048) + 512  # load3_x: stage 0, partition 0 (group 0)
            cols_174 = k1_173  # load3_x: stage 0, partition 0 (group 0)
            cols_176 = cols_174 + rng_8  # load3_x: stage 0, partition 0 (group 0)
            inb_178 = cols_176 < n_cols  # load3_x: stage 0, partition 0 (group 0)
            x_180 = x_53 + cols_176  # load3_x: stage 0, partition 0 (group 0)
            x_181 = gl.load(x_180, mask=inb_178, other=0.0)  # load3_x: stage 0, partition 0 (group 0)
            x_182 = x_181_p1.to(gl.float32)  # convert6_x: stage 1, partition 0 (group 0)
            k3 = (0 + (twill_b - 0) * 2048) + 1536  # load9_x: stage 0, partition 0 (group 0)
            cols_244 = k3  # load9_x: stage 0, partition 0 (group 0)
            cols_246 = cols_244 + rng_8  # load9_x: stage 0, partition 0 (group 0)
            inb_248 = cols_246 < n_cols  # load9_x: stage 0, partition 0 (group 0)
            res_256 = res + cols_246  # load11_res: stage 0, partition 0 (group 0)
            res_257 = gl.load(res_256, mask=inb_248, other=0.0)  # load11_res: stage 0, partition 0 (group 0)
            res_258 = res_257_p1.to(gl.float32)  # convert20_res: stage 1, partition 0 (group 0)
            res_221 = res + cols_211  # load8_res: stage 0, partition 0 (group 0)
            res_222 = gl.load(res_221, mask=inb_213, other=0.0)  # load8_res: stage 0, partition 0 (group 0)
            res_223 = res_222_p1.to(gl.float32)  # convert14_res: stage 1, partition 0 (group 0)
            keep_192 = gl.convert_layout(keep_191, L0)  # convert9_keep: stage 1, partition 0 (group 0)
            b_183 = BIAS + cols_176  # load4_b: stage 0, partition 0 (group 0)
            b_184 = gl.load(b_183, mask=inb_178, other=0.0)  # load4_b: stage 0, partition 0 (group 0)
            b_185 = b_184_p1.to(gl.float32)  # convert7_b: stage 1, partition 0 (group 0)
            res_186 = res + cols_176  # load5_res: stage 0, partition 0 (group 0)
            res_187 = gl.load(res_186, mask=inb_178, other=0.0)  # load5_res: stage 0, partition 0 (group 0)
            res_188 = res_187_p1.to(gl.float32)  # convert8_res: stage 1, partition 0 (group 0)
            y_228 = x_217 + b_220  # elementwise6_y: stage 1, partition 0 (group 0)
            y_229 = y_228 * scale_7  # elementwise6_y: stage 1, partition 0 (group 0)
            y_230 = gl.where(keep_227, y_229, 0.0)  # elementwise6_y: stage 1, partition 0 (group 0)
            y_231 = y_230 + res_223  # elementwise6_y: stage 1, partition 0 (group 0)
            keep_262 = gl.convert_layout(keep_261, L0)  # convert21_keep: stage 1, partition 0 (group 0)
            both_280 = gl.convert_layout(gl.reshape(gl.permute(gl.join(both, both_279), (1, 0)), [2048]), L1)  # elementwise10_both: stage 1, partition 0 (group 0)
            y_193 = x_182 + b_185  # elementwise5_y: stage 1, partition 0 (group 0)
            y_194 = y_193 * scale_7  # elementwise5_y: stage 1, partition 0 (group 0)
            y_195 = gl.where(keep_192, y_194, 0.0)  # elementwise5_y: stage 1, partition 0 (group 0)
            y_196 = y_195 + res_188  # elementwise5_y: stage 1, partition 0 (group 0)
            b_253 = BIAS + cols_246  # load10_b: stage 0, partition 0 (group 0)
            b_254 = gl.load(b_253, mask=inb_248, other=0.0)  # load10_b: stage 0, partition 0 (group 0)
            b_255 = b_254_p1.to(gl.float32)  # convert19_b: stage 1, partition 0 (group 0)
            x_250 = x_53 + cols_246  # load9_x: stage 0, partition 0 (group 0)
            x_251 = gl.load(x_250, mask=inb_248, other=0.0)  # load9_x: stage 0, partition 0 (group 0)
            x_252 = x_251_p1.to(gl.float32)  # convert18_x: stage 1, partition 0 (group 0)
            lanes_164 = keep_156.to(gl.int32)  # reduce0_words: stage 1, partition 0 (group 0)
            lanes_165 = gl.convert_layout(gl.reshape(lanes_164, [16, 32]), L3)  # reduce0_words: stage 1, partition 0 (group 0)
            lanes_166 = lanes_165 << lanes_59  # reduce0_words: stage 1, partition 0 (group 0)
            words, = gl.reduce((lanes_166,), 1, twill_combine_a2078901)  # reduce0_words: stage 1, partition 0 (group 0)
            k0_163 = y_161.to(gl.float16)  # convert4_k0: stage 1, partition 0 (group 0)
            k0_162 = k0_56 + cols_141_p1  # store0_k0: stage 1, partition 0 (group 0)
            gl.store(k0_162, k0_163, mask=inb_143_p1)  # store0_k0: stage 1, partition 0 (group 0)
            lanes_199 = keep_191.to(gl.int32)  # reduce1_words: stage 1, partition 0 (group 0)
            lanes_200 = gl.convert_layout(gl.reshape(lanes_199, [16, 32]), L3)  # reduce1_words: stage 1, partition 0 (group 0)
            lanes_201 = lanes_200 << lanes_59  # reduce1_words: stage 1, partition 0 (group 0)
            words_202, = gl.reduce((lanes_201,), 1, twill_combine_a2078901)  # reduce1_words: stage 1, partition 0 (group 0)
            lanes_269 = keep_261.to(gl.int32)  # reduce3_words: stage 1, partition 0 (group 0)
            lanes_270 = gl.convert_layout(gl.reshape(lanes_269, [16, 32]), L3)  # reduce3_words: stage 1, partition 0 (group 0)
            lanes_271 = lanes_270 << lanes_59  # reduce3_words: stage 1, partition 0 (group 0)
            words_272, = gl.reduce((lanes_271,), 1, twill_combine_a2078901)  # reduce3_words: stage 1, partition 0 (group 0)
            lanes_234 = keep_226.to(gl.int32)  # reduce2_words: stage 1, partition 0 (group 0)
            lanes_235 = gl.convert_layout(gl.reshape(lanes_234, [16, 32]), L3)  # reduce2_words: stage 1, partition 0 (group 0)
            lanes_236 = lanes_235 << lanes_59  # reduce2_words: stage 1, partition 0 (group 0)
            words_237, = gl.reduce((lanes_236,), 1, twill_combine_a2078901)  # reduce2_words: stage 1, partition 0 (group 0)
            kept_281 = both_280.to(gl.int32)  # reduce4_kept: stage 1, partition 0 (group 0)
            kept_282 = gl.sum(kept_281, axis=0)  # reduce4_kept: stage 1, partition 0 (group 0)
            k0_167 = gl.convert_layout(words, L1)  # convert5_k0: stage 1, partition 0 (group 0)
            w_idx_168 = (0 + (twill_b - 1) * 2048) // 32  # store1_k0: stage 1, partition 0 (group 0)
            w_idx_169 = w_idx_168  # store1_k0: stage 1, partition 0 (group 0)
            w_idx_170 = w_idx_169 + w_idx  # store1_k0: stage 1, partition 0 (group 0)
            k0_171 = w_idx_170 < n_words  # store1_k0: stage 1, partition 0 (group 0)
            k0_172 = k0_62 + w_idx_170  # store1_k0: stage 1, partition 0 (group 0)
            gl.store(k0_172, k0_167, mask=k0_171)  # store1_k0: stage 1, partition 0 (group 0)
            k2_233 = y_231.to(gl.float16)  # convert16_k2: stage 1, partition 0 (group 0)
            k1_198 = y_196.to(gl.float16)  # convert10_k1: stage 1, partition 0 (group 0)
            k2_232 = k0_56 + cols_211_p1  # store4_k2: stage 1, partition 0 (group 0)
            gl.store(k2_232, k2_233, mask=inb_213_p1)  # store4_k2: stage 1, partition 0 (group 0)
            k1_203 = gl.convert_layout(words_202, L1)  # convert11_k1: stage 1, partition 0 (group 0)
            y_263 = x_252 + b_255  # elementwise7_y: stage 1, partition 0 (group 0)
            y_264 = y_263 * scale_7  # elementwise7_y: stage 1, partition 0 (group 0)
            y_265 = gl.where(keep_262, y_264, 0.0)  # elementwise7_y: stage 1, partition 0 (group 0)
            y_266 = y_265 + res_258  # elementwise7_y: stage 1, partition 0 (group 0)
            w_idx_204 = k1_173_p1 // 32  # store3_k1: stage 1, partition 0 (group 0)
            w_idx_205 = w_idx_204  # store3_k1: stage 1, partition 0 (group 0)
            w_idx_206 = w_idx_205 + w_idx  # store3_k1: stage 1, partition 0 (group 0)
            k1_207 = w_idx_206 < n_words  # store3_k1: stage 1, partition 0 (group 0)
            k1_208 = k0_62 + w_idx_206  # store3_k1: stage 1, partition 0 (group 0)
            gl.store(k1_208, k1_203, mask=k1_207)  # store3_k1: stage 1, partition 0 (group 0)
            k1_197 = k0_56 + cols_176_p1  # store2_k1: stage 1, partition 0 (group 0)
            gl.store(k1_197, k1_198, mask=inb_178_p1)  # store2_k1: stage 1, partition 0 (group 0)
            k2_238 = gl.convert_layout(words_237, L1)  # convert17_k2: stage 1, partition 0 (group 0)
            w_idx_239 = k2_p1 // 32  # store5_k2: stage 1, partition 0 (group 0)
            w_idx_240 = w_idx_239  # store5_k2: stage 1, partition 0 (group 0)
            w_idx_241 = w_idx_240 + w_idx  # store5_k2: stage 1, partition 0 (group 0)
            k2_242 = w_idx_241 < n_words  # store5_k2: stage 1, partition 0 (group 0)
            k2_243 = k0_62 + w_idx_241  # store5_k2: stage 1, partition 0 (group 0)
            gl.store(k2_243, k2_238, mask=k2_242)  # store5_k2: stage 1, partition 0 (group 0)
            k3_268 = y_266.to(gl.float16)  # convert22_k3: stage 1, partition 0 (group 0)
            k3_267 = k0_56 + cols_246_p1  # store6_k3: stage 1, partition 0 (group 0)
            gl.store(k3_267, k3_268, mask=inb_248_p1)  # store6_k3: stage 1, partition 0 (group 0)
            k3_273 = gl.convert_layout(words_272, L1)  # convert23_k3: stage 1, partition 0 (group 0)
            kept_283 = kept_283_p1 + kept_282  # elementwise11_kept: stage 1, partition 0 (group 0)
            b_149_p1 = b_149
            b_184_p1 = b_184
            b_219_p1 = b_219
            b_254_p1 = b_254
            cols_141_p1 = cols_141
            cols_176_p1 = cols_176
            cols_211_p1 = cols_211
            cols_246_p1 = cols_246
            inb_143_p1 = inb_143
            inb_178_p1 = inb_178
            inb_213_p1 = inb_213
            inb_248_p1 = inb_248
            k1_173_p1 = k1_173
            k2_p1 = k2
            k3_p2 = k3_p1
            k3_p1 = k3
            k3_273_p1 = k3_273
            kept_283_p1 = kept_283
            res_152_p1 = res_152
            res_187_p1 = res_187
            res_222_p1 = res_222
            res_257_p1 = res_257
            x_146_p1 = x_146
            x_181_p1 = x_181
            x_216_p1 = x_216
            x_251_p1 = x_251
        rng_65 = (0 + ((twill_n - 1 + 1) - 1) * 2048) // 4  # elementwise0_keep: stage 1, partition 0 (group 0)
        rng_66 = rng + rng_65  # elementwise0_keep: stage 1, partition 0 (group 0)
        rng_67 = rng_66  # elementwise0_keep: stage 1, partition 0 (group 0)
        rng_68 = rng_67 + rng_9  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_69 = gl.cast(gl.umulhi(3528531795, gl.cast(rng_68, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_70 = c2_69 ^ seed_hi_12  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_71 = rng_68 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_72 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_70, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_73 = c0_72 ^ k0  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_74 = c2_16 ^ c3_71  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_75 = c2_74 ^ k1  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1 = c2_70 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_76 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_75, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_77 = c0_76 ^ c1  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_78 = c0_77 ^ k0_20  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_79 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_73, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_80 = c2_79 ^ c3  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_81 = c2_80 ^ k1_21  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_82 = c2_75 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_83 = c0_73 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_84 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_81, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_85 = c0_84 ^ c1_82  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_86 = c0_85 ^ k0_24  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_87 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_78, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_88 = c2_87 ^ c3_83  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_89 = c2_88 ^ k1_25  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_90 = c2_81 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_91 = c0_78 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_92 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_89, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_93 = c0_92 ^ c1_90  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_94 = c0_93 ^ k0_28  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_95 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_86, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_96 = c2_95 ^ c3_91  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_97 = c2_96 ^ k1_29  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_98 = c2_89 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_99 = c0_86 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_100 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_97, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_101 = c0_100 ^ c1_98  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_102 = c0_101 ^ k0_32  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_103 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_94, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_104 = c2_103 ^ c3_99  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_105 = c2_104 ^ k1_33  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_106 = c2_97 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_107 = c0_94 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_108 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_105, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_109 = c0_108 ^ c1_106  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_110 = c0_109 ^ k0_36  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_111 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_102, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_112 = c2_111 ^ c3_107  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_113 = c2_112 ^ k1_37  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_114 = c2_105 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_115 = c0_102 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_116 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_113, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_117 = c0_116 ^ c1_114  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_118 = c0_117 ^ k0_40  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_119 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_110, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_120 = c2_119 ^ c3_115  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_121 = c2_120 ^ k1_41  # elementwise0_keep: stage 1, partition 0 (group 0)
        c3_123 = c0_110 * -766435501  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_127 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_118, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_128 = c2_127 ^ c3_123  # elementwise0_keep: stage 1, partition 0 (group 0)
        c2_129 = c2_128 ^ k1_45  # elementwise0_keep: stage 1, partition 0 (group 0)
        c1_130 = c2_121 * -845247145  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_132 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_129, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_133 = c0_132 ^ c1_130  # elementwise0_keep: stage 1, partition 0 (group 0)
        c0_134 = c0_133 ^ k0_48  # elementwise0_keep: stage 1, partition 0 (group 0)
        cols_140 = (0 + ((twill_n - 1 + 1) - 1) * 2048)  # elementwise0_keep: stage 1, partition 0 (group 0)
        cols_142 = cols_140 + rng_9  # elementwise0_keep: stage 1, partition 0 (group 0)
        inb_144 = cols_142 < n_cols  # elementwise0_keep: stage 1, partition 0 (group 0)
        keep_154 = c0_134 & 16777215  # elementwise0_keep: stage 1, partition 0 (group 0)
        keep_155 = gl.cast(keep_154, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise0_keep: stage 1, partition 0 (group 0)
        keep_156 = keep_155 & inb_144  # elementwise0_keep: stage 1, partition 0 (group 0)
        w_idx_274 = k3_p2 // 32  # store7_k3: stage 2, partition 0 (group 0)
        w_idx_275 = w_idx_274  # store7_k3: stage 2, partition 0 (group 0)
        w_idx_276 = w_idx_275 + w_idx  # store7_k3: stage 2, partition 0 (group 0)
        k3_277 = w_idx_276 < n_words  # store7_k3: stage 2, partition 0 (group 0)
        k3_278 = k0_62 + w_idx_276  # store7_k3: stage 2, partition 0 (group 0)
        gl.store(k3_278, k3_273_p1, mask=k3_277)  # store7_k3: stage 2, partition 0 (group 0)
        keep_157 = gl.convert_layout(keep_156, L0)  # convert3_keep: stage 1, partition 0 (group 0)
        b_150 = b_149_p1.to(gl.float32)  # convert1_b: stage 1, partition 0 (group 0)
        x_147 = x_146_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        res_153 = res_152_p1.to(gl.float32)  # convert2_res: stage 1, partition 0 (group 0)
        y_158 = x_147 + b_150  # elementwise4_y: stage 1, partition 0 (group 0)
        y_159 = y_158 * scale_7  # elementwise4_y: stage 1, partition 0 (group 0)
        y_160 = gl.where(keep_157, y_159, 0.0)  # elementwise4_y: stage 1, partition 0 (group 0)
        y_161 = y_160 + res_153  # elementwise4_y: stage 1, partition 0 (group 0)
        c1_138 = c2_129 * -845247145  # elementwise2_keep: stage 1, partition 0 (group 0)
        cols_175 = k1_173_p1  # elementwise2_keep: stage 1, partition 0 (group 0)
        cols_177 = cols_175 + rng_9  # elementwise2_keep: stage 1, partition 0 (group 0)
        inb_179 = cols_177 < n_cols  # elementwise2_keep: stage 1, partition 0 (group 0)
        keep_189 = c1_138 & 16777215  # elementwise2_keep: stage 1, partition 0 (group 0)
        keep_190 = gl.cast(keep_189, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise2_keep: stage 1, partition 0 (group 0)
        keep_191 = keep_190 & inb_179  # elementwise2_keep: stage 1, partition 0 (group 0)
        x_217 = x_216_p1.to(gl.float32)  # convert12_x: stage 1, partition 0 (group 0)
        c1_122 = c2_113 * -845247145  # elementwise1_keep: stage 1, partition 0 (group 0)
        c0_124 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_121, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise1_keep: stage 1, partition 0 (group 0)
        c0_125 = c0_124 ^ c1_122  # elementwise1_keep: stage 1, partition 0 (group 0)
        c0_126 = c0_125 ^ k0_44  # elementwise1_keep: stage 1, partition 0 (group 0)
        c3_131 = c0_118 * -766435501  # elementwise1_keep: stage 1, partition 0 (group 0)
        c2_135 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_126, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise1_keep: stage 1, partition 0 (group 0)
        c2_136 = c2_135 ^ c3_131  # elementwise1_keep: stage 1, partition 0 (group 0)
        c2_137 = c2_136 ^ k1_49  # elementwise1_keep: stage 1, partition 0 (group 0)
        cols_210 = k2_p1  # elementwise1_keep: stage 1, partition 0 (group 0)
        cols_212 = cols_210 + rng_9  # elementwise1_keep: stage 1, partition 0 (group 0)
        inb_214 = cols_212 < n_cols  # elementwise1_keep: stage 1, partition 0 (group 0)
        keep_224 = c2_137 & 16777215  # elementwise1_keep: stage 1, partition 0 (group 0)
        keep_225 = gl.cast(keep_224, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise1_keep: stage 1, partition 0 (group 0)
        keep_226 = keep_225 & inb_214  # elementwise1_keep: stage 1, partition 0 (group 0)
        c3_139 = c0_126 * -766435501  # elementwise3_keep: stage 1, partition 0 (group 0)
        cols_245 = k3_p1  # elementwise3_keep: stage 1, partition 0 (group 0)
        cols_247 = cols_245 + rng_9  # elementwise3_keep: stage 1, partition 0 (group 0)
        inb_249 = cols_247 < n_cols  # elementwise3_keep: stage 1, partition 0 (group 0)
        keep_259 = c3_139 & 16777215  # elementwise3_keep: stage 1, partition 0 (group 0)
        keep_260 = gl.cast(keep_259, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise3_keep: stage 1, partition 0 (group 0)
        keep_261 = keep_260 & inb_249  # elementwise3_keep: stage 1, partition 0 (group 0)
        keep_227 = gl.convert_layout(keep_226, L0)  # convert15_keep: stage 1, partition 0 (group 0)
        both = gl.convert_layout(gl.reshape(gl.permute(gl.join(keep_156, keep_191), (1, 0)), [1024]), L1)  # elementwise8_both: stage 1, partition 0 (group 0)
        both_279 = gl.convert_layout(gl.reshape(gl.permute(gl.join(keep_226, keep_261), (1, 0)), [1024]), L1)  # elementwise9_both: stage 1, partition 0 (group 0)
        b_220 = b_219_p1.to(gl.float32)  # convert13_b: stage 1, partition 0 (group 0)
        x_182 = x_181_p1.to(gl.float32)  # convert6_x: stage 1, partition 0 (group 0)
        res_258 = res_257_p1.to(gl.float32)  # convert20_res: stage 1, partition 0 (group 0)
        res_223 = res_222_p1.to(gl.float32)  # convert14_res: stage 1, partition 0 (group 0)
        keep_192 = gl.convert_layout(keep_191, L0)  # convert9_keep: stage 1, partition 0 (group 0)
        b_185 = b_184_p1.to(gl.float32)  # convert7_b: stage 1, partition 0 (group 0)
        res_188 = res_187_p1.to(gl.float32)  # convert8_res: stage 1, partition 0 (group 0)
        y_228 = x_217 + b_220  # elementwise6_y: stage 1, partition 0 (group 0)
        y_229 = y_228 * scale_7  # elementwise6_y: stage 1, partition 0 (group 0)
        y_230 = gl.where(keep_227, y_229, 0.0)  # elementwise6_y: stage 1, partition 0 (group 0)
        y_231 = y_230 + res_223  # elementwise6_y: stage 1, partition 0 (group 0)
        keep_262 = gl.convert_layout(keep_261, L0)  # convert21_keep: stage 1, partition 0 (group 0)
        both_280 = gl.convert_layout(gl.reshape(gl.permute(gl.join(both, both_279), (1, 0)), [2048]), L1)  # elementwise10_both: stage 1, partition 0 (group 0)
        y_193 = x_182 + b_185  # elementwise5_y: stage 1, partition 0 (group 0)
        y_194 = y_193 * scale_7  # elementwise5_y: stage 1, partition 0 (group 0)
        y_195 = gl.where(keep_192, y_194, 0.0)  # elementwise5_y: stage 1, partition 0 (group 0)
        y_196 = y_195 + res_188  # elementwise5_y: stage 1, partition 0 (group 0)
        b_255 = b_254_p1.to(gl.float32)  # convert19_b: stage 1, partition 0 (group 0)
        x_252 = x_251_p1.to(gl.float32)  # convert18_x: stage 1, partition 0 (group 0)
        lanes_164 = keep_156.to(gl.int32)  # reduce0_words: stage 1, partition 0 (group 0)
        lanes_165 = gl.convert_layout(gl.reshape(lanes_164, [16, 32]), L3)  # reduce0_words: stage 1, partition 0 (group 0)
        lanes_166 = lanes_165 << lanes_59  # reduce0_words: stage 1, partition 0 (group 0)
        words, = gl.reduce((lanes_166,), 1, twill_combine_a2078901)  # reduce0_words: stage 1, partition 0 (group 0)
        k0_163 = y_161.to(gl.float16)  # convert4_k0: stage 1, partition 0 (group 0)
        k0_162 = k0_56 + cols_141_p1  # store0_k0: stage 1, partition 0 (group 0)
        gl.store(k0_162, k0_163, mask=inb_143_p1)  # store0_k0: stage 1, partition 0 (group 0)
        lanes_199 = keep_191.to(gl.int32)  # reduce1_words: stage 1, partition 0 (group 0)
        lanes_200 = gl.convert_layout(gl.reshape(lanes_199, [16, 32]), L3)  # reduce1_words: stage 1, partition 0 (group 0)
        lanes_201 = lanes_200 << lanes_59  # reduce1_words: stage 1, partition 0 (group 0)
        words_202, = gl.reduce((lanes_201,), 1, twill_combine_a2078901)  # reduce1_words: stage 1, partition 0 (group 0)
        lanes_269 = keep_261.to(gl.int32)  # reduce3_words: stage 1, partition 0 (group 0)
        lanes_270 = gl.convert_layout(gl.reshape(lanes_269, [16, 32]), L3)  # reduce3_words: stage 1, partition 0 (group 0)
        lanes_271 = lanes_270 << lanes_59  # reduce3_words: stage 1, partition 0 (group 0)
        words_272, = gl.reduce((lanes_271,), 1, twill_combine_a2078901)  # reduce3_words: stage 1, partition 0 (group 0)
        lanes_234 = keep_226.to(gl.int32)  # reduce2_words: stage 1, partition 0 (group 0)
        lanes_235 = gl.convert_layout(gl.reshape(lanes_234, [16, 32]), L3)  # reduce2_words: stage 1, partition 0 (group 0)
        lanes_236 = lanes_235 << lanes_59  # reduce2_words: stage 1, partition 0 (group 0)
        words_237, = gl.reduce((lanes_236,), 1, twill_combine_a2078901)  # reduce2_words: stage 1, partition 0 (group 0)
        kept_281 = both_280.to(gl.int32)  # reduce4_kept: stage 1, partition 0 (group 0)
        kept_282 = gl.sum(kept_281, axis=0)  # reduce4_kept: stage 1, partition 0 (group 0)
        k0_167 = gl.convert_layout(words, L1)  # convert5_k0: stage 1, partition 0 (group 0)
        w_idx_168 = (0 + ((twill_n - 1 + 1) - 1) * 2048) // 32  # store1_k0: stage 1, partition 0 (group 0)
        w_idx_169 = w_idx_168  # store1_k0: stage 1, partition 0 (group 0)
        w_idx_170 = w_idx_169 + w_idx  # store1_k0: stage 1, partition 0 (group 0)
        k0_171 = w_idx_170 < n_words  # store1_k0: stage 1, partition 0 (group 0)
        k0_172 = k0_62 + w_idx_170  # store1_k0: stage 1, partition 0 (group 0)
        gl.store(k0_172, k0_167, mask=k0_171)  # store1_k0: stage 1, partition 0 (group 0)
        k2_233 = y_231.to(gl.float16)  # convert16_k2: stage 1, partition 0 (group 0)
        k1_198 = y_196.to(gl.float16)  # convert10_k1: stage 1, partition 0 (group 0)
        k2_232 = k0_56 + cols_211_p1  # store4_k2: stage 1, partition 0 (group 0)
        gl.store(k2_232, k2_233, mask=inb_213_p1)  # store4_k2: stage 1, partition 0 (group 0)
        k1_203 = gl.convert_layout(words_202, L1)  # convert11_k1: stage 1, partition 0 (group 0)
        y_263 = x_252 + b_255  # elementwise7_y: stage 1, partition 0 (group 0)
        y_264 = y_263 * scale_7  # elementwise7_y: stage 1, partition 0 (group 0)
        y_265 = gl.where(keep_262, y_264, 0.0)  # elementwise7_y: stage 1, partition 0 (group 0)
        y_266 = y_265 + res_258  # elementwise7_y: stage 1, partition 0 (group 0)
        w_idx_204 = k1_173_p1 // 32  # store3_k1: stage 1, partition 0 (group 0)
        w_idx_205 = w_idx_204  # store3_k1: stage 1, partition 0 (group 0)
        w_idx_206 = w_idx_205 + w_idx  # store3_k1: stage 1, partition 0 (group 0)
        k1_207 = w_idx_206 < n_words  # store3_k1: stage 1, partition 0 (group 0)
        k1_208 = k0_62 + w_idx_206  # store3_k1: stage 1, partition 0 (group 0)
        gl.store(k1_208, k1_203, mask=k1_207)  # store3_k1: stage 1, partition 0 (group 0)
        k1_197 = k0_56 + cols_176_p1  # store2_k1: stage 1, partition 0 (group 0)
        gl.store(k1_197, k1_198, mask=inb_178_p1)  # store2_k1: stage 1, partition 0 (group 0)
        k2_238 = gl.convert_layout(words_237, L1)  # convert17_k2: stage 1, partition 0 (group 0)
        w_idx_239 = k2_p1 // 32  # store5_k2: stage 1, partition 0 (group 0)
        w_idx_240 = w_idx_239  # store5_k2: stage 1, partition 0 (group 0)
        w_idx_241 = w_idx_240 + w_idx  # store5_k2: stage 1, partition 0 (group 0)
        k2_242 = w_idx_241 < n_words  # store5_k2: stage 1, partition 0 (group 0)
        k2_243 = k0_62 + w_idx_241  # store5_k2: stage 1, partition 0 (group 0)
        gl.store(k2_243, k2_238, mask=k2_242)  # store5_k2: stage 1, partition 0 (group 0)
        k3_268 = y_266.to(gl.float16)  # convert22_k3: stage 1, partition 0 (group 0)
        k3_267 = k0_56 + cols_246_p1  # store6_k3: stage 1, partition 0 (group 0)
        gl.store(k3_267, k3_268, mask=inb_248_p1)  # store6_k3: stage 1, partition 0 (group 0)
        k3_273 = gl.convert_layout(words_272, L1)  # convert23_k3: stage 1, partition 0 (group 0)
        kept_283 = kept_283_p1 + kept_282  # elementwise11_kept: stage 1, partition 0 (group 0)
        b_149_p1 = b_149
        b_184_p1 = b_184
        b_219_p1 = b_219
        b_254_p1 = b_254
        cols_141_p1 = cols_141
        cols_176_p1 = cols_176
        cols_211_p1 = cols_211
        cols_246_p1 = cols_246
        inb_143_p1 = inb_143
        inb_178_p1 = inb_178
        inb_213_p1 = inb_213
        inb_248_p1 = inb_248
        k1_173_p1 = k1_173
        k2_p1 = k2
        k3_p2 = k3_p1
        k3_p1 = k3
        k3_273_p1 = k3_273
        kept_283_p2 = kept_283_p1
        kept_283_p1 = kept_283
        res_152_p1 = res_152
        res_187_p1 = res_187
        res_222_p1 = res_222
        res_257_p1 = res_257
        x_146_p1 = x_146
        x_181_p1 = x_181
        x_216_p1 = x_216
        x_251_p1 = x_251
        w_idx_274 = k3_p2 // 32  # store7_k3: stage 2, partition 0 (group 0)
        w_idx_275 = w_idx_274  # store7_k3: stage 2, partition 0 (group 0)
        w_idx_276 = w_idx_275 + w_idx  # store7_k3: stage 2, partition 0 (group 0)
        k3_277 = w_idx_276 < n_words  # store7_k3: stage 2, partition 0 (group 0)
        k3_278 = k0_62 + w_idx_276  # store7_k3: stage 2, partition 0 (group 0)
        gl.store(k3_278, k3_273_p1, mask=k3_277)  # store7_k3: stage 2, partition 0 (group 0)
        b_149_p1 = b_149
        b_184_p1 = b_184
        b_219_p1 = b_219
        b_254_p1 = b_254
        cols_141_p1 = cols_141
        cols_176_p1 = cols_176
        cols_211_p1 = cols_211
        cols_246_p1 = cols_246
        inb_143_p1 = inb_143
        inb_178_p1 = inb_178
        inb_213_p1 = inb_213
        inb_248_p1 = inb_248
        k1_173_p1 = k1_173
        k2_p1 = k2
        k3_p2 = k3_p1
        k3_p1 = k3
        k3_273_p1 = k3_273
        kept_283_p2 = kept_283_p1
        kept_283_p1 = kept_283
        res_152_p1 = res_152
        res_187_p1 = res_187
        res_222_p1 = res_222
        res_257_p1 = res_257
        x_146_p1 = x_146
        x_181_p1 = x_181
        x_216_p1 = x_216
        x_251_p1 = x_251
    else:
        kept_64_w = gl.to_tensor(0)
        for start_w in range(0, n_cols, 2048):
            rng_65_w = start_w // 4
            rng_66_w = rng + rng_65_w
            rng_68_w = rng_66_w + rng_9
            c2_69_w = gl.cast(gl.umulhi(3528531795, gl.cast(rng_68_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c2_70_w = c2_69_w ^ seed_hi_12
            c3_71_w = rng_68_w * -766435501
            c0_72_w = gl.cast(gl.umulhi(3449720151, gl.cast(c2_70_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c0_73_w = c0_72_w ^ k0
            c2_74_w = c2_16 ^ c3_71_w
            c2_75_w = c2_74_w ^ k1
            c1_w = c2_70_w * -845247145
            c0_76_w = gl.cast(gl.umulhi(3449720151, gl.cast(c2_75_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c0_77_w = c0_76_w ^ c1_w
            c0_78_w = c0_77_w ^ k0_20
            c2_79_w = gl.cast(gl.umulhi(3528531795, gl.cast(c0_73_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c2_80_w = c2_79_w ^ c3
            c2_81_w = c2_80_w ^ k1_21
            c1_82_w = c2_75_w * -845247145
            c3_83_w = c0_73_w * -766435501
            c0_84_w = gl.cast(gl.umulhi(3449720151, gl.cast(c2_81_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c0_85_w = c0_84_w ^ c1_82_w
            c0_86_w = c0_85_w ^ k0_24
            c2_87_w = gl.cast(gl.umulhi(3528531795, gl.cast(c0_78_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c2_88_w = c2_87_w ^ c3_83_w
            c2_89_w = c2_88_w ^ k1_25
            c1_90_w = c2_81_w * -845247145
            c3_91_w = c0_78_w * -766435501
            c0_92_w = gl.cast(gl.umulhi(3449720151, gl.cast(c2_89_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c0_93_w = c0_92_w ^ c1_90_w
            c0_94_w = c0_93_w ^ k0_28
            c2_95_w = gl.cast(gl.umulhi(3528531795, gl.cast(c0_86_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c2_96_w = c2_95_w ^ c3_91_w
            c2_97_w = c2_96_w ^ k1_29
            c1_98_w = c2_89_w * -845247145
            c3_99_w = c0_86_w * -766435501
            c0_100_w = gl.cast(gl.umulhi(3449720151, gl.cast(c2_97_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c0_101_w = c0_100_w ^ c1_98_w
            c0_102_w = c0_101_w ^ k0_32
            c2_103_w = gl.cast(gl.umulhi(3528531795, gl.cast(c0_94_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c2_104_w = c2_103_w ^ c3_99_w
            c2_105_w = c2_104_w ^ k1_33
            c1_106_w = c2_97_w * -845247145
            c3_107_w = c0_94_w * -766435501
            c0_108_w = gl.cast(gl.umulhi(3449720151, gl.cast(c2_105_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c0_109_w = c0_108_w ^ c1_106_w
            c0_110_w = c0_109_w ^ k0_36
            c2_111_w = gl.cast(gl.umulhi(3528531795, gl.cast(c0_102_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c2_112_w = c2_111_w ^ c3_107_w
            c2_113_w = c2_112_w ^ k1_37
            c1_114_w = c2_105_w * -845247145
            c3_115_w = c0_102_w * -766435501
            c0_116_w = gl.cast(gl.umulhi(3449720151, gl.cast(c2_113_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c0_117_w = c0_116_w ^ c1_114_w
            c0_118_w = c0_117_w ^ k0_40
            c2_119_w = gl.cast(gl.umulhi(3528531795, gl.cast(c0_110_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c2_120_w = c2_119_w ^ c3_115_w
            c2_121_w = c2_120_w ^ k1_41
            c1_122_w = c2_113_w * -845247145
            c3_123_w = c0_110_w * -766435501
            c0_124_w = gl.cast(gl.umulhi(3449720151, gl.cast(c2_121_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c0_125_w = c0_124_w ^ c1_122_w
            c0_126_w = c0_125_w ^ k0_44
            c2_127_w = gl.cast(gl.umulhi(3528531795, gl.cast(c0_118_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c2_128_w = c2_127_w ^ c3_123_w
            c2_129_w = c2_128_w ^ k1_45
            c1_130_w = c2_121_w * -845247145
            c3_131_w = c0_118_w * -766435501
            c0_132_w = gl.cast(gl.umulhi(3449720151, gl.cast(c2_129_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c0_133_w = c0_132_w ^ c1_130_w
            c0_134_w = c0_133_w ^ k0_48
            c2_135_w = gl.cast(gl.umulhi(3528531795, gl.cast(c0_126_w, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
            c2_136_w = c2_135_w ^ c3_131_w
            c2_137_w = c2_136_w ^ k1_49
            c1_138_w = c2_129_w * -845247145
            c3_139_w = c0_126_w * -766435501
            cols_141_w = start_w + rng_8
            cols_142_w = start_w + rng_9
            inb_143_w = cols_141_w < n_cols
            inb_144_w = cols_142_w < n_cols
            x_145_w = x_53 + cols_141_w
            x_146_w = gl.load(x_145_w, mask=inb_143_w, other=0.0)
            x_147_w = x_146_w.to(gl.float32)
            b_148_w = BIAS + cols_141_w
            b_149_w = gl.load(b_148_w, mask=inb_143_w, other=0.0)
            b_150_w = b_149_w.to(gl.float32)
            res_151_w = res + cols_141_w
            res_152_w = gl.load(res_151_w, mask=inb_143_w, other=0.0)
            res_153_w = res_152_w.to(gl.float32)
            keep_154_w = c0_134_w & 16777215
            keep_155_w = gl.cast(keep_154_w, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)
            keep_156_w = keep_155_w & inb_144_w
            keep_157_w = gl.convert_layout(keep_156_w, L0)
            y_158_w = x_147_w + b_150_w
            y_159_w = y_158_w * scale_7
            y_160_w = gl.where(keep_157_w, y_159_w, 0.0)
            y_161_w = y_160_w + res_153_w
            k0_162_w = k0_56 + cols_141_w
            k0_163_w = y_161_w.to(gl.float16)
            gl.store(k0_162_w, k0_163_w, mask=inb_143_w)
            lanes_164_w = keep_156_w.to(gl.int32)
            lanes_165_w = gl.convert_layout(gl.reshape(lanes_164_w, [16, 32]), L3)
            lanes_166_w = lanes_165_w << lanes_59
            words, = gl.reduce((lanes_166_w,), 1, twill_combine_a2078901)
            k0_167_w = gl.convert_layout(words, L1)
            w_idx_168_w = start_w // 32
            w_idx_170_w = w_idx_168_w + w_idx
            k0_171_w = w_idx_170_w < n_words
            k0_172_w = k0_62 + w_idx_170_w
            gl.store(k0_172_w, k0_167_w, mask=k0_171_w)
            k1_173_w = start_w + 512
            cols_176_w = k1_173_w + rng_8
            cols_177_w = k1_173_w + rng_9
            inb_178_w = cols_176_w < n_cols
            inb_179_w = cols_177_w < n_cols
            x_180_w = x_53 + cols_176_w
            x_181_w = gl.load(x_180_w, mask=inb_178_w, other=0.0)
            x_182_w = x_181_w.to(gl.float32)
            b_183_w = BIAS + cols_176_w
            b_184_w = gl.load(b_183_w, mask=inb_178_w, other=0.0)
            b_185_w = b_184_w.to(gl.float32)
            res_186_w = res + cols_176_w
            res_187_w = gl.load(res_186_w, mask=inb_178_w, other=0.0)
            res_188_w = res_187_w.to(gl.float32)
            keep_189_w = c1_138_w & 16777215
            keep_190_w = gl.cast(keep_189_w, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)
            keep_191_w = keep_190_w & inb_179_w
            keep_192_w = gl.convert_layout(keep_191_w, L0)
            y_193_w = x_182_w + b_185_w
            y_194_w = y_193_w * scale_7
            y_195_w = gl.where(keep_192_w, y_194_w, 0.0)
            y_196_w = y_195_w + res_188_w
            k1_197_w = k0_56 + cols_176_w
            k1_198_w = y_196_w.to(gl.float16)
            gl.store(k1_197_w, k1_198_w, mask=inb_178_w)
            lanes_199_w = keep_191_w.to(gl.int32)
            lanes_200_w = gl.convert_layout(gl.reshape(lanes_199_w, [16, 32]), L3)
            lanes_201_w = lanes_200_w << lanes_59
            words_202, = gl.reduce((lanes_201_w,), 1, twill_combine_a2078901)
            k1_203_w = gl.convert_layout(words_202, L1)
            w_idx_204_w = k1_173_w // 32
            w_idx_206_w = w_idx_204_w + w_idx
            k1_207_w = w_idx_206_w < n_words
            k1_208_w = k0_62 + w_idx_206_w
            gl.store(k1_208_w, k1_203_w, mask=k1_207_w)
            k2_w = start_w + 1024
            cols_211_w = k2_w + rng_8
            cols_212_w = k2_w + rng_9
            inb_213_w = cols_211_w < n_cols
            inb_214_w = cols_212_w < n_cols
            x_215_w = x_53 + cols_211_w
            x_216_w = gl.load(x_215_w, mask=inb_213_w, other=0.0)
            x_217_w = x_216_w.to(gl.float32)
            b_218_w = BIAS + cols_211_w
            b_219_w = gl.load(b_218_w, mask=inb_213_w, other=0.0)
            b_220_w = b_219_w.to(gl.float32)
            res_221_w = res + cols_211_w
            res_222_w = gl.load(res_221_w, mask=inb_213_w, other=0.0)
            res_223_w = res_222_w.to(gl.float32)
            keep_224_w = c2_137_w & 16777215
            keep_225_w = gl.cast(keep_224_w, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)
            keep_226_w = keep_225_w & inb_214_w
            keep_227_w = gl.convert_layout(keep_226_w, L0)
            y_228_w = x_217_w + b_220_w
            y_229_w = y_228_w * scale_7
            y_230_w = gl.where(keep_227_w, y_229_w, 0.0)
            y_231_w = y_230_w + res_223_w
            k2_232_w = k0_56 + cols_211_w
            k2_233_w = y_231_w.to(gl.float16)
            gl.store(k2_232_w, k2_233_w, mask=inb_213_w)
            lanes_234_w = keep_226_w.to(gl.int32)
            lanes_235_w = gl.convert_layout(gl.reshape(lanes_234_w, [16, 32]), L3)
            lanes_236_w = lanes_235_w << lanes_59
            words_237, = gl.reduce((lanes_236_w,), 1, twill_combine_a2078901)
            k2_238_w = gl.convert_layout(words_237, L1)
            w_idx_239_w = k2_w // 32
            w_idx_241_w = w_idx_239_w + w_idx
            k2_242_w = w_idx_241_w < n_words
            k2_243_w = k0_62 + w_idx_241_w
            gl.store(k2_243_w, k2_238_w, mask=k2_242_w)
            k3_w = start_w + 1536
            cols_246_w = k3_w + rng_8
            cols_247_w = k3_w + rng_9
            inb_248_w = cols_246_w < n_cols
            inb_249_w = cols_247_w < n_cols
            x_250_w = x_53 + cols_246_w
            x_251_w = gl.load(x_250_w, mask=inb_248_w, other=0.0)
            x_252_w = x_251_w.to(gl.float32)
            b_253_w = BIAS + cols_246_w
            b_254_w = gl.load(b_253_w, mask=inb_248_w, other=0.0)
            b_255_w = b_254_w.to(gl.float32)
            res_256_w = res + cols_246_w
            res_257_w = gl.load(res_256_w, mask=inb_248_w, other=0.0)
            res_258_w = res_257_w.to(gl.float32)
            keep_259_w = c3_139_w & 16777215
            keep_260_w = gl.cast(keep_259_w, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)
            keep_261_w = keep_260_w & inb_249_w
            keep_262_w = gl.convert_layout(keep_261_w, L0)
            y_263_w = x_252_w + b_255_w
            y_264_w = y_263_w * scale_7
            y_265_w = gl.where(keep_262_w, y_264_w, 0.0)
            y_266_w = y_265_w + res_258_w
            k3_267_w = k0_56 + cols_246_w
            k3_268_w = y_266_w.to(gl.float16)
            gl.store(k3_267_w, k3_268_w, mask=inb_248_w)
            lanes_269_w = keep_261_w.to(gl.int32)
            lanes_270_w = gl.convert_layout(gl.reshape(lanes_269_w, [16, 32]), L3)
            lanes_271_w = lanes_270_w << lanes_59
            words_272, = gl.reduce((lanes_271_w,), 1, twill_combine_a2078901)
            k3_273_w = gl.convert_layout(words_272, L1)
            w_idx_274_w = k3_w // 32
            w_idx_276_w = w_idx_274_w + w_idx
            k3_277_w = w_idx_276_w < n_words
            k3_278_w = k0_62 + w_idx_276_w
            gl.store(k3_278_w, k3_273_w, mask=k3_277_w)
            both_w = gl.convert_layout(gl.reshape(gl.permute(gl.join(keep_156_w, keep_191_w), (1, 0)), [1024]), L1)
            both_279_w = gl.convert_layout(gl.reshape(gl.permute(gl.join(keep_226_w, keep_261_w), (1, 0)), [1024]), L1)
            both_280_w = gl.convert_layout(gl.reshape(gl.permute(gl.join(both_w, both_279_w), (1, 0)), [2048]), L1)
            kept_281_w = both_280_w.to(gl.int32)
            kept_282_w = gl.sum(kept_281_w, axis=0)
            kept_283_w = kept_64_w + kept_282_w
            kept_64_w = kept_283_w
        kept_283_p2 = kept_64_w
    v0 = KEPT + row
    gl.store(v0, kept_283_p2)

@gluon.jit
def twill_kernel(X, BIAS, RES, Y, BITS, KEPT, n_cols, stride, n_words, p, seed):
    consumer_0(X, BIAS, RES, Y, BITS, KEPT, n_cols, stride, n_words, p, seed, )



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L1_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def twill_combine_a2078901_short(a0, a1):
    t0 = a0 ^ a1
    return t0

@gluon.jit
def consumer_0_short(X, BIAS, RES, Y, BITS, KEPT, n_cols, stride, n_words, p, seed):
    row = gl.program_id(0)
    thresh = p * 16777216.0
    thresh_6 = gl.cast(gl.cast(thresh, gl.uint32), gl.int32, bitcast=True)
    scale = 1.0 - p
    scale_7 = 1.0 / scale
    rng = row * n_cols
    rng_8 = gl.arange(0, 512, layout=L0_short)
    rng_9 = gl.arange(0, 512, layout=L1_short)
    seed_10 = gl.cast(seed, gl.int64)
    seed_hi = gl.cast(gl.cast(seed_10, gl.uint64, bitcast=True) >> 32, gl.int64, bitcast=True)
    seed_hi_11 = seed_hi & 4294967295
    seed_hi_12 = gl.cast(seed_hi_11, gl.int32)
    seed_lo = seed_10 & 4294967295
    seed_lo_13 = gl.cast(seed_lo, gl.int32)
    c0 = gl.cast(gl.umulhi(3449720151, 0), gl.int32, bitcast=True)
    c0_14 = c0 ^ seed_lo_13
    k0 = seed_lo_13 + -1640531527
    k1 = seed_hi_12 + -1150833019
    c2_16 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_14, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c3 = c0_14 * -766435501
    k0_20 = seed_lo_13 + 1013904242
    k1_21 = seed_hi_12 + 1993301258
    k0_24 = seed_lo_13 + -626627285
    k1_25 = seed_hi_12 + 842468239
    k0_28 = seed_lo_13 + 2027808484
    k1_29 = seed_hi_12 + -308364780
    k0_32 = seed_lo_13 + 387276957
    k1_33 = seed_hi_12 + -1459197799
    k0_36 = seed_lo_13 + -1253254570
    k1_37 = seed_hi_12 + 1684936478
    k0_40 = seed_lo_13 + 1401181199
    k1_41 = seed_hi_12 + 534103459
    k0_44 = seed_lo_13 + -239350328
    k1_45 = seed_hi_12 + -616729560
    k0_48 = seed_lo_13 + -1879881855
    k1_49 = seed_hi_12 + -1767562579
    x = row * stride
    x_53 = X + x
    res = RES + x
    k0_56 = Y + x
    lanes = gl.arange(0, 32, layout=L2_short)
    lanes_58 = gl.expand_dims(lanes, 0)
    lanes_59 = lanes_58.broadcast_to([16, 32])
    w_idx = gl.arange(0, 16, layout=L1_short)
    k0_61 = row * n_words
    k0_62 = BITS + k0_61
    twill_n = (n_cols - 0 + 2048 - 1) // 2048
    kept_283 = 0
    kept_283_p1 = kept_283
    for twill_b in range(0, twill_n):
        rng_65 = (0 + (twill_b - 0) * 2048) // 4  # elementwise0_keep: stage 0, partition 0 (group 0)
        rng_66 = rng + rng_65  # elementwise0_keep: stage 0, partition 0 (group 0)
        rng_67 = rng_66  # elementwise0_keep: stage 0, partition 0 (group 0)
        rng_68 = rng_67 + rng_9  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_69 = gl.cast(gl.umulhi(3528531795, gl.cast(rng_68, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_70 = c2_69 ^ seed_hi_12  # elementwise0_keep: stage 0, partition 0 (group 0)
        c3_71 = rng_68 * -766435501  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_72 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_70, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_73 = c0_72 ^ k0  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_74 = c2_16 ^ c3_71  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_75 = c2_74 ^ k1  # elementwise0_keep: stage 0, partition 0 (group 0)
        c1 = c2_70 * -845247145  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_76 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_75, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_77 = c0_76 ^ c1  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_78 = c0_77 ^ k0_20  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_79 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_73, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_80 = c2_79 ^ c3  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_81 = c2_80 ^ k1_21  # elementwise0_keep: stage 0, partition 0 (group 0)
        c1_82 = c2_75 * -845247145  # elementwise0_keep: stage 0, partition 0 (group 0)
        c3_83 = c0_73 * -766435501  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_84 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_81, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_85 = c0_84 ^ c1_82  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_86 = c0_85 ^ k0_24  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_87 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_78, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_88 = c2_87 ^ c3_83  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_89 = c2_88 ^ k1_25  # elementwise0_keep: stage 0, partition 0 (group 0)
        c1_90 = c2_81 * -845247145  # elementwise0_keep: stage 0, partition 0 (group 0)
        c3_91 = c0_78 * -766435501  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_92 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_89, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_93 = c0_92 ^ c1_90  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_94 = c0_93 ^ k0_28  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_95 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_86, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_96 = c2_95 ^ c3_91  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_97 = c2_96 ^ k1_29  # elementwise0_keep: stage 0, partition 0 (group 0)
        c1_98 = c2_89 * -845247145  # elementwise0_keep: stage 0, partition 0 (group 0)
        c3_99 = c0_86 * -766435501  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_100 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_97, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_101 = c0_100 ^ c1_98  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_102 = c0_101 ^ k0_32  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_103 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_94, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_104 = c2_103 ^ c3_99  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_105 = c2_104 ^ k1_33  # elementwise0_keep: stage 0, partition 0 (group 0)
        c1_106 = c2_97 * -845247145  # elementwise0_keep: stage 0, partition 0 (group 0)
        c3_107 = c0_94 * -766435501  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_108 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_105, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_109 = c0_108 ^ c1_106  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_110 = c0_109 ^ k0_36  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_111 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_102, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_112 = c2_111 ^ c3_107  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_113 = c2_112 ^ k1_37  # elementwise0_keep: stage 0, partition 0 (group 0)
        c1_114 = c2_105 * -845247145  # elementwise0_keep: stage 0, partition 0 (group 0)
        c3_115 = c0_102 * -766435501  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_116 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_113, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_117 = c0_116 ^ c1_114  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_118 = c0_117 ^ k0_40  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_119 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_110, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_120 = c2_119 ^ c3_115  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_121 = c2_120 ^ k1_41  # elementwise0_keep: stage 0, partition 0 (group 0)
        c3_123 = c0_110 * -766435501  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_127 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_118, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_128 = c2_127 ^ c3_123  # elementwise0_keep: stage 0, partition 0 (group 0)
        c2_129 = c2_128 ^ k1_45  # elementwise0_keep: stage 0, partition 0 (group 0)
        c1_130 = c2_121 * -845247145  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_132 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_129, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_133 = c0_132 ^ c1_130  # elementwise0_keep: stage 0, partition 0 (group 0)
        c0_134 = c0_133 ^ k0_48  # elementwise0_keep: stage 0, partition 0 (group 0)
        cols_140 = (0 + (twill_b - 0) * 2048)  # elementwise0_keep: stage 0, partition 0 (group 0)
        cols_142 = cols_140 + rng_9  # elementwise0_keep: stage 0, partition 0 (group 0)
        inb_144 = cols_142 < n_cols  # elementwise0_keep: stage 0, partition 0 (group 0)
        keep_154 = c0_134 & 16777215  # elementwise0_keep: stage 0, partition 0 (group 0)
        keep_155 = gl.cast(keep_154, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise0_keep: stage 0, partition 0 (group 0)
        keep_156 = keep_155 & inb_144  # elementwise0_keep: stage 0, partition 0 (group 0)
        k2 = (0 + (twill_b - 0) * 2048) + 1024  # load6_x: stage 0, partition 0 (group 0)
        cols_209 = k2  # load6_x: stage 0, partition 0 (group 0)
        cols_211 = cols_209 + rng_8  # load6_x: stage 0, partition 0 (group 0)
        inb_213 = cols_211 < n_cols  # load6_x: stage 0, partition 0 (group 0)
        x_215 = x_53 + cols_211  # load6_x: stage 0, partition 0 (group 0)
        x_216 = gl.load(x_215, mask=inb_213, other=0.0)  # load6_x: stage 0, partition 0 (group 0)
        x_217 = x_216.to(gl.float32)  # convert12_x: stage 0, partition 0 (group 0)
        c1_122 = c2_113 * -845247145  # elementwise1_keep: stage 0, partition 0 (group 0)
        c0_124 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_121, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise1_keep: stage 0, partition 0 (group 0)
        c0_125 = c0_124 ^ c1_122  # elementwise1_keep: stage 0, partition 0 (group 0)
        c0_126 = c0_125 ^ k0_44  # elementwise1_keep: stage 0, partition 0 (group 0)
        c3_131 = c0_118 * -766435501  # elementwise1_keep: stage 0, partition 0 (group 0)
        c2_135 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_126, gl.uint32, bitcast=True)), gl.int32, bitcast=True)  # elementwise1_keep: stage 0, partition 0 (group 0)
        c2_136 = c2_135 ^ c3_131  # elementwise1_keep: stage 0, partition 0 (group 0)
        c2_137 = c2_136 ^ k1_49  # elementwise1_keep: stage 0, partition 0 (group 0)
        cols_210 = k2  # elementwise1_keep: stage 0, partition 0 (group 0)
        cols_212 = cols_210 + rng_9  # elementwise1_keep: stage 0, partition 0 (group 0)
        inb_214 = cols_212 < n_cols  # elementwise1_keep: stage 0, partition 0 (group 0)
        keep_224 = c2_137 & 16777215  # elementwise1_keep: stage 0, partition 0 (group 0)
        keep_225 = gl.cast(keep_224, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise1_keep: stage 0, partition 0 (group 0)
        keep_226 = keep_225 & inb_214  # elementwise1_keep: stage 0, partition 0 (group 0)
        keep_227 = gl.convert_layout(keep_226, L0_short)  # convert15_keep: stage 0, partition 0 (group 0)
        b_218 = BIAS + cols_211  # load7_b: stage 0, partition 0 (group 0)
        b_219 = gl.load(b_218, mask=inb_213, other=0.0)  # load7_b: stage 0, partition 0 (group 0)
        b_220 = b_219.to(gl.float32)  # convert13_b: stage 0, partition 0 (group 0)
        lanes_164 = keep_156.to(gl.int32)  # reduce0_words: stage 0, partition 0 (group 0)
        lanes_165 = gl.convert_layout(gl.reshape(lanes_164, [16, 32]), L3_short)  # reduce0_words: stage 0, partition 0 (group 0)
        lanes_166 = lanes_165 << lanes_59  # reduce0_words: stage 0, partition 0 (group 0)
        words, = gl.reduce((lanes_166,), 1, twill_combine_a2078901_short)  # reduce0_words: stage 0, partition 0 (group 0)
        k1_173 = (0 + (twill_b - 0) * 2048) + 512  # load3_x: stage 0, partition 0 (group 0)
        c1_138 = c2_129 * -845247145  # elementwise2_keep: stage 0, partition 0 (group 0)
        cols_175 = k1_173  # elementwise2_keep: stage 0, partition 0 (group 0)
        cols_177 = cols_175 + rng_9  # elementwise2_keep: stage 0, partition 0 (group 0)
        inb_179 = cols_177 < n_cols  # elementwise2_keep: stage 0, partition 0 (group 0)
        keep_189 = c1_138 & 16777215  # elementwise2_keep: stage 0, partition 0 (group 0)
        keep_190 = gl.cast(keep_189, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise2_keep: stage 0, partition 0 (group 0)
        keep_191 = keep_190 & inb_179  # elementwise2_keep: stage 0, partition 0 (group 0)
        both = gl.convert_layout(gl.reshape(gl.permute(gl.join(keep_156, keep_191), (1, 0)), [1024]), L1_short)  # elementwise8_both: stage 0, partition 0 (group 0)
        keep_192 = gl.convert_layout(keep_191, L0_short)  # convert9_keep: stage 0, partition 0 (group 0)
        res_221 = res + cols_211  # load8_res: stage 0, partition 0 (group 0)
        res_222 = gl.load(res_221, mask=inb_213, other=0.0)  # load8_res: stage 0, partition 0 (group 0)
        res_223 = res_222.to(gl.float32)  # convert14_res: stage 0, partition 0 (group 0)
        k0_167 = gl.convert_layout(words, L1_short)  # convert5_k0: stage 0, partition 0 (group 0)
        keep_157 = gl.convert_layout(keep_156, L0_short)  # convert3_keep: stage 0, partition 0 (group 0)
        cols_174 = k1_173  # load3_x: stage 0, partition 0 (group 0)
        cols_176 = cols_174 + rng_8  # load3_x: stage 0, partition 0 (group 0)
        inb_178 = cols_176 < n_cols  # load3_x: stage 0, partition 0 (group 0)
        x_180 = x_53 + cols_176  # load3_x: stage 0, partition 0 (group 0)
        x_181 = gl.load(x_180, mask=inb_178, other=0.0)  # load3_x: stage 0, partition 0 (group 0)
        x_182 = x_181.to(gl.float32)  # convert6_x: stage 0, partition 0 (group 0)
        res_186 = res + cols_176  # load5_res: stage 0, partition 0 (group 0)
        res_187 = gl.load(res_186, mask=inb_178, other=0.0)  # load5_res: stage 0, partition 0 (group 0)
        res_188 = res_187.to(gl.float32)  # convert8_res: stage 0, partition 0 (group 0)
        c3_139 = c0_126 * -766435501  # elementwise3_keep: stage 0, partition 0 (group 0)
        k3 = (0 + (twill_b - 0) * 2048) + 1536  # load9_x: stage 0, partition 0 (group 0)
        cols_245 = k3  # elementwise3_keep: stage 0, partition 0 (group 0)
        cols_247 = cols_245 + rng_9  # elementwise3_keep: stage 0, partition 0 (group 0)
        inb_249 = cols_247 < n_cols  # elementwise3_keep: stage 0, partition 0 (group 0)
        keep_259 = c3_139 & 16777215  # elementwise3_keep: stage 0, partition 0 (group 0)
        keep_260 = gl.cast(keep_259, gl.uint32, bitcast=True) >= gl.cast(thresh_6, gl.uint32, bitcast=True)  # elementwise3_keep: stage 0, partition 0 (group 0)
        keep_261 = keep_260 & inb_249  # elementwise3_keep: stage 0, partition 0 (group 0)
        b_183 = BIAS + cols_176  # load4_b: stage 0, partition 0 (group 0)
        b_184 = gl.load(b_183, mask=inb_178, other=0.0)  # load4_b: stage 0, partition 0 (group 0)
        b_185 = b_184.to(gl.float32)  # convert7_b: stage 0, partition 0 (group 0)
        y_193 = x_182 + b_185  # elementwise5_y: stage 0, partition 0 (group 0)
        y_194 = y_193 * scale_7  # elementwise5_y: stage 0, partition 0 (group 0)
        y_195 = gl.where(keep_192, y_194, 0.0)  # elementwise5_y: stage 0, partition 0 (group 0)
        y_196 = y_195 + res_188  # elementwise5_y: stage 0, partition 0 (group 0)
        y_228 = x_217 + b_220  # elementwise6_y: stage 0, partition 0 (group 0)
        y_229 = y_228 * scale_7  # elementwise6_y: stage 0, partition 0 (group 0)
        y_230 = gl.where(keep_227, y_229, 0.0)  # elementwise6_y: stage 0, partition 0 (group 0)
        y_231 = y_230 + res_223  # elementwise6_y: stage 0, partition 0 (group 0)
        cols_244 = k3  # load9_x: stage 0, partition 0 (group 0)
        cols_246 = cols_244 + rng_8  # load9_x: stage 0, partition 0 (group 0)
        inb_248 = cols_246 < n_cols  # load9_x: stage 0, partition 0 (group 0)
        b_253 = BIAS + cols_246  # load10_b: stage 0, partition 0 (group 0)
        b_254 = gl.load(b_253, mask=inb_248, other=0.0)  # load10_b: stage 0, partition 0 (group 0)
        b_255 = b_254.to(gl.float32)  # convert19_b: stage 0, partition 0 (group 0)
        cols = (0 + (twill_b - 0) * 2048)  # load0_x: stage 0, partition 0 (group 0)
        cols_141 = cols + rng_8  # load0_x: stage 0, partition 0 (group 0)
        inb_143 = cols_141 < n_cols  # load0_x: stage 0, partition 0 (group 0)
        b_148 = BIAS + cols_141  # load1_b: stage 0, partition 0 (group 0)
        b_149 = gl.load(b_148, mask=inb_143, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
        b_150 = b_149.to(gl.float32)  # convert1_b: stage 0, partition 0 (group 0)
        k1_198 = y_196.to(gl.float16)  # convert10_k1: stage 0, partition 0 (group 0)
        res_256 = res + cols_246  # load11_res: stage 0, partition 0 (group 0)
        res_257 = gl.load(res_256, mask=inb_248, other=0.0)  # load11_res: stage 0, partition 0 (group 0)
        res_258 = res_257.to(gl.float32)  # convert20_res: stage 0, partition 0 (group 0)
        x_145 = x_53 + cols_141  # load0_x: stage 0, partition 0 (group 0)
        x_146 = gl.load(x_145, mask=inb_143, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_147 = x_146.to(gl.float32)  # convert0_x: stage 0, partition 0 (group 0)
        res_151 = res + cols_141  # load2_res: stage 0, partition 0 (group 0)
        res_152 = gl.load(res_151, mask=inb_143, other=0.0)  # load2_res: stage 0, partition 0 (group 0)
        res_153 = res_152.to(gl.float32)  # convert2_res: stage 0, partition 0 (group 0)
        keep_262 = gl.convert_layout(keep_261, L0_short)  # convert21_keep: stage 0, partition 0 (group 0)
        x_250 = x_53 + cols_246  # load9_x: stage 0, partition 0 (group 0)
        x_251 = gl.load(x_250, mask=inb_248, other=0.0)  # load9_x: stage 0, partition 0 (group 0)
        x_252 = x_251.to(gl.float32)  # convert18_x: stage 0, partition 0 (group 0)
        y_263 = x_252 + b_255  # elementwise7_y: stage 0, partition 0 (group 0)
        y_264 = y_263 * scale_7  # elementwise7_y: stage 0, partition 0 (group 0)
        y_265 = gl.where(keep_262, y_264, 0.0)  # elementwise7_y: stage 0, partition 0 (group 0)
        y_266 = y_265 + res_258  # elementwise7_y: stage 0, partition 0 (group 0)
        lanes_234 = keep_226.to(gl.int32)  # reduce2_words: stage 0, partition 0 (group 0)
        lanes_235 = gl.convert_layout(gl.reshape(lanes_234, [16, 32]), L3_short)  # reduce2_words: stage 0, partition 0 (group 0)
        lanes_236 = lanes_235 << lanes_59  # reduce2_words: stage 0, partition 0 (group 0)
        words_237, = gl.reduce((lanes_236,), 1, twill_combine_a2078901_short)  # reduce2_words: stage 0, partition 0 (group 0)
        w_idx_168 = (0 + (twill_b - 0) * 2048) // 32  # store1_k0: stage 0, partition 0 (group 0)
        w_idx_169 = w_idx_168  # store1_k0: stage 0, partition 0 (group 0)
        w_idx_170 = w_idx_169 + w_idx  # store1_k0: stage 0, partition 0 (group 0)
        k0_171 = w_idx_170 < n_words  # store1_k0: stage 0, partition 0 (group 0)
        k0_172 = k0_62 + w_idx_170  # store1_k0: stage 0, partition 0 (group 0)
        gl.store(k0_172, k0_167, mask=k0_171)  # store1_k0: stage 0, partition 0 (group 0)
        lanes_269 = keep_261.to(gl.int32)  # reduce3_words: stage 0, partition 0 (group 0)
        lanes_270 = gl.convert_layout(gl.reshape(lanes_269, [16, 32]), L3_short)  # reduce3_words: stage 0, partition 0 (group 0)
        lanes_271 = lanes_270 << lanes_59  # reduce3_words: stage 0, partition 0 (group 0)
        words_272, = gl.reduce((lanes_271,), 1, twill_combine_a2078901_short)  # reduce3_words: stage 0, partition 0 (group 0)
        lanes_199 = keep_191.to(gl.int32)  # reduce1_words: stage 0, partition 0 (group 0)
        lanes_200 = gl.convert_layout(gl.reshape(lanes_199, [16, 32]), L3_short)  # reduce1_words: stage 0, partition 0 (group 0)
        lanes_201 = lanes_200 << lanes_59  # reduce1_words: stage 0, partition 0 (group 0)
        words_202, = gl.reduce((lanes_201,), 1, twill_combine_a2078901_short)  # reduce1_words: stage 0, partition 0 (group 0)
        both_279 = gl.convert_layout(gl.reshape(gl.permute(gl.join(keep_226, keep_261), (1, 0)), [1024]), L1_short)  # elementwise9_both: stage 0, partition 0 (group 0)
        both_280 = gl.convert_layout(gl.reshape(gl.permute(gl.join(both, both_279), (1, 0)), [2048]), L1_short)  # elementwise10_both: stage 0, partition 0 (group 0)
        kept_281 = both_280.to(gl.int32)  # reduce4_kept: stage 0, partition 0 (group 0)
        kept_282 = gl.sum(kept_281, axis=0)  # reduce4_kept: stage 0, partition 0 (group 0)
        k1_197 = k0_56 + cols_176  # store2_k1: stage 0, partition 0 (group 0)
        gl.store(k1_197, k1_198, mask=inb_178)  # store2_k1: stage 0, partition 0 (group 0)
        k2_233 = y_231.to(gl.float16)  # convert16_k2: stage 0, partition 0 (group 0)
        k2_232 = k0_56 + cols_211  # store4_k2: stage 0, partition 0 (group 0)
        gl.store(k2_232, k2_233, mask=inb_213)  # store4_k2: stage 0, partition 0 (group 0)
        k3_273 = gl.convert_layout(words_272, L1_short)  # convert23_k3: stage 0, partition 0 (group 0)
        k3_268 = y_266.to(gl.float16)  # convert22_k3: stage 0, partition 0 (group 0)
        k1_203 = gl.convert_layout(words_202, L1_short)  # convert11_k1: stage 0, partition 0 (group 0)
        k2_238 = gl.convert_layout(words_237, L1_short)  # convert17_k2: stage 0, partition 0 (group 0)
        y_158 = x_147 + b_150  # elementwise4_y: stage 0, partition 0 (group 0)
        y_159 = y_158 * scale_7  # elementwise4_y: stage 0, partition 0 (group 0)
        y_160 = gl.where(keep_157, y_159, 0.0)  # elementwise4_y: stage 0, partition 0 (group 0)
        y_161 = y_160 + res_153  # elementwise4_y: stage 0, partition 0 (group 0)
        w_idx_204 = k1_173 // 32  # store3_k1: stage 0, partition 0 (group 0)
        w_idx_205 = w_idx_204  # store3_k1: stage 0, partition 0 (group 0)
        w_idx_206 = w_idx_205 + w_idx  # store3_k1: stage 0, partition 0 (group 0)
        k1_207 = w_idx_206 < n_words  # store3_k1: stage 0, partition 0 (group 0)
        k1_208 = k0_62 + w_idx_206  # store3_k1: stage 0, partition 0 (group 0)
        gl.store(k1_208, k1_203, mask=k1_207)  # store3_k1: stage 0, partition 0 (group 0)
        w_idx_239 = k2 // 32  # store5_k2: stage 0, partition 0 (group 0)
        w_idx_240 = w_idx_239  # store5_k2: stage 0, partition 0 (group 0)
        w_idx_241 = w_idx_240 + w_idx  # store5_k2: stage 0, partition 0 (group 0)
        k2_242 = w_idx_241 < n_words  # store5_k2: stage 0, partition 0 (group 0)
        k2_243 = k0_62 + w_idx_241  # store5_k2: stage 0, partition 0 (group 0)
        gl.store(k2_243, k2_238, mask=k2_242)  # store5_k2: stage 0, partition 0 (group 0)
        w_idx_274 = k3 // 32  # store7_k3: stage 0, partition 0 (group 0)
        w_idx_275 = w_idx_274  # store7_k3: stage 0, partition 0 (group 0)
        w_idx_276 = w_idx_275 + w_idx  # store7_k3: stage 0, partition 0 (group 0)
        k3_277 = w_idx_276 < n_words  # store7_k3: stage 0, partition 0 (group 0)
        k3_278 = k0_62 + w_idx_276  # store7_k3: stage 0, partition 0 (group 0)
        gl.store(k3_278, k3_273, mask=k3_277)  # store7_k3: stage 0, partition 0 (group 0)
        k3_267 = k0_56 + cols_246  # store6_k3: stage 0, partition 0 (group 0)
        gl.store(k3_267, k3_268, mask=inb_248)  # store6_k3: stage 0, partition 0 (group 0)
        k0_163 = y_161.to(gl.float16)  # convert4_k0: stage 0, partition 0 (group 0)
        k0_162 = k0_56 + cols_141  # store0_k0: stage 0, partition 0 (group 0)
        gl.store(k0_162, k0_163, mask=inb_143)  # store0_k0: stage 0, partition 0 (group 0)
        kept_283 = kept_283_p1 + kept_282  # elementwise11_kept: stage 0, partition 0 (group 0)
        kept_283_p1 = kept_283
    v0 = KEPT + row
    gl.store(v0, kept_283_p1)

@gluon.jit
def twill_kernel_short(X, BIAS, RES, Y, BITS, KEPT, n_cols, stride, n_words, p, seed):
    consumer_0_short(X, BIAS, RES, Y, BITS, KEPT, n_cols, stride, n_words, p, seed, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'BIAS', 'RES', 'Y', 'BITS', 'KEPT', 'n_cols', 'stride', 'n_words', 'p', 'seed', 'QUARTER']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'BIAS', 'RES', 'Y', 'BITS', 'KEPT', 'n_cols', 'stride', 'n_words', 'p', 'seed']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X', 'BIAS', 'RES', 'Y', 'BITS', 'KEPT', 'n_cols', 'stride', 'n_words', 'p', 'seed']   # the arguments a launch key reads
CONSTEXPRS = {'QUARTER': 512}         # the specialisation this kernel was generated for
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
ARGUMENTS_short = ['X', 'BIAS', 'RES', 'Y', 'BITS', 'KEPT', 'n_cols', 'stride', 'n_words', 'p', 'seed', 'QUARTER']          # the Triton kernel's parameters, in order
RUNTIME_short = ['X', 'BIAS', 'RES', 'Y', 'BITS', 'KEPT', 'n_cols', 'stride', 'n_words', 'p', 'seed']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['X', 'BIAS', 'RES', 'Y', 'BITS', 'KEPT', 'n_cols', 'stride', 'n_words', 'p', 'seed']   # the arguments a launch key reads
CONSTEXPRS_short = {'QUARTER': 512}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
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
    flags = {}
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
    """Run the faster of the pipelined kernel and the one-stage one for this launch's key, timed on the
    key's first launch (the pipelined one where no timing can run: no CUDA device, a graph being captured)."""
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
    pipelined kernel's launch where the copies do not fit in memory (kept for the key: not tried again)."""
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
    except Exception:                       # noqa: BLE001 - no memory for the copies: the pipelined kernel
        return launch_long
    try:
        launch_long(grid, *args, **kwargs)  # compiled, and its errors the launch's own
        try:
            launch_short(grid, *args, **kwargs)
        except Exception:                   # noqa: BLE001 - the one-stage kernel refuses this launch: the other runs
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
