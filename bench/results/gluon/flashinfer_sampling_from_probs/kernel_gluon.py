"""sampling_from_probs_kernel, written by twill from its joint schedule: I=281 L=281 (optimal), 920 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 452).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 42 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- timed at launch: the same loop in one stage, `twill_kernel_short` (I=281 optimal among one-stage schedules, ptxas 48 registers, 5 CTA(s) an SM against this kernel's 2 at 85), beside this pipelined kernel; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 139-142 and 219: one stage x0.44-1.20 of the pipelined kernel's speed over eighteen loops; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def twill_add(a, b):
    return a + b

@gluon.jit
def consumer_0(probs_ptr, output_ptr, indices_ptr, seed, stride, vocab_size):
    pid = gl.program_id(0)
    row = indices_ptr + pid
    row_17 = gl.load(row)
    row_ptr = gl.cast(row_17, gl.int64)
    row_ptr_18 = gl.cast(stride, gl.int64)
    row_ptr_19 = row_ptr * row_ptr_18
    row_ptr_20 = probs_ptr + row_ptr_19
    seed_21 = gl.cast(seed, gl.int64)
    seed_hi_22 = gl.cast(gl.cast(seed_21, gl.uint64, bitcast=True) >> 32, gl.int64, bitcast=True)
    seed_hi_23 = seed_hi_22 & 4294967295
    seed_hi_24 = gl.cast(seed_hi_23, gl.int32)
    seed_lo = seed_21 & 4294967295
    seed_lo_25 = gl.cast(seed_lo, gl.int32)
    c0 = gl.cast(gl.umulhi(3449720151, 0), gl.int32, bitcast=True)
    c0_26 = c0 ^ seed_lo_25
    c2 = gl.cast(gl.umulhi(3528531795, gl.cast(pid, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_27 = c2 ^ seed_hi_24
    c3 = pid * -766435501
    k0_28 = seed_lo_25 + -1640531527
    k1_29 = seed_hi_24 + -1150833019
    c0_30 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_27, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_31 = c0_30 ^ k0_28
    c2_32 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_26, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_33 = c2_32 ^ c3
    c2_34 = c2_33 ^ k1_29
    c1 = c2_27 * -845247145
    c3_35 = c0_26 * -766435501
    k0_36 = seed_lo_25 + 1013904242
    k1_37 = seed_hi_24 + 1993301258
    c0_38 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_34, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_39 = c0_38 ^ c1
    c0_40 = c0_39 ^ k0_36
    c2_41 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_31, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_42 = c2_41 ^ c3_35
    c2_43 = c2_42 ^ k1_37
    c1_44 = c2_34 * -845247145
    c3_45 = c0_31 * -766435501
    k0_46 = seed_lo_25 + -626627285
    k1_47 = seed_hi_24 + 842468239
    c0_48 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_43, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_49 = c0_48 ^ c1_44
    c0_50 = c0_49 ^ k0_46
    c2_51 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_40, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_52 = c2_51 ^ c3_45
    c2_53 = c2_52 ^ k1_47
    c1_54 = c2_43 * -845247145
    c3_55 = c0_40 * -766435501
    k0_56 = seed_lo_25 + 2027808484
    k1_57 = seed_hi_24 + -308364780
    c0_58 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_53, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_59 = c0_58 ^ c1_54
    c0_60 = c0_59 ^ k0_56
    c2_61 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_50, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_62 = c2_61 ^ c3_55
    c2_63 = c2_62 ^ k1_57
    c1_64 = c2_53 * -845247145
    c3_65 = c0_50 * -766435501
    k0_66 = seed_lo_25 + 387276957
    k1_67 = seed_hi_24 + -1459197799
    c0_68 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_63, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_69 = c0_68 ^ c1_64
    c0_70 = c0_69 ^ k0_66
    c2_71 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_60, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_72 = c2_71 ^ c3_65
    c2_73 = c2_72 ^ k1_67
    c1_74 = c2_63 * -845247145
    c3_75 = c0_60 * -766435501
    k0_76 = seed_lo_25 + -1253254570
    k1_77 = seed_hi_24 + 1684936478
    c0_78 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_73, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_79 = c0_78 ^ c1_74
    c0_80 = c0_79 ^ k0_76
    c2_81 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_70, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_82 = c2_81 ^ c3_75
    c2_83 = c2_82 ^ k1_77
    c1_84 = c2_73 * -845247145
    c3_85 = c0_70 * -766435501
    k0_86 = seed_lo_25 + 1401181199
    k1_87 = seed_hi_24 + 534103459
    c0_88 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_83, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_89 = c0_88 ^ c1_84
    c0_90 = c0_89 ^ k0_86
    c2_91 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_80, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_92 = c2_91 ^ c3_85
    c2_93 = c2_92 ^ k1_87
    c3_94 = c0_80 * -766435501
    k1_95 = seed_hi_24 + -616729560
    c2_96 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_90, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_97 = c2_96 ^ c3_94
    c2_98 = c2_97 ^ k1_95
    c1_99 = c2_93 * -845247145
    k0_100 = seed_lo_25 + -1879881855
    c0_101 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_98, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_102 = c0_101 ^ c1_99
    c0_103 = c0_102 ^ k0_100
    x_104 = gl.cast(c0_103, gl.int32, bitcast=True)
    x_105 = x_104 < 0
    x_106 = -1 - x_104
    x_107 = gl.where(x_105, x_106, x_104)
    u = gl.cast(x_107, gl.float32)
    u_108 = u * 4.6566126e-10
    offs = gl.arange(0, 2048, layout=L0)
    twill_n = (vocab_size - 0 + 2048 - 1) // 2048
    prefix_124 = 0.0
    sampled_122 = vocab_size
    cols_113 = (0 + (0 - 0) * 2048) + offs  # load0_x: stage 0, partition 0 (group 0)
    mask_114 = cols_113 < vocab_size  # load0_x: stage 0, partition 0 (group 0)
    x_115 = row_ptr_20 + cols_113  # load0_x: stage 0, partition 0 (group 0)
    x_116 = gl.load(x_115, mask=mask_114, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    cols_113_p1 = cols_113
    mask_114_p1 = mask_114
    prefix_124_p1 = prefix_124
    sampled_122_p1 = sampled_122
    x_116_p1 = x_116
    for twill_b in range(1, twill_n):
        cols = (0 + (twill_b - 0) * 2048)  # load0_x: stage 0, partition 0 (group 0)
        cols_113 = cols + offs  # load0_x: stage 0, partition 0 (group 0)
        mask_114 = cols_113 < vocab_size  # load0_x: stage 0, partition 0 (group 0)
        x_115 = row_ptr_20 + cols_113  # load0_x: stage 0, partition 0 (group 0)
        x_116 = gl.load(x_115, mask=mask_114, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        cdf = gl.associative_scan(x_116_p1, 0, twill_add)  # elementwise0_cdf: stage 1, partition 0 (group 0)
        cdf_117 = prefix_124_p1  # elementwise0_cdf: stage 1, partition 0 (group 0)
        cdf_118 = cdf + cdf_117  # elementwise0_cdf: stage 1, partition 0 (group 0)
        hit_119 = cdf_118 > u_108  # elementwise0_cdf: stage 1, partition 0 (group 0)
        hit_120 = hit_119 & mask_114_p1  # elementwise0_cdf: stage 1, partition 0 (group 0)
        prefix_123 = gl.sum(x_116_p1, axis=0)  # reduce1_prefix: stage 1, partition 0 (group 0)
        first = gl.where(hit_120, cols_113_p1, vocab_size)  # reduce0_first: stage 1, partition 0 (group 0)
        first_121 = gl.min(first, axis=0)  # reduce0_first: stage 1, partition 0 (group 0)
        prefix_124 = prefix_124_p1 + prefix_123  # elementwise2_prefix: stage 1, partition 0 (group 0)
        sampled_122 = gl.minimum(sampled_122_p1, first_121)  # elementwise1_sampled: stage 1, partition 0 (group 0)
        cols_113_p1 = cols_113
        mask_114_p1 = mask_114
        prefix_124_p1 = prefix_124
        sampled_122_p1 = sampled_122
        x_116_p1 = x_116
    cdf = gl.associative_scan(x_116_p1, 0, twill_add)  # elementwise0_cdf: stage 1, partition 0 (group 0)
    cdf_117 = prefix_124_p1  # elementwise0_cdf: stage 1, partition 0 (group 0)
    cdf_118 = cdf + cdf_117  # elementwise0_cdf: stage 1, partition 0 (group 0)
    hit_119 = cdf_118 > u_108  # elementwise0_cdf: stage 1, partition 0 (group 0)
    hit_120 = hit_119 & mask_114_p1  # elementwise0_cdf: stage 1, partition 0 (group 0)
    prefix_123 = gl.sum(x_116_p1, axis=0)  # reduce1_prefix: stage 1, partition 0 (group 0)
    first = gl.where(hit_120, cols_113_p1, vocab_size)  # reduce0_first: stage 1, partition 0 (group 0)
    first_121 = gl.min(first, axis=0)  # reduce0_first: stage 1, partition 0 (group 0)
    prefix_124 = prefix_124_p1 + prefix_123  # elementwise2_prefix: stage 1, partition 0 (group 0)
    sampled_122 = gl.minimum(sampled_122_p1, first_121)  # elementwise1_sampled: stage 1, partition 0 (group 0)
    cols_113_p1 = cols_113
    mask_114_p1 = mask_114
    prefix_124_p1 = prefix_124
    sampled_122_p1 = sampled_122
    x_116_p1 = x_116
    sampled_110 = vocab_size - 1
    sampled_111 = gl.minimum(sampled_122_p1, sampled_110)
    v0 = output_ptr + pid
    gl.store(v0, sampled_111)

@gluon.jit
def twill_kernel(probs_ptr, output_ptr, indices_ptr, seed, stride, vocab_size):
    consumer_0(probs_ptr, output_ptr, indices_ptr, seed, stride, vocab_size, )



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def twill_add_short(a, b):
    return a + b

@gluon.jit
def consumer_0_short(probs_ptr, output_ptr, indices_ptr, seed, stride, vocab_size):
    pid = gl.program_id(0)
    row = indices_ptr + pid
    row_17 = gl.load(row)
    row_ptr = gl.cast(row_17, gl.int64)
    row_ptr_18 = gl.cast(stride, gl.int64)
    row_ptr_19 = row_ptr * row_ptr_18
    row_ptr_20 = probs_ptr + row_ptr_19
    seed_21 = gl.cast(seed, gl.int64)
    seed_hi_22 = gl.cast(gl.cast(seed_21, gl.uint64, bitcast=True) >> 32, gl.int64, bitcast=True)
    seed_hi_23 = seed_hi_22 & 4294967295
    seed_hi_24 = gl.cast(seed_hi_23, gl.int32)
    seed_lo = seed_21 & 4294967295
    seed_lo_25 = gl.cast(seed_lo, gl.int32)
    c0 = gl.cast(gl.umulhi(3449720151, 0), gl.int32, bitcast=True)
    c0_26 = c0 ^ seed_lo_25
    c2 = gl.cast(gl.umulhi(3528531795, gl.cast(pid, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_27 = c2 ^ seed_hi_24
    c3 = pid * -766435501
    k0_28 = seed_lo_25 + -1640531527
    k1_29 = seed_hi_24 + -1150833019
    c0_30 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_27, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_31 = c0_30 ^ k0_28
    c2_32 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_26, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_33 = c2_32 ^ c3
    c2_34 = c2_33 ^ k1_29
    c1 = c2_27 * -845247145
    c3_35 = c0_26 * -766435501
    k0_36 = seed_lo_25 + 1013904242
    k1_37 = seed_hi_24 + 1993301258
    c0_38 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_34, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_39 = c0_38 ^ c1
    c0_40 = c0_39 ^ k0_36
    c2_41 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_31, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_42 = c2_41 ^ c3_35
    c2_43 = c2_42 ^ k1_37
    c1_44 = c2_34 * -845247145
    c3_45 = c0_31 * -766435501
    k0_46 = seed_lo_25 + -626627285
    k1_47 = seed_hi_24 + 842468239
    c0_48 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_43, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_49 = c0_48 ^ c1_44
    c0_50 = c0_49 ^ k0_46
    c2_51 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_40, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_52 = c2_51 ^ c3_45
    c2_53 = c2_52 ^ k1_47
    c1_54 = c2_43 * -845247145
    c3_55 = c0_40 * -766435501
    k0_56 = seed_lo_25 + 2027808484
    k1_57 = seed_hi_24 + -308364780
    c0_58 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_53, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_59 = c0_58 ^ c1_54
    c0_60 = c0_59 ^ k0_56
    c2_61 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_50, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_62 = c2_61 ^ c3_55
    c2_63 = c2_62 ^ k1_57
    c1_64 = c2_53 * -845247145
    c3_65 = c0_50 * -766435501
    k0_66 = seed_lo_25 + 387276957
    k1_67 = seed_hi_24 + -1459197799
    c0_68 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_63, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_69 = c0_68 ^ c1_64
    c0_70 = c0_69 ^ k0_66
    c2_71 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_60, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_72 = c2_71 ^ c3_65
    c2_73 = c2_72 ^ k1_67
    c1_74 = c2_63 * -845247145
    c3_75 = c0_60 * -766435501
    k0_76 = seed_lo_25 + -1253254570
    k1_77 = seed_hi_24 + 1684936478
    c0_78 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_73, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_79 = c0_78 ^ c1_74
    c0_80 = c0_79 ^ k0_76
    c2_81 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_70, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_82 = c2_81 ^ c3_75
    c2_83 = c2_82 ^ k1_77
    c1_84 = c2_73 * -845247145
    c3_85 = c0_70 * -766435501
    k0_86 = seed_lo_25 + 1401181199
    k1_87 = seed_hi_24 + 534103459
    c0_88 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_83, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_89 = c0_88 ^ c1_84
    c0_90 = c0_89 ^ k0_86
    c2_91 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_80, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_92 = c2_91 ^ c3_85
    c2_93 = c2_92 ^ k1_87
    c3_94 = c0_80 * -766435501
    k1_95 = seed_hi_24 + -616729560
    c2_96 = gl.cast(gl.umulhi(3528531795, gl.cast(c0_90, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c2_97 = c2_96 ^ c3_94
    c2_98 = c2_97 ^ k1_95
    c1_99 = c2_93 * -845247145
    k0_100 = seed_lo_25 + -1879881855
    c0_101 = gl.cast(gl.umulhi(3449720151, gl.cast(c2_98, gl.uint32, bitcast=True)), gl.int32, bitcast=True)
    c0_102 = c0_101 ^ c1_99
    c0_103 = c0_102 ^ k0_100
    x_104 = gl.cast(c0_103, gl.int32, bitcast=True)
    x_105 = x_104 < 0
    x_106 = -1 - x_104
    x_107 = gl.where(x_105, x_106, x_104)
    u = gl.cast(x_107, gl.float32)
    u_108 = u * 4.6566126e-10
    offs = gl.arange(0, 2048, layout=L0_short)
    twill_n = (vocab_size - 0 + 2048 - 1) // 2048
    prefix_124 = 0.0
    sampled_122 = vocab_size
    prefix_124_p1 = prefix_124
    sampled_122_p1 = sampled_122
    for twill_b in range(0, twill_n):
        cols = (0 + (twill_b - 0) * 2048)  # load0_x: stage 0, partition 0 (group 0)
        cols_113 = cols + offs  # load0_x: stage 0, partition 0 (group 0)
        mask_114 = cols_113 < vocab_size  # load0_x: stage 0, partition 0 (group 0)
        x_115 = row_ptr_20 + cols_113  # load0_x: stage 0, partition 0 (group 0)
        x_116 = gl.load(x_115, mask=mask_114, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        cdf = gl.associative_scan(x_116, 0, twill_add_short)  # elementwise0_cdf: stage 0, partition 0 (group 0)
        cdf_117 = prefix_124_p1  # elementwise0_cdf: stage 0, partition 0 (group 0)
        cdf_118 = cdf + cdf_117  # elementwise0_cdf: stage 0, partition 0 (group 0)
        hit_119 = cdf_118 > u_108  # elementwise0_cdf: stage 0, partition 0 (group 0)
        hit_120 = hit_119 & mask_114  # elementwise0_cdf: stage 0, partition 0 (group 0)
        prefix_123 = gl.sum(x_116, axis=0)  # reduce1_prefix: stage 0, partition 0 (group 0)
        first = gl.where(hit_120, cols_113, vocab_size)  # reduce0_first: stage 0, partition 0 (group 0)
        first_121 = gl.min(first, axis=0)  # reduce0_first: stage 0, partition 0 (group 0)
        prefix_124 = prefix_124_p1 + prefix_123  # elementwise2_prefix: stage 0, partition 0 (group 0)
        sampled_122 = gl.minimum(sampled_122_p1, first_121)  # elementwise1_sampled: stage 0, partition 0 (group 0)
        prefix_124_p1 = prefix_124
        sampled_122_p1 = sampled_122
    sampled_110 = vocab_size - 1
    sampled_111 = gl.minimum(sampled_122_p1, sampled_110)
    v0 = output_ptr + pid
    gl.store(v0, sampled_111)

@gluon.jit
def twill_kernel_short(probs_ptr, output_ptr, indices_ptr, seed, stride, vocab_size):
    consumer_0_short(probs_ptr, output_ptr, indices_ptr, seed, stride, vocab_size, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['probs_ptr', 'output_ptr', 'indices_ptr', 'seed', 'stride', 'vocab_size', 'HAS_INDICES', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['probs_ptr', 'output_ptr', 'indices_ptr', 'seed', 'stride', 'vocab_size']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['probs_ptr', 'output_ptr', 'indices_ptr', 'seed', 'stride', 'vocab_size']   # the arguments a launch key reads
CONSTEXPRS = {'HAS_INDICES': True, 'BLOCK_SIZE': 2048}         # the specialisation this kernel was generated for
HEURISTICS = {'HAS_INDICES': "lambda args: args['indices_ptr'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
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
    trips = _ev('(vocab_size + 2048 - 1) // 2048', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((vocab_size + 2048 - 1) // 2048): run the Triton kernel for it")
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
ARGUMENTS_short = ['probs_ptr', 'output_ptr', 'indices_ptr', 'seed', 'stride', 'vocab_size', 'HAS_INDICES', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME_short = ['probs_ptr', 'output_ptr', 'indices_ptr', 'seed', 'stride', 'vocab_size']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['probs_ptr', 'output_ptr', 'indices_ptr', 'seed', 'stride', 'vocab_size']   # the arguments a launch key reads
CONSTEXPRS_short = {'HAS_INDICES': True, 'BLOCK_SIZE': 2048}         # the specialisation this kernel was generated for
HEURISTICS_short = {'HAS_INDICES': "lambda args: args['indices_ptr'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS_short = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE_short = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 8
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

_HEUR_short = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristic_short(name, src):
    """Heuristic ``name``'s function, from its source and the kernel module's names it reads (``HEURISTIC_SCOPE``:
    the module's imports, constants and the functions it calls); False where it cannot be made here."""
    fn = _HEUR_short.get(name)
    if fn is None:
        import math
        import torch
        import triton
        import triton.language as tl
        scope = {"torch": torch, "triton": triton, "tl": tl, "math": math}
        for part in HEURISTIC_SCOPE_short:
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
        _HEUR_short[name] = fn
    return fn


def _heuristics_short(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS_short)
    for name, src in HEURISTICS_short.items():
        fn = _heuristic_short(name, src)
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS_short[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


def _heuristic_args_short(bound):
    """The kernel arguments its @triton.heuristics supply (kernl's ``size_m_rounded``), set as Triton sets them."""
    for name, src in HEURISTIC_ARGS_short.items():
        fn = _heuristic_short(name, src)
        if fn is False:
            raise ValueError(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated here")
        bound[name] = fn(dict(bound, **CONSTEXPRS_short))


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
    _heuristics_short(bound)
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
