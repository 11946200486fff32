"""segment_sum_csr_kernel, written by twill from its joint schedule: I=231 L=286 (optimal), 760 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 57 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(x_ptr, indptr_ptr, indices_ptr, out_ptr, num_rows, D, stride_x, stride_out):
    twill_base = 0
    pid_d = gl.program_id(1)
    offs_d = pid_d * 128
    offs_d_2 = gl.arange(0, 128, layout=L0)
    offs_d_3 = gl.arange(0, 128, layout=L1)
    offs_d_6 = offs_d + offs_d_2
    offs_d_7 = offs_d + offs_d_3
    mask_d_9 = offs_d_6 < D
    mask_d_10 = offs_d_7 < D
    offs_e = gl.arange(0, 16, layout=L2)
    x_ptrs = gl.cast(stride_x, gl.int64)
    x_ptrs_14 = gl.expand_dims(offs_d_6, 0)
    x_ptrs_15 = x_ptrs_14.broadcast_to([16, 128])
    xv = gl.expand_dims(mask_d_9, 0)
    xv_16 = xv.broadcast_to([16, 128])
    out_ptrs = gl.cast(stride_out, gl.int64)
    pid_r = gl.program_id(0)
    row0 = pid_r * 8
    row1 = row0 + 8
    row1_11 = gl.minimum(row1, num_rows)
    twill_tile_lb = row0
    twill_tile_step = 1
    for r in range(twill_tile_lb, row1_11, twill_tile_step):
        start = indptr_ptr + r
        start_17 = gl.load(start)
        end = start + 1
        end_18 = gl.load(end)
        twill_n = gl.maximum((end_18 - start_17 + 16 - 1) // 16, 0)
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            acc_41 = gl.full([128], 0.0, gl.float32, layout=L0)
            eidx = (start_17 + (0 - 0) * 16)  # load0_src: stage 0, partition 0 (group 0)
            eidx_25 = eidx + offs_e  # load0_src: stage 0, partition 0 (group 0)
            mask_e_26 = eidx_25 < end_18  # load0_src: stage 0, partition 0 (group 0)
            xv_35 = gl.expand_dims(mask_e_26, 1)  # elementwise0_xv: stage 0, partition 0 (group 0)
            xv_36 = xv_35.broadcast_to([16, 128])  # elementwise0_xv: stage 0, partition 0 (group 0)
            xv_37 = xv_36 & xv_16  # elementwise0_xv: stage 0, partition 0 (group 0)
            src_27 = indices_ptr + eidx_25  # load0_src: stage 0, partition 0 (group 0)
            src_28 = gl.load(src_27, mask=mask_e_26, other=0)  # load0_src: stage 0, partition 0 (group 0)
            x_ptrs_29 = src_28.to(gl.int64)  # load1_xv: stage 0, partition 0 (group 0)
            x_ptrs_30 = gl.expand_dims(x_ptrs_29, 1)  # load1_xv: stage 0, partition 0 (group 0)
            x_ptrs_31 = x_ptrs_30 * x_ptrs  # load1_xv: stage 0, partition 0 (group 0)
            x_ptrs_32 = x_ptr + x_ptrs_31  # load1_xv: stage 0, partition 0 (group 0)
            x_ptrs_33 = x_ptrs_32.broadcast_to([16, 128])  # load1_xv: stage 0, partition 0 (group 0)
            x_ptrs_34 = x_ptrs_33 + x_ptrs_15  # load1_xv: stage 0, partition 0 (group 0)
            xv_38 = gl.load(x_ptrs_34, mask=xv_37, other=0.0)  # load1_xv: stage 0, partition 0 (group 0)
            acc_41_p1 = acc_41
            xv_38_p1 = xv_38
            for twill_b in range(1, twill_n):
                eidx = (start_17 + (twill_b - 0) * 16)  # load0_src: stage 0, partition 0 (group 0)
                eidx_25 = eidx + offs_e  # load0_src: stage 0, partition 0 (group 0)
                mask_e_26 = eidx_25 < end_18  # load0_src: stage 0, partition 0 (group 0)
                xv_35 = gl.expand_dims(mask_e_26, 1)  # elementwise0_xv: stage 0, partition 0 (group 0)
                xv_36 = xv_35.broadcast_to([16, 128])  # elementwise0_xv: stage 0, partition 0 (group 0)
                xv_37 = xv_36 & xv_16  # elementwise0_xv: stage 0, partition 0 (group 0)
                src_27 = indices_ptr + eidx_25  # load0_src: stage 0, partition 0 (group 0)
                src_28 = gl.load(src_27, mask=mask_e_26, other=0)  # load0_src: stage 0, partition 0 (group 0)
                x_ptrs_29 = src_28.to(gl.int64)  # load1_xv: stage 0, partition 0 (group 0)
                x_ptrs_30 = gl.expand_dims(x_ptrs_29, 1)  # load1_xv: stage 0, partition 0 (group 0)
                x_ptrs_31 = x_ptrs_30 * x_ptrs  # load1_xv: stage 0, partition 0 (group 0)
                x_ptrs_32 = x_ptr + x_ptrs_31  # load1_xv: stage 0, partition 0 (group 0)
                x_ptrs_33 = x_ptrs_32.broadcast_to([16, 128])  # load1_xv: stage 0, partition 0 (group 0)
                x_ptrs_34 = x_ptrs_33 + x_ptrs_15  # load1_xv: stage 0, partition 0 (group 0)
                xv_38 = gl.load(x_ptrs_34, mask=xv_37, other=0.0)  # load1_xv: stage 0, partition 0 (group 0)
                acc_39 = xv_38_p1.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
                acc_40 = gl.sum(acc_39, axis=0)  # reduce0_acc: stage 1, partition 0 (group 0)
                acc_41 = acc_41_p1 + acc_40  # elementwise1_acc: stage 1, partition 0 (group 0)
                acc_41_p1 = acc_41
                xv_38_p1 = xv_38
            acc_39 = xv_38_p1.to(gl.float32)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_40 = gl.sum(acc_39, axis=0)  # reduce0_acc: stage 1, partition 0 (group 0)
            acc_41 = acc_41_p1 + acc_40  # elementwise1_acc: stage 1, partition 0 (group 0)
            acc_41_p1 = acc_41
            xv_38_p1 = xv_38
        else:
            acc_41_p1 = gl.full([128], 0.0, gl.float32, layout=L0)
        out_ptrs_19 = gl.cast(r, gl.int64)
        out_ptrs_20 = out_ptrs_19 * out_ptrs
        out_ptrs_21 = out_ptr + out_ptrs_20
        out_ptrs_23 = out_ptrs_21 + offs_d_7
        v0 = acc_41_p1.to(gl.float16)
        v1 = gl.convert_layout(v0, L1)
        gl.store(out_ptrs_23, v1, mask=mask_d_10)
        twill_base += twill_n

@gluon.jit
def twill_kernel(x_ptr, indptr_ptr, indices_ptr, out_ptr, num_rows, D, stride_x, stride_out):
    consumer_0(x_ptr, indptr_ptr, indices_ptr, out_ptr, num_rows, D, stride_x, stride_out, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'indptr_ptr', 'indices_ptr', 'out_ptr', 'num_rows', 'D', 'stride_x', 'stride_out', 'BLOCK_D', 'BLOCK_E', 'ROWS_PER_PROG']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'indptr_ptr', 'indices_ptr', 'out_ptr', 'num_rows', 'D', 'stride_x', 'stride_out']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'indptr_ptr', 'indices_ptr', 'out_ptr', 'num_rows', 'D', 'stride_x', 'stride_out']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_D': 128, 'BLOCK_E': 16, 'ROWS_PER_PROG': 8}         # the specialisation this kernel was generated for
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
