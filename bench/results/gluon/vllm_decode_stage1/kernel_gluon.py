"""_fwd_kernel_stage1, written by twill from its joint schedule: I=352 L=449 (optimal), 2485 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 122 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- if at vllm_decode_stage1.py:92 (TTGIR line 77) around the scheduled loop: taken as an early return where its condition fails in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- timed at launch: the same loop in one stage, `twill_kernel_short` (I=449 optimal among one-stage schedules, ptxas 77 registers, 6 CTA(s) an SM against this kernel's 3 at 163), beside this pipelined kernel; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 139-142 and 219: one stage x0.44-1.20 of the pipelined kernel's speed over eighteen loops; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(Q, K_Buffer, V_Buffer, sm_scale, Req_to_tokens, B_Seqlen, Att_Out, stride_req_to_tokens_b, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os):
    cur_batch = gl.program_id(0)
    cur_head = gl.program_id(1)
    split_kv_id = gl.program_id(2)
    offs_d = gl.arange(0, 128, layout=L0)
    offs_d_12 = gl.arange(0, 128, layout=L1)
    mask_d = offs_d < 128
    mask_d_13 = offs_d_12 < 128
    cur_batch_seq_len = B_Seqlen + cur_batch
    cur_batch_seq_len_14 = gl.load(cur_batch_seq_len)
    off_q = cur_batch * stride_qbs
    off_q_15 = cur_head * stride_qh
    off_q_16 = off_q + off_q_15
    off_q_18 = off_q_16 + offs_d_12
    q_20 = Q + off_q_18
    q_21 = gl.load(q_20, mask=mask_d_13, other=0.0)
    kv_len_per_split_22 = cur_batch_seq_len_14 + 7
    kv_len_per_split_23 = kv_len_per_split_22 // 8
    split_kv_start = kv_len_per_split_23 * split_kv_id
    split_kv_end = split_kv_start + kv_len_per_split_23
    split_kv_end_24 = gl.minimum(split_kv_end, cur_batch_seq_len_14)
    offs_n = gl.arange(0, 64, layout=L2)
    kv_page_number_25 = stride_req_to_tokens_b * cur_batch
    kv_page_number_26 = Req_to_tokens + kv_page_number_25
    offs_buf_k_28 = cur_head * stride_buf_kh
    offs_buf_k_30 = gl.expand_dims(offs_d, 0)
    offs_buf_k_31 = offs_buf_k_30.broadcast_to([64, 128])
    k_32 = gl.expand_dims(mask_d, 0)
    k_33 = k_32.broadcast_to([64, 128])
    qk = gl.convert_layout(q_21, L0)
    qk_35 = gl.expand_dims(qk, 0)
    qk_36 = qk_35.broadcast_to([64, 128])
    offs_buf_v_38 = cur_head * stride_buf_vh
    twill_n = gl.maximum((split_kv_end_24 - split_kv_start + 64 - 1) // 64, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        n_e_max_88 = float("-inf")
        offs_n_49 = (split_kv_start + (0 - 0) * 64)  # load0_kv_page_number: stage 0, partition 0 (group 0)
        offs_n_50 = offs_n_49 + offs_n  # load0_kv_page_number: stage 0, partition 0 (group 0)
        k_62 = gl.expand_dims(offs_n_50, 1)  # elementwise0_k: stage 0, partition 0 (group 0)
        k_63 = k_62 < split_kv_end_24  # elementwise0_k: stage 0, partition 0 (group 0)
        k_64 = k_63.broadcast_to([64, 128])  # elementwise0_k: stage 0, partition 0 (group 0)
        k_65 = k_64 & k_33  # elementwise0_k: stage 0, partition 0 (group 0)
        kv_page_number_52 = offs_n_50 // 16  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_page_number_51 = offs_n_50 < split_kv_end_24  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_page_number_53 = kv_page_number_26 + kv_page_number_52  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_page_number_54 = gl.load(kv_page_number_53, mask=kv_page_number_51, other=0)  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_loc = kv_page_number_54 * 16  # load1_k: stage 0, partition 0 (group 0)
        kv_loc_55 = offs_n_50 % 16  # load1_k: stage 0, partition 0 (group 0)
        kv_loc_56 = kv_loc + kv_loc_55  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_57 = gl.expand_dims(kv_loc_56, 1)  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_58 = offs_buf_k_57 * stride_buf_kbs  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_59 = offs_buf_k_58 + offs_buf_k_28  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_60 = offs_buf_k_59.broadcast_to([64, 128])  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_61 = offs_buf_k_60 + offs_buf_k_31  # load1_k: stage 0, partition 0 (group 0)
        k_66 = K_Buffer + offs_buf_k_61  # load1_k: stage 0, partition 0 (group 0)
        k_67 = gl.load(k_66, mask=k_65, other=0.0)  # load1_k: stage 0, partition 0 (group 0)
        k_65_p1 = k_65
        k_67_p1 = k_67
        kv_page_number_51_p1 = kv_page_number_51
        n_e_max_88_p1 = n_e_max_88
        offs_buf_k_57_p1 = offs_buf_k_57
        e_sum_101 = 0.0
        acc_99 = gl.full([128], 0.0, gl.float32, layout=L0)
        offs_n_49 = (split_kv_start + (1 - 0) * 64)  # load0_kv_page_number: stage 0, partition 0 (group 0)
        offs_n_50 = offs_n_49 + offs_n  # load0_kv_page_number: stage 0, partition 0 (group 0)
        k_62 = gl.expand_dims(offs_n_50, 1)  # elementwise0_k: stage 0, partition 0 (group 0)
        k_63 = k_62 < split_kv_end_24  # elementwise0_k: stage 0, partition 0 (group 0)
        k_64 = k_63.broadcast_to([64, 128])  # elementwise0_k: stage 0, partition 0 (group 0)
        k_65 = k_64 & k_33  # elementwise0_k: stage 0, partition 0 (group 0)
        offs_buf_v_82 = offs_buf_k_57_p1 * stride_buf_vbs  # load2_v: stage 1, partition 0 (group 0)
        offs_buf_v_83 = offs_buf_v_82 + offs_buf_v_38  # load2_v: stage 1, partition 0 (group 0)
        offs_buf_v_84 = offs_buf_v_83.broadcast_to([64, 128])  # load2_v: stage 1, partition 0 (group 0)
        offs_buf_v_85 = offs_buf_v_84 + offs_buf_k_31  # load2_v: stage 1, partition 0 (group 0)
        v_86 = V_Buffer + offs_buf_v_85  # load2_v: stage 1, partition 0 (group 0)
        v_87 = gl.load(v_86, mask=k_65_p1, other=0.0)  # load2_v: stage 1, partition 0 (group 0)
        kv_page_number_52 = offs_n_50 // 16  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_page_number_51 = offs_n_50 < split_kv_end_24  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_page_number_53 = kv_page_number_26 + kv_page_number_52  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_page_number_54 = gl.load(kv_page_number_53, mask=kv_page_number_51, other=0)  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_loc = kv_page_number_54 * 16  # load1_k: stage 0, partition 0 (group 0)
        kv_loc_55 = offs_n_50 % 16  # load1_k: stage 0, partition 0 (group 0)
        kv_loc_56 = kv_loc + kv_loc_55  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_57 = gl.expand_dims(kv_loc_56, 1)  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_58 = offs_buf_k_57 * stride_buf_kbs  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_59 = offs_buf_k_58 + offs_buf_k_28  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_60 = offs_buf_k_59.broadcast_to([64, 128])  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_61 = offs_buf_k_60 + offs_buf_k_31  # load1_k: stage 0, partition 0 (group 0)
        k_66 = K_Buffer + offs_buf_k_61  # load1_k: stage 0, partition 0 (group 0)
        k_67 = gl.load(k_66, mask=k_65, other=0.0)  # load1_k: stage 0, partition 0 (group 0)
        qk_68 = qk_36 * k_67_p1  # elementwise1_qk: stage 1, partition 0 (group 0)
        qk_69 = gl.sum(qk_68, axis=1)  # reduce0_qk: stage 1, partition 0 (group 0)
        qk_70 = qk_69.to(gl.float32)  # convert0_qk: stage 1, partition 0 (group 0)
        qk_71 = qk_70 * sm_scale  # sfu0_qk: stage 1, partition 0 (group 0)
        qk_72 = qk_71 / 30.0  # sfu0_qk: stage 1, partition 0 (group 0)
        qk_73 = qk_72 * 2.0  # sfu0_qk: stage 1, partition 0 (group 0)
        qk_74 = 0.0 - qk_73  # sfu0_qk: stage 1, partition 0 (group 0)
        qk_75 = gl.exp(qk_74)  # sfu0_qk: stage 1, partition 0 (group 0)
        qk_76 = qk_75 + 1.0  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_77 = 1.0 / qk_76  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_78 = qk_77 * 2.0  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_79 = qk_78 - 1.0  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_80 = qk_79 * 30.0  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_81 = gl.where(kv_page_number_51_p1, qk_80, float("-inf"))  # elementwise2_qk: stage 1, partition 0 (group 0)
        n_e_max = gl.max(qk_81, axis=0)  # reduce1_n_e_max: stage 1, partition 0 (group 0)
        n_e_max_88 = gl.maximum(n_e_max, n_e_max_88_p1)  # elementwise3_n_e_max: stage 1, partition 0 (group 0)
        p = n_e_max_88  # sfu2_p: stage 1, partition 0 (group 0)
        p_90 = qk_81 - p  # sfu2_p: stage 1, partition 0 (group 0)
        p_91 = gl.exp(p_90)  # sfu2_p: stage 1, partition 0 (group 0)
        e_sum_100 = gl.sum(p_91, axis=0)  # reduce3_e_sum: stage 1, partition 0 (group 0)
        acc_99_p1 = acc_99
        e_sum_100_p1 = e_sum_100
        e_sum_101_p1 = e_sum_101
        k_65_p1 = k_65
        k_67_p1 = k_67
        kv_page_number_51_p1 = kv_page_number_51
        n_e_max_88_p2 = n_e_max_88_p1
        n_e_max_88_p1 = n_e_max_88
        offs_buf_k_57_p1 = offs_buf_k_57
        p_91_p1 = p_91
        v_87_p1 = v_87
        for twill_b in range(2, twill_n):
            offs_n_49 = (split_kv_start + (twill_b - 0) * 64)  # load0_kv_page_number: stage 0, partition 0 (group 0)
            offs_n_50 = offs_n_49 + offs_n  # load0_kv_page_number: stage 0, partition 0 (group 0)
            k_62 = gl.expand_dims(offs_n_50, 1)  # elementwise0_k: stage 0, partition 0 (group 0)
            k_63 = k_62 < split_kv_end_24  # elementwise0_k: stage 0, partition 0 (group 0)
            k_64 = k_63.broadcast_to([64, 128])  # elementwise0_k: stage 0, partition 0 (group 0)
            k_65 = k_64 & k_33  # elementwise0_k: stage 0, partition 0 (group 0)
            re_scale = n_e_max_88_p2 - n_e_max_88_p1  # sfu1_re_scale: stage 2, partition 0 (group 0)
            re_scale_89 = gl.exp(re_scale)  # sfu1_re_scale: stage 2, partition 0 (group 0)
            e_sum = e_sum_101_p1 * re_scale_89  # elementwise6_e_sum: stage 2, partition 0 (group 0)
            e_sum_101 = e_sum + e_sum_100_p1  # elementwise6_e_sum: stage 2, partition 0 (group 0)
            offs_buf_v_82 = offs_buf_k_57_p1 * stride_buf_vbs  # load2_v: stage 1, partition 0 (group 0)
            offs_buf_v_83 = offs_buf_v_82 + offs_buf_v_38  # load2_v: stage 1, partition 0 (group 0)
            offs_buf_v_84 = offs_buf_v_83.broadcast_to([64, 128])  # load2_v: stage 1, partition 0 (group 0)
            offs_buf_v_85 = offs_buf_v_84 + offs_buf_k_31  # load2_v: stage 1, partition 0 (group 0)
            v_86 = V_Buffer + offs_buf_v_85  # load2_v: stage 1, partition 0 (group 0)
            v_87 = gl.load(v_86, mask=k_65_p1, other=0.0)  # load2_v: stage 1, partition 0 (group 0)
            acc_95 = v_87_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
            acc_94 = gl.expand_dims(p_91_p1, 1)  # elementwise5_acc: stage 2, partition 0 (group 0)
            acc_96 = acc_94.broadcast_to([64, 128])  # elementwise5_acc: stage 2, partition 0 (group 0)
            acc_97 = acc_96 * acc_95  # elementwise5_acc: stage 2, partition 0 (group 0)
            acc_98 = gl.sum(acc_97, axis=0)  # reduce2_acc: stage 2, partition 0 (group 0)
            acc_92 = re_scale_89  # elementwise4_acc: stage 2, partition 0 (group 0)
            acc_93 = acc_99_p1 * acc_92  # elementwise4_acc: stage 2, partition 0 (group 0)
            acc_99 = acc_93 + acc_98  # elementwise4_acc: stage 2, partition 0 (group 0)
            kv_page_number_52 = offs_n_50 // 16  # load0_kv_page_number: stage 0, partition 0 (group 0)
            kv_page_number_51 = offs_n_50 < split_kv_end_24  # load0_kv_page_number: stage 0, partition 0 (group 0)
            kv_page_number_53 = kv_page_number_26 + kv_page_number_52  # load0_kv_page_number: stage 0, partition 0 (group 0)
            kv_page_number_54 = gl.load(kv_page_number_53, mask=kv_page_number_51, other=0)  # load0_kv_page_number: stage 0, partition 0 (group 0)
            kv_loc = kv_page_number_54 * 16  # load1_k: stage 0, partition 0 (group 0)
            kv_loc_55 = offs_n_50 % 16  # load1_k: stage 0, partition 0 (group 0)
            kv_loc_56 = kv_loc + kv_loc_55  # load1_k: stage 0, partition 0 (group 0)
            offs_buf_k_57 = gl.expand_dims(kv_loc_56, 1)  # load1_k: stage 0, partition 0 (group 0)
            offs_buf_k_58 = offs_buf_k_57 * stride_buf_kbs  # load1_k: stage 0, partition 0 (group 0)
            offs_buf_k_59 = offs_buf_k_58 + offs_buf_k_28  # load1_k: stage 0, partition 0 (group 0)
            offs_buf_k_60 = offs_buf_k_59.broadcast_to([64, 128])  # load1_k: stage 0, partition 0 (group 0)
            offs_buf_k_61 = offs_buf_k_60 + offs_buf_k_31  # load1_k: stage 0, partition 0 (group 0)
            k_66 = K_Buffer + offs_buf_k_61  # load1_k: stage 0, partition 0 (group 0)
            k_67 = gl.load(k_66, mask=k_65, other=0.0)  # load1_k: stage 0, partition 0 (group 0)
            qk_68 = qk_36 * k_67_p1  # elementwise1_qk: stage 1, partition 0 (group 0)
            qk_69 = gl.sum(qk_68, axis=1)  # reduce0_qk: stage 1, partition 0 (group 0)
            qk_70 = qk_69.to(gl.float32)  # convert0_qk: stage 1, partition 0 (group 0)
            qk_71 = qk_70 * sm_scale  # sfu0_qk: stage 1, partition 0 (group 0)
            qk_72 = qk_71 / 30.0  # sfu0_qk: stage 1, partition 0 (group 0)
            qk_73 = qk_72 * 2.0  # sfu0_qk: stage 1, partition 0 (group 0)
            qk_74 = 0.0 - qk_73  # sfu0_qk: stage 1, partition 0 (group 0)
            qk_75 = gl.exp(qk_74)  # sfu0_qk: stage 1, partition 0 (group 0)
            qk_76 = qk_75 + 1.0  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_77 = 1.0 / qk_76  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_78 = qk_77 * 2.0  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_79 = qk_78 - 1.0  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_80 = qk_79 * 30.0  # elementwise2_qk: stage 1, partition 0 (group 0)
            qk_81 = gl.where(kv_page_number_51_p1, qk_80, float("-inf"))  # elementwise2_qk: stage 1, partition 0 (group 0)
            n_e_max = gl.max(qk_81, axis=0)  # reduce1_n_e_max: stage 1, partition 0 (group 0)
            n_e_max_88 = gl.maximum(n_e_max, n_e_max_88_p1)  # elementwise3_n_e_max: stage 1, partition 0 (group 0)
            p = n_e_max_88  # sfu2_p: stage 1, partition 0 (group 0)
            p_90 = qk_81 - p  # sfu2_p: stage 1, partition 0 (group 0)
            p_91 = gl.exp(p_90)  # sfu2_p: stage 1, partition 0 (group 0)
            e_sum_100 = gl.sum(p_91, axis=0)  # reduce3_e_sum: stage 1, partition 0 (group 0)
            acc_99_p1 = acc_99
            e_sum_100_p1 = e_sum_100
            e_sum_101_p1 = e_sum_101
            k_65_p1 = k_65
            k_67_p1 = k_67
            kv_page_number_51_p1 = kv_page_number_51
            n_e_max_88_p2 = n_e_max_88_p1
            n_e_max_88_p1 = n_e_max_88
            offs_buf_k_57_p1 = offs_buf_k_57
            p_91_p1 = p_91
            v_87_p1 = v_87
        re_scale = n_e_max_88_p2 - n_e_max_88_p1  # sfu1_re_scale: stage 2, partition 0 (group 0)
        re_scale_89 = gl.exp(re_scale)  # sfu1_re_scale: stage 2, partition 0 (group 0)
        e_sum = e_sum_101_p1 * re_scale_89  # elementwise6_e_sum: stage 2, partition 0 (group 0)
        e_sum_101 = e_sum + e_sum_100_p1  # elementwise6_e_sum: stage 2, partition 0 (group 0)
        offs_buf_v_82 = offs_buf_k_57_p1 * stride_buf_vbs  # load2_v: stage 1, partition 0 (group 0)
        offs_buf_v_83 = offs_buf_v_82 + offs_buf_v_38  # load2_v: stage 1, partition 0 (group 0)
        offs_buf_v_84 = offs_buf_v_83.broadcast_to([64, 128])  # load2_v: stage 1, partition 0 (group 0)
        offs_buf_v_85 = offs_buf_v_84 + offs_buf_k_31  # load2_v: stage 1, partition 0 (group 0)
        v_86 = V_Buffer + offs_buf_v_85  # load2_v: stage 1, partition 0 (group 0)
        v_87 = gl.load(v_86, mask=k_65_p1, other=0.0)  # load2_v: stage 1, partition 0 (group 0)
        acc_95 = v_87_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_94 = gl.expand_dims(p_91_p1, 1)  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_96 = acc_94.broadcast_to([64, 128])  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_97 = acc_96 * acc_95  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_98 = gl.sum(acc_97, axis=0)  # reduce2_acc: stage 2, partition 0 (group 0)
        acc_92 = re_scale_89  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_93 = acc_99_p1 * acc_92  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_99 = acc_93 + acc_98  # elementwise4_acc: stage 2, partition 0 (group 0)
        qk_68 = qk_36 * k_67_p1  # elementwise1_qk: stage 1, partition 0 (group 0)
        qk_69 = gl.sum(qk_68, axis=1)  # reduce0_qk: stage 1, partition 0 (group 0)
        qk_70 = qk_69.to(gl.float32)  # convert0_qk: stage 1, partition 0 (group 0)
        qk_71 = qk_70 * sm_scale  # sfu0_qk: stage 1, partition 0 (group 0)
        qk_72 = qk_71 / 30.0  # sfu0_qk: stage 1, partition 0 (group 0)
        qk_73 = qk_72 * 2.0  # sfu0_qk: stage 1, partition 0 (group 0)
        qk_74 = 0.0 - qk_73  # sfu0_qk: stage 1, partition 0 (group 0)
        qk_75 = gl.exp(qk_74)  # sfu0_qk: stage 1, partition 0 (group 0)
        qk_76 = qk_75 + 1.0  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_77 = 1.0 / qk_76  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_78 = qk_77 * 2.0  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_79 = qk_78 - 1.0  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_80 = qk_79 * 30.0  # elementwise2_qk: stage 1, partition 0 (group 0)
        qk_81 = gl.where(kv_page_number_51_p1, qk_80, float("-inf"))  # elementwise2_qk: stage 1, partition 0 (group 0)
        n_e_max = gl.max(qk_81, axis=0)  # reduce1_n_e_max: stage 1, partition 0 (group 0)
        n_e_max_88 = gl.maximum(n_e_max, n_e_max_88_p1)  # elementwise3_n_e_max: stage 1, partition 0 (group 0)
        p = n_e_max_88  # sfu2_p: stage 1, partition 0 (group 0)
        p_90 = qk_81 - p  # sfu2_p: stage 1, partition 0 (group 0)
        p_91 = gl.exp(p_90)  # sfu2_p: stage 1, partition 0 (group 0)
        e_sum_100 = gl.sum(p_91, axis=0)  # reduce3_e_sum: stage 1, partition 0 (group 0)
        acc_99_p1 = acc_99
        e_sum_100_p1 = e_sum_100
        e_sum_101_p1 = e_sum_101
        k_65_p1 = k_65
        k_67_p1 = k_67
        kv_page_number_51_p1 = kv_page_number_51
        n_e_max_88_p2 = n_e_max_88_p1
        n_e_max_88_p1 = n_e_max_88
        offs_buf_k_57_p1 = offs_buf_k_57
        p_91_p1 = p_91
        v_87_p1 = v_87
        re_scale = n_e_max_88_p2 - n_e_max_88_p1  # sfu1_re_scale: stage 2, partition 0 (group 0)
        re_scale_89 = gl.exp(re_scale)  # sfu1_re_scale: stage 2, partition 0 (group 0)
        e_sum = e_sum_101_p1 * re_scale_89  # elementwise6_e_sum: stage 2, partition 0 (group 0)
        e_sum_101 = e_sum + e_sum_100_p1  # elementwise6_e_sum: stage 2, partition 0 (group 0)
        acc_95 = v_87_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_94 = gl.expand_dims(p_91_p1, 1)  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_96 = acc_94.broadcast_to([64, 128])  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_97 = acc_96 * acc_95  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_98 = gl.sum(acc_97, axis=0)  # reduce2_acc: stage 2, partition 0 (group 0)
        acc_92 = re_scale_89  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_93 = acc_99_p1 * acc_92  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_99 = acc_93 + acc_98  # elementwise4_acc: stage 2, partition 0 (group 0)
        acc_99_p1 = acc_99
        e_sum_100_p1 = e_sum_100
        e_sum_101_p1 = e_sum_101
        k_65_p1 = k_65
        k_67_p1 = k_67
        kv_page_number_51_p1 = kv_page_number_51
        n_e_max_88_p2 = n_e_max_88_p1
        n_e_max_88_p1 = n_e_max_88
        offs_buf_k_57_p1 = offs_buf_k_57
        p_91_p1 = p_91
        v_87_p1 = v_87
    else:
        arg18_w = gl.to_tensor(float("-inf"))
        arg19_w = gl.to_tensor(0.0)
        acc_48_w = gl.full([128], 0.0, gl.float32, layout=L0)
        for acc_47_w in range(split_kv_start, split_kv_end_24, 64):
            offs_n_50_w = acc_47_w + offs_n
            kv_page_number_51_w = offs_n_50_w < split_kv_end_24
            kv_page_number_52_w = offs_n_50_w // 16
            kv_page_number_53_w = kv_page_number_26 + kv_page_number_52_w
            kv_page_number_54_w = gl.load(kv_page_number_53_w, mask=kv_page_number_51_w, other=0)
            kv_loc_w = kv_page_number_54_w * 16
            kv_loc_55_w = offs_n_50_w % 16
            kv_loc_56_w = kv_loc_w + kv_loc_55_w
            offs_buf_k_57_w = gl.expand_dims(kv_loc_56_w, 1)
            offs_buf_k_58_w = offs_buf_k_57_w * stride_buf_kbs
            offs_buf_k_59_w = offs_buf_k_58_w + offs_buf_k_28
            offs_buf_k_60_w = offs_buf_k_59_w.broadcast_to([64, 128])
            offs_buf_k_61_w = offs_buf_k_60_w + offs_buf_k_31
            k_62_w = gl.expand_dims(offs_n_50_w, 1)
            k_63_w = k_62_w < split_kv_end_24
            k_64_w = k_63_w.broadcast_to([64, 128])
            k_65_w = k_64_w & k_33
            k_66_w = K_Buffer + offs_buf_k_61_w
            k_67_w = gl.load(k_66_w, mask=k_65_w, other=0.0)
            qk_68_w = qk_36 * k_67_w
            qk_69_w = gl.sum(qk_68_w, axis=1)
            qk_70_w = qk_69_w.to(gl.float32)
            qk_71_w = qk_70_w * sm_scale
            qk_72_w = qk_71_w / 30.0
            qk_73_w = qk_72_w * 2.0
            qk_74_w = 0.0 - qk_73_w
            qk_75_w = gl.exp(qk_74_w)
            qk_76_w = qk_75_w + 1.0
            qk_77_w = 1.0 / qk_76_w
            qk_78_w = qk_77_w * 2.0
            qk_79_w = qk_78_w - 1.0
            qk_80_w = qk_79_w * 30.0
            qk_81_w = gl.where(kv_page_number_51_w, qk_80_w, float("-inf"))
            offs_buf_v_82_w = offs_buf_k_57_w * stride_buf_vbs
            offs_buf_v_83_w = offs_buf_v_82_w + offs_buf_v_38
            offs_buf_v_84_w = offs_buf_v_83_w.broadcast_to([64, 128])
            offs_buf_v_85_w = offs_buf_v_84_w + offs_buf_k_31
            v_86_w = V_Buffer + offs_buf_v_85_w
            v_87_w = gl.load(v_86_w, mask=k_65_w, other=0.0)
            n_e_max_w = gl.max(qk_81_w, axis=0)
            n_e_max_88_w = gl.maximum(n_e_max_w, arg18_w)
            re_scale_w = arg18_w - n_e_max_88_w
            re_scale_89_w = gl.exp(re_scale_w)
            p_90_w = qk_81_w - n_e_max_88_w
            p_91_w = gl.exp(p_90_w)
            acc_93_w = acc_48_w * re_scale_89_w
            acc_94_w = gl.expand_dims(p_91_w, 1)
            acc_95_w = v_87_w.to(gl.float32)
            acc_96_w = acc_94_w.broadcast_to([64, 128])
            acc_97_w = acc_96_w * acc_95_w
            acc_98_w = gl.sum(acc_97_w, axis=0)
            acc_99_w = acc_93_w + acc_98_w
            e_sum_w = arg19_w * re_scale_89_w
            e_sum_100_w = gl.sum(p_91_w, axis=0)
            e_sum_101_w = e_sum_w + e_sum_100_w
            arg18_w = n_e_max_88_w
            arg19_w = e_sum_101_w
            acc_48_w = acc_99_w
        n_e_max_88_p2 = arg18_w
        e_sum_101_p1 = arg19_w
        acc_99_p1 = acc_48_w
    offs_mid_o = cur_batch * stride_mid_ob
    offs_mid_o_41 = cur_head * stride_mid_oh
    offs_mid_o_42 = offs_mid_o + offs_mid_o_41
    offs_mid_o_43 = split_kv_id * stride_mid_os
    offs_mid_o_44 = offs_mid_o_42 + offs_mid_o_43
    offs_mid_o_46 = offs_mid_o_44 + offs_d_12
    v2 = Att_Out + offs_mid_o_46
    v4 = acc_99_p1 / e_sum_101_p1
    v5 = gl.convert_layout(v4, L1)
    gl.store(v2, v5, mask=mask_d_13)
    offs_mid_o_1 = offs_mid_o_44 + 128
    v6 = Att_Out + offs_mid_o_1
    v7 = gl.log(e_sum_101_p1)
    v8 = n_e_max_88_p2 + v7
    gl.store(v6, v8)

@gluon.jit
def twill_kernel(Q, K_Buffer, V_Buffer, sm_scale, Req_to_tokens, B_Seqlen, Att_Out, stride_req_to_tokens_b, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os):
    cur_batch = gl.program_id(0)
    split_kv_id = gl.program_id(2)
    cur_batch_seq_len = B_Seqlen + cur_batch
    cur_batch_seq_len_14 = gl.load(cur_batch_seq_len)
    kv_len_per_split_22 = cur_batch_seq_len_14 + 7
    kv_len_per_split_23 = kv_len_per_split_22 // 8
    split_kv_start = kv_len_per_split_23 * split_kv_id
    split_kv_end = split_kv_start + kv_len_per_split_23
    split_kv_end_24 = gl.minimum(split_kv_end, cur_batch_seq_len_14)
    v0 = split_kv_end_24 > split_kv_start
    if not v0:
        return
    consumer_0(Q, K_Buffer, V_Buffer, sm_scale, Req_to_tokens, B_Seqlen, Att_Out, stride_req_to_tokens_b, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, )



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0_short(Q, K_Buffer, V_Buffer, sm_scale, Req_to_tokens, B_Seqlen, Att_Out, stride_req_to_tokens_b, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os):
    cur_batch = gl.program_id(0)
    cur_head = gl.program_id(1)
    split_kv_id = gl.program_id(2)
    offs_d = gl.arange(0, 128, layout=L0_short)
    offs_d_12 = gl.arange(0, 128, layout=L1_short)
    mask_d = offs_d < 128
    mask_d_13 = offs_d_12 < 128
    cur_batch_seq_len = B_Seqlen + cur_batch
    cur_batch_seq_len_14 = gl.load(cur_batch_seq_len)
    off_q = cur_batch * stride_qbs
    off_q_15 = cur_head * stride_qh
    off_q_16 = off_q + off_q_15
    off_q_18 = off_q_16 + offs_d_12
    q_20 = Q + off_q_18
    q_21 = gl.load(q_20, mask=mask_d_13, other=0.0)
    kv_len_per_split_22 = cur_batch_seq_len_14 + 7
    kv_len_per_split_23 = kv_len_per_split_22 // 8
    split_kv_start = kv_len_per_split_23 * split_kv_id
    split_kv_end = split_kv_start + kv_len_per_split_23
    split_kv_end_24 = gl.minimum(split_kv_end, cur_batch_seq_len_14)
    offs_n = gl.arange(0, 64, layout=L2_short)
    kv_page_number_25 = stride_req_to_tokens_b * cur_batch
    kv_page_number_26 = Req_to_tokens + kv_page_number_25
    offs_buf_k_28 = cur_head * stride_buf_kh
    offs_buf_k_30 = gl.expand_dims(offs_d, 0)
    offs_buf_k_31 = offs_buf_k_30.broadcast_to([64, 128])
    k_32 = gl.expand_dims(mask_d, 0)
    k_33 = k_32.broadcast_to([64, 128])
    qk = gl.convert_layout(q_21, L0_short)
    qk_35 = gl.expand_dims(qk, 0)
    qk_36 = qk_35.broadcast_to([64, 128])
    offs_buf_v_38 = cur_head * stride_buf_vh
    twill_n = gl.maximum((split_kv_end_24 - split_kv_start + 64 - 1) // 64, 0)
    n_e_max_88 = float("-inf")
    e_sum_101 = 0.0
    acc_99 = gl.full([128], 0.0, gl.float32, layout=L0_short)
    acc_99_p1 = acc_99
    e_sum_101_p1 = e_sum_101
    n_e_max_88_p1 = n_e_max_88
    for twill_b in range(0, twill_n):
        offs_n_49 = (split_kv_start + (twill_b - 0) * 64)  # load0_kv_page_number: stage 0, partition 0 (group 0)
        offs_n_50 = offs_n_49 + offs_n  # load0_kv_page_number: stage 0, partition 0 (group 0)
        k_62 = gl.expand_dims(offs_n_50, 1)  # elementwise0_k: stage 0, partition 0 (group 0)
        k_63 = k_62 < split_kv_end_24  # elementwise0_k: stage 0, partition 0 (group 0)
        k_64 = k_63.broadcast_to([64, 128])  # elementwise0_k: stage 0, partition 0 (group 0)
        k_65 = k_64 & k_33  # elementwise0_k: stage 0, partition 0 (group 0)
        kv_page_number_52 = offs_n_50 // 16  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_page_number_51 = offs_n_50 < split_kv_end_24  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_page_number_53 = kv_page_number_26 + kv_page_number_52  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_page_number_54 = gl.load(kv_page_number_53, mask=kv_page_number_51, other=0)  # load0_kv_page_number: stage 0, partition 0 (group 0)
        kv_loc = kv_page_number_54 * 16  # load1_k: stage 0, partition 0 (group 0)
        kv_loc_55 = offs_n_50 % 16  # load1_k: stage 0, partition 0 (group 0)
        kv_loc_56 = kv_loc + kv_loc_55  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_57 = gl.expand_dims(kv_loc_56, 1)  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_58 = offs_buf_k_57 * stride_buf_kbs  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_59 = offs_buf_k_58 + offs_buf_k_28  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_60 = offs_buf_k_59.broadcast_to([64, 128])  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_61 = offs_buf_k_60 + offs_buf_k_31  # load1_k: stage 0, partition 0 (group 0)
        k_66 = K_Buffer + offs_buf_k_61  # load1_k: stage 0, partition 0 (group 0)
        k_67 = gl.load(k_66, mask=k_65, other=0.0)  # load1_k: stage 0, partition 0 (group 0)
        qk_68 = qk_36 * k_67  # elementwise1_qk: stage 0, partition 0 (group 0)
        qk_69 = gl.sum(qk_68, axis=1)  # reduce0_qk: stage 0, partition 0 (group 0)
        qk_70 = qk_69.to(gl.float32)  # convert0_qk: stage 0, partition 0 (group 0)
        qk_71 = qk_70 * sm_scale  # sfu0_qk: stage 0, partition 0 (group 0)
        qk_72 = qk_71 / 30.0  # sfu0_qk: stage 0, partition 0 (group 0)
        qk_73 = qk_72 * 2.0  # sfu0_qk: stage 0, partition 0 (group 0)
        qk_74 = 0.0 - qk_73  # sfu0_qk: stage 0, partition 0 (group 0)
        qk_75 = gl.exp(qk_74)  # sfu0_qk: stage 0, partition 0 (group 0)
        qk_76 = qk_75 + 1.0  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_77 = 1.0 / qk_76  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_78 = qk_77 * 2.0  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_79 = qk_78 - 1.0  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_80 = qk_79 * 30.0  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_81 = gl.where(kv_page_number_51, qk_80, float("-inf"))  # elementwise2_qk: stage 0, partition 0 (group 0)
        n_e_max = gl.max(qk_81, axis=0)  # reduce1_n_e_max: stage 0, partition 0 (group 0)
        n_e_max_88 = gl.maximum(n_e_max, n_e_max_88_p1)  # elementwise3_n_e_max: stage 0, partition 0 (group 0)
        p = n_e_max_88  # sfu2_p: stage 0, partition 0 (group 0)
        p_90 = qk_81 - p  # sfu2_p: stage 0, partition 0 (group 0)
        p_91 = gl.exp(p_90)  # sfu2_p: stage 0, partition 0 (group 0)
        re_scale = n_e_max_88_p1 - n_e_max_88  # sfu1_re_scale: stage 0, partition 0 (group 0)
        re_scale_89 = gl.exp(re_scale)  # sfu1_re_scale: stage 0, partition 0 (group 0)
        e_sum_100 = gl.sum(p_91, axis=0)  # reduce3_e_sum: stage 0, partition 0 (group 0)
        e_sum = e_sum_101_p1 * re_scale_89  # elementwise6_e_sum: stage 0, partition 0 (group 0)
        e_sum_101 = e_sum + e_sum_100  # elementwise6_e_sum: stage 0, partition 0 (group 0)
        offs_buf_v_82 = offs_buf_k_57 * stride_buf_vbs  # load2_v: stage 0, partition 0 (group 0)
        offs_buf_v_83 = offs_buf_v_82 + offs_buf_v_38  # load2_v: stage 0, partition 0 (group 0)
        offs_buf_v_84 = offs_buf_v_83.broadcast_to([64, 128])  # load2_v: stage 0, partition 0 (group 0)
        offs_buf_v_85 = offs_buf_v_84 + offs_buf_k_31  # load2_v: stage 0, partition 0 (group 0)
        v_86 = V_Buffer + offs_buf_v_85  # load2_v: stage 0, partition 0 (group 0)
        v_87 = gl.load(v_86, mask=k_65, other=0.0)  # load2_v: stage 0, partition 0 (group 0)
        acc_95 = v_87.to(gl.float32)  # convert1_acc: stage 0, partition 0 (group 0)
        acc_94 = gl.expand_dims(p_91, 1)  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_96 = acc_94.broadcast_to([64, 128])  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_97 = acc_96 * acc_95  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_98 = gl.sum(acc_97, axis=0)  # reduce2_acc: stage 0, partition 0 (group 0)
        acc_92 = re_scale_89  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_93 = acc_99_p1 * acc_92  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_99 = acc_93 + acc_98  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_99_p1 = acc_99
        e_sum_101_p1 = e_sum_101
        n_e_max_88_p1 = n_e_max_88
    offs_mid_o = cur_batch * stride_mid_ob
    offs_mid_o_41 = cur_head * stride_mid_oh
    offs_mid_o_42 = offs_mid_o + offs_mid_o_41
    offs_mid_o_43 = split_kv_id * stride_mid_os
    offs_mid_o_44 = offs_mid_o_42 + offs_mid_o_43
    offs_mid_o_46 = offs_mid_o_44 + offs_d_12
    v2 = Att_Out + offs_mid_o_46
    v4 = acc_99_p1 / e_sum_101_p1
    v5 = gl.convert_layout(v4, L1_short)
    gl.store(v2, v5, mask=mask_d_13)
    offs_mid_o_1 = offs_mid_o_44 + 128
    v6 = Att_Out + offs_mid_o_1
    v7 = gl.log(e_sum_101_p1)
    v8 = n_e_max_88_p1 + v7
    gl.store(v6, v8)

@gluon.jit
def twill_kernel_short(Q, K_Buffer, V_Buffer, sm_scale, Req_to_tokens, B_Seqlen, Att_Out, stride_req_to_tokens_b, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os):
    cur_batch = gl.program_id(0)
    split_kv_id = gl.program_id(2)
    cur_batch_seq_len = B_Seqlen + cur_batch
    cur_batch_seq_len_14 = gl.load(cur_batch_seq_len)
    kv_len_per_split_22 = cur_batch_seq_len_14 + 7
    kv_len_per_split_23 = kv_len_per_split_22 // 8
    split_kv_start = kv_len_per_split_23 * split_kv_id
    split_kv_end = split_kv_start + kv_len_per_split_23
    split_kv_end_24 = gl.minimum(split_kv_end, cur_batch_seq_len_14)
    v0 = split_kv_end_24 > split_kv_start
    if not v0:
        return
    consumer_0_short(Q, K_Buffer, V_Buffer, sm_scale, Req_to_tokens, B_Seqlen, Att_Out, stride_req_to_tokens_b, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'Req_to_tokens', 'B_Seqlen', 'Att_Out', 'stride_req_to_tokens_b', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os', 'kv_group_num', 'BLOCK_DMODEL', 'BLOCK_DV', 'BLOCK_N', 'NUM_KV_SPLITS', 'PAGE_SIZE', 'logit_cap', 'Lk', 'Lv']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'Req_to_tokens', 'B_Seqlen', 'Att_Out', 'stride_req_to_tokens_b', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'Req_to_tokens', 'B_Seqlen', 'Att_Out', 'stride_req_to_tokens_b', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os']   # the arguments a launch key reads
CONSTEXPRS = {'kv_group_num': 1, 'BLOCK_DMODEL': 128, 'BLOCK_DV': 128, 'BLOCK_N': 64, 'NUM_KV_SPLITS': 8, 'PAGE_SIZE': 16, 'logit_cap': 30.0, 'Lk': 128, 'Lv': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
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
ARGUMENTS_short = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'Req_to_tokens', 'B_Seqlen', 'Att_Out', 'stride_req_to_tokens_b', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os', 'kv_group_num', 'BLOCK_DMODEL', 'BLOCK_DV', 'BLOCK_N', 'NUM_KV_SPLITS', 'PAGE_SIZE', 'logit_cap', 'Lk', 'Lv']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'Req_to_tokens', 'B_Seqlen', 'Att_Out', 'stride_req_to_tokens_b', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'Req_to_tokens', 'B_Seqlen', 'Att_Out', 'stride_req_to_tokens_b', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os']   # the arguments a launch key reads
CONSTEXPRS_short = {'kv_group_num': 1, 'BLOCK_DMODEL': 128, 'BLOCK_DV': 128, 'BLOCK_N': 64, 'NUM_KV_SPLITS': 8, 'PAGE_SIZE': 16, 'logit_cap': 30.0, 'Lk': 128, 'Lv': 128}         # the specialisation this kernel was generated for
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
