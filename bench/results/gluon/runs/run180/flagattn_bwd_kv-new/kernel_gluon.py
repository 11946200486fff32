"""_bwd_kv_kernel, written by twill from its joint schedule: I=322 L=322 (optimal), 1528 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (q, do): their addresses and masks spread over 128 threads
- the consumers' pointer loads in their readers' stage: a stage ahead, ptxas spills registers (256 bytes stored, 328 loaded, 31 spill instructions in the loop)
- q, do by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over DO, Q when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 256): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring q: 3 buffers of [64, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring do: 3 buffers of [64, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- staged operand dv_107_st: partition 0 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot1_dv (transposed) (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- staged operand ds_119_st: partition 0 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot3_dk (transposed) (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 147568 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 1 iteration(s) ahead, 106496 bytes of shared memory compiled, ptxas 255 registers, ptxas spills registers (28 bytes stored, 28 loaded, 7 spill instructions in the loop); simulated for 0, 1, 2, 3, 8 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

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
def consumer_0(Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, twill_box_q, twill_box_do, q_buf, do_buf, dv_107_st, ds_119_st, q_ready, q_empty, do_ready, do_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
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
        s = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), k)
        fence_async_shared()
        dp = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v)
        fence_async_shared()
        twill_n = gl.maximum((M - lo_36 + 64 - 1) // 64, 0)
        dk_122 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        dv_110 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        dk_122_p1 = dk_122
        dv_110_p1 = dv_110
        for twill_b in range(0, twill_n):
            offs_m = (lo_36 + (twill_b - 0) * 64)  # load0_l: stage 0, partition 0 (group 0)
            offs_m_89 = offs_m + offs_m_init_37  # load0_l: stage 0, partition 0 (group 0)
            l_97 = L_31 + offs_m_89  # load0_l: stage 0, partition 0 (group 0)
            l_98 = gl.load(l_97)  # load0_l: stage 0, partition 0 (group 0)
            p_100 = gl.expand_dims(l_98, 1)  # elementwise1_p: stage 0, partition 0 (group 0)
            p_101 = p_100 * 1.44269502  # elementwise1_p: stage 0, partition 0 (group 0)
            mbarrier.wait(q_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            tok_s_96 = warpgroup_mma(q_buf.index((twill_base + twill_b - 0) % 3), s.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_s: stage 0, partition 0 (group 0)
            dv_110_p1, dk_122_p1, s_96 = warpgroup_mma_wait(0, deps=(dv_110_p1, dk_122_p1, tok_s_96,))
            mbarrier.arrive(do_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(q_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            p_99 = s_96 * qk_scale  # sfu0_p: stage 0, partition 0 (group 0)
            p_102 = p_101.broadcast_to([64, 64])  # sfu0_p: stage 0, partition 0 (group 0)
            p_103 = p_99 - p_102  # sfu0_p: stage 0, partition 0 (group 0)
            p_104 = gl.exp2(p_103)  # sfu0_p: stage 0, partition 0 (group 0)
            causal_mask_90 = gl.expand_dims(offs_m_89, 1)  # elementwise0_p: stage 0, partition 0 (group 0)
            causal_mask_91 = P_SEQ + causal_mask_90  # elementwise0_p: stage 0, partition 0 (group 0)
            causal_mask_92 = causal_mask_91.broadcast_to([64, 64])  # elementwise0_p: stage 0, partition 0 (group 0)
            causal_mask_93 = causal_mask_92 >= causal_mask_80  # elementwise0_p: stage 0, partition 0 (group 0)
            p_105 = gl.where(causal_mask_93, p_104, 0.0)  # elementwise0_p: stage 0, partition 0 (group 0)
            mbarrier.wait(do_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            tok_dp_114 = warpgroup_mma(do_buf.index((twill_base + twill_b - 0) % 3), dp.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dp: stage 0, partition 0 (group 0)
            dv_107 = p_105.to(gl.float16)  # convert0_dv: stage 0, partition 0 (group 0)
            delta_111 = D_30 + offs_m_89  # load3_delta: stage 0, partition 0 (group 0)
            delta_112 = gl.load(delta_111)  # load3_delta: stage 0, partition 0 (group 0)
            ds = gl.expand_dims(delta_112, 1)  # elementwise2_ds: stage 0, partition 0 (group 0)
            ds_115 = ds.broadcast_to([64, 64])  # elementwise2_ds: stage 0, partition 0 (group 0)
            dp_114 = warpgroup_mma_wait(0, deps=(tok_dp_114,))
            ds_116 = dp_114 - ds_115  # elementwise2_ds: stage 0, partition 0 (group 0)
            ds_117 = p_105 * ds_116  # elementwise2_ds: stage 0, partition 0 (group 0)
            ds_118 = gl.where(causal_mask_93, ds_117, 0.0)  # elementwise2_ds: stage 0, partition 0 (group 0)
            dv_107_st.store(dv_107)  # dot1_dv: stage 0, partition 0 (group 0)
            fence_async_shared()  # dot1_dv: stage 0, partition 0 (group 0)
            tok_dv_110 = warpgroup_mma(dv_107_st.permute((1, 0)), do_buf.index((twill_base + twill_b - 0) % 3), dv_110_p1, is_async=True)  # dot1_dv: stage 0, partition 0 (group 0)
            ds_119 = ds_118.to(gl.float16)  # convert2_ds: stage 0, partition 0 (group 0)
            ds_119_st.store(ds_119)  # dot3_dk: stage 0, partition 0 (group 0)
            fence_async_shared()  # dot3_dk: stage 0, partition 0 (group 0)
            tok_dk_122 = warpgroup_mma(ds_119_st.permute((1, 0)), q_buf.index((twill_base + twill_b - 0) % 3), dk_122_p1, is_async=True)  # dot3_dk: stage 0, partition 0 (group 0)
            dv_110, dk_122 = warpgroup_mma_wait(2, deps=(tok_dv_110, tok_dk_122,))
            dk_122_p1 = dk_122
            dv_110_p1 = dv_110
        dv_110_p1, dk_122_p1 = warpgroup_mma_wait(0, deps=(dv_110_p1, dk_122_p1,))
        q_buf._keep_alive()
        s._keep_alive()
        do_buf._keep_alive()
        dp._keep_alive()
        dv_107_st._keep_alive()
        ds_119_st._keep_alive()
        mbarrier.arrive(do_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        mbarrier.arrive(q_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        dk_85 = dk_122_p1 * sm_scale
        v0 = dk_85.to(gl.float16)
        v1 = gl.convert_layout(v0, L6)
        gl.store(dk_ptrs_78, v1)
        v2 = dv_110_p1.to(gl.float16)
        v3 = gl.convert_layout(v2, L6)
        gl.store(dv_ptrs_73, v3)
        twill_base += twill_n

@gluon.jit
def producer_1(Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, twill_box_q, twill_box_do, q_buf, do_buf, dv_107_st, ds_119_st, q_ready, q_empty, do_ready, do_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_n = twill_pid0
        off_h = twill_pid1
        off_z = twill_pid2
        Q_3 = off_z * stride_qz
        Q_4 = off_h * stride_qh
        Q_5 = Q_3 + Q_4
        Q_6 = Q + Q_5
        DO_15 = off_z * stride_doz
        DO_16 = off_h * stride_doh
        DO_17 = DO_15 + DO_16
        DO_18 = DO + DO_17
        lo_32 = start_n * 64
        lo_33 = lo_32 - P_SEQ
        lo_34 = gl.maximum(lo_33, 0)
        lo_35 = lo_34 // 64
        lo_36 = lo_35 * 64
        offs_m_init = gl.arange(0, 64, layout=L0)
        offs_m_init_40 = lo_36 + offs_m_init
        q_ptrs = gl.expand_dims(offs_m_init_40, 1)
        q_ptrs_45 = q_ptrs * stride_qm
        q_ptrs_46 = gl.arange(0, 128, layout=L3)
        q_ptrs_47 = gl.expand_dims(q_ptrs_46, 0)
        q_ptrs_48 = q_ptrs_45.broadcast_to([64, 128])
        q_ptrs_49 = q_ptrs_47.broadcast_to([64, 128])
        q_ptrs_50 = q_ptrs_48 + q_ptrs_49
        q_ptrs_52 = Q_6 + q_ptrs_50
        do_ptrs_64 = q_ptrs * stride_dom
        do_ptrs_65 = do_ptrs_64.broadcast_to([64, 128])
        do_ptrs_66 = do_ptrs_65 + q_ptrs_49
        do_ptrs_68 = DO_18 + do_ptrs_66
        q_ptrs_81 = stride_qm * 64
        do_ptrs_83 = stride_dom * 64
        do_ptrs_88 = do_ptrs_68
        q_ptrs_87 = q_ptrs_52
        for dv_86 in range(lo_36, M, 64):
            twill_k = twill_base + (dv_86 - lo_36) // 64
            q_ptrs_123 = q_ptrs_87 + q_ptrs_81
            do_ptrs_124 = do_ptrs_88 + do_ptrs_83
            mbarrier.wait(q_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(q_ready.index(twill_k % 3), twill_box_q.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_q, [64 * lo_35 + 64 * ((dv_86 - lo_36) // 64), off_h * stride_qh + off_z * stride_qz], q_ready.index(twill_k % 3), q_buf.index(twill_k % 3))  # load1_q: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(q_buf.index(twill_k % 3), q_ptrs_87)  # load1_q: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(q_ready.index(twill_k % 3), increment_count=False)
                else:
                    q_buf.index(twill_k % 3).store(gl.load(q_ptrs_87))  # load1_q: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(q_ready.index(twill_k % 3), count=128)
            mbarrier.wait(do_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(do_ready.index(twill_k % 3), twill_box_do.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_do, [64 * lo_35 + 64 * ((dv_86 - lo_36) // 64), off_h * stride_doh + off_z * stride_doz], do_ready.index(twill_k % 3), do_buf.index(twill_k % 3))  # load2_do: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(do_buf.index(twill_k % 3), do_ptrs_88)  # load2_do: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(do_ready.index(twill_k % 3), increment_count=False)
                else:
                    do_buf.index(twill_k % 3).store(gl.load(do_ptrs_88))  # load2_do: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(do_ready.index(twill_k % 3), count=128)
            do_ptrs_88 = do_ptrs_124
            q_ptrs_87 = q_ptrs_123
        twill_base += gl.maximum((M - lo_36 + 64 - 1) // 64, 0)

@gluon.jit
def twill_kernel(Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, twill_box_q, twill_box_do, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    q_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    do_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    dv_107_st = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    ds_119_st = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    q_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(q_ready.index(i), count=1 if TWILL_TMA else 128)
    q_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(q_empty.index(i), count=1)
    do_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(do_ready.index(i), count=1 if TWILL_TMA else 128)
    do_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(do_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, twill_box_q, twill_box_do, q_buf, do_buf, dv_107_st, ds_119_st, q_ready, q_empty, do_ready, do_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ, twill_g0, twill_g1, twill_g2, twill_box_q, twill_box_do, q_buf, do_buf, dv_107_st, ds_119_st, q_ready, q_empty, do_ready, do_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [88])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L6_short = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 8], [8, 0], [16, 0], [32, 0]], lane_bases=[[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[0, 16], [0, 32]], block_bases=[], shape=[64, 64]))
L7_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L8_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ):
    start_n = gl.program_id(0)
    off_h = gl.program_id(1)
    off_z = gl.program_id(2)
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
    offs_m_init = gl.arange(0, 64, layout=L0_short)
    offs_m_init_37 = gl.arange(0, 64, layout=L1_short)
    offs_m_init_38 = gl.arange(0, 64, layout=L2_short)
    offs_m_init_40 = lo_36 + offs_m_init
    offs_n_42 = lo_32 + offs_m_init
    offs_n_43 = lo_32 + offs_m_init_38
    q_ptrs = gl.expand_dims(offs_m_init_40, 1)
    q_ptrs_45 = q_ptrs * stride_qm
    q_ptrs_46 = gl.arange(0, 128, layout=L3_short)
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
    q_94_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    do_106_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    dk_122 = gl.full([64, 128], 0.0, gl.float32, layout=L4_short)
    dv_110 = gl.full([64, 128], 0.0, gl.float32, layout=L4_short)
    q_ptrs_123 = q_ptrs_52
    do_ptrs_124 = do_ptrs_68
    dk_122_p1 = dk_122
    do_ptrs_124_p1 = do_ptrs_124
    dv_110_p1 = dv_110
    q_ptrs_123_p1 = q_ptrs_123
    for twill_b in range(0, twill_n):
        offs_m = (lo_36 + (twill_b - 0) * 64)  # load0_l: stage 0, partition 0 (group 0)
        offs_m_89 = offs_m + offs_m_init_37  # load0_l: stage 0, partition 0 (group 0)
        l_97 = L_31 + offs_m_89  # load0_l: stage 0, partition 0 (group 0)
        l_98 = gl.load(l_97)  # load0_l: stage 0, partition 0 (group 0)
        p_100 = gl.expand_dims(l_98, 1)  # elementwise1_p: stage 0, partition 0 (group 0)
        p_101 = p_100 * 1.44269502  # elementwise1_p: stage 0, partition 0 (group 0)
        q = gl.load(q_ptrs_123_p1)  # load1_q: stage 0, partition 0 (group 0)
        q_94 = q_94_st.index((twill_b - 0) % 2)  # load1_q: stage 0, partition 0 (group 0)
        q_94.store(q)  # load1_q: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_q: stage 0, partition 0 (group 0)
        tok_s_96 = warpgroup_mma(q_94, s.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5_short), use_acc=False, is_async=True)  # dot0_s: stage 0, partition 0 (group 0)
        dk_122_p1, s_96 = warpgroup_mma_wait(0, deps=(dk_122_p1, tok_s_96,))
        p_99 = s_96 * qk_scale  # sfu0_p: stage 0, partition 0 (group 0)
        p_102 = p_101.broadcast_to([64, 64])  # sfu0_p: stage 0, partition 0 (group 0)
        p_103 = p_99 - p_102  # sfu0_p: stage 0, partition 0 (group 0)
        p_104 = gl.exp2(p_103)  # sfu0_p: stage 0, partition 0 (group 0)
        causal_mask_90 = gl.expand_dims(offs_m_89, 1)  # elementwise0_p: stage 0, partition 0 (group 0)
        causal_mask_91 = P_SEQ + causal_mask_90  # elementwise0_p: stage 0, partition 0 (group 0)
        causal_mask_92 = causal_mask_91.broadcast_to([64, 64])  # elementwise0_p: stage 0, partition 0 (group 0)
        causal_mask_93 = causal_mask_92 >= causal_mask_80  # elementwise0_p: stage 0, partition 0 (group 0)
        p_105 = gl.where(causal_mask_93, p_104, 0.0)  # elementwise0_p: stage 0, partition 0 (group 0)
        do_ptrs_124 = do_ptrs_124_p1 + do_ptrs_83  # load2_do: stage 0, partition 0 (group 0)
        do = gl.load(do_ptrs_124_p1)  # load2_do: stage 0, partition 0 (group 0)
        do_106 = do_106_st.index((twill_b - 0) % 2)  # load2_do: stage 0, partition 0 (group 0)
        do_106.store(do)  # load2_do: stage 0, partition 0 (group 0)
        fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
        tok_dp_114 = warpgroup_mma(do_106, dp.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5_short), use_acc=False, is_async=True)  # dot2_dp: stage 0, partition 0 (group 0)
        dv_107 = p_105.to(gl.float16)  # convert0_dv: stage 0, partition 0 (group 0)
        dv_108 = gl.convert_layout(gl.permute(dv_107, (1, 0)), L6_short)  # convert1_dv: stage 0, partition 0 (group 0)
        dv_109 = gl.convert_layout(dv_108, L7_short)  # convert1_dv: stage 0, partition 0 (group 0)
        delta_111 = D_30 + offs_m_89  # load3_delta: stage 0, partition 0 (group 0)
        delta_112 = gl.load(delta_111)  # load3_delta: stage 0, partition 0 (group 0)
        ds = gl.expand_dims(delta_112, 1)  # elementwise2_ds: stage 0, partition 0 (group 0)
        ds_115 = ds.broadcast_to([64, 64])  # elementwise2_ds: stage 0, partition 0 (group 0)
        dp_114 = warpgroup_mma_wait(0, deps=(tok_dp_114,))
        ds_116 = dp_114 - ds_115  # elementwise2_ds: stage 0, partition 0 (group 0)
        ds_117 = p_105 * ds_116  # elementwise2_ds: stage 0, partition 0 (group 0)
        ds_118 = gl.where(causal_mask_93, ds_117, 0.0)  # elementwise2_ds: stage 0, partition 0 (group 0)
        tok_dv_110 = warpgroup_mma(dv_109, do_106, dv_110_p1, is_async=True)  # dot1_dv: stage 0, partition 0 (group 0)
        ds_119 = ds_118.to(gl.float16)  # convert2_ds: stage 0, partition 0 (group 0)
        dk_120 = gl.convert_layout(gl.permute(ds_119, (1, 0)), L6_short)  # convert3_dk: stage 0, partition 0 (group 0)
        dk_121 = gl.convert_layout(dk_120, L7_short)  # convert3_dk: stage 0, partition 0 (group 0)
        q_ptrs_123 = q_ptrs_123_p1 + q_ptrs_81  # load1_q: stage 0, partition 0 (group 0)
        tok_dk_122 = warpgroup_mma(dk_121, q_94, dk_122_p1, is_async=True)  # dot3_dk: stage 0, partition 0 (group 0)
        dv_110 = warpgroup_mma_wait(1, deps=(tok_dv_110,))
        dk_122 = warpgroup_mma_wait(1, deps=(tok_dk_122,))
        dk_122_p1 = dk_122
        do_ptrs_124_p1 = do_ptrs_124
        dv_110_p1 = dv_110
        q_ptrs_123_p1 = q_ptrs_123
    dk_122_p1 = warpgroup_mma_wait(0, deps=(dk_122_p1,))
    q_94_st._keep_alive()
    s._keep_alive()
    do_106_st._keep_alive()
    dp._keep_alive()
    dk_85 = dk_122_p1 * sm_scale
    v0 = dk_85.to(gl.float16)
    v1 = gl.convert_layout(v0, L8_short)
    gl.store(dk_ptrs_78, v1)
    v2 = dv_110_p1.to(gl.float16)
    v3 = gl.convert_layout(v2, L8_short)
    gl.store(dv_ptrs_73, v3)

@gluon.jit
def twill_kernel_short(Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ):
    consumer_0_short(Q, K, V, sm_scale, DO, DK, DV, L, D, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn, stride_vz, stride_vh, stride_vn, stride_doz, stride_doh, stride_dom, stride_dkz, stride_dkh, stride_dkn, stride_dvz, stride_dvh, stride_dvn, Z, H, M, N, P_SEQ, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DK', 'DV', 'L', 'D', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_vk', 'stride_doz', 'stride_doh', 'stride_dom', 'stride_dok', 'stride_dkz', 'stride_dkh', 'stride_dkn', 'stride_dkk', 'stride_dvz', 'stride_dvh', 'stride_dvn', 'stride_dvk', 'Z', 'H', 'M', 'N', 'P_SEQ', 'BLOCK_M', 'BLOCK_DMODEL', 'BLOCK_N', 'CAUSAL', 'DIVISIBLE_M', 'DIVISIBLE_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DK', 'DV', 'L', 'D', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_doz', 'stride_doh', 'stride_dom', 'stride_dkz', 'stride_dkh', 'stride_dkn', 'stride_dvz', 'stride_dvh', 'stride_dvn', 'Z', 'H', 'M', 'N', 'P_SEQ', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_q', 'twill_box_do']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DK', 'DV', 'L', 'D', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_doz', 'stride_doh', 'stride_dom', 'stride_dkz', 'stride_dkh', 'stride_dkn', 'stride_dvz', 'stride_dvh', 'stride_dvn', 'Z', 'H', 'M', 'N', 'P_SEQ', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_qk': 1, 'stride_kk': 1, 'stride_vk': 1, 'stride_dok': 1, 'stride_dkk': 1, 'stride_dvk': 1, 'BLOCK_M': 64, 'BLOCK_DMODEL': 128, 'BLOCK_N': 64, 'CAUSAL': True, 'DIVISIBLE_M': True, 'DIVISIBLE_N': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_q': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_do': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_q': ('Q', ['stride_qm', '1'], [None, None], [64, 128], []), 'twill_box_do': ('DO', ['stride_dom', '1'], [None, None], [64, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 256
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

# -- the one-partition kernel for short loops (host side) ---------------------------------------------
ARGUMENTS_short = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DK', 'DV', 'L', 'D', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_qk', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_kk', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_vk', 'stride_doz', 'stride_doh', 'stride_dom', 'stride_dok', 'stride_dkz', 'stride_dkh', 'stride_dkn', 'stride_dkk', 'stride_dvz', 'stride_dvh', 'stride_dvn', 'stride_dvk', 'Z', 'H', 'M', 'N', 'P_SEQ', 'BLOCK_M', 'BLOCK_DMODEL', 'BLOCK_N', 'CAUSAL', 'DIVISIBLE_M', 'DIVISIBLE_N']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DK', 'DV', 'L', 'D', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_doz', 'stride_doh', 'stride_dom', 'stride_dkz', 'stride_dkh', 'stride_dkn', 'stride_dvz', 'stride_dvh', 'stride_dvn', 'Z', 'H', 'M', 'N', 'P_SEQ']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DK', 'DV', 'L', 'D', 'stride_qz', 'stride_qh', 'stride_qm', 'stride_kz', 'stride_kh', 'stride_kn', 'stride_vz', 'stride_vh', 'stride_vn', 'stride_doz', 'stride_doh', 'stride_dom', 'stride_dkz', 'stride_dkh', 'stride_dkn', 'stride_dvz', 'stride_dvh', 'stride_dvn', 'Z', 'H', 'M', 'N', 'P_SEQ']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_qk': 1, 'stride_kk': 1, 'stride_vk': 1, 'stride_dok': 1, 'stride_dkk': 1, 'stride_dvk': 1, 'BLOCK_M': 64, 'BLOCK_DMODEL': 128, 'BLOCK_N': 64, 'CAUSAL': True, 'DIVISIBLE_M': True, 'DIVISIBLE_N': True}         # the specialisation this kernel was generated for
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
