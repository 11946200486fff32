"""array_jagged_bmm_kernel, written by twill from its joint schedule: I=480 L=396 (optimal), 760 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 320).

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (b_86_as 2 x 4096 B, a_82_as 2 x 4096 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 64 per thread)
- shared memory: 16400 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at fbgemm_array_jagged_bmm.py:79 (TTGIR line 53): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at fbgemm_array_jagged_bmm.py:85 (TTGIR line 63): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]))
L5 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]), k_width=1))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]), k_width=1))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, a_offsets_ptr, b_offsets_ptr, c_offsets_ptr, D, stride_bk, stride_cm, transpose, max_seq_len, TWILL_COPY: gl.constexpr):
    pid_batch = gl.program_id(2)
    pid_m = gl.program_id(1)
    pid_n = gl.program_id(0)
    batch_offset_am = a_offsets_ptr + pid_batch
    batch_offset_am_2 = gl.load(batch_offset_am)
    batch_offset_bk = b_offsets_ptr + pid_batch
    batch_offset_bk_3 = gl.load(batch_offset_bk)
    batch_offset_cm = c_offsets_ptr + pid_batch
    batch_offset_cm_4 = gl.load(batch_offset_cm)
    batch_K = batch_offset_bk + 1
    batch_K_5 = gl.load(batch_K)
    batch_K_6 = batch_K_5 - batch_offset_bk_3
    batch_M = batch_offset_cm + 1
    batch_M_7 = gl.load(batch_M)
    batch_M_8 = batch_M_7 - batch_offset_cm_4
    stride_am = 1 - transpose
    stride_am_9 = gl.cast(stride_am, gl.int64)
    stride_am_10 = batch_M_8 * stride_am_9
    stride_am_11 = gl.cast(transpose, gl.int64)
    stride_am_12 = stride_am_10 + stride_am_11
    stride_ak = batch_M_8 * stride_am_11
    stride_ak_13 = stride_ak + stride_am_9
    batch_K_14 = gl.cast(max_seq_len, gl.int64)
    batch_K_15 = gl.minimum(batch_K_6, batch_K_14)
    batch_M_16 = gl.minimum(batch_M_8, batch_K_14)
    v1 = pid_m * 32
    v4 = pid_n * 32
    offs_am = gl.arange(0, 32, layout=L0)
    offs_am_17 = gl.arange(0, 32, layout=L1)
    offs_am_18 = gl.arange(0, 32, layout=L2)
    offs_am_21 = v1 + offs_am
    offs_am_22 = v1 + offs_am_17
    offs_am_23 = offs_am_21.to(gl.int64)
    offs_am_25 = offs_am_23 % batch_M_16
    offs_bn_26 = v4 + offs_am_18
    offs_bn_28 = offs_bn_26 % D
    a_ptrs = a_ptr + batch_offset_am_2
    a_ptrs_29 = gl.expand_dims(offs_am_25, 1)
    a_ptrs_31 = a_ptrs_29 * stride_am_12
    a_ptrs_32 = gl.arange(0, 32, layout=L3)
    a_ptrs_33 = gl.expand_dims(a_ptrs_32, 0)
    a_ptrs_34 = a_ptrs_33.to(gl.int64)
    a_ptrs_36 = a_ptrs_34 * stride_ak_13
    a_ptrs_37 = a_ptrs_31.broadcast_to([32, 32])
    a_ptrs_38 = a_ptrs_36.broadcast_to([32, 32])
    a_ptrs_39 = a_ptrs_37 + a_ptrs_38
    a_ptrs_41 = a_ptrs + a_ptrs_39
    b_ptrs = gl.cast(stride_bk, gl.int64)
    b_ptrs_42 = batch_offset_bk_3 * b_ptrs
    b_ptrs_43 = b_ptr + b_ptrs_42
    b_ptrs_44 = gl.expand_dims(offs_am_17, 1)
    b_ptrs_46 = b_ptrs_44 * stride_bk
    b_ptrs_47 = gl.expand_dims(offs_bn_28, 0)
    b_ptrs_48 = b_ptrs_46.broadcast_to([32, 32])
    b_ptrs_49 = b_ptrs_47.broadcast_to([32, 32])
    b_ptrs_50 = b_ptrs_48 + b_ptrs_49
    b_ptrs_52 = b_ptrs_43 + b_ptrs_50
    v7 = batch_K_15 + 31
    v8 = v7 // 32
    b = b_ptrs_44.to(gl.int64)
    a_ptrs_53 = stride_ak_13 * 32
    b_ptrs_55 = stride_bk * 32
    twill_n = gl.cast((v8 - 0 + 1 - 1) // 1, gl.int32)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_86_as = gl.allocate_shared_memory(gl.float32, [2, 32, 32], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=4, order=[1, 0]))
        a_82_as = gl.allocate_shared_memory(gl.float32, [2, 32, 32], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=4, order=[0, 1]))
        a_ptrs_90 = a_ptrs_41
        b_ptrs_91 = b_ptrs_52
        a_ptrs_90_p1 = a_ptrs_90
        b_ptrs_91_p1 = b_ptrs_91
        c_89 = gl.full([32, 32], 0.0, gl.float32, layout=L4)
        a = (0 + (0 - 0) * 1) * 32  # load0_a: stage 0, partition 0 (group 0)
        a_78 = batch_K_15 - a  # load0_a: stage 0, partition 0 (group 0)
        b_83 = a_78  # load1_b: stage 0, partition 0 (group 0)
        b_84 = b < b_83  # load1_b: stage 0, partition 0 (group 0)
        b_85 = b_84.broadcast_to([32, 32])  # load1_b: stage 0, partition 0 (group 0)
        b_ptrs_91 = b_ptrs_91_p1 + b_ptrs_55  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_86_as.index((0 - 0) % 2), b_ptrs_91_p1, mask=b_85)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_86_as.index((0 - 0) % 2).store(gl.load(b_ptrs_91_p1, mask=b_85, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
        a_79 = a_78  # load0_a: stage 0, partition 0 (group 0)
        a_80 = a_ptrs_34 < a_79  # load0_a: stage 0, partition 0 (group 0)
        a_81 = a_80.broadcast_to([32, 32])  # load0_a: stage 0, partition 0 (group 0)
        a_ptrs_90 = a_ptrs_90_p1 + a_ptrs_53  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_82_as.index((0 - 0) % 2), a_ptrs_90_p1, mask=a_81)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_82_as.index((0 - 0) % 2).store(gl.load(a_ptrs_90_p1, mask=a_81, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_90_p1 = a_ptrs_90
        b_ptrs_91_p1 = b_ptrs_91
        c_89_p1 = c_89
        for twill_b in range(1, twill_n):
            a = (0 + (twill_b - 0) * 1) * 32  # load0_a: stage 0, partition 0 (group 0)
            a_78 = batch_K_15 - a  # load0_a: stage 0, partition 0 (group 0)
            b_83 = a_78  # load1_b: stage 0, partition 0 (group 0)
            b_84 = b < b_83  # load1_b: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_86 = b_86_as.index((twill_b - 1) % 2).load(L5)  # load1_b: stage 1, partition 0 (group 0)
            b_85 = b_84.broadcast_to([32, 32])  # load1_b: stage 0, partition 0 (group 0)
            b_ptrs_91 = b_ptrs_91_p1 + b_ptrs_55  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_86_as.index((twill_b - 0) % 2), b_ptrs_91_p1, mask=b_85)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_86_as.index((twill_b - 0) % 2).store(gl.load(b_ptrs_91_p1, mask=b_85, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
            b_88 = gl.convert_layout(b_86, L5)  # convert1_b: stage 1, partition 0 (group 0)
            a_79 = a_78  # load0_a: stage 0, partition 0 (group 0)
            a_80 = a_ptrs_34 < a_79  # load0_a: stage 0, partition 0 (group 0)
            a_82 = a_82_as.index((twill_b - 1) % 2).load(L6)  # load0_a: stage 1, partition 0 (group 0)
            a_81 = a_80.broadcast_to([32, 32])  # load0_a: stage 0, partition 0 (group 0)
            a_ptrs_90 = a_ptrs_90_p1 + a_ptrs_53  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_82_as.index((twill_b - 0) % 2), a_ptrs_90_p1, mask=a_81)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_82_as.index((twill_b - 0) % 2).store(gl.load(a_ptrs_90_p1, mask=a_81, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
            a_87 = gl.convert_layout(a_82, L6)  # convert0_a: stage 1, partition 0 (group 0)
            c_89 = mma_v2(a_87, b_88, c_89_p1, input_precision='tf32')  # dot0_c: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            a_ptrs_90_p1 = a_ptrs_90
            b_ptrs_91_p1 = b_ptrs_91
            c_89_p1 = c_89
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_86 = b_86_as.index(((twill_n - 1 + 1) - 1) % 2).load(L5)  # load1_b: stage 1, partition 0 (group 0)
        b_88 = gl.convert_layout(b_86, L5)  # convert1_b: stage 1, partition 0 (group 0)
        a_82 = a_82_as.index(((twill_n - 1 + 1) - 1) % 2).load(L6)  # load0_a: stage 1, partition 0 (group 0)
        a_87 = gl.convert_layout(a_82, L6)  # convert0_a: stage 1, partition 0 (group 0)
        c_89 = mma_v2(a_87, b_88, c_89_p1, input_precision='tf32')  # dot0_c: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_90_p2 = a_ptrs_90_p1
        a_ptrs_90_p1 = a_ptrs_90
        b_ptrs_91_p2 = b_ptrs_91_p1
        b_ptrs_91_p1 = b_ptrs_91
        c_89_p1 = c_89
    else:
        c_89_p1 = gl.full([32, 32], 0.0, gl.float32, layout=L4)
        a_ptrs_90_p2 = a_ptrs_41
        b_ptrs_91_p2 = b_ptrs_52
    c_ptrs = gl.cast(stride_cm, gl.int64)
    c_ptrs_57 = c_ptrs * batch_offset_cm_4
    c_ptrs_58 = c_ptr + c_ptrs_57
    c_ptrs_59 = gl.expand_dims(offs_am_22, 1)
    c_ptrs_61 = stride_cm * c_ptrs_59
    c_ptrs_63 = c_ptrs_58 + c_ptrs_61
    c_ptrs_64 = gl.expand_dims(offs_bn_26, 0)
    c_ptrs_65 = c_ptrs_63.broadcast_to([32, 32])
    c_ptrs_66 = c_ptrs_64.broadcast_to([32, 32])
    c_ptrs_67 = c_ptrs_65 + c_ptrs_66
    c_mask = c_ptrs_59.to(gl.int64)
    c_mask_69 = c_mask < batch_M_16
    c_mask_71 = c_ptrs_64 < D
    c_mask_72 = c_mask_69.broadcast_to([32, 32])
    c_mask_73 = c_mask_71.broadcast_to([32, 32])
    c_mask_74 = c_mask_72 & c_mask_73
    v9 = gl.convert_layout(c_89_p1, L7)
    gl.store(c_ptrs_67, v9, mask=c_mask_74)

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, a_offsets_ptr, b_offsets_ptr, c_offsets_ptr, D, stride_bk, stride_cm, transpose, max_seq_len, TWILL_COPY: gl.constexpr):
    pid_batch = gl.program_id(2)
    batch_offset_bk = b_offsets_ptr + pid_batch
    batch_offset_bk_3 = gl.load(batch_offset_bk)
    batch_K = batch_offset_bk + 1
    batch_K_5 = gl.load(batch_K)
    batch_K_6 = batch_K_5 - batch_offset_bk_3
    batch_K_14 = gl.cast(max_seq_len, gl.int64)
    batch_K_15 = gl.minimum(batch_K_6, batch_K_14)
    v0 = batch_K_15 == 0
    if v0:
        return
    pid_batch = gl.program_id(2)
    pid_m = gl.program_id(1)
    pid_n = gl.program_id(0)
    batch_offset_cm = c_offsets_ptr + pid_batch
    batch_offset_cm_4 = gl.load(batch_offset_cm)
    batch_M = batch_offset_cm + 1
    batch_M_7 = gl.load(batch_M)
    batch_M_8 = batch_M_7 - batch_offset_cm_4
    batch_K_14 = gl.cast(max_seq_len, gl.int64)
    batch_M_16 = gl.minimum(batch_M_8, batch_K_14)
    v1 = pid_m * 32
    v2 = gl.cast(v1, gl.int64)
    v3 = v2 >= batch_M_16
    v4 = pid_n * 32
    v5 = v4 >= D
    v6 = v3 | v5
    if v6:
        return
    consumer_0(a_ptr, b_ptr, c_ptr, a_offsets_ptr, b_offsets_ptr, c_offsets_ptr, D, stride_bk, stride_cm, transpose, max_seq_len, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'a_offsets_ptr', 'b_offsets_ptr', 'c_offsets_ptr', 'D', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'transpose', 'max_seq_len', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'allow_tf32']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'a_offsets_ptr', 'b_offsets_ptr', 'c_offsets_ptr', 'D', 'stride_bk', 'stride_cm', 'transpose', 'max_seq_len']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'a_offsets_ptr', 'b_offsets_ptr', 'c_offsets_ptr', 'D', 'stride_bk', 'stride_cm', 'transpose', 'max_seq_len']   # the arguments a launch key reads
CONSTEXPRS = {'stride_bn': 1, 'stride_cn': 1, 'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32, 'allow_tf32': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'a_offsets_ptr', 'b_offsets_ptr', 'c_offsets_ptr', 'D', 'stride_bk', 'transpose', 'max_seq_len']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED)}
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


def _aligned(value):
    """Whether an argument is specialised as 16-divisible (Triton's rule): an integer's value, a tensor's address."""
    if hasattr(value, "data_ptr"):
        return value.data_ptr() % 16 == 0
    return isinstance(value, int) and value % 16 == 0


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
