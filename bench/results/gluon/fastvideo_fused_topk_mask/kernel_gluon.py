"""_fused_topk_mask_kernel, written by twill from its joint schedule: I=272 L=272 (optimal), 68 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 44 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def twill_add(a, b):
    return a + b

@gluon.jit
def consumer_0(Scores_ptr, Mask_ptr, stride_s_bh, stride_s_q, stride_s_kv, stride_m_bh, stride_m_q, stride_m_kv):
    q_idx = gl.program_id(0)
    bh_idx = gl.program_id(1)
    kv_offsets = gl.arange(0, 2048, layout=L0)
    score_base = bh_idx * stride_s_bh
    score_base_1 = Scores_ptr + score_base
    score_base_2 = q_idx * stride_s_q
    score_base_3 = score_base_1 + score_base_2
    mask_base = bh_idx * stride_m_bh
    mask_base_4 = Mask_ptr + mask_base
    mask_base_5 = q_idx * stride_m_q
    mask_base_6 = mask_base_4 + mask_base_5
    valid_mask_7 = kv_offsets < 1170
    scores_8 = kv_offsets * stride_s_kv
    scores_10 = score_base_3 + scores_8
    scores_11 = gl.load(scores_10, mask=valid_mask_7, other=float("-inf"))
    finite_mask = scores_11 > float("-inf")
    finite_mask_12 = valid_mask_7 & finite_mask
    lo_13 = gl.where(finite_mask_12, scores_11, float("inf"))
    lo_14 = gl.min(lo_13, axis=0)
    hi = gl.where(valid_mask_7, scores_11, float("-inf"))
    hi_15 = gl.max(hi, axis=0)
    lo_16 = gl.minimum(lo_14, hi_15)
    twill_n = (32 - 0 + 1 - 1) // 1
    lo_31 = lo_16
    hi_32 = hi_15
    hi_32_p1 = hi_32
    lo_31_p1 = lo_31
    for twill_b in range(0, twill_n):
        mid = lo_31_p1 + hi_32_p1  # elementwise0_mid: stage 0, partition 0 (group 0)
        mid_25 = mid * 0.5  # elementwise0_mid: stage 0, partition 0 (group 0)
        count_ge = mid_25  # elementwise1_count_ge: stage 0, partition 0 (group 0)
        count_ge_26 = scores_11 >= count_ge  # elementwise1_count_ge: stage 0, partition 0 (group 0)
        count_ge_27 = count_ge_26 & valid_mask_7  # elementwise1_count_ge: stage 0, partition 0 (group 0)
        count_ge_28 = count_ge_27.to(gl.int32)  # reduce0_count_ge: stage 0, partition 0 (group 0)
        count_ge_29 = gl.sum(count_ge_28, axis=0)  # reduce0_count_ge: stage 0, partition 0 (group 0)
        lo_30 = count_ge_29 >= 146  # elementwise2_lo: stage 0, partition 0 (group 0)
        lo_31 = gl.where(lo_30, mid_25, lo_31_p1)  # elementwise3_lo: stage 0, partition 0 (group 0)
        hi_32 = gl.where(lo_30, hi_32_p1, mid_25)  # elementwise4_hi: stage 0, partition 0 (group 0)
        hi_32_p1 = hi_32
        lo_31_p1 = lo_31
    above_threshold_18 = scores_11 > lo_31_p1
    at_threshold = scores_11 == lo_31_p1
    n_above = above_threshold_18.to(gl.int32)
    n_above_19 = gl.sum(n_above, axis=0)
    n_needed_at_thresh = 146 - n_above_19
    at_thresh_cumsum = at_threshold.to(gl.int32)
    at_thresh_cumsum_20 = gl.associative_scan(at_thresh_cumsum, 0, twill_add)
    at_thresh_selected_21 = at_thresh_cumsum_20 <= n_needed_at_thresh
    at_thresh_selected_22 = at_threshold & at_thresh_selected_21
    final_mask = above_threshold_18 | at_thresh_selected_22
    v1 = kv_offsets * stride_m_kv
    v3 = mask_base_6 + v1
    v4 = v3.to(gl.pointer_type(gl.int8), bitcast=True)
    v5 = final_mask.to(gl.int8)
    gl.store(v4, v5, mask=valid_mask_7)

@gluon.jit
def twill_kernel(Scores_ptr, Mask_ptr, stride_s_bh, stride_s_q, stride_s_kv, stride_m_bh, stride_m_q, stride_m_kv):
    consumer_0(Scores_ptr, Mask_ptr, stride_s_bh, stride_s_q, stride_s_kv, stride_m_bh, stride_m_q, stride_m_kv, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Scores_ptr', 'Mask_ptr', 'stride_s_bh', 'stride_s_q', 'stride_s_kv', 'stride_m_bh', 'stride_m_q', 'stride_m_kv', 'kv_blocks', 'topk', 'KV_BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['Scores_ptr', 'Mask_ptr', 'stride_s_bh', 'stride_s_q', 'stride_s_kv', 'stride_m_bh', 'stride_m_q', 'stride_m_kv']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Scores_ptr', 'Mask_ptr', 'stride_s_bh', 'stride_s_q', 'stride_s_kv', 'stride_m_bh', 'stride_m_q', 'stride_m_kv']   # the arguments a launch key reads
CONSTEXPRS = {'kv_blocks': 1170, 'topk': 146, 'KV_BLOCK_SIZE': 2048}         # the specialisation this kernel was generated for
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
