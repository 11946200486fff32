"""prefix_scores, written by twill from its joint schedule: I=210 L=84 (optimal), 320 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (b_v_43_ring: 3 x 8192 B, issued 1 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
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

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, v, o, T, TWILL_COPY: gl.constexpr):
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
    b_v_43_ring = gl.allocate_shared_memory(gl.float16, [3, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_o_44 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    b_v_36 = (0 + (0 - 0) * 64) + rows_1  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_37 = gl.expand_dims(b_v_36, 1)  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_38 = b_v_37 * 64  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_39 = v + b_v_38  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_40 = b_v_39.broadcast_to([64, 64])  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_41 = b_v_40 + b_q_17  # load0_b_v: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_b_v: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_v_43_ring.index((0 - 0) % 3), b_v_41)  # load0_b_v: stage 0, partition 0 (group 0)
    else:  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_43_ring.index((0 - 0) % 3).store(gl.load(b_v_41))  # load0_b_v: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_b_v: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    b_o_44_p1 = b_o_44
    for twill_b in range(1, twill_n):
        b_v_35 = (0 + (twill_b - 0) * 64)  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_36 = b_v_35 + rows_1  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_37 = gl.expand_dims(b_v_36, 1)  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_38 = b_v_37 * 64  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_39 = v + b_v_38  # load0_b_v: stage 0, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_v_43 = b_v_43_ring.index((twill_b - 1) % 3)  # load0_b_v: stage 1, partition 0 (group 0)
        b_v_40 = b_v_39.broadcast_to([64, 64])  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_41 = b_v_40 + b_q_17  # load0_b_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_b_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_v_43_ring.index((twill_b - 0) % 3), b_v_41)  # load0_b_v: stage 0, partition 0 (group 0)
        else:  # load0_b_v: stage 0, partition 0 (group 0)
            b_v_43_ring.index((twill_b - 0) % 3).store(gl.load(b_v_41))  # load0_b_v: stage 0, partition 0 (group 0)
            fence_async_shared()  # load0_b_v: stage 0, partition 0 (group 0)
        tok_b_o_44 = warpgroup_mma(b_A_33, b_v_43, b_o_44_p1, is_async=True)  # dot0_b_o: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_b_o_44,))
        b_o_44 = warpgroup_mma_wait(1, deps=(tok_b_o_44,))
        b_o_44_p1 = b_o_44
    async_copy.wait_group(0)
    gl.thread_barrier()
    b_v_43 = b_v_43_ring.index(((twill_n - 1 + 1) - 1) % 3)  # load0_b_v: stage 1, partition 0 (group 0)
    tok_b_o_44 = warpgroup_mma(b_A_33, b_v_43, b_o_44_p1, is_async=True)  # dot0_b_o: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    warpgroup_mma_wait(1, deps=(tok_b_o_44,))
    b_o_44 = warpgroup_mma_wait(1, deps=(tok_b_o_44,))
    b_o_44_p1 = b_o_44
    b_o_44_p1 = warpgroup_mma_wait(0, deps=(b_o_44_p1,))
    b_v_43_ring._keep_alive()
    v1 = o + b_q_11
    v2 = v1.broadcast_to([64, 64])
    v3 = v2 + b_q_17
    v4 = b_o_44_p1.to(gl.float16)
    v5 = gl.convert_layout(v4, L6)
    gl.store(v3, v5)

@gluon.jit
def twill_kernel(q, k, v, o, T, TWILL_COPY: gl.constexpr):
    consumer_0(q, k, v, o, T, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'o', 'T', 'BT', 'D']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'o', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'o', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'BT': 64, 'D': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
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
