"""kmeans_centroid_update_kernel, written by twill from its joint schedule: I=195 L=270 (optimal), 920 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (x_62_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 97 per thread)
- shared memory: 16400 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's
- timed at launch: the same loop in one stage, `twill_kernel_short` (I=270 optimal among one-stage schedules, ptxas 165 registers, 3 CTA(s) an SM against this kernel's 2 at 230), beside this pipelined kernel; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 139-142 and 219: one stage x0.44-1.20 of the pipelined kernel's speed over eighteen loops; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L10 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))

@gluon.jit
def consumer_0(x_ptr, ids_ptr, counts_ptr, psum_ptr, pcnt_ptr, n_chunks, chunks_per_split, D, stride_x, TWILL_COPY: gl.constexpr):
    twill_base = 0
    pid_d = gl.program_id(0)
    split = gl.program_id(1)
    offs_d = pid_d * 64
    offs_d_3 = gl.arange(0, 64, layout=L0)
    offs_d_4 = gl.arange(0, 64, layout=L1)
    offs_d_5 = gl.arange(0, 64, layout=L2)
    offs_d_6 = gl.arange(0, 64, layout=L3)
    offs_d_9 = offs_d + offs_d_4
    offs_d_10 = offs_d + offs_d_5
    mask_d_12 = offs_d_9 < D
    mask_d_13 = offs_d_10 < D
    offs_k = gl.arange(0, 32, layout=L4)
    offs_k_14 = gl.arange(0, 32, layout=L5)
    c0 = split * chunks_per_split
    c1 = c0 + chunks_per_split
    c1_15 = gl.minimum(c1, n_chunks)
    arg10 = gl.full([32, 64], 0.0, gl.float32, layout=L10)
    cnt_29 = gl.full([32], 0.0, gl.float32, layout=L5)
    for cnt_28 in range(c0, c1_15, 1):
        chunk_count = counts_ptr + cnt_28
        chunk_count_30 = gl.load(chunk_count)
        v10 = chunk_count_30 > 0
        if v10:
            chunk_count = counts_ptr + cnt_28
            chunk_count_30 = gl.load(chunk_count)
            base = gl.cast(cnt_28, gl.int64)
            base_31 = base * 4096
            ids = ids_ptr + base_31
            x_ptrs_34 = gl.cast(stride_x, gl.int64)
            x_ptrs_37 = gl.expand_dims(offs_d_9, 0)
            x_ptrs_38 = x_ptrs_37.broadcast_to([64, 64])
            x = gl.expand_dims(mask_d_12, 0)
            x_39 = x.broadcast_to([64, 64])
            onehot = gl.arange(0, 32, layout=L6)
            onehot_40 = gl.expand_dims(onehot, 1)
            onehot_41 = onehot_40.broadcast_to([32, 64])
            twill_n = (4096 - 0 + 64 - 1) // 64
            x_62_as = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
            pidx_47 = (0 + (0 - 0) * 64) + offs_d_6  # load0_ids: stage 0, partition 0 (group 0)
            mask_p_49 = pidx_47 < chunk_count_30  # load0_ids: stage 0, partition 0 (group 0)
            ids_50 = ids + pidx_47  # load0_ids: stage 0, partition 0 (group 0)
            ids_51 = gl.load(ids_50, mask=mask_p_49, other=-1)  # load0_ids: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            ids_51_p1 = ids_51
            acc = arg10
            cnt_72 = cnt_29
            pidx_46 = (0 + (1 - 1) * 64) + offs_d_3  # elementwise0_x: stage 1, partition 0 (group 0)
            mask_p_48 = pidx_46 < chunk_count_30  # elementwise0_x: stage 1, partition 0 (group 0)
            x_59 = gl.expand_dims(mask_p_48, 1)  # elementwise0_x: stage 1, partition 0 (group 0)
            x_60 = x_59.broadcast_to([64, 64])  # elementwise0_x: stage 1, partition 0 (group 0)
            x_61 = x_60 & x_39  # elementwise0_x: stage 1, partition 0 (group 0)
            pidx_47 = (0 + (1 - 0) * 64) + offs_d_6  # load0_ids: stage 0, partition 0 (group 0)
            mask_p_49 = pidx_47 < chunk_count_30  # load0_ids: stage 0, partition 0 (group 0)
            ids_50 = ids + pidx_47  # load0_ids: stage 0, partition 0 (group 0)
            ids_51 = gl.load(ids_50, mask=mask_p_49, other=-1)  # load0_ids: stage 0, partition 0 (group 0)
            onehot_63 = gl.expand_dims(ids_51_p1, 0)  # convert0_onehot: stage 1, partition 0 (group 0)
            onehot_64 = onehot_63.broadcast_to([32, 64])  # convert0_onehot: stage 1, partition 0 (group 0)
            onehot_65 = onehot_64 == onehot_41  # convert0_onehot: stage 1, partition 0 (group 0)
            onehot_66 = onehot_65.to(gl.float16)  # convert0_onehot: stage 1, partition 0 (group 0)
            cnt_69 = onehot_66.to(gl.float32)  # convert3_cnt: stage 1, partition 0 (group 0)
            onehot_67 = gl.convert_layout(onehot_66, L7)  # convert1_onehot: stage 1, partition 0 (group 0)
            cnt_70 = gl.sum(cnt_69, axis=1)  # reduce0_cnt: stage 1, partition 0 (group 0)
            cnt_71 = gl.convert_layout(cnt_70, L5)  # convert4_cnt: stage 1, partition 0 (group 0)
            x_ptrs_52 = pidx_46.to(gl.int64)  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_53 = base_31 + x_ptrs_52  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_54 = gl.expand_dims(x_ptrs_53, 1)  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_55 = x_ptrs_54 * x_ptrs_34  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_56 = x_ptr + x_ptrs_55  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_57 = x_ptrs_56.broadcast_to([64, 64])  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_58 = x_ptrs_57 + x_ptrs_38  # load1_x: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load1_x: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(x_62_as.index((twill_base + 1 - 1) % 2), x_ptrs_58, mask=x_61)  # load1_x: stage 1, partition 0 (group 0)
            else:  # load1_x: stage 1, partition 0 (group 0)
                x_62_as.index((twill_base + 1 - 1) % 2).store(gl.load(x_ptrs_58, mask=x_61, other=0.0))  # load1_x: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_p1 = acc
            cnt_71_p1 = cnt_71
            cnt_72_p1 = cnt_72
            ids_51_p1 = ids_51
            onehot_67_p1 = onehot_67
            for twill_b in range(2, twill_n):
                pidx = (0 + (twill_b - 1) * 64)  # elementwise0_x: stage 1, partition 0 (group 0)
                pidx_46 = pidx + offs_d_3  # elementwise0_x: stage 1, partition 0 (group 0)
                mask_p_48 = pidx_46 < chunk_count_30  # elementwise0_x: stage 1, partition 0 (group 0)
                x_59 = gl.expand_dims(mask_p_48, 1)  # elementwise0_x: stage 1, partition 0 (group 0)
                x_60 = x_59.broadcast_to([64, 64])  # elementwise0_x: stage 1, partition 0 (group 0)
                x_61 = x_60 & x_39  # elementwise0_x: stage 1, partition 0 (group 0)
                cnt_72 = cnt_72_p1 + cnt_71_p1  # elementwise1_cnt: stage 2, partition 0 (group 0)
                pidx_45 = (0 + (twill_b - 0) * 64)  # load0_ids: stage 0, partition 0 (group 0)
                pidx_47 = pidx_45 + offs_d_6  # load0_ids: stage 0, partition 0 (group 0)
                mask_p_49 = pidx_47 < chunk_count_30  # load0_ids: stage 0, partition 0 (group 0)
                ids_50 = ids + pidx_47  # load0_ids: stage 0, partition 0 (group 0)
                ids_51 = gl.load(ids_50, mask=mask_p_49, other=-1)  # load0_ids: stage 0, partition 0 (group 0)
                onehot_63 = gl.expand_dims(ids_51_p1, 0)  # convert0_onehot: stage 1, partition 0 (group 0)
                onehot_64 = onehot_63.broadcast_to([32, 64])  # convert0_onehot: stage 1, partition 0 (group 0)
                onehot_65 = onehot_64 == onehot_41  # convert0_onehot: stage 1, partition 0 (group 0)
                onehot_66 = onehot_65.to(gl.float16)  # convert0_onehot: stage 1, partition 0 (group 0)
                cnt_69 = onehot_66.to(gl.float32)  # convert3_cnt: stage 1, partition 0 (group 0)
                onehot_67 = gl.convert_layout(onehot_66, L7)  # convert1_onehot: stage 1, partition 0 (group 0)
                cnt_70 = gl.sum(cnt_69, axis=1)  # reduce0_cnt: stage 1, partition 0 (group 0)
                cnt_71 = gl.convert_layout(cnt_70, L5)  # convert4_cnt: stage 1, partition 0 (group 0)
                x_ptrs_52 = pidx_46.to(gl.int64)  # load1_x: stage 1, partition 0 (group 0)
                x_ptrs_53 = base_31 + x_ptrs_52  # load1_x: stage 1, partition 0 (group 0)
                x_ptrs_54 = gl.expand_dims(x_ptrs_53, 1)  # load1_x: stage 1, partition 0 (group 0)
                x_ptrs_55 = x_ptrs_54 * x_ptrs_34  # load1_x: stage 1, partition 0 (group 0)
                x_ptrs_56 = x_ptr + x_ptrs_55  # load1_x: stage 1, partition 0 (group 0)
                x_ptrs_57 = x_ptrs_56.broadcast_to([64, 64])  # load1_x: stage 1, partition 0 (group 0)
                async_copy.wait_group(0)
                gl.thread_barrier()
                x_62 = x_62_as.index((twill_base + twill_b - 2) % 2).load(L8)  # load1_x: stage 2, partition 0 (group 0)
                x_ptrs_58 = x_ptrs_57 + x_ptrs_38  # load1_x: stage 1, partition 0 (group 0)
                if TWILL_COPY:  # load1_x: stage 1, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(x_62_as.index((twill_base + twill_b - 1) % 2), x_ptrs_58, mask=x_61)  # load1_x: stage 1, partition 0 (group 0)
                else:  # load1_x: stage 1, partition 0 (group 0)
                    x_62_as.index((twill_base + twill_b - 1) % 2).store(gl.load(x_ptrs_58, mask=x_61, other=0.0))  # load1_x: stage 1, partition 0 (group 0)
                x_68 = gl.convert_layout(x_62, L8)  # convert2_x: stage 2, partition 0 (group 0)
                acc = mma_v2(onehot_67_p1, x_68, acc_p1)  # dot0_acc: stage 2, partition 0 (group 0)
                async_copy.commit_group()
                acc_p1 = acc
                cnt_71_p1 = cnt_71
                cnt_72_p1 = cnt_72
                ids_51_p1 = ids_51
                onehot_67_p1 = onehot_67
            pidx = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_x: stage 1, partition 0 (group 0)
            pidx_46 = pidx + offs_d_3  # elementwise0_x: stage 1, partition 0 (group 0)
            mask_p_48 = pidx_46 < chunk_count_30  # elementwise0_x: stage 1, partition 0 (group 0)
            x_59 = gl.expand_dims(mask_p_48, 1)  # elementwise0_x: stage 1, partition 0 (group 0)
            x_60 = x_59.broadcast_to([64, 64])  # elementwise0_x: stage 1, partition 0 (group 0)
            x_61 = x_60 & x_39  # elementwise0_x: stage 1, partition 0 (group 0)
            cnt_72 = cnt_72_p1 + cnt_71_p1  # elementwise1_cnt: stage 2, partition 0 (group 0)
            onehot_63 = gl.expand_dims(ids_51_p1, 0)  # convert0_onehot: stage 1, partition 0 (group 0)
            onehot_64 = onehot_63.broadcast_to([32, 64])  # convert0_onehot: stage 1, partition 0 (group 0)
            onehot_65 = onehot_64 == onehot_41  # convert0_onehot: stage 1, partition 0 (group 0)
            onehot_66 = onehot_65.to(gl.float16)  # convert0_onehot: stage 1, partition 0 (group 0)
            cnt_69 = onehot_66.to(gl.float32)  # convert3_cnt: stage 1, partition 0 (group 0)
            onehot_67 = gl.convert_layout(onehot_66, L7)  # convert1_onehot: stage 1, partition 0 (group 0)
            cnt_70 = gl.sum(cnt_69, axis=1)  # reduce0_cnt: stage 1, partition 0 (group 0)
            cnt_71 = gl.convert_layout(cnt_70, L5)  # convert4_cnt: stage 1, partition 0 (group 0)
            x_ptrs_52 = pidx_46.to(gl.int64)  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_53 = base_31 + x_ptrs_52  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_54 = gl.expand_dims(x_ptrs_53, 1)  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_55 = x_ptrs_54 * x_ptrs_34  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_56 = x_ptr + x_ptrs_55  # load1_x: stage 1, partition 0 (group 0)
            x_ptrs_57 = x_ptrs_56.broadcast_to([64, 64])  # load1_x: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            x_62 = x_62_as.index((twill_base + (twill_n - 1 + 1) - 2) % 2).load(L8)  # load1_x: stage 2, partition 0 (group 0)
            x_ptrs_58 = x_ptrs_57 + x_ptrs_38  # load1_x: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load1_x: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(x_62_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2), x_ptrs_58, mask=x_61)  # load1_x: stage 1, partition 0 (group 0)
            else:  # load1_x: stage 1, partition 0 (group 0)
                x_62_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).store(gl.load(x_ptrs_58, mask=x_61, other=0.0))  # load1_x: stage 1, partition 0 (group 0)
            x_68 = gl.convert_layout(x_62, L8)  # convert2_x: stage 2, partition 0 (group 0)
            acc = mma_v2(onehot_67_p1, x_68, acc_p1)  # dot0_acc: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            acc_p1 = acc
            cnt_71_p1 = cnt_71
            cnt_72_p1 = cnt_72
            ids_51_p1 = ids_51
            onehot_67_p1 = onehot_67
            cnt_72 = cnt_72_p1 + cnt_71_p1  # elementwise1_cnt: stage 2, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            x_62 = x_62_as.index((twill_base + (twill_n - 1 + 2) - 2) % 2).load(L8)  # load1_x: stage 2, partition 0 (group 0)
            x_68 = gl.convert_layout(x_62, L8)  # convert2_x: stage 2, partition 0 (group 0)
            acc = mma_v2(onehot_67_p1, x_68, acc_p1)  # dot0_acc: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            acc_p1 = acc
            cnt_71_p1 = cnt_71
            cnt_72_p1 = cnt_72
            ids_51_p1 = ids_51
            onehot_67_p1 = onehot_67
            v11_r0 = acc_p1
            v11_r1 = cnt_72_p1
            twill_base += twill_n
        else:
            v11_r0 = arg10
            v11_r1 = cnt_29
        arg10 = v11_r0
        cnt_29 = v11_r1
    psum_ptrs = split * 32
    psum_ptrs_18 = psum_ptrs + offs_k
    psum_ptrs_19 = gl.expand_dims(psum_ptrs_18, 1)
    psum_ptrs_21 = psum_ptrs_19 * D
    psum_ptrs_23 = psum_ptr + psum_ptrs_21
    psum_ptrs_24 = gl.expand_dims(offs_d_10, 0)
    psum_ptrs_25 = psum_ptrs_23.broadcast_to([32, 64])
    psum_ptrs_26 = psum_ptrs_24.broadcast_to([32, 64])
    psum_ptrs_27 = psum_ptrs_25 + psum_ptrs_26
    v0 = gl.expand_dims(mask_d_13, 0)
    v1 = v0.broadcast_to([32, 64])
    v2 = gl.convert_layout(arg10, L9)
    gl.store(psum_ptrs_27, v2, mask=v1)
    v3 = offs_k_14 < 32
    v4 = pid_d == 0
    v6 = v3 & v4
    v7 = pcnt_ptr + psum_ptrs
    v9 = v7 + offs_k_14
    gl.store(v9, cnt_29, mask=v6)

@gluon.jit
def twill_kernel(x_ptr, ids_ptr, counts_ptr, psum_ptr, pcnt_ptr, n_chunks, chunks_per_split, D, stride_x, TWILL_COPY: gl.constexpr):
    consumer_0(x_ptr, ids_ptr, counts_ptr, psum_ptr, pcnt_ptr, n_chunks, chunks_per_split, D, stride_x, TWILL_COPY)



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L6_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L7_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L8_short = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L10_short = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))

@gluon.jit
def consumer_0_short(x_ptr, ids_ptr, counts_ptr, psum_ptr, pcnt_ptr, n_chunks, chunks_per_split, D, stride_x):
    twill_base = 0
    pid_d = gl.program_id(0)
    split = gl.program_id(1)
    offs_d = pid_d * 64
    offs_d_3 = gl.arange(0, 64, layout=L0_short)
    offs_d_4 = gl.arange(0, 64, layout=L1_short)
    offs_d_5 = gl.arange(0, 64, layout=L2_short)
    offs_d_6 = gl.arange(0, 64, layout=L3_short)
    offs_d_9 = offs_d + offs_d_4
    offs_d_10 = offs_d + offs_d_5
    mask_d_12 = offs_d_9 < D
    mask_d_13 = offs_d_10 < D
    offs_k = gl.arange(0, 32, layout=L4_short)
    offs_k_14 = gl.arange(0, 32, layout=L5_short)
    c0 = split * chunks_per_split
    c1 = c0 + chunks_per_split
    c1_15 = gl.minimum(c1, n_chunks)
    arg10 = gl.full([32, 64], 0.0, gl.float32, layout=L10_short)
    cnt_29 = gl.full([32], 0.0, gl.float32, layout=L5_short)
    for cnt_28 in range(c0, c1_15, 1):
        chunk_count = counts_ptr + cnt_28
        chunk_count_30 = gl.load(chunk_count)
        v10 = chunk_count_30 > 0
        if v10:
            chunk_count = counts_ptr + cnt_28
            chunk_count_30 = gl.load(chunk_count)
            base = gl.cast(cnt_28, gl.int64)
            base_31 = base * 4096
            ids = ids_ptr + base_31
            x_ptrs_34 = gl.cast(stride_x, gl.int64)
            x_ptrs_37 = gl.expand_dims(offs_d_9, 0)
            x_ptrs_38 = x_ptrs_37.broadcast_to([64, 64])
            x = gl.expand_dims(mask_d_12, 0)
            x_39 = x.broadcast_to([64, 64])
            onehot = gl.arange(0, 32, layout=L6_short)
            onehot_40 = gl.expand_dims(onehot, 1)
            onehot_41 = onehot_40.broadcast_to([32, 64])
            twill_n = (4096 - 0 + 64 - 1) // 64
            acc = arg10
            cnt_72 = cnt_29
            acc_p1 = acc
            cnt_72_p1 = cnt_72
            for twill_b in range(0, twill_n):
                pidx = (0 + (twill_b - 0) * 64)  # elementwise0_x: stage 0, partition 0 (group 0)
                pidx_46 = pidx + offs_d_3  # elementwise0_x: stage 0, partition 0 (group 0)
                mask_p_48 = pidx_46 < chunk_count_30  # elementwise0_x: stage 0, partition 0 (group 0)
                x_59 = gl.expand_dims(mask_p_48, 1)  # elementwise0_x: stage 0, partition 0 (group 0)
                x_60 = x_59.broadcast_to([64, 64])  # elementwise0_x: stage 0, partition 0 (group 0)
                x_61 = x_60 & x_39  # elementwise0_x: stage 0, partition 0 (group 0)
                pidx_45 = (0 + (twill_b - 0) * 64)  # load0_ids: stage 0, partition 0 (group 0)
                pidx_47 = pidx_45 + offs_d_6  # load0_ids: stage 0, partition 0 (group 0)
                mask_p_49 = pidx_47 < chunk_count_30  # load0_ids: stage 0, partition 0 (group 0)
                ids_50 = ids + pidx_47  # load0_ids: stage 0, partition 0 (group 0)
                ids_51 = gl.load(ids_50, mask=mask_p_49, other=-1)  # load0_ids: stage 0, partition 0 (group 0)
                onehot_63 = gl.expand_dims(ids_51, 0)  # convert0_onehot: stage 0, partition 0 (group 0)
                onehot_64 = onehot_63.broadcast_to([32, 64])  # convert0_onehot: stage 0, partition 0 (group 0)
                onehot_65 = onehot_64 == onehot_41  # convert0_onehot: stage 0, partition 0 (group 0)
                onehot_66 = onehot_65.to(gl.float16)  # convert0_onehot: stage 0, partition 0 (group 0)
                onehot_67 = gl.convert_layout(onehot_66, L7_short)  # convert1_onehot: stage 0, partition 0 (group 0)
                cnt_69 = onehot_66.to(gl.float32)  # convert3_cnt: stage 0, partition 0 (group 0)
                cnt_70 = gl.sum(cnt_69, axis=1)  # reduce0_cnt: stage 0, partition 0 (group 0)
                cnt_71 = gl.convert_layout(cnt_70, L5_short)  # convert4_cnt: stage 0, partition 0 (group 0)
                cnt_72 = cnt_72_p1 + cnt_71  # elementwise1_cnt: stage 0, partition 0 (group 0)
                x_ptrs_52 = pidx_46.to(gl.int64)  # load1_x: stage 0, partition 0 (group 0)
                x_ptrs_53 = base_31 + x_ptrs_52  # load1_x: stage 0, partition 0 (group 0)
                x_ptrs_54 = gl.expand_dims(x_ptrs_53, 1)  # load1_x: stage 0, partition 0 (group 0)
                x_ptrs_55 = x_ptrs_54 * x_ptrs_34  # load1_x: stage 0, partition 0 (group 0)
                x_ptrs_56 = x_ptr + x_ptrs_55  # load1_x: stage 0, partition 0 (group 0)
                x_ptrs_57 = x_ptrs_56.broadcast_to([64, 64])  # load1_x: stage 0, partition 0 (group 0)
                x_ptrs_58 = x_ptrs_57 + x_ptrs_38  # load1_x: stage 0, partition 0 (group 0)
                x_62 = gl.load(x_ptrs_58, mask=x_61, other=0.0)  # load1_x: stage 0, partition 0 (group 0)
                x_68 = gl.convert_layout(x_62, L8_short)  # convert2_x: stage 0, partition 0 (group 0)
                acc = mma_v2(onehot_67, x_68, acc_p1)  # dot0_acc: stage 0, partition 0 (group 0)
                acc_p1 = acc
                cnt_72_p1 = cnt_72
            v11_r0 = acc_p1
            v11_r1 = cnt_72_p1
            twill_base += twill_n
        else:
            v11_r0 = arg10
            v11_r1 = cnt_29
        arg10 = v11_r0
        cnt_29 = v11_r1
    psum_ptrs = split * 32
    psum_ptrs_18 = psum_ptrs + offs_k
    psum_ptrs_19 = gl.expand_dims(psum_ptrs_18, 1)
    psum_ptrs_21 = psum_ptrs_19 * D
    psum_ptrs_23 = psum_ptr + psum_ptrs_21
    psum_ptrs_24 = gl.expand_dims(offs_d_10, 0)
    psum_ptrs_25 = psum_ptrs_23.broadcast_to([32, 64])
    psum_ptrs_26 = psum_ptrs_24.broadcast_to([32, 64])
    psum_ptrs_27 = psum_ptrs_25 + psum_ptrs_26
    v0 = gl.expand_dims(mask_d_13, 0)
    v1 = v0.broadcast_to([32, 64])
    v2 = gl.convert_layout(arg10, L9_short)
    gl.store(psum_ptrs_27, v2, mask=v1)
    v3 = offs_k_14 < 32
    v4 = pid_d == 0
    v6 = v3 & v4
    v7 = pcnt_ptr + psum_ptrs
    v9 = v7 + offs_k_14
    gl.store(v9, cnt_29, mask=v6)

@gluon.jit
def twill_kernel_short(x_ptr, ids_ptr, counts_ptr, psum_ptr, pcnt_ptr, n_chunks, chunks_per_split, D, stride_x):
    consumer_0_short(x_ptr, ids_ptr, counts_ptr, psum_ptr, pcnt_ptr, n_chunks, chunks_per_split, D, stride_x, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'ids_ptr', 'counts_ptr', 'psum_ptr', 'pcnt_ptr', 'n_chunks', 'chunks_per_split', 'D', 'stride_x', 'K', 'CHUNK', 'BLOCK_P', 'BLOCK_D']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'ids_ptr', 'counts_ptr', 'psum_ptr', 'pcnt_ptr', 'n_chunks', 'chunks_per_split', 'D', 'stride_x']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'ids_ptr', 'counts_ptr', 'psum_ptr', 'pcnt_ptr', 'n_chunks', 'chunks_per_split', 'D', 'stride_x']   # the arguments a launch key reads
CONSTEXPRS = {'K': 32, 'CHUNK': 4096, 'BLOCK_P': 64, 'BLOCK_D': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['x_ptr', 'D', 'stride_x']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['x_ptr', 'ids_ptr', 'counts_ptr', 'psum_ptr', 'pcnt_ptr', 'n_chunks', 'chunks_per_split', 'D', 'stride_x', 'K', 'CHUNK', 'BLOCK_P', 'BLOCK_D']          # the Triton kernel's parameters, in order
RUNTIME_short = ['x_ptr', 'ids_ptr', 'counts_ptr', 'psum_ptr', 'pcnt_ptr', 'n_chunks', 'chunks_per_split', 'D', 'stride_x']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['x_ptr', 'ids_ptr', 'counts_ptr', 'psum_ptr', 'pcnt_ptr', 'n_chunks', 'chunks_per_split', 'D', 'stride_x']   # the arguments a launch key reads
CONSTEXPRS_short = {'K': 32, 'CHUNK': 4096, 'BLOCK_P': 64, 'BLOCK_D': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
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
    flags = {}
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
    """Run the faster of the pipelined kernel and the one-stage one for this launch's key, timed on the
    key's first launch (the pipelined one where no timing can run: no CUDA device, a graph being captured)."""
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
    pipelined kernel's launch where the copies do not fit in memory (kept for the key: not tried again)."""
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
    except Exception:                       # noqa: BLE001 - no memory for the copies: the pipelined kernel
        return launch_long
    try:
        launch_long(grid, *args, **kwargs)  # compiled, and its errors the launch's own
        try:
            launch_short(grid, *args, **kwargs)
        except Exception:                   # noqa: BLE001 - the one-stage kernel refuses this launch: the other runs
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
