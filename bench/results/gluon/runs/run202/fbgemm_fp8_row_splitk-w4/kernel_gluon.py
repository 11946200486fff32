"""_kernel_matmul_fp8_row_splitk, written by twill from its joint schedule: I=300 L=300 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (the dots' tiles loaded by its own warps and stored to shared memory for the wgmma, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, in their readers' stage; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 296 per thread)
- shared operand a_93_st: partition 0 stores the loop's [128, 128] f8E4M3FN register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared operand b_97_st: partition 0 stores the loop's [128, 128] f8E4M3FN register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 65552 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 4], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 32]))
L8 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L9 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(A, B, C, M, N, K, A_scale, B_scale, stride_am, stride_bn, stride_cm):
    pid = gl.program_id(0)
    pid_z = gl.program_id(1)
    grid_m = M + 127
    grid_m_4 = grid_m // 128
    grid_n = N + 127
    grid_n_5 = grid_n // 128
    width = grid_n_5 * 8
    group_id = pid // width
    group_size = group_id * 8
    group_size_6 = grid_m_4 - group_size
    group_size_7 = gl.minimum(group_size_6, 8)
    pid_m = pid % group_size_7
    pid_m_8 = group_size + pid_m
    pid_n = pid % width
    pid_n_9 = pid_n // group_size_7
    rm = pid_m_8 * 128
    rm_10 = gl.arange(0, 128, layout=L0)
    rm_11 = gl.arange(0, 128, layout=L1)
    rm_12 = gl.arange(0, 128, layout=L2)
    rm_13 = gl.arange(0, 128, layout=L3)
    rm_14 = gl.arange(0, 128, layout=L4)
    rm_15 = gl.arange(0, 128, layout=L5)
    rm_16 = gl.arange(0, 128, layout=L6)
    rm_20 = rm + rm_10
    rm_21 = rm + rm_12
    rm_22 = rm + rm_16
    rn = pid_n_9 * 128
    rn_26 = rn + rm_14
    rn_27 = rn + rm_15
    rn_28 = rn + rm_16
    ram_31 = rm_20 % M
    ram_31 = gl.max_contiguous(gl.multiple_of(ram_31, [128]), [128])
    rbn_34 = rn_26 % N
    rbn_34 = gl.max_contiguous(gl.multiple_of(rbn_34, [128]), [128])
    rk = pid_z * 128
    rk_37 = rk + rm_13
    rk_38 = rk + rm_11
    A_39 = gl.expand_dims(ram_31, 1)
    A_41 = A_39 * stride_am
    A_42 = gl.expand_dims(rk_37, 0)
    A_43 = A_41.broadcast_to([128, 128])
    A_44 = A_42.broadcast_to([128, 128])
    A_45 = A_43 + A_44
    A_47 = A + A_45
    B_48 = gl.expand_dims(rk_38, 1)
    B_49 = gl.expand_dims(rbn_34, 0)
    B_51 = B_49 * stride_bn
    B_52 = B_48.broadcast_to([128, 128])
    B_53 = B_51.broadcast_to([128, 128])
    B_54 = B_52 + B_53
    B_56 = B + B_54
    v0 = K + 511
    v1 = v0 // 512
    twill_n = (v1 - 0 + 1 - 1) // 1
    a_93_st = gl.allocate_shared_memory(gl.float8e4nv, [2, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    b_97_st = gl.allocate_shared_memory(gl.float8e4nv, [2, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True))
    acc_99 = gl.full([128, 128], 0.0, gl.float32, layout=L7)
    A_100 = A_47
    B_101 = B_56
    A_100_p1 = A_100
    B_101_p1 = B_101
    acc_99_p1 = acc_99
    for twill_b in range(0, twill_n):
        k_remaining = (0 + (twill_b - 0) * 1) * 512  # load0_a: stage 0, partition 0 (group 0)
        k_remaining_89 = K - k_remaining  # load0_a: stage 0, partition 0 (group 0)
        a = k_remaining_89  # load0_a: stage 0, partition 0 (group 0)
        a_90 = A_42 < a  # load0_a: stage 0, partition 0 (group 0)
        b = k_remaining_89  # load1_b: stage 0, partition 0 (group 0)
        a_91 = a_90.broadcast_to([128, 128])  # load0_a: stage 0, partition 0 (group 0)
        b_94 = B_48 < b  # load1_b: stage 0, partition 0 (group 0)
        A_100 = A_100_p1 + 512  # load0_a: stage 0, partition 0 (group 0)
        a_92 = gl.load(A_100_p1, mask=a_91, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        b_95 = b_94.broadcast_to([128, 128])  # load1_b: stage 0, partition 0 (group 0)
        B_101 = B_101_p1 + 512  # load1_b: stage 0, partition 0 (group 0)
        b_96 = gl.load(B_101_p1, mask=b_95, other=0.0)  # load1_b: stage 0, partition 0 (group 0)
        a_93 = a_93_st.index((twill_b - 0) % 2)  # load0_a: stage 0, partition 0 (group 0)
        a_93.store(a_92)  # load0_a: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        b_97 = b_97_st.index((twill_b - 0) % 2)  # load1_b: stage 0, partition 0 (group 0)
        b_97.store(b_96)  # load1_b: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        tok_acc_98 = warpgroup_mma(a_93, b_97, gl.full([128, 128], 0.0, gl.float32, layout=L7), use_acc=False, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_98 = warpgroup_mma_wait(0, deps=(tok_acc_98,))
        acc_99 = acc_99_p1 + acc_98  # elementwise0_acc: stage 0, partition 0 (group 0)
        A_100_p1 = A_100
        B_101_p1 = B_101
        acc_99_p1 = acc_99
    a_93_st._keep_alive()
    b_97_st._keep_alive()
    a_scale = rm_21 < M
    a_scale_57 = rm_22 < M
    a_scale_59 = A_scale + rm_22
    a_scale_60 = gl.load(a_scale_59, mask=a_scale_57)
    b_scale = rn_27 < N
    b_scale_61 = rn_28 < N
    b_scale_63 = B_scale + rn_28
    b_scale_64 = gl.load(b_scale_63, mask=b_scale_61)
    scale = gl.convert_layout(a_scale_60, L8)
    scale_65 = gl.expand_dims(scale, 1)
    scale_66 = gl.convert_layout(b_scale_64, L9)
    scale_67 = gl.expand_dims(scale_66, 0)
    scale_68 = scale_65.broadcast_to([128, 128])
    scale_69 = scale_67.broadcast_to([128, 128])
    scale_70 = scale_68 * scale_69
    scale_71 = gl.convert_layout(scale_70, L7)
    acc_72 = acc_99_p1 * scale_71
    C_73 = gl.expand_dims(rm_21, 1)
    C_75 = C_73 * stride_cm
    C_76 = gl.expand_dims(rn_27, 0)
    C_77 = C_75.broadcast_to([128, 128])
    C_78 = C_76.broadcast_to([128, 128])
    C_79 = C_77 + C_78
    C_81 = C + C_79
    mask = gl.expand_dims(a_scale, 1)
    mask_82 = gl.expand_dims(b_scale, 0)
    mask_83 = mask.broadcast_to([128, 128])
    mask_84 = mask_82.broadcast_to([128, 128])
    mask_85 = mask_83 & mask_84
    v2 = gl.convert_layout(acc_72, L10)
    v3 = gl.atomic_add(C_81, v2, mask=mask_85, sem='acq_rel', scope='gpu')

@gluon.jit
def twill_kernel(A, B, C, M, N, K, A_scale, B_scale, stride_am, stride_bn, stride_cm):
    consumer_0(A, B, C, M, N, K, A_scale, B_scale, stride_am, stride_bn, stride_cm, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'C', 'M', 'N', 'K', 'A_scale', 'B_scale', 'stride_am', 'stride_ak', 'stride_bn', 'stride_bk', 'stride_cm', 'stride_cn', 'allow_tf32', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M', 'SPLIT_K', 'EVEN_K']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'C', 'M', 'N', 'K', 'A_scale', 'B_scale', 'stride_am', 'stride_bn', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'C', 'M', 'N', 'K', 'A_scale', 'B_scale', 'stride_am', 'stride_bn', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'allow_tf32': True, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 128, 'GROUP_M': 8, 'SPLIT_K': 4, 'EVEN_K': False}         # the specialisation this kernel was generated for
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
