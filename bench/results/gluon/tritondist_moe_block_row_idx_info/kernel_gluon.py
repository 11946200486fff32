"""build_block_row_idx_info_kernel, written by twill from its joint schedule: I=300 L=300 (optimal), 1 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 40 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- if at tritondist_moe_block_row_idx_info.py:64 (TTGIR line 88): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

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
def twill_combine_0acaf5f4(a0, a1, a2, a3):
    t0 = a0 == a2
    t1 = a1 < a3
    t2 = t0 & t1
    t3 = gl.cast(a0, gl.int32) > gl.cast(a2, gl.int32)
    t4 = t3 | t2
    t5 = gl.where(t4, a0, a2)
    t6 = gl.where(t4, a1, a3)
    return t5, t6

@gluon.jit
def consumer_0(rows_splits_ptr, rows_splits_cum_per_expert_ptr, block_row_idx_to_expert_idx_ptr, block_row_idx_to_row_offset_ptr, block_row_idx_to_tile_split_ptr, block_row_idx_to_tile_cumsum_ptr, expert_idx_to_tile_offset_ptr, num_tiles_total_ptr):
    sm_id = gl.program_id(0)
    idx = gl.arange(0, 32, layout=L0)
    mask_1 = idx < 32
    row_splits_2 = rows_splits_ptr + idx
    row_splits_3 = gl.load(row_splits_2, mask=mask_1, other=0)
    row_cumsums = gl.associative_scan(row_splits_3, 0, twill_add)
    row_offs = row_cumsums - row_splits_3
    v1 = rows_splits_cum_per_expert_ptr + idx
    gl.store(v1, row_offs, mask=mask_1)
    tiles_splits_4 = row_splits_3 + 127
    tiles_splits_5 = tiles_splits_4 // 128
    tiles_cumsum = gl.associative_scan(tiles_splits_5, 0, twill_add)
    num_tiles_total = gl.sum(tiles_splits_5, axis=0)
    v3 = expert_idx_to_tile_offset_ptr + idx
    v4 = tiles_cumsum - tiles_splits_5
    gl.store(v3, v4, mask=mask_1)
    v5 = sm_id == 0
    if v5:
        gl.store(num_tiles_total_ptr, num_tiles_total)
    twill_n = gl.maximum((num_tiles_total - sm_id + 32 - 1) // 32, 0)
    for twill_b in range(0, twill_n):
        v6 = (sm_id + (twill_b - 0) * 32) < num_tiles_total  # store0: stage 0, partition 0 (group 0)
        if v6:  # store0: stage 0, partition 0 (group 0)
            expert_idx_6 = (sm_id + (twill_b - 0) * 32) < tiles_cumsum  # store0: stage 0, partition 0 (group 0)
            expert_idx_7_r0, expert_idx_7_r1 = gl.reduce((expert_idx_6, idx), 0, twill_combine_0acaf5f4)  # store0: stage 0, partition 0 (group 0)
            v7 = expert_idx_7_r1 == 0  # store0: stage 0, partition 0 (group 0)
            if v7:  # store0: stage 0, partition 0 (group 0)
                tile_split = idx == 0  # store0: stage 0, partition 0 (group 0)
                tile_split_8 = gl.where(tile_split, tiles_splits_5, 0)  # store0: stage 0, partition 0 (group 0)
                tile_split_9 = tile_split_8  # store0: stage 0, partition 0 (group 0)
                tile_split_10 = gl.sum(tile_split_9, axis=0)  # store0: stage 0, partition 0 (group 0)
                v8_r0 = gl.to_tensor(0)  # store0: stage 0, partition 0 (group 0)
                v8_r1 = tile_split_10  # store0: stage 0, partition 0 (group 0)
                v8_r2 = tile_split_10  # store0: stage 0, partition 0 (group 0)
            else:  # store0: stage 0, partition 0 (group 0)
                row_offset_8 = idx == expert_idx_7_r1  # store0: stage 0, partition 0 (group 0)
                row_offset_9 = gl.where(row_offset_8, row_offs, 0)  # store0: stage 0, partition 0 (group 0)
                row_offset_10 = row_offset_9  # store0: stage 0, partition 0 (group 0)
                row_offset_11 = gl.sum(row_offset_10, axis=0)  # store0: stage 0, partition 0 (group 0)
                tile_split_b128 = gl.where(row_offset_8, tiles_splits_5, 0)  # store0: stage 0, partition 0 (group 0)
                tile_split_12 = tile_split_b128  # store0: stage 0, partition 0 (group 0)
                tile_split_13_b130 = gl.sum(tile_split_12, axis=0)  # store0: stage 0, partition 0 (group 0)
                tile_cumsum = gl.where(row_offset_8, tiles_cumsum, 0)  # store0: stage 0, partition 0 (group 0)
                tile_cumsum_14 = tile_cumsum  # store0: stage 0, partition 0 (group 0)
                tile_cumsum_15 = gl.sum(tile_cumsum_14, axis=0)  # store0: stage 0, partition 0 (group 0)
                v8_r0 = row_offset_11  # store0: stage 0, partition 0 (group 0)
                v8_r1 = tile_cumsum_15  # store0: stage 0, partition 0 (group 0)
                v8_r2 = tile_split_13_b130  # store0: stage 0, partition 0 (group 0)
            v9 = block_row_idx_to_expert_idx_ptr + (sm_id + (twill_b - 0) * 32)  # store0: stage 0, partition 0 (group 0)
            gl.store(v9, expert_idx_7_r1)  # store0: stage 0, partition 0 (group 0)
            v10 = block_row_idx_to_row_offset_ptr + (sm_id + (twill_b - 0) * 32)  # store0: stage 0, partition 0 (group 0)
            gl.store(v10, v8_r0)  # store0: stage 0, partition 0 (group 0)
            v11 = block_row_idx_to_tile_split_ptr + (sm_id + (twill_b - 0) * 32)  # store0: stage 0, partition 0 (group 0)
            gl.store(v11, v8_r2)  # store0: stage 0, partition 0 (group 0)
            v12 = block_row_idx_to_tile_cumsum_ptr + (sm_id + (twill_b - 0) * 32)  # store0: stage 0, partition 0 (group 0)
            gl.store(v12, v8_r1)  # store0: stage 0, partition 0 (group 0)

@gluon.jit
def twill_kernel(rows_splits_ptr, rows_splits_cum_per_expert_ptr, block_row_idx_to_expert_idx_ptr, block_row_idx_to_row_offset_ptr, block_row_idx_to_tile_split_ptr, block_row_idx_to_tile_cumsum_ptr, expert_idx_to_tile_offset_ptr, num_tiles_total_ptr):
    consumer_0(rows_splits_ptr, rows_splits_cum_per_expert_ptr, block_row_idx_to_expert_idx_ptr, block_row_idx_to_row_offset_ptr, block_row_idx_to_tile_split_ptr, block_row_idx_to_tile_cumsum_ptr, expert_idx_to_tile_offset_ptr, num_tiles_total_ptr, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['rows_splits_ptr', 'rows_splits_cum_per_expert_ptr', 'block_row_idx_to_expert_idx_ptr', 'block_row_idx_to_row_offset_ptr', 'block_row_idx_to_tile_split_ptr', 'block_row_idx_to_tile_cumsum_ptr', 'expert_idx_to_tile_offset_ptr', 'num_tiles_total_ptr', 'E', 'E_PAD', 'BLOCK_SIZE_M', 'NUM_SMS']          # the Triton kernel's parameters, in order
RUNTIME = ['rows_splits_ptr', 'rows_splits_cum_per_expert_ptr', 'block_row_idx_to_expert_idx_ptr', 'block_row_idx_to_row_offset_ptr', 'block_row_idx_to_tile_split_ptr', 'block_row_idx_to_tile_cumsum_ptr', 'expert_idx_to_tile_offset_ptr', 'num_tiles_total_ptr']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['rows_splits_ptr', 'rows_splits_cum_per_expert_ptr', 'block_row_idx_to_expert_idx_ptr', 'block_row_idx_to_row_offset_ptr', 'block_row_idx_to_tile_split_ptr', 'block_row_idx_to_tile_cumsum_ptr', 'expert_idx_to_tile_offset_ptr', 'num_tiles_total_ptr']   # the arguments a launch key reads
CONSTEXPRS = {'E': 32, 'E_PAD': 32, 'BLOCK_SIZE_M': 128, 'NUM_SMS': 32}         # the specialisation this kernel was generated for
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
