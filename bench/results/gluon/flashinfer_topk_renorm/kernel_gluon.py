"""top_k_renorm_probs_kernel, written by twill from its joint schedule: I=260 L=145 (optimal), 1240 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 640).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 16 warps, registers as ptxas allocates them (the schedule's tiles need about 42 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)
- loop at flashinfer_topk_renorm.py:45 (TTGIR line 39) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=260, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[16], order=[0]))

@gluon.jit
def consumer_0(probs_ptr, renorm_ptr, top_k_arr, top_k_val, stride, vocab_size):
    twill_base = 0
    row = gl.program_id(0)
    row_ptr = gl.cast(row, gl.int64)
    row_ptr_3 = gl.cast(stride, gl.int64)
    row_ptr_4 = row_ptr * row_ptr_3
    row_ptr_5 = probs_ptr + row_ptr_4
    out_ptr = renorm_ptr + row_ptr_4
    offs = gl.arange(0, 4096, layout=L0)
    twill_n = (vocab_size - 0 + 4096 - 1) // 4096
    max_val_20 = 0.0
    cols_15_l0 = (0 + (0 - 0) * 4096) + offs  # load0_x: stage 0, partition 0 (group 0)
    x_16_l0 = cols_15_l0 < vocab_size  # load0_x: stage 0, partition 0 (group 0)
    x_17_l0 = row_ptr_5 + cols_15_l0  # load0_x: stage 0, partition 0 (group 0)
    x_18_l0 = gl.load(x_17_l0, mask=x_16_l0, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    max_val_20_p1 = max_val_20
    x_18_l0_p1 = x_18_l0
    for twill_b in range(1, twill_n):
        cols_l0 = (0 + (twill_b - 0) * 4096)  # load0_x: stage 0, partition 0 (group 0)
        cols_15_l0 = cols_l0 + offs  # load0_x: stage 0, partition 0 (group 0)
        x_16_l0 = cols_15_l0 < vocab_size  # load0_x: stage 0, partition 0 (group 0)
        x_17_l0 = row_ptr_5 + cols_15_l0  # load0_x: stage 0, partition 0 (group 0)
        x_18_l0 = gl.load(x_17_l0, mask=x_16_l0, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        max_val_19 = gl.max(x_18_l0_p1, axis=0)  # reduce0_max_val: stage 1, partition 0 (group 0)
        max_val_20 = gl.maximum(max_val_20_p1, max_val_19)  # elementwise0_max_val: stage 1, partition 0 (group 0)
        max_val_20_p1 = max_val_20
        x_18_l0_p1 = x_18_l0
    max_val_19 = gl.max(x_18_l0_p1, axis=0)  # reduce0_max_val: stage 1, partition 0 (group 0)
    max_val_20 = gl.maximum(max_val_20_p1, max_val_19)  # elementwise0_max_val: stage 1, partition 0 (group 0)
    max_val_20_p1 = max_val_20
    x_18_l0_p1 = x_18_l0
    twill_base += twill_n
    arg7 = gl.to_tensor(0.0)
    max_val_15 = max_val_20_p1
    twill_tile_lb = 0
    twill_tile_step = 1
    for high_14 in range(twill_tile_lb, 32, twill_tile_step):
        mid = arg7 + max_val_15
        mid_16 = mid * 0.5
        twill_n = (vocab_size - 0 + 4096 - 1) // 4096
        count_28 = 0
        cols_21 = (0 + (0 - 0) * 4096) + offs  # load0_x: stage 0, partition 0 (group 0)
        x_22 = cols_21 < vocab_size  # load0_x: stage 0, partition 0 (group 0)
        x_23 = row_ptr_5 + cols_21  # load0_x: stage 0, partition 0 (group 0)
        x_24 = gl.load(x_23, mask=x_22, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        count_28_p1 = count_28
        x_24_p1 = x_24
        for twill_b in range(1, twill_n):
            cols = (0 + (twill_b - 0) * 4096)  # load0_x: stage 0, partition 0 (group 0)
            cols_21 = cols + offs  # load0_x: stage 0, partition 0 (group 0)
            x_22 = cols_21 < vocab_size  # load0_x: stage 0, partition 0 (group 0)
            x_23 = row_ptr_5 + cols_21  # load0_x: stage 0, partition 0 (group 0)
            x_24 = gl.load(x_23, mask=x_22, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
            count_25 = x_24_p1 > mid_16  # elementwise0_count: stage 1, partition 0 (group 0)
            count_26 = count_25.to(gl.int32)  # reduce0_count: stage 1, partition 0 (group 0)
            count_27 = gl.sum(count_26, axis=0)  # reduce0_count: stage 1, partition 0 (group 0)
            count_28 = count_28_p1 + count_27  # elementwise1_count: stage 1, partition 0 (group 0)
            count_28_p1 = count_28
            x_24_p1 = x_24
        count_25 = x_24_p1 > mid_16  # elementwise0_count: stage 1, partition 0 (group 0)
        count_26 = count_25.to(gl.int32)  # reduce0_count: stage 1, partition 0 (group 0)
        count_27 = gl.sum(count_26, axis=0)  # reduce0_count: stage 1, partition 0 (group 0)
        count_28 = count_28_p1 + count_27  # elementwise1_count: stage 1, partition 0 (group 0)
        count_28_p1 = count_28
        x_24_p1 = x_24
        k = top_k_arr + row
        k_2 = gl.load(k)
        low = count_28_p1 >= k_2
        low_18 = gl.where(low, mid_16, arg7)
        high_19 = gl.where(low, max_val_15, mid_16)
        arg7 = low_18
        max_val_15 = high_19
        twill_base += twill_n
    total_14 = gl.to_tensor(0.0)
    for start_l3 in range(0, vocab_size, 4096):
        cols_15 = start_l3 + offs
        x_16_l3 = cols_15 < vocab_size
        x_17_l3 = row_ptr_5 + cols_15
        x_18 = gl.load(x_17_l3, mask=x_16_l3, other=0.0)
        total_19 = x_18 > arg7
        total_20 = gl.where(total_19, x_18, 0.0)
        total_21 = gl.sum(total_20, axis=0)
        total_22 = total_14 + total_21
        total_14 = total_22
    for start_l4 in range(0, vocab_size, 4096):
        cols_14 = start_l4 + offs
        x_15 = cols_14 < vocab_size
        x_16_l4 = row_ptr_5 + cols_14
        x_17_l4 = gl.load(x_16_l4, mask=x_15, other=0.0)
        v3 = out_ptr + cols_14
        v4 = x_17_l4 > arg7
        v5 = x_17_l4 / total_14
        v6 = gl.where(v4, v5, 0.0)
        gl.store(v3, v6, mask=x_15)

@gluon.jit
def twill_kernel(probs_ptr, renorm_ptr, top_k_arr, top_k_val, stride, vocab_size):
    consumer_0(probs_ptr, renorm_ptr, top_k_arr, top_k_val, stride, vocab_size, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['probs_ptr', 'renorm_ptr', 'top_k_arr', 'top_k_val', 'stride', 'vocab_size', 'HAS_TOP_K_ARR', 'BLOCK_SIZE', 'NUM_ITERS']          # the Triton kernel's parameters, in order
RUNTIME = ['probs_ptr', 'renorm_ptr', 'top_k_arr', 'top_k_val', 'stride', 'vocab_size']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['probs_ptr', 'renorm_ptr', 'top_k_arr', 'top_k_val', 'stride', 'vocab_size']   # the arguments a launch key reads
CONSTEXPRS = {'HAS_TOP_K_ARR': True, 'BLOCK_SIZE': 4096, 'NUM_ITERS': 32}         # the specialisation this kernel was generated for
HEURISTICS = {'HAS_TOP_K_ARR': "lambda args: args['top_k_arr'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 16
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
    _heuristics(bound)
    trips = _ev('(vocab_size + 4096 - 1) // 4096', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((vocab_size + 4096 - 1) // 4096): run the Triton kernel for it")
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
