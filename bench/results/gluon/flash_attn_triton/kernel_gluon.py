"""_fwd_kernel, written by twill from its joint schedule: I=336 L=336 (optimal), 3957 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_67, v_85): their addresses and masks spread over 128 threads
- ring k_67 made 2 deep to fit shared memory
- k_67, v_85 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over K, V when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 170): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 136 registers per thread (needs about 136): cp.async copies into the rings
- ring k_67: 2 buffers of [128, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring v_85: 3 buffers of [128, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- staged operand p_87_st: partition 0 stores the [128, 128] f16 tile once per iteration in shared memory, read there by dot1_acc_o (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 229472 bytes planned of 232448; maxnreg 168

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(Q, K, V, Bias, Out, Lse, TMP, softmax_scale, stride_qb, stride_qh, stride_qm, stride_kb, stride_kh, stride_kn, stride_vb, stride_vh, stride_vn, stride_bb, stride_bh, stride_bm, stride_ob, stride_oh, stride_om, nheads, seqlen_q, seqlen_k, seqlen_q_rounded, headdim, CACHE_KEY_SEQLEN_Q, CACHE_KEY_SEQLEN_K, twill_g0, twill_g1, twill_g2, twill_box_k_67, twill_box_v_85, k_67_buf, v_85_buf, p_87_st, k_67_ready, k_67_empty, v_85_ready, v_85_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        start_m = twill_pid0
        off_hb = twill_pid1
        off_b = off_hb // nheads
        off_h = off_hb % nheads
        offs_m = start_m * 128
        offs_m_1 = gl.arange(0, 128, layout=L0)
        offs_m_2 = gl.arange(0, 128, layout=L1)
        offs_m_3 = gl.arange(0, 128, layout=L2)
        offs_m_7 = offs_m + offs_m_1
        offs_m_8 = offs_m + offs_m_2
        offs_m_9 = offs_m + offs_m_3
        q_ptrs = off_b * stride_qb
        q_ptrs_10 = Q + q_ptrs
        q_ptrs_11 = off_h * stride_qh
        q_ptrs_12 = q_ptrs_10 + q_ptrs_11
        q_ptrs_13 = gl.expand_dims(offs_m_7, 1)
        q_ptrs_15 = q_ptrs_13 * stride_qm
        q_ptrs_16 = gl.arange(0, 128, layout=L3)
        q_ptrs_17 = gl.expand_dims(q_ptrs_16, 0)
        q_ptrs_18 = q_ptrs_15.broadcast_to([128, 128])
        q_ptrs_19 = q_ptrs_17.broadcast_to([128, 128])
        q_ptrs_20 = q_ptrs_18 + q_ptrs_19
        q_ptrs_22 = q_ptrs_12 + q_ptrs_20
        t_ptrs = off_hb * seqlen_q_rounded
        t_ptrs_42 = TMP + t_ptrs
        t_ptrs_45 = t_ptrs_42 + offs_m_8
        t_ptrs_46 = t_ptrs_42 + offs_m_9
        q = gl.load(q_ptrs_22)
        q_47 = gl.allocate_shared_memory(gl.float16, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q)
        fence_async_shared()
        twill_n = (seqlen_k - 0 + 128 - 1) // 128
        lse_i_92 = gl.full([128], float("-inf"), gl.float32, layout=L1)
        m_ij_72 = gl.full([128], float("-inf"), gl.float32, layout=L1)
        acc_o_89 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
        acc_o_89_p1 = acc_o_89
        lse_i_92_p1 = lse_i_92
        m_ij_72_p1 = m_ij_72
        for twill_b in range(0, twill_n):
            mbarrier.wait(k_67_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
            fence_async_shared()
            tok_qk_69 = warpgroup_mma(q_47, k_67_buf.index((twill_base + twill_b - 0) % 2).permute((1, 0)), gl.full([128, 128], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            acc_o_89_p1, qk_69 = warpgroup_mma_wait(0, deps=(acc_o_89_p1, tok_qk_69,))
            mbarrier.arrive(v_85_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(k_67_empty.index((twill_base + twill_b - 0) % 2))
            m_ij_70 = gl.max(qk_69, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
            m_ij_71 = m_ij_70 * softmax_scale  # elementwise0_m_ij: stage 0, partition 0 (group 0)
            m_ij_72 = gl.maximum(m_ij_71, lse_i_92_p1)  # elementwise0_m_ij: stage 0, partition 0 (group 0)
            acc_o_scale = m_ij_72_p1 - m_ij_72  # sfu1_acc_o_scale: stage 0, partition 0 (group 0)
            acc_o_scale_78 = gl.exp(acc_o_scale)  # sfu1_acc_o_scale: stage 0, partition 0 (group 0)
            v4 = gl.convert_layout(acc_o_scale_78, L2)  # convert0: stage 0, partition 0 (group 0)
            l_i_new = lse_i_92_p1 - m_ij_72  # sfu2_l_i_new: stage 0, partition 0 (group 0)
            l_i_new_90 = gl.exp(l_i_new)  # sfu2_l_i_new: stage 0, partition 0 (group 0)
            gl.store(t_ptrs_46, v4)  # store0: stage 0, partition 0 (group 0)
            p_73 = qk_69 * softmax_scale  # sfu0_p: stage 0, partition 0 (group 0)
            p_74 = gl.expand_dims(m_ij_72, 1)  # sfu0_p: stage 0, partition 0 (group 0)
            p_75 = p_74.broadcast_to([128, 128])  # sfu0_p: stage 0, partition 0 (group 0)
            p_76 = p_73 - p_75  # sfu0_p: stage 0, partition 0 (group 0)
            p_77 = gl.exp(p_76)  # sfu0_p: stage 0, partition 0 (group 0)
            gl.thread_barrier()
            acc_o_scale_79 = gl.load(t_ptrs_45)  # load1_acc_o_scale: stage 0, partition 0 (group 0)
            acc_o_80 = gl.expand_dims(acc_o_scale_79, 1)  # elementwise1_acc_o: stage 0, partition 0 (group 0)
            acc_o_81 = acc_o_80.broadcast_to([128, 128])  # elementwise1_acc_o: stage 0, partition 0 (group 0)
            acc_o_82 = acc_o_89_p1 * acc_o_81  # elementwise1_acc_o: stage 0, partition 0 (group 0)
            l_ij = gl.sum(p_77, axis=1)  # reduce1_l_ij: stage 0, partition 0 (group 0)
            p_87 = p_77.to(gl.float16)  # convert1_p: stage 0, partition 0 (group 0)
            mbarrier.wait(v_85_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            p_87_st.store(p_87)  # dot1_acc_o: stage 0, partition 0 (group 0)
            fence_async_shared()  # dot1_acc_o: stage 0, partition 0 (group 0)
            tok_acc_o_89 = warpgroup_mma(p_87_st, v_85_buf.index((twill_base + twill_b - 0) % 3), acc_o_82, is_async=True)  # dot1_acc_o: stage 0, partition 0 (group 0)
            l_i_new_91 = l_i_new_90 + l_ij  # sfu3_lse_i: stage 0, partition 0 (group 0)
            lse_i = gl.log(l_i_new_91)  # sfu3_lse_i: stage 0, partition 0 (group 0)
            lse_i_92 = m_ij_72 + lse_i  # elementwise2_lse_i: stage 0, partition 0 (group 0)
            acc_o_89 = warpgroup_mma_wait(1, deps=(tok_acc_o_89,))
            acc_o_89_p1 = acc_o_89
            lse_i_92_p1 = lse_i_92
            m_ij_72_p1 = m_ij_72
        acc_o_89_p1 = warpgroup_mma_wait(0, deps=(acc_o_89_p1,))
        q_47._keep_alive()
        k_67_buf._keep_alive()
        p_87_st._keep_alive()
        v_85_buf._keep_alive()
        mbarrier.arrive(v_85_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        o_scale = m_ij_72_p1 - lse_i_92_p1
        o_scale_48 = gl.exp(o_scale)
        v0 = gl.convert_layout(o_scale_48, L2)
        gl.store(t_ptrs_46, v0)
        gl.thread_barrier()
        o_scale_49 = gl.load(t_ptrs_45)
        acc_o_50 = gl.expand_dims(o_scale_49, 1)
        acc_o_51 = acc_o_50.broadcast_to([128, 128])
        acc_o_52 = acc_o_89_p1 * acc_o_51
        lse_ptrs = Lse + t_ptrs
        lse_ptrs_54 = lse_ptrs + offs_m_9
        v1 = gl.convert_layout(lse_i_92_p1, L2)
        gl.store(lse_ptrs_54, v1)
        out_ptrs = off_b * stride_ob
        out_ptrs_55 = Out + out_ptrs
        out_ptrs_56 = off_h * stride_oh
        out_ptrs_57 = out_ptrs_55 + out_ptrs_56
        out_ptrs_59 = q_ptrs_13 * stride_om
        out_ptrs_60 = out_ptrs_59.broadcast_to([128, 128])
        out_ptrs_61 = out_ptrs_60 + q_ptrs_19
        out_ptrs_63 = out_ptrs_57 + out_ptrs_61
        v2 = acc_o_52.to(gl.float16)
        v3 = gl.convert_layout(v2, L5)
        gl.store(out_ptrs_63, v3)
        twill_base += twill_n

@gluon.jit
def producer_1(Q, K, V, Bias, Out, Lse, TMP, softmax_scale, stride_qb, stride_qh, stride_qm, stride_kb, stride_kh, stride_kn, stride_vb, stride_vh, stride_vn, stride_bb, stride_bh, stride_bm, stride_ob, stride_oh, stride_om, nheads, seqlen_q, seqlen_k, seqlen_q_rounded, headdim, CACHE_KEY_SEQLEN_Q, CACHE_KEY_SEQLEN_K, twill_g0, twill_g1, twill_g2, twill_box_k_67, twill_box_v_85, k_67_buf, v_85_buf, p_87_st, k_67_ready, k_67_empty, v_85_ready, v_85_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        off_hb = twill_pid1
        off_b = off_hb // nheads
        off_h = off_hb % nheads
        offs_m_1 = gl.arange(0, 128, layout=L6)
        q_ptrs_16 = gl.arange(0, 128, layout=L7)
        q_ptrs_17 = gl.expand_dims(q_ptrs_16, 0)
        q_ptrs_19 = q_ptrs_17.broadcast_to([128, 128])
        k_ptrs = off_b * stride_kb
        k_ptrs_23 = K + k_ptrs
        k_ptrs_24 = off_h * stride_kh
        k_ptrs_25 = k_ptrs_23 + k_ptrs_24
        k_ptrs_26 = gl.expand_dims(offs_m_1, 1)
        k_ptrs_28 = k_ptrs_26 * stride_kn
        k_ptrs_29 = k_ptrs_28.broadcast_to([128, 128])
        k_ptrs_30 = k_ptrs_29 + q_ptrs_19
        k_ptrs_32 = k_ptrs_25 + k_ptrs_30
        v_ptrs = off_b * stride_vb
        v_ptrs_33 = V + v_ptrs
        v_ptrs_34 = off_h * stride_vh
        v_ptrs_35 = v_ptrs_33 + v_ptrs_34
        v_ptrs_37 = k_ptrs_26 * stride_vn
        v_ptrs_38 = v_ptrs_37.broadcast_to([128, 128])
        v_ptrs_39 = v_ptrs_38 + q_ptrs_19
        v_ptrs_41 = v_ptrs_35 + v_ptrs_39
        for acc_o_64 in range(0, seqlen_k, 128):
            twill_k = twill_base + (acc_o_64 - 0) // 128
            k = acc_o_64 * stride_kn
            k_66 = k_ptrs_32 + k
            v = acc_o_64 * stride_vn
            v_84 = v_ptrs_41 + v
            mbarrier.wait(k_67_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(k_67_ready.index(twill_k % 2), twill_box_k_67.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_k_67, [128 * ((acc_o_64 - 0) // 128), off_b * stride_kb + off_h * stride_kh], k_67_ready.index(twill_k % 2), k_67_buf.index(twill_k % 2))  # load0_k: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(k_67_buf.index(twill_k % 2), k_66)  # load0_k: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(k_67_ready.index(twill_k % 2), increment_count=False)
                else:
                    k_67_buf.index(twill_k % 2).store(gl.load(k_66))  # load0_k: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(k_67_ready.index(twill_k % 2), count=128)
            mbarrier.wait(v_85_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(v_85_ready.index(twill_k % 3), twill_box_v_85.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_v_85, [128 * ((acc_o_64 - 0) // 128), off_b * stride_vb + off_h * stride_vh], v_85_ready.index(twill_k % 3), v_85_buf.index(twill_k % 3))  # load2_v: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(v_85_buf.index(twill_k % 3), v_84)  # load2_v: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(v_85_ready.index(twill_k % 3), increment_count=False)
                else:
                    v_85_buf.index(twill_k % 3).store(gl.load(v_84))  # load2_v: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(v_85_ready.index(twill_k % 3), count=128)
        twill_base += (seqlen_k - 0 + 128 - 1) // 128

@gluon.jit
def twill_kernel(Q, K, V, Bias, Out, Lse, TMP, softmax_scale, stride_qb, stride_qh, stride_qm, stride_kb, stride_kh, stride_kn, stride_vb, stride_vh, stride_vn, stride_bb, stride_bh, stride_bm, stride_ob, stride_oh, stride_om, nheads, seqlen_q, seqlen_k, seqlen_q_rounded, headdim, CACHE_KEY_SEQLEN_Q, CACHE_KEY_SEQLEN_K, twill_g0, twill_g1, twill_g2, twill_box_k_67, twill_box_v_85, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    k_67_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    v_85_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    p_87_st = gl.allocate_shared_memory(gl.float16, [128, 128], gl.NVMMASharedLayout.get_default_for([128, 128], gl.float16))
    k_67_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_67_ready.index(i), count=1 if TWILL_TMA else 128)
    k_67_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_67_empty.index(i), count=1)
    v_85_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_85_ready.index(i), count=1 if TWILL_TMA else 128)
    v_85_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_85_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, Bias, Out, Lse, TMP, softmax_scale, stride_qb, stride_qh, stride_qm, stride_kb, stride_kh, stride_kn, stride_vb, stride_vh, stride_vn, stride_bb, stride_bh, stride_bm, stride_ob, stride_oh, stride_om, nheads, seqlen_q, seqlen_k, seqlen_q_rounded, headdim, CACHE_KEY_SEQLEN_Q, CACHE_KEY_SEQLEN_K, twill_g0, twill_g1, twill_g2, twill_box_k_67, twill_box_v_85, k_67_buf, v_85_buf, p_87_st, k_67_ready, k_67_empty, v_85_ready, v_85_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (Q, K, V, Bias, Out, Lse, TMP, softmax_scale, stride_qb, stride_qh, stride_qm, stride_kb, stride_kh, stride_kn, stride_vb, stride_vh, stride_vn, stride_bb, stride_bh, stride_bm, stride_ob, stride_oh, stride_om, nheads, seqlen_q, seqlen_k, seqlen_q_rounded, headdim, CACHE_KEY_SEQLEN_Q, CACHE_KEY_SEQLEN_K, twill_g0, twill_g1, twill_g2, twill_box_k_67, twill_box_v_85, k_67_buf, v_85_buf, p_87_st, k_67_ready, k_67_empty, v_85_ready, v_85_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [136])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Bias', 'Out', 'Lse', 'TMP', 'softmax_scale', 'stride_qb', 'stride_qh', 'stride_qm', 'stride_kb', 'stride_kh', 'stride_kn', 'stride_vb', 'stride_vh', 'stride_vn', 'stride_bb', 'stride_bh', 'stride_bm', 'stride_ob', 'stride_oh', 'stride_om', 'nheads', 'seqlen_q', 'seqlen_k', 'seqlen_q_rounded', 'headdim', 'CACHE_KEY_SEQLEN_Q', 'CACHE_KEY_SEQLEN_K', 'BIAS_TYPE', 'IS_CAUSAL', 'BLOCK_HEADDIM', 'EVEN_M', 'EVEN_N', 'EVEN_HEADDIM', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Bias', 'Out', 'Lse', 'TMP', 'softmax_scale', 'stride_qb', 'stride_qh', 'stride_qm', 'stride_kb', 'stride_kh', 'stride_kn', 'stride_vb', 'stride_vh', 'stride_vn', 'stride_bb', 'stride_bh', 'stride_bm', 'stride_ob', 'stride_oh', 'stride_om', 'nheads', 'seqlen_q', 'seqlen_k', 'seqlen_q_rounded', 'headdim', 'CACHE_KEY_SEQLEN_Q', 'CACHE_KEY_SEQLEN_K', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_k_67', 'twill_box_v_85']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Bias', 'Out', 'Lse', 'TMP', 'softmax_scale', 'stride_qb', 'stride_qh', 'stride_qm', 'stride_kb', 'stride_kh', 'stride_kn', 'stride_vb', 'stride_vh', 'stride_vn', 'stride_bb', 'stride_bh', 'stride_bm', 'stride_ob', 'stride_oh', 'stride_om', 'nheads', 'seqlen_q', 'seqlen_k', 'seqlen_q_rounded', 'headdim', 'CACHE_KEY_SEQLEN_Q', 'CACHE_KEY_SEQLEN_K', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BIAS_TYPE': 'none', 'IS_CAUSAL': False, 'BLOCK_HEADDIM': 128, 'EVEN_M': True, 'EVEN_N': True, 'EVEN_HEADDIM': True, 'BLOCK_M': 128, 'BLOCK_N': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_k_67': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_v_85': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_k_67': ('K', ['stride_kn', '1'], [None, None], [128, 128], []), 'twill_box_v_85': ('V', ['stride_vn', '1'], [None, None], [128, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 168
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_kb', 'stride_kh', 'stride_kn', 'stride_vb', 'stride_vh', 'stride_vn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
