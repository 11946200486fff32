"""_sparse_fwd_kernel_flash_decode_stage2, written by twill from its joint schedule: I=389 L=417 (optimal), 2123 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 1 warps, registers as ptxas allocates them (the schedule's tiles need about 109 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- timed at launch: the same loop in one stage, `twill_kernel_short` (I=417 optimal among one-stage schedules, ptxas 71 registers, 28 CTA(s) an SM against this kernel's 10 at 187), beside this pipelined kernel; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 139-142 and 219: one stage x0.44-1.20 of the pipelined kernel's speed over eighteen loops; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[1], order=[0]))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[1, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[1, 1], order=[1, 0])))

@gluon.jit
def consumer_0(Q, K, V, sm_scale, Req_to_tokens, Topk_token_indices, Mid_O, Mid_O_LogExpSum, Heavy_token_num, stride_req_to_tokens_b, stride_topk_token_indices_h, stride_topk_token_indices_b, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_mid_o_eb, stride_mid_o_eh, gqa_group_size):
    cur_batch = gl.program_id(0)
    cur_head = gl.program_id(1)
    seq_start_block = gl.program_id(2)
    cur_kv_head = cur_head // gqa_group_size
    offs_d = gl.arange(0, 128, layout=L0)
    block_start = seq_start_block * 256
    block_end = block_start + 256
    block_end_5 = gl.minimum(Heavy_token_num, block_end)
    offs_n = gl.arange(0, 16, layout=L1)
    q = cur_batch * stride_qbs
    q_6 = Q + q
    q_7 = cur_head * stride_qh
    q_8 = q_6 + q_7
    q_10 = q_8 + offs_d
    q_11 = gl.load(q_10)
    topk_row = stride_topk_token_indices_h * cur_head
    topk_row_12 = Topk_token_indices + topk_row
    topk_row_13 = stride_topk_token_indices_b * cur_batch
    topk_row_14 = topk_row_12 + topk_row_13
    k_loc = stride_req_to_tokens_b * cur_batch
    k_loc_15 = Req_to_tokens + k_loc
    off_k_17 = cur_kv_head * stride_kh
    off_k_19 = gl.arange(0, 128, layout=L2)
    off_k_20 = gl.expand_dims(off_k_19, 0)
    off_k_21 = off_k_20.broadcast_to([16, 128])
    att_value = gl.convert_layout(q_11, L2)
    att_value_22 = gl.expand_dims(att_value, 0)
    att_value_23 = att_value_22.broadcast_to([16, 128])
    off_v_25 = cur_kv_head * stride_vh
    twill_n = gl.maximum((block_end_5 - block_start + 16 - 1) // 16, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        new_max_logic_65 = float("-inf")
        offs_n_new = (block_start + (0 - 0) * 16)  # load0_position: stage 0, partition 0 (group 0)
        offs_n_new_39 = offs_n_new + offs_n  # load0_position: stage 0, partition 0 (group 0)
        in_block_40 = offs_n_new_39 < block_end_5  # load0_position: stage 0, partition 0 (group 0)
        position_41 = topk_row_14 + offs_n_new_39  # load0_position: stage 0, partition 0 (group 0)
        position_42 = gl.load(position_41, mask=in_block_40, other=0)  # load0_position: stage 0, partition 0 (group 0)
        k_loc_43 = k_loc_15 + position_42  # load1_k_loc: stage 0, partition 0 (group 0)
        k_loc_44 = gl.load(k_loc_43, mask=in_block_40, other=0)  # load1_k_loc: stage 0, partition 0 (group 0)
        off_k_45 = gl.expand_dims(k_loc_44, 1)  # load2_k: stage 0, partition 0 (group 0)
        off_k_46 = off_k_45 * stride_kbs  # load2_k: stage 0, partition 0 (group 0)
        off_k_47 = off_k_46 + off_k_17  # load2_k: stage 0, partition 0 (group 0)
        off_k_48 = off_k_47.broadcast_to([16, 128])  # load2_k: stage 0, partition 0 (group 0)
        off_k_49 = off_k_48 + off_k_21  # load2_k: stage 0, partition 0 (group 0)
        k_50 = gl.expand_dims(in_block_40, 1)  # load2_k: stage 0, partition 0 (group 0)
        k_51 = K + off_k_49  # load2_k: stage 0, partition 0 (group 0)
        k_52 = k_50.broadcast_to([16, 128])  # load2_k: stage 0, partition 0 (group 0)
        k_53 = gl.load(k_51, mask=k_52, other=0.0)  # load2_k: stage 0, partition 0 (group 0)
        in_block_40_p1 = in_block_40
        k_52_p1 = k_52
        k_53_p1 = k_53
        new_max_logic_65_p1 = new_max_logic_65
        off_k_45_p1 = off_k_45
        sum_exp_78 = 0.0
        acc_76 = gl.full([128], 0.0, gl.float32, layout=L2)
        off_v_59 = off_k_45_p1 * stride_vbs  # load3_v: stage 1, partition 0 (group 0)
        off_v_60 = off_v_59 + off_v_25  # load3_v: stage 1, partition 0 (group 0)
        off_v_61 = off_v_60.broadcast_to([16, 128])  # load3_v: stage 1, partition 0 (group 0)
        off_v_62 = off_v_61 + off_k_21  # load3_v: stage 1, partition 0 (group 0)
        v_63 = V + off_v_62  # load3_v: stage 1, partition 0 (group 0)
        v_64 = gl.load(v_63, mask=k_52_p1, other=0.0)  # load3_v: stage 1, partition 0 (group 0)
        offs_n_new = (block_start + (1 - 0) * 16)  # load0_position: stage 0, partition 0 (group 0)
        offs_n_new_39 = offs_n_new + offs_n  # load0_position: stage 0, partition 0 (group 0)
        in_block_40 = offs_n_new_39 < block_end_5  # load0_position: stage 0, partition 0 (group 0)
        position_41 = topk_row_14 + offs_n_new_39  # load0_position: stage 0, partition 0 (group 0)
        position_42 = gl.load(position_41, mask=in_block_40, other=0)  # load0_position: stage 0, partition 0 (group 0)
        k_loc_43 = k_loc_15 + position_42  # load1_k_loc: stage 0, partition 0 (group 0)
        k_loc_44 = gl.load(k_loc_43, mask=in_block_40, other=0)  # load1_k_loc: stage 0, partition 0 (group 0)
        off_k_45 = gl.expand_dims(k_loc_44, 1)  # load2_k: stage 0, partition 0 (group 0)
        off_k_46 = off_k_45 * stride_kbs  # load2_k: stage 0, partition 0 (group 0)
        off_k_47 = off_k_46 + off_k_17  # load2_k: stage 0, partition 0 (group 0)
        off_k_48 = off_k_47.broadcast_to([16, 128])  # load2_k: stage 0, partition 0 (group 0)
        off_k_49 = off_k_48 + off_k_21  # load2_k: stage 0, partition 0 (group 0)
        k_50 = gl.expand_dims(in_block_40, 1)  # load2_k: stage 0, partition 0 (group 0)
        k_51 = K + off_k_49  # load2_k: stage 0, partition 0 (group 0)
        k_52 = k_50.broadcast_to([16, 128])  # load2_k: stage 0, partition 0 (group 0)
        k_53 = gl.load(k_51, mask=k_52, other=0.0)  # load2_k: stage 0, partition 0 (group 0)
        att_value_54 = att_value_23 * k_53_p1  # elementwise0_att_value: stage 1, partition 0 (group 0)
        att_value_55 = gl.sum(att_value_54, axis=1)  # reduce0_att_value: stage 1, partition 0 (group 0)
        att_value_56 = att_value_55.to(gl.float32)  # convert0_att_value: stage 1, partition 0 (group 0)
        att_value_57 = att_value_56 * sm_scale  # elementwise1_att_value: stage 1, partition 0 (group 0)
        att_value_58 = gl.where(in_block_40_p1, att_value_57, float("-inf"))  # elementwise1_att_value: stage 1, partition 0 (group 0)
        new_max_logic = gl.max(att_value_58, axis=0)  # reduce1_new_max_logic: stage 1, partition 0 (group 0)
        new_max_logic_65 = gl.maximum(new_max_logic, new_max_logic_65_p1)  # elementwise2_new_max_logic: stage 1, partition 0 (group 0)
        acc_76_p1 = acc_76
        att_value_58_p1 = att_value_58
        in_block_40_p1 = in_block_40
        k_52_p1 = k_52
        k_53_p1 = k_53
        new_max_logic_65_p2 = new_max_logic_65_p1
        new_max_logic_65_p1 = new_max_logic_65
        off_k_45_p1 = off_k_45
        sum_exp_78_p1 = sum_exp_78
        v_64_p1 = v_64
        for twill_b in range(2, twill_n):
            exp_logic = new_max_logic_65_p1  # sfu0_exp_logic: stage 2, partition 0 (group 0)
            exp_logic_66 = att_value_58_p1 - exp_logic  # sfu0_exp_logic: stage 2, partition 0 (group 0)
            exp_logic_67 = gl.exp(exp_logic_66)  # sfu0_exp_logic: stage 2, partition 0 (group 0)
            sum_exp_77 = gl.sum(exp_logic_67, axis=0)  # reduce3_sum_exp: stage 2, partition 0 (group 0)
            logic_scale = new_max_logic_65_p2 - new_max_logic_65_p1  # sfu1_logic_scale: stage 2, partition 0 (group 0)
            logic_scale_68 = gl.exp(logic_scale)  # sfu1_logic_scale: stage 2, partition 0 (group 0)
            off_v_59 = off_k_45_p1 * stride_vbs  # load3_v: stage 1, partition 0 (group 0)
            off_v_60 = off_v_59 + off_v_25  # load3_v: stage 1, partition 0 (group 0)
            off_v_61 = off_v_60.broadcast_to([16, 128])  # load3_v: stage 1, partition 0 (group 0)
            off_v_62 = off_v_61 + off_k_21  # load3_v: stage 1, partition 0 (group 0)
            v_63 = V + off_v_62  # load3_v: stage 1, partition 0 (group 0)
            v_64 = gl.load(v_63, mask=k_52_p1, other=0.0)  # load3_v: stage 1, partition 0 (group 0)
            acc_72 = v_64_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
            acc_71 = gl.expand_dims(exp_logic_67, 1)  # elementwise4_acc: stage 2, partition 0 (group 0)
            acc_73 = acc_71.broadcast_to([16, 128])  # elementwise4_acc: stage 2, partition 0 (group 0)
            acc_74 = acc_73 * acc_72  # elementwise4_acc: stage 2, partition 0 (group 0)
            acc_75 = gl.sum(acc_74, axis=0)  # reduce2_acc: stage 2, partition 0 (group 0)
            sum_exp = sum_exp_78_p1 * logic_scale_68  # elementwise5_sum_exp: stage 2, partition 0 (group 0)
            sum_exp_78 = sum_exp + sum_exp_77  # elementwise5_sum_exp: stage 2, partition 0 (group 0)
            acc_69 = logic_scale_68  # elementwise3_acc: stage 2, partition 0 (group 0)
            acc_70 = acc_76_p1 * acc_69  # elementwise3_acc: stage 2, partition 0 (group 0)
            acc_76 = acc_70 + acc_75  # elementwise3_acc: stage 2, partition 0 (group 0)
            offs_n_new = (block_start + (twill_b - 0) * 16)  # load0_position: stage 0, partition 0 (group 0)
            offs_n_new_39 = offs_n_new + offs_n  # load0_position: stage 0, partition 0 (group 0)
            in_block_40 = offs_n_new_39 < block_end_5  # load0_position: stage 0, partition 0 (group 0)
            position_41 = topk_row_14 + offs_n_new_39  # load0_position: stage 0, partition 0 (group 0)
            position_42 = gl.load(position_41, mask=in_block_40, other=0)  # load0_position: stage 0, partition 0 (group 0)
            k_loc_43 = k_loc_15 + position_42  # load1_k_loc: stage 0, partition 0 (group 0)
            k_loc_44 = gl.load(k_loc_43, mask=in_block_40, other=0)  # load1_k_loc: stage 0, partition 0 (group 0)
            off_k_45 = gl.expand_dims(k_loc_44, 1)  # load2_k: stage 0, partition 0 (group 0)
            off_k_46 = off_k_45 * stride_kbs  # load2_k: stage 0, partition 0 (group 0)
            off_k_47 = off_k_46 + off_k_17  # load2_k: stage 0, partition 0 (group 0)
            off_k_48 = off_k_47.broadcast_to([16, 128])  # load2_k: stage 0, partition 0 (group 0)
            off_k_49 = off_k_48 + off_k_21  # load2_k: stage 0, partition 0 (group 0)
            k_50 = gl.expand_dims(in_block_40, 1)  # load2_k: stage 0, partition 0 (group 0)
            k_51 = K + off_k_49  # load2_k: stage 0, partition 0 (group 0)
            k_52 = k_50.broadcast_to([16, 128])  # load2_k: stage 0, partition 0 (group 0)
            k_53 = gl.load(k_51, mask=k_52, other=0.0)  # load2_k: stage 0, partition 0 (group 0)
            att_value_54 = att_value_23 * k_53_p1  # elementwise0_att_value: stage 1, partition 0 (group 0)
            att_value_55 = gl.sum(att_value_54, axis=1)  # reduce0_att_value: stage 1, partition 0 (group 0)
            att_value_56 = att_value_55.to(gl.float32)  # convert0_att_value: stage 1, partition 0 (group 0)
            att_value_57 = att_value_56 * sm_scale  # elementwise1_att_value: stage 1, partition 0 (group 0)
            att_value_58 = gl.where(in_block_40_p1, att_value_57, float("-inf"))  # elementwise1_att_value: stage 1, partition 0 (group 0)
            new_max_logic = gl.max(att_value_58, axis=0)  # reduce1_new_max_logic: stage 1, partition 0 (group 0)
            new_max_logic_65 = gl.maximum(new_max_logic, new_max_logic_65_p1)  # elementwise2_new_max_logic: stage 1, partition 0 (group 0)
            acc_76_p1 = acc_76
            att_value_58_p1 = att_value_58
            in_block_40_p1 = in_block_40
            k_52_p1 = k_52
            k_53_p1 = k_53
            new_max_logic_65_p2 = new_max_logic_65_p1
            new_max_logic_65_p1 = new_max_logic_65
            off_k_45_p1 = off_k_45
            sum_exp_78_p1 = sum_exp_78
            v_64_p1 = v_64
        exp_logic = new_max_logic_65_p1  # sfu0_exp_logic: stage 2, partition 0 (group 0)
        exp_logic_66 = att_value_58_p1 - exp_logic  # sfu0_exp_logic: stage 2, partition 0 (group 0)
        exp_logic_67 = gl.exp(exp_logic_66)  # sfu0_exp_logic: stage 2, partition 0 (group 0)
        sum_exp_77 = gl.sum(exp_logic_67, axis=0)  # reduce3_sum_exp: stage 2, partition 0 (group 0)
        logic_scale = new_max_logic_65_p2 - new_max_logic_65_p1  # sfu1_logic_scale: stage 2, partition 0 (group 0)
        logic_scale_68 = gl.exp(logic_scale)  # sfu1_logic_scale: stage 2, partition 0 (group 0)
        off_v_59 = off_k_45_p1 * stride_vbs  # load3_v: stage 1, partition 0 (group 0)
        off_v_60 = off_v_59 + off_v_25  # load3_v: stage 1, partition 0 (group 0)
        off_v_61 = off_v_60.broadcast_to([16, 128])  # load3_v: stage 1, partition 0 (group 0)
        off_v_62 = off_v_61 + off_k_21  # load3_v: stage 1, partition 0 (group 0)
        v_63 = V + off_v_62  # load3_v: stage 1, partition 0 (group 0)
        v_64 = gl.load(v_63, mask=k_52_p1, other=0.0)  # load3_v: stage 1, partition 0 (group 0)
        acc_72 = v_64_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_71 = gl.expand_dims(exp_logic_67, 1)  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_73 = acc_71.broadcast_to([16, 128])  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_74 = acc_73 * acc_72  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_75 = gl.sum(acc_74, axis=0)  # reduce2_acc: stage 2, partition 0 (group 0)
        sum_exp = sum_exp_78_p1 * logic_scale_68  # elementwise5_sum_exp: stage 2, partition 0 (group 0)
        sum_exp_78 = sum_exp + sum_exp_77  # elementwise5_sum_exp: stage 2, partition 0 (group 0)
        acc_69 = logic_scale_68  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_70 = acc_76_p1 * acc_69  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_76 = acc_70 + acc_75  # elementwise3_acc: stage 2, partition 0 (group 0)
        att_value_54 = att_value_23 * k_53_p1  # elementwise0_att_value: stage 1, partition 0 (group 0)
        att_value_55 = gl.sum(att_value_54, axis=1)  # reduce0_att_value: stage 1, partition 0 (group 0)
        att_value_56 = att_value_55.to(gl.float32)  # convert0_att_value: stage 1, partition 0 (group 0)
        att_value_57 = att_value_56 * sm_scale  # elementwise1_att_value: stage 1, partition 0 (group 0)
        att_value_58 = gl.where(in_block_40_p1, att_value_57, float("-inf"))  # elementwise1_att_value: stage 1, partition 0 (group 0)
        new_max_logic = gl.max(att_value_58, axis=0)  # reduce1_new_max_logic: stage 1, partition 0 (group 0)
        new_max_logic_65 = gl.maximum(new_max_logic, new_max_logic_65_p1)  # elementwise2_new_max_logic: stage 1, partition 0 (group 0)
        acc_76_p1 = acc_76
        att_value_58_p1 = att_value_58
        in_block_40_p1 = in_block_40
        k_52_p1 = k_52
        k_53_p1 = k_53
        new_max_logic_65_p2 = new_max_logic_65_p1
        new_max_logic_65_p1 = new_max_logic_65
        off_k_45_p1 = off_k_45
        sum_exp_78_p1 = sum_exp_78
        v_64_p1 = v_64
        exp_logic = new_max_logic_65_p1  # sfu0_exp_logic: stage 2, partition 0 (group 0)
        exp_logic_66 = att_value_58_p1 - exp_logic  # sfu0_exp_logic: stage 2, partition 0 (group 0)
        exp_logic_67 = gl.exp(exp_logic_66)  # sfu0_exp_logic: stage 2, partition 0 (group 0)
        sum_exp_77 = gl.sum(exp_logic_67, axis=0)  # reduce3_sum_exp: stage 2, partition 0 (group 0)
        logic_scale = new_max_logic_65_p2 - new_max_logic_65_p1  # sfu1_logic_scale: stage 2, partition 0 (group 0)
        logic_scale_68 = gl.exp(logic_scale)  # sfu1_logic_scale: stage 2, partition 0 (group 0)
        acc_72 = v_64_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_71 = gl.expand_dims(exp_logic_67, 1)  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_73 = acc_71.broadcast_to([16, 128])  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_74 = acc_73 * acc_72  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_75 = gl.sum(acc_74, axis=0)  # reduce2_acc: stage 2, partition 0 (group 0)
        sum_exp = sum_exp_78_p1 * logic_scale_68  # elementwise5_sum_exp: stage 2, partition 0 (group 0)
        sum_exp_78 = sum_exp + sum_exp_77  # elementwise5_sum_exp: stage 2, partition 0 (group 0)
        acc_69 = logic_scale_68  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_70 = acc_76_p1 * acc_69  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_76 = acc_70 + acc_75  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_76_p1 = acc_76
        att_value_58_p1 = att_value_58
        in_block_40_p1 = in_block_40
        k_52_p1 = k_52
        k_53_p1 = k_53
        new_max_logic_65_p2 = new_max_logic_65_p1
        new_max_logic_65_p1 = new_max_logic_65
        off_k_45_p1 = off_k_45
        sum_exp_78_p1 = sum_exp_78
        v_64_p1 = v_64
    else:
        arg25_w = gl.to_tensor(0.0)
        arg26_w = gl.to_tensor(float("-inf"))
        acc_38_w = gl.full([128], 0.0, gl.float32, layout=L2)
        for acc_37_w in range(block_start, block_end_5, 16):
            offs_n_new_39_w = acc_37_w + offs_n
            in_block_40_w = offs_n_new_39_w < block_end_5
            position_41_w = topk_row_14 + offs_n_new_39_w
            position_42_w = gl.load(position_41_w, mask=in_block_40_w, other=0)
            k_loc_43_w = k_loc_15 + position_42_w
            k_loc_44_w = gl.load(k_loc_43_w, mask=in_block_40_w, other=0)
            off_k_45_w = gl.expand_dims(k_loc_44_w, 1)
            off_k_46_w = off_k_45_w * stride_kbs
            off_k_47_w = off_k_46_w + off_k_17
            off_k_48_w = off_k_47_w.broadcast_to([16, 128])
            off_k_49_w = off_k_48_w + off_k_21
            k_50_w = gl.expand_dims(in_block_40_w, 1)
            k_51_w = K + off_k_49_w
            k_52_w = k_50_w.broadcast_to([16, 128])
            k_53_w = gl.load(k_51_w, mask=k_52_w, other=0.0)
            att_value_54_w = att_value_23 * k_53_w
            att_value_55_w = gl.sum(att_value_54_w, axis=1)
            att_value_56_w = att_value_55_w.to(gl.float32)
            att_value_57_w = att_value_56_w * sm_scale
            att_value_58_w = gl.where(in_block_40_w, att_value_57_w, float("-inf"))
            off_v_59_w = off_k_45_w * stride_vbs
            off_v_60_w = off_v_59_w + off_v_25
            off_v_61_w = off_v_60_w.broadcast_to([16, 128])
            off_v_62_w = off_v_61_w + off_k_21
            v_63_w = V + off_v_62_w
            v_64_w = gl.load(v_63_w, mask=k_52_w, other=0.0)
            new_max_logic_w = gl.max(att_value_58_w, axis=0)
            new_max_logic_65_w = gl.maximum(new_max_logic_w, arg26_w)
            exp_logic_66_w = att_value_58_w - new_max_logic_65_w
            exp_logic_67_w = gl.exp(exp_logic_66_w)
            logic_scale_w = arg26_w - new_max_logic_65_w
            logic_scale_68_w = gl.exp(logic_scale_w)
            acc_70_w = acc_38_w * logic_scale_68_w
            acc_71_w = gl.expand_dims(exp_logic_67_w, 1)
            acc_72_w = v_64_w.to(gl.float32)
            acc_73_w = acc_71_w.broadcast_to([16, 128])
            acc_74_w = acc_73_w * acc_72_w
            acc_75_w = gl.sum(acc_74_w, axis=0)
            acc_76_w = acc_70_w + acc_75_w
            sum_exp_w = arg25_w * logic_scale_68_w
            sum_exp_77_w = gl.sum(exp_logic_67_w, axis=0)
            sum_exp_78_w = sum_exp_w + sum_exp_77_w
            arg25_w = sum_exp_78_w
            arg26_w = new_max_logic_65_w
            acc_38_w = acc_76_w
        sum_exp_78_p1 = arg25_w
        new_max_logic_65_p2 = arg26_w
        acc_76_p1 = acc_38_w
    off_mid_o = cur_batch * stride_mid_ob
    off_mid_o_28 = cur_head * stride_mid_oh
    off_mid_o_29 = off_mid_o + off_mid_o_28
    off_mid_o_30 = seq_start_block * stride_mid_os
    off_mid_o_31 = off_mid_o_29 + off_mid_o_30
    off_mid_o_33 = off_mid_o_31 + offs_d
    off_lse = cur_batch * stride_mid_o_eb
    off_lse_34 = cur_head * stride_mid_o_eh
    off_lse_35 = off_lse + off_lse_34
    off_lse_36 = off_lse_35 + seq_start_block
    v1 = Mid_O + off_mid_o_33
    v3 = acc_76_p1 / sum_exp_78_p1
    v4 = gl.convert_layout(v3, L0)
    gl.store(v1, v4)
    v5 = Mid_O_LogExpSum + off_lse_36
    v6 = gl.log(sum_exp_78_p1)
    v7 = new_max_logic_65_p2 + v6
    gl.store(v5, v7)

@gluon.jit
def twill_kernel(Q, K, V, sm_scale, Req_to_tokens, Topk_token_indices, Mid_O, Mid_O_LogExpSum, Heavy_token_num, stride_req_to_tokens_b, stride_topk_token_indices_h, stride_topk_token_indices_b, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_mid_o_eb, stride_mid_o_eh, gqa_group_size):
    consumer_0(Q, K, V, sm_scale, Req_to_tokens, Topk_token_indices, Mid_O, Mid_O_LogExpSum, Heavy_token_num, stride_req_to_tokens_b, stride_topk_token_indices_h, stride_topk_token_indices_b, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_mid_o_eb, stride_mid_o_eh, gqa_group_size, )



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[1], order=[0]))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[1, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[1, 1], order=[1, 0])))

@gluon.jit
def consumer_0_short(Q, K, V, sm_scale, Req_to_tokens, Topk_token_indices, Mid_O, Mid_O_LogExpSum, Heavy_token_num, stride_req_to_tokens_b, stride_topk_token_indices_h, stride_topk_token_indices_b, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_mid_o_eb, stride_mid_o_eh, gqa_group_size):
    cur_batch = gl.program_id(0)
    cur_head = gl.program_id(1)
    seq_start_block = gl.program_id(2)
    cur_kv_head = cur_head // gqa_group_size
    offs_d = gl.arange(0, 128, layout=L0_short)
    block_start = seq_start_block * 256
    block_end = block_start + 256
    block_end_5 = gl.minimum(Heavy_token_num, block_end)
    offs_n = gl.arange(0, 16, layout=L1_short)
    q = cur_batch * stride_qbs
    q_6 = Q + q
    q_7 = cur_head * stride_qh
    q_8 = q_6 + q_7
    q_10 = q_8 + offs_d
    q_11 = gl.load(q_10)
    topk_row = stride_topk_token_indices_h * cur_head
    topk_row_12 = Topk_token_indices + topk_row
    topk_row_13 = stride_topk_token_indices_b * cur_batch
    topk_row_14 = topk_row_12 + topk_row_13
    k_loc = stride_req_to_tokens_b * cur_batch
    k_loc_15 = Req_to_tokens + k_loc
    off_k_17 = cur_kv_head * stride_kh
    off_k_19 = gl.arange(0, 128, layout=L2_short)
    off_k_20 = gl.expand_dims(off_k_19, 0)
    off_k_21 = off_k_20.broadcast_to([16, 128])
    att_value = gl.convert_layout(q_11, L2_short)
    att_value_22 = gl.expand_dims(att_value, 0)
    att_value_23 = att_value_22.broadcast_to([16, 128])
    off_v_25 = cur_kv_head * stride_vh
    twill_n = gl.maximum((block_end_5 - block_start + 16 - 1) // 16, 0)
    sum_exp_78 = 0.0
    new_max_logic_65 = float("-inf")
    acc_76 = gl.full([128], 0.0, gl.float32, layout=L2_short)
    acc_76_p1 = acc_76
    new_max_logic_65_p1 = new_max_logic_65
    sum_exp_78_p1 = sum_exp_78
    for twill_b in range(0, twill_n):
        offs_n_new = (block_start + (twill_b - 0) * 16)  # load0_position: stage 0, partition 0 (group 0)
        offs_n_new_39 = offs_n_new + offs_n  # load0_position: stage 0, partition 0 (group 0)
        in_block_40 = offs_n_new_39 < block_end_5  # load0_position: stage 0, partition 0 (group 0)
        position_41 = topk_row_14 + offs_n_new_39  # load0_position: stage 0, partition 0 (group 0)
        position_42 = gl.load(position_41, mask=in_block_40, other=0)  # load0_position: stage 0, partition 0 (group 0)
        k_loc_43 = k_loc_15 + position_42  # load1_k_loc: stage 0, partition 0 (group 0)
        k_loc_44 = gl.load(k_loc_43, mask=in_block_40, other=0)  # load1_k_loc: stage 0, partition 0 (group 0)
        off_k_45 = gl.expand_dims(k_loc_44, 1)  # load2_k: stage 0, partition 0 (group 0)
        off_k_46 = off_k_45 * stride_kbs  # load2_k: stage 0, partition 0 (group 0)
        off_k_47 = off_k_46 + off_k_17  # load2_k: stage 0, partition 0 (group 0)
        off_k_48 = off_k_47.broadcast_to([16, 128])  # load2_k: stage 0, partition 0 (group 0)
        off_k_49 = off_k_48 + off_k_21  # load2_k: stage 0, partition 0 (group 0)
        k_50 = gl.expand_dims(in_block_40, 1)  # load2_k: stage 0, partition 0 (group 0)
        k_51 = K + off_k_49  # load2_k: stage 0, partition 0 (group 0)
        k_52 = k_50.broadcast_to([16, 128])  # load2_k: stage 0, partition 0 (group 0)
        k_53 = gl.load(k_51, mask=k_52, other=0.0)  # load2_k: stage 0, partition 0 (group 0)
        att_value_54 = att_value_23 * k_53  # elementwise0_att_value: stage 0, partition 0 (group 0)
        att_value_55 = gl.sum(att_value_54, axis=1)  # reduce0_att_value: stage 0, partition 0 (group 0)
        att_value_56 = att_value_55.to(gl.float32)  # convert0_att_value: stage 0, partition 0 (group 0)
        att_value_57 = att_value_56 * sm_scale  # elementwise1_att_value: stage 0, partition 0 (group 0)
        att_value_58 = gl.where(in_block_40, att_value_57, float("-inf"))  # elementwise1_att_value: stage 0, partition 0 (group 0)
        new_max_logic = gl.max(att_value_58, axis=0)  # reduce1_new_max_logic: stage 0, partition 0 (group 0)
        new_max_logic_65 = gl.maximum(new_max_logic, new_max_logic_65_p1)  # elementwise2_new_max_logic: stage 0, partition 0 (group 0)
        exp_logic = new_max_logic_65  # sfu0_exp_logic: stage 0, partition 0 (group 0)
        exp_logic_66 = att_value_58 - exp_logic  # sfu0_exp_logic: stage 0, partition 0 (group 0)
        exp_logic_67 = gl.exp(exp_logic_66)  # sfu0_exp_logic: stage 0, partition 0 (group 0)
        logic_scale = new_max_logic_65_p1 - new_max_logic_65  # sfu1_logic_scale: stage 0, partition 0 (group 0)
        logic_scale_68 = gl.exp(logic_scale)  # sfu1_logic_scale: stage 0, partition 0 (group 0)
        sum_exp_77 = gl.sum(exp_logic_67, axis=0)  # reduce3_sum_exp: stage 0, partition 0 (group 0)
        sum_exp = sum_exp_78_p1 * logic_scale_68  # elementwise5_sum_exp: stage 0, partition 0 (group 0)
        sum_exp_78 = sum_exp + sum_exp_77  # elementwise5_sum_exp: stage 0, partition 0 (group 0)
        off_v_59 = off_k_45 * stride_vbs  # load3_v: stage 0, partition 0 (group 0)
        off_v_60 = off_v_59 + off_v_25  # load3_v: stage 0, partition 0 (group 0)
        off_v_61 = off_v_60.broadcast_to([16, 128])  # load3_v: stage 0, partition 0 (group 0)
        off_v_62 = off_v_61 + off_k_21  # load3_v: stage 0, partition 0 (group 0)
        v_63 = V + off_v_62  # load3_v: stage 0, partition 0 (group 0)
        v_64 = gl.load(v_63, mask=k_52, other=0.0)  # load3_v: stage 0, partition 0 (group 0)
        acc_72 = v_64.to(gl.float32)  # convert1_acc: stage 0, partition 0 (group 0)
        acc_71 = gl.expand_dims(exp_logic_67, 1)  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_73 = acc_71.broadcast_to([16, 128])  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_74 = acc_73 * acc_72  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_75 = gl.sum(acc_74, axis=0)  # reduce2_acc: stage 0, partition 0 (group 0)
        acc_69 = logic_scale_68  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_70 = acc_76_p1 * acc_69  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_76 = acc_70 + acc_75  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_76_p1 = acc_76
        new_max_logic_65_p1 = new_max_logic_65
        sum_exp_78_p1 = sum_exp_78
    off_mid_o = cur_batch * stride_mid_ob
    off_mid_o_28 = cur_head * stride_mid_oh
    off_mid_o_29 = off_mid_o + off_mid_o_28
    off_mid_o_30 = seq_start_block * stride_mid_os
    off_mid_o_31 = off_mid_o_29 + off_mid_o_30
    off_mid_o_33 = off_mid_o_31 + offs_d
    off_lse = cur_batch * stride_mid_o_eb
    off_lse_34 = cur_head * stride_mid_o_eh
    off_lse_35 = off_lse + off_lse_34
    off_lse_36 = off_lse_35 + seq_start_block
    v1 = Mid_O + off_mid_o_33
    v3 = acc_76_p1 / sum_exp_78_p1
    v4 = gl.convert_layout(v3, L0_short)
    gl.store(v1, v4)
    v5 = Mid_O_LogExpSum + off_lse_36
    v6 = gl.log(sum_exp_78_p1)
    v7 = new_max_logic_65_p1 + v6
    gl.store(v5, v7)

@gluon.jit
def twill_kernel_short(Q, K, V, sm_scale, Req_to_tokens, Topk_token_indices, Mid_O, Mid_O_LogExpSum, Heavy_token_num, stride_req_to_tokens_b, stride_topk_token_indices_h, stride_topk_token_indices_b, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_mid_o_eb, stride_mid_o_eh, gqa_group_size):
    consumer_0_short(Q, K, V, sm_scale, Req_to_tokens, Topk_token_indices, Mid_O, Mid_O_LogExpSum, Heavy_token_num, stride_req_to_tokens_b, stride_topk_token_indices_h, stride_topk_token_indices_b, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, stride_mid_o_eb, stride_mid_o_eh, gqa_group_size, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'sm_scale', 'Req_to_tokens', 'Topk_token_indices', 'Mid_O', 'Mid_O_LogExpSum', 'Heavy_token_num', 'stride_req_to_tokens_b', 'stride_topk_token_indices_h', 'stride_topk_token_indices_b', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os', 'stride_mid_o_eb', 'stride_mid_o_eh', 'gqa_group_size', 'BLOCK_SEQ', 'BLOCK_DMODEL', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'sm_scale', 'Req_to_tokens', 'Topk_token_indices', 'Mid_O', 'Mid_O_LogExpSum', 'Heavy_token_num', 'stride_req_to_tokens_b', 'stride_topk_token_indices_h', 'stride_topk_token_indices_b', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os', 'stride_mid_o_eb', 'stride_mid_o_eh', 'gqa_group_size']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'sm_scale', 'Req_to_tokens', 'Topk_token_indices', 'Mid_O', 'Mid_O_LogExpSum', 'Heavy_token_num', 'stride_req_to_tokens_b', 'stride_topk_token_indices_h', 'stride_topk_token_indices_b', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os', 'stride_mid_o_eb', 'stride_mid_o_eh', 'gqa_group_size']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_SEQ': 256, 'BLOCK_DMODEL': 128, 'BLOCK_N': 16}         # the specialisation this kernel was generated for
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
ARGUMENTS_short = ['Q', 'K', 'V', 'sm_scale', 'Req_to_tokens', 'Topk_token_indices', 'Mid_O', 'Mid_O_LogExpSum', 'Heavy_token_num', 'stride_req_to_tokens_b', 'stride_topk_token_indices_h', 'stride_topk_token_indices_b', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os', 'stride_mid_o_eb', 'stride_mid_o_eh', 'gqa_group_size', 'BLOCK_SEQ', 'BLOCK_DMODEL', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Q', 'K', 'V', 'sm_scale', 'Req_to_tokens', 'Topk_token_indices', 'Mid_O', 'Mid_O_LogExpSum', 'Heavy_token_num', 'stride_req_to_tokens_b', 'stride_topk_token_indices_h', 'stride_topk_token_indices_b', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os', 'stride_mid_o_eb', 'stride_mid_o_eh', 'gqa_group_size']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Q', 'K', 'V', 'sm_scale', 'Req_to_tokens', 'Topk_token_indices', 'Mid_O', 'Mid_O_LogExpSum', 'Heavy_token_num', 'stride_req_to_tokens_b', 'stride_topk_token_indices_h', 'stride_topk_token_indices_b', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os', 'stride_mid_o_eb', 'stride_mid_o_eh', 'gqa_group_size']   # the arguments a launch key reads
CONSTEXPRS_short = {'BLOCK_SEQ': 256, 'BLOCK_DMODEL': 128, 'BLOCK_N': 16}         # the specialisation this kernel was generated for
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
