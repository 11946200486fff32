"""variable_length_merge_states_kernel, written by twill from its joint schedule: I=1501 L=2702 (optimal), 601 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 5).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 40 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's
- if at flashinfer_varlen_merge_states.py:77 (TTGIR line 67): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)


@gluon.jit
def consumer_0(v_ptr, s_ptr, indptr, v_merged_ptr, s_merged_ptr, num_heads, head_dim):
    twill_base = 0
    pos = gl.program_id(0)
    v0 = indptr + pos
    v1 = v0 + 1
    s = gl.cast(num_heads, gl.int64)
    v = gl.cast(head_dim, gl.int64)
    v2 = pos * num_heads
    v3 = s_merged_ptr.to(gl.int64)
    v4 = v3 != 0
    for tx in range(0, 128, 1):
        for head_idx in range(0, 32, 1):
            v5 = gl.load(v0)
            v6 = gl.load(v1)
            v_2 = gl.cast(head_idx, gl.int64)
            twill_n = gl.maximum((v6 - v5 + 1 - 1) // 1, 0)
            if (twill_n >= 2) | (gl.program_id(0) < 0):
                m_max = float("-inf")
                iter_i64 = gl.cast((v5 + (0 - 0) * 1), gl.int64)  # load0_s: stage 0, partition 0 (group 0)
                s_7 = iter_i64 * s  # load0_s: stage 0, partition 0 (group 0)
                s_8 = s_ptr + s_7  # load0_s: stage 0, partition 0 (group 0)
                s_9 = s_8 + head_idx  # load0_s: stage 0, partition 0 (group 0)
                s_10 = gl.load(s_9)  # load0_s: stage 0, partition 0 (group 0)
                v_11 = s_7 + v_2  # load1_v: stage 0, partition 0 (group 0)
                v_12 = v_11 * v  # load1_v: stage 0, partition 0 (group 0)
                v_13 = v_ptr + v_12  # load1_v: stage 0, partition 0 (group 0)
                v_14 = v_13 + tx  # load1_v: stage 0, partition 0 (group 0)
                v_15 = gl.load(v_14)  # load1_v: stage 0, partition 0 (group 0)
                m_max_p1 = m_max
                s_10_p1 = s_10
                v_15_p1 = v_15
                o_26 = 0.0
                d_22 = 1.0
                iter_i64 = gl.cast((v5 + (1 - 0) * 1), gl.int64)  # load0_s: stage 0, partition 0 (group 0)
                s_7 = iter_i64 * s  # load0_s: stage 0, partition 0 (group 0)
                s_8 = s_ptr + s_7  # load0_s: stage 0, partition 0 (group 0)
                s_9 = s_8 + head_idx  # load0_s: stage 0, partition 0 (group 0)
                s_10 = gl.load(s_9)  # load0_s: stage 0, partition 0 (group 0)
                m_max = gl.maximum(m_max_p1, s_10_p1)  # elementwise0_m_max: stage 1, partition 0 (group 0)
                m_shift = m_max == float("-inf")  # elementwise1_m_shift: stage 1, partition 0 (group 0)
                m_shift_16 = gl.where(m_shift, 0.0, m_max)  # elementwise1_m_shift: stage 1, partition 0 (group 0)
                d_17 = m_max_p1 - m_shift_16  # sfu0_d: stage 1, partition 0 (group 0)
                d_18 = gl.exp2(d_17)  # sfu0_d: stage 1, partition 0 (group 0)
                d_20 = s_10_p1 - m_shift_16  # sfu1_d: stage 1, partition 0 (group 0)
                d_21 = gl.exp2(d_20)  # sfu1_d: stage 1, partition 0 (group 0)
                v_11 = s_7 + v_2  # load1_v: stage 0, partition 0 (group 0)
                v_12 = v_11 * v  # load1_v: stage 0, partition 0 (group 0)
                v_13 = v_ptr + v_12  # load1_v: stage 0, partition 0 (group 0)
                v_14 = v_13 + tx  # load1_v: stage 0, partition 0 (group 0)
                v_15 = gl.load(v_14)  # load1_v: stage 0, partition 0 (group 0)
                o_24 = gl.cast(v_15_p1, gl.float32)  # convert0_o: stage 1, partition 0 (group 0)
                d_18_p1 = d_18
                d_21_p1 = d_21
                d_22_p1 = d_22
                m_max_p1 = m_max
                o_24_p1 = o_24
                o_26_p1 = o_26
                s_10_p1 = s_10
                v_15_p1 = v_15
                for twill_b in range(2, twill_n):
                    iter_i64 = gl.cast((v5 + (twill_b - 0) * 1), gl.int64)  # load0_s: stage 0, partition 0 (group 0)
                    s_7 = iter_i64 * s  # load0_s: stage 0, partition 0 (group 0)
                    s_8 = s_ptr + s_7  # load0_s: stage 0, partition 0 (group 0)
                    s_9 = s_8 + head_idx  # load0_s: stage 0, partition 0 (group 0)
                    s_10 = gl.load(s_9)  # load0_s: stage 0, partition 0 (group 0)
                    m_max = gl.maximum(m_max_p1, s_10_p1)  # elementwise0_m_max: stage 1, partition 0 (group 0)
                    m_shift = m_max == float("-inf")  # elementwise1_m_shift: stage 1, partition 0 (group 0)
                    m_shift_16 = gl.where(m_shift, 0.0, m_max)  # elementwise1_m_shift: stage 1, partition 0 (group 0)
                    d_17 = m_max_p1 - m_shift_16  # sfu0_d: stage 1, partition 0 (group 0)
                    d_18 = gl.exp2(d_17)  # sfu0_d: stage 1, partition 0 (group 0)
                    d_19 = d_22_p1 * d_18_p1  # elementwise2_d: stage 2, partition 0 (group 0)
                    d_22 = d_19 + d_21_p1  # elementwise2_d: stage 2, partition 0 (group 0)
                    d_20 = s_10_p1 - m_shift_16  # sfu1_d: stage 1, partition 0 (group 0)
                    d_21 = gl.exp2(d_20)  # sfu1_d: stage 1, partition 0 (group 0)
                    o_23 = o_26_p1 * d_18_p1  # elementwise3_o: stage 2, partition 0 (group 0)
                    o_25 = o_24_p1 * d_21_p1  # elementwise3_o: stage 2, partition 0 (group 0)
                    o_26 = o_23 + o_25  # elementwise3_o: stage 2, partition 0 (group 0)
                    v_11 = s_7 + v_2  # load1_v: stage 0, partition 0 (group 0)
                    v_12 = v_11 * v  # load1_v: stage 0, partition 0 (group 0)
                    v_13 = v_ptr + v_12  # load1_v: stage 0, partition 0 (group 0)
                    v_14 = v_13 + tx  # load1_v: stage 0, partition 0 (group 0)
                    v_15 = gl.load(v_14)  # load1_v: stage 0, partition 0 (group 0)
                    o_24 = gl.cast(v_15_p1, gl.float32)  # convert0_o: stage 1, partition 0 (group 0)
                    d_18_p1 = d_18
                    d_21_p1 = d_21
                    d_22_p1 = d_22
                    m_max_p1 = m_max
                    o_24_p1 = o_24
                    o_26_p1 = o_26
                    s_10_p1 = s_10
                    v_15_p1 = v_15
                m_max = gl.maximum(m_max_p1, s_10_p1)  # elementwise0_m_max: stage 1, partition 0 (group 0)
                m_shift = m_max == float("-inf")  # elementwise1_m_shift: stage 1, partition 0 (group 0)
                m_shift_16 = gl.where(m_shift, 0.0, m_max)  # elementwise1_m_shift: stage 1, partition 0 (group 0)
                d_17 = m_max_p1 - m_shift_16  # sfu0_d: stage 1, partition 0 (group 0)
                d_18 = gl.exp2(d_17)  # sfu0_d: stage 1, partition 0 (group 0)
                d_19 = d_22_p1 * d_18_p1  # elementwise2_d: stage 2, partition 0 (group 0)
                d_22 = d_19 + d_21_p1  # elementwise2_d: stage 2, partition 0 (group 0)
                d_20 = s_10_p1 - m_shift_16  # sfu1_d: stage 1, partition 0 (group 0)
                d_21 = gl.exp2(d_20)  # sfu1_d: stage 1, partition 0 (group 0)
                o_23 = o_26_p1 * d_18_p1  # elementwise3_o: stage 2, partition 0 (group 0)
                o_25 = o_24_p1 * d_21_p1  # elementwise3_o: stage 2, partition 0 (group 0)
                o_26 = o_23 + o_25  # elementwise3_o: stage 2, partition 0 (group 0)
                o_24 = gl.cast(v_15_p1, gl.float32)  # convert0_o: stage 1, partition 0 (group 0)
                d_18_p1 = d_18
                d_21_p1 = d_21
                d_22_p1 = d_22
                m_max_p2 = m_max_p1
                m_max_p1 = m_max
                o_24_p1 = o_24
                o_26_p1 = o_26
                s_10_p1 = s_10
                v_15_p1 = v_15
                d_19 = d_22_p1 * d_18_p1  # elementwise2_d: stage 2, partition 0 (group 0)
                d_22 = d_19 + d_21_p1  # elementwise2_d: stage 2, partition 0 (group 0)
                o_23 = o_26_p1 * d_18_p1  # elementwise3_o: stage 2, partition 0 (group 0)
                o_25 = o_24_p1 * d_21_p1  # elementwise3_o: stage 2, partition 0 (group 0)
                o_26 = o_23 + o_25  # elementwise3_o: stage 2, partition 0 (group 0)
                d_18_p1 = d_18
                d_21_p1 = d_21
                d_22_p1 = d_22
                m_max_p2 = m_max_p1
                m_max_p1 = m_max
                o_24_p1 = o_24
                o_26_p1 = o_26
                s_10_p1 = s_10
                v_15_p1 = v_15
            else:
                o_5_w = gl.to_tensor(0.0)
                m_w = gl.to_tensor(float("-inf"))
                d_6_w = gl.to_tensor(1.0)
                for iter_w in range(v5, v6, 1):
                    iter_i64_w = gl.cast(iter_w, gl.int64)
                    s_7_w = iter_i64_w * s
                    s_8_w = s_ptr + s_7_w
                    s_9_w = s_8_w + head_idx
                    s_10_w = gl.load(s_9_w)
                    v_11_w = s_7_w + v_2
                    v_12_w = v_11_w * v
                    v_13_w = v_ptr + v_12_w
                    v_14_w = v_13_w + tx
                    v_15_w = gl.load(v_14_w)
                    m_max_w = gl.maximum(m_w, s_10_w)
                    m_shift_w = m_max_w == float("-inf")
                    m_shift_16_w = gl.where(m_shift_w, 0.0, m_max_w)
                    d_17_w = m_w - m_shift_16_w
                    d_18_w = gl.exp2(d_17_w)
                    d_19_w = d_6_w * d_18_w
                    d_20_w = s_10_w - m_shift_16_w
                    d_21_w = gl.exp2(d_20_w)
                    d_22_w = d_19_w + d_21_w
                    o_23_w = o_5_w * d_18_w
                    o_24_w = gl.cast(v_15_w, gl.float32)
                    o_25_w = o_24_w * d_21_w
                    o_26_w = o_23_w + o_25_w
                    o_5_w = o_26_w
                    m_w = m_max_w
                    d_6_w = d_22_w
                o_26_p1 = o_5_w
                m_max_p2 = m_w
                d_22_p1 = d_6_w
            o = d_22_p1 > 0.0
            o_3 = gl.where(o, d_22_p1, 1.0)
            o_4 = o_26_p1 / o_3
            v7 = v2 + head_idx
            v8 = v7 * head_dim
            v9 = v_merged_ptr + v8
            v10 = v9 + tx
            v11 = gl.cast(o_4, gl.float16)
            gl.store(v10, v11)
            if v4:
                v12 = s_merged_ptr + v2
                v13 = v12 + head_idx
                v14 = gl.log2(d_22_p1)
                v15 = m_max_p2 + v14
                gl.store(v13, v15)
            twill_base += twill_n

@gluon.jit
def twill_kernel(v_ptr, s_ptr, indptr, v_merged_ptr, s_merged_ptr, num_heads, head_dim):
    consumer_0(v_ptr, s_ptr, indptr, v_merged_ptr, s_merged_ptr, num_heads, head_dim, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['v_ptr', 's_ptr', 'indptr', 'v_merged_ptr', 's_merged_ptr', 'num_heads', 'head_dim', 'bdx', 'bdy']          # the Triton kernel's parameters, in order
RUNTIME = ['v_ptr', 's_ptr', 'indptr', 'v_merged_ptr', 's_merged_ptr', 'num_heads', 'head_dim']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['v_ptr', 's_ptr', 'indptr', 'v_merged_ptr', 's_merged_ptr', 'num_heads', 'head_dim']   # the arguments a launch key reads
CONSTEXPRS = {'bdx': 128, 'bdy': 32}         # the specialisation this kernel was generated for
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
