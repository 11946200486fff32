"""_layer_norm_fwd_1pass_kernel, written by twill from its joint schedule: I=210 L=320 (optimal), 680 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 336).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 80 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at vllm_layernorm_gated_looped.py:73 (TTGIR line 52) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=220, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(X, Y, W, B, Z, Mean, Rstd, stride_x_row, stride_y_row, stride_z_row, M, N, eps):
    twill_base = 0
    row = gl.program_id(0)
    group = gl.program_id(1)
    X_2 = row * stride_x_row
    X_3 = group * N
    X_4 = X_2 + X_3
    X_5 = X + X_4
    Y_6 = row * stride_y_row
    Y_7 = Y_6 + X_3
    Y_8 = Y + Y_7
    Z_9 = row * stride_z_row
    Z_10 = Z_9 + X_3
    Z_11 = Z + Z_10
    Mean_12 = group * M
    Mean_13 = Mean + Mean_12
    Rstd_14 = Rstd + Mean_12
    W_15 = W + X_3
    B_16 = B + X_3
    cols = gl.arange(0, 1024, layout=L0)
    twill_n = (N - 0 + 1024 - 1) // 1024
    sum_x = gl.full([1024], 0.0, gl.float32, layout=L0)
    sum_xx_48 = gl.full([1024], 0.0, gl.float32, layout=L0)
    cols_32 = (0 + (0 - 0) * 1024) + cols  # load0_x: stage 0, partition 0 (group 0)
    x_33 = cols_32 < N  # load0_x: stage 0, partition 0 (group 0)
    z_37 = Z_11 + cols_32  # load1_z: stage 0, partition 0 (group 0)
    z_38 = gl.load(z_37, mask=x_33)  # load1_z: stage 0, partition 0 (group 0)
    x_34 = X_5 + cols_32  # load0_x: stage 0, partition 0 (group 0)
    x_35 = gl.load(x_34, mask=x_33, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
    sum_x_p1 = sum_x
    sum_xx_48_p1 = sum_xx_48
    x_33_p1 = x_33
    x_35_p1 = x_35
    z_38_p1 = z_38
    for twill_b in range(1, twill_n):
        cols_31_l0 = (0 + (twill_b - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
        cols_32 = cols_31_l0 + cols  # load0_x: stage 0, partition 0 (group 0)
        x_33 = cols_32 < N  # load0_x: stage 0, partition 0 (group 0)
        z_37 = Z_11 + cols_32  # load1_z: stage 0, partition 0 (group 0)
        z_38 = gl.load(z_37, mask=x_33)  # load1_z: stage 0, partition 0 (group 0)
        z_39 = z_38_p1.to(gl.float32)  # convert1_z: stage 1, partition 0 (group 0)
        x_40_l0 = 0.0 - z_39  # sfu0_x: stage 1, partition 0 (group 0)
        x_41_l0 = gl.exp(x_40_l0)  # sfu0_x: stage 1, partition 0 (group 0)
        x_34 = X_5 + cols_32  # load0_x: stage 0, partition 0 (group 0)
        x_35 = gl.load(x_34, mask=x_33, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_36 = x_35_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
        x_42 = x_41_l0 + 1.0  # elementwise0_x: stage 1, partition 0 (group 0)
        x_43 = 1.0 / x_42  # elementwise0_x: stage 1, partition 0 (group 0)
        x_44 = z_39 * x_43  # elementwise0_x: stage 1, partition 0 (group 0)
        x_45_l0 = x_36 * x_44  # elementwise0_x: stage 1, partition 0 (group 0)
        sum_xx_46 = x_45_l0 * x_45_l0  # elementwise2_sum_xx: stage 1, partition 0 (group 0)
        sum_xx_47 = gl.where(x_33_p1, sum_xx_46, 0.0)  # elementwise2_sum_xx: stage 1, partition 0 (group 0)
        sum_xx_48 = sum_xx_48_p1 + sum_xx_47  # elementwise2_sum_xx: stage 1, partition 0 (group 0)
        sum_x = sum_x_p1 + x_45_l0  # elementwise1_sum_x: stage 1, partition 0 (group 0)
        sum_x_p1 = sum_x
        sum_xx_48_p1 = sum_xx_48
        x_33_p1 = x_33
        x_35_p1 = x_35
        z_38_p1 = z_38
    z_39 = z_38_p1.to(gl.float32)  # convert1_z: stage 1, partition 0 (group 0)
    x_40_l0 = 0.0 - z_39  # sfu0_x: stage 1, partition 0 (group 0)
    x_41_l0 = gl.exp(x_40_l0)  # sfu0_x: stage 1, partition 0 (group 0)
    x_36 = x_35_p1.to(gl.float32)  # convert0_x: stage 1, partition 0 (group 0)
    x_42 = x_41_l0 + 1.0  # elementwise0_x: stage 1, partition 0 (group 0)
    x_43 = 1.0 / x_42  # elementwise0_x: stage 1, partition 0 (group 0)
    x_44 = z_39 * x_43  # elementwise0_x: stage 1, partition 0 (group 0)
    x_45_l0 = x_36 * x_44  # elementwise0_x: stage 1, partition 0 (group 0)
    sum_xx_46 = x_45_l0 * x_45_l0  # elementwise2_sum_xx: stage 1, partition 0 (group 0)
    sum_xx_47 = gl.where(x_33_p1, sum_xx_46, 0.0)  # elementwise2_sum_xx: stage 1, partition 0 (group 0)
    sum_xx_48 = sum_xx_48_p1 + sum_xx_47  # elementwise2_sum_xx: stage 1, partition 0 (group 0)
    sum_x = sum_x_p1 + x_45_l0  # elementwise1_sum_x: stage 1, partition 0 (group 0)
    sum_x_p1 = sum_x
    sum_xx_48_p1 = sum_xx_48
    x_33_p1 = x_33
    x_35_p1 = x_35
    z_38_p1 = z_38
    twill_base += twill_n
    mean = gl.sum(sum_x_p1, axis=0)
    mean_18 = gl.cast(N, gl.float32)
    mean_19 = mean / mean_18
    v0 = Mean_13 + row
    gl.store(v0, mean_19)
    var = gl.sum(sum_xx_48_p1, axis=0)
    var_20 = var / mean_18
    var_21 = mean_19 * mean_19
    var_22 = var_20 - var_21
    rstd_23 = var_22 + eps
    rstd_24 = gl.sqrt(rstd_23)
    rstd_25 = 1.0 / rstd_24
    v1 = Rstd_14 + row
    gl.store(v1, rstd_25)
    cols_26 = gl.arange(0, 1024, layout=L0)
    twill_n = (N - 0 + 1024 - 1) // 1024
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        cols_31 = (0 + (0 - 0) * 1024) + cols_26  # load0_w: stage 0, partition 0 (group 0)
        mask_32 = cols_31 < N  # load0_w: stage 0, partition 0 (group 0)
        x_39 = X_5 + cols_31  # load2_x: stage 0, partition 0 (group 0)
        x_40 = gl.load(x_39, mask=mask_32, other=0.0)  # load2_x: stage 0, partition 0 (group 0)
        w_33 = W_15 + cols_31  # load0_w: stage 0, partition 0 (group 0)
        w_34 = gl.load(w_33, mask=mask_32)  # load0_w: stage 0, partition 0 (group 0)
        z_42 = Z_11 + cols_31  # load3_z: stage 0, partition 0 (group 0)
        z_43 = gl.load(z_42, mask=mask_32)  # load3_z: stage 0, partition 0 (group 0)
        b_36 = B_16 + cols_31  # load1_b: stage 0, partition 0 (group 0)
        b_37 = gl.load(b_36, mask=mask_32)  # load1_b: stage 0, partition 0 (group 0)
        b_37_p1 = b_37
        cols_31_p1 = cols_31
        mask_32_p1 = mask_32
        w_34_p1 = w_34
        x_40_p1 = x_40
        z_43_p1 = z_43
        cols_31 = (0 + (1 - 0) * 1024) + cols_26  # load0_w: stage 0, partition 0 (group 0)
        mask_32 = cols_31 < N  # load0_w: stage 0, partition 0 (group 0)
        x_39 = X_5 + cols_31  # load2_x: stage 0, partition 0 (group 0)
        x_40 = gl.load(x_39, mask=mask_32, other=0.0)  # load2_x: stage 0, partition 0 (group 0)
        x_41 = x_40_p1.to(gl.float32)  # convert2_x: stage 1, partition 0 (group 0)
        w_33 = W_15 + cols_31  # load0_w: stage 0, partition 0 (group 0)
        w_34 = gl.load(w_33, mask=mask_32)  # load0_w: stage 0, partition 0 (group 0)
        w_35 = w_34_p1.to(gl.float32)  # convert0_w: stage 1, partition 0 (group 0)
        z_42 = Z_11 + cols_31  # load3_z: stage 0, partition 0 (group 0)
        z_43 = gl.load(z_42, mask=mask_32)  # load3_z: stage 0, partition 0 (group 0)
        z_44 = z_43_p1.to(gl.float32)  # convert3_z: stage 1, partition 0 (group 0)
        x_45 = 0.0 - z_44  # sfu0_x: stage 1, partition 0 (group 0)
        x_46 = gl.exp(x_45)  # sfu0_x: stage 1, partition 0 (group 0)
        b_36 = B_16 + cols_31  # load1_b: stage 0, partition 0 (group 0)
        b_37 = gl.load(b_36, mask=mask_32)  # load1_b: stage 0, partition 0 (group 0)
        b_38 = b_37_p1.to(gl.float32)  # convert1_b: stage 1, partition 0 (group 0)
        x_47 = x_46 + 1.0  # elementwise0_x: stage 1, partition 0 (group 0)
        x_48 = 1.0 / x_47  # elementwise0_x: stage 1, partition 0 (group 0)
        x_49 = z_44 * x_48  # elementwise0_x: stage 1, partition 0 (group 0)
        x_50 = x_41 * x_49  # elementwise0_x: stage 1, partition 0 (group 0)
        x_hat_51 = x_50 - mean_19  # elementwise0_x: stage 1, partition 0 (group 0)
        x_hat_52 = x_hat_51 * rstd_25  # elementwise0_x: stage 1, partition 0 (group 0)
        y = x_hat_52 * w_35  # elementwise0_x: stage 1, partition 0 (group 0)
        y_53 = y + b_38  # elementwise0_x: stage 1, partition 0 (group 0)
        b_37_p1 = b_37
        cols_31_p2 = cols_31_p1
        cols_31_p1 = cols_31
        mask_32_p2 = mask_32_p1
        mask_32_p1 = mask_32
        w_34_p1 = w_34
        x_40_p1 = x_40
        y_53_p1 = y_53
        z_43_p1 = z_43
        for twill_b in range(2, twill_n):
            cols_30 = (0 + (twill_b - 0) * 1024)  # load0_w: stage 0, partition 0 (group 0)
            cols_31 = cols_30 + cols_26  # load0_w: stage 0, partition 0 (group 0)
            mask_32 = cols_31 < N  # load0_w: stage 0, partition 0 (group 0)
            x_39 = X_5 + cols_31  # load2_x: stage 0, partition 0 (group 0)
            x_40 = gl.load(x_39, mask=mask_32, other=0.0)  # load2_x: stage 0, partition 0 (group 0)
            x_41 = x_40_p1.to(gl.float32)  # convert2_x: stage 1, partition 0 (group 0)
            v4 = y_53_p1.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
            v3 = Y_8 + cols_31_p2  # store0: stage 2, partition 0 (group 0)
            gl.store(v3, v4, mask=mask_32_p2)  # store0: stage 2, partition 0 (group 0)
            w_33 = W_15 + cols_31  # load0_w: stage 0, partition 0 (group 0)
            w_34 = gl.load(w_33, mask=mask_32)  # load0_w: stage 0, partition 0 (group 0)
            w_35 = w_34_p1.to(gl.float32)  # convert0_w: stage 1, partition 0 (group 0)
            z_42 = Z_11 + cols_31  # load3_z: stage 0, partition 0 (group 0)
            z_43 = gl.load(z_42, mask=mask_32)  # load3_z: stage 0, partition 0 (group 0)
            z_44 = z_43_p1.to(gl.float32)  # convert3_z: stage 1, partition 0 (group 0)
            x_45 = 0.0 - z_44  # sfu0_x: stage 1, partition 0 (group 0)
            x_46 = gl.exp(x_45)  # sfu0_x: stage 1, partition 0 (group 0)
            b_36 = B_16 + cols_31  # load1_b: stage 0, partition 0 (group 0)
            b_37 = gl.load(b_36, mask=mask_32)  # load1_b: stage 0, partition 0 (group 0)
            b_38 = b_37_p1.to(gl.float32)  # convert1_b: stage 1, partition 0 (group 0)
            x_47 = x_46 + 1.0  # elementwise0_x: stage 1, partition 0 (group 0)
            x_48 = 1.0 / x_47  # elementwise0_x: stage 1, partition 0 (group 0)
            x_49 = z_44 * x_48  # elementwise0_x: stage 1, partition 0 (group 0)
            x_50 = x_41 * x_49  # elementwise0_x: stage 1, partition 0 (group 0)
            x_hat_51 = x_50 - mean_19  # elementwise0_x: stage 1, partition 0 (group 0)
            x_hat_52 = x_hat_51 * rstd_25  # elementwise0_x: stage 1, partition 0 (group 0)
            y = x_hat_52 * w_35  # elementwise0_x: stage 1, partition 0 (group 0)
            y_53 = y + b_38  # elementwise0_x: stage 1, partition 0 (group 0)
            b_37_p1 = b_37
            cols_31_p2 = cols_31_p1
            cols_31_p1 = cols_31
            mask_32_p2 = mask_32_p1
            mask_32_p1 = mask_32
            w_34_p1 = w_34
            x_40_p1 = x_40
            y_53_p1 = y_53
            z_43_p1 = z_43
        x_41 = x_40_p1.to(gl.float32)  # convert2_x: stage 1, partition 0 (group 0)
        v4 = y_53_p1.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
        v3 = Y_8 + cols_31_p2  # store0: stage 2, partition 0 (group 0)
        gl.store(v3, v4, mask=mask_32_p2)  # store0: stage 2, partition 0 (group 0)
        w_35 = w_34_p1.to(gl.float32)  # convert0_w: stage 1, partition 0 (group 0)
        z_44 = z_43_p1.to(gl.float32)  # convert3_z: stage 1, partition 0 (group 0)
        x_45 = 0.0 - z_44  # sfu0_x: stage 1, partition 0 (group 0)
        x_46 = gl.exp(x_45)  # sfu0_x: stage 1, partition 0 (group 0)
        b_38 = b_37_p1.to(gl.float32)  # convert1_b: stage 1, partition 0 (group 0)
        x_47 = x_46 + 1.0  # elementwise0_x: stage 1, partition 0 (group 0)
        x_48 = 1.0 / x_47  # elementwise0_x: stage 1, partition 0 (group 0)
        x_49 = z_44 * x_48  # elementwise0_x: stage 1, partition 0 (group 0)
        x_50 = x_41 * x_49  # elementwise0_x: stage 1, partition 0 (group 0)
        x_hat_51 = x_50 - mean_19  # elementwise0_x: stage 1, partition 0 (group 0)
        x_hat_52 = x_hat_51 * rstd_25  # elementwise0_x: stage 1, partition 0 (group 0)
        y = x_hat_52 * w_35  # elementwise0_x: stage 1, partition 0 (group 0)
        y_53 = y + b_38  # elementwise0_x: stage 1, partition 0 (group 0)
        b_37_p1 = b_37
        cols_31_p2 = cols_31_p1
        cols_31_p1 = cols_31
        mask_32_p2 = mask_32_p1
        mask_32_p1 = mask_32
        w_34_p1 = w_34
        x_40_p1 = x_40
        y_53_p1 = y_53
        z_43_p1 = z_43
        v4 = y_53_p1.to(gl.float16)  # convert4: stage 2, partition 0 (group 0)
        v3 = Y_8 + cols_31_p2  # store0: stage 2, partition 0 (group 0)
        gl.store(v3, v4, mask=mask_32_p2)  # store0: stage 2, partition 0 (group 0)
        b_37_p1 = b_37
        cols_31_p2 = cols_31_p1
        cols_31_p1 = cols_31
        mask_32_p2 = mask_32_p1
        mask_32_p1 = mask_32
        w_34_p1 = w_34
        x_40_p1 = x_40
        y_53_p1 = y_53
        z_43_p1 = z_43
    else:
        for off_w in range(0, N, 1024):
            cols_31_w = off_w + cols_26
            mask_32_w = cols_31_w < N
            w_33_w = W_15 + cols_31_w
            w_34_w = gl.load(w_33_w, mask=mask_32_w)
            w_35_w = w_34_w.to(gl.float32)
            b_36_w = B_16 + cols_31_w
            b_37_w = gl.load(b_36_w, mask=mask_32_w)
            b_38_w = b_37_w.to(gl.float32)
            x_39_w = X_5 + cols_31_w
            x_40_w = gl.load(x_39_w, mask=mask_32_w, other=0.0)
            x_41_w = x_40_w.to(gl.float32)
            z_42_w = Z_11 + cols_31_w
            z_43_w = gl.load(z_42_w, mask=mask_32_w)
            z_44_w = z_43_w.to(gl.float32)
            x_45_w = 0.0 - z_44_w
            x_46_w = gl.exp(x_45_w)
            x_47_w = x_46_w + 1.0
            x_48_w = 1.0 / x_47_w
            x_49_w = z_44_w * x_48_w
            x_50_w = x_41_w * x_49_w
            x_hat_51_w = x_50_w - mean_19
            x_hat_52_w = x_hat_51_w * rstd_25
            y_w = x_hat_52_w * w_35_w
            y_53_w = y_w + b_38_w
            v3_w = Y_8 + cols_31_w
            v4_w = y_53_w.to(gl.float16)
            gl.store(v3_w, v4_w, mask=mask_32_w)

@gluon.jit
def twill_kernel(X, Y, W, B, Z, Mean, Rstd, stride_x_row, stride_y_row, stride_z_row, M, N, eps):
    consumer_0(X, Y, W, B, Z, Mean, Rstd, stride_x_row, stride_y_row, stride_z_row, M, N, eps, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'Y', 'W', 'B', 'Z', 'Mean', 'Rstd', 'stride_x_row', 'stride_y_row', 'stride_z_row', 'M', 'N', 'eps', 'BLOCK_N', 'HAS_BIAS', 'HAS_Z', 'NORM_BEFORE_GATE', 'IS_RMS_NORM']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'Y', 'W', 'B', 'Z', 'Mean', 'Rstd', 'stride_x_row', 'stride_y_row', 'stride_z_row', 'M', 'N', 'eps']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['X', 'Y', 'W', 'B', 'Z', 'Mean', 'Rstd', 'stride_x_row', 'stride_y_row', 'stride_z_row', 'M', 'N', 'eps']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_N': 1024, 'HAS_BIAS': True, 'HAS_Z': True, 'NORM_BEFORE_GATE': False, 'IS_RMS_NORM': False}         # the specialisation this kernel was generated for
HEURISTICS = {'HAS_BIAS': "lambda args: args['B'] is not None", 'HAS_Z': "lambda args: args['Z'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
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
    trips = _ev('(N + 1024 - 1) // 1024', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((N + 1024 - 1) // 1024): run the Triton kernel for it")
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
