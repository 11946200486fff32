"""nf4_gemv_kernel, written by twill from its joint schedule: I=161 L=161 (optimal), 3711 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 171 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[2], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128]], lane_bases=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp_bases=[[0, 2], [0, 4]], block_bases=[], shape=[32, 256])))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1]))
L8 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128]], lane_bases=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp_bases=[[0, 2], [0, 4]], block_bases=[], shape=[32, 256]))
L9 = gl.constexpr(gl.SliceLayout(0, gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128]], lane_bases=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp_bases=[[0, 2], [0, 4]], block_bases=[], shape=[32, 256])))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1, 2], threads_per_warp=[32, 1, 1], warps_per_cta=[1, 4, 1], order=[2, 0, 1]))

@gluon.jit
def consumer_0(x_ptr, w_ptr, absmax_ptr, quant_ptr, y_ptr, N, K, stride_wn):
    pid_n = gl.program_id(0)
    offs_n = pid_n * 32
    offs_n_7 = gl.arange(0, 32, layout=L0)
    offs_n_8 = gl.arange(0, 32, layout=L1)
    offs_n_9 = gl.arange(0, 32, layout=L2)
    offs_n_13 = offs_n + offs_n_7
    offs_n_14 = offs_n + offs_n_8
    offs_n_15 = offs_n + offs_n_9
    mask_n_18 = offs_n_13 < N
    mask_n_19 = offs_n_14 < N
    mask_n_20 = offs_n_15 < N
    offs_kp = gl.arange(0, 128, layout=L3)
    offs_k = gl.arange(0, 256, layout=L4)
    offs_k_21 = gl.arange(0, 256, layout=L5)
    n_elems = N * K
    row_start = offs_n_14.to(gl.int64)
    row_start_22 = gl.cast(K, gl.int64)
    row_start_24 = row_start * row_start_22
    w_ptrs = gl.expand_dims(offs_n_13, 1)
    w_ptrs_25 = w_ptrs.to(gl.int64)
    w_ptrs_26 = gl.cast(stride_wn, gl.int64)
    w_ptrs_28 = w_ptrs_25 * w_ptrs_26
    w_ptrs_30 = w_ptr + w_ptrs_28
    w_ptrs_31 = gl.expand_dims(offs_kp, 0)
    w_ptrs_32 = w_ptrs_30.broadcast_to([32, 128])
    w_ptrs_33 = w_ptrs_31.broadcast_to([32, 128])
    w_ptrs_34 = w_ptrs_32 + w_ptrs_33
    x_ptrs_35 = x_ptr + offs_k_21
    v0 = K + 255
    v1 = v0 // 256
    a = gl.expand_dims(mask_n_18, 1)
    a_36 = gl.expand_dims(mask_n_19, 1)
    a_37 = a.broadcast_to([32, 128])
    offsets = gl.expand_dims(row_start_24, 1)
    offsets_38 = gl.expand_dims(offs_k, 0)
    offsets_39 = offsets_38.to(gl.int64)
    offsets_40 = offsets_39.broadcast_to([32, 256])
    offsets_41 = a_36.broadcast_to([32, 256])
    offsets_42 = gl.cast(n_elems, gl.int64)
    twill_n = (v1 - 0 + 1 - 1) // 1
    acc_85 = gl.full([32], 0.0, gl.float32, layout=L6)
    w_ptrs_86 = w_ptrs_34
    x_ptrs_87 = x_ptrs_35
    acc_85_p1 = acc_85
    w_ptrs_86_p1 = w_ptrs_86
    x_ptrs_87_p1 = x_ptrs_87
    for twill_b in range(0, twill_n):
        k_remaining = (0 + (twill_b - 0) * 1) * 256  # elementwise0_a: stage 0, partition 0 (group 0)
        k_remaining_49 = K - k_remaining  # elementwise0_a: stage 0, partition 0 (group 0)
        mask_kp = k_remaining_49 // 2  # elementwise0_a: stage 0, partition 0 (group 0)
        mask_kp_50 = mask_kp  # elementwise0_a: stage 0, partition 0 (group 0)
        mask_kp_51 = offs_kp < mask_kp_50  # elementwise0_a: stage 0, partition 0 (group 0)
        a_52 = gl.expand_dims(mask_kp_51, 0)  # elementwise0_a: stage 0, partition 0 (group 0)
        a_53 = a_52.broadcast_to([32, 128])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_54 = a_37 & a_53  # elementwise0_a: stage 0, partition 0 (group 0)
        mask_k = k_remaining_49  # elementwise1_offsets: stage 0, partition 0 (group 0)
        mask_k_57 = offs_k < mask_k  # elementwise1_offsets: stage 0, partition 0 (group 0)
        offsets_64 = gl.expand_dims(mask_k_57, 0)  # elementwise1_offsets: stage 0, partition 0 (group 0)
        offsets_65 = offsets_64.broadcast_to([32, 256])  # elementwise1_offsets: stage 0, partition 0 (group 0)
        offsets_66 = offsets_41 & offsets_65  # elementwise1_offsets: stage 0, partition 0 (group 0)
        w_ptrs_86 = w_ptrs_86_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
        a_55 = gl.load(w_ptrs_86_p1, mask=a_54, other=0)  # load0_a: stage 0, partition 0 (group 0)
        higher = gl.cast(gl.cast(a_55, gl.uint8, bitcast=True) >> 4, gl.int8, bitcast=True)  # convert0_mul_high: stage 0, partition 0 (group 0)
        mul_high_71 = gl.convert_layout(higher, L7)  # convert0_mul_high: stage 0, partition 0 (group 0)
        lower = a_55 & 15  # convert1_mul_low: stage 0, partition 0 (group 0)
        mul_low = gl.convert_layout(lower, L7)  # convert1_mul_low: stage 0, partition 0 (group 0)
        offsets_59 = gl.cast(k_remaining, gl.int64)  # load2_absmax: stage 0, partition 0 (group 0)
        offsets_60 = offsets_59  # load2_absmax: stage 0, partition 0 (group 0)
        offsets_61 = offsets + offsets_60  # load2_absmax: stage 0, partition 0 (group 0)
        offsets_62 = offsets_61.broadcast_to([32, 256])  # load2_absmax: stage 0, partition 0 (group 0)
        offsets_63 = offsets_62 + offsets_40  # load2_absmax: stage 0, partition 0 (group 0)
        offsets_67 = gl.where(offsets_66, offsets_63, offsets_42)  # load2_absmax: stage 0, partition 0 (group 0)
        abs_offsets = offsets_67 // 64  # load2_absmax: stage 0, partition 0 (group 0)
        mask = offsets_67 < offsets_42  # load2_absmax: stage 0, partition 0 (group 0)
        absmax_68 = absmax_ptr + abs_offsets  # load2_absmax: stage 0, partition 0 (group 0)
        absmax_69 = gl.load(absmax_68, mask=mask, other=1.0, eviction_policy='evict_last')  # load2_absmax: stage 0, partition 0 (group 0)
        absmax_70 = gl.convert_layout(absmax_69, L8)  # convert2_absmax: stage 0, partition 0 (group 0)
        mask_k_56 = k_remaining_49  # load1_x: stage 0, partition 0 (group 0)
        mask_k_58 = offs_k_21 < mask_k_56  # load1_x: stage 0, partition 0 (group 0)
        x_ptrs_87 = x_ptrs_87_p1 + 256  # load1_x: stage 0, partition 0 (group 0)
        x = gl.load(x_ptrs_87_p1, mask=mask_k_58, other=0.0)  # load1_x: stage 0, partition 0 (group 0)
        x_79 = gl.convert_layout(x, L9)  # convert3_x: stage 0, partition 0 (group 0)
        x_80 = x_79.to(gl.float32)  # convert3_x: stage 0, partition 0 (group 0)
        mul_high_72 = gl.cast(gl.cast(mul_high_71, gl.uint8, bitcast=True).to(gl.uint64), gl.int64, bitcast=True)  # load3_mul_high: stage 0, partition 0 (group 0)
        mul_low_75 = gl.cast(gl.cast(mul_low, gl.uint8, bitcast=True).to(gl.uint64), gl.int64, bitcast=True)  # load4_mul_low: stage 0, partition 0 (group 0)
        mul_high_73 = quant_ptr + mul_high_72  # load3_mul_high: stage 0, partition 0 (group 0)
        mul_low_76 = quant_ptr + mul_low_75  # load4_mul_low: stage 0, partition 0 (group 0)
        mul_high_74 = gl.load(mul_high_73, eviction_policy='evict_last')  # load3_mul_high: stage 0, partition 0 (group 0)
        mul_low_77 = gl.load(mul_low_76, eviction_policy='evict_last')  # load4_mul_low: stage 0, partition 0 (group 0)
        c = gl.convert_layout(gl.join(mul_high_74, mul_low_77), L10)  # elementwise2_out_dq: stage 0, partition 0 (group 0)
        out_dq = gl.convert_layout(gl.reshape(c, [32, 256]), L8)  # elementwise2_out_dq: stage 0, partition 0 (group 0)
        out_dq_78 = out_dq * absmax_70  # elementwise2_out_dq: stage 0, partition 0 (group 0)
        acc_81 = gl.expand_dims(x_80, 0)  # elementwise2_out_dq: stage 0, partition 0 (group 0)
        acc_82 = acc_81.broadcast_to([32, 256])  # elementwise2_out_dq: stage 0, partition 0 (group 0)
        acc_83 = out_dq_78 * acc_82  # elementwise2_out_dq: stage 0, partition 0 (group 0)
        acc_84 = gl.sum(acc_83, axis=1)  # reduce0_acc: stage 0, partition 0 (group 0)
        acc_85 = acc_85_p1 + acc_84  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_85_p1 = acc_85
        w_ptrs_86_p1 = w_ptrs_86
        x_ptrs_87_p1 = x_ptrs_87
    v3 = y_ptr + offs_n_15
    v4 = acc_85_p1.to(gl.float16)
    v5 = gl.convert_layout(v4, L2)
    gl.store(v3, v5, mask=mask_n_20)

@gluon.jit
def twill_kernel(x_ptr, w_ptr, absmax_ptr, quant_ptr, y_ptr, N, K, stride_wn):
    consumer_0(x_ptr, w_ptr, absmax_ptr, quant_ptr, y_ptr, N, K, stride_wn, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'w_ptr', 'absmax_ptr', 'quant_ptr', 'y_ptr', 'N', 'K', 'stride_wn', 'QUANT_BLOCK', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'w_ptr', 'absmax_ptr', 'quant_ptr', 'y_ptr', 'N', 'K', 'stride_wn']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'w_ptr', 'absmax_ptr', 'quant_ptr', 'y_ptr', 'N', 'K', 'stride_wn']   # the arguments a launch key reads
CONSTEXPRS = {'QUANT_BLOCK': 64, 'BLOCK_N': 32, 'BLOCK_K': 256}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
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
