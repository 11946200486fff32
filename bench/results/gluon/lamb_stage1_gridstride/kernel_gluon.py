"""lamb_stage1_kernel, written by twill from its joint schedule: I=116 L=198 (optimal), 1846 cycles per iteration predicted.

Decisions (each from the schedule):
- two CTAs per SM: the partitions' live tiles fit half the register file (140, 56 needed per thread with the 40 the model adds for addresses and indices; consumer 0 is given 120, the allowance left to ptxas), so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- the consumers' pointer loads in their readers' stage, not a stage ahead: the loop's trip count varies between programs, and a third stage would need two iterations of every program (run 101)
- partition 0 (default): consumer, warp group 0, 4 warps, 120 registers per thread (needs about 140): the loop's compute, 2 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 120 registers per thread (needs about 56): the loop's compute, 1 stages
- shared memory: 32 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(p_ptr, g_ptr, m_ptr, v_ptr, u_ptr, gnorm_ptr, norms_ptr, n, beta1, beta2, bias1, bias2, eps, weight_decay, max_norm):
    pid = gl.program_id(0)
    gnorm = gl.load(gnorm_ptr)
    clip = gnorm > max_norm
    clip_2 = gnorm / max_norm
    clip_3 = gl.where(clip, clip_2, 1.0)
    v0 = pid * 2048
    v1 = gl.num_programs(0)
    v2 = v1 * 2048
    offs = gl.arange(0, 2048, layout=L0)
    offs_4 = gl.arange(0, 2048, layout=L1)
    m_10 = 1.0 - beta1
    v_13 = 1.0 - beta2
    twill_n = gl.maximum((n - v0 + v2 - 1) // v2, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        u_sq_54 = gl.full([2048], 0.0, gl.float32, layout=L0)
        offs_19 = (v0 + (0 - 0) * v2)  # load0_p: stage 0, partition 0 (group 0)
        offs_21 = offs_19 + offs  # load0_p: stage 0, partition 0 (group 0)
        mask_23 = offs_21 < n  # load0_p: stage 0, partition 0 (group 0)
        m_31 = m_ptr + offs_21  # load2_m: stage 0, partition 0 (group 0)
        gl.thread_barrier()
        m_33 = gl.load(m_31, mask=mask_23, other=0.0)  # load2_m: stage 0, partition 0 (group 0)
        g_27 = g_ptr + offs_21  # load1_g: stage 0, partition 0 (group 0)
        g_28 = gl.load(g_27, mask=mask_23, other=0.0)  # load1_g: stage 0, partition 0 (group 0)
        g_29 = g_28.to(gl.float32)  # convert0_g: stage 0, partition 0 (group 0)
        v_34 = v_ptr + offs_21  # load3_v: stage 0, partition 0 (group 0)
        gl.thread_barrier()
        v_36 = gl.load(v_34, mask=mask_23, other=0.0)  # load3_v: stage 0, partition 0 (group 0)
        g_30 = g_29 / clip_3  # elementwise0_g: stage 0, partition 0 (group 0)
        m_37 = beta1 * m_33  # elementwise1_m: stage 0, partition 0 (group 0)
        m_38 = m_10 * g_30  # elementwise1_m: stage 0, partition 0 (group 0)
        m_39 = m_37 + m_38  # elementwise1_m: stage 0, partition 0 (group 0)
        v9 = gl.convert_layout(m_39, L1)  # convert1: stage 0, partition 0 (group 0)
        offs_20 = (v0 + (0 - 0) * v2)  # store0: stage 0, partition 0 (group 0)
        offs_22 = offs_20 + offs_4  # store0: stage 0, partition 0 (group 0)
        mask_24 = offs_22 < n  # store0: stage 0, partition 0 (group 0)
        m_32 = m_ptr + offs_22  # store0: stage 0, partition 0 (group 0)
        gl.store(m_32, v9, mask=mask_24)  # store0: stage 0, partition 0 (group 0)
        g_30_p1 = g_30
        m_39_p1 = m_39
        mask_23_p1 = mask_23
        mask_24_p1 = mask_24
        offs_21_p1 = offs_21
        offs_22_p1 = offs_22
        u_sq_54_p1 = u_sq_54
        v_36_p1 = v_36
        for twill_b in range(1, twill_n):
            offs_19 = (v0 + (twill_b - 0) * v2)  # load0_p: stage 0, partition 0 (group 0)
            offs_21 = offs_19 + offs  # load0_p: stage 0, partition 0 (group 0)
            mask_23 = offs_21 < n  # load0_p: stage 0, partition 0 (group 0)
            m_31 = m_ptr + offs_21  # load2_m: stage 0, partition 0 (group 0)
            gl.thread_barrier()
            m_33 = gl.load(m_31, mask=mask_23, other=0.0)  # load2_m: stage 0, partition 0 (group 0)
            v_40 = beta2 * v_36_p1  # elementwise2_v: stage 1, partition 0 (group 0)
            v_41 = v_13 * g_30_p1  # elementwise2_v: stage 1, partition 0 (group 0)
            v_42 = v_41 * g_30_p1  # elementwise2_v: stage 1, partition 0 (group 0)
            v_43 = v_40 + v_42  # elementwise2_v: stage 1, partition 0 (group 0)
            u_45 = v_43 / bias2  # sfu0_u: stage 1, partition 0 (group 0)
            u_46 = gl.sqrt(u_45)  # sfu0_u: stage 1, partition 0 (group 0)
            v10 = gl.convert_layout(v_43, L1)  # convert2: stage 1, partition 0 (group 0)
            v_35 = v_ptr + offs_22_p1  # store1: stage 1, partition 0 (group 0)
            gl.store(v_35, v10, mask=mask_24_p1)  # store1: stage 1, partition 0 (group 0)
            g_27 = g_ptr + offs_21  # load1_g: stage 0, partition 0 (group 0)
            g_28 = gl.load(g_27, mask=mask_23, other=0.0)  # load1_g: stage 0, partition 0 (group 0)
            g_29 = g_28.to(gl.float32)  # convert0_g: stage 0, partition 0 (group 0)
            p_25 = p_ptr + offs_21_p1  # load0_p: stage 1, partition 0 (group 0)
            p_26 = gl.load(p_25, mask=mask_23_p1, other=0.0)  # load0_p: stage 1, partition 0 (group 0)
            u_44 = m_39_p1 / bias1  # elementwise3_u: stage 1, partition 0 (group 0)
            u_47 = u_46 + eps  # elementwise3_u: stage 1, partition 0 (group 0)
            u_48 = u_44 / u_47  # elementwise3_u: stage 1, partition 0 (group 0)
            u_49 = weight_decay * p_26  # elementwise3_u: stage 1, partition 0 (group 0)
            u_50 = u_48 + u_49  # elementwise3_u: stage 1, partition 0 (group 0)
            v_34 = v_ptr + offs_21  # load3_v: stage 0, partition 0 (group 0)
            gl.thread_barrier()
            v_36 = gl.load(v_34, mask=mask_23, other=0.0)  # load3_v: stage 0, partition 0 (group 0)
            g_30 = g_29 / clip_3  # elementwise0_g: stage 0, partition 0 (group 0)
            v12 = gl.convert_layout(u_50, L1)  # convert3: stage 1, partition 0 (group 0)
            m_37 = beta1 * m_33  # elementwise1_m: stage 0, partition 0 (group 0)
            m_38 = m_10 * g_30  # elementwise1_m: stage 0, partition 0 (group 0)
            m_39 = m_37 + m_38  # elementwise1_m: stage 0, partition 0 (group 0)
            v11 = u_ptr + offs_22_p1  # store2: stage 1, partition 0 (group 0)
            gl.store(v11, v12, mask=mask_24_p1)  # store2: stage 1, partition 0 (group 0)
            u_sq_52 = u_50 * u_50  # elementwise5_u_sq: stage 1, partition 0 (group 0)
            u_sq_53 = gl.where(mask_23_p1, u_sq_52, 0.0)  # elementwise5_u_sq: stage 1, partition 0 (group 0)
            u_sq_54 = u_sq_54_p1 + u_sq_53  # elementwise5_u_sq: stage 1, partition 0 (group 0)
            v9 = gl.convert_layout(m_39, L1)  # convert1: stage 0, partition 0 (group 0)
            offs_20 = (v0 + (twill_b - 0) * v2)  # store0: stage 0, partition 0 (group 0)
            offs_22 = offs_20 + offs_4  # store0: stage 0, partition 0 (group 0)
            mask_24 = offs_22 < n  # store0: stage 0, partition 0 (group 0)
            m_32 = m_ptr + offs_22  # store0: stage 0, partition 0 (group 0)
            gl.store(m_32, v9, mask=mask_24)  # store0: stage 0, partition 0 (group 0)
            g_30_p1 = g_30
            m_39_p1 = m_39
            mask_23_p1 = mask_23
            mask_24_p1 = mask_24
            offs_21_p1 = offs_21
            offs_22_p1 = offs_22
            u_sq_54_p1 = u_sq_54
            v_36_p1 = v_36
        v_40 = beta2 * v_36_p1  # elementwise2_v: stage 1, partition 0 (group 0)
        v_41 = v_13 * g_30_p1  # elementwise2_v: stage 1, partition 0 (group 0)
        v_42 = v_41 * g_30_p1  # elementwise2_v: stage 1, partition 0 (group 0)
        v_43 = v_40 + v_42  # elementwise2_v: stage 1, partition 0 (group 0)
        u_45 = v_43 / bias2  # sfu0_u: stage 1, partition 0 (group 0)
        u_46 = gl.sqrt(u_45)  # sfu0_u: stage 1, partition 0 (group 0)
        v10 = gl.convert_layout(v_43, L1)  # convert2: stage 1, partition 0 (group 0)
        v_35 = v_ptr + offs_22_p1  # store1: stage 1, partition 0 (group 0)
        gl.store(v_35, v10, mask=mask_24_p1)  # store1: stage 1, partition 0 (group 0)
        p_25 = p_ptr + offs_21_p1  # load0_p: stage 1, partition 0 (group 0)
        p_26 = gl.load(p_25, mask=mask_23_p1, other=0.0)  # load0_p: stage 1, partition 0 (group 0)
        u_44 = m_39_p1 / bias1  # elementwise3_u: stage 1, partition 0 (group 0)
        u_47 = u_46 + eps  # elementwise3_u: stage 1, partition 0 (group 0)
        u_48 = u_44 / u_47  # elementwise3_u: stage 1, partition 0 (group 0)
        u_49 = weight_decay * p_26  # elementwise3_u: stage 1, partition 0 (group 0)
        u_50 = u_48 + u_49  # elementwise3_u: stage 1, partition 0 (group 0)
        v12 = gl.convert_layout(u_50, L1)  # convert3: stage 1, partition 0 (group 0)
        v11 = u_ptr + offs_22_p1  # store2: stage 1, partition 0 (group 0)
        gl.store(v11, v12, mask=mask_24_p1)  # store2: stage 1, partition 0 (group 0)
        u_sq_52 = u_50 * u_50  # elementwise5_u_sq: stage 1, partition 0 (group 0)
        u_sq_53 = gl.where(mask_23_p1, u_sq_52, 0.0)  # elementwise5_u_sq: stage 1, partition 0 (group 0)
        u_sq_54 = u_sq_54_p1 + u_sq_53  # elementwise5_u_sq: stage 1, partition 0 (group 0)
        g_30_p1 = g_30
        m_39_p1 = m_39
        mask_23_p1 = mask_23
        mask_24_p1 = mask_24
        offs_21_p1 = offs_21
        offs_22_p1 = offs_22
        u_sq_54_p1 = u_sq_54
        v_36_p1 = v_36
    else:
        u_sq_54_p1 = gl.full([2048], 0.0, gl.float32, layout=L0)
    v6 = norms_ptr + 1
    v7 = gl.sum(u_sq_54_p1, axis=0)
    v8 = gl.atomic_add(v6, v7, sem='acq_rel', scope='gpu')

@gluon.jit
def consumer_1(p_ptr, g_ptr, m_ptr, v_ptr, u_ptr, gnorm_ptr, norms_ptr, n, beta1, beta2, bias1, bias2, eps, weight_decay, max_norm):
    pid = gl.program_id(0)
    v0 = pid * 2048
    v1 = gl.num_programs(0)
    v2 = v1 * 2048
    offs = gl.arange(0, 2048, layout=L0)
    twill_n = gl.maximum((n - v0 + v2 - 1) // v2, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        p_sq_51 = gl.full([2048], 0.0, gl.float32, layout=L0)
        p_sq_51_p1 = p_sq_51
        offs_19 = (v0 + (0 - 0) * v2)  # load0_p: stage 0, partition 1 (group 1)
        offs_21 = offs_19 + offs  # load0_p: stage 0, partition 1 (group 1)
        mask_23 = offs_21 < n  # load0_p: stage 0, partition 1 (group 1)
        p_25 = p_ptr + offs_21  # load0_p: stage 0, partition 1 (group 1)
        p_26 = gl.load(p_25, mask=mask_23, other=0.0)  # load0_p: stage 0, partition 1 (group 1)
        p_sq = p_26 * p_26  # elementwise4_p_sq: stage 0, partition 1 (group 1)
        p_sq_51 = p_sq_51_p1 + p_sq  # elementwise4_p_sq: stage 0, partition 1 (group 1)
        p_sq_51_p1 = p_sq_51
        for twill_b in range(1, twill_n):
            offs_19 = (v0 + (twill_b - 0) * v2)  # load0_p: stage 0, partition 1 (group 1)
            offs_21 = offs_19 + offs  # load0_p: stage 0, partition 1 (group 1)
            mask_23 = offs_21 < n  # load0_p: stage 0, partition 1 (group 1)
            p_25 = p_ptr + offs_21  # load0_p: stage 0, partition 1 (group 1)
            p_26 = gl.load(p_25, mask=mask_23, other=0.0)  # load0_p: stage 0, partition 1 (group 1)
            p_sq = p_26 * p_26  # elementwise4_p_sq: stage 0, partition 1 (group 1)
            p_sq_51 = p_sq_51_p1 + p_sq  # elementwise4_p_sq: stage 0, partition 1 (group 1)
            p_sq_51_p1 = p_sq_51
        p_sq_51_p2 = p_sq_51_p1
        p_sq_51_p1 = p_sq_51
    else:
        p_sq_51_p2 = gl.full([2048], 0.0, gl.float32, layout=L0)
    v4 = gl.sum(p_sq_51_p2, axis=0)
    v5 = gl.atomic_add(norms_ptr, v4, sem='acq_rel', scope='gpu')

@gluon.jit
def twill_kernel(p_ptr, g_ptr, m_ptr, v_ptr, u_ptr, gnorm_ptr, norms_ptr, n, beta1, beta2, bias1, bias2, eps, weight_decay, max_norm):
    gl.warp_specialize([
        (consumer_0, (p_ptr, g_ptr, m_ptr, v_ptr, u_ptr, gnorm_ptr, norms_ptr, n, beta1, beta2, bias1, bias2, eps, weight_decay, max_norm, )),
        (consumer_1, (p_ptr, g_ptr, m_ptr, v_ptr, u_ptr, gnorm_ptr, norms_ptr, n, beta1, beta2, bias1, bias2, eps, weight_decay, max_norm, )),
    ], [4], [120])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['p_ptr', 'g_ptr', 'm_ptr', 'v_ptr', 'u_ptr', 'gnorm_ptr', 'norms_ptr', 'n', 'beta1', 'beta2', 'bias1', 'bias2', 'eps', 'weight_decay', 'max_norm', 'BLOCK']          # the Triton kernel's parameters, in order
RUNTIME = ['p_ptr', 'g_ptr', 'm_ptr', 'v_ptr', 'u_ptr', 'gnorm_ptr', 'norms_ptr', 'n', 'beta1', 'beta2', 'bias1', 'bias2', 'eps', 'weight_decay', 'max_norm']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['p_ptr', 'g_ptr', 'm_ptr', 'v_ptr', 'u_ptr', 'gnorm_ptr', 'norms_ptr', 'n', 'beta1', 'beta2', 'bias1', 'bias2', 'eps', 'weight_decay', 'max_norm']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK': 2048}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
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
