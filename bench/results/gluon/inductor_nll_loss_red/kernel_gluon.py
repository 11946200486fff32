"""triton_red_fused__log_softmax_nll_loss_forward_0, written by twill from its joint schedule: I=77 L=153 (optimal), 616 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 16 warps, registers as ptxas allocates them (the schedule's tiles need about 58 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at inductor_nll_loss_red.py:34 (TTGIR line 38) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=282, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- written from the layouts Triton gives ks0, xnumel, r0_numel 16-divisible (its pointer loads 16 bytes a thread where the launch's specialisation proves them aligned, as Triton's own kernel at such a launch; at one where they are not, Gluon's lowering loads narrower vectors: run 66, FlagGems' softmax correct at N = 33001, x0.64 -> x1.00)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[1, 0]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[0, 1])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[0, 1]))

@gluon.jit
def twill_combine_c6205fe7(a0, a1):
    t0 = a0 > a1
    t1 = a0 != a0
    t2 = t0 | t1
    t3 = gl.where(t2, a0, a1)
    return t3

@gluon.jit
def consumer_0(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, out_ptr1, ks0, xnumel, r0_numel):
    twill_base = 0
    xoffset = gl.program_id(0)
    xmask = xoffset < xnumel
    r0_base = gl.arange(0, 2048, layout=L0)
    r0_base_4 = gl.expand_dims(r0_base, 0)
    tmp0 = ks0 * xoffset
    twill_n = (r0_numel - 0 + 2048 - 1) // 2048
    _tmp3_40 = gl.full([1, 2048], float("-inf"), gl.float32, layout=L1)
    r0_index_31 = (0 + (0 - 0) * 2048) + r0_base_4  # elementwise0_tmp0: stage 0, partition 0 (group 0)
    r0_mask_32 = r0_index_31 < r0_numel  # elementwise0_tmp0: stage 0, partition 0 (group 0)
    tmp0_35 = r0_mask_32 & xmask  # elementwise0_tmp0: stage 0, partition 0 (group 0)
    tmp0_33 = r0_index_31 + tmp0  # load0_tmp0: stage 0, partition 0 (group 0)
    tmp0_34 = in_ptr0 + tmp0_33  # load0_tmp0: stage 0, partition 0 (group 0)
    tmp0_36 = gl.load(tmp0_34, mask=tmp0_35, other=0.0, eviction_policy='evict_last')  # load0_tmp0: stage 0, partition 0 (group 0)
    _tmp3_40_p1 = _tmp3_40
    tmp0_35_p1 = tmp0_35
    tmp0_36_p1 = tmp0_36
    for twill_b in range(1, twill_n):
        r0_index_l0 = (0 + (twill_b - 0) * 2048)  # elementwise0_tmp0: stage 0, partition 0 (group 0)
        r0_index_31 = r0_index_l0 + r0_base_4  # elementwise0_tmp0: stage 0, partition 0 (group 0)
        r0_mask_32 = r0_index_31 < r0_numel  # elementwise0_tmp0: stage 0, partition 0 (group 0)
        tmp0_35 = r0_mask_32 & xmask  # elementwise0_tmp0: stage 0, partition 0 (group 0)
        tmp0_33 = r0_index_31 + tmp0  # load0_tmp0: stage 0, partition 0 (group 0)
        tmp0_34 = in_ptr0 + tmp0_33  # load0_tmp0: stage 0, partition 0 (group 0)
        tmp0_36 = gl.load(tmp0_34, mask=tmp0_35, other=0.0, eviction_policy='evict_last')  # load0_tmp0: stage 0, partition 0 (group 0)
        tmp0_37 = tmp0_36_p1.to(gl.float32)  # convert0_tmp0: stage 1, partition 0 (group 0)
        mask = _tmp3_40_p1 > tmp0_37  # elementwise1_mask: stage 1, partition 0 (group 0)
        mask_38 = _tmp3_40_p1 != _tmp3_40_p1  # elementwise1_mask: stage 1, partition 0 (group 0)
        mask_39 = mask | mask_38  # elementwise1_mask: stage 1, partition 0 (group 0)
        tmp4 = gl.where(mask_39, _tmp3_40_p1, tmp0_37)  # elementwise1_mask: stage 1, partition 0 (group 0)
        _tmp3_40 = gl.where(tmp0_35_p1, tmp4, _tmp3_40_p1)  # elementwise1_mask: stage 1, partition 0 (group 0)
        _tmp3_40_p1 = _tmp3_40
        tmp0_35_p1 = tmp0_35
        tmp0_36_p1 = tmp0_36
    tmp0_37 = tmp0_36_p1.to(gl.float32)  # convert0_tmp0: stage 1, partition 0 (group 0)
    mask = _tmp3_40_p1 > tmp0_37  # elementwise1_mask: stage 1, partition 0 (group 0)
    mask_38 = _tmp3_40_p1 != _tmp3_40_p1  # elementwise1_mask: stage 1, partition 0 (group 0)
    mask_39 = mask | mask_38  # elementwise1_mask: stage 1, partition 0 (group 0)
    tmp4 = gl.where(mask_39, _tmp3_40_p1, tmp0_37)  # elementwise1_mask: stage 1, partition 0 (group 0)
    _tmp3_40 = gl.where(tmp0_35_p1, tmp4, _tmp3_40_p1)  # elementwise1_mask: stage 1, partition 0 (group 0)
    _tmp3_40_p1 = _tmp3_40
    tmp0_35_p1 = tmp0_35
    tmp0_36_p1 = tmp0_36
    twill_base += twill_n
    tmp3, = gl.reduce((_tmp3_40_p1,), 1, twill_combine_c6205fe7)
    tmp3_9 = gl.convert_layout(tmp3, L2)
    tmp3_10 = gl.expand_dims(tmp3_9, 1)
    tmp3_11 = gl.expand_dims(tmp3, 1)
    v0 = out_ptr0 + xoffset
    gl.store(gl.full([1, 1], v0, gl.pointer_type(gl.float32), layout=L3), tmp3_10, mask=gl.full([1, 1], xmask, gl.int1, layout=L3))
    tmp5 = ks0 * xoffset
    tmp7 = tmp3_11.broadcast_to([1, 2048])
    twill_n = (r0_numel - 0 + 2048 - 1) // 2048
    _tmp10_38 = gl.full([1, 2048], 0.0, gl.float32, layout=L1)
    r0_index_30 = (0 + (0 - 0) * 2048) + r0_base_4  # elementwise0_tmp5: stage 0, partition 0 (group 0)
    r0_mask_31 = r0_index_30 < r0_numel  # elementwise0_tmp5: stage 0, partition 0 (group 0)
    tmp5_34 = r0_mask_31 & xmask  # elementwise0_tmp5: stage 0, partition 0 (group 0)
    tmp5_32 = r0_index_30 + tmp5  # load0_tmp5: stage 0, partition 0 (group 0)
    tmp5_33 = in_ptr0 + tmp5_32  # load0_tmp5: stage 0, partition 0 (group 0)
    tmp5_35 = gl.load(tmp5_33, mask=tmp5_34, other=0.0, eviction_policy='evict_first')  # load0_tmp5: stage 0, partition 0 (group 0)
    _tmp10_38_p1 = _tmp10_38
    tmp5_34_p1 = tmp5_34
    tmp5_35_p1 = tmp5_35
    for twill_b in range(1, twill_n):
        r0_index = (0 + (twill_b - 0) * 2048)  # elementwise0_tmp5: stage 0, partition 0 (group 0)
        r0_index_30 = r0_index + r0_base_4  # elementwise0_tmp5: stage 0, partition 0 (group 0)
        r0_mask_31 = r0_index_30 < r0_numel  # elementwise0_tmp5: stage 0, partition 0 (group 0)
        tmp5_34 = r0_mask_31 & xmask  # elementwise0_tmp5: stage 0, partition 0 (group 0)
        tmp5_32 = r0_index_30 + tmp5  # load0_tmp5: stage 0, partition 0 (group 0)
        tmp5_33 = in_ptr0 + tmp5_32  # load0_tmp5: stage 0, partition 0 (group 0)
        tmp5_35 = gl.load(tmp5_33, mask=tmp5_34, other=0.0, eviction_policy='evict_first')  # load0_tmp5: stage 0, partition 0 (group 0)
        tmp5_36 = tmp5_35_p1.to(gl.float32)  # convert0_tmp5: stage 1, partition 0 (group 0)
        tmp7_37 = tmp5_36 - tmp7  # sfu0_tmp8: stage 1, partition 0 (group 0)
        tmp8 = gl.exp(tmp7_37)  # sfu0_tmp8: stage 1, partition 0 (group 0)
        tmp11 = _tmp10_38_p1 + tmp8  # elementwise1_tmp11: stage 1, partition 0 (group 0)
        _tmp10_38 = gl.where(tmp5_34_p1, tmp11, _tmp10_38_p1)  # elementwise1_tmp11: stage 1, partition 0 (group 0)
        _tmp10_38_p1 = _tmp10_38
        tmp5_34_p1 = tmp5_34
        tmp5_35_p1 = tmp5_35
    tmp5_36 = tmp5_35_p1.to(gl.float32)  # convert0_tmp5: stage 1, partition 0 (group 0)
    tmp7_37 = tmp5_36 - tmp7  # sfu0_tmp8: stage 1, partition 0 (group 0)
    tmp8 = gl.exp(tmp7_37)  # sfu0_tmp8: stage 1, partition 0 (group 0)
    tmp11 = _tmp10_38_p1 + tmp8  # elementwise1_tmp11: stage 1, partition 0 (group 0)
    _tmp10_38 = gl.where(tmp5_34_p1, tmp11, _tmp10_38_p1)  # elementwise1_tmp11: stage 1, partition 0 (group 0)
    _tmp10_38_p1 = _tmp10_38
    tmp5_34_p1 = tmp5_34
    tmp5_35_p1 = tmp5_35
    tmp10 = gl.sum(_tmp10_38_p1, axis=1)
    tmp12 = gl.convert_layout(tmp10, L2)
    tmp10_16 = gl.expand_dims(tmp12, 1)
    tmp12_17 = gl.log(tmp10_16)
    gl.thread_barrier()
    v3 = in_out_ptr0 + xoffset
    gl.store(gl.full([1, 1], v3, gl.pointer_type(gl.float32), layout=L3), tmp12_17, mask=gl.full([1, 1], xmask, gl.int1, layout=L3))
    tmp13 = in_ptr1 + xoffset
    tmp13_19 = gl.load(gl.full([1, 1], tmp13, gl.pointer_type(gl.int64), layout=L3), mask=gl.full([1, 1], xmask, gl.int1, layout=L3), eviction_policy='evict_last')
    tmp15 = tmp13_19 != -100
    tmp17 = gl.where(tmp15, tmp13_19, 0)
    tmp19 = gl.cast(ks0, gl.int64)
    tmp19_21 = tmp17 + tmp19
    tmp20 = tmp17 < 0
    tmp21 = gl.where(tmp20, tmp19_21, tmp17)
    tmp23 = ks0 * xoffset
    tmp23_22 = gl.cast(tmp23, gl.int64)
    tmp23_24 = tmp21 + tmp23_22
    tmp23_26 = in_ptr0 + tmp23_24
    tmp23_27 = gl.load(tmp23_26, mask=gl.full([1, 1], xmask, gl.int1, layout=L3), eviction_policy='evict_last')
    tmp23_28 = tmp23_27.to(gl.float32)
    tmp24 = tmp23_28 - tmp3_10
    tmp25 = tmp24 - tmp12_17
    tmp26 = 0.0 - tmp25
    tmp28 = gl.where(tmp15, tmp26, 0.0)
    v5 = out_ptr1 + xoffset
    gl.store(gl.full([1, 1], v5, gl.pointer_type(gl.float32), layout=L3), tmp28, mask=gl.full([1, 1], xmask, gl.int1, layout=L3))

@gluon.jit
def twill_kernel(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, out_ptr1, ks0, xnumel, r0_numel):
    consumer_0(in_out_ptr0, in_ptr0, in_ptr1, out_ptr0, out_ptr1, ks0, xnumel, r0_numel, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['in_out_ptr0', 'in_ptr0', 'in_ptr1', 'out_ptr0', 'out_ptr1', 'ks0', 'xnumel', 'r0_numel', 'XBLOCK', 'R0_BLOCK']          # the Triton kernel's parameters, in order
RUNTIME = ['in_out_ptr0', 'in_ptr0', 'in_ptr1', 'out_ptr0', 'out_ptr1', 'ks0', 'xnumel', 'r0_numel']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['in_out_ptr0', 'in_ptr0', 'in_ptr1', 'out_ptr0', 'out_ptr1', 'ks0', 'xnumel', 'r0_numel']   # the arguments a launch key reads
CONSTEXPRS = {'XBLOCK': 1, 'R0_BLOCK': 2048}         # the specialisation this kernel was generated for
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
    trips = _ev('(r0_numel + 2048 - 1) // 2048', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((r0_numel + 2048 - 1) // 2048): run the Triton kernel for it")
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
