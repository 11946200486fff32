"""awq_gemm_kernel, written by twill from its joint schedule: I=108 L=124 (optimal), 680 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 108).

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (a_as 2 x 2048 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 52 per thread)
- shared memory: 4112 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(0, gl.DistributedLinearLayout(reg_bases=[[0, 1], [1, 0], [2, 0]], lane_bases=[[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp_bases=[[0, 0], [0, 0]], block_bases=[], shape=[4, 2])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.DistributedLinearLayout(reg_bases=[[0, 1], [1, 0], [2, 0]], lane_bases=[[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], warp_bases=[[0, 0], [0, 0]], block_bases=[], shape=[4, 2])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0]))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 2], threads_per_warp=[8, 4, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0]))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2, 2], threads_per_warp=[8, 4, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0]))
L13 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4, 2], threads_per_warp=[8, 4, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L14 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]), k_width=4))
L15 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]), k_width=4))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, zeros_ptr, scales_ptr, M, N, K, group_size, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    pid_z = gl.program_id(1)
    num_pid_n_8 = N + 31
    num_pid_n_9 = num_pid_n_8 // 32
    pid_m = pid // num_pid_n_9
    pid_n = pid % num_pid_n_9
    reverse_awq_order_tensor_10 = gl.arange(0, 2, layout=L0)
    reverse_awq_order_tensor_11 = reverse_awq_order_tensor_10 * 4
    reverse_awq_order_tensor_12 = gl.expand_dims(reverse_awq_order_tensor_11, 0)
    reverse_awq_order_tensor_13 = gl.arange(0, 4, layout=L1)
    reverse_awq_order_tensor_14 = gl.arange(0, 4, layout=L2)
    reverse_awq_order_tensor_15 = gl.expand_dims(reverse_awq_order_tensor_14, 1)
    reverse_awq_order_tensor_16 = reverse_awq_order_tensor_12.broadcast_to([4, 2])
    reverse_awq_order_tensor_17 = reverse_awq_order_tensor_15.broadcast_to([4, 2])
    reverse_awq_order_tensor_18 = reverse_awq_order_tensor_16 + reverse_awq_order_tensor_17
    reverse_awq_order_tensor_19 = gl.convert_layout(gl.reshape(reverse_awq_order_tensor_18, [8]), L3)
    shifts_20 = reverse_awq_order_tensor_19 * 4
    shifts_21 = gl.expand_dims(shifts_20, 0)
    shifts_22 = shifts_21.broadcast_to([128, 8])
    shifts_23 = gl.convert_layout(gl.reshape(shifts_22, [32, 32]), L4)
    offsets_am = pid_m * 32
    offsets_am_24 = gl.arange(0, 32, layout=L5)
    offsets_am_25 = gl.arange(0, 32, layout=L6)
    offsets_am_26 = gl.arange(0, 32, layout=L7)
    offsets_am_28 = offsets_am + offsets_am_24
    masks_am_29 = offsets_am_28 < M
    offsets_bn = pid_n * 4
    offsets_bn_31 = offsets_bn + reverse_awq_order_tensor_13
    masks_bn = N // 8
    masks_bn_33 = offsets_bn_31 < masks_bn
    offsets_sn = pid_n * 32
    offsets_sn_35 = offsets_sn + offsets_am_26
    masks_sn_36 = offsets_sn_35 < N
    offsets_k = pid_z * 32
    offsets_k_39 = offsets_k + offsets_am_26
    offsets_k_40 = offsets_k + offsets_am_25
    offsets_a = gl.expand_dims(offsets_am_28, 1)
    offsets_a_42 = K * offsets_a
    offsets_a_43 = gl.expand_dims(offsets_k_39, 0)
    offsets_a_44 = offsets_a_42.broadcast_to([32, 32])
    offsets_a_45 = offsets_a_43.broadcast_to([32, 32])
    offsets_a_46 = offsets_a_44 + offsets_a_45
    offsets_b = gl.expand_dims(offsets_k_40, 1)
    offsets_b_48 = masks_bn * offsets_b
    offsets_b_49 = gl.expand_dims(offsets_bn_31, 0)
    offsets_b_50 = offsets_b_48.broadcast_to([32, 4])
    offsets_b_51 = offsets_b_49.broadcast_to([32, 4])
    offsets_b_52 = offsets_b_50 + offsets_b_51
    a_ptrs_53 = a_ptr + offsets_a_46
    b_ptrs_54 = b_ptr + offsets_b_52
    v0 = K + 255
    v1 = v0 // 256
    masks_a = gl.expand_dims(masks_am_29, 1)
    masks_a_56 = masks_a.broadcast_to([32, 32])
    masks_b = gl.expand_dims(masks_bn_33, 0)
    masks_b_57 = masks_b.broadcast_to([32, 4])
    offsets_s = gl.expand_dims(offsets_sn_35, 0)
    masks_s = gl.expand_dims(masks_sn_36, 0)
    b_ptrs_58 = masks_bn * 256
    twill_n = (v1 - 0 + 1 - 1) // 1
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        a_as = gl.allocate_shared_memory(gl.float16, [2, 32, 32], gl.SwizzledSharedLayout(vec=16, per_phase=2, max_phase=2, order=[1, 0]))
        b_ptrs_128 = b_ptrs_54
        a_ptrs_127 = a_ptrs_53
        offsets_k_125 = offsets_k_39
        offsets_k_126 = offsets_k_40
        a_ptrs_127_p1 = a_ptrs_127
        b_ptrs_128_p1 = b_ptrs_128
        offsets_k_125_p1 = offsets_k_125
        offsets_k_126_p1 = offsets_k_126
        masks_k_83 = offsets_k_126_p1 < K  # elementwise1_masks_b: stage 0, partition 0 (group 0)
        masks_b_87 = gl.expand_dims(masks_k_83, 1)  # elementwise1_masks_b: stage 0, partition 0 (group 0)
        masks_b_88 = masks_b_87.broadcast_to([32, 4])  # elementwise1_masks_b: stage 0, partition 0 (group 0)
        masks_b_89 = masks_b_88 & masks_b_57  # elementwise1_masks_b: stage 0, partition 0 (group 0)
        offsets_k_126 = offsets_k_126_p1 + 256  # elementwise1_masks_b: stage 0, partition 0 (group 0)
        offsets_szk = (0 + (0 - 0) * 1) * 256  # load2_zeros: stage 0, partition 0 (group 0)
        offsets_szk_95 = offsets_szk + offsets_k  # load2_zeros: stage 0, partition 0 (group 0)
        offsets_szk_96 = offsets_szk_95 // group_size  # load2_zeros: stage 0, partition 0 (group 0)
        masks_zk = K // group_size  # elementwise2_masks_z: stage 0, partition 0 (group 0)
        masks_zk_99 = offsets_szk_96 < masks_zk  # elementwise2_masks_z: stage 0, partition 0 (group 0)
        masks_z = masks_zk_99  # elementwise2_masks_z: stage 0, partition 0 (group 0)
        masks_z_100 = masks_z & masks_b  # elementwise2_masks_z: stage 0, partition 0 (group 0)
        masks_k_82 = offsets_k_125_p1 < K  # elementwise0_masks_a: stage 0, partition 0 (group 0)
        masks_a_84 = gl.expand_dims(masks_k_82, 0)  # elementwise0_masks_a: stage 0, partition 0 (group 0)
        masks_a_85 = masks_a_84.broadcast_to([32, 32])  # elementwise0_masks_a: stage 0, partition 0 (group 0)
        masks_a_86 = masks_a_56 & masks_a_85  # elementwise0_masks_a: stage 0, partition 0 (group 0)
        offsets_k_125 = offsets_k_125_p1 + 256  # elementwise0_masks_a: stage 0, partition 0 (group 0)
        masks_s_112 = masks_zk_99  # elementwise3_masks_s: stage 0, partition 0 (group 0)
        masks_s_113 = masks_s_112 & masks_s  # elementwise3_masks_s: stage 0, partition 0 (group 0)
        offsets_z = masks_bn * offsets_szk_96  # load2_zeros: stage 0, partition 0 (group 0)
        offsets_z_97 = offsets_z  # load2_zeros: stage 0, partition 0 (group 0)
        offsets_z_98 = offsets_z_97 + offsets_b_49  # load2_zeros: stage 0, partition 0 (group 0)
        zeros_ptrs_101 = zeros_ptr + offsets_z_98  # load2_zeros: stage 0, partition 0 (group 0)
        b_ptrs_128 = b_ptrs_128_p1 + b_ptrs_58  # load1_b: stage 0, partition 0 (group 0)
        b = gl.load(b_ptrs_128_p1, mask=masks_b_89, other=0)  # load1_b: stage 0, partition 0 (group 0)
        zeros = gl.load(zeros_ptrs_101, mask=masks_z_100, other=0)  # load2_zeros: stage 0, partition 0 (group 0)
        offsets_s_109 = N * offsets_szk_96  # load3_scales: stage 0, partition 0 (group 0)
        offsets_s_110 = offsets_s_109  # load3_scales: stage 0, partition 0 (group 0)
        offsets_s_111 = offsets_s_110 + offsets_s  # load3_scales: stage 0, partition 0 (group 0)
        scales_ptrs_114 = scales_ptr + offsets_s_111  # load3_scales: stage 0, partition 0 (group 0)
        scales = gl.load(scales_ptrs_114, mask=masks_s_113, other=0.0)  # load3_scales: stage 0, partition 0 (group 0)
        a_ptrs_127 = a_ptrs_127_p1 + 256  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_as.index((0 - 0) % 2), a_ptrs_127_p1, mask=masks_a_86)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_as.index((0 - 0) % 2).store(gl.load(a_ptrs_127_p1, mask=masks_a_86, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_127_p1 = a_ptrs_127
        b_p1 = b
        b_ptrs_128_p1 = b_ptrs_128
        offsets_k_125_p1 = offsets_k_125
        offsets_k_126_p1 = offsets_k_126
        scales_p1 = scales
        zeros_p1 = zeros
        accumulator = gl.full([32, 32], 0.0, gl.float16, layout=L8)
        masks_k_83 = offsets_k_126_p1 < K  # elementwise1_masks_b: stage 0, partition 0 (group 0)
        masks_b_87 = gl.expand_dims(masks_k_83, 1)  # elementwise1_masks_b: stage 0, partition 0 (group 0)
        masks_b_88 = masks_b_87.broadcast_to([32, 4])  # elementwise1_masks_b: stage 0, partition 0 (group 0)
        masks_b_89 = masks_b_88 & masks_b_57  # elementwise1_masks_b: stage 0, partition 0 (group 0)
        offsets_k_126 = offsets_k_126_p1 + 256  # elementwise1_masks_b: stage 0, partition 0 (group 0)
        offsets_szk = (0 + (1 - 0) * 1) * 256  # load2_zeros: stage 0, partition 0 (group 0)
        offsets_szk_95 = offsets_szk + offsets_k  # load2_zeros: stage 0, partition 0 (group 0)
        offsets_szk_96 = offsets_szk_95 // group_size  # load2_zeros: stage 0, partition 0 (group 0)
        masks_zk = K // group_size  # elementwise2_masks_z: stage 0, partition 0 (group 0)
        masks_zk_99 = offsets_szk_96 < masks_zk  # elementwise2_masks_z: stage 0, partition 0 (group 0)
        masks_z = masks_zk_99  # elementwise2_masks_z: stage 0, partition 0 (group 0)
        masks_z_100 = masks_z & masks_b  # elementwise2_masks_z: stage 0, partition 0 (group 0)
        masks_k_82 = offsets_k_125_p1 < K  # elementwise0_masks_a: stage 0, partition 0 (group 0)
        masks_a_84 = gl.expand_dims(masks_k_82, 0)  # elementwise0_masks_a: stage 0, partition 0 (group 0)
        masks_a_85 = masks_a_84.broadcast_to([32, 32])  # elementwise0_masks_a: stage 0, partition 0 (group 0)
        masks_a_86 = masks_a_56 & masks_a_85  # elementwise0_masks_a: stage 0, partition 0 (group 0)
        offsets_k_125 = offsets_k_125_p1 + 256  # elementwise0_masks_a: stage 0, partition 0 (group 0)
        masks_s_112 = masks_zk_99  # elementwise3_masks_s: stage 0, partition 0 (group 0)
        masks_s_113 = masks_s_112 & masks_s  # elementwise3_masks_s: stage 0, partition 0 (group 0)
        offsets_z = masks_bn * offsets_szk_96  # load2_zeros: stage 0, partition 0 (group 0)
        offsets_z_97 = offsets_z  # load2_zeros: stage 0, partition 0 (group 0)
        offsets_z_98 = offsets_z_97 + offsets_b_49  # load2_zeros: stage 0, partition 0 (group 0)
        zeros_ptrs_101 = zeros_ptr + offsets_z_98  # load2_zeros: stage 0, partition 0 (group 0)
        b_ptrs_128 = b_ptrs_128_p1 + b_ptrs_58  # load1_b: stage 0, partition 0 (group 0)
        b = gl.load(b_ptrs_128_p1, mask=masks_b_89, other=0)  # load1_b: stage 0, partition 0 (group 0)
        zeros = gl.load(zeros_ptrs_101, mask=masks_z_100, other=0)  # load2_zeros: stage 0, partition 0 (group 0)
        c = gl.convert_layout(gl.join(b_p1, b_p1), L9)  # convert0_b: stage 1, partition 0 (group 0)
        b_90 = gl.convert_layout(gl.reshape(c, [32, 8]), L10)  # convert0_b: stage 1, partition 0 (group 0)
        c_91 = gl.convert_layout(gl.join(b_90, b_90), L11)  # convert0_b: stage 1, partition 0 (group 0)
        b_92 = gl.convert_layout(gl.reshape(c_91, [32, 16]), L12)  # convert0_b: stage 1, partition 0 (group 0)
        c_93 = gl.convert_layout(gl.join(b_92, b_92), L13)  # convert0_b: stage 1, partition 0 (group 0)
        b_94 = gl.convert_layout(gl.reshape(c_93, [32, 32]), L4)  # convert0_b: stage 1, partition 0 (group 0)
        c_102 = gl.convert_layout(gl.join(zeros_p1, zeros_p1), L9)  # convert0_b: stage 1, partition 0 (group 0)
        zeros_103 = gl.convert_layout(gl.reshape(c_102, [1, 8]), L10)  # convert0_b: stage 1, partition 0 (group 0)
        c_104 = gl.convert_layout(gl.join(zeros_103, zeros_103), L11)  # convert0_b: stage 1, partition 0 (group 0)
        zeros_105 = gl.convert_layout(gl.reshape(c_104, [1, 16]), L12)  # convert0_b: stage 1, partition 0 (group 0)
        c_106 = gl.convert_layout(gl.join(zeros_105, zeros_105), L13)  # convert0_b: stage 1, partition 0 (group 0)
        zeros_107 = gl.convert_layout(gl.reshape(c_106, [1, 32]), L4)  # convert0_b: stage 1, partition 0 (group 0)
        zeros_108 = zeros_107.broadcast_to([32, 32])  # convert0_b: stage 1, partition 0 (group 0)
        b_116 = b_94 >> shifts_23  # convert0_b: stage 1, partition 0 (group 0)
        b_117 = b_116 & 15  # convert0_b: stage 1, partition 0 (group 0)
        zeros_118 = zeros_108 >> shifts_23  # convert0_b: stage 1, partition 0 (group 0)
        zeros_119 = zeros_118 & 15  # convert0_b: stage 1, partition 0 (group 0)
        b_120 = b_117 - zeros_119  # convert0_b: stage 1, partition 0 (group 0)
        b_121 = b_120.to(gl.float16)  # convert0_b: stage 1, partition 0 (group 0)
        offsets_s_109 = N * offsets_szk_96  # load3_scales: stage 0, partition 0 (group 0)
        offsets_s_110 = offsets_s_109  # load3_scales: stage 0, partition 0 (group 0)
        offsets_s_111 = offsets_s_110 + offsets_s  # load3_scales: stage 0, partition 0 (group 0)
        scales_ptrs_114 = scales_ptr + offsets_s_111  # load3_scales: stage 0, partition 0 (group 0)
        scales = gl.load(scales_ptrs_114, mask=masks_s_113, other=0.0)  # load3_scales: stage 0, partition 0 (group 0)
        scales_115 = scales_p1.broadcast_to([32, 32])  # elementwise4_b: stage 1, partition 0 (group 0)
        b_122 = b_121 * scales_115  # elementwise4_b: stage 1, partition 0 (group 0)
        b_124 = gl.convert_layout(b_122, L14)  # convert2_b: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        a = a_as.index((1 - 1) % 2).load(L15)  # load0_a: stage 1, partition 0 (group 0)
        a_ptrs_127 = a_ptrs_127_p1 + 256  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_as.index((1 - 0) % 2), a_ptrs_127_p1, mask=masks_a_86)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_as.index((1 - 0) % 2).store(gl.load(a_ptrs_127_p1, mask=masks_a_86, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        a_123 = gl.convert_layout(a, L15)  # convert1_a: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        a_123_p1 = a_123
        a_ptrs_127_p1 = a_ptrs_127
        accumulator_p1 = accumulator
        b_p1 = b
        b_124_p1 = b_124
        b_ptrs_128_p1 = b_ptrs_128
        offsets_k_125_p1 = offsets_k_125
        offsets_k_126_p1 = offsets_k_126
        scales_p1 = scales
        zeros_p1 = zeros
        for twill_b in range(2, twill_n):
            masks_k_83 = offsets_k_126_p1 < K  # elementwise1_masks_b: stage 0, partition 0 (group 0)
            masks_b_87 = gl.expand_dims(masks_k_83, 1)  # elementwise1_masks_b: stage 0, partition 0 (group 0)
            masks_b_88 = masks_b_87.broadcast_to([32, 4])  # elementwise1_masks_b: stage 0, partition 0 (group 0)
            masks_b_89 = masks_b_88 & masks_b_57  # elementwise1_masks_b: stage 0, partition 0 (group 0)
            accumulator = mma_v2(a_123_p1, b_124_p1, accumulator_p1)  # dot0_accumulator: stage 2, partition 0 (group 0)
            offsets_k_126 = offsets_k_126_p1 + 256  # elementwise1_masks_b: stage 0, partition 0 (group 0)
            offsets_szk = (0 + (twill_b - 0) * 1) * 256  # load2_zeros: stage 0, partition 0 (group 0)
            offsets_szk_95 = offsets_szk + offsets_k  # load2_zeros: stage 0, partition 0 (group 0)
            offsets_szk_96 = offsets_szk_95 // group_size  # load2_zeros: stage 0, partition 0 (group 0)
            masks_zk = K // group_size  # elementwise2_masks_z: stage 0, partition 0 (group 0)
            masks_zk_99 = offsets_szk_96 < masks_zk  # elementwise2_masks_z: stage 0, partition 0 (group 0)
            masks_z = masks_zk_99  # elementwise2_masks_z: stage 0, partition 0 (group 0)
            masks_z_100 = masks_z & masks_b  # elementwise2_masks_z: stage 0, partition 0 (group 0)
            masks_k_82 = offsets_k_125_p1 < K  # elementwise0_masks_a: stage 0, partition 0 (group 0)
            masks_a_84 = gl.expand_dims(masks_k_82, 0)  # elementwise0_masks_a: stage 0, partition 0 (group 0)
            masks_a_85 = masks_a_84.broadcast_to([32, 32])  # elementwise0_masks_a: stage 0, partition 0 (group 0)
            masks_a_86 = masks_a_56 & masks_a_85  # elementwise0_masks_a: stage 0, partition 0 (group 0)
            offsets_k_125 = offsets_k_125_p1 + 256  # elementwise0_masks_a: stage 0, partition 0 (group 0)
            masks_s_112 = masks_zk_99  # elementwise3_masks_s: stage 0, partition 0 (group 0)
            masks_s_113 = masks_s_112 & masks_s  # elementwise3_masks_s: stage 0, partition 0 (group 0)
            offsets_z = masks_bn * offsets_szk_96  # load2_zeros: stage 0, partition 0 (group 0)
            offsets_z_97 = offsets_z  # load2_zeros: stage 0, partition 0 (group 0)
            offsets_z_98 = offsets_z_97 + offsets_b_49  # load2_zeros: stage 0, partition 0 (group 0)
            zeros_ptrs_101 = zeros_ptr + offsets_z_98  # load2_zeros: stage 0, partition 0 (group 0)
            b_ptrs_128 = b_ptrs_128_p1 + b_ptrs_58  # load1_b: stage 0, partition 0 (group 0)
            b = gl.load(b_ptrs_128_p1, mask=masks_b_89, other=0)  # load1_b: stage 0, partition 0 (group 0)
            zeros = gl.load(zeros_ptrs_101, mask=masks_z_100, other=0)  # load2_zeros: stage 0, partition 0 (group 0)
            c = gl.convert_layout(gl.join(b_p1, b_p1), L9)  # convert0_b: stage 1, partition 0 (group 0)
            b_90 = gl.convert_layout(gl.reshape(c, [32, 8]), L10)  # convert0_b: stage 1, partition 0 (group 0)
            c_91 = gl.convert_layout(gl.join(b_90, b_90), L11)  # convert0_b: stage 1, partition 0 (group 0)
            b_92 = gl.convert_layout(gl.reshape(c_91, [32, 16]), L12)  # convert0_b: stage 1, partition 0 (group 0)
            c_93 = gl.convert_layout(gl.join(b_92, b_92), L13)  # convert0_b: stage 1, partition 0 (group 0)
            b_94 = gl.convert_layout(gl.reshape(c_93, [32, 32]), L4)  # convert0_b: stage 1, partition 0 (group 0)
            c_102 = gl.convert_layout(gl.join(zeros_p1, zeros_p1), L9)  # convert0_b: stage 1, partition 0 (group 0)
            zeros_103 = gl.convert_layout(gl.reshape(c_102, [1, 8]), L10)  # convert0_b: stage 1, partition 0 (group 0)
            c_104 = gl.convert_layout(gl.join(zeros_103, zeros_103), L11)  # convert0_b: stage 1, partition 0 (group 0)
            zeros_105 = gl.convert_layout(gl.reshape(c_104, [1, 16]), L12)  # convert0_b: stage 1, partition 0 (group 0)
            c_106 = gl.convert_layout(gl.join(zeros_105, zeros_105), L13)  # convert0_b: stage 1, partition 0 (group 0)
            zeros_107 = gl.convert_layout(gl.reshape(c_106, [1, 32]), L4)  # convert0_b: stage 1, partition 0 (group 0)
            zeros_108 = zeros_107.broadcast_to([32, 32])  # convert0_b: stage 1, partition 0 (group 0)
            b_116 = b_94 >> shifts_23  # convert0_b: stage 1, partition 0 (group 0)
            b_117 = b_116 & 15  # convert0_b: stage 1, partition 0 (group 0)
            zeros_118 = zeros_108 >> shifts_23  # convert0_b: stage 1, partition 0 (group 0)
            zeros_119 = zeros_118 & 15  # convert0_b: stage 1, partition 0 (group 0)
            b_120 = b_117 - zeros_119  # convert0_b: stage 1, partition 0 (group 0)
            b_121 = b_120.to(gl.float16)  # convert0_b: stage 1, partition 0 (group 0)
            offsets_s_109 = N * offsets_szk_96  # load3_scales: stage 0, partition 0 (group 0)
            offsets_s_110 = offsets_s_109  # load3_scales: stage 0, partition 0 (group 0)
            offsets_s_111 = offsets_s_110 + offsets_s  # load3_scales: stage 0, partition 0 (group 0)
            scales_ptrs_114 = scales_ptr + offsets_s_111  # load3_scales: stage 0, partition 0 (group 0)
            scales = gl.load(scales_ptrs_114, mask=masks_s_113, other=0.0)  # load3_scales: stage 0, partition 0 (group 0)
            scales_115 = scales_p1.broadcast_to([32, 32])  # elementwise4_b: stage 1, partition 0 (group 0)
            b_122 = b_121 * scales_115  # elementwise4_b: stage 1, partition 0 (group 0)
            b_124 = gl.convert_layout(b_122, L14)  # convert2_b: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            a = a_as.index((twill_b - 1) % 2).load(L15)  # load0_a: stage 1, partition 0 (group 0)
            a_ptrs_127 = a_ptrs_127_p1 + 256  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_as.index((twill_b - 0) % 2), a_ptrs_127_p1, mask=masks_a_86)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_as.index((twill_b - 0) % 2).store(gl.load(a_ptrs_127_p1, mask=masks_a_86, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
            a_123 = gl.convert_layout(a, L15)  # convert1_a: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            a_123_p1 = a_123
            a_ptrs_127_p1 = a_ptrs_127
            accumulator_p1 = accumulator
            b_p1 = b
            b_124_p1 = b_124
            b_ptrs_128_p1 = b_ptrs_128
            offsets_k_125_p1 = offsets_k_125
            offsets_k_126_p1 = offsets_k_126
            scales_p1 = scales
            zeros_p1 = zeros
        accumulator = mma_v2(a_123_p1, b_124_p1, accumulator_p1)  # dot0_accumulator: stage 2, partition 0 (group 0)
        c = gl.convert_layout(gl.join(b_p1, b_p1), L9)  # convert0_b: stage 1, partition 0 (group 0)
        b_90 = gl.convert_layout(gl.reshape(c, [32, 8]), L10)  # convert0_b: stage 1, partition 0 (group 0)
        c_91 = gl.convert_layout(gl.join(b_90, b_90), L11)  # convert0_b: stage 1, partition 0 (group 0)
        b_92 = gl.convert_layout(gl.reshape(c_91, [32, 16]), L12)  # convert0_b: stage 1, partition 0 (group 0)
        c_93 = gl.convert_layout(gl.join(b_92, b_92), L13)  # convert0_b: stage 1, partition 0 (group 0)
        b_94 = gl.convert_layout(gl.reshape(c_93, [32, 32]), L4)  # convert0_b: stage 1, partition 0 (group 0)
        c_102 = gl.convert_layout(gl.join(zeros_p1, zeros_p1), L9)  # convert0_b: stage 1, partition 0 (group 0)
        zeros_103 = gl.convert_layout(gl.reshape(c_102, [1, 8]), L10)  # convert0_b: stage 1, partition 0 (group 0)
        c_104 = gl.convert_layout(gl.join(zeros_103, zeros_103), L11)  # convert0_b: stage 1, partition 0 (group 0)
        zeros_105 = gl.convert_layout(gl.reshape(c_104, [1, 16]), L12)  # convert0_b: stage 1, partition 0 (group 0)
        c_106 = gl.convert_layout(gl.join(zeros_105, zeros_105), L13)  # convert0_b: stage 1, partition 0 (group 0)
        zeros_107 = gl.convert_layout(gl.reshape(c_106, [1, 32]), L4)  # convert0_b: stage 1, partition 0 (group 0)
        zeros_108 = zeros_107.broadcast_to([32, 32])  # convert0_b: stage 1, partition 0 (group 0)
        b_116 = b_94 >> shifts_23  # convert0_b: stage 1, partition 0 (group 0)
        b_117 = b_116 & 15  # convert0_b: stage 1, partition 0 (group 0)
        zeros_118 = zeros_108 >> shifts_23  # convert0_b: stage 1, partition 0 (group 0)
        zeros_119 = zeros_118 & 15  # convert0_b: stage 1, partition 0 (group 0)
        b_120 = b_117 - zeros_119  # convert0_b: stage 1, partition 0 (group 0)
        b_121 = b_120.to(gl.float16)  # convert0_b: stage 1, partition 0 (group 0)
        scales_115 = scales_p1.broadcast_to([32, 32])  # elementwise4_b: stage 1, partition 0 (group 0)
        b_122 = b_121 * scales_115  # elementwise4_b: stage 1, partition 0 (group 0)
        b_124 = gl.convert_layout(b_122, L14)  # convert2_b: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        a = a_as.index(((twill_n - 1 + 1) - 1) % 2).load(L15)  # load0_a: stage 1, partition 0 (group 0)
        a_123 = gl.convert_layout(a, L15)  # convert1_a: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        a_123_p1 = a_123
        a_ptrs_127_p2 = a_ptrs_127_p1
        a_ptrs_127_p1 = a_ptrs_127
        accumulator_p1 = accumulator
        b_p1 = b
        b_124_p1 = b_124
        b_ptrs_128_p2 = b_ptrs_128_p1
        b_ptrs_128_p1 = b_ptrs_128
        offsets_k_125_p2 = offsets_k_125_p1
        offsets_k_125_p1 = offsets_k_125
        offsets_k_126_p2 = offsets_k_126_p1
        offsets_k_126_p1 = offsets_k_126
        scales_p1 = scales
        zeros_p1 = zeros
        accumulator = mma_v2(a_123_p1, b_124_p1, accumulator_p1)  # dot0_accumulator: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        a_123_p1 = a_123
        a_ptrs_127_p3 = a_ptrs_127_p2
        a_ptrs_127_p2 = a_ptrs_127_p1
        a_ptrs_127_p1 = a_ptrs_127
        accumulator_p1 = accumulator
        b_p1 = b
        b_124_p1 = b_124
        b_ptrs_128_p3 = b_ptrs_128_p2
        b_ptrs_128_p2 = b_ptrs_128_p1
        b_ptrs_128_p1 = b_ptrs_128
        offsets_k_125_p3 = offsets_k_125_p2
        offsets_k_125_p2 = offsets_k_125_p1
        offsets_k_125_p1 = offsets_k_125
        offsets_k_126_p3 = offsets_k_126_p2
        offsets_k_126_p2 = offsets_k_126_p1
        offsets_k_126_p1 = offsets_k_126
        scales_p1 = scales
        zeros_p1 = zeros
    else:
        arg10_w = gl.full([32, 32], 0.0, gl.float16, layout=L8)
        b_ptrs_78_w = b_ptrs_54
        a_ptrs_79_w = a_ptrs_53
        offsets_k_80_w = offsets_k_39
        offsets_k_81_w = offsets_k_40
        for b_ptrs_77_w in range(0, v1, 1):
            masks_k_82_w = offsets_k_80_w < K
            masks_k_83_w = offsets_k_81_w < K
            masks_a_84_w = gl.expand_dims(masks_k_82_w, 0)
            masks_a_85_w = masks_a_84_w.broadcast_to([32, 32])
            masks_a_86_w = masks_a_56 & masks_a_85_w
            a_w = gl.load(a_ptrs_79_w, mask=masks_a_86_w, other=0.0)
            masks_b_87_w = gl.expand_dims(masks_k_83_w, 1)
            masks_b_88_w = masks_b_87_w.broadcast_to([32, 4])
            masks_b_89_w = masks_b_88_w & masks_b_57
            b_w = gl.load(b_ptrs_78_w, mask=masks_b_89_w, other=0)
            c_w = gl.convert_layout(gl.join(b_w, b_w), L9)
            b_90_w = gl.convert_layout(gl.reshape(c_w, [32, 8]), L10)
            c_91_w = gl.convert_layout(gl.join(b_90_w, b_90_w), L11)
            b_92_w = gl.convert_layout(gl.reshape(c_91_w, [32, 16]), L12)
            c_93_w = gl.convert_layout(gl.join(b_92_w, b_92_w), L13)
            b_94_w = gl.convert_layout(gl.reshape(c_93_w, [32, 32]), L4)
            offsets_szk_w = b_ptrs_77_w * 256
            offsets_szk_95_w = offsets_szk_w + offsets_k
            offsets_szk_96_w = offsets_szk_95_w // group_size
            offsets_z_w = masks_bn * offsets_szk_96_w
            offsets_z_98_w = offsets_z_w + offsets_b_49
            masks_zk_w = K // group_size
            masks_zk_99_w = offsets_szk_96_w < masks_zk_w
            masks_z_100_w = masks_zk_99_w & masks_b
            zeros_ptrs_101_w = zeros_ptr + offsets_z_98_w
            zeros_w = gl.load(zeros_ptrs_101_w, mask=masks_z_100_w, other=0)
            c_102_w = gl.convert_layout(gl.join(zeros_w, zeros_w), L9)
            zeros_103_w = gl.convert_layout(gl.reshape(c_102_w, [1, 8]), L10)
            c_104_w = gl.convert_layout(gl.join(zeros_103_w, zeros_103_w), L11)
            zeros_105_w = gl.convert_layout(gl.reshape(c_104_w, [1, 16]), L12)
            c_106_w = gl.convert_layout(gl.join(zeros_105_w, zeros_105_w), L13)
            zeros_107_w = gl.convert_layout(gl.reshape(c_106_w, [1, 32]), L4)
            zeros_108_w = zeros_107_w.broadcast_to([32, 32])
            offsets_s_109_w = N * offsets_szk_96_w
            offsets_s_111_w = offsets_s_109_w + offsets_s
            masks_s_113_w = masks_zk_99_w & masks_s
            scales_ptrs_114_w = scales_ptr + offsets_s_111_w
            scales_w = gl.load(scales_ptrs_114_w, mask=masks_s_113_w, other=0.0)
            scales_115_w = scales_w.broadcast_to([32, 32])
            b_116_w = b_94_w >> shifts_23
            b_117_w = b_116_w & 15
            zeros_118_w = zeros_108_w >> shifts_23
            zeros_119_w = zeros_118_w & 15
            b_120_w = b_117_w - zeros_119_w
            b_121_w = b_120_w.to(gl.float16)
            b_122_w = b_121_w * scales_115_w
            a_123_w = gl.convert_layout(a_w, L15)
            b_124_w = gl.convert_layout(b_122_w, L14)
            accumulator_w = mma_v2(a_123_w, b_124_w, arg10_w)
            offsets_k_125_w = offsets_k_80_w + 256
            offsets_k_126_w = offsets_k_81_w + 256
            a_ptrs_127_w = a_ptrs_79_w + 256
            b_ptrs_128_w = b_ptrs_78_w + b_ptrs_58
            arg10_w = accumulator_w
            b_ptrs_78_w = b_ptrs_128_w
            a_ptrs_79_w = a_ptrs_127_w
            offsets_k_80_w = offsets_k_125_w
            offsets_k_81_w = offsets_k_126_w
        accumulator_p1 = arg10_w
        b_ptrs_128_p3 = b_ptrs_78_w
        a_ptrs_127_p3 = a_ptrs_79_w
        offsets_k_125_p3 = offsets_k_80_w
        offsets_k_126_p3 = offsets_k_81_w
    c_ptrs = pid_z * N
    c_ptrs_61 = c_ptrs * M
    c_ptrs_62 = c_ptr + c_ptrs_61
    c_ptrs_64 = N * offsets_a
    c_ptrs_66 = c_ptrs_62 + c_ptrs_64
    c_ptrs_67 = gl.expand_dims(offsets_sn_35, 0)
    c_ptrs_68 = c_ptrs_66.broadcast_to([32, 32])
    c_ptrs_69 = c_ptrs_67.broadcast_to([32, 32])
    c_ptrs_70 = c_ptrs_68 + c_ptrs_69
    c_mask_71 = offsets_a < M
    c_mask_73 = c_ptrs_67 < N
    c_mask_74 = c_mask_71.broadcast_to([32, 32])
    c_mask_75 = c_mask_73.broadcast_to([32, 32])
    c_mask_76 = c_mask_74 & c_mask_75
    v2 = gl.convert_layout(accumulator_p1, L4)
    gl.store(c_ptrs_70, v2, mask=c_mask_76)

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, zeros_ptr, scales_ptr, M, N, K, group_size, TWILL_COPY: gl.constexpr):
    consumer_0(a_ptr, b_ptr, c_ptr, zeros_ptr, scales_ptr, M, N, K, group_size, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'zeros_ptr', 'scales_ptr', 'M', 'N', 'K', 'group_size', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'SPLIT_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'zeros_ptr', 'scales_ptr', 'M', 'N', 'K', 'group_size']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'zeros_ptr', 'scales_ptr', 'M', 'N', 'K', 'group_size']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32, 'SPLIT_K': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'K']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
