"""fused_moe_router_large_bs_kernel, written by twill from its joint schedule: I=210 L=169 (optimal), 1240 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 960).

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (b_54_as 2 x 8192 B, a_51_as 2 x 16384 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 140 per thread)
- shared memory: 49168 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L3 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]))
L4 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))
L5 = gl.constexpr(gl.DistributedLinearLayout(reg_bases=[[0, 1], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128]], lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[[8, 0], [0, 0]], block_bases=[], shape=[16, 256]))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]), k_width=2))
L7 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8]), k_width=2))
L8 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])))

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
def consumer_0(a_ptr, b_ptr, topk_weights_ptr, topk_ids_ptr, bs, TWILL_COPY: gl.constexpr):
    pid = gl.program_id(0)
    offs_m = pid * 32
    offs_m_7 = gl.arange(0, 32, layout=L0)
    offs_m_8 = gl.arange(0, 32, layout=L1)
    offs_m_9 = gl.expand_dims(offs_m_8, 1)
    offs_m_11 = offs_m + offs_m_9
    bs_mask_12 = offs_m_11 < bs
    offs_k = gl.arange(0, 256, layout=L2)
    offs_k_13 = gl.expand_dims(offs_k, 0)
    a_ptrs_14 = offs_m_11 * 6144
    a_ptrs_15 = a_ptrs_14.broadcast_to([32, 256])
    a_ptrs_16 = offs_k_13.broadcast_to([32, 256])
    a_ptrs_17 = a_ptrs_15 + a_ptrs_16
    a_ptrs_19 = a_ptr + a_ptrs_17
    offs_n = gl.arange(0, 16, layout=L1)
    offs_n_20 = gl.expand_dims(offs_n, 1)
    expert_mask_21 = offs_n_20 < 8
    b_ptrs_22 = offs_n_20 * 6144
    b_ptrs_23 = b_ptrs_22.broadcast_to([16, 256])
    b_ptrs_24 = offs_k_13.broadcast_to([16, 256])
    b_ptrs_25 = b_ptrs_23 + b_ptrs_24
    b_ptrs_27 = b_ptr + b_ptrs_25
    a = bs_mask_12.broadcast_to([32, 256])
    b = expert_mask_21.broadcast_to([16, 256])
    twill_n = (24 - 0 + 1 - 1) // 1
    b_54_as = gl.allocate_shared_memory(gl.bfloat16, [2, 16, 256], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0]))
    a_51_as = gl.allocate_shared_memory(gl.bfloat16, [2, 32, 256], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]))
    a_ptrs_59 = a_ptrs_19
    b_ptrs_60 = b_ptrs_27
    a_ptrs_59_p1 = a_ptrs_59
    b_ptrs_60_p1 = b_ptrs_60
    acc_58 = gl.full([32, 16], 0.0, gl.float32, layout=L3)
    b_ptrs_60 = b_ptrs_60_p1 + 256  # load1_b: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(b_54_as.index((0 - 0) % 2), b_ptrs_60_p1, mask=b)  # load1_b: stage 0, partition 0 (group 0)
    else:  # load1_b: stage 0, partition 0 (group 0)
        b_54_as.index((0 - 0) % 2).store(gl.load(b_ptrs_60_p1, mask=b, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
    a_ptrs_59 = a_ptrs_59_p1 + 256  # load0_a: stage 0, partition 0 (group 0)
    if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
        async_copy.async_copy_global_to_shared(a_51_as.index((0 - 0) % 2), a_ptrs_59_p1, mask=a)  # load0_a: stage 0, partition 0 (group 0)
    else:  # load0_a: stage 0, partition 0 (group 0)
        a_51_as.index((0 - 0) % 2).store(gl.load(a_ptrs_59_p1, mask=a, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_59_p1 = a_ptrs_59
    acc_58_p1 = acc_58
    b_ptrs_60_p1 = b_ptrs_60
    for twill_b in range(1, twill_n):
        async_copy.wait_group(0)
        gl.thread_barrier()
        b_54 = b_54_as.index((twill_b - 1) % 2).load(L4)  # load1_b: stage 1, partition 0 (group 0)
        b_ptrs_60 = b_ptrs_60_p1 + 256  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_54_as.index((twill_b - 0) % 2), b_ptrs_60_p1, mask=b)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_54_as.index((twill_b - 0) % 2).store(gl.load(b_ptrs_60_p1, mask=b, other=0.0))  # load1_b: stage 0, partition 0 (group 0)
        acc_55 = gl.convert_layout(b_54, L5)  # convert1_acc: stage 1, partition 0 (group 0)
        b_56 = acc_55.to(gl.float32)  # convert1_acc: stage 1, partition 0 (group 0)
        a_51 = a_51_as.index((twill_b - 1) % 2).load(L6)  # load0_a: stage 1, partition 0 (group 0)
        a_ptrs_59 = a_ptrs_59_p1 + 256  # load0_a: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(a_51_as.index((twill_b - 0) % 2), a_ptrs_59_p1, mask=a)  # load0_a: stage 0, partition 0 (group 0)
        else:  # load0_a: stage 0, partition 0 (group 0)
            a_51_as.index((twill_b - 0) % 2).store(gl.load(a_ptrs_59_p1, mask=a, other=0.0))  # load0_a: stage 0, partition 0 (group 0)
        a_52 = gl.convert_layout(a_51, L6)  # convert0_a: stage 1, partition 0 (group 0)
        a_53 = a_52.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
        b_57 = gl.convert_layout(gl.permute(b_56, (1, 0)), L7)  # dot0_acc: stage 1, partition 0 (group 0)
        acc_58 = mma_v2(a_53, b_57, acc_58_p1, input_precision='tf32')  # dot0_acc: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        a_ptrs_59_p1 = a_ptrs_59
        acc_58_p1 = acc_58
        b_ptrs_60_p1 = b_ptrs_60
    async_copy.wait_group(0)
    gl.thread_barrier()
    b_54 = b_54_as.index(((twill_n - 1 + 1) - 1) % 2).load(L4)  # load1_b: stage 1, partition 0 (group 0)
    acc_55 = gl.convert_layout(b_54, L5)  # convert1_acc: stage 1, partition 0 (group 0)
    b_56 = acc_55.to(gl.float32)  # convert1_acc: stage 1, partition 0 (group 0)
    a_51 = a_51_as.index(((twill_n - 1 + 1) - 1) % 2).load(L6)  # load0_a: stage 1, partition 0 (group 0)
    a_52 = gl.convert_layout(a_51, L6)  # convert0_a: stage 1, partition 0 (group 0)
    a_53 = a_52.to(gl.float32)  # convert0_a: stage 1, partition 0 (group 0)
    b_57 = gl.convert_layout(gl.permute(b_56, (1, 0)), L7)  # dot0_acc: stage 1, partition 0 (group 0)
    acc_58 = mma_v2(a_53, b_57, acc_58_p1, input_precision='tf32')  # dot0_acc: stage 1, partition 0 (group 0)
    async_copy.commit_group()
    a_ptrs_59_p2 = a_ptrs_59_p1
    a_ptrs_59_p1 = a_ptrs_59
    acc_58_p1 = acc_58
    b_ptrs_60_p2 = b_ptrs_60_p1
    b_ptrs_60_p1 = b_ptrs_60
    logits_scaled = acc_58_p1 / 30.0
    exped_28 = logits_scaled * 2.0
    exped_29 = gl.exp(exped_28)
    logits_softcapped = exped_29 - 1.0
    logits_softcapped_30 = exped_29 + 1.0
    logits_softcapped_31 = logits_softcapped / logits_softcapped_30
    logits_softcapped_32 = logits_softcapped_31 * 30.0
    cond_33 = gl.arange(0, 16, layout=L8)
    cond_34 = gl.expand_dims(cond_33, 0)
    cond_35 = cond_34 < 8
    top1 = cond_35.broadcast_to([32, 16])
    top1_36 = gl.where(top1, logits_softcapped_32, float("-inf"))
    top1_37 = cond_34.broadcast_to([32, 16])
    top1_38_r0, top1_38_r1 = gl.reduce((top1_36, top1_37), 1, twill_combine_c2c773cd)
    top1_v = gl.max(top1_36, axis=1)
    top1_v_39 = gl.expand_dims(top1_v, 1)
    invsumexp_40 = top1_v_39.broadcast_to([32, 16])
    invsumexp_41 = logits_softcapped_32 - invsumexp_40
    invsumexp_42 = gl.exp(invsumexp_41)
    invsumexp_43 = gl.where(top1, invsumexp_42, 0.0)
    invsumexp_44 = gl.sum(invsumexp_43, axis=1)
    invsumexp_45 = 1.0 / invsumexp_44
    offs_topk_46 = offs_m + offs_m_7
    topk_mask_47 = offs_topk_46 < bs
    v1 = topk_ids_ptr + offs_topk_46
    v2 = gl.convert_layout(top1_38_r1, L0)
    gl.store(v1, v2, mask=topk_mask_47)
    v4 = topk_weights_ptr + offs_topk_46
    v5 = gl.convert_layout(invsumexp_45, L0)
    gl.store(v4, v5, mask=topk_mask_47)

@gluon.jit
def twill_kernel(a_ptr, b_ptr, topk_weights_ptr, topk_ids_ptr, bs, TWILL_COPY: gl.constexpr):
    consumer_0(a_ptr, b_ptr, topk_weights_ptr, topk_ids_ptr, bs, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'topk_weights_ptr', 'topk_ids_ptr', 'bs', 'num_experts', 'topk', 'moe_softcapping', 'moe_renormalize', 'K', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'stride_am', 'stride_bn']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'topk_weights_ptr', 'topk_ids_ptr', 'bs']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'topk_weights_ptr', 'topk_ids_ptr', 'bs']   # the arguments a launch key reads
CONSTEXPRS = {'num_experts': 8, 'topk': 1, 'moe_softcapping': 30.0, 'moe_renormalize': False, 'K': 6144, 'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 16, 'BLOCK_SIZE_K': 256, 'stride_am': 6144, 'stride_bn': 6144}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
