"""fused_moe_kernel_gptq_awq, written by twill from its joint schedule: I=128 L=188 (optimal), 1024 cycles per iteration predicted.

Decisions (each from the schedule):
- a_131 copied with cp.async at every launch, not by TMA: its addresses go through arith.divsi (%a_ptrs_58), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_131): their addresses and masks spread over 128 threads
- the consumers' pointer loads in their readers' stage: a stage ahead, ptxas spills registers (1770 bytes stored, 2028 loaded, 400 spill instructions in the loop)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 176): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a_131: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared operand b_153_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 49232 bytes planned of 232448; maxnreg 256
- early return at vllm_fused_moe_gptq_awq.py:83 (TTGIR line 67): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at vllm_fused_moe_gptq_awq.py:90 (TTGIR line 97): taken in the kernel itself, before gl.warp_specialize starts the partitions (its branch's 18 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 2 iteration(s) ahead, 32768 bytes of shared memory compiled, ptxas 255 registers, ptxas spills registers (1108 bytes stored, 1120 loaded, 152 spill instructions in the loop); simulated for 1, 2, 3, 8 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, b_scale_ptr, b_zp_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_bse, stride_bsn, stride_bze, stride_bzn, a_131_buf, b_153_st, a_131_ready, a_131_empty, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m_14 = EM + 63
    num_pid_m_15 = num_pid_m_14 // 64
    group_id = pid // 256
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_15 - first_pid_m
    group_size_m_16 = gl.minimum(group_size_m, 8)
    pid_m = pid % 256
    pid_m_17 = pid_m % group_size_m_16
    pid_m_18 = first_pid_m + pid_m_17
    pid_n = pid_m // group_size_m_16
    v0 = pid_m_18 * 64
    offs_token_id = gl.arange(0, 64, layout=L0)
    offs_token_id_19 = gl.arange(0, 64, layout=L1)
    offs_token_id_20 = gl.arange(0, 64, layout=L2)
    offs_token_id_21 = gl.arange(0, 64, layout=L3)
    offs_token_id_22 = offs_token_id.to(gl.int64)
    offs_token_id_23 = offs_token_id_19.to(gl.int64)
    offs_token_id_24 = offs_token_id_21.to(gl.int64)
    offs_token_id_25 = gl.cast(v0, gl.int64)
    offs_token_id_28 = offs_token_id_25 + offs_token_id_22
    offs_token_id_29 = offs_token_id_25 + offs_token_id_23
    offs_token_31 = sorted_token_ids_ptr + offs_token_id_28
    offs_token_32 = sorted_token_ids_ptr + offs_token_id_29
    offs_token_33 = gl.load(offs_token_31)
    offs_token_34 = gl.load(offs_token_32)
    token_mask_36 = offs_token_33 < num_valid_tokens
    token_mask_37 = offs_token_34 < num_valid_tokens
    off_experts = expert_ids_ptr + pid_m_18
    off_experts_38 = gl.load(off_experts)
    off_experts_39 = gl.cast(off_experts_38, gl.int64)
    offs_bn = pid_n * 64
    offs_bn_54 = gl.cast(offs_bn, gl.int64)
    offs_bn_56 = offs_bn_54 + offs_token_id_24
    offs_bn_57 = offs_bn_56 % 2048
    a_ptrs = gl.expand_dims(offs_token_33, 1)
    a_ptrs_58 = a_ptrs // 2
    a_ptrs_60 = a_ptrs_58 * stride_am
    a_ptrs_61 = gl.expand_dims(offs_token_id_20, 0)
    a_ptrs_62 = a_ptrs_60.broadcast_to([64, 64])
    a_ptrs_63 = a_ptrs_61.broadcast_to([64, 64])
    a_ptrs_64 = a_ptrs_62 + a_ptrs_63
    a_ptrs_66 = a_ptr + a_ptrs_64
    b_ptrs = gl.cast(stride_be, gl.int64)
    b_ptrs_67 = off_experts_39 * b_ptrs
    b_ptrs_68 = b_ptr + b_ptrs_67
    b_ptrs_69 = gl.arange(0, 64, layout=L4)
    b_ptrs_70 = gl.expand_dims(b_ptrs_69, 1)
    b_ptrs_71 = b_ptrs_70 // 2
    b_ptrs_73 = b_ptrs_68 + b_ptrs_71
    b_ptrs_74 = gl.expand_dims(offs_bn_57, 0)
    b_ptrs_75 = gl.cast(stride_bn, gl.int64)
    b_ptrs_77 = b_ptrs_74 * b_ptrs_75
    b_ptrs_78 = b_ptrs_73.broadcast_to([64, 64])
    b_ptrs_79 = b_ptrs_77.broadcast_to([64, 64])
    b_ptrs_80 = b_ptrs_78 + b_ptrs_79
    b_shifter = b_ptrs_70 % 2
    b_shifter_81 = b_shifter * 4
    b_zp_shifter = b_ptrs_74 % 2
    b_zp_shifter_82 = b_zp_shifter * 4
    a = gl.expand_dims(token_mask_36, 1)
    a_83 = a.broadcast_to([64, 64])
    b = b_shifter_81.broadcast_to([64, 64])
    b_scale_ptrs = gl.cast(stride_bse, gl.int64)
    b_scale_ptrs_84 = off_experts_39 * b_scale_ptrs
    b_scale_ptrs_85 = b_scale_ptr + b_scale_ptrs_84
    b_scale_ptrs_86 = gl.cast(stride_bsn, gl.int64)
    b_scale_ptrs_88 = b_ptrs_74 * b_scale_ptrs_86
    b_scale_ptrs_90 = b_scale_ptrs_85 + b_scale_ptrs_88
    b_scale_ptrs_91 = b_scale_ptrs_90.broadcast_to([64, 64])
    b_zp_ptrs = gl.cast(stride_bze, gl.int64)
    b_zp_ptrs_92 = off_experts_39 * b_zp_ptrs
    b_zp_ptrs_93 = b_zp_ptr + b_zp_ptrs_92
    b_zp_ptrs_94 = b_ptrs_74 // 2
    b_zp_ptrs_95 = gl.cast(stride_bzn, gl.int64)
    b_zp_ptrs_97 = b_zp_ptrs_94 * b_zp_ptrs_95
    b_zp_ptrs_99 = b_zp_ptrs_93 + b_zp_ptrs_97
    b_zp_ptrs_100 = b_zp_ptrs_99.broadcast_to([64, 64])
    b_zp = b_zp_shifter_82.broadcast_to([64, 64])
    twill_n = (32 - 0 + 1 - 1) // 1
    accumulator_154 = gl.full([64, 64], 0.0, gl.float32, layout=L5)
    b_ptrs_156 = b_ptrs_80
    a_125 = (0 + (0 - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
    a_126 = 2048 - a_125  # elementwise0_a: stage 0, partition 0 (group 0)
    a_127 = a_126  # elementwise0_a: stage 0, partition 0 (group 0)
    a_128 = a_ptrs_61 < a_127  # elementwise0_a: stage 0, partition 0 (group 0)
    a_129 = a_128.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
    a_130 = a_83 & a_129  # elementwise0_a: stage 0, partition 0 (group 0)
    b_scale_ptrs_137 = a_125  # load2_b_scale: stage 0, partition 0 (group 0)
    b_scale_ptrs_138 = b_ptrs_70 + b_scale_ptrs_137  # load2_b_scale: stage 0, partition 0 (group 0)
    b_scale_ptrs_139 = b_scale_ptrs_138 // 128  # load2_b_scale: stage 0, partition 0 (group 0)
    b_scale_ptrs_140 = b_scale_ptrs_139.broadcast_to([64, 64])  # load2_b_scale: stage 0, partition 0 (group 0)
    b_scale_ptrs_141 = b_scale_ptrs_91 + b_scale_ptrs_140  # load2_b_scale: stage 0, partition 0 (group 0)
    b_scale = gl.load(b_scale_ptrs_141)  # load2_b_scale: stage 0, partition 0 (group 0)
    b_zp_ptrs_143 = b_zp_ptrs_100 + b_scale_ptrs_140  # load3_b_zp: stage 0, partition 0 (group 0)
    b_zp_144 = gl.load(b_zp_ptrs_143)  # load3_b_zp: stage 0, partition 0 (group 0)
    b_zp_145 = gl.cast(gl.cast(b_zp_144, gl.uint8, bitcast=True).to(gl.uint64), gl.int64, bitcast=True)  # convert2_b_zp: stage 0, partition 0 (group 0)
    b_zp_146 = gl.cast(gl.cast(b_zp_145, gl.uint64, bitcast=True) >> gl.cast(b_zp, gl.uint64, bitcast=True), gl.int64, bitcast=True)  # convert2_b_zp: stage 0, partition 0 (group 0)
    b_zp_147 = b_zp_146 & 15  # convert2_b_zp: stage 0, partition 0 (group 0)
    b_zp_148 = b_zp_147.to(gl.float32)  # convert2_b_zp: stage 0, partition 0 (group 0)
    accumulator_154_p1 = accumulator_154
    b_ptrs_156_p1 = b_ptrs_156
    b_scale_p1 = b_scale
    b_zp_148_p1 = b_zp_148
    for twill_b in range(1, twill_n):
        a_125 = (0 + (twill_b - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
        a_126 = 2048 - a_125  # elementwise0_a: stage 0, partition 0 (group 0)
        a_127 = a_126  # elementwise0_a: stage 0, partition 0 (group 0)
        a_128 = a_ptrs_61 < a_127  # elementwise0_a: stage 0, partition 0 (group 0)
        a_129 = a_128.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_130 = a_83 & a_129  # elementwise0_a: stage 0, partition 0 (group 0)
        b_ptrs_156 = b_ptrs_156_p1 + 32  # load1_b: stage 1, partition 0 (group 0)
        b_133 = gl.load(b_ptrs_156_p1)  # load1_b: stage 1, partition 0 (group 0)
        b_134 = gl.cast(gl.cast(b_133, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert0_b: stage 1, partition 0 (group 0)
        b_135 = gl.cast(gl.cast(b_134, gl.uint32, bitcast=True) >> gl.cast(b, gl.uint32, bitcast=True), gl.int32, bitcast=True)  # convert0_b: stage 1, partition 0 (group 0)
        b_136 = b_135 & 15  # convert0_b: stage 1, partition 0 (group 0)
        b_149 = b_136.to(gl.float32)  # convert0_b: stage 1, partition 0 (group 0)
        b_scale_ptrs_137 = a_125  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale_ptrs_138 = b_ptrs_70 + b_scale_ptrs_137  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale_ptrs_139 = b_scale_ptrs_138 // 128  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale_ptrs_140 = b_scale_ptrs_139.broadcast_to([64, 64])  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale_ptrs_141 = b_scale_ptrs_91 + b_scale_ptrs_140  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale = gl.load(b_scale_ptrs_141)  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale_142 = b_scale_p1.to(gl.float32)  # convert1_b_scale: stage 1, partition 0 (group 0)
        b_150 = b_149 - b_zp_148_p1  # elementwise1_b: stage 1, partition 0 (group 0)
        b_151 = b_150 * b_scale_142  # elementwise1_b: stage 1, partition 0 (group 0)
        b_152 = b_151.to(gl.float16)  # convert3_b: stage 1, partition 0 (group 0)
        b_153 = b_153_st.index((twill_b - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
        b_153.store(b_152)  # local_store0_b: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
        mbarrier.wait(a_131_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
        fence_async_shared()
        tok_accumulator_154 = warpgroup_mma(a_131_buf.index((twill_b - 1) % 4), b_153, accumulator_154_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
        b_zp_ptrs_143 = b_zp_ptrs_100 + b_scale_ptrs_140  # load3_b_zp: stage 0, partition 0 (group 0)
        b_zp_144 = gl.load(b_zp_ptrs_143)  # load3_b_zp: stage 0, partition 0 (group 0)
        b_zp_145 = gl.cast(gl.cast(b_zp_144, gl.uint8, bitcast=True).to(gl.uint64), gl.int64, bitcast=True)  # convert2_b_zp: stage 0, partition 0 (group 0)
        b_zp_146 = gl.cast(gl.cast(b_zp_145, gl.uint64, bitcast=True) >> gl.cast(b_zp, gl.uint64, bitcast=True), gl.int64, bitcast=True)  # convert2_b_zp: stage 0, partition 0 (group 0)
        b_zp_147 = b_zp_146 & 15  # convert2_b_zp: stage 0, partition 0 (group 0)
        b_zp_148 = b_zp_147.to(gl.float32)  # convert2_b_zp: stage 0, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_accumulator_154,))
        mbarrier.arrive(a_131_empty.index((twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
        accumulator_154 = warpgroup_mma_wait(1, deps=(tok_accumulator_154,))
        accumulator_154_p1 = accumulator_154
        b_ptrs_156_p1 = b_ptrs_156
        b_scale_p1 = b_scale
        b_zp_148_p1 = b_zp_148
    b_ptrs_156 = b_ptrs_156_p1 + 32  # load1_b: stage 1, partition 0 (group 0)
    b_133 = gl.load(b_ptrs_156_p1)  # load1_b: stage 1, partition 0 (group 0)
    b_134 = gl.cast(gl.cast(b_133, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert0_b: stage 1, partition 0 (group 0)
    b_135 = gl.cast(gl.cast(b_134, gl.uint32, bitcast=True) >> gl.cast(b, gl.uint32, bitcast=True), gl.int32, bitcast=True)  # convert0_b: stage 1, partition 0 (group 0)
    b_136 = b_135 & 15  # convert0_b: stage 1, partition 0 (group 0)
    b_149 = b_136.to(gl.float32)  # convert0_b: stage 1, partition 0 (group 0)
    b_scale_142 = b_scale_p1.to(gl.float32)  # convert1_b_scale: stage 1, partition 0 (group 0)
    b_150 = b_149 - b_zp_148_p1  # elementwise1_b: stage 1, partition 0 (group 0)
    b_151 = b_150 * b_scale_142  # elementwise1_b: stage 1, partition 0 (group 0)
    b_152 = b_151.to(gl.float16)  # convert3_b: stage 1, partition 0 (group 0)
    b_153 = b_153_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
    b_153.store(b_152)  # local_store0_b: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
    mbarrier.wait(a_131_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
    fence_async_shared()
    tok_accumulator_154 = warpgroup_mma(a_131_buf.index(((twill_n - 1 + 1) - 1) % 4), b_153, accumulator_154_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_accumulator_154,))
    mbarrier.arrive(a_131_empty.index(((twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
    accumulator_154 = warpgroup_mma_wait(1, deps=(tok_accumulator_154,))
    accumulator_154_p1 = accumulator_154
    b_ptrs_156_p1 = b_ptrs_156
    b_scale_p1 = b_scale
    b_zp_148_p1 = b_zp_148
    accumulator_154_p1 = warpgroup_mma_wait(0, deps=(accumulator_154_p1,))
    a_131_buf._keep_alive()
    b_153_st._keep_alive()
    mbarrier.arrive(a_131_empty.index(((twill_n - 1 + 1) - 1) % 4))
    moe_weight_101 = topk_weights_ptr + offs_token_34
    moe_weight_102 = gl.load(moe_weight_101, mask=token_mask_37, other=0.0)
    accumulator_103 = gl.expand_dims(moe_weight_102, 1)
    accumulator_104 = accumulator_103.broadcast_to([64, 64])
    accumulator_105 = accumulator_154_p1 * accumulator_104
    accumulator_106 = accumulator_105.to(gl.float16)
    offs_cn_108 = offs_bn + offs_token_id_20
    c_ptrs_110 = stride_cm * a_ptrs
    c_ptrs_112 = c_ptr + c_ptrs_110
    c_ptrs_113 = gl.expand_dims(offs_cn_108, 0)
    c_ptrs_114 = c_ptrs_112.broadcast_to([64, 64])
    c_ptrs_115 = c_ptrs_113.broadcast_to([64, 64])
    c_ptrs_116 = c_ptrs_114 + c_ptrs_115
    c_mask_117 = gl.expand_dims(token_mask_36, 1)
    c_mask_118 = c_ptrs_113 < 2048
    c_mask_119 = c_mask_117.broadcast_to([64, 64])
    c_mask_120 = c_mask_118.broadcast_to([64, 64])
    c_mask_121 = c_mask_119 & c_mask_120
    v3 = gl.convert_layout(accumulator_106, L6)
    gl.store(c_ptrs_116, v3, mask=c_mask_121)

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, b_scale_ptr, b_zp_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_bse, stride_bsn, stride_bze, stride_bzn, a_131_buf, b_153_st, a_131_ready, a_131_empty, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m_14 = EM + 63
    num_pid_m_15 = num_pid_m_14 // 64
    group_id = pid // 256
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_15 - first_pid_m
    group_size_m_16 = gl.minimum(group_size_m, 8)
    pid_m = pid % 256
    pid_m_17 = pid_m % group_size_m_16
    pid_m_18 = first_pid_m + pid_m_17
    v0 = pid_m_18 * 64
    offs_token_id = gl.arange(0, 64, layout=L0)
    offs_token_id_20 = gl.arange(0, 64, layout=L2)
    offs_token_id_22 = offs_token_id.to(gl.int64)
    offs_token_id_25 = gl.cast(v0, gl.int64)
    offs_token_id_28 = offs_token_id_25 + offs_token_id_22
    offs_token_31 = sorted_token_ids_ptr + offs_token_id_28
    offs_token_33 = gl.load(offs_token_31)
    token_mask_36 = offs_token_33 < num_valid_tokens
    a_ptrs = gl.expand_dims(offs_token_33, 1)
    a_ptrs_58 = a_ptrs // 2
    a_ptrs_60 = a_ptrs_58 * stride_am
    a_ptrs_61 = gl.expand_dims(offs_token_id_20, 0)
    a_ptrs_62 = a_ptrs_60.broadcast_to([64, 64])
    a_ptrs_63 = a_ptrs_61.broadcast_to([64, 64])
    a_ptrs_64 = a_ptrs_62 + a_ptrs_63
    a_ptrs_66 = a_ptr + a_ptrs_64
    a = gl.expand_dims(token_mask_36, 1)
    a_83 = a.broadcast_to([64, 64])
    a_ptrs_123 = a_ptrs_66
    for accumulator_122 in range(0, 32, 1):
        twill_k = (accumulator_122 - 0) // 1
        a_125 = accumulator_122 * 64
        a_126 = 2048 - a_125
        a_128 = a_ptrs_61 < a_126
        a_129 = a_128.broadcast_to([64, 64])
        a_130 = a_83 & a_129
        a_ptrs_155 = a_ptrs_123 + 64
        mbarrier.wait(a_131_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_131_buf.index(twill_k % 4), a_ptrs_123, mask=a_130)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_131_ready.index(twill_k % 4), increment_count=False)
        else:
            a_131_buf.index(twill_k % 4).store(gl.load(a_ptrs_123, mask=a_130, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_131_ready.index(twill_k % 4), count=128)
        a_ptrs_123 = a_ptrs_155

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, b_scale_ptr, b_zp_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_bse, stride_bsn, stride_bze, stride_bzn, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m_14 = EM + 63
    num_pid_m_15 = num_pid_m_14 // 64
    group_id = pid // 256
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_15 - first_pid_m
    group_size_m_16 = gl.minimum(group_size_m, 8)
    pid_m = pid % 256
    pid_m_17 = pid_m % group_size_m_16
    pid_m_18 = first_pid_m + pid_m_17
    num_tokens_post_padded = gl.load(num_tokens_post_padded_ptr)
    v0 = pid_m_18 * 64
    v1 = v0 >= num_tokens_post_padded
    if v1:
        return
    pid = gl.program_id(0)
    num_pid_m_14 = EM + 63
    num_pid_m_15 = num_pid_m_14 // 64
    group_id = pid // 256
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_15 - first_pid_m
    group_size_m_16 = gl.minimum(group_size_m, 8)
    pid_m = pid % 256
    pid_m_17 = pid_m % group_size_m_16
    pid_m_18 = first_pid_m + pid_m_17
    pid_n = pid_m // group_size_m_16
    v0 = pid_m_18 * 64
    offs_token_id = gl.arange(0, 64, layout=L0)
    offs_token_id_20 = gl.arange(0, 64, layout=L2)
    offs_token_id_22 = offs_token_id.to(gl.int64)
    offs_token_id_25 = gl.cast(v0, gl.int64)
    offs_token_id_28 = offs_token_id_25 + offs_token_id_22
    offs_token_31 = sorted_token_ids_ptr + offs_token_id_28
    offs_token_33 = gl.load(offs_token_31)
    token_mask_36 = offs_token_33 < num_valid_tokens
    off_experts = expert_ids_ptr + pid_m_18
    off_experts_38 = gl.load(off_experts)
    off_experts_39 = gl.cast(off_experts_38, gl.int64)
    v2 = off_experts_39 == -1
    if v2:
        offs_cn = pid_n * 64
        offs_cn_41 = offs_cn + offs_token_id_20
        c_ptrs = gl.expand_dims(offs_token_33, 1)
        c_ptrs_43 = stride_cm * c_ptrs
        c_ptrs_45 = c_ptr + c_ptrs_43
        c_ptrs_46 = gl.expand_dims(offs_cn_41, 0)
        c_ptrs_47 = c_ptrs_45.broadcast_to([64, 64])
        c_ptrs_48 = c_ptrs_46.broadcast_to([64, 64])
        c_ptrs_49 = c_ptrs_47 + c_ptrs_48
        c_mask = gl.expand_dims(token_mask_36, 1)
        c_mask_50 = c_ptrs_46 < 2048
        c_mask_51 = c_mask.broadcast_to([64, 64])
        c_mask_52 = c_mask_50.broadcast_to([64, 64])
        c_mask_53 = c_mask_51 & c_mask_52
        gl.store(c_ptrs_49, gl.full([64, 64], 0.0, gl.float16, layout=L6), mask=c_mask_53)
        return
    a_131_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_153_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    a_131_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_131_ready.index(i), count=128)
    a_131_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_131_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, b_scale_ptr, b_zp_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_bse, stride_bsn, stride_bze, stride_bzn, a_131_buf, b_153_st, a_131_ready, a_131_empty, TWILL_COPY)),
        (producer_1, (a_ptr, b_ptr, c_ptr, b_scale_ptr, b_zp_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_bse, stride_bsn, stride_bze, stride_bzn, a_131_buf, b_153_st, a_131_ready, a_131_empty, TWILL_COPY)),
    ], [4], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L4_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L5_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L6_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, b_ptr, c_ptr, b_scale_ptr, b_zp_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_bse, stride_bsn, stride_bze, stride_bzn):
    pid = gl.program_id(0)
    num_pid_m_14 = EM + 63
    num_pid_m_15 = num_pid_m_14 // 64
    group_id = pid // 256
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_15 - first_pid_m
    group_size_m_16 = gl.minimum(group_size_m, 8)
    pid_m = pid % 256
    pid_m_17 = pid_m % group_size_m_16
    pid_m_18 = first_pid_m + pid_m_17
    pid_n = pid_m // group_size_m_16
    v0 = pid_m_18 * 64
    offs_token_id = gl.arange(0, 64, layout=L0_short)
    offs_token_id_19 = gl.arange(0, 64, layout=L1_short)
    offs_token_id_20 = gl.arange(0, 64, layout=L2_short)
    offs_token_id_21 = gl.arange(0, 64, layout=L3_short)
    offs_token_id_22 = offs_token_id.to(gl.int64)
    offs_token_id_23 = offs_token_id_19.to(gl.int64)
    offs_token_id_24 = offs_token_id_21.to(gl.int64)
    offs_token_id_25 = gl.cast(v0, gl.int64)
    offs_token_id_28 = offs_token_id_25 + offs_token_id_22
    offs_token_id_29 = offs_token_id_25 + offs_token_id_23
    offs_token_31 = sorted_token_ids_ptr + offs_token_id_28
    offs_token_32 = sorted_token_ids_ptr + offs_token_id_29
    offs_token_33 = gl.load(offs_token_31)
    offs_token_34 = gl.load(offs_token_32)
    token_mask_36 = offs_token_33 < num_valid_tokens
    token_mask_37 = offs_token_34 < num_valid_tokens
    off_experts = expert_ids_ptr + pid_m_18
    off_experts_38 = gl.load(off_experts)
    off_experts_39 = gl.cast(off_experts_38, gl.int64)
    offs_bn = pid_n * 64
    offs_bn_54 = gl.cast(offs_bn, gl.int64)
    offs_bn_56 = offs_bn_54 + offs_token_id_24
    offs_bn_57 = offs_bn_56 % 2048
    a_ptrs = gl.expand_dims(offs_token_33, 1)
    a_ptrs_58 = a_ptrs // 2
    a_ptrs_60 = a_ptrs_58 * stride_am
    a_ptrs_61 = gl.expand_dims(offs_token_id_20, 0)
    a_ptrs_62 = a_ptrs_60.broadcast_to([64, 64])
    a_ptrs_63 = a_ptrs_61.broadcast_to([64, 64])
    a_ptrs_64 = a_ptrs_62 + a_ptrs_63
    a_ptrs_66 = a_ptr + a_ptrs_64
    b_ptrs = gl.cast(stride_be, gl.int64)
    b_ptrs_67 = off_experts_39 * b_ptrs
    b_ptrs_68 = b_ptr + b_ptrs_67
    b_ptrs_69 = gl.arange(0, 64, layout=L4_short)
    b_ptrs_70 = gl.expand_dims(b_ptrs_69, 1)
    b_ptrs_71 = b_ptrs_70 // 2
    b_ptrs_73 = b_ptrs_68 + b_ptrs_71
    b_ptrs_74 = gl.expand_dims(offs_bn_57, 0)
    b_ptrs_75 = gl.cast(stride_bn, gl.int64)
    b_ptrs_77 = b_ptrs_74 * b_ptrs_75
    b_ptrs_78 = b_ptrs_73.broadcast_to([64, 64])
    b_ptrs_79 = b_ptrs_77.broadcast_to([64, 64])
    b_ptrs_80 = b_ptrs_78 + b_ptrs_79
    b_shifter = b_ptrs_70 % 2
    b_shifter_81 = b_shifter * 4
    b_zp_shifter = b_ptrs_74 % 2
    b_zp_shifter_82 = b_zp_shifter * 4
    a = gl.expand_dims(token_mask_36, 1)
    a_83 = a.broadcast_to([64, 64])
    b = b_shifter_81.broadcast_to([64, 64])
    b_scale_ptrs = gl.cast(stride_bse, gl.int64)
    b_scale_ptrs_84 = off_experts_39 * b_scale_ptrs
    b_scale_ptrs_85 = b_scale_ptr + b_scale_ptrs_84
    b_scale_ptrs_86 = gl.cast(stride_bsn, gl.int64)
    b_scale_ptrs_88 = b_ptrs_74 * b_scale_ptrs_86
    b_scale_ptrs_90 = b_scale_ptrs_85 + b_scale_ptrs_88
    b_scale_ptrs_91 = b_scale_ptrs_90.broadcast_to([64, 64])
    b_zp_ptrs = gl.cast(stride_bze, gl.int64)
    b_zp_ptrs_92 = off_experts_39 * b_zp_ptrs
    b_zp_ptrs_93 = b_zp_ptr + b_zp_ptrs_92
    b_zp_ptrs_94 = b_ptrs_74 // 2
    b_zp_ptrs_95 = gl.cast(stride_bzn, gl.int64)
    b_zp_ptrs_97 = b_zp_ptrs_94 * b_zp_ptrs_95
    b_zp_ptrs_99 = b_zp_ptrs_93 + b_zp_ptrs_97
    b_zp_ptrs_100 = b_zp_ptrs_99.broadcast_to([64, 64])
    b_zp = b_zp_shifter_82.broadcast_to([64, 64])
    twill_n = (32 - 0 + 1 - 1) // 1
    b_153_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    a_132_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    accumulator_154 = gl.full([64, 64], 0.0, gl.float32, layout=L5_short)
    a_ptrs_155 = a_ptrs_66
    b_ptrs_156 = b_ptrs_80
    a_125 = (0 + (0 - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
    a_126 = 2048 - a_125  # elementwise0_a: stage 0, partition 0 (group 0)
    a_127 = a_126  # elementwise0_a: stage 0, partition 0 (group 0)
    a_128 = a_ptrs_61 < a_127  # elementwise0_a: stage 0, partition 0 (group 0)
    a_129 = a_128.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
    a_130 = a_83 & a_129  # elementwise0_a: stage 0, partition 0 (group 0)
    b_scale_ptrs_137 = a_125  # load2_b_scale: stage 0, partition 0 (group 0)
    b_scale_ptrs_138 = b_ptrs_70 + b_scale_ptrs_137  # load2_b_scale: stage 0, partition 0 (group 0)
    b_scale_ptrs_139 = b_scale_ptrs_138 // 128  # load2_b_scale: stage 0, partition 0 (group 0)
    b_scale_ptrs_140 = b_scale_ptrs_139.broadcast_to([64, 64])  # load2_b_scale: stage 0, partition 0 (group 0)
    b_scale_ptrs_141 = b_scale_ptrs_91 + b_scale_ptrs_140  # load2_b_scale: stage 0, partition 0 (group 0)
    b_scale = gl.load(b_scale_ptrs_141)  # load2_b_scale: stage 0, partition 0 (group 0)
    b_zp_ptrs_143 = b_zp_ptrs_100 + b_scale_ptrs_140  # load3_b_zp: stage 0, partition 0 (group 0)
    b_zp_144 = gl.load(b_zp_ptrs_143)  # load3_b_zp: stage 0, partition 0 (group 0)
    b_zp_145 = gl.cast(gl.cast(b_zp_144, gl.uint8, bitcast=True).to(gl.uint64), gl.int64, bitcast=True)  # convert2_b_zp: stage 0, partition 0 (group 0)
    b_zp_146 = gl.cast(gl.cast(b_zp_145, gl.uint64, bitcast=True) >> gl.cast(b_zp, gl.uint64, bitcast=True), gl.int64, bitcast=True)  # convert2_b_zp: stage 0, partition 0 (group 0)
    b_zp_147 = b_zp_146 & 15  # convert2_b_zp: stage 0, partition 0 (group 0)
    b_zp_148 = b_zp_147.to(gl.float32)  # convert2_b_zp: stage 0, partition 0 (group 0)
    a_130_p1 = a_130
    a_ptrs_155_p1 = a_ptrs_155
    accumulator_154_p1 = accumulator_154
    b_ptrs_156_p1 = b_ptrs_156
    b_scale_p1 = b_scale
    b_zp_148_p1 = b_zp_148
    for twill_b in range(1, twill_n):
        a_125 = (0 + (twill_b - 0) * 1) * 64  # elementwise0_a: stage 0, partition 0 (group 0)
        a_126 = 2048 - a_125  # elementwise0_a: stage 0, partition 0 (group 0)
        a_127 = a_126  # elementwise0_a: stage 0, partition 0 (group 0)
        a_128 = a_ptrs_61 < a_127  # elementwise0_a: stage 0, partition 0 (group 0)
        a_129 = a_128.broadcast_to([64, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_130 = a_83 & a_129  # elementwise0_a: stage 0, partition 0 (group 0)
        b_ptrs_156 = b_ptrs_156_p1 + 32  # load1_b: stage 1, partition 0 (group 0)
        b_133 = gl.load(b_ptrs_156_p1)  # load1_b: stage 1, partition 0 (group 0)
        b_134 = gl.cast(gl.cast(b_133, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert0_b: stage 1, partition 0 (group 0)
        b_135 = gl.cast(gl.cast(b_134, gl.uint32, bitcast=True) >> gl.cast(b, gl.uint32, bitcast=True), gl.int32, bitcast=True)  # convert0_b: stage 1, partition 0 (group 0)
        b_136 = b_135 & 15  # convert0_b: stage 1, partition 0 (group 0)
        b_149 = b_136.to(gl.float32)  # convert0_b: stage 1, partition 0 (group 0)
        b_scale_ptrs_137 = a_125  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale_ptrs_138 = b_ptrs_70 + b_scale_ptrs_137  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale_ptrs_139 = b_scale_ptrs_138 // 128  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale_ptrs_140 = b_scale_ptrs_139.broadcast_to([64, 64])  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale_ptrs_141 = b_scale_ptrs_91 + b_scale_ptrs_140  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale = gl.load(b_scale_ptrs_141)  # load2_b_scale: stage 0, partition 0 (group 0)
        b_scale_142 = b_scale_p1.to(gl.float32)  # convert1_b_scale: stage 1, partition 0 (group 0)
        b_150 = b_149 - b_zp_148_p1  # elementwise1_b: stage 1, partition 0 (group 0)
        b_151 = b_150 * b_scale_142  # elementwise1_b: stage 1, partition 0 (group 0)
        b_152 = b_151.to(gl.float16)  # convert3_b: stage 1, partition 0 (group 0)
        b_153 = b_153_st.index((twill_b - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
        b_153.store(b_152)  # local_store0_b: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
        a_ptrs_155 = a_ptrs_155_p1 + 64  # load0_a: stage 1, partition 0 (group 0)
        a_131 = gl.load(a_ptrs_155_p1, mask=a_130_p1, other=0.0)  # load0_a: stage 1, partition 0 (group 0)
        a_132 = a_132_st.index((twill_b - 1) % 2)  # load0_a: stage 1, partition 0 (group 0)
        a_132.store(a_131)  # load0_a: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_a: stage 1, partition 0 (group 0)
        tok_accumulator_154 = warpgroup_mma(a_132, b_153, accumulator_154_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
        b_zp_ptrs_143 = b_zp_ptrs_100 + b_scale_ptrs_140  # load3_b_zp: stage 0, partition 0 (group 0)
        b_zp_144 = gl.load(b_zp_ptrs_143)  # load3_b_zp: stage 0, partition 0 (group 0)
        b_zp_145 = gl.cast(gl.cast(b_zp_144, gl.uint8, bitcast=True).to(gl.uint64), gl.int64, bitcast=True)  # convert2_b_zp: stage 0, partition 0 (group 0)
        b_zp_146 = gl.cast(gl.cast(b_zp_145, gl.uint64, bitcast=True) >> gl.cast(b_zp, gl.uint64, bitcast=True), gl.int64, bitcast=True)  # convert2_b_zp: stage 0, partition 0 (group 0)
        b_zp_147 = b_zp_146 & 15  # convert2_b_zp: stage 0, partition 0 (group 0)
        b_zp_148 = b_zp_147.to(gl.float32)  # convert2_b_zp: stage 0, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_accumulator_154,))
        accumulator_154 = warpgroup_mma_wait(1, deps=(tok_accumulator_154,))
        a_130_p1 = a_130
        a_ptrs_155_p1 = a_ptrs_155
        accumulator_154_p1 = accumulator_154
        b_ptrs_156_p1 = b_ptrs_156
        b_scale_p1 = b_scale
        b_zp_148_p1 = b_zp_148
    b_ptrs_156 = b_ptrs_156_p1 + 32  # load1_b: stage 1, partition 0 (group 0)
    b_133 = gl.load(b_ptrs_156_p1)  # load1_b: stage 1, partition 0 (group 0)
    b_134 = gl.cast(gl.cast(b_133, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert0_b: stage 1, partition 0 (group 0)
    b_135 = gl.cast(gl.cast(b_134, gl.uint32, bitcast=True) >> gl.cast(b, gl.uint32, bitcast=True), gl.int32, bitcast=True)  # convert0_b: stage 1, partition 0 (group 0)
    b_136 = b_135 & 15  # convert0_b: stage 1, partition 0 (group 0)
    b_149 = b_136.to(gl.float32)  # convert0_b: stage 1, partition 0 (group 0)
    b_scale_142 = b_scale_p1.to(gl.float32)  # convert1_b_scale: stage 1, partition 0 (group 0)
    b_150 = b_149 - b_zp_148_p1  # elementwise1_b: stage 1, partition 0 (group 0)
    b_151 = b_150 * b_scale_142  # elementwise1_b: stage 1, partition 0 (group 0)
    b_152 = b_151.to(gl.float16)  # convert3_b: stage 1, partition 0 (group 0)
    b_153 = b_153_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
    b_153.store(b_152)  # local_store0_b: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
    a_ptrs_155 = a_ptrs_155_p1 + 64  # load0_a: stage 1, partition 0 (group 0)
    a_131 = gl.load(a_ptrs_155_p1, mask=a_130_p1, other=0.0)  # load0_a: stage 1, partition 0 (group 0)
    a_132 = a_132_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_a: stage 1, partition 0 (group 0)
    a_132.store(a_131)  # load0_a: stage 1, partition 0 (group 0)
    fence_async_shared()  # load0_a: stage 1, partition 0 (group 0)
    tok_accumulator_154 = warpgroup_mma(a_132, b_153, accumulator_154_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_accumulator_154,))
    accumulator_154 = warpgroup_mma_wait(1, deps=(tok_accumulator_154,))
    a_130_p1 = a_130
    a_ptrs_155_p1 = a_ptrs_155
    accumulator_154_p1 = accumulator_154
    b_ptrs_156_p1 = b_ptrs_156
    b_scale_p1 = b_scale
    b_zp_148_p1 = b_zp_148
    accumulator_154_p1 = warpgroup_mma_wait(0, deps=(accumulator_154_p1,))
    a_132_st._keep_alive()
    b_153_st._keep_alive()
    moe_weight_101 = topk_weights_ptr + offs_token_34
    moe_weight_102 = gl.load(moe_weight_101, mask=token_mask_37, other=0.0)
    accumulator_103 = gl.expand_dims(moe_weight_102, 1)
    accumulator_104 = accumulator_103.broadcast_to([64, 64])
    accumulator_105 = accumulator_154_p1 * accumulator_104
    accumulator_106 = accumulator_105.to(gl.float16)
    offs_cn_108 = offs_bn + offs_token_id_20
    c_ptrs_110 = stride_cm * a_ptrs
    c_ptrs_112 = c_ptr + c_ptrs_110
    c_ptrs_113 = gl.expand_dims(offs_cn_108, 0)
    c_ptrs_114 = c_ptrs_112.broadcast_to([64, 64])
    c_ptrs_115 = c_ptrs_113.broadcast_to([64, 64])
    c_ptrs_116 = c_ptrs_114 + c_ptrs_115
    c_mask_117 = gl.expand_dims(token_mask_36, 1)
    c_mask_118 = c_ptrs_113 < 2048
    c_mask_119 = c_mask_117.broadcast_to([64, 64])
    c_mask_120 = c_mask_118.broadcast_to([64, 64])
    c_mask_121 = c_mask_119 & c_mask_120
    v3 = gl.convert_layout(accumulator_106, L6_short)
    gl.store(c_ptrs_116, v3, mask=c_mask_121)

@gluon.jit
def twill_kernel_short(a_ptr, b_ptr, c_ptr, b_scale_ptr, b_zp_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_bse, stride_bsn, stride_bze, stride_bzn):
    pid = gl.program_id(0)
    num_pid_m_14 = EM + 63
    num_pid_m_15 = num_pid_m_14 // 64
    group_id = pid // 256
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_15 - first_pid_m
    group_size_m_16 = gl.minimum(group_size_m, 8)
    pid_m = pid % 256
    pid_m_17 = pid_m % group_size_m_16
    pid_m_18 = first_pid_m + pid_m_17
    num_tokens_post_padded = gl.load(num_tokens_post_padded_ptr)
    v0 = pid_m_18 * 64
    v1 = v0 >= num_tokens_post_padded
    if v1:
        return
    pid = gl.program_id(0)
    num_pid_m_14 = EM + 63
    num_pid_m_15 = num_pid_m_14 // 64
    group_id = pid // 256
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_15 - first_pid_m
    group_size_m_16 = gl.minimum(group_size_m, 8)
    pid_m = pid % 256
    pid_m_17 = pid_m % group_size_m_16
    pid_m_18 = first_pid_m + pid_m_17
    pid_n = pid_m // group_size_m_16
    v0 = pid_m_18 * 64
    offs_token_id = gl.arange(0, 64, layout=L0_short)
    offs_token_id_20 = gl.arange(0, 64, layout=L2_short)
    offs_token_id_22 = offs_token_id.to(gl.int64)
    offs_token_id_25 = gl.cast(v0, gl.int64)
    offs_token_id_28 = offs_token_id_25 + offs_token_id_22
    offs_token_31 = sorted_token_ids_ptr + offs_token_id_28
    offs_token_33 = gl.load(offs_token_31)
    token_mask_36 = offs_token_33 < num_valid_tokens
    off_experts = expert_ids_ptr + pid_m_18
    off_experts_38 = gl.load(off_experts)
    off_experts_39 = gl.cast(off_experts_38, gl.int64)
    v2 = off_experts_39 == -1
    if v2:
        offs_cn = pid_n * 64
        offs_cn_41 = offs_cn + offs_token_id_20
        c_ptrs = gl.expand_dims(offs_token_33, 1)
        c_ptrs_43 = stride_cm * c_ptrs
        c_ptrs_45 = c_ptr + c_ptrs_43
        c_ptrs_46 = gl.expand_dims(offs_cn_41, 0)
        c_ptrs_47 = c_ptrs_45.broadcast_to([64, 64])
        c_ptrs_48 = c_ptrs_46.broadcast_to([64, 64])
        c_ptrs_49 = c_ptrs_47 + c_ptrs_48
        c_mask = gl.expand_dims(token_mask_36, 1)
        c_mask_50 = c_ptrs_46 < 2048
        c_mask_51 = c_mask.broadcast_to([64, 64])
        c_mask_52 = c_mask_50.broadcast_to([64, 64])
        c_mask_53 = c_mask_51 & c_mask_52
        gl.store(c_ptrs_49, gl.full([64, 64], 0.0, gl.float16, layout=L6_short), mask=c_mask_53)
        return
    consumer_0_short(a_ptr, b_ptr, c_ptr, b_scale_ptr, b_zp_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, stride_bse, stride_bsn, stride_bze, stride_bzn, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'b_scale_ptr', 'b_zp_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_ak', 'stride_be', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_bse', 'stride_bsk', 'stride_bsn', 'stride_bze', 'stride_bzk', 'stride_bzn', 'block_k_diviable', 'group_size', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'SPLIT_K', 'MUL_ROUTED_WEIGHT', 'top_k', 'compute_type', 'has_zp', 'use_int4_w4a16', 'use_int8_w8a16']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'b_scale_ptr', 'b_zp_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_bse', 'stride_bsn', 'stride_bze', 'stride_bzn']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'b_scale_ptr', 'b_zp_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_bse', 'stride_bsn', 'stride_bze', 'stride_bzn', 'compute_type']   # the arguments a launch key reads
CONSTEXPRS = {'N': 2048, 'K': 2048, 'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'stride_bsk': 1, 'stride_bzk': 1, 'block_k_diviable': True, 'group_size': 128, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'SPLIT_K': 1, 'MUL_ROUTED_WEIGHT': True, 'top_k': 2, 'has_zp': True, 'use_int4_w4a16': True, 'use_int8_w8a16': False}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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

# -- the one-partition kernel for short loops (host side) ---------------------------------------------
ARGUMENTS_short = ['a_ptr', 'b_ptr', 'c_ptr', 'b_scale_ptr', 'b_zp_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_ak', 'stride_be', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_bse', 'stride_bsk', 'stride_bsn', 'stride_bze', 'stride_bzk', 'stride_bzn', 'block_k_diviable', 'group_size', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'SPLIT_K', 'MUL_ROUTED_WEIGHT', 'top_k', 'compute_type', 'has_zp', 'use_int4_w4a16', 'use_int8_w8a16']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'b_ptr', 'c_ptr', 'b_scale_ptr', 'b_zp_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_bse', 'stride_bsn', 'stride_bze', 'stride_bzn']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'b_ptr', 'c_ptr', 'b_scale_ptr', 'b_zp_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm', 'stride_bse', 'stride_bsn', 'stride_bze', 'stride_bzn', 'compute_type']   # the arguments a launch key reads
CONSTEXPRS_short = {'N': 2048, 'K': 2048, 'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'stride_bsk': 1, 'stride_bzk': 1, 'block_k_diviable': True, 'group_size': 128, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'SPLIT_K': 1, 'MUL_ROUTED_WEIGHT': True, 'top_k': 2, 'has_zp': True, 'use_int4_w4a16': True, 'use_int8_w8a16': False}         # the specialisation this kernel was generated for
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
    """Run the faster of the warp-specialized kernel and the one-partition one for this launch's key, timed on the
    key's first launch (the warp-specialized one where no timing can run: no CUDA device, a graph being captured)."""
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
    warp-specialized kernel's launch where the copies do not fit in memory (kept for the key: not tried again)."""
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
    except Exception:                       # noqa: BLE001 - no memory for the copies: the warp-specialized kernel
        return launch_long
    try:
        launch_long(grid, *args, **kwargs)  # compiled, and its errors the launch's own
        try:
            launch_short(grid, *args, **kwargs)
        except Exception:                   # noqa: BLE001 - the one partition refuses this launch: the other runs
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
