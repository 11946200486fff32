"""_state_passing_fwd_kernel, written by twill from its joint schedule: I=196 L=196 (optimal), 680 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 98).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 44 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- written from the layouts Triton gives nchunks, seqlen, chunk_size, stride_states_batch, stride_out_batch, stride_final_states_batch, stride_final_states_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_initstates_batch, stride_initstates_head, stride_seq_idx_batch 16-divisible (its pointer loads 16 bytes a thread where the launch's specialisation proves them aligned, as Triton's own kernel at such a launch; at one where they are not, Gluon's lowering loads narrower vectors: run 66, FlagGems' softmax correct at N = 33001, x0.64 -> x1.00)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(states_ptr, out_ptr, final_states_ptr, dA_cs_ptr, initstates_ptr, seq_idx_ptr, dim, nchunks, seqlen, chunk_size, stride_states_batch, stride_states_chunk, stride_states_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_final_states_batch, stride_final_states_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_initstates_batch, stride_initstates_head, stride_seq_idx_batch):
    pid_m = gl.program_id(0)
    pid_b = gl.program_id(1)
    pid_h = gl.program_id(2)
    states_ptr_1 = pid_b * stride_states_batch
    states_ptr_2 = pid_h * stride_states_head
    states_ptr_3 = states_ptr_1 + states_ptr_2
    states_ptr_4 = states_ptr + states_ptr_3
    dA_cs_ptr_5 = pid_b * stride_dA_cs_batch
    dA_cs_ptr_6 = pid_h * stride_dA_cs_head
    dA_cs_ptr_7 = dA_cs_ptr_5 + dA_cs_ptr_6
    dA_cs_ptr_8 = dA_cs_ptr + dA_cs_ptr_7
    out_ptr_9 = pid_b * stride_out_batch
    out_ptr_10 = pid_h * stride_out_head
    out_ptr_11 = out_ptr_9 + out_ptr_10
    out_ptr_12 = out_ptr + out_ptr_11
    final_states_ptr_13 = pid_b * stride_final_states_batch
    final_states_ptr_14 = pid_h * stride_final_states_head
    final_states_ptr_15 = final_states_ptr_13 + final_states_ptr_14
    final_states_ptr_16 = final_states_ptr + final_states_ptr_15
    initstates_ptr_17 = pid_b * stride_initstates_batch
    initstates_ptr_18 = pid_h * stride_initstates_head
    initstates_ptr_19 = initstates_ptr_17 + initstates_ptr_18
    initstates_ptr_20 = initstates_ptr + initstates_ptr_19
    seq_idx_ptr_21 = pid_b * stride_seq_idx_batch
    seq_idx_ptr_22 = seq_idx_ptr + seq_idx_ptr_21
    offs_m = pid_m * 512
    offs_m_23 = gl.arange(0, 512, layout=L0)
    offs_m_25 = offs_m + offs_m_23
    in_dim_26 = offs_m_25 < dim
    states_ptrs_27 = states_ptr_4 + offs_m_25
    out_ptrs_28 = out_ptr_12 + offs_m_25
    final_states_ptrs_29 = final_states_ptr_16 + offs_m_25
    states_30 = initstates_ptr_20 + offs_m_25
    states_31 = gl.load(states_30, mask=in_dim_26, other=0.0)
    gl.store(out_ptrs_28, states_31, mask=in_dim_26)
    out_ptrs_33 = out_ptrs_28 + stride_out_chunk
    v0 = nchunks - 1
    twill_n = (nchunks - 0 + 1 - 1) // 1
    dA_cs_ptr_51 = dA_cs_ptr_8
    seq_idx_new_44 = 0
    states_ptrs_50 = states_ptrs_27
    dA_cs_ptr_51_p1 = dA_cs_ptr_51
    seq_idx_new_44_p1 = seq_idx_new_44
    states_ptrs_50_p1 = states_ptrs_50
    states_49 = states_31
    out_ptrs_52 = out_ptrs_33
    dA_cs_ptr_51 = dA_cs_ptr_51_p1 + stride_dA_cs_chunk  # load1_decay: stage 0, partition 0 (group 0)
    decay = gl.load(dA_cs_ptr_51_p1)  # load1_decay: stage 0, partition 0 (group 0)
    last = (0 + (0 - 0) * 1) + 1  # load2_seq_idx_new: stage 0, partition 0 (group 0)
    last_41 = last * chunk_size  # load2_seq_idx_new: stage 0, partition 0 (group 0)
    last_42 = gl.minimum(last_41, seqlen)  # load2_seq_idx_new: stage 0, partition 0 (group 0)
    last_43 = last_42 - 1  # load2_seq_idx_new: stage 0, partition 0 (group 0)
    seq_idx_new = seq_idx_ptr_22 + last_43  # load2_seq_idx_new: stage 0, partition 0 (group 0)
    seq_idx_new_44 = gl.load(seq_idx_new)  # load2_seq_idx_new: stage 0, partition 0 (group 0)
    states_ptrs_50 = states_ptrs_50_p1 + stride_states_chunk  # load0_chunk_states: stage 0, partition 0 (group 0)
    chunk_states = gl.load(states_ptrs_50_p1, mask=in_dim_26, other=0.0)  # load0_chunk_states: stage 0, partition 0 (group 0)
    chunk_states_p1 = chunk_states
    dA_cs_ptr_51_p1 = dA_cs_ptr_51
    decay_p1 = decay
    out_ptrs_52_p1 = out_ptrs_52
    seq_idx_new_44_p2 = seq_idx_new_44_p1
    seq_idx_new_44_p1 = seq_idx_new_44
    states_49_p1 = states_49
    states_ptrs_50_p1 = states_ptrs_50
    for twill_b in range(1, twill_n):
        dA_cs_ptr_51 = dA_cs_ptr_51_p1 + stride_dA_cs_chunk  # load1_decay: stage 0, partition 0 (group 0)
        decay = gl.load(dA_cs_ptr_51_p1)  # load1_decay: stage 0, partition 0 (group 0)
        decay_40 = gl.exp(decay_p1)  # sfu0_decay: stage 1, partition 0 (group 0)
        last = (0 + (twill_b - 0) * 1) + 1  # load2_seq_idx_new: stage 0, partition 0 (group 0)
        last_41 = last * chunk_size  # load2_seq_idx_new: stage 0, partition 0 (group 0)
        last_42 = gl.minimum(last_41, seqlen)  # load2_seq_idx_new: stage 0, partition 0 (group 0)
        last_43 = last_42 - 1  # load2_seq_idx_new: stage 0, partition 0 (group 0)
        seq_idx_new = seq_idx_ptr_22 + last_43  # load2_seq_idx_new: stage 0, partition 0 (group 0)
        seq_idx_new_44 = gl.load(seq_idx_new)  # load2_seq_idx_new: stage 0, partition 0 (group 0)
        decay_45 = seq_idx_new_44_p1 == seq_idx_new_44_p2  # elementwise0_decay: stage 1, partition 0 (group 0)
        decay_46 = gl.where(decay_45, decay_40, 0.0)  # elementwise0_decay: stage 1, partition 0 (group 0)
        states_ptrs_50 = states_ptrs_50_p1 + stride_states_chunk  # load0_chunk_states: stage 0, partition 0 (group 0)
        chunk_states = gl.load(states_ptrs_50_p1, mask=in_dim_26, other=0.0)  # load0_chunk_states: stage 0, partition 0 (group 0)
        states_47 = decay_46  # elementwise1_states: stage 1, partition 0 (group 0)
        states_48 = states_47 * states_49_p1  # elementwise1_states: stage 1, partition 0 (group 0)
        states_49 = states_48 + chunk_states_p1  # elementwise1_states: stage 1, partition 0 (group 0)
        v1 = (0 + (twill_b - 1) * 1) < v0  # store0: stage 1, partition 0 (group 0)
        if v1:  # store0: stage 1, partition 0 (group 0)
            gl.store(out_ptrs_52_p1, states_49, mask=in_dim_26)  # store0: stage 1, partition 0 (group 0)
        else:  # store0: stage 1, partition 0 (group 0)
            gl.store(final_states_ptrs_29, states_49, mask=in_dim_26)  # store0: stage 1, partition 0 (group 0)
        out_ptrs_52 = out_ptrs_52_p1 + stride_out_chunk  # store0: stage 1, partition 0 (group 0)
        chunk_states_p1 = chunk_states
        dA_cs_ptr_51_p1 = dA_cs_ptr_51
        decay_p1 = decay
        out_ptrs_52_p1 = out_ptrs_52
        seq_idx_new_44_p2 = seq_idx_new_44_p1
        seq_idx_new_44_p1 = seq_idx_new_44
        states_49_p1 = states_49
        states_ptrs_50_p1 = states_ptrs_50
    decay_40 = gl.exp(decay_p1)  # sfu0_decay: stage 1, partition 0 (group 0)
    decay_45 = seq_idx_new_44_p1 == seq_idx_new_44_p2  # elementwise0_decay: stage 1, partition 0 (group 0)
    decay_46 = gl.where(decay_45, decay_40, 0.0)  # elementwise0_decay: stage 1, partition 0 (group 0)
    states_47 = decay_46  # elementwise1_states: stage 1, partition 0 (group 0)
    states_48 = states_47 * states_49_p1  # elementwise1_states: stage 1, partition 0 (group 0)
    states_49 = states_48 + chunk_states_p1  # elementwise1_states: stage 1, partition 0 (group 0)
    v1 = (0 + ((twill_n - 1 + 1) - 1) * 1) < v0  # store0: stage 1, partition 0 (group 0)
    if v1:  # store0: stage 1, partition 0 (group 0)
        gl.store(out_ptrs_52_p1, states_49, mask=in_dim_26)  # store0: stage 1, partition 0 (group 0)
    else:  # store0: stage 1, partition 0 (group 0)
        gl.store(final_states_ptrs_29, states_49, mask=in_dim_26)  # store0: stage 1, partition 0 (group 0)
    out_ptrs_52 = out_ptrs_52_p1 + stride_out_chunk  # store0: stage 1, partition 0 (group 0)
    chunk_states_p1 = chunk_states
    dA_cs_ptr_51_p2 = dA_cs_ptr_51_p1
    dA_cs_ptr_51_p1 = dA_cs_ptr_51
    decay_p1 = decay
    out_ptrs_52_p1 = out_ptrs_52
    seq_idx_new_44_p2 = seq_idx_new_44_p1
    seq_idx_new_44_p1 = seq_idx_new_44
    states_49_p1 = states_49
    states_ptrs_50_p2 = states_ptrs_50_p1
    states_ptrs_50_p1 = states_ptrs_50

@gluon.jit
def twill_kernel(states_ptr, out_ptr, final_states_ptr, dA_cs_ptr, initstates_ptr, seq_idx_ptr, dim, nchunks, seqlen, chunk_size, stride_states_batch, stride_states_chunk, stride_states_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_final_states_batch, stride_final_states_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_initstates_batch, stride_initstates_head, stride_seq_idx_batch):
    consumer_0(states_ptr, out_ptr, final_states_ptr, dA_cs_ptr, initstates_ptr, seq_idx_ptr, dim, nchunks, seqlen, chunk_size, stride_states_batch, stride_states_chunk, stride_states_head, stride_out_batch, stride_out_chunk, stride_out_head, stride_final_states_batch, stride_final_states_head, stride_dA_cs_batch, stride_dA_cs_chunk, stride_dA_cs_head, stride_initstates_batch, stride_initstates_head, stride_seq_idx_batch, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['states_ptr', 'out_ptr', 'final_states_ptr', 'dA_cs_ptr', 'initstates_ptr', 'seq_idx_ptr', 'dim', 'nchunks', 'seqlen', 'chunk_size', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_states_dim', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_out_dim', 'stride_final_states_batch', 'stride_final_states_head', 'stride_final_states_dim', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_initstates_batch', 'stride_initstates_head', 'stride_initstates_dim', 'stride_seq_idx_batch', 'stride_seq_idx_seqlen', 'HAS_INITSTATES', 'HAS_SEQ_IDX', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['states_ptr', 'out_ptr', 'final_states_ptr', 'dA_cs_ptr', 'initstates_ptr', 'seq_idx_ptr', 'dim', 'nchunks', 'seqlen', 'chunk_size', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_final_states_batch', 'stride_final_states_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_initstates_batch', 'stride_initstates_head', 'stride_seq_idx_batch']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['states_ptr', 'out_ptr', 'final_states_ptr', 'dA_cs_ptr', 'initstates_ptr', 'seq_idx_ptr', 'dim', 'nchunks', 'seqlen', 'chunk_size', 'stride_states_batch', 'stride_states_chunk', 'stride_states_head', 'stride_out_batch', 'stride_out_chunk', 'stride_out_head', 'stride_final_states_batch', 'stride_final_states_head', 'stride_dA_cs_batch', 'stride_dA_cs_chunk', 'stride_dA_cs_head', 'stride_initstates_batch', 'stride_initstates_head', 'stride_seq_idx_batch']   # the arguments a launch key reads
CONSTEXPRS = {'stride_states_dim': 1, 'stride_out_dim': 1, 'stride_final_states_dim': 1, 'stride_initstates_dim': 1, 'stride_seq_idx_seqlen': 1, 'HAS_INITSTATES': True, 'HAS_SEQ_IDX': True, 'BLOCK_SIZE': 512}         # the specialisation this kernel was generated for
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
    trips = _ev('nchunks', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (nchunks): run the Triton kernel for it")
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
