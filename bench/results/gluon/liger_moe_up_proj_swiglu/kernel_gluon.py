"""_fused_up_proj_swiglu_kernel, written by twill from its joint schedule: I=297 L=297 (optimal), 3797 cycles per iteration predicted.

Decisions (each from the schedule):
- x_tile_79 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%token_idx_29), which the analysis does not follow
- w_gate copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- w_up copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 8-warp producer with cp.async (x_tile_79, w_gate, w_up): their addresses and masks spread over 256 threads, 3-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- partition 0 (default): consumer, warp group 0, 4 warps, 176 registers per thread (needs about 65): the loop's compute, 1 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 176 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 2 (worker): producer, warp group 2, 8 warps, 72 registers per thread (needs about 72): cp.async copies into the rings
- ring x_tile_79: 3 buffers of [64, 64] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 1
- ring w_gate: 3 buffers of [128, 64] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 1
- ring w_up: 3 buffers of [128, 64] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 1
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 123056 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))

@gluon.jit
def consumer_0(x_ptr, gate_up_proj_ptr, x_gather_idx_ptr, expert_start_ptr, tile_row_start_ptr, tile_expert_ptr, pre_act_ptr, post_act_ptr, stride_x_T, stride_w_E, stride_w_N, stride_pre_TK, stride_post_TK, twill_g0, twill_g1, twill_g2, x_tile_79_buf, w_gate_buf, w_up_buf, x_tile_79_ready, x_tile_79_empty, w_gate_ready, w_gate_empty, w_up_ready, w_up_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_m = twill_pid0
        pid_n = twill_pid1
        row_start = tile_row_start_ptr + pid_m
        row_start_5 = gl.load(row_start)
        expert_idx = tile_expert_ptr + pid_m
        expert_idx_6 = gl.load(expert_idx)
        expert_idx_7 = gl.cast(expert_idx_6, gl.int64)
        n_start = pid_n * 128
        expert_end = expert_start_ptr + expert_idx_7
        expert_end_8 = expert_end + 1
        expert_end_9 = gl.load(expert_end_8)
        m_offs = gl.arange(0, 64, layout=L0)
        m_offs_11 = gl.arange(0, 64, layout=L1)
        n_offs = gl.arange(0, 128, layout=L0)
        row_offs_14 = row_start_5 + m_offs
        row_offs_16 = row_offs_14.to(gl.int64)
        row_mask = gl.cast(expert_end_9, gl.int64)
        row_mask_20 = row_offs_16 < row_mask
        n_idx_23 = n_start + n_offs
        n_mask_25 = n_idx_23 < 768
        x_tile = gl.expand_dims(row_mask_20, 1)
        x_tile_37 = x_tile.broadcast_to([64, 64])
        w_mask = gl.expand_dims(n_mask_25, 1)
        w_mask_38 = w_mask.broadcast_to([128, 64])
        twill_n = (2048 - 0 + 64 - 1) // 64
        for twill_b in range(0, twill_n):
            k_idx = (0 + (twill_b - 0) * 64)  # elementwise0_x_tile: stage 0, partition 0 (group 0)
            k_idx_72 = k_idx + m_offs_11  # elementwise0_x_tile: stage 0, partition 0 (group 0)
            k_mask = k_idx_72 < 2048  # elementwise0_x_tile: stage 0, partition 0 (group 0)
            x_tile_76 = gl.expand_dims(k_mask, 0)  # elementwise0_x_tile: stage 0, partition 0 (group 0)
            x_tile_77 = x_tile_76.broadcast_to([64, 64])  # elementwise0_x_tile: stage 0, partition 0 (group 0)
            x_tile_78 = x_tile_37 & x_tile_77  # elementwise0_x_tile: stage 0, partition 0 (group 0)
            w_mask_81 = x_tile_76.broadcast_to([128, 64])  # elementwise1_w_mask: stage 0, partition 0 (group 0)
            w_mask_82 = w_mask_38 & w_mask_81  # elementwise1_w_mask: stage 0, partition 0 (group 0)
        twill_base += twill_n

@gluon.jit
def consumer_1(x_ptr, gate_up_proj_ptr, x_gather_idx_ptr, expert_start_ptr, tile_row_start_ptr, tile_expert_ptr, pre_act_ptr, post_act_ptr, stride_x_T, stride_w_E, stride_w_N, stride_pre_TK, stride_post_TK, twill_g0, twill_g1, twill_g2, x_tile_79_buf, w_gate_buf, w_up_buf, x_tile_79_ready, x_tile_79_empty, w_gate_ready, w_gate_empty, w_up_ready, w_up_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_m = twill_pid0
        pid_n = twill_pid1
        row_start = tile_row_start_ptr + pid_m
        row_start_5 = gl.load(row_start)
        expert_idx = tile_expert_ptr + pid_m
        expert_idx_6 = gl.load(expert_idx)
        expert_idx_7 = gl.cast(expert_idx_6, gl.int64)
        n_start = pid_n * 128
        expert_end = expert_start_ptr + expert_idx_7
        expert_end_8 = expert_end + 1
        expert_end_9 = gl.load(expert_end_8)
        m_offs_10 = gl.arange(0, 64, layout=L2)
        n_offs_12 = gl.arange(0, 128, layout=L3)
        row_offs_15 = row_start_5 + m_offs_10
        row_offs_17 = row_offs_15.to(gl.int64)
        row_mask = gl.cast(expert_end_9, gl.int64)
        row_mask_21 = row_offs_17 < row_mask
        n_idx_24 = n_start + n_offs_12
        n_mask_26 = n_idx_24 < 768
        twill_n = (2048 - 0 + 64 - 1) // 64
        acc_gate_86 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        acc_up_90 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        acc_gate_86_p1 = acc_gate_86
        acc_up_90_p1 = acc_up_90
        for twill_b in range(0, twill_n):
            mbarrier.wait(x_tile_79_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            mbarrier.wait(w_gate_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            tok_acc_gate_86 = warpgroup_mma(x_tile_79_buf.index((twill_base + twill_b - 0) % 3), w_gate_buf.index((twill_base + twill_b - 0) % 3).permute((1, 0)), acc_gate_86_p1, is_async=True)  # dot0_acc_gate: stage 0, partition 1 (group 1)
            mbarrier.wait(w_up_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            tok_acc_up_90 = warpgroup_mma(x_tile_79_buf.index((twill_base + twill_b - 0) % 3), w_up_buf.index((twill_base + twill_b - 0) % 3).permute((1, 0)), acc_up_90_p1, is_async=True)  # dot1_acc_up: stage 0, partition 1 (group 1)
            acc_gate_86_p1, acc_up_90_p1 = warpgroup_mma_wait(2, deps=(acc_gate_86_p1, acc_up_90_p1,))
            mbarrier.arrive(w_gate_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(x_tile_79_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(w_up_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            acc_gate_86, acc_up_90 = warpgroup_mma_wait(2, deps=(tok_acc_gate_86, tok_acc_up_90,))
            acc_gate_86_p1 = acc_gate_86
            acc_up_90_p1 = acc_up_90
        acc_gate_86_p1, acc_up_90_p1 = warpgroup_mma_wait(0, deps=(acc_gate_86_p1, acc_up_90_p1,))
        x_tile_79_buf._keep_alive()
        w_gate_buf._keep_alive()
        w_up_buf._keep_alive()
        mbarrier.arrive(w_gate_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        mbarrier.arrive(x_tile_79_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        mbarrier.arrive(w_up_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        out_mask = gl.expand_dims(row_mask_21, 1)
        out_mask_48 = gl.expand_dims(n_mask_26, 0)
        out_mask_49 = out_mask.broadcast_to([64, 128])
        out_mask_50 = out_mask_48.broadcast_to([64, 128])
        out_mask_51 = out_mask_49 & out_mask_50
        pre_gate_ptrs = gl.expand_dims(row_offs_17, 1)
        pre_gate_ptrs_52 = gl.cast(stride_pre_TK, gl.int64)
        pre_gate_ptrs_54 = pre_gate_ptrs * pre_gate_ptrs_52
        pre_gate_ptrs_56 = pre_act_ptr + pre_gate_ptrs_54
        pre_gate_ptrs_57 = gl.expand_dims(n_idx_24, 0)
        pre_gate_ptrs_58 = pre_gate_ptrs_56.broadcast_to([64, 128])
        pre_gate_ptrs_59 = pre_gate_ptrs_57.broadcast_to([64, 128])
        pre_gate_ptrs_60 = pre_gate_ptrs_58 + pre_gate_ptrs_59
        pre_up_ptrs_61 = pre_gate_ptrs_60 + 768
        v0 = acc_gate_86_p1.to(gl.bfloat16)
        v1 = gl.convert_layout(v0, L5)
        gl.store(pre_gate_ptrs_60, v1, mask=out_mask_51)
        v2 = acc_up_90_p1.to(gl.bfloat16)
        v3 = gl.convert_layout(v2, L5)
        gl.store(pre_up_ptrs_61, v3, mask=out_mask_51)
        sig_gate = 0.0 - acc_gate_86_p1
        sig_gate_62 = gl.exp(sig_gate)
        sig_gate_63 = sig_gate_62 + 1.0
        sig_gate_64 = 1.0 / sig_gate_63
        silu_gate = acc_gate_86_p1 * sig_gate_64
        a_out = silu_gate * acc_up_90_p1
        post_ptrs = gl.cast(stride_post_TK, gl.int64)
        post_ptrs_66 = pre_gate_ptrs * post_ptrs
        post_ptrs_68 = post_act_ptr + post_ptrs_66
        post_ptrs_69 = post_ptrs_68.broadcast_to([64, 128])
        post_ptrs_70 = post_ptrs_69 + pre_gate_ptrs_59
        v4 = a_out.to(gl.bfloat16)
        v5 = gl.convert_layout(v4, L5)
        gl.store(post_ptrs_70, v5, mask=out_mask_51)
        twill_base += twill_n

@gluon.jit
def producer_2(x_ptr, gate_up_proj_ptr, x_gather_idx_ptr, expert_start_ptr, tile_row_start_ptr, tile_expert_ptr, pre_act_ptr, post_act_ptr, stride_x_T, stride_w_E, stride_w_N, stride_pre_TK, stride_post_TK, twill_g0, twill_g1, twill_g2, x_tile_79_buf, w_gate_buf, w_up_buf, x_tile_79_ready, x_tile_79_empty, w_gate_ready, w_gate_empty, w_up_ready, w_up_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_m = twill_pid0
        pid_n = twill_pid1
        row_start = tile_row_start_ptr + pid_m
        row_start_5 = gl.load(row_start)
        expert_idx = tile_expert_ptr + pid_m
        expert_idx_6 = gl.load(expert_idx)
        expert_idx_7 = gl.cast(expert_idx_6, gl.int64)
        n_start = pid_n * 128
        expert_end = expert_start_ptr + expert_idx_7
        expert_end_8 = expert_end + 1
        expert_end_9 = gl.load(expert_end_8)
        m_offs = gl.arange(0, 64, layout=L6)
        m_offs_11 = gl.arange(0, 64, layout=L7)
        n_offs = gl.arange(0, 128, layout=L6)
        row_offs_14 = row_start_5 + m_offs
        row_offs_16 = row_offs_14.to(gl.int64)
        row_mask = gl.cast(expert_end_9, gl.int64)
        row_mask_20 = row_offs_16 < row_mask
        n_idx_23 = n_start + n_offs
        n_mask_25 = n_idx_23 < 768
        token_idx_28 = x_gather_idx_ptr + row_offs_16
        token_idx_29 = gl.load(token_idx_28, mask=row_mask_20, other=0)
        token_idx_30 = token_idx_29.to(gl.int64)
        x_ptrs = gl.expand_dims(token_idx_30, 1)
        x_ptrs_31 = gl.cast(stride_x_T, gl.int64)
        x_ptrs_33 = x_ptrs * x_ptrs_31
        x_ptrs_35 = x_ptr + x_ptrs_33
        x_ptrs_36 = x_ptrs_35.broadcast_to([64, 64])
        x_tile = gl.expand_dims(row_mask_20, 1)
        x_tile_37 = x_tile.broadcast_to([64, 64])
        w_mask = gl.expand_dims(n_mask_25, 1)
        w_mask_38 = w_mask.broadcast_to([128, 64])
        w_gate_ptrs = gl.cast(stride_w_E, gl.int64)
        w_gate_ptrs_39 = expert_idx_7 * w_gate_ptrs
        w_gate_ptrs_40 = gate_up_proj_ptr + w_gate_ptrs_39
        w_gate_ptrs_41 = gl.expand_dims(n_idx_23, 1)
        w_gate_ptrs_43 = w_gate_ptrs_41 * stride_w_N
        w_gate_ptrs_45 = w_gate_ptrs_40 + w_gate_ptrs_43
        w_gate_ptrs_46 = w_gate_ptrs_45.broadcast_to([128, 64])
        w_up_ptrs = stride_w_N * 768
        for acc_up_71 in range(0, 2048, 64):
            twill_k = twill_base + (acc_up_71 - 0) // 64
            k_idx_72 = acc_up_71 + m_offs_11
            k_mask = k_idx_72 < 2048
            x_ptrs_73 = gl.expand_dims(k_idx_72, 0)
            x_ptrs_74 = x_ptrs_73.broadcast_to([64, 64])
            x_ptrs_75 = x_ptrs_36 + x_ptrs_74
            x_tile_76 = gl.expand_dims(k_mask, 0)
            x_tile_77 = x_tile_76.broadcast_to([64, 64])
            x_tile_78 = x_tile_37 & x_tile_77
            w_mask_81 = x_tile_76.broadcast_to([128, 64])
            w_mask_82 = w_mask_38 & w_mask_81
            w_gate_ptrs_83 = x_ptrs_73.broadcast_to([128, 64])
            w_gate_ptrs_84 = w_gate_ptrs_46 + w_gate_ptrs_83
            w_up_ptrs_87 = w_gate_ptrs_84 + w_up_ptrs
            mbarrier.wait(x_tile_79_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_tile_79_buf.index(twill_k % 3), x_ptrs_75, mask=x_tile_78, eviction_policy='evict_first')  # load0_x_tile: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(x_tile_79_ready.index(twill_k % 3), increment_count=False)
            else:
                x_tile_79_buf.index(twill_k % 3).store(gl.load(x_ptrs_75, mask=x_tile_78, other=0.0, eviction_policy='evict_first'))  # load0_x_tile: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_tile_79_ready.index(twill_k % 3), count=256)
            mbarrier.wait(w_gate_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(w_gate_buf.index(twill_k % 3), w_gate_ptrs_84, mask=w_mask_82)  # load1_w_gate: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(w_gate_ready.index(twill_k % 3), increment_count=False)
            else:
                w_gate_buf.index(twill_k % 3).store(gl.load(w_gate_ptrs_84, mask=w_mask_82, other=0.0))  # load1_w_gate: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(w_gate_ready.index(twill_k % 3), count=256)
            mbarrier.wait(w_up_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(w_up_buf.index(twill_k % 3), w_up_ptrs_87, mask=w_mask_82)  # load2_w_up: stage 0, partition 2 (group 2)
                async_copy.mbarrier_arrive(w_up_ready.index(twill_k % 3), increment_count=False)
            else:
                w_up_buf.index(twill_k % 3).store(gl.load(w_up_ptrs_87, mask=w_mask_82, other=0.0))  # load2_w_up: stage 0, partition 2 (group 2)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(w_up_ready.index(twill_k % 3), count=256)
        twill_base += (2048 - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(x_ptr, gate_up_proj_ptr, x_gather_idx_ptr, expert_start_ptr, tile_row_start_ptr, tile_expert_ptr, pre_act_ptr, post_act_ptr, stride_x_T, stride_w_E, stride_w_N, stride_pre_TK, stride_post_TK, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    x_tile_79_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_gate_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_up_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_tile_79_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_tile_79_ready.index(i), count=256)
    x_tile_79_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_tile_79_empty.index(i), count=1)
    w_gate_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(w_gate_ready.index(i), count=256)
    w_gate_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(w_gate_empty.index(i), count=1)
    w_up_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(w_up_ready.index(i), count=256)
    w_up_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(w_up_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, gate_up_proj_ptr, x_gather_idx_ptr, expert_start_ptr, tile_row_start_ptr, tile_expert_ptr, pre_act_ptr, post_act_ptr, stride_x_T, stride_w_E, stride_w_N, stride_pre_TK, stride_post_TK, twill_g0, twill_g1, twill_g2, x_tile_79_buf, w_gate_buf, w_up_buf, x_tile_79_ready, x_tile_79_empty, w_gate_ready, w_gate_empty, w_up_ready, w_up_empty, TWILL_COPY)),
        (consumer_1, (x_ptr, gate_up_proj_ptr, x_gather_idx_ptr, expert_start_ptr, tile_row_start_ptr, tile_expert_ptr, pre_act_ptr, post_act_ptr, stride_x_T, stride_w_E, stride_w_N, stride_pre_TK, stride_post_TK, twill_g0, twill_g1, twill_g2, x_tile_79_buf, w_gate_buf, w_up_buf, x_tile_79_ready, x_tile_79_empty, w_gate_ready, w_gate_empty, w_up_ready, w_up_empty, TWILL_COPY)),
        (producer_2, (x_ptr, gate_up_proj_ptr, x_gather_idx_ptr, expert_start_ptr, tile_row_start_ptr, tile_expert_ptr, pre_act_ptr, post_act_ptr, stride_x_T, stride_w_E, stride_w_N, stride_pre_TK, stride_post_TK, twill_g0, twill_g1, twill_g2, x_tile_79_buf, w_gate_buf, w_up_buf, x_tile_79_ready, x_tile_79_empty, w_gate_ready, w_gate_empty, w_up_ready, w_up_empty, TWILL_COPY)),
    ], [4, 8], [176, 72])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'gate_up_proj_ptr', 'x_gather_idx_ptr', 'expert_start_ptr', 'tile_row_start_ptr', 'tile_expert_ptr', 'pre_act_ptr', 'post_act_ptr', 'H_dim', 'I_dim', 'stride_x_T', 'stride_x_H', 'stride_w_E', 'stride_w_N', 'stride_w_K', 'stride_pre_TK', 'stride_pre_N', 'stride_post_TK', 'stride_post_N', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'gate_up_proj_ptr', 'x_gather_idx_ptr', 'expert_start_ptr', 'tile_row_start_ptr', 'tile_expert_ptr', 'pre_act_ptr', 'post_act_ptr', 'stride_x_T', 'stride_w_E', 'stride_w_N', 'stride_pre_TK', 'stride_post_TK', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'gate_up_proj_ptr', 'x_gather_idx_ptr', 'expert_start_ptr', 'tile_row_start_ptr', 'tile_expert_ptr', 'pre_act_ptr', 'post_act_ptr', 'stride_x_T', 'stride_w_E', 'stride_w_N', 'stride_pre_TK', 'stride_post_TK', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'H_dim': 2048, 'I_dim': 768, 'stride_x_H': 1, 'stride_w_K': 1, 'stride_pre_N': 1, 'stride_post_N': 1, 'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['x_ptr', 'gate_up_proj_ptr', 'stride_x_T', 'stride_w_E', 'stride_w_N']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
