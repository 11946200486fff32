"""_matmul_ogs, written by twill from its joint schedule: I=225 L=135 (optimal), 960 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (x_99_ring: 4 x 8192 B, issued 2 iteration(s) ahead, w_100_ring: 4 x 16384 B, issued 2 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 2 stage(s) ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 104 per thread)
- shared memory: 98320 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at triton_kernels_matmul_ogs.py:58 (TTGIR line 56): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Y, stride_y_m, X, stride_x_m, W, stride_w_e, stride_w_k, Bias, stride_b_e, Gammas, N, K, GatherIndx, ScatterIndx, ExptHist, ExptOffs, ExptData, grid_m, grid_n, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    width = grid_n * 8
    group_id = pid // width
    group_size = group_id * 8
    group_size_5 = grid_m - group_size
    group_size_6 = gl.minimum(group_size_5, 8)
    pid_m = pid % group_size_6
    pid_m_7 = group_size + pid_m
    pid_n = pid % width
    pid_n_8 = pid_n // group_size_6
    expt_data = ExptData + pid_m_7
    expt_data_9 = gl.load(expt_data)
    expt_id = expt_data_9 & 65535
    block_id = expt_data_9 >> 16
    M = ExptHist + expt_id
    M_10 = gl.load(M)
    start_m = ExptOffs + expt_id
    start_m_11 = gl.load(start_m)
    offs_x_m = block_id * 64
    offs_x_m_12 = gl.arange(0, 64, layout=L0)
    offs_x_m_13 = gl.arange(0, 64, layout=L1)
    offs_x_m_14 = gl.arange(0, 64, layout=L2)
    offs_x_m_18 = offs_x_m + offs_x_m_12
    offs_x_m_19 = offs_x_m + offs_x_m_13
    offs_x_m_20 = offs_x_m + offs_x_m_14
    offs_x_m_24 = offs_x_m_18 % M_10
    offs_x_m_24 = gl.max_contiguous(gl.multiple_of(offs_x_m_24, [64]), [64])
    GatherIndx_25 = GatherIndx + start_m_11
    offs_x_m_27 = GatherIndx_25 + offs_x_m_24
    offs_x_m_28 = gl.load(offs_x_m_27)
    offs_x_m_29 = offs_x_m_28 // 4
    XPtrs = offs_x_m_29.to(gl.int64)
    XPtrs_30 = gl.expand_dims(XPtrs, 1)
    XPtrs_31 = gl.cast(stride_x_m, gl.int64)
    XPtrs_33 = XPtrs_30 * XPtrs_31
    XPtrs_35 = X + XPtrs_33
    XPtrs_36 = gl.arange(0, 64, layout=L3)
    XPtrs_37 = gl.expand_dims(XPtrs_36, 0)
    XPtrs_38 = XPtrs_35.broadcast_to([64, 64])
    XPtrs_39 = XPtrs_37.broadcast_to([64, 64])
    XPtrs_40 = XPtrs_38 + XPtrs_39
    offs_w_n = pid_n_8 * 128
    offs_w_n_41 = gl.arange(0, 128, layout=L4)
    offs_w_n_42 = gl.arange(0, 128, layout=L5)
    offs_w_n_45 = offs_w_n + offs_w_n_41
    offs_w_n_46 = offs_w_n + offs_w_n_42
    offs_w_n_49 = offs_w_n_45 % N
    offs_w_n_49 = gl.max_contiguous(gl.multiple_of(offs_w_n_49, [128]), [128])
    W_50 = gl.cast(expt_id, gl.int64)
    W_51 = gl.cast(stride_w_e, gl.int64)
    W_52 = W_50 * W_51
    W_53 = W + W_52
    WPtrs = gl.expand_dims(offs_x_m_14, 1)
    WPtrs_55 = WPtrs * stride_w_k
    WPtrs_57 = W_53 + WPtrs_55
    WPtrs_58 = gl.expand_dims(offs_w_n_49, 0)
    WPtrs_59 = WPtrs_57.broadcast_to([64, 128])
    WPtrs_60 = WPtrs_58.broadcast_to([64, 128])
    WPtrs_61 = WPtrs_59 + WPtrs_60
    WPtrs_62 = stride_w_k * 64
    twill_n = (K - 0 + 64 - 1) // 64
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        x_99_ring = gl.allocate_shared_memory(gl.float16, [4, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        w_100_ring = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        XPtrs_102 = XPtrs_40
        WPtrs_103 = WPtrs_61
        WPtrs_103_p1 = WPtrs_103
        XPtrs_102_p1 = XPtrs_102
        XPtrs_102 = XPtrs_102_p1 + 64  # load0_x: stage 0, partition 0 (group 0)
        WPtrs_103 = WPtrs_103_p1 + WPtrs_62  # load1_w: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_x: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(x_99_ring.index((0 - 0) % 4), XPtrs_102_p1)  # load0_x: stage 0, partition 0 (group 0)
        else:  # load0_x: stage 0, partition 0 (group 0)
            x_99_ring.index((0 - 0) % 4).store(gl.load(XPtrs_102_p1))  # load0_x: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_x: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_w: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(w_100_ring.index((0 - 0) % 4), WPtrs_103_p1)  # load1_w: stage 0, partition 0 (group 0)
        else:  # load1_w: stage 0, partition 0 (group 0)
            w_100_ring.index((0 - 0) % 4).store(gl.load(WPtrs_103_p1))  # load1_w: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_w: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        WPtrs_103_p1 = WPtrs_103
        XPtrs_102_p1 = XPtrs_102
        acc_101 = gl.full([64, 128], 0.0, gl.float32, layout=L6)
        XPtrs_102 = XPtrs_102_p1 + 64  # load0_x: stage 0, partition 0 (group 0)
        WPtrs_103 = WPtrs_103_p1 + WPtrs_62  # load1_w: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_x: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(x_99_ring.index((1 - 0) % 4), XPtrs_102_p1)  # load0_x: stage 0, partition 0 (group 0)
        else:  # load0_x: stage 0, partition 0 (group 0)
            x_99_ring.index((1 - 0) % 4).store(gl.load(XPtrs_102_p1))  # load0_x: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_x: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_w: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(w_100_ring.index((1 - 0) % 4), WPtrs_103_p1)  # load1_w: stage 0, partition 0 (group 0)
        else:  # load1_w: stage 0, partition 0 (group 0)
            w_100_ring.index((1 - 0) % 4).store(gl.load(WPtrs_103_p1))  # load1_w: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_w: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        WPtrs_103_p1 = WPtrs_103
        XPtrs_102_p1 = XPtrs_102
        acc_101_p1 = acc_101
        for twill_b in range(2, twill_n):
            async_copy.wait_group(1)
            gl.thread_barrier()
            x_99 = x_99_ring.index((twill_b - 2) % 4)  # load0_x: stage 2, partition 0 (group 0)
            w_100 = w_100_ring.index((twill_b - 2) % 4)  # load1_w: stage 2, partition 0 (group 0)
            XPtrs_102 = XPtrs_102_p1 + 64  # load0_x: stage 0, partition 0 (group 0)
            WPtrs_103 = WPtrs_103_p1 + WPtrs_62  # load1_w: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_x: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(x_99_ring.index((twill_b - 0) % 4), XPtrs_102_p1)  # load0_x: stage 0, partition 0 (group 0)
            else:  # load0_x: stage 0, partition 0 (group 0)
                x_99_ring.index((twill_b - 0) % 4).store(gl.load(XPtrs_102_p1))  # load0_x: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_x: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_w: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(w_100_ring.index((twill_b - 0) % 4), WPtrs_103_p1)  # load1_w: stage 0, partition 0 (group 0)
            else:  # load1_w: stage 0, partition 0 (group 0)
                w_100_ring.index((twill_b - 0) % 4).store(gl.load(WPtrs_103_p1))  # load1_w: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_w: stage 0, partition 0 (group 0)
            tok_acc_101 = warpgroup_mma(x_99, w_100, acc_101_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_acc_101,))
            acc_101 = warpgroup_mma_wait(1, deps=(tok_acc_101,))
            WPtrs_103_p1 = WPtrs_103
            XPtrs_102_p1 = XPtrs_102
            acc_101_p1 = acc_101
        async_copy.wait_group(1)
        gl.thread_barrier()
        x_99 = x_99_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load0_x: stage 2, partition 0 (group 0)
        w_100 = w_100_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load1_w: stage 2, partition 0 (group 0)
        tok_acc_101 = warpgroup_mma(x_99, w_100, acc_101_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_101,))
        acc_101 = warpgroup_mma_wait(1, deps=(tok_acc_101,))
        WPtrs_103_p2 = WPtrs_103_p1
        WPtrs_103_p1 = WPtrs_103
        XPtrs_102_p2 = XPtrs_102_p1
        XPtrs_102_p1 = XPtrs_102
        acc_101_p1 = acc_101
        async_copy.wait_group(1)
        gl.thread_barrier()
        x_99 = x_99_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load0_x: stage 2, partition 0 (group 0)
        w_100 = w_100_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load1_w: stage 2, partition 0 (group 0)
        tok_acc_101 = warpgroup_mma(x_99, w_100, acc_101_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_101,))
        acc_101 = warpgroup_mma_wait(1, deps=(tok_acc_101,))
        WPtrs_103_p3 = WPtrs_103_p2
        WPtrs_103_p2 = WPtrs_103_p1
        WPtrs_103_p1 = WPtrs_103
        XPtrs_102_p3 = XPtrs_102_p2
        XPtrs_102_p2 = XPtrs_102_p1
        XPtrs_102_p1 = XPtrs_102
        acc_101_p1 = acc_101
        acc_101_p1 = warpgroup_mma_wait(0, deps=(acc_101_p1,))
        x_99_ring._keep_alive()
        w_100_ring._keep_alive()
    else:
        arg20_w = gl.full([64, 128], 0.0, gl.float32, layout=L6)
        XPtrs_97_w = XPtrs_40
        WPtrs_98_w = WPtrs_61
        for acc_96_w in range(0, K, 64):
            x_w = gl.load(XPtrs_97_w)
            x_99_w = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), x_w)
            fence_async_shared()
            w_w = gl.load(WPtrs_98_w)
            w_100_w = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), w_w)
            fence_async_shared()
            acc_101_w = warpgroup_mma(x_99_w, w_100_w, arg20_w)
            XPtrs_102_w = XPtrs_97_w + 64
            WPtrs_103_w = WPtrs_98_w + WPtrs_62
            arg20_w = acc_101_w
            XPtrs_97_w = XPtrs_102_w
            WPtrs_98_w = WPtrs_103_w
        acc_101_p1 = arg20_w
        XPtrs_102_p3 = XPtrs_97_w
        WPtrs_103_p3 = WPtrs_98_w
    mask_m = offs_x_m_19 < M_10
    mask_m_64 = offs_x_m_20 < M_10
    mask_n = offs_w_n_45 < N
    mask_n_65 = offs_w_n_46 < N
    bias = expt_id * stride_b_e
    bias_66 = Bias + bias
    bias_68 = bias_66 + offs_w_n_46
    bias_69 = gl.load(bias_68, mask=mask_n_65, other=0.0)
    acc_70 = gl.convert_layout(bias_69, L7)
    acc_71 = gl.expand_dims(acc_70, 0)
    acc_72 = acc_71.broadcast_to([64, 128])
    acc_73 = gl.convert_layout(acc_71, L6).broadcast_to([64, 128])
    acc_74 = acc_101_p1 + acc_73
    gammas = Gammas + start_m_11
    gammas_76 = gammas + offs_x_m_19
    gammas_77 = gl.load(gammas_76, mask=mask_m, other=0.0)
    acc_78 = gl.expand_dims(gammas_77, 1)
    acc_79 = acc_78.broadcast_to([64, 128])
    acc_80 = acc_74 * acc_79
    dst_idx = ScatterIndx + start_m_11
    dst_idx_82 = dst_idx + offs_x_m_20
    dst_idx_83 = gl.load(dst_idx_82, mask=mask_m_64, other=-1)
    mask_m_84 = dst_idx_83 != -1
    mask_m_85 = mask_m_64 & mask_m_84
    YPtrs = dst_idx_83.to(gl.int64)
    YPtrs_86 = gl.expand_dims(YPtrs, 1)
    YPtrs_87 = gl.cast(stride_y_m, gl.int64)
    YPtrs_89 = YPtrs_86 * YPtrs_87
    YPtrs_91 = Y + YPtrs_89
    YPtrs_92 = gl.expand_dims(offs_w_n_45, 0)
    YPtrs_93 = YPtrs_91.broadcast_to([64, 128])
    YPtrs_94 = YPtrs_92.broadcast_to([64, 128])
    YPtrs_95 = YPtrs_93 + YPtrs_94
    v1 = gl.expand_dims(mask_m_85, 1)
    v2 = gl.expand_dims(mask_n, 0)
    v3 = v1.broadcast_to([64, 128])
    v4 = v2.broadcast_to([64, 128])
    v5 = v3 & v4
    v6 = acc_80.to(gl.float16)
    v7 = gl.convert_layout(v6, L8)
    gl.store(YPtrs_95, v7, mask=v5)

@gluon.jit
def twill_kernel(Y, stride_y_m, X, stride_x_m, W, stride_w_e, stride_w_k, Bias, stride_b_e, Gammas, N, K, GatherIndx, ScatterIndx, ExptHist, ExptOffs, ExptData, grid_m, grid_n, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    width = grid_n * 8
    group_id = pid // width
    group_size = group_id * 8
    group_size_5 = grid_m - group_size
    group_size_6 = gl.minimum(group_size_5, 8)
    pid_m = pid % group_size_6
    pid_m_7 = group_size + pid_m
    expt_data = ExptData + pid_m_7
    expt_data_9 = gl.load(expt_data)
    v0 = expt_data_9 == -1
    if v0:
        return
    consumer_0(Y, stride_y_m, X, stride_x_m, W, stride_w_e, stride_w_k, Bias, stride_b_e, Gammas, N, K, GatherIndx, ScatterIndx, ExptHist, ExptOffs, ExptData, grid_m, grid_n, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Y', 'stride_y_m', 'stride_y_n', 'X', 'stride_x_m', 'stride_x_k', 'W', 'stride_w_e', 'stride_w_k', 'stride_w_n', 'Bias', 'stride_b_e', 'Gammas', 'N', 'K', 'GatherIndx', 'ScatterIndx', 'ExptHist', 'ExptOffs', 'ExptData', 'grid_m', 'grid_n', 'N_EXPTS_ACT', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M', 'EVEN_K']          # the Triton kernel's parameters, in order
RUNTIME = ['Y', 'stride_y_m', 'X', 'stride_x_m', 'W', 'stride_w_e', 'stride_w_k', 'Bias', 'stride_b_e', 'Gammas', 'N', 'K', 'GatherIndx', 'ScatterIndx', 'ExptHist', 'ExptOffs', 'ExptData', 'grid_m', 'grid_n']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Y', 'stride_y_m', 'X', 'stride_x_m', 'W', 'stride_w_e', 'stride_w_k', 'Bias', 'stride_b_e', 'Gammas', 'N', 'K', 'GatherIndx', 'ScatterIndx', 'ExptHist', 'ExptOffs', 'ExptData', 'grid_m', 'grid_n']   # the arguments a launch key reads
CONSTEXPRS = {'stride_y_n': 1, 'stride_x_k': 1, 'stride_w_n': 1, 'N_EXPTS_ACT': 4, 'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP_M': 8, 'EVEN_K': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['X', 'stride_x_m', 'W', 'stride_w_e', 'stride_w_k', 'N', 'GatherIndx', 'ExptHist', 'ExptOffs', 'ExptData', 'grid_m', 'grid_n']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
