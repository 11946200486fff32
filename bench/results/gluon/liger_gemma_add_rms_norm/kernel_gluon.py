"""_fused_add_rms_norm_forward_kernel, written by twill from its joint schedule: I=506 L=506 (optimal), 680 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 176).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 50 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at liger_gemma_add_rms_norm.py:112 (TTGIR line 82) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=397, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0(Y_ptr, Y_row_stride, S_ptr, S_row_stride, X_ptr, X_row_stride, R_ptr, R_row_stride, W_ptr, W_row_stride, RSTD_ptr, RSTD_row_stride, n_cols, eps, offset):
    twill_base = 0
    row_idx = gl.program_id(0)
    row_idx_0 = gl.cast(row_idx, gl.int64)
    col_offsets = gl.arange(0, 1024, layout=L0)
    y_base = gl.cast(Y_row_stride, gl.int64)
    y_base_1 = row_idx_0 * y_base
    y_base_2 = Y_ptr + y_base_1
    s_base = gl.cast(S_row_stride, gl.int64)
    s_base_3 = row_idx_0 * s_base
    s_base_4 = S_ptr + s_base_3
    x_base = gl.cast(X_row_stride, gl.int64)
    x_base_5 = row_idx_0 * x_base
    x_base_6 = X_ptr + x_base_5
    r_base = gl.cast(R_row_stride, gl.int64)
    r_base_7 = row_idx_0 * r_base
    r_base_8 = R_ptr + r_base_7
    rstd_base = gl.cast(RSTD_row_stride, gl.int64)
    rstd_base_9 = row_idx_0 * rstd_base
    rstd_base_10 = RSTD_ptr + rstd_base_9
    twill_n = (n_cols - 0 + 1024 - 1) // 1024
    _sum_sq_28 = gl.full([1024], 0.0, gl.float32, layout=L0)
    cols_19 = (0 + (0 - 0) * 1024) + col_offsets  # load0_X_row: stage 0, partition 0 (group 0)
    mask_20 = cols_19 < n_cols  # load0_X_row: stage 0, partition 0 (group 0)
    X_row_21 = x_base_6 + cols_19  # load0_X_row: stage 0, partition 0 (group 0)
    R_row_23 = r_base_8 + cols_19  # load1_R_row: stage 0, partition 0 (group 0)
    X_row_22 = gl.load(X_row_21, mask=mask_20, other=0.0)  # load0_X_row: stage 0, partition 0 (group 0)
    R_row_24 = gl.load(R_row_23, mask=mask_20, other=0.0)  # load1_R_row: stage 0, partition 0 (group 0)
    R_row_24_p1 = R_row_24
    X_row_22_p1 = X_row_22
    _sum_sq_28_p1 = _sum_sq_28
    cols_19_p1 = cols_19
    mask_20_p1 = mask_20
    for twill_b in range(1, twill_n):
        cols = (0 + (twill_b - 0) * 1024)  # load0_X_row: stage 0, partition 0 (group 0)
        cols_19 = cols + col_offsets  # load0_X_row: stage 0, partition 0 (group 0)
        mask_20 = cols_19 < n_cols  # load0_X_row: stage 0, partition 0 (group 0)
        X_row_21 = x_base_6 + cols_19  # load0_X_row: stage 0, partition 0 (group 0)
        R_row_23 = r_base_8 + cols_19  # load1_R_row: stage 0, partition 0 (group 0)
        X_row_22 = gl.load(X_row_21, mask=mask_20, other=0.0)  # load0_X_row: stage 0, partition 0 (group 0)
        R_row_24 = gl.load(R_row_23, mask=mask_20, other=0.0)  # load1_R_row: stage 0, partition 0 (group 0)
        S_row_25 = X_row_22_p1 + R_row_24_p1  # elementwise0_S_row: stage 1, partition 0 (group 0)
        S_row_26 = S_row_25.to(gl.float32)  # convert0_S_row: stage 1, partition 0 (group 0)
        v2 = s_base_4 + cols_19_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v2, S_row_25, mask=mask_20_p1)  # store0: stage 1, partition 0 (group 0)
        _sum_sq_27 = S_row_26 * S_row_26  # elementwise1__sum_sq: stage 1, partition 0 (group 0)
        _sum_sq_28 = _sum_sq_28_p1 + _sum_sq_27  # elementwise1__sum_sq: stage 1, partition 0 (group 0)
        R_row_24_p1 = R_row_24
        X_row_22_p1 = X_row_22
        _sum_sq_28_p1 = _sum_sq_28
        cols_19_p1 = cols_19
        mask_20_p1 = mask_20
    S_row_25 = X_row_22_p1 + R_row_24_p1  # elementwise0_S_row: stage 1, partition 0 (group 0)
    S_row_26 = S_row_25.to(gl.float32)  # convert0_S_row: stage 1, partition 0 (group 0)
    v2 = s_base_4 + cols_19_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v2, S_row_25, mask=mask_20_p1)  # store0: stage 1, partition 0 (group 0)
    _sum_sq_27 = S_row_26 * S_row_26  # elementwise1__sum_sq: stage 1, partition 0 (group 0)
    _sum_sq_28 = _sum_sq_28_p1 + _sum_sq_27  # elementwise1__sum_sq: stage 1, partition 0 (group 0)
    R_row_24_p1 = R_row_24
    X_row_22_p1 = X_row_22
    _sum_sq_28_p1 = _sum_sq_28
    cols_19_p1 = cols_19
    mask_20_p1 = mask_20
    twill_base += twill_n
    mean_square = gl.sum(_sum_sq_28_p1, axis=0)
    mean_square_12 = gl.cast(n_cols, gl.float32)
    mean_square_13 = mean_square / mean_square_12
    rstd = mean_square_13 + eps
    rstd_14 = gl.rsqrt(rstd)
    gl.store(rstd_base_10, rstd_14)
    twill_n = (n_cols - 0 + 1024 - 1) // 1024
    cols_17 = (0 + (0 - 0) * 1024) + col_offsets  # load0_S_row: stage 0, partition 0 (group 0)
    mask_18 = cols_17 < n_cols  # load0_S_row: stage 0, partition 0 (group 0)
    S_row_19 = s_base_4 + cols_17  # load0_S_row: stage 0, partition 0 (group 0)
    S_row_20 = gl.load(S_row_19, mask=mask_18, other=0.0)  # load0_S_row: stage 0, partition 0 (group 0)
    W_row_21 = W_ptr + cols_17  # load1_W_row: stage 0, partition 0 (group 0)
    W_row_22 = gl.load(W_row_21, mask=mask_18, other=0.0)  # load1_W_row: stage 0, partition 0 (group 0)
    S_row_20_p1 = S_row_20
    W_row_22_p1 = W_row_22
    cols_17_p1 = cols_17
    mask_18_p1 = mask_18
    for twill_b in range(1, twill_n):
        cols_l1 = (0 + (twill_b - 0) * 1024)  # load0_S_row: stage 0, partition 0 (group 0)
        cols_17 = cols_l1 + col_offsets  # load0_S_row: stage 0, partition 0 (group 0)
        mask_18 = cols_17 < n_cols  # load0_S_row: stage 0, partition 0 (group 0)
        S_row_19 = s_base_4 + cols_17  # load0_S_row: stage 0, partition 0 (group 0)
        S_row_20 = gl.load(S_row_19, mask=mask_18, other=0.0)  # load0_S_row: stage 0, partition 0 (group 0)
        S_row_24 = S_row_20_p1.to(gl.float32)  # convert1_S_row: stage 1, partition 0 (group 0)
        W_row_21 = W_ptr + cols_17  # load1_W_row: stage 0, partition 0 (group 0)
        W_row_22 = gl.load(W_row_21, mask=mask_18, other=0.0)  # load1_W_row: stage 0, partition 0 (group 0)
        W_row_23 = W_row_22_p1.to(gl.float32)  # convert0_W_row: stage 1, partition 0 (group 0)
        S_row_25_l1 = S_row_24 * rstd_14  # elementwise0_S_row: stage 1, partition 0 (group 0)
        Y_row_26 = offset + W_row_23  # elementwise0_S_row: stage 1, partition 0 (group 0)
        Y_row_27 = S_row_25_l1 * Y_row_26  # elementwise0_S_row: stage 1, partition 0 (group 0)
        Y_row_28 = Y_row_27.to(gl.float16)  # convert2_Y_row: stage 1, partition 0 (group 0)
        v2_l1 = y_base_2 + cols_17_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v2_l1, Y_row_28, mask=mask_18_p1)  # store0: stage 1, partition 0 (group 0)
        S_row_20_p1 = S_row_20
        W_row_22_p1 = W_row_22
        cols_17_p1 = cols_17
        mask_18_p1 = mask_18
    S_row_24 = S_row_20_p1.to(gl.float32)  # convert1_S_row: stage 1, partition 0 (group 0)
    W_row_23 = W_row_22_p1.to(gl.float32)  # convert0_W_row: stage 1, partition 0 (group 0)
    S_row_25_l1 = S_row_24 * rstd_14  # elementwise0_S_row: stage 1, partition 0 (group 0)
    Y_row_26 = offset + W_row_23  # elementwise0_S_row: stage 1, partition 0 (group 0)
    Y_row_27 = S_row_25_l1 * Y_row_26  # elementwise0_S_row: stage 1, partition 0 (group 0)
    Y_row_28 = Y_row_27.to(gl.float16)  # convert2_Y_row: stage 1, partition 0 (group 0)
    v2_l1 = y_base_2 + cols_17_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v2_l1, Y_row_28, mask=mask_18_p1)  # store0: stage 1, partition 0 (group 0)
    S_row_20_p1 = S_row_20
    W_row_22_p1 = W_row_22
    cols_17_p1 = cols_17
    mask_18_p1 = mask_18

@gluon.jit
def twill_kernel(Y_ptr, Y_row_stride, S_ptr, S_row_stride, X_ptr, X_row_stride, R_ptr, R_row_stride, W_ptr, W_row_stride, RSTD_ptr, RSTD_row_stride, n_cols, eps, offset):
    consumer_0(Y_ptr, Y_row_stride, S_ptr, S_row_stride, X_ptr, X_row_stride, R_ptr, R_row_stride, W_ptr, W_row_stride, RSTD_ptr, RSTD_row_stride, n_cols, eps, offset, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Y_ptr', 'Y_row_stride', 'S_ptr', 'S_row_stride', 'X_ptr', 'X_row_stride', 'R_ptr', 'R_row_stride', 'W_ptr', 'W_row_stride', 'RSTD_ptr', 'RSTD_row_stride', 'n_cols', 'eps', 'offset', 'casting_mode', 'elementwise_affine', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['Y_ptr', 'Y_row_stride', 'S_ptr', 'S_row_stride', 'X_ptr', 'X_row_stride', 'R_ptr', 'R_row_stride', 'W_ptr', 'W_row_stride', 'RSTD_ptr', 'RSTD_row_stride', 'n_cols', 'eps', 'offset']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Y_ptr', 'Y_row_stride', 'S_ptr', 'S_row_stride', 'X_ptr', 'X_row_stride', 'R_ptr', 'R_row_stride', 'W_ptr', 'W_row_stride', 'RSTD_ptr', 'RSTD_row_stride', 'n_cols', 'eps', 'offset']   # the arguments a launch key reads
CONSTEXPRS = {'casting_mode': 1, 'elementwise_affine': True, 'BLOCK_SIZE': 1024}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
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
    trips = _ev('(n_cols + 1024 - 1) // 1024', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((n_cols + 1024 - 1) // 1024): run the Triton kernel for it")
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
