"""prepare_wy_repr_bwd_kernel, written by twill from its joint schedule: I=276 L=413 (optimal), 1842 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (b_dk_216_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 218 per thread)
- shared operand b_k_202_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 3 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 49168 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at fla_wy_repr_bwd.py:116 (TTGIR line 201) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=445, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at fla_wy_repr_bwd.py:141 (TTGIR line 269) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=423, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 8], [8, 0], [16, 0], [32, 0]], lane_bases=[[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[0, 16], [0, 32]], block_bases=[], shape=[64, 64])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L10 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L11 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 8], [8, 0], [16, 0], [32, 0]], lane_bases=[[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[0, 16], [0, 32]], block_bases=[], shape=[64, 64]))

@gluon.jit
def consumer_0(k, v, beta, g, A, dw, du, dk, dv, db, dg, cu_seqlens, chunk_indices, T, TWILL_COPY: gl.constexpr):
    twill_base = 0
    v0 = gl.program_id(0)
    v1 = gl.cast(v0, gl.int64)
    v2 = gl.program_id(1)
    v3 = gl.cast(v2, gl.int64)
    v4 = v3 % 32
    v5 = v1 * 2
    v6 = chunk_indices + v5
    v7 = gl.load(v6)
    v8 = gl.cast(v7, gl.int32)
    v9 = v6 + 1
    v10 = gl.load(v9)
    v11 = cu_seqlens + v8
    v12 = gl.load(v11)
    v13 = v11 + 1
    v14 = gl.load(v13)
    T_13 = v14 - v12
    o_t = v10 * 64
    o_t_14 = gl.arange(0, 64, layout=L0)
    o_t_15 = gl.arange(0, 64, layout=L1)
    o_t_16 = gl.arange(0, 64, layout=L2)
    o_t_17 = gl.arange(0, 64, layout=L3)
    o_t_18 = gl.arange(0, 64, layout=L4)
    o_t_19 = gl.arange(0, 64, layout=L5)
    o_t_20 = o_t_14.to(gl.int64)
    o_t_21 = o_t_16.to(gl.int64)
    o_t_22 = o_t_17.to(gl.int64)
    o_t_23 = o_t_18.to(gl.int64)
    o_t_24 = o_t_19.to(gl.int64)
    o_t_30 = o_t + o_t_20
    o_t_31 = o_t + o_t_21
    o_t_32 = o_t + o_t_22
    o_t_33 = o_t + o_t_23
    o_t_34 = o_t + o_t_24
    m_t_39 = o_t_30 < T_13
    m_t_40 = o_t_31 < T_13
    m_t_41 = o_t_32 < T_13
    m_t_42 = o_t_33 < T_13
    m_t_43 = o_t_34 < T_13
    m_AT_44 = gl.arange(0, 64, layout=L6)
    m_AT_45 = gl.expand_dims(m_AT_44, 1)
    m_AT_46 = m_AT_45 < 64
    m_AT_47 = gl.expand_dims(m_t_39, 0)
    m_AT_48 = gl.expand_dims(m_t_40, 0)
    m_AT_49 = m_AT_46.broadcast_to([64, 64])
    m_AT_50 = m_AT_47.broadcast_to([64, 64])
    m_AT_51 = m_AT_48.broadcast_to([64, 64])
    m_AT_52 = m_AT_49 & m_AT_50
    p_b = v12 * 32
    p_b_53 = p_b + v4
    p_b_54 = beta + p_b_53
    p_b_55 = o_t_33 * 32
    p_b_56 = o_t_32 * 32
    p_b_57 = o_t_31 * 32
    p_b_58 = o_t_34 * 32
    p_b_61 = p_b_54 + p_b_55
    p_b_62 = p_b_54 + p_b_56
    p_db = db + p_b_53
    p_db_64 = p_db + p_b_58
    p_A_65 = p_b_53 * 64
    p_A_66 = A + p_A_65
    p_A_68 = p_A_66 + m_AT_45
    p_A_69 = gl.expand_dims(o_t_30, 0)
    p_A_70 = gl.expand_dims(o_t_31, 0)
    p_A_71 = p_A_69 * 2048
    p_A_72 = p_A_68.broadcast_to([64, 64])
    p_A_73 = p_A_71.broadcast_to([64, 64])
    p_A_74 = p_A_72 + p_A_73
    b_b = gl.load(p_b_61, mask=m_t_42, other=0.0)
    b_b_75 = gl.load(p_b_62, mask=m_t_41, other=0.0)
    b_dk = gl.convert_layout(b_b_75, L7)
    b_A_76 = gl.load(p_A_74, mask=m_AT_52, other=0.0)
    b_A_77 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), b_A_76)
    fence_async_shared()
    p_g = g + p_b_53
    p_g_81 = p_g + p_b_55
    p_g_82 = p_g + p_b_56
    p_g_83 = p_g + p_b_57
    b_g = gl.load(p_g_81, mask=m_t_42, other=0.0)
    b_g_84 = gl.load(p_g_82, mask=m_t_41, other=0.0)
    b_g_85 = gl.load(p_g_83, mask=m_t_40, other=0.0)
    b_g_exp = gl.exp2(b_g)
    b_g_exp_86 = gl.exp2(b_g_84)
    m_k = gl.expand_dims(m_t_41, 1)
    m_k_87 = m_k.broadcast_to([64, 64])
    p_k = v12 * 16
    p_k_88 = v4 // 2
    p_k_89 = p_k + p_k_88
    p_k_90 = p_k_89 * 128
    p_k_91 = k + p_k_90
    p_k_92 = gl.expand_dims(o_t_32, 1)
    p_k_93 = p_k_92 * 2048
    p_k_95 = p_k_91 + p_k_93
    p_k_96 = p_k_95.broadcast_to([64, 64])
    p_dk = p_b_53 * 128
    p_dk_97 = dk + p_dk
    p_dk_98 = p_k_92 * 4096
    p_dk_100 = p_dk_97 + p_dk_98
    p_dk_101 = p_dk_100.broadcast_to([64, 64])
    p_dw = dw + p_dk
    p_dw_103 = p_dw + p_dk_98
    p_dw_104 = p_dw_103.broadcast_to([64, 64])
    b_kbg = b_b.to(gl.float32)
    b_kbg_105 = b_b_75.to(gl.float32)
    b_kbg_106 = b_kbg * b_g_exp
    b_kbg_107 = b_kbg_105 * b_g_exp_86
    b_kbg_108 = gl.expand_dims(b_kbg_106, 1)
    b_kbg_109 = gl.expand_dims(b_kbg_107, 1)
    b_kbg_110 = b_kbg_108.broadcast_to([64, 64])
    b_kbg_111 = b_kbg_109.broadcast_to([64, 64])
    b_db = gl.expand_dims(b_g_exp, 1)
    b_db_112 = b_db.broadcast_to([64, 64])
    twill_n = (2 - 0 + 1 - 1) // 1
    b_dA_209_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    b_dw_206_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_db_215 = gl.full([64], 0.0, gl.float32, layout=L4)
    b_dA_210 = gl.full([64, 64], 0.0, gl.float32, layout=L8)
    b_dg_218 = gl.full([64], 0.0, gl.float32, layout=L4)
    o_k_l0 = (0 + (0 - 0) * 1) * 64  # elementwise0_m_k: stage 0, partition 0 (group 0)
    o_k_191 = o_k_l0  # elementwise0_m_k: stage 0, partition 0 (group 0)
    o_k_192_l0 = o_k_191 + o_t_15  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_193 = gl.expand_dims(o_k_192_l0, 0)  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_194_l0 = m_k_193 < 128  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_195_l0 = m_k_194_l0.broadcast_to([64, 64])  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_196_l0 = m_k_87 & m_k_195_l0  # elementwise0_m_k: stage 0, partition 0 (group 0)
    p_k_197 = m_k_193.broadcast_to([64, 64])  # load0_b_k: stage 0, partition 0 (group 0)
    p_k_198_l0 = p_k_96 + p_k_197  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_l0 = gl.load(p_k_198_l0, mask=m_k_196_l0, other=0.0)  # load0_b_k: stage 0, partition 0 (group 0)
    b_dA_210_p1 = b_dA_210
    b_db_215_p1 = b_db_215
    b_dg_218_p1 = b_dg_218
    b_k_l0_p1 = b_k_l0
    m_k_196_l0_p1 = m_k_196_l0
    p_k_197_p1 = p_k_197
    for twill_b in range(1, twill_n):
        o_k_l0 = (0 + (twill_b - 0) * 1) * 64  # elementwise0_m_k: stage 0, partition 0 (group 0)
        o_k_191 = o_k_l0  # elementwise0_m_k: stage 0, partition 0 (group 0)
        o_k_192_l0 = o_k_191 + o_t_15  # elementwise0_m_k: stage 0, partition 0 (group 0)
        m_k_193 = gl.expand_dims(o_k_192_l0, 0)  # elementwise0_m_k: stage 0, partition 0 (group 0)
        m_k_194_l0 = m_k_193 < 128  # elementwise0_m_k: stage 0, partition 0 (group 0)
        m_k_195_l0 = m_k_194_l0.broadcast_to([64, 64])  # elementwise0_m_k: stage 0, partition 0 (group 0)
        m_k_196_l0 = m_k_87 & m_k_195_l0  # elementwise0_m_k: stage 0, partition 0 (group 0)
        p_k_197 = m_k_193.broadcast_to([64, 64])  # load0_b_k: stage 0, partition 0 (group 0)
        p_k_198_l0 = p_k_96 + p_k_197  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_l0 = gl.load(p_k_198_l0, mask=m_k_196_l0, other=0.0)  # load0_b_k: stage 0, partition 0 (group 0)
        b_kbg_203 = b_k_l0_p1.to(gl.float32)  # convert1_b_kbg: stage 1, partition 0 (group 0)
        b_kbg_205 = b_kbg_203 * b_kbg_111  # elementwise2_b_kbg: stage 1, partition 0 (group 0)
        b_dA_207_l0 = gl.permute(b_kbg_205, (1, 0))  # convert2_b_dA: stage 1, partition 0 (group 0)
        b_dA_208 = b_dA_207_l0.to(gl.float16)  # convert2_b_dA: stage 1, partition 0 (group 0)
        b_dA_209 = b_dA_209_st.index((twill_b - 1) % 2)  # local_store0_b_dA: stage 1, partition 0 (group 0)
        b_dA_209.store(b_dA_208)  # local_store0_b_dA: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b_dA: stage 1, partition 0 (group 0)
        b_kbg_201 = gl.convert_layout(b_k_l0_p1, L8)  # convert0_b_kbg: stage 1, partition 0 (group 0)
        b_kbg_202 = b_kbg_201.to(gl.float32)  # convert0_b_kbg: stage 1, partition 0 (group 0)
        p_dw_200 = p_dw_104 + p_k_197_p1  # load1_b_dw: stage 1, partition 0 (group 0)
        b_dw = gl.load(p_dw_200, mask=m_k_196_l0_p1, other=0.0)  # load1_b_dw: stage 1, partition 0 (group 0)
        b_dw_206 = b_dw_206_st.index((twill_b - 1) % 2)  # load1_b_dw: stage 1, partition 0 (group 0)
        b_dw_206.store(b_dw)  # load1_b_dw: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_b_dw: stage 1, partition 0 (group 0)
        tok_b_dkbg = warpgroup_mma(b_A_77, b_dw_206, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_b_dkbg: stage 1, partition 0 (group 0)
        b_dA_210_p1, b_dkbg = warpgroup_mma_wait(0, deps=(b_dA_210_p1, tok_b_dkbg,))
        b_dk_211_l0 = b_dkbg * b_kbg_110  # elementwise3_b_dk: stage 1, partition 0 (group 0)
        b_kbg_204 = b_kbg_202 * b_kbg_110  # elementwise1_b_kbg: stage 1, partition 0 (group 0)
        b_dg_216 = b_dkbg * b_kbg_204  # elementwise1_b_kbg: stage 1, partition 0 (group 0)
        tok_b_dA_210 = warpgroup_mma(b_dw_206, b_dA_209, b_dA_210_p1, is_async=True)  # dot0_b_dA: stage 1, partition 0 (group 0)
        b_dg_217 = gl.sum(b_dg_216, axis=1)  # reduce1_b_dg: stage 1, partition 0 (group 0)
        v18_l0 = b_dk_211_l0.to(gl.float16)  # convert3: stage 1, partition 0 (group 0)
        v19_l0 = gl.convert_layout(v18_l0, L9)  # convert3: stage 1, partition 0 (group 0)
        b_db_212_l0 = b_dkbg * b_kbg_202  # elementwise4_b_db: stage 1, partition 0 (group 0)
        b_db_213_l0 = b_db_212_l0 * b_db_112  # elementwise4_b_db: stage 1, partition 0 (group 0)
        p_dk_199 = p_dk_101 + p_k_197_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(p_dk_199, v19_l0, mask=m_k_196_l0_p1)  # store0: stage 1, partition 0 (group 0)
        b_db_214 = gl.sum(b_db_213_l0, axis=1)  # reduce0_b_db: stage 1, partition 0 (group 0)
        b_dg_218 = b_dg_218_p1 + b_dg_217  # elementwise6_b_dg: stage 1, partition 0 (group 0)
        b_db_215 = b_db_215_p1 + b_db_214  # elementwise5_b_db: stage 1, partition 0 (group 0)
        b_dA_210 = warpgroup_mma_wait(1, deps=(tok_b_dA_210,))
        b_dA_210_p1 = b_dA_210
        b_db_215_p1 = b_db_215
        b_dg_218_p1 = b_dg_218
        b_k_l0_p1 = b_k_l0
        m_k_196_l0_p1 = m_k_196_l0
        p_k_197_p1 = p_k_197
    b_kbg_203 = b_k_l0_p1.to(gl.float32)  # convert1_b_kbg: stage 1, partition 0 (group 0)
    b_kbg_205 = b_kbg_203 * b_kbg_111  # elementwise2_b_kbg: stage 1, partition 0 (group 0)
    b_dA_207_l0 = gl.permute(b_kbg_205, (1, 0))  # convert2_b_dA: stage 1, partition 0 (group 0)
    b_dA_208 = b_dA_207_l0.to(gl.float16)  # convert2_b_dA: stage 1, partition 0 (group 0)
    b_dA_209 = b_dA_209_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b_dA: stage 1, partition 0 (group 0)
    b_dA_209.store(b_dA_208)  # local_store0_b_dA: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_b_dA: stage 1, partition 0 (group 0)
    b_kbg_201 = gl.convert_layout(b_k_l0_p1, L8)  # convert0_b_kbg: stage 1, partition 0 (group 0)
    b_kbg_202 = b_kbg_201.to(gl.float32)  # convert0_b_kbg: stage 1, partition 0 (group 0)
    p_dw_200 = p_dw_104 + p_k_197_p1  # load1_b_dw: stage 1, partition 0 (group 0)
    b_dw = gl.load(p_dw_200, mask=m_k_196_l0_p1, other=0.0)  # load1_b_dw: stage 1, partition 0 (group 0)
    b_dw_206 = b_dw_206_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_b_dw: stage 1, partition 0 (group 0)
    b_dw_206.store(b_dw)  # load1_b_dw: stage 1, partition 0 (group 0)
    fence_async_shared()  # load1_b_dw: stage 1, partition 0 (group 0)
    tok_b_dkbg = warpgroup_mma(b_A_77, b_dw_206, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_b_dkbg: stage 1, partition 0 (group 0)
    b_dA_210_p1, b_dkbg = warpgroup_mma_wait(0, deps=(b_dA_210_p1, tok_b_dkbg,))
    b_dk_211_l0 = b_dkbg * b_kbg_110  # elementwise3_b_dk: stage 1, partition 0 (group 0)
    b_kbg_204 = b_kbg_202 * b_kbg_110  # elementwise1_b_kbg: stage 1, partition 0 (group 0)
    b_dg_216 = b_dkbg * b_kbg_204  # elementwise1_b_kbg: stage 1, partition 0 (group 0)
    tok_b_dA_210 = warpgroup_mma(b_dw_206, b_dA_209, b_dA_210_p1, is_async=True)  # dot0_b_dA: stage 1, partition 0 (group 0)
    b_dg_217 = gl.sum(b_dg_216, axis=1)  # reduce1_b_dg: stage 1, partition 0 (group 0)
    v18_l0 = b_dk_211_l0.to(gl.float16)  # convert3: stage 1, partition 0 (group 0)
    v19_l0 = gl.convert_layout(v18_l0, L9)  # convert3: stage 1, partition 0 (group 0)
    b_db_212_l0 = b_dkbg * b_kbg_202  # elementwise4_b_db: stage 1, partition 0 (group 0)
    b_db_213_l0 = b_db_212_l0 * b_db_112  # elementwise4_b_db: stage 1, partition 0 (group 0)
    p_dk_199 = p_dk_101 + p_k_197_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(p_dk_199, v19_l0, mask=m_k_196_l0_p1)  # store0: stage 1, partition 0 (group 0)
    b_db_214 = gl.sum(b_db_213_l0, axis=1)  # reduce0_b_db: stage 1, partition 0 (group 0)
    b_dg_218 = b_dg_218_p1 + b_dg_217  # elementwise6_b_dg: stage 1, partition 0 (group 0)
    b_db_215 = b_db_215_p1 + b_db_214  # elementwise5_b_db: stage 1, partition 0 (group 0)
    b_dA_210 = warpgroup_mma_wait(1, deps=(tok_b_dA_210,))
    b_dA_210_p1 = b_dA_210
    b_db_215_p1 = b_db_215
    b_dg_218_p1 = b_dg_218
    b_k_l0_p1 = b_k_l0
    m_k_196_l0_p1 = m_k_196_l0
    p_k_197_p1 = p_k_197
    b_dA_210_p1 = warpgroup_mma_wait(0, deps=(b_dA_210_p1,))
    b_A_77._keep_alive()
    b_dw_206_st._keep_alive()
    b_dA_209_st._keep_alive()
    twill_base += twill_n
    m_v = gl.expand_dims(m_t_41, 1)
    m_v_113 = m_v.broadcast_to([64, 64])
    p_v = p_b_53 * 128
    p_v_114 = v + p_v
    p_v_115 = gl.expand_dims(o_t_32, 1)
    p_v_116 = p_v_115 * 4096
    p_v_118 = p_v_114 + p_v_116
    p_v_119 = p_v_118.broadcast_to([64, 64])
    p_dv = dv + p_v
    p_dv_121 = p_dv + p_v_116
    p_dv_122 = p_dv_121.broadcast_to([64, 64])
    p_du = du + p_v
    p_du_124 = p_du + p_v_116
    p_du_125 = p_du_124.broadcast_to([64, 64])
    b_vb = gl.expand_dims(b_b_75, 1)
    b_vb_126 = gl.expand_dims(b_b, 1)
    b_vb_127 = b_vb.broadcast_to([64, 64])
    b_dv = b_vb_126.to(gl.float32)
    b_dv_128 = b_dv.broadcast_to([64, 64])
    twill_n = (2 - 0 + 1 - 1) // 1
    b_dA_205_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_du_204_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_db_213_l1 = b_db_215_p1
    b_dA_207_l1 = b_dA_210_p1
    o_v = (0 + (0 - 0) * 1) * 64  # elementwise0_m_v: stage 0, partition 0 (group 0)
    o_v_193 = o_v  # elementwise0_m_v: stage 0, partition 0 (group 0)
    o_v_194 = o_v_193 + o_t_15  # elementwise0_m_v: stage 0, partition 0 (group 0)
    m_v_195 = gl.expand_dims(o_v_194, 0)  # elementwise0_m_v: stage 0, partition 0 (group 0)
    m_v_196 = m_v_195 < 128  # elementwise0_m_v: stage 0, partition 0 (group 0)
    m_v_197 = m_v_196.broadcast_to([64, 64])  # elementwise0_m_v: stage 0, partition 0 (group 0)
    m_v_198 = m_v_113 & m_v_197  # elementwise0_m_v: stage 0, partition 0 (group 0)
    p_v_199 = m_v_195.broadcast_to([64, 64])  # load0_b_v: stage 0, partition 0 (group 0)
    p_v_200 = p_v_119 + p_v_199  # load0_b_v: stage 0, partition 0 (group 0)
    b_v = gl.load(p_v_200, mask=m_v_198, other=0.0)  # load0_b_v: stage 0, partition 0 (group 0)
    b_dA_207_l1_p1 = b_dA_207_l1
    b_db_213_l1_p1 = b_db_213_l1
    b_v_p1 = b_v
    m_v_198_p1 = m_v_198
    p_v_199_p1 = p_v_199
    for twill_b in range(1, twill_n):
        o_v = (0 + (twill_b - 0) * 1) * 64  # elementwise0_m_v: stage 0, partition 0 (group 0)
        o_v_193 = o_v  # elementwise0_m_v: stage 0, partition 0 (group 0)
        o_v_194 = o_v_193 + o_t_15  # elementwise0_m_v: stage 0, partition 0 (group 0)
        m_v_195 = gl.expand_dims(o_v_194, 0)  # elementwise0_m_v: stage 0, partition 0 (group 0)
        m_v_196 = m_v_195 < 128  # elementwise0_m_v: stage 0, partition 0 (group 0)
        m_v_197 = m_v_196.broadcast_to([64, 64])  # elementwise0_m_v: stage 0, partition 0 (group 0)
        m_v_198 = m_v_113 & m_v_197  # elementwise0_m_v: stage 0, partition 0 (group 0)
        p_v_199 = m_v_195.broadcast_to([64, 64])  # load0_b_v: stage 0, partition 0 (group 0)
        p_v_200 = p_v_119 + p_v_199  # load0_b_v: stage 0, partition 0 (group 0)
        b_v = gl.load(p_v_200, mask=m_v_198, other=0.0)  # load0_b_v: stage 0, partition 0 (group 0)
        b_db_209_l1 = gl.convert_layout(b_v_p1, L8)  # convert0_b_db: stage 1, partition 0 (group 0)
        b_db_210 = b_db_209_l1.to(gl.float32)  # convert0_b_db: stage 1, partition 0 (group 0)
        b_vb_203 = b_v_p1 * b_vb_127  # elementwise1_b_vb: stage 1, partition 0 (group 0)
        b_dA_205 = b_dA_205_st.index((twill_b - 1) % 2)  # local_store0_b_dA: stage 1, partition 0 (group 0)
        b_dA_205.store(b_vb_203)  # local_store0_b_dA: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b_dA: stage 1, partition 0 (group 0)
        p_du_202 = p_du_125 + p_v_199_p1  # load1_b_du: stage 1, partition 0 (group 0)
        b_du = gl.load(p_du_202, mask=m_v_198_p1, other=0.0)  # load1_b_du: stage 1, partition 0 (group 0)
        b_du_204 = b_du_204_st.index((twill_b - 1) % 2)  # load1_b_du: stage 1, partition 0 (group 0)
        b_du_204.store(b_du)  # load1_b_du: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_b_du: stage 1, partition 0 (group 0)
        tok_b_dvb = warpgroup_mma(b_A_77, b_du_204, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_b_dvb: stage 1, partition 0 (group 0)
        b_dA_207_l1_p1, b_dvb = warpgroup_mma_wait(0, deps=(b_dA_207_l1_p1, tok_b_dvb,))
        b_dv_208 = b_dvb * b_dv_128  # elementwise2_b_dv: stage 1, partition 0 (group 0)
        b_dA_206 = b_dA_205.permute((1, 0))  # dot0_b_dA: stage 1, partition 0 (group 0)
        tok_b_dA_207_l1 = warpgroup_mma(b_du_204, b_dA_206, b_dA_207_l1_p1, is_async=True)  # dot0_b_dA: stage 1, partition 0 (group 0)
        v18_l1 = b_dv_208.to(gl.float16)  # convert1: stage 1, partition 0 (group 0)
        v19_l1 = gl.convert_layout(v18_l1, L9)  # convert1: stage 1, partition 0 (group 0)
        b_db_211 = b_dvb * b_db_210  # elementwise3_b_db: stage 1, partition 0 (group 0)
        p_dv_201 = p_dv_122 + p_v_199_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(p_dv_201, v19_l1, mask=m_v_198_p1)  # store0: stage 1, partition 0 (group 0)
        b_db_212_l1 = gl.sum(b_db_211, axis=1)  # reduce0_b_db: stage 1, partition 0 (group 0)
        b_db_213_l1 = b_db_213_l1_p1 + b_db_212_l1  # elementwise4_b_db: stage 1, partition 0 (group 0)
        b_dA_207_l1 = warpgroup_mma_wait(1, deps=(tok_b_dA_207_l1,))
        b_dA_207_l1_p1 = b_dA_207_l1
        b_db_213_l1_p1 = b_db_213_l1
        b_v_p1 = b_v
        m_v_198_p1 = m_v_198
        p_v_199_p1 = p_v_199
    b_db_209_l1 = gl.convert_layout(b_v_p1, L8)  # convert0_b_db: stage 1, partition 0 (group 0)
    b_db_210 = b_db_209_l1.to(gl.float32)  # convert0_b_db: stage 1, partition 0 (group 0)
    b_vb_203 = b_v_p1 * b_vb_127  # elementwise1_b_vb: stage 1, partition 0 (group 0)
    b_dA_205 = b_dA_205_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b_dA: stage 1, partition 0 (group 0)
    b_dA_205.store(b_vb_203)  # local_store0_b_dA: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_b_dA: stage 1, partition 0 (group 0)
    p_du_202 = p_du_125 + p_v_199_p1  # load1_b_du: stage 1, partition 0 (group 0)
    b_du = gl.load(p_du_202, mask=m_v_198_p1, other=0.0)  # load1_b_du: stage 1, partition 0 (group 0)
    b_du_204 = b_du_204_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_b_du: stage 1, partition 0 (group 0)
    b_du_204.store(b_du)  # load1_b_du: stage 1, partition 0 (group 0)
    fence_async_shared()  # load1_b_du: stage 1, partition 0 (group 0)
    tok_b_dvb = warpgroup_mma(b_A_77, b_du_204, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_b_dvb: stage 1, partition 0 (group 0)
    b_dA_207_l1_p1, b_dvb = warpgroup_mma_wait(0, deps=(b_dA_207_l1_p1, tok_b_dvb,))
    b_dv_208 = b_dvb * b_dv_128  # elementwise2_b_dv: stage 1, partition 0 (group 0)
    b_dA_206 = b_dA_205.permute((1, 0))  # dot0_b_dA: stage 1, partition 0 (group 0)
    tok_b_dA_207_l1 = warpgroup_mma(b_du_204, b_dA_206, b_dA_207_l1_p1, is_async=True)  # dot0_b_dA: stage 1, partition 0 (group 0)
    v18_l1 = b_dv_208.to(gl.float16)  # convert1: stage 1, partition 0 (group 0)
    v19_l1 = gl.convert_layout(v18_l1, L9)  # convert1: stage 1, partition 0 (group 0)
    b_db_211 = b_dvb * b_db_210  # elementwise3_b_db: stage 1, partition 0 (group 0)
    p_dv_201 = p_dv_122 + p_v_199_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(p_dv_201, v19_l1, mask=m_v_198_p1)  # store0: stage 1, partition 0 (group 0)
    b_db_212_l1 = gl.sum(b_db_211, axis=1)  # reduce0_b_db: stage 1, partition 0 (group 0)
    b_db_213_l1 = b_db_213_l1_p1 + b_db_212_l1  # elementwise4_b_db: stage 1, partition 0 (group 0)
    b_dA_207_l1 = warpgroup_mma_wait(1, deps=(tok_b_dA_207_l1,))
    b_dA_207_l1_p1 = b_dA_207_l1
    b_db_213_l1_p1 = b_db_213_l1
    b_v_p1 = b_v
    m_v_198_p1 = m_v_198
    p_v_199_p1 = p_v_199
    b_dA_207_l1_p1 = warpgroup_mma_wait(0, deps=(b_dA_207_l1_p1,))
    b_A_77._keep_alive()
    b_du_204_st._keep_alive()
    b_dA_205_st._keep_alive()
    twill_base += twill_n
    m_A = gl.expand_dims(o_t_33, 1)
    m_A_129 = gl.expand_dims(o_t_32, 1)
    m_A_130 = m_A.broadcast_to([64, 64])
    m_A_131 = p_A_70.broadcast_to([64, 64])
    m_A_132 = m_A_130 > m_A_131
    m_A_133 = gl.expand_dims(m_t_42, 1)
    m_A_134 = gl.expand_dims(m_t_41, 1)
    m_A_135 = m_A_133.broadcast_to([64, 64])
    m_A_136 = m_A_134.broadcast_to([64, 64])
    m_A_137 = m_A_135 & m_AT_51
    m_A_138 = m_A_132 & m_A_137
    b_dA_139 = gl.where(m_A_138, b_dA_207_l1_p1, 0.0)
    b_dA_140 = b_dA_139.to(gl.float16)
    b_dA_141 = gl.convert_layout(b_dA_140, L10)
    b_dA_142 = warpgroup_mma(b_dA_141, b_A_77, gl.full([64, 64], 0.0, gl.float32, layout=L8))
    b_dA_143 = b_dA_142.to(gl.float16)
    b_dA_144 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_dA_143)
    fence_async_shared()
    b_dA_145 = warpgroup_mma(b_A_77, b_dA_144, gl.full([64, 64], 0.0, gl.float32, layout=L8))
    b_dA_146 = gl.expand_dims(b_g, 1)
    b_dA_147 = gl.expand_dims(b_g_85, 0)
    b_dA_148 = b_dA_146.broadcast_to([64, 64])
    b_dA_149 = b_dA_147.broadcast_to([64, 64])
    b_dA_150 = b_dA_148 - b_dA_149
    b_dA_151 = gl.exp2(b_dA_150)
    b_dA_152 = b_dA_145 * b_dA_151
    b_dA_153 = 0.0 - b_dA_152
    b_dA_154 = gl.where(m_A_138, b_dA_153, 0.0)
    b_dA_155 = b_dA_154.to(gl.float16)
    b_dA_156 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_dA_155)
    fence_async_shared()
    gl.thread_barrier()
    p_k_157 = v12 * 16
    p_k_158 = v4 // 2
    p_k_159 = p_k_157 + p_k_158
    p_k_160 = p_k_159 * 128
    p_k_161 = k + p_k_160
    p_k_162 = m_A_129 * 2048
    p_k_164 = p_k_161 + p_k_162
    p_k_165 = p_k_164.broadcast_to([64, 64])
    p_dk_166 = p_b_53 * 128
    p_dk_167 = dk + p_dk_166
    p_dk_168 = m_A_129 * 4096
    p_dk_170 = p_dk_167 + p_dk_168
    p_dk_171 = p_dk_170.broadcast_to([64, 64])
    b_kb = gl.expand_dims(b_dk, 1)
    b_kb_172 = gl.expand_dims(b_b, 1)
    b_kb_173 = b_kb.broadcast_to([64, 64])
    b_dA_174 = gl.convert_layout(b_dA_155, L10)
    b_dk_175 = b_kb_172.to(gl.float32)
    b_dk_176 = b_dk_175.broadcast_to([64, 64])
    twill_n = (2 - 0 + 1 - 1) // 1
    b_dk_216_as = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
    b_k_202_st = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    o_k = (0 + (0 - 0) * 1) * 64  # elementwise0_m_k: stage 0, partition 0 (group 0)
    o_k_192 = o_k  # elementwise0_m_k: stage 0, partition 0 (group 0)
    o_k_193 = o_k_192 + o_t_15  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_194 = gl.expand_dims(o_k_193, 0)  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_195 = m_k_194 < 128  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_196 = m_k_195.broadcast_to([64, 64])  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_197 = m_A_136 & m_k_196  # elementwise0_m_k: stage 0, partition 0 (group 0)
    p_k_198 = m_k_194.broadcast_to([64, 64])  # load0_b_k: stage 0, partition 0 (group 0)
    p_k_199 = p_k_165 + p_k_198  # load0_b_k: stage 0, partition 0 (group 0)
    b_k = gl.load(p_k_199, mask=m_k_197, other=0.0)  # load0_b_k: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    b_k_p1 = b_k
    m_k_197_p1 = m_k_197
    p_k_198_p1 = p_k_198
    b_db_209 = b_db_213_l1_p1
    b_A_204 = gl.full([64, 64], 0.0, gl.float32, layout=L8)
    o_k = (0 + (1 - 0) * 1) * 64  # elementwise0_m_k: stage 0, partition 0 (group 0)
    o_k_192 = o_k  # elementwise0_m_k: stage 0, partition 0 (group 0)
    o_k_193 = o_k_192 + o_t_15  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_194 = gl.expand_dims(o_k_193, 0)  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_195 = m_k_194 < 128  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_196 = m_k_195.broadcast_to([64, 64])  # elementwise0_m_k: stage 0, partition 0 (group 0)
    m_k_197 = m_A_136 & m_k_196  # elementwise0_m_k: stage 0, partition 0 (group 0)
    p_dk_200 = p_dk_171 + p_k_198_p1  # load1_b_dk: stage 1, partition 0 (group 0)
    if TWILL_COPY:  # load1_b_dk: stage 1, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_dk_216_as.index((twill_base + 1 - 1) % 2), p_dk_200, mask=m_k_197_p1)  # load1_b_dk: stage 1, partition 0 (group 0)
    else:  # load1_b_dk: stage 1, partition 0 (group 0)
        b_dk_216_as.index((twill_base + 1 - 1) % 2).store(gl.load(p_dk_200, mask=m_k_197_p1, other=0.0))  # load1_b_dk: stage 1, partition 0 (group 0)
    p_k_198 = m_k_194.broadcast_to([64, 64])  # load0_b_k: stage 0, partition 0 (group 0)
    p_k_199 = p_k_165 + p_k_198  # load0_b_k: stage 0, partition 0 (group 0)
    b_k = gl.load(p_k_199, mask=m_k_197, other=0.0)  # load0_b_k: stage 0, partition 0 (group 0)
    b_dk_201 = gl.convert_layout(b_k_p1, L11)  # convert0_b_dk: stage 1, partition 0 (group 0)
    b_kb_203 = b_dk_201 * b_kb_173  # elementwise1_b_kb: stage 1, partition 0 (group 0)
    b_db_205 = gl.convert_layout(b_k_p1, L8)  # convert1_b_db: stage 1, partition 0 (group 0)
    b_db_206 = b_db_205.to(gl.float32)  # convert1_b_db: stage 1, partition 0 (group 0)
    b_dk_211 = gl.convert_layout(gl.permute(b_kb_203, (1, 0)), L10)  # dot2_b_dk: stage 1, partition 0 (group 0)
    tok_b_dk_212 = warpgroup_mma(b_dk_211, b_dA_156, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot2_b_dk: stage 1, partition 0 (group 0)
    b_k_202 = b_k_202_st.index((1 - 1) % 3)  # load0_b_k: stage 1, partition 0 (group 0)
    b_k_202.store(b_k_p1)  # load0_b_k: stage 1, partition 0 (group 0)
    fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
    tok_b_dkb = warpgroup_mma(b_dA_174, b_k_202, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_b_dkb: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    b_dk_212 = warpgroup_mma_wait(1, deps=(tok_b_dk_212,))
    b_dkb = warpgroup_mma_wait(1, deps=(tok_b_dkb,))
    b_A_204_p1 = b_A_204
    b_db_206_p1 = b_db_206
    b_db_209_p1 = b_db_209
    b_dk_212_p1 = b_dk_212
    b_dkb_p1 = b_dkb
    b_k_p1 = b_k
    b_k_202_p1 = b_k_202
    m_k_197_p2 = m_k_197_p1
    m_k_197_p1 = m_k_197
    p_dk_200_p1 = p_dk_200
    p_k_198_p1 = p_k_198
    for twill_b in range(2, twill_n):
        o_k = (0 + (twill_b - 0) * 1) * 64  # elementwise0_m_k: stage 0, partition 0 (group 0)
        o_k_192 = o_k  # elementwise0_m_k: stage 0, partition 0 (group 0)
        o_k_193 = o_k_192 + o_t_15  # elementwise0_m_k: stage 0, partition 0 (group 0)
        m_k_194 = gl.expand_dims(o_k_193, 0)  # elementwise0_m_k: stage 0, partition 0 (group 0)
        m_k_195 = m_k_194 < 128  # elementwise0_m_k: stage 0, partition 0 (group 0)
        m_k_196 = m_k_195.broadcast_to([64, 64])  # elementwise0_m_k: stage 0, partition 0 (group 0)
        m_k_197 = m_A_136 & m_k_196  # elementwise0_m_k: stage 0, partition 0 (group 0)
        b_dk_213 = gl.convert_layout(gl.permute(b_dk_212_p1, (1, 0)), L11)  # convert2_b_dk: stage 2, partition 0 (group 0)
        b_dk_214 = gl.convert_layout(b_dk_213, L8)  # convert2_b_dk: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_dk_216 = b_dk_216_as.index((twill_base + twill_b - 2) % 2).load(L8)  # load1_b_dk: stage 2, partition 0 (group 0)
        b_dk_217 = gl.convert_layout(b_dk_216, L8)  # convert3_b_dk: stage 2, partition 0 (group 0)
        b_dk_218 = b_dk_217.to(gl.float32)  # convert3_b_dk: stage 2, partition 0 (group 0)
        b_dkb_p1 = warpgroup_mma_wait(0, deps=(b_dkb_p1,))
        b_dk_210 = b_dkb_p1 * b_dk_176  # elementwise4_b_dk: stage 2, partition 0 (group 0)
        b_dk_215 = b_dk_210 + b_dk_214  # elementwise4_b_dk: stage 2, partition 0 (group 0)
        b_dk_219 = b_dk_215 + b_dk_218  # elementwise4_b_dk: stage 2, partition 0 (group 0)
        b_kt = b_k_202_p1.permute((1, 0))  # load0_b_k: stage 2, partition 0 (group 0)
        tok_b_A_204 = warpgroup_mma(b_k_202_p1, b_kt, b_A_204_p1, is_async=True)  # dot0_b_A: stage 2, partition 0 (group 0)
        v18 = b_dk_219.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
        v19 = gl.convert_layout(v18, L9)  # convert4: stage 2, partition 0 (group 0)
        b_db_207 = b_dkb_p1 * b_db_206_p1  # elementwise2_b_db: stage 2, partition 0 (group 0)
        gl.store(p_dk_200_p1, v19, mask=m_k_197_p2)  # store0: stage 2, partition 0 (group 0)
        b_db_208 = gl.sum(b_db_207, axis=1)  # reduce0_b_db: stage 2, partition 0 (group 0)
        b_db_209 = b_db_209_p1 + b_db_208  # elementwise3_b_db: stage 2, partition 0 (group 0)
        p_dk_200 = p_dk_171 + p_k_198_p1  # load1_b_dk: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_dk: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_dk_216_as.index((twill_base + twill_b - 1) % 2), p_dk_200, mask=m_k_197_p1)  # load1_b_dk: stage 1, partition 0 (group 0)
        else:  # load1_b_dk: stage 1, partition 0 (group 0)
            b_dk_216_as.index((twill_base + twill_b - 1) % 2).store(gl.load(p_dk_200, mask=m_k_197_p1, other=0.0))  # load1_b_dk: stage 1, partition 0 (group 0)
        p_k_198 = m_k_194.broadcast_to([64, 64])  # load0_b_k: stage 0, partition 0 (group 0)
        p_k_199 = p_k_165 + p_k_198  # load0_b_k: stage 0, partition 0 (group 0)
        b_k = gl.load(p_k_199, mask=m_k_197, other=0.0)  # load0_b_k: stage 0, partition 0 (group 0)
        b_dk_201 = gl.convert_layout(b_k_p1, L11)  # convert0_b_dk: stage 1, partition 0 (group 0)
        b_kb_203 = b_dk_201 * b_kb_173  # elementwise1_b_kb: stage 1, partition 0 (group 0)
        b_db_205 = gl.convert_layout(b_k_p1, L8)  # convert1_b_db: stage 1, partition 0 (group 0)
        b_db_206 = b_db_205.to(gl.float32)  # convert1_b_db: stage 1, partition 0 (group 0)
        b_dk_211 = gl.convert_layout(gl.permute(b_kb_203, (1, 0)), L10)  # dot2_b_dk: stage 1, partition 0 (group 0)
        tok_b_dk_212 = warpgroup_mma(b_dk_211, b_dA_156, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot2_b_dk: stage 1, partition 0 (group 0)
        b_k_202 = b_k_202_st.index((twill_b - 1) % 3)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_202.store(b_k_p1)  # load0_b_k: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
        tok_b_dkb = warpgroup_mma(b_dA_174, b_k_202, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_b_dkb: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_A_204, b_dk_212 = warpgroup_mma_wait(1, deps=(tok_b_A_204, tok_b_dk_212,))
        b_dkb = warpgroup_mma_wait(1, deps=(tok_b_dkb,))
        b_A_204_p1 = b_A_204
        b_db_206_p1 = b_db_206
        b_db_209_p1 = b_db_209
        b_dk_212_p1 = b_dk_212
        b_dkb_p1 = b_dkb
        b_k_p1 = b_k
        b_k_202_p1 = b_k_202
        m_k_197_p2 = m_k_197_p1
        m_k_197_p1 = m_k_197
        p_dk_200_p1 = p_dk_200
        p_k_198_p1 = p_k_198
    b_dk_213 = gl.convert_layout(gl.permute(b_dk_212_p1, (1, 0)), L11)  # convert2_b_dk: stage 2, partition 0 (group 0)
    b_dk_214 = gl.convert_layout(b_dk_213, L8)  # convert2_b_dk: stage 2, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    b_dk_216 = b_dk_216_as.index((twill_base + (twill_n - 1 + 1) - 2) % 2).load(L8)  # load1_b_dk: stage 2, partition 0 (group 0)
    b_dk_217 = gl.convert_layout(b_dk_216, L8)  # convert3_b_dk: stage 2, partition 0 (group 0)
    b_dk_218 = b_dk_217.to(gl.float32)  # convert3_b_dk: stage 2, partition 0 (group 0)
    b_dkb_p1 = warpgroup_mma_wait(0, deps=(b_dkb_p1,))
    b_dk_210 = b_dkb_p1 * b_dk_176  # elementwise4_b_dk: stage 2, partition 0 (group 0)
    b_dk_215 = b_dk_210 + b_dk_214  # elementwise4_b_dk: stage 2, partition 0 (group 0)
    b_dk_219 = b_dk_215 + b_dk_218  # elementwise4_b_dk: stage 2, partition 0 (group 0)
    b_kt = b_k_202_p1.permute((1, 0))  # load0_b_k: stage 2, partition 0 (group 0)
    tok_b_A_204 = warpgroup_mma(b_k_202_p1, b_kt, b_A_204_p1, is_async=True)  # dot0_b_A: stage 2, partition 0 (group 0)
    v18 = b_dk_219.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
    v19 = gl.convert_layout(v18, L9)  # convert4: stage 2, partition 0 (group 0)
    b_db_207 = b_dkb_p1 * b_db_206_p1  # elementwise2_b_db: stage 2, partition 0 (group 0)
    gl.store(p_dk_200_p1, v19, mask=m_k_197_p2)  # store0: stage 2, partition 0 (group 0)
    b_db_208 = gl.sum(b_db_207, axis=1)  # reduce0_b_db: stage 2, partition 0 (group 0)
    b_db_209 = b_db_209_p1 + b_db_208  # elementwise3_b_db: stage 2, partition 0 (group 0)
    p_dk_200 = p_dk_171 + p_k_198_p1  # load1_b_dk: stage 1, partition 0 (group 0)
    if TWILL_COPY:  # load1_b_dk: stage 1, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_dk_216_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2), p_dk_200, mask=m_k_197_p1)  # load1_b_dk: stage 1, partition 0 (group 0)
    else:  # load1_b_dk: stage 1, partition 0 (group 0)
        b_dk_216_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).store(gl.load(p_dk_200, mask=m_k_197_p1, other=0.0))  # load1_b_dk: stage 1, partition 0 (group 0)
    b_dk_201 = gl.convert_layout(b_k_p1, L11)  # convert0_b_dk: stage 1, partition 0 (group 0)
    b_kb_203 = b_dk_201 * b_kb_173  # elementwise1_b_kb: stage 1, partition 0 (group 0)
    b_db_205 = gl.convert_layout(b_k_p1, L8)  # convert1_b_db: stage 1, partition 0 (group 0)
    b_db_206 = b_db_205.to(gl.float32)  # convert1_b_db: stage 1, partition 0 (group 0)
    b_dk_211 = gl.convert_layout(gl.permute(b_kb_203, (1, 0)), L10)  # dot2_b_dk: stage 1, partition 0 (group 0)
    tok_b_dk_212 = warpgroup_mma(b_dk_211, b_dA_156, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot2_b_dk: stage 1, partition 0 (group 0)
    b_k_202 = b_k_202_st.index(((twill_n - 1 + 1) - 1) % 3)  # load0_b_k: stage 1, partition 0 (group 0)
    b_k_202.store(b_k_p1)  # load0_b_k: stage 1, partition 0 (group 0)
    fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
    tok_b_dkb = warpgroup_mma(b_dA_174, b_k_202, gl.full([64, 64], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot1_b_dkb: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    b_A_204, b_dk_212 = warpgroup_mma_wait(1, deps=(tok_b_A_204, tok_b_dk_212,))
    b_dkb = warpgroup_mma_wait(1, deps=(tok_b_dkb,))
    b_A_204_p1 = b_A_204
    b_db_206_p1 = b_db_206
    b_db_209_p1 = b_db_209
    b_dk_212_p1 = b_dk_212
    b_dkb_p1 = b_dkb
    b_k_p1 = b_k
    b_k_202_p1 = b_k_202
    m_k_197_p2 = m_k_197_p1
    m_k_197_p1 = m_k_197
    p_dk_200_p1 = p_dk_200
    p_k_198_p1 = p_k_198
    b_dk_213 = gl.convert_layout(gl.permute(b_dk_212_p1, (1, 0)), L11)  # convert2_b_dk: stage 2, partition 0 (group 0)
    b_dk_214 = gl.convert_layout(b_dk_213, L8)  # convert2_b_dk: stage 2, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    b_dk_216 = b_dk_216_as.index((twill_base + (twill_n - 1 + 2) - 2) % 2).load(L8)  # load1_b_dk: stage 2, partition 0 (group 0)
    b_dk_217 = gl.convert_layout(b_dk_216, L8)  # convert3_b_dk: stage 2, partition 0 (group 0)
    b_dk_218 = b_dk_217.to(gl.float32)  # convert3_b_dk: stage 2, partition 0 (group 0)
    b_dkb_p1 = warpgroup_mma_wait(0, deps=(b_dkb_p1,))
    b_dk_210 = b_dkb_p1 * b_dk_176  # elementwise4_b_dk: stage 2, partition 0 (group 0)
    b_dk_215 = b_dk_210 + b_dk_214  # elementwise4_b_dk: stage 2, partition 0 (group 0)
    b_dk_219 = b_dk_215 + b_dk_218  # elementwise4_b_dk: stage 2, partition 0 (group 0)
    b_kt = b_k_202_p1.permute((1, 0))  # load0_b_k: stage 2, partition 0 (group 0)
    tok_b_A_204 = warpgroup_mma(b_k_202_p1, b_kt, b_A_204_p1, is_async=True)  # dot0_b_A: stage 2, partition 0 (group 0)
    v18 = b_dk_219.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
    v19 = gl.convert_layout(v18, L9)  # convert4: stage 2, partition 0 (group 0)
    b_db_207 = b_dkb_p1 * b_db_206_p1  # elementwise2_b_db: stage 2, partition 0 (group 0)
    gl.store(p_dk_200_p1, v19, mask=m_k_197_p2)  # store0: stage 2, partition 0 (group 0)
    b_db_208 = gl.sum(b_db_207, axis=1)  # reduce0_b_db: stage 2, partition 0 (group 0)
    b_db_209 = b_db_209_p1 + b_db_208  # elementwise3_b_db: stage 2, partition 0 (group 0)
    async_copy.commit_group()
    b_A_204 = warpgroup_mma_wait(1, deps=(tok_b_A_204,))
    b_A_204_p1 = b_A_204
    b_db_206_p1 = b_db_206
    b_db_209_p1 = b_db_209
    b_dk_212_p1 = b_dk_212
    b_dkb_p1 = b_dkb
    b_k_p1 = b_k
    b_k_202_p1 = b_k_202
    m_k_197_p2 = m_k_197_p1
    m_k_197_p1 = m_k_197
    p_dk_200_p1 = p_dk_200
    p_k_198_p1 = p_k_198
    b_A_204_p1 = warpgroup_mma_wait(0, deps=(b_A_204_p1,))
    b_dA_156._keep_alive()
    b_k_202_st._keep_alive()
    v15 = b_db_209_p1.to(gl.float16)
    v16 = gl.convert_layout(v15, L5)
    gl.store(p_db_64, v16, mask=m_t_43)
    b_A_178 = gl.expand_dims(b_b, 1)
    b_A_179 = b_A_178.to(gl.float32)
    b_A_180 = b_A_179.broadcast_to([64, 64])
    b_A_181 = b_A_204_p1 * b_A_180
    b_AdA = b_dA_155.to(gl.float32)
    b_AdA_182 = b_AdA * b_A_181
    p_dg = dg + p_b_53
    p_dg_184 = p_dg + p_b_58
    b_dg_185 = gl.sum(b_AdA_182, axis=1)
    b_dg_186 = gl.sum(b_AdA_182, axis=0)
    b_dg_187 = gl.convert_layout(b_dg_186, L4)
    b_dg_188 = b_dg_185 - b_dg_187
    b_dg_189 = b_dg_218_p1 + b_dg_188
    v17 = gl.convert_layout(b_dg_189, L5)
    gl.store(p_dg_184, v17, mask=m_t_43)

@gluon.jit
def twill_kernel(k, v, beta, g, A, dw, du, dk, dv, db, dg, cu_seqlens, chunk_indices, T, TWILL_COPY: gl.constexpr):
    consumer_0(k, v, beta, g, A, dw, du, dk, dv, db, dg, cu_seqlens, chunk_indices, T, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['k', 'v', 'beta', 'g', 'A', 'dw', 'du', 'dk', 'dv', 'db', 'dg', 'cu_seqlens', 'chunk_indices', 'T', 'H', 'HV', 'K', 'V', 'BT', 'BK', 'BV', 'USE_G', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['k', 'v', 'beta', 'g', 'A', 'dw', 'du', 'dk', 'dv', 'db', 'dg', 'cu_seqlens', 'chunk_indices', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['k', 'v', 'beta', 'g', 'A', 'dw', 'du', 'dk', 'dv', 'db', 'dg', 'cu_seqlens', 'chunk_indices', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'H': 16, 'HV': 32, 'K': 128, 'V': 128, 'BT': 64, 'BK': 64, 'BV': 64, 'USE_G': True, 'IS_VARLEN': True}         # the specialisation this kernel was generated for
HEURISTICS = {'USE_G': "lambda args: args['g'] is not None", 'IS_VARLEN': "lambda args: args['cu_seqlens'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['dk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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

_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristic(name, src):
    """Heuristic ``name``'s function, from its source and the kernel module's names it reads (``HEURISTIC_SCOPE``:
    the module's imports, constants and the functions it calls); False where it cannot be made here."""
    fn = _HEUR.get(name)
    if fn is None:
        import math
        import torch
        import triton
        import triton.language as tl
        scope = {"torch": torch, "triton": triton, "tl": tl, "math": math}
        for part in HEURISTIC_SCOPE:
            try:
                exec(part, scope)
            except Exception:     # noqa: BLE001 - an import of the kernel's own package: its names not here
                pass
        try:
            fn = eval(src, scope)
        except Exception:         # noqa: BLE001 - names of the kernel's module not found: not checked
            fn = False
        if fn is False:
            import warnings
            warnings.warn(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated by this "
                          "launcher: launches are not checked against it", stacklevel=3)
        _HEUR[name] = fn
    return fn


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _heuristic(name, src)
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


def _heuristic_args(bound):
    """The kernel arguments its @triton.heuristics supply (kernl's ``size_m_rounded``), set as Triton sets them."""
    for name, src in HEURISTIC_ARGS.items():
        fn = _heuristic(name, src)
        if fn is False:
            raise ValueError(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated here")
        bound[name] = fn(dict(bound, **CONSTEXPRS))


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
    _heuristics(bound)
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
