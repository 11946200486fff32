"""chunk_global_cumsum_vector_kernel, written by twill from its joint schedule: I=164 L=327 (optimal), 1415 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (b_s_52_as 2 x 16384 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 89 per thread)
- shared memory: 49168 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]), k_width=0))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]), k_width=0))

@gluon.jit
def consumer_0(s, z, offsets, T, TWILL_COPY: gl.constexpr):
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = v1 // 16
    v3 = v1 % 16
    v4 = offsets + v2
    v5 = gl.load(v4)
    v6 = v4 + 1
    v7 = gl.load(v6)
    T_6 = v7 - v5
    o_i = gl.arange(0, 64, layout=L0)
    o_i_7 = gl.arange(0, 64, layout=L1)
    m_s_8 = gl.arange(0, 64, layout=L2)
    m_s_9 = gl.expand_dims(m_s_8, 1)
    m_s_10 = gl.arange(0, 64, layout=L3)
    m_s_11 = gl.expand_dims(m_s_10, 0)
    m_s_12 = m_s_9.broadcast_to([64, 64])
    m_s_13 = m_s_11.broadcast_to([64, 64])
    m_s_14 = m_s_12 <= m_s_13
    m_s_15 = gl.where(m_s_14, 1.0, 0.0)
    NT_16 = T_6 + 63
    NT_17 = NT_16 // 64
    i_t = NT_17 - 1
    p_s = v5 * 16
    p_s_18 = p_s + v3
    p_s_19 = p_s_18 * 128
    p_s_20 = s + p_s_19
    p_s_21 = v0 * 64
    p_s_22 = gl.cast(T_6, gl.int64)
    p_s_23 = gl.cast(p_s_21, gl.int64)
    p_z = z + p_s_19
    b_s_24 = o_i.to(gl.int64)
    b_s_25 = o_i_7.to(gl.int64)
    b_s_27 = p_s_23 + b_s_25
    b_s_28 = gl.expand_dims(b_s_27, 0)
    b_s_29 = b_s_28.broadcast_to([64, 64])
    b_s_31 = b_s_28 >= 0
    b_s_32 = b_s_28 < 128
    b_s_33 = b_s_31 & b_s_32
    b_s_34 = b_s_33.broadcast_to([64, 64])
    m_s_35_fma = gl.allocate_shared_memory(gl.float32, [64, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]), m_s_15)
    fence_async_shared()
    twill_n = (NT_17 - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        b_s_52_as = gl.allocate_shared_memory(gl.float32, [2, 64, 64], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
        v12_r0 = gl.full([64], 0.0, gl.float32, layout=L1)
        v12_r1 = gl.full([64], 0.0, gl.float32, layout=L4)
        i_t_37 = i_t - (0 + (0 - 0) * 1)  # load0_b_s: stage 0, partition 0 (group 0)
        p_s_38 = i_t_37 * 64  # load0_b_s: stage 0, partition 0 (group 0)
        p_s_39 = gl.cast(p_s_38, gl.int64)  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_40 = p_s_39  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_41 = b_s_40 + b_s_24  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_42 = gl.expand_dims(b_s_41, 1)  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_47 = b_s_42 >= 0  # elementwise0_b_s: stage 0, partition 0 (group 0)
        b_s_48 = b_s_42 < p_s_22  # elementwise0_b_s: stage 0, partition 0 (group 0)
        b_s_49 = b_s_47 & b_s_48  # elementwise0_b_s: stage 0, partition 0 (group 0)
        b_s_50 = b_s_49.broadcast_to([64, 64])  # elementwise1_b_s: stage 0, partition 0 (group 0)
        b_s_51 = b_s_50 & b_s_34  # elementwise1_b_s: stage 0, partition 0 (group 0)
        b_s_43 = b_s_42 * 2048  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_44 = b_s_43.broadcast_to([64, 64])  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_45 = b_s_44 + b_s_29  # load0_b_s: stage 0, partition 0 (group 0)
        b_s_46 = p_s_20 + b_s_45  # load0_b_s: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_b_s: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_s_52_as.index((0 - 0) % 2), b_s_46, mask=b_s_51)  # load0_b_s: stage 0, partition 0 (group 0)
        else:  # load0_b_s: stage 0, partition 0 (group 0)
            b_s_52_as.index((0 - 0) % 2).store(gl.load(b_s_46, mask=b_s_51))  # load0_b_s: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        b_s_45_p1 = b_s_45
        b_s_51_p1 = b_s_51
        v12_r0_p1 = v12_r0
        v12_r1_p1 = v12_r1
        for twill_b in range(1, twill_n):
            i_t_37 = i_t - (0 + (twill_b - 0) * 1)  # load0_b_s: stage 0, partition 0 (group 0)
            p_s_38 = i_t_37 * 64  # load0_b_s: stage 0, partition 0 (group 0)
            p_s_39 = gl.cast(p_s_38, gl.int64)  # load0_b_s: stage 0, partition 0 (group 0)
            b_s_40 = p_s_39  # load0_b_s: stage 0, partition 0 (group 0)
            b_s_41 = b_s_40 + b_s_24  # load0_b_s: stage 0, partition 0 (group 0)
            b_s_42 = gl.expand_dims(b_s_41, 1)  # load0_b_s: stage 0, partition 0 (group 0)
            b_s_47 = b_s_42 >= 0  # elementwise0_b_s: stage 0, partition 0 (group 0)
            b_s_48 = b_s_42 < p_s_22  # elementwise0_b_s: stage 0, partition 0 (group 0)
            b_s_49 = b_s_47 & b_s_48  # elementwise0_b_s: stage 0, partition 0 (group 0)
            b_s_50 = b_s_49.broadcast_to([64, 64])  # elementwise1_b_s: stage 0, partition 0 (group 0)
            b_s_51 = b_s_50 & b_s_34  # elementwise1_b_s: stage 0, partition 0 (group 0)
            b_s_43 = b_s_42 * 2048  # load0_b_s: stage 0, partition 0 (group 0)
            b_s_44 = b_s_43.broadcast_to([64, 64])  # load0_b_s: stage 0, partition 0 (group 0)
            b_s_45 = b_s_44 + b_s_29  # load0_b_s: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            b_s_52 = b_s_52_as.index((twill_b - 1) % 2).load(L5)  # load0_b_s: stage 1, partition 0 (group 0)
            b_s_46 = p_s_20 + b_s_45  # load0_b_s: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_b_s: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_s_52_as.index((twill_b - 0) % 2), b_s_46, mask=b_s_51)  # load0_b_s: stage 0, partition 0 (group 0)
            else:  # load0_b_s: stage 0, partition 0 (group 0)
                b_s_52_as.index((twill_b - 0) % 2).store(gl.load(b_s_46, mask=b_s_51))  # load0_b_s: stage 0, partition 0 (group 0)
            b_s_54 = gl.convert_layout(b_s_52, L6)  # convert0_b_s: stage 1, partition 0 (group 0)
            b_c = gl.expand_dims(v12_r1_p1, 0)  # dot0_b_c: stage 1, partition 0 (group 0)
            b_c_53 = b_c.broadcast_to([64, 64])  # dot0_b_c: stage 1, partition 0 (group 0)
            m_s_35 = m_s_35_fma.load(L7)  # dot0_b_c: stage 1, partition 0 (group 0)
            b_c_55 = gl.dot_fma(m_s_35, b_s_54, b_c_53)  # dot0_b_c: stage 1, partition 0 (group 0)
            v10 = gl.convert_layout(b_c_55, L5)  # convert1: stage 1, partition 0 (group 0)
            v9 = p_z + b_s_45_p1  # store0: stage 1, partition 0 (group 0)
            gl.store(v9, v10, mask=b_s_51_p1)  # store0: stage 1, partition 0 (group 0)
            v11 = (0 + (twill_b - 1) * 1) >= 0  # elementwise2: stage 1, partition 0 (group 0)
            if v11:  # elementwise2: stage 1, partition 0 (group 0)
                b_z_56 = gl.sum(b_s_52, axis=0)  # elementwise2: stage 1, partition 0 (group 0)
                b_z_57 = v12_r0_p1 + b_z_56  # elementwise2: stage 1, partition 0 (group 0)
                b_c_58 = gl.convert_layout(b_z_57, L4)  # elementwise2: stage 1, partition 0 (group 0)
                v12_r0 = b_z_57  # elementwise2: stage 1, partition 0 (group 0)
                v12_r1 = b_c_58  # elementwise2: stage 1, partition 0 (group 0)
            else:  # elementwise2: stage 1, partition 0 (group 0)
                v12_r0 = v12_r0_p1  # elementwise2: stage 1, partition 0 (group 0)
                v12_r1 = v12_r1_p1  # elementwise2: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            b_s_45_p1 = b_s_45
            b_s_51_p1 = b_s_51
            v12_r0_p1 = v12_r0
            v12_r1_p1 = v12_r1
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_s_52 = b_s_52_as.index(((twill_n - 1 + 1) - 1) % 2).load(L5)  # load0_b_s: stage 1, partition 0 (group 0)
        b_s_54 = gl.convert_layout(b_s_52, L6)  # convert0_b_s: stage 1, partition 0 (group 0)
        b_c = gl.expand_dims(v12_r1_p1, 0)  # dot0_b_c: stage 1, partition 0 (group 0)
        b_c_53 = b_c.broadcast_to([64, 64])  # dot0_b_c: stage 1, partition 0 (group 0)
        m_s_35 = m_s_35_fma.load(L7)  # dot0_b_c: stage 1, partition 0 (group 0)
        b_c_55 = gl.dot_fma(m_s_35, b_s_54, b_c_53)  # dot0_b_c: stage 1, partition 0 (group 0)
        v10 = gl.convert_layout(b_c_55, L5)  # convert1: stage 1, partition 0 (group 0)
        v9 = p_z + b_s_45_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v9, v10, mask=b_s_51_p1)  # store0: stage 1, partition 0 (group 0)
        v11 = (0 + ((twill_n - 1 + 1) - 1) * 1) >= 0  # elementwise2: stage 1, partition 0 (group 0)
        if v11:  # elementwise2: stage 1, partition 0 (group 0)
            b_z_56 = gl.sum(b_s_52, axis=0)  # elementwise2: stage 1, partition 0 (group 0)
            b_z_57 = v12_r0_p1 + b_z_56  # elementwise2: stage 1, partition 0 (group 0)
            b_c_58 = gl.convert_layout(b_z_57, L4)  # elementwise2: stage 1, partition 0 (group 0)
            v12_r0 = b_z_57  # elementwise2: stage 1, partition 0 (group 0)
            v12_r1 = b_c_58  # elementwise2: stage 1, partition 0 (group 0)
        else:  # elementwise2: stage 1, partition 0 (group 0)
            v12_r0 = v12_r0_p1  # elementwise2: stage 1, partition 0 (group 0)
            v12_r1 = v12_r1_p1  # elementwise2: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        b_s_45_p1 = b_s_45
        b_s_51_p1 = b_s_51
        v12_r0_p1 = v12_r0
        v12_r1_p1 = v12_r1
    else:
        v12_r0_p1 = gl.full([64], 0.0, gl.float32, layout=L1)
        v12_r1_p1 = gl.full([64], 0.0, gl.float32, layout=L4)

@gluon.jit
def twill_kernel(s, z, offsets, T, TWILL_COPY: gl.constexpr):
    consumer_0(s, z, offsets, T, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['s', 'z', 'offsets', 'T', 'H', 'S', 'BT', 'BS', 'HEAD_FIRST', 'USE_OFFSETS', 'REVERSE']          # the Triton kernel's parameters, in order
RUNTIME = ['s', 'z', 'offsets', 'T']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['s', 'z', 'offsets', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'H': 16, 'S': 128, 'BT': 64, 'BS': 64, 'HEAD_FIRST': False, 'USE_OFFSETS': True, 'REVERSE': True}         # the specialisation this kernel was generated for
HEURISTICS = {'USE_OFFSETS': "lambda args: args['offsets'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['s']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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

_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristic(name, src):
    """Heuristic ``name``'s function, from its source and the kernel module's names it reads (``HEURISTIC_SCOPE``:
    the module's imports, constants and the functions it calls); False where it cannot be made here."""
    fn = _HEUR.get(name)
    if fn is None:
        import math
        import torch
        import triton
        import triton.language as tl
        scope = {"torch": torch, "triton": triton, "tl": tl, "math": math}
        for part in HEURISTIC_SCOPE:
            try:
                exec(part, scope)
            except Exception:     # noqa: BLE001 - an import of the kernel's own package: its names not here
                pass
        try:
            fn = eval(src, scope)
        except Exception:         # noqa: BLE001 - names of the kernel's module not found: not checked
            fn = False
        if fn is False:
            import warnings
            warnings.warn(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated by this "
                          "launcher: launches are not checked against it", stacklevel=3)
        _HEUR[name] = fn
    return fn


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _heuristic(name, src)
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


def _heuristic_args(bound):
    """The kernel arguments its @triton.heuristics supply (kernl's ``size_m_rounded``), set as Triton sets them."""
    for name, src in HEURISTIC_ARGS.items():
        fn = _heuristic(name, src)
        if fn is False:
            raise ValueError(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated here")
        bound[name] = fn(dict(bound, **CONSTEXPRS))


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
    _heuristics(bound)
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
