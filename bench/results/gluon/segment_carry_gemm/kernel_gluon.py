"""segment_carry_gemm, written by twill from its joint schedule: I=330 L=297 (optimal), 640 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a, b): their addresses and masks spread over 128 threads
- rings sized for the II, not the shorter iteration their copies allow, so two CTAs fit an SM (run 177: tail_gemm's rings one deeper, one CTA an SM, x0.94)
- two CTAs per SM: the partitions' registers (168, 64 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- a, b by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over A, B when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a: 5 buffers of [128, 32] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- ring b: 5 buffers of [32, 128] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- shared memory: 82096 bytes planned of 232448; maxnreg 128
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's and two CTAs share an SM

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L5 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))

@gluon.jit
def consumer_0(A, B, C, seg_lo, seg_hi, M, N, K, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid_m = gl.program_id(0)
    lo = seg_lo + pid_m
    lo_9 = gl.load(lo)
    hi = seg_hi + pid_m
    hi_10 = gl.load(hi)
    acc_28 = gl.full([128, 128], 0.0, gl.float32, layout=L5)
    twill_tile_lb = lo_9
    twill_tile_step = 1
    twill_base = 0
    for acc_27 in range(twill_tile_lb, hi_10, twill_tile_step):
        pid_m = gl.program_id(0)
        pid_n = gl.program_id(1)
        rm = pid_m * 128
        rm_0 = gl.arange(0, 128, layout=L0)
        rm_1 = gl.arange(0, 128, layout=L1)
        rm_2 = gl.arange(0, 128, layout=L2)
        rm_5 = rm + rm_0
        rm_6 = rm + rm_1
        rn = pid_n * 128
        rn_8 = rn + rm_2
        a_ptrs = gl.cast(M, gl.int64)
        a_ptrs_11 = gl.cast(K, gl.int64)
        a_ptrs_12 = gl.expand_dims(rm_5, 1)
        a_ptrs_14 = a_ptrs_12 * K
        a_ptrs_15 = gl.arange(0, 32, layout=L3)
        a_ptrs_16 = gl.expand_dims(a_ptrs_15, 0)
        a_ptrs_17 = a_ptrs_16.broadcast_to([128, 32])
        b_ptrs = gl.cast(N, gl.int64)
        b_ptrs_18 = gl.arange(0, 32, layout=L1)
        b_ptrs_19 = gl.expand_dims(b_ptrs_18, 1)
        b_ptrs_21 = b_ptrs_19 * N
        b_ptrs_22 = gl.expand_dims(rn_8, 0)
        b_ptrs_23 = b_ptrs_22.broadcast_to([32, 128])
        a_ptrs_29 = gl.cast(acc_27, gl.int64)
        a_ptrs_30 = a_ptrs_29 * a_ptrs
        a_ptrs_31 = a_ptrs_30 * a_ptrs_11
        a_ptrs_32 = A + a_ptrs_31
        a_ptrs_34 = a_ptrs_32 + a_ptrs_14
        a_ptrs_35 = a_ptrs_34.broadcast_to([128, 32])
        a_ptrs_36 = a_ptrs_35 + a_ptrs_17
        b_ptrs_37 = a_ptrs_29 * a_ptrs_11
        b_ptrs_38 = b_ptrs_37 * b_ptrs
        b_ptrs_39 = B + b_ptrs_38
        b_ptrs_41 = b_ptrs_39 + b_ptrs_21
        b_ptrs_42 = b_ptrs_41.broadcast_to([32, 128])
        b_ptrs_43 = b_ptrs_42 + b_ptrs_23
        twill_n = (K - 0 + 32 - 1) // 32
        acc_51 = acc_28
        acc_51_p1 = acc_51
        for twill_b in range(0, twill_n):
            mbarrier.wait(a_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
            fence_async_shared()
            mbarrier.wait(b_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
            fence_async_shared()
            tok_acc_51 = warpgroup_mma(a_buf.index((twill_base + twill_b - 0) % 5), b_buf.index((twill_base + twill_b - 0) % 5), acc_51_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
            acc_51_p1 = warpgroup_mma_wait(1, deps=(acc_51_p1,))
            mbarrier.arrive(a_empty.index((twill_base + twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_empty.index((twill_base + twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
            acc_51 = warpgroup_mma_wait(1, deps=(tok_acc_51,))
            acc_51_p1 = acc_51
        acc_51_p1 = warpgroup_mma_wait(0, deps=(acc_51_p1,))
        a_buf._keep_alive()
        b_buf._keep_alive()
        mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1) - 0) % 5), pred=twill_n > 0)
        mbarrier.arrive(b_empty.index((twill_base + (twill_n - 1) - 0) % 5), pred=twill_n > 0)
        acc_28 = acc_51_p1
        twill_base += twill_n
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    rm = pid_m * 128
    rm_1 = gl.arange(0, 128, layout=L1)
    rm_2 = gl.arange(0, 128, layout=L2)
    rm_6 = rm + rm_1
    rn = pid_n * 128
    rn_8 = rn + rm_2
    v0 = gl.expand_dims(rm_6, 1)
    v2 = v0 * N
    v4 = C + v2
    v5 = gl.expand_dims(rn_8, 0)
    v6 = v4.broadcast_to([128, 128])
    v7 = v5.broadcast_to([128, 128])
    v8 = v6 + v7
    v9 = acc_28.to(gl.float16)
    v10 = gl.convert_layout(v9, L4)
    gl.store(v8, v10)

@gluon.jit
def producer_1(A, B, C, seg_lo, seg_hi, M, N, K, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid_m = gl.program_id(0)
    lo = seg_lo + pid_m
    lo_9 = gl.load(lo)
    hi = seg_hi + pid_m
    hi_10 = gl.load(hi)
    twill_tile_lb = lo_9
    twill_tile_step = 1
    twill_base = 0
    for acc_27 in range(twill_tile_lb, hi_10, twill_tile_step):
        pid_m = gl.program_id(0)
        pid_n = gl.program_id(1)
        rm = pid_m * 128
        rm_0 = gl.arange(0, 128, layout=L0)
        rm_2 = gl.arange(0, 128, layout=L2)
        rm_5 = rm + rm_0
        rn = pid_n * 128
        rn_8 = rn + rm_2
        a_ptrs = gl.cast(M, gl.int64)
        a_ptrs_11 = gl.cast(K, gl.int64)
        a_ptrs_12 = gl.expand_dims(rm_5, 1)
        a_ptrs_14 = a_ptrs_12 * K
        a_ptrs_15 = gl.arange(0, 32, layout=L3)
        a_ptrs_16 = gl.expand_dims(a_ptrs_15, 0)
        a_ptrs_17 = a_ptrs_16.broadcast_to([128, 32])
        b_ptrs = gl.cast(N, gl.int64)
        b_ptrs_18 = gl.arange(0, 32, layout=L1)
        b_ptrs_19 = gl.expand_dims(b_ptrs_18, 1)
        b_ptrs_21 = b_ptrs_19 * N
        b_ptrs_22 = gl.expand_dims(rn_8, 0)
        b_ptrs_23 = b_ptrs_22.broadcast_to([32, 128])
        b_ptrs_24 = N * 32
        a_ptrs_29 = gl.cast(acc_27, gl.int64)
        a_ptrs_30 = a_ptrs_29 * a_ptrs
        a_ptrs_31 = a_ptrs_30 * a_ptrs_11
        a_ptrs_32 = A + a_ptrs_31
        a_ptrs_34 = a_ptrs_32 + a_ptrs_14
        a_ptrs_35 = a_ptrs_34.broadcast_to([128, 32])
        a_ptrs_36 = a_ptrs_35 + a_ptrs_17
        b_ptrs_37 = a_ptrs_29 * a_ptrs_11
        b_ptrs_38 = b_ptrs_37 * b_ptrs
        b_ptrs_39 = B + b_ptrs_38
        b_ptrs_41 = b_ptrs_39 + b_ptrs_21
        b_ptrs_42 = b_ptrs_41.broadcast_to([32, 128])
        b_ptrs_43 = b_ptrs_42 + b_ptrs_23
        a_ptrs_47 = a_ptrs_36
        b_ptrs_48 = b_ptrs_43
        for b_ptrs_45 in range(0, K, 32):
            twill_k = twill_base + (b_ptrs_45 - 0) // 32
            a_ptrs_52 = a_ptrs_47 + 32
            b_ptrs_53 = b_ptrs_48 + b_ptrs_24
            mbarrier.wait(a_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_ready.index(twill_k % 5), twill_box_a.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a, [M * acc_27 + 128 * pid_m, 32 * ((b_ptrs_45 - 0) // 32)], a_ready.index(twill_k % 5), a_buf.index(twill_k % 5))  # load0_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 5), a_ptrs_47)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_ready.index(twill_k % 5), increment_count=False)
                else:
                    a_buf.index(twill_k % 5).store(gl.load(a_ptrs_47))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_ready.index(twill_k % 5), count=128)
            mbarrier.wait(b_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(b_ready.index(twill_k % 5), twill_box_b.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_b, [K * acc_27 + 32 * ((b_ptrs_45 - 0) // 32), 128 * pid_n], b_ready.index(twill_k % 5), b_buf.index(twill_k % 5))  # load1_b: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 5), b_ptrs_48)  # load1_b: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(b_ready.index(twill_k % 5), increment_count=False)
                else:
                    b_buf.index(twill_k % 5).store(gl.load(b_ptrs_48))  # load1_b: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(b_ready.index(twill_k % 5), count=128)
            a_ptrs_47 = a_ptrs_52
            b_ptrs_48 = b_ptrs_53
        twill_trips = (K - 0 + 32 - 1) // 32
        twill_base += twill_trips

@gluon.jit
def twill_kernel(A, B, C, seg_lo, seg_hi, M, N, K, twill_box_a, twill_box_b, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.float16, [5, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_buf = gl.allocate_shared_memory(gl.float16, [5, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_ready.index(i), count=1 if TWILL_TMA else 128)
    a_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_ready.index(i), count=1 if TWILL_TMA else 128)
    b_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (A, B, C, seg_lo, seg_hi, M, N, K, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (A, B, C, seg_lo, seg_hi, M, N, K, twill_box_a, twill_box_b, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'C', 'seg_lo', 'seg_hi', 'M', 'N', 'K', 'BM', 'BN', 'BK']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'C', 'seg_lo', 'seg_hi', 'M', 'N', 'K', 'twill_box_a', 'twill_box_b']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'C', 'seg_lo', 'seg_hi', 'M', 'N', 'K']   # the arguments a launch key reads
CONSTEXPRS = {'BM': 128, 'BN': 128, 'BK': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a': 'NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_b': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a': ('A', ['K', '1'], [None, None], [128, 32], []), 'twill_box_b': ('B', ['N', '1'], [None, None], [32, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A', 'B', 'N', 'K']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
        g = (max(1, min(g[0] * g[1] * g[2], 2 * _sm_count())),)
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
