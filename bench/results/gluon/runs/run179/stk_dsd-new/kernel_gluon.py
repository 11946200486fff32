"""_dsd_kernel, written by twill from its joint schedule: I=129 L=300 (optimal), 645 cycles per iteration predicted.

Decisions (each from the schedule):
- a copied with cp.async at every launch, not by TMA: its addresses go through arith.divsi (%block_inx), which the analysis does not follow
- b copied with cp.async at every launch, not by TMA: its addresses go through tt.load (%ptr_B_49), which the analysis does not follow
- pointer-loaded tiles copied by a 4-warp producer with cp.async (a, b): their addresses and masks spread over 128 threads
- two CTAs per SM: the partitions' registers (168, 64 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- the consumers' pointer loads in their readers' stage, not a stage ahead: the loop's trip count varies between programs, and a third stage would need two iterations of every program (run 101)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 4 warps, 184 registers per thread (needs about 168): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a: 5 buffers of [128, 32] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- ring b: 5 buffers of [32, 128] f16 (the loads run 4 iteration(s) ahead), read by partition(s) 0
- shared memory: 82096 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[4, 1], order=[1, 0]))
L4 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[8, 4], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, row_indices, column_indices, offsets, block_offsets_t, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    num_pid_m = gl.num_programs(0)
    num_pid_n = gl.num_programs(1)
    ij = pid_n * num_pid_m
    ij_0 = ij + pid_m
    size_gj = num_pid_m * 128
    group_id = ij_0 // size_gj
    off_i = group_id * 128
    size_g = num_pid_n - off_i
    size_g_1 = gl.minimum(size_g, 128)
    ij_2 = ij_0 % size_gj
    new_i = ij_2 % size_g_1
    new_i_3 = off_i + new_i
    new_j = ij_2 // size_g_1
    start_inx = offsets + new_j
    start_inx_4 = gl.load(start_inx)
    end_inx = start_inx + 1
    end_inx_5 = gl.load(end_inx)
    rm = gl.arange(0, 128, layout=L0)
    rm_6 = gl.arange(0, 128, layout=L1)
    rn = new_i_3 * 128
    rn_19 = rn + rm
    B_24 = gl.expand_dims(rn_19, 0)
    bk_block_incr = stride_bk * 128
    v0 = end_inx_5 - start_inx_4
    v1 = v0 * 4
    ptr_B = column_indices + start_inx_4
    twill_n = (v1 - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        acc_59 = gl.full([128, 128], 0.0, gl.float32, layout=L2)
        block_inx = (0 + (0 - 0) * 1) // 4  # load0_a: stage 0, partition 0 (group 0)
        ptr_B_48 = ptr_B + block_inx  # load1_ptr_B: stage 0, partition 0 (group 0)
        ptr_B_49 = gl.load(ptr_B_48)  # load1_ptr_B: stage 0, partition 0 (group 0)
        ptr_B_50 = gl.cast(ptr_B_49, gl.int32)  # convert0_ptr_B: stage 0, partition 0 (group 0)
        ptr_B_51 = ptr_B_50 * bk_block_incr  # elementwise0_ptr_B: stage 0, partition 0 (group 0)
        acc_59_p1 = acc_59
        for twill_b in range(1, twill_n):
            block_inx = (0 + (twill_b - 0) * 1) // 4  # load0_a: stage 0, partition 0 (group 0)
            ptr_B_48 = ptr_B + block_inx  # load1_ptr_B: stage 0, partition 0 (group 0)
            ptr_B_49 = gl.load(ptr_B_48)  # load1_ptr_B: stage 0, partition 0 (group 0)
            ptr_B_50 = gl.cast(ptr_B_49, gl.int32)  # convert0_ptr_B: stage 0, partition 0 (group 0)
            ptr_B_51 = ptr_B_50 * bk_block_incr  # elementwise0_ptr_B: stage 0, partition 0 (group 0)
            mbarrier.wait(a_ready.index((twill_b - 1) % 5), ((twill_b - 1) // 5) & 1)
            fence_async_shared()
            mbarrier.wait(b_ready.index((twill_b - 1) % 5), ((twill_b - 1) // 5) & 1)
            fence_async_shared()
            tok_acc_59 = warpgroup_mma(a_buf.index((twill_b - 1) % 5), b_buf.index((twill_b - 1) % 5), acc_59_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_acc_59,))
            mbarrier.arrive(a_empty.index((twill_b - 1 - 1) % 5), pred=(twill_b - 1 - 1) >= 0)
            mbarrier.arrive(b_empty.index((twill_b - 1 - 1) % 5), pred=(twill_b - 1 - 1) >= 0)
            acc_59 = warpgroup_mma_wait(1, deps=(tok_acc_59,))
            acc_59_p1 = acc_59
        mbarrier.wait(a_ready.index(((twill_n - 1 + 1) - 1) % 5), (((twill_n - 1 + 1) - 1) // 5) & 1)
        fence_async_shared()
        mbarrier.wait(b_ready.index(((twill_n - 1 + 1) - 1) % 5), (((twill_n - 1 + 1) - 1) // 5) & 1)
        fence_async_shared()
        tok_acc_59 = warpgroup_mma(a_buf.index(((twill_n - 1 + 1) - 1) % 5), b_buf.index(((twill_n - 1 + 1) - 1) % 5), acc_59_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        warpgroup_mma_wait(1, deps=(tok_acc_59,))
        mbarrier.arrive(a_empty.index(((twill_n - 1 + 1) - 1 - 1) % 5), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        mbarrier.arrive(b_empty.index(((twill_n - 1 + 1) - 1 - 1) % 5), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_59 = warpgroup_mma_wait(1, deps=(tok_acc_59,))
        acc_59_p1 = acc_59
        acc_59_p1 = warpgroup_mma_wait(0, deps=(acc_59_p1,))
        a_buf._keep_alive()
        b_buf._keep_alive()
        mbarrier.arrive(a_empty.index(((twill_n - 1 + 1) - 1) % 5))
        mbarrier.arrive(b_empty.index(((twill_n - 1 + 1) - 1) % 5))
    else:
        acc_59_p1 = gl.full([128, 128], 0.0, gl.float32, layout=L2)
    acc_30 = acc_59_p1.to(gl.float16)
    cm = new_j * 128
    cm_32 = cm + rm_6
    C_33 = gl.expand_dims(cm_32, 1)
    C_35 = C_33 * stride_cm
    C_36 = C_35.broadcast_to([128, 128])
    C_37 = B_24.broadcast_to([128, 128])
    C_38 = C_36 + C_37
    C_40 = C + C_38
    v2 = gl.convert_layout(acc_30, L3)
    gl.store(C_40, v2)

@gluon.jit
def producer_1(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, row_indices, column_indices, offsets, block_offsets_t, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr):
    pid_m = gl.program_id(0)
    pid_n = gl.program_id(1)
    num_pid_m = gl.num_programs(0)
    num_pid_n = gl.num_programs(1)
    ij = pid_n * num_pid_m
    ij_0 = ij + pid_m
    size_gj = num_pid_m * 128
    group_id = ij_0 // size_gj
    off_i = group_id * 128
    size_g = num_pid_n - off_i
    size_g_1 = gl.minimum(size_g, 128)
    ij_2 = ij_0 % size_gj
    new_i = ij_2 % size_g_1
    new_i_3 = off_i + new_i
    new_j = ij_2 // size_g_1
    start_inx = offsets + new_j
    start_inx_4 = gl.load(start_inx)
    end_inx = start_inx + 1
    end_inx_5 = gl.load(end_inx)
    rm = gl.arange(0, 128, layout=L0)
    A_7 = gl.arange(0, 128, layout=L4)
    A_8 = gl.expand_dims(A_7, 1)
    A_10 = A_8 * stride_am
    A_11 = gl.arange(0, 32, layout=L5)
    A_12 = gl.expand_dims(A_11, 0)
    A_13 = A_10.broadcast_to([128, 32])
    A_14 = A_12.broadcast_to([128, 32])
    A_15 = A_13 + A_14
    A_17 = A + A_15
    rn = new_i_3 * 128
    rn_19 = rn + rm
    B_20 = gl.arange(0, 32, layout=L1)
    B_21 = gl.expand_dims(B_20, 1)
    B_23 = B_21 * stride_bk
    B_24 = gl.expand_dims(rn_19, 0)
    B_25 = B_23.broadcast_to([32, 128])
    B_26 = B_24.broadcast_to([32, 128])
    B_27 = B_25 + B_26
    B_29 = B + B_27
    bk_sub_incr = stride_bk * 32
    bk_block_incr = stride_bk * 128
    v0 = end_inx_5 - start_inx_4
    v1 = v0 * 4
    ptr_B = column_indices + start_inx_4
    for acc_41 in range(0, v1, 1):
        twill_k = (acc_41 - 0) // 1
        sub_block_inx = acc_41 % 4
        block_inx = acc_41 // 4
        ptr_A = start_inx_4 + block_inx
        ptr_A_42 = ptr_A * 16384
        ptr_A_44 = A_17 + ptr_A_42
        ptr_A_45 = sub_block_inx * 32
        ptr_A_47 = ptr_A_44 + ptr_A_45
        ptr_B_48 = ptr_B + block_inx
        ptr_B_49 = gl.load(ptr_B_48)
        ptr_B_50 = gl.cast(ptr_B_49, gl.int32)
        ptr_B_51 = ptr_B_50 * bk_block_incr
        ptr_B_53 = B_29 + ptr_B_51
        ptr_B_54 = sub_block_inx * bk_sub_incr
        ptr_B_56 = ptr_B_53 + ptr_B_54
        mbarrier.wait(a_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 5), ptr_A_47)  # load0_a: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(a_ready.index(twill_k % 5), increment_count=False)
        else:
            a_buf.index(twill_k % 5).store(gl.load(ptr_A_47))  # load0_a: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(a_ready.index(twill_k % 5), count=128)
        mbarrier.wait(b_empty.index(twill_k % 5), ((twill_k // 5) & 1) ^ 1)
        if TWILL_COPY:
            async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 5), ptr_B_56)  # load2_b: stage 0, partition 1 (group 1)
            async_copy.mbarrier_arrive(b_ready.index(twill_k % 5), increment_count=False)
        else:
            b_buf.index(twill_k % 5).store(gl.load(ptr_B_56))  # load2_b: stage 0, partition 1 (group 1)
            fence_async_shared()
            gl.thread_barrier()
            mbarrier.arrive(b_ready.index(twill_k % 5), count=128)

@gluon.jit
def twill_kernel(A, B, C, M, N, K, stride_am, stride_bk, stride_cm, row_indices, column_indices, offsets, block_offsets_t, TWILL_COPY: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.float16, [5, 128, 32], gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2, transposed=False))
    b_buf = gl.allocate_shared_memory(gl.float16, [5, 32, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_ready.index(i), count=128)
    a_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(a_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_ready.index(i), count=128)
    b_empty = gl.allocate_shared_memory(gl.int64, [5, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(5):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (A, B, C, M, N, K, stride_am, stride_bk, stride_cm, row_indices, column_indices, offsets, block_offsets_t, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY)),
        (producer_1, (A, B, C, M, N, K, stride_am, stride_bk, stride_cm, row_indices, column_indices, offsets, block_offsets_t, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY)),
    ], [4], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'C', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'row_indices', 'column_indices', 'offsets', 'block_offsets_t', 'trans_A', 'trans_B', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'BLOCK_SIZE', 'GROUP_M', 'ACC_TYPE']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'C', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'row_indices', 'column_indices', 'offsets', 'block_offsets_t']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'C', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'row_indices', 'column_indices', 'offsets', 'block_offsets_t', 'ACC_TYPE']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'trans_A': False, 'trans_B': False, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 32, 'BLOCK_SIZE': 128, 'GROUP_M': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = 128
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A', 'B', 'stride_am', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
