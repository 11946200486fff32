"""rope_fused_attention, written by twill from its joint schedule: I=241 L=387 (feasible), 1839 cycles per iteration predicted.

Decisions (each from the schedule):
- v_146 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (v_146): their addresses and masks spread over 128 threads
- register-read pointer tiles copied by their consumer with cp.async (k_100_as 2 x 8192 B, ck_107_as 2 x 8192 B, sk_111_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 196): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring v_146: 2 buffers of [64, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared operand qk_128_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 81968 bytes planned of 232448; maxnreg 256

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [8, 0], [0, 8], [0, 16], [64, 0]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[[16, 0], [32, 0]], block_bases=[], shape=[128, 32]))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 8], threads_per_warp=[4, 2, 4], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L7 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 0, 1], [0, 1, 0], [8, 0, 0], [0, 8, 0], [0, 16, 0], [64, 0, 0]], lane_bases=[[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp_bases=[[16, 0, 0], [32, 0, 0]], block_bases=[], shape=[128, 32, 2]))
L8 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1, 0], [8, 0, 0], [0, 8, 0], [0, 16, 0], [0, 0, 1], [64, 0, 0]], lane_bases=[[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp_bases=[[16, 0, 0], [32, 0, 0]], block_bases=[], shape=[128, 32, 2]))
L9 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 0, 16], [0, 1, 0], [64, 0, 0]], lane_bases=[[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp_bases=[[16, 0, 0], [32, 0, 0]], block_bases=[], shape=[128, 2, 32]))
L10 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L11 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L12 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L13 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L14 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 32], [0, 1], [0, 2], [16, 0], [32, 0]], lane_bases=[[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]], warp_bases=[[4, 0], [8, 0]], block_bases=[], shape=[64, 64]))
L15 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2, 4], threads_per_warp=[4, 1, 8], warps_per_cta=[4, 1, 1], order=[1, 2, 0]))
L16 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L17 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4, 2], threads_per_warp=[4, 8, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))

@gluon.jit
def consumer_0(q_ptr, k_ptr, v_ptr, cos_ptr, sin_ptr, o_ptr, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, v_146_buf, k_100_as, ck_107_as, sk_111_as, qk_128_st, v_146_ready, v_146_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        start_m = twill_pid0
        base_9 = twill_pid1
        base_10 = gl.cast(base_9, gl.int64)
        base_11 = gl.cast(N_CTX, gl.int64)
        base_12 = base_10 * base_11
        base_13 = base_12 * 64
        offs_m = start_m * 128
        offs_m_14 = gl.arange(0, 128, layout=L0)
        offs_m_15 = gl.arange(0, 128, layout=L1)
        offs_m_18 = offs_m + offs_m_14
        offs_m_19 = offs_m + offs_m_15
        offs_d = gl.arange(0, 64, layout=L0)
        offs_d_20 = gl.arange(0, 64, layout=L1)
        offs_d_21 = gl.arange(0, 64, layout=L2)
        m_mask_23 = offs_m_18 < N_CTX
        m_mask_24 = offs_m_19 < N_CTX
        q_25 = gl.expand_dims(m_mask_23, 1)
        q_26 = gl.expand_dims(m_mask_24, 1)
        q_27 = q_ptr + base_13
        q_28 = gl.expand_dims(offs_m_18, 1)
        q_29 = gl.expand_dims(offs_m_19, 1)
        q_30 = q_28 * 64
        q_32 = q_27 + q_30
        q_33 = gl.arange(0, 64, layout=L3)
        q_34 = gl.expand_dims(q_33, 0)
        q_35 = q_32.broadcast_to([128, 64])
        q_36 = q_34.broadcast_to([128, 64])
        q_37 = q_35 + q_36
        q_38 = q_25.broadcast_to([128, 64])
        q_39 = gl.load(q_37, mask=q_38, other=0.0)
        cq = q_29 * 32
        cq_41 = cos_ptr + cq
        cq_42 = gl.arange(0, 32, layout=L4)
        cq_43 = gl.expand_dims(cq_42, 0)
        cq_44 = cq_41.broadcast_to([128, 32])
        cq_45 = cq_43.broadcast_to([128, 32])
        cq_46 = cq_44 + cq_45
        cq_47 = q_26.broadcast_to([128, 32])
        cq_48 = gl.load(cq_46, mask=cq_47, other=0.0)
        q_49 = gl.convert_layout(cq_48, L5)
        sq_50 = sin_ptr + cq
        sq_51 = sq_50.broadcast_to([128, 32])
        sq_52 = sq_51 + cq_45
        sq_53 = gl.load(sq_52, mask=cq_47, other=0.0)
        q_54 = gl.convert_layout(sq_53, L5)
        q_55 = gl.convert_layout(gl.reshape(q_39, [128, 2, 32]), L6)
        q_56 = gl.permute(q_55, (0, 2, 1))
        q_57 = gl.convert_layout(q_56, L7)
        q_58, q_59 = gl.split(q_57)
        q_58 = gl.convert_layout(q_58, L5)
        q_59 = gl.convert_layout(q_59, L5)
        y = q_58.to(gl.float32)
        y_60 = y * q_49
        y_61 = q_59.to(gl.float32)
        y_62 = y_61 * q_54
        y_63 = y_60 - y_62
        y_64 = y_61 * q_49
        y_65 = y * q_54
        y_66 = y_64 + y_65
        y_67 = gl.convert_layout(gl.join(y_63, y_66), L8)
        q_68 = gl.convert_layout(gl.permute(y_67, (0, 2, 1)), L9)
        q_69 = gl.convert_layout(gl.reshape(q_68, [128, 64]), L10)
        q_70 = q_69.to(gl.float16)
        qk_scale = sm_scale * 1.44269502
        k = k_ptr + base_13
        k_74 = q_34.broadcast_to([64, 64])
        ck_75 = cq_43.broadcast_to([64, 32])
        twill_n = (N_CTX - 0 + 64 - 1) // 64
        m_ij_135 = gl.full([128], float("-inf"), gl.float32, layout=L11)
        offs_n_85 = (0 + (0 - 0) * 64) + offs_d  # load0_k: stage 0, partition 0 (group 0)
        k_93 = gl.expand_dims(offs_n_85, 1)  # load0_k: stage 0, partition 0 (group 0)
        k_95 = k_93 * 64  # load0_k: stage 0, partition 0 (group 0)
        n_mask_88 = offs_n_85 < N_CTX  # load0_k: stage 0, partition 0 (group 0)
        k_96 = k + k_95  # load0_k: stage 0, partition 0 (group 0)
        k_91 = gl.expand_dims(n_mask_88, 1)  # load0_k: stage 0, partition 0 (group 0)
        k_97 = k_96.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
        k_98 = k_97 + k_74  # load0_k: stage 0, partition 0 (group 0)
        k_99 = k_91.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_100_as.index((twill_base + 0 - 0) % 2), k_98, mask=k_99)  # load0_k: stage 0, partition 0 (group 0)
        else:  # load0_k: stage 0, partition 0 (group 0)
            k_100_as.index((twill_base + 0 - 0) % 2).store(gl.load(k_98, mask=k_99, other=0.0))  # load0_k: stage 0, partition 0 (group 0)
        offs_n_86 = (0 + (0 - 0) * 64) + offs_d_20  # load1_ck: stage 0, partition 0 (group 0)
        k_94 = gl.expand_dims(offs_n_86, 1)  # load1_ck: stage 0, partition 0 (group 0)
        ck_102 = k_94 * 32  # load1_ck: stage 0, partition 0 (group 0)
        n_mask_89 = offs_n_86 < N_CTX  # load1_ck: stage 0, partition 0 (group 0)
        ck_103 = cos_ptr + ck_102  # load1_ck: stage 0, partition 0 (group 0)
        sk_108 = sin_ptr + ck_102  # load2_sk: stage 0, partition 0 (group 0)
        k_92 = gl.expand_dims(n_mask_89, 1)  # load1_ck: stage 0, partition 0 (group 0)
        ck_104 = ck_103.broadcast_to([64, 32])  # load1_ck: stage 0, partition 0 (group 0)
        sk_109 = sk_108.broadcast_to([64, 32])  # load2_sk: stage 0, partition 0 (group 0)
        ck_105 = ck_104 + ck_75  # load1_ck: stage 0, partition 0 (group 0)
        ck_106 = k_92.broadcast_to([64, 32])  # load1_ck: stage 0, partition 0 (group 0)
        sk_110 = sk_109 + ck_75  # load2_sk: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_ck: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(ck_107_as.index((twill_base + 0 - 0) % 2), ck_105, mask=ck_106)  # load1_ck: stage 0, partition 0 (group 0)
        else:  # load1_ck: stage 0, partition 0 (group 0)
            ck_107_as.index((twill_base + 0 - 0) % 2).store(gl.load(ck_105, mask=ck_106, other=0.0))  # load1_ck: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_sk: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(sk_111_as.index((twill_base + 0 - 0) % 2), sk_110, mask=ck_106)  # load2_sk: stage 0, partition 0 (group 0)
        else:  # load2_sk: stage 0, partition 0 (group 0)
            sk_111_as.index((twill_base + 0 - 0) % 2).store(gl.load(sk_110, mask=ck_106, other=0.0))  # load2_sk: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        m_ij_135_p1 = m_ij_135
        l_i_142 = gl.full([128], 0.0, gl.float32, layout=L11)
        acc_153 = gl.full([128, 64], 0.0, gl.float32, layout=L12)
        offs_n_85 = (0 + (1 - 0) * 64) + offs_d  # load0_k: stage 0, partition 0 (group 0)
        k_93 = gl.expand_dims(offs_n_85, 1)  # load0_k: stage 0, partition 0 (group 0)
        k_95 = k_93 * 64  # load0_k: stage 0, partition 0 (group 0)
        n_mask_88 = offs_n_85 < N_CTX  # load0_k: stage 0, partition 0 (group 0)
        k_96 = k + k_95  # load0_k: stage 0, partition 0 (group 0)
        k_91 = gl.expand_dims(n_mask_88, 1)  # load0_k: stage 0, partition 0 (group 0)
        k_97 = k_96.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_100 = k_100_as.index((twill_base + 1 - 1) % 2).load(L13)  # load0_k: stage 1, partition 0 (group 0)
        k_98 = k_97 + k_74  # load0_k: stage 0, partition 0 (group 0)
        k_99 = k_91.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_100_as.index((twill_base + 1 - 0) % 2), k_98, mask=k_99)  # load0_k: stage 0, partition 0 (group 0)
        else:  # load0_k: stage 0, partition 0 (group 0)
            k_100_as.index((twill_base + 1 - 0) % 2).store(gl.load(k_98, mask=k_99, other=0.0))  # load0_k: stage 0, partition 0 (group 0)
        k_101 = gl.convert_layout(k_100, L14)  # convert0_k: stage 1, partition 0 (group 0)
        k_112 = gl.convert_layout(gl.reshape(k_101, [64, 2, 32]), L15)  # convert1_y: stage 1, partition 0 (group 0)
        k_113 = gl.permute(k_112, (0, 2, 1))  # convert1_y: stage 1, partition 0 (group 0)
        k_114, k_115 = gl.split(k_113)  # convert1_y: stage 1, partition 0 (group 0)
        k_114 = gl.convert_layout(k_114, L16)  # convert1_y: stage 1, partition 0 (group 0)
        k_115 = gl.convert_layout(k_115, L16)  # convert1_y: stage 1, partition 0 (group 0)
        y_116 = k_114.to(gl.float32)  # convert1_y: stage 1, partition 0 (group 0)
        y_118 = k_115.to(gl.float32)  # convert2_y: stage 1, partition 0 (group 0)
        offs_n_86 = (0 + (1 - 0) * 64) + offs_d_20  # load1_ck: stage 0, partition 0 (group 0)
        k_94 = gl.expand_dims(offs_n_86, 1)  # load1_ck: stage 0, partition 0 (group 0)
        ck_102 = k_94 * 32  # load1_ck: stage 0, partition 0 (group 0)
        n_mask_89 = offs_n_86 < N_CTX  # load1_ck: stage 0, partition 0 (group 0)
        ck_103 = cos_ptr + ck_102  # load1_ck: stage 0, partition 0 (group 0)
        sk_108 = sin_ptr + ck_102  # load2_sk: stage 0, partition 0 (group 0)
        k_92 = gl.expand_dims(n_mask_89, 1)  # load1_ck: stage 0, partition 0 (group 0)
        ck_104 = ck_103.broadcast_to([64, 32])  # load1_ck: stage 0, partition 0 (group 0)
        sk_109 = sk_108.broadcast_to([64, 32])  # load2_sk: stage 0, partition 0 (group 0)
        ck_107 = ck_107_as.index((twill_base + 1 - 1) % 2).load(L16)  # load1_ck: stage 1, partition 0 (group 0)
        sk_111 = sk_111_as.index((twill_base + 1 - 1) % 2).load(L16)  # load2_sk: stage 1, partition 0 (group 0)
        ck_105 = ck_104 + ck_75  # load1_ck: stage 0, partition 0 (group 0)
        ck_106 = k_92.broadcast_to([64, 32])  # load1_ck: stage 0, partition 0 (group 0)
        sk_110 = sk_109 + ck_75  # load2_sk: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_ck: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(ck_107_as.index((twill_base + 1 - 0) % 2), ck_105, mask=ck_106)  # load1_ck: stage 0, partition 0 (group 0)
        else:  # load1_ck: stage 0, partition 0 (group 0)
            ck_107_as.index((twill_base + 1 - 0) % 2).store(gl.load(ck_105, mask=ck_106, other=0.0))  # load1_ck: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_sk: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(sk_111_as.index((twill_base + 1 - 0) % 2), sk_110, mask=ck_106)  # load2_sk: stage 0, partition 0 (group 0)
        else:  # load2_sk: stage 0, partition 0 (group 0)
            sk_111_as.index((twill_base + 1 - 0) % 2).store(gl.load(sk_110, mask=ck_106, other=0.0))  # load2_sk: stage 0, partition 0 (group 0)
        y_117 = y_116 * ck_107  # elementwise1_y: stage 1, partition 0 (group 0)
        y_119 = y_118 * sk_111  # elementwise1_y: stage 1, partition 0 (group 0)
        y_120 = y_117 - y_119  # elementwise1_y: stage 1, partition 0 (group 0)
        y_121 = y_118 * ck_107  # elementwise2_y: stage 1, partition 0 (group 0)
        y_122 = y_116 * sk_111  # elementwise2_y: stage 1, partition 0 (group 0)
        y_123 = y_121 + y_122  # elementwise2_y: stage 1, partition 0 (group 0)
        y_124 = gl.convert_layout(gl.join(y_120, y_123), L17)  # convert3_k: stage 1, partition 0 (group 0)
        k_125 = gl.permute(y_124, (0, 2, 1))  # convert3_k: stage 1, partition 0 (group 0)
        k_126 = gl.convert_layout(gl.reshape(k_125, [64, 64]), L14)  # convert3_k: stage 1, partition 0 (group 0)
        k_127 = k_126.to(gl.float16)  # convert3_k: stage 1, partition 0 (group 0)
        qk_128 = qk_128_st.index((1 - 1) % 2)  # local_store0_qk: stage 1, partition 0 (group 0)
        qk_128.store(k_127)  # local_store0_qk: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_qk: stage 1, partition 0 (group 0)
        qk_129 = qk_128.permute((1, 0))  # dot0_qk: stage 1, partition 0 (group 0)
        tok_qk_130 = warpgroup_mma(q_70, qk_129, gl.full([128, 64], 0.0, gl.float32, layout=L12), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        offs_n_87 = (0 + (1 - 1) * 64) + offs_d_21  # elementwise0_qk: stage 1, partition 0 (group 0)
        n_mask_90 = offs_n_87 < N_CTX  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_130 = warpgroup_mma_wait(0, deps=(tok_qk_130,))
        qk_131 = qk_130 * qk_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_132 = gl.expand_dims(n_mask_90, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_133 = qk_132.broadcast_to([128, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_134 = gl.where(qk_133, qk_131, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        m_ij = gl.max(qk_134, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
        m_ij_135 = gl.maximum(m_ij_135_p1, m_ij)  # elementwise3_m_ij: stage 1, partition 0 (group 0)
        p = gl.expand_dims(m_ij_135, 1)  # sfu0_p: stage 1, partition 0 (group 0)
        p_136 = p.broadcast_to([128, 64])  # sfu0_p: stage 1, partition 0 (group 0)
        p_137 = qk_134 - p_136  # sfu0_p: stage 1, partition 0 (group 0)
        p_138 = gl.exp2(p_137)  # sfu0_p: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_153_p1 = acc_153
        l_i_142_p1 = l_i_142
        m_ij_135_p2 = m_ij_135_p1
        m_ij_135_p1 = m_ij_135
        p_138_p1 = p_138
        for twill_b in range(2, twill_n):
            alpha = m_ij_135_p2 - m_ij_135_p1  # sfu1_alpha: stage 2, partition 0 (group 0)
            alpha_139 = gl.exp2(alpha)  # sfu1_alpha: stage 2, partition 0 (group 0)
            offs_n = (0 + (twill_b - 0) * 64)  # load0_k: stage 0, partition 0 (group 0)
            offs_n_85 = offs_n + offs_d  # load0_k: stage 0, partition 0 (group 0)
            k_93 = gl.expand_dims(offs_n_85, 1)  # load0_k: stage 0, partition 0 (group 0)
            k_95 = k_93 * 64  # load0_k: stage 0, partition 0 (group 0)
            n_mask_88 = offs_n_85 < N_CTX  # load0_k: stage 0, partition 0 (group 0)
            k_96 = k + k_95  # load0_k: stage 0, partition 0 (group 0)
            k_91 = gl.expand_dims(n_mask_88, 1)  # load0_k: stage 0, partition 0 (group 0)
            k_97 = k_96.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            k_100 = k_100_as.index((twill_base + twill_b - 1) % 2).load(L13)  # load0_k: stage 1, partition 0 (group 0)
            k_98 = k_97 + k_74  # load0_k: stage 0, partition 0 (group 0)
            k_99 = k_91.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_k: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_100_as.index((twill_base + twill_b - 0) % 2), k_98, mask=k_99)  # load0_k: stage 0, partition 0 (group 0)
            else:  # load0_k: stage 0, partition 0 (group 0)
                k_100_as.index((twill_base + twill_b - 0) % 2).store(gl.load(k_98, mask=k_99, other=0.0))  # load0_k: stage 0, partition 0 (group 0)
            k_101 = gl.convert_layout(k_100, L14)  # convert0_k: stage 1, partition 0 (group 0)
            acc_149 = gl.expand_dims(alpha_139, 1)  # elementwise5_acc: stage 2, partition 0 (group 0)
            acc_150 = acc_149.broadcast_to([128, 64])  # elementwise5_acc: stage 2, partition 0 (group 0)
            acc_151 = acc_153_p1 * acc_150  # elementwise5_acc: stage 2, partition 0 (group 0)
            l_i_141 = gl.sum(p_138_p1, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
            k_112 = gl.convert_layout(gl.reshape(k_101, [64, 2, 32]), L15)  # convert1_y: stage 1, partition 0 (group 0)
            k_113 = gl.permute(k_112, (0, 2, 1))  # convert1_y: stage 1, partition 0 (group 0)
            k_114, k_115 = gl.split(k_113)  # convert1_y: stage 1, partition 0 (group 0)
            k_114 = gl.convert_layout(k_114, L16)  # convert1_y: stage 1, partition 0 (group 0)
            k_115 = gl.convert_layout(k_115, L16)  # convert1_y: stage 1, partition 0 (group 0)
            y_116 = k_114.to(gl.float32)  # convert1_y: stage 1, partition 0 (group 0)
            acc_148 = p_138_p1.to(gl.float16)  # convert4_acc: stage 2, partition 0 (group 0)
            acc_152 = gl.convert_layout(acc_148, L10)  # convert4_acc: stage 2, partition 0 (group 0)
            y_118 = k_115.to(gl.float32)  # convert2_y: stage 1, partition 0 (group 0)
            offs_n_83 = (0 + (twill_b - 0) * 64)  # load1_ck: stage 0, partition 0 (group 0)
            offs_n_86 = offs_n_83 + offs_d_20  # load1_ck: stage 0, partition 0 (group 0)
            k_94 = gl.expand_dims(offs_n_86, 1)  # load1_ck: stage 0, partition 0 (group 0)
            ck_102 = k_94 * 32  # load1_ck: stage 0, partition 0 (group 0)
            n_mask_89 = offs_n_86 < N_CTX  # load1_ck: stage 0, partition 0 (group 0)
            ck_103 = cos_ptr + ck_102  # load1_ck: stage 0, partition 0 (group 0)
            sk_108 = sin_ptr + ck_102  # load2_sk: stage 0, partition 0 (group 0)
            k_92 = gl.expand_dims(n_mask_89, 1)  # load1_ck: stage 0, partition 0 (group 0)
            ck_104 = ck_103.broadcast_to([64, 32])  # load1_ck: stage 0, partition 0 (group 0)
            sk_109 = sk_108.broadcast_to([64, 32])  # load2_sk: stage 0, partition 0 (group 0)
            ck_107 = ck_107_as.index((twill_base + twill_b - 1) % 2).load(L16)  # load1_ck: stage 1, partition 0 (group 0)
            sk_111 = sk_111_as.index((twill_base + twill_b - 1) % 2).load(L16)  # load2_sk: stage 1, partition 0 (group 0)
            ck_105 = ck_104 + ck_75  # load1_ck: stage 0, partition 0 (group 0)
            ck_106 = k_92.broadcast_to([64, 32])  # load1_ck: stage 0, partition 0 (group 0)
            sk_110 = sk_109 + ck_75  # load2_sk: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_ck: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(ck_107_as.index((twill_base + twill_b - 0) % 2), ck_105, mask=ck_106)  # load1_ck: stage 0, partition 0 (group 0)
            else:  # load1_ck: stage 0, partition 0 (group 0)
                ck_107_as.index((twill_base + twill_b - 0) % 2).store(gl.load(ck_105, mask=ck_106, other=0.0))  # load1_ck: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_sk: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(sk_111_as.index((twill_base + twill_b - 0) % 2), sk_110, mask=ck_106)  # load2_sk: stage 0, partition 0 (group 0)
            else:  # load2_sk: stage 0, partition 0 (group 0)
                sk_111_as.index((twill_base + twill_b - 0) % 2).store(gl.load(sk_110, mask=ck_106, other=0.0))  # load2_sk: stage 0, partition 0 (group 0)
            y_117 = y_116 * ck_107  # elementwise1_y: stage 1, partition 0 (group 0)
            y_119 = y_118 * sk_111  # elementwise1_y: stage 1, partition 0 (group 0)
            y_120 = y_117 - y_119  # elementwise1_y: stage 1, partition 0 (group 0)
            y_121 = y_118 * ck_107  # elementwise2_y: stage 1, partition 0 (group 0)
            y_122 = y_116 * sk_111  # elementwise2_y: stage 1, partition 0 (group 0)
            y_123 = y_121 + y_122  # elementwise2_y: stage 1, partition 0 (group 0)
            mbarrier.wait(v_146_ready.index((twill_base + twill_b - 2) % 2), ((twill_base + twill_b - 2) // 2) & 1)
            fence_async_shared()
            tok_acc_153 = warpgroup_mma(acc_152, v_146_buf.index((twill_base + twill_b - 2) % 2), acc_151, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
            l_i_140 = l_i_142_p1 * alpha_139  # elementwise4_l_i: stage 2, partition 0 (group 0)
            l_i_142 = l_i_140 + l_i_141  # elementwise4_l_i: stage 2, partition 0 (group 0)
            y_124 = gl.convert_layout(gl.join(y_120, y_123), L17)  # convert3_k: stage 1, partition 0 (group 0)
            k_125 = gl.permute(y_124, (0, 2, 1))  # convert3_k: stage 1, partition 0 (group 0)
            k_126 = gl.convert_layout(gl.reshape(k_125, [64, 64]), L14)  # convert3_k: stage 1, partition 0 (group 0)
            k_127 = k_126.to(gl.float16)  # convert3_k: stage 1, partition 0 (group 0)
            qk_128 = qk_128_st.index((twill_b - 1) % 2)  # local_store0_qk: stage 1, partition 0 (group 0)
            qk_128.store(k_127)  # local_store0_qk: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_qk: stage 1, partition 0 (group 0)
            qk_129 = qk_128.permute((1, 0))  # dot0_qk: stage 1, partition 0 (group 0)
            tok_qk_130 = warpgroup_mma(q_70, qk_129, gl.full([128, 64], 0.0, gl.float32, layout=L12), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            offs_n_84 = (0 + (twill_b - 1) * 64)  # elementwise0_qk: stage 1, partition 0 (group 0)
            offs_n_87 = offs_n_84 + offs_d_21  # elementwise0_qk: stage 1, partition 0 (group 0)
            n_mask_90 = offs_n_87 < N_CTX  # elementwise0_qk: stage 1, partition 0 (group 0)
            acc_153, qk_130 = warpgroup_mma_wait(0, deps=(tok_acc_153, tok_qk_130,))
            mbarrier.arrive(v_146_empty.index((twill_base + twill_b - 2) % 2))
            qk_131 = qk_130 * qk_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_132 = gl.expand_dims(n_mask_90, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_133 = qk_132.broadcast_to([128, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_134 = gl.where(qk_133, qk_131, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
            m_ij = gl.max(qk_134, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
            m_ij_135 = gl.maximum(m_ij_135_p1, m_ij)  # elementwise3_m_ij: stage 1, partition 0 (group 0)
            p = gl.expand_dims(m_ij_135, 1)  # sfu0_p: stage 1, partition 0 (group 0)
            p_136 = p.broadcast_to([128, 64])  # sfu0_p: stage 1, partition 0 (group 0)
            p_137 = qk_134 - p_136  # sfu0_p: stage 1, partition 0 (group 0)
            p_138 = gl.exp2(p_137)  # sfu0_p: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_153_p1 = acc_153
            l_i_142_p1 = l_i_142
            m_ij_135_p2 = m_ij_135_p1
            m_ij_135_p1 = m_ij_135
            p_138_p1 = p_138
        alpha = m_ij_135_p2 - m_ij_135_p1  # sfu1_alpha: stage 2, partition 0 (group 0)
        alpha_139 = gl.exp2(alpha)  # sfu1_alpha: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_100 = k_100_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L13)  # load0_k: stage 1, partition 0 (group 0)
        k_101 = gl.convert_layout(k_100, L14)  # convert0_k: stage 1, partition 0 (group 0)
        acc_149 = gl.expand_dims(alpha_139, 1)  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_150 = acc_149.broadcast_to([128, 64])  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_151 = acc_153_p1 * acc_150  # elementwise5_acc: stage 2, partition 0 (group 0)
        l_i_141 = gl.sum(p_138_p1, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
        k_112 = gl.convert_layout(gl.reshape(k_101, [64, 2, 32]), L15)  # convert1_y: stage 1, partition 0 (group 0)
        k_113 = gl.permute(k_112, (0, 2, 1))  # convert1_y: stage 1, partition 0 (group 0)
        k_114, k_115 = gl.split(k_113)  # convert1_y: stage 1, partition 0 (group 0)
        k_114 = gl.convert_layout(k_114, L16)  # convert1_y: stage 1, partition 0 (group 0)
        k_115 = gl.convert_layout(k_115, L16)  # convert1_y: stage 1, partition 0 (group 0)
        y_116 = k_114.to(gl.float32)  # convert1_y: stage 1, partition 0 (group 0)
        acc_148 = p_138_p1.to(gl.float16)  # convert4_acc: stage 2, partition 0 (group 0)
        acc_152 = gl.convert_layout(acc_148, L10)  # convert4_acc: stage 2, partition 0 (group 0)
        y_118 = k_115.to(gl.float32)  # convert2_y: stage 1, partition 0 (group 0)
        ck_107 = ck_107_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L16)  # load1_ck: stage 1, partition 0 (group 0)
        sk_111 = sk_111_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L16)  # load2_sk: stage 1, partition 0 (group 0)
        y_117 = y_116 * ck_107  # elementwise1_y: stage 1, partition 0 (group 0)
        y_119 = y_118 * sk_111  # elementwise1_y: stage 1, partition 0 (group 0)
        y_120 = y_117 - y_119  # elementwise1_y: stage 1, partition 0 (group 0)
        y_121 = y_118 * ck_107  # elementwise2_y: stage 1, partition 0 (group 0)
        y_122 = y_116 * sk_111  # elementwise2_y: stage 1, partition 0 (group 0)
        y_123 = y_121 + y_122  # elementwise2_y: stage 1, partition 0 (group 0)
        mbarrier.wait(v_146_ready.index((twill_base + (twill_n - 1 + 1) - 2) % 2), ((twill_base + (twill_n - 1 + 1) - 2) // 2) & 1)
        fence_async_shared()
        tok_acc_153 = warpgroup_mma(acc_152, v_146_buf.index((twill_base + (twill_n - 1 + 1) - 2) % 2), acc_151, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
        l_i_140 = l_i_142_p1 * alpha_139  # elementwise4_l_i: stage 2, partition 0 (group 0)
        l_i_142 = l_i_140 + l_i_141  # elementwise4_l_i: stage 2, partition 0 (group 0)
        y_124 = gl.convert_layout(gl.join(y_120, y_123), L17)  # convert3_k: stage 1, partition 0 (group 0)
        k_125 = gl.permute(y_124, (0, 2, 1))  # convert3_k: stage 1, partition 0 (group 0)
        k_126 = gl.convert_layout(gl.reshape(k_125, [64, 64]), L14)  # convert3_k: stage 1, partition 0 (group 0)
        k_127 = k_126.to(gl.float16)  # convert3_k: stage 1, partition 0 (group 0)
        qk_128 = qk_128_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_qk: stage 1, partition 0 (group 0)
        qk_128.store(k_127)  # local_store0_qk: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_qk: stage 1, partition 0 (group 0)
        qk_129 = qk_128.permute((1, 0))  # dot0_qk: stage 1, partition 0 (group 0)
        tok_qk_130 = warpgroup_mma(q_70, qk_129, gl.full([128, 64], 0.0, gl.float32, layout=L12), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        offs_n_84 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_qk: stage 1, partition 0 (group 0)
        offs_n_87 = offs_n_84 + offs_d_21  # elementwise0_qk: stage 1, partition 0 (group 0)
        n_mask_90 = offs_n_87 < N_CTX  # elementwise0_qk: stage 1, partition 0 (group 0)
        acc_153, qk_130 = warpgroup_mma_wait(0, deps=(tok_acc_153, tok_qk_130,))
        mbarrier.arrive(v_146_empty.index((twill_base + (twill_n - 1 + 1) - 2) % 2))
        qk_131 = qk_130 * qk_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_132 = gl.expand_dims(n_mask_90, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_133 = qk_132.broadcast_to([128, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_134 = gl.where(qk_133, qk_131, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        m_ij = gl.max(qk_134, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
        m_ij_135 = gl.maximum(m_ij_135_p1, m_ij)  # elementwise3_m_ij: stage 1, partition 0 (group 0)
        p = gl.expand_dims(m_ij_135, 1)  # sfu0_p: stage 1, partition 0 (group 0)
        p_136 = p.broadcast_to([128, 64])  # sfu0_p: stage 1, partition 0 (group 0)
        p_137 = qk_134 - p_136  # sfu0_p: stage 1, partition 0 (group 0)
        p_138 = gl.exp2(p_137)  # sfu0_p: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_153_p1 = acc_153
        l_i_142_p1 = l_i_142
        m_ij_135_p2 = m_ij_135_p1
        m_ij_135_p1 = m_ij_135
        p_138_p1 = p_138
        alpha = m_ij_135_p2 - m_ij_135_p1  # sfu1_alpha: stage 2, partition 0 (group 0)
        alpha_139 = gl.exp2(alpha)  # sfu1_alpha: stage 2, partition 0 (group 0)
        acc_149 = gl.expand_dims(alpha_139, 1)  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_150 = acc_149.broadcast_to([128, 64])  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_151 = acc_153_p1 * acc_150  # elementwise5_acc: stage 2, partition 0 (group 0)
        l_i_141 = gl.sum(p_138_p1, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
        acc_148 = p_138_p1.to(gl.float16)  # convert4_acc: stage 2, partition 0 (group 0)
        acc_152 = gl.convert_layout(acc_148, L10)  # convert4_acc: stage 2, partition 0 (group 0)
        mbarrier.wait(v_146_ready.index((twill_base + (twill_n - 1 + 2) - 2) % 2), ((twill_base + (twill_n - 1 + 2) - 2) // 2) & 1)
        fence_async_shared()
        tok_acc_153 = warpgroup_mma(acc_152, v_146_buf.index((twill_base + (twill_n - 1 + 2) - 2) % 2), acc_151, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
        l_i_140 = l_i_142_p1 * alpha_139  # elementwise4_l_i: stage 2, partition 0 (group 0)
        l_i_142 = l_i_140 + l_i_141  # elementwise4_l_i: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_153 = warpgroup_mma_wait(0, deps=(tok_acc_153,))
        mbarrier.arrive(v_146_empty.index((twill_base + (twill_n - 1 + 2) - 2) % 2))
        acc_153_p1 = acc_153
        l_i_142_p1 = l_i_142
        m_ij_135_p2 = m_ij_135_p1
        m_ij_135_p1 = m_ij_135
        p_138_p1 = p_138
        qk_128_st._keep_alive()
        v_146_buf._keep_alive()
        acc_77 = gl.expand_dims(l_i_142_p1, 1)
        acc_78 = acc_77.broadcast_to([128, 64])
        acc_79 = acc_153_p1 / acc_78
        v0 = o_ptr + base_13
        v2 = v0 + q_30
        v3 = v2.broadcast_to([128, 64])
        v4 = v3 + q_36
        v5 = acc_79.to(gl.float16)
        v6 = gl.convert_layout(v5, L13)
        gl.store(v4, v6, mask=q_38)
        twill_base += twill_n

@gluon.jit
def producer_1(q_ptr, k_ptr, v_ptr, cos_ptr, sin_ptr, o_ptr, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, v_146_buf, k_100_as, ck_107_as, sk_111_as, qk_128_st, v_146_ready, v_146_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        base_9 = twill_pid1
        base_10 = gl.cast(base_9, gl.int64)
        base_11 = gl.cast(N_CTX, gl.int64)
        base_12 = base_10 * base_11
        base_13 = base_12 * 64
        offs_d = gl.arange(0, 64, layout=L0)
        q_33 = gl.arange(0, 64, layout=L3)
        q_34 = gl.expand_dims(q_33, 0)
        k_74 = q_34.broadcast_to([64, 64])
        v = v_ptr + base_13
        for acc_80 in range(0, N_CTX, 64):
            twill_k = twill_base + (acc_80 - 0) // 64
            offs_n_85 = acc_80 + offs_d
            n_mask_88 = offs_n_85 < N_CTX
            k_91 = gl.expand_dims(n_mask_88, 1)
            k_93 = gl.expand_dims(offs_n_85, 1)
            k_95 = k_93 * 64
            k_99 = k_91.broadcast_to([64, 64])
            v_143 = v + k_95
            v_144 = v_143.broadcast_to([64, 64])
            v_145 = v_144 + k_74
            mbarrier.wait(v_146_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_146_buf.index(twill_k % 2), v_145, mask=k_99)  # load3_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(v_146_ready.index(twill_k % 2), increment_count=False)
            else:
                v_146_buf.index(twill_k % 2).store(gl.load(v_145, mask=k_99, other=0.0))  # load3_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_146_ready.index(twill_k % 2), count=128)
        twill_base += (N_CTX - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(q_ptr, k_ptr, v_ptr, cos_ptr, sin_ptr, o_ptr, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    v_146_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_100_as = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    ck_107_as = gl.allocate_shared_memory(gl.float32, [2, 64, 32], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    sk_111_as = gl.allocate_shared_memory(gl.float32, [2, 64, 32], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    qk_128_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    v_146_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_146_ready.index(i), count=128)
    v_146_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_146_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (q_ptr, k_ptr, v_ptr, cos_ptr, sin_ptr, o_ptr, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, v_146_buf, k_100_as, ck_107_as, sk_111_as, qk_128_st, v_146_ready, v_146_empty, TWILL_COPY)),
        (producer_1, (q_ptr, k_ptr, v_ptr, cos_ptr, sin_ptr, o_ptr, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, v_146_buf, k_100_as, ck_107_as, sk_111_as, qk_128_st, v_146_ready, v_146_empty, TWILL_COPY)),
    ], [4], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q_ptr', 'k_ptr', 'v_ptr', 'cos_ptr', 'sin_ptr', 'o_ptr', 'sm_scale', 'N_CTX', 'HEAD_DIM', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['q_ptr', 'k_ptr', 'v_ptr', 'cos_ptr', 'sin_ptr', 'o_ptr', 'sm_scale', 'N_CTX', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q_ptr', 'k_ptr', 'v_ptr', 'cos_ptr', 'sin_ptr', 'o_ptr', 'sm_scale', 'N_CTX', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'HEAD_DIM': 64, 'BLOCK_M': 128, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['k_ptr', 'v_ptr', 'cos_ptr', 'sin_ptr']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(N_CTX + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} ((N_CTX + 64 - 1) // 64): run the Triton kernel for it")
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
