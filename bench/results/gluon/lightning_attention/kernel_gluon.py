"""_lightning_fwd, written by twill from its joint schedule: I=481 L=481 (optimal), 1184 cycles per iteration predicted.

Decisions (each from the schedule):
- q_59 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- v_70 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (q_59, v_70): their addresses and masks spread over 128 threads
- register-read pointer tiles copied by their consumer with cp.async (k_trans_67_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 168): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring q_59: 3 buffers of [64, 64] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring v_70: 3 buffers of [64, 64] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared operand o_inter_74_st: partition 0 stores the loop's [64, 64] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand k_trans_68_st: partition 0 stores the loop's [64, 64] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 98416 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 1 iteration(s) ahead, 106496 bytes of shared memory compiled, ptxas 225 registers, ptxas serialises the wgmmas (non wgmma instructions defining accumulator registers of a wgmma between start and end of the pipeline stage); simulated for 1, 2, 3, 8 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, Out, S, n, twill_g0, twill_g1, twill_g2, q_59_buf, v_70_buf, k_trans_67_as, o_inter_74_st, k_trans_68_st, q_59_ready, q_59_empty, v_70_ready, v_70_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        off_bh = twill_pid0
        off_h = off_bh % 8
        qk_offset = off_bh * n
        qk_offset_5 = qk_offset * 64
        slope = S + off_h
        slope_6 = gl.load(slope)
        Q_block_ptr_7 = gl.arange(0, 64, layout=L0)
        Q_block_ptr_8 = gl.arange(0, 64, layout=L1)
        Q_block_ptr_9 = gl.arange(0, 64, layout=L2)
        Q_block_ptr_10 = gl.arange(0, 64, layout=L3)
        Q_block_ptr_11 = gl.expand_dims(Q_block_ptr_9, 0)
        Q_block_ptr_12 = gl.expand_dims(Q_block_ptr_10, 0)
        Q_block_ptr_13 = gl.expand_dims(Q_block_ptr_8, 0)
        K_trans_block_ptr = K + qk_offset_5
        K_trans_block_ptr_16 = gl.arange(0, 64, layout=L4)
        K_trans_block_ptr_17 = gl.arange(0, 64, layout=L5)
        K_trans_block_ptr_18 = gl.expand_dims(K_trans_block_ptr_16, 1)
        K_trans_block_ptr_19 = gl.expand_dims(K_trans_block_ptr_17, 1)
        K_trans_block_ptr_21 = K_trans_block_ptr + K_trans_block_ptr_19
        O_block_ptr = Out + qk_offset_5
        O_block_ptr_25 = O_block_ptr + Q_block_ptr_12
        q_decay = 0.0 - slope_6
        q_decay_26 = K_trans_block_ptr_18.to(gl.float32)
        q_decay_28 = q_decay * q_decay_26
        q_decay_29 = gl.exp(q_decay_28)
        k_trans_decay = 64 - Q_block_ptr_13
        k_trans_decay_30 = k_trans_decay.to(gl.float32)
        k_trans_decay_32 = q_decay * k_trans_decay_30
        k_trans_decay_33 = gl.exp(k_trans_decay_32)
        block_decay_34 = q_decay * 64.0
        block_decay_35 = gl.exp(block_decay_34)
        index = K_trans_block_ptr_18.broadcast_to([64, 64])
        index_36 = Q_block_ptr_11.broadcast_to([64, 64])
        index_37 = index - index_36
        diag_decay_38 = index_37 >= 0
        diag_decay_39 = index_37.to(gl.float32)
        diag_decay_41 = q_decay * diag_decay_39
        diag_decay_42 = gl.exp(diag_decay_41)
        diag_decay_43 = gl.where(diag_decay_38, diag_decay_42, 0.0)
        k_trans_45 = K_trans_block_ptr_21.broadcast_to([64, 64])
        o_inter = q_decay_29.broadcast_to([64, 64])
        v0 = O_block_ptr_25.broadcast_to([64, 64])
        kv_46 = k_trans_decay_33.broadcast_to([64, 64])
        twill_n = (n - 0 + 64 - 1) // 64
        kv_84 = gl.full([64, 64], 0.0, gl.float32, layout=L6)
        q_52 = (0 + (0 - 0) * 64) + Q_block_ptr_8  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_61 = gl.expand_dims(q_52, 0)  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_63 = k_trans_61 * 64  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_62 = k_trans_61 < n  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_64 = k_trans_63.broadcast_to([64, 64])  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_65 = k_trans_45 + k_trans_64  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_66 = k_trans_62.broadcast_to([64, 64])  # load1_k_trans: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_k_trans: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_trans_67_as.index((twill_base + 0 - 0) % 2), k_trans_65, mask=k_trans_66)  # load1_k_trans: stage 0, partition 0 (group 0)
        else:  # load1_k_trans: stage 0, partition 0 (group 0)
            k_trans_67_as.index((twill_base + 0 - 0) % 2).store(gl.load(k_trans_65, mask=k_trans_66, other=0.0))  # load1_k_trans: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        kv_84_p1 = kv_84
        for twill_b in range(1, twill_n):
            kv_84_p1 = warpgroup_mma_wait(0, deps=(kv_84_p1,))
            mbarrier.arrive(v_70_empty.index((twill_base + twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
            o_inter_73 = kv_84_p1.to(gl.bfloat16)  # convert1_o_inter: stage 1, partition 0 (group 0)
            kv_79 = block_decay_35 * kv_84_p1  # elementwise2_kv: stage 1, partition 0 (group 0)
            o_inter_74 = o_inter_74_st.index((twill_b - 1) % 2)  # local_store0_o_inter: stage 1, partition 0 (group 0)
            o_inter_74.store(o_inter_73)  # local_store0_o_inter: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_o_inter: stage 1, partition 0 (group 0)
            mbarrier.wait(q_59_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_o_inter_75 = warpgroup_mma(q_59_buf.index((twill_base + twill_b - 1) % 3), o_inter_74, gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot1_o_inter: stage 1, partition 0 (group 0)
            o_inter_75 = warpgroup_mma_wait(0, deps=(tok_o_inter_75,))
            o_inter_76 = o_inter_75 * o_inter  # elementwise1_o_inter: stage 1, partition 0 (group 0)
            q_50 = (0 + (twill_b - 0) * 64)  # load1_k_trans: stage 0, partition 0 (group 0)
            q_52 = q_50 + Q_block_ptr_8  # load1_k_trans: stage 0, partition 0 (group 0)
            k_trans_61 = gl.expand_dims(q_52, 0)  # load1_k_trans: stage 0, partition 0 (group 0)
            k_trans_63 = k_trans_61 * 64  # load1_k_trans: stage 0, partition 0 (group 0)
            k_trans_62 = k_trans_61 < n  # load1_k_trans: stage 0, partition 0 (group 0)
            k_trans_64 = k_trans_63.broadcast_to([64, 64])  # load1_k_trans: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            k_trans_67 = k_trans_67_as.index((twill_base + twill_b - 1) % 2).load(L7)  # load1_k_trans: stage 1, partition 0 (group 0)
            k_trans_65 = k_trans_45 + k_trans_64  # load1_k_trans: stage 0, partition 0 (group 0)
            k_trans_66 = k_trans_62.broadcast_to([64, 64])  # load1_k_trans: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_k_trans: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_trans_67_as.index((twill_base + twill_b - 0) % 2), k_trans_65, mask=k_trans_66)  # load1_k_trans: stage 0, partition 0 (group 0)
            else:  # load1_k_trans: stage 0, partition 0 (group 0)
                k_trans_67_as.index((twill_base + twill_b - 0) % 2).store(gl.load(k_trans_65, mask=k_trans_66, other=0.0))  # load1_k_trans: stage 0, partition 0 (group 0)
            kv_80 = k_trans_67.to(gl.float32)  # convert3_kv: stage 1, partition 0 (group 0)
            k_trans_68 = k_trans_68_st.index((twill_b - 1) % 2)  # load1_k_trans: stage 1, partition 0 (group 0)
            k_trans_68.store(k_trans_67)  # load1_k_trans: stage 1, partition 0 (group 0)
            fence_async_shared()  # load1_k_trans: stage 1, partition 0 (group 0)
            tok_qk = warpgroup_mma(q_59_buf.index((twill_base + twill_b - 1) % 3), k_trans_68, gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            kv_81 = kv_80 * kv_46  # elementwise3_kv: stage 1, partition 0 (group 0)
            kv_82 = kv_81.to(gl.bfloat16)  # convert4_kv: stage 1, partition 0 (group 0)
            kv_83 = gl.convert_layout(kv_82, L8)  # convert4_kv: stage 1, partition 0 (group 0)
            qk = warpgroup_mma_wait(0, deps=(tok_qk,))
            mbarrier.arrive(q_59_empty.index((twill_base + twill_b - 1) % 3))
            qk_72 = qk * diag_decay_43  # elementwise0_qk: stage 1, partition 0 (group 0)
            o_intra = qk_72.to(gl.bfloat16)  # convert0_o_intra: stage 1, partition 0 (group 0)
            o_intra_77 = gl.convert_layout(o_intra, L8)  # convert0_o_intra: stage 1, partition 0 (group 0)
            mbarrier.wait(v_70_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_o_intra_78 = warpgroup_mma(o_intra_77, v_70_buf.index((twill_base + twill_b - 1) % 3), o_inter_76, is_async=True)  # dot2_o_intra: stage 1, partition 0 (group 0)
            o_intra_78 = warpgroup_mma_wait(0, deps=(tok_o_intra_78,))
            v2 = o_intra_78.to(gl.bfloat16)  # convert2: stage 1, partition 0 (group 0)
            v3 = gl.convert_layout(v2, L9)  # convert2: stage 1, partition 0 (group 0)
            tok_kv_84 = warpgroup_mma(kv_83, v_70_buf.index((twill_base + twill_b - 1) % 3), kv_79, is_async=True)  # dot3_kv: stage 1, partition 0 (group 0)
            q_49 = (0 + (twill_b - 1) * 64)  # load0_q: stage 1, partition 0 (group 0)
            q_51 = q_49 + Q_block_ptr_7  # load0_q: stage 1, partition 0 (group 0)
            q_53 = gl.expand_dims(q_51, 1)  # load0_q: stage 1, partition 0 (group 0)
            q_55 = q_53 * 64  # load0_q: stage 1, partition 0 (group 0)
            q_54 = q_53 < n  # load0_q: stage 1, partition 0 (group 0)
            q_56 = q_55.broadcast_to([64, 64])  # load0_q: stage 1, partition 0 (group 0)
            q_58 = q_54.broadcast_to([64, 64])  # load0_q: stage 1, partition 0 (group 0)
            v1 = v0 + q_56  # store0: stage 1, partition 0 (group 0)
            gl.store(v1, v3, mask=q_58)  # store0: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            kv_84 = warpgroup_mma_wait(1, deps=(tok_kv_84,))
            kv_84_p1 = kv_84
        kv_84_p1 = warpgroup_mma_wait(0, deps=(kv_84_p1,))
        mbarrier.arrive(v_70_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        o_inter_73 = kv_84_p1.to(gl.bfloat16)  # convert1_o_inter: stage 1, partition 0 (group 0)
        kv_79 = block_decay_35 * kv_84_p1  # elementwise2_kv: stage 1, partition 0 (group 0)
        o_inter_74 = o_inter_74_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_o_inter: stage 1, partition 0 (group 0)
        o_inter_74.store(o_inter_73)  # local_store0_o_inter: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_o_inter: stage 1, partition 0 (group 0)
        mbarrier.wait(q_59_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_o_inter_75 = warpgroup_mma(q_59_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), o_inter_74, gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot1_o_inter: stage 1, partition 0 (group 0)
        o_inter_75 = warpgroup_mma_wait(0, deps=(tok_o_inter_75,))
        o_inter_76 = o_inter_75 * o_inter  # elementwise1_o_inter: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_trans_67 = k_trans_67_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L7)  # load1_k_trans: stage 1, partition 0 (group 0)
        kv_80 = k_trans_67.to(gl.float32)  # convert3_kv: stage 1, partition 0 (group 0)
        k_trans_68 = k_trans_68_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_k_trans: stage 1, partition 0 (group 0)
        k_trans_68.store(k_trans_67)  # load1_k_trans: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_k_trans: stage 1, partition 0 (group 0)
        tok_qk = warpgroup_mma(q_59_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), k_trans_68, gl.full([64, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        kv_81 = kv_80 * kv_46  # elementwise3_kv: stage 1, partition 0 (group 0)
        kv_82 = kv_81.to(gl.bfloat16)  # convert4_kv: stage 1, partition 0 (group 0)
        kv_83 = gl.convert_layout(kv_82, L8)  # convert4_kv: stage 1, partition 0 (group 0)
        qk = warpgroup_mma_wait(0, deps=(tok_qk,))
        mbarrier.arrive(q_59_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        qk_72 = qk * diag_decay_43  # elementwise0_qk: stage 1, partition 0 (group 0)
        o_intra = qk_72.to(gl.bfloat16)  # convert0_o_intra: stage 1, partition 0 (group 0)
        o_intra_77 = gl.convert_layout(o_intra, L8)  # convert0_o_intra: stage 1, partition 0 (group 0)
        mbarrier.wait(v_70_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_o_intra_78 = warpgroup_mma(o_intra_77, v_70_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), o_inter_76, is_async=True)  # dot2_o_intra: stage 1, partition 0 (group 0)
        o_intra_78 = warpgroup_mma_wait(0, deps=(tok_o_intra_78,))
        v2 = o_intra_78.to(gl.bfloat16)  # convert2: stage 1, partition 0 (group 0)
        v3 = gl.convert_layout(v2, L9)  # convert2: stage 1, partition 0 (group 0)
        tok_kv_84 = warpgroup_mma(kv_83, v_70_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), kv_79, is_async=True)  # dot3_kv: stage 1, partition 0 (group 0)
        q_49 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # load0_q: stage 1, partition 0 (group 0)
        q_51 = q_49 + Q_block_ptr_7  # load0_q: stage 1, partition 0 (group 0)
        q_53 = gl.expand_dims(q_51, 1)  # load0_q: stage 1, partition 0 (group 0)
        q_55 = q_53 * 64  # load0_q: stage 1, partition 0 (group 0)
        q_54 = q_53 < n  # load0_q: stage 1, partition 0 (group 0)
        q_56 = q_55.broadcast_to([64, 64])  # load0_q: stage 1, partition 0 (group 0)
        q_58 = q_54.broadcast_to([64, 64])  # load0_q: stage 1, partition 0 (group 0)
        v1 = v0 + q_56  # store0: stage 1, partition 0 (group 0)
        gl.store(v1, v3, mask=q_58)  # store0: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        kv_84 = warpgroup_mma_wait(1, deps=(tok_kv_84,))
        kv_84_p1 = kv_84
        kv_84_p1 = warpgroup_mma_wait(0, deps=(kv_84_p1,))
        q_59_buf._keep_alive()
        o_inter_74_st._keep_alive()
        k_trans_68_st._keep_alive()
        v_70_buf._keep_alive()
        mbarrier.arrive(v_70_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        twill_base += twill_n

@gluon.jit
def producer_1(Q, K, V, Out, S, n, twill_g0, twill_g1, twill_g2, q_59_buf, v_70_buf, k_trans_67_as, o_inter_74_st, k_trans_68_st, q_59_ready, q_59_empty, v_70_ready, v_70_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        off_bh = twill_pid0
        qk_offset = off_bh * n
        qk_offset_5 = qk_offset * 64
        Q_block_ptr = Q + qk_offset_5
        Q_block_ptr_7 = gl.arange(0, 64, layout=L0)
        Q_block_ptr_10 = gl.arange(0, 64, layout=L3)
        Q_block_ptr_12 = gl.expand_dims(Q_block_ptr_10, 0)
        Q_block_ptr_15 = Q_block_ptr + Q_block_ptr_12
        V_block_ptr = V + qk_offset_5
        V_block_ptr_23 = V_block_ptr + Q_block_ptr_12
        q_44 = Q_block_ptr_15.broadcast_to([64, 64])
        v = V_block_ptr_23.broadcast_to([64, 64])
        for kv_48 in range(0, n, 64):
            twill_k = twill_base + (kv_48 - 0) // 64
            q_51 = kv_48 + Q_block_ptr_7
            q_53 = gl.expand_dims(q_51, 1)
            q_54 = q_53 < n
            q_55 = q_53 * 64
            q_56 = q_55.broadcast_to([64, 64])
            q_57 = q_44 + q_56
            q_58 = q_54.broadcast_to([64, 64])
            v_69 = v + q_56
            mbarrier.wait(q_59_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(q_59_buf.index(twill_k % 3), q_57, mask=q_58)  # load0_q: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(q_59_ready.index(twill_k % 3), increment_count=False)
            else:
                q_59_buf.index(twill_k % 3).store(gl.load(q_57, mask=q_58, other=0.0))  # load0_q: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(q_59_ready.index(twill_k % 3), count=128)
            mbarrier.wait(v_70_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_70_buf.index(twill_k % 3), v_69, mask=q_58)  # load2_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(v_70_ready.index(twill_k % 3), increment_count=False)
            else:
                v_70_buf.index(twill_k % 3).store(gl.load(v_69, mask=q_58, other=0.0))  # load2_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_70_ready.index(twill_k % 3), count=128)
        twill_base += (n - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(Q, K, V, Out, S, n, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    q_59_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    v_70_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_trans_67_as = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0, 1]))
    o_inter_74_st = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_trans_68_st = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    q_59_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(q_59_ready.index(i), count=128)
    q_59_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(q_59_empty.index(i), count=1)
    v_70_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_70_ready.index(i), count=128)
    v_70_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_70_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, Out, S, n, twill_g0, twill_g1, twill_g2, q_59_buf, v_70_buf, k_trans_67_as, o_inter_74_st, k_trans_68_st, q_59_ready, q_59_empty, v_70_ready, v_70_empty, TWILL_COPY)),
        (producer_1, (Q, K, V, Out, S, n, twill_g0, twill_g1, twill_g2, q_59_buf, v_70_buf, k_trans_67_as, o_inter_74_st, k_trans_68_st, q_59_ready, q_59_empty, v_70_ready, v_70_empty, TWILL_COPY)),
    ], [4], [64])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L6_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1]))
L8_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(Q, K, V, Out, S, n, TWILL_COPY: gl.constexpr):
    off_bh = gl.program_id(0)
    off_h = off_bh % 8
    qk_offset = off_bh * n
    qk_offset_5 = qk_offset * 64
    slope = S + off_h
    slope_6 = gl.load(slope)
    Q_block_ptr = Q + qk_offset_5
    Q_block_ptr_7 = gl.arange(0, 64, layout=L0_short)
    Q_block_ptr_8 = gl.arange(0, 64, layout=L1_short)
    Q_block_ptr_9 = gl.arange(0, 64, layout=L2_short)
    Q_block_ptr_10 = gl.arange(0, 64, layout=L3_short)
    Q_block_ptr_11 = gl.expand_dims(Q_block_ptr_9, 0)
    Q_block_ptr_12 = gl.expand_dims(Q_block_ptr_10, 0)
    Q_block_ptr_13 = gl.expand_dims(Q_block_ptr_8, 0)
    Q_block_ptr_15 = Q_block_ptr + Q_block_ptr_12
    K_trans_block_ptr = K + qk_offset_5
    K_trans_block_ptr_16 = gl.arange(0, 64, layout=L4_short)
    K_trans_block_ptr_17 = gl.arange(0, 64, layout=L5_short)
    K_trans_block_ptr_18 = gl.expand_dims(K_trans_block_ptr_16, 1)
    K_trans_block_ptr_19 = gl.expand_dims(K_trans_block_ptr_17, 1)
    K_trans_block_ptr_21 = K_trans_block_ptr + K_trans_block_ptr_19
    V_block_ptr = V + qk_offset_5
    V_block_ptr_23 = V_block_ptr + Q_block_ptr_12
    O_block_ptr = Out + qk_offset_5
    O_block_ptr_25 = O_block_ptr + Q_block_ptr_12
    q_decay = 0.0 - slope_6
    q_decay_26 = K_trans_block_ptr_18.to(gl.float32)
    q_decay_28 = q_decay * q_decay_26
    q_decay_29 = gl.exp(q_decay_28)
    k_trans_decay = 64 - Q_block_ptr_13
    k_trans_decay_30 = k_trans_decay.to(gl.float32)
    k_trans_decay_32 = q_decay * k_trans_decay_30
    k_trans_decay_33 = gl.exp(k_trans_decay_32)
    block_decay_34 = q_decay * 64.0
    block_decay_35 = gl.exp(block_decay_34)
    index = K_trans_block_ptr_18.broadcast_to([64, 64])
    index_36 = Q_block_ptr_11.broadcast_to([64, 64])
    index_37 = index - index_36
    diag_decay_38 = index_37 >= 0
    diag_decay_39 = index_37.to(gl.float32)
    diag_decay_41 = q_decay * diag_decay_39
    diag_decay_42 = gl.exp(diag_decay_41)
    diag_decay_43 = gl.where(diag_decay_38, diag_decay_42, 0.0)
    q_44 = Q_block_ptr_15.broadcast_to([64, 64])
    k_trans_45 = K_trans_block_ptr_21.broadcast_to([64, 64])
    v = V_block_ptr_23.broadcast_to([64, 64])
    o_inter = q_decay_29.broadcast_to([64, 64])
    v0 = O_block_ptr_25.broadcast_to([64, 64])
    kv_46 = k_trans_decay_33.broadcast_to([64, 64])
    twill_n = (n - 0 + 64 - 1) // 64
    q_60_ring = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_trans_67_as = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0, 1]))
    v_71_ring = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    o_inter_74_st = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_trans_68_st = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    kv_84 = gl.full([64, 64], 0.0, gl.float32, layout=L6_short)
    q_51 = (0 + (0 - 0) * 64) + Q_block_ptr_7  # load0_q: stage 0, partition 0 (group 0)
    q_53 = gl.expand_dims(q_51, 1)  # load0_q: stage 0, partition 0 (group 0)
    q_55 = q_53 * 64  # load0_q: stage 0, partition 0 (group 0)
    q_54 = q_53 < n  # load0_q: stage 0, partition 0 (group 0)
    q_56 = q_55.broadcast_to([64, 64])  # load0_q: stage 0, partition 0 (group 0)
    q_57 = q_44 + q_56  # load0_q: stage 0, partition 0 (group 0)
    q_58 = q_54.broadcast_to([64, 64])  # load0_q: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_q: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(q_60_ring.index((0 - 0) % 3), q_57, mask=q_58)  # load0_q: stage 0, partition 0 (group 0)
    else:  # load0_q: stage 0, partition 0 (group 0)
        q_60_ring.index((0 - 0) % 3).store(gl.load(q_57, mask=q_58, other=0.0))  # load0_q: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_q: stage 0, partition 0 (group 0)
    q_52 = (0 + (0 - 0) * 64) + Q_block_ptr_8  # load1_k_trans: stage 0, partition 0 (group 0)
    k_trans_61 = gl.expand_dims(q_52, 0)  # load1_k_trans: stage 0, partition 0 (group 0)
    k_trans_63 = k_trans_61 * 64  # load1_k_trans: stage 0, partition 0 (group 0)
    k_trans_62 = k_trans_61 < n  # load1_k_trans: stage 0, partition 0 (group 0)
    k_trans_64 = k_trans_63.broadcast_to([64, 64])  # load1_k_trans: stage 0, partition 0 (group 0)
    k_trans_65 = k_trans_45 + k_trans_64  # load1_k_trans: stage 0, partition 0 (group 0)
    k_trans_66 = k_trans_62.broadcast_to([64, 64])  # load1_k_trans: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_k_trans: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(k_trans_67_as.index((0 - 0) % 2), k_trans_65, mask=k_trans_66)  # load1_k_trans: stage 0, partition 0 (group 0)
    else:  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_67_as.index((0 - 0) % 2).store(gl.load(k_trans_65, mask=k_trans_66, other=0.0))  # load1_k_trans: stage 0, partition 0 (group 0)
    v_69 = v + q_56  # load2_v: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load2_v: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(v_71_ring.index((0 - 0) % 3), v_69, mask=q_58)  # load2_v: stage 0, partition 0 (group 0)
    else:  # load2_v: stage 0, partition 0 (group 0)
        v_71_ring.index((0 - 0) % 3).store(gl.load(v_69, mask=q_58, other=0.0))  # load2_v: stage 0, partition 0 (group 0)
        fence_async_shared()  # load2_v: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    kv_84_p1 = kv_84
    q_56_p1 = q_56
    q_58_p1 = q_58
    for twill_b in range(1, twill_n):
        kv_84_p1 = warpgroup_mma_wait(0, deps=(kv_84_p1,))
        o_inter_73 = kv_84_p1.to(gl.bfloat16)  # convert1_o_inter: stage 1, partition 0 (group 0)
        kv_79 = block_decay_35 * kv_84_p1  # elementwise2_kv: stage 1, partition 0 (group 0)
        o_inter_74 = o_inter_74_st.index((twill_b - 1) % 2)  # local_store0_o_inter: stage 1, partition 0 (group 0)
        o_inter_74.store(o_inter_73)  # local_store0_o_inter: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_o_inter: stage 1, partition 0 (group 0)
        q_49 = (0 + (twill_b - 0) * 64)  # load0_q: stage 0, partition 0 (group 0)
        q_51 = q_49 + Q_block_ptr_7  # load0_q: stage 0, partition 0 (group 0)
        q_53 = gl.expand_dims(q_51, 1)  # load0_q: stage 0, partition 0 (group 0)
        q_55 = q_53 * 64  # load0_q: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        q_60 = q_60_ring.index((twill_b - 1) % 3)  # load0_q: stage 1, partition 0 (group 0)
        q_54 = q_53 < n  # load0_q: stage 0, partition 0 (group 0)
        q_56 = q_55.broadcast_to([64, 64])  # load0_q: stage 0, partition 0 (group 0)
        q_57 = q_44 + q_56  # load0_q: stage 0, partition 0 (group 0)
        q_58 = q_54.broadcast_to([64, 64])  # load0_q: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_q: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(q_60_ring.index((twill_b - 0) % 3), q_57, mask=q_58)  # load0_q: stage 0, partition 0 (group 0)
        else:  # load0_q: stage 0, partition 0 (group 0)
            q_60_ring.index((twill_b - 0) % 3).store(gl.load(q_57, mask=q_58, other=0.0))  # load0_q: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_q: stage 0, partition 0 (group 0)
        tok_o_inter_75 = warpgroup_mma(q_60, o_inter_74, gl.full([64, 64], 0.0, gl.float32, layout=L6_short), use_acc=False, is_async=True)  # dot1_o_inter: stage 1, partition 0 (group 0)
        o_inter_75 = warpgroup_mma_wait(0, deps=(tok_o_inter_75,))
        o_inter_76 = o_inter_75 * o_inter  # elementwise1_o_inter: stage 1, partition 0 (group 0)
        q_50 = (0 + (twill_b - 0) * 64)  # load1_k_trans: stage 0, partition 0 (group 0)
        q_52 = q_50 + Q_block_ptr_8  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_61 = gl.expand_dims(q_52, 0)  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_63 = k_trans_61 * 64  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_62 = k_trans_61 < n  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_64 = k_trans_63.broadcast_to([64, 64])  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_67 = k_trans_67_as.index((twill_b - 1) % 2).load(L7_short)  # load1_k_trans: stage 1, partition 0 (group 0)
        k_trans_65 = k_trans_45 + k_trans_64  # load1_k_trans: stage 0, partition 0 (group 0)
        k_trans_66 = k_trans_62.broadcast_to([64, 64])  # load1_k_trans: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_k_trans: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_trans_67_as.index((twill_b - 0) % 2), k_trans_65, mask=k_trans_66)  # load1_k_trans: stage 0, partition 0 (group 0)
        else:  # load1_k_trans: stage 0, partition 0 (group 0)
            k_trans_67_as.index((twill_b - 0) % 2).store(gl.load(k_trans_65, mask=k_trans_66, other=0.0))  # load1_k_trans: stage 0, partition 0 (group 0)
        kv_80 = k_trans_67.to(gl.float32)  # convert3_kv: stage 1, partition 0 (group 0)
        k_trans_68 = k_trans_68_st.index((twill_b - 1) % 2)  # load1_k_trans: stage 1, partition 0 (group 0)
        k_trans_68.store(k_trans_67)  # load1_k_trans: stage 1, partition 0 (group 0)
        fence_async_shared()  # load1_k_trans: stage 1, partition 0 (group 0)
        tok_qk = warpgroup_mma(q_60, k_trans_68, gl.full([64, 64], 0.0, gl.float32, layout=L6_short), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        kv_81 = kv_80 * kv_46  # elementwise3_kv: stage 1, partition 0 (group 0)
        kv_82 = kv_81.to(gl.bfloat16)  # convert4_kv: stage 1, partition 0 (group 0)
        kv_83 = gl.convert_layout(kv_82, L8_short)  # convert4_kv: stage 1, partition 0 (group 0)
        qk = warpgroup_mma_wait(0, deps=(tok_qk,))
        qk_72 = qk * diag_decay_43  # elementwise0_qk: stage 1, partition 0 (group 0)
        o_intra = qk_72.to(gl.bfloat16)  # convert0_o_intra: stage 1, partition 0 (group 0)
        o_intra_77 = gl.convert_layout(o_intra, L8_short)  # convert0_o_intra: stage 1, partition 0 (group 0)
        v_71 = v_71_ring.index((twill_b - 1) % 3)  # load2_v: stage 1, partition 0 (group 0)
        v_69 = v + q_56  # load2_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_71_ring.index((twill_b - 0) % 3), v_69, mask=q_58)  # load2_v: stage 0, partition 0 (group 0)
        else:  # load2_v: stage 0, partition 0 (group 0)
            v_71_ring.index((twill_b - 0) % 3).store(gl.load(v_69, mask=q_58, other=0.0))  # load2_v: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_v: stage 0, partition 0 (group 0)
        tok_o_intra_78 = warpgroup_mma(o_intra_77, v_71, o_inter_76, is_async=True)  # dot2_o_intra: stage 1, partition 0 (group 0)
        o_intra_78 = warpgroup_mma_wait(0, deps=(tok_o_intra_78,))
        v2 = o_intra_78.to(gl.bfloat16)  # convert2: stage 1, partition 0 (group 0)
        v3 = gl.convert_layout(v2, L9_short)  # convert2: stage 1, partition 0 (group 0)
        tok_kv_84 = warpgroup_mma(kv_83, v_71, kv_79, is_async=True)  # dot3_kv: stage 1, partition 0 (group 0)
        v1 = v0 + q_56_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v1, v3, mask=q_58_p1)  # store0: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        kv_84 = warpgroup_mma_wait(1, deps=(tok_kv_84,))
        kv_84_p1 = kv_84
        q_56_p1 = q_56
        q_58_p1 = q_58
    kv_84_p1 = warpgroup_mma_wait(0, deps=(kv_84_p1,))
    o_inter_73 = kv_84_p1.to(gl.bfloat16)  # convert1_o_inter: stage 1, partition 0 (group 0)
    kv_79 = block_decay_35 * kv_84_p1  # elementwise2_kv: stage 1, partition 0 (group 0)
    o_inter_74 = o_inter_74_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_o_inter: stage 1, partition 0 (group 0)
    o_inter_74.store(o_inter_73)  # local_store0_o_inter: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_o_inter: stage 1, partition 0 (group 0)
    async_copy.wait_group(0)
    gl.thread_barrier()
    q_60 = q_60_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load0_q: stage 1, partition 0 (group 0)
    tok_o_inter_75 = warpgroup_mma(q_60, o_inter_74, gl.full([64, 64], 0.0, gl.float32, layout=L6_short), use_acc=False, is_async=True)  # dot1_o_inter: stage 1, partition 0 (group 0)
    o_inter_75 = warpgroup_mma_wait(0, deps=(tok_o_inter_75,))
    o_inter_76 = o_inter_75 * o_inter  # elementwise1_o_inter: stage 1, partition 0 (group 0)
    k_trans_67 = k_trans_67_as.index(((twill_n - 1 + 1) - 1) % 2).load(L7_short)  # load1_k_trans: stage 1, partition 0 (group 0)
    kv_80 = k_trans_67.to(gl.float32)  # convert3_kv: stage 1, partition 0 (group 0)
    k_trans_68 = k_trans_68_st.index(((twill_n - 1 + 1) - 1) % 2)  # load1_k_trans: stage 1, partition 0 (group 0)
    k_trans_68.store(k_trans_67)  # load1_k_trans: stage 1, partition 0 (group 0)
    fence_async_shared()  # load1_k_trans: stage 1, partition 0 (group 0)
    tok_qk = warpgroup_mma(q_60, k_trans_68, gl.full([64, 64], 0.0, gl.float32, layout=L6_short), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
    kv_81 = kv_80 * kv_46  # elementwise3_kv: stage 1, partition 0 (group 0)
    kv_82 = kv_81.to(gl.bfloat16)  # convert4_kv: stage 1, partition 0 (group 0)
    kv_83 = gl.convert_layout(kv_82, L8_short)  # convert4_kv: stage 1, partition 0 (group 0)
    qk = warpgroup_mma_wait(0, deps=(tok_qk,))
    qk_72 = qk * diag_decay_43  # elementwise0_qk: stage 1, partition 0 (group 0)
    o_intra = qk_72.to(gl.bfloat16)  # convert0_o_intra: stage 1, partition 0 (group 0)
    o_intra_77 = gl.convert_layout(o_intra, L8_short)  # convert0_o_intra: stage 1, partition 0 (group 0)
    v_71 = v_71_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load2_v: stage 1, partition 0 (group 0)
    tok_o_intra_78 = warpgroup_mma(o_intra_77, v_71, o_inter_76, is_async=True)  # dot2_o_intra: stage 1, partition 0 (group 0)
    o_intra_78 = warpgroup_mma_wait(0, deps=(tok_o_intra_78,))
    v2 = o_intra_78.to(gl.bfloat16)  # convert2: stage 1, partition 0 (group 0)
    v3 = gl.convert_layout(v2, L9_short)  # convert2: stage 1, partition 0 (group 0)
    tok_kv_84 = warpgroup_mma(kv_83, v_71, kv_79, is_async=True)  # dot3_kv: stage 1, partition 0 (group 0)
    v1 = v0 + q_56_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v1, v3, mask=q_58_p1)  # store0: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    kv_84 = warpgroup_mma_wait(1, deps=(tok_kv_84,))
    kv_84_p1 = kv_84
    q_56_p1 = q_56
    q_58_p1 = q_58
    kv_84_p1 = warpgroup_mma_wait(0, deps=(kv_84_p1,))
    q_60_ring._keep_alive()
    o_inter_74_st._keep_alive()
    k_trans_68_st._keep_alive()
    v_71_ring._keep_alive()

@gluon.jit
def twill_kernel_short(Q, K, V, Out, S, n, TWILL_COPY: gl.constexpr):
    consumer_0_short(Q, K, V, Out, S, n, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Out', 'S', 'n', 'd', 'e', 'BLOCK']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Out', 'S', 'n', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Out', 'S', 'n', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'d': 64, 'e': 64, 'BLOCK': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['Q', 'K', 'V']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(n + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((n + 64 - 1) // 64): run the Triton kernel for it")
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
ARGUMENTS_short = ['Q', 'K', 'V', 'Out', 'S', 'n', 'd', 'e', 'BLOCK']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Q', 'K', 'V', 'Out', 'S', 'n']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Q', 'K', 'V', 'Out', 'S', 'n']   # the arguments a launch key reads
CONSTEXPRS_short = {'d': 64, 'e': 64, 'BLOCK': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['Q', 'K', 'V']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev_short('(n + 64 - 1) // 64', dict(bound, **CONSTEXPRS_short))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((n + 64 - 1) // 64): run the Triton kernel for it")
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
