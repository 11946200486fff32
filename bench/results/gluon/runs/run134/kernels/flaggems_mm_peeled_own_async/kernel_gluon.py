"""mm_kernel_general, written by twill from its joint schedule: I=225 L=135 (optimal), 960 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (b_116_ring: 4 x 16384 B, issued 2 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- register-read pointer tiles copied by their consumer with cp.async (a_107_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 2 stage(s) ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 120 per thread)
- shared memory: 81936 bytes planned of 232448; maxnreg unset (ptxas allocates)

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    pid_1 = gl.cast(pid, gl.int64)
    grid_m = M + 63
    grid_m_2 = grid_m // 64
    grid_n_3 = N + 127
    grid_n_4 = grid_n_3 // 128
    width = grid_n_4 * 8
    group_id = gl.cast(width, gl.int64)
    group_id_5 = pid_1 // group_id
    group_size = group_id_5 * 8
    group_size_6 = gl.cast(grid_m_2, gl.int64)
    group_size_7 = group_size_6 - group_size
    group_size_8 = gl.minimum(group_size_7, 8)
    pid_m = pid_1 % group_size_8
    pid_m_9 = group_size + pid_m
    pid_n = pid_1 % group_id
    pid_n_10 = pid_n // group_size_8
    rm = pid_m_9 * 64
    rm_11 = gl.arange(0, 64, layout=L0)
    rm_12 = gl.arange(0, 64, layout=L1)
    rm_13 = gl.arange(0, 64, layout=L2)
    rm_14 = rm_11.to(gl.int64)
    rm_15 = rm_12.to(gl.int64)
    rm_18 = rm + rm_14
    rm_19 = rm + rm_15
    rn = pid_n_10 * 128
    rn_20 = gl.arange(0, 128, layout=L3)
    rn_21 = rn_20.to(gl.int64)
    rn_23 = rn + rn_21
    ram = gl.cast(M, gl.int64)
    ram_26 = rm_18 % ram
    ram_26 = gl.max_contiguous(gl.multiple_of(ram_26, [64]), [64])
    rbn = gl.cast(N, gl.int64)
    rbn_28 = rn_23 % rbn
    rbn_28 = gl.max_contiguous(gl.multiple_of(rbn_28, [128]), [128])
    prev_multiple = K + 63
    prev_multiple_29 = prev_multiple // 64
    prev_multiple_30 = prev_multiple_29 * 64
    prev_multiple_31 = prev_multiple_30 - 64
    a_32 = gl.expand_dims(ram_26, 1)
    a_33 = gl.cast(stride_am, gl.int64)
    a_35 = a_32 * a_33
    a_36 = a_35.broadcast_to([64, 64])
    b_39 = gl.expand_dims(rbn_28, 0)
    b_40 = b_39.broadcast_to([64, 128])
    twill_n = (prev_multiple_31 - 0 + 64 - 1) // 64
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        a_107_as = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
        b_116_ring = gl.allocate_shared_memory(gl.bfloat16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
        rk_101 = (0 + (0 - 0) * 64) + rm_12  # load1_b: stage 0, partition 0 (group 0)
        b_109 = gl.expand_dims(rk_101, 1)  # load1_b: stage 0, partition 0 (group 0)
        b_110 = b_109 * stride_bk  # load1_b: stage 0, partition 0 (group 0)
        b_111 = b_110.to(gl.int64)  # load1_b: stage 0, partition 0 (group 0)
        b_112 = b_111.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
        b_113 = b_112 + b_40  # load1_b: stage 0, partition 0 (group 0)
        b_114 = B + b_113  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_116_ring.index((0 - 0) % 4), b_114)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_116_ring.index((0 - 0) % 4).store(gl.load(b_114))  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        acc_119 = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        rk_100 = (0 + (1 - 1) * 64) + rm_13  # load0_a: stage 1, partition 0 (group 0)
        a_102 = gl.expand_dims(rk_100, 0)  # load0_a: stage 1, partition 0 (group 0)
        a_103 = a_102.to(gl.int64)  # load0_a: stage 1, partition 0 (group 0)
        a_104 = a_103.broadcast_to([64, 64])  # load0_a: stage 1, partition 0 (group 0)
        a_105 = a_36 + a_104  # load0_a: stage 1, partition 0 (group 0)
        a_106 = A + a_105  # load0_a: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_107_as.index((1 - 1) % 2), a_106)  # load0_a: stage 1, partition 0 (group 0)
        else:  # load0_a: stage 1, partition 0 (group 0)
            a_107_as.index((1 - 1) % 2).store(gl.load(a_106))  # load0_a: stage 1, partition 0 (group 0)
        rk_101 = (0 + (1 - 0) * 64) + rm_12  # load1_b: stage 0, partition 0 (group 0)
        b_109 = gl.expand_dims(rk_101, 1)  # load1_b: stage 0, partition 0 (group 0)
        b_110 = b_109 * stride_bk  # load1_b: stage 0, partition 0 (group 0)
        b_111 = b_110.to(gl.int64)  # load1_b: stage 0, partition 0 (group 0)
        b_112 = b_111.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
        b_113 = b_112 + b_40  # load1_b: stage 0, partition 0 (group 0)
        b_114 = B + b_113  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_116_ring.index((1 - 0) % 4), b_114)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_116_ring.index((1 - 0) % 4).store(gl.load(b_114))  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        acc_119_p1 = acc_119
        for twill_b in range(2, twill_n):
            rk_98 = (0 + (twill_b - 1) * 64)  # load0_a: stage 1, partition 0 (group 0)
            rk_100 = rk_98 + rm_13  # load0_a: stage 1, partition 0 (group 0)
            a_102 = gl.expand_dims(rk_100, 0)  # load0_a: stage 1, partition 0 (group 0)
            a_103 = a_102.to(gl.int64)  # load0_a: stage 1, partition 0 (group 0)
            a_104 = a_103.broadcast_to([64, 64])  # load0_a: stage 1, partition 0 (group 0)
            a_105 = a_36 + a_104  # load0_a: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            a_107 = a_107_as.index((twill_b - 2) % 2).load(L5)  # load0_a: stage 2, partition 0 (group 0)
            a_106 = A + a_105  # load0_a: stage 1, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 1, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_107_as.index((twill_b - 1) % 2), a_106)  # load0_a: stage 1, partition 0 (group 0)
            else:  # load0_a: stage 1, partition 0 (group 0)
                a_107_as.index((twill_b - 1) % 2).store(gl.load(a_106))  # load0_a: stage 1, partition 0 (group 0)
            a_108 = gl.convert_layout(a_107, L6)  # convert0_a: stage 2, partition 0 (group 0)
            a_117 = a_108.to(gl.float32)  # convert0_a: stage 2, partition 0 (group 0)
            a_118 = a_117.to(gl.bfloat16)  # convert0_a: stage 2, partition 0 (group 0)
            rk_99 = (0 + (twill_b - 0) * 64)  # load1_b: stage 0, partition 0 (group 0)
            rk_101 = rk_99 + rm_12  # load1_b: stage 0, partition 0 (group 0)
            b_109 = gl.expand_dims(rk_101, 1)  # load1_b: stage 0, partition 0 (group 0)
            b_110 = b_109 * stride_bk  # load1_b: stage 0, partition 0 (group 0)
            b_111 = b_110.to(gl.int64)  # load1_b: stage 0, partition 0 (group 0)
            b_116 = b_116_ring.index((twill_b - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
            b_112 = b_111.broadcast_to([64, 128])  # load1_b: stage 0, partition 0 (group 0)
            b_113 = b_112 + b_40  # load1_b: stage 0, partition 0 (group 0)
            b_114 = B + b_113  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_116_ring.index((twill_b - 0) % 4), b_114)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_116_ring.index((twill_b - 0) % 4).store(gl.load(b_114))  # load1_b: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            tok_acc_119 = warpgroup_mma(a_118, b_116, acc_119_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            acc_119 = warpgroup_mma_wait(0, deps=(tok_acc_119,))
            acc_119_p1 = acc_119
        rk_98 = (0 + ((twill_n - 1 + 1) - 1) * 64)  # load0_a: stage 1, partition 0 (group 0)
        rk_100 = rk_98 + rm_13  # load0_a: stage 1, partition 0 (group 0)
        a_102 = gl.expand_dims(rk_100, 0)  # load0_a: stage 1, partition 0 (group 0)
        a_103 = a_102.to(gl.int64)  # load0_a: stage 1, partition 0 (group 0)
        a_104 = a_103.broadcast_to([64, 64])  # load0_a: stage 1, partition 0 (group 0)
        a_105 = a_36 + a_104  # load0_a: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        a_107 = a_107_as.index(((twill_n - 1 + 1) - 2) % 2).load(L5)  # load0_a: stage 2, partition 0 (group 0)
        a_106 = A + a_105  # load0_a: stage 1, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 1, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_107_as.index(((twill_n - 1 + 1) - 1) % 2), a_106)  # load0_a: stage 1, partition 0 (group 0)
        else:  # load0_a: stage 1, partition 0 (group 0)
            a_107_as.index(((twill_n - 1 + 1) - 1) % 2).store(gl.load(a_106))  # load0_a: stage 1, partition 0 (group 0)
        a_108 = gl.convert_layout(a_107, L6)  # convert0_a: stage 2, partition 0 (group 0)
        a_117 = a_108.to(gl.float32)  # convert0_a: stage 2, partition 0 (group 0)
        a_118 = a_117.to(gl.bfloat16)  # convert0_a: stage 2, partition 0 (group 0)
        b_116 = b_116_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
        tok_acc_119 = warpgroup_mma(a_118, b_116, acc_119_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_119 = warpgroup_mma_wait(0, deps=(tok_acc_119,))
        acc_119_p1 = acc_119
        async_copy.wait_group(0)
        gl.thread_barrier()
        a_107 = a_107_as.index(((twill_n - 1 + 2) - 2) % 2).load(L5)  # load0_a: stage 2, partition 0 (group 0)
        a_108 = gl.convert_layout(a_107, L6)  # convert0_a: stage 2, partition 0 (group 0)
        a_117 = a_108.to(gl.float32)  # convert0_a: stage 2, partition 0 (group 0)
        a_118 = a_117.to(gl.bfloat16)  # convert0_a: stage 2, partition 0 (group 0)
        b_116 = b_116_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
        tok_acc_119 = warpgroup_mma(a_118, b_116, acc_119_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        acc_119 = warpgroup_mma_wait(0, deps=(tok_acc_119,))
        acc_119_p1 = acc_119
        b_116_ring._keep_alive()
    else:
        arg10_w = gl.full([64, 128], 0.0, gl.float32, layout=L4)
        for acc_97_w in range(0, prev_multiple_31, 64):
            rk_100_w = acc_97_w + rm_13
            rk_101_w = acc_97_w + rm_12
            a_102_w = gl.expand_dims(rk_100_w, 0)
            a_103_w = a_102_w.to(gl.int64)
            a_104_w = a_103_w.broadcast_to([64, 64])
            a_105_w = a_36 + a_104_w
            a_106_w = A + a_105_w
            a_107_w = gl.load(a_106_w)
            a_108_w = gl.convert_layout(a_107_w, L6)
            b_109_w = gl.expand_dims(rk_101_w, 1)
            b_110_w = b_109_w * stride_bk
            b_111_w = b_110_w.to(gl.int64)
            b_112_w = b_111_w.broadcast_to([64, 128])
            b_113_w = b_112_w + b_40
            b_114_w = B + b_113_w
            b_115_w = gl.load(b_114_w)
            b_116_w = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_115_w)
            fence_async_shared()
            a_117_w = a_108_w.to(gl.float32)
            a_118_w = a_117_w.to(gl.bfloat16)
            acc_119_w = warpgroup_mma(a_118_w, b_116_w, arg10_w)
            arg10_w = acc_119_w
        acc_119_p1 = arg10_w
    rk_43 = prev_multiple_31 + rm_13
    rk_44 = prev_multiple_31 + rm_12
    mask_k_46 = rk_43 < K
    mask_k_47 = rk_44 < K
    a_48 = gl.expand_dims(mask_k_46, 0)
    a_49 = gl.expand_dims(ram_26, 1)
    a_50 = gl.cast(stride_am, gl.int64)
    a_52 = a_49 * a_50
    a_53 = gl.expand_dims(rk_43, 0)
    a_54 = a_53.to(gl.int64)
    a_55 = a_52.broadcast_to([64, 64])
    a_56 = a_54.broadcast_to([64, 64])
    a_57 = a_55 + a_56
    a_59 = A + a_57
    a_60 = a_48.broadcast_to([64, 64])
    a_61 = gl.load(a_59, mask=a_60, other=0.0)
    a_62 = gl.convert_layout(a_61, L6)
    b_63 = gl.expand_dims(mask_k_47, 1)
    b_64 = gl.expand_dims(rk_44, 1)
    b_66 = b_64 * stride_bk
    b_67 = gl.expand_dims(rbn_28, 0)
    b_68 = b_66.to(gl.int64)
    b_69 = b_68.broadcast_to([64, 128])
    b_70 = b_67.broadcast_to([64, 128])
    b_71 = b_69 + b_70
    b_73 = B + b_71
    b_74 = b_63.broadcast_to([64, 128])
    b_75 = gl.load(b_73, mask=b_74, other=0.0)
    b_76 = gl.allocate_shared_memory(gl.bfloat16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_75)
    fence_async_shared()
    a_77 = a_62.to(gl.float32)
    a_78 = a_77.to(gl.bfloat16)
    acc_79 = warpgroup_mma(a_78, b_76, acc_119_p1)
    acc_80 = acc_79.to(gl.bfloat16)
    C_81 = gl.expand_dims(rm_19, 1)
    C_82 = gl.cast(stride_cm, gl.int64)
    C_84 = C_81 * C_82
    C_85 = gl.expand_dims(rn_23, 0)
    C_86 = C_84.broadcast_to([64, 128])
    C_87 = C_85.broadcast_to([64, 128])
    C_88 = C_86 + C_87
    C_90 = C + C_88
    mask = rm_19 < ram
    mask_91 = gl.expand_dims(mask, 1)
    mask_92 = rn_23 < rbn
    mask_93 = gl.expand_dims(mask_92, 0)
    mask_94 = mask_91.broadcast_to([64, 128])
    mask_95 = mask_93.broadcast_to([64, 128])
    mask_96 = mask_94 & mask_95
    v0 = gl.convert_layout(acc_80, L7)
    gl.store(C_90, v0, mask=mask_96)

@gluon.jit
def twill_kernel(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, TWILL_COPY: gl.constexpr):
    consumer_0(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'C', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'C', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'C', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A', 'B', 'stride_am', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    grid=grid)``: the kernel is specialised already (a warmup run compiles nothing here: the first launch does)."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)

    def run(self, *args, grid, warmup=False, **kwargs):
        """``kernel.run(*args, grid=grid, warmup=False)``, as a JIT function is run without its ``[grid]``."""
        return None if warmup else launch(grid, *args, **kwargs)

    @property
    def fn(self):
        return self

    @property
    def best_config(self):
        return _Config()


kernel = _Kernel()
