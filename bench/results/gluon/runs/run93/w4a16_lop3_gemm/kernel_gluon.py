"""_w4a16_gemm_kernel, written by twill from its joint schedule: I=89 L=77 (optimal), 949 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_62): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- a_62 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 8 warps, 192 registers per thread (needs about 120): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a_62: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared operand w_76_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 98384 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 1], [0, 2], [0, 4], [0, 8]], lane_bases=[[0, 16], [0, 32], [0, 64], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0], [32, 0]], block_bases=[], shape=[64, 128])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16, 2], threads_per_warp=[4, 8, 1], warps_per_cta=[8, 1, 1], order=[2, 1, 0]))
L10 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 1], [0, 2], [0, 4], [0, 8]], lane_bases=[[0, 16], [0, 32], [0, 64], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0], [32, 0]], block_bases=[], shape=[64, 128]))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, qw_ptr, scales_ptr, c_ptr, M, N, K, stride_am, stride_qk, stride_sk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_62, a_62_buf, w_76_st, a_62_ready, a_62_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_3 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_4 = num_pid_n // 128
        num_pid_in_group = num_pid_n_4 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_3 - first_pid_m
        group_size_m_5 = gl.minimum(group_size_m, 8)
        pid_m = pid % num_pid_in_group
        pid_m_6 = pid_m % group_size_m_5
        pid_m_7 = first_pid_m + pid_m_6
        pid_n = pid_m // group_size_m_5
        offs_m = pid_m_7 * 128
        offs_m_8 = gl.arange(0, 128, layout=L0)
        offs_m_9 = gl.arange(0, 128, layout=L1)
        offs_m_10 = gl.arange(0, 128, layout=L2)
        offs_m_11 = gl.arange(0, 128, layout=L3)
        offs_m_12 = gl.arange(0, 128, layout=L4)
        offs_m_15 = offs_m + offs_m_8
        offs_m_16 = offs_m + offs_m_9
        offs_n = pid_n * 128
        offs_n_20 = offs_n + offs_m_10
        offs_n_21 = offs_n + offs_m_11
        offs_n_22 = offs_n + offs_m_12
        a_ptrs = gl.expand_dims(offs_m_15, 1)
        a_ptrs_23 = gl.expand_dims(offs_m_16, 1)
        a_ptrs_25 = a_ptrs * stride_am
        a_ptrs_27 = a_ptr + a_ptrs_25
        a_ptrs_28 = gl.arange(0, 64, layout=L5)
        a_ptrs_29 = gl.expand_dims(a_ptrs_28, 0)
        a_ptrs_30 = a_ptrs_27.broadcast_to([128, 64])
        a_ptrs_31 = a_ptrs_29.broadcast_to([128, 64])
        a_ptrs_32 = a_ptrs_30 + a_ptrs_31
        qw_ptrs = gl.arange(0, 32, layout=L6)
        qw_ptrs_33 = gl.expand_dims(qw_ptrs, 1)
        qw_ptrs_35 = qw_ptrs_33 * stride_qk
        qw_ptrs_37 = qw_ptr + qw_ptrs_35
        qw_ptrs_38 = gl.expand_dims(offs_n_20, 0)
        qw_ptrs_39 = gl.expand_dims(offs_n_22, 0)
        qw_ptrs_40 = qw_ptrs_37.broadcast_to([32, 128])
        qw_ptrs_41 = qw_ptrs_38.broadcast_to([32, 128])
        qw_ptrs_42 = qw_ptrs_40 + qw_ptrs_41
        s_ptrs_43 = scales_ptr + offs_n_21
        v0 = K + 63
        v1 = v0 // 64
        qw_46 = qw_ptrs_38 < N
        qw_47 = qw_46.broadcast_to([32, 128])
        scale_48 = offs_n_21 < N
        qw_ptrs_49 = stride_qk * 32
        twill_n = (v1 - 0 + 1 - 1) // 1
        qw_ptrs_79 = qw_ptrs_42
        qw_ptrs_79_p1 = qw_ptrs_79
        acc_77 = gl.full([128, 128], 0.0, gl.float32, layout=L7)
        qw_ptrs_79 = qw_ptrs_79_p1 + qw_ptrs_49  # load1_qw: stage 0, partition 0 (group 0)
        qw_64 = gl.load(qw_ptrs_79_p1, mask=qw_47, other=0)  # load1_qw: stage 0, partition 0 (group 0)
        scale_65 = (0 + (0 - 0) * 1) * 64  # load2_scale: stage 0, partition 0 (group 0)
        scale_66 = scale_65 // 128  # load2_scale: stage 0, partition 0 (group 0)
        scale_67 = scale_66 * stride_sk  # load2_scale: stage 0, partition 0 (group 0)
        scale_68 = scale_67  # load2_scale: stage 0, partition 0 (group 0)
        scale_69 = s_ptrs_43 + scale_68  # load2_scale: stage 0, partition 0 (group 0)
        scale_70 = gl.load(scale_69, mask=scale_48, other=0.0)  # load2_scale: stage 0, partition 0 (group 0)
        acc_77_p1 = acc_77
        qw_64_p1 = qw_64
        qw_ptrs_79_p1 = qw_ptrs_79
        scale_70_p1 = scale_70
        for twill_b in range(1, twill_n):
            qw_ptrs_79 = qw_ptrs_79_p1 + qw_ptrs_49  # load1_qw: stage 0, partition 0 (group 0)
            qw_64 = gl.load(qw_ptrs_79_p1, mask=qw_47, other=0)  # load1_qw: stage 0, partition 0 (group 0)
            v10_r0_asm = gl.inline_asm_elementwise('\n        {\n        .reg .b32 t0, t1, zero, mask_lo, mask_hi, magic, bias_lo, sixteenth, bias_hi;\n        mov.b32 zero, 0;\n        mov.b32 mask_lo, 0x000f000f;\n        mov.b32 mask_hi, 0x00f000f0;\n        mov.b32 magic, 0x64006400;\n        mov.b32 bias_lo, 0x64086408;\n        mov.b32 sixteenth, 0x2c002c00;\n        mov.b32 bias_hi, 0xd480d480;\n        prmt.b32 t0, $4, zero, 0x4140;\n        prmt.b32 t1, $4, zero, 0x4342;\n        lop3.b32 $0, t0, mask_lo, magic, 0xea;\n        lop3.b32 $1, t1, mask_lo, magic, 0xea;\n        lop3.b32 $2, t0, mask_hi, magic, 0xea;\n        lop3.b32 $3, t1, mask_hi, magic, 0xea;\n        sub.f16x2 $0, $0, bias_lo;\n        sub.f16x2 $1, $1, bias_lo;\n        fma.rn.f16x2 $2, $2, sixteenth, bias_hi;\n        fma.rn.f16x2 $3, $3, sixteenth, bias_hi;\n        }\n        ', '=r,=r,=r,=r,r', [qw_64_p1], dtype=(gl.float16, gl.float16,), is_pure=True, pack=4)  # elementwise0: stage 1, partition 0 (group 0)
            v10_r0 = gl.convert_layout(v10_r0_asm[0], L8)  # elementwise0: stage 1, partition 0 (group 0)
            v10_r1 = gl.convert_layout(v10_r0_asm[1], L8)  # elementwise0: stage 1, partition 0 (group 0)
            scale_65 = (0 + (twill_b - 0) * 1) * 64  # load2_scale: stage 0, partition 0 (group 0)
            scale_66 = scale_65 // 128  # load2_scale: stage 0, partition 0 (group 0)
            scale_67 = scale_66 * stride_sk  # load2_scale: stage 0, partition 0 (group 0)
            scale_68 = scale_67  # load2_scale: stage 0, partition 0 (group 0)
            scale_69 = s_ptrs_43 + scale_68  # load2_scale: stage 0, partition 0 (group 0)
            scale_70 = gl.load(scale_69, mask=scale_48, other=0.0)  # load2_scale: stage 0, partition 0 (group 0)
            w = gl.convert_layout(gl.join(v10_r0, v10_r1), L9)  # elementwise1_w: stage 1, partition 0 (group 0)
            w_71 = gl.permute(w, (0, 2, 1))  # elementwise1_w: stage 1, partition 0 (group 0)
            w_72 = gl.convert_layout(gl.reshape(w_71, [64, 128]), L10)  # elementwise1_w: stage 1, partition 0 (group 0)
            w_73 = gl.expand_dims(scale_70_p1, 0)  # elementwise1_w: stage 1, partition 0 (group 0)
            w_74 = w_73.broadcast_to([64, 128])  # elementwise1_w: stage 1, partition 0 (group 0)
            w_75 = w_72 * w_74  # elementwise1_w: stage 1, partition 0 (group 0)
            w_76 = w_76_st.index((twill_b - 1) % 2)  # local_store0_w: stage 1, partition 0 (group 0)
            w_76.store(w_75)  # local_store0_w: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
            mbarrier.wait(a_62_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_acc_77 = warpgroup_mma(a_62_buf.index((twill_base + twill_b - 1) % 4), w_76, acc_77_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_77,))
            mbarrier.arrive(a_62_empty.index((twill_base + twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
            acc_77 = warpgroup_mma_wait(1, deps=(tok_acc_77,))
            acc_77_p1 = acc_77
            qw_64_p1 = qw_64
            qw_ptrs_79_p1 = qw_ptrs_79
            scale_70_p1 = scale_70
        v10_r0_asm = gl.inline_asm_elementwise('\n        {\n        .reg .b32 t0, t1, zero, mask_lo, mask_hi, magic, bias_lo, sixteenth, bias_hi;\n        mov.b32 zero, 0;\n        mov.b32 mask_lo, 0x000f000f;\n        mov.b32 mask_hi, 0x00f000f0;\n        mov.b32 magic, 0x64006400;\n        mov.b32 bias_lo, 0x64086408;\n        mov.b32 sixteenth, 0x2c002c00;\n        mov.b32 bias_hi, 0xd480d480;\n        prmt.b32 t0, $4, zero, 0x4140;\n        prmt.b32 t1, $4, zero, 0x4342;\n        lop3.b32 $0, t0, mask_lo, magic, 0xea;\n        lop3.b32 $1, t1, mask_lo, magic, 0xea;\n        lop3.b32 $2, t0, mask_hi, magic, 0xea;\n        lop3.b32 $3, t1, mask_hi, magic, 0xea;\n        sub.f16x2 $0, $0, bias_lo;\n        sub.f16x2 $1, $1, bias_lo;\n        fma.rn.f16x2 $2, $2, sixteenth, bias_hi;\n        fma.rn.f16x2 $3, $3, sixteenth, bias_hi;\n        }\n        ', '=r,=r,=r,=r,r', [qw_64_p1], dtype=(gl.float16, gl.float16,), is_pure=True, pack=4)  # elementwise0: stage 1, partition 0 (group 0)
        v10_r0 = gl.convert_layout(v10_r0_asm[0], L8)  # elementwise0: stage 1, partition 0 (group 0)
        v10_r1 = gl.convert_layout(v10_r0_asm[1], L8)  # elementwise0: stage 1, partition 0 (group 0)
        w = gl.convert_layout(gl.join(v10_r0, v10_r1), L9)  # elementwise1_w: stage 1, partition 0 (group 0)
        w_71 = gl.permute(w, (0, 2, 1))  # elementwise1_w: stage 1, partition 0 (group 0)
        w_72 = gl.convert_layout(gl.reshape(w_71, [64, 128]), L10)  # elementwise1_w: stage 1, partition 0 (group 0)
        w_73 = gl.expand_dims(scale_70_p1, 0)  # elementwise1_w: stage 1, partition 0 (group 0)
        w_74 = w_73.broadcast_to([64, 128])  # elementwise1_w: stage 1, partition 0 (group 0)
        w_75 = w_72 * w_74  # elementwise1_w: stage 1, partition 0 (group 0)
        w_76 = w_76_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_w: stage 1, partition 0 (group 0)
        w_76.store(w_75)  # local_store0_w: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
        mbarrier.wait(a_62_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_77 = warpgroup_mma(a_62_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), w_76, acc_77_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_77,))
        mbarrier.arrive(a_62_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_77 = warpgroup_mma_wait(1, deps=(tok_acc_77,))
        acc_77_p1 = acc_77
        qw_64_p1 = qw_64
        qw_ptrs_79_p2 = qw_ptrs_79_p1
        qw_ptrs_79_p1 = qw_ptrs_79
        scale_70_p1 = scale_70
        acc_77_p1 = warpgroup_mma_wait(0, deps=(acc_77_p1,))
        a_62_buf._keep_alive()
        w_76_st._keep_alive()
        mbarrier.arrive(a_62_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        c = acc_77_p1.to(gl.float16)
        c_ptrs_52 = a_ptrs_23 * stride_cm
        c_ptrs_54 = c_ptr + c_ptrs_52
        c_ptrs_55 = c_ptrs_54.broadcast_to([128, 128])
        c_ptrs_56 = qw_ptrs_39.broadcast_to([128, 128])
        c_ptrs_57 = c_ptrs_55 + c_ptrs_56
        v3 = a_ptrs_23 < M
        v5 = qw_ptrs_39 < N
        v6 = v3.broadcast_to([128, 128])
        v7 = v5.broadcast_to([128, 128])
        v8 = v6 & v7
        v9 = gl.convert_layout(c, L11)
        gl.store(c_ptrs_57, v9, mask=v8)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, qw_ptr, scales_ptr, c_ptr, M, N, K, stride_am, stride_qk, stride_sk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_62, a_62_buf, w_76_st, a_62_ready, a_62_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_3 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_4 = num_pid_n // 128
        num_pid_in_group = num_pid_n_4 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_3 - first_pid_m
        group_size_m_5 = gl.minimum(group_size_m, 8)
        pid_m = pid % num_pid_in_group
        pid_m_6 = pid_m % group_size_m_5
        pid_m_7 = first_pid_m + pid_m_6
        offs_m = pid_m_7 * 128
        offs_m_8 = gl.arange(0, 128, layout=L0)
        offs_m_15 = offs_m + offs_m_8
        a_ptrs = gl.expand_dims(offs_m_15, 1)
        a_ptrs_25 = a_ptrs * stride_am
        a_ptrs_27 = a_ptr + a_ptrs_25
        a_ptrs_28 = gl.arange(0, 64, layout=L5)
        a_ptrs_29 = gl.expand_dims(a_ptrs_28, 0)
        a_ptrs_30 = a_ptrs_27.broadcast_to([128, 64])
        a_ptrs_31 = a_ptrs_29.broadcast_to([128, 64])
        a_ptrs_32 = a_ptrs_30 + a_ptrs_31
        v0 = K + 63
        v1 = v0 // 64
        a_44 = a_ptrs < M
        a_45 = a_44.broadcast_to([128, 64])
        a_ptrs_60 = a_ptrs_32
        for acc_58 in range(0, v1, 1):
            twill_k = twill_base + (acc_58 - 0) // 1
            a_ptrs_78 = a_ptrs_60 + 64
            mbarrier.wait(a_62_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_62_ready.index(twill_k % 4), twill_box_a_62.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a_62, [1024 * group_id + 128 * pid_m_6, 64 * acc_58], a_62_ready.index(twill_k % 4), a_62_buf.index(twill_k % 4))  # load0_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_62_buf.index(twill_k % 4), a_ptrs_60, mask=a_45)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_62_ready.index(twill_k % 4), increment_count=False)
                else:
                    a_62_buf.index(twill_k % 4).store(gl.load(a_ptrs_60, mask=a_45, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_62_ready.index(twill_k % 4), count=256)
            a_ptrs_60 = a_ptrs_78
        twill_base += (v1 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(a_ptr, qw_ptr, scales_ptr, c_ptr, M, N, K, stride_am, stride_qk, stride_sk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_62, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_62_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_76_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    a_62_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_62_ready.index(i), count=1 if TWILL_TMA else 256)
    a_62_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_62_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, qw_ptr, scales_ptr, c_ptr, M, N, K, stride_am, stride_qk, stride_sk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_62, a_62_buf, w_76_st, a_62_ready, a_62_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, qw_ptr, scales_ptr, c_ptr, M, N, K, stride_am, stride_qk, stride_sk, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_62, a_62_buf, w_76_st, a_62_ready, a_62_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'qw_ptr', 'scales_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_qk', 'stride_qn', 'stride_sk', 'stride_sn', 'stride_cm', 'stride_cn', 'GROUP_SIZE', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'qw_ptr', 'scales_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_qk', 'stride_sk', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_a_62']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'qw_ptr', 'scales_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_qk', 'stride_sk', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_qn': 1, 'stride_sn': 1, 'stride_cn': 1, 'GROUP_SIZE': 128, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_62': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_62': ('a_ptr', ['stride_am', '1'], ['M', None], [128, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'M', 'N', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
