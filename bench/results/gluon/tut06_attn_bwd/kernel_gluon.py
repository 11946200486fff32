"""_attn_bwd, written by twill from its joint schedule: I=163 L=163 (optimal), 869 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (qT_167_ring: 5 x 4096 B, issued 3 iteration(s) ahead, do_176_ring: 5 x 4096 B, issued 3 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 3 stage(s) ahead of their readers; 4 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 248 per thread)
- shared memory: 73744 bytes planned of 232448; maxnreg unset (ptxas allocates)
- pointer loads held across the iteration in a compact layout (the prefetched value is converted to its readers' layout where it is read; in theirs, each thread would hold a replicated copy): m_171 (partition 0: 1 register(s) per thread, not 8); Di_179 (partition 0: 1 register(s) per thread, not 8)
- loop at tut06_attn_bwd.py:80 (in a helper called at line 217) (TTGIR line 117) (before the scheduled loop): written by the same partitions, its tiles loaded by the partition itself, in one stage of its own schedule (I=136, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at tut06_attn_bwd.py:134 (in a helper called at line 273) (TTGIR line 274) (after the scheduled loop): written by the same partitions, its tiles loaded by the partition itself, in one stage of its own schedule (I=297, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at tut06_attn_bwd.py:134 (in a helper called at line 286) (TTGIR line 320) (after the scheduled loop): written by the same partitions, its tiles loaded by the partition itself, in one stage of its own schedule (I=240, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 16, 16])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 16, 16])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 16, 16]))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L10 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16]))
L11 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16])))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L13 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16])))

@gluon.jit
def consumer_0(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D, stride_z, stride_h, stride_tok, H, N_CTX, TWILL_COPY: gl.constexpr):
    twill_base = 0
    bhid = gl.program_id(2)
    off_chz = bhid * N_CTX
    off_chz_2 = gl.cast(off_chz, gl.int64)
    adj = bhid % H
    adj_3 = stride_h * adj
    adj_4 = bhid // H
    adj_5 = stride_z * adj_4
    adj_6 = adj_3 + adj_5
    adj_7 = gl.cast(adj_6, gl.int64)
    pid = gl.program_id(0)
    Q_8 = Q + adj_7
    K_9 = K + adj_7
    V_10 = V + adj_7
    DO_11 = DO + adj_7
    DQ_12 = DQ + adj_7
    DK_13 = DK + adj_7
    DV_14 = DV + adj_7
    M_15 = M + off_chz_2
    D_16 = D + off_chz_2
    start_n = pid * 128
    offs_n = gl.arange(0, 128, layout=L0)
    offs_n_17 = gl.arange(0, 128, layout=L1)
    offs_n_18 = gl.arange(0, 128, layout=L2)
    offs_n_22 = start_n + offs_n
    offs_n_23 = start_n + offs_n_17
    offs_n_24 = start_n + offs_n_18
    k = gl.expand_dims(offs_n_22, 1)
    k_25 = gl.expand_dims(offs_n_23, 1)
    k_27 = k * stride_tok
    k_29 = K_9 + k_27
    k_30 = gl.arange(0, 64, layout=L3)
    k_31 = gl.expand_dims(k_30, 0)
    k_32 = k_29.broadcast_to([128, 64])
    k_33 = k_31.broadcast_to([128, 64])
    k_34 = k_32 + k_33
    k_35 = gl.load(k_34)
    k_36 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), k_35)
    fence_async_shared()
    v_37 = V_10 + k_27
    v_38 = v_37.broadcast_to([128, 64])
    v_39 = v_38 + k_33
    v_40 = gl.load(v_39)
    v_41 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v_40)
    fence_async_shared()
    offs_m = gl.arange(0, 16, layout=L4)
    offs_m_42 = gl.arange(0, 16, layout=L5)
    offs_m_43 = gl.arange(0, 16, layout=L0)
    offs_m_46 = start_n + offs_m
    offs_m_47 = start_n + offs_m_43
    qT_ptrs = gl.expand_dims(offs_m_46, 0)
    qT_ptrs_49 = qT_ptrs * stride_tok
    qT_ptrs_51 = Q_8 + qT_ptrs_49
    qT_ptrs_52 = gl.arange(0, 64, layout=L6)
    qT_ptrs_53 = gl.expand_dims(qT_ptrs_52, 1)
    qT_ptrs_54 = qT_ptrs_51.broadcast_to([64, 16])
    qT_ptrs_55 = qT_ptrs_53.broadcast_to([64, 16])
    qT_ptrs_56 = qT_ptrs_54 + qT_ptrs_55
    do_ptrs = gl.expand_dims(offs_m_47, 1)
    do_ptrs_58 = do_ptrs * stride_tok
    do_ptrs_60 = DO_11 + do_ptrs_58
    do_ptrs_61 = do_ptrs_60.broadcast_to([16, 64])
    do_ptrs_62 = k_31.broadcast_to([16, 64])
    do_ptrs_63 = do_ptrs_61 + do_ptrs_62
    mask = k_25.broadcast_to([128, 16])
    qT_ptrs_64 = stride_tok * 16
    twill_n = (8 - 0 + 1 - 1) // 1
    qT_165_ring = gl.allocate_shared_memory(gl.float16, [5, 64, 16], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    do_178_ring = gl.allocate_shared_memory(gl.float16, [5, 16, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    qT_ptrs_191 = qT_ptrs_56
    do_ptrs_192 = do_ptrs_63
    do_ptrs_192_p1 = do_ptrs_192
    qT_ptrs_191_p1 = qT_ptrs_191
    qT_ptrs_191 = qT_ptrs_191_p1 + qT_ptrs_64  # load0_qT: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_qT: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(qT_165_ring.index((twill_base + 0 - 0) % 5), qT_ptrs_191_p1)  # load0_qT: stage 0, partition 0 (group 0)
    else:  # load0_qT: stage 0, partition 0 (group 0)
        qT_165_ring.index((twill_base + 0 - 0) % 5).store(gl.load(qT_ptrs_191_p1))  # load0_qT: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_qT: stage 0, partition 0 (group 0)
    do_ptrs_192 = do_ptrs_192_p1 + qT_ptrs_64  # load2_do: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load2_do: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(do_178_ring.index((twill_base + 0 - 0) % 5), do_ptrs_192_p1)  # load2_do: stage 0, partition 0 (group 0)
    else:  # load2_do: stage 0, partition 0 (group 0)
        do_178_ring.index((twill_base + 0 - 0) % 5).store(gl.load(do_ptrs_192_p1))  # load2_do: stage 0, partition 0 (group 0)
        fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    do_ptrs_192_p1 = do_ptrs_192
    qT_ptrs_191_p1 = qT_ptrs_191
    curr_m_190 = start_n
    qT_ptrs_191 = qT_ptrs_191_p1 + qT_ptrs_64  # load0_qT: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_qT: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(qT_165_ring.index((twill_base + 1 - 0) % 5), qT_ptrs_191_p1)  # load0_qT: stage 0, partition 0 (group 0)
    else:  # load0_qT: stage 0, partition 0 (group 0)
        qT_165_ring.index((twill_base + 1 - 0) % 5).store(gl.load(qT_ptrs_191_p1))  # load0_qT: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_qT: stage 0, partition 0 (group 0)
    do_ptrs_192 = do_ptrs_192_p1 + qT_ptrs_64  # load2_do: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load2_do: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(do_178_ring.index((twill_base + 1 - 0) % 5), do_ptrs_192_p1)  # load2_do: stage 0, partition 0 (group 0)
    else:  # load2_do: stage 0, partition 0 (group 0)
        do_178_ring.index((twill_base + 1 - 0) % 5).store(gl.load(do_ptrs_192_p1))  # load2_do: stage 0, partition 0 (group 0)
        fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    curr_m_190_p1 = curr_m_190
    do_ptrs_192_p1 = do_ptrs_192
    qT_ptrs_191_p1 = qT_ptrs_191
    dk_189 = gl.full([128, 64], 0.0, gl.float32, layout=L7)
    dv_l0 = gl.full([128, 64], 0.0, gl.float32, layout=L7)
    qT_ptrs_191 = qT_ptrs_191_p1 + qT_ptrs_64  # load0_qT: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_qT: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(qT_165_ring.index((twill_base + 2 - 0) % 5), qT_ptrs_191_p1)  # load0_qT: stage 0, partition 0 (group 0)
    else:  # load0_qT: stage 0, partition 0 (group 0)
        qT_165_ring.index((twill_base + 2 - 0) % 5).store(gl.load(qT_ptrs_191_p1))  # load0_qT: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_qT: stage 0, partition 0 (group 0)
    offs_m_166 = curr_m_190_p1  # load1_m: stage 2, partition 0 (group 0)
    offs_m_167 = offs_m_166 + offs_m_42  # load1_m: stage 2, partition 0 (group 0)
    m_168 = M_15 + offs_m_167  # load1_m: stage 2, partition 0 (group 0)
    m_169 = gl.load(m_168)  # load1_m: stage 2, partition 0 (group 0)
    do_ptrs_192 = do_ptrs_192_p1 + qT_ptrs_64  # load2_do: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load2_do: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(do_178_ring.index((twill_base + 2 - 0) % 5), do_ptrs_192_p1)  # load2_do: stage 0, partition 0 (group 0)
    else:  # load2_do: stage 0, partition 0 (group 0)
        do_178_ring.index((twill_base + 2 - 0) % 5).store(gl.load(do_ptrs_192_p1))  # load2_do: stage 0, partition 0 (group 0)
        fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
    curr_m_190 = curr_m_190_p1 + 16  # load1_m: stage 2, partition 0 (group 0)
    Di_180 = D_16 + offs_m_167  # load3_Di: stage 2, partition 0 (group 0)
    Di_181 = gl.load(Di_180)  # load3_Di: stage 2, partition 0 (group 0)
    async_copy.commit_group()
    Di_181_p1 = Di_181
    curr_m_190_p1 = curr_m_190
    dk_189_p1 = dk_189
    do_ptrs_192_p1 = do_ptrs_192
    dv_l0_p1 = dv_l0
    m_169_p1 = m_169
    offs_m_167_p1 = offs_m_167
    qT_ptrs_191_p1 = qT_ptrs_191
    for twill_b in range(3, twill_n):
        async_copy.wait_group(2)
        gl.thread_barrier()
        qT_165 = qT_165_ring.index((twill_base + twill_b - 3) % 5)  # load0_qT: stage 3, partition 0 (group 0)
        qT_ptrs_191 = qT_ptrs_191_p1 + qT_ptrs_64  # load0_qT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_qT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(qT_165_ring.index((twill_base + twill_b - 0) % 5), qT_ptrs_191_p1)  # load0_qT: stage 0, partition 0 (group 0)
        else:  # load0_qT: stage 0, partition 0 (group 0)
            qT_165_ring.index((twill_base + twill_b - 0) % 5).store(gl.load(qT_ptrs_191_p1))  # load0_qT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_qT: stage 0, partition 0 (group 0)
        tok_qkT_l0 = warpgroup_mma(k_36, qT_165, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qkT: stage 3, partition 0 (group 0)
        offs_m_166 = curr_m_190_p1  # load1_m: stage 2, partition 0 (group 0)
        offs_m_167 = offs_m_166 + offs_m_42  # load1_m: stage 2, partition 0 (group 0)
        m_168 = M_15 + offs_m_167  # load1_m: stage 2, partition 0 (group 0)
        m_169 = gl.load(m_168)  # load1_m: stage 2, partition 0 (group 0)
        pT_l0 = gl.expand_dims(m_169_p1, 0)  # sfu0_pT: stage 3, partition 0 (group 0)
        pT_170 = pT_l0.broadcast_to([128, 16])  # sfu0_pT: stage 3, partition 0 (group 0)
        dk_189_p1, qkT_l0 = warpgroup_mma_wait(0, deps=(dk_189_p1, tok_qkT_l0,))
        pT_171 = qkT_l0 - pT_170  # sfu0_pT: stage 3, partition 0 (group 0)
        pT_172_l0 = gl.exp2(pT_171)  # sfu0_pT: stage 3, partition 0 (group 0)
        do_178 = do_178_ring.index((twill_base + twill_b - 3) % 5)  # load2_do: stage 3, partition 0 (group 0)
        do_ptrs_192 = do_ptrs_192_p1 + qT_ptrs_64  # load2_do: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_do: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(do_178_ring.index((twill_base + twill_b - 0) % 5), do_ptrs_192_p1)  # load2_do: stage 0, partition 0 (group 0)
        else:  # load2_do: stage 0, partition 0 (group 0)
            do_178_ring.index((twill_base + twill_b - 0) % 5).store(gl.load(do_ptrs_192_p1))  # load2_do: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
        dpT_l0 = do_178.permute((1, 0))  # load2_do: stage 3, partition 0 (group 0)
        tok_dpT_182 = warpgroup_mma(v_41, dpT_l0, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot2_dpT: stage 3, partition 0 (group 0)
        mask_173_l0 = gl.expand_dims(offs_m_167_p1, 0)  # elementwise0_pT: stage 3, partition 0 (group 0)
        mask_174 = mask_173_l0.broadcast_to([128, 16])  # elementwise0_pT: stage 3, partition 0 (group 0)
        mask_175 = mask_174 >= mask  # elementwise0_pT: stage 3, partition 0 (group 0)
        pT_176 = gl.where(mask_175, pT_172_l0, 0.0)  # elementwise0_pT: stage 3, partition 0 (group 0)
        ppT_l0 = pT_176.to(gl.float16)  # convert0_ppT: stage 3, partition 0 (group 0)
        ppT_179 = gl.convert_layout(ppT_l0, L9)  # convert0_ppT: stage 3, partition 0 (group 0)
        curr_m_190 = curr_m_190_p1 + 16  # load1_m: stage 2, partition 0 (group 0)
        Di_180 = D_16 + offs_m_167  # load3_Di: stage 2, partition 0 (group 0)
        Di_181 = gl.load(Di_180)  # load3_Di: stage 2, partition 0 (group 0)
        dsT_l0 = gl.expand_dims(Di_181_p1, 0)  # elementwise1_dsT: stage 3, partition 0 (group 0)
        dsT_183_l0 = dsT_l0.broadcast_to([128, 16])  # elementwise1_dsT: stage 3, partition 0 (group 0)
        dpT_182 = warpgroup_mma_wait(0, deps=(tok_dpT_182,))
        dsT_184_l0 = dpT_182 - dsT_183_l0  # elementwise1_dsT: stage 3, partition 0 (group 0)
        dsT_185 = pT_176 * dsT_184_l0  # elementwise1_dsT: stage 3, partition 0 (group 0)
        tok_dv_l0 = warpgroup_mma(ppT_179, do_178, dv_l0_p1, is_async=True)  # dot1_dv: stage 3, partition 0 (group 0)
        dsT_186_l0 = dsT_185.to(gl.float16)  # convert1_dsT: stage 3, partition 0 (group 0)
        dsT_188 = gl.convert_layout(dsT_186_l0, L9)  # convert1_dsT: stage 3, partition 0 (group 0)
        dk_187_l0 = qT_165.permute((1, 0))  # load0_qT: stage 3, partition 0 (group 0)
        tok_dk_189 = warpgroup_mma(dsT_188, dk_187_l0, dk_189_p1, is_async=True)  # dot3_dk: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        dv_l0 = warpgroup_mma_wait(1, deps=(tok_dv_l0,))
        dk_189 = warpgroup_mma_wait(1, deps=(tok_dk_189,))
        Di_181_p1 = Di_181
        curr_m_190_p1 = curr_m_190
        dk_189_p1 = dk_189
        do_ptrs_192_p1 = do_ptrs_192
        dv_l0_p1 = dv_l0
        m_169_p1 = m_169
        offs_m_167_p1 = offs_m_167
        qT_ptrs_191_p1 = qT_ptrs_191
    async_copy.wait_group(2)
    gl.thread_barrier()
    qT_165 = qT_165_ring.index((twill_base + (twill_n - 1 + 1) - 3) % 5)  # load0_qT: stage 3, partition 0 (group 0)
    tok_qkT_l0 = warpgroup_mma(k_36, qT_165, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qkT: stage 3, partition 0 (group 0)
    offs_m_166 = curr_m_190_p1  # load1_m: stage 2, partition 0 (group 0)
    offs_m_167 = offs_m_166 + offs_m_42  # load1_m: stage 2, partition 0 (group 0)
    m_168 = M_15 + offs_m_167  # load1_m: stage 2, partition 0 (group 0)
    m_169 = gl.load(m_168)  # load1_m: stage 2, partition 0 (group 0)
    pT_l0 = gl.expand_dims(m_169_p1, 0)  # sfu0_pT: stage 3, partition 0 (group 0)
    pT_170 = pT_l0.broadcast_to([128, 16])  # sfu0_pT: stage 3, partition 0 (group 0)
    dk_189_p1, qkT_l0 = warpgroup_mma_wait(0, deps=(dk_189_p1, tok_qkT_l0,))
    pT_171 = qkT_l0 - pT_170  # sfu0_pT: stage 3, partition 0 (group 0)
    pT_172_l0 = gl.exp2(pT_171)  # sfu0_pT: stage 3, partition 0 (group 0)
    do_178 = do_178_ring.index((twill_base + (twill_n - 1 + 1) - 3) % 5)  # load2_do: stage 3, partition 0 (group 0)
    dpT_l0 = do_178.permute((1, 0))  # load2_do: stage 3, partition 0 (group 0)
    tok_dpT_182 = warpgroup_mma(v_41, dpT_l0, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot2_dpT: stage 3, partition 0 (group 0)
    mask_173_l0 = gl.expand_dims(offs_m_167_p1, 0)  # elementwise0_pT: stage 3, partition 0 (group 0)
    mask_174 = mask_173_l0.broadcast_to([128, 16])  # elementwise0_pT: stage 3, partition 0 (group 0)
    mask_175 = mask_174 >= mask  # elementwise0_pT: stage 3, partition 0 (group 0)
    pT_176 = gl.where(mask_175, pT_172_l0, 0.0)  # elementwise0_pT: stage 3, partition 0 (group 0)
    ppT_l0 = pT_176.to(gl.float16)  # convert0_ppT: stage 3, partition 0 (group 0)
    ppT_179 = gl.convert_layout(ppT_l0, L9)  # convert0_ppT: stage 3, partition 0 (group 0)
    curr_m_190 = curr_m_190_p1 + 16  # load1_m: stage 2, partition 0 (group 0)
    Di_180 = D_16 + offs_m_167  # load3_Di: stage 2, partition 0 (group 0)
    Di_181 = gl.load(Di_180)  # load3_Di: stage 2, partition 0 (group 0)
    dsT_l0 = gl.expand_dims(Di_181_p1, 0)  # elementwise1_dsT: stage 3, partition 0 (group 0)
    dsT_183_l0 = dsT_l0.broadcast_to([128, 16])  # elementwise1_dsT: stage 3, partition 0 (group 0)
    dpT_182 = warpgroup_mma_wait(0, deps=(tok_dpT_182,))
    dsT_184_l0 = dpT_182 - dsT_183_l0  # elementwise1_dsT: stage 3, partition 0 (group 0)
    dsT_185 = pT_176 * dsT_184_l0  # elementwise1_dsT: stage 3, partition 0 (group 0)
    tok_dv_l0 = warpgroup_mma(ppT_179, do_178, dv_l0_p1, is_async=True)  # dot1_dv: stage 3, partition 0 (group 0)
    dsT_186_l0 = dsT_185.to(gl.float16)  # convert1_dsT: stage 3, partition 0 (group 0)
    dsT_188 = gl.convert_layout(dsT_186_l0, L9)  # convert1_dsT: stage 3, partition 0 (group 0)
    dk_187_l0 = qT_165.permute((1, 0))  # load0_qT: stage 3, partition 0 (group 0)
    tok_dk_189 = warpgroup_mma(dsT_188, dk_187_l0, dk_189_p1, is_async=True)  # dot3_dk: stage 3, partition 0 (group 0)
    async_copy.commit_group()
    dv_l0 = warpgroup_mma_wait(1, deps=(tok_dv_l0,))
    dk_189 = warpgroup_mma_wait(1, deps=(tok_dk_189,))
    Di_181_p1 = Di_181
    curr_m_190_p2 = curr_m_190_p1
    curr_m_190_p1 = curr_m_190
    dk_189_p1 = dk_189
    do_ptrs_192_p2 = do_ptrs_192_p1
    do_ptrs_192_p1 = do_ptrs_192
    dv_l0_p1 = dv_l0
    m_169_p1 = m_169
    offs_m_167_p1 = offs_m_167
    qT_ptrs_191_p2 = qT_ptrs_191_p1
    qT_ptrs_191_p1 = qT_ptrs_191
    async_copy.wait_group(2)
    gl.thread_barrier()
    qT_165 = qT_165_ring.index((twill_base + (twill_n - 1 + 2) - 3) % 5)  # load0_qT: stage 3, partition 0 (group 0)
    tok_qkT_l0 = warpgroup_mma(k_36, qT_165, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qkT: stage 3, partition 0 (group 0)
    offs_m_166 = curr_m_190_p1  # load1_m: stage 2, partition 0 (group 0)
    offs_m_167 = offs_m_166 + offs_m_42  # load1_m: stage 2, partition 0 (group 0)
    m_168 = M_15 + offs_m_167  # load1_m: stage 2, partition 0 (group 0)
    m_169 = gl.load(m_168)  # load1_m: stage 2, partition 0 (group 0)
    pT_l0 = gl.expand_dims(m_169_p1, 0)  # sfu0_pT: stage 3, partition 0 (group 0)
    pT_170 = pT_l0.broadcast_to([128, 16])  # sfu0_pT: stage 3, partition 0 (group 0)
    dk_189_p1, qkT_l0 = warpgroup_mma_wait(0, deps=(dk_189_p1, tok_qkT_l0,))
    pT_171 = qkT_l0 - pT_170  # sfu0_pT: stage 3, partition 0 (group 0)
    pT_172_l0 = gl.exp2(pT_171)  # sfu0_pT: stage 3, partition 0 (group 0)
    do_178 = do_178_ring.index((twill_base + (twill_n - 1 + 2) - 3) % 5)  # load2_do: stage 3, partition 0 (group 0)
    dpT_l0 = do_178.permute((1, 0))  # load2_do: stage 3, partition 0 (group 0)
    tok_dpT_182 = warpgroup_mma(v_41, dpT_l0, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot2_dpT: stage 3, partition 0 (group 0)
    mask_173_l0 = gl.expand_dims(offs_m_167_p1, 0)  # elementwise0_pT: stage 3, partition 0 (group 0)
    mask_174 = mask_173_l0.broadcast_to([128, 16])  # elementwise0_pT: stage 3, partition 0 (group 0)
    mask_175 = mask_174 >= mask  # elementwise0_pT: stage 3, partition 0 (group 0)
    pT_176 = gl.where(mask_175, pT_172_l0, 0.0)  # elementwise0_pT: stage 3, partition 0 (group 0)
    ppT_l0 = pT_176.to(gl.float16)  # convert0_ppT: stage 3, partition 0 (group 0)
    ppT_179 = gl.convert_layout(ppT_l0, L9)  # convert0_ppT: stage 3, partition 0 (group 0)
    curr_m_190 = curr_m_190_p1 + 16  # load1_m: stage 2, partition 0 (group 0)
    Di_180 = D_16 + offs_m_167  # load3_Di: stage 2, partition 0 (group 0)
    Di_181 = gl.load(Di_180)  # load3_Di: stage 2, partition 0 (group 0)
    dsT_l0 = gl.expand_dims(Di_181_p1, 0)  # elementwise1_dsT: stage 3, partition 0 (group 0)
    dsT_183_l0 = dsT_l0.broadcast_to([128, 16])  # elementwise1_dsT: stage 3, partition 0 (group 0)
    dpT_182 = warpgroup_mma_wait(0, deps=(tok_dpT_182,))
    dsT_184_l0 = dpT_182 - dsT_183_l0  # elementwise1_dsT: stage 3, partition 0 (group 0)
    dsT_185 = pT_176 * dsT_184_l0  # elementwise1_dsT: stage 3, partition 0 (group 0)
    tok_dv_l0 = warpgroup_mma(ppT_179, do_178, dv_l0_p1, is_async=True)  # dot1_dv: stage 3, partition 0 (group 0)
    dsT_186_l0 = dsT_185.to(gl.float16)  # convert1_dsT: stage 3, partition 0 (group 0)
    dsT_188 = gl.convert_layout(dsT_186_l0, L9)  # convert1_dsT: stage 3, partition 0 (group 0)
    dk_187_l0 = qT_165.permute((1, 0))  # load0_qT: stage 3, partition 0 (group 0)
    tok_dk_189 = warpgroup_mma(dsT_188, dk_187_l0, dk_189_p1, is_async=True)  # dot3_dk: stage 3, partition 0 (group 0)
    async_copy.commit_group()
    dv_l0 = warpgroup_mma_wait(1, deps=(tok_dv_l0,))
    dk_189 = warpgroup_mma_wait(1, deps=(tok_dk_189,))
    Di_181_p1 = Di_181
    curr_m_190_p2 = curr_m_190_p1
    curr_m_190_p1 = curr_m_190
    dk_189_p1 = dk_189
    do_ptrs_192_p3 = do_ptrs_192_p2
    do_ptrs_192_p2 = do_ptrs_192_p1
    do_ptrs_192_p1 = do_ptrs_192
    dv_l0_p1 = dv_l0
    m_169_p1 = m_169
    offs_m_167_p1 = offs_m_167
    qT_ptrs_191_p3 = qT_ptrs_191_p2
    qT_ptrs_191_p2 = qT_ptrs_191_p1
    qT_ptrs_191_p1 = qT_ptrs_191
    async_copy.wait_group(2)
    gl.thread_barrier()
    qT_165 = qT_165_ring.index((twill_base + (twill_n - 1 + 3) - 3) % 5)  # load0_qT: stage 3, partition 0 (group 0)
    tok_qkT_l0 = warpgroup_mma(k_36, qT_165, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qkT: stage 3, partition 0 (group 0)
    pT_l0 = gl.expand_dims(m_169_p1, 0)  # sfu0_pT: stage 3, partition 0 (group 0)
    pT_170 = pT_l0.broadcast_to([128, 16])  # sfu0_pT: stage 3, partition 0 (group 0)
    dk_189_p1, qkT_l0 = warpgroup_mma_wait(0, deps=(dk_189_p1, tok_qkT_l0,))
    pT_171 = qkT_l0 - pT_170  # sfu0_pT: stage 3, partition 0 (group 0)
    pT_172_l0 = gl.exp2(pT_171)  # sfu0_pT: stage 3, partition 0 (group 0)
    do_178 = do_178_ring.index((twill_base + (twill_n - 1 + 3) - 3) % 5)  # load2_do: stage 3, partition 0 (group 0)
    dpT_l0 = do_178.permute((1, 0))  # load2_do: stage 3, partition 0 (group 0)
    tok_dpT_182 = warpgroup_mma(v_41, dpT_l0, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot2_dpT: stage 3, partition 0 (group 0)
    mask_173_l0 = gl.expand_dims(offs_m_167_p1, 0)  # elementwise0_pT: stage 3, partition 0 (group 0)
    mask_174 = mask_173_l0.broadcast_to([128, 16])  # elementwise0_pT: stage 3, partition 0 (group 0)
    mask_175 = mask_174 >= mask  # elementwise0_pT: stage 3, partition 0 (group 0)
    pT_176 = gl.where(mask_175, pT_172_l0, 0.0)  # elementwise0_pT: stage 3, partition 0 (group 0)
    ppT_l0 = pT_176.to(gl.float16)  # convert0_ppT: stage 3, partition 0 (group 0)
    ppT_179 = gl.convert_layout(ppT_l0, L9)  # convert0_ppT: stage 3, partition 0 (group 0)
    dsT_l0 = gl.expand_dims(Di_181_p1, 0)  # elementwise1_dsT: stage 3, partition 0 (group 0)
    dsT_183_l0 = dsT_l0.broadcast_to([128, 16])  # elementwise1_dsT: stage 3, partition 0 (group 0)
    dpT_182 = warpgroup_mma_wait(0, deps=(tok_dpT_182,))
    dsT_184_l0 = dpT_182 - dsT_183_l0  # elementwise1_dsT: stage 3, partition 0 (group 0)
    dsT_185 = pT_176 * dsT_184_l0  # elementwise1_dsT: stage 3, partition 0 (group 0)
    tok_dv_l0 = warpgroup_mma(ppT_179, do_178, dv_l0_p1, is_async=True)  # dot1_dv: stage 3, partition 0 (group 0)
    dsT_186_l0 = dsT_185.to(gl.float16)  # convert1_dsT: stage 3, partition 0 (group 0)
    dsT_188 = gl.convert_layout(dsT_186_l0, L9)  # convert1_dsT: stage 3, partition 0 (group 0)
    dk_187_l0 = qT_165.permute((1, 0))  # load0_qT: stage 3, partition 0 (group 0)
    tok_dk_189 = warpgroup_mma(dsT_188, dk_187_l0, dk_189_p1, is_async=True)  # dot3_dk: stage 3, partition 0 (group 0)
    async_copy.commit_group()
    dv_l0 = warpgroup_mma_wait(1, deps=(tok_dv_l0,))
    dk_189 = warpgroup_mma_wait(1, deps=(tok_dk_189,))
    Di_181_p1 = Di_181
    curr_m_190_p2 = curr_m_190_p1
    curr_m_190_p1 = curr_m_190
    dk_189_p1 = dk_189
    do_ptrs_192_p4 = do_ptrs_192_p3
    do_ptrs_192_p3 = do_ptrs_192_p2
    do_ptrs_192_p2 = do_ptrs_192_p1
    do_ptrs_192_p1 = do_ptrs_192
    dv_l0_p1 = dv_l0
    m_169_p1 = m_169
    offs_m_167_p1 = offs_m_167
    qT_ptrs_191_p4 = qT_ptrs_191_p3
    qT_ptrs_191_p3 = qT_ptrs_191_p2
    qT_ptrs_191_p2 = qT_ptrs_191_p1
    qT_ptrs_191_p1 = qT_ptrs_191
    dk_189_p1 = warpgroup_mma_wait(0, deps=(dk_189_p1,))
    k_36._keep_alive()
    qT_165_ring._keep_alive()
    v_41._keep_alive()
    do_178_ring._keep_alive()
    twill_base += twill_n
    start_m = start_n + 128
    num_steps = N_CTX - start_m
    num_steps_67 = num_steps // 32
    offs_m_68 = gl.arange(0, 32, layout=L4)
    offs_m_69 = gl.arange(0, 32, layout=L2)
    offs_m_70 = gl.arange(0, 32, layout=L0)
    offs_m_73 = start_m + offs_m_68
    offs_m_74 = start_m + offs_m_70
    qT_ptrs_75 = gl.expand_dims(offs_m_73, 0)
    qT_ptrs_77 = qT_ptrs_75 * stride_tok
    qT_ptrs_79 = Q_8 + qT_ptrs_77
    qT_ptrs_80 = qT_ptrs_79.broadcast_to([64, 32])
    qT_ptrs_81 = qT_ptrs_53.broadcast_to([64, 32])
    qT_ptrs_82 = qT_ptrs_80 + qT_ptrs_81
    do_ptrs_83 = gl.expand_dims(offs_m_74, 1)
    do_ptrs_85 = do_ptrs_83 * stride_tok
    do_ptrs_87 = DO_11 + do_ptrs_85
    do_ptrs_88 = do_ptrs_87.broadcast_to([32, 64])
    do_ptrs_89 = k_31.broadcast_to([32, 64])
    do_ptrs_90 = do_ptrs_88 + do_ptrs_89
    qT_ptrs_93 = stride_tok * 32
    twill_n = (num_steps_67 - 0 + 1 - 1) // 1
    if (twill_n >= 3) | (gl.program_id(0) < 0):
        qT_167_ring = gl.allocate_shared_memory(gl.float16, [5, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        do_176_ring = gl.allocate_shared_memory(gl.float16, [5, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        qT_ptrs_189 = qT_ptrs_82
        do_ptrs_190 = do_ptrs_90
        do_ptrs_190_p1 = do_ptrs_190
        qT_ptrs_189_p1 = qT_ptrs_189
        qT_ptrs_189 = qT_ptrs_189_p1 + qT_ptrs_93  # load0_qT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_qT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(qT_167_ring.index((twill_base + 0 - 0) % 5), qT_ptrs_189_p1)  # load0_qT: stage 0, partition 0 (group 0)
        else:  # load0_qT: stage 0, partition 0 (group 0)
            qT_167_ring.index((twill_base + 0 - 0) % 5).store(gl.load(qT_ptrs_189_p1))  # load0_qT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_qT: stage 0, partition 0 (group 0)
        do_ptrs_190 = do_ptrs_190_p1 + qT_ptrs_93  # load2_do: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_do: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(do_176_ring.index((twill_base + 0 - 0) % 5), do_ptrs_190_p1)  # load2_do: stage 0, partition 0 (group 0)
        else:  # load2_do: stage 0, partition 0 (group 0)
            do_176_ring.index((twill_base + 0 - 0) % 5).store(gl.load(do_ptrs_190_p1))  # load2_do: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        do_ptrs_190_p1 = do_ptrs_190
        qT_ptrs_189_p1 = qT_ptrs_189
        curr_m_188 = start_m
        qT_ptrs_189 = qT_ptrs_189_p1 + qT_ptrs_93  # load0_qT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_qT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(qT_167_ring.index((twill_base + 1 - 0) % 5), qT_ptrs_189_p1)  # load0_qT: stage 0, partition 0 (group 0)
        else:  # load0_qT: stage 0, partition 0 (group 0)
            qT_167_ring.index((twill_base + 1 - 0) % 5).store(gl.load(qT_ptrs_189_p1))  # load0_qT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_qT: stage 0, partition 0 (group 0)
        do_ptrs_190 = do_ptrs_190_p1 + qT_ptrs_93  # load2_do: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_do: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(do_176_ring.index((twill_base + 1 - 0) % 5), do_ptrs_190_p1)  # load2_do: stage 0, partition 0 (group 0)
        else:  # load2_do: stage 0, partition 0 (group 0)
            do_176_ring.index((twill_base + 1 - 0) % 5).store(gl.load(do_ptrs_190_p1))  # load2_do: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        curr_m_188_p1 = curr_m_188
        do_ptrs_190_p1 = do_ptrs_190
        qT_ptrs_189_p1 = qT_ptrs_189
        dk_187 = dk_189_p1
        dv = dv_l0_p1
        qT_ptrs_189 = qT_ptrs_189_p1 + qT_ptrs_93  # load0_qT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_qT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(qT_167_ring.index((twill_base + 2 - 0) % 5), qT_ptrs_189_p1)  # load0_qT: stage 0, partition 0 (group 0)
        else:  # load0_qT: stage 0, partition 0 (group 0)
            qT_167_ring.index((twill_base + 2 - 0) % 5).store(gl.load(qT_ptrs_189_p1))  # load0_qT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_qT: stage 0, partition 0 (group 0)
        offs_m_168 = curr_m_188_p1  # load1_m: stage 2, partition 0 (group 0)
        offs_m_169 = offs_m_168 + offs_m_69  # load1_m: stage 2, partition 0 (group 0)
        m_170 = M_15 + offs_m_169  # load1_m: stage 2, partition 0 (group 0)
        m_171 = gl.load(m_170)  # load1_m: stage 2, partition 0 (group 0)
        do_ptrs_190 = do_ptrs_190_p1 + qT_ptrs_93  # load2_do: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_do: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(do_176_ring.index((twill_base + 2 - 0) % 5), do_ptrs_190_p1)  # load2_do: stage 0, partition 0 (group 0)
        else:  # load2_do: stage 0, partition 0 (group 0)
            do_176_ring.index((twill_base + 2 - 0) % 5).store(gl.load(do_ptrs_190_p1))  # load2_do: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
        curr_m_188 = curr_m_188_p1 + 32  # load1_m: stage 2, partition 0 (group 0)
        Di_178 = D_16 + offs_m_169  # load3_Di: stage 2, partition 0 (group 0)
        Di_179 = gl.load(Di_178)  # load3_Di: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        Di_179_p1 = Di_179
        curr_m_188_p1 = curr_m_188
        dk_187_p1 = dk_187
        do_ptrs_190_p1 = do_ptrs_190
        dv_p1 = dv
        m_171_p1 = m_171
        qT_ptrs_189_p1 = qT_ptrs_189
        for twill_b in range(3, twill_n):
            async_copy.wait_group(2)
            gl.thread_barrier()
            qT_167 = qT_167_ring.index((twill_base + twill_b - 3) % 5)  # load0_qT: stage 3, partition 0 (group 0)
            qT_ptrs_189 = qT_ptrs_189_p1 + qT_ptrs_93  # load0_qT: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_qT: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(qT_167_ring.index((twill_base + twill_b - 0) % 5), qT_ptrs_189_p1)  # load0_qT: stage 0, partition 0 (group 0)
            else:  # load0_qT: stage 0, partition 0 (group 0)
                qT_167_ring.index((twill_base + twill_b - 0) % 5).store(gl.load(qT_ptrs_189_p1))  # load0_qT: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_qT: stage 0, partition 0 (group 0)
            tok_qkT = warpgroup_mma(k_36, qT_167, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0_qkT: stage 3, partition 0 (group 0)
            offs_m_168 = curr_m_188_p1  # load1_m: stage 2, partition 0 (group 0)
            offs_m_169 = offs_m_168 + offs_m_69  # load1_m: stage 2, partition 0 (group 0)
            m_170 = M_15 + offs_m_169  # load1_m: stage 2, partition 0 (group 0)
            m_171 = gl.load(m_170)  # load1_m: stage 2, partition 0 (group 0)
            m_171_p1_cv = gl.convert_layout(m_171_p1, L11)  # sfu0_pT: stage 3, partition 0 (group 0)
            pT = gl.expand_dims(m_171_p1_cv, 0)  # sfu0_pT: stage 3, partition 0 (group 0)
            pT_172 = pT.broadcast_to([128, 32])  # sfu0_pT: stage 3, partition 0 (group 0)
            dk_187_p1, qkT = warpgroup_mma_wait(0, deps=(dk_187_p1, tok_qkT,))
            pT_173 = qkT - pT_172  # sfu0_pT: stage 3, partition 0 (group 0)
            pT_174 = gl.exp2(pT_173)  # sfu0_pT: stage 3, partition 0 (group 0)
            do_176 = do_176_ring.index((twill_base + twill_b - 3) % 5)  # load2_do: stage 3, partition 0 (group 0)
            do_ptrs_190 = do_ptrs_190_p1 + qT_ptrs_93  # load2_do: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_do: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(do_176_ring.index((twill_base + twill_b - 0) % 5), do_ptrs_190_p1)  # load2_do: stage 0, partition 0 (group 0)
            else:  # load2_do: stage 0, partition 0 (group 0)
                do_176_ring.index((twill_base + twill_b - 0) % 5).store(gl.load(do_ptrs_190_p1))  # load2_do: stage 0, partition 0 (group 0)
                fence_async_shared()  # load2_do: stage 0, partition 0 (group 0)
            dpT = do_176.permute((1, 0))  # load2_do: stage 3, partition 0 (group 0)
            tok_dpT_180 = warpgroup_mma(v_41, dpT, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot2_dpT: stage 3, partition 0 (group 0)
            ppT = pT_174.to(gl.float16)  # convert0_ppT: stage 3, partition 0 (group 0)
            ppT_177 = gl.convert_layout(ppT, L9)  # convert0_ppT: stage 3, partition 0 (group 0)
            curr_m_188 = curr_m_188_p1 + 32  # load1_m: stage 2, partition 0 (group 0)
            Di_178 = D_16 + offs_m_169  # load3_Di: stage 2, partition 0 (group 0)
            Di_179 = gl.load(Di_178)  # load3_Di: stage 2, partition 0 (group 0)
            Di_179_p1_cv = gl.convert_layout(Di_179_p1, L11)  # elementwise0_dsT: stage 3, partition 0 (group 0)
            dsT = gl.expand_dims(Di_179_p1_cv, 0)  # elementwise0_dsT: stage 3, partition 0 (group 0)
            dsT_181 = dsT.broadcast_to([128, 32])  # elementwise0_dsT: stage 3, partition 0 (group 0)
            dpT_180 = warpgroup_mma_wait(0, deps=(tok_dpT_180,))
            dsT_182 = dpT_180 - dsT_181  # elementwise0_dsT: stage 3, partition 0 (group 0)
            dsT_183 = pT_174 * dsT_182  # elementwise0_dsT: stage 3, partition 0 (group 0)
            tok_dv = warpgroup_mma(ppT_177, do_176, dv_p1, is_async=True)  # dot1_dv: stage 3, partition 0 (group 0)
            dsT_184 = dsT_183.to(gl.float16)  # convert1_dsT: stage 3, partition 0 (group 0)
            dsT_186 = gl.convert_layout(dsT_184, L9)  # convert1_dsT: stage 3, partition 0 (group 0)
            dk_185 = qT_167.permute((1, 0))  # load0_qT: stage 3, partition 0 (group 0)
            tok_dk_187 = warpgroup_mma(dsT_186, dk_185, dk_187_p1, is_async=True)  # dot3_dk: stage 3, partition 0 (group 0)
            async_copy.commit_group()
            dv = warpgroup_mma_wait(1, deps=(tok_dv,))
            dk_187 = warpgroup_mma_wait(1, deps=(tok_dk_187,))
            Di_179_p1 = Di_179
            curr_m_188_p1 = curr_m_188
            dk_187_p1 = dk_187
            do_ptrs_190_p1 = do_ptrs_190
            dv_p1 = dv
            m_171_p1 = m_171
            qT_ptrs_189_p1 = qT_ptrs_189
        async_copy.wait_group(2)
        gl.thread_barrier()
        qT_167 = qT_167_ring.index((twill_base + (twill_n - 1 + 1) - 3) % 5)  # load0_qT: stage 3, partition 0 (group 0)
        tok_qkT = warpgroup_mma(k_36, qT_167, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0_qkT: stage 3, partition 0 (group 0)
        offs_m_168 = curr_m_188_p1  # load1_m: stage 2, partition 0 (group 0)
        offs_m_169 = offs_m_168 + offs_m_69  # load1_m: stage 2, partition 0 (group 0)
        m_170 = M_15 + offs_m_169  # load1_m: stage 2, partition 0 (group 0)
        m_171 = gl.load(m_170)  # load1_m: stage 2, partition 0 (group 0)
        m_171_p1_cv = gl.convert_layout(m_171_p1, L11)  # sfu0_pT: stage 3, partition 0 (group 0)
        pT = gl.expand_dims(m_171_p1_cv, 0)  # sfu0_pT: stage 3, partition 0 (group 0)
        pT_172 = pT.broadcast_to([128, 32])  # sfu0_pT: stage 3, partition 0 (group 0)
        dk_187_p1, qkT = warpgroup_mma_wait(0, deps=(dk_187_p1, tok_qkT,))
        pT_173 = qkT - pT_172  # sfu0_pT: stage 3, partition 0 (group 0)
        pT_174 = gl.exp2(pT_173)  # sfu0_pT: stage 3, partition 0 (group 0)
        do_176 = do_176_ring.index((twill_base + (twill_n - 1 + 1) - 3) % 5)  # load2_do: stage 3, partition 0 (group 0)
        dpT = do_176.permute((1, 0))  # load2_do: stage 3, partition 0 (group 0)
        tok_dpT_180 = warpgroup_mma(v_41, dpT, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot2_dpT: stage 3, partition 0 (group 0)
        ppT = pT_174.to(gl.float16)  # convert0_ppT: stage 3, partition 0 (group 0)
        ppT_177 = gl.convert_layout(ppT, L9)  # convert0_ppT: stage 3, partition 0 (group 0)
        curr_m_188 = curr_m_188_p1 + 32  # load1_m: stage 2, partition 0 (group 0)
        Di_178 = D_16 + offs_m_169  # load3_Di: stage 2, partition 0 (group 0)
        Di_179 = gl.load(Di_178)  # load3_Di: stage 2, partition 0 (group 0)
        Di_179_p1_cv = gl.convert_layout(Di_179_p1, L11)  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dsT = gl.expand_dims(Di_179_p1_cv, 0)  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dsT_181 = dsT.broadcast_to([128, 32])  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dpT_180 = warpgroup_mma_wait(0, deps=(tok_dpT_180,))
        dsT_182 = dpT_180 - dsT_181  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dsT_183 = pT_174 * dsT_182  # elementwise0_dsT: stage 3, partition 0 (group 0)
        tok_dv = warpgroup_mma(ppT_177, do_176, dv_p1, is_async=True)  # dot1_dv: stage 3, partition 0 (group 0)
        dsT_184 = dsT_183.to(gl.float16)  # convert1_dsT: stage 3, partition 0 (group 0)
        dsT_186 = gl.convert_layout(dsT_184, L9)  # convert1_dsT: stage 3, partition 0 (group 0)
        dk_185 = qT_167.permute((1, 0))  # load0_qT: stage 3, partition 0 (group 0)
        tok_dk_187 = warpgroup_mma(dsT_186, dk_185, dk_187_p1, is_async=True)  # dot3_dk: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        dv = warpgroup_mma_wait(1, deps=(tok_dv,))
        dk_187 = warpgroup_mma_wait(1, deps=(tok_dk_187,))
        Di_179_p1 = Di_179
        curr_m_188_p2 = curr_m_188_p1
        curr_m_188_p1 = curr_m_188
        dk_187_p1 = dk_187
        do_ptrs_190_p2 = do_ptrs_190_p1
        do_ptrs_190_p1 = do_ptrs_190
        dv_p1 = dv
        m_171_p1 = m_171
        qT_ptrs_189_p2 = qT_ptrs_189_p1
        qT_ptrs_189_p1 = qT_ptrs_189
        async_copy.wait_group(2)
        gl.thread_barrier()
        qT_167 = qT_167_ring.index((twill_base + (twill_n - 1 + 2) - 3) % 5)  # load0_qT: stage 3, partition 0 (group 0)
        tok_qkT = warpgroup_mma(k_36, qT_167, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0_qkT: stage 3, partition 0 (group 0)
        offs_m_168 = curr_m_188_p1  # load1_m: stage 2, partition 0 (group 0)
        offs_m_169 = offs_m_168 + offs_m_69  # load1_m: stage 2, partition 0 (group 0)
        m_170 = M_15 + offs_m_169  # load1_m: stage 2, partition 0 (group 0)
        m_171 = gl.load(m_170)  # load1_m: stage 2, partition 0 (group 0)
        m_171_p1_cv = gl.convert_layout(m_171_p1, L11)  # sfu0_pT: stage 3, partition 0 (group 0)
        pT = gl.expand_dims(m_171_p1_cv, 0)  # sfu0_pT: stage 3, partition 0 (group 0)
        pT_172 = pT.broadcast_to([128, 32])  # sfu0_pT: stage 3, partition 0 (group 0)
        dk_187_p1, qkT = warpgroup_mma_wait(0, deps=(dk_187_p1, tok_qkT,))
        pT_173 = qkT - pT_172  # sfu0_pT: stage 3, partition 0 (group 0)
        pT_174 = gl.exp2(pT_173)  # sfu0_pT: stage 3, partition 0 (group 0)
        do_176 = do_176_ring.index((twill_base + (twill_n - 1 + 2) - 3) % 5)  # load2_do: stage 3, partition 0 (group 0)
        dpT = do_176.permute((1, 0))  # load2_do: stage 3, partition 0 (group 0)
        tok_dpT_180 = warpgroup_mma(v_41, dpT, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot2_dpT: stage 3, partition 0 (group 0)
        ppT = pT_174.to(gl.float16)  # convert0_ppT: stage 3, partition 0 (group 0)
        ppT_177 = gl.convert_layout(ppT, L9)  # convert0_ppT: stage 3, partition 0 (group 0)
        curr_m_188 = curr_m_188_p1 + 32  # load1_m: stage 2, partition 0 (group 0)
        Di_178 = D_16 + offs_m_169  # load3_Di: stage 2, partition 0 (group 0)
        Di_179 = gl.load(Di_178)  # load3_Di: stage 2, partition 0 (group 0)
        Di_179_p1_cv = gl.convert_layout(Di_179_p1, L11)  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dsT = gl.expand_dims(Di_179_p1_cv, 0)  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dsT_181 = dsT.broadcast_to([128, 32])  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dpT_180 = warpgroup_mma_wait(0, deps=(tok_dpT_180,))
        dsT_182 = dpT_180 - dsT_181  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dsT_183 = pT_174 * dsT_182  # elementwise0_dsT: stage 3, partition 0 (group 0)
        tok_dv = warpgroup_mma(ppT_177, do_176, dv_p1, is_async=True)  # dot1_dv: stage 3, partition 0 (group 0)
        dsT_184 = dsT_183.to(gl.float16)  # convert1_dsT: stage 3, partition 0 (group 0)
        dsT_186 = gl.convert_layout(dsT_184, L9)  # convert1_dsT: stage 3, partition 0 (group 0)
        dk_185 = qT_167.permute((1, 0))  # load0_qT: stage 3, partition 0 (group 0)
        tok_dk_187 = warpgroup_mma(dsT_186, dk_185, dk_187_p1, is_async=True)  # dot3_dk: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        dv = warpgroup_mma_wait(1, deps=(tok_dv,))
        dk_187 = warpgroup_mma_wait(1, deps=(tok_dk_187,))
        Di_179_p1 = Di_179
        curr_m_188_p2 = curr_m_188_p1
        curr_m_188_p1 = curr_m_188
        dk_187_p1 = dk_187
        do_ptrs_190_p3 = do_ptrs_190_p2
        do_ptrs_190_p2 = do_ptrs_190_p1
        do_ptrs_190_p1 = do_ptrs_190
        dv_p1 = dv
        m_171_p1 = m_171
        qT_ptrs_189_p3 = qT_ptrs_189_p2
        qT_ptrs_189_p2 = qT_ptrs_189_p1
        qT_ptrs_189_p1 = qT_ptrs_189
        async_copy.wait_group(2)
        gl.thread_barrier()
        qT_167 = qT_167_ring.index((twill_base + (twill_n - 1 + 3) - 3) % 5)  # load0_qT: stage 3, partition 0 (group 0)
        tok_qkT = warpgroup_mma(k_36, qT_167, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0_qkT: stage 3, partition 0 (group 0)
        m_171_p1_cv = gl.convert_layout(m_171_p1, L11)  # sfu0_pT: stage 3, partition 0 (group 0)
        pT = gl.expand_dims(m_171_p1_cv, 0)  # sfu0_pT: stage 3, partition 0 (group 0)
        pT_172 = pT.broadcast_to([128, 32])  # sfu0_pT: stage 3, partition 0 (group 0)
        dk_187_p1, qkT = warpgroup_mma_wait(0, deps=(dk_187_p1, tok_qkT,))
        pT_173 = qkT - pT_172  # sfu0_pT: stage 3, partition 0 (group 0)
        pT_174 = gl.exp2(pT_173)  # sfu0_pT: stage 3, partition 0 (group 0)
        do_176 = do_176_ring.index((twill_base + (twill_n - 1 + 3) - 3) % 5)  # load2_do: stage 3, partition 0 (group 0)
        dpT = do_176.permute((1, 0))  # load2_do: stage 3, partition 0 (group 0)
        tok_dpT_180 = warpgroup_mma(v_41, dpT, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot2_dpT: stage 3, partition 0 (group 0)
        ppT = pT_174.to(gl.float16)  # convert0_ppT: stage 3, partition 0 (group 0)
        ppT_177 = gl.convert_layout(ppT, L9)  # convert0_ppT: stage 3, partition 0 (group 0)
        Di_179_p1_cv = gl.convert_layout(Di_179_p1, L11)  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dsT = gl.expand_dims(Di_179_p1_cv, 0)  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dsT_181 = dsT.broadcast_to([128, 32])  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dpT_180 = warpgroup_mma_wait(0, deps=(tok_dpT_180,))
        dsT_182 = dpT_180 - dsT_181  # elementwise0_dsT: stage 3, partition 0 (group 0)
        dsT_183 = pT_174 * dsT_182  # elementwise0_dsT: stage 3, partition 0 (group 0)
        tok_dv = warpgroup_mma(ppT_177, do_176, dv_p1, is_async=True)  # dot1_dv: stage 3, partition 0 (group 0)
        dsT_184 = dsT_183.to(gl.float16)  # convert1_dsT: stage 3, partition 0 (group 0)
        dsT_186 = gl.convert_layout(dsT_184, L9)  # convert1_dsT: stage 3, partition 0 (group 0)
        dk_185 = qT_167.permute((1, 0))  # load0_qT: stage 3, partition 0 (group 0)
        tok_dk_187 = warpgroup_mma(dsT_186, dk_185, dk_187_p1, is_async=True)  # dot3_dk: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        dv = warpgroup_mma_wait(1, deps=(tok_dv,))
        dk_187 = warpgroup_mma_wait(1, deps=(tok_dk_187,))
        Di_179_p1 = Di_179
        curr_m_188_p2 = curr_m_188_p1
        curr_m_188_p1 = curr_m_188
        dk_187_p1 = dk_187
        do_ptrs_190_p4 = do_ptrs_190_p3
        do_ptrs_190_p3 = do_ptrs_190_p2
        do_ptrs_190_p2 = do_ptrs_190_p1
        do_ptrs_190_p1 = do_ptrs_190
        dv_p1 = dv
        m_171_p1 = m_171
        qT_ptrs_189_p4 = qT_ptrs_189_p3
        qT_ptrs_189_p3 = qT_ptrs_189_p2
        qT_ptrs_189_p2 = qT_ptrs_189_p1
        qT_ptrs_189_p1 = qT_ptrs_189
        dk_187_p1 = warpgroup_mma_wait(0, deps=(dk_187_p1,))
        k_36._keep_alive()
        qT_167_ring._keep_alive()
        v_41._keep_alive()
        do_176_ring._keep_alive()
    else:
        curr_m_162_w = dk_189_p1
        curr_m_163_w = dv_l0_p1
        start_m_164_w = start_m
        qT_ptrs_165_w = qT_ptrs_82
        do_ptrs_166_w = do_ptrs_90
        for curr_m_161_w in range(0, num_steps_67, 1):
            qT_w = gl.load(qT_ptrs_165_w)
            qT_167_w = gl.allocate_shared_memory(gl.float16, [64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), qT_w)
            fence_async_shared()
            offs_m_169_w = start_m_164_w + offs_m_69
            m_170_w = M_15 + offs_m_169_w
            m_171_w = gl.load(m_170_w)
            qkT_w = warpgroup_mma(k_36, qT_167_w, gl.full([128, 32], 0.0, gl.float32, layout=L10))
            m_171_cv_w = gl.convert_layout(m_171_w, L11)
            pT_w = gl.expand_dims(m_171_cv_w, 0)
            pT_172_w = pT_w.broadcast_to([128, 32])
            pT_173_w = qkT_w - pT_172_w
            pT_174_w = gl.exp2(pT_173_w)
            do_175_w = gl.load(do_ptrs_166_w)
            do_176_w = gl.allocate_shared_memory(gl.float16, [32, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), do_175_w)
            fence_async_shared()
            ppT_w = pT_174_w.to(gl.float16)
            ppT_177_w = gl.convert_layout(ppT_w, L9)
            dv_w = warpgroup_mma(ppT_177_w, do_176_w, curr_m_163_w)
            Di_178_w = D_16 + offs_m_169_w
            Di_179_w = gl.load(Di_178_w)
            dpT_180_w = warpgroup_mma(v_41, do_176_w.permute((1, 0)), gl.full([128, 32], 0.0, gl.float32, layout=L10))
            Di_179_cv_w = gl.convert_layout(Di_179_w, L11)
            dsT_w = gl.expand_dims(Di_179_cv_w, 0)
            dsT_181_w = dsT_w.broadcast_to([128, 32])
            dsT_182_w = dpT_180_w - dsT_181_w
            dsT_183_w = pT_174_w * dsT_182_w
            dsT_184_w = dsT_183_w.to(gl.float16)
            dsT_186_w = gl.convert_layout(dsT_184_w, L9)
            dk_187_w = warpgroup_mma(dsT_186_w, qT_167_w.permute((1, 0)), curr_m_162_w)
            curr_m_188_w = start_m_164_w + 32
            qT_ptrs_189_w = qT_ptrs_165_w + qT_ptrs_93
            do_ptrs_190_w = do_ptrs_166_w + qT_ptrs_93
            curr_m_162_w = dk_187_w
            curr_m_163_w = dv_w
            start_m_164_w = curr_m_188_w
            qT_ptrs_165_w = qT_ptrs_189_w
            do_ptrs_166_w = do_ptrs_190_w
        dk_187_p1 = curr_m_162_w
        dv_p1 = curr_m_163_w
        curr_m_188_p2 = start_m_164_w
        qT_ptrs_189_p4 = qT_ptrs_165_w
        do_ptrs_190_p4 = do_ptrs_166_w
    twill_base += twill_n
    dv_ptrs_97 = DV_14 + k_27
    dv_ptrs_98 = dv_ptrs_97.broadcast_to([128, 64])
    dv_ptrs_99 = dv_ptrs_98 + k_33
    v0 = dv_p1.to(gl.float16)
    v1 = gl.convert_layout(v0, L12)
    gl.store(dv_ptrs_99, v1)
    dk_100 = dk_187_p1 * sm_scale
    dk_ptrs_101 = DK_13 + k_27
    dk_ptrs_102 = dk_ptrs_101.broadcast_to([128, 64])
    dk_ptrs_103 = dk_ptrs_102 + k_33
    v2 = dk_100.to(gl.float16)
    v3 = gl.convert_layout(v2, L12)
    gl.store(dk_ptrs_103, v3)
    q_104 = Q_8 + k_27
    q_105 = q_104.broadcast_to([128, 64])
    q_106 = q_105 + k_33
    q_107 = gl.load(q_106)
    q_108 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_107)
    fence_async_shared()
    do_109 = DO_11 + k_27
    do_110 = do_109.broadcast_to([128, 64])
    do_111 = do_110 + k_33
    do_112 = gl.load(do_111)
    do_113 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), do_112)
    fence_async_shared()
    m_115 = M_15 + offs_n_24
    m_116 = gl.load(m_115)
    p = gl.convert_layout(m_116, L1)
    m_117 = gl.expand_dims(p, 1)
    p_118 = gl.convert_layout(m_116, L13)
    m_119 = gl.expand_dims(p_118, 1)
    kT_ptrs_120 = K_9 + qT_ptrs_49
    kT_ptrs_121 = kT_ptrs_120.broadcast_to([64, 16])
    kT_ptrs_122 = kT_ptrs_121 + qT_ptrs_55
    vT_ptrs_123 = V_10 + qT_ptrs_49
    vT_ptrs_124 = vT_ptrs_123.broadcast_to([64, 16])
    vT_ptrs_125 = vT_ptrs_124 + qT_ptrs_55
    Di_127 = D_16 + offs_n_24
    Di_128 = gl.load(Di_127)
    ds = gl.convert_layout(Di_128, L13)
    ds_129 = gl.convert_layout(Di_128, L1)
    p_130 = m_117.broadcast_to([128, 16])
    mask_131 = k_25.broadcast_to([128, 16])
    ds_132 = gl.expand_dims(ds_129, 1)
    ds_133 = ds_132.broadcast_to([128, 16])
    kT_ptrs_134 = stride_tok * 16
    twill_n = (8 - 0 + 1 - 1) // 1
    kT_165_l2_ring = gl.allocate_shared_memory(gl.float16, [5, 64, 16], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    vT_166_l2_ring = gl.allocate_shared_memory(gl.float16, [5, 64, 16], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    kT_ptrs_182 = kT_ptrs_122
    vT_ptrs_183 = vT_ptrs_125
    kT_ptrs_182_p1 = kT_ptrs_182
    vT_ptrs_183_p1 = vT_ptrs_183
    kT_ptrs_182 = kT_ptrs_182_p1 + kT_ptrs_134  # load0_kT: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_kT: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(kT_165_l2_ring.index((twill_base + 0 - 0) % 5), kT_ptrs_182_p1)  # load0_kT: stage 0, partition 0 (group 0)
    else:  # load0_kT: stage 0, partition 0 (group 0)
        kT_165_l2_ring.index((twill_base + 0 - 0) % 5).store(gl.load(kT_ptrs_182_p1))  # load0_kT: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_kT: stage 0, partition 0 (group 0)
    vT_ptrs_183 = vT_ptrs_183_p1 + kT_ptrs_134  # load1_vT: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_vT: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(vT_166_l2_ring.index((twill_base + 0 - 0) % 5), vT_ptrs_183_p1)  # load1_vT: stage 0, partition 0 (group 0)
    else:  # load1_vT: stage 0, partition 0 (group 0)
        vT_166_l2_ring.index((twill_base + 0 - 0) % 5).store(gl.load(vT_ptrs_183_p1))  # load1_vT: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_vT: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    kT_ptrs_182_p1 = kT_ptrs_182
    vT_ptrs_183_p1 = vT_ptrs_183
    kT_ptrs_182 = kT_ptrs_182_p1 + kT_ptrs_134  # load0_kT: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_kT: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(kT_165_l2_ring.index((twill_base + 1 - 0) % 5), kT_ptrs_182_p1)  # load0_kT: stage 0, partition 0 (group 0)
    else:  # load0_kT: stage 0, partition 0 (group 0)
        kT_165_l2_ring.index((twill_base + 1 - 0) % 5).store(gl.load(kT_ptrs_182_p1))  # load0_kT: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_kT: stage 0, partition 0 (group 0)
    vT_ptrs_183 = vT_ptrs_183_p1 + kT_ptrs_134  # load1_vT: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_vT: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(vT_166_l2_ring.index((twill_base + 1 - 0) % 5), vT_ptrs_183_p1)  # load1_vT: stage 0, partition 0 (group 0)
    else:  # load1_vT: stage 0, partition 0 (group 0)
        vT_166_l2_ring.index((twill_base + 1 - 0) % 5).store(gl.load(vT_ptrs_183_p1))  # load1_vT: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_vT: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    kT_ptrs_182_p1 = kT_ptrs_182
    vT_ptrs_183_p1 = vT_ptrs_183
    dq_180 = gl.full([128, 64], 0.0, gl.float32, layout=L7)
    curr_n_181 = start_n
    kT_ptrs_182 = kT_ptrs_182_p1 + kT_ptrs_134  # load0_kT: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_kT: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(kT_165_l2_ring.index((twill_base + 2 - 0) % 5), kT_ptrs_182_p1)  # load0_kT: stage 0, partition 0 (group 0)
    else:  # load0_kT: stage 0, partition 0 (group 0)
        kT_165_l2_ring.index((twill_base + 2 - 0) % 5).store(gl.load(kT_ptrs_182_p1))  # load0_kT: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_kT: stage 0, partition 0 (group 0)
    vT_ptrs_183 = vT_ptrs_183_p1 + kT_ptrs_134  # load1_vT: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_vT: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(vT_166_l2_ring.index((twill_base + 2 - 0) % 5), vT_ptrs_183_p1)  # load1_vT: stage 0, partition 0 (group 0)
    else:  # load1_vT: stage 0, partition 0 (group 0)
        vT_166_l2_ring.index((twill_base + 2 - 0) % 5).store(gl.load(vT_ptrs_183_p1))  # load1_vT: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_vT: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    curr_n_181_p1 = curr_n_181
    dq_180_p1 = dq_180
    kT_ptrs_182_p1 = kT_ptrs_182
    vT_ptrs_183_p1 = vT_ptrs_183
    for twill_b in range(3, twill_n):
        async_copy.wait_group(2)
        gl.thread_barrier()
        kT_165_l2 = kT_165_l2_ring.index((twill_base + twill_b - 3) % 5)  # load0_kT: stage 3, partition 0 (group 0)
        kT_ptrs_182 = kT_ptrs_182_p1 + kT_ptrs_134  # load0_kT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_kT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(kT_165_l2_ring.index((twill_base + twill_b - 0) % 5), kT_ptrs_182_p1)  # load0_kT: stage 0, partition 0 (group 0)
        else:  # load0_kT: stage 0, partition 0 (group 0)
            kT_165_l2_ring.index((twill_base + twill_b - 0) % 5).store(gl.load(kT_ptrs_182_p1))  # load0_kT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_kT: stage 0, partition 0 (group 0)
        tok_qk_l2 = warpgroup_mma(q_108, kT_165_l2, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qk: stage 3, partition 0 (group 0)
        dq_180_p1, qk_l2 = warpgroup_mma_wait(0, deps=(dq_180_p1, tok_qk_l2,))
        p_167_l2 = qk_l2 - p_130  # sfu0_p: stage 3, partition 0 (group 0)
        p_168_l2 = gl.exp2(p_167_l2)  # sfu0_p: stage 3, partition 0 (group 0)
        vT_166_l2 = vT_166_l2_ring.index((twill_base + twill_b - 3) % 5)  # load1_vT: stage 3, partition 0 (group 0)
        vT_ptrs_183 = vT_ptrs_183_p1 + kT_ptrs_134  # load1_vT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_vT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(vT_166_l2_ring.index((twill_base + twill_b - 0) % 5), vT_ptrs_183_p1)  # load1_vT: stage 0, partition 0 (group 0)
        else:  # load1_vT: stage 0, partition 0 (group 0)
            vT_166_l2_ring.index((twill_base + twill_b - 0) % 5).store(gl.load(vT_ptrs_183_p1))  # load1_vT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_vT: stage 0, partition 0 (group 0)
        tok_dp_l2 = warpgroup_mma(do_113, vT_166_l2, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_dp: stage 3, partition 0 (group 0)
        offs_n_169 = curr_n_181_p1  # elementwise0_p: stage 3, partition 0 (group 0)
        offs_n_170 = offs_n_169 + offs_m_42  # elementwise0_p: stage 3, partition 0 (group 0)
        mask_171 = gl.expand_dims(offs_n_170, 0)  # elementwise0_p: stage 3, partition 0 (group 0)
        mask_172 = mask_171.broadcast_to([128, 16])  # elementwise0_p: stage 3, partition 0 (group 0)
        mask_173_l2 = mask_131 >= mask_172  # elementwise0_p: stage 3, partition 0 (group 0)
        p_174 = gl.where(mask_173_l2, p_168_l2, 0.0)  # elementwise0_p: stage 3, partition 0 (group 0)
        dp_l2 = warpgroup_mma_wait(0, deps=(tok_dp_l2,))
        ds_175 = dp_l2 - ds_133  # elementwise0_p: stage 3, partition 0 (group 0)
        ds_176 = p_174 * ds_175  # elementwise0_p: stage 3, partition 0 (group 0)
        curr_n_181 = curr_n_181_p1 + 16  # elementwise0_p: stage 3, partition 0 (group 0)
        ds_177 = ds_176.to(gl.float16)  # convert0_ds: stage 3, partition 0 (group 0)
        ds_179 = gl.convert_layout(ds_177, L9)  # convert0_ds: stage 3, partition 0 (group 0)
        dq_178 = kT_165_l2.permute((1, 0))  # load0_kT: stage 3, partition 0 (group 0)
        tok_dq_180 = warpgroup_mma(ds_179, dq_178, dq_180_p1, is_async=True)  # dot2_dq: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        dq_180 = warpgroup_mma_wait(1, deps=(tok_dq_180,))
        curr_n_181_p1 = curr_n_181
        dq_180_p1 = dq_180
        kT_ptrs_182_p1 = kT_ptrs_182
        vT_ptrs_183_p1 = vT_ptrs_183
    async_copy.wait_group(2)
    gl.thread_barrier()
    kT_165_l2 = kT_165_l2_ring.index((twill_base + (twill_n - 1 + 1) - 3) % 5)  # load0_kT: stage 3, partition 0 (group 0)
    tok_qk_l2 = warpgroup_mma(q_108, kT_165_l2, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qk: stage 3, partition 0 (group 0)
    dq_180_p1, qk_l2 = warpgroup_mma_wait(0, deps=(dq_180_p1, tok_qk_l2,))
    p_167_l2 = qk_l2 - p_130  # sfu0_p: stage 3, partition 0 (group 0)
    p_168_l2 = gl.exp2(p_167_l2)  # sfu0_p: stage 3, partition 0 (group 0)
    vT_166_l2 = vT_166_l2_ring.index((twill_base + (twill_n - 1 + 1) - 3) % 5)  # load1_vT: stage 3, partition 0 (group 0)
    tok_dp_l2 = warpgroup_mma(do_113, vT_166_l2, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_dp: stage 3, partition 0 (group 0)
    offs_n_169 = curr_n_181_p1  # elementwise0_p: stage 3, partition 0 (group 0)
    offs_n_170 = offs_n_169 + offs_m_42  # elementwise0_p: stage 3, partition 0 (group 0)
    mask_171 = gl.expand_dims(offs_n_170, 0)  # elementwise0_p: stage 3, partition 0 (group 0)
    mask_172 = mask_171.broadcast_to([128, 16])  # elementwise0_p: stage 3, partition 0 (group 0)
    mask_173_l2 = mask_131 >= mask_172  # elementwise0_p: stage 3, partition 0 (group 0)
    p_174 = gl.where(mask_173_l2, p_168_l2, 0.0)  # elementwise0_p: stage 3, partition 0 (group 0)
    dp_l2 = warpgroup_mma_wait(0, deps=(tok_dp_l2,))
    ds_175 = dp_l2 - ds_133  # elementwise0_p: stage 3, partition 0 (group 0)
    ds_176 = p_174 * ds_175  # elementwise0_p: stage 3, partition 0 (group 0)
    curr_n_181 = curr_n_181_p1 + 16  # elementwise0_p: stage 3, partition 0 (group 0)
    ds_177 = ds_176.to(gl.float16)  # convert0_ds: stage 3, partition 0 (group 0)
    ds_179 = gl.convert_layout(ds_177, L9)  # convert0_ds: stage 3, partition 0 (group 0)
    dq_178 = kT_165_l2.permute((1, 0))  # load0_kT: stage 3, partition 0 (group 0)
    tok_dq_180 = warpgroup_mma(ds_179, dq_178, dq_180_p1, is_async=True)  # dot2_dq: stage 3, partition 0 (group 0)
    async_copy.commit_group()
    dq_180 = warpgroup_mma_wait(1, deps=(tok_dq_180,))
    curr_n_181_p1 = curr_n_181
    dq_180_p1 = dq_180
    kT_ptrs_182_p2 = kT_ptrs_182_p1
    kT_ptrs_182_p1 = kT_ptrs_182
    vT_ptrs_183_p2 = vT_ptrs_183_p1
    vT_ptrs_183_p1 = vT_ptrs_183
    async_copy.wait_group(2)
    gl.thread_barrier()
    kT_165_l2 = kT_165_l2_ring.index((twill_base + (twill_n - 1 + 2) - 3) % 5)  # load0_kT: stage 3, partition 0 (group 0)
    tok_qk_l2 = warpgroup_mma(q_108, kT_165_l2, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qk: stage 3, partition 0 (group 0)
    dq_180_p1, qk_l2 = warpgroup_mma_wait(0, deps=(dq_180_p1, tok_qk_l2,))
    p_167_l2 = qk_l2 - p_130  # sfu0_p: stage 3, partition 0 (group 0)
    p_168_l2 = gl.exp2(p_167_l2)  # sfu0_p: stage 3, partition 0 (group 0)
    vT_166_l2 = vT_166_l2_ring.index((twill_base + (twill_n - 1 + 2) - 3) % 5)  # load1_vT: stage 3, partition 0 (group 0)
    tok_dp_l2 = warpgroup_mma(do_113, vT_166_l2, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_dp: stage 3, partition 0 (group 0)
    offs_n_169 = curr_n_181_p1  # elementwise0_p: stage 3, partition 0 (group 0)
    offs_n_170 = offs_n_169 + offs_m_42  # elementwise0_p: stage 3, partition 0 (group 0)
    mask_171 = gl.expand_dims(offs_n_170, 0)  # elementwise0_p: stage 3, partition 0 (group 0)
    mask_172 = mask_171.broadcast_to([128, 16])  # elementwise0_p: stage 3, partition 0 (group 0)
    mask_173_l2 = mask_131 >= mask_172  # elementwise0_p: stage 3, partition 0 (group 0)
    p_174 = gl.where(mask_173_l2, p_168_l2, 0.0)  # elementwise0_p: stage 3, partition 0 (group 0)
    dp_l2 = warpgroup_mma_wait(0, deps=(tok_dp_l2,))
    ds_175 = dp_l2 - ds_133  # elementwise0_p: stage 3, partition 0 (group 0)
    ds_176 = p_174 * ds_175  # elementwise0_p: stage 3, partition 0 (group 0)
    curr_n_181 = curr_n_181_p1 + 16  # elementwise0_p: stage 3, partition 0 (group 0)
    ds_177 = ds_176.to(gl.float16)  # convert0_ds: stage 3, partition 0 (group 0)
    ds_179 = gl.convert_layout(ds_177, L9)  # convert0_ds: stage 3, partition 0 (group 0)
    dq_178 = kT_165_l2.permute((1, 0))  # load0_kT: stage 3, partition 0 (group 0)
    tok_dq_180 = warpgroup_mma(ds_179, dq_178, dq_180_p1, is_async=True)  # dot2_dq: stage 3, partition 0 (group 0)
    async_copy.commit_group()
    dq_180 = warpgroup_mma_wait(1, deps=(tok_dq_180,))
    curr_n_181_p1 = curr_n_181
    dq_180_p1 = dq_180
    kT_ptrs_182_p3 = kT_ptrs_182_p2
    kT_ptrs_182_p2 = kT_ptrs_182_p1
    kT_ptrs_182_p1 = kT_ptrs_182
    vT_ptrs_183_p3 = vT_ptrs_183_p2
    vT_ptrs_183_p2 = vT_ptrs_183_p1
    vT_ptrs_183_p1 = vT_ptrs_183
    async_copy.wait_group(2)
    gl.thread_barrier()
    kT_165_l2 = kT_165_l2_ring.index((twill_base + (twill_n - 1 + 3) - 3) % 5)  # load0_kT: stage 3, partition 0 (group 0)
    tok_qk_l2 = warpgroup_mma(q_108, kT_165_l2, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_qk: stage 3, partition 0 (group 0)
    dq_180_p1, qk_l2 = warpgroup_mma_wait(0, deps=(dq_180_p1, tok_qk_l2,))
    p_167_l2 = qk_l2 - p_130  # sfu0_p: stage 3, partition 0 (group 0)
    p_168_l2 = gl.exp2(p_167_l2)  # sfu0_p: stage 3, partition 0 (group 0)
    vT_166_l2 = vT_166_l2_ring.index((twill_base + (twill_n - 1 + 3) - 3) % 5)  # load1_vT: stage 3, partition 0 (group 0)
    tok_dp_l2 = warpgroup_mma(do_113, vT_166_l2, gl.full([128, 16], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_dp: stage 3, partition 0 (group 0)
    offs_n_169 = curr_n_181_p1  # elementwise0_p: stage 3, partition 0 (group 0)
    offs_n_170 = offs_n_169 + offs_m_42  # elementwise0_p: stage 3, partition 0 (group 0)
    mask_171 = gl.expand_dims(offs_n_170, 0)  # elementwise0_p: stage 3, partition 0 (group 0)
    mask_172 = mask_171.broadcast_to([128, 16])  # elementwise0_p: stage 3, partition 0 (group 0)
    mask_173_l2 = mask_131 >= mask_172  # elementwise0_p: stage 3, partition 0 (group 0)
    p_174 = gl.where(mask_173_l2, p_168_l2, 0.0)  # elementwise0_p: stage 3, partition 0 (group 0)
    dp_l2 = warpgroup_mma_wait(0, deps=(tok_dp_l2,))
    ds_175 = dp_l2 - ds_133  # elementwise0_p: stage 3, partition 0 (group 0)
    ds_176 = p_174 * ds_175  # elementwise0_p: stage 3, partition 0 (group 0)
    curr_n_181 = curr_n_181_p1 + 16  # elementwise0_p: stage 3, partition 0 (group 0)
    ds_177 = ds_176.to(gl.float16)  # convert0_ds: stage 3, partition 0 (group 0)
    ds_179 = gl.convert_layout(ds_177, L9)  # convert0_ds: stage 3, partition 0 (group 0)
    dq_178 = kT_165_l2.permute((1, 0))  # load0_kT: stage 3, partition 0 (group 0)
    tok_dq_180 = warpgroup_mma(ds_179, dq_178, dq_180_p1, is_async=True)  # dot2_dq: stage 3, partition 0 (group 0)
    async_copy.commit_group()
    dq_180 = warpgroup_mma_wait(1, deps=(tok_dq_180,))
    curr_n_181_p1 = curr_n_181
    dq_180_p1 = dq_180
    kT_ptrs_182_p4 = kT_ptrs_182_p3
    kT_ptrs_182_p3 = kT_ptrs_182_p2
    kT_ptrs_182_p2 = kT_ptrs_182_p1
    kT_ptrs_182_p1 = kT_ptrs_182
    vT_ptrs_183_p4 = vT_ptrs_183_p3
    vT_ptrs_183_p3 = vT_ptrs_183_p2
    vT_ptrs_183_p2 = vT_ptrs_183_p1
    vT_ptrs_183_p1 = vT_ptrs_183
    dq_180_p1 = warpgroup_mma_wait(0, deps=(dq_180_p1,))
    q_108._keep_alive()
    kT_165_l2_ring._keep_alive()
    do_113._keep_alive()
    vT_166_l2_ring._keep_alive()
    twill_base += twill_n
    num_steps_136 = start_n // 32
    start_n_137 = num_steps_136 * 32
    start_n_138 = start_n - start_n_137
    offs_n_140 = start_n_138 + offs_m_68
    kT_ptrs_141 = gl.expand_dims(offs_n_140, 0)
    kT_ptrs_142 = kT_ptrs_141 * stride_tok
    kT_ptrs_144 = K_9 + kT_ptrs_142
    kT_ptrs_145 = kT_ptrs_144.broadcast_to([64, 32])
    kT_ptrs_146 = kT_ptrs_145 + qT_ptrs_81
    vT_ptrs_148 = V_10 + kT_ptrs_142
    vT_ptrs_149 = vT_ptrs_148.broadcast_to([64, 32])
    vT_ptrs_150 = vT_ptrs_149 + qT_ptrs_81
    p_151 = m_119.broadcast_to([128, 32])
    ds_152 = gl.expand_dims(ds, 1)
    ds_153 = ds_152.broadcast_to([128, 32])
    kT_ptrs_154 = stride_tok * 32
    twill_n = (num_steps_136 - 0 + 1 - 1) // 1
    if (twill_n >= 3) | (gl.program_id(0) < 0):
        kT_165_l3_ring = gl.allocate_shared_memory(gl.float16, [5, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        vT_166_l3_ring = gl.allocate_shared_memory(gl.float16, [5, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        kT_ptrs_175 = kT_ptrs_146
        vT_ptrs_176 = vT_ptrs_150
        kT_ptrs_175_p1 = kT_ptrs_175
        vT_ptrs_176_p1 = vT_ptrs_176
        kT_ptrs_175 = kT_ptrs_175_p1 + kT_ptrs_154  # load0_kT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_kT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(kT_165_l3_ring.index((twill_base + 0 - 0) % 5), kT_ptrs_175_p1)  # load0_kT: stage 0, partition 0 (group 0)
        else:  # load0_kT: stage 0, partition 0 (group 0)
            kT_165_l3_ring.index((twill_base + 0 - 0) % 5).store(gl.load(kT_ptrs_175_p1))  # load0_kT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_kT: stage 0, partition 0 (group 0)
        vT_ptrs_176 = vT_ptrs_176_p1 + kT_ptrs_154  # load1_vT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_vT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(vT_166_l3_ring.index((twill_base + 0 - 0) % 5), vT_ptrs_176_p1)  # load1_vT: stage 0, partition 0 (group 0)
        else:  # load1_vT: stage 0, partition 0 (group 0)
            vT_166_l3_ring.index((twill_base + 0 - 0) % 5).store(gl.load(vT_ptrs_176_p1))  # load1_vT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_vT: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        kT_ptrs_175_p1 = kT_ptrs_175
        vT_ptrs_176_p1 = vT_ptrs_176
        kT_ptrs_175 = kT_ptrs_175_p1 + kT_ptrs_154  # load0_kT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_kT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(kT_165_l3_ring.index((twill_base + 1 - 0) % 5), kT_ptrs_175_p1)  # load0_kT: stage 0, partition 0 (group 0)
        else:  # load0_kT: stage 0, partition 0 (group 0)
            kT_165_l3_ring.index((twill_base + 1 - 0) % 5).store(gl.load(kT_ptrs_175_p1))  # load0_kT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_kT: stage 0, partition 0 (group 0)
        vT_ptrs_176 = vT_ptrs_176_p1 + kT_ptrs_154  # load1_vT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_vT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(vT_166_l3_ring.index((twill_base + 1 - 0) % 5), vT_ptrs_176_p1)  # load1_vT: stage 0, partition 0 (group 0)
        else:  # load1_vT: stage 0, partition 0 (group 0)
            vT_166_l3_ring.index((twill_base + 1 - 0) % 5).store(gl.load(vT_ptrs_176_p1))  # load1_vT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_vT: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        kT_ptrs_175_p1 = kT_ptrs_175
        vT_ptrs_176_p1 = vT_ptrs_176
        dq_174 = dq_180_p1
        kT_ptrs_175 = kT_ptrs_175_p1 + kT_ptrs_154  # load0_kT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_kT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(kT_165_l3_ring.index((twill_base + 2 - 0) % 5), kT_ptrs_175_p1)  # load0_kT: stage 0, partition 0 (group 0)
        else:  # load0_kT: stage 0, partition 0 (group 0)
            kT_165_l3_ring.index((twill_base + 2 - 0) % 5).store(gl.load(kT_ptrs_175_p1))  # load0_kT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_kT: stage 0, partition 0 (group 0)
        vT_ptrs_176 = vT_ptrs_176_p1 + kT_ptrs_154  # load1_vT: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_vT: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(vT_166_l3_ring.index((twill_base + 2 - 0) % 5), vT_ptrs_176_p1)  # load1_vT: stage 0, partition 0 (group 0)
        else:  # load1_vT: stage 0, partition 0 (group 0)
            vT_166_l3_ring.index((twill_base + 2 - 0) % 5).store(gl.load(vT_ptrs_176_p1))  # load1_vT: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_vT: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        dq_174_p1 = dq_174
        kT_ptrs_175_p1 = kT_ptrs_175
        vT_ptrs_176_p1 = vT_ptrs_176
        for twill_b in range(3, twill_n):
            async_copy.wait_group(2)
            gl.thread_barrier()
            kT_165_l3 = kT_165_l3_ring.index((twill_base + twill_b - 3) % 5)  # load0_kT: stage 3, partition 0 (group 0)
            kT_ptrs_175 = kT_ptrs_175_p1 + kT_ptrs_154  # load0_kT: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_kT: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(kT_165_l3_ring.index((twill_base + twill_b - 0) % 5), kT_ptrs_175_p1)  # load0_kT: stage 0, partition 0 (group 0)
            else:  # load0_kT: stage 0, partition 0 (group 0)
                kT_165_l3_ring.index((twill_base + twill_b - 0) % 5).store(gl.load(kT_ptrs_175_p1))  # load0_kT: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_kT: stage 0, partition 0 (group 0)
            tok_qk_l3 = warpgroup_mma(q_108, kT_165_l3, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0_qk: stage 3, partition 0 (group 0)
            dq_174_p1, qk_l3 = warpgroup_mma_wait(0, deps=(dq_174_p1, tok_qk_l3,))
            p_167_l3 = qk_l3 - p_151  # sfu0_p: stage 3, partition 0 (group 0)
            p_168_l3 = gl.exp2(p_167_l3)  # sfu0_p: stage 3, partition 0 (group 0)
            vT_166_l3 = vT_166_l3_ring.index((twill_base + twill_b - 3) % 5)  # load1_vT: stage 3, partition 0 (group 0)
            vT_ptrs_176 = vT_ptrs_176_p1 + kT_ptrs_154  # load1_vT: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_vT: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(vT_166_l3_ring.index((twill_base + twill_b - 0) % 5), vT_ptrs_176_p1)  # load1_vT: stage 0, partition 0 (group 0)
            else:  # load1_vT: stage 0, partition 0 (group 0)
                vT_166_l3_ring.index((twill_base + twill_b - 0) % 5).store(gl.load(vT_ptrs_176_p1))  # load1_vT: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_vT: stage 0, partition 0 (group 0)
            tok_dp_l3 = warpgroup_mma(do_113, vT_166_l3, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot1_dp: stage 3, partition 0 (group 0)
            dp_l3 = warpgroup_mma_wait(0, deps=(tok_dp_l3,))
            ds_169 = dp_l3 - ds_153  # elementwise0_ds: stage 3, partition 0 (group 0)
            ds_170 = p_168_l3 * ds_169  # elementwise0_ds: stage 3, partition 0 (group 0)
            ds_171 = ds_170.to(gl.float16)  # convert0_ds: stage 3, partition 0 (group 0)
            ds_173 = gl.convert_layout(ds_171, L9)  # convert0_ds: stage 3, partition 0 (group 0)
            dq_172 = kT_165_l3.permute((1, 0))  # load0_kT: stage 3, partition 0 (group 0)
            tok_dq_174 = warpgroup_mma(ds_173, dq_172, dq_174_p1, is_async=True)  # dot2_dq: stage 3, partition 0 (group 0)
            async_copy.commit_group()
            dq_174 = warpgroup_mma_wait(1, deps=(tok_dq_174,))
            dq_174_p1 = dq_174
            kT_ptrs_175_p1 = kT_ptrs_175
            vT_ptrs_176_p1 = vT_ptrs_176
        async_copy.wait_group(2)
        gl.thread_barrier()
        kT_165_l3 = kT_165_l3_ring.index((twill_base + (twill_n - 1 + 1) - 3) % 5)  # load0_kT: stage 3, partition 0 (group 0)
        tok_qk_l3 = warpgroup_mma(q_108, kT_165_l3, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0_qk: stage 3, partition 0 (group 0)
        dq_174_p1, qk_l3 = warpgroup_mma_wait(0, deps=(dq_174_p1, tok_qk_l3,))
        p_167_l3 = qk_l3 - p_151  # sfu0_p: stage 3, partition 0 (group 0)
        p_168_l3 = gl.exp2(p_167_l3)  # sfu0_p: stage 3, partition 0 (group 0)
        vT_166_l3 = vT_166_l3_ring.index((twill_base + (twill_n - 1 + 1) - 3) % 5)  # load1_vT: stage 3, partition 0 (group 0)
        tok_dp_l3 = warpgroup_mma(do_113, vT_166_l3, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot1_dp: stage 3, partition 0 (group 0)
        dp_l3 = warpgroup_mma_wait(0, deps=(tok_dp_l3,))
        ds_169 = dp_l3 - ds_153  # elementwise0_ds: stage 3, partition 0 (group 0)
        ds_170 = p_168_l3 * ds_169  # elementwise0_ds: stage 3, partition 0 (group 0)
        ds_171 = ds_170.to(gl.float16)  # convert0_ds: stage 3, partition 0 (group 0)
        ds_173 = gl.convert_layout(ds_171, L9)  # convert0_ds: stage 3, partition 0 (group 0)
        dq_172 = kT_165_l3.permute((1, 0))  # load0_kT: stage 3, partition 0 (group 0)
        tok_dq_174 = warpgroup_mma(ds_173, dq_172, dq_174_p1, is_async=True)  # dot2_dq: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        dq_174 = warpgroup_mma_wait(1, deps=(tok_dq_174,))
        dq_174_p1 = dq_174
        kT_ptrs_175_p2 = kT_ptrs_175_p1
        kT_ptrs_175_p1 = kT_ptrs_175
        vT_ptrs_176_p2 = vT_ptrs_176_p1
        vT_ptrs_176_p1 = vT_ptrs_176
        async_copy.wait_group(2)
        gl.thread_barrier()
        kT_165_l3 = kT_165_l3_ring.index((twill_base + (twill_n - 1 + 2) - 3) % 5)  # load0_kT: stage 3, partition 0 (group 0)
        tok_qk_l3 = warpgroup_mma(q_108, kT_165_l3, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0_qk: stage 3, partition 0 (group 0)
        dq_174_p1, qk_l3 = warpgroup_mma_wait(0, deps=(dq_174_p1, tok_qk_l3,))
        p_167_l3 = qk_l3 - p_151  # sfu0_p: stage 3, partition 0 (group 0)
        p_168_l3 = gl.exp2(p_167_l3)  # sfu0_p: stage 3, partition 0 (group 0)
        vT_166_l3 = vT_166_l3_ring.index((twill_base + (twill_n - 1 + 2) - 3) % 5)  # load1_vT: stage 3, partition 0 (group 0)
        tok_dp_l3 = warpgroup_mma(do_113, vT_166_l3, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot1_dp: stage 3, partition 0 (group 0)
        dp_l3 = warpgroup_mma_wait(0, deps=(tok_dp_l3,))
        ds_169 = dp_l3 - ds_153  # elementwise0_ds: stage 3, partition 0 (group 0)
        ds_170 = p_168_l3 * ds_169  # elementwise0_ds: stage 3, partition 0 (group 0)
        ds_171 = ds_170.to(gl.float16)  # convert0_ds: stage 3, partition 0 (group 0)
        ds_173 = gl.convert_layout(ds_171, L9)  # convert0_ds: stage 3, partition 0 (group 0)
        dq_172 = kT_165_l3.permute((1, 0))  # load0_kT: stage 3, partition 0 (group 0)
        tok_dq_174 = warpgroup_mma(ds_173, dq_172, dq_174_p1, is_async=True)  # dot2_dq: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        dq_174 = warpgroup_mma_wait(1, deps=(tok_dq_174,))
        dq_174_p1 = dq_174
        kT_ptrs_175_p3 = kT_ptrs_175_p2
        kT_ptrs_175_p2 = kT_ptrs_175_p1
        kT_ptrs_175_p1 = kT_ptrs_175
        vT_ptrs_176_p3 = vT_ptrs_176_p2
        vT_ptrs_176_p2 = vT_ptrs_176_p1
        vT_ptrs_176_p1 = vT_ptrs_176
        async_copy.wait_group(2)
        gl.thread_barrier()
        kT_165_l3 = kT_165_l3_ring.index((twill_base + (twill_n - 1 + 3) - 3) % 5)  # load0_kT: stage 3, partition 0 (group 0)
        tok_qk_l3 = warpgroup_mma(q_108, kT_165_l3, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot0_qk: stage 3, partition 0 (group 0)
        dq_174_p1, qk_l3 = warpgroup_mma_wait(0, deps=(dq_174_p1, tok_qk_l3,))
        p_167_l3 = qk_l3 - p_151  # sfu0_p: stage 3, partition 0 (group 0)
        p_168_l3 = gl.exp2(p_167_l3)  # sfu0_p: stage 3, partition 0 (group 0)
        vT_166_l3 = vT_166_l3_ring.index((twill_base + (twill_n - 1 + 3) - 3) % 5)  # load1_vT: stage 3, partition 0 (group 0)
        tok_dp_l3 = warpgroup_mma(do_113, vT_166_l3, gl.full([128, 32], 0.0, gl.float32, layout=L10), use_acc=False, is_async=True)  # dot1_dp: stage 3, partition 0 (group 0)
        dp_l3 = warpgroup_mma_wait(0, deps=(tok_dp_l3,))
        ds_169 = dp_l3 - ds_153  # elementwise0_ds: stage 3, partition 0 (group 0)
        ds_170 = p_168_l3 * ds_169  # elementwise0_ds: stage 3, partition 0 (group 0)
        ds_171 = ds_170.to(gl.float16)  # convert0_ds: stage 3, partition 0 (group 0)
        ds_173 = gl.convert_layout(ds_171, L9)  # convert0_ds: stage 3, partition 0 (group 0)
        dq_172 = kT_165_l3.permute((1, 0))  # load0_kT: stage 3, partition 0 (group 0)
        tok_dq_174 = warpgroup_mma(ds_173, dq_172, dq_174_p1, is_async=True)  # dot2_dq: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        dq_174 = warpgroup_mma_wait(1, deps=(tok_dq_174,))
        dq_174_p1 = dq_174
        kT_ptrs_175_p4 = kT_ptrs_175_p3
        kT_ptrs_175_p3 = kT_ptrs_175_p2
        kT_ptrs_175_p2 = kT_ptrs_175_p1
        kT_ptrs_175_p1 = kT_ptrs_175
        vT_ptrs_176_p4 = vT_ptrs_176_p3
        vT_ptrs_176_p3 = vT_ptrs_176_p2
        vT_ptrs_176_p2 = vT_ptrs_176_p1
        vT_ptrs_176_p1 = vT_ptrs_176
        dq_174_p1 = warpgroup_mma_wait(0, deps=(dq_174_p1,))
        q_108._keep_alive()
        kT_165_l3_ring._keep_alive()
        do_113._keep_alive()
        vT_166_l3_ring._keep_alive()
    else:
        curr_n_162_w = dq_180_p1
        kT_ptrs_163_l3_w = kT_ptrs_146
        vT_ptrs_164_l3_w = vT_ptrs_150
        for curr_n_161_l3_w in range(0, num_steps_136, 1):
            kT_l3_w = gl.load(kT_ptrs_163_l3_w)
            kT_165_l3_w = gl.allocate_shared_memory(gl.float16, [64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), kT_l3_w)
            fence_async_shared()
            vT_l3_w = gl.load(vT_ptrs_164_l3_w)
            vT_166_l3_w = gl.allocate_shared_memory(gl.float16, [64, 32], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), vT_l3_w)
            fence_async_shared()
            qk_l3_w = warpgroup_mma(q_108, kT_165_l3_w, gl.full([128, 32], 0.0, gl.float32, layout=L10))
            p_167_l3_w = qk_l3_w - p_151
            p_168_l3_w = gl.exp2(p_167_l3_w)
            dp_l3_w = warpgroup_mma(do_113, vT_166_l3_w, gl.full([128, 32], 0.0, gl.float32, layout=L10))
            ds_169_w = dp_l3_w - ds_153
            ds_170_w = p_168_l3_w * ds_169_w
            ds_171_w = ds_170_w.to(gl.float16)
            ds_173_w = gl.convert_layout(ds_171_w, L9)
            dq_174_w = warpgroup_mma(ds_173_w, kT_165_l3_w.permute((1, 0)), curr_n_162_w)
            kT_ptrs_175_w = kT_ptrs_163_l3_w + kT_ptrs_154
            vT_ptrs_176_w = vT_ptrs_164_l3_w + kT_ptrs_154
            curr_n_162_w = dq_174_w
            kT_ptrs_163_l3_w = kT_ptrs_175_w
            vT_ptrs_164_l3_w = vT_ptrs_176_w
        dq_174_p1 = curr_n_162_w
        kT_ptrs_175_p4 = kT_ptrs_163_l3_w
        vT_ptrs_176_p4 = vT_ptrs_164_l3_w
    dq_ptrs_157 = DQ_12 + k_27
    dq_ptrs_158 = dq_ptrs_157.broadcast_to([128, 64])
    dq_ptrs_159 = dq_ptrs_158 + k_33
    dq_160 = dq_174_p1 * 0.693147182
    v4 = dq_160.to(gl.float16)
    v5 = gl.convert_layout(v4, L12)
    gl.store(dq_ptrs_159, v5)

@gluon.jit
def twill_kernel(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D, stride_z, stride_h, stride_tok, H, N_CTX, TWILL_COPY: gl.constexpr):
    consumer_0(Q, K, V, sm_scale, DO, DQ, DK, DV, M, D, stride_z, stride_h, stride_tok, H, N_CTX, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DQ', 'DK', 'DV', 'M', 'D', 'stride_z', 'stride_h', 'stride_tok', 'stride_d', 'H', 'N_CTX', 'BLOCK_M1', 'BLOCK_N1', 'BLOCK_M2', 'BLOCK_N2', 'BLK_SLICE_FACTOR', 'HEAD_DIM', 'CAUSAL']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DQ', 'DK', 'DV', 'M', 'D', 'stride_z', 'stride_h', 'stride_tok', 'H', 'N_CTX']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'sm_scale', 'DO', 'DQ', 'DK', 'DV', 'M', 'D', 'stride_z', 'stride_h', 'stride_tok', 'H', 'N_CTX']   # the arguments a launch key reads
CONSTEXPRS = {'stride_d': 1, 'BLOCK_M1': 32, 'BLOCK_N1': 128, 'BLOCK_M2': 128, 'BLOCK_N2': 32, 'BLK_SLICE_FACTOR': 2, 'HEAD_DIM': 64, 'CAUSAL': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['Q', 'K', 'V', 'DO', 'stride_z', 'stride_h', 'stride_tok']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
