"""_matmul_a16_mxfp4_upcast, written by twill from its joint schedule: I=207 L=399 (optimal), 2826 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_92): their addresses and masks spread over 128 threads
- a_92 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples, (M) % 128 == 0; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 232): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_92: 2 buffers of [128, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared operand acc_146_st: partition 0 stores the loop's [128, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 65584 bytes planned of 232448; maxnreg 256
- written from the layouts Triton gives stride_sn 16-divisible (its pointer loads 16 bytes a thread where the launch's specialisation proves them aligned, as Triton's own kernel at such a launch; at one where they are not, Gluon's lowering loads narrower vectors: run 66, FlagGems' softmax correct at N = 33001, x0.64 -> x1.00)
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 2 iteration(s) ahead, 102400 bytes of shared memory compiled, ptxas 254 registers, clean; simulated for 0, 1, 2, 3, 4, 9 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16, 2], threads_per_warp=[16, 2, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 32], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0]))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 32], threads_per_warp=[16, 2, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2, 1], threads_per_warp=[32, 1, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L13 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 32], [0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane_bases=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp_bases=[[32, 0], [64, 0]], block_bases=[], shape=[128, 64]))
L14 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, w_ptr, w_scale_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_sn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_92, a_92_buf, acc_146_st, a_92_ready, a_92_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        grid_m = M + 127
        grid_m_23 = grid_m // 128
        grid_n = N + 127
        grid_n_24 = grid_n // 128
        width = grid_n_24 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_25 = grid_m_23 - group_size
        group_size_26 = gl.minimum(group_size_25, 8)
        pid_m = pid % group_size_26
        pid_m_27 = group_size + pid_m
        pid_n = pid % width
        pid_n_28 = pid_n // group_size_26
        offs_m = pid_m_27 * 128
        offs_m_29 = gl.arange(0, 128, layout=L0)
        offs_m_30 = gl.arange(0, 128, layout=L1)
        offs_m_31 = gl.arange(0, 128, layout=L2)
        offs_m_32 = gl.arange(0, 128, layout=L3)
        offs_m_33 = gl.arange(0, 128, layout=L4)
        offs_m_36 = offs_m + offs_m_29
        offs_m_37 = offs_m + offs_m_32
        offs_n = pid_n_28 * 128
        offs_n_41 = offs_n + offs_m_30
        offs_n_42 = offs_n + offs_m_31
        offs_n_43 = offs_n + offs_m_33
        offs_am_44 = offs_m_36 % M
        offs_am_44 = gl.max_contiguous(gl.multiple_of(offs_am_44, [128]), [128])
        offs_wn_46 = offs_n_41 % N
        offs_wn_46 = gl.max_contiguous(gl.multiple_of(offs_wn_46, [128]), [128])
        offs_wn_47 = offs_n_42 % N
        offs_wn_47 = gl.max_contiguous(gl.multiple_of(offs_wn_47, [128]), [128])
        a_ptrs = gl.expand_dims(offs_am_44, 1)
        a_ptrs_49 = a_ptrs * stride_am
        a_ptrs_51 = a_ptr + a_ptrs_49
        a_ptrs_52 = gl.arange(0, 64, layout=L5)
        a_ptrs_53 = gl.expand_dims(a_ptrs_52, 0)
        a_ptrs_54 = a_ptrs_51.broadcast_to([128, 64])
        a_ptrs_55 = a_ptrs_53.broadcast_to([128, 64])
        a_ptrs_56 = a_ptrs_54 + a_ptrs_55
        w_ptrs = gl.expand_dims(offs_wn_46, 1)
        w_ptrs_57 = gl.expand_dims(offs_wn_47, 1)
        w_ptrs_59 = w_ptrs * stride_wn
        w_ptrs_61 = w_ptr + w_ptrs_59
        w_ptrs_62 = gl.arange(0, 32, layout=L6)
        w_ptrs_63 = gl.expand_dims(w_ptrs_62, 0)
        w_ptrs_64 = w_ptrs_61.broadcast_to([128, 32])
        w_ptrs_65 = w_ptrs_63.broadcast_to([128, 32])
        w_ptrs_66 = w_ptrs_64 + w_ptrs_65
        s_ptrs_67 = w_ptrs_57 * stride_sn
        s_ptrs_69 = w_scale_ptr + s_ptrs_67
        s_ptrs_70 = gl.arange(0, 2, layout=L7)
        s_ptrs_71 = gl.expand_dims(s_ptrs_70, 0)
        s_ptrs_72 = s_ptrs_69.broadcast_to([128, 2])
        s_ptrs_73 = s_ptrs_71.broadcast_to([128, 2])
        s_ptrs_74 = s_ptrs_72 + s_ptrs_73
        v0 = K + 63
        v1 = v0 // 64
        twill_n = (v1 - 0 + 1 - 1) // 1
        w_ptrs_150 = w_ptrs_66
        s_ptrs_151 = s_ptrs_74
        s_ptrs_151_p1 = s_ptrs_151
        w_ptrs_150_p1 = w_ptrs_150
        k_left = (0 + (0 - 0) * 1) * 64  # load0_a: stage 0, partition 0 (group 0)
        k_left_89 = K - k_left  # load0_a: stage 0, partition 0 (group 0)
        w = k_left_89 // 2  # load1_w: stage 0, partition 0 (group 0)
        w_94 = w  # load1_w: stage 0, partition 0 (group 0)
        w_95 = w_ptrs_63 < w_94  # load1_w: stage 0, partition 0 (group 0)
        w_96 = w_95.broadcast_to([128, 32])  # load1_w: stage 0, partition 0 (group 0)
        w_ptrs_150 = w_ptrs_150_p1 + 32  # load1_w: stage 0, partition 0 (group 0)
        w_97 = gl.load(w_ptrs_150_p1, mask=w_96, other=0)  # load1_w: stage 0, partition 0 (group 0)
        w_scale = k_left_89 // 32  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_98 = w_scale  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_99 = s_ptrs_71 < w_scale_98  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_100 = w_scale_99.broadcast_to([128, 2])  # load2_w_scale: stage 0, partition 0 (group 0)
        s_ptrs_151 = s_ptrs_151_p1 + 2  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_101 = gl.load(s_ptrs_151_p1, mask=w_scale_100, other=0)  # load2_w_scale: stage 0, partition 0 (group 0)
        s_ptrs_151_p1 = s_ptrs_151
        w_97_p1 = w_97
        w_ptrs_150_p1 = w_ptrs_150
        w_scale_101_p1 = w_scale_101
        acc_148 = gl.full([128, 128], 0.0, gl.float32, layout=L8)
        k_left = (0 + (1 - 0) * 1) * 64  # load0_a: stage 0, partition 0 (group 0)
        k_left_89 = K - k_left  # load0_a: stage 0, partition 0 (group 0)
        w = k_left_89 // 2  # load1_w: stage 0, partition 0 (group 0)
        w_94 = w  # load1_w: stage 0, partition 0 (group 0)
        w_95 = w_ptrs_63 < w_94  # load1_w: stage 0, partition 0 (group 0)
        w_96 = w_95.broadcast_to([128, 32])  # load1_w: stage 0, partition 0 (group 0)
        w_ptrs_150 = w_ptrs_150_p1 + 32  # load1_w: stage 0, partition 0 (group 0)
        w_97 = gl.load(w_ptrs_150_p1, mask=w_96, other=0)  # load1_w: stage 0, partition 0 (group 0)
        em0 = w_97_p1 & 7  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        em1 = w_97_p1 & 112  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_105 = x0 << 9  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_106 = w_97_p1 & 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_107 = gl.cast(gl.cast(x0_106, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_108 = x0_107 << 12  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_109 = x0_105 | x0_108  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_110 = x1 << 5  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_111 = gl.cast(gl.cast(w_97_p1, gl.int8, bitcast=True) & -128, w_97_p1.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_112 = gl.cast(gl.cast(x1_111, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_113 = x1_112 << 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_114 = x1_110 | x1_113  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_115 = em0 & 6  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_116 = gl.cast(gl.cast(x0_115, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_117 = x0_116 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_118 = x0_109 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_119 = gl.where(x0_117, x0_118, x0_109)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_120 = em1 & 96  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_121 = gl.cast(gl.cast(x1_120, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_122 = x1_121 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_123 = x1_114 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_124 = gl.where(x1_122, x1_123, x1_114)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_125 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_126 = x0_125 == 1  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_127 = gl.cast(gl.cast(x0_119, gl.int16, bitcast=True) & -32768, x0_119.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_128 = x0_127 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_129 = gl.where(x0_126, x0_128, x0_119)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_130 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_131 = x1_130 == 16  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_132 = gl.cast(gl.cast(x1_124, gl.int16, bitcast=True) & -32768, x1_124.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_133 = x1_132 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_134 = gl.where(x1_131, x1_133, x1_124)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        c_135 = gl.convert_layout(gl.join(x0_129, x1_134), L9)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor = gl.convert_layout(gl.reshape(c_135, [128, 64]), L10)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor_136 = dst_tensor.to(gl.float16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor_137 = gl.convert_layout(gl.reshape(dst_tensor_136, [128, 2, 32]), L11)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor_138 = gl.convert_layout(dst_tensor_137, L12)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
        w_scale = k_left_89 // 32  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_98 = w_scale  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_99 = s_ptrs_71 < w_scale_98  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_100 = w_scale_99.broadcast_to([128, 2])  # load2_w_scale: stage 0, partition 0 (group 0)
        s_ptrs_151 = s_ptrs_151_p1 + 2  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_101 = gl.load(s_ptrs_151_p1, mask=w_scale_100, other=0)  # load2_w_scale: stage 0, partition 0 (group 0)
        dst_scale = gl.cast(gl.cast(w_scale_101_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_102 = dst_scale << 23  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_103 = dst_scale_102.to(gl.float32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_104 = dst_scale_103.to(gl.float16)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_139 = gl.convert_layout(gl.reshape(dst_scale_104, [128, 2, 1]), L12)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        scale = gl.convert_layout(gl.reshape(w_scale_101_p1, [128, 2, 1]), L12)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor = dst_scale_139.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_140 = dst_tensor_138 * out_tensor  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_141 = gl.cast(gl.cast(scale, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_142 = out_tensor_141 == 255  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_143 = out_tensor_142.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_144 = gl.where(out_tensor_143, float("nan"), out_tensor_140)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        acc_148_p1 = acc_148
        out_tensor_144_p1 = out_tensor_144
        s_ptrs_151_p1 = s_ptrs_151
        w_97_p1 = w_97
        w_ptrs_150_p1 = w_ptrs_150
        w_scale_101_p1 = w_scale_101
        for twill_b in range(2, twill_n):
            k_left = (0 + (twill_b - 0) * 1) * 64  # load0_a: stage 0, partition 0 (group 0)
            k_left_89 = K - k_left  # load0_a: stage 0, partition 0 (group 0)
            w = k_left_89 // 2  # load1_w: stage 0, partition 0 (group 0)
            w_94 = w  # load1_w: stage 0, partition 0 (group 0)
            w_95 = w_ptrs_63 < w_94  # load1_w: stage 0, partition 0 (group 0)
            w_96 = w_95.broadcast_to([128, 32])  # load1_w: stage 0, partition 0 (group 0)
            w_ptrs_150 = w_ptrs_150_p1 + 32  # load1_w: stage 0, partition 0 (group 0)
            w_97 = gl.load(w_ptrs_150_p1, mask=w_96, other=0)  # load1_w: stage 0, partition 0 (group 0)
            em0 = w_97_p1 & 7  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            em1 = w_97_p1 & 112  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_105 = x0 << 9  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_106 = w_97_p1 & 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_107 = gl.cast(gl.cast(x0_106, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_108 = x0_107 << 12  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_109 = x0_105 | x0_108  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_110 = x1 << 5  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_111 = gl.cast(gl.cast(w_97_p1, gl.int8, bitcast=True) & -128, w_97_p1.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_112 = gl.cast(gl.cast(x1_111, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_113 = x1_112 << 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_114 = x1_110 | x1_113  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_115 = em0 & 6  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_116 = gl.cast(gl.cast(x0_115, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_117 = x0_116 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_118 = x0_109 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_119 = gl.where(x0_117, x0_118, x0_109)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_120 = em1 & 96  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_121 = gl.cast(gl.cast(x1_120, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_122 = x1_121 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_123 = x1_114 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_124 = gl.where(x1_122, x1_123, x1_114)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_125 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_126 = x0_125 == 1  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_127 = gl.cast(gl.cast(x0_119, gl.int16, bitcast=True) & -32768, x0_119.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_128 = x0_127 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_129 = gl.where(x0_126, x0_128, x0_119)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_130 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_131 = x1_130 == 16  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_132 = gl.cast(gl.cast(x1_124, gl.int16, bitcast=True) & -32768, x1_124.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_133 = x1_132 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_134 = gl.where(x1_131, x1_133, x1_124)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            c_135 = gl.convert_layout(gl.join(x0_129, x1_134), L9)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            dst_tensor = gl.convert_layout(gl.reshape(c_135, [128, 64]), L10)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            dst_tensor_136 = dst_tensor.to(gl.float16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            w_145 = gl.convert_layout(gl.reshape(out_tensor_144_p1, [128, 64]), L13)  # local_store0_acc: stage 2, partition 0 (group 0)
            acc_146 = acc_146_st.index((twill_b - 2) % 2)  # local_store0_acc: stage 2, partition 0 (group 0)
            acc_146.store(w_145)  # local_store0_acc: stage 2, partition 0 (group 0)
            fence_async_shared()  # local_store0_acc: stage 2, partition 0 (group 0)
            acc_147 = acc_146.permute((1, 0))  # dot0_acc: stage 2, partition 0 (group 0)
            mbarrier.wait(a_92_ready.index((twill_base + twill_b - 2) % 2), ((twill_base + twill_b - 2) // 2) & 1)
            fence_async_shared()
            tok_acc_148 = warpgroup_mma(a_92_buf.index((twill_base + twill_b - 2) % 2), acc_147, acc_148_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            dst_tensor_137 = gl.convert_layout(gl.reshape(dst_tensor_136, [128, 2, 32]), L11)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
            dst_tensor_138 = gl.convert_layout(dst_tensor_137, L12)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
            w_scale = k_left_89 // 32  # load2_w_scale: stage 0, partition 0 (group 0)
            w_scale_98 = w_scale  # load2_w_scale: stage 0, partition 0 (group 0)
            w_scale_99 = s_ptrs_71 < w_scale_98  # load2_w_scale: stage 0, partition 0 (group 0)
            w_scale_100 = w_scale_99.broadcast_to([128, 2])  # load2_w_scale: stage 0, partition 0 (group 0)
            s_ptrs_151 = s_ptrs_151_p1 + 2  # load2_w_scale: stage 0, partition 0 (group 0)
            w_scale_101 = gl.load(s_ptrs_151_p1, mask=w_scale_100, other=0)  # load2_w_scale: stage 0, partition 0 (group 0)
            dst_scale = gl.cast(gl.cast(w_scale_101_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
            dst_scale_102 = dst_scale << 23  # convert0_dst_scale: stage 1, partition 0 (group 0)
            dst_scale_103 = dst_scale_102.to(gl.float32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
            dst_scale_104 = dst_scale_103.to(gl.float16)  # convert0_dst_scale: stage 1, partition 0 (group 0)
            dst_scale_139 = gl.convert_layout(gl.reshape(dst_scale_104, [128, 2, 1]), L12)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            scale = gl.convert_layout(gl.reshape(w_scale_101_p1, [128, 2, 1]), L12)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor = dst_scale_139.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor_140 = dst_tensor_138 * out_tensor  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor_141 = gl.cast(gl.cast(scale, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor_142 = out_tensor_141 == 255  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor_143 = out_tensor_142.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor_144 = gl.where(out_tensor_143, float("nan"), out_tensor_140)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_148,))
            mbarrier.arrive(a_92_empty.index((twill_base + twill_b - 1 - 2) % 2), pred=(twill_b - 1 - 2) >= 0)
            acc_148 = warpgroup_mma_wait(1, deps=(tok_acc_148,))
            acc_148_p1 = acc_148
            out_tensor_144_p1 = out_tensor_144
            s_ptrs_151_p1 = s_ptrs_151
            w_97_p1 = w_97
            w_ptrs_150_p1 = w_ptrs_150
            w_scale_101_p1 = w_scale_101
        em0 = w_97_p1 & 7  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        em1 = w_97_p1 & 112  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_105 = x0 << 9  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_106 = w_97_p1 & 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_107 = gl.cast(gl.cast(x0_106, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_108 = x0_107 << 12  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_109 = x0_105 | x0_108  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_110 = x1 << 5  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_111 = gl.cast(gl.cast(w_97_p1, gl.int8, bitcast=True) & -128, w_97_p1.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_112 = gl.cast(gl.cast(x1_111, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_113 = x1_112 << 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_114 = x1_110 | x1_113  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_115 = em0 & 6  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_116 = gl.cast(gl.cast(x0_115, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_117 = x0_116 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_118 = x0_109 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_119 = gl.where(x0_117, x0_118, x0_109)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_120 = em1 & 96  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_121 = gl.cast(gl.cast(x1_120, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_122 = x1_121 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_123 = x1_114 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_124 = gl.where(x1_122, x1_123, x1_114)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_125 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_126 = x0_125 == 1  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_127 = gl.cast(gl.cast(x0_119, gl.int16, bitcast=True) & -32768, x0_119.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_128 = x0_127 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_129 = gl.where(x0_126, x0_128, x0_119)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_130 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_131 = x1_130 == 16  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_132 = gl.cast(gl.cast(x1_124, gl.int16, bitcast=True) & -32768, x1_124.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_133 = x1_132 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_134 = gl.where(x1_131, x1_133, x1_124)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        c_135 = gl.convert_layout(gl.join(x0_129, x1_134), L9)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor = gl.convert_layout(gl.reshape(c_135, [128, 64]), L10)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor_136 = dst_tensor.to(gl.float16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        w_145 = gl.convert_layout(gl.reshape(out_tensor_144_p1, [128, 64]), L13)  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_146 = acc_146_st.index(((twill_n - 1 + 1) - 2) % 2)  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_146.store(w_145)  # local_store0_acc: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_147 = acc_146.permute((1, 0))  # dot0_acc: stage 2, partition 0 (group 0)
        mbarrier.wait(a_92_ready.index((twill_base + (twill_n - 1 + 1) - 2) % 2), ((twill_base + (twill_n - 1 + 1) - 2) // 2) & 1)
        fence_async_shared()
        tok_acc_148 = warpgroup_mma(a_92_buf.index((twill_base + (twill_n - 1 + 1) - 2) % 2), acc_147, acc_148_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        dst_tensor_137 = gl.convert_layout(gl.reshape(dst_tensor_136, [128, 2, 32]), L11)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor_138 = gl.convert_layout(dst_tensor_137, L12)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
        dst_scale = gl.cast(gl.cast(w_scale_101_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_102 = dst_scale << 23  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_103 = dst_scale_102.to(gl.float32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_104 = dst_scale_103.to(gl.float16)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_139 = gl.convert_layout(gl.reshape(dst_scale_104, [128, 2, 1]), L12)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        scale = gl.convert_layout(gl.reshape(w_scale_101_p1, [128, 2, 1]), L12)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor = dst_scale_139.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_140 = dst_tensor_138 * out_tensor  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_141 = gl.cast(gl.cast(scale, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_142 = out_tensor_141 == 255  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_143 = out_tensor_142.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_144 = gl.where(out_tensor_143, float("nan"), out_tensor_140)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_148,))
        mbarrier.arrive(a_92_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 2) % 2), pred=((twill_n - 1 + 1) - 1 - 2) >= 0)
        acc_148 = warpgroup_mma_wait(1, deps=(tok_acc_148,))
        acc_148_p1 = acc_148
        out_tensor_144_p1 = out_tensor_144
        s_ptrs_151_p2 = s_ptrs_151_p1
        s_ptrs_151_p1 = s_ptrs_151
        w_97_p1 = w_97
        w_ptrs_150_p2 = w_ptrs_150_p1
        w_ptrs_150_p1 = w_ptrs_150
        w_scale_101_p1 = w_scale_101
        w_145 = gl.convert_layout(gl.reshape(out_tensor_144_p1, [128, 64]), L13)  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_146 = acc_146_st.index(((twill_n - 1 + 2) - 2) % 2)  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_146.store(w_145)  # local_store0_acc: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_147 = acc_146.permute((1, 0))  # dot0_acc: stage 2, partition 0 (group 0)
        mbarrier.wait(a_92_ready.index((twill_base + (twill_n - 1 + 2) - 2) % 2), ((twill_base + (twill_n - 1 + 2) - 2) // 2) & 1)
        fence_async_shared()
        tok_acc_148 = warpgroup_mma(a_92_buf.index((twill_base + (twill_n - 1 + 2) - 2) % 2), acc_147, acc_148_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_148,))
        mbarrier.arrive(a_92_empty.index((twill_base + (twill_n - 1 + 2) - 1 - 2) % 2), pred=((twill_n - 1 + 2) - 1 - 2) >= 0)
        acc_148 = warpgroup_mma_wait(1, deps=(tok_acc_148,))
        acc_148_p1 = acc_148
        out_tensor_144_p1 = out_tensor_144
        s_ptrs_151_p3 = s_ptrs_151_p2
        s_ptrs_151_p2 = s_ptrs_151_p1
        s_ptrs_151_p1 = s_ptrs_151
        w_97_p1 = w_97
        w_ptrs_150_p3 = w_ptrs_150_p2
        w_ptrs_150_p2 = w_ptrs_150_p1
        w_ptrs_150_p1 = w_ptrs_150
        w_scale_101_p1 = w_scale_101
        acc_148_p1 = warpgroup_mma_wait(0, deps=(acc_148_p1,))
        a_92_buf._keep_alive()
        acc_146_st._keep_alive()
        mbarrier.arrive(a_92_empty.index((twill_base + (twill_n - 1 + 2) - 2) % 2))
        c = acc_148_p1.to(gl.float16)
        c_ptrs = gl.expand_dims(offs_m_37, 1)
        c_ptrs_77 = c_ptrs * stride_cm
        c_ptrs_79 = c_ptr + c_ptrs_77
        c_ptrs_80 = gl.expand_dims(offs_n_43, 0)
        c_ptrs_81 = c_ptrs_79.broadcast_to([128, 128])
        c_ptrs_82 = c_ptrs_80.broadcast_to([128, 128])
        c_ptrs_83 = c_ptrs_81 + c_ptrs_82
        v3 = c_ptrs < M
        v5 = c_ptrs_80 < N
        v6 = v3.broadcast_to([128, 128])
        v7 = v5.broadcast_to([128, 128])
        v8 = v6 & v7
        v9 = gl.convert_layout(c, L14)
        gl.store(c_ptrs_83, v9, mask=v8)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, w_ptr, w_scale_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_sn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_92, a_92_buf, acc_146_st, a_92_ready, a_92_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        grid_m = M + 127
        grid_m_23 = grid_m // 128
        grid_n = N + 127
        grid_n_24 = grid_n // 128
        width = grid_n_24 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_25 = grid_m_23 - group_size
        group_size_26 = gl.minimum(group_size_25, 8)
        pid_m = pid % group_size_26
        pid_m_27 = group_size + pid_m
        offs_m = pid_m_27 * 128
        offs_m_29 = gl.arange(0, 128, layout=L0)
        offs_m_36 = offs_m + offs_m_29
        offs_am_44 = offs_m_36 % M
        offs_am_44 = gl.max_contiguous(gl.multiple_of(offs_am_44, [128]), [128])
        a_ptrs = gl.expand_dims(offs_am_44, 1)
        a_ptrs_49 = a_ptrs * stride_am
        a_ptrs_51 = a_ptr + a_ptrs_49
        a_ptrs_52 = gl.arange(0, 64, layout=L5)
        a_ptrs_53 = gl.expand_dims(a_ptrs_52, 0)
        a_ptrs_54 = a_ptrs_51.broadcast_to([128, 64])
        a_ptrs_55 = a_ptrs_53.broadcast_to([128, 64])
        a_ptrs_56 = a_ptrs_54 + a_ptrs_55
        v0 = K + 63
        v1 = v0 // 64
        a_ptrs_86 = a_ptrs_56
        for acc_84 in range(0, v1, 1):
            twill_k = twill_base + (acc_84 - 0) // 1
            k_left = acc_84 * 64
            k_left_89 = K - k_left
            a_90 = a_ptrs_53 < k_left_89
            a_91 = a_90.broadcast_to([128, 64])
            a_ptrs_149 = a_ptrs_86 + 64
            mbarrier.wait(a_92_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_92_ready.index(twill_k % 2), twill_box_a_92.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a_92, [((1024 * group_id + 128 * pid_m) % (M)), 64 * acc_84], a_92_ready.index(twill_k % 2), a_92_buf.index(twill_k % 2))  # load0_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_92_buf.index(twill_k % 2), a_ptrs_86, mask=a_91)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_92_ready.index(twill_k % 2), increment_count=False)
                else:
                    a_92_buf.index(twill_k % 2).store(gl.load(a_ptrs_86, mask=a_91, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_92_ready.index(twill_k % 2), count=128)
            a_ptrs_86 = a_ptrs_149
        twill_base += (v1 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(a_ptr, w_ptr, w_scale_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_sn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_92, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_92_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    acc_146_st = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    a_92_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_92_ready.index(i), count=1 if TWILL_TMA else 128)
    a_92_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_92_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, w_ptr, w_scale_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_sn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_92, a_92_buf, acc_146_st, a_92_ready, a_92_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, w_ptr, w_scale_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_sn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_92, a_92_buf, acc_146_st, a_92_ready, a_92_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [64])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0])))
L7_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))
L8_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16, 2], threads_per_warp=[16, 2, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L10_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 32], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0]))
L11_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 32], threads_per_warp=[16, 2, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L12_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2, 1], threads_per_warp=[32, 1, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L13_short = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 32], [0, 1], [0, 2], [0, 4], [0, 8], [0, 16]], lane_bases=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp_bases=[[32, 0], [64, 0]], block_bases=[], shape=[128, 64]))
L14_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(a_ptr, w_ptr, w_scale_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_sn, stride_cm, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    grid_m = M + 127
    grid_m_23 = grid_m // 128
    grid_n = N + 127
    grid_n_24 = grid_n // 128
    width = grid_n_24 * 8
    group_id = pid // width
    group_size = group_id * 8
    group_size_25 = grid_m_23 - group_size
    group_size_26 = gl.minimum(group_size_25, 8)
    pid_m = pid % group_size_26
    pid_m_27 = group_size + pid_m
    pid_n = pid % width
    pid_n_28 = pid_n // group_size_26
    offs_m = pid_m_27 * 128
    offs_m_29 = gl.arange(0, 128, layout=L0_short)
    offs_m_30 = gl.arange(0, 128, layout=L1_short)
    offs_m_31 = gl.arange(0, 128, layout=L2_short)
    offs_m_32 = gl.arange(0, 128, layout=L3_short)
    offs_m_33 = gl.arange(0, 128, layout=L4_short)
    offs_m_36 = offs_m + offs_m_29
    offs_m_37 = offs_m + offs_m_32
    offs_n = pid_n_28 * 128
    offs_n_41 = offs_n + offs_m_30
    offs_n_42 = offs_n + offs_m_31
    offs_n_43 = offs_n + offs_m_33
    offs_am_44 = offs_m_36 % M
    offs_am_44 = gl.max_contiguous(gl.multiple_of(offs_am_44, [128]), [128])
    offs_wn_46 = offs_n_41 % N
    offs_wn_46 = gl.max_contiguous(gl.multiple_of(offs_wn_46, [128]), [128])
    offs_wn_47 = offs_n_42 % N
    offs_wn_47 = gl.max_contiguous(gl.multiple_of(offs_wn_47, [128]), [128])
    a_ptrs = gl.expand_dims(offs_am_44, 1)
    a_ptrs_49 = a_ptrs * stride_am
    a_ptrs_51 = a_ptr + a_ptrs_49
    a_ptrs_52 = gl.arange(0, 64, layout=L5_short)
    a_ptrs_53 = gl.expand_dims(a_ptrs_52, 0)
    a_ptrs_54 = a_ptrs_51.broadcast_to([128, 64])
    a_ptrs_55 = a_ptrs_53.broadcast_to([128, 64])
    a_ptrs_56 = a_ptrs_54 + a_ptrs_55
    w_ptrs = gl.expand_dims(offs_wn_46, 1)
    w_ptrs_57 = gl.expand_dims(offs_wn_47, 1)
    w_ptrs_59 = w_ptrs * stride_wn
    w_ptrs_61 = w_ptr + w_ptrs_59
    w_ptrs_62 = gl.arange(0, 32, layout=L6_short)
    w_ptrs_63 = gl.expand_dims(w_ptrs_62, 0)
    w_ptrs_64 = w_ptrs_61.broadcast_to([128, 32])
    w_ptrs_65 = w_ptrs_63.broadcast_to([128, 32])
    w_ptrs_66 = w_ptrs_64 + w_ptrs_65
    s_ptrs_67 = w_ptrs_57 * stride_sn
    s_ptrs_69 = w_scale_ptr + s_ptrs_67
    s_ptrs_70 = gl.arange(0, 2, layout=L7_short)
    s_ptrs_71 = gl.expand_dims(s_ptrs_70, 0)
    s_ptrs_72 = s_ptrs_69.broadcast_to([128, 2])
    s_ptrs_73 = s_ptrs_71.broadcast_to([128, 2])
    s_ptrs_74 = s_ptrs_72 + s_ptrs_73
    v0 = K + 63
    v1 = v0 // 64
    twill_n = (v1 - 0 + 1 - 1) // 1
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        a_93_ring = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        acc_146_st = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        a_ptrs_149 = a_ptrs_56
        w_ptrs_150 = w_ptrs_66
        s_ptrs_151 = s_ptrs_74
        a_ptrs_149_p1 = a_ptrs_149
        s_ptrs_151_p1 = s_ptrs_151
        w_ptrs_150_p1 = w_ptrs_150
        k_left = (0 + (0 - 0) * 1) * 64  # load0_a: stage 0, partition 0 (group 0)
        k_left_89 = K - k_left  # load0_a: stage 0, partition 0 (group 0)
        w = k_left_89 // 2  # load1_w: stage 0, partition 0 (group 0)
        w_94 = w  # load1_w: stage 0, partition 0 (group 0)
        w_95 = w_ptrs_63 < w_94  # load1_w: stage 0, partition 0 (group 0)
        w_96 = w_95.broadcast_to([128, 32])  # load1_w: stage 0, partition 0 (group 0)
        w_ptrs_150 = w_ptrs_150_p1 + 32  # load1_w: stage 0, partition 0 (group 0)
        w_97 = gl.load(w_ptrs_150_p1, mask=w_96, other=0)  # load1_w: stage 0, partition 0 (group 0)
        a = k_left_89  # load0_a: stage 0, partition 0 (group 0)
        a_90 = a_ptrs_53 < a  # load0_a: stage 0, partition 0 (group 0)
        a_91 = a_90.broadcast_to([128, 64])  # load0_a: stage 0, partition 0 (group 0)
        a_ptrs_149 = a_ptrs_149_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_93_ring.index((0 - 0) % 4), a_ptrs_149_p1, mask=a_91)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_93_ring.index((0 - 0) % 4).store(gl.load(a_ptrs_149_p1, mask=a_91, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        w_scale = k_left_89 // 32  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_98 = w_scale  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_99 = s_ptrs_71 < w_scale_98  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_100 = w_scale_99.broadcast_to([128, 2])  # load2_w_scale: stage 0, partition 0 (group 0)
        s_ptrs_151 = s_ptrs_151_p1 + 2  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_101 = gl.load(s_ptrs_151_p1, mask=w_scale_100, other=0)  # load2_w_scale: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_149_p1 = a_ptrs_149
        s_ptrs_151_p1 = s_ptrs_151
        w_97_p1 = w_97
        w_ptrs_150_p1 = w_ptrs_150
        w_scale_101_p1 = w_scale_101
        acc_148 = gl.full([128, 128], 0.0, gl.float32, layout=L8_short)
        k_left = (0 + (1 - 0) * 1) * 64  # load0_a: stage 0, partition 0 (group 0)
        k_left_89 = K - k_left  # load0_a: stage 0, partition 0 (group 0)
        w = k_left_89 // 2  # load1_w: stage 0, partition 0 (group 0)
        w_94 = w  # load1_w: stage 0, partition 0 (group 0)
        w_95 = w_ptrs_63 < w_94  # load1_w: stage 0, partition 0 (group 0)
        w_96 = w_95.broadcast_to([128, 32])  # load1_w: stage 0, partition 0 (group 0)
        w_ptrs_150 = w_ptrs_150_p1 + 32  # load1_w: stage 0, partition 0 (group 0)
        w_97 = gl.load(w_ptrs_150_p1, mask=w_96, other=0)  # load1_w: stage 0, partition 0 (group 0)
        em0 = w_97_p1 & 7  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        em1 = w_97_p1 & 112  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_105 = x0 << 9  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_106 = w_97_p1 & 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_107 = gl.cast(gl.cast(x0_106, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_108 = x0_107 << 12  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_109 = x0_105 | x0_108  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_110 = x1 << 5  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_111 = gl.cast(gl.cast(w_97_p1, gl.int8, bitcast=True) & -128, w_97_p1.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_112 = gl.cast(gl.cast(x1_111, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_113 = x1_112 << 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_114 = x1_110 | x1_113  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_115 = em0 & 6  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_116 = gl.cast(gl.cast(x0_115, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_117 = x0_116 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_118 = x0_109 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_119 = gl.where(x0_117, x0_118, x0_109)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_120 = em1 & 96  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_121 = gl.cast(gl.cast(x1_120, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_122 = x1_121 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_123 = x1_114 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_124 = gl.where(x1_122, x1_123, x1_114)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_125 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_126 = x0_125 == 1  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_127 = gl.cast(gl.cast(x0_119, gl.int16, bitcast=True) & -32768, x0_119.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_128 = x0_127 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_129 = gl.where(x0_126, x0_128, x0_119)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_130 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_131 = x1_130 == 16  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_132 = gl.cast(gl.cast(x1_124, gl.int16, bitcast=True) & -32768, x1_124.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_133 = x1_132 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_134 = gl.where(x1_131, x1_133, x1_124)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        c_135 = gl.convert_layout(gl.join(x0_129, x1_134), L9_short)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor = gl.convert_layout(gl.reshape(c_135, [128, 64]), L10_short)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor_136 = dst_tensor.to(gl.float16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        a = k_left_89  # load0_a: stage 0, partition 0 (group 0)
        a_90 = a_ptrs_53 < a  # load0_a: stage 0, partition 0 (group 0)
        a_91 = a_90.broadcast_to([128, 64])  # load0_a: stage 0, partition 0 (group 0)
        a_ptrs_149 = a_ptrs_149_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_93_ring.index((1 - 0) % 4), a_ptrs_149_p1, mask=a_91)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_93_ring.index((1 - 0) % 4).store(gl.load(a_ptrs_149_p1, mask=a_91, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        dst_tensor_137 = gl.convert_layout(gl.reshape(dst_tensor_136, [128, 2, 32]), L11_short)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor_138 = gl.convert_layout(dst_tensor_137, L12_short)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
        w_scale = k_left_89 // 32  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_98 = w_scale  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_99 = s_ptrs_71 < w_scale_98  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_100 = w_scale_99.broadcast_to([128, 2])  # load2_w_scale: stage 0, partition 0 (group 0)
        s_ptrs_151 = s_ptrs_151_p1 + 2  # load2_w_scale: stage 0, partition 0 (group 0)
        w_scale_101 = gl.load(s_ptrs_151_p1, mask=w_scale_100, other=0)  # load2_w_scale: stage 0, partition 0 (group 0)
        dst_scale = gl.cast(gl.cast(w_scale_101_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_102 = dst_scale << 23  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_103 = dst_scale_102.to(gl.float32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_104 = dst_scale_103.to(gl.float16)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_139 = gl.convert_layout(gl.reshape(dst_scale_104, [128, 2, 1]), L12_short)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        scale = gl.convert_layout(gl.reshape(w_scale_101_p1, [128, 2, 1]), L12_short)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor = dst_scale_139.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_140 = dst_tensor_138 * out_tensor  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_141 = gl.cast(gl.cast(scale, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_142 = out_tensor_141 == 255  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_143 = out_tensor_142.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_144 = gl.where(out_tensor_143, float("nan"), out_tensor_140)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_149_p1 = a_ptrs_149
        acc_148_p1 = acc_148
        out_tensor_144_p1 = out_tensor_144
        s_ptrs_151_p1 = s_ptrs_151
        w_97_p1 = w_97
        w_ptrs_150_p1 = w_ptrs_150
        w_scale_101_p1 = w_scale_101
        for twill_b in range(2, twill_n):
            k_left = (0 + (twill_b - 0) * 1) * 64  # load0_a: stage 0, partition 0 (group 0)
            k_left_89 = K - k_left  # load0_a: stage 0, partition 0 (group 0)
            w = k_left_89 // 2  # load1_w: stage 0, partition 0 (group 0)
            w_94 = w  # load1_w: stage 0, partition 0 (group 0)
            w_95 = w_ptrs_63 < w_94  # load1_w: stage 0, partition 0 (group 0)
            w_96 = w_95.broadcast_to([128, 32])  # load1_w: stage 0, partition 0 (group 0)
            w_ptrs_150 = w_ptrs_150_p1 + 32  # load1_w: stage 0, partition 0 (group 0)
            w_97 = gl.load(w_ptrs_150_p1, mask=w_96, other=0)  # load1_w: stage 0, partition 0 (group 0)
            em0 = w_97_p1 & 7  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            em1 = w_97_p1 & 112  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_105 = x0 << 9  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_106 = w_97_p1 & 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_107 = gl.cast(gl.cast(x0_106, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_108 = x0_107 << 12  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_109 = x0_105 | x0_108  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_110 = x1 << 5  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_111 = gl.cast(gl.cast(w_97_p1, gl.int8, bitcast=True) & -128, w_97_p1.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_112 = gl.cast(gl.cast(x1_111, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_113 = x1_112 << 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_114 = x1_110 | x1_113  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_115 = em0 & 6  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_116 = gl.cast(gl.cast(x0_115, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_117 = x0_116 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_118 = x0_109 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_119 = gl.where(x0_117, x0_118, x0_109)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_120 = em1 & 96  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_121 = gl.cast(gl.cast(x1_120, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_122 = x1_121 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_123 = x1_114 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_124 = gl.where(x1_122, x1_123, x1_114)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_125 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_126 = x0_125 == 1  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_127 = gl.cast(gl.cast(x0_119, gl.int16, bitcast=True) & -32768, x0_119.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_128 = x0_127 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x0_129 = gl.where(x0_126, x0_128, x0_119)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_130 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_131 = x1_130 == 16  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_132 = gl.cast(gl.cast(x1_124, gl.int16, bitcast=True) & -32768, x1_124.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_133 = x1_132 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            x1_134 = gl.where(x1_131, x1_133, x1_124)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            c_135 = gl.convert_layout(gl.join(x0_129, x1_134), L9_short)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            dst_tensor = gl.convert_layout(gl.reshape(c_135, [128, 64]), L10_short)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            dst_tensor_136 = dst_tensor.to(gl.float16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
            w_145 = gl.convert_layout(gl.reshape(out_tensor_144_p1, [128, 64]), L13_short)  # local_store0_acc: stage 2, partition 0 (group 0)
            acc_146 = acc_146_st.index((twill_b - 2) % 2)  # local_store0_acc: stage 2, partition 0 (group 0)
            acc_146.store(w_145)  # local_store0_acc: stage 2, partition 0 (group 0)
            fence_async_shared()  # local_store0_acc: stage 2, partition 0 (group 0)
            a = k_left_89  # load0_a: stage 0, partition 0 (group 0)
            async_copy.wait_group(1)
            gl.thread_barrier()
            a_93 = a_93_ring.index((twill_b - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
            a_90 = a_ptrs_53 < a  # load0_a: stage 0, partition 0 (group 0)
            a_91 = a_90.broadcast_to([128, 64])  # load0_a: stage 0, partition 0 (group 0)
            a_ptrs_149 = a_ptrs_149_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_93_ring.index((twill_b - 0) % 4), a_ptrs_149_p1, mask=a_91)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_93_ring.index((twill_b - 0) % 4).store(gl.load(a_ptrs_149_p1, mask=a_91, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            acc_147 = acc_146.permute((1, 0))  # dot0_acc: stage 2, partition 0 (group 0)
            tok_acc_148 = warpgroup_mma(a_93, acc_147, acc_148_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            dst_tensor_137 = gl.convert_layout(gl.reshape(dst_tensor_136, [128, 2, 32]), L11_short)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
            dst_tensor_138 = gl.convert_layout(dst_tensor_137, L12_short)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
            w_scale = k_left_89 // 32  # load2_w_scale: stage 0, partition 0 (group 0)
            w_scale_98 = w_scale  # load2_w_scale: stage 0, partition 0 (group 0)
            w_scale_99 = s_ptrs_71 < w_scale_98  # load2_w_scale: stage 0, partition 0 (group 0)
            w_scale_100 = w_scale_99.broadcast_to([128, 2])  # load2_w_scale: stage 0, partition 0 (group 0)
            s_ptrs_151 = s_ptrs_151_p1 + 2  # load2_w_scale: stage 0, partition 0 (group 0)
            w_scale_101 = gl.load(s_ptrs_151_p1, mask=w_scale_100, other=0)  # load2_w_scale: stage 0, partition 0 (group 0)
            dst_scale = gl.cast(gl.cast(w_scale_101_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
            dst_scale_102 = dst_scale << 23  # convert0_dst_scale: stage 1, partition 0 (group 0)
            dst_scale_103 = dst_scale_102.to(gl.float32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
            dst_scale_104 = dst_scale_103.to(gl.float16)  # convert0_dst_scale: stage 1, partition 0 (group 0)
            dst_scale_139 = gl.convert_layout(gl.reshape(dst_scale_104, [128, 2, 1]), L12_short)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            scale = gl.convert_layout(gl.reshape(w_scale_101_p1, [128, 2, 1]), L12_short)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor = dst_scale_139.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor_140 = dst_tensor_138 * out_tensor  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor_141 = gl.cast(gl.cast(scale, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor_142 = out_tensor_141 == 255  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor_143 = out_tensor_142.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            out_tensor_144 = gl.where(out_tensor_143, float("nan"), out_tensor_140)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_acc_148,))
            acc_148 = warpgroup_mma_wait(1, deps=(tok_acc_148,))
            a_ptrs_149_p1 = a_ptrs_149
            acc_148_p1 = acc_148
            out_tensor_144_p1 = out_tensor_144
            s_ptrs_151_p1 = s_ptrs_151
            w_97_p1 = w_97
            w_ptrs_150_p1 = w_ptrs_150
            w_scale_101_p1 = w_scale_101
        em0 = w_97_p1 & 7  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        em1 = w_97_p1 & 112  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_105 = x0 << 9  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_106 = w_97_p1 & 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_107 = gl.cast(gl.cast(x0_106, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_108 = x0_107 << 12  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_109 = x0_105 | x0_108  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_110 = x1 << 5  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_111 = gl.cast(gl.cast(w_97_p1, gl.int8, bitcast=True) & -128, w_97_p1.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_112 = gl.cast(gl.cast(x1_111, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_113 = x1_112 << 8  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_114 = x1_110 | x1_113  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_115 = em0 & 6  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_116 = gl.cast(gl.cast(x0_115, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_117 = x0_116 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_118 = x0_109 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_119 = gl.where(x0_117, x0_118, x0_109)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_120 = em1 & 96  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_121 = gl.cast(gl.cast(x1_120, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_122 = x1_121 != 0  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_123 = x1_114 + 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_124 = gl.where(x1_122, x1_123, x1_114)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_125 = gl.cast(gl.cast(em0, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_126 = x0_125 == 1  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_127 = gl.cast(gl.cast(x0_119, gl.int16, bitcast=True) & -32768, x0_119.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_128 = x0_127 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x0_129 = gl.where(x0_126, x0_128, x0_119)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_130 = gl.cast(gl.cast(em1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_131 = x1_130 == 16  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_132 = gl.cast(gl.cast(x1_124, gl.int16, bitcast=True) & -32768, x1_124.dtype, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_133 = x1_132 | 14336  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        x1_134 = gl.where(x1_131, x1_133, x1_124)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        c_135 = gl.convert_layout(gl.join(x0_129, x1_134), L9_short)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor = gl.convert_layout(gl.reshape(c_135, [128, 64]), L10_short)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor_136 = dst_tensor.to(gl.float16, bitcast=True)  # convert1_dst_tensor: stage 1, partition 0 (group 0)
        w_145 = gl.convert_layout(gl.reshape(out_tensor_144_p1, [128, 64]), L13_short)  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_146 = acc_146_st.index(((twill_n - 1 + 1) - 2) % 2)  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_146.store(w_145)  # local_store0_acc: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 2, partition 0 (group 0)
        async_copy.wait_group(1)
        gl.thread_barrier()
        a_93 = a_93_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
        acc_147 = acc_146.permute((1, 0))  # dot0_acc: stage 2, partition 0 (group 0)
        tok_acc_148 = warpgroup_mma(a_93, acc_147, acc_148_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        dst_tensor_137 = gl.convert_layout(gl.reshape(dst_tensor_136, [128, 2, 32]), L11_short)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
        dst_tensor_138 = gl.convert_layout(dst_tensor_137, L12_short)  # convert2_dst_tensor: stage 1, partition 0 (group 0)
        dst_scale = gl.cast(gl.cast(w_scale_101_p1, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_102 = dst_scale << 23  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_103 = dst_scale_102.to(gl.float32, bitcast=True)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_104 = dst_scale_103.to(gl.float16)  # convert0_dst_scale: stage 1, partition 0 (group 0)
        dst_scale_139 = gl.convert_layout(gl.reshape(dst_scale_104, [128, 2, 1]), L12_short)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        scale = gl.convert_layout(gl.reshape(w_scale_101_p1, [128, 2, 1]), L12_short)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor = dst_scale_139.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_140 = dst_tensor_138 * out_tensor  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_141 = gl.cast(gl.cast(scale, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_142 = out_tensor_141 == 255  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_143 = out_tensor_142.broadcast_to([128, 2, 32])  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        out_tensor_144 = gl.where(out_tensor_143, float("nan"), out_tensor_140)  # elementwise0_out_tensor: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_148,))
        acc_148 = warpgroup_mma_wait(1, deps=(tok_acc_148,))
        a_ptrs_149_p2 = a_ptrs_149_p1
        a_ptrs_149_p1 = a_ptrs_149
        acc_148_p1 = acc_148
        out_tensor_144_p1 = out_tensor_144
        s_ptrs_151_p2 = s_ptrs_151_p1
        s_ptrs_151_p1 = s_ptrs_151
        w_97_p1 = w_97
        w_ptrs_150_p2 = w_ptrs_150_p1
        w_ptrs_150_p1 = w_ptrs_150
        w_scale_101_p1 = w_scale_101
        w_145 = gl.convert_layout(gl.reshape(out_tensor_144_p1, [128, 64]), L13_short)  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_146 = acc_146_st.index(((twill_n - 1 + 2) - 2) % 2)  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_146.store(w_145)  # local_store0_acc: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 2, partition 0 (group 0)
        async_copy.wait_group(1)
        gl.thread_barrier()
        a_93 = a_93_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
        acc_147 = acc_146.permute((1, 0))  # dot0_acc: stage 2, partition 0 (group 0)
        tok_acc_148 = warpgroup_mma(a_93, acc_147, acc_148_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_148,))
        acc_148 = warpgroup_mma_wait(1, deps=(tok_acc_148,))
        a_ptrs_149_p3 = a_ptrs_149_p2
        a_ptrs_149_p2 = a_ptrs_149_p1
        a_ptrs_149_p1 = a_ptrs_149
        acc_148_p1 = acc_148
        out_tensor_144_p1 = out_tensor_144
        s_ptrs_151_p3 = s_ptrs_151_p2
        s_ptrs_151_p2 = s_ptrs_151_p1
        s_ptrs_151_p1 = s_ptrs_151
        w_97_p1 = w_97
        w_ptrs_150_p3 = w_ptrs_150_p2
        w_ptrs_150_p2 = w_ptrs_150_p1
        w_ptrs_150_p1 = w_ptrs_150
        w_scale_101_p1 = w_scale_101
        acc_148_p1 = warpgroup_mma_wait(0, deps=(acc_148_p1,))
        a_93_ring._keep_alive()
        acc_146_st._keep_alive()
    else:
        acc_85_w = gl.full([128, 128], 0.0, gl.float32, layout=L8_short)
        a_ptrs_86_w = a_ptrs_56
        w_ptrs_87_w = w_ptrs_66
        s_ptrs_88_w = s_ptrs_74
        for acc_84_w in range(0, v1, 1):
            k_left_w = acc_84_w * 64
            k_left_89_w = K - k_left_w
            a_90_w = a_ptrs_53 < k_left_89_w
            a_91_w = a_90_w.broadcast_to([128, 64])
            a_92_w = gl.load(a_ptrs_86_w, mask=a_91_w, other=0.0)
            a_93_w = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), a_92_w)
            fence_async_shared()
            w_w = k_left_89_w // 2
            w_95_w = w_ptrs_63 < w_w
            w_96_w = w_95_w.broadcast_to([128, 32])
            w_97_w = gl.load(w_ptrs_87_w, mask=w_96_w, other=0)
            w_scale_w = k_left_89_w // 32
            w_scale_99_w = s_ptrs_71 < w_scale_w
            w_scale_100_w = w_scale_99_w.broadcast_to([128, 2])
            w_scale_101_w = gl.load(s_ptrs_88_w, mask=w_scale_100_w, other=0)
            dst_scale_w = gl.cast(gl.cast(w_scale_101_w, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
            dst_scale_102_w = dst_scale_w << 23
            dst_scale_103_w = dst_scale_102_w.to(gl.float32, bitcast=True)
            dst_scale_104_w = dst_scale_103_w.to(gl.float16)
            em0_w = w_97_w & 7
            em1_w = w_97_w & 112
            x0_w = gl.cast(gl.cast(em0_w, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)
            x0_105_w = x0_w << 9
            x0_106_w = w_97_w & 8
            x0_107_w = gl.cast(gl.cast(x0_106_w, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)
            x0_108_w = x0_107_w << 12
            x0_109_w = x0_105_w | x0_108_w
            x1_w = gl.cast(gl.cast(em1_w, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)
            x1_110_w = x1_w << 5
            x1_111_w = gl.cast(gl.cast(w_97_w, gl.int8, bitcast=True) & -128, w_97_w.dtype, bitcast=True)
            x1_112_w = gl.cast(gl.cast(x1_111_w, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)
            x1_113_w = x1_112_w << 8
            x1_114_w = x1_110_w | x1_113_w
            x0_115_w = em0_w & 6
            x0_116_w = gl.cast(gl.cast(x0_115_w, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
            x0_117_w = x0_116_w != 0
            x0_118_w = x0_109_w + 14336
            x0_119_w = gl.where(x0_117_w, x0_118_w, x0_109_w)
            x1_120_w = em1_w & 96
            x1_121_w = gl.cast(gl.cast(x1_120_w, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
            x1_122_w = x1_121_w != 0
            x1_123_w = x1_114_w + 14336
            x1_124_w = gl.where(x1_122_w, x1_123_w, x1_114_w)
            x0_125_w = gl.cast(gl.cast(em0_w, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
            x0_126_w = x0_125_w == 1
            x0_127_w = gl.cast(gl.cast(x0_119_w, gl.int16, bitcast=True) & -32768, x0_119_w.dtype, bitcast=True)
            x0_128_w = x0_127_w | 14336
            x0_129_w = gl.where(x0_126_w, x0_128_w, x0_119_w)
            x1_130_w = gl.cast(gl.cast(em1_w, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
            x1_131_w = x1_130_w == 16
            x1_132_w = gl.cast(gl.cast(x1_124_w, gl.int16, bitcast=True) & -32768, x1_124_w.dtype, bitcast=True)
            x1_133_w = x1_132_w | 14336
            x1_134_w = gl.where(x1_131_w, x1_133_w, x1_124_w)
            c_135_w = gl.convert_layout(gl.join(x0_129_w, x1_134_w), L9_short)
            dst_tensor_w = gl.convert_layout(gl.reshape(c_135_w, [128, 64]), L10_short)
            dst_tensor_136_w = dst_tensor_w.to(gl.float16, bitcast=True)
            dst_tensor_137_w = gl.convert_layout(gl.reshape(dst_tensor_136_w, [128, 2, 32]), L11_short)
            dst_tensor_138_w = gl.convert_layout(dst_tensor_137_w, L12_short)
            dst_scale_139_w = gl.convert_layout(gl.reshape(dst_scale_104_w, [128, 2, 1]), L12_short)
            scale_w = gl.convert_layout(gl.reshape(w_scale_101_w, [128, 2, 1]), L12_short)
            out_tensor_w = dst_scale_139_w.broadcast_to([128, 2, 32])
            out_tensor_140_w = dst_tensor_138_w * out_tensor_w
            out_tensor_141_w = gl.cast(gl.cast(scale_w, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)
            out_tensor_142_w = out_tensor_141_w == 255
            out_tensor_143_w = out_tensor_142_w.broadcast_to([128, 2, 32])
            out_tensor_144_w = gl.where(out_tensor_143_w, float("nan"), out_tensor_140_w)
            w_145_w = gl.convert_layout(gl.reshape(out_tensor_144_w, [128, 64]), L13_short)
            acc_146_w = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), w_145_w)
            fence_async_shared()
            acc_148_w = warpgroup_mma(a_93_w, acc_146_w.permute((1, 0)), acc_85_w)
            a_ptrs_149_w = a_ptrs_86_w + 64
            w_ptrs_150_w = w_ptrs_87_w + 32
            s_ptrs_151_w = s_ptrs_88_w + 2
            acc_85_w = acc_148_w
            a_ptrs_86_w = a_ptrs_149_w
            w_ptrs_87_w = w_ptrs_150_w
            s_ptrs_88_w = s_ptrs_151_w
        acc_148_p1 = acc_85_w
        a_ptrs_149_p3 = a_ptrs_86_w
        w_ptrs_150_p3 = w_ptrs_87_w
        s_ptrs_151_p3 = s_ptrs_88_w
    c = acc_148_p1.to(gl.float16)
    c_ptrs = gl.expand_dims(offs_m_37, 1)
    c_ptrs_77 = c_ptrs * stride_cm
    c_ptrs_79 = c_ptr + c_ptrs_77
    c_ptrs_80 = gl.expand_dims(offs_n_43, 0)
    c_ptrs_81 = c_ptrs_79.broadcast_to([128, 128])
    c_ptrs_82 = c_ptrs_80.broadcast_to([128, 128])
    c_ptrs_83 = c_ptrs_81 + c_ptrs_82
    v3 = c_ptrs < M
    v5 = c_ptrs_80 < N
    v6 = v3.broadcast_to([128, 128])
    v7 = v5.broadcast_to([128, 128])
    v8 = v6 & v7
    v9 = gl.convert_layout(c, L14_short)
    gl.store(c_ptrs_83, v9, mask=v8)

@gluon.jit
def twill_kernel_short(a_ptr, w_ptr, w_scale_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_sn, stride_cm, TWILL_COPY: gl.constexpr):
    consumer_0_short(a_ptr, w_ptr, w_scale_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_sn, stride_cm, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'w_ptr', 'w_scale_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_wn', 'stride_wk', 'stride_sn', 'stride_sk', 'stride_cm', 'stride_cn', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'w_ptr', 'w_scale_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_sn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_a_92']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'w_ptr', 'w_scale_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_sn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_wk': 1, 'stride_sk': 1, 'stride_cn': 1, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_92': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_92': ('a_ptr', ['stride_am', '1'], [None, 'K'], [128, 64], ['(M) % 128 == 0'])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'K', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 63) // 64)', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
ARGUMENTS_short = ['a_ptr', 'w_ptr', 'w_scale_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_wn', 'stride_wk', 'stride_sn', 'stride_sk', 'stride_cm', 'stride_cn', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME_short = ['a_ptr', 'w_ptr', 'w_scale_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_sn', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['a_ptr', 'w_ptr', 'w_scale_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_sn', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_ak': 1, 'stride_wk': 1, 'stride_sk': 1, 'stride_cn': 1, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['a_ptr', 'K', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
