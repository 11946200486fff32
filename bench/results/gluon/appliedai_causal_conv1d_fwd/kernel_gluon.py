"""_causal_conv1d_fwd_kernel, written by twill from its joint schedule: I=235 L=241 (optimal), 8411 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 296 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 8], order=[0, 1])))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 8], order=[0, 1]))

@gluon.jit
def consumer_0(x_ptr, w_ptr, bias_ptr, initial_states_ptr, o_ptr, batch, dim, seqlen, stride_x_seq, stride_x_token, stride_weight_dim, stride_weight_width, stride_istate_seq, stride_istate_token, stride_o_seq, stride_o_token):
    indices_0 = gl.program_id(0)
    indices_0_6 = indices_0 * 128
    indices_0_7 = gl.arange(0, 128, layout=L0)
    indices_0_8 = gl.arange(0, 128, layout=L1)
    indices_0_11 = indices_0_6 + indices_0_7
    indices_0_12 = indices_0_6 + indices_0_8
    idx_seqs_14 = indices_0_11 // seqlen
    idx_tokens = indices_0_11 % seqlen
    idx_tokens_15 = indices_0_12 % seqlen
    x_base_16 = idx_seqs_14 * stride_x_seq
    x_base_17 = gl.expand_dims(x_base_16, 1)
    x_base_19 = x_ptr + x_base_17
    idx_feats = gl.program_id(1)
    idx_feats_20 = idx_feats * 256
    idx_feats_21 = gl.arange(0, 256, layout=L2)
    idx_feats_22 = gl.arange(0, 256, layout=L3)
    idx_feats_23 = gl.arange(0, 256, layout=L1)
    idx_feats_27 = idx_feats_20 + idx_feats_21
    idx_feats_28 = idx_feats_20 + idx_feats_22
    idx_feats_29 = idx_feats_20 + idx_feats_23
    w_base_30 = idx_feats_28 * stride_weight_dim
    w_base_32 = w_ptr + w_base_30
    load_init_state = idx_tokens_15
    load_init_state_33 = gl.min(load_init_state, axis=0)
    load_init_state_34 = load_init_state_33 < 3
    initial_states_base_35 = idx_seqs_14 * stride_istate_seq
    initial_states_base_36 = gl.expand_dims(initial_states_base_35, 1)
    initial_states_base_38 = initial_states_ptr + initial_states_base_36
    initial_states_base_39 = gl.expand_dims(idx_feats_27, 0)
    initial_states_base_40 = initial_states_base_38.broadcast_to([128, 256])
    initial_states_base_41 = initial_states_base_39.broadcast_to([128, 256])
    initial_states_base_42 = initial_states_base_40 + initial_states_base_41
    bias_43 = bias_ptr + idx_feats_29
    mask_bias_46 = idx_feats_27 < dim
    mask_bias_47 = idx_feats_28 < dim
    mask_bias_48 = idx_feats_29 < dim
    acc_49 = gl.load(bias_43, mask=mask_bias_48, other=0.0)
    acc_50 = gl.convert_layout(acc_49, L3)
    acc_51 = acc_50.to(gl.float32)
    acc_52 = gl.expand_dims(acc_51, 0)
    acc_53 = acc_52.broadcast_to([128, 256])
    x_ptrs_54 = x_base_19.broadcast_to([128, 256])
    mask_x_55 = idx_seqs_14 < batch
    mask_x_56 = gl.expand_dims(mask_x_55, 1)
    mask_x_57 = gl.expand_dims(mask_bias_46, 0)
    mask_x_58 = gl.expand_dims(mask_bias_47, 0)
    mask_x_59 = mask_x_57.broadcast_to([128, 256])
    w_ptrs = gl.expand_dims(w_base_32, 0)
    twill_n = (4 - 0 + 1 - 1) // 1
    acc_108 = acc_53
    acc_108_p1 = acc_108
    for twill_b in range(0, twill_n):
        idx_x_w = (0 + (twill_b - 0) * 1) - 3  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_w_86 = idx_x_w  # load0_matrix_x: stage 0, partition 0 (group 0)
        idx_x_w_87 = idx_x_w_86 + idx_tokens  # load0_matrix_x: stage 0, partition 0 (group 0)
        if load_init_state_34:  # elementwise2: stage 0, partition 0 (group 0)
            initial_states_ptrs = idx_x_w_87 + 4  # elementwise2: stage 0, partition 0 (group 0)
            initial_states_ptrs_109 = initial_states_ptrs - 1  # elementwise2: stage 0, partition 0 (group 0)
            initial_states_ptrs_111 = initial_states_ptrs_109 * stride_istate_token  # elementwise2: stage 0, partition 0 (group 0)
            initial_states_ptrs_112 = gl.expand_dims(initial_states_ptrs_111, 1)  # elementwise2: stage 0, partition 0 (group 0)
            initial_states_ptrs_113 = initial_states_ptrs_112.broadcast_to([128, 256])  # elementwise2: stage 0, partition 0 (group 0)
            initial_states_ptrs_114 = initial_states_base_42 + initial_states_ptrs_113  # elementwise2: stage 0, partition 0 (group 0)
            mask_w = idx_x_w_87 < 0  # elementwise2: stage 0, partition 0 (group 0)
            mask_w_115 = gl.expand_dims(mask_w, 1)  # elementwise2: stage 0, partition 0 (group 0)
            mask_w_116 = mask_x_56 & mask_w_115  # elementwise2: stage 0, partition 0 (group 0)
            mask_w_117 = mask_w_116.broadcast_to([128, 256])  # elementwise2: stage 0, partition 0 (group 0)
            mask_w_118 = mask_w_117 & mask_x_59  # elementwise2: stage 0, partition 0 (group 0)
            initial_states = gl.load(initial_states_ptrs_114, mask=mask_w_118, other=0.0)  # elementwise2: stage 0, partition 0 (group 0)
            v2 = initial_states  # elementwise2: stage 0, partition 0 (group 0)
        else:  # elementwise2: stage 0, partition 0 (group 0)
            v2 = gl.full([128, 256], 0.0, gl.bfloat16, layout=L4)  # elementwise2: stage 0, partition 0 (group 0)
        mask_x_93 = idx_x_w_87 >= 0  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_94 = gl.expand_dims(mask_x_93, 1)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_95 = mask_x_56 & mask_x_94  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_96 = idx_x_w_87 < seqlen  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_97 = gl.expand_dims(mask_x_96, 1)  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_98 = mask_x_95 & mask_x_97  # elementwise0_mask_x: stage 0, partition 0 (group 0)
        mask_x_99 = mask_x_98.broadcast_to([128, 256])  # elementwise1_mask_x: stage 0, partition 0 (group 0)
        mask_x_100 = mask_x_99 & mask_x_59  # elementwise1_mask_x: stage 0, partition 0 (group 0)
        x_ptrs_88 = idx_x_w_87 * stride_x_token  # load0_matrix_x: stage 0, partition 0 (group 0)
        x_ptrs_89 = gl.expand_dims(x_ptrs_88, 1)  # load0_matrix_x: stage 0, partition 0 (group 0)
        x_ptrs_90 = x_ptrs_89.broadcast_to([128, 256])  # load0_matrix_x: stage 0, partition 0 (group 0)
        x_ptrs_91 = x_ptrs_90 + initial_states_base_41  # load0_matrix_x: stage 0, partition 0 (group 0)
        x_ptrs_92 = x_ptrs_54 + x_ptrs_91  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x = gl.load(x_ptrs_92, mask=mask_x_100, other=v2)  # load0_matrix_x: stage 0, partition 0 (group 0)
        matrix_x_101 = gl.convert_layout(matrix_x, L5)  # convert0_matrix_x: stage 0, partition 0 (group 0)
        w_ptrs_102 = (0 + (twill_b - 0) * 1) * stride_weight_width  # load1_matrix_w: stage 0, partition 0 (group 0)
        w_ptrs_103 = w_ptrs_102  # load1_matrix_w: stage 0, partition 0 (group 0)
        w_ptrs_104 = w_ptrs + w_ptrs_103  # load1_matrix_w: stage 0, partition 0 (group 0)
        matrix_w = gl.load(w_ptrs_104, mask=mask_x_58, other=0.0)  # load1_matrix_w: stage 0, partition 0 (group 0)
        acc_105 = matrix_w.broadcast_to([128, 256])  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_106 = matrix_x_101 * acc_105  # elementwise3_acc: stage 0, partition 0 (group 0)
        acc_107 = acc_106.to(gl.float32)  # convert1_acc: stage 0, partition 0 (group 0)
        acc_108 = acc_108_p1 + acc_107  # elementwise4_acc: stage 0, partition 0 (group 0)
        acc_108_p1 = acc_108
    acc_61 = 0.0 - acc_108_p1
    acc_62 = gl.exp(acc_61)
    acc_63 = acc_62 + 1.0
    acc_64 = acc_108_p1 / acc_63
    mask_65 = idx_seqs_14 < batch
    mask_66 = gl.expand_dims(mask_65, 1)
    mask_67 = idx_tokens < seqlen
    mask_68 = gl.expand_dims(mask_67, 1)
    mask_69 = mask_66 & mask_68
    mask_70 = gl.expand_dims(mask_bias_46, 0)
    mask_71 = mask_69.broadcast_to([128, 256])
    mask_72 = mask_70.broadcast_to([128, 256])
    mask_73 = mask_71 & mask_72
    o_ptrs_74 = idx_seqs_14 * stride_o_seq
    o_ptrs_75 = gl.expand_dims(o_ptrs_74, 1)
    o_ptrs_77 = o_ptr + o_ptrs_75
    o_ptrs_79 = idx_tokens * stride_o_token
    o_ptrs_80 = gl.expand_dims(o_ptrs_79, 1)
    o_ptrs_81 = o_ptrs_77 + o_ptrs_80
    o_ptrs_82 = o_ptrs_81.broadcast_to([128, 256])
    o_ptrs_83 = o_ptrs_82 + initial_states_base_41
    v0 = acc_64.to(gl.bfloat16)
    v1 = gl.convert_layout(v0, L4)
    gl.store(o_ptrs_83, v1, mask=mask_73)

@gluon.jit
def twill_kernel(x_ptr, w_ptr, bias_ptr, initial_states_ptr, o_ptr, batch, dim, seqlen, stride_x_seq, stride_x_token, stride_weight_dim, stride_weight_width, stride_istate_seq, stride_istate_token, stride_o_seq, stride_o_token):
    consumer_0(x_ptr, w_ptr, bias_ptr, initial_states_ptr, o_ptr, batch, dim, seqlen, stride_x_seq, stride_x_token, stride_weight_dim, stride_weight_width, stride_istate_seq, stride_istate_token, stride_o_seq, stride_o_token, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['x_ptr', 'w_ptr', 'bias_ptr', 'initial_states_ptr', 'o_ptr', 'batch', 'dim', 'seqlen', 'stride_x_seq', 'stride_x_dim', 'stride_x_token', 'stride_weight_dim', 'stride_weight_width', 'stride_istate_seq', 'stride_istate_dim', 'stride_istate_token', 'stride_o_seq', 'stride_o_dim', 'stride_o_token', 'HAS_BIAS', 'KERNEL_WIDTH', 'SILU_ACTIVATION', 'HAS_INITIAL_STATES', 'BLOCK_M', 'BLOCK_N']          # the Triton kernel's parameters, in order
RUNTIME = ['x_ptr', 'w_ptr', 'bias_ptr', 'initial_states_ptr', 'o_ptr', 'batch', 'dim', 'seqlen', 'stride_x_seq', 'stride_x_token', 'stride_weight_dim', 'stride_weight_width', 'stride_istate_seq', 'stride_istate_token', 'stride_o_seq', 'stride_o_token']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['x_ptr', 'w_ptr', 'bias_ptr', 'initial_states_ptr', 'o_ptr', 'batch', 'dim', 'seqlen', 'stride_x_seq', 'stride_x_token', 'stride_weight_dim', 'stride_weight_width', 'stride_istate_seq', 'stride_istate_token', 'stride_o_seq', 'stride_o_token']   # the arguments a launch key reads
CONSTEXPRS = {'stride_x_dim': 1, 'stride_istate_dim': 1, 'stride_o_dim': 1, 'HAS_BIAS': True, 'KERNEL_WIDTH': 4, 'SILU_ACTIVATION': True, 'HAS_INITIAL_STATES': True, 'BLOCK_M': 128, 'BLOCK_N': 256}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
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
