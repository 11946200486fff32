"""_layer_norm_bwd_kernel, written by twill from its joint schedule: I=374 L=374 (optimal), 1797 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 32 warps, registers as ptxas allocates them (the schedule's tiles need about 72 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[32], order=[0]))

@gluon.jit
def consumer_0(X, W, B, DY, DX, DW, DB, DRESIDUAL, DRESIDUAL_IN, Mean, Rstd, stride_x_row, stride_y_row, stride_dy_row, stride_dx_row, stride_dres_row, stride_dy1_row, stride_dx1_row, stride_dres_in_row, M, N, eps, dropout_p, rows_per_program):
    row_block_id = gl.program_id(0)
    row_start = row_block_id * rows_per_program
    cols = gl.arange(0, 4096, layout=L0)
    mask_1 = cols < N
    X_2 = row_start * stride_x_row
    X_3 = X + X_2
    DRESIDUAL_4 = row_start * stride_dres_row
    DRESIDUAL_5 = DRESIDUAL + DRESIDUAL_4
    DRESIDUAL_IN_6 = row_start * stride_dres_in_row
    DRESIDUAL_IN_7 = DRESIDUAL_IN + DRESIDUAL_IN_6
    DY_8 = row_start * stride_dy_row
    DY_9 = DY + DY_8
    DX_10 = row_start * stride_dx_row
    DX_11 = DX + DX_10
    w_12 = W + cols
    w_13 = gl.load(w_12, mask=mask_1)
    row_end = row_block_id + 1
    row_end_14 = row_end * rows_per_program
    row_end_15 = gl.minimum(row_end_14, M)
    c1 = gl.cast(N, gl.float32)
    twill_n = gl.maximum((row_end_15 - row_start + 1 - 1) // 1, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        X_47 = X_3
        DY_50 = DY_9
        DRESIDUAL_48 = DRESIDUAL_5
        DRESIDUAL_48_p1 = DRESIDUAL_48
        DY_50_p1 = DY_50
        X_47_p1 = X_47
        DX_51 = DX_11
        DRESIDUAL_IN_49 = DRESIDUAL_IN_7
        dw_33 = gl.full([4096], 0.0, gl.float32, layout=L0)
        db_34 = gl.full([4096], 0.0, gl.float32, layout=L0)
        X_47 = X_47_p1 + stride_x_row  # load0_x: stage 0, partition 0 (group 0)
        x = X_47_p1  # load0_x: stage 0, partition 0 (group 0)
        x_22 = x + cols  # load0_x: stage 0, partition 0 (group 0)
        mean = Mean + (row_start + (0 - 0) * 1)  # load2_mean: stage 0, partition 0 (group 0)
        rstd = Rstd + (row_start + (0 - 0) * 1)  # load3_rstd: stage 0, partition 0 (group 0)
        mean_27 = gl.load(mean)  # load2_mean: stage 0, partition 0 (group 0)
        x_23 = gl.load(x_22, mask=mask_1, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        rstd_28 = gl.load(rstd)  # load3_rstd: stage 0, partition 0 (group 0)
        DY_50 = DY_50_p1 + stride_dy_row  # load1_dy: stage 0, partition 0 (group 0)
        dy = DY_50_p1  # load1_dy: stage 0, partition 0 (group 0)
        dy_24 = dy + cols  # load1_dy: stage 0, partition 0 (group 0)
        dy_25 = gl.load(dy_24, mask=mask_1, other=0.0)  # load1_dy: stage 0, partition 0 (group 0)
        DRESIDUAL_48 = DRESIDUAL_48_p1 + stride_dres_row  # load4_dres: stage 0, partition 0 (group 0)
        dres = DRESIDUAL_48_p1  # load4_dres: stage 0, partition 0 (group 0)
        dres_44 = dres + cols  # load4_dres: stage 0, partition 0 (group 0)
        dres_45 = gl.load(dres_44, mask=mask_1, other=0.0)  # load4_dres: stage 0, partition 0 (group 0)
        DRESIDUAL_48_p1 = DRESIDUAL_48
        DRESIDUAL_IN_49_p1 = DRESIDUAL_IN_49
        DX_51_p1 = DX_51
        DY_50_p1 = DY_50
        X_47_p1 = X_47
        db_34_p1 = db_34
        dres_45_p1 = dres_45
        dw_33_p1 = dw_33
        dy_25_p1 = dy_25
        mean_27_p1 = mean_27
        rstd_28_p1 = rstd_28
        x_23_p1 = x_23
        for twill_b in range(1, twill_n):
            X_47 = X_47_p1 + stride_x_row  # load0_x: stage 0, partition 0 (group 0)
            x = X_47_p1  # load0_x: stage 0, partition 0 (group 0)
            x_22 = x + cols  # load0_x: stage 0, partition 0 (group 0)
            mean = Mean + (row_start + (twill_b - 0) * 1)  # load2_mean: stage 0, partition 0 (group 0)
            rstd = Rstd + (row_start + (twill_b - 0) * 1)  # load3_rstd: stage 0, partition 0 (group 0)
            mean_27 = gl.load(mean)  # load2_mean: stage 0, partition 0 (group 0)
            x_23 = gl.load(x_22, mask=mask_1, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
            rstd_28 = gl.load(rstd)  # load3_rstd: stage 0, partition 0 (group 0)
            xhat = mean_27_p1  # elementwise0_xhat: stage 1, partition 0 (group 0)
            xhat_29 = x_23_p1 - xhat  # elementwise0_xhat: stage 1, partition 0 (group 0)
            xhat_30 = rstd_28_p1  # elementwise0_xhat: stage 1, partition 0 (group 0)
            xhat_31 = xhat_29 * xhat_30  # elementwise0_xhat: stage 1, partition 0 (group 0)
            xhat_32 = gl.where(mask_1, xhat_31, 0.0)  # elementwise0_xhat: stage 1, partition 0 (group 0)
            DY_50 = DY_50_p1 + stride_dy_row  # load1_dy: stage 0, partition 0 (group 0)
            dy = DY_50_p1  # load1_dy: stage 0, partition 0 (group 0)
            dy_24 = dy + cols  # load1_dy: stage 0, partition 0 (group 0)
            dy_25 = gl.load(dy_24, mask=mask_1, other=0.0)  # load1_dy: stage 0, partition 0 (group 0)
            dy_26 = dy_25_p1.to(gl.float32)  # convert0_dy: stage 1, partition 0 (group 0)
            wdy = w_13 * dy_26  # elementwise1_wdy: stage 1, partition 0 (group 0)
            c1_35 = xhat_32 * wdy  # elementwise4_c1: stage 1, partition 0 (group 0)
            c1_36 = gl.sum(c1_35, axis=0)  # reduce0_c1: stage 1, partition 0 (group 0)
            c2 = gl.sum(wdy, axis=0)  # reduce1_c2: stage 1, partition 0 (group 0)
            dw = dy_26 * xhat_32  # elementwise2_dw: stage 1, partition 0 (group 0)
            dw_33 = dw_33_p1 + dw  # elementwise2_dw: stage 1, partition 0 (group 0)
            db_34 = db_34_p1 + dy_26  # elementwise3_db: stage 1, partition 0 (group 0)
            c2_38 = c2 / c1  # elementwise6_c2: stage 1, partition 0 (group 0)
            c1_37 = c1_36 / c1  # elementwise5_c1: stage 1, partition 0 (group 0)
            DRESIDUAL_48 = DRESIDUAL_48_p1 + stride_dres_row  # load4_dres: stage 0, partition 0 (group 0)
            dres = DRESIDUAL_48_p1  # load4_dres: stage 0, partition 0 (group 0)
            dres_44 = dres + cols  # load4_dres: stage 0, partition 0 (group 0)
            dres_45 = gl.load(dres_44, mask=mask_1, other=0.0)  # load4_dres: stage 0, partition 0 (group 0)
            dx = c1_37  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_39 = xhat_32 * dx  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_40 = c2_38  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_41 = dx_39 + dx_40  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_42 = wdy - dx_41  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_43 = dx_42 * xhat_30  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_46 = dx_43 + dres_45_p1  # elementwise7_dx: stage 1, partition 0 (group 0)
            v11 = dx_46.to(gl.float16)  # convert1: stage 1, partition 0 (group 0)
            v7 = DRESIDUAL_IN_49_p1  # store0: stage 1, partition 0 (group 0)
            v8 = v7 + cols  # store0: stage 1, partition 0 (group 0)
            gl.store(v8, dx_46, mask=mask_1)  # store0: stage 1, partition 0 (group 0)
            DRESIDUAL_IN_49 = DRESIDUAL_IN_49_p1 + stride_dres_in_row  # store0: stage 1, partition 0 (group 0)
            v9 = DX_51_p1  # store1: stage 1, partition 0 (group 0)
            v10 = v9 + cols  # store1: stage 1, partition 0 (group 0)
            gl.store(v10, v11, mask=mask_1)  # store1: stage 1, partition 0 (group 0)
            DX_51 = DX_51_p1 + stride_dx_row  # store1: stage 1, partition 0 (group 0)
            DRESIDUAL_48_p1 = DRESIDUAL_48
            DRESIDUAL_IN_49_p1 = DRESIDUAL_IN_49
            DX_51_p1 = DX_51
            DY_50_p1 = DY_50
            X_47_p1 = X_47
            db_34_p1 = db_34
            dres_45_p1 = dres_45
            dw_33_p1 = dw_33
            dy_25_p1 = dy_25
            mean_27_p1 = mean_27
            rstd_28_p1 = rstd_28
            x_23_p1 = x_23
        xhat = mean_27_p1  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_29 = x_23_p1 - xhat  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_30 = rstd_28_p1  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_31 = xhat_29 * xhat_30  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_32 = gl.where(mask_1, xhat_31, 0.0)  # elementwise0_xhat: stage 1, partition 0 (group 0)
        dy_26 = dy_25_p1.to(gl.float32)  # convert0_dy: stage 1, partition 0 (group 0)
        wdy = w_13 * dy_26  # elementwise1_wdy: stage 1, partition 0 (group 0)
        c1_35 = xhat_32 * wdy  # elementwise4_c1: stage 1, partition 0 (group 0)
        c1_36 = gl.sum(c1_35, axis=0)  # reduce0_c1: stage 1, partition 0 (group 0)
        c2 = gl.sum(wdy, axis=0)  # reduce1_c2: stage 1, partition 0 (group 0)
        dw = dy_26 * xhat_32  # elementwise2_dw: stage 1, partition 0 (group 0)
        dw_33 = dw_33_p1 + dw  # elementwise2_dw: stage 1, partition 0 (group 0)
        db_34 = db_34_p1 + dy_26  # elementwise3_db: stage 1, partition 0 (group 0)
        c2_38 = c2 / c1  # elementwise6_c2: stage 1, partition 0 (group 0)
        c1_37 = c1_36 / c1  # elementwise5_c1: stage 1, partition 0 (group 0)
        dx = c1_37  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_39 = xhat_32 * dx  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_40 = c2_38  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_41 = dx_39 + dx_40  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_42 = wdy - dx_41  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_43 = dx_42 * xhat_30  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_46 = dx_43 + dres_45_p1  # elementwise7_dx: stage 1, partition 0 (group 0)
        v11 = dx_46.to(gl.float16)  # convert1: stage 1, partition 0 (group 0)
        v7 = DRESIDUAL_IN_49_p1  # store0: stage 1, partition 0 (group 0)
        v8 = v7 + cols  # store0: stage 1, partition 0 (group 0)
        gl.store(v8, dx_46, mask=mask_1)  # store0: stage 1, partition 0 (group 0)
        DRESIDUAL_IN_49 = DRESIDUAL_IN_49_p1 + stride_dres_in_row  # store0: stage 1, partition 0 (group 0)
        v9 = DX_51_p1  # store1: stage 1, partition 0 (group 0)
        v10 = v9 + cols  # store1: stage 1, partition 0 (group 0)
        gl.store(v10, v11, mask=mask_1)  # store1: stage 1, partition 0 (group 0)
        DX_51 = DX_51_p1 + stride_dx_row  # store1: stage 1, partition 0 (group 0)
        DRESIDUAL_48_p2 = DRESIDUAL_48_p1
        DRESIDUAL_48_p1 = DRESIDUAL_48
        DRESIDUAL_IN_49_p1 = DRESIDUAL_IN_49
        DX_51_p1 = DX_51
        DY_50_p2 = DY_50_p1
        DY_50_p1 = DY_50
        X_47_p2 = X_47_p1
        X_47_p1 = X_47
        db_34_p1 = db_34
        dres_45_p1 = dres_45
        dw_33_p1 = dw_33
        dy_25_p1 = dy_25
        mean_27_p1 = mean_27
        rstd_28_p1 = rstd_28
        x_23_p1 = x_23
    else:
        X_47_p2 = X_3
        DY_50_p2 = DY_9
        DX_51_p1 = DX_11
        DRESIDUAL_48_p2 = DRESIDUAL_5
        DRESIDUAL_IN_49_p1 = DRESIDUAL_IN_7
        dw_33_p1 = gl.full([4096], 0.0, gl.float32, layout=L0)
        db_34_p1 = gl.full([4096], 0.0, gl.float32, layout=L0)
    v0 = row_block_id * N
    v1 = DW + v0
    v3 = v1 + cols
    gl.store(v3, dw_33_p1, mask=mask_1)
    v4 = DB + v0
    v6 = v4 + cols
    gl.store(v6, db_34_p1, mask=mask_1)

@gluon.jit
def twill_kernel(X, W, B, DY, DX, DW, DB, DRESIDUAL, DRESIDUAL_IN, Mean, Rstd, stride_x_row, stride_y_row, stride_dy_row, stride_dx_row, stride_dres_row, stride_dy1_row, stride_dx1_row, stride_dres_in_row, M, N, eps, dropout_p, rows_per_program):
    consumer_0(X, W, B, DY, DX, DW, DB, DRESIDUAL, DRESIDUAL_IN, Mean, Rstd, stride_x_row, stride_y_row, stride_dy_row, stride_dx_row, stride_dres_row, stride_dy1_row, stride_dx1_row, stride_dres_in_row, M, N, eps, dropout_p, rows_per_program, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'W', 'B', 'Y', 'DY', 'DX', 'DW', 'DB', 'DRESIDUAL', 'W1', 'DY1', 'DX1', 'DW1', 'DB1', 'DRESIDUAL_IN', 'ROWSCALE', 'SEEDS', 'Mean', 'Rstd', 'stride_x_row', 'stride_y_row', 'stride_dy_row', 'stride_dx_row', 'stride_dres_row', 'stride_dy1_row', 'stride_dx1_row', 'stride_dres_in_row', 'M', 'N', 'eps', 'dropout_p', 'rows_per_program', 'IS_RMS_NORM', 'BLOCK_N', 'HAS_DRESIDUAL', 'STORE_DRESIDUAL', 'HAS_BIAS', 'HAS_DROPOUT', 'HAS_ROWSCALE', 'HAS_DY1', 'HAS_DX1', 'HAS_B1', 'RECOMPUTE_OUTPUT']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'W', 'B', 'DY', 'DX', 'DW', 'DB', 'DRESIDUAL', 'DRESIDUAL_IN', 'Mean', 'Rstd', 'stride_x_row', 'stride_y_row', 'stride_dy_row', 'stride_dx_row', 'stride_dres_row', 'stride_dy1_row', 'stride_dx1_row', 'stride_dres_in_row', 'M', 'N', 'eps', 'dropout_p', 'rows_per_program']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X', 'W', 'B', 'Y', 'DY', 'DX', 'DW', 'DB', 'DRESIDUAL', 'W1', 'DY1', 'DX1', 'DW1', 'DB1', 'DRESIDUAL_IN', 'ROWSCALE', 'SEEDS', 'Mean', 'Rstd', 'stride_x_row', 'stride_y_row', 'stride_dy_row', 'stride_dx_row', 'stride_dres_row', 'stride_dy1_row', 'stride_dx1_row', 'stride_dres_in_row', 'M', 'N', 'eps', 'dropout_p', 'rows_per_program']   # the arguments a launch key reads
CONSTEXPRS = {'IS_RMS_NORM': False, 'BLOCK_N': 4096, 'HAS_DRESIDUAL': True, 'STORE_DRESIDUAL': True, 'HAS_BIAS': True, 'HAS_DROPOUT': False, 'HAS_ROWSCALE': False, 'HAS_DY1': False, 'HAS_DX1': False, 'HAS_B1': False, 'RECOMPUTE_OUTPUT': False}         # the specialisation this kernel was generated for
HEURISTICS = {'HAS_ROWSCALE': "lambda args: args['ROWSCALE'] is not None", 'HAS_DY1': "lambda args: args['DY1'] is not None", 'HAS_DX1': "lambda args: args['DX1'] is not None", 'HAS_B1': "lambda args: args['DB1'] is not None", 'RECOMPUTE_OUTPUT': "lambda args: args['Y'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 32
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

_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristic(name, src):
    """Heuristic ``name``'s function, from its source and the kernel module's names it reads (``HEURISTIC_SCOPE``:
    the module's imports, constants and the functions it calls); False where it cannot be made here."""
    fn = _HEUR.get(name)
    if fn is None:
        import math
        import torch
        import triton
        import triton.language as tl
        scope = {"torch": torch, "triton": triton, "tl": tl, "math": math}
        for part in HEURISTIC_SCOPE:
            try:
                exec(part, scope)
            except Exception:     # noqa: BLE001 - an import of the kernel's own package: its names not here
                pass
        try:
            fn = eval(src, scope)
        except Exception:         # noqa: BLE001 - names of the kernel's module not found: not checked
            fn = False
        if fn is False:
            import warnings
            warnings.warn(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated by this "
                          "launcher: launches are not checked against it", stacklevel=3)
        _HEUR[name] = fn
    return fn


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _heuristic(name, src)
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


def _heuristic_args(bound):
    """The kernel arguments its @triton.heuristics supply (kernl's ``size_m_rounded``), set as Triton sets them."""
    for name, src in HEURISTIC_ARGS.items():
        fn = _heuristic(name, src)
        if fn is False:
            raise ValueError(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated here")
        bound[name] = fn(dict(bound, **CONSTEXPRS))


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
    _heuristics(bound)
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
