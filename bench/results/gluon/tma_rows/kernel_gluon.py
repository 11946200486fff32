"""tma_rows, written by twill from its joint schedule: I=193 L=386 (optimal), 386 cycles per iteration predicted.

Decisions (each from the schedule):
- two CTAs per SM: the partitions' registers (136, 0 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 224 registers per thread (needs about 136): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings
- ring x: 4 buffers of [64, 128] f16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared operand v3_out: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 98384 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(in_desc, out_desc, R, scale, x_buf, v3_out, x_ready, x_empty):
    pid = gl.program_id(0)
    v0 = pid * 64
    v1 = gl.num_programs(0)
    v2 = v1 * 64
    twill_n = gl.maximum((R - v0 + v2 - 1) // v2, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        mbarrier.wait(x_ready.index((0 - 0) % 4), ((0 - 0) // 4) & 1)
        x_8 = x_buf.index((0 - 0) % 4).load(L0).to(gl.float32)  # convert0_x: stage 0, partition 0 (group 0)
        mbarrier.arrive(x_empty.index((0 - 0) % 4))
        y_10 = gl.sum(x_8, axis=1)  # reduce0_y: stage 0, partition 0 (group 0)
        x_8_p1 = x_8
        y_10_p1 = y_10
        for twill_b in range(1, twill_n):
            y_11 = gl.expand_dims(y_10_p1, 1)  # elementwise1_y: stage 1, partition 0 (group 0)
            y_12 = y_11 / 128.0  # elementwise1_y: stage 1, partition 0 (group 0)
            y_9 = x_8_p1 * scale  # elementwise0_y: stage 1, partition 0 (group 0)
            y_13 = y_12.broadcast_to([64, 128])  # elementwise0_y: stage 1, partition 0 (group 0)
            y_14 = y_9 + y_13  # elementwise0_y: stage 1, partition 0 (group 0)
            v3 = y_14.to(gl.float16)  # convert1: stage 1, partition 0 (group 0)
            mbarrier.wait(x_ready.index((twill_b - 0) % 4), ((twill_b - 0) // 4) & 1)
            x_8 = x_buf.index((twill_b - 0) % 4).load(L0).to(gl.float32)  # convert0_x: stage 0, partition 0 (group 0)
            mbarrier.arrive(x_empty.index((twill_b - 0) % 4))
            tma.store_wait(1)  # store0: stage 1, partition 0 (group 0)
            v3_out.index((twill_b - 1) % 2).store(v3)  # store0: stage 1, partition 0 (group 0)
            fence_async_shared()  # store0: stage 1, partition 0 (group 0)
            tma.async_copy_shared_to_global(out_desc, [(v0 + (twill_b - 1) * v2), 0], v3_out.index((twill_b - 1) % 2))  # store0: stage 1, partition 0 (group 0)
            y_10 = gl.sum(x_8, axis=1)  # reduce0_y: stage 0, partition 0 (group 0)
            x_8_p1 = x_8
            y_10_p1 = y_10
        y_11 = gl.expand_dims(y_10_p1, 1)  # elementwise1_y: stage 1, partition 0 (group 0)
        y_12 = y_11 / 128.0  # elementwise1_y: stage 1, partition 0 (group 0)
        y_9 = x_8_p1 * scale  # elementwise0_y: stage 1, partition 0 (group 0)
        y_13 = y_12.broadcast_to([64, 128])  # elementwise0_y: stage 1, partition 0 (group 0)
        y_14 = y_9 + y_13  # elementwise0_y: stage 1, partition 0 (group 0)
        v3 = y_14.to(gl.float16)  # convert1: stage 1, partition 0 (group 0)
        tma.store_wait(1)  # store0: stage 1, partition 0 (group 0)
        v3_out.index(((twill_n - 1 + 1) - 1) % 2).store(v3)  # store0: stage 1, partition 0 (group 0)
        fence_async_shared()  # store0: stage 1, partition 0 (group 0)
        tma.async_copy_shared_to_global(out_desc, [(v0 + ((twill_n - 1 + 1) - 1) * v2), 0], v3_out.index(((twill_n - 1 + 1) - 1) % 2))  # store0: stage 1, partition 0 (group 0)
        x_8_p1 = x_8
        y_10_p1 = y_10
        tma.store_wait(0)
        v3_out._keep_alive()

@gluon.jit
def producer_1(in_desc, out_desc, R, scale, x_buf, v3_out, x_ready, x_empty):
    pid = gl.program_id(0)
    v0 = pid * 64
    v1 = gl.num_programs(0)
    v2 = v1 * 64
    for r in range(v0, R, v2):
        twill_k = (r - v0) // v2
        mbarrier.wait(x_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
        mbarrier.expect(x_ready.index(twill_k % 4), in_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(in_desc, [r, 0], x_ready.index(twill_k % 4), x_buf.index(twill_k % 4))

@gluon.jit
def twill_kernel(in_desc, out_desc, R, scale):
    x_buf = gl.allocate_shared_memory(gl.float16, [4, 64, 128], in_desc.layout)
    v3_out = gl.allocate_shared_memory(gl.float16, [2, 64, 128], out_desc.layout)
    x_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(x_ready.index(i), count=1)
    x_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(x_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (in_desc, out_desc, R, scale, x_buf, v3_out, x_ready, x_empty)),
        (producer_1, (in_desc, out_desc, R, scale, x_buf, v3_out, x_ready, x_empty)),
    ], [1], [24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['in_desc', 'out_desc', 'R', 'scale', 'BR', 'BC']          # the Triton kernel's parameters, in order
RUNTIME = ['in_desc', 'out_desc', 'R', 'scale']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['in_desc', 'out_desc', 'R', 'scale']   # the arguments a launch key reads
CONSTEXPRS = {'BR': 64, 'BC': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {'in_desc': [64, 128], 'out_desc': [64, 128]}
DESCRIPTOR_LAYOUTS = {'in_desc': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'out_desc': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
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
