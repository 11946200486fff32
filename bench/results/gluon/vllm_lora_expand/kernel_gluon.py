"""_lora_expand_kernel, written by twill from its joint schedule: I=240 L=184 (optimal), 760 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 240).

Decisions (each from the schedule):
- one partition, no producer (the dots' tiles loaded by its own warps and stored to shared memory for the wgmma, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, in their readers' stage; 1 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 76 per thread)
- shared operand tiled_b_76_st: partition 0 stores the loop's [16, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 4112 bytes planned of 232448; maxnreg unset (ptxas allocates)
- early return at vllm_lora_expand.py:160 (TTGIR line 50): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at vllm_lora_expand.py:167 (TTGIR line 58): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)
- early return at vllm_lora_expand.py:174 (TTGIR line 62): taken in the kernel itself, before the loop; not persistent, as a program id decides it (--persistent on takes it per tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[16, 2], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[2, 2], order=[1, 0]))

@gluon.jit
def consumer_0(input_ptr, lora_ptr, out_ptr, M, N, K, token_indices_sorted_by_lora_ids, num_tokens_per_lora, lora_token_start_loc, lora_ids, slice_start_loc, input_d0_stride, input_d1_stride, ls_d0_ptr, ls_d1_ptr, output_d0_stride, output_hs_ptr):
    cta_n_num = N + 63
    cta_n_num_2 = cta_n_num // 64
    cta_m_num = M + 63
    cta_m_num_3 = cta_m_num // 64
    pid_mn = gl.program_id(0)
    pid_m = pid_mn % cta_m_num_3
    pid_n = pid_mn // cta_m_num_3
    pid_n_4 = pid_n % cta_n_num_2
    slice_id = gl.program_id(1)
    lora_idx = gl.program_id(2)
    lora_id = lora_ids + lora_idx
    lora_id_5 = gl.load(lora_id)
    lora_m_size = num_tokens_per_lora + lora_idx
    lora_m_size_6 = gl.load(lora_m_size)
    cta_m_offset = pid_m * 64
    v2 = pid_n_4 * 64
    cta_m_len = lora_m_size_6 - cta_m_offset
    cta_m_len_7 = gl.minimum(cta_m_len, 64)
    lora_m_indices_start = lora_token_start_loc + lora_idx
    lora_m_indices_start_8 = gl.load(lora_m_indices_start)
    cta_lora_seq_indices = token_indices_sorted_by_lora_ids + lora_m_indices_start_8
    cta_lora_seq_indices_9 = cta_lora_seq_indices + cta_m_offset
    offset_m = gl.arange(0, 64, layout=L0)
    offset_m_10 = gl.arange(0, 64, layout=L1)
    offset_m_11 = gl.arange(0, 64, layout=L2)
    offset_m_12 = gl.arange(0, 64, layout=L3)
    offset_m_15 = offset_m % cta_m_len_7
    offset_m_16 = offset_m_10 % cta_m_len_7
    ram_18 = cta_lora_seq_indices_9 + offset_m_15
    ram_19 = cta_lora_seq_indices_9 + offset_m_16
    ram_20 = gl.load(ram_18)
    ram_21 = gl.load(ram_19)
    cur_input_ptr = slice_id * input_d0_stride
    cur_input_ptr_22 = input_ptr + cur_input_ptr
    cur_lora_ptr = lora_ptr + slice_id
    cur_lora_ptr_23 = gl.load(cur_lora_ptr)
    cur_lora_ptr_24 = cur_lora_ptr_23.to(gl.pointer_type(gl.float16))
    offset_n_26 = offset_m_11 + v2
    offset_n_27 = offset_m_12 + v2
    rbn_28 = offset_n_26 % N
    rbn_28 = gl.max_contiguous(gl.multiple_of(rbn_28, [64]), [64])
    a_ptr = gl.expand_dims(ram_20, 1)
    a_ptr_29 = gl.expand_dims(ram_21, 1)
    a_ptr_31 = a_ptr * input_d1_stride
    a_ptr_33 = cur_input_ptr_22 + a_ptr_31
    a_ptr_34 = gl.arange(0, 16, layout=L4)
    a_ptr_35 = gl.expand_dims(a_ptr_34, 0)
    a_ptr_36 = a_ptr_33.broadcast_to([64, 16])
    a_ptr_37 = a_ptr_35.broadcast_to([64, 16])
    a_ptr_38 = a_ptr_36 + a_ptr_37
    b_ptr = ls_d0_ptr * lora_id_5
    b_ptr_39 = cur_lora_ptr_24 + b_ptr
    b_ptr_40 = gl.arange(0, 16, layout=L5)
    b_ptr_41 = gl.expand_dims(b_ptr_40, 1)
    b_ptr_43 = b_ptr_39 + b_ptr_41
    b_ptr_44 = gl.expand_dims(rbn_28, 0)
    b_ptr_46 = b_ptr_44 * ls_d1_ptr
    b_ptr_47 = b_ptr_43.broadcast_to([16, 64])
    b_ptr_48 = b_ptr_46.broadcast_to([16, 64])
    b_ptr_49 = b_ptr_47 + b_ptr_48
    num_iters = K + 15
    num_iters_50 = num_iters // 16
    twill_n = (num_iters_50 - 0 + 1 - 1) // 1
    tiled_b_76_st = gl.allocate_shared_memory(gl.float16, [2, 16, 64], gl.NVMMASharedLayout(swizzle_byte_width=32, element_bitwidth=16, rank=2, transposed=True))
    accumulator_79 = gl.full([64, 64], 0.0, gl.float32, layout=L6)
    b_ptr_81 = b_ptr_49
    a_ptr_80 = a_ptr_38
    a_ptr_80_p1 = a_ptr_80
    accumulator_79_p1 = accumulator_79
    b_ptr_81_p1 = b_ptr_81
    for twill_b in range(0, twill_n):
        a_ptr_80 = a_ptr_80_p1 + 16  # load1_tiled_a: stage 0, partition 0 (group 0)
        tiled_a = gl.load(a_ptr_80_p1)  # load1_tiled_a: stage 0, partition 0 (group 0)
        tiled_a_77 = gl.convert_layout(tiled_a, L7)  # convert0_tiled_a: stage 0, partition 0 (group 0)
        tiled_a_78 = tiled_a_77.to(gl.float16)  # convert0_tiled_a: stage 0, partition 0 (group 0)
        b_ptr_81 = b_ptr_81_p1 + 16  # load0_tiled_b: stage 0, partition 0 (group 0)
        tiled_b = gl.load(b_ptr_81_p1)  # load0_tiled_b: stage 0, partition 0 (group 0)
        tiled_b_76 = tiled_b_76_st.index((twill_b - 0) % 2)  # load0_tiled_b: stage 0, partition 0 (group 0)
        tiled_b_76.store(tiled_b)  # load0_tiled_b: stage 0, partition 0 (group 0)
        fence_async_shared()  # load0_tiled_b: stage 0, partition 0 (group 0)
        tok_accumulator_79 = warpgroup_mma(tiled_a_78, tiled_b_76, accumulator_79_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
        accumulator_79 = warpgroup_mma_wait(0, deps=(tok_accumulator_79,))
        a_ptr_80_p1 = a_ptr_80
        accumulator_79_p1 = accumulator_79
        b_ptr_81_p1 = b_ptr_81
    tiled_b_76_st._keep_alive()
    tiled_c = accumulator_79_p1.to(gl.float16)
    cur_slice_start = slice_start_loc + slice_id
    cur_slice_start_51 = gl.load(cur_slice_start)
    offset_cn = offset_n_27.to(gl.int64)
    offset_cn_53 = offset_cn + cur_slice_start_51
    c_ptr_54 = a_ptr_29 * output_d0_stride
    c_ptr_56 = out_ptr + c_ptr_54
    c_ptr_57 = gl.expand_dims(offset_cn_53, 0)
    c_ptr_58 = c_ptr_56.broadcast_to([64, 64])
    c_ptr_59 = c_ptr_57.broadcast_to([64, 64])
    c_ptr_60 = c_ptr_58 + c_ptr_59
    c_mask = gl.expand_dims(offset_m_10, 1)
    c_mask_62 = c_mask < cta_m_len_7
    c_mask_63 = gl.cast(N, gl.int64)
    c_mask_64 = cur_slice_start_51 + c_mask_63
    c_mask_66 = gl.cast(c_ptr_57, gl.uint64, bitcast=True) < gl.cast(c_mask_64, gl.uint64, bitcast=True)
    c_mask_67 = c_mask_62.broadcast_to([64, 64])
    c_mask_68 = c_mask_66.broadcast_to([64, 64])
    c_mask_69 = c_mask_67 & c_mask_68
    tiled_out = gl.load(c_ptr_60, mask=c_mask_69)
    tiled_out_70 = gl.convert_layout(tiled_out, L6)
    tiled_c_71 = tiled_c + tiled_out_70
    tiled_c_72 = gl.convert_layout(tiled_c_71, L8)
    gl.store(c_ptr_60, tiled_c_72, mask=c_mask_69)

@gluon.jit
def twill_kernel(input_ptr, lora_ptr, out_ptr, M, N, K, token_indices_sorted_by_lora_ids, num_tokens_per_lora, lora_token_start_loc, lora_ids, slice_start_loc, input_d0_stride, input_d1_stride, ls_d0_ptr, ls_d1_ptr, output_d0_stride, output_hs_ptr):
    lora_idx = gl.program_id(2)
    lora_id = lora_ids + lora_idx
    lora_id_5 = gl.load(lora_id)
    v0 = lora_id_5 == -1
    if v0:
        return
    cta_m_num = M + 63
    cta_m_num_3 = cta_m_num // 64
    pid_mn = gl.program_id(0)
    pid_m = pid_mn % cta_m_num_3
    lora_idx = gl.program_id(2)
    lora_m_size = num_tokens_per_lora + lora_idx
    lora_m_size_6 = gl.load(lora_m_size)
    cta_m_offset = pid_m * 64
    v1 = cta_m_offset >= lora_m_size_6
    if v1:
        return
    cta_n_num = N + 63
    cta_n_num_2 = cta_n_num // 64
    cta_m_num = M + 63
    cta_m_num_3 = cta_m_num // 64
    pid_mn = gl.program_id(0)
    pid_n = pid_mn // cta_m_num_3
    pid_n_4 = pid_n % cta_n_num_2
    v2 = pid_n_4 * 64
    v3 = v2 >= N
    if v3:
        return
    consumer_0(input_ptr, lora_ptr, out_ptr, M, N, K, token_indices_sorted_by_lora_ids, num_tokens_per_lora, lora_token_start_loc, lora_ids, slice_start_loc, input_d0_stride, input_d1_stride, ls_d0_ptr, ls_d1_ptr, output_d0_stride, output_hs_ptr, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['input_ptr', 'lora_ptr', 'out_ptr', 'M', 'N', 'K', 'token_indices_sorted_by_lora_ids', 'num_tokens_per_lora', 'lora_token_start_loc', 'lora_ids', 'slice_start_loc', 'input_d0_stride', 'input_d1_stride', 'input_d2_stride', 'ls_d0_ptr', 'ls_d1_ptr', 'ls_d2_ptr', 'output_d0_stride', 'output_d1_stride', 'output_hs_ptr', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'EVEN_K', 'ADD_INPUTS', 'CAST_TYPE', 'SLICE_NUM', 'SAME_STRIDE']          # the Triton kernel's parameters, in order
RUNTIME = ['input_ptr', 'lora_ptr', 'out_ptr', 'M', 'N', 'K', 'token_indices_sorted_by_lora_ids', 'num_tokens_per_lora', 'lora_token_start_loc', 'lora_ids', 'slice_start_loc', 'input_d0_stride', 'input_d1_stride', 'ls_d0_ptr', 'ls_d1_ptr', 'output_d0_stride', 'output_hs_ptr']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['input_ptr', 'lora_ptr', 'out_ptr', 'M', 'N', 'K', 'token_indices_sorted_by_lora_ids', 'num_tokens_per_lora', 'lora_token_start_loc', 'lora_ids', 'slice_start_loc', 'input_d0_stride', 'input_d1_stride', 'ls_d0_ptr', 'ls_d1_ptr', 'output_d0_stride', 'output_hs_ptr']   # the arguments a launch key reads
CONSTEXPRS = {'input_d2_stride': 1, 'ls_d2_ptr': 1, 'output_d1_stride': 1, 'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 16, 'EVEN_K': True, 'ADD_INPUTS': True, 'CAST_TYPE': True, 'SLICE_NUM': 3, 'SAME_STRIDE': True}         # the specialisation this kernel was generated for
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
