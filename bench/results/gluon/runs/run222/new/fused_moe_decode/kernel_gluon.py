"""fused_moe_kernel, written by twill from its joint schedule: I=250 L=185 (optimal), 1240 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 800).

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (a_88_as 2 x 4096 B, b_91_as 2 x 16384 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 88 per thread)
- shared memory: 40976 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at fused_moe_decode.py:45 (TTGIR line 52): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=2))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m_5 = EM + 15
    num_pid_m_6 = num_pid_m_5 // 16
    num_pid_n_7 = N + 63
    num_pid_n_8 = num_pid_n_7 // 64
    group_id = pid // num_pid_n_8
    group_size_m = num_pid_m_6 - group_id
    group_size_m_9 = gl.minimum(group_size_m, 1)
    pid_m = pid % num_pid_n_8
    pid_m_10 = pid_m % group_size_m_9
    pid_m_11 = group_id + pid_m_10
    pid_n = pid_m // group_size_m_9
    v0 = pid_m_11 * 16
    offs_token_id = gl.arange(0, 16, layout=L0)
    offs_token_id_12 = gl.arange(0, 16, layout=L1)
    offs_token_id_13 = offs_token_id.to(gl.int64)
    offs_token_id_14 = offs_token_id_12.to(gl.int64)
    offs_token_id_15 = gl.cast(v0, gl.int64)
    offs_token_id_18 = offs_token_id_15 + offs_token_id_13
    offs_token_id_19 = offs_token_id_15 + offs_token_id_14
    offs_token_21 = sorted_token_ids_ptr + offs_token_id_18
    offs_token_22 = sorted_token_ids_ptr + offs_token_id_19
    offs_token_23 = gl.load(offs_token_21)
    offs_token_24 = gl.load(offs_token_22)
    token_mask_26 = offs_token_23 < num_valid_tokens
    token_mask_27 = offs_token_24 < num_valid_tokens
    off_experts = expert_ids_ptr + pid_m_11
    off_experts_28 = gl.load(off_experts)
    off_experts_29 = gl.cast(off_experts_28, gl.int64)
    offs_bn = pid_n * 64
    offs_bn_30 = gl.arange(0, 64, layout=L2)
    offs_bn_31 = gl.arange(0, 64, layout=L3)
    offs_bn_32 = offs_bn_30.to(gl.int64)
    offs_bn_33 = gl.cast(offs_bn, gl.int64)
    offs_bn_35 = offs_bn_33 + offs_bn_32
    offs_bn_36 = gl.cast(N, gl.int64)
    offs_bn_38 = offs_bn_35 % offs_bn_36
    a_ptrs = gl.expand_dims(offs_token_23, 1)
    a_ptrs_39 = gl.expand_dims(offs_token_24, 1)
    a_ptrs_40 = a_ptrs // 2
    a_ptrs_42 = a_ptrs_40 * stride_am
    a_ptrs_43 = gl.arange(0, 128, layout=L4)
    a_ptrs_44 = gl.expand_dims(a_ptrs_43, 0)
    a_ptrs_45 = a_ptrs_42.broadcast_to([16, 128])
    a_ptrs_46 = a_ptrs_44.broadcast_to([16, 128])
    a_ptrs_47 = a_ptrs_45 + a_ptrs_46
    a_ptrs_49 = a_ptr + a_ptrs_47
    b_ptrs = gl.cast(stride_be, gl.int64)
    b_ptrs_50 = off_experts_29 * b_ptrs
    b_ptrs_51 = b_ptr + b_ptrs_50
    b_ptrs_52 = gl.arange(0, 128, layout=L5)
    b_ptrs_53 = gl.expand_dims(b_ptrs_52, 1)
    b_ptrs_54 = gl.expand_dims(offs_bn_38, 0)
    b_ptrs_55 = gl.cast(stride_bn, gl.int64)
    b_ptrs_57 = b_ptrs_54 * b_ptrs_55
    b_ptrs_58 = b_ptrs_53.to(gl.int64)
    b_ptrs_59 = b_ptrs_58.broadcast_to([128, 64])
    b_ptrs_60 = b_ptrs_57.broadcast_to([128, 64])
    b_ptrs_61 = b_ptrs_59 + b_ptrs_60
    b_ptrs_63 = b_ptrs_51 + b_ptrs_61
    v2 = K + 127
    v3 = v2 // 128
    a = gl.expand_dims(token_mask_26, 1)
    a_64 = a.broadcast_to([16, 128])
    twill_n = (v3 - 0 + 1 - 1) // 1
    a_88_as = gl.allocate_shared_memory(gl.float16, [2, 16, 128], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
    b_91_as = gl.allocate_shared_memory(gl.float16, [2, 128, 64], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[0, 1]))
    a_ptrs_95 = a_ptrs_49
    b_ptrs_96 = b_ptrs_63
    a_ptrs_95_p1 = a_ptrs_95
    b_ptrs_96_p1 = b_ptrs_96
    accumulator_94 = gl.full([16, 64], 0.0, gl.float32, layout=L6)
    a_82 = (0 + (0 - 0) * 1) * 128  # elementwise0_a: stage 0, partition 0 (group 0)
    a_83 = K - a_82  # elementwise0_a: stage 0, partition 0 (group 0)
    a_84 = a_83  # elementwise0_a: stage 0, partition 0 (group 0)
    a_85 = a_ptrs_44 < a_84  # elementwise0_a: stage 0, partition 0 (group 0)
    a_86 = a_85.broadcast_to([16, 128])  # elementwise0_a: stage 0, partition 0 (group 0)
    a_87 = a_64 & a_86  # elementwise0_a: stage 0, partition 0 (group 0)
    a_ptrs_95 = a_ptrs_95_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(a_88_as.index((0 - 0) % 2), a_ptrs_95_p1, mask=a_87)  # load0_a: stage 0, partition 0 (group 0)
    else:  # load0_a: stage 0, partition 0 (group 0)
        a_88_as.index((0 - 0) % 2).store(gl.load(a_ptrs_95_p1, mask=a_87, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
    b = a_83  # load1_b: stage 0, partition 0 (group 0)
    b_89 = b_ptrs_53 < b  # load1_b: stage 0, partition 0 (group 0)
    b_90 = b_89.broadcast_to([128, 64])  # load1_b: stage 0, partition 0 (group 0)
    b_ptrs_96 = b_ptrs_96_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_91_as.index((0 - 0) % 2), b_ptrs_96_p1, mask=b_90)  # load1_b: stage 0, partition 0 (group 0)
    else:  # load1_b: stage 0, partition 0 (group 0)
        b_91_as.index((0 - 0) % 2).store(gl.load(b_ptrs_96_p1, mask=b_90, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_95_p1 = a_ptrs_95
    accumulator_94_p1 = accumulator_94
    b_ptrs_96_p1 = b_ptrs_96
    for twill_b in range(1, twill_n):
        a_82 = (0 + (twill_b - 0) * 1) * 128  # elementwise0_a: stage 0, partition 0 (group 0)
        a_83 = K - a_82  # elementwise0_a: stage 0, partition 0 (group 0)
        a_84 = a_83  # elementwise0_a: stage 0, partition 0 (group 0)
        a_85 = a_ptrs_44 < a_84  # elementwise0_a: stage 0, partition 0 (group 0)
        a_86 = a_85.broadcast_to([16, 128])  # elementwise0_a: stage 0, partition 0 (group 0)
        a_87 = a_64 & a_86  # elementwise0_a: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        a_88 = a_88_as.index((twill_b - 1) % 2).load(L7)  # load0_a: stage 1, partition 0 (group 0)
        a_ptrs_95 = a_ptrs_95_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_88_as.index((twill_b - 0) % 2), a_ptrs_95_p1, mask=a_87)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_88_as.index((twill_b - 0) % 2).store(gl.load(a_ptrs_95_p1, mask=a_87, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        a_92 = gl.convert_layout(a_88, L7)  # convert0_a: stage 1, partition 0 (group 0)
        b = a_83  # load1_b: stage 0, partition 0 (group 0)
        b_89 = b_ptrs_53 < b  # load1_b: stage 0, partition 0 (group 0)
        b_91 = b_91_as.index((twill_b - 1) % 2).load(L8)  # load1_b: stage 1, partition 0 (group 0)
        b_90 = b_89.broadcast_to([128, 64])  # load1_b: stage 0, partition 0 (group 0)
        b_ptrs_96 = b_ptrs_96_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_91_as.index((twill_b - 0) % 2), b_ptrs_96_p1, mask=b_90)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_91_as.index((twill_b - 0) % 2).store(gl.load(b_ptrs_96_p1, mask=b_90, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
        b_93 = gl.convert_layout(b_91, L8)  # convert1_b: stage 1, partition 0 (group 0)
        accumulator_94 = mma_v2(a_92, b_93, accumulator_94_p1)  # dot0_accumulator: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_95_p1 = a_ptrs_95
        accumulator_94_p1 = accumulator_94
        b_ptrs_96_p1 = b_ptrs_96
    async_copy.wait_group(0)
    gl.thread_barrier()
    a_88 = a_88_as.index(((twill_n - 1 + 1) - 1) % 2).load(L7)  # load0_a: stage 1, partition 0 (group 0)
    a_92 = gl.convert_layout(a_88, L7)  # convert0_a: stage 1, partition 0 (group 0)
    b_91 = b_91_as.index(((twill_n - 1 + 1) - 1) % 2).load(L8)  # load1_b: stage 1, partition 0 (group 0)
    b_93 = gl.convert_layout(b_91, L8)  # convert1_b: stage 1, partition 0 (group 0)
    accumulator_94 = mma_v2(a_92, b_93, accumulator_94_p1)  # dot0_accumulator: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_95_p2 = a_ptrs_95_p1
    a_ptrs_95_p1 = a_ptrs_95
    accumulator_94_p1 = accumulator_94
    b_ptrs_96_p2 = b_ptrs_96_p1
    b_ptrs_96_p1 = b_ptrs_96
    accumulator_65 = accumulator_94_p1.to(gl.float16)
    offs_cn_66 = offs_bn + offs_bn_31
    c_ptrs_67 = stride_cm * a_ptrs_39
    c_ptrs_69 = c_ptr + c_ptrs_67
    c_ptrs_70 = gl.expand_dims(offs_cn_66, 0)
    c_ptrs_71 = c_ptrs_69.broadcast_to([16, 64])
    c_ptrs_72 = c_ptrs_70.broadcast_to([16, 64])
    c_ptrs_73 = c_ptrs_71 + c_ptrs_72
    c_mask = gl.expand_dims(token_mask_27, 1)
    c_mask_75 = c_ptrs_70 < N
    c_mask_76 = c_mask.broadcast_to([16, 64])
    c_mask_77 = c_mask_75.broadcast_to([16, 64])
    c_mask_78 = c_mask_76 & c_mask_77
    v4 = gl.convert_layout(accumulator_65, L9)
    gl.store(c_ptrs_73, v4, mask=c_mask_78)

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    num_pid_m_5 = EM + 15
    num_pid_m_6 = num_pid_m_5 // 16
    num_pid_n_7 = N + 63
    num_pid_n_8 = num_pid_n_7 // 64
    group_id = pid // num_pid_n_8
    group_size_m = num_pid_m_6 - group_id
    group_size_m_9 = gl.minimum(group_size_m, 1)
    pid_m = pid % num_pid_n_8
    pid_m_10 = pid_m % group_size_m_9
    pid_m_11 = group_id + pid_m_10
    num_tokens_post_padded = gl.load(num_tokens_post_padded_ptr)
    v0 = pid_m_11 * 16
    v1 = v0 >= num_tokens_post_padded
    if v1:
        return
    consumer_0(a_ptr, b_ptr, c_ptr, topk_weights_ptr, sorted_token_ids_ptr, expert_ids_ptr, num_tokens_post_padded_ptr, N, K, EM, num_valid_tokens, stride_am, stride_be, stride_bn, stride_cm, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_ak', 'stride_be', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M', 'MUL_ROUTED_WEIGHT', 'top_k']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'topk_weights_ptr', 'sorted_token_ids_ptr', 'expert_ids_ptr', 'num_tokens_post_padded_ptr', 'N', 'K', 'EM', 'num_valid_tokens', 'stride_am', 'stride_be', 'stride_bn', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'BLOCK_SIZE_M': 16, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 128, 'GROUP_SIZE_M': 1, 'MUL_ROUTED_WEIGHT': 0, 'top_k': 2}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'K', 'stride_am', 'stride_be', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('((K + 127) // 128)', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (((K + 127) // 128)): run the Triton kernel for it")
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
