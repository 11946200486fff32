"""persistent_colmax_gemm, written by twill from its joint schedule: I=330 L=297 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- a_72 copied with cp.async at every launch, not by TMA: %offs_am_36: rows past its clamp (tl.where) read row 0, not a box's zeros, and it reaches arith.select
- b_82 copied with cp.async at every launch, not by TMA: %offs_bn_38: rows past its clamp (tl.where) read row 0, not a box's zeros, and it reaches arith.select
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_72, b_82): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 104): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_72: 4 buffers of [128, 64] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring b_82: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 131216 bytes planned of 232448; maxnreg 128
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L5 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, part_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_72_buf, b_82_buf, a_72_ready, a_72_empty, b_82_ready, b_82_empty, TWILL_COPY: gl.constexpr):
    start_pid = gl.program_id(0)
    num_pid_m = M + 127
    num_pid_m_5 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_6 = num_pid_n // 128
    num_tiles = num_pid_m_5 * num_pid_n_6
    colmax_25 = gl.full([128], float("-inf"), gl.float32, layout=L5)
    twill_tile_lb = start_pid
    twill_tile_step = 128
    twill_base = 0
    for colmax_24 in range(twill_tile_lb, num_tiles, twill_tile_step):
        start_pid = gl.program_id(0)
        num_pid_n = N + 127
        num_pid_n_6 = num_pid_n // 128
        k_tiles_7 = K + 63
        k_tiles_8 = k_tiles_7 // 64
        offs_m_10 = gl.arange(0, 128, layout=L0)
        offs_m_12 = gl.arange(0, 128, layout=L1)
        pid_m = colmax_24 // num_pid_n_6
        pid_n = colmax_24 % num_pid_n_6
        offs_m_26 = pid_m * 128
        offs_m_31 = offs_m_26 + offs_m_10
        offs_n = pid_n * 128
        offs_n_34 = offs_n + offs_m_12
        twill_n = (k_tiles_8 - 0 + 1 - 1) // 1
        acc_84 = gl.full([128, 128], 0.0, gl.float32, layout=L2)
        acc_84_p1 = acc_84
        for twill_b in range(0, twill_n):
            mbarrier.wait(a_72_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(b_82_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            fence_async_shared()
            tok_acc_84 = warpgroup_mma(a_72_buf.index((twill_base + twill_b - 0) % 4), b_82_buf.index((twill_base + twill_b - 0) % 4), acc_84_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_84_p1 = warpgroup_mma_wait(1, deps=(acc_84_p1,))
            mbarrier.arrive(a_72_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_82_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_84 = warpgroup_mma_wait(1, deps=(tok_acc_84,))
            acc_84_p1 = acc_84
        acc_84_p1 = warpgroup_mma_wait(0, deps=(acc_84_p1,))
        a_72_buf._keep_alive()
        b_82_buf._keep_alive()
        mbarrier.arrive(a_72_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(b_82_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        row_ok_45 = gl.expand_dims(offs_m_31, 1)
        row_ok_47 = row_ok_45 < M
        colmax_49 = row_ok_47.broadcast_to([128, 128])
        c_ptrs_54 = row_ok_45 * stride_cm
        c_ptrs_55 = c_ptr + c_ptrs_54
        c_ptrs_56 = gl.expand_dims(offs_n_34, 0)
        c_ptrs_57 = c_ptrs_55.broadcast_to([128, 128])
        c_ptrs_58 = c_ptrs_56.broadcast_to([128, 128])
        c_ptrs_59 = c_ptrs_57 + c_ptrs_58
        v8 = c_ptrs_56 < N
        v9 = v8.broadcast_to([128, 128])
        v10 = colmax_49 & v9
        v11 = acc_84_p1.to(gl.float16)
        v12 = gl.convert_layout(v11, L3)
        gl.store(c_ptrs_59, v12, mask=v10)
        offs_m_11 = gl.arange(0, 128, layout=L6)
        offs_m_32 = offs_m_26 + offs_m_11
        row_ok_46 = gl.expand_dims(offs_m_32, 1)
        row_ok_48 = row_ok_46 < M
        colmax_50 = row_ok_48.broadcast_to([128, 128])
        colmax_51 = gl.where(colmax_50, acc_84_p1, float("-inf"))
        colmax_52 = gl.max(colmax_51, axis=0)
        colmax_53 = gl.maximum(colmax_25, colmax_52)
        colmax_25 = colmax_53
        twill_base += twill_n
    start_pid = gl.program_id(0)
    num_pid_n = N + 127
    num_pid_n_6 = num_pid_n // 128
    offs_pn = start_pid % num_pid_n_6
    offs_pn_20 = offs_pn * 128
    offs_pn_21 = gl.arange(0, 128, layout=L4)
    offs_pn_23 = offs_pn_20 + offs_pn_21
    v2 = offs_pn_23 < N
    v3 = start_pid * N
    v4 = part_ptr + v3
    v6 = v4 + offs_pn_23
    v7 = gl.convert_layout(colmax_25, L4)
    gl.store(v6, v7, mask=v2)

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, part_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_72_buf, b_82_buf, a_72_ready, a_72_empty, b_82_ready, b_82_empty, TWILL_COPY: gl.constexpr):
    start_pid = gl.program_id(0)
    num_pid_m = M + 127
    num_pid_m_5 = num_pid_m // 128
    num_pid_n = N + 127
    num_pid_n_6 = num_pid_n // 128
    num_tiles = num_pid_m_5 * num_pid_n_6
    twill_tile_lb = start_pid
    twill_tile_step = 128
    twill_base = 0
    for colmax_24 in range(twill_tile_lb, num_tiles, twill_tile_step):
        num_pid_n = N + 127
        num_pid_n_6 = num_pid_n // 128
        k_tiles_7 = K + 63
        k_tiles_8 = k_tiles_7 // 64
        offs_kk = gl.arange(0, 64, layout=L7)
        offs_kk_9 = gl.arange(0, 64, layout=L0)
        offs_m = gl.arange(0, 128, layout=L8)
        offs_m_12 = gl.arange(0, 128, layout=L1)
        a = gl.expand_dims(offs_kk, 0)
        b = gl.expand_dims(offs_kk_9, 1)
        pid_m = colmax_24 // num_pid_n_6
        pid_n = colmax_24 % num_pid_n_6
        offs_m_26 = pid_m * 128
        offs_m_30 = offs_m_26 + offs_m
        offs_n = pid_n * 128
        offs_n_34 = offs_n + offs_m_12
        offs_am_35 = offs_m_30 < M
        offs_am_36 = gl.where(offs_am_35, offs_m_30, 0)
        offs_am_36 = gl.max_contiguous(gl.multiple_of(offs_am_36, [128]), [128])
        offs_bn_37 = offs_n_34 < N
        offs_bn_38 = gl.where(offs_bn_37, offs_n_34, 0)
        offs_bn_38 = gl.max_contiguous(gl.multiple_of(offs_bn_38, [128]), [128])
        a_39 = gl.expand_dims(offs_am_36, 1)
        a_40 = a_39 * stride_am
        a_41 = a_ptr + a_40
        a_42 = a_41.broadcast_to([128, 64])
        b_43 = gl.expand_dims(offs_bn_38, 0)
        b_44 = b_43.broadcast_to([64, 128])
        for acc_60 in range(0, k_tiles_8, 1):
            twill_k = twill_base + (acc_60 - 0) // 1
            offs_k = acc_60 * 64
            offs_k_63 = offs_k + offs_kk
            offs_k_64 = offs_k + offs_kk_9
            a_65 = K - offs_k
            a_67 = a < a_65
            a_68 = gl.expand_dims(offs_k_63, 0)
            a_69 = a_68.broadcast_to([128, 64])
            a_70 = a_42 + a_69
            a_71 = a_67.broadcast_to([128, 64])
            b_75 = b < a_65
            b_76 = gl.expand_dims(offs_k_64, 1)
            b_77 = b_76 * stride_bk
            b_78 = b_ptr + b_77
            b_79 = b_78.broadcast_to([64, 128])
            b_80 = b_79 + b_44
            b_81 = b_75.broadcast_to([64, 128])
            mbarrier.wait(a_72_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_72_buf.index(twill_k % 4), a_70, mask=a_71)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_72_ready.index(twill_k % 4), increment_count=False)
            else:
                a_72_buf.index(twill_k % 4).store(gl.load(a_70, mask=a_71, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_72_ready.index(twill_k % 4), count=256)
            mbarrier.wait(b_82_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_82_buf.index(twill_k % 4), b_80, mask=b_81)  # load1_b: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_82_ready.index(twill_k % 4), increment_count=False)
            else:
                b_82_buf.index(twill_k % 4).store(gl.load(b_80, mask=b_81, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_82_ready.index(twill_k % 4), count=256)
        twill_trips = (k_tiles_8 - 0 + 1 - 1) // 1
        twill_base += twill_trips

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, part_ptr, M, N, K, stride_am, stride_bk, stride_cm, TWILL_COPY: gl.constexpr):
    a_72_buf = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_82_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_72_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_72_ready.index(i), count=256)
    a_72_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_72_empty.index(i), count=1)
    b_82_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_82_ready.index(i), count=256)
    b_82_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_82_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, part_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_72_buf, b_82_buf, a_72_ready, a_72_empty, b_82_ready, b_82_empty, TWILL_COPY)),
        (producer_1, (a_ptr, b_ptr, c_ptr, part_ptr, M, N, K, stride_am, stride_bk, stride_cm, a_72_buf, b_82_buf, a_72_ready, a_72_empty, b_82_ready, b_82_empty, TWILL_COPY)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'part_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'NUM_SMS']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'part_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'part_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'NUM_SMS': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
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
