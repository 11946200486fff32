"""matmul_4d_kernel, written by twill from its joint schedule: I=278 L=278 (optimal), 2224 cycles per iteration predicted.

Decisions (each from the schedule):
- a copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- b copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a, b): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (184, 64 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 184): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a: 2 buffers of [128, 32] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring b: 2 buffers of [32, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 32848 bytes planned of 232448; maxnreg 128
- early return at deepspeed_matmul_4d_causal.py:205 (TTGIR line 66): taken in the kernel itself, before gl.warp_specialize starts the partitions (its branch's 21 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)
- if at deepspeed_matmul_4d_causal.py:233 (TTGIR line 164): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, M, N, K, CACHE_M, CACHE_N, CACHE_K, stride_ab, stride_ah, stride_am, stride_bb, stride_bh, stride_bn, stride_cb, stride_ch, stride_cm, scale, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    head = gl.program_id(1)
    batch = gl.program_id(2)
    num_pid_m = M + 127
    num_pid_m_8 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_9 = num_pid_n // 128
    num_pid_in_group = num_pid_n_9 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_8 - first_pid_m
    group_size_m_10 = gl.minimum(group_size_m, 8)
    pid_m = pid % group_size_m_10
    pid_m_11 = first_pid_m + pid_m
    pid_n = pid % num_pid_in_group
    pid_n_12 = pid_n // group_size_m_10
    v3 = pid_n_12 * 128
    offs_am = pid_m_11 * 128
    offs_am_30 = gl.arange(0, 128, layout=L0)
    offs_am_31 = gl.arange(0, 128, layout=L1)
    offs_am_32 = gl.arange(0, 128, layout=L2)
    offs_am_33 = gl.arange(0, 128, layout=L3)
    offs_am_36 = offs_am + offs_am_30
    offs_am_37 = offs_am + offs_am_31
    offs_bn_39 = v3 + offs_am_32
    offs_bn_40 = v3 + offs_am_33
    a_ptrs = batch * stride_ab
    a_ptrs_41 = a_ptr + a_ptrs
    a_ptrs_42 = head * stride_ah
    a_ptrs_43 = a_ptrs_41 + a_ptrs_42
    a_ptrs_44 = gl.expand_dims(offs_am_36, 1)
    a_ptrs_45 = gl.expand_dims(offs_am_37, 1)
    a_ptrs_47 = a_ptrs_44 * stride_am
    a_ptrs_48 = gl.arange(0, 32, layout=L4)
    a_ptrs_49 = gl.expand_dims(a_ptrs_48, 0)
    a_ptrs_50 = a_ptrs_47.broadcast_to([128, 32])
    a_ptrs_51 = a_ptrs_49.broadcast_to([128, 32])
    a_ptrs_52 = a_ptrs_50 + a_ptrs_51
    a_ptrs_54 = a_ptrs_43 + a_ptrs_52
    b_ptrs = batch * stride_bb
    b_ptrs_55 = b_ptr + b_ptrs
    b_ptrs_56 = head * stride_bh
    b_ptrs_57 = b_ptrs_55 + b_ptrs_56
    b_ptrs_58 = gl.arange(0, 32, layout=L5)
    b_ptrs_59 = gl.expand_dims(b_ptrs_58, 1)
    b_ptrs_60 = gl.expand_dims(offs_bn_39, 0)
    b_ptrs_61 = gl.expand_dims(offs_bn_40, 0)
    b_ptrs_63 = b_ptrs_60 * stride_bn
    b_ptrs_64 = b_ptrs_59.broadcast_to([32, 128])
    b_ptrs_65 = b_ptrs_63.broadcast_to([32, 128])
    b_ptrs_66 = b_ptrs_64 + b_ptrs_65
    b_ptrs_68 = b_ptrs_57 + b_ptrs_66
    a_mask_69 = a_ptrs_44 < M
    a_mask_71 = a_mask_69.broadcast_to([128, 32])
    b_mask_73 = b_ptrs_60 < N
    b_mask_74 = b_mask_73.broadcast_to([32, 128])
    twill_n = (K - 0 + 32 - 1) // 32
    accumulator_112 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
    accumulator_112_p1 = accumulator_112
    for twill_b in range(0, twill_n):
        b_mask_105 = (0 + (twill_b - 0) * 32)  # elementwise1_b_mask: stage 0, partition 0 (group 0)
        b_mask_106 = b_ptrs_59 + b_mask_105  # elementwise1_b_mask: stage 0, partition 0 (group 0)
        b_mask_107 = b_mask_106 < K  # elementwise1_b_mask: stage 0, partition 0 (group 0)
        b_mask_108 = b_mask_107.broadcast_to([32, 128])  # elementwise1_b_mask: stage 0, partition 0 (group 0)
        b_mask_109 = b_mask_108 & b_mask_74  # elementwise1_b_mask: stage 0, partition 0 (group 0)
        a_mask_100 = (0 + (twill_b - 0) * 32)  # elementwise0_a_mask: stage 0, partition 0 (group 0)
        a_mask_101 = a_ptrs_49 + a_mask_100  # elementwise0_a_mask: stage 0, partition 0 (group 0)
        a_mask_102 = a_mask_101 < K  # elementwise0_a_mask: stage 0, partition 0 (group 0)
        a_mask_103 = a_mask_102.broadcast_to([128, 32])  # elementwise0_a_mask: stage 0, partition 0 (group 0)
        a_mask_104 = a_mask_71 & a_mask_103  # elementwise0_a_mask: stage 0, partition 0 (group 0)
        mbarrier.wait(a_ready.index((twill_b - 0) % 2), ((twill_b - 0) // 2) & 1)
        fence_async_shared()
        mbarrier.wait(b_ready.index((twill_b - 0) % 2), ((twill_b - 0) // 2) & 1)
        fence_async_shared()
        tok_accumulator_112 = warpgroup_mma(a_buf.index((twill_b - 0) % 2), b_buf.index((twill_b - 0) % 2), accumulator_112_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
        accumulator_112_p1 = warpgroup_mma_wait(1, deps=(accumulator_112_p1,))
        mbarrier.arrive(a_empty.index((twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(b_empty.index((twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
        accumulator_112 = warpgroup_mma_wait(1, deps=(tok_accumulator_112,))
        accumulator_112_p1 = accumulator_112
    accumulator_112_p1 = warpgroup_mma_wait(0, deps=(accumulator_112_p1,))
    a_buf._keep_alive()
    b_buf._keep_alive()
    mbarrier.arrive(a_empty.index(((twill_n - 1) - 0) % 2), pred=twill_n > 0)
    mbarrier.arrive(b_empty.index(((twill_n - 1) - 0) % 2), pred=twill_n > 0)
    c = accumulator_112_p1.to(gl.float16)
    v5 = scale > 0.0
    if v5:
        c_97 = gl.cast(scale, gl.float16)
        c_99 = c * c_97
        v6 = c_99
    else:
        v6 = c
    c_75 = a_ptrs_45.broadcast_to([128, 128])
    c_76 = b_ptrs_61.broadcast_to([128, 128])
    c_77 = c_75 >= c_76
    c_78 = gl.where(c_77, 0.0, float("-inf"))
    v7 = gl.convert_layout(v6, L7)
    c_79 = v7.to(gl.float32)
    c_80 = c_79 + c_78
    c_ptrs_81 = batch * stride_cb
    c_ptrs_82 = c_ptr + c_ptrs_81
    c_ptrs_83 = head * stride_ch
    c_ptrs_84 = c_ptrs_82 + c_ptrs_83
    c_ptrs_86 = stride_cm * a_ptrs_45
    c_ptrs_88 = c_ptrs_84 + c_ptrs_86
    c_ptrs_89 = c_ptrs_88.broadcast_to([128, 128])
    c_ptrs_90 = c_ptrs_89 + c_76
    c_mask_91 = a_ptrs_45 < M
    c_mask_93 = b_ptrs_61 < N
    c_mask_94 = c_mask_91.broadcast_to([128, 128])
    c_mask_95 = c_mask_93.broadcast_to([128, 128])
    c_mask_96 = c_mask_94 & c_mask_95
    v8 = c_80.to(gl.float16)
    gl.store(c_ptrs_90, v8, mask=c_mask_96)

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, M, N, K, CACHE_M, CACHE_N, CACHE_K, stride_ab, stride_ah, stride_am, stride_bb, stride_bh, stride_bn, stride_cb, stride_ch, stride_cm, scale, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    head = gl.program_id(1)
    batch = gl.program_id(2)
    num_pid_m = M + 127
    num_pid_m_8 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_9 = num_pid_n // 128
    num_pid_in_group = num_pid_n_9 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_8 - first_pid_m
    group_size_m_10 = gl.minimum(group_size_m, 8)
    pid_m = pid % group_size_m_10
    pid_m_11 = first_pid_m + pid_m
    pid_n = pid % num_pid_in_group
    pid_n_12 = pid_n // group_size_m_10
    v3 = pid_n_12 * 128
    offs_am = pid_m_11 * 128
    offs_am_30 = gl.arange(0, 128, layout=L0)
    offs_am_32 = gl.arange(0, 128, layout=L2)
    offs_am_36 = offs_am + offs_am_30
    offs_bn_39 = v3 + offs_am_32
    a_ptrs = batch * stride_ab
    a_ptrs_41 = a_ptr + a_ptrs
    a_ptrs_42 = head * stride_ah
    a_ptrs_43 = a_ptrs_41 + a_ptrs_42
    a_ptrs_44 = gl.expand_dims(offs_am_36, 1)
    a_ptrs_47 = a_ptrs_44 * stride_am
    a_ptrs_48 = gl.arange(0, 32, layout=L4)
    a_ptrs_49 = gl.expand_dims(a_ptrs_48, 0)
    a_ptrs_50 = a_ptrs_47.broadcast_to([128, 32])
    a_ptrs_51 = a_ptrs_49.broadcast_to([128, 32])
    a_ptrs_52 = a_ptrs_50 + a_ptrs_51
    a_ptrs_54 = a_ptrs_43 + a_ptrs_52
    b_ptrs = batch * stride_bb
    b_ptrs_55 = b_ptr + b_ptrs
    b_ptrs_56 = head * stride_bh
    b_ptrs_57 = b_ptrs_55 + b_ptrs_56
    b_ptrs_58 = gl.arange(0, 32, layout=L5)
    b_ptrs_59 = gl.expand_dims(b_ptrs_58, 1)
    b_ptrs_60 = gl.expand_dims(offs_bn_39, 0)
    b_ptrs_63 = b_ptrs_60 * stride_bn
    b_ptrs_64 = b_ptrs_59.broadcast_to([32, 128])
    b_ptrs_65 = b_ptrs_63.broadcast_to([32, 128])
    b_ptrs_66 = b_ptrs_64 + b_ptrs_65
    b_ptrs_68 = b_ptrs_57 + b_ptrs_66
    a_mask_69 = a_ptrs_44 < M
    a_mask_71 = a_mask_69.broadcast_to([128, 32])
    b_mask_73 = b_ptrs_60 < N
    b_mask_74 = b_mask_73.broadcast_to([32, 128])
    a_ptrs_98 = a_ptrs_54
    b_ptrs_99 = b_ptrs_68
    for accumulator_97 in range(0, K, 32):
        twill_k = (accumulator_97 - 0) // 32
        a_mask_101 = a_ptrs_49 + accumulator_97
        a_mask_102 = a_mask_101 < K
        a_mask_103 = a_mask_102.broadcast_to([128, 32])
        a_mask_104 = a_mask_71 & a_mask_103
        b_mask_106 = b_ptrs_59 + accumulator_97
        b_mask_107 = b_mask_106 < K
        b_mask_108 = b_mask_107.broadcast_to([32, 128])
        b_mask_109 = b_mask_108 & b_mask_74
        a_ptrs_113 = a_ptrs_98 + 32
        b_ptrs_114 = b_ptrs_99 + 32
        mbarrier.wait(b_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 2), b_ptrs_99, mask=b_mask_109)  # load1_b: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_ready.index(twill_k % 2), increment_count=False)
        else:
            b_buf.index(twill_k % 2).store(gl.load(b_ptrs_99, mask=b_mask_109, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_ready.index(twill_k % 2), count=128)
        mbarrier.wait(a_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 2), a_ptrs_98, mask=a_mask_104)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_ready.index(twill_k % 2), increment_count=False)
        else:
            a_buf.index(twill_k % 2).store(gl.load(a_ptrs_98, mask=a_mask_104, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_ready.index(twill_k % 2), count=128)
        a_ptrs_98 = a_ptrs_113
        b_ptrs_99 = b_ptrs_114

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, M, N, K, CACHE_M, CACHE_N, CACHE_K, stride_ab, stride_ah, stride_am, stride_bb, stride_bh, stride_bn, stride_cb, stride_ch, stride_cm, scale, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    head = gl.program_id(1)
    batch = gl.program_id(2)
    num_pid_m = M + 127
    num_pid_m_8 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_9 = num_pid_n // 128
    num_pid_in_group = num_pid_n_9 * 8
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * 8
    group_size_m = num_pid_m_8 - first_pid_m
    group_size_m_10 = gl.minimum(group_size_m, 8)
    pid_m = pid % group_size_m_10
    pid_m_11 = first_pid_m + pid_m
    pid_n = pid % num_pid_in_group
    pid_n_12 = pid_n // group_size_m_10
    v0 = pid_m_11 + 1
    v1 = v0 * 128
    v2 = v1 - 1
    v3 = pid_n_12 * 128
    v4 = v2 < v3
    if v4:
        offs_cm = pid_m_11 * 128
        offs_cm_13 = gl.arange(0, 128, layout=L1)
        offs_cm_14 = gl.arange(0, 128, layout=L3)
        offs_cm_16 = offs_cm + offs_cm_13
        offs_cn_17 = v3 + offs_cm_14
        c_ptrs = batch * stride_cb
        c_ptrs_18 = c_ptr + c_ptrs
        c_ptrs_19 = head * stride_ch
        c_ptrs_20 = c_ptrs_18 + c_ptrs_19
        c_ptrs_21 = gl.expand_dims(offs_cm_16, 1)
        c_ptrs_23 = stride_cm * c_ptrs_21
        c_ptrs_25 = c_ptrs_20 + c_ptrs_23
        c_ptrs_26 = gl.expand_dims(offs_cn_17, 0)
        c_ptrs_27 = c_ptrs_25.broadcast_to([128, 128])
        c_ptrs_28 = c_ptrs_26.broadcast_to([128, 128])
        c_ptrs_29 = c_ptrs_27 + c_ptrs_28
        gl.store(c_ptrs_29, gl.full([128, 128], float("-inf"), gl.float16, layout=L7))
        return
    a_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_buf = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    a_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_ready.index(i), count=128)
    a_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_ready.index(i), count=128)
    b_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, M, N, K, CACHE_M, CACHE_N, CACHE_K, stride_ab, stride_ah, stride_am, stride_bb, stride_bh, stride_bn, stride_cb, stride_ch, stride_cm, scale, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY)),
        (producer_1, (a_ptr, b_ptr, c_ptr, M, N, K, CACHE_M, CACHE_N, CACHE_K, stride_ab, stride_ah, stride_am, stride_bb, stride_bh, stride_bn, stride_cb, stride_ch, stride_cm, scale, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY)),
    ], [4], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'CACHE_M', 'CACHE_N', 'CACHE_K', 'stride_ab', 'stride_ah', 'stride_am', 'stride_ak', 'stride_bb', 'stride_bh', 'stride_bk', 'stride_bn', 'stride_cb', 'stride_ch', 'stride_cm', 'stride_cn', 'scale', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'MASK']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'CACHE_M', 'CACHE_N', 'CACHE_K', 'stride_ab', 'stride_ah', 'stride_am', 'stride_bb', 'stride_bh', 'stride_bn', 'stride_cb', 'stride_ch', 'stride_cm', 'scale']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'CACHE_M', 'CACHE_N', 'CACHE_K', 'stride_ab', 'stride_ah', 'stride_am', 'stride_bb', 'stride_bh', 'stride_bn', 'stride_cb', 'stride_ch', 'stride_cm', 'scale']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8, 'MASK': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'K', 'stride_ab', 'stride_ah', 'stride_am', 'stride_bb', 'stride_bh', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
