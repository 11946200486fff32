"""_attn_fwd, written by twill from its joint schedule: I=284 L=556 (optimal), 736 cycles per iteration predicted.

Decisions (each from the schedule):
- two CTAs per SM: the partitions' registers (154, 0 needed per thread) fit half the register file, so the launch's limit is 128 (run 29e: chunk_state 1.26x with two CTAs against one)
- partition 0 (default): consumer, warp group 0, 4 warps, 224 registers per thread (needs about 154): the loop's compute, 2 stages
- partition 1 (worker): producer, warp group 1, 1 warps, 24 registers per thread (needs about 0): TMA loads into the rings
- ring k: 3 buffers of [64, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- ring v: 3 buffers of [64, 64] f16 (the loads run 2 iteration(s) ahead), read by partition(s) 0
- shared memory: 65664 bytes planned of 232448; maxnreg 128

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])))
L2 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[4], order=[0]))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))
L4 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L5 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2))
L6 = gl.constexpr(gl.SliceLayout(0, gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 1, 1, 8], threads_per_warp=[1, 1, 4, 8], warps_per_cta=[1, 1, 4, 1], order=[3, 2, 1, 0]))))

@gluon.jit
def consumer_0(Q, K, V, Sinks, sm_scale, M, Out, Start_q, Z, H, N_Q_CTX, N_KV_CTX, k_buf, v_buf, q_c0_buf, k_ready, k_empty, v_ready, v_empty, q_c0_bar):
    start_q = gl.load(Start_q)
    start_m = gl.program_id(0)
    off_hz = gl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    sink = Sinks + off_h
    sink_36 = gl.load(sink)
    offs_m = start_m * 64
    offs_m_37 = gl.arange(0, 64, layout=L0)
    offs_m_38 = gl.arange(0, 64, layout=L1)
    offs_m_39 = gl.arange(0, 64, layout=L2)
    offs_m_42 = offs_m + offs_m_38
    offs_m_43 = offs_m + offs_m_39
    m_i_44 = sink_36 + 0.0
    mbarrier.expect(q_c0_bar.index(0), Q.block_type.nbytes)
    tma.async_copy_global_to_shared(Q, [off_z, off_h, offs_m, 0], q_c0_bar.index(0), q_c0_buf)
    mbarrier.wait(q_c0_bar.index(0), 0)
    v0 = start_q + offs_m
    v1 = v0 - 128
    v2 = gl.maximum(v1, 0)
    v3 = start_m + 1
    v4 = v3 * 64
    v5 = start_q + v4
    mask_47 = start_q + offs_m_42
    mask_48 = gl.expand_dims(mask_47, 1)
    mask_49 = mask_48.broadcast_to([64, 64])
    too_old = gl.expand_dims(offs_m_37, 0)
    too_old_50 = gl.expand_dims(offs_m_42, 1)
    too_old_52 = start_q + too_old_50
    too_old_53 = too_old_52 - 128
    too_old_54 = too_old_53 + 1
    too_old_55 = too_old_54.broadcast_to([64, 64])
    twill_n = gl.maximum((v5 - v2 + 64 - 1) // 64, 0)
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        m_ij_89 = gl.full([64], m_i_44, gl.float32, layout=L1)
        m_ij_89_p1 = m_ij_89
        l_i_101 = gl.full([64], 0.0, gl.float32, layout=L1)
        acc_100 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
        mbarrier.wait(k_ready.index((0 - 0) % 3), ((0 - 0) // 3) & 1)
        tok_qk_85 = warpgroup_mma(q_c0_buf.reshape([64, 64]), k_buf.index((0 - 0) % 3).reshape([64, 64]).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
        mask_73 = (v2 + (0 - 0) * 64)  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_74 = mask_73 + offs_m_37  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_75 = gl.expand_dims(mask_74, 0)  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_76 = mask_75.broadcast_to([64, 64])  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_77 = mask_76 > mask_49  # elementwise0_mask: stage 0, partition 0 (group 0)
        too_old_78 = (v2 + (0 - 0) * 64)  # elementwise0_mask: stage 0, partition 0 (group 0)
        too_old_79 = too_old_78 + too_old  # elementwise0_mask: stage 0, partition 0 (group 0)
        too_old_80 = too_old_79.broadcast_to([64, 64])  # elementwise0_mask: stage 0, partition 0 (group 0)
        too_old_81 = too_old_80 < too_old_55  # elementwise0_mask: stage 0, partition 0 (group 0)
        mask_82 = mask_77 | too_old_81  # elementwise0_mask: stage 0, partition 0 (group 0)
        qk_85 = warpgroup_mma_wait(0, deps=(tok_qk_85,))
        mbarrier.arrive(k_empty.index((0 - 0) % 3))
        qk_86 = qk_85 * sm_scale  # elementwise0_mask: stage 0, partition 0 (group 0)
        qk_87 = gl.where(mask_82, -1000000.0, 0.0)  # elementwise0_mask: stage 0, partition 0 (group 0)
        qk_88 = qk_86 + qk_87  # elementwise0_mask: stage 0, partition 0 (group 0)
        m_ij = gl.max(qk_88, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
        m_ij_89 = gl.maximum(m_ij_89_p1, m_ij)  # elementwise1_m_ij: stage 0, partition 0 (group 0)
        alpha = m_ij_89_p1 - m_ij_89  # sfu1_alpha: stage 0, partition 0 (group 0)
        alpha_93 = gl.exp(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
        acc_94 = gl.expand_dims(alpha_93, 1)  # elementwise2_acc: stage 0, partition 0 (group 0)
        acc_95 = acc_94.broadcast_to([64, 64])  # elementwise2_acc: stage 0, partition 0 (group 0)
        acc_96 = acc_100 * acc_95  # elementwise2_acc: stage 0, partition 0 (group 0)
        acc_96_p1 = acc_96
        alpha_93_p1 = alpha_93
        l_i_101_p1 = l_i_101
        m_ij_89_p1 = m_ij_89
        qk_88_p1 = qk_88
        for twill_b in range(1, twill_n):
            mbarrier.wait(k_ready.index((twill_b - 0) % 3), ((twill_b - 0) // 3) & 1)
            tok_qk_85 = warpgroup_mma(q_c0_buf.reshape([64, 64]), k_buf.index((twill_b - 0) % 3).reshape([64, 64]).permute((1, 0)), gl.full([64, 64], 0.0, gl.float32, layout=L4), use_acc=False, is_async=True)  # dot0_qk: stage 0, partition 0 (group 0)
            qk_90 = gl.expand_dims(m_ij_89_p1, 1)  # sfu0_p: stage 1, partition 0 (group 0)
            qk_91 = qk_90.broadcast_to([64, 64])  # sfu0_p: stage 1, partition 0 (group 0)
            qk_92 = qk_88_p1 - qk_91  # sfu0_p: stage 1, partition 0 (group 0)
            p = gl.exp(qk_92)  # sfu0_p: stage 1, partition 0 (group 0)
            mask_73 = (v2 + (twill_b - 0) * 64)  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_74 = mask_73 + offs_m_37  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_75 = gl.expand_dims(mask_74, 0)  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_76 = mask_75.broadcast_to([64, 64])  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_77 = mask_76 > mask_49  # elementwise0_mask: stage 0, partition 0 (group 0)
            too_old_78 = (v2 + (twill_b - 0) * 64)  # elementwise0_mask: stage 0, partition 0 (group 0)
            too_old_79 = too_old_78 + too_old  # elementwise0_mask: stage 0, partition 0 (group 0)
            too_old_80 = too_old_79.broadcast_to([64, 64])  # elementwise0_mask: stage 0, partition 0 (group 0)
            too_old_81 = too_old_80 < too_old_55  # elementwise0_mask: stage 0, partition 0 (group 0)
            mask_82 = mask_77 | too_old_81  # elementwise0_mask: stage 0, partition 0 (group 0)
            qk_85 = warpgroup_mma_wait(0, deps=(tok_qk_85,))
            mbarrier.arrive(k_empty.index((twill_b - 0) % 3))
            qk_86 = qk_85 * sm_scale  # elementwise0_mask: stage 0, partition 0 (group 0)
            qk_87 = gl.where(mask_82, -1000000.0, 0.0)  # elementwise0_mask: stage 0, partition 0 (group 0)
            qk_88 = qk_86 + qk_87  # elementwise0_mask: stage 0, partition 0 (group 0)
            p_98 = p.to(gl.float16)  # convert0_p: stage 1, partition 0 (group 0)
            p_99 = gl.convert_layout(p_98, L5)  # convert0_p: stage 1, partition 0 (group 0)
            mbarrier.wait(v_ready.index((twill_b - 1) % 3), ((twill_b - 1) // 3) & 1)
            tok_acc_100 = warpgroup_mma(p_99, v_buf.index((twill_b - 1) % 3).reshape([64, 64]), acc_96_p1, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
            l_ij = gl.sum(p, axis=1)  # reduce1_l_ij: stage 1, partition 0 (group 0)
            m_ij = gl.max(qk_88, axis=1)  # reduce0_m_ij: stage 0, partition 0 (group 0)
            m_ij_89 = gl.maximum(m_ij_89_p1, m_ij)  # elementwise1_m_ij: stage 0, partition 0 (group 0)
            alpha = m_ij_89_p1 - m_ij_89  # sfu1_alpha: stage 0, partition 0 (group 0)
            alpha_93 = gl.exp(alpha)  # sfu1_alpha: stage 0, partition 0 (group 0)
            l_i = l_i_101_p1 * alpha_93_p1  # elementwise3_l_i: stage 1, partition 0 (group 0)
            l_i_101 = l_i + l_ij  # elementwise3_l_i: stage 1, partition 0 (group 0)
            acc_94 = gl.expand_dims(alpha_93, 1)  # elementwise2_acc: stage 0, partition 0 (group 0)
            acc_95 = acc_94.broadcast_to([64, 64])  # elementwise2_acc: stage 0, partition 0 (group 0)
            acc_100 = warpgroup_mma_wait(0, deps=(tok_acc_100,))
            mbarrier.arrive(v_empty.index((twill_b - 1) % 3))
            acc_96 = acc_100 * acc_95  # elementwise2_acc: stage 0, partition 0 (group 0)
            acc_96_p1 = acc_96
            alpha_93_p1 = alpha_93
            l_i_101_p1 = l_i_101
            m_ij_89_p1 = m_ij_89
            qk_88_p1 = qk_88
        qk_90 = gl.expand_dims(m_ij_89_p1, 1)  # sfu0_p: stage 1, partition 0 (group 0)
        qk_91 = qk_90.broadcast_to([64, 64])  # sfu0_p: stage 1, partition 0 (group 0)
        qk_92 = qk_88_p1 - qk_91  # sfu0_p: stage 1, partition 0 (group 0)
        p = gl.exp(qk_92)  # sfu0_p: stage 1, partition 0 (group 0)
        p_98 = p.to(gl.float16)  # convert0_p: stage 1, partition 0 (group 0)
        p_99 = gl.convert_layout(p_98, L5)  # convert0_p: stage 1, partition 0 (group 0)
        mbarrier.wait(v_ready.index(((twill_n - 1 + 1) - 1) % 3), (((twill_n - 1 + 1) - 1) // 3) & 1)
        tok_acc_100 = warpgroup_mma(p_99, v_buf.index(((twill_n - 1 + 1) - 1) % 3).reshape([64, 64]), acc_96_p1, is_async=True)  # dot1_acc: stage 1, partition 0 (group 0)
        l_ij = gl.sum(p, axis=1)  # reduce1_l_ij: stage 1, partition 0 (group 0)
        l_i = l_i_101_p1 * alpha_93_p1  # elementwise3_l_i: stage 1, partition 0 (group 0)
        l_i_101 = l_i + l_ij  # elementwise3_l_i: stage 1, partition 0 (group 0)
        acc_100 = warpgroup_mma_wait(0, deps=(tok_acc_100,))
        mbarrier.arrive(v_empty.index(((twill_n - 1 + 1) - 1) % 3))
        acc_100_p1 = acc_100
        acc_96_p1 = acc_96
        alpha_93_p1 = alpha_93
        l_i_101_p1 = l_i_101
        m_ij_89_p2 = m_ij_89_p1
        m_ij_89_p1 = m_ij_89
        qk_88_p1 = qk_88
        q_c0_buf._keep_alive()
        k_buf._keep_alive()
        v_buf._keep_alive()
    else:
        m_ij_89_p2 = gl.full([64], m_i_44, gl.float32, layout=L1)
        l_i_101_p1 = gl.full([64], 0.0, gl.float32, layout=L1)
        acc_100_p1 = gl.full([64, 64], 0.0, gl.float32, layout=L4)
    sink_57 = sink_36 - m_ij_89_p2
    sink_58 = gl.exp(sink_57)
    z = l_i_101_p1 + sink_58
    acc_59 = gl.expand_dims(z, 1)
    acc_60 = acc_59.broadcast_to([64, 64])
    acc_61 = acc_100_p1 / acc_60
    m_i_62 = gl.log(l_i_101_p1)
    m_i_63 = m_ij_89_p2 + m_i_62
    m_ptrs = off_hz * N_Q_CTX
    m_ptrs_64 = M + m_ptrs
    m_ptrs_66 = m_ptrs_64 + offs_m_43
    v6 = gl.convert_layout(m_i_63, L2)
    gl.store(m_ptrs_66, v6)
    acc_67 = acc_61.to(gl.float16)
    acc_68 = gl.convert_layout(acc_67, L6)
    acc_69 = gl.expand_dims(acc_68, 0)
    acc_70 = gl.expand_dims(acc_69, 1)
    q_c0_buf.store(acc_70)
    fence_async_shared()
    tma.async_copy_shared_to_global(Out, [off_z, off_h, offs_m, 0], q_c0_buf)
    tma.store_wait(0)

@gluon.jit
def producer_1(Q, K, V, Sinks, sm_scale, M, Out, Start_q, Z, H, N_Q_CTX, N_KV_CTX, k_buf, v_buf, q_c0_buf, k_ready, k_empty, v_ready, v_empty, q_c0_bar):
    start_q = gl.load(Start_q)
    start_m = gl.program_id(0)
    off_hz = gl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    offs_m = start_m * 64
    v0 = start_q + offs_m
    v1 = v0 - 128
    v2 = gl.maximum(v1, 0)
    v3 = start_m + 1
    v4 = v3 * 64
    v5 = start_q + v4
    for acc_71 in range(v2, v5, 64):
        twill_k = (acc_71 - v2) // 64
        mbarrier.wait(k_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        mbarrier.expect(k_ready.index(twill_k % 3), K.block_type.nbytes)
        tma.async_copy_global_to_shared(K, [off_z, off_h, acc_71, 0], k_ready.index(twill_k % 3), k_buf.index(twill_k % 3))
        mbarrier.wait(v_empty.index(twill_k % 3), ((twill_k // 3) & 1) ^ 1)
        mbarrier.expect(v_ready.index(twill_k % 3), V.block_type.nbytes)
        tma.async_copy_global_to_shared(V, [off_z, off_h, acc_71, 0], v_ready.index(twill_k % 3), v_buf.index(twill_k % 3))

@gluon.jit
def twill_kernel(Q, K, V, Sinks, sm_scale, M, Out, Start_q, Z, H, N_Q_CTX, N_KV_CTX):
    k_buf = gl.allocate_shared_memory(gl.float16, [3, 1, 1, 64, 64], K.layout)
    v_buf = gl.allocate_shared_memory(gl.float16, [3, 1, 1, 64, 64], V.layout)
    q_c0_buf = gl.allocate_shared_memory(gl.float16, [1, 1, 64, 64], Q.layout)
    k_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(k_ready.index(i), count=1)
    k_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(k_empty.index(i), count=1)
    v_ready = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_ready.index(i), count=1)
    v_empty = gl.allocate_shared_memory(gl.int64, [3, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(3):
        mbarrier.init(v_empty.index(i), count=1)
    q_c0_bar = gl.allocate_shared_memory(gl.int64, [1, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(1):
        mbarrier.init(q_c0_bar.index(i), count=1)
    gl.warp_specialize([
        (consumer_0, (Q, K, V, Sinks, sm_scale, M, Out, Start_q, Z, H, N_Q_CTX, N_KV_CTX, k_buf, v_buf, q_c0_buf, k_ready, k_empty, v_ready, v_empty, q_c0_bar)),
        (producer_1, (Q, K, V, Sinks, sm_scale, M, Out, Start_q, Z, H, N_Q_CTX, N_KV_CTX, k_buf, v_buf, q_c0_buf, k_ready, k_empty, v_ready, v_empty, q_c0_bar)),
    ], [1], [24])



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Sinks', 'sm_scale', 'M', 'Out', 'Start_q', 'Z', 'H', 'N_Q_CTX', 'N_KV_CTX', 'HEAD_DIM', 'BLOCK_M', 'BLOCK_N', 'BANDWIDTH']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Sinks', 'sm_scale', 'M', 'Out', 'Start_q', 'Z', 'H', 'N_Q_CTX', 'N_KV_CTX']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Sinks', 'sm_scale', 'M', 'Out', 'Start_q', 'Z', 'H', 'N_Q_CTX', 'N_KV_CTX']   # the arguments a launch key reads
CONSTEXPRS = {'HEAD_DIM': 64, 'BLOCK_M': 64, 'BLOCK_N': 64, 'BANDWIDTH': 128}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {'Q': [1, 1, 64, 64], 'K': [1, 1, 64, 64], 'V': [1, 1, 64, 64], 'Out': [1, 1, 64, 64]}
DESCRIPTOR_LAYOUTS = {'Q': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=4, transposed=False, fp4_padded=False, cga_layout=[])', 'K': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=4, transposed=False, fp4_padded=False, cga_layout=[])', 'V': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=4, transposed=False, fp4_padded=False, cga_layout=[])', 'Out': 'NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=4, transposed=False, fp4_padded=False, cga_layout=[])'}
NUM_WARPS = 4
MAXNREG = 128
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
