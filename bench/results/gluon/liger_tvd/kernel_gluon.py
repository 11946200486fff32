"""_tv_distance_kernel, written by twill from its joint schedule: I=422 L=422 (optimal), 5632 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 16 warps, registers as ptxas allocates them (the schedule's tiles need about 176 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at liger_tvd.py:50 (TTGIR line 44): taken in the kernel itself, before the loop (its branch's 3 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[16], order=[0]))

@gluon.jit
def consumer_0(p_ptr, p_stride, q_ptr, q_stride, loss_ptr, loss_stride, grads_ptr, grads_stride, label_ptr, n_cols):
    pid = gl.program_id(0)
    pid_3 = gl.cast(pid, gl.int64)
    p_ptr_4 = gl.cast(p_stride, gl.int64)
    p_ptr_5 = pid_3 * p_ptr_4
    p_ptr_6 = p_ptr + p_ptr_5
    q_ptr_7 = gl.cast(q_stride, gl.int64)
    q_ptr_8 = pid_3 * q_ptr_7
    q_ptr_9 = q_ptr + q_ptr_8
    loss_ptr_10 = gl.cast(loss_stride, gl.int64)
    loss_ptr_11 = pid_3 * loss_ptr_10
    loss_ptr_12 = loss_ptr + loss_ptr_11
    grads_ptr_13 = gl.cast(grads_stride, gl.int64)
    grads_ptr_14 = pid_3 * grads_ptr_13
    grads_ptr_15 = grads_ptr + grads_ptr_14
    base_offsets = gl.arange(0, 16384, layout=L0)
    twill_n = (n_cols - 0 + 16384 - 1) // 16384
    loss_sum_29 = 0.0
    loss_sum_29_p1 = loss_sum_29
    for twill_b in range(0, twill_n):
        offsets = (0 + (twill_b - 0) * 16384)  # load0_p: stage 0, partition 0 (group 0)
        offsets_19 = offsets + base_offsets  # load0_p: stage 0, partition 0 (group 0)
        mask_20 = offsets_19 < n_cols  # load0_p: stage 0, partition 0 (group 0)
        p_21 = p_ptr_6 + offsets_19  # load0_p: stage 0, partition 0 (group 0)
        q_23 = q_ptr_9 + offsets_19  # load1_q: stage 0, partition 0 (group 0)
        p_22 = gl.load(p_21, mask=mask_20, other=0.0)  # load0_p: stage 0, partition 0 (group 0)
        q_24 = gl.load(q_23, mask=mask_20, other=0.0)  # load1_q: stage 0, partition 0 (group 0)
        grad_res = p_22 > q_24  # elementwise1_grad_res: stage 0, partition 0 (group 0)
        grad_res_27 = gl.where(grad_res, 0.5, -0.5)  # elementwise1_grad_res: stage 0, partition 0 (group 0)
        tv_loss = p_22 - q_24  # elementwise0_tv_loss: stage 0, partition 0 (group 0)
        tv_loss_25 = gl.abs(tv_loss)  # elementwise0_tv_loss: stage 0, partition 0 (group 0)
        tv_loss_26 = tv_loss_25 * 0.5  # elementwise0_tv_loss: stage 0, partition 0 (group 0)
        loss_sum_28 = gl.sum(tv_loss_26, axis=0)  # reduce0_loss_sum: stage 0, partition 0 (group 0)
        loss_sum_29 = loss_sum_29_p1 + loss_sum_28  # elementwise2_loss_sum: stage 0, partition 0 (group 0)
        v3 = grads_ptr_15 + offsets_19  # store0: stage 0, partition 0 (group 0)
        gl.store(v3, grad_res_27, mask=mask_20)  # store0: stage 0, partition 0 (group 0)
        loss_sum_29_p1 = loss_sum_29
    gl.store(loss_ptr_12, loss_sum_29_p1)

@gluon.jit
def twill_kernel(p_ptr, p_stride, q_ptr, q_stride, loss_ptr, loss_stride, grads_ptr, grads_stride, label_ptr, n_cols):
    pid = gl.program_id(0)
    pid_3 = gl.cast(pid, gl.int64)
    grads_ptr_13 = gl.cast(grads_stride, gl.int64)
    grads_ptr_14 = pid_3 * grads_ptr_13
    grads_ptr_15 = grads_ptr + grads_ptr_14
    label_ptr_16 = label_ptr + pid_3
    base_offsets = gl.arange(0, 16384, layout=L0)
    label = gl.load(label_ptr_16)
    v0 = label == -100
    if v0:
        for i_l0 in range(0, n_cols, 16384):
            offsets_18 = i_l0 + base_offsets
            mask_19 = offsets_18 < n_cols
            v3_l0 = grads_ptr_15 + offsets_18
            gl.store(v3_l0, gl.full([16384], 0.0, gl.float32, layout=L0), mask=mask_19)
        return
    consumer_0(p_ptr, p_stride, q_ptr, q_stride, loss_ptr, loss_stride, grads_ptr, grads_stride, label_ptr, n_cols, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['p_ptr', 'p_stride', 'q_ptr', 'q_stride', 'loss_ptr', 'loss_stride', 'grads_ptr', 'grads_stride', 'label_ptr', 'ignore_index', 'n_cols', 'BLOCK_SIZE', 'HAS_LABEL', 'reduction']          # the Triton kernel's parameters, in order
RUNTIME = ['p_ptr', 'p_stride', 'q_ptr', 'q_stride', 'loss_ptr', 'loss_stride', 'grads_ptr', 'grads_stride', 'label_ptr', 'n_cols']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['p_ptr', 'p_stride', 'q_ptr', 'q_stride', 'loss_ptr', 'loss_stride', 'grads_ptr', 'grads_stride', 'label_ptr', 'n_cols']   # the arguments a launch key reads
CONSTEXPRS = {'ignore_index': -100, 'BLOCK_SIZE': 16384, 'HAS_LABEL': True, 'reduction': 3}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 16
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
