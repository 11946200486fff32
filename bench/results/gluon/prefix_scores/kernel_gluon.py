"""prefix_scores, written by twill from its joint schedule: I=210 L=84 (optimal), 320 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (b_v_42): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (72, 56 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- b_v_42 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over v when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 192 registers per thread (needs about 72): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring b_v_42: 12 buffers of [64, 64] f16 (the loads run 11 iteration(s) ahead), read by partition(s) 0
- shared memory: 98512 bytes planned of 232448; maxnreg 128
- short loops: where the scheduled loop runs at most 8 iterations a CTA, or at most 32 where the launch's CTAs outnumber the SMs' 2 each of the producer's ((T + 64 - 1) // 64, from the launch's arguments), the launch runs the one-partition kernel `twill_kernel_short` of the same schedule, loading its own tiles (ptxas 90 registers, clean, 5 CTA(s) an SM against the producer's 2; simulated for 0, 1, 2, 3, 8 iterations: no deadlock, every phase complete)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, v, o, T, twill_box_b_v_42, b_v_42_buf, b_v_42_ready, b_v_42_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    i_t = gl.program_id(0)
    rows = i_t * 64
    rows_1 = gl.arange(0, 64, layout=L0)
    rows_2 = gl.arange(0, 64, layout=L1)
    rows_3 = gl.arange(0, 64, layout=L2)
    rows_7 = rows + rows_1
    rows_8 = rows + rows_2
    rows_9 = rows + rows_3
    b_q = gl.expand_dims(rows_7, 1)
    b_q_10 = gl.expand_dims(rows_8, 1)
    b_q_11 = b_q * 64
    b_q_13 = q + b_q_11
    b_q_14 = gl.arange(0, 64, layout=L3)
    b_q_15 = gl.expand_dims(b_q_14, 0)
    b_q_16 = b_q_13.broadcast_to([64, 64])
    b_q_17 = b_q_15.broadcast_to([64, 64])
    b_q_18 = b_q_16 + b_q_17
    b_q_19 = gl.load(b_q_18)
    b_q_20 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_q_19)
    fence_async_shared()
    b_k_21 = k + b_q_11
    b_k_22 = b_k_21.broadcast_to([64, 64])
    b_k_23 = b_k_22 + b_q_17
    b_k_24 = gl.load(b_k_23)
    b_A = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_k_24)
    fence_async_shared()
    b_A_26 = warpgroup_mma(b_q_20, b_A.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L4))
    b_A_27 = gl.expand_dims(rows_9, 0)
    b_A_28 = b_q_10.broadcast_to([64, 64])
    b_A_29 = b_A_27.broadcast_to([64, 64])
    b_A_30 = b_A_28 >= b_A_29
    b_A_31 = gl.where(b_A_30, b_A_26, 0.0)
    b_A_32 = b_A_31.to(gl.float16)
    b_A_33 = gl.convert_layout(b_A_32, L5)
    twill_n = (T - 0 + 64 - 1) // 64
    b_o_44 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    b_o_44_p1 = b_o_44
    for twill_b in range(0, twill_n):
        mbarrier.wait(b_v_42_ready.index((twill_b - 0) % 12), ((twill_b - 0) // 12) & 1)
        fence_async_shared()
        tok_b_o_44 = warpgroup_mma(b_A_33, b_v_42_buf.index((twill_b - 0) % 12), b_o_44_p1, is_async=True)  # dot0_b_o: stage 0, partition 0 (group 0)
        b_o_44_p1 = warpgroup_mma_wait(1, deps=(b_o_44_p1,))
        mbarrier.arrive(b_v_42_empty.index((twill_b - 1 - 0) % 12), pred=(twill_b - 1 - 0) >= 0)
        b_o_44 = warpgroup_mma_wait(1, deps=(tok_b_o_44,))
        b_o_44_p1 = b_o_44
    b_o_44_p1 = warpgroup_mma_wait(0, deps=(b_o_44_p1,))
    b_v_42_buf._keep_alive()
    mbarrier.arrive(b_v_42_empty.index(((twill_n - 1) - 0) % 12), pred=twill_n > 0)
    v1 = o + b_q_11
    v2 = v1.broadcast_to([64, 64])
    v3 = v2 + b_q_17
    v4 = b_o_44_p1.to(gl.float16)
    v5 = gl.convert_layout(v4, L6)
    gl.store(v3, v5)

@gluon.jit
def producer_1(q, k, v, o, T, twill_box_b_v_42, b_v_42_buf, b_v_42_ready, b_v_42_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    rows_1 = gl.arange(0, 64, layout=L0)
    b_q_14 = gl.arange(0, 64, layout=L3)
    b_q_15 = gl.expand_dims(b_q_14, 0)
    b_q_17 = b_q_15.broadcast_to([64, 64])
    for b_o_34 in range(0, T, 64):
        twill_k = (b_o_34 - 0) // 64
        b_v_36 = b_o_34 + rows_1
        b_v_37 = gl.expand_dims(b_v_36, 1)
        b_v_38 = b_v_37 * 64
        b_v_39 = v + b_v_38
        b_v_40 = b_v_39.broadcast_to([64, 64])
        b_v_41 = b_v_40 + b_q_17
        mbarrier.wait(b_v_42_empty.index(twill_k % 12), ((twill_k // 12) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(b_v_42_ready.index(twill_k % 12), twill_box_b_v_42.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_b_v_42, [64 * ((b_o_34 - 0) // 64), 0], b_v_42_ready.index(twill_k % 12), b_v_42_buf.index(twill_k % 12))  # load0_b_v: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_v_42_buf.index(twill_k % 12), b_v_41)  # load0_b_v: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_v_42_ready.index(twill_k % 12), increment_count=False)
            else:
                b_v_42_buf.index(twill_k % 12).store(gl.load(b_v_41))  # load0_b_v: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_v_42_ready.index(twill_k % 12), count=128)

@gluon.jit
def twill_kernel(q, k, v, o, T, twill_box_b_v_42, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    b_v_42_buf = gl.allocate_shared_memory(gl.float16, [12, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_v_42_ready = gl.allocate_shared_memory(gl.int64, [12, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(12):
        mbarrier.init(b_v_42_ready.index(i), count=1 if TWILL_TMA else 128)
    b_v_42_empty = gl.allocate_shared_memory(gl.int64, [12, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(12):
        mbarrier.init(b_v_42_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (q, k, v, o, T, twill_box_b_v_42, b_v_42_buf, b_v_42_ready, b_v_42_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (q, k, v, o, T, twill_box_b_v_42, b_v_42_buf, b_v_42_ready, b_v_42_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [56])



# -- the one-partition kernel for short loops ------------------------------------------------------------
L0_short = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1_short = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2_short = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3_short = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4_short = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5_short = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L6_short = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0_short(q, k, v, o, T):
    i_t = gl.program_id(0)
    rows = i_t * 64
    rows_1 = gl.arange(0, 64, layout=L0_short)
    rows_2 = gl.arange(0, 64, layout=L1_short)
    rows_3 = gl.arange(0, 64, layout=L2_short)
    rows_7 = rows + rows_1
    rows_8 = rows + rows_2
    rows_9 = rows + rows_3
    b_q = gl.expand_dims(rows_7, 1)
    b_q_10 = gl.expand_dims(rows_8, 1)
    b_q_11 = b_q * 64
    b_q_13 = q + b_q_11
    b_q_14 = gl.arange(0, 64, layout=L3_short)
    b_q_15 = gl.expand_dims(b_q_14, 0)
    b_q_16 = b_q_13.broadcast_to([64, 64])
    b_q_17 = b_q_15.broadcast_to([64, 64])
    b_q_18 = b_q_16 + b_q_17
    b_q_19 = gl.load(b_q_18)
    b_q_20 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_q_19)
    fence_async_shared()
    b_k_21 = k + b_q_11
    b_k_22 = b_k_21.broadcast_to([64, 64])
    b_k_23 = b_k_22 + b_q_17
    b_k_24 = gl.load(b_k_23)
    b_A = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_k_24)
    fence_async_shared()
    b_A_26 = warpgroup_mma(b_q_20, b_A.permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L4_short))
    b_A_27 = gl.expand_dims(rows_9, 0)
    b_A_28 = b_q_10.broadcast_to([64, 64])
    b_A_29 = b_A_27.broadcast_to([64, 64])
    b_A_30 = b_A_28 >= b_A_29
    b_A_31 = gl.where(b_A_30, b_A_26, 0.0)
    b_A_32 = b_A_31.to(gl.float16)
    b_A_33 = gl.convert_layout(b_A_32, L5_short)
    twill_n = (T - 0 + 64 - 1) // 64
    b_v_43_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_o_44 = gl.full([64, 64], 0.0, gl.float32, layout=L4_short)
    b_o_44_p1 = b_o_44
    for twill_b in range(0, twill_n):
        b_v_35 = (0 + (twill_b - 0) * 64)  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_36 = b_v_35 + rows_1  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_37 = gl.expand_dims(b_v_36, 1)  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_38 = b_v_37 * 64  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_39 = v + b_v_38  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_40 = b_v_39.broadcast_to([64, 64])  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_41 = b_v_40 + b_q_17  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_42 = gl.load(b_v_41)  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_43 = b_v_43_st.index((twill_b - 0) % 2)  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_43.store(b_v_42)  # load0_b_v: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_b_v: stage 0, partition 0 (group 0)
        tok_b_o_44 = warpgroup_mma(b_A_33, b_v_43, b_o_44_p1, is_async=True)  # dot0_b_o: stage 0, partition 0 (group 0)
        b_o_44_p1 = warpgroup_mma_wait(1, deps=(b_o_44_p1,))
        b_o_44 = warpgroup_mma_wait(1, deps=(tok_b_o_44,))
        b_o_44_p1 = b_o_44
    b_o_44_p1 = warpgroup_mma_wait(0, deps=(b_o_44_p1,))
    b_v_43_st._keep_alive()
    v1 = o + b_q_11
    v2 = v1.broadcast_to([64, 64])
    v3 = v2 + b_q_17
    v4 = b_o_44_p1.to(gl.float16)
    v5 = gl.convert_layout(v4, L6_short)
    gl.store(v3, v5)

@gluon.jit
def twill_kernel_short(q, k, v, o, T):
    consumer_0_short(q, k, v, o, T, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'o', 'T', 'BT', 'D']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'o', 'T', 'twill_box_b_v_42']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'o', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'BT': 64, 'D': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_b_v_42': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_b_v_42': ('v', ['64', '1'], [None, None], [64, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['v']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


def _box_shapes(bound):
    """Each pointer tile's (base, extents, strides), or None where the launch does not allow them (a base not
    16-byte aligned, a row stride not a 16-byte multiple, an extent not positive, a check failed, a shape
    or stride the descriptor refuses)."""
    out = {}
    for n, (base, strides, extents, block, checks) in POINTER_BOXES.items():
        t = bound[base]
        if not TMA_BOXES or not hasattr(t, 'data_ptr') or not all(_ev(c, bound) for c in checks):
            return None
        st = tuple(int(_ev(e, bound)) for e in strides)
        ext = tuple(2 ** 31 - 1 if e is None else int(_ev(e, bound)) for e in extents)   # None: unmasked
        if t.data_ptr() % 16 or any(x * t.element_size() % 16 for x in st[:-1]) or min(ext) <= 0:
            return None
        # unmasked, a coordinate holds the element offsets folded into it (an expert's, a batch's): TMA's
        # coordinates and the kernel's arithmetic are 32-bit, so the tensor's whole span must fit them
        span = _span(t)
        if any(e is None and span // max(s, 1) >= 2 ** 31 - 1 for e, s in zip(extents, st)):
            return None
        try:
            _desc(n, t, ext, st, block)
        except (AssertionError, ValueError, TypeError):
            return None
        out[n] = (base, ext, st)
    return out


def _span(t):
    """The elements from ``t``'s first to the end of its storage."""
    try:
        return t.untyped_storage().nbytes() // t.element_size() - t.storage_offset()
    except (AttributeError, RuntimeError):
        return t.numel()


def _boxes(bound, shapes=None):
    """The pointer tiles' descriptors over ``shapes`` (else ``_box_shapes``'), None where the launch does not
    allow them."""
    shapes = _box_shapes(bound) if shapes is None else shapes
    if shapes is None:
        return None
    return {n: _desc(n, bound[b], ext, st, POINTER_BOXES[n][3]) for n, (b, ext, st) in shapes.items()}


def _key(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES:
        from triton import knobs
        _MODES.extend((knobs.compilation, knobs.runtime))
    key = [g, TMA_BOXES, _MODES[0].instrumentation_mode, _MODES[1].debug, _device()]
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
    shapes = _box_shapes(bound)
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED), 'TWILL_TMA': shapes is not None}
    return [tuple(flags[f] for f in FLAGS), shapes, None]


def launch_long(grid, *args, **kwargs):
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
    bound.update(dict.fromkeys(POINTER_BOXES) if entry[1] is None else _boxes(bound, entry[1]))
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

# -- the one-partition kernel for short loops (host side) ---------------------------------------------
ARGUMENTS_short = ['q', 'k', 'v', 'o', 'T', 'BT', 'D']          # the Triton kernel's parameters, in order
RUNTIME_short = ['q', 'k', 'v', 'o', 'T']   # the Gluon kernel's parameters, in order
FLAGS_short = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED_short = ['q', 'k', 'v', 'o', 'T']   # the arguments a launch key reads
CONSTEXPRS_short = {'BT': 64, 'D': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS_short = {}
DESCRIPTOR_LAYOUTS_short = {}
NUM_WARPS_short = 4
MAXNREG_short = None
PERSISTENT_short = False      # one program per SM loops over the grid's tiles
LAUNCH_OPTIONS_short = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")
FAST_LAUNCH_short = True   # a launch with an earlier one's key calls the kernel compiled for it; False: the JIT each time


_LAYOUTS_short = {}                  # argument -> its layout object, made on first use
_CODE_short = {}                     # expression -> its compiled code
_DESCS_short = {}                    # (argument, address, dtype, shape, strides) -> its descriptor
_KEYED_short = {}                    # launch key -> [flags' values, boxes (None: none), compiled kernel (None: not yet)]
_MODES_short = []                    # Triton's compilation and runtime knobs (instrumentation, debug)
_DEVICE_short = []                   # the active driver's current device, read per launch


def _ev_short(e, bound):
    code = _CODE_short.get(e)
    if code is None:
        code = _CODE_short[e] = compile(e, "launch", "eval")
    return eval(code, {}, bound)


class _Base_short:
    """A descriptor's base as the launch reads it (address, dtype): the descriptor holds no tensor alive."""

    __slots__ = ("ptr", "dtype")

    def __init__(self, t):
        self.ptr, self.dtype = t.data_ptr(), t.dtype

    def data_ptr(self):
        return self.ptr


def _desc_short(name, t, shape, strides, block):
    """The Gluon tensor descriptor of argument ``name`` over ``t`` (kept: at most 256)."""
    key = (name, t.data_ptr(), t.dtype, tuple(shape), tuple(strides))
    d = _DESCS_short.get(key)
    if d is None:
        from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

        layout = _LAYOUTS_short.get(name)
        if layout is None:
            from triton.experimental.gluon import language as gl
            layout = _LAYOUTS_short[name] = eval("gl." + DESCRIPTOR_LAYOUTS_short[name])
        if len(_DESCS_short) >= 256:
            _DESCS_short.clear()
        d = _DESCS_short[key] = TensorDescriptor(_Base_short(t), list(shape), list(strides), list(block), layout)
    return d


def _descriptor_short(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    base = getattr(value, "base", value)
    shape = getattr(value, "shape", base.shape)
    strides = getattr(value, "strides", None) or base.stride()
    return _desc_short(name, base, shape, strides, DESCRIPTOR_BLOCKS_short[name])


def _key_short(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES_short:
        from triton import knobs
        _MODES_short.extend((knobs.compilation, knobs.runtime))
    key = [g, _MODES_short[0].instrumentation_mode, _MODES_short[1].debug, _device_short()]
    for n in KEYED_short:
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


def _device_short():
    if not _DEVICE_short:
        from triton.runtime import driver
        _DEVICE_short.append(driver.active.get_current_device)
    return _DEVICE_short[0]()


def _decide_short(bound):
    """A launch key's decisions: the flags' values, the pointer tiles' boxes (None: none)."""
    shapes = None
    flags = {}
    return [tuple(flags[f] for f in FLAGS_short), shapes, None]


def launch_short(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS_short, args))
    if kwargs:
        bound.update({k: v for k, v in kwargs.items() if k not in LAUNCH_OPTIONS_short})
    for k, v in CONSTEXPRS_short.items():
        if k in bound and bound[k] != v:
            raise ValueError(f"twill: this Gluon kernel was generated for {k}={v!r}, launched with {bound[k]!r}")
    g = grid(dict(bound, **CONSTEXPRS_short)) if callable(grid) else grid
    g = tuple(int(x) for x in g)
    if PERSISTENT_short:
        g = g + (1,) * (3 - len(g))
        bound.update(twill_g0=g[0], twill_g1=g[1], twill_g2=g[2])
        g = (max(1, min(g[0] * g[1] * g[2], _sm_count_short())),)
    key = _key_short(bound, g)
    entry = _KEYED_short.get(key) if key is not None else None
    if entry is None:
        entry = _decide_short(bound)
        if key is not None:
            if len(_KEYED_short) >= 64:
                _KEYED_short.clear()
            _KEYED_short[key] = entry
    missing = [n for n in RUNTIME_short if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor_short(bound[n], n) if n in DESCRIPTOR_BLOCKS_short else bound[n] for n in RUNTIME_short]
    return _run_short(entry, g, runtime)


def _run_short(entry, g, runtime):
    """The kernel compiled for this launch's key where a launch with it ran before, else through the JIT."""
    compiled = entry[2]
    if compiled is not None and FAST_LAUNCH_short:
        compiled[g + (1,) * (3 - len(g))](*runtime, *entry[0])
        return compiled
    compiled = twill_kernel_short[g](*runtime, **dict(zip(FLAGS_short, entry[0])), num_warps=NUM_WARPS_short, maxnreg=MAXNREG_short)
    if hasattr(compiled, "function") and hasattr(compiled, "__getitem__"):
        entry[2] = compiled
    return compiled


_SMS_short = []


def _sm_count_short():
    """The multiprocessors of the current device (a persistent kernel launches one program on each)."""
    if not _SMS_short:
        import torch
        _SMS_short.append(torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count)
    return _SMS_short[0]


class _Config_short:
    """``kernel.best_config`` as an autotuner has it after a run (Mamba reads its ``kwargs["BLOCK_SIZE_M"]`` to size
    its grid): the constexprs this kernel was generated for."""

    def __init__(self):
        self.kwargs, self.num_warps, self.num_stages, self.num_ctas = dict(CONSTEXPRS_short), NUM_WARPS_short, None, 1
        self.maxnreg, self.pre_hook = MAXNREG_short, None

    def all_kwargs(self):
        return dict(self.kwargs, num_warps=self.num_warps, num_ctas=self.num_ctas)


class _Kernel_short:
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
            return launch_short(grid, *args, **kwargs)
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
        return _Config_short()


kernel_short = _Kernel_short()


SHORT_TRIPS = '(T + 64 - 1) // 64'   # the scheduled loop's iterations a CTA, in the Triton kernel's arguments
SHORT_LIMIT = 8      # at most this many: the one-partition kernel (``launch_short``), else ``launch_long``
SHORT_LIMIT_FULL = 32      # ... or this many where the launch's CTAs outnumber what the SMs hold of the producer's
LONG_CTAS_PER_SM = 2      # (the producer's CTAs an SM; the one partition holds more: run 95); 0: no such rule


def launch(grid, *args, **kwargs):
    """Run the one-partition kernel where the loop is short at this launch, else the warp-specialized one."""
    bound = dict(zip(ARGUMENTS, args), **CONSTEXPRS)
    bound.update(kwargs)
    try:
        trips = _ev(SHORT_TRIPS, bound)
    except (NameError, TypeError):          # an argument missing or not a number: the long kernel's launch says
        return launch_long(grid, *args, **kwargs)
    limit = SHORT_LIMIT
    if SHORT_LIMIT < trips <= SHORT_LIMIT_FULL:
        try:
            ctas = 1
            for x in (grid(bound) if callable(grid) else grid):
                ctas *= int(x)
            if ctas > _sm_count() * LONG_CTAS_PER_SM:
                limit = SHORT_LIMIT_FULL
        except Exception:                   # noqa: BLE001 - no device to count the SMs of: the lower limit
            pass
    return (launch_short if trips <= limit else launch_long)(grid, *args, **kwargs)
