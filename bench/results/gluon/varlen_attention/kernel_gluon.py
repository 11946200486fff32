"""attn_fwd_varlen, written by twill from its joint schedule: I=270 L=378 (optimal), 1279 cycles per iteration predicted.

Decisions (each from the schedule):
- k_68 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- v_89 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 8-warp producer with cp.async (k_68, v_89): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 154): sub-tile 0, 2 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 184 registers per thread (needs about 154): sub-tile 1, 2 stages
- partition 2 (worker): producer, warp group 2, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring k_68: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0, 1
- ring v_89: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0, 1
- tensor-core order: the schedule's slots (partition 1 (1 dot) | partition 0 (2 dots) | partition 1 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- shared memory: 164000 bytes planned of 232448; maxnreg 128
- early return at varlen_attention.py:26 (TTGIR line 49): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))
L9 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L10 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L11 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K, V, O, cu_seqlens, sm_scale, stride_tok, stride_h, k_68_buf, v_89_buf, k_68_ready, k_68_empty, v_89_ready, v_89_empty, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_h = gl.program_id(1)
    off_b = gl.program_id(2)
    seq_start = cu_seqlens + off_b
    seq_start_8 = gl.load(seq_start)
    seq_end_9 = seq_start + 1
    seq_end_10 = gl.load(seq_end_9)
    seqlen = seq_end_10 - seq_start_8
    v0 = start_m * 128
    offs_m_t0 = gl.arange(0, 64, layout=L0)
    offs_m_12_t0 = v0 + offs_m_t0
    offs_n = gl.arange(0, 64, layout=L1)
    q_ptrs_t0 = gl.expand_dims(offs_m_12_t0, 1)
    q_ptrs_16_t0 = seq_start_8 + q_ptrs_t0
    q_ptrs_18_t0 = q_ptrs_16_t0 * stride_tok
    q_ptrs_20_t0 = Q + q_ptrs_18_t0
    q_ptrs_21 = off_h * stride_h
    q_ptrs_23_t0 = q_ptrs_20_t0 + q_ptrs_21
    q_ptrs_24 = gl.arange(0, 128, layout=L2)
    q_ptrs_25 = gl.expand_dims(q_ptrs_24, 0)
    q_ptrs_26_t0 = q_ptrs_23_t0.broadcast_to([64, 128])
    q_ptrs_27_t0 = q_ptrs_25.broadcast_to([64, 128])
    q_ptrs_27_r1_t0 = q_ptrs_25.broadcast_to([64, 128])
    q_ptrs_28_t0 = q_ptrs_26_t0 + q_ptrs_27_t0
    q_29_t0 = q_ptrs_t0 < seqlen
    q_30_t0 = q_29_t0.broadcast_to([64, 128])
    q_30_r1_t0 = q_29_t0.broadcast_to([64, 128])
    q_31_t0 = gl.load(q_ptrs_28_t0, mask=q_30_t0, other=0.0)
    q_32_t0 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_31_t0)
    fence_async_shared()
    qk_scale = sm_scale * 1.44269502
    twill_n = (seqlen - 0 + 64 - 1) // 64
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        m_new_73_t0 = gl.full([64], float("-inf"), gl.float32, layout=L3)
        m_new_73_t0_p1 = m_new_73_t0
        l_i_79_t0 = gl.full([64], 0.0, gl.float32, layout=L3)
        acc_97_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        mbarrier.wait(k_68_ready.index((0 - 0) % 4), ((0 - 0) // 4) & 1)
        fence_async_shared()
        tok_qk_70_t0 = warpgroup_mma(q_32_t0, k_68_buf.index((0 - 0) % 4), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
        kv_rows_53 = (0 + (0 - 0) * 64) + offs_n  # elementwise0_qk: stage 0, partition 0 (group 0)
        k_56 = gl.expand_dims(kv_rows_53, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
        k_58 = k_56 < seqlen  # elementwise0_qk: stage 0, partition 0 (group 0)
        kv_rows_53_t0 = (0 + (0 - 0) * 64) + offs_n  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        k_56_t0 = gl.expand_dims(kv_rows_53_t0, 0)  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        k_58_t0 = k_56_t0 < seqlen  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        k_66_t0 = k_58_t0.broadcast_to([64, 64])  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        qk_70_t0 = warpgroup_mma_wait(0, deps=(tok_qk_70_t0,))
        mbarrier.arrive(k_68_empty.index((0 - 0) % 4))
        qk_71_t0 = qk_70_t0 * qk_scale  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        qk_72_t0 = gl.where(k_66_t0, qk_71_t0, float("-inf"))  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
        m_new_t0 = gl.max(qk_72_t0, axis=1)  # reduce0_m_new_s0: stage 0, partition 0 (group 0)
        m_new_73_t0 = gl.maximum(m_new_73_t0_p1, m_new_t0)  # elementwise1_m_new_s0: stage 0, partition 0 (group 0)
        alpha_t0 = m_new_73_t0_p1 - m_new_73_t0  # sfu1_alpha_s0: stage 0, partition 0 (group 0)
        alpha_77_t0 = gl.exp2(alpha_t0)  # sfu1_alpha_s0: stage 0, partition 0 (group 0)
        p_t0 = gl.expand_dims(m_new_73_t0, 1)  # sfu0_p_s0: stage 0, partition 0 (group 0)
        p_74_t0 = p_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 0, partition 0 (group 0)
        p_75_t0 = qk_72_t0 - p_74_t0  # sfu0_p_s0: stage 0, partition 0 (group 0)
        p_76_t0 = gl.exp2(p_75_t0)  # sfu0_p_s0: stage 0, partition 0 (group 0)
        acc_97_t0_p1 = acc_97_t0
        alpha_77_t0_p1 = alpha_77_t0
        l_i_79_t0_p1 = l_i_79_t0
        m_new_73_t0_p1 = m_new_73_t0
        p_76_t0_p1 = p_76_t0
        for twill_b in range(1, twill_n):
            acc_91_t0 = gl.expand_dims(alpha_77_t0_p1, 1)  # convert0_acc_s0: stage 1, partition 0 (group 0)
            acc_92_t0 = gl.convert_layout(acc_91_t0, L4)  # convert0_acc_s0: stage 1, partition 0 (group 0)
            acc_95_t0 = p_76_t0_p1.to(gl.float16)  # convert1_acc_s0: stage 1, partition 0 (group 0)
            acc_96_t0 = gl.convert_layout(acc_95_t0, L6)  # convert1_acc_s0: stage 1, partition 0 (group 0)
            l_i_78_t0 = gl.sum(p_76_t0_p1, axis=1)  # reduce1_l_i_s0: stage 1, partition 0 (group 0)
            l_i_t0 = l_i_79_t0_p1 * alpha_77_t0_p1  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
            l_i_79_t0 = l_i_t0 + l_i_78_t0  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
            acc_93_t0 = acc_92_t0.broadcast_to([64, 128])  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
            acc_94_t0 = acc_97_t0_p1 * acc_93_t0  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(v_89_ready.index((twill_b - 1) % 4), ((twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_acc_97_t0 = warpgroup_mma(acc_96_t0, v_89_buf.index((twill_b - 1) % 4), acc_94_t0, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(k_68_ready.index((twill_b - 0) % 4), ((twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_qk_70_t0 = warpgroup_mma(q_32_t0, k_68_buf.index((twill_b - 0) % 4), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk_s0: stage 0, partition 0 (group 0)
            kv_rows = (0 + (twill_b - 0) * 64)  # elementwise0_qk: stage 0, partition 0 (group 0)
            kv_rows_53 = kv_rows + offs_n  # elementwise0_qk: stage 0, partition 0 (group 0)
            k_56 = gl.expand_dims(kv_rows_53, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
            k_58 = k_56 < seqlen  # elementwise0_qk: stage 0, partition 0 (group 0)
            kv_rows_t0 = (0 + (twill_b - 0) * 64)  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            kv_rows_53_t0 = kv_rows_t0 + offs_n  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            k_56_t0 = gl.expand_dims(kv_rows_53_t0, 0)  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            k_58_t0 = k_56_t0 < seqlen  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            k_66_t0 = k_58_t0.broadcast_to([64, 64])  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            acc_97_t0, qk_70_t0 = warpgroup_mma_wait(0, deps=(tok_acc_97_t0, tok_qk_70_t0,))
            mbarrier.arrive(v_89_empty.index((twill_b - 1) % 4))
            mbarrier.arrive(k_68_empty.index((twill_b - 0) % 4))
            qk_71_t0 = qk_70_t0 * qk_scale  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            qk_72_t0 = gl.where(k_66_t0, qk_71_t0, float("-inf"))  # elementwise0_qk_s0: stage 0, partition 0 (group 0)
            m_new_t0 = gl.max(qk_72_t0, axis=1)  # reduce0_m_new_s0: stage 0, partition 0 (group 0)
            m_new_73_t0 = gl.maximum(m_new_73_t0_p1, m_new_t0)  # elementwise1_m_new_s0: stage 0, partition 0 (group 0)
            alpha_t0 = m_new_73_t0_p1 - m_new_73_t0  # sfu1_alpha_s0: stage 0, partition 0 (group 0)
            alpha_77_t0 = gl.exp2(alpha_t0)  # sfu1_alpha_s0: stage 0, partition 0 (group 0)
            p_t0 = gl.expand_dims(m_new_73_t0, 1)  # sfu0_p_s0: stage 0, partition 0 (group 0)
            p_74_t0 = p_t0.broadcast_to([64, 64])  # sfu0_p_s0: stage 0, partition 0 (group 0)
            p_75_t0 = qk_72_t0 - p_74_t0  # sfu0_p_s0: stage 0, partition 0 (group 0)
            p_76_t0 = gl.exp2(p_75_t0)  # sfu0_p_s0: stage 0, partition 0 (group 0)
            acc_97_t0_p1 = acc_97_t0
            alpha_77_t0_p1 = alpha_77_t0
            l_i_79_t0_p1 = l_i_79_t0
            m_new_73_t0_p1 = m_new_73_t0
            p_76_t0_p1 = p_76_t0
        acc_91_t0 = gl.expand_dims(alpha_77_t0_p1, 1)  # convert0_acc_s0: stage 1, partition 0 (group 0)
        acc_92_t0 = gl.convert_layout(acc_91_t0, L4)  # convert0_acc_s0: stage 1, partition 0 (group 0)
        acc_95_t0 = p_76_t0_p1.to(gl.float16)  # convert1_acc_s0: stage 1, partition 0 (group 0)
        acc_96_t0 = gl.convert_layout(acc_95_t0, L6)  # convert1_acc_s0: stage 1, partition 0 (group 0)
        l_i_78_t0 = gl.sum(p_76_t0_p1, axis=1)  # reduce1_l_i_s0: stage 1, partition 0 (group 0)
        l_i_t0 = l_i_79_t0_p1 * alpha_77_t0_p1  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
        l_i_79_t0 = l_i_t0 + l_i_78_t0  # elementwise2_l_i_s0: stage 1, partition 0 (group 0)
        acc_93_t0 = acc_92_t0.broadcast_to([64, 128])  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
        acc_94_t0 = acc_97_t0_p1 * acc_93_t0  # elementwise3_acc_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(v_89_ready.index(((twill_n - 1 + 1) - 1) % 4), (((twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_97_t0 = warpgroup_mma(acc_96_t0, v_89_buf.index(((twill_n - 1 + 1) - 1) % 4), acc_94_t0, is_async=True)  # dot1_acc_s0: stage 1, partition 0 (group 0)
        acc_97_t0 = warpgroup_mma_wait(0, deps=(tok_acc_97_t0,))
        mbarrier.arrive(v_89_empty.index(((twill_n - 1 + 1) - 1) % 4))
        acc_97_t0_p1 = acc_97_t0
        alpha_77_t0_p1 = alpha_77_t0
        l_i_79_t0_p1 = l_i_79_t0
        m_new_73_t0_p2 = m_new_73_t0_p1
        m_new_73_t0_p1 = m_new_73_t0
        p_76_t0_p1 = p_76_t0
        q_32_t0._keep_alive()
        k_68_buf._keep_alive()
        v_89_buf._keep_alive()
    else:
        m_new_73_t0_p2 = gl.full([64], float("-inf"), gl.float32, layout=L3)
        l_i_79_t0_p1 = gl.full([64], 0.0, gl.float32, layout=L3)
        acc_97_t0_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
    o_ptrs_46_t0 = O + q_ptrs_18_t0
    o_ptrs_47_t0 = o_ptrs_46_t0 + q_ptrs_21
    o_ptrs_48_t0 = o_ptrs_47_t0.broadcast_to([64, 128])
    o_ptrs_49_t0 = o_ptrs_48_t0 + q_ptrs_27_r1_t0
    v2_t0 = gl.expand_dims(l_i_79_t0_p1, 1)
    v3_t0 = gl.convert_layout(v2_t0, L4)
    v4_t0 = v3_t0.broadcast_to([64, 128])
    v5_t0 = acc_97_t0_p1 / v4_t0
    v6_t0 = v5_t0.to(gl.float16)
    v7_t0 = gl.convert_layout(v6_t0, L7)
    gl.store(o_ptrs_49_t0, v7_t0, mask=q_30_r1_t0)

@gluon.jit
def consumer_1(Q, K, V, O, cu_seqlens, sm_scale, stride_tok, stride_h, k_68_buf, v_89_buf, k_68_ready, k_68_empty, v_89_ready, v_89_empty, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_h = gl.program_id(1)
    off_b = gl.program_id(2)
    seq_start = cu_seqlens + off_b
    seq_start_8 = gl.load(seq_start)
    seq_end_9 = seq_start + 1
    seq_end_10 = gl.load(seq_end_9)
    seqlen = seq_end_10 - seq_start_8
    v0 = start_m * 128
    offs_m_t1 = gl.arange(0, 64, layout=L0) + 64
    offs_m_12_t1 = v0 + offs_m_t1
    offs_n = gl.arange(0, 64, layout=L1)
    q_ptrs_t1 = gl.expand_dims(offs_m_12_t1, 1)
    q_ptrs_16_t1 = seq_start_8 + q_ptrs_t1
    q_ptrs_18_t1 = q_ptrs_16_t1 * stride_tok
    q_ptrs_20_t1 = Q + q_ptrs_18_t1
    q_ptrs_21 = off_h * stride_h
    q_ptrs_23_t1 = q_ptrs_20_t1 + q_ptrs_21
    q_ptrs_24 = gl.arange(0, 128, layout=L2)
    q_ptrs_25 = gl.expand_dims(q_ptrs_24, 0)
    q_ptrs_26_t1 = q_ptrs_23_t1.broadcast_to([64, 128])
    q_ptrs_27_t1 = q_ptrs_25.broadcast_to([64, 128])
    q_ptrs_27_r1_t1 = q_ptrs_25.broadcast_to([64, 128])
    q_ptrs_28_t1 = q_ptrs_26_t1 + q_ptrs_27_t1
    q_29_t1 = q_ptrs_t1 < seqlen
    q_30_t1 = q_29_t1.broadcast_to([64, 128])
    q_30_r1_t1 = q_29_t1.broadcast_to([64, 128])
    q_31_t1 = gl.load(q_ptrs_28_t1, mask=q_30_t1, other=0.0)
    q_32_t1 = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_31_t1)
    fence_async_shared()
    qk_scale = sm_scale * 1.44269502
    twill_n = (seqlen - 0 + 64 - 1) // 64
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        m_new_73_t1 = gl.full([64], float("-inf"), gl.float32, layout=L3)
        acc_97_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        acc_97_t1_p1 = acc_97_t1
        m_new_73_t1_p1 = m_new_73_t1
        l_i_79_t1 = gl.full([64], 0.0, gl.float32, layout=L3)
        mbarrier.wait(k_68_ready.index((0 - 0) % 4), ((0 - 0) // 4) & 1)
        fence_async_shared()
        tok_qk_70_t1 = warpgroup_mma(q_32_t1, k_68_buf.index((0 - 0) % 4), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
        kv_rows_53 = (0 + (0 - 0) * 64) + offs_n  # elementwise0_qk: stage 0, partition 1 (group 1)
        k_56 = gl.expand_dims(kv_rows_53, 0)  # elementwise0_qk: stage 0, partition 1 (group 1)
        k_58 = k_56 < seqlen  # elementwise0_qk: stage 0, partition 1 (group 1)
        kv_rows_53_t1 = (0 + (0 - 0) * 64) + offs_n  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        k_56_t1 = gl.expand_dims(kv_rows_53_t1, 0)  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        k_58_t1 = k_56_t1 < seqlen  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        k_66_t1 = k_58_t1.broadcast_to([64, 64])  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        qk_70_t1 = warpgroup_mma_wait(0, deps=(tok_qk_70_t1,))
        mbarrier.arrive(k_68_empty.index((0 - 0) % 4))
        qk_71_t1 = qk_70_t1 * qk_scale  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        qk_72_t1 = gl.where(k_66_t1, qk_71_t1, float("-inf"))  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
        m_new_t1 = gl.max(qk_72_t1, axis=1)  # reduce0_m_new_s1: stage 0, partition 1 (group 1)
        m_new_73_t1 = gl.maximum(m_new_73_t1_p1, m_new_t1)  # elementwise1_m_new_s1: stage 0, partition 1 (group 1)
        alpha_t1 = m_new_73_t1_p1 - m_new_73_t1  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
        alpha_77_t1 = gl.exp2(alpha_t1)  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
        acc_91_t1 = gl.expand_dims(alpha_77_t1, 1)  # convert0_acc_s1: stage 0, partition 1 (group 1)
        acc_92_t1 = gl.convert_layout(acc_91_t1, L4)  # convert0_acc_s1: stage 0, partition 1 (group 1)
        acc_93_t1 = acc_92_t1.broadcast_to([64, 128])  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
        acc_94_t1 = acc_97_t1_p1 * acc_93_t1  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
        p_t1 = gl.expand_dims(m_new_73_t1, 1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
        p_74_t1 = p_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 0, partition 1 (group 1)
        p_75_t1 = qk_72_t1 - p_74_t1  # sfu0_p_s1: stage 0, partition 1 (group 1)
        p_76_t1 = gl.exp2(p_75_t1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
        acc_95_t1 = p_76_t1.to(gl.float16)  # convert1_acc_s1: stage 0, partition 1 (group 1)
        acc_96_t1 = gl.convert_layout(acc_95_t1, L6)  # convert1_acc_s1: stage 0, partition 1 (group 1)
        mbarrier.wait(v_89_ready.index((0 - 0) % 4), ((0 - 0) // 4) & 1)
        fence_async_shared()
        tok_acc_97_t1 = warpgroup_mma(acc_96_t1, v_89_buf.index((0 - 0) % 4), acc_94_t1, is_async=True)  # dot1_acc_s1: stage 0, partition 1 (group 1)
        l_i_78_t1 = gl.sum(p_76_t1, axis=1)  # reduce1_l_i_s1: stage 0, partition 1 (group 1)
        acc_97_t1 = warpgroup_mma_wait(0, deps=(tok_acc_97_t1,))
        mbarrier.arrive(v_89_empty.index((0 - 0) % 4))
        acc_97_t1_p1 = acc_97_t1
        alpha_77_t1_p1 = alpha_77_t1
        l_i_78_t1_p1 = l_i_78_t1
        l_i_79_t1_p1 = l_i_79_t1
        m_new_73_t1_p1 = m_new_73_t1
        for twill_b in range(1, twill_n):
            mbarrier.wait(k_68_ready.index((twill_b - 0) % 4), ((twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_qk_70_t1 = warpgroup_mma(q_32_t1, k_68_buf.index((twill_b - 0) % 4), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk_s1: stage 0, partition 1 (group 1)
            kv_rows = (0 + (twill_b - 0) * 64)  # elementwise0_qk: stage 0, partition 1 (group 1)
            kv_rows_53 = kv_rows + offs_n  # elementwise0_qk: stage 0, partition 1 (group 1)
            k_56 = gl.expand_dims(kv_rows_53, 0)  # elementwise0_qk: stage 0, partition 1 (group 1)
            k_58 = k_56 < seqlen  # elementwise0_qk: stage 0, partition 1 (group 1)
            kv_rows_t1 = (0 + (twill_b - 0) * 64)  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            kv_rows_53_t1 = kv_rows_t1 + offs_n  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            k_56_t1 = gl.expand_dims(kv_rows_53_t1, 0)  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            k_58_t1 = k_56_t1 < seqlen  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            k_66_t1 = k_58_t1.broadcast_to([64, 64])  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            qk_70_t1 = warpgroup_mma_wait(0, deps=(tok_qk_70_t1,))
            mbarrier.arrive(k_68_empty.index((twill_b - 0) % 4))
            qk_71_t1 = qk_70_t1 * qk_scale  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            qk_72_t1 = gl.where(k_66_t1, qk_71_t1, float("-inf"))  # elementwise0_qk_s1: stage 0, partition 1 (group 1)
            m_new_t1 = gl.max(qk_72_t1, axis=1)  # reduce0_m_new_s1: stage 0, partition 1 (group 1)
            m_new_73_t1 = gl.maximum(m_new_73_t1_p1, m_new_t1)  # elementwise1_m_new_s1: stage 0, partition 1 (group 1)
            alpha_t1 = m_new_73_t1_p1 - m_new_73_t1  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
            alpha_77_t1 = gl.exp2(alpha_t1)  # sfu1_alpha_s1: stage 0, partition 1 (group 1)
            acc_91_t1 = gl.expand_dims(alpha_77_t1, 1)  # convert0_acc_s1: stage 0, partition 1 (group 1)
            acc_92_t1 = gl.convert_layout(acc_91_t1, L4)  # convert0_acc_s1: stage 0, partition 1 (group 1)
            l_i_t1 = l_i_79_t1_p1 * alpha_77_t1_p1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
            l_i_79_t1 = l_i_t1 + l_i_78_t1_p1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
            acc_93_t1 = acc_92_t1.broadcast_to([64, 128])  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
            acc_94_t1 = acc_97_t1_p1 * acc_93_t1  # elementwise3_acc_s1: stage 0, partition 1 (group 1)
            p_t1 = gl.expand_dims(m_new_73_t1, 1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_74_t1 = p_t1.broadcast_to([64, 64])  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_75_t1 = qk_72_t1 - p_74_t1  # sfu0_p_s1: stage 0, partition 1 (group 1)
            p_76_t1 = gl.exp2(p_75_t1)  # sfu0_p_s1: stage 0, partition 1 (group 1)
            acc_95_t1 = p_76_t1.to(gl.float16)  # convert1_acc_s1: stage 0, partition 1 (group 1)
            acc_96_t1 = gl.convert_layout(acc_95_t1, L6)  # convert1_acc_s1: stage 0, partition 1 (group 1)
            mbarrier.wait(v_89_ready.index((twill_b - 0) % 4), ((twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_97_t1 = warpgroup_mma(acc_96_t1, v_89_buf.index((twill_b - 0) % 4), acc_94_t1, is_async=True)  # dot1_acc_s1: stage 0, partition 1 (group 1)
            l_i_78_t1 = gl.sum(p_76_t1, axis=1)  # reduce1_l_i_s1: stage 0, partition 1 (group 1)
            acc_97_t1 = warpgroup_mma_wait(0, deps=(tok_acc_97_t1,))
            mbarrier.arrive(v_89_empty.index((twill_b - 0) % 4))
            acc_97_t1_p1 = acc_97_t1
            alpha_77_t1_p1 = alpha_77_t1
            l_i_78_t1_p1 = l_i_78_t1
            l_i_79_t1_p1 = l_i_79_t1
            m_new_73_t1_p1 = m_new_73_t1
        l_i_t1 = l_i_79_t1_p1 * alpha_77_t1_p1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
        l_i_79_t1 = l_i_t1 + l_i_78_t1_p1  # elementwise2_l_i_s1: stage 1, partition 1 (group 1)
        acc_97_t1_p2 = acc_97_t1_p1
        acc_97_t1_p1 = acc_97_t1
        alpha_77_t1_p1 = alpha_77_t1
        l_i_78_t1_p1 = l_i_78_t1
        l_i_79_t1_p1 = l_i_79_t1
        m_new_73_t1_p2 = m_new_73_t1_p1
        m_new_73_t1_p1 = m_new_73_t1
        q_32_t1._keep_alive()
        k_68_buf._keep_alive()
        v_89_buf._keep_alive()
    else:
        m_new_73_t1_p2 = gl.full([64], float("-inf"), gl.float32, layout=L3)
        l_i_79_t1_p1 = gl.full([64], 0.0, gl.float32, layout=L3)
        acc_97_t1_p2 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
    o_ptrs_46_t1 = O + q_ptrs_18_t1
    o_ptrs_47_t1 = o_ptrs_46_t1 + q_ptrs_21
    o_ptrs_48_t1 = o_ptrs_47_t1.broadcast_to([64, 128])
    o_ptrs_49_t1 = o_ptrs_48_t1 + q_ptrs_27_r1_t1
    v2_t1 = gl.expand_dims(l_i_79_t1_p1, 1)
    v3_t1 = gl.convert_layout(v2_t1, L4)
    v4_t1 = v3_t1.broadcast_to([64, 128])
    v5_t1 = acc_97_t1_p2 / v4_t1
    v6_t1 = v5_t1.to(gl.float16)
    v7_t1 = gl.convert_layout(v6_t1, L7)
    gl.store(o_ptrs_49_t1, v7_t1, mask=q_30_r1_t1)

@gluon.jit
def producer_2(Q, K, V, O, cu_seqlens, sm_scale, stride_tok, stride_h, k_68_buf, v_89_buf, k_68_ready, k_68_empty, v_89_ready, v_89_empty, TWILL_COPY: gl.constexpr):
    off_h = gl.program_id(1)
    off_b = gl.program_id(2)
    seq_start = cu_seqlens + off_b
    seq_start_8 = gl.load(seq_start)
    seq_end_9 = seq_start + 1
    seq_end_10 = gl.load(seq_end_9)
    seqlen = seq_end_10 - seq_start_8
    offs_n_13 = gl.arange(0, 64, layout=L8)
    offs_n_14 = gl.arange(0, 64, layout=L9)
    q_ptrs_21 = off_h * stride_h
    q_ptrs_24 = gl.arange(0, 128, layout=L10)
    q_ptrs_25 = gl.expand_dims(q_ptrs_24, 0)
    k_38 = gl.arange(0, 128, layout=L11)
    k_39 = gl.expand_dims(k_38, 1)
    k_40 = k_39.broadcast_to([128, 64])
    v_45 = q_ptrs_25.broadcast_to([64, 128])
    for acc_50 in range(0, seqlen, 64):
        twill_k = (acc_50 - 0) // 64
        kv_rows_54 = acc_50 + offs_n_13
        kv_rows_55 = acc_50 + offs_n_14
        k_57 = gl.expand_dims(kv_rows_54, 0)
        k_59 = k_57 < seqlen
        k_60 = seq_start_8 + k_57
        k_61 = k_60 * stride_tok
        k_62 = K + k_61
        k_63 = k_62 + q_ptrs_21
        k_64 = k_63.broadcast_to([128, 64])
        k_65 = k_64 + k_40
        k_67 = k_59.broadcast_to([128, 64])
        v_80 = gl.expand_dims(kv_rows_55, 1)
        v_81 = v_80 < seqlen
        v_82 = seq_start_8 + v_80
        v_83 = v_82 * stride_tok
        v_84 = V + v_83
        v_85 = v_84 + q_ptrs_21
        v_86 = v_85.broadcast_to([64, 128])
        v_87 = v_86 + v_45
        v_88 = v_81.broadcast_to([64, 128])
        mbarrier.wait(k_68_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(k_68_buf.index(twill_k % 4), k_65, mask=k_67)  # load0_k: stage 0, partition 2 (group 2)
            async_copy.mbarrier_arrive(k_68_ready.index(twill_k % 4), increment_count=False)
        else:
            k_68_buf.index(twill_k % 4).store(gl.load(k_65, mask=k_67, other=0.0))  # load0_k: stage 0, partition 2 (group 2)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(k_68_ready.index(twill_k % 4), count=256)
        mbarrier.wait(v_89_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(v_89_buf.index(twill_k % 4), v_87, mask=v_88)  # load1_v: stage 0, partition 2 (group 2)
            async_copy.mbarrier_arrive(v_89_ready.index(twill_k % 4), increment_count=False)
        else:
            v_89_buf.index(twill_k % 4).store(gl.load(v_87, mask=v_88, other=0.0))  # load1_v: stage 0, partition 2 (group 2)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(v_89_ready.index(twill_k % 4), count=256)

@gluon.jit
def twill_kernel(Q, K, V, O, cu_seqlens, sm_scale, stride_tok, stride_h, TWILL_COPY: gl.constexpr):
    start_m = gl.program_id(0)
    off_b = gl.program_id(2)
    seq_start = cu_seqlens + off_b
    seq_start_8 = gl.load(seq_start)
    seq_end_9 = seq_start + 1
    seq_end_10 = gl.load(seq_end_9)
    seqlen = seq_end_10 - seq_start_8
    v0 = start_m * 128
    v1 = v0 >= seqlen
    if v1:
        return
    k_68_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_89_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_68_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k_68_ready.index(i), count=256)
    k_68_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k_68_empty.index(i), count=2)
    v_89_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(v_89_ready.index(i), count=256)
    v_89_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(v_89_empty.index(i), count=2)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, O, cu_seqlens, sm_scale, stride_tok, stride_h, k_68_buf, v_89_buf, k_68_ready, k_68_empty, v_89_ready, v_89_empty, TWILL_COPY)),
        (consumer_1, (Q, K, V, O, cu_seqlens, sm_scale, stride_tok, stride_h, k_68_buf, v_89_buf, k_68_ready, k_68_empty, v_89_ready, v_89_empty, TWILL_COPY)),
        (producer_2, (Q, K, V, O, cu_seqlens, sm_scale, stride_tok, stride_h, k_68_buf, v_89_buf, k_68_ready, k_68_empty, v_89_ready, v_89_empty, TWILL_COPY)),
    ], [4, 8], [184, 64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'O', 'cu_seqlens', 'sm_scale', 'stride_tok', 'stride_h', 'BLOCK_M', 'BLOCK_N', 'D']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'O', 'cu_seqlens', 'sm_scale', 'stride_tok', 'stride_h']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'O', 'cu_seqlens', 'sm_scale', 'stride_tok', 'stride_h']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 64, 'D': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_tok', 'stride_h']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
