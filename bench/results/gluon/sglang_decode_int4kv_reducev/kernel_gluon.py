"""_fwd_kernel_stage2, written by twill from its joint schedule: I=167 L=234 (optimal), 1385 cycles per iteration predicted.

Decisions (each from the schedule):
- the consumers' pointer loads in their readers' stage: a stage ahead, ptxas spills registers (1600 bytes stored, 1632 loaded, 359 spill instructions in the loop)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 2 stages), so no warp_specialize: 1 warps, registers as ptxas allocates them (the schedule's tiles need about 175 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- timed at launch: the same loop in one stage, `twill_kernel_short` (I=214 optimal among one-stage schedules, ptxas 110 registers, 18 CTA(s) an SM against this kernel's 8 at 251), beside this pipelined kernel; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 139-142 and 219: one stage x0.44-1.20 of the pipelined kernel's speed over eighteen loops; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[2], threads_per_warp=[32], warps_per_cta=[1], order=[0]))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[1], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0], [16, 0], [32, 0]], lane_bases=[[0, 32], [0, 64], [1, 0], [2, 0], [4, 0]], warp_bases=[], block_bases=[], shape=[64, 128])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0], [16, 0], [32, 0]], lane_bases=[[0, 32], [0, 64], [1, 0], [2, 0], [4, 0]], warp_bases=[], block_bases=[], shape=[64, 128])))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16, 2], threads_per_warp=[8, 4, 1], warps_per_cta=[1, 1, 1], order=[2, 1, 0]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 32], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 32], threads_per_warp=[8, 4, 1], warps_per_cta=[1, 1, 1], order=[2, 1, 0]))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 1], threads_per_warp=[8, 4, 1], warps_per_cta=[1, 1, 1], order=[2, 1, 0]))
L12 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0], [16, 0], [32, 0]], lane_bases=[[0, 32], [0, 64], [1, 0], [2, 0], [4, 0]], warp_bases=[], block_bases=[], shape=[64, 128]))

@gluon.jit
def consumer_0(logits, V_Buffer, V_Scales_Buffer, Out, Req_to_tokens, B_req_idx, B_Start_Loc, B_Seqlen, stride_logic_h, stride_buf_vbs, stride_buf_vh, stride_scales_buf_vbs, stride_scales_buf_vh, stride_obs, stride_oh, stride_req_to_token_b):
    cur_batch = gl.program_id(0)
    cur_head = gl.program_id(1)
    cur_batch_seq_len = B_Seqlen + cur_batch
    cur_batch_seq_len_9 = gl.load(cur_batch_seq_len)
    cur_batch_start_loc = B_Start_Loc + cur_batch
    cur_batch_start_loc_10 = gl.load(cur_batch_start_loc)
    cur_batch_req_idx = B_req_idx + cur_batch
    cur_batch_req_idx_11 = gl.load(cur_batch_req_idx)
    offs_n = gl.arange(0, 64, layout=L0)
    offs_n_12 = gl.arange(0, 64, layout=L1)
    offs_d_q = gl.arange(0, 128, layout=L2)
    offs_buf_v = cur_head * stride_buf_vh
    offs_buf_v_13 = gl.arange(0, 64, layout=L3)
    offs_buf_v_14 = gl.expand_dims(offs_buf_v_13, 0)
    offs_buf_v_16 = offs_buf_v + offs_buf_v_14
    v_ptrs_17 = V_Buffer + offs_buf_v_16
    v_index_19 = cur_batch_req_idx_11 * stride_req_to_token_b
    v_index_20 = Req_to_tokens + v_index_19
    qk = cur_head * stride_logic_h
    qk_22 = logits + qk
    v_int8_tmp = offs_buf_v_14 < 64
    v_int8_tmp_25 = v_ptrs_17.broadcast_to([64, 64])
    v_int8_tmp_26 = v_int8_tmp.broadcast_to([64, 64])
    offs_scales_v_27 = cur_head * stride_scales_buf_vh
    offs_scales_v_29 = gl.arange(0, 4, layout=L4)
    offs_scales_v_30 = gl.expand_dims(offs_scales_v_29, 0)
    offs_scales_v_31 = offs_scales_v_30.broadcast_to([64, 4])
    twill_n = (cur_batch_seq_len_9 - 0 + 64 - 1) // 64
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        n_e_max_56 = float("-inf")
        n_e_max_56_p1 = n_e_max_56
        e_sum_62 = 0.0
        acc_96 = gl.full([128], 0.0, gl.float32, layout=L5)
        v_index_45 = (0 + (0 - 0) * 64) + offs_n  # load0_v_index: stage 0, partition 0 (group 0)
        v_index_47 = v_index_45 < cur_batch_seq_len_9  # load0_v_index: stage 0, partition 0 (group 0)
        v_index_49 = v_index_20 + v_index_45  # load0_v_index: stage 0, partition 0 (group 0)
        v_index_50 = gl.load(v_index_49, mask=v_index_47, other=0)  # load0_v_index: stage 0, partition 0 (group 0)
        v_int8_tmp_63 = gl.convert_layout(v_index_50, L6)  # convert0_v_int8_tmp: stage 0, partition 0 (group 0)
        qk_51 = cur_batch_start_loc_10 + (0 + (0 - 0) * 64)  # load2_qk: stage 0, partition 0 (group 0)
        qk_52 = qk_51  # load2_qk: stage 0, partition 0 (group 0)
        qk_53 = qk_52 + offs_n  # load2_qk: stage 0, partition 0 (group 0)
        qk_54 = qk_22 + qk_53  # load2_qk: stage 0, partition 0 (group 0)
        qk_55 = gl.load(qk_54, mask=v_index_47, other=float("-inf"))  # load2_qk: stage 0, partition 0 (group 0)
        n_e_max = gl.max(qk_55, axis=0)  # reduce0_n_e_max: stage 0, partition 0 (group 0)
        n_e_max_56 = gl.maximum(n_e_max, n_e_max_56_p1)  # elementwise0_n_e_max: stage 0, partition 0 (group 0)
        p = n_e_max_56  # sfu1_p: stage 0, partition 0 (group 0)
        p_58 = qk_55 - p  # sfu1_p: stage 0, partition 0 (group 0)
        p_59 = gl.exp(p_58)  # sfu1_p: stage 0, partition 0 (group 0)
        old_scale = n_e_max_56_p1 - n_e_max_56  # sfu0_old_scale: stage 0, partition 0 (group 0)
        old_scale_57 = gl.exp(old_scale)  # sfu0_old_scale: stage 0, partition 0 (group 0)
        e_sum_61 = gl.sum(p_59, axis=0)  # reduce1_e_sum: stage 0, partition 0 (group 0)
        p_87 = p_59.to(gl.float16)  # convert4_p: stage 0, partition 0 (group 0)
        acc_90 = gl.convert_layout(p_87, L7)  # convert4_p: stage 0, partition 0 (group 0)
        v_int8_tmp_64 = gl.convert_layout(v_index_50, L1)  # convert1_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_tmp_65 = gl.expand_dims(v_int8_tmp_63, 1)  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_tmp_67 = v_int8_tmp_65 * stride_buf_vbs  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_tmp_68 = v_int8_tmp_67.broadcast_to([64, 64])  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_tmp_69 = v_int8_tmp_25 + v_int8_tmp_68  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_tmp_70 = gl.load(v_int8_tmp_69, mask=v_int8_tmp_26)  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_low = v_int8_tmp_70 & 15  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_int8_low_71 = v_int8_low - 8  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_int8_high = gl.cast(gl.cast(v_int8_tmp_70, gl.int8, bitcast=True) & -16, v_int8_tmp_70.dtype, bitcast=True)  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_int8_high_72 = gl.cast(gl.cast(v_int8_high, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_int8_high_73 = v_int8_high_72 - 8  # convert2_v_tmp: stage 0, partition 0 (group 0)
        c = gl.convert_layout(gl.join(v_int8_low_71, v_int8_high_73), L8)  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_int8 = gl.convert_layout(gl.reshape(c, [64, 128]), L9)  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_tmp = gl.cast(v_int8, gl.int8, bitcast=True).to(gl.float16)  # convert2_v_tmp: stage 0, partition 0 (group 0)
        acc_90_p1 = acc_90
        acc_96_p1 = acc_96
        e_sum_61_p1 = e_sum_61
        e_sum_62_p1 = e_sum_62
        n_e_max_56_p1 = n_e_max_56
        old_scale_57_p1 = old_scale_57
        v_int8_tmp_64_p1 = v_int8_tmp_64
        v_tmp_p1 = v_tmp
        for twill_b in range(1, twill_n):
            e_sum_60 = e_sum_62_p1 * old_scale_57_p1  # elementwise1_e_sum: stage 1, partition 0 (group 0)
            e_sum_62 = e_sum_60 + e_sum_61_p1  # elementwise1_e_sum: stage 1, partition 0 (group 0)
            v_index_43 = (0 + (twill_b - 0) * 64)  # load0_v_index: stage 0, partition 0 (group 0)
            v_index_45 = v_index_43 + offs_n  # load0_v_index: stage 0, partition 0 (group 0)
            v_index_47 = v_index_45 < cur_batch_seq_len_9  # load0_v_index: stage 0, partition 0 (group 0)
            v_index_49 = v_index_20 + v_index_45  # load0_v_index: stage 0, partition 0 (group 0)
            v_index_50 = gl.load(v_index_49, mask=v_index_47, other=0)  # load0_v_index: stage 0, partition 0 (group 0)
            v_int8_tmp_63 = gl.convert_layout(v_index_50, L6)  # convert0_v_int8_tmp: stage 0, partition 0 (group 0)
            v_tmp_82 = gl.convert_layout(gl.reshape(v_tmp_p1, [64, 4, 32]), L10)  # convert3_v_tmp: stage 1, partition 0 (group 0)
            v_tmp_83 = gl.convert_layout(v_tmp_82, L11)  # convert3_v_tmp: stage 1, partition 0 (group 0)
            v_index_44 = (0 + (twill_b - 1) * 64)  # load1_v_scales: stage 1, partition 0 (group 0)
            v_index_46 = v_index_44 + offs_n_12  # load1_v_scales: stage 1, partition 0 (group 0)
            v_int8_tmp_66 = gl.expand_dims(v_int8_tmp_64_p1, 1)  # load1_v_scales: stage 1, partition 0 (group 0)
            offs_scales_v_74 = v_int8_tmp_66 * stride_scales_buf_vbs  # load1_v_scales: stage 1, partition 0 (group 0)
            v_index_48 = v_index_46 < cur_batch_seq_len_9  # load1_v_scales: stage 1, partition 0 (group 0)
            offs_scales_v_75 = offs_scales_v_74 + offs_scales_v_27  # load1_v_scales: stage 1, partition 0 (group 0)
            offs_scales_v_76 = offs_scales_v_75.broadcast_to([64, 4])  # load1_v_scales: stage 1, partition 0 (group 0)
            offs_scales_v_77 = offs_scales_v_76 + offs_scales_v_31  # load1_v_scales: stage 1, partition 0 (group 0)
            v_scales_78 = gl.expand_dims(v_index_48, 1)  # load1_v_scales: stage 1, partition 0 (group 0)
            v_scales_79 = V_Scales_Buffer + offs_scales_v_77  # load1_v_scales: stage 1, partition 0 (group 0)
            v_scales_80 = v_scales_78.broadcast_to([64, 4])  # load1_v_scales: stage 1, partition 0 (group 0)
            v_scales_81 = gl.load(v_scales_79, mask=v_scales_80, other=1.0)  # load1_v_scales: stage 1, partition 0 (group 0)
            v_tmp_84 = gl.convert_layout(gl.reshape(v_scales_81, [64, 4, 1]), L11)  # elementwise2_v_tmp: stage 1, partition 0 (group 0)
            v_tmp_85 = v_tmp_84.broadcast_to([64, 4, 32])  # elementwise2_v_tmp: stage 1, partition 0 (group 0)
            v_tmp_86 = v_tmp_83 * v_tmp_85  # elementwise2_v_tmp: stage 1, partition 0 (group 0)
            v = gl.convert_layout(gl.reshape(v_tmp_86, [64, 128]), L12)  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_91 = gl.expand_dims(acc_90_p1, 1)  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_92 = acc_91.broadcast_to([64, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_93 = acc_92 * v  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_94 = gl.sum(acc_93, axis=0)  # reduce2_acc: stage 1, partition 0 (group 0)
            acc_95 = acc_94.to(gl.float32)  # convert5_acc: stage 1, partition 0 (group 0)
            acc_88 = old_scale_57_p1  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_89 = acc_96_p1 * acc_88  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_96 = acc_89 + acc_95  # elementwise4_acc: stage 1, partition 0 (group 0)
            qk_51 = cur_batch_start_loc_10 + (0 + (twill_b - 0) * 64)  # load2_qk: stage 0, partition 0 (group 0)
            qk_52 = qk_51  # load2_qk: stage 0, partition 0 (group 0)
            qk_53 = qk_52 + offs_n  # load2_qk: stage 0, partition 0 (group 0)
            qk_54 = qk_22 + qk_53  # load2_qk: stage 0, partition 0 (group 0)
            qk_55 = gl.load(qk_54, mask=v_index_47, other=float("-inf"))  # load2_qk: stage 0, partition 0 (group 0)
            n_e_max = gl.max(qk_55, axis=0)  # reduce0_n_e_max: stage 0, partition 0 (group 0)
            n_e_max_56 = gl.maximum(n_e_max, n_e_max_56_p1)  # elementwise0_n_e_max: stage 0, partition 0 (group 0)
            p = n_e_max_56  # sfu1_p: stage 0, partition 0 (group 0)
            p_58 = qk_55 - p  # sfu1_p: stage 0, partition 0 (group 0)
            p_59 = gl.exp(p_58)  # sfu1_p: stage 0, partition 0 (group 0)
            old_scale = n_e_max_56_p1 - n_e_max_56  # sfu0_old_scale: stage 0, partition 0 (group 0)
            old_scale_57 = gl.exp(old_scale)  # sfu0_old_scale: stage 0, partition 0 (group 0)
            e_sum_61 = gl.sum(p_59, axis=0)  # reduce1_e_sum: stage 0, partition 0 (group 0)
            p_87 = p_59.to(gl.float16)  # convert4_p: stage 0, partition 0 (group 0)
            acc_90 = gl.convert_layout(p_87, L7)  # convert4_p: stage 0, partition 0 (group 0)
            v_int8_tmp_64 = gl.convert_layout(v_index_50, L1)  # convert1_v_int8_tmp: stage 0, partition 0 (group 0)
            v_int8_tmp_65 = gl.expand_dims(v_int8_tmp_63, 1)  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
            v_int8_tmp_67 = v_int8_tmp_65 * stride_buf_vbs  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
            v_int8_tmp_68 = v_int8_tmp_67.broadcast_to([64, 64])  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
            v_int8_tmp_69 = v_int8_tmp_25 + v_int8_tmp_68  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
            v_int8_tmp_70 = gl.load(v_int8_tmp_69, mask=v_int8_tmp_26)  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
            v_int8_low = v_int8_tmp_70 & 15  # convert2_v_tmp: stage 0, partition 0 (group 0)
            v_int8_low_71 = v_int8_low - 8  # convert2_v_tmp: stage 0, partition 0 (group 0)
            v_int8_high = gl.cast(gl.cast(v_int8_tmp_70, gl.int8, bitcast=True) & -16, v_int8_tmp_70.dtype, bitcast=True)  # convert2_v_tmp: stage 0, partition 0 (group 0)
            v_int8_high_72 = gl.cast(gl.cast(v_int8_high, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert2_v_tmp: stage 0, partition 0 (group 0)
            v_int8_high_73 = v_int8_high_72 - 8  # convert2_v_tmp: stage 0, partition 0 (group 0)
            c = gl.convert_layout(gl.join(v_int8_low_71, v_int8_high_73), L8)  # convert2_v_tmp: stage 0, partition 0 (group 0)
            v_int8 = gl.convert_layout(gl.reshape(c, [64, 128]), L9)  # convert2_v_tmp: stage 0, partition 0 (group 0)
            v_tmp = gl.cast(v_int8, gl.int8, bitcast=True).to(gl.float16)  # convert2_v_tmp: stage 0, partition 0 (group 0)
            acc_90_p1 = acc_90
            acc_96_p1 = acc_96
            e_sum_61_p1 = e_sum_61
            e_sum_62_p1 = e_sum_62
            n_e_max_56_p1 = n_e_max_56
            old_scale_57_p1 = old_scale_57
            v_int8_tmp_64_p1 = v_int8_tmp_64
            v_tmp_p1 = v_tmp
        e_sum_60 = e_sum_62_p1 * old_scale_57_p1  # elementwise1_e_sum: stage 1, partition 0 (group 0)
        e_sum_62 = e_sum_60 + e_sum_61_p1  # elementwise1_e_sum: stage 1, partition 0 (group 0)
        v_tmp_82 = gl.convert_layout(gl.reshape(v_tmp_p1, [64, 4, 32]), L10)  # convert3_v_tmp: stage 1, partition 0 (group 0)
        v_tmp_83 = gl.convert_layout(v_tmp_82, L11)  # convert3_v_tmp: stage 1, partition 0 (group 0)
        v_index_44 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # load1_v_scales: stage 1, partition 0 (group 0)
        v_index_46 = v_index_44 + offs_n_12  # load1_v_scales: stage 1, partition 0 (group 0)
        v_int8_tmp_66 = gl.expand_dims(v_int8_tmp_64_p1, 1)  # load1_v_scales: stage 1, partition 0 (group 0)
        offs_scales_v_74 = v_int8_tmp_66 * stride_scales_buf_vbs  # load1_v_scales: stage 1, partition 0 (group 0)
        v_index_48 = v_index_46 < cur_batch_seq_len_9  # load1_v_scales: stage 1, partition 0 (group 0)
        offs_scales_v_75 = offs_scales_v_74 + offs_scales_v_27  # load1_v_scales: stage 1, partition 0 (group 0)
        offs_scales_v_76 = offs_scales_v_75.broadcast_to([64, 4])  # load1_v_scales: stage 1, partition 0 (group 0)
        offs_scales_v_77 = offs_scales_v_76 + offs_scales_v_31  # load1_v_scales: stage 1, partition 0 (group 0)
        v_scales_78 = gl.expand_dims(v_index_48, 1)  # load1_v_scales: stage 1, partition 0 (group 0)
        v_scales_79 = V_Scales_Buffer + offs_scales_v_77  # load1_v_scales: stage 1, partition 0 (group 0)
        v_scales_80 = v_scales_78.broadcast_to([64, 4])  # load1_v_scales: stage 1, partition 0 (group 0)
        v_scales_81 = gl.load(v_scales_79, mask=v_scales_80, other=1.0)  # load1_v_scales: stage 1, partition 0 (group 0)
        v_tmp_84 = gl.convert_layout(gl.reshape(v_scales_81, [64, 4, 1]), L11)  # elementwise2_v_tmp: stage 1, partition 0 (group 0)
        v_tmp_85 = v_tmp_84.broadcast_to([64, 4, 32])  # elementwise2_v_tmp: stage 1, partition 0 (group 0)
        v_tmp_86 = v_tmp_83 * v_tmp_85  # elementwise2_v_tmp: stage 1, partition 0 (group 0)
        v = gl.convert_layout(gl.reshape(v_tmp_86, [64, 128]), L12)  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_91 = gl.expand_dims(acc_90_p1, 1)  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_92 = acc_91.broadcast_to([64, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_93 = acc_92 * v  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_94 = gl.sum(acc_93, axis=0)  # reduce2_acc: stage 1, partition 0 (group 0)
        acc_95 = acc_94.to(gl.float32)  # convert5_acc: stage 1, partition 0 (group 0)
        acc_88 = old_scale_57_p1  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_89 = acc_96_p1 * acc_88  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_96 = acc_89 + acc_95  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_90_p1 = acc_90
        acc_96_p1 = acc_96
        e_sum_61_p1 = e_sum_61
        e_sum_62_p1 = e_sum_62
        n_e_max_56_p2 = n_e_max_56_p1
        n_e_max_56_p1 = n_e_max_56
        old_scale_57_p1 = old_scale_57
        v_int8_tmp_64_p1 = v_int8_tmp_64
        v_tmp_p1 = v_tmp
    else:
        n_e_max_56_p2 = float("-inf")
        e_sum_62_p1 = 0.0
        acc_96_p1 = gl.full([128], 0.0, gl.float32, layout=L5)
    acc_34 = acc_96_p1 / e_sum_62_p1
    off_o = cur_batch * stride_obs
    off_o_35 = cur_head * stride_oh
    off_o_36 = off_o + off_o_35
    off_o_38 = off_o_36 + offs_d_q
    out_ptrs_39 = Out + off_o_38
    v0 = offs_d_q < 128
    v1 = acc_34.to(gl.float16)
    v2 = gl.convert_layout(v1, L2)
    gl.store(out_ptrs_39, v2, mask=v0)

@gluon.jit
def twill_kernel(logits, V_Buffer, V_Scales_Buffer, Out, Req_to_tokens, B_req_idx, B_Start_Loc, B_Seqlen, stride_logic_h, stride_buf_vbs, stride_buf_vh, stride_scales_buf_vbs, stride_scales_buf_vh, stride_obs, stride_oh, stride_req_to_token_b):
    consumer_0(logits, V_Buffer, V_Scales_Buffer, Out, Req_to_tokens, B_req_idx, B_Start_Loc, B_Seqlen, stride_logic_h, stride_buf_vbs, stride_buf_vh, stride_scales_buf_vbs, stride_scales_buf_vh, stride_obs, stride_oh, stride_req_to_token_b, )



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[2], threads_per_warp=[32], warps_per_cta=[1], order=[0]))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[1], order=[0]))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0], [16, 0], [32, 0]], lane_bases=[[0, 32], [0, 64], [1, 0], [2, 0], [4, 0]], warp_bases=[], block_bases=[], shape=[64, 128])))
L6_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0])))
L7_short = gl.constexpr(gl.SliceLayout(1, gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0], [16, 0], [32, 0]], lane_bases=[[0, 32], [0, 64], [1, 0], [2, 0], [4, 0]], warp_bases=[], block_bases=[], shape=[64, 128])))
L8_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16, 2], threads_per_warp=[8, 4, 1], warps_per_cta=[1, 1, 1], order=[2, 1, 0]))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 32], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0]))
L10_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 32], threads_per_warp=[8, 4, 1], warps_per_cta=[1, 1, 1], order=[2, 1, 0]))
L11_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 1], threads_per_warp=[8, 4, 1], warps_per_cta=[1, 1, 1], order=[2, 1, 0]))
L12_short = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0], [16, 0], [32, 0]], lane_bases=[[0, 32], [0, 64], [1, 0], [2, 0], [4, 0]], warp_bases=[], block_bases=[], shape=[64, 128]))

@gluon.jit
def consumer_0_short(logits, V_Buffer, V_Scales_Buffer, Out, Req_to_tokens, B_req_idx, B_Start_Loc, B_Seqlen, stride_logic_h, stride_buf_vbs, stride_buf_vh, stride_scales_buf_vbs, stride_scales_buf_vh, stride_obs, stride_oh, stride_req_to_token_b):
    cur_batch = gl.program_id(0)
    cur_head = gl.program_id(1)
    cur_batch_seq_len = B_Seqlen + cur_batch
    cur_batch_seq_len_9 = gl.load(cur_batch_seq_len)
    cur_batch_start_loc = B_Start_Loc + cur_batch
    cur_batch_start_loc_10 = gl.load(cur_batch_start_loc)
    cur_batch_req_idx = B_req_idx + cur_batch
    cur_batch_req_idx_11 = gl.load(cur_batch_req_idx)
    offs_n = gl.arange(0, 64, layout=L0_short)
    offs_n_12 = gl.arange(0, 64, layout=L1_short)
    offs_d_q = gl.arange(0, 128, layout=L2_short)
    offs_buf_v = cur_head * stride_buf_vh
    offs_buf_v_13 = gl.arange(0, 64, layout=L3_short)
    offs_buf_v_14 = gl.expand_dims(offs_buf_v_13, 0)
    offs_buf_v_16 = offs_buf_v + offs_buf_v_14
    v_ptrs_17 = V_Buffer + offs_buf_v_16
    v_index_19 = cur_batch_req_idx_11 * stride_req_to_token_b
    v_index_20 = Req_to_tokens + v_index_19
    qk = cur_head * stride_logic_h
    qk_22 = logits + qk
    v_int8_tmp = offs_buf_v_14 < 64
    v_int8_tmp_25 = v_ptrs_17.broadcast_to([64, 64])
    v_int8_tmp_26 = v_int8_tmp.broadcast_to([64, 64])
    offs_scales_v_27 = cur_head * stride_scales_buf_vh
    offs_scales_v_29 = gl.arange(0, 4, layout=L4_short)
    offs_scales_v_30 = gl.expand_dims(offs_scales_v_29, 0)
    offs_scales_v_31 = offs_scales_v_30.broadcast_to([64, 4])
    twill_n = (cur_batch_seq_len_9 - 0 + 64 - 1) // 64
    n_e_max_56 = float("-inf")
    e_sum_62 = 0.0
    acc_96 = gl.full([128], 0.0, gl.float32, layout=L5_short)
    acc_96_p1 = acc_96
    e_sum_62_p1 = e_sum_62
    n_e_max_56_p1 = n_e_max_56
    for twill_b in range(0, twill_n):
        v_index_43 = (0 + (twill_b - 0) * 64)  # load0_v_index: stage 0, partition 0 (group 0)
        v_index_45 = v_index_43 + offs_n  # load0_v_index: stage 0, partition 0 (group 0)
        v_index_47 = v_index_45 < cur_batch_seq_len_9  # load0_v_index: stage 0, partition 0 (group 0)
        v_index_49 = v_index_20 + v_index_45  # load0_v_index: stage 0, partition 0 (group 0)
        v_index_50 = gl.load(v_index_49, mask=v_index_47, other=0)  # load0_v_index: stage 0, partition 0 (group 0)
        v_int8_tmp_63 = gl.convert_layout(v_index_50, L6_short)  # convert0_v_int8_tmp: stage 0, partition 0 (group 0)
        qk_51 = cur_batch_start_loc_10 + (0 + (twill_b - 0) * 64)  # load2_qk: stage 0, partition 0 (group 0)
        qk_52 = qk_51  # load2_qk: stage 0, partition 0 (group 0)
        qk_53 = qk_52 + offs_n  # load2_qk: stage 0, partition 0 (group 0)
        qk_54 = qk_22 + qk_53  # load2_qk: stage 0, partition 0 (group 0)
        qk_55 = gl.load(qk_54, mask=v_index_47, other=float("-inf"))  # load2_qk: stage 0, partition 0 (group 0)
        n_e_max = gl.max(qk_55, axis=0)  # reduce0_n_e_max: stage 0, partition 0 (group 0)
        n_e_max_56 = gl.maximum(n_e_max, n_e_max_56_p1)  # elementwise0_n_e_max: stage 0, partition 0 (group 0)
        old_scale = n_e_max_56_p1 - n_e_max_56  # sfu0_old_scale: stage 0, partition 0 (group 0)
        old_scale_57 = gl.exp(old_scale)  # sfu0_old_scale: stage 0, partition 0 (group 0)
        p = n_e_max_56  # sfu1_p: stage 0, partition 0 (group 0)
        p_58 = qk_55 - p  # sfu1_p: stage 0, partition 0 (group 0)
        p_59 = gl.exp(p_58)  # sfu1_p: stage 0, partition 0 (group 0)
        e_sum_61 = gl.sum(p_59, axis=0)  # reduce1_e_sum: stage 0, partition 0 (group 0)
        p_87 = p_59.to(gl.float16)  # convert4_p: stage 0, partition 0 (group 0)
        acc_90 = gl.convert_layout(p_87, L7_short)  # convert4_p: stage 0, partition 0 (group 0)
        e_sum_60 = e_sum_62_p1 * old_scale_57  # elementwise1_e_sum: stage 0, partition 0 (group 0)
        e_sum_62 = e_sum_60 + e_sum_61  # elementwise1_e_sum: stage 0, partition 0 (group 0)
        v_int8_tmp_64 = gl.convert_layout(v_index_50, L1_short)  # convert1_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_tmp_65 = gl.expand_dims(v_int8_tmp_63, 1)  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_tmp_67 = v_int8_tmp_65 * stride_buf_vbs  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_tmp_68 = v_int8_tmp_67.broadcast_to([64, 64])  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_tmp_69 = v_int8_tmp_25 + v_int8_tmp_68  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_tmp_70 = gl.load(v_int8_tmp_69, mask=v_int8_tmp_26)  # load3_v_int8_tmp: stage 0, partition 0 (group 0)
        v_int8_low = v_int8_tmp_70 & 15  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_int8_low_71 = v_int8_low - 8  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_int8_high = gl.cast(gl.cast(v_int8_tmp_70, gl.int8, bitcast=True) & -16, v_int8_tmp_70.dtype, bitcast=True)  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_int8_high_72 = gl.cast(gl.cast(v_int8_high, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_int8_high_73 = v_int8_high_72 - 8  # convert2_v_tmp: stage 0, partition 0 (group 0)
        c = gl.convert_layout(gl.join(v_int8_low_71, v_int8_high_73), L8_short)  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_int8 = gl.convert_layout(gl.reshape(c, [64, 128]), L9_short)  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_tmp = gl.cast(v_int8, gl.int8, bitcast=True).to(gl.float16)  # convert2_v_tmp: stage 0, partition 0 (group 0)
        v_tmp_82 = gl.convert_layout(gl.reshape(v_tmp, [64, 4, 32]), L10_short)  # convert3_v_tmp: stage 0, partition 0 (group 0)
        v_tmp_83 = gl.convert_layout(v_tmp_82, L11_short)  # convert3_v_tmp: stage 0, partition 0 (group 0)
        v_index_44 = (0 + (twill_b - 0) * 64)  # load1_v_scales: stage 0, partition 0 (group 0)
        v_index_46 = v_index_44 + offs_n_12  # load1_v_scales: stage 0, partition 0 (group 0)
        v_int8_tmp_66 = gl.expand_dims(v_int8_tmp_64, 1)  # load1_v_scales: stage 0, partition 0 (group 0)
        offs_scales_v_74 = v_int8_tmp_66 * stride_scales_buf_vbs  # load1_v_scales: stage 0, partition 0 (group 0)
        v_index_48 = v_index_46 < cur_batch_seq_len_9  # load1_v_scales: stage 0, partition 0 (group 0)
        offs_scales_v_75 = offs_scales_v_74 + offs_scales_v_27  # load1_v_scales: stage 0, partition 0 (group 0)
        offs_scales_v_76 = offs_scales_v_75.broadcast_to([64, 4])  # load1_v_scales: stage 0, partition 0 (group 0)
        offs_scales_v_77 = offs_scales_v_76 + offs_scales_v_31  # load1_v_scales: stage 0, partition 0 (group 0)
        v_scales_78 = gl.expand_dims(v_index_48, 1)  # load1_v_scales: stage 0, partition 0 (group 0)
        v_scales_79 = V_Scales_Buffer + offs_scales_v_77  # load1_v_scales: stage 0, partition 0 (group 0)
        v_scales_80 = v_scales_78.broadcast_to([64, 4])  # load1_v_scales: stage 0, partition 0 (group 0)
        v_scales_81 = gl.load(v_scales_79, mask=v_scales_80, other=1.0)  # load1_v_scales: stage 0, partition 0 (group 0)
        v_tmp_84 = gl.convert_layout(gl.reshape(v_scales_81, [64, 4, 1]), L11_short)  # elementwise2_v_tmp: stage 0, partition 0 (group 0)
        v_tmp_85 = v_tmp_84.broadcast_to([64, 4, 32])  # elementwise2_v_tmp: stage 0, partition 0 (group 0)
        v_tmp_86 = v_tmp_83 * v_tmp_85  # elementwise2_v_tmp: stage 0, partition 0 (group 0)
        v = gl.convert_layout(gl.reshape(v_tmp_86, [64, 128]), L12_short)  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_91 = gl.expand_dims(acc_90, 1)  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_92 = acc_91.broadcast_to([64, 128])  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_93 = acc_92 * v  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_94 = gl.sum(acc_93, axis=0)  # reduce2_acc: stage 0, partition 0 (group 0)
        acc_95 = acc_94.to(gl.float32)  # convert5_acc: stage 0, partition 0 (group 0)
        acc_88 = old_scale_57  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_89 = acc_96_p1 * acc_88  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_96 = acc_89 + acc_95  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_96_p1 = acc_96
        e_sum_62_p1 = e_sum_62
        n_e_max_56_p1 = n_e_max_56
    acc_34 = acc_96_p1 / e_sum_62_p1
    off_o = cur_batch * stride_obs
    off_o_35 = cur_head * stride_oh
    off_o_36 = off_o + off_o_35
    off_o_38 = off_o_36 + offs_d_q
    out_ptrs_39 = Out + off_o_38
    v0 = offs_d_q < 128
    v1 = acc_34.to(gl.float16)
    v2 = gl.convert_layout(v1, L2_short)
    gl.store(out_ptrs_39, v2, mask=v0)

@gluon.jit
def twill_kernel_short(logits, V_Buffer, V_Scales_Buffer, Out, Req_to_tokens, B_req_idx, B_Start_Loc, B_Seqlen, stride_logic_h, stride_buf_vbs, stride_buf_vh, stride_scales_buf_vbs, stride_scales_buf_vh, stride_obs, stride_oh, stride_req_to_token_b):
    consumer_0_short(logits, V_Buffer, V_Scales_Buffer, Out, Req_to_tokens, B_req_idx, B_Start_Loc, B_Seqlen, stride_logic_h, stride_buf_vbs, stride_buf_vh, stride_scales_buf_vbs, stride_scales_buf_vh, stride_obs, stride_oh, stride_req_to_token_b, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['logits', 'V_Buffer', 'V_Scales_Buffer', 'quant_group_size', 'Out', 'Req_to_tokens', 'B_req_idx', 'B_Start_Loc', 'B_Seqlen', 'stride_logic_h', 'stride_buf_vbs', 'stride_buf_vh', 'stride_scales_buf_vbs', 'stride_scales_buf_vh', 'stride_obs', 'stride_oh', 'stride_req_to_token_b', 'kv_group_num', 'BLOCK_DMODEL', 'BLOCK_N', 'Lv']          # the Triton kernel's parameters, in order
RUNTIME = ['logits', 'V_Buffer', 'V_Scales_Buffer', 'Out', 'Req_to_tokens', 'B_req_idx', 'B_Start_Loc', 'B_Seqlen', 'stride_logic_h', 'stride_buf_vbs', 'stride_buf_vh', 'stride_scales_buf_vbs', 'stride_scales_buf_vh', 'stride_obs', 'stride_oh', 'stride_req_to_token_b']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['logits', 'V_Buffer', 'V_Scales_Buffer', 'Out', 'Req_to_tokens', 'B_req_idx', 'B_Start_Loc', 'B_Seqlen', 'stride_logic_h', 'stride_buf_vbs', 'stride_buf_vh', 'stride_scales_buf_vbs', 'stride_scales_buf_vh', 'stride_obs', 'stride_oh', 'stride_req_to_token_b']   # the arguments a launch key reads
CONSTEXPRS = {'quant_group_size': 32, 'kv_group_num': 1, 'BLOCK_DMODEL': 64, 'BLOCK_N': 64, 'Lv': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 1
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
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
    flags = {}
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
ARGUMENTS_short = ['logits', 'V_Buffer', 'V_Scales_Buffer', 'quant_group_size', 'Out', 'Req_to_tokens', 'B_req_idx', 'B_Start_Loc', 'B_Seqlen', 'stride_logic_h', 'stride_buf_vbs', 'stride_buf_vh', 'stride_scales_buf_vbs', 'stride_scales_buf_vh', 'stride_obs', 'stride_oh', 'stride_req_to_token_b', 'kv_group_num', 'BLOCK_DMODEL', 'BLOCK_N', 'Lv']          # the Triton kernel's parameters, in order
RUNTIME_short = ['logits', 'V_Buffer', 'V_Scales_Buffer', 'Out', 'Req_to_tokens', 'B_req_idx', 'B_Start_Loc', 'B_Seqlen', 'stride_logic_h', 'stride_buf_vbs', 'stride_buf_vh', 'stride_scales_buf_vbs', 'stride_scales_buf_vh', 'stride_obs', 'stride_oh', 'stride_req_to_token_b']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['logits', 'V_Buffer', 'V_Scales_Buffer', 'Out', 'Req_to_tokens', 'B_req_idx', 'B_Start_Loc', 'B_Seqlen', 'stride_logic_h', 'stride_buf_vbs', 'stride_buf_vh', 'stride_scales_buf_vbs', 'stride_scales_buf_vh', 'stride_obs', 'stride_oh', 'stride_req_to_token_b']   # the arguments a launch key reads
CONSTEXPRS_short = {'quant_group_size': 32, 'kv_group_num': 1, 'BLOCK_DMODEL': 64, 'BLOCK_N': 64, 'Lv': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 1
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
