"""moe_offs_grouped_mm, written by twill from its joint schedule: I=330 L=297 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- x_54 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 4-warp producer with cp.async (x_54, w_56): their addresses and masks spread over 128 threads
- rings sized for the II, not the shorter iteration their copies allow, so two CTAs fit an SM (run 177: tail_gemm's rings one deeper, one CTA an SM, x0.94)
- two CTAs per SM: the partitions' registers (168, 88 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- w_56 by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over w_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- partition 0 (default): consumer, warp group 0, 4 warps, 160 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 88 registers per thread (needs about 88): cp.async copies into the rings
- ring x_54: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring w_56: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 98416 bytes planned of 232448; maxnreg 128
- early return at moe_offs_grouped_mm.py:51 (TTGIR line 51): taken in the kernel itself, before gl.warp_specialize starts the partitions; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(x_ptr, w_ptr, offs_ptr, out_ptr, N, K, stride_xm, stride_we, stride_wn, stride_om, twill_box_w_56, x_54_buf, w_56_buf, x_54_ready, x_54_empty, w_56_ready, w_56_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    tile_base = gl.to_tensor(0)
    group_start = gl.to_tensor(0)
    expert_51 = gl.to_tensor(-1)
    m_start = gl.to_tensor(0)
    m_end_52 = gl.to_tensor(0)
    for e in range(0, 8, 1):
        group_end = offs_ptr + e
        group_end_53 = gl.load(group_end)
        n_tiles = group_end_53 - group_start
        n_tiles_54 = n_tiles + 127
        n_tiles_55 = n_tiles_54 // 128
        hit = pid_m >= tile_base
        hit_56 = tile_base + n_tiles_55
        hit_57 = pid_m < hit_56
        hit_58 = hit & hit_57
        expert_59 = gl.where(hit_58, e, expert_51)
        m_start_60 = pid_m - tile_base
        m_start_61 = m_start_60 * 128
        m_start_62 = group_start + m_start_61
        m_start_63 = gl.where(hit_58, m_start_62, m_start)
        m_end_64 = gl.where(hit_58, group_end_53, m_end_52)
        tile_base = hit_56
        group_start = group_end_53
        expert_51 = expert_59
        m_start = m_start_63
        m_end_52 = m_end_64
    offs_m = gl.arange(0, 128, layout=L0)
    offs_m_2 = gl.arange(0, 128, layout=L1)
    offs_m_3 = gl.arange(0, 128, layout=L2)
    offs_m_6 = m_start + offs_m
    offs_m_7 = m_start + offs_m_2
    offs_n = pid_n * 128
    offs_n_10 = offs_n + offs_m
    offs_n_11 = offs_n + offs_m_3
    mask_m_14 = offs_m_7 < m_end_52
    mask_n_17 = offs_n_11 < N
    x_ptrs = gl.expand_dims(offs_m_6, 1)
    x_ptrs_18 = gl.expand_dims(offs_m_7, 1)
    x_ptrs_19 = x_ptrs.to(gl.int64)
    x_ptrs_20 = x_ptrs_18.to(gl.int64)
    x_ptrs_21 = gl.cast(stride_xm, gl.int64)
    x_ptrs_23 = x_ptrs_19 * x_ptrs_21
    x_ptrs_25 = x_ptr + x_ptrs_23
    x_ptrs_26 = gl.arange(0, 64, layout=L3)
    x_ptrs_27 = gl.expand_dims(x_ptrs_26, 0)
    x_ptrs_28 = x_ptrs_25.broadcast_to([128, 64])
    x_ptrs_29 = x_ptrs_27.broadcast_to([128, 64])
    x_ptrs_30 = x_ptrs_28 + x_ptrs_29
    w_ptrs = gl.cast(expert_51, gl.int64)
    w_ptrs_31 = gl.cast(stride_we, gl.int64)
    w_ptrs_32 = w_ptrs * w_ptrs_31
    w_ptrs_33 = w_ptr + w_ptrs_32
    w_ptrs_34 = gl.expand_dims(offs_n_10, 1)
    w_ptrs_36 = w_ptrs_34 * stride_wn
    w_ptrs_38 = w_ptrs_33 + w_ptrs_36
    w_ptrs_39 = w_ptrs_38.broadcast_to([128, 64])
    w_ptrs_40 = w_ptrs_39 + x_ptrs_29
    twill_n = (K - 0 + 64 - 1) // 64
    acc_59 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
    acc_59_p1 = acc_59
    for twill_b in range(0, twill_n):
        mbarrier.wait(x_54_ready.index((twill_b - 0) % 3), ((twill_b - 0) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(w_56_ready.index((twill_b - 0) % 3), ((twill_b - 0) // 3) & 1)
        fence_async_shared()
        tok_acc_59 = warpgroup_mma(x_54_buf.index((twill_b - 0) % 3), w_56_buf.index((twill_b - 0) % 3).permute((1, 0)), acc_59_p1, is_async=True)  # dot0_acc: stage 0, partition 0 (group 0)
        acc_59_p1 = warpgroup_mma_wait(1, deps=(acc_59_p1,))
        mbarrier.arrive(x_54_empty.index((twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        mbarrier.arrive(w_56_empty.index((twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
        acc_59 = warpgroup_mma_wait(1, deps=(tok_acc_59,))
        acc_59_p1 = acc_59
    acc_59_p1 = warpgroup_mma_wait(0, deps=(acc_59_p1,))
    x_54_buf._keep_alive()
    w_56_buf._keep_alive()
    mbarrier.arrive(x_54_empty.index(((twill_n - 1) - 0) % 3), pred=twill_n > 0)
    mbarrier.arrive(w_56_empty.index(((twill_n - 1) - 0) % 3), pred=twill_n > 0)
    out_ptrs = gl.cast(stride_om, gl.int64)
    out_ptrs_44 = x_ptrs_20 * out_ptrs
    out_ptrs_46 = out_ptr + out_ptrs_44
    out_ptrs_47 = gl.expand_dims(offs_n_11, 0)
    out_ptrs_48 = out_ptrs_46.broadcast_to([128, 128])
    out_ptrs_49 = out_ptrs_47.broadcast_to([128, 128])
    out_ptrs_50 = out_ptrs_48 + out_ptrs_49
    v1 = gl.expand_dims(mask_m_14, 1)
    v2 = gl.expand_dims(mask_n_17, 0)
    v3 = v1.broadcast_to([128, 128])
    v4 = v2.broadcast_to([128, 128])
    v5 = v3 & v4
    v6 = acc_59_p1.to(gl.float16)
    v7 = gl.convert_layout(v6, L5)
    gl.store(out_ptrs_50, v7, mask=v5)

@gluon.jit
def producer_1(x_ptr, w_ptr, offs_ptr, out_ptr, N, K, stride_xm, stride_we, stride_wn, stride_om, twill_box_w_56, x_54_buf, w_56_buf, x_54_ready, x_54_empty, w_56_ready, w_56_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    tile_base = gl.to_tensor(0)
    group_start = gl.to_tensor(0)
    expert_51 = gl.to_tensor(-1)
    m_start = gl.to_tensor(0)
    m_end_52 = gl.to_tensor(0)
    for e in range(0, 8, 1):
        group_end = offs_ptr + e
        group_end_53 = gl.load(group_end)
        n_tiles = group_end_53 - group_start
        n_tiles_54 = n_tiles + 127
        n_tiles_55 = n_tiles_54 // 128
        hit = pid_m >= tile_base
        hit_56 = tile_base + n_tiles_55
        hit_57 = pid_m < hit_56
        hit_58 = hit & hit_57
        expert_59 = gl.where(hit_58, e, expert_51)
        m_start_60 = pid_m - tile_base
        m_start_61 = m_start_60 * 128
        m_start_62 = group_start + m_start_61
        m_start_63 = gl.where(hit_58, m_start_62, m_start)
        m_end_64 = gl.where(hit_58, group_end_53, m_end_52)
        tile_base = hit_56
        group_start = group_end_53
        expert_51 = expert_59
        m_start = m_start_63
        m_end_52 = m_end_64
    offs_m = gl.arange(0, 128, layout=L0)
    offs_m_6 = m_start + offs_m
    offs_n = pid_n * 128
    offs_n_10 = offs_n + offs_m
    mask_m_13 = offs_m_6 < m_end_52
    mask_n_16 = offs_n_10 < N
    x_ptrs = gl.expand_dims(offs_m_6, 1)
    x_ptrs_19 = x_ptrs.to(gl.int64)
    x_ptrs_21 = gl.cast(stride_xm, gl.int64)
    x_ptrs_23 = x_ptrs_19 * x_ptrs_21
    x_ptrs_25 = x_ptr + x_ptrs_23
    x_ptrs_26 = gl.arange(0, 64, layout=L3)
    x_ptrs_27 = gl.expand_dims(x_ptrs_26, 0)
    x_ptrs_28 = x_ptrs_25.broadcast_to([128, 64])
    x_ptrs_29 = x_ptrs_27.broadcast_to([128, 64])
    x_ptrs_30 = x_ptrs_28 + x_ptrs_29
    w_ptrs = gl.cast(expert_51, gl.int64)
    w_ptrs_31 = gl.cast(stride_we, gl.int64)
    w_ptrs_32 = w_ptrs * w_ptrs_31
    w_ptrs_33 = w_ptr + w_ptrs_32
    w_ptrs_34 = gl.expand_dims(offs_n_10, 1)
    w_ptrs_36 = w_ptrs_34 * stride_wn
    w_ptrs_38 = w_ptrs_33 + w_ptrs_36
    w_ptrs_39 = w_ptrs_38.broadcast_to([128, 64])
    w_ptrs_40 = w_ptrs_39 + x_ptrs_29
    x = gl.expand_dims(mask_m_13, 1)
    x_41 = x.broadcast_to([128, 64])
    w = gl.expand_dims(mask_n_16, 1)
    w_42 = w.broadcast_to([128, 64])
    w_ptrs_53 = w_ptrs_40
    x_ptrs_52 = x_ptrs_30
    for acc_51 in range(0, K, 64):
        twill_k = (acc_51 - 0) // 64
        x_ptrs_60 = x_ptrs_52 + 64
        w_ptrs_61 = w_ptrs_53 + 64
        mbarrier.wait(x_54_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(x_54_buf.index(twill_k % 3), x_ptrs_52, mask=x_41)  # load0_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(x_54_ready.index(twill_k % 3), increment_count=False)
        else:
            x_54_buf.index(twill_k % 3).store(gl.load(x_ptrs_52, mask=x_41, other=0.0))  # load0_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(x_54_ready.index(twill_k % 3), count=128)
        mbarrier.wait(w_56_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_TMA:
            mbarrier.expect(w_56_ready.index(twill_k % 3), twill_box_w_56.block_type.nbytes)
            tma.async_copy_global_to_shared(twill_box_w_56, [128 * pid_n, expert_51 * stride_we + 64 * ((acc_51 - 0) // 64)], w_56_ready.index(twill_k % 3), w_56_buf.index(twill_k % 3))  # load1_w: a TMA box (boxes)
        else:
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(w_56_buf.index(twill_k % 3), w_ptrs_53, mask=w_42)  # load1_w: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(w_56_ready.index(twill_k % 3), increment_count=False)
            else:
                w_56_buf.index(twill_k % 3).store(gl.load(w_ptrs_53, mask=w_42, other=0.0))  # load1_w: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(w_56_ready.index(twill_k % 3), count=128)
        w_ptrs_53 = w_ptrs_61
        x_ptrs_52 = x_ptrs_60

@gluon.jit
def twill_kernel(x_ptr, w_ptr, offs_ptr, out_ptr, N, K, stride_xm, stride_we, stride_wn, stride_om, twill_box_w_56, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    pid_m = gl.program_id(0)
    tile_base = gl.to_tensor(0)
    group_start = gl.to_tensor(0)
    expert_51 = gl.to_tensor(-1)
    m_start = gl.to_tensor(0)
    m_end_52 = gl.to_tensor(0)
    for e in range(0, 8, 1):
        group_end = offs_ptr + e
        group_end_53 = gl.load(group_end)
        n_tiles = group_end_53 - group_start
        n_tiles_54 = n_tiles + 127
        n_tiles_55 = n_tiles_54 // 128
        hit = pid_m >= tile_base
        hit_56 = tile_base + n_tiles_55
        hit_57 = pid_m < hit_56
        hit_58 = hit & hit_57
        expert_59 = gl.where(hit_58, e, expert_51)
        m_start_60 = pid_m - tile_base
        m_start_61 = m_start_60 * 128
        m_start_62 = group_start + m_start_61
        m_start_63 = gl.where(hit_58, m_start_62, m_start)
        m_end_64 = gl.where(hit_58, group_end_53, m_end_52)
        tile_base = hit_56
        group_start = group_end_53
        expert_51 = expert_59
        m_start = m_start_63
        m_end_52 = m_end_64
    v0 = expert_51 < 0
    if v0:
        return
    x_54_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    w_56_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_54_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_54_ready.index(i), count=128)
    x_54_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_54_empty.index(i), count=1)
    w_56_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(w_56_ready.index(i), count=1 if TWILL_TMA else 128)
    w_56_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(w_56_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (x_ptr, w_ptr, offs_ptr, out_ptr, N, K, stride_xm, stride_we, stride_wn, stride_om, twill_box_w_56, x_54_buf, w_56_buf, x_54_ready, x_54_empty, w_56_ready, w_56_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (x_ptr, w_ptr, offs_ptr, out_ptr, N, K, stride_xm, stride_we, stride_wn, stride_om, twill_box_w_56, x_54_buf, w_56_buf, x_54_ready, x_54_empty, w_56_ready, w_56_empty, TWILL_COPY, TWILL_TMA)),
    ], [4], [88])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'w_ptr', 'offs_ptr', 'out_ptr', 'N', 'K', 'stride_xm', 'stride_we', 'stride_wn', 'stride_om', 'NUM_EXPERTS', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'w_ptr', 'offs_ptr', 'out_ptr', 'N', 'K', 'stride_xm', 'stride_we', 'stride_wn', 'stride_om', 'twill_box_w_56']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'w_ptr', 'offs_ptr', 'out_ptr', 'N', 'K', 'stride_xm', 'stride_we', 'stride_wn', 'stride_om']   # the arguments a launch key reads
CONSTEXPRS = {'NUM_EXPERTS': 8, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_w_56': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_w_56': ('w_ptr', ['stride_wn', '1'], ['N', None], [128, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['x_ptr', 'w_ptr', 'stride_xm', 'stride_we', 'stride_wn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
