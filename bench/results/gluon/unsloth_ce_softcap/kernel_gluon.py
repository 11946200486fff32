"""_looped_cross_entropy_forward, written by twill from its joint schedule: I=145 L=145 (optimal), 28789 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 32 warps, registers as ptxas allocates them (the schedule's tiles need about 136 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- if at unsloth_ce_softcap.py:95 (TTGIR line 75): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.extra import libdevice

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[32], order=[0]))

@gluon.jit
def consumer_0(logits_ptr, logits_row_stride, loss_ptr, logsumexp_ptr, labels_ptr, VOCAB_SIZE, SOFTCAP, LOGIT_SCALE):
    row_idx = gl.program_id(0)
    logits_ptr_2 = gl.cast(logits_row_stride, gl.int64)
    logits_ptr_3 = gl.cast(row_idx, gl.int64)
    logits_ptr_4 = logits_ptr_3 * logits_ptr_2
    logits_ptr_5 = logits_ptr + logits_ptr_4
    loss_ptr_6 = loss_ptr + row_idx
    logsumexp_ptr_7 = logsumexp_ptr + row_idx
    labels_ptr_8 = labels_ptr + row_idx
    label_idx = gl.load(labels_ptr_8)
    label_idx_9 = gl.cast(label_idx, gl.int32)
    col_offsets = gl.arange(0, 65536, layout=L0)
    twill_n = (VOCAB_SIZE - 0 + 65536 - 1) // 65536
    c_24 = float("-inf")
    d_32 = 0.0
    c_24_p1 = c_24
    d_32_p1 = d_32
    for twill_b in range(0, twill_n):
        col_offsets_14 = (0 + (twill_b - 0) * 65536)  # load0_logits: stage 0, partition 0 (group 0)
        col_offsets_15 = col_offsets_14 + col_offsets  # load0_logits: stage 0, partition 0 (group 0)
        mask_16 = col_offsets_15 < VOCAB_SIZE  # load0_logits: stage 0, partition 0 (group 0)
        logits_17 = logits_ptr_5 + col_offsets_15  # load0_logits: stage 0, partition 0 (group 0)
        logits_18 = gl.load(logits_17, mask=mask_16, other=float("-inf"))  # load0_logits: stage 0, partition 0 (group 0)
        logits_19 = logits_18.to(gl.float32)  # convert0_logits: stage 0, partition 0 (group 0)
        logits_20 = LOGIT_SCALE * logits_19  # elementwise0_logits: stage 0, partition 0 (group 0)
        logits_21 = logits_20 / SOFTCAP  # elementwise0_logits: stage 0, partition 0 (group 0)
        logits_22 = libdevice.tanh(logits_21)  # elementwise0_logits: stage 0, partition 0 (group 0)
        logits_23 = SOFTCAP * logits_22  # elementwise0_logits: stage 0, partition 0 (group 0)
        c = gl.max(logits_23, axis=0)  # reduce0_c: stage 0, partition 0 (group 0)
        c_24 = gl.maximum(c_24_p1, c)  # elementwise1_c: stage 0, partition 0 (group 0)
        d_25 = c_24_p1 - c_24  # sfu0_d: stage 0, partition 0 (group 0)
        d_26 = gl.exp(d_25)  # sfu0_d: stage 0, partition 0 (group 0)
        d_28 = c_24  # sfu1_d: stage 0, partition 0 (group 0)
        d_29 = logits_23 - d_28  # sfu1_d: stage 0, partition 0 (group 0)
        d_30 = gl.exp(d_29)  # sfu1_d: stage 0, partition 0 (group 0)
        d_31 = gl.sum(d_30, axis=0)  # reduce1_d: stage 0, partition 0 (group 0)
        d_27 = d_32_p1 * d_26  # elementwise2_d: stage 0, partition 0 (group 0)
        d_32 = d_27 + d_31  # elementwise2_d: stage 0, partition 0 (group 0)
        c_24_p1 = c_24
        d_32_p1 = d_32
    logsumexp = gl.log(d_32_p1)
    logsumexp_12 = c_24_p1 + logsumexp
    v0 = label_idx_9 != -100
    if v0:
        x = logits_ptr_5 + label_idx_9
        x_13 = gl.load(x)
        x_14 = gl.cast(x_13, gl.float32)
        x_15 = LOGIT_SCALE * x_14
        x_16 = x_15 / SOFTCAP
        x_17 = libdevice.tanh(x_16)
        x_18 = SOFTCAP * x_17
        loss = logsumexp_12 - x_18
        v1 = loss
    else:
        v1 = gl.to_tensor(0.0)
    gl.store(logsumexp_ptr_7, logsumexp_12)
    gl.store(loss_ptr_6, v1)

@gluon.jit
def twill_kernel(logits_ptr, logits_row_stride, loss_ptr, logsumexp_ptr, labels_ptr, VOCAB_SIZE, SOFTCAP, LOGIT_SCALE):
    consumer_0(logits_ptr, logits_row_stride, loss_ptr, logsumexp_ptr, labels_ptr, VOCAB_SIZE, SOFTCAP, LOGIT_SCALE, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['logits_ptr', 'logits_row_stride', 'loss_ptr', 'logsumexp_ptr', 'labels_ptr', 'VOCAB_SIZE', 'BLOCK_SIZE', 'DO_SOFTCAPPING', 'SOFTCAP', 'DO_LOGIT_SCALING', 'LOGIT_SCALE']          # the Triton kernel's parameters, in order
RUNTIME = ['logits_ptr', 'logits_row_stride', 'loss_ptr', 'logsumexp_ptr', 'labels_ptr', 'VOCAB_SIZE', 'SOFTCAP', 'LOGIT_SCALE']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['logits_ptr', 'logits_row_stride', 'loss_ptr', 'logsumexp_ptr', 'labels_ptr', 'VOCAB_SIZE', 'SOFTCAP', 'LOGIT_SCALE']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_SIZE': 65536, 'DO_SOFTCAPPING': True, 'DO_LOGIT_SCALING': True}         # the specialisation this kernel was generated for
HEURISTICS = {'DO_SOFTCAPPING': "lambda args: bool(args['DO_SOFTCAPPING'])", 'DO_LOGIT_SCALING': "lambda args: bool(args['DO_LOGIT_SCALING'])"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
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
