"""nf4_lut_gather_gemm, written by twill from its joint schedule: I=122 L=244 (optimal), 651 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (x_68): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (169, 56 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- x_68 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over x_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 192 registers per thread (needs about 169): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring x_68: 4 buffers of [64, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared operand w_85_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 3 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 82000 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16, 2], threads_per_warp=[4, 8, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L9 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 1], [0, 2], [0, 4], [0, 8], [32, 0]], lane_bases=[[0, 16], [0, 32], [0, 64], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0]], block_bases=[], shape=[64, 128]))
L10 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[128], [1], [2], [4], [8], [4096]], lane_bases=[[16], [32], [64], [256], [512]], warp_bases=[[1024], [2048]], block_bases=[], shape=[8192]))
L11 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L12 = gl.constexpr(gl.SliceLayout(0, gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 1], [0, 2], [0, 4], [0, 8], [32, 0]], lane_bases=[[0, 16], [0, 32], [0, 64], [2, 0], [4, 0]], warp_bases=[[8, 0], [16, 0]], block_bases=[], shape=[64, 128])))
L13 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(x_ptr, w_ptr, lut_ptr, s_ptr, y_ptr, M, N, K, twill_box_x_68, x_68_buf, w_85_st, x_68_ready, x_68_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_m = pid_m * 64
    offs_m_5 = gl.arange(0, 64, layout=L0)
    offs_m_6 = gl.arange(0, 64, layout=L1)
    offs_m_9 = offs_m + offs_m_5
    offs_m_10 = offs_m + offs_m_6
    offs_n = pid_n * 128
    offs_n_11 = gl.arange(0, 128, layout=L2)
    offs_n_12 = gl.arange(0, 128, layout=L3)
    offs_n_13 = gl.arange(0, 128, layout=L4)
    offs_n_17 = offs_n + offs_n_11
    offs_n_18 = offs_n + offs_n_12
    offs_n_19 = offs_n + offs_n_13
    m_mask_22 = offs_m_10 < M
    n_mask_25 = offs_n_17 < N
    n_mask_26 = offs_n_18 < N
    n_mask_27 = offs_n_19 < N
    lut = gl.arange(0, 16, layout=L4)
    lut_29 = lut_ptr + lut
    lut_30 = gl.load(lut_29)
    x_ptrs = gl.expand_dims(offs_m_9, 1)
    x_ptrs_31 = gl.expand_dims(offs_m_10, 1)
    x_ptrs_33 = x_ptrs * K
    x_ptrs_35 = x_ptr + x_ptrs_33
    x_ptrs_36 = gl.arange(0, 64, layout=L5)
    x_ptrs_37 = gl.expand_dims(x_ptrs_36, 0)
    x_ptrs_38 = x_ptrs_35.broadcast_to([64, 64])
    x_ptrs_39 = x_ptrs_37.broadcast_to([64, 64])
    x_ptrs_40 = x_ptrs_38 + x_ptrs_39
    w_ptrs = gl.arange(0, 32, layout=L6)
    w_ptrs_41 = gl.expand_dims(w_ptrs, 1)
    w_ptrs_43 = w_ptrs_41 * N
    w_ptrs_45 = w_ptr + w_ptrs_43
    w_ptrs_46 = gl.expand_dims(offs_n_17, 0)
    w_ptrs_47 = gl.expand_dims(offs_n_18, 0)
    w_ptrs_48 = w_ptrs_45.broadcast_to([32, 128])
    w_ptrs_49 = w_ptrs_46.broadcast_to([32, 128])
    w_ptrs_50 = w_ptrs_48 + w_ptrs_49
    s_ptrs_51 = s_ptr + offs_n_19
    v0 = K + 63
    v1 = v0 // 64
    packed = gl.expand_dims(n_mask_25, 0)
    packed_53 = packed.broadcast_to([32, 128])
    w_ptrs_54 = N * 32
    twill_n = (v1 - 0 + 1 - 1) // 1
    s_ptrs_89 = s_ptrs_51
    w_ptrs_88 = w_ptrs_50
    s_ptrs_89_p1 = s_ptrs_89
    w_ptrs_88_p1 = w_ptrs_88
    w_ptrs_88 = w_ptrs_88_p1 + w_ptrs_54  # load1_packed: stage 0, partition 0 (group 0)
    packed_70 = gl.load(w_ptrs_88_p1, mask=packed_53, other=0)  # load1_packed: stage 0, partition 0 (group 0)
    s_ptrs_89 = s_ptrs_89_p1 + N  # load2_scale: stage 0, partition 0 (group 0)
    scale = gl.load(s_ptrs_89_p1, mask=n_mask_27, other=0.0)  # load2_scale: stage 0, partition 0 (group 0)
    packed_70_p1 = packed_70
    s_ptrs_89_p1 = s_ptrs_89
    scale_p1 = scale
    w_ptrs_88_p1 = w_ptrs_88
    acc_86 = gl.full([64, 128], 0.0, gl.float32, layout=L7)
    w_ptrs_88 = w_ptrs_88_p1 + w_ptrs_54  # load1_packed: stage 0, partition 0 (group 0)
    packed_70 = gl.load(w_ptrs_88_p1, mask=packed_53, other=0)  # load1_packed: stage 0, partition 0 (group 0)
    codes = packed_70_p1 & 15  # elementwise0_w: stage 1, partition 0 (group 0)
    codes_71 = gl.cast(gl.cast(packed_70_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # elementwise0_w: stage 1, partition 0 (group 0)
    codes_72 = gl.convert_layout(gl.join(codes, codes_71), L8)  # elementwise0_w: stage 1, partition 0 (group 0)
    codes_73 = gl.permute(codes_72, (0, 2, 1))  # elementwise0_w: stage 1, partition 0 (group 0)
    codes_74 = gl.convert_layout(gl.reshape(codes_73, [64, 128]), L9)  # elementwise0_w: stage 1, partition 0 (group 0)
    w = gl.cast(gl.cast(codes_74, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # elementwise0_w: stage 1, partition 0 (group 0)
    w_75 = gl.convert_layout(gl.reshape(w, [8192]), L10)  # elementwise0_w: stage 1, partition 0 (group 0)
    w_76 = gl.convert_layout(gl.gather(lut_30, w_75, 0), L10)  # elementwise0_w: stage 1, partition 0 (group 0)
    s_ptrs_89 = s_ptrs_89_p1 + N  # load2_scale: stage 0, partition 0 (group 0)
    scale = gl.load(s_ptrs_89_p1, mask=n_mask_27, other=0.0)  # load2_scale: stage 0, partition 0 (group 0)
    w_77 = gl.convert_layout(scale_p1, L11)  # convert0_w: stage 1, partition 0 (group 0)
    scale_78 = w_77.to(gl.float32)  # convert0_w: stage 1, partition 0 (group 0)
    w_80 = gl.convert_layout(scale_78, L12)  # convert0_w: stage 1, partition 0 (group 0)
    w_79 = gl.convert_layout(gl.reshape(w_76, [64, 128]), L9)  # elementwise1_w: stage 1, partition 0 (group 0)
    w_81 = gl.expand_dims(w_80, 0)  # elementwise1_w: stage 1, partition 0 (group 0)
    w_82 = w_81.broadcast_to([64, 128])  # elementwise1_w: stage 1, partition 0 (group 0)
    w_83 = w_79 * w_82  # elementwise1_w: stage 1, partition 0 (group 0)
    w_84 = w_83.to(gl.float16)  # convert1_w: stage 1, partition 0 (group 0)
    w_85 = w_85_st.index((1 - 1) % 3)  # local_store0_w: stage 1, partition 0 (group 0)
    w_85.store(w_84)  # local_store0_w: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
    acc_86_p1 = acc_86
    packed_70_p1 = packed_70
    s_ptrs_89_p1 = s_ptrs_89
    scale_p1 = scale
    w_85_p1 = w_85
    w_ptrs_88_p1 = w_ptrs_88
    for twill_b in range(2, twill_n):
        w_ptrs_88 = w_ptrs_88_p1 + w_ptrs_54  # load1_packed: stage 0, partition 0 (group 0)
        packed_70 = gl.load(w_ptrs_88_p1, mask=packed_53, other=0)  # load1_packed: stage 0, partition 0 (group 0)
        codes = packed_70_p1 & 15  # elementwise0_w: stage 1, partition 0 (group 0)
        codes_71 = gl.cast(gl.cast(packed_70_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # elementwise0_w: stage 1, partition 0 (group 0)
        codes_72 = gl.convert_layout(gl.join(codes, codes_71), L8)  # elementwise0_w: stage 1, partition 0 (group 0)
        codes_73 = gl.permute(codes_72, (0, 2, 1))  # elementwise0_w: stage 1, partition 0 (group 0)
        codes_74 = gl.convert_layout(gl.reshape(codes_73, [64, 128]), L9)  # elementwise0_w: stage 1, partition 0 (group 0)
        w = gl.cast(gl.cast(codes_74, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_75 = gl.convert_layout(gl.reshape(w, [8192]), L10)  # elementwise0_w: stage 1, partition 0 (group 0)
        w_76 = gl.convert_layout(gl.gather(lut_30, w_75, 0), L10)  # elementwise0_w: stage 1, partition 0 (group 0)
        s_ptrs_89 = s_ptrs_89_p1 + N  # load2_scale: stage 0, partition 0 (group 0)
        scale = gl.load(s_ptrs_89_p1, mask=n_mask_27, other=0.0)  # load2_scale: stage 0, partition 0 (group 0)
        w_77 = gl.convert_layout(scale_p1, L11)  # convert0_w: stage 1, partition 0 (group 0)
        scale_78 = w_77.to(gl.float32)  # convert0_w: stage 1, partition 0 (group 0)
        w_80 = gl.convert_layout(scale_78, L12)  # convert0_w: stage 1, partition 0 (group 0)
        w_79 = gl.convert_layout(gl.reshape(w_76, [64, 128]), L9)  # elementwise1_w: stage 1, partition 0 (group 0)
        w_81 = gl.expand_dims(w_80, 0)  # elementwise1_w: stage 1, partition 0 (group 0)
        w_82 = w_81.broadcast_to([64, 128])  # elementwise1_w: stage 1, partition 0 (group 0)
        w_83 = w_79 * w_82  # elementwise1_w: stage 1, partition 0 (group 0)
        w_84 = w_83.to(gl.float16)  # convert1_w: stage 1, partition 0 (group 0)
        mbarrier.wait(x_68_ready.index((twill_b - 2) % 4), ((twill_b - 2) // 4) & 1)
        fence_async_shared()
        tok_acc_86 = warpgroup_mma(x_68_buf.index((twill_b - 2) % 4), w_85_p1, acc_86_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        w_85 = w_85_st.index((twill_b - 1) % 3)  # local_store0_w: stage 1, partition 0 (group 0)
        w_85.store(w_84)  # local_store0_w: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_86,))
        mbarrier.arrive(x_68_empty.index((twill_b - 1 - 2) % 4), pred=(twill_b - 1 - 2) >= 0)
        acc_86 = warpgroup_mma_wait(1, deps=(tok_acc_86,))
        acc_86_p1 = acc_86
        packed_70_p1 = packed_70
        s_ptrs_89_p1 = s_ptrs_89
        scale_p1 = scale
        w_85_p1 = w_85
        w_ptrs_88_p1 = w_ptrs_88
    codes = packed_70_p1 & 15  # elementwise0_w: stage 1, partition 0 (group 0)
    codes_71 = gl.cast(gl.cast(packed_70_p1, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # elementwise0_w: stage 1, partition 0 (group 0)
    codes_72 = gl.convert_layout(gl.join(codes, codes_71), L8)  # elementwise0_w: stage 1, partition 0 (group 0)
    codes_73 = gl.permute(codes_72, (0, 2, 1))  # elementwise0_w: stage 1, partition 0 (group 0)
    codes_74 = gl.convert_layout(gl.reshape(codes_73, [64, 128]), L9)  # elementwise0_w: stage 1, partition 0 (group 0)
    w = gl.cast(gl.cast(codes_74, gl.uint8, bitcast=True).to(gl.uint32), gl.int32, bitcast=True)  # elementwise0_w: stage 1, partition 0 (group 0)
    w_75 = gl.convert_layout(gl.reshape(w, [8192]), L10)  # elementwise0_w: stage 1, partition 0 (group 0)
    w_76 = gl.convert_layout(gl.gather(lut_30, w_75, 0), L10)  # elementwise0_w: stage 1, partition 0 (group 0)
    w_77 = gl.convert_layout(scale_p1, L11)  # convert0_w: stage 1, partition 0 (group 0)
    scale_78 = w_77.to(gl.float32)  # convert0_w: stage 1, partition 0 (group 0)
    w_80 = gl.convert_layout(scale_78, L12)  # convert0_w: stage 1, partition 0 (group 0)
    w_79 = gl.convert_layout(gl.reshape(w_76, [64, 128]), L9)  # elementwise1_w: stage 1, partition 0 (group 0)
    w_81 = gl.expand_dims(w_80, 0)  # elementwise1_w: stage 1, partition 0 (group 0)
    w_82 = w_81.broadcast_to([64, 128])  # elementwise1_w: stage 1, partition 0 (group 0)
    w_83 = w_79 * w_82  # elementwise1_w: stage 1, partition 0 (group 0)
    w_84 = w_83.to(gl.float16)  # convert1_w: stage 1, partition 0 (group 0)
    mbarrier.wait(x_68_ready.index(((twill_n - 1 + 1) - 2) % 4), (((twill_n - 1 + 1) - 2) // 4) & 1)
    fence_async_shared()
    tok_acc_86 = warpgroup_mma(x_68_buf.index(((twill_n - 1 + 1) - 2) % 4), w_85_p1, acc_86_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
    w_85 = w_85_st.index(((twill_n - 1 + 1) - 1) % 3)  # local_store0_w: stage 1, partition 0 (group 0)
    w_85.store(w_84)  # local_store0_w: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_w: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_acc_86,))
    mbarrier.arrive(x_68_empty.index(((twill_n - 1 + 1) - 1 - 2) % 4), pred=((twill_n - 1 + 1) - 1 - 2) >= 0)
    acc_86 = warpgroup_mma_wait(1, deps=(tok_acc_86,))
    acc_86_p1 = acc_86
    packed_70_p1 = packed_70
    s_ptrs_89_p2 = s_ptrs_89_p1
    s_ptrs_89_p1 = s_ptrs_89
    scale_p1 = scale
    w_85_p1 = w_85
    w_ptrs_88_p2 = w_ptrs_88_p1
    w_ptrs_88_p1 = w_ptrs_88
    mbarrier.wait(x_68_ready.index(((twill_n - 1 + 2) - 2) % 4), (((twill_n - 1 + 2) - 2) // 4) & 1)
    fence_async_shared()
    tok_acc_86 = warpgroup_mma(x_68_buf.index(((twill_n - 1 + 2) - 2) % 4), w_85_p1, acc_86_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_acc_86,))
    mbarrier.arrive(x_68_empty.index(((twill_n - 1 + 2) - 1 - 2) % 4), pred=((twill_n - 1 + 2) - 1 - 2) >= 0)
    acc_86 = warpgroup_mma_wait(1, deps=(tok_acc_86,))
    acc_86_p1 = acc_86
    packed_70_p1 = packed_70
    s_ptrs_89_p3 = s_ptrs_89_p2
    s_ptrs_89_p2 = s_ptrs_89_p1
    s_ptrs_89_p1 = s_ptrs_89
    scale_p1 = scale
    w_85_p1 = w_85
    w_ptrs_88_p3 = w_ptrs_88_p2
    w_ptrs_88_p2 = w_ptrs_88_p1
    w_ptrs_88_p1 = w_ptrs_88
    acc_86_p1 = warpgroup_mma_wait(0, deps=(acc_86_p1,))
    x_68_buf._keep_alive()
    w_85_st._keep_alive()
    mbarrier.arrive(x_68_empty.index(((twill_n - 1 + 2) - 2) % 4))
    y_ptrs_57 = x_ptrs_31 * N
    y_ptrs_59 = y_ptr + y_ptrs_57
    y_ptrs_60 = y_ptrs_59.broadcast_to([64, 128])
    y_ptrs_61 = w_ptrs_47.broadcast_to([64, 128])
    y_ptrs_62 = y_ptrs_60 + y_ptrs_61
    v2 = gl.expand_dims(m_mask_22, 1)
    v3 = gl.expand_dims(n_mask_26, 0)
    v4 = v2.broadcast_to([64, 128])
    v5 = v3.broadcast_to([64, 128])
    v6 = v4 & v5
    v7 = acc_86_p1.to(gl.float16)
    v8 = gl.convert_layout(v7, L13)
    gl.store(y_ptrs_62, v8, mask=v6)

@gluon.jit
def producer_1(x_ptr, w_ptr, lut_ptr, s_ptr, y_ptr, M, N, K, twill_box_x_68, x_68_buf, w_85_st, x_68_ready, x_68_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid_m = gl.program_id(0)
    offs_m = pid_m * 64
    offs_m_5 = gl.arange(0, 64, layout=L0)
    offs_m_9 = offs_m + offs_m_5
    m_mask_21 = offs_m_9 < M
    x_ptrs = gl.expand_dims(offs_m_9, 1)
    x_ptrs_33 = x_ptrs * K
    x_ptrs_35 = x_ptr + x_ptrs_33
    x_ptrs_36 = gl.arange(0, 64, layout=L5)
    x_ptrs_37 = gl.expand_dims(x_ptrs_36, 0)
    x_ptrs_38 = x_ptrs_35.broadcast_to([64, 64])
    x_ptrs_39 = x_ptrs_37.broadcast_to([64, 64])
    x_ptrs_40 = x_ptrs_38 + x_ptrs_39
    v0 = K + 63
    v1 = v0 // 64
    x = gl.expand_dims(m_mask_21, 1)
    x_52 = x.broadcast_to([64, 64])
    x_ptrs_66 = x_ptrs_40
    for acc_63 in range(0, v1, 1):
        twill_k = (acc_63 - 0) // 1
        x_ptrs_87 = x_ptrs_66 + 64
        mbarrier.wait(x_68_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(x_68_ready.index(twill_k % 4), twill_box_x_68.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_x_68, [64 * pid_m, 64 * acc_63], x_68_ready.index(twill_k % 4), x_68_buf.index(twill_k % 4))  # load0_x: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_68_buf.index(twill_k % 4), x_ptrs_66, mask=x_52)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_68_ready.index(twill_k % 4), increment_count=False)
            else:
                x_68_buf.index(twill_k % 4).store(gl.load(x_ptrs_66, mask=x_52, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_68_ready.index(twill_k % 4), count=128)
        x_ptrs_66 = x_ptrs_87

@gluon.jit
def twill_kernel(x_ptr, w_ptr, lut_ptr, s_ptr, y_ptr, M, N, K, twill_box_x_68, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    x_68_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_85_st = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    x_68_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(x_68_ready.index(i), count=1 if TWILL_TMA else 128)
    x_68_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(x_68_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, w_ptr, lut_ptr, s_ptr, y_ptr, M, N, K, twill_box_x_68, x_68_buf, w_85_st, x_68_ready, x_68_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (x_ptr, w_ptr, lut_ptr, s_ptr, y_ptr, M, N, K, twill_box_x_68, x_68_buf, w_85_st, x_68_ready, x_68_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'w_ptr', 'lut_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'w_ptr', 'lut_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K', 'twill_box_x_68']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'w_ptr', 'lut_ptr', 's_ptr', 'y_ptr', 'M', 'N', 'K']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_x_68': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_x_68': ('x_ptr', ['K', '1'], ['M', None], [64, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['x_ptr', 'K']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 63) // 64)', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} (((K + 63) // 64)): run the Triton kernel for it")
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
