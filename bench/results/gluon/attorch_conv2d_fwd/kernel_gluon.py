"""conv2d_forward_kernel, written by twill from its joint schedule: I=391 L=391 (optimal), 3128 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 112 per thread)
- shared operand weight_block_457_st: partition 0 stores the loop's [32, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 16400 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at attorch_conv2d_fwd.py:142 (TTGIR line 197) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=391, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at attorch_conv2d_fwd.py:142 (TTGIR line 272) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=391, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at attorch_conv2d_fwd.py:142 (TTGIR line 347) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=391, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at attorch_conv2d_fwd.py:142 (TTGIR line 421) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=391, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at attorch_conv2d_fwd.py:142 (TTGIR line 497) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=391, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at attorch_conv2d_fwd.py:142 (TTGIR line 575) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=391, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at attorch_conv2d_fwd.py:142 (TTGIR line 651) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=391, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at attorch_conv2d_fwd.py:142 (TTGIR line 729) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=391, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- pointer loads in narrow vectors: weight_block (4 bytes), weight_block_l1 (4 bytes), weight_block_l2 (4 bytes), weight_block_l3 (4 bytes), weight_block_l4 (4 bytes), weight_block_l5 (4 bytes), weight_block_l6 (4 bytes), weight_block_l7 (4 bytes), weight_block_l8 (4 bytes) per thread and access; a stride that launches pass as 1 (weight_in_feat_stride?) Triton's launcher specialises as that constant, and a load along it is contiguous: say so (--const weight_in_feat_stride=1, TWILL_SPEC's constexprs)
- written from the layouts Triton gives in_height, in_width, out_height, out_width, input_height_stride, weight_in_feat_stride, weight_height_stride, output_height_stride 16-divisible (its pointer loads 16 bytes a thread where the launch's specialisation proves them aligned, as Triton's own kernel at such a launch; at one where they are not, Gluon's lowering loads narrower vectors: run 66, FlagGems' softmax correct at N = 33001, x0.64 -> x1.00)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 8], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 8], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 8], order=[0, 1])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 8], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]), k_width=2))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 8], order=[0, 1]))

@gluon.jit
def consumer_0(input_pointer, weight_pointer, output_pointer, batch_dim, in_feat_dim, in_height, in_width, out_feat_dim, out_height, out_width, input_batch_stride, input_in_feat_stride, input_height_stride, weight_out_feat_stride, weight_in_feat_stride, weight_height_stride, output_batch_stride, output_out_feat_stride, output_height_stride):
    twill_base = 0
    batch_height_width_pid = gl.program_id(0)
    out_feat_pid = gl.program_id(1)
    group_pid = gl.program_id(2)
    batch_height_width_offset = batch_height_width_pid * 128
    batch_height_width_offset_5 = gl.arange(0, 128, layout=L0)
    batch_height_width_offset_6 = gl.arange(0, 128, layout=L1)
    batch_height_width_offset_7 = gl.arange(0, 128, layout=L2)
    batch_height_width_offset_8 = gl.arange(0, 128, layout=L3)
    batch_height_width_offset_11 = batch_height_width_offset + batch_height_width_offset_5
    batch_height_width_offset_12 = batch_height_width_offset + batch_height_width_offset_6
    batch_height_offset_14 = batch_height_width_offset_11 // out_width
    batch_height_offset_15 = batch_height_width_offset_12 // out_width
    batch_offset_17 = batch_height_offset_14 // out_height
    batch_offset_18 = batch_height_offset_15 // out_height
    output_feat_offset = out_feat_pid * 128
    output_feat_offset_21 = output_feat_offset + batch_height_width_offset_7
    output_feat_offset_22 = output_feat_offset + batch_height_width_offset_8
    output_height_offset = batch_height_offset_14 % out_height
    output_height_offset_23 = batch_height_offset_15 % out_height
    output_width_offset = batch_height_width_offset_11 % out_width
    output_width_offset_24 = batch_height_width_offset_12 % out_width
    input_pointer_26 = input_batch_stride * batch_offset_17
    input_pointer_27 = input_in_feat_stride * group_pid
    input_pointer_28 = input_pointer_27 * in_feat_dim
    input_pointer_30 = input_pointer_26 + input_pointer_28
    input_pointer_31 = gl.expand_dims(input_pointer_30, 1)
    input_pointer_33 = input_pointer + input_pointer_31
    weight_pointer_35 = weight_out_feat_stride * output_feat_offset_21
    weight_pointer_36 = weight_out_feat_stride * group_pid
    weight_pointer_37 = weight_pointer_36 * out_feat_dim
    weight_pointer_39 = weight_pointer_35 + weight_pointer_37
    weight_pointer_40 = gl.expand_dims(weight_pointer_39, 0)
    weight_pointer_42 = weight_pointer + weight_pointer_40
    input_feat_offset = gl.arange(0, 32, layout=L4)
    input_feat_offset_43 = gl.arange(0, 32, layout=L5)
    input_height_offset = output_height_offset + -1
    input_width_offset = output_width_offset + -1
    curr_input_pointer_44 = input_pointer_33.broadcast_to([128, 32])
    curr_input_pointer_46 = input_height_stride * input_height_offset
    curr_input_pointer_47 = gl.expand_dims(curr_input_pointer_46, 1)
    curr_input_pointer_48 = curr_input_pointer_47.broadcast_to([128, 32])
    curr_input_pointer_49 = gl.expand_dims(input_width_offset, 1)
    curr_input_pointer_50 = curr_input_pointer_49.broadcast_to([128, 32])
    curr_weight_pointer_51 = weight_pointer_42.broadcast_to([32, 128])
    input_mask_52 = batch_offset_17 < batch_dim
    input_mask_53 = gl.expand_dims(input_mask_52, 1)
    input_mask_56 = input_mask_53.broadcast_to([128, 32])
    input_mask_57 = input_height_offset >= 0
    input_mask_58 = gl.expand_dims(input_mask_57, 1)
    input_mask_59 = input_mask_58.broadcast_to([128, 32])
    input_mask_61 = input_height_offset < in_height
    input_mask_62 = gl.expand_dims(input_mask_61, 1)
    input_mask_63 = input_mask_62.broadcast_to([128, 32])
    input_mask_64 = input_width_offset >= 0
    input_mask_65 = gl.expand_dims(input_mask_64, 1)
    input_mask_66 = input_mask_65.broadcast_to([128, 32])
    input_mask_68 = input_width_offset < in_width
    input_mask_69 = gl.expand_dims(input_mask_68, 1)
    input_mask_70 = input_mask_69.broadcast_to([128, 32])
    weight_mask_71 = output_feat_offset_21 < out_feat_dim
    weight_mask_72 = gl.expand_dims(weight_mask_71, 0)
    weight_mask_73 = weight_mask_72.broadcast_to([32, 128])
    twill_n = (in_feat_dim - 0 + 32 - 1) // 32
    weight_block_457_st = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    accum_458 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
    input_feat_offset_431 = (0 + (0 - 0) * 32) + input_feat_offset_43  # load1_weight_block: stage 0, partition 0 (group 0)
    input_mask_443 = input_feat_offset_431 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_451 = gl.expand_dims(input_mask_443, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_452 = weight_mask_451.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_453 = weight_mask_452 & weight_mask_73  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    input_feat_offset_430 = (0 + (0 - 0) * 32) + input_feat_offset  # load0_input_block: stage 0, partition 0 (group 0)
    input_mask_442 = input_feat_offset_430 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_444 = gl.expand_dims(input_mask_442, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_445 = input_mask_444.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_446 = input_mask_56 & input_mask_445  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_447 = input_mask_446 & input_mask_59  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_448 = input_mask_447 & input_mask_63  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_449 = input_mask_448 & input_mask_66  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_450 = input_mask_449 & input_mask_70  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    curr_weight_pointer_438 = weight_in_feat_stride * input_feat_offset_431  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_439 = gl.expand_dims(curr_weight_pointer_438, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_440 = curr_weight_pointer_439.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_441 = curr_weight_pointer_51 + curr_weight_pointer_440  # load1_weight_block: stage 0, partition 0 (group 0)
    weight_block = gl.load(curr_weight_pointer_441, mask=weight_mask_453)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_input_pointer_432 = input_in_feat_stride * input_feat_offset_430  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_433 = gl.expand_dims(curr_input_pointer_432, 0)  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_434 = curr_input_pointer_433.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_435 = curr_input_pointer_44 + curr_input_pointer_434  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_436 = curr_input_pointer_435 + curr_input_pointer_48  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_437 = curr_input_pointer_436 + curr_input_pointer_50  # load0_input_block: stage 0, partition 0 (group 0)
    input_block = gl.load(curr_input_pointer_437, mask=input_mask_450)  # load0_input_block: stage 0, partition 0 (group 0)
    accum_458_p1 = accum_458
    input_block_p1 = input_block
    weight_block_p1 = weight_block
    for twill_b in range(1, twill_n):
        input_feat_offset_429 = (0 + (twill_b - 0) * 32)  # load1_weight_block: stage 0, partition 0 (group 0)
        input_feat_offset_431 = input_feat_offset_429 + input_feat_offset_43  # load1_weight_block: stage 0, partition 0 (group 0)
        input_mask_443 = input_feat_offset_431 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_451 = gl.expand_dims(input_mask_443, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_452 = weight_mask_451.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_453 = weight_mask_452 & weight_mask_73  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        input_feat_offset_428 = (0 + (twill_b - 0) * 32)  # load0_input_block: stage 0, partition 0 (group 0)
        input_feat_offset_430 = input_feat_offset_428 + input_feat_offset  # load0_input_block: stage 0, partition 0 (group 0)
        input_mask_442 = input_feat_offset_430 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_444 = gl.expand_dims(input_mask_442, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_445 = input_mask_444.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_446 = input_mask_56 & input_mask_445  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_447 = input_mask_446 & input_mask_59  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_448 = input_mask_447 & input_mask_63  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_449 = input_mask_448 & input_mask_66  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_450 = input_mask_449 & input_mask_70  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        curr_weight_pointer_438 = weight_in_feat_stride * input_feat_offset_431  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_439 = gl.expand_dims(curr_weight_pointer_438, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_440 = curr_weight_pointer_439.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_441 = curr_weight_pointer_51 + curr_weight_pointer_440  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block = gl.load(curr_weight_pointer_441, mask=weight_mask_453)  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_456 = weight_block_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
        weight_block_457 = weight_block_457_st.index((twill_b - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        weight_block_457.store(weight_block_456)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
        curr_input_pointer_432 = input_in_feat_stride * input_feat_offset_430  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_433 = gl.expand_dims(curr_input_pointer_432, 0)  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_434 = curr_input_pointer_433.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_435 = curr_input_pointer_44 + curr_input_pointer_434  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_436 = curr_input_pointer_435 + curr_input_pointer_48  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_437 = curr_input_pointer_436 + curr_input_pointer_50  # load0_input_block: stage 0, partition 0 (group 0)
        input_block = gl.load(curr_input_pointer_437, mask=input_mask_450)  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_454 = gl.convert_layout(input_block_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
        input_block_455 = input_block_454.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
        tok_accum_458 = warpgroup_mma(input_block_455, weight_block_457, accum_458_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
        accum_458 = warpgroup_mma_wait(0, deps=(tok_accum_458,))
        accum_458_p1 = accum_458
        input_block_p1 = input_block
        weight_block_p1 = weight_block
    weight_block_456 = weight_block_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
    weight_block_457 = weight_block_457_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    weight_block_457.store(weight_block_456)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
    input_block_454 = gl.convert_layout(input_block_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
    input_block_455 = input_block_454.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
    tok_accum_458 = warpgroup_mma(input_block_455, weight_block_457, accum_458_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
    accum_458 = warpgroup_mma_wait(0, deps=(tok_accum_458,))
    accum_458_p1 = accum_458
    input_block_p1 = input_block
    weight_block_p1 = weight_block
    weight_block_457_st._keep_alive()
    twill_base += twill_n
    input_feat_offset_74 = gl.arange(0, 32, layout=L4)
    input_feat_offset_75 = gl.arange(0, 32, layout=L5)
    input_height_offset_76 = output_height_offset + -1
    curr_input_pointer_78 = input_pointer_33.broadcast_to([128, 32])
    curr_input_pointer_80 = input_height_stride * input_height_offset_76
    curr_input_pointer_81 = gl.expand_dims(curr_input_pointer_80, 1)
    curr_input_pointer_82 = curr_input_pointer_81.broadcast_to([128, 32])
    curr_input_pointer_83 = gl.expand_dims(output_width_offset, 1)
    curr_input_pointer_84 = curr_input_pointer_83.broadcast_to([128, 32])
    curr_weight_pointer_86 = weight_pointer_42.broadcast_to([32, 128])
    input_mask_88 = batch_offset_17 < batch_dim
    input_mask_89 = gl.expand_dims(input_mask_88, 1)
    input_mask_92 = input_mask_89.broadcast_to([128, 32])
    input_mask_93 = input_height_offset_76 >= 0
    input_mask_94 = gl.expand_dims(input_mask_93, 1)
    input_mask_95 = input_mask_94.broadcast_to([128, 32])
    input_mask_97 = input_height_offset_76 < in_height
    input_mask_98 = gl.expand_dims(input_mask_97, 1)
    input_mask_99 = input_mask_98.broadcast_to([128, 32])
    input_mask_100 = output_width_offset >= 0
    input_mask_101 = gl.expand_dims(input_mask_100, 1)
    input_mask_102 = input_mask_101.broadcast_to([128, 32])
    input_mask_104 = output_width_offset < in_width
    input_mask_105 = gl.expand_dims(input_mask_104, 1)
    input_mask_106 = input_mask_105.broadcast_to([128, 32])
    weight_mask_108 = output_feat_offset_21 < out_feat_dim
    weight_mask_109 = gl.expand_dims(weight_mask_108, 0)
    weight_mask_110 = weight_mask_109.broadcast_to([32, 128])
    twill_n = (in_feat_dim - 0 + 32 - 1) // 32
    weight_block_459_l1_st = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    accum_460_l1 = accum_458_p1
    input_feat_offset_432_l1 = (0 + (0 - 0) * 32) + input_feat_offset_75  # load1_weight_block: stage 0, partition 0 (group 0)
    input_mask_445_l1 = input_feat_offset_432_l1 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_453_l1 = gl.expand_dims(input_mask_445_l1, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_454_l1 = weight_mask_453_l1.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_455_l1 = weight_mask_454_l1 & weight_mask_110  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    input_feat_offset_431_l1 = (0 + (0 - 0) * 32) + input_feat_offset_74  # load0_input_block: stage 0, partition 0 (group 0)
    input_mask_444_l1 = input_feat_offset_431_l1 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_446_l1 = gl.expand_dims(input_mask_444_l1, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_447_l1 = input_mask_446_l1.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_448_l1 = input_mask_92 & input_mask_447_l1  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_449_l1 = input_mask_448_l1 & input_mask_95  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_450_l1 = input_mask_449_l1 & input_mask_99  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_451_l1 = input_mask_450_l1 & input_mask_102  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_452_l1 = input_mask_451_l1 & input_mask_106  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    curr_weight_pointer_439_l1 = weight_in_feat_stride * input_feat_offset_432_l1  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_440_l1 = gl.expand_dims(curr_weight_pointer_439_l1, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_441_l1 = curr_weight_pointer_440_l1.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_442_l1 = curr_weight_pointer_86 + curr_weight_pointer_441_l1  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_443_l1 = curr_weight_pointer_442_l1 + 1  # load1_weight_block: stage 0, partition 0 (group 0)
    weight_block_l1 = gl.load(curr_weight_pointer_443_l1, mask=weight_mask_455_l1)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_input_pointer_433_l1 = input_in_feat_stride * input_feat_offset_431_l1  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_434_l1 = gl.expand_dims(curr_input_pointer_433_l1, 0)  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_435_l1 = curr_input_pointer_434_l1.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_436_l1 = curr_input_pointer_78 + curr_input_pointer_435_l1  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_437_l1 = curr_input_pointer_436_l1 + curr_input_pointer_82  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_438_l1 = curr_input_pointer_437_l1 + curr_input_pointer_84  # load0_input_block: stage 0, partition 0 (group 0)
    input_block_l1 = gl.load(curr_input_pointer_438_l1, mask=input_mask_452_l1)  # load0_input_block: stage 0, partition 0 (group 0)
    accum_460_l1_p1 = accum_460_l1
    input_block_l1_p1 = input_block_l1
    weight_block_l1_p1 = weight_block_l1
    for twill_b in range(1, twill_n):
        input_feat_offset_430_l1 = (0 + (twill_b - 0) * 32)  # load1_weight_block: stage 0, partition 0 (group 0)
        input_feat_offset_432_l1 = input_feat_offset_430_l1 + input_feat_offset_75  # load1_weight_block: stage 0, partition 0 (group 0)
        input_mask_445_l1 = input_feat_offset_432_l1 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_453_l1 = gl.expand_dims(input_mask_445_l1, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_454_l1 = weight_mask_453_l1.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_455_l1 = weight_mask_454_l1 & weight_mask_110  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        input_feat_offset_429_l1 = (0 + (twill_b - 0) * 32)  # load0_input_block: stage 0, partition 0 (group 0)
        input_feat_offset_431_l1 = input_feat_offset_429_l1 + input_feat_offset_74  # load0_input_block: stage 0, partition 0 (group 0)
        input_mask_444_l1 = input_feat_offset_431_l1 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_446_l1 = gl.expand_dims(input_mask_444_l1, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_447_l1 = input_mask_446_l1.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_448_l1 = input_mask_92 & input_mask_447_l1  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_449_l1 = input_mask_448_l1 & input_mask_95  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_450_l1 = input_mask_449_l1 & input_mask_99  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_451_l1 = input_mask_450_l1 & input_mask_102  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_452_l1 = input_mask_451_l1 & input_mask_106  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        curr_weight_pointer_439_l1 = weight_in_feat_stride * input_feat_offset_432_l1  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_440_l1 = gl.expand_dims(curr_weight_pointer_439_l1, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_441_l1 = curr_weight_pointer_440_l1.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_442_l1 = curr_weight_pointer_86 + curr_weight_pointer_441_l1  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_443_l1 = curr_weight_pointer_442_l1 + 1  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_l1 = gl.load(curr_weight_pointer_443_l1, mask=weight_mask_455_l1)  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_458_l1 = weight_block_l1_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
        weight_block_459_l1 = weight_block_459_l1_st.index((twill_b - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        weight_block_459_l1.store(weight_block_458_l1)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
        curr_input_pointer_433_l1 = input_in_feat_stride * input_feat_offset_431_l1  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_434_l1 = gl.expand_dims(curr_input_pointer_433_l1, 0)  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_435_l1 = curr_input_pointer_434_l1.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_436_l1 = curr_input_pointer_78 + curr_input_pointer_435_l1  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_437_l1 = curr_input_pointer_436_l1 + curr_input_pointer_82  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_438_l1 = curr_input_pointer_437_l1 + curr_input_pointer_84  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_l1 = gl.load(curr_input_pointer_438_l1, mask=input_mask_452_l1)  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_456_l1 = gl.convert_layout(input_block_l1_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
        input_block_457_l1 = input_block_456_l1.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
        tok_accum_460_l1 = warpgroup_mma(input_block_457_l1, weight_block_459_l1, accum_460_l1_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
        accum_460_l1 = warpgroup_mma_wait(0, deps=(tok_accum_460_l1,))
        accum_460_l1_p1 = accum_460_l1
        input_block_l1_p1 = input_block_l1
        weight_block_l1_p1 = weight_block_l1
    weight_block_458_l1 = weight_block_l1_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
    weight_block_459_l1 = weight_block_459_l1_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    weight_block_459_l1.store(weight_block_458_l1)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
    input_block_456_l1 = gl.convert_layout(input_block_l1_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
    input_block_457_l1 = input_block_456_l1.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
    tok_accum_460_l1 = warpgroup_mma(input_block_457_l1, weight_block_459_l1, accum_460_l1_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
    accum_460_l1 = warpgroup_mma_wait(0, deps=(tok_accum_460_l1,))
    accum_460_l1_p1 = accum_460_l1
    input_block_l1_p1 = input_block_l1
    weight_block_l1_p1 = weight_block_l1
    weight_block_459_l1_st._keep_alive()
    twill_base += twill_n
    input_feat_offset_112 = gl.arange(0, 32, layout=L4)
    input_feat_offset_113 = gl.arange(0, 32, layout=L5)
    input_height_offset_114 = output_height_offset + -1
    input_width_offset_115 = output_width_offset + 1
    curr_input_pointer_117 = input_pointer_33.broadcast_to([128, 32])
    curr_input_pointer_119 = input_height_stride * input_height_offset_114
    curr_input_pointer_120 = gl.expand_dims(curr_input_pointer_119, 1)
    curr_input_pointer_121 = curr_input_pointer_120.broadcast_to([128, 32])
    curr_input_pointer_122 = gl.expand_dims(input_width_offset_115, 1)
    curr_input_pointer_123 = curr_input_pointer_122.broadcast_to([128, 32])
    curr_weight_pointer_125 = weight_pointer_42.broadcast_to([32, 128])
    input_mask_127 = batch_offset_17 < batch_dim
    input_mask_128 = gl.expand_dims(input_mask_127, 1)
    input_mask_131 = input_mask_128.broadcast_to([128, 32])
    input_mask_132 = input_height_offset_114 >= 0
    input_mask_133 = gl.expand_dims(input_mask_132, 1)
    input_mask_134 = input_mask_133.broadcast_to([128, 32])
    input_mask_136 = input_height_offset_114 < in_height
    input_mask_137 = gl.expand_dims(input_mask_136, 1)
    input_mask_138 = input_mask_137.broadcast_to([128, 32])
    input_mask_139 = input_width_offset_115 >= 0
    input_mask_140 = gl.expand_dims(input_mask_139, 1)
    input_mask_141 = input_mask_140.broadcast_to([128, 32])
    input_mask_143 = input_width_offset_115 < in_width
    input_mask_144 = gl.expand_dims(input_mask_143, 1)
    input_mask_145 = input_mask_144.broadcast_to([128, 32])
    weight_mask_147 = output_feat_offset_21 < out_feat_dim
    weight_mask_148 = gl.expand_dims(weight_mask_147, 0)
    weight_mask_149 = weight_mask_148.broadcast_to([32, 128])
    twill_n = (in_feat_dim - 0 + 32 - 1) // 32
    weight_block_459_l2_st = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    accum_460_l2 = accum_460_l1_p1
    input_feat_offset_432_l2 = (0 + (0 - 0) * 32) + input_feat_offset_113  # load1_weight_block: stage 0, partition 0 (group 0)
    input_mask_445_l2 = input_feat_offset_432_l2 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_453_l2 = gl.expand_dims(input_mask_445_l2, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_454_l2 = weight_mask_453_l2.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_455_l2 = weight_mask_454_l2 & weight_mask_149  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    input_feat_offset_431_l2 = (0 + (0 - 0) * 32) + input_feat_offset_112  # load0_input_block: stage 0, partition 0 (group 0)
    input_mask_444_l2 = input_feat_offset_431_l2 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_446_l2 = gl.expand_dims(input_mask_444_l2, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_447_l2 = input_mask_446_l2.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_448_l2 = input_mask_131 & input_mask_447_l2  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_449_l2 = input_mask_448_l2 & input_mask_134  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_450_l2 = input_mask_449_l2 & input_mask_138  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_451_l2 = input_mask_450_l2 & input_mask_141  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_452_l2 = input_mask_451_l2 & input_mask_145  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    curr_weight_pointer_439_l2 = weight_in_feat_stride * input_feat_offset_432_l2  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_440_l2 = gl.expand_dims(curr_weight_pointer_439_l2, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_441_l2 = curr_weight_pointer_440_l2.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_442_l2 = curr_weight_pointer_125 + curr_weight_pointer_441_l2  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_443_l2 = curr_weight_pointer_442_l2 + 2  # load1_weight_block: stage 0, partition 0 (group 0)
    weight_block_l2 = gl.load(curr_weight_pointer_443_l2, mask=weight_mask_455_l2)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_input_pointer_433_l2 = input_in_feat_stride * input_feat_offset_431_l2  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_434_l2 = gl.expand_dims(curr_input_pointer_433_l2, 0)  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_435_l2 = curr_input_pointer_434_l2.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_436_l2 = curr_input_pointer_117 + curr_input_pointer_435_l2  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_437_l2 = curr_input_pointer_436_l2 + curr_input_pointer_121  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_438_l2 = curr_input_pointer_437_l2 + curr_input_pointer_123  # load0_input_block: stage 0, partition 0 (group 0)
    input_block_l2 = gl.load(curr_input_pointer_438_l2, mask=input_mask_452_l2)  # load0_input_block: stage 0, partition 0 (group 0)
    accum_460_l2_p1 = accum_460_l2
    input_block_l2_p1 = input_block_l2
    weight_block_l2_p1 = weight_block_l2
    for twill_b in range(1, twill_n):
        input_feat_offset_430_l2 = (0 + (twill_b - 0) * 32)  # load1_weight_block: stage 0, partition 0 (group 0)
        input_feat_offset_432_l2 = input_feat_offset_430_l2 + input_feat_offset_113  # load1_weight_block: stage 0, partition 0 (group 0)
        input_mask_445_l2 = input_feat_offset_432_l2 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_453_l2 = gl.expand_dims(input_mask_445_l2, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_454_l2 = weight_mask_453_l2.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_455_l2 = weight_mask_454_l2 & weight_mask_149  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        input_feat_offset_429_l2 = (0 + (twill_b - 0) * 32)  # load0_input_block: stage 0, partition 0 (group 0)
        input_feat_offset_431_l2 = input_feat_offset_429_l2 + input_feat_offset_112  # load0_input_block: stage 0, partition 0 (group 0)
        input_mask_444_l2 = input_feat_offset_431_l2 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_446_l2 = gl.expand_dims(input_mask_444_l2, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_447_l2 = input_mask_446_l2.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_448_l2 = input_mask_131 & input_mask_447_l2  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_449_l2 = input_mask_448_l2 & input_mask_134  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_450_l2 = input_mask_449_l2 & input_mask_138  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_451_l2 = input_mask_450_l2 & input_mask_141  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_452_l2 = input_mask_451_l2 & input_mask_145  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        curr_weight_pointer_439_l2 = weight_in_feat_stride * input_feat_offset_432_l2  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_440_l2 = gl.expand_dims(curr_weight_pointer_439_l2, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_441_l2 = curr_weight_pointer_440_l2.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_442_l2 = curr_weight_pointer_125 + curr_weight_pointer_441_l2  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_443_l2 = curr_weight_pointer_442_l2 + 2  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_l2 = gl.load(curr_weight_pointer_443_l2, mask=weight_mask_455_l2)  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_458_l2 = weight_block_l2_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
        weight_block_459_l2 = weight_block_459_l2_st.index((twill_b - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        weight_block_459_l2.store(weight_block_458_l2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
        curr_input_pointer_433_l2 = input_in_feat_stride * input_feat_offset_431_l2  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_434_l2 = gl.expand_dims(curr_input_pointer_433_l2, 0)  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_435_l2 = curr_input_pointer_434_l2.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_436_l2 = curr_input_pointer_117 + curr_input_pointer_435_l2  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_437_l2 = curr_input_pointer_436_l2 + curr_input_pointer_121  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_438_l2 = curr_input_pointer_437_l2 + curr_input_pointer_123  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_l2 = gl.load(curr_input_pointer_438_l2, mask=input_mask_452_l2)  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_456_l2 = gl.convert_layout(input_block_l2_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
        input_block_457_l2 = input_block_456_l2.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
        tok_accum_460_l2 = warpgroup_mma(input_block_457_l2, weight_block_459_l2, accum_460_l2_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
        accum_460_l2 = warpgroup_mma_wait(0, deps=(tok_accum_460_l2,))
        accum_460_l2_p1 = accum_460_l2
        input_block_l2_p1 = input_block_l2
        weight_block_l2_p1 = weight_block_l2
    weight_block_458_l2 = weight_block_l2_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
    weight_block_459_l2 = weight_block_459_l2_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    weight_block_459_l2.store(weight_block_458_l2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
    input_block_456_l2 = gl.convert_layout(input_block_l2_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
    input_block_457_l2 = input_block_456_l2.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
    tok_accum_460_l2 = warpgroup_mma(input_block_457_l2, weight_block_459_l2, accum_460_l2_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
    accum_460_l2 = warpgroup_mma_wait(0, deps=(tok_accum_460_l2,))
    accum_460_l2_p1 = accum_460_l2
    input_block_l2_p1 = input_block_l2
    weight_block_l2_p1 = weight_block_l2
    weight_block_459_l2_st._keep_alive()
    twill_base += twill_n
    input_feat_offset_151 = gl.arange(0, 32, layout=L4)
    input_feat_offset_152 = gl.arange(0, 32, layout=L5)
    input_width_offset_153 = output_width_offset + -1
    curr_input_pointer_155 = input_pointer_33.broadcast_to([128, 32])
    curr_input_pointer_157 = input_height_stride * output_height_offset
    curr_input_pointer_158 = gl.expand_dims(curr_input_pointer_157, 1)
    curr_input_pointer_159 = curr_input_pointer_158.broadcast_to([128, 32])
    curr_input_pointer_160 = gl.expand_dims(input_width_offset_153, 1)
    curr_input_pointer_161 = curr_input_pointer_160.broadcast_to([128, 32])
    curr_weight_pointer_163 = weight_pointer_42.broadcast_to([32, 128])
    input_mask_166 = batch_offset_17 < batch_dim
    input_mask_167 = gl.expand_dims(input_mask_166, 1)
    input_mask_170 = input_mask_167.broadcast_to([128, 32])
    input_mask_171 = output_height_offset >= 0
    input_mask_172 = gl.expand_dims(input_mask_171, 1)
    input_mask_173 = input_mask_172.broadcast_to([128, 32])
    input_mask_175 = output_height_offset < in_height
    input_mask_176 = gl.expand_dims(input_mask_175, 1)
    input_mask_177 = input_mask_176.broadcast_to([128, 32])
    input_mask_178 = input_width_offset_153 >= 0
    input_mask_179 = gl.expand_dims(input_mask_178, 1)
    input_mask_180 = input_mask_179.broadcast_to([128, 32])
    input_mask_182 = input_width_offset_153 < in_width
    input_mask_183 = gl.expand_dims(input_mask_182, 1)
    input_mask_184 = input_mask_183.broadcast_to([128, 32])
    weight_mask_186 = output_feat_offset_21 < out_feat_dim
    weight_mask_187 = gl.expand_dims(weight_mask_186, 0)
    weight_mask_188 = weight_mask_187.broadcast_to([32, 128])
    twill_n = (in_feat_dim - 0 + 32 - 1) // 32
    weight_block_459_l3_st = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    accum_460_l3 = accum_460_l2_p1
    input_feat_offset_432_l3 = (0 + (0 - 0) * 32) + input_feat_offset_152  # load1_weight_block: stage 0, partition 0 (group 0)
    input_mask_445_l3 = input_feat_offset_432_l3 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_453_l3 = gl.expand_dims(input_mask_445_l3, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_454_l3 = weight_mask_453_l3.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_455_l3 = weight_mask_454_l3 & weight_mask_188  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    input_feat_offset_431_l3 = (0 + (0 - 0) * 32) + input_feat_offset_151  # load0_input_block: stage 0, partition 0 (group 0)
    input_mask_444_l3 = input_feat_offset_431_l3 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_446_l3 = gl.expand_dims(input_mask_444_l3, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_447_l3 = input_mask_446_l3.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_448_l3 = input_mask_170 & input_mask_447_l3  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_449_l3 = input_mask_448_l3 & input_mask_173  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_450_l3 = input_mask_449_l3 & input_mask_177  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_451_l3 = input_mask_450_l3 & input_mask_180  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_452_l3 = input_mask_451_l3 & input_mask_184  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    curr_weight_pointer_439_l3 = weight_in_feat_stride * input_feat_offset_432_l3  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_440_l3 = gl.expand_dims(curr_weight_pointer_439_l3, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_441_l3 = curr_weight_pointer_440_l3.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_442_l3 = curr_weight_pointer_163 + curr_weight_pointer_441_l3  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_443_l3 = curr_weight_pointer_442_l3 + weight_height_stride  # load1_weight_block: stage 0, partition 0 (group 0)
    weight_block_l3 = gl.load(curr_weight_pointer_443_l3, mask=weight_mask_455_l3)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_input_pointer_433_l3 = input_in_feat_stride * input_feat_offset_431_l3  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_434_l3 = gl.expand_dims(curr_input_pointer_433_l3, 0)  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_435_l3 = curr_input_pointer_434_l3.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_436_l3 = curr_input_pointer_155 + curr_input_pointer_435_l3  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_437_l3 = curr_input_pointer_436_l3 + curr_input_pointer_159  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_438_l3 = curr_input_pointer_437_l3 + curr_input_pointer_161  # load0_input_block: stage 0, partition 0 (group 0)
    input_block_l3 = gl.load(curr_input_pointer_438_l3, mask=input_mask_452_l3)  # load0_input_block: stage 0, partition 0 (group 0)
    accum_460_l3_p1 = accum_460_l3
    input_block_l3_p1 = input_block_l3
    weight_block_l3_p1 = weight_block_l3
    for twill_b in range(1, twill_n):
        input_feat_offset_430_l3 = (0 + (twill_b - 0) * 32)  # load1_weight_block: stage 0, partition 0 (group 0)
        input_feat_offset_432_l3 = input_feat_offset_430_l3 + input_feat_offset_152  # load1_weight_block: stage 0, partition 0 (group 0)
        input_mask_445_l3 = input_feat_offset_432_l3 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_453_l3 = gl.expand_dims(input_mask_445_l3, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_454_l3 = weight_mask_453_l3.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_455_l3 = weight_mask_454_l3 & weight_mask_188  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        input_feat_offset_429_l3 = (0 + (twill_b - 0) * 32)  # load0_input_block: stage 0, partition 0 (group 0)
        input_feat_offset_431_l3 = input_feat_offset_429_l3 + input_feat_offset_151  # load0_input_block: stage 0, partition 0 (group 0)
        input_mask_444_l3 = input_feat_offset_431_l3 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_446_l3 = gl.expand_dims(input_mask_444_l3, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_447_l3 = input_mask_446_l3.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_448_l3 = input_mask_170 & input_mask_447_l3  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_449_l3 = input_mask_448_l3 & input_mask_173  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_450_l3 = input_mask_449_l3 & input_mask_177  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_451_l3 = input_mask_450_l3 & input_mask_180  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_452_l3 = input_mask_451_l3 & input_mask_184  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        curr_weight_pointer_439_l3 = weight_in_feat_stride * input_feat_offset_432_l3  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_440_l3 = gl.expand_dims(curr_weight_pointer_439_l3, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_441_l3 = curr_weight_pointer_440_l3.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_442_l3 = curr_weight_pointer_163 + curr_weight_pointer_441_l3  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_443_l3 = curr_weight_pointer_442_l3 + weight_height_stride  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_l3 = gl.load(curr_weight_pointer_443_l3, mask=weight_mask_455_l3)  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_458_l3 = weight_block_l3_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
        weight_block_459_l3 = weight_block_459_l3_st.index((twill_b - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        weight_block_459_l3.store(weight_block_458_l3)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
        curr_input_pointer_433_l3 = input_in_feat_stride * input_feat_offset_431_l3  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_434_l3 = gl.expand_dims(curr_input_pointer_433_l3, 0)  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_435_l3 = curr_input_pointer_434_l3.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_436_l3 = curr_input_pointer_155 + curr_input_pointer_435_l3  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_437_l3 = curr_input_pointer_436_l3 + curr_input_pointer_159  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_438_l3 = curr_input_pointer_437_l3 + curr_input_pointer_161  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_l3 = gl.load(curr_input_pointer_438_l3, mask=input_mask_452_l3)  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_456_l3 = gl.convert_layout(input_block_l3_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
        input_block_457_l3 = input_block_456_l3.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
        tok_accum_460_l3 = warpgroup_mma(input_block_457_l3, weight_block_459_l3, accum_460_l3_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
        accum_460_l3 = warpgroup_mma_wait(0, deps=(tok_accum_460_l3,))
        accum_460_l3_p1 = accum_460_l3
        input_block_l3_p1 = input_block_l3
        weight_block_l3_p1 = weight_block_l3
    weight_block_458_l3 = weight_block_l3_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
    weight_block_459_l3 = weight_block_459_l3_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    weight_block_459_l3.store(weight_block_458_l3)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
    input_block_456_l3 = gl.convert_layout(input_block_l3_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
    input_block_457_l3 = input_block_456_l3.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
    tok_accum_460_l3 = warpgroup_mma(input_block_457_l3, weight_block_459_l3, accum_460_l3_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
    accum_460_l3 = warpgroup_mma_wait(0, deps=(tok_accum_460_l3,))
    accum_460_l3_p1 = accum_460_l3
    input_block_l3_p1 = input_block_l3
    weight_block_l3_p1 = weight_block_l3
    weight_block_459_l3_st._keep_alive()
    twill_base += twill_n
    input_feat_offset_190 = gl.arange(0, 32, layout=L4)
    input_feat_offset_191 = gl.arange(0, 32, layout=L5)
    curr_input_pointer_193 = input_pointer_33.broadcast_to([128, 32])
    curr_input_pointer_195 = input_height_stride * output_height_offset
    curr_input_pointer_196 = gl.expand_dims(curr_input_pointer_195, 1)
    curr_input_pointer_197 = curr_input_pointer_196.broadcast_to([128, 32])
    curr_input_pointer_198 = gl.expand_dims(output_width_offset, 1)
    curr_input_pointer_199 = curr_input_pointer_198.broadcast_to([128, 32])
    curr_weight_pointer_201 = weight_pointer_42.broadcast_to([32, 128])
    input_mask_204 = batch_offset_17 < batch_dim
    input_mask_205 = gl.expand_dims(input_mask_204, 1)
    input_mask_208 = input_mask_205.broadcast_to([128, 32])
    input_mask_209 = output_height_offset >= 0
    input_mask_210 = gl.expand_dims(input_mask_209, 1)
    input_mask_211 = input_mask_210.broadcast_to([128, 32])
    input_mask_213 = output_height_offset < in_height
    input_mask_214 = gl.expand_dims(input_mask_213, 1)
    input_mask_215 = input_mask_214.broadcast_to([128, 32])
    input_mask_216 = output_width_offset >= 0
    input_mask_217 = gl.expand_dims(input_mask_216, 1)
    input_mask_218 = input_mask_217.broadcast_to([128, 32])
    input_mask_220 = output_width_offset < in_width
    input_mask_221 = gl.expand_dims(input_mask_220, 1)
    input_mask_222 = input_mask_221.broadcast_to([128, 32])
    weight_mask_224 = output_feat_offset_21 < out_feat_dim
    weight_mask_225 = gl.expand_dims(weight_mask_224, 0)
    weight_mask_226 = weight_mask_225.broadcast_to([32, 128])
    twill_n = (in_feat_dim - 0 + 32 - 1) // 32
    weight_block_460_l4_st = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    accum_461_l4 = accum_460_l3_p1
    input_feat_offset_432_l4 = (0 + (0 - 0) * 32) + input_feat_offset_191  # load1_weight_block: stage 0, partition 0 (group 0)
    input_mask_446_l4 = input_feat_offset_432_l4 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_454_l4 = gl.expand_dims(input_mask_446_l4, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_455_l4 = weight_mask_454_l4.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_456_l4 = weight_mask_455_l4 & weight_mask_226  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    input_feat_offset_431_l4 = (0 + (0 - 0) * 32) + input_feat_offset_190  # load0_input_block: stage 0, partition 0 (group 0)
    input_mask_445_l4 = input_feat_offset_431_l4 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_447_l4 = gl.expand_dims(input_mask_445_l4, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_448_l4 = input_mask_447_l4.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_449_l4 = input_mask_208 & input_mask_448_l4  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_450_l4 = input_mask_449_l4 & input_mask_211  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_451_l4 = input_mask_450_l4 & input_mask_215  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_452_l4 = input_mask_451_l4 & input_mask_218  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_453_l4 = input_mask_452_l4 & input_mask_222  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    curr_weight_pointer_439_l4 = weight_in_feat_stride * input_feat_offset_432_l4  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_440_l4 = gl.expand_dims(curr_weight_pointer_439_l4, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_441_l4 = curr_weight_pointer_440_l4.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_442_l4 = curr_weight_pointer_201 + curr_weight_pointer_441_l4  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_443_l4 = curr_weight_pointer_442_l4 + weight_height_stride  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_444_l4 = curr_weight_pointer_443_l4 + 1  # load1_weight_block: stage 0, partition 0 (group 0)
    weight_block_l4 = gl.load(curr_weight_pointer_444_l4, mask=weight_mask_456_l4)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_input_pointer_433_l4 = input_in_feat_stride * input_feat_offset_431_l4  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_434_l4 = gl.expand_dims(curr_input_pointer_433_l4, 0)  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_435_l4 = curr_input_pointer_434_l4.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_436_l4 = curr_input_pointer_193 + curr_input_pointer_435_l4  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_437_l4 = curr_input_pointer_436_l4 + curr_input_pointer_197  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_438_l4 = curr_input_pointer_437_l4 + curr_input_pointer_199  # load0_input_block: stage 0, partition 0 (group 0)
    input_block_l4 = gl.load(curr_input_pointer_438_l4, mask=input_mask_453_l4)  # load0_input_block: stage 0, partition 0 (group 0)
    accum_461_l4_p1 = accum_461_l4
    input_block_l4_p1 = input_block_l4
    weight_block_l4_p1 = weight_block_l4
    for twill_b in range(1, twill_n):
        input_feat_offset_430_l4 = (0 + (twill_b - 0) * 32)  # load1_weight_block: stage 0, partition 0 (group 0)
        input_feat_offset_432_l4 = input_feat_offset_430_l4 + input_feat_offset_191  # load1_weight_block: stage 0, partition 0 (group 0)
        input_mask_446_l4 = input_feat_offset_432_l4 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_454_l4 = gl.expand_dims(input_mask_446_l4, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_455_l4 = weight_mask_454_l4.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_456_l4 = weight_mask_455_l4 & weight_mask_226  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        input_feat_offset_429_l4 = (0 + (twill_b - 0) * 32)  # load0_input_block: stage 0, partition 0 (group 0)
        input_feat_offset_431_l4 = input_feat_offset_429_l4 + input_feat_offset_190  # load0_input_block: stage 0, partition 0 (group 0)
        input_mask_445_l4 = input_feat_offset_431_l4 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_447_l4 = gl.expand_dims(input_mask_445_l4, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_448_l4 = input_mask_447_l4.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_449_l4 = input_mask_208 & input_mask_448_l4  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_450_l4 = input_mask_449_l4 & input_mask_211  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_451_l4 = input_mask_450_l4 & input_mask_215  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_452_l4 = input_mask_451_l4 & input_mask_218  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_453_l4 = input_mask_452_l4 & input_mask_222  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        curr_weight_pointer_439_l4 = weight_in_feat_stride * input_feat_offset_432_l4  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_440_l4 = gl.expand_dims(curr_weight_pointer_439_l4, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_441_l4 = curr_weight_pointer_440_l4.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_442_l4 = curr_weight_pointer_201 + curr_weight_pointer_441_l4  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_443_l4 = curr_weight_pointer_442_l4 + weight_height_stride  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_444_l4 = curr_weight_pointer_443_l4 + 1  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_l4 = gl.load(curr_weight_pointer_444_l4, mask=weight_mask_456_l4)  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_459_l4 = weight_block_l4_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
        weight_block_460_l4 = weight_block_460_l4_st.index((twill_b - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        weight_block_460_l4.store(weight_block_459_l4)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
        curr_input_pointer_433_l4 = input_in_feat_stride * input_feat_offset_431_l4  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_434_l4 = gl.expand_dims(curr_input_pointer_433_l4, 0)  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_435_l4 = curr_input_pointer_434_l4.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_436_l4 = curr_input_pointer_193 + curr_input_pointer_435_l4  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_437_l4 = curr_input_pointer_436_l4 + curr_input_pointer_197  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_438_l4 = curr_input_pointer_437_l4 + curr_input_pointer_199  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_l4 = gl.load(curr_input_pointer_438_l4, mask=input_mask_453_l4)  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_457_l4 = gl.convert_layout(input_block_l4_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
        input_block_458_l4 = input_block_457_l4.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
        tok_accum_461_l4 = warpgroup_mma(input_block_458_l4, weight_block_460_l4, accum_461_l4_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
        accum_461_l4 = warpgroup_mma_wait(0, deps=(tok_accum_461_l4,))
        accum_461_l4_p1 = accum_461_l4
        input_block_l4_p1 = input_block_l4
        weight_block_l4_p1 = weight_block_l4
    weight_block_459_l4 = weight_block_l4_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
    weight_block_460_l4 = weight_block_460_l4_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    weight_block_460_l4.store(weight_block_459_l4)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
    input_block_457_l4 = gl.convert_layout(input_block_l4_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
    input_block_458_l4 = input_block_457_l4.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
    tok_accum_461_l4 = warpgroup_mma(input_block_458_l4, weight_block_460_l4, accum_461_l4_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
    accum_461_l4 = warpgroup_mma_wait(0, deps=(tok_accum_461_l4,))
    accum_461_l4_p1 = accum_461_l4
    input_block_l4_p1 = input_block_l4
    weight_block_l4_p1 = weight_block_l4
    weight_block_460_l4_st._keep_alive()
    twill_base += twill_n
    input_feat_offset_228 = gl.arange(0, 32, layout=L4)
    input_feat_offset_229 = gl.arange(0, 32, layout=L5)
    input_width_offset_230 = output_width_offset + 1
    curr_input_pointer_232 = input_pointer_33.broadcast_to([128, 32])
    curr_input_pointer_234 = input_height_stride * output_height_offset
    curr_input_pointer_235 = gl.expand_dims(curr_input_pointer_234, 1)
    curr_input_pointer_236 = curr_input_pointer_235.broadcast_to([128, 32])
    curr_input_pointer_237 = gl.expand_dims(input_width_offset_230, 1)
    curr_input_pointer_238 = curr_input_pointer_237.broadcast_to([128, 32])
    curr_weight_pointer_240 = weight_pointer_42.broadcast_to([32, 128])
    input_mask_243 = batch_offset_17 < batch_dim
    input_mask_244 = gl.expand_dims(input_mask_243, 1)
    input_mask_247 = input_mask_244.broadcast_to([128, 32])
    input_mask_248 = output_height_offset >= 0
    input_mask_249 = gl.expand_dims(input_mask_248, 1)
    input_mask_250 = input_mask_249.broadcast_to([128, 32])
    input_mask_252 = output_height_offset < in_height
    input_mask_253 = gl.expand_dims(input_mask_252, 1)
    input_mask_254 = input_mask_253.broadcast_to([128, 32])
    input_mask_255 = input_width_offset_230 >= 0
    input_mask_256 = gl.expand_dims(input_mask_255, 1)
    input_mask_257 = input_mask_256.broadcast_to([128, 32])
    input_mask_259 = input_width_offset_230 < in_width
    input_mask_260 = gl.expand_dims(input_mask_259, 1)
    input_mask_261 = input_mask_260.broadcast_to([128, 32])
    weight_mask_263 = output_feat_offset_21 < out_feat_dim
    weight_mask_264 = gl.expand_dims(weight_mask_263, 0)
    weight_mask_265 = weight_mask_264.broadcast_to([32, 128])
    twill_n = (in_feat_dim - 0 + 32 - 1) // 32
    weight_block_460_l5_st = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    accum_461_l5 = accum_461_l4_p1
    input_feat_offset_432_l5 = (0 + (0 - 0) * 32) + input_feat_offset_229  # load1_weight_block: stage 0, partition 0 (group 0)
    input_mask_446_l5 = input_feat_offset_432_l5 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_454_l5 = gl.expand_dims(input_mask_446_l5, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_455_l5 = weight_mask_454_l5.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_456_l5 = weight_mask_455_l5 & weight_mask_265  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    input_feat_offset_431_l5 = (0 + (0 - 0) * 32) + input_feat_offset_228  # load0_input_block: stage 0, partition 0 (group 0)
    input_mask_445_l5 = input_feat_offset_431_l5 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_447_l5 = gl.expand_dims(input_mask_445_l5, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_448_l5 = input_mask_447_l5.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_449_l5 = input_mask_247 & input_mask_448_l5  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_450_l5 = input_mask_449_l5 & input_mask_250  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_451_l5 = input_mask_450_l5 & input_mask_254  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_452_l5 = input_mask_451_l5 & input_mask_257  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_453_l5 = input_mask_452_l5 & input_mask_261  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    curr_weight_pointer_439_l5 = weight_in_feat_stride * input_feat_offset_432_l5  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_440_l5 = gl.expand_dims(curr_weight_pointer_439_l5, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_441_l5 = curr_weight_pointer_440_l5.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_442_l5 = curr_weight_pointer_240 + curr_weight_pointer_441_l5  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_443_l5 = curr_weight_pointer_442_l5 + weight_height_stride  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_444_l5 = curr_weight_pointer_443_l5 + 2  # load1_weight_block: stage 0, partition 0 (group 0)
    weight_block_l5 = gl.load(curr_weight_pointer_444_l5, mask=weight_mask_456_l5)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_input_pointer_433_l5 = input_in_feat_stride * input_feat_offset_431_l5  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_434_l5 = gl.expand_dims(curr_input_pointer_433_l5, 0)  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_435_l5 = curr_input_pointer_434_l5.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_436_l5 = curr_input_pointer_232 + curr_input_pointer_435_l5  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_437_l5 = curr_input_pointer_436_l5 + curr_input_pointer_236  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_438_l5 = curr_input_pointer_437_l5 + curr_input_pointer_238  # load0_input_block: stage 0, partition 0 (group 0)
    input_block_l5 = gl.load(curr_input_pointer_438_l5, mask=input_mask_453_l5)  # load0_input_block: stage 0, partition 0 (group 0)
    accum_461_l5_p1 = accum_461_l5
    input_block_l5_p1 = input_block_l5
    weight_block_l5_p1 = weight_block_l5
    for twill_b in range(1, twill_n):
        input_feat_offset_430_l5 = (0 + (twill_b - 0) * 32)  # load1_weight_block: stage 0, partition 0 (group 0)
        input_feat_offset_432_l5 = input_feat_offset_430_l5 + input_feat_offset_229  # load1_weight_block: stage 0, partition 0 (group 0)
        input_mask_446_l5 = input_feat_offset_432_l5 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_454_l5 = gl.expand_dims(input_mask_446_l5, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_455_l5 = weight_mask_454_l5.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_456_l5 = weight_mask_455_l5 & weight_mask_265  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        input_feat_offset_429_l5 = (0 + (twill_b - 0) * 32)  # load0_input_block: stage 0, partition 0 (group 0)
        input_feat_offset_431_l5 = input_feat_offset_429_l5 + input_feat_offset_228  # load0_input_block: stage 0, partition 0 (group 0)
        input_mask_445_l5 = input_feat_offset_431_l5 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_447_l5 = gl.expand_dims(input_mask_445_l5, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_448_l5 = input_mask_447_l5.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_449_l5 = input_mask_247 & input_mask_448_l5  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_450_l5 = input_mask_449_l5 & input_mask_250  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_451_l5 = input_mask_450_l5 & input_mask_254  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_452_l5 = input_mask_451_l5 & input_mask_257  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_453_l5 = input_mask_452_l5 & input_mask_261  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        curr_weight_pointer_439_l5 = weight_in_feat_stride * input_feat_offset_432_l5  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_440_l5 = gl.expand_dims(curr_weight_pointer_439_l5, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_441_l5 = curr_weight_pointer_440_l5.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_442_l5 = curr_weight_pointer_240 + curr_weight_pointer_441_l5  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_443_l5 = curr_weight_pointer_442_l5 + weight_height_stride  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_444_l5 = curr_weight_pointer_443_l5 + 2  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_l5 = gl.load(curr_weight_pointer_444_l5, mask=weight_mask_456_l5)  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_459_l5 = weight_block_l5_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
        weight_block_460_l5 = weight_block_460_l5_st.index((twill_b - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        weight_block_460_l5.store(weight_block_459_l5)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
        curr_input_pointer_433_l5 = input_in_feat_stride * input_feat_offset_431_l5  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_434_l5 = gl.expand_dims(curr_input_pointer_433_l5, 0)  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_435_l5 = curr_input_pointer_434_l5.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_436_l5 = curr_input_pointer_232 + curr_input_pointer_435_l5  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_437_l5 = curr_input_pointer_436_l5 + curr_input_pointer_236  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_438_l5 = curr_input_pointer_437_l5 + curr_input_pointer_238  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_l5 = gl.load(curr_input_pointer_438_l5, mask=input_mask_453_l5)  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_457_l5 = gl.convert_layout(input_block_l5_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
        input_block_458_l5 = input_block_457_l5.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
        tok_accum_461_l5 = warpgroup_mma(input_block_458_l5, weight_block_460_l5, accum_461_l5_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
        accum_461_l5 = warpgroup_mma_wait(0, deps=(tok_accum_461_l5,))
        accum_461_l5_p1 = accum_461_l5
        input_block_l5_p1 = input_block_l5
        weight_block_l5_p1 = weight_block_l5
    weight_block_459_l5 = weight_block_l5_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
    weight_block_460_l5 = weight_block_460_l5_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    weight_block_460_l5.store(weight_block_459_l5)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
    input_block_457_l5 = gl.convert_layout(input_block_l5_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
    input_block_458_l5 = input_block_457_l5.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
    tok_accum_461_l5 = warpgroup_mma(input_block_458_l5, weight_block_460_l5, accum_461_l5_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
    accum_461_l5 = warpgroup_mma_wait(0, deps=(tok_accum_461_l5,))
    accum_461_l5_p1 = accum_461_l5
    input_block_l5_p1 = input_block_l5
    weight_block_l5_p1 = weight_block_l5
    weight_block_460_l5_st._keep_alive()
    twill_base += twill_n
    input_feat_offset_267 = gl.arange(0, 32, layout=L4)
    input_feat_offset_268 = gl.arange(0, 32, layout=L5)
    input_height_offset_269 = output_height_offset + 1
    input_width_offset_270 = output_width_offset + -1
    curr_input_pointer_272 = input_pointer_33.broadcast_to([128, 32])
    curr_input_pointer_274 = input_height_stride * input_height_offset_269
    curr_input_pointer_275 = gl.expand_dims(curr_input_pointer_274, 1)
    curr_input_pointer_276 = curr_input_pointer_275.broadcast_to([128, 32])
    curr_input_pointer_277 = gl.expand_dims(input_width_offset_270, 1)
    curr_input_pointer_278 = curr_input_pointer_277.broadcast_to([128, 32])
    curr_weight_pointer_280 = weight_pointer_42.broadcast_to([32, 128])
    curr_weight_pointer_281 = weight_height_stride * 2
    input_mask_284 = batch_offset_17 < batch_dim
    input_mask_285 = gl.expand_dims(input_mask_284, 1)
    input_mask_288 = input_mask_285.broadcast_to([128, 32])
    input_mask_289 = input_height_offset_269 >= 0
    input_mask_290 = gl.expand_dims(input_mask_289, 1)
    input_mask_291 = input_mask_290.broadcast_to([128, 32])
    input_mask_293 = input_height_offset_269 < in_height
    input_mask_294 = gl.expand_dims(input_mask_293, 1)
    input_mask_295 = input_mask_294.broadcast_to([128, 32])
    input_mask_296 = input_width_offset_270 >= 0
    input_mask_297 = gl.expand_dims(input_mask_296, 1)
    input_mask_298 = input_mask_297.broadcast_to([128, 32])
    input_mask_300 = input_width_offset_270 < in_width
    input_mask_301 = gl.expand_dims(input_mask_300, 1)
    input_mask_302 = input_mask_301.broadcast_to([128, 32])
    weight_mask_304 = output_feat_offset_21 < out_feat_dim
    weight_mask_305 = gl.expand_dims(weight_mask_304, 0)
    weight_mask_306 = weight_mask_305.broadcast_to([32, 128])
    twill_n = (in_feat_dim - 0 + 32 - 1) // 32
    weight_block_459_l6_st = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    accum_460_l6 = accum_461_l5_p1
    input_feat_offset_432_l6 = (0 + (0 - 0) * 32) + input_feat_offset_268  # load1_weight_block: stage 0, partition 0 (group 0)
    input_mask_445_l6 = input_feat_offset_432_l6 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_453_l6 = gl.expand_dims(input_mask_445_l6, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_454_l6 = weight_mask_453_l6.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_455_l6 = weight_mask_454_l6 & weight_mask_306  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    input_feat_offset_431_l6 = (0 + (0 - 0) * 32) + input_feat_offset_267  # load0_input_block: stage 0, partition 0 (group 0)
    input_mask_444_l6 = input_feat_offset_431_l6 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_446_l6 = gl.expand_dims(input_mask_444_l6, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_447_l6 = input_mask_446_l6.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_448_l6 = input_mask_288 & input_mask_447_l6  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_449_l6 = input_mask_448_l6 & input_mask_291  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_450_l6 = input_mask_449_l6 & input_mask_295  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_451_l6 = input_mask_450_l6 & input_mask_298  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_452_l6 = input_mask_451_l6 & input_mask_302  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    curr_weight_pointer_439_l6 = weight_in_feat_stride * input_feat_offset_432_l6  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_440_l6 = gl.expand_dims(curr_weight_pointer_439_l6, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_441_l6 = curr_weight_pointer_440_l6.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_442_l6 = curr_weight_pointer_280 + curr_weight_pointer_441_l6  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_443_l6 = curr_weight_pointer_442_l6 + curr_weight_pointer_281  # load1_weight_block: stage 0, partition 0 (group 0)
    weight_block_l6 = gl.load(curr_weight_pointer_443_l6, mask=weight_mask_455_l6)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_input_pointer_433_l6 = input_in_feat_stride * input_feat_offset_431_l6  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_434_l6 = gl.expand_dims(curr_input_pointer_433_l6, 0)  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_435_l6 = curr_input_pointer_434_l6.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_436_l6 = curr_input_pointer_272 + curr_input_pointer_435_l6  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_437_l6 = curr_input_pointer_436_l6 + curr_input_pointer_276  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_438_l6 = curr_input_pointer_437_l6 + curr_input_pointer_278  # load0_input_block: stage 0, partition 0 (group 0)
    input_block_l6 = gl.load(curr_input_pointer_438_l6, mask=input_mask_452_l6)  # load0_input_block: stage 0, partition 0 (group 0)
    accum_460_l6_p1 = accum_460_l6
    input_block_l6_p1 = input_block_l6
    weight_block_l6_p1 = weight_block_l6
    for twill_b in range(1, twill_n):
        input_feat_offset_430_l6 = (0 + (twill_b - 0) * 32)  # load1_weight_block: stage 0, partition 0 (group 0)
        input_feat_offset_432_l6 = input_feat_offset_430_l6 + input_feat_offset_268  # load1_weight_block: stage 0, partition 0 (group 0)
        input_mask_445_l6 = input_feat_offset_432_l6 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_453_l6 = gl.expand_dims(input_mask_445_l6, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_454_l6 = weight_mask_453_l6.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_455_l6 = weight_mask_454_l6 & weight_mask_306  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        input_feat_offset_429_l6 = (0 + (twill_b - 0) * 32)  # load0_input_block: stage 0, partition 0 (group 0)
        input_feat_offset_431_l6 = input_feat_offset_429_l6 + input_feat_offset_267  # load0_input_block: stage 0, partition 0 (group 0)
        input_mask_444_l6 = input_feat_offset_431_l6 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_446_l6 = gl.expand_dims(input_mask_444_l6, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_447_l6 = input_mask_446_l6.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_448_l6 = input_mask_288 & input_mask_447_l6  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_449_l6 = input_mask_448_l6 & input_mask_291  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_450_l6 = input_mask_449_l6 & input_mask_295  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_451_l6 = input_mask_450_l6 & input_mask_298  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_452_l6 = input_mask_451_l6 & input_mask_302  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        curr_weight_pointer_439_l6 = weight_in_feat_stride * input_feat_offset_432_l6  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_440_l6 = gl.expand_dims(curr_weight_pointer_439_l6, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_441_l6 = curr_weight_pointer_440_l6.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_442_l6 = curr_weight_pointer_280 + curr_weight_pointer_441_l6  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_443_l6 = curr_weight_pointer_442_l6 + curr_weight_pointer_281  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_l6 = gl.load(curr_weight_pointer_443_l6, mask=weight_mask_455_l6)  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_458_l6 = weight_block_l6_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
        weight_block_459_l6 = weight_block_459_l6_st.index((twill_b - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        weight_block_459_l6.store(weight_block_458_l6)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
        curr_input_pointer_433_l6 = input_in_feat_stride * input_feat_offset_431_l6  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_434_l6 = gl.expand_dims(curr_input_pointer_433_l6, 0)  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_435_l6 = curr_input_pointer_434_l6.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_436_l6 = curr_input_pointer_272 + curr_input_pointer_435_l6  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_437_l6 = curr_input_pointer_436_l6 + curr_input_pointer_276  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_438_l6 = curr_input_pointer_437_l6 + curr_input_pointer_278  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_l6 = gl.load(curr_input_pointer_438_l6, mask=input_mask_452_l6)  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_456_l6 = gl.convert_layout(input_block_l6_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
        input_block_457_l6 = input_block_456_l6.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
        tok_accum_460_l6 = warpgroup_mma(input_block_457_l6, weight_block_459_l6, accum_460_l6_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
        accum_460_l6 = warpgroup_mma_wait(0, deps=(tok_accum_460_l6,))
        accum_460_l6_p1 = accum_460_l6
        input_block_l6_p1 = input_block_l6
        weight_block_l6_p1 = weight_block_l6
    weight_block_458_l6 = weight_block_l6_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
    weight_block_459_l6 = weight_block_459_l6_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    weight_block_459_l6.store(weight_block_458_l6)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
    input_block_456_l6 = gl.convert_layout(input_block_l6_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
    input_block_457_l6 = input_block_456_l6.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
    tok_accum_460_l6 = warpgroup_mma(input_block_457_l6, weight_block_459_l6, accum_460_l6_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
    accum_460_l6 = warpgroup_mma_wait(0, deps=(tok_accum_460_l6,))
    accum_460_l6_p1 = accum_460_l6
    input_block_l6_p1 = input_block_l6
    weight_block_l6_p1 = weight_block_l6
    weight_block_459_l6_st._keep_alive()
    twill_base += twill_n
    input_feat_offset_308 = gl.arange(0, 32, layout=L4)
    input_feat_offset_309 = gl.arange(0, 32, layout=L5)
    input_height_offset_310 = output_height_offset + 1
    curr_input_pointer_312 = input_pointer_33.broadcast_to([128, 32])
    curr_input_pointer_314 = input_height_stride * input_height_offset_310
    curr_input_pointer_315 = gl.expand_dims(curr_input_pointer_314, 1)
    curr_input_pointer_316 = curr_input_pointer_315.broadcast_to([128, 32])
    curr_input_pointer_317 = gl.expand_dims(output_width_offset, 1)
    curr_input_pointer_318 = curr_input_pointer_317.broadcast_to([128, 32])
    curr_weight_pointer_320 = weight_pointer_42.broadcast_to([32, 128])
    curr_weight_pointer_321 = weight_height_stride * 2
    input_mask_324 = batch_offset_17 < batch_dim
    input_mask_325 = gl.expand_dims(input_mask_324, 1)
    input_mask_328 = input_mask_325.broadcast_to([128, 32])
    input_mask_329 = input_height_offset_310 >= 0
    input_mask_330 = gl.expand_dims(input_mask_329, 1)
    input_mask_331 = input_mask_330.broadcast_to([128, 32])
    input_mask_333 = input_height_offset_310 < in_height
    input_mask_334 = gl.expand_dims(input_mask_333, 1)
    input_mask_335 = input_mask_334.broadcast_to([128, 32])
    input_mask_336 = output_width_offset >= 0
    input_mask_337 = gl.expand_dims(input_mask_336, 1)
    input_mask_338 = input_mask_337.broadcast_to([128, 32])
    input_mask_340 = output_width_offset < in_width
    input_mask_341 = gl.expand_dims(input_mask_340, 1)
    input_mask_342 = input_mask_341.broadcast_to([128, 32])
    weight_mask_344 = output_feat_offset_21 < out_feat_dim
    weight_mask_345 = gl.expand_dims(weight_mask_344, 0)
    weight_mask_346 = weight_mask_345.broadcast_to([32, 128])
    twill_n = (in_feat_dim - 0 + 32 - 1) // 32
    weight_block_460_l7_st = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    accum_461_l7 = accum_460_l6_p1
    input_feat_offset_432_l7 = (0 + (0 - 0) * 32) + input_feat_offset_309  # load1_weight_block: stage 0, partition 0 (group 0)
    input_mask_446_l7 = input_feat_offset_432_l7 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_454_l7 = gl.expand_dims(input_mask_446_l7, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_455_l7 = weight_mask_454_l7.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_456_l7 = weight_mask_455_l7 & weight_mask_346  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    input_feat_offset_431_l7 = (0 + (0 - 0) * 32) + input_feat_offset_308  # load0_input_block: stage 0, partition 0 (group 0)
    input_mask_445_l7 = input_feat_offset_431_l7 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_447_l7 = gl.expand_dims(input_mask_445_l7, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_448_l7 = input_mask_447_l7.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_449_l7 = input_mask_328 & input_mask_448_l7  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_450_l7 = input_mask_449_l7 & input_mask_331  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_451_l7 = input_mask_450_l7 & input_mask_335  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_452_l7 = input_mask_451_l7 & input_mask_338  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_453_l7 = input_mask_452_l7 & input_mask_342  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    curr_weight_pointer_439_l7 = weight_in_feat_stride * input_feat_offset_432_l7  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_440_l7 = gl.expand_dims(curr_weight_pointer_439_l7, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_441_l7 = curr_weight_pointer_440_l7.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_442_l7 = curr_weight_pointer_320 + curr_weight_pointer_441_l7  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_443_l7 = curr_weight_pointer_442_l7 + curr_weight_pointer_321  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_444_l7 = curr_weight_pointer_443_l7 + 1  # load1_weight_block: stage 0, partition 0 (group 0)
    weight_block_l7 = gl.load(curr_weight_pointer_444_l7, mask=weight_mask_456_l7)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_input_pointer_433_l7 = input_in_feat_stride * input_feat_offset_431_l7  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_434_l7 = gl.expand_dims(curr_input_pointer_433_l7, 0)  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_435_l7 = curr_input_pointer_434_l7.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_436_l7 = curr_input_pointer_312 + curr_input_pointer_435_l7  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_437_l7 = curr_input_pointer_436_l7 + curr_input_pointer_316  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_438_l7 = curr_input_pointer_437_l7 + curr_input_pointer_318  # load0_input_block: stage 0, partition 0 (group 0)
    input_block_l7 = gl.load(curr_input_pointer_438_l7, mask=input_mask_453_l7)  # load0_input_block: stage 0, partition 0 (group 0)
    accum_461_l7_p1 = accum_461_l7
    input_block_l7_p1 = input_block_l7
    weight_block_l7_p1 = weight_block_l7
    for twill_b in range(1, twill_n):
        input_feat_offset_430_l7 = (0 + (twill_b - 0) * 32)  # load1_weight_block: stage 0, partition 0 (group 0)
        input_feat_offset_432_l7 = input_feat_offset_430_l7 + input_feat_offset_309  # load1_weight_block: stage 0, partition 0 (group 0)
        input_mask_446_l7 = input_feat_offset_432_l7 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_454_l7 = gl.expand_dims(input_mask_446_l7, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_455_l7 = weight_mask_454_l7.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_456_l7 = weight_mask_455_l7 & weight_mask_346  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        input_feat_offset_429_l7 = (0 + (twill_b - 0) * 32)  # load0_input_block: stage 0, partition 0 (group 0)
        input_feat_offset_431_l7 = input_feat_offset_429_l7 + input_feat_offset_308  # load0_input_block: stage 0, partition 0 (group 0)
        input_mask_445_l7 = input_feat_offset_431_l7 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_447_l7 = gl.expand_dims(input_mask_445_l7, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_448_l7 = input_mask_447_l7.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_449_l7 = input_mask_328 & input_mask_448_l7  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_450_l7 = input_mask_449_l7 & input_mask_331  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_451_l7 = input_mask_450_l7 & input_mask_335  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_452_l7 = input_mask_451_l7 & input_mask_338  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_453_l7 = input_mask_452_l7 & input_mask_342  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        curr_weight_pointer_439_l7 = weight_in_feat_stride * input_feat_offset_432_l7  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_440_l7 = gl.expand_dims(curr_weight_pointer_439_l7, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_441_l7 = curr_weight_pointer_440_l7.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_442_l7 = curr_weight_pointer_320 + curr_weight_pointer_441_l7  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_443_l7 = curr_weight_pointer_442_l7 + curr_weight_pointer_321  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_444_l7 = curr_weight_pointer_443_l7 + 1  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_l7 = gl.load(curr_weight_pointer_444_l7, mask=weight_mask_456_l7)  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_459_l7 = weight_block_l7_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
        weight_block_460_l7 = weight_block_460_l7_st.index((twill_b - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        weight_block_460_l7.store(weight_block_459_l7)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
        curr_input_pointer_433_l7 = input_in_feat_stride * input_feat_offset_431_l7  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_434_l7 = gl.expand_dims(curr_input_pointer_433_l7, 0)  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_435_l7 = curr_input_pointer_434_l7.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_436_l7 = curr_input_pointer_312 + curr_input_pointer_435_l7  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_437_l7 = curr_input_pointer_436_l7 + curr_input_pointer_316  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_438_l7 = curr_input_pointer_437_l7 + curr_input_pointer_318  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_l7 = gl.load(curr_input_pointer_438_l7, mask=input_mask_453_l7)  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_457_l7 = gl.convert_layout(input_block_l7_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
        input_block_458_l7 = input_block_457_l7.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
        tok_accum_461_l7 = warpgroup_mma(input_block_458_l7, weight_block_460_l7, accum_461_l7_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
        accum_461_l7 = warpgroup_mma_wait(0, deps=(tok_accum_461_l7,))
        accum_461_l7_p1 = accum_461_l7
        input_block_l7_p1 = input_block_l7
        weight_block_l7_p1 = weight_block_l7
    weight_block_459_l7 = weight_block_l7_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
    weight_block_460_l7 = weight_block_460_l7_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    weight_block_460_l7.store(weight_block_459_l7)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
    input_block_457_l7 = gl.convert_layout(input_block_l7_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
    input_block_458_l7 = input_block_457_l7.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
    tok_accum_461_l7 = warpgroup_mma(input_block_458_l7, weight_block_460_l7, accum_461_l7_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
    accum_461_l7 = warpgroup_mma_wait(0, deps=(tok_accum_461_l7,))
    accum_461_l7_p1 = accum_461_l7
    input_block_l7_p1 = input_block_l7
    weight_block_l7_p1 = weight_block_l7
    weight_block_460_l7_st._keep_alive()
    twill_base += twill_n
    input_feat_offset_348 = gl.arange(0, 32, layout=L4)
    input_feat_offset_349 = gl.arange(0, 32, layout=L5)
    input_height_offset_350 = output_height_offset + 1
    input_width_offset_351 = output_width_offset + 1
    curr_input_pointer_353 = input_pointer_33.broadcast_to([128, 32])
    curr_input_pointer_355 = input_height_stride * input_height_offset_350
    curr_input_pointer_356 = gl.expand_dims(curr_input_pointer_355, 1)
    curr_input_pointer_357 = curr_input_pointer_356.broadcast_to([128, 32])
    curr_input_pointer_358 = gl.expand_dims(input_width_offset_351, 1)
    curr_input_pointer_359 = curr_input_pointer_358.broadcast_to([128, 32])
    curr_weight_pointer_361 = weight_pointer_42.broadcast_to([32, 128])
    curr_weight_pointer_362 = weight_height_stride * 2
    input_mask_365 = batch_offset_17 < batch_dim
    input_mask_366 = gl.expand_dims(input_mask_365, 1)
    input_mask_369 = input_mask_366.broadcast_to([128, 32])
    input_mask_370 = input_height_offset_350 >= 0
    input_mask_371 = gl.expand_dims(input_mask_370, 1)
    input_mask_372 = input_mask_371.broadcast_to([128, 32])
    input_mask_374 = input_height_offset_350 < in_height
    input_mask_375 = gl.expand_dims(input_mask_374, 1)
    input_mask_376 = input_mask_375.broadcast_to([128, 32])
    input_mask_377 = input_width_offset_351 >= 0
    input_mask_378 = gl.expand_dims(input_mask_377, 1)
    input_mask_379 = input_mask_378.broadcast_to([128, 32])
    input_mask_381 = input_width_offset_351 < in_width
    input_mask_382 = gl.expand_dims(input_mask_381, 1)
    input_mask_383 = input_mask_382.broadcast_to([128, 32])
    weight_mask_385 = output_feat_offset_21 < out_feat_dim
    weight_mask_386 = gl.expand_dims(weight_mask_385, 0)
    weight_mask_387 = weight_mask_386.broadcast_to([32, 128])
    twill_n = (in_feat_dim - 0 + 32 - 1) // 32
    weight_block_460_l8_st = gl.allocate_shared_memory(gl.float16, [2, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    accum_461_l8 = accum_461_l7_p1
    input_feat_offset_432_l8 = (0 + (0 - 0) * 32) + input_feat_offset_349  # load1_weight_block: stage 0, partition 0 (group 0)
    input_mask_446_l8 = input_feat_offset_432_l8 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_454_l8 = gl.expand_dims(input_mask_446_l8, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_455_l8 = weight_mask_454_l8.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    weight_mask_456_l8 = weight_mask_455_l8 & weight_mask_387  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
    input_feat_offset_431_l8 = (0 + (0 - 0) * 32) + input_feat_offset_348  # load0_input_block: stage 0, partition 0 (group 0)
    input_mask_445_l8 = input_feat_offset_431_l8 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_447_l8 = gl.expand_dims(input_mask_445_l8, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_448_l8 = input_mask_447_l8.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_449_l8 = input_mask_369 & input_mask_448_l8  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_450_l8 = input_mask_449_l8 & input_mask_372  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_451_l8 = input_mask_450_l8 & input_mask_376  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_452_l8 = input_mask_451_l8 & input_mask_379  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    input_mask_453_l8 = input_mask_452_l8 & input_mask_383  # elementwise0_input_mask: stage 0, partition 0 (group 0)
    curr_weight_pointer_439_l8 = weight_in_feat_stride * input_feat_offset_432_l8  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_440_l8 = gl.expand_dims(curr_weight_pointer_439_l8, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_441_l8 = curr_weight_pointer_440_l8.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_442_l8 = curr_weight_pointer_361 + curr_weight_pointer_441_l8  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_443_l8 = curr_weight_pointer_442_l8 + curr_weight_pointer_362  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_weight_pointer_444_l8 = curr_weight_pointer_443_l8 + 2  # load1_weight_block: stage 0, partition 0 (group 0)
    weight_block_l8 = gl.load(curr_weight_pointer_444_l8, mask=weight_mask_456_l8)  # load1_weight_block: stage 0, partition 0 (group 0)
    curr_input_pointer_433_l8 = input_in_feat_stride * input_feat_offset_431_l8  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_434_l8 = gl.expand_dims(curr_input_pointer_433_l8, 0)  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_435_l8 = curr_input_pointer_434_l8.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_436_l8 = curr_input_pointer_353 + curr_input_pointer_435_l8  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_437_l8 = curr_input_pointer_436_l8 + curr_input_pointer_357  # load0_input_block: stage 0, partition 0 (group 0)
    curr_input_pointer_438_l8 = curr_input_pointer_437_l8 + curr_input_pointer_359  # load0_input_block: stage 0, partition 0 (group 0)
    input_block_l8 = gl.load(curr_input_pointer_438_l8, mask=input_mask_453_l8)  # load0_input_block: stage 0, partition 0 (group 0)
    accum_461_l8_p1 = accum_461_l8
    input_block_l8_p1 = input_block_l8
    weight_block_l8_p1 = weight_block_l8
    for twill_b in range(1, twill_n):
        input_feat_offset_430_l8 = (0 + (twill_b - 0) * 32)  # load1_weight_block: stage 0, partition 0 (group 0)
        input_feat_offset_432_l8 = input_feat_offset_430_l8 + input_feat_offset_349  # load1_weight_block: stage 0, partition 0 (group 0)
        input_mask_446_l8 = input_feat_offset_432_l8 < in_feat_dim  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_454_l8 = gl.expand_dims(input_mask_446_l8, 1)  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_455_l8 = weight_mask_454_l8.broadcast_to([32, 128])  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        weight_mask_456_l8 = weight_mask_455_l8 & weight_mask_387  # elementwise1_weight_mask: stage 0, partition 0 (group 0)
        input_feat_offset_429_l8 = (0 + (twill_b - 0) * 32)  # load0_input_block: stage 0, partition 0 (group 0)
        input_feat_offset_431_l8 = input_feat_offset_429_l8 + input_feat_offset_348  # load0_input_block: stage 0, partition 0 (group 0)
        input_mask_445_l8 = input_feat_offset_431_l8 < in_feat_dim  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_447_l8 = gl.expand_dims(input_mask_445_l8, 0)  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_448_l8 = input_mask_447_l8.broadcast_to([128, 32])  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_449_l8 = input_mask_369 & input_mask_448_l8  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_450_l8 = input_mask_449_l8 & input_mask_372  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_451_l8 = input_mask_450_l8 & input_mask_376  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_452_l8 = input_mask_451_l8 & input_mask_379  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        input_mask_453_l8 = input_mask_452_l8 & input_mask_383  # elementwise0_input_mask: stage 0, partition 0 (group 0)
        curr_weight_pointer_439_l8 = weight_in_feat_stride * input_feat_offset_432_l8  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_440_l8 = gl.expand_dims(curr_weight_pointer_439_l8, 1)  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_441_l8 = curr_weight_pointer_440_l8.broadcast_to([32, 128])  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_442_l8 = curr_weight_pointer_361 + curr_weight_pointer_441_l8  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_443_l8 = curr_weight_pointer_442_l8 + curr_weight_pointer_362  # load1_weight_block: stage 0, partition 0 (group 0)
        curr_weight_pointer_444_l8 = curr_weight_pointer_443_l8 + 2  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_l8 = gl.load(curr_weight_pointer_444_l8, mask=weight_mask_456_l8)  # load1_weight_block: stage 0, partition 0 (group 0)
        weight_block_459_l8 = weight_block_l8_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
        weight_block_460_l8 = weight_block_460_l8_st.index((twill_b - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        weight_block_460_l8.store(weight_block_459_l8)  # local_store0_weight_block: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
        curr_input_pointer_433_l8 = input_in_feat_stride * input_feat_offset_431_l8  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_434_l8 = gl.expand_dims(curr_input_pointer_433_l8, 0)  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_435_l8 = curr_input_pointer_434_l8.broadcast_to([128, 32])  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_436_l8 = curr_input_pointer_353 + curr_input_pointer_435_l8  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_437_l8 = curr_input_pointer_436_l8 + curr_input_pointer_357  # load0_input_block: stage 0, partition 0 (group 0)
        curr_input_pointer_438_l8 = curr_input_pointer_437_l8 + curr_input_pointer_359  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_l8 = gl.load(curr_input_pointer_438_l8, mask=input_mask_453_l8)  # load0_input_block: stage 0, partition 0 (group 0)
        input_block_457_l8 = gl.convert_layout(input_block_l8_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
        input_block_458_l8 = input_block_457_l8.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
        tok_accum_461_l8 = warpgroup_mma(input_block_458_l8, weight_block_460_l8, accum_461_l8_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
        accum_461_l8 = warpgroup_mma_wait(0, deps=(tok_accum_461_l8,))
        accum_461_l8_p1 = accum_461_l8
        input_block_l8_p1 = input_block_l8
        weight_block_l8_p1 = weight_block_l8
    weight_block_459_l8 = weight_block_l8_p1.to(gl.float16)  # convert1_weight_block: stage 1, partition 0 (group 0)
    weight_block_460_l8 = weight_block_460_l8_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    weight_block_460_l8.store(weight_block_459_l8)  # local_store0_weight_block: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_weight_block: stage 1, partition 0 (group 0)
    input_block_457_l8 = gl.convert_layout(input_block_l8_p1, L7)  # convert0_input_block: stage 1, partition 0 (group 0)
    input_block_458_l8 = input_block_457_l8.to(gl.float16)  # convert0_input_block: stage 1, partition 0 (group 0)
    tok_accum_461_l8 = warpgroup_mma(input_block_458_l8, weight_block_460_l8, accum_461_l8_p1, is_async=True)  # dot0_accum: stage 1, partition 0 (group 0)
    accum_461_l8 = warpgroup_mma_wait(0, deps=(tok_accum_461_l8,))
    accum_461_l8_p1 = accum_461_l8
    input_block_l8_p1 = input_block_l8
    weight_block_l8_p1 = weight_block_l8
    weight_block_460_l8_st._keep_alive()
    output_pointer_390 = output_batch_stride * batch_offset_18
    output_pointer_391 = gl.expand_dims(output_pointer_390, 1)
    output_pointer_392 = group_pid * out_feat_dim
    output_pointer_394 = output_pointer_392 + output_feat_offset_22
    output_pointer_396 = output_out_feat_stride * output_pointer_394
    output_pointer_397 = gl.expand_dims(output_pointer_396, 0)
    output_pointer_398 = output_pointer_391.broadcast_to([128, 128])
    output_pointer_399 = output_pointer_397.broadcast_to([128, 128])
    output_pointer_400 = output_pointer_398 + output_pointer_399
    output_pointer_402 = output_height_stride * output_height_offset_23
    output_pointer_403 = gl.expand_dims(output_pointer_402, 1)
    output_pointer_404 = output_pointer_403.broadcast_to([128, 128])
    output_pointer_405 = output_pointer_400 + output_pointer_404
    output_pointer_406 = gl.expand_dims(output_width_offset_24, 1)
    output_pointer_407 = output_pointer_406.broadcast_to([128, 128])
    output_pointer_408 = output_pointer_405 + output_pointer_407
    output_pointer_410 = output_pointer + output_pointer_408
    output_mask_411 = batch_offset_18 < batch_dim
    output_mask_412 = gl.expand_dims(output_mask_411, 1)
    output_mask_414 = output_feat_offset_22 < out_feat_dim
    output_mask_415 = gl.expand_dims(output_mask_414, 0)
    output_mask_416 = output_mask_412.broadcast_to([128, 128])
    output_mask_417 = output_mask_415.broadcast_to([128, 128])
    output_mask_418 = output_mask_416 & output_mask_417
    output_mask_419 = output_height_offset_23 < out_height
    output_mask_420 = gl.expand_dims(output_mask_419, 1)
    output_mask_421 = output_mask_420.broadcast_to([128, 128])
    output_mask_422 = output_mask_418 & output_mask_421
    output_mask_423 = output_width_offset_24 < out_width
    output_mask_424 = gl.expand_dims(output_mask_423, 1)
    output_mask_425 = output_mask_424.broadcast_to([128, 128])
    output_mask_426 = output_mask_422 & output_mask_425
    v0 = accum_461_l8_p1.to(gl.float16)
    v1 = gl.convert_layout(v0, L8)
    gl.store(output_pointer_410, v1, mask=output_mask_426)

@gluon.jit
def twill_kernel(input_pointer, weight_pointer, output_pointer, batch_dim, in_feat_dim, in_height, in_width, out_feat_dim, out_height, out_width, input_batch_stride, input_in_feat_stride, input_height_stride, weight_out_feat_stride, weight_in_feat_stride, weight_height_stride, output_batch_stride, output_out_feat_stride, output_height_stride):
    consumer_0(input_pointer, weight_pointer, output_pointer, batch_dim, in_feat_dim, in_height, in_width, out_feat_dim, out_height, out_width, input_batch_stride, input_in_feat_stride, input_height_stride, weight_out_feat_stride, weight_in_feat_stride, weight_height_stride, output_batch_stride, output_out_feat_stride, output_height_stride, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['input_pointer', 'weight_pointer', 'output_pointer', 'batch_dim', 'in_feat_dim', 'in_height', 'in_width', 'out_feat_dim', 'out_height', 'out_width', 'input_batch_stride', 'input_in_feat_stride', 'input_height_stride', 'input_width_stride', 'weight_out_feat_stride', 'weight_in_feat_stride', 'weight_height_stride', 'weight_width_stride', 'output_batch_stride', 'output_out_feat_stride', 'output_height_stride', 'output_width_stride', 'kernel_height', 'kernel_width', 'stride_height', 'stride_width', 'padding_height', 'padding_width', 'groups', 'fp16', 'BLOCK_SIZE_BATCH_HEIGHT_WIDTH', 'BLOCK_SIZE_IN_FEAT', 'BLOCK_SIZE_OUT_FEAT']          # the Triton kernel's parameters, in order
RUNTIME = ['input_pointer', 'weight_pointer', 'output_pointer', 'batch_dim', 'in_feat_dim', 'in_height', 'in_width', 'out_feat_dim', 'out_height', 'out_width', 'input_batch_stride', 'input_in_feat_stride', 'input_height_stride', 'weight_out_feat_stride', 'weight_in_feat_stride', 'weight_height_stride', 'output_batch_stride', 'output_out_feat_stride', 'output_height_stride']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['input_pointer', 'weight_pointer', 'output_pointer', 'batch_dim', 'in_feat_dim', 'in_height', 'in_width', 'out_feat_dim', 'out_height', 'out_width', 'input_batch_stride', 'input_in_feat_stride', 'input_height_stride', 'weight_out_feat_stride', 'weight_in_feat_stride', 'weight_height_stride', 'output_batch_stride', 'output_out_feat_stride', 'output_height_stride']   # the arguments a launch key reads
CONSTEXPRS = {'input_width_stride': 1, 'weight_width_stride': 1, 'output_width_stride': 1, 'kernel_height': 3, 'kernel_width': 3, 'stride_height': 1, 'stride_width': 1, 'padding_height': 1, 'padding_width': 1, 'groups': 1, 'fp16': True, 'BLOCK_SIZE_BATCH_HEIGHT_WIDTH': 128, 'BLOCK_SIZE_IN_FEAT': 32, 'BLOCK_SIZE_OUT_FEAT': 128}         # the specialisation this kernel was generated for
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
    trips = _ev('(in_feat_dim + 32 - 1) // 32', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((in_feat_dim + 32 - 1) // 32): run the Triton kernel for it")
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
