"""_sdd_kernel, written by twill from its joint schedule: I=420 L=294 (optimal), 320 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (a_65_ring: 3 x 4096 B, issued 1 iteration(s) ahead, b_66_ring: 3 x 4096 B, issued 1 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 1 stage(s) ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 72 per thread)
- shared memory: 24592 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[8, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, TWILL_COPY: gl.constexpr):
    block_id = gl.program_id(0)
    block_id_6 = block_id + grid_offset
    lut_7 = block_id_6 * 3
    lut_8 = lut + lut_7
    off_z = gl.program_id(2)
    off_h = gl.load(lut_8)
    start_am = lut_8 + 1
    start_am_9 = gl.load(start_am)
    offs_am = start_am_9 * 64
    offs_am_10 = gl.arange(0, 64, layout=L0)
    offs_am_11 = gl.arange(0, 64, layout=L1)
    offs_am_12 = gl.arange(0, 64, layout=L2)
    offs_am_13 = gl.arange(0, 64, layout=L3)
    offs_am_14 = offs_am_10 % 64
    offs_am_15 = offs_am_11 % 64
    offs_am_16 = offs_am_12 % 64
    offs_am_17 = offs_am_13 % 64
    offs_am_19 = offs_am + offs_am_14
    a_ptrs = off_z * stride_za
    a_ptrs_20 = A + a_ptrs
    a_ptrs_21 = off_h * stride_ha
    a_ptrs_22 = a_ptrs_20 + a_ptrs_21
    a_ptrs_23 = gl.expand_dims(offs_am_19, 1)
    a_ptrs_25 = a_ptrs_23 * stride_ma
    a_ptrs_27 = a_ptrs_22 + a_ptrs_25
    a_ptrs_28 = gl.arange(0, 32, layout=L4)
    a_ptrs_29 = gl.expand_dims(a_ptrs_28, 0)
    a_ptrs_30 = a_ptrs_27.broadcast_to([64, 32])
    a_ptrs_31 = a_ptrs_29.broadcast_to([64, 32])
    a_ptrs_32 = a_ptrs_30 + a_ptrs_31
    start_bn_33 = lut_8 + 2
    start_bn_34 = gl.load(start_bn_33)
    offs_bn = start_bn_34 * 64
    offs_bn_36 = offs_bn + offs_am_16
    b_ptrs = off_z * stride_zb
    b_ptrs_37 = B + b_ptrs
    b_ptrs_38 = off_h * stride_hb
    b_ptrs_39 = b_ptrs_37 + b_ptrs_38
    b_ptrs_40 = gl.expand_dims(offs_bn_36, 0)
    b_ptrs_42 = b_ptrs_40 * stride_nb
    b_ptrs_44 = b_ptrs_39 + b_ptrs_42
    b_ptrs_45 = gl.arange(0, 32, layout=L5)
    b_ptrs_46 = gl.expand_dims(b_ptrs_45, 1)
    b_ptrs_47 = b_ptrs_44.broadcast_to([32, 64])
    b_ptrs_48 = b_ptrs_46.broadcast_to([32, 64])
    b_ptrs_49 = b_ptrs_47 + b_ptrs_48
    twill_n = (K - 0 + 32 - 1) // 32
    a_65_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_66_ring = gl.allocate_shared_memory(gl.float16, [3, 32, 64], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=True))
    a_ptrs_68 = a_ptrs_32
    b_ptrs_69 = b_ptrs_49
    a_ptrs_68_p1 = a_ptrs_68
    b_ptrs_69_p1 = b_ptrs_69
    acc_67 = gl.full([64, 64], 0.0, gl.float32, layout=L6)
    a_ptrs_68 = a_ptrs_68_p1 + 32  # load0_a: stage 0, partition 0 (group 0)
    b_ptrs_69 = b_ptrs_69_p1 + 32  # load1_b: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(a_65_ring.index((0 - 0) % 3), a_ptrs_68_p1)  # load0_a: stage 0, partition 0 (group 0)
    else:  # load0_a: stage 0, partition 0 (group 0)
        a_65_ring.index((0 - 0) % 3).store(gl.load(a_ptrs_68_p1))  # load0_a: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_66_ring.index((0 - 0) % 3), b_ptrs_69_p1)  # load1_b: stage 0, partition 0 (group 0)
    else:  # load1_b: stage 0, partition 0 (group 0)
        b_66_ring.index((0 - 0) % 3).store(gl.load(b_ptrs_69_p1))  # load1_b: stage 0, partition 0 (group 0)
        fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_68_p1 = a_ptrs_68
    acc_67_p1 = acc_67
    b_ptrs_69_p1 = b_ptrs_69
    for twill_b in range(1, twill_n):
        async_copy.wait_group(0)
        gl.thread_barrier()
        a_65 = a_65_ring.index((twill_b - 1) % 3)  # load0_a: stage 1, partition 0 (group 0)
        b_66 = b_66_ring.index((twill_b - 1) % 3)  # load1_b: stage 1, partition 0 (group 0)
        a_ptrs_68 = a_ptrs_68_p1 + 32  # load0_a: stage 0, partition 0 (group 0)
        b_ptrs_69 = b_ptrs_69_p1 + 32  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_65_ring.index((twill_b - 0) % 3), a_ptrs_68_p1)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_65_ring.index((twill_b - 0) % 3).store(gl.load(a_ptrs_68_p1))  # load0_a: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_66_ring.index((twill_b - 0) % 3), b_ptrs_69_p1)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_66_ring.index((twill_b - 0) % 3).store(gl.load(b_ptrs_69_p1))  # load1_b: stage 0, partition 0 (group 0)
            fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
        tok_acc_67 = warpgroup_mma(a_65, b_66, acc_67_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_67,))
        acc_67 = warpgroup_mma_wait(1, deps=(tok_acc_67,))
        a_ptrs_68_p1 = a_ptrs_68
        acc_67_p1 = acc_67
        b_ptrs_69_p1 = b_ptrs_69
    async_copy.wait_group(0)
    gl.thread_barrier()
    a_65 = a_65_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load0_a: stage 1, partition 0 (group 0)
    b_66 = b_66_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load1_b: stage 1, partition 0 (group 0)
    tok_acc_67 = warpgroup_mma(a_65, b_66, acc_67_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    warpgroup_mma_wait(1, deps=(tok_acc_67,))
    acc_67 = warpgroup_mma_wait(1, deps=(tok_acc_67,))
    a_ptrs_68_p2 = a_ptrs_68_p1
    a_ptrs_68_p1 = a_ptrs_68
    acc_67_p1 = acc_67
    b_ptrs_69_p2 = b_ptrs_69_p1
    b_ptrs_69_p1 = b_ptrs_69
    acc_67_p1 = warpgroup_mma_wait(0, deps=(acc_67_p1,))
    a_65_ring._keep_alive()
    b_66_ring._keep_alive()
    c = acc_67_p1.to(gl.float16)
    pc = off_z * stride_zc
    pc_50 = C + pc
    pc_51 = block_id_6 * stride_hc
    pc_52 = pc_50 + pc_51
    pc_53 = gl.expand_dims(offs_am_15, 1)
    pc_55 = pc_53 * stride_mc
    pc_57 = pc_52 + pc_55
    pc_58 = gl.expand_dims(offs_am_17, 0)
    pc_59 = pc_57.broadcast_to([64, 64])
    pc_60 = pc_58.broadcast_to([64, 64])
    pc_61 = pc_59 + pc_60
    v0 = gl.convert_layout(c, L7)
    gl.store(pc_61, v0)

@gluon.jit
def twill_kernel(A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, TWILL_COPY: gl.constexpr):
    consumer_0(A, B, C, stride_za, stride_ha, stride_ma, stride_zb, stride_hb, stride_nb, stride_zc, stride_hc, stride_mc, K, grid_offset, lut, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'C', 'stride_za', 'stride_ha', 'stride_ma', 'stride_ak', 'stride_zb', 'stride_hb', 'stride_bk', 'stride_nb', 'stride_zc', 'stride_hc', 'stride_mc', 'stride_nc', 'K', 'grid_offset', 'lut', 'TILE_M', 'TILE_N', 'TILE_K', 'BLOCK', 'EVEN_K']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'C', 'stride_za', 'stride_ha', 'stride_ma', 'stride_zb', 'stride_hb', 'stride_nb', 'stride_zc', 'stride_hc', 'stride_mc', 'K', 'grid_offset', 'lut']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'C', 'stride_za', 'stride_ha', 'stride_ma', 'stride_zb', 'stride_hb', 'stride_nb', 'stride_zc', 'stride_hc', 'stride_mc', 'K', 'grid_offset', 'lut']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_nc': 1, 'TILE_M': 64, 'TILE_N': 64, 'TILE_K': 32, 'BLOCK': 64, 'EVEN_K': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A', 'B', 'stride_za', 'stride_ha', 'stride_ma', 'stride_zb', 'stride_hb', 'stride_nb', 'grid_offset', 'lut']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
