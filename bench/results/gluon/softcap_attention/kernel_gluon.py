"""_softcap_fwd, written by twill from its joint schedule: I=143 L=201 (optimal), 2814 cycles per iteration predicted.

Decisions (each from the schedule):
- k_70 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- v_104 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_70, v_104): their addresses and masks spread over 128 threads
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 235): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 136 registers per thread (needs about 136): cp.async copies into the rings
- ring k_70: 3 buffers of [256, 64] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring v_104: 3 buffers of [64, 256] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles even out (`kernel.serpentine`)
- shared memory: 229488 bytes planned of 232448; maxnreg 256

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.extra import libdevice

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 256, 16]))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 256, 16]), k_width=2))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L9 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K, V, O, sm_scale, softcap, N, WINDOW, twill_g0, twill_g1, twill_g2, k_70_buf, v_104_buf, k_70_ready, k_70_empty, v_104_ready, v_104_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_m = twill_pid0
        bh = twill_pid1
        offs_m = start_m * 64
        offs_m_5 = gl.arange(0, 64, layout=L0)
        offs_m_6 = gl.arange(0, 64, layout=L1)
        offs_m_8 = gl.arange(0, 64, layout=L2)
        offs_m_11 = offs_m + offs_m_5
        offs_m_12 = offs_m + offs_m_6
        base_13 = gl.cast(bh, gl.int64)
        base_14 = gl.cast(N, gl.int64)
        base_15 = base_13 * base_14
        base_16 = base_15 * 256
        q = gl.expand_dims(offs_m_11, 1)
        q_17 = gl.expand_dims(offs_m_12, 1)
        q_19 = q < N
        q_20 = Q + base_16
        q_21 = q * 256
        q_23 = q_20 + q_21
        q_24 = gl.arange(0, 256, layout=L3)
        q_25 = gl.expand_dims(q_24, 0)
        q_26 = q_23.broadcast_to([64, 256])
        q_27 = q_25.broadcast_to([64, 256])
        q_28 = q_26 + q_27
        q_29 = q_19.broadcast_to([64, 256])
        q_30 = gl.load(q_28, mask=q_29, other=0.0)
        q_31 = gl.allocate_shared_memory(gl.bfloat16, [64, 256], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_30)
        fence_async_shared()
        lo_32 = offs_m - WINDOW
        lo_33 = lo_32 // 64
        lo_34 = lo_33 * 64
        lo_35 = gl.maximum(lo_34, 0)
        hi = start_m + 1
        hi_36 = hi * 64
        hi_37 = gl.minimum(N, hi_36)
        keep = q_17.broadcast_to([64, 64])
        twill_n = gl.maximum((hi_37 - lo_35 + 64 - 1) // 64, 0)
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            m_new_85 = gl.full([64], float("-inf"), gl.float32, layout=L1)
            l_i_92 = gl.full([64], 0.0, gl.float32, layout=L1)
            acc_108 = gl.full([64, 256], 0.0, gl.float32, layout=L4)
            mbarrier.wait(k_70_ready.index((twill_base + 0 - 0) % 3), ((twill_base + 0 - 0) // 3) & 1)
            fence_async_shared()
            tok_qk_72 = warpgroup_mma(q_31, k_70_buf.index((twill_base + 0 - 0) % 3), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            cols_56 = (lo_35 + (0 - 0) * 64)  # elementwise0_qk: stage 0, partition 0 (group 0)
            cols_59 = cols_56 + offs_m_8  # elementwise0_qk: stage 0, partition 0 (group 0)
            k_62 = gl.expand_dims(cols_59, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
            k_64 = k_62 < N  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_72 = warpgroup_mma_wait(0, deps=(tok_qk_72,))
            mbarrier.arrive(k_70_empty.index((twill_base + 0 - 0) % 3))
            qk_73 = qk_72 * sm_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_74 = qk_73 / softcap  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_75 = libdevice.tanh(qk_74)  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_76 = softcap * qk_75  # elementwise0_qk: stage 0, partition 0 (group 0)
            keep_77 = k_62.broadcast_to([64, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
            keep_78 = keep >= keep_77  # elementwise0_qk: stage 0, partition 0 (group 0)
            keep_79 = keep - keep_77  # elementwise0_qk: stage 0, partition 0 (group 0)
            keep_80 = keep_79 <= WINDOW  # elementwise0_qk: stage 0, partition 0 (group 0)
            keep_81 = keep_78 & keep_80  # elementwise0_qk: stage 0, partition 0 (group 0)
            keep_82 = k_64.broadcast_to([64, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
            keep_83 = keep_81 & keep_82  # elementwise0_qk: stage 0, partition 0 (group 0)
            qk_84 = gl.where(keep_83, qk_76, -1000000.0)  # elementwise0_qk: stage 0, partition 0 (group 0)
            acc_108_p1 = acc_108
            l_i_92_p1 = l_i_92
            m_new_85_p1 = m_new_85
            qk_84_p1 = qk_84
            for twill_b in range(1, twill_n):
                mbarrier.wait(k_70_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
                fence_async_shared()
                tok_qk_72 = warpgroup_mma(q_31, k_70_buf.index((twill_base + twill_b - 0) % 3), gl.full([64, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
                m_new = gl.max(qk_84_p1, axis=1)  # reduce0_m_new: stage 1, partition 0 (group 0)
                m_new_85 = gl.maximum(m_new_85_p1, m_new)  # elementwise1_m_new: stage 1, partition 0 (group 0)
                alpha = m_new_85_p1 - m_new_85  # sfu0_alpha: stage 1, partition 0 (group 0)
                alpha_86 = gl.exp(alpha)  # sfu0_alpha: stage 1, partition 0 (group 0)
                p = gl.expand_dims(m_new_85, 1)  # sfu1_p: stage 1, partition 0 (group 0)
                p_87 = p.broadcast_to([64, 64])  # sfu1_p: stage 1, partition 0 (group 0)
                p_88 = qk_84_p1 - p_87  # sfu1_p: stage 1, partition 0 (group 0)
                p_89 = gl.exp(p_88)  # sfu1_p: stage 1, partition 0 (group 0)
                acc_93 = gl.expand_dims(alpha_86, 1)  # convert0_acc: stage 1, partition 0 (group 0)
                acc_94 = gl.convert_layout(acc_93, L4)  # convert0_acc: stage 1, partition 0 (group 0)
                l_i_91 = gl.sum(p_89, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
                acc_106 = p_89.to(gl.bfloat16)  # convert1_acc: stage 1, partition 0 (group 0)
                acc_107 = gl.convert_layout(acc_106, L6)  # convert1_acc: stage 1, partition 0 (group 0)
                l_i_90 = l_i_92_p1 * alpha_86  # elementwise2_l_i: stage 1, partition 0 (group 0)
                l_i_92 = l_i_90 + l_i_91  # elementwise2_l_i: stage 1, partition 0 (group 0)
                acc_95 = acc_94.broadcast_to([64, 256])  # elementwise3_acc: stage 1, partition 0 (group 0)
                qk_72 = warpgroup_mma_wait(0, deps=(tok_qk_72,))
                mbarrier.arrive(k_70_empty.index((twill_base + twill_b - 0) % 3))
                acc_96 = acc_108_p1 * acc_95  # elementwise3_acc: stage 1, partition 0 (group 0)
                mbarrier.wait(v_104_ready.index((twill_base + twill_b - 1) % 3), ((twill_base + twill_b - 1) // 3) & 1)
                fence_async_shared()
                tok_acc_108 = warpgroup_mma(acc_107, v_104_buf.index((twill_base + twill_b - 1) % 3), acc_96, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
                cols_56 = (lo_35 + (twill_b - 0) * 64)  # elementwise0_qk: stage 0, partition 0 (group 0)
                cols_59 = cols_56 + offs_m_8  # elementwise0_qk: stage 0, partition 0 (group 0)
                k_62 = gl.expand_dims(cols_59, 0)  # elementwise0_qk: stage 0, partition 0 (group 0)
                k_64 = k_62 < N  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_73 = qk_72 * sm_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_74 = qk_73 / softcap  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_75 = libdevice.tanh(qk_74)  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_76 = softcap * qk_75  # elementwise0_qk: stage 0, partition 0 (group 0)
                keep_77 = k_62.broadcast_to([64, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
                keep_78 = keep >= keep_77  # elementwise0_qk: stage 0, partition 0 (group 0)
                keep_79 = keep - keep_77  # elementwise0_qk: stage 0, partition 0 (group 0)
                keep_80 = keep_79 <= WINDOW  # elementwise0_qk: stage 0, partition 0 (group 0)
                keep_81 = keep_78 & keep_80  # elementwise0_qk: stage 0, partition 0 (group 0)
                keep_82 = k_64.broadcast_to([64, 64])  # elementwise0_qk: stage 0, partition 0 (group 0)
                keep_83 = keep_81 & keep_82  # elementwise0_qk: stage 0, partition 0 (group 0)
                qk_84 = gl.where(keep_83, qk_76, -1000000.0)  # elementwise0_qk: stage 0, partition 0 (group 0)
                acc_108 = warpgroup_mma_wait(0, deps=(tok_acc_108,))
                mbarrier.arrive(v_104_empty.index((twill_base + twill_b - 1) % 3))
                acc_108_p1 = acc_108
                l_i_92_p1 = l_i_92
                m_new_85_p1 = m_new_85
                qk_84_p1 = qk_84
            m_new = gl.max(qk_84_p1, axis=1)  # reduce0_m_new: stage 1, partition 0 (group 0)
            m_new_85 = gl.maximum(m_new_85_p1, m_new)  # elementwise1_m_new: stage 1, partition 0 (group 0)
            alpha = m_new_85_p1 - m_new_85  # sfu0_alpha: stage 1, partition 0 (group 0)
            alpha_86 = gl.exp(alpha)  # sfu0_alpha: stage 1, partition 0 (group 0)
            p = gl.expand_dims(m_new_85, 1)  # sfu1_p: stage 1, partition 0 (group 0)
            p_87 = p.broadcast_to([64, 64])  # sfu1_p: stage 1, partition 0 (group 0)
            p_88 = qk_84_p1 - p_87  # sfu1_p: stage 1, partition 0 (group 0)
            p_89 = gl.exp(p_88)  # sfu1_p: stage 1, partition 0 (group 0)
            acc_93 = gl.expand_dims(alpha_86, 1)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_94 = gl.convert_layout(acc_93, L4)  # convert0_acc: stage 1, partition 0 (group 0)
            l_i_91 = gl.sum(p_89, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            acc_106 = p_89.to(gl.bfloat16)  # convert1_acc: stage 1, partition 0 (group 0)
            acc_107 = gl.convert_layout(acc_106, L6)  # convert1_acc: stage 1, partition 0 (group 0)
            l_i_90 = l_i_92_p1 * alpha_86  # elementwise2_l_i: stage 1, partition 0 (group 0)
            l_i_92 = l_i_90 + l_i_91  # elementwise2_l_i: stage 1, partition 0 (group 0)
            acc_95 = acc_94.broadcast_to([64, 256])  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_96 = acc_108_p1 * acc_95  # elementwise3_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(v_104_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 3), ((twill_base + (twill_n - 1 + 1) - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_108 = warpgroup_mma(acc_107, v_104_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 3), acc_96, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            acc_108 = warpgroup_mma_wait(0, deps=(tok_acc_108,))
            mbarrier.arrive(v_104_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 3))
            acc_108_p1 = acc_108
            l_i_92_p1 = l_i_92
            m_new_85_p1 = m_new_85
            qk_84_p1 = qk_84
            q_31._keep_alive()
            k_70_buf._keep_alive()
            v_104_buf._keep_alive()
        else:
            m_new_85_p1 = gl.full([64], float("-inf"), gl.float32, layout=L1)
            l_i_92_p1 = gl.full([64], 0.0, gl.float32, layout=L1)
            acc_108_p1 = gl.full([64, 256], 0.0, gl.float32, layout=L4)
        acc_48 = gl.expand_dims(l_i_92_p1, 1)
        acc_49 = gl.convert_layout(acc_48, L4)
        acc_50 = acc_49.broadcast_to([64, 256])
        acc_51 = acc_108_p1 / acc_50
        v0 = O + base_16
        v2 = v0 + q_21
        v3 = v2.broadcast_to([64, 256])
        v4 = v3 + q_27
        v5 = acc_51.to(gl.bfloat16)
        v6 = gl.convert_layout(v5, L7)
        gl.store(v4, v6, mask=q_29)
        twill_base += twill_n

@gluon.jit
def producer_1(Q, K, V, O, sm_scale, softcap, N, WINDOW, twill_g0, twill_g1, twill_g2, k_70_buf, v_104_buf, k_70_ready, k_70_empty, v_104_ready, v_104_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)
        start_m = twill_pid0
        bh = twill_pid1
        offs_m = start_m * 64
        offs_m_5 = gl.arange(0, 64, layout=L0)
        offs_m_7 = gl.arange(0, 64, layout=L8)
        base_13 = gl.cast(bh, gl.int64)
        base_14 = gl.cast(N, gl.int64)
        base_15 = base_13 * base_14
        base_16 = base_15 * 256
        q_24 = gl.arange(0, 256, layout=L3)
        q_25 = gl.expand_dims(q_24, 0)
        q_27 = q_25.broadcast_to([64, 256])
        lo_32 = offs_m - WINDOW
        lo_33 = lo_32 // 64
        lo_34 = lo_33 * 64
        lo_35 = gl.maximum(lo_34, 0)
        hi = start_m + 1
        hi_36 = hi * 64
        hi_37 = gl.minimum(N, hi_36)
        k_39 = K + base_16
        k_41 = gl.arange(0, 256, layout=L9)
        k_42 = gl.expand_dims(k_41, 1)
        k_43 = k_42.broadcast_to([256, 64])
        v = V + base_16
        for acc_52 in range(lo_35, hi_37, 64):
            twill_k = twill_base + (acc_52 - lo_35) // 64
            cols_58 = acc_52 + offs_m_7
            cols_60 = acc_52 + offs_m_5
            k_61 = gl.expand_dims(cols_58, 0)
            k_63 = k_61 < N
            k_65 = k_61 * 256
            k_66 = k_39 + k_65
            k_67 = k_66.broadcast_to([256, 64])
            k_68 = k_67 + k_43
            k_69 = k_63.broadcast_to([256, 64])
            v_97 = gl.expand_dims(cols_60, 1)
            v_98 = v_97 < N
            v_99 = v_97 * 256
            v_100 = v + v_99
            v_101 = v_100.broadcast_to([64, 256])
            v_102 = v_101 + q_27
            v_103 = v_98.broadcast_to([64, 256])
            mbarrier.wait(k_70_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(k_70_buf.index(twill_k % 3), k_68, mask=k_69)  # load0_k: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(k_70_ready.index(twill_k % 3), increment_count=False)
            else:
                k_70_buf.index(twill_k % 3).store(gl.load(k_68, mask=k_69, other=0.0))  # load0_k: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(k_70_ready.index(twill_k % 3), count=128)
            mbarrier.wait(v_104_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_104_buf.index(twill_k % 3), v_102, mask=v_103)  # load1_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(v_104_ready.index(twill_k % 3), increment_count=False)
            else:
                v_104_buf.index(twill_k % 3).store(gl.load(v_102, mask=v_103, other=0.0))  # load1_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_104_ready.index(twill_k % 3), count=128)
        twill_base += gl.maximum((hi_37 - lo_35 + 64 - 1) // 64, 0)

@gluon.jit
def twill_kernel(Q, K, V, O, sm_scale, softcap, N, WINDOW, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    k_70_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 256, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_104_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 256], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_70_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(k_70_ready.index(i), count=128)
    k_70_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(k_70_empty.index(i), count=1)
    v_104_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_104_ready.index(i), count=128)
    v_104_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_104_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, O, sm_scale, softcap, N, WINDOW, twill_g0, twill_g1, twill_g2, k_70_buf, v_104_buf, k_70_ready, k_70_empty, v_104_ready, v_104_empty, TWILL_COPY)),
        (producer_1, (Q, K, V, O, sm_scale, softcap, N, WINDOW, twill_g0, twill_g1, twill_g2, k_70_buf, v_104_buf, k_70_ready, k_70_empty, v_104_ready, v_104_empty, TWILL_COPY)),
    ], [4], [136])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'O', 'sm_scale', 'softcap', 'N', 'WINDOW', 'D', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'O', 'sm_scale', 'softcap', 'N', 'WINDOW', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'O', 'sm_scale', 'softcap', 'N', 'WINDOW', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'D': 256, 'BLOCK_M': 64, 'BLOCK_N': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
