"""_t5_attn_fwd_kernel, written by twill from its joint schedule: I=180 L=360 (optimal), 4200 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (k_87_ring: 3 x 8192 B, issued 1 iteration(s) ahead, v_122_ring: 3 x 8192 B, issued 1 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- register-read pointer tiles copied by their consumer with cp.async (bias_105_as 2 x 32768 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 1 stage(s) ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 234 per thread)
- staged operand acc_123_st: partition 0 stores the [128, 64] f16 tile once per iteration in shared memory, read there by dot1_acc (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 147472 bytes planned of 232448; maxnreg unset (ptxas allocates)

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
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
        offs_n = gl.arange(0, 64, layout=L2)
        offs_n_22 = gl.arange(0, 64, layout=L3)
        offs_n_23 = gl.arange(0, 64, layout=L4)
        offs_n_24 = gl.arange(0, 64, layout=L0)
        mask_m_25 = offs_m_20 < N_CTX
        q_26 = gl.expand_dims(mask_m_25, 1)
        q_27 = Q + base_15
        q_28 = gl.expand_dims(offs_m_20, 1)
        q_29 = gl.expand_dims(offs_m_21, 1)
        q_31 = q_28 * stride_n
        q_33 = q_27 + q_31
        q_34 = gl.arange(0, 64, layout=L5)
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
        k_ptrs_47 = gl.arange(0, 64, layout=L6)
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
        bias_105_as = gl.allocate_shared_memory(gl.float32, [2, 128, 64], gl.SwizzledSharedLayout(vec=4, per_phase=1, max_phase=8, order=[0, 1]))
        k_87_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
        v_122_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        acc_123_st = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout.get_default_for([128, 64], gl.float16))
        m_ij_109 = gl.full([128], float("-inf"), gl.float32, layout=L7)
        l_i_115 = gl.full([128], 0.0, gl.float32, layout=L7)
        acc_125 = gl.full([128, 64], 0.0, gl.float32, layout=L8)
        cur_n_73 = (0 + (0 - 0) * 64) + offs_n_22  # load1_bias: stage 0, partition 0 (group 0)
        rel_88 = gl.expand_dims(cur_n_73, 0)  # load1_bias: stage 0, partition 0 (group 0)
        rel_89 = rel_88.broadcast_to([128, 64])  # load1_bias: stage 0, partition 0 (group 0)
        rel_90 = rel_89 - rel  # load1_bias: stage 0, partition 0 (group 0)
        n = gl.abs(rel_90)  # load1_bias: stage 0, partition 0 (group 0)
        n_f = gl.maximum(n, gl.full([128, 64], 1, gl.int32, layout=L9))  # convert0_n_f: stage 0, partition 0 (group 0)
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
        val_if_large_99 = gl.minimum(val_if_large_98, gl.full([128, 64], 15, gl.int32, layout=L9))  # load1_bias: stage 0, partition 0 (group 0)
        bucket_92 = bucket_91 * 16  # load1_bias: stage 0, partition 0 (group 0)
        bucket_100 = gl.where(is_small, n, val_if_large_99)  # load1_bias: stage 0, partition 0 (group 0)
        bucket_101 = bucket_92 + bucket_100  # load1_bias: stage 0, partition 0 (group 0)
        bias_102 = bucket_101 * H  # load1_bias: stage 0, partition 0 (group 0)
        bias_103 = Bias + bias_102  # load1_bias: stage 0, partition 0 (group 0)
        bias_104 = bias_103 + off_h  # load1_bias: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_bias: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(bias_105_as.index((twill_base + 0 - 0) % 2), bias_104)  # load1_bias: stage 0, partition 0 (group 0)
        else:  # load1_bias: stage 0, partition 0 (group 0)
            bias_105_as.index((twill_base + 0 - 0) % 2).store(gl.load(bias_104))  # load1_bias: stage 0, partition 0 (group 0)
        cur_n_72 = (0 + (0 - 0) * 64) + offs_n  # load0_k: stage 0, partition 0 (group 0)
        k_76 = cur_n_72 < N_CTX  # load0_k: stage 0, partition 0 (group 0)
        k_81 = (0 + (0 - 0) * 64) * stride_n  # load0_k: stage 0, partition 0 (group 0)
        k_79 = gl.expand_dims(k_76, 0)  # load0_k: stage 0, partition 0 (group 0)
        k_82 = k_81  # load0_k: stage 0, partition 0 (group 0)
        k_84 = k_ptrs_52 + k_82  # load0_k: stage 0, partition 0 (group 0)
        k_85 = k_79.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_k: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_87_ring.index((twill_base + 0 - 0) % 3), k_84, mask=k_85)  # load0_k: stage 0, partition 0 (group 0)
        else:  # load0_k: stage 0, partition 0 (group 0)
            k_87_ring.index((twill_base + 0 - 0) % 3).store(gl.load(k_84, mask=k_85, other=0.0))  # load0_k: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_k: stage 0, partition 0 (group 0)
        cur_n_75 = (0 + (0 - 0) * 64) + offs_n_24  # load2_v: stage 0, partition 0 (group 0)
        k_78 = cur_n_75 < N_CTX  # load2_v: stage 0, partition 0 (group 0)
        k_83 = k_81  # load2_v: stage 0, partition 0 (group 0)
        v = gl.expand_dims(k_78, 1)  # load2_v: stage 0, partition 0 (group 0)
        v_119 = v_ptrs_59 + k_83  # load2_v: stage 0, partition 0 (group 0)
        v_120 = v.broadcast_to([64, 64])  # load2_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load2_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_122_ring.index((twill_base + 0 - 0) % 3), v_119, mask=v_120)  # load2_v: stage 0, partition 0 (group 0)
        else:  # load2_v: stage 0, partition 0 (group 0)
            v_122_ring.index((twill_base + 0 - 0) % 3).store(gl.load(v_119, mask=v_120, other=0.0))  # load2_v: stage 0, partition 0 (group 0)
            fence_async_shared()  # load2_v: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        acc_125_p1 = acc_125
        l_i_115_p1 = l_i_115
        m_ij_109_p1 = m_ij_109
        for twill_b in range(1, twill_n):
            cur_n_69 = (0 + (twill_b - 0) * 64)  # load1_bias: stage 0, partition 0 (group 0)
            cur_n_73 = cur_n_69 + offs_n_22  # load1_bias: stage 0, partition 0 (group 0)
            rel_88 = gl.expand_dims(cur_n_73, 0)  # load1_bias: stage 0, partition 0 (group 0)
            rel_89 = rel_88.broadcast_to([128, 64])  # load1_bias: stage 0, partition 0 (group 0)
            rel_90 = rel_89 - rel  # load1_bias: stage 0, partition 0 (group 0)
            n = gl.abs(rel_90)  # load1_bias: stage 0, partition 0 (group 0)
            n_f = gl.maximum(n, gl.full([128, 64], 1, gl.int32, layout=L9))  # convert0_n_f: stage 0, partition 0 (group 0)
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
            val_if_large_99 = gl.minimum(val_if_large_98, gl.full([128, 64], 15, gl.int32, layout=L9))  # load1_bias: stage 0, partition 0 (group 0)
            bucket_92 = bucket_91 * 16  # load1_bias: stage 0, partition 0 (group 0)
            bucket_100 = gl.where(is_small, n, val_if_large_99)  # load1_bias: stage 0, partition 0 (group 0)
            bucket_101 = bucket_92 + bucket_100  # load1_bias: stage 0, partition 0 (group 0)
            bias_102 = bucket_101 * H  # load1_bias: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            bias_105 = bias_105_as.index((twill_base + twill_b - 1) % 2).load(L8)  # load1_bias: stage 1, partition 0 (group 0)
            bias_103 = Bias + bias_102  # load1_bias: stage 0, partition 0 (group 0)
            bias_104 = bias_103 + off_h  # load1_bias: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_bias: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(bias_105_as.index((twill_base + twill_b - 0) % 2), bias_104)  # load1_bias: stage 0, partition 0 (group 0)
            else:  # load1_bias: stage 0, partition 0 (group 0)
                bias_105_as.index((twill_base + twill_b - 0) % 2).store(gl.load(bias_104))  # load1_bias: stage 0, partition 0 (group 0)
            acc_125_p1 = warpgroup_mma_wait(0, deps=(acc_125_p1,))
            bias_106 = gl.convert_layout(bias_105, L8)  # convert1_bias: stage 1, partition 0 (group 0)
            cur_n = (0 + (twill_b - 0) * 64)  # load0_k: stage 0, partition 0 (group 0)
            cur_n_72 = cur_n + offs_n  # load0_k: stage 0, partition 0 (group 0)
            k_76 = cur_n_72 < N_CTX  # load0_k: stage 0, partition 0 (group 0)
            k_81 = (0 + (twill_b - 0) * 64) * stride_n  # load0_k: stage 0, partition 0 (group 0)
            k_87 = k_87_ring.index((twill_base + twill_b - 1) % 3)  # load0_k: stage 1, partition 0 (group 0)
            k_79 = gl.expand_dims(k_76, 0)  # load0_k: stage 0, partition 0 (group 0)
            k_82 = k_81  # load0_k: stage 0, partition 0 (group 0)
            k_84 = k_ptrs_52 + k_82  # load0_k: stage 0, partition 0 (group 0)
            k_85 = k_79.broadcast_to([64, 64])  # load0_k: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_k: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_87_ring.index((twill_base + twill_b - 0) % 3), k_84, mask=k_85)  # load0_k: stage 0, partition 0 (group 0)
            else:  # load0_k: stage 0, partition 0 (group 0)
                k_87_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(k_84, mask=k_85, other=0.0))  # load0_k: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_k: stage 0, partition 0 (group 0)
            tok_qk = warpgroup_mma(q_42, k_87, bias_106, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            cur_n_70 = (0 + (twill_b - 1) * 64)  # elementwise0_qk: stage 1, partition 0 (group 0)
            cur_n_74 = cur_n_70 + offs_n_23  # elementwise0_qk: stage 1, partition 0 (group 0)
            k_77 = cur_n_74 < N_CTX  # elementwise0_qk: stage 1, partition 0 (group 0)
            k_80 = gl.expand_dims(k_77, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_107 = k_80.broadcast_to([128, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk = warpgroup_mma_wait(0, deps=(tok_qk,))
            qk_108 = gl.where(qk_107, qk, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
            m_ij = gl.max(qk_108, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
            m_ij_109 = gl.maximum(m_ij_109_p1, m_ij)  # elementwise2_m_ij: stage 1, partition 0 (group 0)
            p = gl.expand_dims(m_ij_109, 1)  # sfu1_p: stage 1, partition 0 (group 0)
            p_110 = p.broadcast_to([128, 64])  # sfu1_p: stage 1, partition 0 (group 0)
            p_111 = qk_108 - p_110  # sfu1_p: stage 1, partition 0 (group 0)
            p_112 = gl.exp(p_111)  # sfu1_p: stage 1, partition 0 (group 0)
            alpha = m_ij_109_p1 - m_ij_109  # sfu2_alpha: stage 1, partition 0 (group 0)
            alpha_113 = gl.exp(alpha)  # sfu2_alpha: stage 1, partition 0 (group 0)
            acc_116 = gl.expand_dims(alpha_113, 1)  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_117 = acc_116.broadcast_to([128, 64])  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_118 = acc_125_p1 * acc_117  # elementwise4_acc: stage 1, partition 0 (group 0)
            acc_123 = p_112.to(gl.float16)  # convert2_acc: stage 1, partition 0 (group 0)
            cur_n_71 = (0 + (twill_b - 0) * 64)  # load2_v: stage 0, partition 0 (group 0)
            cur_n_75 = cur_n_71 + offs_n_24  # load2_v: stage 0, partition 0 (group 0)
            k_78 = cur_n_75 < N_CTX  # load2_v: stage 0, partition 0 (group 0)
            v_122 = v_122_ring.index((twill_base + twill_b - 1) % 3)  # load2_v: stage 1, partition 0 (group 0)
            k_83 = k_81  # load2_v: stage 0, partition 0 (group 0)
            v = gl.expand_dims(k_78, 1)  # load2_v: stage 0, partition 0 (group 0)
            v_119 = v_ptrs_59 + k_83  # load2_v: stage 0, partition 0 (group 0)
            v_120 = v.broadcast_to([64, 64])  # load2_v: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load2_v: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(v_122_ring.index((twill_base + twill_b - 0) % 3), v_119, mask=v_120)  # load2_v: stage 0, partition 0 (group 0)
            else:  # load2_v: stage 0, partition 0 (group 0)
                v_122_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(v_119, mask=v_120, other=0.0))  # load2_v: stage 0, partition 0 (group 0)
                fence_async_shared()  # load2_v: stage 0, partition 0 (group 0)
            acc_123_st.store(acc_123)  # dot1_acc: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot1_acc: stage 1, partition 0 (group 0)
            tok_acc_125 = warpgroup_mma(acc_123_st, v_122, acc_118, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_i_114 = gl.sum(p_112, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            l_i = l_i_115_p1 * alpha_113  # elementwise3_l_i: stage 1, partition 0 (group 0)
            l_i_115 = l_i + l_i_114  # elementwise3_l_i: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_125 = warpgroup_mma_wait(1, deps=(tok_acc_125,))
            acc_125_p1 = acc_125
            l_i_115_p1 = l_i_115
            m_ij_109_p1 = m_ij_109
        async_copy.wait_group(0)
        gl.thread_barrier()
        bias_105 = bias_105_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L8)  # load1_bias: stage 1, partition 0 (group 0)
        acc_125_p1 = warpgroup_mma_wait(0, deps=(acc_125_p1,))
        bias_106 = gl.convert_layout(bias_105, L8)  # convert1_bias: stage 1, partition 0 (group 0)
        k_87 = k_87_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load0_k: stage 1, partition 0 (group 0)
        tok_qk = warpgroup_mma(q_42, k_87, bias_106, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        cur_n_70 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_qk: stage 1, partition 0 (group 0)
        cur_n_74 = cur_n_70 + offs_n_23  # elementwise0_qk: stage 1, partition 0 (group 0)
        k_77 = cur_n_74 < N_CTX  # elementwise0_qk: stage 1, partition 0 (group 0)
        k_80 = gl.expand_dims(k_77, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_107 = k_80.broadcast_to([128, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk = warpgroup_mma_wait(0, deps=(tok_qk,))
        qk_108 = gl.where(qk_107, qk, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        m_ij = gl.max(qk_108, axis=1)  # reduce0_m_ij: stage 1, partition 0 (group 0)
        m_ij_109 = gl.maximum(m_ij_109_p1, m_ij)  # elementwise2_m_ij: stage 1, partition 0 (group 0)
        p = gl.expand_dims(m_ij_109, 1)  # sfu1_p: stage 1, partition 0 (group 0)
        p_110 = p.broadcast_to([128, 64])  # sfu1_p: stage 1, partition 0 (group 0)
        p_111 = qk_108 - p_110  # sfu1_p: stage 1, partition 0 (group 0)
        p_112 = gl.exp(p_111)  # sfu1_p: stage 1, partition 0 (group 0)
        alpha = m_ij_109_p1 - m_ij_109  # sfu2_alpha: stage 1, partition 0 (group 0)
        alpha_113 = gl.exp(alpha)  # sfu2_alpha: stage 1, partition 0 (group 0)
        acc_116 = gl.expand_dims(alpha_113, 1)  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_117 = acc_116.broadcast_to([128, 64])  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_118 = acc_125_p1 * acc_117  # elementwise4_acc: stage 1, partition 0 (group 0)
        acc_123 = p_112.to(gl.float16)  # convert2_acc: stage 1, partition 0 (group 0)
        v_122 = v_122_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load2_v: stage 1, partition 0 (group 0)
        acc_123_st.store(acc_123)  # dot1_acc: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot1_acc: stage 1, partition 0 (group 0)
        tok_acc_125 = warpgroup_mma(acc_123_st, v_122, acc_118, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        l_i_114 = gl.sum(p_112, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
        l_i = l_i_115_p1 * alpha_113  # elementwise3_l_i: stage 1, partition 0 (group 0)
        l_i_115 = l_i + l_i_114  # elementwise3_l_i: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_125 = warpgroup_mma_wait(1, deps=(tok_acc_125,))
        acc_125_p1 = acc_125
        l_i_115_p1 = l_i_115
        m_ij_109_p1 = m_ij_109
        acc_125_p1 = warpgroup_mma_wait(0, deps=(acc_125_p1,))
        q_42._keep_alive()
        k_87_ring._keep_alive()
        acc_123_st._keep_alive()
        v_122_ring._keep_alive()
        acc_64 = gl.expand_dims(l_i_115_p1, 1)
        acc_65 = acc_64.broadcast_to([128, 64])
        acc_66 = acc_125_p1 / acc_65
        v0 = Out + base_15
        v2 = v0 + q_31
        v3 = v2.broadcast_to([128, 64])
        v4 = v3 + q_38
        v5 = acc_66.to(gl.float16)
        v6 = gl.convert_layout(v5, L10)
        gl.store(v4, v6, mask=q_40)
        twill_base += twill_n

@gluon.jit
def twill_kernel(Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    consumer_0(Q, K, V, Bias, Out, N_CTX, H, stride_b, stride_n, stride_h, twill_g0, twill_g1, twill_g2, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Bias', 'Out', 'N_CTX', 'H', 'stride_b', 'stride_n', 'stride_h', 'NUM_BUCKETS', 'MAX_DISTANCE', 'HEAD_DIM', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Bias', 'Out', 'N_CTX', 'H', 'stride_b', 'stride_n', 'stride_h', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Bias', 'Out', 'N_CTX', 'H', 'stride_b', 'stride_n', 'stride_h', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'NUM_BUCKETS': 32, 'MAX_DISTANCE': 128, 'HEAD_DIM': 64, 'BLOCK_M': 128, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V', 'Bias', 'H', 'stride_b', 'stride_n', 'stride_h']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(N_CTX + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((N_CTX + 64 - 1) // 64): run the Triton kernel for it")
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
