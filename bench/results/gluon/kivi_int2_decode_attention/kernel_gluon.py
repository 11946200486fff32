"""kivi_decode_attn_kernel, written by twill from its joint schedule: I=594 L=583 (optimal), 5115 cycles per iteration predicted.

Decisions (each from the schedule):
- the consumers' pointer loads in their readers' stage: a stage ahead, ptxas spills registers (13100 bytes stored, 13848 loaded, 2921 spill instructions in the loop)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 234 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 4], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[32, 1], warps_per_cta=[2, 2], order=[0, 1]))

@gluon.jit
def consumer_0(q_ptr, k_code_ptr, k_scale_ptr, k_mn_ptr, v_code_ptr, v_scale_ptr, v_mn_ptr, o_ptr, sm_scale, T, stride_kc_bh, stride_ks_bh, stride_vc_bh, stride_vs_bh):
    pid_bh = gl.program_id(0)
    offs_d = gl.arange(0, 128, layout=L0)
    offs_d_16 = gl.arange(0, 128, layout=L1)
    offs_n = gl.arange(0, 64, layout=L2)
    offs_n_17 = gl.arange(0, 64, layout=L3)
    q = pid_bh * 128
    q_18 = q_ptr + q
    q_20 = q_18 + offs_d_16
    q_21 = gl.load(q_20)
    qk = gl.convert_layout(q_21, L4)
    q_22 = qk.to(gl.float32)
    q_23 = sm_scale * 1.44269502
    q_25 = q_22 * q_23
    k_code_base = gl.cast(pid_bh, gl.int64)
    k_code_base_26 = gl.cast(stride_kc_bh, gl.int64)
    k_code_base_27 = k_code_base * k_code_base_26
    k_code_base_28 = k_code_ptr + k_code_base_27
    k_scale_base = gl.cast(stride_ks_bh, gl.int64)
    k_scale_base_29 = k_code_base * k_scale_base
    k_scale_base_30 = k_scale_ptr + k_scale_base_29
    k_mn_base = k_mn_ptr + k_scale_base_29
    v_code_base = gl.cast(stride_vc_bh, gl.int64)
    v_code_base_31 = k_code_base * v_code_base
    v_code_base_32 = v_code_ptr + v_code_base_31
    v_scale_base = gl.cast(stride_vs_bh, gl.int64)
    v_scale_base_33 = k_code_base * v_scale_base
    v_scale_base_34 = v_scale_ptr + v_scale_base_33
    v_mn_base = v_mn_ptr + v_scale_base_33
    v_shift_35 = offs_d % 16
    v_shift_36 = v_shift_35 * 2
    v_shift_37 = gl.expand_dims(v_shift_36, 0)
    v_word = offs_d // 16
    v_word_38 = gl.expand_dims(v_word, 0)
    v_group_39 = offs_d // 32
    v_group_40 = gl.expand_dims(v_group_39, 0)
    k_words_42 = gl.arange(0, 128, layout=L5)
    k_words_43 = gl.expand_dims(k_words_42, 0)
    k_words_44 = k_words_43.broadcast_to([64, 128])
    qk_45 = gl.convert_layout(q_25, L5)
    qk_46 = gl.expand_dims(qk_45, 0)
    qk_47 = qk_46.broadcast_to([64, 128])
    v_words_48 = v_word_38.broadcast_to([64, 128])
    v_codes = v_shift_37.broadcast_to([64, 128])
    v_sc_49 = v_group_40.broadcast_to([64, 128])
    twill_n = (T - 0 + 64 - 1) // 64
    m_new_93 = float("-inf")
    l_i_98 = 0.0
    acc_127 = gl.full([128], 0.0, gl.float32, layout=L0)
    acc_127_p1 = acc_127
    l_i_98_p1 = l_i_98
    m_new_93_p1 = m_new_93
    for twill_b in range(0, twill_n):
        offs_t = (0 + (twill_b - 0) * 64)  # load0_k_words: stage 0, partition 0 (group 0)
        offs_t_55 = offs_t + offs_n  # load0_k_words: stage 0, partition 0 (group 0)
        k_words_61 = offs_t_55 // 16  # load0_k_words: stage 0, partition 0 (group 0)
        k_words_62 = gl.expand_dims(k_words_61, 1)  # load0_k_words: stage 0, partition 0 (group 0)
        k_words_63 = k_words_62 * 128  # load0_k_words: stage 0, partition 0 (group 0)
        t_mask_57 = offs_t_55 < T  # load0_k_words: stage 0, partition 0 (group 0)
        k_words_64 = k_code_base_28 + k_words_63  # load0_k_words: stage 0, partition 0 (group 0)
        k_words_59 = gl.expand_dims(t_mask_57, 1)  # load0_k_words: stage 0, partition 0 (group 0)
        k_words_65 = k_words_64.broadcast_to([64, 128])  # load0_k_words: stage 0, partition 0 (group 0)
        k_words_66 = k_words_65 + k_words_44  # load0_k_words: stage 0, partition 0 (group 0)
        k_words_67 = k_words_59.broadcast_to([64, 128])  # load0_k_words: stage 0, partition 0 (group 0)
        k_words_69 = gl.load(k_words_66, mask=k_words_67, other=0)  # load0_k_words: stage 0, partition 0 (group 0)
        k_codes = offs_t_55 % 16  # convert0_k: stage 0, partition 0 (group 0)
        k_codes_70 = k_codes * 2  # convert0_k: stage 0, partition 0 (group 0)
        k_codes_71 = gl.expand_dims(k_codes_70, 1)  # convert0_k: stage 0, partition 0 (group 0)
        k_codes_72 = k_codes_71.broadcast_to([64, 128])  # convert0_k: stage 0, partition 0 (group 0)
        k_codes_73 = k_words_69 >> k_codes_72  # convert0_k: stage 0, partition 0 (group 0)
        k_codes_74 = k_codes_73 & 3  # convert0_k: stage 0, partition 0 (group 0)
        k = k_codes_74.to(gl.float32)  # convert0_k: stage 0, partition 0 (group 0)
        k_sc_75 = offs_t_55 // 32  # load2_k_sc: stage 0, partition 0 (group 0)
        k_sc_76 = gl.expand_dims(k_sc_75, 1)  # load2_k_sc: stage 0, partition 0 (group 0)
        k_sc_77 = k_sc_76 * 128  # load2_k_sc: stage 0, partition 0 (group 0)
        k_sc_78 = k_scale_base_30 + k_sc_77  # load2_k_sc: stage 0, partition 0 (group 0)
        k_sc_79 = k_sc_78.broadcast_to([64, 128])  # load2_k_sc: stage 0, partition 0 (group 0)
        k_sc_80 = k_sc_79 + k_words_44  # load2_k_sc: stage 0, partition 0 (group 0)
        k_sc_81 = gl.load(k_sc_80, mask=k_words_67, other=0.0)  # load2_k_sc: stage 0, partition 0 (group 0)
        k_86 = k_sc_81.to(gl.float32)  # convert1_k: stage 0, partition 0 (group 0)
        k_mn_82 = k_mn_base + k_sc_77  # load3_k_mn: stage 0, partition 0 (group 0)
        k_mn_83 = k_mn_82.broadcast_to([64, 128])  # load3_k_mn: stage 0, partition 0 (group 0)
        k_mn_84 = k_mn_83 + k_words_44  # load3_k_mn: stage 0, partition 0 (group 0)
        k_mn_85 = gl.load(k_mn_84, mask=k_words_67, other=0.0)  # load3_k_mn: stage 0, partition 0 (group 0)
        k_88 = k_mn_85.to(gl.float32)  # convert2_k: stage 0, partition 0 (group 0)
        k_87 = k * k_86  # elementwise0_k: stage 0, partition 0 (group 0)
        k_89 = k_87 + k_88  # elementwise0_k: stage 0, partition 0 (group 0)
        qk_90 = qk_47 * k_89  # elementwise0_k: stage 0, partition 0 (group 0)
        qk_91 = gl.sum(qk_90, axis=1)  # reduce0_qk: stage 0, partition 0 (group 0)
        qk_92 = gl.where(t_mask_57, qk_91, float("-inf"))  # elementwise1_qk: stage 0, partition 0 (group 0)
        m_new = gl.max(qk_92, axis=0)  # reduce1_m_new: stage 0, partition 0 (group 0)
        m_new_93 = gl.maximum(m_new_93_p1, m_new)  # elementwise2_m_new: stage 0, partition 0 (group 0)
        p = m_new_93  # sfu1_p: stage 0, partition 0 (group 0)
        p_95 = qk_92 - p  # sfu1_p: stage 0, partition 0 (group 0)
        p_96 = gl.exp2(p_95)  # sfu1_p: stage 0, partition 0 (group 0)
        acc_122 = gl.expand_dims(p_96, 1)  # convert6_acc: stage 0, partition 0 (group 0)
        acc_123 = gl.convert_layout(acc_122, L6)  # convert6_acc: stage 0, partition 0 (group 0)
        l_i_97 = gl.sum(p_96, axis=0)  # reduce2_l_i: stage 0, partition 0 (group 0)
        offs_t_54 = (0 + (twill_b - 0) * 64)  # load1_v_words: stage 0, partition 0 (group 0)
        offs_t_56 = offs_t_54 + offs_n_17  # load1_v_words: stage 0, partition 0 (group 0)
        t_mask_58 = offs_t_56 < T  # load1_v_words: stage 0, partition 0 (group 0)
        k_words_60 = gl.expand_dims(t_mask_58, 1)  # load1_v_words: stage 0, partition 0 (group 0)
        v_words_99 = gl.expand_dims(offs_t_56, 1)  # load1_v_words: stage 0, partition 0 (group 0)
        v_sc_107 = v_words_99 * 4  # load4_v_sc: stage 0, partition 0 (group 0)
        k_words_68 = k_words_60.broadcast_to([64, 128])  # load1_v_words: stage 0, partition 0 (group 0)
        v_mn_112 = v_mn_base + v_sc_107  # load5_v_mn: stage 0, partition 0 (group 0)
        v_mn_113 = v_mn_112.broadcast_to([64, 128])  # load5_v_mn: stage 0, partition 0 (group 0)
        v_mn_114 = v_mn_113 + v_sc_49  # load5_v_mn: stage 0, partition 0 (group 0)
        v_mn_115 = gl.load(v_mn_114, mask=k_words_68, other=0.0)  # load5_v_mn: stage 0, partition 0 (group 0)
        v_118 = v_mn_115.to(gl.float32)  # convert5_v: stage 0, partition 0 (group 0)
        v_sc_108 = v_scale_base_34 + v_sc_107  # load4_v_sc: stage 0, partition 0 (group 0)
        v_sc_109 = v_sc_108.broadcast_to([64, 128])  # load4_v_sc: stage 0, partition 0 (group 0)
        v_sc_110 = v_sc_109 + v_sc_49  # load4_v_sc: stage 0, partition 0 (group 0)
        v_sc_111 = gl.load(v_sc_110, mask=k_words_68, other=0.0)  # load4_v_sc: stage 0, partition 0 (group 0)
        v_116 = v_sc_111.to(gl.float32)  # convert4_v: stage 0, partition 0 (group 0)
        v_words_100 = v_words_99 * 8  # load1_v_words: stage 0, partition 0 (group 0)
        v_words_101 = v_code_base_32 + v_words_100  # load1_v_words: stage 0, partition 0 (group 0)
        v_words_102 = v_words_101.broadcast_to([64, 128])  # load1_v_words: stage 0, partition 0 (group 0)
        v_words_103 = v_words_102 + v_words_48  # load1_v_words: stage 0, partition 0 (group 0)
        v_words_104 = gl.load(v_words_103, mask=k_words_68, other=0)  # load1_v_words: stage 0, partition 0 (group 0)
        v_codes_105 = v_words_104 >> v_codes  # convert3_v: stage 0, partition 0 (group 0)
        v_codes_106 = v_codes_105 & 3  # convert3_v: stage 0, partition 0 (group 0)
        v = v_codes_106.to(gl.float32)  # convert3_v: stage 0, partition 0 (group 0)
        alpha = m_new_93_p1 - m_new_93  # sfu0_alpha: stage 0, partition 0 (group 0)
        alpha_94 = gl.exp2(alpha)  # sfu0_alpha: stage 0, partition 0 (group 0)
        v_117 = v * v_116  # elementwise4_v: stage 0, partition 0 (group 0)
        v_119 = v_117 + v_118  # elementwise4_v: stage 0, partition 0 (group 0)
        acc_124 = acc_123.broadcast_to([64, 128])  # elementwise4_v: stage 0, partition 0 (group 0)
        acc_125 = acc_124 * v_119  # elementwise4_v: stage 0, partition 0 (group 0)
        acc_126 = gl.sum(acc_125, axis=0)  # reduce3_acc: stage 0, partition 0 (group 0)
        l_i = l_i_98_p1 * alpha_94  # elementwise3_l_i: stage 0, partition 0 (group 0)
        l_i_98 = l_i + l_i_97  # elementwise3_l_i: stage 0, partition 0 (group 0)
        acc_120 = alpha_94  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_121 = acc_127_p1 * acc_120  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_127 = acc_121 + acc_126  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_127_p1 = acc_127
        l_i_98_p1 = l_i_98
        m_new_93_p1 = m_new_93
    o_51 = acc_127_p1 / l_i_98_p1
    v0 = o_ptr + q
    v2 = v0 + offs_d_16
    v3 = o_51.to(gl.float16)
    v4 = gl.convert_layout(v3, L1)
    gl.store(v2, v4)

@gluon.jit
def twill_kernel(q_ptr, k_code_ptr, k_scale_ptr, k_mn_ptr, v_code_ptr, v_scale_ptr, v_mn_ptr, o_ptr, sm_scale, T, stride_kc_bh, stride_ks_bh, stride_vc_bh, stride_vs_bh):
    consumer_0(q_ptr, k_code_ptr, k_scale_ptr, k_mn_ptr, v_code_ptr, v_scale_ptr, v_mn_ptr, o_ptr, sm_scale, T, stride_kc_bh, stride_ks_bh, stride_vc_bh, stride_vs_bh, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['q_ptr', 'k_code_ptr', 'k_scale_ptr', 'k_mn_ptr', 'v_code_ptr', 'v_scale_ptr', 'v_mn_ptr', 'o_ptr', 'sm_scale', 'T', 'stride_kc_bh', 'stride_ks_bh', 'stride_vc_bh', 'stride_vs_bh', 'D', 'BLOCK_N', 'GROUP_K', 'GROUP_V', 'BITS', 'FEAT_PER_INT']          # the Triton kernel's parameters, in order
RUNTIME = ['q_ptr', 'k_code_ptr', 'k_scale_ptr', 'k_mn_ptr', 'v_code_ptr', 'v_scale_ptr', 'v_mn_ptr', 'o_ptr', 'sm_scale', 'T', 'stride_kc_bh', 'stride_ks_bh', 'stride_vc_bh', 'stride_vs_bh']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['q_ptr', 'k_code_ptr', 'k_scale_ptr', 'k_mn_ptr', 'v_code_ptr', 'v_scale_ptr', 'v_mn_ptr', 'o_ptr', 'sm_scale', 'T', 'stride_kc_bh', 'stride_ks_bh', 'stride_vc_bh', 'stride_vs_bh']   # the arguments a launch key reads
CONSTEXPRS = {'D': 128, 'BLOCK_N': 64, 'GROUP_K': 32, 'GROUP_V': 32, 'BITS': 2, 'FEAT_PER_INT': 16}         # the specialisation this kernel was generated for
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
