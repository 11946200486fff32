"""q4k_gemm_kernel, written by twill from its joint schedule: I=420 L=759 (optimal), 1034 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_128): their addresses and masks spread over 128 threads
- a_128 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 241): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a_128: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared operand w_127_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 49232 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (3 CTAs an SM against the producer's 1; its tiles loaded 2 iteration(s) ahead, 49152 bytes of shared memory compiled, ptxas 165 registers, clean; simulated for 0, 1, 2, 3, 4, 9 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_128, a_128_buf, w_127_st, a_128_ready, a_128_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 63
        num_pid_m_15 = num_pid_m // 64
        num_pid_n = N + 63
        num_pid_n_16 = num_pid_n // 64
        num_pid_in_group = num_pid_n_16 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_15 - first_pid_m
        group_size_m_17 = gl.minimum(group_size_m, 8)
        pid_m = pid % group_size_m_17
        pid_m_18 = first_pid_m + pid_m
        pid_n = pid % num_pid_in_group
        pid_n_19 = pid_n // group_size_m_17
        offs_m = pid_m_18 * 64
        offs_m_20 = gl.arange(0, 64, layout=L0)
        offs_m_21 = gl.arange(0, 64, layout=L1)
        offs_m_22 = gl.arange(0, 64, layout=L2)
        offs_m_23 = gl.arange(0, 64, layout=L3)
        offs_m_25 = offs_m + offs_m_21
        offs_n = pid_n_19 * 64
        offs_n_28 = offs_n + offs_m_22
        offs_n_29 = offs_n + offs_m_23
        a_ptrs = gl.expand_dims(offs_m_25, 1)
        a_ptrs_30 = a_ptrs.to(gl.int64)
        a_ptrs_31 = gl.cast(stride_am, gl.int64)
        a_ptrs_33 = a_ptrs_30 * a_ptrs_31
        a_ptrs_35 = a_ptr + a_ptrs_33
        a_ptrs_36 = gl.expand_dims(offs_m_23, 0)
        a_ptrs_37 = a_ptrs_35.broadcast_to([64, 64])
        a_ptrs_38 = a_ptrs_36.broadcast_to([64, 64])
        a_ptrs_39 = a_ptrs_37 + a_ptrs_38
        a_mask_40 = a_ptrs < M
        w_rows = gl.expand_dims(offs_n_28, 0)
        w_rows_41 = gl.expand_dims(offs_n_29, 0)
        w_rows_42 = w_rows.to(gl.int64)
        w_rows_43 = gl.cast(stride_wn, gl.int64)
        w_rows_45 = w_rows_42 * w_rows_43
        w_rows_47 = w_ptr + w_rows_45
        half = offs_m_20 // 32
        q_off = offs_m_20 % 32
        q_off_48 = gl.expand_dims(q_off, 1)
        q_shift_49 = half * 4
        q_shift_50 = gl.expand_dims(q_shift_49, 1)
        q_shift_51 = q_shift_50.to(gl.int8)
        qb = q_off_48.broadcast_to([64, 64])
        q = q_shift_51.broadcast_to([64, 64])
        twill_n = (K - 0 + 64 - 1) // 64
        sb = (0 + (0 - 0) * 64) // 256  # load0_d_lo: stage 0, partition 0 (group 0)
        blk = sb * 144  # load0_d_lo: stage 0, partition 0 (group 0)
        blk_66 = blk  # load0_d_lo: stage 0, partition 0 (group 0)
        blk_67 = w_rows_47 + blk_66  # load0_d_lo: stage 0, partition 0 (group 0)
        m_lo = blk_67 + 2  # load3_m_lo: stage 0, partition 0 (group 0)
        m_hi = blk_67 + 3  # load4_m_hi: stage 0, partition 0 (group 0)
        m_lo_74 = gl.load(m_lo)  # load3_m_lo: stage 0, partition 0 (group 0)
        m_hi_76 = gl.load(m_hi)  # load4_m_hi: stage 0, partition 0 (group 0)
        d_hi = blk_67 + 1  # load2_d_hi: stage 0, partition 0 (group 0)
        d_lo = gl.load(blk_67)  # load0_d_lo: stage 0, partition 0 (group 0)
        d_hi_69 = gl.load(d_hi)  # load2_d_hi: stage 0, partition 0 (group 0)
        pair = (0 + (0 - 0) * 64) % 256  # load1_s_j: stage 0, partition 0 (group 0)
        pair_65 = pair // 64  # load1_s_j: stage 0, partition 0 (group 0)
        j = pair_65 * 2  # load1_s_j: stage 0, partition 0 (group 0)
        j_81 = j  # load1_s_j: stage 0, partition 0 (group 0)
        j_82 = j_81 + half  # load1_s_j: stage 0, partition 0 (group 0)
        j_83 = gl.expand_dims(j_82, 1)  # load1_s_j: stage 0, partition 0 (group 0)
        s_j = blk_67 + 4  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4 = j_83 + 4  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4 = j_83 ^ 4  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_84 = s_j.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
        s_j_85 = j_83.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_89 = s_j4.broadcast_to([64, 64])  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_93 = s_jm4.broadcast_to([64, 64])  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_86 = s_j_84 + s_j_85  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_90 = s_j_84 + s_j4_89  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_94 = s_j_84 + s_jm4_93  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_87 = gl.load(s_j_86)  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_91 = gl.load(s_j4_90)  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_95 = gl.load(s_jm4_94)  # load6_s_jm4: stage 0, partition 0 (group 0)
        blk_67_p1 = blk_67
        d_hi_69_p1 = d_hi_69
        d_lo_p1 = d_lo
        j_83_p1 = j_83
        m_hi_76_p1 = m_hi_76
        m_lo_74_p1 = m_lo_74
        pair_65_p1 = pair_65
        s_j4_91_p1 = s_j4_91
        s_j_87_p1 = s_j_87
        s_jm4_95_p1 = s_jm4_95
        acc_130 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
        qb_110 = pair_65_p1 * 32  # load7_qb: stage 1, partition 0 (group 0)
        qb_109 = blk_67_p1 + 16  # load7_qb: stage 1, partition 0 (group 0)
        qb_111 = qb_110  # load7_qb: stage 1, partition 0 (group 0)
        qb_112 = qb_109 + qb_111  # load7_qb: stage 1, partition 0 (group 0)
        qb_113 = qb_112.broadcast_to([64, 64])  # load7_qb: stage 1, partition 0 (group 0)
        qb_114 = qb_113 + qb  # load7_qb: stage 1, partition 0 (group 0)
        qb_115 = gl.load(qb_114)  # load7_qb: stage 1, partition 0 (group 0)
        sb = (0 + (1 - 0) * 64) // 256  # load0_d_lo: stage 0, partition 0 (group 0)
        blk = sb * 144  # load0_d_lo: stage 0, partition 0 (group 0)
        blk_66 = blk  # load0_d_lo: stage 0, partition 0 (group 0)
        blk_67 = w_rows_47 + blk_66  # load0_d_lo: stage 0, partition 0 (group 0)
        m_lo = blk_67 + 2  # load3_m_lo: stage 0, partition 0 (group 0)
        m_hi = blk_67 + 3  # load4_m_hi: stage 0, partition 0 (group 0)
        m_lo_74 = gl.load(m_lo)  # load3_m_lo: stage 0, partition 0 (group 0)
        m_hi_76 = gl.load(m_hi)  # load4_m_hi: stage 0, partition 0 (group 0)
        d_hi = blk_67 + 1  # load2_d_hi: stage 0, partition 0 (group 0)
        d_lo = gl.load(blk_67)  # load0_d_lo: stage 0, partition 0 (group 0)
        d_hi_69 = gl.load(d_hi)  # load2_d_hi: stage 0, partition 0 (group 0)
        pair = (0 + (1 - 0) * 64) % 256  # load1_s_j: stage 0, partition 0 (group 0)
        pair_65 = pair // 64  # load1_s_j: stage 0, partition 0 (group 0)
        j = pair_65 * 2  # load1_s_j: stage 0, partition 0 (group 0)
        j_81 = j  # load1_s_j: stage 0, partition 0 (group 0)
        j_82 = j_81 + half  # load1_s_j: stage 0, partition 0 (group 0)
        j_83 = gl.expand_dims(j_82, 1)  # load1_s_j: stage 0, partition 0 (group 0)
        s_j = blk_67 + 4  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4 = j_83 + 4  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4 = j_83 ^ 4  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_84 = s_j.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
        s_j_85 = j_83.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_89 = s_j4.broadcast_to([64, 64])  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_93 = s_jm4.broadcast_to([64, 64])  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_86 = s_j_84 + s_j_85  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_90 = s_j_84 + s_j4_89  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_94 = s_j_84 + s_jm4_93  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_87 = gl.load(s_j_86)  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_91 = gl.load(s_j4_90)  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_95 = gl.load(s_jm4_94)  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_88 = gl.cast(gl.cast(s_j_87_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        s_j4_92 = gl.cast(gl.cast(s_j4_91_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        s_jm4_96 = gl.cast(gl.cast(s_jm4_95_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        sc = j_83_p1 < 4  # convert2_w: stage 1, partition 0 (group 0)
        sc_97 = s_j_88 & 63  # convert2_w: stage 1, partition 0 (group 0)
        sc_98 = s_j4_92 & 15  # convert2_w: stage 1, partition 0 (group 0)
        sc_99 = s_jm4_96 >> 6  # convert2_w: stage 1, partition 0 (group 0)
        sc_100 = sc_99 << 4  # convert2_w: stage 1, partition 0 (group 0)
        sc_101 = sc_98 | sc_100  # convert2_w: stage 1, partition 0 (group 0)
        sc_102 = sc.broadcast_to([64, 64])  # convert2_w: stage 1, partition 0 (group 0)
        sc_103 = gl.where(sc_102, sc_97, sc_101)  # convert2_w: stage 1, partition 0 (group 0)
        w = sc_103.to(gl.float32)  # convert2_w: stage 1, partition 0 (group 0)
        mn = s_j4_92 & 63  # convert3_w: stage 1, partition 0 (group 0)
        mn_104 = s_j4_92 >> 4  # convert3_w: stage 1, partition 0 (group 0)
        mn_105 = s_j_88 >> 6  # convert3_w: stage 1, partition 0 (group 0)
        mn_106 = mn_105 << 4  # convert3_w: stage 1, partition 0 (group 0)
        mn_107 = mn_104 | mn_106  # convert3_w: stage 1, partition 0 (group 0)
        mn_108 = gl.where(sc_102, mn, mn_107)  # convert3_w: stage 1, partition 0 (group 0)
        w_122 = mn_108.to(gl.float32)  # convert3_w: stage 1, partition 0 (group 0)
        acc_130_p1 = acc_130
        blk_67_p1 = blk_67
        d_hi_69_p2 = d_hi_69_p1
        d_hi_69_p1 = d_hi_69
        d_lo_p2 = d_lo_p1
        d_lo_p1 = d_lo
        j_83_p1 = j_83
        m_hi_76_p2 = m_hi_76_p1
        m_hi_76_p1 = m_hi_76
        m_lo_74_p2 = m_lo_74_p1
        m_lo_74_p1 = m_lo_74
        pair_65_p1 = pair_65
        qb_115_p1 = qb_115
        s_j4_91_p1 = s_j4_91
        s_j_87_p1 = s_j_87
        s_jm4_95_p1 = s_jm4_95
        w_p1 = w
        w_122_p1 = w_122
        for twill_b in range(2, twill_n):
            qb_110 = pair_65_p1 * 32  # load7_qb: stage 1, partition 0 (group 0)
            qb_109 = blk_67_p1 + 16  # load7_qb: stage 1, partition 0 (group 0)
            qb_111 = qb_110  # load7_qb: stage 1, partition 0 (group 0)
            qb_112 = qb_109 + qb_111  # load7_qb: stage 1, partition 0 (group 0)
            qb_113 = qb_112.broadcast_to([64, 64])  # load7_qb: stage 1, partition 0 (group 0)
            qb_114 = qb_113 + qb  # load7_qb: stage 1, partition 0 (group 0)
            qb_115 = gl.load(qb_114)  # load7_qb: stage 1, partition 0 (group 0)
            q_116 = gl.cast(gl.cast(qb_115_p1, gl.uint8, bitcast=True) >> gl.cast(q, gl.uint8, bitcast=True), gl.int8, bitcast=True)  # convert4_q: stage 2, partition 0 (group 0)
            q_117 = q_116 & 15  # convert4_q: stage 2, partition 0 (group 0)
            q_118 = gl.cast(q_117, gl.uint8, bitcast=True).to(gl.float32)  # convert4_q: stage 2, partition 0 (group 0)
            sb = (0 + (twill_b - 0) * 64) // 256  # load0_d_lo: stage 0, partition 0 (group 0)
            blk = sb * 144  # load0_d_lo: stage 0, partition 0 (group 0)
            blk_66 = blk  # load0_d_lo: stage 0, partition 0 (group 0)
            blk_67 = w_rows_47 + blk_66  # load0_d_lo: stage 0, partition 0 (group 0)
            m_lo = blk_67 + 2  # load3_m_lo: stage 0, partition 0 (group 0)
            m_hi = blk_67 + 3  # load4_m_hi: stage 0, partition 0 (group 0)
            m_lo_74 = gl.load(m_lo)  # load3_m_lo: stage 0, partition 0 (group 0)
            m_hi_76 = gl.load(m_hi)  # load4_m_hi: stage 0, partition 0 (group 0)
            m_lo_75 = gl.cast(gl.cast(m_lo_74_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
            m_hi_77 = gl.cast(gl.cast(m_hi_76_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
            dmin = m_hi_77 << 8  # convert1_dmin: stage 2, partition 0 (group 0)
            dmin_78 = m_lo_75 | dmin  # convert1_dmin: stage 2, partition 0 (group 0)
            dmin_79 = dmin_78.to(gl.float16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
            dmin_80 = dmin_79.to(gl.float32)  # convert1_dmin: stage 2, partition 0 (group 0)
            d_hi = blk_67 + 1  # load2_d_hi: stage 0, partition 0 (group 0)
            d_lo = gl.load(blk_67)  # load0_d_lo: stage 0, partition 0 (group 0)
            d_hi_69 = gl.load(d_hi)  # load2_d_hi: stage 0, partition 0 (group 0)
            d_lo_68 = gl.cast(gl.cast(d_lo_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
            d_hi_70 = gl.cast(gl.cast(d_hi_69_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
            d = d_hi_70 << 8  # convert0_d: stage 2, partition 0 (group 0)
            d_71 = d_lo_68 | d  # convert0_d: stage 2, partition 0 (group 0)
            d_72 = d_71.to(gl.float16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
            d_73 = d_72.to(gl.float32)  # convert0_d: stage 2, partition 0 (group 0)
            w_119 = d_73.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
            w_120 = w_119 * w_p1  # elementwise0_w: stage 2, partition 0 (group 0)
            w_121 = w_120 * q_118  # elementwise0_w: stage 2, partition 0 (group 0)
            w_123 = dmin_80.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
            w_124 = w_123 * w_122_p1  # elementwise0_w: stage 2, partition 0 (group 0)
            w_125 = w_121 - w_124  # elementwise0_w: stage 2, partition 0 (group 0)
            w_126 = w_125.to(gl.float16)  # convert5_w: stage 2, partition 0 (group 0)
            pair = (0 + (twill_b - 0) * 64) % 256  # load1_s_j: stage 0, partition 0 (group 0)
            pair_65 = pair // 64  # load1_s_j: stage 0, partition 0 (group 0)
            j = pair_65 * 2  # load1_s_j: stage 0, partition 0 (group 0)
            j_81 = j  # load1_s_j: stage 0, partition 0 (group 0)
            j_82 = j_81 + half  # load1_s_j: stage 0, partition 0 (group 0)
            j_83 = gl.expand_dims(j_82, 1)  # load1_s_j: stage 0, partition 0 (group 0)
            s_j = blk_67 + 4  # load1_s_j: stage 0, partition 0 (group 0)
            s_j4 = j_83 + 4  # load5_s_j4: stage 0, partition 0 (group 0)
            s_jm4 = j_83 ^ 4  # load6_s_jm4: stage 0, partition 0 (group 0)
            s_j_84 = s_j.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
            s_j_85 = j_83.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
            s_j4_89 = s_j4.broadcast_to([64, 64])  # load5_s_j4: stage 0, partition 0 (group 0)
            s_jm4_93 = s_jm4.broadcast_to([64, 64])  # load6_s_jm4: stage 0, partition 0 (group 0)
            s_j_86 = s_j_84 + s_j_85  # load1_s_j: stage 0, partition 0 (group 0)
            s_j4_90 = s_j_84 + s_j4_89  # load5_s_j4: stage 0, partition 0 (group 0)
            s_jm4_94 = s_j_84 + s_jm4_93  # load6_s_jm4: stage 0, partition 0 (group 0)
            s_j_87 = gl.load(s_j_86)  # load1_s_j: stage 0, partition 0 (group 0)
            s_j4_91 = gl.load(s_j4_90)  # load5_s_j4: stage 0, partition 0 (group 0)
            s_jm4_95 = gl.load(s_jm4_94)  # load6_s_jm4: stage 0, partition 0 (group 0)
            s_j_88 = gl.cast(gl.cast(s_j_87_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
            s_j4_92 = gl.cast(gl.cast(s_j4_91_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
            s_jm4_96 = gl.cast(gl.cast(s_jm4_95_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
            sc = j_83_p1 < 4  # convert2_w: stage 1, partition 0 (group 0)
            sc_97 = s_j_88 & 63  # convert2_w: stage 1, partition 0 (group 0)
            sc_98 = s_j4_92 & 15  # convert2_w: stage 1, partition 0 (group 0)
            sc_99 = s_jm4_96 >> 6  # convert2_w: stage 1, partition 0 (group 0)
            sc_100 = sc_99 << 4  # convert2_w: stage 1, partition 0 (group 0)
            sc_101 = sc_98 | sc_100  # convert2_w: stage 1, partition 0 (group 0)
            sc_102 = sc.broadcast_to([64, 64])  # convert2_w: stage 1, partition 0 (group 0)
            sc_103 = gl.where(sc_102, sc_97, sc_101)  # convert2_w: stage 1, partition 0 (group 0)
            w = sc_103.to(gl.float32)  # convert2_w: stage 1, partition 0 (group 0)
            w_127 = w_127_st.index((twill_b - 2) % 2)  # local_store0_w: stage 2, partition 0 (group 0)
            w_127.store(w_126)  # local_store0_w: stage 2, partition 0 (group 0)
            fence_async_shared()  # local_store0_w: stage 2, partition 0 (group 0)
            mbarrier.wait(a_128_ready.index((twill_base + twill_b - 2) % 4), ((twill_base + twill_b - 2) // 4) & 1)
            fence_async_shared()
            tok_acc_130 = warpgroup_mma(a_128_buf.index((twill_base + twill_b - 2) % 4), w_127, acc_130_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            mn = s_j4_92 & 63  # convert3_w: stage 1, partition 0 (group 0)
            mn_104 = s_j4_92 >> 4  # convert3_w: stage 1, partition 0 (group 0)
            mn_105 = s_j_88 >> 6  # convert3_w: stage 1, partition 0 (group 0)
            mn_106 = mn_105 << 4  # convert3_w: stage 1, partition 0 (group 0)
            mn_107 = mn_104 | mn_106  # convert3_w: stage 1, partition 0 (group 0)
            mn_108 = gl.where(sc_102, mn, mn_107)  # convert3_w: stage 1, partition 0 (group 0)
            w_122 = mn_108.to(gl.float32)  # convert3_w: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_130,))
            mbarrier.arrive(a_128_empty.index((twill_base + twill_b - 1 - 2) % 4), pred=(twill_b - 1 - 2) >= 0)
            acc_130 = warpgroup_mma_wait(1, deps=(tok_acc_130,))
            acc_130_p1 = acc_130
            blk_67_p1 = blk_67
            d_hi_69_p2 = d_hi_69_p1
            d_hi_69_p1 = d_hi_69
            d_lo_p2 = d_lo_p1
            d_lo_p1 = d_lo
            j_83_p1 = j_83
            m_hi_76_p2 = m_hi_76_p1
            m_hi_76_p1 = m_hi_76
            m_lo_74_p2 = m_lo_74_p1
            m_lo_74_p1 = m_lo_74
            pair_65_p1 = pair_65
            qb_115_p1 = qb_115
            s_j4_91_p1 = s_j4_91
            s_j_87_p1 = s_j_87
            s_jm4_95_p1 = s_jm4_95
            w_p1 = w
            w_122_p1 = w_122
        qb_110 = pair_65_p1 * 32  # load7_qb: stage 1, partition 0 (group 0)
        qb_109 = blk_67_p1 + 16  # load7_qb: stage 1, partition 0 (group 0)
        qb_111 = qb_110  # load7_qb: stage 1, partition 0 (group 0)
        qb_112 = qb_109 + qb_111  # load7_qb: stage 1, partition 0 (group 0)
        qb_113 = qb_112.broadcast_to([64, 64])  # load7_qb: stage 1, partition 0 (group 0)
        qb_114 = qb_113 + qb  # load7_qb: stage 1, partition 0 (group 0)
        qb_115 = gl.load(qb_114)  # load7_qb: stage 1, partition 0 (group 0)
        q_116 = gl.cast(gl.cast(qb_115_p1, gl.uint8, bitcast=True) >> gl.cast(q, gl.uint8, bitcast=True), gl.int8, bitcast=True)  # convert4_q: stage 2, partition 0 (group 0)
        q_117 = q_116 & 15  # convert4_q: stage 2, partition 0 (group 0)
        q_118 = gl.cast(q_117, gl.uint8, bitcast=True).to(gl.float32)  # convert4_q: stage 2, partition 0 (group 0)
        m_lo_75 = gl.cast(gl.cast(m_lo_74_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        m_hi_77 = gl.cast(gl.cast(m_hi_76_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin = m_hi_77 << 8  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_78 = m_lo_75 | dmin  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_79 = dmin_78.to(gl.float16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_80 = dmin_79.to(gl.float32)  # convert1_dmin: stage 2, partition 0 (group 0)
        d_lo_68 = gl.cast(gl.cast(d_lo_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d_hi_70 = gl.cast(gl.cast(d_hi_69_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d = d_hi_70 << 8  # convert0_d: stage 2, partition 0 (group 0)
        d_71 = d_lo_68 | d  # convert0_d: stage 2, partition 0 (group 0)
        d_72 = d_71.to(gl.float16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d_73 = d_72.to(gl.float32)  # convert0_d: stage 2, partition 0 (group 0)
        w_119 = d_73.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
        w_120 = w_119 * w_p1  # elementwise0_w: stage 2, partition 0 (group 0)
        w_121 = w_120 * q_118  # elementwise0_w: stage 2, partition 0 (group 0)
        w_123 = dmin_80.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
        w_124 = w_123 * w_122_p1  # elementwise0_w: stage 2, partition 0 (group 0)
        w_125 = w_121 - w_124  # elementwise0_w: stage 2, partition 0 (group 0)
        w_126 = w_125.to(gl.float16)  # convert5_w: stage 2, partition 0 (group 0)
        s_j_88 = gl.cast(gl.cast(s_j_87_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        s_j4_92 = gl.cast(gl.cast(s_j4_91_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        s_jm4_96 = gl.cast(gl.cast(s_jm4_95_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        sc = j_83_p1 < 4  # convert2_w: stage 1, partition 0 (group 0)
        sc_97 = s_j_88 & 63  # convert2_w: stage 1, partition 0 (group 0)
        sc_98 = s_j4_92 & 15  # convert2_w: stage 1, partition 0 (group 0)
        sc_99 = s_jm4_96 >> 6  # convert2_w: stage 1, partition 0 (group 0)
        sc_100 = sc_99 << 4  # convert2_w: stage 1, partition 0 (group 0)
        sc_101 = sc_98 | sc_100  # convert2_w: stage 1, partition 0 (group 0)
        sc_102 = sc.broadcast_to([64, 64])  # convert2_w: stage 1, partition 0 (group 0)
        sc_103 = gl.where(sc_102, sc_97, sc_101)  # convert2_w: stage 1, partition 0 (group 0)
        w = sc_103.to(gl.float32)  # convert2_w: stage 1, partition 0 (group 0)
        w_127 = w_127_st.index(((twill_n - 1 + 1) - 2) % 2)  # local_store0_w: stage 2, partition 0 (group 0)
        w_127.store(w_126)  # local_store0_w: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_w: stage 2, partition 0 (group 0)
        mbarrier.wait(a_128_ready.index((twill_base + (twill_n - 1 + 1) - 2) % 4), ((twill_base + (twill_n - 1 + 1) - 2) // 4) & 1)
        fence_async_shared()
        tok_acc_130 = warpgroup_mma(a_128_buf.index((twill_base + (twill_n - 1 + 1) - 2) % 4), w_127, acc_130_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        mn = s_j4_92 & 63  # convert3_w: stage 1, partition 0 (group 0)
        mn_104 = s_j4_92 >> 4  # convert3_w: stage 1, partition 0 (group 0)
        mn_105 = s_j_88 >> 6  # convert3_w: stage 1, partition 0 (group 0)
        mn_106 = mn_105 << 4  # convert3_w: stage 1, partition 0 (group 0)
        mn_107 = mn_104 | mn_106  # convert3_w: stage 1, partition 0 (group 0)
        mn_108 = gl.where(sc_102, mn, mn_107)  # convert3_w: stage 1, partition 0 (group 0)
        w_122 = mn_108.to(gl.float32)  # convert3_w: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_130,))
        mbarrier.arrive(a_128_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 2) % 4), pred=((twill_n - 1 + 1) - 1 - 2) >= 0)
        acc_130 = warpgroup_mma_wait(1, deps=(tok_acc_130,))
        acc_130_p1 = acc_130
        blk_67_p1 = blk_67
        d_hi_69_p2 = d_hi_69_p1
        d_hi_69_p1 = d_hi_69
        d_lo_p2 = d_lo_p1
        d_lo_p1 = d_lo
        j_83_p1 = j_83
        m_hi_76_p2 = m_hi_76_p1
        m_hi_76_p1 = m_hi_76
        m_lo_74_p2 = m_lo_74_p1
        m_lo_74_p1 = m_lo_74
        pair_65_p1 = pair_65
        qb_115_p1 = qb_115
        s_j4_91_p1 = s_j4_91
        s_j_87_p1 = s_j_87
        s_jm4_95_p1 = s_jm4_95
        w_p1 = w
        w_122_p1 = w_122
        q_116 = gl.cast(gl.cast(qb_115_p1, gl.uint8, bitcast=True) >> gl.cast(q, gl.uint8, bitcast=True), gl.int8, bitcast=True)  # convert4_q: stage 2, partition 0 (group 0)
        q_117 = q_116 & 15  # convert4_q: stage 2, partition 0 (group 0)
        q_118 = gl.cast(q_117, gl.uint8, bitcast=True).to(gl.float32)  # convert4_q: stage 2, partition 0 (group 0)
        m_lo_75 = gl.cast(gl.cast(m_lo_74_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        m_hi_77 = gl.cast(gl.cast(m_hi_76_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin = m_hi_77 << 8  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_78 = m_lo_75 | dmin  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_79 = dmin_78.to(gl.float16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_80 = dmin_79.to(gl.float32)  # convert1_dmin: stage 2, partition 0 (group 0)
        d_lo_68 = gl.cast(gl.cast(d_lo_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d_hi_70 = gl.cast(gl.cast(d_hi_69_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d = d_hi_70 << 8  # convert0_d: stage 2, partition 0 (group 0)
        d_71 = d_lo_68 | d  # convert0_d: stage 2, partition 0 (group 0)
        d_72 = d_71.to(gl.float16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d_73 = d_72.to(gl.float32)  # convert0_d: stage 2, partition 0 (group 0)
        w_119 = d_73.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
        w_120 = w_119 * w_p1  # elementwise0_w: stage 2, partition 0 (group 0)
        w_121 = w_120 * q_118  # elementwise0_w: stage 2, partition 0 (group 0)
        w_123 = dmin_80.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
        w_124 = w_123 * w_122_p1  # elementwise0_w: stage 2, partition 0 (group 0)
        w_125 = w_121 - w_124  # elementwise0_w: stage 2, partition 0 (group 0)
        w_126 = w_125.to(gl.float16)  # convert5_w: stage 2, partition 0 (group 0)
        w_127 = w_127_st.index(((twill_n - 1 + 2) - 2) % 2)  # local_store0_w: stage 2, partition 0 (group 0)
        w_127.store(w_126)  # local_store0_w: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_w: stage 2, partition 0 (group 0)
        mbarrier.wait(a_128_ready.index((twill_base + (twill_n - 1 + 2) - 2) % 4), ((twill_base + (twill_n - 1 + 2) - 2) // 4) & 1)
        fence_async_shared()
        tok_acc_130 = warpgroup_mma(a_128_buf.index((twill_base + (twill_n - 1 + 2) - 2) % 4), w_127, acc_130_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_130,))
        mbarrier.arrive(a_128_empty.index((twill_base + (twill_n - 1 + 2) - 1 - 2) % 4), pred=((twill_n - 1 + 2) - 1 - 2) >= 0)
        acc_130 = warpgroup_mma_wait(1, deps=(tok_acc_130,))
        acc_130_p1 = acc_130
        blk_67_p1 = blk_67
        d_hi_69_p2 = d_hi_69_p1
        d_hi_69_p1 = d_hi_69
        d_lo_p2 = d_lo_p1
        d_lo_p1 = d_lo
        j_83_p1 = j_83
        m_hi_76_p2 = m_hi_76_p1
        m_hi_76_p1 = m_hi_76
        m_lo_74_p2 = m_lo_74_p1
        m_lo_74_p1 = m_lo_74
        pair_65_p1 = pair_65
        qb_115_p1 = qb_115
        s_j4_91_p1 = s_j4_91
        s_j_87_p1 = s_j_87
        s_jm4_95_p1 = s_jm4_95
        w_p1 = w
        w_122_p1 = w_122
        acc_130_p1 = warpgroup_mma_wait(0, deps=(acc_130_p1,))
        a_128_buf._keep_alive()
        w_127_st._keep_alive()
        mbarrier.arrive(a_128_empty.index((twill_base + (twill_n - 1 + 2) - 2) % 4))
        c_ptrs = gl.cast(stride_cm, gl.int64)
        c_ptrs_53 = a_ptrs_30 * c_ptrs
        c_ptrs_55 = c_ptr + c_ptrs_53
        c_ptrs_56 = c_ptrs_55.broadcast_to([64, 64])
        c_ptrs_57 = w_rows_41.broadcast_to([64, 64])
        c_ptrs_58 = c_ptrs_56 + c_ptrs_57
        c_mask_59 = w_rows_41 < N
        c_mask_60 = a_mask_40.broadcast_to([64, 64])
        c_mask_61 = c_mask_59.broadcast_to([64, 64])
        c_mask_62 = c_mask_60 & c_mask_61
        v0 = acc_130_p1.to(gl.float16)
        v1 = gl.convert_layout(v0, L5)
        gl.store(c_ptrs_58, v1, mask=c_mask_62)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_128, a_128_buf, w_127_st, a_128_ready, a_128_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 63
        num_pid_m_15 = num_pid_m // 64
        num_pid_n = N + 63
        num_pid_n_16 = num_pid_n // 64
        num_pid_in_group = num_pid_n_16 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_15 - first_pid_m
        group_size_m_17 = gl.minimum(group_size_m, 8)
        pid_m = pid % group_size_m_17
        pid_m_18 = first_pid_m + pid_m
        offs_m = pid_m_18 * 64
        offs_m_21 = gl.arange(0, 64, layout=L1)
        offs_m_23 = gl.arange(0, 64, layout=L3)
        offs_m_25 = offs_m + offs_m_21
        a_ptrs = gl.expand_dims(offs_m_25, 1)
        a_ptrs_30 = a_ptrs.to(gl.int64)
        a_ptrs_31 = gl.cast(stride_am, gl.int64)
        a_ptrs_33 = a_ptrs_30 * a_ptrs_31
        a_ptrs_35 = a_ptr + a_ptrs_33
        a_ptrs_36 = gl.expand_dims(offs_m_23, 0)
        a_ptrs_37 = a_ptrs_35.broadcast_to([64, 64])
        a_ptrs_38 = a_ptrs_36.broadcast_to([64, 64])
        a_ptrs_39 = a_ptrs_37 + a_ptrs_38
        a_mask_40 = a_ptrs < M
        a = a_mask_40.broadcast_to([64, 64])
        a_ptrs_64 = a_ptrs_39
        for acc_63 in range(0, K, 64):
            twill_k = twill_base + (acc_63 - 0) // 64
            a_ptrs_131 = a_ptrs_64 + 64
            mbarrier.wait(a_128_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_128_ready.index(twill_k % 4), twill_box_a_128.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a_128, [512 * group_id + 64 * pid_m, 64 * ((acc_63 - 0) // 64)], a_128_ready.index(twill_k % 4), a_128_buf.index(twill_k % 4))  # load8_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_128_buf.index(twill_k % 4), a_ptrs_64, mask=a)  # load8_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_128_ready.index(twill_k % 4), increment_count=False)
                else:
                    a_128_buf.index(twill_k % 4).store(gl.load(a_ptrs_64, mask=a, other=0.0))  # load8_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_128_ready.index(twill_k % 4), count=128)
            a_ptrs_64 = a_ptrs_131
        twill_base += (K - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_128, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_128_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_127_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    a_128_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_128_ready.index(i), count=1 if TWILL_TMA else 128)
    a_128_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_128_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_128, a_128_buf, w_127_st, a_128_ready, a_128_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_128, a_128_buf, w_127_st, a_128_ready, a_128_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m = M + 63
    num_pid_m_15 = num_pid_m // 64
    num_pid_n = N + 63
    num_pid_n_16 = num_pid_n // 64
    num_pid_in_group = num_pid_n_16 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_15 - first_pid_m
    group_size_m_17 = gl.minimum(group_size_m, 8)
    pid_m = pid % group_size_m_17
    pid_m_18 = first_pid_m + pid_m
    pid_n = pid % num_pid_in_group
    pid_n_19 = pid_n // group_size_m_17
    offs_m = pid_m_18 * 64
    offs_m_20 = gl.arange(0, 64, layout=L0_short)
    offs_m_21 = gl.arange(0, 64, layout=L1_short)
    offs_m_22 = gl.arange(0, 64, layout=L2_short)
    offs_m_23 = gl.arange(0, 64, layout=L3_short)
    offs_m_25 = offs_m + offs_m_21
    offs_n = pid_n_19 * 64
    offs_n_28 = offs_n + offs_m_22
    offs_n_29 = offs_n + offs_m_23
    a_ptrs = gl.expand_dims(offs_m_25, 1)
    a_ptrs_30 = a_ptrs.to(gl.int64)
    a_ptrs_31 = gl.cast(stride_am, gl.int64)
    a_ptrs_33 = a_ptrs_30 * a_ptrs_31
    a_ptrs_35 = a_ptr + a_ptrs_33
    a_ptrs_36 = gl.expand_dims(offs_m_23, 0)
    a_ptrs_37 = a_ptrs_35.broadcast_to([64, 64])
    a_ptrs_38 = a_ptrs_36.broadcast_to([64, 64])
    a_ptrs_39 = a_ptrs_37 + a_ptrs_38
    a_mask_40 = a_ptrs < M
    w_rows = gl.expand_dims(offs_n_28, 0)
    w_rows_41 = gl.expand_dims(offs_n_29, 0)
    w_rows_42 = w_rows.to(gl.int64)
    w_rows_43 = gl.cast(stride_wn, gl.int64)
    w_rows_45 = w_rows_42 * w_rows_43
    w_rows_47 = w_ptr + w_rows_45
    half = offs_m_20 // 32
    q_off = offs_m_20 % 32
    q_off_48 = gl.expand_dims(q_off, 1)
    q_shift_49 = half * 4
    q_shift_50 = gl.expand_dims(q_shift_49, 1)
    q_shift_51 = q_shift_50.to(gl.int8)
    qb = q_off_48.broadcast_to([64, 64])
    q = q_shift_51.broadcast_to([64, 64])
    a = a_mask_40.broadcast_to([64, 64])
    twill_n = (K - 0 + 64 - 1) // 64
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        a_129_ring = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        w_127_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        a_ptrs_131 = a_ptrs_39
        a_ptrs_131_p1 = a_ptrs_131
        sb = (0 + (0 - 0) * 64) // 256  # load0_d_lo: stage 0, partition 0 (group 0)
        blk = sb * 144  # load0_d_lo: stage 0, partition 0 (group 0)
        blk_66 = blk  # load0_d_lo: stage 0, partition 0 (group 0)
        blk_67 = w_rows_47 + blk_66  # load0_d_lo: stage 0, partition 0 (group 0)
        m_lo = blk_67 + 2  # load3_m_lo: stage 0, partition 0 (group 0)
        m_hi = blk_67 + 3  # load4_m_hi: stage 0, partition 0 (group 0)
        m_lo_74 = gl.load(m_lo)  # load3_m_lo: stage 0, partition 0 (group 0)
        m_hi_76 = gl.load(m_hi)  # load4_m_hi: stage 0, partition 0 (group 0)
        d_hi = blk_67 + 1  # load2_d_hi: stage 0, partition 0 (group 0)
        d_lo = gl.load(blk_67)  # load0_d_lo: stage 0, partition 0 (group 0)
        d_hi_69 = gl.load(d_hi)  # load2_d_hi: stage 0, partition 0 (group 0)
        pair = (0 + (0 - 0) * 64) % 256  # load1_s_j: stage 0, partition 0 (group 0)
        pair_65 = pair // 64  # load1_s_j: stage 0, partition 0 (group 0)
        j = pair_65 * 2  # load1_s_j: stage 0, partition 0 (group 0)
        j_81 = j  # load1_s_j: stage 0, partition 0 (group 0)
        j_82 = j_81 + half  # load1_s_j: stage 0, partition 0 (group 0)
        j_83 = gl.expand_dims(j_82, 1)  # load1_s_j: stage 0, partition 0 (group 0)
        s_j = blk_67 + 4  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4 = j_83 + 4  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4 = j_83 ^ 4  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_84 = s_j.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
        s_j_85 = j_83.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_89 = s_j4.broadcast_to([64, 64])  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_93 = s_jm4.broadcast_to([64, 64])  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_86 = s_j_84 + s_j_85  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_90 = s_j_84 + s_j4_89  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_94 = s_j_84 + s_jm4_93  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_87 = gl.load(s_j_86)  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_91 = gl.load(s_j4_90)  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_95 = gl.load(s_jm4_94)  # load6_s_jm4: stage 0, partition 0 (group 0)
        a_ptrs_131 = a_ptrs_131_p1 + 64  # load8_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load8_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_129_ring.index((0 - 0) % 4), a_ptrs_131_p1, mask=a)  # load8_a: stage 0, partition 0 (group 0)
        else:  # load8_a: stage 0, partition 0 (group 0)
            a_129_ring.index((0 - 0) % 4).store(gl.load(a_ptrs_131_p1, mask=a, other=0.0))  # load8_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load8_a: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_131_p1 = a_ptrs_131
        blk_67_p1 = blk_67
        d_hi_69_p1 = d_hi_69
        d_lo_p1 = d_lo
        j_83_p1 = j_83
        m_hi_76_p1 = m_hi_76
        m_lo_74_p1 = m_lo_74
        pair_65_p1 = pair_65
        s_j4_91_p1 = s_j4_91
        s_j_87_p1 = s_j_87
        s_jm4_95_p1 = s_jm4_95
        acc_130 = gl.full([64, 64], 0.0, gl.float32, layout=L4_short)
        qb_110 = pair_65_p1 * 32  # load7_qb: stage 1, partition 0 (group 0)
        qb_109 = blk_67_p1 + 16  # load7_qb: stage 1, partition 0 (group 0)
        qb_111 = qb_110  # load7_qb: stage 1, partition 0 (group 0)
        qb_112 = qb_109 + qb_111  # load7_qb: stage 1, partition 0 (group 0)
        qb_113 = qb_112.broadcast_to([64, 64])  # load7_qb: stage 1, partition 0 (group 0)
        qb_114 = qb_113 + qb  # load7_qb: stage 1, partition 0 (group 0)
        qb_115 = gl.load(qb_114)  # load7_qb: stage 1, partition 0 (group 0)
        sb = (0 + (1 - 0) * 64) // 256  # load0_d_lo: stage 0, partition 0 (group 0)
        blk = sb * 144  # load0_d_lo: stage 0, partition 0 (group 0)
        blk_66 = blk  # load0_d_lo: stage 0, partition 0 (group 0)
        blk_67 = w_rows_47 + blk_66  # load0_d_lo: stage 0, partition 0 (group 0)
        m_lo = blk_67 + 2  # load3_m_lo: stage 0, partition 0 (group 0)
        m_hi = blk_67 + 3  # load4_m_hi: stage 0, partition 0 (group 0)
        m_lo_74 = gl.load(m_lo)  # load3_m_lo: stage 0, partition 0 (group 0)
        m_hi_76 = gl.load(m_hi)  # load4_m_hi: stage 0, partition 0 (group 0)
        d_hi = blk_67 + 1  # load2_d_hi: stage 0, partition 0 (group 0)
        d_lo = gl.load(blk_67)  # load0_d_lo: stage 0, partition 0 (group 0)
        d_hi_69 = gl.load(d_hi)  # load2_d_hi: stage 0, partition 0 (group 0)
        pair = (0 + (1 - 0) * 64) % 256  # load1_s_j: stage 0, partition 0 (group 0)
        pair_65 = pair // 64  # load1_s_j: stage 0, partition 0 (group 0)
        j = pair_65 * 2  # load1_s_j: stage 0, partition 0 (group 0)
        j_81 = j  # load1_s_j: stage 0, partition 0 (group 0)
        j_82 = j_81 + half  # load1_s_j: stage 0, partition 0 (group 0)
        j_83 = gl.expand_dims(j_82, 1)  # load1_s_j: stage 0, partition 0 (group 0)
        s_j = blk_67 + 4  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4 = j_83 + 4  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4 = j_83 ^ 4  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_84 = s_j.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
        s_j_85 = j_83.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_89 = s_j4.broadcast_to([64, 64])  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_93 = s_jm4.broadcast_to([64, 64])  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_86 = s_j_84 + s_j_85  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_90 = s_j_84 + s_j4_89  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_94 = s_j_84 + s_jm4_93  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_87 = gl.load(s_j_86)  # load1_s_j: stage 0, partition 0 (group 0)
        s_j4_91 = gl.load(s_j4_90)  # load5_s_j4: stage 0, partition 0 (group 0)
        s_jm4_95 = gl.load(s_jm4_94)  # load6_s_jm4: stage 0, partition 0 (group 0)
        s_j_88 = gl.cast(gl.cast(s_j_87_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        s_j4_92 = gl.cast(gl.cast(s_j4_91_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        s_jm4_96 = gl.cast(gl.cast(s_jm4_95_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        sc = j_83_p1 < 4  # convert2_w: stage 1, partition 0 (group 0)
        sc_97 = s_j_88 & 63  # convert2_w: stage 1, partition 0 (group 0)
        sc_98 = s_j4_92 & 15  # convert2_w: stage 1, partition 0 (group 0)
        sc_99 = s_jm4_96 >> 6  # convert2_w: stage 1, partition 0 (group 0)
        sc_100 = sc_99 << 4  # convert2_w: stage 1, partition 0 (group 0)
        sc_101 = sc_98 | sc_100  # convert2_w: stage 1, partition 0 (group 0)
        sc_102 = sc.broadcast_to([64, 64])  # convert2_w: stage 1, partition 0 (group 0)
        sc_103 = gl.where(sc_102, sc_97, sc_101)  # convert2_w: stage 1, partition 0 (group 0)
        w = sc_103.to(gl.float32)  # convert2_w: stage 1, partition 0 (group 0)
        a_ptrs_131 = a_ptrs_131_p1 + 64  # load8_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load8_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_129_ring.index((1 - 0) % 4), a_ptrs_131_p1, mask=a)  # load8_a: stage 0, partition 0 (group 0)
        else:  # load8_a: stage 0, partition 0 (group 0)
            a_129_ring.index((1 - 0) % 4).store(gl.load(a_ptrs_131_p1, mask=a, other=0.0))  # load8_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load8_a: stage 0, partition 0 (group 0)
        mn = s_j4_92 & 63  # convert3_w: stage 1, partition 0 (group 0)
        mn_104 = s_j4_92 >> 4  # convert3_w: stage 1, partition 0 (group 0)
        mn_105 = s_j_88 >> 6  # convert3_w: stage 1, partition 0 (group 0)
        mn_106 = mn_105 << 4  # convert3_w: stage 1, partition 0 (group 0)
        mn_107 = mn_104 | mn_106  # convert3_w: stage 1, partition 0 (group 0)
        mn_108 = gl.where(sc_102, mn, mn_107)  # convert3_w: stage 1, partition 0 (group 0)
        w_122 = mn_108.to(gl.float32)  # convert3_w: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_131_p1 = a_ptrs_131
        acc_130_p1 = acc_130
        blk_67_p1 = blk_67
        d_hi_69_p2 = d_hi_69_p1
        d_hi_69_p1 = d_hi_69
        d_lo_p2 = d_lo_p1
        d_lo_p1 = d_lo
        j_83_p1 = j_83
        m_hi_76_p2 = m_hi_76_p1
        m_hi_76_p1 = m_hi_76
        m_lo_74_p2 = m_lo_74_p1
        m_lo_74_p1 = m_lo_74
        pair_65_p1 = pair_65
        qb_115_p1 = qb_115
        s_j4_91_p1 = s_j4_91
        s_j_87_p1 = s_j_87
        s_jm4_95_p1 = s_jm4_95
        w_p1 = w
        w_122_p1 = w_122
        for twill_b in range(2, twill_n):
            qb_110 = pair_65_p1 * 32  # load7_qb: stage 1, partition 0 (group 0)
            qb_109 = blk_67_p1 + 16  # load7_qb: stage 1, partition 0 (group 0)
            qb_111 = qb_110  # load7_qb: stage 1, partition 0 (group 0)
            qb_112 = qb_109 + qb_111  # load7_qb: stage 1, partition 0 (group 0)
            qb_113 = qb_112.broadcast_to([64, 64])  # load7_qb: stage 1, partition 0 (group 0)
            qb_114 = qb_113 + qb  # load7_qb: stage 1, partition 0 (group 0)
            qb_115 = gl.load(qb_114)  # load7_qb: stage 1, partition 0 (group 0)
            q_116 = gl.cast(gl.cast(qb_115_p1, gl.uint8, bitcast=True) >> gl.cast(q, gl.uint8, bitcast=True), gl.int8, bitcast=True)  # convert4_q: stage 2, partition 0 (group 0)
            q_117 = q_116 & 15  # convert4_q: stage 2, partition 0 (group 0)
            q_118 = gl.cast(q_117, gl.uint8, bitcast=True).to(gl.float32)  # convert4_q: stage 2, partition 0 (group 0)
            sb = (0 + (twill_b - 0) * 64) // 256  # load0_d_lo: stage 0, partition 0 (group 0)
            blk = sb * 144  # load0_d_lo: stage 0, partition 0 (group 0)
            blk_66 = blk  # load0_d_lo: stage 0, partition 0 (group 0)
            blk_67 = w_rows_47 + blk_66  # load0_d_lo: stage 0, partition 0 (group 0)
            m_lo = blk_67 + 2  # load3_m_lo: stage 0, partition 0 (group 0)
            m_hi = blk_67 + 3  # load4_m_hi: stage 0, partition 0 (group 0)
            m_lo_74 = gl.load(m_lo)  # load3_m_lo: stage 0, partition 0 (group 0)
            m_hi_76 = gl.load(m_hi)  # load4_m_hi: stage 0, partition 0 (group 0)
            m_lo_75 = gl.cast(gl.cast(m_lo_74_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
            m_hi_77 = gl.cast(gl.cast(m_hi_76_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
            dmin = m_hi_77 << 8  # convert1_dmin: stage 2, partition 0 (group 0)
            dmin_78 = m_lo_75 | dmin  # convert1_dmin: stage 2, partition 0 (group 0)
            dmin_79 = dmin_78.to(gl.float16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
            dmin_80 = dmin_79.to(gl.float32)  # convert1_dmin: stage 2, partition 0 (group 0)
            d_hi = blk_67 + 1  # load2_d_hi: stage 0, partition 0 (group 0)
            d_lo = gl.load(blk_67)  # load0_d_lo: stage 0, partition 0 (group 0)
            d_hi_69 = gl.load(d_hi)  # load2_d_hi: stage 0, partition 0 (group 0)
            d_lo_68 = gl.cast(gl.cast(d_lo_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
            d_hi_70 = gl.cast(gl.cast(d_hi_69_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
            d = d_hi_70 << 8  # convert0_d: stage 2, partition 0 (group 0)
            d_71 = d_lo_68 | d  # convert0_d: stage 2, partition 0 (group 0)
            d_72 = d_71.to(gl.float16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
            d_73 = d_72.to(gl.float32)  # convert0_d: stage 2, partition 0 (group 0)
            w_119 = d_73.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
            w_120 = w_119 * w_p1  # elementwise0_w: stage 2, partition 0 (group 0)
            w_121 = w_120 * q_118  # elementwise0_w: stage 2, partition 0 (group 0)
            w_123 = dmin_80.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
            w_124 = w_123 * w_122_p1  # elementwise0_w: stage 2, partition 0 (group 0)
            w_125 = w_121 - w_124  # elementwise0_w: stage 2, partition 0 (group 0)
            w_126 = w_125.to(gl.float16)  # convert5_w: stage 2, partition 0 (group 0)
            pair = (0 + (twill_b - 0) * 64) % 256  # load1_s_j: stage 0, partition 0 (group 0)
            pair_65 = pair // 64  # load1_s_j: stage 0, partition 0 (group 0)
            j = pair_65 * 2  # load1_s_j: stage 0, partition 0 (group 0)
            j_81 = j  # load1_s_j: stage 0, partition 0 (group 0)
            j_82 = j_81 + half  # load1_s_j: stage 0, partition 0 (group 0)
            j_83 = gl.expand_dims(j_82, 1)  # load1_s_j: stage 0, partition 0 (group 0)
            s_j = blk_67 + 4  # load1_s_j: stage 0, partition 0 (group 0)
            s_j4 = j_83 + 4  # load5_s_j4: stage 0, partition 0 (group 0)
            s_jm4 = j_83 ^ 4  # load6_s_jm4: stage 0, partition 0 (group 0)
            s_j_84 = s_j.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
            s_j_85 = j_83.broadcast_to([64, 64])  # load1_s_j: stage 0, partition 0 (group 0)
            s_j4_89 = s_j4.broadcast_to([64, 64])  # load5_s_j4: stage 0, partition 0 (group 0)
            s_jm4_93 = s_jm4.broadcast_to([64, 64])  # load6_s_jm4: stage 0, partition 0 (group 0)
            s_j_86 = s_j_84 + s_j_85  # load1_s_j: stage 0, partition 0 (group 0)
            s_j4_90 = s_j_84 + s_j4_89  # load5_s_j4: stage 0, partition 0 (group 0)
            s_jm4_94 = s_j_84 + s_jm4_93  # load6_s_jm4: stage 0, partition 0 (group 0)
            s_j_87 = gl.load(s_j_86)  # load1_s_j: stage 0, partition 0 (group 0)
            s_j4_91 = gl.load(s_j4_90)  # load5_s_j4: stage 0, partition 0 (group 0)
            s_jm4_95 = gl.load(s_jm4_94)  # load6_s_jm4: stage 0, partition 0 (group 0)
            s_j_88 = gl.cast(gl.cast(s_j_87_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
            s_j4_92 = gl.cast(gl.cast(s_j4_91_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
            s_jm4_96 = gl.cast(gl.cast(s_jm4_95_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
            sc = j_83_p1 < 4  # convert2_w: stage 1, partition 0 (group 0)
            sc_97 = s_j_88 & 63  # convert2_w: stage 1, partition 0 (group 0)
            sc_98 = s_j4_92 & 15  # convert2_w: stage 1, partition 0 (group 0)
            sc_99 = s_jm4_96 >> 6  # convert2_w: stage 1, partition 0 (group 0)
            sc_100 = sc_99 << 4  # convert2_w: stage 1, partition 0 (group 0)
            sc_101 = sc_98 | sc_100  # convert2_w: stage 1, partition 0 (group 0)
            sc_102 = sc.broadcast_to([64, 64])  # convert2_w: stage 1, partition 0 (group 0)
            sc_103 = gl.where(sc_102, sc_97, sc_101)  # convert2_w: stage 1, partition 0 (group 0)
            w = sc_103.to(gl.float32)  # convert2_w: stage 1, partition 0 (group 0)
            w_127 = w_127_st.index((twill_b - 2) % 2)  # local_store0_w: stage 2, partition 0 (group 0)
            w_127.store(w_126)  # local_store0_w: stage 2, partition 0 (group 0)
            fence_async_shared()  # local_store0_w: stage 2, partition 0 (group 0)
            async_copy.wait_group(1)
            gl.thread_barrier()
            a_129 = a_129_ring.index((twill_b - 2) % 4)  # load8_a: stage 2, partition 0 (group 0)
            a_ptrs_131 = a_ptrs_131_p1 + 64  # load8_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load8_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_129_ring.index((twill_b - 0) % 4), a_ptrs_131_p1, mask=a)  # load8_a: stage 0, partition 0 (group 0)
            else:  # load8_a: stage 0, partition 0 (group 0)
                a_129_ring.index((twill_b - 0) % 4).store(gl.load(a_ptrs_131_p1, mask=a, other=0.0))  # load8_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load8_a: stage 0, partition 0 (group 0)
            tok_acc_130 = warpgroup_mma(a_129, w_127, acc_130_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            mn = s_j4_92 & 63  # convert3_w: stage 1, partition 0 (group 0)
            mn_104 = s_j4_92 >> 4  # convert3_w: stage 1, partition 0 (group 0)
            mn_105 = s_j_88 >> 6  # convert3_w: stage 1, partition 0 (group 0)
            mn_106 = mn_105 << 4  # convert3_w: stage 1, partition 0 (group 0)
            mn_107 = mn_104 | mn_106  # convert3_w: stage 1, partition 0 (group 0)
            mn_108 = gl.where(sc_102, mn, mn_107)  # convert3_w: stage 1, partition 0 (group 0)
            w_122 = mn_108.to(gl.float32)  # convert3_w: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_acc_130,))
            acc_130 = warpgroup_mma_wait(1, deps=(tok_acc_130,))
            a_ptrs_131_p1 = a_ptrs_131
            acc_130_p1 = acc_130
            blk_67_p1 = blk_67
            d_hi_69_p2 = d_hi_69_p1
            d_hi_69_p1 = d_hi_69
            d_lo_p2 = d_lo_p1
            d_lo_p1 = d_lo
            j_83_p1 = j_83
            m_hi_76_p2 = m_hi_76_p1
            m_hi_76_p1 = m_hi_76
            m_lo_74_p2 = m_lo_74_p1
            m_lo_74_p1 = m_lo_74
            pair_65_p1 = pair_65
            qb_115_p1 = qb_115
            s_j4_91_p1 = s_j4_91
            s_j_87_p1 = s_j_87
            s_jm4_95_p1 = s_jm4_95
            w_p1 = w
            w_122_p1 = w_122
        qb_110 = pair_65_p1 * 32  # load7_qb: stage 1, partition 0 (group 0)
        qb_109 = blk_67_p1 + 16  # load7_qb: stage 1, partition 0 (group 0)
        qb_111 = qb_110  # load7_qb: stage 1, partition 0 (group 0)
        qb_112 = qb_109 + qb_111  # load7_qb: stage 1, partition 0 (group 0)
        qb_113 = qb_112.broadcast_to([64, 64])  # load7_qb: stage 1, partition 0 (group 0)
        qb_114 = qb_113 + qb  # load7_qb: stage 1, partition 0 (group 0)
        qb_115 = gl.load(qb_114)  # load7_qb: stage 1, partition 0 (group 0)
        q_116 = gl.cast(gl.cast(qb_115_p1, gl.uint8, bitcast=True) >> gl.cast(q, gl.uint8, bitcast=True), gl.int8, bitcast=True)  # convert4_q: stage 2, partition 0 (group 0)
        q_117 = q_116 & 15  # convert4_q: stage 2, partition 0 (group 0)
        q_118 = gl.cast(q_117, gl.uint8, bitcast=True).to(gl.float32)  # convert4_q: stage 2, partition 0 (group 0)
        m_lo_75 = gl.cast(gl.cast(m_lo_74_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        m_hi_77 = gl.cast(gl.cast(m_hi_76_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin = m_hi_77 << 8  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_78 = m_lo_75 | dmin  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_79 = dmin_78.to(gl.float16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_80 = dmin_79.to(gl.float32)  # convert1_dmin: stage 2, partition 0 (group 0)
        d_lo_68 = gl.cast(gl.cast(d_lo_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d_hi_70 = gl.cast(gl.cast(d_hi_69_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d = d_hi_70 << 8  # convert0_d: stage 2, partition 0 (group 0)
        d_71 = d_lo_68 | d  # convert0_d: stage 2, partition 0 (group 0)
        d_72 = d_71.to(gl.float16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d_73 = d_72.to(gl.float32)  # convert0_d: stage 2, partition 0 (group 0)
        w_119 = d_73.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
        w_120 = w_119 * w_p1  # elementwise0_w: stage 2, partition 0 (group 0)
        w_121 = w_120 * q_118  # elementwise0_w: stage 2, partition 0 (group 0)
        w_123 = dmin_80.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
        w_124 = w_123 * w_122_p1  # elementwise0_w: stage 2, partition 0 (group 0)
        w_125 = w_121 - w_124  # elementwise0_w: stage 2, partition 0 (group 0)
        w_126 = w_125.to(gl.float16)  # convert5_w: stage 2, partition 0 (group 0)
        s_j_88 = gl.cast(gl.cast(s_j_87_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        s_j4_92 = gl.cast(gl.cast(s_j4_91_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        s_jm4_96 = gl.cast(gl.cast(s_jm4_95_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert2_w: stage 1, partition 0 (group 0)
        sc = j_83_p1 < 4  # convert2_w: stage 1, partition 0 (group 0)
        sc_97 = s_j_88 & 63  # convert2_w: stage 1, partition 0 (group 0)
        sc_98 = s_j4_92 & 15  # convert2_w: stage 1, partition 0 (group 0)
        sc_99 = s_jm4_96 >> 6  # convert2_w: stage 1, partition 0 (group 0)
        sc_100 = sc_99 << 4  # convert2_w: stage 1, partition 0 (group 0)
        sc_101 = sc_98 | sc_100  # convert2_w: stage 1, partition 0 (group 0)
        sc_102 = sc.broadcast_to([64, 64])  # convert2_w: stage 1, partition 0 (group 0)
        sc_103 = gl.where(sc_102, sc_97, sc_101)  # convert2_w: stage 1, partition 0 (group 0)
        w = sc_103.to(gl.float32)  # convert2_w: stage 1, partition 0 (group 0)
        w_127 = w_127_st.index(((twill_n - 1 + 1) - 2) % 2)  # local_store0_w: stage 2, partition 0 (group 0)
        w_127.store(w_126)  # local_store0_w: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_w: stage 2, partition 0 (group 0)
        async_copy.wait_group(1)
        gl.thread_barrier()
        a_129 = a_129_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load8_a: stage 2, partition 0 (group 0)
        tok_acc_130 = warpgroup_mma(a_129, w_127, acc_130_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        mn = s_j4_92 & 63  # convert3_w: stage 1, partition 0 (group 0)
        mn_104 = s_j4_92 >> 4  # convert3_w: stage 1, partition 0 (group 0)
        mn_105 = s_j_88 >> 6  # convert3_w: stage 1, partition 0 (group 0)
        mn_106 = mn_105 << 4  # convert3_w: stage 1, partition 0 (group 0)
        mn_107 = mn_104 | mn_106  # convert3_w: stage 1, partition 0 (group 0)
        mn_108 = gl.where(sc_102, mn, mn_107)  # convert3_w: stage 1, partition 0 (group 0)
        w_122 = mn_108.to(gl.float32)  # convert3_w: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_130,))
        acc_130 = warpgroup_mma_wait(1, deps=(tok_acc_130,))
        a_ptrs_131_p2 = a_ptrs_131_p1
        a_ptrs_131_p1 = a_ptrs_131
        acc_130_p1 = acc_130
        blk_67_p1 = blk_67
        d_hi_69_p2 = d_hi_69_p1
        d_hi_69_p1 = d_hi_69
        d_lo_p2 = d_lo_p1
        d_lo_p1 = d_lo
        j_83_p1 = j_83
        m_hi_76_p2 = m_hi_76_p1
        m_hi_76_p1 = m_hi_76
        m_lo_74_p2 = m_lo_74_p1
        m_lo_74_p1 = m_lo_74
        pair_65_p1 = pair_65
        qb_115_p1 = qb_115
        s_j4_91_p1 = s_j4_91
        s_j_87_p1 = s_j_87
        s_jm4_95_p1 = s_jm4_95
        w_p1 = w
        w_122_p1 = w_122
        q_116 = gl.cast(gl.cast(qb_115_p1, gl.uint8, bitcast=True) >> gl.cast(q, gl.uint8, bitcast=True), gl.int8, bitcast=True)  # convert4_q: stage 2, partition 0 (group 0)
        q_117 = q_116 & 15  # convert4_q: stage 2, partition 0 (group 0)
        q_118 = gl.cast(q_117, gl.uint8, bitcast=True).to(gl.float32)  # convert4_q: stage 2, partition 0 (group 0)
        m_lo_75 = gl.cast(gl.cast(m_lo_74_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        m_hi_77 = gl.cast(gl.cast(m_hi_76_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin = m_hi_77 << 8  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_78 = m_lo_75 | dmin  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_79 = dmin_78.to(gl.float16, bitcast=True)  # convert1_dmin: stage 2, partition 0 (group 0)
        dmin_80 = dmin_79.to(gl.float32)  # convert1_dmin: stage 2, partition 0 (group 0)
        d_lo_68 = gl.cast(gl.cast(d_lo_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d_hi_70 = gl.cast(gl.cast(d_hi_69_p2, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d = d_hi_70 << 8  # convert0_d: stage 2, partition 0 (group 0)
        d_71 = d_lo_68 | d  # convert0_d: stage 2, partition 0 (group 0)
        d_72 = d_71.to(gl.float16, bitcast=True)  # convert0_d: stage 2, partition 0 (group 0)
        d_73 = d_72.to(gl.float32)  # convert0_d: stage 2, partition 0 (group 0)
        w_119 = d_73.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
        w_120 = w_119 * w_p1  # elementwise0_w: stage 2, partition 0 (group 0)
        w_121 = w_120 * q_118  # elementwise0_w: stage 2, partition 0 (group 0)
        w_123 = dmin_80.broadcast_to([64, 64])  # elementwise0_w: stage 2, partition 0 (group 0)
        w_124 = w_123 * w_122_p1  # elementwise0_w: stage 2, partition 0 (group 0)
        w_125 = w_121 - w_124  # elementwise0_w: stage 2, partition 0 (group 0)
        w_126 = w_125.to(gl.float16)  # convert5_w: stage 2, partition 0 (group 0)
        w_127 = w_127_st.index(((twill_n - 1 + 2) - 2) % 2)  # local_store0_w: stage 2, partition 0 (group 0)
        w_127.store(w_126)  # local_store0_w: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_w: stage 2, partition 0 (group 0)
        async_copy.wait_group(1)
        gl.thread_barrier()
        a_129 = a_129_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load8_a: stage 2, partition 0 (group 0)
        tok_acc_130 = warpgroup_mma(a_129, w_127, acc_130_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_130,))
        acc_130 = warpgroup_mma_wait(1, deps=(tok_acc_130,))
        a_ptrs_131_p3 = a_ptrs_131_p2
        a_ptrs_131_p2 = a_ptrs_131_p1
        a_ptrs_131_p1 = a_ptrs_131
        acc_130_p1 = acc_130
        blk_67_p1 = blk_67
        d_hi_69_p2 = d_hi_69_p1
        d_hi_69_p1 = d_hi_69
        d_lo_p2 = d_lo_p1
        d_lo_p1 = d_lo
        j_83_p1 = j_83
        m_hi_76_p2 = m_hi_76_p1
        m_hi_76_p1 = m_hi_76
        m_lo_74_p2 = m_lo_74_p1
        m_lo_74_p1 = m_lo_74
        pair_65_p1 = pair_65
        qb_115_p1 = qb_115
        s_j4_91_p1 = s_j4_91
        s_j_87_p1 = s_j_87
        s_jm4_95_p1 = s_jm4_95
        w_p1 = w
        w_122_p1 = w_122
        acc_130_p1 = warpgroup_mma_wait(0, deps=(acc_130_p1,))
        a_129_ring._keep_alive()
        w_127_st._keep_alive()
    else:
        arg10_w = gl.full([64, 64], 0.0, gl.float32, layout=L4_short)
        a_ptrs_64_w = a_ptrs_39
        for acc_63_w in range(0, K, 64):
            sb_w = acc_63_w // 256
            pair_w = acc_63_w % 256
            pair_65_w = pair_w // 64
            blk_w = sb_w * 144
            blk_67_w = w_rows_47 + blk_w
            d_lo_w = gl.load(blk_67_w)
            d_lo_68_w = gl.cast(gl.cast(d_lo_w, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)
            d_hi_w = blk_67_w + 1
            d_hi_69_w = gl.load(d_hi_w)
            d_hi_70_w = gl.cast(gl.cast(d_hi_69_w, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)
            d_w = d_hi_70_w << 8
            d_71_w = d_lo_68_w | d_w
            d_72_w = d_71_w.to(gl.float16, bitcast=True)
            d_73_w = d_72_w.to(gl.float32)
            m_lo_w = blk_67_w + 2
            m_lo_74_w = gl.load(m_lo_w)
            m_lo_75_w = gl.cast(gl.cast(m_lo_74_w, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)
            m_hi_w = blk_67_w + 3
            m_hi_76_w = gl.load(m_hi_w)
            m_hi_77_w = gl.cast(gl.cast(m_hi_76_w, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)
            dmin_w = m_hi_77_w << 8
            dmin_78_w = m_lo_75_w | dmin_w
            dmin_79_w = dmin_78_w.to(gl.float16, bitcast=True)
            dmin_80_w = dmin_79_w.to(gl.float32)
            j_w = pair_65_w * 2
            j_82_w = j_w + half
            j_83_w = gl.expand_dims(j_82_w, 1)
            s_j_w = blk_67_w + 4
            s_j_84_w = s_j_w.broadcast_to([64, 64])
            s_j_85_w = j_83_w.broadcast_to([64, 64])
            s_j_86_w = s_j_84_w + s_j_85_w
            s_j_87_w = gl.load(s_j_86_w)
            s_j_88_w = gl.cast(gl.cast(s_j_87_w, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
            s_j4_w = j_83_w + 4
            s_j4_89_w = s_j4_w.broadcast_to([64, 64])
            s_j4_90_w = s_j_84_w + s_j4_89_w
            s_j4_91_w = gl.load(s_j4_90_w)
            s_j4_92_w = gl.cast(gl.cast(s_j4_91_w, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
            s_jm4_w = j_83_w ^ 4
            s_jm4_93_w = s_jm4_w.broadcast_to([64, 64])
            s_jm4_94_w = s_j_84_w + s_jm4_93_w
            s_jm4_95_w = gl.load(s_jm4_94_w)
            s_jm4_96_w = gl.cast(gl.cast(s_jm4_95_w, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
            sc_w = j_83_w < 4
            sc_97_w = s_j_88_w & 63
            sc_98_w = s_j4_92_w & 15
            sc_99_w = s_jm4_96_w >> 6
            sc_100_w = sc_99_w << 4
            sc_101_w = sc_98_w | sc_100_w
            sc_102_w = sc_w.broadcast_to([64, 64])
            sc_103_w = gl.where(sc_102_w, sc_97_w, sc_101_w)
            mn_w = s_j4_92_w & 63
            mn_104_w = s_j4_92_w >> 4
            mn_105_w = s_j_88_w >> 6
            mn_106_w = mn_105_w << 4
            mn_107_w = mn_104_w | mn_106_w
            mn_108_w = gl.where(sc_102_w, mn_w, mn_107_w)
            qb_109_w = blk_67_w + 16
            qb_110_w = pair_65_w * 32
            qb_112_w = qb_109_w + qb_110_w
            qb_113_w = qb_112_w.broadcast_to([64, 64])
            qb_114_w = qb_113_w + qb
            qb_115_w = gl.load(qb_114_w)
            q_116_w = gl.cast(gl.cast(qb_115_w, gl.uint8, bitcast=True) >> gl.cast(q, gl.uint8, bitcast=True), gl.int8, bitcast=True)
            q_117_w = q_116_w & 15
            q_118_w = gl.cast(q_117_w, gl.uint8, bitcast=True).to(gl.float32)
            w_w = sc_103_w.to(gl.float32)
            w_119_w = d_73_w.broadcast_to([64, 64])
            w_120_w = w_119_w * w_w
            w_121_w = w_120_w * q_118_w
            w_122_w = mn_108_w.to(gl.float32)
            w_123_w = dmin_80_w.broadcast_to([64, 64])
            w_124_w = w_123_w * w_122_w
            w_125_w = w_121_w - w_124_w
            w_126_w = w_125_w.to(gl.float16)
            w_127_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), w_126_w)
            fence_async_shared()
            a_128_w = gl.load(a_ptrs_64_w, mask=a, other=0.0)
            a_129_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), a_128_w)
            fence_async_shared()
            acc_130_w = warpgroup_mma(a_129_w, w_127_w, arg10_w)
            a_ptrs_131_w = a_ptrs_64_w + 64
            arg10_w = acc_130_w
            a_ptrs_64_w = a_ptrs_131_w
        acc_130_p1 = arg10_w
        a_ptrs_131_p3 = a_ptrs_64_w
    c_ptrs = gl.cast(stride_cm, gl.int64)
    c_ptrs_53 = a_ptrs_30 * c_ptrs
    c_ptrs_55 = c_ptr + c_ptrs_53
    c_ptrs_56 = c_ptrs_55.broadcast_to([64, 64])
    c_ptrs_57 = w_rows_41.broadcast_to([64, 64])
    c_ptrs_58 = c_ptrs_56 + c_ptrs_57
    c_mask_59 = w_rows_41 < N
    c_mask_60 = a_mask_40.broadcast_to([64, 64])
    c_mask_61 = c_mask_59.broadcast_to([64, 64])
    c_mask_62 = c_mask_60 & c_mask_61
    v0 = acc_130_p1.to(gl.float16)
    v1 = gl.convert_layout(v0, L5_short)
    gl.store(c_ptrs_58, v1, mask=c_mask_62)

@gluon.jit
def twill_kernel_short(a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm, TWILL_COPY: gl.constexpr):
    consumer_0_short(a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'w_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_cm', 'QK_K', 'BLOCK_BYTES', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'w_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_a_128']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'w_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'QK_K': 256, 'BLOCK_BYTES': 144, 'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 64, 'GROUP_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_128': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_128': ('a_ptr', ['stride_am', '1'], ['M', None], [64, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(K + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} ((K + 64 - 1) // 64): run the Triton kernel for it")
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
ARGUMENTS_short = ['a_ptr', 'w_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_cm', 'QK_K', 'BLOCK_BYTES', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'w_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'w_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS_short = {'QK_K': 256, 'BLOCK_BYTES': 144, 'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 64, 'GROUP_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['a_ptr', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    flags = {'TWILL_COPY': all(_aligned_short(bound[n]) for n in COPY_ALIGNED_short)}
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


def _aligned_short(value):
    """Whether an argument is specialised as 16-divisible (Triton's rule): an integer's value, a tensor's address."""
    if hasattr(value, "data_ptr"):
        return value.data_ptr() % 16 == 0
    return isinstance(value, int) and value % 16 == 0


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
