"""_bwd_kernel, written by twill from its joint schedule: I=250 L=250 (optimal), 5333 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (the dots' tiles loaded by its own warps and stored to shared memory for the wgmma, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, a stage ahead of their readers; 2 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 232 per thread)
- staged operand ds_93_st: partition 0 stores the [128, 128] f16 tile once per iteration in shared memory, read there by dot3_dk (transposed), dot4_dq (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- staged operand dv_st: partition 0 stores the [128, 128] f16 tile once per iteration in shared memory, read there by dot1_dv (transposed) (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- shared operand q_68_st: partition 0 stores the loop's [128, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand do_81_st: partition 0 stores the loop's [128, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 163856 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, DO, DQ, DK, DV, LSE, D, softmax_scale, stride_qb, stride_qh, stride_qm, nheads, seqlen_q, seqlen_k, seqlen_q_rounded, twill_g0, twill_g1, twill_g2):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        off_hb = twill_pid1
        off_b = off_hb // nheads
        off_h = off_hb % nheads
        Q_3 = off_b * stride_qb
        Q_4 = off_h * stride_qh
        Q_5 = Q_3 + Q_4
        Q_6 = Q + Q_5
        K_7 = K + Q_5
        V_8 = V + Q_5
        DO_9 = DO + Q_5
        DQ_10 = DQ + Q_5
        DK_11 = DK + Q_5
        DV_12 = DV + Q_5
        D_13 = off_hb * seqlen_q_rounded
        D_14 = D + D_13
        LSE_15 = LSE + D_13
        start_n = twill_pid0
        begin_m = start_n * 128
        begin_m_16 = begin_m // 128
        begin_m_17 = begin_m_16 * 128
        offs_qm = gl.arange(0, 128, layout=L0)
        offs_qm_18 = gl.arange(0, 128, layout=L1)
        offs_qm_19 = gl.arange(0, 128, layout=L2)
        offs_qm_20 = gl.arange(0, 128, layout=L3)
        offs_qm_23 = begin_m_17 + offs_qm
        offs_qm_24 = begin_m_17 + offs_qm_18
        offs_n_26 = begin_m + offs_qm
        offs_n_27 = begin_m + offs_qm_20
        q_ptrs = gl.expand_dims(offs_qm_23, 1)
        q_ptrs_28 = gl.expand_dims(offs_qm_24, 1)
        q_ptrs_31 = q_ptrs * stride_qm
        q_ptrs_32 = q_ptrs_28 * stride_qm
        q_ptrs_33 = gl.arange(0, 64, layout=L4)
        q_ptrs_34 = gl.arange(0, 64, layout=L5)
        q_ptrs_35 = gl.expand_dims(q_ptrs_33, 0)
        q_ptrs_36 = gl.expand_dims(q_ptrs_34, 0)
        q_ptrs_37 = q_ptrs_31.broadcast_to([128, 64])
        q_ptrs_38 = q_ptrs_32.broadcast_to([128, 64])
        q_ptrs_39 = q_ptrs_35.broadcast_to([128, 64])
        q_ptrs_40 = q_ptrs_36.broadcast_to([128, 64])
        q_ptrs_41 = q_ptrs_37 + q_ptrs_39
        q_ptrs_42 = q_ptrs_38 + q_ptrs_40
        q_ptrs_44 = Q_6 + q_ptrs_41
        k_ptrs = gl.expand_dims(offs_n_26, 1)
        k_ptrs_45 = k_ptrs * stride_qm
        k_ptrs_46 = k_ptrs_45.broadcast_to([128, 64])
        k_ptrs_47 = k_ptrs_46 + q_ptrs_39
        k_ptrs_49 = K_7 + k_ptrs_47
        v_ptrs_50 = V_8 + k_ptrs_47
        do_ptrs_51 = DO_9 + q_ptrs_41
        dq_ptrs_52 = DQ_10 + q_ptrs_42
        k = gl.load(k_ptrs_49)
        k_53 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), k)
        fence_async_shared()
        v = gl.load(v_ptrs_50)
        num_block_m_54 = seqlen_q + 127
        num_block_m_55 = num_block_m_54 // 128
        v0 = num_block_m_55 * 128
        qk_56 = gl.expand_dims(offs_n_27, 0)
        qk_57 = qk_56.broadcast_to([128, 128])
        dq_ptrs_58 = stride_qm * 128
        dp = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v)
        fence_async_shared()
        twill_n = gl.maximum((v0 - begin_m_17 + 128 - 1) // 128, 0)
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            ds_93_st = gl.allocate_shared_memory(gl.float16, [128, 128], gl.NVMMASharedLayout.get_default_for([128, 128], gl.float16))
            dv_st = gl.allocate_shared_memory(gl.float16, [128, 128], gl.NVMMASharedLayout.get_default_for([128, 128], gl.float16))
            q_68_st = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
            do_81_st = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
            dv_84 = gl.full([128, 64], 0.0, gl.float32, layout=L6)
            dk_96 = gl.full([128, 64], 0.0, gl.float32, layout=L6)
            q_ptrs_99 = q_ptrs_44
            do_ptrs_100 = do_ptrs_51
            dq_ptrs_98 = dq_ptrs_52
            offs_m_curr = (begin_m_17 + (0 - 0) * 128)  # load0_lse_i: stage 0, partition 0 (group 0)
            offs_m_curr_67 = offs_m_curr + offs_qm_19  # load0_lse_i: stage 0, partition 0 (group 0)
            lse_i_74 = LSE_15 + offs_m_curr_67  # load0_lse_i: stage 0, partition 0 (group 0)
            lse_i_75 = gl.load(lse_i_74)  # load0_lse_i: stage 0, partition 0 (group 0)
            Di_87 = D_14 + offs_m_curr_67  # load3_Di: stage 0, partition 0 (group 0)
            Di_88 = gl.load(Di_87)  # load3_Di: stage 0, partition 0 (group 0)
            Di_88_p1 = Di_88
            dk_96_p1 = dk_96
            do_ptrs_100_p1 = do_ptrs_100
            dq_ptrs_98_p1 = dq_ptrs_98
            dv_84_p1 = dv_84
            lse_i_75_p1 = lse_i_75
            offs_m_curr_67_p1 = offs_m_curr_67
            q_ptrs_99_p1 = q_ptrs_99
            for twill_b in range(1, twill_n):
                q = gl.load(q_ptrs_99_p1)  # load1_q: stage 1, partition 0 (group 0)
                q_68 = q_68_st.index((twill_b - 1) % 2)  # load1_q: stage 1, partition 0 (group 0)
                q_68.store(q)  # load1_q: stage 1, partition 0 (group 0)
                fence_async_shared()  # load1_q: stage 1, partition 0 (group 0)
                tok_qk_69 = warpgroup_mma(q_68, k_53.permute((1, 0)), gl.full([128, 128], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
                offs_m_curr = (begin_m_17 + (twill_b - 0) * 128)  # load0_lse_i: stage 0, partition 0 (group 0)
                offs_m_curr_67 = offs_m_curr + offs_qm_19  # load0_lse_i: stage 0, partition 0 (group 0)
                lse_i_74 = LSE_15 + offs_m_curr_67  # load0_lse_i: stage 0, partition 0 (group 0)
                lse_i_75 = gl.load(lse_i_74)  # load0_lse_i: stage 0, partition 0 (group 0)
                qk_70 = gl.expand_dims(offs_m_curr_67_p1, 1)  # sfu0_p: stage 1, partition 0 (group 0)
                qk_71 = qk_70.broadcast_to([128, 128])  # sfu0_p: stage 1, partition 0 (group 0)
                qk_72 = qk_71 >= qk_57  # sfu0_p: stage 1, partition 0 (group 0)
                dk_96_p1, dv_84_p1, qk_69 = warpgroup_mma_wait(0, deps=(dk_96_p1, dv_84_p1, tok_qk_69,))
                qk_73 = gl.where(qk_72, qk_69, float("-inf"))  # sfu0_p: stage 1, partition 0 (group 0)
                p_76 = qk_73 * softmax_scale  # sfu0_p: stage 1, partition 0 (group 0)
                p_77 = gl.expand_dims(lse_i_75_p1, 1)  # sfu0_p: stage 1, partition 0 (group 0)
                p_78 = p_77.broadcast_to([128, 128])  # sfu0_p: stage 1, partition 0 (group 0)
                p_79 = p_76 - p_78  # sfu0_p: stage 1, partition 0 (group 0)
                p_80 = gl.exp(p_79)  # sfu0_p: stage 1, partition 0 (group 0)
                do_ptrs_100 = do_ptrs_100_p1 + dq_ptrs_58  # load2_do: stage 1, partition 0 (group 0)
                do = gl.load(do_ptrs_100_p1)  # load2_do: stage 1, partition 0 (group 0)
                do_81 = do_81_st.index((twill_b - 1) % 2)  # load2_do: stage 1, partition 0 (group 0)
                do_81.store(do)  # load2_do: stage 1, partition 0 (group 0)
                fence_async_shared()  # load2_do: stage 1, partition 0 (group 0)
                tok_dp_86 = warpgroup_mma(do_81, dp.permute((1, 0)), gl.full([128, 128], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot2_dp: stage 1, partition 0 (group 0)
                Di_87 = D_14 + offs_m_curr_67  # load3_Di: stage 0, partition 0 (group 0)
                Di_88 = gl.load(Di_87)  # load3_Di: stage 0, partition 0 (group 0)
                ds = gl.expand_dims(Di_88_p1, 1)  # elementwise0_ds: stage 1, partition 0 (group 0)
                ds_89 = ds.broadcast_to([128, 128])  # elementwise0_ds: stage 1, partition 0 (group 0)
                dp_86 = warpgroup_mma_wait(0, deps=(tok_dp_86,))
                ds_90 = dp_86 - ds_89  # elementwise0_ds: stage 1, partition 0 (group 0)
                ds_91 = p_80 * ds_90  # elementwise0_ds: stage 1, partition 0 (group 0)
                ds_92 = ds_91 * softmax_scale  # elementwise0_ds: stage 1, partition 0 (group 0)
                ds_93 = ds_92.to(gl.float16)  # convert2_ds: stage 1, partition 0 (group 0)
                dv = p_80.to(gl.float16)  # convert0_dv: stage 1, partition 0 (group 0)
                ds_93_st.store(ds_93)  # dot4_dq: stage 1, partition 0 (group 0)
                fence_async_shared()  # dot4_dq: stage 1, partition 0 (group 0)
                tok_dq = warpgroup_mma(ds_93_st, k_53, gl.full([128, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot4_dq: stage 1, partition 0 (group 0)
                q_ptrs_99 = q_ptrs_99_p1 + dq_ptrs_58  # load1_q: stage 1, partition 0 (group 0)
                tok_dk_96 = warpgroup_mma(ds_93_st.permute((1, 0)), q_68, dk_96_p1, is_async=True)  # dot3_dk: stage 1, partition 0 (group 0)
                dq = warpgroup_mma_wait(1, deps=(tok_dq,))
                v5 = gl.convert_layout(dq, L8)  # convert5: stage 1, partition 0 (group 0)
                dv_st.store(dv)  # dot1_dv: stage 1, partition 0 (group 0)
                fence_async_shared()  # dot1_dv: stage 1, partition 0 (group 0)
                tok_dv_84 = warpgroup_mma(dv_st.permute((1, 0)), do_81, dv_84_p1, is_async=True)  # dot1_dv: stage 1, partition 0 (group 0)
                v6 = gl.atomic_add(dq_ptrs_98_p1, v5, sem='acq_rel', scope='gpu')  # store0: stage 1, partition 0 (group 0)
                dq_ptrs_98 = dq_ptrs_98_p1 + dq_ptrs_58  # store0: stage 1, partition 0 (group 0)
                dk_96, dv_84 = warpgroup_mma_wait(2, deps=(tok_dk_96, tok_dv_84,))
                Di_88_p1 = Di_88
                dk_96_p1 = dk_96
                do_ptrs_100_p1 = do_ptrs_100
                dq_ptrs_98_p1 = dq_ptrs_98
                dv_84_p1 = dv_84
                lse_i_75_p1 = lse_i_75
                offs_m_curr_67_p1 = offs_m_curr_67
                q_ptrs_99_p1 = q_ptrs_99
            q = gl.load(q_ptrs_99_p1)  # load1_q: stage 1, partition 0 (group 0)
            q_68 = q_68_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_q: stage 1, partition 0 (group 0)
            q_68.store(q)  # load1_q: stage 1, partition 0 (group 0)
            fence_async_shared()  # load1_q: stage 1, partition 0 (group 0)
            tok_qk_69 = warpgroup_mma(q_68, k_53.permute((1, 0)), gl.full([128, 128], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            qk_70 = gl.expand_dims(offs_m_curr_67_p1, 1)  # sfu0_p: stage 1, partition 0 (group 0)
            qk_71 = qk_70.broadcast_to([128, 128])  # sfu0_p: stage 1, partition 0 (group 0)
            qk_72 = qk_71 >= qk_57  # sfu0_p: stage 1, partition 0 (group 0)
            dk_96_p1, dv_84_p1, qk_69 = warpgroup_mma_wait(0, deps=(dk_96_p1, dv_84_p1, tok_qk_69,))
            qk_73 = gl.where(qk_72, qk_69, float("-inf"))  # sfu0_p: stage 1, partition 0 (group 0)
            p_76 = qk_73 * softmax_scale  # sfu0_p: stage 1, partition 0 (group 0)
            p_77 = gl.expand_dims(lse_i_75_p1, 1)  # sfu0_p: stage 1, partition 0 (group 0)
            p_78 = p_77.broadcast_to([128, 128])  # sfu0_p: stage 1, partition 0 (group 0)
            p_79 = p_76 - p_78  # sfu0_p: stage 1, partition 0 (group 0)
            p_80 = gl.exp(p_79)  # sfu0_p: stage 1, partition 0 (group 0)
            do_ptrs_100 = do_ptrs_100_p1 + dq_ptrs_58  # load2_do: stage 1, partition 0 (group 0)
            do = gl.load(do_ptrs_100_p1)  # load2_do: stage 1, partition 0 (group 0)
            do_81 = do_81_st.index(((twill_n - 1 + 1) - 1) % 2)  # load2_do: stage 1, partition 0 (group 0)
            do_81.store(do)  # load2_do: stage 1, partition 0 (group 0)
            fence_async_shared()  # load2_do: stage 1, partition 0 (group 0)
            tok_dp_86 = warpgroup_mma(do_81, dp.permute((1, 0)), gl.full([128, 128], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot2_dp: stage 1, partition 0 (group 0)
            ds = gl.expand_dims(Di_88_p1, 1)  # elementwise0_ds: stage 1, partition 0 (group 0)
            ds_89 = ds.broadcast_to([128, 128])  # elementwise0_ds: stage 1, partition 0 (group 0)
            dp_86 = warpgroup_mma_wait(0, deps=(tok_dp_86,))
            ds_90 = dp_86 - ds_89  # elementwise0_ds: stage 1, partition 0 (group 0)
            ds_91 = p_80 * ds_90  # elementwise0_ds: stage 1, partition 0 (group 0)
            ds_92 = ds_91 * softmax_scale  # elementwise0_ds: stage 1, partition 0 (group 0)
            ds_93 = ds_92.to(gl.float16)  # convert2_ds: stage 1, partition 0 (group 0)
            dv = p_80.to(gl.float16)  # convert0_dv: stage 1, partition 0 (group 0)
            ds_93_st.store(ds_93)  # dot4_dq: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot4_dq: stage 1, partition 0 (group 0)
            tok_dq = warpgroup_mma(ds_93_st, k_53, gl.full([128, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot4_dq: stage 1, partition 0 (group 0)
            q_ptrs_99 = q_ptrs_99_p1 + dq_ptrs_58  # load1_q: stage 1, partition 0 (group 0)
            tok_dk_96 = warpgroup_mma(ds_93_st.permute((1, 0)), q_68, dk_96_p1, is_async=True)  # dot3_dk: stage 1, partition 0 (group 0)
            dq = warpgroup_mma_wait(1, deps=(tok_dq,))
            v5 = gl.convert_layout(dq, L8)  # convert5: stage 1, partition 0 (group 0)
            dv_st.store(dv)  # dot1_dv: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot1_dv: stage 1, partition 0 (group 0)
            tok_dv_84 = warpgroup_mma(dv_st.permute((1, 0)), do_81, dv_84_p1, is_async=True)  # dot1_dv: stage 1, partition 0 (group 0)
            v6 = gl.atomic_add(dq_ptrs_98_p1, v5, sem='acq_rel', scope='gpu')  # store0: stage 1, partition 0 (group 0)
            dq_ptrs_98 = dq_ptrs_98_p1 + dq_ptrs_58  # store0: stage 1, partition 0 (group 0)
            dk_96, dv_84 = warpgroup_mma_wait(2, deps=(tok_dk_96, tok_dv_84,))
            Di_88_p1 = Di_88
            dk_96_p1 = dk_96
            do_ptrs_100_p1 = do_ptrs_100
            dq_ptrs_98_p1 = dq_ptrs_98
            dv_84_p1 = dv_84
            lse_i_75_p1 = lse_i_75
            offs_m_curr_67_p1 = offs_m_curr_67
            q_ptrs_99_p1 = q_ptrs_99
            dk_96_p1, dv_84_p1 = warpgroup_mma_wait(0, deps=(dk_96_p1, dv_84_p1,))
            q_68_st._keep_alive()
            k_53._keep_alive()
            do_81_st._keep_alive()
            dp._keep_alive()
            ds_93_st._keep_alive()
            dv_st._keep_alive()
        else:
            dv_84_p1 = gl.full([128, 64], 0.0, gl.float32, layout=L6)
            dk_96_p1 = gl.full([128, 64], 0.0, gl.float32, layout=L6)
            q_ptrs_99_p1 = q_ptrs_44
            do_ptrs_100_p1 = do_ptrs_51
            dq_ptrs_98_p1 = dq_ptrs_52
        dv_ptrs_61 = DV_12 + k_ptrs_47
        dk_ptrs_62 = DK_11 + k_ptrs_47
        v1 = dv_84_p1.to(gl.float16)
        v2 = gl.convert_layout(v1, L9)
        gl.store(dv_ptrs_61, v2)
        v3 = dk_96_p1.to(gl.float16)
        v4 = gl.convert_layout(v3, L9)
        gl.store(dk_ptrs_62, v4)
        twill_base += twill_n

@gluon.jit
def twill_kernel(Q, K, V, DO, DQ, DK, DV, LSE, D, softmax_scale, stride_qb, stride_qh, stride_qm, nheads, seqlen_q, seqlen_k, seqlen_q_rounded, twill_g0, twill_g1, twill_g2):
    consumer_0(Q, K, V, DO, DQ, DK, DV, LSE, D, softmax_scale, stride_qb, stride_qh, stride_qm, nheads, seqlen_q, seqlen_k, seqlen_q_rounded, twill_g0, twill_g1, twill_g2, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'DO', 'DQ', 'DK', 'DV', 'LSE', 'D', 'softmax_scale', 'stride_qb', 'stride_qh', 'stride_qm', 'nheads', 'seqlen_q', 'seqlen_k', 'seqlen_q_rounded', 'IS_CAUSAL', 'BLOCK_HEADDIM', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'DO', 'DQ', 'DK', 'DV', 'LSE', 'D', 'softmax_scale', 'stride_qb', 'stride_qh', 'stride_qm', 'nheads', 'seqlen_q', 'seqlen_k', 'seqlen_q_rounded', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'DO', 'DQ', 'DK', 'DV', 'LSE', 'D', 'softmax_scale', 'stride_qb', 'stride_qh', 'stride_qm', 'nheads', 'seqlen_q', 'seqlen_k', 'seqlen_q_rounded', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'IS_CAUSAL': True, 'BLOCK_HEADDIM': 64, 'BLOCK_M': 128, 'BLOCK_N': 128}         # the specialisation this kernel was generated for
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
