"""weight_bias_backward_kernel, written by twill from its joint schedule: I=495 L=495 (optimal), 1483 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 74 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0]))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(dY, X, Mean, Rstd, dW, dB, M, N):
    pid = gl.program_id(0)
    pid_0 = pid * 8
    pid_1 = gl.arange(0, 8, layout=L0)
    pid_2 = gl.arange(0, 8, layout=L1)
    pid_3 = gl.expand_dims(pid_1, 0)
    pid_4 = gl.expand_dims(pid_2, 0)
    pid_7 = pid_0 + pid_3
    pid_8 = pid_0 + pid_4
    col_mask_10 = pid_7 < N
    col_mask_11 = pid_8 < N
    dY_13 = dY + pid_7
    X_15 = X + pid_7
    dW_17 = dW + pid_8
    dB_19 = dB + pid_8
    rows = gl.arange(0, 128, layout=L2)
    rows_20 = gl.arange(0, 128, layout=L3)
    mask = col_mask_10.broadcast_to([128, 8])
    dy_21 = dY_13.broadcast_to([128, 8])
    x = X_15.broadcast_to([128, 8])
    twill_n = (M - 0 + 128 - 1) // 128
    accW_57 = gl.full([128, 8], 0.0, gl.float32, layout=L4)
    accB_58 = gl.full([128, 8], 0.0, gl.float32, layout=L4)
    rows_26 = (0 + (0 - 0) * 128) + rows  # elementwise0_mask: stage 0, partition 0 (group 0)
    row_mask_28 = gl.expand_dims(rows_26, 1)  # elementwise0_mask: stage 0, partition 0 (group 0)
    row_mask_29 = row_mask_28 < M  # elementwise0_mask: stage 0, partition 0 (group 0)
    mask_30 = row_mask_29.broadcast_to([128, 8])  # elementwise0_mask: stage 0, partition 0 (group 0)
    mask_31 = mask_30 & mask  # elementwise0_mask: stage 0, partition 0 (group 0)
    rows_27 = (0 + (0 - 0) * 128) + rows_20  # load0_mean: stage 0, partition 0 (group 0)
    mean_40 = rows_27 < M  # load0_mean: stage 0, partition 0 (group 0)
    mean_41 = Mean + rows_27  # load0_mean: stage 0, partition 0 (group 0)
    mean_42 = gl.load(mean_41, mask=mean_40)  # load0_mean: stage 0, partition 0 (group 0)
    dy_32 = row_mask_28 * N  # load1_dy: stage 0, partition 0 (group 0)
    dy_33 = dy_32.broadcast_to([128, 8])  # load1_dy: stage 0, partition 0 (group 0)
    dy_34 = dy_21 + dy_33  # load1_dy: stage 0, partition 0 (group 0)
    dy_35 = gl.load(dy_34, mask=mask_31)  # load1_dy: stage 0, partition 0 (group 0)
    rstd_47 = Rstd + rows_27  # load3_rstd: stage 0, partition 0 (group 0)
    rstd_48 = gl.load(rstd_47, mask=mean_40)  # load3_rstd: stage 0, partition 0 (group 0)
    x_37 = x + dy_33  # load2_x: stage 0, partition 0 (group 0)
    x_38 = gl.load(x_37, mask=mask_31)  # load2_x: stage 0, partition 0 (group 0)
    accB_58_p1 = accB_58
    accW_57_p1 = accW_57
    dy_35_p1 = dy_35
    mean_42_p1 = mean_42
    rstd_48_p1 = rstd_48
    x_38_p1 = x_38
    for twill_b in range(1, twill_n):
        rows_24 = (0 + (twill_b - 0) * 128)  # elementwise0_mask: stage 0, partition 0 (group 0)
        rows_26 = rows_24 + rows  # elementwise0_mask: stage 0, partition 0 (group 0)
        row_mask_28 = gl.expand_dims(rows_26, 1)  # elementwise0_mask: stage 0, partition 0 (group 0)
        row_mask_29 = row_mask_28 < M  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_30 = row_mask_29.broadcast_to([128, 8])  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_31 = mask_30 & mask  # elementwise0_mask: stage 0, partition 0 (group 0)
        rows_25 = (0 + (twill_b - 0) * 128)  # load0_mean: stage 0, partition 0 (group 0)
        rows_27 = rows_25 + rows_20  # load0_mean: stage 0, partition 0 (group 0)
        mean_40 = rows_27 < M  # load0_mean: stage 0, partition 0 (group 0)
        mean_41 = Mean + rows_27  # load0_mean: stage 0, partition 0 (group 0)
        mean_42 = gl.load(mean_41, mask=mean_40)  # load0_mean: stage 0, partition 0 (group 0)
        mean_43 = gl.convert_layout(mean_42_p1, L5)  # convert2_mean: stage 1, partition 0 (group 0)
        mean_44 = gl.expand_dims(mean_43, 1)  # convert3_x: stage 1, partition 0 (group 0)
        x_45 = gl.convert_layout(mean_44, L4)  # convert3_x: stage 1, partition 0 (group 0)
        mean_46 = x_45.to(gl.float32)  # convert3_x: stage 1, partition 0 (group 0)
        dy_32 = row_mask_28 * N  # load1_dy: stage 0, partition 0 (group 0)
        dy_33 = dy_32.broadcast_to([128, 8])  # load1_dy: stage 0, partition 0 (group 0)
        dy_34 = dy_21 + dy_33  # load1_dy: stage 0, partition 0 (group 0)
        dy_35 = gl.load(dy_34, mask=mask_31)  # load1_dy: stage 0, partition 0 (group 0)
        dy_36 = dy_35_p1.to(gl.float32)  # convert0_dy: stage 1, partition 0 (group 0)
        accB_58 = accB_58_p1 + dy_36  # elementwise2_accB: stage 1, partition 0 (group 0)
        rstd_47 = Rstd + rows_27  # load3_rstd: stage 0, partition 0 (group 0)
        rstd_48 = gl.load(rstd_47, mask=mean_40)  # load3_rstd: stage 0, partition 0 (group 0)
        rstd_49 = gl.convert_layout(rstd_48_p1, L5)  # convert4_rstd: stage 1, partition 0 (group 0)
        rstd_50 = gl.expand_dims(rstd_49, 1)  # convert5_x_hat: stage 1, partition 0 (group 0)
        x_hat = gl.convert_layout(rstd_50, L4)  # convert5_x_hat: stage 1, partition 0 (group 0)
        rstd_51 = x_hat.to(gl.float32)  # convert5_x_hat: stage 1, partition 0 (group 0)
        x_37 = x + dy_33  # load2_x: stage 0, partition 0 (group 0)
        x_38 = gl.load(x_37, mask=mask_31)  # load2_x: stage 0, partition 0 (group 0)
        x_39 = x_38_p1.to(gl.float32)  # convert1_x: stage 1, partition 0 (group 0)
        x_52 = mean_46.broadcast_to([128, 8])  # elementwise1_x: stage 1, partition 0 (group 0)
        x_53 = x_39 - x_52  # elementwise1_x: stage 1, partition 0 (group 0)
        x_54 = gl.where(mask, x_53, 0.0)  # elementwise1_x: stage 1, partition 0 (group 0)
        x_hat_55 = rstd_51.broadcast_to([128, 8])  # elementwise1_x: stage 1, partition 0 (group 0)
        x_hat_56 = x_54 * x_hat_55  # elementwise1_x: stage 1, partition 0 (group 0)
        accW = dy_36 * x_hat_56  # elementwise1_x: stage 1, partition 0 (group 0)
        accW_57 = accW_57_p1 + accW  # elementwise1_x: stage 1, partition 0 (group 0)
        accB_58_p1 = accB_58
        accW_57_p1 = accW_57
        dy_35_p1 = dy_35
        mean_42_p1 = mean_42
        rstd_48_p1 = rstd_48
        x_38_p1 = x_38
    mean_43 = gl.convert_layout(mean_42_p1, L5)  # convert2_mean: stage 1, partition 0 (group 0)
    mean_44 = gl.expand_dims(mean_43, 1)  # convert3_x: stage 1, partition 0 (group 0)
    x_45 = gl.convert_layout(mean_44, L4)  # convert3_x: stage 1, partition 0 (group 0)
    mean_46 = x_45.to(gl.float32)  # convert3_x: stage 1, partition 0 (group 0)
    dy_36 = dy_35_p1.to(gl.float32)  # convert0_dy: stage 1, partition 0 (group 0)
    accB_58 = accB_58_p1 + dy_36  # elementwise2_accB: stage 1, partition 0 (group 0)
    rstd_49 = gl.convert_layout(rstd_48_p1, L5)  # convert4_rstd: stage 1, partition 0 (group 0)
    rstd_50 = gl.expand_dims(rstd_49, 1)  # convert5_x_hat: stage 1, partition 0 (group 0)
    x_hat = gl.convert_layout(rstd_50, L4)  # convert5_x_hat: stage 1, partition 0 (group 0)
    rstd_51 = x_hat.to(gl.float32)  # convert5_x_hat: stage 1, partition 0 (group 0)
    x_39 = x_38_p1.to(gl.float32)  # convert1_x: stage 1, partition 0 (group 0)
    x_52 = mean_46.broadcast_to([128, 8])  # elementwise1_x: stage 1, partition 0 (group 0)
    x_53 = x_39 - x_52  # elementwise1_x: stage 1, partition 0 (group 0)
    x_54 = gl.where(mask, x_53, 0.0)  # elementwise1_x: stage 1, partition 0 (group 0)
    x_hat_55 = rstd_51.broadcast_to([128, 8])  # elementwise1_x: stage 1, partition 0 (group 0)
    x_hat_56 = x_54 * x_hat_55  # elementwise1_x: stage 1, partition 0 (group 0)
    accW = dy_36 * x_hat_56  # elementwise1_x: stage 1, partition 0 (group 0)
    accW_57 = accW_57_p1 + accW  # elementwise1_x: stage 1, partition 0 (group 0)
    accB_58_p1 = accB_58
    accW_57_p1 = accW_57
    dy_35_p1 = dy_35
    mean_42_p1 = mean_42
    rstd_48_p1 = rstd_48
    x_38_p1 = x_38
    dw = gl.sum(accW_57_p1, axis=0)
    db = gl.sum(accB_58_p1, axis=0)
    v0 = gl.convert_layout(dw, L1)
    v1 = gl.expand_dims(v0, 0)
    v2 = v1.to(gl.bfloat16)
    gl.store(dW_17, v2, mask=col_mask_11)
    v3 = gl.convert_layout(db, L1)
    v4 = gl.expand_dims(v3, 0)
    v5 = v4.to(gl.bfloat16)
    gl.store(dB_19, v5, mask=col_mask_11)

@gluon.jit
def twill_kernel(dY, X, Mean, Rstd, dW, dB, M, N):
    consumer_0(dY, X, Mean, Rstd, dW, dB, M, N, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['dY', 'X', 'Mean', 'Rstd', 'dW', 'dB', 'M', 'N', 'BLOCK_ROW_SIZE', 'BLOCK_COL_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['dY', 'X', 'Mean', 'Rstd', 'dW', 'dB', 'M', 'N']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['dY', 'X', 'Mean', 'Rstd', 'dW', 'dB', 'M', 'N']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_ROW_SIZE': 128, 'BLOCK_COL_SIZE': 8}         # the specialisation this kernel was generated for
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
    trips = _ev('(M + 128 - 1) // 128', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((M + 128 - 1) // 128): run the Triton kernel for it")
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
