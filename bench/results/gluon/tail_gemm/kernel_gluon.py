"""tail_gemm, written by twill from its joint schedule: I=330 L=297 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a, b): their addresses and masks spread over 128 threads
- rings sized for the II, not the shorter iteration their copies allow, so two CTAs fit an SM (run 177: tail_gemm's rings one deeper, one CTA an SM, x0.94)
- two CTAs per SM: the partitions' live tiles fit half the register file (168, 88 needed per thread with the 40 the model adds for addresses and indices; consumer 0 is given 160, the allowance left to ptxas), so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- a copied with cp.async at every launch, not by TMA: a later loop streams through its ring tiles that are not TMA boxes
- b copied with cp.async at every launch, not by TMA: a later loop streams through its ring tiles that are not TMA boxes
- partition 0 (default): consumer, warp group 0, 4 warps, 160 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring a: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring b: 3 buffers of [64, 128] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 98416 bytes planned of 232448; maxnreg 128
- loop at tail_loop_gemm.py:46 (TTGIR line 110) (after the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=330, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_m = pid_m * 128
    offs_m_3 = gl.arange(0, 128, layout=L0)
    offs_m_4 = gl.arange(0, 128, layout=L1)
    offs_m_5 = gl.arange(0, 128, layout=L2)
    offs_m_6 = gl.arange(0, 128, layout=L3)
    offs_m_7 = gl.arange(0, 128, layout=L4)
    offs_m_11 = offs_m + offs_m_3
    offs_m_12 = offs_m + offs_m_4
    offs_m_13 = offs_m + offs_m_5
    offs_n = pid_n * 128
    offs_n_16 = offs_n + offs_m_6
    offs_n_17 = offs_n + offs_m_7
    a_ptrs = gl.expand_dims(offs_m_11, 1)
    a_ptrs_18 = gl.expand_dims(offs_m_12, 1)
    a_ptrs_19 = gl.expand_dims(offs_m_13, 1)
    a_ptrs_22 = a_ptrs * stride_am
    a_ptrs_23 = a_ptrs_18 * stride_am
    a_ptrs_26 = a_ptr + a_ptrs_22
    a_ptrs_27 = a_ptr + a_ptrs_23
    a_ptrs_28 = gl.arange(0, 64, layout=L5)
    a_ptrs_29 = gl.arange(0, 64, layout=L6)
    a_ptrs_30 = gl.expand_dims(a_ptrs_28, 0)
    a_ptrs_31 = gl.expand_dims(a_ptrs_29, 0)
    a_ptrs_32 = a_ptrs_26.broadcast_to([128, 64])
    a_ptrs_33 = a_ptrs_27.broadcast_to([128, 64])
    a_ptrs_34 = a_ptrs_30.broadcast_to([128, 64])
    a_ptrs_35 = a_ptrs_31.broadcast_to([128, 64])
    a_ptrs_36 = a_ptrs_32 + a_ptrs_34
    a_ptrs_37 = a_ptrs_33 + a_ptrs_35
    b_ptrs = gl.arange(0, 64, layout=L2)
    b_ptrs_38 = gl.arange(0, 64, layout=L7)
    b_ptrs_39 = gl.expand_dims(b_ptrs, 1)
    b_ptrs_40 = gl.expand_dims(b_ptrs_38, 1)
    b_ptrs_43 = b_ptrs_39 * stride_bk
    b_ptrs_44 = b_ptrs_40 * stride_bk
    b_ptrs_47 = b_ptr + b_ptrs_43
    b_ptrs_48 = b_ptr + b_ptrs_44
    b_ptrs_49 = gl.expand_dims(offs_n_16, 0)
    b_ptrs_50 = gl.expand_dims(offs_n_17, 0)
    b_ptrs_51 = b_ptrs_47.broadcast_to([64, 128])
    b_ptrs_52 = b_ptrs_48.broadcast_to([64, 128])
    b_ptrs_53 = b_ptrs_49.broadcast_to([64, 128])
    b_ptrs_54 = b_ptrs_50.broadcast_to([64, 128])
    b_ptrs_55 = b_ptrs_51 + b_ptrs_53
    b_ptrs_56 = b_ptrs_52 + b_ptrs_54
    whole = K // 64
    b_ptrs_57 = stride_bk * 64
    twill_n = (whole - 0 + 1 - 1) // 1
    acc_78 = gl.full([128, 128], 0.0, gl.float32, layout=L8)
    acc_78_p1 = acc_78
    for twill_b in range(0, twill_n):
        mbarrier.wait(a_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(b_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_78 = warpgroup_mma(a_buf.index((twill_base + twill_b - 0) % 3), b_buf.index((twill_base + twill_b - 0) % 3), acc_78_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_78_p1 = warpgroup_mma_wait(1, deps=(acc_78_p1,))
        mbarrier.arrive(a_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(b_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_78 = warpgroup_mma_wait(1, deps=(tok_acc_78,))
        acc_78_p1 = acc_78
    acc_78_p1 = warpgroup_mma_wait(0, deps=(acc_78_p1,))
    a_buf._keep_alive()
    b_buf._keep_alive()
    mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(b_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    twill_base += twill_n
    v0 = K + 63
    v1 = v0 // 64
    twill_n = gl.maximum((v1 - whole + 1 - 1) // 1, 0)
    acc_86 = acc_78_p1
    acc_86_p1 = acc_86
    for twill_b in range(0, twill_n):
        mbarrier.wait(a_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(b_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_86 = warpgroup_mma(a_buf.index((twill_base + twill_b - 0) % 3), b_buf.index((twill_base + twill_b - 0) % 3), acc_86_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_86_p1 = warpgroup_mma_wait(1, deps=(acc_86_p1,))
        mbarrier.arrive(a_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(b_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_86 = warpgroup_mma_wait(1, deps=(tok_acc_86,))
        acc_86_p1 = acc_86
    acc_86_p1 = warpgroup_mma_wait(0, deps=(acc_86_p1,))
    a_buf._keep_alive()
    b_buf._keep_alive()
    mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(b_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
    c_ptrs_64 = a_ptrs_19 * stride_cm
    c_ptrs_66 = c_ptr + c_ptrs_64
    c_ptrs_67 = c_ptrs_66.broadcast_to([128, 128])
    c_ptrs_68 = b_ptrs_49.broadcast_to([128, 128])
    c_ptrs_69 = c_ptrs_67 + c_ptrs_68
    v3 = a_ptrs_19 < M
    v5 = b_ptrs_49 < N
    v6 = v3.broadcast_to([128, 128])
    v7 = v5.broadcast_to([128, 128])
    v8 = v6 & v7
    v9 = acc_86_p1.to(gl.float16)
    v10 = gl.convert_layout(v9, L9)
    gl.store(c_ptrs_69, v10, mask=v8)

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_m = pid_m * 128
    offs_m_3 = gl.arange(0, 128, layout=L0)
    offs_m_4 = gl.arange(0, 128, layout=L0)
    offs_m_6 = gl.arange(0, 128, layout=L3)
    offs_m_7 = gl.arange(0, 128, layout=L3)
    offs_m_11 = offs_m + offs_m_3
    offs_m_12 = offs_m + offs_m_4
    offs_n = pid_n * 128
    offs_n_16 = offs_n + offs_m_6
    offs_n_17 = offs_n + offs_m_7
    a_ptrs = gl.expand_dims(offs_m_11, 1)
    a_ptrs_18 = gl.expand_dims(offs_m_12, 1)
    a_ptrs_22 = a_ptrs * stride_am
    a_ptrs_23 = a_ptrs_18 * stride_am
    a_ptrs_26 = a_ptr + a_ptrs_22
    a_ptrs_27 = a_ptr + a_ptrs_23
    a_ptrs_28 = gl.arange(0, 64, layout=L5)
    a_ptrs_29 = gl.arange(0, 64, layout=L5)
    a_ptrs_30 = gl.expand_dims(a_ptrs_28, 0)
    a_ptrs_31 = gl.expand_dims(a_ptrs_29, 0)
    a_ptrs_32 = a_ptrs_26.broadcast_to([128, 64])
    a_ptrs_33 = a_ptrs_27.broadcast_to([128, 64])
    a_ptrs_34 = a_ptrs_30.broadcast_to([128, 64])
    a_ptrs_35 = a_ptrs_31.broadcast_to([128, 64])
    a_ptrs_36 = a_ptrs_32 + a_ptrs_34
    a_ptrs_37 = a_ptrs_33 + a_ptrs_35
    b_ptrs = gl.arange(0, 64, layout=L2)
    b_ptrs_38 = gl.arange(0, 64, layout=L2)
    b_ptrs_39 = gl.expand_dims(b_ptrs, 1)
    b_ptrs_40 = gl.expand_dims(b_ptrs_38, 1)
    b_ptrs_43 = b_ptrs_39 * stride_bk
    b_ptrs_44 = b_ptrs_40 * stride_bk
    b_ptrs_47 = b_ptr + b_ptrs_43
    b_ptrs_48 = b_ptr + b_ptrs_44
    b_ptrs_49 = gl.expand_dims(offs_n_16, 0)
    b_ptrs_50 = gl.expand_dims(offs_n_17, 0)
    b_ptrs_51 = b_ptrs_47.broadcast_to([64, 128])
    b_ptrs_52 = b_ptrs_48.broadcast_to([64, 128])
    b_ptrs_53 = b_ptrs_49.broadcast_to([64, 128])
    b_ptrs_54 = b_ptrs_50.broadcast_to([64, 128])
    b_ptrs_55 = b_ptrs_51 + b_ptrs_53
    b_ptrs_56 = b_ptrs_52 + b_ptrs_54
    whole = K // 64
    b_ptrs_57 = stride_bk * 64
    a_ptrs_71 = a_ptrs_37
    a_ptrs_74 = a_ptrs_36
    b_ptrs_72 = b_ptrs_56
    b_ptrs_75 = b_ptrs_55
    for acc_70 in range(0, whole, 1):
        twill_k = twill_base + (acc_70 - 0) // 1
        a_ptrs_79 = a_ptrs_74 + 64
        a_ptrs_80 = a_ptrs_71 + 64
        b_ptrs_81 = b_ptrs_75 + b_ptrs_57
        b_ptrs_82 = b_ptrs_72 + b_ptrs_57
        mbarrier.wait(a_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 3), a_ptrs_74)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_ready.index(twill_k % 3), increment_count=False)
        else:
            a_buf.index(twill_k % 3).store(gl.load(a_ptrs_74))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_ready.index(twill_k % 3), count=128)
        mbarrier.wait(b_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 3), b_ptrs_75)  # load1_b: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_ready.index(twill_k % 3), increment_count=False)
        else:
            b_buf.index(twill_k % 3).store(gl.load(b_ptrs_75))  # load1_b: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_ready.index(twill_k % 3), count=128)
        a_ptrs_71 = a_ptrs_80
        a_ptrs_74 = a_ptrs_79
        b_ptrs_72 = b_ptrs_82
        b_ptrs_75 = b_ptrs_81
    v0 = K + 63
    v1 = v0 // 64
    b_ptrs_61 = stride_bk * 64
    twill_base += (whole - 0 + 1 - 1) // 1
    acc_71 = a_ptrs_71
    acc_72 = b_ptrs_72
    for acc_70_l1 in range(whole, v1, 1):
        twill_k = twill_base + (acc_70_l1 - whole) // 1
        a_l1 = acc_70_l1 * 64
        a_74 = K - a_l1
        a_76_l1 = a_ptrs_30 < a_74
        a_77 = a_76_l1.broadcast_to([128, 64])
        a_78 = gl.convert_layout(acc_71, L10)
        b_81 = b_ptrs_39 < a_74
        b_82 = b_81.broadcast_to([64, 128])
        b_83 = gl.convert_layout(acc_72, L9)
        a_ptrs_87 = acc_71 + 64
        b_ptrs_88 = acc_72 + b_ptrs_61
        mbarrier.wait(a_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 3), a_78, mask=a_77)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_ready.index(twill_k % 3), increment_count=False)
        else:
            a_buf.index(twill_k % 3).store(gl.load(a_78, mask=a_77, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_ready.index(twill_k % 3), count=128)
        mbarrier.wait(b_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 3), b_83, mask=b_82)  # load1_b: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_ready.index(twill_k % 3), increment_count=False)
        else:
            b_buf.index(twill_k % 3).store(gl.load(b_83, mask=b_82, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_ready.index(twill_k % 3), count=128)
        acc_71 = a_ptrs_87
        acc_72 = b_ptrs_88

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, TWILL_COPY: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_ready.index(i), count=128)
    a_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_ready.index(i), count=128)
    b_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY)),
        (producer_1, (a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY)),
    ], [4], [88])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'K', 'stride_am', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
