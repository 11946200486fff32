"""_t5_attn_fwd_kernel, written by twill from its joint schedule: I=327 L=327 (optimal), 7630 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_86, v_121): their addresses and masks spread over 128 threads
- k_86, v_121 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over K, V when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 203): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring k_86: 2 buffers of [64, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring v_121: 2 buffers of [64, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- staged operand acc_123_st: partition 0 stores the [128, 64] f16 tile once per iteration in shared memory, read there by dot1_acc (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 65616 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 1 iteration(s) ahead, 51200 bytes of shared memory compiled, ptxas 255 registers, ptxas serialises the wgmmas (non wgmma instructions defining accumulator registers of a wgmma between start and end of the pipeline stage); simulated for 0, 1, 2, 3, 8 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L9 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L10 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h, twill_g0, twill_g1, twill_g2, twill_box_k_86, twill_box_v_121, k_86_buf, v_121_buf, acc_123_st, k_86_ready, k_86_empty, v_121_ready, v_121_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        start_m = twill_pid0
        off_hb = twill_pid1
        off_b = off_hb // H
        off_h = off_hb % H
        base = gl.cast(off_b, gl.int64)
        base_11 = gl.cast(stride_b, gl.int64)
        base_12 = base * base_11
        base_13 = off_h * stride_h
        base_14 = gl.cast(base_13, gl.int64)
        base_15 = base_12 + base_14
        offs_m = start_m * 128
        offs_m_16 = gl.arange(0, 128, layout=L0)
        offs_m_17 = gl.arange(0, 128, layout=L1)
        offs_m_20 = offs_m + offs_m_16
        offs_m_21 = offs_m + offs_m_17
        offs_n_22 = gl.arange(0, 64, layout=L2)
        offs_n_23 = gl.arange(0, 64, layout=L3)
        mask_m_25 = offs_m_20 < N_CTX
        q_26 = gl.expand_dims(mask_m_25, 1)
        q_27 = Q + base_15
        q_28 = gl.expand_dims(offs_m_20, 1)
        q_29 = gl.expand_dims(offs_m_21, 1)
        q_31 = q_28 * stride_n
        q_33 = q_27 + q_31
        q_34 = gl.arange(0, 64, layout=L4)
        q_35 = gl.expand_dims(q_34, 0)
        q_37 = q_33.broadcast_to([128, 64])
        q_38 = q_35.broadcast_to([128, 64])
        q_39 = q_37 + q_38
        q_40 = q_26.broadcast_to([128, 64])
        q_41 = gl.load(q_39, mask=q_40, other=0.0)
        q_42 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_41)
        fence_async_shared()
        rel = q_29.broadcast_to([128, 64])
        twill_n = (N_CTX - 0 + 64 - 1) // 64
        m_ij_109 = gl.full([128], float("-inf"), gl.float32, layout=L5)
        l_i_115 = gl.full([128], 0.0, gl.float32, layout=L5)
        acc_125 = gl.full([128, 64], 0.0, gl.float32, layout=L6)
        acc_125_p1 = acc_125
        l_i_115_p1 = l_i_115
        m_ij_109_p1 = m_ij_109
        for twill_b in range(0, twill_n):
            cur_n_69 = (0 + (twill_b - 0) * 64)  # load1_bias: stage 0, partition 0 (group 0)
            cur_n_73 = cur_n_69 + offs_n_22  # load1_bias: stage 0, partition 0 (group 0)
            rel_88 = gl.expand_dims(cur_n_73, 0)  # load1_bias: stage 0, partition 0 (group 0)
            rel_89 = rel_88.broadcast_to([128, 64])  # load1_bias: stage 0, partition 0 (group 0)
            rel_90 = rel_89 - rel  # load1_bias: stage 0, partition 0 (group 0)
            n = gl.abs(rel_90)  # load1_bias: stage 0, partition 0 (group 0)
            n_f = gl.maximum(n, gl.full([128, 64], 1, gl.int32, layout=L7))  # convert0_n_f: stage 0, partition 0 (group 0)
            n_f_93 = n_f.to(gl.float32)  # convert0_n_f: stage 0, partition 0 (group 0)
            val_if_large = n_f_93 / 8.0  # sfu0_val_if_large: stage 0, partition 0 (group 0)
            val_if_large_94 = gl.log2(val_if_large)  # sfu0_val_if_large: stage 0, partition 0 (group 0)
            val_if_large_95 = val_if_large_94 / 4.0  # elementwise1_val_if_large: stage 0, partition 0 (group 0)
            val_if_large_96 = val_if_large_95 * 8.0  # elementwise1_val_if_large: stage 0, partition 0 (group 0)
            val_if_large_97 = val_if_large_96.to(gl.int32)  # load1_bias: stage 0, partition 0 (group 0)
            bucket = rel_90 > 0  # load1_bias: stage 0, partition 0 (group 0)
            val_if_large_98 = val_if_large_97 + 8  # load1_bias: stage 0, partition 0 (group 0)
            bucket_91 = bucket.to(gl.int32)  # load1_bias: stage 0, partition 0 (group 0)
            is_small = n < 8  # load1_bias: stage 0, partition 0 (group 0)
            val_if_large_99 = gl.minimum(val_if_large_98, gl.full([128, 64], 15, gl.int32, layout=L7))  # load1_bias: stage 0, partition 0 (group 0)
            bucket_92 = bucket_91 * 16  # load1_bias: stage 0, partition 0 (group 0)
            bucket_100 = gl.where(is_small, n, val_if_large_99)  # load1_bias: stage 0, partition 0 (group 0)
            bucket_101 = bucket_92 + bucket_100  # load1_bias: stage 0, partition 0 (group 0)
            bias_102 = bucket_101 * H  # load1_bias: stage 0, partition 0 (group 0)
            bias_103 = Bias + bias_102  # load1_bias: stage 0, partition 0 (group 0)
            bias_104 = bias_103 + off_h  # load1_bias: stage 0, partition 0 (group 0)
            bias_105 = gl.load(bias_104)  # load1_bias: stage 0, partition 0 (group 0)
            acc_125_p1 = warpgroup_mma_wait(0, deps=(acc_125_p1,))
            mbarrier.arrive(v_121_empty.index((twill_base + twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
            bias_106 = gl.convert_layout(bias_105, L6)  # convert1_bias: stage 0, partition 0 (group 0)
            mbarrier.wait(k_86_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
            fence_async_shared()
            tok_qk = warpgroup_mma(q_42, k_86_buf.index((twill_base + twill_b - 0) % 2).permute((1, 0)), bias_106, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            cur_n_70 = (0 + (twill_b - 0) * 64)  # elementwise0_qk: stage 0, partition 0 (group 0)
            cur_n_74 = cur_n_70 + offs_n_23  # elementwise0_qk: stage 0, partition 0 (group 0)
            k_77 = cur_n_74 < N_CTX  # elementwise0_qk: stage 0, partition 0 (group 0)
            k_80 = gl.expand_dims(k_77, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_107 = k_80.broadcast_to([128, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk = warpgroup_mma_wait(0, deps=(tok_qk,))
            mbarrier.arrive(k_86_empty.index((twill_base + twill_b - 0) % 2))
            qk_108 = gl.where(qk_107, qk, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
            m_ij = gl.max(qk_108, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
            m_ij_109 = gl.maximum(m_ij_109_p1, m_ij)  # elementwise2_m_ij: stage 0, partition 0 (group 0)
            p = gl.expand_dims(m_ij_109, 1)  # sfu1_p: stage 0, partition 0 (group 0)
            p_110 = p.broadcast_to([128, 64])  # sfu1_p: stage 0, partition 0 (group 0)
            p_111 = qk_108 - p_110  # sfu1_p: stage 0, partition 0 (group 0)
            p_112 = gl.exp(p_111)  # sfu1_p: stage 0, partition 0 (group 0)
            alpha = m_ij_109_p1 - m_ij_109  # sfu2_alpha: stage 0, partition 0 (group 0)
            alpha_113 = gl.exp(alpha)  # sfu2_alpha: stage 0, partition 0 (group 0)
            acc_123 = p_112.to(gl.float16)  # convert2_acc: stage 0, partition 0 (group 0)
            acc_116 = gl.expand_dims(alpha_113, 1)  # elementwise4_acc: stage 0, partition 0 (group 0)
            acc_117 = acc_116.broadcast_to([128, 64])  # elementwise4_acc: stage 0, partition 0 (group 0)
            acc_118 = acc_125_p1 * acc_117  # elementwise4_acc: stage 0, partition 0 (group 0)
            mbarrier.wait(v_121_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
            fence_async_shared()
            acc_123_st.store(acc_123)  # dot1_acc: stage 0, partition 0 (group 0)
            fence_async_shared()  # dot1_acc: stage 0, partition 0 (group 0)
            tok_acc_125 = warpgroup_mma(acc_123_st, v_121_buf.index((twill_base + twill_b - 0) % 2), acc_118, is_async=True)  # dot1_acc: stage 0, partition 0 (group 0)
            l_i_114 = gl.sum(p_112, axis=1)  # reduce1_l_i: stage 0, partition 0 (group 0)
            l_i = l_i_115_p1 * alpha_113  # elementwise3_l_i: stage 0, partition 0 (group 0)
            l_i_115 = l_i + l_i_114  # elementwise3_l_i: stage 0, partition 0 (group 0)
            acc_125 = warpgroup_mma_wait(1, deps=(tok_acc_125,))
            acc_125_p1 = acc_125
            l_i_115_p1 = l_i_115
            m_ij_109_p1 = m_ij_109
        acc_125_p1 = warpgroup_mma_wait(0, deps=(acc_125_p1,))
        q_42._keep_alive()
        k_86_buf._keep_alive()
        acc_123_st._keep_alive()
        v_121_buf._keep_alive()
        mbarrier.arrive(v_121_empty.index((twill_base + (twill_n - 1) - 0) % 2), pred=twill_n > 0)
        acc_64 = gl.expand_dims(l_i_115_p1, 1)
        acc_65 = acc_64.broadcast_to([128, 64])
        acc_66 = acc_125_p1 / acc_65
        v0 = Out + base_15
        v2 = v0 + q_31
        v3 = v2.broadcast_to([128, 64])
        v4 = v3 + q_38
        v5 = acc_66.to(gl.float16)
        v6 = gl.convert_layout(v5, L8)
        gl.store(v4, v6, mask=q_40)
        twill_base += twill_n

@gluon.jit
def producer_1(Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h, twill_g0, twill_g1, twill_g2, twill_box_k_86, twill_box_v_121, k_86_buf, v_121_buf, acc_123_st, k_86_ready, k_86_empty, v_121_ready, v_121_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        off_hb = twill_pid1
        off_b = off_hb // H
        off_h = off_hb % H
        base = gl.cast(off_b, gl.int64)
        base_11 = gl.cast(stride_b, gl.int64)
        base_12 = base * base_11
        base_13 = off_h * stride_h
        base_14 = gl.cast(base_13, gl.int64)
        base_15 = base_12 + base_14
        offs_n = gl.arange(0, 64, layout=L9)
        offs_n_24 = gl.arange(0, 64, layout=L0)
        q_34 = gl.arange(0, 64, layout=L4)
        q_35 = gl.expand_dims(q_34, 0)
        q_36 = gl.expand_dims(offs_n, 0)
        k_ptrs = K + base_15
        k_ptrs_44 = q_36 * stride_n
        k_ptrs_46 = k_ptrs + k_ptrs_44
        k_ptrs_47 = gl.arange(0, 64, layout=L10)
        k_ptrs_48 = gl.expand_dims(k_ptrs_47, 1)
        k_ptrs_49 = gl.expand_dims(offs_n_24, 1)
        k_ptrs_50 = k_ptrs_46.broadcast_to([64, 64])
        k_ptrs_51 = k_ptrs_48.broadcast_to([64, 64])
        k_ptrs_52 = k_ptrs_50 + k_ptrs_51
        v_ptrs = V + base_15
        v_ptrs_54 = k_ptrs_49 * stride_n
        v_ptrs_56 = v_ptrs + v_ptrs_54
        v_ptrs_57 = v_ptrs_56.broadcast_to([64, 64])
        v_ptrs_58 = q_35.broadcast_to([64, 64])
        v_ptrs_59 = v_ptrs_57 + v_ptrs_58
        for acc_67 in range(0, N_CTX, 64):
            twill_k = twill_base + (acc_67 - 0) // 64
            cur_n_72 = acc_67 + offs_n
            cur_n_75 = acc_67 + offs_n_24
            k_76 = cur_n_72 < N_CTX
            k_78 = cur_n_75 < N_CTX
            k_79 = gl.expand_dims(k_76, 0)
            k_81 = acc_67 * stride_n
            k_84 = k_ptrs_52 + k_81
            k_85 = k_79.broadcast_to([64, 64])
            v = gl.expand_dims(k_78, 1)
            v_119 = v_ptrs_59 + k_81
            v_120 = v.broadcast_to([64, 64])
            mbarrier.wait(k_86_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(k_86_ready.index(twill_k % 2), twill_box_k_86.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_k_86, [64 * ((acc_67 - 0) // 64), off_b * stride_b + off_h * stride_h], k_86_ready.index(twill_k % 2), k_86_buf.index(twill_k % 2))  # load0_k: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(k_86_buf.index(twill_k % 2).permute((1, 0)), k_84, mask=k_85)  # load0_k: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(k_86_ready.index(twill_k % 2), increment_count=False)
                else:
                    k_86_buf.index(twill_k % 2).permute((1, 0)).store(gl.load(k_84, mask=k_85, other=0.0))  # load0_k: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(k_86_ready.index(twill_k % 2), count=128)
            mbarrier.wait(v_121_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(v_121_ready.index(twill_k % 2), twill_box_v_121.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_v_121, [64 * ((acc_67 - 0) // 64), off_b * stride_b + off_h * stride_h], v_121_ready.index(twill_k % 2), v_121_buf.index(twill_k % 2))  # load2_v: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(v_121_buf.index(twill_k % 2), v_119, mask=v_120)  # load2_v: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(v_121_ready.index(twill_k % 2), increment_count=False)
                else:
                    v_121_buf.index(twill_k % 2).store(gl.load(v_119, mask=v_120, other=0.0))  # load2_v: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(v_121_ready.index(twill_k % 2), count=128)
        twill_base += (N_CTX - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h, twill_g0, twill_g1, twill_g2, twill_box_k_86, twill_box_v_121, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    k_86_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    v_121_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    acc_123_st = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout.get_default_for([128, 64], gl.float16))
    k_86_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_86_ready.index(i), count=1 if TWILL_TMA else 128)
    k_86_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_86_empty.index(i), count=1)
    v_121_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_121_ready.index(i), count=1 if TWILL_TMA else 128)
    v_121_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_121_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h, twill_g0, twill_g1, twill_g2, twill_box_k_86, twill_box_v_121, k_86_buf, v_121_buf, acc_123_st, k_86_ready, k_86_empty, v_121_ready, v_121_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h, twill_g0, twill_g1, twill_g2, twill_box_k_86, twill_box_v_121, k_86_buf, v_121_buf, acc_123_st, k_86_ready, k_86_empty, v_121_ready, v_121_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [64])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L4_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L7_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L8_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L9_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1]))
L10_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L11_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h):
    start_m = gl.program_id(0)
    off_hb = gl.program_id(1)
    off_b = off_hb // H
    off_h = off_hb % H
    base = gl.cast(off_b, gl.int64)
    base_11 = gl.cast(stride_b, gl.int64)
    base_12 = base * base_11
    base_13 = off_h * stride_h
    base_14 = gl.cast(base_13, gl.int64)
    base_15 = base_12 + base_14
    offs_m = start_m * 128
    offs_m_16 = gl.arange(0, 128, layout=L0_short)
    offs_m_17 = gl.arange(0, 128, layout=L1_short)
    offs_m_20 = offs_m + offs_m_16
    offs_m_21 = offs_m + offs_m_17
    offs_n = gl.arange(0, 64, layout=L2_short)
    offs_n_22 = gl.arange(0, 64, layout=L3_short)
    offs_n_23 = gl.arange(0, 64, layout=L4_short)
    offs_n_24 = gl.arange(0, 64, layout=L0_short)
    mask_m_25 = offs_m_20 < N_CTX
    q_26 = gl.expand_dims(mask_m_25, 1)
    q_27 = Q + base_15
    q_28 = gl.expand_dims(offs_m_20, 1)
    q_29 = gl.expand_dims(offs_m_21, 1)
    q_31 = q_28 * stride_n
    q_33 = q_27 + q_31
    q_34 = gl.arange(0, 64, layout=L5_short)
    q_35 = gl.expand_dims(q_34, 0)
    q_36 = gl.expand_dims(offs_n, 0)
    q_37 = q_33.broadcast_to([128, 64])
    q_38 = q_35.broadcast_to([128, 64])
    q_39 = q_37 + q_38
    q_40 = q_26.broadcast_to([128, 64])
    q_41 = gl.load(q_39, mask=q_40, other=0.0)
    q_42 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_41)
    fence_async_shared()
    k_ptrs = K + base_15
    k_ptrs_44 = q_36 * stride_n
    k_ptrs_46 = k_ptrs + k_ptrs_44
    k_ptrs_47 = gl.arange(0, 64, layout=L6_short)
    k_ptrs_48 = gl.expand_dims(k_ptrs_47, 1)
    k_ptrs_49 = gl.expand_dims(offs_n_24, 1)
    k_ptrs_50 = k_ptrs_46.broadcast_to([64, 64])
    k_ptrs_51 = k_ptrs_48.broadcast_to([64, 64])
    k_ptrs_52 = k_ptrs_50 + k_ptrs_51
    v_ptrs = V + base_15
    v_ptrs_54 = k_ptrs_49 * stride_n
    v_ptrs_56 = v_ptrs + v_ptrs_54
    v_ptrs_57 = v_ptrs_56.broadcast_to([64, 64])
    v_ptrs_58 = q_35.broadcast_to([64, 64])
    v_ptrs_59 = v_ptrs_57 + v_ptrs_58
    rel = q_29.broadcast_to([128, 64])
    twill_n = (N_CTX - 0 + 64 - 1) // 64
    k_87_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_122_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    m_ij_109 = gl.full([128], float("-inf"), gl.float32, layout=L7_short)
    l_i_115 = gl.full([128], 0.0, gl.float32, layout=L7_short)
    acc_125 = gl.full([128, 64], 0.0, gl.float32, layout=L8_short)
    acc_125_p1 = acc_125
    l_i_115_p1 = l_i_115
    m_ij_109_p1 = m_ij_109
    for twill_b in range(0, twill_n):
        cur_n_69 = (0 + (twill_b - 0) * 64)  # load1_bias: stage 0, partition 0 (group 0)
        cur_n_73 = cur_n_69 + offs_n_22  # load1_bias: stage 0, partition 0 (group 0)
        rel_88 = gl.expand_dims(cur_n_73, 0)  # load1_bias: stage 0, partition 0 (group 0)
        rel_89 = rel_88.broadcast_to([128, 64])  # load1_bias: stage 0, partition 0 (group 0)
        rel_90 = rel_89 - rel  # load1_bias: stage 0, partition 0 (group 0)
        n = gl.abs(rel_90)  # load1_bias: stage 0, partition 0 (group 0)
        n_f = gl.maximum(n, gl.full([128, 64], 1, gl.int32, layout=L9_short))  # convert0_n_f: stage 0, partition 0 (group 0)
        n_f_93 = n_f.to(gl.float32)  # convert0_n_f: stage 0, partition 0 (group 0)
        val_if_large = n_f_93 / 8.0  # sfu0_val_if_large: stage 0, partition 0 (group 0)
        val_if_large_94 = gl.log2(val_if_large)  # sfu0_val_if_large: stage 0, partition 0 (group 0)
        val_if_large_95 = val_if_large_94 / 4.0  # elementwise1_val_if_large: stage 0, partition 0 (group 0)
        val_if_large_96 = val_if_large_95 * 8.0  # elementwise1_val_if_large: stage 0, partition 0 (group 0)
        val_if_large_97 = val_if_large_96.to(gl.int32)  # load1_bias: stage 0, partition 0 (group 0)
        bucket = rel_90 > 0  # load1_bias: stage 0, partition 0 (group 0)
        val_if_large_98 = val_if_large_97 + 8  # load1_bias: stage 0, partition 0 (group 0)
        bucket_91 = bucket.to(gl.int32)  # load1_bias: stage 0, partition 0 (group 0)
        is_small = n < 8  # load1_bias: stage 0, partition 0 (group 0)
        val_if_large_99 = gl.minimum(val_if_large_98, gl.full([128, 64], 15, gl.int32, layout=L9_short))  # load1_bias: stage 0, partition 0 (group 0)
        bucket_92 = bucket_91 * 16  # load1_bias: stage 0, partition 0 (group 0)
        bucket_100 = gl.where(is_small, n, val_if_large_99)  # load1_bias: stage 0, partition 0 (group 0)
        bucket_101 = bucket_92 + bucket_100  # load1_bias: stage 0, partition 0 (group 0)
        bias_102 = bucket_101 * H  # load1_bias: stage 0, partition 0 (group 0)
        bias_103 = Bias + bias_102  # load1_bias: stage 0, partition 0 (group 0)
        bias_104 = bias_103 + off_h  # load1_bias: stage 0, partition 0 (group 0)
        bias_105 = gl.load(bias_104)  # load1_bias: stage 0, partition 0 (group 0)
        acc_125_p1 = warpgroup_mma_wait(0, deps=(acc_125_p1,))
        bias_106 = gl.convert_layout(bias_105, L8_short)  # convert1_bias: stage 0, partition 0 (group 0)
        cur_n = (0 + (twill_b - 0) * 64)  # load0_k: stage 0, partition 0 (group 0)
        cur_n_72 = cur_n + offs_n  # load0_k: stage 0, partition 0 (group 0)
        k_76 = cur_n_72 < N_CTX  # load0_k: stage 0, partition 0 (group 0)
        k_81 = (0 + (twill_b - 0) * 64) * stride_n  # load0_k: stage 0, partition 0 (group 0)
        k_79 = gl.expand_dims(k_76, 0)  # load0_k: stage 0, partition 0 (group 0)
        k_82 = k_81  # load0_k: stage 0, partition 0 (group 0)
        k_84 = k_ptrs_52 + k_82  # load0_k: stage 0, partition 0 (group 0)
        k_85 = k_79.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
        k_86 = gl.load(k_84, mask=k_85, other=0.0)  # load0_k: stage 0, partition 0 (group 0)
        k_87 = k_87_st.index((twill_b - 0) % 2)  # load0_k: stage 0, partition 0 (group 0)
        k_87.store(k_86)  # load0_k: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_k: stage 0, partition 0 (group 0)
        tok_qk = warpgroup_mma(q_42, k_87, bias_106, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        cur_n_70 = (0 + (twill_b - 0) * 64)  # elementwise0_qk: stage 0, partition 0 (group 0)
        cur_n_74 = cur_n_70 + offs_n_23  # elementwise0_qk: stage 0, partition 0 (group 0)
        k_77 = cur_n_74 < N_CTX  # elementwise0_qk: stage 0, partition 0 (group 0)
        k_80 = gl.expand_dims(k_77, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk_107 = k_80.broadcast_to([128, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
        qk = warpgroup_mma_wait(0, deps=(tok_qk,))
        qk_108 = gl.where(qk_107, qk, float("-inf"))  # elementwise0_qk: stage 0, partition 0 (group 0)
        m_ij = gl.max(qk_108, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
        m_ij_109 = gl.maximum(m_ij_109_p1, m_ij)  # elementwise2_m_ij: stage 0, partition 0 (group 0)
        p = gl.expand_dims(m_ij_109, 1)  # sfu1_p: stage 0, partition 0 (group 0)
        p_110 = p.broadcast_to([128, 64])  # sfu1_p: stage 0, partition 0 (group 0)
        p_111 = qk_108 - p_110  # sfu1_p: stage 0, partition 0 (group 0)
        p_112 = gl.exp(p_111)  # sfu1_p: stage 0, partition 0 (group 0)
        alpha = m_ij_109_p1 - m_ij_109  # sfu2_alpha: stage 0, partition 0 (group 0)
        alpha_113 = gl.exp(alpha)  # sfu2_alpha: stage 0, partition 0 (group 0)
        acc_123 = p_112.to(gl.float16)  # convert2_acc: stage 0, partition 0 (group 0)
        acc_124 = gl.convert_layout(acc_123, L10_short)  # convert2_acc: stage 0, partition 0 (group 0)
        acc_116 = gl.expand_dims(alpha_113, 1)  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_117 = acc_116.broadcast_to([128, 64])  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_118 = acc_125_p1 * acc_117  # elementwise4_acc: stage 0, partition 0 (group 0)
        cur_n_71 = (0 + (twill_b - 0) * 64)  # load2_v: stage 0, partition 0 (group 0)
        cur_n_75 = cur_n_71 + offs_n_24  # load2_v: stage 0, partition 0 (group 0)
        k_78 = cur_n_75 < N_CTX  # load2_v: stage 0, partition 0 (group 0)
        k_83 = k_81  # load2_v: stage 0, partition 0 (group 0)
        v = gl.expand_dims(k_78, 1)  # load2_v: stage 0, partition 0 (group 0)
        v_119 = v_ptrs_59 + k_83  # load2_v: stage 0, partition 0 (group 0)
        v_120 = v.broadcast_to([64, 64])  # load2_v: stage 0, partition 0 (group 0)
        v_121 = gl.load(v_119, mask=v_120, other=0.0)  # load2_v: stage 0, partition 0 (group 0)
        v_122 = v_122_st.index((twill_b - 0) % 2)  # load2_v: stage 0, partition 0 (group 0)
        v_122.store(v_121)  # load2_v: stage 0, partition 0 (group 0)
        fence_async_shared()  # load2_v: stage 0, partition 0 (group 0)
        tok_acc_125 = warpgroup_mma(acc_124, v_122, acc_118, is_async=True)  # dot1_acc: stage 0, partition 0 (group 0)
        l_i_114 = gl.sum(p_112, axis=1)  # reduce1_l_i: stage 0, partition 0 (group 0)
        l_i = l_i_115_p1 * alpha_113  # elementwise3_l_i: stage 0, partition 0 (group 0)
        l_i_115 = l_i + l_i_114  # elementwise3_l_i: stage 0, partition 0 (group 0)
        acc_125 = warpgroup_mma_wait(1, deps=(tok_acc_125,))
        acc_125_p1 = acc_125
        l_i_115_p1 = l_i_115
        m_ij_109_p1 = m_ij_109
    acc_125_p1 = warpgroup_mma_wait(0, deps=(acc_125_p1,))
    q_42._keep_alive()
    k_87_st._keep_alive()
    v_122_st._keep_alive()
    acc_64 = gl.expand_dims(l_i_115_p1, 1)
    acc_65 = acc_64.broadcast_to([128, 64])
    acc_66 = acc_125_p1 / acc_65
    v0 = Out + base_15
    v2 = v0 + q_31
    v3 = v2.broadcast_to([128, 64])
    v4 = v3 + q_38
    v5 = acc_66.to(gl.float16)
    v6 = gl.convert_layout(v5, L11_short)
    gl.store(v4, v6, mask=q_40)

@gluon.jit
def twill_kernel_short(Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h):
    consumer_0_short(Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Bias', 'Out', 'N_CTX', 'H', 'stride_b', 'stride_n', 'stride_h', 'NUM_BUCKETS', 'MAX_DISTANCE', 'HEAD_DIM', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Bias', 'Out', 'N_CTX', 'H', 'stride_b', 'stride_n', 'stride_h', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_k_86', 'twill_box_v_121']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Bias', 'Out', 'N_CTX', 'H', 'stride_b', 'stride_n', 'stride_h', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'NUM_BUCKETS': 32, 'MAX_DISTANCE': 128, 'HEAD_DIM': 64, 'BLOCK_M': 128, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_k_86': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_v_121': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_k_86': ('K', ['stride_n', '1'], ['N_CTX', None], [64, 64], []), 'twill_box_v_121': ('V', ['stride_n', '1'], ['N_CTX', None], [64, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'stride_b', 'stride_n', 'stride_h']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    shapes = _box_shapes(bound)
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED), 'TWILL_TMA': shapes is not None}
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

# -- the one-partition kernel for short loops (host side) ---------------------------------------------
ARGUMENTS_short = ['Q', 'K', 'V', 'Bias', 'Out', 'N_CTX', 'H', 'stride_b', 'stride_n', 'stride_h', 'NUM_BUCKETS', 'MAX_DISTANCE', 'HEAD_DIM', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Q', 'K', 'V', 'Bias', 'Out', 'N_CTX', 'H', 'stride_b', 'stride_n', 'stride_h']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Q', 'K', 'V', 'Bias', 'Out', 'N_CTX', 'H', 'stride_b', 'stride_n', 'stride_h']   # the arguments a launch key reads
CONSTEXPRS_short = {'NUM_BUCKETS': 32, 'MAX_DISTANCE': 128, 'HEAD_DIM': 64, 'BLOCK_M': 128, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
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
