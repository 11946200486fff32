"""group_rms_stats_kernel, written by twill from its joint schedule: I=230 L=185 (optimal), 680 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 80).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 64 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(X_ptr, Mean_ptr, Rstd_ptr, stride_b, stride_c, HW, G, eps):
    twill_base = 0
    b = gl.program_id(0)
    g = gl.program_id(1)
    offs = gl.arange(0, 1024, layout=L0)
    x_base = gl.cast(b, gl.int64)
    x_base_1 = gl.cast(stride_b, gl.int64)
    x_base_2 = x_base * x_base_1
    x_chan = gl.cast(stride_c, gl.int64)
    c0 = g * 16
    v0 = c0 + 16
    arg9 = gl.full([1024], 0.0, gl.float32, layout=L0)
    arg10 = gl.full([1024], 0.0, gl.float32, layout=L0)
    twill_tile_lb = c0
    twill_tile_step = 1
    for sq_vec_5 in range(twill_tile_lb, v0, twill_tile_step):
        x_chan_6 = gl.cast(sq_vec_5, gl.int64)
        x_chan_7 = x_chan_6 * x_chan
        x_chan_8 = x_base_2 + x_chan_7
        x_chan_9 = X_ptr + x_chan_8
        twill_n = (HW - 0 + 1024 - 1) // 1024
        s_vec = arg9
        sq_vec_18 = arg10
        idx_12 = (0 + (0 - 0) * 1024) + offs  # load0_x: stage 0, partition 0 (group 0)
        mask_13 = idx_12 < HW  # load0_x: stage 0, partition 0 (group 0)
        x_14 = x_chan_9 + idx_12  # load0_x: stage 0, partition 0 (group 0)
        x_15 = gl.load(x_14, mask=mask_13, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        s_vec_p1 = s_vec
        sq_vec_18_p1 = sq_vec_18
        x_15_p1 = x_15
        for twill_b in range(1, twill_n):
            idx = (0 + (twill_b - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
            idx_12 = idx + offs  # load0_x: stage 0, partition 0 (group 0)
            mask_13 = idx_12 < HW  # load0_x: stage 0, partition 0 (group 0)
            x_14 = x_chan_9 + idx_12  # load0_x: stage 0, partition 0 (group 0)
            x_15 = gl.load(x_14, mask=mask_13, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
            x_16 = x_15_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
            sq_vec_17 = x_16 * x_16  # elementwise1_sq_vec: stage 1, partition 0 (group 0)
            sq_vec_18 = sq_vec_18_p1 + sq_vec_17  # elementwise1_sq_vec: stage 1, partition 0 (group 0)
            s_vec = s_vec_p1 + x_16  # elementwise0_s_vec: stage 1, partition 0 (group 0)
            s_vec_p1 = s_vec
            sq_vec_18_p1 = sq_vec_18
            x_15_p1 = x_15
        x_16 = x_15_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        sq_vec_17 = x_16 * x_16  # elementwise1_sq_vec: stage 1, partition 0 (group 0)
        sq_vec_18 = sq_vec_18_p1 + sq_vec_17  # elementwise1_sq_vec: stage 1, partition 0 (group 0)
        s_vec = s_vec_p1 + x_16  # elementwise0_s_vec: stage 1, partition 0 (group 0)
        s_vec_p1 = s_vec
        sq_vec_18_p1 = sq_vec_18
        x_15_p1 = x_15
        arg9 = s_vec_p1
        arg10 = sq_vec_18_p1
        twill_base += twill_n
    n = HW * 16
    s = gl.sum(arg9, axis=0)
    sq = gl.sum(arg10, axis=0)
    mean = gl.cast(n, gl.float32)
    mean_3 = s / mean
    ms = sq / mean
    rstd = ms + eps
    rstd_4 = gl.rsqrt(rstd)
    v1 = b * G
    v2 = Mean_ptr + v1
    v3 = v2 + g
    gl.store(v3, mean_3)
    v4 = Rstd_ptr + v1
    v5 = v4 + g
    gl.store(v5, rstd_4)

@gluon.jit
def twill_kernel(X_ptr, Mean_ptr, Rstd_ptr, stride_b, stride_c, HW, G, eps):
    consumer_0(X_ptr, Mean_ptr, Rstd_ptr, stride_b, stride_c, HW, G, eps, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X_ptr', 'Mean_ptr', 'Rstd_ptr', 'stride_b', 'stride_c', 'HW', 'G', 'eps', 'C_PER_G', 'BLOCK', 'RMS']          # the Triton kernel's parameters, in order
RUNTIME = ['X_ptr', 'Mean_ptr', 'Rstd_ptr', 'stride_b', 'stride_c', 'HW', 'G', 'eps']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X_ptr', 'Mean_ptr', 'Rstd_ptr', 'stride_b', 'stride_c', 'HW', 'G', 'eps']   # the arguments a launch key reads
CONSTEXPRS = {'C_PER_G': 16, 'BLOCK': 1024, 'RMS': True}         # the specialisation this kernel was generated for
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
    trips = _ev('(HW + 1024 - 1) // 1024', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((HW + 1024 - 1) // 1024): run the Triton kernel for it")
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
