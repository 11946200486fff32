"""_dyt_bwd_kernel, written by twill from its joint schedule: I=128 L=256 (optimal), 1200 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 136 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.extra import libdevice

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0(x_ptr, x_row_stride, dy_ptr, dy_row_stride, dx_ptr, dx_row_stride, alpha_ptr, dalpha_ptr, gamma_ptr, dgamma_ptr, dgamma_row_stride, n_cols, n_rows):
    pid = gl.program_id(0)
    row_start = pid * 125
    row_end = pid + 1
    row_end_3 = row_end * 125
    row_end_4 = gl.minimum(row_end_3, n_rows)
    offsets = gl.arange(0, 4096, layout=L0)
    offsets_5 = gl.arange(0, 4096, layout=L1)
    mask_7 = offsets < n_cols
    mask_8 = offsets_5 < n_cols
    x_ptr_9 = row_start * x_row_stride
    x_ptr_10 = x_ptr + x_ptr_9
    dx_ptr_11 = row_start * dx_row_stride
    dx_ptr_12 = dx_ptr + dx_ptr_11
    dy_ptr_13 = row_start * dy_row_stride
    dy_ptr_14 = dy_ptr + dy_ptr_13
    alpha = gl.load(alpha_ptr)
    gamma_15 = gamma_ptr + offsets
    gamma_16 = gl.load(gamma_15, mask=mask_7, other=0.0)
    twill_n = gl.maximum((row_end_4 - row_start + 1 - 1) // 1, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        x_ptr_38 = x_ptr_10
        x_ptr_38_p1 = x_ptr_38
        dy_ptr_37 = dy_ptr_14
        x_ptr_38 = x_ptr_38_p1 + x_row_stride  # load1_x: stage 0, partition 0 (group 0)
        x = x_ptr_38_p1  # load1_x: stage 0, partition 0 (group 0)
        x_23 = x + offsets  # load1_x: stage 0, partition 0 (group 0)
        x_24 = gl.load(x_23, mask=mask_7, other=0.0)  # load1_x: stage 0, partition 0 (group 0)
        dy_ptr_37_p1 = dy_ptr_37
        x_24_p1 = x_24
        x_ptr_38_p1 = x_ptr_38
        dx_ptr_39 = dx_ptr_12
        dalpha_34 = 0.0
        dgamma_36 = gl.full([4096], 0.0, gl.float32, layout=L0)
        dy_ptr_37 = dy_ptr_37_p1 + dy_row_stride  # load0_dy: stage 1, partition 0 (group 0)
        dy = dy_ptr_37_p1  # load0_dy: stage 1, partition 0 (group 0)
        dy_21 = dy + offsets  # load0_dy: stage 1, partition 0 (group 0)
        dy_22 = gl.load(dy_21, mask=mask_7, other=0.0)  # load0_dy: stage 1, partition 0 (group 0)
        x_ptr_38 = x_ptr_38_p1 + x_row_stride  # load1_x: stage 0, partition 0 (group 0)
        x = x_ptr_38_p1  # load1_x: stage 0, partition 0 (group 0)
        x_23 = x + offsets  # load1_x: stage 0, partition 0 (group 0)
        x_24 = gl.load(x_23, mask=mask_7, other=0.0)  # load1_x: stage 0, partition 0 (group 0)
        tanh_ax_25 = x_24_p1.to(gl.float32)  # convert0_tanh_ax: stage 1, partition 0 (group 0)
        tanh_ax_26 = alpha * tanh_ax_25  # elementwise0_tanh_ax: stage 1, partition 0 (group 0)
        tanh_ax_27 = libdevice.tanh(tanh_ax_26)  # elementwise0_tanh_ax: stage 1, partition 0 (group 0)
        dalpha_34_p1 = dalpha_34
        dgamma_36_p1 = dgamma_36
        dx_ptr_39_p1 = dx_ptr_39
        dy_22_p1 = dy_22
        dy_ptr_37_p1 = dy_ptr_37
        tanh_ax_25_p1 = tanh_ax_25
        tanh_ax_27_p1 = tanh_ax_27
        x_24_p1 = x_24
        x_ptr_38_p1 = x_ptr_38
        for twill_b in range(2, twill_n):
            dy_ptr_37 = dy_ptr_37_p1 + dy_row_stride  # load0_dy: stage 1, partition 0 (group 0)
            dy = dy_ptr_37_p1  # load0_dy: stage 1, partition 0 (group 0)
            dy_21 = dy + offsets  # load0_dy: stage 1, partition 0 (group 0)
            dy_22 = gl.load(dy_21, mask=mask_7, other=0.0)  # load0_dy: stage 1, partition 0 (group 0)
            dx = dy_22_p1.to(gl.float32)  # convert1_dx: stage 2, partition 0 (group 0)
            dgamma_35 = dx * tanh_ax_27_p1  # elementwise5_dgamma: stage 2, partition 0 (group 0)
            dgamma_36 = dgamma_36_p1 + dgamma_35  # elementwise5_dgamma: stage 2, partition 0 (group 0)
            x_ptr_38 = x_ptr_38_p1 + x_row_stride  # load1_x: stage 0, partition 0 (group 0)
            x = x_ptr_38_p1  # load1_x: stage 0, partition 0 (group 0)
            x_23 = x + offsets  # load1_x: stage 0, partition 0 (group 0)
            x_24 = gl.load(x_23, mask=mask_7, other=0.0)  # load1_x: stage 0, partition 0 (group 0)
            tanh_ax_25 = x_24_p1.to(gl.float32)  # convert0_tanh_ax: stage 1, partition 0 (group 0)
            tanh_ax_26 = alpha * tanh_ax_25  # elementwise0_tanh_ax: stage 1, partition 0 (group 0)
            tanh_ax_27 = libdevice.tanh(tanh_ax_26)  # elementwise0_tanh_ax: stage 1, partition 0 (group 0)
            sech2_ax = tanh_ax_27_p1 * tanh_ax_27_p1  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
            sech2_ax_28 = 1.0 - sech2_ax  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
            dx_29 = dx * gamma_16  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
            dx_30 = dx_29 * sech2_ax_28  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
            dx_31 = dx_30 * alpha  # elementwise2_dx: stage 2, partition 0 (group 0)
            v8 = gl.convert_layout(dx_31, L1)  # convert2: stage 2, partition 0 (group 0)
            dalpha = dx_30 * tanh_ax_25_p1  # elementwise3_dalpha: stage 2, partition 0 (group 0)
            v6 = dx_ptr_39_p1  # store0: stage 2, partition 0 (group 0)
            v7 = v6 + offsets_5  # store0: stage 2, partition 0 (group 0)
            gl.store(v7, v8, mask=mask_8)  # store0: stage 2, partition 0 (group 0)
            dx_ptr_39 = dx_ptr_39_p1 + dx_row_stride  # store0: stage 2, partition 0 (group 0)
            dalpha_32 = dalpha  # reduce0_dalpha: stage 2, partition 0 (group 0)
            dalpha_33 = gl.sum(dalpha_32, axis=0)  # reduce0_dalpha: stage 2, partition 0 (group 0)
            dalpha_34 = dalpha_34_p1 + dalpha_33  # elementwise4_dalpha: stage 2, partition 0 (group 0)
            dalpha_34_p1 = dalpha_34
            dgamma_36_p1 = dgamma_36
            dx_ptr_39_p1 = dx_ptr_39
            dy_22_p1 = dy_22
            dy_ptr_37_p1 = dy_ptr_37
            tanh_ax_25_p1 = tanh_ax_25
            tanh_ax_27_p1 = tanh_ax_27
            x_24_p1 = x_24
            x_ptr_38_p1 = x_ptr_38
        dy_ptr_37 = dy_ptr_37_p1 + dy_row_stride  # load0_dy: stage 1, partition 0 (group 0)
        dy = dy_ptr_37_p1  # load0_dy: stage 1, partition 0 (group 0)
        dy_21 = dy + offsets  # load0_dy: stage 1, partition 0 (group 0)
        dy_22 = gl.load(dy_21, mask=mask_7, other=0.0)  # load0_dy: stage 1, partition 0 (group 0)
        dx = dy_22_p1.to(gl.float32)  # convert1_dx: stage 2, partition 0 (group 0)
        dgamma_35 = dx * tanh_ax_27_p1  # elementwise5_dgamma: stage 2, partition 0 (group 0)
        dgamma_36 = dgamma_36_p1 + dgamma_35  # elementwise5_dgamma: stage 2, partition 0 (group 0)
        tanh_ax_25 = x_24_p1.to(gl.float32)  # convert0_tanh_ax: stage 1, partition 0 (group 0)
        tanh_ax_26 = alpha * tanh_ax_25  # elementwise0_tanh_ax: stage 1, partition 0 (group 0)
        tanh_ax_27 = libdevice.tanh(tanh_ax_26)  # elementwise0_tanh_ax: stage 1, partition 0 (group 0)
        sech2_ax = tanh_ax_27_p1 * tanh_ax_27_p1  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
        sech2_ax_28 = 1.0 - sech2_ax  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
        dx_29 = dx * gamma_16  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
        dx_30 = dx_29 * sech2_ax_28  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
        dx_31 = dx_30 * alpha  # elementwise2_dx: stage 2, partition 0 (group 0)
        v8 = gl.convert_layout(dx_31, L1)  # convert2: stage 2, partition 0 (group 0)
        dalpha = dx_30 * tanh_ax_25_p1  # elementwise3_dalpha: stage 2, partition 0 (group 0)
        v6 = dx_ptr_39_p1  # store0: stage 2, partition 0 (group 0)
        v7 = v6 + offsets_5  # store0: stage 2, partition 0 (group 0)
        gl.store(v7, v8, mask=mask_8)  # store0: stage 2, partition 0 (group 0)
        dx_ptr_39 = dx_ptr_39_p1 + dx_row_stride  # store0: stage 2, partition 0 (group 0)
        dalpha_32 = dalpha  # reduce0_dalpha: stage 2, partition 0 (group 0)
        dalpha_33 = gl.sum(dalpha_32, axis=0)  # reduce0_dalpha: stage 2, partition 0 (group 0)
        dalpha_34 = dalpha_34_p1 + dalpha_33  # elementwise4_dalpha: stage 2, partition 0 (group 0)
        dalpha_34_p1 = dalpha_34
        dgamma_36_p1 = dgamma_36
        dx_ptr_39_p1 = dx_ptr_39
        dy_22_p1 = dy_22
        dy_ptr_37_p2 = dy_ptr_37_p1
        dy_ptr_37_p1 = dy_ptr_37
        tanh_ax_25_p1 = tanh_ax_25
        tanh_ax_27_p1 = tanh_ax_27
        x_24_p1 = x_24
        x_ptr_38_p2 = x_ptr_38_p1
        x_ptr_38_p1 = x_ptr_38
        dx = dy_22_p1.to(gl.float32)  # convert1_dx: stage 2, partition 0 (group 0)
        dgamma_35 = dx * tanh_ax_27_p1  # elementwise5_dgamma: stage 2, partition 0 (group 0)
        dgamma_36 = dgamma_36_p1 + dgamma_35  # elementwise5_dgamma: stage 2, partition 0 (group 0)
        sech2_ax = tanh_ax_27_p1 * tanh_ax_27_p1  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
        sech2_ax_28 = 1.0 - sech2_ax  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
        dx_29 = dx * gamma_16  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
        dx_30 = dx_29 * sech2_ax_28  # elementwise1_sech2_ax: stage 2, partition 0 (group 0)
        dx_31 = dx_30 * alpha  # elementwise2_dx: stage 2, partition 0 (group 0)
        v8 = gl.convert_layout(dx_31, L1)  # convert2: stage 2, partition 0 (group 0)
        dalpha = dx_30 * tanh_ax_25_p1  # elementwise3_dalpha: stage 2, partition 0 (group 0)
        v6 = dx_ptr_39_p1  # store0: stage 2, partition 0 (group 0)
        v7 = v6 + offsets_5  # store0: stage 2, partition 0 (group 0)
        gl.store(v7, v8, mask=mask_8)  # store0: stage 2, partition 0 (group 0)
        dx_ptr_39 = dx_ptr_39_p1 + dx_row_stride  # store0: stage 2, partition 0 (group 0)
        dalpha_32 = dalpha  # reduce0_dalpha: stage 2, partition 0 (group 0)
        dalpha_33 = gl.sum(dalpha_32, axis=0)  # reduce0_dalpha: stage 2, partition 0 (group 0)
        dalpha_34 = dalpha_34_p1 + dalpha_33  # elementwise4_dalpha: stage 2, partition 0 (group 0)
        dalpha_34_p1 = dalpha_34
        dgamma_36_p1 = dgamma_36
        dx_ptr_39_p1 = dx_ptr_39
        dy_22_p1 = dy_22
        dy_ptr_37_p2 = dy_ptr_37_p1
        dy_ptr_37_p1 = dy_ptr_37
        tanh_ax_25_p1 = tanh_ax_25
        tanh_ax_27_p1 = tanh_ax_27
        x_24_p1 = x_24
        x_ptr_38_p3 = x_ptr_38_p2
        x_ptr_38_p2 = x_ptr_38_p1
        x_ptr_38_p1 = x_ptr_38
    else:
        x_ptr_18_w = x_ptr_10
        dy_ptr_19_w = dy_ptr_14
        dx_ptr_20_w = dx_ptr_12
        arg17_w = gl.to_tensor(0.0)
        arg18_w = gl.full([4096], 0.0, gl.float32, layout=L0)
        for dgamma_17_w in range(row_start, row_end_4, 1):
            dy_21_w = dy_ptr_19_w + offsets
            dy_22_w = gl.load(dy_21_w, mask=mask_7, other=0.0)
            x_23_w = x_ptr_18_w + offsets
            x_24_w = gl.load(x_23_w, mask=mask_7, other=0.0)
            tanh_ax_25_w = x_24_w.to(gl.float32)
            tanh_ax_26_w = alpha * tanh_ax_25_w
            tanh_ax_27_w = libdevice.tanh(tanh_ax_26_w)
            sech2_ax_w = tanh_ax_27_w * tanh_ax_27_w
            sech2_ax_28_w = 1.0 - sech2_ax_w
            dx_w = dy_22_w.to(gl.float32)
            dx_29_w = dx_w * gamma_16
            dx_30_w = dx_29_w * sech2_ax_28_w
            dx_31_w = dx_30_w * alpha
            dalpha_w = dx_30_w * tanh_ax_25_w
            dalpha_32_w = dalpha_w
            dalpha_33_w = gl.sum(dalpha_32_w, axis=0)
            dalpha_34_w = arg17_w + dalpha_33_w
            dgamma_35_w = dx_w * tanh_ax_27_w
            dgamma_36_w = arg18_w + dgamma_35_w
            v7_w = dx_ptr_20_w + offsets_5
            v8_w = gl.convert_layout(dx_31_w, L1)
            gl.store(v7_w, v8_w, mask=mask_8)
            dy_ptr_37_w = dy_ptr_19_w + dy_row_stride
            x_ptr_38_w = x_ptr_18_w + x_row_stride
            dx_ptr_39_w = dx_ptr_20_w + dx_row_stride
            x_ptr_18_w = x_ptr_38_w
            dy_ptr_19_w = dy_ptr_37_w
            dx_ptr_20_w = dx_ptr_39_w
            arg17_w = dalpha_34_w
            arg18_w = dgamma_36_w
        x_ptr_38_p3 = x_ptr_18_w
        dy_ptr_37_p2 = dy_ptr_19_w
        dx_ptr_39_p1 = dx_ptr_20_w
        dalpha_34_p1 = arg17_w
        dgamma_36_p1 = arg18_w
    v0 = pid * dgamma_row_stride
    v1 = dgamma_ptr + v0
    v3 = v1 + offsets_5
    v4 = gl.convert_layout(dgamma_36_p1, L1)
    gl.store(v3, v4, mask=mask_8)
    v5 = dalpha_ptr + pid
    gl.store(v5, dalpha_34_p1)

@gluon.jit
def twill_kernel(x_ptr, x_row_stride, dy_ptr, dy_row_stride, dx_ptr, dx_row_stride, alpha_ptr, dalpha_ptr, gamma_ptr, dgamma_ptr, dgamma_row_stride, n_cols, n_rows):
    consumer_0(x_ptr, x_row_stride, dy_ptr, dy_row_stride, dx_ptr, dx_row_stride, alpha_ptr, dalpha_ptr, gamma_ptr, dgamma_ptr, dgamma_row_stride, n_cols, n_rows, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'x_row_stride', 'dy_ptr', 'dy_row_stride', 'dx_ptr', 'dx_row_stride', 'alpha_ptr', 'dalpha_ptr', 'gamma_ptr', 'dgamma_ptr', 'dgamma_row_stride', 'n_cols', 'n_rows', 'ROWS_PER_PROGRAM', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'x_row_stride', 'dy_ptr', 'dy_row_stride', 'dx_ptr', 'dx_row_stride', 'alpha_ptr', 'dalpha_ptr', 'gamma_ptr', 'dgamma_ptr', 'dgamma_row_stride', 'n_cols', 'n_rows']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'x_row_stride', 'dy_ptr', 'dy_row_stride', 'dx_ptr', 'dx_row_stride', 'alpha_ptr', 'dalpha_ptr', 'gamma_ptr', 'dgamma_ptr', 'dgamma_row_stride', 'n_cols', 'n_rows']   # the arguments a launch key reads
CONSTEXPRS = {'ROWS_PER_PROGRAM': 125, 'BLOCK_SIZE': 4096}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
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
