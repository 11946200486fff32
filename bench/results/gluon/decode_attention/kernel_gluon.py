"""_fwd_kernel_stage1, written by twill from its joint schedule: I=434 L=434 (optimal), 3225 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 106 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- if at decode_attention.py:57 (TTGIR line 77) around the scheduled loop: taken as an early return where its condition fails in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(Q, K_Buffer, V_Buffer, sm_scale, kv_indptr, kv_indices, Att_Out, Att_Lse, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os):
    cur_batch = gl.program_id(0)
    cur_head = gl.program_id(1)
    split_kv_id = gl.program_id(2)
    cur_kv_head = cur_head // 8
    offs_d = gl.arange(0, 128, layout=L0)
    offs_d_6 = gl.arange(0, 128, layout=L1)
    mask_d = offs_d < 128
    mask_d_7 = offs_d_6 < 128
    cur_batch_kv_start_idx = kv_indptr + cur_batch
    cur_batch_kv_start_idx_8 = gl.load(cur_batch_kv_start_idx)
    cur_batch_seq_len_9 = cur_batch_kv_start_idx + 1
    cur_batch_seq_len_10 = gl.load(cur_batch_seq_len_9)
    cur_batch_seq_len_11 = cur_batch_seq_len_10 - cur_batch_kv_start_idx_8
    off_q = cur_batch * stride_qbs
    off_q_12 = cur_head * stride_qh
    off_q_13 = off_q + off_q_12
    off_q_15 = off_q_13 + offs_d_6
    q_17 = Q + off_q_15
    q_18 = gl.load(q_17, mask=mask_d_7, other=0.0)
    kv_len_per_split_19 = cur_batch_seq_len_11 + 7
    kv_len_per_split_20 = kv_len_per_split_19 // 8
    split_kv_start = kv_len_per_split_20 * split_kv_id
    split_kv_end = split_kv_start + kv_len_per_split_20
    split_kv_end_21 = gl.minimum(split_kv_end, cur_batch_seq_len_11)
    offs_n = gl.arange(0, 64, layout=L2)
    kv_loc_22 = kv_indices + cur_batch_kv_start_idx_8
    offs_buf_k_24 = cur_kv_head * stride_buf_kh
    offs_buf_k_26 = gl.expand_dims(offs_d, 0)
    offs_buf_k_27 = offs_buf_k_26.broadcast_to([64, 128])
    k_28 = gl.expand_dims(mask_d, 0)
    k_29 = k_28.broadcast_to([64, 128])
    qk = gl.convert_layout(q_18, L0)
    qk_31 = gl.expand_dims(qk, 0)
    qk_32 = qk_31.broadcast_to([64, 128])
    offs_buf_v_34 = cur_kv_head * stride_buf_vh
    twill_n = gl.maximum((split_kv_end_21 - split_kv_start + 64 - 1) // 64, 0)
    n_e_max_72 = float("-inf")
    e_sum_85 = 0.0
    acc_83 = gl.full([128], 0.0, gl.float32, layout=L0)
    acc_83_p1 = acc_83
    e_sum_85_p1 = e_sum_85
    n_e_max_72_p1 = n_e_max_72
    for twill_b in range(0, twill_n):
        offs_n_45 = (split_kv_start + (twill_b - 0) * 64)  # load0_kv_loc: stage 0, partition 0 (group 0)
        offs_n_46 = offs_n_45 + offs_n  # load0_kv_loc: stage 0, partition 0 (group 0)
        k_55 = gl.expand_dims(offs_n_46, 1)  # elementwise0_k: stage 0, partition 0 (group 0)
        k_56 = k_55 < split_kv_end_21  # elementwise0_k: stage 0, partition 0 (group 0)
        k_57 = k_56.broadcast_to([64, 128])  # elementwise0_k: stage 0, partition 0 (group 0)
        k_58 = k_57 & k_29  # elementwise0_k: stage 0, partition 0 (group 0)
        kv_loc_47 = offs_n_46 < split_kv_end_21  # load0_kv_loc: stage 0, partition 0 (group 0)
        kv_loc_48 = kv_loc_22 + offs_n_46  # load0_kv_loc: stage 0, partition 0 (group 0)
        kv_loc_49 = gl.load(kv_loc_48, mask=kv_loc_47, other=0)  # load0_kv_loc: stage 0, partition 0 (group 0)
        offs_buf_k_50 = gl.expand_dims(kv_loc_49, 1)  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_51 = offs_buf_k_50 * stride_buf_kbs  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_52 = offs_buf_k_51 + offs_buf_k_24  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_53 = offs_buf_k_52.broadcast_to([64, 128])  # load1_k: stage 0, partition 0 (group 0)
        offs_buf_k_54 = offs_buf_k_53 + offs_buf_k_27  # load1_k: stage 0, partition 0 (group 0)
        k_59 = K_Buffer + offs_buf_k_54  # load1_k: stage 0, partition 0 (group 0)
        k_60 = gl.load(k_59, mask=k_58, other=0.0)  # load1_k: stage 0, partition 0 (group 0)
        qk_61 = qk_32 * k_60  # elementwise1_qk: stage 0, partition 0 (group 0)
        qk_62 = gl.sum(qk_61, axis=1)  # reduce0_qk: stage 0, partition 0 (group 0)
        qk_63 = qk_62.to(gl.float32)  # convert0_qk: stage 0, partition 0 (group 0)
        qk_64 = qk_63 * sm_scale  # elementwise2_qk: stage 0, partition 0 (group 0)
        qk_65 = gl.where(kv_loc_47, qk_64, float("-inf"))  # elementwise2_qk: stage 0, partition 0 (group 0)
        n_e_max = gl.max(qk_65, axis=0)  # reduce1_n_e_max: stage 0, partition 0 (group 0)
        n_e_max_72 = gl.maximum(n_e_max, n_e_max_72_p1)  # elementwise3_n_e_max: stage 0, partition 0 (group 0)
        p = n_e_max_72  # sfu1_p: stage 0, partition 0 (group 0)
        p_74 = qk_65 - p  # sfu1_p: stage 0, partition 0 (group 0)
        p_75 = gl.exp(p_74)  # sfu1_p: stage 0, partition 0 (group 0)
        re_scale = n_e_max_72_p1 - n_e_max_72  # sfu0_re_scale: stage 0, partition 0 (group 0)
        re_scale_73 = gl.exp(re_scale)  # sfu0_re_scale: stage 0, partition 0 (group 0)
        e_sum_84 = gl.sum(p_75, axis=0)  # reduce3_e_sum: stage 0, partition 0 (group 0)
        e_sum = e_sum_85_p1 * re_scale_73  # elementwise6_e_sum: stage 0, partition 0 (group 0)
        e_sum_85 = e_sum + e_sum_84  # elementwise6_e_sum: stage 0, partition 0 (group 0)
        offs_buf_v_66 = offs_buf_k_50 * stride_buf_vbs  # load2_v: stage 0, partition 0 (group 0)
        offs_buf_v_67 = offs_buf_v_66 + offs_buf_v_34  # load2_v: stage 0, partition 0 (group 0)
        offs_buf_v_68 = offs_buf_v_67.broadcast_to([64, 128])  # load2_v: stage 0, partition 0 (group 0)
        offs_buf_v_69 = offs_buf_v_68 + offs_buf_k_27  # load2_v: stage 0, partition 0 (group 0)
        v_70 = V_Buffer + offs_buf_v_69  # load2_v: stage 0, partition 0 (group 0)
        v_71 = gl.load(v_70, mask=k_58, other=0.0)  # load2_v: stage 0, partition 0 (group 0)
        acc_79 = v_71.to(gl.float32)  # convert1_acc: stage 0, partition 0 (group 0)
        acc_78 = gl.expand_dims(p_75, 1)  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_80 = acc_78.broadcast_to([64, 128])  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_81 = acc_80 * acc_79  # elementwise5_acc: stage 0, partition 0 (group 0)
        acc_82 = gl.sum(acc_81, axis=0)  # reduce2_acc: stage 0, partition 0 (group 0)
        acc_76 = re_scale_73  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_77 = acc_83_p1 * acc_76  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_83 = acc_77 + acc_82  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_83_p1 = acc_83
        e_sum_85_p1 = e_sum_85
        n_e_max_72_p1 = n_e_max_72
    offs_mid_o = cur_batch * stride_mid_ob
    offs_mid_o_37 = cur_head * stride_mid_oh
    offs_mid_o_38 = offs_mid_o + offs_mid_o_37
    offs_mid_o_39 = split_kv_id * stride_mid_os
    offs_mid_o_40 = offs_mid_o_38 + offs_mid_o_39
    offs_mid_o_42 = offs_mid_o_40 + offs_d_6
    v2 = Att_Out + offs_mid_o_42
    v4 = acc_83_p1 / e_sum_85_p1
    v5 = gl.convert_layout(v4, L1)
    gl.store(v2, v5, mask=mask_d_7)
    offs_mid_o_1 = offs_mid_o_40 + 128
    v6 = Att_Lse + offs_mid_o_1
    v7 = gl.log(e_sum_85_p1)
    v8 = n_e_max_72_p1 + v7
    gl.store(v6, v8)

@gluon.jit
def twill_kernel(Q, K_Buffer, V_Buffer, sm_scale, kv_indptr, kv_indices, Att_Out, Att_Lse, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os):
    cur_batch = gl.program_id(0)
    split_kv_id = gl.program_id(2)
    cur_batch_kv_start_idx = kv_indptr + cur_batch
    cur_batch_kv_start_idx_8 = gl.load(cur_batch_kv_start_idx)
    cur_batch_seq_len_9 = cur_batch_kv_start_idx + 1
    cur_batch_seq_len_10 = gl.load(cur_batch_seq_len_9)
    cur_batch_seq_len_11 = cur_batch_seq_len_10 - cur_batch_kv_start_idx_8
    kv_len_per_split_19 = cur_batch_seq_len_11 + 7
    kv_len_per_split_20 = kv_len_per_split_19 // 8
    split_kv_start = kv_len_per_split_20 * split_kv_id
    split_kv_end = split_kv_start + kv_len_per_split_20
    split_kv_end_21 = gl.minimum(split_kv_end, cur_batch_seq_len_11)
    v0 = split_kv_end_21 > split_kv_start
    if not v0:
        return
    consumer_0(Q, K_Buffer, V_Buffer, sm_scale, kv_indptr, kv_indices, Att_Out, Att_Lse, stride_qbs, stride_qh, stride_buf_kbs, stride_buf_kh, stride_buf_vbs, stride_buf_vh, stride_mid_ob, stride_mid_oh, stride_mid_os, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'kv_indptr', 'kv_indices', 'Att_Out', 'Att_Lse', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os', 'kv_group_num', 'BLOCK_DMODEL', 'BLOCK_DV', 'BLOCK_N', 'NUM_KV_SPLITS', 'Lk', 'Lv']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'kv_indptr', 'kv_indices', 'Att_Out', 'Att_Lse', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K_Buffer', 'V_Buffer', 'sm_scale', 'kv_indptr', 'kv_indices', 'Att_Out', 'Att_Lse', 'stride_qbs', 'stride_qh', 'stride_buf_kbs', 'stride_buf_kh', 'stride_buf_vbs', 'stride_buf_vh', 'stride_mid_ob', 'stride_mid_oh', 'stride_mid_os']   # the arguments a launch key reads
CONSTEXPRS = {'kv_group_num': 8, 'BLOCK_DMODEL': 128, 'BLOCK_DV': 128, 'BLOCK_N': 64, 'NUM_KV_SPLITS': 8, 'Lk': 128, 'Lv': 128}         # the specialisation this kernel was generated for
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
