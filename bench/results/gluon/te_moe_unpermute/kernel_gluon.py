"""_unpermute_kernel, written by twill from its joint schedule: I=143 L=143 (optimal), 695 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 48 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[4], order=[0]))

@gluon.jit
def consumer_0(input_ptr, output_ptr, row_id_map_ptr, merging_probs_ptr, num_tokens, num_experts, hidden_size, stride_input_token, stride_output_token, stride_merging_probs_token):
    twill_base = 0
    pid = gl.program_id(0)
    current_offset = gl.arange(0, 1024, layout=L0)
    output_off = pid * stride_output_token
    current_start_1 = gl.to_tensor(0)
    v1_b28 = current_start_1 < hidden_size
    twill_go0 = v1_b28
    while twill_go0:
        current_offset_3 = current_start_1 + current_offset
        mask_4 = current_offset_3 < hidden_size
        twill_n = (num_experts - 0 + 1 - 1) // 1
        v3 = gl.full([1024], 0.0, gl.float32, layout=L0)
        src_row = (0 + (0 - 0) * 1) * num_tokens  # load0_src_row: stage 0, partition 0 (group 0)
        src_row_9 = row_id_map_ptr + src_row  # load0_src_row: stage 0, partition 0 (group 0)
        src_row_10 = src_row_9 + pid  # load0_src_row: stage 0, partition 0 (group 0)
        src_row_11 = gl.load(src_row_10)  # load0_src_row: stage 0, partition 0 (group 0)
        src_row_11_p1 = src_row_11
        v3_p1 = v3
        for twill_b in range(1, twill_n):
            src_row = (0 + (twill_b - 0) * 1) * num_tokens  # load0_src_row: stage 0, partition 0 (group 0)
            src_row_9 = row_id_map_ptr + src_row  # load0_src_row: stage 0, partition 0 (group 0)
            src_row_10 = src_row_9 + pid  # load0_src_row: stage 0, partition 0 (group 0)
            src_row_11 = gl.load(src_row_10)  # load0_src_row: stage 0, partition 0 (group 0)
            v2 = src_row_11_p1 != -1  # elementwise0: stage 1, partition 0 (group 0)
            if v2:  # elementwise1: stage 1, partition 0 (group 0)
                input_off = src_row_11_p1 * stride_input_token  # elementwise1: stage 1, partition 0 (group 0)
                input_off_13 = input_off + current_offset_3  # elementwise1: stage 1, partition 0 (group 0)
                inp_14 = input_ptr + input_off_13  # elementwise1: stage 1, partition 0 (group 0)
                inp_15 = gl.load(inp_14, mask=mask_4)  # elementwise1: stage 1, partition 0 (group 0)
                inp_16 = inp_15.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
                merging_prob = pid * stride_merging_probs_token  # elementwise1: stage 1, partition 0 (group 0)
                merging_prob_17 = merging_probs_ptr + merging_prob  # elementwise1: stage 1, partition 0 (group 0)
                merging_prob_18 = merging_prob_17 + (0 + (twill_b - 1) * 1)  # elementwise1: stage 1, partition 0 (group 0)
                merging_prob_19 = gl.load(merging_prob_18)  # elementwise1: stage 1, partition 0 (group 0)
                inp_21 = inp_16 * merging_prob_19  # elementwise1: stage 1, partition 0 (group 0)
                accumulator_22 = v3_p1 + inp_21  # elementwise1: stage 1, partition 0 (group 0)
                v3 = accumulator_22  # elementwise1: stage 1, partition 0 (group 0)
            else:  # elementwise1: stage 1, partition 0 (group 0)
                v3 = v3_p1  # elementwise1: stage 1, partition 0 (group 0)
            src_row_11_p1 = src_row_11
            v3_p1 = v3
        v2 = src_row_11_p1 != -1  # elementwise0: stage 1, partition 0 (group 0)
        if v2:  # elementwise1: stage 1, partition 0 (group 0)
            input_off = src_row_11_p1 * stride_input_token  # elementwise1: stage 1, partition 0 (group 0)
            input_off_13 = input_off + current_offset_3  # elementwise1: stage 1, partition 0 (group 0)
            inp_14 = input_ptr + input_off_13  # elementwise1: stage 1, partition 0 (group 0)
            inp_15 = gl.load(inp_14, mask=mask_4)  # elementwise1: stage 1, partition 0 (group 0)
            inp_16 = inp_15.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
            merging_prob = pid * stride_merging_probs_token  # elementwise1: stage 1, partition 0 (group 0)
            merging_prob_17 = merging_probs_ptr + merging_prob  # elementwise1: stage 1, partition 0 (group 0)
            merging_prob_18 = merging_prob_17 + (0 + ((twill_n - 1 + 1) - 1) * 1)  # elementwise1: stage 1, partition 0 (group 0)
            merging_prob_19 = gl.load(merging_prob_18)  # elementwise1: stage 1, partition 0 (group 0)
            inp_21 = inp_16 * merging_prob_19  # elementwise1: stage 1, partition 0 (group 0)
            accumulator_22 = v3_p1 + inp_21  # elementwise1: stage 1, partition 0 (group 0)
            v3 = accumulator_22  # elementwise1: stage 1, partition 0 (group 0)
        else:  # elementwise1: stage 1, partition 0 (group 0)
            v3 = v3_p1  # elementwise1: stage 1, partition 0 (group 0)
        src_row_11_p1 = src_row_11
        v3_p1 = v3
        accumulator_5 = v3_p1.to(gl.bfloat16)
        output_off_6 = output_off + current_offset_3
        v1 = output_ptr + output_off_6
        gl.store(v1, accumulator_5, mask=mask_4)
        current_start_7 = current_start_1 + 1024
        current_start_1 = current_start_7
        twill_base += twill_n
        v1_b28 = current_start_1 < hidden_size
        twill_go0 = v1_b28

@gluon.jit
def twill_kernel(input_ptr, output_ptr, row_id_map_ptr, merging_probs_ptr, num_tokens, num_experts, hidden_size, stride_input_token, stride_output_token, stride_merging_probs_token):
    consumer_0(input_ptr, output_ptr, row_id_map_ptr, merging_probs_ptr, num_tokens, num_experts, hidden_size, stride_input_token, stride_output_token, stride_merging_probs_token, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['input_ptr', 'output_ptr', 'row_id_map_ptr', 'merging_probs_ptr', 'permuted_probs_ptr', 'unpermuted_probs_ptr', 'num_tokens', 'num_experts', 'hidden_size', 'stride_input_token', 'stride_input_hidden', 'stride_output_token', 'stride_output_hidden', 'stride_merging_probs_token', 'stride_merging_probs_expert', 'WITH_MERGING_PROBS', 'PERMUTE_PROBS', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['input_ptr', 'output_ptr', 'row_id_map_ptr', 'merging_probs_ptr', 'num_tokens', 'num_experts', 'hidden_size', 'stride_input_token', 'stride_output_token', 'stride_merging_probs_token']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['input_ptr', 'output_ptr', 'row_id_map_ptr', 'merging_probs_ptr', 'permuted_probs_ptr', 'unpermuted_probs_ptr', 'num_tokens', 'num_experts', 'hidden_size', 'stride_input_token', 'stride_output_token', 'stride_merging_probs_token']   # the arguments a launch key reads
CONSTEXPRS = {'stride_input_hidden': 1, 'stride_output_hidden': 1, 'stride_merging_probs_expert': 1, 'WITH_MERGING_PROBS': True, 'PERMUTE_PROBS': False, 'BLOCK_SIZE': 1024}         # the specialisation this kernel was generated for
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
    trips = _ev('num_experts', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} (num_experts): run the Triton kernel for it")
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
