"""_kernel_cg_backward_dw, written by twill from its joint schedule: I=213 L=213 (optimal), 1704 cycles per iteration predicted.

Decisions (each from the schedule):
- go copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- inp copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (go, inp): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (83, 56 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 192 registers per thread (needs about 83): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring go: 2 buffers of [32, 128] bf16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring inp: 2 buffers of [32, 32] bf16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 20560 bytes planned of 232448; maxnreg 128
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's and two CTAs share an SM
- if at torchtitan_cg_backward_dw.py:53 (TTGIR line 39) around the scheduled loop: taken as an early return where its condition fails in the kernel itself, before gl.warp_specialize starts the partitions; the kernel's own tile loop after it
- if at torchtitan_cg_backward_dw.py:61 (TTGIR line 47) around the scheduled loop: taken as an early return where its condition fails in the kernel itself, before gl.warp_specialize starts the partitions; the kernel's own tile loop after it
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (5 CTAs an SM against the producer's 2; its tiles loaded 2 iteration(s) ahead, 40960 bytes of shared memory compiled, ptxas 64 registers, clean; none (one partition, no mbarrier) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

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
def consumer_0(grad_output_ptr, inputs_ptr, grad_weights_ptr, indices_ptr, go_buf, inp_buf, go_ready, go_empty, inp_ready, inp_empty, TWILL_COPY: gl.constexpr):
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
            mask_go = gl.expand_dims(mask_n, 0)
            mask_go_38 = mask_go.broadcast_to([32, 128])
            mask_in = gl.expand_dims(mask_k, 0)
            mask_in_41 = mask_in.broadcast_to([32, 32])
            twill_n = (128 - 0 + 32 - 1) // 32
            grad_weights_67 = arg5
            grad_weights_67_p1 = grad_weights_67
            for twill_b in range(0, twill_n):
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
                mbarrier.wait(go_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
                fence_async_shared()
                mbarrier.wait(inp_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
                fence_async_shared()
                tok_grad_weights_67 = warpgroup_mma(go_buf.index((twill_base + twill_b - 0) % 2).permute((1, 0)), inp_buf.index((twill_base + twill_b - 0) % 2), grad_weights_67_p1, is_async=True)  # dot0_grad_weights: stage 0, partition 0 (group 0)
                grad_weights_67_p1 = warpgroup_mma_wait(1, deps=(grad_weights_67_p1,))
                mbarrier.arrive(go_empty.index((twill_base + twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
                mbarrier.arrive(inp_empty.index((twill_base + twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
                grad_weights_67 = warpgroup_mma_wait(1, deps=(tok_grad_weights_67,))
                grad_weights_67_p1 = grad_weights_67
            grad_weights_67_p1 = warpgroup_mma_wait(0, deps=(grad_weights_67_p1,))
            go_buf._keep_alive()
            inp_buf._keep_alive()
            mbarrier.arrive(go_empty.index((twill_base + (twill_n - 1) - 0) % 2), pred=twill_n > 0)
            mbarrier.arrive(inp_empty.index((twill_base + (twill_n - 1) - 0) % 2), pred=twill_n > 0)
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
def producer_1(grad_output_ptr, inputs_ptr, grad_weights_ptr, indices_ptr, go_buf, inp_buf, go_ready, go_empty, inp_ready, inp_empty, TWILL_COPY: gl.constexpr):
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
            position_id = pid % 512
            tile_n = position_id // 32
            tile_k = position_id % 32
            n_start = tile_n * 128
            k_start = tile_k * 32
            offs_n = gl.arange(0, 128, layout=L0)
            offs_n_11 = offs_n + n_start
            offs_k = gl.arange(0, 32, layout=L2)
            offs_k_13 = gl.arange(0, 32, layout=L1)
            offs_k_14 = gl.arange(0, 32, layout=L3)
            offs_k_16 = offs_k_14 + k_start
            mask_n = offs_n_11 < 2048
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
            for grad_weights_43 in range(0, 128, 32):
                twill_k = twill_base + (grad_weights_43 - 0) // 32
                m_start = group_start + grad_weights_43
                offs_m_45 = offs_k + m_start
                offs_m_46 = offs_k_13 + m_start
                mask_m_47 = offs_m_45 < mask_m_33
                mask_m_48 = offs_m_46 < mask_m_33
                go_ptrs_49 = gl.expand_dims(offs_m_45, 1)
                go_ptrs_50 = gl.expand_dims(offs_m_46, 1)
                go_ptrs_51 = go_ptrs_49 * 2048
                go_ptrs_52 = grad_output_ptr + go_ptrs_51
                go_ptrs_53 = go_ptrs_52.broadcast_to([32, 128])
                go_ptrs_54 = go_ptrs_53 + go_ptrs_37
                mask_go_55 = gl.expand_dims(mask_m_47, 1)
                mask_go_56 = gl.expand_dims(mask_m_48, 1)
                mask_go_57 = mask_go_55.broadcast_to([32, 128])
                mask_go_58 = mask_go_57 & mask_go_38
                in_ptrs_59 = go_ptrs_50 * 1024
                in_ptrs_60 = inputs_ptr + in_ptrs_59
                in_ptrs_61 = in_ptrs_60.broadcast_to([32, 32])
                in_ptrs_62 = in_ptrs_61 + in_ptrs_40
                mask_in_63 = mask_go_56.broadcast_to([32, 32])
                mask_in_64 = mask_in_63 & mask_in_41
                mbarrier.wait(inp_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(inp_buf.index(twill_k % 2), in_ptrs_62, mask=mask_in_64)  # load1_inp: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(inp_ready.index(twill_k % 2), increment_count=False)
                else:
                    inp_buf.index(twill_k % 2).store(gl.load(in_ptrs_62, mask=mask_in_64, other=0.0))  # load1_inp: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(inp_ready.index(twill_k % 2), count=128)
                mbarrier.wait(go_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(go_buf.index(twill_k % 2), go_ptrs_54, mask=mask_go_58)  # load0_go: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(go_ready.index(twill_k % 2), increment_count=False)
                else:
                    go_buf.index(twill_k % 2).store(gl.load(go_ptrs_54, mask=mask_go_58, other=0.0))  # load0_go: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(go_ready.index(twill_k % 2), count=128)
            twill_trips = (128 - 0 + 32 - 1) // 32
            twill_base += twill_trips

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
    go_buf = gl.allocate_shared_memory(gl.bfloat16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    inp_buf = gl.allocate_shared_memory(gl.bfloat16, [2, 32, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    go_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(go_ready.index(i), count=128)
    go_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(go_empty.index(i), count=1)
    inp_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(inp_ready.index(i), count=128)
    inp_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(inp_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (grad_output_ptr, inputs_ptr, grad_weights_ptr, indices_ptr, go_buf, inp_buf, go_ready, go_empty, inp_ready, inp_empty, TWILL_COPY)),
        (producer_1, (grad_output_ptr, inputs_ptr, grad_weights_ptr, indices_ptr, go_buf, inp_buf, go_ready, go_empty, inp_ready, inp_empty, TWILL_COPY)),
    ], [4], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0]))
L5_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 32, 16]))

@gluon.jit
def consumer_0_short(grad_output_ptr, inputs_ptr, grad_weights_ptr, indices_ptr, TWILL_COPY: gl.constexpr):
    twill_base = 0
    pid = gl.program_id(0)
    expert_id = pid // 512
    position_id = pid % 512
    tile_n = position_id // 32
    tile_k = position_id % 32
    n_start = tile_n * 128
    k_start = tile_k * 32
    offs_n = gl.arange(0, 128, layout=L0_short)
    offs_n_8 = gl.arange(0, 128, layout=L1_short)
    offs_n_11 = offs_n + n_start
    offs_n_12 = offs_n_8 + n_start
    offs_k = gl.arange(0, 32, layout=L2_short)
    offs_k_13 = gl.arange(0, 32, layout=L1_short)
    offs_k_14 = gl.arange(0, 32, layout=L3_short)
    offs_k_16 = offs_k_14 + k_start
    mask_n = offs_n_11 < 2048
    mask_n_17 = offs_n_12 < 2048
    mask_k = offs_k_16 < 1024
    arg5 = gl.full([128, 32], 0.0, gl.float32, layout=L5_short)
    for grad_weights_31 in range(0, 64, 1):
        group_start = grad_weights_31 * 128
        group_expert = indices_ptr + group_start
        group_expert_32 = gl.load(group_expert)
        v6 = group_expert_32 == expert_id
        if v6:
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
    v5 = gl.convert_layout(v4, L4_short)
    gl.store(grad_w_ptrs_26, v5, mask=mask_gw_30)

@gluon.jit
def twill_kernel_short(grad_output_ptr, inputs_ptr, grad_weights_ptr, indices_ptr, TWILL_COPY: gl.constexpr):
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
    consumer_0_short(grad_output_ptr, inputs_ptr, grad_weights_ptr, indices_ptr, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['grad_output_ptr', 'inputs_ptr', 'grad_weights_ptr', 'indices_ptr', 'M_TOTAL', 'N', 'K', 'NUM_EXPERTS', 'GROUP_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'BLOCK_SIZE_M']          # the Triton kernel's parameters, in order
RUNTIME = ['grad_output_ptr', 'inputs_ptr', 'grad_weights_ptr', 'indices_ptr']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['grad_output_ptr', 'inputs_ptr', 'grad_weights_ptr', 'indices_ptr']   # the arguments a launch key reads
CONSTEXPRS = {'M_TOTAL': 8192, 'N': 2048, 'K': 1024, 'NUM_EXPERTS': 8, 'GROUP_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32, 'BLOCK_SIZE_M': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
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
        g = (max(1, min(g[0] * g[1] * g[2], 2 * _sm_count())),)
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
ARGUMENTS_short = ['grad_output_ptr', 'inputs_ptr', 'grad_weights_ptr', 'indices_ptr', 'M_TOTAL', 'N', 'K', 'NUM_EXPERTS', 'GROUP_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'BLOCK_SIZE_M']          # the Triton kernel's parameters, in order
RUNTIME_short = ['grad_output_ptr', 'inputs_ptr', 'grad_weights_ptr', 'indices_ptr']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['grad_output_ptr', 'inputs_ptr', 'grad_weights_ptr', 'indices_ptr']   # the arguments a launch key reads
CONSTEXPRS_short = {'M_TOTAL': 8192, 'N': 2048, 'K': 1024, 'NUM_EXPERTS': 8, 'GROUP_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32, 'BLOCK_SIZE_M': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['grad_output_ptr', 'inputs_ptr']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
