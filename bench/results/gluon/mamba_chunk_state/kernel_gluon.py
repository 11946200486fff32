"""_chunk_state_fwd_kernel, written by twill from its joint schedule: I=475 L=475 (optimal), 1649 cycles per iteration predicted.

Decisions (each from the schedule):
- x_115 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (x_115): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (89, 48 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 200 registers per thread (needs about 89): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 48 registers per thread (needs about 48): cp.async copies into the rings
- ring x_115: 2 buffers of [64, 32] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared operand b_134_st: partition 0 stores the loop's [32, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 16432 bytes planned of 232448; maxnreg 128
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 2 each of the producer's ((chunk_size + 32 - 1) // 32 at most: a bound of the loop takes a min with a value only the CTA knows, from the launch's arguments), the launch runs the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 92 registers, clean, 5 CTA(s) an SM against the producer's 2; simulated for 0, 1, 2, 3, 8 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(x_ptr, b_ptr, states_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr, hdim, dstate, chunk_size, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, x_115_buf, b_134_st, x_115_ready, x_115_empty, TWILL_COPY: gl.constexpr):
    pid_bc = gl.program_id(1)
    pid_c = pid_bc // batch
    pid_b = pid_c * batch
    pid_b_5 = pid_bc - pid_b
    pid_h = gl.program_id(2)
    num_pid_n_6 = dstate + 63
    num_pid_n_7 = num_pid_n_6 // 64
    pid_m = gl.program_id(0)
    pid_m_8 = pid_m // num_pid_n_7
    pid_n = pid_m % num_pid_n_7
    b_ptr_9 = pid_b_5 * stride_b_batch
    b_ptr_10 = pid_c * chunk_size
    b_ptr_11 = b_ptr_10 * stride_b_seqlen
    b_ptr_12 = b_ptr_9 + b_ptr_11
    b_ptr_13 = pid_h // nheads_ngroups_ratio
    b_ptr_14 = b_ptr_13 * stride_b_head
    b_ptr_15 = b_ptr_12 + b_ptr_14
    b_ptr_16 = b_ptr + b_ptr_15
    x_ptr_17 = pid_b_5 * stride_x_batch
    x_ptr_18 = b_ptr_10 * stride_x_seqlen
    x_ptr_19 = x_ptr_17 + x_ptr_18
    x_ptr_20 = pid_h * stride_x_head
    x_ptr_21 = x_ptr_19 + x_ptr_20
    x_ptr_22 = x_ptr + x_ptr_21
    dt_ptr_23 = pid_b_5 * stride_dt_batch
    dt_ptr_24 = pid_c * stride_dt_chunk
    dt_ptr_25 = dt_ptr_23 + dt_ptr_24
    dt_ptr_26 = pid_h * stride_dt_head
    dt_ptr_27 = dt_ptr_25 + dt_ptr_26
    dt_ptr_28 = dt_ptr + dt_ptr_27
    dA_cumsum_ptr_29 = pid_b_5 * stride_dA_cs_batch
    dA_cumsum_ptr_30 = pid_c * stride_dA_cs_chunk
    dA_cumsum_ptr_31 = dA_cumsum_ptr_29 + dA_cumsum_ptr_30
    dA_cumsum_ptr_32 = pid_h * stride_dA_cs_head
    dA_cumsum_ptr_33 = dA_cumsum_ptr_31 + dA_cumsum_ptr_32
    dA_cumsum_ptr_34 = dA_cumsum_ptr + dA_cumsum_ptr_33
    seq_idx_ptr_35 = pid_b_5 * stride_seq_idx_batch
    seq_idx_ptr_36 = seq_idx_ptr_35 + b_ptr_10
    seq_idx_ptr_37 = seq_idx_ptr + seq_idx_ptr_36
    offs_m = pid_m_8 * 64
    offs_m_38 = gl.arange(0, 64, layout=L0)
    offs_m_39 = gl.arange(0, 64, layout=L1)
    offs_m_40 = gl.arange(0, 64, layout=L2)
    offs_m_41 = gl.arange(0, 64, layout=L3)
    offs_m_44 = offs_m + offs_m_38
    offs_m_45 = offs_m + offs_m_39
    offs_n = pid_n * 64
    offs_n_48 = offs_n + offs_m_40
    offs_n_49 = offs_n + offs_m_41
    offs_k = gl.arange(0, 32, layout=L4)
    x_ptrs = gl.expand_dims(offs_m_44, 1)
    x_ptrs_50 = gl.expand_dims(offs_m_45, 1)
    x_ptrs_51 = gl.arange(0, 32, layout=L5)
    x_ptrs_52 = gl.expand_dims(x_ptrs_51, 0)
    x_ptrs_54 = x_ptrs_52 * stride_x_seqlen
    x_ptrs_55 = x_ptrs.broadcast_to([64, 32])
    x_ptrs_56 = x_ptrs_54.broadcast_to([64, 32])
    x_ptrs_57 = x_ptrs_55 + x_ptrs_56
    x_ptrs_59 = x_ptr_22 + x_ptrs_57
    b_ptrs = gl.expand_dims(offs_n_48, 0)
    b_ptrs_60 = gl.expand_dims(offs_n_49, 0)
    b_ptrs_61 = gl.expand_dims(offs_k, 1)
    b_ptrs_63 = b_ptrs_61 * stride_b_seqlen
    b_ptrs_64 = b_ptrs.broadcast_to([32, 64])
    b_ptrs_65 = b_ptrs_63.broadcast_to([32, 64])
    b_ptrs_66 = b_ptrs_64 + b_ptrs_65
    b_ptrs_68 = b_ptr_16 + b_ptrs_66
    dt_ptrs_69 = dt_ptr_28 + offs_k
    dA_cs_last = chunk_size - 1
    dA_cs_last_70 = dA_cumsum_ptr_34 + dA_cs_last
    dA_cs_last_71 = gl.load(dA_cs_last_70)
    dA_cumsum_ptrs_72 = dA_cumsum_ptr_34 + offs_k
    seq_idx_ptrs_73 = seq_idx_ptr_37 + offs_k
    chunk_size_limit = seqlen - b_ptr_10
    chunk_size_limit_74 = gl.minimum(chunk_size, chunk_size_limit)
    seq_idx_last = chunk_size_limit_74 - 1
    seq_idx_last_75 = seq_idx_ptr_37 + seq_idx_last
    seq_idx_last_76 = gl.load(seq_idx_last_75)
    x_77 = x_ptrs < hdim
    x_78 = x_77.broadcast_to([64, 32])
    b_79 = b_ptrs < dstate
    b_80 = b_79.broadcast_to([32, 64])
    b_ptrs_84 = stride_b_seqlen * 32
    twill_n = (chunk_size_limit_74 - 0 + 32 - 1) // 32
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_ptrs_137 = b_ptrs_68
        dt_ptrs_138 = dt_ptrs_69
        dA_cumsum_ptrs_139 = dA_cumsum_ptrs_72
        seq_idx_ptrs_140 = seq_idx_ptrs_73
        b_ptrs_137_p1 = b_ptrs_137
        dA_cumsum_ptrs_139_p1 = dA_cumsum_ptrs_139
        dt_ptrs_138_p1 = dt_ptrs_138
        seq_idx_ptrs_140_p1 = seq_idx_ptrs_140
        acc_135 = gl.full([64, 64], 0.0, gl.float32, layout=L6)
        x_110 = chunk_size_limit_74 - (0 + (0 - 0) * 32)  # elementwise0_x: stage 0, partition 0 (group 0)
        b_117 = x_110  # elementwise1_b: stage 0, partition 0 (group 0)
        b_118 = b_ptrs_61 < b_117  # elementwise1_b: stage 0, partition 0 (group 0)
        b_119 = b_118.broadcast_to([32, 64])  # elementwise1_b: stage 0, partition 0 (group 0)
        b_120 = b_119 & b_80  # elementwise1_b: stage 0, partition 0 (group 0)
        dA_cs_k = x_110  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_123 = offs_k < dA_cs_k  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cumsum_ptrs_139 = dA_cumsum_ptrs_139_p1 + 32  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_124 = gl.load(dA_cumsum_ptrs_139_p1, mask=dA_cs_k_123, other=0.0)  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        seq_idx_ptrs_140 = seq_idx_ptrs_140_p1 + 32  # load3_seq_idx_k: stage 0, partition 0 (group 0)
        dt_ptrs_138 = dt_ptrs_138_p1 + 32  # load4_dt_k: stage 0, partition 0 (group 0)
        seq_idx_k = gl.load(seq_idx_ptrs_140_p1, mask=dA_cs_k_123, other=-1)  # load3_seq_idx_k: stage 0, partition 0 (group 0)
        dt_k = gl.load(dt_ptrs_138_p1, mask=dA_cs_k_123, other=0.0)  # load4_dt_k: stage 0, partition 0 (group 0)
        b_ptrs_137 = b_ptrs_137_p1 + b_ptrs_84  # load1_b: stage 0, partition 0 (group 0)
        b_121 = gl.load(b_ptrs_137_p1, mask=b_120, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
        acc_135_p1 = acc_135
        b_121_p1 = b_121
        b_ptrs_137_p1 = b_ptrs_137
        dA_cs_k_124_p1 = dA_cs_k_124
        dA_cumsum_ptrs_139_p1 = dA_cumsum_ptrs_139
        dt_k_p1 = dt_k
        dt_ptrs_138_p1 = dt_ptrs_138
        seq_idx_k_p1 = seq_idx_k
        seq_idx_ptrs_140_p1 = seq_idx_ptrs_140
        x_110_p1 = x_110
        for twill_b in range(1, twill_n):
            x_110 = chunk_size_limit_74 - (0 + (twill_b - 0) * 32)  # elementwise0_x: stage 0, partition 0 (group 0)
            b_117 = x_110  # elementwise1_b: stage 0, partition 0 (group 0)
            b_118 = b_ptrs_61 < b_117  # elementwise1_b: stage 0, partition 0 (group 0)
            b_119 = b_118.broadcast_to([32, 64])  # elementwise1_b: stage 0, partition 0 (group 0)
            b_120 = b_119 & b_80  # elementwise1_b: stage 0, partition 0 (group 0)
            x_111 = x_110_p1  # elementwise0_x: stage 1, partition 0 (group 0)
            x_112 = x_ptrs_52 < x_111  # elementwise0_x: stage 1, partition 0 (group 0)
            x_113 = x_112.broadcast_to([64, 32])  # elementwise0_x: stage 1, partition 0 (group 0)
            x_114 = x_78 & x_113  # elementwise0_x: stage 1, partition 0 (group 0)
            dA_cs_k = x_110  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cs_k_123 = offs_k < dA_cs_k  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cumsum_ptrs_139 = dA_cumsum_ptrs_139_p1 + 32  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cs_k_124 = gl.load(dA_cumsum_ptrs_139_p1, mask=dA_cs_k_123, other=0.0)  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            scale_126 = dA_cs_last_71 - dA_cs_k_124_p1  # sfu0_scale: stage 1, partition 0 (group 0)
            scale_127 = gl.exp(scale_126)  # sfu0_scale: stage 1, partition 0 (group 0)
            seq_idx_ptrs_140 = seq_idx_ptrs_140_p1 + 32  # load3_seq_idx_k: stage 0, partition 0 (group 0)
            dt_ptrs_138 = dt_ptrs_138_p1 + 32  # load4_dt_k: stage 0, partition 0 (group 0)
            seq_idx_k = gl.load(seq_idx_ptrs_140_p1, mask=dA_cs_k_123, other=-1)  # load3_seq_idx_k: stage 0, partition 0 (group 0)
            dt_k = gl.load(dt_ptrs_138_p1, mask=dA_cs_k_123, other=0.0)  # load4_dt_k: stage 0, partition 0 (group 0)
            scale_125 = seq_idx_k_p1 == seq_idx_last_76  # elementwise2_scale: stage 1, partition 0 (group 0)
            scale_128 = scale_127 * dt_k_p1  # elementwise2_scale: stage 1, partition 0 (group 0)
            scale_129 = gl.where(scale_125, scale_128, 0.0)  # elementwise2_scale: stage 1, partition 0 (group 0)
            b_ptrs_137 = b_ptrs_137_p1 + b_ptrs_84  # load1_b: stage 0, partition 0 (group 0)
            b_121 = gl.load(b_ptrs_137_p1, mask=b_120, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
            b_122 = b_121_p1.to(gl.float32)  # convert0_b: stage 1, partition 0 (group 0)
            b_130 = gl.expand_dims(scale_129, 1)  # elementwise3_b: stage 1, partition 0 (group 0)
            b_131 = b_130.broadcast_to([32, 64])  # elementwise3_b: stage 1, partition 0 (group 0)
            b_132 = b_122 * b_131  # elementwise3_b: stage 1, partition 0 (group 0)
            b_133 = b_132.to(gl.float16)  # convert1_b: stage 1, partition 0 (group 0)
            b_134 = b_134_st.index((twill_b - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
            b_134.store(b_133)  # local_store0_b: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
            mbarrier.wait(x_115_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_135 = warpgroup_mma(x_115_buf.index((twill_b - 1) % 2), b_134, acc_135_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_135,))
            mbarrier.arrive(x_115_empty.index((twill_b - 1 - 1) % 2), pred=(twill_b - 1 - 1) >= 0)
            acc_135 = warpgroup_mma_wait(1, deps=(tok_acc_135,))
            acc_135_p1 = acc_135
            b_121_p1 = b_121
            b_ptrs_137_p1 = b_ptrs_137
            dA_cs_k_124_p1 = dA_cs_k_124
            dA_cumsum_ptrs_139_p1 = dA_cumsum_ptrs_139
            dt_k_p1 = dt_k
            dt_ptrs_138_p1 = dt_ptrs_138
            seq_idx_k_p1 = seq_idx_k
            seq_idx_ptrs_140_p1 = seq_idx_ptrs_140
            x_110_p1 = x_110
        x_111 = x_110_p1  # elementwise0_x: stage 1, partition 0 (group 0)
        x_112 = x_ptrs_52 < x_111  # elementwise0_x: stage 1, partition 0 (group 0)
        x_113 = x_112.broadcast_to([64, 32])  # elementwise0_x: stage 1, partition 0 (group 0)
        x_114 = x_78 & x_113  # elementwise0_x: stage 1, partition 0 (group 0)
        scale_126 = dA_cs_last_71 - dA_cs_k_124_p1  # sfu0_scale: stage 1, partition 0 (group 0)
        scale_127 = gl.exp(scale_126)  # sfu0_scale: stage 1, partition 0 (group 0)
        scale_125 = seq_idx_k_p1 == seq_idx_last_76  # elementwise2_scale: stage 1, partition 0 (group 0)
        scale_128 = scale_127 * dt_k_p1  # elementwise2_scale: stage 1, partition 0 (group 0)
        scale_129 = gl.where(scale_125, scale_128, 0.0)  # elementwise2_scale: stage 1, partition 0 (group 0)
        b_122 = b_121_p1.to(gl.float32)  # convert0_b: stage 1, partition 0 (group 0)
        b_130 = gl.expand_dims(scale_129, 1)  # elementwise3_b: stage 1, partition 0 (group 0)
        b_131 = b_130.broadcast_to([32, 64])  # elementwise3_b: stage 1, partition 0 (group 0)
        b_132 = b_122 * b_131  # elementwise3_b: stage 1, partition 0 (group 0)
        b_133 = b_132.to(gl.float16)  # convert1_b: stage 1, partition 0 (group 0)
        b_134 = b_134_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
        b_134.store(b_133)  # local_store0_b: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
        mbarrier.wait(x_115_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        tok_acc_135 = warpgroup_mma(x_115_buf.index(((twill_n - 1 + 1) - 1) % 2), b_134, acc_135_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_135,))
        mbarrier.arrive(x_115_empty.index(((twill_n - 1 + 1) - 1 - 1) % 2), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_135 = warpgroup_mma_wait(1, deps=(tok_acc_135,))
        acc_135_p1 = acc_135
        b_121_p1 = b_121
        b_ptrs_137_p2 = b_ptrs_137_p1
        b_ptrs_137_p1 = b_ptrs_137
        dA_cs_k_124_p1 = dA_cs_k_124
        dA_cumsum_ptrs_139_p2 = dA_cumsum_ptrs_139_p1
        dA_cumsum_ptrs_139_p1 = dA_cumsum_ptrs_139
        dt_k_p1 = dt_k
        dt_ptrs_138_p2 = dt_ptrs_138_p1
        dt_ptrs_138_p1 = dt_ptrs_138
        seq_idx_k_p1 = seq_idx_k
        seq_idx_ptrs_140_p2 = seq_idx_ptrs_140_p1
        seq_idx_ptrs_140_p1 = seq_idx_ptrs_140
        x_110_p1 = x_110
        acc_135_p1 = warpgroup_mma_wait(0, deps=(acc_135_p1,))
        x_115_buf._keep_alive()
        b_134_st._keep_alive()
        mbarrier.arrive(x_115_empty.index(((twill_n - 1 + 1) - 1) % 2))
    else:
        acc_135_p1 = gl.full([64, 64], 0.0, gl.float32, layout=L6)
        b_ptrs_137_p2 = b_ptrs_68
        dt_ptrs_138_p2 = dt_ptrs_69
        dA_cumsum_ptrs_139_p2 = dA_cumsum_ptrs_72
        seq_idx_ptrs_140_p2 = seq_idx_ptrs_73
    states_ptr_86 = pid_b_5 * stride_states_batch
    states_ptr_87 = pid_c * stride_states_chunk
    states_ptr_88 = states_ptr_86 + states_ptr_87
    states_ptr_89 = pid_h * stride_states_head
    states_ptr_90 = states_ptr_88 + states_ptr_89
    states_ptr_91 = states_ptr + states_ptr_90
    states_ptrs_92 = x_ptrs_50 * stride_states_hdim
    states_ptrs_93 = states_ptrs_92.broadcast_to([64, 64])
    states_ptrs_94 = b_ptrs_60.broadcast_to([64, 64])
    states_ptrs_95 = states_ptrs_93 + states_ptrs_94
    states_ptrs_97 = states_ptr_91 + states_ptrs_95
    c_mask_98 = x_ptrs_50 < hdim
    c_mask_100 = b_ptrs_60 < dstate
    c_mask_101 = c_mask_98.broadcast_to([64, 64])
    c_mask_102 = c_mask_100.broadcast_to([64, 64])
    c_mask_103 = c_mask_101 & c_mask_102
    v0 = gl.convert_layout(acc_135_p1, L7)
    gl.store(states_ptrs_97, v0, mask=c_mask_103)

@gluon.jit
def producer_1(x_ptr, b_ptr, states_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr, hdim, dstate, chunk_size, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, x_115_buf, b_134_st, x_115_ready, x_115_empty, TWILL_COPY: gl.constexpr):
    pid_bc = gl.program_id(1)
    pid_c = pid_bc // batch
    pid_b = pid_c * batch
    pid_b_5 = pid_bc - pid_b
    pid_h = gl.program_id(2)
    num_pid_n_6 = dstate + 63
    num_pid_n_7 = num_pid_n_6 // 64
    pid_m = gl.program_id(0)
    pid_m_8 = pid_m // num_pid_n_7
    b_ptr_10 = pid_c * chunk_size
    x_ptr_17 = pid_b_5 * stride_x_batch
    x_ptr_18 = b_ptr_10 * stride_x_seqlen
    x_ptr_19 = x_ptr_17 + x_ptr_18
    x_ptr_20 = pid_h * stride_x_head
    x_ptr_21 = x_ptr_19 + x_ptr_20
    x_ptr_22 = x_ptr + x_ptr_21
    offs_m = pid_m_8 * 64
    offs_m_38 = gl.arange(0, 64, layout=L0)
    offs_m_44 = offs_m + offs_m_38
    x_ptrs = gl.expand_dims(offs_m_44, 1)
    x_ptrs_51 = gl.arange(0, 32, layout=L5)
    x_ptrs_52 = gl.expand_dims(x_ptrs_51, 0)
    x_ptrs_54 = x_ptrs_52 * stride_x_seqlen
    x_ptrs_55 = x_ptrs.broadcast_to([64, 32])
    x_ptrs_56 = x_ptrs_54.broadcast_to([64, 32])
    x_ptrs_57 = x_ptrs_55 + x_ptrs_56
    x_ptrs_59 = x_ptr_22 + x_ptrs_57
    chunk_size_limit = seqlen - b_ptr_10
    chunk_size_limit_74 = gl.minimum(chunk_size, chunk_size_limit)
    x_77 = x_ptrs < hdim
    x_78 = x_77.broadcast_to([64, 32])
    x_ptrs_82 = stride_x_seqlen * 32
    x_ptrs_105 = x_ptrs_59
    for acc_104 in range(0, chunk_size_limit_74, 32):
        twill_k = (acc_104 - 0) // 32
        x_110 = chunk_size_limit_74 - acc_104
        x_112 = x_ptrs_52 < x_110
        x_113 = x_112.broadcast_to([64, 32])
        x_114 = x_78 & x_113
        x_ptrs_136 = x_ptrs_105 + x_ptrs_82
        mbarrier.wait(x_115_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(x_115_buf.index(twill_k % 2), x_ptrs_105, mask=x_114)  # load0_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(x_115_ready.index(twill_k % 2), increment_count=False)
        else:
            x_115_buf.index(twill_k % 2).store(gl.load(x_ptrs_105, mask=x_114, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(x_115_ready.index(twill_k % 2), count=128)
        x_ptrs_105 = x_ptrs_136

@gluon.jit
def twill_kernel(x_ptr, b_ptr, states_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr, hdim, dstate, chunk_size, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, TWILL_COPY: gl.constexpr):
    x_115_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    b_134_st = gl.allocate_shared_memory(gl.float16, [2, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_115_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(x_115_ready.index(i), count=128)
    x_115_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(x_115_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, b_ptr, states_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr, hdim, dstate, chunk_size, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, x_115_buf, b_134_st, x_115_ready, x_115_empty, TWILL_COPY)),
        (producer_1, (x_ptr, b_ptr, states_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr, hdim, dstate, chunk_size, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, x_115_buf, b_134_st, x_115_ready, x_115_empty, TWILL_COPY)),
    ], [4], [48])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L6_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(x_ptr, b_ptr, states_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr, hdim, dstate, chunk_size, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch):
    pid_bc = gl.program_id(1)
    pid_c = pid_bc // batch
    pid_b = pid_c * batch
    pid_b_5 = pid_bc - pid_b
    pid_h = gl.program_id(2)
    num_pid_n_6 = dstate + 63
    num_pid_n_7 = num_pid_n_6 // 64
    pid_m = gl.program_id(0)
    pid_m_8 = pid_m // num_pid_n_7
    pid_n = pid_m % num_pid_n_7
    b_ptr_9 = pid_b_5 * stride_b_batch
    b_ptr_10 = pid_c * chunk_size
    b_ptr_11 = b_ptr_10 * stride_b_seqlen
    b_ptr_12 = b_ptr_9 + b_ptr_11
    b_ptr_13 = pid_h // nheads_ngroups_ratio
    b_ptr_14 = b_ptr_13 * stride_b_head
    b_ptr_15 = b_ptr_12 + b_ptr_14
    b_ptr_16 = b_ptr + b_ptr_15
    x_ptr_17 = pid_b_5 * stride_x_batch
    x_ptr_18 = b_ptr_10 * stride_x_seqlen
    x_ptr_19 = x_ptr_17 + x_ptr_18
    x_ptr_20 = pid_h * stride_x_head
    x_ptr_21 = x_ptr_19 + x_ptr_20
    x_ptr_22 = x_ptr + x_ptr_21
    dt_ptr_23 = pid_b_5 * stride_dt_batch
    dt_ptr_24 = pid_c * stride_dt_chunk
    dt_ptr_25 = dt_ptr_23 + dt_ptr_24
    dt_ptr_26 = pid_h * stride_dt_head
    dt_ptr_27 = dt_ptr_25 + dt_ptr_26
    dt_ptr_28 = dt_ptr + dt_ptr_27
    dA_cumsum_ptr_29 = pid_b_5 * stride_dA_cs_batch
    dA_cumsum_ptr_30 = pid_c * stride_dA_cs_chunk
    dA_cumsum_ptr_31 = dA_cumsum_ptr_29 + dA_cumsum_ptr_30
    dA_cumsum_ptr_32 = pid_h * stride_dA_cs_head
    dA_cumsum_ptr_33 = dA_cumsum_ptr_31 + dA_cumsum_ptr_32
    dA_cumsum_ptr_34 = dA_cumsum_ptr + dA_cumsum_ptr_33
    seq_idx_ptr_35 = pid_b_5 * stride_seq_idx_batch
    seq_idx_ptr_36 = seq_idx_ptr_35 + b_ptr_10
    seq_idx_ptr_37 = seq_idx_ptr + seq_idx_ptr_36
    offs_m = pid_m_8 * 64
    offs_m_38 = gl.arange(0, 64, layout=L0_short)
    offs_m_39 = gl.arange(0, 64, layout=L1_short)
    offs_m_40 = gl.arange(0, 64, layout=L2_short)
    offs_m_41 = gl.arange(0, 64, layout=L3_short)
    offs_m_44 = offs_m + offs_m_38
    offs_m_45 = offs_m + offs_m_39
    offs_n = pid_n * 64
    offs_n_48 = offs_n + offs_m_40
    offs_n_49 = offs_n + offs_m_41
    offs_k = gl.arange(0, 32, layout=L4_short)
    x_ptrs = gl.expand_dims(offs_m_44, 1)
    x_ptrs_50 = gl.expand_dims(offs_m_45, 1)
    x_ptrs_51 = gl.arange(0, 32, layout=L5_short)
    x_ptrs_52 = gl.expand_dims(x_ptrs_51, 0)
    x_ptrs_54 = x_ptrs_52 * stride_x_seqlen
    x_ptrs_55 = x_ptrs.broadcast_to([64, 32])
    x_ptrs_56 = x_ptrs_54.broadcast_to([64, 32])
    x_ptrs_57 = x_ptrs_55 + x_ptrs_56
    x_ptrs_59 = x_ptr_22 + x_ptrs_57
    b_ptrs = gl.expand_dims(offs_n_48, 0)
    b_ptrs_60 = gl.expand_dims(offs_n_49, 0)
    b_ptrs_61 = gl.expand_dims(offs_k, 1)
    b_ptrs_63 = b_ptrs_61 * stride_b_seqlen
    b_ptrs_64 = b_ptrs.broadcast_to([32, 64])
    b_ptrs_65 = b_ptrs_63.broadcast_to([32, 64])
    b_ptrs_66 = b_ptrs_64 + b_ptrs_65
    b_ptrs_68 = b_ptr_16 + b_ptrs_66
    dt_ptrs_69 = dt_ptr_28 + offs_k
    dA_cs_last = chunk_size - 1
    dA_cs_last_70 = dA_cumsum_ptr_34 + dA_cs_last
    dA_cs_last_71 = gl.load(dA_cs_last_70)
    dA_cumsum_ptrs_72 = dA_cumsum_ptr_34 + offs_k
    seq_idx_ptrs_73 = seq_idx_ptr_37 + offs_k
    chunk_size_limit = seqlen - b_ptr_10
    chunk_size_limit_74 = gl.minimum(chunk_size, chunk_size_limit)
    seq_idx_last = chunk_size_limit_74 - 1
    seq_idx_last_75 = seq_idx_ptr_37 + seq_idx_last
    seq_idx_last_76 = gl.load(seq_idx_last_75)
    x_77 = x_ptrs < hdim
    x_78 = x_77.broadcast_to([64, 32])
    b_79 = b_ptrs < dstate
    b_80 = b_79.broadcast_to([32, 64])
    x_ptrs_82 = stride_x_seqlen * 32
    b_ptrs_84 = stride_b_seqlen * 32
    twill_n = (chunk_size_limit_74 - 0 + 32 - 1) // 32
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_134_st = gl.allocate_shared_memory(gl.float16, [2, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        x_116_st = gl.allocate_shared_memory(gl.float16, [2, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        b_ptrs_137 = b_ptrs_68
        dt_ptrs_138 = dt_ptrs_69
        dA_cumsum_ptrs_139 = dA_cumsum_ptrs_72
        seq_idx_ptrs_140 = seq_idx_ptrs_73
        b_ptrs_137_p1 = b_ptrs_137
        dA_cumsum_ptrs_139_p1 = dA_cumsum_ptrs_139
        dt_ptrs_138_p1 = dt_ptrs_138
        seq_idx_ptrs_140_p1 = seq_idx_ptrs_140
        acc_135 = gl.full([64, 64], 0.0, gl.float32, layout=L6_short)
        x_ptrs_136 = x_ptrs_59
        x_110 = chunk_size_limit_74 - (0 + (0 - 0) * 32)  # elementwise0_x: stage 0, partition 0 (group 0)
        b_117 = x_110  # elementwise1_b: stage 0, partition 0 (group 0)
        b_118 = b_ptrs_61 < b_117  # elementwise1_b: stage 0, partition 0 (group 0)
        b_119 = b_118.broadcast_to([32, 64])  # elementwise1_b: stage 0, partition 0 (group 0)
        b_120 = b_119 & b_80  # elementwise1_b: stage 0, partition 0 (group 0)
        dA_cs_k = x_110  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_123 = offs_k < dA_cs_k  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cumsum_ptrs_139 = dA_cumsum_ptrs_139_p1 + 32  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        dA_cs_k_124 = gl.load(dA_cumsum_ptrs_139_p1, mask=dA_cs_k_123, other=0.0)  # load2_dA_cs_k: stage 0, partition 0 (group 0)
        seq_idx_ptrs_140 = seq_idx_ptrs_140_p1 + 32  # load3_seq_idx_k: stage 0, partition 0 (group 0)
        dt_ptrs_138 = dt_ptrs_138_p1 + 32  # load4_dt_k: stage 0, partition 0 (group 0)
        seq_idx_k = gl.load(seq_idx_ptrs_140_p1, mask=dA_cs_k_123, other=-1)  # load3_seq_idx_k: stage 0, partition 0 (group 0)
        dt_k = gl.load(dt_ptrs_138_p1, mask=dA_cs_k_123, other=0.0)  # load4_dt_k: stage 0, partition 0 (group 0)
        b_ptrs_137 = b_ptrs_137_p1 + b_ptrs_84  # load1_b: stage 0, partition 0 (group 0)
        b_121 = gl.load(b_ptrs_137_p1, mask=b_120, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
        acc_135_p1 = acc_135
        b_121_p1 = b_121
        b_ptrs_137_p1 = b_ptrs_137
        dA_cs_k_124_p1 = dA_cs_k_124
        dA_cumsum_ptrs_139_p1 = dA_cumsum_ptrs_139
        dt_k_p1 = dt_k
        dt_ptrs_138_p1 = dt_ptrs_138
        seq_idx_k_p1 = seq_idx_k
        seq_idx_ptrs_140_p1 = seq_idx_ptrs_140
        x_110_p1 = x_110
        x_ptrs_136_p1 = x_ptrs_136
        for twill_b in range(1, twill_n):
            x_110 = chunk_size_limit_74 - (0 + (twill_b - 0) * 32)  # elementwise0_x: stage 0, partition 0 (group 0)
            b_117 = x_110  # elementwise1_b: stage 0, partition 0 (group 0)
            b_118 = b_ptrs_61 < b_117  # elementwise1_b: stage 0, partition 0 (group 0)
            b_119 = b_118.broadcast_to([32, 64])  # elementwise1_b: stage 0, partition 0 (group 0)
            b_120 = b_119 & b_80  # elementwise1_b: stage 0, partition 0 (group 0)
            x_111 = x_110_p1  # elementwise0_x: stage 1, partition 0 (group 0)
            x_112 = x_ptrs_52 < x_111  # elementwise0_x: stage 1, partition 0 (group 0)
            x_113 = x_112.broadcast_to([64, 32])  # elementwise0_x: stage 1, partition 0 (group 0)
            x_114 = x_78 & x_113  # elementwise0_x: stage 1, partition 0 (group 0)
            dA_cs_k = x_110  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cs_k_123 = offs_k < dA_cs_k  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cumsum_ptrs_139 = dA_cumsum_ptrs_139_p1 + 32  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            dA_cs_k_124 = gl.load(dA_cumsum_ptrs_139_p1, mask=dA_cs_k_123, other=0.0)  # load2_dA_cs_k: stage 0, partition 0 (group 0)
            scale_126 = dA_cs_last_71 - dA_cs_k_124_p1  # sfu0_scale: stage 1, partition 0 (group 0)
            scale_127 = gl.exp(scale_126)  # sfu0_scale: stage 1, partition 0 (group 0)
            seq_idx_ptrs_140 = seq_idx_ptrs_140_p1 + 32  # load3_seq_idx_k: stage 0, partition 0 (group 0)
            dt_ptrs_138 = dt_ptrs_138_p1 + 32  # load4_dt_k: stage 0, partition 0 (group 0)
            seq_idx_k = gl.load(seq_idx_ptrs_140_p1, mask=dA_cs_k_123, other=-1)  # load3_seq_idx_k: stage 0, partition 0 (group 0)
            dt_k = gl.load(dt_ptrs_138_p1, mask=dA_cs_k_123, other=0.0)  # load4_dt_k: stage 0, partition 0 (group 0)
            scale_125 = seq_idx_k_p1 == seq_idx_last_76  # elementwise2_scale: stage 1, partition 0 (group 0)
            scale_128 = scale_127 * dt_k_p1  # elementwise2_scale: stage 1, partition 0 (group 0)
            scale_129 = gl.where(scale_125, scale_128, 0.0)  # elementwise2_scale: stage 1, partition 0 (group 0)
            b_ptrs_137 = b_ptrs_137_p1 + b_ptrs_84  # load1_b: stage 0, partition 0 (group 0)
            b_121 = gl.load(b_ptrs_137_p1, mask=b_120, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
            b_122 = b_121_p1.to(gl.float32)  # convert0_b: stage 1, partition 0 (group 0)
            b_130 = gl.expand_dims(scale_129, 1)  # elementwise3_b: stage 1, partition 0 (group 0)
            b_131 = b_130.broadcast_to([32, 64])  # elementwise3_b: stage 1, partition 0 (group 0)
            b_132 = b_122 * b_131  # elementwise3_b: stage 1, partition 0 (group 0)
            b_133 = b_132.to(gl.float16)  # convert1_b: stage 1, partition 0 (group 0)
            b_134 = b_134_st.index((twill_b - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
            b_134.store(b_133)  # local_store0_b: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
            x_ptrs_136 = x_ptrs_136_p1 + x_ptrs_82  # load0_x: stage 1, partition 0 (group 0)
            x_115 = gl.load(x_ptrs_136_p1, mask=x_114, other=0.0)  # load0_x: stage 1, partition 0 (group 0)
            x_116 = x_116_st.index((twill_b - 1) % 2)  # load0_x: stage 1, partition 0 (group 0)
            x_116.store(x_115)  # load0_x: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_x: stage 1, partition 0 (group 0)
            tok_acc_135 = warpgroup_mma(x_116, b_134, acc_135_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_135,))
            acc_135 = warpgroup_mma_wait(1, deps=(tok_acc_135,))
            acc_135_p1 = acc_135
            b_121_p1 = b_121
            b_ptrs_137_p1 = b_ptrs_137
            dA_cs_k_124_p1 = dA_cs_k_124
            dA_cumsum_ptrs_139_p1 = dA_cumsum_ptrs_139
            dt_k_p1 = dt_k
            dt_ptrs_138_p1 = dt_ptrs_138
            seq_idx_k_p1 = seq_idx_k
            seq_idx_ptrs_140_p1 = seq_idx_ptrs_140
            x_110_p1 = x_110
            x_ptrs_136_p1 = x_ptrs_136
        x_111 = x_110_p1  # elementwise0_x: stage 1, partition 0 (group 0)
        x_112 = x_ptrs_52 < x_111  # elementwise0_x: stage 1, partition 0 (group 0)
        x_113 = x_112.broadcast_to([64, 32])  # elementwise0_x: stage 1, partition 0 (group 0)
        x_114 = x_78 & x_113  # elementwise0_x: stage 1, partition 0 (group 0)
        scale_126 = dA_cs_last_71 - dA_cs_k_124_p1  # sfu0_scale: stage 1, partition 0 (group 0)
        scale_127 = gl.exp(scale_126)  # sfu0_scale: stage 1, partition 0 (group 0)
        scale_125 = seq_idx_k_p1 == seq_idx_last_76  # elementwise2_scale: stage 1, partition 0 (group 0)
        scale_128 = scale_127 * dt_k_p1  # elementwise2_scale: stage 1, partition 0 (group 0)
        scale_129 = gl.where(scale_125, scale_128, 0.0)  # elementwise2_scale: stage 1, partition 0 (group 0)
        b_122 = b_121_p1.to(gl.float32)  # convert0_b: stage 1, partition 0 (group 0)
        b_130 = gl.expand_dims(scale_129, 1)  # elementwise3_b: stage 1, partition 0 (group 0)
        b_131 = b_130.broadcast_to([32, 64])  # elementwise3_b: stage 1, partition 0 (group 0)
        b_132 = b_122 * b_131  # elementwise3_b: stage 1, partition 0 (group 0)
        b_133 = b_132.to(gl.float16)  # convert1_b: stage 1, partition 0 (group 0)
        b_134 = b_134_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b: stage 1, partition 0 (group 0)
        b_134.store(b_133)  # local_store0_b: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b: stage 1, partition 0 (group 0)
        x_ptrs_136 = x_ptrs_136_p1 + x_ptrs_82  # load0_x: stage 1, partition 0 (group 0)
        x_115 = gl.load(x_ptrs_136_p1, mask=x_114, other=0.0)  # load0_x: stage 1, partition 0 (group 0)
        x_116 = x_116_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_x: stage 1, partition 0 (group 0)
        x_116.store(x_115)  # load0_x: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_x: stage 1, partition 0 (group 0)
        tok_acc_135 = warpgroup_mma(x_116, b_134, acc_135_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_135,))
        acc_135 = warpgroup_mma_wait(1, deps=(tok_acc_135,))
        acc_135_p1 = acc_135
        b_121_p1 = b_121
        b_ptrs_137_p2 = b_ptrs_137_p1
        b_ptrs_137_p1 = b_ptrs_137
        dA_cs_k_124_p1 = dA_cs_k_124
        dA_cumsum_ptrs_139_p2 = dA_cumsum_ptrs_139_p1
        dA_cumsum_ptrs_139_p1 = dA_cumsum_ptrs_139
        dt_k_p1 = dt_k
        dt_ptrs_138_p2 = dt_ptrs_138_p1
        dt_ptrs_138_p1 = dt_ptrs_138
        seq_idx_k_p1 = seq_idx_k
        seq_idx_ptrs_140_p2 = seq_idx_ptrs_140_p1
        seq_idx_ptrs_140_p1 = seq_idx_ptrs_140
        x_110_p1 = x_110
        x_ptrs_136_p1 = x_ptrs_136
        acc_135_p1 = warpgroup_mma_wait(0, deps=(acc_135_p1,))
        x_116_st._keep_alive()
        b_134_st._keep_alive()
    else:
        acc_135_p1 = gl.full([64, 64], 0.0, gl.float32, layout=L6_short)
        x_ptrs_136_p1 = x_ptrs_59
        b_ptrs_137_p2 = b_ptrs_68
        dt_ptrs_138_p2 = dt_ptrs_69
        dA_cumsum_ptrs_139_p2 = dA_cumsum_ptrs_72
        seq_idx_ptrs_140_p2 = seq_idx_ptrs_73
    states_ptr_86 = pid_b_5 * stride_states_batch
    states_ptr_87 = pid_c * stride_states_chunk
    states_ptr_88 = states_ptr_86 + states_ptr_87
    states_ptr_89 = pid_h * stride_states_head
    states_ptr_90 = states_ptr_88 + states_ptr_89
    states_ptr_91 = states_ptr + states_ptr_90
    states_ptrs_92 = x_ptrs_50 * stride_states_hdim
    states_ptrs_93 = states_ptrs_92.broadcast_to([64, 64])
    states_ptrs_94 = b_ptrs_60.broadcast_to([64, 64])
    states_ptrs_95 = states_ptrs_93 + states_ptrs_94
    states_ptrs_97 = states_ptr_91 + states_ptrs_95
    c_mask_98 = x_ptrs_50 < hdim
    c_mask_100 = b_ptrs_60 < dstate
    c_mask_101 = c_mask_98.broadcast_to([64, 64])
    c_mask_102 = c_mask_100.broadcast_to([64, 64])
    c_mask_103 = c_mask_101 & c_mask_102
    v0 = gl.convert_layout(acc_135_p1, L7_short)
    gl.store(states_ptrs_97, v0, mask=c_mask_103)

@gluon.jit
def twill_kernel_short(x_ptr, b_ptr, states_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr, hdim, dstate, chunk_size, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch):
    consumer_0_short(x_ptr, b_ptr, states_ptr, dt_ptr, dA_cumsum_ptr, seq_idx_ptr, hdim, dstate, chunk_size, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_b_batch, stride_b_seqlen, stride_b_head, stride_states_batch, stride_states_chunk, stride_states_head, stride_states_hdim, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_seq_idx_batch, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'b_ptr', 'states_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'seq_idx_ptr', 'hdim', 'dstate', 'chunk_size', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_x_hdim', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_b_dstate', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim', 'stride_states_dstate', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dt_csize', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_dA_cs_csize', 'stride_seq_idx_batch', 'stride_seq_idx_seqlen', 'HAS_SEQ_IDX', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'b_ptr', 'states_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'seq_idx_ptr', 'hdim', 'dstate', 'chunk_size', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_seq_idx_batch']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'b_ptr', 'states_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'seq_idx_ptr', 'hdim', 'dstate', 'chunk_size', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_seq_idx_batch']   # the arguments a launch key reads
CONSTEXPRS = {'stride_x_hdim': 1, 'stride_b_dstate': 1, 'stride_states_dstate': 1, 'stride_dt_csize': 1, 'stride_dA_cs_csize': 1, 'stride_seq_idx_seqlen': 1, 'HAS_SEQ_IDX': True, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['x_ptr', 'hdim', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['x_ptr', 'b_ptr', 'states_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'seq_idx_ptr', 'hdim', 'dstate', 'chunk_size', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_x_hdim', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_b_dstate', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim', 'stride_states_dstate', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dt_csize', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_dA_cs_csize', 'stride_seq_idx_batch', 'stride_seq_idx_seqlen', 'HAS_SEQ_IDX', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME_short = ['x_ptr', 'b_ptr', 'states_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'seq_idx_ptr', 'hdim', 'dstate', 'chunk_size', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_seq_idx_batch']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['x_ptr', 'b_ptr', 'states_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'seq_idx_ptr', 'hdim', 'dstate', 'chunk_size', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_b_batch', 'stride_b_seqlen', 'stride_b_head', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_hdim', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_seq_idx_batch']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_x_hdim': 1, 'stride_b_dstate': 1, 'stride_states_dstate': 1, 'stride_dt_csize': 1, 'stride_dA_cs_csize': 1, 'stride_seq_idx_seqlen': 1, 'HAS_SEQ_IDX': True, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32}         # the specialisation this kernel was generated for
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


SHORT_TRIPS = '(chunk_size + 32 - 1) // 32'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
SHORT_LIMIT = 8      # at most this many: the one-partition kernel (``launch_short``), else ``launch_long``
SHORT_LIMIT_FULL = 32      # ... or this many where the launch's CTAs outnumber what the SMs hold of the producer's
LONG_CTAS_PER_SM = 2      # (the producer's CTAs an SM; the one partition holds more: run 95); 0: no such rule


def launch(grid, *args, **kwargs):
    """Run the one-partition kernel where the loop is short at this launch, else the warp-specialized one."""
    bound = dict(zip(ARGUMENTS, args), **CONSTEXPRS)
    bound.update(kwargs)
    try:
        trips = _ev(SHORT_TRIPS, bound)
    except (NameError, TypeError):          # an argument missing or not a number: the long kernel's launch says
        return launch_long(grid, *args, **kwargs)
    limit = SHORT_LIMIT
    if SHORT_LIMIT < trips <= SHORT_LIMIT_FULL:
        try:
            ctas = 1
            for x in (grid(bound) if callable(grid) else grid):
                ctas *= int(x)
            if ctas > _sm_count() * LONG_CTAS_PER_SM:
                limit = SHORT_LIMIT_FULL
        except Exception:                   # noqa: BLE001 - no device to count the SMs of: the lower limit
            pass
    return (launch_short if trips <= limit else launch_long)(grid, *args, **kwargs)
