"""_bwd_kv_kernel, written by twill from its joint schedule: I=322 L=322 (optimal), 1528 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (q_94_ring: 3 x 16384 B, issued 1 iteration(s) ahead, do_106_ring: 3 x 16384 B, issued 1 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 1 stage(s) ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 256 per thread)
- staged operand dv_107_st: partition 0 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot1_dv (transposed) (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- staged operand ds_119_st: partition 0 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot3_dk (transposed) (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 147472 bytes planned of 232448; maxnreg unset (ptxas allocates)

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
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, dv_107_st, ds_119_st, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_n = twill_pid0
        off_h = twill_pid1
        off_z = twill_pid2
        qk_scale = sm_scale * 1.44269502
        Q_3 = off_z * stride_qz
        Q_4 = off_h * stride_qh
        Q_5 = Q_3 + Q_4
        Q_6 = Q + Q_5
        K_7 = off_z * stride_kz
        K_8 = off_h * stride_kh
        K_9 = K_7 + K_8
        K_10 = K + K_9
        V_11 = off_z * stride_vz
        V_12 = off_h * stride_vh
        V_13 = V_11 + V_12
        V_14 = V + V_13
        DO_15 = off_z * stride_doz
        DO_16 = off_h * stride_doh
        DO_17 = DO_15 + DO_16
        DO_18 = DO + DO_17
        DK_19 = off_z * stride_dkz
        DK_20 = off_h * stride_dkh
        DK_21 = DK_19 + DK_20
        DK_22 = DK + DK_21
        DV_23 = off_z * stride_dvz
        DV_24 = off_h * stride_dvh
        DV_25 = DV_23 + DV_24
        DV_26 = DV + DV_25
        D_27 = off_z * H
        D_28 = D_27 + off_h
        D_29 = D_28 * M
        D_30 = D + D_29
        L_31 = L + D_29
        lo_32 = start_n * 64
        lo_33 = lo_32 - P_SEQ
        lo_34 = gl.maximum(lo_33, 0)
        lo_35 = lo_34 // 64
        lo_36 = lo_35 * 64
        offs_m_init = gl.arange(0, 64, layout=L0)
        offs_m_init_37 = gl.arange(0, 64, layout=L1)
        offs_m_init_38 = gl.arange(0, 64, layout=L2)
        offs_m_init_40 = lo_36 + offs_m_init
        offs_n_42 = lo_32 + offs_m_init
        offs_n_43 = lo_32 + offs_m_init_38
        q_ptrs = gl.expand_dims(offs_m_init_40, 1)
        q_ptrs_45 = q_ptrs * stride_qm
        q_ptrs_46 = gl.arange(0, 128, layout=L3)
        q_ptrs_47 = gl.expand_dims(q_ptrs_46, 0)
        q_ptrs_48 = q_ptrs_45.broadcast_to([64, 128])
        q_ptrs_49 = q_ptrs_47.broadcast_to([64, 128])
        q_ptrs_50 = q_ptrs_48 + q_ptrs_49
        q_ptrs_52 = Q_6 + q_ptrs_50
        k_ptrs = gl.expand_dims(offs_n_42, 1)
        k_ptrs_54 = k_ptrs * stride_kn
        k_ptrs_55 = k_ptrs_54.broadcast_to([64, 128])
        k_ptrs_56 = k_ptrs_55 + q_ptrs_49
        k_ptrs_58 = K_10 + k_ptrs_56
        v_ptrs_59 = k_ptrs * stride_vn
        v_ptrs_60 = v_ptrs_59.broadcast_to([64, 128])
        v_ptrs_61 = v_ptrs_60 + q_ptrs_49
        v_ptrs_63 = V_14 + v_ptrs_61
        do_ptrs_64 = q_ptrs * stride_dom
        do_ptrs_65 = do_ptrs_64.broadcast_to([64, 128])
        do_ptrs_66 = do_ptrs_65 + q_ptrs_49
        do_ptrs_68 = DO_18 + do_ptrs_66
        dv_ptrs_69 = k_ptrs * stride_dvn
        dv_ptrs_70 = dv_ptrs_69.broadcast_to([64, 128])
        dv_ptrs_71 = dv_ptrs_70 + q_ptrs_49
        dv_ptrs_73 = DV_26 + dv_ptrs_71
        dk_ptrs_74 = k_ptrs * stride_dkn
        dk_ptrs_75 = dk_ptrs_74.broadcast_to([64, 128])
        dk_ptrs_76 = dk_ptrs_75 + q_ptrs_49
        dk_ptrs_78 = DK_22 + dk_ptrs_76
        v = gl.load(v_ptrs_63)
        k = gl.load(k_ptrs_58)
        causal_mask_79 = gl.expand_dims(offs_n_43, 0)
        causal_mask_80 = causal_mask_79.broadcast_to([64, 64])
        q_ptrs_81 = stride_qm * 64
        do_ptrs_83 = stride_dom * 64
        s = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), k)
        fence_async_shared()
        dp = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v)
        fence_async_shared()
        twill_n = gl.maximum((M - lo_36 + 64 - 1) // 64, 0)
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            q_94_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
            do_106_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
            q_ptrs_123 = q_ptrs_52
            do_ptrs_124 = do_ptrs_68
            do_ptrs_124_p1 = do_ptrs_124
            q_ptrs_123_p1 = q_ptrs_123
            dk_122 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
            dv_110 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
            offs_m = (lo_36 + (0 - 0) * 64)  # load0_l: stage 0, partition 0 (group 0)
            offs_m_89 = offs_m + offs_m_init_37  # load0_l: stage 0, partition 0 (group 0)
            l_97 = L_31 + offs_m_89  # load0_l: stage 0, partition 0 (group 0)
            l_98 = gl.load(l_97)  # load0_l: stage 0, partition 0 (group 0)
            q_ptrs_123 = q_ptrs_123_p1 + q_ptrs_81  # load1_q: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_q: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(q_94_ring.index((twill_base + 0 - 0) % 3), q_ptrs_123_p1)  # load1_q: stage 0, partition 0 (group 0)
            else:  # load1_q: stage 0, partition 0 (group 0)
                q_94_ring.index((twill_base + 0 - 0) % 3).store(gl.load(q_ptrs_123_p1))  # load1_q: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_q: stage 0, partition 0 (group 0)
            do_ptrs_124 = do_ptrs_124_p1 + do_ptrs_83  # load2_do: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_do: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(do_106_ring.index((twill_base + 0 - 0) % 3), do_ptrs_124_p1)  # load2_do: stage 0, partition 0 (group 0)
            else:  # load2_do: stage 0, partition 0 (group 0)
                do_106_ring.index((twill_base + 0 - 0) % 3).store(gl.load(do_ptrs_124_p1))  # load2_do: stage 0, partition 0 (group 0)
                fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
            delta_111 = D_30 + offs_m_89  # load3_delta: stage 0, partition 0 (group 0)
            delta_112 = gl.load(delta_111)  # load3_delta: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            delta_112_p1 = delta_112
            dk_122_p1 = dk_122
            do_ptrs_124_p1 = do_ptrs_124
            dv_110_p1 = dv_110
            l_98_p1 = l_98
            offs_m_89_p1 = offs_m_89
            q_ptrs_123_p1 = q_ptrs_123
            for twill_b in range(1, twill_n):
                offs_m = (lo_36 + (twill_b - 0) * 64)  # load0_l: stage 0, partition 0 (group 0)
                offs_m_89 = offs_m + offs_m_init_37  # load0_l: stage 0, partition 0 (group 0)
                l_97 = L_31 + offs_m_89  # load0_l: stage 0, partition 0 (group 0)
                l_98 = gl.load(l_97)  # load0_l: stage 0, partition 0 (group 0)
                p_100 = gl.expand_dims(l_98_p1, 1)  # elementwise1_p: stage 1, partition 0 (group 0)
                p_101 = p_100 * 1.44269502  # elementwise1_p: stage 1, partition 0 (group 0)
                async_copy.wait_group(0)
                gl.thread_barrier()
                q_94 = q_94_ring.index((twill_base + twill_b - 1) % 3)  # load1_q: stage 1, partition 0 (group 0)
                q_ptrs_123 = q_ptrs_123_p1 + q_ptrs_81  # load1_q: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_q: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(q_94_ring.index((twill_base + twill_b - 0) % 3), q_ptrs_123_p1)  # load1_q: stage 0, partition 0 (group 0)
                else:  # load1_q: stage 0, partition 0 (group 0)
                    q_94_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(q_ptrs_123_p1))  # load1_q: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load1_q: stage 0, partition 0 (group 0)
                tok_s_96 = warpgroup_mma(q_94, s.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_s: stage 1, partition 0 (group 0)
                dv_110_p1, dk_122_p1, s_96 = warpgroup_mma_wait(0, deps=(dv_110_p1, dk_122_p1, tok_s_96,))
                p_99 = s_96 * qk_scale  # sfu0_p: stage 1, partition 0 (group 0)
                p_102 = p_101.broadcast_to([64, 64])  # sfu0_p: stage 1, partition 0 (group 0)
                p_103 = p_99 - p_102  # sfu0_p: stage 1, partition 0 (group 0)
                p_104 = gl.exp2(p_103)  # sfu0_p: stage 1, partition 0 (group 0)
                do_106 = do_106_ring.index((twill_base + twill_b - 1) % 3)  # load2_do: stage 1, partition 0 (group 0)
                do_ptrs_124 = do_ptrs_124_p1 + do_ptrs_83  # load2_do: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load2_do: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(do_106_ring.index((twill_base + twill_b - 0) % 3), do_ptrs_124_p1)  # load2_do: stage 0, partition 0 (group 0)
                else:  # load2_do: stage 0, partition 0 (group 0)
                    do_106_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(do_ptrs_124_p1))  # load2_do: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
                tok_dp_114 = warpgroup_mma(do_106, dp.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dp: stage 1, partition 0 (group 0)
                causal_mask_90 = gl.expand_dims(offs_m_89_p1, 1)  # elementwise0_p: stage 1, partition 0 (group 0)
                causal_mask_91 = P_SEQ + causal_mask_90  # elementwise0_p: stage 1, partition 0 (group 0)
                causal_mask_92 = causal_mask_91.broadcast_to([64, 64])  # elementwise0_p: stage 1, partition 0 (group 0)
                causal_mask_93 = causal_mask_92 >= causal_mask_80  # elementwise0_p: stage 1, partition 0 (group 0)
                p_105 = gl.where(causal_mask_93, p_104, 0.0)  # elementwise0_p: stage 1, partition 0 (group 0)
                dv_107 = p_105.to(gl.float16)  # convert0_dv: stage 1, partition 0 (group 0)
                delta_111 = D_30 + offs_m_89  # load3_delta: stage 0, partition 0 (group 0)
                delta_112 = gl.load(delta_111)  # load3_delta: stage 0, partition 0 (group 0)
                ds = gl.expand_dims(delta_112_p1, 1)  # elementwise2_ds: stage 1, partition 0 (group 0)
                ds_115 = ds.broadcast_to([64, 64])  # elementwise2_ds: stage 1, partition 0 (group 0)
                dp_114 = warpgroup_mma_wait(0, deps=(tok_dp_114,))
                ds_116 = dp_114 - ds_115  # elementwise2_ds: stage 1, partition 0 (group 0)
                ds_117 = p_105 * ds_116  # elementwise2_ds: stage 1, partition 0 (group 0)
                ds_118 = gl.where(causal_mask_93, ds_117, 0.0)  # elementwise2_ds: stage 1, partition 0 (group 0)
                dv_107_st.store(dv_107)  # dot1_dv: stage 1, partition 0 (group 0)
                fence_async_shared()  # dot1_dv: stage 1, partition 0 (group 0)
                tok_dv_110 = warpgroup_mma(dv_107_st.permute((1, 0)), do_106, dv_110_p1, is_async=True)  # dot1_dv: stage 1, partition 0 (group 0)
                ds_119 = ds_118.to(gl.float16)  # convert2_ds: stage 1, partition 0 (group 0)
                ds_119_st.store(ds_119)  # dot3_dk: stage 1, partition 0 (group 0)
                fence_async_shared()  # dot3_dk: stage 1, partition 0 (group 0)
                tok_dk_122 = warpgroup_mma(ds_119_st.permute((1, 0)), q_94, dk_122_p1, is_async=True)  # dot3_dk: stage 1, partition 0 (group 0)
                async_copy.commit_group()
                dv_110, dk_122 = warpgroup_mma_wait(2, deps=(tok_dv_110, tok_dk_122,))
                delta_112_p1 = delta_112
                dk_122_p1 = dk_122
                do_ptrs_124_p1 = do_ptrs_124
                dv_110_p1 = dv_110
                l_98_p1 = l_98
                offs_m_89_p1 = offs_m_89
                q_ptrs_123_p1 = q_ptrs_123
            p_100 = gl.expand_dims(l_98_p1, 1)  # elementwise1_p: stage 1, partition 0 (group 0)
            p_101 = p_100 * 1.44269502  # elementwise1_p: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            q_94 = q_94_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load1_q: stage 1, partition 0 (group 0)
            tok_s_96 = warpgroup_mma(q_94, s.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_s: stage 1, partition 0 (group 0)
            dv_110_p1, dk_122_p1, s_96 = warpgroup_mma_wait(0, deps=(dv_110_p1, dk_122_p1, tok_s_96,))
            p_99 = s_96 * qk_scale  # sfu0_p: stage 1, partition 0 (group 0)
            p_102 = p_101.broadcast_to([64, 64])  # sfu0_p: stage 1, partition 0 (group 0)
            p_103 = p_99 - p_102  # sfu0_p: stage 1, partition 0 (group 0)
            p_104 = gl.exp2(p_103)  # sfu0_p: stage 1, partition 0 (group 0)
            do_106 = do_106_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load2_do: stage 1, partition 0 (group 0)
            tok_dp_114 = warpgroup_mma(do_106, dp.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dp: stage 1, partition 0 (group 0)
            causal_mask_90 = gl.expand_dims(offs_m_89_p1, 1)  # elementwise0_p: stage 1, partition 0 (group 0)
            causal_mask_91 = P_SEQ + causal_mask_90  # elementwise0_p: stage 1, partition 0 (group 0)
            causal_mask_92 = causal_mask_91.broadcast_to([64, 64])  # elementwise0_p: stage 1, partition 0 (group 0)
            causal_mask_93 = causal_mask_92 >= causal_mask_80  # elementwise0_p: stage 1, partition 0 (group 0)
            p_105 = gl.where(causal_mask_93, p_104, 0.0)  # elementwise0_p: stage 1, partition 0 (group 0)
            dv_107 = p_105.to(gl.float16)  # convert0_dv: stage 1, partition 0 (group 0)
            ds = gl.expand_dims(delta_112_p1, 1)  # elementwise2_ds: stage 1, partition 0 (group 0)
            ds_115 = ds.broadcast_to([64, 64])  # elementwise2_ds: stage 1, partition 0 (group 0)
            dp_114 = warpgroup_mma_wait(0, deps=(tok_dp_114,))
            ds_116 = dp_114 - ds_115  # elementwise2_ds: stage 1, partition 0 (group 0)
            ds_117 = p_105 * ds_116  # elementwise2_ds: stage 1, partition 0 (group 0)
            ds_118 = gl.where(causal_mask_93, ds_117, 0.0)  # elementwise2_ds: stage 1, partition 0 (group 0)
            dv_107_st.store(dv_107)  # dot1_dv: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot1_dv: stage 1, partition 0 (group 0)
            tok_dv_110 = warpgroup_mma(dv_107_st.permute((1, 0)), do_106, dv_110_p1, is_async=True)  # dot1_dv: stage 1, partition 0 (group 0)
            ds_119 = ds_118.to(gl.float16)  # convert2_ds: stage 1, partition 0 (group 0)
            ds_119_st.store(ds_119)  # dot3_dk: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot3_dk: stage 1, partition 0 (group 0)
            tok_dk_122 = warpgroup_mma(ds_119_st.permute((1, 0)), q_94, dk_122_p1, is_async=True)  # dot3_dk: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            dv_110, dk_122 = warpgroup_mma_wait(2, deps=(tok_dv_110, tok_dk_122,))
            delta_112_p1 = delta_112
            dk_122_p1 = dk_122
            do_ptrs_124_p2 = do_ptrs_124_p1
            do_ptrs_124_p1 = do_ptrs_124
            dv_110_p1 = dv_110
            l_98_p1 = l_98
            offs_m_89_p1 = offs_m_89
            q_ptrs_123_p2 = q_ptrs_123_p1
            q_ptrs_123_p1 = q_ptrs_123
            dv_110_p1, dk_122_p1 = warpgroup_mma_wait(0, deps=(dv_110_p1, dk_122_p1,))
            q_94_ring._keep_alive()
            s._keep_alive()
            do_106_ring._keep_alive()
            dp._keep_alive()
        else:
            dk_122_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
            dv_110_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
            q_ptrs_123_p2 = q_ptrs_52
            do_ptrs_124_p2 = do_ptrs_68
        dk_85 = dk_122_p1 * sm_scale
        v0 = dk_85.to(gl.float16)
        v1 = gl.convert_layout(v0, L6)
        gl.store(dk_ptrs_78, v1)
        v2 = dv_110_p1.to(gl.float16)
        v3 = gl.convert_layout(v2, L6)
        gl.store(dv_ptrs_73, v3)
        twill_base += twill_n

@gluon.jit
def twill_kernel(Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    dv_107_st = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    ds_119_st = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    consumer_0(Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, dv_107_st, ds_119_st, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DK', 'DV', 'L', 'D', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_vk', 'stride_doz', 'stride_doh', 'stride_dom', 'stride_dok', 'stride_dkz', 'stride_dkh', 'stride_dkn', 'stride_dkk', 'stride_dvz', 'stride_dvh', 'stride_dvn', 'stride_dvk', 'Z', 'H', 'M', 'N', 'P_SEQ', 'BLOCK_M', 'BLOCK_DMODEL', 'BLOCK_N', 'CAUSAL', 'DIVISIBLE_M', 'DIVISIBLE_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DK', 'DV', 'L', 'D', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_doz', 'stride_doh', 'stride_dom', 'stride_dkz', 'stride_dkh', 'stride_dkn', 'stride_dvz', 'stride_dvh', 'stride_dvn', 'Z', 'H', 'M', 'N', 'P_SEQ', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DK', 'DV', 'L', 'D', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_doz', 'stride_doh', 'stride_dom', 'stride_dkz', 'stride_dkh', 'stride_dkn', 'stride_dvz', 'stride_dvh', 'stride_dvn', 'Z', 'H', 'M', 'N', 'P_SEQ', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_qk': 1, 'stride_kk': 1, 'stride_vk': 1, 'stride_dok': 1, 'stride_dkk': 1, 'stride_dvk': 1, 'BLOCK_M': 64, 'BLOCK_DMODEL': 128, 'BLOCK_N': 64, 'CAUSAL': True, 'DIVISIBLE_M': True, 'DIVISIBLE_N': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['Q', 'DO', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_doz', 'stride_doh', 'stride_dom']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
