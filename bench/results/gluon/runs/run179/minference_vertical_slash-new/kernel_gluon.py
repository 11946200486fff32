"""_triton_mixed_sparse_attn_fwd_kernel, written by twill from its joint schedule: I=152 L=261 (optimal), 1286 cycles per iteration predicted.

Decisions (each from the schedule):
- k_105 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%cols_96), which the analysis does not follow
- v_113 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%cols_97), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_105, v_113): their addresses and masks spread over 128 threads
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 186): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring k_105: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring v_113: 3 buffers of [64, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 98416 bytes planned of 232448; maxnreg 256
- loop at minference_vertical_slash.py:90 (TTGIR line 149) (before the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=237, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- early return at minference_vertical_slash.py:59 (TTGIR line 72): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 1 iteration(s) ahead, 98304 bytes of shared memory compiled, ptxas 234 registers, ptxas serialises the wgmmas (non wgmma instructions defining accumulator registers of a wgmma between start and end of the pipeline stage); simulated for 0, 1, 2, 3, 4, 9 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, seqlens, sm_scale, block_count, block_offset, column_count, column_index, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, N_CTX, NUM_ROWS, NNZ_S, NNZ_V, k_105_buf, v_113_buf, k_105_ready, k_105_empty, v_113_ready, v_113_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    start_m = gl.program_id(0)
    off_hz = gl.program_id(1)
    seqlen = off_hz // H
    seqlen_9 = seqlens + seqlen
    seqlen_10 = gl.load(seqlen_9)
    v0 = start_m * 64
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_11 = gl.arange(0, 64, layout=L1)
    offs_m_12 = gl.arange(0, 64, layout=L2)
    offs_m_13 = gl.arange(0, 64, layout=L3)
    offs_m_16 = v0 + offs_m
    offs_m_17 = v0 + offs_m_11
    qo_offset = seqlen * stride_qz
    qo_offset_18 = off_hz % H
    qo_offset_19 = qo_offset_18 * stride_qh
    qo_offset_20 = qo_offset + qo_offset_19
    kv_offset = seqlen * stride_kz
    kv_offset_21 = qo_offset_18 * stride_kh
    kv_offset_22 = kv_offset + kv_offset_21
    q_ptrs = Q + qo_offset_20
    q_ptrs_23 = gl.expand_dims(offs_m_16, 1)
    q_ptrs_24 = gl.expand_dims(offs_m_17, 1)
    q_ptrs_26 = q_ptrs_23 * stride_qm
    q_ptrs_28 = q_ptrs + q_ptrs_26
    q_ptrs_29 = gl.arange(0, 128, layout=L4)
    q_ptrs_30 = gl.expand_dims(q_ptrs_29, 0)
    q_ptrs_31 = q_ptrs_28.broadcast_to([64, 128])
    q_ptrs_32 = q_ptrs_30.broadcast_to([64, 128])
    q_ptrs_33 = q_ptrs_31 + q_ptrs_32
    k_ptrs = K + kv_offset_22
    k_ptrs_34 = gl.arange(0, 128, layout=L5)
    k_ptrs_35 = gl.expand_dims(k_ptrs_34, 1)
    k_ptrs_37 = k_ptrs + k_ptrs_35
    v_ptrs = V + kv_offset_22
    v_ptrs_39 = v_ptrs + q_ptrs_30
    o_ptrs = Out + qo_offset_20
    o_ptrs_41 = q_ptrs_23 * stride_om
    o_ptrs_43 = o_ptrs + o_ptrs_41
    o_ptrs_44 = o_ptrs_43.broadcast_to([64, 128])
    o_ptrs_45 = o_ptrs_44 + q_ptrs_32
    num_blks = off_hz * NUM_ROWS
    num_blks_46 = block_count + num_blks
    num_blks_47 = num_blks_46 + start_m
    num_blks_48 = gl.load(num_blks_47)
    blks_ptr = num_blks + start_m
    blks_ptr_49 = blks_ptr * NNZ_S
    blks_ptr_50 = block_offset + blks_ptr_49
    num_cols = column_count + num_blks
    num_cols_51 = num_cols + start_m
    num_cols_52 = gl.load(num_cols_51)
    qk_scale = sm_scale * 1.44269502
    q = gl.load(q_ptrs_33)
    q_54 = q.to(gl.float32)
    q_56 = q_54 * qk_scale
    q_57 = q_56.to(gl.float16)
    m_mask_59 = q_ptrs_24 < seqlen_10
    m_mask_60 = q_ptrs_23 < seqlen_10
    k_62 = k_ptrs_37.broadcast_to([128, 64])
    v_63 = v_ptrs_39.broadcast_to([64, 128])
    causal_mask = q_ptrs_24.broadcast_to([64, 64])
    qk = m_mask_59.broadcast_to([64, 64])
    q_64 = gl.convert_layout(q_57, L6)
    twill_n = (num_blks_48 - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        m_i_new_110 = gl.full([64], float("-inf"), gl.float32, layout=L1)
        l_i_124 = gl.full([64], 0.0, gl.float32, layout=L1)
        acc_122 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
        start_n = blks_ptr_50 + (0 + (0 - 0) * 1)  # load0_start_n: stage 0, partition 0 (group 0)
        start_n_80 = gl.load(start_n)  # load0_start_n: stage 0, partition 0 (group 0)
        acc_122_p1 = acc_122
        l_i_124_p1 = l_i_124
        m_i_new_110_p1 = m_i_new_110
        start_n_80_p1 = start_n_80
        for twill_b in range(1, twill_n):
            start_n = blks_ptr_50 + (0 + (twill_b - 0) * 1)  # load0_start_n: stage 0, partition 0 (group 0)
            start_n_80 = gl.load(start_n)  # load0_start_n: stage 0, partition 0 (group 0)
            cols_81 = start_n_80_p1  # elementwise0_qk: stage 1, partition 0 (group 0)
            cols_84 = cols_81 + offs_m_13  # elementwise0_qk: stage 1, partition 0 (group 0)
            k_90 = gl.expand_dims(cols_84, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
            causal_mask_105 = k_90.broadcast_to([64, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
            causal_mask_106 = causal_mask_105 <= causal_mask  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_107 = qk & causal_mask_106  # elementwise0_qk: stage 1, partition 0 (group 0)
            acc_122_p1 = warpgroup_mma_wait(0, deps=(acc_122_p1,))
            mbarrier.arrive(v_113_empty.index((twill_base + twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
            qk_108 = gl.where(qk_107, 0.0, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
            mbarrier.wait(k_105_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_qk_109 = warpgroup_mma(q_64, k_105_buf.index((twill_base + twill_b - 1) % 3), qk_108, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            qk_109 = warpgroup_mma_wait(0, deps=(tok_qk_109,))
            mbarrier.arrive(k_105_empty.index((twill_base + twill_b - 1) % 3))
            m_i_new_l0 = gl.max(qk_109, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
            m_i_new_110 = gl.maximum(m_i_new_110_p1, m_i_new_l0)  # elementwise1_m_i_new: stage 1, partition 0 (group 0)
            alpha_l0 = m_i_new_110_p1 - m_i_new_110  # sfu0_alpha: stage 1, partition 0 (group 0)
            alpha_111 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 1, partition 0 (group 0)
            p_l0 = gl.expand_dims(m_i_new_110, 1)  # sfu1_p: stage 1, partition 0 (group 0)
            p_112 = p_l0.broadcast_to([64, 64])  # sfu1_p: stage 1, partition 0 (group 0)
            p_113 = qk_109 - p_112  # sfu1_p: stage 1, partition 0 (group 0)
            p_114 = gl.exp2(p_113)  # sfu1_p: stage 1, partition 0 (group 0)
            acc_scale_l0 = l_i_124_p1 * 0.0  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
            acc_scale_115 = acc_scale_l0 + alpha_111  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
            acc_116 = gl.expand_dims(acc_scale_115, 1)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_117 = gl.convert_layout(acc_116, L7)  # convert0_acc: stage 1, partition 0 (group 0)
            l_i_123 = gl.sum(p_114, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            acc_120 = p_114.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_121 = gl.convert_layout(acc_120, L8)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_118 = acc_117.broadcast_to([64, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_119 = acc_122_p1 * acc_118  # elementwise3_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(v_113_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_122 = warpgroup_mma(acc_121, v_113_buf.index((twill_base + twill_b - 1) % 3), acc_119, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_i_l0 = l_i_124_p1 * alpha_111  # elementwise4_l_i: stage 1, partition 0 (group 0)
            l_i_124 = l_i_l0 + l_i_123  # elementwise4_l_i: stage 1, partition 0 (group 0)
            acc_122 = warpgroup_mma_wait(1, deps=(tok_acc_122,))
            acc_122_p1 = acc_122
            l_i_124_p1 = l_i_124
            m_i_new_110_p1 = m_i_new_110
            start_n_80_p1 = start_n_80
        cols_81 = start_n_80_p1  # elementwise0_qk: stage 1, partition 0 (group 0)
        cols_84 = cols_81 + offs_m_13  # elementwise0_qk: stage 1, partition 0 (group 0)
        k_90 = gl.expand_dims(cols_84, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        causal_mask_105 = k_90.broadcast_to([64, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
        causal_mask_106 = causal_mask_105 <= causal_mask  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_107 = qk & causal_mask_106  # elementwise0_qk: stage 1, partition 0 (group 0)
        acc_122_p1 = warpgroup_mma_wait(0, deps=(acc_122_p1,))
        mbarrier.arrive(v_113_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        qk_108 = gl.where(qk_107, 0.0, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        mbarrier.wait(k_105_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_qk_109 = warpgroup_mma(q_64, k_105_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), qk_108, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        qk_109 = warpgroup_mma_wait(0, deps=(tok_qk_109,))
        mbarrier.arrive(k_105_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        m_i_new_l0 = gl.max(qk_109, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
        m_i_new_110 = gl.maximum(m_i_new_110_p1, m_i_new_l0)  # elementwise1_m_i_new: stage 1, partition 0 (group 0)
        alpha_l0 = m_i_new_110_p1 - m_i_new_110  # sfu0_alpha: stage 1, partition 0 (group 0)
        alpha_111 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 1, partition 0 (group 0)
        p_l0 = gl.expand_dims(m_i_new_110, 1)  # sfu1_p: stage 1, partition 0 (group 0)
        p_112 = p_l0.broadcast_to([64, 64])  # sfu1_p: stage 1, partition 0 (group 0)
        p_113 = qk_109 - p_112  # sfu1_p: stage 1, partition 0 (group 0)
        p_114 = gl.exp2(p_113)  # sfu1_p: stage 1, partition 0 (group 0)
        acc_scale_l0 = l_i_124_p1 * 0.0  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
        acc_scale_115 = acc_scale_l0 + alpha_111  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
        acc_116 = gl.expand_dims(acc_scale_115, 1)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_117 = gl.convert_layout(acc_116, L7)  # convert0_acc: stage 1, partition 0 (group 0)
        l_i_123 = gl.sum(p_114, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
        acc_120 = p_114.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_121 = gl.convert_layout(acc_120, L8)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_118 = acc_117.broadcast_to([64, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_119 = acc_122_p1 * acc_118  # elementwise3_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(v_113_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_acc_122 = warpgroup_mma(acc_121, v_113_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), acc_119, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        l_i_l0 = l_i_124_p1 * alpha_111  # elementwise4_l_i: stage 1, partition 0 (group 0)
        l_i_124 = l_i_l0 + l_i_123  # elementwise4_l_i: stage 1, partition 0 (group 0)
        acc_122 = warpgroup_mma_wait(1, deps=(tok_acc_122,))
        acc_122_p1 = acc_122
        l_i_124_p1 = l_i_124
        m_i_new_110_p1 = m_i_new_110
        start_n_80_p1 = start_n_80
        acc_122_p1 = warpgroup_mma_wait(0, deps=(acc_122_p1,))
        k_105_buf._keep_alive()
        v_113_buf._keep_alive()
        mbarrier.arrive(v_113_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
    else:
        m_i_new_110_p1 = gl.full([64], float("-inf"), gl.float32, layout=L1)
        l_i_124_p1 = gl.full([64], 0.0, gl.float32, layout=L1)
        acc_122_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
    twill_base += twill_n
    qk_72 = m_mask_59.broadcast_to([64, 64])
    q_73 = gl.convert_layout(q_57, L6)
    twill_n = (num_cols_52 - 0 + 64 - 1) // 64
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        m_i_new_119 = m_i_new_110_p1
        l_i_133 = l_i_124_p1
        acc_131 = acc_122_p1
        n_mask_87 = (0 + (0 - 0) * 64) + offs_m_13  # elementwise0_qk: stage 0, partition 0 (group 0)
        n_mask_90 = n_mask_87 < num_cols_52  # elementwise0_qk: stage 0, partition 0 (group 0)
        k_99 = gl.expand_dims(n_mask_90, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk_115 = k_99.broadcast_to([64, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk_116 = qk_72 & qk_115  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk_117 = gl.where(qk_116, 0.0, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
        mbarrier.wait(k_105_ready.index((twill_base + 0 - 0) % 3), ((twill_base + 0 - 0) // 3) & 1)
        fence_async_shared()
        tok_qk_118 = warpgroup_mma(q_73, k_105_buf.index((twill_base + 0 - 0) % 3), qk_117, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        qk_118 = warpgroup_mma_wait(1, deps=(tok_qk_118,))
        acc_131_p1 = acc_131
        l_i_133_p1 = l_i_133
        m_i_new_119_p1 = m_i_new_119
        qk_118_p1 = qk_118
        for twill_b in range(1, twill_n):
            n_mask_84 = (0 + (twill_b - 0) * 64)  # elementwise0_qk: stage 0, partition 0 (group 0)
            n_mask_87 = n_mask_84 + offs_m_13  # elementwise0_qk: stage 0, partition 0 (group 0)
            n_mask_90 = n_mask_87 < num_cols_52  # elementwise0_qk: stage 0, partition 0 (group 0)
            k_99 = gl.expand_dims(n_mask_90, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_115 = k_99.broadcast_to([64, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_116 = qk_72 & qk_115  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_118_p1 = warpgroup_mma_wait(0, deps=(qk_118_p1,))
            mbarrier.arrive(k_105_empty.index((twill_base + twill_b - 1 - 0) % 3))
            qk_117 = gl.where(qk_116, 0.0, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
            m_i_new = gl.max(qk_118_p1, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
            m_i_new_119 = gl.maximum(m_i_new_119_p1, m_i_new)  # elementwise1_m_i_new: stage 1, partition 0 (group 0)
            alpha = m_i_new_119_p1 - m_i_new_119  # sfu0_alpha: stage 1, partition 0 (group 0)
            alpha_120 = gl.exp2(alpha)  # sfu0_alpha: stage 1, partition 0 (group 0)
            p = gl.expand_dims(m_i_new_119, 1)  # sfu1_p: stage 1, partition 0 (group 0)
            p_121 = p.broadcast_to([64, 64])  # sfu1_p: stage 1, partition 0 (group 0)
            p_122 = qk_118_p1 - p_121  # sfu1_p: stage 1, partition 0 (group 0)
            p_123 = gl.exp2(p_122)  # sfu1_p: stage 1, partition 0 (group 0)
            acc_scale = l_i_133_p1 * 0.0  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
            acc_scale_124 = acc_scale + alpha_120  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
            acc_125 = gl.expand_dims(acc_scale_124, 1)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_126 = gl.convert_layout(acc_125, L7)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_129 = p_123.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_130 = gl.convert_layout(acc_129, L8)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_127 = acc_126.broadcast_to([64, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_128 = acc_131_p1 * acc_127  # elementwise3_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(v_113_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_131 = warpgroup_mma(acc_130, v_113_buf.index((twill_base + twill_b - 1) % 3), acc_128, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_i_132 = gl.sum(p_123, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            l_i = l_i_133_p1 * alpha_120  # elementwise4_l_i: stage 1, partition 0 (group 0)
            l_i_133 = l_i + l_i_132  # elementwise4_l_i: stage 1, partition 0 (group 0)
            mbarrier.wait(k_105_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            tok_qk_118 = warpgroup_mma(q_73, k_105_buf.index((twill_base + twill_b - 0) % 3), qk_117, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            acc_131 = warpgroup_mma_wait(1, deps=(tok_acc_131,))
            mbarrier.arrive(v_113_empty.index((twill_base + twill_b - 1) % 3))
            qk_118 = warpgroup_mma_wait(1, deps=(tok_qk_118,))
            acc_131_p1 = acc_131
            l_i_133_p1 = l_i_133
            m_i_new_119_p1 = m_i_new_119
            qk_118_p1 = qk_118
        qk_118_p1 = warpgroup_mma_wait(0, deps=(qk_118_p1,))
        mbarrier.arrive(k_105_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 0) % 3))
        m_i_new = gl.max(qk_118_p1, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
        m_i_new_119 = gl.maximum(m_i_new_119_p1, m_i_new)  # elementwise1_m_i_new: stage 1, partition 0 (group 0)
        alpha = m_i_new_119_p1 - m_i_new_119  # sfu0_alpha: stage 1, partition 0 (group 0)
        alpha_120 = gl.exp2(alpha)  # sfu0_alpha: stage 1, partition 0 (group 0)
        p = gl.expand_dims(m_i_new_119, 1)  # sfu1_p: stage 1, partition 0 (group 0)
        p_121 = p.broadcast_to([64, 64])  # sfu1_p: stage 1, partition 0 (group 0)
        p_122 = qk_118_p1 - p_121  # sfu1_p: stage 1, partition 0 (group 0)
        p_123 = gl.exp2(p_122)  # sfu1_p: stage 1, partition 0 (group 0)
        acc_scale = l_i_133_p1 * 0.0  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
        acc_scale_124 = acc_scale + alpha_120  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
        acc_125 = gl.expand_dims(acc_scale_124, 1)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_126 = gl.convert_layout(acc_125, L7)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_129 = p_123.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_130 = gl.convert_layout(acc_129, L8)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_127 = acc_126.broadcast_to([64, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_128 = acc_131_p1 * acc_127  # elementwise3_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(v_113_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_acc_131 = warpgroup_mma(acc_130, v_113_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), acc_128, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        l_i_132 = gl.sum(p_123, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
        l_i = l_i_133_p1 * alpha_120  # elementwise4_l_i: stage 1, partition 0 (group 0)
        l_i_133 = l_i + l_i_132  # elementwise4_l_i: stage 1, partition 0 (group 0)
        acc_131 = warpgroup_mma_wait(0, deps=(tok_acc_131,))
        mbarrier.arrive(v_113_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        acc_131_p1 = acc_131
        l_i_133_p1 = l_i_133
        m_i_new_119_p1 = m_i_new_119
        qk_118_p1 = qk_118
        k_105_buf._keep_alive()
        v_113_buf._keep_alive()
    else:
        m_i_new_119_p1 = m_i_new_110_p1
        l_i_133_p1 = l_i_124_p1
        acc_131_p1 = acc_122_p1
    acc_75 = gl.expand_dims(l_i_133_p1, 1)
    acc_76 = gl.convert_layout(acc_75, L7)
    acc_77 = acc_76.broadcast_to([64, 128])
    acc_78 = acc_131_p1 / acc_77
    v2 = acc_78.to(gl.float16)
    v3 = m_mask_60.broadcast_to([64, 128])
    v4 = gl.convert_layout(v2, L9)
    gl.store(o_ptrs_45, v4, mask=v3)

@gluon.jit
def producer_1(Q, K, V, seqlens, sm_scale, block_count, block_offset, column_count, column_index, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, N_CTX, NUM_ROWS, NNZ_S, NNZ_V, k_105_buf, v_113_buf, k_105_ready, k_105_empty, v_113_ready, v_113_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    start_m = gl.program_id(0)
    off_hz = gl.program_id(1)
    seqlen = off_hz // H
    seqlen_9 = seqlens + seqlen
    seqlen_10 = gl.load(seqlen_9)
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_12 = gl.arange(0, 64, layout=L2)
    qo_offset_18 = off_hz % H
    kv_offset = seqlen * stride_kz
    kv_offset_21 = qo_offset_18 * stride_kh
    kv_offset_22 = kv_offset + kv_offset_21
    q_ptrs_29 = gl.arange(0, 128, layout=L4)
    q_ptrs_30 = gl.expand_dims(q_ptrs_29, 0)
    k_ptrs = K + kv_offset_22
    k_ptrs_34 = gl.arange(0, 128, layout=L5)
    k_ptrs_35 = gl.expand_dims(k_ptrs_34, 1)
    k_ptrs_37 = k_ptrs + k_ptrs_35
    v_ptrs = V + kv_offset_22
    v_ptrs_39 = v_ptrs + q_ptrs_30
    num_blks = off_hz * NUM_ROWS
    num_blks_46 = block_count + num_blks
    num_blks_47 = num_blks_46 + start_m
    num_blks_48 = gl.load(num_blks_47)
    blks_ptr = num_blks + start_m
    blks_ptr_49 = blks_ptr * NNZ_S
    blks_ptr_50 = block_offset + blks_ptr_49
    num_cols = column_count + num_blks
    num_cols_51 = num_cols + start_m
    num_cols_52 = gl.load(num_cols_51)
    cols_ptr = blks_ptr * NNZ_V
    cols_ptr_53 = column_index + cols_ptr
    k_62 = k_ptrs_37.broadcast_to([128, 64])
    v_63 = v_ptrs_39.broadcast_to([64, 128])
    for acc_79_l0 in range(0, num_blks_48, 1):
        twill_k = twill_base + (acc_79_l0 - 0) // 1
        start_n = blks_ptr_50 + acc_79_l0
        start_n_80 = gl.load(start_n)
        cols_83 = start_n_80 + offs_m_12
        cols_85 = start_n_80 + offs_m
        n_mask_86_l0 = cols_83 < seqlen_10
        n_mask_87_l0 = cols_85 < seqlen_10
        k_88 = gl.expand_dims(n_mask_86_l0, 0)
        k_89 = gl.expand_dims(cols_83, 0)
        k_91 = k_89 * stride_kn
        k_92 = k_91.broadcast_to([128, 64])
        k_93 = k_62 + k_92
        k_94 = k_88.broadcast_to([128, 64])
        v_97 = gl.expand_dims(n_mask_87_l0, 1)
        v_98 = gl.expand_dims(cols_85, 1)
        v_99 = v_98 * stride_vn
        v_100 = v_99.broadcast_to([64, 128])
        v_101 = v_63 + v_100
        v_102 = v_97.broadcast_to([64, 128])
        mbarrier.wait(k_105_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(k_105_buf.index(twill_k % 3), k_93, mask=k_94)  # load1_k: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(k_105_ready.index(twill_k % 3), increment_count=False)
        else:
            k_105_buf.index(twill_k % 3).store(gl.load(k_93, mask=k_94, other=0.0))  # load1_k: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(k_105_ready.index(twill_k % 3), count=128)
        mbarrier.wait(v_113_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(v_113_buf.index(twill_k % 3), v_101, mask=v_102)  # load2_v: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(v_113_ready.index(twill_k % 3), increment_count=False)
        else:
            v_113_buf.index(twill_k % 3).store(gl.load(v_101, mask=v_102, other=0.0))  # load2_v: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(v_113_ready.index(twill_k % 3), count=128)
    k_69 = k_ptrs_37.broadcast_to([128, 64])
    v_71 = v_ptrs_39.broadcast_to([64, 128])
    twill_base += (num_blks_48 - 0 + 1 - 1) // 1
    for acc_79 in range(0, num_cols_52, 64):
        twill_k = twill_base + (acc_79 - 0) // 64
        n_mask_86 = acc_79 + offs_m_12
        n_mask_88 = acc_79 + offs_m
        n_mask_89 = n_mask_86 < num_cols_52
        n_mask_91 = n_mask_88 < num_cols_52
        cols = cols_ptr_53 + acc_79
        cols_94 = cols + offs_m_12
        cols_95 = cols + offs_m
        cols_96 = gl.load(cols_94, mask=n_mask_89, other=0)
        cols_97 = gl.load(cols_95, mask=n_mask_91, other=0)
        k_98 = gl.expand_dims(n_mask_89, 0)
        k_100 = gl.expand_dims(cols_96, 0)
        k_101 = k_100 * stride_kn
        k_102 = k_101.broadcast_to([128, 64])
        k_103 = k_69 + k_102
        k_104 = k_98.broadcast_to([128, 64])
        v_107 = gl.expand_dims(n_mask_91, 1)
        v_108 = gl.expand_dims(cols_97, 1)
        v_109 = v_108 * stride_vn
        v_110 = v_109.broadcast_to([64, 128])
        v_111 = v_71 + v_110
        v_112 = v_107.broadcast_to([64, 128])
        mbarrier.wait(k_105_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(k_105_buf.index(twill_k % 3), k_103, mask=k_104)  # load2_k: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(k_105_ready.index(twill_k % 3), increment_count=False)
        else:
            k_105_buf.index(twill_k % 3).store(gl.load(k_103, mask=k_104, other=0.0))  # load2_k: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(k_105_ready.index(twill_k % 3), count=128)
        mbarrier.wait(v_113_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(v_113_buf.index(twill_k % 3), v_111, mask=v_112)  # load3_v: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(v_113_ready.index(twill_k % 3), increment_count=False)
        else:
            v_113_buf.index(twill_k % 3).store(gl.load(v_111, mask=v_112, other=0.0))  # load3_v: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(v_113_ready.index(twill_k % 3), count=128)

@gluon.jit
def twill_kernel(Q, K, V, seqlens, sm_scale, block_count, block_offset, column_count, column_index, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, N_CTX, NUM_ROWS, NNZ_S, NNZ_V, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_hz = gl.program_id(1)
    seqlen = off_hz // H
    seqlen_9 = seqlens + seqlen
    seqlen_10 = gl.load(seqlen_9)
    v0 = start_m * 64
    v1 = v0 >= seqlen_10
    if v1:
        return
    k_105_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_113_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_105_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(k_105_ready.index(i), count=128)
    k_105_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(k_105_empty.index(i), count=1)
    v_113_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_113_ready.index(i), count=128)
    v_113_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_113_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, seqlens, sm_scale, block_count, block_offset, column_count, column_index, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, N_CTX, NUM_ROWS, NNZ_S, NNZ_V, k_105_buf, v_113_buf, k_105_ready, k_105_empty, v_113_ready, v_113_empty, TWILL_COPY)),
        (producer_1, (Q, K, V, seqlens, sm_scale, block_count, block_offset, column_count, column_index, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, N_CTX, NUM_ROWS, NNZ_S, NNZ_V, k_105_buf, v_113_buf, k_105_ready, k_105_empty, v_113_ready, v_113_empty, TWILL_COPY)),
    ], [4], [88])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L6_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L7_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(Q, K, V, seqlens, sm_scale, block_count, block_offset, column_count, column_index, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, N_CTX, NUM_ROWS, NNZ_S, NNZ_V, TWILL_COPY: gl.constexpr):
    twill_base = 0
    start_m = gl.program_id(0)
    off_hz = gl.program_id(1)
    seqlen = off_hz // H
    seqlen_9 = seqlens + seqlen
    seqlen_10 = gl.load(seqlen_9)
    v0 = start_m * 64
    offs_m = gl.arange(0, 64, layout=L0_short)
    offs_m_11 = gl.arange(0, 64, layout=L1_short)
    offs_m_12 = gl.arange(0, 64, layout=L2_short)
    offs_m_13 = gl.arange(0, 64, layout=L3_short)
    offs_m_16 = v0 + offs_m
    offs_m_17 = v0 + offs_m_11
    qo_offset = seqlen * stride_qz
    qo_offset_18 = off_hz % H
    qo_offset_19 = qo_offset_18 * stride_qh
    qo_offset_20 = qo_offset + qo_offset_19
    kv_offset = seqlen * stride_kz
    kv_offset_21 = qo_offset_18 * stride_kh
    kv_offset_22 = kv_offset + kv_offset_21
    q_ptrs = Q + qo_offset_20
    q_ptrs_23 = gl.expand_dims(offs_m_16, 1)
    q_ptrs_24 = gl.expand_dims(offs_m_17, 1)
    q_ptrs_26 = q_ptrs_23 * stride_qm
    q_ptrs_28 = q_ptrs + q_ptrs_26
    q_ptrs_29 = gl.arange(0, 128, layout=L4_short)
    q_ptrs_30 = gl.expand_dims(q_ptrs_29, 0)
    q_ptrs_31 = q_ptrs_28.broadcast_to([64, 128])
    q_ptrs_32 = q_ptrs_30.broadcast_to([64, 128])
    q_ptrs_33 = q_ptrs_31 + q_ptrs_32
    k_ptrs = K + kv_offset_22
    k_ptrs_34 = gl.arange(0, 128, layout=L5_short)
    k_ptrs_35 = gl.expand_dims(k_ptrs_34, 1)
    k_ptrs_37 = k_ptrs + k_ptrs_35
    v_ptrs = V + kv_offset_22
    v_ptrs_39 = v_ptrs + q_ptrs_30
    o_ptrs = Out + qo_offset_20
    o_ptrs_41 = q_ptrs_23 * stride_om
    o_ptrs_43 = o_ptrs + o_ptrs_41
    o_ptrs_44 = o_ptrs_43.broadcast_to([64, 128])
    o_ptrs_45 = o_ptrs_44 + q_ptrs_32
    num_blks = off_hz * NUM_ROWS
    num_blks_46 = block_count + num_blks
    num_blks_47 = num_blks_46 + start_m
    num_blks_48 = gl.load(num_blks_47)
    blks_ptr = num_blks + start_m
    blks_ptr_49 = blks_ptr * NNZ_S
    blks_ptr_50 = block_offset + blks_ptr_49
    num_cols = column_count + num_blks
    num_cols_51 = num_cols + start_m
    num_cols_52 = gl.load(num_cols_51)
    cols_ptr = blks_ptr * NNZ_V
    cols_ptr_53 = column_index + cols_ptr
    qk_scale = sm_scale * 1.44269502
    q = gl.load(q_ptrs_33)
    q_54 = q.to(gl.float32)
    q_56 = q_54 * qk_scale
    q_57 = q_56.to(gl.float16)
    m_mask_59 = q_ptrs_24 < seqlen_10
    m_mask_60 = q_ptrs_23 < seqlen_10
    k_62 = k_ptrs_37.broadcast_to([128, 64])
    v_63 = v_ptrs_39.broadcast_to([64, 128])
    causal_mask = q_ptrs_24.broadcast_to([64, 64])
    qk = m_mask_59.broadcast_to([64, 64])
    q_64 = gl.convert_layout(q_57, L6_short)
    twill_n = (num_blks_48 - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        k_96_ring = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        v_104_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        m_i_new_110 = gl.full([64], float("-inf"), gl.float32, layout=L1_short)
        l_i_124 = gl.full([64], 0.0, gl.float32, layout=L1_short)
        acc_122 = gl.full([64, 128], 0.0, gl.float32, layout=L7_short)
        start_n = blks_ptr_50 + (0 + (0 - 0) * 1)  # load0_start_n: stage 0, partition 0 (group 0)
        start_n_80 = gl.load(start_n)  # load0_start_n: stage 0, partition 0 (group 0)
        cols_l0 = start_n_80  # load1_k: stage 0, partition 0 (group 0)
        cols_83 = cols_l0 + offs_m_12  # load1_k: stage 0, partition 0 (group 0)
        k_89 = gl.expand_dims(cols_83, 0)  # load1_k: stage 0, partition 0 (group 0)
        n_mask_86_l0 = cols_83 < seqlen_10  # load1_k: stage 0, partition 0 (group 0)
        k_91 = k_89 * stride_kn  # load1_k: stage 0, partition 0 (group 0)
        k_88 = gl.expand_dims(n_mask_86_l0, 0)  # load1_k: stage 0, partition 0 (group 0)
        k_92 = k_91.broadcast_to([128, 64])  # load1_k: stage 0, partition 0 (group 0)
        k_93 = k_62 + k_92  # load1_k: stage 0, partition 0 (group 0)
        k_94 = k_88.broadcast_to([128, 64])  # load1_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_96_ring.index((twill_base + 0 - 0) % 3), k_93, mask=k_94)  # load1_k: stage 0, partition 0 (group 0)
        else:  # load1_k: stage 0, partition 0 (group 0)
            k_96_ring.index((twill_base + 0 - 0) % 3).store(gl.load(k_93, mask=k_94, other=0.0))  # load1_k: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_k: stage 0, partition 0 (group 0)
        cols_82 = start_n_80  # load2_v: stage 0, partition 0 (group 0)
        cols_85 = cols_82 + offs_m  # load2_v: stage 0, partition 0 (group 0)
        v_98 = gl.expand_dims(cols_85, 1)  # load2_v: stage 0, partition 0 (group 0)
        n_mask_87_l0 = cols_85 < seqlen_10  # load2_v: stage 0, partition 0 (group 0)
        v_99 = v_98 * stride_vn  # load2_v: stage 0, partition 0 (group 0)
        v_97 = gl.expand_dims(n_mask_87_l0, 1)  # load2_v: stage 0, partition 0 (group 0)
        v_100 = v_99.broadcast_to([64, 128])  # load2_v: stage 0, partition 0 (group 0)
        v_101 = v_63 + v_100  # load2_v: stage 0, partition 0 (group 0)
        v_102 = v_97.broadcast_to([64, 128])  # load2_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_104_ring.index((twill_base + 0 - 0) % 3), v_101, mask=v_102)  # load2_v: stage 0, partition 0 (group 0)
        else:  # load2_v: stage 0, partition 0 (group 0)
            v_104_ring.index((twill_base + 0 - 0) % 3).store(gl.load(v_101, mask=v_102, other=0.0))  # load2_v: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_v: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        acc_122_p1 = acc_122
        l_i_124_p1 = l_i_124
        m_i_new_110_p1 = m_i_new_110
        start_n_80_p1 = start_n_80
        for twill_b in range(1, twill_n):
            start_n = blks_ptr_50 + (0 + (twill_b - 0) * 1)  # load0_start_n: stage 0, partition 0 (group 0)
            start_n_80 = gl.load(start_n)  # load0_start_n: stage 0, partition 0 (group 0)
            cols_81 = start_n_80_p1  # elementwise0_qk: stage 1, partition 0 (group 0)
            cols_84 = cols_81 + offs_m_13  # elementwise0_qk: stage 1, partition 0 (group 0)
            k_90 = gl.expand_dims(cols_84, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
            causal_mask_105 = k_90.broadcast_to([64, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
            causal_mask_106 = causal_mask_105 <= causal_mask  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_107 = qk & causal_mask_106  # elementwise0_qk: stage 1, partition 0 (group 0)
            acc_122_p1 = warpgroup_mma_wait(0, deps=(acc_122_p1,))
            qk_108 = gl.where(qk_107, 0.0, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
            cols_l0 = start_n_80  # load1_k: stage 0, partition 0 (group 0)
            cols_83 = cols_l0 + offs_m_12  # load1_k: stage 0, partition 0 (group 0)
            k_89 = gl.expand_dims(cols_83, 0)  # load1_k: stage 0, partition 0 (group 0)
            n_mask_86_l0 = cols_83 < seqlen_10  # load1_k: stage 0, partition 0 (group 0)
            k_91 = k_89 * stride_kn  # load1_k: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            k_96 = k_96_ring.index((twill_base + twill_b - 1) % 3)  # load1_k: stage 1, partition 0 (group 0)
            k_88 = gl.expand_dims(n_mask_86_l0, 0)  # load1_k: stage 0, partition 0 (group 0)
            k_92 = k_91.broadcast_to([128, 64])  # load1_k: stage 0, partition 0 (group 0)
            k_93 = k_62 + k_92  # load1_k: stage 0, partition 0 (group 0)
            k_94 = k_88.broadcast_to([128, 64])  # load1_k: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_k: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_96_ring.index((twill_base + twill_b - 0) % 3), k_93, mask=k_94)  # load1_k: stage 0, partition 0 (group 0)
            else:  # load1_k: stage 0, partition 0 (group 0)
                k_96_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(k_93, mask=k_94, other=0.0))  # load1_k: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_k: stage 0, partition 0 (group 0)
            tok_qk_109 = warpgroup_mma(q_64, k_96, qk_108, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            qk_109 = warpgroup_mma_wait(0, deps=(tok_qk_109,))
            m_i_new_l0 = gl.max(qk_109, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
            m_i_new_110 = gl.maximum(m_i_new_110_p1, m_i_new_l0)  # elementwise1_m_i_new: stage 1, partition 0 (group 0)
            alpha_l0 = m_i_new_110_p1 - m_i_new_110  # sfu0_alpha: stage 1, partition 0 (group 0)
            alpha_111 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 1, partition 0 (group 0)
            p_l0 = gl.expand_dims(m_i_new_110, 1)  # sfu1_p: stage 1, partition 0 (group 0)
            p_112 = p_l0.broadcast_to([64, 64])  # sfu1_p: stage 1, partition 0 (group 0)
            p_113 = qk_109 - p_112  # sfu1_p: stage 1, partition 0 (group 0)
            p_114 = gl.exp2(p_113)  # sfu1_p: stage 1, partition 0 (group 0)
            acc_scale_l0 = l_i_124_p1 * 0.0  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
            acc_scale_115 = acc_scale_l0 + alpha_111  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
            acc_116 = gl.expand_dims(acc_scale_115, 1)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_117 = gl.convert_layout(acc_116, L7_short)  # convert0_acc: stage 1, partition 0 (group 0)
            l_i_123 = gl.sum(p_114, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            acc_120 = p_114.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_121 = gl.convert_layout(acc_120, L8_short)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_118 = acc_117.broadcast_to([64, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_119 = acc_122_p1 * acc_118  # elementwise3_acc: stage 1, partition 0 (group 0)
            cols_82 = start_n_80  # load2_v: stage 0, partition 0 (group 0)
            cols_85 = cols_82 + offs_m  # load2_v: stage 0, partition 0 (group 0)
            v_98 = gl.expand_dims(cols_85, 1)  # load2_v: stage 0, partition 0 (group 0)
            n_mask_87_l0 = cols_85 < seqlen_10  # load2_v: stage 0, partition 0 (group 0)
            v_99 = v_98 * stride_vn  # load2_v: stage 0, partition 0 (group 0)
            v_104 = v_104_ring.index((twill_base + twill_b - 1) % 3)  # load2_v: stage 1, partition 0 (group 0)
            v_97 = gl.expand_dims(n_mask_87_l0, 1)  # load2_v: stage 0, partition 0 (group 0)
            v_100 = v_99.broadcast_to([64, 128])  # load2_v: stage 0, partition 0 (group 0)
            v_101 = v_63 + v_100  # load2_v: stage 0, partition 0 (group 0)
            v_102 = v_97.broadcast_to([64, 128])  # load2_v: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_v: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(v_104_ring.index((twill_base + twill_b - 0) % 3), v_101, mask=v_102)  # load2_v: stage 0, partition 0 (group 0)
            else:  # load2_v: stage 0, partition 0 (group 0)
                v_104_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(v_101, mask=v_102, other=0.0))  # load2_v: stage 0, partition 0 (group 0)
                fence_async_shared()  # load2_v: stage 0, partition 0 (group 0)
            tok_acc_122 = warpgroup_mma(acc_121, v_104, acc_119, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_i_l0 = l_i_124_p1 * alpha_111  # elementwise4_l_i: stage 1, partition 0 (group 0)
            l_i_124 = l_i_l0 + l_i_123  # elementwise4_l_i: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_122 = warpgroup_mma_wait(1, deps=(tok_acc_122,))
            acc_122_p1 = acc_122
            l_i_124_p1 = l_i_124
            m_i_new_110_p1 = m_i_new_110
            start_n_80_p1 = start_n_80
        cols_81 = start_n_80_p1  # elementwise0_qk: stage 1, partition 0 (group 0)
        cols_84 = cols_81 + offs_m_13  # elementwise0_qk: stage 1, partition 0 (group 0)
        k_90 = gl.expand_dims(cols_84, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        causal_mask_105 = k_90.broadcast_to([64, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
        causal_mask_106 = causal_mask_105 <= causal_mask  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_107 = qk & causal_mask_106  # elementwise0_qk: stage 1, partition 0 (group 0)
        acc_122_p1 = warpgroup_mma_wait(0, deps=(acc_122_p1,))
        qk_108 = gl.where(qk_107, 0.0, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_96 = k_96_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load1_k: stage 1, partition 0 (group 0)
        tok_qk_109 = warpgroup_mma(q_64, k_96, qk_108, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        qk_109 = warpgroup_mma_wait(0, deps=(tok_qk_109,))
        m_i_new_l0 = gl.max(qk_109, axis=1)  # reduce0_m_i_new: stage 1, partition 0 (group 0)
        m_i_new_110 = gl.maximum(m_i_new_110_p1, m_i_new_l0)  # elementwise1_m_i_new: stage 1, partition 0 (group 0)
        alpha_l0 = m_i_new_110_p1 - m_i_new_110  # sfu0_alpha: stage 1, partition 0 (group 0)
        alpha_111 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 1, partition 0 (group 0)
        p_l0 = gl.expand_dims(m_i_new_110, 1)  # sfu1_p: stage 1, partition 0 (group 0)
        p_112 = p_l0.broadcast_to([64, 64])  # sfu1_p: stage 1, partition 0 (group 0)
        p_113 = qk_109 - p_112  # sfu1_p: stage 1, partition 0 (group 0)
        p_114 = gl.exp2(p_113)  # sfu1_p: stage 1, partition 0 (group 0)
        acc_scale_l0 = l_i_124_p1 * 0.0  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
        acc_scale_115 = acc_scale_l0 + alpha_111  # elementwise2_acc_scale: stage 1, partition 0 (group 0)
        acc_116 = gl.expand_dims(acc_scale_115, 1)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_117 = gl.convert_layout(acc_116, L7_short)  # convert0_acc: stage 1, partition 0 (group 0)
        l_i_123 = gl.sum(p_114, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
        acc_120 = p_114.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_121 = gl.convert_layout(acc_120, L8_short)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_118 = acc_117.broadcast_to([64, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_119 = acc_122_p1 * acc_118  # elementwise3_acc: stage 1, partition 0 (group 0)
        v_104 = v_104_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load2_v: stage 1, partition 0 (group 0)
        tok_acc_122 = warpgroup_mma(acc_121, v_104, acc_119, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        l_i_l0 = l_i_124_p1 * alpha_111  # elementwise4_l_i: stage 1, partition 0 (group 0)
        l_i_124 = l_i_l0 + l_i_123  # elementwise4_l_i: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_122 = warpgroup_mma_wait(1, deps=(tok_acc_122,))
        acc_122_p1 = acc_122
        l_i_124_p1 = l_i_124
        m_i_new_110_p1 = m_i_new_110
        start_n_80_p1 = start_n_80
        acc_122_p1 = warpgroup_mma_wait(0, deps=(acc_122_p1,))
        k_96_ring._keep_alive()
        v_104_ring._keep_alive()
    else:
        m_i_new_110_p1 = gl.full([64], float("-inf"), gl.float32, layout=L1_short)
        l_i_124_p1 = gl.full([64], 0.0, gl.float32, layout=L1_short)
        acc_122_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L7_short)
    twill_base += twill_n
    k_69 = k_ptrs_37.broadcast_to([128, 64])
    v_71 = v_ptrs_39.broadcast_to([64, 128])
    qk_72 = m_mask_59.broadcast_to([64, 64])
    q_73 = gl.convert_layout(q_57, L6_short)
    twill_n = (num_cols_52 - 0 + 64 - 1) // 64
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        v_114_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        k_106_ring = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        cols = cols_ptr_53 + (0 + (0 - 0) * 64)  # load0_cols: stage 0, partition 0 (group 0)
        n_mask_86 = (0 + (0 - 0) * 64) + offs_m_12  # load0_cols: stage 0, partition 0 (group 0)
        cols_92 = cols  # load0_cols: stage 0, partition 0 (group 0)
        n_mask_89 = n_mask_86 < num_cols_52  # load0_cols: stage 0, partition 0 (group 0)
        cols_94 = cols_92 + offs_m_12  # load0_cols: stage 0, partition 0 (group 0)
        cols_96 = gl.load(cols_94, mask=n_mask_89, other=0)  # load0_cols: stage 0, partition 0 (group 0)
        k_100 = gl.expand_dims(cols_96, 0)  # load2_k: stage 0, partition 0 (group 0)
        k_101 = k_100 * stride_kn  # load2_k: stage 0, partition 0 (group 0)
        k_98 = gl.expand_dims(n_mask_89, 0)  # load2_k: stage 0, partition 0 (group 0)
        k_102 = k_101.broadcast_to([128, 64])  # load2_k: stage 0, partition 0 (group 0)
        k_103 = k_69 + k_102  # load2_k: stage 0, partition 0 (group 0)
        k_104 = k_98.broadcast_to([128, 64])  # load2_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_106_ring.index((twill_base + 0 - 0) % 3), k_103, mask=k_104)  # load2_k: stage 0, partition 0 (group 0)
        else:  # load2_k: stage 0, partition 0 (group 0)
            k_106_ring.index((twill_base + 0 - 0) % 3).store(gl.load(k_103, mask=k_104, other=0.0))  # load2_k: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_k: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        cols_p1 = cols
        m_i_new_119 = m_i_new_110_p1
        l_i_133 = l_i_124_p1
        acc_131 = acc_122_p1
        n_mask_87 = (0 + (1 - 1) * 64) + offs_m_13  # elementwise0_qk: stage 1, partition 0 (group 0)
        n_mask_90 = n_mask_87 < num_cols_52  # elementwise0_qk: stage 1, partition 0 (group 0)
        k_99 = gl.expand_dims(n_mask_90, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_115 = k_99.broadcast_to([64, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_116 = qk_72 & qk_115  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_117 = gl.where(qk_116, 0.0, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        n_mask_88 = (0 + (1 - 1) * 64) + offs_m  # load1_cols: stage 1, partition 0 (group 0)
        cols_93 = cols_p1  # load1_cols: stage 1, partition 0 (group 0)
        n_mask_91 = n_mask_88 < num_cols_52  # load1_cols: stage 1, partition 0 (group 0)
        cols_95 = cols_93 + offs_m  # load1_cols: stage 1, partition 0 (group 0)
        cols_97 = gl.load(cols_95, mask=n_mask_91, other=0)  # load1_cols: stage 1, partition 0 (group 0)
        v_108 = gl.expand_dims(cols_97, 1)  # load3_v: stage 1, partition 0 (group 0)
        v_109 = v_108 * stride_vn  # load3_v: stage 1, partition 0 (group 0)
        v_107 = gl.expand_dims(n_mask_91, 1)  # load3_v: stage 1, partition 0 (group 0)
        v_110 = v_109.broadcast_to([64, 128])  # load3_v: stage 1, partition 0 (group 0)
        v_111 = v_71 + v_110  # load3_v: stage 1, partition 0 (group 0)
        v_112 = v_107.broadcast_to([64, 128])  # load3_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load3_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_114_ring.index((twill_base + 1 - 1) % 3), v_111, mask=v_112)  # load3_v: stage 1, partition 0 (group 0)
        else:  # load3_v: stage 1, partition 0 (group 0)
            v_114_ring.index((twill_base + 1 - 1) % 3).store(gl.load(v_111, mask=v_112, other=0.0))  # load3_v: stage 1, partition 0 (group 0)
            fence_async_shared()  # load3_v: stage 1, partition 0 (group 0)
        cols = cols_ptr_53 + (0 + (1 - 0) * 64)  # load0_cols: stage 0, partition 0 (group 0)
        n_mask_86 = (0 + (1 - 0) * 64) + offs_m_12  # load0_cols: stage 0, partition 0 (group 0)
        cols_92 = cols  # load0_cols: stage 0, partition 0 (group 0)
        n_mask_89 = n_mask_86 < num_cols_52  # load0_cols: stage 0, partition 0 (group 0)
        cols_94 = cols_92 + offs_m_12  # load0_cols: stage 0, partition 0 (group 0)
        cols_96 = gl.load(cols_94, mask=n_mask_89, other=0)  # load0_cols: stage 0, partition 0 (group 0)
        k_100 = gl.expand_dims(cols_96, 0)  # load2_k: stage 0, partition 0 (group 0)
        k_101 = k_100 * stride_kn  # load2_k: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_106 = k_106_ring.index((twill_base + 1 - 1) % 3)  # load2_k: stage 1, partition 0 (group 0)
        k_98 = gl.expand_dims(n_mask_89, 0)  # load2_k: stage 0, partition 0 (group 0)
        k_102 = k_101.broadcast_to([128, 64])  # load2_k: stage 0, partition 0 (group 0)
        k_103 = k_69 + k_102  # load2_k: stage 0, partition 0 (group 0)
        k_104 = k_98.broadcast_to([128, 64])  # load2_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_106_ring.index((twill_base + 1 - 0) % 3), k_103, mask=k_104)  # load2_k: stage 0, partition 0 (group 0)
        else:  # load2_k: stage 0, partition 0 (group 0)
            k_106_ring.index((twill_base + 1 - 0) % 3).store(gl.load(k_103, mask=k_104, other=0.0))  # load2_k: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_k: stage 0, partition 0 (group 0)
        tok_qk_118 = warpgroup_mma(q_73, k_106, qk_117, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        qk_118 = warpgroup_mma_wait(1, deps=(tok_qk_118,))
        acc_131_p1 = acc_131
        cols_p1 = cols
        l_i_133_p1 = l_i_133
        m_i_new_119_p1 = m_i_new_119
        qk_118_p1 = qk_118
        for twill_b in range(2, twill_n):
            n_mask_84 = (0 + (twill_b - 1) * 64)  # elementwise0_qk: stage 1, partition 0 (group 0)
            n_mask_87 = n_mask_84 + offs_m_13  # elementwise0_qk: stage 1, partition 0 (group 0)
            n_mask_90 = n_mask_87 < num_cols_52  # elementwise0_qk: stage 1, partition 0 (group 0)
            k_99 = gl.expand_dims(n_mask_90, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_115 = k_99.broadcast_to([64, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_116 = qk_72 & qk_115  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_118_p1 = warpgroup_mma_wait(0, deps=(qk_118_p1,))
            qk_117 = gl.where(qk_116, 0.0, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
            m_i_new = gl.max(qk_118_p1, axis=1)  # reduce0_m_i_new: stage 2, partition 0 (group 0)
            m_i_new_119 = gl.maximum(m_i_new_119_p1, m_i_new)  # elementwise1_m_i_new: stage 2, partition 0 (group 0)
            alpha = m_i_new_119_p1 - m_i_new_119  # sfu0_alpha: stage 2, partition 0 (group 0)
            alpha_120 = gl.exp2(alpha)  # sfu0_alpha: stage 2, partition 0 (group 0)
            p = gl.expand_dims(m_i_new_119, 1)  # sfu1_p: stage 2, partition 0 (group 0)
            p_121 = p.broadcast_to([64, 64])  # sfu1_p: stage 2, partition 0 (group 0)
            p_122 = qk_118_p1 - p_121  # sfu1_p: stage 2, partition 0 (group 0)
            p_123 = gl.exp2(p_122)  # sfu1_p: stage 2, partition 0 (group 0)
            acc_scale = l_i_133_p1 * 0.0  # elementwise2_acc_scale: stage 2, partition 0 (group 0)
            acc_scale_124 = acc_scale + alpha_120  # elementwise2_acc_scale: stage 2, partition 0 (group 0)
            acc_125 = gl.expand_dims(acc_scale_124, 1)  # convert0_acc: stage 2, partition 0 (group 0)
            acc_126 = gl.convert_layout(acc_125, L7_short)  # convert0_acc: stage 2, partition 0 (group 0)
            acc_129 = p_123.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
            acc_130 = gl.convert_layout(acc_129, L8_short)  # convert1_acc: stage 2, partition 0 (group 0)
            acc_127 = acc_126.broadcast_to([64, 128])  # elementwise3_acc: stage 2, partition 0 (group 0)
            acc_128 = acc_131_p1 * acc_127  # elementwise3_acc: stage 2, partition 0 (group 0)
            n_mask_85 = (0 + (twill_b - 1) * 64)  # load1_cols: stage 1, partition 0 (group 0)
            n_mask_88 = n_mask_85 + offs_m  # load1_cols: stage 1, partition 0 (group 0)
            cols_93 = cols_p1  # load1_cols: stage 1, partition 0 (group 0)
            n_mask_91 = n_mask_88 < num_cols_52  # load1_cols: stage 1, partition 0 (group 0)
            cols_95 = cols_93 + offs_m  # load1_cols: stage 1, partition 0 (group 0)
            cols_97 = gl.load(cols_95, mask=n_mask_91, other=0)  # load1_cols: stage 1, partition 0 (group 0)
            v_108 = gl.expand_dims(cols_97, 1)  # load3_v: stage 1, partition 0 (group 0)
            v_109 = v_108 * stride_vn  # load3_v: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            v_114 = v_114_ring.index((twill_base + twill_b - 2) % 3)  # load3_v: stage 2, partition 0 (group 0)
            v_107 = gl.expand_dims(n_mask_91, 1)  # load3_v: stage 1, partition 0 (group 0)
            v_110 = v_109.broadcast_to([64, 128])  # load3_v: stage 1, partition 0 (group 0)
            v_111 = v_71 + v_110  # load3_v: stage 1, partition 0 (group 0)
            v_112 = v_107.broadcast_to([64, 128])  # load3_v: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load3_v: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(v_114_ring.index((twill_base + twill_b - 1) % 3), v_111, mask=v_112)  # load3_v: stage 1, partition 0 (group 0)
            else:  # load3_v: stage 1, partition 0 (group 0)
                v_114_ring.index((twill_base + twill_b - 1) % 3).store(gl.load(v_111, mask=v_112, other=0.0))  # load3_v: stage 1, partition 0 (group 0)
                fence_async_shared()  # load3_v: stage 1, partition 0 (group 0)
            tok_acc_131 = warpgroup_mma(acc_130, v_114, acc_128, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
            l_i_132 = gl.sum(p_123, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
            l_i = l_i_133_p1 * alpha_120  # elementwise4_l_i: stage 2, partition 0 (group 0)
            l_i_133 = l_i + l_i_132  # elementwise4_l_i: stage 2, partition 0 (group 0)
            n_mask_83 = (0 + (twill_b - 0) * 64)  # load0_cols: stage 0, partition 0 (group 0)
            cols = cols_ptr_53 + (0 + (twill_b - 0) * 64)  # load0_cols: stage 0, partition 0 (group 0)
            n_mask_86 = n_mask_83 + offs_m_12  # load0_cols: stage 0, partition 0 (group 0)
            cols_92 = cols  # load0_cols: stage 0, partition 0 (group 0)
            n_mask_89 = n_mask_86 < num_cols_52  # load0_cols: stage 0, partition 0 (group 0)
            cols_94 = cols_92 + offs_m_12  # load0_cols: stage 0, partition 0 (group 0)
            cols_96 = gl.load(cols_94, mask=n_mask_89, other=0)  # load0_cols: stage 0, partition 0 (group 0)
            k_100 = gl.expand_dims(cols_96, 0)  # load2_k: stage 0, partition 0 (group 0)
            k_101 = k_100 * stride_kn  # load2_k: stage 0, partition 0 (group 0)
            k_106 = k_106_ring.index((twill_base + twill_b - 1) % 3)  # load2_k: stage 1, partition 0 (group 0)
            k_98 = gl.expand_dims(n_mask_89, 0)  # load2_k: stage 0, partition 0 (group 0)
            k_102 = k_101.broadcast_to([128, 64])  # load2_k: stage 0, partition 0 (group 0)
            k_103 = k_69 + k_102  # load2_k: stage 0, partition 0 (group 0)
            k_104 = k_98.broadcast_to([128, 64])  # load2_k: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_k: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_106_ring.index((twill_base + twill_b - 0) % 3), k_103, mask=k_104)  # load2_k: stage 0, partition 0 (group 0)
            else:  # load2_k: stage 0, partition 0 (group 0)
                k_106_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(k_103, mask=k_104, other=0.0))  # load2_k: stage 0, partition 0 (group 0)
                fence_async_shared()  # load2_k: stage 0, partition 0 (group 0)
            tok_qk_118 = warpgroup_mma(q_73, k_106, qk_117, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_131 = warpgroup_mma_wait(1, deps=(tok_acc_131,))
            qk_118 = warpgroup_mma_wait(1, deps=(tok_qk_118,))
            acc_131_p1 = acc_131
            cols_p1 = cols
            l_i_133_p1 = l_i_133
            m_i_new_119_p1 = m_i_new_119
            qk_118_p1 = qk_118
        n_mask_84 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_qk: stage 1, partition 0 (group 0)
        n_mask_87 = n_mask_84 + offs_m_13  # elementwise0_qk: stage 1, partition 0 (group 0)
        n_mask_90 = n_mask_87 < num_cols_52  # elementwise0_qk: stage 1, partition 0 (group 0)
        k_99 = gl.expand_dims(n_mask_90, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_115 = k_99.broadcast_to([64, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_116 = qk_72 & qk_115  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_118_p1 = warpgroup_mma_wait(0, deps=(qk_118_p1,))
        qk_117 = gl.where(qk_116, 0.0, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        m_i_new = gl.max(qk_118_p1, axis=1)  # reduce0_m_i_new: stage 2, partition 0 (group 0)
        m_i_new_119 = gl.maximum(m_i_new_119_p1, m_i_new)  # elementwise1_m_i_new: stage 2, partition 0 (group 0)
        alpha = m_i_new_119_p1 - m_i_new_119  # sfu0_alpha: stage 2, partition 0 (group 0)
        alpha_120 = gl.exp2(alpha)  # sfu0_alpha: stage 2, partition 0 (group 0)
        p = gl.expand_dims(m_i_new_119, 1)  # sfu1_p: stage 2, partition 0 (group 0)
        p_121 = p.broadcast_to([64, 64])  # sfu1_p: stage 2, partition 0 (group 0)
        p_122 = qk_118_p1 - p_121  # sfu1_p: stage 2, partition 0 (group 0)
        p_123 = gl.exp2(p_122)  # sfu1_p: stage 2, partition 0 (group 0)
        acc_scale = l_i_133_p1 * 0.0  # elementwise2_acc_scale: stage 2, partition 0 (group 0)
        acc_scale_124 = acc_scale + alpha_120  # elementwise2_acc_scale: stage 2, partition 0 (group 0)
        acc_125 = gl.expand_dims(acc_scale_124, 1)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_126 = gl.convert_layout(acc_125, L7_short)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_129 = p_123.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_130 = gl.convert_layout(acc_129, L8_short)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_127 = acc_126.broadcast_to([64, 128])  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_128 = acc_131_p1 * acc_127  # elementwise3_acc: stage 2, partition 0 (group 0)
        n_mask_85 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # load1_cols: stage 1, partition 0 (group 0)
        n_mask_88 = n_mask_85 + offs_m  # load1_cols: stage 1, partition 0 (group 0)
        cols_93 = cols_p1  # load1_cols: stage 1, partition 0 (group 0)
        n_mask_91 = n_mask_88 < num_cols_52  # load1_cols: stage 1, partition 0 (group 0)
        cols_95 = cols_93 + offs_m  # load1_cols: stage 1, partition 0 (group 0)
        cols_97 = gl.load(cols_95, mask=n_mask_91, other=0)  # load1_cols: stage 1, partition 0 (group 0)
        v_108 = gl.expand_dims(cols_97, 1)  # load3_v: stage 1, partition 0 (group 0)
        v_109 = v_108 * stride_vn  # load3_v: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        v_114 = v_114_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 3)  # load3_v: stage 2, partition 0 (group 0)
        v_107 = gl.expand_dims(n_mask_91, 1)  # load3_v: stage 1, partition 0 (group 0)
        v_110 = v_109.broadcast_to([64, 128])  # load3_v: stage 1, partition 0 (group 0)
        v_111 = v_71 + v_110  # load3_v: stage 1, partition 0 (group 0)
        v_112 = v_107.broadcast_to([64, 128])  # load3_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load3_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_114_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3), v_111, mask=v_112)  # load3_v: stage 1, partition 0 (group 0)
        else:  # load3_v: stage 1, partition 0 (group 0)
            v_114_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3).store(gl.load(v_111, mask=v_112, other=0.0))  # load3_v: stage 1, partition 0 (group 0)
            fence_async_shared()  # load3_v: stage 1, partition 0 (group 0)
        tok_acc_131 = warpgroup_mma(acc_130, v_114, acc_128, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
        l_i_132 = gl.sum(p_123, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
        l_i = l_i_133_p1 * alpha_120  # elementwise4_l_i: stage 2, partition 0 (group 0)
        l_i_133 = l_i + l_i_132  # elementwise4_l_i: stage 2, partition 0 (group 0)
        k_106 = k_106_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load2_k: stage 1, partition 0 (group 0)
        tok_qk_118 = warpgroup_mma(q_73, k_106, qk_117, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_131 = warpgroup_mma_wait(1, deps=(tok_acc_131,))
        qk_118 = warpgroup_mma_wait(1, deps=(tok_qk_118,))
        acc_131_p1 = acc_131
        cols_p1 = cols
        l_i_133_p1 = l_i_133
        m_i_new_119_p1 = m_i_new_119
        qk_118_p1 = qk_118
        qk_118_p1 = warpgroup_mma_wait(0, deps=(qk_118_p1,))
        m_i_new = gl.max(qk_118_p1, axis=1)  # reduce0_m_i_new: stage 2, partition 0 (group 0)
        m_i_new_119 = gl.maximum(m_i_new_119_p1, m_i_new)  # elementwise1_m_i_new: stage 2, partition 0 (group 0)
        alpha = m_i_new_119_p1 - m_i_new_119  # sfu0_alpha: stage 2, partition 0 (group 0)
        alpha_120 = gl.exp2(alpha)  # sfu0_alpha: stage 2, partition 0 (group 0)
        p = gl.expand_dims(m_i_new_119, 1)  # sfu1_p: stage 2, partition 0 (group 0)
        p_121 = p.broadcast_to([64, 64])  # sfu1_p: stage 2, partition 0 (group 0)
        p_122 = qk_118_p1 - p_121  # sfu1_p: stage 2, partition 0 (group 0)
        p_123 = gl.exp2(p_122)  # sfu1_p: stage 2, partition 0 (group 0)
        acc_scale = l_i_133_p1 * 0.0  # elementwise2_acc_scale: stage 2, partition 0 (group 0)
        acc_scale_124 = acc_scale + alpha_120  # elementwise2_acc_scale: stage 2, partition 0 (group 0)
        acc_125 = gl.expand_dims(acc_scale_124, 1)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_126 = gl.convert_layout(acc_125, L7_short)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_129 = p_123.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_130 = gl.convert_layout(acc_129, L8_short)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_127 = acc_126.broadcast_to([64, 128])  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_128 = acc_131_p1 * acc_127  # elementwise3_acc: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        v_114 = v_114_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 3)  # load3_v: stage 2, partition 0 (group 0)
        tok_acc_131 = warpgroup_mma(acc_130, v_114, acc_128, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
        l_i_132 = gl.sum(p_123, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
        l_i = l_i_133_p1 * alpha_120  # elementwise4_l_i: stage 2, partition 0 (group 0)
        l_i_133 = l_i + l_i_132  # elementwise4_l_i: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_131 = warpgroup_mma_wait(0, deps=(tok_acc_131,))
        acc_131_p1 = acc_131
        cols_p1 = cols
        l_i_133_p1 = l_i_133
        m_i_new_119_p1 = m_i_new_119
        qk_118_p1 = qk_118
        k_106_ring._keep_alive()
        v_114_ring._keep_alive()
    else:
        acc_80_w = m_i_new_110_p1
        acc_81_w = l_i_124_p1
        acc_82_w = acc_122_p1
        for acc_79_w in range(0, num_cols_52, 64):
            n_mask_86_w = acc_79_w + offs_m_12
            n_mask_87_w = acc_79_w + offs_m_13
            n_mask_88_w = acc_79_w + offs_m
            n_mask_89_w = n_mask_86_w < num_cols_52
            n_mask_90_w = n_mask_87_w < num_cols_52
            n_mask_91_w = n_mask_88_w < num_cols_52
            cols_w = cols_ptr_53 + acc_79_w
            cols_94_w = cols_w + offs_m_12
            cols_95_w = cols_w + offs_m
            cols_96_w = gl.load(cols_94_w, mask=n_mask_89_w, other=0)
            cols_97_w = gl.load(cols_95_w, mask=n_mask_91_w, other=0)
            k_98_w = gl.expand_dims(n_mask_89_w, 0)
            k_99_w = gl.expand_dims(n_mask_90_w, 0)
            k_100_w = gl.expand_dims(cols_96_w, 0)
            k_101_w = k_100_w * stride_kn
            k_102_w = k_101_w.broadcast_to([128, 64])
            k_103_w = k_69 + k_102_w
            k_104_w = k_98_w.broadcast_to([128, 64])
            k_105_w = gl.load(k_103_w, mask=k_104_w, other=0.0)
            k_106_w = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), k_105_w)
            fence_async_shared()
            v_107_w = gl.expand_dims(n_mask_91_w, 1)
            v_108_w = gl.expand_dims(cols_97_w, 1)
            v_109_w = v_108_w * stride_vn
            v_110_w = v_109_w.broadcast_to([64, 128])
            v_111_w = v_71 + v_110_w
            v_112_w = v_107_w.broadcast_to([64, 128])
            v_113_w = gl.load(v_111_w, mask=v_112_w, other=0.0)
            v_114_w = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v_113_w)
            fence_async_shared()
            qk_115_w = k_99_w.broadcast_to([64, 64])
            qk_116_w = qk_72 & qk_115_w
            qk_117_w = gl.where(qk_116_w, 0.0, float("-inf"))
            qk_118_w = warpgroup_mma(q_73, k_106_w, qk_117_w)
            m_i_new_w = gl.max(qk_118_w, axis=1)
            m_i_new_119_w = gl.maximum(acc_80_w, m_i_new_w)
            alpha_w = acc_80_w - m_i_new_119_w
            alpha_120_w = gl.exp2(alpha_w)
            p_w = gl.expand_dims(m_i_new_119_w, 1)
            p_121_w = p_w.broadcast_to([64, 64])
            p_122_w = qk_118_w - p_121_w
            p_123_w = gl.exp2(p_122_w)
            acc_scale_w = acc_81_w * 0.0
            acc_scale_124_w = acc_scale_w + alpha_120_w
            acc_125_w = gl.expand_dims(acc_scale_124_w, 1)
            acc_126_w = gl.convert_layout(acc_125_w, L7_short)
            acc_127_w = acc_126_w.broadcast_to([64, 128])
            acc_128_w = acc_82_w * acc_127_w
            acc_129_w = p_123_w.to(gl.float16)
            acc_130_w = gl.convert_layout(acc_129_w, L8_short)
            acc_131_w = warpgroup_mma(acc_130_w, v_114_w, acc_128_w)
            l_i_w = acc_81_w * alpha_120_w
            l_i_132_w = gl.sum(p_123_w, axis=1)
            l_i_133_w = l_i_w + l_i_132_w
            acc_80_w = m_i_new_119_w
            acc_81_w = l_i_133_w
            acc_82_w = acc_131_w
        m_i_new_119_p1 = acc_80_w
        l_i_133_p1 = acc_81_w
        acc_131_p1 = acc_82_w
    acc_75 = gl.expand_dims(l_i_133_p1, 1)
    acc_76 = gl.convert_layout(acc_75, L7_short)
    acc_77 = acc_76.broadcast_to([64, 128])
    acc_78 = acc_131_p1 / acc_77
    v2 = acc_78.to(gl.float16)
    v3 = m_mask_60.broadcast_to([64, 128])
    v4 = gl.convert_layout(v2, L9_short)
    gl.store(o_ptrs_45, v4, mask=v3)

@gluon.jit
def twill_kernel_short(Q, K, V, seqlens, sm_scale, block_count, block_offset, column_count, column_index, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, N_CTX, NUM_ROWS, NNZ_S, NNZ_V, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_hz = gl.program_id(1)
    seqlen = off_hz // H
    seqlen_9 = seqlens + seqlen
    seqlen_10 = gl.load(seqlen_9)
    v0 = start_m * 64
    v1 = v0 >= seqlen_10
    if v1:
        return
    consumer_0_short(Q, K, V, seqlens, sm_scale, block_count, block_offset, column_count, column_index, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, Z, H, N_CTX, NUM_ROWS, NNZ_S, NNZ_V, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'seqlens', 'sm_scale', 'block_count', 'block_offset', 'column_count', 'column_index', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_vk', 'stride_oz', 'stride_oh', 'stride_om', 'stride_ok', 'Z', 'H', 'N_CTX', 'NUM_ROWS', 'NNZ_S', 'NNZ_V', 'BLOCK_M', 'BLOCK_N', 'BLOCK_DMODEL', 'dtype']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'seqlens', 'sm_scale', 'block_count', 'block_offset', 'column_count', 'column_index', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'Z', 'H', 'N_CTX', 'NUM_ROWS', 'NNZ_S', 'NNZ_V']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'seqlens', 'sm_scale', 'block_count', 'block_offset', 'column_count', 'column_index', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'Z', 'H', 'N_CTX', 'NUM_ROWS', 'NNZ_S', 'NNZ_V', 'dtype']   # the arguments a launch key reads
CONSTEXPRS = {'stride_qk': 1, 'stride_kk': 1, 'stride_vk': 1, 'stride_ok': 1, 'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_DMODEL': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['Q', 'K', 'V', 'seqlens', 'sm_scale', 'block_count', 'block_offset', 'column_count', 'column_index', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_vk', 'stride_oz', 'stride_oh', 'stride_om', 'stride_ok', 'Z', 'H', 'N_CTX', 'NUM_ROWS', 'NNZ_S', 'NNZ_V', 'BLOCK_M', 'BLOCK_N', 'BLOCK_DMODEL', 'dtype']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Q', 'K', 'V', 'seqlens', 'sm_scale', 'block_count', 'block_offset', 'column_count', 'column_index', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'Z', 'H', 'N_CTX', 'NUM_ROWS', 'NNZ_S', 'NNZ_V']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Q', 'K', 'V', 'seqlens', 'sm_scale', 'block_count', 'block_offset', 'column_count', 'column_index', 'Out', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_oz', 'stride_oh', 'stride_om', 'Z', 'H', 'N_CTX', 'NUM_ROWS', 'NNZ_S', 'NNZ_V', 'dtype']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_qk': 1, 'stride_kk': 1, 'stride_vk': 1, 'stride_ok': 1, 'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_DMODEL': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['K', 'V', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    flags = {'TWILL_COPY': all(_aligned_short(bound[n]) for n in COPY_ALIGNED_short)}
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


def _aligned_short(value):
    """Whether an argument is specialised as 16-divisible (Triton's rule): an integer's value, a tensor's address."""
    if hasattr(value, "data_ptr"):
        return value.data_ptr() % 16 == 0
    return isinstance(value, int) and value % 16 == 0


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
