"""solve_tril_16x16_kernel, written by twill from its joint schedule: I=258 L=258 (optimal), 603 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 43).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 44 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(A, Ad, T):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = v1 // 4
    v3 = v1 % 4
    bos = v2 * T
    A_7 = bos * 4
    A_8 = A_7 + v3
    A_9 = A_8 * 64
    A_10 = A + A_9
    Ad_11 = A_8 * 16
    Ad_12 = Ad + Ad_11
    col0 = v0 * 16
    col0_13 = col0 % 64
    r = gl.arange(0, 16, layout=L0)
    r_14 = gl.arange(0, 16, layout=L1)
    p_blk = gl.cast(T, gl.int64)
    p_blk_15 = gl.cast(col0, gl.int64)
    p_blk_16 = gl.cast(col0_13, gl.int64)
    b_inv_19 = r.to(gl.int64)
    b_inv_20 = r_14.to(gl.int64)
    b_inv_21 = p_blk_15 + b_inv_19
    b_inv_22 = gl.expand_dims(b_inv_21, 1)
    b_inv_23 = b_inv_22 * 256
    b_inv_24 = b_inv_23.broadcast_to([16, 16])
    b_inv_26 = p_blk_16 + b_inv_20
    b_inv_27 = gl.expand_dims(b_inv_26, 0)
    b_inv_28 = b_inv_27.broadcast_to([16, 16])
    b_inv_29 = b_inv_24 + b_inv_28
    b_inv_30 = A_10 + b_inv_29
    b_inv_31 = b_inv_22 >= 0
    b_inv_33 = b_inv_22 < p_blk
    b_inv_34 = b_inv_31 & b_inv_33
    b_inv_35 = b_inv_34.broadcast_to([16, 16])
    b_inv_36 = b_inv_27 >= 0
    b_inv_37 = b_inv_27 < 64
    b_inv_38 = b_inv_36 & b_inv_37
    b_inv_39 = b_inv_38.broadcast_to([16, 16])
    b_inv_40 = b_inv_35 & b_inv_39
    b_inv_41 = gl.load(b_inv_30, mask=b_inv_40)
    b_inv_42 = gl.expand_dims(r, 1)
    b_inv_43 = gl.expand_dims(r_14, 0)
    b_inv_44 = b_inv_42.broadcast_to([16, 16])
    b_inv_45 = b_inv_43.broadcast_to([16, 16])
    b_inv_46 = b_inv_44 > b_inv_45
    b_inv_47 = gl.where(b_inv_46, b_inv_41, 0.0)
    b_inv_48 = 0.0 - b_inv_47
    v4 = T - col0
    v5 = gl.minimum(v4, 16)
    twill_n = gl.maximum((v5 - 1 + 1 - 1) // 1, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_inv_77 = b_inv_48
        b_row = col0 + (1 + (0 - 0) * 1)  # load0_b_row: stage 0, partition 0 (group 0)
        b_row_55 = b_row * 256  # load0_b_row: stage 0, partition 0 (group 0)
        b_row_56 = A_10 + b_row_55  # load0_b_row: stage 0, partition 0 (group 0)
        b_row_57 = b_row_56 + col0_13  # load0_b_row: stage 0, partition 0 (group 0)
        b_row_59 = b_row_57  # load1_b_row: stage 0, partition 0 (group 0)
        b_row_61 = b_row_59 + r  # load1_b_row: stage 0, partition 0 (group 0)
        b_row_63 = gl.load(b_row_61)  # load1_b_row: stage 0, partition 0 (group 0)
        b_row_58 = b_row_57  # load0_b_row: stage 0, partition 0 (group 0)
        b_row_60 = b_row_58 + r_14  # load0_b_row: stage 0, partition 0 (group 0)
        b_row_62 = gl.load(b_row_60)  # load0_b_row: stage 0, partition 0 (group 0)
        b_inv_77_p1 = b_inv_77
        b_row_62_p1 = b_row_62
        b_row_63_p1 = b_row_63
        for twill_b in range(1, twill_n):
            b_row = col0 + (1 + (twill_b - 0) * 1)  # load0_b_row: stage 0, partition 0 (group 0)
            b_row_55 = b_row * 256  # load0_b_row: stage 0, partition 0 (group 0)
            b_row_56 = A_10 + b_row_55  # load0_b_row: stage 0, partition 0 (group 0)
            b_row_57 = b_row_56 + col0_13  # load0_b_row: stage 0, partition 0 (group 0)
            b_row_59 = b_row_57  # load1_b_row: stage 0, partition 0 (group 0)
            b_row_61 = b_row_59 + r  # load1_b_row: stage 0, partition 0 (group 0)
            b_row_63 = gl.load(b_row_61)  # load1_b_row: stage 0, partition 0 (group 0)
            b_row_65 = 0.0 - b_row_63_p1  # elementwise1_b_row: stage 1, partition 0 (group 0)
            b_row_66 = gl.expand_dims(b_row_65, 1)  # elementwise2_b_row: stage 1, partition 0 (group 0)
            b_row_67 = b_row_66.broadcast_to([16, 16])  # elementwise2_b_row: stage 1, partition 0 (group 0)
            b_row_68 = b_row_67 * b_inv_77_p1  # elementwise2_b_row: stage 1, partition 0 (group 0)
            b_row_69 = gl.sum(b_row_68, axis=0)  # reduce0_b_row: stage 1, partition 0 (group 0)
            b_row_58 = b_row_57  # load0_b_row: stage 0, partition 0 (group 0)
            b_row_60 = b_row_58 + r_14  # load0_b_row: stage 0, partition 0 (group 0)
            b_row_62 = gl.load(b_row_60)  # load0_b_row: stage 0, partition 0 (group 0)
            b_row_64 = 0.0 - b_row_62_p1  # elementwise0_b_row: stage 1, partition 0 (group 0)
            b_row_70 = b_row_64 + b_row_69  # elementwise0_b_row: stage 1, partition 0 (group 0)
            b_inv_71 = (1 + (twill_b - 1) * 1)  # elementwise3_b_inv: stage 1, partition 0 (group 0)
            b_inv_72 = r == b_inv_71  # elementwise3_b_inv: stage 1, partition 0 (group 0)
            b_inv_73 = gl.expand_dims(b_inv_72, 1)  # elementwise3_b_inv: stage 1, partition 0 (group 0)
            b_inv_74 = gl.expand_dims(b_row_70, 0)  # elementwise3_b_inv: stage 1, partition 0 (group 0)
            b_inv_75 = b_inv_74.broadcast_to([16, 16])  # elementwise3_b_inv: stage 1, partition 0 (group 0)
            b_inv_76 = b_inv_73.broadcast_to([16, 16])  # elementwise3_b_inv: stage 1, partition 0 (group 0)
            b_inv_77 = gl.where(b_inv_76, b_inv_75, b_inv_77_p1)  # elementwise3_b_inv: stage 1, partition 0 (group 0)
            b_inv_77_p1 = b_inv_77
            b_row_62_p1 = b_row_62
            b_row_63_p1 = b_row_63
        b_row_65 = 0.0 - b_row_63_p1  # elementwise1_b_row: stage 1, partition 0 (group 0)
        b_row_66 = gl.expand_dims(b_row_65, 1)  # elementwise2_b_row: stage 1, partition 0 (group 0)
        b_row_67 = b_row_66.broadcast_to([16, 16])  # elementwise2_b_row: stage 1, partition 0 (group 0)
        b_row_68 = b_row_67 * b_inv_77_p1  # elementwise2_b_row: stage 1, partition 0 (group 0)
        b_row_69 = gl.sum(b_row_68, axis=0)  # reduce0_b_row: stage 1, partition 0 (group 0)
        b_row_64 = 0.0 - b_row_62_p1  # elementwise0_b_row: stage 1, partition 0 (group 0)
        b_row_70 = b_row_64 + b_row_69  # elementwise0_b_row: stage 1, partition 0 (group 0)
        b_inv_71 = (1 + ((twill_n - 1 + 1) - 1) * 1)  # elementwise3_b_inv: stage 1, partition 0 (group 0)
        b_inv_72 = r == b_inv_71  # elementwise3_b_inv: stage 1, partition 0 (group 0)
        b_inv_73 = gl.expand_dims(b_inv_72, 1)  # elementwise3_b_inv: stage 1, partition 0 (group 0)
        b_inv_74 = gl.expand_dims(b_row_70, 0)  # elementwise3_b_inv: stage 1, partition 0 (group 0)
        b_inv_75 = b_inv_74.broadcast_to([16, 16])  # elementwise3_b_inv: stage 1, partition 0 (group 0)
        b_inv_76 = b_inv_73.broadcast_to([16, 16])  # elementwise3_b_inv: stage 1, partition 0 (group 0)
        b_inv_77 = gl.where(b_inv_76, b_inv_75, b_inv_77_p1)  # elementwise3_b_inv: stage 1, partition 0 (group 0)
        b_inv_77_p1 = b_inv_77
        b_row_62_p1 = b_row_62
        b_row_63_p1 = b_row_63
    else:
        b_inv_77_p1 = b_inv_48
    b_inv_50 = b_inv_44 == b_inv_45
    b_inv_51 = b_inv_50.to(gl.float32)
    b_inv_52 = b_inv_77_p1 + b_inv_51
    v7 = b_inv_22 * 64
    v8 = v7.broadcast_to([16, 16])
    v9 = gl.expand_dims(b_inv_20, 0)
    v10 = v9.broadcast_to([16, 16])
    v11 = v8 + v10
    v12 = Ad_12 + v11
    v13 = v9 >= 0
    v14 = v9 < 16
    v15 = v13 & v14
    v16 = v15.broadcast_to([16, 16])
    v17 = b_inv_35 & v16
    gl.store(v12, b_inv_52, mask=v17)

@gluon.jit
def twill_kernel(A, Ad, T):
    consumer_0(A, Ad, T, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'Ad', 'cu_seqlens', 'chunk_indices', 'T', 'H', 'BT', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'Ad', 'T']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'Ad', 'cu_seqlens', 'chunk_indices', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'H': 4, 'BT': 64, 'IS_VARLEN': False}         # the specialisation this kernel was generated for
HEURISTICS = {'IS_VARLEN': "lambda args: args['cu_seqlens'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
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
