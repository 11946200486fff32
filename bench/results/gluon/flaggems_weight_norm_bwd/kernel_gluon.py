"""weight_norm_bwd_kernel_last, written by twill from its joint schedule: I=161 L=170 (optimal), 6873 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 188 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at flaggems_weight_norm_bwd.py:56 (TTGIR line 62) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=149, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.extra import libdevice

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 8], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1]))

@gluon.jit
def consumer_0(v_grad, g_grad, w, v, g, norm, M, N, eps):
    twill_base = 0
    tx = gl.arange(0, 32, layout=L0)
    tx_0 = gl.arange(0, 32, layout=L1)
    tx_1 = gl.expand_dims(tx, 1)
    tx_2 = gl.expand_dims(tx_0, 1)
    bx = gl.program_id(0)
    bx_3 = bx * 32
    col_offset_5 = tx_1 + bx_3
    col_offset_6 = tx_2 + bx_3
    col_mask_8 = col_offset_5 < N
    col_mask_9 = col_offset_6 < N
    g_value_10 = g + col_offset_6
    g_value_11 = gl.load(g_value_10, mask=col_mask_9)
    norm_value_13 = norm + col_offset_5
    norm_value_14 = norm + col_offset_6
    norm_value_15 = gl.load(norm_value_13, mask=col_mask_8)
    norm_value_16 = gl.load(norm_value_14, mask=col_mask_9)
    norm_1_19 = norm_value_15 + eps
    norm_1_20 = norm_value_16 + eps
    norm_1_21 = 1.0 / norm_1_20
    norm_3 = libdevice.pow(norm_1_21, 3)
    ty = gl.arange(0, 512, layout=L2)
    ty_22 = gl.expand_dims(ty, 0)
    mask_23 = col_mask_9.broadcast_to([32, 512])
    v_value_25 = col_offset_6.broadcast_to([32, 512])
    twill_n = (M - 0 + 512 - 1) // 512
    vw_block_55 = gl.full([32, 512], 0.0, gl.float32, layout=L3)
    vw_block_55_p1 = vw_block_55
    for twill_b in range(0, twill_n):
        row_offset_l0 = (0 + (twill_b - 0) * 512)  # elementwise0_mask: stage 0, partition 0 (group 0)
        row_offset_41 = row_offset_l0 + ty_22  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_42_l0 = row_offset_41 < M  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_43 = mask_42_l0.broadcast_to([32, 512])  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_44 = mask_43 & mask_23  # elementwise0_mask: stage 0, partition 0 (group 0)
        v_value_45_l0 = row_offset_41 * N  # load0_v_value: stage 0, partition 0 (group 0)
        v_value_46_l0 = v + v_value_45_l0  # load0_v_value: stage 0, partition 0 (group 0)
        v_value_47_l0 = v_value_46_l0.broadcast_to([32, 512])  # load0_v_value: stage 0, partition 0 (group 0)
        w_value_50_l0 = w + v_value_45_l0  # load1_w_value: stage 0, partition 0 (group 0)
        w_value_51_l0 = w_value_50_l0.broadcast_to([32, 512])  # load1_w_value: stage 0, partition 0 (group 0)
        v_value_48 = v_value_47_l0 + v_value_25  # load0_v_value: stage 0, partition 0 (group 0)
        w_value_52 = w_value_51_l0 + v_value_25  # load1_w_value: stage 0, partition 0 (group 0)
        v_value_49 = gl.load(v_value_48, mask=mask_44)  # load0_v_value: stage 0, partition 0 (group 0)
        w_value_53 = gl.load(w_value_52, mask=mask_44)  # load1_w_value: stage 0, partition 0 (group 0)
        vw_block_54 = v_value_49 * w_value_53  # elementwise1_vw_block: stage 0, partition 0 (group 0)
        vw_block_55 = vw_block_55_p1 + vw_block_54  # elementwise1_vw_block: stage 0, partition 0 (group 0)
        vw_block_55_p1 = vw_block_55
    twill_base += twill_n
    vw_sum = gl.sum(vw_block_55_p1, axis=1)
    g_grad_value = gl.convert_layout(vw_sum, L0)
    vw_sum_27 = gl.expand_dims(g_grad_value, 1)
    vw_sum_28 = gl.expand_dims(vw_sum, 1)
    mask_30 = col_mask_9.broadcast_to([32, 512])
    v_value_33 = col_offset_6.broadcast_to([32, 512])
    v_grad_value = norm_1_21.broadcast_to([32, 512])
    v_grad_value_35 = norm_3.broadcast_to([32, 512])
    v_grad_value_36 = vw_sum_28.broadcast_to([32, 512])
    v_grad_value_37 = g_value_11.broadcast_to([32, 512])
    twill_n = (M - 0 + 512 - 1) // 512
    for twill_b in range(0, twill_n):
        row_offset = (0 + (twill_b - 0) * 512)  # elementwise0_mask: stage 0, partition 0 (group 0)
        row_offset_39 = row_offset + ty_22  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_40 = row_offset_39 < M  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_41 = mask_40.broadcast_to([32, 512])  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_42 = mask_41 & mask_30  # elementwise0_mask: stage 0, partition 0 (group 0)
        v_value_43 = row_offset_39 * N  # load0_v_value: stage 0, partition 0 (group 0)
        v_value_44 = v + v_value_43  # load0_v_value: stage 0, partition 0 (group 0)
        w_value_48 = w + v_value_43  # load1_w_value: stage 0, partition 0 (group 0)
        v_value_45 = v_value_44.broadcast_to([32, 512])  # load0_v_value: stage 0, partition 0 (group 0)
        w_value_49 = w_value_48.broadcast_to([32, 512])  # load1_w_value: stage 0, partition 0 (group 0)
        v_value_46 = v_value_45 + v_value_33  # load0_v_value: stage 0, partition 0 (group 0)
        w_value_50 = w_value_49 + v_value_33  # load1_w_value: stage 0, partition 0 (group 0)
        w_value_51 = gl.load(w_value_50, mask=mask_42)  # load1_w_value: stage 0, partition 0 (group 0)
        v_value_47 = gl.load(v_value_46, mask=mask_42)  # load0_v_value: stage 0, partition 0 (group 0)
        v_grad_value_52 = w_value_51 * v_grad_value  # elementwise1_v_grad_value: stage 0, partition 0 (group 0)
        v_grad_value_53 = v_value_47 * v_grad_value_35  # elementwise1_v_grad_value: stage 0, partition 0 (group 0)
        v_grad_value_54 = v_grad_value_53 * v_grad_value_36  # elementwise1_v_grad_value: stage 0, partition 0 (group 0)
        v_grad_value_55 = v_grad_value_52 - v_grad_value_54  # elementwise1_v_grad_value: stage 0, partition 0 (group 0)
        v_grad_value_56 = v_grad_value_37 * v_grad_value_55  # elementwise1_v_grad_value: stage 0, partition 0 (group 0)
        v3 = v_grad + v_value_43  # store0: stage 0, partition 0 (group 0)
        v4 = v3.broadcast_to([32, 512])  # store0: stage 0, partition 0 (group 0)
        v5 = v4 + v_value_33  # store0: stage 0, partition 0 (group 0)
        gl.store(v5, v_grad_value_56, mask=mask_42)  # store0: stage 0, partition 0 (group 0)
    g_grad_value_38 = vw_sum_27 / norm_1_19
    v2 = g_grad + col_offset_5
    gl.store(v2, g_grad_value_38, mask=col_mask_8)

@gluon.jit
def twill_kernel(v_grad, g_grad, w, v, g, norm, M, N, eps):
    consumer_0(v_grad, g_grad, w, v, g, norm, M, N, eps, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['v_grad', 'g_grad', 'w', 'v', 'g', 'norm', 'M', 'N', 'eps', 'BLOCK_ROW_SIZE', 'BLOCK_COL_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['v_grad', 'g_grad', 'w', 'v', 'g', 'norm', 'M', 'N', 'eps']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['v_grad', 'g_grad', 'w', 'v', 'g', 'norm', 'M', 'N', 'eps']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_ROW_SIZE': 512, 'BLOCK_COL_SIZE': 32}         # the specialisation this kernel was generated for
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
