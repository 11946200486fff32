"""noisy_gating, written by twill from its joint schedule: I=630 L=504 (optimal), 960 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_191, bg_198, bn_203): their addresses and masks spread over 128 threads
- rings sized for the II, not the shorter iteration their copies allow, so two CTAs fit an SM (run 177: tail_gemm's rings one deeper, one CTA an SM, x0.94)
- two CTAs per SM: the partitions' registers (104, 80 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- a_191, bg_198, bn_203 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over wg_ptr, wn_ptr, x_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 168 registers per thread (needs about 104): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 80 registers per thread (needs about 80): cp.async copies into the rings
- ring a_191: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring bg_198: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring bn_203: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 98512 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.extra import libdevice

L0 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(x_ptr, wg_ptr, wn_ptr, out_ptr, M, E, D, seed, twill_box_a_191, twill_box_bg_198, twill_box_bn_203, a_191_buf, bg_198_buf, bn_203_buf, a_191_ready, a_191_empty, bg_198_ready, bg_198_empty, bn_203_ready, bn_203_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    rm = pid * 64
    rm_21 = gl.arange(0, 64, layout=L0)
    rm_22 = gl.arange(0, 64, layout=L1)
    rm_28 = rm + rm_21
    rm_29 = rm + rm_22
    twill_n = (D - 0 + 64 - 1) // 64
    acc_g = gl.full([64, 64], 0.0, gl.float32, layout=L2)
    acc_n_205 = gl.full([64, 64], 0.0, gl.float32, layout=L2)
    acc_g_p1 = acc_g
    acc_n_205_p1 = acc_n_205
    for twill_b in range(0, twill_n):
        mbarrier.wait(a_191_ready.index((twill_b - 0) % 4), ((twill_b - 0) // 4) & 1)
        fence_async_shared()
        mbarrier.wait(bg_198_ready.index((twill_b - 0) % 4), ((twill_b - 0) // 4) & 1)
        fence_async_shared()
        tok_acc_g = warpgroup_mma(a_191_buf.index((twill_b - 0) % 4), bg_198_buf.index((twill_b - 0) % 4), acc_g_p1, is_async=True)  # dot0_acc_g: stage 0, partition 0 (group 0)
        mbarrier.wait(bn_203_ready.index((twill_b - 0) % 4), ((twill_b - 0) // 4) & 1)
        fence_async_shared()
        tok_acc_n_205 = warpgroup_mma(a_191_buf.index((twill_b - 0) % 4), bn_203_buf.index((twill_b - 0) % 4), acc_n_205_p1, is_async=True)  # dot1_acc_n: stage 0, partition 0 (group 0)
        acc_g_p1, acc_n_205_p1 = warpgroup_mma_wait(2, deps=(acc_g_p1, acc_n_205_p1,))
        mbarrier.arrive(bg_198_empty.index((twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(a_191_empty.index((twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(bn_203_empty.index((twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
        acc_g, acc_n_205 = warpgroup_mma_wait(2, deps=(tok_acc_g, tok_acc_n_205,))
        acc_g_p1 = acc_g
        acc_n_205_p1 = acc_n_205
    acc_g_p1, acc_n_205_p1 = warpgroup_mma_wait(0, deps=(acc_g_p1, acc_n_205_p1,))
    a_191_buf._keep_alive()
    bg_198_buf._keep_alive()
    bn_203_buf._keep_alive()
    mbarrier.arrive(bg_198_empty.index(((twill_n - 1) - 0) % 4), pred=twill_n > 0)
    mbarrier.arrive(a_191_empty.index(((twill_n - 1) - 0) % 4), pred=twill_n > 0)
    mbarrier.arrive(bn_203_empty.index(((twill_n - 1) - 0) % 4), pred=twill_n > 0)
    noise_std_41 = acc_n_205_p1 > 20.0
    noise_std_42 = gl.exp(acc_n_205_p1)
    noise_std_43 = libdevice.log1p(noise_std_42)
    noise_std_44 = gl.where(noise_std_41, acc_n_205_p1, noise_std_43)
    offs = gl.expand_dims(rm_28, 1)
    offs_45 = gl.expand_dims(rm_29, 1)
    offs_48 = offs * E
    offs_49 = offs_45 * E
    offs_50 = gl.arange(0, 64, layout=L3)
    offs_51 = gl.arange(0, 64, layout=L4)
    offs_52 = gl.expand_dims(offs_50, 0)
    offs_53 = gl.expand_dims(offs_51, 0)
    offs_54 = offs_48.broadcast_to([64, 64])
    offs_55 = offs_49.broadcast_to([64, 64])
    offs_56 = offs_52.broadcast_to([64, 64])
    offs_57 = offs_53.broadcast_to([64, 64])
    offs_58 = offs_54 + offs_56
    offs_59 = offs_55 + offs_57
    seed_60 = gl.cast(seed, gl.int64)
    seed_hi_61 = gl.cast(gl.cast(seed_60, gl.uint64, bitcast=True) >> 32, gl.int64, bitcast=True)
    seed_hi_62 = seed_hi_61 & 4294967295
    seed_hi_63 = gl.cast(seed_hi_62, gl.int32)
    seed_lo = seed_60 & 4294967295
    seed_lo_64 = gl.cast(seed_lo, gl.int32)
    c0_65 = gl.cast(gl.umulhi(3449720151, 0), gl.int32, bitcast=True)
    c0_66 = c0_65 ^ seed_lo_64
    c2 = gl.cast(gl.umulhi(3528531795, gl.cast(offs_58, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_68 = c2 ^ seed_hi_63
    c3 = offs_58 * -766435501
    k0_69 = seed_lo_64 + -1640531527
    k1_70 = seed_hi_63 + -1150833019
    c0_71 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_68, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_73 = c0_71 ^ k0_69
    c2_74 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_66, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_76 = c2_74 ^ c3
    c2_78 = c2_76 ^ k1_70
    c1 = c2_68 * -845247145
    c3_79 = c0_66 * -766435501
    k0_81 = seed_lo_64 + 1013904242
    k1_82 = seed_hi_63 + 1993301258
    c0_83 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_78, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_84 = c0_83 ^ c1
    c0_86 = c0_84 ^ k0_81
    c2_87 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_73, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_88 = c2_87 ^ c3_79
    c2_90 = c2_88 ^ k1_82
    c1_91 = c2_78 * -845247145
    c3_92 = c0_73 * -766435501
    k0_93 = seed_lo_64 + -626627285
    k1_94 = seed_hi_63 + 842468239
    c0_95 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_90, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_96 = c0_95 ^ c1_91
    c0_98 = c0_96 ^ k0_93
    c2_99 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_86, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_100 = c2_99 ^ c3_92
    c2_102 = c2_100 ^ k1_94
    c1_103 = c2_90 * -845247145
    c3_104 = c0_86 * -766435501
    k0_105 = seed_lo_64 + 2027808484
    k1_106 = seed_hi_63 + -308364780
    c0_107 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_102, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_108 = c0_107 ^ c1_103
    c0_110 = c0_108 ^ k0_105
    c2_111 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_98, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_112 = c2_111 ^ c3_104
    c2_114 = c2_112 ^ k1_106
    c1_115 = c2_102 * -845247145
    c3_116 = c0_98 * -766435501
    k0_117 = seed_lo_64 + 387276957
    k1_118 = seed_hi_63 + -1459197799
    c0_119 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_114, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_120 = c0_119 ^ c1_115
    c0_122 = c0_120 ^ k0_117
    c2_123 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_110, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_124 = c2_123 ^ c3_116
    c2_126 = c2_124 ^ k1_118
    c1_127 = c2_114 * -845247145
    c3_128 = c0_110 * -766435501
    k0_129 = seed_lo_64 + -1253254570
    k1_130 = seed_hi_63 + 1684936478
    c0_131 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_126, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_132 = c0_131 ^ c1_127
    c0_134 = c0_132 ^ k0_129
    c2_135 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_122, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_136 = c2_135 ^ c3_128
    c2_138 = c2_136 ^ k1_130
    c1_139 = c2_126 * -845247145
    c3_140 = c0_122 * -766435501
    k0_141 = seed_lo_64 + 1401181199
    k1_142 = seed_hi_63 + 534103459
    c0_143 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_138, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_144 = c0_143 ^ c1_139
    c0_146 = c0_144 ^ k0_141
    c2_147 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_134, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_148 = c2_147 ^ c3_140
    c2_150 = c2_148 ^ k1_142
    c3_151 = c0_134 * -766435501
    k1_152 = seed_hi_63 + -616729560
    c2_153 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_146, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_154 = c2_153 ^ c3_151
    c2_156 = c2_154 ^ k1_152
    c1_157 = c2_150 * -845247145
    k0_158 = seed_lo_64 + -1879881855
    c0_159 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_156, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_160 = c0_159 ^ c1_157
    c0_162 = c0_160 ^ k0_158
    c1_163 = c2_156 * -845247145
    x = c0_162.to(gl.int32, bitcast=True)
    x_164 = x < 0
    x_165 = 0 - x
    x_166 = x_165 - 1
    x_167 = gl.where(x_164, x_166, x)
    u1_168 = x_167.to(gl.float32)
    u1_169 = u1_168 * 4.6566126e-10
    x_170 = c1_163.to(gl.int32, bitcast=True)
    x_171 = x_170 < 0
    x_172 = 0 - x_170
    x_173 = x_172 - 1
    x_174 = gl.where(x_171, x_173, x_170)
    u2 = x_174.to(gl.float32)
    u2_175 = u2 * 4.6566126e-10
    u1_176 = gl.maximum(u1_169, gl.full([64, 64], 1e-07, gl.float32, layout=L2))
    th_177 = u2_175 * 6.28318548
    r_178 = gl.log(u1_176)
    r_179 = r_178 * -2.0
    r_180 = gl.sqrt(r_179)
    z_181 = gl.cos(th_177)
    z_182 = r_180 * z_181
    v1 = offs_45 < M
    v3 = out_ptr + offs_59
    v4 = z_182 * noise_std_44
    v5 = acc_g_p1 + v4
    v6 = v1.broadcast_to([64, 64])
    v7 = gl.convert_layout(v5, L5)
    gl.store(v3, v7, mask=v6)

@gluon.jit
def producer_1(x_ptr, wg_ptr, wn_ptr, out_ptr, M, E, D, seed, twill_box_a_191, twill_box_bg_198, twill_box_bn_203, a_191_buf, bg_198_buf, bn_203_buf, a_191_ready, a_191_empty, bg_198_ready, bg_198_empty, bn_203_ready, bn_203_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    rm = pid * 64
    rm_20 = gl.arange(0, 64, layout=L6)
    rm_23 = gl.arange(0, 64, layout=L7)
    rm_27 = rm + rm_20
    a = gl.expand_dims(rm_27, 1)
    a_31 = a < M
    a_33 = a * D
    a_35 = x_ptr + a_33
    a_36 = a_35.broadcast_to([64, 64])
    a_37 = a_31.broadcast_to([64, 64])
    bg_39 = gl.expand_dims(rm_23, 0)
    bg_40 = bg_39.broadcast_to([64, 64])
    for acc_n_183 in range(0, D, 64):
        twill_k = (acc_n_183 - 0) // 64
        a_186 = acc_n_183 + rm_23
        a_187 = acc_n_183 + rm_20
        a_188 = gl.expand_dims(a_186, 0)
        a_189 = a_188.broadcast_to([64, 64])
        a_190 = a_36 + a_189
        bg_193 = gl.expand_dims(a_187, 1)
        bg_194 = bg_193 * E
        bg_195 = wg_ptr + bg_194
        bg_196 = bg_195.broadcast_to([64, 64])
        bg_197 = bg_196 + bg_40
        bn_200 = wn_ptr + bg_194
        bn_201 = bn_200.broadcast_to([64, 64])
        bn_202 = bn_201 + bg_40
        mbarrier.wait(a_191_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(a_191_ready.index(twill_k % 4), twill_box_a_191.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_a_191, [64 * pid, 64 * ((acc_n_183 - 0) // 64)], a_191_ready.index(twill_k % 4), a_191_buf.index(twill_k % 4))  # load0_a: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_191_buf.index(twill_k % 4), a_190, mask=a_37)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_191_ready.index(twill_k % 4), increment_count=False)
            else:
                a_191_buf.index(twill_k % 4).store(gl.load(a_190, mask=a_37, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_191_ready.index(twill_k % 4), count=128)
        mbarrier.wait(bg_198_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(bg_198_ready.index(twill_k % 4), twill_box_bg_198.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_bg_198, [64 * ((acc_n_183 - 0) // 64), 0], bg_198_ready.index(twill_k % 4), bg_198_buf.index(twill_k % 4))  # load1_bg: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(bg_198_buf.index(twill_k % 4), bg_197)  # load1_bg: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(bg_198_ready.index(twill_k % 4), increment_count=False)
            else:
                bg_198_buf.index(twill_k % 4).store(gl.load(bg_197))  # load1_bg: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(bg_198_ready.index(twill_k % 4), count=128)
        mbarrier.wait(bn_203_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(bn_203_ready.index(twill_k % 4), twill_box_bn_203.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_bn_203, [64 * ((acc_n_183 - 0) // 64), 0], bn_203_ready.index(twill_k % 4), bn_203_buf.index(twill_k % 4))  # load2_bn: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(bn_203_buf.index(twill_k % 4), bn_202)  # load2_bn: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(bn_203_ready.index(twill_k % 4), increment_count=False)
            else:
                bn_203_buf.index(twill_k % 4).store(gl.load(bn_202))  # load2_bn: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(bn_203_ready.index(twill_k % 4), count=128)

@gluon.jit
def twill_kernel(x_ptr, wg_ptr, wn_ptr, out_ptr, M, E, D, seed, twill_box_a_191, twill_box_bg_198, twill_box_bn_203, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_191_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    bg_198_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    bn_203_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_191_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_191_ready.index(i), count=1 if TWILL_TMA else 128)
    a_191_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_191_empty.index(i), count=1)
    bg_198_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(bg_198_ready.index(i), count=1 if TWILL_TMA else 128)
    bg_198_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(bg_198_empty.index(i), count=1)
    bn_203_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(bn_203_ready.index(i), count=1 if TWILL_TMA else 128)
    bn_203_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(bn_203_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, wg_ptr, wn_ptr, out_ptr, M, E, D, seed, twill_box_a_191, twill_box_bg_198, twill_box_bn_203, a_191_buf, bg_198_buf, bn_203_buf, a_191_ready, a_191_empty, bg_198_ready, bg_198_empty, bn_203_ready, bn_203_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (x_ptr, wg_ptr, wn_ptr, out_ptr, M, E, D, seed, twill_box_a_191, twill_box_bg_198, twill_box_bn_203, a_191_buf, bg_198_buf, bn_203_buf, a_191_ready, a_191_empty, bg_198_ready, bg_198_empty, bn_203_ready, bn_203_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [80])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'wg_ptr', 'wn_ptr', 'out_ptr', 'M', 'E', 'D', 'seed', 'BLOCK_M', 'BLOCK_E', 'BLOCK_D']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'wg_ptr', 'wn_ptr', 'out_ptr', 'M', 'E', 'D', 'seed', 'twill_box_a_191', 'twill_box_bg_198', 'twill_box_bn_203']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'wg_ptr', 'wn_ptr', 'out_ptr', 'M', 'E', 'D', 'seed']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 64, 'BLOCK_E': 64, 'BLOCK_D': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_191': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_bg_198': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_bn_203': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_191': ('x_ptr', ['D', '1'], ['M', None], [64, 64], []), 'twill_box_bg_198': ('wg_ptr', ['E', '1'], [None, None], [64, 64], []), 'twill_box_bn_203': ('wn_ptr', ['E', '1'], [None, None], [64, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['x_ptr', 'wg_ptr', 'wn_ptr', 'E', 'D']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


def _box_shapes(bound):
    """Each pointer tile's (base, extents, strides), or None where the launch does not allow them (a base not
    16-byte aligned, a row stride not a 16-byte multiple, an extent not positive, a check failed, a shape
    or stride the descriptor refuses)."""
    out = {}
    for n, (base, strides, extents, block, checks) in POINTER_BOXES.items():
        t = bound[base]
        if not TMA_BOXES or not hasattr(t, 'data_ptr') or not all(_ev(c, bound) for c in checks):
            return None
        st = tuple(int(_ev(e, bound)) for e in strides)
        ext = tuple(2 ** 31 - 1 if e is None else int(_ev(e, bound)) for e in extents)   # None: unmasked
        if t.data_ptr() % 16 or any(x * t.element_size() % 16 for x in st[:-1]) or min(ext) <= 0:
            return None
        # unmasked, a coordinate holds the element offsets folded into it (an expert's, a batch's): TMA's
        # coordinates and the kernel's arithmetic are 32-bit, so the tensor's whole span must fit them
        span = _span(t)
        if any(e is None and span // max(s, 1) >= 2 ** 31 - 1 for e, s in zip(extents, st)):
            return None
        try:
            _desc(n, t, ext, st, block)
        except (AssertionError, ValueError, TypeError):
            return None
        out[n] = (base, ext, st)
    return out


def _span(t):
    """The elements from ``t``'s first to the end of its storage."""
    try:
        return t.untyped_storage().nbytes() // t.element_size() - t.storage_offset()
    except (AttributeError, RuntimeError):
        return t.numel()


def _boxes(bound, shapes=None):
    """The pointer tiles' descriptors over ``shapes`` (else ``_box_shapes``'), None where the launch does not
    allow them."""
    shapes = _box_shapes(bound) if shapes is None else shapes
    if shapes is None:
        return None
    return {n: _desc(n, bound[b], ext, st, POINTER_BOXES[n][3]) for n, (b, ext, st) in shapes.items()}


def _key(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES:
        from triton import knobs
        _MODES.extend((knobs.compilation, knobs.runtime))
    key = [g, TMA_BOXES, _MODES[0].instrumentation_mode, _MODES[1].debug, _device()]
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
    shapes = _box_shapes(bound)
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED), 'TWILL_TMA': shapes is not None}
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
    bound.update(dict.fromkeys(POINTER_BOXES) if entry[1] is None else _boxes(bound, entry[1]))
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
