"""matmul_kernel_descriptor_persistent, written by twill from its joint schedule: I=288 L=297 (optimal), 1024 cycles per iteration predicted.

Decisions (each from the schedule):
- partition 0 (default): consumer, warp group 0, 8 warps, 240 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings
- ring a: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring b: 3 buffers of [256, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 213120 bytes planned of 232448; maxnreg 168
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 256, 16]))
L1 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64], [0, 1, 0]], lane_bases=[[0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp_bases=[[16, 0, 0], [32, 0, 0], [64, 0, 0]], block_bases=[], shape=[128, 2, 128]))
L2 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1, 0], [8, 0, 0], [0, 8, 0], [0, 16, 0], [0, 32, 0], [0, 64, 0], [0, 0, 1]], lane_bases=[[0, 2, 0], [0, 4, 0], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp_bases=[[16, 0, 0], [32, 0, 0], [64, 0, 0]], block_bases=[], shape=[128, 128, 2]))
L3 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[[16, 0], [32, 0], [64, 0]], block_bases=[], shape=[128, 128]))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, M, N, K, a_desc_6, b_desc, c_desc_7, a_buf, b_buf, out2_c0_buf, out3_c0_buf, a_ready, a_empty, b_ready, b_empty):
    start_pid = gl.program_id(0)
    num_pid_m_0 = M + 127
    num_pid_m_1 = num_pid_m_0 // 128
    num_pid_n_2 = N + 255
    num_pid_n_3 = num_pid_n_2 // 256
    num_tiles = num_pid_m_1 * num_pid_n_3
    tile_id_c = start_pid - 132
    tile_id_c_9 = tile_id_c
    twill_tile_lb = start_pid
    twill_tile_step = 132
    twill_base = 0
    for tile_id in range(twill_tile_lb, num_tiles, twill_tile_step):
        num_pid_m_0 = M + 127
        num_pid_m_1 = num_pid_m_0 // 128
        num_pid_n_2 = N + 255
        num_pid_n_3 = num_pid_n_2 // 256
        k_tiles_4 = K + 63
        k_tiles_5 = k_tiles_4 // 64
        num_pid_in_group = num_pid_n_3 * 8
        twill_n = (k_tiles_5 - 0 + 1 - 1) // 1
        accumulator_29 = gl.full([128, 256], 0.0, gl.float32, layout=L0)
        accumulator_29_p1 = accumulator_29
        for twill_b in range(0, twill_n):
            mbarrier.wait(a_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            mbarrier.wait(b_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            tok_accumulator_29 = warpgroup_mma(a_buf.index((twill_base + twill_b - 0) % 3), b_buf.index((twill_base + twill_b - 0) % 3).permute((1, 0)), accumulator_29_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            accumulator_29_p1 = warpgroup_mma_wait(1, deps=(accumulator_29_p1,))
            mbarrier.arrive(a_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            accumulator_29 = warpgroup_mma_wait(1, deps=(tok_accumulator_29,))
            accumulator_29_p1 = accumulator_29
        accumulator_29_p1 = warpgroup_mma_wait(0, deps=(accumulator_29_p1,))
        a_buf._keep_alive()
        b_buf._keep_alive()
        mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        mbarrier.arrive(b_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        tile_id_c_13 = tile_id_c_9 + 132
        group_id_14 = tile_id_c_13 // num_pid_in_group
        first_pid_m_15 = group_id_14 * 8
        group_size_m_16 = num_pid_m_1 - first_pid_m_15
        group_size_m_17 = gl.minimum(group_size_m_16, 8)
        pid_m_18 = tile_id_c_13 % group_size_m_17
        pid_m_19 = first_pid_m_15 + pid_m_18
        pid_n_20 = tile_id_c_13 % num_pid_in_group
        pid_n_21 = pid_n_20 // group_size_m_17
        offs_cm = pid_m_19 * 128
        offs_cn = pid_n_21 * 256
        acc = gl.convert_layout(gl.reshape(accumulator_29_p1, [128, 2, 128]), L1)
        acc_22 = gl.convert_layout(gl.permute(acc, (0, 2, 1)), L2)
        outLHS, outRHS = gl.split(acc_22)
        outLHS = gl.convert_layout(outLHS, L3)
        outRHS = gl.convert_layout(outRHS, L3)
        c0 = outLHS.to(gl.float16)
        c0_23 = gl.convert_layout(c0, L4)
        tma.store_wait(0)
        out2_c0_buf.store(c0)
        fence_async_shared()
        tma.async_copy_shared_to_global(c_desc_7, [offs_cm, offs_cn], out2_c0_buf)
        c1 = outRHS.to(gl.float16)
        c1_24 = gl.convert_layout(c1, L4)
        v0 = offs_cn + 128
        out3_c0_buf.store(c1)
        fence_async_shared()
        tma.async_copy_shared_to_global(c_desc_7, [offs_cm, v0], out3_c0_buf)
        tile_id_c_9 = tile_id_c_13
        twill_base += twill_n
    tma.store_wait(0)

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, M, N, K, a_desc_6, b_desc, c_desc_7, a_buf, b_buf, out2_c0_buf, out3_c0_buf, a_ready, a_empty, b_ready, b_empty):
    start_pid = gl.program_id(0)
    num_pid_m_0 = M + 127
    num_pid_m_1 = num_pid_m_0 // 128
    num_pid_n_2 = N + 255
    num_pid_n_3 = num_pid_n_2 // 256
    num_tiles = num_pid_m_1 * num_pid_n_3
    tile_id_c = start_pid - 132
    twill_tile_lb = start_pid
    twill_tile_step = 132
    twill_base = 0
    for tile_id in range(twill_tile_lb, num_tiles, twill_tile_step):
        num_pid_m_0 = M + 127
        num_pid_m_1 = num_pid_m_0 // 128
        num_pid_n_2 = N + 255
        num_pid_n_3 = num_pid_n_2 // 256
        k_tiles_4 = K + 63
        k_tiles_5 = k_tiles_4 // 64
        num_pid_in_group = num_pid_n_3 * 8
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_1 - first_pid_m
        group_size_m_10 = gl.minimum(group_size_m, 8)
        pid_m = tile_id % group_size_m_10
        pid_m_11 = first_pid_m + pid_m
        pid_n = tile_id % num_pid_in_group
        pid_n_12 = pid_n // group_size_m_10
        offs_am = pid_m_11 * 128
        offs_bn = pid_n_12 * 256
        for accumulator_25 in range(0, k_tiles_5, 1):
            twill_k = twill_base + (accumulator_25 - 0) // 1
            offs_k = accumulator_25 * 64
            mbarrier.wait(a_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            mbarrier.expect(a_ready.index(twill_k % 3), a_desc_6.block_type.nbytes)
            tma.async_copy_global_to_shared(a_desc_6, [offs_am, offs_k], a_ready.index(twill_k % 3), a_buf.index(twill_k % 3))
            mbarrier.wait(b_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            mbarrier.expect(b_ready.index(twill_k % 3), b_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(b_desc, [offs_bn, offs_k], b_ready.index(twill_k % 3), b_buf.index(twill_k % 3))
        twill_trips = (k_tiles_5 - 0 + 1 - 1) // 1
        twill_base += twill_trips

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, M, N, K, a_desc_6, b_desc, c_desc_7):
    a_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], a_desc_6.layout)
    b_buf = gl.allocate_shared_memory(gl.float16, [3, 256, 64], b_desc.layout)
    out2_c0_buf = gl.allocate_shared_memory(gl.float16, [128, 128], c_desc_7.layout)
    out3_c0_buf = gl.allocate_shared_memory(gl.float16, [128, 128], c_desc_7.layout)
    a_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_ready.index(i), count=1)
    a_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_ready.index(i), count=1)
    b_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, M, N, K, a_desc_6, b_desc, c_desc_7, a_buf, b_buf, out2_c0_buf, out3_c0_buf, a_ready, a_empty, b_ready, b_empty)),
        (producer_1, (a_ptr, b_ptr, c_ptr, M, N, K, a_desc_6, b_desc, c_desc_7, a_buf, b_buf, out2_c0_buf, out3_c0_buf, a_ready, a_empty, b_ready, b_empty)),
    ], [1], [24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'EPILOGUE_SUBTILE', 'NUM_SMS', 'WARP_SPECIALIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'a_desc_6', 'b_desc', 'c_desc_7']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'a_desc_6', 'b_desc', 'c_desc_7']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8, 'EPILOGUE_SUBTILE': True, 'NUM_SMS': 132, 'WARP_SPECIALIZE': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {'a_desc_6': [128, 64], 'b_desc': [256, 64], 'c_desc_7': [128, 128]}
DESCRIPTOR_LAYOUTS = {'a_desc_6': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'b_desc': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'c_desc_7': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
LAUNCH_DESCRIPTORS = {'a_desc_6': ('a_ptr', ['M', 'K'], ['K', '1']), 'b_desc': ('b_ptr', ['N', 'K'], ['K', '1']), 'c_desc_7': ('c_ptr', ['M', 'N'], ['N', '1'])}   # tl.make_tensor_descriptor in the kernel: (base, shape, strides)
NUM_WARPS = 8
MAXNREG = 168
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
