"""aggregate_gradient_for_embedding_k, written by twill from its joint schedule: I=284 L=284 (optimal), 1254 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 1 warps, registers as ptxas allocates them (the schedule's tiles need about 56 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's MoE weight gradient over its token groups), so the launch's grid is the kernel's

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4], threads_per_warp=[32], warps_per_cta=[1], order=[0]))

@gluon.jit
def consumer_0(weight_grad_ptr, per_sample_weights_grad_ptr, emb_argsorted_ptr, weight_ptr, emb_begin_pos_ptr, reverse_mapping_ptr, per_sample_weights_ptr, gradient_ptr):
    twill_base = 0
    first_embedding_id = gl.program_id(0)
    first_embedding_id_0 = gl.cast(first_embedding_id, gl.int64)
    weight = gl.arange(0, 256, layout=L0)
    twill_tile_lb = 0
    twill_tile_step = 1
    for k in range(twill_tile_lb, 8, twill_tile_step):
        embedding_id = k * 8192
        embedding_id_1 = gl.cast(embedding_id, gl.int64)
        embedding_id_2 = first_embedding_id_0 + embedding_id_1
        embedding_id_3 = emb_argsorted_ptr + embedding_id_2
        embedding_id_4 = gl.load(embedding_id_3)
        begin = emb_begin_pos_ptr + embedding_id_4
        begin_5 = gl.load(begin)
        end = begin + 1
        end_6 = gl.load(end)
        weight_7 = embedding_id_4 * 256
        weight_8 = weight_ptr + weight_7
        weight_10 = weight_8 + weight
        weight_11 = gl.load(weight_10)
        twill_n = gl.cast(gl.maximum((end_6 - begin_5 + 1 - 1) // 1, 0), gl.int32)
        if (twill_n >= 1) | (gl.program_id(0) < 0):
            weight_grad_22 = gl.full([256], 0.0, gl.float32, layout=L0)
            output_indice_id = reverse_mapping_ptr + (begin_5 + (0 - 0) * 1)  # load0_output_indice_id: stage 0, partition 0 (group 0)
            output_indice_id_13 = gl.load(output_indice_id)  # load0_output_indice_id: stage 0, partition 0 (group 0)
            output_indice_id_14 = gl.cast(gl.cast(gl.cast(output_indice_id_13, gl.uint32, bitcast=True), gl.uint64), gl.int64, bitcast=True)  # elementwise0_output_indice_id: stage 0, partition 0 (group 0)
            batch_id = output_indice_id_14 // 32  # elementwise1_batch_id: stage 0, partition 0 (group 0)
            gradient = batch_id * 256  # elementwise1_batch_id: stage 0, partition 0 (group 0)
            gradient_16 = gradient_ptr + gradient  # load2_gradient: stage 0, partition 0 (group 0)
            gradient_17 = gradient_16  # load2_gradient: stage 0, partition 0 (group 0)
            gradient_18 = gradient_17 + weight  # load2_gradient: stage 0, partition 0 (group 0)
            gradient_19 = gl.load(gradient_18)  # load2_gradient: stage 0, partition 0 (group 0)
            per_sample_w = per_sample_weights_ptr + output_indice_id_14  # load1_per_sample_w: stage 0, partition 0 (group 0)
            per_sample_w_15 = gl.load(per_sample_w)  # load1_per_sample_w: stage 0, partition 0 (group 0)
            gradient_19_p1 = gradient_19
            output_indice_id_14_p1 = output_indice_id_14
            per_sample_w_15_p1 = per_sample_w_15
            weight_grad_22_p1 = weight_grad_22
            for twill_b in range(1, twill_n):
                output_indice_id = reverse_mapping_ptr + (begin_5 + (twill_b - 0) * 1)  # load0_output_indice_id: stage 0, partition 0 (group 0)
                output_indice_id_13 = gl.load(output_indice_id)  # load0_output_indice_id: stage 0, partition 0 (group 0)
                output_indice_id_14 = gl.cast(gl.cast(gl.cast(output_indice_id_13, gl.uint32, bitcast=True), gl.uint64), gl.int64, bitcast=True)  # elementwise0_output_indice_id: stage 0, partition 0 (group 0)
                batch_id = output_indice_id_14 // 32  # elementwise1_batch_id: stage 0, partition 0 (group 0)
                gradient = batch_id * 256  # elementwise1_batch_id: stage 0, partition 0 (group 0)
                gradient_16 = gradient_ptr + gradient  # load2_gradient: stage 0, partition 0 (group 0)
                gradient_17 = gradient_16  # load2_gradient: stage 0, partition 0 (group 0)
                gradient_18 = gradient_17 + weight  # load2_gradient: stage 0, partition 0 (group 0)
                gradient_19 = gl.load(gradient_18)  # load2_gradient: stage 0, partition 0 (group 0)
                per_sample_weights_grad = gradient_19_p1 * weight_11  # elementwise3_per_sample_weights_grad: stage 1, partition 0 (group 0)
                per_sample_weights_grad_23 = per_sample_weights_grad  # reduce0_per_sample_weights_grad: stage 1, partition 0 (group 0)
                per_sample_weights_grad_24 = gl.sum(per_sample_weights_grad_23, axis=0)  # reduce0_per_sample_weights_grad: stage 1, partition 0 (group 0)
                v3 = per_sample_weights_grad_ptr + output_indice_id_14_p1  # store0: stage 1, partition 0 (group 0)
                gl.store(v3, per_sample_weights_grad_24)  # store0: stage 1, partition 0 (group 0)
                per_sample_w = per_sample_weights_ptr + output_indice_id_14  # load1_per_sample_w: stage 0, partition 0 (group 0)
                per_sample_w_15 = gl.load(per_sample_w)  # load1_per_sample_w: stage 0, partition 0 (group 0)
                weight_grad_20 = per_sample_w_15_p1  # elementwise2_weight_grad: stage 1, partition 0 (group 0)
                weight_grad_21 = weight_grad_20 * gradient_19_p1  # elementwise2_weight_grad: stage 1, partition 0 (group 0)
                weight_grad_22 = weight_grad_22_p1 + weight_grad_21  # elementwise2_weight_grad: stage 1, partition 0 (group 0)
                gradient_19_p1 = gradient_19
                output_indice_id_14_p1 = output_indice_id_14
                per_sample_w_15_p1 = per_sample_w_15
                weight_grad_22_p1 = weight_grad_22
            per_sample_weights_grad = gradient_19_p1 * weight_11  # elementwise3_per_sample_weights_grad: stage 1, partition 0 (group 0)
            per_sample_weights_grad_23 = per_sample_weights_grad  # reduce0_per_sample_weights_grad: stage 1, partition 0 (group 0)
            per_sample_weights_grad_24 = gl.sum(per_sample_weights_grad_23, axis=0)  # reduce0_per_sample_weights_grad: stage 1, partition 0 (group 0)
            v3 = per_sample_weights_grad_ptr + output_indice_id_14_p1  # store0: stage 1, partition 0 (group 0)
            gl.store(v3, per_sample_weights_grad_24)  # store0: stage 1, partition 0 (group 0)
            weight_grad_20 = per_sample_w_15_p1  # elementwise2_weight_grad: stage 1, partition 0 (group 0)
            weight_grad_21 = weight_grad_20 * gradient_19_p1  # elementwise2_weight_grad: stage 1, partition 0 (group 0)
            weight_grad_22 = weight_grad_22_p1 + weight_grad_21  # elementwise2_weight_grad: stage 1, partition 0 (group 0)
            gradient_19_p1 = gradient_19
            output_indice_id_14_p1 = output_indice_id_14
            per_sample_w_15_p1 = per_sample_w_15
            weight_grad_22_p1 = weight_grad_22
        else:
            weight_grad_22_p1 = gl.full([256], 0.0, gl.float32, layout=L0)
        v0 = weight_grad_ptr + weight_7
        v2 = v0 + weight
        gl.store(v2, weight_grad_22_p1)
        twill_base += twill_n

@gluon.jit
def twill_kernel(weight_grad_ptr, per_sample_weights_grad_ptr, emb_argsorted_ptr, weight_ptr, emb_begin_pos_ptr, reverse_mapping_ptr, per_sample_weights_ptr, gradient_ptr):
    consumer_0(weight_grad_ptr, per_sample_weights_grad_ptr, emb_argsorted_ptr, weight_ptr, emb_begin_pos_ptr, reverse_mapping_ptr, per_sample_weights_ptr, gradient_ptr, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['weight_grad_ptr', 'per_sample_weights_grad_ptr', 'emb_argsorted_ptr', 'weight_ptr', 'emb_begin_pos_ptr', 'reverse_mapping_ptr', 'per_sample_weights_ptr', 'gradient_ptr', 'dim', 'bag_size', 'B', 'K', 'BLOCK_SIZE']          # the Triton kernel's parameters, in order
RUNTIME = ['weight_grad_ptr', 'per_sample_weights_grad_ptr', 'emb_argsorted_ptr', 'weight_ptr', 'emb_begin_pos_ptr', 'reverse_mapping_ptr', 'per_sample_weights_ptr', 'gradient_ptr']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['weight_grad_ptr', 'per_sample_weights_grad_ptr', 'emb_argsorted_ptr', 'weight_ptr', 'emb_begin_pos_ptr', 'reverse_mapping_ptr', 'per_sample_weights_ptr', 'gradient_ptr']   # the arguments a launch key reads
CONSTEXPRS = {'dim': 256, 'bag_size': 32, 'B': 4096, 'K': 65536, 'BLOCK_SIZE': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 1
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
