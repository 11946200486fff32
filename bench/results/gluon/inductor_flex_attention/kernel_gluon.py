"""triton_tem_fused_0, written by twill from its joint schedule: I=228 L=301 (optimal), 2488 cycles per iteration predicted.

Decisions (each from the schedule):
- k copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%next_block_111), which the analysis does not follow
- v copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%next_block_111), which the analysis does not follow
- pointer-loaded tiles copied by a 8-warp producer with cp.async (k, v): their addresses and masks spread over 256 threads, 3-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- the consumers' pointer loads in their readers' stage, not a stage ahead: the loop's trip count varies between programs, and a third stage would need two iterations of every program (run 101)
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 154): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring k: 3 buffers of [64, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring v: 3 buffers of [64, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 131184 bytes planned of 232448; maxnreg 128
- loop at inductor_flex_attention.py:134 (in a helper called at line 229) (TTGIR line 118) (before the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=254, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]), k_width=2))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(arg_Q, arg_K, arg_V, arg_LSE, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, twill_g0, twill_g1, twill_g2, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        v0 = ks0 * 2048
        v1 = ks0 * 128
        q_start = twill_pid0
        off_zq = twill_pid1
        off_hq = twill_pid2
        off_zkv = off_zq % 4
        stride_kv_idx_m = ks0 + 127
        stride_kv_idx_m_7 = stride_kv_idx_m // 128
        sparse_kv_idx_offset = q_start * stride_kv_idx_m_7
        q_offset = off_zq * v0
        q_offset_8 = off_hq * v1
        q_offset_9 = q_offset + q_offset_8
        k_offset = off_zkv * v0
        k_offset_10 = k_offset + q_offset_8
        Q = arg_Q + q_offset_9
        K = arg_K + k_offset_10
        V = arg_V + k_offset_10
        offs_m = q_start * 128
        offs_m_11 = gl.arange(0, 128, layout=L0)
        offs_m_12 = gl.arange(0, 128, layout=L1)
        offs_m_13 = gl.arange(0, 128, layout=L2)
        offs_m_17 = offs_m + offs_m_11
        offs_m_18 = offs_m + offs_m_12
        offs_m_19 = offs_m + offs_m_13
        ptr = gl.expand_dims(offs_m_17, 1)
        ptr_20 = gl.expand_dims(offs_m_18, 1)
        ptr_21 = ptr * 128
        ptr_23 = Q + ptr_21
        ptr_24 = gl.arange(0, 128, layout=L3)
        ptr_25 = gl.expand_dims(ptr_24, 0)
        ptr_26 = ptr_23.broadcast_to([128, 128])
        ptr_27 = ptr_25.broadcast_to([128, 128])
        ptr_28 = ptr_26 + ptr_27
        q = gl.load(ptr_28)
        q_29 = gl.allocate_shared_memory(gl.float16, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q)
        fence_async_shared()
        kv_indices = arg_KV_IDX + sparse_kv_idx_offset
        kv_start = gl.load(kv_indices)
        kv_start_30 = kv_start * 128
        kv_num_blocks = arg_KV_NUM_BLKS + q_start
        kv_num_blocks_31 = gl.load(kv_num_blocks)
        block_n_end = kv_num_blocks_31 * 2
        block_n_end_32 = ks0 + 63
        block_n_end_33 = block_n_end_32 // 64
        block_n_end_34 = gl.maximum(block_n_end_33, 1)
        block_n_end_35 = gl.minimum(block_n_end, block_n_end_34)
        offs_n = gl.arange(0, 64, layout=L4)
        offs_n_36 = gl.arange(0, 64, layout=L0)
        offs_n_38 = kv_start_30 + offs_n
        v2 = gl.expand_dims(offs_n_38, 0)
        ptr_40 = ptr_25.broadcast_to([64, 128])
        tmp3 = ptr_20.broadcast_to([128, 64])
        twill_n = (block_n_end_35 - 0 + 1 - 1) // 1
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            acc_108 = gl.full([128, 128], 0.0, gl.float32, layout=L5)
            l_i_97 = gl.full([128], 0.0, gl.float32, layout=L1)
            m_ij_90 = gl.full([128], float("-inf"), gl.float32, layout=L1)
            kv_offset_123 = 0
            offs_n_122 = v2
            cur_block_idx_l0 = (0 + (0 - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
            cur_block_l0 = kv_indices + cur_block_idx_l0  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block_l0 = cur_block_idx_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_110_l0 = next_block_l0 < kv_num_blocks_31  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_111_l0 = cur_block_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
            cur_block_109 = gl.load(cur_block_l0, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block_112 = gl.load(next_block_111_l0, mask=next_block_110_l0, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
            acc_108_p1 = acc_108
            cur_block_109_p1 = cur_block_109
            kv_offset_123_p1 = kv_offset_123
            l_i_97_p1 = l_i_97
            m_ij_90_p1 = m_ij_90
            next_block_112_p1 = next_block_112
            offs_n_122_p1 = offs_n_122
            for twill_b in range(1, twill_n):
                kv_base_offset_l0 = kv_start_30 + kv_offset_123_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
                cur_block_idx_l0 = (0 + (twill_b - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
                cur_block_l0 = kv_indices + cur_block_idx_l0  # load2_cur_block: stage 0, partition 0 (group 0)
                next_block_l0 = cur_block_idx_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
                next_block_110_l0 = next_block_l0 < kv_num_blocks_31  # load3_next_block: stage 0, partition 0 (group 0)
                next_block_111_l0 = cur_block_l0 + 1  # load3_next_block: stage 0, partition 0 (group 0)
                cur_block_109 = gl.load(cur_block_l0, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
                next_block_112 = gl.load(next_block_111_l0, mask=next_block_110_l0, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
                needs_jump_l0 = (0 + (twill_b - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                needs_jump_113_l0 = needs_jump_l0 % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                needs_jump_114 = needs_jump_113_l0 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                jump_to_block_l0 = next_block_112_p1 - cur_block_109_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                jump_to_block_115_l0 = jump_to_block_l0 * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                jump_to_block_116 = jump_to_block_115_l0 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                offset_l0 = gl.cast(needs_jump_114, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                offset_117_l0 = jump_to_block_116 * offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                offset_118_l0 = 1 - offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                offset_119_l0 = offset_118_l0 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                offset_120 = offset_117_l0 + offset_119_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
                mbarrier.wait(k_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
                fence_async_shared()
                tok_qk_l0 = warpgroup_mma(q_29, k_buf.index((twill_base + twill_b - 1) % 3).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
                acc_108_p1, qk_l0 = warpgroup_mma_wait(0, deps=(acc_108_p1, tok_qk_l0,))
                mbarrier.arrive(v_empty.index((twill_base + twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
                mbarrier.arrive(k_empty.index((twill_base + twill_b - 1) % 3))
                qk_86 = qk_l0 * 0.0883883461  # elementwise1_qk: stage 1, partition 0 (group 0)
                tmp3_87 = offs_n_122_p1.broadcast_to([128, 64])  # elementwise1_qk: stage 1, partition 0 (group 0)
                tmp3_88 = tmp3 >= tmp3_87  # elementwise1_qk: stage 1, partition 0 (group 0)
                post_mod_scores_l0 = gl.where(tmp3_88, qk_86, float("-inf"))  # elementwise1_qk: stage 1, partition 0 (group 0)
                post_mod_scores_89 = post_mod_scores_l0 * 1.44269502  # elementwise1_qk: stage 1, partition 0 (group 0)
                offs_n_121 = offset_120  # elementwise1_qk: stage 1, partition 0 (group 0)
                offs_n_122 = offs_n_122_p1 + offs_n_121  # elementwise1_qk: stage 1, partition 0 (group 0)
                m_ij_l0 = gl.max(post_mod_scores_89, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
                kv_offset_123 = kv_offset_123_p1 + offset_120  # elementwise7_kv_offset: stage 1, partition 0 (group 0)
                m_ij_90 = gl.maximum(m_ij_90_p1, m_ij_l0)  # elementwise2_m_ij: stage 1, partition 0 (group 0)
                masked_out_rows_l0 = m_ij_90 == float("-inf")  # elementwise3_masked_out_rows: stage 1, partition 0 (group 0)
                m_ij_masked_l0 = gl.where(masked_out_rows_l0, 0.0, m_ij_90)  # elementwise3_masked_out_rows: stage 1, partition 0 (group 0)
                alpha_l0 = m_ij_90_p1 - m_ij_masked_l0  # sfu0_alpha: stage 1, partition 0 (group 0)
                alpha_91 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 1, partition 0 (group 0)
                p_l0 = gl.expand_dims(m_ij_masked_l0, 1)  # sfu1_p: stage 1, partition 0 (group 0)
                p_92_l0 = p_l0.broadcast_to([128, 64])  # sfu1_p: stage 1, partition 0 (group 0)
                p_93_l0 = post_mod_scores_89 - p_92_l0  # sfu1_p: stage 1, partition 0 (group 0)
                p_94 = gl.exp2(p_93_l0)  # sfu1_p: stage 1, partition 0 (group 0)
                acc_98_l0 = gl.expand_dims(alpha_91, 1)  # convert0_acc: stage 1, partition 0 (group 0)
                acc_99_l0 = gl.convert_layout(acc_98_l0, L5)  # convert0_acc: stage 1, partition 0 (group 0)
                l_i_96_l0 = gl.sum(p_94, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
                acc_106_l0 = p_94.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
                acc_107_l0 = gl.convert_layout(acc_106_l0, L7)  # convert1_acc: stage 1, partition 0 (group 0)
                acc_100_l0 = acc_99_l0.broadcast_to([128, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
                acc_101 = acc_108_p1 * acc_100_l0  # elementwise5_acc: stage 1, partition 0 (group 0)
                mbarrier.wait(v_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
                fence_async_shared()
                tok_acc_108 = warpgroup_mma(acc_107_l0, v_buf.index((twill_base + twill_b - 1) % 3), acc_101, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
                l_i_95_l0 = l_i_97_p1 * alpha_91  # elementwise4_l_i: stage 1, partition 0 (group 0)
                l_i_97 = l_i_95_l0 + l_i_96_l0  # elementwise4_l_i: stage 1, partition 0 (group 0)
                acc_108 = warpgroup_mma_wait(1, deps=(tok_acc_108,))
                acc_108_p1 = acc_108
                cur_block_109_p1 = cur_block_109
                kv_offset_123_p1 = kv_offset_123
                l_i_97_p1 = l_i_97
                m_ij_90_p1 = m_ij_90
                next_block_112_p1 = next_block_112
                offs_n_122_p1 = offs_n_122
            kv_base_offset_l0 = kv_start_30 + kv_offset_123_p1  # elementwise0_kv_base_offset: stage 1, partition 0 (group 0)
            needs_jump_l0 = (0 + ((twill_n - 1 + 1) - 1) * 1) + 1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            needs_jump_113_l0 = needs_jump_l0 % 2  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            needs_jump_114 = needs_jump_113_l0 == 0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_l0 = next_block_112_p1 - cur_block_109_p1  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_115_l0 = jump_to_block_l0 * 128  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            jump_to_block_116 = jump_to_block_115_l0 - 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_l0 = gl.cast(needs_jump_114, gl.int32)  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_117_l0 = jump_to_block_116 * offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_118_l0 = 1 - offset_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_119_l0 = offset_118_l0 * 64  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            offset_120 = offset_117_l0 + offset_119_l0  # elementwise6_jump_to_block: stage 1, partition 0 (group 0)
            mbarrier.wait(k_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
            fence_async_shared()
            tok_qk_l0 = warpgroup_mma(q_29, k_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            acc_108_p1, qk_l0 = warpgroup_mma_wait(0, deps=(acc_108_p1, tok_qk_l0,))
            mbarrier.arrive(v_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
            mbarrier.arrive(k_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
            qk_86 = qk_l0 * 0.0883883461  # elementwise1_qk: stage 1, partition 0 (group 0)
            tmp3_87 = offs_n_122_p1.broadcast_to([128, 64])  # elementwise1_qk: stage 1, partition 0 (group 0)
            tmp3_88 = tmp3 >= tmp3_87  # elementwise1_qk: stage 1, partition 0 (group 0)
            post_mod_scores_l0 = gl.where(tmp3_88, qk_86, float("-inf"))  # elementwise1_qk: stage 1, partition 0 (group 0)
            post_mod_scores_89 = post_mod_scores_l0 * 1.44269502  # elementwise1_qk: stage 1, partition 0 (group 0)
            offs_n_121 = offset_120  # elementwise1_qk: stage 1, partition 0 (group 0)
            offs_n_122 = offs_n_122_p1 + offs_n_121  # elementwise1_qk: stage 1, partition 0 (group 0)
            m_ij_l0 = gl.max(post_mod_scores_89, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
            kv_offset_123 = kv_offset_123_p1 + offset_120  # elementwise7_kv_offset: stage 1, partition 0 (group 0)
            m_ij_90 = gl.maximum(m_ij_90_p1, m_ij_l0)  # elementwise2_m_ij: stage 1, partition 0 (group 0)
            masked_out_rows_l0 = m_ij_90 == float("-inf")  # elementwise3_masked_out_rows: stage 1, partition 0 (group 0)
            m_ij_masked_l0 = gl.where(masked_out_rows_l0, 0.0, m_ij_90)  # elementwise3_masked_out_rows: stage 1, partition 0 (group 0)
            alpha_l0 = m_ij_90_p1 - m_ij_masked_l0  # sfu0_alpha: stage 1, partition 0 (group 0)
            alpha_91 = gl.exp2(alpha_l0)  # sfu0_alpha: stage 1, partition 0 (group 0)
            p_l0 = gl.expand_dims(m_ij_masked_l0, 1)  # sfu1_p: stage 1, partition 0 (group 0)
            p_92_l0 = p_l0.broadcast_to([128, 64])  # sfu1_p: stage 1, partition 0 (group 0)
            p_93_l0 = post_mod_scores_89 - p_92_l0  # sfu1_p: stage 1, partition 0 (group 0)
            p_94 = gl.exp2(p_93_l0)  # sfu1_p: stage 1, partition 0 (group 0)
            acc_98_l0 = gl.expand_dims(alpha_91, 1)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_99_l0 = gl.convert_layout(acc_98_l0, L5)  # convert0_acc: stage 1, partition 0 (group 0)
            l_i_96_l0 = gl.sum(p_94, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            acc_106_l0 = p_94.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_107_l0 = gl.convert_layout(acc_106_l0, L7)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_100_l0 = acc_99_l0.broadcast_to([128, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
            acc_101 = acc_108_p1 * acc_100_l0  # elementwise5_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(v_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_108 = warpgroup_mma(acc_107_l0, v_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), acc_101, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_i_95_l0 = l_i_97_p1 * alpha_91  # elementwise4_l_i: stage 1, partition 0 (group 0)
            l_i_97 = l_i_95_l0 + l_i_96_l0  # elementwise4_l_i: stage 1, partition 0 (group 0)
            acc_108 = warpgroup_mma_wait(1, deps=(tok_acc_108,))
            acc_108_p1 = acc_108
            cur_block_109_p1 = cur_block_109
            kv_offset_123_p1 = kv_offset_123
            l_i_97_p1 = l_i_97
            m_ij_90_p1 = m_ij_90
            next_block_112_p1 = next_block_112
            offs_n_122_p1 = offs_n_122
            acc_108_p1 = warpgroup_mma_wait(0, deps=(acc_108_p1,))
            q_29._keep_alive()
            k_buf._keep_alive()
            v_buf._keep_alive()
            mbarrier.arrive(v_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
        else:
            acc_108_p1 = gl.full([128, 128], 0.0, gl.float32, layout=L5)
            l_i_97_p1 = gl.full([128], 0.0, gl.float32, layout=L1)
            m_ij_90_p1 = gl.full([128], float("-inf"), gl.float32, layout=L1)
            kv_offset_123_p1 = 0
            offs_n_122_p1 = v2
        twill_base += twill_n
        kv_indices_42 = arg_FULL_KV_IDX + sparse_kv_idx_offset
        kv_start_43 = gl.load(kv_indices_42)
        kv_start_44 = kv_start_43 * 128
        kv_num_blocks_45 = arg_FULL_KV_NUM_BLKS + q_start
        kv_num_blocks_46 = gl.load(kv_num_blocks_45)
        block_n_end_47 = kv_num_blocks_46 * 2
        block_n_end_48 = gl.minimum(block_n_end_47, block_n_end_34)
        twill_n = (block_n_end_48 - 0 + 1 - 1) // 1
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            m_ij_89 = m_ij_90_p1
            kv_offset_120 = 0
            kv_offset_120_p1 = kv_offset_120
            m_ij_89_p1 = m_ij_89
            acc_107 = acc_108_p1
            l_i_96 = l_i_97_p1
            kv_base_offset = kv_start_44 + kv_offset_120_p1  # elementwise0_kv_base_offset: stage 0, partition 0 (group 0)
            cur_block_idx = (0 + (0 - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
            cur_block = kv_indices_42 + cur_block_idx  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block = cur_block_idx + 1  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_109 = next_block < kv_num_blocks_46  # load3_next_block: stage 0, partition 0 (group 0)
            next_block_110 = cur_block + 1  # load3_next_block: stage 0, partition 0 (group 0)
            cur_block_108 = gl.load(cur_block, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
            next_block_111 = gl.load(next_block_110, mask=next_block_109, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
            needs_jump = (0 + (0 - 0) * 1) + 1  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            needs_jump_112 = needs_jump % 2  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            needs_jump_113 = needs_jump_112 == 0  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            jump_to_block = next_block_111 - cur_block_108  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            jump_to_block_114 = jump_to_block * 128  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            jump_to_block_115 = jump_to_block_114 - 64  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            offset = gl.cast(needs_jump_113, gl.int32)  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            offset_116 = jump_to_block_115 * offset  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            offset_117 = 1 - offset  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            offset_118 = offset_117 * 64  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            offset_119 = offset_116 + offset_118  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            kv_offset_120 = kv_offset_120_p1 + offset_119  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
            mbarrier.wait(k_ready.index((twill_base + 0 - 0) % 3), ((twill_base + 0 - 0) // 3) & 1)
            fence_async_shared()
            tok_qk = warpgroup_mma(q_29, k_buf.index((twill_base + 0 - 0) % 3).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            qk = warpgroup_mma_wait(0, deps=(tok_qk,))
            mbarrier.arrive(k_empty.index((twill_base + 0 - 0) % 3))
            qk_88 = qk * 0.0883883461  # elementwise1_qk: stage 0, partition 0 (group 0)
            post_mod_scores = qk_88 * 1.44269502  # elementwise1_qk: stage 0, partition 0 (group 0)
            m_ij = gl.max(post_mod_scores, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
            m_ij_89 = gl.maximum(m_ij_89_p1, m_ij)  # elementwise2_m_ij: stage 0, partition 0 (group 0)
            masked_out_rows = m_ij_89 == float("-inf")  # elementwise3_masked_out_rows: stage 0, partition 0 (group 0)
            m_ij_masked = gl.where(masked_out_rows, 0.0, m_ij_89)  # elementwise3_masked_out_rows: stage 0, partition 0 (group 0)
            alpha = m_ij_89_p1 - m_ij_masked  # sfu0_alpha: stage 0, partition 0 (group 0)
            alpha_90 = gl.exp2(alpha)  # sfu0_alpha: stage 0, partition 0 (group 0)
            p = gl.expand_dims(m_ij_masked, 1)  # sfu1_p: stage 0, partition 0 (group 0)
            p_91 = p.broadcast_to([128, 64])  # sfu1_p: stage 0, partition 0 (group 0)
            p_92 = post_mod_scores - p_91  # sfu1_p: stage 0, partition 0 (group 0)
            p_93 = gl.exp2(p_92)  # sfu1_p: stage 0, partition 0 (group 0)
            acc_97 = gl.expand_dims(alpha_90, 1)  # convert0_acc: stage 0, partition 0 (group 0)
            acc_98 = gl.convert_layout(acc_97, L5)  # convert0_acc: stage 0, partition 0 (group 0)
            acc_107_p1 = acc_107
            acc_98_p1 = acc_98
            alpha_90_p1 = alpha_90
            kv_offset_120_p1 = kv_offset_120
            l_i_96_p1 = l_i_96
            m_ij_89_p1 = m_ij_89
            p_93_p1 = p_93
            for twill_b in range(1, twill_n):
                kv_base_offset = kv_start_44 + kv_offset_120_p1  # elementwise0_kv_base_offset: stage 0, partition 0 (group 0)
                acc_105 = p_93_p1.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
                acc_106 = gl.convert_layout(acc_105, L7)  # convert1_acc: stage 1, partition 0 (group 0)
                acc_99 = acc_98_p1.broadcast_to([128, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
                acc_100 = acc_107_p1 * acc_99  # elementwise5_acc: stage 1, partition 0 (group 0)
                mbarrier.wait(v_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
                fence_async_shared()
                tok_acc_107 = warpgroup_mma(acc_106, v_buf.index((twill_base + twill_b - 1) % 3), acc_100, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
                l_i_95 = gl.sum(p_93_p1, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
                l_i_94 = l_i_96_p1 * alpha_90_p1  # elementwise4_l_i: stage 1, partition 0 (group 0)
                l_i_96 = l_i_94 + l_i_95  # elementwise4_l_i: stage 1, partition 0 (group 0)
                cur_block_idx = (0 + (twill_b - 0) * 1) // 2  # load2_cur_block: stage 0, partition 0 (group 0)
                cur_block = kv_indices_42 + cur_block_idx  # load2_cur_block: stage 0, partition 0 (group 0)
                next_block = cur_block_idx + 1  # load3_next_block: stage 0, partition 0 (group 0)
                next_block_109 = next_block < kv_num_blocks_46  # load3_next_block: stage 0, partition 0 (group 0)
                next_block_110 = cur_block + 1  # load3_next_block: stage 0, partition 0 (group 0)
                cur_block_108 = gl.load(cur_block, eviction_policy='evict_last')  # load2_cur_block: stage 0, partition 0 (group 0)
                next_block_111 = gl.load(next_block_110, mask=next_block_109, eviction_policy='evict_last')  # load3_next_block: stage 0, partition 0 (group 0)
                needs_jump = (0 + (twill_b - 0) * 1) + 1  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                needs_jump_112 = needs_jump % 2  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                needs_jump_113 = needs_jump_112 == 0  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                jump_to_block = next_block_111 - cur_block_108  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                jump_to_block_114 = jump_to_block * 128  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                jump_to_block_115 = jump_to_block_114 - 64  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                offset = gl.cast(needs_jump_113, gl.int32)  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                offset_116 = jump_to_block_115 * offset  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                offset_117 = 1 - offset  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                offset_118 = offset_117 * 64  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                offset_119 = offset_116 + offset_118  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                kv_offset_120 = kv_offset_120_p1 + offset_119  # elementwise6_jump_to_block: stage 0, partition 0 (group 0)
                mbarrier.wait(k_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
                fence_async_shared()
                tok_qk = warpgroup_mma(q_29, k_buf.index((twill_base + twill_b - 0) % 3).permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
                acc_107, qk = warpgroup_mma_wait(0, deps=(tok_acc_107, tok_qk,))
                mbarrier.arrive(v_empty.index((twill_base + twill_b - 1) % 3))
                mbarrier.arrive(k_empty.index((twill_base + twill_b - 0) % 3))
                qk_88 = qk * 0.0883883461  # elementwise1_qk: stage 0, partition 0 (group 0)
                post_mod_scores = qk_88 * 1.44269502  # elementwise1_qk: stage 0, partition 0 (group 0)
                m_ij = gl.max(post_mod_scores, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
                m_ij_89 = gl.maximum(m_ij_89_p1, m_ij)  # elementwise2_m_ij: stage 0, partition 0 (group 0)
                masked_out_rows = m_ij_89 == float("-inf")  # elementwise3_masked_out_rows: stage 0, partition 0 (group 0)
                m_ij_masked = gl.where(masked_out_rows, 0.0, m_ij_89)  # elementwise3_masked_out_rows: stage 0, partition 0 (group 0)
                alpha = m_ij_89_p1 - m_ij_masked  # sfu0_alpha: stage 0, partition 0 (group 0)
                alpha_90 = gl.exp2(alpha)  # sfu0_alpha: stage 0, partition 0 (group 0)
                p = gl.expand_dims(m_ij_masked, 1)  # sfu1_p: stage 0, partition 0 (group 0)
                p_91 = p.broadcast_to([128, 64])  # sfu1_p: stage 0, partition 0 (group 0)
                p_92 = post_mod_scores - p_91  # sfu1_p: stage 0, partition 0 (group 0)
                p_93 = gl.exp2(p_92)  # sfu1_p: stage 0, partition 0 (group 0)
                acc_97 = gl.expand_dims(alpha_90, 1)  # convert0_acc: stage 0, partition 0 (group 0)
                acc_98 = gl.convert_layout(acc_97, L5)  # convert0_acc: stage 0, partition 0 (group 0)
                acc_107_p1 = acc_107
                acc_98_p1 = acc_98
                alpha_90_p1 = alpha_90
                kv_offset_120_p1 = kv_offset_120
                l_i_96_p1 = l_i_96
                m_ij_89_p1 = m_ij_89
                p_93_p1 = p_93
            acc_105 = p_93_p1.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_106 = gl.convert_layout(acc_105, L7)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_99 = acc_98_p1.broadcast_to([128, 128])  # elementwise5_acc: stage 1, partition 0 (group 0)
            acc_100 = acc_107_p1 * acc_99  # elementwise5_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(v_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_107 = warpgroup_mma(acc_106, v_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), acc_100, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_i_95 = gl.sum(p_93_p1, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            l_i_94 = l_i_96_p1 * alpha_90_p1  # elementwise4_l_i: stage 1, partition 0 (group 0)
            l_i_96 = l_i_94 + l_i_95  # elementwise4_l_i: stage 1, partition 0 (group 0)
            acc_107 = warpgroup_mma_wait(0, deps=(tok_acc_107,))
            mbarrier.arrive(v_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
            acc_107_p1 = acc_107
            acc_98_p1 = acc_98
            alpha_90_p1 = alpha_90
            kv_offset_120_p2 = kv_offset_120_p1
            kv_offset_120_p1 = kv_offset_120
            l_i_96_p1 = l_i_96
            m_ij_89_p2 = m_ij_89_p1
            m_ij_89_p1 = m_ij_89
            p_93_p1 = p_93
            q_29._keep_alive()
            k_buf._keep_alive()
            v_buf._keep_alive()
        else:
            acc_107_p1 = acc_108_p1
            l_i_96_p1 = l_i_97_p1
            m_ij_89_p2 = m_ij_90_p1
            kv_offset_120_p2 = 0
        m_offset = ks0 * 16
        m_offset_53 = off_zq * m_offset
        m_offset_54 = off_hq * ks0
        m_offset_55 = m_offset_53 + m_offset_54
        l_i_56 = l_i_96_p1 == 0.0
        l_i_57 = gl.where(l_i_56, 1.0, l_i_96_p1)
        acc_58 = gl.expand_dims(l_i_57, 1)
        acc_59 = gl.convert_layout(acc_58, L5)
        acc_60 = acc_59.broadcast_to([128, 128])
        acc_61 = acc_107_p1 / acc_60
        mask_63 = ptr < ks0
        mask_64 = ptr_25 < 128
        mask_65 = mask_63.broadcast_to([128, 128])
        mask_66 = mask_64.broadcast_to([128, 128])
        mask_67 = mask_65 & mask_66
        xindex = ptr_21.broadcast_to([128, 128])
        xindex_68 = ptr_27 + xindex
        xindex_70 = xindex_68 + q_offset_8
        xindex_72 = xindex_70 + q_offset
        v4 = out_ptr0 + xindex_72
        v5 = acc_61.to(gl.float16)
        v6 = gl.convert_layout(v5, L8)
        gl.store(v4, v6, mask=mask_67)
        l_ptrs = arg_LSE + m_offset_55
        l_ptrs_74 = l_ptrs + offs_m_19
        lse = gl.log2(l_i_57)
        lse_75 = m_ij_89_p2 + lse
        v7 = gl.convert_layout(lse_75, L2)
        gl.store(l_ptrs_74, v7)
        twill_base += twill_n

@gluon.jit
def producer_1(arg_Q, arg_K, arg_V, arg_LSE, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, twill_g0, twill_g1, twill_g2, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        v0 = ks0 * 2048
        v1 = ks0 * 128
        q_start = twill_pid0
        off_zq = twill_pid1
        off_hq = twill_pid2
        off_zkv = off_zq % 4
        stride_kv_idx_m = ks0 + 127
        stride_kv_idx_m_7 = stride_kv_idx_m // 128
        sparse_kv_idx_offset = q_start * stride_kv_idx_m_7
        q_offset_8 = off_hq * v1
        k_offset = off_zkv * v0
        k_offset_10 = k_offset + q_offset_8
        K = arg_K + k_offset_10
        V = arg_V + k_offset_10
        ptr_24 = gl.arange(0, 128, layout=L3)
        ptr_25 = gl.expand_dims(ptr_24, 0)
        kv_indices = arg_KV_IDX + sparse_kv_idx_offset
        kv_start = gl.load(kv_indices)
        kv_start_30 = kv_start * 128
        kv_num_blocks = arg_KV_NUM_BLKS + q_start
        kv_num_blocks_31 = gl.load(kv_num_blocks)
        block_n_end = kv_num_blocks_31 * 2
        block_n_end_32 = ks0 + 63
        block_n_end_33 = block_n_end_32 // 64
        block_n_end_34 = gl.maximum(block_n_end_33, 1)
        block_n_end_35 = gl.minimum(block_n_end, block_n_end_34)
        offs_n_36 = gl.arange(0, 64, layout=L0)
        ptr_40 = ptr_25.broadcast_to([64, 128])
        arg14_l0 = 0
        for kv_offset_76_l0 in range(0, block_n_end_35, 1):
            twill_k = twill_base + (kv_offset_76_l0 - 0) // 1
            kv_base_offset_l0 = kv_start_30 + arg14_l0
            offs_n_load_78 = kv_base_offset_l0 + offs_n_36
            ptr_79 = gl.expand_dims(offs_n_load_78, 1)
            ptr_80 = ptr_79 * 128
            ptr_81_l0 = K + ptr_80
            ptr_82_l0 = ptr_81_l0.broadcast_to([64, 128])
            ptr_83_l0 = ptr_82_l0 + ptr_40
            ptr_102_l0 = V + ptr_80
            ptr_103_l0 = ptr_102_l0.broadcast_to([64, 128])
            ptr_104 = ptr_103_l0 + ptr_40
            cur_block_idx_l0 = kv_offset_76_l0 // 2
            cur_block_l0 = kv_indices + cur_block_idx_l0
            cur_block_109 = gl.load(cur_block_l0, eviction_policy='evict_last')
            next_block_l0 = cur_block_idx_l0 + 1
            next_block_110_l0 = next_block_l0 < kv_num_blocks_31
            next_block_111_l0 = cur_block_l0 + 1
            next_block_112 = gl.load(next_block_111_l0, mask=next_block_110_l0, eviction_policy='evict_last')
            needs_jump_l0 = kv_offset_76_l0 + 1
            needs_jump_113_l0 = needs_jump_l0 % 2
            needs_jump_114 = needs_jump_113_l0 == 0
            jump_to_block_l0 = next_block_112 - cur_block_109
            jump_to_block_115_l0 = jump_to_block_l0 * 128
            jump_to_block_116 = jump_to_block_115_l0 - 64
            offset_l0 = gl.cast(needs_jump_114, gl.int32)
            offset_117_l0 = jump_to_block_116 * offset_l0
            offset_118_l0 = 1 - offset_l0
            offset_119_l0 = offset_118_l0 * 64
            offset_120 = offset_117_l0 + offset_119_l0
            kv_offset_123 = arg14_l0 + offset_120
            mbarrier.wait(k_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(k_buf.index(twill_k % 3), ptr_83_l0)  # load0_k: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(k_ready.index(twill_k % 3), increment_count=False)
            else:
                k_buf.index(twill_k % 3).store(gl.load(ptr_83_l0))  # load0_k: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(k_ready.index(twill_k % 3), count=256)
            mbarrier.wait(v_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_buf.index(twill_k % 3), ptr_104)  # load1_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(v_ready.index(twill_k % 3), increment_count=False)
            else:
                v_buf.index(twill_k % 3).store(gl.load(ptr_104))  # load1_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_ready.index(twill_k % 3), count=256)
            arg14_l0 = kv_offset_123
        kv_indices_42 = arg_FULL_KV_IDX + sparse_kv_idx_offset
        kv_start_43 = gl.load(kv_indices_42)
        kv_start_44 = kv_start_43 * 128
        kv_num_blocks_45 = arg_FULL_KV_NUM_BLKS + q_start
        kv_num_blocks_46 = gl.load(kv_num_blocks_45)
        block_n_end_47 = kv_num_blocks_46 * 2
        block_n_end_48 = gl.minimum(block_n_end_47, block_n_end_34)
        ptr_50 = ptr_25.broadcast_to([64, 128])
        twill_base += (block_n_end_35 - 0 + 1 - 1) // 1
        arg14 = 0
        for kv_offset_76 in range(0, block_n_end_48, 1):
            twill_k = twill_base + (kv_offset_76 - 0) // 1
            kv_base_offset = kv_start_44 + arg14
            offs_n_load_80 = kv_base_offset + offs_n_36
            ptr_81 = gl.expand_dims(offs_n_load_80, 1)
            ptr_82 = ptr_81 * 128
            ptr_83 = K + ptr_82
            ptr_84 = ptr_83.broadcast_to([64, 128])
            ptr_85 = ptr_84 + ptr_50
            ptr_101 = V + ptr_82
            ptr_102 = ptr_101.broadcast_to([64, 128])
            ptr_103 = ptr_102 + ptr_50
            cur_block_idx = kv_offset_76 // 2
            cur_block = kv_indices_42 + cur_block_idx
            cur_block_108 = gl.load(cur_block, eviction_policy='evict_last')
            next_block = cur_block_idx + 1
            next_block_109 = next_block < kv_num_blocks_46
            next_block_110 = cur_block + 1
            next_block_111 = gl.load(next_block_110, mask=next_block_109, eviction_policy='evict_last')
            needs_jump = kv_offset_76 + 1
            needs_jump_112 = needs_jump % 2
            needs_jump_113 = needs_jump_112 == 0
            jump_to_block = next_block_111 - cur_block_108
            jump_to_block_114 = jump_to_block * 128
            jump_to_block_115 = jump_to_block_114 - 64
            offset = gl.cast(needs_jump_113, gl.int32)
            offset_116 = jump_to_block_115 * offset
            offset_117 = 1 - offset
            offset_118 = offset_117 * 64
            offset_119 = offset_116 + offset_118
            kv_offset_120 = arg14 + offset_119
            mbarrier.wait(k_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(k_buf.index(twill_k % 3), ptr_85)  # load0_k: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(k_ready.index(twill_k % 3), increment_count=False)
            else:
                k_buf.index(twill_k % 3).store(gl.load(ptr_85))  # load0_k: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(k_ready.index(twill_k % 3), count=256)
            mbarrier.wait(v_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_buf.index(twill_k % 3), ptr_103)  # load1_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(v_ready.index(twill_k % 3), increment_count=False)
            else:
                v_buf.index(twill_k % 3).store(gl.load(ptr_103))  # load1_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_ready.index(twill_k % 3), count=256)
            arg14 = kv_offset_120
        twill_base += (block_n_end_48 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(arg_Q, arg_K, arg_V, arg_LSE, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    k_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    v_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(k_ready.index(i), count=256)
    k_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(k_empty.index(i), count=1)
    v_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_ready.index(i), count=256)
    v_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (arg_Q, arg_K, arg_V, arg_LSE, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, twill_g0, twill_g1, twill_g2, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty, TWILL_COPY)),
        (producer_1, (arg_Q, arg_K, arg_V, arg_LSE, arg_KV_NUM_BLKS, arg_KV_IDX, arg_FULL_KV_NUM_BLKS, arg_FULL_KV_IDX, out_ptr0, ks0, twill_g0, twill_g1, twill_g2, k_buf, v_buf, k_ready, k_empty, v_ready, v_empty, TWILL_COPY)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['arg_Q', 'arg_K', 'arg_V', 'arg_LSE', 'arg_KV_NUM_BLKS', 'arg_KV_IDX', 'arg_FULL_KV_NUM_BLKS', 'arg_FULL_KV_IDX', 'out_ptr0', 'ks0']          # the Triton kernel's parameters, in order
RUNTIME = ['arg_Q', 'arg_K', 'arg_V', 'arg_LSE', 'arg_KV_NUM_BLKS', 'arg_KV_IDX', 'arg_FULL_KV_NUM_BLKS', 'arg_FULL_KV_IDX', 'out_ptr0', 'ks0', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['arg_Q', 'arg_K', 'arg_V', 'arg_LSE', 'arg_KV_NUM_BLKS', 'arg_KV_IDX', 'arg_FULL_KV_NUM_BLKS', 'arg_FULL_KV_IDX', 'out_ptr0', 'ks0', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = 128
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
