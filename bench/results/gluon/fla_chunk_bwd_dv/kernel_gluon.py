"""chunk_bwd_kernel_dv, written by twill from its joint schedule: I=115 L=115 (optimal), 4912 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (b_k_175_ring: 3 x 16384 B, issued 1 iteration(s) ahead, b_dh_182_ring: 3 x 32768 B, issued 1 iteration(s) ahead, b_q_170_ring: 3 x 16384 B, issued 1 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 1 stage(s) ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 203 per thread)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 196624 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, g, g_gamma, do, dv, dh, cu_seqlens, chunk_indices, scale, T, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        v0 = twill_pid0
        v1 = twill_pid1
        v2 = gl.cast(v1, gl.int64)
        v3 = twill_pid2
        v4 = gl.cast(v3, gl.int64)
        v5 = v4 // 4
        v6 = v4 % 4
        NT_18 = T + 63
        NT_19 = NT_18 // 64
        i_tg = gl.cast(NT_19, gl.int64)
        i_tg_20 = v5 * i_tg
        i_tg_21 = i_tg_20 + v2
        v7 = gl.cast(T, gl.int64)
        v8 = v5 * v7
        q_22 = v8 * 2
        q_23 = v6 // 2
        q_24 = q_22 + q_23
        q_25 = q_24 * 256
        q_26 = q + q_25
        k_27 = k + q_25
        do_28 = v8 * 4
        do_29 = do_28 + v6
        do_30 = do_29 * 128
        do_31 = do + do_30
        dv_32 = dv + do_30
        dh_33 = i_tg_21 * 4
        dh_34 = dh_33 + v6
        dh_35 = dh_34 * 32768
        dh_36 = dh + dh_35
        o_t = v2 * 64
        o_t_37 = gl.arange(0, 64, layout=L0)
        o_t_38 = gl.arange(0, 64, layout=L1)
        o_t_39 = gl.arange(0, 64, layout=L2)
        o_t_40 = gl.arange(0, 64, layout=L3)
        o_t_41 = gl.arange(0, 64, layout=L4)
        o_t_42 = o_t_37.to(gl.int64)
        o_t_43 = o_t_38.to(gl.int64)
        o_t_44 = o_t_39.to(gl.int64)
        o_t_45 = o_t_40.to(gl.int64)
        o_t_46 = o_t_41.to(gl.int64)
        o_t_52 = o_t + o_t_42
        o_t_53 = o_t + o_t_43
        o_t_54 = o_t + o_t_44
        o_t_55 = o_t + o_t_45
        o_t_56 = o_t + o_t_46
        m_t_61 = o_t_55 < v7
        m_t_62 = o_t_56 < v7
        m_t_63 = o_t_52 < v7
        m_t_64 = o_t_53 < v7
        m_t_65 = o_t_54 < v7
        o_v = v0 * 128
        o_v_66 = gl.arange(0, 128, layout=L5)
        o_v_67 = gl.arange(0, 128, layout=L6)
        o_v_68 = gl.arange(0, 128, layout=L0)
        o_v_71 = o_v + o_v_68
        o_v_72 = o_v + o_v_66
        p_k = gl.expand_dims(o_t_52, 1)
        p_k_73 = p_k * 512
        p_k_75 = k_27 + p_k_73
        p_k_76 = p_k_75.broadcast_to([64, 128])
        p_q_77 = gl.expand_dims(o_t_55, 0)
        p_q_78 = p_q_77 * 512
        p_q_79 = p_q_78.broadcast_to([128, 64])
        b_q = gl.expand_dims(m_t_61, 0)
        b_q_80 = b_q.broadcast_to([128, 64])
        b_k = gl.expand_dims(m_t_63, 1)
        b_k_81 = b_k.broadcast_to([64, 128])
        p_dh = gl.expand_dims(o_v_71, 1)
        p_dh_82 = p_dh * 256
        p_dh_84 = dh_36 + p_dh_82
        p_dh_85 = p_dh_84.broadcast_to([128, 128])
        b_dh = p_dh < 128
        b_dh_86 = b_dh.broadcast_to([128, 128])
        twill_n = (2 - 0 + 1 - 1) // 1
        b_k_175_ring = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        b_dh_182_ring = gl.allocate_shared_memory(gl.bfloat16, [3, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        b_q_170_ring = gl.allocate_shared_memory(gl.bfloat16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        b_dv_184 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
        b_A_176 = gl.full([64, 64], 0.0, gl.float32, layout=L8)
        o_k = (0 + (0 - 0) * 1) * 128  # elementwise0_b_k: stage 0, partition 0 (group 0)
        o_k_154 = o_k  # elementwise0_b_k: stage 0, partition 0 (group 0)
        o_k_156 = o_k_154 + o_v_66  # elementwise0_b_k: stage 0, partition 0 (group 0)
        m_k_158 = o_k_156 < 256  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_171 = gl.expand_dims(m_k_158, 0)  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_172 = b_k_171.broadcast_to([64, 128])  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_173 = b_k_81 & b_k_172  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_dh_179 = b_k_171.broadcast_to([128, 128])  # elementwise2_b_dh: stage 0, partition 0 (group 0)
        b_dh_180 = b_dh_86 & b_dh_179  # elementwise2_b_dh: stage 0, partition 0 (group 0)
        o_k_155 = o_k  # elementwise1_b_q: stage 0, partition 0 (group 0)
        o_k_157 = o_k_155 + o_v_67  # elementwise1_b_q: stage 0, partition 0 (group 0)
        m_k = o_k_157 < 256  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_166 = gl.expand_dims(m_k, 1)  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_167 = b_q_166.broadcast_to([128, 64])  # elementwise1_b_q: stage 0, partition 0 (group 0)
        b_q_168 = b_q_167 & b_q_80  # elementwise1_b_q: stage 0, partition 0 (group 0)
        p_k_159 = gl.expand_dims(o_k_156, 0)  # load0_b_k: stage 0, partition 0 (group 0)
        p_k_160 = p_k_159.broadcast_to([64, 128])  # load0_b_k: stage 0, partition 0 (group 0)
        p_k_161 = p_k_76 + p_k_160  # load0_b_k: stage 0, partition 0 (group 0)
        p_dh_177 = p_k_159.broadcast_to([128, 128])  # load2_b_dh: stage 0, partition 0 (group 0)
        p_dh_178 = p_dh_85 + p_dh_177  # load2_b_dh: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_b_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_k_175_ring.index((twill_base + 0 - 0) % 3), p_k_161, mask=b_k_173)  # load0_b_k: stage 0, partition 0 (group 0)
        else:  # load0_b_k: stage 0, partition 0 (group 0)
            b_k_175_ring.index((twill_base + 0 - 0) % 3).store(gl.load(p_k_161, mask=b_k_173, other=0.0))  # load0_b_k: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_b_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_b_dh: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_dh_182_ring.index((twill_base + 0 - 0) % 3), p_dh_178, mask=b_dh_180)  # load2_b_dh: stage 0, partition 0 (group 0)
        else:  # load2_b_dh: stage 0, partition 0 (group 0)
            b_dh_182_ring.index((twill_base + 0 - 0) % 3).store(gl.load(p_dh_178, mask=b_dh_180, other=0.0))  # load2_b_dh: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_b_dh: stage 0, partition 0 (group 0)
        p_q_162 = gl.expand_dims(o_k_157, 1)  # load1_b_q: stage 0, partition 0 (group 0)
        p_q_163 = q_26 + p_q_162  # load1_b_q: stage 0, partition 0 (group 0)
        p_q_164 = p_q_163.broadcast_to([128, 64])  # load1_b_q: stage 0, partition 0 (group 0)
        p_q_165 = p_q_164 + p_q_79  # load1_b_q: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b_q: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_q_170_ring.index((twill_base + 0 - 0) % 3), p_q_165, mask=b_q_168)  # load1_b_q: stage 0, partition 0 (group 0)
        else:  # load1_b_q: stage 0, partition 0 (group 0)
            b_q_170_ring.index((twill_base + 0 - 0) % 3).store(gl.load(p_q_165, mask=b_q_168, other=0.0))  # load1_b_q: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b_q: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        b_A_176_p1 = b_A_176
        b_dv_184_p1 = b_dv_184
        for twill_b in range(1, twill_n):
            o_k = (0 + (twill_b - 0) * 1) * 128  # elementwise0_b_k: stage 0, partition 0 (group 0)
            o_k_154 = o_k  # elementwise0_b_k: stage 0, partition 0 (group 0)
            o_k_156 = o_k_154 + o_v_66  # elementwise0_b_k: stage 0, partition 0 (group 0)
            m_k_158 = o_k_156 < 256  # elementwise0_b_k: stage 0, partition 0 (group 0)
            b_k_171 = gl.expand_dims(m_k_158, 0)  # elementwise0_b_k: stage 0, partition 0 (group 0)
            b_k_172 = b_k_171.broadcast_to([64, 128])  # elementwise0_b_k: stage 0, partition 0 (group 0)
            b_k_173 = b_k_81 & b_k_172  # elementwise0_b_k: stage 0, partition 0 (group 0)
            b_dh_179 = b_k_171.broadcast_to([128, 128])  # elementwise2_b_dh: stage 0, partition 0 (group 0)
            b_dh_180 = b_dh_86 & b_dh_179  # elementwise2_b_dh: stage 0, partition 0 (group 0)
            o_k_155 = o_k  # elementwise1_b_q: stage 0, partition 0 (group 0)
            o_k_157 = o_k_155 + o_v_67  # elementwise1_b_q: stage 0, partition 0 (group 0)
            m_k = o_k_157 < 256  # elementwise1_b_q: stage 0, partition 0 (group 0)
            b_q_166 = gl.expand_dims(m_k, 1)  # elementwise1_b_q: stage 0, partition 0 (group 0)
            b_q_167 = b_q_166.broadcast_to([128, 64])  # elementwise1_b_q: stage 0, partition 0 (group 0)
            b_q_168 = b_q_167 & b_q_80  # elementwise1_b_q: stage 0, partition 0 (group 0)
            p_k_159 = gl.expand_dims(o_k_156, 0)  # load0_b_k: stage 0, partition 0 (group 0)
            p_k_160 = p_k_159.broadcast_to([64, 128])  # load0_b_k: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_k_175 = b_k_175_ring.index((twill_base + twill_b - 1) % 3)  # load0_b_k: stage 1, partition 0 (group 0)
            b_dh_182 = b_dh_182_ring.index((twill_base + twill_b - 1) % 3)  # load2_b_dh: stage 1, partition 0 (group 0)
            p_k_161 = p_k_76 + p_k_160  # load0_b_k: stage 0, partition 0 (group 0)
            p_dh_177 = p_k_159.broadcast_to([128, 128])  # load2_b_dh: stage 0, partition 0 (group 0)
            p_dh_178 = p_dh_85 + p_dh_177  # load2_b_dh: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_b_k: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_k_175_ring.index((twill_base + twill_b - 0) % 3), p_k_161, mask=b_k_173)  # load0_b_k: stage 0, partition 0 (group 0)
            else:  # load0_b_k: stage 0, partition 0 (group 0)
                b_k_175_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(p_k_161, mask=b_k_173, other=0.0))  # load0_b_k: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_b_k: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_b_dh: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_dh_182_ring.index((twill_base + twill_b - 0) % 3), p_dh_178, mask=b_dh_180)  # load2_b_dh: stage 0, partition 0 (group 0)
            else:  # load2_b_dh: stage 0, partition 0 (group 0)
                b_dh_182_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(p_dh_178, mask=b_dh_180, other=0.0))  # load2_b_dh: stage 0, partition 0 (group 0)
                fence_async_shared()  # load2_b_dh: stage 0, partition 0 (group 0)
            b_dh_183 = b_dh_182.permute((1, 0))  # load2_b_dh: stage 1, partition 0 (group 0)
            tok_b_dv_184 = warpgroup_mma(b_k_175, b_dh_183, b_dv_184_p1, is_async=True)  # dot1_b_dv: stage 1, partition 0 (group 0)
            p_q_162 = gl.expand_dims(o_k_157, 1)  # load1_b_q: stage 0, partition 0 (group 0)
            p_q_163 = q_26 + p_q_162  # load1_b_q: stage 0, partition 0 (group 0)
            b_q_170 = b_q_170_ring.index((twill_base + twill_b - 1) % 3)  # load1_b_q: stage 1, partition 0 (group 0)
            p_q_164 = p_q_163.broadcast_to([128, 64])  # load1_b_q: stage 0, partition 0 (group 0)
            p_q_165 = p_q_164 + p_q_79  # load1_b_q: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b_q: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_q_170_ring.index((twill_base + twill_b - 0) % 3), p_q_165, mask=b_q_168)  # load1_b_q: stage 0, partition 0 (group 0)
            else:  # load1_b_q: stage 0, partition 0 (group 0)
                b_q_170_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(p_q_165, mask=b_q_168, other=0.0))  # load1_b_q: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b_q: stage 0, partition 0 (group 0)
            tok_b_A_176 = warpgroup_mma(b_k_175, b_q_170, b_A_176_p1, is_async=True)  # dot0_b_A: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(2, deps=(tok_b_dv_184,))
            b_dv_184, b_A_176 = warpgroup_mma_wait(2, deps=(tok_b_dv_184, tok_b_A_176,))
            b_A_176_p1 = b_A_176
            b_dv_184_p1 = b_dv_184
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_k_175 = b_k_175_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load0_b_k: stage 1, partition 0 (group 0)
        b_dh_182 = b_dh_182_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load2_b_dh: stage 1, partition 0 (group 0)
        b_dh_183 = b_dh_182.permute((1, 0))  # load2_b_dh: stage 1, partition 0 (group 0)
        tok_b_dv_184 = warpgroup_mma(b_k_175, b_dh_183, b_dv_184_p1, is_async=True)  # dot1_b_dv: stage 1, partition 0 (group 0)
        b_q_170 = b_q_170_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load1_b_q: stage 1, partition 0 (group 0)
        tok_b_A_176 = warpgroup_mma(b_k_175, b_q_170, b_A_176_p1, is_async=True)  # dot0_b_A: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(2, deps=(tok_b_dv_184,))
        b_dv_184, b_A_176 = warpgroup_mma_wait(2, deps=(tok_b_dv_184, tok_b_A_176,))
        b_A_176_p1 = b_A_176
        b_dv_184_p1 = b_dv_184
        b_dv_184_p1, b_A_176_p1 = warpgroup_mma_wait(0, deps=(b_dv_184_p1, b_A_176_p1,))
        b_k_175_ring._keep_alive()
        b_dh_182_ring._keep_alive()
        b_q_170_ring._keep_alive()
        g_87 = g + do_29
        p_g_88 = o_t_56 * 4
        p_g_89 = o_t_53 * 4
        p_g_90 = o_t_54 * 4
        p_g_94 = g_87 + p_g_88
        p_g_95 = g_87 + p_g_89
        p_g_96 = g_87 + p_g_90
        b_g = gl.load(p_g_94, mask=m_t_62, other=0.0)
        b_g_97 = gl.load(p_g_95, mask=m_t_64, other=0.0)
        b_g_98 = gl.load(p_g_96, mask=m_t_65, other=0.0)
        b_g_last_99 = o_t + 64
        b_g_last_100 = gl.minimum(b_g_last_99, v7)
        b_g_last_101 = b_g_last_100 - 1
        b_g_last_102 = b_g_last_101 * 4
        b_g_last_103 = do_29 + b_g_last_102
        b_g_last_104 = g + b_g_last_103
        b_g_last_105 = gl.load(b_g_last_104)
        m_A = gl.expand_dims(o_t_53, 1)
        m_A_106 = gl.expand_dims(o_t_52, 1)
        m_A_107 = gl.expand_dims(o_t_56, 0)
        m_A_108 = m_A.broadcast_to([64, 64])
        m_A_109 = m_A_107.broadcast_to([64, 64])
        m_A_110 = m_A_108 <= m_A_109
        m_A_111 = gl.expand_dims(m_t_64, 1)
        m_A_112 = gl.expand_dims(m_t_63, 1)
        m_A_113 = gl.expand_dims(m_t_62, 0)
        m_A_114 = m_A_111.broadcast_to([64, 64])
        m_A_115 = m_A_113.broadcast_to([64, 64])
        m_A_116 = m_A_114 & m_A_115
        m_A_117 = m_A_110 & m_A_116
        b_A_118 = gl.expand_dims(b_g, 0)
        b_A_119 = gl.expand_dims(b_g_97, 1)
        b_A_120 = b_A_118.broadcast_to([64, 64])
        b_A_121 = b_A_119.broadcast_to([64, 64])
        b_A_122 = b_A_120 - b_A_121
        b_A_123 = gl.exp2(b_A_122)
        b_A_124 = b_A_176_p1 * b_A_123
        b_A_126 = b_A_124 * scale
        b_A_127 = gl.where(m_A_117, b_A_126, 0.0)
        b_A_128 = b_A_127.to(gl.bfloat16)
        b_dv = 0.0 - b_g_98
        b_dv_130 = b_dv + b_g_last_105
        b_dv_131 = gl.exp2(b_dv_130)
        b_dv_132 = gl.where(m_t_65, b_dv_131, 0.0)
        b_dv_133 = gl.expand_dims(b_dv_132, 1)
        b_dv_134 = b_dv_133.broadcast_to([64, 128])
        b_dv_135 = b_dv_184_p1 * b_dv_134
        p_do = m_A_106 * 512
        p_do_137 = do_31 + p_do
        p_do_138 = gl.expand_dims(o_v_72, 0)
        p_do_139 = p_do_137.broadcast_to([64, 128])
        p_do_140 = p_do_138.broadcast_to([64, 128])
        p_do_141 = p_do_139 + p_do_140
        p_dv_142 = dv_32 + p_do
        p_dv_143 = p_dv_142.broadcast_to([64, 128])
        p_dv_144 = p_dv_143 + p_do_140
        b_do = o_v_72 < 128
        b_do_145 = gl.expand_dims(b_do, 0)
        b_do_146 = m_A_112.broadcast_to([64, 128])
        b_do_147 = b_do_145.broadcast_to([64, 128])
        b_do_148 = b_do_146 & b_do_147
        b_do_149 = gl.load(p_do_141, mask=b_do_148, other=0.0)
        b_do_150 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_do_149)
        fence_async_shared()
        b_A_151 = gl.convert_layout(b_A_128, L9)
        b_dv_152 = warpgroup_mma(b_A_151, b_do_150, b_dv_135)
        v9 = b_dv_152.to(gl.bfloat16)
        v10 = gl.convert_layout(v9, L10)
        gl.store(p_dv_144, v10, mask=b_do_148)
        twill_base += twill_n

@gluon.jit
def twill_kernel(q, k, g, g_gamma, do, dv, dh, cu_seqlens, chunk_indices, scale, T, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    consumer_0(q, k, g, g_gamma, do, dv, dh, cu_seqlens, chunk_indices, scale, T, twill_g0, twill_g1, twill_g2, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'g', 'g_gamma', 'do', 'dv', 'dh', 'cu_seqlens', 'chunk_indices', 'scale', 'T', 'H', 'HV', 'K', 'V', 'BT', 'BK', 'BV', 'USE_G', 'USE_G_GAMMA', 'IS_VARLEN', 'STATE_V_FIRST']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'g', 'g_gamma', 'do', 'dv', 'dh', 'cu_seqlens', 'chunk_indices', 'scale', 'T', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'g', 'g_gamma', 'do', 'dv', 'dh', 'cu_seqlens', 'chunk_indices', 'scale', 'T', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'H': 2, 'HV': 4, 'K': 256, 'V': 128, 'BT': 64, 'BK': 128, 'BV': 128, 'USE_G': True, 'USE_G_GAMMA': False, 'IS_VARLEN': False, 'STATE_V_FIRST': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['q', 'k', 'dh']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
