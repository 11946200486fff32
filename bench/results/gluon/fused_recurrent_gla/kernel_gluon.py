"""fused_recurrent_gla_fwd_kernel, written by twill from its joint schedule: I=178 L=330 (optimal), 610 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 178).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 1 warps, registers as ptxas allocates them (the schedule's tiles need about 302 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 1], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 1], order=[0, 1])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[2], threads_per_warp=[32], warps_per_cta=[1], order=[0]))

@gluon.jit
def consumer_0(q, k, v, gk, gv, o, initial_state, final_state, s_qk_h, s_qk_t, s_qk_d, s_vo_h, s_vo_t, s_vo_d, B, H, T, scale):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    p_q = v2 * s_qk_h
    p_q_7 = q + p_q
    p_q_8 = v1 * 64
    p_q_9 = p_q_7 + p_q_8
    p_q_10 = gl.arange(0, 64, layout=L0)
    p_q_11 = gl.arange(0, 64, layout=L1)
    p_q_12 = gl.arange(0, 64, layout=L2)
    p_q_14 = p_q_9 + p_q_12
    p_k = k + p_q
    p_k_15 = p_k + p_q_8
    p_k_17 = p_k_15 + p_q_12
    p_v = v2 * s_vo_h
    p_v_18 = v + p_v
    p_v_19 = v0 * 64
    p_v_20 = p_v_18 + p_v_19
    p_v_22 = p_v_20 + p_q_12
    p_o = v1 * B
    p_o_23 = p_o * H
    p_o_24 = v2 + p_o_23
    p_o_25 = p_o_24 * s_vo_h
    p_o_26 = o + p_o_25
    p_o_27 = p_o_26 + p_v_19
    p_o_29 = p_o_27 + p_q_12
    p_gk = gk + p_q
    p_gk_30 = p_gk + p_q_8
    p_gk_32 = p_gk_30 + p_q_12
    mask_bk_34 = p_q_8 + p_q_10
    mask_bk_35 = p_q_8 + p_q_12
    mask_bk_36 = mask_bk_34 < 64
    mask_bk_37 = mask_bk_35 < 64
    mask_bv_39 = p_v_19 + p_q_11
    mask_bv_40 = p_v_19 + p_q_12
    mask_bv_41 = mask_bv_39 < 128
    mask_bv_42 = mask_bv_40 < 128
    mask_kv = gl.expand_dims(mask_bk_36, 0)
    mask_kv_43 = gl.expand_dims(mask_bv_41, 1)
    mask_kv_44 = mask_kv.broadcast_to([64, 64])
    mask_kv_45 = mask_kv_43.broadcast_to([64, 64])
    mask_kv_46 = mask_kv_44 & mask_kv_45
    p_init_s = v2 * 8192
    p_init_s_47 = initial_state + p_init_s
    p_init_s_48 = gl.expand_dims(p_q_10, 0)
    p_init_s_50 = p_q_8 + p_init_s_48
    p_init_s_51 = p_init_s_50 * 128
    p_init_s_53 = p_init_s_47 + p_init_s_51
    p_init_s_54 = gl.expand_dims(p_q_11, 1)
    p_init_s_56 = p_v_19 + p_init_s_54
    p_init_s_57 = p_init_s_53.broadcast_to([64, 64])
    p_init_s_58 = p_init_s_56.broadcast_to([64, 64])
    p_init_s_59 = p_init_s_57 + p_init_s_58
    h = gl.load(p_init_s_59, mask=mask_kv_46, other=0.0)
    h_60 = h + 0.0
    twill_n = (T - 0 + 1 - 1) // 1
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        p_k_96 = p_k_17
        p_v_98 = p_v_22
        p_q_95 = p_q_14
        p_gk_99 = p_gk_32
        p_gk_99_p1 = p_gk_99
        p_k_96_p1 = p_k_96
        p_q_95_p1 = p_q_95
        p_v_98_p1 = p_v_98
        h_91 = h_60
        p_k_96 = p_k_96_p1 + 64  # load0__k: stage 0, partition 0 (group 0)
        _k = gl.load(p_k_96_p1, mask=mask_bk_37, other=0.0)  # load0__k: stage 0, partition 0 (group 0)
        p_v_98 = p_v_98_p1 + 128  # load1__v: stage 0, partition 0 (group 0)
        _v = gl.load(p_v_98_p1, mask=mask_bv_42, other=0.0)  # load1__v: stage 0, partition 0 (group 0)
        p_gk_99 = p_gk_99_p1 + 64  # load3__gk: stage 0, partition 0 (group 0)
        _gk = gl.load(p_gk_99_p1, mask=mask_bk_37, other=0.0)  # load3__gk: stage 0, partition 0 (group 0)
        p_q_95 = p_q_95_p1 + 64  # load2__q: stage 0, partition 0 (group 0)
        _q_77 = gl.load(p_q_95_p1, mask=mask_bk_37, other=0.0)  # load2__q: stage 0, partition 0 (group 0)
        _gk_p1 = _gk
        _k_p1 = _k
        _q_77_p1 = _q_77
        _v_p1 = _v
        h_91_p1 = h_91
        p_gk_99_p1 = p_gk_99
        p_k_96_p1 = p_k_96
        p_q_95_p1 = p_q_95
        p_v_98_p1 = p_v_98
        p_o_97 = p_o_29
        p_k_96 = p_k_96_p1 + 64  # load0__k: stage 0, partition 0 (group 0)
        _k = gl.load(p_k_96_p1, mask=mask_bk_37, other=0.0)  # load0__k: stage 0, partition 0 (group 0)
        _k_73 = gl.convert_layout(_k_p1, L0)  # convert0__k: stage 1, partition 0 (group 0)
        _k_74 = _k_73.to(gl.float32)  # convert0__k: stage 1, partition 0 (group 0)
        p_v_98 = p_v_98_p1 + 128  # load1__v: stage 0, partition 0 (group 0)
        _v = gl.load(p_v_98_p1, mask=mask_bv_42, other=0.0)  # load1__v: stage 0, partition 0 (group 0)
        _v_75 = gl.convert_layout(_v_p1, L1)  # convert1__v: stage 1, partition 0 (group 0)
        _v_76 = _v_75.to(gl.float32)  # convert1__v: stage 1, partition 0 (group 0)
        p_gk_99 = p_gk_99_p1 + 64  # load3__gk: stage 0, partition 0 (group 0)
        _gk = gl.load(p_gk_99_p1, mask=mask_bk_37, other=0.0)  # load3__gk: stage 0, partition 0 (group 0)
        h_81 = gl.convert_layout(_gk_p1, L0)  # convert3_h: stage 1, partition 0 (group 0)
        h_82 = gl.expand_dims(h_81, 0)  # sfu0_h: stage 1, partition 0 (group 0)
        h_83 = gl.exp(h_82)  # sfu0_h: stage 1, partition 0 (group 0)
        h_84 = h_83.broadcast_to([64, 64])  # elementwise1_h: stage 1, partition 0 (group 0)
        h_85 = h_91_p1 * h_84  # elementwise1_h: stage 1, partition 0 (group 0)
        h_86 = gl.expand_dims(_k_74, 0)  # elementwise1_h: stage 1, partition 0 (group 0)
        h_87 = gl.expand_dims(_v_76, 1)  # elementwise1_h: stage 1, partition 0 (group 0)
        h_88 = h_86.broadcast_to([64, 64])  # elementwise1_h: stage 1, partition 0 (group 0)
        h_89 = h_87.broadcast_to([64, 64])  # elementwise1_h: stage 1, partition 0 (group 0)
        h_90 = h_88 * h_89  # elementwise1_h: stage 1, partition 0 (group 0)
        h_91 = h_85 + h_90  # elementwise1_h: stage 1, partition 0 (group 0)
        p_q_95 = p_q_95_p1 + 64  # load2__q: stage 0, partition 0 (group 0)
        _q_77 = gl.load(p_q_95_p1, mask=mask_bk_37, other=0.0)  # load2__q: stage 0, partition 0 (group 0)
        _q_78 = gl.convert_layout(_q_77_p1, L0)  # convert2__q: stage 1, partition 0 (group 0)
        _q_79 = _q_78.to(gl.float32)  # convert2__q: stage 1, partition 0 (group 0)
        _q_80 = _q_79 * scale  # elementwise0__q: stage 1, partition 0 (group 0)
        _o = gl.expand_dims(_q_80, 0)  # elementwise2__o: stage 1, partition 0 (group 0)
        _o_92 = _o.broadcast_to([64, 64])  # elementwise2__o: stage 1, partition 0 (group 0)
        _o_93 = h_91 * _o_92  # elementwise2__o: stage 1, partition 0 (group 0)
        _gk_p1 = _gk
        _k_p1 = _k
        _o_93_p1 = _o_93
        _q_77_p1 = _q_77
        _v_p1 = _v
        h_91_p1 = h_91
        p_gk_99_p1 = p_gk_99
        p_k_96_p1 = p_k_96
        p_o_97_p1 = p_o_97
        p_q_95_p1 = p_q_95
        p_v_98_p1 = p_v_98
        for twill_b in range(2, twill_n):
            p_k_96 = p_k_96_p1 + 64  # load0__k: stage 0, partition 0 (group 0)
            _k = gl.load(p_k_96_p1, mask=mask_bk_37, other=0.0)  # load0__k: stage 0, partition 0 (group 0)
            _k_73 = gl.convert_layout(_k_p1, L0)  # convert0__k: stage 1, partition 0 (group 0)
            _k_74 = _k_73.to(gl.float32)  # convert0__k: stage 1, partition 0 (group 0)
            p_v_98 = p_v_98_p1 + 128  # load1__v: stage 0, partition 0 (group 0)
            _v = gl.load(p_v_98_p1, mask=mask_bv_42, other=0.0)  # load1__v: stage 0, partition 0 (group 0)
            _v_75 = gl.convert_layout(_v_p1, L1)  # convert1__v: stage 1, partition 0 (group 0)
            _v_76 = _v_75.to(gl.float32)  # convert1__v: stage 1, partition 0 (group 0)
            p_gk_99 = p_gk_99_p1 + 64  # load3__gk: stage 0, partition 0 (group 0)
            _gk = gl.load(p_gk_99_p1, mask=mask_bk_37, other=0.0)  # load3__gk: stage 0, partition 0 (group 0)
            h_81 = gl.convert_layout(_gk_p1, L0)  # convert3_h: stage 1, partition 0 (group 0)
            h_82 = gl.expand_dims(h_81, 0)  # sfu0_h: stage 1, partition 0 (group 0)
            h_83 = gl.exp(h_82)  # sfu0_h: stage 1, partition 0 (group 0)
            _o_94 = gl.sum(_o_93_p1, axis=1)  # reduce0__o: stage 2, partition 0 (group 0)
            h_84 = h_83.broadcast_to([64, 64])  # elementwise1_h: stage 1, partition 0 (group 0)
            h_85 = h_91_p1 * h_84  # elementwise1_h: stage 1, partition 0 (group 0)
            h_86 = gl.expand_dims(_k_74, 0)  # elementwise1_h: stage 1, partition 0 (group 0)
            h_87 = gl.expand_dims(_v_76, 1)  # elementwise1_h: stage 1, partition 0 (group 0)
            h_88 = h_86.broadcast_to([64, 64])  # elementwise1_h: stage 1, partition 0 (group 0)
            h_89 = h_87.broadcast_to([64, 64])  # elementwise1_h: stage 1, partition 0 (group 0)
            h_90 = h_88 * h_89  # elementwise1_h: stage 1, partition 0 (group 0)
            h_91 = h_85 + h_90  # elementwise1_h: stage 1, partition 0 (group 0)
            v3 = _o_94.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
            v4 = gl.convert_layout(v3, L2)  # convert4: stage 2, partition 0 (group 0)
            p_q_95 = p_q_95_p1 + 64  # load2__q: stage 0, partition 0 (group 0)
            _q_77 = gl.load(p_q_95_p1, mask=mask_bk_37, other=0.0)  # load2__q: stage 0, partition 0 (group 0)
            _q_78 = gl.convert_layout(_q_77_p1, L0)  # convert2__q: stage 1, partition 0 (group 0)
            _q_79 = _q_78.to(gl.float32)  # convert2__q: stage 1, partition 0 (group 0)
            gl.store(p_o_97_p1, v4, mask=mask_bv_42)  # store0: stage 2, partition 0 (group 0)
            p_o_97 = p_o_97_p1 + 128  # store0: stage 2, partition 0 (group 0)
            _q_80 = _q_79 * scale  # elementwise0__q: stage 1, partition 0 (group 0)
            _o = gl.expand_dims(_q_80, 0)  # elementwise2__o: stage 1, partition 0 (group 0)
            _o_92 = _o.broadcast_to([64, 64])  # elementwise2__o: stage 1, partition 0 (group 0)
            _o_93 = h_91 * _o_92  # elementwise2__o: stage 1, partition 0 (group 0)
            _gk_p1 = _gk
            _k_p1 = _k
            _o_93_p1 = _o_93
            _q_77_p1 = _q_77
            _v_p1 = _v
            h_91_p1 = h_91
            p_gk_99_p1 = p_gk_99
            p_k_96_p1 = p_k_96
            p_o_97_p1 = p_o_97
            p_q_95_p1 = p_q_95
            p_v_98_p1 = p_v_98
        _k_73 = gl.convert_layout(_k_p1, L0)  # convert0__k: stage 1, partition 0 (group 0)
        _k_74 = _k_73.to(gl.float32)  # convert0__k: stage 1, partition 0 (group 0)
        _v_75 = gl.convert_layout(_v_p1, L1)  # convert1__v: stage 1, partition 0 (group 0)
        _v_76 = _v_75.to(gl.float32)  # convert1__v: stage 1, partition 0 (group 0)
        h_81 = gl.convert_layout(_gk_p1, L0)  # convert3_h: stage 1, partition 0 (group 0)
        h_82 = gl.expand_dims(h_81, 0)  # sfu0_h: stage 1, partition 0 (group 0)
        h_83 = gl.exp(h_82)  # sfu0_h: stage 1, partition 0 (group 0)
        _o_94 = gl.sum(_o_93_p1, axis=1)  # reduce0__o: stage 2, partition 0 (group 0)
        h_84 = h_83.broadcast_to([64, 64])  # elementwise1_h: stage 1, partition 0 (group 0)
        h_85 = h_91_p1 * h_84  # elementwise1_h: stage 1, partition 0 (group 0)
        h_86 = gl.expand_dims(_k_74, 0)  # elementwise1_h: stage 1, partition 0 (group 0)
        h_87 = gl.expand_dims(_v_76, 1)  # elementwise1_h: stage 1, partition 0 (group 0)
        h_88 = h_86.broadcast_to([64, 64])  # elementwise1_h: stage 1, partition 0 (group 0)
        h_89 = h_87.broadcast_to([64, 64])  # elementwise1_h: stage 1, partition 0 (group 0)
        h_90 = h_88 * h_89  # elementwise1_h: stage 1, partition 0 (group 0)
        h_91 = h_85 + h_90  # elementwise1_h: stage 1, partition 0 (group 0)
        v3 = _o_94.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
        v4 = gl.convert_layout(v3, L2)  # convert4: stage 2, partition 0 (group 0)
        _q_78 = gl.convert_layout(_q_77_p1, L0)  # convert2__q: stage 1, partition 0 (group 0)
        _q_79 = _q_78.to(gl.float32)  # convert2__q: stage 1, partition 0 (group 0)
        gl.store(p_o_97_p1, v4, mask=mask_bv_42)  # store0: stage 2, partition 0 (group 0)
        p_o_97 = p_o_97_p1 + 128  # store0: stage 2, partition 0 (group 0)
        _q_80 = _q_79 * scale  # elementwise0__q: stage 1, partition 0 (group 0)
        _o = gl.expand_dims(_q_80, 0)  # elementwise2__o: stage 1, partition 0 (group 0)
        _o_92 = _o.broadcast_to([64, 64])  # elementwise2__o: stage 1, partition 0 (group 0)
        _o_93 = h_91 * _o_92  # elementwise2__o: stage 1, partition 0 (group 0)
        _gk_p1 = _gk
        _k_p1 = _k
        _o_93_p1 = _o_93
        _q_77_p1 = _q_77
        _v_p1 = _v
        h_91_p2 = h_91_p1
        h_91_p1 = h_91
        p_gk_99_p2 = p_gk_99_p1
        p_gk_99_p1 = p_gk_99
        p_k_96_p2 = p_k_96_p1
        p_k_96_p1 = p_k_96
        p_o_97_p1 = p_o_97
        p_q_95_p2 = p_q_95_p1
        p_q_95_p1 = p_q_95
        p_v_98_p2 = p_v_98_p1
        p_v_98_p1 = p_v_98
        _o_94 = gl.sum(_o_93_p1, axis=1)  # reduce0__o: stage 2, partition 0 (group 0)
        v3 = _o_94.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
        v4 = gl.convert_layout(v3, L2)  # convert4: stage 2, partition 0 (group 0)
        gl.store(p_o_97_p1, v4, mask=mask_bv_42)  # store0: stage 2, partition 0 (group 0)
        p_o_97 = p_o_97_p1 + 128  # store0: stage 2, partition 0 (group 0)
        _gk_p1 = _gk
        _k_p1 = _k
        _o_93_p1 = _o_93
        _q_77_p1 = _q_77
        _v_p1 = _v
        h_91_p2 = h_91_p1
        h_91_p1 = h_91
        p_gk_99_p3 = p_gk_99_p2
        p_gk_99_p2 = p_gk_99_p1
        p_gk_99_p1 = p_gk_99
        p_k_96_p3 = p_k_96_p2
        p_k_96_p2 = p_k_96_p1
        p_k_96_p1 = p_k_96
        p_o_97_p1 = p_o_97
        p_q_95_p3 = p_q_95_p2
        p_q_95_p2 = p_q_95_p1
        p_q_95_p1 = p_q_95
        p_v_98_p3 = p_v_98_p2
        p_v_98_p2 = p_v_98_p1
        p_v_98_p1 = p_v_98
    else:
        h_67_w = h_60
        p_k_68_w = p_k_17
        p_v_69_w = p_v_22
        p_q_70_w = p_q_14
        p_gk_71_w = p_gk_32
        p_o_72_w = p_o_29
        for h_66_w in range(0, T, 1):
            _k_w = gl.load(p_k_68_w, mask=mask_bk_37, other=0.0)
            _k_73_w = gl.convert_layout(_k_w, L0)
            _k_74_w = _k_73_w.to(gl.float32)
            _v_w = gl.load(p_v_69_w, mask=mask_bv_42, other=0.0)
            _v_75_w = gl.convert_layout(_v_w, L1)
            _v_76_w = _v_75_w.to(gl.float32)
            _q_77_w = gl.load(p_q_70_w, mask=mask_bk_37, other=0.0)
            _q_78_w = gl.convert_layout(_q_77_w, L0)
            _q_79_w = _q_78_w.to(gl.float32)
            _q_80_w = _q_79_w * scale
            _gk_w = gl.load(p_gk_71_w, mask=mask_bk_37, other=0.0)
            h_81_w = gl.convert_layout(_gk_w, L0)
            h_82_w = gl.expand_dims(h_81_w, 0)
            h_83_w = gl.exp(h_82_w)
            h_84_w = h_83_w.broadcast_to([64, 64])
            h_85_w = h_67_w * h_84_w
            h_86_w = gl.expand_dims(_k_74_w, 0)
            h_87_w = gl.expand_dims(_v_76_w, 1)
            h_88_w = h_86_w.broadcast_to([64, 64])
            h_89_w = h_87_w.broadcast_to([64, 64])
            h_90_w = h_88_w * h_89_w
            h_91_w = h_85_w + h_90_w
            _o_w = gl.expand_dims(_q_80_w, 0)
            _o_92_w = _o_w.broadcast_to([64, 64])
            _o_93_w = h_91_w * _o_92_w
            _o_94_w = gl.sum(_o_93_w, axis=1)
            v3_w = _o_94_w.to(gl.float16)
            v4_w = gl.convert_layout(v3_w, L2)
            gl.store(p_o_72_w, v4_w, mask=mask_bv_42)
            p_q_95_w = p_q_70_w + 64
            p_k_96_w = p_k_68_w + 64
            p_o_97_w = p_o_72_w + 128
            p_v_98_w = p_v_69_w + 128
            p_gk_99_w = p_gk_71_w + 64
            h_67_w = h_91_w
            p_k_68_w = p_k_96_w
            p_v_69_w = p_v_98_w
            p_q_70_w = p_q_95_w
            p_gk_71_w = p_gk_99_w
            p_o_72_w = p_o_97_w
        h_91_p2 = h_67_w
        p_k_96_p3 = p_k_68_w
        p_v_98_p3 = p_v_69_w
        p_q_95_p3 = p_q_70_w
        p_gk_99_p3 = p_gk_71_w
        p_o_97_p1 = p_o_72_w
    p_final_s = final_state + p_init_s
    p_final_s_63 = p_final_s + p_init_s_51
    p_final_s_64 = p_final_s_63.broadcast_to([64, 64])
    p_final_s_65 = p_final_s_64 + p_init_s_58
    gl.store(p_final_s_65, h_91_p2, mask=mask_kv_46)

@gluon.jit
def twill_kernel(q, k, v, gk, gv, o, initial_state, final_state, s_qk_h, s_qk_t, s_qk_d, s_vo_h, s_vo_t, s_vo_d, B, H, T, scale):
    consumer_0(q, k, v, gk, gv, o, initial_state, final_state, s_qk_h, s_qk_t, s_qk_d, s_vo_h, s_vo_t, s_vo_d, B, H, T, scale, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'gk', 'gv', 'o', 'initial_state', 'final_state', 's_qk_h', 's_qk_t', 's_qk_d', 's_vo_h', 's_vo_t', 's_vo_d', 'B', 'H', 'T', 'scale', 'BK', 'BV', 'DK', 'DV', 'USE_INITIAL_STATE', 'STORE_FINAL_STATE', 'REVERSE', 'USE_GK', 'USE_GV']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'gk', 'gv', 'o', 'initial_state', 'final_state', 's_qk_h', 's_qk_t', 's_qk_d', 's_vo_h', 's_vo_t', 's_vo_d', 'B', 'H', 'T', 'scale']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'gk', 'gv', 'o', 'initial_state', 'final_state', 's_qk_h', 's_qk_t', 's_qk_d', 's_vo_h', 's_vo_t', 's_vo_d', 'B', 'H', 'T', 'scale']   # the arguments a launch key reads
CONSTEXPRS = {'BK': 64, 'BV': 64, 'DK': 64, 'DV': 128, 'USE_INITIAL_STATE': True, 'STORE_FINAL_STATE': True, 'REVERSE': False, 'USE_GK': True, 'USE_GV': False}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 1
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
