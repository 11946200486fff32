"""ieee_gemm, written by twill from its joint schedule: I=400 L=370 (optimal), 760 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 320).

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (b_55_as 2 x 4096 B, a_52_as 2 x 4096 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 88 per thread)
- shared memory: 16400 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at ieee_gemm.py:32 (TTGIR line 34): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- if at ieee_gemm.py:46 (TTGIR line 95): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]), k_width=0))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]), k_width=0))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, scale_ptr, M, N, K, num_valid, has_scale, stride_am, stride_bk, stride_cm, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    v0 = pid_m * 64
    offs_m = gl.arange(0, 64, layout=L0)
    offs_m_5 = gl.arange(0, 64, layout=L1)
    offs_m_6 = gl.arange(0, 64, layout=L2)
    offs_m_7 = gl.arange(0, 64, layout=L3)
    offs_m_10 = v0 + offs_m
    offs_m_11 = v0 + offs_m_5
    offs_n = pid_n * 64
    offs_n_14 = offs_n + offs_m_6
    offs_n_15 = offs_n + offs_m_7
    a_ptrs = gl.expand_dims(offs_m_10, 1)
    a_ptrs_16 = gl.expand_dims(offs_m_11, 1)
    a_ptrs_18 = a_ptrs * stride_am
    a_ptrs_20 = a_ptr + a_ptrs_18
    a_ptrs_21 = gl.arange(0, 16, layout=L4)
    a_ptrs_22 = gl.expand_dims(a_ptrs_21, 0)
    a_ptrs_23 = a_ptrs_20.broadcast_to([64, 16])
    a_ptrs_24 = a_ptrs_22.broadcast_to([64, 16])
    a_ptrs_25 = a_ptrs_23 + a_ptrs_24
    b_ptrs = gl.arange(0, 16, layout=L1)
    b_ptrs_26 = gl.expand_dims(b_ptrs, 1)
    b_ptrs_28 = b_ptrs_26 * stride_bk
    b_ptrs_30 = b_ptr + b_ptrs_28
    b_ptrs_31 = gl.expand_dims(offs_n_14, 0)
    b_ptrs_32 = b_ptrs_30.broadcast_to([16, 64])
    b_ptrs_33 = b_ptrs_31.broadcast_to([16, 64])
    b_ptrs_34 = b_ptrs_32 + b_ptrs_33
    v2 = K + 15
    v3 = v2 // 16
    b_ptrs_35 = stride_bk * 16
    twill_n = (v3 - 0 + 1 - 1) // 1
    b_55_as = gl.allocate_shared_memory(gl.float32, [2, 16, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    a_52_as = gl.allocate_shared_memory(gl.float32, [2, 64, 16], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    a_ptrs_59 = a_ptrs_25
    b_ptrs_60 = b_ptrs_34
    a_ptrs_59_p1 = a_ptrs_59
    b_ptrs_60_p1 = b_ptrs_60
    acc_58 = gl.full([64, 64], 0.0, gl.float32, layout=L5)
    a = (0 + (0 - 0) * 1) * 16  # load0_a: stage 0, partition 0 (group 0)
    a_48 = K - a  # load0_a: stage 0, partition 0 (group 0)
    b = a_48  # load1_b: stage 0, partition 0 (group 0)
    b_53 = b_ptrs_26 < b  # load1_b: stage 0, partition 0 (group 0)
    b_54 = b_53.broadcast_to([16, 64])  # load1_b: stage 0, partition 0 (group 0)
    b_ptrs_60 = b_ptrs_60_p1 + b_ptrs_35  # load1_b: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_55_as.index((0 - 0) % 2), b_ptrs_60_p1, mask=b_54)  # load1_b: stage 0, partition 0 (group 0)
    else:  # load1_b: stage 0, partition 0 (group 0)
        b_55_as.index((0 - 0) % 2).store(gl.load(b_ptrs_60_p1, mask=b_54, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
    a_49 = a_48  # load0_a: stage 0, partition 0 (group 0)
    a_50 = a_ptrs_22 < a_49  # load0_a: stage 0, partition 0 (group 0)
    a_51 = a_50.broadcast_to([64, 16])  # load0_a: stage 0, partition 0 (group 0)
    a_ptrs_59 = a_ptrs_59_p1 + 16  # load0_a: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(a_52_as.index((0 - 0) % 2), a_ptrs_59_p1, mask=a_51)  # load0_a: stage 0, partition 0 (group 0)
    else:  # load0_a: stage 0, partition 0 (group 0)
        a_52_as.index((0 - 0) % 2).store(gl.load(a_ptrs_59_p1, mask=a_51, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_59_p1 = a_ptrs_59
    acc_58_p1 = acc_58
    b_ptrs_60_p1 = b_ptrs_60
    for twill_b in range(1, twill_n):
        a = (0 + (twill_b - 0) * 1) * 16  # load0_a: stage 0, partition 0 (group 0)
        a_48 = K - a  # load0_a: stage 0, partition 0 (group 0)
        b = a_48  # load1_b: stage 0, partition 0 (group 0)
        b_53 = b_ptrs_26 < b  # load1_b: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_55 = b_55_as.index((twill_b - 1) % 2).load(L6)  # load1_b: stage 1, partition 0 (group 0)
        b_54 = b_53.broadcast_to([16, 64])  # load1_b: stage 0, partition 0 (group 0)
        b_ptrs_60 = b_ptrs_60_p1 + b_ptrs_35  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_55_as.index((twill_b - 0) % 2), b_ptrs_60_p1, mask=b_54)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_55_as.index((twill_b - 0) % 2).store(gl.load(b_ptrs_60_p1, mask=b_54, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
        b_57 = gl.convert_layout(b_55, L6)  # convert1_b: stage 1, partition 0 (group 0)
        a_49 = a_48  # load0_a: stage 0, partition 0 (group 0)
        a_50 = a_ptrs_22 < a_49  # load0_a: stage 0, partition 0 (group 0)
        a_52 = a_52_as.index((twill_b - 1) % 2).load(L7)  # load0_a: stage 1, partition 0 (group 0)
        a_51 = a_50.broadcast_to([64, 16])  # load0_a: stage 0, partition 0 (group 0)
        a_ptrs_59 = a_ptrs_59_p1 + 16  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_52_as.index((twill_b - 0) % 2), a_ptrs_59_p1, mask=a_51)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_52_as.index((twill_b - 0) % 2).store(gl.load(a_ptrs_59_p1, mask=a_51, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        a_56 = gl.convert_layout(a_52, L7)  # convert0_a: stage 1, partition 0 (group 0)
        acc_58 = gl.dot_fma(a_56, b_57, acc_58_p1)  # dot0_acc: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_59_p1 = a_ptrs_59
        acc_58_p1 = acc_58
        b_ptrs_60_p1 = b_ptrs_60
    async_copy.wait_group(0)
    gl.thread_barrier()
    b_55 = b_55_as.index(((twill_n - 1 + 1) - 1) % 2).load(L6)  # load1_b: stage 1, partition 0 (group 0)
    b_57 = gl.convert_layout(b_55, L6)  # convert1_b: stage 1, partition 0 (group 0)
    a_52 = a_52_as.index(((twill_n - 1 + 1) - 1) % 2).load(L7)  # load0_a: stage 1, partition 0 (group 0)
    a_56 = gl.convert_layout(a_52, L7)  # convert0_a: stage 1, partition 0 (group 0)
    acc_58 = gl.dot_fma(a_56, b_57, acc_58_p1)  # dot0_acc: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_59_p2 = a_ptrs_59_p1
    a_ptrs_59_p1 = a_ptrs_59
    acc_58_p1 = acc_58
    b_ptrs_60_p2 = b_ptrs_60_p1
    b_ptrs_60_p1 = b_ptrs_60
    v4 = has_scale != 0
    if v4:
        s_45 = offs_n_15 < N
        s_47 = scale_ptr + offs_n_15
        s_48 = gl.load(s_47, mask=s_45, other=0.0)
        v5 = s_48
    else:
        v5 = gl.full([64], 1.0, gl.float32, layout=L3)
    c = gl.expand_dims(v5, 0)
    c_37 = c.broadcast_to([64, 64])
    c_38 = acc_58_p1 * c_37
    c_ptrs_39 = a_ptrs_16 * stride_cm
    c_ptrs_41 = c_ptr + c_ptrs_39
    c_ptrs_42 = c_ptrs_41.broadcast_to([64, 64])
    c_ptrs_43 = b_ptrs_31.broadcast_to([64, 64])
    c_ptrs_44 = c_ptrs_42 + c_ptrs_43
    v7 = a_ptrs_16 < M
    v9 = b_ptrs_31 < N
    v10 = v7.broadcast_to([64, 64])
    v11 = v9.broadcast_to([64, 64])
    v12 = v10 & v11
    v13 = gl.convert_layout(c_38, L8)
    gl.store(c_ptrs_44, v13, mask=v12)

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, scale_ptr, M, N, K, num_valid, has_scale, stride_am, stride_bk, stride_cm, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    v0 = pid_m * 64
    v1 = v0 >= num_valid
    if v1:
        return
    consumer_0(a_ptr, b_ptr, c_ptr, scale_ptr, M, N, K, num_valid, has_scale, stride_am, stride_bk, stride_cm, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'scale_ptr', 'M', 'N', 'K', 'num_valid', 'has_scale', 'stride_am', 'stride_bk', 'stride_cm', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'scale_ptr', 'M', 'N', 'K', 'num_valid', 'has_scale', 'stride_am', 'stride_bk', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'scale_ptr', 'M', 'N', 'K', 'num_valid', 'has_scale', 'stride_am', 'stride_bk', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 16}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'K', 'stride_am', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 15) // 16)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 15) // 16)): run the Triton kernel for it")
    shapes = None
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED)}
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


def _aligned(value):
    """Whether an argument is specialised as 16-divisible (Triton's rule): an integer's value, a tensor's address."""
    if hasattr(value, "data_ptr"):
        return value.data_ptr() % 16 == 0
    return isinstance(value, int) and value % 16 == 0


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
