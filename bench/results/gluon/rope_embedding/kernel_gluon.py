"""_rope_embedding, written by twill from its joint schedule: I=444 L=703 (optimal), 605 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 12).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 42 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(Q, Q_row_stride, cos, cos_row_stride, sin, sin_row_stride, seqlen):
    row_position = gl.program_id(0)
    group_head_position = gl.program_id(1)
    col_offsets = gl.arange(0, 64, layout=L0)
    mask = col_offsets < 64
    sin1 = row_position % seqlen
    sin1_2 = sin1 * sin_row_stride
    sin1_3 = sin + sin1_2
    sin1_5 = sin1_3 + col_offsets
    sin1_6 = gl.load(sin1_5, mask=mask, other=0.0)
    cos1 = sin1 * cos_row_stride
    cos1_7 = cos + cos1
    cos1_9 = cos1_7 + col_offsets
    cos1_10 = gl.load(cos1_9, mask=mask, other=0.0)
    head_start = group_head_position * 4
    head_end_11 = head_start + 4
    head_end_12 = gl.minimum(head_end_11, 32)
    offs_q1 = row_position * Q_row_stride
    twill_n = gl.maximum((head_end_12 - head_start + 1 - 1) // 1, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        offs_q1_13 = (head_start + (0 - 0) * 1) * 128  # load0_Q2: stage 0, partition 0 (group 0)
        offs_q1_14 = offs_q1 + offs_q1_13  # load0_Q2: stage 0, partition 0 (group 0)
        offs_q1_15 = offs_q1_14  # load0_Q2: stage 0, partition 0 (group 0)
        offs_q1_16 = offs_q1_15 + col_offsets  # load0_Q2: stage 0, partition 0 (group 0)
        offs_q2 = offs_q1_16 + 64  # load0_Q2: stage 0, partition 0 (group 0)
        Q2 = Q + offs_q2  # load0_Q2: stage 0, partition 0 (group 0)
        Q2_20 = gl.load(Q2, mask=mask, other=0.0)  # load0_Q2: stage 0, partition 0 (group 0)
        Q1_17 = Q + offs_q1_16  # load1_Q1: stage 0, partition 0 (group 0)
        Q1_18 = gl.load(Q1_17, mask=mask, other=0.0)  # load1_Q1: stage 0, partition 0 (group 0)
        Q1_17_p1 = Q1_17
        Q1_18_p1 = Q1_18
        Q2_p1 = Q2
        Q2_20_p1 = Q2_20
        offs_q1_13 = (head_start + (1 - 0) * 1) * 128  # load0_Q2: stage 0, partition 0 (group 0)
        offs_q1_14 = offs_q1 + offs_q1_13  # load0_Q2: stage 0, partition 0 (group 0)
        offs_q1_15 = offs_q1_14  # load0_Q2: stage 0, partition 0 (group 0)
        offs_q1_16 = offs_q1_15 + col_offsets  # load0_Q2: stage 0, partition 0 (group 0)
        offs_q2 = offs_q1_16 + 64  # load0_Q2: stage 0, partition 0 (group 0)
        Q2 = Q + offs_q2  # load0_Q2: stage 0, partition 0 (group 0)
        Q2_20 = gl.load(Q2, mask=mask, other=0.0)  # load0_Q2: stage 0, partition 0 (group 0)
        Q2_21 = Q2_20_p1.to(gl.float32)  # convert1_Q2: stage 1, partition 0 (group 0)
        Q1_17 = Q + offs_q1_16  # load1_Q1: stage 0, partition 0 (group 0)
        Q1_18 = gl.load(Q1_17, mask=mask, other=0.0)  # load1_Q1: stage 0, partition 0 (group 0)
        Q1_19 = Q1_18_p1.to(gl.float32)  # convert0_Q1: stage 1, partition 0 (group 0)
        v0 = Q1_19 * cos1_10  # elementwise0: stage 1, partition 0 (group 0)
        v1 = Q2_21 * sin1_6  # elementwise0: stage 1, partition 0 (group 0)
        v2 = v0 - v1  # elementwise0: stage 1, partition 0 (group 0)
        Q1_17_p2 = Q1_17_p1
        Q1_17_p1 = Q1_17
        Q1_18_p1 = Q1_18
        Q1_19_p1 = Q1_19
        Q2_p2 = Q2_p1
        Q2_p1 = Q2
        Q2_20_p1 = Q2_20
        Q2_21_p1 = Q2_21
        v2_p1 = v2
        for twill_b in range(2, twill_n):
            v4 = Q2_21_p1 * cos1_10  # elementwise1: stage 2, partition 0 (group 0)
            v5 = Q1_19_p1 * sin1_6  # elementwise1: stage 2, partition 0 (group 0)
            v6 = v4 + v5  # elementwise1: stage 2, partition 0 (group 0)
            v7 = v6.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
            v3 = v2_p1.to(gl.float16)  # convert2: stage 2, partition 0 (group 0)
            gl.store(Q2_p2, v7, mask=mask)  # store1: stage 2, partition 0 (group 0)
            gl.store(Q1_17_p2, v3, mask=mask)  # store0: stage 2, partition 0 (group 0)
            offs_q1_13 = (head_start + (twill_b - 0) * 1) * 128  # load0_Q2: stage 0, partition 0 (group 0)
            offs_q1_14 = offs_q1 + offs_q1_13  # load0_Q2: stage 0, partition 0 (group 0)
            offs_q1_15 = offs_q1_14  # load0_Q2: stage 0, partition 0 (group 0)
            offs_q1_16 = offs_q1_15 + col_offsets  # load0_Q2: stage 0, partition 0 (group 0)
            offs_q2 = offs_q1_16 + 64  # load0_Q2: stage 0, partition 0 (group 0)
            Q2 = Q + offs_q2  # load0_Q2: stage 0, partition 0 (group 0)
            Q2_20 = gl.load(Q2, mask=mask, other=0.0)  # load0_Q2: stage 0, partition 0 (group 0)
            Q2_21 = Q2_20_p1.to(gl.float32)  # convert1_Q2: stage 1, partition 0 (group 0)
            Q1_17 = Q + offs_q1_16  # load1_Q1: stage 0, partition 0 (group 0)
            Q1_18 = gl.load(Q1_17, mask=mask, other=0.0)  # load1_Q1: stage 0, partition 0 (group 0)
            Q1_19 = Q1_18_p1.to(gl.float32)  # convert0_Q1: stage 1, partition 0 (group 0)
            v0 = Q1_19 * cos1_10  # elementwise0: stage 1, partition 0 (group 0)
            v1 = Q2_21 * sin1_6  # elementwise0: stage 1, partition 0 (group 0)
            v2 = v0 - v1  # elementwise0: stage 1, partition 0 (group 0)
            Q1_17_p2 = Q1_17_p1
            Q1_17_p1 = Q1_17
            Q1_18_p1 = Q1_18
            Q1_19_p1 = Q1_19
            Q2_p2 = Q2_p1
            Q2_p1 = Q2
            Q2_20_p1 = Q2_20
            Q2_21_p1 = Q2_21
            v2_p1 = v2
        v4 = Q2_21_p1 * cos1_10  # elementwise1: stage 2, partition 0 (group 0)
        v5 = Q1_19_p1 * sin1_6  # elementwise1: stage 2, partition 0 (group 0)
        v6 = v4 + v5  # elementwise1: stage 2, partition 0 (group 0)
        v7 = v6.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        v3 = v2_p1.to(gl.float16)  # convert2: stage 2, partition 0 (group 0)
        gl.store(Q2_p2, v7, mask=mask)  # store1: stage 2, partition 0 (group 0)
        gl.store(Q1_17_p2, v3, mask=mask)  # store0: stage 2, partition 0 (group 0)
        Q2_21 = Q2_20_p1.to(gl.float32)  # convert1_Q2: stage 1, partition 0 (group 0)
        Q1_19 = Q1_18_p1.to(gl.float32)  # convert0_Q1: stage 1, partition 0 (group 0)
        v0 = Q1_19 * cos1_10  # elementwise0: stage 1, partition 0 (group 0)
        v1 = Q2_21 * sin1_6  # elementwise0: stage 1, partition 0 (group 0)
        v2 = v0 - v1  # elementwise0: stage 1, partition 0 (group 0)
        Q1_17_p2 = Q1_17_p1
        Q1_17_p1 = Q1_17
        Q1_18_p1 = Q1_18
        Q1_19_p1 = Q1_19
        Q2_p2 = Q2_p1
        Q2_p1 = Q2
        Q2_20_p1 = Q2_20
        Q2_21_p1 = Q2_21
        v2_p1 = v2
        v4 = Q2_21_p1 * cos1_10  # elementwise1: stage 2, partition 0 (group 0)
        v5 = Q1_19_p1 * sin1_6  # elementwise1: stage 2, partition 0 (group 0)
        v6 = v4 + v5  # elementwise1: stage 2, partition 0 (group 0)
        v7 = v6.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        v3 = v2_p1.to(gl.float16)  # convert2: stage 2, partition 0 (group 0)
        gl.store(Q2_p2, v7, mask=mask)  # store1: stage 2, partition 0 (group 0)
        gl.store(Q1_17_p2, v3, mask=mask)  # store0: stage 2, partition 0 (group 0)
        Q1_17_p2 = Q1_17_p1
        Q1_17_p1 = Q1_17
        Q1_18_p1 = Q1_18
        Q1_19_p1 = Q1_19
        Q2_p2 = Q2_p1
        Q2_p1 = Q2
        Q2_20_p1 = Q2_20
        Q2_21_p1 = Q2_21
        v2_p1 = v2
    else:
        for k_w in range(head_start, head_end_12, 1):
            offs_q1_13_w = k_w * 128
            offs_q1_14_w = offs_q1 + offs_q1_13_w
            offs_q1_16_w = offs_q1_14_w + col_offsets
            offs_q2_w = offs_q1_16_w + 64
            Q1_17_w = Q + offs_q1_16_w
            Q1_18_w = gl.load(Q1_17_w, mask=mask, other=0.0)
            Q1_19_w = Q1_18_w.to(gl.float32)
            Q2_w = Q + offs_q2_w
            Q2_20_w = gl.load(Q2_w, mask=mask, other=0.0)
            Q2_21_w = Q2_20_w.to(gl.float32)
            v0_w = Q1_19_w * cos1_10
            v1_w = Q2_21_w * sin1_6
            v2_w = v0_w - v1_w
            v3_w = v2_w.to(gl.float16)
            gl.store(Q1_17_w, v3_w, mask=mask)
            v4_w = Q2_21_w * cos1_10
            v5_w = Q1_19_w * sin1_6
            v6_w = v4_w + v5_w
            v7_w = v6_w.to(gl.float16)
            gl.store(Q2_w, v7_w, mask=mask)

@gluon.jit
def twill_kernel(Q, Q_row_stride, cos, cos_row_stride, sin, sin_row_stride, seqlen):
    consumer_0(Q, Q_row_stride, cos, cos_row_stride, sin, sin_row_stride, seqlen, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'Q_row_stride', 'cos', 'cos_row_stride', 'sin', 'sin_row_stride', 'seqlen', 'head_dim', 'n_heads', 'BACKWARD_PASS', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'Q_row_stride', 'cos', 'cos_row_stride', 'sin', 'sin_row_stride', 'seqlen']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'Q_row_stride', 'cos', 'cos_row_stride', 'sin', 'sin_row_stride', 'seqlen']   # the arguments a launch key reads
CONSTEXPRS = {'head_dim': 128, 'n_heads': 32, 'BACKWARD_PASS': False, 'BLOCK_SIZE': 64}         # the specialisation this kernel was generated for
HEURISTICS = {'BACKWARD_PASS': "lambda args: bool(args['BACKWARD_PASS'])"}   # @triton.heuristics of the kernel: each checked per launch key
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
