"""chunk_bwd_kernel_dh, written by twill from its joint schedule: I=277 L=277 (optimal), 3333 cycles per iteration predicted.

Decisions (each from the schedule):
- b_do_137 copied with cp.async at every launch, not by TMA: a mask's lower bound other than 0
- rings sized for 1336 cycles an iteration (the busiest unit's), not the II's 3333: the II holds work under an if taken on some iterations only
- pointer-loaded tiles copied by a 4-warp producer with cp.async (b_do_137): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (136, 56 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 192 registers per thread (needs about 136): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring b_do_137: 2 buffers of [64, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 16432 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, gk, do, dh, dht, dh0, scale, T, b_do_137_buf, b_do_137_ready, b_do_137_empty, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    v5 = v3 * T
    NT_15 = T + 63
    NT_16 = NT_15 // 64
    boh_17 = T + 127
    boh_18 = boh_17 // 128
    boh_19 = v3 * boh_18
    p_dht = v2 * 16384
    p_dht_20 = dht + p_dht
    p_dht_21 = v0 * 64
    p_dht_22 = v1 * 64
    p_dht_23 = gl.cast(p_dht_21, gl.int64)
    p_dht_24 = gl.cast(p_dht_22, gl.int64)
    b_dh_28 = gl.arange(0, 64, layout=L0)
    b_dh_29 = gl.arange(0, 64, layout=L1)
    b_dh_30 = gl.arange(0, 64, layout=L2)
    b_dh_31 = gl.arange(0, 64, layout=L3)
    b_dh_32 = gl.arange(0, 64, layout=L4)
    b_dh_33 = gl.arange(0, 64, layout=L5)
    b_dh_34 = gl.arange(0, 64, layout=L6)
    b_dh_35 = b_dh_28.to(gl.int64)
    b_dh_36 = b_dh_29.to(gl.int64)
    b_dh_37 = b_dh_30.to(gl.int64)
    b_dh_38 = b_dh_32.to(gl.int64)
    b_dh_39 = b_dh_33.to(gl.int64)
    b_dh_40 = b_dh_34.to(gl.int64)
    b_dh_41 = p_dht_23 + b_dh_35
    b_dh_42 = p_dht_23 + b_dh_36
    b_dh_43 = p_dht_23 + b_dh_37
    b_dh_44 = gl.expand_dims(b_dh_41, 1)
    b_dh_45 = gl.expand_dims(b_dh_42, 1)
    b_dh_46 = gl.expand_dims(b_dh_43, 1)
    b_dh_47 = b_dh_44 * 128
    b_dh_48 = b_dh_46 * 128
    b_dh_49 = b_dh_47.broadcast_to([64, 64])
    b_dh_50 = b_dh_48.broadcast_to([64, 64])
    b_dh_53 = p_dht_24 + b_dh_38
    b_dh_54 = p_dht_24 + b_dh_40
    b_dh_55 = gl.expand_dims(b_dh_53, 0)
    b_dh_56 = gl.expand_dims(b_dh_54, 0)
    b_dh_57 = b_dh_55.broadcast_to([64, 64])
    b_dh_58 = b_dh_56.broadcast_to([64, 64])
    b_dh_59 = b_dh_49 + b_dh_57
    b_dh_60 = b_dh_50 + b_dh_58
    b_dh_61 = p_dht_20 + b_dh_59
    b_dh_62 = b_dh_44 >= 0
    b_dh_63 = b_dh_45 >= 0
    b_dh_64 = b_dh_46 >= 0
    b_dh_65 = b_dh_44 < 128
    b_dh_66 = b_dh_45 < 128
    b_dh_67 = b_dh_46 < 128
    b_dh_68 = b_dh_62 & b_dh_65
    b_dh_69 = b_dh_63 & b_dh_66
    b_dh_70 = b_dh_64 & b_dh_67
    b_dh_71 = b_dh_68.broadcast_to([64, 64])
    b_dh_72 = b_dh_69.broadcast_to([64, 64])
    b_dh_73 = b_dh_70.broadcast_to([64, 64])
    b_dh_74 = b_dh_55 >= 0
    b_dh_75 = b_dh_56 >= 0
    b_dh_76 = b_dh_55 < 128
    b_dh_77 = b_dh_56 < 128
    b_dh_78 = b_dh_74 & b_dh_76
    b_dh_79 = b_dh_75 & b_dh_77
    b_dh_80 = b_dh_78.broadcast_to([64, 64])
    b_dh_81 = b_dh_79.broadcast_to([64, 64])
    b_dh_82 = b_dh_71 & b_dh_80
    b_dh_83 = b_dh_73 & b_dh_81
    b_dh_84 = gl.load(b_dh_61, mask=b_dh_82)
    b_dh_85 = b_dh_84 + 0.0
    b_dh_86 = gl.convert_layout(b_dh_85, L7)
    v6 = NT_16 - 1
    p_q = v5 * 4
    p_q_87 = p_q + v4
    p_q_88 = p_q_87 * 128
    p_q_89 = q + p_q_88
    p_q_90 = gl.cast(T, gl.int64)
    b_q_91 = b_dh_45.broadcast_to([64, 64])
    p_gk = gk + p_q_88
    p_gk_last = v4 * 128
    b_gk_last_95 = p_dht_21 + b_dh_31
    b_gk_last_96 = b_gk_last_95 < 128
    twill_n = gl.maximum((v6 - -1 + 1 - 1) // 1, 0)
    b_dh_158 = b_dh_86
    i_s = v6 - (-1 + (0 - 0) * 1)  # store0: stage 0, partition 0 (group 0)
    i_t = i_s + -1  # store0: stage 0, partition 0 (group 0)
    last_idx = i_t * 64  # load0_b_gk_last: stage 0, partition 0 (group 0)
    p_q_108 = gl.cast(last_idx, gl.int64)  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_109 = p_q_108  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_111 = b_q_109 + b_dh_39  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_113 = gl.expand_dims(b_q_111, 0)  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_118 = b_q_113 >= 0  # elementwise0_b_q: stage 0, partition 0 (group 0)
    b_q_119 = b_q_113 < p_q_90  # elementwise0_b_q: stage 0, partition 0 (group 0)
    b_q_120 = b_q_118 & b_q_119  # elementwise0_b_q: stage 0, partition 0 (group 0)
    b_q_121 = b_q_120.broadcast_to([64, 64])  # elementwise1_b_q: stage 0, partition 0 (group 0)
    b_q_122 = b_dh_72 & b_q_121  # elementwise1_b_q: stage 0, partition 0 (group 0)
    b_q_114 = b_q_113 * 512  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_115 = b_q_114.broadcast_to([64, 64])  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_116 = b_q_91 + b_q_115  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_117 = p_q_89 + b_q_116  # load1_b_q: stage 0, partition 0 (group 0)
    b_q_123 = gl.load(b_q_117, mask=b_q_122)  # load1_b_q: stage 0, partition 0 (group 0)
    b_gk_146 = p_gk + b_q_116  # load3_b_gk: stage 0, partition 0 (group 0)
    b_gk_147 = gl.load(b_gk_146, mask=b_q_122)  # load3_b_gk: stage 0, partition 0 (group 0)
    last_idx_105 = last_idx + 64  # load0_b_gk_last: stage 0, partition 0 (group 0)
    last_idx_106 = gl.minimum(last_idx_105, T)  # load0_b_gk_last: stage 0, partition 0 (group 0)
    last_idx_107 = last_idx_106 - 1  # load0_b_gk_last: stage 0, partition 0 (group 0)
    p_gk_last_139 = v5 + last_idx_107  # load0_b_gk_last: stage 0, partition 0 (group 0)
    p_gk_last_140 = p_gk_last_139 * 512  # load0_b_gk_last: stage 0, partition 0 (group 0)
    p_gk_last_141 = gk + p_gk_last_140  # load0_b_gk_last: stage 0, partition 0 (group 0)
    p_gk_last_142 = p_gk_last_141 + p_gk_last  # load0_b_gk_last: stage 0, partition 0 (group 0)
    p_gk_last_143 = p_gk_last_142 + p_dht_21  # load0_b_gk_last: stage 0, partition 0 (group 0)
    p_gk_last_144 = p_gk_last_143  # load0_b_gk_last: stage 0, partition 0 (group 0)
    p_gk_last_145 = p_gk_last_144 + b_dh_31  # load0_b_gk_last: stage 0, partition 0 (group 0)
    b_gk_last_152 = gl.load(p_gk_last_145, mask=b_gk_last_96, other=0.0)  # load0_b_gk_last: stage 0, partition 0 (group 0)
    b_dh_158_p1 = b_dh_158
    b_gk_147_p1 = b_gk_147
    b_gk_last_152_p1 = b_gk_last_152
    b_q_123_p1 = b_q_123
    i_t_p1 = i_t
    p_q_108_p1 = p_q_108
    for twill_b in range(1, twill_n):
        i_s = v6 - (-1 + (twill_b - 0) * 1)  # store0: stage 0, partition 0 (group 0)
        i_t = i_s + -1  # store0: stage 0, partition 0 (group 0)
        last_idx = i_t * 64  # load0_b_gk_last: stage 0, partition 0 (group 0)
        p_q_108 = gl.cast(last_idx, gl.int64)  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_109 = p_q_108  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_111 = b_q_109 + b_dh_39  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_113 = gl.expand_dims(b_q_111, 0)  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_118 = b_q_113 >= 0  # elementwise0_b_q: stage 0, partition 0 (group 0)
        b_q_119 = b_q_113 < p_q_90  # elementwise0_b_q: stage 0, partition 0 (group 0)
        b_q_120 = b_q_118 & b_q_119  # elementwise0_b_q: stage 0, partition 0 (group 0)
        b_q_121 = b_q_120.broadcast_to([64, 64])  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_122 = b_dh_72 & b_q_121  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_110 = p_q_108_p1  # load2_b_do: stage 1, partition 0 (group 0)
        b_q_112 = b_q_110 + b_dh_35  # load2_b_do: stage 1, partition 0 (group 0)
        b_do_127 = gl.expand_dims(b_q_112, 1)  # load2_b_do: stage 1, partition 0 (group 0)
        b_do_132 = b_do_127 >= 0  # elementwise3_b_do: stage 1, partition 0 (group 0)
        b_do_133 = b_do_127 < p_q_90  # elementwise3_b_do: stage 1, partition 0 (group 0)
        b_do_134 = b_do_132 & b_do_133  # elementwise3_b_do: stage 1, partition 0 (group 0)
        b_do_135 = b_do_134.broadcast_to([64, 64])  # elementwise4_b_do: stage 1, partition 0 (group 0)
        b_do_136 = b_do_135 & b_dh_80  # elementwise4_b_do: stage 1, partition 0 (group 0)
        b_q_148 = gl.exp(b_gk_147_p1)  # sfu0_b_q: stage 1, partition 0 (group 0)
        b_q_114 = b_q_113 * 512  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_115 = b_q_114.broadcast_to([64, 64])  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_116 = b_q_91 + b_q_115  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_117 = p_q_89 + b_q_116  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_123 = gl.load(b_q_117, mask=b_q_122)  # load1_b_q: stage 0, partition 0 (group 0)
        b_q_124 = b_q_123_p1.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
        b_gk_146 = p_gk + b_q_116  # load3_b_gk: stage 0, partition 0 (group 0)
        b_gk_147 = gl.load(b_gk_146, mask=b_q_122)  # load3_b_gk: stage 0, partition 0 (group 0)
        b_q_125 = b_q_124 * scale  # elementwise2_b_q: stage 1, partition 0 (group 0)
        b_q_126 = b_q_125.to(gl.float16)  # convert1_b_q: stage 1, partition 0 (group 0)
        b_q_149 = b_q_126.to(gl.float32)  # convert1_b_q: stage 1, partition 0 (group 0)
        b_q_150 = b_q_149 * b_q_148  # elementwise5_b_q: stage 1, partition 0 (group 0)
        b_q_151 = b_q_150.to(gl.float16)  # convert2_b_q: stage 1, partition 0 (group 0)
        b_q_157 = gl.convert_layout(b_q_151, L8)  # convert2_b_q: stage 1, partition 0 (group 0)
        i_s_100 = i_t_p1 // 2  # store0: stage 1, partition 0 (group 0)
        o_dh = boh_19 + i_s_100  # store0: stage 1, partition 0 (group 0)
        o_dh_101 = o_dh * 4  # store0: stage 1, partition 0 (group 0)
        o_dh_102 = o_dh_101 + v4  # store0: stage 1, partition 0 (group 0)
        o_dh_103 = gl.cast(o_dh_102, gl.int64)  # store0: stage 1, partition 0 (group 0)
        o_dh_104 = o_dh_103 * 16384  # store0: stage 1, partition 0 (group 0)
        p_dh = dh + o_dh_104  # store0: stage 1, partition 0 (group 0)
        v10 = i_t_p1 % 2  # store0: stage 1, partition 0 (group 0)
        v11 = v10 == 0  # store0: stage 1, partition 0 (group 0)
        if v11:  # store0: stage 1, partition 0 (group 0)
            v12 = b_dh_158_p1.to(gl.float16)  # store0: stage 1, partition 0 (group 0)
            v14 = p_dh + b_dh_59  # store0: stage 1, partition 0 (group 0)
            v15 = gl.convert_layout(v12, L9)  # store0: stage 1, partition 0 (group 0)
            gl.store(v14, v15, mask=b_dh_82)  # store0: stage 1, partition 0 (group 0)
        last_idx_105 = last_idx + 64  # load0_b_gk_last: stage 0, partition 0 (group 0)
        last_idx_106 = gl.minimum(last_idx_105, T)  # load0_b_gk_last: stage 0, partition 0 (group 0)
        last_idx_107 = last_idx_106 - 1  # load0_b_gk_last: stage 0, partition 0 (group 0)
        p_gk_last_139 = v5 + last_idx_107  # load0_b_gk_last: stage 0, partition 0 (group 0)
        p_gk_last_140 = p_gk_last_139 * 512  # load0_b_gk_last: stage 0, partition 0 (group 0)
        p_gk_last_141 = gk + p_gk_last_140  # load0_b_gk_last: stage 0, partition 0 (group 0)
        p_gk_last_142 = p_gk_last_141 + p_gk_last  # load0_b_gk_last: stage 0, partition 0 (group 0)
        p_gk_last_143 = p_gk_last_142 + p_dht_21  # load0_b_gk_last: stage 0, partition 0 (group 0)
        p_gk_last_144 = p_gk_last_143  # load0_b_gk_last: stage 0, partition 0 (group 0)
        p_gk_last_145 = p_gk_last_144 + b_dh_31  # load0_b_gk_last: stage 0, partition 0 (group 0)
        b_gk_last_152 = gl.load(p_gk_last_145, mask=b_gk_last_96, other=0.0)  # load0_b_gk_last: stage 0, partition 0 (group 0)
        b_dh_153 = gl.exp(b_gk_last_152_p1)  # sfu1_b_dh: stage 1, partition 0 (group 0)
        b_dh_154 = gl.expand_dims(b_dh_153, 1)  # elementwise6_b_dh: stage 1, partition 0 (group 0)
        b_dh_155 = b_dh_154.broadcast_to([64, 64])  # elementwise6_b_dh: stage 1, partition 0 (group 0)
        b_dh_156 = b_dh_158_p1 * b_dh_155  # elementwise6_b_dh: stage 1, partition 0 (group 0)
        mbarrier.wait(b_do_137_ready.index((twill_b - 1) % 2), ((twill_b - 1) // 2) & 1)
        fence_async_shared()
        tok_b_dh_158 = warpgroup_mma(b_q_157, b_do_137_buf.index((twill_b - 1) % 2), b_dh_156, is_async=True)  # dot0_b_dh: stage 1, partition 0 (group 0)
        b_dh_158 = warpgroup_mma_wait(0, deps=(tok_b_dh_158,))
        mbarrier.arrive(b_do_137_empty.index((twill_b - 1) % 2))
        b_dh_158_p1 = b_dh_158
        b_gk_147_p1 = b_gk_147
        b_gk_last_152_p1 = b_gk_last_152
        b_q_123_p1 = b_q_123
        i_t_p1 = i_t
        p_q_108_p1 = p_q_108
    b_q_110 = p_q_108_p1  # load2_b_do: stage 1, partition 0 (group 0)
    b_q_112 = b_q_110 + b_dh_35  # load2_b_do: stage 1, partition 0 (group 0)
    b_do_127 = gl.expand_dims(b_q_112, 1)  # load2_b_do: stage 1, partition 0 (group 0)
    b_do_132 = b_do_127 >= 0  # elementwise3_b_do: stage 1, partition 0 (group 0)
    b_do_133 = b_do_127 < p_q_90  # elementwise3_b_do: stage 1, partition 0 (group 0)
    b_do_134 = b_do_132 & b_do_133  # elementwise3_b_do: stage 1, partition 0 (group 0)
    b_do_135 = b_do_134.broadcast_to([64, 64])  # elementwise4_b_do: stage 1, partition 0 (group 0)
    b_do_136 = b_do_135 & b_dh_80  # elementwise4_b_do: stage 1, partition 0 (group 0)
    b_q_148 = gl.exp(b_gk_147_p1)  # sfu0_b_q: stage 1, partition 0 (group 0)
    b_q_124 = b_q_123_p1.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
    b_q_125 = b_q_124 * scale  # elementwise2_b_q: stage 1, partition 0 (group 0)
    b_q_126 = b_q_125.to(gl.float16)  # convert1_b_q: stage 1, partition 0 (group 0)
    b_q_149 = b_q_126.to(gl.float32)  # convert1_b_q: stage 1, partition 0 (group 0)
    b_q_150 = b_q_149 * b_q_148  # elementwise5_b_q: stage 1, partition 0 (group 0)
    b_q_151 = b_q_150.to(gl.float16)  # convert2_b_q: stage 1, partition 0 (group 0)
    b_q_157 = gl.convert_layout(b_q_151, L8)  # convert2_b_q: stage 1, partition 0 (group 0)
    i_s_100 = i_t_p1 // 2  # store0: stage 1, partition 0 (group 0)
    o_dh = boh_19 + i_s_100  # store0: stage 1, partition 0 (group 0)
    o_dh_101 = o_dh * 4  # store0: stage 1, partition 0 (group 0)
    o_dh_102 = o_dh_101 + v4  # store0: stage 1, partition 0 (group 0)
    o_dh_103 = gl.cast(o_dh_102, gl.int64)  # store0: stage 1, partition 0 (group 0)
    o_dh_104 = o_dh_103 * 16384  # store0: stage 1, partition 0 (group 0)
    p_dh = dh + o_dh_104  # store0: stage 1, partition 0 (group 0)
    v10 = i_t_p1 % 2  # store0: stage 1, partition 0 (group 0)
    v11 = v10 == 0  # store0: stage 1, partition 0 (group 0)
    if v11:  # store0: stage 1, partition 0 (group 0)
        v12 = b_dh_158_p1.to(gl.float16)  # store0: stage 1, partition 0 (group 0)
        v14 = p_dh + b_dh_59  # store0: stage 1, partition 0 (group 0)
        v15 = gl.convert_layout(v12, L9)  # store0: stage 1, partition 0 (group 0)
        gl.store(v14, v15, mask=b_dh_82)  # store0: stage 1, partition 0 (group 0)
    b_dh_153 = gl.exp(b_gk_last_152_p1)  # sfu1_b_dh: stage 1, partition 0 (group 0)
    b_dh_154 = gl.expand_dims(b_dh_153, 1)  # elementwise6_b_dh: stage 1, partition 0 (group 0)
    b_dh_155 = b_dh_154.broadcast_to([64, 64])  # elementwise6_b_dh: stage 1, partition 0 (group 0)
    b_dh_156 = b_dh_158_p1 * b_dh_155  # elementwise6_b_dh: stage 1, partition 0 (group 0)
    mbarrier.wait(b_do_137_ready.index(((twill_n - 1 + 1) - 1) % 2), (((twill_n - 1 + 1) - 1) // 2) & 1)
    fence_async_shared()
    tok_b_dh_158 = warpgroup_mma(b_q_157, b_do_137_buf.index(((twill_n - 1 + 1) - 1) % 2), b_dh_156, is_async=True)  # dot0_b_dh: stage 1, partition 0 (group 0)
    b_dh_158 = warpgroup_mma_wait(0, deps=(tok_b_dh_158,))
    mbarrier.arrive(b_do_137_empty.index(((twill_n - 1 + 1) - 1) % 2))
    b_dh_158_p1 = b_dh_158
    b_gk_147_p1 = b_gk_147
    b_gk_last_152_p1 = b_gk_last_152
    b_q_123_p1 = b_q_123
    i_t_p1 = i_t
    p_q_108_p1 = p_q_108
    b_do_137_buf._keep_alive()
    p_dh0 = dh0 + p_dht
    v8 = p_dh0 + b_dh_60
    v9 = gl.convert_layout(b_dh_158_p1, L10)
    gl.store(v8, v9, mask=b_dh_83)

@gluon.jit
def producer_1(q, gk, do, dh, dht, dh0, scale, T, b_do_137_buf, b_do_137_ready, b_do_137_empty, TWILL_COPY: gl.constexpr):
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    v5 = v3 * T
    NT_15 = T + 63
    NT_16 = NT_15 // 64
    p_dht_22 = v1 * 64
    p_dht_24 = gl.cast(p_dht_22, gl.int64)
    b_dh_28 = gl.arange(0, 64, layout=L0)
    b_dh_32 = gl.arange(0, 64, layout=L4)
    b_dh_35 = b_dh_28.to(gl.int64)
    b_dh_38 = b_dh_32.to(gl.int64)
    b_dh_53 = p_dht_24 + b_dh_38
    b_dh_55 = gl.expand_dims(b_dh_53, 0)
    b_dh_57 = b_dh_55.broadcast_to([64, 64])
    b_dh_74 = b_dh_55 >= 0
    b_dh_76 = b_dh_55 < 128
    b_dh_78 = b_dh_74 & b_dh_76
    b_dh_80 = b_dh_78.broadcast_to([64, 64])
    v6 = NT_16 - 1
    p_q = v5 * 4
    p_q_87 = p_q + v4
    p_q_88 = p_q_87 * 128
    p_q_90 = gl.cast(T, gl.int64)
    p_do = do + p_q_88
    for b_dh_98 in range(-1, v6, 1):
        twill_k = (b_dh_98 - -1) // 1
        i_s = v6 - b_dh_98
        i_t = i_s + -1
        last_idx = i_t * 64
        p_q_108 = gl.cast(last_idx, gl.int64)
        b_q_112 = p_q_108 + b_dh_35
        b_do_127 = gl.expand_dims(b_q_112, 1)
        b_do_128 = b_do_127 * 512
        b_do_129 = b_do_128.broadcast_to([64, 64])
        b_do_130 = b_do_129 + b_dh_57
        b_do_131 = p_do + b_do_130
        b_do_132 = b_do_127 >= 0
        b_do_133 = b_do_127 < p_q_90
        b_do_134 = b_do_132 & b_do_133
        b_do_135 = b_do_134.broadcast_to([64, 64])
        b_do_136 = b_do_135 & b_dh_80
        mbarrier.wait(b_do_137_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_do_137_buf.index(twill_k % 2), b_do_131, mask=b_do_136)  # load2_b_do: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_do_137_ready.index(twill_k % 2), increment_count=False)
        else:
            b_do_137_buf.index(twill_k % 2).store(gl.load(b_do_131, mask=b_do_136, other=0.0))  # load2_b_do: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_do_137_ready.index(twill_k % 2), count=128)

@gluon.jit
def twill_kernel(q, gk, do, dh, dht, dh0, scale, T, TWILL_COPY: gl.constexpr):
    b_do_137_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_do_137_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_do_137_ready.index(i), count=128)
    b_do_137_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_do_137_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (q, gk, do, dh, dht, dh0, scale, T, b_do_137_buf, b_do_137_ready, b_do_137_empty, TWILL_COPY)),
        (producer_1, (q, gk, do, dh, dht, dh0, scale, T, b_do_137_buf, b_do_137_ready, b_do_137_empty, TWILL_COPY)),
    ], [4], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'g', 'g_gamma', 'gk', 'gv', 'do', 'dh', 'dht', 'dh0', 'cu_seqlens', 'split_offsets', 'scale', 'T', 'HQ', 'H', 'K', 'V', 'BT', 'BS', 'BK', 'BV', 'NG', 'USE_G', 'USE_G_GAMMA', 'USE_GK', 'USE_GV', 'STORE_INITIAL_STATE_GRADIENT', 'USE_FINAL_STATE_GRADIENT', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'gk', 'do', 'dh', 'dht', 'dh0', 'scale', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'g', 'g_gamma', 'gk', 'gv', 'do', 'dh', 'dht', 'dh0', 'cu_seqlens', 'split_offsets', 'scale', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'HQ': 4, 'H': 4, 'K': 128, 'V': 128, 'BT': 64, 'BS': 128, 'BK': 64, 'BV': 64, 'NG': 1, 'USE_G': False, 'USE_G_GAMMA': False, 'USE_GK': True, 'USE_GV': False, 'STORE_INITIAL_STATE_GRADIENT': True, 'USE_FINAL_STATE_GRADIENT': True, 'IS_VARLEN': False}         # the specialisation this kernel was generated for
HEURISTICS = {'STORE_INITIAL_STATE_GRADIENT': "lambda args: args['dh0'] is not None", 'USE_FINAL_STATE_GRADIENT': "lambda args: args['dht'] is not None", 'IS_VARLEN': "lambda args: args['cu_seqlens'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['do']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((((T + 63) // 64) - 1) - -1 + 1 - 1) // 1', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((((T + 63) // 64) - 1) - -1 + 1 - 1) // 1): run the Triton kernel for it")
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
