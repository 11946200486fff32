"""padded_attention_kernel, written by twill from its joint schedule: I=175 L=287 (optimal), 1192 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (qk_60_ring: 3 x 8192 B, issued 1 iteration(s) ahead, vt_59_ring: 3 x 8192 B, issued 1 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 1 stage(s) ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 236 per thread)
- shared memory: 65552 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at padmask_len_attention.py:37 (TTGIR line 56) (before the scheduled loop): written by the same partitions, its tiles loaded by the partition itself, in one stage of its own schedule (I=225, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, v, o, kpm, sm_scale, N, H, TWILL_COPY: gl.constexpr):
    twill_base = 0
    start_m = gl.program_id(0)
    bh = gl.program_id(1)
    b = bh // H
    offs_m = start_m * 128
    offs_m_6 = gl.arange(0, 128, layout=L0)
    offs_m_8 = offs_m + offs_m_6
    offs_n = gl.arange(0, 64, layout=L0)
    offs_n_9 = gl.arange(0, 64, layout=L1)
    offs_n_10 = gl.arange(0, 64, layout=L2)
    mk_11 = b * N
    mk_12 = kpm + mk_11
    twill_n = (N - 0 + 64 - 1) // 64
    cnt_50 = gl.full([64], 0, gl.int32, layout=L2)
    mk_45 = mk_12 + (0 + (0 - 0) * 64)  # load0_mk: stage 0, partition 0 (group 0)
    mk_43 = (0 + (0 - 0) * 64) + offs_n_10  # load0_mk: stage 0, partition 0 (group 0)
    mk_46 = mk_45  # load0_mk: stage 0, partition 0 (group 0)
    mk_44 = mk_43 < N  # load0_mk: stage 0, partition 0 (group 0)
    mk_47 = mk_46 + offs_n_10  # load0_mk: stage 0, partition 0 (group 0)
    mk_48 = gl.load(mk_47, mask=mk_44, other=0)  # load0_mk: stage 0, partition 0 (group 0)
    cnt_50_p1 = cnt_50
    mk_48_p1 = mk_48
    for twill_b in range(1, twill_n):
        mk_42 = (0 + (twill_b - 0) * 64)  # load0_mk: stage 0, partition 0 (group 0)
        mk_45 = mk_12 + (0 + (twill_b - 0) * 64)  # load0_mk: stage 0, partition 0 (group 0)
        mk_43 = mk_42 + offs_n_10  # load0_mk: stage 0, partition 0 (group 0)
        mk_46 = mk_45  # load0_mk: stage 0, partition 0 (group 0)
        mk_44 = mk_43 < N  # load0_mk: stage 0, partition 0 (group 0)
        mk_47 = mk_46 + offs_n_10  # load0_mk: stage 0, partition 0 (group 0)
        mk_48 = gl.load(mk_47, mask=mk_44, other=0)  # load0_mk: stage 0, partition 0 (group 0)
        cnt_49 = gl.cast(mk_48_p1, gl.int8, bitcast=True).to(gl.int32)  # broadcast0_cnt: stage 1, partition 0 (group 0)
        cnt_50 = cnt_50_p1 + cnt_49  # broadcast0_cnt: stage 1, partition 0 (group 0)
        cnt_50_p1 = cnt_50
        mk_48_p1 = mk_48
    cnt_49 = gl.cast(mk_48_p1, gl.int8, bitcast=True).to(gl.int32)  # broadcast0_cnt: stage 1, partition 0 (group 0)
    cnt_50 = cnt_50_p1 + cnt_49  # broadcast0_cnt: stage 1, partition 0 (group 0)
    cnt_50_p1 = cnt_50
    mk_48_p1 = mk_48
    twill_base += twill_n
    n_valid = gl.sum(cnt_50_p1, axis=0)
    base_14 = gl.cast(bh, gl.int64)
    base_15 = gl.cast(N, gl.int64)
    base_16 = base_14 * base_15
    base_17 = base_16 * 64
    qt_18 = gl.expand_dims(offs_m_8, 1)
    qt_20 = qt_18 < N
    qt_21 = q + base_17
    qt_22 = qt_18 * 64
    qt_24 = qt_21 + qt_22
    qt_25 = gl.arange(0, 64, layout=L3)
    qt_26 = gl.expand_dims(qt_25, 0)
    qt_27 = qt_24.broadcast_to([128, 64])
    qt_28 = qt_26.broadcast_to([128, 64])
    qt_29 = qt_27 + qt_28
    qt_30 = qt_20.broadcast_to([128, 64])
    qt_31 = gl.load(qt_29, mask=qt_30, other=0.0)
    qt_32 = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), qt_31)
    fence_async_shared()
    qk_scale = sm_scale * 1.44269502
    kt_33 = k + base_17
    kt_35 = qt_26.broadcast_to([64, 64])
    vt = v + base_17
    twill_n = (n_valid - 0 + 64 - 1) // 64
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        qk_60_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        vt_59_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        m_new_68 = gl.full([128], float("-inf"), gl.float32, layout=L4)
        cols_45 = (0 + (0 - 0) * 64) + offs_n  # load0_kt: stage 0, partition 0 (group 0)
        kt_47 = gl.expand_dims(cols_45, 1)  # load0_kt: stage 0, partition 0 (group 0)
        kt_49 = kt_47 * 64  # load0_kt: stage 0, partition 0 (group 0)
        kt_50 = kt_33 + kt_49  # load0_kt: stage 0, partition 0 (group 0)
        kt_48 = kt_47 < n_valid  # load0_kt: stage 0, partition 0 (group 0)
        kt_51 = kt_50.broadcast_to([64, 64])  # load0_kt: stage 0, partition 0 (group 0)
        kt_52 = kt_51 + kt_35  # load0_kt: stage 0, partition 0 (group 0)
        kt_53 = kt_48.broadcast_to([64, 64])  # load0_kt: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_kt: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(qk_60_ring.index((twill_base + 0 - 0) % 3), kt_52, mask=kt_53)  # load0_kt: stage 0, partition 0 (group 0)
        else:  # load0_kt: stage 0, partition 0 (group 0)
            qk_60_ring.index((twill_base + 0 - 0) % 3).store(gl.load(kt_52, mask=kt_53, other=0.0))  # load0_kt: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_kt: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        kt_49_p1 = kt_49
        kt_53_p1 = kt_53
        m_new_68_p1 = m_new_68
        l_i_75 = gl.full([128], 0.0, gl.float32, layout=L4)
        acc_81 = gl.full([128, 64], 0.0, gl.float32, layout=L5)
        cols_45 = (0 + (1 - 0) * 64) + offs_n  # load0_kt: stage 0, partition 0 (group 0)
        kt_47 = gl.expand_dims(cols_45, 1)  # load0_kt: stage 0, partition 0 (group 0)
        kt_49 = kt_47 * 64  # load0_kt: stage 0, partition 0 (group 0)
        kt_50 = kt_33 + kt_49  # load0_kt: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        qk_60 = qk_60_ring.index((twill_base + 1 - 1) % 3)  # load0_kt: stage 1, partition 0 (group 0)
        kt_48 = kt_47 < n_valid  # load0_kt: stage 0, partition 0 (group 0)
        kt_51 = kt_50.broadcast_to([64, 64])  # load0_kt: stage 0, partition 0 (group 0)
        kt_52 = kt_51 + kt_35  # load0_kt: stage 0, partition 0 (group 0)
        kt_53 = kt_48.broadcast_to([64, 64])  # load0_kt: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_kt: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(qk_60_ring.index((twill_base + 1 - 0) % 3), kt_52, mask=kt_53)  # load0_kt: stage 0, partition 0 (group 0)
        else:  # load0_kt: stage 0, partition 0 (group 0)
            qk_60_ring.index((twill_base + 1 - 0) % 3).store(gl.load(kt_52, mask=kt_53, other=0.0))  # load0_kt: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_kt: stage 0, partition 0 (group 0)
        qk_61 = qk_60.permute((1, 0))  # load0_kt: stage 1, partition 0 (group 0)
        tok_qk_62 = warpgroup_mma(qt_32, qk_61, gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        cols_46 = (0 + (1 - 1) * 64) + offs_n_9  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_62 = warpgroup_mma_wait(0, deps=(tok_qk_62,))
        qk_63 = qk_62 * qk_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_64 = gl.expand_dims(cols_46, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_65 = qk_64 < n_valid  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_66 = qk_65.broadcast_to([128, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_67 = gl.where(qk_66, qk_63, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        vt_55 = vt + kt_49_p1  # load1_vt: stage 1, partition 0 (group 0)
        vt_56 = vt_55.broadcast_to([64, 64])  # load1_vt: stage 1, partition 0 (group 0)
        vt_57 = vt_56 + kt_35  # load1_vt: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load1_vt: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(vt_59_ring.index((twill_base + 1 - 1) % 3), vt_57, mask=kt_53_p1)  # load1_vt: stage 1, partition 0 (group 0)
        else:  # load1_vt: stage 1, partition 0 (group 0)
            vt_59_ring.index((twill_base + 1 - 1) % 3).store(gl.load(vt_57, mask=kt_53_p1, other=0.0))  # load1_vt: stage 1, partition 0 (group 0)
            fence_async_shared()  # load1_vt: stage 1, partition 0 (group 0)
        m_new = gl.max(qk_67, axis=1)  # reduce0_m_new: stage 1, partition 0 (group 0)
        m_new_68 = gl.maximum(m_new_68_p1, m_new)  # elementwise1_m_new: stage 1, partition 0 (group 0)
        p = gl.expand_dims(m_new_68, 1)  # sfu0_p: stage 1, partition 0 (group 0)
        p_69 = p.broadcast_to([128, 64])  # sfu0_p: stage 1, partition 0 (group 0)
        p_70 = qk_67 - p_69  # sfu0_p: stage 1, partition 0 (group 0)
        p_71 = gl.exp2(p_70)  # sfu0_p: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_81_p1 = acc_81
        kt_49_p1 = kt_49
        kt_53_p1 = kt_53
        l_i_75_p1 = l_i_75
        m_new_68_p2 = m_new_68_p1
        m_new_68_p1 = m_new_68
        p_71_p1 = p_71
        for twill_b in range(2, twill_n):
            alpha = m_new_68_p2 - m_new_68_p1  # sfu1_alpha: stage 2, partition 0 (group 0)
            alpha_72 = gl.exp2(alpha)  # sfu1_alpha: stage 2, partition 0 (group 0)
            acc_76 = gl.expand_dims(alpha_72, 1)  # elementwise3_acc: stage 2, partition 0 (group 0)
            acc_77 = acc_76.broadcast_to([128, 64])  # elementwise3_acc: stage 2, partition 0 (group 0)
            acc_78 = acc_81_p1 * acc_77  # elementwise3_acc: stage 2, partition 0 (group 0)
            cols = (0 + (twill_b - 0) * 64)  # load0_kt: stage 0, partition 0 (group 0)
            cols_45 = cols + offs_n  # load0_kt: stage 0, partition 0 (group 0)
            kt_47 = gl.expand_dims(cols_45, 1)  # load0_kt: stage 0, partition 0 (group 0)
            kt_49 = kt_47 * 64  # load0_kt: stage 0, partition 0 (group 0)
            kt_50 = kt_33 + kt_49  # load0_kt: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            qk_60 = qk_60_ring.index((twill_base + twill_b - 1) % 3)  # load0_kt: stage 1, partition 0 (group 0)
            kt_48 = kt_47 < n_valid  # load0_kt: stage 0, partition 0 (group 0)
            kt_51 = kt_50.broadcast_to([64, 64])  # load0_kt: stage 0, partition 0 (group 0)
            kt_52 = kt_51 + kt_35  # load0_kt: stage 0, partition 0 (group 0)
            kt_53 = kt_48.broadcast_to([64, 64])  # load0_kt: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_kt: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(qk_60_ring.index((twill_base + twill_b - 0) % 3), kt_52, mask=kt_53)  # load0_kt: stage 0, partition 0 (group 0)
            else:  # load0_kt: stage 0, partition 0 (group 0)
                qk_60_ring.index((twill_base + twill_b - 0) % 3).store(gl.load(kt_52, mask=kt_53, other=0.0))  # load0_kt: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_kt: stage 0, partition 0 (group 0)
            qk_61 = qk_60.permute((1, 0))  # load0_kt: stage 1, partition 0 (group 0)
            tok_qk_62 = warpgroup_mma(qt_32, qk_61, gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
            l_i_74 = gl.sum(p_71_p1, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
            acc_79 = p_71_p1.to(gl.float16)  # convert0_acc: stage 2, partition 0 (group 0)
            acc_80 = gl.convert_layout(acc_79, L6)  # convert0_acc: stage 2, partition 0 (group 0)
            cols_44 = (0 + (twill_b - 1) * 64)  # elementwise0_qk: stage 1, partition 0 (group 0)
            cols_46 = cols_44 + offs_n_9  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_62 = warpgroup_mma_wait(0, deps=(tok_qk_62,))
            qk_63 = qk_62 * qk_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_64 = gl.expand_dims(cols_46, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_65 = qk_64 < n_valid  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_66 = qk_65.broadcast_to([128, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_67 = gl.where(qk_66, qk_63, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
            vt_55 = vt + kt_49_p1  # load1_vt: stage 1, partition 0 (group 0)
            vt_59 = vt_59_ring.index((twill_base + twill_b - 2) % 3)  # load1_vt: stage 2, partition 0 (group 0)
            vt_56 = vt_55.broadcast_to([64, 64])  # load1_vt: stage 1, partition 0 (group 0)
            vt_57 = vt_56 + kt_35  # load1_vt: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load1_vt: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(vt_59_ring.index((twill_base + twill_b - 1) % 3), vt_57, mask=kt_53_p1)  # load1_vt: stage 1, partition 0 (group 0)
            else:  # load1_vt: stage 1, partition 0 (group 0)
                vt_59_ring.index((twill_base + twill_b - 1) % 3).store(gl.load(vt_57, mask=kt_53_p1, other=0.0))  # load1_vt: stage 1, partition 0 (group 0)
                fence_async_shared()  # load1_vt: stage 1, partition 0 (group 0)
            tok_acc_81 = warpgroup_mma(acc_80, vt_59, acc_78, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
            m_new = gl.max(qk_67, axis=1)  # reduce0_m_new: stage 1, partition 0 (group 0)
            l_i_73 = l_i_75_p1 * alpha_72  # elementwise2_l_i: stage 2, partition 0 (group 0)
            l_i_75 = l_i_73 + l_i_74  # elementwise2_l_i: stage 2, partition 0 (group 0)
            m_new_68 = gl.maximum(m_new_68_p1, m_new)  # elementwise1_m_new: stage 1, partition 0 (group 0)
            p = gl.expand_dims(m_new_68, 1)  # sfu0_p: stage 1, partition 0 (group 0)
            p_69 = p.broadcast_to([128, 64])  # sfu0_p: stage 1, partition 0 (group 0)
            p_70 = qk_67 - p_69  # sfu0_p: stage 1, partition 0 (group 0)
            p_71 = gl.exp2(p_70)  # sfu0_p: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_81 = warpgroup_mma_wait(0, deps=(tok_acc_81,))
            acc_81_p1 = acc_81
            kt_49_p1 = kt_49
            kt_53_p1 = kt_53
            l_i_75_p1 = l_i_75
            m_new_68_p2 = m_new_68_p1
            m_new_68_p1 = m_new_68
            p_71_p1 = p_71
        alpha = m_new_68_p2 - m_new_68_p1  # sfu1_alpha: stage 2, partition 0 (group 0)
        alpha_72 = gl.exp2(alpha)  # sfu1_alpha: stage 2, partition 0 (group 0)
        acc_76 = gl.expand_dims(alpha_72, 1)  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_77 = acc_76.broadcast_to([128, 64])  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_78 = acc_81_p1 * acc_77  # elementwise3_acc: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        qk_60 = qk_60_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3)  # load0_kt: stage 1, partition 0 (group 0)
        qk_61 = qk_60.permute((1, 0))  # load0_kt: stage 1, partition 0 (group 0)
        tok_qk_62 = warpgroup_mma(qt_32, qk_61, gl.full([128, 64], 0.0, gl.float32, layout=L5), use_acc=False, is_async=True)  # dot0_qk: stage 1, partition 0 (group 0)
        l_i_74 = gl.sum(p_71_p1, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
        acc_79 = p_71_p1.to(gl.float16)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_80 = gl.convert_layout(acc_79, L6)  # convert0_acc: stage 2, partition 0 (group 0)
        cols_44 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # elementwise0_qk: stage 1, partition 0 (group 0)
        cols_46 = cols_44 + offs_n_9  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_62 = warpgroup_mma_wait(0, deps=(tok_qk_62,))
        qk_63 = qk_62 * qk_scale  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_64 = gl.expand_dims(cols_46, 0)  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_65 = qk_64 < n_valid  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_66 = qk_65.broadcast_to([128, 64])  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_67 = gl.where(qk_66, qk_63, float("-inf"))  # elementwise0_qk: stage 1, partition 0 (group 0)
        vt_55 = vt + kt_49_p1  # load1_vt: stage 1, partition 0 (group 0)
        vt_59 = vt_59_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 3)  # load1_vt: stage 2, partition 0 (group 0)
        vt_56 = vt_55.broadcast_to([64, 64])  # load1_vt: stage 1, partition 0 (group 0)
        vt_57 = vt_56 + kt_35  # load1_vt: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load1_vt: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(vt_59_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3), vt_57, mask=kt_53_p1)  # load1_vt: stage 1, partition 0 (group 0)
        else:  # load1_vt: stage 1, partition 0 (group 0)
            vt_59_ring.index((twill_base + (twill_n - 1 + 1) - 1) % 3).store(gl.load(vt_57, mask=kt_53_p1, other=0.0))  # load1_vt: stage 1, partition 0 (group 0)
            fence_async_shared()  # load1_vt: stage 1, partition 0 (group 0)
        tok_acc_81 = warpgroup_mma(acc_80, vt_59, acc_78, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
        m_new = gl.max(qk_67, axis=1)  # reduce0_m_new: stage 1, partition 0 (group 0)
        l_i_73 = l_i_75_p1 * alpha_72  # elementwise2_l_i: stage 2, partition 0 (group 0)
        l_i_75 = l_i_73 + l_i_74  # elementwise2_l_i: stage 2, partition 0 (group 0)
        m_new_68 = gl.maximum(m_new_68_p1, m_new)  # elementwise1_m_new: stage 1, partition 0 (group 0)
        p = gl.expand_dims(m_new_68, 1)  # sfu0_p: stage 1, partition 0 (group 0)
        p_69 = p.broadcast_to([128, 64])  # sfu0_p: stage 1, partition 0 (group 0)
        p_70 = qk_67 - p_69  # sfu0_p: stage 1, partition 0 (group 0)
        p_71 = gl.exp2(p_70)  # sfu0_p: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        acc_81 = warpgroup_mma_wait(0, deps=(tok_acc_81,))
        acc_81_p1 = acc_81
        kt_49_p1 = kt_49
        kt_53_p1 = kt_53
        l_i_75_p1 = l_i_75
        m_new_68_p2 = m_new_68_p1
        m_new_68_p1 = m_new_68
        p_71_p1 = p_71
        alpha = m_new_68_p2 - m_new_68_p1  # sfu1_alpha: stage 2, partition 0 (group 0)
        alpha_72 = gl.exp2(alpha)  # sfu1_alpha: stage 2, partition 0 (group 0)
        acc_76 = gl.expand_dims(alpha_72, 1)  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_77 = acc_76.broadcast_to([128, 64])  # elementwise3_acc: stage 2, partition 0 (group 0)
        acc_78 = acc_81_p1 * acc_77  # elementwise3_acc: stage 2, partition 0 (group 0)
        l_i_74 = gl.sum(p_71_p1, axis=1)  # reduce1_l_i: stage 2, partition 0 (group 0)
        acc_79 = p_71_p1.to(gl.float16)  # convert0_acc: stage 2, partition 0 (group 0)
        acc_80 = gl.convert_layout(acc_79, L6)  # convert0_acc: stage 2, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        vt_59 = vt_59_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 3)  # load1_vt: stage 2, partition 0 (group 0)
        tok_acc_81 = warpgroup_mma(acc_80, vt_59, acc_78, is_async=True)  # dot1_acc: stage 2, partition 0 (group 0)
        l_i_73 = l_i_75_p1 * alpha_72  # elementwise2_l_i: stage 2, partition 0 (group 0)
        l_i_75 = l_i_73 + l_i_74  # elementwise2_l_i: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_81 = warpgroup_mma_wait(0, deps=(tok_acc_81,))
        acc_81_p1 = acc_81
        kt_49_p1 = kt_49
        kt_53_p1 = kt_53
        l_i_75_p1 = l_i_75
        m_new_68_p2 = m_new_68_p1
        m_new_68_p1 = m_new_68
        p_71_p1 = p_71
        qt_32._keep_alive()
        qk_60_ring._keep_alive()
        vt_59_ring._keep_alive()
    else:
        m_i_42_w = gl.full([128], float("-inf"), gl.float32, layout=L4)
        l_i_43_w = gl.full([128], 0.0, gl.float32, layout=L4)
        arg11_w = gl.full([128, 64], 0.0, gl.float32, layout=L5)
        for acc_41_w in range(0, n_valid, 64):
            cols_45_w = acc_41_w + offs_n
            cols_46_w = acc_41_w + offs_n_9
            kt_47_w = gl.expand_dims(cols_45_w, 1)
            kt_48_w = kt_47_w < n_valid
            kt_49_w = kt_47_w * 64
            kt_50_w = kt_33 + kt_49_w
            kt_51_w = kt_50_w.broadcast_to([64, 64])
            kt_52_w = kt_51_w + kt_35
            kt_53_w = kt_48_w.broadcast_to([64, 64])
            kt_54_w = gl.load(kt_52_w, mask=kt_53_w, other=0.0)
            vt_55_w = vt + kt_49_w
            vt_56_w = vt_55_w.broadcast_to([64, 64])
            vt_57_w = vt_56_w + kt_35
            vt_58_w = gl.load(vt_57_w, mask=kt_53_w, other=0.0)
            vt_59_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), vt_58_w)
            fence_async_shared()
            qk_60_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), kt_54_w)
            fence_async_shared()
            qk_62_w = warpgroup_mma(qt_32, qk_60_w.permute((1, 0)), gl.full([128, 64], 0.0, gl.float32, layout=L5))
            qk_63_w = qk_62_w * qk_scale
            qk_64_w = gl.expand_dims(cols_46_w, 0)
            qk_65_w = qk_64_w < n_valid
            qk_66_w = qk_65_w.broadcast_to([128, 64])
            qk_67_w = gl.where(qk_66_w, qk_63_w, float("-inf"))
            m_new_w = gl.max(qk_67_w, axis=1)
            m_new_68_w = gl.maximum(m_i_42_w, m_new_w)
            p_w = gl.expand_dims(m_new_68_w, 1)
            p_69_w = p_w.broadcast_to([128, 64])
            p_70_w = qk_67_w - p_69_w
            p_71_w = gl.exp2(p_70_w)
            alpha_w = m_i_42_w - m_new_68_w
            alpha_72_w = gl.exp2(alpha_w)
            l_i_73_w = l_i_43_w * alpha_72_w
            l_i_74_w = gl.sum(p_71_w, axis=1)
            l_i_75_w = l_i_73_w + l_i_74_w
            acc_76_w = gl.expand_dims(alpha_72_w, 1)
            acc_77_w = acc_76_w.broadcast_to([128, 64])
            acc_78_w = arg11_w * acc_77_w
            acc_79_w = p_71_w.to(gl.float16)
            acc_80_w = gl.convert_layout(acc_79_w, L6)
            acc_81_w = warpgroup_mma(acc_80_w, vt_59_w, acc_78_w)
            m_i_42_w = m_new_68_w
            l_i_43_w = l_i_75_w
            arg11_w = acc_81_w
        m_new_68_p2 = m_i_42_w
        l_i_75_p1 = l_i_43_w
        acc_81_p1 = arg11_w
    acc_38 = gl.expand_dims(l_i_75_p1, 1)
    acc_39 = acc_38.broadcast_to([128, 64])
    acc_40 = acc_81_p1 / acc_39
    v0 = o + base_17
    v2 = v0 + qt_22
    v3 = v2.broadcast_to([128, 64])
    v4 = v3 + qt_28
    v5 = acc_40.to(gl.float16)
    v6 = gl.convert_layout(v5, L7)
    gl.store(v4, v6, mask=qt_30)

@gluon.jit
def twill_kernel(q, k, v, o, kpm, sm_scale, N, H, TWILL_COPY: gl.constexpr):
    consumer_0(q, k, v, o, kpm, sm_scale, N, H, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'o', 'kpm', 'sm_scale', 'N', 'H', 'BLOCK_M', 'BLOCK_N', 'D']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'o', 'kpm', 'sm_scale', 'N', 'H']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'o', 'kpm', 'sm_scale', 'N', 'H']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 64, 'D': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['k', 'v']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(N + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((N + 64 - 1) // 64): run the Triton kernel for it")
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
