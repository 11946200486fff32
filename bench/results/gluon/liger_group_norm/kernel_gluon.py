"""_group_norm_forward, written by twill from its joint schedule: I=163 L=163 (optimal), 3480 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 104 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)
- loop at liger_group_norm.py:66 (TTGIR line 49) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=266, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.extra import libdevice

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(Y_ptr, Y_row_stride, Y_col_stride, X_ptr, X_row_stride, X_col_stride, Mean_ptr, Mean_row_stride, Mean_col_stride, RSTD_ptr, RSTD_row_stride, RSTD_col_stride, W_ptr, B_ptr, hidden_size, channels_per_group, eps):
    twill_base = 0
    batch_idx = gl.program_id(0)
    group_idx = gl.program_id(1)
    X_ptr_1 = batch_idx * X_row_stride
    X_ptr_2 = group_idx * X_col_stride
    X_ptr_3 = X_ptr_1 + X_ptr_2
    X_ptr_4 = X_ptr + X_ptr_3
    block_range = gl.arange(0, 8192, layout=L0)
    block_range_9 = gl.arange(0, 8192, layout=L1)
    twill_n = (hidden_size - 0 + 8192 - 1) // 8192
    s_25 = 0.0
    squared_sum_29 = 0.0
    hidden_size_offsets_19 = (0 + (0 - 0) * 8192) + block_range  # load0_X: stage 0, partition 0 (group 0)
    mask_20 = hidden_size_offsets_19 < hidden_size  # load0_X: stage 0, partition 0 (group 0)
    X_21 = X_ptr_4 + hidden_size_offsets_19  # load0_X: stage 0, partition 0 (group 0)
    X_22_l0 = gl.load(X_21, mask=mask_20, other=0.0)  # load0_X: stage 0, partition 0 (group 0)
    X_22_l0_p1 = X_22_l0
    s_25_p1 = s_25
    squared_sum_29_p1 = squared_sum_29
    for twill_b in range(1, twill_n):
        hidden_size_offsets_l0 = (0 + (twill_b - 0) * 8192)  # load0_X: stage 0, partition 0 (group 0)
        hidden_size_offsets_19 = hidden_size_offsets_l0 + block_range  # load0_X: stage 0, partition 0 (group 0)
        mask_20 = hidden_size_offsets_19 < hidden_size  # load0_X: stage 0, partition 0 (group 0)
        X_21 = X_ptr_4 + hidden_size_offsets_19  # load0_X: stage 0, partition 0 (group 0)
        X_22_l0 = gl.load(X_21, mask=mask_20, other=0.0)  # load0_X: stage 0, partition 0 (group 0)
        squared_sum_26 = X_22_l0_p1 * X_22_l0_p1  # elementwise1_squared_sum: stage 1, partition 0 (group 0)
        s_23 = X_22_l0_p1  # reduce0_s: stage 1, partition 0 (group 0)
        s_24 = gl.sum(s_23, axis=0)  # reduce0_s: stage 1, partition 0 (group 0)
        squared_sum_27 = squared_sum_26  # reduce1_squared_sum: stage 1, partition 0 (group 0)
        squared_sum_28 = gl.sum(squared_sum_27, axis=0)  # reduce1_squared_sum: stage 1, partition 0 (group 0)
        s_25 = s_25_p1 + s_24  # elementwise0_s: stage 1, partition 0 (group 0)
        squared_sum_29 = squared_sum_29_p1 + squared_sum_28  # elementwise2_squared_sum: stage 1, partition 0 (group 0)
        X_22_l0_p1 = X_22_l0
        s_25_p1 = s_25
        squared_sum_29_p1 = squared_sum_29
    squared_sum_26 = X_22_l0_p1 * X_22_l0_p1  # elementwise1_squared_sum: stage 1, partition 0 (group 0)
    s_23 = X_22_l0_p1  # reduce0_s: stage 1, partition 0 (group 0)
    s_24 = gl.sum(s_23, axis=0)  # reduce0_s: stage 1, partition 0 (group 0)
    squared_sum_27 = squared_sum_26  # reduce1_squared_sum: stage 1, partition 0 (group 0)
    squared_sum_28 = gl.sum(squared_sum_27, axis=0)  # reduce1_squared_sum: stage 1, partition 0 (group 0)
    s_25 = s_25_p1 + s_24  # elementwise0_s: stage 1, partition 0 (group 0)
    squared_sum_29 = squared_sum_29_p1 + squared_sum_28  # elementwise2_squared_sum: stage 1, partition 0 (group 0)
    X_22_l0_p1 = X_22_l0
    s_25_p1 = s_25
    squared_sum_29_p1 = squared_sum_29
    twill_base += twill_n
    m = gl.cast(hidden_size, gl.float32)
    m_10 = s_25_p1 / m
    variance = squared_sum_29_p1 / m
    variance_11 = m_10 * m_10
    variance_12 = variance - variance_11
    rstd = variance_12 + eps
    rstd_13 = libdevice.rsqrt(rstd)
    hidden_size_per_channel = hidden_size // channels_per_group
    Y_ptr_5 = batch_idx * Y_row_stride
    Y_ptr_6 = group_idx * Y_col_stride
    Y_ptr_7 = Y_ptr_5 + Y_ptr_6
    Y_ptr_8 = Y_ptr + Y_ptr_7
    v0 = group_idx * channels_per_group
    v1 = group_idx + 1
    v2 = v1 * channels_per_group
    Y_ptr_18 = Y_ptr_8
    X_ptr_19 = X_ptr_4
    twill_tile_lb = v0
    twill_tile_step = 1
    for i_17 in range(twill_tile_lb, v2, twill_tile_step):
        W = W_ptr + i_17
        W_20 = gl.load(W)
        B = B_ptr + i_17
        B_21 = gl.load(B)
        twill_n = (hidden_size_per_channel - 0 + 8192 - 1) // 8192
        for twill_b in range(0, twill_n):
            hidden_size_offsets = (0 + (twill_b - 0) * 8192)  # load0_X: stage 0, partition 0 (group 0)
            hidden_size_offsets_29 = hidden_size_offsets + block_range  # load0_X: stage 0, partition 0 (group 0)
            mask_31 = hidden_size_offsets_29 < hidden_size_per_channel  # load0_X: stage 0, partition 0 (group 0)
            X_33 = X_ptr_19 + hidden_size_offsets_29  # load0_X: stage 0, partition 0 (group 0)
            gl.thread_barrier()
            X_34 = gl.load(X_33, mask=mask_31, other=m_10)  # load0_X: stage 0, partition 0 (group 0)
            Y_35 = X_34 - m_10  # elementwise0_Y: stage 0, partition 0 (group 0)
            Y_36 = Y_35 * rstd_13  # elementwise0_Y: stage 0, partition 0 (group 0)
            Y_37 = Y_36 * W_20  # elementwise0_Y: stage 0, partition 0 (group 0)
            Y_38 = Y_37 + B_21  # elementwise0_Y: stage 0, partition 0 (group 0)
            v13 = gl.convert_layout(Y_38, L1)  # convert0: stage 0, partition 0 (group 0)
            hidden_size_offsets_28 = (0 + (twill_b - 0) * 8192)  # store0: stage 0, partition 0 (group 0)
            hidden_size_offsets_30 = hidden_size_offsets_28 + block_range_9  # store0: stage 0, partition 0 (group 0)
            mask_32 = hidden_size_offsets_30 < hidden_size_per_channel  # store0: stage 0, partition 0 (group 0)
            v12 = Y_ptr_18 + hidden_size_offsets_30  # store0: stage 0, partition 0 (group 0)
            gl.store(v12, v13, mask=mask_32)  # store0: stage 0, partition 0 (group 0)
        X_ptr_25 = X_ptr_19 + hidden_size_per_channel
        Y_ptr_26 = Y_ptr_18 + hidden_size_per_channel
        Y_ptr_18 = Y_ptr_26
        X_ptr_19 = X_ptr_25
        twill_base += twill_n
    v3 = batch_idx * Mean_row_stride
    v4 = Mean_ptr + v3
    v5 = group_idx * Mean_col_stride
    v6 = v4 + v5
    gl.store(v6, m_10)
    v7 = batch_idx * RSTD_row_stride
    v8 = RSTD_ptr + v7
    v9 = group_idx * RSTD_col_stride
    v10 = v8 + v9
    gl.store(v10, rstd_13)

@gluon.jit
def twill_kernel(Y_ptr, Y_row_stride, Y_col_stride, X_ptr, X_row_stride, X_col_stride, Mean_ptr, Mean_row_stride, Mean_col_stride, RSTD_ptr, RSTD_row_stride, RSTD_col_stride, W_ptr, B_ptr, hidden_size, channels_per_group, eps):
    consumer_0(Y_ptr, Y_row_stride, Y_col_stride, X_ptr, X_row_stride, X_col_stride, Mean_ptr, Mean_row_stride, Mean_col_stride, RSTD_ptr, RSTD_row_stride, RSTD_col_stride, W_ptr, B_ptr, hidden_size, channels_per_group, eps, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Y_ptr', 'Y_row_stride', 'Y_col_stride', 'X_ptr', 'X_row_stride', 'X_col_stride', 'Mean_ptr', 'Mean_row_stride', 'Mean_col_stride', 'RSTD_ptr', 'RSTD_row_stride', 'RSTD_col_stride', 'W_ptr', 'B_ptr', 'hidden_size', 'channels_per_group', 'eps', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['Y_ptr', 'Y_row_stride', 'Y_col_stride', 'X_ptr', 'X_row_stride', 'X_col_stride', 'Mean_ptr', 'Mean_row_stride', 'Mean_col_stride', 'RSTD_ptr', 'RSTD_row_stride', 'RSTD_col_stride', 'W_ptr', 'B_ptr', 'hidden_size', 'channels_per_group', 'eps']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Y_ptr', 'Y_row_stride', 'Y_col_stride', 'X_ptr', 'X_row_stride', 'X_col_stride', 'Mean_ptr', 'Mean_row_stride', 'Mean_col_stride', 'RSTD_ptr', 'RSTD_row_stride', 'RSTD_col_stride', 'W_ptr', 'B_ptr', 'hidden_size', 'channels_per_group', 'eps']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_SIZE': 8192}         # the specialisation this kernel was generated for
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
    trips = _ev('(hidden_size + 8192 - 1) // 8192', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((hidden_size + 8192 - 1) // 8192): run the Triton kernel for it")
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
