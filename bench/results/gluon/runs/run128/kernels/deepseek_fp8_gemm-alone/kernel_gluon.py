"""fp8_gemm_kernel, written by twill from its joint schedule: I=201 L=162 (optimal), 990 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (a_82_ring: 4 x 8192 B, issued 2 iteration(s) ahead, b_86_ring: 4 x 16384 B, issued 2 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 2 stage(s) ahead of their readers; 3 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 104 per thread)
- shared memory: 98320 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 2], instr_shape=[16, 64, 32])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 2], instr_shape=[16, 64, 32])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 2], instr_shape=[16, 64, 32]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, a_s_ptr, b_s_ptr, M, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_m = pid_m * 64
    offs_m_8 = gl.arange(0, 64, layout=L0)
    offs_m_9 = gl.arange(0, 64, layout=L1)
    offs_m_10 = gl.arange(0, 64, layout=L2)
    offs_m_14 = offs_m + offs_m_8
    offs_m_15 = offs_m + offs_m_9
    offs_m_16 = offs_m + offs_m_10
    offs_m_19 = offs_m_14 % M
    offs_m_20 = offs_m_16 % M
    offs_n_21 = pid_n * 128
    offs_n_22 = gl.arange(0, 128, layout=L3)
    offs_n_23 = gl.arange(0, 128, layout=L4)
    offs_n_24 = gl.arange(0, 128, layout=L5)
    offs_n_28 = offs_n_21 + offs_n_22
    offs_n_29 = offs_n_21 + offs_n_23
    offs_n_30 = offs_n_21 + offs_n_24
    offs_n_31 = offs_n_28 % 7168
    offs_n_32 = offs_n_29 % 7168
    a_ptrs_33 = gl.expand_dims(offs_m_19, 1)
    a_ptrs_34 = a_ptrs_33 * 2048
    a_ptrs_36 = a_ptr + a_ptrs_34
    a_ptrs_37 = gl.arange(0, 128, layout=L6)
    a_ptrs_38 = gl.expand_dims(a_ptrs_37, 0)
    a_ptrs_39 = a_ptrs_36.broadcast_to([64, 128])
    a_ptrs_40 = a_ptrs_38.broadcast_to([64, 128])
    a_ptrs_41 = a_ptrs_39 + a_ptrs_40
    b_ptrs_42 = gl.expand_dims(offs_n_31, 0)
    b_ptrs_43 = b_ptrs_42 * 2048
    b_ptrs_45 = b_ptr + b_ptrs_43
    b_ptrs_46 = gl.arange(0, 128, layout=L7)
    b_ptrs_47 = gl.expand_dims(b_ptrs_46, 1)
    b_ptrs_48 = b_ptrs_45.broadcast_to([128, 128])
    b_ptrs_49 = b_ptrs_47.broadcast_to([128, 128])
    b_ptrs_50 = b_ptrs_48 + b_ptrs_49
    a_s_ptrs_51 = offs_m_20 * 16
    a_s_ptrs_53 = a_s_ptr + a_s_ptrs_51
    b_s_ptrs_54 = offs_n_32 // 128
    b_s_ptrs_55 = b_s_ptrs_54 * 16
    b_s_ptrs_57 = b_s_ptr + b_s_ptrs_55
    twill_n = (16 - 0 + 1 - 1) // 1
    a_82_ring = gl.allocate_shared_memory(gl.float8e4nv, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    b_86_ring = gl.allocate_shared_memory(gl.float8e4nv, [4, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True))
    a_ptrs_95 = a_ptrs_41
    b_ptrs_96 = b_ptrs_50
    a_ptrs_95_p1 = a_ptrs_95
    b_ptrs_96_p1 = b_ptrs_96
    a_s_ptrs_97 = a_s_ptrs_53
    b_s_ptrs_98 = b_s_ptrs_57
    a = (0 + (0 - 0) * 1) * 128  # load0_a: stage 0, partition 0 (group 0)
    a_77 = 2048 - a  # load0_a: stage 0, partition 0 (group 0)
    a_78 = a_77  # load0_a: stage 0, partition 0 (group 0)
    b = a_77  # load1_b: stage 0, partition 0 (group 0)
    a_79 = a_ptrs_38 < a_78  # load0_a: stage 0, partition 0 (group 0)
    b_83 = b_ptrs_47 < b  # load1_b: stage 0, partition 0 (group 0)
    a_80 = a_79.broadcast_to([64, 128])  # load0_a: stage 0, partition 0 (group 0)
    b_84 = b_83.broadcast_to([128, 128])  # load1_b: stage 0, partition 0 (group 0)
    a_ptrs_95 = a_ptrs_95_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
    b_ptrs_96 = b_ptrs_96_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(a_82_ring.index((0 - 0) % 4), a_ptrs_95_p1, mask=a_80)  # load0_a: stage 0, partition 0 (group 0)
    else:  # load0_a: stage 0, partition 0 (group 0)
        a_82_ring.index((0 - 0) % 4).store(gl.load(a_ptrs_95_p1, mask=a_80, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_86_ring.index((0 - 0) % 4), b_ptrs_96_p1, mask=b_84)  # load1_b: stage 0, partition 0 (group 0)
    else:  # load1_b: stage 0, partition 0 (group 0)
        b_86_ring.index((0 - 0) % 4).store(gl.load(b_ptrs_96_p1, mask=b_84, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_95_p1 = a_ptrs_95
    a_s_ptrs_97_p1 = a_s_ptrs_97
    b_ptrs_96_p1 = b_ptrs_96
    b_s_ptrs_98_p1 = b_s_ptrs_98
    accumulator_94 = gl.full([64, 128], 0.0, gl.float32, layout=L8)
    a = (0 + (1 - 0) * 1) * 128  # load0_a: stage 0, partition 0 (group 0)
    a_77 = 2048 - a  # load0_a: stage 0, partition 0 (group 0)
    a_78 = a_77  # load0_a: stage 0, partition 0 (group 0)
    b = a_77  # load1_b: stage 0, partition 0 (group 0)
    a_79 = a_ptrs_38 < a_78  # load0_a: stage 0, partition 0 (group 0)
    b_83 = b_ptrs_47 < b  # load1_b: stage 0, partition 0 (group 0)
    a_80 = a_79.broadcast_to([64, 128])  # load0_a: stage 0, partition 0 (group 0)
    b_84 = b_83.broadcast_to([128, 128])  # load1_b: stage 0, partition 0 (group 0)
    a_ptrs_95 = a_ptrs_95_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
    b_ptrs_96 = b_ptrs_96_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(a_82_ring.index((1 - 0) % 4), a_ptrs_95_p1, mask=a_80)  # load0_a: stage 0, partition 0 (group 0)
    else:  # load0_a: stage 0, partition 0 (group 0)
        a_82_ring.index((1 - 0) % 4).store(gl.load(a_ptrs_95_p1, mask=a_80, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_86_ring.index((1 - 0) % 4), b_ptrs_96_p1, mask=b_84)  # load1_b: stage 0, partition 0 (group 0)
    else:  # load1_b: stage 0, partition 0 (group 0)
        b_86_ring.index((1 - 0) % 4).store(gl.load(b_ptrs_96_p1, mask=b_84, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
    a_s_ptrs_97 = a_s_ptrs_97_p1 + 1  # load2_a_s: stage 1, partition 0 (group 0)
    a_s = gl.load(a_s_ptrs_97_p1)  # load2_a_s: stage 1, partition 0 (group 0)
    b_s_ptrs_98 = b_s_ptrs_98_p1 + 1  # load3_b_s: stage 1, partition 0 (group 0)
    b_s = gl.load(b_s_ptrs_98_p1)  # load3_b_s: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_95_p1 = a_ptrs_95
    a_s_p1 = a_s
    a_s_ptrs_97_p1 = a_s_ptrs_97
    accumulator_94_p1 = accumulator_94
    b_ptrs_96_p1 = b_ptrs_96
    b_s_p1 = b_s
    b_s_ptrs_98_p1 = b_s_ptrs_98
    for twill_b in range(2, twill_n):
        a = (0 + (twill_b - 0) * 1) * 128  # load0_a: stage 0, partition 0 (group 0)
        a_77 = 2048 - a  # load0_a: stage 0, partition 0 (group 0)
        a_78 = a_77  # load0_a: stage 0, partition 0 (group 0)
        b = a_77  # load1_b: stage 0, partition 0 (group 0)
        async_copy.wait_group(1)
        gl.thread_barrier()
        a_82 = a_82_ring.index((twill_b - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
        a_79 = a_ptrs_38 < a_78  # load0_a: stage 0, partition 0 (group 0)
        b_86 = b_86_ring.index((twill_b - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
        b_83 = b_ptrs_47 < b  # load1_b: stage 0, partition 0 (group 0)
        a_80 = a_79.broadcast_to([64, 128])  # load0_a: stage 0, partition 0 (group 0)
        b_84 = b_83.broadcast_to([128, 128])  # load1_b: stage 0, partition 0 (group 0)
        a_ptrs_95 = a_ptrs_95_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_96 = b_ptrs_96_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_82_ring.index((twill_b - 0) % 4), a_ptrs_95_p1, mask=a_80)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_82_ring.index((twill_b - 0) % 4).store(gl.load(a_ptrs_95_p1, mask=a_80, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_86_ring.index((twill_b - 0) % 4), b_ptrs_96_p1, mask=b_84)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_86_ring.index((twill_b - 0) % 4).store(gl.load(b_ptrs_96_p1, mask=b_84, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        tok_accumulator_87 = warpgroup_mma(a_82, b_86, gl.full([64, 128], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_accumulator: stage 2, partition 0 (group 0)
        a_s_ptrs_97 = a_s_ptrs_97_p1 + 1  # load2_a_s: stage 1, partition 0 (group 0)
        a_s = gl.load(a_s_ptrs_97_p1)  # load2_a_s: stage 1, partition 0 (group 0)
        b_s_ptrs_98 = b_s_ptrs_98_p1 + 1  # load3_b_s: stage 1, partition 0 (group 0)
        b_s = gl.load(b_s_ptrs_98_p1)  # load3_b_s: stage 1, partition 0 (group 0)
        accumulator_88 = gl.expand_dims(a_s_p1, 1)  # elementwise0_accumulator: stage 2, partition 0 (group 0)
        accumulator_89 = accumulator_88.broadcast_to([64, 128])  # elementwise0_accumulator: stage 2, partition 0 (group 0)
        accumulator_87 = warpgroup_mma_wait(0, deps=(tok_accumulator_87,))
        accumulator_90 = accumulator_87 * accumulator_89  # elementwise0_accumulator: stage 2, partition 0 (group 0)
        accumulator_91 = gl.expand_dims(b_s_p1, 0)  # elementwise0_accumulator: stage 2, partition 0 (group 0)
        accumulator_92 = accumulator_91.broadcast_to([64, 128])  # elementwise0_accumulator: stage 2, partition 0 (group 0)
        accumulator_93 = accumulator_90 * accumulator_92  # elementwise0_accumulator: stage 2, partition 0 (group 0)
        accumulator_94 = accumulator_94_p1 + accumulator_93  # elementwise0_accumulator: stage 2, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_95_p1 = a_ptrs_95
        a_s_p1 = a_s
        a_s_ptrs_97_p1 = a_s_ptrs_97
        accumulator_94_p1 = accumulator_94
        b_ptrs_96_p1 = b_ptrs_96
        b_s_p1 = b_s
        b_s_ptrs_98_p1 = b_s_ptrs_98
    async_copy.wait_group(1)
    gl.thread_barrier()
    a_82 = a_82_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
    b_86 = b_86_ring.index(((twill_n - 1 + 1) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
    tok_accumulator_87 = warpgroup_mma(a_82, b_86, gl.full([64, 128], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_accumulator: stage 2, partition 0 (group 0)
    a_s_ptrs_97 = a_s_ptrs_97_p1 + 1  # load2_a_s: stage 1, partition 0 (group 0)
    a_s = gl.load(a_s_ptrs_97_p1)  # load2_a_s: stage 1, partition 0 (group 0)
    b_s_ptrs_98 = b_s_ptrs_98_p1 + 1  # load3_b_s: stage 1, partition 0 (group 0)
    b_s = gl.load(b_s_ptrs_98_p1)  # load3_b_s: stage 1, partition 0 (group 0)
    accumulator_88 = gl.expand_dims(a_s_p1, 1)  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_89 = accumulator_88.broadcast_to([64, 128])  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_87 = warpgroup_mma_wait(0, deps=(tok_accumulator_87,))
    accumulator_90 = accumulator_87 * accumulator_89  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_91 = gl.expand_dims(b_s_p1, 0)  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_92 = accumulator_91.broadcast_to([64, 128])  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_93 = accumulator_90 * accumulator_92  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_94 = accumulator_94_p1 + accumulator_93  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_95_p2 = a_ptrs_95_p1
    a_ptrs_95_p1 = a_ptrs_95
    a_s_p1 = a_s
    a_s_ptrs_97_p2 = a_s_ptrs_97_p1
    a_s_ptrs_97_p1 = a_s_ptrs_97
    accumulator_94_p1 = accumulator_94
    b_ptrs_96_p2 = b_ptrs_96_p1
    b_ptrs_96_p1 = b_ptrs_96
    b_s_p1 = b_s
    b_s_ptrs_98_p2 = b_s_ptrs_98_p1
    b_s_ptrs_98_p1 = b_s_ptrs_98
    async_copy.wait_group(1)
    gl.thread_barrier()
    a_82 = a_82_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
    b_86 = b_86_ring.index(((twill_n - 1 + 2) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
    tok_accumulator_87 = warpgroup_mma(a_82, b_86, gl.full([64, 128], 0.0, gl.float32, layout=L8), use_acc=False, is_async=True)  # dot0_accumulator: stage 2, partition 0 (group 0)
    accumulator_88 = gl.expand_dims(a_s_p1, 1)  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_89 = accumulator_88.broadcast_to([64, 128])  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_87 = warpgroup_mma_wait(0, deps=(tok_accumulator_87,))
    accumulator_90 = accumulator_87 * accumulator_89  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_91 = gl.expand_dims(b_s_p1, 0)  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_92 = accumulator_91.broadcast_to([64, 128])  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_93 = accumulator_90 * accumulator_92  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    accumulator_94 = accumulator_94_p1 + accumulator_93  # elementwise0_accumulator: stage 2, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_95_p3 = a_ptrs_95_p2
    a_ptrs_95_p2 = a_ptrs_95_p1
    a_ptrs_95_p1 = a_ptrs_95
    a_s_p1 = a_s
    a_s_ptrs_97_p2 = a_s_ptrs_97_p1
    a_s_ptrs_97_p1 = a_s_ptrs_97
    accumulator_94_p1 = accumulator_94
    b_ptrs_96_p3 = b_ptrs_96_p2
    b_ptrs_96_p2 = b_ptrs_96_p1
    b_ptrs_96_p1 = b_ptrs_96
    b_s_p1 = b_s
    b_s_ptrs_98_p2 = b_s_ptrs_98_p1
    b_s_ptrs_98_p1 = b_s_ptrs_98
    a_82_ring._keep_alive()
    b_86_ring._keep_alive()
    c = accumulator_94_p1.to(gl.bfloat16)
    c_ptrs_58 = gl.expand_dims(offs_m_15, 1)
    c_ptrs_59 = c_ptrs_58 * 7168
    c_ptrs_61 = c_ptr + c_ptrs_59
    c_ptrs_62 = gl.expand_dims(offs_n_30, 0)
    c_ptrs_63 = c_ptrs_61.broadcast_to([64, 128])
    c_ptrs_64 = c_ptrs_62.broadcast_to([64, 128])
    c_ptrs_65 = c_ptrs_63 + c_ptrs_64
    mask_67 = c_ptrs_58 < M
    mask_68 = c_ptrs_62 < 7168
    mask_69 = mask_67.broadcast_to([64, 128])
    mask_70 = mask_68.broadcast_to([64, 128])
    mask_71 = mask_69 & mask_70
    v0 = gl.convert_layout(c, L9)
    gl.store(c_ptrs_65, v0, mask=mask_71)

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, a_s_ptr, b_s_ptr, M, TWILL_COPY: gl.constexpr):
    consumer_0(a_ptr, b_ptr, c_ptr, a_s_ptr, b_s_ptr, M, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'a_s_ptr', 'b_s_ptr', 'M', 'N', 'K', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'a_s_ptr', 'b_s_ptr', 'M']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'a_s_ptr', 'b_s_ptr', 'M']   # the arguments a launch key reads
CONSTEXPRS = {'N': 7168, 'K': 2048, 'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
