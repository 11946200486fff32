"""bits_dequant_gemm, written by twill from its joint schedule: I=221 L=208 (optimal), 1088 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a_38): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (136, 56 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- a_38 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 192 registers per thread (needs about 136): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a_38: 3 buffers of [64, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared operand acc_57_st: partition 0 stores the loop's [64, 128] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 57408 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 1], [0, 2], [8, 0], [16, 0], [32, 0]], lane_bases=[[0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp_bases=[[2, 0], [4, 0]], block_bases=[], shape=[64, 128])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4, 2], threads_per_warp=[1, 32, 1], warps_per_cta=[4, 1, 1], order=[2, 1, 0]))
L8 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[1, 0], [0, 1], [0, 2], [8, 0], [16, 0], [32, 0]], lane_bases=[[0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], warp_bases=[[2, 0], [4, 0]], block_bases=[], shape=[64, 128]))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L10 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L11 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(a_ptr, w_ptr, s_ptr, c_ptr, M, N, K, twill_box_a_38, a_38_buf, acc_57_st, a_38_ready, a_38_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    rm = pid_m * 64
    rm_2 = gl.arange(0, 64, layout=L0)
    rm_7 = rm + rm_2
    rn = pid_n * 128
    rn_8 = gl.arange(0, 128, layout=L1)
    rn_9 = gl.arange(0, 128, layout=L2)
    rn_10 = gl.arange(0, 128, layout=L3)
    rn_14 = rn + rn_8
    rn_15 = rn + rn_9
    rn_16 = rn + rn_10
    rk2 = gl.arange(0, 32, layout=L4)
    scale_17 = s_ptr + rn_16
    scale_18 = gl.load(scale_17)
    packed_25 = gl.expand_dims(rn_14, 0)
    packed_26 = packed_25.broadcast_to([32, 128])
    acc_27 = gl.convert_layout(scale_18, L5)
    acc_28 = gl.expand_dims(acc_27, 0)
    acc_29 = acc_28.broadcast_to([64, 128])
    twill_n = (K - 0 + 64 - 1) // 64
    acc_58 = gl.full([64, 128], 0.0, gl.float32, layout=L6)
    packed_40 = (0 + (0 - 0) * 64) // 2  # load1_packed: stage 0, partition 0 (group 0)
    packed_41 = packed_40  # load1_packed: stage 0, partition 0 (group 0)
    packed_42 = packed_41 + rk2  # load1_packed: stage 0, partition 0 (group 0)
    packed_43 = gl.expand_dims(packed_42, 1)  # load1_packed: stage 0, partition 0 (group 0)
    packed_44 = packed_43 * N  # load1_packed: stage 0, partition 0 (group 0)
    packed_45 = w_ptr + packed_44  # load1_packed: stage 0, partition 0 (group 0)
    packed_46 = packed_45.broadcast_to([32, 128])  # load1_packed: stage 0, partition 0 (group 0)
    packed_47 = packed_46 + packed_26  # load1_packed: stage 0, partition 0 (group 0)
    packed_48 = gl.load(packed_47)  # load1_packed: stage 0, partition 0 (group 0)
    acc_58_p1 = acc_58
    packed_48_p1 = packed_48
    for twill_b in range(1, twill_n):
        packed_40 = (0 + (twill_b - 0) * 64) // 2  # load1_packed: stage 0, partition 0 (group 0)
        packed_41 = packed_40  # load1_packed: stage 0, partition 0 (group 0)
        packed_42 = packed_41 + rk2  # load1_packed: stage 0, partition 0 (group 0)
        packed_43 = gl.expand_dims(packed_42, 1)  # load1_packed: stage 0, partition 0 (group 0)
        packed_44 = packed_43 * N  # load1_packed: stage 0, partition 0 (group 0)
        packed_45 = w_ptr + packed_44  # load1_packed: stage 0, partition 0 (group 0)
        packed_46 = packed_45.broadcast_to([32, 128])  # load1_packed: stage 0, partition 0 (group 0)
        packed_47 = packed_46 + packed_26  # load1_packed: stage 0, partition 0 (group 0)
        packed_48 = gl.load(packed_47)  # load1_packed: stage 0, partition 0 (group 0)
        hi = packed_48_p1 >> 16  # convert0_hi: stage 1, partition 0 (group 0)
        hi_49 = hi & 65535  # convert0_hi: stage 1, partition 0 (group 0)
        hi_50 = hi_49.to(gl.int16)  # convert0_hi: stage 1, partition 0 (group 0)
        hi_51 = hi_50.to(gl.float16, bitcast=True)  # convert0_hi: stage 1, partition 0 (group 0)
        lo = packed_48_p1 & 65535  # convert1_lo: stage 1, partition 0 (group 0)
        lo_52 = lo.to(gl.int16)  # convert1_lo: stage 1, partition 0 (group 0)
        lo_53 = lo_52.to(gl.float16, bitcast=True)  # convert1_lo: stage 1, partition 0 (group 0)
        w = gl.convert_layout(gl.join(lo_53, hi_51), L7)  # elementwise0_acc: stage 1, partition 0 (group 0)
        w_54 = gl.permute(w, (0, 2, 1))  # elementwise0_acc: stage 1, partition 0 (group 0)
        w_55 = gl.convert_layout(gl.reshape(w_54, [64, 128]), L8)  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_56 = w_55 * acc_29  # elementwise0_acc: stage 1, partition 0 (group 0)
        acc_57 = acc_57_st.index((twill_b - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
        acc_57.store(acc_56)  # local_store0_acc: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(a_38_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
        fence_async_shared()
        tok_acc_58 = warpgroup_mma(a_38_buf.index((twill_b - 1) % 3), acc_57, acc_58_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_58,))
        mbarrier.arrive(a_38_empty.index((twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
        acc_58 = warpgroup_mma_wait(1, deps=(tok_acc_58,))
        acc_58_p1 = acc_58
        packed_48_p1 = packed_48
    hi = packed_48_p1 >> 16  # convert0_hi: stage 1, partition 0 (group 0)
    hi_49 = hi & 65535  # convert0_hi: stage 1, partition 0 (group 0)
    hi_50 = hi_49.to(gl.int16)  # convert0_hi: stage 1, partition 0 (group 0)
    hi_51 = hi_50.to(gl.float16, bitcast=True)  # convert0_hi: stage 1, partition 0 (group 0)
    lo = packed_48_p1 & 65535  # convert1_lo: stage 1, partition 0 (group 0)
    lo_52 = lo.to(gl.int16)  # convert1_lo: stage 1, partition 0 (group 0)
    lo_53 = lo_52.to(gl.float16, bitcast=True)  # convert1_lo: stage 1, partition 0 (group 0)
    w = gl.convert_layout(gl.join(lo_53, hi_51), L7)  # elementwise0_acc: stage 1, partition 0 (group 0)
    w_54 = gl.permute(w, (0, 2, 1))  # elementwise0_acc: stage 1, partition 0 (group 0)
    w_55 = gl.convert_layout(gl.reshape(w_54, [64, 128]), L8)  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_56 = w_55 * acc_29  # elementwise0_acc: stage 1, partition 0 (group 0)
    acc_57 = acc_57_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
    acc_57.store(acc_56)  # local_store0_acc: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
    mbarrier.wait(a_38_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
    fence_async_shared()
    tok_acc_58 = warpgroup_mma(a_38_buf.index(((twill_n - 1 + 1) - 1) % 3), acc_57, acc_58_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
    warpgroup_mma_wait(1, deps=(tok_acc_58,))
    mbarrier.arrive(a_38_empty.index(((twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
    acc_58 = warpgroup_mma_wait(1, deps=(tok_acc_58,))
    acc_58_p1 = acc_58
    packed_48_p1 = packed_48
    acc_58_p1 = warpgroup_mma_wait(0, deps=(acc_58_p1,))
    a_38_buf._keep_alive()
    acc_57_st._keep_alive()
    mbarrier.arrive(a_38_empty.index(((twill_n - 1 + 1) - 1) % 3))
    v0 = gl.expand_dims(rm_7, 1)
    v2 = v0 * N
    v4 = c_ptr + v2
    v5 = gl.expand_dims(rn_15, 0)
    v6 = v4.broadcast_to([64, 128])
    v7 = v5.broadcast_to([64, 128])
    v8 = v6 + v7
    v9 = acc_58_p1.to(gl.float16)
    v10 = gl.convert_layout(v9, L9)
    gl.store(v8, v10)

@gluon.jit
def producer_1(a_ptr, w_ptr, s_ptr, c_ptr, M, N, K, twill_box_a_38, a_38_buf, acc_57_st, a_38_ready, a_38_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid_m = gl.program_id(0)
    rm = pid_m * 64
    rm_1 = gl.arange(0, 64, layout=L10)
    rm_3 = gl.arange(0, 64, layout=L11)
    rm_6 = rm + rm_1
    a = gl.expand_dims(rm_6, 1)
    a_20 = a * K
    a_22 = a_ptr + a_20
    a_23 = a_22.broadcast_to([64, 64])
    for acc_31 in range(0, K, 64):
        twill_k = (acc_31 - 0) // 64
        a_34 = acc_31 + rm_3
        a_35 = gl.expand_dims(a_34, 0)
        a_36 = a_35.broadcast_to([64, 64])
        a_37 = a_23 + a_36
        mbarrier.wait(a_38_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(a_38_ready.index(twill_k % 3), twill_box_a_38.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_a_38, [64 * pid_m, 64 * ((acc_31 - 0) // 64)], a_38_ready.index(twill_k % 3), a_38_buf.index(twill_k % 3))  # load0_a: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_38_buf.index(twill_k % 3), a_37)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_38_ready.index(twill_k % 3), increment_count=False)
            else:
                a_38_buf.index(twill_k % 3).store(gl.load(a_37))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_38_ready.index(twill_k % 3), count=128)

@gluon.jit
def twill_kernel(a_ptr, w_ptr, s_ptr, c_ptr, M, N, K, twill_box_a_38, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_38_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    acc_57_st = gl.allocate_shared_memory(gl.float16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    a_38_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_38_ready.index(i), count=1 if TWILL_TMA else 128)
    a_38_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_38_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, w_ptr, s_ptr, c_ptr, M, N, K, twill_box_a_38, a_38_buf, acc_57_st, a_38_ready, a_38_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, w_ptr, s_ptr, c_ptr, M, N, K, twill_box_a_38, a_38_buf, acc_57_st, a_38_ready, a_38_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'w_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'w_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K', 'twill_box_a_38']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'w_ptr', 's_ptr', 'c_ptr', 'M', 'N', 'K']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_38': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_38': ('a_ptr', ['K', '1'], [None, None], [64, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'K']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
    trips = _ev('(K + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((K + 64 - 1) // 64): run the Triton kernel for it")
    shapes = _box_shapes(bound)
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED), 'TWILL_TMA': shapes is not None}
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
