"""grouped_dw_kernel, written by twill from its joint schedule: I=194 L=261 (optimal), 2481 cycles per iteration predicted.

Decisions (each from the schedule):
- go_54 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- x_56 copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 8-warp producer with cp.async (go_54, x_56): their addresses and masks spread over 256 threads, 3-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 129): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring go_54: 3 buffers of [64, 128] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring x_56: 3 buffers of [64, 128] bf16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 98416 bytes planned of 232448; maxnreg 128
- if at megablocks_grouped_dw.py:52 (TTGIR line 49) around the scheduled loop: taken as an early return where its condition fails in the kernel itself, before gl.warp_specialize starts the partitions (its branch's 21 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(go_ptr, x_ptr, dw_ptr, offs_ptr, N, K, stride_gom, stride_xm, stride_dwe, stride_dwn, go_54_buf, x_56_buf, go_54_ready, go_54_empty, x_56_ready, x_56_empty, TWILL_COPY: gl.constexpr):
    pid_n = gl.program_id(0)
    pid_k = gl.program_id(1)
    e = gl.program_id(2)
    start = offs_ptr + e
    start_1 = gl.load(start)
    end_2 = start + 1
    end_3 = gl.load(end_2)
    offs_n = pid_n * 128
    offs_n_4 = gl.arange(0, 128, layout=L0)
    offs_n_5 = gl.arange(0, 128, layout=L1)
    offs_n_8 = offs_n + offs_n_4
    offs_n_9 = offs_n + offs_n_5
    offs_k = pid_k * 128
    offs_k_11 = offs_k + offs_n_4
    mask_n_13 = offs_n_8 < N
    mask_n_14 = offs_n_9 < N
    mask_k_15 = offs_k_11 < K
    rows = gl.arange(0, 64, layout=L1)
    go = gl.expand_dims(mask_n_13, 0)
    go_36 = go.broadcast_to([64, 128])
    x = gl.expand_dims(mask_k_15, 0)
    x_37 = x.broadcast_to([64, 128])
    twill_n = gl.maximum((end_3 - start_1 + 64 - 1) // 64, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        acc_60 = gl.full([128, 128], 0.0, gl.float32, layout=L2)
        offs_m = (start_1 + (0 - 0) * 64)  # elementwise0_go: stage 0, partition 0 (group 0)
        offs_m_39 = offs_m + rows  # elementwise0_go: stage 0, partition 0 (group 0)
        mask_m_40 = offs_m_39 < end_3  # elementwise0_go: stage 0, partition 0 (group 0)
        go_51 = gl.expand_dims(mask_m_40, 1)  # elementwise0_go: stage 0, partition 0 (group 0)
        go_52 = go_51.broadcast_to([64, 128])  # elementwise0_go: stage 0, partition 0 (group 0)
        go_53 = go_52 & go_36  # elementwise0_go: stage 0, partition 0 (group 0)
        x_55 = go_52 & x_37  # elementwise1_x: stage 0, partition 0 (group 0)
        acc_60_p1 = acc_60
        for twill_b in range(1, twill_n):
            offs_m = (start_1 + (twill_b - 0) * 64)  # elementwise0_go: stage 0, partition 0 (group 0)
            offs_m_39 = offs_m + rows  # elementwise0_go: stage 0, partition 0 (group 0)
            mask_m_40 = offs_m_39 < end_3  # elementwise0_go: stage 0, partition 0 (group 0)
            go_51 = gl.expand_dims(mask_m_40, 1)  # elementwise0_go: stage 0, partition 0 (group 0)
            go_52 = go_51.broadcast_to([64, 128])  # elementwise0_go: stage 0, partition 0 (group 0)
            go_53 = go_52 & go_36  # elementwise0_go: stage 0, partition 0 (group 0)
            x_55 = go_52 & x_37  # elementwise1_x: stage 0, partition 0 (group 0)
            mbarrier.wait(go_54_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
            fence_async_shared()
            mbarrier.wait(x_56_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
            fence_async_shared()
            tok_acc_60 = warpgroup_mma(go_54_buf.index((twill_b - 1) % 3).permute((1, 0)), x_56_buf.index((twill_b - 1) % 3), acc_60_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_60,))
            mbarrier.arrive(go_54_empty.index((twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
            mbarrier.arrive(x_56_empty.index((twill_b - 1 - 1) % 3), pred=(twill_b - 1 - 1) >= 0)
            acc_60 = warpgroup_mma_wait(1, deps=(tok_acc_60,))
            acc_60_p1 = acc_60
        mbarrier.wait(go_54_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        mbarrier.wait(x_56_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
        fence_async_shared()
        tok_acc_60 = warpgroup_mma(go_54_buf.index(((twill_n - 1 + 1) - 1) % 3).permute((1, 0)), x_56_buf.index(((twill_n - 1 + 1) - 1) % 3), acc_60_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_60,))
        mbarrier.arrive(go_54_empty.index(((twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        mbarrier.arrive(x_56_empty.index(((twill_n - 1 + 1) - 1 - 1) % 3), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_60 = warpgroup_mma_wait(1, deps=(tok_acc_60,))
        acc_60_p1 = acc_60
        acc_60_p1 = warpgroup_mma_wait(0, deps=(acc_60_p1,))
        go_54_buf._keep_alive()
        x_56_buf._keep_alive()
        mbarrier.arrive(go_54_empty.index(((twill_n - 1 + 1) - 1) % 3))
        mbarrier.arrive(x_56_empty.index(((twill_n - 1 + 1) - 1) % 3))
    else:
        acc_60_p1 = gl.full([128, 128], 0.0, gl.float32, layout=L2)
    dw_ptrs = gl.cast(e, gl.int64)
    dw_ptrs_16 = gl.cast(stride_dwe, gl.int64)
    dw_ptrs_17 = dw_ptrs * dw_ptrs_16
    dw_ptrs_18 = dw_ptr + dw_ptrs_17
    dw_ptrs_19 = gl.expand_dims(offs_n_9, 1)
    dw_ptrs_21 = dw_ptrs_19 * stride_dwn
    dw_ptrs_23 = dw_ptrs_18 + dw_ptrs_21
    dw_ptrs_24 = gl.expand_dims(offs_k_11, 0)
    dw_ptrs_25 = dw_ptrs_23.broadcast_to([128, 128])
    dw_ptrs_26 = dw_ptrs_24.broadcast_to([128, 128])
    dw_ptrs_27 = dw_ptrs_25 + dw_ptrs_26
    v2 = gl.expand_dims(mask_n_14, 1)
    v3 = gl.expand_dims(mask_k_15, 0)
    v4 = v2.broadcast_to([128, 128])
    v5 = v3.broadcast_to([128, 128])
    v6 = v4 & v5
    v7 = acc_60_p1.to(gl.bfloat16)
    v8 = gl.convert_layout(v7, L3)
    gl.store(dw_ptrs_27, v8, mask=v6)

@gluon.jit
def producer_1(go_ptr, x_ptr, dw_ptr, offs_ptr, N, K, stride_gom, stride_xm, stride_dwe, stride_dwn, go_54_buf, x_56_buf, go_54_ready, go_54_empty, x_56_ready, x_56_empty, TWILL_COPY: gl.constexpr):
    pid_n = gl.program_id(0)
    pid_k = gl.program_id(1)
    e = gl.program_id(2)
    start = offs_ptr + e
    start_1 = gl.load(start)
    end_2 = start + 1
    end_3 = gl.load(end_2)
    offs_n = pid_n * 128
    offs_n_4 = gl.arange(0, 128, layout=L0)
    offs_n_8 = offs_n + offs_n_4
    offs_k = pid_k * 128
    offs_k_11 = offs_k + offs_n_4
    mask_n_13 = offs_n_8 < N
    mask_k_15 = offs_k_11 < K
    rows = gl.arange(0, 64, layout=L1)
    go_ptrs = gl.cast(stride_gom, gl.int64)
    go_ptrs_30 = gl.expand_dims(offs_n_8, 0)
    go_ptrs_31 = go_ptrs_30.broadcast_to([64, 128])
    x_ptrs = gl.cast(stride_xm, gl.int64)
    x_ptrs_34 = gl.expand_dims(offs_k_11, 0)
    x_ptrs_35 = x_ptrs_34.broadcast_to([64, 128])
    go = gl.expand_dims(mask_n_13, 0)
    go_36 = go.broadcast_to([64, 128])
    x = gl.expand_dims(mask_k_15, 0)
    x_37 = x.broadcast_to([64, 128])
    for acc_38 in range(start_1, end_3, 64):
        twill_k = (acc_38 - start_1) // 64
        offs_m_39 = acc_38 + rows
        mask_m_40 = offs_m_39 < end_3
        go_ptrs_41 = gl.expand_dims(offs_m_39, 1)
        go_ptrs_42 = go_ptrs_41.to(gl.int64)
        go_ptrs_43 = go_ptrs_42 * go_ptrs
        go_ptrs_44 = go_ptr + go_ptrs_43
        go_ptrs_45 = go_ptrs_44.broadcast_to([64, 128])
        go_ptrs_46 = go_ptrs_45 + go_ptrs_31
        x_ptrs_47 = go_ptrs_42 * x_ptrs
        x_ptrs_48 = x_ptr + x_ptrs_47
        x_ptrs_49 = x_ptrs_48.broadcast_to([64, 128])
        x_ptrs_50 = x_ptrs_49 + x_ptrs_35
        go_51 = gl.expand_dims(mask_m_40, 1)
        go_52 = go_51.broadcast_to([64, 128])
        go_53 = go_52 & go_36
        x_55 = go_52 & x_37
        mbarrier.wait(x_56_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(x_56_buf.index(twill_k % 3), x_ptrs_50, mask=x_55)  # load1_x: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(x_56_ready.index(twill_k % 3), increment_count=False)
        else:
            x_56_buf.index(twill_k % 3).store(gl.load(x_ptrs_50, mask=x_55, other=0.0))  # load1_x: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(x_56_ready.index(twill_k % 3), count=256)
        mbarrier.wait(go_54_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(go_54_buf.index(twill_k % 3), go_ptrs_46, mask=go_53)  # load0_go: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(go_54_ready.index(twill_k % 3), increment_count=False)
        else:
            go_54_buf.index(twill_k % 3).store(gl.load(go_ptrs_46, mask=go_53, other=0.0))  # load0_go: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(go_54_ready.index(twill_k % 3), count=256)

@gluon.jit
def twill_kernel(go_ptr, x_ptr, dw_ptr, offs_ptr, N, K, stride_gom, stride_xm, stride_dwe, stride_dwn, TWILL_COPY: gl.constexpr):
    pid_n = gl.program_id(0)
    pid_k = gl.program_id(1)
    e = gl.program_id(2)
    start = offs_ptr + e
    start_1 = gl.load(start)
    end_2 = start + 1
    end_3 = gl.load(end_2)
    offs_n = pid_n * 128
    offs_n_4 = gl.arange(0, 128, layout=L0)
    offs_n_5 = gl.arange(0, 128, layout=L1)
    offs_n_9 = offs_n + offs_n_5
    offs_k = pid_k * 128
    offs_k_11 = offs_k + offs_n_4
    mask_n_14 = offs_n_9 < N
    mask_k_15 = offs_k_11 < K
    v0 = end_3 > start_1
    if not v0:
        dw_ptrs = gl.cast(e, gl.int64)
        dw_ptrs_16 = gl.cast(stride_dwe, gl.int64)
        dw_ptrs_17 = dw_ptrs * dw_ptrs_16
        dw_ptrs_18 = dw_ptr + dw_ptrs_17
        dw_ptrs_19 = gl.expand_dims(offs_n_9, 1)
        dw_ptrs_21 = dw_ptrs_19 * stride_dwn
        dw_ptrs_23 = dw_ptrs_18 + dw_ptrs_21
        dw_ptrs_24 = gl.expand_dims(offs_k_11, 0)
        dw_ptrs_25 = dw_ptrs_23.broadcast_to([128, 128])
        dw_ptrs_26 = dw_ptrs_24.broadcast_to([128, 128])
        dw_ptrs_27 = dw_ptrs_25 + dw_ptrs_26
        v2 = gl.expand_dims(mask_n_14, 1)
        v3 = gl.expand_dims(mask_k_15, 0)
        v4 = v2.broadcast_to([128, 128])
        v5 = v3.broadcast_to([128, 128])
        v6 = v4 & v5
        gl.store(dw_ptrs_27, gl.full([128, 128], (gl.cast(0.0, gl.bfloat16)), gl.bfloat16, layout=L3), mask=v6)
        return
    go_54_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    x_56_buf = gl.allocate_shared_memory(gl.bfloat16, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    go_54_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(go_54_ready.index(i), count=256)
    go_54_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(go_54_empty.index(i), count=1)
    x_56_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_56_ready.index(i), count=256)
    x_56_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(x_56_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (go_ptr, x_ptr, dw_ptr, offs_ptr, N, K, stride_gom, stride_xm, stride_dwe, stride_dwn, go_54_buf, x_56_buf, go_54_ready, go_54_empty, x_56_ready, x_56_empty, TWILL_COPY)),
        (producer_1, (go_ptr, x_ptr, dw_ptr, offs_ptr, N, K, stride_gom, stride_xm, stride_dwe, stride_dwn, go_54_buf, x_56_buf, go_54_ready, go_54_empty, x_56_ready, x_56_empty, TWILL_COPY)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['go_ptr', 'x_ptr', 'dw_ptr', 'offs_ptr', 'N', 'K', 'stride_gom', 'stride_xm', 'stride_dwe', 'stride_dwn', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K']          # the Triton kernel's parameters, in order
RUNTIME = ['go_ptr', 'x_ptr', 'dw_ptr', 'offs_ptr', 'N', 'K', 'stride_gom', 'stride_xm', 'stride_dwe', 'stride_dwn']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['go_ptr', 'x_ptr', 'dw_ptr', 'offs_ptr', 'N', 'K', 'stride_gom', 'stride_xm', 'stride_dwe', 'stride_dwn']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_M': 64, 'BLOCK_N': 128, 'BLOCK_K': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['go_ptr', 'x_ptr', 'N', 'K', 'stride_gom', 'stride_xm']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
