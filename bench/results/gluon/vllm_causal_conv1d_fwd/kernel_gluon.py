"""_causal_conv1d_fwd_kernel, written by twill from its joint schedule: I=100 L=360 (optimal), 620 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 40).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 5 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 56 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at vllm_causal_conv1d_fwd.py:58 (TTGIR line 47): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at vllm_causal_conv1d_fwd.py:67 (TTGIR line 67): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- if at vllm_causal_conv1d_fwd.py:71 (TTGIR line 75): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[2], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(x_ptr, w_ptr, bias_ptr, conv_states_ptr, cache_indices_ptr, has_initial_states_ptr, query_start_loc_ptr, batch_ptr, token_chunk_offset_ptr, o_ptr):
    idx_seq = gl.program_id(0)
    idx_seq_10 = batch_ptr + idx_seq
    idx_seq_11 = gl.load(idx_seq_10)
    chunk_offset = token_chunk_offset_ptr + idx_seq
    chunk_offset_12 = gl.load(chunk_offset)
    idx_feats = gl.program_id(1)
    idx_feats_13 = idx_feats * 256
    idx_feats_14 = gl.arange(0, 256, layout=L0)
    idx_feats_16 = idx_feats_13 + idx_feats_14
    seq_start = query_start_loc_ptr + idx_seq_11
    seq_start_17 = gl.load(seq_start)
    seqlen = seq_start + 1
    seqlen_18 = gl.load(seqlen)
    seqlen_19 = seqlen_18 - seq_start_17
    token_offset = chunk_offset_12 * 8
    segment_len = seqlen_19 - token_offset
    segment_len_20 = gl.minimum(segment_len, 8)
    x_base = seq_start_17 * 2048
    x_base_21 = x_ptr + x_base
    x_base_23 = x_base_21 + idx_feats_16
    cache_line = cache_indices_ptr + idx_seq_11
    cache_line_24 = gl.load(cache_line)
    cache_line_25 = gl.cast(cache_line_24, gl.int64)
    conv_states_base = cache_line_25 * 6144
    conv_states_base_26 = conv_states_ptr + conv_states_base
    conv_states_base_28 = conv_states_base_26 + idx_feats_16
    mask_w = idx_feats_16 < 2048
    v2 = chunk_offset_12 == 0
    if v2:
        load_init_state = has_initial_states_ptr + idx_seq_11
        load_init_state_39 = gl.cast(load_init_state, gl.pointer_type(gl.int8), bitcast=True)
        load_init_state_40 = gl.load(load_init_state_39)
        load_init_state_41 = load_init_state_40 != 0
        if load_init_state_41:
            prior_tokens = conv_states_base_28 + 4096
            col2_43 = gl.load(prior_tokens, mask=mask_w, other=0.0)
            col1 = conv_states_base_28 + 2048
            col1_44 = gl.load(col1, mask=mask_w, other=0.0)
            col0 = gl.load(conv_states_base_28, mask=mask_w, other=0.0)
            col2_42_r0 = col0
            col2_42_r1 = col1_44
            col2_42_r2 = col2_43
        else:
            col2_42_r0 = gl.full([256], 0.0, gl.float16, layout=L0)
            col2_42_r1 = gl.full([256], 0.0, gl.float16, layout=L0)
            col2_42_r2 = gl.full([256], 0.0, gl.float16, layout=L0)
        v3_r0 = col2_42_r0
        v3_r1 = col2_42_r1
        v3_r2 = col2_42_r2
    else:
        prior_tokens_b92 = token_offset - 1
        prior_tokens_39 = prior_tokens_b92 * 2048
        prior_tokens_41 = x_base_23 + prior_tokens_39
        col2_42_b96 = gl.load(prior_tokens_41, mask=mask_w, other=0.0, cache_modifier='.ca')
        col1_b97 = prior_tokens_41 + -2048
        col1_43 = gl.load(col1_b97, mask=mask_w, other=0.0, cache_modifier='.ca')
        col0_b99 = prior_tokens_41 + -4096
        col0_44 = gl.load(col0_b99, mask=mask_w, other=0.0, cache_modifier='.ca')
        v3_r0 = col0_44
        v3_r1 = col1_43
        v3_r2 = col2_42_b96
    acc_preload_29 = bias_ptr + idx_feats_16
    acc_preload_30 = gl.load(acc_preload_29, mask=mask_w, other=0.0)
    acc_preload_31 = acc_preload_30.to(gl.float32)
    x_base_1d = chunk_offset_12 * 16384
    x_base_1d_33 = x_base_23 + x_base_1d
    w_base = idx_feats_16 * 4
    w_base_35 = w_ptr + w_base
    w_col0 = gl.load(w_base_35, mask=mask_w, other=0.0)
    w_col1 = w_base_35 + 1
    w_col1_36 = gl.load(w_col1, mask=mask_w, other=0.0)
    w_col2 = w_base_35 + 2
    w_col2_37 = gl.load(w_col2, mask=mask_w, other=0.0)
    w_col3 = w_base_35 + 3
    w_col3_38 = gl.load(w_col3, mask=mask_w, other=0.0)
    o_ptrs = seq_start_17 + token_offset
    twill_n = (segment_len_20 - 0 + 1 - 1) // 1
    if (twill_n >= 4) | (gl.program_id(0) < 0):
        matrix_x_50_p2 = v3_r0
        matrix_x_50_p1 = v3_r1
        matrix_x_50 = v3_r2
        matrix_x_50_p3 = matrix_x_50_p2
        matrix_x_50_p2 = matrix_x_50_p1
        matrix_x_50_p1 = matrix_x_50
        matrix_x = (0 + (0 - 0) * 1) * 2048  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_48 = matrix_x  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_49 = x_base_1d_33 + matrix_x_48  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_50 = gl.load(matrix_x_49, mask=mask_w)  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_50_p4 = matrix_x_50_p3
        matrix_x_50_p3 = matrix_x_50_p2
        matrix_x_50_p2 = matrix_x_50_p1
        matrix_x_50_p1 = matrix_x_50
        acc = matrix_x_50_p4 * w_col0  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_40 = acc.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_45 = matrix_x_50_p2 * w_col2_37  # elementwise3_acc: stage 1, partition 0 (group 0)
        matrix_x = (0 + (1 - 0) * 1) * 2048  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_48 = matrix_x  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_49 = x_base_1d_33 + matrix_x_48  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_50 = gl.load(matrix_x_49, mask=mask_w)  # load0_matrix_x: stage 0, partition 0 (group 0)
        acc_51 = matrix_x_50_p1 * w_col3_38  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_46 = acc_45.to(gl.float32)  # convert2_acc: stage 1, partition 0 (group 0)
        mask_1d = (0 + (1 - 1) * 1) < segment_len_20  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        mask_1d_58 = mask_1d  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        mask_1d_59 = mask_1d_58 & mask_w  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        acc_52 = acc_51.to(gl.float32)  # convert3_acc: stage 1, partition 0 (group 0)
        acc_42 = matrix_x_50_p3 * w_col1_36  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_40_p1 = acc_40
        acc_42_p1 = acc_42
        acc_46_p1 = acc_46
        acc_52_p1 = acc_52
        mask_1d_59_p1 = mask_1d_59
        matrix_x_50_p4 = matrix_x_50_p3
        matrix_x_50_p3 = matrix_x_50_p2
        matrix_x_50_p2 = matrix_x_50_p1
        matrix_x_50_p1 = matrix_x_50
        acc_43 = acc_42_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_41 = acc_preload_31 + acc_40_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_44 = acc_41 + acc_43  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_47 = acc_44 + acc_46_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_53 = acc_47 + acc_52_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc = matrix_x_50_p4 * w_col0  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_40 = acc.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_45 = matrix_x_50_p2 * w_col2_37  # elementwise3_acc: stage 1, partition 0 (group 0)
        matrix_x = (0 + (2 - 0) * 1) * 2048  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_48 = matrix_x  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_49 = x_base_1d_33 + matrix_x_48  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_50 = gl.load(matrix_x_49, mask=mask_w)  # load0_matrix_x: stage 0, partition 0 (group 0)
        acc_51 = matrix_x_50_p1 * w_col3_38  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_54 = 0.0 - acc_53  # sfu0_acc: stage 2, partition 0 (group 0)
        acc_55 = gl.exp(acc_54)  # sfu0_acc: stage 2, partition 0 (group 0)
        acc_46 = acc_45.to(gl.float32)  # convert2_acc: stage 1, partition 0 (group 0)
        mask_1d = (0 + (2 - 1) * 1) < segment_len_20  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        mask_1d_58 = mask_1d  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        mask_1d_59 = mask_1d_58 & mask_w  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        acc_52 = acc_51.to(gl.float32)  # convert3_acc: stage 1, partition 0 (group 0)
        acc_42 = matrix_x_50_p3 * w_col1_36  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_40_p1 = acc_40
        acc_42_p1 = acc_42
        acc_46_p1 = acc_46
        acc_52_p1 = acc_52
        acc_53_p1 = acc_53
        acc_55_p1 = acc_55
        mask_1d_59_p2 = mask_1d_59_p1
        mask_1d_59_p1 = mask_1d_59
        matrix_x_50_p4 = matrix_x_50_p3
        matrix_x_50_p3 = matrix_x_50_p2
        matrix_x_50_p2 = matrix_x_50_p1
        matrix_x_50_p1 = matrix_x_50
        acc_43 = acc_42_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_41 = acc_preload_31 + acc_40_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_44 = acc_41 + acc_43  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_47 = acc_44 + acc_46_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_53 = acc_47 + acc_52_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc = matrix_x_50_p4 * w_col0  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_40 = acc.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_45 = matrix_x_50_p2 * w_col2_37  # elementwise3_acc: stage 1, partition 0 (group 0)
        matrix_x = (0 + (3 - 0) * 1) * 2048  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_48 = matrix_x  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_49 = x_base_1d_33 + matrix_x_48  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_50 = gl.load(matrix_x_49, mask=mask_w)  # load0_matrix_x: stage 0, partition 0 (group 0)
        acc_51 = matrix_x_50_p1 * w_col3_38  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_54 = 0.0 - acc_53  # sfu0_acc: stage 2, partition 0 (group 0)
        acc_55 = gl.exp(acc_54)  # sfu0_acc: stage 2, partition 0 (group 0)
        acc_46 = acc_45.to(gl.float32)  # convert2_acc: stage 1, partition 0 (group 0)
        mask_1d = (0 + (3 - 1) * 1) < segment_len_20  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        mask_1d_58 = mask_1d  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        mask_1d_59 = mask_1d_58 & mask_w  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        acc_52 = acc_51.to(gl.float32)  # convert3_acc: stage 1, partition 0 (group 0)
        acc_56 = acc_55_p1 + 1.0  # elementwise5_acc: stage 3, partition 0 (group 0)
        acc_57 = acc_53_p1 / acc_56  # elementwise5_acc: stage 3, partition 0 (group 0)
        acc_42 = matrix_x_50_p3 * w_col1_36  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_40_p1 = acc_40
        acc_42_p1 = acc_42
        acc_46_p1 = acc_46
        acc_52_p1 = acc_52
        acc_53_p1 = acc_53
        acc_55_p1 = acc_55
        acc_57_p1 = acc_57
        mask_1d_59_p3 = mask_1d_59_p2
        mask_1d_59_p2 = mask_1d_59_p1
        mask_1d_59_p1 = mask_1d_59
        matrix_x_50_p4 = matrix_x_50_p3
        matrix_x_50_p3 = matrix_x_50_p2
        matrix_x_50_p2 = matrix_x_50_p1
        matrix_x_50_p1 = matrix_x_50
        for twill_b in range(4, twill_n):
            acc_43 = acc_42_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
            acc_41 = acc_preload_31 + acc_40_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_44 = acc_41 + acc_43  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_47 = acc_44 + acc_46_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_53 = acc_47 + acc_52_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc = matrix_x_50_p4 * w_col0  # elementwise0_acc: stage 1, partition 0 (group 0)
            acc_40 = acc.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_45 = matrix_x_50_p2 * w_col2_37  # elementwise3_acc: stage 1, partition 0 (group 0)
            v4 = acc_57_p1.to(gl.float16)  # convert4: stage 4, partition 0 (group 0)
            matrix_x = (0 + (twill_b - 0) * 1) * 2048  # load0_matrix_x: stage 0, partition 0 (group 0)
            matrix_x_48 = matrix_x  # load0_matrix_x: stage 0, partition 0 (group 0)
            matrix_x_49 = x_base_1d_33 + matrix_x_48  # load0_matrix_x: stage 0, partition 0 (group 0)
            matrix_x_50 = gl.load(matrix_x_49, mask=mask_w)  # load0_matrix_x: stage 0, partition 0 (group 0)
            acc_51 = matrix_x_50_p1 * w_col3_38  # elementwise4_acc: stage 1, partition 0 (group 0)
            o_ptrs_60 = o_ptrs + (0 + (twill_b - 4) * 1)  # store0: stage 4, partition 0 (group 0)
            o_ptrs_61 = o_ptrs_60 * 2048  # store0: stage 4, partition 0 (group 0)
            o_ptrs_62 = o_ptr + o_ptrs_61  # store0: stage 4, partition 0 (group 0)
            o_ptrs_63 = o_ptrs_62  # store0: stage 4, partition 0 (group 0)
            o_ptrs_64 = o_ptrs_63 + idx_feats_16  # store0: stage 4, partition 0 (group 0)
            gl.store(o_ptrs_64, v4, mask=mask_1d_59_p3)  # store0: stage 4, partition 0 (group 0)
            acc_54 = 0.0 - acc_53  # sfu0_acc: stage 2, partition 0 (group 0)
            acc_55 = gl.exp(acc_54)  # sfu0_acc: stage 2, partition 0 (group 0)
            acc_46 = acc_45.to(gl.float32)  # convert2_acc: stage 1, partition 0 (group 0)
            mask_1d = (0 + (twill_b - 1) * 1) < segment_len_20  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
            mask_1d_58 = mask_1d  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
            mask_1d_59 = mask_1d_58 & mask_w  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
            acc_52 = acc_51.to(gl.float32)  # convert3_acc: stage 1, partition 0 (group 0)
            acc_56 = acc_55_p1 + 1.0  # elementwise5_acc: stage 3, partition 0 (group 0)
            acc_57 = acc_53_p1 / acc_56  # elementwise5_acc: stage 3, partition 0 (group 0)
            acc_42 = matrix_x_50_p3 * w_col1_36  # elementwise2_acc: stage 1, partition 0 (group 0)
            acc_40_p1 = acc_40
            acc_42_p1 = acc_42
            acc_46_p1 = acc_46
            acc_52_p1 = acc_52
            acc_53_p1 = acc_53
            acc_55_p1 = acc_55
            acc_57_p1 = acc_57
            mask_1d_59_p3 = mask_1d_59_p2
            mask_1d_59_p2 = mask_1d_59_p1
            mask_1d_59_p1 = mask_1d_59
            matrix_x_50_p4 = matrix_x_50_p3
            matrix_x_50_p3 = matrix_x_50_p2
            matrix_x_50_p2 = matrix_x_50_p1
            matrix_x_50_p1 = matrix_x_50
        acc_43 = acc_42_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_41 = acc_preload_31 + acc_40_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_44 = acc_41 + acc_43  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_47 = acc_44 + acc_46_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_53 = acc_47 + acc_52_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc = matrix_x_50_p4 * w_col0  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_40 = acc.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_45 = matrix_x_50_p2 * w_col2_37  # elementwise3_acc: stage 1, partition 0 (group 0)
        v4 = acc_57_p1.to(gl.float16)  # convert4: stage 4, partition 0 (group 0)
        acc_51 = matrix_x_50_p1 * w_col3_38  # elementwise4_acc: stage 1, partition 0 (group 0)
        o_ptrs_60 = o_ptrs + (0 + ((twill_n - 1 + 1) - 4) * 1)  # store0: stage 4, partition 0 (group 0)
        o_ptrs_61 = o_ptrs_60 * 2048  # store0: stage 4, partition 0 (group 0)
        o_ptrs_62 = o_ptr + o_ptrs_61  # store0: stage 4, partition 0 (group 0)
        o_ptrs_63 = o_ptrs_62  # store0: stage 4, partition 0 (group 0)
        o_ptrs_64 = o_ptrs_63 + idx_feats_16  # store0: stage 4, partition 0 (group 0)
        gl.store(o_ptrs_64, v4, mask=mask_1d_59_p3)  # store0: stage 4, partition 0 (group 0)
        acc_54 = 0.0 - acc_53  # sfu0_acc: stage 2, partition 0 (group 0)
        acc_55 = gl.exp(acc_54)  # sfu0_acc: stage 2, partition 0 (group 0)
        acc_46 = acc_45.to(gl.float32)  # convert2_acc: stage 1, partition 0 (group 0)
        mask_1d = (0 + ((twill_n - 1 + 1) - 1) * 1) < segment_len_20  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        mask_1d_58 = mask_1d  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        mask_1d_59 = mask_1d_58 & mask_w  # elementwise6_mask_1d: stage 1, partition 0 (group 0)
        acc_52 = acc_51.to(gl.float32)  # convert3_acc: stage 1, partition 0 (group 0)
        acc_56 = acc_55_p1 + 1.0  # elementwise5_acc: stage 3, partition 0 (group 0)
        acc_57 = acc_53_p1 / acc_56  # elementwise5_acc: stage 3, partition 0 (group 0)
        acc_42 = matrix_x_50_p3 * w_col1_36  # elementwise2_acc: stage 1, partition 0 (group 0)
        acc_40_p1 = acc_40
        acc_42_p1 = acc_42
        acc_46_p1 = acc_46
        acc_52_p1 = acc_52
        acc_53_p1 = acc_53
        acc_55_p1 = acc_55
        acc_57_p1 = acc_57
        mask_1d_59_p3 = mask_1d_59_p2
        mask_1d_59_p2 = mask_1d_59_p1
        mask_1d_59_p1 = mask_1d_59
        matrix_x_50_p5 = matrix_x_50_p4
        matrix_x_50_p4 = matrix_x_50_p3
        matrix_x_50_p3 = matrix_x_50_p2
        matrix_x_50_p2 = matrix_x_50_p1
        matrix_x_50_p1 = matrix_x_50
        acc_43 = acc_42_p1.to(gl.float32)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_41 = acc_preload_31 + acc_40_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_44 = acc_41 + acc_43  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_47 = acc_44 + acc_46_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_53 = acc_47 + acc_52_p1  # elementwise1_acc: stage 2, partition 0 (group 0)
        v4 = acc_57_p1.to(gl.float16)  # convert4: stage 4, partition 0 (group 0)
        o_ptrs_60 = o_ptrs + (0 + ((twill_n - 1 + 2) - 4) * 1)  # store0: stage 4, partition 0 (group 0)
        o_ptrs_61 = o_ptrs_60 * 2048  # store0: stage 4, partition 0 (group 0)
        o_ptrs_62 = o_ptr + o_ptrs_61  # store0: stage 4, partition 0 (group 0)
        o_ptrs_63 = o_ptrs_62  # store0: stage 4, partition 0 (group 0)
        o_ptrs_64 = o_ptrs_63 + idx_feats_16  # store0: stage 4, partition 0 (group 0)
        gl.store(o_ptrs_64, v4, mask=mask_1d_59_p3)  # store0: stage 4, partition 0 (group 0)
        acc_54 = 0.0 - acc_53  # sfu0_acc: stage 2, partition 0 (group 0)
        acc_55 = gl.exp(acc_54)  # sfu0_acc: stage 2, partition 0 (group 0)
        acc_56 = acc_55_p1 + 1.0  # elementwise5_acc: stage 3, partition 0 (group 0)
        acc_57 = acc_53_p1 / acc_56  # elementwise5_acc: stage 3, partition 0 (group 0)
        acc_40_p1 = acc_40
        acc_42_p1 = acc_42
        acc_46_p1 = acc_46
        acc_52_p1 = acc_52
        acc_53_p1 = acc_53
        acc_55_p1 = acc_55
        acc_57_p1 = acc_57
        mask_1d_59_p3 = mask_1d_59_p2
        mask_1d_59_p2 = mask_1d_59_p1
        mask_1d_59_p1 = mask_1d_59
        matrix_x_50_p6 = matrix_x_50_p5
        matrix_x_50_p5 = matrix_x_50_p4
        matrix_x_50_p4 = matrix_x_50_p3
        matrix_x_50_p3 = matrix_x_50_p2
        matrix_x_50_p2 = matrix_x_50_p1
        matrix_x_50_p1 = matrix_x_50
        v4 = acc_57_p1.to(gl.float16)  # convert4: stage 4, partition 0 (group 0)
        o_ptrs_60 = o_ptrs + (0 + ((twill_n - 1 + 3) - 4) * 1)  # store0: stage 4, partition 0 (group 0)
        o_ptrs_61 = o_ptrs_60 * 2048  # store0: stage 4, partition 0 (group 0)
        o_ptrs_62 = o_ptr + o_ptrs_61  # store0: stage 4, partition 0 (group 0)
        o_ptrs_63 = o_ptrs_62  # store0: stage 4, partition 0 (group 0)
        o_ptrs_64 = o_ptrs_63 + idx_feats_16  # store0: stage 4, partition 0 (group 0)
        gl.store(o_ptrs_64, v4, mask=mask_1d_59_p3)  # store0: stage 4, partition 0 (group 0)
        acc_56 = acc_55_p1 + 1.0  # elementwise5_acc: stage 3, partition 0 (group 0)
        acc_57 = acc_53_p1 / acc_56  # elementwise5_acc: stage 3, partition 0 (group 0)
        acc_40_p1 = acc_40
        acc_42_p1 = acc_42
        acc_46_p1 = acc_46
        acc_52_p1 = acc_52
        acc_53_p1 = acc_53
        acc_55_p1 = acc_55
        acc_57_p1 = acc_57
        mask_1d_59_p3 = mask_1d_59_p2
        mask_1d_59_p2 = mask_1d_59_p1
        mask_1d_59_p1 = mask_1d_59
        matrix_x_50_p7 = matrix_x_50_p6
        matrix_x_50_p6 = matrix_x_50_p5
        matrix_x_50_p5 = matrix_x_50_p4
        matrix_x_50_p4 = matrix_x_50_p3
        matrix_x_50_p3 = matrix_x_50_p2
        matrix_x_50_p2 = matrix_x_50_p1
        matrix_x_50_p1 = matrix_x_50
        v4 = acc_57_p1.to(gl.float16)  # convert4: stage 4, partition 0 (group 0)
        o_ptrs_60 = o_ptrs + (0 + ((twill_n - 1 + 4) - 4) * 1)  # store0: stage 4, partition 0 (group 0)
        o_ptrs_61 = o_ptrs_60 * 2048  # store0: stage 4, partition 0 (group 0)
        o_ptrs_62 = o_ptr + o_ptrs_61  # store0: stage 4, partition 0 (group 0)
        o_ptrs_63 = o_ptrs_62  # store0: stage 4, partition 0 (group 0)
        o_ptrs_64 = o_ptrs_63 + idx_feats_16  # store0: stage 4, partition 0 (group 0)
        gl.store(o_ptrs_64, v4, mask=mask_1d_59_p3)  # store0: stage 4, partition 0 (group 0)
        acc_40_p1 = acc_40
        acc_42_p1 = acc_42
        acc_46_p1 = acc_46
        acc_52_p1 = acc_52
        acc_53_p1 = acc_53
        acc_55_p1 = acc_55
        acc_57_p1 = acc_57
        mask_1d_59_p3 = mask_1d_59_p2
        mask_1d_59_p2 = mask_1d_59_p1
        mask_1d_59_p1 = mask_1d_59
        matrix_x_50_p7 = matrix_x_50_p6
        matrix_x_50_p6 = matrix_x_50_p5
        matrix_x_50_p5 = matrix_x_50_p4
        matrix_x_50_p4 = matrix_x_50_p3
        matrix_x_50_p3 = matrix_x_50_p2
        matrix_x_50_p2 = matrix_x_50_p1
        matrix_x_50_p1 = matrix_x_50
    else:
        arg11_w = v3_r0
        arg12_w = v3_r1
        arg13_w = v3_r2
        for col2_39_w in range(0, segment_len_20, 1):
            acc_w = arg11_w * w_col0
            acc_40_w = acc_w.to(gl.float32)
            acc_41_w = acc_preload_31 + acc_40_w
            acc_42_w = arg12_w * w_col1_36
            acc_43_w = acc_42_w.to(gl.float32)
            acc_44_w = acc_41_w + acc_43_w
            acc_45_w = arg13_w * w_col2_37
            acc_46_w = acc_45_w.to(gl.float32)
            acc_47_w = acc_44_w + acc_46_w
            matrix_x_w = col2_39_w * 2048
            matrix_x_49_w = x_base_1d_33 + matrix_x_w
            matrix_x_50_w = gl.load(matrix_x_49_w, mask=mask_w)
            acc_51_w = matrix_x_50_w * w_col3_38
            acc_52_w = acc_51_w.to(gl.float32)
            acc_53_w = acc_47_w + acc_52_w
            acc_54_w = 0.0 - acc_53_w
            acc_55_w = gl.exp(acc_54_w)
            acc_56_w = acc_55_w + 1.0
            acc_57_w = acc_53_w / acc_56_w
            mask_1d_w = col2_39_w < segment_len_20
            mask_1d_59_w = mask_1d_w & mask_w
            o_ptrs_60_w = o_ptrs + col2_39_w
            o_ptrs_61_w = o_ptrs_60_w * 2048
            o_ptrs_62_w = o_ptr + o_ptrs_61_w
            o_ptrs_64_w = o_ptrs_62_w + idx_feats_16
            v4_w = acc_57_w.to(gl.float16)
            gl.store(o_ptrs_64_w, v4_w, mask=mask_1d_59_w)
            arg11_w = arg12_w
            arg12_w = arg13_w
            arg13_w = matrix_x_50_w
        matrix_x_50_p7 = arg11_w
        matrix_x_50_p6 = arg12_w
        matrix_x_50_p5 = arg13_w

@gluon.jit
def twill_kernel(x_ptr, w_ptr, bias_ptr, conv_states_ptr, cache_indices_ptr, has_initial_states_ptr, query_start_loc_ptr, batch_ptr, token_chunk_offset_ptr, o_ptr):
    idx_seq = gl.program_id(0)
    idx_seq_10 = batch_ptr + idx_seq
    idx_seq_11 = gl.load(idx_seq_10)
    v0 = idx_seq_11 == -1
    if v0:
        return
    idx_seq = gl.program_id(0)
    idx_seq_10 = batch_ptr + idx_seq
    idx_seq_11 = gl.load(idx_seq_10)
    cache_line = cache_indices_ptr + idx_seq_11
    cache_line_24 = gl.load(cache_line)
    cache_line_25 = gl.cast(cache_line_24, gl.int64)
    v1 = cache_line_25 == -1
    if v1:
        return
    consumer_0(x_ptr, w_ptr, bias_ptr, conv_states_ptr, cache_indices_ptr, has_initial_states_ptr, query_start_loc_ptr, batch_ptr, token_chunk_offset_ptr, o_ptr, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'w_ptr', 'bias_ptr', 'conv_states_ptr', 'cache_indices_ptr', 'has_initial_states_ptr', 'query_start_loc_ptr', 'batch_ptr', 'token_chunk_offset_ptr', 'o_ptr', 'dim', 'stride_x_dim', 'stride_x_token', 'stride_w_dim', 'stride_w_width', 'stride_istate_seq', 'stride_istate_dim', 'stride_istate_token', 'stride_o_dim', 'stride_o_token', 'pad_slot_id', 'HAS_BIAS', 'KERNEL_WIDTH', 'SILU_ACTIVATION', 'USE_PAD_SLOT', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'w_ptr', 'bias_ptr', 'conv_states_ptr', 'cache_indices_ptr', 'has_initial_states_ptr', 'query_start_loc_ptr', 'batch_ptr', 'token_chunk_offset_ptr', 'o_ptr']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'w_ptr', 'bias_ptr', 'conv_states_ptr', 'cache_indices_ptr', 'has_initial_states_ptr', 'query_start_loc_ptr', 'batch_ptr', 'token_chunk_offset_ptr', 'o_ptr']   # the arguments a launch key reads
CONSTEXPRS = {'dim': 2048, 'stride_x_dim': 1, 'stride_x_token': 2048, 'stride_w_dim': 4, 'stride_w_width': 1, 'stride_istate_seq': 6144, 'stride_istate_dim': 1, 'stride_istate_token': 2048, 'stride_o_dim': 1, 'stride_o_token': 2048, 'pad_slot_id': -1, 'HAS_BIAS': True, 'KERNEL_WIDTH': 4, 'SILU_ACTIVATION': True, 'USE_PAD_SLOT': True, 'BLOCK_M': 8, 'BLOCK_N': 256}         # the specialisation this kernel was generated for
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
