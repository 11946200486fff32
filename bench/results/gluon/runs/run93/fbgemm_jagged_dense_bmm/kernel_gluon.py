"""jagged_dense_bmm_kernel, written by twill from its joint schedule: I=282 L=282 (optimal), 2256 cycles per iteration predicted.

Decisions (each from the schedule):
- a_73 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- b_79 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_73, b_79): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (184, 64 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 184): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_73: 2 buffers of [128, 32] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- ring b_79: 2 buffers of [32, 128] f16 (the loads run 1 iteration(s) ahead), read by partition(s) 0
- shared memory: 32848 bytes planned of 232448; maxnreg 128
- early return at fbgemm_jagged_dense_bmm.py:70 (TTGIR line 40): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at fbgemm_jagged_dense_bmm.py:78 (TTGIR line 57): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at fbgemm_jagged_dense_bmm.py:82 (TTGIR line 63): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)

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

@gluon.jit
def consumer_0(a_ptr, a_offset_ptr, b_ptr, c_ptr, N, K, stride_am, stride_bl, stride_bk, stride_cm, max_seq_len, a_73_buf, b_79_buf, a_73_ready, a_73_empty, b_79_ready, b_79_empty, TWILL_COPY: gl.constexpr):
    pid_batch = gl.program_id(0)
    pid = gl.program_id(1)
    begin = a_offset_ptr + pid_batch
    begin_3 = gl.load(begin)
    end = begin + 1
    end_4 = gl.load(end)
    M = end_4 - begin_3
    M_5 = gl.cast(M, gl.int32)
    M_6 = gl.minimum(M_5, max_seq_len)
    num_pid_n = N + 127
    num_pid_n_7 = num_pid_n // 128
    pid_m = pid // num_pid_n_7
    pid_n = pid % num_pid_n_7
    offs_am = pid_m * 128
    offs_am_8 = gl.arange(0, 128, layout=L0)
    offs_am_9 = gl.arange(0, 128, layout=L1)
    offs_am_10 = gl.arange(0, 128, layout=L2)
    offs_am_13 = offs_am + offs_am_8
    offs_am_14 = offs_am + offs_am_9
    offs_bn = pid_n * 128
    offs_bn_16 = offs_bn + offs_am_10
    offs_k = gl.arange(0, 32, layout=L3)
    offs_k_17 = gl.arange(0, 32, layout=L1)
    a_ptrs = gl.cast(stride_am, gl.int64)
    a_ptrs_18 = begin_3 * a_ptrs
    a_ptrs_19 = a_ptr + a_ptrs_18
    a_ptrs_20 = gl.expand_dims(offs_am_13, 1)
    a_ptrs_21 = gl.expand_dims(offs_am_14, 1)
    a_ptrs_23 = a_ptrs_20 * stride_am
    a_ptrs_25 = a_ptrs_19 + a_ptrs_23
    a_ptrs_26 = gl.expand_dims(offs_k, 0)
    a_ptrs_27 = a_ptrs_25.broadcast_to([128, 32])
    a_ptrs_28 = a_ptrs_26.broadcast_to([128, 32])
    a_ptrs_29 = a_ptrs_27 + a_ptrs_28
    b_ptrs = pid_batch * stride_bl
    b_ptrs_30 = b_ptr + b_ptrs
    b_ptrs_31 = gl.expand_dims(offs_k_17, 1)
    b_ptrs_33 = b_ptrs_31 * stride_bk
    b_ptrs_35 = b_ptrs_30 + b_ptrs_33
    b_ptrs_36 = gl.expand_dims(offs_bn_16, 0)
    b_ptrs_37 = b_ptrs_35.broadcast_to([32, 128])
    b_ptrs_38 = b_ptrs_36.broadcast_to([32, 128])
    b_ptrs_39 = b_ptrs_37 + b_ptrs_38
    a_41 = a_ptrs_20 < M_6
    a_42 = a_41.broadcast_to([128, 32])
    b_44 = b_ptrs_36 < N
    b_45 = b_44.broadcast_to([32, 128])
    twill_n = (K - 0 + 32 - 1) // 32
    c_81 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
    c_81_p1 = c_81
    for twill_b in range(0, twill_n):
        updated_offset_66 = (0 + (twill_b - 0) * 32)  # elementwise1_b: stage 0, partition 0 (group 0)
        updated_offset_68 = updated_offset_66 + offs_k_17  # elementwise1_b: stage 0, partition 0 (group 0)
        b_75 = gl.expand_dims(updated_offset_68, 1)  # elementwise1_b: stage 0, partition 0 (group 0)
        b_76 = b_75 < K  # elementwise1_b: stage 0, partition 0 (group 0)
        b_77 = b_76.broadcast_to([32, 128])  # elementwise1_b: stage 0, partition 0 (group 0)
        b_78 = b_77 & b_45  # elementwise1_b: stage 0, partition 0 (group 0)
        updated_offset = (0 + (twill_b - 0) * 32)  # elementwise0_a: stage 0, partition 0 (group 0)
        updated_offset_67 = updated_offset + offs_k  # elementwise0_a: stage 0, partition 0 (group 0)
        a_69 = gl.expand_dims(updated_offset_67, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
        a_70 = a_69 < K  # elementwise0_a: stage 0, partition 0 (group 0)
        a_71 = a_70.broadcast_to([128, 32])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_72 = a_71 & a_42  # elementwise0_a: stage 0, partition 0 (group 0)
        mbarrier.wait(a_73_ready.index((twill_b - 0) % 2), ((twill_b - 0) // 2) & 1)
        fence_async_shared()
        mbarrier.wait(b_79_ready.index((twill_b - 0) % 2), ((twill_b - 0) // 2) & 1)
        fence_async_shared()
        tok_c_81 = warpgroup_mma(a_73_buf.index((twill_b - 0) % 2), b_79_buf.index((twill_b - 0) % 2), c_81_p1, is_async=True)  # dot0_c: stage 0, partition 0 (group 0)
        c_81_p1 = warpgroup_mma_wait(1, deps=(c_81_p1,))
        mbarrier.arrive(a_73_empty.index((twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(b_79_empty.index((twill_b - 1 - 0) % 2), pred=(twill_b - 1 - 0) >= 0)
        c_81 = warpgroup_mma_wait(1, deps=(tok_c_81,))
        c_81_p1 = c_81
    c_81_p1 = warpgroup_mma_wait(0, deps=(c_81_p1,))
    a_73_buf._keep_alive()
    b_79_buf._keep_alive()
    mbarrier.arrive(a_73_empty.index(((twill_n - 1) - 0) % 2), pred=twill_n > 0)
    mbarrier.arrive(b_79_empty.index(((twill_n - 1) - 0) % 2), pred=twill_n > 0)
    c_ptrs = gl.cast(stride_cm, gl.int64)
    c_ptrs_48 = c_ptrs * begin_3
    c_ptrs_49 = c_ptr + c_ptrs_48
    c_ptrs_51 = stride_cm * a_ptrs_21
    c_ptrs_53 = c_ptrs_49 + c_ptrs_51
    c_ptrs_54 = c_ptrs_53.broadcast_to([128, 128])
    c_ptrs_55 = b_ptrs_36.broadcast_to([128, 128])
    c_ptrs_56 = c_ptrs_54 + c_ptrs_55
    c_mask_57 = a_ptrs_21 < M_6
    c_mask_59 = b_ptrs_36 < N
    c_mask_60 = c_mask_57.broadcast_to([128, 128])
    c_mask_61 = c_mask_59.broadcast_to([128, 128])
    c_mask_62 = c_mask_60 & c_mask_61
    v3 = c_81_p1.to(gl.float16)
    v4 = gl.convert_layout(v3, L5)
    gl.store(c_ptrs_56, v4, mask=c_mask_62)

@gluon.jit
def producer_1(a_ptr, a_offset_ptr, b_ptr, c_ptr, N, K, stride_am, stride_bl, stride_bk, stride_cm, max_seq_len, a_73_buf, b_79_buf, a_73_ready, a_73_empty, b_79_ready, b_79_empty, TWILL_COPY: gl.constexpr):
    pid_batch = gl.program_id(0)
    pid = gl.program_id(1)
    begin = a_offset_ptr + pid_batch
    begin_3 = gl.load(begin)
    end = begin + 1
    end_4 = gl.load(end)
    M = end_4 - begin_3
    M_5 = gl.cast(M, gl.int32)
    M_6 = gl.minimum(M_5, max_seq_len)
    num_pid_n = N + 127
    num_pid_n_7 = num_pid_n // 128
    pid_m = pid // num_pid_n_7
    pid_n = pid % num_pid_n_7
    offs_am = pid_m * 128
    offs_am_8 = gl.arange(0, 128, layout=L0)
    offs_am_10 = gl.arange(0, 128, layout=L2)
    offs_am_13 = offs_am + offs_am_8
    offs_bn = pid_n * 128
    offs_bn_16 = offs_bn + offs_am_10
    offs_k = gl.arange(0, 32, layout=L3)
    offs_k_17 = gl.arange(0, 32, layout=L1)
    a_ptrs = gl.cast(stride_am, gl.int64)
    a_ptrs_18 = begin_3 * a_ptrs
    a_ptrs_19 = a_ptr + a_ptrs_18
    a_ptrs_20 = gl.expand_dims(offs_am_13, 1)
    a_ptrs_23 = a_ptrs_20 * stride_am
    a_ptrs_25 = a_ptrs_19 + a_ptrs_23
    a_ptrs_26 = gl.expand_dims(offs_k, 0)
    a_ptrs_27 = a_ptrs_25.broadcast_to([128, 32])
    a_ptrs_28 = a_ptrs_26.broadcast_to([128, 32])
    a_ptrs_29 = a_ptrs_27 + a_ptrs_28
    b_ptrs = pid_batch * stride_bl
    b_ptrs_30 = b_ptr + b_ptrs
    b_ptrs_31 = gl.expand_dims(offs_k_17, 1)
    b_ptrs_33 = b_ptrs_31 * stride_bk
    b_ptrs_35 = b_ptrs_30 + b_ptrs_33
    b_ptrs_36 = gl.expand_dims(offs_bn_16, 0)
    b_ptrs_37 = b_ptrs_35.broadcast_to([32, 128])
    b_ptrs_38 = b_ptrs_36.broadcast_to([32, 128])
    b_ptrs_39 = b_ptrs_37 + b_ptrs_38
    a_41 = a_ptrs_20 < M_6
    a_42 = a_41.broadcast_to([128, 32])
    b_44 = b_ptrs_36 < N
    b_45 = b_44.broadcast_to([32, 128])
    b_ptrs_46 = stride_bk * 32
    a_ptrs_64 = a_ptrs_29
    b_ptrs_65 = b_ptrs_39
    for c_63 in range(0, K, 32):
        twill_k = (c_63 - 0) // 32
        updated_offset_67 = c_63 + offs_k
        updated_offset_68 = c_63 + offs_k_17
        a_69 = gl.expand_dims(updated_offset_67, 0)
        a_70 = a_69 < K
        a_71 = a_70.broadcast_to([128, 32])
        a_72 = a_71 & a_42
        b_75 = gl.expand_dims(updated_offset_68, 1)
        b_76 = b_75 < K
        b_77 = b_76.broadcast_to([32, 128])
        b_78 = b_77 & b_45
        a_ptrs_82 = a_ptrs_64 + 32
        b_ptrs_83 = b_ptrs_65 + b_ptrs_46
        mbarrier.wait(b_79_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_79_buf.index(twill_k % 2), b_ptrs_65, mask=b_78)  # load1_b: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_79_ready.index(twill_k % 2), increment_count=False)
        else:
            b_79_buf.index(twill_k % 2).store(gl.load(b_ptrs_65, mask=b_78, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_79_ready.index(twill_k % 2), count=128)
        mbarrier.wait(a_73_empty.index(twill_k % 2), ((twill_k // 2) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_73_buf.index(twill_k % 2), a_ptrs_64, mask=a_72)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_73_ready.index(twill_k % 2), increment_count=False)
        else:
            a_73_buf.index(twill_k % 2).store(gl.load(a_ptrs_64, mask=a_72, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_73_ready.index(twill_k % 2), count=128)
        a_ptrs_64 = a_ptrs_82
        b_ptrs_65 = b_ptrs_83

@gluon.jit
def twill_kernel(a_ptr, a_offset_ptr, b_ptr, c_ptr, N, K, stride_am, stride_bl, stride_bk, stride_cm, max_seq_len, TWILL_COPY: gl.constexpr):
    pid_batch = gl.program_id(0)
    begin = a_offset_ptr + pid_batch
    begin_3 = gl.load(begin)
    end = begin + 1
    end_4 = gl.load(end)
    M = end_4 - begin_3
    M_5 = gl.cast(M, gl.int32)
    M_6 = gl.minimum(M_5, max_seq_len)
    v0 = M_6 == 0
    if v0:
        return
    pid_batch = gl.program_id(0)
    pid = gl.program_id(1)
    begin = a_offset_ptr + pid_batch
    begin_3 = gl.load(begin)
    end = begin + 1
    end_4 = gl.load(end)
    M = end_4 - begin_3
    M_5 = gl.cast(M, gl.int32)
    M_6 = gl.minimum(M_5, max_seq_len)
    num_pid_n = N + 127
    num_pid_n_7 = num_pid_n // 128
    pid_m = pid // num_pid_n_7
    offs_am = pid_m * 128
    v1 = offs_am >= M_6
    if v1:
        return
    pid = gl.program_id(1)
    num_pid_n = N + 127
    num_pid_n_7 = num_pid_n // 128
    pid_n = pid % num_pid_n_7
    offs_bn = pid_n * 128
    v2 = offs_bn >= N
    if v2:
        return
    a_73_buf = gl.allocate_shared_memory(gl.float16, [2, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_79_buf = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_73_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_73_ready.index(i), count=128)
    a_73_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(a_73_empty.index(i), count=1)
    b_79_ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_79_ready.index(i), count=128)
    b_79_empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(b_79_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, a_offset_ptr, b_ptr, c_ptr, N, K, stride_am, stride_bl, stride_bk, stride_cm, max_seq_len, a_73_buf, b_79_buf, a_73_ready, a_73_empty, b_79_ready, b_79_empty, TWILL_COPY)),
        (producer_1, (a_ptr, a_offset_ptr, b_ptr, c_ptr, N, K, stride_am, stride_bl, stride_bk, stride_cm, max_seq_len, a_73_buf, b_79_buf, a_73_ready, a_73_empty, b_79_ready, b_79_empty, TWILL_COPY)),
    ], [4], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'a_offset_ptr', 'b_ptr', 'c_ptr', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bl', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'max_seq_len', 'allow_tf32', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'a_offset_ptr', 'b_ptr', 'c_ptr', 'N', 'K', 'stride_am', 'stride_bl', 'stride_bk', 'stride_cm', 'max_seq_len']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'a_offset_ptr', 'b_ptr', 'c_ptr', 'N', 'K', 'stride_am', 'stride_bl', 'stride_bk', 'stride_cm', 'max_seq_len']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'allow_tf32': False, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'a_offset_ptr', 'b_ptr', 'N', 'K', 'stride_am', 'stride_bl', 'stride_bk', 'max_seq_len']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
