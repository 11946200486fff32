"""csr_spmm_kernel, written by twill from its joint schedule: I=205 L=285 (optimal), 920 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 74 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

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
def consumer_0(rowptr, col, value, B, C, N, stride_bk, stride_cm):
    row = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_n = pid_n * 128
    offs_n_2 = gl.arange(0, 128, layout=L0)
    offs_n_3 = gl.arange(0, 128, layout=L1)
    offs_n_6 = offs_n + offs_n_2
    offs_n_7 = offs_n + offs_n_3
    mask_n_9 = offs_n_6 < N
    mask_n_10 = offs_n_7 < N
    offs = gl.arange(0, 32, layout=L2)
    start = rowptr + row
    start_11 = gl.load(start)
    end_12 = start + 1
    end_13 = gl.load(end_12)
    b_ptrs = gl.cast(stride_bk, gl.int64)
    b_ptrs_16 = gl.expand_dims(offs_n_6, 0)
    b_ptrs_17 = b_ptrs_16.broadcast_to([32, 128])
    b = gl.expand_dims(mask_n_9, 0)
    b_18 = b.broadcast_to([32, 128])
    twill_n = gl.maximum((end_13 - start_11 + 32 - 1) // 32, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        idx = (start_11 + (0 - 0) * 32)  # load0_cols: stage 0, partition 0 (group 0)
        idx_27 = idx + offs  # load0_cols: stage 0, partition 0 (group 0)
        mask_e_28 = idx_27 < end_13  # load0_cols: stage 0, partition 0 (group 0)
        vals_31 = value + idx_27  # load1_vals: stage 0, partition 0 (group 0)
        vals_32 = gl.load(vals_31, mask=mask_e_28, other=0.0)  # load1_vals: stage 0, partition 0 (group 0)
        idx_27_p1 = idx_27
        mask_e_28_p1 = mask_e_28
        vals_32_p1 = vals_32
        acc_49 = gl.full([128], 0.0, gl.float32, layout=L0)
        b_40 = gl.expand_dims(mask_e_28_p1, 1)  # elementwise0_b: stage 1, partition 0 (group 0)
        b_41 = b_40.broadcast_to([32, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
        b_42 = b_41 & b_18  # elementwise0_b: stage 1, partition 0 (group 0)
        idx = (start_11 + (1 - 0) * 32)  # load0_cols: stage 0, partition 0 (group 0)
        idx_27 = idx + offs  # load0_cols: stage 0, partition 0 (group 0)
        mask_e_28 = idx_27 < end_13  # load0_cols: stage 0, partition 0 (group 0)
        vals_31 = value + idx_27  # load1_vals: stage 0, partition 0 (group 0)
        vals_32 = gl.load(vals_31, mask=mask_e_28, other=0.0)  # load1_vals: stage 0, partition 0 (group 0)
        vals_33 = vals_32_p1.to(gl.float32)  # convert0_vals: stage 1, partition 0 (group 0)
        cols_29 = col + idx_27_p1  # load0_cols: stage 1, partition 0 (group 0)
        cols_30 = gl.load(cols_29, mask=mask_e_28_p1, other=0)  # load0_cols: stage 1, partition 0 (group 0)
        b_ptrs_34 = cols_30.to(gl.int64)  # load2_b: stage 1, partition 0 (group 0)
        b_ptrs_35 = gl.expand_dims(b_ptrs_34, 1)  # load2_b: stage 1, partition 0 (group 0)
        b_ptrs_36 = b_ptrs_35 * b_ptrs  # load2_b: stage 1, partition 0 (group 0)
        b_ptrs_37 = B + b_ptrs_36  # load2_b: stage 1, partition 0 (group 0)
        b_ptrs_38 = b_ptrs_37.broadcast_to([32, 128])  # load2_b: stage 1, partition 0 (group 0)
        b_ptrs_39 = b_ptrs_38 + b_ptrs_17  # load2_b: stage 1, partition 0 (group 0)
        b_43 = gl.load(b_ptrs_39, mask=b_42, other=0.0)  # load2_b: stage 1, partition 0 (group 0)
        acc_49_p1 = acc_49
        b_43_p1 = b_43
        idx_27_p1 = idx_27
        mask_e_28_p1 = mask_e_28
        vals_32_p1 = vals_32
        vals_33_p1 = vals_33
        for twill_b in range(2, twill_n):
            b_40 = gl.expand_dims(mask_e_28_p1, 1)  # elementwise0_b: stage 1, partition 0 (group 0)
            b_41 = b_40.broadcast_to([32, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
            b_42 = b_41 & b_18  # elementwise0_b: stage 1, partition 0 (group 0)
            idx = (start_11 + (twill_b - 0) * 32)  # load0_cols: stage 0, partition 0 (group 0)
            idx_27 = idx + offs  # load0_cols: stage 0, partition 0 (group 0)
            mask_e_28 = idx_27 < end_13  # load0_cols: stage 0, partition 0 (group 0)
            vals_31 = value + idx_27  # load1_vals: stage 0, partition 0 (group 0)
            vals_32 = gl.load(vals_31, mask=mask_e_28, other=0.0)  # load1_vals: stage 0, partition 0 (group 0)
            vals_33 = vals_32_p1.to(gl.float32)  # convert0_vals: stage 1, partition 0 (group 0)
            cols_29 = col + idx_27_p1  # load0_cols: stage 1, partition 0 (group 0)
            cols_30 = gl.load(cols_29, mask=mask_e_28_p1, other=0)  # load0_cols: stage 1, partition 0 (group 0)
            b_ptrs_34 = cols_30.to(gl.int64)  # load2_b: stage 1, partition 0 (group 0)
            b_ptrs_35 = gl.expand_dims(b_ptrs_34, 1)  # load2_b: stage 1, partition 0 (group 0)
            b_ptrs_36 = b_ptrs_35 * b_ptrs  # load2_b: stage 1, partition 0 (group 0)
            b_ptrs_37 = B + b_ptrs_36  # load2_b: stage 1, partition 0 (group 0)
            b_ptrs_38 = b_ptrs_37.broadcast_to([32, 128])  # load2_b: stage 1, partition 0 (group 0)
            b_ptrs_39 = b_ptrs_38 + b_ptrs_17  # load2_b: stage 1, partition 0 (group 0)
            b_43 = gl.load(b_ptrs_39, mask=b_42, other=0.0)  # load2_b: stage 1, partition 0 (group 0)
            b_44 = b_43_p1.to(gl.float32)  # convert1_b: stage 2, partition 0 (group 0)
            acc_45 = gl.expand_dims(vals_33_p1, 1)  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_46 = acc_45.broadcast_to([32, 128])  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_47 = acc_46 * b_44  # elementwise1_acc: stage 2, partition 0 (group 0)
            acc_48 = gl.sum(acc_47, axis=0)  # reduce0_acc: stage 2, partition 0 (group 0)
            acc_49 = acc_49_p1 + acc_48  # elementwise2_acc: stage 2, partition 0 (group 0)
            acc_49_p1 = acc_49
            b_43_p1 = b_43
            idx_27_p1 = idx_27
            mask_e_28_p1 = mask_e_28
            vals_32_p1 = vals_32
            vals_33_p1 = vals_33
        b_40 = gl.expand_dims(mask_e_28_p1, 1)  # elementwise0_b: stage 1, partition 0 (group 0)
        b_41 = b_40.broadcast_to([32, 128])  # elementwise0_b: stage 1, partition 0 (group 0)
        b_42 = b_41 & b_18  # elementwise0_b: stage 1, partition 0 (group 0)
        vals_33 = vals_32_p1.to(gl.float32)  # convert0_vals: stage 1, partition 0 (group 0)
        cols_29 = col + idx_27_p1  # load0_cols: stage 1, partition 0 (group 0)
        cols_30 = gl.load(cols_29, mask=mask_e_28_p1, other=0)  # load0_cols: stage 1, partition 0 (group 0)
        b_ptrs_34 = cols_30.to(gl.int64)  # load2_b: stage 1, partition 0 (group 0)
        b_ptrs_35 = gl.expand_dims(b_ptrs_34, 1)  # load2_b: stage 1, partition 0 (group 0)
        b_ptrs_36 = b_ptrs_35 * b_ptrs  # load2_b: stage 1, partition 0 (group 0)
        b_ptrs_37 = B + b_ptrs_36  # load2_b: stage 1, partition 0 (group 0)
        b_ptrs_38 = b_ptrs_37.broadcast_to([32, 128])  # load2_b: stage 1, partition 0 (group 0)
        b_ptrs_39 = b_ptrs_38 + b_ptrs_17  # load2_b: stage 1, partition 0 (group 0)
        b_43 = gl.load(b_ptrs_39, mask=b_42, other=0.0)  # load2_b: stage 1, partition 0 (group 0)
        b_44 = b_43_p1.to(gl.float32)  # convert1_b: stage 2, partition 0 (group 0)
        acc_45 = gl.expand_dims(vals_33_p1, 1)  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_46 = acc_45.broadcast_to([32, 128])  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_47 = acc_46 * b_44  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_48 = gl.sum(acc_47, axis=0)  # reduce0_acc: stage 2, partition 0 (group 0)
        acc_49 = acc_49_p1 + acc_48  # elementwise2_acc: stage 2, partition 0 (group 0)
        acc_49_p1 = acc_49
        b_43_p1 = b_43
        idx_27_p1 = idx_27
        mask_e_28_p1 = mask_e_28
        vals_32_p1 = vals_32
        vals_33_p1 = vals_33
        b_44 = b_43_p1.to(gl.float32)  # convert1_b: stage 2, partition 0 (group 0)
        acc_45 = gl.expand_dims(vals_33_p1, 1)  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_46 = acc_45.broadcast_to([32, 128])  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_47 = acc_46 * b_44  # elementwise1_acc: stage 2, partition 0 (group 0)
        acc_48 = gl.sum(acc_47, axis=0)  # reduce0_acc: stage 2, partition 0 (group 0)
        acc_49 = acc_49_p1 + acc_48  # elementwise2_acc: stage 2, partition 0 (group 0)
        acc_49_p1 = acc_49
        b_43_p1 = b_43
        idx_27_p1 = idx_27
        mask_e_28_p1 = mask_e_28
        vals_32_p1 = vals_32
        vals_33_p1 = vals_33
    else:
        acc_26_w = gl.full([128], 0.0, gl.float32, layout=L0)
        for acc_25_w in range(start_11, end_13, 32):
            idx_27_w = acc_25_w + offs
            mask_e_28_w = idx_27_w < end_13
            cols_29_w = col + idx_27_w
            cols_30_w = gl.load(cols_29_w, mask=mask_e_28_w, other=0)
            vals_31_w = value + idx_27_w
            vals_32_w = gl.load(vals_31_w, mask=mask_e_28_w, other=0.0)
            vals_33_w = vals_32_w.to(gl.float32)
            b_ptrs_34_w = cols_30_w.to(gl.int64)
            b_ptrs_35_w = gl.expand_dims(b_ptrs_34_w, 1)
            b_ptrs_36_w = b_ptrs_35_w * b_ptrs
            b_ptrs_37_w = B + b_ptrs_36_w
            b_ptrs_38_w = b_ptrs_37_w.broadcast_to([32, 128])
            b_ptrs_39_w = b_ptrs_38_w + b_ptrs_17
            b_40_w = gl.expand_dims(mask_e_28_w, 1)
            b_41_w = b_40_w.broadcast_to([32, 128])
            b_42_w = b_41_w & b_18
            b_43_w = gl.load(b_ptrs_39_w, mask=b_42_w, other=0.0)
            b_44_w = b_43_w.to(gl.float32)
            acc_45_w = gl.expand_dims(vals_33_w, 1)
            acc_46_w = acc_45_w.broadcast_to([32, 128])
            acc_47_w = acc_46_w * b_44_w
            acc_48_w = gl.sum(acc_47_w, axis=0)
            acc_49_w = acc_26_w + acc_48_w
            acc_26_w = acc_49_w
        acc_49_p1 = acc_26_w
    c_ptrs = gl.cast(row, gl.int64)
    c_ptrs_20 = gl.cast(stride_cm, gl.int64)
    c_ptrs_21 = c_ptrs * c_ptrs_20
    c_ptrs_22 = C + c_ptrs_21
    c_ptrs_24 = c_ptrs_22 + offs_n_7
    v0 = acc_49_p1.to(gl.float16)
    v1 = gl.convert_layout(v0, L1)
    gl.store(c_ptrs_24, v1, mask=mask_n_10)

@gluon.jit
def twill_kernel(rowptr, col, value, B, C, N, stride_bk, stride_cm):
    consumer_0(rowptr, col, value, B, C, N, stride_bk, stride_cm, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['rowptr', 'col', 'value', 'B', 'C', 'N', 'stride_bk', 'stride_cm', 'BLOCK_NNZ', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['rowptr', 'col', 'value', 'B', 'C', 'N', 'stride_bk', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['rowptr', 'col', 'value', 'B', 'C', 'N', 'stride_bk', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_NNZ': 32, 'BLOCK_N': 128}         # the specialisation this kernel was generated for
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
