"""triton_jagged_softmax_kernel_variable_length_loop_buffer_then_sum, written by twill from its joint schedule: I=160 L=251 (optimal), 3416 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 140 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at tritonbench_jagged_softmax.py:74 (TTGIR line 49) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=220, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at tritonbench_jagged_softmax.py:85 (TTGIR line 83) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=158, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(input_ptr_values, input_ptr_offsets, output_ptr, M):
    twill_base = 0
    pid = gl.program_id(0)
    pid_b = M + 63
    pid_b_0 = pid_b // 64
    pid_b_1 = pid // pid_b_0
    pid_m = pid % pid_b_0
    block_start_m = pid_m * 64
    offsets_m = gl.arange(0, 64, layout=L0)
    offsets_m_3 = block_start_m + offsets_m
    mask_m_4 = offsets_m_3 < M
    v0 = input_ptr_offsets + pid_b_1
    v1 = gl.load(v0)
    v2 = pid_b_1 + 1
    v3 = input_ptr_offsets + v2
    v4 = gl.load(v3)
    offsets_ragged = gl.arange(0, 128, layout=L1)
    offsets_ragged_5 = offsets_ragged.to(gl.int64)
    idxs = gl.cast(M, gl.int64)
    idxs_7 = offsets_m_3.to(gl.int64)
    idxs_8 = gl.expand_dims(idxs_7, 0)
    idxs_9 = idxs_8.broadcast_to([128, 64])
    mask = gl.expand_dims(mask_m_4, 0)
    mask_10 = mask.broadcast_to([128, 64])
    twill_n = gl.cast(gl.maximum((v4 - v1 + 128 - 1) // 128, 0), gl.int32)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        buffer_max_all_51 = gl.full([128, 64], float("-inf"), gl.float32, layout=L2)
        offsets_ragged_39_l0 = (v1 + (0 - 0) * 128)  # elementwise0_mask: stage 0, partition 0 (group 0)
        offsets_ragged_40_l0 = offsets_ragged_39_l0 + offsets_ragged_5  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_ragged_41 = offsets_ragged_40_l0 < v4  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_46_l0 = gl.expand_dims(mask_ragged_41, 1)  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_47_l0 = mask_46_l0.broadcast_to([128, 64])  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_48_l0 = mask_47_l0 & mask_10  # elementwise0_mask: stage 0, partition 0 (group 0)
        idxs_42_l0 = gl.expand_dims(offsets_ragged_40_l0, 1)  # load0_input: stage 0, partition 0 (group 0)
        idxs_43_l0 = idxs_42_l0 * idxs  # load0_input: stage 0, partition 0 (group 0)
        idxs_44_l0 = idxs_43_l0.broadcast_to([128, 64])  # load0_input: stage 0, partition 0 (group 0)
        idxs_45_l0 = idxs_44_l0 + idxs_9  # load0_input: stage 0, partition 0 (group 0)
        input_49_l0 = input_ptr_values + idxs_45_l0  # load0_input: stage 0, partition 0 (group 0)
        input_50_l0 = gl.load(input_49_l0, mask=mask_48_l0, other=float("-inf"))  # load0_input: stage 0, partition 0 (group 0)
        buffer_max_all_51_p1 = buffer_max_all_51
        input_50_l0_p1 = input_50_l0
        for twill_b in range(1, twill_n):
            offsets_ragged_39_l0 = (v1 + (twill_b - 0) * 128)  # elementwise0_mask: stage 0, partition 0 (group 0)
            offsets_ragged_40_l0 = offsets_ragged_39_l0 + offsets_ragged_5  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_ragged_41 = offsets_ragged_40_l0 < v4  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_46_l0 = gl.expand_dims(mask_ragged_41, 1)  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_47_l0 = mask_46_l0.broadcast_to([128, 64])  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_48_l0 = mask_47_l0 & mask_10  # elementwise0_mask: stage 0, partition 0 (group 0)
            idxs_42_l0 = gl.expand_dims(offsets_ragged_40_l0, 1)  # load0_input: stage 0, partition 0 (group 0)
            idxs_43_l0 = idxs_42_l0 * idxs  # load0_input: stage 0, partition 0 (group 0)
            idxs_44_l0 = idxs_43_l0.broadcast_to([128, 64])  # load0_input: stage 0, partition 0 (group 0)
            idxs_45_l0 = idxs_44_l0 + idxs_9  # load0_input: stage 0, partition 0 (group 0)
            input_49_l0 = input_ptr_values + idxs_45_l0  # load0_input: stage 0, partition 0 (group 0)
            input_50_l0 = gl.load(input_49_l0, mask=mask_48_l0, other=float("-inf"))  # load0_input: stage 0, partition 0 (group 0)
            buffer_max_all_51 = gl.maximum(buffer_max_all_51_p1, input_50_l0_p1)  # elementwise1_buffer_max_all: stage 1, partition 0 (group 0)
            buffer_max_all_51_p1 = buffer_max_all_51
            input_50_l0_p1 = input_50_l0
        buffer_max_all_51 = gl.maximum(buffer_max_all_51_p1, input_50_l0_p1)  # elementwise1_buffer_max_all: stage 1, partition 0 (group 0)
        buffer_max_all_51_p1 = buffer_max_all_51
        input_50_l0_p1 = input_50_l0
    else:
        buffer_max_all_51_p1 = gl.full([128, 64], float("-inf"), gl.float32, layout=L2)
    twill_base += twill_n
    buffer_max = gl.max(buffer_max_all_51_p1, axis=0)
    buffer_max_11 = gl.expand_dims(buffer_max, 0)
    offsets_ragged_12 = gl.arange(0, 128, layout=L1)
    offsets_ragged_13 = offsets_ragged_12.to(gl.int64)
    idxs_15 = gl.cast(M, gl.int64)
    idxs_17 = offsets_m_3.to(gl.int64)
    idxs_18 = gl.expand_dims(idxs_17, 0)
    idxs_19 = idxs_18.broadcast_to([128, 64])
    mask_20 = gl.expand_dims(mask_m_4, 0)
    mask_21 = mask_20.broadcast_to([128, 64])
    buffer_23 = buffer_max_11.broadcast_to([128, 64])
    twill_n = gl.cast(gl.maximum((v4 - v1 + 128 - 1) // 128, 0), gl.int32)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        buffer_54 = gl.full([128, 64], 0.0, gl.float32, layout=L2)
        offsets_ragged_40_l1 = (v1 + (0 - 0) * 128)  # elementwise0_mask: stage 0, partition 0 (group 0)
        offsets_ragged_41 = offsets_ragged_40_l1 + offsets_ragged_13  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_ragged_42 = offsets_ragged_41 < v4  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_47_l1 = gl.expand_dims(mask_ragged_42, 1)  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_48_l1 = mask_47_l1.broadcast_to([128, 64])  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_49 = mask_48_l1 & mask_21  # elementwise0_mask: stage 0, partition 0 (group 0)
        idxs_43_l1 = gl.expand_dims(offsets_ragged_41, 1)  # load0_input: stage 0, partition 0 (group 0)
        idxs_44_l1 = idxs_43_l1 * idxs_15  # load0_input: stage 0, partition 0 (group 0)
        idxs_45_l1 = idxs_44_l1.broadcast_to([128, 64])  # load0_input: stage 0, partition 0 (group 0)
        idxs_46 = idxs_45_l1 + idxs_19  # load0_input: stage 0, partition 0 (group 0)
        input_50_l1 = input_ptr_values + idxs_46  # load0_input: stage 0, partition 0 (group 0)
        input_51 = gl.load(input_50_l1, mask=mask_49, other=float("-inf"))  # load0_input: stage 0, partition 0 (group 0)
        buffer_54_p1 = buffer_54
        input_51_p1 = input_51
        for twill_b in range(1, twill_n):
            offsets_ragged_40_l1 = (v1 + (twill_b - 0) * 128)  # elementwise0_mask: stage 0, partition 0 (group 0)
            offsets_ragged_41 = offsets_ragged_40_l1 + offsets_ragged_13  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_ragged_42 = offsets_ragged_41 < v4  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_47_l1 = gl.expand_dims(mask_ragged_42, 1)  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_48_l1 = mask_47_l1.broadcast_to([128, 64])  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_49 = mask_48_l1 & mask_21  # elementwise0_mask: stage 0, partition 0 (group 0)
            idxs_43_l1 = gl.expand_dims(offsets_ragged_41, 1)  # load0_input: stage 0, partition 0 (group 0)
            idxs_44_l1 = idxs_43_l1 * idxs_15  # load0_input: stage 0, partition 0 (group 0)
            idxs_45_l1 = idxs_44_l1.broadcast_to([128, 64])  # load0_input: stage 0, partition 0 (group 0)
            idxs_46 = idxs_45_l1 + idxs_19  # load0_input: stage 0, partition 0 (group 0)
            input_50_l1 = input_ptr_values + idxs_46  # load0_input: stage 0, partition 0 (group 0)
            input_51 = gl.load(input_50_l1, mask=mask_49, other=float("-inf"))  # load0_input: stage 0, partition 0 (group 0)
            buffer_52 = input_51_p1 - buffer_23  # sfu0_buffer: stage 1, partition 0 (group 0)
            buffer_53 = gl.exp(buffer_52)  # sfu0_buffer: stage 1, partition 0 (group 0)
            buffer_54 = buffer_54_p1 + buffer_53  # elementwise1_buffer: stage 1, partition 0 (group 0)
            buffer_54_p1 = buffer_54
            input_51_p1 = input_51
        buffer_52 = input_51_p1 - buffer_23  # sfu0_buffer: stage 1, partition 0 (group 0)
        buffer_53 = gl.exp(buffer_52)  # sfu0_buffer: stage 1, partition 0 (group 0)
        buffer_54 = buffer_54_p1 + buffer_53  # elementwise1_buffer: stage 1, partition 0 (group 0)
        buffer_54_p1 = buffer_54
        input_51_p1 = input_51
    else:
        buffer_54_p1 = gl.full([128, 64], 0.0, gl.float32, layout=L2)
    twill_base += twill_n
    buffer_exp_sum = gl.sum(buffer_54_p1, axis=0)
    offsets_ragged_25 = gl.arange(0, 128, layout=L1)
    offsets_ragged_26 = offsets_ragged_25.to(gl.int64)
    idxs_28 = gl.cast(M, gl.int64)
    idxs_30 = offsets_m_3.to(gl.int64)
    idxs_31 = gl.expand_dims(idxs_30, 0)
    idxs_32 = idxs_31.broadcast_to([128, 64])
    mask_33 = gl.expand_dims(mask_m_4, 0)
    mask_34 = mask_33.broadcast_to([128, 64])
    output = buffer_max_11.broadcast_to([128, 64])
    output_36 = gl.expand_dims(buffer_exp_sum, 0)
    output_37 = output_36.broadcast_to([128, 64])
    twill_n = gl.cast(gl.maximum((v4 - v1 + 128 - 1) // 128, 0), gl.int32)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        offsets_ragged_38 = (v1 + (0 - 0) * 128)  # elementwise0_mask: stage 0, partition 0 (group 0)
        offsets_ragged_39 = offsets_ragged_38 + offsets_ragged_26  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_ragged_40 = offsets_ragged_39 < v4  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_45 = gl.expand_dims(mask_ragged_40, 1)  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_46 = mask_45.broadcast_to([128, 64])  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_47 = mask_46 & mask_34  # elementwise0_mask: stage 0, partition 0 (group 0)
        idxs_41 = gl.expand_dims(offsets_ragged_39, 1)  # load0_input: stage 0, partition 0 (group 0)
        idxs_42 = idxs_41 * idxs_28  # load0_input: stage 0, partition 0 (group 0)
        idxs_43 = idxs_42.broadcast_to([128, 64])  # load0_input: stage 0, partition 0 (group 0)
        idxs_44 = idxs_43 + idxs_32  # load0_input: stage 0, partition 0 (group 0)
        input_48 = input_ptr_values + idxs_44  # load0_input: stage 0, partition 0 (group 0)
        input_49 = gl.load(input_48, mask=mask_47, other=float("-inf"))  # load0_input: stage 0, partition 0 (group 0)
        idxs_44_p1 = idxs_44
        input_49_p1 = input_49
        mask_47_p1 = mask_47
        for twill_b in range(1, twill_n):
            offsets_ragged_38 = (v1 + (twill_b - 0) * 128)  # elementwise0_mask: stage 0, partition 0 (group 0)
            offsets_ragged_39 = offsets_ragged_38 + offsets_ragged_26  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_ragged_40 = offsets_ragged_39 < v4  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_45 = gl.expand_dims(mask_ragged_40, 1)  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_46 = mask_45.broadcast_to([128, 64])  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_47 = mask_46 & mask_34  # elementwise0_mask: stage 0, partition 0 (group 0)
            idxs_41 = gl.expand_dims(offsets_ragged_39, 1)  # load0_input: stage 0, partition 0 (group 0)
            idxs_42 = idxs_41 * idxs_28  # load0_input: stage 0, partition 0 (group 0)
            idxs_43 = idxs_42.broadcast_to([128, 64])  # load0_input: stage 0, partition 0 (group 0)
            idxs_44 = idxs_43 + idxs_32  # load0_input: stage 0, partition 0 (group 0)
            input_48 = input_ptr_values + idxs_44  # load0_input: stage 0, partition 0 (group 0)
            input_49 = gl.load(input_48, mask=mask_47, other=float("-inf"))  # load0_input: stage 0, partition 0 (group 0)
            output_50 = input_49_p1 - output  # sfu0_output: stage 1, partition 0 (group 0)
            output_51 = gl.exp(output_50)  # sfu0_output: stage 1, partition 0 (group 0)
            output_52 = output_51 / output_37  # elementwise1_output: stage 1, partition 0 (group 0)
            v6 = output_ptr + idxs_44_p1  # store0: stage 1, partition 0 (group 0)
            gl.store(v6, output_52, mask=mask_47_p1)  # store0: stage 1, partition 0 (group 0)
            idxs_44_p1 = idxs_44
            input_49_p1 = input_49
            mask_47_p1 = mask_47
        output_50 = input_49_p1 - output  # sfu0_output: stage 1, partition 0 (group 0)
        output_51 = gl.exp(output_50)  # sfu0_output: stage 1, partition 0 (group 0)
        output_52 = output_51 / output_37  # elementwise1_output: stage 1, partition 0 (group 0)
        v6 = output_ptr + idxs_44_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v6, output_52, mask=mask_47_p1)  # store0: stage 1, partition 0 (group 0)
        idxs_44_p1 = idxs_44
        input_49_p1 = input_49
        mask_47_p1 = mask_47

@gluon.jit
def twill_kernel(input_ptr_values, input_ptr_offsets, output_ptr, M):
    consumer_0(input_ptr_values, input_ptr_offsets, output_ptr, M, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['input_ptr_values', 'input_ptr_offsets', 'output_ptr', 'M', 'BLOCK_SIZE_RAGGED', 'BLOCK_SIZE_M']          # the Triton kernel's parameters, in order
RUNTIME = ['input_ptr_values', 'input_ptr_offsets', 'output_ptr', 'M']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['input_ptr_values', 'input_ptr_offsets', 'output_ptr', 'M']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_SIZE_RAGGED': 128, 'BLOCK_SIZE_M': 64}         # the specialisation this kernel was generated for
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
