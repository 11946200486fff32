"""matmul_kernel, written by twill from its joint schedule: I=300 L=300 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (a_87_ring: 4 x 16384 B, issued 2 iteration(s) ahead, b_91_ring: 4 x 16384 B, issued 2 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 2 stage(s) ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 296 per thread)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 131088 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 32]))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m = M + 127
        num_pid_m_4 = num_pid_m // 128
        num_pid_n = N + 127
        num_pid_n_5 = num_pid_n // 128
        num_pid_in_group = num_pid_n_5 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_4 - first_pid_m
        group_size_m_6 = gl.minimum(group_size_m, 8)
        pid_m = pid % group_size_m_6
        pid_m_7 = first_pid_m + pid_m
        pid_n = pid % num_pid_in_group
        pid_n_8 = pid_n // group_size_m_6
        offs_k = gl.arange(0, 128, layout=L0)
        offs_k_9 = gl.arange(0, 128, layout=L1)
        offs_k_10 = gl.arange(0, 128, layout=L2)
        offs_k_11 = gl.arange(0, 128, layout=L3)
        offs_k_12 = gl.arange(0, 128, layout=L4)
        offs_am = pid_m_7 * 128
        offs_am_16 = offs_am + offs_k
        offs_am_17 = offs_am + offs_k_9
        offs_am_18 = offs_am + offs_k_12
        offs_am_21 = offs_am_16 % M
        offs_am_22 = offs_am_18 % M
        offs_bn = pid_n_8 * 128
        offs_bn_25 = offs_bn + offs_k_10
        offs_bn_26 = offs_bn + offs_k_11
        offs_bn_28 = offs_bn_25 % N
        a_ptrs = gl.expand_dims(offs_am_21, 1)
        a_ptrs_30 = a_ptrs * stride_am
        a_ptrs_31 = gl.arange(0, 128, layout=L5)
        a_ptrs_32 = gl.expand_dims(a_ptrs_31, 0)
        a_ptrs_33 = a_ptrs_30.broadcast_to([128, 128])
        a_ptrs_34 = a_ptrs_32.broadcast_to([128, 128])
        a_ptrs_35 = a_ptrs_33 + a_ptrs_34
        a_ptrs_37 = a_ptr + a_ptrs_35
        b_ptrs = gl.arange(0, 128, layout=L6)
        b_ptrs_38 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_39 = gl.expand_dims(offs_bn_28, 0)
        b_ptrs_41 = b_ptrs_39 * stride_bn
        b_ptrs_42 = b_ptrs_38.broadcast_to([128, 128])
        b_ptrs_43 = b_ptrs_41.broadcast_to([128, 128])
        b_ptrs_44 = b_ptrs_42 + b_ptrs_43
        b_ptrs_46 = b_ptr + b_ptrs_44
        a_scale = gl.load(a_scale_ptr)
        b_scale = gl.load(b_scale_ptr)
        bias_ptrs_47 = bias_ptr + offs_am_22
        bias_48 = offs_am_22 < M
        bias_49 = gl.load(bias_ptrs_47, mask=bias_48, other=0.0)
        v5 = K + 127
        v6 = v5 // 128
        twill_n = (v6 - 0 + 1 - 1) // 1
        if (twill_n >= 2) | (gl.program_id(0) < 0):
            a_87_ring = gl.allocate_shared_memory(gl.float8e4nv, [4, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
            b_91_ring = gl.allocate_shared_memory(gl.float8e4nv, [4, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True))
            a_ptrs_94 = a_ptrs_37
            b_ptrs_95 = b_ptrs_46
            a_ptrs_94_p1 = a_ptrs_94
            b_ptrs_95_p1 = b_ptrs_95
            a = (0 + (0 - 0) * 1) * 128  # load0_a: stage 0, partition 0 (group 0)
            a_82 = K - a  # load0_a: stage 0, partition 0 (group 0)
            a_83 = a_82  # load0_a: stage 0, partition 0 (group 0)
            b = a_82  # load1_b: stage 0, partition 0 (group 0)
            a_84 = a_ptrs_32 < a_83  # load0_a: stage 0, partition 0 (group 0)
            b_88 = b_ptrs_38 < b  # load1_b: stage 0, partition 0 (group 0)
            a_85 = a_84.broadcast_to([128, 128])  # load0_a: stage 0, partition 0 (group 0)
            b_89 = b_88.broadcast_to([128, 128])  # load1_b: stage 0, partition 0 (group 0)
            a_ptrs_94 = a_ptrs_94_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_95 = b_ptrs_95_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_87_ring.index((twill_base + 0 - 0) % 4), a_ptrs_94_p1, mask=a_85)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_87_ring.index((twill_base + 0 - 0) % 4).store(gl.load(a_ptrs_94_p1, mask=a_85, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_91_ring.index((twill_base + 0 - 0) % 4), b_ptrs_95_p1, mask=b_89)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_91_ring.index((twill_base + 0 - 0) % 4).store(gl.load(b_ptrs_95_p1, mask=b_89, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            a_ptrs_94_p1 = a_ptrs_94
            b_ptrs_95_p1 = b_ptrs_95
            accumulator_93 = gl.full([128, 128], 0.0, gl.float32, layout=L7)
            a = (0 + (1 - 0) * 1) * 128  # load0_a: stage 0, partition 0 (group 0)
            a_82 = K - a  # load0_a: stage 0, partition 0 (group 0)
            a_83 = a_82  # load0_a: stage 0, partition 0 (group 0)
            b = a_82  # load1_b: stage 0, partition 0 (group 0)
            a_84 = a_ptrs_32 < a_83  # load0_a: stage 0, partition 0 (group 0)
            b_88 = b_ptrs_38 < b  # load1_b: stage 0, partition 0 (group 0)
            a_85 = a_84.broadcast_to([128, 128])  # load0_a: stage 0, partition 0 (group 0)
            b_89 = b_88.broadcast_to([128, 128])  # load1_b: stage 0, partition 0 (group 0)
            a_ptrs_94 = a_ptrs_94_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_95 = b_ptrs_95_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_87_ring.index((twill_base + 1 - 0) % 4), a_ptrs_94_p1, mask=a_85)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_87_ring.index((twill_base + 1 - 0) % 4).store(gl.load(a_ptrs_94_p1, mask=a_85, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_91_ring.index((twill_base + 1 - 0) % 4), b_ptrs_95_p1, mask=b_89)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_91_ring.index((twill_base + 1 - 0) % 4).store(gl.load(b_ptrs_95_p1, mask=b_89, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            a_ptrs_94_p1 = a_ptrs_94
            accumulator_93_p1 = accumulator_93
            b_ptrs_95_p1 = b_ptrs_95
            for twill_b in range(2, twill_n):
                a = (0 + (twill_b - 0) * 1) * 128  # load0_a: stage 0, partition 0 (group 0)
                a_82 = K - a  # load0_a: stage 0, partition 0 (group 0)
                a_83 = a_82  # load0_a: stage 0, partition 0 (group 0)
                async_copy.wait_group(1)
                gl.thread_barrier()
                a_87 = a_87_ring.index((twill_base + twill_b - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
                b = a_82  # load1_b: stage 0, partition 0 (group 0)
                a_84 = a_ptrs_32 < a_83  # load0_a: stage 0, partition 0 (group 0)
                b_91 = b_91_ring.index((twill_base + twill_b - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
                b_88 = b_ptrs_38 < b  # load1_b: stage 0, partition 0 (group 0)
                a_85 = a_84.broadcast_to([128, 128])  # load0_a: stage 0, partition 0 (group 0)
                b_89 = b_88.broadcast_to([128, 128])  # load1_b: stage 0, partition 0 (group 0)
                a_ptrs_94 = a_ptrs_94_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
                b_ptrs_95 = b_ptrs_95_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(a_87_ring.index((twill_base + twill_b - 0) % 4), a_ptrs_94_p1, mask=a_85)  # load0_a: stage 0, partition 0 (group 0)
                else:  # load0_a: stage 0, partition 0 (group 0)
                    a_87_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(a_ptrs_94_p1, mask=a_85, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(b_91_ring.index((twill_base + twill_b - 0) % 4), b_ptrs_95_p1, mask=b_89)  # load1_b: stage 0, partition 0 (group 0)
                else:  # load1_b: stage 0, partition 0 (group 0)
                    b_91_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(b_ptrs_95_p1, mask=b_89, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
                tok_accumulator_92 = warpgroup_mma(a_87, b_91, gl.full([128, 128], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_accumulator: stage 2, partition 0 (group 0)
                accumulator_92 = warpgroup_mma_wait(0, deps=(tok_accumulator_92,))
                accumulator_93 = accumulator_93_p1 + accumulator_92  # elementwise0_accumulator: stage 2, partition 0 (group 0)
                async_copy.commit_group()
                a_ptrs_94_p1 = a_ptrs_94
                accumulator_93_p1 = accumulator_93
                b_ptrs_95_p1 = b_ptrs_95
            async_copy.wait_group(1)
            gl.thread_barrier()
            a_87 = a_87_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
            b_91 = b_91_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
            tok_accumulator_92 = warpgroup_mma(a_87, b_91, gl.full([128, 128], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_accumulator: stage 2, partition 0 (group 0)
            accumulator_92 = warpgroup_mma_wait(0, deps=(tok_accumulator_92,))
            accumulator_93 = accumulator_93_p1 + accumulator_92  # elementwise0_accumulator: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            a_ptrs_94_p2 = a_ptrs_94_p1
            a_ptrs_94_p1 = a_ptrs_94
            accumulator_93_p1 = accumulator_93
            b_ptrs_95_p2 = b_ptrs_95_p1
            b_ptrs_95_p1 = b_ptrs_95
            async_copy.wait_group(1)
            gl.thread_barrier()
            a_87 = a_87_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
            b_91 = b_91_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
            tok_accumulator_92 = warpgroup_mma(a_87, b_91, gl.full([128, 128], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_accumulator: stage 2, partition 0 (group 0)
            accumulator_92 = warpgroup_mma_wait(0, deps=(tok_accumulator_92,))
            accumulator_93 = accumulator_93_p1 + accumulator_92  # elementwise0_accumulator: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            a_ptrs_94_p3 = a_ptrs_94_p2
            a_ptrs_94_p2 = a_ptrs_94_p1
            a_ptrs_94_p1 = a_ptrs_94
            accumulator_93_p1 = accumulator_93
            b_ptrs_95_p3 = b_ptrs_95_p2
            b_ptrs_95_p2 = b_ptrs_95_p1
            b_ptrs_95_p1 = b_ptrs_95
            a_87_ring._keep_alive()
            b_91_ring._keep_alive()
        else:
            arg13_w = gl.full([128, 128], 0.0, gl.float32, layout=L7)
            a_ptrs_80_w = a_ptrs_37
            b_ptrs_81_w = b_ptrs_46
            for accumulator_79_w in range(0, v6, 1):
                a_w = accumulator_79_w * 128
                a_82_w = K - a_w
                a_84_w = a_ptrs_32 < a_82_w
                a_85_w = a_84_w.broadcast_to([128, 128])
                a_86_w = gl.load(a_ptrs_80_w, mask=a_85_w, other=0.0)
                a_87_w = gl.allocate_shared_memory(gl.float8e4nv, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False), a_86_w)
                fence_async_shared()
                b_88_w = b_ptrs_38 < a_82_w
                b_89_w = b_88_w.broadcast_to([128, 128])
                b_90_w = gl.load(b_ptrs_81_w, mask=b_89_w, other=0.0)
                b_91_w = gl.allocate_shared_memory(gl.float8e4nv, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True), b_90_w)
                fence_async_shared()
                accumulator_92_w = warpgroup_mma(a_87_w, b_91_w, gl.full([128, 128], 0.0, gl.float32, layout=L7))
                accumulator_93_w = arg13_w + accumulator_92_w
                a_ptrs_94_w = a_ptrs_80_w + 128
                b_ptrs_95_w = b_ptrs_81_w + 128
                arg13_w = accumulator_93_w
                a_ptrs_80_w = a_ptrs_94_w
                b_ptrs_81_w = b_ptrs_95_w
            accumulator_93_p1 = arg13_w
            a_ptrs_94_p3 = a_ptrs_80_w
            b_ptrs_95_p3 = b_ptrs_81_w
        accumulator_52 = accumulator_93_p1 * a_scale
        accumulator_54 = accumulator_52 * b_scale
        accumulator_55 = gl.convert_layout(bias_49, L8)
        accumulator_56 = gl.expand_dims(accumulator_55, 1)
        accumulator_57 = gl.convert_layout(accumulator_56, L9)
        accumulator_58 = accumulator_57.to(gl.float32)
        accumulator_59 = gl.convert_layout(accumulator_58, L7)
        accumulator_60 = accumulator_59.broadcast_to([128, 128])
        accumulator_61 = accumulator_54 + accumulator_60
        accumulator_62 = accumulator_61 >= 0.0
        accumulator_63 = accumulator_61 * 0.00999999977
        accumulator_64 = gl.where(accumulator_62, accumulator_61, accumulator_63)
        c = accumulator_64.to(gl.float16)
        c_ptrs = gl.expand_dims(offs_am_17, 1)
        c_ptrs_66 = stride_cm * c_ptrs
        c_ptrs_68 = c_ptr + c_ptrs_66
        c_ptrs_69 = gl.expand_dims(offs_bn_26, 0)
        c_ptrs_70 = c_ptrs_68.broadcast_to([128, 128])
        c_ptrs_71 = c_ptrs_69.broadcast_to([128, 128])
        c_ptrs_72 = c_ptrs_70 + c_ptrs_71
        c_mask_73 = c_ptrs < M
        c_mask_75 = c_ptrs_69 < N
        c_mask_76 = c_mask_73.broadcast_to([128, 128])
        c_mask_77 = c_mask_75.broadcast_to([128, 128])
        c_mask_78 = c_mask_76 & c_mask_77
        v7 = gl.convert_layout(c, L10)
        gl.store(c_ptrs_72, v7, mask=c_mask_78)
        twill_base += twill_n

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    consumer_0(a_ptr, b_ptr, c_ptr, a_scale_ptr, b_scale_ptr, bias_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_bias', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'SPLIT_K', 'EVEN_K', 'BIAS', 'APPLY_SCALE', 'ACTIVATION']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'a_scale_ptr', 'b_scale_ptr', 'bias_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'stride_bias': 1, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 128, 'GROUP_SIZE_M': 8, 'SPLIT_K': 1, 'EVEN_K': False, 'BIAS': True, 'APPLY_SCALE': True, 'ACTIVATION': 'leaky_relu'}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'K', 'stride_am', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
