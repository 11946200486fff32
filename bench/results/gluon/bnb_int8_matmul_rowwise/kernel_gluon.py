"""_int8_matmul_rowwise_dequantize, written by twill from its joint schedule: I=195 L=169 (optimal), 1920 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a, b): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- a, b by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over A, B when the base is 16-byte aligned, the row strides 16-byte multiples, (M) % 128 == 0, (N) % 256 == 0; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 8 warps, 168 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 80 registers per thread (needs about 80): cp.async copies into the rings
- ring a: 4 buffers of [128, 128] i8 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring b: 4 buffers of [128, 256] i8 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 196752 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 32])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 8], order=[1, 0])))
L9 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 32]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 2], order=[1, 0]))
L11 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 2], order=[1, 0])))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(A, B, C, bias, state_x_ptr, state_w_ptr, M, N, K, divfactor, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid = twill_pid0
        pid_z = twill_pid1
        grid_m = M + 127
        grid_m_2 = grid_m // 128
        grid_n_3 = N + 255
        grid_n_4 = grid_n_3 // 256
        width = grid_n_4 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_5 = grid_m_2 - group_size
        group_size_6 = gl.minimum(group_size_5, 8)
        pid_m = pid % group_size_6
        pid_m_7 = group_size + pid_m
        pid_n = pid % width
        pid_n_8 = pid_n // group_size_6
        rm = pid_m_7 * 128
        rm_9 = gl.arange(0, 128, layout=L0)
        rm_10 = gl.arange(0, 128, layout=L1)
        rm_11 = gl.arange(0, 128, layout=L2)
        rm_12 = gl.arange(0, 128, layout=L3)
        rm_13 = gl.arange(0, 128, layout=L4)
        rm_17 = rm + rm_9
        rm_18 = rm + rm_12
        rm_19 = rm + rm_11
        rn = pid_n_8 * 256
        rn_20 = gl.arange(0, 256, layout=L5)
        rn_21 = gl.arange(0, 256, layout=L6)
        rn_22 = gl.arange(0, 256, layout=L7)
        rn_26 = rn + rn_20
        rn_27 = rn + rn_21
        rn_28 = rn + rn_22
        ram_31 = rm_17 % M
        ram_31 = gl.max_contiguous(gl.multiple_of(ram_31, [128]), [128])
        ram_32 = rm_18 % M
        ram_32 = gl.max_contiguous(gl.multiple_of(ram_32, [128]), [128])
        rbn_35 = rn_26 % N
        rbn_35 = gl.max_contiguous(gl.multiple_of(rbn_35, [256]), [256])
        rbn_36 = rn_28 % N
        rbn_36 = gl.max_contiguous(gl.multiple_of(rbn_36, [256]), [256])
        rk = pid_z * 128
        rk_39 = rk + rm_13
        rk_40 = rk + rm_10
        A_41 = gl.expand_dims(ram_31, 1)
        A_43 = A_41 * stride_am
        A_44 = gl.expand_dims(rk_39, 0)
        A_45 = A_43.broadcast_to([128, 128])
        A_46 = A_44.broadcast_to([128, 128])
        A_47 = A_45 + A_46
        A_49 = A + A_47
        B_50 = gl.expand_dims(rk_40, 1)
        B_51 = gl.expand_dims(rbn_35, 0)
        B_53 = B_51 * stride_bn
        B_54 = B_50.broadcast_to([128, 256])
        B_55 = B_53.broadcast_to([128, 256])
        B_56 = B_54 + B_55
        B_58 = B + B_56
        w_factor_59 = state_w_ptr + rbn_36
        w_factor_60 = gl.load(w_factor_59)
        acc = gl.convert_layout(w_factor_60, L8)
        w_factor_61 = gl.expand_dims(acc, 0)
        x_factor_62 = state_x_ptr + ram_32
        x_factor_63 = gl.load(x_factor_62)
        x_factor_64 = gl.expand_dims(x_factor_63, 1)
        v0 = K + 127
        v1 = v0 // 128
        twill_n = (v1 - 0 + 1 - 1) // 1
        acc_106 = gl.full([128, 256], 0, gl.int32, layout=L9)
        acc_106_p1 = acc_106
        for twill_b in range(0, twill_n):
            mbarrier.wait(a_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(b_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_106 = warpgroup_mma(a_buf.index((twill_base + twill_b - 0) % 4), b_buf.index((twill_base + twill_b - 0) % 4).permute((1, 0)), acc_106_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_106_p1 = warpgroup_mma_wait(1, deps=(acc_106_p1,))
            mbarrier.arrive(a_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_106 = warpgroup_mma_wait(1, deps=(tok_acc_106,))
            acc_106_p1 = acc_106
        acc_106_p1 = warpgroup_mma_wait(0, deps=(acc_106_p1,))
        a_buf._keep_alive()
        b_buf._keep_alive()
        mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(b_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        acc_66 = acc_106_p1.to(gl.float32)
        acc_68 = acc_66 * divfactor
        acc_69 = x_factor_64.to(gl.float32)
        acc_70 = acc_69.broadcast_to([128, 256])
        acc_71 = acc_70 * acc_68
        acc_72 = gl.convert_layout(w_factor_61, L10)
        acc_73 = acc_72.to(gl.float32)
        acc_74 = gl.convert_layout(acc_73, L9)
        acc_75 = acc_74.broadcast_to([128, 256])
        acc_76 = acc_75 * acc_71
        acc_77 = acc_76.to(gl.float16)
        bias_79 = bias + rn_28
        bias_80 = gl.load(bias_79)
        acc_81 = gl.convert_layout(bias_80, L11)
        acc_82 = gl.expand_dims(acc_81, 0)
        acc_83 = acc_82.broadcast_to([128, 256])
        acc_84 = gl.convert_layout(acc_82, L9).broadcast_to([128, 256])
        acc_85 = acc_77 + acc_84
        C_86 = gl.expand_dims(rm_19, 1)
        C_88 = C_86 * stride_cm
        C_89 = gl.expand_dims(rn_27, 0)
        C_90 = C_88.broadcast_to([128, 256])
        C_91 = C_89.broadcast_to([128, 256])
        C_92 = C_90 + C_91
        C_94 = C + C_92
        mask = rm_19 < M
        mask_95 = gl.expand_dims(mask, 1)
        mask_96 = rn_27 < N
        mask_97 = gl.expand_dims(mask_96, 0)
        mask_98 = mask_95.broadcast_to([128, 256])
        mask_99 = mask_97.broadcast_to([128, 256])
        mask_100 = mask_98 & mask_99
        v2 = gl.convert_layout(acc_85, L12)
        gl.store(C_94, v2, mask=mask_100)
        twill_base += twill_n

@gluon.jit
def producer_1(A, B, C, bias, state_x_ptr, state_w_ptr, M, N, K, divfactor, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid = twill_pid0
        pid_z = twill_pid1
        grid_m = M + 127
        grid_m_2 = grid_m // 128
        grid_n_3 = N + 255
        grid_n_4 = grid_n_3 // 256
        width = grid_n_4 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_5 = grid_m_2 - group_size
        group_size_6 = gl.minimum(group_size_5, 8)
        pid_m = pid % group_size_6
        pid_m_7 = group_size + pid_m
        pid_n = pid % width
        pid_n_8 = pid_n // group_size_6
        rm = pid_m_7 * 128
        rm_9 = gl.arange(0, 128, layout=L0)
        rm_10 = gl.arange(0, 128, layout=L1)
        rm_13 = gl.arange(0, 128, layout=L4)
        rm_17 = rm + rm_9
        rn = pid_n_8 * 256
        rn_20 = gl.arange(0, 256, layout=L5)
        rn_26 = rn + rn_20
        ram_31 = rm_17 % M
        ram_31 = gl.max_contiguous(gl.multiple_of(ram_31, [128]), [128])
        rbn_35 = rn_26 % N
        rbn_35 = gl.max_contiguous(gl.multiple_of(rbn_35, [256]), [256])
        rk = pid_z * 128
        rk_39 = rk + rm_13
        rk_40 = rk + rm_10
        A_41 = gl.expand_dims(ram_31, 1)
        A_43 = A_41 * stride_am
        A_44 = gl.expand_dims(rk_39, 0)
        A_45 = A_43.broadcast_to([128, 128])
        A_46 = A_44.broadcast_to([128, 128])
        A_47 = A_45 + A_46
        A_49 = A + A_47
        B_50 = gl.expand_dims(rk_40, 1)
        B_51 = gl.expand_dims(rbn_35, 0)
        B_53 = B_51 * stride_bn
        B_54 = B_50.broadcast_to([128, 256])
        B_55 = B_53.broadcast_to([128, 256])
        B_56 = B_54 + B_55
        B_58 = B + B_56
        v0 = K + 127
        v1 = v0 // 128
        A_102 = A_49
        B_103 = B_58
        for acc_101 in range(0, v1, 1):
            twill_k = twill_base + (acc_101 - 0) // 1
            A_107 = A_102 + 128
            B_108 = B_103 + 128
            mbarrier.wait(a_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_ready.index(twill_k % 4), twill_box_a.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a, [((1024 * group_id + 128 * pid_m) % (M)), 128 * pid_z + 128 * acc_101], a_ready.index(twill_k % 4), a_buf.index(twill_k % 4))  # load0_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 4), A_102)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_ready.index(twill_k % 4), increment_count=False)
                else:
                    a_buf.index(twill_k % 4).store(gl.load(A_102))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_ready.index(twill_k % 4), count=256)
            mbarrier.wait(b_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(b_ready.index(twill_k % 4), twill_box_b.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_b, [((256 * pid_n_8) % (N)), 128 * pid_z + 128 * acc_101], b_ready.index(twill_k % 4), b_buf.index(twill_k % 4))  # load1_b: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 4).permute((1, 0)), B_103)  # load1_b: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(b_ready.index(twill_k % 4), increment_count=False)
                else:
                    b_buf.index(twill_k % 4).permute((1, 0)).store(gl.load(B_103))  # load1_b: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(b_ready.index(twill_k % 4), count=256)
            A_102 = A_107
            B_103 = B_108
        twill_base += (v1 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(A, B, C, bias, state_x_ptr, state_w_ptr, M, N, K, divfactor, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a, twill_box_b, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.int8, [4, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    b_buf = gl.allocate_shared_memory(gl.int8, [4, 256, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    a_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_ready.index(i), count=1 if TWILL_TMA else 256)
    a_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_ready.index(i), count=1 if TWILL_TMA else 256)
    b_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (A, B, C, bias, state_x_ptr, state_w_ptr, M, N, K, divfactor, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (A, B, C, bias, state_x_ptr, state_w_ptr, M, N, K, divfactor, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [80])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'C', 'bias', 'state_x_ptr', 'state_w_ptr', 'M', 'N', 'K', 'divfactor', 'has_bias', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M', 'SPLIT_K', 'EVEN_K', 'ACC_TYPE']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'C', 'bias', 'state_x_ptr', 'state_w_ptr', 'M', 'N', 'K', 'divfactor', 'stride_am', 'stride_bn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_a', 'twill_box_b']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'C', 'bias', 'state_x_ptr', 'state_w_ptr', 'M', 'N', 'K', 'divfactor', 'stride_am', 'stride_bn', 'stride_cm', 'ACC_TYPE', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'has_bias': 1, 'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'BLOCK_M': 128, 'BLOCK_N': 256, 'BLOCK_K': 128, 'GROUP_M': 8, 'SPLIT_K': 1, 'EVEN_K': True}         # the specialisation this kernel was generated for
HEURISTICS = {'EVEN_K': "lambda args: args['K'] % (args['BLOCK_K'] * args['SPLIT_K']) == 0"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_b': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a': ('A', ['stride_am', '1'], [None, None], [128, 128], ['(M) % 128 == 0']), 'twill_box_b': ('B', ['stride_bn', '1'], [None, None], [256, 128], ['(N) % 256 == 0'])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A', 'B', 'stride_am', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
