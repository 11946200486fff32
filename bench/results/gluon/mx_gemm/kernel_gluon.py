"""mx_gemm, written by twill from its joint schedule: I=160 L=318 (optimal), 1575 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (b_as 2 x 16384 B, a_as 2 x 16384 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 169 per thread)
- shared operand sb_100_st: partition 0 stores the loop's [128, 128] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 3 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 163856 bytes planned of 232448; maxnreg unset (ptxas allocates)

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
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1, 0], [2, 0], [4, 0], [8, 0], [0, 1], [0, 2]], lane_bases=[[16, 0], [32, 0], [64, 0], [0, 0], [0, 0]], warp_bases=[[0, 0], [0, 0], [0, 0]], block_bases=[], shape=[128, 4]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0]))
L9 = gl.constexpr(gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 16, 1], threads_per_warp=[1, 8, 4], warps_per_cta=[1, 1, 8], order=[1, 2, 0])))
L10 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]), k_width=2))
L11 = gl.constexpr(gl.SliceLayout(2, gl.DistributedLinearLayout(reg_bases=[[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 0, 16], [0, 1, 0], [0, 2, 0]], lane_bases=[[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp_bases=[[16, 0, 0], [32, 0, 0], [64, 0, 0]], block_bases=[], shape=[128, 4, 32])))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, a_scale, b_scale, c_ptr, M, N, K, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_m = twill_pid0
        pid_n = twill_pid1
        offs_m = pid_m * 128
        offs_m_7 = gl.arange(0, 128, layout=L0)
        offs_m_8 = gl.arange(0, 128, layout=L1)
        offs_m_9 = gl.arange(0, 128, layout=L2)
        offs_m_10 = gl.arange(0, 128, layout=L3)
        offs_m_11 = gl.arange(0, 128, layout=L4)
        offs_m_15 = offs_m + offs_m_7
        offs_m_16 = offs_m + offs_m_8
        offs_m_17 = offs_m + offs_m_9
        offs_n = pid_n * 128
        offs_n_21 = offs_n + offs_m_10
        offs_n_22 = offs_n + offs_m_11
        offs_n_23 = offs_n + offs_m_9
        a_ptrs = gl.expand_dims(offs_m_15, 1)
        a_ptrs_24 = gl.expand_dims(offs_m_16, 1)
        a_ptrs_25 = gl.expand_dims(offs_m_17, 1)
        a_ptrs_27 = a_ptrs * K
        a_ptrs_29 = a_ptr + a_ptrs_27
        a_ptrs_30 = gl.expand_dims(offs_m_10, 0)
        a_ptrs_31 = a_ptrs_29.broadcast_to([128, 128])
        a_ptrs_32 = a_ptrs_30.broadcast_to([128, 128])
        a_ptrs_33 = a_ptrs_31 + a_ptrs_32
        b_ptrs = gl.expand_dims(offs_m_7, 1)
        b_ptrs_36 = b_ptrs * N
        b_ptrs_38 = b_ptr + b_ptrs_36
        b_ptrs_39 = gl.expand_dims(offs_n_21, 0)
        b_ptrs_40 = gl.expand_dims(offs_n_22, 0)
        b_ptrs_41 = b_ptrs_38.broadcast_to([128, 128])
        b_ptrs_42 = b_ptrs_39.broadcast_to([128, 128])
        b_ptrs_43 = b_ptrs_40.broadcast_to([128, 128])
        b_ptrs_44 = b_ptrs_41 + b_ptrs_42
        as_ptrs = K // 32
        as_ptrs_46 = a_ptrs_25 * as_ptrs
        as_ptrs_48 = a_scale + as_ptrs_46
        as_ptrs_49 = gl.arange(0, 4, layout=L5)
        as_ptrs_50 = gl.expand_dims(as_ptrs_49, 0)
        as_ptrs_51 = as_ptrs_48.broadcast_to([128, 4])
        as_ptrs_52 = as_ptrs_50.broadcast_to([128, 4])
        as_ptrs_53 = as_ptrs_51 + as_ptrs_52
        bs_ptrs = gl.expand_dims(offs_n_23, 1)
        bs_ptrs_54 = bs_ptrs * as_ptrs
        bs_ptrs_56 = b_scale + bs_ptrs_54
        bs_ptrs_57 = bs_ptrs_56.broadcast_to([128, 4])
        bs_ptrs_58 = bs_ptrs_57 + as_ptrs_52
        v0 = K + 127
        v1 = v0 // 128
        b_ptrs_59 = N * 128
        twill_n = (v1 - 0 + 1 - 1) // 1
        if (twill_n >= 2) | (gl.program_id(0) < 0):
            b_as = gl.allocate_shared_memory(gl.float8e4nv, [2, 128, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
            a_as = gl.allocate_shared_memory(gl.float8e4nv, [2, 128, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
            sb_100_st = gl.allocate_shared_memory(gl.bfloat16, [3, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
            bs_ptrs_105 = bs_ptrs_58
            a_ptrs_102 = a_ptrs_33
            b_ptrs_103 = b_ptrs_44
            a_ptrs_102_p1 = a_ptrs_102
            b_ptrs_103_p1 = b_ptrs_103
            bs_ptrs_105_p1 = bs_ptrs_105
            as_ptrs_104 = as_ptrs_53
            bs_ptrs_105 = bs_ptrs_105_p1 + 4  # load3_sb: stage 0, partition 0 (group 0)
            sb = gl.load(bs_ptrs_105_p1)  # load3_sb: stage 0, partition 0 (group 0)
            b_ptrs_103 = b_ptrs_103_p1 + b_ptrs_59  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_as.index((twill_base + 0 - 0) % 2), b_ptrs_103_p1)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_as.index((twill_base + 0 - 0) % 2).store(gl.load(b_ptrs_103_p1))  # load1_b: stage 0, partition 0 (group 0)
            a_ptrs_102 = a_ptrs_102_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_as.index((twill_base + 0 - 0) % 2), a_ptrs_102_p1)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_as.index((twill_base + 0 - 0) % 2).store(gl.load(a_ptrs_102_p1))  # load0_a: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            a_ptrs_102_p1 = a_ptrs_102
            as_ptrs_104_p1 = as_ptrs_104
            b_ptrs_103_p1 = b_ptrs_103
            bs_ptrs_105_p1 = bs_ptrs_105
            sb_p1 = sb
            acc_101 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
            as_ptrs_104 = as_ptrs_104_p1 + 4  # load2_sa: stage 1, partition 0 (group 0)
            sa_68 = gl.load(as_ptrs_104_p1)  # load2_sa: stage 1, partition 0 (group 0)
            bs_ptrs_105 = bs_ptrs_105_p1 + 4  # load3_sb: stage 0, partition 0 (group 0)
            sb = gl.load(bs_ptrs_105_p1)  # load3_sb: stage 0, partition 0 (group 0)
            sb_70 = gl.convert_layout(sb_p1, L7)  # convert2_sb: stage 1, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b = b_as.index((twill_base + 1 - 1) % 2).load(L8)  # load1_b: stage 1, partition 0 (group 0)
            b_ptrs_103 = b_ptrs_103_p1 + b_ptrs_59  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_as.index((twill_base + 1 - 0) % 2), b_ptrs_103_p1)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_as.index((twill_base + 1 - 0) % 2).store(gl.load(b_ptrs_103_p1))  # load1_b: stage 0, partition 0 (group 0)
            b_84 = b.to(gl.bfloat16)  # convert4_b: stage 1, partition 0 (group 0)
            sb_85 = gl.convert_layout(gl.permute(sb_70, (1, 0)), L9)  # convert5_sb: stage 1, partition 0 (group 0)
            sb_86 = gl.cast(gl.cast(sb_85, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
            sb_87 = sb_86 << 7  # convert5_sb: stage 1, partition 0 (group 0)
            sb_88 = sb_87.to(gl.bfloat16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
            sb_89 = gl.expand_dims(sb_88, 2)  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_90 = sb_89.broadcast_to([4, 128, 32])  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_91 = gl.permute(sb_90, (0, 2, 1))  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_92 = gl.convert_layout(gl.reshape(sb_91, [128, 128]), L8)  # elementwise1_b: stage 1, partition 0 (group 0)
            b_93 = b_84 * sb_92  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_94 = sb_85 == -1  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_95 = gl.expand_dims(sb_94, 2)  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_96 = sb_95.broadcast_to([4, 128, 32])  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_97 = gl.permute(sb_96, (0, 2, 1))  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_98 = gl.convert_layout(gl.reshape(sb_97, [128, 128]), L8)  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_99 = gl.where(sb_98, float("nan"), b_93)  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_100 = sb_100_st.index((1 - 1) % 3)  # local_store0_sb: stage 1, partition 0 (group 0)
            sb_100.store(sb_99)  # local_store0_sb: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_sb: stage 1, partition 0 (group 0)
            a = a_as.index((twill_base + 1 - 1) % 2).load(L8)  # load0_a: stage 1, partition 0 (group 0)
            a_ptrs_102 = a_ptrs_102_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_as.index((twill_base + 1 - 0) % 2), a_ptrs_102_p1)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_as.index((twill_base + 1 - 0) % 2).store(gl.load(a_ptrs_102_p1))  # load0_a: stage 0, partition 0 (group 0)
            sa = gl.convert_layout(a, L10)  # convert0_sa: stage 1, partition 0 (group 0)
            a_71 = sa.to(gl.bfloat16)  # convert0_sa: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            a_71_p1 = a_71
            a_ptrs_102_p1 = a_ptrs_102
            acc_101_p1 = acc_101
            as_ptrs_104_p1 = as_ptrs_104
            b_ptrs_103_p1 = b_ptrs_103
            bs_ptrs_105_p1 = bs_ptrs_105
            sa_68_p1 = sa_68
            sb_p1 = sb
            sb_100_p1 = sb_100
            for twill_b in range(2, twill_n):
                as_ptrs_104 = as_ptrs_104_p1 + 4  # load2_sa: stage 1, partition 0 (group 0)
                sa_68 = gl.load(as_ptrs_104_p1)  # load2_sa: stage 1, partition 0 (group 0)
                sa_69 = gl.convert_layout(sa_68_p1, L11)  # convert1_sa: stage 2, partition 0 (group 0)
                bs_ptrs_105 = bs_ptrs_105_p1 + 4  # load3_sb: stage 0, partition 0 (group 0)
                sb = gl.load(bs_ptrs_105_p1)  # load3_sb: stage 0, partition 0 (group 0)
                sb_70 = gl.convert_layout(sb_p1, L7)  # convert2_sb: stage 1, partition 0 (group 0)
                sa_72 = gl.cast(gl.cast(sa_69, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert3_sa: stage 2, partition 0 (group 0)
                sa_73 = sa_72 << 7  # convert3_sa: stage 2, partition 0 (group 0)
                sa_74 = sa_73.to(gl.bfloat16, bitcast=True)  # convert3_sa: stage 2, partition 0 (group 0)
                sa_75 = gl.expand_dims(sa_74, 2)  # elementwise0_a: stage 2, partition 0 (group 0)
                sa_76 = sa_75.broadcast_to([128, 4, 32])  # elementwise0_a: stage 2, partition 0 (group 0)
                sa_77 = gl.convert_layout(gl.reshape(sa_76, [128, 128]), L10)  # elementwise0_a: stage 2, partition 0 (group 0)
                a_78 = a_71_p1 * sa_77  # elementwise0_a: stage 2, partition 0 (group 0)
                sa_79 = sa_69 == -1  # elementwise0_a: stage 2, partition 0 (group 0)
                sa_80 = gl.expand_dims(sa_79, 2)  # elementwise0_a: stage 2, partition 0 (group 0)
                sa_81 = sa_80.broadcast_to([128, 4, 32])  # elementwise0_a: stage 2, partition 0 (group 0)
                sa_82 = gl.convert_layout(gl.reshape(sa_81, [128, 128]), L10)  # elementwise0_a: stage 2, partition 0 (group 0)
                sa_83 = gl.where(sa_82, float("nan"), a_78)  # elementwise0_a: stage 2, partition 0 (group 0)
                async_copy.wait_group(0)
                gl.thread_barrier()
                b = b_as.index((twill_base + twill_b - 1) % 2).load(L8)  # load1_b: stage 1, partition 0 (group 0)
                b_ptrs_103 = b_ptrs_103_p1 + b_ptrs_59  # load1_b: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(b_as.index((twill_base + twill_b - 0) % 2), b_ptrs_103_p1)  # load1_b: stage 0, partition 0 (group 0)
                else:  # load1_b: stage 0, partition 0 (group 0)
                    b_as.index((twill_base + twill_b - 0) % 2).store(gl.load(b_ptrs_103_p1))  # load1_b: stage 0, partition 0 (group 0)
                b_84 = b.to(gl.bfloat16)  # convert4_b: stage 1, partition 0 (group 0)
                tok_acc_101 = warpgroup_mma(sa_83, sb_100_p1, acc_101_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
                sb_85 = gl.convert_layout(gl.permute(sb_70, (1, 0)), L9)  # convert5_sb: stage 1, partition 0 (group 0)
                sb_86 = gl.cast(gl.cast(sb_85, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
                sb_87 = sb_86 << 7  # convert5_sb: stage 1, partition 0 (group 0)
                sb_88 = sb_87.to(gl.bfloat16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
                sb_89 = gl.expand_dims(sb_88, 2)  # elementwise1_b: stage 1, partition 0 (group 0)
                sb_90 = sb_89.broadcast_to([4, 128, 32])  # elementwise1_b: stage 1, partition 0 (group 0)
                sb_91 = gl.permute(sb_90, (0, 2, 1))  # elementwise1_b: stage 1, partition 0 (group 0)
                sb_92 = gl.convert_layout(gl.reshape(sb_91, [128, 128]), L8)  # elementwise1_b: stage 1, partition 0 (group 0)
                b_93 = b_84 * sb_92  # elementwise1_b: stage 1, partition 0 (group 0)
                sb_94 = sb_85 == -1  # elementwise1_b: stage 1, partition 0 (group 0)
                sb_95 = gl.expand_dims(sb_94, 2)  # elementwise1_b: stage 1, partition 0 (group 0)
                sb_96 = sb_95.broadcast_to([4, 128, 32])  # elementwise1_b: stage 1, partition 0 (group 0)
                sb_97 = gl.permute(sb_96, (0, 2, 1))  # elementwise1_b: stage 1, partition 0 (group 0)
                sb_98 = gl.convert_layout(gl.reshape(sb_97, [128, 128]), L8)  # elementwise1_b: stage 1, partition 0 (group 0)
                sb_99 = gl.where(sb_98, float("nan"), b_93)  # elementwise1_b: stage 1, partition 0 (group 0)
                sb_100 = sb_100_st.index((twill_b - 1) % 3)  # local_store0_sb: stage 1, partition 0 (group 0)
                sb_100.store(sb_99)  # local_store0_sb: stage 1, partition 0 (group 0)
                fence_async_shared()  # local_store0_sb: stage 1, partition 0 (group 0)
                a = a_as.index((twill_base + twill_b - 1) % 2).load(L8)  # load0_a: stage 1, partition 0 (group 0)
                a_ptrs_102 = a_ptrs_102_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(a_as.index((twill_base + twill_b - 0) % 2), a_ptrs_102_p1)  # load0_a: stage 0, partition 0 (group 0)
                else:  # load0_a: stage 0, partition 0 (group 0)
                    a_as.index((twill_base + twill_b - 0) % 2).store(gl.load(a_ptrs_102_p1))  # load0_a: stage 0, partition 0 (group 0)
                sa = gl.convert_layout(a, L10)  # convert0_sa: stage 1, partition 0 (group 0)
                a_71 = sa.to(gl.bfloat16)  # convert0_sa: stage 1, partition 0 (group 0)
                async_copy.commit_group()
                acc_101 = warpgroup_mma_wait(0, deps=(tok_acc_101,))
                a_71_p1 = a_71
                a_ptrs_102_p1 = a_ptrs_102
                acc_101_p1 = acc_101
                as_ptrs_104_p1 = as_ptrs_104
                b_ptrs_103_p1 = b_ptrs_103
                bs_ptrs_105_p1 = bs_ptrs_105
                sa_68_p1 = sa_68
                sb_p1 = sb
                sb_100_p1 = sb_100
            as_ptrs_104 = as_ptrs_104_p1 + 4  # load2_sa: stage 1, partition 0 (group 0)
            sa_68 = gl.load(as_ptrs_104_p1)  # load2_sa: stage 1, partition 0 (group 0)
            sa_69 = gl.convert_layout(sa_68_p1, L11)  # convert1_sa: stage 2, partition 0 (group 0)
            sb_70 = gl.convert_layout(sb_p1, L7)  # convert2_sb: stage 1, partition 0 (group 0)
            sa_72 = gl.cast(gl.cast(sa_69, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert3_sa: stage 2, partition 0 (group 0)
            sa_73 = sa_72 << 7  # convert3_sa: stage 2, partition 0 (group 0)
            sa_74 = sa_73.to(gl.bfloat16, bitcast=True)  # convert3_sa: stage 2, partition 0 (group 0)
            sa_75 = gl.expand_dims(sa_74, 2)  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_76 = sa_75.broadcast_to([128, 4, 32])  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_77 = gl.convert_layout(gl.reshape(sa_76, [128, 128]), L10)  # elementwise0_a: stage 2, partition 0 (group 0)
            a_78 = a_71_p1 * sa_77  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_79 = sa_69 == -1  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_80 = gl.expand_dims(sa_79, 2)  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_81 = sa_80.broadcast_to([128, 4, 32])  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_82 = gl.convert_layout(gl.reshape(sa_81, [128, 128]), L10)  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_83 = gl.where(sa_82, float("nan"), a_78)  # elementwise0_a: stage 2, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b = b_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L8)  # load1_b: stage 1, partition 0 (group 0)
            b_84 = b.to(gl.bfloat16)  # convert4_b: stage 1, partition 0 (group 0)
            tok_acc_101 = warpgroup_mma(sa_83, sb_100_p1, acc_101_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            sb_85 = gl.convert_layout(gl.permute(sb_70, (1, 0)), L9)  # convert5_sb: stage 1, partition 0 (group 0)
            sb_86 = gl.cast(gl.cast(sb_85, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
            sb_87 = sb_86 << 7  # convert5_sb: stage 1, partition 0 (group 0)
            sb_88 = sb_87.to(gl.bfloat16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
            sb_89 = gl.expand_dims(sb_88, 2)  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_90 = sb_89.broadcast_to([4, 128, 32])  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_91 = gl.permute(sb_90, (0, 2, 1))  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_92 = gl.convert_layout(gl.reshape(sb_91, [128, 128]), L8)  # elementwise1_b: stage 1, partition 0 (group 0)
            b_93 = b_84 * sb_92  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_94 = sb_85 == -1  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_95 = gl.expand_dims(sb_94, 2)  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_96 = sb_95.broadcast_to([4, 128, 32])  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_97 = gl.permute(sb_96, (0, 2, 1))  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_98 = gl.convert_layout(gl.reshape(sb_97, [128, 128]), L8)  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_99 = gl.where(sb_98, float("nan"), b_93)  # elementwise1_b: stage 1, partition 0 (group 0)
            sb_100 = sb_100_st.index(((twill_n - 1 + 1) - 1) % 3)  # local_store0_sb: stage 1, partition 0 (group 0)
            sb_100.store(sb_99)  # local_store0_sb: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_sb: stage 1, partition 0 (group 0)
            a = a_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L8)  # load0_a: stage 1, partition 0 (group 0)
            sa = gl.convert_layout(a, L10)  # convert0_sa: stage 1, partition 0 (group 0)
            a_71 = sa.to(gl.bfloat16)  # convert0_sa: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            acc_101 = warpgroup_mma_wait(0, deps=(tok_acc_101,))
            a_71_p1 = a_71
            a_ptrs_102_p2 = a_ptrs_102_p1
            a_ptrs_102_p1 = a_ptrs_102
            acc_101_p1 = acc_101
            as_ptrs_104_p2 = as_ptrs_104_p1
            as_ptrs_104_p1 = as_ptrs_104
            b_ptrs_103_p2 = b_ptrs_103_p1
            b_ptrs_103_p1 = b_ptrs_103
            bs_ptrs_105_p2 = bs_ptrs_105_p1
            bs_ptrs_105_p1 = bs_ptrs_105
            sa_68_p1 = sa_68
            sb_p1 = sb
            sb_100_p1 = sb_100
            sa_69 = gl.convert_layout(sa_68_p1, L11)  # convert1_sa: stage 2, partition 0 (group 0)
            sa_72 = gl.cast(gl.cast(sa_69, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert3_sa: stage 2, partition 0 (group 0)
            sa_73 = sa_72 << 7  # convert3_sa: stage 2, partition 0 (group 0)
            sa_74 = sa_73.to(gl.bfloat16, bitcast=True)  # convert3_sa: stage 2, partition 0 (group 0)
            sa_75 = gl.expand_dims(sa_74, 2)  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_76 = sa_75.broadcast_to([128, 4, 32])  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_77 = gl.convert_layout(gl.reshape(sa_76, [128, 128]), L10)  # elementwise0_a: stage 2, partition 0 (group 0)
            a_78 = a_71_p1 * sa_77  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_79 = sa_69 == -1  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_80 = gl.expand_dims(sa_79, 2)  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_81 = sa_80.broadcast_to([128, 4, 32])  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_82 = gl.convert_layout(gl.reshape(sa_81, [128, 128]), L10)  # elementwise0_a: stage 2, partition 0 (group 0)
            sa_83 = gl.where(sa_82, float("nan"), a_78)  # elementwise0_a: stage 2, partition 0 (group 0)
            tok_acc_101 = warpgroup_mma(sa_83, sb_100_p1, acc_101_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            acc_101 = warpgroup_mma_wait(0, deps=(tok_acc_101,))
            a_71_p1 = a_71
            a_ptrs_102_p3 = a_ptrs_102_p2
            a_ptrs_102_p2 = a_ptrs_102_p1
            a_ptrs_102_p1 = a_ptrs_102
            acc_101_p1 = acc_101
            as_ptrs_104_p2 = as_ptrs_104_p1
            as_ptrs_104_p1 = as_ptrs_104
            b_ptrs_103_p3 = b_ptrs_103_p2
            b_ptrs_103_p2 = b_ptrs_103_p1
            b_ptrs_103_p1 = b_ptrs_103
            bs_ptrs_105_p3 = bs_ptrs_105_p2
            bs_ptrs_105_p2 = bs_ptrs_105_p1
            bs_ptrs_105_p1 = bs_ptrs_105
            sa_68_p1 = sa_68
            sb_p1 = sb
            sb_100_p1 = sb_100
            sb_100_st._keep_alive()
        else:
            as_ptrs_63_w = as_ptrs_53
            bs_ptrs_64_w = bs_ptrs_58
            acc_65_w = gl.full([128, 128], 0.0, gl.float32, layout=L6)
            a_ptrs_66_w = a_ptrs_33
            b_ptrs_67_w = b_ptrs_44
            for acc_62_w in range(0, v1, 1):
                a_w = gl.load(a_ptrs_66_w)
                sa_w = gl.convert_layout(a_w, L10)
                b_w = gl.load(b_ptrs_67_w)
                sa_68_w = gl.load(as_ptrs_63_w)
                sa_69_w = gl.convert_layout(sa_68_w, L11)
                sb_w = gl.load(bs_ptrs_64_w)
                sb_70_w = gl.convert_layout(sb_w, L7)
                a_71_w = sa_w.to(gl.bfloat16)
                sa_72_w = gl.cast(gl.cast(sa_69_w, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)
                sa_73_w = sa_72_w << 7
                sa_74_w = sa_73_w.to(gl.bfloat16, bitcast=True)
                sa_75_w = gl.expand_dims(sa_74_w, 2)
                sa_76_w = sa_75_w.broadcast_to([128, 4, 32])
                sa_77_w = gl.convert_layout(gl.reshape(sa_76_w, [128, 128]), L10)
                a_78_w = a_71_w * sa_77_w
                sa_79_w = sa_69_w == -1
                sa_80_w = gl.expand_dims(sa_79_w, 2)
                sa_81_w = sa_80_w.broadcast_to([128, 4, 32])
                sa_82_w = gl.convert_layout(gl.reshape(sa_81_w, [128, 128]), L10)
                sa_83_w = gl.where(sa_82_w, float("nan"), a_78_w)
                b_84_w = b_w.to(gl.bfloat16)
                sb_85_w = gl.convert_layout(gl.permute(sb_70_w, (1, 0)), L9)
                sb_86_w = gl.cast(gl.cast(sb_85_w, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)
                sb_87_w = sb_86_w << 7
                sb_88_w = sb_87_w.to(gl.bfloat16, bitcast=True)
                sb_89_w = gl.expand_dims(sb_88_w, 2)
                sb_90_w = sb_89_w.broadcast_to([4, 128, 32])
                sb_91_w = gl.permute(sb_90_w, (0, 2, 1))
                sb_92_w = gl.convert_layout(gl.reshape(sb_91_w, [128, 128]), L8)
                b_93_w = b_84_w * sb_92_w
                sb_94_w = sb_85_w == -1
                sb_95_w = gl.expand_dims(sb_94_w, 2)
                sb_96_w = sb_95_w.broadcast_to([4, 128, 32])
                sb_97_w = gl.permute(sb_96_w, (0, 2, 1))
                sb_98_w = gl.convert_layout(gl.reshape(sb_97_w, [128, 128]), L8)
                sb_99_w = gl.where(sb_98_w, float("nan"), b_93_w)
                sb_100_w = gl.allocate_shared_memory(gl.bfloat16, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), sb_99_w)
                fence_async_shared()
                acc_101_w = warpgroup_mma(sa_83_w, sb_100_w, acc_65_w)
                a_ptrs_102_w = a_ptrs_66_w + 128
                b_ptrs_103_w = b_ptrs_67_w + b_ptrs_59
                as_ptrs_104_w = as_ptrs_63_w + 4
                bs_ptrs_105_w = bs_ptrs_64_w + 4
                as_ptrs_63_w = as_ptrs_104_w
                bs_ptrs_64_w = bs_ptrs_105_w
                acc_65_w = acc_101_w
                a_ptrs_66_w = a_ptrs_102_w
                b_ptrs_67_w = b_ptrs_103_w
            as_ptrs_104_p2 = as_ptrs_63_w
            bs_ptrs_105_p3 = bs_ptrs_64_w
            acc_101_p1 = acc_65_w
            a_ptrs_102_p3 = a_ptrs_66_w
            b_ptrs_103_p3 = b_ptrs_67_w
        v2 = a_ptrs_24 * N
        v4 = c_ptr + v2
        v5 = v4.broadcast_to([128, 128])
        v6 = v5 + b_ptrs_43
        v7 = acc_101_p1.to(gl.bfloat16)
        v8 = gl.convert_layout(v7, L12)
        gl.store(v6, v8)
        twill_base += twill_n

@gluon.jit
def twill_kernel(a_ptr, b_ptr, a_scale, b_scale, c_ptr, M, N, K, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    consumer_0(a_ptr, b_ptr, a_scale, b_scale, c_ptr, M, N, K, twill_g0, twill_g1, twill_g2, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'a_scale', 'b_scale', 'c_ptr', 'M', 'N', 'K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'VEC']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'a_scale', 'b_scale', 'c_ptr', 'M', 'N', 'K', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'a_scale', 'b_scale', 'c_ptr', 'M', 'N', 'K', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 128, 'VEC': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = None
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'N', 'K']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
