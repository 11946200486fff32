"""i64_gemm, written by twill from its joint schedule: I=280 L=323 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (the dots' tiles loaded by its own warps and stored to shared memory for the wgmma, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, in their readers' stage; 1 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 120 per thread)
- shared operand a_58_st: partition 0 stores the loop's [128, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand b_65_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 65552 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[4, 2], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 4], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 4], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[4, 2], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 4], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, sizes):
    M = gl.load(sizes)
    N_2 = sizes + 1
    N_3 = gl.load(N_2)
    K_4 = sizes + 2
    K_5 = gl.load(K_4)
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_m = pid_m * 128
    offs_m_6 = gl.arange(0, 128, layout=L0)
    offs_m_7 = gl.arange(0, 128, layout=L1)
    offs_m_8 = gl.arange(0, 128, layout=L2)
    offs_m_11 = offs_m + offs_m_6
    offs_m_12 = offs_m + offs_m_7
    offs_n = pid_n * 128
    offs_n_14 = offs_n + offs_m_8
    a_ptrs = gl.expand_dims(offs_m_11, 1)
    a_ptrs_15 = gl.expand_dims(offs_m_12, 1)
    a_ptrs_16 = a_ptrs.to(gl.int64)
    a_ptrs_17 = a_ptrs_15.to(gl.int64)
    a_ptrs_19 = a_ptrs_16 * K_5
    a_ptrs_21 = a_ptr + a_ptrs_19
    a_ptrs_22 = gl.arange(0, 64, layout=L3)
    a_ptrs_23 = gl.expand_dims(a_ptrs_22, 0)
    a_ptrs_24 = a_ptrs_21.broadcast_to([128, 64])
    a_ptrs_25 = a_ptrs_23.broadcast_to([128, 64])
    a_ptrs_26 = a_ptrs_24 + a_ptrs_25
    b_ptrs = gl.arange(0, 64, layout=L1)
    b_ptrs_27 = gl.expand_dims(b_ptrs, 1)
    b_ptrs_28 = b_ptrs_27.to(gl.int64)
    b_ptrs_30 = b_ptrs_28 * N_3
    b_ptrs_32 = b_ptr + b_ptrs_30
    b_ptrs_33 = gl.expand_dims(offs_n_14, 0)
    b_ptrs_34 = b_ptrs_32.broadcast_to([64, 128])
    b_ptrs_35 = b_ptrs_33.broadcast_to([64, 128])
    b_ptrs_36 = b_ptrs_34 + b_ptrs_35
    a_37 = a_ptrs_16 < M
    a_38 = a_ptrs_23.to(gl.int64)
    a_40 = a_37.broadcast_to([128, 64])
    b_41 = b_ptrs_33.to(gl.int64)
    b_43 = b_41 < N_3
    b_44 = b_43.broadcast_to([64, 128])
    b_ptrs_45 = N_3 * 64
    twill_n = gl.cast((K_5 - 0 + 64 - 1) // 64, gl.int32)
    a_58_st = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_65_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_ptrs_67 = a_ptrs_26
    b_ptrs_68 = b_ptrs_36
    acc_66 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
    a_ptrs_67_p1 = a_ptrs_67
    acc_66_p1 = acc_66
    b_ptrs_68_p1 = b_ptrs_68
    for twill_b in range(0, twill_n):
        b_59 = (0 + (twill_b - 0) * 64)  # elementwise1_b: stage 0, partition 0 (group 0)
        b_60 = b_ptrs_28 + b_59  # elementwise1_b: stage 0, partition 0 (group 0)
        b_61 = b_60 < K_5  # elementwise1_b: stage 0, partition 0 (group 0)
        b_62 = b_61.broadcast_to([64, 128])  # elementwise1_b: stage 0, partition 0 (group 0)
        b_63 = b_62 & b_44  # elementwise1_b: stage 0, partition 0 (group 0)
        a_52 = (0 + (twill_b - 0) * 64)  # elementwise0_a: stage 0, partition 0 (group 0)
        a_53 = a_38 + a_52  # elementwise0_a: stage 0, partition 0 (group 0)
        a_54 = a_53 < K_5  # elementwise0_a: stage 0, partition 0 (group 0)
        a_55 = a_54.broadcast_to([128, 64])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_56 = a_40 & a_55  # elementwise0_a: stage 0, partition 0 (group 0)
        a_ptrs_67 = a_ptrs_67_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
        a_57 = gl.load(a_ptrs_67_p1, mask=a_56, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_68 = b_ptrs_68_p1 + b_ptrs_45  # load1_b: stage 0, partition 0 (group 0)
        a_58 = a_58_st.index((twill_b - 0) % 2)  # load0_a: stage 0, partition 0 (group 0)
        a_58.store(a_57)  # load0_a: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        b_64 = gl.load(b_ptrs_68_p1, mask=b_63, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
        b_65 = b_65_st.index((twill_b - 0) % 2)  # load1_b: stage 0, partition 0 (group 0)
        b_65.store(b_64)  # load1_b: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        tok_acc_66 = warpgroup_mma(a_58, b_65, acc_66_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_66_p1 = warpgroup_mma_wait(1, deps=(acc_66_p1,))
        acc_66 = warpgroup_mma_wait(1, deps=(tok_acc_66,))
        a_ptrs_67_p1 = a_ptrs_67
        acc_66_p1 = acc_66
        b_ptrs_68_p1 = b_ptrs_68
    acc_66_p1 = warpgroup_mma_wait(0, deps=(acc_66_p1,))
    a_58_st._keep_alive()
    b_65_st._keep_alive()
    v1 = a_ptrs_17 < M
    v2 = b_ptrs_33.to(gl.int64)
    v4 = v2 < N_3
    v5 = v1.broadcast_to([128, 128])
    v6 = v4.broadcast_to([128, 128])
    v7 = v5 & v6
    v9 = a_ptrs_17 * N_3
    v11 = c_ptr + v9
    v12 = v11.broadcast_to([128, 128])
    v13 = b_ptrs_33.broadcast_to([128, 128])
    v14 = v12 + v13
    v15 = acc_66_p1.to(gl.float16)
    v16 = gl.convert_layout(v15, L5)
    gl.store(v14, v16, mask=v7)

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, sizes):
    consumer_0(a_ptr, b_ptr, c_ptr, sizes, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'sizes', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'sizes']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'sizes']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
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
