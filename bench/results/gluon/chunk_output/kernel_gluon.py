"""chunk_fwd_kernel_o, written by twill from its joint schedule: I=640 L=640 (optimal), 2992 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (b_q_166_ring: 3 x 8192 B, issued 1 iteration(s) ahead, b_k_182_ring: 3 x 8192 B, issued 1 iteration(s) ahead, b_h_189_ring: 3 x 8192 B, issued 1 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 1 stage(s) ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 130 per thread)
- shared memory: 73744 bytes planned of 232448; maxnreg unset (ptxas allocates)

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, v, h, g, o, scale, T, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    NT_13 = T + 63
    NT_14 = NT_13 // 64
    i_tg = v3 * NT_14
    i_tg_15 = i_tg + v1
    bos = v3 * T
    q_16 = bos * 4
    q_17 = q_16 + v4
    q_18 = q_17 * 128
    q_19 = q + q_18
    k_20 = k + q_18
    v_21 = v + q_18
    o_22 = o + q_18
    h_23 = i_tg_15 * 4
    h_24 = h_23 + v4
    h_25 = gl.cast(h_24, gl.int64)
    h_26 = h_25 * 16384
    h_27 = h + h_26
    p_q = v1 * 64
    p_q_28 = gl.cast(T, gl.int64)
    p_q_29 = gl.cast(p_q, gl.int64)
    p_h = v0 * 64
    p_h_30 = gl.cast(p_h, gl.int64)
    b_q_33 = gl.arange(0, 64, layout=L0)
    b_q_34 = gl.arange(0, 64, layout=L1)
    b_q_35 = gl.arange(0, 64, layout=L2)
    b_q_36 = gl.arange(0, 64, layout=L3)
    b_q_37 = b_q_33.to(gl.int64)
    b_q_38 = b_q_34.to(gl.int64)
    b_q_39 = b_q_35.to(gl.int64)
    b_q_40 = b_q_36.to(gl.int64)
    b_q_41 = p_q_29 + b_q_37
    b_q_42 = p_q_29 + b_q_40
    b_q_43 = gl.expand_dims(b_q_41, 1)
    b_q_44 = b_q_43 * 512
    b_q_45 = b_q_44.broadcast_to([64, 64])
    b_q_46 = b_q_43 >= 0
    b_q_48 = b_q_43 < p_q_28
    b_q_49 = b_q_46 & b_q_48
    b_q_50 = b_q_49.broadcast_to([64, 64])
    b_k_51 = gl.expand_dims(b_q_42, 0)
    b_k_52 = b_k_51 * 512
    b_k_53 = b_k_52.broadcast_to([64, 64])
    b_k_54 = b_k_51 >= 0
    b_k_56 = b_k_51 < p_q_28
    b_k_57 = b_k_54 & b_k_56
    b_k_58 = b_k_57.broadcast_to([64, 64])
    b_h_60 = p_h_30 + b_q_39
    b_h_61 = gl.expand_dims(b_h_60, 0)
    b_h_62 = b_h_61.broadcast_to([64, 64])
    b_h_63 = b_h_61 >= 0
    b_h_64 = b_h_61 < 128
    b_h_65 = b_h_63 & b_h_64
    b_h_66 = b_h_65.broadcast_to([64, 64])
    twill_n = (2 - 0 + 1 - 1) // 1
    b_q_166_ring = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_k_182_ring = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    b_h_189_ring = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_o_190 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    b_A_191 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    p_q_148 = (0 + (0 - 0) * 1) * 64  # load0_b_q: stage 0, partition 0 (group 0)
    p_q_149 = gl.cast(p_q_148, gl.int64)  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_151 = p_q_149  # load1_b_k: stage 0, partition 0 (group 0)
    b_q_154 = b_q_151 + b_q_38  # load1_b_k: stage 0, partition 0 (group 0)
    b_k_167 = gl.expand_dims(b_q_154, 1)  # load1_b_k: stage 0, partition 0 (group 0)
    b_k_172 = b_k_167 >= 0  # elementwise3_b_k: stage 0, partition 0 (group 0)
    b_k_174 = b_k_167 < 128  # elementwise3_b_k: stage 0, partition 0 (group 0)
    b_k_176 = b_k_172 & b_k_174  # elementwise3_b_k: stage 0, partition 0 (group 0)
    b_k_178 = b_k_176.broadcast_to([64, 64])  # elementwise4_b_k: stage 0, partition 0 (group 0)
    b_k_180 = b_k_178 & b_k_58  # elementwise4_b_k: stage 0, partition 0 (group 0)
    b_q_150 = p_q_149  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_153 = b_q_150 + b_q_39  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_156 = gl.expand_dims(b_q_153, 0)  # load0_b_q: stage 0, partition 0 (group 0)
    b_q_160 = b_q_156 >= 0  # elementwise1_b_q: stage 0, partition 0 (group 0)
    b_q_161 = b_q_156 < 128  # elementwise1_b_q: stage 0, partition 0 (group 0)
    b_q_162 = b_q_160 & b_q_161  # elementwise1_b_q: stage 0, partition 0 (group 0)
    b_q_163 = b_q_162.broadcast_to([64, 64])  # elementwise2_b_q: stage 0, partition 0 (group 0)
    b_q_164 = b_q_50 & b_q_163  # elementwise2_b_q: stage 0, partition 0 (group 0)
    b_q_152 = p_q_149  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_q_155 = b_q_152 + b_q_37  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_168 = gl.expand_dims(b_q_155, 1)  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_173 = b_k_168 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_175 = b_k_168 < 128  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_177 = b_k_173 & b_k_175  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_179 = b_k_177.broadcast_to([64, 64])  # elementwise5_b_h: stage 0, partition 0 (group 0)
    b_h_187 = b_k_179 & b_h_66  # elementwise5_b_h: stage 0, partition 0 (group 0)
    b_q_157 = b_q_156.broadcast_to([64, 64])  # load0_b_q: stage 0, partition 0 (group 0)
    b_k_169 = b_k_167.broadcast_to([64, 64])  # load1_b_k: stage 0, partition 0 (group 0)
    b_q_158 = b_q_45 + b_q_157  # load0_b_q: stage 0, partition 0 (group 0)
    b_k_170 = b_k_169 + b_k_53  # load1_b_k: stage 0, partition 0 (group 0)
    b_q_159 = q_19 + b_q_158  # load0_b_q: stage 0, partition 0 (group 0)
    b_k_171 = k_20 + b_k_170  # load1_b_k: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_b_q: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_q_166_ring.index((0 - 0) % 3), b_q_159, mask=b_q_164)  # load0_b_q: stage 0, partition 0 (group 0)
    else:  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_166_ring.index((0 - 0) % 3).store(gl.load(b_q_159, mask=b_q_164))  # load0_b_q: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_b_q: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_b_k: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_k_182_ring.index((0 - 0) % 3), b_k_171, mask=b_k_180)  # load1_b_k: stage 0, partition 0 (group 0)
    else:  # load1_b_k: stage 0, partition 0 (group 0)
        b_k_182_ring.index((0 - 0) % 3).store(gl.load(b_k_171, mask=b_k_180))  # load1_b_k: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_b_k: stage 0, partition 0 (group 0)
    b_h_183 = b_k_168 * 128  # load2_b_h: stage 0, partition 0 (group 0)
    b_h_184 = b_h_183.broadcast_to([64, 64])  # load2_b_h: stage 0, partition 0 (group 0)
    b_h_185 = b_h_184 + b_h_62  # load2_b_h: stage 0, partition 0 (group 0)
    b_h_186 = h_27 + b_h_185  # load2_b_h: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load2_b_h: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_h_189_ring.index((0 - 0) % 3), b_h_186, mask=b_h_187)  # load2_b_h: stage 0, partition 0 (group 0)
    else:  # load2_b_h: stage 0, partition 0 (group 0)
        b_h_189_ring.index((0 - 0) % 3).store(gl.load(b_h_186, mask=b_h_187))  # load2_b_h: stage 0, partition 0 (group 0)
        fence_async_shared()  # load2_b_h: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    b_A_191_p1 = b_A_191
    b_o_190_p1 = b_o_190
    for twill_b in range(1, twill_n):
        p_q_148 = (0 + (twill_b - 0) * 1) * 64  # load0_b_q: stage 0, partition 0 (group 0)
        p_q_149 = gl.cast(p_q_148, gl.int64)  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_151 = p_q_149  # load1_b_k: stage 0, partition 0 (group 0)
        b_q_154 = b_q_151 + b_q_38  # load1_b_k: stage 0, partition 0 (group 0)
        b_k_167 = gl.expand_dims(b_q_154, 1)  # load1_b_k: stage 0, partition 0 (group 0)
        b_k_172 = b_k_167 >= 0  # elementwise3_b_k: stage 0, partition 0 (group 0)
        b_k_174 = b_k_167 < 128  # elementwise3_b_k: stage 0, partition 0 (group 0)
        b_k_176 = b_k_172 & b_k_174  # elementwise3_b_k: stage 0, partition 0 (group 0)
        b_k_178 = b_k_176.broadcast_to([64, 64])  # elementwise4_b_k: stage 0, partition 0 (group 0)
        b_k_180 = b_k_178 & b_k_58  # elementwise4_b_k: stage 0, partition 0 (group 0)
        b_q_150 = p_q_149  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_153 = b_q_150 + b_q_39  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_156 = gl.expand_dims(b_q_153, 0)  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_160 = b_q_156 >= 0  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_161 = b_q_156 < 128  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_162 = b_q_160 & b_q_161  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_163 = b_q_162.broadcast_to([64, 64])  # elementwise2_b_q: stage 0, partition 0 (group 0)
        b_q_164 = b_q_50 & b_q_163  # elementwise2_b_q: stage 0, partition 0 (group 0)
        b_q_152 = p_q_149  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_q_155 = b_q_152 + b_q_37  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_168 = gl.expand_dims(b_q_155, 1)  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_173 = b_k_168 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_175 = b_k_168 < 128  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_177 = b_k_173 & b_k_175  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_179 = b_k_177.broadcast_to([64, 64])  # elementwise5_b_h: stage 0, partition 0 (group 0)
        b_h_187 = b_k_179 & b_h_66  # elementwise5_b_h: stage 0, partition 0 (group 0)
        b_q_157 = b_q_156.broadcast_to([64, 64])  # load0_b_q: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_q_166 = b_q_166_ring.index((twill_b - 1) % 3)  # load0_b_q: stage 1, partition 0 (group 0)
        b_k_169 = b_k_167.broadcast_to([64, 64])  # load1_b_k: stage 0, partition 0 (group 0)
        b_q_158 = b_q_45 + b_q_157  # load0_b_q: stage 0, partition 0 (group 0)
        b_k_182 = b_k_182_ring.index((twill_b - 1) % 3)  # load1_b_k: stage 1, partition 0 (group 0)
        b_k_170 = b_k_169 + b_k_53  # load1_b_k: stage 0, partition 0 (group 0)
        b_q_159 = q_19 + b_q_158  # load0_b_q: stage 0, partition 0 (group 0)
        b_k_171 = k_20 + b_k_170  # load1_b_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_b_q: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_q_166_ring.index((twill_b - 0) % 3), b_q_159, mask=b_q_164)  # load0_b_q: stage 0, partition 0 (group 0)
        else:  # load0_b_q: stage 0, partition 0 (group 0)
            b_q_166_ring.index((twill_b - 0) % 3).store(gl.load(b_q_159, mask=b_q_164))  # load0_b_q: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_b_q: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_k_182_ring.index((twill_b - 0) % 3), b_k_171, mask=b_k_180)  # load1_b_k: stage 0, partition 0 (group 0)
        else:  # load1_b_k: stage 0, partition 0 (group 0)
            b_k_182_ring.index((twill_b - 0) % 3).store(gl.load(b_k_171, mask=b_k_180))  # load1_b_k: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b_k: stage 0, partition 0 (group 0)
        tok_b_A_191 = warpgroup_mma(b_q_166, b_k_182, b_A_191_p1, is_async=True)  # dot1_b_A: stage 1, partition 0 (group 0)
        b_h_189 = b_h_189_ring.index((twill_b - 1) % 3)  # load2_b_h: stage 1, partition 0 (group 0)
        b_h_183 = b_k_168 * 128  # load2_b_h: stage 0, partition 0 (group 0)
        b_h_184 = b_h_183.broadcast_to([64, 64])  # load2_b_h: stage 0, partition 0 (group 0)
        b_h_185 = b_h_184 + b_h_62  # load2_b_h: stage 0, partition 0 (group 0)
        b_h_186 = h_27 + b_h_185  # load2_b_h: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_b_h: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_h_189_ring.index((twill_b - 0) % 3), b_h_186, mask=b_h_187)  # load2_b_h: stage 0, partition 0 (group 0)
        else:  # load2_b_h: stage 0, partition 0 (group 0)
            b_h_189_ring.index((twill_b - 0) % 3).store(gl.load(b_h_186, mask=b_h_187))  # load2_b_h: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_b_h: stage 0, partition 0 (group 0)
        tok_b_o_190 = warpgroup_mma(b_q_166, b_h_189, b_o_190_p1, is_async=True)  # dot0_b_o: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(2, deps=(tok_b_A_191,))
        b_A_191, b_o_190 = warpgroup_mma_wait(2, deps=(tok_b_A_191, tok_b_o_190,))
        b_A_191_p1 = b_A_191
        b_o_190_p1 = b_o_190
    async_copy.wait_group(0)
    gl.thread_barrier()
    b_q_166 = b_q_166_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load0_b_q: stage 1, partition 0 (group 0)
    b_k_182 = b_k_182_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load1_b_k: stage 1, partition 0 (group 0)
    tok_b_A_191 = warpgroup_mma(b_q_166, b_k_182, b_A_191_p1, is_async=True)  # dot1_b_A: stage 1, partition 0 (group 0)
    b_h_189 = b_h_189_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load2_b_h: stage 1, partition 0 (group 0)
    tok_b_o_190 = warpgroup_mma(b_q_166, b_h_189, b_o_190_p1, is_async=True)  # dot0_b_o: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    warpgroup_mma_wait(2, deps=(tok_b_A_191,))
    b_A_191, b_o_190 = warpgroup_mma_wait(2, deps=(tok_b_A_191, tok_b_o_190,))
    b_A_191_p1 = b_A_191
    b_o_190_p1 = b_o_190
    b_A_191_p1, b_o_190_p1 = warpgroup_mma_wait(0, deps=(b_A_191_p1, b_o_190_p1,))
    b_q_166_ring._keep_alive()
    b_k_182_ring._keep_alive()
    b_h_189_ring._keep_alive()
    g_67 = g + q_17
    p_g = v1 * 64
    p_g_68 = gl.cast(T, gl.int64)
    p_g_69 = gl.cast(p_g, gl.int64)
    b_g_75 = gl.arange(0, 64, layout=L5)
    b_g_76 = gl.arange(0, 64, layout=L0)
    b_g_77 = gl.arange(0, 64, layout=L6)
    b_g_78 = gl.arange(0, 64, layout=L2)
    b_g_79 = b_g_75.to(gl.int64)
    b_g_80 = b_g_76.to(gl.int64)
    b_g_81 = b_g_77.to(gl.int64)
    b_g_82 = b_g_78.to(gl.int64)
    b_g_83 = p_g_69 + b_g_79
    b_g_84 = p_g_69 + b_g_80
    b_g_85 = p_g_69 + b_g_81
    b_g_86 = b_g_83 * 4
    b_g_87 = b_g_85 * 4
    b_g_88 = g_67 + b_g_86
    b_g_89 = g_67 + b_g_87
    b_g_90 = b_g_83 >= 0
    b_g_91 = b_g_85 >= 0
    b_g_94 = b_g_83 < p_g_68
    b_g_95 = b_g_85 < p_g_68
    b_g_96 = b_g_90 & b_g_94
    b_g_97 = b_g_91 & b_g_95
    b_g_98 = gl.load(b_g_88, mask=b_g_96)
    b_g_99 = gl.load(b_g_89, mask=b_g_97)
    b_o = gl.exp(b_g_98)
    b_o_100 = gl.expand_dims(b_o, 1)
    b_o_101 = b_o_100.broadcast_to([64, 64])
    b_o_102 = b_o_190_p1 * b_o_101
    b_A_103 = gl.expand_dims(b_g_98, 1)
    b_A_104 = gl.expand_dims(b_g_99, 0)
    b_A_105 = b_A_103.broadcast_to([64, 64])
    b_A_106 = b_A_104.broadcast_to([64, 64])
    b_A_107 = b_A_105 - b_A_106
    b_A_108 = gl.exp(b_A_107)
    b_A_109 = b_A_191_p1 * b_A_108
    o_t_111 = p_g + b_g_75
    o_t_112 = p_g + b_g_77
    m_A = gl.expand_dims(o_t_111, 1)
    m_A_113 = gl.expand_dims(o_t_112, 0)
    m_A_114 = m_A.broadcast_to([64, 64])
    m_A_115 = m_A_113.broadcast_to([64, 64])
    m_A_116 = m_A_114 >= m_A_115
    b_A_117 = gl.where(m_A_116, b_A_109, 0.0)
    p_v = v0 * 64
    p_v_118 = gl.cast(p_v, gl.int64)
    b_v_119 = gl.expand_dims(b_g_84, 1)
    b_v_120 = b_v_119 * 512
    b_v_121 = b_v_120.broadcast_to([64, 64])
    b_v_123 = p_v_118 + b_g_82
    b_v_124 = gl.expand_dims(b_v_123, 0)
    b_v_125 = b_v_124.broadcast_to([64, 64])
    b_v_126 = b_v_121 + b_v_125
    b_v_127 = v_21 + b_v_126
    b_v_128 = b_v_119 >= 0
    b_v_130 = b_v_119 < p_g_68
    b_v_131 = b_v_128 & b_v_130
    b_v_132 = b_v_131.broadcast_to([64, 64])
    b_v_133 = b_v_124 >= 0
    b_v_134 = b_v_124 < 128
    b_v_135 = b_v_133 & b_v_134
    b_v_136 = b_v_135.broadcast_to([64, 64])
    b_v_137 = b_v_132 & b_v_136
    b_v_138 = gl.load(b_v_127, mask=b_v_137)
    b_v_139 = gl.allocate_shared_memory(gl.bfloat16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_v_138)
    fence_async_shared()
    b_o_141 = b_o_102 * scale
    b_o_142 = b_A_117.to(gl.bfloat16)
    b_o_143 = gl.convert_layout(b_o_142, L7)
    b_o_144 = warpgroup_mma(b_o_143, b_v_139, gl.full([64, 64], 0.0, gl.float32, layout=L4))
    b_o_145 = b_o_144 * scale
    b_o_146 = b_o_141 + b_o_145
    v5 = b_o_146.to(gl.bfloat16)
    v7 = o_22 + b_v_126
    v8 = gl.convert_layout(v5, L8)
    gl.store(v7, v8, mask=b_v_137)

@gluon.jit
def twill_kernel(q, k, v, h, g, o, scale, T, TWILL_COPY: gl.constexpr):
    consumer_0(q, k, v, h, g, o, scale, T, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'h', 'g', 'o', 'scale', 'T', 'H', 'K', 'V', 'BT', 'BK', 'BV', 'USE_G']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'h', 'g', 'o', 'scale', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'h', 'g', 'o', 'scale', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'H': 4, 'K': 128, 'V': 128, 'BT': 64, 'BK': 64, 'BV': 64, 'USE_G': True}         # the specialisation this kernel was generated for
HEURISTICS = {'USE_G': "lambda args: args['g'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['q', 'k', 'h']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
