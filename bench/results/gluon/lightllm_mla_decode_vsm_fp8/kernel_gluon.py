"""_fwd_kernel_flash_decode_stage1_padding_fp8, written by twill from its joint schedule: I=314 L=314 (optimal), 3027 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (kv_132_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 201 per thread)
- shared memory: 16400 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)
- written from the layouts Triton gives stride_kv_bs, stride_kv_h, stride_kv_rope_bs, stride_kv_rope_h, stride_kv_scaled_bs, num_sm, head_num, batch_size 16-divisible (its pointer loads 16 bytes a thread where the launch's specialisation proves them aligned, as Triton's own kernel at such a launch; at one where they are not, Gluon's lowering loads narrower vectors: run 66, FlagGems' softmax correct at N = 33001, x0.64 -> x1.00)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L9 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L10 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L11 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L12 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=4))
L13 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L14 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))
L15 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=4))
L16 = gl.constexpr(gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1]))
L17 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [0, 0], [32, 0], [64, 0], [128, 0], [256, 0]], lane_bases=[[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0]], block_bases=[], shape=[512, 16]))
L18 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0]))

@gluon.jit
def consumer_0(Q_nope, Q_rope, KV_nope, KV_rope, KV_scale, sm_scale, Req_to_tokens, B_req_idx, B_Seqlen, Mid_O, Mid_O_LogExpSum, stride_req_to_tokens_b, stride_q_bs, stride_q_h, stride_q_rope_bs, stride_q_rope_h, stride_kv_bs, stride_kv_h, stride_kv_rope_bs, stride_kv_rope_h, stride_mid_oh, stride_mid_os, stride_mid_o_eh, stride_kv_scaled_bs, block_size_ptr, num_sm, head_num, batch_size, TWILL_COPY: gl.constexpr):
    twill_base = 0
    block_seq = gl.load(block_size_ptr, eviction_policy='evict_last')
    cur_q_head_offs = gl.arange(0, 16, layout=L0)
    cur_q_head_offs_11 = gl.arange(0, 16, layout=L1)
    cur_q_head_offs_12 = gl.arange(0, 16, layout=L2)
    cur_q_head_offs_13 = gl.arange(0, 16, layout=L3)
    cur_q_head_offs_14 = gl.arange(0, 16, layout=L4)
    cur_q_head_offs_15 = gl.arange(0, 16, layout=L5)
    cur_q_head_offs_16 = gl.arange(0, 16, layout=L6)
    cur_q_head_range = cur_q_head_offs.to(gl.int64)
    cur_q_head_range_17 = cur_q_head_offs_11.to(gl.int64)
    cur_q_head_range_18 = cur_q_head_offs_12.to(gl.int64)
    cur_q_head_range_19 = cur_q_head_offs_13.to(gl.int64)
    cur_q_head_range_20 = cur_q_head_offs_14.to(gl.int64)
    cur_q_head_range_21 = cur_q_head_offs_15.to(gl.int64)
    cur_q_head_range_22 = cur_q_head_offs_16.to(gl.int64)
    off_q = gl.expand_dims(cur_q_head_range, 1)
    off_q_23 = gl.expand_dims(cur_q_head_range_17, 1)
    off_q_24 = gl.expand_dims(cur_q_head_range_18, 1)
    off_q_25 = gl.cast(stride_q_h, gl.int64)
    off_q_27 = off_q * off_q_25
    off_q_28 = gl.arange(0, 512, layout=L7)
    off_q_29 = gl.arange(0, 512, layout=L8)
    off_q_30 = gl.expand_dims(off_q_28, 0)
    off_q_31 = gl.expand_dims(off_q_29, 0)
    off_q_32 = off_q_30.to(gl.int64)
    off_q_33 = off_q_31.to(gl.int64)
    off_q_34 = off_q_32.broadcast_to([16, 512])
    off_q_35 = off_q_33.broadcast_to([16, 512])
    off_rope_q = gl.cast(stride_q_rope_h, gl.int64)
    off_rope_q_37 = off_q_24 * off_rope_q
    off_rope_q_38 = gl.arange(0, 64, layout=L9)
    off_rope_q_39 = gl.expand_dims(off_rope_q_38, 0)
    off_rope_q_40 = off_rope_q_39.to(gl.int64)
    off_rope_q_41 = off_rope_q_40.broadcast_to([16, 64])
    off_kv_42 = gl.arange(0, 512, layout=L10)
    off_kv_43 = gl.expand_dims(off_kv_42, 1)
    off_kv_44 = off_kv_43.broadcast_to([512, 16])
    off_rope_kv_45 = gl.arange(0, 64, layout=L11)
    off_rope_kv_46 = gl.expand_dims(off_rope_kv_45, 1)
    off_rope_kv_47 = off_rope_kv_46.broadcast_to([64, 16])
    off_mid_o = gl.cast(stride_mid_oh, gl.int64)
    off_mid_o_51 = off_q_23 * off_mid_o
    off_mid_o_52 = gl.cast(stride_mid_os, gl.int64)
    off_mid_o_logexpsum = gl.cast(stride_mid_o_eh, gl.int64)
    off_mid_o_logexpsum_54 = cur_q_head_range_22 * off_mid_o_logexpsum
    sm_id = gl.program_id(0)
    sm_id_10 = gl.cast(sm_id, gl.int64)
    sm_id_56 = sm_id_10
    out_batch_start_index_57 = gl.to_tensor(0).to(gl.int64)
    for cur_batch in range(0, batch_size, 1):
        cur_block_num = block_seq - 1
        cur_batch_seq_len = B_Seqlen + cur_batch
        cur_batch_seq_len_58 = gl.load(cur_batch_seq_len, eviction_policy='evict_last')
        cur_block_num_59 = gl.cast(cur_batch_seq_len_58, gl.int64)
        cur_block_num_60 = cur_block_num_59 + cur_block_num
        cur_block_num_61 = cur_block_num_60 // block_seq
        sm_id_84 = sm_id_56
        v2_b160 = sm_id_84 < cur_block_num_61
        twill_go1 = v2_b160
        while twill_go1:
            cur_batch_seq_len = B_Seqlen + cur_batch
            cur_batch_seq_len_58 = gl.load(cur_batch_seq_len, eviction_policy='evict_last')
            cur_block_num_59 = gl.cast(cur_batch_seq_len_58, gl.int64)
            cur_batch_req_idx = B_req_idx + cur_batch
            cur_batch_req_idx_62 = gl.load(cur_batch_req_idx, eviction_policy='evict_last')
            req_to_tokens_ptr = stride_req_to_tokens_b * cur_batch_req_idx_62
            req_to_tokens_ptr_63 = Req_to_tokens + req_to_tokens_ptr
            off_q_64 = cur_batch * stride_q_bs
            off_q_65 = gl.cast(off_q_64, gl.int64)
            off_q_67 = off_q_65 + off_q_27
            off_q_68 = off_q_67.broadcast_to([16, 512])
            off_q_69 = off_q_68 + off_q_34
            off_rope_q_70 = cur_batch * stride_q_rope_bs
            off_rope_q_71 = gl.cast(off_rope_q_70, gl.int64)
            off_rope_q_73 = off_rope_q_71 + off_rope_q_37
            off_rope_q_74 = off_rope_q_73.broadcast_to([16, 64])
            off_rope_q_75 = off_rope_q_74 + off_rope_q_41
            q_76 = Q_nope + off_q_69
            q_rope_77 = Q_rope + off_rope_q_75
            off_mid_o_logexpsum_80 = off_mid_o_logexpsum_54 + out_batch_start_index_57
            cur_batch_start_index = block_seq * sm_id_84
            cur_batch_end_index = cur_batch_start_index + block_seq
            cur_batch_end_index_85 = gl.minimum(cur_block_num_59, cur_batch_end_index)
            q_86 = gl.load(q_76)
            q_rope_87 = gl.load(q_rope_77)
            block_n_size = cur_batch_end_index_85 - cur_batch_start_index
            block_n_size_88 = block_n_size + 15
            block_n_size_89 = block_n_size_88 // 16
            offs_n_92 = cur_batch_start_index + cur_q_head_range_19
            offs_n_93 = cur_batch_start_index + cur_q_head_range_20
            offs_n_94 = cur_batch_start_index + cur_q_head_range_21
            q_97_sm = gl.allocate_shared_memory(gl.bfloat16, [16, 512], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]), q_86)  # held here, not in registers: [16, 512] bf16 for the loop's mma.sync
            gl.thread_barrier()
            q_rope_98 = gl.convert_layout(q_rope_87, L12)
            twill_n = gl.cast((block_n_size_89 - 0 + 1 - 1) // 1, gl.int32)
            if (twill_n >= 1) | (gl.program_id(0) < 0):
                kv_132_as = gl.allocate_shared_memory(gl.float8e4nv, [2, 512, 16], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0, 1]))
                sum_exp_183 = gl.full([16], 0.0, gl.float32, layout=L13)
                new_max_logic = gl.full([16], float("-inf"), gl.float32, layout=L13)
                acc_181 = gl.full([16, 512], 0.0, gl.float32, layout=L14)
                offs_n_new = (0 + (0 - 0) * 1) * 16  # load0_kv_loc: stage 0, partition 0 (group 0)
                offs_n_new_109 = offs_n_new  # load0_kv_loc: stage 0, partition 0 (group 0)
                offs_n_new_112 = offs_n_new_109 + offs_n_92  # load0_kv_loc: stage 0, partition 0 (group 0)
                seq_n_mask_115 = offs_n_new_112 < cur_batch_end_index_85  # load0_kv_loc: stage 0, partition 0 (group 0)
                kv_loc_118 = req_to_tokens_ptr_63 + offs_n_new_112  # load0_kv_loc: stage 0, partition 0 (group 0)
                kv_loc_120 = gl.load(kv_loc_118, mask=seq_n_mask_115, other=0)  # load0_kv_loc: stage 0, partition 0 (group 0)
                off_kv_122 = gl.expand_dims(kv_loc_120, 0)  # load2_kv: stage 0, partition 0 (group 0)
                off_kv_scale_142 = off_kv_122 * stride_kv_scaled_bs  # load4_kv_scale: stage 0, partition 0 (group 0)
                kv_127 = gl.expand_dims(seq_n_mask_115, 0)  # load2_kv: stage 0, partition 0 (group 0)
                kv_scale_144 = KV_scale + off_kv_scale_142  # load4_kv_scale: stage 0, partition 0 (group 0)
                kv_scale_146 = gl.load(kv_scale_144, mask=kv_127, other=0.0)  # load4_kv_scale: stage 0, partition 0 (group 0)
                off_kv_124 = off_kv_122 * stride_kv_bs  # load2_kv: stage 0, partition 0 (group 0)
                off_kv_125 = off_kv_124.broadcast_to([512, 16])  # load2_kv: stage 0, partition 0 (group 0)
                off_kv_126 = off_kv_125 + off_kv_44  # load2_kv: stage 0, partition 0 (group 0)
                kv_130 = KV_nope + off_kv_126  # load2_kv: stage 0, partition 0 (group 0)
                kv_131 = kv_127.broadcast_to([512, 16])  # load2_kv: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load2_kv: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(kv_132_as.index((twill_base + 0 - 0) % 2), kv_130, mask=kv_131)  # load2_kv: stage 0, partition 0 (group 0)
                else:  # load2_kv: stage 0, partition 0 (group 0)
                    kv_132_as.index((twill_base + 0 - 0) % 2).store(gl.load(kv_130, mask=kv_131, other=0.0))  # load2_kv: stage 0, partition 0 (group 0)
                offs_n_new_110 = offs_n_new  # load1_kv_loc: stage 0, partition 0 (group 0)
                offs_n_new_113 = offs_n_new_110 + offs_n_93  # load1_kv_loc: stage 0, partition 0 (group 0)
                seq_n_mask_116 = offs_n_new_113 < cur_batch_end_index_85  # load1_kv_loc: stage 0, partition 0 (group 0)
                kv_loc_119 = req_to_tokens_ptr_63 + offs_n_new_113  # load1_kv_loc: stage 0, partition 0 (group 0)
                kv_loc_121 = gl.load(kv_loc_119, mask=seq_n_mask_116, other=0)  # load1_kv_loc: stage 0, partition 0 (group 0)
                off_kv_123 = gl.expand_dims(kv_loc_121, 0)  # load3_rope_kv: stage 0, partition 0 (group 0)
                off_rope_kv_135 = off_kv_123 * stride_kv_rope_bs  # load3_rope_kv: stage 0, partition 0 (group 0)
                off_rope_kv_136 = off_rope_kv_135.broadcast_to([64, 16])  # load3_rope_kv: stage 0, partition 0 (group 0)
                kv_128 = gl.expand_dims(seq_n_mask_116, 0)  # load3_rope_kv: stage 0, partition 0 (group 0)
                off_rope_kv_137 = off_rope_kv_136 + off_rope_kv_47  # load3_rope_kv: stage 0, partition 0 (group 0)
                rope_kv_138 = KV_rope + off_rope_kv_137  # load3_rope_kv: stage 0, partition 0 (group 0)
                rope_kv_139 = kv_128.broadcast_to([64, 16])  # load3_rope_kv: stage 0, partition 0 (group 0)
                rope_kv_140 = gl.load(rope_kv_138, mask=rope_kv_139, other=0.0)  # load3_rope_kv: stage 0, partition 0 (group 0)
                off_kv_scale_143 = off_kv_123 * stride_kv_scaled_bs  # load5_kv_scale: stage 0, partition 0 (group 0)
                kv_scale_145 = KV_scale + off_kv_scale_143  # load5_kv_scale: stage 0, partition 0 (group 0)
                kv_scale_149 = gl.load(kv_scale_145, mask=kv_128, other=0.0)  # load5_kv_scale: stage 0, partition 0 (group 0)
                async_copy.commit_group()
                acc_181_p1 = acc_181
                kv_scale_146_p1 = kv_scale_146
                kv_scale_149_p1 = kv_scale_149
                new_max_logic_p1 = new_max_logic
                offs_n_new_p1 = offs_n_new
                rope_kv_140_p1 = rope_kv_140
                sum_exp_183_p1 = sum_exp_183
                for twill_b in range(1, twill_n):
                    offs_n_new = (0 + (twill_b - 0) * 1) * 16  # load0_kv_loc: stage 0, partition 0 (group 0)
                    offs_n_new_109 = offs_n_new  # load0_kv_loc: stage 0, partition 0 (group 0)
                    offs_n_new_112 = offs_n_new_109 + offs_n_92  # load0_kv_loc: stage 0, partition 0 (group 0)
                    seq_n_mask_115 = offs_n_new_112 < cur_batch_end_index_85  # load0_kv_loc: stage 0, partition 0 (group 0)
                    kv_loc_118 = req_to_tokens_ptr_63 + offs_n_new_112  # load0_kv_loc: stage 0, partition 0 (group 0)
                    kv_loc_120 = gl.load(kv_loc_118, mask=seq_n_mask_115, other=0)  # load0_kv_loc: stage 0, partition 0 (group 0)
                    off_kv_122 = gl.expand_dims(kv_loc_120, 0)  # load2_kv: stage 0, partition 0 (group 0)
                    off_kv_scale_142 = off_kv_122 * stride_kv_scaled_bs  # load4_kv_scale: stage 0, partition 0 (group 0)
                    kv_127 = gl.expand_dims(seq_n_mask_115, 0)  # load2_kv: stage 0, partition 0 (group 0)
                    kv_scale_144 = KV_scale + off_kv_scale_142  # load4_kv_scale: stage 0, partition 0 (group 0)
                    kv_scale_146 = gl.load(kv_scale_144, mask=kv_127, other=0.0)  # load4_kv_scale: stage 0, partition 0 (group 0)
                    kv_148 = gl.convert_layout(kv_scale_146_p1, L15)  # convert4_kv: stage 1, partition 0 (group 0)
                    kv_153 = kv_148.to(gl.float32)  # convert4_kv: stage 1, partition 0 (group 0)
                    off_kv_124 = off_kv_122 * stride_kv_bs  # load2_kv: stage 0, partition 0 (group 0)
                    off_kv_125 = off_kv_124.broadcast_to([512, 16])  # load2_kv: stage 0, partition 0 (group 0)
                    off_kv_126 = off_kv_125 + off_kv_44  # load2_kv: stage 0, partition 0 (group 0)
                    async_copy.wait_group(0)
                    gl.thread_barrier()
                    kv_132 = kv_132_as.index((twill_base + twill_b - 1) % 2).load(L16)  # load2_kv: stage 1, partition 0 (group 0)
                    kv_130 = KV_nope + off_kv_126  # load2_kv: stage 0, partition 0 (group 0)
                    kv_131 = kv_127.broadcast_to([512, 16])  # load2_kv: stage 0, partition 0 (group 0)
                    if TWILL_COPY:  # load2_kv: stage 0, partition 0 (group 0)
                        async_copy.async_copy_global_to_shared(kv_132_as.index((twill_base + twill_b - 0) % 2), kv_130, mask=kv_131)  # load2_kv: stage 0, partition 0 (group 0)
                    else:  # load2_kv: stage 0, partition 0 (group 0)
                        kv_132_as.index((twill_base + twill_b - 0) % 2).store(gl.load(kv_130, mask=kv_131, other=0.0))  # load2_kv: stage 0, partition 0 (group 0)
                    kv_134 = gl.convert_layout(kv_132, L15)  # convert1_kv: stage 1, partition 0 (group 0)
                    kv_151 = kv_134.to(gl.float32)  # convert1_kv: stage 1, partition 0 (group 0)
                    kv_156 = kv_153.broadcast_to([512, 16])  # elementwise1_kv: stage 1, partition 0 (group 0)
                    kv_158 = kv_151 * kv_156  # elementwise1_kv: stage 1, partition 0 (group 0)
                    kv_160 = kv_158.to(gl.bfloat16)  # convert6_kv: stage 1, partition 0 (group 0)
                    acc_147 = gl.convert_layout(kv_scale_146_p1, L17)  # convert3_acc: stage 1, partition 0 (group 0)
                    kv_154 = acc_147.to(gl.float32)  # convert3_acc: stage 1, partition 0 (group 0)
                    acc_133 = gl.convert_layout(kv_132, L17)  # convert0_acc: stage 1, partition 0 (group 0)
                    kv_152 = acc_133.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
                    att_value_166 = mma_v2(q_97_sm.load(L12), kv_160, gl.full([16, 16], 0.0, gl.float32, layout=L14))  # dot0_att_value: stage 1, partition 0 (group 0)
                    kv_157 = kv_154.broadcast_to([512, 16])  # elementwise2_kv: stage 1, partition 0 (group 0)
                    kv_159 = kv_152 * kv_157  # elementwise2_kv: stage 1, partition 0 (group 0)
                    kv_161 = kv_159.to(gl.bfloat16)  # convert7_kv: stage 1, partition 0 (group 0)
                    offs_n_new_110 = offs_n_new  # load1_kv_loc: stage 0, partition 0 (group 0)
                    offs_n_new_113 = offs_n_new_110 + offs_n_93  # load1_kv_loc: stage 0, partition 0 (group 0)
                    seq_n_mask_116 = offs_n_new_113 < cur_batch_end_index_85  # load1_kv_loc: stage 0, partition 0 (group 0)
                    kv_loc_119 = req_to_tokens_ptr_63 + offs_n_new_113  # load1_kv_loc: stage 0, partition 0 (group 0)
                    kv_loc_121 = gl.load(kv_loc_119, mask=seq_n_mask_116, other=0)  # load1_kv_loc: stage 0, partition 0 (group 0)
                    off_kv_123 = gl.expand_dims(kv_loc_121, 0)  # load3_rope_kv: stage 0, partition 0 (group 0)
                    off_rope_kv_135 = off_kv_123 * stride_kv_rope_bs  # load3_rope_kv: stage 0, partition 0 (group 0)
                    off_rope_kv_136 = off_rope_kv_135.broadcast_to([64, 16])  # load3_rope_kv: stage 0, partition 0 (group 0)
                    kv_128 = gl.expand_dims(seq_n_mask_116, 0)  # load3_rope_kv: stage 0, partition 0 (group 0)
                    off_rope_kv_137 = off_rope_kv_136 + off_rope_kv_47  # load3_rope_kv: stage 0, partition 0 (group 0)
                    rope_kv_138 = KV_rope + off_rope_kv_137  # load3_rope_kv: stage 0, partition 0 (group 0)
                    rope_kv_139 = kv_128.broadcast_to([64, 16])  # load3_rope_kv: stage 0, partition 0 (group 0)
                    rope_kv_140 = gl.load(rope_kv_138, mask=rope_kv_139, other=0.0)  # load3_rope_kv: stage 0, partition 0 (group 0)
                    rope_kv_141 = gl.convert_layout(rope_kv_140_p1, L15)  # convert2_rope_kv: stage 1, partition 0 (group 0)
                    rope_kv_162 = rope_kv_141.to(gl.float32)  # convert2_rope_kv: stage 1, partition 0 (group 0)
                    off_kv_scale_143 = off_kv_123 * stride_kv_scaled_bs  # load5_kv_scale: stage 0, partition 0 (group 0)
                    kv_scale_145 = KV_scale + off_kv_scale_143  # load5_kv_scale: stage 0, partition 0 (group 0)
                    kv_scale_149 = gl.load(kv_scale_145, mask=kv_128, other=0.0)  # load5_kv_scale: stage 0, partition 0 (group 0)
                    rope_kv_150 = gl.convert_layout(kv_scale_149_p1, L15)  # convert5_rope_kv: stage 1, partition 0 (group 0)
                    kv_155 = rope_kv_150.to(gl.float32)  # convert5_rope_kv: stage 1, partition 0 (group 0)
                    rope_kv_163 = kv_155.broadcast_to([64, 16])  # elementwise3_rope_kv: stage 1, partition 0 (group 0)
                    rope_kv_164 = rope_kv_162 * rope_kv_163  # elementwise3_rope_kv: stage 1, partition 0 (group 0)
                    rope_kv_165 = rope_kv_164.to(gl.bfloat16)  # convert8_rope_kv: stage 1, partition 0 (group 0)
                    att_value_167 = mma_v2(q_rope_98, rope_kv_165, att_value_166)  # dot1_att_value: stage 1, partition 0 (group 0)
                    offs_n_new_111 = offs_n_new_p1  # elementwise0_att_value: stage 1, partition 0 (group 0)
                    offs_n_new_114 = offs_n_new_111 + offs_n_94  # elementwise0_att_value: stage 1, partition 0 (group 0)
                    seq_n_mask_117 = offs_n_new_114 < cur_batch_end_index_85  # elementwise0_att_value: stage 1, partition 0 (group 0)
                    kv_129 = gl.expand_dims(seq_n_mask_117, 0)  # elementwise0_att_value: stage 1, partition 0 (group 0)
                    att_value_168 = att_value_167 * sm_scale  # elementwise0_att_value: stage 1, partition 0 (group 0)
                    att_value_169 = kv_129.broadcast_to([16, 16])  # elementwise0_att_value: stage 1, partition 0 (group 0)
                    att_value_170 = gl.where(att_value_169, att_value_168, float("-inf"))  # elementwise0_att_value: stage 1, partition 0 (group 0)
                    cur_max_logic = gl.max(att_value_170, axis=1)  # reduce0_cur_max_logic: stage 1, partition 0 (group 0)
                    new_max_logic = gl.maximum(cur_max_logic, new_max_logic_p1)  # elementwise4_new_max_logic: stage 1, partition 0 (group 0)
                    exp_logic = gl.expand_dims(new_max_logic, 1)  # sfu0_exp_logic: stage 1, partition 0 (group 0)
                    exp_logic_171 = exp_logic.broadcast_to([16, 16])  # sfu0_exp_logic: stage 1, partition 0 (group 0)
                    exp_logic_172 = att_value_170 - exp_logic_171  # sfu0_exp_logic: stage 1, partition 0 (group 0)
                    exp_logic_173 = gl.exp(exp_logic_172)  # sfu0_exp_logic: stage 1, partition 0 (group 0)
                    logic_scale = new_max_logic_p1 - new_max_logic  # sfu1_logic_scale: stage 1, partition 0 (group 0)
                    logic_scale_174 = gl.exp(logic_scale)  # sfu1_logic_scale: stage 1, partition 0 (group 0)
                    acc_175 = gl.expand_dims(logic_scale_174, 1)  # elementwise5_acc: stage 1, partition 0 (group 0)
                    acc_176 = acc_175.broadcast_to([16, 512])  # elementwise5_acc: stage 1, partition 0 (group 0)
                    acc_177 = acc_181_p1 * acc_176  # elementwise5_acc: stage 1, partition 0 (group 0)
                    acc_178 = exp_logic_173.to(gl.bfloat16)  # convert9_acc: stage 1, partition 0 (group 0)
                    acc_180 = gl.convert_layout(acc_178, L12)  # convert9_acc: stage 1, partition 0 (group 0)
                    acc_179 = gl.convert_layout(gl.permute(kv_161, (1, 0)), L15)  # dot2_acc: stage 1, partition 0 (group 0)
                    acc_181 = mma_v2(acc_180, acc_179, acc_177)  # dot2_acc: stage 1, partition 0 (group 0)
                    sum_exp_182 = gl.sum(exp_logic_173, axis=1)  # reduce1_sum_exp: stage 1, partition 0 (group 0)
                    sum_exp = sum_exp_183_p1 * logic_scale_174  # elementwise6_sum_exp: stage 1, partition 0 (group 0)
                    sum_exp_183 = sum_exp + sum_exp_182  # elementwise6_sum_exp: stage 1, partition 0 (group 0)
                    async_copy.commit_group()
                    acc_181_p1 = acc_181
                    kv_scale_146_p1 = kv_scale_146
                    kv_scale_149_p1 = kv_scale_149
                    new_max_logic_p1 = new_max_logic
                    offs_n_new_p1 = offs_n_new
                    rope_kv_140_p1 = rope_kv_140
                    sum_exp_183_p1 = sum_exp_183
                kv_148 = gl.convert_layout(kv_scale_146_p1, L15)  # convert4_kv: stage 1, partition 0 (group 0)
                kv_153 = kv_148.to(gl.float32)  # convert4_kv: stage 1, partition 0 (group 0)
                async_copy.wait_group(0)
                gl.thread_barrier()
                kv_132 = kv_132_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L16)  # load2_kv: stage 1, partition 0 (group 0)
                kv_134 = gl.convert_layout(kv_132, L15)  # convert1_kv: stage 1, partition 0 (group 0)
                kv_151 = kv_134.to(gl.float32)  # convert1_kv: stage 1, partition 0 (group 0)
                kv_156 = kv_153.broadcast_to([512, 16])  # elementwise1_kv: stage 1, partition 0 (group 0)
                kv_158 = kv_151 * kv_156  # elementwise1_kv: stage 1, partition 0 (group 0)
                kv_160 = kv_158.to(gl.bfloat16)  # convert6_kv: stage 1, partition 0 (group 0)
                acc_147 = gl.convert_layout(kv_scale_146_p1, L17)  # convert3_acc: stage 1, partition 0 (group 0)
                kv_154 = acc_147.to(gl.float32)  # convert3_acc: stage 1, partition 0 (group 0)
                acc_133 = gl.convert_layout(kv_132, L17)  # convert0_acc: stage 1, partition 0 (group 0)
                kv_152 = acc_133.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
                att_value_166 = mma_v2(q_97_sm.load(L12), kv_160, gl.full([16, 16], 0.0, gl.float32, layout=L14))  # dot0_att_value: stage 1, partition 0 (group 0)
                kv_157 = kv_154.broadcast_to([512, 16])  # elementwise2_kv: stage 1, partition 0 (group 0)
                kv_159 = kv_152 * kv_157  # elementwise2_kv: stage 1, partition 0 (group 0)
                kv_161 = kv_159.to(gl.bfloat16)  # convert7_kv: stage 1, partition 0 (group 0)
                rope_kv_141 = gl.convert_layout(rope_kv_140_p1, L15)  # convert2_rope_kv: stage 1, partition 0 (group 0)
                rope_kv_162 = rope_kv_141.to(gl.float32)  # convert2_rope_kv: stage 1, partition 0 (group 0)
                rope_kv_150 = gl.convert_layout(kv_scale_149_p1, L15)  # convert5_rope_kv: stage 1, partition 0 (group 0)
                kv_155 = rope_kv_150.to(gl.float32)  # convert5_rope_kv: stage 1, partition 0 (group 0)
                rope_kv_163 = kv_155.broadcast_to([64, 16])  # elementwise3_rope_kv: stage 1, partition 0 (group 0)
                rope_kv_164 = rope_kv_162 * rope_kv_163  # elementwise3_rope_kv: stage 1, partition 0 (group 0)
                rope_kv_165 = rope_kv_164.to(gl.bfloat16)  # convert8_rope_kv: stage 1, partition 0 (group 0)
                att_value_167 = mma_v2(q_rope_98, rope_kv_165, att_value_166)  # dot1_att_value: stage 1, partition 0 (group 0)
                offs_n_new_111 = offs_n_new_p1  # elementwise0_att_value: stage 1, partition 0 (group 0)
                offs_n_new_114 = offs_n_new_111 + offs_n_94  # elementwise0_att_value: stage 1, partition 0 (group 0)
                seq_n_mask_117 = offs_n_new_114 < cur_batch_end_index_85  # elementwise0_att_value: stage 1, partition 0 (group 0)
                kv_129 = gl.expand_dims(seq_n_mask_117, 0)  # elementwise0_att_value: stage 1, partition 0 (group 0)
                att_value_168 = att_value_167 * sm_scale  # elementwise0_att_value: stage 1, partition 0 (group 0)
                att_value_169 = kv_129.broadcast_to([16, 16])  # elementwise0_att_value: stage 1, partition 0 (group 0)
                att_value_170 = gl.where(att_value_169, att_value_168, float("-inf"))  # elementwise0_att_value: stage 1, partition 0 (group 0)
                cur_max_logic = gl.max(att_value_170, axis=1)  # reduce0_cur_max_logic: stage 1, partition 0 (group 0)
                new_max_logic = gl.maximum(cur_max_logic, new_max_logic_p1)  # elementwise4_new_max_logic: stage 1, partition 0 (group 0)
                exp_logic = gl.expand_dims(new_max_logic, 1)  # sfu0_exp_logic: stage 1, partition 0 (group 0)
                exp_logic_171 = exp_logic.broadcast_to([16, 16])  # sfu0_exp_logic: stage 1, partition 0 (group 0)
                exp_logic_172 = att_value_170 - exp_logic_171  # sfu0_exp_logic: stage 1, partition 0 (group 0)
                exp_logic_173 = gl.exp(exp_logic_172)  # sfu0_exp_logic: stage 1, partition 0 (group 0)
                logic_scale = new_max_logic_p1 - new_max_logic  # sfu1_logic_scale: stage 1, partition 0 (group 0)
                logic_scale_174 = gl.exp(logic_scale)  # sfu1_logic_scale: stage 1, partition 0 (group 0)
                acc_175 = gl.expand_dims(logic_scale_174, 1)  # elementwise5_acc: stage 1, partition 0 (group 0)
                acc_176 = acc_175.broadcast_to([16, 512])  # elementwise5_acc: stage 1, partition 0 (group 0)
                acc_177 = acc_181_p1 * acc_176  # elementwise5_acc: stage 1, partition 0 (group 0)
                acc_178 = exp_logic_173.to(gl.bfloat16)  # convert9_acc: stage 1, partition 0 (group 0)
                acc_180 = gl.convert_layout(acc_178, L12)  # convert9_acc: stage 1, partition 0 (group 0)
                acc_179 = gl.convert_layout(gl.permute(kv_161, (1, 0)), L15)  # dot2_acc: stage 1, partition 0 (group 0)
                acc_181 = mma_v2(acc_180, acc_179, acc_177)  # dot2_acc: stage 1, partition 0 (group 0)
                sum_exp_182 = gl.sum(exp_logic_173, axis=1)  # reduce1_sum_exp: stage 1, partition 0 (group 0)
                sum_exp = sum_exp_183_p1 * logic_scale_174  # elementwise6_sum_exp: stage 1, partition 0 (group 0)
                sum_exp_183 = sum_exp + sum_exp_182  # elementwise6_sum_exp: stage 1, partition 0 (group 0)
                async_copy.commit_group()
                acc_181_p1 = acc_181
                kv_scale_146_p1 = kv_scale_146
                kv_scale_149_p1 = kv_scale_149
                new_max_logic_p1 = new_max_logic
                offs_n_new_p1 = offs_n_new
                rope_kv_140_p1 = rope_kv_140
                sum_exp_183_p1 = sum_exp_183
            else:
                sum_exp_183_p1 = gl.full([16], 0.0, gl.float32, layout=L13)
                new_max_logic_p1 = gl.full([16], float("-inf"), gl.float32, layout=L13)
                acc_181_p1 = gl.full([16, 512], 0.0, gl.float32, layout=L14)
            off_mid_o_99 = out_batch_start_index_57 + sm_id_84
            off_mid_o_100 = off_mid_o_99 * off_mid_o_52
            off_mid_o_102 = off_mid_o_51 + off_mid_o_100
            off_mid_o_103 = off_mid_o_102.broadcast_to([16, 512])
            off_mid_o_104 = off_mid_o_103 + off_q_35
            off_mid_o_logexpsum_106 = off_mid_o_logexpsum_80 + sm_id_84
            v2 = Mid_O + off_mid_o_104
            v3 = gl.expand_dims(sum_exp_183_p1, 1)
            v4 = v3.broadcast_to([16, 512])
            v5 = acc_181_p1 / v4
            v6 = gl.convert_layout(v5, L18)
            gl.store(v2, v6)
            v7 = Mid_O_LogExpSum + off_mid_o_logexpsum_106
            v8 = gl.log(sum_exp_183_p1)
            v9 = new_max_logic_p1 + v8
            v10 = gl.convert_layout(v9, L6)
            gl.store(v7, v10)
            sm_id_55 = gl.cast(num_sm, gl.int64)
            sm_id_107 = sm_id_84 + sm_id_55
            sm_id_84 = sm_id_107
            twill_base += twill_n
            v2_b160 = sm_id_84 < cur_block_num_61
            twill_go1 = v2_b160
        out_batch_start_index_82 = out_batch_start_index_57 + cur_block_num_61
        sm_id_83 = sm_id_84 - cur_block_num_61
        sm_id_56 = sm_id_83
        out_batch_start_index_57 = out_batch_start_index_82

@gluon.jit
def twill_kernel(Q_nope, Q_rope, KV_nope, KV_rope, KV_scale, sm_scale, Req_to_tokens, B_req_idx, B_Seqlen, Mid_O, Mid_O_LogExpSum, stride_req_to_tokens_b, stride_q_bs, stride_q_h, stride_q_rope_bs, stride_q_rope_h, stride_kv_bs, stride_kv_h, stride_kv_rope_bs, stride_kv_rope_h, stride_mid_oh, stride_mid_os, stride_mid_o_eh, stride_kv_scaled_bs, block_size_ptr, num_sm, head_num, batch_size, TWILL_COPY: gl.constexpr):
    consumer_0(Q_nope, Q_rope, KV_nope, KV_rope, KV_scale, sm_scale, Req_to_tokens, B_req_idx, B_Seqlen, Mid_O, Mid_O_LogExpSum, stride_req_to_tokens_b, stride_q_bs, stride_q_h, stride_q_rope_bs, stride_q_rope_h, stride_kv_bs, stride_kv_h, stride_kv_rope_bs, stride_kv_rope_h, stride_mid_oh, stride_mid_os, stride_mid_o_eh, stride_kv_scaled_bs, block_size_ptr, num_sm, head_num, batch_size, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q_nope', 'Q_rope', 'KV_nope', 'KV_rope', 'KV_scale', 'sm_scale', 'Req_to_tokens', 'B_req_idx', 'B_Seqlen', 'Mid_O', 'Mid_O_LogExpSum', 'stride_req_to_tokens_b', 'stride_req_to_tokens_s', 'stride_q_bs', 'stride_q_h', 'stride_q_d', 'stride_q_rope_bs', 'stride_q_rope_h', 'stride_q_rope_d', 'stride_kv_bs', 'stride_kv_h', 'stride_kv_d', 'stride_kv_rope_bs', 'stride_kv_rope_h', 'stride_kv_rope_d', 'stride_mid_oh', 'stride_mid_os', 'stride_mid_od', 'stride_mid_o_eh', 'stride_mid_o_es', 'stride_kv_scaled_bs', 'block_size_ptr', 'num_sm', 'head_group_num', 'head_num', 'batch_size', 'HAS_SCALE', 'Q_HEAD_NUM', 'BLOCK_DMODEL', 'BLOCK_ROPE_DMODEL', 'BLOCK_N', 'NUM_STAGES', 'NEED_HEAD_MASK']          # the Triton kernel's parameters, in order
RUNTIME = ['Q_nope', 'Q_rope', 'KV_nope', 'KV_rope', 'KV_scale', 'sm_scale', 'Req_to_tokens', 'B_req_idx', 'B_Seqlen', 'Mid_O', 'Mid_O_LogExpSum', 'stride_req_to_tokens_b', 'stride_q_bs', 'stride_q_h', 'stride_q_rope_bs', 'stride_q_rope_h', 'stride_kv_bs', 'stride_kv_h', 'stride_kv_rope_bs', 'stride_kv_rope_h', 'stride_mid_oh', 'stride_mid_os', 'stride_mid_o_eh', 'stride_kv_scaled_bs', 'block_size_ptr', 'num_sm', 'head_num', 'batch_size']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q_nope', 'Q_rope', 'KV_nope', 'KV_rope', 'KV_scale', 'sm_scale', 'Req_to_tokens', 'B_req_idx', 'B_Seqlen', 'Mid_O', 'Mid_O_LogExpSum', 'stride_req_to_tokens_b', 'stride_q_bs', 'stride_q_h', 'stride_q_rope_bs', 'stride_q_rope_h', 'stride_kv_bs', 'stride_kv_h', 'stride_kv_rope_bs', 'stride_kv_rope_h', 'stride_mid_oh', 'stride_mid_os', 'stride_mid_o_eh', 'stride_kv_scaled_bs', 'block_size_ptr', 'num_sm', 'head_num', 'batch_size']   # the arguments a launch key reads
CONSTEXPRS = {'stride_req_to_tokens_s': 1, 'stride_q_d': 1, 'stride_q_rope_d': 1, 'stride_kv_d': 1, 'stride_kv_rope_d': 1, 'stride_mid_od': 1, 'stride_mid_o_es': 1, 'head_group_num': 1, 'HAS_SCALE': 1, 'Q_HEAD_NUM': 16, 'BLOCK_DMODEL': 512, 'BLOCK_ROPE_DMODEL': 64, 'BLOCK_N': 16, 'NUM_STAGES': 2, 'NEED_HEAD_MASK': 0}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['KV_nope', 'stride_kv_bs']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
