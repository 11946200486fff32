"""matmul_kernel, written by twill from its joint schedule: I=195 L=169 (optimal), 1920 cycles per iteration predicted.

Decisions (each from the schedule):
- partition 0 (default): consumer, warp group 0, 8 warps, 192 registers per thread (needs about 168): the loop's compute, 1 stages
- partition 1 (worker): producer, warp group 1, 4 warps, 112 registers per thread (needs about 112): cp.async copies into the rings
- ring a_65: 3 buffers of [128, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring b_69: 3 buffers of [64, 256] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 147568 bytes planned of 232448; maxnreg 168

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 256, 16]))
L5 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0]))
L6 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L7 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L9 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))

@gluon.jit
def consumer_0(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, a_65_buf, b_69_buf, a_65_ready, a_65_empty, b_69_ready, b_69_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m_2 = M + 127
        num_pid_m_3 = num_pid_m_2 // 128
        num_pid_n_4 = N + 255
        num_pid_n_5 = num_pid_n_4 // 256
        num_pid_in_group = num_pid_n_5 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_3 - first_pid_m
        group_size_m_6 = gl.minimum(group_size_m, 8)
        pid_m = pid % num_pid_in_group
        pid_m_7 = pid_m % group_size_m_6
        pid_m_8 = first_pid_m + pid_m_7
        pid_n = pid_m // group_size_m_6
        offs_am = pid_m_8 * 128
        offs_am_9 = gl.arange(0, 128, layout=L0)
        offs_am_10 = gl.arange(0, 128, layout=L1)
        offs_am_13 = offs_am + offs_am_9
        offs_am_14 = offs_am + offs_am_10
        offs_am_16 = offs_am_13 % M
        offs_bn = pid_n * 256
        offs_bn_17 = gl.arange(0, 256, layout=L2)
        offs_bn_19 = offs_bn + offs_bn_17
        offs_bn_21 = offs_bn_19 % N
        a_ptrs = gl.expand_dims(offs_am_16, 1)
        a_ptrs_23 = a_ptrs * stride_am
        a_ptrs_24 = gl.arange(0, 64, layout=L3)
        a_ptrs_25 = gl.expand_dims(a_ptrs_24, 0)
        a_ptrs_26 = a_ptrs_23.broadcast_to([128, 64])
        a_ptrs_27 = a_ptrs_25.broadcast_to([128, 64])
        a_ptrs_28 = a_ptrs_26 + a_ptrs_27
        a_ptrs_30 = a_ptr + a_ptrs_28
        b_ptrs = gl.arange(0, 64, layout=L1)
        b_ptrs_31 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_33 = b_ptrs_31 * stride_bk
        b_ptrs_34 = gl.expand_dims(offs_bn_21, 0)
        b_ptrs_35 = b_ptrs_33.broadcast_to([64, 256])
        b_ptrs_36 = b_ptrs_34.broadcast_to([64, 256])
        b_ptrs_37 = b_ptrs_35 + b_ptrs_36
        b_ptrs_39 = b_ptr + b_ptrs_37
        v0 = K + 63
        v1 = v0 // 64
        twill_n = (v1 - 0 + 1 - 1) // 1
        accumulator_71 = gl.full([128, 256], 0.0, gl.float32, layout=L4)
        accumulator_71_p1 = accumulator_71
        for twill_b in range(0, twill_n):
            mbarrier.wait(a_65_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            mbarrier.wait(b_69_ready.index((twill_base + twill_b - 0) % 3), ((twill_base + twill_b - 0) // 3) & 1)
            fence_async_shared()
            tok_accumulator_71 = warpgroup_mma(a_65_buf.index((twill_base + twill_b - 0) % 3), b_69_buf.index((twill_base + twill_b - 0) % 3), accumulator_71_p1, is_async=True)  # dot0_accumulator: stage 0, partition 0 (group 0)
            accumulator_71_p1 = warpgroup_mma_wait(1, deps=(accumulator_71_p1,))
            mbarrier.arrive(a_65_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            mbarrier.arrive(b_69_empty.index((twill_base + twill_b - 1 - 0) % 3), pred=(twill_b - 1 - 0) >= 0)
            accumulator_71 = warpgroup_mma_wait(1, deps=(tok_accumulator_71,))
            accumulator_71_p1 = accumulator_71
        accumulator_71_p1 = warpgroup_mma_wait(0, deps=(accumulator_71_p1,))
        mbarrier.arrive(a_65_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        mbarrier.arrive(b_69_empty.index((twill_base + (twill_n - 1) - 0) % 3), pred=twill_n > 0)
        c = accumulator_71_p1.to(gl.float16)
        c_ptrs = gl.expand_dims(offs_am_14, 1)
        c_ptrs_44 = stride_cm * c_ptrs
        c_ptrs_46 = c_ptr + c_ptrs_44
        c_ptrs_47 = gl.expand_dims(offs_bn_19, 0)
        c_ptrs_48 = c_ptrs_46.broadcast_to([128, 256])
        c_ptrs_49 = c_ptrs_47.broadcast_to([128, 256])
        c_ptrs_50 = c_ptrs_48 + c_ptrs_49
        c_mask_51 = c_ptrs < M
        c_mask_53 = c_ptrs_47 < N
        c_mask_54 = c_mask_51.broadcast_to([128, 256])
        c_mask_55 = c_mask_53.broadcast_to([128, 256])
        c_mask_56 = c_mask_54 & c_mask_55
        v2 = gl.convert_layout(c, L5)
        gl.store(c_ptrs_50, v2, mask=c_mask_56)
        twill_base += twill_n

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, a_65_buf, b_69_buf, a_65_ready, a_65_empty, b_69_ready, b_69_empty, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        pid = twill_pid0
        num_pid_m_2 = M + 127
        num_pid_m_3 = num_pid_m_2 // 128
        num_pid_n_4 = N + 255
        num_pid_n_5 = num_pid_n_4 // 256
        num_pid_in_group = num_pid_n_5 * 8
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * 8
        group_size_m = num_pid_m_3 - first_pid_m
        group_size_m_6 = gl.minimum(group_size_m, 8)
        pid_m = pid % num_pid_in_group
        pid_m_7 = pid_m % group_size_m_6
        pid_m_8 = first_pid_m + pid_m_7
        pid_n = pid_m // group_size_m_6
        offs_am = pid_m_8 * 128
        offs_am_9 = gl.arange(0, 128, layout=L6)
        offs_am_13 = offs_am + offs_am_9
        offs_am_16 = offs_am_13 % M
        offs_bn = pid_n * 256
        offs_bn_17 = gl.arange(0, 256, layout=L7)
        offs_bn_19 = offs_bn + offs_bn_17
        offs_bn_21 = offs_bn_19 % N
        a_ptrs = gl.expand_dims(offs_am_16, 1)
        a_ptrs_23 = a_ptrs * stride_am
        a_ptrs_24 = gl.arange(0, 64, layout=L8)
        a_ptrs_25 = gl.expand_dims(a_ptrs_24, 0)
        a_ptrs_26 = a_ptrs_23.broadcast_to([128, 64])
        a_ptrs_27 = a_ptrs_25.broadcast_to([128, 64])
        a_ptrs_28 = a_ptrs_26 + a_ptrs_27
        a_ptrs_30 = a_ptr + a_ptrs_28
        b_ptrs = gl.arange(0, 64, layout=L9)
        b_ptrs_31 = gl.expand_dims(b_ptrs, 1)
        b_ptrs_33 = b_ptrs_31 * stride_bk
        b_ptrs_34 = gl.expand_dims(offs_bn_21, 0)
        b_ptrs_35 = b_ptrs_33.broadcast_to([64, 256])
        b_ptrs_36 = b_ptrs_34.broadcast_to([64, 256])
        b_ptrs_37 = b_ptrs_35 + b_ptrs_36
        b_ptrs_39 = b_ptr + b_ptrs_37
        v0 = K + 63
        v1 = v0 // 64
        b_ptrs_40 = stride_bk * 64
        a_ptrs_59 = a_ptrs_30
        b_ptrs_60 = b_ptrs_39
        for accumulator_57 in range(0, v1, 1):
            twill_k = twill_base + (accumulator_57 - 0) // 1
            a = accumulator_57 * 64
            a_61 = K - a
            a_63 = a_ptrs_25 < a_61
            a_64 = a_63.broadcast_to([128, 64])
            b_67 = b_ptrs_31 < a_61
            b_68 = b_67.broadcast_to([64, 256])
            a_ptrs_72 = a_ptrs_59 + 64
            b_ptrs_73 = b_ptrs_60 + b_ptrs_40
            mbarrier.wait(a_65_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(a_65_buf.index(twill_k % 3), a_ptrs_59, mask=a_64)  # load0_a: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(a_65_ready.index(twill_k % 3), increment_count=False)
            else:
                a_65_buf.index(twill_k % 3).store(gl.load(a_ptrs_59, mask=a_64, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(a_65_ready.index(twill_k % 3), count=128)
            mbarrier.wait(b_69_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
            if TWILL_COPY:
                async_copy.async_copy_global_to_shared(b_69_buf.index(twill_k % 3), b_ptrs_60, mask=b_68)  # load1_b: stage 0, partition 1 (group 1)
                async_copy.mbarrier_arrive(b_69_ready.index(twill_k % 3), increment_count=False)
            else:
                b_69_buf.index(twill_k % 3).store(gl.load(b_ptrs_60, mask=b_68, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                fence_async_shared()
                gl.thread_barrier()
                mbarrier.arrive(b_69_ready.index(twill_k % 3), count=128)
            a_ptrs_59 = a_ptrs_72
            b_ptrs_60 = b_ptrs_73
        twill_base += (v1 - 0 + 1 - 1) // 1

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    a_65_buf = gl.allocate_shared_memory(gl.float16, [3, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_69_buf = gl.allocate_shared_memory(gl.float16, [3, 64, 256], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_65_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_65_ready.index(i), count=128)
    a_65_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(a_65_empty.index(i), count=1)
    b_69_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_69_ready.index(i), count=128)
    b_69_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(b_69_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, a_65_buf, b_69_buf, a_65_ready, a_65_empty, b_69_ready, b_69_empty, TWILL_COPY)),
        (producer_1, (a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, twill_g0, twill_g1, twill_g2, a_65_buf, b_69_buf, a_65_ready, a_65_empty, b_69_ready, b_69_empty, TWILL_COPY)),
    ], [4], [112])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
CONSTEXPRS = {'stride_ak': 1, 'stride_bn': 1, 'stride_cn': 1, 'BLOCK_M': 128, 'BLOCK_N': 256, 'BLOCK_K': 64, 'GROUP_M': 8}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = 168
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['a_ptr', 'b_ptr', 'M', 'N', 'K', 'stride_am', 'stride_bk']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")


_LAYOUTS = {}                  # argument -> its layout object, made on first use


def _descriptor(value, name):
    """A Gluon tensor descriptor for argument ``name``: same tensor, the block this kernel loads."""
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

    layout = _LAYOUTS.get(name)
    if layout is None:
        from triton.experimental.gluon import language as gl
        layout = _LAYOUTS[name] = eval("gl." + DESCRIPTOR_LAYOUTS[name])
    base = getattr(value, "base", value)
    shape = list(getattr(value, "shape", base.shape))
    strides = list(getattr(value, "strides", None) or base.stride())
    return TensorDescriptor(base, shape, strides, DESCRIPTOR_BLOCKS[name], layout)


def launch(grid, *args, **kwargs):
    """Run the generated kernel with the Triton kernel's arguments (positional and keyword)."""
    bound = dict(zip(ARGUMENTS, args))
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
    missing = [n for n in RUNTIME if n not in bound]
    if missing:
        raise ValueError(f"twill: missing kernel arguments {missing}")
    runtime = [_descriptor(bound[n], n) if n in DESCRIPTOR_BLOCKS else bound[n] for n in RUNTIME]
    TWILL_COPY = all(_aligned(bound[n]) for n in COPY_ALIGNED)
    return twill_kernel[g](*runtime, TWILL_COPY=TWILL_COPY, num_warps=NUM_WARPS, maxnreg=MAXNREG)


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


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
