"""_attn_bwd, written by twill from its joint schedule: I=243 L=316 (feasible), 2592 cycles per iteration predicted.

Decisions (each from the schedule):
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 240 registers per thread (needs about 232): sub-tile 0, 3 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 240 registers per thread (needs about 232): sub-tile 1, 2 stages
- partition 2 (worker): producer, warp group 2, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings; adds rows 32-63 of the partials, 2 iterations behind its loads
- partition 3 (worker): reducer, warp group 2, 1 warps, 24 registers per thread (needs about 0): sums the sub-tiles' partials and adds them atomically (rows 0-31)
- ring q_44: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0, 1
- ring do: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0, 1
- staged operand dsT_66_st_t0: partition 0 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot3_dk, dot4_dq (transposed) (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- staged operand dv_56_st_t0: partition 0 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot1_dv (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- staged operand dv_56_st_t1: partition 1 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot1_dv (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- staged operand dsT_66_st_t1: partition 1 stores the [64, 64] f16 tile once per iteration in shared memory, read there by dot3_dk, dot4_dq (transposed) (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- tensor-core order: the schedule's slots (partition 1 (2 dots) | partition 0 (2 dots) | partition 1 (2 dots) | partition 0 (3 dots) | partition 1 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- reducer: store0 adds a partial sum over the split rows (64 x 128 f32) at addresses every sub-tile shares: each consumer stores its partial into a shared buffer of its own (rows padded by 4 words) and the reducer issues one atomic add per element for the CTA (2x fewer, none in the consumers; by hand in run 17 the FA backward ran 5-8 % faster so than with the consumers' own atomics); the one-warp producer, which mostly waits, adds the lower half of the rows 2 iterations behind its own loads (run 18c: +2.4-5.5 % on the FA backward)
- columns split (FlashAttention-3's dQ): each consumer computes 64 of the 128 columns of dot4_dq over every sub-tile's rows (its own staged dsT_66 first, then the others' as each is stored: `twill_xs_ready`, handed back by `twill_xs_free`), so the partial it stores is the CTA's and the reducer adds one buffer without summing (run 107, by hand: the FA backward 8.8 % faster)
- shared memory: 165008 bytes planned of 232448; maxnreg 168
- per-tile tiles (k_c0_t0, k_c1_t1, v_c0_t0, v_c1_t1) loaded by the producer, the next tile's as soon as each consumer's loop is done, so they arrive during this tile's epilogue; a store after the loop reuses a loaded tile's buffer (no room for one of its own), so that tile is handed back only after its store
- pointer loads held across the iteration in a compact layout (the prefetched value is converted to its readers' layout where it is read; in theirs, each thread would hold a replicated copy): m_48 (partition 0: 1 register(s) per thread, not 16); Di_61 (partition 0: 1 register(s) per thread, not 16); m_48 (partition 1: 1 register(s) per thread, not 16); Di_61 (partition 1: 1 register(s) per thread, not 16)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L6 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[1, 1], order=[1, 0]))

@gluon.jit
def consumer_0(desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, q_44_buf, do_buf, dsT_66_st_t0, dv_56_st_t0, dv_56_st_t1, dsT_66_st_t1, twill_red, k_c0_t0_buf, v_c0_t0_buf, k_c1_t1_buf, v_c1_t1_buf, q_44_ready, q_44_empty, do_ready, do_empty, twill_xs_ready, twill_xs_free, twill_red_ready, twill_red_free, k_c0_t0_bar, k_c0_t0_free, v_c0_t0_bar, v_c0_t0_free, k_c1_t1_bar, k_c1_t1_free, v_c1_t1_bar, v_c1_t1_free):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_n = twill_pid0
        off_hz = twill_pid1
        offset_y = off_hz * N_CTX
        kv_y = pid_n * 128
        kv_y_28 = offset_y + kv_y
        mbarrier.wait(k_c0_t0_bar.index(0), (twill_tile // gl.num_programs(0)) & 1)
        mbarrier.wait(v_c0_t0_bar.index(0), (twill_tile // gl.num_programs(0)) & 1)
        qk_scale = sm_scale * 1.44269502
        offs_m = gl.arange(0, 64, layout=L1)
        row0 = gl.cast(off_hz, gl.int64)
        row0_31 = gl.cast(N_CTX, gl.int64)
        row0_32 = row0 * row0_31
        lse_base = LSE + row0_32
        delta_base = Delta + row0_32
        dq_base_33 = row0_32 * 128
        dq_base_34 = DQ + dq_base_33
        dq_offs_35 = gl.arange(0, 64, layout=L2)
        dq_offs_36 = gl.expand_dims(dq_offs_35, 1)
        dq_offs_37 = dq_offs_36 * 128
        dq_offs_38 = gl.arange(0, 128, layout=L3)
        dq_offs_39 = gl.expand_dims(dq_offs_38, 0)
        dq_offs_40 = dq_offs_37.broadcast_to([64, 128])
        dq_offs_41 = dq_offs_39.broadcast_to([64, 128])
        dq_offs_42 = dq_offs_40 + dq_offs_41
        twill_n = (N_CTX - 0 + 64 - 1) // 64
        dk_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        dv_58_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        m = lse_base + (0 + (0 - 0) * 64)  # load0_m: stage 0, partition 0 (group 0)
        m_46 = m  # load0_m: stage 0, partition 0 (group 0)
        m_47 = m_46 + offs_m  # load0_m: stage 0, partition 0 (group 0)
        m_48_t0 = gl.load(m_47)  # load0_m_s0: stage 0, partition 0 (group 0)
        Di = delta_base + (0 + (0 - 0) * 64)  # load1_Di: stage 0, partition 0 (group 0)
        Di_59 = Di  # load1_Di: stage 0, partition 0 (group 0)
        Di_60 = Di_59 + offs_m  # load1_Di: stage 0, partition 0 (group 0)
        Di_61_t0 = gl.load(Di_60)  # load1_Di_s0: stage 0, partition 0 (group 0)
        Di_60_p1 = Di_60
        Di_61_t0_p1 = Di_61_t0
        dk_t0_p1 = dk_t0
        dv_58_t0_p1 = dv_58_t0
        m_47_p1 = m_47
        m_48_t0_p1 = m_48_t0
        mbarrier.wait(do_ready.index((twill_base + 1 - 1) % 2), ((twill_base + 1 - 1) // 2) & 1)
        tok_dpT_62_t0 = warpgroup_mma(v_c0_t0_buf, do_buf.index((twill_base + 1 - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dpT_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(q_44_ready.index((twill_base + 1 - 1) % 2), ((twill_base + 1 - 1) // 2) & 1)
        tok_sT_49_t0 = warpgroup_mma(k_c0_t0_buf, q_44_buf.index((twill_base + 1 - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_sT_s0: stage 1, partition 0 (group 0)
        m = lse_base + (0 + (1 - 0) * 64)  # load0_m: stage 0, partition 0 (group 0)
        m_46 = m  # load0_m: stage 0, partition 0 (group 0)
        m_47 = m_46 + offs_m  # load0_m: stage 0, partition 0 (group 0)
        m_48 = gl.load(m_47_p1)  # load0_m: stage 1, partition 0 (group 0)
        m_48_t0 = gl.load(m_47)  # load0_m_s0: stage 0, partition 0 (group 0)
        m_48_cv = gl.convert_layout(m_48, L6)  # sfu0_pT: stage 1, partition 0 (group 0)
        pT_51 = gl.expand_dims(m_48_cv, 0)  # sfu0_pT: stage 1, partition 0 (group 0)
        dpT_62_t0, sT_49_t0 = warpgroup_mma_wait(0, deps=(tok_dpT_62_t0, tok_sT_49_t0,))
        pT_50_t0 = sT_49_t0 * qk_scale  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        m_48_t0_p1_cv = gl.convert_layout(m_48_t0_p1, L6)  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        pT_51_t0 = gl.expand_dims(m_48_t0_p1_cv, 0)  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        pT_52_t0 = pT_51_t0.broadcast_to([64, 64])  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        pT_53_t0 = pT_50_t0 - pT_52_t0  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        pT_54_t0 = gl.exp2(pT_53_t0)  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        Di = delta_base + (0 + (1 - 0) * 64)  # load1_Di: stage 0, partition 0 (group 0)
        Di_59 = Di  # load1_Di: stage 0, partition 0 (group 0)
        Di_60 = Di_59 + offs_m  # load1_Di: stage 0, partition 0 (group 0)
        Di_61_t0 = gl.load(Di_60)  # load1_Di_s0: stage 0, partition 0 (group 0)
        Di_61 = gl.load(Di_60_p1)  # load1_Di: stage 1, partition 0 (group 0)
        Di_61_cv = gl.convert_layout(Di_61, L6)  # elementwise0_dsT: stage 1, partition 0 (group 0)
        dsT = gl.expand_dims(Di_61_cv, 0)  # elementwise0_dsT: stage 1, partition 0 (group 0)
        Di_61_t0_p1_cv = gl.convert_layout(Di_61_t0_p1, L6)  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
        dsT_t0 = gl.expand_dims(Di_61_t0_p1_cv, 0)  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
        dsT_63_t0 = dsT_t0.broadcast_to([64, 64])  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
        dsT_64_t0 = dpT_62_t0 - dsT_63_t0  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
        dsT_65_t0 = pT_54_t0 * dsT_64_t0  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
        dsT_66_t0 = dsT_65_t0.to(gl.float16)  # convert1_dsT_s0: stage 1, partition 0 (group 0)
        dv_56_t0 = pT_54_t0.to(gl.float16)  # convert0_dv_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(twill_xs_free.index(0), ((twill_base + 1 - 1) & 1) ^ 1)
        dsT_66_st_t0.store(dsT_66_t0)  # dot4_dq_s0: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot4_dq_s0: stage 1, partition 0 (group 0)
        mbarrier.arrive(twill_xs_ready.index(0))
        tok_dq_69_t0 = warpgroup_mma(dsT_66_st_t0.permute((1, 0)), k_c0_t0_buf.slice(0, 64, dim=1), gl.full([64, 64], 0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot4_dq_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(twill_xs_ready.index(1), (twill_base + 1 - 1) & 1)
        tok_dq_69_t0 = warpgroup_mma(dsT_66_st_t1.permute((1, 0)), k_c1_t1_buf.slice(0, 64, dim=1), tok_dq_69_t0, is_async=True)  # dot4_dq_s0: stage 1, partition 0 (group 0)
        dv_56_st_t0.store(dv_56_t0)  # dot1_dv_s0: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot1_dv_s0: stage 1, partition 0 (group 0)
        tok_dv_58_t0 = warpgroup_mma(dv_56_st_t0, do_buf.index((twill_base + 1 - 1) % 2), dv_58_t0_p1, is_async=True)  # dot1_dv_s0: stage 1, partition 0 (group 0)
        tok_dk_t0 = warpgroup_mma(dsT_66_st_t0, q_44_buf.index((twill_base + 1 - 1) % 2), dk_t0_p1, is_async=True)  # dot3_dk_s0: stage 1, partition 0 (group 0)
        dq_69_t0 = warpgroup_mma_wait(2, deps=(tok_dq_69_t0,))
        mbarrier.arrive(twill_xs_free.index(1))
        v11_t0 = dq_69_t0 * sm_scale  # elementwise1_s0: stage 1, partition 0 (group 0)
        dv_58_t0, dk_t0 = warpgroup_mma_wait(2, deps=(tok_dv_58_t0, tok_dk_t0,))
        Di_60_p1 = Di_60
        Di_61_t0_p1 = Di_61_t0
        dk_t0_p1 = dk_t0
        dv_58_t0_p1 = dv_58_t0
        m_47_p1 = m_47
        m_48_t0_p1 = m_48_t0
        v11_t0_p1 = v11_t0
        for twill_b in range(2, twill_n):
            mbarrier.wait(do_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            tok_dpT_62_t0 = warpgroup_mma(v_c0_t0_buf, do_buf.index((twill_base + twill_b - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dpT_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(twill_red_free.index(0), ((twill_base + twill_b - 2) & 1) ^ 1)
            twill_red.slice(0, 64, dim=1).store(v11_t0_p1)  # store0_s0: stage 2, partition 0 (group 0)
            mbarrier.arrive(twill_red_ready.index(0))
            mbarrier.wait(q_44_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            tok_sT_49_t0 = warpgroup_mma(k_c0_t0_buf, q_44_buf.index((twill_base + twill_b - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_sT_s0: stage 1, partition 0 (group 0)
            m = lse_base + (0 + (twill_b - 0) * 64)  # load0_m: stage 0, partition 0 (group 0)
            m_46 = m  # load0_m: stage 0, partition 0 (group 0)
            m_47 = m_46 + offs_m  # load0_m: stage 0, partition 0 (group 0)
            m_48 = gl.load(m_47_p1)  # load0_m: stage 1, partition 0 (group 0)
            m_48_t0 = gl.load(m_47)  # load0_m_s0: stage 0, partition 0 (group 0)
            m_48_cv = gl.convert_layout(m_48, L6)  # sfu0_pT: stage 1, partition 0 (group 0)
            pT_51 = gl.expand_dims(m_48_cv, 0)  # sfu0_pT: stage 1, partition 0 (group 0)
            dv_58_t0_p1, dk_t0_p1, dpT_62_t0, sT_49_t0 = warpgroup_mma_wait(0, deps=(dv_58_t0_p1, dk_t0_p1, tok_dpT_62_t0, tok_sT_49_t0,))
            mbarrier.arrive(do_empty.index((twill_base + twill_b - 1 - 1) % 2))
            mbarrier.arrive(q_44_empty.index((twill_base + twill_b - 1 - 1) % 2))
            pT_50_t0 = sT_49_t0 * qk_scale  # sfu0_pT_s0: stage 1, partition 0 (group 0)
            m_48_t0_p1_cv = gl.convert_layout(m_48_t0_p1, L6)  # sfu0_pT_s0: stage 1, partition 0 (group 0)
            pT_51_t0 = gl.expand_dims(m_48_t0_p1_cv, 0)  # sfu0_pT_s0: stage 1, partition 0 (group 0)
            pT_52_t0 = pT_51_t0.broadcast_to([64, 64])  # sfu0_pT_s0: stage 1, partition 0 (group 0)
            pT_53_t0 = pT_50_t0 - pT_52_t0  # sfu0_pT_s0: stage 1, partition 0 (group 0)
            pT_54_t0 = gl.exp2(pT_53_t0)  # sfu0_pT_s0: stage 1, partition 0 (group 0)
            Di = delta_base + (0 + (twill_b - 0) * 64)  # load1_Di: stage 0, partition 0 (group 0)
            Di_59 = Di  # load1_Di: stage 0, partition 0 (group 0)
            Di_60 = Di_59 + offs_m  # load1_Di: stage 0, partition 0 (group 0)
            Di_61_t0 = gl.load(Di_60)  # load1_Di_s0: stage 0, partition 0 (group 0)
            Di_61 = gl.load(Di_60_p1)  # load1_Di: stage 1, partition 0 (group 0)
            Di_61_cv = gl.convert_layout(Di_61, L6)  # elementwise0_dsT: stage 1, partition 0 (group 0)
            dsT = gl.expand_dims(Di_61_cv, 0)  # elementwise0_dsT: stage 1, partition 0 (group 0)
            Di_61_t0_p1_cv = gl.convert_layout(Di_61_t0_p1, L6)  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
            dsT_t0 = gl.expand_dims(Di_61_t0_p1_cv, 0)  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
            dsT_63_t0 = dsT_t0.broadcast_to([64, 64])  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
            dsT_64_t0 = dpT_62_t0 - dsT_63_t0  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
            dsT_65_t0 = pT_54_t0 * dsT_64_t0  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
            dsT_66_t0 = dsT_65_t0.to(gl.float16)  # convert1_dsT_s0: stage 1, partition 0 (group 0)
            dv_56_t0 = pT_54_t0.to(gl.float16)  # convert0_dv_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(twill_xs_free.index(0), ((twill_base + twill_b - 1) & 1) ^ 1)
            dsT_66_st_t0.store(dsT_66_t0)  # dot4_dq_s0: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot4_dq_s0: stage 1, partition 0 (group 0)
            mbarrier.arrive(twill_xs_ready.index(0))
            tok_dq_69_t0 = warpgroup_mma(dsT_66_st_t0.permute((1, 0)), k_c0_t0_buf.slice(0, 64, dim=1), gl.full([64, 64], 0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot4_dq_s0: stage 1, partition 0 (group 0)
            mbarrier.wait(twill_xs_ready.index(1), (twill_base + twill_b - 1) & 1)
            tok_dq_69_t0 = warpgroup_mma(dsT_66_st_t1.permute((1, 0)), k_c1_t1_buf.slice(0, 64, dim=1), tok_dq_69_t0, is_async=True)  # dot4_dq_s0: stage 1, partition 0 (group 0)
            dv_56_st_t0.store(dv_56_t0)  # dot1_dv_s0: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot1_dv_s0: stage 1, partition 0 (group 0)
            tok_dv_58_t0 = warpgroup_mma(dv_56_st_t0, do_buf.index((twill_base + twill_b - 1) % 2), dv_58_t0_p1, is_async=True)  # dot1_dv_s0: stage 1, partition 0 (group 0)
            tok_dk_t0 = warpgroup_mma(dsT_66_st_t0, q_44_buf.index((twill_base + twill_b - 1) % 2), dk_t0_p1, is_async=True)  # dot3_dk_s0: stage 1, partition 0 (group 0)
            dq_69_t0 = warpgroup_mma_wait(2, deps=(tok_dq_69_t0,))
            mbarrier.arrive(twill_xs_free.index(1))
            v11_t0 = dq_69_t0 * sm_scale  # elementwise1_s0: stage 1, partition 0 (group 0)
            dv_58_t0, dk_t0 = warpgroup_mma_wait(2, deps=(tok_dv_58_t0, tok_dk_t0,))
            Di_60_p1 = Di_60
            Di_61_t0_p1 = Di_61_t0
            dk_t0_p1 = dk_t0
            dv_58_t0_p1 = dv_58_t0
            m_47_p1 = m_47
            m_48_t0_p1 = m_48_t0
            v11_t0_p1 = v11_t0
        mbarrier.wait(do_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        tok_dpT_62_t0 = warpgroup_mma(v_c0_t0_buf, do_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dpT_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(twill_red_free.index(0), ((twill_base + (twill_n - 1 + 1) - 2) & 1) ^ 1)
        twill_red.slice(0, 64, dim=1).store(v11_t0_p1)  # store0_s0: stage 2, partition 0 (group 0)
        mbarrier.arrive(twill_red_ready.index(0))
        mbarrier.wait(q_44_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        tok_sT_49_t0 = warpgroup_mma(k_c0_t0_buf, q_44_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_sT_s0: stage 1, partition 0 (group 0)
        m_48 = gl.load(m_47_p1)  # load0_m: stage 1, partition 0 (group 0)
        m_48_cv = gl.convert_layout(m_48, L6)  # sfu0_pT: stage 1, partition 0 (group 0)
        pT_51 = gl.expand_dims(m_48_cv, 0)  # sfu0_pT: stage 1, partition 0 (group 0)
        dv_58_t0_p1, dk_t0_p1, dpT_62_t0, sT_49_t0 = warpgroup_mma_wait(0, deps=(dv_58_t0_p1, dk_t0_p1, tok_dpT_62_t0, tok_sT_49_t0,))
        mbarrier.arrive(do_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 2))
        mbarrier.arrive(q_44_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 2))
        pT_50_t0 = sT_49_t0 * qk_scale  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        m_48_t0_p1_cv = gl.convert_layout(m_48_t0_p1, L6)  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        pT_51_t0 = gl.expand_dims(m_48_t0_p1_cv, 0)  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        pT_52_t0 = pT_51_t0.broadcast_to([64, 64])  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        pT_53_t0 = pT_50_t0 - pT_52_t0  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        pT_54_t0 = gl.exp2(pT_53_t0)  # sfu0_pT_s0: stage 1, partition 0 (group 0)
        Di_61 = gl.load(Di_60_p1)  # load1_Di: stage 1, partition 0 (group 0)
        Di_61_cv = gl.convert_layout(Di_61, L6)  # elementwise0_dsT: stage 1, partition 0 (group 0)
        dsT = gl.expand_dims(Di_61_cv, 0)  # elementwise0_dsT: stage 1, partition 0 (group 0)
        Di_61_t0_p1_cv = gl.convert_layout(Di_61_t0_p1, L6)  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
        dsT_t0 = gl.expand_dims(Di_61_t0_p1_cv, 0)  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
        dsT_63_t0 = dsT_t0.broadcast_to([64, 64])  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
        dsT_64_t0 = dpT_62_t0 - dsT_63_t0  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
        dsT_65_t0 = pT_54_t0 * dsT_64_t0  # elementwise0_dsT_s0: stage 1, partition 0 (group 0)
        dsT_66_t0 = dsT_65_t0.to(gl.float16)  # convert1_dsT_s0: stage 1, partition 0 (group 0)
        dv_56_t0 = pT_54_t0.to(gl.float16)  # convert0_dv_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(twill_xs_free.index(0), ((twill_base + (twill_n - 1 + 1) - 1) & 1) ^ 1)
        dsT_66_st_t0.store(dsT_66_t0)  # dot4_dq_s0: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot4_dq_s0: stage 1, partition 0 (group 0)
        mbarrier.arrive(twill_xs_ready.index(0))
        tok_dq_69_t0 = warpgroup_mma(dsT_66_st_t0.permute((1, 0)), k_c0_t0_buf.slice(0, 64, dim=1), gl.full([64, 64], 0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot4_dq_s0: stage 1, partition 0 (group 0)
        mbarrier.wait(twill_xs_ready.index(1), (twill_base + (twill_n - 1 + 1) - 1) & 1)
        tok_dq_69_t0 = warpgroup_mma(dsT_66_st_t1.permute((1, 0)), k_c1_t1_buf.slice(0, 64, dim=1), tok_dq_69_t0, is_async=True)  # dot4_dq_s0: stage 1, partition 0 (group 0)
        dv_56_st_t0.store(dv_56_t0)  # dot1_dv_s0: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot1_dv_s0: stage 1, partition 0 (group 0)
        tok_dv_58_t0 = warpgroup_mma(dv_56_st_t0, do_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), dv_58_t0_p1, is_async=True)  # dot1_dv_s0: stage 1, partition 0 (group 0)
        tok_dk_t0 = warpgroup_mma(dsT_66_st_t0, q_44_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), dk_t0_p1, is_async=True)  # dot3_dk_s0: stage 1, partition 0 (group 0)
        dq_69_t0 = warpgroup_mma_wait(2, deps=(tok_dq_69_t0,))
        mbarrier.arrive(twill_xs_free.index(1))
        v11_t0 = dq_69_t0 * sm_scale  # elementwise1_s0: stage 1, partition 0 (group 0)
        dv_58_t0, dk_t0 = warpgroup_mma_wait(2, deps=(tok_dv_58_t0, tok_dk_t0,))
        Di_60_p1 = Di_60
        Di_61_t0_p1 = Di_61_t0
        dk_t0_p2 = dk_t0_p1
        dk_t0_p1 = dk_t0
        dv_58_t0_p2 = dv_58_t0_p1
        dv_58_t0_p1 = dv_58_t0
        m_47_p1 = m_47
        m_48_t0_p1 = m_48_t0
        v11_t0_p1 = v11_t0
        mbarrier.wait(twill_red_free.index(0), ((twill_base + (twill_n - 1 + 2) - 2) & 1) ^ 1)
        twill_red.slice(0, 64, dim=1).store(v11_t0_p1)  # store0_s0: stage 2, partition 0 (group 0)
        mbarrier.arrive(twill_red_ready.index(0))
        dv_58_t0_p1, dk_t0_p1 = warpgroup_mma_wait(0, deps=(dv_58_t0_p1, dk_t0_p1,))
        mbarrier.arrive(do_empty.index((twill_base + (twill_n - 1 + 2) - 1 - 1) % 2))
        mbarrier.arrive(q_44_empty.index((twill_base + (twill_n - 1 + 2) - 1 - 1) % 2))
        Di_60_p1 = Di_60
        Di_61_t0_p1 = Di_61_t0
        dk_t0_p2 = dk_t0_p1
        dk_t0_p1 = dk_t0
        dv_58_t0_p2 = dv_58_t0_p1
        dv_58_t0_p1 = dv_58_t0
        m_47_p1 = m_47
        m_48_t0_p1 = m_48_t0
        v11_t0_p1 = v11_t0
        mbarrier.wait(twill_xs_free.index(0), (twill_base + twill_n - 1) & 1)
        v_c0_t0_buf._keep_alive()
        do_buf._keep_alive()
        k_c0_t0_buf._keep_alive()
        q_44_buf._keep_alive()
        dsT_66_st_t0._keep_alive()
        k_c1_t1_buf._keep_alive()
        dv_56_st_t0._keep_alive()
        v2_t0 = dk_t0_p2 * sm_scale
        v3_t0 = v2_t0.to(gl.float16)
        v4_t0 = gl.convert_layout(v3_t0, L0)
        k_c0_t0_buf.store(v3_t0)
        fence_async_shared()
        tma.async_copy_shared_to_global(desc_dk, [kv_y_28 + 0, 0], k_c0_t0_buf)
        tma.store_wait(0)
        v5_t0 = dv_58_t0_p2.to(gl.float16)
        v6_t0 = gl.convert_layout(v5_t0, L0)
        v_c0_t0_buf.store(v5_t0)
        fence_async_shared()
        tma.async_copy_shared_to_global(desc_dv, [kv_y_28 + 0, 0], v_c0_t0_buf)
        tma.store_wait(0)
        mbarrier.arrive(k_c0_t0_free.index(0))
        mbarrier.arrive(v_c0_t0_free.index(0))
        twill_base += twill_n

@gluon.jit
def consumer_1(desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, q_44_buf, do_buf, dsT_66_st_t0, dv_56_st_t0, dv_56_st_t1, dsT_66_st_t1, twill_red, k_c0_t0_buf, v_c0_t0_buf, k_c1_t1_buf, v_c1_t1_buf, q_44_ready, q_44_empty, do_ready, do_empty, twill_xs_ready, twill_xs_free, twill_red_ready, twill_red_free, k_c0_t0_bar, k_c0_t0_free, v_c0_t0_bar, v_c0_t0_free, k_c1_t1_bar, k_c1_t1_free, v_c1_t1_bar, v_c1_t1_free):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_n = twill_pid0
        off_hz = twill_pid1
        offset_y = off_hz * N_CTX
        kv_y = pid_n * 128
        kv_y_28 = offset_y + kv_y
        mbarrier.wait(k_c1_t1_bar.index(0), (twill_tile // gl.num_programs(0)) & 1)
        mbarrier.wait(v_c1_t1_bar.index(0), (twill_tile // gl.num_programs(0)) & 1)
        qk_scale = sm_scale * 1.44269502
        offs_m = gl.arange(0, 64, layout=L1)
        row0 = gl.cast(off_hz, gl.int64)
        row0_31 = gl.cast(N_CTX, gl.int64)
        row0_32 = row0 * row0_31
        lse_base = LSE + row0_32
        delta_base = Delta + row0_32
        dq_base_33 = row0_32 * 128
        dq_base_34 = DQ + dq_base_33
        dq_offs_35 = gl.arange(0, 64, layout=L2)
        dq_offs_36 = gl.expand_dims(dq_offs_35, 1)
        dq_offs_37 = dq_offs_36 * 128
        dq_offs_38 = gl.arange(0, 128, layout=L3)
        dq_offs_39 = gl.expand_dims(dq_offs_38, 0)
        dq_offs_40 = dq_offs_37.broadcast_to([64, 128])
        dq_offs_41 = dq_offs_39.broadcast_to([64, 128])
        dq_offs_42 = dq_offs_40 + dq_offs_41
        twill_n = (N_CTX - 0 + 64 - 1) // 64
        dk_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        dv_58_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        m = lse_base + (0 + (0 - 0) * 64)  # load0_m: stage 0, partition 1 (group 1)
        m_46 = m  # load0_m: stage 0, partition 1 (group 1)
        m_47 = m_46 + offs_m  # load0_m: stage 0, partition 1 (group 1)
        m_48_t1 = gl.load(m_47)  # load0_m_s1: stage 0, partition 1 (group 1)
        Di = delta_base + (0 + (0 - 0) * 64)  # load1_Di: stage 0, partition 1 (group 1)
        Di_59 = Di  # load1_Di: stage 0, partition 1 (group 1)
        Di_60 = Di_59 + offs_m  # load1_Di: stage 0, partition 1 (group 1)
        Di_61_t1 = gl.load(Di_60)  # load1_Di_s1: stage 0, partition 1 (group 1)
        Di_60_p1 = Di_60
        Di_61_t1_p1 = Di_61_t1
        dk_t1_p1 = dk_t1
        dv_58_t1_p1 = dv_58_t1
        m_47_p1 = m_47
        m_48_t1_p1 = m_48_t1
        mbarrier.wait(q_44_ready.index((twill_base + 1 - 1) % 2), ((twill_base + 1 - 1) // 2) & 1)
        tok_sT_49_t1 = warpgroup_mma(k_c1_t1_buf, q_44_buf.index((twill_base + 1 - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_sT_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(do_ready.index((twill_base + 1 - 1) % 2), ((twill_base + 1 - 1) // 2) & 1)
        tok_dpT_62_t1 = warpgroup_mma(v_c1_t1_buf, do_buf.index((twill_base + 1 - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dpT_s1: stage 1, partition 1 (group 1)
        m = lse_base + (0 + (1 - 0) * 64)  # load0_m: stage 0, partition 1 (group 1)
        m_46 = m  # load0_m: stage 0, partition 1 (group 1)
        m_47 = m_46 + offs_m  # load0_m: stage 0, partition 1 (group 1)
        m_48 = gl.load(m_47_p1)  # load0_m: stage 1, partition 1 (group 1)
        m_48_t1 = gl.load(m_47)  # load0_m_s1: stage 0, partition 1 (group 1)
        m_48_cv = gl.convert_layout(m_48, L6)  # sfu0_pT: stage 1, partition 1 (group 1)
        pT_51 = gl.expand_dims(m_48_cv, 0)  # sfu0_pT: stage 1, partition 1 (group 1)
        sT_49_t1 = warpgroup_mma_wait(1, deps=(tok_sT_49_t1,))
        pT_50_t1 = sT_49_t1 * qk_scale  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        m_48_t1_p1_cv = gl.convert_layout(m_48_t1_p1, L6)  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        pT_51_t1 = gl.expand_dims(m_48_t1_p1_cv, 0)  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        pT_52_t1 = pT_51_t1.broadcast_to([64, 64])  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        pT_53_t1 = pT_50_t1 - pT_52_t1  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        pT_54_t1 = gl.exp2(pT_53_t1)  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        Di = delta_base + (0 + (1 - 0) * 64)  # load1_Di: stage 0, partition 1 (group 1)
        Di_59 = Di  # load1_Di: stage 0, partition 1 (group 1)
        Di_60 = Di_59 + offs_m  # load1_Di: stage 0, partition 1 (group 1)
        Di_61_t1 = gl.load(Di_60)  # load1_Di_s1: stage 0, partition 1 (group 1)
        Di_61 = gl.load(Di_60_p1)  # load1_Di: stage 1, partition 1 (group 1)
        Di_61_cv = gl.convert_layout(Di_61, L6)  # elementwise0_dsT: stage 1, partition 1 (group 1)
        dsT = gl.expand_dims(Di_61_cv, 0)  # elementwise0_dsT: stage 1, partition 1 (group 1)
        Di_61_t1_p1_cv = gl.convert_layout(Di_61_t1_p1, L6)  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
        dsT_t1 = gl.expand_dims(Di_61_t1_p1_cv, 0)  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
        dsT_63_t1 = dsT_t1.broadcast_to([64, 64])  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
        dpT_62_t1 = warpgroup_mma_wait(0, deps=(tok_dpT_62_t1,))
        dsT_64_t1 = dpT_62_t1 - dsT_63_t1  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
        dsT_65_t1 = pT_54_t1 * dsT_64_t1  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
        dsT_66_t1 = dsT_65_t1.to(gl.float16)  # convert1_dsT_s1: stage 1, partition 1 (group 1)
        dv_56_t1 = pT_54_t1.to(gl.float16)  # convert0_dv_s1: stage 1, partition 1 (group 1)
        dv_56_st_t1.store(dv_56_t1)  # dot1_dv_s1: stage 1, partition 1 (group 1)
        fence_async_shared()  # dot1_dv_s1: stage 1, partition 1 (group 1)
        tok_dv_58_t1 = warpgroup_mma(dv_56_st_t1, do_buf.index((twill_base + 1 - 1) % 2), dv_58_t1_p1, is_async=True)  # dot1_dv_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(twill_xs_free.index(1), ((twill_base + 1 - 1) & 1) ^ 1)
        dsT_66_st_t1.store(dsT_66_t1)  # dot4_dq_s1: stage 1, partition 1 (group 1)
        fence_async_shared()  # dot4_dq_s1: stage 1, partition 1 (group 1)
        mbarrier.arrive(twill_xs_ready.index(1))
        tok_dq_69_t1 = warpgroup_mma(dsT_66_st_t1.permute((1, 0)), k_c1_t1_buf.slice(64, 64, dim=1), gl.full([64, 64], 0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot4_dq_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(twill_xs_ready.index(0), (twill_base + 1 - 1) & 1)
        tok_dq_69_t1 = warpgroup_mma(dsT_66_st_t0.permute((1, 0)), k_c0_t0_buf.slice(64, 64, dim=1), tok_dq_69_t1, is_async=True)  # dot4_dq_s1: stage 1, partition 1 (group 1)
        dv_58_t1, dq_69_t1 = warpgroup_mma_wait(0, deps=(tok_dv_58_t1, tok_dq_69_t1,))
        mbarrier.arrive(twill_xs_free.index(0))
        mbarrier.arrive(do_empty.index((twill_base + 1 - 1) % 2))
        v11_t1 = dq_69_t1 * sm_scale  # elementwise1_s1: stage 1, partition 1 (group 1)
        tok_dk_t1 = warpgroup_mma(dsT_66_st_t1, q_44_buf.index((twill_base + 1 - 1) % 2), dk_t1_p1, is_async=True)  # dot3_dk_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(twill_red_free.index(0), ((twill_base + 1 - 1) & 1) ^ 1)
        twill_red.slice(64, 64, dim=1).store(v11_t1)  # store0_s1: stage 1, partition 1 (group 1)
        mbarrier.arrive(twill_red_ready.index(0))
        dk_t1 = warpgroup_mma_wait(1, deps=(tok_dk_t1,))
        Di_60_p1 = Di_60
        Di_61_t1_p1 = Di_61_t1
        dk_t1_p1 = dk_t1
        dv_58_t1_p1 = dv_58_t1
        m_47_p1 = m_47
        m_48_t1_p1 = m_48_t1
        for twill_b in range(2, twill_n):
            mbarrier.wait(q_44_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            tok_sT_49_t1 = warpgroup_mma(k_c1_t1_buf, q_44_buf.index((twill_base + twill_b - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_sT_s1: stage 1, partition 1 (group 1)
            mbarrier.wait(do_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            tok_dpT_62_t1 = warpgroup_mma(v_c1_t1_buf, do_buf.index((twill_base + twill_b - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dpT_s1: stage 1, partition 1 (group 1)
            m = lse_base + (0 + (twill_b - 0) * 64)  # load0_m: stage 0, partition 1 (group 1)
            m_46 = m  # load0_m: stage 0, partition 1 (group 1)
            m_47 = m_46 + offs_m  # load0_m: stage 0, partition 1 (group 1)
            m_48 = gl.load(m_47_p1)  # load0_m: stage 1, partition 1 (group 1)
            m_48_t1 = gl.load(m_47)  # load0_m_s1: stage 0, partition 1 (group 1)
            m_48_cv = gl.convert_layout(m_48, L6)  # sfu0_pT: stage 1, partition 1 (group 1)
            pT_51 = gl.expand_dims(m_48_cv, 0)  # sfu0_pT: stage 1, partition 1 (group 1)
            dk_t1_p1, sT_49_t1 = warpgroup_mma_wait(1, deps=(dk_t1_p1, tok_sT_49_t1,))
            mbarrier.arrive(q_44_empty.index((twill_base + twill_b - 1 - 1) % 2))
            pT_50_t1 = sT_49_t1 * qk_scale  # sfu0_pT_s1: stage 1, partition 1 (group 1)
            m_48_t1_p1_cv = gl.convert_layout(m_48_t1_p1, L6)  # sfu0_pT_s1: stage 1, partition 1 (group 1)
            pT_51_t1 = gl.expand_dims(m_48_t1_p1_cv, 0)  # sfu0_pT_s1: stage 1, partition 1 (group 1)
            pT_52_t1 = pT_51_t1.broadcast_to([64, 64])  # sfu0_pT_s1: stage 1, partition 1 (group 1)
            pT_53_t1 = pT_50_t1 - pT_52_t1  # sfu0_pT_s1: stage 1, partition 1 (group 1)
            pT_54_t1 = gl.exp2(pT_53_t1)  # sfu0_pT_s1: stage 1, partition 1 (group 1)
            Di = delta_base + (0 + (twill_b - 0) * 64)  # load1_Di: stage 0, partition 1 (group 1)
            Di_59 = Di  # load1_Di: stage 0, partition 1 (group 1)
            Di_60 = Di_59 + offs_m  # load1_Di: stage 0, partition 1 (group 1)
            Di_61_t1 = gl.load(Di_60)  # load1_Di_s1: stage 0, partition 1 (group 1)
            Di_61 = gl.load(Di_60_p1)  # load1_Di: stage 1, partition 1 (group 1)
            Di_61_cv = gl.convert_layout(Di_61, L6)  # elementwise0_dsT: stage 1, partition 1 (group 1)
            dsT = gl.expand_dims(Di_61_cv, 0)  # elementwise0_dsT: stage 1, partition 1 (group 1)
            Di_61_t1_p1_cv = gl.convert_layout(Di_61_t1_p1, L6)  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
            dsT_t1 = gl.expand_dims(Di_61_t1_p1_cv, 0)  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
            dsT_63_t1 = dsT_t1.broadcast_to([64, 64])  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
            dpT_62_t1 = warpgroup_mma_wait(0, deps=(tok_dpT_62_t1,))
            dsT_64_t1 = dpT_62_t1 - dsT_63_t1  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
            dsT_65_t1 = pT_54_t1 * dsT_64_t1  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
            dsT_66_t1 = dsT_65_t1.to(gl.float16)  # convert1_dsT_s1: stage 1, partition 1 (group 1)
            dv_56_t1 = pT_54_t1.to(gl.float16)  # convert0_dv_s1: stage 1, partition 1 (group 1)
            dv_56_st_t1.store(dv_56_t1)  # dot1_dv_s1: stage 1, partition 1 (group 1)
            fence_async_shared()  # dot1_dv_s1: stage 1, partition 1 (group 1)
            tok_dv_58_t1 = warpgroup_mma(dv_56_st_t1, do_buf.index((twill_base + twill_b - 1) % 2), dv_58_t1_p1, is_async=True)  # dot1_dv_s1: stage 1, partition 1 (group 1)
            mbarrier.wait(twill_xs_free.index(1), ((twill_base + twill_b - 1) & 1) ^ 1)
            dsT_66_st_t1.store(dsT_66_t1)  # dot4_dq_s1: stage 1, partition 1 (group 1)
            fence_async_shared()  # dot4_dq_s1: stage 1, partition 1 (group 1)
            mbarrier.arrive(twill_xs_ready.index(1))
            tok_dq_69_t1 = warpgroup_mma(dsT_66_st_t1.permute((1, 0)), k_c1_t1_buf.slice(64, 64, dim=1), gl.full([64, 64], 0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot4_dq_s1: stage 1, partition 1 (group 1)
            mbarrier.wait(twill_xs_ready.index(0), (twill_base + twill_b - 1) & 1)
            tok_dq_69_t1 = warpgroup_mma(dsT_66_st_t0.permute((1, 0)), k_c0_t0_buf.slice(64, 64, dim=1), tok_dq_69_t1, is_async=True)  # dot4_dq_s1: stage 1, partition 1 (group 1)
            dv_58_t1, dq_69_t1 = warpgroup_mma_wait(0, deps=(tok_dv_58_t1, tok_dq_69_t1,))
            mbarrier.arrive(twill_xs_free.index(0))
            mbarrier.arrive(do_empty.index((twill_base + twill_b - 1) % 2))
            v11_t1 = dq_69_t1 * sm_scale  # elementwise1_s1: stage 1, partition 1 (group 1)
            tok_dk_t1 = warpgroup_mma(dsT_66_st_t1, q_44_buf.index((twill_base + twill_b - 1) % 2), dk_t1_p1, is_async=True)  # dot3_dk_s1: stage 1, partition 1 (group 1)
            mbarrier.wait(twill_red_free.index(0), ((twill_base + twill_b - 1) & 1) ^ 1)
            twill_red.slice(64, 64, dim=1).store(v11_t1)  # store0_s1: stage 1, partition 1 (group 1)
            mbarrier.arrive(twill_red_ready.index(0))
            dk_t1 = warpgroup_mma_wait(1, deps=(tok_dk_t1,))
            Di_60_p1 = Di_60
            Di_61_t1_p1 = Di_61_t1
            dk_t1_p1 = dk_t1
            dv_58_t1_p1 = dv_58_t1
            m_47_p1 = m_47
            m_48_t1_p1 = m_48_t1
        mbarrier.wait(q_44_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        tok_sT_49_t1 = warpgroup_mma(k_c1_t1_buf, q_44_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_sT_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(do_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        tok_dpT_62_t1 = warpgroup_mma(v_c1_t1_buf, do_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot2_dpT_s1: stage 1, partition 1 (group 1)
        m_48 = gl.load(m_47_p1)  # load0_m: stage 1, partition 1 (group 1)
        m_48_cv = gl.convert_layout(m_48, L6)  # sfu0_pT: stage 1, partition 1 (group 1)
        pT_51 = gl.expand_dims(m_48_cv, 0)  # sfu0_pT: stage 1, partition 1 (group 1)
        dk_t1_p1, sT_49_t1 = warpgroup_mma_wait(1, deps=(dk_t1_p1, tok_sT_49_t1,))
        mbarrier.arrive(q_44_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 2))
        pT_50_t1 = sT_49_t1 * qk_scale  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        m_48_t1_p1_cv = gl.convert_layout(m_48_t1_p1, L6)  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        pT_51_t1 = gl.expand_dims(m_48_t1_p1_cv, 0)  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        pT_52_t1 = pT_51_t1.broadcast_to([64, 64])  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        pT_53_t1 = pT_50_t1 - pT_52_t1  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        pT_54_t1 = gl.exp2(pT_53_t1)  # sfu0_pT_s1: stage 1, partition 1 (group 1)
        Di_61 = gl.load(Di_60_p1)  # load1_Di: stage 1, partition 1 (group 1)
        Di_61_cv = gl.convert_layout(Di_61, L6)  # elementwise0_dsT: stage 1, partition 1 (group 1)
        dsT = gl.expand_dims(Di_61_cv, 0)  # elementwise0_dsT: stage 1, partition 1 (group 1)
        Di_61_t1_p1_cv = gl.convert_layout(Di_61_t1_p1, L6)  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
        dsT_t1 = gl.expand_dims(Di_61_t1_p1_cv, 0)  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
        dsT_63_t1 = dsT_t1.broadcast_to([64, 64])  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
        dpT_62_t1 = warpgroup_mma_wait(0, deps=(tok_dpT_62_t1,))
        dsT_64_t1 = dpT_62_t1 - dsT_63_t1  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
        dsT_65_t1 = pT_54_t1 * dsT_64_t1  # elementwise0_dsT_s1: stage 1, partition 1 (group 1)
        dsT_66_t1 = dsT_65_t1.to(gl.float16)  # convert1_dsT_s1: stage 1, partition 1 (group 1)
        dv_56_t1 = pT_54_t1.to(gl.float16)  # convert0_dv_s1: stage 1, partition 1 (group 1)
        dv_56_st_t1.store(dv_56_t1)  # dot1_dv_s1: stage 1, partition 1 (group 1)
        fence_async_shared()  # dot1_dv_s1: stage 1, partition 1 (group 1)
        tok_dv_58_t1 = warpgroup_mma(dv_56_st_t1, do_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), dv_58_t1_p1, is_async=True)  # dot1_dv_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(twill_xs_free.index(1), ((twill_base + (twill_n - 1 + 1) - 1) & 1) ^ 1)
        dsT_66_st_t1.store(dsT_66_t1)  # dot4_dq_s1: stage 1, partition 1 (group 1)
        fence_async_shared()  # dot4_dq_s1: stage 1, partition 1 (group 1)
        mbarrier.arrive(twill_xs_ready.index(1))
        tok_dq_69_t1 = warpgroup_mma(dsT_66_st_t1.permute((1, 0)), k_c1_t1_buf.slice(64, 64, dim=1), gl.full([64, 64], 0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot4_dq_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(twill_xs_ready.index(0), (twill_base + (twill_n - 1 + 1) - 1) & 1)
        tok_dq_69_t1 = warpgroup_mma(dsT_66_st_t0.permute((1, 0)), k_c0_t0_buf.slice(64, 64, dim=1), tok_dq_69_t1, is_async=True)  # dot4_dq_s1: stage 1, partition 1 (group 1)
        dv_58_t1, dq_69_t1 = warpgroup_mma_wait(0, deps=(tok_dv_58_t1, tok_dq_69_t1,))
        mbarrier.arrive(twill_xs_free.index(0))
        mbarrier.arrive(do_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
        v11_t1 = dq_69_t1 * sm_scale  # elementwise1_s1: stage 1, partition 1 (group 1)
        tok_dk_t1 = warpgroup_mma(dsT_66_st_t1, q_44_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), dk_t1_p1, is_async=True)  # dot3_dk_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(twill_red_free.index(0), ((twill_base + (twill_n - 1 + 1) - 1) & 1) ^ 1)
        twill_red.slice(64, 64, dim=1).store(v11_t1)  # store0_s1: stage 1, partition 1 (group 1)
        mbarrier.arrive(twill_red_ready.index(0))
        dk_t1 = warpgroup_mma_wait(1, deps=(tok_dk_t1,))
        Di_60_p1 = Di_60
        Di_61_t1_p1 = Di_61_t1
        dk_t1_p2 = dk_t1_p1
        dk_t1_p1 = dk_t1
        dv_58_t1_p2 = dv_58_t1_p1
        dv_58_t1_p1 = dv_58_t1
        m_47_p1 = m_47
        m_48_t1_p1 = m_48_t1
        dk_t1_p1 = warpgroup_mma_wait(0, deps=(dk_t1_p1,))
        mbarrier.arrive(q_44_empty.index((twill_base + (twill_n - 1 + 2) - 1 - 1) % 2))
        Di_60_p1 = Di_60
        Di_61_t1_p1 = Di_61_t1
        dk_t1_p2 = dk_t1_p1
        dk_t1_p1 = dk_t1
        dv_58_t1_p2 = dv_58_t1_p1
        dv_58_t1_p1 = dv_58_t1
        m_47_p1 = m_47
        m_48_t1_p1 = m_48_t1
        mbarrier.wait(twill_xs_free.index(1), (twill_base + twill_n - 1) & 1)
        k_c1_t1_buf._keep_alive()
        q_44_buf._keep_alive()
        v_c1_t1_buf._keep_alive()
        do_buf._keep_alive()
        dv_56_st_t1._keep_alive()
        dsT_66_st_t1._keep_alive()
        k_c0_t0_buf._keep_alive()
        v2_t1 = dk_t1_p2 * sm_scale
        v3_t1 = v2_t1.to(gl.float16)
        v4_t1 = gl.convert_layout(v3_t1, L0)
        k_c1_t1_buf.store(v3_t1)
        fence_async_shared()
        tma.async_copy_shared_to_global(desc_dk, [kv_y_28 + 64, 0], k_c1_t1_buf)
        tma.store_wait(0)
        v5_t1 = dv_58_t1_p2.to(gl.float16)
        v6_t1 = gl.convert_layout(v5_t1, L0)
        v_c1_t1_buf.store(v5_t1)
        fence_async_shared()
        tma.async_copy_shared_to_global(desc_dv, [kv_y_28 + 64, 0], v_c1_t1_buf)
        tma.store_wait(0)
        mbarrier.arrive(k_c1_t1_free.index(0))
        mbarrier.arrive(v_c1_t1_free.index(0))
        twill_base += twill_n

@gluon.jit
def producer_2(desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, q_44_buf, do_buf, dsT_66_st_t0, dv_56_st_t0, dv_56_st_t1, dsT_66_st_t1, twill_red, k_c0_t0_buf, v_c0_t0_buf, k_c1_t1_buf, v_c1_t1_buf, q_44_ready, q_44_empty, do_ready, do_empty, twill_xs_ready, twill_xs_free, twill_red_ready, twill_red_free, k_c0_t0_bar, k_c0_t0_free, v_c0_t0_bar, v_c0_t0_free, k_c1_t1_bar, k_c1_t1_free, v_c1_t1_bar, v_c1_t1_free):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_n = twill_pid0
        off_hz = twill_pid1
        offset_y = off_hz * N_CTX
        kv_y = pid_n * 128
        kv_y_28 = offset_y + kv_y
        row0 = gl.cast(off_hz, gl.int64)
        row0_31 = gl.cast(N_CTX, gl.int64)
        row0_32 = row0 * row0_31
        dq_base_33 = row0_32 * 128
        dq_base_34 = DQ + dq_base_33
        mbarrier.wait(k_c0_t0_free.index(0), ((twill_tile // gl.num_programs(0)) & 1) ^ 1)
        mbarrier.expect(k_c0_t0_bar.index(0), desc_k.block_type.nbytes)
        tma.async_copy_global_to_shared(desc_k, [kv_y_28 + 0, 0], k_c0_t0_bar.index(0), k_c0_t0_buf)
        mbarrier.wait(v_c0_t0_free.index(0), ((twill_tile // gl.num_programs(0)) & 1) ^ 1)
        mbarrier.expect(v_c0_t0_bar.index(0), desc_v.block_type.nbytes)
        tma.async_copy_global_to_shared(desc_v, [kv_y_28 + 0, 0], v_c0_t0_bar.index(0), v_c0_t0_buf)
        mbarrier.wait(k_c1_t1_free.index(0), ((twill_tile // gl.num_programs(0)) & 1) ^ 1)
        mbarrier.expect(k_c1_t1_bar.index(0), desc_k.block_type.nbytes)
        tma.async_copy_global_to_shared(desc_k, [kv_y_28 + 64, 0], k_c1_t1_bar.index(0), k_c1_t1_buf)
        mbarrier.wait(v_c1_t1_free.index(0), ((twill_tile // gl.num_programs(0)) & 1) ^ 1)
        mbarrier.expect(v_c1_t1_bar.index(0), desc_v.block_type.nbytes)
        tma.async_copy_global_to_shared(desc_v, [kv_y_28 + 64, 0], v_c1_t1_bar.index(0), v_c1_t1_buf)
        twill_cols = gl.expand_dims(gl.arange(0, 128, layout=gl.SliceLayout(0, L7)), 0)
        for dv_43 in range(0, N_CTX, 64):
            twill_k = twill_base + (dv_43 - 0) // 64
            q = offset_y + dv_43
            mbarrier.wait(q_44_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            mbarrier.expect(q_44_ready.index(twill_k % 2), desc_q.block_type.nbytes)
            tma.async_copy_global_to_shared(desc_q, [q, 0], q_44_ready.index(twill_k % 2), q_44_buf.index(twill_k % 2))
            mbarrier.wait(do_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            mbarrier.expect(do_ready.index(twill_k % 2), desc_do.block_type.nbytes)
            tma.async_copy_global_to_shared(desc_do, [q, 0], do_ready.index(twill_k % 2), do_buf.index(twill_k % 2))
            if dv_43 >= 0 + 2 * 64:
                v7_lag = (dv_43 - 2 * 64) * 128
                v8_lag = dq_base_34 + v7_lag
                mbarrier.wait(twill_red_ready.index(0), (twill_k - 2) & 1)
                for twill_r in gl.static_range(32, 64):
                    gl.atomic_add(v8_lag + twill_r * 128 + twill_cols, twill_red.slice(twill_r, 1, dim=0).load(L7), sem='relaxed', scope='gpu')  # store0: stage 2, partition 2 (group 2)
                mbarrier.arrive(twill_red_free.index(0))
        twill_n = (N_CTX - 0 + 64 - 1) // 64
        for twill_j in range(gl.maximum(twill_n - 2, 0), twill_n):
            v7_tail = (0 + twill_j * 64) * 128
            v8_tail = dq_base_34 + v7_tail
            mbarrier.wait(twill_red_ready.index(0), (twill_base + twill_j) & 1)
            for twill_r in gl.static_range(32, 64):
                gl.atomic_add(v8_tail + twill_r * 128 + twill_cols, twill_red.slice(twill_r, 1, dim=0).load(L7), sem='relaxed', scope='gpu')  # store0: stage 2, partition 2 (group 2)
            mbarrier.arrive(twill_red_free.index(0))
        twill_base += (N_CTX - 0 + 64 - 1) // 64

@gluon.jit
def reducer_3(desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, q_44_buf, do_buf, dsT_66_st_t0, dv_56_st_t0, dv_56_st_t1, dsT_66_st_t1, twill_red, k_c0_t0_buf, v_c0_t0_buf, k_c1_t1_buf, v_c1_t1_buf, q_44_ready, q_44_empty, do_ready, do_empty, twill_xs_ready, twill_xs_free, twill_red_ready, twill_red_free, k_c0_t0_bar, k_c0_t0_free, v_c0_t0_bar, v_c0_t0_free, k_c1_t1_bar, k_c1_t1_free, v_c1_t1_bar, v_c1_t1_free):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        off_hz = twill_pid1
        row0 = gl.cast(off_hz, gl.int64)
        row0_31 = gl.cast(N_CTX, gl.int64)
        row0_32 = row0 * row0_31
        dq_base_33 = row0_32 * 128
        dq_base_34 = DQ + dq_base_33
        twill_cols = gl.expand_dims(gl.arange(0, 128, layout=gl.SliceLayout(0, L7)), 0)
        for dv_43 in range(0, N_CTX, 64):
            twill_k = twill_base + (dv_43 - 0) // 64
            v7 = dv_43 * 128
            v8 = dq_base_34 + v7
            mbarrier.wait(twill_red_ready.index(0), (twill_k) & 1)
            for twill_r in gl.static_range(0, 32):
                gl.atomic_add(v8 + twill_r * 128 + twill_cols, twill_red.slice(twill_r, 1, dim=0).load(L7), sem='relaxed', scope='gpu')  # store0: stage 0, partition 3 (group 2)
            mbarrier.arrive(twill_red_free.index(0))
        twill_base += (N_CTX - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2):
    q_44_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], desc_q.layout)
    do_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], desc_do.layout)
    dsT_66_st_t0 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    dv_56_st_t0 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    dv_56_st_t1 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    dsT_66_st_t1 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    twill_red = gl.allocate_shared_memory(gl.float32, [64, 128], gl.PaddedSharedLayout.with_identity_for([[128, 4]], [64, 128], [1, 0]))
    k_c0_t0_buf = gl.allocate_shared_memory(gl.float16, [64, 128], desc_k.layout)
    v_c0_t0_buf = gl.allocate_shared_memory(gl.float16, [64, 128], desc_v.layout)
    k_c1_t1_buf = gl.allocate_shared_memory(gl.float16, [64, 128], desc_k.layout)
    v_c1_t1_buf = gl.allocate_shared_memory(gl.float16, [64, 128], desc_v.layout)
    q_44_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(q_44_ready.index(i), count=1)
    q_44_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(q_44_empty.index(i), count=2)
    do_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(do_ready.index(i), count=1)
    do_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(do_empty.index(i), count=2)
    twill_xs_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(twill_xs_ready.index(i), count=1)
    twill_xs_free = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(twill_xs_free.index(i), count=1)
    twill_red_ready = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(twill_red_ready.index(i), count=2)
    twill_red_free = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(twill_red_free.index(i), count=2)
    k_c0_t0_bar = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(k_c0_t0_bar.index(i), count=1)
    k_c0_t0_free = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(k_c0_t0_free.index(i), count=1)
    v_c0_t0_bar = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(v_c0_t0_bar.index(i), count=1)
    v_c0_t0_free = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(v_c0_t0_free.index(i), count=1)
    k_c1_t1_bar = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(k_c1_t1_bar.index(i), count=1)
    k_c1_t1_free = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(k_c1_t1_free.index(i), count=1)
    v_c1_t1_bar = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(v_c1_t1_bar.index(i), count=1)
    v_c1_t1_free = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(v_c1_t1_free.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, q_44_buf, do_buf, dsT_66_st_t0, dv_56_st_t0, dv_56_st_t1, dsT_66_st_t1, twill_red, k_c0_t0_buf, v_c0_t0_buf, k_c1_t1_buf, v_c1_t1_buf, q_44_ready, q_44_empty, do_ready, do_empty, twill_xs_ready, twill_xs_free, twill_red_ready, twill_red_free, k_c0_t0_bar, k_c0_t0_free, v_c0_t0_bar, v_c0_t0_free, k_c1_t1_bar, k_c1_t1_free, v_c1_t1_bar, v_c1_t1_free)),
        (consumer_1, (desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, q_44_buf, do_buf, dsT_66_st_t0, dv_56_st_t0, dv_56_st_t1, dsT_66_st_t1, twill_red, k_c0_t0_buf, v_c0_t0_buf, k_c1_t1_buf, v_c1_t1_buf, q_44_ready, q_44_empty, do_ready, do_empty, twill_xs_ready, twill_xs_free, twill_red_ready, twill_red_free, k_c0_t0_bar, k_c0_t0_free, v_c0_t0_bar, v_c0_t0_free, k_c1_t1_bar, k_c1_t1_free, v_c1_t1_bar, v_c1_t1_free)),
        (producer_2, (desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, q_44_buf, do_buf, dsT_66_st_t0, dv_56_st_t0, dv_56_st_t1, dsT_66_st_t1, twill_red, k_c0_t0_buf, v_c0_t0_buf, k_c1_t1_buf, v_c1_t1_buf, q_44_ready, q_44_empty, do_ready, do_empty, twill_xs_ready, twill_xs_free, twill_red_ready, twill_red_free, k_c0_t0_bar, k_c0_t0_free, v_c0_t0_bar, v_c0_t0_free, k_c1_t1_bar, k_c1_t1_free, v_c1_t1_bar, v_c1_t1_free)),
        (reducer_3, (desc_q, desc_k, desc_v, desc_do, desc_dk, desc_dv, DQ, LSE, Delta, sm_scale, N_CTX, twill_g0, twill_g1, twill_g2, q_44_buf, do_buf, dsT_66_st_t0, dv_56_st_t0, dv_56_st_t1, dsT_66_st_t1, twill_red, k_c0_t0_buf, v_c0_t0_buf, k_c1_t1_buf, v_c1_t1_buf, q_44_ready, q_44_empty, do_ready, do_empty, twill_xs_ready, twill_xs_free, twill_red_ready, twill_red_free, k_c0_t0_bar, k_c0_t0_free, v_c0_t0_bar, v_c0_t0_free, k_c1_t1_bar, k_c1_t1_free, v_c1_t1_bar, v_c1_t1_free)),
    ], [4, 1, 1], [240, 24, 24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['desc_q', 'desc_k', 'desc_v', 'desc_do', 'desc_dk', 'desc_dv', 'DQ', 'LSE', 'Delta', 'sm_scale', 'N_CTX', 'HEAD_DIM', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['desc_q', 'desc_k', 'desc_v', 'desc_do', 'desc_dk', 'desc_dv', 'DQ', 'LSE', 'Delta', 'sm_scale', 'N_CTX', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['desc_q', 'desc_k', 'desc_v', 'desc_do', 'desc_dk', 'desc_dv', 'DQ', 'LSE', 'Delta', 'sm_scale', 'N_CTX', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'HEAD_DIM': 128, 'BLOCK_M': 64, 'BLOCK_N': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {'desc_q': [64, 128], 'desc_k': [64, 128], 'desc_v': [64, 128], 'desc_do': [64, 128], 'desc_dk': [64, 128], 'desc_dv': [64, 128]}
DESCRIPTOR_LAYOUTS = {'desc_q': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'desc_k': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'desc_v': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'desc_do': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'desc_dk': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'desc_dv': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
NUM_WARPS = 4
MAXNREG = 168
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
    trips = _ev('(N_CTX + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} ((N_CTX + 64 - 1) // 64): run the Triton kernel for it")
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
