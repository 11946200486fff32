"""chunk_bwd_kernel_dqkwg, written by twill from its joint schedule: I=464 L=464 (optimal), 5157 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (b_do_199_ring: 3 x 8192 B, issued 1 iteration(s) ahead, b_v_196_ring: 3 x 8192 B, issued 1 iteration(s) ahead, b_dv_227_ring: 3 x 8192 B, issued 1 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 1 stage(s) ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 217 per thread)
- shared operand b_h_210_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand b_dk_223_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 106512 bytes planned of 232448; maxnreg unset (ptxas allocates)

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
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L10 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 8], [8, 0], [16, 0], [32, 0]], lane_bases=[[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[0, 16], [0, 32]], block_bases=[], shape=[64, 64]))

@gluon.jit
def consumer_0(q, k, v, h, g, do, dh, dq, dk, dg, w, dv, dw, scale, T, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = gl.program_id(2)
    v3 = v2 // 4
    v4 = v2 % 4
    dg_17 = v0 * 32
    dg_18 = dg_17 * T
    dg_19 = dg + dg_18
    NT_20 = T + 63
    NT_21 = NT_20 // 64
    i_tg = v3 * NT_21
    i_tg_22 = i_tg + v1
    v5 = v3 * T
    v_23 = v5 * 4
    v_24 = v_23 + v4
    v_25 = v_24 * 128
    v_26 = v + v_25
    do_27 = do + v_25
    h_28 = i_tg_22 * 4
    h_29 = h_28 + v4
    h_30 = gl.cast(h_29, gl.int64)
    h_31 = h_30 * 16384
    h_32 = h + h_31
    dh_33 = dh + h_31
    q_34 = q + v_25
    k_35 = k + v_25
    dq_36 = dq + v_25
    dk_37 = dk + v_25
    dw_38 = dw + v_25
    dv_39 = dv + v_25
    p_v = v1 * 64
    p_v_40 = gl.cast(T, gl.int64)
    p_v_41 = gl.cast(p_v, gl.int64)
    p_h = v0 * 64
    p_h_42 = gl.cast(p_h, gl.int64)
    b_v_44 = gl.arange(0, 64, layout=L0)
    b_v_45 = gl.arange(0, 64, layout=L1)
    b_v_46 = gl.arange(0, 64, layout=L2)
    b_v_47 = gl.arange(0, 64, layout=L3)
    b_v_48 = b_v_44.to(gl.int64)
    b_v_49 = b_v_45.to(gl.int64)
    b_v_50 = b_v_46.to(gl.int64)
    b_v_51 = b_v_47.to(gl.int64)
    b_v_52 = p_v_41 + b_v_48
    b_v_53 = gl.expand_dims(b_v_52, 1)
    b_v_54 = b_v_53 * 512
    b_v_55 = b_v_54.broadcast_to([64, 64])
    b_v_56 = b_v_53 >= 0
    b_v_58 = b_v_53 < p_v_40
    b_v_59 = b_v_56 & b_v_58
    b_v_60 = b_v_59.broadcast_to([64, 64])
    b_h_62 = p_h_42 + b_v_51
    b_h_63 = gl.expand_dims(b_h_62, 0)
    b_h_64 = b_h_63 * 128
    b_h_65 = b_h_64.broadcast_to([64, 64])
    b_h_66 = b_h_63 >= 0
    b_h_67 = b_h_63 < 128
    b_h_68 = b_h_66 & b_h_67
    b_h_69 = b_h_68.broadcast_to([64, 64])
    twill_n = (2 - 0 + 1 - 1) // 1
    b_do_199_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_v_196_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_dv_227_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_h_210_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    b_dk_223_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    b_dq_221 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    b_dk_224 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    b_ds_220 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    b_dg_last_218 = gl.full([1], 0.0, gl.float32, layout=L5)
    b_dw_228 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    p_v_180 = (0 + (0 - 0) * 1) * 64  # load0_b_v: stage 0, partition 0 (group 0)
    p_v_181 = gl.cast(p_v_180, gl.int64)  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_182 = p_v_181  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_184 = b_v_182 + b_v_50  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_186 = gl.expand_dims(b_v_184, 0)  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_190 = b_v_186 >= 0  # elementwise0_b_v: stage 0, partition 0 (group 0)
    b_v_191 = b_v_186 < 128  # elementwise0_b_v: stage 0, partition 0 (group 0)
    b_v_192 = b_v_190 & b_v_191  # elementwise0_b_v: stage 0, partition 0 (group 0)
    b_v_193 = b_v_192.broadcast_to([64, 64])  # elementwise1_b_v: stage 0, partition 0 (group 0)
    b_v_194 = b_v_60 & b_v_193  # elementwise1_b_v: stage 0, partition 0 (group 0)
    b_v_183 = p_v_181  # load1_b_h: stage 0, partition 0 (group 0)
    b_v_185 = b_v_183 + b_v_49  # load1_b_h: stage 0, partition 0 (group 0)
    b_h_200 = gl.expand_dims(b_v_185, 1)  # load1_b_h: stage 0, partition 0 (group 0)
    b_h_204 = b_h_200 >= 0  # elementwise2_b_h: stage 0, partition 0 (group 0)
    b_h_205 = b_h_200 < 128  # elementwise2_b_h: stage 0, partition 0 (group 0)
    b_h_206 = b_h_204 & b_h_205  # elementwise2_b_h: stage 0, partition 0 (group 0)
    b_h_207 = b_h_206.broadcast_to([64, 64])  # elementwise3_b_h: stage 0, partition 0 (group 0)
    b_h_208 = b_h_207 & b_h_69  # elementwise3_b_h: stage 0, partition 0 (group 0)
    b_h_201 = b_h_200.broadcast_to([64, 64])  # load1_b_h: stage 0, partition 0 (group 0)
    b_h_202 = b_h_201 + b_h_65  # load1_b_h: stage 0, partition 0 (group 0)
    b_h_203 = h_32 + b_h_202  # load1_b_h: stage 0, partition 0 (group 0)
    b_h_209 = gl.load(b_h_203, mask=b_h_208)  # load1_b_h: stage 0, partition 0 (group 0)
    b_v_187 = b_v_186.broadcast_to([64, 64])  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_188 = b_v_55 + b_v_187  # load0_b_v: stage 0, partition 0 (group 0)
    b_do_197 = do_27 + b_v_188  # load2_b_do: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load2_b_do: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_do_199_ring.index((0 - 0) % 3), b_do_197, mask=b_v_194)  # load2_b_do: stage 0, partition 0 (group 0)
    else:  # load2_b_do: stage 0, partition 0 (group 0)
        b_do_199_ring.index((0 - 0) % 3).store(gl.load(b_do_197, mask=b_v_194))  # load2_b_do: stage 0, partition 0 (group 0)
        fence_async_shared()  # load2_b_do: stage 0, partition 0 (group 0)
    b_dh_211 = dh_33 + b_h_202  # load3_b_dh: stage 0, partition 0 (group 0)
    b_dh_212 = gl.load(b_dh_211, mask=b_h_208)  # load3_b_dh: stage 0, partition 0 (group 0)
    b_v_189 = v_26 + b_v_188  # load0_b_v: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_b_v: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_v_196_ring.index((0 - 0) % 3), b_v_189, mask=b_v_194)  # load0_b_v: stage 0, partition 0 (group 0)
    else:  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_196_ring.index((0 - 0) % 3).store(gl.load(b_v_189, mask=b_v_194))  # load0_b_v: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_b_v: stage 0, partition 0 (group 0)
    b_dv_225 = dv_39 + b_v_188  # load4_b_dv: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load4_b_dv: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_dv_227_ring.index((0 - 0) % 3), b_dv_225, mask=b_v_194)  # load4_b_dv: stage 0, partition 0 (group 0)
    else:  # load4_b_dv: stage 0, partition 0 (group 0)
        b_dv_227_ring.index((0 - 0) % 3).store(gl.load(b_dv_225, mask=b_v_194))  # load4_b_dv: stage 0, partition 0 (group 0)
        fence_async_shared()  # load4_b_dv: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    b_dg_last_218_p1 = b_dg_last_218
    b_dh_212_p1 = b_dh_212
    b_dk_224_p1 = b_dk_224
    b_dq_221_p1 = b_dq_221
    b_ds_220_p1 = b_ds_220
    b_dw_228_p1 = b_dw_228
    b_h_209_p1 = b_h_209
    for twill_b in range(1, twill_n):
        p_v_180 = (0 + (twill_b - 0) * 1) * 64  # load0_b_v: stage 0, partition 0 (group 0)
        p_v_181 = gl.cast(p_v_180, gl.int64)  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_182 = p_v_181  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_184 = b_v_182 + b_v_50  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_186 = gl.expand_dims(b_v_184, 0)  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_190 = b_v_186 >= 0  # elementwise0_b_v: stage 0, partition 0 (group 0)
        b_v_191 = b_v_186 < 128  # elementwise0_b_v: stage 0, partition 0 (group 0)
        b_v_192 = b_v_190 & b_v_191  # elementwise0_b_v: stage 0, partition 0 (group 0)
        b_v_193 = b_v_192.broadcast_to([64, 64])  # elementwise1_b_v: stage 0, partition 0 (group 0)
        b_v_194 = b_v_60 & b_v_193  # elementwise1_b_v: stage 0, partition 0 (group 0)
        b_v_183 = p_v_181  # load1_b_h: stage 0, partition 0 (group 0)
        b_v_185 = b_v_183 + b_v_49  # load1_b_h: stage 0, partition 0 (group 0)
        b_h_200 = gl.expand_dims(b_v_185, 1)  # load1_b_h: stage 0, partition 0 (group 0)
        b_h_204 = b_h_200 >= 0  # elementwise2_b_h: stage 0, partition 0 (group 0)
        b_h_205 = b_h_200 < 128  # elementwise2_b_h: stage 0, partition 0 (group 0)
        b_h_206 = b_h_204 & b_h_205  # elementwise2_b_h: stage 0, partition 0 (group 0)
        b_h_207 = b_h_206.broadcast_to([64, 64])  # elementwise3_b_h: stage 0, partition 0 (group 0)
        b_h_208 = b_h_207 & b_h_69  # elementwise3_b_h: stage 0, partition 0 (group 0)
        b_h_201 = b_h_200.broadcast_to([64, 64])  # load1_b_h: stage 0, partition 0 (group 0)
        b_h_202 = b_h_201 + b_h_65  # load1_b_h: stage 0, partition 0 (group 0)
        b_h_203 = h_32 + b_h_202  # load1_b_h: stage 0, partition 0 (group 0)
        b_h_209 = gl.load(b_h_203, mask=b_h_208)  # load1_b_h: stage 0, partition 0 (group 0)
        b_dg_last_213 = b_h_209_p1.to(gl.float32)  # convert0_b_dg_last: stage 1, partition 0 (group 0)
        b_v_187 = b_v_186.broadcast_to([64, 64])  # load0_b_v: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_do_199 = b_do_199_ring.index((twill_b - 1) % 3)  # load2_b_do: stage 1, partition 0 (group 0)
        b_v_188 = b_v_55 + b_v_187  # load0_b_v: stage 0, partition 0 (group 0)
        b_do_197 = do_27 + b_v_188  # load2_b_do: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_b_do: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_do_199_ring.index((twill_b - 0) % 3), b_do_197, mask=b_v_194)  # load2_b_do: stage 0, partition 0 (group 0)
        else:  # load2_b_do: stage 0, partition 0 (group 0)
            b_do_199_ring.index((twill_b - 0) % 3).store(gl.load(b_do_197, mask=b_v_194))  # load2_b_do: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_b_do: stage 0, partition 0 (group 0)
        b_h_210 = b_h_210_st.index((twill_b - 1) % 2)  # load1_b_h: stage 1, partition 0 (group 0)
        b_h_210.store(b_h_209_p1)  # load1_b_h: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_b_h: stage 1, partition 0 (group 0)
        tok_b_dq_221 = warpgroup_mma(b_do_199, b_h_210, b_dq_221_p1, is_async=True)  # dot1_b_dq: stage 1, partition 0 (group 0)
        b_dh_211 = dh_33 + b_h_202  # load3_b_dh: stage 0, partition 0 (group 0)
        b_dh_212 = gl.load(b_dh_211, mask=b_h_208)  # load3_b_dh: stage 0, partition 0 (group 0)
        b_dk_222 = b_dh_212_p1.to(gl.float16)  # convert1_b_dk: stage 1, partition 0 (group 0)
        b_dk_223 = b_dk_223_st.index((twill_b - 1) % 2)  # local_store0_b_dk: stage 1, partition 0 (group 0)
        b_dk_223.store(b_dk_222)  # local_store0_b_dk: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b_dk: stage 1, partition 0 (group 0)
        b_dg_last_214 = b_dg_last_213 * b_dh_212_p1  # elementwise4_b_dg_last: stage 1, partition 0 (group 0)
        b_dg_last_215 = gl.convert_layout(gl.reshape(b_dg_last_214, [4096]), L5)  # reduce0_b_dg_last: stage 1, partition 0 (group 0)
        b_dg_last_216 = gl.sum(b_dg_last_215, axis=0)  # reduce0_b_dg_last: stage 1, partition 0 (group 0)
        b_dg_last_217 = b_dg_last_216  # elementwise5_b_dg_last: stage 1, partition 0 (group 0)
        b_dg_last_218 = b_dg_last_218_p1 + b_dg_last_217  # elementwise5_b_dg_last: stage 1, partition 0 (group 0)
        b_v_196 = b_v_196_ring.index((twill_b - 1) % 3)  # load0_b_v: stage 1, partition 0 (group 0)
        b_v_189 = v_26 + b_v_188  # load0_b_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_b_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_v_196_ring.index((twill_b - 0) % 3), b_v_189, mask=b_v_194)  # load0_b_v: stage 0, partition 0 (group 0)
        else:  # load0_b_v: stage 0, partition 0 (group 0)
            b_v_196_ring.index((twill_b - 0) % 3).store(gl.load(b_v_189, mask=b_v_194))  # load0_b_v: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_b_v: stage 0, partition 0 (group 0)
        tok_b_dk_224 = warpgroup_mma(b_v_196, b_dk_223, b_dk_224_p1, is_async=True)  # dot2_b_dk: stage 1, partition 0 (group 0)
        b_ds_219 = b_v_196.permute((1, 0))  # load0_b_v: stage 1, partition 0 (group 0)
        tok_b_ds_220 = warpgroup_mma(b_do_199, b_ds_219, b_ds_220_p1, is_async=True)  # dot0_b_ds: stage 1, partition 0 (group 0)
        b_dv_227 = b_dv_227_ring.index((twill_b - 1) % 3)  # load4_b_dv: stage 1, partition 0 (group 0)
        b_dv_225 = dv_39 + b_v_188  # load4_b_dv: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load4_b_dv: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_dv_227_ring.index((twill_b - 0) % 3), b_dv_225, mask=b_v_194)  # load4_b_dv: stage 0, partition 0 (group 0)
        else:  # load4_b_dv: stage 0, partition 0 (group 0)
            b_dv_227_ring.index((twill_b - 0) % 3).store(gl.load(b_dv_225, mask=b_v_194))  # load4_b_dv: stage 0, partition 0 (group 0)
            fence_async_shared()  # load4_b_dv: stage 0, partition 0 (group 0)
        tok_b_dw_228 = warpgroup_mma(b_dv_227, b_h_210, b_dw_228_p1, is_async=True)  # dot3_b_dw: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(4, deps=(tok_b_dq_221,))
        b_dq_221, b_dk_224, b_ds_220, b_dw_228 = warpgroup_mma_wait(4, deps=(tok_b_dq_221, tok_b_dk_224, tok_b_ds_220, tok_b_dw_228,))
        b_dg_last_218_p1 = b_dg_last_218
        b_dh_212_p1 = b_dh_212
        b_dk_224_p1 = b_dk_224
        b_dq_221_p1 = b_dq_221
        b_ds_220_p1 = b_ds_220
        b_dw_228_p1 = b_dw_228
        b_h_209_p1 = b_h_209
    b_dg_last_213 = b_h_209_p1.to(gl.float32)  # convert0_b_dg_last: stage 1, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    b_do_199 = b_do_199_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load2_b_do: stage 1, partition 0 (group 0)
    b_h_210 = b_h_210_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_b_h: stage 1, partition 0 (group 0)
    b_h_210.store(b_h_209_p1)  # load1_b_h: stage 1, partition 0 (group 0)
    fence_async_shared()  # load1_b_h: stage 1, partition 0 (group 0)
    tok_b_dq_221 = warpgroup_mma(b_do_199, b_h_210, b_dq_221_p1, is_async=True)  # dot1_b_dq: stage 1, partition 0 (group 0)
    b_dk_222 = b_dh_212_p1.to(gl.float16)  # convert1_b_dk: stage 1, partition 0 (group 0)
    b_dk_223 = b_dk_223_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b_dk: stage 1, partition 0 (group 0)
    b_dk_223.store(b_dk_222)  # local_store0_b_dk: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_b_dk: stage 1, partition 0 (group 0)
    b_dg_last_214 = b_dg_last_213 * b_dh_212_p1  # elementwise4_b_dg_last: stage 1, partition 0 (group 0)
    b_dg_last_215 = gl.convert_layout(gl.reshape(b_dg_last_214, [4096]), L5)  # reduce0_b_dg_last: stage 1, partition 0 (group 0)
    b_dg_last_216 = gl.sum(b_dg_last_215, axis=0)  # reduce0_b_dg_last: stage 1, partition 0 (group 0)
    b_dg_last_217 = b_dg_last_216  # elementwise5_b_dg_last: stage 1, partition 0 (group 0)
    b_dg_last_218 = b_dg_last_218_p1 + b_dg_last_217  # elementwise5_b_dg_last: stage 1, partition 0 (group 0)
    b_v_196 = b_v_196_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load0_b_v: stage 1, partition 0 (group 0)
    tok_b_dk_224 = warpgroup_mma(b_v_196, b_dk_223, b_dk_224_p1, is_async=True)  # dot2_b_dk: stage 1, partition 0 (group 0)
    b_ds_219 = b_v_196.permute((1, 0))  # load0_b_v: stage 1, partition 0 (group 0)
    tok_b_ds_220 = warpgroup_mma(b_do_199, b_ds_219, b_ds_220_p1, is_async=True)  # dot0_b_ds: stage 1, partition 0 (group 0)
    b_dv_227 = b_dv_227_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load4_b_dv: stage 1, partition 0 (group 0)
    tok_b_dw_228 = warpgroup_mma(b_dv_227, b_h_210, b_dw_228_p1, is_async=True)  # dot3_b_dw: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    warpgroup_mma_wait(4, deps=(tok_b_dq_221,))
    b_dq_221, b_dk_224, b_ds_220, b_dw_228 = warpgroup_mma_wait(4, deps=(tok_b_dq_221, tok_b_dk_224, tok_b_ds_220, tok_b_dw_228,))
    b_dg_last_218_p1 = b_dg_last_218
    b_dh_212_p1 = b_dh_212
    b_dk_224_p1 = b_dk_224
    b_dq_221_p1 = b_dq_221
    b_ds_220_p1 = b_ds_220
    b_dw_228_p1 = b_dw_228
    b_h_209_p1 = b_h_209
    b_dq_221_p1, b_dk_224_p1, b_ds_220_p1, b_dw_228_p1 = warpgroup_mma_wait(0, deps=(b_dq_221_p1, b_dk_224_p1, b_ds_220_p1, b_dw_228_p1,))
    b_do_199_ring._keep_alive()
    b_h_210_st._keep_alive()
    b_v_196_ring._keep_alive()
    b_dk_223_st._keep_alive()
    b_dv_227_ring._keep_alive()
    p_dw = v1 * 64
    p_dw_70 = v0 * 64
    p_dw_71 = gl.cast(T, gl.int64)
    p_dw_72 = gl.cast(p_dw, gl.int64)
    p_dw_73 = gl.cast(p_dw_70, gl.int64)
    v6 = b_dw_228_p1.to(gl.float16)
    v7 = 0.0 - v6
    v13 = gl.arange(0, 64, layout=L0)
    v14 = gl.arange(0, 64, layout=L6)
    v15 = gl.arange(0, 64, layout=L2)
    v16 = gl.arange(0, 64, layout=L7)
    v17 = gl.arange(0, 64, layout=L5)
    v18 = v13.to(gl.int64)
    v19 = v14.to(gl.int64)
    v20 = v15.to(gl.int64)
    v21 = v16.to(gl.int64)
    v22 = v17.to(gl.int64)
    v23 = p_dw_72 + v18
    v24 = p_dw_72 + v19
    v25 = p_dw_72 + v21
    v26 = p_dw_72 + v22
    v27 = gl.expand_dims(v23, 1)
    v28 = v27 * 512
    v29 = v28.broadcast_to([64, 64])
    v31 = p_dw_73 + v20
    v32 = gl.expand_dims(v31, 0)
    v33 = v32.broadcast_to([64, 64])
    v34 = v29 + v33
    v35 = dw_38 + v34
    v36 = v27 >= 0
    v38 = v27 < p_dw_71
    v39 = v36 & v38
    v40 = v39.broadcast_to([64, 64])
    v41 = v32 >= 0
    v42 = v32 < 128
    v43 = v41 & v42
    v44 = v43.broadcast_to([64, 64])
    v45 = v40 & v44
    v46 = gl.convert_layout(v7, L8)
    gl.store(v35, v46, mask=v45)
    gl.thread_barrier()
    b_q_74 = q_34 + v34
    b_q_75 = gl.load(b_q_74, mask=v45)
    b_q_76 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_q_75)
    fence_async_shared()
    b_k_77 = k_35 + v34
    b_k_78 = gl.load(b_k_77, mask=v45)
    b_k_79 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_k_78)
    fence_async_shared()
    o_t_81 = p_dw + v14
    o_t_82 = p_dw + v16
    m_t_84 = o_t_81 < T
    m_t_85 = o_t_82 < T
    m_A = gl.expand_dims(o_t_81, 1)
    m_A_86 = gl.expand_dims(o_t_82, 0)
    m_A_87 = m_A.broadcast_to([64, 64])
    m_A_88 = m_A_86.broadcast_to([64, 64])
    m_A_89 = m_A_87 >= m_A_88
    m_A_90 = gl.expand_dims(m_t_84, 1)
    m_A_91 = gl.expand_dims(m_t_85, 0)
    m_A_92 = m_A_90.broadcast_to([64, 64])
    m_A_93 = m_A_91.broadcast_to([64, 64])
    m_A_94 = m_A_92 & m_A_93
    m_A_95 = m_A_89 & m_A_94
    g_96 = g + v_24
    dg_97 = dg_19 + v_24
    b_g_99 = v24 * 4
    b_g_100 = v25 * 4
    b_g_101 = v26 * 4
    b_g_102 = g_96 + b_g_99
    b_g_103 = g_96 + b_g_100
    b_g_104 = v24 >= 0
    b_g_105 = v25 >= 0
    b_g_106 = v26 >= 0
    b_g_110 = v24 < p_dw_71
    b_g_111 = v25 < p_dw_71
    b_g_112 = v26 < p_dw_71
    b_g_113 = b_g_104 & b_g_110
    b_g_114 = b_g_105 & b_g_111
    b_g_115 = b_g_106 & b_g_112
    b_g_116 = gl.load(b_g_102, mask=b_g_113)
    b_g_117 = gl.load(b_g_103, mask=b_g_114)
    b_g_last = p_dw + 64
    b_g_last_118 = gl.minimum(b_g_last, T)
    b_g_last_119 = b_g_last_118 - 1
    b_g_last_120 = b_g_last_119 * 4
    b_g_last_121 = g_96 + b_g_last_120
    b_g_last_122 = gl.load(b_g_last_121)
    b_dg_last_123 = gl.exp(b_g_last_122)
    b_dg_last_125 = b_dg_last_218_p1 * b_dg_last_123
    b_dq = gl.exp(b_g_116)
    b_dq_126 = gl.expand_dims(b_dq, 1)
    b_dq_127 = b_dq_126.broadcast_to([64, 64])
    b_dq_128 = b_dq_221_p1 * b_dq_127
    b_dq_130 = b_dq_128 * scale
    b_dg = gl.convert_layout(b_q_75, L4)
    b_dg_131 = b_dg.to(gl.float32)
    b_dg_132 = b_dq_130 * b_dg_131
    b_dg_133 = gl.sum(b_dg_132, axis=1)
    b_dg_134 = b_dg_133 + 0.0
    b_dk = 0.0 - b_g_116
    b_dk_136 = b_dk + b_g_last_122
    b_dk_137 = gl.exp(b_dk_136)
    b_dk_138 = gl.where(m_t_84, b_dk_137, 0.0)
    b_dk_139 = gl.expand_dims(b_dk_138, 1)
    b_dk_140 = b_dk_139.broadcast_to([64, 64])
    b_dk_141 = b_dk_224_p1 * b_dk_140
    b_dg_142 = gl.convert_layout(b_k_78, L4)
    b_dg_143 = b_dg_142.to(gl.float32)
    b_dg_144 = b_dg_143 * b_dk_141
    b_dg_145 = gl.sum(b_dg_144, axis=1)
    b_dg_146 = b_dg_134 - b_dg_145
    b_dg_last_147 = gl.convert_layout(gl.reshape(b_dg_144, [4096]), L5)
    b_dg_last_148 = gl.sum(b_dg_last_147, axis=0)
    b_dg_last_150 = b_dg_last_125 + b_dg_last_148
    b_ds = gl.expand_dims(b_g_116, 1)
    b_ds_151 = gl.expand_dims(b_g_117, 0)
    b_ds_152 = b_ds.broadcast_to([64, 64])
    b_ds_153 = b_ds_151.broadcast_to([64, 64])
    b_ds_154 = b_ds_152 - b_ds_153
    b_ds_155 = gl.exp(b_ds_154)
    b_ds_156 = b_ds_220_p1 * b_ds_155
    b_ds_157 = gl.where(m_A_95, b_ds_156, 0.0)
    b_ds_158 = b_ds_157 * scale
    b_ds2_159 = warpgroup_mma(b_q_76, b_k_79.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L4))
    b_ds2_160 = b_ds_158 * b_ds2_159
    b_dg_161 = gl.sum(b_ds2_160, axis=1)
    b_dg_162 = b_dg_146 + b_dg_161
    b_dg_163 = gl.sum(b_ds2_160, axis=0)
    b_dg_164 = gl.convert_layout(b_dg_163, L6)
    b_dg_165 = b_dg_162 - b_dg_164
    b_ds_166 = b_ds_158.to(gl.float16)
    b_ds_167 = gl.convert_layout(b_ds_166, L9)
    b_dq_168 = warpgroup_mma(b_ds_167, b_k_79, b_dq_130)
    b_dk_169 = gl.convert_layout(gl.permute(b_ds_166, (1, 0)), L10)
    b_dk_170 = gl.convert_layout(b_dk_169, L9)
    b_dk_171 = warpgroup_mma(b_dk_170, b_q_76, b_dk_141)
    b_dg_173 = o_t_81 < b_g_last_119
    b_dg_174 = gl.convert_layout(b_dg_last_150, L6)
    b_dg_175 = b_dg_174.broadcast_to([64])
    b_dg_176 = b_dg_165 + b_dg_175
    b_dg_177 = gl.where(b_dg_173, b_dg_165, b_dg_176)
    v47 = b_dq_168.to(gl.float16)
    v49 = dq_36 + v34
    v50 = gl.convert_layout(v47, L8)
    gl.store(v49, v50, mask=v45)
    v51 = b_dk_171.to(gl.float16)
    v53 = dk_37 + v34
    v54 = gl.convert_layout(v51, L8)
    gl.store(v53, v54, mask=v45)
    v56 = dg_97 + b_g_101
    v57 = gl.convert_layout(b_dg_177, L5)
    gl.store(v56, v57, mask=b_g_115)

@gluon.jit
def twill_kernel(q, k, v, h, g, do, dh, dq, dk, dg, w, dv, dw, scale, T, TWILL_COPY: gl.constexpr):
    consumer_0(q, k, v, h, g, do, dh, dq, dk, dg, w, dv, dw, scale, T, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'h', 'g', 'do', 'dh', 'dq', 'dk', 'dg', 'w', 'dv', 'dw', 'cu_seqlens', 'chunk_indices', 'scale', 'B', 'T', 'H', 'K', 'V', 'BT', 'BK', 'BV', 'USE_G', 'USE_DW', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'h', 'g', 'do', 'dh', 'dq', 'dk', 'dg', 'w', 'dv', 'dw', 'scale', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'h', 'g', 'do', 'dh', 'dq', 'dk', 'dg', 'w', 'dv', 'dw', 'cu_seqlens', 'chunk_indices', 'scale', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'B': 8, 'H': 4, 'K': 128, 'V': 128, 'BT': 64, 'BK': 64, 'BV': 64, 'USE_G': True, 'USE_DW': True, 'IS_VARLEN': False}         # the specialisation this kernel was generated for
HEURISTICS = {'USE_G': "lambda args: args['g'] is not None", 'USE_DW': "lambda args: args['dw'] is not None", 'IS_VARLEN': "lambda args: args['cu_seqlens'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['v', 'do', 'dv']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
