"""matmul_kernel_with_tensor_descriptors_batched, written by twill from its joint schedule: I=594 L=990 (optimal), 576 cycles per iteration predicted.

Decisions (each from the schedule):
- tensor descriptor(s) made in the kernel (intel_gemm_preop_exp_desc.py:68 (TTGIR line 38), intel_gemm_preop_exp_desc.py:70 (TTGIR line 40), intel_gemm_preop_exp_desc.py:86 (TTGIR line 56): a base the launch cannot give): by each partition that reads one, once a CTA, so not persistent (a CTA remaking one per tile could overwrite it under its last tile's copies)
- rows: 128 split into 2 sub-tiles of 64 (the rows are independent; the joint search chose the split)
- partition 0 (default): consumer, warp group 0, 4 warps, 240 registers per thread (needs about 136): sub-tile 0, 1 stages
- partition 1 (worker): consumer, warp group 1, 4 warps, 240 registers per thread (needs about 136): sub-tile 1, 2 stages
- partition 2 (worker): producer, warp group 2, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings
- ring a_8_t0: 3 buffers of [64, 64] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring a_8_t1: 3 buffers of [64, 64] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 1
- ring b_13: 3 buffers of [64, 128] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0, 1
- tensor-core order: the schedule's slots (partition 1 (1 dot) | partition 0 (1 dot)) are not enforced; each consumer issues its GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)
- shared memory: 164024 bytes planned of 232448; maxnreg 168

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L1 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]), k_width=2))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, a_8_t0_buf, a_8_t1_buf, b_13_buf, out3_c0_t0_buf, out4_c1_t1_buf, a_8_t0_ready, a_8_t0_empty, a_8_t1_ready, a_8_t1_empty, b_13_ready, b_13_empty):
    bid = gl.program_id(1)
    pid = gl.program_id(0)
    group_id = pid // 32
    first_pid_m = group_id * 4
    group_size_m = 8 - first_pid_m
    group_size_m_0 = gl.minimum(group_size_m, 4)
    pid_m = pid % 32
    pid_m_1 = pid_m % group_size_m_0
    pid_m_2 = first_pid_m + pid_m_1
    pid_n = pid_m // group_size_m_0
    offset_a = gl.cast(bid, gl.int64)
    offset_a_3 = offset_a * 1048576
    twill_n = (1024 - 0 + 64 - 1) // 64
    accumulator_t0 = gl.full([64, 128], 0.0, gl.float32, layout=L0)
    accumulator_t0_p1 = accumulator_t0
    mbarrier.wait(a_8_t0_ready.index((0 - 0) % 3), ((0 - 0) // 3) & 1)
    a_9_t0 = a_8_t0_buf.index((0 - 0) % 3).load(L1)  # convert0_a_s0: stage 0, partition 0 (group 0)
    mbarrier.arrive(a_8_t0_empty.index((0 - 0) % 3))
    a_10_t0 = a_9_t0.to(gl.float32)  # convert0_a_s0: stage 0, partition 0 (group 0)
    a_11_t0 = gl.exp(a_10_t0)  # sfu0_a_s0: stage 0, partition 0 (group 0)
    a_12_t0 = a_11_t0.to(gl.bfloat16)  # convert1_a_s0: stage 0, partition 0 (group 0)
    mbarrier.wait(b_13_ready.index((0 - 0) % 3), ((0 - 0) // 3) & 1)
    tok_accumulator_t0 = warpgroup_mma(a_12_t0, b_13_buf.index((0 - 0) % 3), accumulator_t0_p1, is_async=True)  # dot0_accumulator_s0: stage 0, partition 0 (group 0)
    accumulator_t0 = warpgroup_mma_wait(0, deps=(tok_accumulator_t0,))
    mbarrier.arrive(b_13_empty.index((0 - 0) % 3))
    accumulator_t0_p1 = accumulator_t0
    for twill_b in range(1, twill_n):
        mbarrier.wait(a_8_t0_ready.index((twill_b - 0) % 3), ((twill_b - 0) // 3) & 1)
        a_9_t0 = a_8_t0_buf.index((twill_b - 0) % 3).load(L1)  # convert0_a_s0: stage 0, partition 0 (group 0)
        mbarrier.arrive(a_8_t0_empty.index((twill_b - 0) % 3))
        a_10_t0 = a_9_t0.to(gl.float32)  # convert0_a_s0: stage 0, partition 0 (group 0)
        a_11_t0 = gl.exp(a_10_t0)  # sfu0_a_s0: stage 0, partition 0 (group 0)
        a_12_t0 = a_11_t0.to(gl.bfloat16)  # convert1_a_s0: stage 0, partition 0 (group 0)
        mbarrier.wait(b_13_ready.index((twill_b - 0) % 3), ((twill_b - 0) // 3) & 1)
        tok_accumulator_t0 = warpgroup_mma(a_12_t0, b_13_buf.index((twill_b - 0) % 3), accumulator_t0_p1, is_async=True)  # dot0_accumulator_s0: stage 0, partition 0 (group 0)
        accumulator_t0 = warpgroup_mma_wait(0, deps=(tok_accumulator_t0,))
        mbarrier.arrive(b_13_empty.index((twill_b - 0) % 3))
        accumulator_t0_p1 = accumulator_t0
    accumulator_t0_p2 = accumulator_t0_p1
    accumulator_t0_p1 = accumulator_t0
    b_13_buf._keep_alive()
    c_desc = c_ptr + offset_a_3
    c_desc_6_t0 = tma.make_tensor_descriptor(c_desc, [1024, 1024], [1024, 1], [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=False))
    v0 = pid_m_2 * 128
    v1 = pid_n * 128
    v2_t0 = gl.convert_layout(accumulator_t0_p2, L2)
    out3_c0_t0_buf.store(accumulator_t0_p2)
    fence_async_shared()
    tma.async_copy_shared_to_global(c_desc_6_t0, [v0 + 0, v1], out3_c0_t0_buf)
    tma.store_wait(0)

@gluon.jit
def consumer_1(a_ptr, b_ptr, c_ptr, a_8_t0_buf, a_8_t1_buf, b_13_buf, out3_c0_t0_buf, out4_c1_t1_buf, a_8_t0_ready, a_8_t0_empty, a_8_t1_ready, a_8_t1_empty, b_13_ready, b_13_empty):
    bid = gl.program_id(1)
    pid = gl.program_id(0)
    group_id = pid // 32
    first_pid_m = group_id * 4
    group_size_m = 8 - first_pid_m
    group_size_m_0 = gl.minimum(group_size_m, 4)
    pid_m = pid % 32
    pid_m_1 = pid_m % group_size_m_0
    pid_m_2 = first_pid_m + pid_m_1
    pid_n = pid_m // group_size_m_0
    offset_a = gl.cast(bid, gl.int64)
    offset_a_3 = offset_a * 1048576
    twill_n = (1024 - 0 + 64 - 1) // 64
    accumulator_t1 = gl.full([64, 128], 0.0, gl.float32, layout=L0)
    mbarrier.wait(a_8_t1_ready.index((0 - 0) % 3), ((0 - 0) // 3) & 1)
    a_9_t1 = a_8_t1_buf.index((0 - 0) % 3).load(L1)  # convert0_a_s1: stage 0, partition 1 (group 1)
    mbarrier.arrive(a_8_t1_empty.index((0 - 0) % 3))
    a_10_t1 = a_9_t1.to(gl.float32)  # convert0_a_s1: stage 0, partition 1 (group 1)
    a_11_t1 = gl.exp(a_10_t1)  # sfu0_a_s1: stage 0, partition 1 (group 1)
    a_11_t1_p1 = a_11_t1
    accumulator_t1_p1 = accumulator_t1
    for twill_b in range(1, twill_n):
        a_12_t1 = a_11_t1_p1.to(gl.bfloat16)  # convert1_a_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(b_13_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
        tok_accumulator_t1 = warpgroup_mma(a_12_t1, b_13_buf.index((twill_b - 1) % 3), accumulator_t1_p1, is_async=True)  # dot0_accumulator_s1: stage 1, partition 1 (group 1)
        mbarrier.wait(a_8_t1_ready.index((twill_b - 0) % 3), ((twill_b - 0) // 3) & 1)
        a_9_t1 = a_8_t1_buf.index((twill_b - 0) % 3).load(L1)  # convert0_a_s1: stage 0, partition 1 (group 1)
        mbarrier.arrive(a_8_t1_empty.index((twill_b - 0) % 3))
        a_10_t1 = a_9_t1.to(gl.float32)  # convert0_a_s1: stage 0, partition 1 (group 1)
        a_11_t1 = gl.exp(a_10_t1)  # sfu0_a_s1: stage 0, partition 1 (group 1)
        accumulator_t1 = warpgroup_mma_wait(0, deps=(tok_accumulator_t1,))
        mbarrier.arrive(b_13_empty.index((twill_b - 1) % 3))
        a_11_t1_p1 = a_11_t1
        accumulator_t1_p1 = accumulator_t1
    a_12_t1 = a_11_t1_p1.to(gl.bfloat16)  # convert1_a_s1: stage 1, partition 1 (group 1)
    mbarrier.wait(b_13_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
    tok_accumulator_t1 = warpgroup_mma(a_12_t1, b_13_buf.index(((twill_n - 1 + 1) - 1) % 3), accumulator_t1_p1, is_async=True)  # dot0_accumulator_s1: stage 1, partition 1 (group 1)
    accumulator_t1 = warpgroup_mma_wait(0, deps=(tok_accumulator_t1,))
    mbarrier.arrive(b_13_empty.index(((twill_n - 1 + 1) - 1) % 3))
    a_11_t1_p1 = a_11_t1
    accumulator_t1_p1 = accumulator_t1
    b_13_buf._keep_alive()
    c_desc = c_ptr + offset_a_3
    c_desc_6_t1 = tma.make_tensor_descriptor(c_desc, [1024, 1024], [1024, 1], [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=False))
    v0 = pid_m_2 * 128
    v1 = pid_n * 128
    v2_t1 = gl.convert_layout(accumulator_t1_p1, L2)
    out4_c1_t1_buf.store(accumulator_t1_p1)
    fence_async_shared()
    tma.async_copy_shared_to_global(c_desc_6_t1, [v0 + 64, v1], out4_c1_t1_buf)
    tma.store_wait(0)

@gluon.jit
def producer_2(a_ptr, b_ptr, c_ptr, a_8_t0_buf, a_8_t1_buf, b_13_buf, out3_c0_t0_buf, out4_c1_t1_buf, a_8_t0_ready, a_8_t0_empty, a_8_t1_ready, a_8_t1_empty, b_13_ready, b_13_empty):
    bid = gl.program_id(1)
    pid = gl.program_id(0)
    group_id = pid // 32
    first_pid_m = group_id * 4
    group_size_m = 8 - first_pid_m
    group_size_m_0 = gl.minimum(group_size_m, 4)
    pid_m = pid % 32
    pid_m_1 = pid_m % group_size_m_0
    pid_m_2 = first_pid_m + pid_m_1
    pid_n = pid_m // group_size_m_0
    offset_a = gl.cast(bid, gl.int64)
    offset_a_3 = offset_a * 1048576
    a_desc = a_ptr + offset_a_3
    a_desc_4 = tma.make_tensor_descriptor(a_desc, [1024, 1024], [1024, 1], [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_desc = b_ptr + offset_a_3
    b_desc_5 = tma.make_tensor_descriptor(b_desc, [1024, 1024], [1024, 1], [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a = pid_m_2 * 128
    b = pid_n * 128
    arg5 = 0
    for off_k_7 in range(0, 1024, 64):
        twill_k = (off_k_7 - 0) // 64
        off_k_15 = arg5 + 64
        mbarrier.wait(a_8_t0_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        mbarrier.expect(a_8_t0_ready.index(twill_k % 3), a_desc_4.block_type.nbytes)
        tma.async_copy_global_to_shared(a_desc_4, [a + 0, arg5], a_8_t0_ready.index(twill_k % 3), a_8_t0_buf.index(twill_k % 3))
        mbarrier.wait(a_8_t1_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        mbarrier.expect(a_8_t1_ready.index(twill_k % 3), a_desc_4.block_type.nbytes)
        tma.async_copy_global_to_shared(a_desc_4, [a + 64, arg5], a_8_t1_ready.index(twill_k % 3), a_8_t1_buf.index(twill_k % 3))
        mbarrier.wait(b_13_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        mbarrier.expect(b_13_ready.index(twill_k % 3), b_desc_5.block_type.nbytes)
        tma.async_copy_global_to_shared(b_desc_5, [arg5, b], b_13_ready.index(twill_k % 3), b_13_buf.index(twill_k % 3))
        arg5 = off_k_15

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr):
    a_8_t0_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_8_t1_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_13_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    out3_c0_t0_buf = gl.allocate_shared_memory(gl.float32, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=False))
    out4_c1_t1_buf = gl.allocate_shared_memory(gl.float32, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2, transposed=False))
    a_8_t0_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_8_t0_ready.index(i), count=1)
    a_8_t0_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_8_t0_empty.index(i), count=1)
    a_8_t1_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_8_t1_ready.index(i), count=1)
    a_8_t1_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_8_t1_empty.index(i), count=1)
    b_13_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_13_ready.index(i), count=1)
    b_13_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_13_empty.index(i), count=2)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, a_8_t0_buf, a_8_t1_buf, b_13_buf, out3_c0_t0_buf, out4_c1_t1_buf, a_8_t0_ready, a_8_t0_empty, a_8_t1_ready, a_8_t1_empty, b_13_ready, b_13_empty)),
        (consumer_1, (a_ptr, b_ptr, c_ptr, a_8_t0_buf, a_8_t1_buf, b_13_buf, out3_c0_t0_buf, out4_c1_t1_buf, a_8_t0_ready, a_8_t0_empty, a_8_t1_ready, a_8_t1_empty, b_13_ready, b_13_empty)),
        (producer_2, (a_ptr, b_ptr, c_ptr, a_8_t0_buf, a_8_t1_buf, b_13_buf, out3_c0_t0_buf, out4_c1_t1_buf, a_8_t0_ready, a_8_t0_empty, a_8_t1_ready, a_8_t1_empty, b_13_ready, b_13_empty)),
    ], [4, 1], [240, 24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'B', 'M', 'N', 'K', 'stride_az', 'stride_am', 'stride_ak', 'stride_bz', 'stride_bk', 'stride_bn', 'stride_cz', 'stride_cm', 'stride_cn', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'GROUP_SIZE_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr']   # the arguments a launch key reads
CONSTEXPRS = {'B': 8, 'M': 1024, 'N': 1024, 'K': 1024, 'stride_az': 1048576, 'stride_am': 1024, 'stride_ak': 1, 'stride_bz': 1048576, 'stride_bk': 1024, 'stride_bn': 1, 'stride_cz': 1048576, 'stride_cm': 1024, 'stride_cn': 1, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 4}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
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
