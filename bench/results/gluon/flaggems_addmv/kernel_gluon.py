"""addmv_kernel, written by twill from its joint schedule: I=247 L=291 (optimal), 680 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 57 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0]))

@gluon.jit
def consumer_0(A, B, Inp, Out, N, M, alpha, beta, stride_an):
    pid = gl.program_id(0)
    offset_n = pid * 8
    offset_n_3 = gl.arange(0, 8, layout=L0)
    offset_n_4 = gl.arange(0, 8, layout=L1)
    offset_n_5 = gl.expand_dims(offset_n_3, 1)
    offset_n_6 = gl.expand_dims(offset_n_4, 1)
    offset_n_9 = offset_n + offset_n_5
    offset_n_10 = offset_n + offset_n_6
    offset_m = gl.arange(0, 128, layout=L2)
    offset_m_11 = gl.arange(0, 128, layout=L3)
    offset_m_12 = gl.expand_dims(offset_m, 0)
    offset_m_13 = gl.expand_dims(offset_m_11, 0)
    n_mask_15 = offset_n_9 < N
    n_mask_16 = offset_n_10 < N
    A_ptrs_17 = offset_n_9 * stride_an
    A_ptrs_19 = A + A_ptrs_17
    A_ptrs_20 = A_ptrs_19.broadcast_to([8, 128])
    A_ptrs_21 = offset_m_12.broadcast_to([8, 128])
    A_ptrs_22 = A_ptrs_20 + A_ptrs_21
    B_ptrs_23 = B + offset_m_13
    a = n_mask_15.broadcast_to([8, 128])
    twill_n = (M - 0 + 128 - 1) // 128
    B_ptrs_56 = B_ptrs_23
    A_ptrs_55 = A_ptrs_22
    A_ptrs_55_p1 = A_ptrs_55
    B_ptrs_56_p1 = B_ptrs_56
    acc_54 = gl.full([8, 128], 0.0, gl.float32, layout=L4)
    m_mask_42 = (0 + (0 - 0) * 128) + offset_m_12  # elementwise0_a: stage 0, partition 0 (group 0)
    m_mask_44 = m_mask_42 < M  # elementwise0_a: stage 0, partition 0 (group 0)
    a_46 = m_mask_44.broadcast_to([8, 128])  # elementwise0_a: stage 0, partition 0 (group 0)
    a_47 = a & a_46  # elementwise0_a: stage 0, partition 0 (group 0)
    m_mask_43 = (0 + (0 - 0) * 128) + offset_m_13  # load0_b: stage 0, partition 0 (group 0)
    m_mask_45 = m_mask_43 < M  # load0_b: stage 0, partition 0 (group 0)
    B_ptrs_56 = B_ptrs_56_p1 + 128  # load0_b: stage 0, partition 0 (group 0)
    b = gl.load(B_ptrs_56_p1, mask=m_mask_45, other=0.0)  # load0_b: stage 0, partition 0 (group 0)
    A_ptrs_55 = A_ptrs_55_p1 + 128  # load1_a: stage 0, partition 0 (group 0)
    a_48 = gl.load(A_ptrs_55_p1, mask=a_47, other=0.0)  # load1_a: stage 0, partition 0 (group 0)
    A_ptrs_55_p1 = A_ptrs_55
    B_ptrs_56_p1 = B_ptrs_56
    a_48_p1 = a_48
    acc_54_p1 = acc_54
    b_p1 = b
    for twill_b in range(1, twill_n):
        m_mask_40 = (0 + (twill_b - 0) * 128)  # elementwise0_a: stage 0, partition 0 (group 0)
        m_mask_42 = m_mask_40 + offset_m_12  # elementwise0_a: stage 0, partition 0 (group 0)
        m_mask_44 = m_mask_42 < M  # elementwise0_a: stage 0, partition 0 (group 0)
        a_46 = m_mask_44.broadcast_to([8, 128])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_47 = a & a_46  # elementwise0_a: stage 0, partition 0 (group 0)
        m_mask_41 = (0 + (twill_b - 0) * 128)  # load0_b: stage 0, partition 0 (group 0)
        m_mask_43 = m_mask_41 + offset_m_13  # load0_b: stage 0, partition 0 (group 0)
        m_mask_45 = m_mask_43 < M  # load0_b: stage 0, partition 0 (group 0)
        B_ptrs_56 = B_ptrs_56_p1 + 128  # load0_b: stage 0, partition 0 (group 0)
        b = gl.load(B_ptrs_56_p1, mask=m_mask_45, other=0.0)  # load0_b: stage 0, partition 0 (group 0)
        b_51 = b_p1.to(gl.float32)  # convert1_b: stage 1, partition 0 (group 0)
        A_ptrs_55 = A_ptrs_55_p1 + 128  # load1_a: stage 0, partition 0 (group 0)
        a_48 = gl.load(A_ptrs_55_p1, mask=a_47, other=0.0)  # load1_a: stage 0, partition 0 (group 0)
        a_49 = gl.convert_layout(a_48_p1, L4)  # convert0_a: stage 1, partition 0 (group 0)
        a_50 = a_49.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
        acc_52 = b_51.broadcast_to([8, 128])  # elementwise1_acc: stage 1, partition 0 (group 0)
        acc_53 = a_50 * acc_52  # elementwise1_acc: stage 1, partition 0 (group 0)
        acc_54 = acc_54_p1 + acc_53  # elementwise1_acc: stage 1, partition 0 (group 0)
        A_ptrs_55_p1 = A_ptrs_55
        B_ptrs_56_p1 = B_ptrs_56
        a_48_p1 = a_48
        acc_54_p1 = acc_54
        b_p1 = b
    b_51 = b_p1.to(gl.float32)  # convert1_b: stage 1, partition 0 (group 0)
    a_49 = gl.convert_layout(a_48_p1, L4)  # convert0_a: stage 1, partition 0 (group 0)
    a_50 = a_49.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
    acc_52 = b_51.broadcast_to([8, 128])  # elementwise1_acc: stage 1, partition 0 (group 0)
    acc_53 = a_50 * acc_52  # elementwise1_acc: stage 1, partition 0 (group 0)
    acc_54 = acc_54_p1 + acc_53  # elementwise1_acc: stage 1, partition 0 (group 0)
    A_ptrs_55_p2 = A_ptrs_55_p1
    A_ptrs_55_p1 = A_ptrs_55
    B_ptrs_56_p2 = B_ptrs_56_p1
    B_ptrs_56_p1 = B_ptrs_56
    a_48_p1 = a_48
    acc_54_p1 = acc_54
    b_p1 = b
    acc_26 = gl.sum(acc_54_p1, axis=1)
    v0 = gl.convert_layout(acc_26, L1)
    acc_27 = gl.expand_dims(v0, 1)
    Inp_ptrs_28 = Inp + offset_n_10
    inp_29 = gl.load(Inp_ptrs_28, mask=n_mask_16, other=0.0)
    inp_30 = inp_29.to(gl.float32)
    Out_ptrs_31 = Out + offset_n_10
    out_block_32 = acc_27 * alpha
    out_block_34 = inp_30 * beta
    out_block_35 = out_block_32 + out_block_34
    v1 = out_block_35.to(gl.bfloat16)
    gl.store(Out_ptrs_31, v1, mask=n_mask_16)

@gluon.jit
def twill_kernel(A, B, Inp, Out, N, M, alpha, beta, stride_an):
    consumer_0(A, B, Inp, Out, N, M, alpha, beta, stride_an, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'Inp', 'Out', 'N', 'M', 'alpha', 'beta', 'stride_an', 'stride_am', 'stride_bm', 'stride_in', 'stride_outn', 'BLOCK_N', 'BLOCK_M']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'Inp', 'Out', 'N', 'M', 'alpha', 'beta', 'stride_an']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'Inp', 'Out', 'N', 'M', 'alpha', 'beta', 'stride_an']   # the arguments a launch key reads
CONSTEXPRS = {'stride_am': 1, 'stride_bm': 1, 'stride_in': 1, 'stride_outn': 1, 'BLOCK_N': 8, 'BLOCK_M': 128}         # the specialisation this kernel was generated for
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
