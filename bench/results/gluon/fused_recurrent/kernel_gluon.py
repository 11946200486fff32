"""fused_recurrent_fwd, written by twill from its joint schedule: I=170 L=320 (optimal), 610 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 170).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 106 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0]))

@gluon.jit
def consumer_0(q, k, v, g, o, T, scale):
    i_bh = gl.program_id(0)
    o_k = gl.arange(0, 64, layout=L0)
    o_k_2 = gl.arange(0, 64, layout=L1)
    o_k_3 = gl.arange(0, 64, layout=L2)
    p_q = i_bh * T
    p_q_4 = p_q * 64
    p_q_5 = q + p_q_4
    p_q_7 = p_q_5 + o_k
    p_k = k + p_q_4
    p_k_9 = p_k + o_k
    p_v = v + p_q_4
    p_v_11 = p_v + o_k_2
    p_g = g + p_q_4
    p_g_13 = p_g + o_k
    p_o = o + p_q_4
    p_o_15 = p_o + o_k_3
    twill_n = (T - 0 + 1 - 1) // 1
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        p_g_45 = p_g_13
        p_v_44 = p_v_11
        p_k_43 = p_k_9
        p_q_42 = p_q_7
        p_g_45_p1 = p_g_45
        p_k_43_p1 = p_k_43
        p_q_42_p1 = p_q_42
        p_v_44_p1 = p_v_44
        b_h_38 = gl.full([64, 64], 0.0, gl.float32, layout=L3)
        p_v_44 = p_v_44_p1 + 64  # load2_b_v: stage 0, partition 0 (group 0)
        b_v = gl.load(p_v_44_p1)  # load2_b_v: stage 0, partition 0 (group 0)
        p_k_43 = p_k_43_p1 + 64  # load1_b_k: stage 0, partition 0 (group 0)
        b_k = gl.load(p_k_43_p1)  # load1_b_k: stage 0, partition 0 (group 0)
        p_g_45 = p_g_45_p1 + 64  # load3_b_g: stage 0, partition 0 (group 0)
        b_g = gl.load(p_g_45_p1)  # load3_b_g: stage 0, partition 0 (group 0)
        p_q_42 = p_q_42_p1 + 64  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_24 = gl.load(p_q_42_p1)  # load0_b_q: stage 0, partition 0 (group 0)
        b_g_p1 = b_g
        b_h_38_p1 = b_h_38
        b_k_p1 = b_k
        b_q_24_p1 = b_q_24
        b_v_p1 = b_v
        p_g_45_p1 = p_g_45
        p_k_43_p1 = p_k_43
        p_q_42_p1 = p_q_42
        p_v_44_p1 = p_v_44
        p_o_46 = p_o_15
        p_v_44 = p_v_44_p1 + 64  # load2_b_v: stage 0, partition 0 (group 0)
        b_v = gl.load(p_v_44_p1)  # load2_b_v: stage 0, partition 0 (group 0)
        b_v_28 = b_v_p1.to(gl.float32)  # convert2_b_v: stage 1, partition 0 (group 0)
        p_k_43 = p_k_43_p1 + 64  # load1_b_k: stage 0, partition 0 (group 0)
        b_k = gl.load(p_k_43_p1)  # load1_b_k: stage 0, partition 0 (group 0)
        b_k_27 = b_k_p1.to(gl.float32)  # convert1_b_k: stage 1, partition 0 (group 0)
        p_g_45 = p_g_45_p1 + 64  # load3_b_g: stage 0, partition 0 (group 0)
        b_g = gl.load(p_g_45_p1)  # load3_b_g: stage 0, partition 0 (group 0)
        b_h_29 = gl.exp(b_g_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
        b_h_30 = gl.expand_dims(b_h_29, 1)  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_31 = b_h_30.broadcast_to([64, 64])  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_32 = b_h_38_p1 * b_h_31  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_33 = gl.expand_dims(b_k_27, 1)  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_34 = gl.expand_dims(b_v_28, 0)  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_35 = b_h_33.broadcast_to([64, 64])  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_36 = b_h_34.broadcast_to([64, 64])  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_37 = b_h_35 * b_h_36  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_38 = b_h_32 + b_h_37  # elementwise1_b_h: stage 1, partition 0 (group 0)
        p_q_42 = p_q_42_p1 + 64  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_24 = gl.load(p_q_42_p1)  # load0_b_q: stage 0, partition 0 (group 0)
        b_q_25 = b_q_24_p1.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
        b_q_26 = b_q_25 * scale  # elementwise0_b_q: stage 1, partition 0 (group 0)
        b_o = gl.expand_dims(b_q_26, 1)  # elementwise2_b_o: stage 1, partition 0 (group 0)
        b_o_39 = b_o.broadcast_to([64, 64])  # elementwise2_b_o: stage 1, partition 0 (group 0)
        b_o_40 = b_h_38 * b_o_39  # elementwise2_b_o: stage 1, partition 0 (group 0)
        b_g_p1 = b_g
        b_h_38_p1 = b_h_38
        b_k_p1 = b_k
        b_o_40_p1 = b_o_40
        b_q_24_p1 = b_q_24
        b_v_p1 = b_v
        p_g_45_p1 = p_g_45
        p_k_43_p1 = p_k_43
        p_o_46_p1 = p_o_46
        p_q_42_p1 = p_q_42
        p_v_44_p1 = p_v_44
        for twill_b in range(2, twill_n):
            p_v_44 = p_v_44_p1 + 64  # load2_b_v: stage 0, partition 0 (group 0)
            b_v = gl.load(p_v_44_p1)  # load2_b_v: stage 0, partition 0 (group 0)
            b_v_28 = b_v_p1.to(gl.float32)  # convert2_b_v: stage 1, partition 0 (group 0)
            p_k_43 = p_k_43_p1 + 64  # load1_b_k: stage 0, partition 0 (group 0)
            b_k = gl.load(p_k_43_p1)  # load1_b_k: stage 0, partition 0 (group 0)
            b_k_27 = b_k_p1.to(gl.float32)  # convert1_b_k: stage 1, partition 0 (group 0)
            p_g_45 = p_g_45_p1 + 64  # load3_b_g: stage 0, partition 0 (group 0)
            b_g = gl.load(p_g_45_p1)  # load3_b_g: stage 0, partition 0 (group 0)
            b_h_29 = gl.exp(b_g_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
            b_o_41 = gl.sum(b_o_40_p1, axis=0)  # reduce0_b_o: stage 2, partition 0 (group 0)
            b_h_30 = gl.expand_dims(b_h_29, 1)  # elementwise1_b_h: stage 1, partition 0 (group 0)
            b_h_31 = b_h_30.broadcast_to([64, 64])  # elementwise1_b_h: stage 1, partition 0 (group 0)
            b_h_32 = b_h_38_p1 * b_h_31  # elementwise1_b_h: stage 1, partition 0 (group 0)
            b_h_33 = gl.expand_dims(b_k_27, 1)  # elementwise1_b_h: stage 1, partition 0 (group 0)
            b_h_34 = gl.expand_dims(b_v_28, 0)  # elementwise1_b_h: stage 1, partition 0 (group 0)
            b_h_35 = b_h_33.broadcast_to([64, 64])  # elementwise1_b_h: stage 1, partition 0 (group 0)
            b_h_36 = b_h_34.broadcast_to([64, 64])  # elementwise1_b_h: stage 1, partition 0 (group 0)
            b_h_37 = b_h_35 * b_h_36  # elementwise1_b_h: stage 1, partition 0 (group 0)
            b_h_38 = b_h_32 + b_h_37  # elementwise1_b_h: stage 1, partition 0 (group 0)
            p_q_42 = p_q_42_p1 + 64  # load0_b_q: stage 0, partition 0 (group 0)
            b_q_24 = gl.load(p_q_42_p1)  # load0_b_q: stage 0, partition 0 (group 0)
            b_q_25 = b_q_24_p1.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
            v0 = gl.convert_layout(b_o_41, L2)  # convert3: stage 2, partition 0 (group 0)
            v1 = v0.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
            b_q_26 = b_q_25 * scale  # elementwise0_b_q: stage 1, partition 0 (group 0)
            gl.store(p_o_46_p1, v1)  # store0: stage 2, partition 0 (group 0)
            p_o_46 = p_o_46_p1 + 64  # store0: stage 2, partition 0 (group 0)
            b_o = gl.expand_dims(b_q_26, 1)  # elementwise2_b_o: stage 1, partition 0 (group 0)
            b_o_39 = b_o.broadcast_to([64, 64])  # elementwise2_b_o: stage 1, partition 0 (group 0)
            b_o_40 = b_h_38 * b_o_39  # elementwise2_b_o: stage 1, partition 0 (group 0)
            b_g_p1 = b_g
            b_h_38_p1 = b_h_38
            b_k_p1 = b_k
            b_o_40_p1 = b_o_40
            b_q_24_p1 = b_q_24
            b_v_p1 = b_v
            p_g_45_p1 = p_g_45
            p_k_43_p1 = p_k_43
            p_o_46_p1 = p_o_46
            p_q_42_p1 = p_q_42
            p_v_44_p1 = p_v_44
        b_v_28 = b_v_p1.to(gl.float32)  # convert2_b_v: stage 1, partition 0 (group 0)
        b_k_27 = b_k_p1.to(gl.float32)  # convert1_b_k: stage 1, partition 0 (group 0)
        b_h_29 = gl.exp(b_g_p1)  # sfu0_b_h: stage 1, partition 0 (group 0)
        b_o_41 = gl.sum(b_o_40_p1, axis=0)  # reduce0_b_o: stage 2, partition 0 (group 0)
        b_h_30 = gl.expand_dims(b_h_29, 1)  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_31 = b_h_30.broadcast_to([64, 64])  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_32 = b_h_38_p1 * b_h_31  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_33 = gl.expand_dims(b_k_27, 1)  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_34 = gl.expand_dims(b_v_28, 0)  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_35 = b_h_33.broadcast_to([64, 64])  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_36 = b_h_34.broadcast_to([64, 64])  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_37 = b_h_35 * b_h_36  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_h_38 = b_h_32 + b_h_37  # elementwise1_b_h: stage 1, partition 0 (group 0)
        b_q_25 = b_q_24_p1.to(gl.float32)  # convert0_b_q: stage 1, partition 0 (group 0)
        v0 = gl.convert_layout(b_o_41, L2)  # convert3: stage 2, partition 0 (group 0)
        v1 = v0.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        b_q_26 = b_q_25 * scale  # elementwise0_b_q: stage 1, partition 0 (group 0)
        gl.store(p_o_46_p1, v1)  # store0: stage 2, partition 0 (group 0)
        p_o_46 = p_o_46_p1 + 64  # store0: stage 2, partition 0 (group 0)
        b_o = gl.expand_dims(b_q_26, 1)  # elementwise2_b_o: stage 1, partition 0 (group 0)
        b_o_39 = b_o.broadcast_to([64, 64])  # elementwise2_b_o: stage 1, partition 0 (group 0)
        b_o_40 = b_h_38 * b_o_39  # elementwise2_b_o: stage 1, partition 0 (group 0)
        b_g_p1 = b_g
        b_h_38_p2 = b_h_38_p1
        b_h_38_p1 = b_h_38
        b_k_p1 = b_k
        b_o_40_p1 = b_o_40
        b_q_24_p1 = b_q_24
        b_v_p1 = b_v
        p_g_45_p2 = p_g_45_p1
        p_g_45_p1 = p_g_45
        p_k_43_p2 = p_k_43_p1
        p_k_43_p1 = p_k_43
        p_o_46_p1 = p_o_46
        p_q_42_p2 = p_q_42_p1
        p_q_42_p1 = p_q_42
        p_v_44_p2 = p_v_44_p1
        p_v_44_p1 = p_v_44
        b_o_41 = gl.sum(b_o_40_p1, axis=0)  # reduce0_b_o: stage 2, partition 0 (group 0)
        v0 = gl.convert_layout(b_o_41, L2)  # convert3: stage 2, partition 0 (group 0)
        v1 = v0.to(gl.float16)  # convert3: stage 2, partition 0 (group 0)
        gl.store(p_o_46_p1, v1)  # store0: stage 2, partition 0 (group 0)
        p_o_46 = p_o_46_p1 + 64  # store0: stage 2, partition 0 (group 0)
        b_g_p1 = b_g
        b_h_38_p2 = b_h_38_p1
        b_h_38_p1 = b_h_38
        b_k_p1 = b_k
        b_o_40_p1 = b_o_40
        b_q_24_p1 = b_q_24
        b_v_p1 = b_v
        p_g_45_p3 = p_g_45_p2
        p_g_45_p2 = p_g_45_p1
        p_g_45_p1 = p_g_45
        p_k_43_p3 = p_k_43_p2
        p_k_43_p2 = p_k_43_p1
        p_k_43_p1 = p_k_43
        p_o_46_p1 = p_o_46
        p_q_42_p3 = p_q_42_p2
        p_q_42_p2 = p_q_42_p1
        p_q_42_p1 = p_q_42
        p_v_44_p3 = p_v_44_p2
        p_v_44_p2 = p_v_44_p1
        p_v_44_p1 = p_v_44
    else:
        p_o_18_w = p_o_15
        b_h_19_w = gl.full([64, 64], 0.0, gl.float32, layout=L3)
        p_g_20_w = p_g_13
        p_v_21_w = p_v_11
        p_k_22_w = p_k_9
        p_q_23_w = p_q_7
        for b_h_17_w in range(0, T, 1):
            b_q_24_w = gl.load(p_q_23_w)
            b_q_25_w = b_q_24_w.to(gl.float32)
            b_q_26_w = b_q_25_w * scale
            b_k_w = gl.load(p_k_22_w)
            b_k_27_w = b_k_w.to(gl.float32)
            b_v_w = gl.load(p_v_21_w)
            b_v_28_w = b_v_w.to(gl.float32)
            b_g_w = gl.load(p_g_20_w)
            b_h_29_w = gl.exp(b_g_w)
            b_h_30_w = gl.expand_dims(b_h_29_w, 1)
            b_h_31_w = b_h_30_w.broadcast_to([64, 64])
            b_h_32_w = b_h_19_w * b_h_31_w
            b_h_33_w = gl.expand_dims(b_k_27_w, 1)
            b_h_34_w = gl.expand_dims(b_v_28_w, 0)
            b_h_35_w = b_h_33_w.broadcast_to([64, 64])
            b_h_36_w = b_h_34_w.broadcast_to([64, 64])
            b_h_37_w = b_h_35_w * b_h_36_w
            b_h_38_w = b_h_32_w + b_h_37_w
            b_o_w = gl.expand_dims(b_q_26_w, 1)
            b_o_39_w = b_o_w.broadcast_to([64, 64])
            b_o_40_w = b_h_38_w * b_o_39_w
            b_o_41_w = gl.sum(b_o_40_w, axis=0)
            v0_w = gl.convert_layout(b_o_41_w, L2)
            v1_w = v0_w.to(gl.float16)
            gl.store(p_o_18_w, v1_w)
            p_q_42_w = p_q_23_w + 64
            p_k_43_w = p_k_22_w + 64
            p_v_44_w = p_v_21_w + 64
            p_g_45_w = p_g_20_w + 64
            p_o_46_w = p_o_18_w + 64
            p_o_18_w = p_o_46_w
            b_h_19_w = b_h_38_w
            p_g_20_w = p_g_45_w
            p_v_21_w = p_v_44_w
            p_k_22_w = p_k_43_w
            p_q_23_w = p_q_42_w
        p_o_46_p1 = p_o_18_w
        b_h_38_p2 = b_h_19_w
        p_g_45_p3 = p_g_20_w
        p_v_44_p3 = p_v_21_w
        p_k_43_p3 = p_k_22_w
        p_q_42_p3 = p_q_23_w

@gluon.jit
def twill_kernel(q, k, v, g, o, T, scale):
    consumer_0(q, k, v, g, o, T, scale, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q', 'k', 'v', 'g', 'o', 'T', 'scale', 'K', 'V']          # the Triton kernel's parameters, in order
RUNTIME = ['q', 'k', 'v', 'g', 'o', 'T', 'scale']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q', 'k', 'v', 'g', 'o', 'T', 'scale']   # the arguments a launch key reads
CONSTEXPRS = {'K': 64, 'V': 64}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
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
