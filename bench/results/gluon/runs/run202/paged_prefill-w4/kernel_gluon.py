"""paged_prefill, written by twill from its joint schedule: I=226 L=296 (optimal), 2478 cycles per iteration predicted.

Decisions (each from the schedule):
- k_55 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%bn_43), which the analysis does not follow
- v_72 copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%bn_44), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (k_55, v_72): their addresses and masks spread over 128 threads
- partition 0 (default): consumer, warp group 0, 4 warps, 256 registers per thread (needs about 236): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring k_55: 2 buffers of [128, 64] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring v_72: 2 buffers of [64, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- staged operand acc_78_st: partition 0 stores the [128, 64] f16 tile once per iteration in shared memory, read there by dot1_acc (its registers freed for the wgmma pipeline: ptxas ran out of registers with it in registers)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 114768 bytes planned of 232448; maxnreg 256
- timed at launch: the one-partition kernel `twill_kernel_short` of the same schedule (2 CTAs an SM against the producer's 1; its tiles loaded 0 iteration(s) ahead, 98304 bytes of shared memory compiled, ptxas 255 registers, ptxas spills registers (340 bytes stored, 336 loaded, 67 spill instructions in the loop); simulated for 1, 2, 3, 8 iterations: no deadlock, every phase complete) beside this one; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 127-128: one partition +9 to +35 % on three kernels, -3 to -26 % on three, at the same CTA counts; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))

@gluon.jit
def consumer_0(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, k_55_buf, v_72_buf, acc_78_st, k_55_ready, k_55_empty, v_72_ready, v_72_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        start_m = twill_pid0
        b = twill_pid1
        offs_m = start_m * 128
        offs_m_3 = gl.arange(0, 128, layout=L0)
        offs_m_5 = offs_m + offs_m_3
        q = twill_g0
        q_7 = b * q
        q_8 = q_7 * 128
        q_9 = gl.expand_dims(offs_m_5, 1)
        q_11 = q_8 + q_9
        q_13 = q_11 * stride_qt
        q_15 = Q + q_13
        q_16 = gl.arange(0, 128, layout=L1)
        q_17 = gl.expand_dims(q_16, 0)
        q_18 = q_15.broadcast_to([128, 128])
        q_19 = q_17.broadcast_to([128, 128])
        q_20 = q_18 + q_19
        q_21 = gl.load(q_20)
        q_22 = gl.allocate_shared_memory(gl.float16, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_21)
        fence_async_shared()
        twill_n = (ctx_len - 0 + 64 - 1) // 64
        m_new_59 = gl.full([128], float("-inf"), gl.float32, layout=L2)
        m_new_59_p1 = m_new_59
        l_i_66 = gl.full([128], 0.0, gl.float32, layout=L2)
        acc_80 = gl.full([128, 128], 0.0, gl.float32, layout=L3)
        mbarrier.wait(k_55_ready.index((twill_base + 0 - 0) % 2), ((twill_base + 0 - 0) // 2) & 1)
        fence_async_shared()
        tok_qk_57 = warpgroup_mma(q_22, k_55_buf.index((twill_base + 0 - 0) % 2), gl.full([128, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        qk_57 = warpgroup_mma_wait(0, deps=(tok_qk_57,))
        mbarrier.arrive(k_55_empty.index((twill_base + 0 - 0) % 2))
        qk_58 = qk_57 * sm_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
        m_new = gl.max(qk_58, axis=1)  # reduce0_m_new: stage 0, partition 0 (group 0)
        m_new_59 = gl.maximum(m_new_59_p1, m_new)  # elementwise1_m_new: stage 0, partition 0 (group 0)
        alpha = m_new_59_p1 - m_new_59  # sfu1_alpha: stage 0, partition 0 (group 0)
        alpha_63 = gl.exp(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
        p = gl.expand_dims(m_new_59, 1)  # sfu0_p: stage 0, partition 0 (group 0)
        p_60 = p.broadcast_to([128, 64])  # sfu0_p: stage 0, partition 0 (group 0)
        p_61 = qk_58 - p_60  # sfu0_p: stage 0, partition 0 (group 0)
        p_62 = gl.exp(p_61)  # sfu0_p: stage 0, partition 0 (group 0)
        acc_80_p1 = acc_80
        alpha_63_p1 = alpha_63
        l_i_66_p1 = l_i_66
        m_new_59_p1 = m_new_59
        p_62_p1 = p_62
        for twill_b in range(1, twill_n):
            acc_74 = gl.expand_dims(alpha_63_p1, 1)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_75 = gl.convert_layout(acc_74, L3)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_76 = acc_75.broadcast_to([128, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
            acc_77 = acc_80_p1 * acc_76  # elementwise3_acc: stage 1, partition 0 (group 0)
            l_i_65 = gl.sum(p_62_p1, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
            acc_78 = p_62_p1.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(v_72_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            fence_async_shared()
            acc_78_st.store(acc_78)  # dot1_acc: stage 1, partition 0 (group 0)
            fence_async_shared()  # dot1_acc: stage 1, partition 0 (group 0)
            tok_acc_80 = warpgroup_mma(acc_78_st, v_72_buf.index((twill_base + twill_b - 1) % 2), acc_77, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_i_64 = l_i_66_p1 * alpha_63_p1  # elementwise2_l_i: stage 1, partition 0 (group 0)
            l_i_66 = l_i_64 + l_i_65  # elementwise2_l_i: stage 1, partition 0 (group 0)
            mbarrier.wait(k_55_ready.index((twill_base + twill_b - 0) % 2), ((twill_base + twill_b - 0) // 2) & 1)
            fence_async_shared()
            tok_qk_57 = warpgroup_mma(q_22, k_55_buf.index((twill_base + twill_b - 0) % 2), gl.full([128, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            acc_80, qk_57 = warpgroup_mma_wait(0, deps=(tok_acc_80, tok_qk_57,))
            mbarrier.arrive(v_72_empty.index((twill_base + twill_b - 1) % 2))
            mbarrier.arrive(k_55_empty.index((twill_base + twill_b - 0) % 2))
            qk_58 = qk_57 * sm_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
            m_new = gl.max(qk_58, axis=1)  # reduce0_m_new: stage 0, partition 0 (group 0)
            m_new_59 = gl.maximum(m_new_59_p1, m_new)  # elementwise1_m_new: stage 0, partition 0 (group 0)
            alpha = m_new_59_p1 - m_new_59  # sfu1_alpha: stage 0, partition 0 (group 0)
            alpha_63 = gl.exp(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
            p = gl.expand_dims(m_new_59, 1)  # sfu0_p: stage 0, partition 0 (group 0)
            p_60 = p.broadcast_to([128, 64])  # sfu0_p: stage 0, partition 0 (group 0)
            p_61 = qk_58 - p_60  # sfu0_p: stage 0, partition 0 (group 0)
            p_62 = gl.exp(p_61)  # sfu0_p: stage 0, partition 0 (group 0)
            acc_80_p1 = acc_80
            alpha_63_p1 = alpha_63
            l_i_66_p1 = l_i_66
            m_new_59_p1 = m_new_59
            p_62_p1 = p_62
        acc_74 = gl.expand_dims(alpha_63_p1, 1)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_75 = gl.convert_layout(acc_74, L3)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_76 = acc_75.broadcast_to([128, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_77 = acc_80_p1 * acc_76  # elementwise3_acc: stage 1, partition 0 (group 0)
        l_i_65 = gl.sum(p_62_p1, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
        acc_78 = p_62_p1.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(v_72_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        fence_async_shared()
        acc_78_st.store(acc_78)  # dot1_acc: stage 1, partition 0 (group 0)
        fence_async_shared()  # dot1_acc: stage 1, partition 0 (group 0)
        tok_acc_80 = warpgroup_mma(acc_78_st, v_72_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2), acc_77, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        l_i_64 = l_i_66_p1 * alpha_63_p1  # elementwise2_l_i: stage 1, partition 0 (group 0)
        l_i_66 = l_i_64 + l_i_65  # elementwise2_l_i: stage 1, partition 0 (group 0)
        acc_80 = warpgroup_mma_wait(1, deps=(tok_acc_80,))
        acc_80_p1 = acc_80
        alpha_63_p1 = alpha_63
        l_i_66_p1 = l_i_66
        m_new_59_p2 = m_new_59_p1
        m_new_59_p1 = m_new_59
        p_62_p1 = p_62
        acc_80_p1 = warpgroup_mma_wait(0, deps=(acc_80_p1,))
        q_22._keep_alive()
        k_55_buf._keep_alive()
        acc_78_st._keep_alive()
        v_72_buf._keep_alive()
        mbarrier.arrive(v_72_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
        v1 = O + q_13
        v2 = v1.broadcast_to([128, 128])
        v3 = v2 + q_19
        v4 = gl.expand_dims(l_i_66_p1, 1)
        v5 = gl.convert_layout(v4, L3)
        v6 = v5.broadcast_to([128, 128])
        v7 = acc_80_p1 / v6
        v8 = v7.to(gl.float16)
        v9 = gl.convert_layout(v8, L5)
        gl.store(v3, v9)
        twill_base += twill_n

@gluon.jit
def producer_1(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, k_55_buf, v_72_buf, acc_78_st, k_55_ready, k_55_empty, v_72_ready, v_72_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        b = twill_pid1
        offs_n = gl.arange(0, 64, layout=L6)
        offs_n_6 = gl.arange(0, 64, layout=L0)
        q_16 = gl.arange(0, 128, layout=L1)
        q_17 = gl.expand_dims(q_16, 0)
        bn = b * stride_bloc
        bn_23 = B_Loc + bn
        k_27 = gl.arange(0, 128, layout=L7)
        k_28 = gl.expand_dims(k_27, 1)
        k_29 = k_28.broadcast_to([128, 64])
        v_31 = q_17.broadcast_to([64, 128])
        for acc_32 in range(0, ctx_len, 64):
            twill_k = twill_base + (acc_32 - 0) // 64
            bn_37 = acc_32 + offs_n
            bn_38 = acc_32 + offs_n_6
            bn_39 = bn_37 // 16
            bn_40 = bn_38 // 16
            bn_41 = bn_23 + bn_39
            bn_42 = bn_23 + bn_40
            bn_43 = gl.load(bn_41)
            bn_44 = gl.load(bn_42)
            slot = bn_43 * 16
            slot_45 = bn_44 * 16
            slot_46 = bn_37 % 16
            slot_47 = bn_38 % 16
            slot_48 = slot + slot_46
            slot_49 = slot_45 + slot_47
            k_50 = gl.expand_dims(slot_48, 0)
            k_51 = k_50 * stride_kb
            k_52 = K_cache + k_51
            k_53 = k_52.broadcast_to([128, 64])
            k_54 = k_53 + k_29
            v_67 = gl.expand_dims(slot_49, 1)
            v_68 = v_67 * stride_kb
            v_69 = V_cache + v_68
            v_70 = v_69.broadcast_to([64, 128])
            v_71 = v_70 + v_31
            mbarrier.wait(k_55_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(k_55_buf.index(twill_k % 2), k_54)  # load2_k: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(k_55_ready.index(twill_k % 2), increment_count=False)
            else:
                k_55_buf.index(twill_k % 2).store(gl.load(k_54))  # load2_k: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(k_55_ready.index(twill_k % 2), count=128)
            mbarrier.wait(v_72_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(v_72_buf.index(twill_k % 2), v_71)  # load3_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(v_72_ready.index(twill_k % 2), increment_count=False)
            else:
                v_72_buf.index(twill_k % 2).store(gl.load(v_71))  # load3_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(v_72_ready.index(twill_k % 2), count=128)
        twill_base += (ctx_len - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    k_55_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    v_72_buf = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    acc_78_st = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout.get_default_for([128, 64], gl.float16))
    k_55_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_55_ready.index(i), count=128)
    k_55_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(k_55_empty.index(i), count=1)
    v_72_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_72_ready.index(i), count=128)
    v_72_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(v_72_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, k_55_buf, v_72_buf, acc_78_st, k_55_ready, k_55_empty, v_72_ready, v_72_empty, TWILL_COPY)),
        (producer_1, (Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, twill_g0, twill_g1, twill_g2, k_55_buf, v_72_buf, acc_78_st, k_55_ready, k_55_empty, v_72_ready, v_72_empty, TWILL_COPY)),
    ], [4], [88])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L4_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L6_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L8_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc):
    start_m = gl.program_id(0)
    b = gl.program_id(1)
    offs_m = start_m * 128
    offs_m_3 = gl.arange(0, 128, layout=L0_short)
    offs_m_5 = offs_m + offs_m_3
    offs_n = gl.arange(0, 64, layout=L1_short)
    offs_n_6 = gl.arange(0, 64, layout=L0_short)
    q = gl.num_programs(0)
    q_7 = b * q
    q_8 = q_7 * 128
    q_9 = gl.expand_dims(offs_m_5, 1)
    q_11 = q_8 + q_9
    q_13 = q_11 * stride_qt
    q_15 = Q + q_13
    q_16 = gl.arange(0, 128, layout=L2_short)
    q_17 = gl.expand_dims(q_16, 0)
    q_18 = q_15.broadcast_to([128, 128])
    q_19 = q_17.broadcast_to([128, 128])
    q_20 = q_18 + q_19
    q_21 = gl.load(q_20)
    q_22 = gl.allocate_shared_memory(gl.float16, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), q_21)
    fence_async_shared()
    bn = b * stride_bloc
    bn_23 = B_Loc + bn
    k_27 = gl.arange(0, 128, layout=L3_short)
    k_28 = gl.expand_dims(k_27, 1)
    k_29 = k_28.broadcast_to([128, 64])
    v_31 = q_17.broadcast_to([64, 128])
    twill_n = (ctx_len - 0 + 64 - 1) // 64
    v_73_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    k_56_st = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    m_new_59 = gl.full([128], float("-inf"), gl.float32, layout=L4_short)
    m_new_59_p1 = m_new_59
    l_i_66 = gl.full([128], 0.0, gl.float32, layout=L4_short)
    acc_80 = gl.full([128, 128], 0.0, gl.float32, layout=L5_short)
    bn_37 = (0 + (0 - 0) * 64) + offs_n  # load0_bn: stage 0, partition 0 (group 0)
    bn_39 = bn_37 // 16  # load0_bn: stage 0, partition 0 (group 0)
    bn_41 = bn_23 + bn_39  # load0_bn: stage 0, partition 0 (group 0)
    bn_43 = gl.load(bn_41)  # load0_bn: stage 0, partition 0 (group 0)
    slot = bn_43 * 16  # load2_k: stage 0, partition 0 (group 0)
    slot_46 = bn_37 % 16  # load2_k: stage 0, partition 0 (group 0)
    slot_48 = slot + slot_46  # load2_k: stage 0, partition 0 (group 0)
    k_50 = gl.expand_dims(slot_48, 0)  # load2_k: stage 0, partition 0 (group 0)
    k_51 = k_50 * stride_kb  # load2_k: stage 0, partition 0 (group 0)
    k_52 = K_cache + k_51  # load2_k: stage 0, partition 0 (group 0)
    k_53 = k_52.broadcast_to([128, 64])  # load2_k: stage 0, partition 0 (group 0)
    k_54 = k_53 + k_29  # load2_k: stage 0, partition 0 (group 0)
    k_55 = gl.load(k_54)  # load2_k: stage 0, partition 0 (group 0)
    k_56 = k_56_st.index((0 - 0) % 2)  # load2_k: stage 0, partition 0 (group 0)
    k_56.store(k_55)  # load2_k: stage 0, partition 0 (group 0)
    fence_async_shared()  # load2_k: stage 0, partition 0 (group 0)
    tok_qk_57 = warpgroup_mma(q_22, k_56, gl.full([128, 64], 0.0, gl.float32, layout=L6_short), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
    qk_57 = warpgroup_mma_wait(0, deps=(tok_qk_57,))
    qk_58 = qk_57 * sm_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
    m_new = gl.max(qk_58, axis=1)  # reduce0_m_new: stage 0, partition 0 (group 0)
    m_new_59 = gl.maximum(m_new_59_p1, m_new)  # elementwise1_m_new: stage 0, partition 0 (group 0)
    alpha = m_new_59_p1 - m_new_59  # sfu1_alpha: stage 0, partition 0 (group 0)
    alpha_63 = gl.exp(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
    p = gl.expand_dims(m_new_59, 1)  # sfu0_p: stage 0, partition 0 (group 0)
    p_60 = p.broadcast_to([128, 64])  # sfu0_p: stage 0, partition 0 (group 0)
    p_61 = qk_58 - p_60  # sfu0_p: stage 0, partition 0 (group 0)
    p_62 = gl.exp(p_61)  # sfu0_p: stage 0, partition 0 (group 0)
    acc_80_p1 = acc_80
    alpha_63_p1 = alpha_63
    l_i_66_p1 = l_i_66
    m_new_59_p1 = m_new_59
    p_62_p1 = p_62
    for twill_b in range(1, twill_n):
        acc_74 = gl.expand_dims(alpha_63_p1, 1)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_75 = gl.convert_layout(acc_74, L5_short)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_76 = acc_75.broadcast_to([128, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
        acc_77 = acc_80_p1 * acc_76  # elementwise3_acc: stage 1, partition 0 (group 0)
        l_i_65 = gl.sum(p_62_p1, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
        acc_78 = p_62_p1.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
        acc_79 = gl.convert_layout(acc_78, L7_short)  # convert1_acc: stage 1, partition 0 (group 0)
        bn_36 = (0 + (twill_b - 1) * 64)  # load1_bn: stage 1, partition 0 (group 0)
        bn_38 = bn_36 + offs_n_6  # load1_bn: stage 1, partition 0 (group 0)
        bn_40 = bn_38 // 16  # load1_bn: stage 1, partition 0 (group 0)
        bn_42 = bn_23 + bn_40  # load1_bn: stage 1, partition 0 (group 0)
        bn_44 = gl.load(bn_42)  # load1_bn: stage 1, partition 0 (group 0)
        slot_45 = bn_44 * 16  # load3_v: stage 1, partition 0 (group 0)
        slot_47 = bn_38 % 16  # load3_v: stage 1, partition 0 (group 0)
        slot_49 = slot_45 + slot_47  # load3_v: stage 1, partition 0 (group 0)
        v_67 = gl.expand_dims(slot_49, 1)  # load3_v: stage 1, partition 0 (group 0)
        v_68 = v_67 * stride_kb  # load3_v: stage 1, partition 0 (group 0)
        v_69 = V_cache + v_68  # load3_v: stage 1, partition 0 (group 0)
        v_70 = v_69.broadcast_to([64, 128])  # load3_v: stage 1, partition 0 (group 0)
        v_71 = v_70 + v_31  # load3_v: stage 1, partition 0 (group 0)
        v_72 = gl.load(v_71)  # load3_v: stage 1, partition 0 (group 0)
        v_73 = v_73_st.index((twill_b - 1) % 2)  # load3_v: stage 1, partition 0 (group 0)
        v_73.store(v_72)  # load3_v: stage 1, partition 0 (group 0)
        fence_async_shared()  # load3_v: stage 1, partition 0 (group 0)
        tok_acc_80 = warpgroup_mma(acc_79, v_73, acc_77, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        l_i_64 = l_i_66_p1 * alpha_63_p1  # elementwise2_l_i: stage 1, partition 0 (group 0)
        l_i_66 = l_i_64 + l_i_65  # elementwise2_l_i: stage 1, partition 0 (group 0)
        bn_35 = (0 + (twill_b - 0) * 64)  # load0_bn: stage 0, partition 0 (group 0)
        bn_37 = bn_35 + offs_n  # load0_bn: stage 0, partition 0 (group 0)
        bn_39 = bn_37 // 16  # load0_bn: stage 0, partition 0 (group 0)
        bn_41 = bn_23 + bn_39  # load0_bn: stage 0, partition 0 (group 0)
        bn_43 = gl.load(bn_41)  # load0_bn: stage 0, partition 0 (group 0)
        slot = bn_43 * 16  # load2_k: stage 0, partition 0 (group 0)
        slot_46 = bn_37 % 16  # load2_k: stage 0, partition 0 (group 0)
        slot_48 = slot + slot_46  # load2_k: stage 0, partition 0 (group 0)
        k_50 = gl.expand_dims(slot_48, 0)  # load2_k: stage 0, partition 0 (group 0)
        k_51 = k_50 * stride_kb  # load2_k: stage 0, partition 0 (group 0)
        k_52 = K_cache + k_51  # load2_k: stage 0, partition 0 (group 0)
        k_53 = k_52.broadcast_to([128, 64])  # load2_k: stage 0, partition 0 (group 0)
        k_54 = k_53 + k_29  # load2_k: stage 0, partition 0 (group 0)
        k_55 = gl.load(k_54)  # load2_k: stage 0, partition 0 (group 0)
        k_56 = k_56_st.index((twill_b - 0) % 2)  # load2_k: stage 0, partition 0 (group 0)
        k_56.store(k_55)  # load2_k: stage 0, partition 0 (group 0)
        fence_async_shared()  # load2_k: stage 0, partition 0 (group 0)
        tok_qk_57 = warpgroup_mma(q_22, k_56, gl.full([128, 64], 0.0, gl.float32, layout=L6_short), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        acc_80, qk_57 = warpgroup_mma_wait(0, deps=(tok_acc_80, tok_qk_57,))
        qk_58 = qk_57 * sm_scale  # elementwise0_qk: stage 0, partition 0 (group 0)
        m_new = gl.max(qk_58, axis=1)  # reduce0_m_new: stage 0, partition 0 (group 0)
        m_new_59 = gl.maximum(m_new_59_p1, m_new)  # elementwise1_m_new: stage 0, partition 0 (group 0)
        alpha = m_new_59_p1 - m_new_59  # sfu1_alpha: stage 0, partition 0 (group 0)
        alpha_63 = gl.exp(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
        p = gl.expand_dims(m_new_59, 1)  # sfu0_p: stage 0, partition 0 (group 0)
        p_60 = p.broadcast_to([128, 64])  # sfu0_p: stage 0, partition 0 (group 0)
        p_61 = qk_58 - p_60  # sfu0_p: stage 0, partition 0 (group 0)
        p_62 = gl.exp(p_61)  # sfu0_p: stage 0, partition 0 (group 0)
        acc_80_p1 = acc_80
        alpha_63_p1 = alpha_63
        l_i_66_p1 = l_i_66
        m_new_59_p1 = m_new_59
        p_62_p1 = p_62
    acc_74 = gl.expand_dims(alpha_63_p1, 1)  # convert0_acc: stage 1, partition 0 (group 0)
    acc_75 = gl.convert_layout(acc_74, L5_short)  # convert0_acc: stage 1, partition 0 (group 0)
    acc_76 = acc_75.broadcast_to([128, 128])  # elementwise3_acc: stage 1, partition 0 (group 0)
    acc_77 = acc_80_p1 * acc_76  # elementwise3_acc: stage 1, partition 0 (group 0)
    l_i_65 = gl.sum(p_62_p1, axis=1)  # reduce1_l_i: stage 1, partition 0 (group 0)
    acc_78 = p_62_p1.to(gl.float16)  # convert1_acc: stage 1, partition 0 (group 0)
    acc_79 = gl.convert_layout(acc_78, L7_short)  # convert1_acc: stage 1, partition 0 (group 0)
    bn_36 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # load1_bn: stage 1, partition 0 (group 0)
    bn_38 = bn_36 + offs_n_6  # load1_bn: stage 1, partition 0 (group 0)
    bn_40 = bn_38 // 16  # load1_bn: stage 1, partition 0 (group 0)
    bn_42 = bn_23 + bn_40  # load1_bn: stage 1, partition 0 (group 0)
    bn_44 = gl.load(bn_42)  # load1_bn: stage 1, partition 0 (group 0)
    slot_45 = bn_44 * 16  # load3_v: stage 1, partition 0 (group 0)
    slot_47 = bn_38 % 16  # load3_v: stage 1, partition 0 (group 0)
    slot_49 = slot_45 + slot_47  # load3_v: stage 1, partition 0 (group 0)
    v_67 = gl.expand_dims(slot_49, 1)  # load3_v: stage 1, partition 0 (group 0)
    v_68 = v_67 * stride_kb  # load3_v: stage 1, partition 0 (group 0)
    v_69 = V_cache + v_68  # load3_v: stage 1, partition 0 (group 0)
    v_70 = v_69.broadcast_to([64, 128])  # load3_v: stage 1, partition 0 (group 0)
    v_71 = v_70 + v_31  # load3_v: stage 1, partition 0 (group 0)
    v_72 = gl.load(v_71)  # load3_v: stage 1, partition 0 (group 0)
    v_73 = v_73_st.index(((twill_n - 1 + 1) - 1) % 2)  # load3_v: stage 1, partition 0 (group 0)
    v_73.store(v_72)  # load3_v: stage 1, partition 0 (group 0)
    fence_async_shared()  # load3_v: stage 1, partition 0 (group 0)
    tok_acc_80 = warpgroup_mma(acc_79, v_73, acc_77, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
    l_i_64 = l_i_66_p1 * alpha_63_p1  # elementwise2_l_i: stage 1, partition 0 (group 0)
    l_i_66 = l_i_64 + l_i_65  # elementwise2_l_i: stage 1, partition 0 (group 0)
    acc_80 = warpgroup_mma_wait(0, deps=(tok_acc_80,))
    acc_80_p1 = acc_80
    alpha_63_p1 = alpha_63
    l_i_66_p1 = l_i_66
    m_new_59_p2 = m_new_59_p1
    m_new_59_p1 = m_new_59
    p_62_p1 = p_62
    q_22._keep_alive()
    k_56_st._keep_alive()
    v_73_st._keep_alive()
    v1 = O + q_13
    v2 = v1.broadcast_to([128, 128])
    v3 = v2 + q_19
    v4 = gl.expand_dims(l_i_66_p1, 1)
    v5 = gl.convert_layout(v4, L5_short)
    v6 = v5.broadcast_to([128, 128])
    v7 = acc_80_p1 / v6
    v8 = v7.to(gl.float16)
    v9 = gl.convert_layout(v8, L8_short)
    gl.store(v3, v9)

@gluon.jit
def twill_kernel_short(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc):
    consumer_0_short(Q, K_cache, V_cache, B_Loc, O, ctx_len, sm_scale, stride_qt, stride_kb, stride_bloc, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K_cache', 'V_cache', 'B_Loc', 'O', 'ctx_len', 'sm_scale', 'stride_qt', 'stride_kb', 'stride_bloc', 'BLOCK_M', 'BLOCK_N', 'D', 'PAGE']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K_cache', 'V_cache', 'B_Loc', 'O', 'ctx_len', 'sm_scale', 'stride_qt', 'stride_kb', 'stride_bloc', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K_cache', 'V_cache', 'B_Loc', 'O', 'ctx_len', 'sm_scale', 'stride_qt', 'stride_kb', 'stride_bloc', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 64, 'D': 128, 'PAGE': 16}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 256
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K_cache', 'V_cache', 'stride_kb']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(ctx_len + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((ctx_len + 64 - 1) // 64): run the Triton kernel for it")
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
ARGUMENTS_short = ['Q', 'K_cache', 'V_cache', 'B_Loc', 'O', 'ctx_len', 'sm_scale', 'stride_qt', 'stride_kb', 'stride_bloc', 'BLOCK_M', 'BLOCK_N', 'D', 'PAGE']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Q', 'K_cache', 'V_cache', 'B_Loc', 'O', 'ctx_len', 'sm_scale', 'stride_qt', 'stride_kb', 'stride_bloc']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Q', 'K_cache', 'V_cache', 'B_Loc', 'O', 'ctx_len', 'sm_scale', 'stride_qt', 'stride_kb', 'stride_bloc']   # the arguments a launch key reads
CONSTEXPRS_short = {'BLOCK_M': 128, 'BLOCK_N': 64, 'D': 128, 'PAGE': 16}         # the specialisation this kernel was generated for
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
    trips = _ev_short('(ctx_len + 64 - 1) // 64', dict(bound, **CONSTEXPRS_short))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((ctx_len + 64 - 1) // 64): run the Triton kernel for it")
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
