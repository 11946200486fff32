"""_kernel_cg_persistent_forward, written by twill from its joint schedule: I=194 L=265 (optimal), 2481 cycles per iteration predicted.

Decisions (each from the schedule):
- b copied with cp.async at every launch, not by TMA: a mask along dimension 0 the launch cannot compute
- pointer-loaded tiles copied by a 8-warp producer with cp.async (a, b): their addresses and masks spread over 256 threads, 4-deep rings: one deeper than their latency asks, as the copies' rate rises with the threads issuing them and the bytes in flight together (run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep 415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)
- a by TMA where the launch allows it (TWILL_TMA: the launcher builds a descriptor over a_ptr when the base is 16-byte aligned, the row strides 16-byte multiples; else cp.async): one TMA copy per tile in place of the producer's per-thread copies
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- partition 0 (default): consumer, warp group 0, 8 warps, 184 registers per thread (needs about 129): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 8 warps, 64 registers per thread (needs about 64): cp.async copies into the rings
- ring a: 4 buffers of [128, 64] bf16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- ring b: 4 buffers of [128, 64] bf16 (the loads run 3 iteration(s) ahead), read by partition(s) 0
- shared memory: 131216 bytes planned of 232448; maxnreg 128
- tile loop: the kernel's own (its bounds and grid as written), kept around each partition's loop; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one; the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one program per SM, so a second CTA has no tile to run)

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
def consumer_0(a_ptr, b_ptr, c_ptr, indices_ptr, twill_box_a, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    start_pid = gl.program_id(0)
    tile_id_c = start_pid - 132
    tile_id_c_9 = tile_id_c
    twill_base = 0
    for tile_id in range(start_pid, 2048, 132):
        group_id = tile_id // 1024
        first_pid_m = group_id * 32
        group_size_m = 64 - first_pid_m
        group_size_m_10 = gl.minimum(group_size_m, 32)
        pid_m = tile_id % group_size_m_10
        pid_m_11 = first_pid_m + pid_m
        m_start = pid_m_11 * 128
        v0 = m_start < 8192
        if v0:
            group_id = tile_id // 1024
            first_pid_m = group_id * 32
            group_size_m = 64 - first_pid_m
            group_size_m_10 = gl.minimum(group_size_m, 32)
            pid_m = tile_id % group_size_m_10
            pid_m_11 = first_pid_m + pid_m
            pid_n = tile_id % 1024
            pid_n_12 = pid_n // group_size_m_10
            m_start = pid_m_11 * 128
            n_start = pid_n_12 * 128
            offs_m = gl.arange(0, 128, layout=L0)
            offs_m_13 = gl.arange(0, 128, layout=L1)
            offs_m_14 = gl.arange(0, 128, layout=L2)
            offs_m_16 = m_start + offs_m
            offs_n_17 = n_start + offs_m
            offs_k = gl.arange(0, 64, layout=L3)
            mask_m = offs_m_16 < 8192
            mask_n = offs_n_17 < 4096
            mask_a = gl.expand_dims(mask_m, 1)
            mask_a_18 = mask_a.broadcast_to([128, 64])
            mask_b = gl.expand_dims(mask_n, 1)
            mask_b_19 = mask_b.broadcast_to([128, 64])
            twill_n = (32 - 0 + 1 - 1) // 1
            accumulator_75 = gl.full([128, 128], 0.0, gl.float32, layout=L4)
            offs_k_61 = (0 + (0 - 0) * 1) * 64  # elementwise0_mask_a: stage 0, partition 0 (group 0)
            offs_k_62 = offs_k_61  # elementwise0_mask_a: stage 0, partition 0 (group 0)
            offs_k_63 = offs_k_62 + offs_k  # elementwise0_mask_a: stage 0, partition 0 (group 0)
            mask_k = offs_k_63 < 2048  # elementwise0_mask_a: stage 0, partition 0 (group 0)
            mask_a_64 = gl.expand_dims(mask_k, 0)  # elementwise0_mask_a: stage 0, partition 0 (group 0)
            mask_a_65 = mask_a_64.broadcast_to([128, 64])  # elementwise0_mask_a: stage 0, partition 0 (group 0)
            mask_a_66 = mask_a_18 & mask_a_65  # elementwise0_mask_a: stage 0, partition 0 (group 0)
            mask_b_67 = mask_b_19 & mask_a_65  # elementwise1_mask_b: stage 0, partition 0 (group 0)
            accumulator_75_p1 = accumulator_75
            for twill_b in range(1, twill_n):
                offs_k_61 = (0 + (twill_b - 0) * 1) * 64  # elementwise0_mask_a: stage 0, partition 0 (group 0)
                offs_k_62 = offs_k_61  # elementwise0_mask_a: stage 0, partition 0 (group 0)
                offs_k_63 = offs_k_62 + offs_k  # elementwise0_mask_a: stage 0, partition 0 (group 0)
                mask_k = offs_k_63 < 2048  # elementwise0_mask_a: stage 0, partition 0 (group 0)
                mask_a_64 = gl.expand_dims(mask_k, 0)  # elementwise0_mask_a: stage 0, partition 0 (group 0)
                mask_a_65 = mask_a_64.broadcast_to([128, 64])  # elementwise0_mask_a: stage 0, partition 0 (group 0)
                mask_a_66 = mask_a_18 & mask_a_65  # elementwise0_mask_a: stage 0, partition 0 (group 0)
                mask_b_67 = mask_b_19 & mask_a_65  # elementwise1_mask_b: stage 0, partition 0 (group 0)
                mbarrier.wait(a_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
                fence_async_shared()
                mbarrier.wait(b_ready.index((twill_base + twill_b - 1) % 4), ((twill_base + twill_b - 1) // 4) & 1)
                fence_async_shared()
                tok_accumulator_75 = warpgroup_mma(a_buf.index((twill_base + twill_b - 1) % 4), b_buf.index((twill_base + twill_b - 1) % 4).permute((1, 0)), accumulator_75_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
                warpgroup_mma_wait(1, deps=(tok_accumulator_75,))
                mbarrier.arrive(a_empty.index((twill_base + twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
                mbarrier.arrive(b_empty.index((twill_base + twill_b - 1 - 1) % 4), pred=(twill_b - 1 - 1) >= 0)
                accumulator_75 = warpgroup_mma_wait(1, deps=(tok_accumulator_75,))
                accumulator_75_p1 = accumulator_75
            mbarrier.wait(a_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
            fence_async_shared()
            mbarrier.wait(b_ready.index((twill_base + (twill_n - 1 + 1) - 1) % 4), ((twill_base + (twill_n - 1 + 1) - 1) // 4) & 1)
            fence_async_shared()
            tok_accumulator_75 = warpgroup_mma(a_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4), b_buf.index((twill_base + (twill_n - 1 + 1) - 1) % 4).permute((1, 0)), accumulator_75_p1, is_async=True)  # dot0_accumulator: stage 1, partition 0 (group 0)
            warpgroup_mma_wait(1, deps=(tok_accumulator_75,))
            mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
            mbarrier.arrive(b_empty.index((twill_base + (twill_n - 1 + 1) - 1 - 1) % 4), pred=((twill_n - 1 + 1) - 1 - 1) >= 0)
            accumulator_75 = warpgroup_mma_wait(1, deps=(tok_accumulator_75,))
            accumulator_75_p1 = accumulator_75
            accumulator_75_p1 = warpgroup_mma_wait(0, deps=(accumulator_75_p1,))
            a_buf._keep_alive()
            b_buf._keep_alive()
            mbarrier.arrive(a_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
            mbarrier.arrive(b_empty.index((twill_base + (twill_n - 1 + 1) - 1) % 4))
            tile_id_c_32 = tile_id_c_9 + 132
            group_id_33 = tile_id_c_32 // 1024
            first_pid_m_34 = group_id_33 * 32
            group_size_m_35 = 64 - first_pid_m_34
            group_size_m_36 = gl.minimum(group_size_m_35, 32)
            pid_m_37 = tile_id_c_32 % group_size_m_36
            pid_m_38 = first_pid_m_34 + pid_m_37
            pid_n_39 = tile_id_c_32 % 1024
            pid_n_40 = pid_n_39 // group_size_m_36
            offs_m_41 = pid_m_38 * 128
            offs_m_43 = offs_m_41 + offs_m_13
            offs_n_44 = pid_n_40 * 128
            offs_n_46 = offs_n_44 + offs_m_14
            mask_m_47 = offs_m_43 < 8192
            mask_n_48 = offs_n_46 < 4096
            mask_c = gl.expand_dims(mask_m_47, 1)
            mask_c_49 = gl.expand_dims(mask_n_48, 0)
            mask_c_50 = mask_c.broadcast_to([128, 128])
            mask_c_51 = mask_c_49.broadcast_to([128, 128])
            mask_c_52 = mask_c_50 & mask_c_51
            c_ptrs = gl.expand_dims(offs_m_43, 1)
            c_ptrs_53 = c_ptrs * 4096
            c_ptrs_55 = c_ptr + c_ptrs_53
            c_ptrs_56 = gl.expand_dims(offs_n_46, 0)
            c_ptrs_57 = c_ptrs_55.broadcast_to([128, 128])
            c_ptrs_58 = c_ptrs_56.broadcast_to([128, 128])
            c_ptrs_59 = c_ptrs_57 + c_ptrs_58
            v2 = accumulator_75_p1.to(gl.bfloat16)
            v3 = gl.convert_layout(v2, L5)
            gl.store(c_ptrs_59, v3, mask=mask_c_52)
            v1 = tile_id_c_32
            twill_base += twill_n
        else:
            v1 = tile_id_c_9
        tile_id_c_9 = v1

@gluon.jit
def producer_1(a_ptr, b_ptr, c_ptr, indices_ptr, twill_box_a, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    start_pid = gl.program_id(0)
    tile_id_c = start_pid - 132
    tile_id_c_9 = tile_id_c
    twill_base = 0
    for tile_id in range(start_pid, 2048, 132):
        group_id = tile_id // 1024
        first_pid_m = group_id * 32
        group_size_m = 64 - first_pid_m
        group_size_m_10 = gl.minimum(group_size_m, 32)
        pid_m = tile_id % group_size_m_10
        pid_m_11 = first_pid_m + pid_m
        m_start = pid_m_11 * 128
        v0 = m_start < 8192
        if v0:
            group_id = tile_id // 1024
            first_pid_m = group_id * 32
            group_size_m = 64 - first_pid_m
            group_size_m_10 = gl.minimum(group_size_m, 32)
            pid_m = tile_id % group_size_m_10
            pid_m_11 = first_pid_m + pid_m
            pid_n = tile_id % 1024
            pid_n_12 = pid_n // group_size_m_10
            m_start = pid_m_11 * 128
            n_start = pid_n_12 * 128
            offs_m = gl.arange(0, 128, layout=L0)
            offs_m_16 = m_start + offs_m
            offs_n_17 = n_start + offs_m
            offs_k = gl.arange(0, 64, layout=L3)
            mask_m = offs_m_16 < 8192
            mask_n = offs_n_17 < 4096
            mask_a = gl.expand_dims(mask_m, 1)
            mask_a_18 = mask_a.broadcast_to([128, 64])
            mask_b = gl.expand_dims(mask_n, 1)
            mask_b_19 = mask_b.broadcast_to([128, 64])
            group_idx = m_start // 128
            expert_idx = group_idx * 128
            expert_idx_20 = indices_ptr + expert_idx
            expert_idx_21 = gl.load(expert_idx_20)
            a_ptrs = gl.expand_dims(offs_m_16, 1)
            a_ptrs_22 = a_ptrs * 2048
            a_ptrs_24 = a_ptr + a_ptrs_22
            a_ptrs_25 = a_ptrs_24.broadcast_to([128, 64])
            b_ptrs = expert_idx_21 * 8388608
            b_ptrs_26 = b_ptr + b_ptrs
            b_ptrs_27 = gl.expand_dims(offs_n_17, 1)
            b_ptrs_28 = b_ptrs_27 * 2048
            b_ptrs_30 = b_ptrs_26 + b_ptrs_28
            b_ptrs_31 = b_ptrs_30.broadcast_to([128, 64])
            for accumulator_60 in range(0, 32, 1):
                twill_k = twill_base + (accumulator_60 - 0) // 1
                offs_k_61 = accumulator_60 * 64
                offs_k_63 = offs_k_61 + offs_k
                mask_k = offs_k_63 < 2048
                mask_a_64 = gl.expand_dims(mask_k, 0)
                mask_a_65 = mask_a_64.broadcast_to([128, 64])
                mask_a_66 = mask_a_18 & mask_a_65
                mask_b_67 = mask_b_19 & mask_a_65
                a_ptrs_68 = gl.expand_dims(offs_k_63, 0)
                a_ptrs_69 = a_ptrs_68.broadcast_to([128, 64])
                a_ptrs_70 = a_ptrs_25 + a_ptrs_69
                b_ptrs_72 = b_ptrs_31 + a_ptrs_69
                mbarrier.wait(a_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
                if TWILL_TMA:
                    mbarrier.expect(a_ready.index(twill_k % 4), twill_box_a.block_type.nbytes)
                    tma.async_copy_global_to_shared(twill_box_a, [4096 * group_id + 128 * pid_m, 64 * accumulator_60], a_ready.index(twill_k % 4), a_buf.index(twill_k % 4))  # load0_a: a TMA box (boxes)
                else:
                    if TWILL_COPY:
                        async_copy.async_copy_global_to_shared(a_buf.index(twill_k % 4), a_ptrs_70, mask=mask_a_66)  # load0_a: stage 0, partition 1 (group 1)
                        async_copy.mbarrier_arrive(a_ready.index(twill_k % 4), increment_count=False)
                    else:
                        a_buf.index(twill_k % 4).store(gl.load(a_ptrs_70, mask=mask_a_66, other=0.0))  # load0_a: stage 0, partition 1 (group 1)
                        fence_async_shared()
                        gl.thread_barrier()
                        mbarrier.arrive(a_ready.index(twill_k % 4), count=256)
                mbarrier.wait(b_empty.index(twill_k % 4), ((twill_k // 4) & 1) ^ 1)
                if TWILL_COPY:
                    async_copy.async_copy_global_to_shared(b_buf.index(twill_k % 4), b_ptrs_72, mask=mask_b_67)  # load1_b: stage 0, partition 1 (group 1)
                    async_copy.mbarrier_arrive(b_ready.index(twill_k % 4), increment_count=False)
                else:
                    b_buf.index(twill_k % 4).store(gl.load(b_ptrs_72, mask=mask_b_67, other=0.0))  # load1_b: stage 0, partition 1 (group 1)
                    fence_async_shared()
                    gl.thread_barrier()
                    mbarrier.arrive(b_ready.index(twill_k % 4), count=256)
            twill_trips = (32 - 0 + 1 - 1) // 1
            tile_id_c_32 = tile_id_c_9 + 132
            v1 = tile_id_c_32
            twill_base += twill_trips
        else:
            v1 = tile_id_c_9
        tile_id_c_9 = v1

@gluon.jit
def twill_kernel(a_ptr, b_ptr, c_ptr, indices_ptr, twill_box_a, TWILL_COPY: gl.constexpr, TWILL_TMA: gl.constexpr):
    a_buf = gl.allocate_shared_memory(gl.bfloat16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    b_buf = gl.allocate_shared_memory(gl.bfloat16, [4, 128, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    a_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_ready.index(i), count=1 if TWILL_TMA else 256)
    a_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(a_empty.index(i), count=1)
    b_ready = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_ready.index(i), count=256)
    b_empty = gl.allocate_shared_memory(gl.int64, [4, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(4):
        mbarrier.init(b_empty.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (a_ptr, b_ptr, c_ptr, indices_ptr, twill_box_a, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY, TWILL_TMA)),
        (producer_1, (a_ptr, b_ptr, c_ptr, indices_ptr, twill_box_a, a_buf, b_buf, a_ready, a_empty, b_ready, b_empty, TWILL_COPY, TWILL_TMA)),
    ], [8], [64])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['a_ptr', 'b_ptr', 'c_ptr', 'indices_ptr', 'M_TOTAL', 'N', 'K', 'NUM_EXPERTS', 'BLOCK_SIZE_M', 'BLOCK_SIZE_N', 'BLOCK_SIZE_K', 'NUM_SMS', 'GROUP_SIZE_M', 'SUPER_GROUP_M']          # the Triton kernel's parameters, in order
RUNTIME = ['a_ptr', 'b_ptr', 'c_ptr', 'indices_ptr', 'twill_box_a']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY', 'TWILL_TMA']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['a_ptr', 'b_ptr', 'c_ptr', 'indices_ptr']   # the arguments a launch key reads
CONSTEXPRS = {'M_TOTAL': 8192, 'N': 4096, 'K': 2048, 'NUM_EXPERTS': 8, 'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 64, 'NUM_SMS': 132, 'GROUP_SIZE_M': 128, 'SUPER_GROUP_M': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {'twill_box_a': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])'}
POINTER_BOXES = {'twill_box_a': ('a_ptr', ['2048', '1'], ['8192', '2048'], [128, 64], [])}   # pointer tiles as TMA boxes: (base, strides, extents, block, checks)
TMA_BOXES = True   # False: copy them with cp.async at every launch
NUM_WARPS = 8
MAXNREG = 128
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
