"""_layer_norm_bwd_kernel, written by twill from its joint schedule: I=319 L=319 (optimal), 1837 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 124 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0(X, W, B, DY, DX, DW, DB, DRESIDUAL, DRESIDUAL_IN, Mean, Rstd, stride_x_row, stride_y_row, stride_dy_row, stride_dx_row, stride_dres_row, stride_dy1_row, stride_dx1_row, stride_dres_in_row, M, N, eps, dropout_p, rows_per_program):
    row_block_id = gl.program_id(0)
    row_start = row_block_id * rows_per_program
    cols = gl.arange(0, 4096, layout=L0)
    cols_1 = gl.arange(0, 4096, layout=L1)
    mask_3 = cols < N
    mask_4 = cols_1 < N
    X_5 = row_start * stride_x_row
    X_6 = X + X_5
    DRESIDUAL_7 = row_start * stride_dres_row
    DRESIDUAL_8 = DRESIDUAL + DRESIDUAL_7
    DRESIDUAL_IN_9 = row_start * stride_dres_in_row
    DRESIDUAL_IN_10 = DRESIDUAL_IN + DRESIDUAL_IN_9
    DY_11 = row_start * stride_dy_row
    DY_12 = DY + DY_11
    DX_13 = row_start * stride_dx_row
    DX_14 = DX + DX_13
    w_15 = W + cols
    w_16 = gl.load(w_15, mask=mask_3)
    row_end = row_block_id + 1
    row_end_17 = row_end * rows_per_program
    row_end_18 = gl.minimum(row_end_17, M)
    c1 = gl.cast(N, gl.float32)
    twill_n = (row_end_18 - row_start + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        X_50 = X_6
        DY_53 = DY_12
        DRESIDUAL_51 = DRESIDUAL_8
        DRESIDUAL_51_p1 = DRESIDUAL_51
        DY_53_p1 = DY_53
        X_50_p1 = X_50
        DX_54 = DX_14
        DRESIDUAL_IN_52 = DRESIDUAL_IN_10
        dw_36 = gl.full([4096], 0.0, gl.float32, layout=L0)
        db_37 = gl.full([4096], 0.0, gl.float32, layout=L0)
        DY_53 = DY_53_p1 + stride_dy_row  # load1_dy: stage 0, partition 0 (group 0)
        dy = DY_53_p1  # load1_dy: stage 0, partition 0 (group 0)
        dy_27 = dy + cols  # load1_dy: stage 0, partition 0 (group 0)
        dy_28 = gl.load(dy_27, mask=mask_3, other=0.0)  # load1_dy: stage 0, partition 0 (group 0)
        X_50 = X_50_p1 + stride_x_row  # load0_x: stage 0, partition 0 (group 0)
        x = X_50_p1  # load0_x: stage 0, partition 0 (group 0)
        x_25 = x + cols  # load0_x: stage 0, partition 0 (group 0)
        mean = Mean + (row_start + (0 - 0) * 1)  # load2_mean: stage 0, partition 0 (group 0)
        rstd = Rstd + (row_start + (0 - 0) * 1)  # load3_rstd: stage 0, partition 0 (group 0)
        mean_30 = gl.load(mean)  # load2_mean: stage 0, partition 0 (group 0)
        x_26 = gl.load(x_25, mask=mask_3, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        rstd_31 = gl.load(rstd)  # load3_rstd: stage 0, partition 0 (group 0)
        DRESIDUAL_51 = DRESIDUAL_51_p1 + stride_dres_row  # load4_dres: stage 0, partition 0 (group 0)
        dres = DRESIDUAL_51_p1  # load4_dres: stage 0, partition 0 (group 0)
        dres_47 = dres + cols  # load4_dres: stage 0, partition 0 (group 0)
        dres_48 = gl.load(dres_47, mask=mask_3, other=0.0)  # load4_dres: stage 0, partition 0 (group 0)
        DRESIDUAL_51_p1 = DRESIDUAL_51
        DRESIDUAL_IN_52_p1 = DRESIDUAL_IN_52
        DX_54_p1 = DX_54
        DY_53_p1 = DY_53
        X_50_p1 = X_50
        db_37_p1 = db_37
        dres_48_p1 = dres_48
        dw_36_p1 = dw_36
        dy_28_p1 = dy_28
        mean_30_p1 = mean_30
        rstd_31_p1 = rstd_31
        x_26_p1 = x_26
        for twill_b in range(1, twill_n):
            DY_53 = DY_53_p1 + stride_dy_row  # load1_dy: stage 0, partition 0 (group 0)
            dy = DY_53_p1  # load1_dy: stage 0, partition 0 (group 0)
            dy_27 = dy + cols  # load1_dy: stage 0, partition 0 (group 0)
            dy_28 = gl.load(dy_27, mask=mask_3, other=0.0)  # load1_dy: stage 0, partition 0 (group 0)
            dy_29 = dy_28_p1.to(gl.float32)  # convert0_dy: stage 1, partition 0 (group 0)
            db_37 = db_37_p1 + dy_29  # elementwise3_db: stage 1, partition 0 (group 0)
            wdy = w_16 * dy_29  # elementwise1_wdy: stage 1, partition 0 (group 0)
            X_50 = X_50_p1 + stride_x_row  # load0_x: stage 0, partition 0 (group 0)
            x = X_50_p1  # load0_x: stage 0, partition 0 (group 0)
            x_25 = x + cols  # load0_x: stage 0, partition 0 (group 0)
            mean = Mean + (row_start + (twill_b - 0) * 1)  # load2_mean: stage 0, partition 0 (group 0)
            rstd = Rstd + (row_start + (twill_b - 0) * 1)  # load3_rstd: stage 0, partition 0 (group 0)
            mean_30 = gl.load(mean)  # load2_mean: stage 0, partition 0 (group 0)
            x_26 = gl.load(x_25, mask=mask_3, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
            rstd_31 = gl.load(rstd)  # load3_rstd: stage 0, partition 0 (group 0)
            xhat = mean_30_p1  # elementwise0_xhat: stage 1, partition 0 (group 0)
            xhat_32 = x_26_p1 - xhat  # elementwise0_xhat: stage 1, partition 0 (group 0)
            xhat_33 = rstd_31_p1  # elementwise0_xhat: stage 1, partition 0 (group 0)
            xhat_34 = xhat_32 * xhat_33  # elementwise0_xhat: stage 1, partition 0 (group 0)
            xhat_35 = gl.where(mask_3, xhat_34, 0.0)  # elementwise0_xhat: stage 1, partition 0 (group 0)
            dw = dy_29 * xhat_35  # elementwise2_dw: stage 1, partition 0 (group 0)
            dw_36 = dw_36_p1 + dw  # elementwise2_dw: stage 1, partition 0 (group 0)
            c1_38 = xhat_35 * wdy  # elementwise4_c1: stage 1, partition 0 (group 0)
            c1_39 = gl.sum(c1_38, axis=0)  # reduce0_c1: stage 1, partition 0 (group 0)
            c2 = gl.sum(wdy, axis=0)  # reduce1_c2: stage 1, partition 0 (group 0)
            c1_40 = c1_39 / c1  # elementwise5_c1: stage 1, partition 0 (group 0)
            c2_41 = c2 / c1  # elementwise6_c2: stage 1, partition 0 (group 0)
            DRESIDUAL_51 = DRESIDUAL_51_p1 + stride_dres_row  # load4_dres: stage 0, partition 0 (group 0)
            dres = DRESIDUAL_51_p1  # load4_dres: stage 0, partition 0 (group 0)
            dres_47 = dres + cols  # load4_dres: stage 0, partition 0 (group 0)
            dres_48 = gl.load(dres_47, mask=mask_3, other=0.0)  # load4_dres: stage 0, partition 0 (group 0)
            dx = c1_40  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_42 = xhat_35 * dx  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_43 = c2_41  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_44 = dx_42 + dx_43  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_45 = wdy - dx_44  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_46 = dx_45 * xhat_33  # elementwise7_dx: stage 1, partition 0 (group 0)
            dx_49 = dx_46 + dres_48_p1  # elementwise7_dx: stage 1, partition 0 (group 0)
            v14 = dx_49.to(gl.float16)  # convert2: stage 1, partition 0 (group 0)
            v11 = gl.convert_layout(dx_49, L1)  # convert1: stage 1, partition 0 (group 0)
            v12 = DX_54_p1  # store1: stage 1, partition 0 (group 0)
            v13 = v12 + cols  # store1: stage 1, partition 0 (group 0)
            gl.store(v13, v14, mask=mask_3)  # store1: stage 1, partition 0 (group 0)
            DX_54 = DX_54_p1 + stride_dx_row  # store1: stage 1, partition 0 (group 0)
            v9 = DRESIDUAL_IN_52_p1  # store0: stage 1, partition 0 (group 0)
            v10 = v9 + cols_1  # store0: stage 1, partition 0 (group 0)
            gl.store(v10, v11, mask=mask_4)  # store0: stage 1, partition 0 (group 0)
            DRESIDUAL_IN_52 = DRESIDUAL_IN_52_p1 + stride_dres_in_row  # store0: stage 1, partition 0 (group 0)
            DRESIDUAL_51_p1 = DRESIDUAL_51
            DRESIDUAL_IN_52_p1 = DRESIDUAL_IN_52
            DX_54_p1 = DX_54
            DY_53_p1 = DY_53
            X_50_p1 = X_50
            db_37_p1 = db_37
            dres_48_p1 = dres_48
            dw_36_p1 = dw_36
            dy_28_p1 = dy_28
            mean_30_p1 = mean_30
            rstd_31_p1 = rstd_31
            x_26_p1 = x_26
        dy_29 = dy_28_p1.to(gl.float32)  # convert0_dy: stage 1, partition 0 (group 0)
        db_37 = db_37_p1 + dy_29  # elementwise3_db: stage 1, partition 0 (group 0)
        wdy = w_16 * dy_29  # elementwise1_wdy: stage 1, partition 0 (group 0)
        xhat = mean_30_p1  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_32 = x_26_p1 - xhat  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_33 = rstd_31_p1  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_34 = xhat_32 * xhat_33  # elementwise0_xhat: stage 1, partition 0 (group 0)
        xhat_35 = gl.where(mask_3, xhat_34, 0.0)  # elementwise0_xhat: stage 1, partition 0 (group 0)
        dw = dy_29 * xhat_35  # elementwise2_dw: stage 1, partition 0 (group 0)
        dw_36 = dw_36_p1 + dw  # elementwise2_dw: stage 1, partition 0 (group 0)
        c1_38 = xhat_35 * wdy  # elementwise4_c1: stage 1, partition 0 (group 0)
        c1_39 = gl.sum(c1_38, axis=0)  # reduce0_c1: stage 1, partition 0 (group 0)
        c2 = gl.sum(wdy, axis=0)  # reduce1_c2: stage 1, partition 0 (group 0)
        c1_40 = c1_39 / c1  # elementwise5_c1: stage 1, partition 0 (group 0)
        c2_41 = c2 / c1  # elementwise6_c2: stage 1, partition 0 (group 0)
        dx = c1_40  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_42 = xhat_35 * dx  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_43 = c2_41  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_44 = dx_42 + dx_43  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_45 = wdy - dx_44  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_46 = dx_45 * xhat_33  # elementwise7_dx: stage 1, partition 0 (group 0)
        dx_49 = dx_46 + dres_48_p1  # elementwise7_dx: stage 1, partition 0 (group 0)
        v14 = dx_49.to(gl.float16)  # convert2: stage 1, partition 0 (group 0)
        v11 = gl.convert_layout(dx_49, L1)  # convert1: stage 1, partition 0 (group 0)
        v12 = DX_54_p1  # store1: stage 1, partition 0 (group 0)
        v13 = v12 + cols  # store1: stage 1, partition 0 (group 0)
        gl.store(v13, v14, mask=mask_3)  # store1: stage 1, partition 0 (group 0)
        DX_54 = DX_54_p1 + stride_dx_row  # store1: stage 1, partition 0 (group 0)
        v9 = DRESIDUAL_IN_52_p1  # store0: stage 1, partition 0 (group 0)
        v10 = v9 + cols_1  # store0: stage 1, partition 0 (group 0)
        gl.store(v10, v11, mask=mask_4)  # store0: stage 1, partition 0 (group 0)
        DRESIDUAL_IN_52 = DRESIDUAL_IN_52_p1 + stride_dres_in_row  # store0: stage 1, partition 0 (group 0)
        DRESIDUAL_51_p2 = DRESIDUAL_51_p1
        DRESIDUAL_51_p1 = DRESIDUAL_51
        DRESIDUAL_IN_52_p1 = DRESIDUAL_IN_52
        DX_54_p1 = DX_54
        DY_53_p2 = DY_53_p1
        DY_53_p1 = DY_53
        X_50_p2 = X_50_p1
        X_50_p1 = X_50
        db_37_p1 = db_37
        dres_48_p1 = dres_48
        dw_36_p1 = dw_36
        dy_28_p1 = dy_28
        mean_30_p1 = mean_30
        rstd_31_p1 = rstd_31
        x_26_p1 = x_26
    else:
        X_50_p2 = X_6
        DY_53_p2 = DY_12
        DX_54_p1 = DX_14
        DRESIDUAL_51_p2 = DRESIDUAL_8
        DRESIDUAL_IN_52_p1 = DRESIDUAL_IN_10
        dw_36_p1 = gl.full([4096], 0.0, gl.float32, layout=L0)
        db_37_p1 = gl.full([4096], 0.0, gl.float32, layout=L0)
    v0 = row_block_id * N
    v1 = DW + v0
    v3 = v1 + cols_1
    v4 = gl.convert_layout(dw_36_p1, L1)
    gl.store(v3, v4, mask=mask_4)
    v5 = DB + v0
    v7 = v5 + cols_1
    v8 = gl.convert_layout(db_37_p1, L1)
    gl.store(v7, v8, mask=mask_4)

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

_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _HEUR.get(name)
        if fn is None:
            try:
                import math
                import torch
                import triton
                import triton.language as tl
                fn = eval(src, {"torch": torch, "triton": triton, "tl": tl, "math": math})
            except Exception:     # noqa: BLE001 - names of the kernel's module: not checked
                fn = False
            _HEUR[name] = fn
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


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


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
