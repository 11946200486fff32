"""triton_red_fused_native_layer_norm_0, written by twill from its joint schedule: I=106 L=241 (optimal), 848 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 16 warps, registers as ptxas allocates them (the schedule's tiles need about 84 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at inductor_layer_norm.py:25 (TTGIR line 34) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=218, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.extra import libdevice

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[1, 0]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[0, 1])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 16], order=[0, 1]))

@gluon.jit
def twill_combine_39449a21(a0, a1, a2, a3, a4, a5):
    t0 = a0 == a3
    t1 = a3 - a0
    t2 = gl.where(t0, gl.to_tensor(0.0), t1)
    t3 = a2 + a5
    t4 = t3 == gl.to_tensor(0.0)
    t5 = a5 / t3
    t6 = gl.where(t4, gl.to_tensor(0.0), t5)
    t7 = t2 * t6
    t8 = a0 + t7
    t9 = a1 + a4
    t10 = t2 * t2
    t11 = t10 * a2
    t12 = t11 * t6
    t13 = t9 + t12
    return t8, t13, t3

@gluon.jit
def consumer_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, rnumel):
    twill_base = 0
    xoffset = gl.program_id(0)
    xmask = xoffset < xnumel
    rbase = gl.arange(0, 2048, layout=L0)
    rbase_5 = gl.expand_dims(rbase, 0)
    tmp0 = rnumel * xoffset
    twill_n = (rnumel - 0 + 2048 - 1) // 2048
    tmp2_mean = gl.full([1, 2048], 0.0, gl.float32, layout=L1)
    tmp2_m2 = gl.full([1, 2048], 0.0, gl.float32, layout=L1)
    tmp2_weight_30 = gl.full([1, 2048], 0.0, gl.float32, layout=L1)
    rindex_23 = (0 + (0 - 0) * 2048) + rbase_5  # elementwise0_tmp0: stage 0, partition 0 (group 0)
    rmask_24 = rindex_23 < rnumel  # elementwise0_tmp0: stage 0, partition 0 (group 0)
    tmp0_27 = rmask_24 & xmask  # elementwise0_tmp0: stage 0, partition 0 (group 0)
    tmp0_25 = rindex_23 + tmp0  # load0_tmp0: stage 0, partition 0 (group 0)
    tmp0_26 = in_ptr0 + tmp0_25  # load0_tmp0: stage 0, partition 0 (group 0)
    tmp0_28 = gl.load(tmp0_26, mask=tmp0_27, other=0.0, eviction_policy='evict_last')  # load0_tmp0: stage 0, partition 0 (group 0)
    tmp0_27_p1 = tmp0_27
    tmp0_28_p1 = tmp0_28
    tmp2_m2_p1 = tmp2_m2
    tmp2_mean_p1 = tmp2_mean
    tmp2_weight_30_p1 = tmp2_weight_30
    for twill_b in range(1, twill_n):
        rindex_l0 = (0 + (twill_b - 0) * 2048)  # elementwise0_tmp0: stage 0, partition 0 (group 0)
        rindex_23 = rindex_l0 + rbase_5  # elementwise0_tmp0: stage 0, partition 0 (group 0)
        rmask_24 = rindex_23 < rnumel  # elementwise0_tmp0: stage 0, partition 0 (group 0)
        tmp0_27 = rmask_24 & xmask  # elementwise0_tmp0: stage 0, partition 0 (group 0)
        tmp0_25 = rindex_23 + tmp0  # load0_tmp0: stage 0, partition 0 (group 0)
        tmp0_26 = in_ptr0 + tmp0_25  # load0_tmp0: stage 0, partition 0 (group 0)
        tmp0_28 = gl.load(tmp0_26, mask=tmp0_27, other=0.0, eviction_policy='evict_last')  # load0_tmp0: stage 0, partition 0 (group 0)
        tmp0_29 = tmp0_28_p1.to(gl.float32)  # convert0_tmp0: stage 1, partition 0 (group 0)
        v7_l0 = (0 + (twill_b - 1) * 2048) == 0  # elementwise1: stage 1, partition 0 (group 0)
        if v7_l0:  # elementwise1: stage 1, partition 0 (group 0)
            v8_l0_r0 = gl.full([1, 2048], 0.0, gl.float32, layout=L1)  # elementwise1: stage 1, partition 0 (group 0)
            v8_l0_r1 = tmp0_29  # elementwise1: stage 1, partition 0 (group 0)
            v8_l0_r2 = gl.full([1, 2048], 1.0, gl.float32, layout=L1)  # elementwise1: stage 1, partition 0 (group 0)
        else:  # elementwise1: stage 1, partition 0 (group 0)
            delta_b47 = tmp0_29 - tmp2_mean_p1  # elementwise1: stage 1, partition 0 (group 0)
            new_weight_b48 = tmp2_weight_30_p1 + 1.0  # elementwise1: stage 1, partition 0 (group 0)
            new_mean = delta_b47 / new_weight_b48  # elementwise1: stage 1, partition 0 (group 0)
            new_mean_31 = tmp2_mean_p1 + new_mean  # elementwise1: stage 1, partition 0 (group 0)
            new_m2 = tmp0_29 - new_mean_31  # elementwise1: stage 1, partition 0 (group 0)
            new_m2_32 = delta_b47 * new_m2  # elementwise1: stage 1, partition 0 (group 0)
            new_m2_33 = tmp2_m2_p1 + new_m2_32  # elementwise1: stage 1, partition 0 (group 0)
            v8_l0_r0 = new_m2_33  # elementwise1: stage 1, partition 0 (group 0)
            v8_l0_r1 = new_mean_31  # elementwise1: stage 1, partition 0 (group 0)
            v8_l0_r2 = new_weight_b48  # elementwise1: stage 1, partition 0 (group 0)
        tmp2_weight_30 = gl.where(tmp0_27_p1, v8_l0_r2, tmp2_weight_30_p1)  # elementwise4_tmp2_weight: stage 1, partition 0 (group 0)
        tmp2_m2 = gl.where(tmp0_27_p1, v8_l0_r0, tmp2_m2_p1)  # elementwise3_tmp2_m2: stage 1, partition 0 (group 0)
        tmp2_mean = gl.where(tmp0_27_p1, v8_l0_r1, tmp2_mean_p1)  # elementwise2_tmp2_mean: stage 1, partition 0 (group 0)
        tmp0_27_p1 = tmp0_27
        tmp0_28_p1 = tmp0_28
        tmp2_m2_p1 = tmp2_m2
        tmp2_mean_p1 = tmp2_mean
        tmp2_weight_30_p1 = tmp2_weight_30
    tmp0_29 = tmp0_28_p1.to(gl.float32)  # convert0_tmp0: stage 1, partition 0 (group 0)
    v7_l0 = (0 + ((twill_n - 1 + 1) - 1) * 2048) == 0  # elementwise1: stage 1, partition 0 (group 0)
    if v7_l0:  # elementwise1: stage 1, partition 0 (group 0)
        v8_l0_r0 = gl.full([1, 2048], 0.0, gl.float32, layout=L1)  # elementwise1: stage 1, partition 0 (group 0)
        v8_l0_r1 = tmp0_29  # elementwise1: stage 1, partition 0 (group 0)
        v8_l0_r2 = gl.full([1, 2048], 1.0, gl.float32, layout=L1)  # elementwise1: stage 1, partition 0 (group 0)
    else:  # elementwise1: stage 1, partition 0 (group 0)
        delta_b47 = tmp0_29 - tmp2_mean_p1  # elementwise1: stage 1, partition 0 (group 0)
        new_weight_b48 = tmp2_weight_30_p1 + 1.0  # elementwise1: stage 1, partition 0 (group 0)
        new_mean = delta_b47 / new_weight_b48  # elementwise1: stage 1, partition 0 (group 0)
        new_mean_31 = tmp2_mean_p1 + new_mean  # elementwise1: stage 1, partition 0 (group 0)
        new_m2 = tmp0_29 - new_mean_31  # elementwise1: stage 1, partition 0 (group 0)
        new_m2_32 = delta_b47 * new_m2  # elementwise1: stage 1, partition 0 (group 0)
        new_m2_33 = tmp2_m2_p1 + new_m2_32  # elementwise1: stage 1, partition 0 (group 0)
        v8_l0_r0 = new_m2_33  # elementwise1: stage 1, partition 0 (group 0)
        v8_l0_r1 = new_mean_31  # elementwise1: stage 1, partition 0 (group 0)
        v8_l0_r2 = new_weight_b48  # elementwise1: stage 1, partition 0 (group 0)
    tmp2_weight_30 = gl.where(tmp0_27_p1, v8_l0_r2, tmp2_weight_30_p1)  # elementwise4_tmp2_weight: stage 1, partition 0 (group 0)
    tmp2_m2 = gl.where(tmp0_27_p1, v8_l0_r0, tmp2_m2_p1)  # elementwise3_tmp2_m2: stage 1, partition 0 (group 0)
    tmp2_mean = gl.where(tmp0_27_p1, v8_l0_r1, tmp2_mean_p1)  # elementwise2_tmp2_mean: stage 1, partition 0 (group 0)
    tmp0_27_p1 = tmp0_27
    tmp0_28_p1 = tmp0_28
    tmp2_m2_p1 = tmp2_m2
    tmp2_mean_p1 = tmp2_mean
    tmp2_weight_30_p1 = tmp2_weight_30
    twill_base += twill_n
    v0_r0, v0_r1, v0_r2 = gl.reduce((tmp2_mean_p1, tmp2_m2_p1, tmp2_weight_30_p1), 1, twill_combine_39449a21)
    tmp2 = gl.convert_layout(v0_r0, L2)
    tmp2_9 = gl.expand_dims(tmp2, 1)
    tmp2_10 = gl.expand_dims(v0_r0, 1)
    tmp9 = gl.convert_layout(v0_r1, L2)
    tmp3 = gl.expand_dims(tmp9, 1)
    tmp3_11 = gl.expand_dims(v0_r1, 1)
    v1 = out_ptr0 + xoffset
    gl.store(gl.full([1, 1], v1, gl.pointer_type(gl.float32), layout=L3), tmp2_9, mask=gl.full([1, 1], xmask, gl.int1, layout=L3))
    tmp5 = gl.cast(rnumel, gl.float32)
    tmp6_13 = tmp3 / tmp5
    tmp6_14 = tmp3_11 / tmp5
    tmp8 = tmp6_13 + 9.99999974e-06
    tmp8_15 = tmp6_14 + 9.99999974e-06
    tmp9_16 = libdevice.rsqrt(tmp8)
    tmp9_17 = libdevice.rsqrt(tmp8_15)
    gl.thread_barrier()
    v4 = in_out_ptr0 + xoffset
    gl.store(gl.full([1, 1], v4, gl.pointer_type(gl.float32), layout=L3), tmp9_16, mask=gl.full([1, 1], xmask, gl.int1, layout=L3))
    tmp10 = rnumel * xoffset
    tmp11 = tmp2_10.broadcast_to([1, 2048])
    tmp12 = tmp9_17.broadcast_to([1, 2048])
    twill_n = (rnumel - 0 + 2048 - 1) // 2048
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        rindex_22 = (0 + (0 - 0) * 2048) + rbase_5  # elementwise0_tmp10: stage 0, partition 0 (group 0)
        rmask_23 = rindex_22 < rnumel  # elementwise0_tmp10: stage 0, partition 0 (group 0)
        tmp10_26 = rmask_23 & xmask  # elementwise0_tmp10: stage 0, partition 0 (group 0)
        tmp10_24 = rindex_22 + tmp10  # load0_tmp10: stage 0, partition 0 (group 0)
        tmp10_25 = in_ptr0 + tmp10_24  # load0_tmp10: stage 0, partition 0 (group 0)
        tmp10_27 = gl.load(tmp10_25, mask=tmp10_26, other=0.0, eviction_policy='evict_first')  # load0_tmp10: stage 0, partition 0 (group 0)
        rindex_22_p1 = rindex_22
        rmask_23_p1 = rmask_23
        tmp10_24_p1 = tmp10_24
        tmp10_26_p1 = tmp10_26
        tmp10_27_p1 = tmp10_27
        rindex_22 = (0 + (1 - 0) * 2048) + rbase_5  # elementwise0_tmp10: stage 0, partition 0 (group 0)
        rmask_23 = rindex_22 < rnumel  # elementwise0_tmp10: stage 0, partition 0 (group 0)
        tmp10_26 = rmask_23 & xmask  # elementwise0_tmp10: stage 0, partition 0 (group 0)
        tmp14_29 = in_ptr1 + rindex_22_p1  # load1_tmp14: stage 1, partition 0 (group 0)
        tmp16_31 = in_ptr2 + rindex_22_p1  # load2_tmp16: stage 1, partition 0 (group 0)
        tmp14_30 = gl.load(tmp14_29, mask=rmask_23_p1, other=0.0, eviction_policy='evict_last')  # load1_tmp14: stage 1, partition 0 (group 0)
        tmp16_32 = gl.load(tmp16_31, mask=rmask_23_p1, other=0.0, eviction_policy='evict_last')  # load2_tmp16: stage 1, partition 0 (group 0)
        tmp10_24 = rindex_22 + tmp10  # load0_tmp10: stage 0, partition 0 (group 0)
        tmp10_25 = in_ptr0 + tmp10_24  # load0_tmp10: stage 0, partition 0 (group 0)
        tmp10_27 = gl.load(tmp10_25, mask=tmp10_26, other=0.0, eviction_policy='evict_first')  # load0_tmp10: stage 0, partition 0 (group 0)
        tmp10_28 = tmp10_27_p1.to(gl.float32)  # convert0_tmp10: stage 1, partition 0 (group 0)
        rindex_22_p1 = rindex_22
        rmask_23_p1 = rmask_23
        tmp10_24_p2 = tmp10_24_p1
        tmp10_24_p1 = tmp10_24
        tmp10_26_p2 = tmp10_26_p1
        tmp10_26_p1 = tmp10_26
        tmp10_27_p1 = tmp10_27
        tmp10_28_p1 = tmp10_28
        tmp14_30_p1 = tmp14_30
        tmp16_32_p1 = tmp16_32
        for twill_b in range(2, twill_n):
            rindex = (0 + (twill_b - 0) * 2048)  # elementwise0_tmp10: stage 0, partition 0 (group 0)
            rindex_22 = rindex + rbase_5  # elementwise0_tmp10: stage 0, partition 0 (group 0)
            rmask_23 = rindex_22 < rnumel  # elementwise0_tmp10: stage 0, partition 0 (group 0)
            tmp10_26 = rmask_23 & xmask  # elementwise0_tmp10: stage 0, partition 0 (group 0)
            tmp14_29 = in_ptr1 + rindex_22_p1  # load1_tmp14: stage 1, partition 0 (group 0)
            tmp16_31 = in_ptr2 + rindex_22_p1  # load2_tmp16: stage 1, partition 0 (group 0)
            tmp14_30 = gl.load(tmp14_29, mask=rmask_23_p1, other=0.0, eviction_policy='evict_last')  # load1_tmp14: stage 1, partition 0 (group 0)
            tmp16_32 = gl.load(tmp16_31, mask=rmask_23_p1, other=0.0, eviction_policy='evict_last')  # load2_tmp16: stage 1, partition 0 (group 0)
            tmp11_33 = tmp10_28_p1 - tmp11  # elementwise1_tmp11: stage 2, partition 0 (group 0)
            tmp12_34 = tmp11_33 * tmp12  # elementwise1_tmp11: stage 2, partition 0 (group 0)
            tmp15 = tmp12_34 * tmp14_30_p1  # elementwise1_tmp11: stage 2, partition 0 (group 0)
            tmp17 = tmp15 + tmp16_32_p1  # elementwise1_tmp11: stage 2, partition 0 (group 0)
            v8 = tmp17.to(gl.float16)  # convert1: stage 2, partition 0 (group 0)
            v7 = out_ptr1 + tmp10_24_p2  # store0: stage 2, partition 0 (group 0)
            gl.store(v7, v8, mask=tmp10_26_p2)  # store0: stage 2, partition 0 (group 0)
            tmp10_24 = rindex_22 + tmp10  # load0_tmp10: stage 0, partition 0 (group 0)
            tmp10_25 = in_ptr0 + tmp10_24  # load0_tmp10: stage 0, partition 0 (group 0)
            tmp10_27 = gl.load(tmp10_25, mask=tmp10_26, other=0.0, eviction_policy='evict_first')  # load0_tmp10: stage 0, partition 0 (group 0)
            tmp10_28 = tmp10_27_p1.to(gl.float32)  # convert0_tmp10: stage 1, partition 0 (group 0)
            rindex_22_p1 = rindex_22
            rmask_23_p1 = rmask_23
            tmp10_24_p2 = tmp10_24_p1
            tmp10_24_p1 = tmp10_24
            tmp10_26_p2 = tmp10_26_p1
            tmp10_26_p1 = tmp10_26
            tmp10_27_p1 = tmp10_27
            tmp10_28_p1 = tmp10_28
            tmp14_30_p1 = tmp14_30
            tmp16_32_p1 = tmp16_32
        tmp14_29 = in_ptr1 + rindex_22_p1  # load1_tmp14: stage 1, partition 0 (group 0)
        tmp16_31 = in_ptr2 + rindex_22_p1  # load2_tmp16: stage 1, partition 0 (group 0)
        tmp14_30 = gl.load(tmp14_29, mask=rmask_23_p1, other=0.0, eviction_policy='evict_last')  # load1_tmp14: stage 1, partition 0 (group 0)
        tmp16_32 = gl.load(tmp16_31, mask=rmask_23_p1, other=0.0, eviction_policy='evict_last')  # load2_tmp16: stage 1, partition 0 (group 0)
        tmp11_33 = tmp10_28_p1 - tmp11  # elementwise1_tmp11: stage 2, partition 0 (group 0)
        tmp12_34 = tmp11_33 * tmp12  # elementwise1_tmp11: stage 2, partition 0 (group 0)
        tmp15 = tmp12_34 * tmp14_30_p1  # elementwise1_tmp11: stage 2, partition 0 (group 0)
        tmp17 = tmp15 + tmp16_32_p1  # elementwise1_tmp11: stage 2, partition 0 (group 0)
        v8 = tmp17.to(gl.float16)  # convert1: stage 2, partition 0 (group 0)
        v7 = out_ptr1 + tmp10_24_p2  # store0: stage 2, partition 0 (group 0)
        gl.store(v7, v8, mask=tmp10_26_p2)  # store0: stage 2, partition 0 (group 0)
        tmp10_28 = tmp10_27_p1.to(gl.float32)  # convert0_tmp10: stage 1, partition 0 (group 0)
        rindex_22_p1 = rindex_22
        rmask_23_p1 = rmask_23
        tmp10_24_p2 = tmp10_24_p1
        tmp10_24_p1 = tmp10_24
        tmp10_26_p2 = tmp10_26_p1
        tmp10_26_p1 = tmp10_26
        tmp10_27_p1 = tmp10_27
        tmp10_28_p1 = tmp10_28
        tmp14_30_p1 = tmp14_30
        tmp16_32_p1 = tmp16_32
        tmp11_33 = tmp10_28_p1 - tmp11  # elementwise1_tmp11: stage 2, partition 0 (group 0)
        tmp12_34 = tmp11_33 * tmp12  # elementwise1_tmp11: stage 2, partition 0 (group 0)
        tmp15 = tmp12_34 * tmp14_30_p1  # elementwise1_tmp11: stage 2, partition 0 (group 0)
        tmp17 = tmp15 + tmp16_32_p1  # elementwise1_tmp11: stage 2, partition 0 (group 0)
        v8 = tmp17.to(gl.float16)  # convert1: stage 2, partition 0 (group 0)
        v7 = out_ptr1 + tmp10_24_p2  # store0: stage 2, partition 0 (group 0)
        gl.store(v7, v8, mask=tmp10_26_p2)  # store0: stage 2, partition 0 (group 0)
        rindex_22_p1 = rindex_22
        rmask_23_p1 = rmask_23
        tmp10_24_p2 = tmp10_24_p1
        tmp10_24_p1 = tmp10_24
        tmp10_26_p2 = tmp10_26_p1
        tmp10_26_p1 = tmp10_26
        tmp10_27_p1 = tmp10_27
        tmp10_28_p1 = tmp10_28
        tmp14_30_p1 = tmp14_30
        tmp16_32_p1 = tmp16_32
    else:
        for roffset_w in range(0, rnumel, 2048):
            rindex_22_w = roffset_w + rbase_5
            rmask_23_w = rindex_22_w < rnumel
            tmp10_24_w = rindex_22_w + tmp10
            tmp10_25_w = in_ptr0 + tmp10_24_w
            tmp10_26_w = rmask_23_w & xmask
            tmp10_27_w = gl.load(tmp10_25_w, mask=tmp10_26_w, other=0.0, eviction_policy='evict_first')
            tmp10_28_w = tmp10_27_w.to(gl.float32)
            tmp14_29_w = in_ptr1 + rindex_22_w
            tmp14_30_w = gl.load(tmp14_29_w, mask=rmask_23_w, other=0.0, eviction_policy='evict_last')
            tmp16_31_w = in_ptr2 + rindex_22_w
            tmp16_32_w = gl.load(tmp16_31_w, mask=rmask_23_w, other=0.0, eviction_policy='evict_last')
            tmp11_33_w = tmp10_28_w - tmp11
            tmp12_34_w = tmp11_33_w * tmp12
            tmp15_w = tmp12_34_w * tmp14_30_w
            tmp17_w = tmp15_w + tmp16_32_w
            v7_w = out_ptr1 + tmp10_24_w
            v8_w = tmp17_w.to(gl.float16)
            gl.store(v7_w, v8_w, mask=tmp10_26_w)

@gluon.jit
def twill_kernel(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, rnumel):
    consumer_0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, xnumel, rnumel, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['in_out_ptr0', 'in_ptr0', 'in_ptr1', 'in_ptr2', 'out_ptr0', 'out_ptr1', 'xnumel', 'rnumel', 'XBLOCK', 'RBLOCK']          # the Triton kernel's parameters, in order
RUNTIME = ['in_out_ptr0', 'in_ptr0', 'in_ptr1', 'in_ptr2', 'out_ptr0', 'out_ptr1', 'xnumel', 'rnumel']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['in_out_ptr0', 'in_ptr0', 'in_ptr1', 'in_ptr2', 'out_ptr0', 'out_ptr1', 'xnumel', 'rnumel']   # the arguments a launch key reads
CONSTEXPRS = {'XBLOCK': 1, 'RBLOCK': 2048}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 16
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
    trips = _ev('(rnumel + 2048 - 1) // 2048', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((rnumel + 2048 - 1) // 2048): run the Triton kernel for it")
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
