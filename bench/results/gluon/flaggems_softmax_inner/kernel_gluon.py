"""softmax_kernel_inner, written by twill from its joint schedule: I=108 L=288 (optimal), 920 cycles per iteration predicted (its loads' latency over their lead: the schedule's I is 576).

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 4 stages), so no warp_specialize: 16 warps, registers as ptxas allocates them (the schedule's tiles need about 68 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at flaggems_softmax_inner.py:88 (TTGIR line 32) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=207, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- loop at flaggems_softmax_inner.py:97 (TTGIR line 52) (before the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=207, optimal among one-stage schedules with each op in the warp group of its row sub-tile)
- written from the layouts Triton gives M, N 16-divisible (its pointer loads 16 bytes a thread where the launch's specialisation proves them aligned, as Triton's own kernel at such a launch; at one where they are not, Gluon's lowering loads narrower vectors: run 66, FlagGems' softmax correct at N = 33001, x0.64 -> x1.00)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[8], threads_per_warp=[32], warps_per_cta=[16], order=[0]))

@gluon.jit
def consumer_0(output_ptr, input_ptr, M, N):
    twill_base = 0
    pid_m = gl.program_id(0)
    input_ptr_1 = pid_m * N
    input_ptr_2 = input_ptr + input_ptr_1
    output_ptr_3 = output_ptr + input_ptr_1
    previous_multiple = N + 4095
    previous_multiple_4 = previous_multiple // 4096
    previous_multiple_5 = previous_multiple_4 * 4096
    previous_multiple_6 = previous_multiple_5 - 4096
    n_offsets = gl.arange(0, 4096, layout=L0)
    twill_n = (previous_multiple_6 - 0 + 4096 - 1) // 4096
    m_new_l0 = gl.full([4096], float("-inf"), gl.float32, layout=L0)
    z_41_l0 = gl.full([4096], 0.0, gl.float32, layout=L0)
    n_offsets_31_l0 = (0 + (0 - 0) * 4096) + n_offsets  # load0_inp: stage 0, partition 0 (group 0)
    inp_32_l0 = input_ptr_2 + n_offsets_31_l0  # load0_inp: stage 0, partition 0 (group 0)
    inp_33_l0 = gl.load(inp_32_l0)  # load0_inp: stage 0, partition 0 (group 0)
    inp_33_l0_p1 = inp_33_l0
    m_new_l0_p1 = m_new_l0
    z_41_l0_p1 = z_41_l0
    for twill_b in range(1, twill_n):
        n_offsets_30_l0 = (0 + (twill_b - 0) * 4096)  # load0_inp: stage 0, partition 0 (group 0)
        n_offsets_31_l0 = n_offsets_30_l0 + n_offsets  # load0_inp: stage 0, partition 0 (group 0)
        inp_32_l0 = input_ptr_2 + n_offsets_31_l0  # load0_inp: stage 0, partition 0 (group 0)
        inp_33_l0 = gl.load(inp_32_l0)  # load0_inp: stage 0, partition 0 (group 0)
        inp_34_l0 = inp_33_l0_p1.to(gl.float32)  # convert0_inp: stage 1, partition 0 (group 0)
        m_new_l0 = gl.maximum(m_new_l0_p1, inp_34_l0)  # elementwise0_m_new: stage 1, partition 0 (group 0)
        z_35 = m_new_l0_p1 - m_new_l0  # sfu0_z: stage 1, partition 0 (group 0)
        z_36 = gl.exp(z_35)  # sfu0_z: stage 1, partition 0 (group 0)
        z_38_l0 = inp_34_l0 - m_new_l0  # sfu1_z: stage 1, partition 0 (group 0)
        z_39_l0 = gl.exp(z_38_l0)  # sfu1_z: stage 1, partition 0 (group 0)
        all_neg_inf_l0 = m_new_l0 == float("-inf")  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
        z_37_l0 = z_41_l0_p1 * z_36  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
        z_40_l0 = z_37_l0 + z_39_l0  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
        z_41_l0 = gl.where(all_neg_inf_l0, z_41_l0_p1, z_40_l0)  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
        inp_33_l0_p1 = inp_33_l0
        m_new_l0_p1 = m_new_l0
        z_41_l0_p1 = z_41_l0
    inp_34_l0 = inp_33_l0_p1.to(gl.float32)  # convert0_inp: stage 1, partition 0 (group 0)
    m_new_l0 = gl.maximum(m_new_l0_p1, inp_34_l0)  # elementwise0_m_new: stage 1, partition 0 (group 0)
    z_35 = m_new_l0_p1 - m_new_l0  # sfu0_z: stage 1, partition 0 (group 0)
    z_36 = gl.exp(z_35)  # sfu0_z: stage 1, partition 0 (group 0)
    z_38_l0 = inp_34_l0 - m_new_l0  # sfu1_z: stage 1, partition 0 (group 0)
    z_39_l0 = gl.exp(z_38_l0)  # sfu1_z: stage 1, partition 0 (group 0)
    all_neg_inf_l0 = m_new_l0 == float("-inf")  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
    z_37_l0 = z_41_l0_p1 * z_36  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
    z_40_l0 = z_37_l0 + z_39_l0  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
    z_41_l0 = gl.where(all_neg_inf_l0, z_41_l0_p1, z_40_l0)  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
    inp_33_l0_p1 = inp_33_l0
    m_new_l0_p1 = m_new_l0
    z_41_l0_p1 = z_41_l0
    twill_base += twill_n
    n_offsets_8 = gl.arange(0, 4096, layout=L0)
    twill_n = gl.maximum((N - previous_multiple_6 + 4096 - 1) // 4096, 0)
    m_new_l1 = m_new_l0_p1
    z_43 = z_41_l0_p1
    n_offsets_31_l1 = (previous_multiple_6 + (0 - 0) * 4096)  # load0_inp: stage 0, partition 0 (group 0)
    n_offsets_32 = n_offsets_31_l1 + n_offsets_8  # load0_inp: stage 0, partition 0 (group 0)
    mask_33 = n_offsets_32 < N  # load0_inp: stage 0, partition 0 (group 0)
    inp_34_l1 = input_ptr_2 + n_offsets_32  # load0_inp: stage 0, partition 0 (group 0)
    inp_35 = gl.load(inp_34_l1, mask=mask_33, other=float("-inf"))  # load0_inp: stage 0, partition 0 (group 0)
    inp_35_p1 = inp_35
    m_new_l1_p1 = m_new_l1
    z_43_p1 = z_43
    for twill_b in range(1, twill_n):
        n_offsets_31_l1 = (previous_multiple_6 + (twill_b - 0) * 4096)  # load0_inp: stage 0, partition 0 (group 0)
        n_offsets_32 = n_offsets_31_l1 + n_offsets_8  # load0_inp: stage 0, partition 0 (group 0)
        mask_33 = n_offsets_32 < N  # load0_inp: stage 0, partition 0 (group 0)
        inp_34_l1 = input_ptr_2 + n_offsets_32  # load0_inp: stage 0, partition 0 (group 0)
        inp_35 = gl.load(inp_34_l1, mask=mask_33, other=float("-inf"))  # load0_inp: stage 0, partition 0 (group 0)
        inp_36 = inp_35_p1.to(gl.float32)  # convert0_inp: stage 1, partition 0 (group 0)
        m_new_l1 = gl.maximum(m_new_l1_p1, inp_36)  # elementwise0_m_new: stage 1, partition 0 (group 0)
        z_37_l1 = m_new_l1_p1 - m_new_l1  # sfu0_z: stage 1, partition 0 (group 0)
        z_38_l1 = gl.exp(z_37_l1)  # sfu0_z: stage 1, partition 0 (group 0)
        z_40_l1 = inp_36 - m_new_l1  # sfu1_z: stage 1, partition 0 (group 0)
        z_41_l1 = gl.exp(z_40_l1)  # sfu1_z: stage 1, partition 0 (group 0)
        all_neg_inf_l1 = m_new_l1 == float("-inf")  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
        z_39_l1 = z_43_p1 * z_38_l1  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
        z_42 = z_39_l1 + z_41_l1  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
        z_43 = gl.where(all_neg_inf_l1, z_43_p1, z_42)  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
        inp_35_p1 = inp_35
        m_new_l1_p1 = m_new_l1
        z_43_p1 = z_43
    inp_36 = inp_35_p1.to(gl.float32)  # convert0_inp: stage 1, partition 0 (group 0)
    m_new_l1 = gl.maximum(m_new_l1_p1, inp_36)  # elementwise0_m_new: stage 1, partition 0 (group 0)
    z_37_l1 = m_new_l1_p1 - m_new_l1  # sfu0_z: stage 1, partition 0 (group 0)
    z_38_l1 = gl.exp(z_37_l1)  # sfu0_z: stage 1, partition 0 (group 0)
    z_40_l1 = inp_36 - m_new_l1  # sfu1_z: stage 1, partition 0 (group 0)
    z_41_l1 = gl.exp(z_40_l1)  # sfu1_z: stage 1, partition 0 (group 0)
    all_neg_inf_l1 = m_new_l1 == float("-inf")  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
    z_39_l1 = z_43_p1 * z_38_l1  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
    z_42 = z_39_l1 + z_41_l1  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
    z_43 = gl.where(all_neg_inf_l1, z_43_p1, z_42)  # elementwise1_all_neg_inf: stage 1, partition 0 (group 0)
    inp_35_p1 = inp_35
    m_new_l1_p1 = m_new_l1
    z_43_p1 = z_43
    twill_base += twill_n
    m_reduced = gl.max(m_new_l1_p1, axis=0)
    z_12 = m_new_l1_p1 - m_reduced
    z_13 = gl.exp(z_12)
    z_14 = z_43_p1 * z_13
    z_15 = gl.sum(z_14, axis=0)
    n_offsets_16 = gl.arange(0, 4096, layout=L0)
    n_offsets_18 = previous_multiple_6 + n_offsets_16
    mask_20 = n_offsets_18 < N
    inp_22 = input_ptr_2 + n_offsets_18
    inp_23 = gl.load(inp_22, mask=mask_20, other=float("-inf"), eviction_policy='evict_first')
    inp_24 = inp_23.to(gl.float32)
    o = inp_24 - m_reduced
    o_25 = gl.exp(o)
    o_27 = o_25 / z_15
    v1 = output_ptr_3 + n_offsets_18
    v2 = o_27.to(gl.float16)
    gl.store(v1, v2, mask=mask_20)
    twill_n = gl.maximum((N - 4096 + 4096 - 1) // 4096, 0)
    if (twill_n >= 3) | (gl.program_id(0) < 0):
        n_offsets_28 = previous_multiple_6 - (4096 + (0 - 0) * 4096)  # load0_inp: stage 0, partition 0 (group 0)
        n_offsets_29 = n_offsets_28  # load0_inp: stage 0, partition 0 (group 0)
        n_offsets_30 = n_offsets_29 + n_offsets_16  # load0_inp: stage 0, partition 0 (group 0)
        inp_31 = input_ptr_2 + n_offsets_30  # load0_inp: stage 0, partition 0 (group 0)
        inp_32 = gl.load(inp_31, eviction_policy='evict_first')  # load0_inp: stage 0, partition 0 (group 0)
        inp_32_p1 = inp_32
        n_offsets_30_p1 = n_offsets_30
        n_offsets_28 = previous_multiple_6 - (4096 + (1 - 0) * 4096)  # load0_inp: stage 0, partition 0 (group 0)
        n_offsets_29 = n_offsets_28  # load0_inp: stage 0, partition 0 (group 0)
        n_offsets_30 = n_offsets_29 + n_offsets_16  # load0_inp: stage 0, partition 0 (group 0)
        inp_31 = input_ptr_2 + n_offsets_30  # load0_inp: stage 0, partition 0 (group 0)
        inp_32 = gl.load(inp_31, eviction_policy='evict_first')  # load0_inp: stage 0, partition 0 (group 0)
        inp_33 = inp_32_p1.to(gl.float32)  # convert0_inp: stage 1, partition 0 (group 0)
        o_34 = inp_33 - m_reduced  # sfu0_o: stage 1, partition 0 (group 0)
        o_35 = gl.exp(o_34)  # sfu0_o: stage 1, partition 0 (group 0)
        inp_32_p1 = inp_32
        n_offsets_30_p2 = n_offsets_30_p1
        n_offsets_30_p1 = n_offsets_30
        o_35_p1 = o_35
        n_offsets_28 = previous_multiple_6 - (4096 + (2 - 0) * 4096)  # load0_inp: stage 0, partition 0 (group 0)
        n_offsets_29 = n_offsets_28  # load0_inp: stage 0, partition 0 (group 0)
        n_offsets_30 = n_offsets_29 + n_offsets_16  # load0_inp: stage 0, partition 0 (group 0)
        inp_31 = input_ptr_2 + n_offsets_30  # load0_inp: stage 0, partition 0 (group 0)
        inp_32 = gl.load(inp_31, eviction_policy='evict_first')  # load0_inp: stage 0, partition 0 (group 0)
        inp_33 = inp_32_p1.to(gl.float32)  # convert0_inp: stage 1, partition 0 (group 0)
        o_34 = inp_33 - m_reduced  # sfu0_o: stage 1, partition 0 (group 0)
        o_35 = gl.exp(o_34)  # sfu0_o: stage 1, partition 0 (group 0)
        o_36 = o_35_p1 / z_15  # elementwise0_o: stage 2, partition 0 (group 0)
        inp_32_p1 = inp_32
        n_offsets_30_p3 = n_offsets_30_p2
        n_offsets_30_p2 = n_offsets_30_p1
        n_offsets_30_p1 = n_offsets_30
        o_35_p1 = o_35
        o_36_p1 = o_36
        for twill_b in range(3, twill_n):
            n_offsets_28 = previous_multiple_6 - (4096 + (twill_b - 0) * 4096)  # load0_inp: stage 0, partition 0 (group 0)
            n_offsets_29 = n_offsets_28  # load0_inp: stage 0, partition 0 (group 0)
            n_offsets_30 = n_offsets_29 + n_offsets_16  # load0_inp: stage 0, partition 0 (group 0)
            inp_31 = input_ptr_2 + n_offsets_30  # load0_inp: stage 0, partition 0 (group 0)
            inp_32 = gl.load(inp_31, eviction_policy='evict_first')  # load0_inp: stage 0, partition 0 (group 0)
            inp_33 = inp_32_p1.to(gl.float32)  # convert0_inp: stage 1, partition 0 (group 0)
            o_34 = inp_33 - m_reduced  # sfu0_o: stage 1, partition 0 (group 0)
            o_35 = gl.exp(o_34)  # sfu0_o: stage 1, partition 0 (group 0)
            v4 = o_36_p1.to(gl.float16)  # convert1: stage 3, partition 0 (group 0)
            v3 = output_ptr_3 + n_offsets_30_p3  # store0: stage 3, partition 0 (group 0)
            gl.store(v3, v4)  # store0: stage 3, partition 0 (group 0)
            o_36 = o_35_p1 / z_15  # elementwise0_o: stage 2, partition 0 (group 0)
            inp_32_p1 = inp_32
            n_offsets_30_p3 = n_offsets_30_p2
            n_offsets_30_p2 = n_offsets_30_p1
            n_offsets_30_p1 = n_offsets_30
            o_35_p1 = o_35
            o_36_p1 = o_36
        inp_33 = inp_32_p1.to(gl.float32)  # convert0_inp: stage 1, partition 0 (group 0)
        o_34 = inp_33 - m_reduced  # sfu0_o: stage 1, partition 0 (group 0)
        o_35 = gl.exp(o_34)  # sfu0_o: stage 1, partition 0 (group 0)
        v4 = o_36_p1.to(gl.float16)  # convert1: stage 3, partition 0 (group 0)
        v3 = output_ptr_3 + n_offsets_30_p3  # store0: stage 3, partition 0 (group 0)
        gl.store(v3, v4)  # store0: stage 3, partition 0 (group 0)
        o_36 = o_35_p1 / z_15  # elementwise0_o: stage 2, partition 0 (group 0)
        inp_32_p1 = inp_32
        n_offsets_30_p3 = n_offsets_30_p2
        n_offsets_30_p2 = n_offsets_30_p1
        n_offsets_30_p1 = n_offsets_30
        o_35_p1 = o_35
        o_36_p1 = o_36
        v4 = o_36_p1.to(gl.float16)  # convert1: stage 3, partition 0 (group 0)
        v3 = output_ptr_3 + n_offsets_30_p3  # store0: stage 3, partition 0 (group 0)
        gl.store(v3, v4)  # store0: stage 3, partition 0 (group 0)
        o_36 = o_35_p1 / z_15  # elementwise0_o: stage 2, partition 0 (group 0)
        inp_32_p1 = inp_32
        n_offsets_30_p3 = n_offsets_30_p2
        n_offsets_30_p2 = n_offsets_30_p1
        n_offsets_30_p1 = n_offsets_30
        o_35_p1 = o_35
        o_36_p1 = o_36
        v4 = o_36_p1.to(gl.float16)  # convert1: stage 3, partition 0 (group 0)
        v3 = output_ptr_3 + n_offsets_30_p3  # store0: stage 3, partition 0 (group 0)
        gl.store(v3, v4)  # store0: stage 3, partition 0 (group 0)
        inp_32_p1 = inp_32
        n_offsets_30_p3 = n_offsets_30_p2
        n_offsets_30_p2 = n_offsets_30_p1
        n_offsets_30_p1 = n_offsets_30
        o_35_p1 = o_35
        o_36_p1 = o_36
    else:
        for start_n_w in range(4096, N, 4096):
            n_offsets_28_w = previous_multiple_6 - start_n_w
            n_offsets_30_w = n_offsets_28_w + n_offsets_16
            inp_31_w = input_ptr_2 + n_offsets_30_w
            inp_32_w = gl.load(inp_31_w, eviction_policy='evict_first')
            inp_33_w = inp_32_w.to(gl.float32)
            o_34_w = inp_33_w - m_reduced
            o_35_w = gl.exp(o_34_w)
            o_36_w = o_35_w / z_15
            v3_w = output_ptr_3 + n_offsets_30_w
            v4_w = o_36_w.to(gl.float16)
            gl.store(v3_w, v4_w)

@gluon.jit
def twill_kernel(output_ptr, input_ptr, M, N):
    consumer_0(output_ptr, input_ptr, M, N, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['output_ptr', 'input_ptr', 'M', 'N', 'TILE_N', 'ONE_TILE_PER_CTA']          # the Triton kernel's parameters, in order
RUNTIME = ['output_ptr', 'input_ptr', 'M', 'N']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['output_ptr', 'input_ptr', 'M', 'N']   # the arguments a launch key reads
CONSTEXPRS = {'TILE_N': 4096, 'ONE_TILE_PER_CTA': False}         # the specialisation this kernel was generated for
HEURISTICS = {'TILE_N': 'heur_tile_n_inner', 'ONE_TILE_PER_CTA': 'heur_one_tile_per_cta'}   # @triton.heuristics of the kernel: each checked per launch key
HEURISTIC_ARGS = {}   # ... and the arguments they supply, set every launch
HEURISTIC_SCOPE = ['import triton', "def heur_one_tile_per_cta(args):\n    return args['TILE_N'] >= args['N']", "def heur_tile_n_inner(args):\n    if args['N'] <= 32 * 1024:\n        return triton.next_power_of_2(args['N'])\n    else:\n        return 4096"]   # what they read of the kernel's module
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 16
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
    trips = _ev('(((((N + 4095) // 4096) * 4096) - 4096) + 4096 - 1) // 4096', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((((((N + 4095) // 4096) * 4096) - 4096) + 4096 - 1) // 4096): run the Triton kernel for it")
    trips = _ev('(N - ((((N + 4095) // 4096) * 4096) - 4096) + 4096 - 1) // 4096', dict(bound, **CONSTEXPRS))
    if trips < 1:   # the pipeline's prologue runs 1 iteration(s) before its loop checks any
        raise ValueError(f"twill: this Gluon kernel's loop must run at least 1 iteration(s) a program; this launch gives {trips} ((N - ((((N + 4095) // 4096) * 4096) - 4096) + 4096 - 1) // 4096): run the Triton kernel for it")
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
