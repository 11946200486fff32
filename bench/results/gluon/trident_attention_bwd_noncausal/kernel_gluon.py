"""attention_backward, written by twill from its joint schedule: I=170 L=277 (optimal), 1862 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (grad_query_90_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- the consumers' pointer loads in their readers' stage: a stage ahead, ptxas spills registers (7244 bytes stored, 8184 loaded, 1043 spill instructions in the loop)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 2 stages), so no warp_specialize: 2 warps, registers as ptxas allocates them (the schedule's tiles need about 297 per thread)
- shared operand grad_value_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand grad_key_84_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 49168 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[2, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[2, 1], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[2], order=[0]))
L3 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 8], [0, 16], [0, 32], [8, 0], [16, 0], [32, 0]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[[0, 0]], block_bases=[], shape=[64, 64]))
L4 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 1], instr_shape=[16, 8]), k_width=2))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 1], instr_shape=[16, 8]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 1], instr_shape=[16, 8])))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 1], instr_shape=[16, 8]), k_width=2))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[2, 16], warps_per_cta=[2, 1], order=[1, 0])))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[2, 1], order=[1, 0]))

@gluon.jit
def consumer_0(grad_query_ptr, grad_key_ptr, grad_value_ptr, grad_output_ptr, query_ptr, key_ptr, value_ptr, y_size, x_size, head_stride, y_stride, output_ptr, log2sum_ptr, delta_ptr, dropout_p, softmax_scale, TWILL_COPY: gl.constexpr):
    twill_base = 0
    pid = gl.program_id(0)
    grad_key_ptr_8 = pid * head_stride
    grad_key_ptr_9 = grad_key_ptr + grad_key_ptr_8
    grad_value_ptr_10 = grad_value_ptr + grad_key_ptr_8
    key_ptr_11 = key_ptr + grad_key_ptr_8
    value_ptr_12 = value_ptr + grad_key_ptr_8
    score_scale = softmax_scale * 1.44269502
    n_strides = gl.arange(0, 64, layout=L0)
    n_strides_13 = gl.arange(0, 64, layout=L1)
    n_strides_14 = gl.arange(0, 64, layout=L2)
    grad_query_block_ptr = grad_query_ptr + grad_key_ptr_8
    grad_query_block_ptr_17 = gl.cast(y_stride, gl.int64)
    grad_output_block_ptr = grad_output_ptr + grad_key_ptr_8
    query_block_ptr = query_ptr + grad_key_ptr_8
    output_block_ptr = output_ptr + grad_key_ptr_8
    log2sum_block_ptr = pid * y_size
    log2sum_block_ptr_18 = log2sum_ptr + log2sum_block_ptr
    delta_block_ptr = delta_ptr + log2sum_block_ptr
    ptr_offsets = gl.expand_dims(n_strides_13, 0)
    ptr_offsets_19 = ptr_offsets.broadcast_to([64, 64])
    query_20 = n_strides.to(gl.int64)
    query_21 = n_strides_13.to(gl.int64)
    query_22 = n_strides_14.to(gl.int64)
    query_24 = gl.expand_dims(query_21, 0)
    query_25 = query_24.broadcast_to([64, 64])
    v0 = dropout_p > 2.22044605e-16
    num_y_blocks_6 = y_size + 63
    num_y_blocks_7 = num_y_blocks_6 // 64
    n_strides_16 = n_strides * y_stride
    n_strides_30 = n_strides_16
    twill_tile_lb = 0
    twill_tile_step = 1
    for n_strides_29 in range(twill_tile_lb, num_y_blocks_7, twill_tile_step):
        ptr_offsets_31 = gl.expand_dims(n_strides_30, 1)
        ptr_offsets_32 = ptr_offsets_31.broadcast_to([64, 64])
        ptr_offsets_33 = ptr_offsets_32 + ptr_offsets_19
        key_34 = key_ptr_11 + ptr_offsets_33
        key_35 = gl.load(key_34)
        score_36 = gl.convert_layout(key_35, L3)
        value_37 = value_ptr_12 + ptr_offsets_33
        value_38 = gl.load(value_37)
        grad_alpha = gl.convert_layout(value_38, L3)
        score_39 = gl.convert_layout(gl.permute(score_36, (1, 0)), L4)
        grad_alpha_40 = gl.convert_layout(gl.permute(grad_alpha, (1, 0)), L4)
        key_41_sm = gl.allocate_shared_memory(gl.float16, [64, 64], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]), key_35)  # held here, not in registers: [64, 64] f16 for the loop's mma.sync
        gl.thread_barrier()
        twill_n = (y_size - 0 + 64 - 1) // 64
        grad_query_90_as = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
        grad_value_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
        grad_key_84_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
        grad_query_block_ptr_94 = gl.to_tensor(0).to(gl.int64)
        grad_query_block_ptr_94_p1 = grad_query_block_ptr_94
        grad_value_71 = gl.full([64, 64], 0.0, gl.float16, layout=L5)
        grad_key_88 = gl.full([64, 64], 0.0, gl.float16, layout=L5)
        grad_query_block_ptr_94 = grad_query_block_ptr_94_p1 + 64  # load0_query: stage 0, partition 0 (group 0)
        log2sum_57 = grad_query_block_ptr_94_p1  # load1_log2sum: stage 0, partition 0 (group 0)
        log2sum_58 = log2sum_57 + query_22  # load1_log2sum: stage 0, partition 0 (group 0)
        delta_72 = delta_block_ptr + log2sum_58  # load3_delta: stage 0, partition 0 (group 0)
        delta_73 = gl.load(delta_72)  # load3_delta: stage 0, partition 0 (group 0)
        log2sum_59 = log2sum_block_ptr_18 + log2sum_58  # load1_log2sum: stage 0, partition 0 (group 0)
        log2sum_60 = gl.load(log2sum_59)  # load1_log2sum: stage 0, partition 0 (group 0)
        alpha = gl.convert_layout(log2sum_60, L6)  # convert2_alpha: stage 0, partition 0 (group 0)
        query_44 = grad_query_block_ptr_94_p1  # load0_query: stage 0, partition 0 (group 0)
        query_45 = query_44 + query_20  # load0_query: stage 0, partition 0 (group 0)
        query_46 = gl.expand_dims(query_45, 1)  # load0_query: stage 0, partition 0 (group 0)
        query_47 = query_46 * grad_query_block_ptr_17  # load0_query: stage 0, partition 0 (group 0)
        query_48 = query_47.broadcast_to([64, 64])  # load0_query: stage 0, partition 0 (group 0)
        query_49 = query_48 + query_25  # load0_query: stage 0, partition 0 (group 0)
        query_50 = query_block_ptr + query_49  # load0_query: stage 0, partition 0 (group 0)
        query_51 = gl.load(query_50)  # load0_query: stage 0, partition 0 (group 0)
        query_52 = gl.convert_layout(query_51, L7)  # convert0_query: stage 0, partition 0 (group 0)
        score_53 = mma_v2(query_52, score_39, gl.full([64, 64], 0.0, gl.float16, layout=L5))  # dot0_score: stage 0, partition 0 (group 0)
        score_54 = score_53.to(gl.float32)  # convert1_score: stage 0, partition 0 (group 0)
        alpha_61 = gl.expand_dims(alpha, 1)  # convert3_alpha: stage 0, partition 0 (group 0)
        alpha_62 = alpha_61.to(gl.float32)  # convert3_alpha: stage 0, partition 0 (group 0)
        grad_output_67 = grad_output_block_ptr + query_49  # load2_grad_output: stage 0, partition 0 (group 0)
        grad_output_68 = gl.load(grad_output_67)  # load2_grad_output: stage 0, partition 0 (group 0)
        if v0:  # elementwise0: stage 0, partition 0 (group 0)
            output_95 = output_block_ptr + query_49  # elementwise0: stage 0, partition 0 (group 0)
            output_96 = gl.load(output_95)  # elementwise0: stage 0, partition 0 (group 0)
            dropout_scale = 1.0 - dropout_p  # elementwise0: stage 0, partition 0 (group 0)
            dropout_scale_97 = dropout_scale + 2.22044605e-16  # elementwise0: stage 0, partition 0 (group 0)
            grad_dropout = output_96.to(gl.float32)  # elementwise0: stage 0, partition 0 (group 0)
            grad_dropout_98 = grad_dropout > 0.0  # elementwise0: stage 0, partition 0 (group 0)
            grad_dropout_100 = gl.where(grad_dropout_98, dropout_scale_97, 0.0)  # elementwise0: stage 0, partition 0 (group 0)
            grad_dropout_101 = grad_dropout_100.to(gl.float16)  # elementwise0: stage 0, partition 0 (group 0)
            grad_output_102 = grad_output_68 * grad_dropout_101  # elementwise0: stage 0, partition 0 (group 0)
            v7 = grad_output_102  # elementwise0: stage 0, partition 0 (group 0)
        else:  # elementwise0: stage 0, partition 0 (group 0)
            v7 = grad_output_68  # elementwise0: stage 0, partition 0 (group 0)
        score_55 = score_54 * score_scale  # sfu0_alpha: stage 0, partition 0 (group 0)
        score_56 = score_55 + 0.0  # sfu0_alpha: stage 0, partition 0 (group 0)
        alpha_63 = alpha_62.broadcast_to([64, 64])  # sfu0_alpha: stage 0, partition 0 (group 0)
        alpha_64 = score_56 - alpha_63  # sfu0_alpha: stage 0, partition 0 (group 0)
        alpha_65 = gl.exp2(alpha_64)  # sfu0_alpha: stage 0, partition 0 (group 0)
        grad_query_89 = grad_query_block_ptr + query_49  # load4_grad_query: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load4_grad_query: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(grad_query_90_as.index((twill_base + 0 - 0) % 2), grad_query_89)  # load4_grad_query: stage 0, partition 0 (group 0)
        else:  # load4_grad_query: stage 0, partition 0 (group 0)
            grad_query_90_as.index((twill_base + 0 - 0) % 2).store(gl.load(grad_query_89))  # load4_grad_query: stage 0, partition 0 (group 0)
        alpha_66 = alpha_65.to(gl.float16)  # convert4_alpha: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        alpha_66_p1 = alpha_66
        delta_73_p1 = delta_73
        grad_key_88_p1 = grad_key_88
        grad_query_89_p1 = grad_query_89
        grad_query_block_ptr_94_p1 = grad_query_block_ptr_94
        grad_value_71_p1 = grad_value_71
        query_51_p1 = query_51
        v7_p1 = v7
        for twill_b in range(1, twill_n):
            grad_query_block_ptr_94 = grad_query_block_ptr_94_p1 + 64  # load0_query: stage 0, partition 0 (group 0)
            log2sum_57 = grad_query_block_ptr_94_p1  # load1_log2sum: stage 0, partition 0 (group 0)
            log2sum_58 = log2sum_57 + query_22  # load1_log2sum: stage 0, partition 0 (group 0)
            delta_72 = delta_block_ptr + log2sum_58  # load3_delta: stage 0, partition 0 (group 0)
            delta_73 = gl.load(delta_72)  # load3_delta: stage 0, partition 0 (group 0)
            grad_alpha_74 = gl.convert_layout(delta_73_p1, L8)  # convert6_grad_alpha: stage 1, partition 0 (group 0)
            grad_alpha_75 = gl.expand_dims(grad_alpha_74, 1)  # elementwise1_grad_alpha: stage 1, partition 0 (group 0)
            grad_alpha_76 = 0.0 - grad_alpha_75  # elementwise1_grad_alpha: stage 1, partition 0 (group 0)
            grad_alpha_77 = gl.convert_layout(grad_alpha_76, L5)  # convert7_grad_alpha: stage 1, partition 0 (group 0)
            v9 = gl.convert_layout(v7_p1, L7)  # convert8: stage 1, partition 0 (group 0)
            query_87 = gl.convert_layout(query_51_p1, L4)  # convert11_query: stage 1, partition 0 (group 0)
            grad_value = grad_value_st.index((twill_b - 1) % 2)  # local_store0_grad_value: stage 1, partition 0 (group 0)
            grad_value.store(alpha_66_p1)  # local_store0_grad_value: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_grad_value: stage 1, partition 0 (group 0)
            grad_alpha_78 = grad_alpha_77.broadcast_to([64, 64])  # dot2_grad_alpha: stage 1, partition 0 (group 0)
            grad_alpha_79 = mma_v2(v9, grad_alpha_40, grad_alpha_78)  # dot2_grad_alpha: stage 1, partition 0 (group 0)
            v8 = gl.convert_layout(v7_p1, L4)  # convert5: stage 1, partition 0 (group 0)
            grad_value_69 = grad_value.permute((1, 0))  # local_load0_grad_value: stage 1, partition 0 (group 0)
            grad_value_70 = grad_value_69.load(L7)  # local_load0_grad_value: stage 1, partition 0 (group 0)
            log2sum_59 = log2sum_block_ptr_18 + log2sum_58  # load1_log2sum: stage 0, partition 0 (group 0)
            log2sum_60 = gl.load(log2sum_59)  # load1_log2sum: stage 0, partition 0 (group 0)
            alpha = gl.convert_layout(log2sum_60, L6)  # convert2_alpha: stage 0, partition 0 (group 0)
            grad_softmax_80 = alpha_66_p1 * grad_alpha_79  # elementwise2_grad_softmax: stage 1, partition 0 (group 0)
            grad_value_71 = mma_v2(grad_value_70, v8, grad_value_71_p1)  # dot1_grad_value: stage 1, partition 0 (group 0)
            grad_softmax_81 = grad_softmax_80.to(gl.float32)  # convert9_grad_softmax: stage 1, partition 0 (group 0)
            grad_softmax_82 = grad_softmax_81 * softmax_scale  # elementwise3_grad_softmax: stage 1, partition 0 (group 0)
            grad_softmax_83 = grad_softmax_82.to(gl.float16)  # convert10_grad_softmax: stage 1, partition 0 (group 0)
            grad_softmax_92 = gl.convert_layout(grad_softmax_83, L7)  # convert13_grad_softmax: stage 1, partition 0 (group 0)
            query_44 = grad_query_block_ptr_94_p1  # load0_query: stage 0, partition 0 (group 0)
            query_45 = query_44 + query_20  # load0_query: stage 0, partition 0 (group 0)
            query_46 = gl.expand_dims(query_45, 1)  # load0_query: stage 0, partition 0 (group 0)
            query_47 = query_46 * grad_query_block_ptr_17  # load0_query: stage 0, partition 0 (group 0)
            query_48 = query_47.broadcast_to([64, 64])  # load0_query: stage 0, partition 0 (group 0)
            query_49 = query_48 + query_25  # load0_query: stage 0, partition 0 (group 0)
            query_50 = query_block_ptr + query_49  # load0_query: stage 0, partition 0 (group 0)
            query_51 = gl.load(query_50)  # load0_query: stage 0, partition 0 (group 0)
            query_52 = gl.convert_layout(query_51, L7)  # convert0_query: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            grad_query_90 = grad_query_90_as.index((twill_base + twill_b - 1) % 2).load(L5)  # load4_grad_query: stage 1, partition 0 (group 0)
            grad_query_91 = gl.convert_layout(grad_query_90, L5)  # convert12_grad_query: stage 1, partition 0 (group 0)
            score_53 = mma_v2(query_52, score_39, gl.full([64, 64], 0.0, gl.float16, layout=L5))  # dot0_score: stage 0, partition 0 (group 0)
            grad_key_84 = grad_key_84_st.index((twill_b - 1) % 2)  # local_store1_grad_key: stage 1, partition 0 (group 0)
            grad_key_84.store(grad_softmax_83)  # local_store1_grad_key: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store1_grad_key: stage 1, partition 0 (group 0)
            grad_key_85 = grad_key_84.permute((1, 0))  # local_load1_grad_key: stage 1, partition 0 (group 0)
            grad_key_86 = grad_key_85.load(L7)  # local_load1_grad_key: stage 1, partition 0 (group 0)
            score_54 = score_53.to(gl.float32)  # convert1_score: stage 0, partition 0 (group 0)
            grad_query_93 = mma_v2(grad_softmax_92, key_41_sm.load(L4), grad_query_91)  # dot4_grad_query: stage 1, partition 0 (group 0)
            v10 = gl.convert_layout(grad_query_93, L9)  # convert14: stage 1, partition 0 (group 0)
            grad_key_88 = mma_v2(grad_key_86, query_87, grad_key_88_p1)  # dot3_grad_key: stage 1, partition 0 (group 0)
            gl.store(grad_query_89_p1, v10)  # store0: stage 1, partition 0 (group 0)
            alpha_61 = gl.expand_dims(alpha, 1)  # convert3_alpha: stage 0, partition 0 (group 0)
            alpha_62 = alpha_61.to(gl.float32)  # convert3_alpha: stage 0, partition 0 (group 0)
            grad_output_67 = grad_output_block_ptr + query_49  # load2_grad_output: stage 0, partition 0 (group 0)
            grad_output_68 = gl.load(grad_output_67)  # load2_grad_output: stage 0, partition 0 (group 0)
            if v0:  # elementwise0: stage 0, partition 0 (group 0)
                output_95 = output_block_ptr + query_49  # elementwise0: stage 0, partition 0 (group 0)
                output_96 = gl.load(output_95)  # elementwise0: stage 0, partition 0 (group 0)
                dropout_scale = 1.0 - dropout_p  # elementwise0: stage 0, partition 0 (group 0)
                dropout_scale_97 = dropout_scale + 2.22044605e-16  # elementwise0: stage 0, partition 0 (group 0)
                grad_dropout = output_96.to(gl.float32)  # elementwise0: stage 0, partition 0 (group 0)
                grad_dropout_98 = grad_dropout > 0.0  # elementwise0: stage 0, partition 0 (group 0)
                grad_dropout_100 = gl.where(grad_dropout_98, dropout_scale_97, 0.0)  # elementwise0: stage 0, partition 0 (group 0)
                grad_dropout_101 = grad_dropout_100.to(gl.float16)  # elementwise0: stage 0, partition 0 (group 0)
                grad_output_102 = grad_output_68 * grad_dropout_101  # elementwise0: stage 0, partition 0 (group 0)
                v7 = grad_output_102  # elementwise0: stage 0, partition 0 (group 0)
            else:  # elementwise0: stage 0, partition 0 (group 0)
                v7 = grad_output_68  # elementwise0: stage 0, partition 0 (group 0)
            score_55 = score_54 * score_scale  # sfu0_alpha: stage 0, partition 0 (group 0)
            score_56 = score_55 + 0.0  # sfu0_alpha: stage 0, partition 0 (group 0)
            alpha_63 = alpha_62.broadcast_to([64, 64])  # sfu0_alpha: stage 0, partition 0 (group 0)
            alpha_64 = score_56 - alpha_63  # sfu0_alpha: stage 0, partition 0 (group 0)
            alpha_65 = gl.exp2(alpha_64)  # sfu0_alpha: stage 0, partition 0 (group 0)
            grad_query_89 = grad_query_block_ptr + query_49  # load4_grad_query: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load4_grad_query: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(grad_query_90_as.index((twill_base + twill_b - 0) % 2), grad_query_89)  # load4_grad_query: stage 0, partition 0 (group 0)
            else:  # load4_grad_query: stage 0, partition 0 (group 0)
                grad_query_90_as.index((twill_base + twill_b - 0) % 2).store(gl.load(grad_query_89))  # load4_grad_query: stage 0, partition 0 (group 0)
            alpha_66 = alpha_65.to(gl.float16)  # convert4_alpha: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            alpha_66_p1 = alpha_66
            delta_73_p1 = delta_73
            grad_key_88_p1 = grad_key_88
            grad_query_89_p1 = grad_query_89
            grad_query_block_ptr_94_p1 = grad_query_block_ptr_94
            grad_value_71_p1 = grad_value_71
            query_51_p1 = query_51
            v7_p1 = v7
        grad_alpha_74 = gl.convert_layout(delta_73_p1, L8)  # convert6_grad_alpha: stage 1, partition 0 (group 0)
        grad_alpha_75 = gl.expand_dims(grad_alpha_74, 1)  # elementwise1_grad_alpha: stage 1, partition 0 (group 0)
        grad_alpha_76 = 0.0 - grad_alpha_75  # elementwise1_grad_alpha: stage 1, partition 0 (group 0)
        grad_alpha_77 = gl.convert_layout(grad_alpha_76, L5)  # convert7_grad_alpha: stage 1, partition 0 (group 0)
        v9 = gl.convert_layout(v7_p1, L7)  # convert8: stage 1, partition 0 (group 0)
        query_87 = gl.convert_layout(query_51_p1, L4)  # convert11_query: stage 1, partition 0 (group 0)
        grad_value = grad_value_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_grad_value: stage 1, partition 0 (group 0)
        grad_value.store(alpha_66_p1)  # local_store0_grad_value: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_grad_value: stage 1, partition 0 (group 0)
        grad_alpha_78 = grad_alpha_77.broadcast_to([64, 64])  # dot2_grad_alpha: stage 1, partition 0 (group 0)
        grad_alpha_79 = mma_v2(v9, grad_alpha_40, grad_alpha_78)  # dot2_grad_alpha: stage 1, partition 0 (group 0)
        v8 = gl.convert_layout(v7_p1, L4)  # convert5: stage 1, partition 0 (group 0)
        grad_value_69 = grad_value.permute((1, 0))  # local_load0_grad_value: stage 1, partition 0 (group 0)
        grad_value_70 = grad_value_69.load(L7)  # local_load0_grad_value: stage 1, partition 0 (group 0)
        grad_softmax_80 = alpha_66_p1 * grad_alpha_79  # elementwise2_grad_softmax: stage 1, partition 0 (group 0)
        grad_value_71 = mma_v2(grad_value_70, v8, grad_value_71_p1)  # dot1_grad_value: stage 1, partition 0 (group 0)
        grad_softmax_81 = grad_softmax_80.to(gl.float32)  # convert9_grad_softmax: stage 1, partition 0 (group 0)
        grad_softmax_82 = grad_softmax_81 * softmax_scale  # elementwise3_grad_softmax: stage 1, partition 0 (group 0)
        grad_softmax_83 = grad_softmax_82.to(gl.float16)  # convert10_grad_softmax: stage 1, partition 0 (group 0)
        grad_softmax_92 = gl.convert_layout(grad_softmax_83, L7)  # convert13_grad_softmax: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        grad_query_90 = grad_query_90_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L5)  # load4_grad_query: stage 1, partition 0 (group 0)
        grad_query_91 = gl.convert_layout(grad_query_90, L5)  # convert12_grad_query: stage 1, partition 0 (group 0)
        grad_key_84 = grad_key_84_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store1_grad_key: stage 1, partition 0 (group 0)
        grad_key_84.store(grad_softmax_83)  # local_store1_grad_key: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store1_grad_key: stage 1, partition 0 (group 0)
        grad_key_85 = grad_key_84.permute((1, 0))  # local_load1_grad_key: stage 1, partition 0 (group 0)
        grad_key_86 = grad_key_85.load(L7)  # local_load1_grad_key: stage 1, partition 0 (group 0)
        grad_query_93 = mma_v2(grad_softmax_92, key_41_sm.load(L4), grad_query_91)  # dot4_grad_query: stage 1, partition 0 (group 0)
        v10 = gl.convert_layout(grad_query_93, L9)  # convert14: stage 1, partition 0 (group 0)
        grad_key_88 = mma_v2(grad_key_86, query_87, grad_key_88_p1)  # dot3_grad_key: stage 1, partition 0 (group 0)
        gl.store(grad_query_89_p1, v10)  # store0: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        alpha_66_p1 = alpha_66
        delta_73_p1 = delta_73
        grad_key_88_p1 = grad_key_88
        grad_query_89_p1 = grad_query_89
        grad_query_block_ptr_94_p2 = grad_query_block_ptr_94_p1
        grad_query_block_ptr_94_p1 = grad_query_block_ptr_94
        grad_value_71_p1 = grad_value_71
        query_51_p1 = query_51
        v7_p1 = v7
        v3 = grad_key_ptr_9 + ptr_offsets_33
        v4 = gl.convert_layout(grad_key_88_p1, L9)
        gl.store(v3, v4)
        v5 = grad_value_ptr_10 + ptr_offsets_33
        v6 = gl.convert_layout(grad_value_71_p1, L9)
        gl.store(v5, v6)
        n_strides_26 = y_stride * 64
        n_strides_42 = n_strides_30 + n_strides_26
        n_strides_30 = n_strides_42
        twill_base += twill_n

@gluon.jit
def twill_kernel(grad_query_ptr, grad_key_ptr, grad_value_ptr, grad_output_ptr, query_ptr, key_ptr, value_ptr, y_size, x_size, head_stride, y_stride, output_ptr, log2sum_ptr, delta_ptr, dropout_p, softmax_scale, TWILL_COPY: gl.constexpr):
    consumer_0(grad_query_ptr, grad_key_ptr, grad_value_ptr, grad_output_ptr, query_ptr, key_ptr, value_ptr, y_size, x_size, head_stride, y_stride, output_ptr, log2sum_ptr, delta_ptr, dropout_p, softmax_scale, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['grad_query_ptr', 'grad_key_ptr', 'grad_value_ptr', 'grad_mask_ptr', 'grad_output_ptr', 'query_ptr', 'key_ptr', 'value_ptr', 'y_size', 'x_size', 'head_stride', 'y_stride', 'x_stride', 'mask_ptr', 'mask_head_stride', 'mask_y_stride', 'mask_x_stride', 'output_ptr', 'log2sum_ptr', 'delta_ptr', 'dropout_p', 'is_causal', 'softmax_scale', 'use_accelerator', 'dtype', 'y_block_size', 'x_block_size']          # the Triton kernel's parameters, in order
RUNTIME = ['grad_query_ptr', 'grad_key_ptr', 'grad_value_ptr', 'grad_output_ptr', 'query_ptr', 'key_ptr', 'value_ptr', 'y_size', 'x_size', 'head_stride', 'y_stride', 'output_ptr', 'log2sum_ptr', 'delta_ptr', 'dropout_p', 'softmax_scale']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['grad_query_ptr', 'grad_key_ptr', 'grad_value_ptr', 'grad_mask_ptr', 'grad_output_ptr', 'query_ptr', 'key_ptr', 'value_ptr', 'y_size', 'x_size', 'head_stride', 'y_stride', 'mask_ptr', 'output_ptr', 'log2sum_ptr', 'delta_ptr', 'dropout_p', 'softmax_scale', 'dtype']   # the arguments a launch key reads
CONSTEXPRS = {'x_stride': 1, 'mask_head_stride': 0, 'mask_y_stride': 0, 'mask_x_stride': 0, 'is_causal': False, 'use_accelerator': True, 'y_block_size': 64, 'x_block_size': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 2
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['grad_query_ptr', 'head_stride', 'y_stride']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(y_size + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((y_size + 64 - 1) // 64): run the Triton kernel for it")
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
