"""recompute_w_u_fwd_kernel, written by twill from its joint schedule: I=196 L=391 (optimal), 1066 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 2 stages), so no warp_specialize: 4 warps, registers as ptxas allocates them (the schedule's tiles need about 88 per thread)
- shared operand b_vb_75_st: partition 0 stores the loop's [64, 64] f16 register tile (a ttg.local_alloc: wgmma reads it from shared memory) into 2 buffers, one per iteration a wgmma may still read, so no store waits for a wgmma
- shared memory: 24592 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at fla_recompute_w_u.py:80 (TTGIR line 127) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=409, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.SliceLayout(1, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L1 = gl.constexpr(gl.SliceLayout(0, gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0])))
L2 = gl.constexpr(gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]))
L3 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1, 8], threads_per_warp=[4, 8], warps_per_cta=[4, 1], order=[1, 0]))

@gluon.jit
def consumer_0(k, v, beta, w, u, A, g, T):
    twill_base = 0
    v0 = gl.program_id(0)
    v1 = gl.program_id(1)
    v2 = v1 // 16
    v3 = v1 % 16
    v4 = v2 * T
    p_b = v4 * 16
    p_b_7 = beta + p_b
    p_b_8 = p_b_7 + v3
    p_b_9 = v0 * 64
    p_b_10 = gl.cast(T, gl.int64)
    p_b_11 = gl.cast(p_b_9, gl.int64)
    b_b_13 = gl.arange(0, 64, layout=L0)
    b_b_14 = gl.arange(0, 64, layout=L1)
    b_b_15 = b_b_13.to(gl.int64)
    b_b_16 = b_b_14.to(gl.int64)
    b_b_17 = p_b_11 + b_b_15
    b_b_18 = b_b_17 * 16
    b_b_19 = p_b_8 + b_b_18
    b_b_20 = b_b_17 >= 0
    b_b_22 = b_b_17 < p_b_10
    b_b_23 = b_b_20 & b_b_22
    b_b_24 = gl.load(b_b_19, mask=b_b_23)
    p_A = p_b + v3
    p_A_25 = p_A * 64
    p_A_26 = A + p_A_25
    b_A_28 = gl.expand_dims(b_b_17, 1)
    b_A_29 = b_A_28 * 1024
    b_A_30 = b_A_29.broadcast_to([64, 64])
    b_A_31 = gl.expand_dims(b_b_16, 0)
    b_A_32 = b_A_31.broadcast_to([64, 64])
    b_A_33 = b_A_30 + b_A_32
    b_A_34 = p_A_26 + b_A_33
    b_A_35 = b_A_28 >= 0
    b_A_37 = b_A_28 < p_b_10
    b_A_38 = b_A_35 & b_A_37
    b_A_39 = b_A_38.broadcast_to([64, 64])
    b_A_40 = b_A_31 >= 0
    b_A_41 = b_A_31 < 64
    b_A_42 = b_A_40 & b_A_41
    b_A_43 = b_A_42.broadcast_to([64, 64])
    b_A_44 = b_A_39 & b_A_43
    b_A_45 = gl.load(b_A_34, mask=b_A_44)
    b_A_46 = gl.allocate_shared_memory(gl.float16, [64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False), b_A_45)
    fence_async_shared()
    p_v = p_A * 128
    p_v_47 = v + p_v
    p_u = u + p_v
    b_v_48 = b_A_28 * 2048
    b_v_49 = b_v_48.broadcast_to([64, 64])
    b_vb = gl.expand_dims(b_b_24, 1)
    b_vb_50 = b_vb.broadcast_to([64, 64])
    twill_n = (2 - 0 + 1 - 1) // 1
    b_vb_75_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    p_v_60 = (0 + (0 - 0) * 1) * 64  # load0_b_v: stage 0, partition 0 (group 0)
    p_v_61 = gl.cast(p_v_60, gl.int64)  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_62 = p_v_61  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_63 = b_v_62 + b_b_16  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_64 = gl.expand_dims(b_v_63, 0)  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_68 = b_v_64 >= 0  # elementwise0_b_v: stage 0, partition 0 (group 0)
    b_v_69 = b_v_64 < 128  # elementwise0_b_v: stage 0, partition 0 (group 0)
    b_v_70 = b_v_68 & b_v_69  # elementwise0_b_v: stage 0, partition 0 (group 0)
    b_v_71 = b_v_70.broadcast_to([64, 64])  # elementwise1_b_v: stage 0, partition 0 (group 0)
    b_v_72 = b_A_39 & b_v_71  # elementwise1_b_v: stage 0, partition 0 (group 0)
    b_v_65 = b_v_64.broadcast_to([64, 64])  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_66 = b_v_49 + b_v_65  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_67 = p_v_47 + b_v_66  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_73 = gl.load(b_v_67, mask=b_v_72)  # load0_b_v: stage 0, partition 0 (group 0)
    b_v_66_p1 = b_v_66
    b_v_72_p1 = b_v_72
    b_v_73_p1 = b_v_73
    for twill_b in range(1, twill_n):
        p_v_60 = (0 + (twill_b - 0) * 1) * 64  # load0_b_v: stage 0, partition 0 (group 0)
        p_v_61 = gl.cast(p_v_60, gl.int64)  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_62 = p_v_61  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_63 = b_v_62 + b_b_16  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_64 = gl.expand_dims(b_v_63, 0)  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_68 = b_v_64 >= 0  # elementwise0_b_v: stage 0, partition 0 (group 0)
        b_v_69 = b_v_64 < 128  # elementwise0_b_v: stage 0, partition 0 (group 0)
        b_v_70 = b_v_68 & b_v_69  # elementwise0_b_v: stage 0, partition 0 (group 0)
        b_v_71 = b_v_70.broadcast_to([64, 64])  # elementwise1_b_v: stage 0, partition 0 (group 0)
        b_v_72 = b_A_39 & b_v_71  # elementwise1_b_v: stage 0, partition 0 (group 0)
        b_v_65 = b_v_64.broadcast_to([64, 64])  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_66 = b_v_49 + b_v_65  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_67 = p_v_47 + b_v_66  # load0_b_v: stage 0, partition 0 (group 0)
        b_v_73 = gl.load(b_v_67, mask=b_v_72)  # load0_b_v: stage 0, partition 0 (group 0)
        b_vb_74 = b_v_73_p1 * b_vb_50  # elementwise2_b_vb: stage 1, partition 0 (group 0)
        b_vb_75 = b_vb_75_st.index((twill_b - 1) % 2)  # local_store0_b_vb: stage 1, partition 0 (group 0)
        b_vb_75.store(b_vb_74)  # local_store0_b_vb: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b_vb: stage 1, partition 0 (group 0)
        tok_b_u = warpgroup_mma(b_A_46, b_vb_75, gl.full([64, 64], 0.0, gl.float32, layout=L2), use_acc=False, is_async=True)  # dot0_b_u: stage 1, partition 0 (group 0)
        b_u = warpgroup_mma_wait(0, deps=(tok_b_u,))
        v7 = b_u.to(gl.float16)  # convert0: stage 1, partition 0 (group 0)
        v9 = gl.convert_layout(v7, L3)  # convert0: stage 1, partition 0 (group 0)
        v8 = p_u + b_v_66_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v8, v9, mask=b_v_72_p1)  # store0: stage 1, partition 0 (group 0)
        b_v_66_p1 = b_v_66
        b_v_72_p1 = b_v_72
        b_v_73_p1 = b_v_73
    b_vb_74 = b_v_73_p1 * b_vb_50  # elementwise2_b_vb: stage 1, partition 0 (group 0)
    b_vb_75 = b_vb_75_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b_vb: stage 1, partition 0 (group 0)
    b_vb_75.store(b_vb_74)  # local_store0_b_vb: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_b_vb: stage 1, partition 0 (group 0)
    tok_b_u = warpgroup_mma(b_A_46, b_vb_75, gl.full([64, 64], 0.0, gl.float32, layout=L2), use_acc=False, is_async=True)  # dot0_b_u: stage 1, partition 0 (group 0)
    b_u = warpgroup_mma_wait(0, deps=(tok_b_u,))
    v7 = b_u.to(gl.float16)  # convert0: stage 1, partition 0 (group 0)
    v9 = gl.convert_layout(v7, L3)  # convert0: stage 1, partition 0 (group 0)
    v8 = p_u + b_v_66_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v8, v9, mask=b_v_72_p1)  # store0: stage 1, partition 0 (group 0)
    b_v_66_p1 = b_v_66
    b_v_72_p1 = b_v_72
    b_v_73_p1 = b_v_73
    b_A_46._keep_alive()
    b_vb_75_st._keep_alive()
    twill_base += twill_n
    p_g = g + p_A
    b_g_51 = p_g + b_b_18
    b_g_52 = gl.load(b_g_51, mask=b_b_23)
    b_g_53 = gl.exp(b_g_52)
    p_k = p_A * 128
    p_k_54 = k + p_k
    p_w = w + p_k
    b_k_55 = b_A_28 * 2048
    b_k_56 = b_k_55.broadcast_to([64, 64])
    b_kb = gl.expand_dims(b_b_24, 1)
    b_kb_57 = b_kb.broadcast_to([64, 64])
    b_kb_58 = gl.expand_dims(b_g_53, 1)
    b_kb_59 = b_kb_58.broadcast_to([64, 64])
    twill_n = (2 - 0 + 1 - 1) // 1
    b_w_77_st = gl.allocate_shared_memory(gl.float16, [2, 64, 64], gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False))
    p_k_60 = (0 + (0 - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
    p_k_61 = gl.cast(p_k_60, gl.int64)  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_62 = p_k_61  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_63 = b_k_62 + b_b_16  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_64 = gl.expand_dims(b_k_63, 0)  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_68 = b_k_64 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_69 = b_k_64 < 128  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_70 = b_k_68 & b_k_69  # elementwise0_b_k: stage 0, partition 0 (group 0)
    b_k_71 = b_k_70.broadcast_to([64, 64])  # elementwise1_b_k: stage 0, partition 0 (group 0)
    b_k_72 = b_A_39 & b_k_71  # elementwise1_b_k: stage 0, partition 0 (group 0)
    b_k_65 = b_k_64.broadcast_to([64, 64])  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_66 = b_k_56 + b_k_65  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_67 = p_k_54 + b_k_66  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_73 = gl.load(b_k_67, mask=b_k_72)  # load0_b_k: stage 0, partition 0 (group 0)
    b_k_66_p1 = b_k_66
    b_k_72_p1 = b_k_72
    b_k_73_p1 = b_k_73
    for twill_b in range(1, twill_n):
        p_k_60 = (0 + (twill_b - 0) * 1) * 64  # load0_b_k: stage 0, partition 0 (group 0)
        p_k_61 = gl.cast(p_k_60, gl.int64)  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_62 = p_k_61  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_63 = b_k_62 + b_b_16  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_64 = gl.expand_dims(b_k_63, 0)  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_68 = b_k_64 >= 0  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_69 = b_k_64 < 128  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_70 = b_k_68 & b_k_69  # elementwise0_b_k: stage 0, partition 0 (group 0)
        b_k_71 = b_k_70.broadcast_to([64, 64])  # elementwise1_b_k: stage 0, partition 0 (group 0)
        b_k_72 = b_A_39 & b_k_71  # elementwise1_b_k: stage 0, partition 0 (group 0)
        b_k_65 = b_k_64.broadcast_to([64, 64])  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_66 = b_k_56 + b_k_65  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_67 = p_k_54 + b_k_66  # load0_b_k: stage 0, partition 0 (group 0)
        b_k_73 = gl.load(b_k_67, mask=b_k_72)  # load0_b_k: stage 0, partition 0 (group 0)
        b_kb_74 = b_k_73_p1 * b_kb_57  # elementwise2_b_kb: stage 1, partition 0 (group 0)
        b_kb_75 = b_kb_74.to(gl.float32)  # convert0_b_kb: stage 1, partition 0 (group 0)
        b_kb_76 = b_kb_75 * b_kb_59  # elementwise3_b_kb: stage 1, partition 0 (group 0)
        b_w = b_kb_76.to(gl.float16)  # convert1_b_w: stage 1, partition 0 (group 0)
        b_w_77 = b_w_77_st.index((twill_b - 1) % 2)  # local_store0_b_w: stage 1, partition 0 (group 0)
        b_w_77.store(b_w)  # local_store0_b_w: stage 1, partition 0 (group 0)
        fence_async_shared()  # local_store0_b_w: stage 1, partition 0 (group 0)
        tok_b_w_78 = warpgroup_mma(b_A_46, b_w_77, gl.full([64, 64], 0.0, gl.float32, layout=L2), use_acc=False, is_async=True)  # dot0_b_w: stage 1, partition 0 (group 0)
        b_w_78 = warpgroup_mma_wait(0, deps=(tok_b_w_78,))
        v7_l1 = b_w_78.to(gl.float16)  # convert2: stage 1, partition 0 (group 0)
        v9_l1 = gl.convert_layout(v7_l1, L3)  # convert2: stage 1, partition 0 (group 0)
        v8_l1 = p_w + b_k_66_p1  # store0: stage 1, partition 0 (group 0)
        gl.store(v8_l1, v9_l1, mask=b_k_72_p1)  # store0: stage 1, partition 0 (group 0)
        b_k_66_p1 = b_k_66
        b_k_72_p1 = b_k_72
        b_k_73_p1 = b_k_73
    b_kb_74 = b_k_73_p1 * b_kb_57  # elementwise2_b_kb: stage 1, partition 0 (group 0)
    b_kb_75 = b_kb_74.to(gl.float32)  # convert0_b_kb: stage 1, partition 0 (group 0)
    b_kb_76 = b_kb_75 * b_kb_59  # elementwise3_b_kb: stage 1, partition 0 (group 0)
    b_w = b_kb_76.to(gl.float16)  # convert1_b_w: stage 1, partition 0 (group 0)
    b_w_77 = b_w_77_st.index(((twill_n - 1 + 1) - 1) % 2)  # local_store0_b_w: stage 1, partition 0 (group 0)
    b_w_77.store(b_w)  # local_store0_b_w: stage 1, partition 0 (group 0)
    fence_async_shared()  # local_store0_b_w: stage 1, partition 0 (group 0)
    tok_b_w_78 = warpgroup_mma(b_A_46, b_w_77, gl.full([64, 64], 0.0, gl.float32, layout=L2), use_acc=False, is_async=True)  # dot0_b_w: stage 1, partition 0 (group 0)
    b_w_78 = warpgroup_mma_wait(0, deps=(tok_b_w_78,))
    v7_l1 = b_w_78.to(gl.float16)  # convert2: stage 1, partition 0 (group 0)
    v9_l1 = gl.convert_layout(v7_l1, L3)  # convert2: stage 1, partition 0 (group 0)
    v8_l1 = p_w + b_k_66_p1  # store0: stage 1, partition 0 (group 0)
    gl.store(v8_l1, v9_l1, mask=b_k_72_p1)  # store0: stage 1, partition 0 (group 0)
    b_k_66_p1 = b_k_66
    b_k_72_p1 = b_k_72
    b_k_73_p1 = b_k_73
    b_A_46._keep_alive()
    b_w_77_st._keep_alive()

@gluon.jit
def twill_kernel(k, v, beta, w, u, A, g, T):
    consumer_0(k, v, beta, w, u, A, g, T, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['k', 'v', 'beta', 'w', 'u', 'A', 'g', 'gk', 'cu_seqlens', 'chunk_indices', 'T', 'H', 'K', 'V', 'BT', 'BK', 'BV', 'USE_G', 'USE_GK', 'IS_VARLEN']          # the Triton kernel's parameters, in order
RUNTIME = ['k', 'v', 'beta', 'w', 'u', 'A', 'g', 'T']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['k', 'v', 'beta', 'w', 'u', 'A', 'g', 'gk', 'cu_seqlens', 'chunk_indices', 'T']   # the arguments a launch key reads
CONSTEXPRS = {'H': 16, 'K': 128, 'V': 128, 'BT': 64, 'BK': 64, 'BV': 64, 'USE_G': True, 'USE_GK': False, 'IS_VARLEN': False}         # the specialisation this kernel was generated for
HEURISTICS = {'USE_G': "lambda args: args['g'] is not None", 'USE_GK': "lambda args: args['gk'] is not None", 'IS_VARLEN': "lambda args: args['cu_seqlens'] is not None"}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = []   # what they read of the kernel's module
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

_HEUR = {}                     # heuristic -> its function (False: not evaluable here)


def _heuristic(name, src):
    """Heuristic ``name``'s function, from its source and the kernel module's names it reads (``HEURISTIC_SCOPE``:
    the module's imports, constants and the functions it calls); False where it cannot be made here."""
    fn = _HEUR.get(name)
    if fn is None:
        import math
        import torch
        import triton
        import triton.language as tl
        scope = {"torch": torch, "triton": triton, "tl": tl, "math": math}
        for part in HEURISTIC_SCOPE:
            try:
                exec(part, scope)
            except Exception:     # noqa: BLE001 - an import of the kernel's own package: its names not here
                pass
        try:
            fn = eval(src, scope)
        except Exception:         # noqa: BLE001 - names of the kernel's module not found: not checked
            fn = False
        if fn is False:
            import warnings
            warnings.warn(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated by this "
                          "launcher: launches are not checked against it", stacklevel=3)
        _HEUR[name] = fn
    return fn


def _heuristics(bound):
    """The kernel's @triton.heuristics evaluated for this launch, as Triton would before choosing a kernel: one that
    gives another value than this kernel was generated for is refused (Triton would compile another kernel)."""
    args = dict(bound, **CONSTEXPRS)
    for name, src in HEURISTICS.items():
        fn = _heuristic(name, src)
        if fn is False:
            continue
        try:
            value = fn(args)
        except Exception:         # noqa: BLE001 - a heuristic reading what this launch does not have
            continue
        if value != CONSTEXPRS[name]:
            raise ValueError(f"twill: this Gluon kernel was generated for {name}={CONSTEXPRS[name]!r}; the kernel's "
                             f"@triton.heuristics gives {name}={value!r} for this launch (generate it for that value)")


def _heuristic_args(bound):
    """The kernel arguments its @triton.heuristics supply (kernl's ``size_m_rounded``), set as Triton sets them."""
    for name, src in HEURISTIC_ARGS.items():
        fn = _heuristic(name, src)
        if fn is False:
            raise ValueError(f"twill: the kernel's @triton.heuristics for {name} ({src}) cannot be evaluated here")
        bound[name] = fn(dict(bound, **CONSTEXPRS))


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
