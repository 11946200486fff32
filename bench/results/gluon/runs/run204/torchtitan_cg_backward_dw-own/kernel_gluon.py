"""_kernel_cg_backward_dw, written by twill from its joint schedule: I=213 L=213 (optimal), 1704 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (go_t_ring: 4 x 8192 B, issued 2 iteration(s) ahead, inp_65_ring: 4 x 2048 B, issued 2 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 2 stage(s) ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 83 per thread)
- shared memory: 40976 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)
- if at torchtitan_cg_backward_dw.py:53 (TTGIR line 39) around the scheduled loop: taken as an early return where its condition fails in the kernel itself, before the loop; the kernel's own tile loop after it
- if at torchtitan_cg_backward_dw.py:61 (TTGIR line 47) around the scheduled loop: taken as an early return where its condition fails in the kernel itself, before the loop; the kernel's own tile loop after it

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0]))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16]))

@gluon.jit
def consumer_0(grad_output_ptr, inputs_ptr, grad_weights_ptr, indices_ptr, TWILL_COPY: gl.constexpr):
    arg5 = gl.full([128, 32], 0.0, gl.float32, layout=L5)
    twill_base = 0
    for grad_weights_31 in range(0, 64, 1):
        pid = gl.program_id(0)
        expert_id = pid // 512
        group_start = grad_weights_31 * 128
        group_expert = indices_ptr + group_start
        group_expert_32 = gl.load(group_expert)
        v6 = group_expert_32 == expert_id
        if v6:
            pid = gl.program_id(0)
            expert_id = pid // 512
            position_id = pid % 512
            tile_n = position_id // 32
            tile_k = position_id % 32
            n_start = tile_n * 128
            k_start = tile_k * 32
            offs_n = gl.arange(0, 128, layout=L0)
            offs_n_8 = gl.arange(0, 128, layout=L1)
            offs_n_11 = offs_n + n_start
            offs_n_12 = offs_n_8 + n_start
            offs_k = gl.arange(0, 32, layout=L2)
            offs_k_13 = gl.arange(0, 32, layout=L1)
            offs_k_14 = gl.arange(0, 32, layout=L3)
            offs_k_16 = offs_k_14 + k_start
            mask_n = offs_n_11 < 2048
            mask_n_17 = offs_n_12 < 2048
            mask_k = offs_k_16 < 1024
            group_start = grad_weights_31 * 128
            mask_m = group_start + 128
            mask_m_33 = gl.minimum(mask_m, 8192)
            go_ptrs_36 = gl.expand_dims(offs_n_11, 0)
            go_ptrs_37 = go_ptrs_36.broadcast_to([32, 128])
            mask_go = gl.expand_dims(mask_n, 0)
            mask_go_38 = mask_go.broadcast_to([32, 128])
            in_ptrs_39 = gl.expand_dims(offs_k_16, 0)
            in_ptrs_40 = in_ptrs_39.broadcast_to([32, 32])
            mask_in = gl.expand_dims(mask_k, 0)
            mask_in_41 = mask_in.broadcast_to([32, 32])
            twill_n = (128 - 0 + 32 - 1) // 32
            go_t_ring = gl.allocate_shared_memory(gl.bfloat16, [4, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
            inp_65_ring = gl.allocate_shared_memory(gl.bfloat16, [4, 32, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
            m_start = group_start + (0 + (0 - 0) * 32)  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            offs_m_44 = m_start  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            offs_m_46 = offs_k_13 + offs_m_44  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            mask_m_48 = offs_m_46 < mask_m_33  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            mask_go_56 = gl.expand_dims(mask_m_48, 1)  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            mask_in_63 = mask_go_56.broadcast_to([32, 32])  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            mask_in_64 = mask_in_63 & mask_in_41  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            offs_m = m_start  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            offs_m_45 = offs_k + offs_m  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            mask_m_47 = offs_m_45 < mask_m_33  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            mask_go_55 = gl.expand_dims(mask_m_47, 1)  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            mask_go_57 = mask_go_55.broadcast_to([32, 128])  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            mask_go_58 = mask_go_57 & mask_go_38  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            go_ptrs_49 = gl.expand_dims(offs_m_45, 1)  # load0_go: stage 0, partition 0 (group 0)
            go_ptrs_51 = go_ptrs_49 * 2048  # load0_go: stage 0, partition 0 (group 0)
            go_ptrs_50 = gl.expand_dims(offs_m_46, 1)  # load1_inp: stage 0, partition 0 (group 0)
            go_ptrs_52 = grad_output_ptr + go_ptrs_51  # load0_go: stage 0, partition 0 (group 0)
            in_ptrs_59 = go_ptrs_50 * 1024  # load1_inp: stage 0, partition 0 (group 0)
            go_ptrs_53 = go_ptrs_52.broadcast_to([32, 128])  # load0_go: stage 0, partition 0 (group 0)
            in_ptrs_60 = inputs_ptr + in_ptrs_59  # load1_inp: stage 0, partition 0 (group 0)
            in_ptrs_61 = in_ptrs_60.broadcast_to([32, 32])  # load1_inp: stage 0, partition 0 (group 0)
            go_ptrs_54 = go_ptrs_53 + go_ptrs_37  # load0_go: stage 0, partition 0 (group 0)
            in_ptrs_62 = in_ptrs_61 + in_ptrs_40  # load1_inp: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_go: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(go_t_ring.index((twill_base + 0 - 0) % 4), go_ptrs_54, mask=mask_go_58)  # load0_go: stage 0, partition 0 (group 0)
            else:  # load0_go: stage 0, partition 0 (group 0)
                go_t_ring.index((twill_base + 0 - 0) % 4).store(gl.load(go_ptrs_54, mask=mask_go_58, other=0.0))  # load0_go: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_go: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_inp: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(inp_65_ring.index((twill_base + 0 - 0) % 4), in_ptrs_62, mask=mask_in_64)  # load1_inp: stage 0, partition 0 (group 0)
            else:  # load1_inp: stage 0, partition 0 (group 0)
                inp_65_ring.index((twill_base + 0 - 0) % 4).store(gl.load(in_ptrs_62, mask=mask_in_64, other=0.0))  # load1_inp: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_inp: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            grad_weights_67 = arg5
            m_start = group_start + (0 + (1 - 0) * 32)  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            offs_m_44 = m_start  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            offs_m_46 = offs_k_13 + offs_m_44  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            mask_m_48 = offs_m_46 < mask_m_33  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            mask_go_56 = gl.expand_dims(mask_m_48, 1)  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            mask_in_63 = mask_go_56.broadcast_to([32, 32])  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            mask_in_64 = mask_in_63 & mask_in_41  # elementwise1_mask_in: stage 0, partition 0 (group 0)
            offs_m = m_start  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            offs_m_45 = offs_k + offs_m  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            mask_m_47 = offs_m_45 < mask_m_33  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            mask_go_55 = gl.expand_dims(mask_m_47, 1)  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            mask_go_57 = mask_go_55.broadcast_to([32, 128])  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            mask_go_58 = mask_go_57 & mask_go_38  # elementwise0_mask_go: stage 0, partition 0 (group 0)
            go_ptrs_49 = gl.expand_dims(offs_m_45, 1)  # load0_go: stage 0, partition 0 (group 0)
            go_ptrs_51 = go_ptrs_49 * 2048  # load0_go: stage 0, partition 0 (group 0)
            go_ptrs_50 = gl.expand_dims(offs_m_46, 1)  # load1_inp: stage 0, partition 0 (group 0)
            go_ptrs_52 = grad_output_ptr + go_ptrs_51  # load0_go: stage 0, partition 0 (group 0)
            in_ptrs_59 = go_ptrs_50 * 1024  # load1_inp: stage 0, partition 0 (group 0)
            go_ptrs_53 = go_ptrs_52.broadcast_to([32, 128])  # load0_go: stage 0, partition 0 (group 0)
            in_ptrs_60 = inputs_ptr + in_ptrs_59  # load1_inp: stage 0, partition 0 (group 0)
            in_ptrs_61 = in_ptrs_60.broadcast_to([32, 32])  # load1_inp: stage 0, partition 0 (group 0)
            go_ptrs_54 = go_ptrs_53 + go_ptrs_37  # load0_go: stage 0, partition 0 (group 0)
            in_ptrs_62 = in_ptrs_61 + in_ptrs_40  # load1_inp: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_go: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(go_t_ring.index((twill_base + 1 - 0) % 4), go_ptrs_54, mask=mask_go_58)  # load0_go: stage 0, partition 0 (group 0)
            else:  # load0_go: stage 0, partition 0 (group 0)
                go_t_ring.index((twill_base + 1 - 0) % 4).store(gl.load(go_ptrs_54, mask=mask_go_58, other=0.0))  # load0_go: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_go: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_inp: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(inp_65_ring.index((twill_base + 1 - 0) % 4), in_ptrs_62, mask=mask_in_64)  # load1_inp: stage 0, partition 0 (group 0)
            else:  # load1_inp: stage 0, partition 0 (group 0)
                inp_65_ring.index((twill_base + 1 - 0) % 4).store(gl.load(in_ptrs_62, mask=mask_in_64, other=0.0))  # load1_inp: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_inp: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            grad_weights_67_p1 = grad_weights_67
            for twill_b in range(2, twill_n):
                m_start = group_start + (0 + (twill_b - 0) * 32)  # elementwise0_mask_go: stage 0, partition 0 (group 0)
                offs_m_44 = m_start  # elementwise1_mask_in: stage 0, partition 0 (group 0)
                offs_m_46 = offs_k_13 + offs_m_44  # elementwise1_mask_in: stage 0, partition 0 (group 0)
                mask_m_48 = offs_m_46 < mask_m_33  # elementwise1_mask_in: stage 0, partition 0 (group 0)
                mask_go_56 = gl.expand_dims(mask_m_48, 1)  # elementwise1_mask_in: stage 0, partition 0 (group 0)
                mask_in_63 = mask_go_56.broadcast_to([32, 32])  # elementwise1_mask_in: stage 0, partition 0 (group 0)
                mask_in_64 = mask_in_63 & mask_in_41  # elementwise1_mask_in: stage 0, partition 0 (group 0)
                offs_m = m_start  # elementwise0_mask_go: stage 0, partition 0 (group 0)
                offs_m_45 = offs_k + offs_m  # elementwise0_mask_go: stage 0, partition 0 (group 0)
                mask_m_47 = offs_m_45 < mask_m_33  # elementwise0_mask_go: stage 0, partition 0 (group 0)
                mask_go_55 = gl.expand_dims(mask_m_47, 1)  # elementwise0_mask_go: stage 0, partition 0 (group 0)
                mask_go_57 = mask_go_55.broadcast_to([32, 128])  # elementwise0_mask_go: stage 0, partition 0 (group 0)
                mask_go_58 = mask_go_57 & mask_go_38  # elementwise0_mask_go: stage 0, partition 0 (group 0)
                go_ptrs_49 = gl.expand_dims(offs_m_45, 1)  # load0_go: stage 0, partition 0 (group 0)
                go_ptrs_51 = go_ptrs_49 * 2048  # load0_go: stage 0, partition 0 (group 0)
                go_ptrs_50 = gl.expand_dims(offs_m_46, 1)  # load1_inp: stage 0, partition 0 (group 0)
                go_ptrs_52 = grad_output_ptr + go_ptrs_51  # load0_go: stage 0, partition 0 (group 0)
                in_ptrs_59 = go_ptrs_50 * 1024  # load1_inp: stage 0, partition 0 (group 0)
                go_ptrs_53 = go_ptrs_52.broadcast_to([32, 128])  # load0_go: stage 0, partition 0 (group 0)
                async_copy.wait_group(1)
                gl.thread_barrier()
                go_t = go_t_ring.index((twill_base + twill_b - 2) % 4)  # load0_go: stage 2, partition 0 (group 0)
                inp_65 = inp_65_ring.index((twill_base + twill_b - 2) % 4)  # load1_inp: stage 2, partition 0 (group 0)
                in_ptrs_60 = inputs_ptr + in_ptrs_59  # load1_inp: stage 0, partition 0 (group 0)
                in_ptrs_61 = in_ptrs_60.broadcast_to([32, 32])  # load1_inp: stage 0, partition 0 (group 0)
                go_ptrs_54 = go_ptrs_53 + go_ptrs_37  # load0_go: stage 0, partition 0 (group 0)
                in_ptrs_62 = in_ptrs_61 + in_ptrs_40  # load1_inp: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load0_go: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(go_t_ring.index((twill_base + twill_b - 0) % 4), go_ptrs_54, mask=mask_go_58)  # load0_go: stage 0, partition 0 (group 0)
                else:  # load0_go: stage 0, partition 0 (group 0)
                    go_t_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(go_ptrs_54, mask=mask_go_58, other=0.0))  # load0_go: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load0_go: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_inp: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(inp_65_ring.index((twill_base + twill_b - 0) % 4), in_ptrs_62, mask=mask_in_64)  # load1_inp: stage 0, partition 0 (group 0)
                else:  # load1_inp: stage 0, partition 0 (group 0)
                    inp_65_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(in_ptrs_62, mask=mask_in_64, other=0.0))  # load1_inp: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load1_inp: stage 0, partition 0 (group 0)
                go_t_66 = go_t.permute((1, 0))  # load0_go: stage 2, partition 0 (group 0)
                tok_grad_weights_67 = warpgroup_mma(go_t_66, inp_65, grad_weights_67_p1, is_async=True)  # dot0_grad_weights: stage 2, partition 0 (group 0)
                async_copy.commit_group()
                warpgroup_mma_wait(1, deps=(tok_grad_weights_67,))
                grad_weights_67 = warpgroup_mma_wait(1, deps=(tok_grad_weights_67,))
                grad_weights_67_p1 = grad_weights_67
            async_copy.wait_group(1)
            gl.thread_barrier()
            go_t = go_t_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load0_go: stage 2, partition 0 (group 0)
            inp_65 = inp_65_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load1_inp: stage 2, partition 0 (group 0)
            go_t_66 = go_t.permute((1, 0))  # load0_go: stage 2, partition 0 (group 0)
            tok_grad_weights_67 = warpgroup_mma(go_t_66, inp_65, grad_weights_67_p1, is_async=True)  # dot0_grad_weights: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_grad_weights_67,))
            grad_weights_67 = warpgroup_mma_wait(1, deps=(tok_grad_weights_67,))
            grad_weights_67_p1 = grad_weights_67
            async_copy.wait_group(1)
            gl.thread_barrier()
            go_t = go_t_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load0_go: stage 2, partition 0 (group 0)
            inp_65 = inp_65_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load1_inp: stage 2, partition 0 (group 0)
            go_t_66 = go_t.permute((1, 0))  # load0_go: stage 2, partition 0 (group 0)
            tok_grad_weights_67 = warpgroup_mma(go_t_66, inp_65, grad_weights_67_p1, is_async=True)  # dot0_grad_weights: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_grad_weights_67,))
            grad_weights_67 = warpgroup_mma_wait(1, deps=(tok_grad_weights_67,))
            grad_weights_67_p1 = grad_weights_67
            grad_weights_67_p1 = warpgroup_mma_wait(0, deps=(grad_weights_67_p1,))
            go_t_ring._keep_alive()
            inp_65_ring._keep_alive()
            v7 = grad_weights_67_p1
            twill_base += twill_n
        else:
            v7 = arg5
        arg5 = v7
    pid = gl.program_id(0)
    expert_id = pid // 512
    position_id = pid % 512
    tile_n = position_id // 32
    tile_k = position_id % 32
    n_start = tile_n * 128
    k_start = tile_k * 32
    offs_n_8 = gl.arange(0, 128, layout=L1)
    offs_n_12 = offs_n_8 + n_start
    offs_k_14 = gl.arange(0, 32, layout=L3)
    offs_k_16 = offs_k_14 + k_start
    mask_n_17 = offs_n_12 < 2048
    mask_k = offs_k_16 < 1024
    grad_w_ptrs = expert_id * 2097152
    grad_w_ptrs_18 = grad_weights_ptr + grad_w_ptrs
    grad_w_ptrs_19 = gl.expand_dims(offs_n_12, 1)
    grad_w_ptrs_20 = grad_w_ptrs_19 * 1024
    grad_w_ptrs_22 = grad_w_ptrs_18 + grad_w_ptrs_20
    grad_w_ptrs_23 = gl.expand_dims(offs_k_16, 0)
    grad_w_ptrs_24 = grad_w_ptrs_22.broadcast_to([128, 32])
    grad_w_ptrs_25 = grad_w_ptrs_23.broadcast_to([128, 32])
    grad_w_ptrs_26 = grad_w_ptrs_24 + grad_w_ptrs_25
    mask_gw = gl.expand_dims(mask_n_17, 1)
    mask_gw_27 = gl.expand_dims(mask_k, 0)
    mask_gw_28 = mask_gw.broadcast_to([128, 32])
    mask_gw_29 = mask_gw_27.broadcast_to([128, 32])
    mask_gw_30 = mask_gw_28 & mask_gw_29
    v4 = arg5.to(gl.bfloat16)
    v5 = gl.convert_layout(v4, L4)
    gl.store(grad_w_ptrs_26, v5, mask=mask_gw_30)

@gluon.jit
def twill_kernel(grad_output_ptr, inputs_ptr, grad_weights_ptr, indices_ptr, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    expert_id = pid // 512
    v0 = expert_id < 8
    if not v0:
        return
    pid = gl.program_id(0)
    position_id = pid % 512
    tile_n = position_id // 32
    tile_k = position_id % 32
    n_start = tile_n * 128
    k_start = tile_k * 32
    v1 = n_start < 2048
    v2 = k_start < 1024
    v3 = v1 & v2
    if not v3:
        return
    consumer_0(grad_output_ptr, inputs_ptr, grad_weights_ptr, indices_ptr, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['grad_output_ptr', 'inputs_ptr', 'grad_weights_ptr', 'indices_ptr', 'M_TOTAL', 'N', 'K', 'NUM_EXPERTS', 'GROUP_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'BLOCK_SIZE_M']          # the Triton kernel's parameters, in order
RUNTIME = ['grad_output_ptr', 'inputs_ptr', 'grad_weights_ptr', 'indices_ptr']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['grad_output_ptr', 'inputs_ptr', 'grad_weights_ptr', 'indices_ptr']   # the arguments a launch key reads
CONSTEXPRS = {'M_TOTAL': 8192, 'N': 2048, 'K': 1024, 'NUM_EXPERTS': 8, 'GROUP_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32, 'BLOCK_SIZE_M': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['grad_output_ptr', 'inputs_ptr']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
