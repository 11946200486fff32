"""chunk_scaled_dot_kkt, written by twill from its joint schedule: I=197 L=290 (optimal), 921 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 88 per thread)
- shared operand b_A_71_st: partition 0 stores the loop's [64, 64] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 16400 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.SliceLayout(1, gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2)))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(k, beta, A, T):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    o_t = v0 * 64
    o_t_8 = gl.arange(0, 64, layout=L0)
    o_t_9 = gl.arange(0, 64, layout=L1)
    o_t_10 = gl.arange(0, 64, layout=L2)
    o_t_11 = gl.arange(0, 64, layout=L3)
    o_t_12 = gl.arange(0, 64, layout=L4)
    o_t_13 = gl.arange(0, 64, layout=L5)
    o_t_16 = o_t + o_t_9
    o_t_17 = o_t + o_t_12
    p_beta = v1 * T
    p_beta_18 = beta + p_beta
    p_beta_19 = gl.cast(T, gl.int64)
    p_beta_20 = gl.cast(o_t, gl.int64)
    b_beta_24 = o_t_8.to(gl.int64)
    b_beta_25 = o_t_10.to(gl.int64)
    b_beta_26 = o_t_11.to(gl.int64)
    b_beta_27 = o_t_13.to(gl.int64)
    b_beta_28 = p_beta_20 + b_beta_24
    b_beta_29 = p_beta_20 + b_beta_25
    b_beta_30 = p_beta_18 + b_beta_28
    b_beta_31 = b_beta_28 >= 0
    b_beta_33 = b_beta_28 < p_beta_19
    b_beta_34 = b_beta_31 & b_beta_33
    b_beta_35 = gl.load(b_beta_30, mask=b_beta_34)
    b_kb = gl.convert_layout(b_beta_35, L6)
    p_k = p_beta * 128
    p_k_36 = k + p_k
    b_k_37 = gl.expand_dims(b_beta_28, 1)
    b_k_38 = b_k_37 * 128
    b_k_39 = b_k_38.broadcast_to([64, 64])
    b_k_40 = b_k_37 >= 0
    b_k_42 = b_k_37 < p_beta_19
    b_k_43 = b_k_40 & b_k_42
    b_k_44 = b_k_43.broadcast_to([64, 64])
    b_kb_45 = gl.expand_dims(b_kb, 1)
    b_kb_46 = b_kb_45.broadcast_to([64, 64])
    twill_n = (2 - 0 + 1 - 1) // 1
    b_A_71_st = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_A_73 = gl.full([64, 64], 0.0, gl.float32, layout=L7)
    p_k_55 = (0 + (0 - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
    p_k_56 = gl.cast(p_k_55, gl.int64)  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_57 = p_k_56  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_58 = b_k_57 + b_beta_26  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_59 = gl.expand_dims(b_k_58, 0)  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_63 = b_k_59 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_64 = b_k_59 < 128  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_65 = b_k_63 & b_k_64  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_66 = b_k_65.broadcast_to([64, 64])  # elementwise1_b_k: stage 0, partition 0 (group 0)
    b_k_67 = b_k_44 & b_k_66  # elementwise1_b_k: stage 0, partition 0 (group 0)
    b_k_60 = b_k_59.broadcast_to([64, 64])  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_61 = b_k_39 + b_k_60  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_62 = p_k_36 + b_k_61  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_68 = gl.load(b_k_62, mask=b_k_67)  # load0_b_k: stage 0, partition 0 (group 0)
    b_A_73_p1 = b_A_73
    b_k_68_p1 = b_k_68
    for twill_b in range(1, twill_n):
        p_k_55 = (0 + (twill_b - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
        p_k_56 = gl.cast(p_k_55, gl.int64)  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_57 = p_k_56  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_58 = b_k_57 + b_beta_26  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_59 = gl.expand_dims(b_k_58, 0)  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_63 = b_k_59 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_64 = b_k_59 < 128  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_65 = b_k_63 & b_k_64  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_66 = b_k_65.broadcast_to([64, 64])  # elementwise1_b_k: stage 0, partition 0 (group 0)
        b_k_67 = b_k_44 & b_k_66  # elementwise1_b_k: stage 0, partition 0 (group 0)
        b_k_60 = b_k_59.broadcast_to([64, 64])  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_61 = b_k_39 + b_k_60  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_62 = p_k_36 + b_k_61  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_68 = gl.load(b_k_62, mask=b_k_67)  # load0_b_k: stage 0, partition 0 (group 0)
        b_kb_69 = gl.convert_layout(b_k_68_p1, L8)  # convert0_b_kb: stage 1, partition 0 (group 0)
        b_kb_70 = b_kb_69 * b_kb_46  # elementwise2_b_kb: stage 1, partition 0 (group 0)
        b_A_71 = b_A_71_st.index((twill_b - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
        b_A_71.store(b_k_68_p1)  # load0_b_k: stage 1, partition 0 (group 0)
        fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
        b_A_72 = b_A_71.permute((1, 0))  # load0_b_k: stage 1, partition 0 (group 0)
        tok_b_A_73 = warpgroup_mma(b_kb_70, b_A_72, b_A_73_p1, is_async=True)  # dot0_b_A: stage 1, partition 0 (group 0)
        b_A_73 = warpgroup_mma_wait(0, deps=(tok_b_A_73,))
        b_A_73_p1 = b_A_73
        b_k_68_p1 = b_k_68
    b_kb_69 = gl.convert_layout(b_k_68_p1, L8)  # convert0_b_kb: stage 1, partition 0 (group 0)
    b_kb_70 = b_kb_69 * b_kb_46  # elementwise2_b_kb: stage 1, partition 0 (group 0)
    b_A_71 = b_A_71_st.index(((twill_n - 1 + 1) - 1) % 2)  # load0_b_k: stage 1, partition 0 (group 0)
    b_A_71.store(b_k_68_p1)  # load0_b_k: stage 1, partition 0 (group 0)
    fence_async_shared()  # load0_b_k: stage 1, partition 0 (group 0)
    b_A_72 = b_A_71.permute((1, 0))  # load0_b_k: stage 1, partition 0 (group 0)
    tok_b_A_73 = warpgroup_mma(b_kb_70, b_A_72, b_A_73_p1, is_async=True)  # dot0_b_A: stage 1, partition 0 (group 0)
    b_A_73 = warpgroup_mma_wait(0, deps=(tok_b_A_73,))
    b_A_73_p1 = b_A_73
    b_k_68_p1 = b_k_68
    b_A_71_st._keep_alive()
    b_A_47 = gl.expand_dims(o_t_16, 1)
    b_A_48 = gl.expand_dims(o_t_17, 0)
    b_A_49 = b_A_47.broadcast_to([64, 64])
    b_A_50 = b_A_48.broadcast_to([64, 64])
    b_A_51 = b_A_49 > b_A_50
    b_A_52 = gl.where(b_A_51, b_A_73_p1, 0.0)
    p_A = p_beta * 64
    p_A_53 = A + p_A
    v3 = gl.expand_dims(b_beta_29, 1)
    v4 = v3 * 64
    v5 = v4.broadcast_to([64, 64])
    v6 = gl.expand_dims(b_beta_27, 0)
    v7 = v6.broadcast_to([64, 64])
    v8 = v5 + v7
    v9 = p_A_53 + v8
    v10 = v3 >= 0
    v12 = v3 < p_beta_19
    v13 = v10 & v12
    v14 = v13.broadcast_to([64, 64])
    v15 = v6 >= 0
    v16 = v6 < 64
    v17 = v15 & v16
    v18 = v17.broadcast_to([64, 64])
    v19 = v14 & v18
    v20 = gl.convert_layout(b_A_52, L9)
    gl.store(v9, v20, mask=v19)

@gluon.jit
def twill_kernel(k, beta, A, T):
    consumer_0(k, beta, A, T, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['k', 'beta', 'A', 'T', 'K', 'BT', 'BK']          # the Triton kernel's parameters, in order
RUNTIME = ['k', 'beta', 'A', 'T']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['k', 'beta', 'A', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'K': 128, 'BT': 64, 'BK': 64}         # the specialisation this kernel was generated for
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
