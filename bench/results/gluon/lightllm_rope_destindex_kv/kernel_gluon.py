"""_fwd_kernel_rotary_destindex_copy_kv, written by twill from its joint schedule: I=864 L=864 (optimal), 620 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 96).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 46 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at lightllm_rope_destindex_kv.py:65 (TTGIR line 60) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=586, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(Q, K, V, Cos, Sin, Pos, DestLoc, K_Cache, V_Cache, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_cosbs, stride_sinbs, stride_cache_bs, stride_cache_h, HEAD_Q, HEAD_K):
    twill_base = 0
    cur_token = gl.program_id(0)
    pos = Pos + cur_token
    pos_1 = gl.load(pos)
    dest_index = DestLoc + cur_token
    dest_index_2 = gl.load(dest_index)
    offs_h = gl.arange(0, 4, layout=L0)
    offs_d = gl.arange(0, 64, layout=L1)
    cos = gl.cast(stride_cosbs, gl.int64)
    cos_3 = pos_1 * cos
    cos_4 = Cos + cos_3
    cos_6 = cos_4 + offs_d
    cos_7 = gl.load(cos_6)
    sin = gl.cast(stride_sinbs, gl.int64)
    sin_8 = pos_1 * sin
    sin_9 = Sin + sin_8
    sin_11 = sin_9 + offs_d
    sin_12 = gl.load(sin_11)
    q_ptrs = cur_token * stride_qbs
    q_ptrs_13 = Q + q_ptrs
    q_ptrs_16 = gl.expand_dims(offs_d, 0)
    q_ptrs_17 = q_ptrs_16.broadcast_to([4, 64])
    out0 = gl.expand_dims(cos_7, 0)
    out0_18 = out0.broadcast_to([4, 64])
    out0_19 = gl.expand_dims(sin_12, 0)
    out0_20 = out0_19.broadcast_to([4, 64])
    twill_n = (HEAD_Q - 0 + 4 - 1) // 4
    for twill_b in range(0, twill_n):
        cur_h_l0 = (0 + (twill_b - 0) * 4)  # load0_q0: stage 0, partition 0 (group 0)
        cur_h_39_l0 = cur_h_l0 + offs_h  # load0_q0: stage 0, partition 0 (group 0)
        mask_h_40_l0 = gl.expand_dims(cur_h_39_l0, 1)  # load0_q0: stage 0, partition 0 (group 0)
        q_ptrs_42 = mask_h_40_l0 * stride_qh  # load0_q0: stage 0, partition 0 (group 0)
        q_ptrs_43 = q_ptrs_13 + q_ptrs_42  # load0_q0: stage 0, partition 0 (group 0)
        mask_h_41_l0 = mask_h_40_l0 < HEAD_Q  # load0_q0: stage 0, partition 0 (group 0)
        q_ptrs_44 = q_ptrs_43.broadcast_to([4, 64])  # load0_q0: stage 0, partition 0 (group 0)
        q_ptrs_45 = q_ptrs_44 + q_ptrs_17  # load0_q0: stage 0, partition 0 (group 0)
        q0 = mask_h_41_l0.broadcast_to([4, 64])  # load0_q0: stage 0, partition 0 (group 0)
        gl.thread_barrier()
        q0_46 = gl.load(q_ptrs_45, mask=q0, other=0.0)  # load0_q0: stage 0, partition 0 (group 0)
        q1 = q_ptrs_45 + 64  # load1_q1: stage 0, partition 0 (group 0)
        gl.thread_barrier()
        q1_48 = gl.load(q1, mask=q0, other=0.0)  # load1_q1: stage 0, partition 0 (group 0)
        q0_47 = q0_46.to(gl.float32)  # convert0_q0: stage 0, partition 0 (group 0)
        q1_49 = q1_48.to(gl.float32)  # convert1_q1: stage 0, partition 0 (group 0)
        out1_l0 = q1_49 * out0_18  # elementwise1_out1: stage 0, partition 0 (group 0)
        out1_53 = q0_47 * out0_20  # elementwise1_out1: stage 0, partition 0 (group 0)
        out1_54 = out1_l0 + out1_53  # elementwise1_out1: stage 0, partition 0 (group 0)
        out0_50 = q0_47 * out0_18  # elementwise0_out0: stage 0, partition 0 (group 0)
        out0_51 = q1_49 * out0_20  # elementwise0_out0: stage 0, partition 0 (group 0)
        out0_52 = out0_50 - out0_51  # elementwise0_out0: stage 0, partition 0 (group 0)
        v1_l0 = out1_54.to(gl.bfloat16)  # convert3: stage 0, partition 0 (group 0)
        gl.store(q1, v1_l0, mask=q0)  # store1: stage 0, partition 0 (group 0)
        v0_l0 = out0_52.to(gl.bfloat16)  # convert2: stage 0, partition 0 (group 0)
        gl.store(q_ptrs_45, v0_l0, mask=q0)  # store0: stage 0, partition 0 (group 0)
    twill_base += twill_n
    v_ptrs = cur_token * stride_vbs
    v_ptrs_22 = V + v_ptrs
    v_ptrs_25 = gl.expand_dims(offs_d, 0)
    v_ptrs_26 = v_ptrs_25.broadcast_to([4, 64])
    k_ptrs = cur_token * stride_kbs
    k_ptrs_27 = K + k_ptrs
    out0_30 = gl.expand_dims(cos_7, 0)
    out0_31 = out0_30.broadcast_to([4, 64])
    out0_32 = gl.expand_dims(sin_12, 0)
    out0_33 = out0_32.broadcast_to([4, 64])
    kc_ptrs = gl.cast(stride_cache_bs, gl.int64)
    kc_ptrs_34 = dest_index_2 * kc_ptrs
    kc_ptrs_35 = K_Cache + kc_ptrs_34
    vc_ptrs = V_Cache + kc_ptrs_34
    twill_n = (HEAD_K - 0 + 4 - 1) // 4
    cur_h_39 = (0 + (0 - 0) * 4) + offs_h  # load0_v0: stage 0, partition 0 (group 0)
    mask_h_40 = gl.expand_dims(cur_h_39, 1)  # load0_v0: stage 0, partition 0 (group 0)
    k_ptrs_48 = mask_h_40 * stride_kh  # load2_k0: stage 0, partition 0 (group 0)
    k_ptrs_49 = k_ptrs_27 + k_ptrs_48  # load2_k0: stage 0, partition 0 (group 0)
    k_ptrs_50 = k_ptrs_49.broadcast_to([4, 64])  # load2_k0: stage 0, partition 0 (group 0)
    mask_h_41 = mask_h_40 < HEAD_K  # load0_v0: stage 0, partition 0 (group 0)
    k_ptrs_51 = k_ptrs_50 + v_ptrs_26  # load2_k0: stage 0, partition 0 (group 0)
    v0_u = mask_h_41.broadcast_to([4, 64])  # load0_v0: stage 0, partition 0 (group 0)
    k1 = k_ptrs_51 + 64  # load3_k1: stage 0, partition 0 (group 0)
    k1_53 = gl.load(k1, mask=v0_u, other=0.0)  # load3_k1: stage 0, partition 0 (group 0)
    k0 = gl.load(k_ptrs_51, mask=v0_u, other=0.0)  # load2_k0: stage 0, partition 0 (group 0)
    v_ptrs_42 = mask_h_40 * stride_vh  # load0_v0: stage 0, partition 0 (group 0)
    v_ptrs_43 = v_ptrs_22 + v_ptrs_42  # load0_v0: stage 0, partition 0 (group 0)
    v_ptrs_44 = v_ptrs_43.broadcast_to([4, 64])  # load0_v0: stage 0, partition 0 (group 0)
    v_ptrs_45 = v_ptrs_44 + v_ptrs_26  # load0_v0: stage 0, partition 0 (group 0)
    v0_46 = gl.load(v_ptrs_45, mask=v0_u, other=0.0)  # load0_v0: stage 0, partition 0 (group 0)
    v1_u = v_ptrs_45 + 64  # load1_v1: stage 0, partition 0 (group 0)
    v1_47 = gl.load(v1_u, mask=v0_u, other=0.0)  # load1_v1: stage 0, partition 0 (group 0)
    k0_p1 = k0
    k1_53_p1 = k1_53
    mask_h_40_p1 = mask_h_40
    v0_46_p1 = v0_46
    v0_u_p1 = v0_u
    v1_47_p1 = v1_47
    for twill_b in range(1, twill_n):
        cur_h = (0 + (twill_b - 0) * 4)  # load0_v0: stage 0, partition 0 (group 0)
        cur_h_39 = cur_h + offs_h  # load0_v0: stage 0, partition 0 (group 0)
        mask_h_40 = gl.expand_dims(cur_h_39, 1)  # load0_v0: stage 0, partition 0 (group 0)
        k_ptrs_48 = mask_h_40 * stride_kh  # load2_k0: stage 0, partition 0 (group 0)
        k_ptrs_49 = k_ptrs_27 + k_ptrs_48  # load2_k0: stage 0, partition 0 (group 0)
        k_ptrs_50 = k_ptrs_49.broadcast_to([4, 64])  # load2_k0: stage 0, partition 0 (group 0)
        mask_h_41 = mask_h_40 < HEAD_K  # load0_v0: stage 0, partition 0 (group 0)
        k_ptrs_51 = k_ptrs_50 + v_ptrs_26  # load2_k0: stage 0, partition 0 (group 0)
        v0_u = mask_h_41.broadcast_to([4, 64])  # load0_v0: stage 0, partition 0 (group 0)
        k1 = k_ptrs_51 + 64  # load3_k1: stage 0, partition 0 (group 0)
        k1_53 = gl.load(k1, mask=v0_u, other=0.0)  # load3_k1: stage 0, partition 0 (group 0)
        k1_54 = k1_53_p1.to(gl.float32)  # convert1_k1: stage 1, partition 0 (group 0)
        k0 = gl.load(k_ptrs_51, mask=v0_u, other=0.0)  # load2_k0: stage 0, partition 0 (group 0)
        k0_52 = k0_p1.to(gl.float32)  # convert0_k0: stage 1, partition 0 (group 0)
        out0_55 = k0_52 * out0_31  # elementwise0_out0: stage 1, partition 0 (group 0)
        out0_56 = k1_54 * out0_33  # elementwise0_out0: stage 1, partition 0 (group 0)
        out0_57 = out0_55 - out0_56  # elementwise0_out0: stage 1, partition 0 (group 0)
        out1 = k1_54 * out0_31  # elementwise1_out1: stage 1, partition 0 (group 0)
        out1_58 = k0_52 * out0_33  # elementwise1_out1: stage 1, partition 0 (group 0)
        out1_59 = out1 + out1_58  # elementwise1_out1: stage 1, partition 0 (group 0)
        v0 = out0_57.to(gl.bfloat16)  # convert2: stage 1, partition 0 (group 0)
        v2 = out1_59.to(gl.bfloat16)  # convert3: stage 1, partition 0 (group 0)
        kc_ptrs_60 = mask_h_40_p1 * stride_cache_h  # store0: stage 1, partition 0 (group 0)
        kc_ptrs_61 = kc_ptrs_35 + kc_ptrs_60  # store0: stage 1, partition 0 (group 0)
        kc_ptrs_62 = kc_ptrs_61.broadcast_to([4, 64])  # store0: stage 1, partition 0 (group 0)
        kc_ptrs_63 = kc_ptrs_62 + v_ptrs_26  # store0: stage 1, partition 0 (group 0)
        gl.store(kc_ptrs_63, v0, mask=v0_u_p1)  # store0: stage 1, partition 0 (group 0)
        v1 = kc_ptrs_63 + 64  # store1: stage 1, partition 0 (group 0)
        gl.store(v1, v2, mask=v0_u_p1)  # store1: stage 1, partition 0 (group 0)
        v_ptrs_42 = mask_h_40 * stride_vh  # load0_v0: stage 0, partition 0 (group 0)
        v_ptrs_43 = v_ptrs_22 + v_ptrs_42  # load0_v0: stage 0, partition 0 (group 0)
        v_ptrs_44 = v_ptrs_43.broadcast_to([4, 64])  # load0_v0: stage 0, partition 0 (group 0)
        v_ptrs_45 = v_ptrs_44 + v_ptrs_26  # load0_v0: stage 0, partition 0 (group 0)
        v0_46 = gl.load(v_ptrs_45, mask=v0_u, other=0.0)  # load0_v0: stage 0, partition 0 (group 0)
        vc_ptrs_64 = vc_ptrs + kc_ptrs_60  # store2: stage 1, partition 0 (group 0)
        vc_ptrs_65 = vc_ptrs_64.broadcast_to([4, 64])  # store2: stage 1, partition 0 (group 0)
        vc_ptrs_66 = vc_ptrs_65 + v_ptrs_26  # store2: stage 1, partition 0 (group 0)
        gl.store(vc_ptrs_66, v0_46_p1, mask=v0_u_p1)  # store2: stage 1, partition 0 (group 0)
        v1_u = v_ptrs_45 + 64  # load1_v1: stage 0, partition 0 (group 0)
        v1_47 = gl.load(v1_u, mask=v0_u, other=0.0)  # load1_v1: stage 0, partition 0 (group 0)
        v3 = vc_ptrs_66 + 64  # store3: stage 1, partition 0 (group 0)
        gl.store(v3, v1_47_p1, mask=v0_u_p1)  # store3: stage 1, partition 0 (group 0)
        k0_p1 = k0
        k1_53_p1 = k1_53
        mask_h_40_p1 = mask_h_40
        v0_46_p1 = v0_46
        v0_u_p1 = v0_u
        v1_47_p1 = v1_47
    k1_54 = k1_53_p1.to(gl.float32)  # convert1_k1: stage 1, partition 0 (group 0)
    k0_52 = k0_p1.to(gl.float32)  # convert0_k0: stage 1, partition 0 (group 0)
    out0_55 = k0_52 * out0_31  # elementwise0_out0: stage 1, partition 0 (group 0)
    out0_56 = k1_54 * out0_33  # elementwise0_out0: stage 1, partition 0 (group 0)
    out0_57 = out0_55 - out0_56  # elementwise0_out0: stage 1, partition 0 (group 0)
    out1 = k1_54 * out0_31  # elementwise1_out1: stage 1, partition 0 (group 0)
    out1_58 = k0_52 * out0_33  # elementwise1_out1: stage 1, partition 0 (group 0)
    out1_59 = out1 + out1_58  # elementwise1_out1: stage 1, partition 0 (group 0)
    v0 = out0_57.to(gl.bfloat16)  # convert2: stage 1, partition 0 (group 0)
    v2 = out1_59.to(gl.bfloat16)  # convert3: stage 1, partition 0 (group 0)
    kc_ptrs_60 = mask_h_40_p1 * stride_cache_h  # store0: stage 1, partition 0 (group 0)
    kc_ptrs_61 = kc_ptrs_35 + kc_ptrs_60  # store0: stage 1, partition 0 (group 0)
    kc_ptrs_62 = kc_ptrs_61.broadcast_to([4, 64])  # store0: stage 1, partition 0 (group 0)
    kc_ptrs_63 = kc_ptrs_62 + v_ptrs_26  # store0: stage 1, partition 0 (group 0)
    gl.store(kc_ptrs_63, v0, mask=v0_u_p1)  # store0: stage 1, partition 0 (group 0)
    v1 = kc_ptrs_63 + 64  # store1: stage 1, partition 0 (group 0)
    gl.store(v1, v2, mask=v0_u_p1)  # store1: stage 1, partition 0 (group 0)
    vc_ptrs_64 = vc_ptrs + kc_ptrs_60  # store2: stage 1, partition 0 (group 0)
    vc_ptrs_65 = vc_ptrs_64.broadcast_to([4, 64])  # store2: stage 1, partition 0 (group 0)
    vc_ptrs_66 = vc_ptrs_65 + v_ptrs_26  # store2: stage 1, partition 0 (group 0)
    gl.store(vc_ptrs_66, v0_46_p1, mask=v0_u_p1)  # store2: stage 1, partition 0 (group 0)
    v3 = vc_ptrs_66 + 64  # store3: stage 1, partition 0 (group 0)
    gl.store(v3, v1_47_p1, mask=v0_u_p1)  # store3: stage 1, partition 0 (group 0)
    k0_p1 = k0
    k1_53_p1 = k1_53
    mask_h_40_p1 = mask_h_40
    v0_46_p1 = v0_46
    v0_u_p1 = v0_u
    v1_47_p1 = v1_47

@gluon.jit
def twill_kernel(Q, K, V, Cos, Sin, Pos, DestLoc, K_Cache, V_Cache, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_cosbs, stride_sinbs, stride_cache_bs, stride_cache_h, HEAD_Q, HEAD_K):
    consumer_0(Q, K, V, Cos, Sin, Pos, DestLoc, K_Cache, V_Cache, stride_qbs, stride_qh, stride_kbs, stride_kh, stride_vbs, stride_vh, stride_cosbs, stride_sinbs, stride_cache_bs, stride_cache_h, HEAD_Q, HEAD_K, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Cos', 'Sin', 'Pos', 'DestLoc', 'K_Cache', 'V_Cache', 'stride_qbs', 'stride_qh', 'stride_qd', 'stride_kbs', 'stride_kh', 'stride_kd', 'stride_vbs', 'stride_vh', 'stride_vd', 'stride_cosbs', 'stride_cosd', 'stride_sinbs', 'stride_sind', 'stride_cache_bs', 'stride_cache_h', 'stride_cache_d', 'HEAD_Q', 'HEAD_K', 'BLOCK_H', 'HEAD_DIM']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Cos', 'Sin', 'Pos', 'DestLoc', 'K_Cache', 'V_Cache', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_cosbs', 'stride_sinbs', 'stride_cache_bs', 'stride_cache_h', 'HEAD_Q', 'HEAD_K']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Cos', 'Sin', 'Pos', 'DestLoc', 'K_Cache', 'V_Cache', 'stride_qbs', 'stride_qh', 'stride_kbs', 'stride_kh', 'stride_vbs', 'stride_vh', 'stride_cosbs', 'stride_sinbs', 'stride_cache_bs', 'stride_cache_h', 'HEAD_Q', 'HEAD_K']   # the arguments a launch key reads
CONSTEXPRS = {'stride_qd': 1, 'stride_kd': 1, 'stride_vd': 1, 'stride_cosd': 1, 'stride_sind': 1, 'stride_cache_d': 1, 'BLOCK_H': 4, 'HEAD_DIM': 128}         # the specialisation this kernel was generated for
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
    trips = _ev('(HEAD_K + 4 - 1) // 4', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((HEAD_K + 4 - 1) // 4): run the Triton kernel for it")
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
