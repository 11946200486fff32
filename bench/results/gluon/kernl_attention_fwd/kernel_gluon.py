"""_fwd_kernel, written by twill from its joint schedule: I=232 L=232 (optimal), 3642 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (k_80, v_111): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- k_80, v_111 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over K, V when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 139): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring k_80: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring v_111: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 147600 bytes planned of 232448; maxnreg 128
- pointer loads held across the iteration in a compact layout (the prefetched value is converted to its readers' layout where it is read; in theirs, each thread would hold a replicated copy): acc_scale_105 (partition 0: 1 register(s) per thread, not 2)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16]), k_width=2))
L7 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 64, 16])))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(heads, size_m, size_n, size_m_cache_key, size_n_cache_key, Q, K, V, sm_scale, attention_mask, TMP, output, q_batch_stride, q_head_stride, q_m_stride, k_batch_stride, k_head_stride, k_n_stride, v_batch_stride, v_head_stride, v_k_stride, o_batch_stride, o_head_stride, o_m_stride, attention_mask_batch_stride, attention_mask_head_stride, attention_mask_m_stride, min_clamp_value, mask_batch_size, mask_k_size, size_m_rounded, twill_g0, twill_g1, twill_g2, twill_box_k_80, twill_box_v_111, k_80_buf, v_111_buf, k_80_ready, k_80_empty, v_111_ready, v_111_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        m_block_idx = twill_pid0
        head_idx = twill_pid1
        range_offs_m = gl.arange(0, 128, layout=L0)
        range_offs_m_5 = gl.arange(0, 128, layout=L1)
        range_offs_m_6 = gl.arange(0, 128, layout=L2)
        range_offs_m_7 = gl.arange(0, 128, layout=L1)
        offs_m = m_block_idx * 128
        offs_m_11 = offs_m + range_offs_m
        offs_m_12 = offs_m + range_offs_m_5
        offs_m_13 = offs_m + range_offs_m_7
        mask_batch_idx = head_idx // heads
        current_head_idx = head_idx % heads
        offs_q = mask_batch_idx * q_batch_stride
        offs_q_14 = current_head_idx * q_head_stride
        offs_q_15 = offs_q + offs_q_14
        offs_q_16 = gl.expand_dims(offs_m_11, 1)
        offs_q_18 = offs_q_16 * q_m_stride
        offs_q_19 = gl.arange(0, 64, layout=L3)
        offs_q_20 = gl.expand_dims(offs_q_19, 0)
        offs_q_21 = offs_q_18.broadcast_to([128, 64])
        offs_q_22 = offs_q_20.broadcast_to([128, 64])
        offs_q_23 = offs_q_21 + offs_q_22
        offs_q_25 = offs_q_15 + offs_q_23
        offs_o = mask_batch_idx * o_batch_stride
        offs_o_43 = current_head_idx * o_head_stride
        offs_o_44 = offs_o + offs_o_43
        offs_o_46 = offs_q_16 * o_m_stride
        offs_o_47 = offs_o_46.broadcast_to([128, 64])
        offs_o_48 = offs_o_47 + offs_q_22
        offs_o_50 = offs_o_44 + offs_o_48
        ptrs_q_51 = Q + offs_q_25
        ptrs_o_54 = output + offs_o_50
        ptrs_t = head_idx * size_m_rounded
        ptrs_t_55 = TMP + ptrs_t
        ptrs_t_58 = ptrs_t_55 + offs_m_12
        ptrs_t_59 = ptrs_t_55 + offs_m_13
        q_60 = offs_q_16 < size_m
        q_61 = q_60.broadcast_to([128, 64])
        q_62 = gl.load(ptrs_q_51, mask=q_61, other=0.0)
        q_63 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_62)
        fence_async_shared()
        v0 = mask_batch_size == 1
        v1 = gl.where(v0, 0, mask_batch_idx)
        offs_base_mask = v1 * attention_mask_batch_stride
        qk = gl.expand_dims(range_offs_m_6, 0)
        qk_65 = qk < size_n
        qk_66 = gl.where(qk_65, 0.0, float("-inf"))
        qk_67 = qk_66.broadcast_to([128, 128])
        twill_n = (size_n - 0 + 128 - 1) // 128
        l_new = gl.full([128], float("-inf"), gl.float32, layout=L4)
        d_new_101 = gl.full([128], 0.0, gl.float32, layout=L4)
        acc_115 = gl.full([128, 64], 0.0, gl.float32, layout=L5)
        acc_115_p1 = acc_115
        d_new_101_p1 = d_new_101
        l_new_p1 = l_new
        for twill_b in range(0, twill_n):
            offs_n_72 = (0 + (twill_b - 0) * 128)  # load1_m: stage 0, partition 0 (group 0)
            offs_n_74 = offs_n_72 + range_offs_m_6  # load1_m: stage 0, partition 0 (group 0)
            offs_mask_85 = gl.expand_dims(offs_n_74, 0)  # load1_m: stage 0, partition 0 (group 0)
            offs_mask_86 = offs_base_mask + offs_mask_85  # load1_m: stage 0, partition 0 (group 0)
            attention_load_mask_87 = offs_mask_85 < mask_k_size  # load1_m: stage 0, partition 0 (group 0)
            m_88 = attention_mask + offs_mask_86  # load1_m: stage 0, partition 0 (group 0)
            m_89 = gl.load(m_88, mask=attention_load_mask_87, other=float("-inf"), eviction_policy='evict_first')  # load1_m: stage 0, partition 0 (group 0)
            m_90 = m_89.to(gl.float32)  # convert0_m: stage 0, partition 0 (group 0)
            m_91 = m_90 == float("-inf")  # elementwise1_m: stage 0, partition 0 (group 0)
            m_92 = gl.where(m_91, min_clamp_value, m_90)  # elementwise1_m: stage 0, partition 0 (group 0)
            mbarrier.wait(k_80_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_qk_83 = warpgroup_mma(q_63, k_80_buf.index((twill_base + twill_b - 0) % 4).permute((1, 0)), qk_67, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            acc_115_p1, qk_83 = warpgroup_mma_wait(0, deps=(acc_115_p1, tok_qk_83,))
            mbarrier.arrive(v_111_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(k_80_empty.index((twill_base + twill_b - 0) % 4))
            qk_84 = qk_83 * sm_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_93 = m_92.broadcast_to([128, 128])  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_94 = qk_84 + qk_93  # elementwise0_qk: stage 0, partition 0 (group 0)
            l_j = gl.max(qk_94, axis=1)  # reduce0_l_j: stage 0, partition 0 (group 0)
            numerators = gl.expand_dims(l_j, 1)  # sfu0_numerators: stage 0, partition 0 (group 0)
            numerators_95 = numerators.broadcast_to([128, 128])  # sfu0_numerators: stage 0, partition 0 (group 0)
            numerators_96 = qk_94 - numerators_95  # sfu0_numerators: stage 0, partition 0 (group 0)
            numerators_97 = gl.exp(numerators_96)  # sfu0_numerators: stage 0, partition 0 (group 0)
            l_new = gl.maximum(l_new_p1, l_j)  # elementwise2_l_new: stage 0, partition 0 (group 0)
            alpha = l_new_p1 - l_new  # sfu1_alpha: stage 0, partition 0 (group 0)
            alpha_98 = gl.exp(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
            d_j = gl.sum(numerators_97, axis=1)  # reduce1_d_j: stage 0, partition 0 (group 0)
            beta = l_j - l_new  # sfu2_beta: stage 0, partition 0 (group 0)
            beta_99 = gl.exp(beta)  # sfu2_beta: stage 0, partition 0 (group 0)
            d_new = alpha_98 * d_new_101_p1  # elementwise3_d_new: stage 0, partition 0 (group 0)
            d_new_100 = beta_99 * d_j  # elementwise3_d_new: stage 0, partition 0 (group 0)
            d_new_101 = d_new + d_new_100  # elementwise3_d_new: stage 0, partition 0 (group 0)
            acc_scale = d_new_101_p1 / d_new_101  # elementwise6_acc_scale: stage 0, partition 0 (group 0)
            acc_scale_104 = acc_scale * alpha_98  # elementwise6_acc_scale: stage 0, partition 0 (group 0)
            v4 = gl.convert_layout(acc_scale_104, L1)  # convert1: stage 0, partition 0 (group 0)
            gl.store(ptrs_t_59, v4)  # store0: stage 0, partition 0 (group 0)
            p_scale = beta_99 / d_new_101  # elementwise4_p_scale: stage 0, partition 0 (group 0)
            gl.thread_barrier()
            acc_scale_105 = gl.load(ptrs_t_58)  # load2_acc_scale: stage 0, partition 0 (group 0)
            qk_softmax = gl.expand_dims(p_scale, 1)  # elementwise5_qk_softmax: stage 0, partition 0 (group 0)
            qk_softmax_102 = qk_softmax.broadcast_to([128, 128])  # elementwise5_qk_softmax: stage 0, partition 0 (group 0)
            qk_softmax_103 = numerators_97 * qk_softmax_102  # elementwise5_qk_softmax: stage 0, partition 0 (group 0)
            qk_softmax_113 = qk_softmax_103.to(gl.float16)  # convert2_qk_softmax: stage 0, partition 0 (group 0)
            qk_softmax_114 = gl.convert_layout(qk_softmax_113, L6)  # convert2_qk_softmax: stage 0, partition 0 (group 0)
            acc_scale_105_cv = gl.convert_layout(acc_scale_105, L7)  # elementwise7_acc: stage 0, partition 0 (group 0)
            acc_106 = gl.expand_dims(acc_scale_105_cv, 1)  # elementwise7_acc: stage 0, partition 0 (group 0)
            acc_107 = acc_106.broadcast_to([128, 64])  # elementwise7_acc: stage 0, partition 0 (group 0)
            acc_108 = acc_115_p1 * acc_107  # elementwise7_acc: stage 0, partition 0 (group 0)
            mbarrier.wait(v_111_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_115 = warpgroup_mma(qk_softmax_114, v_111_buf.index((twill_base + twill_b - 0) % 4), acc_108, is_async=True)  # dot1_acc: stage 0, partition 0 (group 0)
            acc_115 = warpgroup_mma_wait(1, deps=(tok_acc_115,))
            acc_115_p1 = acc_115
            d_new_101_p1 = d_new_101
            l_new_p1 = l_new
        acc_115_p1 = warpgroup_mma_wait(0, deps=(acc_115_p1,))
        q_63._keep_alive()
        k_80_buf._keep_alive()
        v_111_buf._keep_alive()
        mbarrier.arrive(v_111_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        v2 = acc_115_p1.to(gl.float16)
        v3 = gl.convert_layout(v2, L8)
        gl.store(ptrs_o_54, v3, mask=q_61)
        twill_base += twill_n

@gluon.jit
def producer_1(heads, size_m, size_n, size_m_cache_key, size_n_cache_key, Q, K, V, sm_scale, attention_mask, TMP, output, q_batch_stride, q_head_stride, q_m_stride, k_batch_stride, k_head_stride, k_n_stride, v_batch_stride, v_head_stride, v_k_stride, o_batch_stride, o_head_stride, o_m_stride, attention_mask_batch_stride, attention_mask_head_stride, attention_mask_m_stride, min_clamp_value, mask_batch_size, mask_k_size, size_m_rounded, twill_g0, twill_g1, twill_g2, twill_box_k_80, twill_box_v_111, k_80_buf, v_111_buf, k_80_ready, k_80_empty, v_111_ready, v_111_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        head_idx = twill_pid1
        range_offs_m = gl.arange(0, 128, layout=L0)
        mask_batch_idx = head_idx // heads
        current_head_idx = head_idx % heads
        offs_q_19 = gl.arange(0, 64, layout=L3)
        offs_q_20 = gl.expand_dims(offs_q_19, 0)
        offs_q_22 = offs_q_20.broadcast_to([128, 64])
        offs_k = mask_batch_idx * k_batch_stride
        offs_k_26 = current_head_idx * k_head_stride
        offs_k_27 = offs_k + offs_k_26
        offs_k_28 = gl.expand_dims(range_offs_m, 1)
        offs_k_30 = offs_k_28 * k_n_stride
        offs_k_31 = offs_k_30.broadcast_to([128, 64])
        offs_k_32 = offs_k_31 + offs_q_22
        offs_k_34 = offs_k_27 + offs_k_32
        offs_v = mask_batch_idx * v_batch_stride
        offs_v_35 = current_head_idx * v_head_stride
        offs_v_36 = offs_v + offs_v_35
        offs_v_38 = offs_k_28 * v_k_stride
        offs_v_39 = offs_v_38.broadcast_to([128, 64])
        offs_v_40 = offs_v_39 + offs_q_22
        offs_v_42 = offs_v_36 + offs_v_40
        ptrs_k_52 = K + offs_k_34
        ptrs_v_53 = V + offs_v_42
        for acc_70 in range(0, size_n, 128):
            twill_k = twill_base + (acc_70 - 0) // 128
            offs_n_73 = acc_70 + range_offs_m
            load_mask_75 = gl.expand_dims(offs_n_73, 1)
            load_mask_76 = load_mask_75 < size_n
            k = acc_70 * k_n_stride
            k_78 = ptrs_k_52 + k
            k_79 = load_mask_76.broadcast_to([128, 64])
            v = acc_70 * v_k_stride
            v_110 = ptrs_v_53 + v
            mbarrier.wait(k_80_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(k_80_ready.index(twill_k % 4), twill_box_k_80.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_k_80, [128 * ((acc_70 - 0) // 128), current_head_idx * k_head_stride + k_batch_stride * mask_batch_idx], k_80_ready.index(twill_k % 4), k_80_buf.index(twill_k % 4))  # load0_k: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(k_80_buf.index(twill_k % 4), k_78, mask=k_79)  # load0_k: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(k_80_ready.index(twill_k % 4), increment_count=False)
                else:
                    k_80_buf.index(twill_k % 4).store(gl.load(k_78, mask=k_79, other=0.0))  # load0_k: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(k_80_ready.index(twill_k % 4), count=256)
            mbarrier.wait(v_111_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(v_111_ready.index(twill_k % 4), twill_box_v_111.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_v_111, [128 * ((acc_70 - 0) // 128), current_head_idx * v_head_stride + mask_batch_idx * v_batch_stride], v_111_ready.index(twill_k % 4), v_111_buf.index(twill_k % 4))  # load3_v: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(v_111_buf.index(twill_k % 4), v_110, mask=k_79)  # load3_v: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(v_111_ready.index(twill_k % 4), increment_count=False)
                else:
                    v_111_buf.index(twill_k % 4).store(gl.load(v_110, mask=k_79, other=0.0))  # load3_v: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(v_111_ready.index(twill_k % 4), count=256)
        twill_base += (size_n - 0 + 128 - 1) // 128

@gluon.jit
def twill_kernel(heads, size_m, size_n, size_m_cache_key, size_n_cache_key, Q, K, V, sm_scale, attention_mask, TMP, output, q_batch_stride, q_head_stride, q_m_stride, k_batch_stride, k_head_stride, k_n_stride, v_batch_stride, v_head_stride, v_k_stride, o_batch_stride, o_head_stride, o_m_stride, attention_mask_batch_stride, attention_mask_head_stride, attention_mask_m_stride, min_clamp_value, mask_batch_size, mask_k_size, size_m_rounded, twill_g0, twill_g1, twill_g2, twill_box_k_80, twill_box_v_111, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    k_80_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    v_111_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_80_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k_80_ready.index(i), count=1 if TWILL_TMA else 256)
    k_80_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(k_80_empty.index(i), count=1)
    v_111_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(v_111_ready.index(i), count=1 if TWILL_TMA else 256)
    v_111_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(v_111_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (heads, size_m, size_n, size_m_cache_key, size_n_cache_key, Q, K, V, sm_scale, attention_mask, TMP, output, q_batch_stride, q_head_stride, q_m_stride, k_batch_stride, k_head_stride, k_n_stride, v_batch_stride, v_head_stride, v_k_stride, o_batch_stride, o_head_stride, o_m_stride, attention_mask_batch_stride, attention_mask_head_stride, attention_mask_m_stride, min_clamp_value, mask_batch_size, mask_k_size, size_m_rounded, twill_g0, twill_g1, twill_g2, twill_box_k_80, twill_box_v_111, k_80_buf, v_111_buf, k_80_ready, k_80_empty, v_111_ready, v_111_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (heads, size_m, size_n, size_m_cache_key, size_n_cache_key, Q, K, V, sm_scale, attention_mask, TMP, output, q_batch_stride, q_head_stride, q_m_stride, k_batch_stride, k_head_stride, k_n_stride, v_batch_stride, v_head_stride, v_k_stride, o_batch_stride, o_head_stride, o_m_stride, attention_mask_batch_stride, attention_mask_head_stride, attention_mask_m_stride, min_clamp_value, mask_batch_size, mask_k_size, size_m_rounded, twill_g0, twill_g1, twill_g2, twill_box_k_80, twill_box_v_111, k_80_buf, v_111_buf, k_80_ready, k_80_empty, v_111_ready, v_111_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['heads', 'size_m', 'size_n', 'size_m_cache_key', 'size_n_cache_key', 'Q', 'K', 'V', 'sm_scale', 'attention_mask', 'TMP', 'output', 'q_batch_stride', 'q_head_stride', 'q_m_stride', 'q_k_stride', 'k_batch_stride', 'k_head_stride', 'k_n_stride', 'k_k_stride', 'v_batch_stride', 'v_head_stride', 'v_k_stride', 'v_n_stride', 'o_batch_stride', 'o_head_stride', 'o_m_stride', 'o_n_stride', 'attention_mask_batch_stride', 'attention_mask_head_stride', 'attention_mask_m_stride', 'attention_mask_k_stride', 'min_clamp_value', 'mask_batch_size', 'mask_head_size', 'mask_m_size', 'mask_k_size', 'HAS_MASK', 'IS_MATRIX_MASK', 'IS_CAUSAL', 'BLOCK_DHEAD', 'BLOCK_M', 'BLOCK_N', 'NEED_LOAD_MASK_SIZE_M', 'NEED_LOAD_MASK_SIZE_N', 'size_m_rounded']          # the Triton kernel's parameters, in order
RUNTIME = ['heads', 'size_m', 'size_n', 'size_m_cache_key', 'size_n_cache_key', 'Q', 'K', 'V', 'sm_scale', 'attention_mask', 'TMP', 'output', 'q_batch_stride', 'q_head_stride', 'q_m_stride', 'k_batch_stride', 'k_head_stride', 'k_n_stride', 'v_batch_stride', 'v_head_stride', 'v_k_stride', 'o_batch_stride', 'o_head_stride', 'o_m_stride', 'attention_mask_batch_stride', 'attention_mask_head_stride', 'attention_mask_m_stride', 'min_clamp_value', 'mask_batch_size', 'mask_k_size', 'size_m_rounded', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_k_80', 'twill_box_v_111']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['heads', 'size_m', 'size_n', 'size_m_cache_key', 'size_n_cache_key', 'Q', 'K', 'V', 'sm_scale', 'attention_mask', 'TMP', 'output', 'q_batch_stride', 'q_head_stride', 'q_m_stride', 'k_batch_stride', 'k_head_stride', 'k_n_stride', 'v_batch_stride', 'v_head_stride', 'v_k_stride', 'o_batch_stride', 'o_head_stride', 'o_m_stride', 'attention_mask_batch_stride', 'attention_mask_head_stride', 'attention_mask_m_stride', 'min_clamp_value', 'mask_batch_size', 'mask_k_size', 'size_m_rounded', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'q_k_stride': 1, 'k_k_stride': 1, 'v_n_stride': 1, 'o_n_stride': 1, 'attention_mask_k_stride': 1, 'mask_head_size': 1, 'mask_m_size': 1, 'HAS_MASK': True, 'IS_MATRIX_MASK': False, 'IS_CAUSAL': False, 'BLOCK_DHEAD': 64, 'BLOCK_M': 128, 'BLOCK_N': 128, 'NEED_LOAD_MASK_SIZE_M': True, 'NEED_LOAD_MASK_SIZE_N': True}         # the specialisation this kernel was generated for
HEURISTICS = {'NEED_LOAD_MASK_SIZE_M': "lambda args: args['size_m'] % args['BLOCK_M'] != 0", 'NEED_LOAD_MASK_SIZE_N': "lambda args: args['size_n'] % args['BLOCK_N'] != 0"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {'size_m_rounded': "lambda args: math.ceil(args['size_m'] / args['BLOCK_M']) * args['BLOCK_M']"}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = ['import math']   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_k_80': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_v_111': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_k_80': ('K', ['k_n_stride', '1'], ['size_n', None], [128, 64], []), 'twill_box_v_111': ('V', ['v_k_stride', '1'], ['size_n', None], [128, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'k_batch_stride', 'k_head_stride', 'k_n_stride', 'v_batch_stride', 'v_head_stride', 'v_k_stride']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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

_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristic(name, src):
    """Heuristic ``name``'s function, from its source and the kernel module's names it reads (``HEURISTIC_SCOPE``:
    the module's imports, constants and the functions it calls); False where it cannot be made here."""
    fn = _HEUR.get(name)
    if fn is None:
        import math
        import torch
        import triton
        import triton.language as tl
        scope = {"torch": torch, "triton": triton, "tl": tl, "math": math}
        for part in HEURISTIC_SCOPE:
            try:
                exec(part, scope)
            except Exception:     # noqa: BLE001 - an import of the kernel's own package: its names not here
                pass
        try:
            fn = eval(src, scope)
        except Exception:         # noqa: BLE001 - names of the kernel's module not found: not checked
            fn = False
        if fn is False:
            import warnings
            warnings.warn(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated by this "
                          "launcher: launches are not checked against it", stacklevel=3)
        _HEUR[name] = fn
    return fn


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _heuristic(name, src)
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


def _heuristic_args(bound):
    """The kernel arguments its @triton.heuristics supply (kernl's ``size_m_rounded``), set as Triton sets them."""
    for name, src in HEURISTIC_ARGS.items():
        fn = _heuristic(name, src)
        if fn is False:
            raise ValueError(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated here")
        bound[name] = fn(dict(bound, **CONSTEXPRS))


def _box_shapes(bound):
    """Each pointer tile's (base, extents, strides), or None where the launch does not allow them (a base not
    16-byte aligned, a row stride not a 16-byte multiple, an extent not positive, a check failed, a shape
    or stride the descriptor refuses)."""
    out = {}
    for n, (base, strides, extents, block, checks) in POINTER_BOXES.items():
        t = bound[base]
        if not TMA_BOXES or not hasattr(t, 'data_ptr') or not all(_ev(c, bound) for c in checks):
            return None
        st = tuple(int(_ev(e, bound)) for e in strides)
        ext = tuple(2 ** 31 - 1 if e is None else int(_ev(e, bound)) for e in extents)   # None: unmasked
        if t.data_ptr() % 16 or any(x * t.element_size() % 16 for x in st[:-1]) or min(ext) <= 0:
            return None
        # unmasked, a coordinate holds the element offsets folded into it (an expert's, a batch's): TMA's
        # coordinates and the kernel's arithmetic are 32-bit, so the tensor's whole span must fit them
        span = _span(t)
        if any(e is None and span // max(s, 1) >= 2 ** 31 - 1 for e, s in zip(extents, st)):
            return None
        try:
            _desc(n, t, ext, st, block)
        except (AssertionError, ValueError, TypeError):
            return None
        out[n] = (base, ext, st)
    return out


def _span(t):
    """The elements from ``t``'s first to the end of its storage."""
    try:
        return t.untyped_storage().nbytes() // t.element_size() - t.storage_offset()
    except (AttributeError, RuntimeError):
        return t.numel()


def _boxes(bound, shapes=None):
    """The pointer tiles' descriptors over ``shapes`` (else ``_box_shapes``'), None where the launch does not
    allow them."""
    shapes = _box_shapes(bound) if shapes is None else shapes
    if shapes is None:
        return None
    return {n: _desc(n, bound[b], ext, st, POINTER_BOXES[n][3]) for n, (b, ext, st) in shapes.items()}


def _key(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES:
        from triton import knobs
        _MODES.extend((knobs.compilation, knobs.runtime))
    key = [g, TMA_BOXES, _MODES[0].instrumentation_mode, _MODES[1].debug, _device()]
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
    _heuristics(bound)
    shapes = _box_shapes(bound)
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED), 'TWILL_TMA': shapes is not None}
    return [tuple(flags[f] for f in FLAGS), shapes, None]


def launch(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS, args))
    if kwargs:
        bound.update({k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS})
    _heuristic_args(bound)
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
    bound.update(dict.fromkeys(POINTER_BOXES) if entry[1] is None else _boxes(bound, entry[1]))
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
