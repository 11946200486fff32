"""_layer_norm_fwd_fused, written by twill from its joint schedule: I=544 L=544 (optimal), 256 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, 4 iterations ahead of their readers, enough to cover a load's latency with the schedule's iterations, and the loop as written where it runs fewer than 4 iterations; 5 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 52 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at layer_norm.py:28 (TTGIR line 33) (before the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=270, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at layer_norm.py:34 (TTGIR line 54) (before the scheduled loop): written by the same partitions, its tiles through the same rings (slots and phases run on from the loop before), in one stage of its own schedule (I=340, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0(X, Y, W, B, Mean, Rstd, stride, N, eps):
    twill_base = 0
    row = gl.program_id(0)
    Y_1 = row * stride
    Y_2 = Y + Y_1
    X_3 = X + Y_1
    cols = gl.arange(0, 1024, layout=L0)
    twill_n = (N - 0 + 1024 - 1) // 1024
    if twill_n >= 9:
        cols_19_l0 = (0 + (0 - 0) * 1024) + cols  # load0_a: stage 0, partition 0 (group 0)
        a_20 = cols_19_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        a_21 = X_3 + cols_19_l0  # load0_a: stage 0, partition 0 (group 0)
        a_22 = gl.load(a_21, mask=a_20, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_22_p1 = a_22
        cols_19_l0 = (0 + (1 - 0) * 1024) + cols  # load0_a: stage 0, partition 0 (group 0)
        a_20 = cols_19_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        a_21 = X_3 + cols_19_l0  # load0_a: stage 0, partition 0 (group 0)
        a_22 = gl.load(a_21, mask=a_20, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        cols_19_l0 = (0 + (2 - 0) * 1024) + cols  # load0_a: stage 0, partition 0 (group 0)
        a_20 = cols_19_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        a_21 = X_3 + cols_19_l0  # load0_a: stage 0, partition 0 (group 0)
        a_22 = gl.load(a_21, mask=a_20, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        cols_19_l0 = (0 + (3 - 0) * 1024) + cols  # load0_a: stage 0, partition 0 (group 0)
        a_20 = cols_19_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        a_21 = X_3 + cols_19_l0  # load0_a: stage 0, partition 0 (group 0)
        a_22 = gl.load(a_21, mask=a_20, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        cols_19_l0 = (0 + (4 - 0) * 1024) + cols  # load0_a: stage 0, partition 0 (group 0)
        a_20 = cols_19_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        a_21 = X_3 + cols_19_l0  # load0_a: stage 0, partition 0 (group 0)
        a_22 = gl.load(a_21, mask=a_20, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        cols_19_l0 = (0 + (5 - 0) * 1024) + cols  # load0_a: stage 0, partition 0 (group 0)
        a_20 = cols_19_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        a_21 = X_3 + cols_19_l0  # load0_a: stage 0, partition 0 (group 0)
        a_22 = gl.load(a_21, mask=a_20, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        cols_19_l0 = (0 + (6 - 0) * 1024) + cols  # load0_a: stage 0, partition 0 (group 0)
        a_20 = cols_19_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        a_21 = X_3 + cols_19_l0  # load0_a: stage 0, partition 0 (group 0)
        a_22 = gl.load(a_21, mask=a_20, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        cols_19_l0 = (0 + (7 - 0) * 1024) + cols  # load0_a: stage 0, partition 0 (group 0)
        a_20 = cols_19_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        a_21 = X_3 + cols_19_l0  # load0_a: stage 0, partition 0 (group 0)
        a_22 = gl.load(a_21, mask=a_20, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        _mean_24 = gl.full([1024], 0.0, gl.float32, layout=L0)
        cols_19_l0 = (0 + (8 - 0) * 1024) + cols  # load0_a: stage 0, partition 0 (group 0)
        a_20 = cols_19_l0 < N  # load0_a: stage 0, partition 0 (group 0)
        a_21 = X_3 + cols_19_l0  # load0_a: stage 0, partition 0 (group 0)
        a_22 = gl.load(a_21, mask=a_20, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
        _mean_24_p1 = _mean_24
        a_22_p9 = a_22_p8
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        for twill_b in range(9, twill_n):
            cols_18_l0 = (0 + (twill_b - 0) * 1024)  # load0_a: stage 0, partition 0 (group 0)
            cols_19_l0 = cols_18_l0 + cols  # load0_a: stage 0, partition 0 (group 0)
            a_20 = cols_19_l0 < N  # load0_a: stage 0, partition 0 (group 0)
            a_21 = X_3 + cols_19_l0  # load0_a: stage 0, partition 0 (group 0)
            a_22 = gl.load(a_21, mask=a_20, other=0.0)  # load0_a: stage 0, partition 0 (group 0)
            a_23 = a_22_p9.to(gl.float32)  # convert0_a: stage 9, partition 0 (group 0)
            _mean_24 = _mean_24_p1 + a_23  # elementwise0__mean: stage 9, partition 0 (group 0)
            _mean_24_p1 = _mean_24
            a_22_p9 = a_22_p8
            a_22_p8 = a_22_p7
            a_22_p7 = a_22_p6
            a_22_p6 = a_22_p5
            a_22_p5 = a_22_p4
            a_22_p4 = a_22_p3
            a_22_p3 = a_22_p2
            a_22_p2 = a_22_p1
            a_22_p1 = a_22
        a_23 = a_22_p9.to(gl.float32)  # convert0_a: stage 9, partition 0 (group 0)
        _mean_24 = _mean_24_p1 + a_23  # elementwise0__mean: stage 9, partition 0 (group 0)
        _mean_24_p1 = _mean_24
        a_22_p9 = a_22_p8
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        a_23 = a_22_p9.to(gl.float32)  # convert0_a: stage 9, partition 0 (group 0)
        _mean_24 = _mean_24_p1 + a_23  # elementwise0__mean: stage 9, partition 0 (group 0)
        _mean_24_p1 = _mean_24
        a_22_p9 = a_22_p8
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        a_23 = a_22_p9.to(gl.float32)  # convert0_a: stage 9, partition 0 (group 0)
        _mean_24 = _mean_24_p1 + a_23  # elementwise0__mean: stage 9, partition 0 (group 0)
        _mean_24_p1 = _mean_24
        a_22_p9 = a_22_p8
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        a_23 = a_22_p9.to(gl.float32)  # convert0_a: stage 9, partition 0 (group 0)
        _mean_24 = _mean_24_p1 + a_23  # elementwise0__mean: stage 9, partition 0 (group 0)
        _mean_24_p1 = _mean_24
        a_22_p9 = a_22_p8
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        a_23 = a_22_p9.to(gl.float32)  # convert0_a: stage 9, partition 0 (group 0)
        _mean_24 = _mean_24_p1 + a_23  # elementwise0__mean: stage 9, partition 0 (group 0)
        _mean_24_p1 = _mean_24
        a_22_p9 = a_22_p8
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        a_23 = a_22_p9.to(gl.float32)  # convert0_a: stage 9, partition 0 (group 0)
        _mean_24 = _mean_24_p1 + a_23  # elementwise0__mean: stage 9, partition 0 (group 0)
        _mean_24_p1 = _mean_24
        a_22_p9 = a_22_p8
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        a_23 = a_22_p9.to(gl.float32)  # convert0_a: stage 9, partition 0 (group 0)
        _mean_24 = _mean_24_p1 + a_23  # elementwise0__mean: stage 9, partition 0 (group 0)
        _mean_24_p1 = _mean_24
        a_22_p9 = a_22_p8
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        a_23 = a_22_p9.to(gl.float32)  # convert0_a: stage 9, partition 0 (group 0)
        _mean_24 = _mean_24_p1 + a_23  # elementwise0__mean: stage 9, partition 0 (group 0)
        _mean_24_p1 = _mean_24
        a_22_p9 = a_22_p8
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
        a_23 = a_22_p9.to(gl.float32)  # convert0_a: stage 9, partition 0 (group 0)
        _mean_24 = _mean_24_p1 + a_23  # elementwise0__mean: stage 9, partition 0 (group 0)
        _mean_24_p1 = _mean_24
        a_22_p9 = a_22_p8
        a_22_p8 = a_22_p7
        a_22_p7 = a_22_p6
        a_22_p6 = a_22_p5
        a_22_p5 = a_22_p4
        a_22_p4 = a_22_p3
        a_22_p3 = a_22_p2
        a_22_p2 = a_22_p1
        a_22_p1 = a_22
    else:
        arg10_l0 = gl.full([1024], 0.0, gl.float32, layout=L0)
        for _mean_17 in range(0, N, 1024):
            cols_19_l0 = _mean_17 + cols
            a_20 = cols_19_l0 < N
            a_21 = X_3 + cols_19_l0
            a_22 = gl.load(a_21, mask=a_20, other=0.0)
            a_23 = a_22.to(gl.float32)
            _mean_24 = arg10_l0 + a_23
            arg10_l0 = _mean_24
        _mean_24_p1 = arg10_l0
    twill_base += twill_n
    mean = gl.sum(_mean_24_p1, axis=0)
    mean_5 = N.to(gl.float32)
    mean_6 = mean / mean_5
    cols_7 = gl.arange(0, 1024, layout=L0)
    twill_n = (N - 0 + 1024 - 1) // 1024
    if twill_n >= 5:
        cols_19_l1 = (0 + (0 - 0) * 1024) + cols_7  # load0_x: stage 0, partition 0 (group 0)
        x_20 = cols_19_l1 < N  # load0_x: stage 0, partition 0 (group 0)
        x_21 = X_3 + cols_19_l1  # load0_x: stage 0, partition 0 (group 0)
        x_22 = gl.load(x_21, mask=x_20, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_20_p1 = x_20
        x_22_p1 = x_22
        cols_19_l1 = (0 + (1 - 0) * 1024) + cols_7  # load0_x: stage 0, partition 0 (group 0)
        x_20 = cols_19_l1 < N  # load0_x: stage 0, partition 0 (group 0)
        x_21 = X_3 + cols_19_l1  # load0_x: stage 0, partition 0 (group 0)
        x_22 = gl.load(x_21, mask=x_20, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_20_p2 = x_20_p1
        x_20_p1 = x_20
        x_22_p2 = x_22_p1
        x_22_p1 = x_22
        cols_19_l1 = (0 + (2 - 0) * 1024) + cols_7  # load0_x: stage 0, partition 0 (group 0)
        x_20 = cols_19_l1 < N  # load0_x: stage 0, partition 0 (group 0)
        x_21 = X_3 + cols_19_l1  # load0_x: stage 0, partition 0 (group 0)
        x_22 = gl.load(x_21, mask=x_20, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_20_p3 = x_20_p2
        x_20_p2 = x_20_p1
        x_20_p1 = x_20
        x_22_p3 = x_22_p2
        x_22_p2 = x_22_p1
        x_22_p1 = x_22
        cols_19_l1 = (0 + (3 - 0) * 1024) + cols_7  # load0_x: stage 0, partition 0 (group 0)
        x_20 = cols_19_l1 < N  # load0_x: stage 0, partition 0 (group 0)
        x_21 = X_3 + cols_19_l1  # load0_x: stage 0, partition 0 (group 0)
        x_22 = gl.load(x_21, mask=x_20, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        x_20_p4 = x_20_p3
        x_20_p3 = x_20_p2
        x_20_p2 = x_20_p1
        x_20_p1 = x_20
        x_22_p4 = x_22_p3
        x_22_p3 = x_22_p2
        x_22_p2 = x_22_p1
        x_22_p1 = x_22
        _var_27 = gl.full([1024], 0.0, gl.float32, layout=L0)
        cols_19_l1 = (0 + (4 - 0) * 1024) + cols_7  # load0_x: stage 0, partition 0 (group 0)
        x_20 = cols_19_l1 < N  # load0_x: stage 0, partition 0 (group 0)
        x_21 = X_3 + cols_19_l1  # load0_x: stage 0, partition 0 (group 0)
        x_22 = gl.load(x_21, mask=x_20, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
        _var_27_p1 = _var_27
        x_20_p5 = x_20_p4
        x_20_p4 = x_20_p3
        x_20_p3 = x_20_p2
        x_20_p2 = x_20_p1
        x_20_p1 = x_20
        x_22_p5 = x_22_p4
        x_22_p4 = x_22_p3
        x_22_p3 = x_22_p2
        x_22_p2 = x_22_p1
        x_22_p1 = x_22
        for twill_b in range(5, twill_n):
            cols_18_l1 = (0 + (twill_b - 0) * 1024)  # load0_x: stage 0, partition 0 (group 0)
            cols_19_l1 = cols_18_l1 + cols_7  # load0_x: stage 0, partition 0 (group 0)
            x_20 = cols_19_l1 < N  # load0_x: stage 0, partition 0 (group 0)
            x_21 = X_3 + cols_19_l1  # load0_x: stage 0, partition 0 (group 0)
            x_22 = gl.load(x_21, mask=x_20, other=0.0)  # load0_x: stage 0, partition 0 (group 0)
            x_23 = x_22_p5.to(gl.float32)  # convert0_x: stage 5, partition 0 (group 0)
            x_24_l1 = x_23 - mean_6  # elementwise0_x: stage 5, partition 0 (group 0)
            x_25_l1 = gl.where(x_20_p5, x_24_l1, 0.0)  # elementwise0_x: stage 5, partition 0 (group 0)
            _var_26 = x_25_l1 * x_25_l1  # elementwise0_x: stage 5, partition 0 (group 0)
            _var_27 = _var_27_p1 + _var_26  # elementwise0_x: stage 5, partition 0 (group 0)
            _var_27_p1 = _var_27
            x_20_p5 = x_20_p4
            x_20_p4 = x_20_p3
            x_20_p3 = x_20_p2
            x_20_p2 = x_20_p1
            x_20_p1 = x_20
            x_22_p5 = x_22_p4
            x_22_p4 = x_22_p3
            x_22_p3 = x_22_p2
            x_22_p2 = x_22_p1
            x_22_p1 = x_22
        x_23 = x_22_p5.to(gl.float32)  # convert0_x: stage 5, partition 0 (group 0)
        x_24_l1 = x_23 - mean_6  # elementwise0_x: stage 5, partition 0 (group 0)
        x_25_l1 = gl.where(x_20_p5, x_24_l1, 0.0)  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_26 = x_25_l1 * x_25_l1  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_27 = _var_27_p1 + _var_26  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_27_p1 = _var_27
        x_20_p5 = x_20_p4
        x_20_p4 = x_20_p3
        x_20_p3 = x_20_p2
        x_20_p2 = x_20_p1
        x_20_p1 = x_20
        x_22_p5 = x_22_p4
        x_22_p4 = x_22_p3
        x_22_p3 = x_22_p2
        x_22_p2 = x_22_p1
        x_22_p1 = x_22
        x_23 = x_22_p5.to(gl.float32)  # convert0_x: stage 5, partition 0 (group 0)
        x_24_l1 = x_23 - mean_6  # elementwise0_x: stage 5, partition 0 (group 0)
        x_25_l1 = gl.where(x_20_p5, x_24_l1, 0.0)  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_26 = x_25_l1 * x_25_l1  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_27 = _var_27_p1 + _var_26  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_27_p1 = _var_27
        x_20_p5 = x_20_p4
        x_20_p4 = x_20_p3
        x_20_p3 = x_20_p2
        x_20_p2 = x_20_p1
        x_20_p1 = x_20
        x_22_p5 = x_22_p4
        x_22_p4 = x_22_p3
        x_22_p3 = x_22_p2
        x_22_p2 = x_22_p1
        x_22_p1 = x_22
        x_23 = x_22_p5.to(gl.float32)  # convert0_x: stage 5, partition 0 (group 0)
        x_24_l1 = x_23 - mean_6  # elementwise0_x: stage 5, partition 0 (group 0)
        x_25_l1 = gl.where(x_20_p5, x_24_l1, 0.0)  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_26 = x_25_l1 * x_25_l1  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_27 = _var_27_p1 + _var_26  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_27_p1 = _var_27
        x_20_p5 = x_20_p4
        x_20_p4 = x_20_p3
        x_20_p3 = x_20_p2
        x_20_p2 = x_20_p1
        x_20_p1 = x_20
        x_22_p5 = x_22_p4
        x_22_p4 = x_22_p3
        x_22_p3 = x_22_p2
        x_22_p2 = x_22_p1
        x_22_p1 = x_22
        x_23 = x_22_p5.to(gl.float32)  # convert0_x: stage 5, partition 0 (group 0)
        x_24_l1 = x_23 - mean_6  # elementwise0_x: stage 5, partition 0 (group 0)
        x_25_l1 = gl.where(x_20_p5, x_24_l1, 0.0)  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_26 = x_25_l1 * x_25_l1  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_27 = _var_27_p1 + _var_26  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_27_p1 = _var_27
        x_20_p5 = x_20_p4
        x_20_p4 = x_20_p3
        x_20_p3 = x_20_p2
        x_20_p2 = x_20_p1
        x_20_p1 = x_20
        x_22_p5 = x_22_p4
        x_22_p4 = x_22_p3
        x_22_p3 = x_22_p2
        x_22_p2 = x_22_p1
        x_22_p1 = x_22
        x_23 = x_22_p5.to(gl.float32)  # convert0_x: stage 5, partition 0 (group 0)
        x_24_l1 = x_23 - mean_6  # elementwise0_x: stage 5, partition 0 (group 0)
        x_25_l1 = gl.where(x_20_p5, x_24_l1, 0.0)  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_26 = x_25_l1 * x_25_l1  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_27 = _var_27_p1 + _var_26  # elementwise0_x: stage 5, partition 0 (group 0)
        _var_27_p1 = _var_27
        x_20_p5 = x_20_p4
        x_20_p4 = x_20_p3
        x_20_p3 = x_20_p2
        x_20_p2 = x_20_p1
        x_20_p1 = x_20
        x_22_p5 = x_22_p4
        x_22_p4 = x_22_p3
        x_22_p3 = x_22_p2
        x_22_p2 = x_22_p1
        x_22_p1 = x_22
    else:
        arg10_l1 = gl.full([1024], 0.0, gl.float32, layout=L0)
        for _var_17 in range(0, N, 1024):
            cols_19_l1 = _var_17 + cols_7
            x_20 = cols_19_l1 < N
            x_21 = X_3 + cols_19_l1
            x_22 = gl.load(x_21, mask=x_20, other=0.0)
            x_23 = x_22.to(gl.float32)
            x_24_l1 = x_23 - mean_6
            x_25_l1 = gl.where(x_20, x_24_l1, 0.0)
            _var_26 = x_25_l1 * x_25_l1
            _var_27 = arg10_l1 + _var_26
            arg10_l1 = _var_27
        _var_27_p1 = arg10_l1
    twill_base += twill_n
    var = gl.sum(_var_27_p1, axis=0)
    var_10 = var / mean_5
    rstd_11 = var_10 + eps
    rstd_12 = gl.sqrt(rstd_11)
    rstd_13 = 1.0 / rstd_12
    v0 = Mean + row
    gl.store(v0, mean_6)
    v1 = Rstd + row
    gl.store(v1, rstd_13)
    cols_14 = gl.arange(0, 1024, layout=L0)
    twill_n = (N - 0 + 1024 - 1) // 1024
    if twill_n >= 4:
        cols_18 = (0 + (0 - 0) * 1024) + cols_14  # load0_w: stage 0, partition 0 (group 0)
        mask_19 = cols_18 < N  # load0_w: stage 0, partition 0 (group 0)
        w_20 = W + cols_18  # load0_w: stage 0, partition 0 (group 0)
        w_21 = gl.load(w_20, mask=mask_19)  # load0_w: stage 0, partition 0 (group 0)
        x_24 = X_3 + cols_18  # load2_x: stage 0, partition 0 (group 0)
        x_25 = gl.load(x_24, mask=mask_19, other=0.0)  # load2_x: stage 0, partition 0 (group 0)
        b_22 = B + cols_18  # load1_b: stage 0, partition 0 (group 0)
        b_23 = gl.load(b_22, mask=mask_19)  # load1_b: stage 0, partition 0 (group 0)
        b_23_p1 = b_23
        cols_18_p1 = cols_18
        mask_19_p1 = mask_19
        w_21_p1 = w_21
        x_25_p1 = x_25
        cols_18 = (0 + (1 - 0) * 1024) + cols_14  # load0_w: stage 0, partition 0 (group 0)
        mask_19 = cols_18 < N  # load0_w: stage 0, partition 0 (group 0)
        w_20 = W + cols_18  # load0_w: stage 0, partition 0 (group 0)
        w_21 = gl.load(w_20, mask=mask_19)  # load0_w: stage 0, partition 0 (group 0)
        x_24 = X_3 + cols_18  # load2_x: stage 0, partition 0 (group 0)
        x_25 = gl.load(x_24, mask=mask_19, other=0.0)  # load2_x: stage 0, partition 0 (group 0)
        b_22 = B + cols_18  # load1_b: stage 0, partition 0 (group 0)
        b_23 = gl.load(b_22, mask=mask_19)  # load1_b: stage 0, partition 0 (group 0)
        b_23_p2 = b_23_p1
        b_23_p1 = b_23
        cols_18_p2 = cols_18_p1
        cols_18_p1 = cols_18
        mask_19_p2 = mask_19_p1
        mask_19_p1 = mask_19
        w_21_p2 = w_21_p1
        w_21_p1 = w_21
        x_25_p2 = x_25_p1
        x_25_p1 = x_25
        cols_18 = (0 + (2 - 0) * 1024) + cols_14  # load0_w: stage 0, partition 0 (group 0)
        mask_19 = cols_18 < N  # load0_w: stage 0, partition 0 (group 0)
        w_20 = W + cols_18  # load0_w: stage 0, partition 0 (group 0)
        w_21 = gl.load(w_20, mask=mask_19)  # load0_w: stage 0, partition 0 (group 0)
        x_24 = X_3 + cols_18  # load2_x: stage 0, partition 0 (group 0)
        x_25 = gl.load(x_24, mask=mask_19, other=0.0)  # load2_x: stage 0, partition 0 (group 0)
        b_22 = B + cols_18  # load1_b: stage 0, partition 0 (group 0)
        b_23 = gl.load(b_22, mask=mask_19)  # load1_b: stage 0, partition 0 (group 0)
        b_23_p3 = b_23_p2
        b_23_p2 = b_23_p1
        b_23_p1 = b_23
        cols_18_p3 = cols_18_p2
        cols_18_p2 = cols_18_p1
        cols_18_p1 = cols_18
        mask_19_p3 = mask_19_p2
        mask_19_p2 = mask_19_p1
        mask_19_p1 = mask_19
        w_21_p3 = w_21_p2
        w_21_p2 = w_21_p1
        w_21_p1 = w_21
        x_25_p3 = x_25_p2
        x_25_p2 = x_25_p1
        x_25_p1 = x_25
        cols_18 = (0 + (3 - 0) * 1024) + cols_14  # load0_w: stage 0, partition 0 (group 0)
        mask_19 = cols_18 < N  # load0_w: stage 0, partition 0 (group 0)
        w_20 = W + cols_18  # load0_w: stage 0, partition 0 (group 0)
        w_21 = gl.load(w_20, mask=mask_19)  # load0_w: stage 0, partition 0 (group 0)
        x_24 = X_3 + cols_18  # load2_x: stage 0, partition 0 (group 0)
        x_25 = gl.load(x_24, mask=mask_19, other=0.0)  # load2_x: stage 0, partition 0 (group 0)
        b_22 = B + cols_18  # load1_b: stage 0, partition 0 (group 0)
        b_23 = gl.load(b_22, mask=mask_19)  # load1_b: stage 0, partition 0 (group 0)
        b_23_p4 = b_23_p3
        b_23_p3 = b_23_p2
        b_23_p2 = b_23_p1
        b_23_p1 = b_23
        cols_18_p4 = cols_18_p3
        cols_18_p3 = cols_18_p2
        cols_18_p2 = cols_18_p1
        cols_18_p1 = cols_18
        mask_19_p4 = mask_19_p3
        mask_19_p3 = mask_19_p2
        mask_19_p2 = mask_19_p1
        mask_19_p1 = mask_19
        w_21_p4 = w_21_p3
        w_21_p3 = w_21_p2
        w_21_p2 = w_21_p1
        w_21_p1 = w_21
        x_25_p4 = x_25_p3
        x_25_p3 = x_25_p2
        x_25_p2 = x_25_p1
        x_25_p1 = x_25
        for twill_b in range(4, twill_n):
            cols_17 = (0 + (twill_b - 0) * 1024)  # load0_w: stage 0, partition 0 (group 0)
            cols_18 = cols_17 + cols_14  # load0_w: stage 0, partition 0 (group 0)
            mask_19 = cols_18 < N  # load0_w: stage 0, partition 0 (group 0)
            w_20 = W + cols_18  # load0_w: stage 0, partition 0 (group 0)
            w_21 = gl.load(w_20, mask=mask_19)  # load0_w: stage 0, partition 0 (group 0)
            y = w_21_p4.to(gl.float32)  # convert1_y: stage 4, partition 0 (group 0)
            x_24 = X_3 + cols_18  # load2_x: stage 0, partition 0 (group 0)
            x_25 = gl.load(x_24, mask=mask_19, other=0.0)  # load2_x: stage 0, partition 0 (group 0)
            x_26 = x_25_p4.to(gl.float32)  # convert0_x: stage 4, partition 0 (group 0)
            b_22 = B + cols_18  # load1_b: stage 0, partition 0 (group 0)
            b_23 = gl.load(b_22, mask=mask_19)  # load1_b: stage 0, partition 0 (group 0)
            y_30 = b_23_p4.to(gl.float32)  # convert2_y: stage 4, partition 0 (group 0)
            x_hat_27 = x_26 - mean_6  # elementwise0_x_hat: stage 4, partition 0 (group 0)
            x_hat_28 = x_hat_27 * rstd_13  # elementwise0_x_hat: stage 4, partition 0 (group 0)
            y_29 = x_hat_28 * y  # elementwise0_x_hat: stage 4, partition 0 (group 0)
            y_31 = y_29 + y_30  # elementwise0_x_hat: stage 4, partition 0 (group 0)
            v4 = y_31.to(gl.float16)  # convert3: stage 4, partition 0 (group 0)
            v3 = Y_2 + cols_18_p4  # store0: stage 4, partition 0 (group 0)
            gl.store(v3, v4, mask=mask_19_p4)  # store0: stage 4, partition 0 (group 0)
            b_23_p4 = b_23_p3
            b_23_p3 = b_23_p2
            b_23_p2 = b_23_p1
            b_23_p1 = b_23
            cols_18_p4 = cols_18_p3
            cols_18_p3 = cols_18_p2
            cols_18_p2 = cols_18_p1
            cols_18_p1 = cols_18
            mask_19_p4 = mask_19_p3
            mask_19_p3 = mask_19_p2
            mask_19_p2 = mask_19_p1
            mask_19_p1 = mask_19
            w_21_p4 = w_21_p3
            w_21_p3 = w_21_p2
            w_21_p2 = w_21_p1
            w_21_p1 = w_21
            x_25_p4 = x_25_p3
            x_25_p3 = x_25_p2
            x_25_p2 = x_25_p1
            x_25_p1 = x_25
        y = w_21_p4.to(gl.float32)  # convert1_y: stage 4, partition 0 (group 0)
        x_26 = x_25_p4.to(gl.float32)  # convert0_x: stage 4, partition 0 (group 0)
        y_30 = b_23_p4.to(gl.float32)  # convert2_y: stage 4, partition 0 (group 0)
        x_hat_27 = x_26 - mean_6  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        x_hat_28 = x_hat_27 * rstd_13  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        y_29 = x_hat_28 * y  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        y_31 = y_29 + y_30  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        v4 = y_31.to(gl.float16)  # convert3: stage 4, partition 0 (group 0)
        v3 = Y_2 + cols_18_p4  # store0: stage 4, partition 0 (group 0)
        gl.store(v3, v4, mask=mask_19_p4)  # store0: stage 4, partition 0 (group 0)
        b_23_p4 = b_23_p3
        b_23_p3 = b_23_p2
        b_23_p2 = b_23_p1
        b_23_p1 = b_23
        cols_18_p4 = cols_18_p3
        cols_18_p3 = cols_18_p2
        cols_18_p2 = cols_18_p1
        cols_18_p1 = cols_18
        mask_19_p4 = mask_19_p3
        mask_19_p3 = mask_19_p2
        mask_19_p2 = mask_19_p1
        mask_19_p1 = mask_19
        w_21_p4 = w_21_p3
        w_21_p3 = w_21_p2
        w_21_p2 = w_21_p1
        w_21_p1 = w_21
        x_25_p4 = x_25_p3
        x_25_p3 = x_25_p2
        x_25_p2 = x_25_p1
        x_25_p1 = x_25
        y = w_21_p4.to(gl.float32)  # convert1_y: stage 4, partition 0 (group 0)
        x_26 = x_25_p4.to(gl.float32)  # convert0_x: stage 4, partition 0 (group 0)
        y_30 = b_23_p4.to(gl.float32)  # convert2_y: stage 4, partition 0 (group 0)
        x_hat_27 = x_26 - mean_6  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        x_hat_28 = x_hat_27 * rstd_13  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        y_29 = x_hat_28 * y  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        y_31 = y_29 + y_30  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        v4 = y_31.to(gl.float16)  # convert3: stage 4, partition 0 (group 0)
        v3 = Y_2 + cols_18_p4  # store0: stage 4, partition 0 (group 0)
        gl.store(v3, v4, mask=mask_19_p4)  # store0: stage 4, partition 0 (group 0)
        b_23_p4 = b_23_p3
        b_23_p3 = b_23_p2
        b_23_p2 = b_23_p1
        b_23_p1 = b_23
        cols_18_p4 = cols_18_p3
        cols_18_p3 = cols_18_p2
        cols_18_p2 = cols_18_p1
        cols_18_p1 = cols_18
        mask_19_p4 = mask_19_p3
        mask_19_p3 = mask_19_p2
        mask_19_p2 = mask_19_p1
        mask_19_p1 = mask_19
        w_21_p4 = w_21_p3
        w_21_p3 = w_21_p2
        w_21_p2 = w_21_p1
        w_21_p1 = w_21
        x_25_p4 = x_25_p3
        x_25_p3 = x_25_p2
        x_25_p2 = x_25_p1
        x_25_p1 = x_25
        y = w_21_p4.to(gl.float32)  # convert1_y: stage 4, partition 0 (group 0)
        x_26 = x_25_p4.to(gl.float32)  # convert0_x: stage 4, partition 0 (group 0)
        y_30 = b_23_p4.to(gl.float32)  # convert2_y: stage 4, partition 0 (group 0)
        x_hat_27 = x_26 - mean_6  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        x_hat_28 = x_hat_27 * rstd_13  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        y_29 = x_hat_28 * y  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        y_31 = y_29 + y_30  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        v4 = y_31.to(gl.float16)  # convert3: stage 4, partition 0 (group 0)
        v3 = Y_2 + cols_18_p4  # store0: stage 4, partition 0 (group 0)
        gl.store(v3, v4, mask=mask_19_p4)  # store0: stage 4, partition 0 (group 0)
        b_23_p4 = b_23_p3
        b_23_p3 = b_23_p2
        b_23_p2 = b_23_p1
        b_23_p1 = b_23
        cols_18_p4 = cols_18_p3
        cols_18_p3 = cols_18_p2
        cols_18_p2 = cols_18_p1
        cols_18_p1 = cols_18
        mask_19_p4 = mask_19_p3
        mask_19_p3 = mask_19_p2
        mask_19_p2 = mask_19_p1
        mask_19_p1 = mask_19
        w_21_p4 = w_21_p3
        w_21_p3 = w_21_p2
        w_21_p2 = w_21_p1
        w_21_p1 = w_21
        x_25_p4 = x_25_p3
        x_25_p3 = x_25_p2
        x_25_p2 = x_25_p1
        x_25_p1 = x_25
        y = w_21_p4.to(gl.float32)  # convert1_y: stage 4, partition 0 (group 0)
        x_26 = x_25_p4.to(gl.float32)  # convert0_x: stage 4, partition 0 (group 0)
        y_30 = b_23_p4.to(gl.float32)  # convert2_y: stage 4, partition 0 (group 0)
        x_hat_27 = x_26 - mean_6  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        x_hat_28 = x_hat_27 * rstd_13  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        y_29 = x_hat_28 * y  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        y_31 = y_29 + y_30  # elementwise0_x_hat: stage 4, partition 0 (group 0)
        v4 = y_31.to(gl.float16)  # convert3: stage 4, partition 0 (group 0)
        v3 = Y_2 + cols_18_p4  # store0: stage 4, partition 0 (group 0)
        gl.store(v3, v4, mask=mask_19_p4)  # store0: stage 4, partition 0 (group 0)
        b_23_p4 = b_23_p3
        b_23_p3 = b_23_p2
        b_23_p2 = b_23_p1
        b_23_p1 = b_23
        cols_18_p4 = cols_18_p3
        cols_18_p3 = cols_18_p2
        cols_18_p2 = cols_18_p1
        cols_18_p1 = cols_18
        mask_19_p4 = mask_19_p3
        mask_19_p3 = mask_19_p2
        mask_19_p2 = mask_19_p1
        mask_19_p1 = mask_19
        w_21_p4 = w_21_p3
        w_21_p3 = w_21_p2
        w_21_p2 = w_21_p1
        w_21_p1 = w_21
        x_25_p4 = x_25_p3
        x_25_p3 = x_25_p2
        x_25_p2 = x_25_p1
        x_25_p1 = x_25
    else:
        for off in range(0, N, 1024):
            cols_18 = off + cols_14
            mask_19 = cols_18 < N
            w_20 = W + cols_18
            w_21 = gl.load(w_20, mask=mask_19)
            b_22 = B + cols_18
            b_23 = gl.load(b_22, mask=mask_19)
            x_24 = X_3 + cols_18
            x_25 = gl.load(x_24, mask=mask_19, other=0.0)
            x_26 = x_25.to(gl.float32)
            x_hat_27 = x_26 - mean_6
            x_hat_28 = x_hat_27 * rstd_13
            y = w_21.to(gl.float32)
            y_29 = x_hat_28 * y
            y_30 = b_23.to(gl.float32)
            y_31 = y_29 + y_30
            v3 = Y_2 + cols_18
            v4 = y_31.to(gl.float16)
            gl.store(v3, v4, mask=mask_19)

@gluon.jit
def twill_kernel(X, Y, W, B, Mean, Rstd, stride, N, eps):
    consumer_0(X, Y, W, B, Mean, Rstd, stride, N, eps, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['X', 'Y', 'W', 'B', 'Mean', 'Rstd', 'stride', 'N', 'eps', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['X', 'Y', 'W', 'B', 'Mean', 'Rstd', 'stride', 'N', 'eps']   # the Gluon kernel's parameters, in order
CONSTEXPRS = {'BLOCK_SIZE': 1024}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")


_LAYOUTS = {}                  # argument -> its layout object, made on first use


def _descriptor(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    layout = _LAYOUTS.get(name)
    if layout is None:
        from triton.experimental.gluon import language as gl
        layout = _LAYOUTS[name] = eval("gl." + DESCRIPTOR_LAYOUTS[name])
    base = getattr(value, "base", value)
    shape = list(getattr(value, "shape", base.shape))
    strides = list(getattr(value, "strides", None) or base.stride())
    return TensorDescriptor(base, shape, strides, DESCRIPTOR_BLOCKS[name], layout)


def launch(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS, args))
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
    missing = [n for n in RUNTIME if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor(bound[n], n) if n in DESCRIPTOR_BLOCKS else bound[n] for n in RUNTIME]
    return twill_kernel[g](*runtime, num_warps=NUM_WARPS, maxnreg=MAXNREG)


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
