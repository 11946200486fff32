"""mlstm_chunkwise__recurrent_bw_dC_kernel, written by twill from its joint schedule: I=198 L=296 (optimal), 2490 cycles per iteration predicted.

Decisions (each from the schedule):
- rings sized for 1597 cycles an iteration (the busiest unit's), not the II's 2490: the II holds work under an if taken on some iterations only
- register-read pointer tiles copied by their consumer with cp.async (matQ_k_val_120_as 2 x 16384 B, matDeltaH_k_val_143_as 2 x 16384 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 186 per thread)
- shared operand matDeltaH_k_val_150_st: partition 0 stores the loop's [128, 64] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 98320 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L8 = gl.constexpr(gl.SliceLayout(0, gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2)))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1]))
L12 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))

@gluon.jit
def twill_add(a, b):
    return a + b

@gluon.jit
def consumer_0(matQ, vecF, scaM_inter, vecM_combine, matDeltaH, vecN_out, matDeltaC_last, matDeltaC_states, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    matDeltaC_last_ptr = v2 * 131072
    matDeltaC_last_ptr_18 = matDeltaC_last + matDeltaC_last_ptr
    matDeltaC_last_ptr_19 = v0 * 64
    matDeltaC_last_ptr_20 = v1 * 64
    matDeltaC_last_ptr_21 = gl.cast(matDeltaC_last_ptr_19, gl.int64)
    matDeltaC_last_ptr_22 = gl.cast(matDeltaC_last_ptr_20, gl.int64)
    matDeltaC_k_val_25 = gl.arange(0, 64, layout=L0)
    matDeltaC_k_val_26 = gl.arange(0, 64, layout=L1)
    matDeltaC_k_val_27 = gl.arange(0, 64, layout=L2)
    matDeltaC_k_val_28 = gl.arange(0, 64, layout=L3)
    matDeltaC_k_val_29 = matDeltaC_k_val_25.to(gl.int64)
    matDeltaC_k_val_30 = matDeltaC_k_val_26.to(gl.int64)
    matDeltaC_k_val_31 = matDeltaC_k_val_27.to(gl.int64)
    matDeltaC_k_val_32 = matDeltaC_k_val_28.to(gl.int64)
    matDeltaC_k_val_33 = matDeltaC_last_ptr_21 + matDeltaC_k_val_29
    matDeltaC_k_val_34 = matDeltaC_last_ptr_21 + matDeltaC_k_val_30
    matDeltaC_k_val_35 = gl.expand_dims(matDeltaC_k_val_33, 1)
    matDeltaC_k_val_36 = gl.expand_dims(matDeltaC_k_val_34, 1)
    matDeltaC_k_val_37 = matDeltaC_k_val_35 * 512
    matDeltaC_k_val_38 = matDeltaC_k_val_37.broadcast_to([64, 64])
    matDeltaC_k_val_41 = matDeltaC_last_ptr_22 + matDeltaC_k_val_31
    matDeltaC_k_val_42 = matDeltaC_last_ptr_22 + matDeltaC_k_val_32
    matDeltaC_k_val_43 = gl.expand_dims(matDeltaC_k_val_41, 0)
    matDeltaC_k_val_44 = gl.expand_dims(matDeltaC_k_val_42, 0)
    matDeltaC_k_val_45 = matDeltaC_k_val_43.broadcast_to([64, 64])
    matDeltaC_k_val_46 = matDeltaC_k_val_38 + matDeltaC_k_val_45
    matDeltaC_k_val_47 = matDeltaC_last_ptr_18 + matDeltaC_k_val_46
    matDeltaC_k_val_48 = matDeltaC_k_val_35 >= 0
    matDeltaC_k_val_49 = matDeltaC_k_val_36 >= 0
    matDeltaC_k_val_50 = matDeltaC_k_val_35 < 256
    matDeltaC_k_val_51 = matDeltaC_k_val_36 < 256
    matDeltaC_k_val_52 = matDeltaC_k_val_48 & matDeltaC_k_val_50
    matDeltaC_k_val_53 = matDeltaC_k_val_49 & matDeltaC_k_val_51
    matDeltaC_k_val_54 = matDeltaC_k_val_52.broadcast_to([64, 64])
    matDeltaC_k_val_55 = matDeltaC_k_val_43 >= 0
    matDeltaC_k_val_56 = matDeltaC_k_val_44 >= 0
    matDeltaC_k_val_57 = matDeltaC_k_val_43 < 512
    matDeltaC_k_val_58 = matDeltaC_k_val_44 < 512
    matDeltaC_k_val_59 = matDeltaC_k_val_55 & matDeltaC_k_val_57
    matDeltaC_k_val_60 = matDeltaC_k_val_56 & matDeltaC_k_val_58
    matDeltaC_k_val_61 = matDeltaC_k_val_59.broadcast_to([64, 64])
    matDeltaC_k_val_62 = matDeltaC_k_val_54 & matDeltaC_k_val_61
    matDeltaC_k_val_63 = gl.load(matDeltaC_k_val_47, mask=matDeltaC_k_val_62)
    matDeltaC_k_val_64 = gl.convert_layout(matDeltaC_k_val_63, L4)
    matQ_k_ptr = v2 * 2097152
    matQ_k_ptr_65 = matQ + matQ_k_ptr
    matDeltaH_ptr = v2 * 4194304
    matDeltaH_ptr_66 = matDeltaH + matDeltaH_ptr
    vecF_val = v2 * 8192
    vecF_val_67 = vecF + vecF_val
    vecF_val_68 = gl.arange(0, 128, layout=L5)
    vecF_val_69 = gl.arange(0, 128, layout=L6)
    vecF_val_70 = gl.arange(0, 128, layout=L7)
    scaM_inter_km1_val = v2 * 65
    scaM_inter_km1_val_71 = scaM_inter + scaM_inter_km1_val
    vecM_combine_k_val = vecM_combine + vecF_val
    matQ_k_val_72 = matDeltaC_k_val_36.broadcast_to([64, 128])
    matQ_k_val_73 = vecF_val_68.to(gl.int64)
    matQ_k_val_74 = vecF_val_69.to(gl.int64)
    matQ_k_val_75 = matDeltaC_k_val_53.broadcast_to([64, 128])
    vecN_out_k_val = vecN_out + vecF_val
    matDeltaH_k_val_76 = matDeltaC_k_val_44.broadcast_to([128, 64])
    matDeltaH_k_val_77 = matDeltaC_k_val_60.broadcast_to([128, 64])
    twill_n = (64 - 0 + 1 - 1) // 1
    matQ_k_val_120_as = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0, 1]))
    matDeltaH_k_val_143_as = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    matDeltaH_k_val_150_st = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    matQ_k_ptr_83 = 63 - (0 + (0 - 0) * 1)  # load0_matQ_k_val: stage 0, partition 0 (group 0)
    matQ_k_ptr_84 = matQ_k_ptr_83 * 128  # load0_matQ_k_val: stage 0, partition 0 (group 0)
    matQ_k_ptr_85 = gl.cast(matQ_k_ptr_84, gl.int64)  # load0_matQ_k_val: stage 0, partition 0 (group 0)
    matQ_k_val_107 = matQ_k_ptr_85  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matQ_k_val_109 = matQ_k_val_107 + matQ_k_val_74  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_133 = gl.expand_dims(matQ_k_val_109, 1)  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_138 = matDeltaH_k_val_133 >= 0  # elementwise3_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_139 = matDeltaH_k_val_133 < 8192  # elementwise3_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_140 = matDeltaH_k_val_138 & matDeltaH_k_val_139  # elementwise3_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_141 = matDeltaH_k_val_140.broadcast_to([128, 64])  # elementwise4_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_142 = matDeltaH_k_val_141 & matDeltaH_k_val_77  # elementwise4_matDeltaH_k_val: stage 0, partition 0 (group 0)
    vecF_val_86 = vecF_val_67 + matQ_k_ptr_84  # load1_vecF_val: stage 0, partition 0 (group 0)
    vecF_val_87 = vecF_val_86  # load1_vecF_val: stage 0, partition 0 (group 0)
    vecF_val_88 = vecF_val_87 + vecF_val_70  # load1_vecF_val: stage 0, partition 0 (group 0)
    vecF_val_89 = gl.load(vecF_val_88)  # load1_vecF_val: stage 0, partition 0 (group 0)
    vecM_combine_k_val_97 = vecM_combine_k_val + matQ_k_ptr_84  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
    vecM_combine_k_val_98 = vecM_combine_k_val_97  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
    scaM_inter_km1_val_94 = scaM_inter_km1_val_71 + matQ_k_ptr_83  # load2_scaM_inter_km1_val: stage 0, partition 0 (group 0)
    vecM_combine_k_val_99 = vecM_combine_k_val_98 + vecF_val_70  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
    scaM_inter_km1_val_95 = gl.load(scaM_inter_km1_val_94)  # load2_scaM_inter_km1_val: stage 0, partition 0 (group 0)
    vecM_combine_k_val_100 = gl.load(vecM_combine_k_val_99)  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
    matQ_k_ptr_82 = 64 - (0 + (0 - 0) * 1)  # store0: stage 0, partition 0 (group 0)
    scaM_inter_k_val = scaM_inter_km1_val_71 + matQ_k_ptr_82  # load3_scaM_inter_k_val: stage 0, partition 0 (group 0)
    scaM_inter_k_val_96 = gl.load(scaM_inter_k_val)  # load3_scaM_inter_k_val: stage 0, partition 0 (group 0)
    vecN_out_k_val_128 = vecN_out_k_val + matQ_k_ptr_84  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
    vecN_out_k_val_129 = vecN_out_k_val_128  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
    vecN_out_k_val_130 = vecN_out_k_val_129 + vecF_val_70  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
    vecN_out_k_val_131 = gl.load(vecN_out_k_val_130)  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_134 = matDeltaH_k_val_133 * 512  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_135 = matDeltaH_k_val_134.broadcast_to([128, 64])  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_136 = matDeltaH_k_val_135 + matDeltaH_k_val_76  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_137 = matDeltaH_ptr_66 + matDeltaH_k_val_136  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(matDeltaH_k_val_143_as.index((0 - 0) % 2), matDeltaH_k_val_137, mask=matDeltaH_k_val_142)  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    else:  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_143_as.index((0 - 0) % 2).store(gl.load(matDeltaH_k_val_137, mask=matDeltaH_k_val_142))  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    matQ_k_ptr_82_p1 = matQ_k_ptr_82
    matQ_k_ptr_85_p1 = matQ_k_ptr_85
    scaM_inter_k_val_96_p1 = scaM_inter_k_val_96
    scaM_inter_km1_val_95_p1 = scaM_inter_km1_val_95
    vecF_val_89_p1 = vecF_val_89
    vecM_combine_k_val_100_p1 = vecM_combine_k_val_100
    vecN_out_k_val_131_p1 = vecN_out_k_val_131
    matDeltaC_k_val_153 = matDeltaC_k_val_64
    matQ_k_ptr_83 = 63 - (0 + (1 - 0) * 1)  # load0_matQ_k_val: stage 0, partition 0 (group 0)
    matQ_k_ptr_84 = matQ_k_ptr_83 * 128  # load0_matQ_k_val: stage 0, partition 0 (group 0)
    matQ_k_ptr_85 = gl.cast(matQ_k_ptr_84, gl.int64)  # load0_matQ_k_val: stage 0, partition 0 (group 0)
    matQ_k_val_107 = matQ_k_ptr_85  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matQ_k_val_109 = matQ_k_val_107 + matQ_k_val_74  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_133 = gl.expand_dims(matQ_k_val_109, 1)  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_138 = matDeltaH_k_val_133 >= 0  # elementwise3_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_139 = matDeltaH_k_val_133 < 8192  # elementwise3_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_140 = matDeltaH_k_val_138 & matDeltaH_k_val_139  # elementwise3_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_141 = matDeltaH_k_val_140.broadcast_to([128, 64])  # elementwise4_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_142 = matDeltaH_k_val_141 & matDeltaH_k_val_77  # elementwise4_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matQ_k_val_106 = matQ_k_ptr_85_p1  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_108 = matQ_k_val_106 + matQ_k_val_73  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_110 = gl.expand_dims(matQ_k_val_108, 0)  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_115 = matQ_k_val_110 >= 0  # elementwise0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_116 = matQ_k_val_110 < 8192  # elementwise0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_117 = matQ_k_val_115 & matQ_k_val_116  # elementwise0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_118 = matQ_k_val_117.broadcast_to([64, 128])  # elementwise1_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_119 = matQ_k_val_75 & matQ_k_val_118  # elementwise1_matQ_k_val: stage 1, partition 0 (group 0)
    vecF_val_86 = vecF_val_67 + matQ_k_ptr_84  # load1_vecF_val: stage 0, partition 0 (group 0)
    vecF_val_87 = vecF_val_86  # load1_vecF_val: stage 0, partition 0 (group 0)
    vecF_val_88 = vecF_val_87 + vecF_val_70  # load1_vecF_val: stage 0, partition 0 (group 0)
    vecF_val_89 = gl.load(vecF_val_88)  # load1_vecF_val: stage 0, partition 0 (group 0)
    vecFlogsig_val = 0.0 - vecF_val_89_p1  # sfu0_vecFlogsig_val: stage 1, partition 0 (group 0)
    vecFlogsig_val_90 = gl.exp(vecFlogsig_val)  # sfu0_vecFlogsig_val: stage 1, partition 0 (group 0)
    vecFlogsig_val_91 = vecFlogsig_val_90 + 1.0  # sfu1_vecFlogsig_val: stage 1, partition 0 (group 0)
    vecFlogsig_val_92 = 1.0 / vecFlogsig_val_91  # sfu1_vecFlogsig_val: stage 1, partition 0 (group 0)
    vecFlogsig_val_93 = gl.log(vecFlogsig_val_92)  # sfu1_vecFlogsig_val: stage 1, partition 0 (group 0)
    vecM_combine_k_val_97 = vecM_combine_k_val + matQ_k_ptr_84  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
    vecM_combine_k_val_98 = vecM_combine_k_val_97  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
    scaM_inter_km1_val_94 = scaM_inter_km1_val_71 + matQ_k_ptr_83  # load2_scaM_inter_km1_val: stage 0, partition 0 (group 0)
    vecM_combine_k_val_99 = vecM_combine_k_val_98 + vecF_val_70  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
    scaM_inter_km1_val_95 = gl.load(scaM_inter_km1_val_94)  # load2_scaM_inter_km1_val: stage 0, partition 0 (group 0)
    vecM_combine_k_val_100 = gl.load(vecM_combine_k_val_99)  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
    vecB_val = gl.associative_scan(vecFlogsig_val_93, 0, twill_add)  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
    vecBbar_k_val = scaM_inter_km1_val_95_p1  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
    vecBbar_k_val_103 = vecB_val + vecBbar_k_val  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
    vecBbar_k_val_104 = vecBbar_k_val_103 - vecM_combine_k_val_100_p1  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
    vecBbar_k_val_105 = gl.exp(vecBbar_k_val_104)  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
    matQbar_k_val_122 = gl.convert_layout(vecBbar_k_val_105, L8)  # convert1_matQbar_k_val: stage 1, partition 0 (group 0)
    scaG_k_val = gl.sum(vecFlogsig_val_93, axis=0)  # reduce0_scaG_k_val: stage 1, partition 0 (group 0)
    matQ_k_ptr_82 = 64 - (0 + (1 - 0) * 1)  # store0: stage 0, partition 0 (group 0)
    scaM_inter_k_val = scaM_inter_km1_val_71 + matQ_k_ptr_82  # load3_scaM_inter_k_val: stage 0, partition 0 (group 0)
    scaM_inter_k_val_96 = gl.load(scaM_inter_k_val)  # load3_scaM_inter_k_val: stage 0, partition 0 (group 0)
    scaGbar_k_val = scaG_k_val + scaM_inter_km1_val_95_p1  # sfu3_scaGbar_k_val: stage 1, partition 0 (group 0)
    scaGbar_k_val_101 = scaGbar_k_val - scaM_inter_k_val_96_p1  # sfu3_scaGbar_k_val: stage 1, partition 0 (group 0)
    scaGbar_k_val_102 = gl.exp(scaGbar_k_val_101)  # sfu3_scaGbar_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_111 = matQ_k_val_110 * 256  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_112 = matQ_k_val_111.broadcast_to([64, 128])  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_113 = matQ_k_val_72 + matQ_k_val_112  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_114 = matQ_k_ptr_65 + matQ_k_val_113  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    if TWILL_COPY:  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(matQ_k_val_120_as.index((1 - 1) % 2), matQ_k_val_114, mask=matQ_k_val_119)  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    else:  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_120_as.index((1 - 1) % 2).store(gl.load(matQ_k_val_114, mask=matQ_k_val_119))  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    vecN_out_k_val_128 = vecN_out_k_val + matQ_k_ptr_84  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
    vecN_out_k_val_129 = vecN_out_k_val_128  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
    vecN_out_k_val_130 = vecN_out_k_val_129 + vecF_val_70  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
    vecN_out_k_val_131 = gl.load(vecN_out_k_val_130)  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_132 = gl.convert_layout(vecN_out_k_val_131_p1, L6)  # convert3_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_145 = gl.expand_dims(matDeltaH_k_val_132, 1)  # elementwise5_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_146 = matDeltaH_k_val_145 + 9.99999997e-07  # elementwise5_matDeltaH_k_val: stage 1, partition 0 (group 0)
    v6 = matQ_k_ptr_82_p1 % 2  # store0: stage 1, partition 0 (group 0)
    v7 = v6 == 0  # store0: stage 1, partition 0 (group 0)
    if v7:  # store0: stage 1, partition 0 (group 0)
        idx_k_save = matQ_k_ptr_82_p1 // 2  # store0: stage 1, partition 0 (group 0)
        matDeltaCstates_k_ptr = v2 * 4325376  # store0: stage 1, partition 0 (group 0)
        matDeltaCstates_k_ptr_154 = matDeltaC_states + matDeltaCstates_k_ptr  # store0: stage 1, partition 0 (group 0)
        matDeltaCstates_k_ptr_155 = idx_k_save * 131072  # store0: stage 1, partition 0 (group 0)
        matDeltaCstates_k_ptr_156 = matDeltaCstates_k_ptr_154 + matDeltaCstates_k_ptr_155  # store0: stage 1, partition 0 (group 0)
        v9 = matDeltaCstates_k_ptr_156 + matDeltaC_k_val_46  # store0: stage 1, partition 0 (group 0)
        v10 = gl.convert_layout(matDeltaC_k_val_153, L9)  # store0: stage 1, partition 0 (group 0)
        gl.store(v9, v10, mask=matDeltaC_k_val_62)  # store0: stage 1, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    matDeltaH_k_val_143 = matDeltaH_k_val_143_as.index((1 - 1) % 2).load(L10)  # load5_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_134 = matDeltaH_k_val_133 * 512  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_135 = matDeltaH_k_val_134.broadcast_to([128, 64])  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_136 = matDeltaH_k_val_135 + matDeltaH_k_val_76  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_137 = matDeltaH_ptr_66 + matDeltaH_k_val_136  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(matDeltaH_k_val_143_as.index((1 - 0) % 2), matDeltaH_k_val_137, mask=matDeltaH_k_val_142)  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    else:  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_143_as.index((1 - 0) % 2).store(gl.load(matDeltaH_k_val_137, mask=matDeltaH_k_val_142))  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
    matDeltaH_k_val_144 = matDeltaH_k_val_143.to(gl.float32)  # convert4_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_147 = matDeltaH_k_val_146.broadcast_to([128, 64])  # elementwise6_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_148 = matDeltaH_k_val_144 / matDeltaH_k_val_147  # elementwise6_matDeltaH_k_val: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    matDeltaC_k_val_153_p1 = matDeltaC_k_val_153
    matDeltaH_k_val_148_p1 = matDeltaH_k_val_148
    matQ_k_ptr_82_p1 = matQ_k_ptr_82
    matQ_k_ptr_85_p1 = matQ_k_ptr_85
    matQbar_k_val_122_p1 = matQbar_k_val_122
    scaGbar_k_val_102_p1 = scaGbar_k_val_102
    scaM_inter_k_val_96_p1 = scaM_inter_k_val_96
    scaM_inter_km1_val_95_p1 = scaM_inter_km1_val_95
    vecF_val_89_p1 = vecF_val_89
    vecM_combine_k_val_100_p1 = vecM_combine_k_val_100
    vecN_out_k_val_131_p1 = vecN_out_k_val_131
    for twill_b in range(2, twill_n):
        matQ_k_ptr_83 = 63 - (0 + (twill_b - 0) * 1)  # load0_matQ_k_val: stage 0, partition 0 (group 0)
        matQ_k_ptr_84 = matQ_k_ptr_83 * 128  # load0_matQ_k_val: stage 0, partition 0 (group 0)
        matQ_k_ptr_85 = gl.cast(matQ_k_ptr_84, gl.int64)  # load0_matQ_k_val: stage 0, partition 0 (group 0)
        matQ_k_val_107 = matQ_k_ptr_85  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matQ_k_val_109 = matQ_k_val_107 + matQ_k_val_74  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_133 = gl.expand_dims(matQ_k_val_109, 1)  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_138 = matDeltaH_k_val_133 >= 0  # elementwise3_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_139 = matDeltaH_k_val_133 < 8192  # elementwise3_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_140 = matDeltaH_k_val_138 & matDeltaH_k_val_139  # elementwise3_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_141 = matDeltaH_k_val_140.broadcast_to([128, 64])  # elementwise4_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_142 = matDeltaH_k_val_141 & matDeltaH_k_val_77  # elementwise4_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matQ_k_val_106 = matQ_k_ptr_85_p1  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_108 = matQ_k_val_106 + matQ_k_val_73  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_110 = gl.expand_dims(matQ_k_val_108, 0)  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_115 = matQ_k_val_110 >= 0  # elementwise0_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_116 = matQ_k_val_110 < 8192  # elementwise0_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_117 = matQ_k_val_115 & matQ_k_val_116  # elementwise0_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_118 = matQ_k_val_117.broadcast_to([64, 128])  # elementwise1_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_119 = matQ_k_val_75 & matQ_k_val_118  # elementwise1_matQ_k_val: stage 1, partition 0 (group 0)
        vecF_val_86 = vecF_val_67 + matQ_k_ptr_84  # load1_vecF_val: stage 0, partition 0 (group 0)
        vecF_val_87 = vecF_val_86  # load1_vecF_val: stage 0, partition 0 (group 0)
        vecF_val_88 = vecF_val_87 + vecF_val_70  # load1_vecF_val: stage 0, partition 0 (group 0)
        vecF_val_89 = gl.load(vecF_val_88)  # load1_vecF_val: stage 0, partition 0 (group 0)
        vecFlogsig_val = 0.0 - vecF_val_89_p1  # sfu0_vecFlogsig_val: stage 1, partition 0 (group 0)
        vecFlogsig_val_90 = gl.exp(vecFlogsig_val)  # sfu0_vecFlogsig_val: stage 1, partition 0 (group 0)
        vecFlogsig_val_91 = vecFlogsig_val_90 + 1.0  # sfu1_vecFlogsig_val: stage 1, partition 0 (group 0)
        vecFlogsig_val_92 = 1.0 / vecFlogsig_val_91  # sfu1_vecFlogsig_val: stage 1, partition 0 (group 0)
        vecFlogsig_val_93 = gl.log(vecFlogsig_val_92)  # sfu1_vecFlogsig_val: stage 1, partition 0 (group 0)
        vecM_combine_k_val_97 = vecM_combine_k_val + matQ_k_ptr_84  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
        vecM_combine_k_val_98 = vecM_combine_k_val_97  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
        scaM_inter_km1_val_94 = scaM_inter_km1_val_71 + matQ_k_ptr_83  # load2_scaM_inter_km1_val: stage 0, partition 0 (group 0)
        vecM_combine_k_val_99 = vecM_combine_k_val_98 + vecF_val_70  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
        scaM_inter_km1_val_95 = gl.load(scaM_inter_km1_val_94)  # load2_scaM_inter_km1_val: stage 0, partition 0 (group 0)
        vecM_combine_k_val_100 = gl.load(vecM_combine_k_val_99)  # load4_vecM_combine_k_val: stage 0, partition 0 (group 0)
        vecB_val = gl.associative_scan(vecFlogsig_val_93, 0, twill_add)  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
        vecBbar_k_val = scaM_inter_km1_val_95_p1  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
        vecBbar_k_val_103 = vecB_val + vecBbar_k_val  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
        vecBbar_k_val_104 = vecBbar_k_val_103 - vecM_combine_k_val_100_p1  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
        vecBbar_k_val_105 = gl.exp(vecBbar_k_val_104)  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
        matQbar_k_val_122 = gl.convert_layout(vecBbar_k_val_105, L8)  # convert1_matQbar_k_val: stage 1, partition 0 (group 0)
        scaG_k_val = gl.sum(vecFlogsig_val_93, axis=0)  # reduce0_scaG_k_val: stage 1, partition 0 (group 0)
        matDeltaH_k_val_149 = matDeltaH_k_val_148_p1.to(gl.bfloat16)  # convert5_matDeltaH_k_val: stage 2, partition 0 (group 0)
        matQ_k_ptr_82 = 64 - (0 + (twill_b - 0) * 1)  # store0: stage 0, partition 0 (group 0)
        scaM_inter_k_val = scaM_inter_km1_val_71 + matQ_k_ptr_82  # load3_scaM_inter_k_val: stage 0, partition 0 (group 0)
        scaM_inter_k_val_96 = gl.load(scaM_inter_k_val)  # load3_scaM_inter_k_val: stage 0, partition 0 (group 0)
        scaGbar_k_val = scaG_k_val + scaM_inter_km1_val_95_p1  # sfu3_scaGbar_k_val: stage 1, partition 0 (group 0)
        scaGbar_k_val_101 = scaGbar_k_val - scaM_inter_k_val_96_p1  # sfu3_scaGbar_k_val: stage 1, partition 0 (group 0)
        scaGbar_k_val_102 = gl.exp(scaGbar_k_val_101)  # sfu3_scaGbar_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_111 = matQ_k_val_110 * 256  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_112 = matQ_k_val_111.broadcast_to([64, 128])  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_113 = matQ_k_val_72 + matQ_k_val_112  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        matQ_k_val_120 = matQ_k_val_120_as.index((twill_b - 2) % 2).load(L11)  # load0_matQ_k_val: stage 2, partition 0 (group 0)
        matQ_k_val_114 = matQ_k_ptr_65 + matQ_k_val_113  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load0_matQ_k_val: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(matQ_k_val_120_as.index((twill_b - 1) % 2), matQ_k_val_114, mask=matQ_k_val_119)  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        else:  # load0_matQ_k_val: stage 1, partition 0 (group 0)
            matQ_k_val_120_as.index((twill_b - 1) % 2).store(gl.load(matQ_k_val_114, mask=matQ_k_val_119))  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        matQbar_k_val = gl.convert_layout(matQ_k_val_120, L12)  # convert0_matQbar_k_val: stage 2, partition 0 (group 0)
        matQ_k_val_121 = matQbar_k_val.to(gl.float32)  # convert0_matQbar_k_val: stage 2, partition 0 (group 0)
        matQbar_k_val_123 = gl.expand_dims(matQbar_k_val_122_p1, 0)  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
        matQbar_k_val_124 = matQbar_k_val_123.broadcast_to([64, 128])  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
        matQbar_k_val_125 = matQ_k_val_121 * matQbar_k_val_124  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
        matQbar_k_val_126 = matQbar_k_val_125 * 0.0625  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
        matQbar_k_val_127 = matQbar_k_val_126.to(gl.bfloat16)  # convert2_matQbar_k_val: stage 2, partition 0 (group 0)
        vecN_out_k_val_128 = vecN_out_k_val + matQ_k_ptr_84  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
        vecN_out_k_val_129 = vecN_out_k_val_128  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
        vecN_out_k_val_130 = vecN_out_k_val_129 + vecF_val_70  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
        vecN_out_k_val_131 = gl.load(vecN_out_k_val_130)  # load6_vecN_out_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_132 = gl.convert_layout(vecN_out_k_val_131_p1, L6)  # convert3_matDeltaH_k_val: stage 1, partition 0 (group 0)
        matDeltaH_k_val_145 = gl.expand_dims(matDeltaH_k_val_132, 1)  # elementwise5_matDeltaH_k_val: stage 1, partition 0 (group 0)
        matDeltaH_k_val_146 = matDeltaH_k_val_145 + 9.99999997e-07  # elementwise5_matDeltaH_k_val: stage 1, partition 0 (group 0)
        matDeltaC_k_val_151 = scaGbar_k_val_102_p1  # elementwise7_matDeltaC_k_val: stage 2, partition 0 (group 0)
        matDeltaC_k_val_152 = matDeltaC_k_val_151 * matDeltaC_k_val_153_p1  # elementwise7_matDeltaC_k_val: stage 2, partition 0 (group 0)
        matDeltaH_k_val_150 = matDeltaH_k_val_150_st.index((twill_b - 2) % 2)  # local_store0_matDeltaH_k_val: stage 2, partition 0 (group 0)
        matDeltaH_k_val_150.store(matDeltaH_k_val_149)  # local_store0_matDeltaH_k_val: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_matDeltaH_k_val: stage 2, partition 0 (group 0)
        tok_matDeltaC_k_val_153 = warpgroup_mma(matQbar_k_val_127, matDeltaH_k_val_150, matDeltaC_k_val_152, is_async=True)  # dot0_matDeltaC_k_val: stage 2, partition 0 (group 0)
        v6 = matQ_k_ptr_82_p1 % 2  # store0: stage 1, partition 0 (group 0)
        v7 = v6 == 0  # store0: stage 1, partition 0 (group 0)
        if v7:  # store0: stage 1, partition 0 (group 0)
            matDeltaC_k_val_153_w = warpgroup_mma_wait(0, deps=(tok_matDeltaC_k_val_153,))  # store0: stage 1, partition 0 (group 0)
            idx_k_save = matQ_k_ptr_82_p1 // 2  # store0: stage 1, partition 0 (group 0)
            matDeltaCstates_k_ptr = v2 * 4325376  # store0: stage 1, partition 0 (group 0)
            matDeltaCstates_k_ptr_154 = matDeltaC_states + matDeltaCstates_k_ptr  # store0: stage 1, partition 0 (group 0)
            matDeltaCstates_k_ptr_155 = idx_k_save * 131072  # store0: stage 1, partition 0 (group 0)
            matDeltaCstates_k_ptr_156 = matDeltaCstates_k_ptr_154 + matDeltaCstates_k_ptr_155  # store0: stage 1, partition 0 (group 0)
            v9 = matDeltaCstates_k_ptr_156 + matDeltaC_k_val_46  # store0: stage 1, partition 0 (group 0)
            v10 = gl.convert_layout(matDeltaC_k_val_153_w, L9)  # store0: stage 1, partition 0 (group 0)
            gl.store(v9, v10, mask=matDeltaC_k_val_62)  # store0: stage 1, partition 0 (group 0)
        matDeltaH_k_val_143 = matDeltaH_k_val_143_as.index((twill_b - 1) % 2).load(L10)  # load5_matDeltaH_k_val: stage 1, partition 0 (group 0)
        matDeltaH_k_val_134 = matDeltaH_k_val_133 * 512  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_135 = matDeltaH_k_val_134.broadcast_to([128, 64])  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_136 = matDeltaH_k_val_135 + matDeltaH_k_val_76  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_137 = matDeltaH_ptr_66 + matDeltaH_k_val_136  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(matDeltaH_k_val_143_as.index((twill_b - 0) % 2), matDeltaH_k_val_137, mask=matDeltaH_k_val_142)  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        else:  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
            matDeltaH_k_val_143_as.index((twill_b - 0) % 2).store(gl.load(matDeltaH_k_val_137, mask=matDeltaH_k_val_142))  # load5_matDeltaH_k_val: stage 0, partition 0 (group 0)
        matDeltaH_k_val_144 = matDeltaH_k_val_143.to(gl.float32)  # convert4_matDeltaH_k_val: stage 1, partition 0 (group 0)
        matDeltaH_k_val_147 = matDeltaH_k_val_146.broadcast_to([128, 64])  # elementwise6_matDeltaH_k_val: stage 1, partition 0 (group 0)
        matDeltaH_k_val_148 = matDeltaH_k_val_144 / matDeltaH_k_val_147  # elementwise6_matDeltaH_k_val: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        matDeltaC_k_val_153 = warpgroup_mma_wait(0, deps=(tok_matDeltaC_k_val_153,))
        matDeltaC_k_val_153_p1 = matDeltaC_k_val_153
        matDeltaH_k_val_148_p1 = matDeltaH_k_val_148
        matQ_k_ptr_82_p1 = matQ_k_ptr_82
        matQ_k_ptr_85_p1 = matQ_k_ptr_85
        matQbar_k_val_122_p1 = matQbar_k_val_122
        scaGbar_k_val_102_p1 = scaGbar_k_val_102
        scaM_inter_k_val_96_p1 = scaM_inter_k_val_96
        scaM_inter_km1_val_95_p1 = scaM_inter_km1_val_95
        vecF_val_89_p1 = vecF_val_89
        vecM_combine_k_val_100_p1 = vecM_combine_k_val_100
        vecN_out_k_val_131_p1 = vecN_out_k_val_131
    matQ_k_val_106 = matQ_k_ptr_85_p1  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_108 = matQ_k_val_106 + matQ_k_val_73  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_110 = gl.expand_dims(matQ_k_val_108, 0)  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_115 = matQ_k_val_110 >= 0  # elementwise0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_116 = matQ_k_val_110 < 8192  # elementwise0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_117 = matQ_k_val_115 & matQ_k_val_116  # elementwise0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_118 = matQ_k_val_117.broadcast_to([64, 128])  # elementwise1_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_119 = matQ_k_val_75 & matQ_k_val_118  # elementwise1_matQ_k_val: stage 1, partition 0 (group 0)
    vecFlogsig_val = 0.0 - vecF_val_89_p1  # sfu0_vecFlogsig_val: stage 1, partition 0 (group 0)
    vecFlogsig_val_90 = gl.exp(vecFlogsig_val)  # sfu0_vecFlogsig_val: stage 1, partition 0 (group 0)
    vecFlogsig_val_91 = vecFlogsig_val_90 + 1.0  # sfu1_vecFlogsig_val: stage 1, partition 0 (group 0)
    vecFlogsig_val_92 = 1.0 / vecFlogsig_val_91  # sfu1_vecFlogsig_val: stage 1, partition 0 (group 0)
    vecFlogsig_val_93 = gl.log(vecFlogsig_val_92)  # sfu1_vecFlogsig_val: stage 1, partition 0 (group 0)
    vecB_val = gl.associative_scan(vecFlogsig_val_93, 0, twill_add)  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
    vecBbar_k_val = scaM_inter_km1_val_95_p1  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
    vecBbar_k_val_103 = vecB_val + vecBbar_k_val  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
    vecBbar_k_val_104 = vecBbar_k_val_103 - vecM_combine_k_val_100_p1  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
    vecBbar_k_val_105 = gl.exp(vecBbar_k_val_104)  # sfu2_vecBbar_k_val: stage 1, partition 0 (group 0)
    matQbar_k_val_122 = gl.convert_layout(vecBbar_k_val_105, L8)  # convert1_matQbar_k_val: stage 1, partition 0 (group 0)
    scaG_k_val = gl.sum(vecFlogsig_val_93, axis=0)  # reduce0_scaG_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_149 = matDeltaH_k_val_148_p1.to(gl.bfloat16)  # convert5_matDeltaH_k_val: stage 2, partition 0 (group 0)
    scaGbar_k_val = scaG_k_val + scaM_inter_km1_val_95_p1  # sfu3_scaGbar_k_val: stage 1, partition 0 (group 0)
    scaGbar_k_val_101 = scaGbar_k_val - scaM_inter_k_val_96_p1  # sfu3_scaGbar_k_val: stage 1, partition 0 (group 0)
    scaGbar_k_val_102 = gl.exp(scaGbar_k_val_101)  # sfu3_scaGbar_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_111 = matQ_k_val_110 * 256  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_112 = matQ_k_val_111.broadcast_to([64, 128])  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQ_k_val_113 = matQ_k_val_72 + matQ_k_val_112  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    matQ_k_val_120 = matQ_k_val_120_as.index(((twill_n - 1 + 1) - 2) % 2).load(L11)  # load0_matQ_k_val: stage 2, partition 0 (group 0)
    matQ_k_val_114 = matQ_k_ptr_65 + matQ_k_val_113  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    if TWILL_COPY:  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(matQ_k_val_120_as.index(((twill_n - 1 + 1) - 1) % 2), matQ_k_val_114, mask=matQ_k_val_119)  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    else:  # load0_matQ_k_val: stage 1, partition 0 (group 0)
        matQ_k_val_120_as.index(((twill_n - 1 + 1) - 1) % 2).store(gl.load(matQ_k_val_114, mask=matQ_k_val_119))  # load0_matQ_k_val: stage 1, partition 0 (group 0)
    matQbar_k_val = gl.convert_layout(matQ_k_val_120, L12)  # convert0_matQbar_k_val: stage 2, partition 0 (group 0)
    matQ_k_val_121 = matQbar_k_val.to(gl.float32)  # convert0_matQbar_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val_123 = gl.expand_dims(matQbar_k_val_122_p1, 0)  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val_124 = matQbar_k_val_123.broadcast_to([64, 128])  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val_125 = matQ_k_val_121 * matQbar_k_val_124  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val_126 = matQbar_k_val_125 * 0.0625  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val_127 = matQbar_k_val_126.to(gl.bfloat16)  # convert2_matQbar_k_val: stage 2, partition 0 (group 0)
    matDeltaH_k_val_132 = gl.convert_layout(vecN_out_k_val_131_p1, L6)  # convert3_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_145 = gl.expand_dims(matDeltaH_k_val_132, 1)  # elementwise5_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_146 = matDeltaH_k_val_145 + 9.99999997e-07  # elementwise5_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaC_k_val_151 = scaGbar_k_val_102_p1  # elementwise7_matDeltaC_k_val: stage 2, partition 0 (group 0)
    matDeltaC_k_val_152 = matDeltaC_k_val_151 * matDeltaC_k_val_153_p1  # elementwise7_matDeltaC_k_val: stage 2, partition 0 (group 0)
    matDeltaH_k_val_150 = matDeltaH_k_val_150_st.index(((twill_n - 1 + 1) - 2) % 2)  # local_store0_matDeltaH_k_val: stage 2, partition 0 (group 0)
    matDeltaH_k_val_150.store(matDeltaH_k_val_149)  # local_store0_matDeltaH_k_val: stage 2, partition 0 (group 0)
    fence_async_shared()  # local_store0_matDeltaH_k_val: stage 2, partition 0 (group 0)
    tok_matDeltaC_k_val_153 = warpgroup_mma(matQbar_k_val_127, matDeltaH_k_val_150, matDeltaC_k_val_152, is_async=True)  # dot0_matDeltaC_k_val: stage 2, partition 0 (group 0)
    v6 = matQ_k_ptr_82_p1 % 2  # store0: stage 1, partition 0 (group 0)
    v7 = v6 == 0  # store0: stage 1, partition 0 (group 0)
    if v7:  # store0: stage 1, partition 0 (group 0)
        matDeltaC_k_val_153_w = warpgroup_mma_wait(0, deps=(tok_matDeltaC_k_val_153,))  # store0: stage 1, partition 0 (group 0)
        idx_k_save = matQ_k_ptr_82_p1 // 2  # store0: stage 1, partition 0 (group 0)
        matDeltaCstates_k_ptr = v2 * 4325376  # store0: stage 1, partition 0 (group 0)
        matDeltaCstates_k_ptr_154 = matDeltaC_states + matDeltaCstates_k_ptr  # store0: stage 1, partition 0 (group 0)
        matDeltaCstates_k_ptr_155 = idx_k_save * 131072  # store0: stage 1, partition 0 (group 0)
        matDeltaCstates_k_ptr_156 = matDeltaCstates_k_ptr_154 + matDeltaCstates_k_ptr_155  # store0: stage 1, partition 0 (group 0)
        v9 = matDeltaCstates_k_ptr_156 + matDeltaC_k_val_46  # store0: stage 1, partition 0 (group 0)
        v10 = gl.convert_layout(matDeltaC_k_val_153_w, L9)  # store0: stage 1, partition 0 (group 0)
        gl.store(v9, v10, mask=matDeltaC_k_val_62)  # store0: stage 1, partition 0 (group 0)
    matDeltaH_k_val_143 = matDeltaH_k_val_143_as.index(((twill_n - 1 + 1) - 1) % 2).load(L10)  # load5_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_144 = matDeltaH_k_val_143.to(gl.float32)  # convert4_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_147 = matDeltaH_k_val_146.broadcast_to([128, 64])  # elementwise6_matDeltaH_k_val: stage 1, partition 0 (group 0)
    matDeltaH_k_val_148 = matDeltaH_k_val_144 / matDeltaH_k_val_147  # elementwise6_matDeltaH_k_val: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    matDeltaC_k_val_153 = warpgroup_mma_wait(0, deps=(tok_matDeltaC_k_val_153,))
    matDeltaC_k_val_153_p1 = matDeltaC_k_val_153
    matDeltaH_k_val_148_p1 = matDeltaH_k_val_148
    matQ_k_ptr_82_p1 = matQ_k_ptr_82
    matQ_k_ptr_85_p1 = matQ_k_ptr_85
    matQbar_k_val_122_p1 = matQbar_k_val_122
    scaGbar_k_val_102_p1 = scaGbar_k_val_102
    scaM_inter_k_val_96_p1 = scaM_inter_k_val_96
    scaM_inter_km1_val_95_p1 = scaM_inter_km1_val_95
    vecF_val_89_p1 = vecF_val_89
    vecM_combine_k_val_100_p1 = vecM_combine_k_val_100
    vecN_out_k_val_131_p1 = vecN_out_k_val_131
    matDeltaH_k_val_149 = matDeltaH_k_val_148_p1.to(gl.bfloat16)  # convert5_matDeltaH_k_val: stage 2, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    matQ_k_val_120 = matQ_k_val_120_as.index(((twill_n - 1 + 2) - 2) % 2).load(L11)  # load0_matQ_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val = gl.convert_layout(matQ_k_val_120, L12)  # convert0_matQbar_k_val: stage 2, partition 0 (group 0)
    matQ_k_val_121 = matQbar_k_val.to(gl.float32)  # convert0_matQbar_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val_123 = gl.expand_dims(matQbar_k_val_122_p1, 0)  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val_124 = matQbar_k_val_123.broadcast_to([64, 128])  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val_125 = matQ_k_val_121 * matQbar_k_val_124  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val_126 = matQbar_k_val_125 * 0.0625  # elementwise2_matQbar_k_val: stage 2, partition 0 (group 0)
    matQbar_k_val_127 = matQbar_k_val_126.to(gl.bfloat16)  # convert2_matQbar_k_val: stage 2, partition 0 (group 0)
    matDeltaC_k_val_151 = scaGbar_k_val_102_p1  # elementwise7_matDeltaC_k_val: stage 2, partition 0 (group 0)
    matDeltaC_k_val_152 = matDeltaC_k_val_151 * matDeltaC_k_val_153_p1  # elementwise7_matDeltaC_k_val: stage 2, partition 0 (group 0)
    matDeltaH_k_val_150 = matDeltaH_k_val_150_st.index(((twill_n - 1 + 2) - 2) % 2)  # local_store0_matDeltaH_k_val: stage 2, partition 0 (group 0)
    matDeltaH_k_val_150.store(matDeltaH_k_val_149)  # local_store0_matDeltaH_k_val: stage 2, partition 0 (group 0)
    fence_async_shared()  # local_store0_matDeltaH_k_val: stage 2, partition 0 (group 0)
    tok_matDeltaC_k_val_153 = warpgroup_mma(matQbar_k_val_127, matDeltaH_k_val_150, matDeltaC_k_val_152, is_async=True)  # dot0_matDeltaC_k_val: stage 2, partition 0 (group 0)
    async_copy.commit_group()
    matDeltaC_k_val_153 = warpgroup_mma_wait(0, deps=(tok_matDeltaC_k_val_153,))
    matDeltaC_k_val_153_p1 = matDeltaC_k_val_153
    matDeltaH_k_val_148_p1 = matDeltaH_k_val_148
    matQ_k_ptr_82_p1 = matQ_k_ptr_82
    matQ_k_ptr_85_p1 = matQ_k_ptr_85
    matQbar_k_val_122_p1 = matQbar_k_val_122
    scaGbar_k_val_102_p1 = scaGbar_k_val_102
    scaM_inter_k_val_96_p1 = scaM_inter_k_val_96
    scaM_inter_km1_val_95_p1 = scaM_inter_km1_val_95
    vecF_val_89_p1 = vecF_val_89
    vecM_combine_k_val_100_p1 = vecM_combine_k_val_100
    vecN_out_k_val_131_p1 = vecN_out_k_val_131
    matDeltaH_k_val_150_st._keep_alive()
    matDeltaCstates_0_ptr = v2 * 4325376
    matDeltaCstates_0_ptr_79 = matDeltaC_states + matDeltaCstates_0_ptr
    v4 = matDeltaCstates_0_ptr_79 + matDeltaC_k_val_46
    v5 = gl.convert_layout(matDeltaC_k_val_153_p1, L9)
    gl.store(v4, v5, mask=matDeltaC_k_val_62)

@gluon.jit
def twill_kernel(matQ, vecF, scaM_inter, vecM_combine, matDeltaH, vecN_out, matDeltaC_last, matDeltaC_states, TWILL_COPY: gl.constexpr):
    consumer_0(matQ, vecF, scaM_inter, vecM_combine, matDeltaH, vecN_out, matDeltaC_last, matDeltaC_states, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['matQ', 'vecF', 'scaM_inter', 'vecM_combine', 'matDeltaH', 'vecN_out', 'matDeltaC_last', 'matDeltaC_states', 'qk_scale', 'str_matQ_B_NH', 'str_matQ_S', 'str_matQ_DHQK', 'str_vecF_B_NH', 'str_scaM_inter_B_NH', 'str_scaM_inter_NC', 'str_vecM_combine_B_NH', 'str_vecM_combine_S', 'str_matDeltaH_B_NH', 'str_matDeltaH_S', 'str_matDeltaH_DHHV', 'str_vecN_out_B_NH', 'str_vecN_out_S', 'str_matDeltaC_last_B_NH', 'str_matDeltaC_last_DHQK', 'str_matDeltaC_last_DHHV', 'str_matDeltaC_states_B_NH', 'str_matDeltaC_states_NCDHQK', 'str_matDeltaC_states_DHHV', 'B', 'NH', 'S', 'DHQK', 'DHHV', 'NC', 'L', 'siz_b_DHQK', 'siz_b_DHHV', 'save_states_every_nth_chunk', 'USE_LAST_STATE', 'DTYPE', 'EPS']          # the Triton kernel's parameters, in order
RUNTIME = ['matQ', 'vecF', 'scaM_inter', 'vecM_combine', 'matDeltaH', 'vecN_out', 'matDeltaC_last', 'matDeltaC_states']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['matQ', 'vecF', 'scaM_inter', 'vecM_combine', 'matDeltaH', 'vecN_out', 'matDeltaC_last', 'matDeltaC_states', 'DTYPE']   # the arguments a launch key reads
CONSTEXPRS = {'qk_scale': 0.0625, 'str_matQ_B_NH': 2097152, 'str_matQ_S': 256, 'str_matQ_DHQK': 1, 'str_vecF_B_NH': 8192, 'str_scaM_inter_B_NH': 65, 'str_scaM_inter_NC': 1, 'str_vecM_combine_B_NH': 8192, 'str_vecM_combine_S': 1, 'str_matDeltaH_B_NH': 4194304, 'str_matDeltaH_S': 512, 'str_matDeltaH_DHHV': 1, 'str_vecN_out_B_NH': 8192, 'str_vecN_out_S': 1, 'str_matDeltaC_last_B_NH': 131072, 'str_matDeltaC_last_DHQK': 512, 'str_matDeltaC_last_DHHV': 1, 'str_matDeltaC_states_B_NH': 4325376, 'str_matDeltaC_states_NCDHQK': 512, 'str_matDeltaC_states_DHHV': 1, 'B': 1, 'NH': 8, 'S': 8192, 'DHQK': 256, 'DHHV': 512, 'NC': 64, 'L': 128, 'siz_b_DHQK': 64, 'siz_b_DHHV': 64, 'save_states_every_nth_chunk': 2, 'USE_LAST_STATE': True, 'EPS': 1e-06}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['matQ', 'matDeltaH']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
