"""chunk_gla_fwd_A_kernel_intra_sub_inter, written by twill from its joint schedule: I=497 L=497 (optimal), 3072 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (b_q_83_as 2 x 2048 B, b_g_85_as 2 x 4096 B, b_k_102_as 2 x 2048 B, b_gk_105_as 2 x 4096 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 2 warps, registers as ptxas allocates them (the schedule's tiles need about 93 per thread)
- shared memory: 24592 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at fla_gla_intra_sub_inter.py:66 (TTGIR line 50): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at fla_gla_intra_sub_inter.py:68 (TTGIR line 55): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[2, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 2], order=[0, 1])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[2], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[2, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 2], order=[0, 1])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8]), k_width=2)))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[2, 1], order=[1, 0]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8]), k_width=2))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 2], instr_shape=[16, 8]), k_width=2))
L10 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[2, 1], order=[1, 0])))
L11 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[2, 1], order=[1, 0])))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[2, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, g, A, scale, T, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    v5 = v1 // 4
    v6 = v1 % 4
    v7 = v3 * T
    v8 = v0 * 64
    v9 = v5 * 16
    v10 = v8 + v9
    o_k = gl.arange(0, 64, layout=L0)
    o_k_14 = gl.arange(0, 64, layout=L1)
    o_k_15 = gl.arange(0, 64, layout=L2)
    p_q = v7 * 4
    p_q_16 = p_q + v4
    p_q_17 = p_q_16 * 128
    p_q_18 = q + p_q_17
    p_q_19 = gl.cast(T, gl.int64)
    p_q_20 = gl.cast(v10, gl.int64)
    p_g = g + p_q_17
    p_k = k + p_q_17
    p_k_21 = v6 * 16
    p_k_22 = v8 + p_k_21
    p_k_23 = gl.cast(p_k_22, gl.int64)
    p_gn = v7 + v8
    p_gn_24 = p_gn + v9
    p_gn_25 = p_gn_24 * 512
    p_gn_26 = g + p_gn_25
    p_gn_27 = v4 * 128
    p_gn_28 = p_gn_26 + p_gn_27
    b_q_31 = gl.arange(0, 16, layout=L3)
    b_q_32 = gl.arange(0, 16, layout=L4)
    b_q_33 = b_q_31.to(gl.int64)
    b_q_34 = b_q_32.to(gl.int64)
    b_q_35 = p_q_20 + b_q_33
    b_q_36 = gl.expand_dims(b_q_35, 1)
    b_q_37 = b_q_36 * 512
    b_q_38 = b_q_37.broadcast_to([16, 64])
    b_q_39 = o_k.to(gl.int64)
    b_q_40 = o_k_14.to(gl.int64)
    b_q_41 = b_q_36 >= 0
    b_q_43 = b_q_36 < p_q_19
    b_q_44 = b_q_41 & b_q_43
    b_q_45 = b_q_44.broadcast_to([16, 64])
    b_k_47 = p_k_23 + b_q_34
    b_k_48 = gl.expand_dims(b_k_47, 0)
    b_k_49 = b_k_48 * 512
    b_k_50 = b_k_49.broadcast_to([64, 16])
    b_k_51 = b_k_48 >= 0
    b_k_53 = b_k_48 < p_q_19
    b_k_54 = b_k_51 & b_k_53
    b_k_55 = b_k_54.broadcast_to([64, 16])
    twill_n = (2 - 0 + 1 - 1) // 1
    b_q_83_as = gl.allocate_shared_memory(gl.float16, [2, 16, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    b_g_85_as = gl.allocate_shared_memory(gl.float32, [2, 16, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    b_k_102_as = gl.allocate_shared_memory(gl.float16, [2, 64, 16], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[0, 1]))
    b_gk_105_as = gl.allocate_shared_memory(gl.float32, [2, 64, 16], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=4, order=[0, 1]))
    b_A_114 = gl.full([16, 16], 0.0, gl.float32, layout=L5)
    o_k_64 = (0 + (0 - 0) * 1) * 64  # load0_b_gn: stage 0, partition 0 (group 0)
    p_q_67 = gl.cast(o_k_64, gl.int64)  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_70 = p_q_67  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_72 = b_q_70 + b_q_39  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_74 = gl.expand_dims(b_q_72, 0)  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_78 = b_q_74 >= 0  # elementwise0_b_q: stage 0, partition 0 (group 0)
    b_q_79 = b_q_74 < 128  # elementwise0_b_q: stage 0, partition 0 (group 0)
    b_q_80 = b_q_78 & b_q_79  # elementwise0_b_q: stage 0, partition 0 (group 0)
    b_q_81 = b_q_80.broadcast_to([16, 64])  # elementwise1_b_q: stage 0, partition 0 (group 0)
    b_q_82 = b_q_45 & b_q_81  # elementwise1_b_q: stage 0, partition 0 (group 0)
    b_q_71 = p_q_67  # load2_b_k: stage 0, partition 0 (group 0)
    b_q_73 = b_q_71 + b_q_40  # load2_b_k: stage 0, partition 0 (group 0)
    b_k_93 = gl.expand_dims(b_q_73, 1)  # load2_b_k: stage 0, partition 0 (group 0)
    b_k_97 = b_k_93 >= 0  # elementwise3_b_k: stage 0, partition 0 (group 0)
    b_k_98 = b_k_93 < 128  # elementwise3_b_k: stage 0, partition 0 (group 0)
    b_k_99 = b_k_97 & b_k_98  # elementwise3_b_k: stage 0, partition 0 (group 0)
    b_k_100 = b_k_99.broadcast_to([64, 16])  # elementwise4_b_k: stage 0, partition 0 (group 0)
    b_k_101 = b_k_100 & b_k_55  # elementwise4_b_k: stage 0, partition 0 (group 0)
    o_k_65 = o_k_64  # load0_b_gn: stage 0, partition 0 (group 0)
    o_k_66 = o_k_65 + o_k_15  # load0_b_gn: stage 0, partition 0 (group 0)
    m_k = o_k_66 < 128  # load0_b_gn: stage 0, partition 0 (group 0)
    p_gn_68 = p_gn_28 + o_k_66  # load0_b_gn: stage 0, partition 0 (group 0)
    b_gn = gl.load(p_gn_68, mask=m_k, other=0.0)  # load0_b_gn: stage 0, partition 0 (group 0)
    b_q_75 = b_q_74.broadcast_to([16, 64])  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_76 = b_q_38 + b_q_75  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_77 = p_q_18 + b_q_76  # load1_b_q: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_b_q: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_q_83_as.index((0 - 0) % 2), b_q_77, mask=b_q_82)  # load1_b_q: stage 0, partition 0 (group 0)
    else:  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_83_as.index((0 - 0) % 2).store(gl.load(b_q_77, mask=b_q_82))  # load1_b_q: stage 0, partition 0 (group 0)
    b_g_84 = p_g + b_q_76  # load3_b_g: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load3_b_g: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_g_85_as.index((0 - 0) % 2), b_g_84, mask=b_q_82)  # load3_b_g: stage 0, partition 0 (group 0)
    else:  # load3_b_g: stage 0, partition 0 (group 0)
        b_g_85_as.index((0 - 0) % 2).store(gl.load(b_g_84, mask=b_q_82))  # load3_b_g: stage 0, partition 0 (group 0)
    b_k_94 = b_k_93.broadcast_to([64, 16])  # load2_b_k: stage 0, partition 0 (group 0)
    b_k_95 = b_k_94 + b_k_50  # load2_b_k: stage 0, partition 0 (group 0)
    b_k_96 = p_k + b_k_95  # load2_b_k: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load2_b_k: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_k_102_as.index((0 - 0) % 2), b_k_96, mask=b_k_101)  # load2_b_k: stage 0, partition 0 (group 0)
    else:  # load2_b_k: stage 0, partition 0 (group 0)
        b_k_102_as.index((0 - 0) % 2).store(gl.load(b_k_96, mask=b_k_101))  # load2_b_k: stage 0, partition 0 (group 0)
    b_gk_104 = p_g + b_k_95  # load4_b_gk: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load4_b_gk: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_gk_105_as.index((0 - 0) % 2), b_gk_104, mask=b_k_101)  # load4_b_gk: stage 0, partition 0 (group 0)
    else:  # load4_b_gk: stage 0, partition 0 (group 0)
        b_gk_105_as.index((0 - 0) % 2).store(gl.load(b_gk_104, mask=b_k_101))  # load4_b_gk: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    b_A_114_p1 = b_A_114
    b_gn_p1 = b_gn
    for twill_b in range(1, twill_n):
        o_k_64 = (0 + (twill_b - 0) * 1) * 64  # load0_b_gn: stage 0, partition 0 (group 0)
        p_q_67 = gl.cast(o_k_64, gl.int64)  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_70 = p_q_67  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_72 = b_q_70 + b_q_39  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_74 = gl.expand_dims(b_q_72, 0)  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_78 = b_q_74 >= 0  # elementwise0_b_q: stage 0, partition 0 (group 0)
        b_q_79 = b_q_74 < 128  # elementwise0_b_q: stage 0, partition 0 (group 0)
        b_q_80 = b_q_78 & b_q_79  # elementwise0_b_q: stage 0, partition 0 (group 0)
        b_q_81 = b_q_80.broadcast_to([16, 64])  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_82 = b_q_45 & b_q_81  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_71 = p_q_67  # load2_b_k: stage 0, partition 0 (group 0)
        b_q_73 = b_q_71 + b_q_40  # load2_b_k: stage 0, partition 0 (group 0)
        b_k_93 = gl.expand_dims(b_q_73, 1)  # load2_b_k: stage 0, partition 0 (group 0)
        b_k_97 = b_k_93 >= 0  # elementwise3_b_k: stage 0, partition 0 (group 0)
        b_k_98 = b_k_93 < 128  # elementwise3_b_k: stage 0, partition 0 (group 0)
        b_k_99 = b_k_97 & b_k_98  # elementwise3_b_k: stage 0, partition 0 (group 0)
        b_k_100 = b_k_99.broadcast_to([64, 16])  # elementwise4_b_k: stage 0, partition 0 (group 0)
        b_k_101 = b_k_100 & b_k_55  # elementwise4_b_k: stage 0, partition 0 (group 0)
        o_k_65 = o_k_64  # load0_b_gn: stage 0, partition 0 (group 0)
        o_k_66 = o_k_65 + o_k_15  # load0_b_gn: stage 0, partition 0 (group 0)
        m_k = o_k_66 < 128  # load0_b_gn: stage 0, partition 0 (group 0)
        p_gn_68 = p_gn_28 + o_k_66  # load0_b_gn: stage 0, partition 0 (group 0)
        b_gn = gl.load(p_gn_68, mask=m_k, other=0.0)  # load0_b_gn: stage 0, partition 0 (group 0)
        b_qg_69 = gl.convert_layout(b_gn_p1, L0)  # convert1_b_qg: stage 1, partition 0 (group 0)
        b_kg = gl.convert_layout(b_gn_p1, L6)  # convert0_b_kg: stage 1, partition 0 (group 0)
        b_q_75 = b_q_74.broadcast_to([16, 64])  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_76 = b_q_38 + b_q_75  # load1_b_q: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_q_83 = b_q_83_as.index((twill_b - 1) % 2).load(L7)  # load1_b_q: stage 1, partition 0 (group 0)
        b_q_77 = p_q_18 + b_q_76  # load1_b_q: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_q: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_q_83_as.index((twill_b - 0) % 2), b_q_77, mask=b_q_82)  # load1_b_q: stage 0, partition 0 (group 0)
        else:  # load1_b_q: stage 0, partition 0 (group 0)
            b_q_83_as.index((twill_b - 0) % 2).store(gl.load(b_q_77, mask=b_q_82))  # load1_b_q: stage 0, partition 0 (group 0)
        b_qg_90 = b_q_83.to(gl.float32)  # convert2_b_qg: stage 1, partition 0 (group 0)
        b_g_85 = b_g_85_as.index((twill_b - 1) % 2).load(L7)  # load3_b_g: stage 1, partition 0 (group 0)
        b_g_84 = p_g + b_q_76  # load3_b_g: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load3_b_g: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_g_85_as.index((twill_b - 0) % 2), b_g_84, mask=b_q_82)  # load3_b_g: stage 0, partition 0 (group 0)
        else:  # load3_b_g: stage 0, partition 0 (group 0)
            b_g_85_as.index((twill_b - 0) % 2).store(gl.load(b_g_84, mask=b_q_82))  # load3_b_g: stage 0, partition 0 (group 0)
        b_qg_86 = gl.expand_dims(b_qg_69, 0)  # sfu0_b_qg: stage 1, partition 0 (group 0)
        b_qg_87 = b_qg_86.broadcast_to([16, 64])  # sfu0_b_qg: stage 1, partition 0 (group 0)
        b_qg_88 = b_g_85 - b_qg_87  # sfu0_b_qg: stage 1, partition 0 (group 0)
        b_qg_89 = gl.exp2(b_qg_88)  # sfu0_b_qg: stage 1, partition 0 (group 0)
        b_qg_91 = b_qg_90 * b_qg_89  # elementwise2_b_qg: stage 1, partition 0 (group 0)
        b_qg_92 = b_qg_91 * scale  # elementwise2_b_qg: stage 1, partition 0 (group 0)
        b_qg_113 = gl.convert_layout(b_qg_92, L8)  # convert5_b_qg: stage 1, partition 0 (group 0)
        b_k_94 = b_k_93.broadcast_to([64, 16])  # load2_b_k: stage 0, partition 0 (group 0)
        b_k_102 = b_k_102_as.index((twill_b - 1) % 2).load(L9)  # load2_b_k: stage 1, partition 0 (group 0)
        b_k_95 = b_k_94 + b_k_50  # load2_b_k: stage 0, partition 0 (group 0)
        b_k_96 = p_k + b_k_95  # load2_b_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_b_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_k_102_as.index((twill_b - 0) % 2), b_k_96, mask=b_k_101)  # load2_b_k: stage 0, partition 0 (group 0)
        else:  # load2_b_k: stage 0, partition 0 (group 0)
            b_k_102_as.index((twill_b - 0) % 2).store(gl.load(b_k_96, mask=b_k_101))  # load2_b_k: stage 0, partition 0 (group 0)
        b_kg_103 = gl.convert_layout(b_k_102, L9)  # convert3_b_kg: stage 1, partition 0 (group 0)
        b_kg_111 = b_kg_103.to(gl.float32)  # convert3_b_kg: stage 1, partition 0 (group 0)
        b_gk_105 = b_gk_105_as.index((twill_b - 1) % 2).load(L9)  # load4_b_gk: stage 1, partition 0 (group 0)
        b_gk_104 = p_g + b_k_95  # load4_b_gk: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load4_b_gk: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_gk_105_as.index((twill_b - 0) % 2), b_gk_104, mask=b_k_101)  # load4_b_gk: stage 0, partition 0 (group 0)
        else:  # load4_b_gk: stage 0, partition 0 (group 0)
            b_gk_105_as.index((twill_b - 0) % 2).store(gl.load(b_gk_104, mask=b_k_101))  # load4_b_gk: stage 0, partition 0 (group 0)
        b_kg_106 = gl.convert_layout(b_gk_105, L9)  # convert4_b_kg: stage 1, partition 0 (group 0)
        b_kg_107 = gl.expand_dims(b_kg, 1)  # sfu1_b_kg: stage 1, partition 0 (group 0)
        b_kg_108 = b_kg_107.broadcast_to([64, 16])  # sfu1_b_kg: stage 1, partition 0 (group 0)
        b_kg_109 = b_kg_108 - b_kg_106  # sfu1_b_kg: stage 1, partition 0 (group 0)
        b_kg_110 = gl.exp2(b_kg_109)  # sfu1_b_kg: stage 1, partition 0 (group 0)
        b_kg_112 = b_kg_111 * b_kg_110  # elementwise5_b_kg: stage 1, partition 0 (group 0)
        b_A_114 = mma_v2(b_qg_113, b_kg_112, b_A_114_p1, input_precision='tf32')  # dot0_b_A: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_A_114_p1 = b_A_114
        b_gn_p1 = b_gn
    b_qg_69 = gl.convert_layout(b_gn_p1, L0)  # convert1_b_qg: stage 1, partition 0 (group 0)
    b_kg = gl.convert_layout(b_gn_p1, L6)  # convert0_b_kg: stage 1, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    b_q_83 = b_q_83_as.index(((twill_n - 1 + 1) - 1) % 2).load(L7)  # load1_b_q: stage 1, partition 0 (group 0)
    b_qg_90 = b_q_83.to(gl.float32)  # convert2_b_qg: stage 1, partition 0 (group 0)
    b_g_85 = b_g_85_as.index(((twill_n - 1 + 1) - 1) % 2).load(L7)  # load3_b_g: stage 1, partition 0 (group 0)
    b_qg_86 = gl.expand_dims(b_qg_69, 0)  # sfu0_b_qg: stage 1, partition 0 (group 0)
    b_qg_87 = b_qg_86.broadcast_to([16, 64])  # sfu0_b_qg: stage 1, partition 0 (group 0)
    b_qg_88 = b_g_85 - b_qg_87  # sfu0_b_qg: stage 1, partition 0 (group 0)
    b_qg_89 = gl.exp2(b_qg_88)  # sfu0_b_qg: stage 1, partition 0 (group 0)
    b_qg_91 = b_qg_90 * b_qg_89  # elementwise2_b_qg: stage 1, partition 0 (group 0)
    b_qg_92 = b_qg_91 * scale  # elementwise2_b_qg: stage 1, partition 0 (group 0)
    b_qg_113 = gl.convert_layout(b_qg_92, L8)  # convert5_b_qg: stage 1, partition 0 (group 0)
    b_k_102 = b_k_102_as.index(((twill_n - 1 + 1) - 1) % 2).load(L9)  # load2_b_k: stage 1, partition 0 (group 0)
    b_kg_103 = gl.convert_layout(b_k_102, L9)  # convert3_b_kg: stage 1, partition 0 (group 0)
    b_kg_111 = b_kg_103.to(gl.float32)  # convert3_b_kg: stage 1, partition 0 (group 0)
    b_gk_105 = b_gk_105_as.index(((twill_n - 1 + 1) - 1) % 2).load(L9)  # load4_b_gk: stage 1, partition 0 (group 0)
    b_kg_106 = gl.convert_layout(b_gk_105, L9)  # convert4_b_kg: stage 1, partition 0 (group 0)
    b_kg_107 = gl.expand_dims(b_kg, 1)  # sfu1_b_kg: stage 1, partition 0 (group 0)
    b_kg_108 = b_kg_107.broadcast_to([64, 16])  # sfu1_b_kg: stage 1, partition 0 (group 0)
    b_kg_109 = b_kg_108 - b_kg_106  # sfu1_b_kg: stage 1, partition 0 (group 0)
    b_kg_110 = gl.exp2(b_kg_109)  # sfu1_b_kg: stage 1, partition 0 (group 0)
    b_kg_112 = b_kg_111 * b_kg_110  # elementwise5_b_kg: stage 1, partition 0 (group 0)
    b_A_114 = mma_v2(b_qg_113, b_kg_112, b_A_114_p1, input_precision='tf32')  # dot0_b_A: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    b_A_114_p1 = b_A_114
    b_gn_p1 = b_gn
    p_A = v7 * 4
    p_A_56 = p_A + v4
    p_A_57 = p_A_56 * 64
    p_A_58 = A + p_A_57
    p_A_59 = v6 * 16
    p_A_60 = gl.cast(T, gl.int64)
    p_A_61 = gl.cast(v10, gl.int64)
    p_A_62 = gl.cast(p_A_59, gl.int64)
    v15 = gl.arange(0, 16, layout=L10)
    v16 = gl.arange(0, 16, layout=L11)
    v17 = v15.to(gl.int64)
    v18 = v16.to(gl.int64)
    v19 = p_A_61 + v17
    v20 = gl.expand_dims(v19, 1)
    v21 = v20 * 256
    v22 = v21.broadcast_to([16, 16])
    v24 = p_A_62 + v18
    v25 = gl.expand_dims(v24, 0)
    v26 = v25.broadcast_to([16, 16])
    v27 = v22 + v26
    v28 = p_A_58 + v27
    v29 = v20 >= 0
    v31 = v20 < p_A_60
    v32 = v29 & v31
    v33 = v32.broadcast_to([16, 16])
    v34 = v25 >= 0
    v35 = v25 < 64
    v36 = v34 & v35
    v37 = v36.broadcast_to([16, 16])
    v38 = v33 & v37
    v39 = gl.convert_layout(b_A_114_p1, L12)
    gl.store(v28, v39, mask=v38)

@gluon.jit
def twill_kernel(q, k, g, A, scale, T, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v5 = v1 // 4
    v8 = v0 * 64
    v9 = v5 * 16
    v10 = v8 + v9
    v11 = v10 >= T
    if v11:
        return
    v1 = gl.program_id(1)
    v5 = v1 // 4
    v6 = v1 % 4
    v12 = v5 <= v6
    if v12:
        return
    consumer_0(q, k, g, A, scale, T, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'g', 'A', 'cu_seqlens', 'chunk_indices', 'scale', 'T', 'H', 'K', 'BT', 'BC', 'BK', 'NC', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'g', 'A', 'scale', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'g', 'A', 'cu_seqlens', 'chunk_indices', 'scale', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'H': 4, 'K': 128, 'BT': 64, 'BC': 16, 'BK': 64, 'NC': 4, 'IS_VARLEN': False}         # the specialisation this kernel was generated for
HEURISTICS = {'IS_VARLEN': "lambda args: args['cu_seqlens'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 2
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['q', 'k', 'g']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
