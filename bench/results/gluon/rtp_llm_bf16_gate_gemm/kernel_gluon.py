"""_bf16_gate_gemm, written by twill from its joint schedule: I=540 L=433 (optimal), 2560 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 176 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 1, 8], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))))
L1 = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8, 1], threads_per_warp=[1, 32, 1], warps_per_cta=[4, 1, 1], order=[1, 0, 2]))))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1, 8], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))))
L5 = gl.constexpr(gl.SliceLayout(1, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 8, 1], threads_per_warp=[1, 32, 1], warps_per_cta=[4, 1, 1], order=[1, 0, 2]))))
L6 = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1, 8], threads_per_warp=[1, 1, 32], warps_per_cta=[4, 1, 1], order=[2, 0, 1]))))
L7 = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(2, gl.BlockedLayout(size_per_thread=[1, 8, 1], threads_per_warp=[1, 32, 1], warps_per_cta=[4, 1, 1], order=[1, 0, 2]))))
L8 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[4, 1, 1], instr_shape=[1, 16, 8]))
L9 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[4, 1, 1], instr_shape=[1, 16, 8]), k_width=2))
L10 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[4, 1, 1], instr_shape=[1, 16, 8]), k_width=2))
L11 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1, 0], [8, 0, 0], [0, 8, 0]], lane_bases=[[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp_bases=[[0, 0, 1], [0, 0, 2]], block_bases=[], shape=[16, 16, 4]))
L12 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1, 0, 0], [8, 0, 0, 0], [0, 8, 0, 0]], lane_bases=[[0, 2, 0, 0], [0, 4, 0, 0], [1, 0, 0, 0], [2, 0, 0, 0], [4, 0, 0, 0]], warp_bases=[[0, 0, 0, 1], [0, 0, 1, 0]], block_bases=[], shape=[16, 16, 2, 2]))
L13 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2, 2, 2], threads_per_warp=[4, 8, 1, 1], warps_per_cta=[4, 1, 1, 1], order=[3, 2, 1, 0]))
L14 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2, 2], threads_per_warp=[4, 8, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L15 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(X, W, B, Y, M):
    rows = gl.program_id(0)
    rows_9 = rows * 16
    rows_10 = gl.arange(0, 16, layout=L0)
    rows_11 = gl.arange(0, 16, layout=L1)
    rows_12 = gl.arange(0, 16, layout=L2)
    rows_13 = gl.arange(0, 16, layout=L3)
    rows_16 = rows_9 + rows_10
    rows_17 = rows_9 + rows_13
    cols = gl.program_id(1)
    cols_18 = cols * 16
    cols_21 = cols_18 + rows_11
    cols_22 = cols_18 + rows_12
    k = gl.arange(0, 4, layout=L4)
    k_23 = gl.arange(0, 4, layout=L5)
    k_24 = gl.expand_dims(k, 1)
    k_25 = gl.expand_dims(k_23, 1)
    k_26 = k_24 * 1024
    k_27 = k_25 * 1024
    k_28 = gl.arange(0, 256, layout=L6)
    k_29 = gl.arange(0, 256, layout=L7)
    k_30 = gl.expand_dims(k_28, 0)
    k_31 = gl.expand_dims(k_29, 0)
    k_32 = k_30.broadcast_to([4, 256])
    k_33 = k_31.broadcast_to([4, 256])
    x = gl.expand_dims(rows_16, 0)
    x_34 = gl.expand_dims(x, 2)
    x_35 = x_34 * 4096
    x_37 = X + x_35
    x_38 = x_37.broadcast_to([4, 16, 256])
    x_40 = x_34 < M
    x_41 = x_40.broadcast_to([4, 16, 256])
    w_42 = gl.expand_dims(cols_21, 0)
    w_43 = gl.expand_dims(w_42, 1)
    w_44 = w_43 * 4096
    w_45 = w_44.broadcast_to([4, 256, 16])
    w_46 = w_43 < 128
    w_47 = w_46.broadcast_to([4, 256, 16])
    twill_n = (4 - 0 + 1 - 1) // 1
    acc_87 = gl.full([4, 16, 16], 0.0, gl.float32, layout=L8)
    k_67 = (0 + (0 - 0) * 1) * 256  # load0_x: stage 0, partition 0 (group 0)
    k_69 = k_67  # load1_w: stage 0, partition 0 (group 0)
    k_71 = k_27 + k_69  # load1_w: stage 0, partition 0 (group 0)
    k_73 = k_71.broadcast_to([4, 256])  # load1_w: stage 0, partition 0 (group 0)
    k_75 = k_73 + k_33  # load1_w: stage 0, partition 0 (group 0)
    w_80 = gl.expand_dims(k_75, 2)  # load1_w: stage 0, partition 0 (group 0)
    w_81 = W + w_80  # load1_w: stage 0, partition 0 (group 0)
    w_82 = w_81.broadcast_to([4, 256, 16])  # load1_w: stage 0, partition 0 (group 0)
    w_83 = w_82 + w_45  # load1_w: stage 0, partition 0 (group 0)
    w_84 = gl.load(w_83, mask=w_47, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
    k_68 = k_67  # load0_x: stage 0, partition 0 (group 0)
    k_70 = k_26 + k_68  # load0_x: stage 0, partition 0 (group 0)
    k_72 = k_70.broadcast_to([4, 256])  # load0_x: stage 0, partition 0 (group 0)
    k_74 = k_72 + k_32  # load0_x: stage 0, partition 0 (group 0)
    x_76 = gl.expand_dims(k_74, 1)  # load0_x: stage 0, partition 0 (group 0)
    x_77 = x_76.broadcast_to([4, 16, 256])  # load0_x: stage 0, partition 0 (group 0)
    x_78 = x_38 + x_77  # load0_x: stage 0, partition 0 (group 0)
    x_79 = gl.load(x_78, mask=x_41, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    acc_87_p1 = acc_87
    w_84_p1 = w_84
    x_79_p1 = x_79
    for twill_b in range(1, twill_n):
        k_67 = (0 + (twill_b - 0) * 1) * 256  # load0_x: stage 0, partition 0 (group 0)
        k_69 = k_67  # load1_w: stage 0, partition 0 (group 0)
        k_71 = k_27 + k_69  # load1_w: stage 0, partition 0 (group 0)
        k_73 = k_71.broadcast_to([4, 256])  # load1_w: stage 0, partition 0 (group 0)
        k_75 = k_73 + k_33  # load1_w: stage 0, partition 0 (group 0)
        w_80 = gl.expand_dims(k_75, 2)  # load1_w: stage 0, partition 0 (group 0)
        w_81 = W + w_80  # load1_w: stage 0, partition 0 (group 0)
        w_82 = w_81.broadcast_to([4, 256, 16])  # load1_w: stage 0, partition 0 (group 0)
        w_83 = w_82 + w_45  # load1_w: stage 0, partition 0 (group 0)
        w_84 = gl.load(w_83, mask=w_47, other=0.0)  # load1_w: stage 0, partition 0 (group 0)
        w_86 = gl.convert_layout(w_84_p1, L9)  # convert1_w: stage 1, partition 0 (group 0)
        k_68 = k_67  # load0_x: stage 0, partition 0 (group 0)
        k_70 = k_26 + k_68  # load0_x: stage 0, partition 0 (group 0)
        k_72 = k_70.broadcast_to([4, 256])  # load0_x: stage 0, partition 0 (group 0)
        k_74 = k_72 + k_32  # load0_x: stage 0, partition 0 (group 0)
        x_76 = gl.expand_dims(k_74, 1)  # load0_x: stage 0, partition 0 (group 0)
        x_77 = x_76.broadcast_to([4, 16, 256])  # load0_x: stage 0, partition 0 (group 0)
        x_78 = x_38 + x_77  # load0_x: stage 0, partition 0 (group 0)
        x_79 = gl.load(x_78, mask=x_41, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_85 = gl.convert_layout(x_79_p1, L10)  # convert0_x: stage 1, partition 0 (group 0)
        acc_87 = mma_v2(x_85, w_86, acc_87_p1)  # dot0_acc: stage 1, partition 0 (group 0)
        acc_87_p1 = acc_87
        w_84_p1 = w_84
        x_79_p1 = x_79
    w_86 = gl.convert_layout(w_84_p1, L9)  # convert1_w: stage 1, partition 0 (group 0)
    x_85 = gl.convert_layout(x_79_p1, L10)  # convert0_x: stage 1, partition 0 (group 0)
    acc_87 = mma_v2(x_85, w_86, acc_87_p1)  # dot0_acc: stage 1, partition 0 (group 0)
    acc_87_p1 = acc_87
    w_84_p1 = w_84
    x_79_p1 = x_79
    paired = gl.convert_layout(gl.permute(acc_87_p1, (1, 2, 0)), L11)
    paired_49 = gl.convert_layout(gl.reshape(paired, [16, 16, 2, 2]), L12)
    v0 = gl.convert_layout(paired_49, L13)
    outLHS, outRHS = gl.split(v0)
    outLHS = gl.convert_layout(outLHS, L14)
    outRHS = gl.convert_layout(outRHS, L14)
    outLHS_50, outRHS_51 = gl.split(outLHS)
    outLHS_50 = gl.convert_layout(outLHS_50, L15)
    outRHS_51 = gl.convert_layout(outRHS_51, L15)
    outLHS_52, outRHS_53 = gl.split(outRHS)
    outLHS_52 = gl.convert_layout(outLHS_52, L15)
    outRHS_53 = gl.convert_layout(outRHS_53, L15)
    total_54 = outLHS_50 + outLHS_52
    total_55 = total_54 + outRHS_51
    total_56 = total_55 + outRHS_53
    total_58 = B + cols_22
    total_59 = cols_22 < 128
    total_60 = gl.load(total_58, mask=total_59, other=0.0)
    total_61 = total_60.to(gl.float32)
    total_62 = gl.expand_dims(total_61, 0)
    total_63 = total_62.broadcast_to([16, 16])
    total_64 = total_56 + total_63
    v1 = gl.expand_dims(rows_17, 1)
    v2 = v1 * 128
    v4 = Y + v2
    v5 = gl.expand_dims(cols_22, 0)
    v6 = v4.broadcast_to([16, 16])
    v7 = v5.broadcast_to([16, 16])
    v8 = v6 + v7
    v10 = v1 < M
    v11 = v5 < 128
    v12 = v10.broadcast_to([16, 16])
    v13 = v11.broadcast_to([16, 16])
    v14 = v12 & v13
    v15 = total_64.to(gl.bfloat16)
    gl.store(v8, v15, mask=v14)

@gluon.jit
def twill_kernel(X, W, B, Y, M):
    consumer_0(X, W, B, Y, M, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'W', 'B', 'Y', 'M', 'N', 'K', 'XS', 'XK', 'WN', 'WK', 'HAS_BIAS', 'BM', 'BN', 'BK', 'SK']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'W', 'B', 'Y', 'M']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X', 'W', 'B', 'Y', 'M']   # the arguments a launch key reads
CONSTEXPRS = {'N': 128, 'K': 4096, 'XS': 4096, 'XK': 1, 'WN': 4096, 'WK': 1, 'HAS_BIAS': True, 'BM': 16, 'BN': 16, 'BK': 256, 'SK': 4}         # the specialisation this kernel was generated for
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
