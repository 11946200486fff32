"""sample_recovered_tokens_kernel, written by twill from its joint schedule: I=708 L=527 (optimal), 3842 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, in their readers' stage; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 248 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at vllm_sample_recovered_tokens.py:55 (TTGIR line 36): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- if at vllm_sample_recovered_tokens.py:49 (TTGIR line 23): written as it runs (not scheduled), by the partition that needs its results or, for its stores, the first consumer

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def twill_combine_c2c773cd(a0, a1, a2, a3):
    t0 = a0 == a2
    t1 = a1 < a3
    t2 = t0 & t1
    t3 = a0 > a2
    t4 = t3 | t2
    t5 = gl.where(t4, a0, a2)
    t6 = gl.where(t4, a1, a3)
    return t5, t6

@gluon.jit
def consumer_0(output_token_ids_ptr, cu_num_draft_tokens_ptr, draft_token_ids_ptr, draft_probs_ptr, target_probs_ptr, inv_q_ptr, vocab_size):
    req_idx = gl.program_id(0)
    start_idx = req_idx == 0
    if start_idx:
        start_idx_1 = gl.to_tensor(0)
    else:
        start_idx_8 = cu_num_draft_tokens_ptr + req_idx
        start_idx_9 = start_idx_8 + -1
        start_idx_10 = gl.load(start_idx_9)
        start_idx_1 = start_idx_10
    pos = gl.program_id(1)
    token_idx = start_idx_1 + pos
    vocab_offset = gl.arange(0, 8192, layout=L0)
    draft_prob = token_idx * vocab_size
    draft_prob_3 = draft_probs_ptr + draft_prob
    target_prob = target_probs_ptr + draft_prob
    inv_q = req_idx * vocab_size
    inv_q_6 = inv_q_ptr + inv_q
    twill_n = (vocab_size - 0 + 8192 - 1) // 8192
    v3 = float("-inf")
    v4 = 0
    v3_p1 = v3
    v4_p1 = v4
    for twill_b in range(0, twill_n):
        vocab_offset_9 = (0 + (twill_b - 0) * 8192)  # load0_draft_prob: stage 0, partition 0 (group 0)
        vocab_offset_10 = vocab_offset_9 + vocab_offset  # load0_draft_prob: stage 0, partition 0 (group 0)
        vocab_mask_11 = vocab_offset_10 < vocab_size  # load0_draft_prob: stage 0, partition 0 (group 0)
        draft_prob_12 = draft_prob_3 + vocab_offset_10  # load0_draft_prob: stage 0, partition 0 (group 0)
        target_prob_14 = target_prob + vocab_offset_10  # load1_target_prob: stage 0, partition 0 (group 0)
        inv_q_17 = inv_q_6 + vocab_offset_10  # load2_inv_q: stage 0, partition 0 (group 0)
        draft_prob_13 = gl.load(draft_prob_12, mask=vocab_mask_11, other=0.0)  # load0_draft_prob: stage 0, partition 0 (group 0)
        target_prob_15 = gl.load(target_prob_14, mask=vocab_mask_11, other=0.0)  # load1_target_prob: stage 0, partition 0 (group 0)
        inv_q_18 = gl.load(inv_q_17, mask=vocab_mask_11, other=0.0)  # load2_inv_q: stage 0, partition 0 (group 0)
        prob = target_prob_15 - draft_prob_13  # elementwise0_prob: stage 0, partition 0 (group 0)
        prob_16 = gl.maximum(prob, gl.full([8192], 0.0, gl.float32, layout=L0))  # elementwise0_prob: stage 0, partition 0 (group 0)
        score = prob_16 * inv_q_18  # elementwise0_prob: stage 0, partition 0 (group 0)
        max_val_19_r0, max_val_19_r1 = gl.reduce((score, vocab_offset), 0, twill_combine_c2c773cd)  # reduce0_max_val: stage 0, partition 0 (group 0)
        v2 = max_val_19_r0 > v3_p1  # elementwise1: stage 0, partition 0 (group 0)
        v3 = gl.where(v2, max_val_19_r0, v3_p1)  # elementwise2: stage 0, partition 0 (group 0)
        if v2:  # elementwise3: stage 0, partition 0 (group 0)
            recovered_id_20 = (0 + (twill_b - 0) * 8192) + max_val_19_r1  # elementwise3: stage 0, partition 0 (group 0)
            v4 = recovered_id_20  # elementwise3: stage 0, partition 0 (group 0)
        else:  # elementwise3: stage 0, partition 0 (group 0)
            v4 = v4_p1  # elementwise3: stage 0, partition 0 (group 0)
        v3_p1 = v3
        v4_p1 = v4
    v1 = output_token_ids_ptr + token_idx
    gl.store(v1, v4_p1)

@gluon.jit
def twill_kernel(output_token_ids_ptr, cu_num_draft_tokens_ptr, draft_token_ids_ptr, draft_probs_ptr, target_probs_ptr, inv_q_ptr, vocab_size):
    req_idx = gl.program_id(0)
    start_idx = req_idx == 0
    if start_idx:
        start_idx_1 = gl.to_tensor(0)
    else:
        start_idx_8 = cu_num_draft_tokens_ptr + req_idx
        start_idx_9 = start_idx_8 + -1
        start_idx_10 = gl.load(start_idx_9)
        start_idx_1 = start_idx_10
    end_idx = cu_num_draft_tokens_ptr + req_idx
    end_idx_2 = gl.load(end_idx)
    num_draft_tokens = end_idx_2 - start_idx_1
    pos = gl.program_id(1)
    v0 = pos >= num_draft_tokens
    if v0:
        return
    consumer_0(output_token_ids_ptr, cu_num_draft_tokens_ptr, draft_token_ids_ptr, draft_probs_ptr, target_probs_ptr, inv_q_ptr, vocab_size, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['output_token_ids_ptr', 'cu_num_draft_tokens_ptr', 'draft_token_ids_ptr', 'draft_probs_ptr', 'target_probs_ptr', 'inv_q_ptr', 'vocab_size', 'BLOCK_SIZE', 'NO_DRAFT_PROBS']          # the Triton kernel's parameters, in order
RUNTIME = ['output_token_ids_ptr', 'cu_num_draft_tokens_ptr', 'draft_token_ids_ptr', 'draft_probs_ptr', 'target_probs_ptr', 'inv_q_ptr', 'vocab_size']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['output_token_ids_ptr', 'cu_num_draft_tokens_ptr', 'draft_token_ids_ptr', 'draft_probs_ptr', 'target_probs_ptr', 'inv_q_ptr', 'vocab_size']   # the arguments a launch key reads
CONSTEXPRS = {'BLOCK_SIZE': 8192, 'NO_DRAFT_PROBS': False}         # the specialisation this kernel was generated for
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
