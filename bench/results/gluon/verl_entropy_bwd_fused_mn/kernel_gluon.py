"""efficient_entropy_backward_kernel_general_mainloop_MN, written by twill from its joint schedule: I=230 L=418 (optimal), 1840 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 96 per thread)
- shared operand _d_weight_186_st: partition 0 stores the loop's [128, 32] f32 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand _d_hidden_190_st: partition 0 stores the loop's [128, 32] f32 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 65552 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at verl_entropy_bwd_fused_mn.py:174 (TTGIR line 227) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=278, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- if at verl_entropy_bwd_fused_mn.py:148 (TTGIR line 112): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer
- pointer loads in narrow vectors: _hidden_183_l0 (2 bytes), _weight_186 (2 bytes), _hidden_184 (2 bytes), _weight_189 (2 bytes) per thread and access; a stride that launches pass as 1 (stride_hidden_m?) Triton's launcher specialises as that constant, and a load along it is contiguous: say so (--const stride_hidden_m=1, TWILL_SPEC's constexprs)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 2], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 2], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 8], [8, 0], [16, 0], [32, 0], [64, 0]], lane_bases=[[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[0, 16], [0, 32], [0, 64]], block_bases=[], shape=[128, 128]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 32, 8]), k_width=1))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 2], order=[0, 1]))
L10 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 32, 8]))

@gluon.jit
def consumer_0(num_tokens, hidden_size, vocab_size, rank, hidden_ptr, stride_hidden_m, stride_hidden_k, weight_ptr, stride_weight_n, stride_weight_k, labels_ptr, stride_labels, maximum_ptr, stride_maximum, accu_ptr, stride_accu, d_entropy_ptr, stride_d_entropy, d_logprobs_ptr, stride_d_logprobs, reduction, entropy_b_ptr, stride_entropy_b, d_hidden_ptr, stride_d_hidden_m, stride_d_hidden_k, d_weight_ptr, stride_d_weight_n, stride_d_weight_k, rcp_temperature):
    twill_base = 0
    pid = gl.program_id(0)
    num_pid_m = num_tokens + 127
    num_pid_m_3 = num_pid_m // 128
    num_pid_n = vocab_size + 127
    num_pid_n_4 = num_pid_n // 128
    num_pid_in_group = num_pid_n_4 * 16
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 16
    group_size_m = num_pid_m_3 - first_pid_m
    group_size_m_5 = gl.minimum(group_size_m, 16)
    pid_m = pid % num_pid_in_group
    pid_m_6 = pid_m % group_size_m_5
    pid_m_7 = first_pid_m + pid_m_6
    pid_n = pid_m // group_size_m_5
    start_offs_am = pid_m_7 * 128
    offs_am = gl.arange(0, 128, layout=L0)
    offs_am_8 = gl.arange(0, 128, layout=L1)
    offs_am_9 = gl.arange(0, 128, layout=L2)
    offs_am_10 = gl.arange(0, 128, layout=L3)
    offs_am_14 = start_offs_am + offs_am
    offs_am_15 = start_offs_am + offs_am_8
    offs_am_16 = start_offs_am + offs_am_9
    start_offs_bn = pid_n * 128
    offs_bn_19 = start_offs_bn + offs_am
    offs_bn_20 = start_offs_bn + offs_am_8
    offs_bn_21 = start_offs_bn + offs_am_10
    maximum_ptrs = offs_am_16.to(gl.int64)
    maximum_ptrs_23 = maximum_ptrs * stride_maximum
    maximum_ptrs_25 = maximum_ptr + maximum_ptrs_23
    maximum_26 = offs_am_16 < num_tokens
    maximum_27 = gl.load(maximum_ptrs_25, mask=maximum_26, other=0.0)
    accu_ptrs_28 = maximum_ptrs * stride_accu
    accu_ptrs_30 = accu_ptr + accu_ptrs_28
    accu_31 = gl.load(accu_ptrs_30, mask=maximum_26, other=9.99999997e-07)
    accu_rcp_32 = 1.0 / accu_31
    d_entropy_ptrs_33 = maximum_ptrs * stride_d_entropy
    d_entropy_ptrs_35 = d_entropy_ptr + d_entropy_ptrs_33
    d_entropy = gl.load(d_entropy_ptrs_35, mask=maximum_26, other=0.0)
    v0 = reduction == 0
    if v0:
        d_logprobs_ptrs_172 = maximum_ptrs * stride_d_logprobs
        d_logprobs_ptrs_174 = d_logprobs_ptr + d_logprobs_ptrs_172
        d_logprobs_175 = gl.load(d_logprobs_ptrs_174, mask=maximum_26, other=0.0)
        v1 = d_logprobs_175
    else:
        v7_b120 = reduction == 1
        if v7_b120:
            d_logprobs_173 = gl.load(d_logprobs_ptr)
            d_logprobs_172 = gl.full([128], d_logprobs_173, gl.float32, layout=L2)
        else:
            d_logprobs_173_b126 = gl.load(d_logprobs_ptr)
            d_logprobs_174_b127 = gl.cast(num_tokens, gl.float32)
            d_logprobs_175_b128 = d_logprobs_173_b126 / d_logprobs_174_b127
            d_logprobs_172 = gl.full([128], d_logprobs_175_b128, gl.float32, layout=L2)
        v1 = d_logprobs_172
    d_logprobs_36 = v1 * -1.0
    entropy_b_ptrs_37 = maximum_ptrs * stride_entropy_b
    entropy_b_ptrs_39 = entropy_b_ptr + entropy_b_ptrs_37
    entropy_b = gl.load(entropy_b_ptrs_39, mask=maximum_26, other=0.0)
    hidden_ptrs = gl.expand_dims(offs_am_14, 1)
    hidden_ptrs_40 = gl.expand_dims(offs_am_15, 1)
    hidden_ptrs_41 = hidden_ptrs.to(gl.int64)
    hidden_ptrs_42 = hidden_ptrs_40.to(gl.int64)
    hidden_ptrs_45 = hidden_ptrs_41 * stride_hidden_m
    hidden_ptrs_46 = hidden_ptrs_42 * stride_hidden_m
    hidden_ptrs_47 = gl.arange(0, 32, layout=L4)
    hidden_ptrs_48 = gl.arange(0, 32, layout=L5)
    hidden_ptrs_49 = gl.expand_dims(hidden_ptrs_47, 0)
    hidden_ptrs_50 = gl.expand_dims(hidden_ptrs_48, 0)
    hidden_ptrs_51 = hidden_ptrs_49.to(gl.int64)
    hidden_ptrs_52 = hidden_ptrs_50.to(gl.int64)
    hidden_ptrs_55 = hidden_ptrs_51 * stride_hidden_k
    hidden_ptrs_56 = hidden_ptrs_52 * stride_hidden_k
    hidden_ptrs_57 = hidden_ptrs_45.broadcast_to([128, 32])
    hidden_ptrs_58 = hidden_ptrs_46.broadcast_to([128, 32])
    hidden_ptrs_59 = hidden_ptrs_55.broadcast_to([128, 32])
    hidden_ptrs_60 = hidden_ptrs_56.broadcast_to([128, 32])
    hidden_ptrs_61 = hidden_ptrs_57 + hidden_ptrs_59
    hidden_ptrs_62 = hidden_ptrs_58 + hidden_ptrs_60
    hidden_ptrs_65 = hidden_ptr + hidden_ptrs_61
    hidden_ptrs_66 = hidden_ptr + hidden_ptrs_62
    weight_ptrs = gl.expand_dims(offs_bn_19, 1)
    weight_ptrs_67 = gl.expand_dims(offs_bn_20, 1)
    weight_ptrs_68 = weight_ptrs.to(gl.int64)
    weight_ptrs_69 = weight_ptrs_67.to(gl.int64)
    weight_ptrs_72 = weight_ptrs_68 * stride_weight_n
    weight_ptrs_73 = weight_ptrs_69 * stride_weight_n
    weight_ptrs_76 = hidden_ptrs_51 * stride_weight_k
    weight_ptrs_77 = hidden_ptrs_52 * stride_weight_k
    weight_ptrs_78 = weight_ptrs_72.broadcast_to([128, 32])
    weight_ptrs_79 = weight_ptrs_73.broadcast_to([128, 32])
    weight_ptrs_80 = weight_ptrs_76.broadcast_to([128, 32])
    weight_ptrs_81 = weight_ptrs_77.broadcast_to([128, 32])
    weight_ptrs_82 = weight_ptrs_78 + weight_ptrs_80
    weight_ptrs_83 = weight_ptrs_79 + weight_ptrs_81
    weight_ptrs_86 = weight_ptr + weight_ptrs_82
    weight_ptrs_87 = weight_ptr + weight_ptrs_83
    labels_ptrs_88 = maximum_ptrs * stride_labels
    labels_ptrs_90 = labels_ptr + labels_ptrs_88
    labels_91 = gl.load(labels_ptrs_90, mask=maximum_26, other=0)
    d_hidden_ptrs_92 = hidden_ptrs_41 * stride_d_hidden_m
    d_hidden_ptrs_94 = d_hidden_ptr + d_hidden_ptrs_92
    d_hidden_ptrs_96 = hidden_ptrs_51 * stride_d_hidden_k
    d_hidden_ptrs_97 = d_hidden_ptrs_94.broadcast_to([128, 32])
    d_hidden_ptrs_98 = d_hidden_ptrs_96.broadcast_to([128, 32])
    d_hidden_ptrs_99 = d_hidden_ptrs_97 + d_hidden_ptrs_98
    d_weight_ptrs_100 = weight_ptrs_68 * stride_d_weight_n
    d_weight_ptrs_102 = d_weight_ptr + d_weight_ptrs_100
    d_weight_ptrs_104 = hidden_ptrs_51 * stride_d_weight_k
    d_weight_ptrs_105 = d_weight_ptrs_102.broadcast_to([128, 32])
    d_weight_ptrs_106 = d_weight_ptrs_104.broadcast_to([128, 32])
    d_weight_ptrs_107 = d_weight_ptrs_105 + d_weight_ptrs_106
    v2 = hidden_size + 31
    v3 = v2 // 32
    _hidden_108 = hidden_ptrs < num_tokens
    _hidden_109 = _hidden_108.broadcast_to([128, 32])
    _weight_110 = weight_ptrs < vocab_size
    _weight_111 = _weight_110.broadcast_to([128, 32])
    hidden_ptrs_112 = stride_hidden_k * 32
    weight_ptrs_115 = stride_weight_k * 32
    twill_n = (v3 - 0 + 1 - 1) // 1
    _hidden_184_l0_st = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    logits_191_st = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    logits_193 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
    hidden_ptrs_187 = hidden_ptrs_65
    weight_ptrs_189 = weight_ptrs_86
    hidden_ptrs_187_p1 = hidden_ptrs_187
    logits_193_p1 = logits_193
    weight_ptrs_189_p1 = weight_ptrs_189
    for twill_b in range(0, twill_n):
        _hidden_177_l0 = (0 + (twill_b - 0) * 1) * 32  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_178_l0 = hidden_size - _hidden_177_l0  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_179_l0 = _hidden_178_l0  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_180_l0 = hidden_ptrs_49 < _hidden_179_l0  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_181_l0 = _hidden_180_l0.broadcast_to([128, 32])  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_182_l0 = _hidden_181_l0 & _hidden_109  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _weight_185 = _hidden_181_l0 & _weight_111  # elementwise1__weight: stage 0, partition 0 (group 0)
        hidden_ptrs_187 = hidden_ptrs_187_p1 + hidden_ptrs_112  # load0__hidden: stage 0, partition 0 (group 0)
        _hidden_183_l0 = gl.load(hidden_ptrs_187_p1, mask=_hidden_182_l0, other=0.0)  # load0__hidden: stage 0, partition 0 (group 0)
        weight_ptrs_189 = weight_ptrs_189_p1 + weight_ptrs_115  # load1__weight: stage 0, partition 0 (group 0)
        _weight_186 = gl.load(weight_ptrs_189_p1, mask=_weight_185, other=0.0)  # load1__weight: stage 0, partition 0 (group 0)
        _hidden_184_l0 = _hidden_184_l0_st.index((twill_b - 0) % 2)  # load0__hidden: stage 0, partition 0 (group 0)
        _hidden_184_l0.store(_hidden_183_l0)  # load0__hidden: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0__hidden: stage 0, partition 0 (group 0)
        logits_191 = logits_191_st.index((twill_b - 0) % 2)  # load1__weight: stage 0, partition 0 (group 0)
        logits_191.store(_weight_186)  # load1__weight: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1__weight: stage 0, partition 0 (group 0)
        logits_192 = logits_191.permute((1, 0))  # load1__weight: stage 0, partition 0 (group 0)
        tok_logits_193 = warpgroup_mma(_hidden_184_l0, logits_192, logits_193_p1, is_async=True)  # dot0_logits: stage 0, partition 0 (group 0)
        logits_193_p1 = warpgroup_mma_wait(1, deps=(logits_193_p1,))
        logits_193 = warpgroup_mma_wait(1, deps=(tok_logits_193,))
        hidden_ptrs_187_p1 = hidden_ptrs_187
        logits_193_p1 = logits_193
        weight_ptrs_189_p1 = weight_ptrs_189
    logits_193_p1 = warpgroup_mma_wait(0, deps=(logits_193_p1,))
    _hidden_184_l0_st._keep_alive()
    logits_191_st._keep_alive()
    twill_base += twill_n
    hidden_ptrs_118 = gl.cast(hidden_size, gl.int64)
    hidden_ptrs_119 = hidden_ptrs_118 * stride_hidden_k
    hidden_ptrs_120 = 0 - hidden_ptrs_119
    logits_r0_end = hidden_ptrs_66 + (hidden_ptrs_112) * twill_n
    hidden_ptrs_122 = logits_r0_end + hidden_ptrs_120
    weight_ptrs_123 = hidden_ptrs_118 * stride_weight_k
    weight_ptrs_124 = 0 - weight_ptrs_123
    logits_r1_end = weight_ptrs_87 + (weight_ptrs_115) * twill_n
    weight_ptrs_126 = logits_r1_end + weight_ptrs_124
    logits_128 = logits_193_p1 * rcp_temperature
    exp_logits = gl.expand_dims(maximum_27, 1)
    exp_logits_129 = exp_logits.broadcast_to([128, 128])
    exp_logits_130 = logits_128 - exp_logits_129
    exp_logits_131 = gl.exp(exp_logits_130)
    mask = rank * vocab_size
    mask_133 = offs_bn_21 + mask
    mask_134 = gl.expand_dims(mask_133, 0)
    mask_135 = gl.expand_dims(labels_91, 1)
    mask_136 = mask_134.to(gl.int64)
    mask_137 = mask_136.broadcast_to([128, 128])
    mask_138 = mask_135.broadcast_to([128, 128])
    mask_139 = mask_137 == mask_138
    d_logits = gl.expand_dims(d_logprobs_36, 1)
    d_logits_140 = gl.expand_dims(accu_rcp_32, 1)
    d_logits_141 = d_logits_140.broadcast_to([128, 128])
    d_logits_142 = exp_logits_131 * d_logits_141
    d_logits_143 = mask_139.to(gl.float32)
    d_logits_144 = d_logits_142 - d_logits_143
    d_logits_145 = d_logits.broadcast_to([128, 128])
    d_logits_146 = d_logits_145 * d_logits_144
    d_logits_147 = gl.expand_dims(d_entropy, 1)
    d_logits_148 = 0.0 - exp_logits_131
    d_logits_149 = d_logits_148 * d_logits_141
    d_logits_150 = d_logits_147.broadcast_to([128, 128])
    d_logits_151 = d_logits_150 * d_logits_149
    d_logits_152 = gl.expand_dims(entropy_b, 1)
    d_logits_153 = d_logits_152.broadcast_to([128, 128])
    d_logits_154 = logits_128 - d_logits_153
    d_logits_155 = d_logits_151 * d_logits_154
    d_logits_156 = d_logits_146 + d_logits_155
    d_logits_157 = d_logits_156 * rcp_temperature
    _hidden_159 = hidden_ptrs < num_tokens
    _hidden_160 = _hidden_159.broadcast_to([128, 32])
    _d_weight = gl.convert_layout(gl.permute(d_logits_157, (1, 0)), L7)
    _d_weight_161 = gl.convert_layout(_d_weight, L8)
    v5 = weight_ptrs < vocab_size
    v6 = v5.broadcast_to([128, 32])
    d_logits_162 = gl.convert_layout(d_logits_157, L8)
    hidden_ptrs_163 = stride_hidden_k * 32
    weight_ptrs_165 = stride_weight_k * 32
    d_hidden_ptrs_167 = stride_d_hidden_k * 32
    d_weight_ptrs_169 = stride_d_weight_k * 32
    twill_n = (v3 - 0 + 1 - 1) // 1
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        _d_weight_186_st = gl.allocate_shared_memory(gl.float32, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=True))
        _d_hidden_190_st = gl.allocate_shared_memory(gl.float32, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=True))
        weight_ptrs_193 = weight_ptrs_126
        weight_ptrs_193_p1 = weight_ptrs_193
        hidden_ptrs_192 = hidden_ptrs_122
        _hidden_177 = (0 + (0 - 0) * 1) * 32  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_178 = hidden_size - _hidden_177  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_179 = _hidden_178  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_180 = hidden_ptrs_49 < _hidden_179  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_181 = _hidden_180.broadcast_to([128, 32])  # elementwise0__hidden: stage 0, partition 0 (group 0)
        v7 = _hidden_181 & v6  # elementwise1: stage 0, partition 0 (group 0)
        weight_ptrs_193 = weight_ptrs_193_p1 + weight_ptrs_165  # load1__weight: stage 0, partition 0 (group 0)
        _weight_188 = gl.convert_layout(weight_ptrs_193_p1, L9)  # load1__weight: stage 0, partition 0 (group 0)
        _weight_189 = gl.load(_weight_188, mask=v7, other=0.0)  # load1__weight: stage 0, partition 0 (group 0)
        _hidden_181_p1 = _hidden_181
        _weight_189_p1 = _weight_189
        hidden_ptrs_192_p1 = hidden_ptrs_192
        v7_p1 = v7
        weight_ptrs_193_p1 = weight_ptrs_193
        d_weight_ptrs_195 = d_weight_ptrs_107
        d_hidden_ptrs_194 = d_hidden_ptrs_99
        _hidden_177 = (0 + (1 - 0) * 1) * 32  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_178 = hidden_size - _hidden_177  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_179 = _hidden_178  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_180 = hidden_ptrs_49 < _hidden_179  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_181 = _hidden_180.broadcast_to([128, 32])  # elementwise0__hidden: stage 0, partition 0 (group 0)
        _hidden_182 = _hidden_181_p1 & _hidden_160  # elementwise0__hidden: stage 1, partition 0 (group 0)
        v7 = _hidden_181 & v6  # elementwise1: stage 0, partition 0 (group 0)
        hidden_ptrs_192 = hidden_ptrs_192_p1 + hidden_ptrs_163  # load0__hidden: stage 1, partition 0 (group 0)
        _hidden_183 = gl.convert_layout(hidden_ptrs_192_p1, L9)  # load0__hidden: stage 1, partition 0 (group 0)
        _hidden_184 = gl.load(_hidden_183, mask=_hidden_182, other=0.0)  # load0__hidden: stage 1, partition 0 (group 0)
        weight_ptrs_193 = weight_ptrs_193_p1 + weight_ptrs_165  # load1__weight: stage 0, partition 0 (group 0)
        _weight_188 = gl.convert_layout(weight_ptrs_193_p1, L9)  # load1__weight: stage 0, partition 0 (group 0)
        _weight_189 = gl.load(_weight_188, mask=v7, other=0.0)  # load1__weight: stage 0, partition 0 (group 0)
        _d_hidden = _weight_189_p1.to(gl.float32)  # convert2__d_hidden: stage 1, partition 0 (group 0)
        _d_hidden_190 = _d_hidden_190_st.index((1 - 1) % 2)  # local_store1__d_hidden: stage 1, partition 0 (group 0)
        _d_hidden_190.store(_d_hidden)  # local_store1__d_hidden: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store1__d_hidden: stage 1, partition 0 (group 0)
        tok__d_hidden_191 = warpgroup_mma(d_logits_162, _d_hidden_190, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot1__d_hidden: stage 1, partition 0 (group 0)
        _d_hidden_191 = warpgroup_mma_wait(1, deps=(tok__d_hidden_191,))
        _d_hidden_191_p1 = _d_hidden_191
        _hidden_181_p1 = _hidden_181
        _hidden_182_p1 = _hidden_182
        _hidden_184_p1 = _hidden_184
        _weight_189_p1 = _weight_189
        d_hidden_ptrs_194_p1 = d_hidden_ptrs_194
        d_weight_ptrs_195_p1 = d_weight_ptrs_195
        hidden_ptrs_192_p1 = hidden_ptrs_192
        v7_p2 = v7_p1
        v7_p1 = v7
        weight_ptrs_193_p1 = weight_ptrs_193
        for twill_b in range(2, twill_n):
            _hidden_177 = (0 + (twill_b - 0) * 1) * 32  # elementwise0__hidden: stage 0, partition 0 (group 0)
            _hidden_178 = hidden_size - _hidden_177  # elementwise0__hidden: stage 0, partition 0 (group 0)
            _hidden_179 = _hidden_178  # elementwise0__hidden: stage 0, partition 0 (group 0)
            _hidden_180 = hidden_ptrs_49 < _hidden_179  # elementwise0__hidden: stage 0, partition 0 (group 0)
            _hidden_181 = _hidden_180.broadcast_to([128, 32])  # elementwise0__hidden: stage 0, partition 0 (group 0)
            _hidden_182 = _hidden_181_p1 & _hidden_160  # elementwise0__hidden: stage 1, partition 0 (group 0)
            v7 = _hidden_181 & v6  # elementwise1: stage 0, partition 0 (group 0)
            hidden_ptrs_192 = hidden_ptrs_192_p1 + hidden_ptrs_163  # load0__hidden: stage 1, partition 0 (group 0)
            _hidden_183 = gl.convert_layout(hidden_ptrs_192_p1, L9)  # load0__hidden: stage 1, partition 0 (group 0)
            _hidden_184 = gl.load(_hidden_183, mask=_hidden_182, other=0.0)  # load0__hidden: stage 1, partition 0 (group 0)
            _d_weight_185 = _hidden_184_p1.to(gl.float32)  # convert0__d_weight: stage 2, partition 0 (group 0)
            _d_hidden_191_p1 = warpgroup_mma_wait(0, deps=(_d_hidden_191_p1,))
            v10 = gl.convert_layout(_d_hidden_191_p1, L9)  # convert3: stage 2, partition 0 (group 0)
            _d_weight_186 = _d_weight_186_st.index((twill_b - 2) % 2)  # local_store0__d_weight: stage 2, partition 0 (group 0)
            _d_weight_186.store(_d_weight_185)  # local_store0__d_weight: stage 2, partition 0 (group 0)
            fence_async_shared()  # local_store0__d_weight: stage 2, partition 0 (group 0)
            tok__d_weight_187 = warpgroup_mma(_d_weight_161, _d_weight_186, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0__d_weight: stage 2, partition 0 (group 0)
            v11 = gl.atomic_add(d_hidden_ptrs_194_p1, v10, mask=_hidden_182_p1, sem='acq_rel', scope='gpu')  # store1: stage 2, partition 0 (group 0)
            d_hidden_ptrs_194 = d_hidden_ptrs_194_p1 + d_hidden_ptrs_167  # store1: stage 2, partition 0 (group 0)
            _d_weight_187 = warpgroup_mma_wait(0, deps=(tok__d_weight_187,))
            v8 = gl.convert_layout(_d_weight_187, L9)  # convert1: stage 2, partition 0 (group 0)
            v9 = gl.atomic_add(d_weight_ptrs_195_p1, v8, mask=v7_p2, sem='acq_rel', scope='gpu')  # store0: stage 2, partition 0 (group 0)
            d_weight_ptrs_195 = d_weight_ptrs_195_p1 + d_weight_ptrs_169  # store0: stage 2, partition 0 (group 0)
            weight_ptrs_193 = weight_ptrs_193_p1 + weight_ptrs_165  # load1__weight: stage 0, partition 0 (group 0)
            _weight_188 = gl.convert_layout(weight_ptrs_193_p1, L9)  # load1__weight: stage 0, partition 0 (group 0)
            _weight_189 = gl.load(_weight_188, mask=v7, other=0.0)  # load1__weight: stage 0, partition 0 (group 0)
            _d_hidden = _weight_189_p1.to(gl.float32)  # convert2__d_hidden: stage 1, partition 0 (group 0)
            _d_hidden_190 = _d_hidden_190_st.index((twill_b - 1) % 2)  # local_store1__d_hidden: stage 1, partition 0 (group 0)
            _d_hidden_190.store(_d_hidden)  # local_store1__d_hidden: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store1__d_hidden: stage 1, partition 0 (group 0)
            tok__d_hidden_191 = warpgroup_mma(d_logits_162, _d_hidden_190, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot1__d_hidden: stage 1, partition 0 (group 0)
            _d_hidden_191 = warpgroup_mma_wait(1, deps=(tok__d_hidden_191,))
            _d_hidden_191_p1 = _d_hidden_191
            _hidden_181_p1 = _hidden_181
            _hidden_182_p1 = _hidden_182
            _hidden_184_p1 = _hidden_184
            _weight_189_p1 = _weight_189
            d_hidden_ptrs_194_p1 = d_hidden_ptrs_194
            d_weight_ptrs_195_p1 = d_weight_ptrs_195
            hidden_ptrs_192_p1 = hidden_ptrs_192
            v7_p2 = v7_p1
            v7_p1 = v7
            weight_ptrs_193_p1 = weight_ptrs_193
        _hidden_182 = _hidden_181_p1 & _hidden_160  # elementwise0__hidden: stage 1, partition 0 (group 0)
        hidden_ptrs_192 = hidden_ptrs_192_p1 + hidden_ptrs_163  # load0__hidden: stage 1, partition 0 (group 0)
        _hidden_183 = gl.convert_layout(hidden_ptrs_192_p1, L9)  # load0__hidden: stage 1, partition 0 (group 0)
        _hidden_184 = gl.load(_hidden_183, mask=_hidden_182, other=0.0)  # load0__hidden: stage 1, partition 0 (group 0)
        _d_weight_185 = _hidden_184_p1.to(gl.float32)  # convert0__d_weight: stage 2, partition 0 (group 0)
        _d_hidden_191_p1 = warpgroup_mma_wait(0, deps=(_d_hidden_191_p1,))
        v10 = gl.convert_layout(_d_hidden_191_p1, L9)  # convert3: stage 2, partition 0 (group 0)
        _d_weight_186 = _d_weight_186_st.index(((twill_n - 1 + 1) - 2) % 2)  # local_store0__d_weight: stage 2, partition 0 (group 0)
        _d_weight_186.store(_d_weight_185)  # local_store0__d_weight: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0__d_weight: stage 2, partition 0 (group 0)
        tok__d_weight_187 = warpgroup_mma(_d_weight_161, _d_weight_186, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0__d_weight: stage 2, partition 0 (group 0)
        v11 = gl.atomic_add(d_hidden_ptrs_194_p1, v10, mask=_hidden_182_p1, sem='acq_rel', scope='gpu')  # store1: stage 2, partition 0 (group 0)
        d_hidden_ptrs_194 = d_hidden_ptrs_194_p1 + d_hidden_ptrs_167  # store1: stage 2, partition 0 (group 0)
        _d_weight_187 = warpgroup_mma_wait(0, deps=(tok__d_weight_187,))
        v8 = gl.convert_layout(_d_weight_187, L9)  # convert1: stage 2, partition 0 (group 0)
        v9 = gl.atomic_add(d_weight_ptrs_195_p1, v8, mask=v7_p2, sem='acq_rel', scope='gpu')  # store0: stage 2, partition 0 (group 0)
        d_weight_ptrs_195 = d_weight_ptrs_195_p1 + d_weight_ptrs_169  # store0: stage 2, partition 0 (group 0)
        _d_hidden = _weight_189_p1.to(gl.float32)  # convert2__d_hidden: stage 1, partition 0 (group 0)
        _d_hidden_190 = _d_hidden_190_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store1__d_hidden: stage 1, partition 0 (group 0)
        _d_hidden_190.store(_d_hidden)  # local_store1__d_hidden: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store1__d_hidden: stage 1, partition 0 (group 0)
        tok__d_hidden_191 = warpgroup_mma(d_logits_162, _d_hidden_190, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot1__d_hidden: stage 1, partition 0 (group 0)
        _d_hidden_191 = warpgroup_mma_wait(1, deps=(tok__d_hidden_191,))
        _d_hidden_191_p1 = _d_hidden_191
        _hidden_181_p1 = _hidden_181
        _hidden_182_p1 = _hidden_182
        _hidden_184_p1 = _hidden_184
        _weight_189_p1 = _weight_189
        d_hidden_ptrs_194_p1 = d_hidden_ptrs_194
        d_weight_ptrs_195_p1 = d_weight_ptrs_195
        hidden_ptrs_192_p2 = hidden_ptrs_192_p1
        hidden_ptrs_192_p1 = hidden_ptrs_192
        v7_p2 = v7_p1
        v7_p1 = v7
        weight_ptrs_193_p2 = weight_ptrs_193_p1
        weight_ptrs_193_p1 = weight_ptrs_193
        _d_weight_185 = _hidden_184_p1.to(gl.float32)  # convert0__d_weight: stage 2, partition 0 (group 0)
        _d_hidden_191_p1 = warpgroup_mma_wait(0, deps=(_d_hidden_191_p1,))
        v10 = gl.convert_layout(_d_hidden_191_p1, L9)  # convert3: stage 2, partition 0 (group 0)
        _d_weight_186 = _d_weight_186_st.index(((twill_n - 1 + 2) - 2) % 2)  # local_store0__d_weight: stage 2, partition 0 (group 0)
        _d_weight_186.store(_d_weight_185)  # local_store0__d_weight: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0__d_weight: stage 2, partition 0 (group 0)
        tok__d_weight_187 = warpgroup_mma(_d_weight_161, _d_weight_186, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0__d_weight: stage 2, partition 0 (group 0)
        v11 = gl.atomic_add(d_hidden_ptrs_194_p1, v10, mask=_hidden_182_p1, sem='acq_rel', scope='gpu')  # store1: stage 2, partition 0 (group 0)
        d_hidden_ptrs_194 = d_hidden_ptrs_194_p1 + d_hidden_ptrs_167  # store1: stage 2, partition 0 (group 0)
        _d_weight_187 = warpgroup_mma_wait(0, deps=(tok__d_weight_187,))
        v8 = gl.convert_layout(_d_weight_187, L9)  # convert1: stage 2, partition 0 (group 0)
        v9 = gl.atomic_add(d_weight_ptrs_195_p1, v8, mask=v7_p2, sem='acq_rel', scope='gpu')  # store0: stage 2, partition 0 (group 0)
        d_weight_ptrs_195 = d_weight_ptrs_195_p1 + d_weight_ptrs_169  # store0: stage 2, partition 0 (group 0)
        _d_hidden_191_p1 = _d_hidden_191
        _hidden_181_p1 = _hidden_181
        _hidden_182_p1 = _hidden_182
        _hidden_184_p1 = _hidden_184
        _weight_189_p1 = _weight_189
        d_hidden_ptrs_194_p1 = d_hidden_ptrs_194
        d_weight_ptrs_195_p1 = d_weight_ptrs_195
        hidden_ptrs_192_p2 = hidden_ptrs_192_p1
        hidden_ptrs_192_p1 = hidden_ptrs_192
        v7_p2 = v7_p1
        v7_p1 = v7
        weight_ptrs_193_p3 = weight_ptrs_193_p2
        weight_ptrs_193_p2 = weight_ptrs_193_p1
        weight_ptrs_193_p1 = weight_ptrs_193
        _d_hidden_190_st._keep_alive()
        _d_weight_186_st._keep_alive()
    else:
        hidden_ptrs_173_w = hidden_ptrs_122
        weight_ptrs_174_w = weight_ptrs_126
        d_weight_ptrs_175_w = d_weight_ptrs_107
        d_hidden_ptrs_176_w = d_hidden_ptrs_99
        for d_weight_ptrs_172_w in range(0, v3, 1):
            _hidden_177_w = d_weight_ptrs_172_w * 32
            _hidden_178_w = hidden_size - _hidden_177_w
            _hidden_180_w = hidden_ptrs_49 < _hidden_178_w
            _hidden_181_w = _hidden_180_w.broadcast_to([128, 32])
            _hidden_182_w = _hidden_181_w & _hidden_160
            _hidden_183_w = gl.convert_layout(hidden_ptrs_173_w, L9)
            _hidden_184_w = gl.load(_hidden_183_w, mask=_hidden_182_w, other=0.0)
            _d_weight_185_w = _hidden_184_w.to(gl.float32)
            _d_weight_186_w = gl.allocate_shared_memory(gl.float32, [128, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=True), _d_weight_185_w)
            fence_async_shared()
            _d_weight_187_w = warpgroup_mma(_d_weight_161, _d_weight_186_w, gl.full([128, 32], 0.0, gl.float32, layout=L10))
            v7_w = _hidden_181_w & v6
            v8_w = gl.convert_layout(_d_weight_187_w, L9)
            v9_w = gl.atomic_add(d_weight_ptrs_175_w, v8_w, mask=v7_w, sem='acq_rel', scope='gpu')
            _weight_188_w = gl.convert_layout(weight_ptrs_174_w, L9)
            _weight_189_w = gl.load(_weight_188_w, mask=v7_w, other=0.0)
            _d_hidden_w = _weight_189_w.to(gl.float32)
            _d_hidden_190_w = gl.allocate_shared_memory(gl.float32, [128, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=True), _d_hidden_w)
            fence_async_shared()
            _d_hidden_191_w = warpgroup_mma(d_logits_162, _d_hidden_190_w, gl.full([128, 32], 0.0, gl.float32, layout=L10))
            v10_w = gl.convert_layout(_d_hidden_191_w, L9)
            v11_w = gl.atomic_add(d_hidden_ptrs_176_w, v10_w, mask=_hidden_182_w, sem='acq_rel', scope='gpu')
            hidden_ptrs_192_w = hidden_ptrs_173_w + hidden_ptrs_163
            weight_ptrs_193_w = weight_ptrs_174_w + weight_ptrs_165
            d_hidden_ptrs_194_w = d_hidden_ptrs_176_w + d_hidden_ptrs_167
            d_weight_ptrs_195_w = d_weight_ptrs_175_w + d_weight_ptrs_169
            hidden_ptrs_173_w = hidden_ptrs_192_w
            weight_ptrs_174_w = weight_ptrs_193_w
            d_weight_ptrs_175_w = d_weight_ptrs_195_w
            d_hidden_ptrs_176_w = d_hidden_ptrs_194_w
        hidden_ptrs_192_p2 = hidden_ptrs_173_w
        weight_ptrs_193_p3 = weight_ptrs_174_w
        d_weight_ptrs_195_p1 = d_weight_ptrs_175_w
        d_hidden_ptrs_194_p1 = d_hidden_ptrs_176_w

@gluon.jit
def twill_kernel(num_tokens, hidden_size, vocab_size, rank, hidden_ptr, stride_hidden_m, stride_hidden_k, weight_ptr, stride_weight_n, stride_weight_k, labels_ptr, stride_labels, maximum_ptr, stride_maximum, accu_ptr, stride_accu, d_entropy_ptr, stride_d_entropy, d_logprobs_ptr, stride_d_logprobs, reduction, entropy_b_ptr, stride_entropy_b, d_hidden_ptr, stride_d_hidden_m, stride_d_hidden_k, d_weight_ptr, stride_d_weight_n, stride_d_weight_k, rcp_temperature):
    consumer_0(num_tokens, hidden_size, vocab_size, rank, hidden_ptr, stride_hidden_m, stride_hidden_k, weight_ptr, stride_weight_n, stride_weight_k, labels_ptr, stride_labels, maximum_ptr, stride_maximum, accu_ptr, stride_accu, d_entropy_ptr, stride_d_entropy, d_logprobs_ptr, stride_d_logprobs, reduction, entropy_b_ptr, stride_entropy_b, d_hidden_ptr, stride_d_hidden_m, stride_d_hidden_k, d_weight_ptr, stride_d_weight_n, stride_d_weight_k, rcp_temperature, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['num_tokens', 'hidden_size', 'vocab_size', 'rank', 'hidden_ptr', 'stride_hidden_m', 'stride_hidden_k', 'weight_ptr', 'stride_weight_n', 'stride_weight_k', 'labels_ptr', 'stride_labels', 'maximum_ptr', 'stride_maximum', 'accu_ptr', 'stride_accu', 'd_entropy_ptr', 'stride_d_entropy', 'd_logprobs_ptr', 'stride_d_logprobs', 'reduction', 'entropy_b_ptr', 'stride_entropy_b', 'd_hidden_ptr', 'stride_d_hidden_m', 'stride_d_hidden_k', 'd_weight_ptr', 'stride_d_weight_n', 'stride_d_weight_k', 'rcp_temperature', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'USE_TMA']          # the Triton kernel's parameters, in order
RUNTIME = ['num_tokens', 'hidden_size', 'vocab_size', 'rank', 'hidden_ptr', 'stride_hidden_m', 'stride_hidden_k', 'weight_ptr', 'stride_weight_n', 'stride_weight_k', 'labels_ptr', 'stride_labels', 'maximum_ptr', 'stride_maximum', 'accu_ptr', 'stride_accu', 'd_entropy_ptr', 'stride_d_entropy', 'd_logprobs_ptr', 'stride_d_logprobs', 'reduction', 'entropy_b_ptr', 'stride_entropy_b', 'd_hidden_ptr', 'stride_d_hidden_m', 'stride_d_hidden_k', 'd_weight_ptr', 'stride_d_weight_n', 'stride_d_weight_k', 'rcp_temperature']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['num_tokens', 'hidden_size', 'vocab_size', 'rank', 'hidden_ptr', 'stride_hidden_m', 'stride_hidden_k', 'weight_ptr', 'stride_weight_n', 'stride_weight_k', 'labels_ptr', 'stride_labels', 'maximum_ptr', 'stride_maximum', 'accu_ptr', 'stride_accu', 'd_entropy_ptr', 'stride_d_entropy', 'd_logprobs_ptr', 'stride_d_logprobs', 'reduction', 'entropy_b_ptr', 'stride_entropy_b', 'd_hidden_ptr', 'stride_d_hidden_m', 'stride_d_hidden_k', 'd_weight_ptr', 'stride_d_weight_n', 'stride_d_weight_k', 'rcp_temperature']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 16, 'USE_TMA': False}         # the specialisation this kernel was generated for
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
