"""_fwd_diag_kernel, written by twill from its joint schedule: I=320 L=264 (optimal), 1280 cycles per iteration predicted.

Decisions (each from the schedule):
- register-read pointer tiles copied by their consumer with cp.async (k_trans_80_as 2 x 16384 B, v_84_as 2 x 16384 B): issued at the load's stage, one commit group per body, read at the first reader's stage after wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a stage in registers, GQA decode ran x0.65 Triton's best, run 29c)
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 112 per thread)
- shared memory: 65552 bytes planned of 232448; maxnreg unset (ptxas allocates)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
from triton.experimental.gluon.language.nvidia.ampere import async_copy
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(1, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L2 = gl.constexpr(gl.SliceLayout(0, gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8])))
L3 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L4 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0])))
L5 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[4, 1], threads_per_warp=[32, 1], warps_per_cta=[1, 4], order=[0, 1])))
L6 = gl.constexpr(gl.DotOperandLayout(operand_index=0, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=1))
L7 = gl.constexpr(gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]))
L8 = gl.constexpr(gl.DotOperandLayout(operand_index=1, parent=gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 4], instr_shape=[16, 8]), k_width=1))
L9 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[1, 32], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(Q, K, V, Out, S, n, NUM_BLOCK, TWILL_COPY: gl.constexpr):
    off = gl.program_id(0)
    off_bh = off // NUM_BLOCK
    off_block = off % NUM_BLOCK
    off_cblock = gl.program_id(1)
    off_h = off_bh % 8
    qk_offset = off_bh * n
    qk_offset_8 = qk_offset * 128
    block_offset = off_block * 256
    qk_block_offset = off_block * 32768
    q_cblock_offset = off_cblock * 4096
    Q_block_ptr = Q + qk_offset_8
    Q_block_ptr_9 = Q_block_ptr + qk_block_offset
    Q_block_ptr_10 = Q_block_ptr_9 + q_cblock_offset
    Q_block_ptr_11 = gl.arange(0, 32, layout=L0)
    Q_block_ptr_12 = gl.arange(0, 32, layout=L1)
    Q_block_ptr_13 = gl.arange(0, 32, layout=L2)
    Q_block_ptr_14 = gl.arange(0, 32, layout=L3)
    Q_block_ptr_15 = gl.expand_dims(Q_block_ptr_11, 1)
    Q_block_ptr_16 = Q_block_ptr_15 * 128
    Q_block_ptr_18 = Q_block_ptr_10 + Q_block_ptr_16
    Q_block_ptr_19 = gl.arange(0, 128, layout=L4)
    Q_block_ptr_20 = gl.expand_dims(Q_block_ptr_19, 0)
    Q_block_ptr_21 = Q_block_ptr_18.broadcast_to([32, 128])
    Q_block_ptr_22 = Q_block_ptr_20.broadcast_to([32, 128])
    Q_block_ptr_23 = Q_block_ptr_21 + Q_block_ptr_22
    K_trans_block_ptr_24 = K + qk_offset_8
    K_trans_block_ptr_25 = K_trans_block_ptr_24 + qk_block_offset
    K_trans_block_ptr_26 = gl.expand_dims(Q_block_ptr_14, 0)
    K_trans_block_ptr_27 = K_trans_block_ptr_26 * 128
    K_trans_block_ptr_29 = K_trans_block_ptr_25 + K_trans_block_ptr_27
    K_trans_block_ptr_30 = gl.arange(0, 128, layout=L5)
    K_trans_block_ptr_31 = gl.expand_dims(K_trans_block_ptr_30, 1)
    K_trans_block_ptr_32 = K_trans_block_ptr_29.broadcast_to([128, 32])
    K_trans_block_ptr_33 = K_trans_block_ptr_31.broadcast_to([128, 32])
    K_trans_block_ptr_34 = K_trans_block_ptr_32 + K_trans_block_ptr_33
    V_block_ptr = V + qk_offset_8
    V_block_ptr_35 = V_block_ptr + qk_block_offset
    V_block_ptr_37 = V_block_ptr_35 + Q_block_ptr_16
    V_block_ptr_38 = V_block_ptr_37.broadcast_to([32, 128])
    V_block_ptr_39 = V_block_ptr_38 + Q_block_ptr_22
    O_block_ptr = Out + qk_offset_8
    O_block_ptr_40 = O_block_ptr + qk_block_offset
    O_block_ptr_41 = O_block_ptr_40 + q_cblock_offset
    O_block_ptr_43 = O_block_ptr_41 + Q_block_ptr_16
    O_block_ptr_44 = O_block_ptr_43.broadcast_to([32, 128])
    O_block_ptr_45 = O_block_ptr_44 + Q_block_ptr_22
    S_block_ptr = S + off_h
    s = gl.load(S_block_ptr)
    q_index = off_cblock * 32
    q_index_48 = Q_block_ptr_11 + q_index
    q_index_49 = Q_block_ptr_12 + q_index
    q = gl.expand_dims(q_index_48, 1)
    q_50 = gl.expand_dims(q_index_49, 1)
    q_52 = block_offset + q
    q_54 = q_52 < n
    q_55 = q_54.broadcast_to([32, 128])
    q_56 = gl.load(Q_block_ptr_23, mask=q_55, other=0.0)
    v0 = off_cblock + 1
    diff = q_50.broadcast_to([32, 32])
    q_58_sm = gl.allocate_shared_memory(gl.float32, [32, 128], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0]), q_56)  # held here, not in registers: [32, 128] f32 for the loop's mma.sync
    gl.thread_barrier()
    twill_n = (v0 - 0 + 1 - 1) // 1
    if (twill_n >= 1) | (gl.program_id(0) < 0):
        k_trans_80_as = gl.allocate_shared_memory(gl.float32, [2, 128, 32], gl.SwizzledSharedLayout(vec=4, per_phase=1, max_phase=8, order=[0, 1]))
        v_84_as = gl.allocate_shared_memory(gl.float32, [2, 32, 128], gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=4, order=[1, 0]))
        K_trans_block_ptr_90 = K_trans_block_ptr_34
        V_block_ptr_91 = V_block_ptr_39
        K_trans_block_ptr_90_p1 = K_trans_block_ptr_90
        V_block_ptr_91_p1 = V_block_ptr_91
        qkv_89 = gl.full([32, 128], 0.0, gl.float32, layout=L7)
        kv_index = (0 + (0 - 0) * 1) * 32  # convert0_s_index: stage 0, partition 0 (group 0)
        kv_index_63 = kv_index  # load0_k_trans: stage 0, partition 0 (group 0)
        kv_index_66 = Q_block_ptr_14 + kv_index_63  # load0_k_trans: stage 0, partition 0 (group 0)
        diff_69 = gl.expand_dims(kv_index_66, 0)  # load0_k_trans: stage 0, partition 0 (group 0)
        k_trans_77 = block_offset + diff_69  # load0_k_trans: stage 0, partition 0 (group 0)
        k_trans_78 = k_trans_77 < n  # load0_k_trans: stage 0, partition 0 (group 0)
        k_trans_79 = k_trans_78.broadcast_to([128, 32])  # load0_k_trans: stage 0, partition 0 (group 0)
        K_trans_block_ptr_90 = K_trans_block_ptr_90_p1 + 4096  # load0_k_trans: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load0_k_trans: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(k_trans_80_as.index((0 - 0) % 2), K_trans_block_ptr_90_p1, mask=k_trans_79)  # load0_k_trans: stage 0, partition 0 (group 0)
        else:  # load0_k_trans: stage 0, partition 0 (group 0)
            k_trans_80_as.index((0 - 0) % 2).store(gl.load(K_trans_block_ptr_90_p1, mask=k_trans_79, other=0.0))  # load0_k_trans: stage 0, partition 0 (group 0)
        kv_index_64 = kv_index  # load1_v: stage 0, partition 0 (group 0)
        kv_index_67 = Q_block_ptr_11 + kv_index_64  # load1_v: stage 0, partition 0 (group 0)
        v = gl.expand_dims(kv_index_67, 1)  # load1_v: stage 0, partition 0 (group 0)
        v_81 = block_offset + v  # load1_v: stage 0, partition 0 (group 0)
        v_82 = v_81 < n  # load1_v: stage 0, partition 0 (group 0)
        v_83 = v_82.broadcast_to([32, 128])  # load1_v: stage 0, partition 0 (group 0)
        V_block_ptr_91 = V_block_ptr_91_p1 + 4096  # load1_v: stage 0, partition 0 (group 0)
        if TWILL_COPY:  # load1_v: stage 0, partition 0 (group 0)
            async_copy.async_copy_global_to_shared(v_84_as.index((0 - 0) % 2), V_block_ptr_91_p1, mask=v_83)  # load1_v: stage 0, partition 0 (group 0)
        else:  # load1_v: stage 0, partition 0 (group 0)
            v_84_as.index((0 - 0) % 2).store(gl.load(V_block_ptr_91_p1, mask=v_83, other=0.0))  # load1_v: stage 0, partition 0 (group 0)
        async_copy.commit_group()
        K_trans_block_ptr_90_p1 = K_trans_block_ptr_90
        V_block_ptr_91_p1 = V_block_ptr_91
        kv_index_p1 = kv_index
        qkv_89_p1 = qkv_89
        for twill_b in range(1, twill_n):
            kv_index = (0 + (twill_b - 0) * 1) * 32  # convert0_s_index: stage 0, partition 0 (group 0)
            kv_index_62 = kv_index_p1  # convert0_s_index: stage 1, partition 0 (group 0)
            kv_index_65 = Q_block_ptr_13 + kv_index_62  # convert0_s_index: stage 1, partition 0 (group 0)
            diff_68 = gl.expand_dims(kv_index_65, 0)  # convert0_s_index: stage 1, partition 0 (group 0)
            diff_70 = diff_68.broadcast_to([32, 32])  # convert0_s_index: stage 1, partition 0 (group 0)
            diff_71 = diff - diff_70  # convert0_s_index: stage 1, partition 0 (group 0)
            s_index_72 = diff_71.to(gl.float32)  # convert0_s_index: stage 1, partition 0 (group 0)
            s_index_73 = s * s_index_72  # sfu0_decay: stage 1, partition 0 (group 0)
            s_index_74 = diff_71 >= 0  # sfu0_decay: stage 1, partition 0 (group 0)
            s_index_75 = 0.0 - s_index_73  # sfu0_decay: stage 1, partition 0 (group 0)
            s_index_76 = gl.where(s_index_74, s_index_75, float("-inf"))  # sfu0_decay: stage 1, partition 0 (group 0)
            decay = gl.exp(s_index_76)  # sfu0_decay: stage 1, partition 0 (group 0)
            kv_index_63 = kv_index  # load0_k_trans: stage 0, partition 0 (group 0)
            kv_index_66 = Q_block_ptr_14 + kv_index_63  # load0_k_trans: stage 0, partition 0 (group 0)
            diff_69 = gl.expand_dims(kv_index_66, 0)  # load0_k_trans: stage 0, partition 0 (group 0)
            k_trans_77 = block_offset + diff_69  # load0_k_trans: stage 0, partition 0 (group 0)
            async_copy.wait_group(0)
            gl.thread_barrier()
            k_trans_80 = k_trans_80_as.index((twill_b - 1) % 2).load(L8)  # load0_k_trans: stage 1, partition 0 (group 0)
            k_trans_78 = k_trans_77 < n  # load0_k_trans: stage 0, partition 0 (group 0)
            k_trans_79 = k_trans_78.broadcast_to([128, 32])  # load0_k_trans: stage 0, partition 0 (group 0)
            K_trans_block_ptr_90 = K_trans_block_ptr_90_p1 + 4096  # load0_k_trans: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load0_k_trans: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(k_trans_80_as.index((twill_b - 0) % 2), K_trans_block_ptr_90_p1, mask=k_trans_79)  # load0_k_trans: stage 0, partition 0 (group 0)
            else:  # load0_k_trans: stage 0, partition 0 (group 0)
                k_trans_80_as.index((twill_b - 0) % 2).store(gl.load(K_trans_block_ptr_90_p1, mask=k_trans_79, other=0.0))  # load0_k_trans: stage 0, partition 0 (group 0)
            k_trans_85 = gl.convert_layout(k_trans_80, L8)  # convert1_k_trans: stage 1, partition 0 (group 0)
            qk = mma_v2(q_58_sm.load(L6), k_trans_85, gl.full([32, 32], 0.0, gl.float32, layout=L7), input_precision='tf32')  # dot0_qk: stage 1, partition 0 (group 0)
            qk_86 = qk * decay  # elementwise0_qk: stage 1, partition 0 (group 0)
            qk_87 = gl.convert_layout(qk_86, L6)  # convert2_qk: stage 1, partition 0 (group 0)
            kv_index_64 = kv_index  # load1_v: stage 0, partition 0 (group 0)
            kv_index_67 = Q_block_ptr_11 + kv_index_64  # load1_v: stage 0, partition 0 (group 0)
            v = gl.expand_dims(kv_index_67, 1)  # load1_v: stage 0, partition 0 (group 0)
            v_81 = block_offset + v  # load1_v: stage 0, partition 0 (group 0)
            v_84 = v_84_as.index((twill_b - 1) % 2).load(L8)  # load1_v: stage 1, partition 0 (group 0)
            v_82 = v_81 < n  # load1_v: stage 0, partition 0 (group 0)
            v_83 = v_82.broadcast_to([32, 128])  # load1_v: stage 0, partition 0 (group 0)
            V_block_ptr_91 = V_block_ptr_91_p1 + 4096  # load1_v: stage 0, partition 0 (group 0)
            if TWILL_COPY:  # load1_v: stage 0, partition 0 (group 0)
                async_copy.async_copy_global_to_shared(v_84_as.index((twill_b - 0) % 2), V_block_ptr_91_p1, mask=v_83)  # load1_v: stage 0, partition 0 (group 0)
            else:  # load1_v: stage 0, partition 0 (group 0)
                v_84_as.index((twill_b - 0) % 2).store(gl.load(V_block_ptr_91_p1, mask=v_83, other=0.0))  # load1_v: stage 0, partition 0 (group 0)
            v_88 = gl.convert_layout(v_84, L8)  # convert3_v: stage 1, partition 0 (group 0)
            qkv_89 = mma_v2(qk_87, v_88, qkv_89_p1, input_precision='tf32')  # dot1_qkv: stage 1, partition 0 (group 0)
            async_copy.commit_group()
            K_trans_block_ptr_90_p1 = K_trans_block_ptr_90
            V_block_ptr_91_p1 = V_block_ptr_91
            kv_index_p1 = kv_index
            qkv_89_p1 = qkv_89
        kv_index_62 = kv_index_p1  # convert0_s_index: stage 1, partition 0 (group 0)
        kv_index_65 = Q_block_ptr_13 + kv_index_62  # convert0_s_index: stage 1, partition 0 (group 0)
        diff_68 = gl.expand_dims(kv_index_65, 0)  # convert0_s_index: stage 1, partition 0 (group 0)
        diff_70 = diff_68.broadcast_to([32, 32])  # convert0_s_index: stage 1, partition 0 (group 0)
        diff_71 = diff - diff_70  # convert0_s_index: stage 1, partition 0 (group 0)
        s_index_72 = diff_71.to(gl.float32)  # convert0_s_index: stage 1, partition 0 (group 0)
        s_index_73 = s * s_index_72  # sfu0_decay: stage 1, partition 0 (group 0)
        s_index_74 = diff_71 >= 0  # sfu0_decay: stage 1, partition 0 (group 0)
        s_index_75 = 0.0 - s_index_73  # sfu0_decay: stage 1, partition 0 (group 0)
        s_index_76 = gl.where(s_index_74, s_index_75, float("-inf"))  # sfu0_decay: stage 1, partition 0 (group 0)
        decay = gl.exp(s_index_76)  # sfu0_decay: stage 1, partition 0 (group 0)
        async_copy.wait_group(0)
        gl.thread_barrier()
        k_trans_80 = k_trans_80_as.index(((twill_n - 1 + 1) - 1) % 2).load(L8)  # load0_k_trans: stage 1, partition 0 (group 0)
        k_trans_85 = gl.convert_layout(k_trans_80, L8)  # convert1_k_trans: stage 1, partition 0 (group 0)
        qk = mma_v2(q_58_sm.load(L6), k_trans_85, gl.full([32, 32], 0.0, gl.float32, layout=L7), input_precision='tf32')  # dot0_qk: stage 1, partition 0 (group 0)
        qk_86 = qk * decay  # elementwise0_qk: stage 1, partition 0 (group 0)
        qk_87 = gl.convert_layout(qk_86, L6)  # convert2_qk: stage 1, partition 0 (group 0)
        v_84 = v_84_as.index(((twill_n - 1 + 1) - 1) % 2).load(L8)  # load1_v: stage 1, partition 0 (group 0)
        v_88 = gl.convert_layout(v_84, L8)  # convert3_v: stage 1, partition 0 (group 0)
        qkv_89 = mma_v2(qk_87, v_88, qkv_89_p1, input_precision='tf32')  # dot1_qkv: stage 1, partition 0 (group 0)
        async_copy.commit_group()
        K_trans_block_ptr_90_p2 = K_trans_block_ptr_90_p1
        K_trans_block_ptr_90_p1 = K_trans_block_ptr_90
        V_block_ptr_91_p2 = V_block_ptr_91_p1
        V_block_ptr_91_p1 = V_block_ptr_91
        kv_index_p1 = kv_index
        qkv_89_p1 = qkv_89
    else:
        qkv_89_p1 = gl.full([32, 128], 0.0, gl.float32, layout=L7)
        K_trans_block_ptr_90_p2 = K_trans_block_ptr_34
        V_block_ptr_91_p2 = V_block_ptr_39
    v1 = gl.convert_layout(qkv_89_p1, L9)
    gl.store(O_block_ptr_45, v1, mask=q_55)

@gluon.jit
def twill_kernel(Q, K, V, Out, S, n, NUM_BLOCK, TWILL_COPY: gl.constexpr):
    consumer_0(Q, K, V, Out, S, n, NUM_BLOCK, TWILL_COPY)



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Q', 'K', 'V', 'Out', 'S', 'b', 'h', 'n', 'd', 'e', 'BLOCK', 'NUM_BLOCK', 'CBLOCK']          # the Triton kernel's parameters, in order
RUNTIME = ['Q', 'K', 'V', 'Out', 'S', 'n', 'NUM_BLOCK']   # the Gluon kernel's parameters, in order
FLAGS = ['TWILL_COPY']   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Q', 'K', 'V', 'Out', 'S', 'n', 'NUM_BLOCK']   # the arguments a launch key reads
CONSTEXPRS = {'b': 4, 'h': 8, 'd': 128, 'e': 128, 'BLOCK': 256, 'CBLOCK': 32}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 4
MAXNREG = None
PERSISTENT = False      # one program per SM loops over the grid's tiles
COPY_ALIGNED = ['K', 'V']   # cp.async where all are 16-divisible (16-byte aligned), else the copies go through registers
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
