"""_fwd_kernel_apply_penalty, written by twill from its joint schedule: I=125 L=166 (optimal), 1000 cycles per iteration predicted.

Decisions (each from the schedule):
- one partition, no producer (nothing to stream: the loop's loads are pointer loads its own warps issue, a stage ahead of their readers; 3 stages), so no warp_specialize: 8 warps, registers as ptxas allocates them (the schedule's tiles need about 46 per thread)
- shared memory: 16 bytes planned of 232448; maxnreg unset (ptxas allocates)
- loop at lightllm_apply_penalty.py:91 (TTGIR line 89) (after the scheduled loop): written by the same partitions, its loads issued by the partition itself in registers (no ring, no producer), in one stage of its own schedule (I=302, optimal among one-stage schedules with each op in the warp group of its row sub-tile)

Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``
with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.
"""
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)

L0 = gl.constexpr(gl.BlockedLayout(size_per_thread=[1], threads_per_warp=[32], warps_per_cta=[8], order=[0]))

@gluon.jit
def consumer_0(Logits, stride_logit_b, b_req_idx, req_to_presence_penalty, req_to_frequency_penalty, req_to_repetition_penalty, req_to_exponential_decay_length_penalty, b_length_penalty_param, p_token_ids, p_token_counts, p_cumsum_seq_len, eos_ids, b_mask_eos_reqs, vocab_size):
    twill_base = 0
    cur_batch = gl.program_id(0)
    cur_req_idx = b_req_idx + cur_batch
    cur_req_idx_2 = gl.load(cur_req_idx)
    cur_freqency = req_to_frequency_penalty + cur_req_idx_2
    cur_freqency_3 = gl.load(cur_freqency)
    cur_presence = req_to_presence_penalty + cur_req_idx_2
    cur_presence_4 = gl.load(cur_presence)
    cur_repetition = req_to_repetition_penalty + cur_req_idx_2
    cur_repetition_5 = gl.load(cur_repetition)
    cur_batch_start_index = p_cumsum_seq_len + cur_batch
    cur_batch_start_index_6 = gl.load(cur_batch_start_index)
    cur_batch_end_index = cur_batch_start_index + 1
    cur_batch_end_index_7 = gl.load(cur_batch_end_index)
    cur_batch_id_offset = gl.arange(0, 1024, layout=L0)
    row_start_ptr = cur_batch * stride_logit_b
    row_start_ptr_9 = Logits + row_start_ptr
    twill_n = gl.maximum((cur_batch_end_index_7 - cur_batch_start_index_6 + 1024 - 1) // 1024, 0)
    if (twill_n >= 2) | (gl.program_id(0) < 0):
        cur_batch_id_offset_22 = (cur_batch_start_index_6 + (0 - 0) * 1024)  # load0_token_ids: stage 0, partition 0 (group 0)
        cur_batch_id_offset_23 = cur_batch_id_offset_22 + cur_batch_id_offset  # load0_token_ids: stage 0, partition 0 (group 0)
        token_ids_24 = cur_batch_id_offset_23 < cur_batch_end_index_7  # load0_token_ids: stage 0, partition 0 (group 0)
        token_ids_25 = p_token_ids + cur_batch_id_offset_23  # load0_token_ids: stage 0, partition 0 (group 0)
        token_ids_26 = gl.load(token_ids_25, mask=token_ids_24, other=0)  # load0_token_ids: stage 0, partition 0 (group 0)
        cur_batch_id_offset_23_p1 = cur_batch_id_offset_23
        token_ids_24_p1 = token_ids_24
        token_ids_26_p1 = token_ids_26
        token_ids_count_27 = p_token_counts + cur_batch_id_offset_23_p1  # load1_token_ids_count: stage 1, partition 0 (group 0)
        token_ids_count_28 = gl.load(token_ids_count_27, mask=token_ids_24_p1, other=0)  # load1_token_ids_count: stage 1, partition 0 (group 0)
        cur_batch_id_offset_22 = (cur_batch_start_index_6 + (1 - 0) * 1024)  # load0_token_ids: stage 0, partition 0 (group 0)
        cur_batch_id_offset_23 = cur_batch_id_offset_22 + cur_batch_id_offset  # load0_token_ids: stage 0, partition 0 (group 0)
        token_ids_24 = cur_batch_id_offset_23 < cur_batch_end_index_7  # load0_token_ids: stage 0, partition 0 (group 0)
        token_ids_25 = p_token_ids + cur_batch_id_offset_23  # load0_token_ids: stage 0, partition 0 (group 0)
        token_ids_26 = gl.load(token_ids_25, mask=token_ids_24, other=0)  # load0_token_ids: stage 0, partition 0 (group 0)
        cur_logits_30 = token_ids_26_p1 < vocab_size  # elementwise0_cur_logits: stage 1, partition 0 (group 0)
        cur_logits_31 = token_ids_24_p1 & cur_logits_30  # elementwise0_cur_logits: stage 1, partition 0 (group 0)
        cur_offset_29 = row_start_ptr_9 + token_ids_26_p1  # load2_cur_logits: stage 1, partition 0 (group 0)
        gl.thread_barrier()
        cur_logits_32 = gl.load(cur_offset_29, mask=cur_logits_31, other=0.0)  # load2_cur_logits: stage 1, partition 0 (group 0)
        cur_batch_id_offset_23_p1 = cur_batch_id_offset_23
        cur_logits_31_p1 = cur_logits_31
        cur_logits_32_p1 = cur_logits_32
        cur_offset_29_p1 = cur_offset_29
        token_ids_24_p1 = token_ids_24
        token_ids_26_p1 = token_ids_26
        token_ids_count_28_p1 = token_ids_count_28
        for twill_b in range(2, twill_n):
            token_ids_count_27 = p_token_counts + cur_batch_id_offset_23_p1  # load1_token_ids_count: stage 1, partition 0 (group 0)
            token_ids_count_28 = gl.load(token_ids_count_27, mask=token_ids_24_p1, other=0)  # load1_token_ids_count: stage 1, partition 0 (group 0)
            freq_logits_37 = token_ids_count_28_p1.to(gl.float32)  # convert0_freq_logits: stage 2, partition 0 (group 0)
            cur_batch_id_offset_22 = (cur_batch_start_index_6 + (twill_b - 0) * 1024)  # load0_token_ids: stage 0, partition 0 (group 0)
            cur_batch_id_offset_23 = cur_batch_id_offset_22 + cur_batch_id_offset  # load0_token_ids: stage 0, partition 0 (group 0)
            token_ids_24 = cur_batch_id_offset_23 < cur_batch_end_index_7  # load0_token_ids: stage 0, partition 0 (group 0)
            token_ids_25 = p_token_ids + cur_batch_id_offset_23  # load0_token_ids: stage 0, partition 0 (group 0)
            token_ids_26 = gl.load(token_ids_25, mask=token_ids_24, other=0)  # load0_token_ids: stage 0, partition 0 (group 0)
            cur_logits_30 = token_ids_26_p1 < vocab_size  # elementwise0_cur_logits: stage 1, partition 0 (group 0)
            cur_logits_31 = token_ids_24_p1 & cur_logits_30  # elementwise0_cur_logits: stage 1, partition 0 (group 0)
            rep_logits_33 = cur_logits_32_p1 > 0.0  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
            rep_logits_34 = cur_logits_32_p1 / cur_repetition_5  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
            rep_logits_35 = cur_logits_32_p1 * cur_repetition_5  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
            rep_logits_36 = gl.where(rep_logits_33, rep_logits_34, rep_logits_35)  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
            freq_logits_38 = freq_logits_37 * cur_freqency_3  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
            freq_logits_39 = rep_logits_36 - freq_logits_38  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
            pre_logits_40 = freq_logits_39 - cur_presence_4  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
            gl.store(cur_offset_29_p1, pre_logits_40, mask=cur_logits_31_p1)  # store0: stage 2, partition 0 (group 0)
            cur_offset_29 = row_start_ptr_9 + token_ids_26_p1  # load2_cur_logits: stage 1, partition 0 (group 0)
            gl.thread_barrier()
            cur_logits_32 = gl.load(cur_offset_29, mask=cur_logits_31, other=0.0)  # load2_cur_logits: stage 1, partition 0 (group 0)
            cur_batch_id_offset_23_p1 = cur_batch_id_offset_23
            cur_logits_31_p1 = cur_logits_31
            cur_logits_32_p1 = cur_logits_32
            cur_offset_29_p1 = cur_offset_29
            token_ids_24_p1 = token_ids_24
            token_ids_26_p1 = token_ids_26
            token_ids_count_28_p1 = token_ids_count_28
        token_ids_count_27 = p_token_counts + cur_batch_id_offset_23_p1  # load1_token_ids_count: stage 1, partition 0 (group 0)
        token_ids_count_28 = gl.load(token_ids_count_27, mask=token_ids_24_p1, other=0)  # load1_token_ids_count: stage 1, partition 0 (group 0)
        freq_logits_37 = token_ids_count_28_p1.to(gl.float32)  # convert0_freq_logits: stage 2, partition 0 (group 0)
        cur_logits_30 = token_ids_26_p1 < vocab_size  # elementwise0_cur_logits: stage 1, partition 0 (group 0)
        cur_logits_31 = token_ids_24_p1 & cur_logits_30  # elementwise0_cur_logits: stage 1, partition 0 (group 0)
        rep_logits_33 = cur_logits_32_p1 > 0.0  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        rep_logits_34 = cur_logits_32_p1 / cur_repetition_5  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        rep_logits_35 = cur_logits_32_p1 * cur_repetition_5  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        rep_logits_36 = gl.where(rep_logits_33, rep_logits_34, rep_logits_35)  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        freq_logits_38 = freq_logits_37 * cur_freqency_3  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        freq_logits_39 = rep_logits_36 - freq_logits_38  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        pre_logits_40 = freq_logits_39 - cur_presence_4  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        gl.store(cur_offset_29_p1, pre_logits_40, mask=cur_logits_31_p1)  # store0: stage 2, partition 0 (group 0)
        cur_offset_29 = row_start_ptr_9 + token_ids_26_p1  # load2_cur_logits: stage 1, partition 0 (group 0)
        gl.thread_barrier()
        cur_logits_32 = gl.load(cur_offset_29, mask=cur_logits_31, other=0.0)  # load2_cur_logits: stage 1, partition 0 (group 0)
        cur_batch_id_offset_23_p1 = cur_batch_id_offset_23
        cur_logits_31_p1 = cur_logits_31
        cur_logits_32_p1 = cur_logits_32
        cur_offset_29_p1 = cur_offset_29
        token_ids_24_p1 = token_ids_24
        token_ids_26_p1 = token_ids_26
        token_ids_count_28_p1 = token_ids_count_28
        freq_logits_37 = token_ids_count_28_p1.to(gl.float32)  # convert0_freq_logits: stage 2, partition 0 (group 0)
        rep_logits_33 = cur_logits_32_p1 > 0.0  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        rep_logits_34 = cur_logits_32_p1 / cur_repetition_5  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        rep_logits_35 = cur_logits_32_p1 * cur_repetition_5  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        rep_logits_36 = gl.where(rep_logits_33, rep_logits_34, rep_logits_35)  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        freq_logits_38 = freq_logits_37 * cur_freqency_3  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        freq_logits_39 = rep_logits_36 - freq_logits_38  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        pre_logits_40 = freq_logits_39 - cur_presence_4  # elementwise1_rep_logits: stage 2, partition 0 (group 0)
        gl.store(cur_offset_29_p1, pre_logits_40, mask=cur_logits_31_p1)  # store0: stage 2, partition 0 (group 0)
        cur_batch_id_offset_23_p1 = cur_batch_id_offset_23
        cur_logits_31_p1 = cur_logits_31
        cur_logits_32_p1 = cur_logits_32
        cur_offset_29_p1 = cur_offset_29
        token_ids_24_p1 = token_ids_24
        token_ids_26_p1 = token_ids_26
        token_ids_count_28_p1 = token_ids_count_28
    else:
        for block_start_index_w in range(cur_batch_start_index_6, cur_batch_end_index_7, 1024):
            cur_batch_id_offset_23_w = block_start_index_w + cur_batch_id_offset
            token_ids_24_w = cur_batch_id_offset_23_w < cur_batch_end_index_7
            token_ids_25_w = p_token_ids + cur_batch_id_offset_23_w
            token_ids_26_w = gl.load(token_ids_25_w, mask=token_ids_24_w, other=0)
            token_ids_count_27_w = p_token_counts + cur_batch_id_offset_23_w
            token_ids_count_28_w = gl.load(token_ids_count_27_w, mask=token_ids_24_w, other=0)
            cur_offset_29_w = row_start_ptr_9 + token_ids_26_w
            cur_logits_30_w = token_ids_26_w < vocab_size
            cur_logits_31_w = token_ids_24_w & cur_logits_30_w
            cur_logits_32_w = gl.load(cur_offset_29_w, mask=cur_logits_31_w, other=0.0)
            rep_logits_33_w = cur_logits_32_w > 0.0
            rep_logits_34_w = cur_logits_32_w / cur_repetition_5
            rep_logits_35_w = cur_logits_32_w * cur_repetition_5
            rep_logits_36_w = gl.where(rep_logits_33_w, rep_logits_34_w, rep_logits_35_w)
            freq_logits_37_w = token_ids_count_28_w.to(gl.float32)
            freq_logits_38_w = freq_logits_37_w * cur_freqency_3
            freq_logits_39_w = rep_logits_36_w - freq_logits_38_w
            pre_logits_40_w = freq_logits_39_w - cur_presence_4
            gl.store(cur_offset_29_w, pre_logits_40_w, mask=cur_logits_31_w)
    twill_base += twill_n
    mask_eos_10 = b_mask_eos_reqs + cur_batch
    mask_eos_11 = gl.cast(mask_eos_10, gl.pointer_type(gl.int8), bitcast=True)
    mask_eos_12 = gl.load(mask_eos_11)
    mask_eos_13 = mask_eos_12 != 0
    exponential_decay_length_penalty = req_to_exponential_decay_length_penalty + cur_req_idx_2
    exponential_decay_length_penalty_14 = gl.load(exponential_decay_length_penalty)
    length_penalty = b_length_penalty_param + cur_batch
    length_penalty_15 = gl.load(length_penalty)
    penalty_scale_16 = gl.log2(exponential_decay_length_penalty_14)
    penalty_scale_17 = gl.cast(length_penalty_15, gl.float32)
    penalty_scale_18 = penalty_scale_16 * penalty_scale_17
    penalty_scale_19 = gl.exp2(penalty_scale_18)
    penalty_scale_20 = penalty_scale_19 - 1.0
    cur_eos_logit_ptr = cur_batch * stride_logit_b
    cur_eos_logit_ptr_21 = Logits + cur_eos_logit_ptr
    twill_n = (2 - 0 + 1 - 1) // 1
    for twill_b in range(0, twill_n):
        eos_id = eos_ids + (0 + (twill_b - 0) * 1)  # load0_eos_id: stage 0, partition 0 (group 0)
        eos_id_22 = gl.load(eos_id)  # load0_eos_id: stage 0, partition 0 (group 0)
        cur_eos_logit_ptr_23 = cur_eos_logit_ptr_21 + eos_id_22  # load1_cur_eos_logit: stage 0, partition 0 (group 0)
        gl.thread_barrier()
        cur_eos_logit = gl.load(cur_eos_logit_ptr_23)  # load1_cur_eos_logit: stage 0, partition 0 (group 0)
        cur_eos_logit_24 = gl.abs(cur_eos_logit)  # elementwise0_cur_eos_logit: stage 0, partition 0 (group 0)
        cur_eos_logit_25 = cur_eos_logit_24 * penalty_scale_20  # elementwise0_cur_eos_logit: stage 0, partition 0 (group 0)
        cur_eos_logit_26 = cur_eos_logit + cur_eos_logit_25  # elementwise0_cur_eos_logit: stage 0, partition 0 (group 0)
        cur_eos_logit_27 = gl.where(mask_eos_13, -10000000.0, cur_eos_logit_26)  # elementwise0_cur_eos_logit: stage 0, partition 0 (group 0)
        gl.store(cur_eos_logit_ptr_23, cur_eos_logit_27)  # store0: stage 0, partition 0 (group 0)

@gluon.jit
def twill_kernel(Logits, stride_logit_b, b_req_idx, req_to_presence_penalty, req_to_frequency_penalty, req_to_repetition_penalty, req_to_exponential_decay_length_penalty, b_length_penalty_param, p_token_ids, p_token_counts, p_cumsum_seq_len, eos_ids, b_mask_eos_reqs, vocab_size):
    consumer_0(Logits, stride_logit_b, b_req_idx, req_to_presence_penalty, req_to_frequency_penalty, req_to_repetition_penalty, req_to_exponential_decay_length_penalty, b_length_penalty_param, p_token_ids, p_token_counts, p_cumsum_seq_len, eos_ids, b_mask_eos_reqs, vocab_size, )



# -- host side -------------------------------------------------------------------------------------
ARGUMENTS = ['Logits', 'stride_logit_b', 'stride_logit_s', 'b_req_idx', 'req_to_presence_penalty', 'req_to_frequency_penalty', 'req_to_repetition_penalty', 'req_to_exponential_decay_length_penalty', 'b_length_penalty_param', 'p_token_ids', 'p_token_counts', 'p_cumsum_seq_len', 'eos_ids', 'b_mask_eos_reqs', 'vocab_size', 'BLOCK_P', 'EOS_ID_NUM']          # the Triton kernel's parameters, in order
RUNTIME = ['Logits', 'stride_logit_b', 'b_req_idx', 'req_to_presence_penalty', 'req_to_frequency_penalty', 'req_to_repetition_penalty', 'req_to_exponential_decay_length_penalty', 'b_length_penalty_param', 'p_token_ids', 'p_token_counts', 'p_cumsum_seq_len', 'eos_ids', 'b_mask_eos_reqs', 'vocab_size']   # the Gluon kernel's parameters, in order
FLAGS = []   # its constexpr flags, after RUNTIME: decided per launch key
KEYED = ['Logits', 'stride_logit_b', 'b_req_idx', 'req_to_presence_penalty', 'req_to_frequency_penalty', 'req_to_repetition_penalty', 'req_to_exponential_decay_length_penalty', 'b_length_penalty_param', 'p_token_ids', 'p_token_counts', 'p_cumsum_seq_len', 'eos_ids', 'b_mask_eos_reqs', 'vocab_size']   # the arguments a launch key reads
CONSTEXPRS = {'stride_logit_s': 1, 'BLOCK_P': 1024, 'EOS_ID_NUM': 2}         # the specialisation this kernel was generated for
DESCRIPTOR_BLOCKS = {}
DESCRIPTOR_LAYOUTS = {}
NUM_WARPS = 8
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
