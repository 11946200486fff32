"""_fwd_kernel_ep_gather, written by twill from its joint schedule: I=143 L=143 (optimal), 695 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 2 warps, registers as ptxas allocates them (the schedule's tiles need about 56 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[2], order=[0]))

@gluon.jit
def consumer_0(total_token_num, input_tensor, input_tensor_stride0, recv_topk_ids, recv_topk_ids_stride0, recv_topk_weight, recv_topk_weight_stride0, input_index, input_index_stride0, output_tensor, output_tensor_stride0):
    twill_base = 0
    cur_block = gl.program_id(0)
    off_d = gl.arange(0, 1024, layout=L0)
    v0 = cur_block * 1024
    start_cur_token = gl.program_id(1)
    grid_num = gl.num_programs(1)
    twill_tile_lb = start_cur_token
    twill_tile_step = grid_num
    for cur_token in range(twill_tile_lb, total_token_num, twill_tile_step):
        expert_id = cur_token * recv_topk_ids_stride0
        expert_id_0 = recv_topk_ids + expert_id
        twill_n = (8 - 0 + 1 - 1) // 1
        v8 = gl.full([1024], 0.0, gl.float32, layout=L0)
        expert_id_2 = expert_id_0 + (0 + (0 - 0) * 1)  # load0_expert_id: stage 0, partition 0 (group 0)
        expert_id_3 = gl.load(expert_id_2)  # load0_expert_id: stage 0, partition 0 (group 0)
        expert_id_3_p1 = expert_id_3
        v8_p1 = v8
        for twill_b in range(1, twill_n):
            expert_id_2 = expert_id_0 + (0 + (twill_b - 0) * 1)  # load0_expert_id: stage 0, partition 0 (group 0)
            expert_id_3 = gl.load(expert_id_2)  # load0_expert_id: stage 0, partition 0 (group 0)
            v7 = expert_id_3_p1 >= 0  # elementwise0: stage 1, partition 0 (group 0)
            if v7:  # elementwise1: stage 1, partition 0 (group 0)
                source_token_index = cur_token * input_index_stride0  # elementwise1: stage 1, partition 0 (group 0)
                source_token_index_4 = input_index + source_token_index  # elementwise1: stage 1, partition 0 (group 0)
                source_token_index_5 = source_token_index_4 + (0 + (twill_b - 1) * 1)  # elementwise1: stage 1, partition 0 (group 0)
                source_token_index_6 = gl.load(source_token_index_5)  # elementwise1: stage 1, partition 0 (group 0)
                acc_weight = cur_token * recv_topk_weight_stride0  # elementwise1: stage 1, partition 0 (group 0)
                acc_weight_7 = recv_topk_weight + acc_weight  # elementwise1: stage 1, partition 0 (group 0)
                acc_weight_8 = acc_weight_7 + (0 + (twill_b - 1) * 1)  # elementwise1: stage 1, partition 0 (group 0)
                acc_weight_9 = gl.load(acc_weight_8)  # elementwise1: stage 1, partition 0 (group 0)
                tmp = source_token_index_6 * input_tensor_stride0  # elementwise1: stage 1, partition 0 (group 0)
                tmp_10 = input_tensor + tmp  # elementwise1: stage 1, partition 0 (group 0)
                tmp_11 = cur_block * 1024  # elementwise1: stage 1, partition 0 (group 0)
                tmp_12 = tmp_10 + tmp_11  # elementwise1: stage 1, partition 0 (group 0)
                tmp_14 = tmp_12 + off_d  # elementwise1: stage 1, partition 0 (group 0)
                tmp_15 = gl.load(tmp_14)  # elementwise1: stage 1, partition 0 (group 0)
                accumulator_16 = tmp_15.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
                accumulator_18 = accumulator_16 * acc_weight_9  # elementwise1: stage 1, partition 0 (group 0)
                accumulator_19 = v8_p1 + accumulator_18  # elementwise1: stage 1, partition 0 (group 0)
                v8 = accumulator_19  # elementwise1: stage 1, partition 0 (group 0)
            else:  # elementwise1: stage 1, partition 0 (group 0)
                v8 = v8_p1  # elementwise1: stage 1, partition 0 (group 0)
            expert_id_3_p1 = expert_id_3
            v8_p1 = v8
        v7 = expert_id_3_p1 >= 0  # elementwise0: stage 1, partition 0 (group 0)
        if v7:  # elementwise1: stage 1, partition 0 (group 0)
            source_token_index = cur_token * input_index_stride0  # elementwise1: stage 1, partition 0 (group 0)
            source_token_index_4 = input_index + source_token_index  # elementwise1: stage 1, partition 0 (group 0)
            source_token_index_5 = source_token_index_4 + (0 + ((twill_n - 1 + 1) - 1) * 1)  # elementwise1: stage 1, partition 0 (group 0)
            source_token_index_6 = gl.load(source_token_index_5)  # elementwise1: stage 1, partition 0 (group 0)
            acc_weight = cur_token * recv_topk_weight_stride0  # elementwise1: stage 1, partition 0 (group 0)
            acc_weight_7 = recv_topk_weight + acc_weight  # elementwise1: stage 1, partition 0 (group 0)
            acc_weight_8 = acc_weight_7 + (0 + ((twill_n - 1 + 1) - 1) * 1)  # elementwise1: stage 1, partition 0 (group 0)
            acc_weight_9 = gl.load(acc_weight_8)  # elementwise1: stage 1, partition 0 (group 0)
            tmp = source_token_index_6 * input_tensor_stride0  # elementwise1: stage 1, partition 0 (group 0)
            tmp_10 = input_tensor + tmp  # elementwise1: stage 1, partition 0 (group 0)
            tmp_11 = cur_block * 1024  # elementwise1: stage 1, partition 0 (group 0)
            tmp_12 = tmp_10 + tmp_11  # elementwise1: stage 1, partition 0 (group 0)
            tmp_14 = tmp_12 + off_d  # elementwise1: stage 1, partition 0 (group 0)
            tmp_15 = gl.load(tmp_14)  # elementwise1: stage 1, partition 0 (group 0)
            accumulator_16 = tmp_15.to(gl.float32)  # elementwise1: stage 1, partition 0 (group 0)
            accumulator_18 = accumulator_16 * acc_weight_9  # elementwise1: stage 1, partition 0 (group 0)
            accumulator_19 = v8_p1 + accumulator_18  # elementwise1: stage 1, partition 0 (group 0)
            v8 = accumulator_19  # elementwise1: stage 1, partition 0 (group 0)
        else:  # elementwise1: stage 1, partition 0 (group 0)
            v8 = v8_p1  # elementwise1: stage 1, partition 0 (group 0)
        expert_id_3_p1 = expert_id_3
        v8_p1 = v8
        v1 = cur_token * output_tensor_stride0
        v2 = output_tensor + v1
        v3 = v2 + v0
        v5 = v3 + off_d
        v6 = v8_p1.to(gl.bfloat16)
        gl.store(v5, v6)
        twill_base += twill_n

@gluon.jit
def twill_kernel(total_token_num, input_tensor, input_tensor_stride0, recv_topk_ids, recv_topk_ids_stride0, recv_topk_weight, recv_topk_weight_stride0, input_index, input_index_stride0, output_tensor, output_tensor_stride0):
    consumer_0(total_token_num, input_tensor, input_tensor_stride0, recv_topk_ids, recv_topk_ids_stride0, recv_topk_weight, recv_topk_weight_stride0, input_index, input_index_stride0, output_tensor, output_tensor_stride0, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['total_token_num', 'input_tensor', 'input_tensor_stride0', 'input_tensor_stride1', 'recv_topk_ids', 'recv_topk_ids_stride0', 'recv_topk_ids_stride1', 'recv_topk_weight', 'recv_topk_weight_stride0', 'recv_topk_weight_stride1', 'input_index', 'input_index_stride0', 'input_index_stride1', 'output_tensor', 'output_tensor_stride0', 'output_tensor_stride1', 'topk_num', 'BLOCK_D']          # the Triton kernel's parameters, in order
RUNTIME = ['total_token_num', 'input_tensor', 'input_tensor_stride0', 'recv_topk_ids', 'recv_topk_ids_stride0', 'recv_topk_weight', 'recv_topk_weight_stride0', 'input_index', 'input_index_stride0', 'output_tensor', 'output_tensor_stride0']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['total_token_num', 'input_tensor', 'input_tensor_stride0', 'recv_topk_ids', 'recv_topk_ids_stride0', 'recv_topk_weight', 'recv_topk_weight_stride0', 'input_index', 'input_index_stride0', 'output_tensor', 'output_tensor_stride0']   # the arguments a launch key reads
CONSTEXPRS = {'input_tensor_stride1': 1, 'recv_topk_ids_stride1': 1, 'recv_topk_weight_stride1': 1, 'input_index_stride1': 1, 'output_tensor_stride1': 1, 'topk_num': 8, 'BLOCK_D': 1024}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 2
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
