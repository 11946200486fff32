"""liger_cross_entropy_kernel, written by twill from its joint schedule: I=90 L=90 (optimal), 23040 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 32 warps, registers as ptxas allocates them (the schedule's tiles need about 160 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at liger_ce_softcap.py:95 (TTGIR line 84) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=142, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- early return at liger_ce_softcap.py:69 (TTGIR line 52): taken in the kernel itself, before the loop (its branch's 4 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)

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
def consumer_0(X_ptr, X_stride, Y_ptr, Y_stride, weight_ptr, loss_ptr, z_loss_ptr, loss_stride, n_cols, n_non_ignore, sum_non_ignore_weight, weight_sum, ignore_index, softcap):
    twill_base = 0
    program_id = gl.program_id(0)
    program_id_10 = gl.cast(program_id, gl.int64)
    Y_ptr_11 = program_id_10 * Y_stride
    Y_ptr_12 = Y_ptr + Y_ptr_11
    y = gl.load(Y_ptr_12)
    X_ptr_13 = program_id_10 * X_stride
    X_ptr_14 = X_ptr + X_ptr_13
    loss_ptr_15 = program_id_10 * loss_stride
    loss_ptr_16 = loss_ptr + loss_ptr_15
    z_loss_ptr_17 = z_loss_ptr + loss_ptr_15
    ori_X_y = X_ptr_13 + y
    ori_X_y_18 = X_ptr + ori_X_y
    ori_X_y_19 = gl.load(ori_X_y_18)
    ori_X_y_20 = gl.cast(ori_X_y_19, gl.float32)
    ori_X_y_21 = ori_X_y_20 / softcap
    ori_X_y_22 = libdevice.tanh(ori_X_y_21)
    ori_X_y_23 = softcap * ori_X_y_22
    eps = gl.cast(n_cols, gl.float32)
    eps_24 = 0.1 / eps
    X_offsets_25 = gl.arange(0, 32768, layout=L0)
    scaled_x_sum = 0.0 - eps_24
    twill_n = (n_cols - 0 + 32768 - 1) // 32768
    m_new = float("-inf")
    d_75 = 0.0
    scaled_x_sum_66 = 0.0
    d_75_p1 = d_75
    m_new_p1 = m_new
    scaled_x_sum_66_p1 = scaled_x_sum_66
    for twill_b in range(0, twill_n):
        X_offsets_52_l1 = (0 + (twill_b - 0) * 32768)  # load0_X_block: stage 0, partition 0 (group 0)
        X_offsets_53 = X_offsets_52_l1 + X_offsets_25  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_54_l1 = X_offsets_53 < n_cols  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_55_l1 = X_ptr_14 + X_offsets_53  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_56_l1 = gl.load(X_block_55_l1, mask=X_block_54_l1, other=float("-inf"))  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_57 = X_block_56_l1.to(gl.float32)  # convert0_X_block: stage 0, partition 0 (group 0)
        X_block_58 = X_block_57 / softcap  # elementwise0_X_block: stage 0, partition 0 (group 0)
        X_block_59_l1 = libdevice.tanh(X_block_58)  # elementwise0_X_block: stage 0, partition 0 (group 0)
        X_block_60_l1 = softcap * X_block_59_l1  # elementwise0_X_block: stage 0, partition 0 (group 0)
        block_max = X_block_60_l1  # reduce0_block_max: stage 0, partition 0 (group 0)
        block_max_61 = gl.max(block_max, axis=0)  # reduce0_block_max: stage 0, partition 0 (group 0)
        m_new = gl.maximum(m_new_p1, block_max_61)  # elementwise3_m_new: stage 0, partition 0 (group 0)
        d_67 = m_new_p1 - m_new  # sfu0_d: stage 0, partition 0 (group 0)
        d_68 = gl.exp(d_67)  # sfu0_d: stage 0, partition 0 (group 0)
        d_70 = m_new  # sfu1_d: stage 0, partition 0 (group 0)
        d_71 = X_block_60_l1 - d_70  # sfu1_d: stage 0, partition 0 (group 0)
        d_72 = gl.exp(d_71)  # sfu1_d: stage 0, partition 0 (group 0)
        scaled_x_sum_62 = scaled_x_sum * X_block_60_l1  # elementwise1_scaled_x_sum: stage 0, partition 0 (group 0)
        scaled_x_sum_63 = gl.where(X_block_54_l1, scaled_x_sum_62, 0.0)  # elementwise1_scaled_x_sum: stage 0, partition 0 (group 0)
        scaled_x_sum_64 = scaled_x_sum_63  # reduce1_scaled_x_sum: stage 0, partition 0 (group 0)
        scaled_x_sum_65 = gl.sum(scaled_x_sum_64, axis=0)  # reduce1_scaled_x_sum: stage 0, partition 0 (group 0)
        scaled_x_sum_66 = scaled_x_sum_66_p1 + scaled_x_sum_65  # elementwise2_scaled_x_sum: stage 0, partition 0 (group 0)
        d_73 = d_72  # reduce2_d: stage 0, partition 0 (group 0)
        d_74 = gl.sum(d_73, axis=0)  # reduce2_d: stage 0, partition 0 (group 0)
        d_69 = d_75_p1 * d_68  # elementwise4_d: stage 0, partition 0 (group 0)
        d_75 = d_69 + d_74  # elementwise4_d: stage 0, partition 0 (group 0)
        d_75_p1 = d_75
        m_new_p1 = m_new
        scaled_x_sum_66_p1 = scaled_x_sum_66
    twill_base += twill_n
    lse = gl.log(d_75_p1)
    lse_30 = m_new_p1 + lse
    X_offsets_31 = gl.arange(0, 32768, layout=L0)
    X_block_36 = lse_30 * 0.0002
    X_block_38 = 0.0 - eps_24
    X_block_41 = gl.cast(n_non_ignore, gl.float32)
    twill_n = (n_cols - 0 + 32768 - 1) // 32768
    for twill_b in range(0, twill_n):
        X_offsets_51 = (0 + (twill_b - 0) * 32768)  # load0_X_block: stage 0, partition 0 (group 0)
        X_offsets_52 = X_offsets_51 + X_offsets_31  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_53 = X_offsets_52 < n_cols  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_54 = X_ptr_14 + X_offsets_52  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_55 = gl.load(X_block_54, mask=X_block_53, other=float("-inf"))  # load0_X_block: stage 0, partition 0 (group 0)
        X_block_56 = X_block_55.to(gl.float32)  # convert0_X_block: stage 0, partition 0 (group 0)
        intermediate_57 = X_block_56 / softcap  # elementwise0_intermediate: stage 0, partition 0 (group 0)
        intermediate_58 = libdevice.tanh(intermediate_57)  # elementwise0_intermediate: stage 0, partition 0 (group 0)
        X_block_59 = softcap * intermediate_58  # sfu0_X_block: stage 0, partition 0 (group 0)
        X_block_60 = X_block_59 - m_new_p1  # sfu0_X_block: stage 0, partition 0 (group 0)
        X_block_61 = gl.exp(X_block_60)  # sfu0_X_block: stage 0, partition 0 (group 0)
        X_block_62 = X_block_61 / d_75_p1  # elementwise1_X_block: stage 0, partition 0 (group 0)
        X_block_63 = X_block_36 * X_block_62  # elementwise2_X_block: stage 0, partition 0 (group 0)
        X_block_64 = X_block_62 + X_block_63  # elementwise2_X_block: stage 0, partition 0 (group 0)
        X_block_65 = X_block_64 + X_block_38  # elementwise2_X_block: stage 0, partition 0 (group 0)
        X_block_66 = X_offsets_52.to(gl.int64)  # elementwise3_X_block: stage 0, partition 0 (group 0)
        X_block_67 = X_block_66 != y  # elementwise3_X_block: stage 0, partition 0 (group 0)
        X_block_68 = X_block_65 - 0.899999976  # elementwise3_X_block: stage 0, partition 0 (group 0)
        X_block_69 = gl.where(X_block_67, X_block_65, X_block_68)  # elementwise3_X_block: stage 0, partition 0 (group 0)
        X_block_70 = X_block_69 / X_block_41  # elementwise3_X_block: stage 0, partition 0 (group 0)
        X_block_71 = intermediate_58 * intermediate_58  # elementwise3_X_block: stage 0, partition 0 (group 0)
        X_block_72 = 1.0 - X_block_71  # elementwise3_X_block: stage 0, partition 0 (group 0)
        X_block_73 = X_block_70 * X_block_72  # elementwise3_X_block: stage 0, partition 0 (group 0)
        v4 = X_block_73.to(gl.bfloat16)  # convert1: stage 0, partition 0 (group 0)
        gl.store(X_block_54, v4, mask=X_block_53)  # store0: stage 0, partition 0 (group 0)
    gl.thread_barrier()
    loss = lse_30 - ori_X_y_23
    smooth_loss = lse_30 * 0.1
    smooth_loss_43 = scaled_x_sum_66_p1 + smooth_loss
    loss_44 = loss * 0.899999976
    loss_45 = loss_44 + smooth_loss_43
    z_loss = lse_30 * 9.99999974e-05
    z_loss_46 = z_loss * lse_30
    loss_47 = gl.cast(n_non_ignore, gl.float32)
    loss_48 = loss_45 / loss_47
    z_loss_49 = z_loss_46 / loss_47
    loss_50 = loss_48 + z_loss_49
    gl.store(loss_ptr_16, loss_50)
    gl.store(z_loss_ptr_17, z_loss_49)

@gluon.jit
def twill_kernel(X_ptr, X_stride, Y_ptr, Y_stride, weight_ptr, loss_ptr, z_loss_ptr, loss_stride, n_cols, n_non_ignore, sum_non_ignore_weight, weight_sum, ignore_index, softcap):
    program_id = gl.program_id(0)
    program_id_10 = gl.cast(program_id, gl.int64)
    Y_ptr_11 = program_id_10 * Y_stride
    Y_ptr_12 = Y_ptr + Y_ptr_11
    y = gl.load(Y_ptr_12)
    X_ptr_13 = program_id_10 * X_stride
    X_ptr_14 = X_ptr + X_ptr_13
    v0 = gl.cast(ignore_index, gl.int64)
    v1 = y == v0
    if v1:
        X_offsets = gl.arange(0, 32768, layout=L0)
        for i_l0 in range(0, n_cols, 32768):
            X_offsets_52_l0 = i_l0 + X_offsets
            v4_l0 = X_offsets_52_l0 < n_cols
            v5 = X_ptr_14 + X_offsets_52_l0
            gl.store(v5, gl.full([32768], 0.0, gl.bfloat16, layout=L0), mask=v4_l0)
        return
    consumer_0(X_ptr, X_stride, Y_ptr, Y_stride, weight_ptr, loss_ptr, z_loss_ptr, loss_stride, n_cols, n_non_ignore, sum_non_ignore_weight, weight_sum, ignore_index, softcap, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X_ptr', 'X_stride', 'Y_ptr', 'Y_stride', 'weight_ptr', 'loss_ptr', 'z_loss_ptr', 'loss_stride', 'n_cols', 'n_non_ignore', 'sum_non_ignore_weight', 'weight_sum', 'ignore_index', 'lse_square_scale', 'label_smoothing', 'reduction', 'softcap', 'RETURN_Z_LOSS', 'BLOCK_SIZE', 'HAS_WEIGHT', 'HAS_SOFTCAPPING']          # the Triton kernel's parameters, in order
RUNTIME = ['X_ptr', 'X_stride', 'Y_ptr', 'Y_stride', 'weight_ptr', 'loss_ptr', 'z_loss_ptr', 'loss_stride', 'n_cols', 'n_non_ignore', 'sum_non_ignore_weight', 'weight_sum', 'ignore_index', 'softcap']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X_ptr', 'X_stride', 'Y_ptr', 'Y_stride', 'weight_ptr', 'loss_ptr', 'z_loss_ptr', 'loss_stride', 'n_cols', 'n_non_ignore', 'sum_non_ignore_weight', 'weight_sum', 'ignore_index', 'softcap']   # the arguments a launch key reads
CONSTEXPRS = {'lse_square_scale': 0.0001, 'label_smoothing': 0.1, 'reduction': 'mean', 'RETURN_Z_LOSS': True, 'BLOCK_SIZE': 32768, 'HAS_WEIGHT': False, 'HAS_SOFTCAPPING': True}         # the specialisation this kernel was generated for
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
