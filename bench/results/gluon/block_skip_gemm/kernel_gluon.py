"""block_skip_gemm, written by twill from its joint schedule: I=330 L=297 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a_39, b_46): their addresses and masks spread over 256 threads, 5-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- a_39, b_46 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr, b_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 104): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a_39: 5 buffers of [128, 64] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- ring b_46: 5 buffers of [64, 128] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- shared memory: 164016 bytes planned of 232448; maxnreg 128
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))
L3 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, mask_ptr, M, N, K, stride_am, stride_bk, stride_cm, twill_box_a_39, twill_box_b_46, a_39_buf, b_46_buf, a_39_ready, a_39_empty, b_46_ready, b_46_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    n_kb = K // 256
    arg11 = gl.full([128, 128], 0.0, gl.float32, layout=L3)
    twill_base = 0
    for acc_18 in range(0, n_kb, 1):
        pid_m = gl.program_id(0)
        live = pid_m * n_kb
        live_9 = mask_ptr + live
        live_19 = live_9 + acc_18
        live_20 = gl.load(live_19)
        v9 = gl.cast(live_20, gl.int32)
        v10 = v9 != 0
        if v10:
            pid_m = gl.program_id(0)
            pid_n = gl.program_id(1)
            offs_m = pid_m * 128
            offs_m_1 = gl.arange(0, 128, layout=L0)
            offs_m_2 = gl.arange(0, 128, layout=L1)
            offs_m_6 = offs_m + offs_m_1
            offs_n = pid_n * 128
            offs_n_8 = offs_n + offs_m_2
            v12 = acc_18 * 256
            v13 = v12 + 256
            twill_n = gl.maximum((v13 - v12 + 64 - 1) // 64, 0)
            acc_48 = arg11
            acc_48_p1 = acc_48
            for twill_b in range(0, twill_n):
                mbarrier.wait(a_39_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
                fence_async_shared()
                mbarrier.wait(b_46_ready.index((twill_base + twill_b - 0) % 5), ((twill_base + twill_b - 0) // 5) & 1)
                fence_async_shared()
                tok_acc_48 = warpgroup_mma(a_39_buf.index((twill_base + twill_b - 0) % 5), b_46_buf.index((twill_base + twill_b - 0) % 5), acc_48_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
                acc_48_p1 = warpgroup_mma_wait(1, deps=(acc_48_p1,))
                mbarrier.arrive(a_39_empty.index((twill_base + twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
                mbarrier.arrive(b_46_empty.index((twill_base + twill_b - 1 - 0) % 5), pred=(twill_b - 1 - 0) >= 0)
                acc_48 = warpgroup_mma_wait(1, deps=(tok_acc_48,))
                acc_48_p1 = acc_48
            acc_48_p1 = warpgroup_mma_wait(0, deps=(acc_48_p1,))
            a_39_buf._keep_alive()
            b_46_buf._keep_alive()
            mbarrier.arrive(a_39_empty.index((twill_base + (twill_n - 1) - 0) % 5), pred=twill_n > 0)
            mbarrier.arrive(b_46_empty.index((twill_base + (twill_n - 1) - 0) % 5), pred=twill_n > 0)
            v11 = acc_48_p1
            twill_base += twill_n
        else:
            v11 = arg11
        arg11 = v11
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_m = pid_m * 128
    offs_m_1 = gl.arange(0, 128, layout=L0)
    offs_m_2 = gl.arange(0, 128, layout=L1)
    offs_m_6 = offs_m + offs_m_1
    offs_n = pid_n * 128
    offs_n_8 = offs_n + offs_m_2
    c_ptrs = gl.expand_dims(offs_m_6, 1)
    c_ptrs_11 = c_ptrs * stride_cm
    c_ptrs_13 = c_ptr + c_ptrs_11
    c_ptrs_14 = gl.expand_dims(offs_n_8, 0)
    c_ptrs_15 = c_ptrs_13.broadcast_to([128, 128])
    c_ptrs_16 = c_ptrs_14.broadcast_to([128, 128])
    c_ptrs_17 = c_ptrs_15 + c_ptrs_16
    v1 = c_ptrs < M
    v3 = c_ptrs_14 < N
    v4 = v1.broadcast_to([128, 128])
    v5 = v3.broadcast_to([128, 128])
    v6 = v4 & v5
    v7 = arg11.to(gl.float16)
    v8 = gl.convert_layout(v7, L2)
    gl.store(c_ptrs_17, v8, mask=v6)

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, mask_ptr, M, N, K, stride_am, stride_bk, stride_cm, twill_box_a_39, twill_box_b_46, a_39_buf, b_46_buf, a_39_ready, a_39_empty, b_46_ready, b_46_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    n_kb = K // 256
    twill_base = 0
    for acc_18 in range(0, n_kb, 1):
        pid_m = gl.program_id(0)
        live = pid_m * n_kb
        live_9 = mask_ptr + live
        live_19 = live_9 + acc_18
        live_20 = gl.load(live_19)
        v9 = gl.cast(live_20, gl.int32)
        v10 = v9 != 0
        if v10:
            pid_m = gl.program_id(0)
            pid_n = gl.program_id(1)
            offs_m = pid_m * 128
            offs_m_0 = gl.arange(0, 128, layout=L4)
            offs_m_2 = gl.arange(0, 128, layout=L1)
            offs_m_5 = offs_m + offs_m_0
            offs_n = pid_n * 128
            offs_n_8 = offs_n + offs_m_2
            v12 = acc_18 * 256
            v13 = v12 + 256
            offs_k = gl.arange(0, 64, layout=L5)
            offs_k_21 = gl.arange(0, 64, layout=L0)
            a = gl.expand_dims(offs_m_5, 1)
            a_23 = a * stride_am
            a_25 = a_ptr + a_23
            a_26 = a_25.broadcast_to([128, 64])
            b_28 = gl.expand_dims(offs_n_8, 0)
            b_29 = b_28.broadcast_to([64, 128])
            for acc_31 in range(v12, v13, 64):
                twill_k = twill_base + (acc_31 - v12) // 64
                offs_k_34 = acc_31 + offs_k
                offs_k_35 = acc_31 + offs_k_21
                a_36 = gl.expand_dims(offs_k_34, 0)
                a_37 = a_36.broadcast_to([128, 64])
                a_38 = a_26 + a_37
                b_41 = gl.expand_dims(offs_k_35, 1)
                b_42 = b_41 * stride_bk
                b_43 = b_ptr + b_42
                b_44 = b_43.broadcast_to([64, 128])
                b_45 = b_44 + b_29
                mbarrier.wait(a_39_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
                if TWILL_TMA:
                    mbarrier.expect(a_39_ready.index(twill_k % 5), twill_box_a_39.block_type.nbytes)
                    tma.async_copy_global_to_shared(twill_box_a_39, [128 * pid_m, 256 * acc_18 + 64 * ((acc_31 - v12) // 64)], a_39_ready.index(twill_k % 5), a_39_buf.index(twill_k % 5))  # load0_a: a TMA box (boxes)
                else:
                    if TWILL_COPY:
                        async_copy.async_copy_global_to_shared(a_39_buf.index(twill_k % 5), a_38)  # load0_a: stage 0, partition 1 (group 1)
                        async_copy.mbarrier_arrive(a_39_ready.index(twill_k % 5), increment_count=False)
                    else:
                        a_39_buf.index(twill_k % 5).store(gl.load(a_38))  # load0_a: stage 0, partition 1 (group 1)
                        fence_async_shared()
                        gl.thread_barrier()
                        mbarrier.arrive(a_39_ready.index(twill_k % 5), count=256)
                mbarrier.wait(b_46_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
                if TWILL_TMA:
                    mbarrier.expect(b_46_ready.index(twill_k % 5), twill_box_b_46.block_type.nbytes)
                    tma.async_copy_global_to_shared(twill_box_b_46, [256 * acc_18 + 64 * ((acc_31 - v12) // 64), 128 * pid_n], b_46_ready.index(twill_k % 5), b_46_buf.index(twill_k % 5))  # load1_b: a TMA box (boxes)
                else:
                    if TWILL_COPY:
                        async_copy.async_copy_global_to_shared(b_46_buf.index(twill_k % 5), b_45)  # load1_b: stage 0, partition 1 (group 1)
                        async_copy.mbarrier_arrive(b_46_ready.index(twill_k % 5), increment_count=False)
                    else:
                        b_46_buf.index(twill_k % 5).store(gl.load(b_45))  # load1_b: stage 0, partition 1 (group 1)
                        fence_async_shared()
                        gl.thread_barrier()
                        mbarrier.arrive(b_46_ready.index(twill_k % 5), count=256)
            twill_trips = gl.maximum((v13 - v12 + 64 - 1) // 64, 0)
            twill_base += twill_trips

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, mask_ptr, M, N, K, stride_am, stride_bk, stride_cm, twill_box_a_39, twill_box_b_46, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_39_buf = gl.allocate_shared_memory(gl.float16, [5, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_46_buf = gl.allocate_shared_memory(gl.float16, [5, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_39_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_39_ready.index(i), count=1 if TWILL_TMA else 256)
    a_39_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_39_empty.index(i), count=1)
    b_46_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_46_ready.index(i), count=1 if TWILL_TMA else 256)
    b_46_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_46_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, mask_ptr, M, N, K, stride_am, stride_bk, stride_cm, twill_box_a_39, twill_box_b_46, a_39_buf, b_46_buf, a_39_ready, a_39_empty, b_46_ready, b_46_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, c_ptr, mask_ptr, M, N, K, stride_am, stride_bk, stride_cm, twill_box_a_39, twill_box_b_46, a_39_buf, b_46_buf, a_39_ready, a_39_empty, b_46_ready, b_46_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'mask_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'KB']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'mask_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'twill_box_a_39', 'twill_box_b_46']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'mask_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'KB': 256}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a_39': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])', 'twill_box_b_46': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a_39': ('a_ptr', ['stride_am', '1'], [None, None], [128, 64], []), 'twill_box_b_46': ('b_ptr', ['stride_bk', '1'], [None, None], [64, 128], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'stride_am', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
