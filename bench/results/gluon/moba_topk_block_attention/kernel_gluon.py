"""moba_fwd_kernel, written by twill from its joint schedule: I=294 L=328 (optimal), 2481 cycles per iteration predicted.

Decisions (each from the schedule):
- b_k_116 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%i_s_97), which the analysis does not follow
- b_v_120 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%i_s_97), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (b_k_116, b_v_120): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (155, 88 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 160 registers per thread (needs about 155): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring b_k_116: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring b_v_120: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 82000 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, v, o, lse, block_indices, sm_scale, T, H, b_k_116_buf, b_v_120_buf, b_k_116_ready, b_k_116_empty, b_v_120_ready, b_v_120_empty, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = v1 // H
    v3 = v1 % H
    NC_6 = T + 63
    NC_7 = NC_6 // 64
    stride_t = H * 128
    bos = v2 * T
    bos_8 = bos * stride_t
    bos_9 = v3 * 128
    bos_10 = bos_8 + bos_9
    offs_m = v0 * 64
    offs_m_11 = gl.arange(0, 64, layout=L0)
    offs_m_12 = gl.arange(0, 64, layout=L1)
    offs_m_13 = gl.arange(0, 64, layout=L2)
    offs_m_14 = gl.arange(0, 64, layout=L3)
    offs_m_19 = offs_m + offs_m_11
    offs_m_20 = offs_m + offs_m_12
    offs_m_21 = offs_m + offs_m_13
    offs_m_22 = offs_m + offs_m_14
    m_valid_25 = offs_m_19 < T
    m_valid_26 = offs_m_21 < T
    m_valid_27 = offs_m_22 < T
    b_q = gl.expand_dims(m_valid_25, 1)
    b_q_28 = q + bos_10
    b_q_29 = gl.expand_dims(offs_m_19, 1)
    b_q_30 = gl.expand_dims(offs_m_20, 1)
    b_q_32 = b_q_29 * stride_t
    b_q_34 = b_q_28 + b_q_32
    b_q_35 = gl.arange(0, 128, layout=L4)
    b_q_36 = gl.expand_dims(b_q_35, 0)
    b_q_37 = b_q_34.broadcast_to([64, 128])
    b_q_38 = b_q_36.broadcast_to([64, 128])
    b_q_39 = b_q_37 + b_q_38
    b_q_40 = b_q.broadcast_to([64, 128])
    b_q_41 = gl.load(b_q_39, mask=b_q_40, other=0.0)
    b_q_42 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_q_41)
    fence_async_shared()
    qk_scale = sm_scale * 1.44269502
    p_idx = v1 * NC_7
    p_idx_43 = p_idx + v0
    p_idx_44 = p_idx_43 * 8
    p_idx_45 = block_indices + p_idx_44
    twill_n = (8 - 0 + 1 - 1) // 1
    b_m_new_130 = gl.full([64], float("-inf"), gl.float32, layout=L1)
    i_s = p_idx_45 + (0 + (0 - 0) * 1)  # load0_i_s: stage 0, partition 0 (group 0)
    i_s_97 = gl.load(i_s)  # load0_i_s: stage 0, partition 0 (group 0)
    b_m_new_130_p1 = b_m_new_130
    i_s_97_p1 = i_s_97
    b_acc_140 = gl.full([64], 0.0, gl.float32, layout=L1)
    b_o_147 = gl.full([64, 128], 0.0, gl.float32, layout=L5)
    i_s = p_idx_45 + (0 + (1 - 0) * 1)  # load0_i_s: stage 0, partition 0 (group 0)
    i_s_97 = gl.load(i_s)  # load0_i_s: stage 0, partition 0 (group 0)
    ok = i_s_97_p1 >= 0  # elementwise0_ok: stage 1, partition 0 (group 0)
    ok_98 = i_s_97_p1 < v0  # elementwise0_ok: stage 1, partition 0 (group 0)
    ok_99 = ok & ok_98  # elementwise0_ok: stage 1, partition 0 (group 0)
    o_n = i_s_97_p1 * 64  # elementwise1_o_n: stage 1, partition 0 (group 0)
    o_n_100 = o_n  # elementwise2_n_valid: stage 1, partition 0 (group 0)
    o_n_102 = o_n_100 + offs_m_11  # elementwise2_n_valid: stage 1, partition 0 (group 0)
    n_valid = o_n_102 < T  # elementwise2_n_valid: stage 1, partition 0 (group 0)
    n_valid_105 = ok_99  # elementwise2_n_valid: stage 1, partition 0 (group 0)
    n_valid_107 = n_valid & n_valid_105  # elementwise2_n_valid: stage 1, partition 0 (group 0)
    o_n_101 = o_n  # elementwise3_n_valid: stage 1, partition 0 (group 0)
    o_n_103 = o_n_101 + offs_m_13  # elementwise3_n_valid: stage 1, partition 0 (group 0)
    n_valid_104 = o_n_103 < T  # elementwise3_n_valid: stage 1, partition 0 (group 0)
    n_valid_106 = ok_99  # elementwise3_n_valid: stage 1, partition 0 (group 0)
    n_valid_108 = n_valid_104 & n_valid_106  # elementwise3_n_valid: stage 1, partition 0 (group 0)
    mbarrier.wait(b_k_116_ready.index((1 - 1) % 2), ((1 - 1) // 2) & 1)
    fence_async_shared()
    tok_b_s_124 = warpgroup_mma(b_q_42, b_k_116_buf.index((1 - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
    b_s_124 = warpgroup_mma_wait(0, deps=(tok_b_s_124,))
    mbarrier.arrive(b_k_116_empty.index((1 - 1) % 2))
    b_s_125 = b_s_124 * qk_scale  # elementwise4_b_s: stage 1, partition 0 (group 0)
    b_s_126 = gl.expand_dims(n_valid_108, 0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
    b_s_127 = b_s_126.broadcast_to([64, 64])  # elementwise4_b_s: stage 1, partition 0 (group 0)
    b_s_128 = gl.where(b_s_127, b_s_125, float("-inf"))  # elementwise4_b_s: stage 1, partition 0 (group 0)
    b_m_new_129 = gl.max(b_s_128, axis=1)  # reduce0_b_m_new: stage 1, partition 0 (group 0)
    b_m_new_130 = gl.maximum(b_m_new_130_p1, b_m_new_129)  # elementwise5_b_m_new: stage 1, partition 0 (group 0)
    b_m_safe = b_m_new_130 == float("-inf")  # elementwise6_b_m_safe: stage 1, partition 0 (group 0)
    b_m_safe_131 = gl.where(b_m_safe, 0.0, b_m_new_130)  # elementwise6_b_m_safe: stage 1, partition 0 (group 0)
    b_r_132 = b_m_new_130_p1 - b_m_safe_131  # sfu0_b_r: stage 1, partition 0 (group 0)
    b_r_133 = gl.exp2(b_r_132)  # sfu0_b_r: stage 1, partition 0 (group 0)
    b_o_141 = gl.expand_dims(b_r_133, 1)  # convert0_b_o: stage 1, partition 0 (group 0)
    b_o_142 = gl.convert_layout(b_o_141, L5)  # convert0_b_o: stage 1, partition 0 (group 0)
    b_o_143 = b_o_142.broadcast_to([64, 128])  # elementwise8_b_o: stage 1, partition 0 (group 0)
    b_o_144 = b_o_147 * b_o_143  # elementwise8_b_o: stage 1, partition 0 (group 0)
    b_p_134 = gl.expand_dims(b_m_safe_131, 1)  # sfu1_b_p: stage 1, partition 0 (group 0)
    b_p_135 = b_p_134.broadcast_to([64, 64])  # sfu1_b_p: stage 1, partition 0 (group 0)
    b_p_136 = b_s_128 - b_p_135  # sfu1_b_p: stage 1, partition 0 (group 0)
    b_p_137 = gl.exp2(b_p_136)  # sfu1_b_p: stage 1, partition 0 (group 0)
    b_o_145 = b_p_137.to(gl.float16)  # convert1_b_o: stage 1, partition 0 (group 0)
    b_o_146 = gl.convert_layout(b_o_145, L7)  # convert1_b_o: stage 1, partition 0 (group 0)
    b_acc_140_p1 = b_acc_140
    b_m_new_130_p1 = b_m_new_130
    b_o_144_p1 = b_o_144
    b_o_146_p1 = b_o_146
    b_p_137_p1 = b_p_137
    b_r_133_p1 = b_r_133
    i_s_97_p1 = i_s_97
    for twill_b in range(2, twill_n):
        i_s = p_idx_45 + (0 + (twill_b - 0) * 1)  # load0_i_s: stage 0, partition 0 (group 0)
        i_s_97 = gl.load(i_s)  # load0_i_s: stage 0, partition 0 (group 0)
        ok = i_s_97_p1 >= 0  # elementwise0_ok: stage 1, partition 0 (group 0)
        ok_98 = i_s_97_p1 < v0  # elementwise0_ok: stage 1, partition 0 (group 0)
        ok_99 = ok & ok_98  # elementwise0_ok: stage 1, partition 0 (group 0)
        o_n = i_s_97_p1 * 64  # elementwise1_o_n: stage 1, partition 0 (group 0)
        o_n_100 = o_n  # elementwise2_n_valid: stage 1, partition 0 (group 0)
        o_n_102 = o_n_100 + offs_m_11  # elementwise2_n_valid: stage 1, partition 0 (group 0)
        n_valid = o_n_102 < T  # elementwise2_n_valid: stage 1, partition 0 (group 0)
        n_valid_105 = ok_99  # elementwise2_n_valid: stage 1, partition 0 (group 0)
        n_valid_107 = n_valid & n_valid_105  # elementwise2_n_valid: stage 1, partition 0 (group 0)
        mbarrier.wait(b_v_120_ready.index((twill_b - 2) % 2), ((twill_b - 2) // 2) & 1)
        fence_async_shared()
        tok_b_o_147 = warpgroup_mma(b_o_146_p1, b_v_120_buf.index((twill_b - 2) % 2), b_o_144_p1, is_async=True)  # dot1_b_o: stage 2, partition 0 (group 0)
        b_acc_139 = gl.sum(b_p_137_p1, axis=1)  # reduce1_b_acc: stage 2, partition 0 (group 0)
        o_n_101 = o_n  # elementwise3_n_valid: stage 1, partition 0 (group 0)
        o_n_103 = o_n_101 + offs_m_13  # elementwise3_n_valid: stage 1, partition 0 (group 0)
        n_valid_104 = o_n_103 < T  # elementwise3_n_valid: stage 1, partition 0 (group 0)
        n_valid_106 = ok_99  # elementwise3_n_valid: stage 1, partition 0 (group 0)
        n_valid_108 = n_valid_104 & n_valid_106  # elementwise3_n_valid: stage 1, partition 0 (group 0)
        b_acc_138 = b_acc_140_p1 * b_r_133_p1  # elementwise7_b_acc: stage 2, partition 0 (group 0)
        b_acc_140 = b_acc_138 + b_acc_139  # elementwise7_b_acc: stage 2, partition 0 (group 0)
        mbarrier.wait(b_k_116_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
        fence_async_shared()
        tok_b_s_124 = warpgroup_mma(b_q_42, b_k_116_buf.index((twill_b - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
        b_o_147, b_s_124 = warpgroup_mma_wait(0, deps=(tok_b_o_147, tok_b_s_124,))
        mbarrier.arrive(b_v_120_empty.index((twill_b - 2) % 2))
        mbarrier.arrive(b_k_116_empty.index((twill_b - 1) % 2))
        b_s_125 = b_s_124 * qk_scale  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_126 = gl.expand_dims(n_valid_108, 0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_127 = b_s_126.broadcast_to([64, 64])  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_128 = gl.where(b_s_127, b_s_125, float("-inf"))  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_m_new_129 = gl.max(b_s_128, axis=1)  # reduce0_b_m_new: stage 1, partition 0 (group 0)
        b_m_new_130 = gl.maximum(b_m_new_130_p1, b_m_new_129)  # elementwise5_b_m_new: stage 1, partition 0 (group 0)
        b_m_safe = b_m_new_130 == float("-inf")  # elementwise6_b_m_safe: stage 1, partition 0 (group 0)
        b_m_safe_131 = gl.where(b_m_safe, 0.0, b_m_new_130)  # elementwise6_b_m_safe: stage 1, partition 0 (group 0)
        b_r_132 = b_m_new_130_p1 - b_m_safe_131  # sfu0_b_r: stage 1, partition 0 (group 0)
        b_r_133 = gl.exp2(b_r_132)  # sfu0_b_r: stage 1, partition 0 (group 0)
        b_o_141 = gl.expand_dims(b_r_133, 1)  # convert0_b_o: stage 1, partition 0 (group 0)
        b_o_142 = gl.convert_layout(b_o_141, L5)  # convert0_b_o: stage 1, partition 0 (group 0)
        b_o_143 = b_o_142.broadcast_to([64, 128])  # elementwise8_b_o: stage 1, partition 0 (group 0)
        b_o_144 = b_o_147 * b_o_143  # elementwise8_b_o: stage 1, partition 0 (group 0)
        b_p_134 = gl.expand_dims(b_m_safe_131, 1)  # sfu1_b_p: stage 1, partition 0 (group 0)
        b_p_135 = b_p_134.broadcast_to([64, 64])  # sfu1_b_p: stage 1, partition 0 (group 0)
        b_p_136 = b_s_128 - b_p_135  # sfu1_b_p: stage 1, partition 0 (group 0)
        b_p_137 = gl.exp2(b_p_136)  # sfu1_b_p: stage 1, partition 0 (group 0)
        b_o_145 = b_p_137.to(gl.float16)  # convert1_b_o: stage 1, partition 0 (group 0)
        b_o_146 = gl.convert_layout(b_o_145, L7)  # convert1_b_o: stage 1, partition 0 (group 0)
        b_acc_140_p1 = b_acc_140
        b_m_new_130_p1 = b_m_new_130
        b_o_144_p1 = b_o_144
        b_o_146_p1 = b_o_146
        b_p_137_p1 = b_p_137
        b_r_133_p1 = b_r_133
        i_s_97_p1 = i_s_97
    ok = i_s_97_p1 >= 0  # elementwise0_ok: stage 1, partition 0 (group 0)
    ok_98 = i_s_97_p1 < v0  # elementwise0_ok: stage 1, partition 0 (group 0)
    ok_99 = ok & ok_98  # elementwise0_ok: stage 1, partition 0 (group 0)
    o_n = i_s_97_p1 * 64  # elementwise1_o_n: stage 1, partition 0 (group 0)
    o_n_100 = o_n  # elementwise2_n_valid: stage 1, partition 0 (group 0)
    o_n_102 = o_n_100 + offs_m_11  # elementwise2_n_valid: stage 1, partition 0 (group 0)
    n_valid = o_n_102 < T  # elementwise2_n_valid: stage 1, partition 0 (group 0)
    n_valid_105 = ok_99  # elementwise2_n_valid: stage 1, partition 0 (group 0)
    n_valid_107 = n_valid & n_valid_105  # elementwise2_n_valid: stage 1, partition 0 (group 0)
    mbarrier.wait(b_v_120_ready.index(((twill_n - 1 + 1) - 2) % 2), (((twill_n - 1 + 1) - 2) // 2) & 1)
    fence_async_shared()
    tok_b_o_147 = warpgroup_mma(b_o_146_p1, b_v_120_buf.index(((twill_n - 1 + 1) - 2) % 2), b_o_144_p1, is_async=True)  # dot1_b_o: stage 2, partition 0 (group 0)
    b_acc_139 = gl.sum(b_p_137_p1, axis=1)  # reduce1_b_acc: stage 2, partition 0 (group 0)
    o_n_101 = o_n  # elementwise3_n_valid: stage 1, partition 0 (group 0)
    o_n_103 = o_n_101 + offs_m_13  # elementwise3_n_valid: stage 1, partition 0 (group 0)
    n_valid_104 = o_n_103 < T  # elementwise3_n_valid: stage 1, partition 0 (group 0)
    n_valid_106 = ok_99  # elementwise3_n_valid: stage 1, partition 0 (group 0)
    n_valid_108 = n_valid_104 & n_valid_106  # elementwise3_n_valid: stage 1, partition 0 (group 0)
    b_acc_138 = b_acc_140_p1 * b_r_133_p1  # elementwise7_b_acc: stage 2, partition 0 (group 0)
    b_acc_140 = b_acc_138 + b_acc_139  # elementwise7_b_acc: stage 2, partition 0 (group 0)
    mbarrier.wait(b_k_116_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
    fence_async_shared()
    tok_b_s_124 = warpgroup_mma(b_q_42, b_k_116_buf.index(((twill_n - 1 + 1) - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
    b_o_147, b_s_124 = warpgroup_mma_wait(0, deps=(tok_b_o_147, tok_b_s_124,))
    mbarrier.arrive(b_v_120_empty.index(((twill_n - 1 + 1) - 2) % 2))
    mbarrier.arrive(b_k_116_empty.index(((twill_n - 1 + 1) - 1) % 2))
    b_s_125 = b_s_124 * qk_scale  # elementwise4_b_s: stage 1, partition 0 (group 0)
    b_s_126 = gl.expand_dims(n_valid_108, 0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
    b_s_127 = b_s_126.broadcast_to([64, 64])  # elementwise4_b_s: stage 1, partition 0 (group 0)
    b_s_128 = gl.where(b_s_127, b_s_125, float("-inf"))  # elementwise4_b_s: stage 1, partition 0 (group 0)
    b_m_new_129 = gl.max(b_s_128, axis=1)  # reduce0_b_m_new: stage 1, partition 0 (group 0)
    b_m_new_130 = gl.maximum(b_m_new_130_p1, b_m_new_129)  # elementwise5_b_m_new: stage 1, partition 0 (group 0)
    b_m_safe = b_m_new_130 == float("-inf")  # elementwise6_b_m_safe: stage 1, partition 0 (group 0)
    b_m_safe_131 = gl.where(b_m_safe, 0.0, b_m_new_130)  # elementwise6_b_m_safe: stage 1, partition 0 (group 0)
    b_r_132 = b_m_new_130_p1 - b_m_safe_131  # sfu0_b_r: stage 1, partition 0 (group 0)
    b_r_133 = gl.exp2(b_r_132)  # sfu0_b_r: stage 1, partition 0 (group 0)
    b_o_141 = gl.expand_dims(b_r_133, 1)  # convert0_b_o: stage 1, partition 0 (group 0)
    b_o_142 = gl.convert_layout(b_o_141, L5)  # convert0_b_o: stage 1, partition 0 (group 0)
    b_o_143 = b_o_142.broadcast_to([64, 128])  # elementwise8_b_o: stage 1, partition 0 (group 0)
    b_o_144 = b_o_147 * b_o_143  # elementwise8_b_o: stage 1, partition 0 (group 0)
    b_p_134 = gl.expand_dims(b_m_safe_131, 1)  # sfu1_b_p: stage 1, partition 0 (group 0)
    b_p_135 = b_p_134.broadcast_to([64, 64])  # sfu1_b_p: stage 1, partition 0 (group 0)
    b_p_136 = b_s_128 - b_p_135  # sfu1_b_p: stage 1, partition 0 (group 0)
    b_p_137 = gl.exp2(b_p_136)  # sfu1_b_p: stage 1, partition 0 (group 0)
    b_o_145 = b_p_137.to(gl.float16)  # convert1_b_o: stage 1, partition 0 (group 0)
    b_o_146 = gl.convert_layout(b_o_145, L7)  # convert1_b_o: stage 1, partition 0 (group 0)
    b_acc_140_p1 = b_acc_140
    b_m_new_130_p2 = b_m_new_130_p1
    b_m_new_130_p1 = b_m_new_130
    b_o_144_p1 = b_o_144
    b_o_146_p1 = b_o_146
    b_o_147_p1 = b_o_147
    b_p_137_p1 = b_p_137
    b_r_133_p1 = b_r_133
    i_s_97_p1 = i_s_97
    mbarrier.wait(b_v_120_ready.index(((twill_n - 1 + 2) - 2) % 2), (((twill_n - 1 + 2) - 2) // 2) & 1)
    fence_async_shared()
    tok_b_o_147 = warpgroup_mma(b_o_146_p1, b_v_120_buf.index(((twill_n - 1 + 2) - 2) % 2), b_o_144_p1, is_async=True)  # dot1_b_o: stage 2, partition 0 (group 0)
    b_acc_139 = gl.sum(b_p_137_p1, axis=1)  # reduce1_b_acc: stage 2, partition 0 (group 0)
    b_acc_138 = b_acc_140_p1 * b_r_133_p1  # elementwise7_b_acc: stage 2, partition 0 (group 0)
    b_acc_140 = b_acc_138 + b_acc_139  # elementwise7_b_acc: stage 2, partition 0 (group 0)
    b_o_147 = warpgroup_mma_wait(0, deps=(tok_b_o_147,))
    mbarrier.arrive(b_v_120_empty.index(((twill_n - 1 + 2) - 2) % 2))
    b_acc_140_p1 = b_acc_140
    b_m_new_130_p2 = b_m_new_130_p1
    b_m_new_130_p1 = b_m_new_130
    b_o_144_p1 = b_o_144
    b_o_146_p1 = b_o_146
    b_o_147_p1 = b_o_147
    b_p_137_p1 = b_p_137
    b_r_133_p1 = b_r_133
    i_s_97_p1 = i_s_97
    b_q_42._keep_alive()
    b_k_116_buf._keep_alive()
    b_v_120_buf._keep_alive()
    b_o_48 = gl.convert_layout(b_o_147_p1, L6)
    b_k_49 = k + bos_10
    b_k_51 = b_k_49 + b_q_32
    b_k_52 = b_k_51.broadcast_to([64, 128])
    b_k_53 = b_k_52 + b_q_38
    b_k_54 = gl.load(b_k_53, mask=b_q_40, other=0.0)
    b_v_55 = v + bos_10
    b_v_57 = b_v_55 + b_q_32
    b_v_58 = b_v_57.broadcast_to([64, 128])
    b_v_59 = b_v_58 + b_q_38
    b_v_60 = gl.load(b_v_59, mask=b_q_40, other=0.0)
    b_v_61 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_v_60)
    fence_async_shared()
    b_s_62 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_k_54)
    fence_async_shared()
    b_s_64 = warpgroup_mma(b_q_42, b_s_62.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L6))
    b_s_66 = b_s_64 * qk_scale
    b_s_67 = gl.expand_dims(offs_m_21, 0)
    b_s_68 = b_q_30.broadcast_to([64, 64])
    b_s_69 = b_s_67.broadcast_to([64, 64])
    b_s_70 = b_s_68 >= b_s_69
    b_s_71 = gl.expand_dims(m_valid_26, 0)
    b_s_72 = b_s_71.broadcast_to([64, 64])
    b_s_73 = b_s_70 & b_s_72
    b_s_74 = gl.where(b_s_73, b_s_66, float("-inf"))
    b_m_new = gl.max(b_s_74, axis=1)
    b_m_new_75 = gl.maximum(b_m_new_130_p2, b_m_new)
    b_r = b_m_new_130_p2 - b_m_new_75
    b_r_76 = gl.exp2(b_r)
    b_p = gl.expand_dims(b_m_new_75, 1)
    b_p_77 = b_p.broadcast_to([64, 64])
    b_p_78 = b_s_74 - b_p_77
    b_p_79 = gl.exp2(b_p_78)
    b_acc = b_acc_140_p1 * b_r_76
    b_acc_80 = gl.sum(b_p_79, axis=1)
    b_acc_81 = b_acc + b_acc_80
    b_o_82 = gl.expand_dims(b_r_76, 1)
    b_o_83 = b_o_82.broadcast_to([64, 128])
    b_o_84 = b_o_48 * b_o_83
    b_o_85 = b_p_79.to(gl.float16)
    b_o_86 = gl.convert_layout(b_o_84, L5)
    b_o_87 = gl.convert_layout(b_o_85, L7)
    b_o_88 = warpgroup_mma(b_o_87, b_v_61, b_o_86)
    b_o_89 = gl.expand_dims(b_acc_81, 1)
    b_o_90 = gl.convert_layout(b_o_89, L5)
    b_o_91 = b_o_90.broadcast_to([64, 128])
    b_o_92 = b_o_88 / b_o_91
    b_lse_93 = gl.log2(b_acc_81)
    b_lse_94 = b_m_new_75 + b_lse_93
    b_lse_95 = b_lse_94 / 1.44269502
    v4 = o + bos_10
    v6 = v4 + b_q_32
    v7 = v6.broadcast_to([64, 128])
    v8 = v7 + b_q_38
    v9 = b_o_92.to(gl.float16)
    v10 = gl.convert_layout(v9, L8)
    gl.store(v8, v10, mask=b_q_40)
    v12 = bos + offs_m_22
    v14 = v12 * H
    v16 = lse + v14
    v18 = v16 + v3
    v19 = gl.convert_layout(b_lse_95, L3)
    gl.store(v18, v19, mask=m_valid_27)

@gluon.jit
def producer_1(q, k, v, o, lse, block_indices, sm_scale, T, H, b_k_116_buf, b_v_120_buf, b_k_116_ready, b_k_116_empty, b_v_120_ready, b_v_120_empty, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = v1 // H
    v3 = v1 % H
    NC_6 = T + 63
    NC_7 = NC_6 // 64
    stride_t = H * 128
    bos = v2 * T
    bos_8 = bos * stride_t
    bos_9 = v3 * 128
    bos_10 = bos_8 + bos_9
    offs_m_11 = gl.arange(0, 64, layout=L0)
    b_q_35 = gl.arange(0, 128, layout=L4)
    b_q_36 = gl.expand_dims(b_q_35, 0)
    b_q_38 = b_q_36.broadcast_to([64, 128])
    p_idx = v1 * NC_7
    p_idx_43 = p_idx + v0
    p_idx_44 = p_idx_43 * 8
    p_idx_45 = block_indices + p_idx_44
    b_k = k + bos_10
    b_v = v + bos_10
    for b_o_96 in range(0, 8, 1):
        twill_k = (b_o_96 - 0) // 1
        i_s = p_idx_45 + b_o_96
        i_s_97 = gl.load(i_s)
        ok = i_s_97 >= 0
        ok_98 = i_s_97 < v0
        ok_99 = ok & ok_98
        o_n = i_s_97 * 64
        o_n_102 = o_n + offs_m_11
        n_valid = o_n_102 < T
        n_valid_107 = n_valid & ok_99
        b_k_109 = gl.expand_dims(n_valid_107, 1)
        b_k_110 = gl.expand_dims(o_n_102, 1)
        b_k_111 = b_k_110 * stride_t
        b_k_112 = b_k + b_k_111
        b_k_113 = b_k_112.broadcast_to([64, 128])
        b_k_114 = b_k_113 + b_q_38
        b_k_115 = b_k_109.broadcast_to([64, 128])
        b_v_117 = b_v + b_k_111
        b_v_118 = b_v_117.broadcast_to([64, 128])
        b_v_119 = b_v_118 + b_q_38
        mbarrier.wait(b_k_116_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_k_116_buf.index(twill_k % 2), b_k_114, mask=b_k_115)  # load1_b_k: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_k_116_ready.index(twill_k % 2), increment_count=False)
        else:
            b_k_116_buf.index(twill_k % 2).store(gl.load(b_k_114, mask=b_k_115, other=0.0))  # load1_b_k: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_k_116_ready.index(twill_k % 2), count=128)
        mbarrier.wait(b_v_120_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_v_120_buf.index(twill_k % 2), b_v_119, mask=b_k_115)  # load2_b_v: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_v_120_ready.index(twill_k % 2), increment_count=False)
        else:
            b_v_120_buf.index(twill_k % 2).store(gl.load(b_v_119, mask=b_k_115, other=0.0))  # load2_b_v: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_v_120_ready.index(twill_k % 2), count=128)

@gluon.jit
def twill_kernel(q, k, v, o, lse, block_indices, sm_scale, T, H, TWILL_COPY: gl.constexpr):
    b_k_116_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_v_120_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_k_116_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_k_116_ready.index(i), count=128)
    b_k_116_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_k_116_empty.index(i), count=1)
    b_v_120_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_v_120_ready.index(i), count=128)
    b_v_120_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_v_120_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (q, k, v, o, lse, block_indices, sm_scale, T, H, b_k_116_buf, b_v_120_buf, b_k_116_ready, b_k_116_empty, b_v_120_ready, b_v_120_empty, TWILL_COPY)),
        (producer_1, (q, k, v, o, lse, block_indices, sm_scale, T, H, b_k_116_buf, b_v_120_buf, b_k_116_ready, b_k_116_empty, b_v_120_ready, b_v_120_empty, TWILL_COPY)),
    ], [4], [88])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'o', 'lse', 'block_indices', 'sm_scale', 'T', 'H', 'BS', 'D', 'TOPK']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'o', 'lse', 'block_indices', 'sm_scale', 'T', 'H']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'o', 'lse', 'block_indices', 'sm_scale', 'T', 'H']   # the arguments a launch key reads
CONSTEXPRS = {'BS': 64, 'D': 128, 'TOPK': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['k', 'v']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
