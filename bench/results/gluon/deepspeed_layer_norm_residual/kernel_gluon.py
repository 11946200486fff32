"""layer_norm_residual_kernel, written by twill from its joint schedule: I=545 L=545 (optimal), 2052 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 136 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at deepspeed_layer_norm_residual.py:49 (TTGIR line 37) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=506, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at deepspeed_layer_norm_residual.py:59 (TTGIR line 65) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=220, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- timed at launch: the same loop in one stage, `twill_kernel_short` (I=545 optimal among one-stage schedules, ptxas 94 registers, 2 CTA(s) an SM against this kernel's 1 at 153), beside this pipelined kernel; each launch key's first launch times both, 2 rounds of 5 launches each, its tensors restored after, and runs the faster from then on (runs 139-142 and 219: one stage x0.44-1.20 of the pipelined kernel's speed over eighteen loops; nothing in the schedule tells them apart)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0(Out, A, Residual, ln_input, Weight, Bias, stride, N, eps):
    twill_base = 0
    row = gl.program_id(0)
    Out_1 = row * stride
    Out_2 = Out + Out_1
    A_3 = A + Out_1
    Residual_4 = Residual + Out_1
    ln_input_5 = ln_input + Out_1
    cols = gl.arange(0, 8192, layout=L0)
    twill_n = (N - 0 + 8192 - 1) // 8192
    _mean_31 = gl.full([8192], 0.0, gl.float32, layout=L0)
    cols_22_l0 = (0 + (0 - 0) * 8192) + cols  # load0_a: stage 0, partition 0 (group 0)
    a_23_l0 = cols_22_l0 < N  # load0_a: stage 0, partition 0 (group 0)
    res_27 = Residual_4 + cols_22_l0  # load1_res: stage 0, partition 0 (group 0)
    res_28 = gl.load(res_27, mask=a_23_l0, other=0.0)  # load1_res: stage 0, partition 0 (group 0)
    a_24_l0 = A_3 + cols_22_l0  # load0_a: stage 0, partition 0 (group 0)
    a_25_l0 = gl.load(a_24_l0, mask=a_23_l0, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
    _mean_31_p1 = _mean_31
    a_23_l0_p1 = a_23_l0
    a_25_l0_p1 = a_25_l0
    cols_22_l0_p1 = cols_22_l0
    res_28_p1 = res_28
    for twill_b in range(1, twill_n):
        cols_21_l0 = (0 + (twill_b - 0) * 8192)  # load0_a: stage 0, partition 0 (group 0)
        cols_22_l0 = cols_21_l0 + cols  # load0_a: stage 0, partition 0 (group 0)
        a_23_l0 = cols_22_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        res_27 = Residual_4 + cols_22_l0  # load1_res: stage 0, partition 0 (group 0)
        res_28 = gl.load(res_27, mask=a_23_l0, other=0.0)  # load1_res: stage 0, partition 0 (group 0)
        res_29 = res_28_p1.to(gl.float32)  # convert1_res: stage 1, partition 0 (group 0)
        a_24_l0 = A_3 + cols_22_l0  # load0_a: stage 0, partition 0 (group 0)
        a_25_l0 = gl.load(a_24_l0, mask=a_23_l0, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_26_l0 = a_25_l0_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
        a_30 = a_26_l0 + res_29  # elementwise0_a: stage 1, partition 0 (group 0)
        v3_l0 = a_30.to(gl.float16)  # convert2: stage 1, partition 0 (group 0)
        _mean_31 = _mean_31_p1 + a_30  # elementwise1__mean: stage 1, partition 0 (group 0)
        v2_l0 = ln_input_5 + cols_22_l0_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v2_l0, v3_l0, mask=a_23_l0_p1)  # store0: stage 1, partition 0 (group 0)
        _mean_31_p1 = _mean_31
        a_23_l0_p1 = a_23_l0
        a_25_l0_p1 = a_25_l0
        cols_22_l0_p1 = cols_22_l0
        res_28_p1 = res_28
    res_29 = res_28_p1.to(gl.float32)  # convert1_res: stage 1, partition 0 (group 0)
    a_26_l0 = a_25_l0_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
    a_30 = a_26_l0 + res_29  # elementwise0_a: stage 1, partition 0 (group 0)
    v3_l0 = a_30.to(gl.float16)  # convert2: stage 1, partition 0 (group 0)
    _mean_31 = _mean_31_p1 + a_30  # elementwise1__mean: stage 1, partition 0 (group 0)
    v2_l0 = ln_input_5 + cols_22_l0_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v2_l0, v3_l0, mask=a_23_l0_p1)  # store0: stage 1, partition 0 (group 0)
    _mean_31_p1 = _mean_31
    a_23_l0_p1 = a_23_l0
    a_25_l0_p1 = a_25_l0
    cols_22_l0_p1 = cols_22_l0
    res_28_p1 = res_28
    twill_base += twill_n
    mean = gl.sum(_mean_31_p1, axis=0)
    mean_7 = gl.cast(N, gl.float32)
    mean_8 = mean / mean_7
    cols_9 = gl.arange(0, 8192, layout=L0)
    twill_n = (N - 0 + 8192 - 1) // 8192
    _var_30 = gl.full([8192], 0.0, gl.float32, layout=L0)
    cols_22_l1 = (0 + (0 - 0) * 8192) + cols_9  # load0_a: stage 0, partition 0 (group 0)
    a_23_l1 = cols_22_l1 < N  # load0_a: stage 0, partition 0 (group 0)
    a_24_l1 = ln_input_5 + cols_22_l1  # load0_a: stage 0, partition 0 (group 0)
    a_25_l1 = gl.load(a_24_l1, mask=a_23_l1, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
    _var_30_p1 = _var_30
    a_23_l1_p1 = a_23_l1
    a_25_l1_p1 = a_25_l1
    for twill_b in range(1, twill_n):
        cols_21_l1 = (0 + (twill_b - 0) * 8192)  # load0_a: stage 0, partition 0 (group 0)
        cols_22_l1 = cols_21_l1 + cols_9  # load0_a: stage 0, partition 0 (group 0)
        a_23_l1 = cols_22_l1 < N  # load0_a: stage 0, partition 0 (group 0)
        a_24_l1 = ln_input_5 + cols_22_l1  # load0_a: stage 0, partition 0 (group 0)
        a_25_l1 = gl.load(a_24_l1, mask=a_23_l1, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_26_l1 = a_25_l1_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
        a_27_l1 = a_26_l1 - mean_8  # elementwise0_a: stage 1, partition 0 (group 0)
        a_28_l1 = gl.where(a_23_l1_p1, a_27_l1, 0.0)  # elementwise0_a: stage 1, partition 0 (group 0)
        _var_29 = a_28_l1 * a_28_l1  # elementwise0_a: stage 1, partition 0 (group 0)
        _var_30 = _var_30_p1 + _var_29  # elementwise0_a: stage 1, partition 0 (group 0)
        _var_30_p1 = _var_30
        a_23_l1_p1 = a_23_l1
        a_25_l1_p1 = a_25_l1
    a_26_l1 = a_25_l1_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
    a_27_l1 = a_26_l1 - mean_8  # elementwise0_a: stage 1, partition 0 (group 0)
    a_28_l1 = gl.where(a_23_l1_p1, a_27_l1, 0.0)  # elementwise0_a: stage 1, partition 0 (group 0)
    _var_29 = a_28_l1 * a_28_l1  # elementwise0_a: stage 1, partition 0 (group 0)
    _var_30 = _var_30_p1 + _var_29  # elementwise0_a: stage 1, partition 0 (group 0)
    _var_30_p1 = _var_30
    a_23_l1_p1 = a_23_l1
    a_25_l1_p1 = a_25_l1
    twill_base += twill_n
    var = gl.sum(_var_30_p1, axis=0)
    var_13 = var / mean_7
    rstd_14 = var_13 + eps
    rstd_15 = gl.sqrt(rstd_14)
    rstd_16 = 1.0 / rstd_15
    cols_17 = gl.arange(0, 8192, layout=L0)
    twill_n = (N - 0 + 8192 - 1) // 8192
    cols_21 = (0 + (0 - 0) * 8192) + cols_17  # load0_weight: stage 0, partition 0 (group 0)
    mask_22 = cols_21 < N  # load0_weight: stage 0, partition 0 (group 0)
    weight_23 = Weight + cols_21  # load0_weight: stage 0, partition 0 (group 0)
    weight_24 = gl.load(weight_23, mask=mask_22)  # load0_weight: stage 0, partition 0 (group 0)
    a_27 = ln_input_5 + cols_21  # load2_a: stage 0, partition 0 (group 0)
    a_28 = gl.load(a_27, mask=mask_22, other=0.0)  # load2_a: stage 0, partition 0 (group 0)
    bias_25 = Bias + cols_21  # load1_bias: stage 0, partition 0 (group 0)
    bias_26 = gl.load(bias_25, mask=mask_22)  # load1_bias: stage 0, partition 0 (group 0)
    a_28_p1 = a_28
    bias_26_p1 = bias_26
    cols_21_p1 = cols_21
    mask_22_p1 = mask_22
    weight_24_p1 = weight_24
    for twill_b in range(1, twill_n):
        cols_20 = (0 + (twill_b - 0) * 8192)  # load0_weight: stage 0, partition 0 (group 0)
        cols_21 = cols_20 + cols_17  # load0_weight: stage 0, partition 0 (group 0)
        mask_22 = cols_21 < N  # load0_weight: stage 0, partition 0 (group 0)
        weight_23 = Weight + cols_21  # load0_weight: stage 0, partition 0 (group 0)
        weight_24 = gl.load(weight_23, mask=mask_22)  # load0_weight: stage 0, partition 0 (group 0)
        out = weight_24_p1.to(gl.float32)  # convert1_out: stage 1, partition 0 (group 0)
        a_27 = ln_input_5 + cols_21  # load2_a: stage 0, partition 0 (group 0)
        a_28 = gl.load(a_27, mask=mask_22, other=0.0)  # load2_a: stage 0, partition 0 (group 0)
        a_29 = a_28_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
        bias_25 = Bias + cols_21  # load1_bias: stage 0, partition 0 (group 0)
        bias_26 = gl.load(bias_25, mask=mask_22)  # load1_bias: stage 0, partition 0 (group 0)
        out_33 = bias_26_p1.to(gl.float32)  # convert2_out: stage 1, partition 0 (group 0)
        a_hat_30 = a_29 - mean_8  # elementwise0_a_hat: stage 1, partition 0 (group 0)
        a_hat_31 = a_hat_30 * rstd_16  # elementwise0_a_hat: stage 1, partition 0 (group 0)
        out_32 = a_hat_31 * out  # elementwise0_a_hat: stage 1, partition 0 (group 0)
        out_34 = out_32 + out_33  # elementwise0_a_hat: stage 1, partition 0 (group 0)
        v3 = out_34.to(gl.float16)  # convert3: stage 1, partition 0 (group 0)
        v2 = Out_2 + cols_21_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v2, v3, mask=mask_22_p1)  # store0: stage 1, partition 0 (group 0)
        a_28_p1 = a_28
        bias_26_p1 = bias_26
        cols_21_p1 = cols_21
        mask_22_p1 = mask_22
        weight_24_p1 = weight_24
    out = weight_24_p1.to(gl.float32)  # convert1_out: stage 1, partition 0 (group 0)
    a_29 = a_28_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
    out_33 = bias_26_p1.to(gl.float32)  # convert2_out: stage 1, partition 0 (group 0)
    a_hat_30 = a_29 - mean_8  # elementwise0_a_hat: stage 1, partition 0 (group 0)
    a_hat_31 = a_hat_30 * rstd_16  # elementwise0_a_hat: stage 1, partition 0 (group 0)
    out_32 = a_hat_31 * out  # elementwise0_a_hat: stage 1, partition 0 (group 0)
    out_34 = out_32 + out_33  # elementwise0_a_hat: stage 1, partition 0 (group 0)
    v3 = out_34.to(gl.float16)  # convert3: stage 1, partition 0 (group 0)
    v2 = Out_2 + cols_21_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v2, v3, mask=mask_22_p1)  # store0: stage 1, partition 0 (group 0)
    a_28_p1 = a_28
    bias_26_p1 = bias_26
    cols_21_p1 = cols_21
    mask_22_p1 = mask_22
    weight_24_p1 = weight_24

@gluon.jit
def twill_kernel(Out, A, Residual, ln_input, Weight, Bias, stride, N, eps):
    consumer_0(Out, A, Residual, ln_input, Weight, Bias, stride, N, eps, )



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0_short(Out, A, Residual, ln_input, Weight, Bias, stride, N, eps):
    twill_base = 0
    row = gl.program_id(0)
    Out_1 = row * stride
    Out_2 = Out + Out_1
    A_3 = A + Out_1
    Residual_4 = Residual + Out_1
    ln_input_5 = ln_input + Out_1
    cols = gl.arange(0, 8192, layout=L0_short)
    twill_n = (N - 0 + 8192 - 1) // 8192
    _mean_31 = gl.full([8192], 0.0, gl.float32, layout=L0_short)
    cols_22_l0 = (0 + (0 - 0) * 8192) + cols  # load0_a: stage 0, partition 0 (group 0)
    a_23_l0 = cols_22_l0 < N  # load0_a: stage 0, partition 0 (group 0)
    res_27 = Residual_4 + cols_22_l0  # load1_res: stage 0, partition 0 (group 0)
    res_28 = gl.load(res_27, mask=a_23_l0, other=0.0)  # load1_res: stage 0, partition 0 (group 0)
    a_24_l0 = A_3 + cols_22_l0  # load0_a: stage 0, partition 0 (group 0)
    a_25_l0 = gl.load(a_24_l0, mask=a_23_l0, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
    _mean_31_p1 = _mean_31
    a_23_l0_p1 = a_23_l0
    a_25_l0_p1 = a_25_l0
    cols_22_l0_p1 = cols_22_l0
    res_28_p1 = res_28
    for twill_b in range(1, twill_n):
        cols_21_l0 = (0 + (twill_b - 0) * 8192)  # load0_a: stage 0, partition 0 (group 0)
        cols_22_l0 = cols_21_l0 + cols  # load0_a: stage 0, partition 0 (group 0)
        a_23_l0 = cols_22_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        res_27 = Residual_4 + cols_22_l0  # load1_res: stage 0, partition 0 (group 0)
        res_28 = gl.load(res_27, mask=a_23_l0, other=0.0)  # load1_res: stage 0, partition 0 (group 0)
        res_29 = res_28_p1.to(gl.float32)  # convert1_res: stage 1, partition 0 (group 0)
        a_24_l0 = A_3 + cols_22_l0  # load0_a: stage 0, partition 0 (group 0)
        a_25_l0 = gl.load(a_24_l0, mask=a_23_l0, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_26_l0 = a_25_l0_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
        a_30 = a_26_l0 + res_29  # elementwise0_a: stage 1, partition 0 (group 0)
        v3_l0 = a_30.to(gl.float16)  # convert2: stage 1, partition 0 (group 0)
        _mean_31 = _mean_31_p1 + a_30  # elementwise1__mean: stage 1, partition 0 (group 0)
        v2_l0 = ln_input_5 + cols_22_l0_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v2_l0, v3_l0, mask=a_23_l0_p1)  # store0: stage 1, partition 0 (group 0)
        _mean_31_p1 = _mean_31
        a_23_l0_p1 = a_23_l0
        a_25_l0_p1 = a_25_l0
        cols_22_l0_p1 = cols_22_l0
        res_28_p1 = res_28
    res_29 = res_28_p1.to(gl.float32)  # convert1_res: stage 1, partition 0 (group 0)
    a_26_l0 = a_25_l0_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
    a_30 = a_26_l0 + res_29  # elementwise0_a: stage 1, partition 0 (group 0)
    v3_l0 = a_30.to(gl.float16)  # convert2: stage 1, partition 0 (group 0)
    _mean_31 = _mean_31_p1 + a_30  # elementwise1__mean: stage 1, partition 0 (group 0)
    v2_l0 = ln_input_5 + cols_22_l0_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v2_l0, v3_l0, mask=a_23_l0_p1)  # store0: stage 1, partition 0 (group 0)
    _mean_31_p1 = _mean_31
    a_23_l0_p1 = a_23_l0
    a_25_l0_p1 = a_25_l0
    cols_22_l0_p1 = cols_22_l0
    res_28_p1 = res_28
    twill_base += twill_n
    mean = gl.sum(_mean_31_p1, axis=0)
    mean_7 = gl.cast(N, gl.float32)
    mean_8 = mean / mean_7
    cols_9 = gl.arange(0, 8192, layout=L0_short)
    twill_n = (N - 0 + 8192 - 1) // 8192
    _var_30 = gl.full([8192], 0.0, gl.float32, layout=L0_short)
    cols_22_l1 = (0 + (0 - 0) * 8192) + cols_9  # load0_a: stage 0, partition 0 (group 0)
    a_23_l1 = cols_22_l1 < N  # load0_a: stage 0, partition 0 (group 0)
    a_24_l1 = ln_input_5 + cols_22_l1  # load0_a: stage 0, partition 0 (group 0)
    a_25_l1 = gl.load(a_24_l1, mask=a_23_l1, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
    _var_30_p1 = _var_30
    a_23_l1_p1 = a_23_l1
    a_25_l1_p1 = a_25_l1
    for twill_b in range(1, twill_n):
        cols_21_l1 = (0 + (twill_b - 0) * 8192)  # load0_a: stage 0, partition 0 (group 0)
        cols_22_l1 = cols_21_l1 + cols_9  # load0_a: stage 0, partition 0 (group 0)
        a_23_l1 = cols_22_l1 < N  # load0_a: stage 0, partition 0 (group 0)
        a_24_l1 = ln_input_5 + cols_22_l1  # load0_a: stage 0, partition 0 (group 0)
        a_25_l1 = gl.load(a_24_l1, mask=a_23_l1, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_26_l1 = a_25_l1_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
        a_27_l1 = a_26_l1 - mean_8  # elementwise0_a: stage 1, partition 0 (group 0)
        a_28_l1 = gl.where(a_23_l1_p1, a_27_l1, 0.0)  # elementwise0_a: stage 1, partition 0 (group 0)
        _var_29 = a_28_l1 * a_28_l1  # elementwise0_a: stage 1, partition 0 (group 0)
        _var_30 = _var_30_p1 + _var_29  # elementwise0_a: stage 1, partition 0 (group 0)
        _var_30_p1 = _var_30
        a_23_l1_p1 = a_23_l1
        a_25_l1_p1 = a_25_l1
    a_26_l1 = a_25_l1_p1.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
    a_27_l1 = a_26_l1 - mean_8  # elementwise0_a: stage 1, partition 0 (group 0)
    a_28_l1 = gl.where(a_23_l1_p1, a_27_l1, 0.0)  # elementwise0_a: stage 1, partition 0 (group 0)
    _var_29 = a_28_l1 * a_28_l1  # elementwise0_a: stage 1, partition 0 (group 0)
    _var_30 = _var_30_p1 + _var_29  # elementwise0_a: stage 1, partition 0 (group 0)
    _var_30_p1 = _var_30
    a_23_l1_p1 = a_23_l1
    a_25_l1_p1 = a_25_l1
    twill_base += twill_n
    var = gl.sum(_var_30_p1, axis=0)
    var_13 = var / mean_7
    rstd_14 = var_13 + eps
    rstd_15 = gl.sqrt(rstd_14)
    rstd_16 = 1.0 / rstd_15
    cols_17 = gl.arange(0, 8192, layout=L0_short)
    twill_n = (N - 0 + 8192 - 1) // 8192
    for twill_b in range(0, twill_n):
        cols_20 = (0 + (twill_b - 0) * 8192)  # load0_weight: stage 0, partition 0 (group 0)
        cols_21 = cols_20 + cols_17  # load0_weight: stage 0, partition 0 (group 0)
        mask_22 = cols_21 < N  # load0_weight: stage 0, partition 0 (group 0)
        weight_23 = Weight + cols_21  # load0_weight: stage 0, partition 0 (group 0)
        weight_24 = gl.load(weight_23, mask=mask_22)  # load0_weight: stage 0, partition 0 (group 0)
        out = weight_24.to(gl.float32)  # convert1_out: stage 0, partition 0 (group 0)
        a_27 = ln_input_5 + cols_21  # load2_a: stage 0, partition 0 (group 0)
        a_28 = gl.load(a_27, mask=mask_22, other=0.0)  # load2_a: stage 0, partition 0 (group 0)
        a_29 = a_28.to(gl.float32)  # convert0_a: stage 0, partition 0 (group 0)
        bias_25 = Bias + cols_21  # load1_bias: stage 0, partition 0 (group 0)
        bias_26 = gl.load(bias_25, mask=mask_22)  # load1_bias: stage 0, partition 0 (group 0)
        out_33 = bias_26.to(gl.float32)  # convert2_out: stage 0, partition 0 (group 0)
        a_hat_30 = a_29 - mean_8  # elementwise0_a_hat: stage 0, partition 0 (group 0)
        a_hat_31 = a_hat_30 * rstd_16  # elementwise0_a_hat: stage 0, partition 0 (group 0)
        out_32 = a_hat_31 * out  # elementwise0_a_hat: stage 0, partition 0 (group 0)
        out_34 = out_32 + out_33  # elementwise0_a_hat: stage 0, partition 0 (group 0)
        v3 = out_34.to(gl.float16)  # convert3: stage 0, partition 0 (group 0)
        v2 = Out_2 + cols_21  # store0: stage 0, partition 0 (group 0)
        gl.store(v2, v3, mask=mask_22)  # store0: stage 0, partition 0 (group 0)

@gluon.jit
def twill_kernel_short(Out, A, Residual, ln_input, Weight, Bias, stride, N, eps):
    consumer_0_short(Out, A, Residual, ln_input, Weight, Bias, stride, N, eps, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Out', 'A', 'Residual', 'ln_input', 'Weight', 'Bias', 'stride', 'N', 'eps', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['Out', 'A', 'Residual', 'ln_input', 'Weight', 'Bias', 'stride', 'N', 'eps']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Out', 'A', 'Residual', 'ln_input', 'Weight', 'Bias', 'stride', 'N', 'eps']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_SIZE': 8192}         # the specialisation this kernel was generated for
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
    trips = _ev('(N + 8192 - 1) // 8192', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((N + 8192 - 1) // 8192): run the Triton kernel for it")
    shapes = None
    flags = {}
    return [tuple(flags[f] for f in FLAGS), shapes, None]


def launch_long(grid, *args, **kwargs):
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

# -- the one-partition kernel for short loops (host side) ---------------------------------------------
ARGUMENTS_short = ['Out', 'A', 'Residual', 'ln_input', 'Weight', 'Bias', 'stride', 'N', 'eps', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME_short = ['Out', 'A', 'Residual', 'ln_input', 'Weight', 'Bias', 'stride', 'N', 'eps']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['Out', 'A', 'Residual', 'ln_input', 'Weight', 'Bias', 'stride', 'N', 'eps']   # the arguments a launch key reads
CONSTEXPRS_short = {'BLOCK_SIZE': 8192}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 8
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
LAUNCH_OPTIONS_short = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")
FAST_LAUNCH_short = True   # a launch with an earlier one's key calls the kernel compiled for it; False: the JIT each time


_LAYOUTS_short = {}                  # argument -> its layout object, made on first use
_CODE_short = {}                     # expression -> its compiled code
_DESCS_short = {}                    # (argument, address, dtype, shape, strides) -> its descriptor
_KEYED_short = {}                    # launch key -> [flags' values, boxes (None: none), compiled kernel (None: not yet)]
_MODES_short = []                    # Triton's compilation and runtime knobs (instrumentation, debug)
_DEVICE_short = []                   # the active driver's current device, read per launch


def _ev_short(e, bound):
    code = _CODE_short.get(e)
    if code is None:
        code = _CODE_short[e] = compile(e, "launch", "eval")
    return eval(code, {}, bound)


class _Base_short:
    """A descriptor's base as the launch reads it (address, dtype): the descriptor holds no tensor alive."""

    __slots__ = ("ptr", "dtype")

    def __init__(self, t):
        self.ptr, self.dtype = t.data_ptr(), t.dtype

    def data_ptr(self):
        return self.ptr


def _desc_short(name, t, shape, strides, block):
    """The Gluon tensor descriptor of argument ``name`` over ``t`` (kept: at most 256)."""
    key = (name, t.data_ptr(), t.dtype, tuple(shape), tuple(strides))
    d = _DESCS_short.get(key)
    if d is None:
        from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

        layout = _LAYOUTS_short.get(name)
        if layout is None:
            from triton.experimental.gluon import language as gl
            layout = _LAYOUTS_short[name] = eval("gl." + DESCRIPTOR_LAYOUTS_short[name])
        if len(_DESCS_short) >= 256:
            _DESCS_short.clear()
        d = _DESCS_short[key] = TensorDescriptor(_Base_short(t), list(shape), list(strides), list(block), layout)
    return d


def _descriptor_short(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    base = getattr(value, "base", value)
    shape = getattr(value, "shape", base.shape)
    strides = getattr(value, "strides", None) or base.stride()
    return _desc_short(name, base, shape, strides, DESCRIPTOR_BLOCKS_short[name])


def _key_short(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES_short:
        from triton import knobs
        _MODES_short.extend((knobs.compilation, knobs.runtime))
    key = [g, _MODES_short[0].instrumentation_mode, _MODES_short[1].debug, _device_short()]
    for n in KEYED_short:
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


def _device_short():
    if not _DEVICE_short:
        from triton.runtime import driver
        _DEVICE_short.append(driver.active.get_current_device)
    return _DEVICE_short[0]()


def _decide_short(bound):
    """A launch key's decisions: the flags' values, the pointer tiles' boxes (None: none)."""
    trips = _ev_short('(N + 8192 - 1) // 8192', dict(bound, **CONSTEXPRS_short))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((N + 8192 - 1) // 8192): run the Triton kernel for it")
    shapes = None
    flags = {}
    return [tuple(flags[f] for f in FLAGS_short), shapes, None]


def launch_short(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS_short, args))
    if kwargs:
        bound.update({k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS_short})
    for k, v in CONSTEXPRS_short.items():
        if k in bound and bound[k] != v:
            raise ValueError(f"twill: this Gluon kernel was generated for {k}={v!r}, launched with {bound[k]!r}")
    g = grid(dict(bound, **CONSTEXPRS_short)) if callable(grid) else grid
    g = tuple(int(x) for x in g)
    if PERSISTENT_short:
        g = g + (1,) * (3 - len(g))
        bound.update(twill_g0=g[0], twill_g1=g[1], twill_g2=g[2])
        g = (max(1, min(g[0] * g[1] * g[2], _sm_count_short())),)
    key = _key_short(bound, g)
    entry = _KEYED_short.get(key) if key is not None else None
    if entry is None:
        entry = _decide_short(bound)
        if key is not None:
            if len(_KEYED_short) >= 64:
                _KEYED_short.clear()
            _KEYED_short[key] = entry
    missing = [n for n in RUNTIME_short if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor_short(bound[n], n) if n in DESCRIPTOR_BLOCKS_short else bound[n] for n in RUNTIME_short]
    return _run_short(entry, g, runtime)


def _run_short(entry, g, runtime):
    """The kernel compiled for this launch's key where a launch with it ran before, else through the JIT."""
    compiled = entry[2]
    if compiled is not None and FAST_LAUNCH_short:
        compiled[g + (1,) * (3 - len(g))](*runtime, *entry[0])
        return compiled
    compiled = twill_kernel_short[g](*runtime, **dict(zip(FLAGS_short, entry[0])), num_warps=NUM_WARPS_short, maxnreg=MAXNREG_short)
    if hasattr(compiled, "function") and hasattr(compiled, "__getitem__"):
        entry[2] = compiled
    return compiled


_SMS_short = []


def _sm_count_short():
    """The multiprocessors of the current device (a persistent kernel launches one program on each)."""
    if not _SMS_short:
        import torch
        _SMS_short.append(torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count)
    return _SMS_short[0]


class _Config_short:
    """``kernel.best_config`` as an autotuner has it after a run (Mamba reads its ``kwargs["BLOCK_SIZE_M"]`` to size
    its grid): the constexprs this kernel was generated for."""

    def __init__(self):
        self.kwargs, self.num_warps, self.num_stages, self.num_ctas = dict(CONSTEXPRS_short), NUM_WARPS_short, None, 1
        self.maxnreg, self.pre_hook = MAXNREG_short, None

    def all_kwargs(self):
        return dict(self.kwargs, num_warps=self.num_warps, num_ctas=self.num_ctas)


class _Kernel_short:
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
            return launch_short(grid, *args, **kwargs)
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
        return _Config_short()


kernel_short = _Kernel_short()


TIMED_ROUNDS = 2      # a launch key's first launch times each kernel in this many rounds, alternating,
TIMED_RUNS = 5        # of this many launches each
_TIMED = {}           # launch key -> the faster of ``launch_long`` and ``launch_short`` there


def launch(grid, *args, **kwargs):
    """Run the faster of the pipelined kernel and the one-stage one for this launch's key, timed on the
    key's first launch (the pipelined one where no timing can run: no CUDA device, a graph being captured)."""
    key = _timed_key(grid, args, kwargs)
    chosen = _TIMED.get(key) if key is not None else None
    if chosen is None:
        chosen = _timed(grid, args, kwargs)
        if key is not None and chosen is not None:
            if len(_TIMED) >= 64:
                _TIMED.clear()
            _TIMED[key] = chosen
    return (chosen or launch_long)(grid, *args, **kwargs)


def _timed_key(grid, args, kwargs):
    """The grid and every argument's shape, strides, type and alignment, or value (integers): what the two kernels'
    speeds depend on (the constexprs are the module's: none other launches); None where a part cannot be hashed.
    Read in the arguments' order, integers by their type alone: a launch pays it on the host (run 158)."""
    try:
        if callable(grid):
            bound = dict(zip(ARGUMENTS, args), **CONSTEXPRS)
            bound.update(kwargs)
            grid = grid(bound)
        g = tuple(int(x) for x in grid)
    except Exception:                       # noqa: BLE001 - the launch itself says what is wrong with its grid
        return None
    names = sorted(kwargs)
    key = [g, *names]
    for v in (*args, *(kwargs[n] for n in names)):
        t = type(v)
        if t is int or t is bool or v is None:
            key.append(v)
        elif hasattr(v, "data_ptr"):
            key.append((v.shape, v.stride(), v.dtype, v.data_ptr() % 16))
        elif hasattr(getattr(v, "base", None), "data_ptr"):     # a host tensor descriptor
            key.append((tuple(v.shape), tuple(v.strides), v.base.dtype, v.base.data_ptr() % 16))
        else:
            key.append(t.__name__)
    try:
        hash(key := tuple(key))
    except TypeError:
        return None
    return key


def _timed(grid, args, kwargs):
    """The faster launch function at these arguments, each timed with CUDA events after a first launch, behind a
    sleep on the device long enough for the host to queue every timed launch (the events then time the device's
    work, not the launches' host cost: run 157 timed vLLM's MoE so and chose the one partition, 257 TFLOP/s against
    the producer's 386 in graphs, its host path 100 us shorter), every tensor argument (a descriptor's base too)
    copied before and restored after; None where nothing can be timed now (no device, a graph being captured), the
    pipelined kernel's launch where the copies do not fit in memory (kept for the key: not tried again)."""
    try:
        import time
        import torch
        if not torch.cuda.is_available() or torch.cuda.is_current_stream_capturing():
            return None
    except Exception:                       # noqa: BLE001 - no device to ask: not timed
        return None
    try:
        values = list(args) + list(kwargs.values())
        tensors = [v if hasattr(v, "data_ptr") else v.base for v in values
                   if hasattr(v, "data_ptr") or hasattr(getattr(v, "base", None), "data_ptr")]
        # an expanded view (a zero stride) is read only: it cannot be copied back into
        tensors = [t for t in tensors if all(st or n <= 1 for st, n in zip(t.stride(), t.shape))]
        saved = [t.clone() for t in tensors]
    except Exception:                       # noqa: BLE001 - no memory for the copies: the pipelined kernel
        return launch_long
    try:
        launch_long(grid, *args, **kwargs)  # compiled, and its errors the launch's own
        try:
            launch_short(grid, *args, **kwargs)
        except Exception:                   # noqa: BLE001 - the one-stage kernel refuses this launch: the other runs
            return launch_long
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        launch_long(grid, *args, **kwargs)
        launch_short(grid, *args, **kwargs)
        host = time.perf_counter() - t0     # the host's time for one launch of each, compiled
        spent = {launch_long: 0.0, launch_short: 0.0}
        for _ in range(TIMED_ROUNDS):
            for fn in spent:
                _backlog(host * TIMED_RUNS)
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(TIMED_RUNS):
                    fn(grid, *args, **kwargs)
                end.record()
                end.synchronize()
                spent[fn] += start.elapsed_time(end)
        return min(spent, key=spent.get)
    finally:
        for t, s in zip(tensors, saved):
            t.copy_(s)


def _backlog(seconds):
    """Keep the device busy for twice ``seconds`` at up to 2 GHz (capped at 50 ms): the launches queued meanwhile
    start back to back when it ends."""
    import torch
    sleep = getattr(torch.cuda, "_sleep", None)
    if sleep is not None:
        sleep(int(min(2 * seconds, 0.05) * 2e9))
