"""_triton_fp8_indexer_kernel, written by twill from its joint schedule: I=256 L=261 (optimal), 512 cycles per iteration predicted.

Decisions (each from the schedule):
- q_h_100 copied with cp.async at every launch, not by TMA: its addresses go through arith.minsi (%offs_m_safe_64), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (q_h_100): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (168, 56 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 192 registers per thread (needs about 168): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 2, 4 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring q_h_100: 3 buffers of [64, 128] f8E4M3FN (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 41024 bytes planned of 232448; maxnreg 128
- early return at dsv32_fp8_indexer_logits.py:75 (TTGIR line 121): taken in the kernel itself, before gl.warp_specialize starts the partitions (its branch's 1 op(s) written as they run); not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 32])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 32])))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 32]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(Q_fp8, K_fp8, K_scales, W, Out, KS, KE, S, stride_qh, stride_qs, stride_ks, stride_ws, q_h_100_buf, q_h_100_ready, q_h_100_empty, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_m = pid_m * 64
    offs_m_5 = gl.arange(0, 64, layout=L0)
    offs_m_7 = gl.arange(0, 64, layout=L1)
    offs_m_13 = offs_m + offs_m_5
    offs_m_15 = offs_m + offs_m_7
    offs_n = pid_n * 128
    offs_n_17 = gl.arange(0, 128, layout=L2)
    offs_n_18 = gl.arange(0, 128, layout=L3)
    offs_n_19 = gl.arange(0, 128, layout=L4)
    offs_n_23 = offs_n + offs_n_17
    offs_n_24 = offs_n + offs_n_18
    offs_n_25 = offs_n + offs_n_19
    mask_m_28 = offs_m_13 < S
    mask_m_29 = offs_m_15 < S
    mask_n_32 = offs_n_23 < S
    mask_n_33 = offs_n_24 < S
    ks_vals_35 = KS + offs_m_15
    ks_vals_37 = gl.load(ks_vals_35, mask=mask_m_29, other=S)
    ke_vals_41 = KE + offs_m_15
    ke_vals_43 = gl.load(ke_vals_41, mask=mask_m_29, other=0)
    offs_m_64 = offs_m_13.to(gl.int64)
    offs_n_64 = offs_n_23.to(gl.int64)
    out_ptrs = gl.expand_dims(offs_m_64, 1)
    out_ptrs_45 = gl.cast(S, gl.int64)
    out_ptrs_47 = out_ptrs * out_ptrs_45
    out_ptrs_49 = Out + out_ptrs_47
    out_ptrs_50 = gl.expand_dims(offs_n_64, 0)
    out_ptrs_51 = out_ptrs_49.broadcast_to([64, 128])
    out_ptrs_52 = out_ptrs_50.broadcast_to([64, 128])
    out_ptrs_53 = out_ptrs_51 + out_ptrs_52
    out_mask = gl.expand_dims(mask_m_28, 1)
    out_mask_54 = gl.expand_dims(mask_n_32, 0)
    out_mask_55 = out_mask.broadcast_to([64, 128])
    out_mask_56 = out_mask_54.broadcast_to([64, 128])
    out_mask_57 = out_mask_55 & out_mask_56
    offs_n_safe = S - 1
    offs_n_safe_62 = gl.minimum(offs_n_25, gl.full([128], offs_n_safe, gl.int32, layout=L4))
    offs_n_safe_63 = gl.minimum(offs_n_24, gl.full([128], offs_n_safe, gl.int32, layout=L3))
    k_block = gl.expand_dims(offs_n_safe_62, 1)
    k_block_66 = k_block * stride_ks
    k_block_68 = K_fp8 + k_block_66
    k_block_69 = gl.arange(0, 128, layout=L5)
    k_block_70 = gl.expand_dims(k_block_69, 0)
    k_block_71 = k_block_68.broadcast_to([128, 128])
    k_block_72 = k_block_70.broadcast_to([128, 128])
    k_block_73 = k_block_71 + k_block_72
    k_block_74 = gl.load(k_block_73)
    k_sc_75 = K_scales + offs_n_safe_63
    k_sc_76 = gl.load(k_sc_75, mask=mask_n_33, other=0.0)
    w_h_80 = offs_m_15 * stride_ws
    w_h_82 = W + w_h_80
    scores = gl.expand_dims(k_sc_76, 0)
    scores_83 = scores.broadcast_to([64, 128])
    scores_105 = gl.allocate_shared_memory(gl.float8e4nv, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False), k_block_74)
    fence_async_shared()
    twill_n = (64 - 0 + 1 - 1) // 1
    acc_113 = gl.full([64, 128], 0.0, gl.float32, layout=L6)
    w_h_103 = w_h_82 + (0 + (0 - 0) * 1)  # load1_w_h: stage 0, partition 0 (group 0)
    w_h_104 = gl.load(w_h_103, mask=mask_m_29, other=0.0)  # load1_w_h: stage 0, partition 0 (group 0)
    acc_113_p1 = acc_113
    w_h_104_p1 = w_h_104
    for twill_b in range(1, twill_n):
        mbarrier.wait(q_h_100_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
        fence_async_shared()
        tok_scores_107 = warpgroup_mma(q_h_100_buf.index((twill_b - 1) % 3), scores_105.permute((1, 0)), gl.full([64, 128], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_scores: stage 1, partition 0 (group 0)
        w_h_102 = (0 + (twill_b - 0) * 1)  # load1_w_h: stage 0, partition 0 (group 0)
        w_h_103 = w_h_82 + w_h_102  # load1_w_h: stage 0, partition 0 (group 0)
        w_h_104 = gl.load(w_h_103, mask=mask_m_29, other=0.0)  # load1_w_h: stage 0, partition 0 (group 0)
        scores_107 = warpgroup_mma_wait(0, deps=(tok_scores_107,))
        mbarrier.arrive(q_h_100_empty.index((twill_b - 1) % 3))
        scores_108 = gl.maximum(scores_107, gl.full([64, 128], 0.0, gl.float32, layout=L6))  # elementwise0_scores: stage 1, partition 0 (group 0)
        scores_109 = scores_108 * scores_83  # elementwise0_scores: stage 1, partition 0 (group 0)
        acc_110 = gl.expand_dims(w_h_104_p1, 1)  # elementwise0_scores: stage 1, partition 0 (group 0)
        acc_111 = acc_110.broadcast_to([64, 128])  # elementwise0_scores: stage 1, partition 0 (group 0)
        acc_112 = scores_109 * acc_111  # elementwise0_scores: stage 1, partition 0 (group 0)
        acc_113 = acc_113_p1 + acc_112  # elementwise0_scores: stage 1, partition 0 (group 0)
        acc_113_p1 = acc_113
        w_h_104_p1 = w_h_104
    mbarrier.wait(q_h_100_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
    fence_async_shared()
    tok_scores_107 = warpgroup_mma(q_h_100_buf.index(((twill_n - 1 + 1) - 1) % 3), scores_105.permute((1, 0)), gl.full([64, 128], 0.0, gl.float32, layout=L6), use_acc=False, is_async=True)  # dot0_scores: stage 1, partition 0 (group 0)
    scores_107 = warpgroup_mma_wait(0, deps=(tok_scores_107,))
    mbarrier.arrive(q_h_100_empty.index(((twill_n - 1 + 1) - 1) % 3))
    scores_108 = gl.maximum(scores_107, gl.full([64, 128], 0.0, gl.float32, layout=L6))  # elementwise0_scores: stage 1, partition 0 (group 0)
    scores_109 = scores_108 * scores_83  # elementwise0_scores: stage 1, partition 0 (group 0)
    acc_110 = gl.expand_dims(w_h_104_p1, 1)  # elementwise0_scores: stage 1, partition 0 (group 0)
    acc_111 = acc_110.broadcast_to([64, 128])  # elementwise0_scores: stage 1, partition 0 (group 0)
    acc_112 = scores_109 * acc_111  # elementwise0_scores: stage 1, partition 0 (group 0)
    acc_113 = acc_113_p1 + acc_112  # elementwise0_scores: stage 1, partition 0 (group 0)
    acc_113_p1 = acc_113
    w_h_104_p1 = w_h_104
    q_h_100_buf._keep_alive()
    scores_105._keep_alive()
    valid = gl.expand_dims(offs_n_24, 0)
    valid_84 = gl.expand_dims(ks_vals_37, 1)
    valid_85 = valid.broadcast_to([64, 128])
    valid_86 = valid_84.broadcast_to([64, 128])
    valid_87 = valid_85 >= valid_86
    valid_88 = gl.expand_dims(ke_vals_43, 1)
    valid_89 = valid_88.broadcast_to([64, 128])
    valid_90 = valid_85 < valid_89
    valid_91 = valid_87 & valid_90
    acc_92 = gl.where(valid_91, acc_113_p1, float("-inf"))
    v4 = gl.convert_layout(acc_92, L7)
    gl.store(out_ptrs_53, v4, mask=out_mask_57)

@gluon.jit
def producer_1(Q_fp8, K_fp8, K_scales, W, Out, KS, KE, S, stride_qh, stride_qs, stride_ks, stride_ws, q_h_100_buf, q_h_100_ready, q_h_100_empty, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    offs_m = pid_m * 64
    offs_m_6 = gl.arange(0, 64, layout=L4)
    offs_m_14 = offs_m + offs_m_6
    offs_n_safe = S - 1
    offs_m_safe_64 = gl.minimum(offs_m_14, gl.full([64], offs_n_safe, gl.int32, layout=L4))
    k_block_69 = gl.arange(0, 128, layout=L5)
    k_block_70 = gl.expand_dims(k_block_69, 0)
    q_h = gl.expand_dims(offs_m_safe_64, 1)
    q_h_78 = q_h * stride_qs
    q_h_79 = k_block_70.broadcast_to([64, 128])
    for acc_93 in range(0, 64, 1):
        twill_k = (acc_93 - 0) // 1
        q_h_94 = acc_93 * stride_qh
        q_h_95 = Q_fp8 + q_h_94
        q_h_97 = q_h_95 + q_h_78
        q_h_98 = q_h_97.broadcast_to([64, 128])
        q_h_99 = q_h_98 + q_h_79
        mbarrier.wait(q_h_100_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(q_h_100_buf.index(twill_k % 3), q_h_99)  # load0_q_h: stage 0, partition 1 (group 2)
            async_copy.mbarrier_arrive(q_h_100_ready.index(twill_k % 3), increment_count=False)
        else:
            q_h_100_buf.index(twill_k % 3).store(gl.load(q_h_99))  # load0_q_h: stage 0, partition 1 (group 2)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(q_h_100_ready.index(twill_k % 3), count=128)

@gluon.jit
def twill_kernel(Q_fp8, K_fp8, K_scales, W, Out, KS, KE, S, stride_qh, stride_qs, stride_ks, stride_ws, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    offs_m = pid_m * 64
    offs_m_5 = gl.arange(0, 64, layout=L0)
    offs_m_8 = gl.arange(0, 64, layout=L8)
    offs_m_13 = offs_m + offs_m_5
    offs_m_16 = offs_m + offs_m_8
    offs_n = pid_n * 128
    offs_n_17 = gl.arange(0, 128, layout=L2)
    offs_n_23 = offs_n + offs_n_17
    mask_m_28 = offs_m_13 < S
    mask_m_30 = offs_m_16 < S
    mask_n_32 = offs_n_23 < S
    ks_vals_36 = KS + offs_m_16
    ks_vals_38 = gl.load(ks_vals_36, mask=mask_m_30, other=S)
    ke_vals_42 = KE + offs_m_16
    ke_vals_44 = gl.load(ke_vals_42, mask=mask_m_30, other=0)
    offs_m_64 = offs_m_13.to(gl.int64)
    offs_n_64 = offs_n_23.to(gl.int64)
    out_ptrs = gl.expand_dims(offs_m_64, 1)
    out_ptrs_45 = gl.cast(S, gl.int64)
    out_ptrs_47 = out_ptrs * out_ptrs_45
    out_ptrs_49 = Out + out_ptrs_47
    out_ptrs_50 = gl.expand_dims(offs_n_64, 0)
    out_ptrs_51 = out_ptrs_49.broadcast_to([64, 128])
    out_ptrs_52 = out_ptrs_50.broadcast_to([64, 128])
    out_ptrs_53 = out_ptrs_51 + out_ptrs_52
    out_mask = gl.expand_dims(mask_m_28, 1)
    out_mask_54 = gl.expand_dims(mask_n_32, 0)
    out_mask_55 = out_mask.broadcast_to([64, 128])
    out_mask_56 = out_mask_54.broadcast_to([64, 128])
    out_mask_57 = out_mask_55 & out_mask_56
    ks_min = ks_vals_38
    ks_min_58 = gl.min(ks_min, axis=0)
    ke_max = ke_vals_44
    ke_max_59 = gl.max(ke_max, axis=0)
    v0 = offs_n >= ke_max_59
    v1 = offs_n + 128
    v2 = v1 <= ks_min_58
    v3 = v0 | v2
    if v3:
        gl.store(out_ptrs_53, gl.full([64, 128], float("-inf"), gl.float32, layout=L7), mask=out_mask_57)
        return
    q_h_100_buf = gl.allocate_shared_memory(gl.float8e4nv, [3, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
    q_h_100_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(q_h_100_ready.index(i), count=128)
    q_h_100_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(q_h_100_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q_fp8, K_fp8, K_scales, W, Out, KS, KE, S, stride_qh, stride_qs, stride_ks, stride_ws, q_h_100_buf, q_h_100_ready, q_h_100_empty, TWILL_COPY)),
        (producer_1, (Q_fp8, K_fp8, K_scales, W, Out, KS, KE, S, stride_qh, stride_qs, stride_ks, stride_ws, q_h_100_buf, q_h_100_ready, q_h_100_empty, TWILL_COPY)),
    ], [4], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q_fp8', 'K_fp8', 'K_scales', 'W', 'Out', 'KS', 'KE', 'S', 'stride_qh', 'stride_qs', 'stride_ks', 'stride_ws', 'H', 'D', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['Q_fp8', 'K_fp8', 'K_scales', 'W', 'Out', 'KS', 'KE', 'S', 'stride_qh', 'stride_qs', 'stride_ks', 'stride_ws']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q_fp8', 'K_fp8', 'K_scales', 'W', 'Out', 'KS', 'KE', 'S', 'stride_qh', 'stride_qs', 'stride_ks', 'stride_ws']   # the arguments a launch key reads
CONSTEXPRS = {'H': 64, 'D': 128, 'BLOCK_M': 64, 'BLOCK_N': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['Q_fp8', 'stride_qh', 'stride_qs']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
