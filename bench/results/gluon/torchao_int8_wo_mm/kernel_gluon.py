"""int8_weight_only_matmul_kernel, written by twill from its joint schedule: I=187 L=165 (optimal), 1088 cycles per iteration predicted.

Decisions (each from the schedule):
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- register-read pointer tiles copied by their consumer with cp.async (b_as 2 x 8192 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- a by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples, (M) % 128 == 0; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 8 warps, 192 registers per thread (needs about 120): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 56 registers per thread (needs about 56): cp.async copies into the rings
- ring a: 4 buffers of [128, 64] bf16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared operand acc_58_st: partition 0 stores the loop's [64, 128] bf16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 114768 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 8], order=[0, 1])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 8], order=[0, 1])))
L6 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[4, 8], warps_per_cta=[1, 8], order=[0, 1]))
L8 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, s2_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a, a_buf, b_as, acc_58_st, a_ready, a_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        grid_m = M + 127
        grid_m_2 = grid_m // 128
        grid_n = N + 127
        grid_n_3 = grid_n // 128
        width = grid_n_3 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_4 = grid_m_2 - group_size
        group_size_5 = gl.minimum(group_size_4, 8)
        pid_m = pid % group_size_5
        pid_m_6 = group_size + pid_m
        pid_n = pid % width
        pid_n_7 = pid_n // group_size_5
        rm = pid_m_6 * 128
        rm_8 = gl.arange(0, 128, layout=L0)
        rm_9 = gl.arange(0, 128, layout=L1)
        rm_10 = gl.arange(0, 128, layout=L2)
        rm_11 = gl.arange(0, 128, layout=L3)
        rm_14 = rm + rm_8
        rm_15 = rm + rm_9
        rn = pid_n_7 * 128
        rn_18 = rn + rm_10
        rn_19 = rn + rm_11
        ram_20 = rm_14 % M
        ram_20 = gl.max_contiguous(gl.multiple_of(ram_20, [128]), [128])
        rbn_21 = rn_18 % N
        rbn_21 = gl.max_contiguous(gl.multiple_of(rbn_21, [128]), [128])
        A = gl.expand_dims(ram_20, 1)
        A_23 = A * stride_am
        A_24 = gl.arange(0, 64, layout=L4)
        A_25 = gl.expand_dims(A_24, 0)
        A_26 = A_23.broadcast_to([128, 64])
        A_27 = A_25.broadcast_to([128, 64])
        A_28 = A_26 + A_27
        A_30 = a_ptr + A_28
        B = gl.arange(0, 64, layout=L5)
        B_31 = gl.expand_dims(B, 1)
        B_32 = gl.expand_dims(rbn_21, 0)
        B_34 = B_32 * stride_bn
        B_35 = B_31.broadcast_to([64, 128])
        B_36 = B_34.broadcast_to([64, 128])
        B_37 = B_35 + B_36
        B_39 = b_ptr + B_37
        twill_n = (K - 0 + 64 - 1) // 64
        B_61 = B_39
        B_61_p1 = B_61
        acc_59 = gl.full([128, 128], 0.0, gl.float32, layout=L6)
        B_61 = B_61_p1 + 64  # load1_b: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(b_as.index((twill_base + 0 - 0) % 2), B_61_p1)  # load1_b: stage 0, partition 0 (group 0)
        else:  # load1_b: stage 0, partition 0 (group 0)
            b_as.index((twill_base + 0 - 0) % 2).store(gl.load(B_61_p1))  # load1_b: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        B_61_p1 = B_61
        acc_59_p1 = acc_59
        for twill_b in range(1, twill_n):
            async_copy.wait_group(0)
            gl.thread_barrier()
            b = b_as.index((twill_base + twill_b - 1) % 2).load(L7)  # load1_b: stage 1, partition 0 (group 0)
            B_61 = B_61_p1 + 64  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_as.index((twill_base + twill_b - 0) % 2), B_61_p1)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_as.index((twill_base + twill_b - 0) % 2).store(gl.load(B_61_p1))  # load1_b: stage 0, partition 0 (group 0)
            acc_57 = gl.cast(b, gl.int8, bitcast=True).to(gl.bfloat16)  # convert0_acc: stage 1, partition 0 (group 0)
            acc_58 = acc_58_st.index((twill_b - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
            acc_58.store(acc_57)  # local_store0_acc: stage 1, partition 0 (group 0)
            fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
            mbarrier.wait(a_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
            fence_async_shared()
            tok_acc_59 = warpgroup_mma(a_buf.index((twill_base + twill_b - 1) % 4), acc_58, acc_59_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_acc_59,))
            mbarrier.arrive(a_empty.index((twill_base + twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
            acc_59 = warpgroup_mma_wait(1, deps=(tok_acc_59,))
            B_61_p1 = B_61
            acc_59_p1 = acc_59
        async_copy.wait_group(0)
        gl.thread_barrier()
        b = b_as.index((twill_base + (twill_n - 1 + 1) - 1) % 2).load(L7)  # load1_b: stage 1, partition 0 (group 0)
        acc_57 = gl.cast(b, gl.int8, bitcast=True).to(gl.bfloat16)  # convert0_acc: stage 1, partition 0 (group 0)
        acc_58 = acc_58_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_acc: stage 1, partition 0 (group 0)
        acc_58.store(acc_57)  # local_store0_acc: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_acc: stage 1, partition 0 (group 0)
        mbarrier.wait(a_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
        fence_async_shared()
        tok_acc_59 = warpgroup_mma(a_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), acc_58, acc_59_p1, is_async=True)  # dot0_acc: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        warpgroup_mma_wait(1, deps=(tok_acc_59,))
        mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
        acc_59 = warpgroup_mma_wait(1, deps=(tok_acc_59,))
        B_61_p2 = B_61_p1
        B_61_p1 = B_61
        acc_59_p1 = acc_59
        acc_59_p1 = warpgroup_mma_wait(0, deps=(acc_59_p1,))
        a_buf._keep_alive()
        acc_58_st._keep_alive()
        mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
        idx_m = gl.expand_dims(rm_15, 1)
        idx_n = gl.expand_dims(rn_19, 0)
        mask_40 = idx_m < M
        mask_42 = idx_n < N
        mask_43 = mask_40.broadcast_to([128, 128])
        mask_44 = mask_42.broadcast_to([128, 128])
        mask_45 = mask_43 & mask_44
        xindex_46 = N * idx_m
        xindex_47 = idx_n.broadcast_to([128, 128])
        xindex_48 = xindex_46.broadcast_to([128, 128])
        xindex_49 = xindex_47 + xindex_48
        tmp0_50 = s2_ptr + idx_n
        tmp0_51 = tmp0_50.broadcast_to([128, 128])
        tmp0_52 = gl.load(tmp0_51, mask=mask_45, eviction_policy='evict_last')
        v1 = c_ptr + xindex_49
        v2 = gl.convert_layout(tmp0_52, L6)
        v3 = v2.to(gl.float32)
        v4 = acc_59_p1 * v3
        v5 = v4.to(gl.bfloat16)
        v6 = gl.convert_layout(v5, L8)
        gl.store(v1, v6, mask=mask_45)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, s2_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a, a_buf, b_as, acc_58_st, a_ready, a_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        grid_m = M + 127
        grid_m_2 = grid_m // 128
        grid_n = N + 127
        grid_n_3 = grid_n // 128
        width = grid_n_3 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_4 = grid_m_2 - group_size
        group_size_5 = gl.minimum(group_size_4, 8)
        pid_m = pid % group_size_5
        pid_m_6 = group_size + pid_m
        rm = pid_m_6 * 128
        rm_8 = gl.arange(0, 128, layout=L0)
        rm_14 = rm + rm_8
        ram_20 = rm_14 % M
        ram_20 = gl.max_contiguous(gl.multiple_of(ram_20, [128]), [128])
        A = gl.expand_dims(ram_20, 1)
        A_23 = A * stride_am
        A_24 = gl.arange(0, 64, layout=L4)
        A_25 = gl.expand_dims(A_24, 0)
        A_26 = A_23.broadcast_to([128, 64])
        A_27 = A_25.broadcast_to([128, 64])
        A_28 = A_26 + A_27
        A_30 = a_ptr + A_28
        A_54 = A_30
        for acc_53 in range(0, K, 64):
            twill_k = twill_base + (acc_53 - 0) // 64
            A_60 = A_54 + 64
            mbarrier.wait(a_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
            if TWILL_TMA:
                mbarrier.expect(a_ready.index(twill_k % 4), twill_box_a.block_type.nbytes)
                tma.async_copy_global_to_shared(twill_box_a, [((1024 * group_id + 128 * pid_m) % (M)), 64 * ((acc_53 - 0) // 64)], a_ready.index(twill_k % 4), a_buf.index(twill_k % 4))  # load0_a: a TMA box (boxes)
            else:
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 4), A_54)  # load0_a: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(a_ready.index(twill_k % 4), increment_count=False)
                else:
                    a_buf.index(twill_k % 4).store(gl.load(A_54))  # load0_a: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(a_ready.index(twill_k % 4), count=256)
            A_54 = A_60
        twill_base += (K - 0 + 64 - 1) // 64

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, s2_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.bfloat16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_as = gl.allocate_shared_memory(gl.int8, [2, 64, 128], gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0, 1]))
    acc_58_st = gl.allocate_shared_memory(gl.bfloat16, [2, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=True))
    a_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_ready.index(i), count=1 if TWILL_TMA else 256)
    a_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, s2_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a, a_buf, b_as, acc_58_st, a_ready, a_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, c_ptr, s2_ptr, M, N, K, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, twill_box_a, a_buf, b_as, acc_58_st, a_ready, a_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [56])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 's2_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'stride_s2n', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M', 'EVEN_K', 'ACC_TYPE']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 's2_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2', 'twill_box_a']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 's2_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bn', 'stride_cm', 'ACC_TYPE', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'stride_s2n': 1, 'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP_M': 8, 'EVEN_K': True}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a': ('a_ptr', ['stride_am', '1'], [None, None], [128, 64], ['(M) % 128 == 0'])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'stride_am', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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


def _box_shapes(bound):
    """Each pointer tile's (base, extents, strides), or None where the launch does not allow them (a base not
    16-byte aligned, a row stride not a 16-byte multiple, an extent not positive, a check failed, a shape
    or stride the descriptor refuses)."""
    out = {}
    for n, (base, strides, extents, block, checks) in POINTER_BOXES.items():
        t = bound[base]
        if not TMA_BOXES or not hasattr(t, 'data_ptr') or not all(_ev(c, bound) for c in checks):
            return None
        st = tuple(int(_ev(e, bound)) for e in strides)
        ext = tuple(2 ** 31 - 1 if e is None else int(_ev(e, bound)) for e in extents)   # None: unmasked
        if t.data_ptr() % 16 or any(x * t.element_size() % 16 for x in st[:-1]) or min(ext) <= 0:
            return None
        # unmasked, a coordinate holds the element offsets folded into it (an expert's, a batch's): TMA's
        # coordinates and the kernel's arithmetic are 32-bit, so the tensor's whole span must fit them
        span = _span(t)
        if any(e is None and span // max(s, 1) >= 2 ** 31 - 1 for e, s in zip(extents, st)):
            return None
        try:
            _desc(n, t, ext, st, block)
        except (AssertionError, ValueError, TypeError):
            return None
        out[n] = (base, ext, st)
    return out


def _span(t):
    """The elements from ``t``'s first to the end of its storage."""
    try:
        return t.untyped_storage().nbytes() // t.element_size() - t.storage_offset()
    except (AttributeError, RuntimeError):
        return t.numel()


def _boxes(bound, shapes=None):
    """The pointer tiles' descriptors over ``shapes`` (else ``_box_shapes``'), None where the launch does not
    allow them."""
    shapes = _box_shapes(bound) if shapes is None else shapes
    if shapes is None:
        return None
    return {n: _desc(n, bound[b], ext, st, POINTER_BOXES[n][3]) for n, (b, ext, st) in shapes.items()}


def _key(bound, g):
    """What a launch decides from and Triton specialises on; None where an argument cannot be a key's part."""
    if not _MODES:
        from triton import knobs
        _MODES.extend((knobs.compilation, knobs.runtime))
    key = [g, TMA_BOXES, _MODES[0].instrumentation_mode, _MODES[1].debug, _device()]
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
    trips = _ev('(K + 64 - 1) // 64', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((K + 64 - 1) // 64): run the Triton kernel for it")
    shapes = _box_shapes(bound)
    flags = {'TWILL_COPY': all(_aligned(bound[n]) for n in COPY_ALIGNED), 'TWILL_TMA': shapes is not None}
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
    bound.update(dict.fromkeys(POINTER_BOXES) if entry[1] is None else _boxes(bound, entry[1]))
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
