"""triton_tem_fused_1, written by twill from its joint schedule: I=294 L=325 (optimal), 2481 cycles per iteration predicted.

Decisions (each from the schedule):
- k copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%next_block_150), which the analysis does not follow
- v copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%next_block_150), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k, v): their addresses and masks spread over 128 threads
- the consumers' pointer loads in their readers' stage, not a stage ahead: the loop's trip count varies between programs, and a third stage would need two iterations of every program (run 101)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 154): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring k: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring v: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 65616 bytes planned of 232448; maxnreg 256
- loop at inductor_flex_decoding.py:136 (in a helper called at line 259) (TTGIR line 170) (before the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=278, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 1 iteration(s) ahead, 98304 bytes of shared memory compiled, ptxas 242 registers, clean; simulated for 0, 1, 2, 3, 4, 5, 10 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.DistributedLinearLayout(reg_bases=[[0, 8]], lane_bases=[[0, 0], [0, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[1, 0], [2, 0]], block_bases=[], shape=[4, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 8], threads_per_warp=[2, 1, 16], warps_per_cta=[2, 2, 1], order=[2, 0, 1]))))
L4 = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 4], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))))
L5 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 8], threads_per_warp=[2, 1, 16], warps_per_cta=[2, 2, 1], order=[2, 0, 1]))))
L7 = gl.constexpr(gl.SliceLayout(1, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 4], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L9 = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1, 8], threads_per_warp=[2, 1, 16], warps_per_cta=[2, 2, 1], order=[2, 0, 1]))))
L10 = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1, 4], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))))
L11 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64]], lane_bases=[[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp_bases=[[1, 0, 0], [2, 0, 0]], block_bases=[], shape=[4, 16, 128]))
L12 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L13 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L14 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L15 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L16 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L17 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L18 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 8]], lane_bases=[[0, 0], [0, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[1, 0], [2, 0]], block_bases=[], shape=[4, 16]))
L19 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L20 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 4], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))

@gluon.jit
def consumer_0(arg_Q, arg_K, arg_V, arg_M, arg_L, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, twill_g0, twill_g1, twill_g2, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        v0 = ks0 * 1024
        v1 = ks0 * 128
        TILE_KV_OG = ks0 + 15
        TILE_KV_OG_12 = TILE_KV_OG // 16
        TILE_KV = TILE_KV_OG_12 + 63
        TILE_KV_13 = TILE_KV // 64
        TILE_KV_14 = TILE_KV_13 * 64
        TILE_KV_MULTIPLE = TILE_KV_14 // 64
        off_z = twill_pid0
        off_z_15 = off_z // 8
        off_zkv = off_z_15 % 8
        off_hkv = off_z % 8
        off_t = twill_pid1
        q_offset = off_z_15 * 65536
        q_offset_16 = off_hkv * 8192
        q_offset_17 = q_offset + q_offset_16
        k_offset = off_zkv * v0
        k_offset_18 = off_hkv * v1
        k_offset_19 = k_offset + k_offset_18
        K = arg_K + k_offset_19
        V = arg_V + k_offset_19
        off_g = gl.arange(0, 4, layout=L0)
        off_m = gl.arange(0, 16, layout=L1)
        offs_m = gl.arange(0, 16, layout=L2)
        offs_m_20 = gl.arange(0, 16, layout=L3)
        offs_m_21 = gl.arange(0, 16, layout=L4)
        offs_m_22 = gl.expand_dims(offs_m, 0)
        offs_m_23 = gl.expand_dims(offs_m_20, 0)
        offs_m_24 = gl.expand_dims(offs_m_21, 0)
        offs_m_25 = offs_m_22.broadcast_to([4, 16])
        offs_m_26 = gl.convert_layout(gl.reshape(offs_m_25, [64]), L5)
        block_n_start = off_t * TILE_KV_MULTIPLE
        block_n_end = block_n_start + TILE_KV_MULTIPLE
        q_range = gl.arange(0, 4, layout=L6)
        q_range_27 = gl.arange(0, 4, layout=L7)
        q_range_28 = gl.expand_dims(q_range, 1)
        q_range_29 = gl.expand_dims(q_range_27, 1)
        q_range_30 = gl.expand_dims(q_range_28, 2)
        q_range_31 = gl.expand_dims(q_range_29, 2)
        q_range_32 = q_range_30 * 2048
        q_range_33 = gl.expand_dims(offs_m_23, 2)
        q_range_34 = gl.expand_dims(offs_m_24, 2)
        q_range_35 = q_range_33 * 128
        q_range_36 = q_range_34 * 128
        q_range_37 = q_range_32.broadcast_to([4, 16, 1])
        q_range_38 = q_range_35.broadcast_to([4, 16, 1])
        q_range_39 = q_range_37 + q_range_38
        q_range_40 = gl.arange(0, 128, layout=L8)
        q_range_41 = gl.arange(0, 128, layout=L9)
        q_range_42 = gl.arange(0, 128, layout=L10)
        q_range_43 = gl.expand_dims(q_range_40, 0)
        q_range_44 = gl.expand_dims(q_range_41, 0)
        q_range_45 = gl.expand_dims(q_range_42, 0)
        q_range_46 = gl.expand_dims(q_range_44, 1)
        q_range_47 = gl.expand_dims(q_range_45, 1)
        q_range_48 = q_range_39.broadcast_to([4, 16, 128])
        q_range_49 = q_range_46.broadcast_to([4, 16, 128])
        q_range_50 = q_range_48 + q_range_49
        q = arg_Q + q_offset_17
        q_52 = q + q_range_50
        q_53 = gl.load(q_52)
        q_54 = gl.convert_layout(q_53, L11)
        q_55 = gl.convert_layout(gl.reshape(q_54, [64, 128]), L12)
        kv_num_blocks = gl.load(arg_KV_NUM_BLKS)
        MAX_KV_IDX = ks0 + 127
        MAX_KV_IDX_56 = MAX_KV_IDX // 128
        indices_idx = block_n_start // 2
        indices_idx_57 = indices_idx % MAX_KV_IDX_56
        off_n_block_in_sparse = block_n_start % 2
        off_n = arg_KV_IDX + indices_idx_57
        off_n_58 = gl.load(off_n)
        off_n_59 = off_n_58 * 128
        off_n_60 = off_n_block_in_sparse * 64
        off_n_61 = off_n_59 + off_n_60
        block_n_last_valid = kv_num_blocks * 2
        block_n_last_valid_62 = ks0 + 63
        block_n_last_valid_63 = block_n_last_valid_62 // 64
        block_n_last_valid_64 = gl.maximum(block_n_last_valid_63, 1)
        block_n_last_valid_65 = gl.minimum(block_n_last_valid, block_n_last_valid_64)
        offs_n = gl.arange(0, 64, layout=L13)
        offs_n_66 = gl.arange(0, 64, layout=L14)
        offs_n_68 = offs_n + off_n_61
        v2 = gl.expand_dims(offs_m_26, 1)
        v3 = gl.expand_dims(offs_n_68, 0)
        v4 = block_n_end <= block_n_last_valid_65
        v5 = gl.where(v4, block_n_end, block_n_last_valid_65)
        ptr_69 = q_range_43.broadcast_to([64, 128])
        tmp3 = ks0 - 16
        tmp3_71 = v2 + tmp3
        tmp3_72 = tmp3_71.broadcast_to([64, 64])
        twill_n = gl.maximum((v5 - block_n_start + 1 - 1) // 1, 0)
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            acc_147 = gl.full([64, 128], 0.0, gl.float32, layout=L15)
            l_i_136 = gl.full([64], 0.0, gl.float32, layout=L5)
            m_ij_129 = gl.full([64], float("-inf"), gl.float32, layout=L5)
            kv_offset_162 = 0
            offs_n_161 = v3
            cur_block_idx_l0 = (block_n_start + (0 - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
            cur_block_l0 = arg_KV_IDX + cur_block_idx_l0  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block_l0 = cur_block_idx_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_149_l0 = next_block_l0 < kv_num_blocks  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_150_l0 = cur_block_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
            cur_block_148 = gl.load(cur_block_l0, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block_151 = gl.load(next_block_150_l0, mask=next_block_149_l0, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
            acc_147_p1 = acc_147
            cur_block_148_p1 = cur_block_148
            kv_offset_162_p1 = kv_offset_162
            l_i_136_p1 = l_i_136
            m_ij_129_p1 = m_ij_129
            next_block_151_p1 = next_block_151
            offs_n_161_p1 = offs_n_161
            for twill_b in range(1, twill_n):
                kv_base_offset_l0 = off_n_61 + kv_offset_162_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
                cur_block_idx_l0 = (block_n_start + (twill_b - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
                cur_block_l0 = arg_KV_IDX + cur_block_idx_l0  # load2_cur_block: stage 0, partition 0 (group 0)
                next_block_l0 = cur_block_idx_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
                next_block_149_l0 = next_block_l0 < kv_num_blocks  # load3_next_block: stage 0, partition 0 (group 0)
                next_block_150_l0 = cur_block_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
                cur_block_148 = gl.load(cur_block_l0, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
                next_block_151 = gl.load(next_block_150_l0, mask=next_block_149_l0, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
                needs_jump_l0 = (block_n_start + (twill_b - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                needs_jump_152_l0 = needs_jump_l0 % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                needs_jump_153 = needs_jump_152_l0 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                jump_to_block_l0 = next_block_151_p1 - cur_block_148_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                jump_to_block_154_l0 = jump_to_block_l0 * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                jump_to_block_155 = jump_to_block_154_l0 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                offset_l0 = gl.cast(needs_jump_153, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                offset_156_l0 = jump_to_block_155 * offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                offset_157_l0 = 1 - offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                offset_158_l0 = offset_157_l0 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                offset_159 = offset_156_l0 + offset_158_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                kv_offset_162 = kv_offset_162_p1 + offset_159  # elementwise7_kv_offset: stage 1, partition 0 (group 0)
                mbarrier.wait(k_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
                fence_async_shared()
                tok_qk_l0 = warpgroup_mma(q_55, k_buf.index((twill_base + twill_b - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L16), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
                acc_147_p1, qk_l0 = warpgroup_mma_wait(0, deps=(acc_147_p1, tok_qk_l0,))
                mbarrier.arrive(v_empty.index((twill_base + twill_b - 1 - 1) % 2), pred=(twill_b - 1 - 1) >= 0)
                mbarrier.arrive(k_empty.index((twill_base + twill_b - 1) % 2))
                qk_125 = qk_l0 * 0.0883883461  # elementwise1_qk: stage 1, partition 0 (group 0)
                tmp3_126 = offs_n_161_p1.broadcast_to([64, 64])  # elementwise1_qk: stage 1, partition 0 (group 0)
                tmp3_127 = tmp3_72 >= tmp3_126  # elementwise1_qk: stage 1, partition 0 (group 0)
                post_mod_scores_l0 = gl.where(tmp3_127, qk_125, float("-inf"))  # elementwise1_qk: stage 1, partition 0 (group 0)
                post_mod_scores_128 = post_mod_scores_l0 * 1.44269502  # elementwise1_qk: stage 1, partition 0 (group 0)
                offs_n_160 = offset_159  # elementwise1_qk: stage 1, partition 0 (group 0)
                offs_n_161 = offs_n_161_p1 + offs_n_160  # elementwise1_qk: stage 1, partition 0 (group 0)
                m_ij_l0 = gl.max(post_mod_scores_128, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
                m_ij_129 = gl.maximum(m_ij_129_p1, m_ij_l0)  # elementwise2_m_ij: stage 1, partition 0 (group 0)
                masked_out_rows_l0 = m_ij_129 == float("-inf")  # elementwise3_masked_out_rows: stage 1, partition 0 (group 0)
                m_ij_masked_l0 = gl.where(masked_out_rows_l0, 0.0, m_ij_129)  # elementwise3_masked_out_rows: stage 1, partition 0 (group 0)
                alpha_l0 = m_ij_129_p1 - m_ij_masked_l0  # sfu0_alpha: stage 1, partition 0 (group 0)
                alpha_130 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 1, partition 0 (group 0)
                p_l0 = gl.expand_dims(m_ij_masked_l0, 1)  # sfu1_p: stage 1, partition 0 (group 0)
                p_131_l0 = p_l0.broadcast_to([64, 64])  # sfu1_p: stage 1, partition 0 (group 0)
                p_132_l0 = post_mod_scores_128 - p_131_l0  # sfu1_p: stage 1, partition 0 (group 0)
                p_133 = gl.exp2(p_132_l0)  # sfu1_p: stage 1, partition 0 (group 0)
                acc_137_l0 = gl.expand_dims(alpha_130, 1)  # convert0_acc: stage 1, partition 0 (group 0)
                acc_138_l0 = gl.convert_layout(acc_137_l0, L15)  # convert0_acc: stage 1, partition 0 (group 0)
                acc_139_l0 = acc_138_l0.broadcast_to([64, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
                acc_140 = acc_147_p1 * acc_139_l0  # elementwise5_acc: stage 1, partition 0 (group 0)
                acc_145_l0 = p_133.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
                acc_146_l0 = gl.convert_layout(acc_145_l0, L17)  # convert1_acc: stage 1, partition 0 (group 0)
                l_i_135_l0 = gl.sum(p_133, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
                l_i_134_l0 = l_i_136_p1 * alpha_130  # elementwise4_l_i: stage 1, partition 0 (group 0)
                l_i_136 = l_i_134_l0 + l_i_135_l0  # elementwise4_l_i: stage 1, partition 0 (group 0)
                mbarrier.wait(v_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
                fence_async_shared()
                tok_acc_147 = warpgroup_mma(acc_146_l0, v_buf.index((twill_base + twill_b - 1) % 2), acc_140, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
                acc_147 = warpgroup_mma_wait(1, deps=(tok_acc_147,))
                acc_147_p1 = acc_147
                cur_block_148_p1 = cur_block_148
                kv_offset_162_p1 = kv_offset_162
                l_i_136_p1 = l_i_136
                m_ij_129_p1 = m_ij_129
                next_block_151_p1 = next_block_151
                offs_n_161_p1 = offs_n_161
            kv_base_offset_l0 = off_n_61 + kv_offset_162_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
            needs_jump_l0 = (block_n_start + ((twill_n - 1 + 1) - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            needs_jump_152_l0 = needs_jump_l0 % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            needs_jump_153 = needs_jump_152_l0 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_l0 = next_block_151_p1 - cur_block_148_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_154_l0 = jump_to_block_l0 * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_155 = jump_to_block_154_l0 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_l0 = gl.cast(needs_jump_153, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_156_l0 = jump_to_block_155 * offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_157_l0 = 1 - offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_158_l0 = offset_157_l0 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_159 = offset_156_l0 + offset_158_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            kv_offset_162 = kv_offset_162_p1 + offset_159  # elementwise7_kv_offset: stage 1, partition 0 (group 0)
            mbarrier.wait(k_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
            fence_async_shared()
            tok_qk_l0 = warpgroup_mma(q_55, k_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L16), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            acc_147_p1, qk_l0 = warpgroup_mma_wait(0, deps=(acc_147_p1, tok_qk_l0,))
            mbarrier.arrive(v_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 2), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
            mbarrier.arrive(k_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
            qk_125 = qk_l0 * 0.0883883461  # elementwise1_qk: stage 1, partition 0 (group 0)
            tmp3_126 = offs_n_161_p1.broadcast_to([64, 64])  # elementwise1_qk: stage 1, partition 0 (group 0)
            tmp3_127 = tmp3_72 >= tmp3_126  # elementwise1_qk: stage 1, partition 0 (group 0)
            post_mod_scores_l0 = gl.where(tmp3_127, qk_125, float("-inf"))  # elementwise1_qk: stage 1, partition 0 (group 0)
            post_mod_scores_128 = post_mod_scores_l0 * 1.44269502  # elementwise1_qk: stage 1, partition 0 (group 0)
            offs_n_160 = offset_159  # elementwise1_qk: stage 1, partition 0 (group 0)
            offs_n_161 = offs_n_161_p1 + offs_n_160  # elementwise1_qk: stage 1, partition 0 (group 0)
            m_ij_l0 = gl.max(post_mod_scores_128, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
            m_ij_129 = gl.maximum(m_ij_129_p1, m_ij_l0)  # elementwise2_m_ij: stage 1, partition 0 (group 0)
            masked_out_rows_l0 = m_ij_129 == float("-inf")  # elementwise3_masked_out_rows: stage 1, partition 0 (group 0)
            m_ij_masked_l0 = gl.where(masked_out_rows_l0, 0.0, m_ij_129)  # elementwise3_masked_out_rows: stage 1, partition 0 (group 0)
            alpha_l0 = m_ij_129_p1 - m_ij_masked_l0  # sfu0_alpha: stage 1, partition 0 (group 0)
            alpha_130 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 1, partition 0 (group 0)
            p_l0 = gl.expand_dims(m_ij_masked_l0, 1)  # sfu1_p: stage 1, partition 0 (group 0)
            p_131_l0 = p_l0.broadcast_to([64, 64])  # sfu1_p: stage 1, partition 0 (group 0)
            p_132_l0 = post_mod_scores_128 - p_131_l0  # sfu1_p: stage 1, partition 0 (group 0)
            p_133 = gl.exp2(p_132_l0)  # sfu1_p: stage 1, partition 0 (group 0)
            acc_137_l0 = gl.expand_dims(alpha_130, 1)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_138_l0 = gl.convert_layout(acc_137_l0, L15)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_139_l0 = acc_138_l0.broadcast_to([64, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
            acc_140 = acc_147_p1 * acc_139_l0  # elementwise5_acc: stage 1, partition 0 (group 0)
            acc_145_l0 = p_133.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_146_l0 = gl.convert_layout(acc_145_l0, L17)  # convert1_acc: stage 1, partition 0 (group 0)
            l_i_135_l0 = gl.sum(p_133, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            l_i_134_l0 = l_i_136_p1 * alpha_130  # elementwise4_l_i: stage 1, partition 0 (group 0)
            l_i_136 = l_i_134_l0 + l_i_135_l0  # elementwise4_l_i: stage 1, partition 0 (group 0)
            mbarrier.wait(v_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_147 = warpgroup_mma(acc_146_l0, v_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), acc_140, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            acc_147 = warpgroup_mma_wait(1, deps=(tok_acc_147,))
            acc_147_p1 = acc_147
            cur_block_148_p1 = cur_block_148
            kv_offset_162_p1 = kv_offset_162
            l_i_136_p1 = l_i_136
            m_ij_129_p1 = m_ij_129
            next_block_151_p1 = next_block_151
            offs_n_161_p1 = offs_n_161
            acc_147_p1 = warpgroup_mma_wait(0, deps=(acc_147_p1,))
            k_buf._keep_alive()
            v_buf._keep_alive()
            mbarrier.arrive(v_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
        else:
            acc_147_p1 = gl.full([64, 128], 0.0, gl.float32, layout=L15)
            l_i_136_p1 = gl.full([64], 0.0, gl.float32, layout=L5)
            m_ij_129_p1 = gl.full([64], float("-inf"), gl.float32, layout=L5)
            kv_offset_162_p1 = 0
            offs_n_161_p1 = v3
        twill_base += twill_n
        kv_num_blocks_74 = gl.load(arg_FULL_KV_NUM_BLKS)
        block_n_start_75 = 15 - off_t
        block_n_start_76 = block_n_start_75 * TILE_KV_MULTIPLE
        block_n_end_77 = block_n_start_76 + TILE_KV_MULTIPLE
        indices_idx_78 = block_n_start_76 // 2
        indices_idx_79 = indices_idx_78 % MAX_KV_IDX_56
        off_n_block_in_sparse_80 = block_n_start_76 % 2
        off_n_81 = arg_FULL_KV_IDX + indices_idx_79
        off_n_82 = gl.load(off_n_81)
        off_n_83 = off_n_82 * 128
        off_n_84 = off_n_block_in_sparse_80 * 64
        off_n_85 = off_n_83 + off_n_84
        block_n_last_valid_86 = kv_num_blocks_74 * 2
        block_n_last_valid_87 = gl.minimum(block_n_last_valid_86, block_n_last_valid_64)
        v6 = block_n_end_77 <= block_n_last_valid_87
        v7 = gl.where(v6, block_n_end_77, block_n_last_valid_87)
        twill_n = gl.maximum((v7 - block_n_start_76 + 1 - 1) // 1, 0)
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            m_ij_128 = m_ij_129_p1
            kv_offset_159 = 0
            kv_offset_159_p1 = kv_offset_159
            m_ij_128_p1 = m_ij_128
            acc_146 = acc_147_p1
            l_i_135 = l_i_136_p1
            kv_base_offset = off_n_85 + kv_offset_159_p1  # elementwise0_kv_base_offset: stage 0, partition 0 (group 0)
            cur_block_idx = (block_n_start_76 + (0 - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
            cur_block = arg_FULL_KV_IDX + cur_block_idx  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block = cur_block_idx + 1  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_148 = next_block < kv_num_blocks_74  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_149 = cur_block + 1  # load3_next_block: stage 0, partition 0 (group 0)
            cur_block_147 = gl.load(cur_block, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block_150 = gl.load(next_block_149, mask=next_block_148, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
            needs_jump = (block_n_start_76 + (0 - 0) * 1) + 1  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            needs_jump_151 = needs_jump % 2  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            needs_jump_152 = needs_jump_151 == 0  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            jump_to_block = next_block_150 - cur_block_147  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            jump_to_block_153 = jump_to_block * 128  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            jump_to_block_154 = jump_to_block_153 - 64  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            offset = gl.cast(needs_jump_152, gl.int32)  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            offset_155 = jump_to_block_154 * offset  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            offset_156 = 1 - offset  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            offset_157 = offset_156 * 64  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            offset_158 = offset_155 + offset_157  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            kv_offset_159 = kv_offset_159_p1 + offset_158  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            mbarrier.wait(k_ready.index((twill_base + 0 - 0) % 2), ((twill_base + 0 - 0) // 2) & 1)
            fence_async_shared()
            tok_qk = warpgroup_mma(q_55, k_buf.index((twill_base + 0 - 0) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L16), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            qk = warpgroup_mma_wait(0, deps=(tok_qk,))
            mbarrier.arrive(k_empty.index((twill_base + 0 - 0) % 2))
            qk_127 = qk * 0.0883883461  # elementwise1_qk: stage 0, partition 0 (group 0)
            post_mod_scores = qk_127 * 1.44269502  # elementwise1_qk: stage 0, partition 0 (group 0)
            m_ij = gl.max(post_mod_scores, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
            m_ij_128 = gl.maximum(m_ij_128_p1, m_ij)  # elementwise2_m_ij: stage 0, partition 0 (group 0)
            masked_out_rows = m_ij_128 == float("-inf")  # elementwise3_masked_out_rows: stage 0, partition 0 (group 0)
            m_ij_masked = gl.where(masked_out_rows, 0.0, m_ij_128)  # elementwise3_masked_out_rows: stage 0, partition 0 (group 0)
            alpha = m_ij_128_p1 - m_ij_masked  # sfu0_alpha: stage 0, partition 0 (group 0)
            alpha_129 = gl.exp2(alpha)  # sfu0_alpha: stage 0, partition 0 (group 0)
            acc_136 = gl.expand_dims(alpha_129, 1)  # convert0_acc: stage 0, partition 0 (group 0)
            acc_137 = gl.convert_layout(acc_136, L15)  # convert0_acc: stage 0, partition 0 (group 0)
            acc_138 = acc_137.broadcast_to([64, 128])  # elementwise5_acc: stage 0, partition 0 (group 0)
            acc_139 = acc_146 * acc_138  # elementwise5_acc: stage 0, partition 0 (group 0)
            p = gl.expand_dims(m_ij_masked, 1)  # sfu1_p: stage 0, partition 0 (group 0)
            p_130 = p.broadcast_to([64, 64])  # sfu1_p: stage 0, partition 0 (group 0)
            p_131 = post_mod_scores - p_130  # sfu1_p: stage 0, partition 0 (group 0)
            p_132 = gl.exp2(p_131)  # sfu1_p: stage 0, partition 0 (group 0)
            acc_144 = p_132.to(gl.float16)  # convert1_acc: stage 0, partition 0 (group 0)
            acc_145 = gl.convert_layout(acc_144, L17)  # convert1_acc: stage 0, partition 0 (group 0)
            acc_139_p1 = acc_139
            acc_145_p1 = acc_145
            alpha_129_p1 = alpha_129
            kv_offset_159_p1 = kv_offset_159
            l_i_135_p1 = l_i_135
            m_ij_128_p1 = m_ij_128
            p_132_p1 = p_132
            for twill_b in range(1, twill_n):
                kv_base_offset = off_n_85 + kv_offset_159_p1  # elementwise0_kv_base_offset: stage 0, partition 0 (group 0)
                mbarrier.wait(v_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
                fence_async_shared()
                tok_acc_146 = warpgroup_mma(acc_145_p1, v_buf.index((twill_base + twill_b - 1) % 2), acc_139_p1, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
                l_i_134 = gl.sum(p_132_p1, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
                l_i_133 = l_i_135_p1 * alpha_129_p1  # elementwise4_l_i: stage 1, partition 0 (group 0)
                l_i_135 = l_i_133 + l_i_134  # elementwise4_l_i: stage 1, partition 0 (group 0)
                cur_block_idx = (block_n_start_76 + (twill_b - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
                cur_block = arg_FULL_KV_IDX + cur_block_idx  # load2_cur_block: stage 0, partition 0 (group 0)
                next_block = cur_block_idx + 1  # load3_next_block: stage 0, partition 0 (group 0)
                next_block_148 = next_block < kv_num_blocks_74  # load3_next_block: stage 0, partition 0 (group 0)
                next_block_149 = cur_block + 1  # load3_next_block: stage 0, partition 0 (group 0)
                cur_block_147 = gl.load(cur_block, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
                next_block_150 = gl.load(next_block_149, mask=next_block_148, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
                needs_jump = (block_n_start_76 + (twill_b - 0) * 1) + 1  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                needs_jump_151 = needs_jump % 2  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                needs_jump_152 = needs_jump_151 == 0  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                jump_to_block = next_block_150 - cur_block_147  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                jump_to_block_153 = jump_to_block * 128  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                jump_to_block_154 = jump_to_block_153 - 64  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                offset = gl.cast(needs_jump_152, gl.int32)  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                offset_155 = jump_to_block_154 * offset  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                offset_156 = 1 - offset  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                offset_157 = offset_156 * 64  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                offset_158 = offset_155 + offset_157  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                kv_offset_159 = kv_offset_159_p1 + offset_158  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                mbarrier.wait(k_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
                fence_async_shared()
                tok_qk = warpgroup_mma(q_55, k_buf.index((twill_base + twill_b - 0) % 2).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L16), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
                acc_146, qk = warpgroup_mma_wait(0, deps=(tok_acc_146, tok_qk,))
                mbarrier.arrive(v_empty.index((twill_base + twill_b - 1) % 2))
                mbarrier.arrive(k_empty.index((twill_base + twill_b - 0) % 2))
                qk_127 = qk * 0.0883883461  # elementwise1_qk: stage 0, partition 0 (group 0)
                post_mod_scores = qk_127 * 1.44269502  # elementwise1_qk: stage 0, partition 0 (group 0)
                m_ij = gl.max(post_mod_scores, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
                m_ij_128 = gl.maximum(m_ij_128_p1, m_ij)  # elementwise2_m_ij: stage 0, partition 0 (group 0)
                masked_out_rows = m_ij_128 == float("-inf")  # elementwise3_masked_out_rows: stage 0, partition 0 (group 0)
                m_ij_masked = gl.where(masked_out_rows, 0.0, m_ij_128)  # elementwise3_masked_out_rows: stage 0, partition 0 (group 0)
                alpha = m_ij_128_p1 - m_ij_masked  # sfu0_alpha: stage 0, partition 0 (group 0)
                alpha_129 = gl.exp2(alpha)  # sfu0_alpha: stage 0, partition 0 (group 0)
                acc_136 = gl.expand_dims(alpha_129, 1)  # convert0_acc: stage 0, partition 0 (group 0)
                acc_137 = gl.convert_layout(acc_136, L15)  # convert0_acc: stage 0, partition 0 (group 0)
                acc_138 = acc_137.broadcast_to([64, 128])  # elementwise5_acc: stage 0, partition 0 (group 0)
                acc_139 = acc_146 * acc_138  # elementwise5_acc: stage 0, partition 0 (group 0)
                p = gl.expand_dims(m_ij_masked, 1)  # sfu1_p: stage 0, partition 0 (group 0)
                p_130 = p.broadcast_to([64, 64])  # sfu1_p: stage 0, partition 0 (group 0)
                p_131 = post_mod_scores - p_130  # sfu1_p: stage 0, partition 0 (group 0)
                p_132 = gl.exp2(p_131)  # sfu1_p: stage 0, partition 0 (group 0)
                acc_144 = p_132.to(gl.float16)  # convert1_acc: stage 0, partition 0 (group 0)
                acc_145 = gl.convert_layout(acc_144, L17)  # convert1_acc: stage 0, partition 0 (group 0)
                acc_139_p1 = acc_139
                acc_145_p1 = acc_145
                alpha_129_p1 = alpha_129
                kv_offset_159_p1 = kv_offset_159
                l_i_135_p1 = l_i_135
                m_ij_128_p1 = m_ij_128
                p_132_p1 = p_132
            mbarrier.wait(v_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
            fence_async_shared()
            tok_acc_146 = warpgroup_mma(acc_145_p1, v_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), acc_139_p1, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_i_134 = gl.sum(p_132_p1, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            l_i_133 = l_i_135_p1 * alpha_129_p1  # elementwise4_l_i: stage 1, partition 0 (group 0)
            l_i_135 = l_i_133 + l_i_134  # elementwise4_l_i: stage 1, partition 0 (group 0)
            acc_146 = warpgroup_mma_wait(0, deps=(tok_acc_146,))
            mbarrier.arrive(v_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
            acc_139_p1 = acc_139
            acc_145_p1 = acc_145
            acc_146_p1 = acc_146
            alpha_129_p1 = alpha_129
            kv_offset_159_p2 = kv_offset_159_p1
            kv_offset_159_p1 = kv_offset_159
            l_i_135_p1 = l_i_135
            m_ij_128_p2 = m_ij_128_p1
            m_ij_128_p1 = m_ij_128
            p_132_p1 = p_132
            k_buf._keep_alive()
            v_buf._keep_alive()
        else:
            acc_146_p1 = acc_147_p1
            l_i_135_p1 = l_i_136_p1
            m_ij_128_p2 = m_ij_129_p1
            kv_offset_159_p2 = 0
        m_offset = off_t * 512
        m_offset_92 = off_z_15 * 8192
        m_offset_93 = m_offset + m_offset_92
        M_block_ptr = arg_M + m_offset_93
        M_block_ptr_94 = off_hkv * 4
        M_block_ptr_95 = gl.cast(M_block_ptr_94, gl.int64)
        L_block_ptr = arg_L + m_offset_93
        m_i = gl.convert_layout(gl.reshape(m_ij_128_p2, [4, 16]), L18)
        l_i = gl.convert_layout(gl.reshape(l_i_135_p1, [4, 16]), L18)
        v10 = off_g.to(gl.int64)
        v11 = M_block_ptr_95 + v10
        v12 = gl.expand_dims(v11, 1)
        v13 = v12 * 16
        v14 = v13.broadcast_to([4, 16])
        v15 = off_m.to(gl.int64)
        v16 = gl.expand_dims(v15, 0)
        v17 = v16.broadcast_to([4, 16])
        v18 = v14 + v17
        v19 = M_block_ptr + v18
        v20 = gl.convert_layout(m_i, L19)
        gl.store(v19, v20)
        v22 = L_block_ptr + v18
        v23 = gl.convert_layout(l_i, L19)
        gl.store(v22, v23)
        idx_hq_96 = M_block_ptr_94 + q_range_31
        mask_97 = q_range_34 < 16
        mask_98 = q_range_47 < 128
        mask_99 = mask_97.broadcast_to([1, 16, 128])
        mask_100 = mask_98.broadcast_to([1, 16, 128])
        mask_101 = mask_99 & mask_100
        acc_102 = gl.convert_layout(gl.reshape(acc_146_p1, [4, 16, 128]), L11)
        xindex = q_range_47.broadcast_to([1, 16, 128])
        xindex_103 = q_range_36.broadcast_to([1, 16, 128])
        xindex_104 = xindex + xindex_103
        xindex_105 = idx_hq_96 * 2048
        xindex_106 = xindex_104.broadcast_to([4, 16, 128])
        xindex_107 = xindex_105.broadcast_to([4, 16, 128])
        xindex_108 = xindex_106 + xindex_107
        xindex_109 = off_t * 65536
        xindex_111 = xindex_108 + xindex_109
        xindex_112 = off_z_15 * 1048576
        xindex_114 = xindex_111 + xindex_112
        v25 = out_ptr0 + xindex_114
        v26 = mask_101.broadcast_to([4, 16, 128])
        v27 = gl.convert_layout(acc_102, L20)
        gl.store(v25, v27, mask=v26)
        twill_base += twill_n

@gluon.jit
def producer_1(arg_Q, arg_K, arg_V, arg_M, arg_L, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, twill_g0, twill_g1, twill_g2, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        v0 = ks0 * 1024
        v1 = ks0 * 128
        TILE_KV_OG = ks0 + 15
        TILE_KV_OG_12 = TILE_KV_OG // 16
        TILE_KV = TILE_KV_OG_12 + 63
        TILE_KV_13 = TILE_KV // 64
        TILE_KV_14 = TILE_KV_13 * 64
        TILE_KV_MULTIPLE = TILE_KV_14 // 64
        off_z = twill_pid0
        off_z_15 = off_z // 8
        off_zkv = off_z_15 % 8
        off_hkv = off_z % 8
        off_t = twill_pid1
        k_offset = off_zkv * v0
        k_offset_18 = off_hkv * v1
        k_offset_19 = k_offset + k_offset_18
        K = arg_K + k_offset_19
        V = arg_V + k_offset_19
        block_n_start = off_t * TILE_KV_MULTIPLE
        block_n_end = block_n_start + TILE_KV_MULTIPLE
        q_range_40 = gl.arange(0, 128, layout=L8)
        q_range_43 = gl.expand_dims(q_range_40, 0)
        kv_num_blocks = gl.load(arg_KV_NUM_BLKS)
        MAX_KV_IDX = ks0 + 127
        MAX_KV_IDX_56 = MAX_KV_IDX // 128
        indices_idx = block_n_start // 2
        indices_idx_57 = indices_idx % MAX_KV_IDX_56
        off_n_block_in_sparse = block_n_start % 2
        off_n = arg_KV_IDX + indices_idx_57
        off_n_58 = gl.load(off_n)
        off_n_59 = off_n_58 * 128
        off_n_60 = off_n_block_in_sparse * 64
        off_n_61 = off_n_59 + off_n_60
        block_n_last_valid = kv_num_blocks * 2
        block_n_last_valid_62 = ks0 + 63
        block_n_last_valid_63 = block_n_last_valid_62 // 64
        block_n_last_valid_64 = gl.maximum(block_n_last_valid_63, 1)
        block_n_last_valid_65 = gl.minimum(block_n_last_valid, block_n_last_valid_64)
        offs_n_66 = gl.arange(0, 64, layout=L14)
        v4 = block_n_end <= block_n_last_valid_65
        v5 = gl.where(v4, block_n_end, block_n_last_valid_65)
        ptr_69 = q_range_43.broadcast_to([64, 128])
        arg15_l0 = 0
        for kv_offset_115_l0 in range(block_n_start, v5, 1):
            twill_k = twill_base + (kv_offset_115_l0 - block_n_start) // 1
            kv_base_offset_l0 = off_n_61 + arg15_l0
            offs_n_load_117 = kv_base_offset_l0 + offs_n_66
            ptr_118 = gl.expand_dims(offs_n_load_117, 1)
            ptr_119 = ptr_118 * 128
            ptr_120_l0 = K + ptr_119
            ptr_121_l0 = ptr_120_l0.broadcast_to([64, 128])
            ptr_122_l0 = ptr_121_l0 + ptr_69
            ptr_141_l0 = V + ptr_119
            ptr_142_l0 = ptr_141_l0.broadcast_to([64, 128])
            ptr_143 = ptr_142_l0 + ptr_69
            cur_block_idx_l0 = kv_offset_115_l0 // 2
            cur_block_l0 = arg_KV_IDX + cur_block_idx_l0
            cur_block_148 = gl.load(cur_block_l0, eviction_policy='evict_last')
            next_block_l0 = cur_block_idx_l0 + 1
            next_block_149_l0 = next_block_l0 < kv_num_blocks
            next_block_150_l0 = cur_block_l0 + 1
            next_block_151 = gl.load(next_block_150_l0, mask=next_block_149_l0, eviction_policy='evict_last')
            needs_jump_l0 = kv_offset_115_l0 + 1
            needs_jump_152_l0 = needs_jump_l0 % 2
            needs_jump_153 = needs_jump_152_l0 == 0
            jump_to_block_l0 = next_block_151 - cur_block_148
            jump_to_block_154_l0 = jump_to_block_l0 * 128
            jump_to_block_155 = jump_to_block_154_l0 - 64
            offset_l0 = gl.cast(needs_jump_153, gl.int32)
            offset_156_l0 = jump_to_block_155 * offset_l0
            offset_157_l0 = 1 - offset_l0
            offset_158_l0 = offset_157_l0 * 64
            offset_159 = offset_156_l0 + offset_158_l0
            kv_offset_162 = arg15_l0 + offset_159
            mbarrier.wait(k_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(k_buf.index(twill_k % 2), ptr_122_l0)  # load0_k: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(k_ready.index(twill_k % 2), increment_count=False)
            else:
                k_buf.index(twill_k % 2).store(gl.load(ptr_122_l0))  # load0_k: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(k_ready.index(twill_k % 2), count=128)
            mbarrier.wait(v_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_buf.index(twill_k % 2), ptr_143)  # load1_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(v_ready.index(twill_k % 2), increment_count=False)
            else:
                v_buf.index(twill_k % 2).store(gl.load(ptr_143))  # load1_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_ready.index(twill_k % 2), count=128)
            arg15_l0 = kv_offset_162
        kv_num_blocks_74 = gl.load(arg_FULL_KV_NUM_BLKS)
        block_n_start_75 = 15 - off_t
        block_n_start_76 = block_n_start_75 * TILE_KV_MULTIPLE
        block_n_end_77 = block_n_start_76 + TILE_KV_MULTIPLE
        indices_idx_78 = block_n_start_76 // 2
        indices_idx_79 = indices_idx_78 % MAX_KV_IDX_56
        off_n_block_in_sparse_80 = block_n_start_76 % 2
        off_n_81 = arg_FULL_KV_IDX + indices_idx_79
        off_n_82 = gl.load(off_n_81)
        off_n_83 = off_n_82 * 128
        off_n_84 = off_n_block_in_sparse_80 * 64
        off_n_85 = off_n_83 + off_n_84
        block_n_last_valid_86 = kv_num_blocks_74 * 2
        block_n_last_valid_87 = gl.minimum(block_n_last_valid_86, block_n_last_valid_64)
        v6 = block_n_end_77 <= block_n_last_valid_87
        v7 = gl.where(v6, block_n_end_77, block_n_last_valid_87)
        ptr_89 = q_range_43.broadcast_to([64, 128])
        twill_base += gl.maximum((v5 - block_n_start + 1 - 1) // 1, 0)
        arg15 = 0
        for kv_offset_115 in range(block_n_start_76, v7, 1):
            twill_k = twill_base + (kv_offset_115 - block_n_start_76) // 1
            kv_base_offset = off_n_85 + arg15
            offs_n_load_119 = kv_base_offset + offs_n_66
            ptr_120 = gl.expand_dims(offs_n_load_119, 1)
            ptr_121 = ptr_120 * 128
            ptr_122 = K + ptr_121
            ptr_123 = ptr_122.broadcast_to([64, 128])
            ptr_124 = ptr_123 + ptr_89
            ptr_140 = V + ptr_121
            ptr_141 = ptr_140.broadcast_to([64, 128])
            ptr_142 = ptr_141 + ptr_89
            cur_block_idx = kv_offset_115 // 2
            cur_block = arg_FULL_KV_IDX + cur_block_idx
            cur_block_147 = gl.load(cur_block, eviction_policy='evict_last')
            next_block = cur_block_idx + 1
            next_block_148 = next_block < kv_num_blocks_74
            next_block_149 = cur_block + 1
            next_block_150 = gl.load(next_block_149, mask=next_block_148, eviction_policy='evict_last')
            needs_jump = kv_offset_115 + 1
            needs_jump_151 = needs_jump % 2
            needs_jump_152 = needs_jump_151 == 0
            jump_to_block = next_block_150 - cur_block_147
            jump_to_block_153 = jump_to_block * 128
            jump_to_block_154 = jump_to_block_153 - 64
            offset = gl.cast(needs_jump_152, gl.int32)
            offset_155 = jump_to_block_154 * offset
            offset_156 = 1 - offset
            offset_157 = offset_156 * 64
            offset_158 = offset_155 + offset_157
            kv_offset_159 = arg15 + offset_158
            mbarrier.wait(k_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(k_buf.index(twill_k % 2), ptr_124)  # load0_k: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(k_ready.index(twill_k % 2), increment_count=False)
            else:
                k_buf.index(twill_k % 2).store(gl.load(ptr_124))  # load0_k: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(k_ready.index(twill_k % 2), count=128)
            mbarrier.wait(v_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_buf.index(twill_k % 2), ptr_142)  # load1_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(v_ready.index(twill_k % 2), increment_count=False)
            else:
                v_buf.index(twill_k % 2).store(gl.load(ptr_142))  # load1_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_ready.index(twill_k % 2), count=128)
            arg15 = kv_offset_159
        twill_base += gl.maximum((v7 - block_n_start_76 + 1 - 1) // 1, 0)

@gluon.jit
def twill_kernel(arg_Q, arg_K, arg_V, arg_M, arg_L, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    k_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    v_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_ready.index(i), count=128)
    k_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_empty.index(i), count=1)
    v_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_ready.index(i), count=128)
    v_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (arg_Q, arg_K, arg_V, arg_M, arg_L, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, twill_g0, twill_g1, twill_g2, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty, TWILL_COPY)),
        (producer_1, (arg_Q, arg_K, arg_V, arg_M, arg_L, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, twill_g0, twill_g1, twill_g2, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty, TWILL_COPY)),
    ], [4], [88])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.DistributedLinearLayout(reg_bases=[[0, 8]], lane_bases=[[0, 0], [0, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[1, 0], [2, 0]], block_bases=[], shape=[4, 16])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 8], threads_per_warp=[2, 1, 16], warps_per_cta=[2, 2, 1], order=[2, 0, 1]))))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 4], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))))
L5_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L6_short = gl.constexpr(gl.SliceLayout(1, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 8], threads_per_warp=[2, 1, 16], warps_per_cta=[2, 2, 1], order=[2, 0, 1]))))
L7_short = gl.constexpr(gl.SliceLayout(1, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 4], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))))
L8_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L9_short = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1, 8], threads_per_warp=[2, 1, 16], warps_per_cta=[2, 2, 1], order=[2, 0, 1]))))
L10_short = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1, 4], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))))
L11_short = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64]], lane_bases=[[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp_bases=[[1, 0, 0], [2, 0, 0]], block_bases=[], shape=[4, 16, 128]))
L12_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L13_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L14_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L15_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L16_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L17_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L18_short = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 8]], lane_bases=[[0, 0], [0, 0], [0, 1], [0, 2], [0, 4]], warp_bases=[[1, 0], [2, 0]], block_bases=[], shape=[4, 16]))
L19_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L20_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 4], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))

@gluon.jit
def consumer_0_short(arg_Q, arg_K, arg_V, arg_M, arg_L, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, TWILL_COPY: gl.constexpr):
    twill_base = 0
    v0 = ks0 * 1024
    v1 = ks0 * 128
    TILE_KV_OG = ks0 + 15
    TILE_KV_OG_12 = TILE_KV_OG // 16
    TILE_KV = TILE_KV_OG_12 + 63
    TILE_KV_13 = TILE_KV // 64
    TILE_KV_14 = TILE_KV_13 * 64
    TILE_KV_MULTIPLE = TILE_KV_14 // 64
    off_z = gl.program_id(0)
    off_z_15 = off_z // 8
    off_zkv = off_z_15 % 8
    off_hkv = off_z % 8
    off_t = gl.program_id(1)
    q_offset = off_z_15 * 65536
    q_offset_16 = off_hkv * 8192
    q_offset_17 = q_offset + q_offset_16
    k_offset = off_zkv * v0
    k_offset_18 = off_hkv * v1
    k_offset_19 = k_offset + k_offset_18
    K = arg_K + k_offset_19
    V = arg_V + k_offset_19
    off_g = gl.arange(0, 4, layout=L0_short)
    off_m = gl.arange(0, 16, layout=L1_short)
    offs_m = gl.arange(0, 16, layout=L2_short)
    offs_m_20 = gl.arange(0, 16, layout=L3_short)
    offs_m_21 = gl.arange(0, 16, layout=L4_short)
    offs_m_22 = gl.expand_dims(offs_m, 0)
    offs_m_23 = gl.expand_dims(offs_m_20, 0)
    offs_m_24 = gl.expand_dims(offs_m_21, 0)
    offs_m_25 = offs_m_22.broadcast_to([4, 16])
    offs_m_26 = gl.convert_layout(gl.reshape(offs_m_25, [64]), L5_short)
    block_n_start = off_t * TILE_KV_MULTIPLE
    block_n_end = block_n_start + TILE_KV_MULTIPLE
    q_range = gl.arange(0, 4, layout=L6_short)
    q_range_27 = gl.arange(0, 4, layout=L7_short)
    q_range_28 = gl.expand_dims(q_range, 1)
    q_range_29 = gl.expand_dims(q_range_27, 1)
    q_range_30 = gl.expand_dims(q_range_28, 2)
    q_range_31 = gl.expand_dims(q_range_29, 2)
    q_range_32 = q_range_30 * 2048
    q_range_33 = gl.expand_dims(offs_m_23, 2)
    q_range_34 = gl.expand_dims(offs_m_24, 2)
    q_range_35 = q_range_33 * 128
    q_range_36 = q_range_34 * 128
    q_range_37 = q_range_32.broadcast_to([4, 16, 1])
    q_range_38 = q_range_35.broadcast_to([4, 16, 1])
    q_range_39 = q_range_37 + q_range_38
    q_range_40 = gl.arange(0, 128, layout=L8_short)
    q_range_41 = gl.arange(0, 128, layout=L9_short)
    q_range_42 = gl.arange(0, 128, layout=L10_short)
    q_range_43 = gl.expand_dims(q_range_40, 0)
    q_range_44 = gl.expand_dims(q_range_41, 0)
    q_range_45 = gl.expand_dims(q_range_42, 0)
    q_range_46 = gl.expand_dims(q_range_44, 1)
    q_range_47 = gl.expand_dims(q_range_45, 1)
    q_range_48 = q_range_39.broadcast_to([4, 16, 128])
    q_range_49 = q_range_46.broadcast_to([4, 16, 128])
    q_range_50 = q_range_48 + q_range_49
    q = arg_Q + q_offset_17
    q_52 = q + q_range_50
    q_53 = gl.load(q_52)
    q_54 = gl.convert_layout(q_53, L11_short)
    q_55 = gl.convert_layout(gl.reshape(q_54, [64, 128]), L12_short)
    kv_num_blocks = gl.load(arg_KV_NUM_BLKS)
    MAX_KV_IDX = ks0 + 127
    MAX_KV_IDX_56 = MAX_KV_IDX // 128
    indices_idx = block_n_start // 2
    indices_idx_57 = indices_idx % MAX_KV_IDX_56
    off_n_block_in_sparse = block_n_start % 2
    off_n = arg_KV_IDX + indices_idx_57
    off_n_58 = gl.load(off_n)
    off_n_59 = off_n_58 * 128
    off_n_60 = off_n_block_in_sparse * 64
    off_n_61 = off_n_59 + off_n_60
    block_n_last_valid = kv_num_blocks * 2
    block_n_last_valid_62 = ks0 + 63
    block_n_last_valid_63 = block_n_last_valid_62 // 64
    block_n_last_valid_64 = gl.maximum(block_n_last_valid_63, 1)
    block_n_last_valid_65 = gl.minimum(block_n_last_valid, block_n_last_valid_64)
    offs_n = gl.arange(0, 64, layout=L13_short)
    offs_n_66 = gl.arange(0, 64, layout=L14_short)
    offs_n_68 = offs_n + off_n_61
    v2 = gl.expand_dims(offs_m_26, 1)
    v3 = gl.expand_dims(offs_n_68, 0)
    v4 = block_n_end <= block_n_last_valid_65
    v5 = gl.where(v4, block_n_end, block_n_last_valid_65)
    ptr_69 = q_range_43.broadcast_to([64, 128])
    tmp3 = ks0 - 16
    tmp3_71 = v2 + tmp3
    tmp3_72 = tmp3_71.broadcast_to([64, 64])
    twill_n = gl.maximum((v5 - block_n_start + 1 - 1) // 1, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        k_123_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        v_144_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        kv_offset_162 = 0
        cur_block_idx_l0 = (block_n_start + (0 - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
        cur_block_l0 = arg_KV_IDX + cur_block_idx_l0  # load2_cur_block: stage 0, partition 0 (group 0)
        next_block_l0 = cur_block_idx_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
        next_block_149_l0 = next_block_l0 < kv_num_blocks  # load3_next_block: stage 0, partition 0 (group 0)
        next_block_150_l0 = cur_block_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
        cur_block_148 = gl.load(cur_block_l0, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
        next_block_151 = gl.load(next_block_150_l0, mask=next_block_149_l0, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        cur_block_148_p1 = cur_block_148
        kv_offset_162_p1 = kv_offset_162
        next_block_151_p1 = next_block_151
        acc_147 = gl.full([64, 128], 0.0, gl.float32, layout=L15_short)
        l_i_136 = gl.full([64], 0.0, gl.float32, layout=L5_short)
        m_ij_129 = gl.full([64], float("-inf"), gl.float32, layout=L5_short)
        offs_n_161 = v3
        kv_base_offset_l0 = off_n_61 + kv_offset_162_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
        cur_block_idx_l0 = (block_n_start + (1 - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
        cur_block_l0 = arg_KV_IDX + cur_block_idx_l0  # load2_cur_block: stage 0, partition 0 (group 0)
        next_block_l0 = cur_block_idx_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
        next_block_149_l0 = next_block_l0 < kv_num_blocks  # load3_next_block: stage 0, partition 0 (group 0)
        next_block_150_l0 = cur_block_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
        cur_block_148 = gl.load(cur_block_l0, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
        next_block_151 = gl.load(next_block_150_l0, mask=next_block_149_l0, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
        needs_jump_l0 = (block_n_start + (1 - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        needs_jump_152_l0 = needs_jump_l0 % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        needs_jump_153 = needs_jump_152_l0 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_l0 = next_block_151_p1 - cur_block_148_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_154_l0 = jump_to_block_l0 * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_155 = jump_to_block_154_l0 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_l0 = gl.cast(needs_jump_153, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_156_l0 = jump_to_block_155 * offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_157_l0 = 1 - offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_158_l0 = offset_157_l0 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_159 = offset_156_l0 + offset_158_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        kv_offset_162 = kv_offset_162_p1 + offset_159  # elementwise7_kv_offset: stage 1, partition 0 (group 0)
        offs_n_load_l0 = kv_base_offset_l0  # load0_k: stage 1, partition 0 (group 0)
        offs_n_load_117 = offs_n_load_l0 + offs_n_66  # load0_k: stage 1, partition 0 (group 0)
        ptr_118 = gl.expand_dims(offs_n_load_117, 1)  # load0_k: stage 1, partition 0 (group 0)
        ptr_119 = ptr_118 * 128  # load0_k: stage 1, partition 0 (group 0)
        ptr_120_l0 = K + ptr_119  # load0_k: stage 1, partition 0 (group 0)
        ptr_121_l0 = ptr_120_l0.broadcast_to([64, 128])  # load0_k: stage 1, partition 0 (group 0)
        ptr_122_l0 = ptr_121_l0 + ptr_69  # load0_k: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load0_k: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_123_ring.index((twill_base + 1 - 1) % 3), ptr_122_l0)  # load0_k: stage 1, partition 0 (group 0)
        else:  # load0_k: stage 1, partition 0 (group 0)
            k_123_ring.index((twill_base + 1 - 1) % 3).store(gl.load(ptr_122_l0))  # load0_k: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_k: stage 1, partition 0 (group 0)
        ptr_141_l0 = V + ptr_119  # load1_v: stage 1, partition 0 (group 0)
        ptr_142_l0 = ptr_141_l0.broadcast_to([64, 128])  # load1_v: stage 1, partition 0 (group 0)
        ptr_143 = ptr_142_l0 + ptr_69  # load1_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load1_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_144_ring.index((twill_base + 1 - 1) % 3), ptr_143)  # load1_v: stage 1, partition 0 (group 0)
        else:  # load1_v: stage 1, partition 0 (group 0)
            v_144_ring.index((twill_base + 1 - 1) % 3).store(gl.load(ptr_143))  # load1_v: stage 1, partition 0 (group 0)
            fence_async_shared()  # load1_v: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_147_p1 = acc_147
        cur_block_148_p1 = cur_block_148
        kv_offset_162_p1 = kv_offset_162
        l_i_136_p1 = l_i_136
        m_ij_129_p1 = m_ij_129
        next_block_151_p1 = next_block_151
        offs_n_161_p1 = offs_n_161
        offset_159_p1 = offset_159
        for twill_b in range(2, twill_n):
            kv_base_offset_l0 = off_n_61 + kv_offset_162_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
            cur_block_idx_l0 = (block_n_start + (twill_b - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
            cur_block_l0 = arg_KV_IDX + cur_block_idx_l0  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block_l0 = cur_block_idx_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_149_l0 = next_block_l0 < kv_num_blocks  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_150_l0 = cur_block_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
            cur_block_148 = gl.load(cur_block_l0, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block_151 = gl.load(next_block_150_l0, mask=next_block_149_l0, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
            needs_jump_l0 = (block_n_start + (twill_b - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            needs_jump_152_l0 = needs_jump_l0 % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            needs_jump_153 = needs_jump_152_l0 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_l0 = next_block_151_p1 - cur_block_148_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_154_l0 = jump_to_block_l0 * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_155 = jump_to_block_154_l0 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_l0 = gl.cast(needs_jump_153, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_156_l0 = jump_to_block_155 * offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_157_l0 = 1 - offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_158_l0 = offset_157_l0 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_159 = offset_156_l0 + offset_158_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            kv_offset_162 = kv_offset_162_p1 + offset_159  # elementwise7_kv_offset: stage 1, partition 0 (group 0)
            offs_n_load_l0 = kv_base_offset_l0  # load0_k: stage 1, partition 0 (group 0)
            offs_n_load_117 = offs_n_load_l0 + offs_n_66  # load0_k: stage 1, partition 0 (group 0)
            ptr_118 = gl.expand_dims(offs_n_load_117, 1)  # load0_k: stage 1, partition 0 (group 0)
            ptr_119 = ptr_118 * 128  # load0_k: stage 1, partition 0 (group 0)
            ptr_120_l0 = K + ptr_119  # load0_k: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            k_123 = k_123_ring.index((twill_base + twill_b - 2) % 3)  # load0_k: stage 2, partition 0 (group 0)
            ptr_121_l0 = ptr_120_l0.broadcast_to([64, 128])  # load0_k: stage 1, partition 0 (group 0)
            ptr_122_l0 = ptr_121_l0 + ptr_69  # load0_k: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load0_k: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_123_ring.index((twill_base + twill_b - 1) % 3), ptr_122_l0)  # load0_k: stage 1, partition 0 (group 0)
            else:  # load0_k: stage 1, partition 0 (group 0)
                k_123_ring.index((twill_base + twill_b - 1) % 3).store(gl.load(ptr_122_l0))  # load0_k: stage 1, partition 0 (group 0)
                fence_async_shared()  # load0_k: stage 1, partition 0 (group 0)
            k_124 = k_123.permute((1, 0))  # load0_k: stage 2, partition 0 (group 0)
            tok_qk_l0 = warpgroup_mma(q_55, k_124, gl.full([64, 64], 0.0, gl.float32, layout=L16_short), use_acc=False, is_async=True)  # dot0_qk: stage 2, partition 0 (group 0)
            acc_147_p1, qk_l0 = warpgroup_mma_wait(0, deps=(acc_147_p1, tok_qk_l0,))
            qk_125 = qk_l0 * 0.0883883461  # elementwise1_qk: stage 2, partition 0 (group 0)
            tmp3_126 = offs_n_161_p1.broadcast_to([64, 64])  # elementwise1_qk: stage 2, partition 0 (group 0)
            tmp3_127 = tmp3_72 >= tmp3_126  # elementwise1_qk: stage 2, partition 0 (group 0)
            post_mod_scores_l0 = gl.where(tmp3_127, qk_125, float("-inf"))  # elementwise1_qk: stage 2, partition 0 (group 0)
            post_mod_scores_128 = post_mod_scores_l0 * 1.44269502  # elementwise1_qk: stage 2, partition 0 (group 0)
            offs_n_160 = offset_159_p1  # elementwise1_qk: stage 2, partition 0 (group 0)
            offs_n_161 = offs_n_161_p1 + offs_n_160  # elementwise1_qk: stage 2, partition 0 (group 0)
            m_ij_l0 = gl.max(post_mod_scores_128, axis=1)  # reduce0_m_ij: stage 2, partition 0 (group 0)
            m_ij_129 = gl.maximum(m_ij_129_p1, m_ij_l0)  # elementwise2_m_ij: stage 2, partition 0 (group 0)
            masked_out_rows_l0 = m_ij_129 == float("-inf")  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
            m_ij_masked_l0 = gl.where(masked_out_rows_l0, 0.0, m_ij_129)  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
            alpha_l0 = m_ij_129_p1 - m_ij_masked_l0  # sfu0_alpha: stage 2, partition 0 (group 0)
            alpha_130 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 2, partition 0 (group 0)
            p_l0 = gl.expand_dims(m_ij_masked_l0, 1)  # sfu1_p: stage 2, partition 0 (group 0)
            p_131_l0 = p_l0.broadcast_to([64, 64])  # sfu1_p: stage 2, partition 0 (group 0)
            p_132_l0 = post_mod_scores_128 - p_131_l0  # sfu1_p: stage 2, partition 0 (group 0)
            p_133 = gl.exp2(p_132_l0)  # sfu1_p: stage 2, partition 0 (group 0)
            acc_137_l0 = gl.expand_dims(alpha_130, 1)  # convert0_acc: stage 2, partition 0 (group 0)
            acc_138_l0 = gl.convert_layout(acc_137_l0, L15_short)  # convert0_acc: stage 2, partition 0 (group 0)
            acc_139_l0 = acc_138_l0.broadcast_to([64, 128])  # elementwise5_acc: stage 2, partition 0 (group 0)
            acc_140 = acc_147_p1 * acc_139_l0  # elementwise5_acc: stage 2, partition 0 (group 0)
            acc_145_l0 = p_133.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
            acc_146_l0 = gl.convert_layout(acc_145_l0, L17_short)  # convert1_acc: stage 2, partition 0 (group 0)
            l_i_135_l0 = gl.sum(p_133, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
            l_i_134_l0 = l_i_136_p1 * alpha_130  # elementwise4_l_i: stage 2, partition 0 (group 0)
            l_i_136 = l_i_134_l0 + l_i_135_l0  # elementwise4_l_i: stage 2, partition 0 (group 0)
            v_144 = v_144_ring.index((twill_base + twill_b - 2) % 3)  # load1_v: stage 2, partition 0 (group 0)
            ptr_141_l0 = V + ptr_119  # load1_v: stage 1, partition 0 (group 0)
            ptr_142_l0 = ptr_141_l0.broadcast_to([64, 128])  # load1_v: stage 1, partition 0 (group 0)
            ptr_143 = ptr_142_l0 + ptr_69  # load1_v: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load1_v: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(v_144_ring.index((twill_base + twill_b - 1) % 3), ptr_143)  # load1_v: stage 1, partition 0 (group 0)
            else:  # load1_v: stage 1, partition 0 (group 0)
                v_144_ring.index((twill_base + twill_b - 1) % 3).store(gl.load(ptr_143))  # load1_v: stage 1, partition 0 (group 0)
                fence_async_shared()  # load1_v: stage 1, partition 0 (group 0)
            tok_acc_147 = warpgroup_mma(acc_146_l0, v_144, acc_140, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            acc_147 = warpgroup_mma_wait(1, deps=(tok_acc_147,))
            acc_147_p1 = acc_147
            cur_block_148_p1 = cur_block_148
            kv_offset_162_p1 = kv_offset_162
            l_i_136_p1 = l_i_136
            m_ij_129_p1 = m_ij_129
            next_block_151_p1 = next_block_151
            offs_n_161_p1 = offs_n_161
            offset_159_p1 = offset_159
        kv_base_offset_l0 = off_n_61 + kv_offset_162_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
        needs_jump_l0 = (block_n_start + ((twill_n - 1 + 1) - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        needs_jump_152_l0 = needs_jump_l0 % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        needs_jump_153 = needs_jump_152_l0 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_l0 = next_block_151_p1 - cur_block_148_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_154_l0 = jump_to_block_l0 * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_155 = jump_to_block_154_l0 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_l0 = gl.cast(needs_jump_153, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_156_l0 = jump_to_block_155 * offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_157_l0 = 1 - offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_158_l0 = offset_157_l0 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_159 = offset_156_l0 + offset_158_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        kv_offset_162 = kv_offset_162_p1 + offset_159  # elementwise7_kv_offset: stage 1, partition 0 (group 0)
        offs_n_load_l0 = kv_base_offset_l0  # load0_k: stage 1, partition 0 (group 0)
        offs_n_load_117 = offs_n_load_l0 + offs_n_66  # load0_k: stage 1, partition 0 (group 0)
        ptr_118 = gl.expand_dims(offs_n_load_117, 1)  # load0_k: stage 1, partition 0 (group 0)
        ptr_119 = ptr_118 * 128  # load0_k: stage 1, partition 0 (group 0)
        ptr_120_l0 = K + ptr_119  # load0_k: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_123 = k_123_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 3)  # load0_k: stage 2, partition 0 (group 0)
        ptr_121_l0 = ptr_120_l0.broadcast_to([64, 128])  # load0_k: stage 1, partition 0 (group 0)
        ptr_122_l0 = ptr_121_l0 + ptr_69  # load0_k: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load0_k: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_123_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ptr_122_l0)  # load0_k: stage 1, partition 0 (group 0)
        else:  # load0_k: stage 1, partition 0 (group 0)
            k_123_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3).store(gl.load(ptr_122_l0))  # load0_k: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_k: stage 1, partition 0 (group 0)
        k_124 = k_123.permute((1, 0))  # load0_k: stage 2, partition 0 (group 0)
        tok_qk_l0 = warpgroup_mma(q_55, k_124, gl.full([64, 64], 0.0, gl.float32, layout=L16_short), use_acc=False, is_async=True)  # dot0_qk: stage 2, partition 0 (group 0)
        acc_147_p1, qk_l0 = warpgroup_mma_wait(0, deps=(acc_147_p1, tok_qk_l0,))
        qk_125 = qk_l0 * 0.0883883461  # elementwise1_qk: stage 2, partition 0 (group 0)
        tmp3_126 = offs_n_161_p1.broadcast_to([64, 64])  # elementwise1_qk: stage 2, partition 0 (group 0)
        tmp3_127 = tmp3_72 >= tmp3_126  # elementwise1_qk: stage 2, partition 0 (group 0)
        post_mod_scores_l0 = gl.where(tmp3_127, qk_125, float("-inf"))  # elementwise1_qk: stage 2, partition 0 (group 0)
        post_mod_scores_128 = post_mod_scores_l0 * 1.44269502  # elementwise1_qk: stage 2, partition 0 (group 0)
        offs_n_160 = offset_159_p1  # elementwise1_qk: stage 2, partition 0 (group 0)
        offs_n_161 = offs_n_161_p1 + offs_n_160  # elementwise1_qk: stage 2, partition 0 (group 0)
        m_ij_l0 = gl.max(post_mod_scores_128, axis=1)  # reduce0_m_ij: stage 2, partition 0 (group 0)
        m_ij_129 = gl.maximum(m_ij_129_p1, m_ij_l0)  # elementwise2_m_ij: stage 2, partition 0 (group 0)
        masked_out_rows_l0 = m_ij_129 == float("-inf")  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
        m_ij_masked_l0 = gl.where(masked_out_rows_l0, 0.0, m_ij_129)  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
        alpha_l0 = m_ij_129_p1 - m_ij_masked_l0  # sfu0_alpha: stage 2, partition 0 (group 0)
        alpha_130 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 2, partition 0 (group 0)
        p_l0 = gl.expand_dims(m_ij_masked_l0, 1)  # sfu1_p: stage 2, partition 0 (group 0)
        p_131_l0 = p_l0.broadcast_to([64, 64])  # sfu1_p: stage 2, partition 0 (group 0)
        p_132_l0 = post_mod_scores_128 - p_131_l0  # sfu1_p: stage 2, partition 0 (group 0)
        p_133 = gl.exp2(p_132_l0)  # sfu1_p: stage 2, partition 0 (group 0)
        acc_137_l0 = gl.expand_dims(alpha_130, 1)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_138_l0 = gl.convert_layout(acc_137_l0, L15_short)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_139_l0 = acc_138_l0.broadcast_to([64, 128])  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_140 = acc_147_p1 * acc_139_l0  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_145_l0 = p_133.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_146_l0 = gl.convert_layout(acc_145_l0, L17_short)  # convert1_acc: stage 2, partition 0 (group 0)
        l_i_135_l0 = gl.sum(p_133, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
        l_i_134_l0 = l_i_136_p1 * alpha_130  # elementwise4_l_i: stage 2, partition 0 (group 0)
        l_i_136 = l_i_134_l0 + l_i_135_l0  # elementwise4_l_i: stage 2, partition 0 (group 0)
        v_144 = v_144_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 3)  # load1_v: stage 2, partition 0 (group 0)
        ptr_141_l0 = V + ptr_119  # load1_v: stage 1, partition 0 (group 0)
        ptr_142_l0 = ptr_141_l0.broadcast_to([64, 128])  # load1_v: stage 1, partition 0 (group 0)
        ptr_143 = ptr_142_l0 + ptr_69  # load1_v: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load1_v: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_144_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ptr_143)  # load1_v: stage 1, partition 0 (group 0)
        else:  # load1_v: stage 1, partition 0 (group 0)
            v_144_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3).store(gl.load(ptr_143))  # load1_v: stage 1, partition 0 (group 0)
            fence_async_shared()  # load1_v: stage 1, partition 0 (group 0)
        tok_acc_147 = warpgroup_mma(acc_146_l0, v_144, acc_140, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_147 = warpgroup_mma_wait(1, deps=(tok_acc_147,))
        acc_147_p1 = acc_147
        cur_block_148_p1 = cur_block_148
        kv_offset_162_p2 = kv_offset_162_p1
        kv_offset_162_p1 = kv_offset_162
        l_i_136_p1 = l_i_136
        m_ij_129_p1 = m_ij_129
        next_block_151_p1 = next_block_151
        offs_n_161_p1 = offs_n_161
        offset_159_p1 = offset_159
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_123 = k_123_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 3)  # load0_k: stage 2, partition 0 (group 0)
        k_124 = k_123.permute((1, 0))  # load0_k: stage 2, partition 0 (group 0)
        tok_qk_l0 = warpgroup_mma(q_55, k_124, gl.full([64, 64], 0.0, gl.float32, layout=L16_short), use_acc=False, is_async=True)  # dot0_qk: stage 2, partition 0 (group 0)
        acc_147_p1, qk_l0 = warpgroup_mma_wait(0, deps=(acc_147_p1, tok_qk_l0,))
        qk_125 = qk_l0 * 0.0883883461  # elementwise1_qk: stage 2, partition 0 (group 0)
        tmp3_126 = offs_n_161_p1.broadcast_to([64, 64])  # elementwise1_qk: stage 2, partition 0 (group 0)
        tmp3_127 = tmp3_72 >= tmp3_126  # elementwise1_qk: stage 2, partition 0 (group 0)
        post_mod_scores_l0 = gl.where(tmp3_127, qk_125, float("-inf"))  # elementwise1_qk: stage 2, partition 0 (group 0)
        post_mod_scores_128 = post_mod_scores_l0 * 1.44269502  # elementwise1_qk: stage 2, partition 0 (group 0)
        offs_n_160 = offset_159_p1  # elementwise1_qk: stage 2, partition 0 (group 0)
        offs_n_161 = offs_n_161_p1 + offs_n_160  # elementwise1_qk: stage 2, partition 0 (group 0)
        m_ij_l0 = gl.max(post_mod_scores_128, axis=1)  # reduce0_m_ij: stage 2, partition 0 (group 0)
        m_ij_129 = gl.maximum(m_ij_129_p1, m_ij_l0)  # elementwise2_m_ij: stage 2, partition 0 (group 0)
        masked_out_rows_l0 = m_ij_129 == float("-inf")  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
        m_ij_masked_l0 = gl.where(masked_out_rows_l0, 0.0, m_ij_129)  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
        alpha_l0 = m_ij_129_p1 - m_ij_masked_l0  # sfu0_alpha: stage 2, partition 0 (group 0)
        alpha_130 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 2, partition 0 (group 0)
        p_l0 = gl.expand_dims(m_ij_masked_l0, 1)  # sfu1_p: stage 2, partition 0 (group 0)
        p_131_l0 = p_l0.broadcast_to([64, 64])  # sfu1_p: stage 2, partition 0 (group 0)
        p_132_l0 = post_mod_scores_128 - p_131_l0  # sfu1_p: stage 2, partition 0 (group 0)
        p_133 = gl.exp2(p_132_l0)  # sfu1_p: stage 2, partition 0 (group 0)
        acc_137_l0 = gl.expand_dims(alpha_130, 1)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_138_l0 = gl.convert_layout(acc_137_l0, L15_short)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_139_l0 = acc_138_l0.broadcast_to([64, 128])  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_140 = acc_147_p1 * acc_139_l0  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_145_l0 = p_133.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_146_l0 = gl.convert_layout(acc_145_l0, L17_short)  # convert1_acc: stage 2, partition 0 (group 0)
        l_i_135_l0 = gl.sum(p_133, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
        l_i_134_l0 = l_i_136_p1 * alpha_130  # elementwise4_l_i: stage 2, partition 0 (group 0)
        l_i_136 = l_i_134_l0 + l_i_135_l0  # elementwise4_l_i: stage 2, partition 0 (group 0)
        v_144 = v_144_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 3)  # load1_v: stage 2, partition 0 (group 0)
        tok_acc_147 = warpgroup_mma(acc_146_l0, v_144, acc_140, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_147 = warpgroup_mma_wait(1, deps=(tok_acc_147,))
        acc_147_p1 = acc_147
        cur_block_148_p1 = cur_block_148
        kv_offset_162_p2 = kv_offset_162_p1
        kv_offset_162_p1 = kv_offset_162
        l_i_136_p1 = l_i_136
        m_ij_129_p1 = m_ij_129
        next_block_151_p1 = next_block_151
        offs_n_161_p1 = offs_n_161
        offset_159_p1 = offset_159
        acc_147_p1 = warpgroup_mma_wait(0, deps=(acc_147_p1,))
        k_123_ring._keep_alive()
        v_144_ring._keep_alive()
    else:
        acc_116_w = gl.full([64, 128], 0.0, gl.float32, layout=L15_short)
        arg13_w = gl.full([64], 0.0, gl.float32, layout=L5_short)
        arg14_w = gl.full([64], float("-inf"), gl.float32, layout=L5_short)
        arg15_l0_w = gl.to_tensor(0)
        arg16_w = v3
        for kv_offset_115_l0_w in range(block_n_start, v5, 1):
            kv_base_offset_l0_w = off_n_61 + arg15_l0_w
            offs_n_load_117_w = kv_base_offset_l0_w + offs_n_66
            ptr_118_w = gl.expand_dims(offs_n_load_117_w, 1)
            ptr_119_w = ptr_118_w * 128
            ptr_120_l0_w = K + ptr_119_w
            ptr_121_l0_w = ptr_120_l0_w.broadcast_to([64, 128])
            ptr_122_l0_w = ptr_121_l0_w + ptr_69
            k_l0_w = gl.load(ptr_122_l0_w)
            k_123_w = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), k_l0_w)
            fence_async_shared()
            qk_l0_w = warpgroup_mma(q_55, k_123_w.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L16_short))
            qk_125_w = qk_l0_w * 0.0883883461
            tmp3_126_w = arg16_w.broadcast_to([64, 64])
            tmp3_127_w = tmp3_72 >= tmp3_126_w
            post_mod_scores_l0_w = gl.where(tmp3_127_w, qk_125_w, float("-inf"))
            post_mod_scores_128_w = post_mod_scores_l0_w * 1.44269502
            m_ij_l0_w = gl.max(post_mod_scores_128_w, axis=1)
            m_ij_129_w = gl.maximum(arg14_w, m_ij_l0_w)
            masked_out_rows_l0_w = m_ij_129_w == float("-inf")
            m_ij_masked_l0_w = gl.where(masked_out_rows_l0_w, 0.0, m_ij_129_w)
            alpha_l0_w = arg14_w - m_ij_masked_l0_w
            alpha_130_w = gl.exp2(alpha_l0_w)
            p_l0_w = gl.expand_dims(m_ij_masked_l0_w, 1)
            p_131_l0_w = p_l0_w.broadcast_to([64, 64])
            p_132_l0_w = post_mod_scores_128_w - p_131_l0_w
            p_133_w = gl.exp2(p_132_l0_w)
            l_i_134_l0_w = arg13_w * alpha_130_w
            l_i_135_l0_w = gl.sum(p_133_w, axis=1)
            l_i_136_w = l_i_134_l0_w + l_i_135_l0_w
            acc_137_l0_w = gl.expand_dims(alpha_130_w, 1)
            acc_138_l0_w = gl.convert_layout(acc_137_l0_w, L15_short)
            acc_139_l0_w = acc_138_l0_w.broadcast_to([64, 128])
            acc_140_w = acc_116_w * acc_139_l0_w
            ptr_141_l0_w = V + ptr_119_w
            ptr_142_l0_w = ptr_141_l0_w.broadcast_to([64, 128])
            ptr_143_w = ptr_142_l0_w + ptr_69
            v_l0_w = gl.load(ptr_143_w)
            v_144_w = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v_l0_w)
            fence_async_shared()
            acc_145_l0_w = p_133_w.to(gl.float16)
            acc_146_l0_w = gl.convert_layout(acc_145_l0_w, L17_short)
            acc_147_w = warpgroup_mma(acc_146_l0_w, v_144_w, acc_140_w)
            cur_block_idx_l0_w = kv_offset_115_l0_w // 2
            cur_block_l0_w = arg_KV_IDX + cur_block_idx_l0_w
            cur_block_148_w = gl.load(cur_block_l0_w, eviction_policy='evict_last')
            next_block_l0_w = cur_block_idx_l0_w + 1
            next_block_149_l0_w = next_block_l0_w < kv_num_blocks
            next_block_150_l0_w = cur_block_l0_w + 1
            next_block_151_w = gl.load(next_block_150_l0_w, mask=next_block_149_l0_w, eviction_policy='evict_last')
            needs_jump_l0_w = kv_offset_115_l0_w + 1
            needs_jump_152_l0_w = needs_jump_l0_w % 2
            needs_jump_153_w = needs_jump_152_l0_w == 0
            jump_to_block_l0_w = next_block_151_w - cur_block_148_w
            jump_to_block_154_l0_w = jump_to_block_l0_w * 128
            jump_to_block_155_w = jump_to_block_154_l0_w - 64
            offset_l0_w = gl.cast(needs_jump_153_w, gl.int32)
            offset_156_l0_w = jump_to_block_155_w * offset_l0_w
            offset_157_l0_w = 1 - offset_l0_w
            offset_158_l0_w = offset_157_l0_w * 64
            offset_159_w = offset_156_l0_w + offset_158_l0_w
            offs_n_161_w = arg16_w + offset_159_w
            kv_offset_162_w = arg15_l0_w + offset_159_w
            acc_116_w = acc_147_w
            arg13_w = l_i_136_w
            arg14_w = m_ij_129_w
            arg15_l0_w = kv_offset_162_w
            arg16_w = offs_n_161_w
        acc_147_p1 = acc_116_w
        l_i_136_p1 = arg13_w
        m_ij_129_p1 = arg14_w
        kv_offset_162_p2 = arg15_l0_w
        offs_n_161_p1 = arg16_w
    twill_base += twill_n
    kv_num_blocks_74 = gl.load(arg_FULL_KV_NUM_BLKS)
    block_n_start_75 = 15 - off_t
    block_n_start_76 = block_n_start_75 * TILE_KV_MULTIPLE
    block_n_end_77 = block_n_start_76 + TILE_KV_MULTIPLE
    indices_idx_78 = block_n_start_76 // 2
    indices_idx_79 = indices_idx_78 % MAX_KV_IDX_56
    off_n_block_in_sparse_80 = block_n_start_76 % 2
    off_n_81 = arg_FULL_KV_IDX + indices_idx_79
    off_n_82 = gl.load(off_n_81)
    off_n_83 = off_n_82 * 128
    off_n_84 = off_n_block_in_sparse_80 * 64
    off_n_85 = off_n_83 + off_n_84
    block_n_last_valid_86 = kv_num_blocks_74 * 2
    block_n_last_valid_87 = gl.minimum(block_n_last_valid_86, block_n_last_valid_64)
    v6 = block_n_end_77 <= block_n_last_valid_87
    v7 = gl.where(v6, block_n_end_77, block_n_last_valid_87)
    ptr_89 = q_range_43.broadcast_to([64, 128])
    twill_n = gl.maximum((v7 - block_n_start_76 + 1 - 1) // 1, 0)
    if (twill_n >= 3) | (gl.program_id(0) < 0):
        v_143_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        k_125_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        kv_offset_159 = 0
        cur_block_idx = (block_n_start_76 + (0 - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
        cur_block = arg_FULL_KV_IDX + cur_block_idx  # load2_cur_block: stage 0, partition 0 (group 0)
        next_block = cur_block_idx + 1  # load3_next_block: stage 0, partition 0 (group 0)
        next_block_148 = next_block < kv_num_blocks_74  # load3_next_block: stage 0, partition 0 (group 0)
        next_block_149 = cur_block + 1  # load3_next_block: stage 0, partition 0 (group 0)
        cur_block_147 = gl.load(cur_block, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
        next_block_150 = gl.load(next_block_149, mask=next_block_148, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        cur_block_147_p1 = cur_block_147
        kv_offset_159_p1 = kv_offset_159
        next_block_150_p1 = next_block_150
        m_ij_128 = m_ij_129_p1
        kv_base_offset = off_n_85 + kv_offset_159_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
        cur_block_idx = (block_n_start_76 + (1 - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
        cur_block = arg_FULL_KV_IDX + cur_block_idx  # load2_cur_block: stage 0, partition 0 (group 0)
        next_block = cur_block_idx + 1  # load3_next_block: stage 0, partition 0 (group 0)
        next_block_148 = next_block < kv_num_blocks_74  # load3_next_block: stage 0, partition 0 (group 0)
        next_block_149 = cur_block + 1  # load3_next_block: stage 0, partition 0 (group 0)
        cur_block_147 = gl.load(cur_block, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
        next_block_150 = gl.load(next_block_149, mask=next_block_148, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
        needs_jump = (block_n_start_76 + (1 - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        needs_jump_151 = needs_jump % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        needs_jump_152 = needs_jump_151 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block = next_block_150_p1 - cur_block_147_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_153 = jump_to_block * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_154 = jump_to_block_153 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset = gl.cast(needs_jump_152, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_155 = jump_to_block_154 * offset  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_156 = 1 - offset  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_157 = offset_156 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_158 = offset_155 + offset_157  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        kv_offset_159 = kv_offset_159_p1 + offset_158  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offs_n_load = kv_base_offset  # load0_k: stage 1, partition 0 (group 0)
        offs_n_load_119 = offs_n_load + offs_n_66  # load0_k: stage 1, partition 0 (group 0)
        ptr_120 = gl.expand_dims(offs_n_load_119, 1)  # load0_k: stage 1, partition 0 (group 0)
        ptr_121 = ptr_120 * 128  # load0_k: stage 1, partition 0 (group 0)
        ptr_122 = K + ptr_121  # load0_k: stage 1, partition 0 (group 0)
        ptr_123 = ptr_122.broadcast_to([64, 128])  # load0_k: stage 1, partition 0 (group 0)
        ptr_124 = ptr_123 + ptr_89  # load0_k: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load0_k: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_125_ring.index((twill_base + 1 - 1) % 3), ptr_124)  # load0_k: stage 1, partition 0 (group 0)
        else:  # load0_k: stage 1, partition 0 (group 0)
            k_125_ring.index((twill_base + 1 - 1) % 3).store(gl.load(ptr_124))  # load0_k: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_k: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        cur_block_147_p1 = cur_block_147
        kv_offset_159_p1 = kv_offset_159
        m_ij_128_p1 = m_ij_128
        next_block_150_p1 = next_block_150
        ptr_121_p1 = ptr_121
        acc_146 = acc_147_p1
        l_i_135 = l_i_136_p1
        kv_base_offset = off_n_85 + kv_offset_159_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
        ptr_140 = V + ptr_121_p1  # load1_v: stage 2, partition 0 (group 0)
        ptr_141 = ptr_140.broadcast_to([64, 128])  # load1_v: stage 2, partition 0 (group 0)
        ptr_142 = ptr_141 + ptr_89  # load1_v: stage 2, partition 0 (group 0)
        if TWILL_COPY:  # load1_v: stage 2, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_143_ring.index((twill_base + 2 - 2) % 3), ptr_142)  # load1_v: stage 2, partition 0 (group 0)
        else:  # load1_v: stage 2, partition 0 (group 0)
            v_143_ring.index((twill_base + 2 - 2) % 3).store(gl.load(ptr_142))  # load1_v: stage 2, partition 0 (group 0)
            fence_async_shared()  # load1_v: stage 2, partition 0 (group 0)
        cur_block_idx = (block_n_start_76 + (2 - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
        cur_block = arg_FULL_KV_IDX + cur_block_idx  # load2_cur_block: stage 0, partition 0 (group 0)
        next_block = cur_block_idx + 1  # load3_next_block: stage 0, partition 0 (group 0)
        next_block_148 = next_block < kv_num_blocks_74  # load3_next_block: stage 0, partition 0 (group 0)
        next_block_149 = cur_block + 1  # load3_next_block: stage 0, partition 0 (group 0)
        cur_block_147 = gl.load(cur_block, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
        next_block_150 = gl.load(next_block_149, mask=next_block_148, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
        needs_jump = (block_n_start_76 + (2 - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        needs_jump_151 = needs_jump % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        needs_jump_152 = needs_jump_151 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block = next_block_150_p1 - cur_block_147_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_153 = jump_to_block * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_154 = jump_to_block_153 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset = gl.cast(needs_jump_152, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_155 = jump_to_block_154 * offset  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_156 = 1 - offset  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_157 = offset_156 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_158 = offset_155 + offset_157  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        kv_offset_159 = kv_offset_159_p1 + offset_158  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offs_n_load = kv_base_offset  # load0_k: stage 1, partition 0 (group 0)
        offs_n_load_119 = offs_n_load + offs_n_66  # load0_k: stage 1, partition 0 (group 0)
        ptr_120 = gl.expand_dims(offs_n_load_119, 1)  # load0_k: stage 1, partition 0 (group 0)
        ptr_121 = ptr_120 * 128  # load0_k: stage 1, partition 0 (group 0)
        ptr_122 = K + ptr_121  # load0_k: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_125 = k_125_ring.index((twill_base + 2 - 2) % 3)  # load0_k: stage 2, partition 0 (group 0)
        ptr_123 = ptr_122.broadcast_to([64, 128])  # load0_k: stage 1, partition 0 (group 0)
        ptr_124 = ptr_123 + ptr_89  # load0_k: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load0_k: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_125_ring.index((twill_base + 2 - 1) % 3), ptr_124)  # load0_k: stage 1, partition 0 (group 0)
        else:  # load0_k: stage 1, partition 0 (group 0)
            k_125_ring.index((twill_base + 2 - 1) % 3).store(gl.load(ptr_124))  # load0_k: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_k: stage 1, partition 0 (group 0)
        k_126 = k_125.permute((1, 0))  # load0_k: stage 2, partition 0 (group 0)
        tok_qk = warpgroup_mma(q_55, k_126, gl.full([64, 64], 0.0, gl.float32, layout=L16_short), use_acc=False, is_async=True)  # dot0_qk: stage 2, partition 0 (group 0)
        qk = warpgroup_mma_wait(0, deps=(tok_qk,))
        qk_127 = qk * 0.0883883461  # elementwise1_qk: stage 2, partition 0 (group 0)
        post_mod_scores = qk_127 * 1.44269502  # elementwise1_qk: stage 2, partition 0 (group 0)
        m_ij = gl.max(post_mod_scores, axis=1)  # reduce0_m_ij: stage 2, partition 0 (group 0)
        m_ij_128 = gl.maximum(m_ij_128_p1, m_ij)  # elementwise2_m_ij: stage 2, partition 0 (group 0)
        masked_out_rows = m_ij_128 == float("-inf")  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
        m_ij_masked = gl.where(masked_out_rows, 0.0, m_ij_128)  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
        alpha = m_ij_128_p1 - m_ij_masked  # sfu0_alpha: stage 2, partition 0 (group 0)
        alpha_129 = gl.exp2(alpha)  # sfu0_alpha: stage 2, partition 0 (group 0)
        acc_136 = gl.expand_dims(alpha_129, 1)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_137 = gl.convert_layout(acc_136, L15_short)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_138 = acc_137.broadcast_to([64, 128])  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_139 = acc_146 * acc_138  # elementwise5_acc: stage 2, partition 0 (group 0)
        p = gl.expand_dims(m_ij_masked, 1)  # sfu1_p: stage 2, partition 0 (group 0)
        p_130 = p.broadcast_to([64, 64])  # sfu1_p: stage 2, partition 0 (group 0)
        p_131 = post_mod_scores - p_130  # sfu1_p: stage 2, partition 0 (group 0)
        p_132 = gl.exp2(p_131)  # sfu1_p: stage 2, partition 0 (group 0)
        acc_144 = p_132.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_145 = gl.convert_layout(acc_144, L17_short)  # convert1_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_139_p1 = acc_139
        acc_145_p1 = acc_145
        alpha_129_p1 = alpha_129
        cur_block_147_p1 = cur_block_147
        kv_offset_159_p1 = kv_offset_159
        l_i_135_p1 = l_i_135
        m_ij_128_p1 = m_ij_128
        next_block_150_p1 = next_block_150
        p_132_p1 = p_132
        ptr_121_p1 = ptr_121
        for twill_b in range(3, twill_n):
            kv_base_offset = off_n_85 + kv_offset_159_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            v_143 = v_143_ring.index((twill_base + twill_b - 3) % 3)  # load1_v: stage 3, partition 0 (group 0)
            ptr_140 = V + ptr_121_p1  # load1_v: stage 2, partition 0 (group 0)
            ptr_141 = ptr_140.broadcast_to([64, 128])  # load1_v: stage 2, partition 0 (group 0)
            ptr_142 = ptr_141 + ptr_89  # load1_v: stage 2, partition 0 (group 0)
            if TWILL_COPY:  # load1_v: stage 2, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(v_143_ring.index((twill_base + twill_b - 2) % 3), ptr_142)  # load1_v: stage 2, partition 0 (group 0)
            else:  # load1_v: stage 2, partition 0 (group 0)
                v_143_ring.index((twill_base + twill_b - 2) % 3).store(gl.load(ptr_142))  # load1_v: stage 2, partition 0 (group 0)
                fence_async_shared()  # load1_v: stage 2, partition 0 (group 0)
            tok_acc_146 = warpgroup_mma(acc_145_p1, v_143, acc_139_p1, is_async=True)  # dot1_acc: stage 3, partition 0 (group 0)
            l_i_134 = gl.sum(p_132_p1, axis=1)  # reduce1_l_i: stage 3, partition 0 (group 0)
            l_i_133 = l_i_135_p1 * alpha_129_p1  # elementwise4_l_i: stage 3, partition 0 (group 0)
            l_i_135 = l_i_133 + l_i_134  # elementwise4_l_i: stage 3, partition 0 (group 0)
            cur_block_idx = (block_n_start_76 + (twill_b - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
            cur_block = arg_FULL_KV_IDX + cur_block_idx  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block = cur_block_idx + 1  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_148 = next_block < kv_num_blocks_74  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_149 = cur_block + 1  # load3_next_block: stage 0, partition 0 (group 0)
            cur_block_147 = gl.load(cur_block, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block_150 = gl.load(next_block_149, mask=next_block_148, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
            needs_jump = (block_n_start_76 + (twill_b - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            needs_jump_151 = needs_jump % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            needs_jump_152 = needs_jump_151 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block = next_block_150_p1 - cur_block_147_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_153 = jump_to_block * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_154 = jump_to_block_153 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset = gl.cast(needs_jump_152, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_155 = jump_to_block_154 * offset  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_156 = 1 - offset  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_157 = offset_156 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_158 = offset_155 + offset_157  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            kv_offset_159 = kv_offset_159_p1 + offset_158  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offs_n_load = kv_base_offset  # load0_k: stage 1, partition 0 (group 0)
            offs_n_load_119 = offs_n_load + offs_n_66  # load0_k: stage 1, partition 0 (group 0)
            ptr_120 = gl.expand_dims(offs_n_load_119, 1)  # load0_k: stage 1, partition 0 (group 0)
            ptr_121 = ptr_120 * 128  # load0_k: stage 1, partition 0 (group 0)
            ptr_122 = K + ptr_121  # load0_k: stage 1, partition 0 (group 0)
            k_125 = k_125_ring.index((twill_base + twill_b - 2) % 3)  # load0_k: stage 2, partition 0 (group 0)
            ptr_123 = ptr_122.broadcast_to([64, 128])  # load0_k: stage 1, partition 0 (group 0)
            ptr_124 = ptr_123 + ptr_89  # load0_k: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load0_k: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_125_ring.index((twill_base + twill_b - 1) % 3), ptr_124)  # load0_k: stage 1, partition 0 (group 0)
            else:  # load0_k: stage 1, partition 0 (group 0)
                k_125_ring.index((twill_base + twill_b - 1) % 3).store(gl.load(ptr_124))  # load0_k: stage 1, partition 0 (group 0)
                fence_async_shared()  # load0_k: stage 1, partition 0 (group 0)
            k_126 = k_125.permute((1, 0))  # load0_k: stage 2, partition 0 (group 0)
            tok_qk = warpgroup_mma(q_55, k_126, gl.full([64, 64], 0.0, gl.float32, layout=L16_short), use_acc=False, is_async=True)  # dot0_qk: stage 2, partition 0 (group 0)
            acc_146, qk = warpgroup_mma_wait(0, deps=(tok_acc_146, tok_qk,))
            qk_127 = qk * 0.0883883461  # elementwise1_qk: stage 2, partition 0 (group 0)
            post_mod_scores = qk_127 * 1.44269502  # elementwise1_qk: stage 2, partition 0 (group 0)
            m_ij = gl.max(post_mod_scores, axis=1)  # reduce0_m_ij: stage 2, partition 0 (group 0)
            m_ij_128 = gl.maximum(m_ij_128_p1, m_ij)  # elementwise2_m_ij: stage 2, partition 0 (group 0)
            masked_out_rows = m_ij_128 == float("-inf")  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
            m_ij_masked = gl.where(masked_out_rows, 0.0, m_ij_128)  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
            alpha = m_ij_128_p1 - m_ij_masked  # sfu0_alpha: stage 2, partition 0 (group 0)
            alpha_129 = gl.exp2(alpha)  # sfu0_alpha: stage 2, partition 0 (group 0)
            acc_136 = gl.expand_dims(alpha_129, 1)  # convert0_acc: stage 2, partition 0 (group 0)
            acc_137 = gl.convert_layout(acc_136, L15_short)  # convert0_acc: stage 2, partition 0 (group 0)
            acc_138 = acc_137.broadcast_to([64, 128])  # elementwise5_acc: stage 2, partition 0 (group 0)
            acc_139 = acc_146 * acc_138  # elementwise5_acc: stage 2, partition 0 (group 0)
            p = gl.expand_dims(m_ij_masked, 1)  # sfu1_p: stage 2, partition 0 (group 0)
            p_130 = p.broadcast_to([64, 64])  # sfu1_p: stage 2, partition 0 (group 0)
            p_131 = post_mod_scores - p_130  # sfu1_p: stage 2, partition 0 (group 0)
            p_132 = gl.exp2(p_131)  # sfu1_p: stage 2, partition 0 (group 0)
            acc_144 = p_132.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
            acc_145 = gl.convert_layout(acc_144, L17_short)  # convert1_acc: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            acc_139_p1 = acc_139
            acc_145_p1 = acc_145
            alpha_129_p1 = alpha_129
            cur_block_147_p1 = cur_block_147
            kv_offset_159_p1 = kv_offset_159
            l_i_135_p1 = l_i_135
            m_ij_128_p1 = m_ij_128
            next_block_150_p1 = next_block_150
            p_132_p1 = p_132
            ptr_121_p1 = ptr_121
        kv_base_offset = off_n_85 + kv_offset_159_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        v_143 = v_143_ring.index((twill_base + (twill_n - 1 + 1) - 3) % 3)  # load1_v: stage 3, partition 0 (group 0)
        ptr_140 = V + ptr_121_p1  # load1_v: stage 2, partition 0 (group 0)
        ptr_141 = ptr_140.broadcast_to([64, 128])  # load1_v: stage 2, partition 0 (group 0)
        ptr_142 = ptr_141 + ptr_89  # load1_v: stage 2, partition 0 (group 0)
        if TWILL_COPY:  # load1_v: stage 2, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_143_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 3), ptr_142)  # load1_v: stage 2, partition 0 (group 0)
        else:  # load1_v: stage 2, partition 0 (group 0)
            v_143_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 3).store(gl.load(ptr_142))  # load1_v: stage 2, partition 0 (group 0)
            fence_async_shared()  # load1_v: stage 2, partition 0 (group 0)
        tok_acc_146 = warpgroup_mma(acc_145_p1, v_143, acc_139_p1, is_async=True)  # dot1_acc: stage 3, partition 0 (group 0)
        l_i_134 = gl.sum(p_132_p1, axis=1)  # reduce1_l_i: stage 3, partition 0 (group 0)
        l_i_133 = l_i_135_p1 * alpha_129_p1  # elementwise4_l_i: stage 3, partition 0 (group 0)
        l_i_135 = l_i_133 + l_i_134  # elementwise4_l_i: stage 3, partition 0 (group 0)
        needs_jump = (block_n_start_76 + ((twill_n - 1 + 1) - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        needs_jump_151 = needs_jump % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        needs_jump_152 = needs_jump_151 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block = next_block_150_p1 - cur_block_147_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_153 = jump_to_block * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        jump_to_block_154 = jump_to_block_153 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset = gl.cast(needs_jump_152, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_155 = jump_to_block_154 * offset  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_156 = 1 - offset  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_157 = offset_156 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offset_158 = offset_155 + offset_157  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        kv_offset_159 = kv_offset_159_p1 + offset_158  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
        offs_n_load = kv_base_offset  # load0_k: stage 1, partition 0 (group 0)
        offs_n_load_119 = offs_n_load + offs_n_66  # load0_k: stage 1, partition 0 (group 0)
        ptr_120 = gl.expand_dims(offs_n_load_119, 1)  # load0_k: stage 1, partition 0 (group 0)
        ptr_121 = ptr_120 * 128  # load0_k: stage 1, partition 0 (group 0)
        ptr_122 = K + ptr_121  # load0_k: stage 1, partition 0 (group 0)
        k_125 = k_125_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 3)  # load0_k: stage 2, partition 0 (group 0)
        ptr_123 = ptr_122.broadcast_to([64, 128])  # load0_k: stage 1, partition 0 (group 0)
        ptr_124 = ptr_123 + ptr_89  # load0_k: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load0_k: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_125_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ptr_124)  # load0_k: stage 1, partition 0 (group 0)
        else:  # load0_k: stage 1, partition 0 (group 0)
            k_125_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3).store(gl.load(ptr_124))  # load0_k: stage 1, partition 0 (group 0)
            fence_async_shared()  # load0_k: stage 1, partition 0 (group 0)
        k_126 = k_125.permute((1, 0))  # load0_k: stage 2, partition 0 (group 0)
        tok_qk = warpgroup_mma(q_55, k_126, gl.full([64, 64], 0.0, gl.float32, layout=L16_short), use_acc=False, is_async=True)  # dot0_qk: stage 2, partition 0 (group 0)
        acc_146, qk = warpgroup_mma_wait(0, deps=(tok_acc_146, tok_qk,))
        qk_127 = qk * 0.0883883461  # elementwise1_qk: stage 2, partition 0 (group 0)
        post_mod_scores = qk_127 * 1.44269502  # elementwise1_qk: stage 2, partition 0 (group 0)
        m_ij = gl.max(post_mod_scores, axis=1)  # reduce0_m_ij: stage 2, partition 0 (group 0)
        m_ij_128 = gl.maximum(m_ij_128_p1, m_ij)  # elementwise2_m_ij: stage 2, partition 0 (group 0)
        masked_out_rows = m_ij_128 == float("-inf")  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
        m_ij_masked = gl.where(masked_out_rows, 0.0, m_ij_128)  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
        alpha = m_ij_128_p1 - m_ij_masked  # sfu0_alpha: stage 2, partition 0 (group 0)
        alpha_129 = gl.exp2(alpha)  # sfu0_alpha: stage 2, partition 0 (group 0)
        acc_136 = gl.expand_dims(alpha_129, 1)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_137 = gl.convert_layout(acc_136, L15_short)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_138 = acc_137.broadcast_to([64, 128])  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_139 = acc_146 * acc_138  # elementwise5_acc: stage 2, partition 0 (group 0)
        p = gl.expand_dims(m_ij_masked, 1)  # sfu1_p: stage 2, partition 0 (group 0)
        p_130 = p.broadcast_to([64, 64])  # sfu1_p: stage 2, partition 0 (group 0)
        p_131 = post_mod_scores - p_130  # sfu1_p: stage 2, partition 0 (group 0)
        p_132 = gl.exp2(p_131)  # sfu1_p: stage 2, partition 0 (group 0)
        acc_144 = p_132.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_145 = gl.convert_layout(acc_144, L17_short)  # convert1_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_139_p1 = acc_139
        acc_145_p1 = acc_145
        acc_146_p1 = acc_146
        alpha_129_p1 = alpha_129
        cur_block_147_p1 = cur_block_147
        kv_offset_159_p2 = kv_offset_159_p1
        kv_offset_159_p1 = kv_offset_159
        l_i_135_p1 = l_i_135
        m_ij_128_p2 = m_ij_128_p1
        m_ij_128_p1 = m_ij_128
        next_block_150_p1 = next_block_150
        p_132_p1 = p_132
        ptr_121_p1 = ptr_121
        async_copy.wait_group(0)
        gl.thread_barrier()
        v_143 = v_143_ring.index((twill_base + (twill_n - 1 + 2) - 3) % 3)  # load1_v: stage 3, partition 0 (group 0)
        ptr_140 = V + ptr_121_p1  # load1_v: stage 2, partition 0 (group 0)
        ptr_141 = ptr_140.broadcast_to([64, 128])  # load1_v: stage 2, partition 0 (group 0)
        ptr_142 = ptr_141 + ptr_89  # load1_v: stage 2, partition 0 (group 0)
        if TWILL_COPY:  # load1_v: stage 2, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_143_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 3), ptr_142)  # load1_v: stage 2, partition 0 (group 0)
        else:  # load1_v: stage 2, partition 0 (group 0)
            v_143_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 3).store(gl.load(ptr_142))  # load1_v: stage 2, partition 0 (group 0)
            fence_async_shared()  # load1_v: stage 2, partition 0 (group 0)
        tok_acc_146 = warpgroup_mma(acc_145_p1, v_143, acc_139_p1, is_async=True)  # dot1_acc: stage 3, partition 0 (group 0)
        l_i_134 = gl.sum(p_132_p1, axis=1)  # reduce1_l_i: stage 3, partition 0 (group 0)
        l_i_133 = l_i_135_p1 * alpha_129_p1  # elementwise4_l_i: stage 3, partition 0 (group 0)
        l_i_135 = l_i_133 + l_i_134  # elementwise4_l_i: stage 3, partition 0 (group 0)
        k_125 = k_125_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 3)  # load0_k: stage 2, partition 0 (group 0)
        k_126 = k_125.permute((1, 0))  # load0_k: stage 2, partition 0 (group 0)
        tok_qk = warpgroup_mma(q_55, k_126, gl.full([64, 64], 0.0, gl.float32, layout=L16_short), use_acc=False, is_async=True)  # dot0_qk: stage 2, partition 0 (group 0)
        acc_146, qk = warpgroup_mma_wait(0, deps=(tok_acc_146, tok_qk,))
        qk_127 = qk * 0.0883883461  # elementwise1_qk: stage 2, partition 0 (group 0)
        post_mod_scores = qk_127 * 1.44269502  # elementwise1_qk: stage 2, partition 0 (group 0)
        m_ij = gl.max(post_mod_scores, axis=1)  # reduce0_m_ij: stage 2, partition 0 (group 0)
        m_ij_128 = gl.maximum(m_ij_128_p1, m_ij)  # elementwise2_m_ij: stage 2, partition 0 (group 0)
        masked_out_rows = m_ij_128 == float("-inf")  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
        m_ij_masked = gl.where(masked_out_rows, 0.0, m_ij_128)  # elementwise3_masked_out_rows: stage 2, partition 0 (group 0)
        alpha = m_ij_128_p1 - m_ij_masked  # sfu0_alpha: stage 2, partition 0 (group 0)
        alpha_129 = gl.exp2(alpha)  # sfu0_alpha: stage 2, partition 0 (group 0)
        acc_136 = gl.expand_dims(alpha_129, 1)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_137 = gl.convert_layout(acc_136, L15_short)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_138 = acc_137.broadcast_to([64, 128])  # elementwise5_acc: stage 2, partition 0 (group 0)
        acc_139 = acc_146 * acc_138  # elementwise5_acc: stage 2, partition 0 (group 0)
        p = gl.expand_dims(m_ij_masked, 1)  # sfu1_p: stage 2, partition 0 (group 0)
        p_130 = p.broadcast_to([64, 64])  # sfu1_p: stage 2, partition 0 (group 0)
        p_131 = post_mod_scores - p_130  # sfu1_p: stage 2, partition 0 (group 0)
        p_132 = gl.exp2(p_131)  # sfu1_p: stage 2, partition 0 (group 0)
        acc_144 = p_132.to(gl.float16)  # convert1_acc: stage 2, partition 0 (group 0)
        acc_145 = gl.convert_layout(acc_144, L17_short)  # convert1_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_139_p1 = acc_139
        acc_145_p1 = acc_145
        acc_146_p1 = acc_146
        alpha_129_p1 = alpha_129
        cur_block_147_p1 = cur_block_147
        kv_offset_159_p3 = kv_offset_159_p2
        kv_offset_159_p2 = kv_offset_159_p1
        kv_offset_159_p1 = kv_offset_159
        l_i_135_p1 = l_i_135
        m_ij_128_p2 = m_ij_128_p1
        m_ij_128_p1 = m_ij_128
        next_block_150_p1 = next_block_150
        p_132_p1 = p_132
        ptr_121_p1 = ptr_121
        async_copy.wait_group(0)
        gl.thread_barrier()
        v_143 = v_143_ring.index((twill_base + (twill_n - 1 + 3) - 3) % 3)  # load1_v: stage 3, partition 0 (group 0)
        tok_acc_146 = warpgroup_mma(acc_145_p1, v_143, acc_139_p1, is_async=True)  # dot1_acc: stage 3, partition 0 (group 0)
        l_i_134 = gl.sum(p_132_p1, axis=1)  # reduce1_l_i: stage 3, partition 0 (group 0)
        l_i_133 = l_i_135_p1 * alpha_129_p1  # elementwise4_l_i: stage 3, partition 0 (group 0)
        l_i_135 = l_i_133 + l_i_134  # elementwise4_l_i: stage 3, partition 0 (group 0)
        async_copy.commit_group()
        acc_146 = warpgroup_mma_wait(0, deps=(tok_acc_146,))
        acc_139_p1 = acc_139
        acc_145_p1 = acc_145
        acc_146_p1 = acc_146
        alpha_129_p1 = alpha_129
        cur_block_147_p1 = cur_block_147
        kv_offset_159_p3 = kv_offset_159_p2
        kv_offset_159_p2 = kv_offset_159_p1
        kv_offset_159_p1 = kv_offset_159
        l_i_135_p1 = l_i_135
        m_ij_128_p2 = m_ij_128_p1
        m_ij_128_p1 = m_ij_128
        next_block_150_p1 = next_block_150
        p_132_p1 = p_132
        ptr_121_p1 = ptr_121
        k_125_ring._keep_alive()
        v_143_ring._keep_alive()
    else:
        kv_offset_116_w = acc_147_p1
        kv_offset_117_w = l_i_136_p1
        kv_offset_118_w = m_ij_129_p1
        arg15_w = gl.to_tensor(0)
        for kv_offset_115_w in range(block_n_start_76, v7, 1):
            kv_base_offset_w = off_n_85 + arg15_w
            offs_n_load_119_w = kv_base_offset_w + offs_n_66
            ptr_120_w = gl.expand_dims(offs_n_load_119_w, 1)
            ptr_121_w = ptr_120_w * 128
            ptr_122_w = K + ptr_121_w
            ptr_123_w = ptr_122_w.broadcast_to([64, 128])
            ptr_124_w = ptr_123_w + ptr_89
            k_w = gl.load(ptr_124_w)
            k_125_w = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), k_w)
            fence_async_shared()
            qk_w = warpgroup_mma(q_55, k_125_w.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L16_short))
            qk_127_w = qk_w * 0.0883883461
            post_mod_scores_w = qk_127_w * 1.44269502
            m_ij_w = gl.max(post_mod_scores_w, axis=1)
            m_ij_128_w = gl.maximum(kv_offset_118_w, m_ij_w)
            masked_out_rows_w = m_ij_128_w == float("-inf")
            m_ij_masked_w = gl.where(masked_out_rows_w, 0.0, m_ij_128_w)
            alpha_w = kv_offset_118_w - m_ij_masked_w
            alpha_129_w = gl.exp2(alpha_w)
            p_w = gl.expand_dims(m_ij_masked_w, 1)
            p_130_w = p_w.broadcast_to([64, 64])
            p_131_w = post_mod_scores_w - p_130_w
            p_132_w = gl.exp2(p_131_w)
            l_i_133_w = kv_offset_117_w * alpha_129_w
            l_i_134_w = gl.sum(p_132_w, axis=1)
            l_i_135_w = l_i_133_w + l_i_134_w
            acc_136_w = gl.expand_dims(alpha_129_w, 1)
            acc_137_w = gl.convert_layout(acc_136_w, L15_short)
            acc_138_w = acc_137_w.broadcast_to([64, 128])
            acc_139_w = kv_offset_116_w * acc_138_w
            ptr_140_w = V + ptr_121_w
            ptr_141_w = ptr_140_w.broadcast_to([64, 128])
            ptr_142_w = ptr_141_w + ptr_89
            v_w = gl.load(ptr_142_w)
            v_143_w = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), v_w)
            fence_async_shared()
            acc_144_w = p_132_w.to(gl.float16)
            acc_145_w = gl.convert_layout(acc_144_w, L17_short)
            acc_146_w = warpgroup_mma(acc_145_w, v_143_w, acc_139_w)
            cur_block_idx_w = kv_offset_115_w // 2
            cur_block_w = arg_FULL_KV_IDX + cur_block_idx_w
            cur_block_147_w = gl.load(cur_block_w, eviction_policy='evict_last')
            next_block_w = cur_block_idx_w + 1
            next_block_148_w = next_block_w < kv_num_blocks_74
            next_block_149_w = cur_block_w + 1
            next_block_150_w = gl.load(next_block_149_w, mask=next_block_148_w, eviction_policy='evict_last')
            needs_jump_w = kv_offset_115_w + 1
            needs_jump_151_w = needs_jump_w % 2
            needs_jump_152_w = needs_jump_151_w == 0
            jump_to_block_w = next_block_150_w - cur_block_147_w
            jump_to_block_153_w = jump_to_block_w * 128
            jump_to_block_154_w = jump_to_block_153_w - 64
            offset_w = gl.cast(needs_jump_152_w, gl.int32)
            offset_155_w = jump_to_block_154_w * offset_w
            offset_156_w = 1 - offset_w
            offset_157_w = offset_156_w * 64
            offset_158_w = offset_155_w + offset_157_w
            kv_offset_159_w = arg15_w + offset_158_w
            kv_offset_116_w = acc_146_w
            kv_offset_117_w = l_i_135_w
            kv_offset_118_w = m_ij_128_w
            arg15_w = kv_offset_159_w
        acc_146_p1 = kv_offset_116_w
        l_i_135_p1 = kv_offset_117_w
        m_ij_128_p2 = kv_offset_118_w
        kv_offset_159_p3 = arg15_w
    m_offset = off_t * 512
    m_offset_92 = off_z_15 * 8192
    m_offset_93 = m_offset + m_offset_92
    M_block_ptr = arg_M + m_offset_93
    M_block_ptr_94 = off_hkv * 4
    M_block_ptr_95 = gl.cast(M_block_ptr_94, gl.int64)
    L_block_ptr = arg_L + m_offset_93
    m_i = gl.convert_layout(gl.reshape(m_ij_128_p2, [4, 16]), L18_short)
    l_i = gl.convert_layout(gl.reshape(l_i_135_p1, [4, 16]), L18_short)
    v10 = off_g.to(gl.int64)
    v11 = M_block_ptr_95 + v10
    v12 = gl.expand_dims(v11, 1)
    v13 = v12 * 16
    v14 = v13.broadcast_to([4, 16])
    v15 = off_m.to(gl.int64)
    v16 = gl.expand_dims(v15, 0)
    v17 = v16.broadcast_to([4, 16])
    v18 = v14 + v17
    v19 = M_block_ptr + v18
    v20 = gl.convert_layout(m_i, L19_short)
    gl.store(v19, v20)
    v22 = L_block_ptr + v18
    v23 = gl.convert_layout(l_i, L19_short)
    gl.store(v22, v23)
    idx_hq_96 = M_block_ptr_94 + q_range_31
    mask_97 = q_range_34 < 16
    mask_98 = q_range_47 < 128
    mask_99 = mask_97.broadcast_to([1, 16, 128])
    mask_100 = mask_98.broadcast_to([1, 16, 128])
    mask_101 = mask_99 & mask_100
    acc_102 = gl.convert_layout(gl.reshape(acc_146_p1, [4, 16, 128]), L11_short)
    xindex = q_range_47.broadcast_to([1, 16, 128])
    xindex_103 = q_range_36.broadcast_to([1, 16, 128])
    xindex_104 = xindex + xindex_103
    xindex_105 = idx_hq_96 * 2048
    xindex_106 = xindex_104.broadcast_to([4, 16, 128])
    xindex_107 = xindex_105.broadcast_to([4, 16, 128])
    xindex_108 = xindex_106 + xindex_107
    xindex_109 = off_t * 65536
    xindex_111 = xindex_108 + xindex_109
    xindex_112 = off_z_15 * 1048576
    xindex_114 = xindex_111 + xindex_112
    v25 = out_ptr0 + xindex_114
    v26 = mask_101.broadcast_to([4, 16, 128])
    v27 = gl.convert_layout(acc_102, L20_short)
    gl.store(v25, v27, mask=v26)

@gluon.jit
def twill_kernel_short(arg_Q, arg_K, arg_V, arg_M, arg_L, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, TWILL_COPY: gl.constexpr):
    consumer_0_short(arg_Q, arg_K, arg_V, arg_M, arg_L, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['arg_Q', 'arg_K', 'arg_V', 'arg_M', 'arg_L', 'arg_KV_NUM_BLKS', 'arg_KV_IDX', 'arg_FULL_KV_NUM_BLKS', 'arg_FULL_KV_IDX', 'out_ptr0', 'ks0']          # the Triton kernel's parameters, in order
RUNTIME = ['arg_Q', 'arg_K', 'arg_V', 'arg_M', 'arg_L', 'arg_KV_NUM_BLKS', 'arg_KV_IDX', 'arg_FULL_KV_NUM_BLKS', 'arg_FULL_KV_IDX', 'out_ptr0', 'ks0', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['arg_Q', 'arg_K', 'arg_V', 'arg_M', 'arg_L', 'arg_KV_NUM_BLKS', 'arg_KV_IDX', 'arg_FULL_KV_NUM_BLKS', 'arg_FULL_KV_IDX', 'out_ptr0', 'ks0', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['arg_K', 'arg_V']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
ARGUMENTS_short = ['arg_Q', 'arg_K', 'arg_V', 'arg_M', 'arg_L', 'arg_KV_NUM_BLKS', 'arg_KV_IDX', 'arg_FULL_KV_NUM_BLKS', 'arg_FULL_KV_IDX', 'out_ptr0', 'ks0']          # the Triton kernel's parameters, in order
RUNTIME_short = ['arg_Q', 'arg_K', 'arg_V', 'arg_M', 'arg_L', 'arg_KV_NUM_BLKS', 'arg_KV_IDX', 'arg_FULL_KV_NUM_BLKS', 'arg_FULL_KV_IDX', 'out_ptr0', 'ks0']   # the Gluon kernel's parameters, in order
FLAGS_short = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['arg_Q', 'arg_K', 'arg_V', 'arg_M', 'arg_L', 'arg_KV_NUM_BLKS', 'arg_KV_IDX', 'arg_FULL_KV_NUM_BLKS', 'arg_FULL_KV_IDX', 'out_ptr0', 'ks0']   # the arguments a launch key reads
CONSTEXPRS_short = {}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED_short = ['arg_K', 'arg_V']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
