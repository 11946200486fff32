"""_attn_bwd, written by twill from its joint schedule: I=447 L=447 (optimal), 3235 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (the dots' tiles loaded by its own warps and stored to shared memory for the wgmma, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 200 per thread)
- shared operand qT_113_st: partition 0 stores the loop's [128, 32] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand do_126_st: partition 0 stores the loop's [32, 128] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 65552 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at fastvideo_vsa_block_sparse_bwd.py:188 (in a helper called at line 349) (TTGIR line 219) (after the scheduled loop): written by the same partitions, its tiles loaded by the partition itself, in one stage of its own schedule (I=363, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D, q2k_index, q2k_num, max_kv_blks, k2q_index, k2q_num, max_q_blks, variable_block_sizes, stride_z, stride_h, stride_tok, H, N_CTX):
    twill_base = 0
    bhid = gl.program_id(2)
    off_chz = bhid * N_CTX
    off_chz_1 = gl.cast(off_chz, gl.int64)
    adj = bhid % H
    adj_2 = stride_h * adj
    adj_3 = bhid // H
    adj_4 = stride_z * adj_3
    adj_5 = adj_2 + adj_4
    adj_6 = gl.cast(adj_5, gl.int64)
    pid = gl.program_id(0)
    Q_7 = Q + adj_6
    K_8 = K + adj_6
    V_9 = V + adj_6
    DO_10 = DO + adj_6
    DQ_11 = DQ + adj_6
    DK_12 = DK + adj_6
    DV_13 = DV + adj_6
    M_14 = M + off_chz_1
    D_15 = D + off_chz_1
    start_n = pid * 64
    offs_n = gl.arange(0, 64, layout=L0)
    offs_n_16 = gl.arange(0, 64, layout=L1)
    offs_n_19 = start_n + offs_n
    offs_n_20 = start_n + offs_n_16
    k = gl.expand_dims(offs_n_19, 1)
    k_22 = k * stride_tok
    k_24 = K_8 + k_22
    k_25 = gl.arange(0, 128, layout=L2)
    k_26 = gl.expand_dims(k_25, 0)
    k_27 = k_24.broadcast_to([64, 128])
    k_28 = k_26.broadcast_to([64, 128])
    k_29 = k_27 + k_28
    k_30 = gl.load(k_29)
    k_31 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), k_30)
    fence_async_shared()
    v_32 = V_9 + k_22
    v_33 = v_32.broadcast_to([64, 128])
    v_34 = v_33 + k_28
    v_35 = gl.load(v_34)
    v_36 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v_35)
    fence_async_shared()
    offs_m = gl.arange(0, 32, layout=L3)
    qT_ptrs = gl.arange(0, 32, layout=L4)
    qT_ptrs_37 = gl.expand_dims(qT_ptrs, 0)
    qT_ptrs_39 = qT_ptrs_37 * stride_tok
    qT_ptrs_41 = Q_7 + qT_ptrs_39
    qT_ptrs_42 = gl.arange(0, 128, layout=L5)
    qT_ptrs_43 = gl.expand_dims(qT_ptrs_42, 1)
    qT_ptrs_44 = qT_ptrs_41.broadcast_to([128, 32])
    qT_ptrs_45 = qT_ptrs_43.broadcast_to([128, 32])
    qT_ptrs_46 = qT_ptrs_44 + qT_ptrs_45
    do_ptrs = gl.arange(0, 32, layout=L0)
    do_ptrs_47 = gl.expand_dims(do_ptrs, 1)
    do_ptrs_49 = do_ptrs_47 * stride_tok
    do_ptrs_51 = DO_10 + do_ptrs_49
    do_ptrs_52 = do_ptrs_51.broadcast_to([32, 128])
    do_ptrs_53 = k_26.broadcast_to([32, 128])
    do_ptrs_54 = do_ptrs_52 + do_ptrs_53
    q_tiles = N_CTX // 64
    meta_base = adj_3 * H
    meta_base_55 = meta_base + adj
    meta_base_56 = meta_base_55 * q_tiles
    meta_base_57 = meta_base_56 + pid
    q_blocks = k2q_num + meta_base_57
    q_blocks_58 = gl.load(q_blocks)
    q_ptr = meta_base_57 * max_q_blks
    q_ptr_59 = k2q_index + q_ptr
    block_size = variable_block_sizes + pid
    block_size_60 = gl.load(block_size)
    v0 = q_blocks_58 * 2
    mask_61 = offs_n_16 < block_size_60
    pT = gl.expand_dims(mask_61, 1)
    pT_62 = pT.broadcast_to([64, 32])
    twill_n = (v0 - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        qT_113_st = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        do_126_st = gl.allocate_shared_memory(gl.bfloat16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        dk_137 = gl.full([64, 128], 0.0, gl.float32, layout=L6)
        dv = gl.full([64, 128], 0.0, gl.float32, layout=L6)
        block_sparse_offset = (0 + (0 - 0) * 1) // 2  # load0_block_sparse_offset: stage 0, partition 0 (group 0)
        block_sparse_offset_104 = q_ptr_59 + block_sparse_offset  # load0_block_sparse_offset: stage 0, partition 0 (group 0)
        block_sparse_offset_105 = gl.load(block_sparse_offset_104)  # load0_block_sparse_offset: stage 0, partition 0 (group 0)
        block_sparse_offset_106 = block_sparse_offset_105 * 2  # elementwise0_block_sparse_offset: stage 0, partition 0 (group 0)
        block_sparse_offset_107 = (0 + (0 - 0) * 1) % 2  # elementwise0_block_sparse_offset: stage 0, partition 0 (group 0)
        block_sparse_offset_108 = block_sparse_offset_106 + block_sparse_offset_107  # elementwise0_block_sparse_offset: stage 0, partition 0 (group 0)
        block_sparse_offset_109 = block_sparse_offset_108 * 32  # elementwise0_block_sparse_offset: stage 0, partition 0 (group 0)
        offs_m_114 = block_sparse_offset_109  # load2_m: stage 0, partition 0 (group 0)
        offs_m_115 = offs_m_114 + offs_m  # load2_m: stage 0, partition 0 (group 0)
        m_116 = M_14 + offs_m_115  # load2_m: stage 0, partition 0 (group 0)
        m_117 = gl.load(m_116)  # load2_m: stage 0, partition 0 (group 0)
        Di_128 = D_15 + offs_m_115  # load4_Di: stage 0, partition 0 (group 0)
        Di_129 = gl.load(Di_128)  # load4_Di: stage 0, partition 0 (group 0)
        Di_129_p1 = Di_129
        block_sparse_offset_109_p1 = block_sparse_offset_109
        dk_137_p1 = dk_137
        dv_p1 = dv
        m_117_p1 = m_117
        for twill_b in range(1, twill_n):
            block_sparse_offset = (0 + (twill_b - 0) * 1) // 2  # load0_block_sparse_offset: stage 0, partition 0 (group 0)
            block_sparse_offset_104 = q_ptr_59 + block_sparse_offset  # load0_block_sparse_offset: stage 0, partition 0 (group 0)
            block_sparse_offset_105 = gl.load(block_sparse_offset_104)  # load0_block_sparse_offset: stage 0, partition 0 (group 0)
            block_sparse_offset_106 = block_sparse_offset_105 * 2  # elementwise0_block_sparse_offset: stage 0, partition 0 (group 0)
            block_sparse_offset_107 = (0 + (twill_b - 0) * 1) % 2  # elementwise0_block_sparse_offset: stage 0, partition 0 (group 0)
            block_sparse_offset_108 = block_sparse_offset_106 + block_sparse_offset_107  # elementwise0_block_sparse_offset: stage 0, partition 0 (group 0)
            block_sparse_offset_109 = block_sparse_offset_108 * 32  # elementwise0_block_sparse_offset: stage 0, partition 0 (group 0)
            qT = block_sparse_offset_109_p1 * stride_tok  # elementwise1_qT: stage 1, partition 0 (group 0)
            qT_110 = qT  # load1_qT: stage 1, partition 0 (group 0)
            qT_111 = qT_ptrs_46 + qT_110  # load1_qT: stage 1, partition 0 (group 0)
            qT_112 = gl.load(qT_111)  # load1_qT: stage 1, partition 0 (group 0)
            qT_113 = qT_113_st.index((twill_b - 1) % 2)  # load1_qT: stage 1, partition 0 (group 0)
            qT_113.store(qT_112)  # load1_qT: stage 1, partition 0 (group 0)
            fence_async_shared()  # load1_qT: stage 1, partition 0 (group 0)
            tok_qkT = warpgroup_mma(k_31, qT_113, gl.full([64, 32], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_qkT: stage 1, partition 0 (group 0)
            offs_m_114 = block_sparse_offset_109  # load2_m: stage 0, partition 0 (group 0)
            offs_m_115 = offs_m_114 + offs_m  # load2_m: stage 0, partition 0 (group 0)
            m_116 = M_14 + offs_m_115  # load2_m: stage 0, partition 0 (group 0)
            m_117 = gl.load(m_116)  # load2_m: stage 0, partition 0 (group 0)
            pT_118 = gl.expand_dims(m_117_p1, 0)  # sfu0_pT: stage 1, partition 0 (group 0)
            pT_119 = pT_118.broadcast_to([64, 32])  # sfu0_pT: stage 1, partition 0 (group 0)
            dk_137_p1, qkT = warpgroup_mma_wait(0, deps=(dk_137_p1, tok_qkT,))
            pT_120 = qkT - pT_119  # sfu0_pT: stage 1, partition 0 (group 0)
            pT_121 = gl.exp2(pT_120)  # sfu0_pT: stage 1, partition 0 (group 0)
            pT_122 = gl.where(pT_62, pT_121, 0.0)  # elementwise2_pT: stage 1, partition 0 (group 0)
            ppT = pT_122.to(gl.bfloat16)  # convert0_ppT: stage 1, partition 0 (group 0)
            ppT_127 = gl.convert_layout(ppT, L8)  # convert0_ppT: stage 1, partition 0 (group 0)
            do_123 = qT  # load3_do: stage 1, partition 0 (group 0)
            do_124 = do_ptrs_54 + do_123  # load3_do: stage 1, partition 0 (group 0)
            do_125 = gl.load(do_124)  # load3_do: stage 1, partition 0 (group 0)
            do_126 = do_126_st.index((twill_b - 1) % 2)  # load3_do: stage 1, partition 0 (group 0)
            do_126.store(do_125)  # load3_do: stage 1, partition 0 (group 0)
            fence_async_shared()  # load3_do: stage 1, partition 0 (group 0)
            tok_dv = warpgroup_mma(ppT_127, do_126, dv_p1, is_async=True)  # dot1_dv: stage 1, partition 0 (group 0)
            dpT = do_126.permute((1, 0))  # load3_do: stage 1, partition 0 (group 0)
            tok_dpT_130 = warpgroup_mma(v_36, dpT, gl.full([64, 32], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot2_dpT: stage 1, partition 0 (group 0)
            Di_128 = D_15 + offs_m_115  # load4_Di: stage 0, partition 0 (group 0)
            Di_129 = gl.load(Di_128)  # load4_Di: stage 0, partition 0 (group 0)
            dsT = gl.expand_dims(Di_129_p1, 0)  # elementwise3_dsT: stage 1, partition 0 (group 0)
            dsT_131 = dsT.broadcast_to([64, 32])  # elementwise3_dsT: stage 1, partition 0 (group 0)
            dv, dpT_130 = warpgroup_mma_wait(0, deps=(tok_dv, tok_dpT_130,))
            dsT_132 = dpT_130 - dsT_131  # elementwise3_dsT: stage 1, partition 0 (group 0)
            dsT_133 = pT_122 * dsT_132  # elementwise3_dsT: stage 1, partition 0 (group 0)
            dsT_134 = dsT_133.to(gl.bfloat16)  # convert1_dsT: stage 1, partition 0 (group 0)
            dsT_136 = gl.convert_layout(dsT_134, L8)  # convert1_dsT: stage 1, partition 0 (group 0)
            dk_135 = qT_113.permute((1, 0))  # load1_qT: stage 1, partition 0 (group 0)
            tok_dk_137 = warpgroup_mma(dsT_136, dk_135, dk_137_p1, is_async=True)  # dot3_dk: stage 1, partition 0 (group 0)
            dk_137 = warpgroup_mma_wait(1, deps=(tok_dk_137,))
            Di_129_p1 = Di_129
            block_sparse_offset_109_p1 = block_sparse_offset_109
            dk_137_p1 = dk_137
            dv_p1 = dv
            m_117_p1 = m_117
        qT = block_sparse_offset_109_p1 * stride_tok  # elementwise1_qT: stage 1, partition 0 (group 0)
        qT_110 = qT  # load1_qT: stage 1, partition 0 (group 0)
        qT_111 = qT_ptrs_46 + qT_110  # load1_qT: stage 1, partition 0 (group 0)
        qT_112 = gl.load(qT_111)  # load1_qT: stage 1, partition 0 (group 0)
        qT_113 = qT_113_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_qT: stage 1, partition 0 (group 0)
        qT_113.store(qT_112)  # load1_qT: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_qT: stage 1, partition 0 (group 0)
        tok_qkT = warpgroup_mma(k_31, qT_113, gl.full([64, 32], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_qkT: stage 1, partition 0 (group 0)
        pT_118 = gl.expand_dims(m_117_p1, 0)  # sfu0_pT: stage 1, partition 0 (group 0)
        pT_119 = pT_118.broadcast_to([64, 32])  # sfu0_pT: stage 1, partition 0 (group 0)
        dk_137_p1, qkT = warpgroup_mma_wait(0, deps=(dk_137_p1, tok_qkT,))
        pT_120 = qkT - pT_119  # sfu0_pT: stage 1, partition 0 (group 0)
        pT_121 = gl.exp2(pT_120)  # sfu0_pT: stage 1, partition 0 (group 0)
        pT_122 = gl.where(pT_62, pT_121, 0.0)  # elementwise2_pT: stage 1, partition 0 (group 0)
        ppT = pT_122.to(gl.bfloat16)  # convert0_ppT: stage 1, partition 0 (group 0)
        ppT_127 = gl.convert_layout(ppT, L8)  # convert0_ppT: stage 1, partition 0 (group 0)
        do_123 = qT  # load3_do: stage 1, partition 0 (group 0)
        do_124 = do_ptrs_54 + do_123  # load3_do: stage 1, partition 0 (group 0)
        do_125 = gl.load(do_124)  # load3_do: stage 1, partition 0 (group 0)
        do_126 = do_126_st.index(((twill_n - 1 + 1) - 1) % 2)  # load3_do: stage 1, partition 0 (group 0)
        do_126.store(do_125)  # load3_do: stage 1, partition 0 (group 0)
        fence_async_shared()  # load3_do: stage 1, partition 0 (group 0)
        tok_dv = warpgroup_mma(ppT_127, do_126, dv_p1, is_async=True)  # dot1_dv: stage 1, partition 0 (group 0)
        dpT = do_126.permute((1, 0))  # load3_do: stage 1, partition 0 (group 0)
        tok_dpT_130 = warpgroup_mma(v_36, dpT, gl.full([64, 32], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot2_dpT: stage 1, partition 0 (group 0)
        dsT = gl.expand_dims(Di_129_p1, 0)  # elementwise3_dsT: stage 1, partition 0 (group 0)
        dsT_131 = dsT.broadcast_to([64, 32])  # elementwise3_dsT: stage 1, partition 0 (group 0)
        dv, dpT_130 = warpgroup_mma_wait(0, deps=(tok_dv, tok_dpT_130,))
        dsT_132 = dpT_130 - dsT_131  # elementwise3_dsT: stage 1, partition 0 (group 0)
        dsT_133 = pT_122 * dsT_132  # elementwise3_dsT: stage 1, partition 0 (group 0)
        dsT_134 = dsT_133.to(gl.bfloat16)  # convert1_dsT: stage 1, partition 0 (group 0)
        dsT_136 = gl.convert_layout(dsT_134, L8)  # convert1_dsT: stage 1, partition 0 (group 0)
        dk_135 = qT_113.permute((1, 0))  # load1_qT: stage 1, partition 0 (group 0)
        tok_dk_137 = warpgroup_mma(dsT_136, dk_135, dk_137_p1, is_async=True)  # dot3_dk: stage 1, partition 0 (group 0)
        dk_137 = warpgroup_mma_wait(1, deps=(tok_dk_137,))
        Di_129_p1 = Di_129
        block_sparse_offset_109_p1 = block_sparse_offset_109
        dk_137_p1 = dk_137
        dv_p1 = dv
        m_117_p1 = m_117
        dk_137_p1 = warpgroup_mma_wait(0, deps=(dk_137_p1,))
        k_31._keep_alive()
        qT_113_st._keep_alive()
        do_126_st._keep_alive()
        v_36._keep_alive()
    else:
        dk_137_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L6)
        dv_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L6)
    twill_base += twill_n
    dv_ptrs_64 = DV_13 + k_22
    dv_ptrs_65 = dv_ptrs_64.broadcast_to([64, 128])
    dv_ptrs_66 = dv_ptrs_65 + k_28
    v1 = dv_p1.to(gl.bfloat16)
    v2 = gl.convert_layout(v1, L9)
    gl.store(dv_ptrs_66, v2)
    dk_67 = dk_137_p1 * sm_scale
    dk_ptrs_68 = DK_12 + k_22
    dk_ptrs_69 = dk_ptrs_68.broadcast_to([64, 128])
    dk_ptrs_70 = dk_ptrs_69 + k_28
    v3 = dk_67.to(gl.bfloat16)
    v4 = gl.convert_layout(v3, L9)
    gl.store(dk_ptrs_70, v4)
    q_71 = Q_7 + k_22
    q_72 = q_71.broadcast_to([64, 128])
    q_73 = q_72 + k_28
    q_74 = gl.load(q_73)
    q_75 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_74)
    fence_async_shared()
    do_76 = DO_10 + k_22
    do_77 = do_76.broadcast_to([64, 128])
    do_78 = do_77 + k_28
    do_79 = gl.load(do_78)
    do_80 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), do_79)
    fence_async_shared()
    m_82 = M_14 + offs_n_20
    m_83 = gl.load(m_82)
    m_84 = gl.expand_dims(m_83, 1)
    kT_ptrs_85 = K_8 + qT_ptrs_39
    kT_ptrs_86 = kT_ptrs_85.broadcast_to([128, 32])
    kT_ptrs_87 = kT_ptrs_86 + qT_ptrs_45
    vT_ptrs_88 = V_9 + qT_ptrs_39
    vT_ptrs_89 = vT_ptrs_88.broadcast_to([128, 32])
    vT_ptrs_90 = vT_ptrs_89 + qT_ptrs_45
    Di_92 = D_15 + offs_n_20
    Di_93 = gl.load(Di_92)
    kv_blocks = q2k_num + meta_base_57
    kv_blocks_94 = gl.load(kv_blocks)
    kv_ptr = meta_base_57 * max_kv_blks
    kv_ptr_95 = q2k_index + kv_ptr
    dq_96 = kv_blocks_94 * 2
    p = m_84.broadcast_to([64, 32])
    ds = gl.expand_dims(Di_93, 1)
    ds_97 = ds.broadcast_to([64, 32])
    twill_n = (dq_96 - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        vT_115_st = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        kT_113_st = gl.allocate_shared_memory(gl.bfloat16, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        dq_130 = gl.full([64, 128], 0.0, gl.float32, layout=L6)
        kv_idx = (0 + (0 - 0) * 1) // 2  # load0_kv_idx: stage 0, partition 0 (group 0)
        kv_idx_104 = kv_ptr_95 + kv_idx  # load0_kv_idx: stage 0, partition 0 (group 0)
        kv_idx_105 = gl.load(kv_idx_104)  # load0_kv_idx: stage 0, partition 0 (group 0)
        block_size_106 = variable_block_sizes + kv_idx_105  # load1_block_size: stage 0, partition 0 (group 0)
        block_size_107 = gl.load(block_size_106)  # load1_block_size: stage 0, partition 0 (group 0)
        block_size_107_p1 = block_size_107
        dq_130_p1 = dq_130
        kv_idx_105_p1 = kv_idx_105
        for twill_b in range(1, twill_n):
            kv_idx = (0 + (twill_b - 0) * 1) // 2  # load0_kv_idx: stage 0, partition 0 (group 0)
            kv_idx_104 = kv_ptr_95 + kv_idx  # load0_kv_idx: stage 0, partition 0 (group 0)
            kv_idx_105 = gl.load(kv_idx_104)  # load0_kv_idx: stage 0, partition 0 (group 0)
            half = (0 + (twill_b - 1) * 1) % 2  # elementwise0_block_sparse_offset: stage 1, partition 0 (group 0)
            block_sparse_offset_l1 = kv_idx_105_p1 * 2  # elementwise0_block_sparse_offset: stage 1, partition 0 (group 0)
            block_sparse_offset_108_l1 = block_sparse_offset_l1 + half  # elementwise0_block_sparse_offset: stage 1, partition 0 (group 0)
            block_sparse_offset_109_l1 = block_sparse_offset_108_l1 * 32  # elementwise0_block_sparse_offset: stage 1, partition 0 (group 0)
            block_sparse_offset_110 = block_sparse_offset_109_l1 * stride_tok  # elementwise0_block_sparse_offset: stage 1, partition 0 (group 0)
            kT = block_sparse_offset_110  # load2_kT: stage 1, partition 0 (group 0)
            vT = vT_ptrs_90 + kT  # load3_vT: stage 1, partition 0 (group 0)
            vT_114 = gl.load(vT)  # load3_vT: stage 1, partition 0 (group 0)
            vT_115 = vT_115_st.index((twill_b - 1) % 2)  # load3_vT: stage 1, partition 0 (group 0)
            vT_115.store(vT_114)  # load3_vT: stage 1, partition 0 (group 0)
            fence_async_shared()  # load3_vT: stage 1, partition 0 (group 0)
            tok_dp = warpgroup_mma(do_80, vT_115, gl.full([64, 32], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot1_dp: stage 1, partition 0 (group 0)
            kT_111 = kT_ptrs_87 + kT  # load2_kT: stage 1, partition 0 (group 0)
            kT_112 = gl.load(kT_111)  # load2_kT: stage 1, partition 0 (group 0)
            kT_113 = kT_113_st.index((twill_b - 1) % 2)  # load2_kT: stage 1, partition 0 (group 0)
            kT_113.store(kT_112)  # load2_kT: stage 1, partition 0 (group 0)
            fence_async_shared()  # load2_kT: stage 1, partition 0 (group 0)
            tok_qk = warpgroup_mma(q_75, kT_113, gl.full([64, 32], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            dq_130_p1, dp, qk = warpgroup_mma_wait(0, deps=(dq_130_p1, tok_dp, tok_qk,))
            p_116 = qk - p  # sfu0_p: stage 1, partition 0 (group 0)
            p_117 = gl.exp2(p_116)  # sfu0_p: stage 1, partition 0 (group 0)
            block_size_106 = variable_block_sizes + kv_idx_105  # load1_block_size: stage 0, partition 0 (group 0)
            block_size_107 = gl.load(block_size_106)  # load1_block_size: stage 0, partition 0 (group 0)
            offs_in_block = half * 32  # elementwise1_p: stage 1, partition 0 (group 0)
            offs_in_block_118 = offs_in_block  # elementwise1_p: stage 1, partition 0 (group 0)
            offs_in_block_119 = offs_in_block_118 + offs_m  # elementwise1_p: stage 1, partition 0 (group 0)
            mask_120 = block_size_107_p1  # elementwise1_p: stage 1, partition 0 (group 0)
            mask_121 = offs_in_block_119 < mask_120  # elementwise1_p: stage 1, partition 0 (group 0)
            p_122 = gl.expand_dims(mask_121, 0)  # elementwise1_p: stage 1, partition 0 (group 0)
            p_123 = p_122.broadcast_to([64, 32])  # elementwise1_p: stage 1, partition 0 (group 0)
            p_124 = gl.where(p_123, p_117, 0.0)  # elementwise1_p: stage 1, partition 0 (group 0)
            ds_125 = dp - ds_97  # elementwise1_p: stage 1, partition 0 (group 0)
            ds_126 = p_124 * ds_125  # elementwise1_p: stage 1, partition 0 (group 0)
            ds_127 = ds_126.to(gl.bfloat16)  # convert0_ds: stage 1, partition 0 (group 0)
            ds_129 = gl.convert_layout(ds_127, L8)  # convert0_ds: stage 1, partition 0 (group 0)
            dq_128 = kT_113.permute((1, 0))  # load2_kT: stage 1, partition 0 (group 0)
            tok_dq_130 = warpgroup_mma(ds_129, dq_128, dq_130_p1, is_async=True)  # dot2_dq: stage 1, partition 0 (group 0)
            dq_130 = warpgroup_mma_wait(1, deps=(tok_dq_130,))
            block_size_107_p1 = block_size_107
            dq_130_p1 = dq_130
            kv_idx_105_p1 = kv_idx_105
        half = (0 + ((twill_n - 1 + 1) - 1) * 1) % 2  # elementwise0_block_sparse_offset: stage 1, partition 0 (group 0)
        block_sparse_offset_l1 = kv_idx_105_p1 * 2  # elementwise0_block_sparse_offset: stage 1, partition 0 (group 0)
        block_sparse_offset_108_l1 = block_sparse_offset_l1 + half  # elementwise0_block_sparse_offset: stage 1, partition 0 (group 0)
        block_sparse_offset_109_l1 = block_sparse_offset_108_l1 * 32  # elementwise0_block_sparse_offset: stage 1, partition 0 (group 0)
        block_sparse_offset_110 = block_sparse_offset_109_l1 * stride_tok  # elementwise0_block_sparse_offset: stage 1, partition 0 (group 0)
        kT = block_sparse_offset_110  # load2_kT: stage 1, partition 0 (group 0)
        vT = vT_ptrs_90 + kT  # load3_vT: stage 1, partition 0 (group 0)
        vT_114 = gl.load(vT)  # load3_vT: stage 1, partition 0 (group 0)
        vT_115 = vT_115_st.index(((twill_n - 1 + 1) - 1) % 2)  # load3_vT: stage 1, partition 0 (group 0)
        vT_115.store(vT_114)  # load3_vT: stage 1, partition 0 (group 0)
        fence_async_shared()  # load3_vT: stage 1, partition 0 (group 0)
        tok_dp = warpgroup_mma(do_80, vT_115, gl.full([64, 32], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot1_dp: stage 1, partition 0 (group 0)
        kT_111 = kT_ptrs_87 + kT  # load2_kT: stage 1, partition 0 (group 0)
        kT_112 = gl.load(kT_111)  # load2_kT: stage 1, partition 0 (group 0)
        kT_113 = kT_113_st.index(((twill_n - 1 + 1) - 1) % 2)  # load2_kT: stage 1, partition 0 (group 0)
        kT_113.store(kT_112)  # load2_kT: stage 1, partition 0 (group 0)
        fence_async_shared()  # load2_kT: stage 1, partition 0 (group 0)
        tok_qk = warpgroup_mma(q_75, kT_113, gl.full([64, 32], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        dq_130_p1, dp, qk = warpgroup_mma_wait(0, deps=(dq_130_p1, tok_dp, tok_qk,))
        p_116 = qk - p  # sfu0_p: stage 1, partition 0 (group 0)
        p_117 = gl.exp2(p_116)  # sfu0_p: stage 1, partition 0 (group 0)
        offs_in_block = half * 32  # elementwise1_p: stage 1, partition 0 (group 0)
        offs_in_block_118 = offs_in_block  # elementwise1_p: stage 1, partition 0 (group 0)
        offs_in_block_119 = offs_in_block_118 + offs_m  # elementwise1_p: stage 1, partition 0 (group 0)
        mask_120 = block_size_107_p1  # elementwise1_p: stage 1, partition 0 (group 0)
        mask_121 = offs_in_block_119 < mask_120  # elementwise1_p: stage 1, partition 0 (group 0)
        p_122 = gl.expand_dims(mask_121, 0)  # elementwise1_p: stage 1, partition 0 (group 0)
        p_123 = p_122.broadcast_to([64, 32])  # elementwise1_p: stage 1, partition 0 (group 0)
        p_124 = gl.where(p_123, p_117, 0.0)  # elementwise1_p: stage 1, partition 0 (group 0)
        ds_125 = dp - ds_97  # elementwise1_p: stage 1, partition 0 (group 0)
        ds_126 = p_124 * ds_125  # elementwise1_p: stage 1, partition 0 (group 0)
        ds_127 = ds_126.to(gl.bfloat16)  # convert0_ds: stage 1, partition 0 (group 0)
        ds_129 = gl.convert_layout(ds_127, L8)  # convert0_ds: stage 1, partition 0 (group 0)
        dq_128 = kT_113.permute((1, 0))  # load2_kT: stage 1, partition 0 (group 0)
        tok_dq_130 = warpgroup_mma(ds_129, dq_128, dq_130_p1, is_async=True)  # dot2_dq: stage 1, partition 0 (group 0)
        dq_130 = warpgroup_mma_wait(1, deps=(tok_dq_130,))
        block_size_107_p1 = block_size_107
        dq_130_p1 = dq_130
        kv_idx_105_p1 = kv_idx_105
        dq_130_p1 = warpgroup_mma_wait(0, deps=(dq_130_p1,))
        do_80._keep_alive()
        vT_115_st._keep_alive()
        q_75._keep_alive()
        kT_113_st._keep_alive()
    else:
        dq_130_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L6)
    dq_ptrs_99 = DQ_11 + k_22
    dq_ptrs_100 = dq_ptrs_99.broadcast_to([64, 128])
    dq_ptrs_101 = dq_ptrs_100 + k_28
    dq_102 = dq_130_p1 * 0.693147182
    v5 = dq_102.to(gl.bfloat16)
    v6 = gl.convert_layout(v5, L9)
    gl.store(dq_ptrs_101, v6)

@gluon.jit
def twill_kernel(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D, q2k_index, q2k_num, max_kv_blks, k2q_index, k2q_num, max_q_blks, variable_block_sizes, stride_z, stride_h, stride_tok, H, N_CTX):
    consumer_0(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D, q2k_index, q2k_num, max_kv_blks, k2q_index, k2q_num, max_q_blks, variable_block_sizes, stride_z, stride_h, stride_tok, H, N_CTX, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DQ', 'DK', 'DV', 'M', 'D', 'q2k_index', 'q2k_num', 'max_kv_blks', 'k2q_index', 'k2q_num', 'max_q_blks', 'variable_block_sizes', 'stride_z', 'stride_h', 'stride_tok', 'stride_d', 'H', 'N_CTX', 'BLOCK_M1', 'BLOCK_N1', 'BLOCK_M2', 'BLOCK_N2', 'HEAD_DIM']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DQ', 'DK', 'DV', 'M', 'D', 'q2k_index', 'q2k_num', 'max_kv_blks', 'k2q_index', 'k2q_num', 'max_q_blks', 'variable_block_sizes', 'stride_z', 'stride_h', 'stride_tok', 'H', 'N_CTX']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DQ', 'DK', 'DV', 'M', 'D', 'q2k_index', 'q2k_num', 'max_kv_blks', 'k2q_index', 'k2q_num', 'max_q_blks', 'variable_block_sizes', 'stride_z', 'stride_h', 'stride_tok', 'H', 'N_CTX']   # the arguments a launch key reads
CONSTEXPRS = {'stride_d': 1, 'BLOCK_M1': 32, 'BLOCK_N1': 64, 'BLOCK_M2': 64, 'BLOCK_N2': 32, 'HEAD_DIM': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
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
