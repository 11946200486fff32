"""parallel_based_fwd_kernel, written by twill from its joint schedule: I=229 L=229 (optimal), 1844 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (b_v_156_ring: 3 x 8192 B, issued 1 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 1 stage(s) ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 217 per thread)
- shared operand b_k_142_st: partition 0 stores the loop's [16, 32] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 26640 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at fla_parallel_based.py:92 (TTGIR line 215) (after the scheduled loop): written by the same partitions, its tiles loaded by the partition itself, in one stage of its own schedule (I=223, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[16, 2], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16]), k_width=2))
L10 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L11 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16])))
L12 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16]))
L13 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L14 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16])))
L15 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, v, o, z, scale, T, b_k_142_st, b_k_145_st, TWILL_COPY: gl.constexpr):
    twill_base = 0
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    p_q = v2 * T
    p_q_19 = p_q * 16
    p_q_20 = q + p_q_19
    p_q_21 = v1 * 128
    p_q_22 = v0 * 16
    p_q_23 = gl.cast(T, gl.int64)
    p_q_24 = gl.cast(p_q_21, gl.int64)
    p_q_25 = gl.cast(p_q_22, gl.int64)
    p_k = k + p_q_19
    p_v = p_q * 128
    p_v_26 = v + p_v
    b_q_30 = gl.arange(0, 128, layout=L0)
    b_q_31 = gl.arange(0, 128, layout=L1)
    b_q_32 = gl.arange(0, 128, layout=L2)
    b_q_33 = gl.arange(0, 128, layout=L3)
    b_q_34 = gl.arange(0, 128, layout=L4)
    b_q_35 = b_q_30.to(gl.int64)
    b_q_36 = b_q_31.to(gl.int64)
    b_q_37 = b_q_32.to(gl.int64)
    b_q_38 = b_q_33.to(gl.int64)
    b_q_39 = p_q_24 + b_q_35
    b_q_40 = p_q_24 + b_q_36
    b_q_41 = gl.expand_dims(b_q_39, 1)
    b_q_42 = gl.expand_dims(b_q_40, 1)
    b_q_43 = b_q_41 * 16
    b_q_44 = b_q_43.broadcast_to([128, 16])
    b_q_47 = gl.arange(0, 16, layout=L5)
    b_q_48 = gl.arange(0, 16, layout=L6)
    b_q_49 = b_q_47.to(gl.int64)
    b_q_50 = b_q_48.to(gl.int64)
    b_q_51 = p_q_25 + b_q_49
    b_q_52 = p_q_25 + b_q_50
    b_q_53 = gl.expand_dims(b_q_51, 0)
    b_q_54 = b_q_53.broadcast_to([128, 16])
    b_q_55 = b_q_44 + b_q_54
    b_q_56 = p_q_20 + b_q_55
    b_q_57 = b_q_41 >= 0
    b_q_58 = b_q_42 >= 0
    b_q_61 = b_q_41 < p_q_23
    b_q_62 = b_q_42 < p_q_23
    b_q_63 = b_q_57 & b_q_61
    b_q_64 = b_q_58 & b_q_62
    b_q_65 = b_q_63.broadcast_to([128, 16])
    b_q_66 = b_q_53 >= 0
    b_q_67 = b_q_53 < 16
    b_q_68 = b_q_66 & b_q_67
    b_q_69 = b_q_68.broadcast_to([128, 16])
    b_q_70 = b_q_65 & b_q_69
    b_q_71 = gl.load(b_q_56, mask=b_q_70)
    b_q_72 = b_q_71.to(gl.float32)
    b_q_74 = b_q_72 * scale
    b_q_75 = b_q_74.to(gl.float16)
    b_k_76 = gl.expand_dims(b_q_52, 1)
    b_k_77 = b_k_76.broadcast_to([16, 32])
    b_k_78 = gl.arange(0, 32, layout=L7)
    b_k_79 = gl.arange(0, 32, layout=L8)
    b_k_80 = b_k_78.to(gl.int64)
    b_k_81 = b_k_79.to(gl.int64)
    b_k_82 = b_k_76 >= 0
    b_k_83 = b_k_76 < 16
    b_k_84 = b_k_82 & b_k_83
    b_k_85 = b_k_84.broadcast_to([16, 32])
    b_v_87 = gl.expand_dims(b_q_37, 0)
    b_v_88 = b_v_87.broadcast_to([32, 128])
    b_v_90 = b_v_87 >= 0
    b_v_91 = b_v_87 < 128
    b_v_92 = b_v_90 & b_v_91
    b_v_93 = b_v_92.broadcast_to([32, 128])
    b_q_94 = gl.convert_layout(b_q_75, L9)
    twill_n = (p_q_21 - 0 + 32 - 1) // 32
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_v_156_ring = gl.allocate_shared_memory(gl.float16, [3, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        p_k_165 = 0
        p_k_165_p1 = p_k_165
        b_o_164 = gl.full([128, 128], 0.0, gl.float32, layout=L10)
        b_z_162 = gl.full([128], 0.0, gl.float32, layout=L11)
        b_v_143 = p_k_165_p1  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_144 = b_v_143 + b_k_81  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_145 = gl.expand_dims(b_v_144, 1)  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_150 = b_v_145 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_151 = b_v_145 < p_q_23  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_152 = b_v_150 & b_v_151  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_153 = b_v_152.broadcast_to([32, 128])  # elementwise3_b_v: stage 0, partition 0 (group 0)
        b_v_154 = b_v_153 & b_v_93  # elementwise3_b_v: stage 0, partition 0 (group 0)
        p_k_165 = p_k_165_p1 + 32  # load0_b_k: stage 0, partition 0 (group 0)
        b_v_146 = b_v_145 * 128  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_147 = b_v_146.broadcast_to([32, 128])  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_148 = b_v_147 + b_v_88  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_149 = p_v_26 + b_v_148  # load1_b_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_v_156_ring.index((twill_base + 0 - 0) % 3), b_v_149, mask=b_v_154)  # load1_b_v: stage 0, partition 0 (group 0)
        else:  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_156_ring.index((twill_base + 0 - 0) % 3).store(gl.load(b_v_149, mask=b_v_154))  # load1_b_v: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b_v: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        b_o_164_p1 = b_o_164
        b_z_162_p1 = b_z_162
        p_k_165_p2 = p_k_165_p1
        p_k_165_p1 = p_k_165
        for twill_b in range(1, twill_n):
            b_k_129 = p_k_165_p2  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_130 = b_k_129 + b_k_80  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_131 = gl.expand_dims(b_k_130, 0)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_136 = b_k_131 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_137 = b_k_131 < p_q_23  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_138 = b_k_136 & b_k_137  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_139 = b_k_138.broadcast_to([16, 32])  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_k_140 = b_k_85 & b_k_139  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_v_143 = p_k_165_p1  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_144 = b_v_143 + b_k_81  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_145 = gl.expand_dims(b_v_144, 1)  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_150 = b_v_145 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_151 = b_v_145 < p_q_23  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_152 = b_v_150 & b_v_151  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_153 = b_v_152.broadcast_to([32, 128])  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_v_154 = b_v_153 & b_v_93  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_k_132 = b_k_131 * 16  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_133 = b_k_132.broadcast_to([16, 32])  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_134 = b_k_77 + b_k_133  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_135 = p_k + b_k_134  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_141 = gl.load(b_k_135, mask=b_k_140)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_142 = b_k_142_st.index((twill_b - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_142.store(b_k_141)  # load0_b_k: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
            tok_b_s = warpgroup_mma(b_q_94, b_k_142, gl.full([128, 32], 0.0, gl.float32, layout=L12), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
            b_o_164_p1, b_s = warpgroup_mma_wait(0, deps=(b_o_164_p1, tok_b_s,))
            b_s_157 = b_s + 1.0  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_158 = b_s * 0.5  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_159 = b_s_158 * b_s  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_160 = b_s_157 + b_s_159  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_o = b_s_160.to(gl.float16)  # convert0_b_o: stage 1, partition 0 (group 0)
            b_o_163 = gl.convert_layout(b_o, L13)  # convert0_b_o: stage 1, partition 0 (group 0)
            b_z_161 = gl.sum(b_s_160, axis=1)  # reduce0_b_z: stage 1, partition 0 (group 0)
            b_z_162 = b_z_162_p1 + b_z_161  # elementwise5_b_z: stage 1, partition 0 (group 0)
            p_k_165 = p_k_165_p1 + 32  # load0_b_k: stage 0, partition 0 (group 0)
            b_v_146 = b_v_145 * 128  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_147 = b_v_146.broadcast_to([32, 128])  # load1_b_v: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_v_156 = b_v_156_ring.index((twill_base + twill_b - 1) % 3)  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_148 = b_v_147 + b_v_88  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_149 = p_v_26 + b_v_148  # load1_b_v: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b_v: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_v_156_ring.index((twill_base + twill_b - 0) % 3), b_v_149, mask=b_v_154)  # load1_b_v: stage 0, partition 0 (group 0)
            else:  # load1_b_v: stage 0, partition 0 (group 0)
                b_v_156_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(b_v_149, mask=b_v_154))  # load1_b_v: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b_v: stage 0, partition 0 (group 0)
            tok_b_o_164 = warpgroup_mma(b_o_163, b_v_156, b_o_164_p1, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            b_o_164 = warpgroup_mma_wait(1, deps=(tok_b_o_164,))
            b_o_164_p1 = b_o_164
            b_z_162_p1 = b_z_162
            p_k_165_p2 = p_k_165_p1
            p_k_165_p1 = p_k_165
        b_k_129 = p_k_165_p2  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_130 = b_k_129 + b_k_80  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_131 = gl.expand_dims(b_k_130, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_136 = b_k_131 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_137 = b_k_131 < p_q_23  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_138 = b_k_136 & b_k_137  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_139 = b_k_138.broadcast_to([16, 32])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_140 = b_k_85 & b_k_139  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_132 = b_k_131 * 16  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_133 = b_k_132.broadcast_to([16, 32])  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_134 = b_k_77 + b_k_133  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_135 = p_k + b_k_134  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_141 = gl.load(b_k_135, mask=b_k_140)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_142 = b_k_142_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_142.store(b_k_141)  # load0_b_k: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
        tok_b_s = warpgroup_mma(b_q_94, b_k_142, gl.full([128, 32], 0.0, gl.float32, layout=L12), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
        b_o_164_p1, b_s = warpgroup_mma_wait(0, deps=(b_o_164_p1, tok_b_s,))
        b_s_157 = b_s + 1.0  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_158 = b_s * 0.5  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_159 = b_s_158 * b_s  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_160 = b_s_157 + b_s_159  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_o = b_s_160.to(gl.float16)  # convert0_b_o: stage 1, partition 0 (group 0)
        b_o_163 = gl.convert_layout(b_o, L13)  # convert0_b_o: stage 1, partition 0 (group 0)
        b_z_161 = gl.sum(b_s_160, axis=1)  # reduce0_b_z: stage 1, partition 0 (group 0)
        b_z_162 = b_z_162_p1 + b_z_161  # elementwise5_b_z: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_v_156 = b_v_156_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load1_b_v: stage 1, partition 0 (group 0)
        tok_b_o_164 = warpgroup_mma(b_o_163, b_v_156, b_o_164_p1, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_o_164 = warpgroup_mma_wait(1, deps=(tok_b_o_164,))
        b_o_164_p1 = b_o_164
        b_z_162_p1 = b_z_162
        p_k_165_p2 = p_k_165_p1
        p_k_165_p1 = p_k_165
        b_o_164_p1 = warpgroup_mma_wait(0, deps=(b_o_164_p1,))
        b_k_142_st._keep_alive()
        b_v_156_ring._keep_alive()
    else:
        p_k_165_p2 = 0
        b_o_164_p1 = gl.full([128, 128], 0.0, gl.float32, layout=L10)
        b_z_162_p1 = gl.full([128], 0.0, gl.float32, layout=L11)
    twill_base += twill_n
    gl.thread_barrier()
    o_k = gl.arange(0, 32, layout=L7)
    o_k_96 = gl.arange(0, 32, layout=L14)
    o_k_97 = gl.arange(0, 32, layout=L8)
    v3 = v1 + 1
    v4 = v3 * 128
    b_k_99 = gl.expand_dims(b_q_52, 1)
    b_k_100 = b_k_99.broadcast_to([16, 32])
    b_k_101 = o_k.to(gl.int64)
    b_k_102 = o_k_97.to(gl.int64)
    b_k_103 = b_k_99 >= 0
    b_k_104 = b_k_99 < 16
    b_k_105 = b_k_103 & b_k_104
    b_k_106 = b_k_105.broadcast_to([16, 32])
    b_v_109 = gl.expand_dims(b_q_37, 0)
    b_v_110 = b_v_109.broadcast_to([32, 128])
    b_v_112 = b_v_109 >= 0
    b_v_113 = b_v_109 < 128
    b_v_114 = b_v_112 & b_v_113
    b_v_115 = b_v_114.broadcast_to([32, 128])
    m_s = gl.arange(0, 128, layout=L11)
    m_s_116 = gl.expand_dims(m_s, 1)
    m_s_117 = m_s_116.broadcast_to([128, 32])
    b_q_118 = gl.convert_layout(b_q_75, L9)
    twill_n = gl.maximum((v4 - p_q_21 + 32 - 1) // 32, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_v_159_ring = gl.allocate_shared_memory(gl.float16, [3, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        p_k_172 = p_q_24
        p_k_172_p1 = p_k_172
        b_o_171 = b_o_164_p1
        b_z_169 = b_z_162_p1
        o_k_173 = o_k_96
        b_v_146_l1 = p_k_172_p1  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_147_l1 = b_v_146_l1 + b_k_102  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_148_l1 = gl.expand_dims(b_v_147_l1, 1)  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_153_l1 = b_v_148_l1 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_154_l1 = b_v_148_l1 < p_q_23  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_155_l1 = b_v_153_l1 & b_v_154_l1  # elementwise2_b_v: stage 0, partition 0 (group 0)
        b_v_156_l1 = b_v_155_l1.broadcast_to([32, 128])  # elementwise3_b_v: stage 0, partition 0 (group 0)
        b_v_157 = b_v_156_l1 & b_v_115  # elementwise3_b_v: stage 0, partition 0 (group 0)
        p_k_172 = p_k_172_p1 + 32  # load0_b_k: stage 0, partition 0 (group 0)
        b_v_149_l1 = b_v_148_l1 * 128  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_150_l1 = b_v_149_l1.broadcast_to([32, 128])  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_151_l1 = b_v_150_l1 + b_v_110  # load1_b_v: stage 0, partition 0 (group 0)
        b_v_152_l1 = p_v_26 + b_v_151_l1  # load1_b_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_v_159_ring.index((twill_base + 0 - 0) % 3), b_v_152_l1, mask=b_v_157)  # load1_b_v: stage 0, partition 0 (group 0)
        else:  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_159_ring.index((twill_base + 0 - 0) % 3).store(gl.load(b_v_152_l1, mask=b_v_157))  # load1_b_v: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b_v: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        b_o_171_p1 = b_o_171
        b_z_169_p1 = b_z_169
        o_k_173_p1 = o_k_173
        p_k_172_p2 = p_k_172_p1
        p_k_172_p1 = p_k_172
        for twill_b in range(1, twill_n):
            b_k_132_l1 = p_k_172_p2  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_133_l1 = b_k_132_l1 + b_k_101  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_134_l1 = gl.expand_dims(b_k_133_l1, 0)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_139_l1 = b_k_134_l1 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_140_l1 = b_k_134_l1 < p_q_23  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_141_l1 = b_k_139_l1 & b_k_140_l1  # elementwise0_b_k: stage 1, partition 0 (group 0)
            b_k_142_l1 = b_k_141_l1.broadcast_to([16, 32])  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_k_143 = b_k_106 & b_k_142_l1  # elementwise1_b_k: stage 1, partition 0 (group 0)
            b_v_146_l1 = p_k_172_p1  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_147_l1 = b_v_146_l1 + b_k_102  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_148_l1 = gl.expand_dims(b_v_147_l1, 1)  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_153_l1 = b_v_148_l1 >= 0  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_154_l1 = b_v_148_l1 < p_q_23  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_155_l1 = b_v_153_l1 & b_v_154_l1  # elementwise2_b_v: stage 0, partition 0 (group 0)
            b_v_156_l1 = b_v_155_l1.broadcast_to([32, 128])  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_v_157 = b_v_156_l1 & b_v_115  # elementwise3_b_v: stage 0, partition 0 (group 0)
            b_k_135_l1 = b_k_134_l1 * 16  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_136_l1 = b_k_135_l1.broadcast_to([16, 32])  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_137_l1 = b_k_100 + b_k_136_l1  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_138_l1 = p_k + b_k_137_l1  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_144 = gl.load(b_k_138_l1, mask=b_k_143)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_145 = b_k_145_st.index((twill_b - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
            b_k_145.store(b_k_144)  # load0_b_k: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
            tok_b_s_l1 = warpgroup_mma(b_q_118, b_k_145, gl.full([128, 32], 0.0, gl.float32, layout=L12), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
            m_s_160 = gl.expand_dims(o_k_173_p1, 0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
            m_s_161 = m_s_160.broadcast_to([128, 32])  # elementwise4_b_s: stage 1, partition 0 (group 0)
            m_s_162 = m_s_117 >= m_s_161  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_o_171_p1, b_s_l1 = warpgroup_mma_wait(0, deps=(b_o_171_p1, tok_b_s_l1,))
            b_s_163 = b_s_l1 + 1.0  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_164 = b_s_l1 * 0.5  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_165 = b_s_164 * b_s_l1  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_166 = b_s_163 + b_s_165  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_s_167 = gl.where(m_s_162, b_s_166, 0.0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
            o_k_173 = o_k_173_p1 + 32  # elementwise4_b_s: stage 1, partition 0 (group 0)
            b_o_l1 = b_s_167.to(gl.float16)  # convert0_b_o: stage 1, partition 0 (group 0)
            b_o_170 = gl.convert_layout(b_o_l1, L13)  # convert0_b_o: stage 1, partition 0 (group 0)
            b_z_168_l1 = gl.sum(b_s_167, axis=1)  # reduce0_b_z: stage 1, partition 0 (group 0)
            b_z_169 = b_z_169_p1 + b_z_168_l1  # elementwise5_b_z: stage 1, partition 0 (group 0)
            p_k_172 = p_k_172_p1 + 32  # load0_b_k: stage 0, partition 0 (group 0)
            b_v_149_l1 = b_v_148_l1 * 128  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_150_l1 = b_v_149_l1.broadcast_to([32, 128])  # load1_b_v: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_v_159 = b_v_159_ring.index((twill_base + twill_b - 1) % 3)  # load1_b_v: stage 1, partition 0 (group 0)
            b_v_151_l1 = b_v_150_l1 + b_v_110  # load1_b_v: stage 0, partition 0 (group 0)
            b_v_152_l1 = p_v_26 + b_v_151_l1  # load1_b_v: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b_v: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_v_159_ring.index((twill_base + twill_b - 0) % 3), b_v_152_l1, mask=b_v_157)  # load1_b_v: stage 0, partition 0 (group 0)
            else:  # load1_b_v: stage 0, partition 0 (group 0)
                b_v_159_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(b_v_152_l1, mask=b_v_157))  # load1_b_v: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b_v: stage 0, partition 0 (group 0)
            tok_b_o_171 = warpgroup_mma(b_o_170, b_v_159, b_o_171_p1, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            b_o_171 = warpgroup_mma_wait(1, deps=(tok_b_o_171,))
            b_o_171_p1 = b_o_171
            b_z_169_p1 = b_z_169
            o_k_173_p1 = o_k_173
            p_k_172_p2 = p_k_172_p1
            p_k_172_p1 = p_k_172
        b_k_132_l1 = p_k_172_p2  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_133_l1 = b_k_132_l1 + b_k_101  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_134_l1 = gl.expand_dims(b_k_133_l1, 0)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_139_l1 = b_k_134_l1 >= 0  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_140_l1 = b_k_134_l1 < p_q_23  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_141_l1 = b_k_139_l1 & b_k_140_l1  # elementwise0_b_k: stage 1, partition 0 (group 0)
        b_k_142_l1 = b_k_141_l1.broadcast_to([16, 32])  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_143 = b_k_106 & b_k_142_l1  # elementwise1_b_k: stage 1, partition 0 (group 0)
        b_k_135_l1 = b_k_134_l1 * 16  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_136_l1 = b_k_135_l1.broadcast_to([16, 32])  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_137_l1 = b_k_100 + b_k_136_l1  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_138_l1 = p_k + b_k_137_l1  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_144 = gl.load(b_k_138_l1, mask=b_k_143)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_145 = b_k_145_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
        b_k_145.store(b_k_144)  # load0_b_k: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
        tok_b_s_l1 = warpgroup_mma(b_q_118, b_k_145, gl.full([128, 32], 0.0, gl.float32, layout=L12), use_acc=False, is_async=True)  # dot0_b_s: stage 1, partition 0 (group 0)
        m_s_160 = gl.expand_dims(o_k_173_p1, 0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
        m_s_161 = m_s_160.broadcast_to([128, 32])  # elementwise4_b_s: stage 1, partition 0 (group 0)
        m_s_162 = m_s_117 >= m_s_161  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_o_171_p1, b_s_l1 = warpgroup_mma_wait(0, deps=(b_o_171_p1, tok_b_s_l1,))
        b_s_163 = b_s_l1 + 1.0  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_164 = b_s_l1 * 0.5  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_165 = b_s_164 * b_s_l1  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_166 = b_s_163 + b_s_165  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_s_167 = gl.where(m_s_162, b_s_166, 0.0)  # elementwise4_b_s: stage 1, partition 0 (group 0)
        o_k_173 = o_k_173_p1 + 32  # elementwise4_b_s: stage 1, partition 0 (group 0)
        b_o_l1 = b_s_167.to(gl.float16)  # convert0_b_o: stage 1, partition 0 (group 0)
        b_o_170 = gl.convert_layout(b_o_l1, L13)  # convert0_b_o: stage 1, partition 0 (group 0)
        b_z_168_l1 = gl.sum(b_s_167, axis=1)  # reduce0_b_z: stage 1, partition 0 (group 0)
        b_z_169 = b_z_169_p1 + b_z_168_l1  # elementwise5_b_z: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_v_159 = b_v_159_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load1_b_v: stage 1, partition 0 (group 0)
        tok_b_o_171 = warpgroup_mma(b_o_170, b_v_159, b_o_171_p1, is_async=True)  # dot1_b_o: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_o_171 = warpgroup_mma_wait(1, deps=(tok_b_o_171,))
        b_o_171_p1 = b_o_171
        b_z_169_p1 = b_z_169
        o_k_173_p1 = o_k_173
        p_k_172_p2 = p_k_172_p1
        p_k_172_p1 = p_k_172
        b_o_171_p1 = warpgroup_mma_wait(0, deps=(b_o_171_p1,))
        b_k_145_st._keep_alive()
        b_v_159_ring._keep_alive()
    else:
        p_k_172_p2 = p_q_24
        b_o_171_p1 = b_o_164_p1
        b_z_169_p1 = b_z_162_p1
        o_k_173_p1 = o_k_96
    p_o = v0 * 128
    p_o_120 = v2 + p_o
    p_o_121 = p_o_120 * T
    p_o_122 = p_o_121 * 128
    p_o_123 = o + p_o_122
    p_z = z + p_o_121
    p_z_124 = p_z + p_q_21
    p_z_126 = p_z_124 + b_q_34
    v6 = b_q_42 * 128
    v7 = v6.broadcast_to([128, 128])
    v8 = gl.expand_dims(b_q_38, 0)
    v9 = v8.broadcast_to([128, 128])
    v10 = v7 + v9
    v11 = p_o_123 + v10
    v12 = b_q_64.broadcast_to([128, 128])
    v13 = v8 >= 0
    v14 = v8 < 128
    v15 = v13 & v14
    v16 = v15.broadcast_to([128, 128])
    v17 = v12 & v16
    v18 = gl.convert_layout(b_o_171_p1, L15)
    gl.store(v11, v18, mask=v17)
    v20 = p_q_21 + b_q_34
    v22 = v20 < T
    v23 = gl.convert_layout(b_z_169_p1, L4)
    gl.store(p_z_126, v23, mask=v22)

@gluon.jit
def twill_kernel(q, k, v, o, z, scale, T, TWILL_COPY: gl.constexpr):
    b_k_142_st = gl.allocate_shared_memory(gl.float16, [2, 16, 32], gl.NVMMASharedLayout(swizzle_byte_width=32, element_bitwidth=16, rank=2, transposed=True))
    b_k_145_st = gl.allocate_shared_memory(gl.float16, [2, 16, 32], gl.NVMMASharedLayout(swizzle_byte_width=32, element_bitwidth=16, rank=2, transposed=True))
    consumer_0(q, k, v, o, z, scale, T, b_k_142_st, b_k_145_st, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'o', 'z', 'scale', 'T', 'B', 'H', 'K', 'V', 'BTL', 'BTS', 'BK', 'BV']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'o', 'z', 'scale', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'o', 'z', 'scale', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'B': 8, 'H': 16, 'K': 16, 'V': 128, 'BTL': 128, 'BTS': 32, 'BK': 16, 'BV': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['v']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
