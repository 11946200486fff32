"""rms_norm_kernel, written by twill from its joint schedule: I=506 L=506 (optimal), 920 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 704).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 32 warps, registers as ptxas allocates them (the schedule's tiles need about 57 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at flashinfer_rms_norm_residual_fp8.py:115 (TTGIR line 77) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=441, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[32], order=[0]))

@gluon.jit
def consumer_0(n, b, x_ptr, x_stride, r_ptr, r_stride, w_ptr, o_ptr, o_stride, o_scale_ptr):
    twill_base = 0
    i = gl.program_id(0)
    i_3 = gl.cast(i, gl.int64)
    x_row = gl.cast(x_stride, gl.int64)
    x_row_4 = i_3 * x_row
    x_row_5 = x_ptr + x_row_4
    o_row = gl.cast(o_stride, gl.int64)
    o_row_6 = i_3 * o_row
    o_row_7 = o_ptr + o_row_6
    r_row = gl.cast(r_stride, gl.int64)
    r_row_8 = i_3 * r_row
    r_row_9 = r_ptr + r_row_8
    o_scale = gl.load(o_scale_ptr)
    offsets = gl.arange(0, 4096, layout=L0)
    twill_n = (n - 0 + 4096 - 1) // 4096
    square_sum_33 = gl.full([4096], 0.0, gl.float32, layout=L0)
    offsets_23 = (0 + (0 - 0) * 4096) + offsets  # load0_x: stage 0, partition 0 (group 0)
    mask_24 = offsets_23 < n  # load0_x: stage 0, partition 0 (group 0)
    r_28 = r_row_9 + offsets_23  # load1_r: stage 0, partition 0 (group 0)
    r_29 = gl.load(r_28, mask=mask_24, other=0.0)  # load1_r: stage 0, partition 0 (group 0)
    x_25 = x_row_5 + offsets_23  # load0_x: stage 0, partition 0 (group 0)
    x_26 = gl.load(x_25, mask=mask_24, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    mask_24_p1 = mask_24
    r_28_p1 = r_28
    r_29_p1 = r_29
    square_sum_33_p1 = square_sum_33
    x_26_p1 = x_26
    for twill_b in range(1, twill_n):
        offsets_22 = (0 + (twill_b - 0) * 4096)  # load0_x: stage 0, partition 0 (group 0)
        offsets_23 = offsets_22 + offsets  # load0_x: stage 0, partition 0 (group 0)
        mask_24 = offsets_23 < n  # load0_x: stage 0, partition 0 (group 0)
        r_28 = r_row_9 + offsets_23  # load1_r: stage 0, partition 0 (group 0)
        r_29 = gl.load(r_28, mask=mask_24, other=0.0)  # load1_r: stage 0, partition 0 (group 0)
        r_30 = r_29_p1.to(gl.float32)  # convert1_r: stage 1, partition 0 (group 0)
        x_25 = x_row_5 + offsets_23  # load0_x: stage 0, partition 0 (group 0)
        x_26 = gl.load(x_25, mask=mask_24, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_27 = x_26_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        x_31 = x_27 + r_30  # elementwise0_x: stage 1, partition 0 (group 0)
        square_sum_32 = x_31 * x_31  # elementwise1_square_sum: stage 1, partition 0 (group 0)
        square_sum_33 = square_sum_33_p1 + square_sum_32  # elementwise1_square_sum: stage 1, partition 0 (group 0)
        v1 = x_31.to(gl.bfloat16)  # convert2: stage 1, partition 0 (group 0)
        gl.store(r_28_p1, v1, mask=mask_24_p1)  # store0: stage 1, partition 0 (group 0)
        mask_24_p1 = mask_24
        r_28_p1 = r_28
        r_29_p1 = r_29
        square_sum_33_p1 = square_sum_33
        x_26_p1 = x_26
    r_30 = r_29_p1.to(gl.float32)  # convert1_r: stage 1, partition 0 (group 0)
    x_27 = x_26_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
    x_31 = x_27 + r_30  # elementwise0_x: stage 1, partition 0 (group 0)
    square_sum_32 = x_31 * x_31  # elementwise1_square_sum: stage 1, partition 0 (group 0)
    square_sum_33 = square_sum_33_p1 + square_sum_32  # elementwise1_square_sum: stage 1, partition 0 (group 0)
    v1 = x_31.to(gl.bfloat16)  # convert2: stage 1, partition 0 (group 0)
    gl.store(r_28_p1, v1, mask=mask_24_p1)  # store0: stage 1, partition 0 (group 0)
    mask_24_p1 = mask_24
    r_28_p1 = r_28
    r_29_p1 = r_29
    square_sum_33_p1 = square_sum_33
    x_26_p1 = x_26
    twill_base += twill_n
    rms = square_sum_33_p1
    rms_11 = gl.sum(rms, axis=0)
    rms_12 = gl.cast(n, gl.float32)
    rms_13 = rms_11 / rms_12
    rms_14 = rms_13 + 9.99999997e-07
    rms_15 = gl.rsqrt(rms_14)
    offsets_16 = gl.arange(0, 4096, layout=L0)
    twill_n = (n - 0 + 4096 - 1) // 4096
    offsets_21 = (0 + (0 - 0) * 4096) + offsets_16  # load0_x: stage 0, partition 0 (group 0)
    mask_22 = offsets_21 < n  # load0_x: stage 0, partition 0 (group 0)
    w_26 = w_ptr + offsets_21  # load1_w: stage 0, partition 0 (group 0)
    w_27 = gl.load(w_26, mask=mask_22)  # load1_w: stage 0, partition 0 (group 0)
    x_23 = r_row_9 + offsets_21  # load0_x: stage 0, partition 0 (group 0)
    x_24 = gl.load(x_23, mask=mask_22)  # load0_x: stage 0, partition 0 (group 0)
    mask_22_p1 = mask_22
    offsets_21_p1 = offsets_21
    w_27_p1 = w_27
    x_24_p1 = x_24
    for twill_b in range(1, twill_n):
        offsets_20 = (0 + (twill_b - 0) * 4096)  # load0_x: stage 0, partition 0 (group 0)
        offsets_21 = offsets_20 + offsets_16  # load0_x: stage 0, partition 0 (group 0)
        mask_22 = offsets_21 < n  # load0_x: stage 0, partition 0 (group 0)
        w_26 = w_ptr + offsets_21  # load1_w: stage 0, partition 0 (group 0)
        w_27 = gl.load(w_26, mask=mask_22)  # load1_w: stage 0, partition 0 (group 0)
        w_28 = w_27_p1.to(gl.float32)  # convert1_w: stage 1, partition 0 (group 0)
        x_23 = r_row_9 + offsets_21  # load0_x: stage 0, partition 0 (group 0)
        x_24 = gl.load(x_23, mask=mask_22)  # load0_x: stage 0, partition 0 (group 0)
        x_25_l1 = x_24_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        result_29 = x_25_l1 * rms_15  # elementwise0_result: stage 1, partition 0 (group 0)
        result_30 = w_28 * result_29  # elementwise0_result: stage 1, partition 0 (group 0)
        result_31 = result_30 * o_scale  # elementwise0_result: stage 1, partition 0 (group 0)
        result_32 = gl.minimum(gl.maximum(result_31, gl.full([4096], -448.0, gl.float32, layout=L0)), gl.full([4096], 448.0, gl.float32, layout=L0))  # elementwise0_result: stage 1, partition 0 (group 0)
        result_33 = result_32.to(gl.float8e4nv, fp_downcast_rounding='rtne')  # convert2_result: stage 1, partition 0 (group 0)
        v1_l1 = o_row_7 + offsets_21_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v1_l1, result_33, mask=mask_22_p1)  # store0: stage 1, partition 0 (group 0)
        mask_22_p1 = mask_22
        offsets_21_p1 = offsets_21
        w_27_p1 = w_27
        x_24_p1 = x_24
    w_28 = w_27_p1.to(gl.float32)  # convert1_w: stage 1, partition 0 (group 0)
    x_25_l1 = x_24_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
    result_29 = x_25_l1 * rms_15  # elementwise0_result: stage 1, partition 0 (group 0)
    result_30 = w_28 * result_29  # elementwise0_result: stage 1, partition 0 (group 0)
    result_31 = result_30 * o_scale  # elementwise0_result: stage 1, partition 0 (group 0)
    result_32 = gl.minimum(gl.maximum(result_31, gl.full([4096], -448.0, gl.float32, layout=L0)), gl.full([4096], 448.0, gl.float32, layout=L0))  # elementwise0_result: stage 1, partition 0 (group 0)
    result_33 = result_32.to(gl.float8e4nv, fp_downcast_rounding='rtne')  # convert2_result: stage 1, partition 0 (group 0)
    v1_l1 = o_row_7 + offsets_21_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v1_l1, result_33, mask=mask_22_p1)  # store0: stage 1, partition 0 (group 0)
    mask_22_p1 = mask_22
    offsets_21_p1 = offsets_21
    w_27_p1 = w_27
    x_24_p1 = x_24

@gluon.jit
def twill_kernel(n, b, x_ptr, x_stride, r_ptr, r_stride, w_ptr, o_ptr, o_stride, o_scale_ptr):
    consumer_0(n, b, x_ptr, x_stride, r_ptr, r_stride, w_ptr, o_ptr, o_stride, o_scale_ptr, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['n', 'b', 'x_ptr', 'x_stride', 'x_scale_ptr', 'r_ptr', 'r_stride', 'w_ptr', 'o_ptr', 'o_stride', 'o_scale_ptr', 'EPS', 'BLOCK_SIZE', 'HAS_IN_SCALE', 'HAS_OUT_SCALE', 'HAS_OUTPUT', 'HAS_RESIDUAL']          # the Triton kernel's parameters, in order
RUNTIME = ['n', 'b', 'x_ptr', 'x_stride', 'r_ptr', 'r_stride', 'w_ptr', 'o_ptr', 'o_stride', 'o_scale_ptr']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['n', 'b', 'x_ptr', 'x_stride', 'x_scale_ptr', 'r_ptr', 'r_stride', 'w_ptr', 'o_ptr', 'o_stride', 'o_scale_ptr']   # the arguments a launch key reads
CONSTEXPRS = {'EPS': 1e-06, 'BLOCK_SIZE': 4096, 'HAS_IN_SCALE': False, 'HAS_OUT_SCALE': True, 'HAS_OUTPUT': True, 'HAS_RESIDUAL': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 32
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
    trips = _ev('(n + 4096 - 1) // 4096', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((n + 4096 - 1) // 4096): run the Triton kernel for it")
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
