"""layer_norm_bwd_dx_part_dwdb, written by twill from its joint schedule: I=300 L=300 (optimal), 760 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 400).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 52 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at apex_ln_bwd_dgamma_partials.py:35 (TTGIR line 43) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=320, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0(X, DY, DX, W, Mean, Rstd, PartDW, PartDB, stride, N):
    twill_base = 0
    row = gl.program_id(0)
    X_1 = row * stride
    X_2 = X + X_1
    DY_3 = DY + X_1
    DX_4 = DX + X_1
    mean = Mean + row
    mean_5 = gl.load(mean)
    rstd = Rstd + row
    rstd_6 = gl.load(rstd)
    cols = gl.arange(0, 1024, layout=L0)
    twill_n = (N - 0 + 1024 - 1) // 1024
    c1_acc_35 = gl.full([1024], 0.0, gl.float32, layout=L0)
    c2_acc_36 = gl.full([1024], 0.0, gl.float32, layout=L0)
    cols_22 = (0 + (0 - 0) * 1024) + cols  # load0_x: stage 0, partition 0 (group 0)
    mask_23 = cols_22 < N  # load0_x: stage 0, partition 0 (group 0)
    dy_27_l0 = DY_3 + cols_22  # load1_dy: stage 0, partition 0 (group 0)
    dy_28_l0 = gl.load(dy_27_l0, mask=mask_23, other=0.0)  # load1_dy: stage 0, partition 0 (group 0)
    x_24_l0 = X_2 + cols_22  # load0_x: stage 0, partition 0 (group 0)
    x_25_l0 = gl.load(x_24_l0, mask=mask_23, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    w_30_l0 = W + cols_22  # load2_w: stage 0, partition 0 (group 0)
    w_31 = gl.load(w_30_l0, mask=mask_23, other=0.0)  # load2_w: stage 0, partition 0 (group 0)
    c1_acc_35_p1 = c1_acc_35
    c2_acc_36_p1 = c2_acc_36
    dy_28_l0_p1 = dy_28_l0
    mask_23_p1 = mask_23
    w_31_p1 = w_31
    x_25_l0_p1 = x_25_l0
    for twill_b in range(1, twill_n):
        cols_21_l0 = (0 + (twill_b - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
        cols_22 = cols_21_l0 + cols  # load0_x: stage 0, partition 0 (group 0)
        mask_23 = cols_22 < N  # load0_x: stage 0, partition 0 (group 0)
        dy_27_l0 = DY_3 + cols_22  # load1_dy: stage 0, partition 0 (group 0)
        dy_28_l0 = gl.load(dy_27_l0, mask=mask_23, other=0.0)  # load1_dy: stage 0, partition 0 (group 0)
        dy_29 = dy_28_l0_p1.to(gl.float32)  # convert1_dy: stage 1, partition 0 (group 0)
        x_24_l0 = X_2 + cols_22  # load0_x: stage 0, partition 0 (group 0)
        x_25_l0 = gl.load(x_24_l0, mask=mask_23, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_26 = x_25_l0_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        w_30_l0 = W + cols_22  # load2_w: stage 0, partition 0 (group 0)
        w_31 = gl.load(w_30_l0, mask=mask_23, other=0.0)  # load2_w: stage 0, partition 0 (group 0)
        wdy = w_31_p1 * dy_29  # elementwise1_wdy: stage 1, partition 0 (group 0)
        xhat_32_l0 = x_26 - mean_5  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_33_l0 = xhat_32_l0 * rstd_6  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_34 = gl.where(mask_23_p1, xhat_33_l0, 0.0)  # elementwise0_xhat: stage 1, partition 0 (group 0)
        c1_acc = xhat_34 * wdy  # elementwise0_xhat: stage 1, partition 0 (group 0)
        c1_acc_35 = c1_acc_35_p1 + c1_acc  # elementwise0_xhat: stage 1, partition 0 (group 0)
        c2_acc_36 = c2_acc_36_p1 + wdy  # elementwise2_c2_acc: stage 1, partition 0 (group 0)
        c1_acc_35_p1 = c1_acc_35
        c2_acc_36_p1 = c2_acc_36
        dy_28_l0_p1 = dy_28_l0
        mask_23_p1 = mask_23
        w_31_p1 = w_31
        x_25_l0_p1 = x_25_l0
    dy_29 = dy_28_l0_p1.to(gl.float32)  # convert1_dy: stage 1, partition 0 (group 0)
    x_26 = x_25_l0_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
    wdy = w_31_p1 * dy_29  # elementwise1_wdy: stage 1, partition 0 (group 0)
    xhat_32_l0 = x_26 - mean_5  # elementwise0_xhat: stage 1, partition 0 (group 0)
    xhat_33_l0 = xhat_32_l0 * rstd_6  # elementwise0_xhat: stage 1, partition 0 (group 0)
    xhat_34 = gl.where(mask_23_p1, xhat_33_l0, 0.0)  # elementwise0_xhat: stage 1, partition 0 (group 0)
    c1_acc = xhat_34 * wdy  # elementwise0_xhat: stage 1, partition 0 (group 0)
    c1_acc_35 = c1_acc_35_p1 + c1_acc  # elementwise0_xhat: stage 1, partition 0 (group 0)
    c2_acc_36 = c2_acc_36_p1 + wdy  # elementwise2_c2_acc: stage 1, partition 0 (group 0)
    c1_acc_35_p1 = c1_acc_35
    c2_acc_36_p1 = c2_acc_36
    dy_28_l0_p1 = dy_28_l0
    mask_23_p1 = mask_23
    w_31_p1 = w_31
    x_25_l0_p1 = x_25_l0
    twill_base += twill_n
    c1 = gl.sum(c1_acc_35_p1, axis=0)
    c1_8 = gl.cast(N, gl.float32)
    c1_9 = c1 / c1_8
    c2 = gl.sum(c2_acc_36_p1, axis=0)
    c2_10 = c2 / c1_8
    part = row % 64
    part_11 = part * N
    cols_12 = gl.arange(0, 1024, layout=L0)
    v1 = PartDW + part_11
    v3 = PartDB + part_11
    twill_n = (N - 0 + 1024 - 1) // 1024
    cols_21 = (0 + (0 - 0) * 1024) + cols_12  # load0_x: stage 0, partition 0 (group 0)
    mask_22 = cols_21 < N  # load0_x: stage 0, partition 0 (group 0)
    dy_26 = DY_3 + cols_21  # load1_dy: stage 0, partition 0 (group 0)
    dy_27 = gl.load(dy_26, mask=mask_22, other=0.0)  # load1_dy: stage 0, partition 0 (group 0)
    x_23 = X_2 + cols_21  # load0_x: stage 0, partition 0 (group 0)
    x_24 = gl.load(x_23, mask=mask_22, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    w_29 = W + cols_21  # load2_w: stage 0, partition 0 (group 0)
    w_30 = gl.load(w_29, mask=mask_22, other=0.0)  # load2_w: stage 0, partition 0 (group 0)
    cols_21_p1 = cols_21
    dy_27_p1 = dy_27
    mask_22_p1 = mask_22
    w_30_p1 = w_30
    x_24_p1 = x_24
    for twill_b in range(1, twill_n):
        cols_20 = (0 + (twill_b - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
        cols_21 = cols_20 + cols_12  # load0_x: stage 0, partition 0 (group 0)
        mask_22 = cols_21 < N  # load0_x: stage 0, partition 0 (group 0)
        dy_26 = DY_3 + cols_21  # load1_dy: stage 0, partition 0 (group 0)
        dy_27 = gl.load(dy_26, mask=mask_22, other=0.0)  # load1_dy: stage 0, partition 0 (group 0)
        dy_28 = dy_27_p1.to(gl.float32)  # convert1_dy: stage 1, partition 0 (group 0)
        x_23 = X_2 + cols_21  # load0_x: stage 0, partition 0 (group 0)
        x_24 = gl.load(x_23, mask=mask_22, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_25 = x_24_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        xhat_31 = x_25 - mean_5  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_32 = xhat_31 * rstd_6  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_33 = gl.where(mask_22_p1, xhat_32, 0.0)  # elementwise0_xhat: stage 1, partition 0 (group 0)
        v8 = dy_28 * xhat_33  # elementwise2: stage 1, partition 0 (group 0)
        w_29 = W + cols_21  # load2_w: stage 0, partition 0 (group 0)
        w_30 = gl.load(w_29, mask=mask_22, other=0.0)  # load2_w: stage 0, partition 0 (group 0)
        dx_34 = w_30_p1 * dy_28  # elementwise1_dx: stage 1, partition 0 (group 0)
        dx_35 = xhat_33 * c1_9  # elementwise1_dx: stage 1, partition 0 (group 0)
        dx_36 = dx_35 + c2_10  # elementwise1_dx: stage 1, partition 0 (group 0)
        dx_37 = dx_34 - dx_36  # elementwise1_dx: stage 1, partition 0 (group 0)
        dx_38 = dx_37 * rstd_6  # elementwise1_dx: stage 1, partition 0 (group 0)
        v7 = v1 + cols_21_p1  # store1: stage 1, partition 0 (group 0)
        v9 = gl.atomic_add(v7, v8, mask=mask_22_p1, sem='acq_rel', scope='gpu')  # store1: stage 1, partition 0 (group 0)
        v6 = dx_38.to(gl.float16)  # convert2: stage 1, partition 0 (group 0)
        v5 = DX_4 + cols_21_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v5, v6, mask=mask_22_p1)  # store0: stage 1, partition 0 (group 0)
        v10 = v3 + cols_21_p1  # store2: stage 1, partition 0 (group 0)
        v11 = gl.atomic_add(v10, dy_28, mask=mask_22_p1, sem='acq_rel', scope='gpu')  # store2: stage 1, partition 0 (group 0)
        cols_21_p1 = cols_21
        dy_27_p1 = dy_27
        mask_22_p1 = mask_22
        w_30_p1 = w_30
        x_24_p1 = x_24
    dy_28 = dy_27_p1.to(gl.float32)  # convert1_dy: stage 1, partition 0 (group 0)
    x_25 = x_24_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
    xhat_31 = x_25 - mean_5  # elementwise0_xhat: stage 1, partition 0 (group 0)
    xhat_32 = xhat_31 * rstd_6  # elementwise0_xhat: stage 1, partition 0 (group 0)
    xhat_33 = gl.where(mask_22_p1, xhat_32, 0.0)  # elementwise0_xhat: stage 1, partition 0 (group 0)
    v8 = dy_28 * xhat_33  # elementwise2: stage 1, partition 0 (group 0)
    dx_34 = w_30_p1 * dy_28  # elementwise1_dx: stage 1, partition 0 (group 0)
    dx_35 = xhat_33 * c1_9  # elementwise1_dx: stage 1, partition 0 (group 0)
    dx_36 = dx_35 + c2_10  # elementwise1_dx: stage 1, partition 0 (group 0)
    dx_37 = dx_34 - dx_36  # elementwise1_dx: stage 1, partition 0 (group 0)
    dx_38 = dx_37 * rstd_6  # elementwise1_dx: stage 1, partition 0 (group 0)
    v7 = v1 + cols_21_p1  # store1: stage 1, partition 0 (group 0)
    v9 = gl.atomic_add(v7, v8, mask=mask_22_p1, sem='acq_rel', scope='gpu')  # store1: stage 1, partition 0 (group 0)
    v6 = dx_38.to(gl.float16)  # convert2: stage 1, partition 0 (group 0)
    v5 = DX_4 + cols_21_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v5, v6, mask=mask_22_p1)  # store0: stage 1, partition 0 (group 0)
    v10 = v3 + cols_21_p1  # store2: stage 1, partition 0 (group 0)
    v11 = gl.atomic_add(v10, dy_28, mask=mask_22_p1, sem='acq_rel', scope='gpu')  # store2: stage 1, partition 0 (group 0)
    cols_21_p1 = cols_21
    dy_27_p1 = dy_27
    mask_22_p1 = mask_22
    w_30_p1 = w_30
    x_24_p1 = x_24

@gluon.jit
def twill_kernel(X, DY, DX, W, Mean, Rstd, PartDW, PartDB, stride, N):
    consumer_0(X, DY, DX, W, Mean, Rstd, PartDW, PartDB, stride, N, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'DY', 'DX', 'W', 'Mean', 'Rstd', 'PartDW', 'PartDB', 'stride', 'N', 'GROUP_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'DY', 'DX', 'W', 'Mean', 'Rstd', 'PartDW', 'PartDB', 'stride', 'N']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X', 'DY', 'DX', 'W', 'Mean', 'Rstd', 'PartDW', 'PartDB', 'stride', 'N']   # the arguments a launch key reads
CONSTEXPRS = {'GROUP_M': 64, 'BLOCK_N': 1024}         # the specialisation this kernel was generated for
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
    trips = _ev('(N + 1024 - 1) // 1024', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((N + 1024 - 1) // 1024): run the Triton kernel for it")
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
