"""dot_scaled_fp8_desc, written by twill from its joint schedule: I=245 L=446 (optimal), 1568 cycles per iteration predicted.

Decisions (each from the schedule):
- partition 0 (default): consumer, warp group 0, 8 warps, 240 registers per thread (needs about 169): the loop's compute, 3 stages
- partition 1 (worker): producer, warp group 1, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings
- ring a_36: 2 buffers of [128, 128] f8E5M2 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring b: 2 buffers of [128, 128] f8E4M3FN (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared operand sb_71_st: partition 0 stores the loop's [128, 128] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 3 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 196696 bytes planned of 232448; maxnreg 168

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L3 = gl.constexpr(gl.SliceLayout(2, gl.DistributedLinearLayout(reg_bases=[[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 0, 16], [0, 1, 0], [0, 2, 0]], lane_bases=[[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp_bases=[[16, 0, 0], [32, 0, 0], [64, 0, 0]], block_bases=[], shape=[128, 4, 32])))
L4 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[32, 0], [64, 0]], lane_bases=[[0, 0], [0, 1], [0, 2], [1, 0], [2, 0]], warp_bases=[[4, 0], [8, 0], [16, 0]], block_bases=[], shape=[128, 4]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0]))
L6 = gl.constexpr(gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 16], threads_per_warp=[4, 4, 2], warps_per_cta=[1, 8, 1], order=[2, 0, 1])))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, a_scale, b_scale, c_ptr, M, N, K, a_desc_7, b_desc, c_desc_8, twill_g0, twill_g1, twill_g2, a_36_buf, b_buf, sb_71_st, out3_c0_buf, a_36_ready, a_36_empty, b_ready, b_empty):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_m = twill_pid0
        pid_n = twill_pid1
        offs_m = pid_m * 128
        offs_m_9 = gl.arange(0, 128, layout=L0)
        offs_m_11 = offs_m + offs_m_9
        offs_n = pid_n * 128
        offs_n_13 = offs_n + offs_m_9
        as_ptrs = gl.expand_dims(offs_m_11, 1)
        as_ptrs_14 = K // 32
        as_ptrs_16 = as_ptrs * as_ptrs_14
        as_ptrs_18 = a_scale + as_ptrs_16
        as_ptrs_19 = gl.arange(0, 4, layout=L1)
        as_ptrs_20 = gl.expand_dims(as_ptrs_19, 0)
        as_ptrs_21 = as_ptrs_18.broadcast_to([128, 4])
        as_ptrs_22 = as_ptrs_20.broadcast_to([128, 4])
        as_ptrs_23 = as_ptrs_21 + as_ptrs_22
        bs_ptrs = gl.expand_dims(offs_n_13, 1)
        bs_ptrs_24 = bs_ptrs * as_ptrs_14
        bs_ptrs_26 = b_scale + bs_ptrs_24
        bs_ptrs_27 = bs_ptrs_26.broadcast_to([128, 4])
        bs_ptrs_28 = bs_ptrs_27 + as_ptrs_22
        m_mask_29 = offs_m_11 < M
        v0 = K + 127
        v1 = v0 // 128
        sa = gl.expand_dims(m_mask_29, 1)
        sa_30 = sa.broadcast_to([128, 4])
        twill_n = (v1 - 0 + 1 - 1) // 1
        as_ptrs_73 = as_ptrs_23
        bs_ptrs_74 = bs_ptrs_28
        as_ptrs_73_p1 = as_ptrs_73
        bs_ptrs_74_p1 = bs_ptrs_74
        as_ptrs_73 = as_ptrs_73_p1 + 4  # load0_sa: stage 0, partition 0 (group 0)
        sa_38 = gl.load(as_ptrs_73_p1, mask=sa_30, other=127)  # load0_sa: stage 0, partition 0 (group 0)
        bs_ptrs_74 = bs_ptrs_74_p1 + 4  # load1_sb: stage 0, partition 0 (group 0)
        sb = gl.load(bs_ptrs_74_p1)  # load1_sb: stage 0, partition 0 (group 0)
        as_ptrs_73_p1 = as_ptrs_73
        bs_ptrs_74_p1 = bs_ptrs_74
        sa_38_p1 = sa_38
        sb_p1 = sb
        acc_72 = gl.full([128, 128], 0.0, gl.float32, layout=L2)
        as_ptrs_73 = as_ptrs_73_p1 + 4  # load0_sa: stage 0, partition 0 (group 0)
        sa_38 = gl.load(as_ptrs_73_p1, mask=sa_30, other=127)  # load0_sa: stage 0, partition 0 (group 0)
        sa_39 = gl.convert_layout(sa_38_p1, L3)  # convert1_sa: stage 1, partition 0 (group 0)
        bs_ptrs_74 = bs_ptrs_74_p1 + 4  # load1_sb: stage 0, partition 0 (group 0)
        sb = gl.load(bs_ptrs_74_p1)  # load1_sb: stage 0, partition 0 (group 0)
        sb_40 = gl.convert_layout(sb_p1, L4)  # convert2_sb: stage 1, partition 0 (group 0)
        mbarrier.wait(b_ready.index((twill_base + 1 - 1) % 2), ((twill_base + 1 - 1) // 2) & 1)
        acc_41 = gl.permute(b_buf.index((twill_base + 1 - 1) % 2).load(L5), (1, 0))  # convert3_acc: stage 1, partition 0 (group 0)
        mbarrier.arrive(b_empty.index((twill_base + 1 - 1) % 2))
        acc_55 = acc_41.to(gl.bfloat16)  # convert3_acc: stage 1, partition 0 (group 0)
        sb_56 = gl.convert_layout(gl.permute(sb_40, (1, 0)), L6)  # convert5_sb: stage 1, partition 0 (group 0)
        sb_57 = gl.cast(gl.cast(sb_56, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
        sb_58 = sb_57 << 7  # convert5_sb: stage 1, partition 0 (group 0)
        sb_59 = sb_58.to(gl.bfloat16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
        sa_43 = gl.cast(gl.cast(sa_39, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert4_sa: stage 1, partition 0 (group 0)
        sa_44 = sa_43 << 7  # convert4_sa: stage 1, partition 0 (group 0)
        sa_45 = sa_44.to(gl.bfloat16, bitcast=True)  # convert4_sa: stage 1, partition 0 (group 0)
        sb_60 = gl.expand_dims(sb_59, 2)  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_61 = sb_60.broadcast_to([4, 128, 32])  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_62 = gl.permute(sb_61, (0, 2, 1))  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_63 = gl.convert_layout(gl.reshape(sb_62, [128, 128]), L7)  # elementwise1_acc: stage 1, partition 0 (group 0)
        acc_64 = acc_55 * sb_63  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_65 = sb_56 == -1  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_66 = gl.expand_dims(sb_65, 2)  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_67 = sb_66.broadcast_to([4, 128, 32])  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_68 = gl.permute(sb_67, (0, 2, 1))  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_69 = gl.convert_layout(gl.reshape(sb_68, [128, 128]), L7)  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_70 = gl.where(sb_69, float("nan"), acc_64)  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_71 = sb_71_st.index((1 - 1) % 3)  # local_store0_sb: stage 1, partition 0 (group 0)
        sb_71.store(sb_70)  # local_store0_sb: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_sb: stage 1, partition 0 (group 0)
        mbarrier.wait(a_36_ready.index((twill_base + 1 - 1) % 2), ((twill_base + 1 - 1) // 2) & 1)
        sa_37 = a_36_buf.index((twill_base + 1 - 1) % 2).load(L8)  # convert0_sa: stage 1, partition 0 (group 0)
        mbarrier.arrive(a_36_empty.index((twill_base + 1 - 1) % 2))
        a_42 = sa_37.to(gl.bfloat16)  # convert0_sa: stage 1, partition 0 (group 0)
        sa_46 = gl.expand_dims(sa_45, 2)  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_47 = sa_46.broadcast_to([128, 4, 32])  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_48 = gl.convert_layout(gl.reshape(sa_47, [128, 128]), L8)  # elementwise0_a: stage 1, partition 0 (group 0)
        a_49 = a_42 * sa_48  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_50 = sa_39 == -1  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_51 = gl.expand_dims(sa_50, 2)  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_52 = sa_51.broadcast_to([128, 4, 32])  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_53 = gl.convert_layout(gl.reshape(sa_52, [128, 128]), L8)  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_54 = gl.where(sa_53, float("nan"), a_49)  # elementwise0_a: stage 1, partition 0 (group 0)
        acc_72_p1 = acc_72
        as_ptrs_73_p1 = as_ptrs_73
        bs_ptrs_74_p1 = bs_ptrs_74
        sa_38_p1 = sa_38
        sa_54_p1 = sa_54
        sb_p1 = sb
        sb_71_p1 = sb_71
        for twill_b in range(2, twill_n):
            as_ptrs_73 = as_ptrs_73_p1 + 4  # load0_sa: stage 0, partition 0 (group 0)
            sa_38 = gl.load(as_ptrs_73_p1, mask=sa_30, other=127)  # load0_sa: stage 0, partition 0 (group 0)
            sa_39 = gl.convert_layout(sa_38_p1, L3)  # convert1_sa: stage 1, partition 0 (group 0)
            bs_ptrs_74 = bs_ptrs_74_p1 + 4  # load1_sb: stage 0, partition 0 (group 0)
            sb = gl.load(bs_ptrs_74_p1)  # load1_sb: stage 0, partition 0 (group 0)
            sb_40 = gl.convert_layout(sb_p1, L4)  # convert2_sb: stage 1, partition 0 (group 0)
            mbarrier.wait(b_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            acc_41 = gl.permute(b_buf.index((twill_base + twill_b - 1) % 2).load(L5), (1, 0))  # convert3_acc: stage 1, partition 0 (group 0)
            mbarrier.arrive(b_empty.index((twill_base + twill_b - 1) % 2))
            acc_55 = acc_41.to(gl.bfloat16)  # convert3_acc: stage 1, partition 0 (group 0)
            tok_acc_72 = warpgroup_mma(sa_54_p1, sb_71_p1, acc_72_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            sb_56 = gl.convert_layout(gl.permute(sb_40, (1, 0)), L6)  # convert5_sb: stage 1, partition 0 (group 0)
            sb_57 = gl.cast(gl.cast(sb_56, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
            sb_58 = sb_57 << 7  # convert5_sb: stage 1, partition 0 (group 0)
            sb_59 = sb_58.to(gl.bfloat16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
            sa_43 = gl.cast(gl.cast(sa_39, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert4_sa: stage 1, partition 0 (group 0)
            sa_44 = sa_43 << 7  # convert4_sa: stage 1, partition 0 (group 0)
            sa_45 = sa_44.to(gl.bfloat16, bitcast=True)  # convert4_sa: stage 1, partition 0 (group 0)
            sb_60 = gl.expand_dims(sb_59, 2)  # elementwise1_acc: stage 1, partition 0 (group 0)
            sb_61 = sb_60.broadcast_to([4, 128, 32])  # elementwise1_acc: stage 1, partition 0 (group 0)
            sb_62 = gl.permute(sb_61, (0, 2, 1))  # elementwise1_acc: stage 1, partition 0 (group 0)
            sb_63 = gl.convert_layout(gl.reshape(sb_62, [128, 128]), L7)  # elementwise1_acc: stage 1, partition 0 (group 0)
            acc_64 = acc_55 * sb_63  # elementwise1_acc: stage 1, partition 0 (group 0)
            sb_65 = sb_56 == -1  # elementwise1_acc: stage 1, partition 0 (group 0)
            sb_66 = gl.expand_dims(sb_65, 2)  # elementwise1_acc: stage 1, partition 0 (group 0)
            sb_67 = sb_66.broadcast_to([4, 128, 32])  # elementwise1_acc: stage 1, partition 0 (group 0)
            sb_68 = gl.permute(sb_67, (0, 2, 1))  # elementwise1_acc: stage 1, partition 0 (group 0)
            sb_69 = gl.convert_layout(gl.reshape(sb_68, [128, 128]), L7)  # elementwise1_acc: stage 1, partition 0 (group 0)
            sb_70 = gl.where(sb_69, float("nan"), acc_64)  # elementwise1_acc: stage 1, partition 0 (group 0)
            sb_71 = sb_71_st.index((twill_b - 1) % 3)  # local_store0_sb: stage 1, partition 0 (group 0)
            sb_71.store(sb_70)  # local_store0_sb: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_sb: stage 1, partition 0 (group 0)
            mbarrier.wait(a_36_ready.index((twill_base + twill_b - 1) % 2), ((twill_base + twill_b - 1) // 2) & 1)
            sa_37 = a_36_buf.index((twill_base + twill_b - 1) % 2).load(L8)  # convert0_sa: stage 1, partition 0 (group 0)
            mbarrier.arrive(a_36_empty.index((twill_base + twill_b - 1) % 2))
            a_42 = sa_37.to(gl.bfloat16)  # convert0_sa: stage 1, partition 0 (group 0)
            sa_46 = gl.expand_dims(sa_45, 2)  # elementwise0_a: stage 1, partition 0 (group 0)
            sa_47 = sa_46.broadcast_to([128, 4, 32])  # elementwise0_a: stage 1, partition 0 (group 0)
            sa_48 = gl.convert_layout(gl.reshape(sa_47, [128, 128]), L8)  # elementwise0_a: stage 1, partition 0 (group 0)
            a_49 = a_42 * sa_48  # elementwise0_a: stage 1, partition 0 (group 0)
            sa_50 = sa_39 == -1  # elementwise0_a: stage 1, partition 0 (group 0)
            sa_51 = gl.expand_dims(sa_50, 2)  # elementwise0_a: stage 1, partition 0 (group 0)
            sa_52 = sa_51.broadcast_to([128, 4, 32])  # elementwise0_a: stage 1, partition 0 (group 0)
            sa_53 = gl.convert_layout(gl.reshape(sa_52, [128, 128]), L8)  # elementwise0_a: stage 1, partition 0 (group 0)
            sa_54 = gl.where(sa_53, float("nan"), a_49)  # elementwise0_a: stage 1, partition 0 (group 0)
            acc_72 = warpgroup_mma_wait(0, deps=(tok_acc_72,))
            acc_72_p1 = acc_72
            as_ptrs_73_p1 = as_ptrs_73
            bs_ptrs_74_p1 = bs_ptrs_74
            sa_38_p1 = sa_38
            sa_54_p1 = sa_54
            sb_p1 = sb
            sb_71_p1 = sb_71
        sa_39 = gl.convert_layout(sa_38_p1, L3)  # convert1_sa: stage 1, partition 0 (group 0)
        sb_40 = gl.convert_layout(sb_p1, L4)  # convert2_sb: stage 1, partition 0 (group 0)
        mbarrier.wait(b_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        acc_41 = gl.permute(b_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L5), (1, 0))  # convert3_acc: stage 1, partition 0 (group 0)
        mbarrier.arrive(b_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
        acc_55 = acc_41.to(gl.bfloat16)  # convert3_acc: stage 1, partition 0 (group 0)
        tok_acc_72 = warpgroup_mma(sa_54_p1, sb_71_p1, acc_72_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        sb_56 = gl.convert_layout(gl.permute(sb_40, (1, 0)), L6)  # convert5_sb: stage 1, partition 0 (group 0)
        sb_57 = gl.cast(gl.cast(sb_56, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
        sb_58 = sb_57 << 7  # convert5_sb: stage 1, partition 0 (group 0)
        sb_59 = sb_58.to(gl.bfloat16, bitcast=True)  # convert5_sb: stage 1, partition 0 (group 0)
        sa_43 = gl.cast(gl.cast(sa_39, gl.uint8, bitcast=True).to(gl.uint16), gl.int16, bitcast=True)  # convert4_sa: stage 1, partition 0 (group 0)
        sa_44 = sa_43 << 7  # convert4_sa: stage 1, partition 0 (group 0)
        sa_45 = sa_44.to(gl.bfloat16, bitcast=True)  # convert4_sa: stage 1, partition 0 (group 0)
        sb_60 = gl.expand_dims(sb_59, 2)  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_61 = sb_60.broadcast_to([4, 128, 32])  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_62 = gl.permute(sb_61, (0, 2, 1))  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_63 = gl.convert_layout(gl.reshape(sb_62, [128, 128]), L7)  # elementwise1_acc: stage 1, partition 0 (group 0)
        acc_64 = acc_55 * sb_63  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_65 = sb_56 == -1  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_66 = gl.expand_dims(sb_65, 2)  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_67 = sb_66.broadcast_to([4, 128, 32])  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_68 = gl.permute(sb_67, (0, 2, 1))  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_69 = gl.convert_layout(gl.reshape(sb_68, [128, 128]), L7)  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_70 = gl.where(sb_69, float("nan"), acc_64)  # elementwise1_acc: stage 1, partition 0 (group 0)
        sb_71 = sb_71_st.index(((twill_n - 1 + 1) - 1) % 3)  # local_store0_sb: stage 1, partition 0 (group 0)
        sb_71.store(sb_70)  # local_store0_sb: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_sb: stage 1, partition 0 (group 0)
        mbarrier.wait(a_36_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 2), ((twill_base + (twill_n - 1 + 1) - 1) // 2) & 1)
        sa_37 = a_36_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L8)  # convert0_sa: stage 1, partition 0 (group 0)
        mbarrier.arrive(a_36_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 2))
        a_42 = sa_37.to(gl.bfloat16)  # convert0_sa: stage 1, partition 0 (group 0)
        sa_46 = gl.expand_dims(sa_45, 2)  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_47 = sa_46.broadcast_to([128, 4, 32])  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_48 = gl.convert_layout(gl.reshape(sa_47, [128, 128]), L8)  # elementwise0_a: stage 1, partition 0 (group 0)
        a_49 = a_42 * sa_48  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_50 = sa_39 == -1  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_51 = gl.expand_dims(sa_50, 2)  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_52 = sa_51.broadcast_to([128, 4, 32])  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_53 = gl.convert_layout(gl.reshape(sa_52, [128, 128]), L8)  # elementwise0_a: stage 1, partition 0 (group 0)
        sa_54 = gl.where(sa_53, float("nan"), a_49)  # elementwise0_a: stage 1, partition 0 (group 0)
        acc_72 = warpgroup_mma_wait(0, deps=(tok_acc_72,))
        acc_72_p1 = acc_72
        as_ptrs_73_p2 = as_ptrs_73_p1
        as_ptrs_73_p1 = as_ptrs_73
        bs_ptrs_74_p2 = bs_ptrs_74_p1
        bs_ptrs_74_p1 = bs_ptrs_74
        sa_38_p1 = sa_38
        sa_54_p1 = sa_54
        sb_p1 = sb
        sb_71_p1 = sb_71
        tok_acc_72 = warpgroup_mma(sa_54_p1, sb_71_p1, acc_72_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
        acc_72 = warpgroup_mma_wait(0, deps=(tok_acc_72,))
        acc_72_p1 = acc_72
        as_ptrs_73_p3 = as_ptrs_73_p2
        as_ptrs_73_p2 = as_ptrs_73_p1
        as_ptrs_73_p1 = as_ptrs_73
        bs_ptrs_74_p3 = bs_ptrs_74_p2
        bs_ptrs_74_p2 = bs_ptrs_74_p1
        bs_ptrs_74_p1 = bs_ptrs_74
        sa_38_p1 = sa_38
        sa_54_p1 = sa_54
        sb_p1 = sb
        sb_71_p1 = sb_71
        sb_71_st._keep_alive()
        v2 = acc_72_p1.to(gl.bfloat16)
        v3 = gl.convert_layout(v2, L9)
        tma.store_wait(0)
        out3_c0_buf.store(v2)
        fence_async_shared()
        tma.async_copy_shared_to_global(c_desc_8, [offs_m, offs_n], out3_c0_buf)
        twill_base += twill_n
    tma.store_wait(0)

@gluon.jit
def producer_1(a_ptr, b_ptr, a_scale, b_scale, c_ptr, M, N, K, a_desc_7, b_desc, c_desc_8, twill_g0, twill_g1, twill_g2, a_36_buf, b_buf, sb_71_st, out3_c0_buf, a_36_ready, a_36_empty, b_ready, b_empty):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid_m = twill_pid0
        pid_n = twill_pid1
        offs_m = pid_m * 128
        offs_n = pid_n * 128
        v0 = K + 127
        v1 = v0 // 128
        for acc_32 in range(0, v1, 1):
            twill_k = twill_base + (acc_32 - 0) // 1
            a = acc_32 * 128
            mbarrier.wait(b_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            mbarrier.expect(b_ready.index(twill_k % 2), b_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(b_desc, [offs_n, a], b_ready.index(twill_k % 2), b_buf.index(twill_k % 2))
            mbarrier.wait(a_36_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
            mbarrier.expect(a_36_ready.index(twill_k % 2), a_desc_7.block_type.nbytes)
            tma.async_copy_global_to_shared(a_desc_7, [offs_m, a], a_36_ready.index(twill_k % 2), a_36_buf.index(twill_k % 2))
        twill_base += (v1 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(a_ptr, b_ptr, a_scale, b_scale, c_ptr, M, N, K, a_desc_7, b_desc, c_desc_8, twill_g0, twill_g1, twill_g2):
    a_36_buf = gl.allocate_shared_memory(gl.float8e5, [2, 128, 128], a_desc_7.layout)
    b_buf = gl.allocate_shared_memory(gl.float8e4nv, [2, 128, 128], b_desc.layout)
    sb_71_st = gl.allocate_shared_memory(gl.bfloat16, [3, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    out3_c0_buf = gl.allocate_shared_memory(gl.bfloat16, [128, 128], c_desc_8.layout)
    a_36_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_36_ready.index(i), count=1)
    a_36_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_36_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_ready.index(i), count=1)
    b_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, a_scale, b_scale, c_ptr, M, N, K, a_desc_7, b_desc, c_desc_8, twill_g0, twill_g1, twill_g2, a_36_buf, b_buf, sb_71_st, out3_c0_buf, a_36_ready, a_36_empty, b_ready, b_empty)),
        (producer_1, (a_ptr, b_ptr, a_scale, b_scale, c_ptr, M, N, K, a_desc_7, b_desc, c_desc_8, twill_g0, twill_g1, twill_g2, a_36_buf, b_buf, sb_71_st, out3_c0_buf, a_36_ready, a_36_empty, b_ready, b_empty)),
    ], [1], [24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'a_scale', 'b_scale', 'c_ptr', 'M', 'N', 'K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'VEC', 'NUM_STAGES']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'a_scale', 'b_scale', 'c_ptr', 'M', 'N', 'K', 'a_desc_7', 'b_desc', 'c_desc_8', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'a_scale', 'b_scale', 'c_ptr', 'M', 'N', 'K', 'a_desc_7', 'b_desc', 'c_desc_8', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 128, 'VEC': 32, 'NUM_STAGES': 3}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {'a_desc_7': [128, 128], 'b_desc': [128, 128], 'c_desc_8': [128, 128]}
DESCRIPTOR_LAYOUTS = {'a_desc_7': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'b_desc': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'c_desc_8': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
LAUNCH_DESCRIPTORS = {'a_desc_7': ('a_ptr', ['M', 'K'], ['K', '1']), 'b_desc': ('b_ptr', ['N', 'K'], ['K', '1']), 'c_desc_8': ('c_ptr', ['M', 'N'], ['N', '1'])}   # tl.make_tensor_descriptor in the kernel: (base, shape, strides)
NUM_WARPS = 8
MAXNREG = 168
PERSISTENT = True      # one program per SM loops over the grid's tiles
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


class _Made:
    """A descriptor the kernel made itself: its base tensor, shape and strides, as a host descriptor holds them."""

    def __init__(self, base, shape, strides):
        self.base, self.shape, self.strides = base, shape, strides


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
    trips = _ev('((K + 127) // 128)', dict(bound, **CONSTEXPRS))
    if trips < 2:   # the pipeline's prologue runs 2 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 2 iteration(s) a program; this launch gives {trips} (((K + 127) // 128)): run the Triton kernel for it")
    shapes = None
    flags = {}
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
    for n, (base, shape, strides) in LAUNCH_DESCRIPTORS.items():
        bound[n] = _Made(bound[base], [_ev(e, bound) for e in shape], [_ev(e, bound) for e in strides])
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
