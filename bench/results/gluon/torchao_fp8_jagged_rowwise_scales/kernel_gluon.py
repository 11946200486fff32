"""_triton_fp8_row_major_jagged_rowwise_scales, written by twill from its joint schedule: I=44 L=86 (optimal), 1879 cycles per iteration predicted.

Decisions (each from the schedule):
- the consumers' pointer loads in their readers' stage: a stage ahead, ptxas spills registers (1388 bytes stored, 1388 loaded, 327 spill instructions in the loop)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 232 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at torchao_fp8_jagged_rowwise_scales.py:83 (TTGIR line 56) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=281, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- pointer loads in narrow vectors: data_57 (2 bytes), data_55 (2 bytes) per thread and access; a stride that launches pass as 1 (stride_input_col?) Triton's launcher specialises as that constant, and a load along it is contiguous: say so (--const stride_input_col=1, TWILL_SPEC's constexprs)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[4, 1], order=[0, 1]))

@gluon.jit
def consumer_0(input_ptr, offsets_ptr, out_ptr, scales_ptr, M, K, stride_input_row, stride_input_col, stride_output_row, stride_output_col, num_elements):
    twill_base = 0
    block_row_id = gl.program_id(0)
    offset_idx = gl.program_id(1)
    group_col_start_idx_4 = offset_idx > 0
    group_col_start_idx_5 = offsets_ptr + offset_idx
    group_col_start_idx_6 = group_col_start_idx_5 + -1
    group_col_start_idx_7 = gl.load(group_col_start_idx_6, mask=group_col_start_idx_4, other=0)
    group_col_end_idx = gl.load(group_col_start_idx_5)
    block_row_offs = block_row_id * 128
    block_row_offs_8 = gl.arange(0, 128, layout=L0)
    block_row_offs_9 = gl.arange(0, 128, layout=L1)
    block_row_offs_10 = gl.arange(0, 128, layout=L2)
    block_row_offs_13 = block_row_offs + block_row_offs_8
    block_row_offs_14 = block_row_offs + block_row_offs_10
    block_offs = gl.expand_dims(block_row_offs_13, 1)
    block_offs_16 = block_offs * stride_input_row
    block_offs_18 = block_offs_16.broadcast_to([128, 128])
    block_mask_19 = block_offs < M
    block_mask_21 = block_mask_19.broadcast_to([128, 128])
    twill_n = gl.maximum((group_col_end_idx - group_col_start_idx_7 + 128 - 1) // 128, 0)
    amax_buffer_61 = gl.full([128], 0.0, gl.float64, layout=L0)
    amax_buffer_61_p1 = amax_buffer_61
    for twill_b in range(0, twill_n):
        block_col_offs_l0 = (group_col_start_idx_7 + (twill_b - 0) * 128)  # load0_data: stage 0, partition 0 (group 0)
        block_col_offs_48 = block_col_offs_l0 + block_row_offs_9  # load0_data: stage 0, partition 0 (group 0)
        block_offs_49_l0 = gl.expand_dims(block_col_offs_48, 0)  # load0_data: stage 0, partition 0 (group 0)
        block_mask_53_l0 = block_offs_49_l0 < group_col_end_idx  # elementwise0_block_mask: stage 0, partition 0 (group 0)
        block_mask_54 = block_mask_53_l0.broadcast_to([128, 128])  # elementwise0_block_mask: stage 0, partition 0 (group 0)
        block_mask_55 = block_mask_21 & block_mask_54  # elementwise0_block_mask: stage 0, partition 0 (group 0)
        block_offs_50_l0 = block_offs_49_l0 * stride_input_col  # load0_data: stage 0, partition 0 (group 0)
        block_offs_51 = block_offs_50_l0.broadcast_to([128, 128])  # load0_data: stage 0, partition 0 (group 0)
        block_offs_52 = block_offs_18 + block_offs_51  # load0_data: stage 0, partition 0 (group 0)
        data_56 = input_ptr + block_offs_52  # load0_data: stage 0, partition 0 (group 0)
        data_57 = gl.load(data_56, mask=block_mask_55, other=0.0)  # load0_data: stage 0, partition 0 (group 0)
        amax_buffer_58 = gl.abs(data_57)  # elementwise1_amax_buffer: stage 0, partition 0 (group 0)
        input = amax_buffer_58.to(gl.float32)  # convert0_input: stage 0, partition 0 (group 0)
        amax_buffer_59 = gl.max(input, axis=1)  # reduce0_amax_buffer: stage 0, partition 0 (group 0)
        amax_buffer_60 = amax_buffer_59.to(gl.float64)  # convert1_amax_buffer: stage 0, partition 0 (group 0)
        amax_buffer_61 = gl.maximum(amax_buffer_61_p1, amax_buffer_60)  # elementwise2_amax_buffer: stage 0, partition 0 (group 0)
        amax_buffer_61_p1 = amax_buffer_61
    twill_base += twill_n
    scales_23 = gl.minimum(gl.maximum(amax_buffer_61_p1, gl.full([128], 9.999999960041972e-13, gl.float64, layout=L0)), gl.full([128], float("inf"), gl.float64, layout=L0))
    scales_24 = 448.0 / scales_23
    scales_25 = scales_24.to(gl.float32)
    scales_26 = gl.log2(scales_25)
    scales_27 = gl.floor(scales_26)
    scales_28 = gl.exp2(scales_27)
    scales_offs = M * offset_idx
    scales_offs_30 = block_row_offs_14 + scales_offs
    scales_mask_31 = block_row_offs_10 < M
    v1 = scales_ptr + scales_offs_30
    v2 = gl.convert_layout(scales_28, L2)
    gl.store(v1, v2, mask=scales_mask_31)
    block_offs_32 = gl.expand_dims(block_row_offs_13, 1)
    block_offs_34 = block_offs_32 * stride_input_row
    block_offs_36 = block_offs_34.broadcast_to([128, 128])
    block_mask_38 = block_offs_32 < M
    block_mask_40 = block_mask_38.broadcast_to([128, 128])
    scaled_data = gl.expand_dims(scales_28, 1)
    scaled_data_42 = scaled_data.broadcast_to([128, 128])
    out_offs_43 = block_offs_32 * stride_output_row
    out_offs_45 = out_offs_43.broadcast_to([128, 128])
    twill_n = gl.maximum((group_col_end_idx - group_col_start_idx_7 + 128 - 1) // 128, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        block_col_offs = (group_col_start_idx_7 + (0 - 0) * 128)  # load0_data: stage 0, partition 0 (group 0)
        block_col_offs_46 = block_col_offs + block_row_offs_9  # load0_data: stage 0, partition 0 (group 0)
        block_offs_47 = gl.expand_dims(block_col_offs_46, 0)  # load0_data: stage 0, partition 0 (group 0)
        block_mask_51 = block_offs_47 < group_col_end_idx  # elementwise0_block_mask: stage 0, partition 0 (group 0)
        block_mask_52 = block_mask_51.broadcast_to([128, 128])  # elementwise0_block_mask: stage 0, partition 0 (group 0)
        block_mask_53 = block_mask_40 & block_mask_52  # elementwise0_block_mask: stage 0, partition 0 (group 0)
        block_mask_53_p1 = block_mask_53
        block_offs_47_p1 = block_offs_47
        for twill_b in range(1, twill_n):
            block_col_offs = (group_col_start_idx_7 + (twill_b - 0) * 128)  # load0_data: stage 0, partition 0 (group 0)
            block_col_offs_46 = block_col_offs + block_row_offs_9  # load0_data: stage 0, partition 0 (group 0)
            block_offs_47 = gl.expand_dims(block_col_offs_46, 0)  # load0_data: stage 0, partition 0 (group 0)
            block_mask_51 = block_offs_47 < group_col_end_idx  # elementwise0_block_mask: stage 0, partition 0 (group 0)
            block_mask_52 = block_mask_51.broadcast_to([128, 128])  # elementwise0_block_mask: stage 0, partition 0 (group 0)
            block_mask_53 = block_mask_40 & block_mask_52  # elementwise0_block_mask: stage 0, partition 0 (group 0)
            block_offs_48 = block_offs_47_p1 * stride_input_col  # load0_data: stage 1, partition 0 (group 0)
            block_offs_49 = block_offs_48.broadcast_to([128, 128])  # load0_data: stage 1, partition 0 (group 0)
            block_offs_50 = block_offs_36 + block_offs_49  # load0_data: stage 1, partition 0 (group 0)
            data_54 = input_ptr + block_offs_50  # load0_data: stage 1, partition 0 (group 0)
            data_55 = gl.load(data_54, mask=block_mask_53_p1, other=0.0)  # load0_data: stage 1, partition 0 (group 0)
            scaled_data_56 = data_55.to(gl.float32)  # convert0_scaled_data: stage 1, partition 0 (group 0)
            scaled_data_57 = scaled_data_56 * scaled_data_42  # elementwise1_scaled_data: stage 1, partition 0 (group 0)
            fp8_data = gl.minimum(gl.maximum(scaled_data_57, gl.full([128, 128], -448.0, gl.float32, layout=L3)), gl.full([128, 128], 448.0, gl.float32, layout=L3))  # elementwise1_scaled_data: stage 1, partition 0 (group 0)
            fp8_data_58 = fp8_data.to(gl.float8e4nv, fp_downcast_rounding='rtne')  # convert1_fp8_data: stage 1, partition 0 (group 0)
            out_offs_59 = block_offs_47_p1 * stride_output_col  # store0: stage 1, partition 0 (group 0)
            out_offs_60 = out_offs_59.broadcast_to([128, 128])  # store0: stage 1, partition 0 (group 0)
            out_offs_61 = out_offs_45 + out_offs_60  # store0: stage 1, partition 0 (group 0)
            v4 = out_ptr + out_offs_61  # store0: stage 1, partition 0 (group 0)
            gl.store(v4, fp8_data_58, mask=block_mask_53_p1)  # store0: stage 1, partition 0 (group 0)
            block_mask_53_p1 = block_mask_53
            block_offs_47_p1 = block_offs_47
        block_offs_48 = block_offs_47_p1 * stride_input_col  # load0_data: stage 1, partition 0 (group 0)
        block_offs_49 = block_offs_48.broadcast_to([128, 128])  # load0_data: stage 1, partition 0 (group 0)
        block_offs_50 = block_offs_36 + block_offs_49  # load0_data: stage 1, partition 0 (group 0)
        data_54 = input_ptr + block_offs_50  # load0_data: stage 1, partition 0 (group 0)
        data_55 = gl.load(data_54, mask=block_mask_53_p1, other=0.0)  # load0_data: stage 1, partition 0 (group 0)
        scaled_data_56 = data_55.to(gl.float32)  # convert0_scaled_data: stage 1, partition 0 (group 0)
        scaled_data_57 = scaled_data_56 * scaled_data_42  # elementwise1_scaled_data: stage 1, partition 0 (group 0)
        fp8_data = gl.minimum(gl.maximum(scaled_data_57, gl.full([128, 128], -448.0, gl.float32, layout=L3)), gl.full([128, 128], 448.0, gl.float32, layout=L3))  # elementwise1_scaled_data: stage 1, partition 0 (group 0)
        fp8_data_58 = fp8_data.to(gl.float8e4nv, fp_downcast_rounding='rtne')  # convert1_fp8_data: stage 1, partition 0 (group 0)
        out_offs_59 = block_offs_47_p1 * stride_output_col  # store0: stage 1, partition 0 (group 0)
        out_offs_60 = out_offs_59.broadcast_to([128, 128])  # store0: stage 1, partition 0 (group 0)
        out_offs_61 = out_offs_45 + out_offs_60  # store0: stage 1, partition 0 (group 0)
        v4 = out_ptr + out_offs_61  # store0: stage 1, partition 0 (group 0)
        gl.store(v4, fp8_data_58, mask=block_mask_53_p1)  # store0: stage 1, partition 0 (group 0)
        block_mask_53_p1 = block_mask_53
        block_offs_47_p1 = block_offs_47

@gluon.jit
def twill_kernel(input_ptr, offsets_ptr, out_ptr, scales_ptr, M, K, stride_input_row, stride_input_col, stride_output_row, stride_output_col, num_elements):
    consumer_0(input_ptr, offsets_ptr, out_ptr, scales_ptr, M, K, stride_input_row, stride_input_col, stride_output_row, stride_output_col, num_elements, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['input_ptr', 'offsets_ptr', 'out_ptr', 'scales_ptr', 'M', 'K', 'stride_input_row', 'stride_input_col', 'stride_output_row', 'stride_output_col', 'num_elements', 'fp8_dtype_min', 'fp8_dtype_max', 'input_dtype', 'output_dtype', 'round_scales_to_power_of_2', 'BLOCK_SIZE_ROWS', 'BLOCK_SIZE_COLS', 'EPS']          # the Triton kernel's parameters, in order
RUNTIME = ['input_ptr', 'offsets_ptr', 'out_ptr', 'scales_ptr', 'M', 'K', 'stride_input_row', 'stride_input_col', 'stride_output_row', 'stride_output_col', 'num_elements']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['input_ptr', 'offsets_ptr', 'out_ptr', 'scales_ptr', 'M', 'K', 'stride_input_row', 'stride_input_col', 'stride_output_row', 'stride_output_col', 'num_elements', 'input_dtype', 'output_dtype']   # the arguments a launch key reads
CONSTEXPRS = {'fp8_dtype_min': -448.0, 'fp8_dtype_max': 448.0, 'round_scales_to_power_of_2': True, 'BLOCK_SIZE_ROWS': 128, 'BLOCK_SIZE_COLS': 128, 'EPS': 1e-12}         # the specialisation this kernel was generated for
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
