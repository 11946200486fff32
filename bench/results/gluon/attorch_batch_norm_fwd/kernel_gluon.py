"""batch_norm_forward_kernel, written by twill from its joint schedule: I=49 L=92 (optimal), 4183 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 137 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at attorch_batch_norm_fwd.py:95 (TTGIR line 53) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=247, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[32, 1], warps_per_cta=[8, 1], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[32, 1], warps_per_cta=[8, 1], order=[0, 1])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0(input_pointer, weight_pointer, bias_pointer, mean_pointer, inv_std_pointer, output_pointer, running_mean_pointer, running_var_pointer, batch_dim, spatial_dim, input_feat_stride, input_spatial_stride, output_feat_stride, output_spatial_stride, momentum, eps):
    twill_base = 0
    feat_pid = gl.program_id(0)
    batch_offset = gl.arange(0, 4096, layout=L0)
    batch_mask_2 = batch_offset < batch_dim
    v0 = spatial_dim + 3
    v1 = v0 // 4
    spatial_offset = gl.arange(0, 4, layout=L1)
    curr_input_pointer = input_feat_stride * feat_pid
    curr_input_pointer_3 = input_pointer + curr_input_pointer
    curr_input_pointer_4 = gl.expand_dims(batch_offset, 1)
    curr_input_pointer_6 = curr_input_pointer_3 + curr_input_pointer_4
    curr_input_pointer_8 = curr_input_pointer_6.broadcast_to([4096, 4])
    curr_input = gl.expand_dims(batch_mask_2, 1)
    curr_input_9 = curr_input.broadcast_to([4096, 4])
    twill_n = (v1 - 0 + 1 - 1) // 1
    count_51 = 0
    mean_59 = 0.0
    var_67 = 0.0
    spatial_offset_38_l0 = (0 + (0 - 0) * 1) * 4  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    spatial_offset_39_l0 = spatial_offset_38_l0  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    spatial_offset_40 = spatial_offset_39_l0 + spatial_offset  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    spatial_mask_41 = spatial_offset_40 < spatial_dim  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    curr_input_46 = gl.expand_dims(spatial_mask_41, 0)  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    curr_input_47 = curr_input_46.broadcast_to([4096, 4])  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    curr_input_48_l0 = curr_input_9 & curr_input_47  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    curr_input_pointer_42_l0 = gl.expand_dims(spatial_offset_40, 0)  # load0_curr_input: stage 0, partition 0 (group 0)
    curr_input_pointer_43_l0 = input_spatial_stride * curr_input_pointer_42_l0  # load0_curr_input: stage 0, partition 0 (group 0)
    curr_input_pointer_44_l0 = curr_input_pointer_43_l0.broadcast_to([4096, 4])  # load0_curr_input: stage 0, partition 0 (group 0)
    curr_input_pointer_45 = curr_input_pointer_8 + curr_input_pointer_44_l0  # load0_curr_input: stage 0, partition 0 (group 0)
    curr_input_49_l0 = gl.load(curr_input_pointer_45, mask=curr_input_48_l0)  # load0_curr_input: stage 0, partition 0 (group 0)
    count_51_p1 = count_51
    curr_input_48_l0_p1 = curr_input_48_l0
    curr_input_49_l0_p1 = curr_input_49_l0
    mean_59_p1 = mean_59
    spatial_offset_38_l0_p1 = spatial_offset_38_l0
    var_67_p1 = var_67
    for twill_b in range(1, twill_n):
        spatial_offset_38_l0 = (0 + (twill_b - 0) * 1) * 4  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        spatial_offset_39_l0 = spatial_offset_38_l0  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        spatial_offset_40 = spatial_offset_39_l0 + spatial_offset  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        spatial_mask_41 = spatial_offset_40 < spatial_dim  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        curr_input_46 = gl.expand_dims(spatial_mask_41, 0)  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        curr_input_47 = curr_input_46.broadcast_to([4096, 4])  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        curr_input_48_l0 = curr_input_9 & curr_input_47  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        curr_input_pointer_42_l0 = gl.expand_dims(spatial_offset_40, 0)  # load0_curr_input: stage 0, partition 0 (group 0)
        curr_input_pointer_43_l0 = input_spatial_stride * curr_input_pointer_42_l0  # load0_curr_input: stage 0, partition 0 (group 0)
        curr_input_pointer_44_l0 = curr_input_pointer_43_l0.broadcast_to([4096, 4])  # load0_curr_input: stage 0, partition 0 (group 0)
        curr_input_pointer_45 = curr_input_pointer_8 + curr_input_pointer_44_l0  # load0_curr_input: stage 0, partition 0 (group 0)
        curr_input_49_l0 = gl.load(curr_input_pointer_45, mask=curr_input_48_l0)  # load0_curr_input: stage 0, partition 0 (group 0)
        mean_52 = gl.convert_layout(gl.reshape(curr_input_49_l0_p1, [16384]), L2)  # reduce0_mean: stage 1, partition 0 (group 0)
        mean_53 = gl.sum(mean_52, axis=0)  # reduce0_mean: stage 1, partition 0 (group 0)
        spatial_count = spatial_dim - spatial_offset_38_l0_p1  # elementwise1_mean: stage 1, partition 0 (group 0)
        spatial_count_50 = gl.minimum(spatial_count, 4)  # elementwise1_mean: stage 1, partition 0 (group 0)
        curr_count = spatial_count_50 * batch_dim  # elementwise1_mean: stage 1, partition 0 (group 0)
        count_51 = count_51_p1 + curr_count  # elementwise1_mean: stage 1, partition 0 (group 0)
        mean_54 = gl.cast(curr_count, gl.float32)  # elementwise1_mean: stage 1, partition 0 (group 0)
        mean_55 = mean_54 * mean_59_p1  # elementwise1_mean: stage 1, partition 0 (group 0)
        mean_56 = mean_53 - mean_55  # elementwise1_mean: stage 1, partition 0 (group 0)
        mean_57 = gl.cast(count_51, gl.float32)  # elementwise1_mean: stage 1, partition 0 (group 0)
        mean_58 = mean_56 / mean_57  # elementwise1_mean: stage 1, partition 0 (group 0)
        mean_59 = mean_59_p1 + mean_58  # elementwise1_mean: stage 1, partition 0 (group 0)
        deltas = mean_59  # elementwise2_deltas: stage 1, partition 0 (group 0)
        deltas_60 = curr_input_49_l0_p1 - deltas  # elementwise2_deltas: stage 1, partition 0 (group 0)
        deltas_61 = mean_59_p1  # elementwise2_deltas: stage 1, partition 0 (group 0)
        deltas_62 = curr_input_49_l0_p1 - deltas_61  # elementwise2_deltas: stage 1, partition 0 (group 0)
        deltas_63 = deltas_60 * deltas_62  # elementwise2_deltas: stage 1, partition 0 (group 0)
        deltas_64 = gl.where(curr_input_48_l0_p1, deltas_63, 0.0)  # elementwise2_deltas: stage 1, partition 0 (group 0)
        var_65 = gl.convert_layout(gl.reshape(deltas_64, [16384]), L2)  # reduce1_var: stage 1, partition 0 (group 0)
        var_66 = gl.sum(var_65, axis=0)  # reduce1_var: stage 1, partition 0 (group 0)
        var_67 = var_67_p1 + var_66  # elementwise3_var: stage 1, partition 0 (group 0)
        count_51_p1 = count_51
        curr_input_48_l0_p1 = curr_input_48_l0
        curr_input_49_l0_p1 = curr_input_49_l0
        mean_59_p1 = mean_59
        spatial_offset_38_l0_p1 = spatial_offset_38_l0
        var_67_p1 = var_67
    mean_52 = gl.convert_layout(gl.reshape(curr_input_49_l0_p1, [16384]), L2)  # reduce0_mean: stage 1, partition 0 (group 0)
    mean_53 = gl.sum(mean_52, axis=0)  # reduce0_mean: stage 1, partition 0 (group 0)
    spatial_count = spatial_dim - spatial_offset_38_l0_p1  # elementwise1_mean: stage 1, partition 0 (group 0)
    spatial_count_50 = gl.minimum(spatial_count, 4)  # elementwise1_mean: stage 1, partition 0 (group 0)
    curr_count = spatial_count_50 * batch_dim  # elementwise1_mean: stage 1, partition 0 (group 0)
    count_51 = count_51_p1 + curr_count  # elementwise1_mean: stage 1, partition 0 (group 0)
    mean_54 = gl.cast(curr_count, gl.float32)  # elementwise1_mean: stage 1, partition 0 (group 0)
    mean_55 = mean_54 * mean_59_p1  # elementwise1_mean: stage 1, partition 0 (group 0)
    mean_56 = mean_53 - mean_55  # elementwise1_mean: stage 1, partition 0 (group 0)
    mean_57 = gl.cast(count_51, gl.float32)  # elementwise1_mean: stage 1, partition 0 (group 0)
    mean_58 = mean_56 / mean_57  # elementwise1_mean: stage 1, partition 0 (group 0)
    mean_59 = mean_59_p1 + mean_58  # elementwise1_mean: stage 1, partition 0 (group 0)
    deltas = mean_59  # elementwise2_deltas: stage 1, partition 0 (group 0)
    deltas_60 = curr_input_49_l0_p1 - deltas  # elementwise2_deltas: stage 1, partition 0 (group 0)
    deltas_61 = mean_59_p1  # elementwise2_deltas: stage 1, partition 0 (group 0)
    deltas_62 = curr_input_49_l0_p1 - deltas_61  # elementwise2_deltas: stage 1, partition 0 (group 0)
    deltas_63 = deltas_60 * deltas_62  # elementwise2_deltas: stage 1, partition 0 (group 0)
    deltas_64 = gl.where(curr_input_48_l0_p1, deltas_63, 0.0)  # elementwise2_deltas: stage 1, partition 0 (group 0)
    var_65 = gl.convert_layout(gl.reshape(deltas_64, [16384]), L2)  # reduce1_var: stage 1, partition 0 (group 0)
    var_66 = gl.sum(var_65, axis=0)  # reduce1_var: stage 1, partition 0 (group 0)
    var_67 = var_67_p1 + var_66  # elementwise3_var: stage 1, partition 0 (group 0)
    count_51_p1 = count_51
    curr_input_48_l0_p1 = curr_input_48_l0
    curr_input_49_l0_p1 = curr_input_49_l0
    mean_59_p1 = mean_59
    spatial_offset_38_l0_p1 = spatial_offset_38_l0
    var_67_p1 = var_67
    twill_base += twill_n
    var_10 = gl.cast(count_51_p1, gl.float32)
    var_11 = var_67_p1 / var_10
    inv_std = var_11 + eps
    inv_std_12 = gl.sqrt(inv_std)
    inv_std_13 = 1.0 / inv_std_12
    v2 = mean_pointer + feat_pid
    gl.store(v2, mean_59_p1)
    v3 = inv_std_pointer + feat_pid
    gl.store(v3, inv_std_13)
    running_mean_pointer_14 = running_mean_pointer + feat_pid
    running_var_pointer_15 = running_var_pointer + feat_pid
    running_mean = gl.load(running_mean_pointer_14)
    running_var = gl.load(running_var_pointer_15)
    n = batch_dim * spatial_dim
    v4 = 1.0 - momentum
    v5 = v4 * running_mean
    v6 = momentum * mean_59_p1
    v7 = v5 + v6
    gl.store(running_mean_pointer_14, v7)
    v8 = v4 * running_var
    v9 = momentum * var_11
    v10 = gl.cast(n, gl.float32)
    v11 = v9 * v10
    v12 = n - 1
    v13 = gl.cast(v12, gl.float32)
    v14 = v11 / v13
    v15 = v8 + v14
    gl.store(running_var_pointer_15, v15)
    weight = weight_pointer + feat_pid
    weight_16 = gl.load(weight)
    bias = bias_pointer + feat_pid
    bias_17 = gl.load(bias)
    spatial_offset_18 = gl.arange(0, 4, layout=L1)
    curr_input_pointer_20 = input_feat_stride * feat_pid
    curr_input_pointer_21 = input_pointer + curr_input_pointer_20
    curr_input_pointer_22 = gl.expand_dims(batch_offset, 1)
    curr_input_pointer_24 = curr_input_pointer_21 + curr_input_pointer_22
    curr_input_pointer_26 = curr_input_pointer_24.broadcast_to([4096, 4])
    curr_output_pointer = output_feat_stride * feat_pid
    curr_output_pointer_27 = output_pointer + curr_output_pointer
    curr_output_pointer_29 = curr_output_pointer_27 + curr_input_pointer_22
    curr_output_pointer_31 = curr_output_pointer_29.broadcast_to([4096, 4])
    curr_input_32 = gl.expand_dims(batch_mask_2, 1)
    curr_input_33 = curr_input_32.broadcast_to([4096, 4])
    twill_n = (v1 - 0 + 1 - 1) // 1
    spatial_offset_37 = (0 + (0 - 0) * 1) * 4  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    spatial_offset_38 = spatial_offset_37  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    spatial_offset_39 = spatial_offset_38 + spatial_offset_18  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    spatial_mask_40 = spatial_offset_39 < spatial_dim  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    curr_input_48 = gl.expand_dims(spatial_mask_40, 0)  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    curr_input_49 = curr_input_48.broadcast_to([4096, 4])  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    curr_input_50 = curr_input_33 & curr_input_49  # elementwise0_curr_input: stage 0, partition 0 (group 0)
    curr_input_pointer_41 = gl.expand_dims(spatial_offset_39, 0)  # load0_curr_input: stage 0, partition 0 (group 0)
    curr_input_pointer_42 = input_spatial_stride * curr_input_pointer_41  # load0_curr_input: stage 0, partition 0 (group 0)
    curr_input_pointer_43 = curr_input_pointer_42.broadcast_to([4096, 4])  # load0_curr_input: stage 0, partition 0 (group 0)
    curr_input_pointer_44 = curr_input_pointer_26 + curr_input_pointer_43  # load0_curr_input: stage 0, partition 0 (group 0)
    curr_input_51 = gl.load(curr_input_pointer_44, mask=curr_input_50)  # load0_curr_input: stage 0, partition 0 (group 0)
    curr_input_50_p1 = curr_input_50
    curr_input_51_p1 = curr_input_51
    curr_input_pointer_41_p1 = curr_input_pointer_41
    for twill_b in range(1, twill_n):
        spatial_offset_37 = (0 + (twill_b - 0) * 1) * 4  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        spatial_offset_38 = spatial_offset_37  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        spatial_offset_39 = spatial_offset_38 + spatial_offset_18  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        spatial_mask_40 = spatial_offset_39 < spatial_dim  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        curr_input_48 = gl.expand_dims(spatial_mask_40, 0)  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        curr_input_49 = curr_input_48.broadcast_to([4096, 4])  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        curr_input_50 = curr_input_33 & curr_input_49  # elementwise0_curr_input: stage 0, partition 0 (group 0)
        curr_input_pointer_41 = gl.expand_dims(spatial_offset_39, 0)  # load0_curr_input: stage 0, partition 0 (group 0)
        curr_input_pointer_42 = input_spatial_stride * curr_input_pointer_41  # load0_curr_input: stage 0, partition 0 (group 0)
        curr_input_pointer_43 = curr_input_pointer_42.broadcast_to([4096, 4])  # load0_curr_input: stage 0, partition 0 (group 0)
        curr_input_pointer_44 = curr_input_pointer_26 + curr_input_pointer_43  # load0_curr_input: stage 0, partition 0 (group 0)
        curr_input_51 = gl.load(curr_input_pointer_44, mask=curr_input_50)  # load0_curr_input: stage 0, partition 0 (group 0)
        output_52 = curr_input_51_p1 - mean_59_p1  # elementwise1_output: stage 1, partition 0 (group 0)
        output_53 = weight_16 * output_52  # elementwise1_output: stage 1, partition 0 (group 0)
        output_54 = output_53 * inv_std_13  # elementwise1_output: stage 1, partition 0 (group 0)
        output_55 = output_54 + bias_17  # elementwise1_output: stage 1, partition 0 (group 0)
        curr_output_pointer_45 = output_spatial_stride * curr_input_pointer_41_p1  # store0: stage 1, partition 0 (group 0)
        curr_output_pointer_46 = curr_output_pointer_45.broadcast_to([4096, 4])  # store0: stage 1, partition 0 (group 0)
        curr_output_pointer_47 = curr_output_pointer_31 + curr_output_pointer_46  # store0: stage 1, partition 0 (group 0)
        gl.store(curr_output_pointer_47, output_55, mask=curr_input_50_p1)  # store0: stage 1, partition 0 (group 0)
        curr_input_50_p1 = curr_input_50
        curr_input_51_p1 = curr_input_51
        curr_input_pointer_41_p1 = curr_input_pointer_41
    output_52 = curr_input_51_p1 - mean_59_p1  # elementwise1_output: stage 1, partition 0 (group 0)
    output_53 = weight_16 * output_52  # elementwise1_output: stage 1, partition 0 (group 0)
    output_54 = output_53 * inv_std_13  # elementwise1_output: stage 1, partition 0 (group 0)
    output_55 = output_54 + bias_17  # elementwise1_output: stage 1, partition 0 (group 0)
    curr_output_pointer_45 = output_spatial_stride * curr_input_pointer_41_p1  # store0: stage 1, partition 0 (group 0)
    curr_output_pointer_46 = curr_output_pointer_45.broadcast_to([4096, 4])  # store0: stage 1, partition 0 (group 0)
    curr_output_pointer_47 = curr_output_pointer_31 + curr_output_pointer_46  # store0: stage 1, partition 0 (group 0)
    gl.store(curr_output_pointer_47, output_55, mask=curr_input_50_p1)  # store0: stage 1, partition 0 (group 0)
    curr_input_50_p1 = curr_input_50
    curr_input_51_p1 = curr_input_51
    curr_input_pointer_41_p1 = curr_input_pointer_41

@gluon.jit
def twill_kernel(input_pointer, weight_pointer, bias_pointer, mean_pointer, inv_std_pointer, output_pointer, running_mean_pointer, running_var_pointer, batch_dim, spatial_dim, input_feat_stride, input_spatial_stride, output_feat_stride, output_spatial_stride, momentum, eps):
    consumer_0(input_pointer, weight_pointer, bias_pointer, mean_pointer, inv_std_pointer, output_pointer, running_mean_pointer, running_var_pointer, batch_dim, spatial_dim, input_feat_stride, input_spatial_stride, output_feat_stride, output_spatial_stride, momentum, eps, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['input_pointer', 'weight_pointer', 'bias_pointer', 'mean_pointer', 'inv_std_pointer', 'output_pointer', 'running_mean_pointer', 'running_var_pointer', 'batch_dim', 'spatial_dim', 'input_batch_stride', 'input_feat_stride', 'input_spatial_stride', 'output_batch_stride', 'output_feat_stride', 'output_spatial_stride', 'momentum', 'eps', 'affine', 'save_stats', 'track_running_stats', 'is_train', 'BLOCK_SIZE_BATCH', 'BLOCK_SIZE_SPATIAL']          # the Triton kernel's parameters, in order
RUNTIME = ['input_pointer', 'weight_pointer', 'bias_pointer', 'mean_pointer', 'inv_std_pointer', 'output_pointer', 'running_mean_pointer', 'running_var_pointer', 'batch_dim', 'spatial_dim', 'input_feat_stride', 'input_spatial_stride', 'output_feat_stride', 'output_spatial_stride', 'momentum', 'eps']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['input_pointer', 'weight_pointer', 'bias_pointer', 'mean_pointer', 'inv_std_pointer', 'output_pointer', 'running_mean_pointer', 'running_var_pointer', 'batch_dim', 'spatial_dim', 'input_feat_stride', 'input_spatial_stride', 'output_feat_stride', 'output_spatial_stride', 'momentum', 'eps']   # the arguments a launch key reads
CONSTEXPRS = {'input_batch_stride': 1, 'output_batch_stride': 1, 'affine': True, 'save_stats': True, 'track_running_stats': True, 'is_train': True, 'BLOCK_SIZE_BATCH': 4096, 'BLOCK_SIZE_SPATIAL': 4}         # the specialisation this kernel was generated for
HEURISTICS = {'BLOCK_SIZE_BATCH': "lambda args: next_power_of_2(args['batch_dim'])", 'BLOCK_SIZE_SPATIAL': 'BLOCK_SIZE_SPATIAL_heuristic'}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = ['from typing import Any, Dict, List', 'from triton import next_power_of_2', 'def BLOCK_SIZE_SPATIAL_heuristic(args: Dict) -> int:\n    """\n    Approximates an appropriate spatial block size for batch normalization\n    using a heuristic.\n    """\n    BLOCK_SIZE_BATCH = next_power_of_2(args[\'batch_dim\'])\n    BLOCK_SIZE_SPATIAL = next_power_of_2(args[\'spatial_dim\'])\n    return min(BLOCK_SIZE_SPATIAL, max(1, 2 ** 14 // BLOCK_SIZE_BATCH))']   # what they read of the kernel's module
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
    trips = _ev('((spatial_dim + 3) // 4)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((spatial_dim + 3) // 4)): run the Triton kernel for it")
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
