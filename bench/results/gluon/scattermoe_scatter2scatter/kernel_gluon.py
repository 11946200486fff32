"""_scatter2scatter, written by twill from its joint schedule: I=330 L=297 (optimal), 640 cycles per iteration predicted.

Decisions (each from the schedule):
- x_68 copied with cp.async at every launch, not by TMA: its addresses go through arith.divsi (%M_in_idx), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (x_68, w_70): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (168, 64 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- w_70 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over W_ptr when the base is 16-byte aligned, the row strides 16-byte multiples, (1 * stride_we) % (14336) == 0, (14336) <= 2147483519; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring x_68: 6 buffers of [128, 32] bf16 (the loads run 5 iteration(s) ahead), read by partition(s) 0
- ring w_70: 6 buffers of [32, 128] bf16 (the loads run 5 iteration(s) ahead), read by partition(s) 0
- shared memory: 98512 bytes planned of 232448; maxnreg 128
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's and two CTAs share an SM

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))

@gluon.jit
def consumer_0(X_ptr, W_ptr, stride_we, Y_ptr, grouped_idx_ptr, expert_idxs_ptr, M, twill_box_w_70, x_68_buf, w_70_buf, x_68_ready, x_68_empty, w_70_ready, w_70_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    M_block_id = pid // 112
    M_block = M_block_id * 128
    M_block_6 = gl.arange(0, 128, layout=L2)
    M_block_10 = M_block + M_block_6
    M_boundary_mask = M * 2
    M_boundary_mask_17 = M_block_10 < M_boundary_mask
    E_idxs_19 = expert_idxs_ptr + M_block_10
    E_idxs_20 = gl.load(E_idxs_19, mask=M_boundary_mask_17, other=8)
    E_first_idx = E_idxs_20
    E_first_idx_21 = gl.min(E_first_idx, axis=0)
    E_last_idx_22 = gl.max(E_first_idx, axis=0)
    E_last_idx_23 = gl.minimum(E_last_idx_22, 7)
    v0 = E_last_idx_23 + 1
    acc_56 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
    twill_tile_lb = E_first_idx_21
    twill_tile_step = 1
    twill_base = 0
    for acc_55 in range(twill_tile_lb, v0, twill_tile_step):
        pid = gl.program_id(0)
        M_block_id = pid // 112
        N_block_id = pid % 112
        M_block = M_block_id * 128
        M_block_4 = gl.arange(0, 128, layout=L0)
        M_block_5 = gl.arange(0, 128, layout=L1)
        M_block_6 = gl.arange(0, 128, layout=L2)
        M_block_9 = M_block + M_block_5
        M_block_10 = M_block + M_block_6
        N_block = N_block_id * 128
        N_block_12 = N_block + M_block_4
        N_mask_13 = N_block_12 < 14336
        M_boundary_mask = M * 2
        M_boundary_mask_16 = M_block_9 < M_boundary_mask
        M_boundary_mask_17 = M_block_10 < M_boundary_mask
        M_idx_24 = grouped_idx_ptr + M_block_10
        M_idx_25 = gl.load(M_idx_24, mask=M_boundary_mask_17)
        M_idx_26 = M_idx_25.to(gl.int32)
        M_in_idx = M_idx_26 // 2
        X_blk_ptrs = gl.convert_layout(M_in_idx, L3)
        X_blk_ptrs_27 = gl.expand_dims(X_blk_ptrs, 1)
        X_blk_ptrs_28 = X_blk_ptrs_27 * 4096
        X_blk_ptrs_30 = X_ptr + X_blk_ptrs_28
        X_blk_ptrs_31 = gl.arange(0, 32, layout=L4)
        X_blk_ptrs_32 = gl.expand_dims(X_blk_ptrs_31, 0)
        X_blk_ptrs_33 = X_blk_ptrs_30.broadcast_to([128, 32])
        X_blk_ptrs_34 = X_blk_ptrs_32.broadcast_to([128, 32])
        X_blk_ptrs_35 = X_blk_ptrs_33 + X_blk_ptrs_34
        W_blk_ptrs = gl.arange(0, 32, layout=L1)
        W_blk_ptrs_36 = gl.expand_dims(W_blk_ptrs, 1)
        W_blk_ptrs_37 = W_blk_ptrs_36 * 14336
        W_blk_ptrs_39 = W_ptr + W_blk_ptrs_37
        W_blk_ptrs_40 = gl.expand_dims(N_block_12, 0)
        W_blk_ptrs_41 = W_blk_ptrs_39.broadcast_to([32, 128])
        W_blk_ptrs_42 = W_blk_ptrs_40.broadcast_to([32, 128])
        W_blk_ptrs_43 = W_blk_ptrs_41 + W_blk_ptrs_42
        W_blk_ptrs_44 = gl.cast(stride_we, gl.int64)
        W_blk_ptrs_58 = acc_55 * W_blk_ptrs_44
        W_blk_ptrs_60 = W_blk_ptrs_43 + W_blk_ptrs_58
        twill_n = (128 - 0 + 1 - 1) // 1
        acc_74 = acc_56
        acc_74_p1 = acc_74
        for twill_b in range(0, twill_n):
            mbarrier.wait(x_68_ready.index((twill_base + twill_b - 0) % 6), ((twill_base + twill_b - 0) // 6) & 1)
            fence_async_shared()
            mbarrier.wait(w_70_ready.index((twill_base + twill_b - 0) % 6), ((twill_base + twill_b - 0) // 6) & 1)
            fence_async_shared()
            tok_acc_74 = warpgroup_mma(x_68_buf.index((twill_base + twill_b - 0) % 6), w_70_buf.index((twill_base + twill_b - 0) % 6), acc_74_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_74_p1 = warpgroup_mma_wait(1, deps=(acc_74_p1,))
            mbarrier.arrive(x_68_empty.index((twill_base + twill_b - 1 - 0) % 6), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(w_70_empty.index((twill_base + twill_b - 1 - 0) % 6), pred=(twill_b - 1 - 0) >= 0)
            acc_74 = warpgroup_mma_wait(1, deps=(tok_acc_74,))
            acc_74_p1 = acc_74
        acc_74_p1 = warpgroup_mma_wait(0, deps=(acc_74_p1,))
        x_68_buf._keep_alive()
        w_70_buf._keep_alive()
        mbarrier.arrive(x_68_empty.index((twill_base + (twill_n - 1) - 0) % 6), pred=twill_n > 0)
        mbarrier.arrive(w_70_empty.index((twill_base + (twill_n - 1) - 0) % 6), pred=twill_n > 0)
        acc_56 = acc_74_p1
        twill_base += twill_n
    pid = gl.program_id(0)
    M_block_id = pid // 112
    N_block_id = pid % 112
    M_block = M_block_id * 128
    M_block_4 = gl.arange(0, 128, layout=L0)
    M_block_5 = gl.arange(0, 128, layout=L1)
    M_block_9 = M_block + M_block_5
    N_block = N_block_id * 128
    N_block_12 = N_block + M_block_4
    N_mask_13 = N_block_12 < 14336
    M_boundary_mask = M * 2
    M_boundary_mask_16 = M_block_9 < M_boundary_mask
    Y_blk_ptrs_47 = gl.expand_dims(M_block_9, 1)
    Y_blk_ptrs_48 = Y_blk_ptrs_47 * 14336
    Y_blk_ptrs_49 = gl.expand_dims(N_block_12, 0)
    Y_blk_ptrs_50 = Y_blk_ptrs_48.broadcast_to([128, 128])
    Y_blk_ptrs_51 = Y_blk_ptrs_49.broadcast_to([128, 128])
    Y_blk_ptrs_52 = Y_blk_ptrs_50 + Y_blk_ptrs_51
    Y_blk_ptrs_54 = Y_ptr + Y_blk_ptrs_52
    v1 = gl.expand_dims(M_boundary_mask_16, 1)
    v2 = gl.expand_dims(N_mask_13, 0)
    v3 = v1.broadcast_to([128, 128])
    v4 = v2.broadcast_to([128, 128])
    v5 = v3 & v4
    v6 = acc_56.to(gl.bfloat16)
    v7 = gl.convert_layout(v6, L5)
    gl.store(Y_blk_ptrs_54, v7, mask=v5)

@gluon.jit
def producer_1(X_ptr, W_ptr, stride_we, Y_ptr, grouped_idx_ptr, expert_idxs_ptr, M, twill_box_w_70, x_68_buf, w_70_buf, x_68_ready, x_68_empty, w_70_ready, w_70_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid = gl.program_id(0)
    M_block_id = pid // 112
    M_block = M_block_id * 128
    M_block_6 = gl.arange(0, 128, layout=L2)
    M_block_10 = M_block + M_block_6
    M_boundary_mask = M * 2
    M_boundary_mask_17 = M_block_10 < M_boundary_mask
    E_idxs_19 = expert_idxs_ptr + M_block_10
    E_idxs_20 = gl.load(E_idxs_19, mask=M_boundary_mask_17, other=8)
    E_first_idx = E_idxs_20
    E_first_idx_21 = gl.min(E_first_idx, axis=0)
    E_last_idx_22 = gl.max(E_first_idx, axis=0)
    E_last_idx_23 = gl.minimum(E_last_idx_22, 7)
    v0 = E_last_idx_23 + 1
    twill_tile_lb = E_first_idx_21
    twill_tile_step = 1
    twill_base = 0
    for acc_55 in range(twill_tile_lb, v0, twill_tile_step):
        pid = gl.program_id(0)
        M_block_id = pid // 112
        N_block_id = pid % 112
        M_block = M_block_id * 128
        M_block_4 = gl.arange(0, 128, layout=L0)
        M_block_6 = gl.arange(0, 128, layout=L2)
        M_block_10 = M_block + M_block_6
        N_block = N_block_id * 128
        N_block_12 = N_block + M_block_4
        N_mask_13 = N_block_12 < 14336
        M_boundary_mask = M * 2
        M_boundary_mask_17 = M_block_10 < M_boundary_mask
        E_idxs_19 = expert_idxs_ptr + M_block_10
        E_idxs_20 = gl.load(E_idxs_19, mask=M_boundary_mask_17, other=8)
        M_idx_24 = grouped_idx_ptr + M_block_10
        M_idx_25 = gl.load(M_idx_24, mask=M_boundary_mask_17)
        M_idx_26 = M_idx_25.to(gl.int32)
        M_in_idx = M_idx_26 // 2
        X_blk_ptrs = gl.convert_layout(M_in_idx, L3)
        X_blk_ptrs_27 = gl.expand_dims(X_blk_ptrs, 1)
        X_blk_ptrs_28 = X_blk_ptrs_27 * 4096
        X_blk_ptrs_30 = X_ptr + X_blk_ptrs_28
        X_blk_ptrs_31 = gl.arange(0, 32, layout=L4)
        X_blk_ptrs_32 = gl.expand_dims(X_blk_ptrs_31, 0)
        X_blk_ptrs_33 = X_blk_ptrs_30.broadcast_to([128, 32])
        X_blk_ptrs_34 = X_blk_ptrs_32.broadcast_to([128, 32])
        X_blk_ptrs_35 = X_blk_ptrs_33 + X_blk_ptrs_34
        W_blk_ptrs = gl.arange(0, 32, layout=L1)
        W_blk_ptrs_36 = gl.expand_dims(W_blk_ptrs, 1)
        W_blk_ptrs_37 = W_blk_ptrs_36 * 14336
        W_blk_ptrs_39 = W_ptr + W_blk_ptrs_37
        W_blk_ptrs_40 = gl.expand_dims(N_block_12, 0)
        W_blk_ptrs_41 = W_blk_ptrs_39.broadcast_to([32, 128])
        W_blk_ptrs_42 = W_blk_ptrs_40.broadcast_to([32, 128])
        W_blk_ptrs_43 = W_blk_ptrs_41 + W_blk_ptrs_42
        W_blk_ptrs_44 = gl.cast(stride_we, gl.int64)
        w = gl.expand_dims(N_mask_13, 0)
        w_45 = w.broadcast_to([32, 128])
        E_mask_57 = E_idxs_20 == acc_55
        W_blk_ptrs_58 = acc_55 * W_blk_ptrs_44
        W_blk_ptrs_60 = W_blk_ptrs_43 + W_blk_ptrs_58
        x = gl.convert_layout(E_mask_57, L3)
        x_61 = gl.expand_dims(x, 1)
        x_62 = x_61.broadcast_to([128, 32])
        W_blk_ptrs_67 = W_blk_ptrs_60
        X_blk_ptrs_66 = X_blk_ptrs_35
        for W_blk_ptrs_64 in range(0, 128, 1):
            twill_k = twill_base + (W_blk_ptrs_64 - 0) // 1
            X_blk_ptrs_72 = X_blk_ptrs_66 + 32
            W_blk_ptrs_73 = W_blk_ptrs_67 + 458752
            mbarrier.wait(x_68_empty.index(twill_k % 6), ((twill_k // 6) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(x_68_buf.index(twill_k % 6), X_blk_ptrs_66, mask=x_62)  # load0_x: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(x_68_ready.index(twill_k % 6), increment_count=False)
            else:
                x_68_buf.index(twill_k % 6).store(gl.load(X_blk_ptrs_66, mask=x_62, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(x_68_ready.index(twill_k % 6), count=128)
            mbarrier.wait(w_70_empty.index(twill_k % 6), ((twill_k // 6) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(w_70_ready.index(twill_k % 6), twill_box_w_70.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_w_70, [gl.cast(acc_55 * ((1 * stride_we) // (14336)) + 32 * W_blk_ptrs_64, gl.int32), gl.cast(128 * N_block_id, gl.int32)], w_70_ready.index(twill_k % 6), w_70_buf.index(twill_k % 6))  # load1_w: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(w_70_buf.index(twill_k % 6), W_blk_ptrs_67, mask=w_45)  # load1_w: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(w_70_ready.index(twill_k % 6), increment_count=False)
                else:
                    w_70_buf.index(twill_k % 6).store(gl.load(W_blk_ptrs_67, mask=w_45, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(w_70_ready.index(twill_k % 6), count=128)
            W_blk_ptrs_67 = W_blk_ptrs_73
            X_blk_ptrs_66 = X_blk_ptrs_72
        twill_trips = (128 - 0 + 1 - 1) // 1
        twill_base += twill_trips

@gluon.jit
def twill_kernel(X_ptr, W_ptr, stride_we, Y_ptr, grouped_idx_ptr, expert_idxs_ptr, M, twill_box_w_70, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    x_68_buf = gl.allocate_shared_memory(gl.bfloat16, [6, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    w_70_buf = gl.allocate_shared_memory(gl.bfloat16, [6, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_68_ready = gl.allocate_shared_memory(gl.int64, [6, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(6):
        mbarrier.init(x_68_ready.index(i), count=128)
    x_68_empty = gl.allocate_shared_memory(gl.int64, [6, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(6):
        mbarrier.init(x_68_empty.index(i), count=1)
    w_70_ready = gl.allocate_shared_memory(gl.int64, [6, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(6):
        mbarrier.init(w_70_ready.index(i), count=1 if TWILL_TMA else 128)
    w_70_empty = gl.allocate_shared_memory(gl.int64, [6, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(6):
        mbarrier.init(w_70_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (X_ptr, W_ptr, stride_we, Y_ptr, grouped_idx_ptr, expert_idxs_ptr, M, twill_box_w_70, x_68_buf, w_70_buf, x_68_ready, x_68_empty, w_70_ready, w_70_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (X_ptr, W_ptr, stride_we, Y_ptr, grouped_idx_ptr, expert_idxs_ptr, M, twill_box_w_70, x_68_buf, w_70_buf, x_68_ready, x_68_empty, w_70_ready, w_70_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X_ptr', 'stride_xm', 'stride_xk', 'W_ptr', 'stride_we', 'stride_wk', 'stride_wn', 'Y_ptr', 'stride_ym', 'stride_yn', 'B_ptr', 'stride_be', 'stride_bn', 'grouped_idx_ptr', 'expert_idxs_ptr', 'FAN_OUT', 'M', 'K', 'N', 'E', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'ACC_TYPE', 'allow_tf32', 'x_grouped', 'y_grouped', 'NO_K_MASK', 'NO_N_MASK']          # the Triton kernel's parameters, in order
RUNTIME = ['X_ptr', 'W_ptr', 'stride_we', 'Y_ptr', 'grouped_idx_ptr', 'expert_idxs_ptr', 'M', 'twill_box_w_70']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X_ptr', 'W_ptr', 'stride_we', 'Y_ptr', 'B_ptr', 'grouped_idx_ptr', 'expert_idxs_ptr', 'M', 'ACC_TYPE']   # the arguments a launch key reads
CONSTEXPRS = {'stride_xm': 4096, 'stride_xk': 1, 'stride_wk': 14336, 'stride_wn': 1, 'stride_ym': 14336, 'stride_yn': 1, 'stride_be': 0, 'stride_bn': 0, 'FAN_OUT': 2, 'K': 4096, 'N': 14336, 'E': 8, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 32, 'allow_tf32': True, 'x_grouped': False, 'y_grouped': True, 'NO_K_MASK': True, 'NO_N_MASK': True}         # the specialisation this kernel was generated for
HEURISTICS = {'NO_K_MASK': "lambda args: args['K'] % args['BLOCK_K'] == 0", 'NO_N_MASK': "lambda args: args['N'] % args['BLOCK_N'] == 0"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_w_70': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_w_70': ('W_ptr', ['14336', '1'], [None, '14336'], [32, 128], ['(1 * stride_we) % (14336) == 0', '(14336) <= 2147483519'])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['X_ptr', 'W_ptr', 'stride_we']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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

_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristic(name, src):
    """Heuristic ``name``'s function, from its source and the kernel module's names it reads (``HEURISTIC_SCOPE``:
    the module's imports, constants and the functions it calls); False where it cannot be made here."""
    fn = _HEUR.get(name)
    if fn is None:
        import math
        import torch
        import triton
        import triton.language as tl
        scope = {"torch": torch, "triton": triton, "tl": tl, "math": math}
        for part in HEURISTIC_SCOPE:
            try:
                exec(part, scope)
            except Exception:     # noqa: BLE001 - an import of the kernel's own package: its names not here
                pass
        try:
            fn = eval(src, scope)
        except Exception:         # noqa: BLE001 - names of the kernel's module not found: not checked
            fn = False
        if fn is False:
            import warnings
            warnings.warn(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated by this "
                          "launcher: launches are not checked against it", stacklevel=3)
        _HEUR[name] = fn
    return fn


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _heuristic(name, src)
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


def _heuristic_args(bound):
    """The kernel arguments its @triton.heuristics supply (kernl's ``size_m_rounded``), set as Triton sets them."""
    for name, src in HEURISTIC_ARGS.items():
        fn = _heuristic(name, src)
        if fn is False:
            raise ValueError(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated here")
        bound[name] = fn(dict(bound, **CONSTEXPRS))


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
    _heuristics(bound)
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
        g = (max(1, min(g[0] * g[1] * g[2], 2 * _sm_count())),)
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
