"""softmax_kernel, written by twill from its joint schedule: I=193 L=193 (optimal), 257 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, 3 iterations ahead of their readers, enough to cover a load's latency with the schedule's iterations, and the loop as written where it runs fewer than 3 iterations; 4 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 44 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols):
    row_start = gl.program_id(0)
    row_step = gl.num_programs(0)
    col_offsets = gl.arange(0, 1024, layout=L0)
    mask_0 = col_offsets < n_cols
    twill_n = (n_rows - row_start + row_step - 1) // row_step
    if twill_n >= 3:
        row_start_ptr = (row_start + (0 - 0) * row_step) * input_row_stride  # load0_row: stage 0, partition 0 (group 0)
        row_start_ptr_1 = input_ptr + row_start_ptr  # load0_row: stage 0, partition 0 (group 0)
        input_ptrs = row_start_ptr_1  # load0_row: stage 0, partition 0 (group 0)
        input_ptrs_2 = input_ptrs + col_offsets  # load0_row: stage 0, partition 0 (group 0)
        row = gl.load(input_ptrs_2, mask=mask_0, other=float("-inf"))  # load0_row: stage 0, partition 0 (group 0)
        row_p1 = row
        row_start_ptr = (row_start + (1 - 0) * row_step) * input_row_stride  # load0_row: stage 0, partition 0 (group 0)
        row_start_ptr_1 = input_ptr + row_start_ptr  # load0_row: stage 0, partition 0 (group 0)
        input_ptrs = row_start_ptr_1  # load0_row: stage 0, partition 0 (group 0)
        input_ptrs_2 = input_ptrs + col_offsets  # load0_row: stage 0, partition 0 (group 0)
        row = gl.load(input_ptrs_2, mask=mask_0, other=float("-inf"))  # load0_row: stage 0, partition 0 (group 0)
        row_p2 = row_p1
        row_p1 = row
        row_start_ptr = (row_start + (2 - 0) * row_step) * input_row_stride  # load0_row: stage 0, partition 0 (group 0)
        row_start_ptr_1 = input_ptr + row_start_ptr  # load0_row: stage 0, partition 0 (group 0)
        input_ptrs = row_start_ptr_1  # load0_row: stage 0, partition 0 (group 0)
        input_ptrs_2 = input_ptrs + col_offsets  # load0_row: stage 0, partition 0 (group 0)
        row = gl.load(input_ptrs_2, mask=mask_0, other=float("-inf"))  # load0_row: stage 0, partition 0 (group 0)
        row_p3 = row_p2
        row_p2 = row_p1
        row_p1 = row
        for twill_b in range(3, twill_n):
            row_start_ptr = (row_start + (twill_b - 0) * row_step) * input_row_stride  # load0_row: stage 0, partition 0 (group 0)
            row_start_ptr_1 = input_ptr + row_start_ptr  # load0_row: stage 0, partition 0 (group 0)
            input_ptrs = row_start_ptr_1  # load0_row: stage 0, partition 0 (group 0)
            input_ptrs_2 = input_ptrs + col_offsets  # load0_row: stage 0, partition 0 (group 0)
            row = gl.load(input_ptrs_2, mask=mask_0, other=float("-inf"))  # load0_row: stage 0, partition 0 (group 0)
            row_minus_max = gl.max(row_p3, axis=0)  # reduce0_row_minus_max: stage 3, partition 0 (group 0)
            row_minus_max_3 = row_minus_max  # sfu0_numerator: stage 3, partition 0 (group 0)
            row_minus_max_4 = row_p3 - row_minus_max_3  # sfu0_numerator: stage 3, partition 0 (group 0)
            numerator = gl.exp(row_minus_max_4)  # sfu0_numerator: stage 3, partition 0 (group 0)
            denominator = gl.sum(numerator, axis=0)  # reduce1_denominator: stage 3, partition 0 (group 0)
            softmax_output = denominator  # elementwise0_softmax_output: stage 3, partition 0 (group 0)
            softmax_output_5 = numerator / softmax_output  # elementwise0_softmax_output: stage 3, partition 0 (group 0)
            output_row_start_ptr = (row_start + (twill_b - 3) * row_step) * output_row_stride  # store0: stage 3, partition 0 (group 0)
            output_row_start_ptr_6 = output_ptr + output_row_start_ptr  # store0: stage 3, partition 0 (group 0)
            output_ptrs = output_row_start_ptr_6  # store0: stage 3, partition 0 (group 0)
            output_ptrs_7 = output_ptrs + col_offsets  # store0: stage 3, partition 0 (group 0)
            gl.store(output_ptrs_7, softmax_output_5, mask=mask_0)  # store0: stage 3, partition 0 (group 0)
            row_p3 = row_p2
            row_p2 = row_p1
            row_p1 = row
        row_minus_max = gl.max(row_p3, axis=0)  # reduce0_row_minus_max: stage 3, partition 0 (group 0)
        row_minus_max_3 = row_minus_max  # sfu0_numerator: stage 3, partition 0 (group 0)
        row_minus_max_4 = row_p3 - row_minus_max_3  # sfu0_numerator: stage 3, partition 0 (group 0)
        numerator = gl.exp(row_minus_max_4)  # sfu0_numerator: stage 3, partition 0 (group 0)
        denominator = gl.sum(numerator, axis=0)  # reduce1_denominator: stage 3, partition 0 (group 0)
        softmax_output = denominator  # elementwise0_softmax_output: stage 3, partition 0 (group 0)
        softmax_output_5 = numerator / softmax_output  # elementwise0_softmax_output: stage 3, partition 0 (group 0)
        output_row_start_ptr = (row_start + ((twill_n - 1 + 1) - 3) * row_step) * output_row_stride  # store0: stage 3, partition 0 (group 0)
        output_row_start_ptr_6 = output_ptr + output_row_start_ptr  # store0: stage 3, partition 0 (group 0)
        output_ptrs = output_row_start_ptr_6  # store0: stage 3, partition 0 (group 0)
        output_ptrs_7 = output_ptrs + col_offsets  # store0: stage 3, partition 0 (group 0)
        gl.store(output_ptrs_7, softmax_output_5, mask=mask_0)  # store0: stage 3, partition 0 (group 0)
        row_p3 = row_p2
        row_p2 = row_p1
        row_p1 = row
        row_minus_max = gl.max(row_p3, axis=0)  # reduce0_row_minus_max: stage 3, partition 0 (group 0)
        row_minus_max_3 = row_minus_max  # sfu0_numerator: stage 3, partition 0 (group 0)
        row_minus_max_4 = row_p3 - row_minus_max_3  # sfu0_numerator: stage 3, partition 0 (group 0)
        numerator = gl.exp(row_minus_max_4)  # sfu0_numerator: stage 3, partition 0 (group 0)
        denominator = gl.sum(numerator, axis=0)  # reduce1_denominator: stage 3, partition 0 (group 0)
        softmax_output = denominator  # elementwise0_softmax_output: stage 3, partition 0 (group 0)
        softmax_output_5 = numerator / softmax_output  # elementwise0_softmax_output: stage 3, partition 0 (group 0)
        output_row_start_ptr = (row_start + ((twill_n - 1 + 2) - 3) * row_step) * output_row_stride  # store0: stage 3, partition 0 (group 0)
        output_row_start_ptr_6 = output_ptr + output_row_start_ptr  # store0: stage 3, partition 0 (group 0)
        output_ptrs = output_row_start_ptr_6  # store0: stage 3, partition 0 (group 0)
        output_ptrs_7 = output_ptrs + col_offsets  # store0: stage 3, partition 0 (group 0)
        gl.store(output_ptrs_7, softmax_output_5, mask=mask_0)  # store0: stage 3, partition 0 (group 0)
        row_p3 = row_p2
        row_p2 = row_p1
        row_p1 = row
        row_minus_max = gl.max(row_p3, axis=0)  # reduce0_row_minus_max: stage 3, partition 0 (group 0)
        row_minus_max_3 = row_minus_max  # sfu0_numerator: stage 3, partition 0 (group 0)
        row_minus_max_4 = row_p3 - row_minus_max_3  # sfu0_numerator: stage 3, partition 0 (group 0)
        numerator = gl.exp(row_minus_max_4)  # sfu0_numerator: stage 3, partition 0 (group 0)
        denominator = gl.sum(numerator, axis=0)  # reduce1_denominator: stage 3, partition 0 (group 0)
        softmax_output = denominator  # elementwise0_softmax_output: stage 3, partition 0 (group 0)
        softmax_output_5 = numerator / softmax_output  # elementwise0_softmax_output: stage 3, partition 0 (group 0)
        output_row_start_ptr = (row_start + ((twill_n - 1 + 3) - 3) * row_step) * output_row_stride  # store0: stage 3, partition 0 (group 0)
        output_row_start_ptr_6 = output_ptr + output_row_start_ptr  # store0: stage 3, partition 0 (group 0)
        output_ptrs = output_row_start_ptr_6  # store0: stage 3, partition 0 (group 0)
        output_ptrs_7 = output_ptrs + col_offsets  # store0: stage 3, partition 0 (group 0)
        gl.store(output_ptrs_7, softmax_output_5, mask=mask_0)  # store0: stage 3, partition 0 (group 0)
        row_p3 = row_p2
        row_p2 = row_p1
        row_p1 = row
    else:
        for row_idx in range(row_start, n_rows, row_step):
            row_start_ptr = row_idx * input_row_stride
            row_start_ptr_1 = input_ptr + row_start_ptr
            input_ptrs_2 = row_start_ptr_1 + col_offsets
            row = gl.load(input_ptrs_2, mask=mask_0, other=float("-inf"))
            row_minus_max = gl.max(row, axis=0)
            row_minus_max_4 = row - row_minus_max
            numerator = gl.exp(row_minus_max_4)
            denominator = gl.sum(numerator, axis=0)
            softmax_output_5 = numerator / denominator
            output_row_start_ptr = row_idx * output_row_stride
            output_row_start_ptr_6 = output_ptr + output_row_start_ptr
            output_ptrs_7 = output_row_start_ptr_6 + col_offsets
            gl.store(output_ptrs_7, softmax_output_5, mask=mask_0)

@gluon.jit
def twill_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols):
    consumer_0(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['output_ptr', 'input_ptr', 'input_row_stride', 'output_row_stride', 'n_rows', 'n_cols', 'BLOCK_SIZE', 'num_stages']          # the Triton kernel's parameters, in order
RUNTIME = ['output_ptr', 'input_ptr', 'input_row_stride', 'output_row_stride', 'n_rows', 'n_cols']   # the Gluon kernel's parameters, in order
CONSTEXPRS = {'BLOCK_SIZE': 1024, 'num_stages': 4}         # the specialisation this kernel was generated for
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
