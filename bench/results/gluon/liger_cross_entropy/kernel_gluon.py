"""liger_cross_entropy_kernel, written by twill from its joint schedule: I=152 L=152 (optimal), 9728 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 32 warps, registers as ptxas allocates them (the schedule's tiles need about 96 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at liger_cross_entropy.py:43 (TTGIR line 71) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=118, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- early return at liger_cross_entropy.py:32 (TTGIR line 44): taken in the kernel itself, before the loop (its branch's 4 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[32], order=[0]))

@gluon.jit
def consumer_0(X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, loss_stride, n_cols, n_non_ignore, ignore_index):
    twill_base = 0
    program_id = gl.program_id(0)
    program_id_7 = gl.cast(program_id, gl.int64)
    Y_ptr_8 = program_id_7 * Y_stride
    Y_ptr_9 = Y_ptr + Y_ptr_8
    y = gl.load(Y_ptr_9)
    X_ptr_10 = program_id_7 * X_stride
    X_ptr_11 = X_ptr + X_ptr_10
    loss_ptr_12 = program_id_7 * loss_stride
    loss_ptr_13 = loss_ptr + loss_ptr_12
    ori_X_y = X_ptr_10 + y
    ori_X_y_14 = X_ptr + ori_X_y
    ori_X_y_15 = gl.load(ori_X_y_14)
    ori_X_y_16 = gl.cast(ori_X_y_15, gl.float32)
    eps = gl.cast(n_cols, gl.float32)
    eps_17 = 0.1 / eps
    X_offsets_18 = gl.arange(0, 32768, layout=L0)
    scaled_x_sum = 0.0 - eps_17
    twill_n = (n_cols - 0 + 32768 - 1) // 32768
    m_new = float("-inf")
    d_63 = 0.0
    scaled_x_sum_54 = 0.0
    d_63_p1 = d_63
    m_new_p1 = m_new
    scaled_x_sum_54_p1 = scaled_x_sum_54
    for twill_b in range(0, twill_n):
        X_offsets_43_l1 = (0 + (twill_b - 0) * 32768)  # load0_X_block: stage 0, partition 0 (group 0)
        X_offsets_44 = X_offsets_43_l1 + X_offsets_18  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_45_l1 = X_offsets_44 < n_cols  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_46_l1 = X_ptr_11 + X_offsets_44  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_47_l1 = gl.load(X_block_46_l1, mask=X_block_45_l1, other=float("-inf"))  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_48_l1 = X_block_47_l1.to(gl.float32)  # convert0_X_block: stage 0, partition 0 (group 0)
        block_max = X_block_48_l1  # reduce0_block_max: stage 0, partition 0 (group 0)
        block_max_49 = gl.max(block_max, axis=0)  # reduce0_block_max: stage 0, partition 0 (group 0)
        m_new = gl.maximum(m_new_p1, block_max_49)  # elementwise2_m_new: stage 0, partition 0 (group 0)
        d_55 = m_new_p1 - m_new  # sfu0_d: stage 0, partition 0 (group 0)
        d_56 = gl.exp(d_55)  # sfu0_d: stage 0, partition 0 (group 0)
        d_58 = m_new  # sfu1_d: stage 0, partition 0 (group 0)
        d_59 = X_block_48_l1 - d_58  # sfu1_d: stage 0, partition 0 (group 0)
        d_60 = gl.exp(d_59)  # sfu1_d: stage 0, partition 0 (group 0)
        scaled_x_sum_50 = scaled_x_sum * X_block_48_l1  # elementwise0_scaled_x_sum: stage 0, partition 0 (group 0)
        scaled_x_sum_51 = gl.where(X_block_45_l1, scaled_x_sum_50, 0.0)  # elementwise0_scaled_x_sum: stage 0, partition 0 (group 0)
        scaled_x_sum_52 = scaled_x_sum_51  # reduce1_scaled_x_sum: stage 0, partition 0 (group 0)
        scaled_x_sum_53 = gl.sum(scaled_x_sum_52, axis=0)  # reduce1_scaled_x_sum: stage 0, partition 0 (group 0)
        scaled_x_sum_54 = scaled_x_sum_54_p1 + scaled_x_sum_53  # elementwise1_scaled_x_sum: stage 0, partition 0 (group 0)
        d_61 = d_60  # reduce2_d: stage 0, partition 0 (group 0)
        d_62 = gl.sum(d_61, axis=0)  # reduce2_d: stage 0, partition 0 (group 0)
        d_57 = d_63_p1 * d_56  # elementwise3_d: stage 0, partition 0 (group 0)
        d_63 = d_57 + d_62  # elementwise3_d: stage 0, partition 0 (group 0)
        d_63_p1 = d_63
        m_new_p1 = m_new
        scaled_x_sum_54_p1 = scaled_x_sum_54
    twill_base += twill_n
    X_offsets_22 = gl.arange(0, 32768, layout=L0)
    X_block_28 = gl.cast(n_non_ignore, gl.float32)
    twill_n = (n_cols - 0 + 32768 - 1) // 32768
    for twill_b in range(0, twill_n):
        X_offsets_42 = (0 + (twill_b - 0) * 32768)  # load0_X_block: stage 0, partition 0 (group 0)
        X_offsets_43 = X_offsets_42 + X_offsets_22  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_44 = X_offsets_43 < n_cols  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_45 = X_ptr_11 + X_offsets_43  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_46 = gl.load(X_block_45, mask=X_block_44, other=float("-inf"))  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_47 = X_block_46.to(gl.float32)  # convert0_X_block: stage 0, partition 0 (group 0)
        X_block_48 = X_block_47 - m_new_p1  # sfu0_X_block: stage 0, partition 0 (group 0)
        X_block_49 = gl.exp(X_block_48)  # sfu0_X_block: stage 0, partition 0 (group 0)
        X_block_50 = X_block_49 / d_63_p1  # elementwise0_X_block: stage 0, partition 0 (group 0)
        X_block_51 = X_block_50 - eps_17  # elementwise0_X_block: stage 0, partition 0 (group 0)
        X_block_52 = X_block_51 / X_block_28  # elementwise0_X_block: stage 0, partition 0 (group 0)
        v5 = X_block_52.to(gl.bfloat16)  # convert1: stage 0, partition 0 (group 0)
        gl.store(X_block_45, v5, mask=X_block_44)  # store0: stage 0, partition 0 (group 0)
    gl.thread_barrier()
    loss = ori_X_y_16 - m_new_p1
    loss_30 = gl.log(d_63_p1)
    loss_31 = loss - loss_30
    loss_32 = 0.0 - loss_31
    smooth_loss = m_new_p1 + loss_30
    smooth_loss_33 = smooth_loss * 0.1
    smooth_loss_34 = scaled_x_sum_54_p1 + smooth_loss_33
    loss_35 = loss_32 * 0.899999976
    loss_36 = loss_35 + smooth_loss_34
    loss_37 = gl.cast(n_non_ignore, gl.float32)
    loss_38 = loss_36 / loss_37
    X_y = gl.load(ori_X_y_14)
    X_y_39 = gl.cast(X_y, gl.float32)
    X_y_40 = -0.899999976 / loss_37
    X_y_41 = X_y_39 + X_y_40
    gl.store(loss_ptr_13, loss_38)
    v4 = gl.cast(X_y_41, gl.bfloat16)
    gl.store(ori_X_y_14, v4)

@gluon.jit
def twill_kernel(X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, loss_stride, n_cols, n_non_ignore, ignore_index):
    program_id = gl.program_id(0)
    program_id_7 = gl.cast(program_id, gl.int64)
    Y_ptr_8 = program_id_7 * Y_stride
    Y_ptr_9 = Y_ptr + Y_ptr_8
    y = gl.load(Y_ptr_9)
    X_ptr_10 = program_id_7 * X_stride
    X_ptr_11 = X_ptr + X_ptr_10
    v0 = gl.cast(ignore_index, gl.int64)
    v1 = y == v0
    if v1:
        X_offsets = gl.arange(0, 32768, layout=L0)
        for i_l0 in range(0, n_cols, 32768):
            X_offsets_43_l0 = i_l0 + X_offsets
            v5_l0 = X_offsets_43_l0 < n_cols
            v6 = X_ptr_11 + X_offsets_43_l0
            gl.store(v6, gl.full([32768], 0.0, gl.bfloat16, layout=L0), mask=v5_l0)
        return
    consumer_0(X_ptr, X_stride, Y_ptr, Y_stride, loss_ptr, loss_stride, n_cols, n_non_ignore, ignore_index, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X_ptr', 'X_stride', 'Y_ptr', 'Y_stride', 'loss_ptr', 'loss_stride', 'n_cols', 'n_non_ignore', 'ignore_index', 'label_smoothing', 'reduction', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['X_ptr', 'X_stride', 'Y_ptr', 'Y_stride', 'loss_ptr', 'loss_stride', 'n_cols', 'n_non_ignore', 'ignore_index']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X_ptr', 'X_stride', 'Y_ptr', 'Y_stride', 'loss_ptr', 'loss_stride', 'n_cols', 'n_non_ignore', 'ignore_index']   # the arguments a launch key reads
CONSTEXPRS = {'label_smoothing': 0.1, 'reduction': 'mean', 'BLOCK_SIZE': 32768}         # the specialisation this kernel was generated for
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
