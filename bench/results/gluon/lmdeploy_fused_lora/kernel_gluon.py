"""_fused_lora_kernel, written by twill from its joint schedule: I=203 L=203 (optimal), 1624 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (lb_89_as 2 x 4096 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 80 per thread)
- shared memory: 8208 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at lmdeploy_fused_lora.py:148 (TTGIR line 117) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=270, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- early return at lmdeploy_fused_lora.py:112 (TTGIR line 41): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at lmdeploy_fused_lora.py:122 (TTGIR line 56): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- if at lmdeploy_fused_lora.py:132 (TTGIR line 80) around the scheduled loop: taken as an early return where its condition holds in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]))
L5 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]), k_width=2))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]), k_width=2))
L7 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L10 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, lora_a_ptr, lora_b_ptr, c_ptr, scaling_ptr, rank_start_ptr, ranks_ptr, seq_start_ptr, seq_lens_ptr, adapter_ids_ptr, stride_am, stride_cm, TWILL_COPY: gl.constexpr):
    twill_base = 0
    pid = gl.program_id(0)
    bid = gl.program_id(1)
    M = seq_lens_ptr + bid
    M_9 = gl.load(M)
    seq_start = seq_start_ptr + bid
    seq_start_10 = gl.load(seq_start)
    adapter_id = adapter_ids_ptr + bid
    adapter_id_11 = gl.load(adapter_id)
    rank_start = rank_start_ptr + adapter_id_11
    rank_start_12 = gl.load(rank_start)
    rank = ranks_ptr + adapter_id_11
    rank_13 = gl.load(rank)
    v1 = pid * 32
    v2 = gl.cast(v1, gl.int64)
    offs_m = seq_start_10 + v2
    offs_m_14 = gl.arange(0, 32, layout=L0)
    offs_m_15 = offs_m_14.to(gl.int64)
    offs_m_17 = offs_m + offs_m_15
    offs_n = gl.arange(0, 128, layout=L1)
    mask_cm_18 = v1 + offs_m_14
    mask_cm_19 = mask_cm_18.to(gl.int64)
    mask_cm_21 = mask_cm_19 < M_9
    c_ptrs = gl.expand_dims(offs_m_17, 1)
    c_ptrs_22 = gl.cast(stride_cm, gl.int64)
    c_ptrs_24 = c_ptrs_22 * c_ptrs
    c_ptrs_26 = c_ptr + c_ptrs_24
    c_ptrs_27 = gl.expand_dims(offs_n, 0)
    c_ptrs_28 = c_ptrs_26.broadcast_to([32, 128])
    c_ptrs_29 = c_ptrs_27.broadcast_to([32, 128])
    c_ptrs_30 = c_ptrs_28 + c_ptrs_29
    offs_am = mask_cm_19 % M_9
    offs_am_32 = seq_start_10 + offs_am
    offs_r = gl.arange(0, 16, layout=L2)
    offs_r_33 = gl.arange(0, 16, layout=L0)
    offs_r_34 = offs_r.to(gl.int64)
    offs_r_35 = offs_r_33.to(gl.int64)
    offs_r_38 = offs_r_34 % rank_13
    offs_r_39 = offs_r_35 % rank_13
    offs_r_42 = rank_start_12 + offs_r_38
    offs_r_43 = rank_start_12 + offs_r_39
    a_ptrs = gl.expand_dims(offs_am_32, 1)
    a_ptrs_44 = gl.cast(stride_am, gl.int64)
    a_ptrs_46 = a_ptrs * a_ptrs_44
    a_ptrs_47 = c_ptrs_27.to(gl.int64)
    a_ptrs_48 = a_ptrs_46.broadcast_to([32, 128])
    a_ptrs_49 = a_ptrs_47.broadcast_to([32, 128])
    a_ptrs_50 = a_ptrs_48 + a_ptrs_49
    a_ptrs_52 = a_ptr + a_ptrs_50
    la_ptrs = gl.arange(0, 128, layout=L3)
    la_ptrs_53 = gl.expand_dims(la_ptrs, 1)
    la_ptrs_54 = gl.expand_dims(offs_r_42, 0)
    la_ptrs_55 = la_ptrs_54 * 4096
    la_ptrs_56 = la_ptrs_53.to(gl.int64)
    la_ptrs_57 = la_ptrs_56.broadcast_to([128, 16])
    la_ptrs_58 = la_ptrs_55.broadcast_to([128, 16])
    la_ptrs_59 = la_ptrs_57 + la_ptrs_58
    la_ptrs_61 = lora_a_ptr + la_ptrs_59
    twill_n = (32 - 0 + 1 - 1) // 1
    la_92_as = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 16], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[0, 1]))
    a_89_as = gl.allocate_shared_memory(gl.bfloat16, [2, 32, 128], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
    a_ptrs_96 = a_ptrs_52
    la_ptrs_97 = la_ptrs_61
    a_ptrs_96_p1 = a_ptrs_96
    la_ptrs_97_p1 = la_ptrs_97
    accumulator_95 = gl.full([32, 16], 0.0, gl.float32, layout=L4)
    a = (0 + (0 - 0) * 1) * 128  # load0_a: stage 0, partition 0 (group 0)
    a_85 = 4096 - a  # load0_a: stage 0, partition 0 (group 0)
    la = a_85  # load1_la: stage 0, partition 0 (group 0)
    la_90 = la_ptrs_53 < la  # load1_la: stage 0, partition 0 (group 0)
    la_91 = la_90.broadcast_to([128, 16])  # load1_la: stage 0, partition 0 (group 0)
    la_ptrs_97 = la_ptrs_97_p1 + 128  # load1_la: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_la: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(la_92_as.index((twill_base + 0 - 0) % 2), la_ptrs_97_p1, mask=la_91)  # load1_la: stage 0, partition 0 (group 0)
    else:  # load1_la: stage 0, partition 0 (group 0)
        la_92_as.index((twill_base + 0 - 0) % 2).store(gl.load(la_ptrs_97_p1, mask=la_91, other=0.0))  # load1_la: stage 0, partition 0 (group 0)
    a_86 = a_85  # load0_a: stage 0, partition 0 (group 0)
    a_87 = c_ptrs_27 < a_86  # load0_a: stage 0, partition 0 (group 0)
    a_88 = a_87.broadcast_to([32, 128])  # load0_a: stage 0, partition 0 (group 0)
    a_ptrs_96 = a_ptrs_96_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(a_89_as.index((twill_base + 0 - 0) % 2), a_ptrs_96_p1, mask=a_88)  # load0_a: stage 0, partition 0 (group 0)
    else:  # load0_a: stage 0, partition 0 (group 0)
        a_89_as.index((twill_base + 0 - 0) % 2).store(gl.load(a_ptrs_96_p1, mask=a_88, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_96_p1 = a_ptrs_96
    accumulator_95_p1 = accumulator_95
    la_ptrs_97_p1 = la_ptrs_97
    for twill_b in range(1, twill_n):
        a = (0 + (twill_b - 0) * 1) * 128  # load0_a: stage 0, partition 0 (group 0)
        a_85 = 4096 - a  # load0_a: stage 0, partition 0 (group 0)
        la = a_85  # load1_la: stage 0, partition 0 (group 0)
        la_90 = la_ptrs_53 < la  # load1_la: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        la_92 = la_92_as.index((twill_base + twill_b - 1) % 2).load(L5)  # load1_la: stage 1, partition 0 (group 0)
        la_91 = la_90.broadcast_to([128, 16])  # load1_la: stage 0, partition 0 (group 0)
        la_ptrs_97 = la_ptrs_97_p1 + 128  # load1_la: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_la: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(la_92_as.index((twill_base + twill_b - 0) % 2), la_ptrs_97_p1, mask=la_91)  # load1_la: stage 0, partition 0 (group 0)
        else:  # load1_la: stage 0, partition 0 (group 0)
            la_92_as.index((twill_base + twill_b - 0) % 2).store(gl.load(la_ptrs_97_p1, mask=la_91, other=0.0))  # load1_la: stage 0, partition 0 (group 0)
        la_94 = gl.convert_layout(la_92, L5)  # convert1_la: stage 1, partition 0 (group 0)
        a_86 = a_85  # load0_a: stage 0, partition 0 (group 0)
        a_87 = c_ptrs_27 < a_86  # load0_a: stage 0, partition 0 (group 0)
        a_89 = a_89_as.index((twill_base + twill_b - 1) % 2).load(L6)  # load0_a: stage 1, partition 0 (group 0)
        a_88 = a_87.broadcast_to([32, 128])  # load0_a: stage 0, partition 0 (group 0)
        a_ptrs_96 = a_ptrs_96_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_89_as.index((twill_base + twill_b - 0) % 2), a_ptrs_96_p1, mask=a_88)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_89_as.index((twill_base + twill_b - 0) % 2).store(gl.load(a_ptrs_96_p1, mask=a_88, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        a_93 = gl.convert_layout(a_89, L6)  # convert0_a: stage 1, partition 0 (group 0)
        accumulator_95 = mma_v2(a_93, la_94, accumulator_95_p1)  # dot0_accumulator: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_96_p1 = a_ptrs_96
        accumulator_95_p1 = accumulator_95
        la_ptrs_97_p1 = la_ptrs_97
    async_copy.wait_group(0)
    gl.thread_barrier()
    la_92 = la_92_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L5)  # load1_la: stage 1, partition 0 (group 0)
    la_94 = gl.convert_layout(la_92, L5)  # convert1_la: stage 1, partition 0 (group 0)
    a_89 = a_89_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L6)  # load0_a: stage 1, partition 0 (group 0)
    a_93 = gl.convert_layout(a_89, L6)  # convert0_a: stage 1, partition 0 (group 0)
    accumulator_95 = mma_v2(a_93, la_94, accumulator_95_p1)  # dot0_accumulator: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_96_p2 = a_ptrs_96_p1
    a_ptrs_96_p1 = a_ptrs_96
    accumulator_95_p1 = accumulator_95
    la_ptrs_97_p2 = la_ptrs_97_p1
    la_ptrs_97_p1 = la_ptrs_97
    twill_base += twill_n
    ar = accumulator_95_p1.to(gl.bfloat16)
    scaling = scaling_ptr + adapter_id_11
    scaling_62 = gl.load(scaling)
    scaling_63 = gl.cast(scaling_62, gl.bfloat16)
    ar_65 = ar * scaling_63
    ar_66 = gl.arange(0, 16, layout=L7)
    ar_67 = gl.expand_dims(ar_66, 0)
    ar_68 = ar_67.to(gl.int64)
    ar_70 = ar_68 < rank_13
    ar_71 = ar_70.broadcast_to([32, 16])
    ar_72 = gl.where(ar_71, ar_65, 0.0)
    lb_ptrs = gl.expand_dims(offs_r_43, 1)
    lb_ptrs_73 = lb_ptrs * 4096
    lb_ptrs_74 = lb_ptrs_73.broadcast_to([16, 128])
    lb_ptrs_75 = a_ptrs_47.broadcast_to([16, 128])
    lb_ptrs_76 = lb_ptrs_74 + lb_ptrs_75
    lb_ptrs_78 = lora_b_ptr + lb_ptrs_76
    ar_79 = gl.convert_layout(ar_72, L8)
    c_mask = gl.expand_dims(mask_cm_21, 1)
    c_mask_80 = c_mask.broadcast_to([32, 128])
    twill_n = (32 - 0 + 1 - 1) // 1
    lb_89_as = gl.allocate_shared_memory(gl.bfloat16, [2, 16, 128], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
    lb_ptrs_99 = lb_ptrs_78
    lb_ptrs_99_p1 = lb_ptrs_99
    c_ptrs_98 = c_ptrs_30
    lb = (0 + (0 - 0) * 1) * 128  # load0_lb: stage 0, partition 0 (group 0)
    lb_85 = 4096 - lb  # load0_lb: stage 0, partition 0 (group 0)
    lb_86 = lb_85  # load0_lb: stage 0, partition 0 (group 0)
    lb_87 = c_ptrs_27 < lb_86  # load0_lb: stage 0, partition 0 (group 0)
    lb_88 = lb_87.broadcast_to([16, 128])  # load0_lb: stage 0, partition 0 (group 0)
    lb_ptrs_99 = lb_ptrs_99_p1 + 128  # load0_lb: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_lb: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(lb_89_as.index((twill_base + 0 - 0) % 2), lb_ptrs_99_p1, mask=lb_88)  # load0_lb: stage 0, partition 0 (group 0)
    else:  # load0_lb: stage 0, partition 0 (group 0)
        lb_89_as.index((twill_base + 0 - 0) % 2).store(gl.load(lb_ptrs_99_p1, mask=lb_88))  # load0_lb: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    c_ptrs_98_p1 = c_ptrs_98
    lb_85_p1 = lb_85
    lb_ptrs_99_p1 = lb_ptrs_99
    for twill_b in range(1, twill_n):
        mask_cn = lb_85_p1  # elementwise0_c_mask: stage 1, partition 0 (group 0)
        mask_cn_91 = offs_n < mask_cn  # elementwise0_c_mask: stage 1, partition 0 (group 0)
        c_mask_92 = gl.expand_dims(mask_cn_91, 0)  # elementwise0_c_mask: stage 1, partition 0 (group 0)
        c_mask_93 = c_mask_92.broadcast_to([32, 128])  # elementwise0_c_mask: stage 1, partition 0 (group 0)
        c_mask_94 = c_mask_80 * c_mask_93  # elementwise0_c_mask: stage 1, partition 0 (group 0)
        lb = (0 + (twill_b - 0) * 1) * 128  # load0_lb: stage 0, partition 0 (group 0)
        lb_85 = 4096 - lb  # load0_lb: stage 0, partition 0 (group 0)
        lb_86 = lb_85  # load0_lb: stage 0, partition 0 (group 0)
        lb_87 = c_ptrs_27 < lb_86  # load0_lb: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        lb_89 = lb_89_as.index((twill_base + twill_b - 1) % 2).load(L9)  # load0_lb: stage 1, partition 0 (group 0)
        lb_88 = lb_87.broadcast_to([16, 128])  # load0_lb: stage 0, partition 0 (group 0)
        lb_ptrs_99 = lb_ptrs_99_p1 + 128  # load0_lb: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_lb: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(lb_89_as.index((twill_base + twill_b - 0) % 2), lb_ptrs_99_p1, mask=lb_88)  # load0_lb: stage 0, partition 0 (group 0)
        else:  # load0_lb: stage 0, partition 0 (group 0)
            lb_89_as.index((twill_base + twill_b - 0) % 2).store(gl.load(lb_ptrs_99_p1, mask=lb_88))  # load0_lb: stage 0, partition 0 (group 0)
        lb_90 = gl.convert_layout(lb_89, L9)  # convert0_lb: stage 1, partition 0 (group 0)
        c = mma_v2(ar_79, lb_90, gl.full([32, 128], 0.0, gl.float32, layout=L10))  # dot0_c: stage 1, partition 0 (group 0)
        val = c.to(gl.bfloat16)  # convert2_val: stage 1, partition 0 (group 0)
        c_ptrs_98 = c_ptrs_98_p1 + 128  # load1_origin: stage 1, partition 0 (group 0)
        gl.thread_barrier()
        origin = gl.load(c_ptrs_98_p1, mask=c_mask_94)  # load1_origin: stage 1, partition 0 (group 0)
        origin_95 = gl.convert_layout(origin, L10)  # convert1_origin: stage 1, partition 0 (group 0)
        val_96 = val + origin_95  # elementwise1_val: stage 1, partition 0 (group 0)
        val_97 = gl.convert_layout(val_96, L11)  # convert3_val: stage 1, partition 0 (group 0)
        gl.store(c_ptrs_98_p1, val_97, mask=c_mask_94)  # store0: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        c_ptrs_98_p1 = c_ptrs_98
        lb_85_p1 = lb_85
        lb_ptrs_99_p1 = lb_ptrs_99
    mask_cn = lb_85_p1  # elementwise0_c_mask: stage 1, partition 0 (group 0)
    mask_cn_91 = offs_n < mask_cn  # elementwise0_c_mask: stage 1, partition 0 (group 0)
    c_mask_92 = gl.expand_dims(mask_cn_91, 0)  # elementwise0_c_mask: stage 1, partition 0 (group 0)
    c_mask_93 = c_mask_92.broadcast_to([32, 128])  # elementwise0_c_mask: stage 1, partition 0 (group 0)
    c_mask_94 = c_mask_80 * c_mask_93  # elementwise0_c_mask: stage 1, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    lb_89 = lb_89_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L9)  # load0_lb: stage 1, partition 0 (group 0)
    lb_90 = gl.convert_layout(lb_89, L9)  # convert0_lb: stage 1, partition 0 (group 0)
    c = mma_v2(ar_79, lb_90, gl.full([32, 128], 0.0, gl.float32, layout=L10))  # dot0_c: stage 1, partition 0 (group 0)
    val = c.to(gl.bfloat16)  # convert2_val: stage 1, partition 0 (group 0)
    c_ptrs_98 = c_ptrs_98_p1 + 128  # load1_origin: stage 1, partition 0 (group 0)
    gl.thread_barrier()
    origin = gl.load(c_ptrs_98_p1, mask=c_mask_94)  # load1_origin: stage 1, partition 0 (group 0)
    origin_95 = gl.convert_layout(origin, L10)  # convert1_origin: stage 1, partition 0 (group 0)
    val_96 = val + origin_95  # elementwise1_val: stage 1, partition 0 (group 0)
    val_97 = gl.convert_layout(val_96, L11)  # convert3_val: stage 1, partition 0 (group 0)
    gl.store(c_ptrs_98_p1, val_97, mask=c_mask_94)  # store0: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    c_ptrs_98_p1 = c_ptrs_98
    lb_85_p1 = lb_85
    lb_ptrs_99_p2 = lb_ptrs_99_p1
    lb_ptrs_99_p1 = lb_ptrs_99

@gluon.jit
def twill_kernel(a_ptr, lora_a_ptr, lora_b_ptr, c_ptr, scaling_ptr, rank_start_ptr, ranks_ptr, seq_start_ptr, seq_lens_ptr, adapter_ids_ptr, stride_am, stride_cm, TWILL_COPY: gl.constexpr):
    bid = gl.program_id(1)
    M = seq_lens_ptr + bid
    M_9 = gl.load(M)
    v0 = M_9 <= 0
    if v0:
        return
    pid = gl.program_id(0)
    bid = gl.program_id(1)
    M = seq_lens_ptr + bid
    M_9 = gl.load(M)
    v1 = pid * 32
    v2 = gl.cast(v1, gl.int64)
    v3 = v2 >= M_9
    if v3:
        return
    bid = gl.program_id(1)
    adapter_id = adapter_ids_ptr + bid
    adapter_id_11 = gl.load(adapter_id)
    rank = ranks_ptr + adapter_id_11
    rank_13 = gl.load(rank)
    v4 = rank_13 == 0
    if v4:
        return
    consumer_0(a_ptr, lora_a_ptr, lora_b_ptr, c_ptr, scaling_ptr, rank_start_ptr, ranks_ptr, seq_start_ptr, seq_lens_ptr, adapter_ids_ptr, stride_am, stride_cm, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'lora_a_ptr', 'lora_b_ptr', 'c_ptr', 'scaling_ptr', 'rank_start_ptr', 'ranks_ptr', 'seq_start_ptr', 'seq_lens_ptr', 'adapter_ids_ptr', 'N', 'K', 'stride_am', 'stride_ak', 'stride_lar', 'stride_lak', 'stride_lbr', 'stride_lbn', 'stride_cm', 'stride_cn', 'BLOCK_SIZE_R', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'CUM']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'lora_a_ptr', 'lora_b_ptr', 'c_ptr', 'scaling_ptr', 'rank_start_ptr', 'ranks_ptr', 'seq_start_ptr', 'seq_lens_ptr', 'adapter_ids_ptr', 'stride_am', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'lora_a_ptr', 'lora_b_ptr', 'c_ptr', 'scaling_ptr', 'rank_start_ptr', 'ranks_ptr', 'seq_start_ptr', 'seq_lens_ptr', 'adapter_ids_ptr', 'stride_am', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'N': 4096, 'K': 4096, 'stride_ak': 1, 'stride_lar': 4096, 'stride_lak': 1, 'stride_lbr': 4096, 'stride_lbn': 1, 'stride_cn': 1, 'BLOCK_SIZE_R': 16, 'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 128, 'CUM': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'lora_a_ptr', 'lora_b_ptr', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
