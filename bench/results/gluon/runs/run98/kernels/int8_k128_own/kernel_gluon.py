"""_int8_matmul_rowwise_dequantize, written by twill from its joint schedule: I=195 L=169 (optimal), 1920 cycles per iteration predicted.

Decisions (each from the schedule):
- wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads (a_104_ring: 4 x 16384 B, issued 2 iteration(s) ahead, b_105_ring: 4 x 32768 B, issued 2 iteration(s) ahead): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: runs 89, 92)
- wgmma waits: an accumulation's previous wgmma retired under the next one's token (with its result named, ptxas serialised the wgmmas)
- one partition, no producer (the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads, as Triton's one partition does: where cp.async cannot copy them at any launch (no address known aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two iterations a CTA, or --own-tiles on asks, 2 stage(s) ahead of their readers; 3 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 168 per thread)
- persistent (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue): one CTA per SM (grid min(tiles, SMs)) loops over the launch grid's tiles, axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands while the consumers finish this one
- shared memory: 196624 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L2 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L3 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 32])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 16], threads_per_warp=[4, 8], warps_per_cta=[8, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[16, 1], threads_per_warp=[8, 4], warps_per_cta=[1, 8], order=[0, 1])))
L6 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0])))
L7 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))
L8 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 1], threads_per_warp=[1, 32], warps_per_cta=[1, 8], order=[1, 0])))
L9 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[8, 1], instr_shape=[16, 128, 32]))
L10 = gl.constexpr(gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 2], order=[1, 0]))
L11 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 2], order=[1, 0])))
L12 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[1, 32], warps_per_cta=[8, 1], order=[1, 0]))

@gluon.jit
def consumer_0(A, B, C, bias, state_x_ptr, state_w_ptr, M, N, K, divfactor, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    twill_base = 0
    for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):
        twill_pid0 = twill_tile % twill_g0
        twill_pid1 = (twill_tile // twill_g0) % twill_g1
        pid = twill_pid0
        pid_z = twill_pid1
        grid_m = M + 127
        grid_m_2 = grid_m // 128
        grid_n_3 = N + 255
        grid_n_4 = grid_n_3 // 256
        width = grid_n_4 * 8
        group_id = pid // width
        group_size = group_id * 8
        group_size_5 = grid_m_2 - group_size
        group_size_6 = gl.minimum(group_size_5, 8)
        pid_m = pid % group_size_6
        pid_m_7 = group_size + pid_m
        pid_n = pid % width
        pid_n_8 = pid_n // group_size_6
        rm = pid_m_7 * 128
        rm_9 = gl.arange(0, 128, layout=L0)
        rm_10 = gl.arange(0, 128, layout=L1)
        rm_11 = gl.arange(0, 128, layout=L2)
        rm_12 = gl.arange(0, 128, layout=L3)
        rm_13 = gl.arange(0, 128, layout=L4)
        rm_17 = rm + rm_9
        rm_18 = rm + rm_12
        rm_19 = rm + rm_11
        rn = pid_n_8 * 256
        rn_20 = gl.arange(0, 256, layout=L5)
        rn_21 = gl.arange(0, 256, layout=L6)
        rn_22 = gl.arange(0, 256, layout=L7)
        rn_26 = rn + rn_20
        rn_27 = rn + rn_21
        rn_28 = rn + rn_22
        ram_31 = rm_17 % M
        ram_31 = gl.max_contiguous(gl.multiple_of(ram_31, [128]), [128])
        ram_32 = rm_18 % M
        ram_32 = gl.max_contiguous(gl.multiple_of(ram_32, [128]), [128])
        rbn_35 = rn_26 % N
        rbn_35 = gl.max_contiguous(gl.multiple_of(rbn_35, [256]), [256])
        rbn_36 = rn_28 % N
        rbn_36 = gl.max_contiguous(gl.multiple_of(rbn_36, [256]), [256])
        rk = pid_z * 128
        rk_39 = rk + rm_13
        rk_40 = rk + rm_10
        A_41 = gl.expand_dims(ram_31, 1)
        A_43 = A_41 * stride_am
        A_44 = gl.expand_dims(rk_39, 0)
        A_45 = A_43.broadcast_to([128, 128])
        A_46 = A_44.broadcast_to([128, 128])
        A_47 = A_45 + A_46
        A_49 = A + A_47
        B_50 = gl.expand_dims(rk_40, 1)
        B_51 = gl.expand_dims(rbn_35, 0)
        B_53 = B_51 * stride_bn
        B_54 = B_50.broadcast_to([128, 256])
        B_55 = B_53.broadcast_to([128, 256])
        B_56 = B_54 + B_55
        B_58 = B + B_56
        w_factor_59 = state_w_ptr + rbn_36
        w_factor_60 = gl.load(w_factor_59)
        acc = gl.convert_layout(w_factor_60, L8)
        w_factor_61 = gl.expand_dims(acc, 0)
        x_factor_62 = state_x_ptr + ram_32
        x_factor_63 = gl.load(x_factor_62)
        x_factor_64 = gl.expand_dims(x_factor_63, 1)
        v0 = K + 127
        v1 = v0 // 128
        twill_n = (v1 - 0 + 1 - 1) // 1
        if (twill_n >= 2) | (gl.program_id(0) < 0):
            a_104_ring = gl.allocate_shared_memory(gl.int8, [4, 128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False))
            b_105_ring = gl.allocate_shared_memory(gl.int8, [4, 128, 256], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True))
            A_107 = A_49
            B_108 = B_58
            A_107_p1 = A_107
            B_108_p1 = B_108
            A_107 = A_107_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
            B_108 = B_108_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_104_ring.index((twill_base + 0 - 0) % 4), A_107_p1)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_104_ring.index((twill_base + 0 - 0) % 4).store(gl.load(A_107_p1))  # load0_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_105_ring.index((twill_base + 0 - 0) % 4), B_108_p1)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_105_ring.index((twill_base + 0 - 0) % 4).store(gl.load(B_108_p1))  # load1_b: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            A_107_p1 = A_107
            B_108_p1 = B_108
            acc_106 = gl.full([128, 256], 0, gl.int32, layout=L9)
            A_107 = A_107_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
            B_108 = B_108_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(a_104_ring.index((twill_base + 1 - 0) % 4), A_107_p1)  # load0_a: stage 0, partition 0 (group 0)
            else:  # load0_a: stage 0, partition 0 (group 0)
                a_104_ring.index((twill_base + 1 - 0) % 4).store(gl.load(A_107_p1))  # load0_a: stage 0, partition 0 (group 0)
                fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(b_105_ring.index((twill_base + 1 - 0) % 4), B_108_p1)  # load1_b: stage 0, partition 0 (group 0)
            else:  # load1_b: stage 0, partition 0 (group 0)
                b_105_ring.index((twill_base + 1 - 0) % 4).store(gl.load(B_108_p1))  # load1_b: stage 0, partition 0 (group 0)
                fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
            async_copy.commit_group()
            A_107_p1 = A_107
            B_108_p1 = B_108
            acc_106_p1 = acc_106
            for twill_b in range(2, twill_n):
                async_copy.wait_group(1)
                gl.thread_barrier()
                a_104 = a_104_ring.index((twill_base + twill_b - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
                b_105 = b_105_ring.index((twill_base + twill_b - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
                A_107 = A_107_p1 + 128  # load0_a: stage 0, partition 0 (group 0)
                B_108 = B_108_p1 + 128  # load1_b: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load0_a: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(a_104_ring.index((twill_base + twill_b - 0) % 4), A_107_p1)  # load0_a: stage 0, partition 0 (group 0)
                else:  # load0_a: stage 0, partition 0 (group 0)
                    a_104_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(A_107_p1))  # load0_a: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load0_a: stage 0, partition 0 (group 0)
                if TWILL_COPY:  # load1_b: stage 0, partition 0 (group 0)
                    async_copy.async_copy_global_to_shared(b_105_ring.index((twill_base + twill_b - 0) % 4), B_108_p1)  # load1_b: stage 0, partition 0 (group 0)
                else:  # load1_b: stage 0, partition 0 (group 0)
                    b_105_ring.index((twill_base + twill_b - 0) % 4).store(gl.load(B_108_p1))  # load1_b: stage 0, partition 0 (group 0)
                    fence_async_shared()  # load1_b: stage 0, partition 0 (group 0)
                tok_acc_106 = warpgroup_mma(a_104, b_105, acc_106_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
                async_copy.commit_group()
                warpgroup_mma_wait(1, deps=(tok_acc_106,))
                acc_106 = warpgroup_mma_wait(1, deps=(tok_acc_106,))
                A_107_p1 = A_107
                B_108_p1 = B_108
                acc_106_p1 = acc_106
            async_copy.wait_group(1)
            gl.thread_barrier()
            a_104 = a_104_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
            b_105 = b_105_ring.index((twill_base + (twill_n - 1 + 1) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
            tok_acc_106 = warpgroup_mma(a_104, b_105, acc_106_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_acc_106,))
            acc_106 = warpgroup_mma_wait(1, deps=(tok_acc_106,))
            A_107_p2 = A_107_p1
            A_107_p1 = A_107
            B_108_p2 = B_108_p1
            B_108_p1 = B_108
            acc_106_p1 = acc_106
            async_copy.wait_group(1)
            gl.thread_barrier()
            a_104 = a_104_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load0_a: stage 2, partition 0 (group 0)
            b_105 = b_105_ring.index((twill_base + (twill_n - 1 + 2) - 2) % 4)  # load1_b: stage 2, partition 0 (group 0)
            tok_acc_106 = warpgroup_mma(a_104, b_105, acc_106_p1, is_async=True)  # dot0_acc: stage 2, partition 0 (group 0)
            async_copy.commit_group()
            warpgroup_mma_wait(1, deps=(tok_acc_106,))
            acc_106 = warpgroup_mma_wait(1, deps=(tok_acc_106,))
            A_107_p3 = A_107_p2
            A_107_p2 = A_107_p1
            A_107_p1 = A_107
            B_108_p3 = B_108_p2
            B_108_p2 = B_108_p1
            B_108_p1 = B_108
            acc_106_p1 = acc_106
            acc_106_p1 = warpgroup_mma_wait(0, deps=(acc_106_p1,))
            a_104_ring._keep_alive()
            b_105_ring._keep_alive()
        else:
            arg14_w = gl.full([128, 256], 0, gl.int32, layout=L9)
            A_102_w = A_49
            B_103_w = B_58
            for acc_101_w in range(0, v1, 1):
                a_w = gl.load(A_102_w)
                a_104_w = gl.allocate_shared_memory(gl.int8, [128, 128], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=False), a_w)
                fence_async_shared()
                b_w = gl.load(B_103_w)
                b_105_w = gl.allocate_shared_memory(gl.int8, [128, 256], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=8, rank=2, transposed=True), b_w)
                fence_async_shared()
                acc_106_w = warpgroup_mma(a_104_w, b_105_w, arg14_w)
                A_107_w = A_102_w + 128
                B_108_w = B_103_w + 128
                arg14_w = acc_106_w
                A_102_w = A_107_w
                B_103_w = B_108_w
            acc_106_p1 = arg14_w
            A_107_p3 = A_102_w
            B_108_p3 = B_103_w
        acc_66 = acc_106_p1.to(gl.float32)
        acc_68 = acc_66 * divfactor
        acc_69 = x_factor_64.to(gl.float32)
        acc_70 = acc_69.broadcast_to([128, 256])
        acc_71 = acc_70 * acc_68
        acc_72 = gl.convert_layout(w_factor_61, L10)
        acc_73 = acc_72.to(gl.float32)
        acc_74 = gl.convert_layout(acc_73, L9)
        acc_75 = acc_74.broadcast_to([128, 256])
        acc_76 = acc_75 * acc_71
        acc_77 = acc_76.to(gl.float16)
        bias_79 = bias + rn_28
        bias_80 = gl.load(bias_79)
        acc_81 = gl.convert_layout(bias_80, L11)
        acc_82 = gl.expand_dims(acc_81, 0)
        acc_83 = acc_82.broadcast_to([128, 256])
        acc_84 = gl.convert_layout(acc_82, L9).broadcast_to([128, 256])
        acc_85 = acc_77 + acc_84
        C_86 = gl.expand_dims(rm_19, 1)
        C_88 = C_86 * stride_cm
        C_89 = gl.expand_dims(rn_27, 0)
        C_90 = C_88.broadcast_to([128, 256])
        C_91 = C_89.broadcast_to([128, 256])
        C_92 = C_90 + C_91
        C_94 = C + C_92
        mask = rm_19 < M
        mask_95 = gl.expand_dims(mask, 1)
        mask_96 = rn_27 < N
        mask_97 = gl.expand_dims(mask_96, 0)
        mask_98 = mask_95.broadcast_to([128, 256])
        mask_99 = mask_97.broadcast_to([128, 256])
        mask_100 = mask_98 & mask_99
        v2 = gl.convert_layout(acc_85, L12)
        gl.store(C_94, v2, mask=mask_100)
        twill_base += twill_n

@gluon.jit
def twill_kernel(A, B, C, bias, state_x_ptr, state_w_ptr, M, N, K, divfactor, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, TWILL_COPY: gl.constexpr):
    consumer_0(A, B, C, bias, state_x_ptr, state_w_ptr, M, N, K, divfactor, stride_am, stride_bn, stride_cm, twill_g0, twill_g1, twill_g2, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['A', 'B', 'C', 'bias', 'state_x_ptr', 'state_w_ptr', 'M', 'N', 'K', 'divfactor', 'has_bias', 'stride_am', 'stride_ak', 'stride_bk', 'stride_bn', 'stride_cm', 'stride_cn', 'BLOCK_M', 'BLOCK_N', 'BLOCK_K', 'GROUP_M', 'SPLIT_K', 'EVEN_K', 'ACC_TYPE']          # the Triton kernel's parameters, in order
RUNTIME = ['A', 'B', 'C', 'bias', 'state_x_ptr', 'state_w_ptr', 'M', 'N', 'K', 'divfactor', 'stride_am', 'stride_bn', 'stride_cm', 'twill_g0', 'twill_g1', 'twill_g2']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['A', 'B', 'C', 'bias', 'state_x_ptr', 'state_w_ptr', 'M', 'N', 'K', 'divfactor', 'stride_am', 'stride_bn', 'stride_cm', 'ACC_TYPE', 'twill_g0', 'twill_g1', 'twill_g2']   # the arguments a launch key reads
CONSTEXPRS = {'has_bias': 1, 'stride_ak': 1, 'stride_bk': 1, 'stride_cn': 1, 'BLOCK_M': 128, 'BLOCK_N': 256, 'BLOCK_K': 128, 'GROUP_M': 8, 'SPLIT_K': 1, 'EVEN_K': True}         # the specialisation this kernel was generated for
HEURISTICS = {'EVEN_K': "lambda args: args['K'] % (args['BLOCK_K'] * args['SPLIT_K']) == 0"}   # @triton.heuristics of the kernel: each checked per launch key
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
MAXNREG = None
PERSISTENT = True      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['A', 'B', 'M', 'N', 'stride_am', 'stride_bn']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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

_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _HEUR.get(name)
        if fn is None:
            try:
                import math
                import torch
                import triton
                import triton.language as tl
                fn = eval(src, {"torch": torch, "triton": triton, "tl": tl, "math": math})
            except Exception:     # noqa: BLE001 - names of the kernel's module: not checked
                fn = False
            _HEUR[name] = fn
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


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
    _heuristics(bound)
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


class _Kernel:
    """``kernel[grid](*args)``, as the Triton kernel is called."""

    def __getitem__(self, grid):
        return lambda *args, **kwargs: launch(grid, *args, **kwargs)


kernel = _Kernel()
