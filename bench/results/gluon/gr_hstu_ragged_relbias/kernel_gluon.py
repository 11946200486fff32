"""_ragged_hstu_attn_fwd, written by twill from its joint schedule: I=172 L=268 (optimal), 6188 cycles per iteration predicted.

Decisions (each from the schedule):
- k_133 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- v_196 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_133, v_196): their addresses and masks spread over 128 threads
- the consumers' pointer loads in their readers' stage, not a stage ahead: the loop's trip count varies between programs, and a third stage would need two iterations of every program (run 101)
- partition 0 (default): consumer, warp group 0, 8 warps, 208 registers per thread (needs about 208): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring k_133: 2 buffers of [128, 64] bf16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring v_196: 2 buffers of [64, 128] bf16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 98384 bytes planned of 232448; maxnreg 168
- if at gr_hstu_ragged_relbias.py:110 (TTGIR line 73) around the scheduled loop: taken as an early return where its condition fails in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- written from the layouts Triton gives stride_qh, stride_kh, stride_vh, stride_oh, num_buckets, Z, H 16-divisible (its pointer loads 16 bytes a thread where the launch's specialisation proves them aligned, as Triton's own kernel at such a launch; at one where they are not, Gluon's lowering loads narrower vectors: run 66, FlagGems' softmax correct at N = 33001, x0.64 -> x1.00)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.extra import libdevice

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))
L10 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L11 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L12 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L13 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(Q, K, V, seq_offsets, TS, TW, PW, num_targets, Out, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_ts, stride_om, stride_oh, alpha, num_buckets, time_bucket_incr, time_bucket_div, time_delta, Z, H, k_133_buf, v_196_buf, k_133_ready, k_133_empty, v_196_ready, v_196_empty, TWILL_COPY: gl.constexpr):
    off_hz = gl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    pid = gl.program_id(0)
    seq_start = seq_offsets + off_z
    seq_start_16 = gl.load(seq_start)
    seq_end = seq_start + 1
    seq_end_17 = gl.load(seq_end)
    seq_len = seq_end_17 - seq_start_16
    seq_len_18 = gl.cast(seq_len, gl.int32)
    n_targets = num_targets + off_z
    n_targets_19 = gl.load(n_targets)
    start_m = pid * 128
    offs_m = gl.arange(0, 128, layout=L0)
    offs_m_20 = gl.arange(0, 128, layout=L1)
    offs_m_21 = gl.arange(0, 128, layout=L2)
    offs_m_22 = gl.arange(0, 128, layout=L3)
    offs_m_26 = start_m + offs_m_20
    offs_m_27 = start_m + offs_m_21
    offs_m_28 = start_m + offs_m
    offs_n = gl.arange(0, 64, layout=L4)
    offs_n_29 = gl.arange(0, 64, layout=L5)
    offs_n_30 = gl.arange(0, 64, layout=L0)
    mask_m_32 = offs_m_27 < seq_len_18
    mask_m_33 = offs_m_28 < seq_len_18
    Q_block_ptr = off_h * stride_qh
    Q_block_ptr_34 = Q + Q_block_ptr
    Q_block_ptr_35 = gl.cast(stride_qm, gl.int64)
    Q_block_ptr_36 = seq_start_16 * Q_block_ptr_35
    Q_block_ptr_37 = Q_block_ptr_34 + Q_block_ptr_36
    Q_block_ptr_38 = gl.cast(seq_len_18, gl.int64)
    Q_block_ptr_39 = gl.cast(start_m, gl.int64)
    q_49 = offs_m.to(gl.int64)
    q_51 = offs_m_22.to(gl.int64)
    q_52 = Q_block_ptr_39 + q_49
    q_53 = gl.expand_dims(q_52, 1)
    q_55 = q_53 * Q_block_ptr_35
    q_56 = q_55.broadcast_to([128, 128])
    q_57 = gl.expand_dims(q_51, 0)
    q_58 = q_57.broadcast_to([128, 128])
    q_59 = q_56 + q_58
    q_60 = Q_block_ptr_37 + q_59
    q_61 = q_53 >= 0
    q_63 = q_53 < Q_block_ptr_38
    q_64 = q_61 & q_63
    q_65 = q_64.broadcast_to([128, 128])
    q_66 = gl.load(q_60, mask=q_65, other=0.0)
    q_67 = gl.allocate_shared_memory(gl.bfloat16, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_66)
    fence_async_shared()
    ts_0_ptrs = off_z * stride_ts
    ts_0_ptrs_68 = TS + ts_0_ptrs
    ts_0_ptrs_70 = ts_0_ptrs_68 + offs_m_27
    ts_1_ptrs_71 = ts_0_ptrs_68 + offs_n_29
    ts_0 = ts_0_ptrs_70 + 1
    ts_0_72 = gl.load(ts_0, mask=mask_m_32)
    high = start_m + 128
    high_73 = gl.minimum(seq_len_18, high)
    k_76 = offs_n_29.to(gl.int64)
    k_77 = offs_n_30.to(gl.int64)
    invalid_mask = gl.expand_dims(offs_m_26, 1)
    invalid_mask_80 = invalid_mask.broadcast_to([128, 64])
    offs_m_81 = seq_len_18 - n_targets_19
    offs_m_84 = offs_m_26 < offs_m_81
    offs_m_85 = offs_m_27 < offs_m_81
    offs_m_86 = gl.where(offs_m_84, offs_m_26, offs_m_81)
    offs_m_87 = gl.where(offs_m_85, offs_m_27, offs_m_81)
    offs_n_minus_m = gl.expand_dims(offs_m_86, 1)
    offs_n_minus_m_90 = gl.expand_dims(offs_m_87, 1)
    offs_n_minus_m_91 = offs_n_minus_m.broadcast_to([128, 64])
    offs_n_minus_m_92 = offs_n_minus_m_90.broadcast_to([128, 64])
    ts = gl.expand_dims(ts_0_72, 1)
    ts_93 = ts.broadcast_to([128, 64])
    ts_95 = 1.0 / time_bucket_incr
    ts_97 = 1.0 / time_bucket_div
    ts_w = gl.expand_dims(mask_m_32, 1)
    ts_w_100 = ts_w.broadcast_to([128, 64])
    twill_n = (high_73 - 0 + 64 - 1) // 64
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        K_block_ptr_201 = gl.to_tensor(0).to(gl.int64)
        K_block_ptr_201_p1 = K_block_ptr_201
        acc_200 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
        k_122 = K_block_ptr_201_p1  # load1_k: stage 0, partition 0 (group 0)
        k_123 = k_122 + k_76  # load1_k: stage 0, partition 0 (group 0)
        k_124 = gl.expand_dims(k_123, 0)  # load1_k: stage 0, partition 0 (group 0)
        k_129 = k_124 >= 0  # elementwise1_k: stage 0, partition 0 (group 0)
        k_130 = k_124 < Q_block_ptr_38  # elementwise1_k: stage 0, partition 0 (group 0)
        k_131 = k_129 & k_130  # elementwise1_k: stage 0, partition 0 (group 0)
        cur_offs_n_120 = offs_n_29 + (0 + (0 - 0) * 64)  # load0_ts_1: stage 0, partition 0 (group 0)
        mask_n_121 = cur_offs_n_120 < seq_len_18  # load0_ts_1: stage 0, partition 0 (group 0)
        ts_1 = ts_1_ptrs_71 + (0 + (0 - 0) * 64)  # load0_ts_1: stage 0, partition 0 (group 0)
        ts_1_152 = gl.load(ts_1, mask=mask_n_121)  # load0_ts_1: stage 0, partition 0 (group 0)
        ts_153 = gl.expand_dims(ts_1_152, 0)  # convert0_ts: stage 0, partition 0 (group 0)
        ts_154 = ts_153.broadcast_to([128, 64])  # convert0_ts: stage 0, partition 0 (group 0)
        ts_155 = ts_93 - ts_154  # convert0_ts: stage 0, partition 0 (group 0)
        ts_156 = ts_155.to(gl.float32)  # convert0_ts: stage 0, partition 0 (group 0)
        ts_w_168 = gl.expand_dims(mask_n_121, 0)  # elementwise5_ts_w: stage 0, partition 0 (group 0)
        ts_w_169 = ts_w_168.broadcast_to([128, 64])  # elementwise5_ts_w: stage 0, partition 0 (group 0)
        ts_w_170 = ts_w_100 & ts_w_169  # elementwise5_ts_w: stage 0, partition 0 (group 0)
        ts_157 = ts_156 + time_delta  # elementwise3_ts: stage 0, partition 0 (group 0)
        ts_158 = ts_157 > 9.99999997e-07  # sfu0_ts: stage 0, partition 0 (group 0)
        ts_159 = gl.where(ts_158, ts_157, 9.99999997e-07)  # sfu0_ts: stage 0, partition 0 (group 0)
        ts_160 = ts_159 * ts_95  # sfu0_ts: stage 0, partition 0 (group 0)
        ts_161 = gl.log(ts_160)  # sfu0_ts: stage 0, partition 0 (group 0)
        ts_162 = ts_161 * ts_97  # elementwise4_ts: stage 0, partition 0 (group 0)
        K_block_ptr_201 = K_block_ptr_201_p1 + 64  # load1_k: stage 0, partition 0 (group 0)
        v_185 = K_block_ptr_201_p1  # load4_v: stage 0, partition 0 (group 0)
        v_186 = v_185 + k_77  # load4_v: stage 0, partition 0 (group 0)
        v_187 = gl.expand_dims(v_186, 1)  # load4_v: stage 0, partition 0 (group 0)
        v_192 = v_187 >= 0  # elementwise6_v: stage 0, partition 0 (group 0)
        v_193 = v_187 < Q_block_ptr_38  # elementwise6_v: stage 0, partition 0 (group 0)
        v_194 = v_192 & v_193  # elementwise6_v: stage 0, partition 0 (group 0)
        mbarrier.wait(k_133_ready.index((0 - 0) % 2), ((0 - 0) // 2) & 1)
        fence_async_shared()
        tok_qk_135 = warpgroup_mma(q_67, k_133_buf.index((0 - 0) % 2), gl.full([128, 64], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        offs_n_141 = cur_offs_n_120 < offs_m_81  # load2_pos_w: stage 0, partition 0 (group 0)
        offs_n_143 = gl.where(offs_n_141, cur_offs_n_120, offs_m_81)  # load2_pos_w: stage 0, partition 0 (group 0)
        offs_n_minus_m_145 = gl.expand_dims(offs_n_143, 0)  # load2_pos_w: stage 0, partition 0 (group 0)
        offs_n_minus_m_147 = offs_n_minus_m_145.broadcast_to([128, 64])  # load2_pos_w: stage 0, partition 0 (group 0)
        offs_n_minus_m_149 = offs_n_minus_m_147 - offs_n_minus_m_92  # load2_pos_w: stage 0, partition 0 (group 0)
        offs_pos_w = offs_n_minus_m_149 + 2048  # load2_pos_w: stage 0, partition 0 (group 0)
        offs_pos_w_174 = offs_pos_w - 1  # load2_pos_w: stage 0, partition 0 (group 0)
        pos_w_175 = PW + offs_pos_w_174  # load2_pos_w: stage 0, partition 0 (group 0)
        pos_w_176 = gl.load(pos_w_175, mask=ts_w_170)  # load2_pos_w: stage 0, partition 0 (group 0)
        attn_bias_177 = gl.convert_layout(pos_w_176, L7)  # convert2_attn_bias: stage 0, partition 0 (group 0)
        ts_163 = ts_162.to(gl.int32)  # load3_ts_w: stage 0, partition 0 (group 0)
        ts_164 = ts_163 > 0  # load3_ts_w: stage 0, partition 0 (group 0)
        ts_165 = gl.where(ts_164, ts_163, 0)  # load3_ts_w: stage 0, partition 0 (group 0)
        ts_166 = ts_165 < num_buckets  # load3_ts_w: stage 0, partition 0 (group 0)
        ts_167 = gl.where(ts_166, ts_165, num_buckets)  # load3_ts_w: stage 0, partition 0 (group 0)
        ts_w_171 = TW + ts_167  # load3_ts_w: stage 0, partition 0 (group 0)
        ts_w_172 = gl.load(ts_w_171, mask=ts_w_170)  # load3_ts_w: stage 0, partition 0 (group 0)
        attn_bias = gl.convert_layout(ts_w_172, L7)  # convert1_attn_bias: stage 0, partition 0 (group 0)
        qk_135 = warpgroup_mma_wait(1, deps=(tok_qk_135,))
        K_block_ptr_201_p1 = K_block_ptr_201
        acc_200_p1 = acc_200
        attn_bias_p1 = attn_bias
        attn_bias_177_p1 = attn_bias_177
        qk_135_p1 = qk_135
        for twill_b in range(1, twill_n):
            k_122 = K_block_ptr_201_p1  # load1_k: stage 0, partition 0 (group 0)
            k_123 = k_122 + k_76  # load1_k: stage 0, partition 0 (group 0)
            k_124 = gl.expand_dims(k_123, 0)  # load1_k: stage 0, partition 0 (group 0)
            k_129 = k_124 >= 0  # elementwise1_k: stage 0, partition 0 (group 0)
            k_130 = k_124 < Q_block_ptr_38  # elementwise1_k: stage 0, partition 0 (group 0)
            k_131 = k_129 & k_130  # elementwise1_k: stage 0, partition 0 (group 0)
            qk_135_p1 = warpgroup_mma_wait(0, deps=(qk_135_p1,))
            mbarrier.arrive(k_133_empty.index((twill_b - 1 - 0) % 2))
            qk_136 = qk_135_p1 * alpha  # elementwise2_qk: stage 1, partition 0 (group 0)
            attn_bias_173 = attn_bias_p1 + 0.0  # elementwise2_qk: stage 1, partition 0 (group 0)
            attn_bias_178 = attn_bias_173 + attn_bias_177_p1  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_179 = qk_136 + attn_bias_178  # elementwise2_qk: stage 1, partition 0 (group 0)
            cur_offs_n_118 = (0 + (twill_b - 0) * 64)  # load0_ts_1: stage 0, partition 0 (group 0)
            cur_offs_n_120 = offs_n_29 + cur_offs_n_118  # load0_ts_1: stage 0, partition 0 (group 0)
            mask_n_121 = cur_offs_n_120 < seq_len_18  # load0_ts_1: stage 0, partition 0 (group 0)
            ts_1 = ts_1_ptrs_71 + cur_offs_n_118  # load0_ts_1: stage 0, partition 0 (group 0)
            ts_1_152 = gl.load(ts_1, mask=mask_n_121)  # load0_ts_1: stage 0, partition 0 (group 0)
            ts_153 = gl.expand_dims(ts_1_152, 0)  # convert0_ts: stage 0, partition 0 (group 0)
            ts_154 = ts_153.broadcast_to([128, 64])  # convert0_ts: stage 0, partition 0 (group 0)
            ts_155 = ts_93 - ts_154  # convert0_ts: stage 0, partition 0 (group 0)
            ts_156 = ts_155.to(gl.float32)  # convert0_ts: stage 0, partition 0 (group 0)
            silu = 0.0 - qk_179  # sfu1_silu: stage 1, partition 0 (group 0)
            silu_180 = gl.exp(silu)  # sfu1_silu: stage 1, partition 0 (group 0)
            ts_w_168 = gl.expand_dims(mask_n_121, 0)  # elementwise5_ts_w: stage 0, partition 0 (group 0)
            ts_w_169 = ts_w_168.broadcast_to([128, 64])  # elementwise5_ts_w: stage 0, partition 0 (group 0)
            ts_w_170 = ts_w_100 & ts_w_169  # elementwise5_ts_w: stage 0, partition 0 (group 0)
            ts_157 = ts_156 + time_delta  # elementwise3_ts: stage 0, partition 0 (group 0)
            ts_158 = ts_157 > 9.99999997e-07  # sfu0_ts: stage 0, partition 0 (group 0)
            ts_159 = gl.where(ts_158, ts_157, 9.99999997e-07)  # sfu0_ts: stage 0, partition 0 (group 0)
            ts_160 = ts_159 * ts_95  # sfu0_ts: stage 0, partition 0 (group 0)
            ts_161 = gl.log(ts_160)  # sfu0_ts: stage 0, partition 0 (group 0)
            cur_offs_n = (0 + (twill_b - 1) * 64)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            cur_offs_n_119 = offs_n + cur_offs_n  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            invalid_mask_137 = gl.expand_dims(cur_offs_n_119, 0)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            invalid_mask_138 = invalid_mask_137.broadcast_to([128, 64])  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            invalid_mask_139 = invalid_mask_80 == invalid_mask_138  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            offs_n_140 = cur_offs_n_119 < offs_m_81  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            offs_n_142 = gl.where(offs_n_140, cur_offs_n_119, offs_m_81)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            offs_n_minus_m_144 = gl.expand_dims(offs_n_142, 0)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            offs_n_minus_m_146 = offs_n_minus_m_144.broadcast_to([128, 64])  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            offs_n_minus_m_148 = offs_n_minus_m_146 - offs_n_minus_m_91  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            invalid_mask_150 = offs_n_minus_m_148 < 0  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            invalid_mask_151 = invalid_mask_139 | invalid_mask_150  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            silu_181 = silu_180 + 1.0  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            silu_182 = libdevice.fast_dividef(qk_179, silu_181)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            silu_183 = silu_182 * 0.00048828125  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            silu_184 = gl.where(invalid_mask_151, silu_183, 0.0)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
            ts_162 = ts_161 * ts_97  # elementwise4_ts: stage 0, partition 0 (group 0)
            acc_198 = silu_184.to(gl.bfloat16)  # convert3_acc: stage 1, partition 0 (group 0)
            acc_199 = gl.convert_layout(acc_198, L8)  # convert3_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(v_196_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_200 = warpgroup_mma(acc_199, v_196_buf.index((twill_b - 1) % 2), acc_200_p1, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            K_block_ptr_201 = K_block_ptr_201_p1 + 64  # load1_k: stage 0, partition 0 (group 0)
            v_185 = K_block_ptr_201_p1  # load4_v: stage 0, partition 0 (group 0)
            v_186 = v_185 + k_77  # load4_v: stage 0, partition 0 (group 0)
            v_187 = gl.expand_dims(v_186, 1)  # load4_v: stage 0, partition 0 (group 0)
            v_192 = v_187 >= 0  # elementwise6_v: stage 0, partition 0 (group 0)
            v_193 = v_187 < Q_block_ptr_38  # elementwise6_v: stage 0, partition 0 (group 0)
            v_194 = v_192 & v_193  # elementwise6_v: stage 0, partition 0 (group 0)
            mbarrier.wait(k_133_ready.index((twill_b - 0) % 2), ((twill_b - 0) // 2) & 1)
            fence_async_shared()
            tok_qk_135 = warpgroup_mma(q_67, k_133_buf.index((twill_b - 0) % 2), gl.full([128, 64], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            offs_n_141 = cur_offs_n_120 < offs_m_81  # load2_pos_w: stage 0, partition 0 (group 0)
            offs_n_143 = gl.where(offs_n_141, cur_offs_n_120, offs_m_81)  # load2_pos_w: stage 0, partition 0 (group 0)
            offs_n_minus_m_145 = gl.expand_dims(offs_n_143, 0)  # load2_pos_w: stage 0, partition 0 (group 0)
            offs_n_minus_m_147 = offs_n_minus_m_145.broadcast_to([128, 64])  # load2_pos_w: stage 0, partition 0 (group 0)
            offs_n_minus_m_149 = offs_n_minus_m_147 - offs_n_minus_m_92  # load2_pos_w: stage 0, partition 0 (group 0)
            offs_pos_w = offs_n_minus_m_149 + 2048  # load2_pos_w: stage 0, partition 0 (group 0)
            offs_pos_w_174 = offs_pos_w - 1  # load2_pos_w: stage 0, partition 0 (group 0)
            pos_w_175 = PW + offs_pos_w_174  # load2_pos_w: stage 0, partition 0 (group 0)
            pos_w_176 = gl.load(pos_w_175, mask=ts_w_170)  # load2_pos_w: stage 0, partition 0 (group 0)
            attn_bias_177 = gl.convert_layout(pos_w_176, L7)  # convert2_attn_bias: stage 0, partition 0 (group 0)
            ts_163 = ts_162.to(gl.int32)  # load3_ts_w: stage 0, partition 0 (group 0)
            ts_164 = ts_163 > 0  # load3_ts_w: stage 0, partition 0 (group 0)
            ts_165 = gl.where(ts_164, ts_163, 0)  # load3_ts_w: stage 0, partition 0 (group 0)
            ts_166 = ts_165 < num_buckets  # load3_ts_w: stage 0, partition 0 (group 0)
            ts_167 = gl.where(ts_166, ts_165, num_buckets)  # load3_ts_w: stage 0, partition 0 (group 0)
            ts_w_171 = TW + ts_167  # load3_ts_w: stage 0, partition 0 (group 0)
            ts_w_172 = gl.load(ts_w_171, mask=ts_w_170)  # load3_ts_w: stage 0, partition 0 (group 0)
            attn_bias = gl.convert_layout(ts_w_172, L7)  # convert1_attn_bias: stage 0, partition 0 (group 0)
            acc_200 = warpgroup_mma_wait(1, deps=(tok_acc_200,))
            mbarrier.arrive(v_196_empty.index((twill_b - 1) % 2))
            qk_135 = warpgroup_mma_wait(1, deps=(tok_qk_135,))
            K_block_ptr_201_p1 = K_block_ptr_201
            acc_200_p1 = acc_200
            attn_bias_p1 = attn_bias
            attn_bias_177_p1 = attn_bias_177
            qk_135_p1 = qk_135
        qk_135_p1 = warpgroup_mma_wait(0, deps=(qk_135_p1,))
        mbarrier.arrive(k_133_empty.index(((twill_n - 1 + 1) - 1 - 0) % 2))
        qk_136 = qk_135_p1 * alpha  # elementwise2_qk: stage 1, partition 0 (group 0)
        attn_bias_173 = attn_bias_p1 + 0.0  # elementwise2_qk: stage 1, partition 0 (group 0)
        attn_bias_178 = attn_bias_173 + attn_bias_177_p1  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_179 = qk_136 + attn_bias_178  # elementwise2_qk: stage 1, partition 0 (group 0)
        silu = 0.0 - qk_179  # sfu1_silu: stage 1, partition 0 (group 0)
        silu_180 = gl.exp(silu)  # sfu1_silu: stage 1, partition 0 (group 0)
        cur_offs_n = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        cur_offs_n_119 = offs_n + cur_offs_n  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        invalid_mask_137 = gl.expand_dims(cur_offs_n_119, 0)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        invalid_mask_138 = invalid_mask_137.broadcast_to([128, 64])  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        invalid_mask_139 = invalid_mask_80 == invalid_mask_138  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        offs_n_140 = cur_offs_n_119 < offs_m_81  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        offs_n_142 = gl.where(offs_n_140, cur_offs_n_119, offs_m_81)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        offs_n_minus_m_144 = gl.expand_dims(offs_n_142, 0)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        offs_n_minus_m_146 = offs_n_minus_m_144.broadcast_to([128, 64])  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        offs_n_minus_m_148 = offs_n_minus_m_146 - offs_n_minus_m_91  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        invalid_mask_150 = offs_n_minus_m_148 < 0  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        invalid_mask_151 = invalid_mask_139 | invalid_mask_150  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        silu_181 = silu_180 + 1.0  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        silu_182 = libdevice.fast_dividef(qk_179, silu_181)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        silu_183 = silu_182 * 0.00048828125  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        silu_184 = gl.where(invalid_mask_151, silu_183, 0.0)  # elementwise0_invalid_mask: stage 1, partition 0 (group 0)
        acc_198 = silu_184.to(gl.bfloat16)  # convert3_acc: stage 1, partition 0 (group 0)
        acc_199 = gl.convert_layout(acc_198, L8)  # convert3_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(v_196_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_acc_200 = warpgroup_mma(acc_199, v_196_buf.index(((twill_n - 1 + 1) - 1) % 2), acc_200_p1, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        acc_200 = warpgroup_mma_wait(0, deps=(tok_acc_200,))
        mbarrier.arrive(v_196_empty.index(((twill_n - 1 + 1) - 1) % 2))
        K_block_ptr_201_p2 = K_block_ptr_201_p1
        K_block_ptr_201_p1 = K_block_ptr_201
        acc_200_p1 = acc_200
        attn_bias_p1 = attn_bias
        attn_bias_177_p1 = attn_bias_177
        qk_135_p1 = qk_135
        q_67._keep_alive()
        k_133_buf._keep_alive()
        v_196_buf._keep_alive()
    else:
        K_block_ptr_201_p2 = gl.to_tensor(0).to(gl.int64)
        acc_200_p1 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
    off_o = gl.cast(stride_om, gl.int64)
    off_o_105 = seq_start_16 * off_o
    off_o_106 = Out + off_o_105
    off_o_107 = off_h * stride_oh
    off_o_108 = off_o_106 + off_o_107
    out_ptrs = gl.expand_dims(offs_m_28, 1)
    out_ptrs_110 = out_ptrs * stride_om
    out_ptrs_112 = off_o_108 + out_ptrs_110
    out_ptrs_113 = gl.expand_dims(offs_m_22, 0)
    out_ptrs_114 = out_ptrs_112.broadcast_to([128, 128])
    out_ptrs_115 = out_ptrs_113.broadcast_to([128, 128])
    out_ptrs_116 = out_ptrs_114 + out_ptrs_115
    v1 = gl.expand_dims(mask_m_33, 1)
    v2 = acc_200_p1.to(gl.bfloat16)
    v3 = v1.broadcast_to([128, 128])
    v4 = gl.convert_layout(v2, L9)
    gl.store(out_ptrs_116, v4, mask=v3)

@gluon.jit
def producer_1(Q, K, V, seq_offsets, TS, TW, PW, num_targets, Out, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_ts, stride_om, stride_oh, alpha, num_buckets, time_bucket_incr, time_bucket_div, time_delta, Z, H, k_133_buf, v_196_buf, k_133_ready, k_133_empty, v_196_ready, v_196_empty, TWILL_COPY: gl.constexpr):
    off_hz = gl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    pid = gl.program_id(0)
    seq_start = seq_offsets + off_z
    seq_start_16 = gl.load(seq_start)
    seq_end = seq_start + 1
    seq_end_17 = gl.load(seq_end)
    seq_len = seq_end_17 - seq_start_16
    seq_len_18 = gl.cast(seq_len, gl.int32)
    start_m = pid * 128
    offs_m_21 = gl.arange(0, 128, layout=L10)
    offs_m_22 = gl.arange(0, 128, layout=L11)
    offs_n_29 = gl.arange(0, 64, layout=L12)
    offs_n_30 = gl.arange(0, 64, layout=L13)
    Q_block_ptr_38 = gl.cast(seq_len_18, gl.int64)
    K_block_ptr = off_h * stride_kh
    K_block_ptr_40 = K + K_block_ptr
    K_block_ptr_41 = gl.cast(stride_kn, gl.int64)
    K_block_ptr_42 = seq_start_16 * K_block_ptr_41
    K_block_ptr_43 = K_block_ptr_40 + K_block_ptr_42
    V_block_ptr = off_h * stride_vh
    V_block_ptr_44 = V + V_block_ptr
    V_block_ptr_45 = gl.cast(stride_vn, gl.int64)
    V_block_ptr_46 = seq_start_16 * V_block_ptr_45
    V_block_ptr_47 = V_block_ptr_44 + V_block_ptr_46
    q_50 = offs_m_21.to(gl.int64)
    q_51 = offs_m_22.to(gl.int64)
    q_57 = gl.expand_dims(q_51, 0)
    high = start_m + 128
    high_73 = gl.minimum(seq_len_18, high)
    k_74 = gl.expand_dims(q_50, 1)
    k_75 = k_74.broadcast_to([128, 64])
    k_76 = offs_n_29.to(gl.int64)
    k_77 = offs_n_30.to(gl.int64)
    v_103 = q_57.broadcast_to([64, 128])
    arg26 = 0
    for acc_117 in range(0, high_73, 64):
        twill_k = (acc_117 - 0) // 64
        k_123 = arg26 + k_76
        k_124 = gl.expand_dims(k_123, 0)
        k_125 = k_124 * K_block_ptr_41
        k_126 = k_125.broadcast_to([128, 64])
        k_127 = k_75 + k_126
        k_128 = K_block_ptr_43 + k_127
        k_129 = k_124 >= 0
        k_130 = k_124 < Q_block_ptr_38
        k_131 = k_129 & k_130
        k_132 = k_131.broadcast_to([128, 64])
        v_186 = arg26 + k_77
        v_187 = gl.expand_dims(v_186, 1)
        v_188 = v_187 * V_block_ptr_45
        v_189 = v_188.broadcast_to([64, 128])
        v_190 = v_189 + v_103
        v_191 = V_block_ptr_47 + v_190
        v_192 = v_187 >= 0
        v_193 = v_187 < Q_block_ptr_38
        v_194 = v_192 & v_193
        v_195 = v_194.broadcast_to([64, 128])
        K_block_ptr_201 = arg26 + 64
        mbarrier.wait(k_133_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(k_133_buf.index(twill_k % 2), k_128, mask=k_132)  # load1_k: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(k_133_ready.index(twill_k % 2), increment_count=False)
        else:
            k_133_buf.index(twill_k % 2).store(gl.load(k_128, mask=k_132, other=0.0))  # load1_k: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(k_133_ready.index(twill_k % 2), count=128)
        mbarrier.wait(v_196_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(v_196_buf.index(twill_k % 2), v_191, mask=v_195)  # load4_v: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(v_196_ready.index(twill_k % 2), increment_count=False)
        else:
            v_196_buf.index(twill_k % 2).store(gl.load(v_191, mask=v_195, other=0.0))  # load4_v: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(v_196_ready.index(twill_k % 2), count=128)
        arg26 = K_block_ptr_201

@gluon.jit
def twill_kernel(Q, K, V, seq_offsets, TS, TW, PW, num_targets, Out, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_ts, stride_om, stride_oh, alpha, num_buckets, time_bucket_incr, time_bucket_div, time_delta, Z, H, TWILL_COPY: gl.constexpr):
    off_hz = gl.program_id(1)
    off_z = off_hz // H
    pid = gl.program_id(0)
    seq_start = seq_offsets + off_z
    seq_start_16 = gl.load(seq_start)
    seq_end = seq_start + 1
    seq_end_17 = gl.load(seq_end)
    seq_len = seq_end_17 - seq_start_16
    seq_len_18 = gl.cast(seq_len, gl.int32)
    start_m = pid * 128
    v0 = start_m < seq_len_18
    if not v0:
        return
    k_133_buf = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_196_buf = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_133_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_133_ready.index(i), count=128)
    k_133_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_133_empty.index(i), count=1)
    v_196_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_196_ready.index(i), count=128)
    v_196_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_196_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, seq_offsets, TS, TW, PW, num_targets, Out, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_ts, stride_om, stride_oh, alpha, num_buckets, time_bucket_incr, time_bucket_div, time_delta, Z, H, k_133_buf, v_196_buf, k_133_ready, k_133_empty, v_196_ready, v_196_empty, TWILL_COPY)),
        (producer_1, (Q, K, V, seq_offsets, TS, TW, PW, num_targets, Out, stride_qm, stride_qh, stride_kn, stride_kh, stride_vn, stride_vh, stride_ts, stride_om, stride_oh, alpha, num_buckets, time_bucket_incr, time_bucket_div, time_delta, Z, H, k_133_buf, v_196_buf, k_133_ready, k_133_empty, v_196_ready, v_196_empty, TWILL_COPY)),
    ], [4], [88])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'seq_offsets', 'TS', 'TW', 'PW', 'num_targets', 'Out', 'stride_qm', 'stride_qh', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh', 'stride_ts', 'stride_om', 'stride_oh', 'alpha', 'num_buckets', 'time_bucket_incr', 'time_bucket_div', 'time_delta', 'Z', 'H', 'MAX_SEQ_LEN', 'DimQ', 'DimV', 'HAS_MULTIPLE_TARGETS', 'USE_TIME_BIAS', 'USE_POS_BIAS', 'ALLOW_TF32', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'seq_offsets', 'TS', 'TW', 'PW', 'num_targets', 'Out', 'stride_qm', 'stride_qh', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh', 'stride_ts', 'stride_om', 'stride_oh', 'alpha', 'num_buckets', 'time_bucket_incr', 'time_bucket_div', 'time_delta', 'Z', 'H']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'seq_offsets', 'TS', 'TW', 'PW', 'num_targets', 'Out', 'stride_qm', 'stride_qh', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh', 'stride_ts', 'stride_om', 'stride_oh', 'alpha', 'num_buckets', 'time_bucket_incr', 'time_bucket_div', 'time_delta', 'Z', 'H']   # the arguments a launch key reads
CONSTEXPRS = {'MAX_SEQ_LEN': 2048, 'DimQ': 128, 'DimV': 128, 'HAS_MULTIPLE_TARGETS': True, 'USE_TIME_BIAS': True, 'USE_POS_BIAS': True, 'ALLOW_TF32': False, 'BLOCK_M': 128, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = 168
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_kn', 'stride_kh', 'stride_vn', 'stride_vh']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
