"""_fwd_kernel_alibi, written by twill from its joint schedule: I=211 L=365 (optimal), 3479 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (the dots' tiles loaded by its own warps and stored to shared memory for the wgmma, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, a stage ahead of their readers; 2 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 234 per thread)
- staged operand p_110_st: partition 0 stores the [128, 128] bf16 tile once per iteration in shared memory, read there by dot1_acc (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- shared operand k_79_st: partition 0 stores the loop's [128, 128] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand v_109_st: partition 0 stores the loop's [128, 128] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 196624 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, Alibi_slopes, sm_scale, B_Start_Loc, B_Seqlen, Out, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_obs, stride_oh, num_queries_per_kv, twill_g0, twill_g1, twill_g2):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        cur_batch = twill_pid0
        cur_head = twill_pid1
        start_m = twill_pid2
        cur_kv_head = cur_head // num_queries_per_kv
        cur_batch_seq_len = B_Seqlen + cur_batch
        cur_batch_seq_len_4 = gl.load(cur_batch_seq_len)
        cur_batch_in_all_start_index = B_Start_Loc + cur_batch
        cur_batch_in_all_start_index_5 = gl.load(cur_batch_in_all_start_index)
        block_start_loc = start_m * 128
        offs_n = gl.arange(0, 128, layout=L0)
        offs_n_6 = gl.arange(0, 128, layout=L1)
        offs_m_8 = block_start_loc + offs_n
        offs_m_9 = block_start_loc + offs_n_6
        off_q = gl.expand_dims(offs_m_8, 1)
        off_q_10 = gl.expand_dims(offs_m_9, 1)
        off_q_12 = cur_batch_in_all_start_index_5 + off_q
        off_q_14 = off_q_12 * stride_qbs
        off_q_15 = cur_head * stride_qh
        off_q_17 = off_q_14 + off_q_15
        off_q_18 = gl.arange(0, 128, layout=L2)
        off_q_19 = gl.arange(0, 128, layout=L3)
        off_q_20 = gl.arange(0, 128, layout=L4)
        off_q_21 = gl.expand_dims(off_q_18, 0)
        off_q_22 = gl.expand_dims(off_q_19, 0)
        off_q_23 = gl.expand_dims(off_q_20, 0)
        off_q_24 = off_q_17.broadcast_to([128, 128])
        off_q_25 = off_q_21.broadcast_to([128, 128])
        off_q_26 = off_q_24 + off_q_25
        q_28 = off_q_10 < cur_batch_seq_len_4
        q_29 = off_q < cur_batch_seq_len_4
        q_31 = Q + off_q_26
        q_32 = q_28.broadcast_to([128, 128])
        q_33 = q_29.broadcast_to([128, 128])
        q_34 = gl.load(q_31, mask=q_33, other=0.0)
        q_35 = gl.allocate_shared_memory(gl.bfloat16, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_34)
        fence_async_shared()
        alibi_slope = Alibi_slopes + cur_head
        alibi_slope_36 = gl.load(alibi_slope)
        off_k_37 = off_q_22 * stride_kbs
        off_k_38 = cur_kv_head * stride_kh
        off_k_40 = off_k_37 + off_k_38
        off_k_41 = gl.arange(0, 128, layout=L5)
        off_k_42 = gl.expand_dims(off_k_41, 1)
        off_k_43 = gl.expand_dims(offs_n, 1)
        off_k_44 = off_k_40.broadcast_to([128, 128])
        off_k_45 = off_k_42.broadcast_to([128, 128])
        off_k_46 = off_k_44 + off_k_45
        off_v_47 = off_k_43 * stride_kbs
        off_v_49 = off_v_47 + off_k_38
        off_v_50 = off_v_49.broadcast_to([128, 128])
        off_v_51 = off_v_50 + off_q_25
        k_ptrs_52 = K + off_k_46
        v_ptrs_53 = V + off_v_51
        block_mask = block_start_loc < cur_batch_seq_len_4
        block_mask_54 = gl.cast(block_mask, gl.int32)
        v0 = start_m + 1
        v1 = block_mask_54 * v0
        v2 = v1 * 128
        qk_55 = off_q_10.broadcast_to([128, 128])
        twill_n = (v2 - 0 + 128 - 1) // 128
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            p_110_st = gl.allocate_shared_memory(gl.bfloat16, [128, 128], gl.NVMMASharedLayout.get_default_for([128, 128], gl.bfloat16))
            k_79_st = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
            v_109_st = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
            m_i_new = gl.full([128], float("-inf"), gl.float32, layout=L1)
            alibi_start_k_95 = 0
            alibi_start_k_95_p1 = alibi_start_k_95
            m_i_new_p1 = m_i_new
            l_i_new_100 = gl.full([128], 0.0, gl.float32, layout=L1)
            acc_112 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
            k_72 = cur_batch_in_all_start_index_5 + (0 + (0 - 0) * 128)  # load0_k: stage 0, partition 0 (group 0)
            k_69 = (0 + (0 - 0) * 128) + off_q_22  # load0_k: stage 0, partition 0 (group 0)
            k_73 = k_72 * stride_kbs  # load0_k: stage 0, partition 0 (group 0)
            k_71 = k_69 < cur_batch_seq_len_4  # load0_k: stage 0, partition 0 (group 0)
            k_74 = k_73  # load0_k: stage 0, partition 0 (group 0)
            k_76 = k_ptrs_52 + k_74  # load0_k: stage 0, partition 0 (group 0)
            k_77 = k_71.broadcast_to([128, 128])  # load0_k: stage 0, partition 0 (group 0)
            k_78 = gl.load(k_76, mask=k_77, other=0.0)  # load0_k: stage 0, partition 0 (group 0)
            k_79 = k_79_st.index((0 - 0) % 2)  # load0_k: stage 0, partition 0 (group 0)
            k_79.store(k_78)  # load0_k: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_k: stage 0, partition 0 (group 0)
            tok_qk_80 = warpgroup_mma(q_35, k_79, gl.full([128, 128], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            alibi_85 = alibi_start_k_95_p1  # convert0_alibi: stage 0, partition 0 (group 0)
            alibi_86 = off_q_23 + alibi_85  # convert0_alibi: stage 0, partition 0 (group 0)
            alibi_87 = alibi_86.broadcast_to([128, 128])  # convert0_alibi: stage 0, partition 0 (group 0)
            alibi_88 = alibi_87 - qk_55  # convert0_alibi: stage 0, partition 0 (group 0)
            alibi_89 = alibi_88.to(gl.float32)  # convert0_alibi: stage 0, partition 0 (group 0)
            alibi_start_k_95 = alibi_start_k_95_p1 + 128  # convert0_alibi: stage 0, partition 0 (group 0)
            alibi_90 = alibi_89 * alibi_slope_36  # elementwise1_alibi: stage 0, partition 0 (group 0)
            k_70 = (0 + (0 - 0) * 128) + off_q_23  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_80 = warpgroup_mma_wait(0, deps=(tok_qk_80,))
            qk_81 = qk_80 * sm_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_82 = k_70.broadcast_to([128, 128])  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_83 = qk_55 >= qk_82  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_84 = gl.where(qk_83, qk_81, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
            alibi_91 = alibi_90 <= 0.0  # elementwise0_qk: stage 0, partition 0 (group 0)
            alibi_92 = alibi_91 & q_32  # elementwise0_qk: stage 0, partition 0 (group 0)
            alibi_93 = gl.where(alibi_92, alibi_90, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_94 = qk_84 + alibi_93  # elementwise0_qk: stage 0, partition 0 (group 0)
            m_ij = gl.max(qk_94, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
            m_i_new = gl.maximum(m_i_new_p1, m_ij)  # elementwise2_m_i_new: stage 0, partition 0 (group 0)
            acc_112_p1 = acc_112
            alibi_start_k_95_p1 = alibi_start_k_95
            k_73_p1 = k_73
            l_i_new_100_p1 = l_i_new_100
            m_i_new_p2 = m_i_new_p1
            m_i_new_p1 = m_i_new
            qk_94_p1 = qk_94
            for twill_b in range(1, twill_n):
                k_67 = (0 + (twill_b - 0) * 128)  # load0_k: stage 0, partition 0 (group 0)
                k_72 = cur_batch_in_all_start_index_5 + (0 + (twill_b - 0) * 128)  # load0_k: stage 0, partition 0 (group 0)
                k_69 = k_67 + off_q_22  # load0_k: stage 0, partition 0 (group 0)
                k_73 = k_72 * stride_kbs  # load0_k: stage 0, partition 0 (group 0)
                k_71 = k_69 < cur_batch_seq_len_4  # load0_k: stage 0, partition 0 (group 0)
                k_74 = k_73  # load0_k: stage 0, partition 0 (group 0)
                k_76 = k_ptrs_52 + k_74  # load0_k: stage 0, partition 0 (group 0)
                k_77 = k_71.broadcast_to([128, 128])  # load0_k: stage 0, partition 0 (group 0)
                k_78 = gl.load(k_76, mask=k_77, other=0.0)  # load0_k: stage 0, partition 0 (group 0)
                k_79 = k_79_st.index((twill_b - 0) % 2)  # load0_k: stage 0, partition 0 (group 0)
                k_79.store(k_78)  # load0_k: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_k: stage 0, partition 0 (group 0)
                tok_qk_80 = warpgroup_mma(q_35, k_79, gl.full([128, 128], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
                p = gl.expand_dims(m_i_new_p1, 1)  # sfu0_p: stage 1, partition 0 (group 0)
                p_96 = p.broadcast_to([128, 128])  # sfu0_p: stage 1, partition 0 (group 0)
                p_97 = qk_94_p1 - p_96  # sfu0_p: stage 1, partition 0 (group 0)
                p_98 = gl.exp(p_97)  # sfu0_p: stage 1, partition 0 (group 0)
                alpha = m_i_new_p2 - m_i_new_p1  # sfu1_alpha: stage 1, partition 0 (group 0)
                alpha_99 = gl.exp(alpha)  # sfu1_alpha: stage 1, partition 0 (group 0)
                acc_101 = gl.expand_dims(alpha_99, 1)  # elementwise4_acc: stage 1, partition 0 (group 0)
                acc_102 = acc_101.broadcast_to([128, 128])  # elementwise4_acc: stage 1, partition 0 (group 0)
                acc_112_p1, qk_80 = warpgroup_mma_wait(0, deps=(acc_112_p1, tok_qk_80,))
                acc_103 = acc_112_p1 * acc_102  # elementwise4_acc: stage 1, partition 0 (group 0)
                l_ij = gl.sum(p_98, axis=1)  # reduce1_l_ij: stage 1, partition 0 (group 0)
                p_110 = p_98.to(gl.bfloat16)  # convert1_p: stage 1, partition 0 (group 0)
                k_75 = k_73_p1  # load1_v: stage 1, partition 0 (group 0)
                v = (0 + (twill_b - 1) * 128)  # load1_v: stage 1, partition 0 (group 0)
                v_104 = v + off_k_43  # load1_v: stage 1, partition 0 (group 0)
                v_105 = v_104 < cur_batch_seq_len_4  # load1_v: stage 1, partition 0 (group 0)
                v_106 = v_ptrs_53 + k_75  # load1_v: stage 1, partition 0 (group 0)
                v_107 = v_105.broadcast_to([128, 128])  # load1_v: stage 1, partition 0 (group 0)
                v_108 = gl.load(v_106, mask=v_107, other=0.0)  # load1_v: stage 1, partition 0 (group 0)
                v_109 = v_109_st.index((twill_b - 1) % 2)  # load1_v: stage 1, partition 0 (group 0)
                v_109.store(v_108)  # load1_v: stage 1, partition 0 (group 0)
                fence_async_shared()  # load1_v: stage 1, partition 0 (group 0)
                p_110_st.store(p_110)  # dot1_acc: stage 1, partition 0 (group 0)
                fence_async_shared()  # dot1_acc: stage 1, partition 0 (group 0)
                tok_acc_112 = warpgroup_mma(p_110_st, v_109, acc_103, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
                alibi_85 = alibi_start_k_95_p1  # convert0_alibi: stage 0, partition 0 (group 0)
                alibi_86 = off_q_23 + alibi_85  # convert0_alibi: stage 0, partition 0 (group 0)
                alibi_87 = alibi_86.broadcast_to([128, 128])  # convert0_alibi: stage 0, partition 0 (group 0)
                alibi_88 = alibi_87 - qk_55  # convert0_alibi: stage 0, partition 0 (group 0)
                alibi_89 = alibi_88.to(gl.float32)  # convert0_alibi: stage 0, partition 0 (group 0)
                alibi_start_k_95 = alibi_start_k_95_p1 + 128  # convert0_alibi: stage 0, partition 0 (group 0)
                l_i_new = alpha_99 * l_i_new_100_p1  # elementwise3_l_i_new: stage 1, partition 0 (group 0)
                l_i_new_100 = l_i_new + l_ij  # elementwise3_l_i_new: stage 1, partition 0 (group 0)
                alibi_90 = alibi_89 * alibi_slope_36  # elementwise1_alibi: stage 0, partition 0 (group 0)
                k_68 = (0 + (twill_b - 0) * 128)  # elementwise0_qk: stage 0, partition 0 (group 0)
                k_70 = k_68 + off_q_23  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_81 = qk_80 * sm_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_82 = k_70.broadcast_to([128, 128])  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_83 = qk_55 >= qk_82  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_84 = gl.where(qk_83, qk_81, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
                alibi_91 = alibi_90 <= 0.0  # elementwise0_qk: stage 0, partition 0 (group 0)
                alibi_92 = alibi_91 & q_32  # elementwise0_qk: stage 0, partition 0 (group 0)
                alibi_93 = gl.where(alibi_92, alibi_90, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_94 = qk_84 + alibi_93  # elementwise0_qk: stage 0, partition 0 (group 0)
                m_ij = gl.max(qk_94, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
                m_i_new = gl.maximum(m_i_new_p1, m_ij)  # elementwise2_m_i_new: stage 0, partition 0 (group 0)
                acc_112 = warpgroup_mma_wait(1, deps=(tok_acc_112,))
                acc_112_p1 = acc_112
                alibi_start_k_95_p1 = alibi_start_k_95
                k_73_p1 = k_73
                l_i_new_100_p1 = l_i_new_100
                m_i_new_p2 = m_i_new_p1
                m_i_new_p1 = m_i_new
                qk_94_p1 = qk_94
            p = gl.expand_dims(m_i_new_p1, 1)  # sfu0_p: stage 1, partition 0 (group 0)
            p_96 = p.broadcast_to([128, 128])  # sfu0_p: stage 1, partition 0 (group 0)
            p_97 = qk_94_p1 - p_96  # sfu0_p: stage 1, partition 0 (group 0)
            p_98 = gl.exp(p_97)  # sfu0_p: stage 1, partition 0 (group 0)
            alpha = m_i_new_p2 - m_i_new_p1  # sfu1_alpha: stage 1, partition 0 (group 0)
            alpha_99 = gl.exp(alpha)  # sfu1_alpha: stage 1, partition 0 (group 0)
            acc_101 = gl.expand_dims(alpha_99, 1)  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_102 = acc_101.broadcast_to([128, 128])  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_112_p1 = warpgroup_mma_wait(0, deps=(acc_112_p1,))
            acc_103 = acc_112_p1 * acc_102  # elementwise4_acc: stage 1, partition 0 (group 0)
            l_ij = gl.sum(p_98, axis=1)  # reduce1_l_ij: stage 1, partition 0 (group 0)
            p_110 = p_98.to(gl.bfloat16)  # convert1_p: stage 1, partition 0 (group 0)
            k_75 = k_73_p1  # load1_v: stage 1, partition 0 (group 0)
            v = (0 + ((twill_n - 1 + 1) - 1) * 128)  # load1_v: stage 1, partition 0 (group 0)
            v_104 = v + off_k_43  # load1_v: stage 1, partition 0 (group 0)
            v_105 = v_104 < cur_batch_seq_len_4  # load1_v: stage 1, partition 0 (group 0)
            v_106 = v_ptrs_53 + k_75  # load1_v: stage 1, partition 0 (group 0)
            v_107 = v_105.broadcast_to([128, 128])  # load1_v: stage 1, partition 0 (group 0)
            v_108 = gl.load(v_106, mask=v_107, other=0.0)  # load1_v: stage 1, partition 0 (group 0)
            v_109 = v_109_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_v: stage 1, partition 0 (group 0)
            v_109.store(v_108)  # load1_v: stage 1, partition 0 (group 0)
            fence_async_shared()  # load1_v: stage 1, partition 0 (group 0)
            p_110_st.store(p_110)  # dot1_acc: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot1_acc: stage 1, partition 0 (group 0)
            tok_acc_112 = warpgroup_mma(p_110_st, v_109, acc_103, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_i_new = alpha_99 * l_i_new_100_p1  # elementwise3_l_i_new: stage 1, partition 0 (group 0)
            l_i_new_100 = l_i_new + l_ij  # elementwise3_l_i_new: stage 1, partition 0 (group 0)
            acc_112 = warpgroup_mma_wait(1, deps=(tok_acc_112,))
            acc_112_p1 = acc_112
            alibi_start_k_95_p2 = alibi_start_k_95_p1
            alibi_start_k_95_p1 = alibi_start_k_95
            k_73_p1 = k_73
            l_i_new_100_p1 = l_i_new_100
            m_i_new_p2 = m_i_new_p1
            m_i_new_p1 = m_i_new
            qk_94_p1 = qk_94
            acc_112_p1 = warpgroup_mma_wait(0, deps=(acc_112_p1,))
            q_35._keep_alive()
            k_79_st._keep_alive()
            p_110_st._keep_alive()
            v_109_st._keep_alive()
        else:
            m_i_new_p2 = gl.full([128], float("-inf"), gl.float32, layout=L1)
            l_i_new_100_p1 = gl.full([128], 0.0, gl.float32, layout=L1)
            acc_112_p1 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
            alibi_start_k_95_p2 = 0
        acc = gl.expand_dims(l_i_new_100_p1, 1)
        acc_56 = acc.broadcast_to([128, 128])
        acc_57 = acc_112_p1 / acc_56
        off_o_58 = off_q_12 * stride_obs
        off_o_59 = cur_head * stride_oh
        off_o_61 = off_o_58 + off_o_59
        off_o_62 = off_o_61.broadcast_to([128, 128])
        off_o_63 = off_o_62 + off_q_25
        out_ptrs_64 = Out + off_o_63
        v3 = acc_57.to(gl.bfloat16)
        v4 = gl.convert_layout(v3, L7)
        gl.store(out_ptrs_64, v4, mask=q_33)
        twill_base += twill_n

@gluon.jit
def twill_kernel(Q, K, V, Alibi_slopes, sm_scale, B_Start_Loc, B_Seqlen, Out, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_obs, stride_oh, num_queries_per_kv, twill_g0, twill_g1, twill_g2):
    consumer_0(Q, K, V, Alibi_slopes, sm_scale, B_Start_Loc, B_Seqlen, Out, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_obs, stride_oh, num_queries_per_kv, twill_g0, twill_g1, twill_g2, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Alibi_slopes', 'sm_scale', 'B_Start_Loc', 'B_Seqlen', 'Out', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_obs', 'stride_oh', 'num_queries_per_kv', 'BLOCK_M', 'BLOCK_DMODEL', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Alibi_slopes', 'sm_scale', 'B_Start_Loc', 'B_Seqlen', 'Out', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_obs', 'stride_oh', 'num_queries_per_kv', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Alibi_slopes', 'sm_scale', 'B_Start_Loc', 'B_Seqlen', 'Out', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_obs', 'stride_oh', 'num_queries_per_kv', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_DMODEL': 128, 'BLOCK_N': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = None
PERSISTENT = True      # one program per SM loops over the grid's tiles
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
