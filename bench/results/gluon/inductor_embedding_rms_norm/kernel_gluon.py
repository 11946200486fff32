"""triton_red_fused__to_copy_embedding_mean_mul_pow_rsqrt_0, written by twill from its joint schedule: I=93 L=250 (optimal), 760 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 372).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 16 warps, registers as ptxas allocates them (the schedule's tiles need about 51 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at inductor_embedding_rms_norm.py:55 (TTGIR line 45) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=274, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.extra import libdevice

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[1, 0]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[0, 1])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[0, 1]))

@gluon.jit
def consumer_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, r0_numel):
    twill_base = 0
    xoffset = gl.program_id(0)
    xmask = xoffset < xnumel
    r0_base = gl.arange(0, 2048, layout=L0)
    r0_base_9 = gl.expand_dims(r0_base, 0)
    tmp0 = in_ptr0 + xoffset
    tmp0_12 = gl.load(gl.full([1, 1], tmp0, gl.pointer_type(gl.int64), layout=L1), mask=gl.full([1, 1], xmask, gl.int1, layout=L1), eviction_policy='evict_last')
    tmp2 = tmp0_12 + 32000
    tmp3 = tmp0_12 < 0
    tmp4 = gl.where(tmp3, tmp2, tmp0_12)
    tmp6 = tmp4 * 4096
    tmp6_13 = tmp6.broadcast_to([1, 2048])
    twill_n = (4096 - 0 + 2048 - 1) // 2048
    _tmp11_33 = gl.full([1, 2048], 0.0, gl.float32, layout=L1)
    r0_index_26 = (0 + (0 - 0) * 2048) + r0_base_9  # elementwise0_tmp6: stage 0, partition 0 (group 0)
    r0_mask_l0 = r0_index_26 < 4096  # elementwise0_tmp6: stage 0, partition 0 (group 0)
    tmp6_30 = r0_mask_l0 & xmask  # elementwise0_tmp6: stage 0, partition 0 (group 0)
    tmp6_27 = r0_index_26.to(gl.int64)  # load0_tmp6: stage 0, partition 0 (group 0)
    tmp6_28 = tmp6_27 + tmp6_13  # load0_tmp6: stage 0, partition 0 (group 0)
    tmp6_29 = in_ptr1 + tmp6_28  # load0_tmp6: stage 0, partition 0 (group 0)
    tmp6_31 = gl.load(tmp6_29, mask=tmp6_30, other=0.0, eviction_policy='evict_last')  # load0_tmp6: stage 0, partition 0 (group 0)
    _tmp11_33_p1 = _tmp11_33
    tmp6_30_p1 = tmp6_30
    tmp6_31_p1 = tmp6_31
    for twill_b in range(1, twill_n):
        r0_index_l0 = (0 + (twill_b - 0) * 2048)  # elementwise0_tmp6: stage 0, partition 0 (group 0)
        r0_index_26 = r0_index_l0 + r0_base_9  # elementwise0_tmp6: stage 0, partition 0 (group 0)
        r0_mask_l0 = r0_index_26 < 4096  # elementwise0_tmp6: stage 0, partition 0 (group 0)
        tmp6_30 = r0_mask_l0 & xmask  # elementwise0_tmp6: stage 0, partition 0 (group 0)
        tmp6_27 = r0_index_26.to(gl.int64)  # load0_tmp6: stage 0, partition 0 (group 0)
        tmp6_28 = tmp6_27 + tmp6_13  # load0_tmp6: stage 0, partition 0 (group 0)
        tmp6_29 = in_ptr1 + tmp6_28  # load0_tmp6: stage 0, partition 0 (group 0)
        tmp6_31 = gl.load(tmp6_29, mask=tmp6_30, other=0.0, eviction_policy='evict_last')  # load0_tmp6: stage 0, partition 0 (group 0)
        tmp6_32 = tmp6_31_p1.to(gl.float32)  # convert0_tmp6: stage 1, partition 0 (group 0)
        tmp8 = tmp6_32 * tmp6_32  # elementwise1_tmp8: stage 1, partition 0 (group 0)
        tmp12 = _tmp11_33_p1 + tmp8  # elementwise1_tmp8: stage 1, partition 0 (group 0)
        _tmp11_33 = gl.where(tmp6_30_p1, tmp12, _tmp11_33_p1)  # elementwise1_tmp8: stage 1, partition 0 (group 0)
        _tmp11_33_p1 = _tmp11_33
        tmp6_30_p1 = tmp6_30
        tmp6_31_p1 = tmp6_31
    tmp6_32 = tmp6_31_p1.to(gl.float32)  # convert0_tmp6: stage 1, partition 0 (group 0)
    tmp8 = tmp6_32 * tmp6_32  # elementwise1_tmp8: stage 1, partition 0 (group 0)
    tmp12 = _tmp11_33_p1 + tmp8  # elementwise1_tmp8: stage 1, partition 0 (group 0)
    _tmp11_33 = gl.where(tmp6_30_p1, tmp12, _tmp11_33_p1)  # elementwise1_tmp8: stage 1, partition 0 (group 0)
    _tmp11_33_p1 = _tmp11_33
    tmp6_30_p1 = tmp6_30
    tmp6_31_p1 = tmp6_31
    twill_base += twill_n
    tmp11 = gl.sum(_tmp11_33_p1, axis=1)
    tmp17 = gl.convert_layout(tmp11, L2)
    tmp11_16 = gl.expand_dims(tmp17, 1)
    tmp11_17 = gl.expand_dims(tmp11, 1)
    tmp14 = tmp11_16 / 4096.0
    tmp14_18 = tmp11_17 / 4096.0
    tmp16 = tmp14 + 9.99999974e-06
    tmp16_19 = tmp14_18 + 9.99999974e-06
    tmp17_20 = libdevice.rsqrt(tmp16)
    tmp17_21 = libdevice.rsqrt(tmp16_19)
    gl.thread_barrier()
    v0 = in_out_ptr0 + xoffset
    gl.store(gl.full([1, 1], v0, gl.pointer_type(gl.float32), layout=L3), tmp17_20, mask=gl.full([1, 1], xmask, gl.int1, layout=L3))
    tmp20 = tmp0_12 + 32000
    tmp21 = tmp0_12 < 0
    tmp22 = gl.where(tmp21, tmp20, tmp0_12)
    tmp24 = tmp22 * 4096
    tmp24_22 = tmp24.broadcast_to([1, 2048])
    tmp26 = tmp17_21.broadcast_to([1, 2048])
    v3 = xoffset * 4096
    twill_n = (4096 - 0 + 2048 - 1) // 2048
    r0_index_25 = (0 + (0 - 0) * 2048) + r0_base_9  # load0_tmp18: stage 0, partition 0 (group 0)
    r0_mask = r0_index_25 < 4096  # load0_tmp18: stage 0, partition 0 (group 0)
    tmp24_32 = r0_mask & xmask  # elementwise0_tmp24: stage 0, partition 0 (group 0)
    tmp24_29 = r0_index_25.to(gl.int64)  # load1_tmp24: stage 0, partition 0 (group 0)
    tmp24_30 = tmp24_29 + tmp24_22  # load1_tmp24: stage 0, partition 0 (group 0)
    tmp24_31 = in_ptr1 + tmp24_30  # load1_tmp24: stage 0, partition 0 (group 0)
    tmp24_33 = gl.load(tmp24_31, mask=tmp24_32, other=0.0, eviction_policy='evict_first')  # load1_tmp24: stage 0, partition 0 (group 0)
    tmp18_26 = in_ptr2 + r0_index_25  # load0_tmp18: stage 0, partition 0 (group 0)
    tmp18_27 = gl.load(tmp18_26, mask=r0_mask, other=0.0, eviction_policy='evict_last')  # load0_tmp18: stage 0, partition 0 (group 0)
    r0_index_25_p1 = r0_index_25
    tmp18_27_p1 = tmp18_27
    tmp24_32_p1 = tmp24_32
    tmp24_33_p1 = tmp24_33
    r0_index_25 = (0 + (1 - 0) * 2048) + r0_base_9  # load0_tmp18: stage 0, partition 0 (group 0)
    r0_mask = r0_index_25 < 4096  # load0_tmp18: stage 0, partition 0 (group 0)
    tmp24_32 = r0_mask & xmask  # elementwise0_tmp24: stage 0, partition 0 (group 0)
    tmp24_29 = r0_index_25.to(gl.int64)  # load1_tmp24: stage 0, partition 0 (group 0)
    tmp24_30 = tmp24_29 + tmp24_22  # load1_tmp24: stage 0, partition 0 (group 0)
    tmp24_31 = in_ptr1 + tmp24_30  # load1_tmp24: stage 0, partition 0 (group 0)
    tmp24_33 = gl.load(tmp24_31, mask=tmp24_32, other=0.0, eviction_policy='evict_first')  # load1_tmp24: stage 0, partition 0 (group 0)
    tmp18_26 = in_ptr2 + r0_index_25  # load0_tmp18: stage 0, partition 0 (group 0)
    tmp18_27 = gl.load(tmp18_26, mask=r0_mask, other=0.0, eviction_policy='evict_last')  # load0_tmp18: stage 0, partition 0 (group 0)
    tmp18_28 = tmp18_27_p1.to(gl.float32)  # convert0_tmp18: stage 1, partition 0 (group 0)
    r0_index_25_p2 = r0_index_25_p1
    r0_index_25_p1 = r0_index_25
    tmp18_27_p1 = tmp18_27
    tmp18_28_p1 = tmp18_28
    tmp24_32_p2 = tmp24_32_p1
    tmp24_32_p1 = tmp24_32
    tmp24_33_p2 = tmp24_33_p1
    tmp24_33_p1 = tmp24_33
    for twill_b in range(2, twill_n):
        r0_index = (0 + (twill_b - 0) * 2048)  # load0_tmp18: stage 0, partition 0 (group 0)
        r0_index_25 = r0_index + r0_base_9  # load0_tmp18: stage 0, partition 0 (group 0)
        r0_mask = r0_index_25 < 4096  # load0_tmp18: stage 0, partition 0 (group 0)
        tmp24_32 = r0_mask & xmask  # elementwise0_tmp24: stage 0, partition 0 (group 0)
        tmp24_29 = r0_index_25.to(gl.int64)  # load1_tmp24: stage 0, partition 0 (group 0)
        tmp24_30 = tmp24_29 + tmp24_22  # load1_tmp24: stage 0, partition 0 (group 0)
        tmp24_31 = in_ptr1 + tmp24_30  # load1_tmp24: stage 0, partition 0 (group 0)
        tmp24_33 = gl.load(tmp24_31, mask=tmp24_32, other=0.0, eviction_policy='evict_first')  # load1_tmp24: stage 0, partition 0 (group 0)
        tmp24_34 = tmp24_33_p2.to(gl.float32)  # convert1_tmp24: stage 2, partition 0 (group 0)
        tmp26_35 = tmp24_34 * tmp26  # elementwise1_tmp26: stage 2, partition 0 (group 0)
        tmp27 = tmp26_35.to(gl.float16)  # convert2_tmp27: stage 2, partition 0 (group 0)
        tmp28 = tmp27.to(gl.float32)  # convert2_tmp27: stage 2, partition 0 (group 0)
        tmp29 = tmp18_28_p1 * tmp28  # elementwise2_tmp29: stage 2, partition 0 (group 0)
        v8 = tmp29.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        v6 = r0_index_25_p2 + v3  # store0: stage 2, partition 0 (group 0)
        v7 = out_ptr0 + v6  # store0: stage 2, partition 0 (group 0)
        gl.store(v7, v8, mask=tmp24_32_p2)  # store0: stage 2, partition 0 (group 0)
        tmp18_26 = in_ptr2 + r0_index_25  # load0_tmp18: stage 0, partition 0 (group 0)
        tmp18_27 = gl.load(tmp18_26, mask=r0_mask, other=0.0, eviction_policy='evict_last')  # load0_tmp18: stage 0, partition 0 (group 0)
        tmp18_28 = tmp18_27_p1.to(gl.float32)  # convert0_tmp18: stage 1, partition 0 (group 0)
        r0_index_25_p2 = r0_index_25_p1
        r0_index_25_p1 = r0_index_25
        tmp18_27_p1 = tmp18_27
        tmp18_28_p1 = tmp18_28
        tmp24_32_p2 = tmp24_32_p1
        tmp24_32_p1 = tmp24_32
        tmp24_33_p2 = tmp24_33_p1
        tmp24_33_p1 = tmp24_33
    tmp24_34 = tmp24_33_p2.to(gl.float32)  # convert1_tmp24: stage 2, partition 0 (group 0)
    tmp26_35 = tmp24_34 * tmp26  # elementwise1_tmp26: stage 2, partition 0 (group 0)
    tmp27 = tmp26_35.to(gl.float16)  # convert2_tmp27: stage 2, partition 0 (group 0)
    tmp28 = tmp27.to(gl.float32)  # convert2_tmp27: stage 2, partition 0 (group 0)
    tmp29 = tmp18_28_p1 * tmp28  # elementwise2_tmp29: stage 2, partition 0 (group 0)
    v8 = tmp29.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
    v6 = r0_index_25_p2 + v3  # store0: stage 2, partition 0 (group 0)
    v7 = out_ptr0 + v6  # store0: stage 2, partition 0 (group 0)
    gl.store(v7, v8, mask=tmp24_32_p2)  # store0: stage 2, partition 0 (group 0)
    tmp18_28 = tmp18_27_p1.to(gl.float32)  # convert0_tmp18: stage 1, partition 0 (group 0)
    r0_index_25_p2 = r0_index_25_p1
    r0_index_25_p1 = r0_index_25
    tmp18_27_p1 = tmp18_27
    tmp18_28_p1 = tmp18_28
    tmp24_32_p2 = tmp24_32_p1
    tmp24_32_p1 = tmp24_32
    tmp24_33_p2 = tmp24_33_p1
    tmp24_33_p1 = tmp24_33
    tmp24_34 = tmp24_33_p2.to(gl.float32)  # convert1_tmp24: stage 2, partition 0 (group 0)
    tmp26_35 = tmp24_34 * tmp26  # elementwise1_tmp26: stage 2, partition 0 (group 0)
    tmp27 = tmp26_35.to(gl.float16)  # convert2_tmp27: stage 2, partition 0 (group 0)
    tmp28 = tmp27.to(gl.float32)  # convert2_tmp27: stage 2, partition 0 (group 0)
    tmp29 = tmp18_28_p1 * tmp28  # elementwise2_tmp29: stage 2, partition 0 (group 0)
    v8 = tmp29.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
    v6 = r0_index_25_p2 + v3  # store0: stage 2, partition 0 (group 0)
    v7 = out_ptr0 + v6  # store0: stage 2, partition 0 (group 0)
    gl.store(v7, v8, mask=tmp24_32_p2)  # store0: stage 2, partition 0 (group 0)
    r0_index_25_p2 = r0_index_25_p1
    r0_index_25_p1 = r0_index_25
    tmp18_27_p1 = tmp18_27
    tmp18_28_p1 = tmp18_28
    tmp24_32_p2 = tmp24_32_p1
    tmp24_32_p1 = tmp24_32
    tmp24_33_p2 = tmp24_33_p1
    tmp24_33_p1 = tmp24_33

@gluon.jit
def twill_kernel(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, r0_numel):
    consumer_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, r0_numel, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['in_out_ptr0', 'in_ptr0', 'in_ptr1', 'in_ptr2', 'out_ptr0', 'xnumel', 'r0_numel', 'XBLOCK', 'R0_BLOCK']          # the Triton kernel's parameters, in order
RUNTIME = ['in_out_ptr0', 'in_ptr0', 'in_ptr1', 'in_ptr2', 'out_ptr0', 'xnumel', 'r0_numel']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['in_out_ptr0', 'in_ptr0', 'in_ptr1', 'in_ptr2', 'out_ptr0', 'xnumel', 'r0_numel']   # the arguments a launch key reads
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
