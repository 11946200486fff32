"""rms_norm_bwd, written by twill from its joint schedule: I=177 L=273 (optimal), 680 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 177).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 92 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(dY, X, W, RSTD, dX, dW, stride, n_rows, n_cols, rows_per_program):
    pid = gl.program_id(0)
    row_start = pid * rows_per_program
    row_end = row_start + rows_per_program
    row_end_2 = gl.minimum(row_end, n_rows)
    cols = gl.arange(0, 1024, layout=L0)
    cols_3 = gl.arange(0, 1024, layout=L1)
    mask_5 = cols < n_cols
    mask_6 = cols_3 < n_cols
    w_7 = W + cols
    w_8 = gl.load(w_7, mask=mask_5, other=0.0)
    w_9 = w_8.to(gl.float32)
    dx = gl.cast(n_cols, gl.float32)
    dx_10 = 1.0 / dx
    dx_11 = 0.0 - dx_10
    twill_n = gl.maximum((row_end_2 - row_start + 1 - 1) // 1, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        dy = (row_start + (0 - 0) * 1) * stride  # load0_dy: stage 0, partition 0 (group 0)
        dy_15 = dY + dy  # load0_dy: stage 0, partition 0 (group 0)
        dy_16 = dy_15  # load0_dy: stage 0, partition 0 (group 0)
        dy_17 = dy_16 + cols  # load0_dy: stage 0, partition 0 (group 0)
        dy_18 = gl.load(dy_17, mask=mask_5, other=0.0)  # load0_dy: stage 0, partition 0 (group 0)
        x = X + dy  # load1_x: stage 0, partition 0 (group 0)
        x_20 = x  # load1_x: stage 0, partition 0 (group 0)
        x_21 = x_20 + cols  # load1_x: stage 0, partition 0 (group 0)
        x_22 = gl.load(x_21, mask=mask_5, other=0.0)  # load1_x: stage 0, partition 0 (group 0)
        dy_p1 = dy
        dy_18_p1 = dy_18
        x_22_p1 = x_22
        dw_38 = gl.full([1024], 0.0, gl.float32, layout=L0)
        rstd = RSTD + (row_start + (1 - 1) * 1)  # load2_rstd: stage 1, partition 0 (group 0)
        rstd_24 = gl.load(rstd)  # load2_rstd: stage 1, partition 0 (group 0)
        dy = (row_start + (1 - 0) * 1) * stride  # load0_dy: stage 0, partition 0 (group 0)
        dy_15 = dY + dy  # load0_dy: stage 0, partition 0 (group 0)
        dy_16 = dy_15  # load0_dy: stage 0, partition 0 (group 0)
        dy_17 = dy_16 + cols  # load0_dy: stage 0, partition 0 (group 0)
        dy_18 = gl.load(dy_17, mask=mask_5, other=0.0)  # load0_dy: stage 0, partition 0 (group 0)
        dy_19 = dy_18_p1.to(gl.float32)  # convert0_dy: stage 1, partition 0 (group 0)
        m = dy_19 * w_9  # elementwise0_m: stage 1, partition 0 (group 0)
        x = X + dy  # load1_x: stage 0, partition 0 (group 0)
        x_20 = x  # load1_x: stage 0, partition 0 (group 0)
        x_21 = x_20 + cols  # load1_x: stage 0, partition 0 (group 0)
        x_22 = gl.load(x_21, mask=mask_5, other=0.0)  # load1_x: stage 0, partition 0 (group 0)
        x_23 = x_22_p1.to(gl.float32)  # convert1_x: stage 1, partition 0 (group 0)
        dx_29 = m * x_23  # elementwise3_dx: stage 1, partition 0 (group 0)
        dx_30 = gl.sum(dx_29, axis=0)  # reduce0_dx: stage 1, partition 0 (group 0)
        dw_38_p1 = dw_38
        dx_30_p1 = dx_30
        dy_p2 = dy_p1
        dy_p1 = dy
        dy_18_p1 = dy_18
        dy_19_p1 = dy_19
        m_p1 = m
        rstd_24_p1 = rstd_24
        x_22_p1 = x_22
        x_23_p1 = x_23
        for twill_b in range(2, twill_n):
            rstd = RSTD + (row_start + (twill_b - 1) * 1)  # load2_rstd: stage 1, partition 0 (group 0)
            rstd_24 = gl.load(rstd)  # load2_rstd: stage 1, partition 0 (group 0)
            dx_27 = dx_11 * rstd_24_p1  # elementwise2_dx: stage 2, partition 0 (group 0)
            dx_28 = dx_27 * rstd_24_p1  # elementwise2_dx: stage 2, partition 0 (group 0)
            dx_31 = dx_28 * dx_30_p1  # elementwise2_dx: stage 2, partition 0 (group 0)
            dx_25 = rstd_24_p1  # elementwise1_dx: stage 2, partition 0 (group 0)
            dx_26 = dx_25 * m_p1  # elementwise1_dx: stage 2, partition 0 (group 0)
            dx_32 = dx_31  # elementwise1_dx: stage 2, partition 0 (group 0)
            dx_33 = dx_32 * x_23_p1  # elementwise1_dx: stage 2, partition 0 (group 0)
            dx_34 = dx_25 * dx_33  # elementwise1_dx: stage 2, partition 0 (group 0)
            dx_35 = dx_26 + dx_34  # elementwise1_dx: stage 2, partition 0 (group 0)
            dy = (row_start + (twill_b - 0) * 1) * stride  # load0_dy: stage 0, partition 0 (group 0)
            dy_15 = dY + dy  # load0_dy: stage 0, partition 0 (group 0)
            dy_16 = dy_15  # load0_dy: stage 0, partition 0 (group 0)
            dy_17 = dy_16 + cols  # load0_dy: stage 0, partition 0 (group 0)
            dy_18 = gl.load(dy_17, mask=mask_5, other=0.0)  # load0_dy: stage 0, partition 0 (group 0)
            dy_19 = dy_18_p1.to(gl.float32)  # convert0_dy: stage 1, partition 0 (group 0)
            v8 = dx_35.to(gl.float16)  # convert2: stage 2, partition 0 (group 0)
            dw_36 = x_23_p1 * dx_25  # elementwise4_dw: stage 2, partition 0 (group 0)
            dw_37 = dy_19_p1 * dw_36  # elementwise4_dw: stage 2, partition 0 (group 0)
            dw_38 = dw_38_p1 + dw_37  # elementwise4_dw: stage 2, partition 0 (group 0)
            m = dy_19 * w_9  # elementwise0_m: stage 1, partition 0 (group 0)
            v5 = dX + dy_p2  # store0: stage 2, partition 0 (group 0)
            v6 = v5  # store0: stage 2, partition 0 (group 0)
            v7 = v6 + cols  # store0: stage 2, partition 0 (group 0)
            gl.store(v7, v8, mask=mask_5)  # store0: stage 2, partition 0 (group 0)
            x = X + dy  # load1_x: stage 0, partition 0 (group 0)
            x_20 = x  # load1_x: stage 0, partition 0 (group 0)
            x_21 = x_20 + cols  # load1_x: stage 0, partition 0 (group 0)
            x_22 = gl.load(x_21, mask=mask_5, other=0.0)  # load1_x: stage 0, partition 0 (group 0)
            x_23 = x_22_p1.to(gl.float32)  # convert1_x: stage 1, partition 0 (group 0)
            dx_29 = m * x_23  # elementwise3_dx: stage 1, partition 0 (group 0)
            dx_30 = gl.sum(dx_29, axis=0)  # reduce0_dx: stage 1, partition 0 (group 0)
            dw_38_p1 = dw_38
            dx_30_p1 = dx_30
            dy_p2 = dy_p1
            dy_p1 = dy
            dy_18_p1 = dy_18
            dy_19_p1 = dy_19
            m_p1 = m
            rstd_24_p1 = rstd_24
            x_22_p1 = x_22
            x_23_p1 = x_23
        rstd = RSTD + (row_start + ((twill_n - 1 + 1) - 1) * 1)  # load2_rstd: stage 1, partition 0 (group 0)
        rstd_24 = gl.load(rstd)  # load2_rstd: stage 1, partition 0 (group 0)
        dx_27 = dx_11 * rstd_24_p1  # elementwise2_dx: stage 2, partition 0 (group 0)
        dx_28 = dx_27 * rstd_24_p1  # elementwise2_dx: stage 2, partition 0 (group 0)
        dx_31 = dx_28 * dx_30_p1  # elementwise2_dx: stage 2, partition 0 (group 0)
        dx_25 = rstd_24_p1  # elementwise1_dx: stage 2, partition 0 (group 0)
        dx_26 = dx_25 * m_p1  # elementwise1_dx: stage 2, partition 0 (group 0)
        dx_32 = dx_31  # elementwise1_dx: stage 2, partition 0 (group 0)
        dx_33 = dx_32 * x_23_p1  # elementwise1_dx: stage 2, partition 0 (group 0)
        dx_34 = dx_25 * dx_33  # elementwise1_dx: stage 2, partition 0 (group 0)
        dx_35 = dx_26 + dx_34  # elementwise1_dx: stage 2, partition 0 (group 0)
        dy_19 = dy_18_p1.to(gl.float32)  # convert0_dy: stage 1, partition 0 (group 0)
        v8 = dx_35.to(gl.float16)  # convert2: stage 2, partition 0 (group 0)
        dw_36 = x_23_p1 * dx_25  # elementwise4_dw: stage 2, partition 0 (group 0)
        dw_37 = dy_19_p1 * dw_36  # elementwise4_dw: stage 2, partition 0 (group 0)
        dw_38 = dw_38_p1 + dw_37  # elementwise4_dw: stage 2, partition 0 (group 0)
        m = dy_19 * w_9  # elementwise0_m: stage 1, partition 0 (group 0)
        v5 = dX + dy_p2  # store0: stage 2, partition 0 (group 0)
        v6 = v5  # store0: stage 2, partition 0 (group 0)
        v7 = v6 + cols  # store0: stage 2, partition 0 (group 0)
        gl.store(v7, v8, mask=mask_5)  # store0: stage 2, partition 0 (group 0)
        x_23 = x_22_p1.to(gl.float32)  # convert1_x: stage 1, partition 0 (group 0)
        dx_29 = m * x_23  # elementwise3_dx: stage 1, partition 0 (group 0)
        dx_30 = gl.sum(dx_29, axis=0)  # reduce0_dx: stage 1, partition 0 (group 0)
        dw_38_p1 = dw_38
        dx_30_p1 = dx_30
        dy_p2 = dy_p1
        dy_p1 = dy
        dy_18_p1 = dy_18
        dy_19_p1 = dy_19
        m_p1 = m
        rstd_24_p1 = rstd_24
        x_22_p1 = x_22
        x_23_p1 = x_23
        dx_27 = dx_11 * rstd_24_p1  # elementwise2_dx: stage 2, partition 0 (group 0)
        dx_28 = dx_27 * rstd_24_p1  # elementwise2_dx: stage 2, partition 0 (group 0)
        dx_31 = dx_28 * dx_30_p1  # elementwise2_dx: stage 2, partition 0 (group 0)
        dx_25 = rstd_24_p1  # elementwise1_dx: stage 2, partition 0 (group 0)
        dx_26 = dx_25 * m_p1  # elementwise1_dx: stage 2, partition 0 (group 0)
        dx_32 = dx_31  # elementwise1_dx: stage 2, partition 0 (group 0)
        dx_33 = dx_32 * x_23_p1  # elementwise1_dx: stage 2, partition 0 (group 0)
        dx_34 = dx_25 * dx_33  # elementwise1_dx: stage 2, partition 0 (group 0)
        dx_35 = dx_26 + dx_34  # elementwise1_dx: stage 2, partition 0 (group 0)
        v8 = dx_35.to(gl.float16)  # convert2: stage 2, partition 0 (group 0)
        dw_36 = x_23_p1 * dx_25  # elementwise4_dw: stage 2, partition 0 (group 0)
        dw_37 = dy_19_p1 * dw_36  # elementwise4_dw: stage 2, partition 0 (group 0)
        dw_38 = dw_38_p1 + dw_37  # elementwise4_dw: stage 2, partition 0 (group 0)
        v5 = dX + dy_p2  # store0: stage 2, partition 0 (group 0)
        v6 = v5  # store0: stage 2, partition 0 (group 0)
        v7 = v6 + cols  # store0: stage 2, partition 0 (group 0)
        gl.store(v7, v8, mask=mask_5)  # store0: stage 2, partition 0 (group 0)
        dw_38_p1 = dw_38
        dx_30_p1 = dx_30
        dy_p2 = dy_p1
        dy_p1 = dy
        dy_18_p1 = dy_18
        dy_19_p1 = dy_19
        m_p1 = m
        rstd_24_p1 = rstd_24
        x_22_p1 = x_22
        x_23_p1 = x_23
    else:
        dw_14_w = gl.full([1024], 0.0, gl.float32, layout=L0)
        for dw_13_w in range(row_start, row_end_2, 1):
            dy_w = dw_13_w * stride
            dy_15_w = dY + dy_w
            dy_17_w = dy_15_w + cols
            dy_18_w = gl.load(dy_17_w, mask=mask_5, other=0.0)
            dy_19_w = dy_18_w.to(gl.float32)
            x_w = X + dy_w
            x_21_w = x_w + cols
            x_22_w = gl.load(x_21_w, mask=mask_5, other=0.0)
            x_23_w = x_22_w.to(gl.float32)
            rstd_w = RSTD + dw_13_w
            rstd_24_w = gl.load(rstd_w)
            m_w = dy_19_w * w_9
            dx_26_w = rstd_24_w * m_w
            dx_27_w = dx_11 * rstd_24_w
            dx_28_w = dx_27_w * rstd_24_w
            dx_29_w = m_w * x_23_w
            dx_30_w = gl.sum(dx_29_w, axis=0)
            dx_31_w = dx_28_w * dx_30_w
            dx_33_w = dx_31_w * x_23_w
            dx_34_w = rstd_24_w * dx_33_w
            dx_35_w = dx_26_w + dx_34_w
            dw_36_w = x_23_w * rstd_24_w
            dw_37_w = dy_19_w * dw_36_w
            dw_38_w = dw_14_w + dw_37_w
            v5_w = dX + dy_w
            v7_w = v5_w + cols
            v8_w = dx_35_w.to(gl.float16)
            gl.store(v7_w, v8_w, mask=mask_5)
            dw_14_w = dw_38_w
        dw_38_p1 = dw_14_w
    v0 = pid * n_cols
    v1 = dW + v0
    v3 = v1 + cols_3
    v4 = gl.convert_layout(dw_38_p1, L1)
    gl.store(v3, v4, mask=mask_6)

@gluon.jit
def twill_kernel(dY, X, W, RSTD, dX, dW, stride, n_rows, n_cols, rows_per_program):
    consumer_0(dY, X, W, RSTD, dX, dW, stride, n_rows, n_cols, rows_per_program, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['dY', 'X', 'W', 'RSTD', 'dX', 'dW', 'stride', 'n_rows', 'n_cols', 'rows_per_program', 'BLOCK']          # the Triton kernel's parameters, in order
RUNTIME = ['dY', 'X', 'W', 'RSTD', 'dX', 'dW', 'stride', 'n_rows', 'n_cols', 'rows_per_program']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['dY', 'X', 'W', 'RSTD', 'dX', 'dW', 'stride', 'n_rows', 'n_cols', 'rows_per_program']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK': 1024}         # the specialisation this kernel was generated for
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
