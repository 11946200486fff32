"""splitk_release_last_cta, written by twill from its joint schedule: I=272 L=289 (optimal), 512 cycles per iteration predicted.

Decisions (each from the schedule):
- partition 0 (default): consumer, warp group 0, 8 warps, 240 registers per thread (needs about 104): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings
- ring a_51: 4 buffers of [128, 64] bf16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring b_53: 4 buffers of [128, 64] bf16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 131216 bytes planned of 232448; maxnreg 168
- if at splitk_release_last_cta.py:50 (TTGIR line 115): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, ws_ptr, lock_ptr, c_ptr, M, N, K, K_PER_SPLIT, a_desc_2, b_desc, twill_g0, twill_g1, twill_g2, a_51_buf, b_53_buf, a_51_ready, a_51_empty, b_53_ready, b_53_empty):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid = twill_pid0
        pid_k = twill_pid1
        num_pid_n_3 = N + 127
        num_pid_n_4 = num_pid_n_3 // 128
        pid_m = pid // num_pid_n_4
        pid_n = pid % num_pid_n_4
        k_lo = pid_k * K_PER_SPLIT
        k_hi = k_lo + K_PER_SPLIT
        k_hi_5 = gl.minimum(k_hi, K)
        twill_n = gl.maximum((k_hi_5 - k_lo + 64 - 1) // 64, 0)
        acc_56 = gl.full([128, 128], 0.0, gl.float32, layout=L0)
        acc_56_p1 = acc_56
        for twill_b in range(0, twill_n):
            mbarrier.wait(a_51_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            mbarrier.wait(b_53_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            tok_acc_56 = warpgroup_mma(a_51_buf.index((twill_base + twill_b - 0) % 4), b_53_buf.index((twill_base + twill_b - 0) % 4).permute((1, 0)), acc_56_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_56_p1 = warpgroup_mma_wait(1, deps=(acc_56_p1,))
            mbarrier.arrive(a_51_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_53_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            acc_56 = warpgroup_mma_wait(1, deps=(tok_acc_56,))
            acc_56_p1 = acc_56
        acc_56_p1 = warpgroup_mma_wait(0, deps=(acc_56_p1,))
        a_51_buf._keep_alive()
        b_53_buf._keep_alive()
        mbarrier.arrive(a_51_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        mbarrier.arrive(b_53_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        offs_m = pid_m * 128
        offs_m_6 = gl.arange(0, 128, layout=L1)
        offs_m_7 = gl.arange(0, 128, layout=L2)
        offs_m_8 = gl.arange(0, 128, layout=L3)
        offs_m_9 = gl.arange(0, 128, layout=L4)
        offs_m_12 = offs_m + offs_m_6
        offs_m_13 = offs_m + offs_m_7
        offs_n = pid_n * 128
        offs_n_16 = offs_n + offs_m_8
        offs_n_17 = offs_n + offs_m_9
        mask_19 = offs_m_12 < M
        mask_20 = offs_m_13 < M
        mask_21 = gl.expand_dims(mask_19, 1)
        mask_22 = gl.expand_dims(mask_20, 1)
        mask_25 = offs_n_16 < N
        mask_26 = offs_n_17 < N
        mask_27 = gl.expand_dims(mask_25, 0)
        mask_28 = gl.expand_dims(mask_26, 0)
        mask_29 = mask_21.broadcast_to([128, 128])
        mask_30 = mask_22.broadcast_to([128, 128])
        mask_31 = mask_27.broadcast_to([128, 128])
        mask_32 = mask_28.broadcast_to([128, 128])
        mask_33 = mask_29 & mask_31
        mask_34 = mask_30 & mask_32
        offs = gl.expand_dims(offs_m_12, 1)
        offs_35 = gl.expand_dims(offs_m_13, 1)
        offs_38 = offs * N
        offs_39 = offs_35 * N
        offs_40 = gl.expand_dims(offs_n_16, 0)
        offs_41 = gl.expand_dims(offs_n_17, 0)
        offs_42 = offs_38.broadcast_to([128, 128])
        offs_43 = offs_39.broadcast_to([128, 128])
        offs_44 = offs_40.broadcast_to([128, 128])
        offs_45 = offs_41.broadcast_to([128, 128])
        offs_46 = offs_42 + offs_44
        offs_47 = offs_43 + offs_45
        v6 = ws_ptr + offs_46
        v7 = ws_ptr + offs_47
        v8 = gl.convert_layout(acc_56_p1, L5)
        v9 = gl.atomic_add(v6, v8, mask=mask_33, sem='release', scope='gpu')
        ticket_48 = lock_ptr + pid
        ticket_49 = gl.atomic_add(ticket_48, 1, sem='acq_rel', scope='gpu')
        v10 = ticket_49 == 3
        if v10:
            total = gl.load(v7, mask=mask_34, other=0.0, cache_modifier='.cg')
            v12 = c_ptr + offs_47
            v13 = total.to(gl.bfloat16)
            gl.store(v12, v13, mask=mask_34)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, ws_ptr, lock_ptr, c_ptr, M, N, K, K_PER_SPLIT, a_desc_2, b_desc, twill_g0, twill_g1, twill_g2, a_51_buf, b_53_buf, a_51_ready, a_51_empty, b_53_ready, b_53_empty):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid = twill_pid0
        pid_k = twill_pid1
        num_pid_n_3 = N + 127
        num_pid_n_4 = num_pid_n_3 // 128
        pid_m = pid // num_pid_n_4
        pid_n = pid % num_pid_n_4
        k_lo = pid_k * K_PER_SPLIT
        k_hi = k_lo + K_PER_SPLIT
        k_hi_5 = gl.minimum(k_hi, K)
        a = pid_m * 128
        b = pid_n * 128
        for acc_50 in range(k_lo, k_hi_5, 64):
            twill_k = twill_base + (acc_50 - k_lo) // 64
            mbarrier.wait(a_51_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            mbarrier.expect(a_51_ready.index(twill_k % 4), a_desc_2.block_type.nbytes)
            tma.async_copy_global_to_shared(a_desc_2, [a, acc_50], a_51_ready.index(twill_k % 4), a_51_buf.index(twill_k % 4))
            mbarrier.wait(b_53_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            mbarrier.expect(b_53_ready.index(twill_k % 4), b_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(b_desc, [b, acc_50], b_53_ready.index(twill_k % 4), b_53_buf.index(twill_k % 4))
        twill_base += gl.maximum((k_hi_5 - k_lo + 64 - 1) // 64, 0)

@gluon.jit
def twill_kernel(a_ptr, b_ptr, ws_ptr, lock_ptr, c_ptr, M, N, K, K_PER_SPLIT, a_desc_2, b_desc, twill_g0, twill_g1, twill_g2):
    a_51_buf = gl.allocate_shared_memory(gl.bfloat16, [4, 128, 64], a_desc_2.layout)
    b_53_buf = gl.allocate_shared_memory(gl.bfloat16, [4, 128, 64], b_desc.layout)
    a_51_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_51_ready.index(i), count=1)
    a_51_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_51_empty.index(i), count=1)
    b_53_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_53_ready.index(i), count=1)
    b_53_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_53_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, ws_ptr, lock_ptr, c_ptr, M, N, K, K_PER_SPLIT, a_desc_2, b_desc, twill_g0, twill_g1, twill_g2, a_51_buf, b_53_buf, a_51_ready, a_51_empty, b_53_ready, b_53_empty)),
        (producer_1, (a_ptr, b_ptr, ws_ptr, lock_ptr, c_ptr, M, N, K, K_PER_SPLIT, a_desc_2, b_desc, twill_g0, twill_g1, twill_g2, a_51_buf, b_53_buf, a_51_ready, a_51_empty, b_53_ready, b_53_empty)),
    ], [1], [24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'ws_ptr', 'lock_ptr', 'c_ptr', 'M', 'N', 'K', 'K_PER_SPLIT', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'SPLIT_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'ws_ptr', 'lock_ptr', 'c_ptr', 'M', 'N', 'K', 'K_PER_SPLIT', 'a_desc_2', 'b_desc', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'ws_ptr', 'lock_ptr', 'c_ptr', 'M', 'N', 'K', 'K_PER_SPLIT', 'a_desc_2', 'b_desc', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'SPLIT_K': 4}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {'a_desc_2': [128, 64], 'b_desc': [128, 64]}
DESCRIPTOR_LAYOUTS = {'a_desc_2': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'b_desc': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
LAUNCH_DESCRIPTORS = {'a_desc_2': ('a_ptr', ['M', 'K'], ['K', '1']), 'b_desc': ('b_ptr', ['N', 'K'], ['K', '1'])}   # tl.make_tensor_descriptor in the kernel: (base, shape, strides)
NUM_WARPS = 8
MAXNREG = 168
PERSISTENT = True      # one program per SM loops over the grid's tiles
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


class _Made:
    """A descriptor the kernel made itself: its base tensor, shape and strides, as a host descriptor holds them."""

    def __init__(self, base, shape, strides):
        self.base, self.shape, self.strides = base, shape, strides


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
    for n, (base, shape, strides) in LAUNCH_DESCRIPTORS.items():
        bound[n] = _Made(bound[base], [_ev(e, bound) for e in shape], [_ev(e, bound) for e in strides])
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
