"""chunk_hgrn_fwd_kernel_o, written by twill from its joint schedule: I=261 L=261 (optimal), 4131 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 178 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))

@gluon.jit
def consumer_0(gc, o, s_b, s_t, T):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    o_d = v0 * 64
    o_d_3 = gl.arange(0, 64, layout=L0)
    o_d_5 = o_d + o_d_3
    mask_6 = o_d_5 < 2048
    v2 = T + 127
    v3 = v2 // 128
    p_gc = gl.cast(v1, gl.int64)
    p_gc_7 = gl.cast(s_b, gl.int64)
    p_gc_8 = p_gc * p_gc_7
    p_gc_9 = gc + p_gc_8
    p_gc_10 = gl.cast(T, gl.int64)
    p_gc_11 = gl.cast(s_t, gl.int64)
    p_gc_12 = gl.cast(o_d, gl.int64)
    p_o = o + p_gc_8
    b_h0 = p_gc * p_gc_10
    b_h0_13 = b_h0 * 2048
    b_h0_14 = o + b_h0_13
    b_gc_15 = gl.arange(0, 128, layout=L1)
    b_gc_16 = b_gc_15.to(gl.int64)
    b_gc_19 = o_d_3.to(gl.int64)
    b_gc_20 = p_gc_12 + b_gc_19
    b_gc_21 = gl.expand_dims(b_gc_20, 0)
    b_gc_22 = b_gc_21.broadcast_to([128, 64])
    b_gc_24 = b_gc_21 >= 0
    b_gc_25 = b_gc_21 < 2048
    b_gc_26 = b_gc_24 & b_gc_25
    b_gc_27 = b_gc_26.broadcast_to([128, 64])
    twill_n = gl.maximum((v3 - 1 + 1 - 1) // 1, 0)
    for twill_b in range(0, twill_n):
        b_h0_30 = (1 + (twill_b - 0) * 1) * 262144  # load1_b_h0: stage 0, partition 0 (group 0)
        p_gc_28 = (1 + (twill_b - 0) * 1) * 128  # load0_b_gc: stage 0, partition 0 (group 0)
        b_h0_31 = b_h0_14 + b_h0_30  # load1_b_h0: stage 0, partition 0 (group 0)
        p_gc_29 = gl.cast(p_gc_28, gl.int64)  # load0_b_gc: stage 0, partition 0 (group 0)
        b_h0_32 = b_h0_31 + -2048  # load1_b_h0: stage 0, partition 0 (group 0)
        b_gc_36 = p_gc_29  # load0_b_gc: stage 0, partition 0 (group 0)
        b_h0_33 = b_h0_32  # load1_b_h0: stage 0, partition 0 (group 0)
        b_gc_37 = b_gc_36 + b_gc_16  # load0_b_gc: stage 0, partition 0 (group 0)
        b_h0_34 = b_h0_33 + o_d_5  # load1_b_h0: stage 0, partition 0 (group 0)
        b_gc_38 = gl.expand_dims(b_gc_37, 1)  # load0_b_gc: stage 0, partition 0 (group 0)
        gl.thread_barrier()
        b_h0_35 = gl.load(b_h0_34, mask=mask_6, other=0.0)  # load1_b_h0: stage 0, partition 0 (group 0)
        b_gc_43 = b_gc_38 >= 0  # elementwise0_b_gc: stage 0, partition 0 (group 0)
        b_gc_44 = b_gc_38 < p_gc_10  # elementwise0_b_gc: stage 0, partition 0 (group 0)
        b_gc_45 = b_gc_43 & b_gc_44  # elementwise0_b_gc: stage 0, partition 0 (group 0)
        b_gc_46 = b_gc_45.broadcast_to([128, 64])  # elementwise1_b_gc: stage 0, partition 0 (group 0)
        b_gc_47 = b_gc_46 & b_gc_27  # elementwise1_b_gc: stage 0, partition 0 (group 0)
        b_gc_39 = b_gc_38 * p_gc_11  # load0_b_gc: stage 0, partition 0 (group 0)
        b_gc_40 = b_gc_39.broadcast_to([128, 64])  # load0_b_gc: stage 0, partition 0 (group 0)
        b_gc_41 = b_gc_40 + b_gc_22  # load0_b_gc: stage 0, partition 0 (group 0)
        b_o_49 = p_o + b_gc_41  # load2_b_o: stage 0, partition 0 (group 0)
        gl.thread_barrier()
        b_o_50 = gl.load(b_o_49, mask=b_gc_47)  # load2_b_o: stage 0, partition 0 (group 0)
        b_gc_42 = p_gc_9 + b_gc_41  # load0_b_gc: stage 0, partition 0 (group 0)
        b_gc_48 = gl.load(b_gc_42, mask=b_gc_47)  # load0_b_gc: stage 0, partition 0 (group 0)
        b_o_51 = gl.exp(b_gc_48)  # sfu0_b_o: stage 0, partition 0 (group 0)
        b_o_52 = gl.expand_dims(b_h0_35, 0)  # elementwise2_b_o: stage 0, partition 0 (group 0)
        b_o_53 = b_o_52.broadcast_to([128, 64])  # elementwise2_b_o: stage 0, partition 0 (group 0)
        b_o_54 = b_o_51 * b_o_53  # elementwise2_b_o: stage 0, partition 0 (group 0)
        b_o_55 = b_o_50 + b_o_54  # elementwise2_b_o: stage 0, partition 0 (group 0)
        gl.store(b_o_49, b_o_55, mask=b_gc_47)  # store0: stage 0, partition 0 (group 0)

@gluon.jit
def twill_kernel(gc, o, s_b, s_t, T):
    consumer_0(gc, o, s_b, s_t, T, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['gc', 'o', 's_b', 's_t', 's_d', 'T', 'D', 'BT', 'BD']          # the Triton kernel's parameters, in order
RUNTIME = ['gc', 'o', 's_b', 's_t', 'T']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['gc', 'o', 's_b', 's_t', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'s_d': 1, 'D': 2048, 'BT': 128, 'BD': 64}         # the specialisation this kernel was generated for
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
