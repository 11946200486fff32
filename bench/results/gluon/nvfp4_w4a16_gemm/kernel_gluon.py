"""nvfp4_w4a16_gemm, written by twill from its joint schedule: I=129 L=193 (optimal), 3573 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_69): their addresses and masks spread over 256 threads, 3-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- a_69 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 172): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_69: 3 buffers of [128, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared operand acc_107_st: partition 0 stores the loop's [128, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 163904 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[16, 2], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[16, 2], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 2, 16], threads_per_warp=[8, 4, 1], warps_per_cta=[8, 1, 1], order=[2, 1, 0])))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16, 2], threads_per_warp=[8, 4, 1], warps_per_cta=[8, 1, 1], order=[2, 1, 0]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 32], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2, 16], threads_per_warp=[8, 4, 1], warps_per_cta=[8, 1, 1], order=[2, 1, 0]))
L11 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, w_ptr, ws_ptr, gs_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_wsn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_69, a_69_buf, acc_107_st, a_69_ready, a_69_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_9 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_10 = num_pid_n // 128
        num_pid_in_group = num_pid_n_10 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_9 - first_pid_m
        group_size_m_11 = gl.minimum(group_size_m, 8)
        pid_m = pid % num_pid_in_group
        pid_m_12 = pid_m % group_size_m_11
        pid_m_13 = first_pid_m + pid_m_12
        pid_n = pid_m // group_size_m_11
        offs_m = pid_m_13 * 128
        offs_m_14 = gl.arange(0, 128, layout=L0)
        offs_m_15 = gl.arange(0, 128, layout=L1)
        offs_m_16 = gl.arange(0, 128, layout=L2)
        offs_m_17 = gl.arange(0, 128, layout=L3)
        offs_m_19 = offs_m + offs_m_14
        offs_n = pid_n * 128
        offs_n_23 = offs_n + offs_m_15
        offs_n_24 = offs_n + offs_m_16
        offs_n_25 = offs_n + offs_m_17
        offs_kp = gl.arange(0, 64, layout=L4)
        offs_ks = gl.arange(0, 8, layout=L5)
        mask_m_26 = offs_m_19 < M
        mask_n_29 = offs_n_23 < N
        mask_n_30 = offs_n_24 < N
        mask_n_31 = offs_n_25 < N
        global_scale = gl.load(gs_ptr)
        v0 = K + 127
        v1 = v0 // 128
        a = gl.expand_dims(mask_m_26, 1)
        a_33 = a.broadcast_to([128, 128])
        packed = gl.expand_dims(mask_n_29, 1)
        packed_40 = gl.expand_dims(mask_n_30, 1)
        packed_41 = K // 2
        packed_43 = packed.broadcast_to([128, 64])
        packed_44 = gl.expand_dims(offs_n_23, 1)
        packed_45 = gl.expand_dims(offs_n_24, 1)
        packed_47 = packed_44 * stride_wn
        packed_49 = w_ptr + packed_47
        packed_50 = packed_49.broadcast_to([128, 64])
        s_raw = K // 16
        s_raw_52 = packed_40.broadcast_to([128, 8])
        s_raw_54 = packed_45 * stride_wsn
        s_raw_56 = ws_ptr + s_raw_54
        s_raw_57 = s_raw_56.broadcast_to([128, 8])
        twill_n = (v1 - 0 + 1 - 1) // 1
        k0 = (0 + (0 - 0) * 1) * 128  # elementwise0_a: stage 0, partition 0 (group 0)
        ks = k0 // 16  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        ks_80 = ks  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        ks_81 = ks_80 + offs_ks  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        s_raw_82 = gl.expand_dims(ks_81, 0)  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        s_raw_83 = s_raw_82 < s_raw  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        s_raw_84 = s_raw_83.broadcast_to([128, 8])  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        s_raw_85 = s_raw_52 & s_raw_84  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        kp = k0 // 2  # elementwise1_packed: stage 0, partition 0 (group 0)
        kp_71 = kp  # elementwise1_packed: stage 0, partition 0 (group 0)
        kp_72 = kp_71 + offs_kp  # elementwise1_packed: stage 0, partition 0 (group 0)
        packed_73 = gl.expand_dims(kp_72, 0)  # elementwise1_packed: stage 0, partition 0 (group 0)
        packed_74 = packed_73 < packed_41  # elementwise1_packed: stage 0, partition 0 (group 0)
        packed_75 = packed_74.broadcast_to([128, 64])  # elementwise1_packed: stage 0, partition 0 (group 0)
        packed_76 = packed_43 & packed_75  # elementwise1_packed: stage 0, partition 0 (group 0)
        s_raw_86 = s_raw_82.broadcast_to([128, 8])  # load2_s_raw: stage 0, partition 0 (group 0)
        s_raw_87 = s_raw_57 + s_raw_86  # load2_s_raw: stage 0, partition 0 (group 0)
        s_raw_88 = gl.load(s_raw_87, mask=s_raw_85, other=0)  # load2_s_raw: stage 0, partition 0 (group 0)
        packed_77 = packed_73.broadcast_to([128, 64])  # load1_packed: stage 0, partition 0 (group 0)
        packed_78 = packed_50 + packed_77  # load1_packed: stage 0, partition 0 (group 0)
        packed_79 = gl.load(packed_78, mask=packed_76, other=0)  # load1_packed: stage 0, partition 0 (group 0)
        k0_p1 = k0
        packed_79_p1 = packed_79
        s_raw_88_p1 = s_raw_88
        acc_109 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
        k0 = (0 + (1 - 0) * 1) * 128  # elementwise0_a: stage 0, partition 0 (group 0)
        ks = k0 // 16  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        ks_80 = ks  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        ks_81 = ks_80 + offs_ks  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        s_raw_82 = gl.expand_dims(ks_81, 0)  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        s_raw_83 = s_raw_82 < s_raw  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        s_raw_84 = s_raw_83.broadcast_to([128, 8])  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        s_raw_85 = s_raw_52 & s_raw_84  # elementwise2_s_raw: stage 0, partition 0 (group 0)
        kp = k0 // 2  # elementwise1_packed: stage 0, partition 0 (group 0)
        kp_71 = kp  # elementwise1_packed: stage 0, partition 0 (group 0)
        kp_72 = kp_71 + offs_kp  # elementwise1_packed: stage 0, partition 0 (group 0)
        packed_73 = gl.expand_dims(kp_72, 0)  # elementwise1_packed: stage 0, partition 0 (group 0)
        packed_74 = packed_73 < packed_41  # elementwise1_packed: stage 0, partition 0 (group 0)
        packed_75 = packed_74.broadcast_to([128, 64])  # elementwise1_packed: stage 0, partition 0 (group 0)
        packed_76 = packed_43 & packed_75  # elementwise1_packed: stage 0, partition 0 (group 0)
        s_raw_86 = s_raw_82.broadcast_to([128, 8])  # load2_s_raw: stage 0, partition 0 (group 0)
        s_raw_87 = s_raw_57 + s_raw_86  # load2_s_raw: stage 0, partition 0 (group 0)
        s_raw_88 = gl.load(s_raw_87, mask=s_raw_85, other=0)  # load2_s_raw: stage 0, partition 0 (group 0)
        scale_96 = s_raw_88_p1.to(gl.float8e4nv, bitcast=True)  # convert1_scale: stage 1, partition 0 (group 0)
        scale_97 = gl.convert_layout(scale_96, L7)  # convert1_scale: stage 1, partition 0 (group 0)
        scale_98 = scale_97.to(gl.float32)  # convert1_scale: stage 1, partition 0 (group 0)
        scale_99 = scale_98 * global_scale  # elementwise4_scale: stage 1, partition 0 (group 0)
        a_61 = k0_p1  # elementwise0_a: stage 1, partition 0 (group 0)
        a_62 = a_61 + offs_m_17  # elementwise0_a: stage 1, partition 0 (group 0)
        a_63 = gl.expand_dims(a_62, 0)  # elementwise0_a: stage 1, partition 0 (group 0)
        a_64 = a_63 < K  # elementwise0_a: stage 1, partition 0 (group 0)
        a_65 = a_64.broadcast_to([128, 128])  # elementwise0_a: stage 1, partition 0 (group 0)
        a_66 = a_33 & a_65  # elementwise0_a: stage 1, partition 0 (group 0)
        packed_77 = packed_73.broadcast_to([128, 64])  # load1_packed: stage 0, partition 0 (group 0)
        packed_78 = packed_50 + packed_77  # load1_packed: stage 0, partition 0 (group 0)
        packed_79 = gl.load(packed_78, mask=packed_76, other=0)  # load1_packed: stage 0, partition 0 (group 0)
        lo = packed_79_p1 & 15  # convert0_w: stage 1, partition 0 (group 0)
        hi = gl.cast(gl.cast(packed_79_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert0_w: stage 1, partition 0 (group 0)
        codes = gl.convert_layout(gl.join(lo, hi), L8)  # convert0_w: stage 1, partition 0 (group 0)
        codes_89 = gl.convert_layout(gl.reshape(codes, [128, 128]), L9)  # convert0_w: stage 1, partition 0 (group 0)
        codes_90 = gl.cast(gl.cast(codes_89, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_w: stage 1, partition 0 (group 0)
        bits = codes_90 & 8  # convert0_w: stage 1, partition 0 (group 0)
        bits_91 = bits << 12  # convert0_w: stage 1, partition 0 (group 0)
        bits_92 = codes_90 & 7  # convert0_w: stage 1, partition 0 (group 0)
        bits_93 = bits_92 << 9  # convert0_w: stage 1, partition 0 (group 0)
        bits_94 = bits_91 | bits_93  # convert0_w: stage 1, partition 0 (group 0)
        w = bits_94.to(gl.float16, bitcast=True)  # convert0_w: stage 1, partition 0 (group 0)
        acc_109_p1 = acc_109
        k0_p1 = k0
        packed_79_p1 = packed_79
        s_raw_88_p1 = s_raw_88
        scale_99_p1 = scale_99
        w_p1 = w
        for twill_b in range(2, twill_n):
            k0 = (0 + (twill_b - 0) * 1) * 128  # elementwise0_a: stage 0, partition 0 (group 0)
            ks = k0 // 16  # elementwise2_s_raw: stage 0, partition 0 (group 0)
            ks_80 = ks  # elementwise2_s_raw: stage 0, partition 0 (group 0)
            ks_81 = ks_80 + offs_ks  # elementwise2_s_raw: stage 0, partition 0 (group 0)
            s_raw_82 = gl.expand_dims(ks_81, 0)  # elementwise2_s_raw: stage 0, partition 0 (group 0)
            s_raw_83 = s_raw_82 < s_raw  # elementwise2_s_raw: stage 0, partition 0 (group 0)
            s_raw_84 = s_raw_83.broadcast_to([128, 8])  # elementwise2_s_raw: stage 0, partition 0 (group 0)
            s_raw_85 = s_raw_52 & s_raw_84  # elementwise2_s_raw: stage 0, partition 0 (group 0)
            w_95 = w_p1 * 16384.0  # elementwise3_w: stage 2, partition 0 (group 0)
            w_100 = w_95.to(gl.float32)  # convert2_w: stage 2, partition 0 (group 0)
            w_101 = gl.convert_layout(gl.reshape(w_100, [128, 8, 16]), L10)  # elementwise5_w: stage 2, partition 0 (group 0)
            w_102 = gl.expand_dims(scale_99_p1, 2)  # elementwise5_w: stage 2, partition 0 (group 0)
            w_103 = w_102.broadcast_to([128, 8, 16])  # elementwise5_w: stage 2, partition 0 (group 0)
            w_104 = w_101 * w_103  # elementwise5_w: stage 2, partition 0 (group 0)
            w_105 = gl.convert_layout(gl.reshape(w_104, [128, 128]), L9)  # convert3_w: stage 2, partition 0 (group 0)
            w_106 = w_105.to(gl.float16)  # convert3_w: stage 2, partition 0 (group 0)
            kp = k0 // 2  # elementwise1_packed: stage 0, partition 0 (group 0)
            kp_71 = kp  # elementwise1_packed: stage 0, partition 0 (group 0)
            kp_72 = kp_71 + offs_kp  # elementwise1_packed: stage 0, partition 0 (group 0)
            packed_73 = gl.expand_dims(kp_72, 0)  # elementwise1_packed: stage 0, partition 0 (group 0)
            packed_74 = packed_73 < packed_41  # elementwise1_packed: stage 0, partition 0 (group 0)
            packed_75 = packed_74.broadcast_to([128, 64])  # elementwise1_packed: stage 0, partition 0 (group 0)
            packed_76 = packed_43 & packed_75  # elementwise1_packed: stage 0, partition 0 (group 0)
            acc_107 = acc_107_st.index((twill_b - 2) % 2)  # local_store0_acc: stage 2, partition 0 (group 0)
            acc_107.store(w_106)  # local_store0_acc: stage 2, partition 0 (group 0)
            fence_async_shared()  # local_store0_acc: stage 2, partition 0 (group 0)
            s_raw_86 = s_raw_82.broadcast_to([128, 8])  # load2_s_raw: stage 0, partition 0 (group 0)
            s_raw_87 = s_raw_57 + s_raw_86  # load2_s_raw: stage 0, partition 0 (group 0)
            s_raw_88 = gl.load(s_raw_87, mask=s_raw_85, other=0)  # load2_s_raw: stage 0, partition 0 (group 0)
            scale_96 = s_raw_88_p1.to(gl.float8e4nv, bitcast=True)  # convert1_scale: stage 1, partition 0 (group 0)
            scale_97 = gl.convert_layout(scale_96, L7)  # convert1_scale: stage 1, partition 0 (group 0)
            scale_98 = scale_97.to(gl.float32)  # convert1_scale: stage 1, partition 0 (group 0)
            acc_108 = acc_107.permute((1, 0))  # dot0_acc: stage 2, partition 0 (group 0)
            mbarrier.wait(a_69_ready.index((twill_base + twill_b - 2) % 3), ((twill_base + twill_b - 2) // 3) & 1)
            fence_async_shared()
            tok_acc_109 = warpgroup_mma(a_69_buf.index((twill_base + twill_b - 2) % 3), acc_108, acc_109_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            scale_99 = scale_98 * global_scale  # elementwise4_scale: stage 1, partition 0 (group 0)
            a_61 = k0_p1  # elementwise0_a: stage 1, partition 0 (group 0)
            a_62 = a_61 + offs_m_17  # elementwise0_a: stage 1, partition 0 (group 0)
            a_63 = gl.expand_dims(a_62, 0)  # elementwise0_a: stage 1, partition 0 (group 0)
            a_64 = a_63 < K  # elementwise0_a: stage 1, partition 0 (group 0)
            a_65 = a_64.broadcast_to([128, 128])  # elementwise0_a: stage 1, partition 0 (group 0)
            a_66 = a_33 & a_65  # elementwise0_a: stage 1, partition 0 (group 0)
            packed_77 = packed_73.broadcast_to([128, 64])  # load1_packed: stage 0, partition 0 (group 0)
            packed_78 = packed_50 + packed_77  # load1_packed: stage 0, partition 0 (group 0)
            packed_79 = gl.load(packed_78, mask=packed_76, other=0)  # load1_packed: stage 0, partition 0 (group 0)
            lo = packed_79_p1 & 15  # convert0_w: stage 1, partition 0 (group 0)
            hi = gl.cast(gl.cast(packed_79_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert0_w: stage 1, partition 0 (group 0)
            codes = gl.convert_layout(gl.join(lo, hi), L8)  # convert0_w: stage 1, partition 0 (group 0)
            codes_89 = gl.convert_layout(gl.reshape(codes, [128, 128]), L9)  # convert0_w: stage 1, partition 0 (group 0)
            codes_90 = gl.cast(gl.cast(codes_89, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_w: stage 1, partition 0 (group 0)
            bits = codes_90 & 8  # convert0_w: stage 1, partition 0 (group 0)
            bits_91 = bits << 12  # convert0_w: stage 1, partition 0 (group 0)
            bits_92 = codes_90 & 7  # convert0_w: stage 1, partition 0 (group 0)
            bits_93 = bits_92 << 9  # convert0_w: stage 1, partition 0 (group 0)
            bits_94 = bits_91 | bits_93  # convert0_w: stage 1, partition 0 (group 0)
            w = bits_94.to(gl.float16, bitcast=True)  # convert0_w: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_109,))
            mbarrier.arrive(a_69_empty.index((twill_base + twill_b - 1 - 2) % 3), pred=(twill_b - 1 - 2) >= 0)
            acc_109 = warpgroup_mma_wait(1, deps=(tok_acc_109,))
            acc_109_p1 = acc_109
            k0_p1 = k0
            packed_79_p1 = packed_79
            s_raw_88_p1 = s_raw_88
            scale_99_p1 = scale_99
            w_p1 = w
        w_95 = w_p1 * 16384.0  # elementwise3_w: stage 2, partition 0 (group 0)
        w_100 = w_95.to(gl.float32)  # convert2_w: stage 2, partition 0 (group 0)
        w_101 = gl.convert_layout(gl.reshape(w_100, [128, 8, 16]), L10)  # elementwise5_w: stage 2, partition 0 (group 0)
        w_102 = gl.expand_dims(scale_99_p1, 2)  # elementwise5_w: stage 2, partition 0 (group 0)
        w_103 = w_102.broadcast_to([128, 8, 16])  # elementwise5_w: stage 2, partition 0 (group 0)
        w_104 = w_101 * w_103  # elementwise5_w: stage 2, partition 0 (group 0)
        w_105 = gl.convert_layout(gl.reshape(w_104, [128, 128]), L9)  # convert3_w: stage 2, partition 0 (group 0)
        w_106 = w_105.to(gl.float16)  # convert3_w: stage 2, partition 0 (group 0)
        acc_107 = acc_107_st.index(((twill_n - 1 + 1) - 2) % 2)  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_107.store(w_106)  # local_store0_acc: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 2, partition 0 (group 0)
        scale_96 = s_raw_88_p1.to(gl.float8e4nv, bitcast=True)  # convert1_scale: stage 1, partition 0 (group 0)
        scale_97 = gl.convert_layout(scale_96, L7)  # convert1_scale: stage 1, partition 0 (group 0)
        scale_98 = scale_97.to(gl.float32)  # convert1_scale: stage 1, partition 0 (group 0)
        acc_108 = acc_107.permute((1, 0))  # dot0_acc: stage 2, partition 0 (group 0)
        mbarrier.wait(a_69_ready.index((twill_base + (twill_n - 1 + 1) - 2) % 3), ((twill_base + (twill_n - 1 + 1) - 2) // 3) & 1)
        fence_async_shared()
        tok_acc_109 = warpgroup_mma(a_69_buf.index((twill_base + (twill_n - 1 + 1) - 2) % 3), acc_108, acc_109_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        scale_99 = scale_98 * global_scale  # elementwise4_scale: stage 1, partition 0 (group 0)
        a_61 = k0_p1  # elementwise0_a: stage 1, partition 0 (group 0)
        a_62 = a_61 + offs_m_17  # elementwise0_a: stage 1, partition 0 (group 0)
        a_63 = gl.expand_dims(a_62, 0)  # elementwise0_a: stage 1, partition 0 (group 0)
        a_64 = a_63 < K  # elementwise0_a: stage 1, partition 0 (group 0)
        a_65 = a_64.broadcast_to([128, 128])  # elementwise0_a: stage 1, partition 0 (group 0)
        a_66 = a_33 & a_65  # elementwise0_a: stage 1, partition 0 (group 0)
        lo = packed_79_p1 & 15  # convert0_w: stage 1, partition 0 (group 0)
        hi = gl.cast(gl.cast(packed_79_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert0_w: stage 1, partition 0 (group 0)
        codes = gl.convert_layout(gl.join(lo, hi), L8)  # convert0_w: stage 1, partition 0 (group 0)
        codes_89 = gl.convert_layout(gl.reshape(codes, [128, 128]), L9)  # convert0_w: stage 1, partition 0 (group 0)
        codes_90 = gl.cast(gl.cast(codes_89, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert0_w: stage 1, partition 0 (group 0)
        bits = codes_90 & 8  # convert0_w: stage 1, partition 0 (group 0)
        bits_91 = bits << 12  # convert0_w: stage 1, partition 0 (group 0)
        bits_92 = codes_90 & 7  # convert0_w: stage 1, partition 0 (group 0)
        bits_93 = bits_92 << 9  # convert0_w: stage 1, partition 0 (group 0)
        bits_94 = bits_91 | bits_93  # convert0_w: stage 1, partition 0 (group 0)
        w = bits_94.to(gl.float16, bitcast=True)  # convert0_w: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_109,))
        mbarrier.arrive(a_69_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 2) % 3), pred=((twill_n - 1 + 1) - 1 - 2) >= 0)
        acc_109 = warpgroup_mma_wait(1, deps=(tok_acc_109,))
        acc_109_p1 = acc_109
        k0_p1 = k0
        packed_79_p1 = packed_79
        s_raw_88_p1 = s_raw_88
        scale_99_p1 = scale_99
        w_p1 = w
        w_95 = w_p1 * 16384.0  # elementwise3_w: stage 2, partition 0 (group 0)
        w_100 = w_95.to(gl.float32)  # convert2_w: stage 2, partition 0 (group 0)
        w_101 = gl.convert_layout(gl.reshape(w_100, [128, 8, 16]), L10)  # elementwise5_w: stage 2, partition 0 (group 0)
        w_102 = gl.expand_dims(scale_99_p1, 2)  # elementwise5_w: stage 2, partition 0 (group 0)
        w_103 = w_102.broadcast_to([128, 8, 16])  # elementwise5_w: stage 2, partition 0 (group 0)
        w_104 = w_101 * w_103  # elementwise5_w: stage 2, partition 0 (group 0)
        w_105 = gl.convert_layout(gl.reshape(w_104, [128, 128]), L9)  # convert3_w: stage 2, partition 0 (group 0)
        w_106 = w_105.to(gl.float16)  # convert3_w: stage 2, partition 0 (group 0)
        acc_107 = acc_107_st.index(((twill_n - 1 + 2) - 2) % 2)  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_107.store(w_106)  # local_store0_acc: stage 2, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 2, partition 0 (group 0)
        acc_108 = acc_107.permute((1, 0))  # dot0_acc: stage 2, partition 0 (group 0)
        mbarrier.wait(a_69_ready.index((twill_base + (twill_n - 1 + 2) - 2) % 3), ((twill_base + (twill_n - 1 + 2) - 2) // 3) & 1)
        fence_async_shared()
        tok_acc_109 = warpgroup_mma(a_69_buf.index((twill_base + (twill_n - 1 + 2) - 2) % 3), acc_108, acc_109_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_109,))
        mbarrier.arrive(a_69_empty.index((twill_base + (twill_n - 1 + 2) - 1 - 2) % 3), pred=((twill_n - 1 + 2) - 1 - 2) >= 0)
        acc_109 = warpgroup_mma_wait(1, deps=(tok_acc_109,))
        acc_109_p1 = acc_109
        k0_p1 = k0
        packed_79_p1 = packed_79
        s_raw_88_p1 = s_raw_88
        scale_99_p1 = scale_99
        w_p1 = w
        acc_109_p1 = warpgroup_mma_wait(0, deps=(acc_109_p1,))
        a_69_buf._keep_alive()
        acc_107_st._keep_alive()
        mbarrier.arrive(a_69_empty.index((twill_base + (twill_n - 1 + 2) - 2) % 3))
        c = acc_109_p1.to(gl.float16)
        v2 = gl.expand_dims(mask_m_26, 1)
        v3 = gl.expand_dims(mask_n_31, 0)
        v4 = v2.broadcast_to([128, 128])
        v5 = v3.broadcast_to([128, 128])
        v6 = v4 & v5
        v7 = gl.expand_dims(offs_m_19, 1)
        v9 = v7 * stride_cm
        v11 = c_ptr + v9
        v12 = gl.expand_dims(offs_n_25, 0)
        v13 = v11.broadcast_to([128, 128])
        v14 = v12.broadcast_to([128, 128])
        v15 = v13 + v14
        v16 = gl.convert_layout(c, L11)
        gl.store(v15, v16, mask=v6)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, w_ptr, ws_ptr, gs_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_wsn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_69, a_69_buf, acc_107_st, a_69_ready, a_69_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_9 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_10 = num_pid_n // 128
        num_pid_in_group = num_pid_n_10 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_9 - first_pid_m
        group_size_m_11 = gl.minimum(group_size_m, 8)
        pid_m = pid % num_pid_in_group
        pid_m_12 = pid_m % group_size_m_11
        pid_m_13 = first_pid_m + pid_m_12
        offs_m = pid_m_13 * 128
        offs_m_14 = gl.arange(0, 128, layout=L0)
        offs_m_17 = gl.arange(0, 128, layout=L3)
        offs_m_19 = offs_m + offs_m_14
        mask_m_26 = offs_m_19 < M
        v0 = K + 127
        v1 = v0 // 128
        a = gl.expand_dims(mask_m_26, 1)
        a_33 = a.broadcast_to([128, 128])
        a_34 = gl.expand_dims(offs_m_19, 1)
        a_36 = a_34 * stride_am
        a_38 = a_ptr + a_36
        a_39 = a_38.broadcast_to([128, 128])
        for acc_59 in range(0, v1, 1):
            twill_k = twill_base + (acc_59 - 0) // 1
            k0 = acc_59 * 128
            a_62 = k0 + offs_m_17
            a_63 = gl.expand_dims(a_62, 0)
            a_64 = a_63 < K
            a_65 = a_64.broadcast_to([128, 128])
            a_66 = a_33 & a_65
            a_67 = a_63.broadcast_to([128, 128])
            a_68 = a_39 + a_67
            mbarrier.wait(a_69_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_69_ready.index(twill_k % 3), twill_box_a_69.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a_69, [1024 * group_id + 128 * pid_m_12, 128 * acc_59], a_69_ready.index(twill_k % 3), a_69_buf.index(twill_k % 3))  # load0_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_69_buf.index(twill_k % 3), a_68, mask=a_66)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_69_ready.index(twill_k % 3), increment_count=False)
                else:
                    a_69_buf.index(twill_k % 3).store(gl.load(a_68, mask=a_66, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_69_ready.index(twill_k % 3), count=256)
        twill_base += (v1 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(a_ptr, w_ptr, ws_ptr, gs_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_wsn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_69, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_69_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    acc_107_st = gl.allocate_shared_memory(gl.float16, [2, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_69_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_69_ready.index(i), count=1 if TWILL_TMA else 256)
    a_69_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_69_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, w_ptr, ws_ptr, gs_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_wsn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_69, a_69_buf, acc_107_st, a_69_ready, a_69_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, w_ptr, ws_ptr, gs_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_wsn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a_69, a_69_buf, acc_107_st, a_69_ready, a_69_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'w_ptr', 'ws_ptr', 'gs_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_wsn', 'stride_cm', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'w_ptr', 'ws_ptr', 'gs_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_wsn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_a_69']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'w_ptr', 'ws_ptr', 'gs_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_wn', 'stride_wsn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 128, 'GROUP_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_69': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_69': ('a_ptr', ['stride_am', '1'], ['M', 'K'], [128, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'K', 'stride_am']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 127) // 128)', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} (((K + 127) // 128)): run the Triton kernel for it")
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
