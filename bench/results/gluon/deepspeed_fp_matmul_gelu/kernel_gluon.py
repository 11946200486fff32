"""_fp_matmul, written by twill from its joint schedule: I=195 L=169 (optimal), 960 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_92, b_97): their addresses and masks spread over 128 threads
- a_92, b_97 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over A, B when the base is 16-byte aligned, the row strides 16-byte multiples, (M) % 128 == 0, (N) % 256 == 0; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 8 warps, 208 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 80 registers per thread (needs about 80): cp.async copies into the rings
- ring a_92: 5 buffers of [128, 32] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- ring b_97: 5 buffers of [32, 256] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 123056 bytes planned of 232448; maxnreg 168
- written from the layouts Triton gives K, stride_am 16-divisible (its pointer loads 16 bytes a thread where the launch's specialisation proves them aligned, as Triton's own kernel at such a launch; at one where they are not, Gluon's lowering loads narrower vectors: run 66, FlagGems' softmax correct at N = 33001, x0.64 -> x1.00)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 256, 16]))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 8], order=[1, 0])))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 2], order=[1, 0]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0]))
L9 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L10 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L11 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L12 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(A, B, C, M, N, K, bias, stride_am, stride_bk, stride_cm, CACHE_M, CACHE_N, CACHE_K, twill_g0, twill_g1, twill_g2, twill_box_a_92, twill_box_b_97, a_92_buf, b_97_buf, a_92_ready, a_92_empty, b_97_ready, b_97_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid = twill_pid0
        pid_z = twill_pid1
        grid_m_5 = M + 127
        grid_m_6 = grid_m_5 // 128
        grid_n_7 = N + 255
        grid_n_8 = grid_n_7 // 256
        width = grid_n_8 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_9 = grid_m_6 - group_size
        group_size_10 = gl.minimum(group_size_9, 8)
        pid_m = pid % group_size_10
        pid_m_11 = group_size + pid_m
        pid_n = pid % width
        pid_n_12 = pid_n // group_size_10
        rm = pid_m_11 * 128
        rm_13 = gl.arange(0, 128, layout=L0)
        rm_14 = gl.arange(0, 128, layout=L1)
        rm_17 = rm + rm_13
        rm_18 = rm + rm_14
        rn = pid_n_12 * 256
        rn_19 = gl.arange(0, 256, layout=L2)
        rn_20 = gl.arange(0, 256, layout=L3)
        rn_23 = rn + rn_19
        rn_24 = rn + rn_20
        ram_26 = rm_17 % M
        ram_26 = gl.max_contiguous(gl.multiple_of(ram_26, [128]), [128])
        rbn_28 = rn_23 % N
        rbn_28 = gl.max_contiguous(gl.multiple_of(rbn_28, [256]), [256])
        rk = pid_z * 32
        rk_29 = gl.arange(0, 32, layout=L4)
        rk_30 = gl.arange(0, 32, layout=L1)
        rk_33 = rk + rk_29
        rk_34 = rk + rk_30
        A_35 = gl.expand_dims(ram_26, 1)
        A_37 = A_35 * stride_am
        A_38 = gl.expand_dims(rk_33, 0)
        A_39 = A_37.broadcast_to([128, 32])
        A_40 = A_38.broadcast_to([128, 32])
        A_41 = A_39 + A_40
        A_43 = A + A_41
        B_44 = gl.expand_dims(rk_34, 1)
        B_46 = B_44 * stride_bk
        B_47 = gl.expand_dims(rbn_28, 0)
        B_48 = B_46.broadcast_to([32, 256])
        B_49 = B_47.broadcast_to([32, 256])
        B_50 = B_48 + B_49
        B_52 = B + B_50
        twill_n = (K - 0 + 32 - 1) // 32
        acc_99 = gl.full([128, 256], 0.0, gl.float32, layout=L5)
        acc_99_p1 = acc_99
        for twill_b in range(0, twill_n):
            mbarrier.wait(a_92_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
            fence_async_shared()
            mbarrier.wait(b_97_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
            fence_async_shared()
            tok_acc_99 = warpgroup_mma(a_92_buf.index((twill_base + twill_b - 0) % 5), b_97_buf.index((twill_base + twill_b - 0) % 5), acc_99_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_99_p1 = warpgroup_mma_wait(1, deps=(acc_99_p1,))
            mbarrier.arrive(a_92_empty.index((twill_base + twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_97_empty.index((twill_base + twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
            acc_99 = warpgroup_mma_wait(1, deps=(tok_acc_99,))
            acc_99_p1 = acc_99
        acc_99_p1 = warpgroup_mma_wait(0, deps=(acc_99_p1,))
        a_92_buf._keep_alive()
        b_97_buf._keep_alive()
        mbarrier.arrive(a_92_empty.index((twill_base + (twill_n - 1) - 0) % 5), pred=twill_n > 0)
        mbarrier.arrive(b_97_empty.index((twill_base + (twill_n - 1) - 0) % 5), pred=twill_n > 0)
        bias_ptr_56 = bias + rn_24
        b = rn_23 < N
        b_57 = rn_24 < N
        b_58 = gl.load(bias_ptr_56, mask=b_57)
        acc_59 = gl.convert_layout(b_58, L6)
        acc_60 = gl.expand_dims(acc_59, 0)
        acc_61 = gl.convert_layout(acc_60, L7)
        acc_62 = acc_61.to(gl.float32)
        acc_63 = gl.convert_layout(acc_62, L5)
        acc_64 = acc_63.broadcast_to([128, 256])
        acc_65 = acc_99_p1 + acc_64
        acc_66 = acc_65 * 0.5
        acc_67 = acc_65 / 1.41421354
        acc_68 = gl.erf(acc_67)
        acc_69 = acc_68 + 1.0
        acc_70 = acc_66 * acc_69
        acc_71 = acc_70.to(gl.float16)
        C_72 = gl.expand_dims(rm_18, 1)
        C_74 = C_72 * stride_cm
        C_75 = gl.expand_dims(rn_23, 0)
        C_76 = C_74.broadcast_to([128, 256])
        C_77 = C_75.broadcast_to([128, 256])
        C_78 = C_76 + C_77
        C_80 = C + C_78
        mask = rm_18 < M
        mask_81 = gl.expand_dims(mask, 1)
        mask_82 = gl.expand_dims(b, 0)
        mask_83 = mask_81.broadcast_to([128, 256])
        mask_84 = mask_82.broadcast_to([128, 256])
        mask_85 = mask_83 & mask_84
        v0 = gl.convert_layout(acc_71, L8)
        gl.store(C_80, v0, mask=mask_85)
        twill_base += twill_n

@gluon.jit
def producer_1(A, B, C, M, N, K, bias, stride_am, stride_bk, stride_cm, CACHE_M, CACHE_N, CACHE_K, twill_g0, twill_g1, twill_g2, twill_box_a_92, twill_box_b_97, a_92_buf, b_97_buf, a_92_ready, a_92_empty, b_97_ready, b_97_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid = twill_pid0
        pid_z = twill_pid1
        grid_m_5 = M + 127
        grid_m_6 = grid_m_5 // 128
        grid_n_7 = N + 255
        grid_n_8 = grid_n_7 // 256
        width = grid_n_8 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_9 = grid_m_6 - group_size
        group_size_10 = gl.minimum(group_size_9, 8)
        pid_m = pid % group_size_10
        pid_m_11 = group_size + pid_m
        pid_n = pid % width
        pid_n_12 = pid_n // group_size_10
        rm = pid_m_11 * 128
        rm_13 = gl.arange(0, 128, layout=L9)
        rm_17 = rm + rm_13
        rn = pid_n_12 * 256
        rn_19 = gl.arange(0, 256, layout=L10)
        rn_23 = rn + rn_19
        ram_26 = rm_17 % M
        ram_26 = gl.max_contiguous(gl.multiple_of(ram_26, [128]), [128])
        rbn_28 = rn_23 % N
        rbn_28 = gl.max_contiguous(gl.multiple_of(rbn_28, [256]), [256])
        rk = pid_z * 32
        rk_29 = gl.arange(0, 32, layout=L11)
        rk_30 = gl.arange(0, 32, layout=L12)
        rk_33 = rk + rk_29
        rk_34 = rk + rk_30
        A_35 = gl.expand_dims(ram_26, 1)
        A_37 = A_35 * stride_am
        A_38 = gl.expand_dims(rk_33, 0)
        A_39 = A_37.broadcast_to([128, 32])
        A_40 = A_38.broadcast_to([128, 32])
        A_41 = A_39 + A_40
        A_43 = A + A_41
        B_44 = gl.expand_dims(rk_34, 1)
        B_46 = B_44 * stride_bk
        B_47 = gl.expand_dims(rbn_28, 0)
        B_48 = B_46.broadcast_to([32, 256])
        B_49 = B_47.broadcast_to([32, 256])
        B_50 = B_48 + B_49
        B_52 = B + B_50
        B_53 = stride_bk * 32
        A_87 = A_43
        B_88 = B_52
        for acc_86 in range(0, K, 32):
            twill_k = twill_base + (acc_86 - 0) // 32
            a = K - acc_86
            a_90 = A_38 < a
            a_91 = a_90.broadcast_to([128, 32])
            b_95 = B_44 < a
            b_96 = b_95.broadcast_to([32, 256])
            A_100 = A_87 + 32
            B_101 = B_88 + B_53
            mbarrier.wait(a_92_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_92_ready.index(twill_k % 5), twill_box_a_92.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a_92, [((1024 * group_id + 128 * pid_m) % (M)), 32 * pid_z + 32 * ((acc_86 - 0) // 32)], a_92_ready.index(twill_k % 5), a_92_buf.index(twill_k % 5))  # load0_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_92_buf.index(twill_k % 5), A_87, mask=a_91)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_92_ready.index(twill_k % 5), increment_count=False)
                else:
                    a_92_buf.index(twill_k % 5).store(gl.load(A_87, mask=a_91, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_92_ready.index(twill_k % 5), count=128)
            mbarrier.wait(b_97_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(b_97_ready.index(twill_k % 5), twill_box_b_97.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_b_97, [32 * pid_z + 32 * ((acc_86 - 0) // 32), ((256 * pid_n_12) % (N))], b_97_ready.index(twill_k % 5), b_97_buf.index(twill_k % 5))  # load1_b: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(b_97_buf.index(twill_k % 5), B_88, mask=b_96)  # load1_b: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(b_97_ready.index(twill_k % 5), increment_count=False)
                else:
                    b_97_buf.index(twill_k % 5).store(gl.load(B_88, mask=b_96, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(b_97_ready.index(twill_k % 5), count=128)
            A_87 = A_100
            B_88 = B_101
        twill_base += (K - 0 + 32 - 1) // 32

@gluon.jit
def twill_kernel(A, B, C, M, N, K, bias, stride_am, stride_bk, stride_cm, CACHE_M, CACHE_N, CACHE_K, twill_g0, twill_g1, twill_g2, twill_box_a_92, twill_box_b_97, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_92_buf = gl.allocate_shared_memory(gl.float16, [5, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_97_buf = gl.allocate_shared_memory(gl.float16, [5, 32, 256], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_92_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_92_ready.index(i), count=1 if TWILL_TMA else 128)
    a_92_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_92_empty.index(i), count=1)
    b_97_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_97_ready.index(i), count=1 if TWILL_TMA else 128)
    b_97_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_97_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (A, B, C, M, N, K, bias, stride_am, stride_bk, stride_cm, CACHE_M, CACHE_N, CACHE_K, twill_g0, twill_g1, twill_g2, twill_box_a_92, twill_box_b_97, a_92_buf, b_97_buf, a_92_ready, a_92_empty, b_97_ready, b_97_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (A, B, C, M, N, K, bias, stride_am, stride_bk, stride_cm, CACHE_M, CACHE_N, CACHE_K, twill_g0, twill_g1, twill_g2, twill_box_a_92, twill_box_b_97, a_92_buf, b_97_buf, a_92_ready, a_92_empty, b_97_ready, b_97_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [80])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'C', 'M', 'N', 'K', 'bias', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'CACHE_M', 'CACHE_N', 'CACHE_K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M', 'SPLIT_K', 'EVEN_K', 'ACC_TYPE', 'BIAS_ADD', 'ACTIVATION']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'C', 'M', 'N', 'K', 'bias', 'stride_am', 'stride_bk', 'stride_cm', 'CACHE_M', 'CACHE_N', 'CACHE_K', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_a_92', 'twill_box_b_97']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'C', 'M', 'N', 'K', 'bias', 'stride_am', 'stride_bk', 'stride_cm', 'CACHE_M', 'CACHE_N', 'CACHE_K', 'ACC_TYPE', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'BLOCK_M': 128, 'BLOCK_N': 256, 'BLOCK_K': 32, 'GROUP_M': 8, 'SPLIT_K': 1, 'EVEN_K': False, 'BIAS_ADD': 1, 'ACTIVATION': 'gelu'}         # the specialisation this kernel was generated for
HEURISTICS = {'EVEN_K': "lambda args: args['K'] % (args['BLOCK_K'] * args['SPLIT_K']) == 0"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_92': 'NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_b_97': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_92': ('A', ['stride_am', '1'], [None, 'K'], [128, 32], ['(M) % 128 == 0']), 'twill_box_b_97': ('B', ['stride_bk', '1'], ['K', None], [32, 256], ['(N) % 256 == 0'])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 168
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A', 'B', 'K', 'stride_am', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
