"""efficient_entropy_kernel_general_mainloop, written by twill from its joint schedule: I=272 L=289 (optimal), 512 cycles per iteration predicted.

Decisions (each from the schedule):
- partition 0 (default): consumer, warp group 0, 8 warps, 240 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings
- ring _hidden: 3 buffers of [128, 32] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring _weight: 4 buffers of [256, 32] bf16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 90240 bytes planned of 232448; maxnreg 168
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's
- if at verl_entropy_fwd_mainloop.py:99 (TTGIR line 74): written as it runs (not scheduled), in the kernel before its early return (its stores run on every path, the programs that return too)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L1 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 256, 16]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 256, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 256, 16])))

@gluon.jit
def consumer_0(rank, hidden_ptr, weight_ptr, labels_ptr, num_tokens, hidden_size, vocab_size, vocab_per_split, stride_hidden_m, stride_hidden_k, stride_weight_n, stride_weight_k, max_ptr, stride_max_m, stride_max_n, accu_ptr, stride_accu_m, stride_accu_n, entropy_b_ptr, stride_entropy_b_m, stride_entropy_b_n, global_logprobs_ptr, stride_global_logprobs, global_logprobs_scalar_ptr, rcp_temperature, hidden_desc, weight_desc, _hidden_buf, _weight_buf, _hidden_ready, _hidden_empty, _weight_ready, _weight_empty):
    num_pid_n_6 = vocab_per_split + 255
    num_pid_n_7 = num_pid_n_6 // 256
    _max_58 = gl.full([128], float("-inf"), gl.float32, layout=L2)
    arg27 = gl.full([128], 0.0, gl.float32, layout=L2)
    arg28 = gl.full([128], 0.0, gl.float32, layout=L2)
    arg29 = gl.full([128], 0.0, gl.float32, layout=L2)
    twill_tile_lb = 0
    twill_tile_step = 1
    twill_base = 0
    for _logprobs_57 in range(twill_tile_lb, num_pid_n_7, twill_tile_step):
        pid = gl.program_id(0)
        num_splits = vocab_size + vocab_per_split
        num_splits_2 = num_splits - 1
        num_splits_3 = num_splits_2 // vocab_per_split
        num_pid_m_4 = num_tokens + 127
        num_pid_m_5 = num_pid_m_4 // 128
        pid_m = pid % num_pid_m_5
        pid_n = pid // num_pid_m_5
        start_offs_am = pid_m * 128
        offs_am_8 = gl.arange(0, 128, layout=L0)
        offs_am_12 = start_offs_am + offs_am_8
        labels_15 = offs_am_12 < num_tokens
        labels_19 = labels_ptr + offs_am_12
        labels_21 = gl.load(labels_19, mask=labels_15)
        v3 = hidden_size + 31
        v4 = v3 // 32
        twill_n = (v4 - 0 + 1 - 1) // 1
        logits_88 = gl.full([128, 256], 0.0, gl.float32, layout=L1)
        logits_88_p1 = logits_88
        for twill_b in range(0, twill_n):
            mbarrier.wait(_hidden_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            mbarrier.wait(_weight_ready.index((twill_base + twill_b - 0) % 4), ((twill_base + twill_b - 0) // 4) & 1)
            tok_logits_88 = warpgroup_mma(_hidden_buf.index((twill_base + twill_b - 0) % 3), _weight_buf.index((twill_base + twill_b - 0) % 4).permute((1, 0)), logits_88_p1, is_async=True)  # dot0_logits: stage 0, partition 0 (group 0)
            logits_88_p1 = warpgroup_mma_wait(1, deps=(logits_88_p1,))
            mbarrier.arrive(_hidden_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(_weight_empty.index((twill_base + twill_b - 1 - 0) % 4), pred=(twill_b - 1 - 0) >= 0)
            logits_88 = warpgroup_mma_wait(1, deps=(tok_logits_88,))
            logits_88_p1 = logits_88
        logits_88_p1 = warpgroup_mma_wait(0, deps=(logits_88_p1,))
        _hidden_buf._keep_alive()
        _weight_buf._keep_alive()
        mbarrier.arrive(_hidden_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        mbarrier.arrive(_weight_empty.index((twill_base + (twill_n - 1) - 0) % 4), pred=twill_n > 0)
        offs_am = gl.arange(0, 128, layout=L2)
        offs_am_11 = start_offs_am + offs_am
        labels_14 = offs_am_11 < num_tokens
        labels_18 = labels_ptr + offs_am_11
        labels_20 = gl.load(labels_18, mask=labels_14)
        start_offs_bn = pid_n * vocab_per_split
        offs_bn = gl.arange(0, 256, layout=L3)
        label_mask = rank * vocab_size
        label_mask_23 = gl.expand_dims(labels_20, 1)
        label_mask_24 = label_mask_23.broadcast_to([128, 256])
        start_offs_bn_59 = _logprobs_57 * 256
        start_offs_bn_60 = start_offs_bn + start_offs_bn_59
        offs_bn_62 = start_offs_bn_60 + offs_bn
        logits_64 = logits_88_p1 * rcp_temperature
        m_pid_n = gl.max(logits_64, axis=1)
        _max_65 = gl.maximum(_max_58, m_pid_n)
        exp_logits = gl.expand_dims(_max_65, 1)
        exp_logits_66 = exp_logits.broadcast_to([128, 256])
        exp_logits_67 = logits_64 - exp_logits_66
        exp_logits_68 = gl.exp(exp_logits_67)
        coeff = _max_58 - _max_65
        coeff_69 = gl.exp(coeff)
        _accu = coeff_69 * arg27
        _accu_70 = gl.sum(exp_logits_68, axis=1)
        _accu_71 = _accu + _accu_70
        _entropy_b = arg28 * coeff_69
        _entropy_b_72 = logits_64 * exp_logits_68
        _entropy_b_73 = gl.sum(_entropy_b_72, axis=1)
        _entropy_b_74 = _entropy_b + _entropy_b_73
        label_mask_75 = offs_bn_62 + label_mask
        label_mask_76 = gl.expand_dims(label_mask_75, 0)
        label_mask_77 = label_mask_76.to(gl.int64)
        label_mask_78 = label_mask_77.broadcast_to([128, 256])
        label_mask_79 = label_mask_78 == label_mask_24
        _logprobs_80 = label_mask_79.to(gl.float32)
        _logprobs_81 = logits_64 * _logprobs_80
        _logprobs_82 = gl.sum(_logprobs_81, axis=1)
        _logprobs_83 = arg29 + _logprobs_82
        _max_58 = _max_65
        arg27 = _accu_71
        arg28 = _entropy_b_74
        arg29 = _logprobs_83
        twill_base += twill_n
    pid = gl.program_id(0)
    num_splits = vocab_size + vocab_per_split
    num_splits_2 = num_splits - 1
    num_splits_3 = num_splits_2 // vocab_per_split
    num_pid_m_4 = num_tokens + 127
    num_pid_m_5 = num_pid_m_4 // 128
    pid_m = pid % num_pid_m_5
    pid_n = pid // num_pid_m_5
    start_offs_am = pid_m * 128
    offs_am_8 = gl.arange(0, 128, layout=L0)
    offs_am_12 = start_offs_am + offs_am_8
    labels_15 = offs_am_12 < num_tokens
    labels_19 = labels_ptr + offs_am_12
    labels_21 = gl.load(labels_19, mask=labels_15)
    maximum_ptrs = gl.cast(pid_n, gl.int64)
    maximum_ptrs_25 = maximum_ptrs * stride_max_n
    maximum_ptrs_26 = max_ptr + maximum_ptrs_25
    maximum_ptrs_27 = offs_am_12.to(gl.int64)
    maximum_ptrs_29 = maximum_ptrs_27 * stride_max_m
    maximum_ptrs_31 = maximum_ptrs_26 + maximum_ptrs_29
    v5 = pid_n < num_splits_3
    v7 = labels_15 & v5
    v8 = gl.convert_layout(_max_58, L0)
    gl.store(maximum_ptrs_31, v8, mask=v7)
    accu_ptrs = maximum_ptrs * stride_accu_n
    accu_ptrs_32 = accu_ptr + accu_ptrs
    accu_ptrs_34 = maximum_ptrs_27 * stride_accu_m
    accu_ptrs_36 = accu_ptrs_32 + accu_ptrs_34
    v9 = gl.convert_layout(arg27, L0)
    gl.store(accu_ptrs_36, v9, mask=v7)
    entropy_b_ptrs = maximum_ptrs * stride_entropy_b_n
    entropy_b_ptrs_37 = entropy_b_ptr + entropy_b_ptrs
    entropy_b_ptrs_39 = maximum_ptrs_27 * stride_entropy_b_m
    entropy_b_ptrs_41 = entropy_b_ptrs_37 + entropy_b_ptrs_39
    v10 = gl.convert_layout(arg28, L0)
    gl.store(entropy_b_ptrs_41, v10, mask=v7)
    vocab_left_idx = pid_n * vocab_per_split
    vocab_left_idx_42 = rank * vocab_size
    vocab_left_idx_43 = vocab_left_idx + vocab_left_idx_42
    vocab_right_idx = pid_n + 1
    vocab_right_idx_44 = vocab_right_idx * vocab_per_split
    vocab_right_idx_45 = gl.minimum(vocab_right_idx_44, vocab_size)
    vocab_right_idx_46 = vocab_right_idx_45 + vocab_left_idx_42
    mask = gl.cast(vocab_left_idx_43, gl.int64)
    mask_48 = labels_21 >= mask
    mask_49 = gl.cast(vocab_right_idx_46, gl.int64)
    mask_51 = labels_21 < mask_49
    mask_52 = mask_48 & mask_51
    mask_53 = mask_52 & labels_15
    global_logprobs_ptrs_54 = maximum_ptrs_27 * stride_global_logprobs
    global_logprobs_ptrs_56 = global_logprobs_ptr + global_logprobs_ptrs_54
    v11 = gl.convert_layout(arg29, L0)
    gl.store(global_logprobs_ptrs_56, v11, mask=mask_53)

@gluon.jit
def producer_1(rank, hidden_ptr, weight_ptr, labels_ptr, num_tokens, hidden_size, vocab_size, vocab_per_split, stride_hidden_m, stride_hidden_k, stride_weight_n, stride_weight_k, max_ptr, stride_max_m, stride_max_n, accu_ptr, stride_accu_m, stride_accu_n, entropy_b_ptr, stride_entropy_b_m, stride_entropy_b_n, global_logprobs_ptr, stride_global_logprobs, global_logprobs_scalar_ptr, rcp_temperature, hidden_desc, weight_desc, _hidden_buf, _weight_buf, _hidden_ready, _hidden_empty, _weight_ready, _weight_empty):
    num_pid_n_6 = vocab_per_split + 255
    num_pid_n_7 = num_pid_n_6 // 256
    twill_tile_lb = 0
    twill_tile_step = 1
    twill_base = 0
    for _logprobs_57 in range(twill_tile_lb, num_pid_n_7, twill_tile_step):
        pid = gl.program_id(0)
        num_pid_m_4 = num_tokens + 127
        num_pid_m_5 = num_pid_m_4 // 128
        pid_m = pid % num_pid_m_5
        pid_n = pid // num_pid_m_5
        start_offs_am = pid_m * 128
        start_offs_bn = pid_n * vocab_per_split
        v3 = hidden_size + 31
        v4 = v3 // 32
        start_offs_bn_59 = _logprobs_57 * 256
        start_offs_bn_60 = start_offs_bn + start_offs_bn_59
        for logits_84 in range(0, v4, 1):
            twill_k = twill_base + (logits_84 - 0) // 1
            start_offs_k = logits_84 * 32
            mbarrier.wait(_hidden_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            mbarrier.expect(_hidden_ready.index(twill_k % 3), hidden_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(hidden_desc, [start_offs_am, start_offs_k], _hidden_ready.index(twill_k % 3), _hidden_buf.index(twill_k % 3))
            mbarrier.wait(_weight_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            mbarrier.expect(_weight_ready.index(twill_k % 4), weight_desc.block_type.nbytes)
            tma.async_copy_global_to_shared(weight_desc, [start_offs_bn_60, start_offs_k], _weight_ready.index(twill_k % 4), _weight_buf.index(twill_k % 4))
        twill_trips = (v4 - 0 + 1 - 1) // 1
        twill_base += twill_trips

@gluon.jit
def twill_kernel(rank, hidden_ptr, weight_ptr, labels_ptr, num_tokens, hidden_size, vocab_size, vocab_per_split, stride_hidden_m, stride_hidden_k, stride_weight_n, stride_weight_k, max_ptr, stride_max_m, stride_max_n, accu_ptr, stride_accu_m, stride_accu_n, entropy_b_ptr, stride_entropy_b_m, stride_entropy_b_n, global_logprobs_ptr, stride_global_logprobs, global_logprobs_scalar_ptr, rcp_temperature, hidden_desc, weight_desc):
    pid = gl.program_id(0)
    num_pid_m_4 = num_tokens + 127
    num_pid_m_5 = num_pid_m_4 // 128
    pid_m = pid % num_pid_m_5
    pid_n = pid // num_pid_m_5
    v0 = pid_m == 0
    v1 = pid_n == 0
    v2 = v0 & v1
    if v2:
        gl.store(global_logprobs_scalar_ptr, 0.0)
    _hidden_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 128, 32], hidden_desc.layout)
    _weight_buf = gl.allocate_shared_memory(gl.bfloat16, [4, 256, 32], weight_desc.layout)
    _hidden_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(_hidden_ready.index(i), count=1)
    _hidden_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(_hidden_empty.index(i), count=1)
    _weight_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(_weight_ready.index(i), count=1)
    _weight_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(_weight_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (rank, hidden_ptr, weight_ptr, labels_ptr, num_tokens, hidden_size, vocab_size, vocab_per_split, stride_hidden_m, stride_hidden_k, stride_weight_n, stride_weight_k, max_ptr, stride_max_m, stride_max_n, accu_ptr, stride_accu_m, stride_accu_n, entropy_b_ptr, stride_entropy_b_m, stride_entropy_b_n, global_logprobs_ptr, stride_global_logprobs, global_logprobs_scalar_ptr, rcp_temperature, hidden_desc, weight_desc, _hidden_buf, _weight_buf, _hidden_ready, _hidden_empty, _weight_ready, _weight_empty)),
        (producer_1, (rank, hidden_ptr, weight_ptr, labels_ptr, num_tokens, hidden_size, vocab_size, vocab_per_split, stride_hidden_m, stride_hidden_k, stride_weight_n, stride_weight_k, max_ptr, stride_max_m, stride_max_n, accu_ptr, stride_accu_m, stride_accu_n, entropy_b_ptr, stride_entropy_b_m, stride_entropy_b_n, global_logprobs_ptr, stride_global_logprobs, global_logprobs_scalar_ptr, rcp_temperature, hidden_desc, weight_desc, _hidden_buf, _weight_buf, _hidden_ready, _hidden_empty, _weight_ready, _weight_empty)),
    ], [1], [24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['rank', 'hidden_ptr', 'weight_ptr', 'labels_ptr', 'num_tokens', 'hidden_size', 'vocab_size', 'vocab_per_split', 'stride_hidden_m', 'stride_hidden_k', 'stride_weight_n', 'stride_weight_k', 'max_ptr', 'stride_max_m', 'stride_max_n', 'accu_ptr', 'stride_accu_m', 'stride_accu_n', 'entropy_b_ptr', 'stride_entropy_b_m', 'stride_entropy_b_n', 'global_logprobs_ptr', 'stride_global_logprobs', 'global_logprobs_scalar_ptr', 'rcp_temperature', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'USE_TMA']          # the Triton kernel's parameters, in order
RUNTIME = ['rank', 'hidden_ptr', 'weight_ptr', 'labels_ptr', 'num_tokens', 'hidden_size', 'vocab_size', 'vocab_per_split', 'stride_hidden_m', 'stride_hidden_k', 'stride_weight_n', 'stride_weight_k', 'max_ptr', 'stride_max_m', 'stride_max_n', 'accu_ptr', 'stride_accu_m', 'stride_accu_n', 'entropy_b_ptr', 'stride_entropy_b_m', 'stride_entropy_b_n', 'global_logprobs_ptr', 'stride_global_logprobs', 'global_logprobs_scalar_ptr', 'rcp_temperature', 'hidden_desc', 'weight_desc']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['rank', 'hidden_ptr', 'weight_ptr', 'labels_ptr', 'num_tokens', 'hidden_size', 'vocab_size', 'vocab_per_split', 'stride_hidden_m', 'stride_hidden_k', 'stride_weight_n', 'stride_weight_k', 'max_ptr', 'stride_max_m', 'stride_max_n', 'accu_ptr', 'stride_accu_m', 'stride_accu_n', 'entropy_b_ptr', 'stride_entropy_b_m', 'stride_entropy_b_n', 'global_logprobs_ptr', 'stride_global_logprobs', 'global_logprobs_scalar_ptr', 'rcp_temperature', 'hidden_desc', 'weight_desc']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 32, 'USE_TMA': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {'hidden_desc': [128, 32], 'weight_desc': [256, 32]}
DESCRIPTOR_LAYOUTS = {'hidden_desc': 'NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'weight_desc': 'NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
LAUNCH_DESCRIPTORS = {'hidden_desc': ('hidden_ptr', ['num_tokens', 'hidden_size'], ['stride_hidden_m', '1']), 'weight_desc': ('weight_ptr', ['vocab_size', 'hidden_size'], ['stride_weight_n', '1'])}   # tl.make_tensor_descriptor in the kernel: (base, shape, strides)
NUM_WARPS = 8
MAXNREG = 168
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


class _Made:
    """A descriptor the kernel made itself: its base tensor, shape and strides, as a host descriptor holds them."""

    def __init__(self, base, shape, strides):
        self.base, self.shape, self.strides = base, shape, strides


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
    for n, (base, shape, strides) in LAUNCH_DESCRIPTORS.items():
        bound[n] = _Made(bound[base], [_ev(e, bound) for e in shape], [_ev(e, bound) for e in strides])
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
