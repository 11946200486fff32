"""_chunk_scan_bwd_ddAcs_stable_kernel, written by twill from its joint schedule: I=160 L=224 (optimal), 2167 cycles per iteration predicted.

Decisions (each from the schedule):
- x_131 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (x_131): their addresses and masks spread over 128 threads
- the consumers' pointer loads in their readers' stage, not a stage ahead: the loop's trip count varies between programs, and a third stage would need two iterations of every program (run 101)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 137): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring x_131: 2 buffers of [64, 64] bf16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 24624 bytes planned of 232448; maxnreg 256
- loop at mamba_chunk_scan_bwd_ddacs_stable.py:130 (TTGIR line 275) (after the scheduled loop): written by the same partitions, no tile streamed: its loads issued by the consumers in registers, the producer copying nothing for it, in one stage of its own schedule (I=300, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 2 iteration(s) ahead, 90112 bytes of shared memory compiled, ptxas 255 registers, clean; simulated for 0, 1, 2, 3, 4, 9 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L9 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def twill_add(a, b):
    return a + b

@gluon.jit
def consumer_0(x_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, cb_ptr, ddA_cumsum_ptr, chunk_size, hdim, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_ddA_cs_batch, stride_ddA_cs_chunk, stride_ddA_cs_head, stride_ddA_cs_csize_m, twill_g0, twill_g1, twill_g2, x_131_buf, x_131_ready, x_131_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        pid_bc = twill_pid1
        pid_c = pid_bc // batch
        pid_b = pid_c * batch
        pid_b_13 = pid_bc - pid_b
        pid_h = twill_pid2
        pid_m = twill_pid0
        x_ptr_14 = pid_b_13 * stride_x_batch
        x_ptr_15 = pid_c * chunk_size
        x_ptr_16 = x_ptr_15 * stride_x_seqlen
        x_ptr_17 = x_ptr_14 + x_ptr_16
        x_ptr_18 = pid_h * stride_x_head
        x_ptr_19 = x_ptr_17 + x_ptr_18
        x_ptr_20 = x_ptr + x_ptr_19
        dout_ptr_21 = pid_b_13 * stride_dout_batch
        dout_ptr_22 = x_ptr_15 * stride_dout_seqlen
        dout_ptr_23 = dout_ptr_21 + dout_ptr_22
        dout_ptr_24 = pid_h * stride_dout_head
        dout_ptr_25 = dout_ptr_23 + dout_ptr_24
        dout_ptr_26 = dout_ptr + dout_ptr_25
        dt_ptr_27 = pid_b_13 * stride_dt_batch
        dt_ptr_28 = pid_c * stride_dt_chunk
        dt_ptr_29 = dt_ptr_27 + dt_ptr_28
        dt_ptr_30 = pid_h * stride_dt_head
        dt_ptr_31 = dt_ptr_29 + dt_ptr_30
        dt_ptr_32 = dt_ptr + dt_ptr_31
        dA_cumsum_ptr_33 = pid_b_13 * stride_dA_cs_batch
        dA_cumsum_ptr_34 = pid_c * stride_dA_cs_chunk
        dA_cumsum_ptr_35 = dA_cumsum_ptr_33 + dA_cumsum_ptr_34
        dA_cumsum_ptr_36 = pid_h * stride_dA_cs_head
        dA_cumsum_ptr_37 = dA_cumsum_ptr_35 + dA_cumsum_ptr_36
        dA_cumsum_ptr_38 = dA_cumsum_ptr + dA_cumsum_ptr_37
        cb_ptr_39 = pid_b_13 * stride_cb_batch
        cb_ptr_40 = pid_c * stride_cb_chunk
        cb_ptr_41 = cb_ptr_39 + cb_ptr_40
        cb_ptr_42 = pid_h // nheads_ngroups_ratio
        cb_ptr_43 = cb_ptr_42 * stride_cb_head
        cb_ptr_44 = cb_ptr_41 + cb_ptr_43
        cb_ptr_45 = cb_ptr + cb_ptr_44
        ddA_cumsum_ptr_46 = pid_b_13 * stride_ddA_cs_batch
        ddA_cumsum_ptr_47 = pid_c * stride_ddA_cs_chunk
        ddA_cumsum_ptr_48 = ddA_cumsum_ptr_46 + ddA_cumsum_ptr_47
        ddA_cumsum_ptr_49 = pid_h * stride_ddA_cs_head
        ddA_cumsum_ptr_50 = ddA_cumsum_ptr_48 + ddA_cumsum_ptr_49
        ddA_cumsum_ptr_51 = pid_m * stride_ddA_cs_csize_m
        ddA_cumsum_ptr_52 = ddA_cumsum_ptr_50 + ddA_cumsum_ptr_51
        ddA_cumsum_ptr_53 = ddA_cumsum_ptr + ddA_cumsum_ptr_52
        offs_m = pid_m * 64
        offs_m_54 = gl.arange(0, 64, layout=L0)
        offs_m_55 = gl.arange(0, 64, layout=L1)
        offs_m_56 = gl.arange(0, 64, layout=L2)
        offs_m_57 = gl.arange(0, 64, layout=L3)
        offs_m_58 = gl.arange(0, 64, layout=L4)
        offs_m_62 = offs_m + offs_m_54
        offs_m_63 = offs_m + offs_m_55
        offs_m_64 = offs_m + offs_m_56
        dout_ptrs = gl.expand_dims(offs_m_62, 1)
        dout_ptrs_65 = gl.expand_dims(offs_m_63, 1)
        dout_ptrs_66 = gl.expand_dims(offs_m_64, 1)
        dout_ptrs_68 = dout_ptrs * stride_dout_seqlen
        dout_ptrs_69 = gl.arange(0, 64, layout=L5)
        dout_ptrs_70 = gl.arange(0, 64, layout=L6)
        dout_ptrs_71 = gl.arange(0, 64, layout=L7)
        dout_ptrs_72 = gl.expand_dims(dout_ptrs_69, 0)
        dout_ptrs_73 = gl.expand_dims(dout_ptrs_70, 0)
        dout_ptrs_74 = gl.expand_dims(dout_ptrs_71, 0)
        dout_ptrs_75 = gl.expand_dims(offs_m_57, 0)
        dout_ptrs_76 = dout_ptrs_68.broadcast_to([64, 64])
        dout_ptrs_77 = dout_ptrs_72.broadcast_to([64, 64])
        dout_ptrs_78 = dout_ptrs_74.broadcast_to([64, 64])
        dout_ptrs_79 = dout_ptrs_76 + dout_ptrs_77
        dout_ptrs_81 = dout_ptr_26 + dout_ptrs_79
        x_ptrs_82 = dout_ptrs_73 * stride_x_seqlen
        x_ptrs_83 = gl.arange(0, 64, layout=L8)
        x_ptrs_84 = gl.expand_dims(x_ptrs_83, 1)
        x_ptrs_85 = x_ptrs_82.broadcast_to([64, 64])
        x_ptrs_86 = x_ptrs_84.broadcast_to([64, 64])
        x_ptrs_87 = x_ptrs_85 + x_ptrs_86
        x_ptrs_89 = x_ptr_20 + x_ptrs_87
        dt_ptrs_90 = dt_ptr_32 + offs_m_57
        cb_ptrs_91 = dout_ptrs_65 * stride_cb_csize_m
        cb_ptrs_92 = cb_ptrs_91.broadcast_to([64, 64])
        cb_ptrs_93 = cb_ptrs_92 + dout_ptrs_78
        cb_ptrs_95 = cb_ptr_45 + cb_ptrs_93
        ddAcs_ptrs_96 = ddA_cumsum_ptr_53 + offs_m_58
        gl.store(ddA_cumsum_ptr_53, 0.0)
        chunk_size_limit = seqlen - x_ptr_15
        chunk_size_limit_97 = gl.minimum(chunk_size, chunk_size_limit)
        dout_99 = dout_ptrs < chunk_size_limit_97
        dout_101 = dout_ptrs_72 < hdim
        dout_102 = dout_99.broadcast_to([64, 64])
        dout_103 = dout_101.broadcast_to([64, 64])
        dout_104 = dout_102 & dout_103
        dout_105 = gl.load(dout_ptrs_81, mask=dout_104, other=0.0)
        dout_106 = gl.allocate_shared_memory(gl.bfloat16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), dout_105)
        fence_async_shared()
        dA_cs_m_107 = offs_m_64 < chunk_size
        dA_cs_m_110 = dA_cumsum_ptr_38 + offs_m_64
        dA_cs_m_111 = gl.load(dA_cs_m_110, mask=dA_cs_m_107, other=0.0)
        v0 = pid_m + 1
        v1 = v0 * 64
        x_112 = x_ptrs_84 < hdim
        x_113 = x_112.broadcast_to([64, 64])
        cb_114 = dout_ptrs_65 < chunk_size
        cb_115 = cb_114.broadcast_to([64, 64])
        acc = gl.expand_dims(dA_cs_m_111, 1)
        acc_116 = acc.broadcast_to([64, 64])
        mask = dout_ptrs_65.broadcast_to([64, 64])
        mask_117 = dout_ptrs_66.broadcast_to([64, 64])
        x_ptrs_118 = stride_x_seqlen * 64
        twill_n = (v1 - 0 + 64 - 1) // 64
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            cb_ptrs_176 = cb_ptrs_95
            cb_ptrs_176_p1 = cb_ptrs_176
            ddAcs_ptrs_177 = ddAcs_ptrs_96
            rowsum_new_168 = gl.full([64], 0.0, gl.float32, layout=L1)
            dt_ptrs_175 = dt_ptrs_90
            dt_n = chunk_size - (0 + (0 - 0) * 64)  # load1_dt_n: stage 0, partition 0 (group 0)
            cb_140 = dt_n  # elementwise2_cb: stage 0, partition 0 (group 0)
            cb_141 = dout_ptrs_74 < cb_140  # elementwise2_cb: stage 0, partition 0 (group 0)
            cb_142 = cb_141.broadcast_to([64, 64])  # elementwise2_cb: stage 0, partition 0 (group 0)
            cb_143 = cb_115 & cb_142  # elementwise2_cb: stage 0, partition 0 (group 0)
            dt_n_134 = dt_n  # load1_dt_n: stage 0, partition 0 (group 0)
            dA_cs_n_147 = (0 + (0 - 0) * 64) + offs_m_57  # load3_dA_cs_n: stage 0, partition 0 (group 0)
            dt_n_135 = offs_m_57 < dt_n_134  # load1_dt_n: stage 0, partition 0 (group 0)
            dA_cs_n_148 = dA_cumsum_ptr_38 + dA_cs_n_147  # load3_dA_cs_n: stage 0, partition 0 (group 0)
            dA_cs_n_149 = gl.load(dA_cs_n_148, mask=dt_n_135, other=0.0)  # load3_dA_cs_n: stage 0, partition 0 (group 0)
            acc_150 = gl.expand_dims(dA_cs_n_149, 0)  # sfu0_acc: stage 0, partition 0 (group 0)
            acc_151 = acc_150.broadcast_to([64, 64])  # sfu0_acc: stage 0, partition 0 (group 0)
            acc_152 = acc_116 - acc_151  # sfu0_acc: stage 0, partition 0 (group 0)
            acc_153 = gl.minimum(acc_152, gl.full([64, 64], 0.0, gl.float32, layout=L9))  # sfu0_acc: stage 0, partition 0 (group 0)
            acc_154 = gl.exp(acc_153)  # sfu0_acc: stage 0, partition 0 (group 0)
            x_126 = chunk_size_limit_97 - (0 + (0 - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_127 = x_126  # elementwise0_x: stage 0, partition 0 (group 0)
            x_128 = dout_ptrs_73 < x_127  # elementwise0_x: stage 0, partition 0 (group 0)
            x_129 = x_128.broadcast_to([64, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_130 = x_113 & x_129  # elementwise0_x: stage 0, partition 0 (group 0)
            cb_ptrs_176 = cb_ptrs_176_p1 + 64  # load2_cb: stage 0, partition 0 (group 0)
            cb_144 = gl.load(cb_ptrs_176_p1, mask=cb_143, other=0.0)  # load2_cb: stage 0, partition 0 (group 0)
            cb_145 = gl.convert_layout(cb_144, L9)  # convert0_cb: stage 0, partition 0 (group 0)
            acc_154_p1 = acc_154
            cb_145_p1 = cb_145
            cb_ptrs_176_p1 = cb_ptrs_176
            ddAcs_ptrs_177_p1 = ddAcs_ptrs_177
            dt_n_p1 = dt_n
            dt_n_135_p1 = dt_n_135
            dt_ptrs_175_p1 = dt_ptrs_175
            rowsum_new_168_p1 = rowsum_new_168
            for twill_b in range(1, twill_n):
                dt_n = chunk_size - (0 + (twill_b - 0) * 64)  # load1_dt_n: stage 0, partition 0 (group 0)
                cb_140 = dt_n  # elementwise2_cb: stage 0, partition 0 (group 0)
                cb_141 = dout_ptrs_74 < cb_140  # elementwise2_cb: stage 0, partition 0 (group 0)
                cb_142 = cb_141.broadcast_to([64, 64])  # elementwise2_cb: stage 0, partition 0 (group 0)
                cb_143 = cb_115 & cb_142  # elementwise2_cb: stage 0, partition 0 (group 0)
                mbarrier.wait(x_131_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
                fence_async_shared()
                tok_acc_133 = warpgroup_mma(dout_106, x_131_buf.index((twill_base + twill_b - 1) % 2), gl.full([64, 64], 0.0, gl.float32, layout=L9), use_acc=False, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
                dt_ptrs_175 = dt_ptrs_175_p1 + 64  # load1_dt_n: stage 1, partition 0 (group 0)
                dt_n_136 = gl.load(dt_ptrs_175_p1, mask=dt_n_135_p1, other=0.0)  # load1_dt_n: stage 1, partition 0 (group 0)
                acc_137 = gl.expand_dims(dt_n_136, 0)  # elementwise1_acc: stage 1, partition 0 (group 0)
                acc_138 = acc_137.broadcast_to([64, 64])  # elementwise1_acc: stage 1, partition 0 (group 0)
                acc_133 = warpgroup_mma_wait(0, deps=(tok_acc_133,))
                mbarrier.arrive(x_131_empty.index((twill_base + twill_b - 1) % 2))
                acc_139 = acc_133 * acc_138  # elementwise1_acc: stage 1, partition 0 (group 0)
                acc_146 = acc_139 * cb_145_p1  # elementwise1_acc: stage 1, partition 0 (group 0)
                acc_155 = acc_146 * acc_154_p1  # elementwise1_acc: stage 1, partition 0 (group 0)
                mask_157 = (0 + (twill_b - 1) * 64)  # elementwise1_acc: stage 1, partition 0 (group 0)
                mask_159 = mask_157 + dout_ptrs_75  # elementwise1_acc: stage 1, partition 0 (group 0)
                mask_161 = mask_159 + 1  # elementwise1_acc: stage 1, partition 0 (group 0)
                mask_163 = mask_161.broadcast_to([64, 64])  # elementwise1_acc: stage 1, partition 0 (group 0)
                mask_165 = mask_117 >= mask_163  # elementwise1_acc: stage 1, partition 0 (group 0)
                acc_166 = gl.where(mask_165, acc_155, 0.0)  # elementwise1_acc: stage 1, partition 0 (group 0)
                acc_167 = gl.convert_layout(acc_166, L10)  # convert1_acc: stage 1, partition 0 (group 0)
                mask_156 = (0 + (twill_b - 1) * 64)  # elementwise3_acc: stage 1, partition 0 (group 0)
                mask_158 = mask_156 + dout_ptrs_74  # elementwise3_acc: stage 1, partition 0 (group 0)
                mask_160 = mask_158 + 1  # elementwise3_acc: stage 1, partition 0 (group 0)
                mask_162 = mask_160.broadcast_to([64, 64])  # elementwise3_acc: stage 1, partition 0 (group 0)
                mask_164 = mask >= mask_162  # elementwise3_acc: stage 1, partition 0 (group 0)
                acc_169 = gl.expand_dims(rowsum_new_168_p1, 1)  # elementwise3_acc: stage 1, partition 0 (group 0)
                acc_170 = gl.associative_scan(acc_167, 1, twill_add)  # elementwise3_acc: stage 1, partition 0 (group 0)
                acc_171 = acc_169.broadcast_to([64, 64])  # elementwise3_acc: stage 1, partition 0 (group 0)
                acc_172 = acc_171 + acc_170  # elementwise3_acc: stage 1, partition 0 (group 0)
                acc_173 = gl.where(mask_164, acc_172, 0.0)  # elementwise3_acc: stage 1, partition 0 (group 0)
                ddA_cs = gl.sum(acc_173, axis=0)  # reduce1_ddA_cs: stage 1, partition 0 (group 0)
                rowsum_new = gl.sum(acc_167, axis=1)  # reduce0_rowsum_new: stage 1, partition 0 (group 0)
                v6 = gl.convert_layout(ddA_cs, L4)  # convert2: stage 1, partition 0 (group 0)
                v2 = dt_n_p1 - 1  # store0: stage 1, partition 0 (group 0)
                v3 = v2  # store0: stage 1, partition 0 (group 0)
                v4 = offs_m_58 < v3  # store0: stage 1, partition 0 (group 0)
                v5 = ddAcs_ptrs_177_p1 + 1  # store0: stage 1, partition 0 (group 0)
                gl.store(v5, v6, mask=v4)  # store0: stage 1, partition 0 (group 0)
                ddAcs_ptrs_177 = ddAcs_ptrs_177_p1 + 64  # store0: stage 1, partition 0 (group 0)
                rowsum_new_168 = rowsum_new_168_p1 + rowsum_new  # elementwise4_rowsum_new: stage 1, partition 0 (group 0)
                dA_cs_n = (0 + (twill_b - 0) * 64)  # load3_dA_cs_n: stage 0, partition 0 (group 0)
                dt_n_134 = dt_n  # load1_dt_n: stage 0, partition 0 (group 0)
                dA_cs_n_147 = dA_cs_n + offs_m_57  # load3_dA_cs_n: stage 0, partition 0 (group 0)
                dt_n_135 = offs_m_57 < dt_n_134  # load1_dt_n: stage 0, partition 0 (group 0)
                dA_cs_n_148 = dA_cumsum_ptr_38 + dA_cs_n_147  # load3_dA_cs_n: stage 0, partition 0 (group 0)
                dA_cs_n_149 = gl.load(dA_cs_n_148, mask=dt_n_135, other=0.0)  # load3_dA_cs_n: stage 0, partition 0 (group 0)
                acc_150 = gl.expand_dims(dA_cs_n_149, 0)  # sfu0_acc: stage 0, partition 0 (group 0)
                acc_151 = acc_150.broadcast_to([64, 64])  # sfu0_acc: stage 0, partition 0 (group 0)
                acc_152 = acc_116 - acc_151  # sfu0_acc: stage 0, partition 0 (group 0)
                acc_153 = gl.minimum(acc_152, gl.full([64, 64], 0.0, gl.float32, layout=L9))  # sfu0_acc: stage 0, partition 0 (group 0)
                acc_154 = gl.exp(acc_153)  # sfu0_acc: stage 0, partition 0 (group 0)
                x_126 = chunk_size_limit_97 - (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
                x_127 = x_126  # elementwise0_x: stage 0, partition 0 (group 0)
                x_128 = dout_ptrs_73 < x_127  # elementwise0_x: stage 0, partition 0 (group 0)
                x_129 = x_128.broadcast_to([64, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
                x_130 = x_113 & x_129  # elementwise0_x: stage 0, partition 0 (group 0)
                cb_ptrs_176 = cb_ptrs_176_p1 + 64  # load2_cb: stage 0, partition 0 (group 0)
                cb_144 = gl.load(cb_ptrs_176_p1, mask=cb_143, other=0.0)  # load2_cb: stage 0, partition 0 (group 0)
                cb_145 = gl.convert_layout(cb_144, L9)  # convert0_cb: stage 0, partition 0 (group 0)
                acc_154_p1 = acc_154
                cb_145_p1 = cb_145
                cb_ptrs_176_p1 = cb_ptrs_176
                ddAcs_ptrs_177_p1 = ddAcs_ptrs_177
                dt_n_p1 = dt_n
                dt_n_135_p1 = dt_n_135
                dt_ptrs_175_p1 = dt_ptrs_175
                rowsum_new_168_p1 = rowsum_new_168
            mbarrier.wait(x_131_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_133 = warpgroup_mma(dout_106, x_131_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), gl.full([64, 64], 0.0, gl.float32, layout=L9), use_acc=False, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            dt_ptrs_175 = dt_ptrs_175_p1 + 64  # load1_dt_n: stage 1, partition 0 (group 0)
            dt_n_136 = gl.load(dt_ptrs_175_p1, mask=dt_n_135_p1, other=0.0)  # load1_dt_n: stage 1, partition 0 (group 0)
            acc_137 = gl.expand_dims(dt_n_136, 0)  # elementwise1_acc: stage 1, partition 0 (group 0)
            acc_138 = acc_137.broadcast_to([64, 64])  # elementwise1_acc: stage 1, partition 0 (group 0)
            acc_133 = warpgroup_mma_wait(0, deps=(tok_acc_133,))
            mbarrier.arrive(x_131_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
            acc_139 = acc_133 * acc_138  # elementwise1_acc: stage 1, partition 0 (group 0)
            acc_146 = acc_139 * cb_145_p1  # elementwise1_acc: stage 1, partition 0 (group 0)
            acc_155 = acc_146 * acc_154_p1  # elementwise1_acc: stage 1, partition 0 (group 0)
            mask_157 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise1_acc: stage 1, partition 0 (group 0)
            mask_159 = mask_157 + dout_ptrs_75  # elementwise1_acc: stage 1, partition 0 (group 0)
            mask_161 = mask_159 + 1  # elementwise1_acc: stage 1, partition 0 (group 0)
            mask_163 = mask_161.broadcast_to([64, 64])  # elementwise1_acc: stage 1, partition 0 (group 0)
            mask_165 = mask_117 >= mask_163  # elementwise1_acc: stage 1, partition 0 (group 0)
            acc_166 = gl.where(mask_165, acc_155, 0.0)  # elementwise1_acc: stage 1, partition 0 (group 0)
            acc_167 = gl.convert_layout(acc_166, L10)  # convert1_acc: stage 1, partition 0 (group 0)
            mask_156 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise3_acc: stage 1, partition 0 (group 0)
            mask_158 = mask_156 + dout_ptrs_74  # elementwise3_acc: stage 1, partition 0 (group 0)
            mask_160 = mask_158 + 1  # elementwise3_acc: stage 1, partition 0 (group 0)
            mask_162 = mask_160.broadcast_to([64, 64])  # elementwise3_acc: stage 1, partition 0 (group 0)
            mask_164 = mask >= mask_162  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_169 = gl.expand_dims(rowsum_new_168_p1, 1)  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_170 = gl.associative_scan(acc_167, 1, twill_add)  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_171 = acc_169.broadcast_to([64, 64])  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_172 = acc_171 + acc_170  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_173 = gl.where(mask_164, acc_172, 0.0)  # elementwise3_acc: stage 1, partition 0 (group 0)
            ddA_cs = gl.sum(acc_173, axis=0)  # reduce1_ddA_cs: stage 1, partition 0 (group 0)
            rowsum_new = gl.sum(acc_167, axis=1)  # reduce0_rowsum_new: stage 1, partition 0 (group 0)
            v6 = gl.convert_layout(ddA_cs, L4)  # convert2: stage 1, partition 0 (group 0)
            v2 = dt_n_p1 - 1  # store0: stage 1, partition 0 (group 0)
            v3 = v2  # store0: stage 1, partition 0 (group 0)
            v4 = offs_m_58 < v3  # store0: stage 1, partition 0 (group 0)
            v5 = ddAcs_ptrs_177_p1 + 1  # store0: stage 1, partition 0 (group 0)
            gl.store(v5, v6, mask=v4)  # store0: stage 1, partition 0 (group 0)
            ddAcs_ptrs_177 = ddAcs_ptrs_177_p1 + 64  # store0: stage 1, partition 0 (group 0)
            rowsum_new_168 = rowsum_new_168_p1 + rowsum_new  # elementwise4_rowsum_new: stage 1, partition 0 (group 0)
            acc_154_p1 = acc_154
            cb_145_p1 = cb_145
            cb_ptrs_176_p2 = cb_ptrs_176_p1
            cb_ptrs_176_p1 = cb_ptrs_176
            ddAcs_ptrs_177_p1 = ddAcs_ptrs_177
            dt_n_p1 = dt_n
            dt_n_135_p1 = dt_n_135
            dt_ptrs_175_p1 = dt_ptrs_175
            rowsum_new_168_p1 = rowsum_new_168
            dout_106._keep_alive()
            x_131_buf._keep_alive()
        else:
            ddAcs_ptrs_177_p1 = ddAcs_ptrs_96
            rowsum_new_168_p1 = gl.full([64], 0.0, gl.float32, layout=L1)
            cb_ptrs_176_p2 = cb_ptrs_95
            dt_ptrs_175_p1 = dt_ptrs_90
        twill_base += twill_n
        twill_n = gl.maximum((chunk_size - v1 + 64 - 1) // 64, 0)
        ddAcs_ptrs_122_l1 = ddAcs_ptrs_177_p1
        ddAcs_ptrs_122_l1_p1 = ddAcs_ptrs_122_l1
        for twill_b in range(0, twill_n):
            v2_l1 = chunk_size - (v1 + (twill_b - 0) * 64)  # store0: stage 0, partition 0 (group 0)
            v3_l1 = v2_l1 - 1  # store0: stage 0, partition 0 (group 0)
            v4_l1 = v3_l1  # store0: stage 0, partition 0 (group 0)
            v5_l1 = offs_m_58 < v4_l1  # store0: stage 0, partition 0 (group 0)
            v6_l1 = ddAcs_ptrs_122_l1_p1 + 1  # store0: stage 0, partition 0 (group 0)
            gl.store(v6_l1, gl.full([64], 0.0, gl.float32, layout=L4), mask=v5_l1)  # store0: stage 0, partition 0 (group 0)
            ddAcs_ptrs_122_l1 = ddAcs_ptrs_122_l1_p1 + 64  # store0: stage 0, partition 0 (group 0)
            ddAcs_ptrs_122_l1_p1 = ddAcs_ptrs_122_l1

@gluon.jit
def producer_1(x_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, cb_ptr, ddA_cumsum_ptr, chunk_size, hdim, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_ddA_cs_batch, stride_ddA_cs_chunk, stride_ddA_cs_head, stride_ddA_cs_csize_m, twill_g0, twill_g1, twill_g2, x_131_buf, x_131_ready, x_131_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        pid_bc = twill_pid1
        pid_c = pid_bc // batch
        pid_b = pid_c * batch
        pid_b_13 = pid_bc - pid_b
        pid_h = twill_pid2
        pid_m = twill_pid0
        x_ptr_14 = pid_b_13 * stride_x_batch
        x_ptr_15 = pid_c * chunk_size
        x_ptr_16 = x_ptr_15 * stride_x_seqlen
        x_ptr_17 = x_ptr_14 + x_ptr_16
        x_ptr_18 = pid_h * stride_x_head
        x_ptr_19 = x_ptr_17 + x_ptr_18
        x_ptr_20 = x_ptr + x_ptr_19
        dout_ptrs_70 = gl.arange(0, 64, layout=L6)
        dout_ptrs_73 = gl.expand_dims(dout_ptrs_70, 0)
        x_ptrs_82 = dout_ptrs_73 * stride_x_seqlen
        x_ptrs_83 = gl.arange(0, 64, layout=L8)
        x_ptrs_84 = gl.expand_dims(x_ptrs_83, 1)
        x_ptrs_85 = x_ptrs_82.broadcast_to([64, 64])
        x_ptrs_86 = x_ptrs_84.broadcast_to([64, 64])
        x_ptrs_87 = x_ptrs_85 + x_ptrs_86
        x_ptrs_89 = x_ptr_20 + x_ptrs_87
        chunk_size_limit = seqlen - x_ptr_15
        chunk_size_limit_97 = gl.minimum(chunk_size, chunk_size_limit)
        v0 = pid_m + 1
        v1 = v0 * 64
        x_112 = x_ptrs_84 < hdim
        x_113 = x_112.broadcast_to([64, 64])
        x_ptrs_118 = stride_x_seqlen * 64
        x_ptrs_123 = x_ptrs_89
        for rowsum_121 in range(0, v1, 64):
            twill_k = twill_base + (rowsum_121 - 0) // 64
            x_126 = chunk_size_limit_97 - rowsum_121
            x_128 = dout_ptrs_73 < x_126
            x_129 = x_128.broadcast_to([64, 64])
            x_130 = x_113 & x_129
            x_ptrs_174 = x_ptrs_123 + x_ptrs_118
            mbarrier.wait(x_131_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_131_buf.index(twill_k % 2), x_ptrs_123, mask=x_130)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_131_ready.index(twill_k % 2), increment_count=False)
            else:
                x_131_buf.index(twill_k % 2).store(gl.load(x_ptrs_123, mask=x_130, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_131_ready.index(twill_k % 2), count=128)
            x_ptrs_123 = x_ptrs_174
        twill_base += (v1 - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(x_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, cb_ptr, ddA_cumsum_ptr, chunk_size, hdim, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_ddA_cs_batch, stride_ddA_cs_chunk, stride_ddA_cs_head, stride_ddA_cs_csize_m, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    x_131_buf = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    x_131_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(x_131_ready.index(i), count=128)
    x_131_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(x_131_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, cb_ptr, ddA_cumsum_ptr, chunk_size, hdim, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_ddA_cs_batch, stride_ddA_cs_chunk, stride_ddA_cs_head, stride_ddA_cs_csize_m, twill_g0, twill_g1, twill_g2, x_131_buf, x_131_ready, x_131_empty, TWILL_COPY)),
        (producer_1, (x_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, cb_ptr, ddA_cumsum_ptr, chunk_size, hdim, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_ddA_cs_batch, stride_ddA_cs_chunk, stride_ddA_cs_head, stride_ddA_cs_csize_m, twill_g0, twill_g1, twill_g2, x_131_buf, x_131_ready, x_131_empty, TWILL_COPY)),
    ], [4], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L7_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L8_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L9_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L10_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def twill_add_short(a, b):
    return a + b

@gluon.jit
def consumer_0_short(x_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, cb_ptr, ddA_cumsum_ptr, chunk_size, hdim, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_ddA_cs_batch, stride_ddA_cs_chunk, stride_ddA_cs_head, stride_ddA_cs_csize_m, TWILL_COPY: gl.constexpr):
    twill_base = 0
    pid_bc = gl.program_id(1)
    pid_c = pid_bc // batch
    pid_b = pid_c * batch
    pid_b_13 = pid_bc - pid_b
    pid_h = gl.program_id(2)
    pid_m = gl.program_id(0)
    x_ptr_14 = pid_b_13 * stride_x_batch
    x_ptr_15 = pid_c * chunk_size
    x_ptr_16 = x_ptr_15 * stride_x_seqlen
    x_ptr_17 = x_ptr_14 + x_ptr_16
    x_ptr_18 = pid_h * stride_x_head
    x_ptr_19 = x_ptr_17 + x_ptr_18
    x_ptr_20 = x_ptr + x_ptr_19
    dout_ptr_21 = pid_b_13 * stride_dout_batch
    dout_ptr_22 = x_ptr_15 * stride_dout_seqlen
    dout_ptr_23 = dout_ptr_21 + dout_ptr_22
    dout_ptr_24 = pid_h * stride_dout_head
    dout_ptr_25 = dout_ptr_23 + dout_ptr_24
    dout_ptr_26 = dout_ptr + dout_ptr_25
    dt_ptr_27 = pid_b_13 * stride_dt_batch
    dt_ptr_28 = pid_c * stride_dt_chunk
    dt_ptr_29 = dt_ptr_27 + dt_ptr_28
    dt_ptr_30 = pid_h * stride_dt_head
    dt_ptr_31 = dt_ptr_29 + dt_ptr_30
    dt_ptr_32 = dt_ptr + dt_ptr_31
    dA_cumsum_ptr_33 = pid_b_13 * stride_dA_cs_batch
    dA_cumsum_ptr_34 = pid_c * stride_dA_cs_chunk
    dA_cumsum_ptr_35 = dA_cumsum_ptr_33 + dA_cumsum_ptr_34
    dA_cumsum_ptr_36 = pid_h * stride_dA_cs_head
    dA_cumsum_ptr_37 = dA_cumsum_ptr_35 + dA_cumsum_ptr_36
    dA_cumsum_ptr_38 = dA_cumsum_ptr + dA_cumsum_ptr_37
    cb_ptr_39 = pid_b_13 * stride_cb_batch
    cb_ptr_40 = pid_c * stride_cb_chunk
    cb_ptr_41 = cb_ptr_39 + cb_ptr_40
    cb_ptr_42 = pid_h // nheads_ngroups_ratio
    cb_ptr_43 = cb_ptr_42 * stride_cb_head
    cb_ptr_44 = cb_ptr_41 + cb_ptr_43
    cb_ptr_45 = cb_ptr + cb_ptr_44
    ddA_cumsum_ptr_46 = pid_b_13 * stride_ddA_cs_batch
    ddA_cumsum_ptr_47 = pid_c * stride_ddA_cs_chunk
    ddA_cumsum_ptr_48 = ddA_cumsum_ptr_46 + ddA_cumsum_ptr_47
    ddA_cumsum_ptr_49 = pid_h * stride_ddA_cs_head
    ddA_cumsum_ptr_50 = ddA_cumsum_ptr_48 + ddA_cumsum_ptr_49
    ddA_cumsum_ptr_51 = pid_m * stride_ddA_cs_csize_m
    ddA_cumsum_ptr_52 = ddA_cumsum_ptr_50 + ddA_cumsum_ptr_51
    ddA_cumsum_ptr_53 = ddA_cumsum_ptr + ddA_cumsum_ptr_52
    offs_m = pid_m * 64
    offs_m_54 = gl.arange(0, 64, layout=L0_short)
    offs_m_55 = gl.arange(0, 64, layout=L1_short)
    offs_m_56 = gl.arange(0, 64, layout=L2_short)
    offs_m_57 = gl.arange(0, 64, layout=L3_short)
    offs_m_58 = gl.arange(0, 64, layout=L4_short)
    offs_m_62 = offs_m + offs_m_54
    offs_m_63 = offs_m + offs_m_55
    offs_m_64 = offs_m + offs_m_56
    dout_ptrs = gl.expand_dims(offs_m_62, 1)
    dout_ptrs_65 = gl.expand_dims(offs_m_63, 1)
    dout_ptrs_66 = gl.expand_dims(offs_m_64, 1)
    dout_ptrs_68 = dout_ptrs * stride_dout_seqlen
    dout_ptrs_69 = gl.arange(0, 64, layout=L5_short)
    dout_ptrs_70 = gl.arange(0, 64, layout=L6_short)
    dout_ptrs_71 = gl.arange(0, 64, layout=L7_short)
    dout_ptrs_72 = gl.expand_dims(dout_ptrs_69, 0)
    dout_ptrs_73 = gl.expand_dims(dout_ptrs_70, 0)
    dout_ptrs_74 = gl.expand_dims(dout_ptrs_71, 0)
    dout_ptrs_75 = gl.expand_dims(offs_m_57, 0)
    dout_ptrs_76 = dout_ptrs_68.broadcast_to([64, 64])
    dout_ptrs_77 = dout_ptrs_72.broadcast_to([64, 64])
    dout_ptrs_78 = dout_ptrs_74.broadcast_to([64, 64])
    dout_ptrs_79 = dout_ptrs_76 + dout_ptrs_77
    dout_ptrs_81 = dout_ptr_26 + dout_ptrs_79
    x_ptrs_82 = dout_ptrs_73 * stride_x_seqlen
    x_ptrs_83 = gl.arange(0, 64, layout=L8_short)
    x_ptrs_84 = gl.expand_dims(x_ptrs_83, 1)
    x_ptrs_85 = x_ptrs_82.broadcast_to([64, 64])
    x_ptrs_86 = x_ptrs_84.broadcast_to([64, 64])
    x_ptrs_87 = x_ptrs_85 + x_ptrs_86
    x_ptrs_89 = x_ptr_20 + x_ptrs_87
    dt_ptrs_90 = dt_ptr_32 + offs_m_57
    cb_ptrs_91 = dout_ptrs_65 * stride_cb_csize_m
    cb_ptrs_92 = cb_ptrs_91.broadcast_to([64, 64])
    cb_ptrs_93 = cb_ptrs_92 + dout_ptrs_78
    cb_ptrs_95 = cb_ptr_45 + cb_ptrs_93
    ddAcs_ptrs_96 = ddA_cumsum_ptr_53 + offs_m_58
    gl.store(ddA_cumsum_ptr_53, 0.0)
    chunk_size_limit = seqlen - x_ptr_15
    chunk_size_limit_97 = gl.minimum(chunk_size, chunk_size_limit)
    dout_99 = dout_ptrs < chunk_size_limit_97
    dout_101 = dout_ptrs_72 < hdim
    dout_102 = dout_99.broadcast_to([64, 64])
    dout_103 = dout_101.broadcast_to([64, 64])
    dout_104 = dout_102 & dout_103
    dout_105 = gl.load(dout_ptrs_81, mask=dout_104, other=0.0)
    dout_106 = gl.allocate_shared_memory(gl.bfloat16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), dout_105)
    fence_async_shared()
    dA_cs_m_107 = offs_m_64 < chunk_size
    dA_cs_m_110 = dA_cumsum_ptr_38 + offs_m_64
    dA_cs_m_111 = gl.load(dA_cs_m_110, mask=dA_cs_m_107, other=0.0)
    v0 = pid_m + 1
    v1 = v0 * 64
    x_112 = x_ptrs_84 < hdim
    x_113 = x_112.broadcast_to([64, 64])
    cb_114 = dout_ptrs_65 < chunk_size
    cb_115 = cb_114.broadcast_to([64, 64])
    acc = gl.expand_dims(dA_cs_m_111, 1)
    acc_116 = acc.broadcast_to([64, 64])
    mask = dout_ptrs_65.broadcast_to([64, 64])
    mask_117 = dout_ptrs_66.broadcast_to([64, 64])
    x_ptrs_118 = stride_x_seqlen * 64
    twill_n = (v1 - 0 + 64 - 1) // 64
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        x_132_ring = gl.allocate_shared_memory(gl.bfloat16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        cb_144_as = gl.allocate_shared_memory(gl.float32, [2, 64, 64], gl.SwizzledSharedLayout(vec=4, per_phase=1, max_phase=8, order=[1, 0]))
        x_ptrs_174 = x_ptrs_89
        cb_ptrs_176 = cb_ptrs_95
        cb_ptrs_176_p1 = cb_ptrs_176
        x_ptrs_174_p1 = x_ptrs_174
        dt_ptrs_175 = dt_ptrs_90
        dt_n = chunk_size - (0 + (0 - 0) * 64)  # load1_dt_n: stage 0, partition 0 (group 0)
        cb_140 = dt_n  # elementwise2_cb: stage 0, partition 0 (group 0)
        cb_141 = dout_ptrs_74 < cb_140  # elementwise2_cb: stage 0, partition 0 (group 0)
        cb_142 = cb_141.broadcast_to([64, 64])  # elementwise2_cb: stage 0, partition 0 (group 0)
        cb_143 = cb_115 & cb_142  # elementwise2_cb: stage 0, partition 0 (group 0)
        x_126 = chunk_size_limit_97 - (0 + (0 - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
        x_ptrs_174 = x_ptrs_174_p1 + x_ptrs_118  # load0_x: stage 0, partition 0 (group 0)
        x_127 = x_126  # elementwise0_x: stage 0, partition 0 (group 0)
        x_128 = dout_ptrs_73 < x_127  # elementwise0_x: stage 0, partition 0 (group 0)
        x_129 = x_128.broadcast_to([64, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
        x_130 = x_113 & x_129  # elementwise0_x: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_x: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(x_132_ring.index((twill_base + 0 - 0) % 4), x_ptrs_174_p1, mask=x_130)  # load0_x: stage 0, partition 0 (group 0)
        else:  # load0_x: stage 0, partition 0 (group 0)
            x_132_ring.index((twill_base + 0 - 0) % 4).store(gl.load(x_ptrs_174_p1, mask=x_130, other=0.0))  # load0_x: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_x: stage 0, partition 0 (group 0)
        dt_n_134 = dt_n  # load1_dt_n: stage 0, partition 0 (group 0)
        dA_cs_n_147 = (0 + (0 - 0) * 64) + offs_m_57  # load3_dA_cs_n: stage 0, partition 0 (group 0)
        dt_n_135 = offs_m_57 < dt_n_134  # load1_dt_n: stage 0, partition 0 (group 0)
        dA_cs_n_148 = dA_cumsum_ptr_38 + dA_cs_n_147  # load3_dA_cs_n: stage 0, partition 0 (group 0)
        dA_cs_n_149 = gl.load(dA_cs_n_148, mask=dt_n_135, other=0.0)  # load3_dA_cs_n: stage 0, partition 0 (group 0)
        cb_ptrs_176 = cb_ptrs_176_p1 + 64  # load2_cb: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_cb: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(cb_144_as.index((twill_base + 0 - 0) % 2), cb_ptrs_176_p1, mask=cb_143)  # load2_cb: stage 0, partition 0 (group 0)
        else:  # load2_cb: stage 0, partition 0 (group 0)
            cb_144_as.index((twill_base + 0 - 0) % 2).store(gl.load(cb_ptrs_176_p1, mask=cb_143, other=0.0))  # load2_cb: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        cb_ptrs_176_p1 = cb_ptrs_176
        dA_cs_n_149_p1 = dA_cs_n_149
        dt_n_p1 = dt_n
        dt_n_135_p1 = dt_n_135
        dt_ptrs_175_p1 = dt_ptrs_175
        x_ptrs_174_p1 = x_ptrs_174
        ddAcs_ptrs_177 = ddAcs_ptrs_96
        rowsum_new_168 = gl.full([64], 0.0, gl.float32, layout=L1_short)
        dt_n = chunk_size - (0 + (1 - 0) * 64)  # load1_dt_n: stage 0, partition 0 (group 0)
        cb_140 = dt_n  # elementwise2_cb: stage 0, partition 0 (group 0)
        cb_141 = dout_ptrs_74 < cb_140  # elementwise2_cb: stage 0, partition 0 (group 0)
        cb_142 = cb_141.broadcast_to([64, 64])  # elementwise2_cb: stage 0, partition 0 (group 0)
        cb_143 = cb_115 & cb_142  # elementwise2_cb: stage 0, partition 0 (group 0)
        x_126 = chunk_size_limit_97 - (0 + (1 - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
        x_ptrs_174 = x_ptrs_174_p1 + x_ptrs_118  # load0_x: stage 0, partition 0 (group 0)
        x_127 = x_126  # elementwise0_x: stage 0, partition 0 (group 0)
        x_128 = dout_ptrs_73 < x_127  # elementwise0_x: stage 0, partition 0 (group 0)
        x_129 = x_128.broadcast_to([64, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
        x_130 = x_113 & x_129  # elementwise0_x: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_x: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(x_132_ring.index((twill_base + 1 - 0) % 4), x_ptrs_174_p1, mask=x_130)  # load0_x: stage 0, partition 0 (group 0)
        else:  # load0_x: stage 0, partition 0 (group 0)
            x_132_ring.index((twill_base + 1 - 0) % 4).store(gl.load(x_ptrs_174_p1, mask=x_130, other=0.0))  # load0_x: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_x: stage 0, partition 0 (group 0)
        dt_ptrs_175 = dt_ptrs_175_p1 + 64  # load1_dt_n: stage 1, partition 0 (group 0)
        dt_n_136 = gl.load(dt_ptrs_175_p1, mask=dt_n_135_p1, other=0.0)  # load1_dt_n: stage 1, partition 0 (group 0)
        dt_n_134 = dt_n  # load1_dt_n: stage 0, partition 0 (group 0)
        dA_cs_n_147 = (0 + (1 - 0) * 64) + offs_m_57  # load3_dA_cs_n: stage 0, partition 0 (group 0)
        dt_n_135 = offs_m_57 < dt_n_134  # load1_dt_n: stage 0, partition 0 (group 0)
        dA_cs_n_148 = dA_cumsum_ptr_38 + dA_cs_n_147  # load3_dA_cs_n: stage 0, partition 0 (group 0)
        dA_cs_n_149 = gl.load(dA_cs_n_148, mask=dt_n_135, other=0.0)  # load3_dA_cs_n: stage 0, partition 0 (group 0)
        acc_150 = gl.expand_dims(dA_cs_n_149_p1, 0)  # sfu0_acc: stage 1, partition 0 (group 0)
        acc_151 = acc_150.broadcast_to([64, 64])  # sfu0_acc: stage 1, partition 0 (group 0)
        acc_152 = acc_116 - acc_151  # sfu0_acc: stage 1, partition 0 (group 0)
        acc_153 = gl.minimum(acc_152, gl.full([64, 64], 0.0, gl.float32, layout=L9_short))  # sfu0_acc: stage 1, partition 0 (group 0)
        acc_154 = gl.exp(acc_153)  # sfu0_acc: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        cb_144 = cb_144_as.index((twill_base + 1 - 1) % 2).load(L9_short)  # load2_cb: stage 1, partition 0 (group 0)
        cb_ptrs_176 = cb_ptrs_176_p1 + 64  # load2_cb: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_cb: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(cb_144_as.index((twill_base + 1 - 0) % 2), cb_ptrs_176_p1, mask=cb_143)  # load2_cb: stage 0, partition 0 (group 0)
        else:  # load2_cb: stage 0, partition 0 (group 0)
            cb_144_as.index((twill_base + 1 - 0) % 2).store(gl.load(cb_ptrs_176_p1, mask=cb_143, other=0.0))  # load2_cb: stage 0, partition 0 (group 0)
        cb_145 = gl.convert_layout(cb_144, L9_short)  # convert0_cb: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_154_p1 = acc_154
        cb_145_p1 = cb_145
        cb_ptrs_176_p1 = cb_ptrs_176
        dA_cs_n_149_p1 = dA_cs_n_149
        ddAcs_ptrs_177_p1 = ddAcs_ptrs_177
        dt_n_p2 = dt_n_p1
        dt_n_p1 = dt_n
        dt_n_135_p1 = dt_n_135
        dt_n_136_p1 = dt_n_136
        dt_ptrs_175_p1 = dt_ptrs_175
        rowsum_new_168_p1 = rowsum_new_168
        x_ptrs_174_p1 = x_ptrs_174
        for twill_b in range(2, twill_n):
            dt_n = chunk_size - (0 + (twill_b - 0) * 64)  # load1_dt_n: stage 0, partition 0 (group 0)
            cb_140 = dt_n  # elementwise2_cb: stage 0, partition 0 (group 0)
            cb_141 = dout_ptrs_74 < cb_140  # elementwise2_cb: stage 0, partition 0 (group 0)
            cb_142 = cb_141.broadcast_to([64, 64])  # elementwise2_cb: stage 0, partition 0 (group 0)
            cb_143 = cb_115 & cb_142  # elementwise2_cb: stage 0, partition 0 (group 0)
            async_copy.wait_group(1)
            gl.thread_barrier()
            x_132 = x_132_ring.index((twill_base + twill_b - 2) % 4)  # load0_x: stage 2, partition 0 (group 0)
            x_126 = chunk_size_limit_97 - (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
            x_ptrs_174 = x_ptrs_174_p1 + x_ptrs_118  # load0_x: stage 0, partition 0 (group 0)
            x_127 = x_126  # elementwise0_x: stage 0, partition 0 (group 0)
            x_128 = dout_ptrs_73 < x_127  # elementwise0_x: stage 0, partition 0 (group 0)
            x_129 = x_128.broadcast_to([64, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
            x_130 = x_113 & x_129  # elementwise0_x: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_x: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(x_132_ring.index((twill_base + twill_b - 0) % 4), x_ptrs_174_p1, mask=x_130)  # load0_x: stage 0, partition 0 (group 0)
            else:  # load0_x: stage 0, partition 0 (group 0)
                x_132_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(x_ptrs_174_p1, mask=x_130, other=0.0))  # load0_x: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_x: stage 0, partition 0 (group 0)
            tok_acc_133 = warpgroup_mma(dout_106, x_132, gl.full([64, 64], 0.0, gl.float32, layout=L9_short), use_acc=False, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            dt_ptrs_175 = dt_ptrs_175_p1 + 64  # load1_dt_n: stage 1, partition 0 (group 0)
            dt_n_136 = gl.load(dt_ptrs_175_p1, mask=dt_n_135_p1, other=0.0)  # load1_dt_n: stage 1, partition 0 (group 0)
            acc_137 = gl.expand_dims(dt_n_136_p1, 0)  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_138 = acc_137.broadcast_to([64, 64])  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_133 = warpgroup_mma_wait(0, deps=(tok_acc_133,))
            acc_139 = acc_133 * acc_138  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_146 = acc_139 * cb_145_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_155 = acc_146 * acc_154_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
            mask_157 = (0 + (twill_b - 2) * 64)  # elementwise1_acc: stage 2, partition 0 (group 0)
            mask_159 = mask_157 + dout_ptrs_75  # elementwise1_acc: stage 2, partition 0 (group 0)
            mask_161 = mask_159 + 1  # elementwise1_acc: stage 2, partition 0 (group 0)
            mask_163 = mask_161.broadcast_to([64, 64])  # elementwise1_acc: stage 2, partition 0 (group 0)
            mask_165 = mask_117 >= mask_163  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_166 = gl.where(mask_165, acc_155, 0.0)  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_167 = gl.convert_layout(acc_166, L10_short)  # convert1_acc: stage 2, partition 0 (group 0)
            mask_156 = (0 + (twill_b - 2) * 64)  # elementwise3_acc: stage 2, partition 0 (group 0)
            mask_158 = mask_156 + dout_ptrs_74  # elementwise3_acc: stage 2, partition 0 (group 0)
            mask_160 = mask_158 + 1  # elementwise3_acc: stage 2, partition 0 (group 0)
            mask_162 = mask_160.broadcast_to([64, 64])  # elementwise3_acc: stage 2, partition 0 (group 0)
            mask_164 = mask >= mask_162  # elementwise3_acc: stage 2, partition 0 (group 0)
            acc_169 = gl.expand_dims(rowsum_new_168_p1, 1)  # elementwise3_acc: stage 2, partition 0 (group 0)
            acc_170 = gl.associative_scan(acc_167, 1, twill_add_short)  # elementwise3_acc: stage 2, partition 0 (group 0)
            acc_171 = acc_169.broadcast_to([64, 64])  # elementwise3_acc: stage 2, partition 0 (group 0)
            acc_172 = acc_171 + acc_170  # elementwise3_acc: stage 2, partition 0 (group 0)
            acc_173 = gl.where(mask_164, acc_172, 0.0)  # elementwise3_acc: stage 2, partition 0 (group 0)
            ddA_cs = gl.sum(acc_173, axis=0)  # reduce1_ddA_cs: stage 2, partition 0 (group 0)
            rowsum_new = gl.sum(acc_167, axis=1)  # reduce0_rowsum_new: stage 2, partition 0 (group 0)
            v6 = gl.convert_layout(ddA_cs, L4_short)  # convert2: stage 2, partition 0 (group 0)
            v2 = dt_n_p2 - 1  # store0: stage 2, partition 0 (group 0)
            v3 = v2  # store0: stage 2, partition 0 (group 0)
            v4 = offs_m_58 < v3  # store0: stage 2, partition 0 (group 0)
            v5 = ddAcs_ptrs_177_p1 + 1  # store0: stage 2, partition 0 (group 0)
            gl.store(v5, v6, mask=v4)  # store0: stage 2, partition 0 (group 0)
            ddAcs_ptrs_177 = ddAcs_ptrs_177_p1 + 64  # store0: stage 2, partition 0 (group 0)
            rowsum_new_168 = rowsum_new_168_p1 + rowsum_new  # elementwise4_rowsum_new: stage 2, partition 0 (group 0)
            dA_cs_n = (0 + (twill_b - 0) * 64)  # load3_dA_cs_n: stage 0, partition 0 (group 0)
            dt_n_134 = dt_n  # load1_dt_n: stage 0, partition 0 (group 0)
            dA_cs_n_147 = dA_cs_n + offs_m_57  # load3_dA_cs_n: stage 0, partition 0 (group 0)
            dt_n_135 = offs_m_57 < dt_n_134  # load1_dt_n: stage 0, partition 0 (group 0)
            dA_cs_n_148 = dA_cumsum_ptr_38 + dA_cs_n_147  # load3_dA_cs_n: stage 0, partition 0 (group 0)
            dA_cs_n_149 = gl.load(dA_cs_n_148, mask=dt_n_135, other=0.0)  # load3_dA_cs_n: stage 0, partition 0 (group 0)
            acc_150 = gl.expand_dims(dA_cs_n_149_p1, 0)  # sfu0_acc: stage 1, partition 0 (group 0)
            acc_151 = acc_150.broadcast_to([64, 64])  # sfu0_acc: stage 1, partition 0 (group 0)
            acc_152 = acc_116 - acc_151  # sfu0_acc: stage 1, partition 0 (group 0)
            acc_153 = gl.minimum(acc_152, gl.full([64, 64], 0.0, gl.float32, layout=L9_short))  # sfu0_acc: stage 1, partition 0 (group 0)
            acc_154 = gl.exp(acc_153)  # sfu0_acc: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            cb_144 = cb_144_as.index((twill_base + twill_b - 1) % 2).load(L9_short)  # load2_cb: stage 1, partition 0 (group 0)
            cb_ptrs_176 = cb_ptrs_176_p1 + 64  # load2_cb: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_cb: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(cb_144_as.index((twill_base + twill_b - 0) % 2), cb_ptrs_176_p1, mask=cb_143)  # load2_cb: stage 0, partition 0 (group 0)
            else:  # load2_cb: stage 0, partition 0 (group 0)
                cb_144_as.index((twill_base + twill_b - 0) % 2).store(gl.load(cb_ptrs_176_p1, mask=cb_143, other=0.0))  # load2_cb: stage 0, partition 0 (group 0)
            cb_145 = gl.convert_layout(cb_144, L9_short)  # convert0_cb: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_154_p1 = acc_154
            cb_145_p1 = cb_145
            cb_ptrs_176_p1 = cb_ptrs_176
            dA_cs_n_149_p1 = dA_cs_n_149
            ddAcs_ptrs_177_p1 = ddAcs_ptrs_177
            dt_n_p2 = dt_n_p1
            dt_n_p1 = dt_n
            dt_n_135_p1 = dt_n_135
            dt_n_136_p1 = dt_n_136
            dt_ptrs_175_p1 = dt_ptrs_175
            rowsum_new_168_p1 = rowsum_new_168
            x_ptrs_174_p1 = x_ptrs_174
        async_copy.wait_group(1)
        gl.thread_barrier()
        x_132 = x_132_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load0_x: stage 2, partition 0 (group 0)
        tok_acc_133 = warpgroup_mma(dout_106, x_132, gl.full([64, 64], 0.0, gl.float32, layout=L9_short), use_acc=False, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        dt_ptrs_175 = dt_ptrs_175_p1 + 64  # load1_dt_n: stage 1, partition 0 (group 0)
        dt_n_136 = gl.load(dt_ptrs_175_p1, mask=dt_n_135_p1, other=0.0)  # load1_dt_n: stage 1, partition 0 (group 0)
        acc_137 = gl.expand_dims(dt_n_136_p1, 0)  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_138 = acc_137.broadcast_to([64, 64])  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_133 = warpgroup_mma_wait(0, deps=(tok_acc_133,))
        acc_139 = acc_133 * acc_138  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_146 = acc_139 * cb_145_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_155 = acc_146 * acc_154_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        mask_157 = (0 + ((twill_n - 1 + 1) - 2) * 64)  # elementwise1_acc: stage 2, partition 0 (group 0)
        mask_159 = mask_157 + dout_ptrs_75  # elementwise1_acc: stage 2, partition 0 (group 0)
        mask_161 = mask_159 + 1  # elementwise1_acc: stage 2, partition 0 (group 0)
        mask_163 = mask_161.broadcast_to([64, 64])  # elementwise1_acc: stage 2, partition 0 (group 0)
        mask_165 = mask_117 >= mask_163  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_166 = gl.where(mask_165, acc_155, 0.0)  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_167 = gl.convert_layout(acc_166, L10_short)  # convert1_acc: stage 2, partition 0 (group 0)
        mask_156 = (0 + ((twill_n - 1 + 1) - 2) * 64)  # elementwise3_acc: stage 2, partition 0 (group 0)
        mask_158 = mask_156 + dout_ptrs_74  # elementwise3_acc: stage 2, partition 0 (group 0)
        mask_160 = mask_158 + 1  # elementwise3_acc: stage 2, partition 0 (group 0)
        mask_162 = mask_160.broadcast_to([64, 64])  # elementwise3_acc: stage 2, partition 0 (group 0)
        mask_164 = mask >= mask_162  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_169 = gl.expand_dims(rowsum_new_168_p1, 1)  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_170 = gl.associative_scan(acc_167, 1, twill_add_short)  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_171 = acc_169.broadcast_to([64, 64])  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_172 = acc_171 + acc_170  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_173 = gl.where(mask_164, acc_172, 0.0)  # elementwise3_acc: stage 2, partition 0 (group 0)
        ddA_cs = gl.sum(acc_173, axis=0)  # reduce1_ddA_cs: stage 2, partition 0 (group 0)
        rowsum_new = gl.sum(acc_167, axis=1)  # reduce0_rowsum_new: stage 2, partition 0 (group 0)
        v6 = gl.convert_layout(ddA_cs, L4_short)  # convert2: stage 2, partition 0 (group 0)
        v2 = dt_n_p2 - 1  # store0: stage 2, partition 0 (group 0)
        v3 = v2  # store0: stage 2, partition 0 (group 0)
        v4 = offs_m_58 < v3  # store0: stage 2, partition 0 (group 0)
        v5 = ddAcs_ptrs_177_p1 + 1  # store0: stage 2, partition 0 (group 0)
        gl.store(v5, v6, mask=v4)  # store0: stage 2, partition 0 (group 0)
        ddAcs_ptrs_177 = ddAcs_ptrs_177_p1 + 64  # store0: stage 2, partition 0 (group 0)
        rowsum_new_168 = rowsum_new_168_p1 + rowsum_new  # elementwise4_rowsum_new: stage 2, partition 0 (group 0)
        acc_150 = gl.expand_dims(dA_cs_n_149_p1, 0)  # sfu0_acc: stage 1, partition 0 (group 0)
        acc_151 = acc_150.broadcast_to([64, 64])  # sfu0_acc: stage 1, partition 0 (group 0)
        acc_152 = acc_116 - acc_151  # sfu0_acc: stage 1, partition 0 (group 0)
        acc_153 = gl.minimum(acc_152, gl.full([64, 64], 0.0, gl.float32, layout=L9_short))  # sfu0_acc: stage 1, partition 0 (group 0)
        acc_154 = gl.exp(acc_153)  # sfu0_acc: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        cb_144 = cb_144_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L9_short)  # load2_cb: stage 1, partition 0 (group 0)
        cb_145 = gl.convert_layout(cb_144, L9_short)  # convert0_cb: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_154_p1 = acc_154
        cb_145_p1 = cb_145
        cb_ptrs_176_p2 = cb_ptrs_176_p1
        cb_ptrs_176_p1 = cb_ptrs_176
        dA_cs_n_149_p1 = dA_cs_n_149
        ddAcs_ptrs_177_p1 = ddAcs_ptrs_177
        dt_n_p2 = dt_n_p1
        dt_n_p1 = dt_n
        dt_n_135_p1 = dt_n_135
        dt_n_136_p1 = dt_n_136
        dt_ptrs_175_p2 = dt_ptrs_175_p1
        dt_ptrs_175_p1 = dt_ptrs_175
        rowsum_new_168_p1 = rowsum_new_168
        x_ptrs_174_p2 = x_ptrs_174_p1
        x_ptrs_174_p1 = x_ptrs_174
        async_copy.wait_group(1)
        gl.thread_barrier()
        x_132 = x_132_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load0_x: stage 2, partition 0 (group 0)
        tok_acc_133 = warpgroup_mma(dout_106, x_132, gl.full([64, 64], 0.0, gl.float32, layout=L9_short), use_acc=False, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        acc_137 = gl.expand_dims(dt_n_136_p1, 0)  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_138 = acc_137.broadcast_to([64, 64])  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_133 = warpgroup_mma_wait(0, deps=(tok_acc_133,))
        acc_139 = acc_133 * acc_138  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_146 = acc_139 * cb_145_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_155 = acc_146 * acc_154_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        mask_157 = (0 + ((twill_n - 1 + 2) - 2) * 64)  # elementwise1_acc: stage 2, partition 0 (group 0)
        mask_159 = mask_157 + dout_ptrs_75  # elementwise1_acc: stage 2, partition 0 (group 0)
        mask_161 = mask_159 + 1  # elementwise1_acc: stage 2, partition 0 (group 0)
        mask_163 = mask_161.broadcast_to([64, 64])  # elementwise1_acc: stage 2, partition 0 (group 0)
        mask_165 = mask_117 >= mask_163  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_166 = gl.where(mask_165, acc_155, 0.0)  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_167 = gl.convert_layout(acc_166, L10_short)  # convert1_acc: stage 2, partition 0 (group 0)
        mask_156 = (0 + ((twill_n - 1 + 2) - 2) * 64)  # elementwise3_acc: stage 2, partition 0 (group 0)
        mask_158 = mask_156 + dout_ptrs_74  # elementwise3_acc: stage 2, partition 0 (group 0)
        mask_160 = mask_158 + 1  # elementwise3_acc: stage 2, partition 0 (group 0)
        mask_162 = mask_160.broadcast_to([64, 64])  # elementwise3_acc: stage 2, partition 0 (group 0)
        mask_164 = mask >= mask_162  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_169 = gl.expand_dims(rowsum_new_168_p1, 1)  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_170 = gl.associative_scan(acc_167, 1, twill_add_short)  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_171 = acc_169.broadcast_to([64, 64])  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_172 = acc_171 + acc_170  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_173 = gl.where(mask_164, acc_172, 0.0)  # elementwise3_acc: stage 2, partition 0 (group 0)
        ddA_cs = gl.sum(acc_173, axis=0)  # reduce1_ddA_cs: stage 2, partition 0 (group 0)
        rowsum_new = gl.sum(acc_167, axis=1)  # reduce0_rowsum_new: stage 2, partition 0 (group 0)
        v6 = gl.convert_layout(ddA_cs, L4_short)  # convert2: stage 2, partition 0 (group 0)
        v2 = dt_n_p2 - 1  # store0: stage 2, partition 0 (group 0)
        v3 = v2  # store0: stage 2, partition 0 (group 0)
        v4 = offs_m_58 < v3  # store0: stage 2, partition 0 (group 0)
        v5 = ddAcs_ptrs_177_p1 + 1  # store0: stage 2, partition 0 (group 0)
        gl.store(v5, v6, mask=v4)  # store0: stage 2, partition 0 (group 0)
        ddAcs_ptrs_177 = ddAcs_ptrs_177_p1 + 64  # store0: stage 2, partition 0 (group 0)
        rowsum_new_168 = rowsum_new_168_p1 + rowsum_new  # elementwise4_rowsum_new: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_154_p1 = acc_154
        cb_145_p1 = cb_145
        cb_ptrs_176_p3 = cb_ptrs_176_p2
        cb_ptrs_176_p2 = cb_ptrs_176_p1
        cb_ptrs_176_p1 = cb_ptrs_176
        dA_cs_n_149_p1 = dA_cs_n_149
        ddAcs_ptrs_177_p1 = ddAcs_ptrs_177
        dt_n_p2 = dt_n_p1
        dt_n_p1 = dt_n
        dt_n_135_p1 = dt_n_135
        dt_n_136_p1 = dt_n_136
        dt_ptrs_175_p2 = dt_ptrs_175_p1
        dt_ptrs_175_p1 = dt_ptrs_175
        rowsum_new_168_p1 = rowsum_new_168
        x_ptrs_174_p3 = x_ptrs_174_p2
        x_ptrs_174_p2 = x_ptrs_174_p1
        x_ptrs_174_p1 = x_ptrs_174
        dout_106._keep_alive()
        x_132_ring._keep_alive()
    else:
        ddAcs_ptrs_122_w = ddAcs_ptrs_96
        arg33_w = gl.full([64], 0.0, gl.float32, layout=L1_short)
        x_ptrs_123_w = x_ptrs_89
        cb_ptrs_124_w = cb_ptrs_95
        dt_ptrs_125_w = dt_ptrs_90
        for rowsum_121_w in range(0, v1, 64):
            x_126_w = chunk_size_limit_97 - rowsum_121_w
            x_128_w = dout_ptrs_73 < x_126_w
            x_129_w = x_128_w.broadcast_to([64, 64])
            x_130_w = x_113 & x_129_w
            x_131_w = gl.load(x_ptrs_123_w, mask=x_130_w, other=0.0)
            x_132_w = gl.allocate_shared_memory(gl.bfloat16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True), x_131_w)
            fence_async_shared()
            acc_133_w = warpgroup_mma(dout_106, x_132_w, gl.full([64, 64], 0.0, gl.float32, layout=L9_short))
            dt_n_w = chunk_size - rowsum_121_w
            dt_n_135_w = offs_m_57 < dt_n_w
            dt_n_136_w = gl.load(dt_ptrs_125_w, mask=dt_n_135_w, other=0.0)
            acc_137_w = gl.expand_dims(dt_n_136_w, 0)
            acc_138_w = acc_137_w.broadcast_to([64, 64])
            acc_139_w = acc_133_w * acc_138_w
            cb_141_w = dout_ptrs_74 < dt_n_w
            cb_142_w = cb_141_w.broadcast_to([64, 64])
            cb_143_w = cb_115 & cb_142_w
            cb_144_w = gl.load(cb_ptrs_124_w, mask=cb_143_w, other=0.0)
            cb_145_w = gl.convert_layout(cb_144_w, L9_short)
            acc_146_w = acc_139_w * cb_145_w
            dA_cs_n_147_w = rowsum_121_w + offs_m_57
            dA_cs_n_148_w = dA_cumsum_ptr_38 + dA_cs_n_147_w
            dA_cs_n_149_w = gl.load(dA_cs_n_148_w, mask=dt_n_135_w, other=0.0)
            acc_150_w = gl.expand_dims(dA_cs_n_149_w, 0)
            acc_151_w = acc_150_w.broadcast_to([64, 64])
            acc_152_w = acc_116 - acc_151_w
            acc_153_w = gl.minimum(acc_152_w, gl.full([64, 64], 0.0, gl.float32, layout=L9_short))
            acc_154_w = gl.exp(acc_153_w)
            acc_155_w = acc_146_w * acc_154_w
            mask_158_w = rowsum_121_w + dout_ptrs_74
            mask_159_w = rowsum_121_w + dout_ptrs_75
            mask_160_w = mask_158_w + 1
            mask_161_w = mask_159_w + 1
            mask_162_w = mask_160_w.broadcast_to([64, 64])
            mask_163_w = mask_161_w.broadcast_to([64, 64])
            mask_164_w = mask >= mask_162_w
            mask_165_w = mask_117 >= mask_163_w
            acc_166_w = gl.where(mask_165_w, acc_155_w, 0.0)
            acc_167_w = gl.convert_layout(acc_166_w, L10_short)
            rowsum_new_w = gl.sum(acc_167_w, axis=1)
            rowsum_new_168_w = arg33_w + rowsum_new_w
            acc_169_w = gl.expand_dims(arg33_w, 1)
            acc_170_w = gl.associative_scan(acc_167_w, 1, twill_add_short)
            acc_171_w = acc_169_w.broadcast_to([64, 64])
            acc_172_w = acc_171_w + acc_170_w
            acc_173_w = gl.where(mask_164_w, acc_172_w, 0.0)
            ddA_cs_w = gl.sum(acc_173_w, axis=0)
            v2_w = dt_n_w - 1
            v4_w = offs_m_58 < v2_w
            v5_w = ddAcs_ptrs_122_w + 1
            v6_w = gl.convert_layout(ddA_cs_w, L4_short)
            gl.store(v5_w, v6_w, mask=v4_w)
            x_ptrs_174_w = x_ptrs_123_w + x_ptrs_118
            dt_ptrs_175_w = dt_ptrs_125_w + 64
            cb_ptrs_176_w = cb_ptrs_124_w + 64
            ddAcs_ptrs_177_w = ddAcs_ptrs_122_w + 64
            ddAcs_ptrs_122_w = ddAcs_ptrs_177_w
            arg33_w = rowsum_new_168_w
            x_ptrs_123_w = x_ptrs_174_w
            cb_ptrs_124_w = cb_ptrs_176_w
            dt_ptrs_125_w = dt_ptrs_175_w
        ddAcs_ptrs_177_p1 = ddAcs_ptrs_122_w
        rowsum_new_168_p1 = arg33_w
        x_ptrs_174_p3 = x_ptrs_123_w
        cb_ptrs_176_p3 = cb_ptrs_124_w
        dt_ptrs_175_p2 = dt_ptrs_125_w
    twill_base += twill_n
    twill_n = gl.maximum((chunk_size - v1 + 64 - 1) // 64, 0)
    ddAcs_ptrs_122_l1 = ddAcs_ptrs_177_p1
    ddAcs_ptrs_122_l1_p1 = ddAcs_ptrs_122_l1
    for twill_b in range(0, twill_n):
        v2_l1 = chunk_size - (v1 + (twill_b - 0) * 64)  # store0: stage 0, partition 0 (group 0)
        v3_l1 = v2_l1 - 1  # store0: stage 0, partition 0 (group 0)
        v4_l1 = v3_l1  # store0: stage 0, partition 0 (group 0)
        v5_l1 = offs_m_58 < v4_l1  # store0: stage 0, partition 0 (group 0)
        v6_l1 = ddAcs_ptrs_122_l1_p1 + 1  # store0: stage 0, partition 0 (group 0)
        gl.store(v6_l1, gl.full([64], 0.0, gl.float32, layout=L4_short), mask=v5_l1)  # store0: stage 0, partition 0 (group 0)
        ddAcs_ptrs_122_l1 = ddAcs_ptrs_122_l1_p1 + 64  # store0: stage 0, partition 0 (group 0)
        ddAcs_ptrs_122_l1_p1 = ddAcs_ptrs_122_l1

@gluon.jit
def twill_kernel_short(x_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, cb_ptr, ddA_cumsum_ptr, chunk_size, hdim, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_ddA_cs_batch, stride_ddA_cs_chunk, stride_ddA_cs_head, stride_ddA_cs_csize_m, TWILL_COPY: gl.constexpr):
    consumer_0_short(x_ptr, dout_ptr, dt_ptr, dA_cumsum_ptr, cb_ptr, ddA_cumsum_ptr, chunk_size, hdim, batch, seqlen, nheads_ngroups_ratio, stride_x_batch, stride_x_seqlen, stride_x_head, stride_dout_batch, stride_dout_seqlen, stride_dout_head, stride_dt_batch, stride_dt_chunk, stride_dt_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_cb_batch, stride_cb_chunk, stride_cb_head, stride_cb_csize_m, stride_ddA_cs_batch, stride_ddA_cs_chunk, stride_ddA_cs_head, stride_ddA_cs_csize_m, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'dout_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'cb_ptr', 'ddA_cumsum_ptr', 'chunk_size', 'hdim', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_x_hdim', 'stride_dout_batch', 'stride_dout_seqlen', 'stride_dout_head', 'stride_dout_hdim', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dt_csize', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_dA_cs_csize', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_cb_csize_n', 'stride_ddA_cs_batch', 'stride_ddA_cs_chunk', 'stride_ddA_cs_head', 'stride_ddA_cs_csize_m', 'stride_ddA_cs_csize_n', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'dout_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'cb_ptr', 'ddA_cumsum_ptr', 'chunk_size', 'hdim', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_dout_batch', 'stride_dout_seqlen', 'stride_dout_head', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_ddA_cs_batch', 'stride_ddA_cs_chunk', 'stride_ddA_cs_head', 'stride_ddA_cs_csize_m', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'dout_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'cb_ptr', 'ddA_cumsum_ptr', 'chunk_size', 'hdim', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_dout_batch', 'stride_dout_seqlen', 'stride_dout_head', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_ddA_cs_batch', 'stride_ddA_cs_chunk', 'stride_ddA_cs_head', 'stride_ddA_cs_csize_m', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_x_hdim': 1, 'stride_dout_hdim': 1, 'stride_dt_csize': 1, 'stride_dA_cs_csize': 1, 'stride_cb_csize_n': 1, 'stride_ddA_cs_csize_n': 1, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['x_ptr', 'hdim', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['x_ptr', 'dout_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'cb_ptr', 'ddA_cumsum_ptr', 'chunk_size', 'hdim', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_x_hdim', 'stride_dout_batch', 'stride_dout_seqlen', 'stride_dout_head', 'stride_dout_hdim', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dt_csize', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_dA_cs_csize', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_cb_csize_n', 'stride_ddA_cs_batch', 'stride_ddA_cs_chunk', 'stride_ddA_cs_head', 'stride_ddA_cs_csize_m', 'stride_ddA_cs_csize_n', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME_short = ['x_ptr', 'dout_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'cb_ptr', 'ddA_cumsum_ptr', 'chunk_size', 'hdim', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_dout_batch', 'stride_dout_seqlen', 'stride_dout_head', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_ddA_cs_batch', 'stride_ddA_cs_chunk', 'stride_ddA_cs_head', 'stride_ddA_cs_csize_m']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['x_ptr', 'dout_ptr', 'dt_ptr', 'dA_cumsum_ptr', 'cb_ptr', 'ddA_cumsum_ptr', 'chunk_size', 'hdim', 'batch', 'seqlen', 'nheads_ngroups_ratio', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_dout_batch', 'stride_dout_seqlen', 'stride_dout_head', 'stride_dt_batch', 'stride_dt_chunk', 'stride_dt_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m', 'stride_ddA_cs_batch', 'stride_ddA_cs_chunk', 'stride_ddA_cs_head', 'stride_ddA_cs_csize_m']   # the arguments a launch key reads
CONSTEXPRS_short = {'stride_x_hdim': 1, 'stride_dout_hdim': 1, 'stride_dt_csize': 1, 'stride_dA_cs_csize': 1, 'stride_cb_csize_n': 1, 'stride_ddA_cs_csize_n': 1, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['x_ptr', 'cb_ptr', 'chunk_size', 'hdim', 'stride_x_batch', 'stride_x_seqlen', 'stride_x_head', 'stride_cb_batch', 'stride_cb_chunk', 'stride_cb_head', 'stride_cb_csize_m']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
