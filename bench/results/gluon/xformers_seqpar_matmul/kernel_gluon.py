"""_xformers_seqpar_matmul_kernel, written by twill from its joint schedule: I=330 L=297 (optimal), 640 cycles per iteration predicted.

Decisions (each from the schedule):
- a copied with cp.async at every launch, not by TMA: its addresses go through arith.select (%A_25), which the analysis does not follow
- b copied with cp.async at every launch, not by TMA: its addresses go through arith.select (%B_13), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a, b): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (168, 64 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- a wait before the loop (xformers_seqpar_matmul.py:86 (in a helper called at line 151) (TTGIR line 120): an atomic that may acquire, or a volatile load): run by the first consumer, which then arrives on twill_start; the other partitions wait on it before anything else, so their loads follow it
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a: 5 buffers of [128, 32] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- ring b: 5 buffers of [32, 128] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- shared memory: 82096 bytes planned of 232448; maxnreg 128
- if at xformers_seqpar_matmul.py:62 (in a helper called at line 149) (TTGIR line 71): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer
- if at xformers_seqpar_matmul.py:86 (in a helper called at line 151) (TTGIR line 120): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer
- if at xformers_seqpar_matmul.py:131 (in a helper called at line 155) (TTGIR line 212): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(A_my_shard, A, B1, B2, B3, C1, C2, C3, C1_my_shard, C2_my_shard, C3_my_shard, wait_counters, blocks_done_counters, write_counters, M, N1, N2, N3, K, stride_am, stride_bk, stride_cm, do_wait, do_write, direction, stripe, seq_num, num_stripes, _wait, my_rank, world_size, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, twill_start, TWILL_COPY: gl.constexpr):
    M_per_rank = M // world_size
    pid = gl.program_id(0)
    grid_m_per_rank = M_per_rank + 127
    grid_m_per_rank_3 = grid_m_per_rank // 128
    grid_n1 = N1 + 127
    grid_n1_4 = grid_n1 // 128
    grid_n2 = N2 + 127
    grid_n2_5 = grid_n2 // 128
    grid_n3 = N3 + 127
    grid_n3_6 = grid_n3 // 128
    grid_n = grid_n1_4 + grid_n2_5
    grid_n_7 = grid_n + grid_n3_6
    blocks_per_rank = grid_m_per_rank_3 * grid_n_7
    v0 = direction == 0
    if v0:
        other_rank = pid // blocks_per_rank
        other_rank_83 = my_rank - other_rank
        other_rank_84 = other_rank_83 + world_size
        other_rank_85 = other_rank_84 % world_size
        v1 = other_rank_85
    else:
        other_rank_b78 = pid // blocks_per_rank
        other_rank_83_b79 = other_rank_b78 + 1
        other_rank_84_b80 = my_rank + other_rank_83_b79
        other_rank_85_b81 = other_rank_84_b80 % world_size
        v1 = other_rank_85_b81
    pid_8 = pid % blocks_per_rank
    width = grid_n_7 * 8
    group_id = pid_8 // width
    group_size = group_id * 8
    group_size_9 = grid_m_per_rank_3 - group_size
    group_size_10 = gl.minimum(group_size_9, 8)
    pid_m = pid_8 % group_size_10
    pid_m_11 = group_size + pid_m
    pid_n = pid_8 % width
    pid_n_12 = pid_n // group_size_10
    in_1 = pid_n_12 < grid_n1_4
    in_2 = pid_n_12 < grid_n
    B = gl.where(in_2, B2, B3)
    B_13 = gl.where(in_1, B1, B)
    C = gl.where(in_2, C2, C3)
    C_14 = gl.where(in_1, C1, C)
    C_my_shard = gl.where(in_2, C2_my_shard, C3_my_shard)
    C_my_shard_15 = gl.where(in_1, C1_my_shard, C_my_shard)
    N = gl.where(in_2, N2, N3)
    N_16 = gl.where(in_1, N1, N)
    pid_n_17 = pid_n_12 - grid_n1_4
    pid_n_18 = pid_n_17 - grid_n2_5
    pid_n_19 = gl.where(in_2, pid_n_17, pid_n_18)
    pid_n_20 = gl.where(in_1, pid_n_12, pid_n_19)
    A_21 = v1 == my_rank
    A_22 = v1 * M_per_rank
    A_23 = A_22 * stride_am
    A_24 = A + A_23
    A_25 = gl.where(A_21, A_my_shard, A_24)
    C_26 = A_22 * stride_cm
    C_27 = C_14 + C_26
    C_28 = gl.where(A_21, C_my_shard_15, C_27)
    pid_z = gl.program_id(1)
    v2 = _wait & do_wait
    v3 = v1 != my_rank
    v4 = v2 & v3
    if v4:
        wait_counter = v1 * num_stripes
        wait_counter_83 = wait_counters + wait_counter
        wait_counter_84 = wait_counter_83 + stripe
        num_spins_85 = gl.to_tensor(0)
        v10 = gl.atomic_cas(wait_counter_84, 0, 0, sem='acq_rel', scope='gpu')
        v11 = v10 != seq_num
        num_spins_go = v11
        num_spins = num_spins_85
        while num_spins_go:
            num_spins_86 = num_spins + 1
            v10_b131 = num_spins_86 == 1000
            v11_b132 = gl.where(v10_b131, 0, num_spins_86)
            num_spins_85 = v11_b132
            v10 = gl.atomic_cas(wait_counter_84, 0, 0, sem='acq_rel', scope='gpu')
            v11 = v10 != seq_num
            num_spins_go = v11
            num_spins = num_spins_85
    rm = pid_m_11 * 128
    rm_29 = gl.arange(0, 128, layout=L0)
    rm_30 = gl.arange(0, 128, layout=L1)
    rm_31 = gl.arange(0, 128, layout=L2)
    rm_34 = rm + rm_29
    rm_35 = rm + rm_30
    rn = pid_n_20 * 128
    rn_37 = rn + rm_31
    ram_39 = rm_34 % M_per_rank
    ram_39 = gl.max_contiguous(gl.multiple_of(ram_39, [128]), [128])
    rbn_40 = rn_37 % N_16
    rbn_40 = gl.max_contiguous(gl.multiple_of(rbn_40, [128]), [128])
    rk = pid_z * 32
    rk_41 = gl.arange(0, 32, layout=L3)
    rk_42 = gl.arange(0, 32, layout=L1)
    rk_45 = rk + rk_41
    rk_46 = rk + rk_42
    A_47 = gl.expand_dims(ram_39, 1)
    A_49 = A_47 * stride_am
    A_50 = gl.expand_dims(rk_45, 0)
    A_51 = A_49.broadcast_to([128, 32])
    A_52 = A_50.broadcast_to([128, 32])
    A_53 = A_51 + A_52
    A_55 = A_25 + A_53
    B_56 = gl.expand_dims(rk_46, 1)
    B_58 = B_56 * stride_bk
    B_59 = gl.expand_dims(rbn_40, 0)
    B_60 = B_58.broadcast_to([32, 128])
    B_61 = B_59.broadcast_to([32, 128])
    B_62 = B_60 + B_61
    B_64 = B_13 + B_62
    v5 = K + 31
    v6 = v5 // 32
    gl.thread_barrier()
    mbarrier.arrive(twill_start.index(0))
    twill_n = (v6 - 0 + 1 - 1) // 1
    acc_88 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
    acc_88_p1 = acc_88
    for twill_b in range(0, twill_n):
        mbarrier.wait(a_ready.index((twill_b - 0) % 5), ((twill_b - 0) // 5) & 1)
        fence_async_shared()
        mbarrier.wait(b_ready.index((twill_b - 0) % 5), ((twill_b - 0) // 5) & 1)
        fence_async_shared()
        tok_acc_88 = warpgroup_mma(a_buf.index((twill_b - 0) % 5), b_buf.index((twill_b - 0) % 5), acc_88_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_88_p1 = warpgroup_mma_wait(1, deps=(acc_88_p1,))
        mbarrier.arrive(a_empty.index((twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(b_empty.index((twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
        acc_88 = warpgroup_mma_wait(1, deps=(tok_acc_88,))
        acc_88_p1 = acc_88
    acc_88_p1 = warpgroup_mma_wait(0, deps=(acc_88_p1,))
    a_buf._keep_alive()
    b_buf._keep_alive()
    mbarrier.arrive(a_empty.index(((twill_n - 1) - 0) % 5), pred=twill_n > 0)
    mbarrier.arrive(b_empty.index(((twill_n - 1) - 0) % 5), pred=twill_n > 0)
    acc_67 = acc_88_p1.to(gl.float16)
    C_68 = gl.expand_dims(rm_35, 1)
    C_70 = C_68 * stride_cm
    C_71 = gl.expand_dims(rn_37, 0)
    C_72 = C_70.broadcast_to([128, 128])
    C_73 = C_71.broadcast_to([128, 128])
    C_74 = C_72 + C_73
    C_76 = C_28 + C_74
    mask = rm_35 < M_per_rank
    mask_77 = gl.expand_dims(mask, 1)
    mask_78 = rn_37 < N_16
    mask_79 = gl.expand_dims(mask_78, 0)
    mask_80 = mask_77.broadcast_to([128, 128])
    mask_81 = mask_79.broadcast_to([128, 128])
    mask_82 = mask_80 & mask_81
    v7 = gl.convert_layout(acc_67, L5)
    gl.store(C_76, v7, mask=mask_82)
    v8 = _wait & do_write
    v9 = v8 & v3
    if v9:
        num_blocks_done = blocks_done_counters + v1
        num_blocks_done_84 = gl.atomic_add(gl.full([1], num_blocks_done, gl.pointer_type(gl.int32), layout=L6), gl.full([1], 1, gl.int32, layout=L6), sem='acq_rel', scope='gpu')
        num_blocks_done_85 = num_blocks_done_84 + 1
        v11_b218 = num_blocks_done_85 == blocks_per_rank
        v12 = v1 * num_stripes
        v13 = write_counters + v12
        v14 = v13 + stripe
        v17 = gl.atomic_xchg(gl.full([1], v14, gl.pointer_type(gl.int32), layout=L6), gl.full([1], seq_num, gl.int32, layout=L6), mask=v11_b218, sem='release', scope='gpu')

@gluon.jit
def producer_1(A_my_shard, A, B1, B2, B3, C1, C2, C3, C1_my_shard, C2_my_shard, C3_my_shard, wait_counters, blocks_done_counters, write_counters, M, N1, N2, N3, K, stride_am, stride_bk, stride_cm, do_wait, do_write, direction, stripe, seq_num, num_stripes, _wait, my_rank, world_size, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, twill_start, TWILL_COPY: gl.constexpr):
    mbarrier.wait(twill_start.index(0), 0)
    M_per_rank = M // world_size
    pid = gl.program_id(0)
    grid_m_per_rank = M_per_rank + 127
    grid_m_per_rank_3 = grid_m_per_rank // 128
    grid_n1 = N1 + 127
    grid_n1_4 = grid_n1 // 128
    grid_n2 = N2 + 127
    grid_n2_5 = grid_n2 // 128
    grid_n3 = N3 + 127
    grid_n3_6 = grid_n3 // 128
    grid_n = grid_n1_4 + grid_n2_5
    grid_n_7 = grid_n + grid_n3_6
    blocks_per_rank = grid_m_per_rank_3 * grid_n_7
    v0 = direction == 0
    if v0:
        other_rank = pid // blocks_per_rank
        other_rank_83 = my_rank - other_rank
        other_rank_84 = other_rank_83 + world_size
        other_rank_85 = other_rank_84 % world_size
        v1 = other_rank_85
    else:
        other_rank_b78 = pid // blocks_per_rank
        other_rank_83_b79 = other_rank_b78 + 1
        other_rank_84_b80 = my_rank + other_rank_83_b79
        other_rank_85_b81 = other_rank_84_b80 % world_size
        v1 = other_rank_85_b81
    pid_8 = pid % blocks_per_rank
    width = grid_n_7 * 8
    group_id = pid_8 // width
    group_size = group_id * 8
    group_size_9 = grid_m_per_rank_3 - group_size
    group_size_10 = gl.minimum(group_size_9, 8)
    pid_m = pid_8 % group_size_10
    pid_m_11 = group_size + pid_m
    pid_n = pid_8 % width
    pid_n_12 = pid_n // group_size_10
    in_1 = pid_n_12 < grid_n1_4
    in_2 = pid_n_12 < grid_n
    B = gl.where(in_2, B2, B3)
    B_13 = gl.where(in_1, B1, B)
    N = gl.where(in_2, N2, N3)
    N_16 = gl.where(in_1, N1, N)
    pid_n_17 = pid_n_12 - grid_n1_4
    pid_n_18 = pid_n_17 - grid_n2_5
    pid_n_19 = gl.where(in_2, pid_n_17, pid_n_18)
    pid_n_20 = gl.where(in_1, pid_n_12, pid_n_19)
    A_21 = v1 == my_rank
    A_22 = v1 * M_per_rank
    A_23 = A_22 * stride_am
    A_24 = A + A_23
    A_25 = gl.where(A_21, A_my_shard, A_24)
    pid_z = gl.program_id(1)
    rm = pid_m_11 * 128
    rm_29 = gl.arange(0, 128, layout=L0)
    rm_31 = gl.arange(0, 128, layout=L2)
    rm_34 = rm + rm_29
    rn = pid_n_20 * 128
    rn_37 = rn + rm_31
    ram_39 = rm_34 % M_per_rank
    ram_39 = gl.max_contiguous(gl.multiple_of(ram_39, [128]), [128])
    rbn_40 = rn_37 % N_16
    rbn_40 = gl.max_contiguous(gl.multiple_of(rbn_40, [128]), [128])
    rk = pid_z * 32
    rk_41 = gl.arange(0, 32, layout=L3)
    rk_42 = gl.arange(0, 32, layout=L1)
    rk_45 = rk + rk_41
    rk_46 = rk + rk_42
    A_47 = gl.expand_dims(ram_39, 1)
    A_49 = A_47 * stride_am
    A_50 = gl.expand_dims(rk_45, 0)
    A_51 = A_49.broadcast_to([128, 32])
    A_52 = A_50.broadcast_to([128, 32])
    A_53 = A_51 + A_52
    A_55 = A_25 + A_53
    B_56 = gl.expand_dims(rk_46, 1)
    B_58 = B_56 * stride_bk
    B_59 = gl.expand_dims(rbn_40, 0)
    B_60 = B_58.broadcast_to([32, 128])
    B_61 = B_59.broadcast_to([32, 128])
    B_62 = B_60 + B_61
    B_64 = B_13 + B_62
    v5 = K + 31
    v6 = v5 // 32
    B_65 = stride_bk * 32
    A_84 = A_55
    B_85 = B_64
    for acc_83 in range(0, v6, 1):
        twill_k = (acc_83 - 0) // 1
        A_89 = A_84 + 32
        B_90 = B_85 + B_65
        mbarrier.wait(a_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 5), A_84)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_ready.index(twill_k % 5), increment_count=False)
        else:
            a_buf.index(twill_k % 5).store(gl.load(A_84))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_ready.index(twill_k % 5), count=128)
        mbarrier.wait(b_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 5), B_85)  # load1_b: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_ready.index(twill_k % 5), increment_count=False)
        else:
            b_buf.index(twill_k % 5).store(gl.load(B_85))  # load1_b: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_ready.index(twill_k % 5), count=128)
        A_84 = A_89
        B_85 = B_90

@gluon.jit
def twill_kernel(A_my_shard, A, B1, B2, B3, C1, C2, C3, C1_my_shard, C2_my_shard, C3_my_shard, wait_counters, blocks_done_counters, write_counters, M, N1, N2, N3, K, stride_am, stride_bk, stride_cm, do_wait, do_write, direction, stripe, seq_num, num_stripes, _wait, my_rank, world_size, TWILL_COPY: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.float16, [5, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_buf = gl.allocate_shared_memory(gl.float16, [5, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_ready.index(i), count=128)
    a_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_ready.index(i), count=128)
    b_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_empty.index(i), count=1)
    twill_start = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(twill_start.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (A_my_shard, A, B1, B2, B3, C1, C2, C3, C1_my_shard, C2_my_shard, C3_my_shard, wait_counters, blocks_done_counters, write_counters, M, N1, N2, N3, K, stride_am, stride_bk, stride_cm, do_wait, do_write, direction, stripe, seq_num, num_stripes, _wait, my_rank, world_size, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, twill_start, TWILL_COPY)),
        (producer_1, (A_my_shard, A, B1, B2, B3, C1, C2, C3, C1_my_shard, C2_my_shard, C3_my_shard, wait_counters, blocks_done_counters, write_counters, M, N1, N2, N3, K, stride_am, stride_bk, stride_cm, do_wait, do_write, direction, stripe, seq_num, num_stripes, _wait, my_rank, world_size, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, twill_start, TWILL_COPY)),
    ], [4], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A_my_shard', 'A', 'B1', 'B2', 'B3', 'C1', 'C2', 'C3', 'C1_my_shard', 'C2_my_shard', 'C3_my_shard', 'wait_counters', 'blocks_done_counters', 'write_counters', 'M', 'N1', 'N2', 'N3', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'do_wait', 'do_write', 'direction', 'stripe', 'seq_num', 'num_stripes', '_wait', 'my_rank', 'world_size', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M', 'SPLIT_K', 'EVEN_K', 'ACC_TYPE']          # the Triton kernel's parameters, in order
RUNTIME = ['A_my_shard', 'A', 'B1', 'B2', 'B3', 'C1', 'C2', 'C3', 'C1_my_shard', 'C2_my_shard', 'C3_my_shard', 'wait_counters', 'blocks_done_counters', 'write_counters', 'M', 'N1', 'N2', 'N3', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'do_wait', 'do_write', 'direction', 'stripe', 'seq_num', 'num_stripes', '_wait', 'my_rank', 'world_size']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A_my_shard', 'A', 'B1', 'B2', 'B3', 'C1', 'C2', 'C3', 'C1_my_shard', 'C2_my_shard', 'C3_my_shard', 'wait_counters', 'blocks_done_counters', 'write_counters', 'M', 'N1', 'N2', 'N3', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'do_wait', 'do_write', 'direction', 'stripe', 'seq_num', 'num_stripes', '_wait', 'my_rank', 'world_size', 'ACC_TYPE']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 32, 'GROUP_M': 8, 'SPLIT_K': 1, 'EVEN_K': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A_my_shard', 'A', 'B1', 'B2', 'B3', 'stride_am', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
