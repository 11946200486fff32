"""bmm_kernel, written by twill from its joint schedule: I=330 L=297 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (a_72_ring: 4 x 16384 B, issued 2 iteration(s) ahead, b_73_ring: 4 x 16384 B, issued 2 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 2 stage(s) ahead of their readers; 3 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 104 per thread)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 131088 bytes planned of 232448; maxnreg unset (ptxas allocates)

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
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[2, 16], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(A, B, O, M, N, K, stride_ab, stride_am, stride_bb, stride_bk, stride_ob, stride_om, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        twill_pid2 = twill_tile // (twill_g0 * twill_g1)
        pid_b = twill_pid2
        pid_b_1 = gl.cast(pid_b, gl.int64)
        A_2 = gl.cast(stride_ab, gl.int64)
        A_3 = pid_b_1 * A_2
        A_4 = A + A_3
        B_5 = gl.cast(stride_bb, gl.int64)
        B_6 = pid_b_1 * B_5
        B_7 = B + B_6
        O_8 = gl.cast(stride_ob, gl.int64)
        O_9 = pid_b_1 * O_8
        O_10 = O + O_9
        pidx = twill_pid0
        pidx_11 = gl.cast(pidx, gl.int64)
        pidy = twill_pid1
        pidy_12 = gl.cast(pidy, gl.int64)
        gridx = twill_g0
        gridx_13 = gl.cast(gridx, gl.int64)
        gridy = twill_g1
        gridy_14 = gl.cast(gridy, gl.int64)
        pid = pidy_12 * gridx_13
        pid_15 = pidx_11 + pid
        num_CTA_per_group = gridy_14 * 8
        group_id = pid_15 // num_CTA_per_group
        inner_group_id = pid_15 % num_CTA_per_group
        GROUP_SIZE = group_id * 8
        GROUP_SIZE_16 = GROUP_SIZE + 8
        GROUP_SIZE_17 = GROUP_SIZE_16 > gridx_13
        GROUP_SIZE_18 = gridx_13 % 8
        GROUP_SIZE_19 = gl.where(GROUP_SIZE_17, GROUP_SIZE_18, 8)
        pid_m = inner_group_id % GROUP_SIZE_19
        pid_m_20 = GROUP_SIZE + pid_m
        pid_n = inner_group_id // GROUP_SIZE_19
        offs_m = pid_m_20 * 128
        offs_m_21 = gl.arange(0, 128, layout=L0)
        offs_m_22 = gl.arange(0, 128, layout=L1)
        offs_m_23 = gl.arange(0, 128, layout=L2)
        offs_m_24 = offs_m_21.to(gl.int64)
        offs_m_25 = offs_m_22.to(gl.int64)
        offs_m_26 = offs_m_23.to(gl.int64)
        offs_m_29 = offs_m + offs_m_24
        offs_m_30 = offs_m + offs_m_25
        offs_n = pid_n * 128
        offs_n_32 = offs_n + offs_m_26
        mask_m = gl.cast(M, gl.int64)
        mask_m_35 = offs_m_29 < mask_m
        mask_m_36 = offs_m_30 < mask_m
        a_ptrs = gl.expand_dims(offs_m_29, 1)
        a_ptrs_37 = gl.expand_dims(offs_m_30, 1)
        a_ptrs_38 = gl.cast(stride_am, gl.int64)
        a_ptrs_40 = a_ptrs * a_ptrs_38
        a_ptrs_42 = A_4 + a_ptrs_40
        a_ptrs_43 = gl.arange(0, 64, layout=L3)
        a_ptrs_44 = gl.expand_dims(a_ptrs_43, 0)
        a_ptrs_45 = a_ptrs_42.broadcast_to([128, 64])
        a_ptrs_46 = a_ptrs_44.broadcast_to([128, 64])
        a_ptrs_47 = a_ptrs_45 + a_ptrs_46
        b_ptrs = gl.arange(0, 64, layout=L1)
        b_ptrs_48 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_50 = b_ptrs_48 * stride_bk
        b_ptrs_52 = B_7 + b_ptrs_50
        b_ptrs_53 = gl.expand_dims(offs_n_32, 0)
        b_ptrs_54 = b_ptrs_52.broadcast_to([64, 128])
        b_ptrs_55 = b_ptrs_53.broadcast_to([64, 128])
        b_ptrs_56 = b_ptrs_54 + b_ptrs_55
        o_ptrs = gl.cast(stride_om, gl.int64)
        o_ptrs_58 = a_ptrs_37 * o_ptrs
        o_ptrs_60 = O_10 + o_ptrs_58
        o_ptrs_61 = o_ptrs_60.broadcast_to([128, 128])
        o_ptrs_62 = b_ptrs_53.broadcast_to([128, 128])
        o_ptrs_63 = o_ptrs_61 + o_ptrs_62
        num_iters_64 = K + 63
        num_iters_65 = num_iters_64 // 64
        mask_a = gl.expand_dims(mask_m_35, 1)
        a = mask_a.broadcast_to([128, 64])
        b_ptrs_66 = stride_bk * 64
        twill_n = (num_iters_65 - 0 + 1 - 1) // 1
        if (twill_n >= 2) | (gl.program_id(0) < 0):
            a_72_ring = gl.allocate_shared_memory(gl.float16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
            b_73_ring = gl.allocate_shared_memory(gl.float16, [4, 64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
            a_ptrs_74 = a_ptrs_47
            b_ptrs_75 = b_ptrs_56
            a_ptrs_74_p1 = a_ptrs_74
            b_ptrs_75_p1 = b_ptrs_75
            a_ptrs_74 = a_ptrs_74_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_75 = b_ptrs_75_p1 + b_ptrs_66  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_72_ring.index((twill_base + 0 - 0) % 4), a_ptrs_74_p1, mask=a)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_72_ring.index((twill_base + 0 - 0) % 4).store(gl.load(a_ptrs_74_p1, mask=a))  # load0_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_73_ring.index((twill_base + 0 - 0) % 4), b_ptrs_75_p1)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_73_ring.index((twill_base + 0 - 0) % 4).store(gl.load(b_ptrs_75_p1))  # load1_b: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            a_ptrs_74_p1 = a_ptrs_74
            b_ptrs_75_p1 = b_ptrs_75
            o_76 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
            a_ptrs_74 = a_ptrs_74_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
            b_ptrs_75 = b_ptrs_75_p1 + b_ptrs_66  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_72_ring.index((twill_base + 1 - 0) % 4), a_ptrs_74_p1, mask=a)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_72_ring.index((twill_base + 1 - 0) % 4).store(gl.load(a_ptrs_74_p1, mask=a))  # load0_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_73_ring.index((twill_base + 1 - 0) % 4), b_ptrs_75_p1)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_73_ring.index((twill_base + 1 - 0) % 4).store(gl.load(b_ptrs_75_p1))  # load1_b: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            a_ptrs_74_p1 = a_ptrs_74
            b_ptrs_75_p1 = b_ptrs_75
            o_76_p1 = o_76
            for twill_b in range(2, twill_n):
                async_copy.wait_group(1)
                gl.thread_barrier()
                a_72 = a_72_ring.index((twill_base + twill_b - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
                b_73 = b_73_ring.index((twill_base + twill_b - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
                a_ptrs_74 = a_ptrs_74_p1 + 64  # load0_a: stage 0, partition 0 (group 0)
                b_ptrs_75 = b_ptrs_75_p1 + b_ptrs_66  # load1_b: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(a_72_ring.index((twill_base + twill_b - 0) % 4), a_ptrs_74_p1, mask=a)  # load0_a: stage 0, partition 0 (group 0)
                else:  # load0_a: stage 0, partition 0 (group 0)
                    a_72_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(a_ptrs_74_p1, mask=a))  # load0_a: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(b_73_ring.index((twill_base + twill_b - 0) % 4), b_ptrs_75_p1)  # load1_b: stage 0, partition 0 (group 0)
                else:  # load1_b: stage 0, partition 0 (group 0)
                    b_73_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(b_ptrs_75_p1))  # load1_b: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
                tok_o_76 = warpgroup_mma(a_72, b_73, o_76_p1, is_async=True)  # dot0_o: stage 2, partition 0 (group 0)
                async_copy.commit_group()
                warpgroup_mma_wait(1, deps=(tok_o_76,))
                o_76 = warpgroup_mma_wait(1, deps=(tok_o_76,))
                a_ptrs_74_p1 = a_ptrs_74
                b_ptrs_75_p1 = b_ptrs_75
                o_76_p1 = o_76
            async_copy.wait_group(1)
            gl.thread_barrier()
            a_72 = a_72_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
            b_73 = b_73_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
            tok_o_76 = warpgroup_mma(a_72, b_73, o_76_p1, is_async=True)  # dot0_o: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_o_76,))
            o_76 = warpgroup_mma_wait(1, deps=(tok_o_76,))
            a_ptrs_74_p2 = a_ptrs_74_p1
            a_ptrs_74_p1 = a_ptrs_74
            b_ptrs_75_p2 = b_ptrs_75_p1
            b_ptrs_75_p1 = b_ptrs_75
            o_76_p1 = o_76
            async_copy.wait_group(1)
            gl.thread_barrier()
            a_72 = a_72_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
            b_73 = b_73_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
            tok_o_76 = warpgroup_mma(a_72, b_73, o_76_p1, is_async=True)  # dot0_o: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_o_76,))
            o_76 = warpgroup_mma_wait(1, deps=(tok_o_76,))
            a_ptrs_74_p3 = a_ptrs_74_p2
            a_ptrs_74_p2 = a_ptrs_74_p1
            a_ptrs_74_p1 = a_ptrs_74
            b_ptrs_75_p3 = b_ptrs_75_p2
            b_ptrs_75_p2 = b_ptrs_75_p1
            b_ptrs_75_p1 = b_ptrs_75
            o_76_p1 = o_76
            o_76_p1 = warpgroup_mma_wait(0, deps=(o_76_p1,))
            a_72_ring._keep_alive()
            b_73_ring._keep_alive()
        else:
            arg13_w = gl.full([128, 128], 0.0, gl.float32, layout=L4)
            a_ptrs_69_w = a_ptrs_47
            b_ptrs_70_w = b_ptrs_56
            for o_68_w in range(0, num_iters_65, 1):
                a_71_w = gl.load(a_ptrs_69_w, mask=a)
                a_72_w = gl.allocate_shared_memory(gl.float16, [128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), a_71_w)
                fence_async_shared()
                b_w = gl.load(b_ptrs_70_w)
                b_73_w = gl.allocate_shared_memory(gl.float16, [64, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_w)
                fence_async_shared()
                a_ptrs_74_w = a_ptrs_69_w + 64
                b_ptrs_75_w = b_ptrs_70_w + b_ptrs_66
                o_76_w = warpgroup_mma(a_72_w, b_73_w, arg13_w)
                arg13_w = o_76_w
                a_ptrs_69_w = a_ptrs_74_w
                b_ptrs_70_w = b_ptrs_75_w
            o_76_p1 = arg13_w
            a_ptrs_74_p3 = a_ptrs_69_w
            b_ptrs_75_p3 = b_ptrs_70_w
        mask_c = gl.expand_dims(mask_m_36, 1)
        v0 = mask_c.broadcast_to([128, 128])
        v1 = o_76_p1.to(gl.float16)
        v2 = gl.convert_layout(v1, L5)
        gl.store(o_ptrs_63, v2, mask=v0)
        twill_base += twill_n

@gluon.jit
def twill_kernel(A, B, O, M, N, K, stride_ab, stride_am, stride_bb, stride_bk, stride_ob, stride_om, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    consumer_0(A, B, O, M, N, K, stride_ab, stride_am, stride_bb, stride_bk, stride_ob, stride_om, twill_g0, twill_g1, twill_g2, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'O', 'M', 'N', 'K', 'stride_ab', 'stride_am', 'stride_ak', 'stride_bb', 'stride_bk', 'stride_bn', 'stride_ob', 'stride_om', 'stride_on', 'TILE_M', 'TILE_N', 'TILE_K', 'GROUP_M', 'DIVISIBLE_M', 'DIVISIBLE_N', 'DIVISIBLE_K', 'IS_FP64']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'O', 'M', 'N', 'K', 'stride_ab', 'stride_am', 'stride_bb', 'stride_bk', 'stride_ob', 'stride_om', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'O', 'M', 'N', 'K', 'stride_ab', 'stride_am', 'stride_bb', 'stride_bk', 'stride_ob', 'stride_om', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'stride_ak': 1, 'stride_bn': 1, 'stride_on': 1, 'TILE_M': 128, 'TILE_N': 128, 'TILE_K': 64, 'GROUP_M': 8, 'DIVISIBLE_M': False, 'DIVISIBLE_N': True, 'DIVISIBLE_K': True, 'IS_FP64': False}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = None
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A', 'B', 'stride_ab', 'stride_am', 'stride_bb', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
