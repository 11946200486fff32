"""_per_expert_lora_kernel, written by twill from its joint schedule: I=250 L=293 (optimal), 680 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 50 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at sglang_per_expert_lora_moe.py:96 (TTGIR line 48): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at sglang_per_expert_lora_moe.py:105 (TTGIR line 59): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at sglang_per_expert_lora_moe.py:112 (TTGIR line 67): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[2, 16], warps_per_cta=[1, 4], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[2, 16], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[2, 16], warps_per_cta=[1, 4], order=[0, 1]))

@gluon.jit
def consumer_0(hidden_states_ptr, lora_a_weights_ptr, lora_b_weights_ptr, output_ptr, lora_output_ptr, token_ids_ptr, expert_ids_ptr, lora_ids_ptr, num_dispatched, lora_ranks_ptr, lora_scalings_ptr):
    spatial_id = gl.program_id(0)
    slice_id = gl.program_id(1)
    lora_id_grid = gl.program_id(2)
    actual_token_id = token_ids_ptr + spatial_id
    actual_token_id_8 = gl.load(actual_token_id)
    expert_id = expert_ids_ptr + spatial_id
    expert_id_9 = gl.load(expert_id)
    rank = lora_ranks_ptr + lora_id_grid
    rank_11 = gl.load(rank)
    scaling = lora_scalings_ptr + lora_id_grid
    scaling_12 = gl.load(scaling)
    has_rank = rank_11 > 0
    hidden_ptr = actual_token_id_8 * 2048
    hidden_ptr_14 = hidden_states_ptr + hidden_ptr
    lora_a_base = lora_id_grid * 4194304
    lora_a_base_15 = lora_a_weights_ptr + lora_a_base
    lora_a_base_16 = expert_id_9 * 32768
    lora_a_base_17 = lora_a_base_15 + lora_a_base_16
    lora_b_base = lora_id_grid * 3145728
    lora_b_base_18 = lora_b_weights_ptr + lora_b_base
    lora_b_base_19 = expert_id_9 * 24576
    lora_b_base_20 = lora_b_base_18 + lora_b_base_19
    r_offs = gl.arange(0, 16, layout=L0)
    r_offs_21 = gl.arange(0, 16, layout=L1)
    rank_mask_23 = r_offs < rank_11
    rank_mask_24 = r_offs_21 < rank_11
    input_offs = gl.arange(0, 64, layout=L2)
    a_ptrs = gl.expand_dims(r_offs, 1)
    a_ptrs_25 = a_ptrs * 2048
    a_ptrs_27 = lora_a_base_17 + a_ptrs_25
    a_ptrs_28 = a_ptrs_27.broadcast_to([16, 64])
    a_vals = gl.expand_dims(rank_mask_23, 1)
    a_vals_29 = a_vals.broadcast_to([16, 64])
    twill_n = (32 - 0 + 1 - 1) // 1
    input_start = (0 + (0 - 0) * 1) * 64  # load0_h_vals: stage 0, partition 0 (group 0)
    input_offs_61 = input_start  # load0_h_vals: stage 0, partition 0 (group 0)
    input_offs_62 = input_offs_61 + input_offs  # load0_h_vals: stage 0, partition 0 (group 0)
    input_mask = input_offs_62 < 2048  # load0_h_vals: stage 0, partition 0 (group 0)
    h_vals_63 = hidden_ptr_14 + input_offs_62  # load0_h_vals: stage 0, partition 0 (group 0)
    h_vals_64 = gl.load(h_vals_63, mask=input_mask, other=0.0)  # load0_h_vals: stage 0, partition 0 (group 0)
    h_vals_64_p1 = h_vals_64
    input_mask_p1 = input_mask
    input_offs_62_p1 = input_offs_62
    intermediate_78 = gl.full([16], 0.0, gl.float32, layout=L0)
    a_vals_69 = gl.expand_dims(input_mask_p1, 0)  # elementwise0_a_vals: stage 1, partition 0 (group 0)
    a_vals_70 = a_vals_69.broadcast_to([16, 64])  # elementwise0_a_vals: stage 1, partition 0 (group 0)
    a_vals_71 = a_vals_29 & a_vals_70  # elementwise0_a_vals: stage 1, partition 0 (group 0)
    input_start = (0 + (1 - 0) * 1) * 64  # load0_h_vals: stage 0, partition 0 (group 0)
    input_offs_61 = input_start  # load0_h_vals: stage 0, partition 0 (group 0)
    input_offs_62 = input_offs_61 + input_offs  # load0_h_vals: stage 0, partition 0 (group 0)
    input_mask = input_offs_62 < 2048  # load0_h_vals: stage 0, partition 0 (group 0)
    h_vals_63 = hidden_ptr_14 + input_offs_62  # load0_h_vals: stage 0, partition 0 (group 0)
    h_vals_64 = gl.load(h_vals_63, mask=input_mask, other=0.0)  # load0_h_vals: stage 0, partition 0 (group 0)
    h_vals_65 = h_vals_64_p1.to(gl.float32)  # convert0_h_vals: stage 1, partition 0 (group 0)
    a_ptrs_66 = gl.expand_dims(input_offs_62_p1, 0)  # load1_a_vals: stage 1, partition 0 (group 0)
    a_ptrs_67 = a_ptrs_66.broadcast_to([16, 64])  # load1_a_vals: stage 1, partition 0 (group 0)
    a_ptrs_68 = a_ptrs_28 + a_ptrs_67  # load1_a_vals: stage 1, partition 0 (group 0)
    a_vals_72 = gl.load(a_ptrs_68, mask=a_vals_71, other=0.0)  # load1_a_vals: stage 1, partition 0 (group 0)
    a_vals_72_p1 = a_vals_72
    h_vals_64_p1 = h_vals_64
    h_vals_65_p1 = h_vals_65
    input_mask_p1 = input_mask
    input_offs_62_p1 = input_offs_62
    intermediate_78_p1 = intermediate_78
    for twill_b in range(2, twill_n):
        a_vals_69 = gl.expand_dims(input_mask_p1, 0)  # elementwise0_a_vals: stage 1, partition 0 (group 0)
        a_vals_70 = a_vals_69.broadcast_to([16, 64])  # elementwise0_a_vals: stage 1, partition 0 (group 0)
        a_vals_71 = a_vals_29 & a_vals_70  # elementwise0_a_vals: stage 1, partition 0 (group 0)
        input_start = (0 + (twill_b - 0) * 1) * 64  # load0_h_vals: stage 0, partition 0 (group 0)
        input_offs_61 = input_start  # load0_h_vals: stage 0, partition 0 (group 0)
        input_offs_62 = input_offs_61 + input_offs  # load0_h_vals: stage 0, partition 0 (group 0)
        input_mask = input_offs_62 < 2048  # load0_h_vals: stage 0, partition 0 (group 0)
        h_vals_63 = hidden_ptr_14 + input_offs_62  # load0_h_vals: stage 0, partition 0 (group 0)
        h_vals_64 = gl.load(h_vals_63, mask=input_mask, other=0.0)  # load0_h_vals: stage 0, partition 0 (group 0)
        h_vals_65 = h_vals_64_p1.to(gl.float32)  # convert0_h_vals: stage 1, partition 0 (group 0)
        a_ptrs_66 = gl.expand_dims(input_offs_62_p1, 0)  # load1_a_vals: stage 1, partition 0 (group 0)
        a_ptrs_67 = a_ptrs_66.broadcast_to([16, 64])  # load1_a_vals: stage 1, partition 0 (group 0)
        a_ptrs_68 = a_ptrs_28 + a_ptrs_67  # load1_a_vals: stage 1, partition 0 (group 0)
        a_vals_72 = gl.load(a_ptrs_68, mask=a_vals_71, other=0.0)  # load1_a_vals: stage 1, partition 0 (group 0)
        a_vals_73 = a_vals_72_p1.to(gl.float32)  # convert1_a_vals: stage 2, partition 0 (group 0)
        intermediate_74 = gl.expand_dims(h_vals_65_p1, 0)  # elementwise1_intermediate: stage 2, partition 0 (group 0)
        intermediate_75 = intermediate_74.broadcast_to([16, 64])  # elementwise1_intermediate: stage 2, partition 0 (group 0)
        intermediate_76 = a_vals_73 * intermediate_75  # elementwise1_intermediate: stage 2, partition 0 (group 0)
        intermediate_77 = gl.sum(intermediate_76, axis=1)  # reduce0_intermediate: stage 2, partition 0 (group 0)
        intermediate_78 = intermediate_78_p1 + intermediate_77  # elementwise2_intermediate: stage 2, partition 0 (group 0)
        a_vals_72_p1 = a_vals_72
        h_vals_64_p1 = h_vals_64
        h_vals_65_p1 = h_vals_65
        input_mask_p1 = input_mask
        input_offs_62_p1 = input_offs_62
        intermediate_78_p1 = intermediate_78
    a_vals_69 = gl.expand_dims(input_mask_p1, 0)  # elementwise0_a_vals: stage 1, partition 0 (group 0)
    a_vals_70 = a_vals_69.broadcast_to([16, 64])  # elementwise0_a_vals: stage 1, partition 0 (group 0)
    a_vals_71 = a_vals_29 & a_vals_70  # elementwise0_a_vals: stage 1, partition 0 (group 0)
    h_vals_65 = h_vals_64_p1.to(gl.float32)  # convert0_h_vals: stage 1, partition 0 (group 0)
    a_ptrs_66 = gl.expand_dims(input_offs_62_p1, 0)  # load1_a_vals: stage 1, partition 0 (group 0)
    a_ptrs_67 = a_ptrs_66.broadcast_to([16, 64])  # load1_a_vals: stage 1, partition 0 (group 0)
    a_ptrs_68 = a_ptrs_28 + a_ptrs_67  # load1_a_vals: stage 1, partition 0 (group 0)
    a_vals_72 = gl.load(a_ptrs_68, mask=a_vals_71, other=0.0)  # load1_a_vals: stage 1, partition 0 (group 0)
    a_vals_73 = a_vals_72_p1.to(gl.float32)  # convert1_a_vals: stage 2, partition 0 (group 0)
    intermediate_74 = gl.expand_dims(h_vals_65_p1, 0)  # elementwise1_intermediate: stage 2, partition 0 (group 0)
    intermediate_75 = intermediate_74.broadcast_to([16, 64])  # elementwise1_intermediate: stage 2, partition 0 (group 0)
    intermediate_76 = a_vals_73 * intermediate_75  # elementwise1_intermediate: stage 2, partition 0 (group 0)
    intermediate_77 = gl.sum(intermediate_76, axis=1)  # reduce0_intermediate: stage 2, partition 0 (group 0)
    intermediate_78 = intermediate_78_p1 + intermediate_77  # elementwise2_intermediate: stage 2, partition 0 (group 0)
    a_vals_72_p1 = a_vals_72
    h_vals_64_p1 = h_vals_64
    h_vals_65_p1 = h_vals_65
    input_mask_p1 = input_mask
    input_offs_62_p1 = input_offs_62
    intermediate_78_p1 = intermediate_78
    a_vals_73 = a_vals_72_p1.to(gl.float32)  # convert1_a_vals: stage 2, partition 0 (group 0)
    intermediate_74 = gl.expand_dims(h_vals_65_p1, 0)  # elementwise1_intermediate: stage 2, partition 0 (group 0)
    intermediate_75 = intermediate_74.broadcast_to([16, 64])  # elementwise1_intermediate: stage 2, partition 0 (group 0)
    intermediate_76 = a_vals_73 * intermediate_75  # elementwise1_intermediate: stage 2, partition 0 (group 0)
    intermediate_77 = gl.sum(intermediate_76, axis=1)  # reduce0_intermediate: stage 2, partition 0 (group 0)
    intermediate_78 = intermediate_78_p1 + intermediate_77  # elementwise2_intermediate: stage 2, partition 0 (group 0)
    a_vals_72_p1 = a_vals_72
    h_vals_64_p1 = h_vals_64
    h_vals_65_p1 = h_vals_65
    input_mask_p1 = input_mask
    input_offs_62_p1 = input_offs_62
    intermediate_78_p1 = intermediate_78
    out_start = slice_id * 64
    out_offs = gl.arange(0, 64, layout=L3)
    out_offs_30 = gl.arange(0, 64, layout=L4)
    out_offs_33 = out_start + out_offs
    out_offs_34 = out_start + out_offs_30
    out_mask = out_offs_33 < 1536
    out_mask_35 = out_offs_34 < 1536
    b_ptrs = gl.expand_dims(out_offs_33, 0)
    b_ptrs_36 = b_ptrs * 16
    b_ptrs_38 = lora_b_base_20 + b_ptrs_36
    b_ptrs_39 = gl.expand_dims(r_offs_21, 1)
    b_ptrs_40 = b_ptrs_38.broadcast_to([16, 64])
    b_ptrs_41 = b_ptrs_39.broadcast_to([16, 64])
    b_ptrs_42 = b_ptrs_40 + b_ptrs_41
    b_vals = gl.expand_dims(rank_mask_24, 1)
    b_vals_43 = gl.expand_dims(out_mask, 0)
    b_vals_44 = b_vals.broadcast_to([16, 64])
    b_vals_45 = b_vals_43.broadcast_to([16, 64])
    b_vals_46 = b_vals_44 & b_vals_45
    b_vals_47 = gl.load(b_ptrs_42, mask=b_vals_46, other=0.0)
    b_vals_48 = b_vals_47.to(gl.float32)
    out_vals = gl.expand_dims(intermediate_78_p1, 1)
    out_vals_49 = gl.convert_layout(out_vals, L5)
    out_vals_50 = out_vals_49.broadcast_to([16, 64])
    out_vals_51 = b_vals_48 * out_vals_50
    out_vals_52 = gl.sum(out_vals_51, axis=0)
    out_vals_54 = out_vals_52 * scaling_12
    out_row_base = actual_token_id_8 * 1536
    out_ptrs = output_ptr + out_row_base
    out_ptrs_56 = out_ptrs + out_offs_34
    lora_out_ptrs = lora_output_ptr + out_row_base
    lora_out_ptrs_58 = lora_out_ptrs + out_offs_34
    store_mask_59 = out_mask_35 & has_rank
    v2 = out_vals_54.to(gl.float16)
    v3 = gl.convert_layout(v2, L4)
    v4 = gl.atomic_add(out_ptrs_56, v3, mask=store_mask_59, sem='acq_rel', scope='gpu')
    v5 = gl.atomic_add(lora_out_ptrs_58, v3, mask=store_mask_59, sem='acq_rel', scope='gpu')

@gluon.jit
def twill_kernel(hidden_states_ptr, lora_a_weights_ptr, lora_b_weights_ptr, output_ptr, lora_output_ptr, token_ids_ptr, expert_ids_ptr, lora_ids_ptr, num_dispatched, lora_ranks_ptr, lora_scalings_ptr):
    spatial_id = gl.program_id(0)
    v0 = spatial_id >= num_dispatched
    if v0:
        return
    spatial_id = gl.program_id(0)
    lora_id_grid = gl.program_id(2)
    token_lora_id = lora_ids_ptr + spatial_id
    token_lora_id_10 = gl.load(token_lora_id)
    v1 = token_lora_id_10 != lora_id_grid
    if v1:
        return
    lora_id_grid = gl.program_id(2)
    rank = lora_ranks_ptr + lora_id_grid
    rank_11 = gl.load(rank)
    has_rank_13 = rank_11 <= 0
    if has_rank_13:
        return
    consumer_0(hidden_states_ptr, lora_a_weights_ptr, lora_b_weights_ptr, output_ptr, lora_output_ptr, token_ids_ptr, expert_ids_ptr, lora_ids_ptr, num_dispatched, lora_ranks_ptr, lora_scalings_ptr, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['hidden_states_ptr', 'lora_a_weights_ptr', 'lora_b_weights_ptr', 'output_ptr', 'lora_output_ptr', 'token_ids_ptr', 'expert_ids_ptr', 'lora_ids_ptr', 'input_dim', 'output_dim', 'max_rank', 'num_experts', 'num_dispatched', 'lora_a_stride_lora', 'lora_a_stride_expert', 'lora_a_stride_rank', 'lora_a_stride_input', 'lora_b_stride_lora', 'lora_b_stride_expert', 'lora_b_stride_output', 'lora_b_stride_rank', 'lora_ranks_ptr', 'lora_scalings_ptr', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['hidden_states_ptr', 'lora_a_weights_ptr', 'lora_b_weights_ptr', 'output_ptr', 'lora_output_ptr', 'token_ids_ptr', 'expert_ids_ptr', 'lora_ids_ptr', 'num_dispatched', 'lora_ranks_ptr', 'lora_scalings_ptr']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['hidden_states_ptr', 'lora_a_weights_ptr', 'lora_b_weights_ptr', 'output_ptr', 'lora_output_ptr', 'token_ids_ptr', 'expert_ids_ptr', 'lora_ids_ptr', 'num_dispatched', 'lora_ranks_ptr', 'lora_scalings_ptr']   # the arguments a launch key reads
CONSTEXPRS = {'input_dim': 2048, 'output_dim': 1536, 'max_rank': 16, 'num_experts': 128, 'lora_a_stride_lora': 4194304, 'lora_a_stride_expert': 32768, 'lora_a_stride_rank': 2048, 'lora_a_stride_input': 1, 'lora_b_stride_lora': 3145728, 'lora_b_stride_expert': 24576, 'lora_b_stride_output': 16, 'lora_b_stride_rank': 1, 'BLOCK_SIZE': 64}         # the specialisation this kernel was generated for
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
