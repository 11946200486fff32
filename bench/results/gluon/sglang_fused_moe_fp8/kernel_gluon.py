"""fused_moe_kernel, written by twill from its joint schedule: I=108 L=87 (optimal), 987 cycles per iteration predicted.

Decisions (each from the schedule):
- a_143 copied with cp.async at every launch, not by TMA: its addresses go through arith.divsi (%a_ptrs_78), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_143, b): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' live tiles fit half the register file (200, 80 needed per thread with the 40 the model adds for addresses and indices; consumer 0 is given 168, the allowance left to ptxas), so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- b by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over b_ptr when the base is 16-byte aligned, the row strides 16-byte multiples, (N) % 128 == 0; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 168 registers per thread (needs about 200): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 80 registers per thread (needs about 80): cp.async copies into the rings
- ring a_143: 4 buffers of [64, 128] f8E4M3FN (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring b: 4 buffers of [128, 128] f8E4M3FN (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 98448 bytes planned of 232448; maxnreg 128
- early return at sglang_fused_moe_fp8.py:142 (TTGIR line 67): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at sglang_fused_moe_fp8.py:151 (TTGIR line 107): taken in the kernel itself, before gl.warp_specialize starts the partitions (its branch's 21 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 32])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 32]))
L9 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_bse, stride_bsn, twill_box_b, a_143_buf, b_buf, a_143_ready, a_143_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m_8 = EM + 63
    num_pid_m_9 = num_pid_m_8 // 64
    num_pid_n = N + 127
    num_pid_n_10 = num_pid_n // 128
    num_pid_in_group = num_pid_n_10 * 32
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 32
    group_size_m = num_pid_m_9 - first_pid_m
    group_size_m_11 = gl.minimum(group_size_m, 32)
    pid_m = pid % num_pid_in_group
    pid_m_12 = pid_m % group_size_m_11
    pid_m_13 = first_pid_m + pid_m_12
    pid_n = pid_m // group_size_m_11
    v0 = pid_m_13 * 64
    offs_token_id = gl.arange(0, 64, layout=L0)
    offs_token_id_14 = gl.arange(0, 64, layout=L1)
    offs_token_id_15 = gl.arange(0, 64, layout=L2)
    offs_token_id_16 = offs_token_id.to(gl.int64)
    offs_token_id_17 = offs_token_id_14.to(gl.int64)
    offs_token_id_18 = offs_token_id_15.to(gl.int64)
    offs_token_id_19 = gl.cast(v0, gl.int64)
    offs_token_id_23 = offs_token_id_19 + offs_token_id_16
    offs_token_id_24 = offs_token_id_19 + offs_token_id_17
    offs_token_id_25 = offs_token_id_19 + offs_token_id_18
    offs_token_28 = sorted_token_ids_ptr + offs_token_id_23
    offs_token_29 = sorted_token_ids_ptr + offs_token_id_24
    offs_token_30 = sorted_token_ids_ptr + offs_token_id_25
    offs_token_31 = gl.load(offs_token_28)
    offs_token_32 = gl.load(offs_token_29)
    offs_token_33 = gl.load(offs_token_30)
    offs_token_34 = offs_token_31.to(gl.int64)
    offs_token_35 = offs_token_32.to(gl.int64)
    offs_token_36 = offs_token_33.to(gl.int64)
    token_mask = gl.cast(num_valid_tokens, gl.int64)
    token_mask_40 = offs_token_34 < token_mask
    token_mask_42 = offs_token_36 < token_mask
    off_experts = expert_ids_ptr + pid_m_13
    off_experts_43 = gl.load(off_experts)
    off_experts_44 = gl.cast(off_experts_43, gl.int64)
    offs_bn = pid_n * 128
    offs_bn_62 = gl.arange(0, 128, layout=L3)
    offs_bn_63 = gl.arange(0, 128, layout=L4)
    offs_bn_64 = gl.arange(0, 128, layout=L5)
    offs_bn_65 = offs_bn_62.to(gl.int64)
    offs_bn_66 = offs_bn_64.to(gl.int64)
    offs_bn_67 = gl.cast(offs_bn, gl.int64)
    offs_bn_70 = offs_bn_67 + offs_bn_65
    offs_bn_71 = offs_bn_67 + offs_bn_66
    offs_bn_72 = gl.cast(N, gl.int64)
    offs_bn_75 = offs_bn_70 % offs_bn_72
    offs_bn_76 = offs_bn_71 % offs_bn_72
    a_ptrs = gl.expand_dims(offs_token_35, 1)
    a_ptrs_77 = gl.expand_dims(offs_token_34, 1)
    a_ptrs_78 = a_ptrs // 6
    a_ptrs_79 = gl.cast(stride_am, gl.int64)
    a_ptrs_81 = a_ptrs_78 * a_ptrs_79
    a_ptrs_82 = gl.arange(0, 128, layout=L6)
    a_ptrs_83 = gl.expand_dims(a_ptrs_82, 0)
    a_ptrs_84 = a_ptrs_83.to(gl.int64)
    a_ptrs_85 = a_ptrs_81.broadcast_to([64, 128])
    a_ptrs_86 = a_ptrs_84.broadcast_to([64, 128])
    a_ptrs_87 = a_ptrs_85 + a_ptrs_86
    a_ptrs_89 = a_ptr + a_ptrs_87
    b_ptrs = gl.cast(stride_be, gl.int64)
    b_ptrs_90 = off_experts_44 * b_ptrs
    b_ptrs_91 = b_ptr + b_ptrs_90
    b_ptrs_92 = gl.arange(0, 128, layout=L7)
    b_ptrs_93 = gl.expand_dims(b_ptrs_92, 1)
    b_ptrs_94 = gl.expand_dims(offs_bn_75, 0)
    b_ptrs_95 = gl.cast(stride_bn, gl.int64)
    b_ptrs_97 = b_ptrs_94 * b_ptrs_95
    b_ptrs_98 = b_ptrs_93.to(gl.int64)
    b_ptrs_99 = b_ptrs_98.broadcast_to([128, 128])
    b_ptrs_100 = b_ptrs_97.broadcast_to([128, 128])
    b_ptrs_101 = b_ptrs_99 + b_ptrs_100
    b_ptrs_103 = b_ptrs_91 + b_ptrs_101
    a_scale_ptrs = offs_token_36 // 6
    a_scale_ptrs_104 = gl.cast(stride_asm, gl.int64)
    a_scale_ptrs_106 = a_scale_ptrs * a_scale_ptrs_104
    a_scale_ptrs_108 = a_scale_ptr + a_scale_ptrs_106
    offs_bsn = offs_bn_76 // 128
    b_scale_ptrs = gl.cast(stride_bse, gl.int64)
    b_scale_ptrs_109 = off_experts_44 * b_scale_ptrs
    b_scale_ptrs_110 = b_scale_ptr + b_scale_ptrs_109
    b_scale_ptrs_111 = gl.cast(stride_bsn, gl.int64)
    b_scale_ptrs_113 = offs_bsn * b_scale_ptrs_111
    b_scale_ptrs_115 = b_scale_ptrs_110 + b_scale_ptrs_113
    v3 = K + 127
    v4 = v3 // 128
    twill_n = (v4 - 0 + 1 - 1) // 1
    accumulator_159 = gl.full([64, 128], 0.0, gl.float32, layout=L8)
    k_start = (0 + (0 - 0) * 1) * 128  # load2_a_scale: stage 0, partition 0 (group 0)
    offs_ks = k_start // 128  # load2_a_scale: stage 0, partition 0 (group 0)
    b_scale = offs_ks  # load3_b_scale: stage 0, partition 0 (group 0)
    b_scale_148 = b_scale_ptrs_115 + b_scale  # load3_b_scale: stage 0, partition 0 (group 0)
    b_scale_149 = gl.load(b_scale_148)  # load3_b_scale: stage 0, partition 0 (group 0)
    a_scale = offs_ks  # load2_a_scale: stage 0, partition 0 (group 0)
    a_scale_146 = a_scale_ptrs_108 + a_scale  # load2_a_scale: stage 0, partition 0 (group 0)
    a_scale_147 = gl.load(a_scale_146, mask=token_mask_42, other=0.0)  # load2_a_scale: stage 0, partition 0 (group 0)
    a_scale_147_p1 = a_scale_147
    accumulator_159_p1 = accumulator_159
    b_scale_149_p1 = b_scale_149
    for twill_b in range(1, twill_n):
        k_start = (0 + (twill_b - 0) * 1) * 128  # load2_a_scale: stage 0, partition 0 (group 0)
        offs_ks = k_start // 128  # load2_a_scale: stage 0, partition 0 (group 0)
        b_scale = offs_ks  # load3_b_scale: stage 0, partition 0 (group 0)
        b_scale_148 = b_scale_ptrs_115 + b_scale  # load3_b_scale: stage 0, partition 0 (group 0)
        b_scale_149 = gl.load(b_scale_148)  # load3_b_scale: stage 0, partition 0 (group 0)
        accumulator_154 = gl.convert_layout(b_scale_149_p1, L9)  # convert0_accumulator: stage 1, partition 0 (group 0)
        accumulator_155 = gl.expand_dims(accumulator_154, 0)  # convert1_accumulator: stage 1, partition 0 (group 0)
        accumulator_156 = accumulator_155.broadcast_to([64, 128])  # convert1_accumulator: stage 1, partition 0 (group 0)
        accumulator_157 = gl.convert_layout(accumulator_155, L8).broadcast_to([64, 128])  # convert1_accumulator: stage 1, partition 0 (group 0)
        mbarrier.wait(a_143_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
        fence_async_shared()
        mbarrier.wait(b_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
        fence_async_shared()
        tok_accumulator_150 = warpgroup_mma(a_143_buf.index((twill_b - 1) % 4), b_buf.index((twill_b - 1) % 4).permute((1, 0)), gl.full([64, 128], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
        a_scale = offs_ks  # load2_a_scale: stage 0, partition 0 (group 0)
        a_scale_146 = a_scale_ptrs_108 + a_scale  # load2_a_scale: stage 0, partition 0 (group 0)
        a_scale_147 = gl.load(a_scale_146, mask=token_mask_42, other=0.0)  # load2_a_scale: stage 0, partition 0 (group 0)
        accumulator_151 = gl.expand_dims(a_scale_147_p1, 1)  # elementwise0_accumulator: stage 1, partition 0 (group 0)
        accumulator_152 = accumulator_151.broadcast_to([64, 128])  # elementwise0_accumulator: stage 1, partition 0 (group 0)
        accumulator_150 = warpgroup_mma_wait(0, deps=(tok_accumulator_150,))
        mbarrier.arrive(a_143_empty.index((twill_b - 1) % 4))
        mbarrier.arrive(b_empty.index((twill_b - 1) % 4))
        accumulator_153 = accumulator_150 * accumulator_152  # elementwise0_accumulator: stage 1, partition 0 (group 0)
        accumulator_158 = accumulator_153 * accumulator_157  # elementwise0_accumulator: stage 1, partition 0 (group 0)
        accumulator_159 = accumulator_159_p1 + accumulator_158  # elementwise0_accumulator: stage 1, partition 0 (group 0)
        a_scale_147_p1 = a_scale_147
        accumulator_159_p1 = accumulator_159
        b_scale_149_p1 = b_scale_149
    accumulator_154 = gl.convert_layout(b_scale_149_p1, L9)  # convert0_accumulator: stage 1, partition 0 (group 0)
    accumulator_155 = gl.expand_dims(accumulator_154, 0)  # convert1_accumulator: stage 1, partition 0 (group 0)
    accumulator_156 = accumulator_155.broadcast_to([64, 128])  # convert1_accumulator: stage 1, partition 0 (group 0)
    accumulator_157 = gl.convert_layout(accumulator_155, L8).broadcast_to([64, 128])  # convert1_accumulator: stage 1, partition 0 (group 0)
    mbarrier.wait(a_143_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
    fence_async_shared()
    mbarrier.wait(b_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
    fence_async_shared()
    tok_accumulator_150 = warpgroup_mma(a_143_buf.index(((twill_n - 1 + 1) - 1) % 4), b_buf.index(((twill_n - 1 + 1) - 1) % 4).permute((1, 0)), gl.full([64, 128], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
    accumulator_151 = gl.expand_dims(a_scale_147_p1, 1)  # elementwise0_accumulator: stage 1, partition 0 (group 0)
    accumulator_152 = accumulator_151.broadcast_to([64, 128])  # elementwise0_accumulator: stage 1, partition 0 (group 0)
    accumulator_150 = warpgroup_mma_wait(0, deps=(tok_accumulator_150,))
    mbarrier.arrive(a_143_empty.index(((twill_n - 1 + 1) - 1) % 4))
    mbarrier.arrive(b_empty.index(((twill_n - 1 + 1) - 1) % 4))
    accumulator_153 = accumulator_150 * accumulator_152  # elementwise0_accumulator: stage 1, partition 0 (group 0)
    accumulator_158 = accumulator_153 * accumulator_157  # elementwise0_accumulator: stage 1, partition 0 (group 0)
    accumulator_159 = accumulator_159_p1 + accumulator_158  # elementwise0_accumulator: stage 1, partition 0 (group 0)
    a_scale_147_p1 = a_scale_147
    accumulator_159_p1 = accumulator_159
    b_scale_149_p1 = b_scale_149
    a_143_buf._keep_alive()
    b_buf._keep_alive()
    moe_weight_117 = topk_weights_ptr + offs_token_36
    moe_weight_118 = gl.load(moe_weight_117, mask=token_mask_42, other=0.0)
    accumulator_119 = gl.expand_dims(moe_weight_118, 1)
    accumulator_120 = accumulator_119.broadcast_to([64, 128])
    accumulator_121 = accumulator_159_p1 * accumulator_120
    accumulator_122 = accumulator_121.to(gl.bfloat16)
    offs_cn_124 = offs_bn + offs_bn_63
    c_ptrs_125 = gl.cast(stride_cm, gl.int64)
    c_ptrs_127 = c_ptrs_125 * a_ptrs_77
    c_ptrs_129 = c_ptr + c_ptrs_127
    c_ptrs_130 = gl.expand_dims(offs_cn_124, 0)
    c_ptrs_131 = c_ptrs_129.broadcast_to([64, 128])
    c_ptrs_132 = c_ptrs_130.broadcast_to([64, 128])
    c_ptrs_133 = c_ptrs_131 + c_ptrs_132
    c_mask_134 = gl.expand_dims(token_mask_40, 1)
    c_mask_136 = c_ptrs_130 < N
    c_mask_137 = c_mask_134.broadcast_to([64, 128])
    c_mask_138 = c_mask_136.broadcast_to([64, 128])
    c_mask_139 = c_mask_137 & c_mask_138
    v5 = gl.convert_layout(accumulator_122, L10)
    gl.store(c_ptrs_133, v5, mask=c_mask_139)

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_bse, stride_bsn, twill_box_b, a_143_buf, b_buf, a_143_ready, a_143_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m_8 = EM + 63
    num_pid_m_9 = num_pid_m_8 // 64
    num_pid_n = N + 127
    num_pid_n_10 = num_pid_n // 128
    num_pid_in_group = num_pid_n_10 * 32
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 32
    group_size_m = num_pid_m_9 - first_pid_m
    group_size_m_11 = gl.minimum(group_size_m, 32)
    pid_m = pid % num_pid_in_group
    pid_m_12 = pid_m % group_size_m_11
    pid_m_13 = first_pid_m + pid_m_12
    pid_n = pid_m // group_size_m_11
    v0 = pid_m_13 * 64
    offs_token_id_14 = gl.arange(0, 64, layout=L1)
    offs_token_id_17 = offs_token_id_14.to(gl.int64)
    offs_token_id_19 = gl.cast(v0, gl.int64)
    offs_token_id_24 = offs_token_id_19 + offs_token_id_17
    offs_token_29 = sorted_token_ids_ptr + offs_token_id_24
    offs_token_32 = gl.load(offs_token_29)
    offs_token_35 = offs_token_32.to(gl.int64)
    token_mask = gl.cast(num_valid_tokens, gl.int64)
    token_mask_41 = offs_token_35 < token_mask
    off_experts = expert_ids_ptr + pid_m_13
    off_experts_43 = gl.load(off_experts)
    off_experts_44 = gl.cast(off_experts_43, gl.int64)
    offs_bn = pid_n * 128
    offs_bn_62 = gl.arange(0, 128, layout=L3)
    offs_bn_65 = offs_bn_62.to(gl.int64)
    offs_bn_67 = gl.cast(offs_bn, gl.int64)
    offs_bn_70 = offs_bn_67 + offs_bn_65
    offs_bn_72 = gl.cast(N, gl.int64)
    offs_bn_75 = offs_bn_70 % offs_bn_72
    a_ptrs = gl.expand_dims(offs_token_35, 1)
    a_ptrs_78 = a_ptrs // 6
    a_ptrs_79 = gl.cast(stride_am, gl.int64)
    a_ptrs_81 = a_ptrs_78 * a_ptrs_79
    a_ptrs_82 = gl.arange(0, 128, layout=L6)
    a_ptrs_83 = gl.expand_dims(a_ptrs_82, 0)
    a_ptrs_84 = a_ptrs_83.to(gl.int64)
    a_ptrs_85 = a_ptrs_81.broadcast_to([64, 128])
    a_ptrs_86 = a_ptrs_84.broadcast_to([64, 128])
    a_ptrs_87 = a_ptrs_85 + a_ptrs_86
    a_ptrs_89 = a_ptr + a_ptrs_87
    b_ptrs = gl.cast(stride_be, gl.int64)
    b_ptrs_90 = off_experts_44 * b_ptrs
    b_ptrs_91 = b_ptr + b_ptrs_90
    b_ptrs_92 = gl.arange(0, 128, layout=L7)
    b_ptrs_93 = gl.expand_dims(b_ptrs_92, 1)
    b_ptrs_94 = gl.expand_dims(offs_bn_75, 0)
    b_ptrs_95 = gl.cast(stride_bn, gl.int64)
    b_ptrs_97 = b_ptrs_94 * b_ptrs_95
    b_ptrs_98 = b_ptrs_93.to(gl.int64)
    b_ptrs_99 = b_ptrs_98.broadcast_to([128, 128])
    b_ptrs_100 = b_ptrs_97.broadcast_to([128, 128])
    b_ptrs_101 = b_ptrs_99 + b_ptrs_100
    b_ptrs_103 = b_ptrs_91 + b_ptrs_101
    v3 = K + 127
    v4 = v3 // 128
    a = gl.expand_dims(token_mask_41, 1)
    a_116 = a.broadcast_to([64, 128])
    a_ptrs_141 = a_ptrs_89
    b_ptrs_142 = b_ptrs_103
    for accumulator_140 in range(0, v4, 1):
        twill_k = (accumulator_140 - 0) // 1
        a_ptrs_160 = a_ptrs_141 + 128
        b_ptrs_161 = b_ptrs_142 + 128
        mbarrier.wait(a_143_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_143_buf.index(twill_k % 4), a_ptrs_141, mask=a_116)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_143_ready.index(twill_k % 4), increment_count=False)
        else:
            a_143_buf.index(twill_k % 4).store(gl.load(a_ptrs_141, mask=a_116, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_143_ready.index(twill_k % 4), count=128)
        mbarrier.wait(b_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(b_ready.index(twill_k % 4), twill_box_b.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_b, [gl.cast(((128 * pid_n) % (N)), gl.int32), gl.cast(off_experts_43 * stride_be + 128 * accumulator_140, gl.int32)], b_ready.index(twill_k % 4), b_buf.index(twill_k % 4))  # load1_b: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 4).permute((1, 0)), b_ptrs_142)  # load1_b: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_ready.index(twill_k % 4), increment_count=False)
            else:
                b_buf.index(twill_k % 4).permute((1, 0)).store(gl.load(b_ptrs_142))  # load1_b: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_ready.index(twill_k % 4), count=128)
        a_ptrs_141 = a_ptrs_160
        b_ptrs_142 = b_ptrs_161

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_bse, stride_bsn, twill_box_b, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m_8 = EM + 63
    num_pid_m_9 = num_pid_m_8 // 64
    num_pid_n = N + 127
    num_pid_n_10 = num_pid_n // 128
    num_pid_in_group = num_pid_n_10 * 32
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 32
    group_size_m = num_pid_m_9 - first_pid_m
    group_size_m_11 = gl.minimum(group_size_m, 32)
    pid_m = pid % num_pid_in_group
    pid_m_12 = pid_m % group_size_m_11
    pid_m_13 = first_pid_m + pid_m_12
    num_tokens_post_padded = gl.load(num_tokens_post_padded_ptr)
    v0 = pid_m_13 * 64
    v1 = v0 >= num_tokens_post_padded
    if v1:
        return
    pid = gl.program_id(0)
    num_pid_m_8 = EM + 63
    num_pid_m_9 = num_pid_m_8 // 64
    num_pid_n = N + 127
    num_pid_n_10 = num_pid_n // 128
    num_pid_in_group = num_pid_n_10 * 32
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 32
    group_size_m = num_pid_m_9 - first_pid_m
    group_size_m_11 = gl.minimum(group_size_m, 32)
    pid_m = pid % num_pid_in_group
    pid_m_12 = pid_m % group_size_m_11
    pid_m_13 = first_pid_m + pid_m_12
    pid_n = pid_m // group_size_m_11
    v0 = pid_m_13 * 64
    offs_token_id = gl.arange(0, 64, layout=L0)
    offs_token_id_16 = offs_token_id.to(gl.int64)
    offs_token_id_19 = gl.cast(v0, gl.int64)
    offs_token_id_23 = offs_token_id_19 + offs_token_id_16
    offs_token_28 = sorted_token_ids_ptr + offs_token_id_23
    offs_token_31 = gl.load(offs_token_28)
    offs_token_34 = offs_token_31.to(gl.int64)
    token_mask = gl.cast(num_valid_tokens, gl.int64)
    token_mask_40 = offs_token_34 < token_mask
    off_experts = expert_ids_ptr + pid_m_13
    off_experts_43 = gl.load(off_experts)
    off_experts_44 = gl.cast(off_experts_43, gl.int64)
    v2 = off_experts_44 == -1
    if v2:
        offs_cn = pid_n * 128
        offs_cn_45 = gl.arange(0, 128, layout=L4)
        offs_cn_47 = offs_cn + offs_cn_45
        c_ptrs = gl.expand_dims(offs_token_34, 1)
        c_ptrs_48 = gl.cast(stride_cm, gl.int64)
        c_ptrs_50 = c_ptrs_48 * c_ptrs
        c_ptrs_52 = c_ptr + c_ptrs_50
        c_ptrs_53 = gl.expand_dims(offs_cn_47, 0)
        c_ptrs_54 = c_ptrs_52.broadcast_to([64, 128])
        c_ptrs_55 = c_ptrs_53.broadcast_to([64, 128])
        c_ptrs_56 = c_ptrs_54 + c_ptrs_55
        c_mask = gl.expand_dims(token_mask_40, 1)
        c_mask_58 = c_ptrs_53 < N
        c_mask_59 = c_mask.broadcast_to([64, 128])
        c_mask_60 = c_mask_58.broadcast_to([64, 128])
        c_mask_61 = c_mask_59 & c_mask_60
        gl.store(c_ptrs_56, gl.full([64, 128], 0.0, gl.bfloat16, layout=L10), mask=c_mask_61)
        return
    a_143_buf = gl.allocate_shared_memory(gl.float8e4nv, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    b_buf = gl.allocate_shared_memory(gl.float8e4nv, [4, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    a_143_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_143_ready.index(i), count=128)
    a_143_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_143_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_ready.index(i), count=1 if TWILL_TMA else 128)
    b_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_bse, stride_bsn, twill_box_b, a_143_buf, b_buf, a_143_ready, a_143_empty, b_ready, b_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_asm, stride_bse, stride_bsn, twill_box_b, a_143_buf, b_buf, a_143_ready, a_143_empty, b_ready, b_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [80])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_ak', 'stride_be', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_asm', 'stride_ask', 'stride_bse', 'stride_bsk', 'stride_bsn', 'group_n', 'group_k', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'MUL_ROUTED_WEIGHT', 'top_k', 'compute_type', 'use_fp8_w8a8', 'use_int8_w8a8', 'use_int8_w8a16', 'per_channel_quant', 'even_Ks', 'filter_expert']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_asm', 'stride_bse', 'stride_bsn', 'twill_box_b']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_asm', 'stride_bse', 'stride_bsn', 'compute_type']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'stride_ask': 1, 'stride_bsk': 1, 'group_n': 128, 'group_k': 128, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 128, 'GROUP_SIZE_M': 32, 'MUL_ROUTED_WEIGHT': True, 'top_k': 6, 'use_fp8_w8a8': True, 'use_int8_w8a8': False, 'use_int8_w8a16': False, 'per_channel_quant': False, 'even_Ks': True, 'filter_expert': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_b': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_b': ('b_ptr', ['stride_bn', '1'], [None, None], [128, 128], ['(N) % 128 == 0'])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'stride_am', 'stride_be', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 127) // 128)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 127) // 128)): run the Triton kernel for it")
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
