"""Generate the Gluon kernels the GPU benchmark runs (on the CPU: `twill optimize` for each variant).

    python bench/gluon_variants.py [OUT_DIR] [--only LABEL ...] [--regenerate]

Each variant is one `twill optimize` run into OUT_DIR/LABEL (default bench/results/gluon/), with a
``variant.json`` naming the kernel file and its Triton JIT function, which `bench/gluon_gpu.py`
swaps for the generated kernel. The variants are the schedules the search proves best and the
knobs beside them that the probe measured (one compute group instead of two; no tensor-core order; one
CTA per tile instead of a persistent kernel; a group's dependent dots an iteration apart where the replay ranks it faster, LOOKAHEAD;
the costs calibrated from the generated kernels' profiles, --calibrated).
``--regenerate`` writes each variant's ``kernel_gluon.py`` and ``kernel_gluon.ttgir`` again from its committed
schedule (``gluon.json``) with the generator as it is now, without solving again: after a generator change,
the committed kernels are the ones the tests and the next GPU run see.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from twill.errors import TwillError  # noqa: E402
# label -> (kernel file, Triton JIT function, extra `twill optimize` flags)
VARIANTS = {
    "fa3": ("kernels/fa3.py", "_attn_fwd", []),
    "fa3-lookahead": ("kernels/fa3.py", "_attn_fwd", ["--lookahead"]),
    "fa3-calibrated": ("kernels/fa3.py", "_attn_fwd", ["--calibrated"]),
    "fa3-not-persistent": ("kernels/fa3.py", "_attn_fwd", ["--persistent", "off"]),
    "fa3-tc-order": ("kernels/fa3.py", "_attn_fwd", ["--tc-order"]),
    "fa3-one-group": ("kernels/fa3.py", "_attn_fwd", ["--row-split", "1"]),
    "fa3_subtiled": ("kernels/fa3_subtiled.py", "_attn_fwd_subtiled", []),
    "gemm": ("kernels/gemm.py", "_gemm", []),
    "gemm-not-persistent": ("kernels/gemm.py", "_gemm", ["--persistent", "off"]),
    "gemm-two-groups": ("kernels/gemm.py", "_gemm", ["--row-split", "2"]),
    "fa_bwd": ("kernels/fa_bwd.py", "_attn_bwd", []),
    "fa_causal": ("tests/corpus/causal_attention.py", "_attn_fwd", []),
    "tail_gemm": ("tests/corpus/tail_loop_gemm.py", "tail_gemm", []),
    "online_softmax": ("tests/corpus/online_softmax.py", "online_softmax", []),     # two loops, neither carries a tile
    "rms_norm_bwd": ("tests/corpus/rms_norm_bwd.py", "rms_norm_bwd", []),          # an address two loads share
    "row_absmax": ("tests/corpus/row_absmax.py", "row_absmax", []),                # a whole-block tl.max: tt.reshape
    "cross_entropy": ("tests/corpus/cross_entropy.py", "cross_entropy_fwd", []),    # an early return with a loop
    "guarded_gemm": ("tests/corpus/guarded_gemm.py", "guarded_gemm", []),          # an early return; an if's value
    "sibling_loops": ("tests/corpus/sibling_loops.py", "sibling_loops", []),       # a loop inside an if
    "scratch_buffer": ("tests/corpus/scratch_buffer.py", "scratch_loop", []),            # tl.debug_barrier twice
    "row_sumsq": ("tests/corpus/row_sumsq.py", "row_sumsq", []),                   # a store before the loop; x * x
    "layer_norm": ("tests/corpus/layer_norm.py", "_layer_norm_fwd_fused", []),     # tutorial 05: stores between loops
    "softmax_rows": ("tests/corpus/softmax_rows.py", "softmax_kernel", []),        # tutorial 02: a loop carrying nothing
    "persistent_gemm": ("tests/corpus/persistent_gemm.py", "matmul_persistent", []),  # tutorial 09: flatten=True
    "grouped_gemm": ("tests/corpus/grouped_gemm.py", "grouped_matmul", []),       # tutorial 08: for, while, K loop
    "decode_attention": ("tests/corpus/decode_attention.py", "_fwd_kernel_stage1", []),  # loop inside an if; gather
    "cumsum_rows": ("tests/corpus/cumsum_rows.py", "cumsum_rows", []),             # tl.cumsum: tt.scan
    "geglu_rows": ("tests/corpus/geglu_rows.py", "geglu_rows", []),                # libdevice.tanh
    "block_ptr_gemm": ("tests/corpus/block_ptr_gemm.py", "matmul_block_ptr", []),  # make_block_ptr / advance
    "splitk_gemm": ("tests/corpus/splitk_gemm.py", "splitk_gemm", []),            # a partial tile's atomic add
    "fp8_gemm": ("tests/corpus/fp8_gemm.py", "fp8_matmul", []),                    # fp8 e4m3, both operands K-major
    "pointer_attention": ("tests/corpus/pointer_attention.py", "attn_fwd_ptr", []),  # Q put in shared memory
    "awq_gemm": ("tests/corpus/awq_gemm.py", "awq_gemm_kernel", []),              # mma.sync; tl.interleave
    "w8a16_gemm": ("tests/corpus/w8a16_gemm.py", "w8a16_gemm", []),              # B dequantised in registers
    "grouped_decode_attention": ("tests/corpus/grouped_decode_attention.py", "_fwd_grouped_kernel_stage1", []),
    "chunk_state": ("tests/corpus/chunk_state.py", "chunk_fwd_kernel_h", []),     # a store of the carried state
    "fused_moe_decode": ("tests/corpus/fused_moe_decode.py", "fused_moe_kernel", []),  # gathered rows, mma.sync
    "ieee_gemm": ("tests/corpus/ieee_gemm.py", "ieee_gemm", []),                # an FMA dot (fp32, IEEE)
    "block_fp8_gemm": ("tests/corpus/block_fp8_gemm.py", "block_fp8_matmul", []),  # each K step's dot rescaled
    "diagonal_mask_attention": ("tests/corpus/diagonal_mask_attention.py", "attn_fwd_diagonal", []),  # if in the loop
    "int8_gemm": ("tests/corpus/int8_gemm.py", "gemm_i8", []),                  # B through the producer's registers
    "tf32_gemm": ("tests/corpus/tf32_gemm.py", "tf32_gemm", []),                # fp32 tiles: TF32 wgmma, B transposed
    "splitk_guarded": ("tests/corpus/splitk_guarded.py", "splitk_guarded", []),  # an if's result read after it
    "argmax_rows": ("tests/corpus/argmax_rows.py", "argmax_rows", []),         # tl.max(..., return_indices=True)
    "kmeans_assign": ("tests/corpus/kmeans_assign.py", "kmeans_assign_kernel", []),  # tl.min and tl.argmin
    "xformers_bias_dropout_residual": ("tests/corpus/xformers_bias_dropout_residual.py", "_bias_dropout_add_fw",
                                       []),                               # tl.randint4x, tl.xor_sum, tl.cat
    "streamk_serial_splitk_gemm": ("tests/corpus/streamk_serial_splitk_gemm.py", "_splitk_serial_gemm", []),  # spin
    "accelerated_scan_gated_chunks": ("tests/corpus/accelerated_scan_gated_chunks.py", "_gated_scan_chunked_fwd",
                                      []),                                # tl.cumprod, div_rn, fma
    "te_pow2_fp8_e5m2_quant": ("tests/corpus/te_pow2_fp8_e5m2_quant.py", "_cast_fp8e5_pow2", []),  # rtne, bitcasts
    "fla_reverse_cumsum_norm": ("tests/corpus/fla_reverse_cumsum_norm.py", "_reverse_cumsum_norm", []),  # tl.advance < 0
    "sglang_w8a8_block_int8_gemm": ("tests/corpus/sglang_w8a8_block_int8_gemm.py", "_w8a8_block_int8_matmul",
                                    []),                                  # int32 dots, dequantised per group
    "welford_rows": ("tests/corpus/welford_rows.py", "welford_rows", []),      # tl.reduce with its own combiner
    "device_descriptor_gemm": ("tests/corpus/device_descriptor_gemm.py", "device_descriptor_gemm", []),  # made in-kernel
    "fused_recurrent": ("tests/corpus/fused_recurrent.py", "fused_recurrent_fwd", []),  # a store every step, no dot
    "varlen_attention": ("tests/corpus/varlen_attention.py", "attn_fwd_varlen", []),  # bounds loaded from memory
    "paged_prefill": ("tests/corpus/paged_prefill.py", "paged_prefill", []),   # K/V rows through a block table
    "dropout_rows": ("tests/corpus/dropout_rows.py", "dropout_rows", []),      # tl.rand: Philox's unsigned ops
    "rope_split": ("tests/corpus/rope_split.py", "rope_split", []),            # tl.split / tl.join of 3-D reshapes
    "scan_combine": ("tests/corpus/scan_combine.py", "linear_scan", []),       # associative_scan of two tensors
    "gather_rows": ("tests/corpus/gather_rows.py", "gather_rows", []),         # tl.gather
    "asm_gemm": ("tests/corpus/asm_gemm.py", "asm_gemm", []),                  # inline PTX on a TMA-loaded A
    "unroll_gemm": ("tests/corpus/unroll_gemm.py", "unroll_gemm", []),         # loop_unroll_factor=2: chained dots
    "reverse_recurrent": ("tests/corpus/reverse_recurrent.py", "fused_recurrent_bwd_dkv", []),  # a negative step
    "swiglu_gemm": ("tests/corpus/swiglu_gemm.py", "swiglu_mm", []),           # two dots share A each iteration
    "embedding_bwd": ("tests/corpus/embedding_bwd.py", "embedding_bwd", []),  # tl.atomic_add in the loop
    "split_kv_reduce": ("tests/corpus/split_kv_reduce.py", "_fwd_kernel_stage2", []),  # loads inside an if in the loop
    "chunk_output": ("tests/corpus/chunk_output.py", "chunk_fwd_kernel_o", []),  # a wgmma after the loop
    "prefix_scores": ("tests/corpus/prefix_scores.py", "prefix_scores", []),  # a wgmma before the loop
    "row_atomics": ("tests/corpus/row_atomics.py", "row_atomics", []),  # float atomic_max, atomic_cas, tl.flip
    "tma_rows": ("tests/corpus/tma_rows.py", "tma_rows", []),  # a TMA store inside the scheduled loop
    "square_attention": ("tests/corpus/square_attention.py", "attn_fwd_ptr", []),  # BLOCK_M == BLOCK_N: CSE'd ranges
    "square_attention-one-group": ("tests/corpus/square_attention.py", "attn_fwd_ptr", ["--row-split", "1"]),
    "token_quant_fp8": ("tests/corpus/token_quant_fp8.py", "per_token_quant", []),  # tl.clamp, an fp8 cast, two loops
    "chunk_kkt": ("tests/corpus/chunk_kkt.py", "chunk_scaled_dot_kkt", []),   # tl.trans of a register tile in the loop
    "inductor_softmax": ("tests/corpus/inductor_softmax.py", "triton_red_fused__softmax_0", []),  # torch.compile's
    "inductor_mm": ("tests/corpus/inductor_mm.py", "triton_tem_fused_mm_0", []),   # Inductor's mm template
    "flash_attn_triton": ("tests/corpus/flash_attn_triton.py", "_fwd_kernel", []),  # Tri Dao's, TMP store/load
    "fp8_attention": ("tests/corpus/fp8_attention.py", "_attn_fwd_fp8", []),  # tutorial 06's FP8 path, V^T by TMA
    "w4a16_gemm": ("tests/corpus/w4a16_gemm.py", "w4a16_gemm", []),          # 4-bit weights, tl.interleave
    "group_quant_fp8": ("tests/corpus/group_quant_fp8.py", "group_quant_fp8", []),  # 3-D reshape, a group max
    "chunk_scan": ("tests/corpus/chunk_scan.py", "_chunk_scan_fwd", []),     # Mamba-2 SSD, decay in registers
    "lightning_attention": ("tests/corpus/lightning_attention.py", "_lightning_fwd", ["--async-tiles", "on"]),  # a carried state dot
    "softcap_attention": ("tests/corpus/softcap_attention.py", "_softcap_fwd", []),  # D = 256, tanh, a window
    "sage_attention": ("tests/corpus/sage_attention.py", "_sage_fwd", []),  # int8 QK, per-block scales, fp16 PV sum
    "conv_implicit_gemm": ("tests/corpus/conv_implicit_gemm.py", "_conv_fwd", []),  # nine static_range tap loops
    "mx_gemm": ("tests/corpus/mx_gemm.py", "mx_gemm", []),                   # tl.dot_scaled, decomposed on Hopper
    "lora_shrink": ("tests/corpus/lora_shrink.py", "lora_shrink", []),        # gathered rows, split K, atomic_add
    "fp8_rowwise_gemm": ("tests/corpus/fp8_rowwise_gemm.py", "fp8_rowwise_mm", []),  # max_num_imprecise_acc=32
    "jagged_silu_attention": ("tests/corpus/jagged_silu_attention.py", "_hstu_fwd", []),  # HSTU: jagged, SiLU
    "i64_bounds_gemm": ("tests/corpus/i64_bounds_gemm.py", "i64_gemm", []),   # a loop over int64 bounds
    "gptq_gemm": ("tests/corpus/gptq_gemm.py", "matmul_248", []),              # AutoGPTQ: packed along K, g_idx
    "bias_attention": ("tests/corpus/bias_attention.py", "attn_bias", []),     # a bias tile loaded each iteration
    "liger_cross_entropy": ("tests/corpus/liger_cross_entropy.py", "liger_cross_entropy_kernel", []),  # 32 warps
    "block_mask_attention": ("tests/corpus/block_mask_attention.py", "block_mask_attn", []),  # dots inside an if
    "liger_jsd": ("tests/corpus/liger_jsd.py", "_jsd_kernel", []),           # 32 warps, an early return's loop
    "liger_kldiv": ("tests/corpus/liger_kldiv.py", "_kldiv_kernel_forward", []),   # a 16384-wide row at 16 warps
    "vllm_prefix_prefill": ("tests/corpus/vllm_prefix_prefill.py", "_fwd_kernel_alibi", []),  # two loops, two sources
    "liger_ce_softcap": ("tests/corpus/liger_ce_softcap.py", "liger_cross_entropy_kernel", []),   # softcap
    "liger_rms_norm_bwd": ("tests/corpus/liger_rms_norm_bwd.py", "_rms_norm_backward_kernel", []),   # dW partials
    "unsloth_ce_softcap": ("tests/corpus/unsloth_ce_softcap.py", "_looped_cross_entropy_forward", []),   # softcap
    "vllm_decode_stage1": ("tests/corpus/vllm_decode_stage1.py", "_fwd_kernel_stage1", []),   # paged decode, split KV
    "assume_gemm_gelu": ("tests/corpus/assume_gemm_gelu.py", "matmul_kernel", []),   # tl.assume, a GELU epilogue
    "batched_dot3d": ("tests/corpus/batched_dot3d.py", "bmm3d_kernel", []),   # a 3-D tl.dot
    "fla_chunk_h": ("tests/corpus/fla_chunk_h.py", "chunk_fwd_kernel_h", ["--async-tiles", "on"]),   # FLA's chunk state: a carried state dot
    "fla_chunk_o": ("tests/corpus/fla_chunk_o.py", "chunk_fwd_kernel_o", []),   # FLA's chunk output (one partition: 2 trips)
    "mamba_chunk_state": ("tests/corpus/mamba_chunk_state.py", "_chunk_state_fwd_kernel", []),   # Mamba-2's chunk state (run 97: the default route's short kernel, stored through registers, as --own-tiles on --prefetch 0 was)
    "tut06_attn_fwd": ("tests/corpus/tut06_attn_fwd.py", "_attn_fwd", []),   # tutorial 06
    "tut09_desc_persistent_ws": ("tests/corpus/tut09_desc_persistent_ws.py",
                                 "matmul_kernel_descriptor_persistent", []),   # tutorial 09, flatten=True
    "extend_attention": ("tests/corpus/extend_attention.py", "_fwd_kernel", []),   # SGLang
    "fused_recurrent_gla": ("tests/corpus/fused_recurrent_gla.py", "fused_recurrent_gla_fwd_kernel", []),  # no dot
    "grouped_matmul": ("tests/corpus/grouped_matmul.py", "grouped_matmul_kernel", []),   # tutorial 08's grouped GEMM
    "int4_gemm": ("tests/corpus/int4_gemm.py", "gemm_A16fWnO16f_int32packing_kernel", []),   # gemlite's int4 GEMM
    "rope_embedding": ("tests/corpus/rope_embedding.py", "_rope_embedding", []),   # Unsloth's RoPE, a loop over heads
    "inductor_layer_norm": ("tests/corpus/inductor_layer_norm.py", "triton_red_fused_native_layer_norm_0",
                            ["--issued-loads"]),   # Inductor: welford (runs 187, 189: x1.16-1.17 of its kernel without)
    "vllm_fused_moe": ("tests/corpus/vllm_fused_moe.py", "fused_moe_kernel", []),   # vLLM's fused MoE: sorted token rows, a zero-write branch
    "tut03_autotune_matmul": ("tests/corpus/tut03_autotune_matmul.py", "matmul_kernel", []),   # tutorial 03: autotuned, leaky_relu epilogue
    "torchao_int8_wo_mm": ("tests/corpus/torchao_int8_wo_mm.py", "int8_weight_only_matmul_kernel", ["--async-tiles", "on"]),   # int8 weights, a row scale after the loop
    "lightllm_token_att": ("tests/corpus/lightllm_token_att.py", "_fwd_kernel_token_att1", []),   # LightLLM decode: a token index table
    "mamba_bmm_chunk": ("tests/corpus/mamba_bmm_chunk.py", "_bmm_chunk_fwd_kernel", []),   # Mamba-2's chunked C^T B (run 97: the default route's short kernel, copied 1 ahead, 0.171 ms against 0.178 as --own-tiles on --prefetch 0)
    "fla_fused_chunk_retention": ("tests/corpus/fla_fused_chunk_retention.py", "fused_chunk_retention_fwd_kernel", ["--async-tiles", "on"]),   # an if inside the loop's if
    "attorch_layer_norm": ("tests/corpus/attorch_layer_norm.py", "layer_norm_forward_kernel", []),   # attorch LayerNorm
    "lightllm_context_attention": ("tests/corpus/lightllm_context_attention.py", "_fwd_kernel", []),   # LightLLM prefill attention
    "unsloth_swiglu_bwd": ("tests/corpus/unsloth_swiglu_bwd.py", "_DWf_DW_dfg_kernel", []),   # elementwise, no loop of its own
    "inductor_persistent_tma_flatten": ("tests/corpus/inductor_persistent_tma_flatten.py", "triton_tem_fused_mm_0", []),   # an early return before a flatten tile loop
    "fla_gated_delta_h": ("tests/corpus/fla_gated_delta_h.py", "chunk_gated_delta_rule_fwd_kernel_h", []),   # FLA gated delta rule state
    "flaggems_softmax_inner": ("tests/corpus/flaggems_softmax_inner.py", "softmax_kernel_inner", []),   # FlagGems online softmax, two loops
    "xformers_splitk_decode": ("tests/corpus/xformers_splitk_decode.py", "_fwd_kernel_splitK", []),   # xFormers split-K decoding
    "vllm_scaled_mm": ("tests/corpus/vllm_scaled_mm.py", "scaled_mm_kernel", []),   # vLLM int8 scaled_mm
    "inductor_log_softmax": ("tests/corpus/inductor_log_softmax.py", "triton_red_fused__log_softmax_0", []),   # Inductor log-softmax
    "inductor_persistent_tma_mm": ("tests/corpus/inductor_persistent_tma_mm.py", "triton_tem_fused_mm_0", []),   # Inductor persistent TMA template
    "vllm_fused_add_rms_norm": ("tests/corpus/vllm_fused_add_rms_norm.py", "_fused_add_rms_norm_kernel", []),   # residual add + RMSNorm
    "moe_align_block_size": ("tests/corpus/moe_align_block_size.py", "moe_align_block_size_stage4", []),   # vLLM moe_align stage 4
    "sglang_decode_grouped": ("tests/corpus/sglang_decode_grouped.py", "_fwd_grouped_kernel_stage1", []),   # SGLang grouped decode
    "liger_layer_norm_bwd": ("tests/corpus/liger_layer_norm_bwd.py", "_layer_norm_backward_kernel", []),   # Liger LayerNorm backward
    "vllm_unified_attention": ("tests/corpus/vllm_unified_attention.py", "kernel_unified_attention_2d", []),  # a while
    "liger_geglu_fwd": ("tests/corpus/liger_geglu_fwd.py", "_geglu_tanh_forward_kernel", []),  # a try import, n constexpr
    "streamk_gemm": ("tests/corpus/streamk_gemm.py", "first_wave", []),  # stream-K: a while of K loops, atomic adds
    "liger_kldiv_bwd": ("tests/corpus/liger_kldiv_bwd.py", "_kldiv_kernel_backward", []),  # row loop, element-wise
    "torchao_fp8_blockwise_act_quant": ("tests/corpus/torchao_fp8_blockwise_act_quant.py",
                                        "triton_fp8_blockwise_act_quant_lhs_kernel", []),  # K a constexpr
    "sglang_fused_moe_fp8": ("tests/corpus/sglang_fused_moe_fp8.py", "fused_moe_kernel", []),  # fp8 MoE, block scales
    "mamba_selective_state_update_dimloop": ("tests/corpus/mamba_selective_state_update_dimloop.py",
                                             "_selective_scan_update_kernel", []),  # a loop over dim blocks
    "nf4_dequant_gemv": ("tests/corpus/nf4_dequant_gemv.py", "nf4_gemv_kernel", []),  # 4-bit codes, table lookup
    "flat_persistent_gemm": ("tests/corpus/flat_persistent_gemm.py", "matmul_kernel_persistent", []),  # (tile, k) loop
    "vllm_lora_expand": ("tests/corpus/vllm_lora_expand.py", "_lora_expand_kernel", []),  # three early returns
    "lightllm_rope_destindex_kv": ("tests/corpus/lightllm_rope_destindex_kv.py", "_fwd_kernel_rotary_destindex_copy_kv",
                                   []),  # its own v0, v1
    "fbgemm_fp8_row_persistent": ("tests/corpus/fbgemm_fp8_row_persistent.py", "_kernel_matmul_fp8_row", []),  # flat fp8
    "vllm_ssd_chunk_scan": ("tests/corpus/vllm_ssd_chunk_scan.py", "_chunk_scan_fwd_kernel", []),  # Mamba-2 SSD scan
    "gptoss_sink_attention": ("tests/corpus/gptoss_sink_attention.py", "_attn_fwd", []),  # rank-4 descriptors, sinks
    "flagattn_piecewise": ("tests/corpus/flagattn_piecewise.py", "_fwd_kernel", []),  # three dots, an fp16 identity
    "nsa_selected_attention": ("tests/corpus/nsa_selected_attention.py", "parallel_nsa_fwd_kernel", []),  # index gather
    "vllm_mla_decode": ("tests/corpus/vllm_mla_decode.py", "_fwd_grouped_kernel_stage1", []),  # two score dots summed
    "fla_parallel_based": ("tests/corpus/fla_parallel_based.py", "parallel_based_fwd_kernel", []),  # two loops, Taylor
    "ops_matmul_swizzle2d": ("tests/corpus/ops_matmul_swizzle2d.py", "_kernel", []),  # tl.swizzle2d, tl.range stages
    "liger_gemma_add_rms_norm": ("tests/corpus/liger_gemma_add_rms_norm.py", "_fused_add_rms_norm_forward_kernel", []),
    "rocm_fp8_gemm_bias_act": ("tests/corpus/rocm_fp8_gemm_bias_act.py", "matmul_kernel", []),  # scales, bias, act
    "gemlite_a16w4_gemm": ("tests/corpus/gemlite_a16w4_gemm.py", "gemm_A16fWnO16f_int32packing_kernel", []),  # int4
    "flashinfer_varlen_merge_states": ("tests/corpus/flashinfer_varlen_merge_states.py",
                                       "variable_length_merge_states_kernel", []),  # a scalar loop over states
    "flaggems_bmm": ("tests/corpus/flaggems_bmm.py", "bmm_kernel", ["--own-tiles", "on"]),  # int64 program ids (run 92: one partition x0.85, the producer x0.82)
    "kernl_linear_gelu": ("tests/corpus/kernl_linear_gelu.py", "kernel_fma", []),  # a descending K loop, erf GELU
    "mamba_chunk_state_bwd_db": ("tests/corpus/mamba_chunk_state_bwd_db.py", "_chunk_state_bwd_db_kernel", []),  # hook
    "liger_dyt_bwd": ("tests/corpus/liger_dyt_bwd.py", "_dyt_bwd_kernel", []),  # rows per SM, a scalar accumulator
    # tutorial 06's attention backward: run 85 found dk and dv NaN on some runs; the K tile, last read by the second
    # loop's last wgmma, was freed at that issue and a conversion's scratch overwrote it (``LoopWriter.finish``)
    "tut06_attn_bwd": ("tests/corpus/tut06_attn_bwd.py", "_attn_bwd", []),
    # FA2's Triton backward (Tri Dao): refused until session 44 ("cycle with iteration distance 0"); one partition
    "fa2_triton_bwd": ("tests/corpus/fa2_triton_bwd.py", "_bwd_kernel", []),
    "bnb_int8_matmul_rowwise": ("tests/corpus/bnb_int8_matmul_rowwise.py", "_int8_matmul_rowwise_dequantize", ["--const", "BLOCK_K=128"]),  # if/else; its autotuner's BLOCK_K on the H200 (runs 97-98: x1.18 of Triton's best, x0.82 at TWILL_SPEC's 32)
    "tridao_ln_bwd": ("tests/corpus/tridao_ln_bwd.py", "_layer_norm_bwd_kernel", ["--num-warps", "32"]),   # rows per program, dw/db; its autotuner's 32 warps on the H200 (runs 97-98: x1.13 of Triton's best)
    # FlexAttention as Inductor renders it: the helper's loop twice (partial blocks, then the full ones, scheduled),
    # the key offset advanced by block indices loaded in the loop, in their readers' stage (run 101)
    "inductor_flex_attention": ("tests/corpus/inductor_flex_attention.py", "triton_tem_fused_0", []),
    "inductor_flex_decoding": ("tests/corpus/inductor_flex_decoding.py", "triton_tem_fused_1", []),  # GQA rows, split keys
    # session 49's sweep, first run on the GPU in run 106
    "unsloth_moe_grouped_gemm": ("tests/corpus/unsloth_moe_grouped_gemm.py", "_grouped_gemm_forward_kernel", []),
    "histc_privatized": ("tests/corpus/histc_privatized.py", "histc_kernel", []),     # tl.histogram
    "fla_solve_tril": ("tests/corpus/fla_solve_tril.py", "solve_tril_16x16_kernel", []),
    # session 50's sweep b
    "triton_kernels_matmul_ogs": ("tests/corpus/triton_kernels_matmul_ogs.py", "_matmul_ogs", []),  # gather, scatter
    "te_moe_unpermute": ("tests/corpus/te_moe_unpermute.py", "_unpermute_kernel", []),  # while over chunks, if
    "inductor_red_outer_sum": ("tests/corpus/inductor_red_outer_sum.py",
                               "triton_red_fused__to_copy_add_mul_rsqrt_sum_0", []),  # 64 x 8 outer reduction
    # session 50's sweep
    "vllm_causal_conv1d_fwd": ("tests/corpus/vllm_causal_conv1d_fwd.py", "_causal_conv1d_fwd_kernel", []),  # shifted window
    "fla_chunk_bwd_dh": ("tests/corpus/fla_chunk_bwd_dh.py", "chunk_bwd_kernel_dh", []),     # reversed, store under an if
    "liger_tvd": ("tests/corpus/liger_tvd.py", "_tv_distance_kernel", []),     # a loop in an early-returning if
    # session 50's sweep d
    "sglang_double_sparsity_decode": ("tests/corpus/sglang_double_sparsity_decode.py",
                                      "_sparse_fwd_kernel_flash_decode_stage2", []),  # keys through two index loads
    "fla_chunk_gla_fwd_o": ("tests/corpus/fla_chunk_gla_fwd_o.py", "chunk_gla_fwd_kernel_o", []),  # dot under an if
    "fla_fused_recurrent_delta_rule": ("tests/corpus/fla_fused_recurrent_delta_rule.py",
                                       "fused_recurrent_delta_rule_fwd_kernel", []),  # state read, then updated
    # session 50's sweep c
    "mamba_state_passing_fwd": ("tests/corpus/mamba_state_passing_fwd.py", "_state_passing_fwd_kernel", []),  # carried state
    "xformers_seqpar_matmul": ("tests/corpus/xformers_seqpar_matmul.py", "_xformers_seqpar_matmul_kernel", []),  # spin-wait
    "fbgemm_grouped_gemm_scatter_add": ("tests/corpus/fbgemm_grouped_gemm_scatter_add.py", "_fbgemm_grouped_gemm",
                                        []),    # groups' rows from m_sizes, the tiles' rows scatter-added
    # sweep C: training and linear-attention libraries
    "fla_recompute_w_u": ("tests/corpus/fla_recompute_w_u.py", "recompute_w_u_fwd_kernel", []),  # two sibling dot loops
    "stk_dsd": ("tests/corpus/stk_dsd.py", "_dsd_kernel", []),     # block-sparse: trips and B's rows loaded
    "fla_hgrn_chunk_o": ("tests/corpus/fla_hgrn_chunk_o.py", "chunk_hgrn_fwd_kernel_o", []),  # reads the last store
    "mamba_bmm_chunk_bwd": ("tests/corpus/mamba_bmm_chunk_bwd.py", "_bmm_chunk_bwd_kernel", []),  # A^T cast fp32 -> fp16
    "fla_gla_intra_sub_inter": ("tests/corpus/fla_gla_intra_sub_inter.py", "chunk_gla_fwd_A_kernel_intra_sub_inter",
                                []),    # returns at program 0; 16 x 16 TF32 dots
    # session 51's sweep of inference servers
    "vllm_paged_attention_2d": ("tests/corpus/vllm_paged_attention_2d.py", "kernel_paged_attention_2d",
                                ["--issued-loads"]),    # cache blocks through the block table, K in the x-split layout (runs 187, 189: x1.10-1.11 with it)
    "vllm_rocm_flash_attn_fwd": ("tests/corpus/vllm_rocm_flash_attn_fwd.py", "attn_fwd", []),  # full blocks' loop
    "deepseek_fp8_gemm": ("tests/corpus/deepseek_fp8_gemm.py", "fp8_gemm_kernel", []),  # N, K constexpr; autotuned
    "sglang_ep_gather": ("tests/corpus/sglang_ep_gather.py", "_fwd_kernel_ep_gather", []),  # under a token loop
    # session 52's sweep F: sparse / long-context attention and MoE training
    "minference_vertical_slash": ("tests/corpus/minference_vertical_slash.py", "_triton_mixed_sparse_attn_fwd_kernel",
                                  []),    # slash blocks, then vertical columns gathered by loaded indices
    "torchtitan_cg_backward_dw": ("tests/corpus/torchtitan_cg_backward_dw.py", "_kernel_cg_backward_dw", []),   # the same, over token groups
    "block_skip_gemm": ("tests/corpus/block_skip_gemm.py", "block_skip_gemm", []),   # the accumulator through an if in a loop
    # session 78's sweep: nests around the scheduled loop
    "segment_sum_rows": ("tests/corpus/segment_sum_rows.py", "segment_sum_csr_kernel", []),
    "kmeans_centroid_update": ("tests/corpus/kmeans_centroid_update.py", "kmeans_centroid_update_kernel", []),
    "grouped_rmsnorm_stats": ("tests/corpus/grouped_rmsnorm_stats.py", "group_rms_stats_kernel", []),
    "megablocks_grouped_dw": ("tests/corpus/megablocks_grouped_dw.py", "grouped_dw_kernel", []),
    "fp8_block_skip_gemm": ("tests/corpus/fp8_block_skip_gemm.py", "block_scaled_skip_gemm", []),
    "persistent_rowmax_gemm": ("tests/corpus/persistent_rowmax_gemm.py", "persistent_colmax_gemm", []),
    "torchtitan_cg_persistent": ("tests/corpus/torchtitan_cg_persistent.py", "_kernel_cg_persistent_forward",
                                 []),     # an if around the K loop inside the tile loop; the expert loaded
    "flagattn_bwd_kv": ("tests/corpus/flagattn_bwd_kv.py", "_bwd_kv_kernel", []),   # dK / dV: four dots
    # session 54's sweep G: attention / linear-attention / state-space backward kernels
    "mamba_chunk_scan_bwd_dx": ("tests/corpus/mamba_chunk_scan_bwd_dx.py", "_chunk_scan_chunk_state_bwd_dx_kernel",
                                []),      # a dot before the loop from the diagonal; tl.sum(x) flattened after it
    "fla_wy_repr_bwd": ("tests/corpus/fla_wy_repr_bwd.py", "prepare_wy_repr_bwd_kernel",
                        []),              # varlen; three loops, the last reading back the first's stores
    "fla_chunk_bwd_dqkwg": ("tests/corpus/fla_chunk_bwd_dqkwg.py", "chunk_bwd_kernel_dqkwg",
                            []),          # tl.sum(b_h * b_dh) in the loop: a flattening reshape
    # session 52's sweep E: recommender, graph and jagged workloads
    "fbgemm_jagged_jagged_bmm": ("tests/corpus/fbgemm_jagged_jagged_bmm.py", "jagged_jagged_bmm_kernel",
                                 []),   # TF32, A transposed, trips from loaded offsets
    "tritonbench_jagged_softmax": ("tests/corpus/tritonbench_jagged_softmax.py",
                                   "triton_jagged_softmax_kernel_variable_length_loop_buffer_then_sum",
                                   []),   # three loops between loaded bounds
    "memory_embedding_bag": ("tests/corpus/memory_embedding_bag.py", "embedding_bag_k", []),  # rows gathered by index
    "anemoi_graph_transformer": ("tests/corpus/anemoi_graph_transformer.py", "_gt_fwd",
                                 []),   # online softmax over a node's edges
    "memory_embedding_bag_rev_grad": ("tests/corpus/memory_embedding_bag_rev_grad.py",
                                      "aggregate_gradient_for_embedding_k", []),  # segment sum, a store a step
    "fbgemm_array_jagged_bmm": ("tests/corpus/fbgemm_array_jagged_bmm.py", "array_jagged_bmm_kernel",
                                []),    # A's strides from loaded lengths, 32 x 32 TF32 mma.sync
    # session 54's sweep H (GEMM family, quantisation, normalisation)
    "torchao_hqq_mixed_mm": ("tests/corpus/torchao_hqq_mixed_mm.py", "_mixed_mm_kernel",
                             []),   # int4 packed along K: join / permute / reshape, per-group zeros and scales
    "flaggems_weight_norm_bwd": ("tests/corpus/flaggems_weight_norm_bwd.py", "weight_norm_bwd_kernel_last",
                                 []),   # a transposed [cols, rows] tile, masks with `and`, two row loops
    "flaggems_mm_peeled": ("tests/corpus/flaggems_mm_peeled.py", "mm_kernel_general",
                           []),   # the last K block peeled after the loop; fp16 x bf16 cast in the loop
    # session 55's sweep J (GEMM / quantised GEMM / MoE / linear attention and SSM)
    "vllm_fused_moe_gptq_awq": ("tests/corpus/vllm_fused_moe_gptq_awq.py", "fused_moe_kernel_gptq_awq",
                                []),   # int4 MoE: per-group scales and packed zero points gathered in the loop
    "triton_kernels_mxfp4_matmul": ("tests/corpus/triton_kernels_mxfp4_matmul.py", "_matmul_mxfp4",
                                    []),   # bf16 x MXFP4 tl.dot_scaled: ttg.fp4_to_fp on Hopper
    "fla_chunk_global_cumsum": ("tests/corpus/fla_chunk_global_cumsum.py", "chunk_global_cumsum_vector_kernel",
                                []),   # cumsum as a dot with a triangular constant; reversed chunks; varlen
    "fla_fused_recurrent_dplr": ("tests/corpus/fla_fused_recurrent_dplr.py",
                                 "fused_recurrent_dplr_delta_rule_fwd_kernel",
                                 []),  # RWKV-7: two reductions around a transposed state's update
    "fla_rwkv6_intra_sub_intra": ("tests/corpus/fla_rwkv6_intra_sub_intra.py",
                                  "chunk_rwkv6_fwd_A_kernel_intra_sub_intra",
                                  []),  # a column of A stored a step; min() trip count; a full reduction
    # session 55's sweep I (attention, recommender and LLM-serving kernels)
    "gr_hstu_ragged_relbias": ("tests/corpus/gr_hstu_ragged_relbias.py", "_ragged_hstu_attn_fwd",
                               []),   # time / position bias gathered from tables by computed index tiles
    "flashinfer_sampling_from_probs": ("tests/corpus/flashinfer_sampling_from_probs.py",
                                       "sampling_from_probs_kernel", []),   # tl.cumsum plus a carried prefix
    "amd_fa_dropout_alibi": ("tests/corpus/amd_fa_dropout_alibi.py", "attn_fwd",
                             []),   # Philox dropout on the score tile in the loop, ALiBi from the column index
    # session 55's sweep K (normalisation / reduction / loss / optimizer loops)
    "fused_adamw_gridstride": ("tests/corpus/fused_adamw_gridstride.py", "fused_adamw_kernel",
                               []),   # a grid-stride loop (tl.num_programs), three buffers updated in place
    "apex_ln_bwd_dgamma_partials": ("tests/corpus/apex_ln_bwd_dgamma_partials.py", "layer_norm_bwd_dx_part_dwdb",
                                    []),   # c1 / c2 over column blocks, then dx and atomic dgamma / dbeta partials
    "inductor_nll_loss_red": ("tests/corpus/inductor_nll_loss_red.py",
                              "triton_red_fused__log_softmax_nll_loss_forward_0",
                              []),   # two r0_ loops, the target's logit gathered after a tl.device_assert
    "flaggems_argmax_dim": ("tests/corpus/flaggems_argmax_dim.py", "argmax_kernel",
                            []),   # a K-strided tile masked with `and`, tie_break_left indices carried in int64
    "sfast_group_norm_stats": ("tests/corpus/sfast_group_norm_stats.py",
                               "group_norm_4d_channels_last_forward_collect_stats_kernel",
                               []),   # a jit welford_combine on three carried tiles, the mask as weights
    "lamb_stage1_gridstride": ("tests/corpus/lamb_stage1_gridstride.py", "lamb_stage1_kernel",
                               []),   # grid-stride; two carried sums of squares atomically added after the loop
    # session 55's sweep L (newer Triton language features)
    "nf4_lut_gather_gemm": ("tests/corpus/nf4_lut_gather_gemm.py", "nf4_lut_gather_gemm",
                            []),   # NF4 codes looked up by tl.gather in the dot loop, nibbles joined along K
    "dot_scaled_fp8_desc": ("tests/corpus/dot_scaled_fp8_desc.py", "dot_scaled_fp8_desc",
                            []),   # e5m2 x e4m3 tl.dot_scaled, device-made descriptors, tl.range(num_stages=)
    "fp8_weight_asm_pack4_gemm": ("tests/corpus/fp8_weight_asm_pack4_gemm.py", "fp8_weight_asm_pack4_gemm",
                                  []),   # FP8 weight bytes widened by inline asm, pack=4
    "moe_expert_histogram": ("tests/corpus/moe_expert_histogram.py", "moe_expert_histogram",
                             []),   # tl.histogram of a can_reorder flattened tile; atomic add sem= / scope=
    "rope_fused_attention": ("tests/corpus/rope_fused_attention.py", "rope_fused_attention",
                             []),   # RoPE rotate-half by split / join on each K block of the attention loop
    "splitk_release_last_cta": ("tests/corpus/splitk_release_last_cta.py", "splitk_release_last_cta",
                                []),   # split-K finished by the last ticket: release / acq_rel atomics, tl.assume
    # session 58: stores before an early return, written in the kernel before it
    "memset_guarded_gemm": ("tests/corpus/memset_guarded_gemm.py", "memset_guarded_gemm", []),   # a memset under if
    "tk_topk_forward": ("tests/corpus/tk_topk_forward.py", "_topk_forward", []),   # triton_kernels' top-k router
    # session 87's sweeps (sglang, vLLM, FlagGems, FLA, mamba, NSA, torchao, DeepSpeed, Liger), first run in run 219
    "sglang_moe_router_large_bs": ("tests/corpus/sglang_moe_router_large_bs.py", "fused_moe_router_large_bs_kernel", []),
    "sglang_ep_pre_reorder": ("tests/corpus/sglang_ep_pre_reorder.py", "pre_reorder_triton_kernel", []),
    "sglang_write_req_to_token_pool": ("tests/corpus/sglang_write_req_to_token_pool.py",
                                       "write_req_to_token_pool_triton", []),   # an i32 prefix-sum loop between i64 ones
    "vllm_min_p": ("tests/corpus/vllm_min_p.py", "_min_p_kernel", []),
    "flaggems_addmv": ("tests/corpus/flaggems_addmv.py", "addmv_kernel", []),
    "flaggems_layernorm_wb_bwd": ("tests/corpus/flaggems_layernorm_wb_bwd.py", "weight_bias_backward_kernel", []),
    "fla_chunk_bwd_dv": ("tests/corpus/fla_chunk_bwd_dv.py", "chunk_bwd_kernel_dv", []),
    "mamba_chunk_scan_bwd_ddacs_stable": ("tests/corpus/mamba_chunk_scan_bwd_ddacs_stable.py",
                                          "_chunk_scan_bwd_ddAcs_stable_kernel", []),
    "nsa_compression_fwd": ("tests/corpus/nsa_compression_fwd.py", "parallel_nsa_compression_fwd_kernel", []),
    "torchao_fp8_jagged_rowwise_scales": ("tests/corpus/torchao_fp8_jagged_rowwise_scales.py",
                                          "_triton_fp8_row_major_jagged_rowwise_scales", []),
    "sglang_fp8_group_quant_moe_mn_major": ("tests/corpus/sglang_fp8_group_quant_moe_mn_major.py",
                                            "_per_token_group_quant_fp8_hopper_moe_mn_major", []),
    "deepspeed_layer_norm_residual": ("tests/corpus/deepspeed_layer_norm_residual.py", "layer_norm_residual_kernel", []),
    "flaggems_var_mean_welford": ("tests/corpus/flaggems_var_mean_welford.py", "var_mean_welford_kernel", []),
    "liger_sparsemax_bwd": ("tests/corpus/liger_sparsemax_bwd.py", "_sparsemax_backward_kernel", []),
    "max_then_channel_nest": ("tests/corpus/max_then_channel_nest.py", "max_then_channel_nest", []),
    "count_then_channel_nest": ("tests/corpus/count_then_channel_nest.py", "count_then_channel_nest",
                                []),   # an atomic before the kernel's own tile loop: once, before the partitions
    # session 88's sweeps: a segment loop carrying the scheduled loop's accumulator (its loop had run twice), an i64
    # block-pointer offset carried from a literal (a compile error before)
    "segment_carry_gemm": ("tests/corpus/segment_carry_gemm.py", "segment_carry_gemm", []),
    "scattermoe_scatter2scatter": ("tests/corpus/scattermoe_scatter2scatter.py", "_scatter2scatter", []),
    "trident_attention_bwd_noncausal": ("tests/corpus/trident_attention_bwd_noncausal.py", "attention_backward", []),
    "group_absmax_then_scale": ("tests/corpus/group_absmax_then_scale.py", "group_absmax_then_scale", []),
    "liger_mm_int8int2": ("tests/corpus/liger_mm_int8int2.py", "matmul_kernel", []),   # four K loops, one staged buffer
    "liger_group_norm": ("tests/corpus/liger_group_norm.py", "_group_norm_forward", []),   # session 89: a tile loop carrying scalars, code after it
    "flashinfer_topk_renorm": ("tests/corpus/flashinfer_topk_renorm.py", "top_k_renorm_probs_kernel", []),   # a bisection around the loop, two passes after it
    "channel_sum_then_pass": ("tests/corpus/channel_sum_then_pass.py", "channel_sum_then_pass", []),   # a loop after a tile loop carrying a tile
    "attorch_batch_norm_fwd": ("tests/corpus/attorch_batch_norm_fwd.py", "batch_norm_forward_kernel", []),   # session 89's sweeps: heuristics of the module's names
    "attorch_conv2d_fwd": ("tests/corpus/attorch_conv2d_fwd.py", "conv2d_forward_kernel", []),
    "deepspeed_fp_matmul_gelu": ("tests/corpus/deepspeed_fp_matmul_gelu.py", "_fp_matmul", []),   # a descending K loop
    "deepspeed_matmul_4d_causal": ("tests/corpus/deepspeed_matmul_4d_causal.py", "matmul_4d_kernel", []),
    "kernl_attention_fwd": ("tests/corpus/kernl_attention_fwd.py", "_fwd_kernel", []),   # a heuristic supplying a runtime argument
    "lightllm_apply_penalty": ("tests/corpus/lightllm_apply_penalty.py", "_fwd_kernel_apply_penalty", []),
    "lightllm_mla_decode_vsm_fp8": ("tests/corpus/lightllm_mla_decode_vsm_fp8.py", "_fwd_kernel_flash_decode_stage1_padding_fp8", []),
    "sglang_decode_int4kv_reducev": ("tests/corpus/sglang_decode_int4kv_reducev.py", "_fwd_kernel_stage2", []),   # a load keyed after its address's producer
    "sglang_per_expert_lora_moe": ("tests/corpus/sglang_per_expert_lora_moe.py", "_per_expert_lora_kernel", []),
    "flashinfer_rms_norm_residual_fp8": ("tests/corpus/flashinfer_rms_norm_residual_fp8.py", "rms_norm_kernel", []),
    "spargeattn_attn_fwd_causal": ("tests/corpus/spargeattn_attn_fwd_causal.py", "_attn_fwd", []),
    "spargeattn_block_map_to_lut": ("tests/corpus/spargeattn_block_map_to_lut.py", "triton_block_map_to_lut_kernel", []),   # a *i1 map through its bitcast
    "vllm_sample_recovered_tokens": ("tests/corpus/vllm_sample_recovered_tokens.py", "sample_recovered_tokens_kernel", []),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default=str(ROOT / "bench/results/gluon"))
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--arch", default="h200")
    ap.add_argument("--regenerate", action="store_true", help="the committed schedules' kernels, not solved again")
    a = ap.parse_args()
    failed = False
    if a.regenerate:                 # every committed variant, those solved by hand too (their own variant.json)
        labels = list(VARIANTS) + sorted(p.parent.name for p in Path(a.out).glob("*/variant.json")
                                         if p.parent.name not in VARIANTS)
    else:
        labels = list(VARIANTS)
    for label in labels:
        if a.only and label not in a.only:
            continue
        if a.regenerate:
            try:
                print(f"{label}: {regenerate(Path(a.out) / label)}")
            except (OSError, KeyError, ValueError, TwillError) as e:   # a directory without a committed variant
                print(f"{label}: cannot regenerate {Path(a.out) / label}: expected variant.json and gluon.json "
                      f"of a generated kernel, found {type(e).__name__}: {e}")
                failed = True
            continue
        kernel, jit, flags = VARIANTS[label]
        d = Path(a.out) / label
        cmd = [sys.executable, "-m", "twill", "optimize", kernel, "--arch", a.arch, "-o", str(d), "--quiet", "--force"] + flags
        t0 = time.time()
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        ok = r.returncode == 0 and (d / "kernel_gluon.py").is_file()
        if ok:            # the command as run from the repository root, whatever the checkout's path
            shown = [_relative(c) for c in cmd[1:]]
            (d / "variant.json").write_text(json.dumps({"label": label, "kernel_file": kernel, "jit": jit,
                                                        "command": " ".join(shown)}, indent=1) + "\n")
        note = next((ln for ln in r.stdout.splitlines() if ln.startswith("gluon kernel")), r.stderr.strip()[-200:])
        print(f"{label}: {'ok' if ok else 'FAILED'} ({time.time() - t0:.1f} s) {note}")
    return 1 if failed else 0


def _relative(arg: str) -> str:
    """``arg`` relative to the repository root where it is a path inside it (a variant's output directory)."""
    try:
        return str(Path(arg).resolve().relative_to(ROOT)) if Path(arg).is_absolute() else arg
    except ValueError:
        return arg


def regenerate(d: Path) -> str:
    """Variant directory ``d``'s kernel generated again from its committed schedule; what changed."""
    from codegen.gluon.generate import compile_offline
    from twill.machine.model import load_machine

    meta = json.loads((d / "variant.json").read_text())
    gs = json.loads((d / "gluon.json").read_text())
    machine = load_machine(meta["command"].split("--arch ")[1].split()[0])
    k = regenerated_kernel(d)
    old = (d / "kernel_gluon.py").read_text()
    if k.source == old:
        return "unchanged"
    compiled = compile_offline(k, machine)
    (d / "kernel_gluon.py").write_text(k.source)
    (d / "kernel_gluon.ttgir").write_text(compiled.asm["ttgir"])
    said = _refresh_ptxas(d, gs, compiled, machine)
    return f"regenerated ({len(old.splitlines())} -> {len(k.source.splitlines())} lines){said}"


def regenerated_kernel(d: Path):
    """Variant directory ``d``'s kernel (``GluonKernel``) generated again from its committed schedule, with the
    one-partition kernel for short loops beside it where its ``gluon.json`` records one; writes nothing."""
    from codegen.gluon.short import with_short_loops, with_timed_choice
    from twill.gluon_route import ONE_STAGE_TIMED
    from twill.machine.model import load_machine
    from twill.ir.frontend import widened
    from twill.pipeline import extract

    meta = json.loads((d / "variant.json").read_text())
    gs = json.loads((d / "gluon.json").read_text())
    machine = load_machine(meta["command"].split("--arch ")[1].split()[0])
    _, kir, _ = extract(str(ROOT / meta["kernel_file"]), machine,
                        _specialised(meta["command"], gs["gluon"].get("num_warps")))
    if gs["gluon"]["kernel"].get("assumed_divisible"):     # written from the layouts of its integers 16-divisible
        kir = widened(kir, machine.target) or kir
    if any(d.startswith("nest: ") for d in gs["gluon"]["kernel"]["decisions"]):   # its nests flattened (the route's)
        from twill.ir.flatten import flatten_nests
        flat = flatten_nests(kir.nested or kir.text)
        kir = dataclasses.replace(kir, text=flat.text, nested=None) if flat is not None else kir
    k = _generate_again(kir, gs, meta, machine)
    short = gs["gluon"]["kernel"].get("short_loops")
    if short:                # the one-partition kernel of the same schedule beside it, for short loops or timed;
        if "schedule" in short:  # or of its one-stage schedule (``gluon_route._fewer_stages``)
            one = dict(short["schedule"], graph=gs["graph"], gluon=gs["gluon"])
            again = _generate_again(kir, one, meta, machine, record=short["record"])
            line = next(x for x in gs["gluon"]["kernel"]["decisions"] if x.startswith(ONE_STAGE_TIMED))
            return with_timed_choice(k, again, short["said"], short["long_ctas"], short["short_ctas"], line=line,
                                     schedule=short["schedule"]) or k
        again = (_generate_again(kir, gs, meta, machine, record=short["record"]) if "record" in short else
                 _generate_again(kir, gs, meta, machine, own_tiles=True, prefetch=short["prefetch"]))
        k = (with_timed_choice(k, again, short["said"], short["long_ctas"], short["short_ctas"]) if short.get("timed")
             else with_short_loops(k, again, short["trips"], short["limit"], short["said"], short.get("exact", True),
                                   short.get("full", 0), short.get("long_ctas", 1),
                                   short.get("band_timed", False))) or k
    return k


def _refresh_ptxas(d: Path, gs: dict, compiled, machine) -> str:
    """The chosen candidate's ptxas record in ``gluon.json`` (and the route's reason quoting it) as ptxas says of the
    kernel regenerated; said where the route, reading the records so, would choose another candidate."""
    from codegen.gluon.generate import PtxasReport, chosen_candidate, ptxas_report

    cands = gs["gluon"].get("candidates") or []
    i = chosen_candidate(cands)
    new = ptxas_report(compiled, machine)
    shared = _refresh_shared(gs, compiled)
    if i is None or new is None or new.to_dict() == cands[i]["ptxas"]:
        if shared:
            (d / "gluon.json").write_text(json.dumps(gs, indent=1) + "\n")
        return "; shared memory record refreshed" if shared else ""
    was = PtxasReport(**cands[i]["ptxas"])
    cands[i]["ptxas"] = new.to_dict()
    if was.problem() and gs["gluon"].get("reason"):
        gs["gluon"]["reason"] = gs["gluon"]["reason"].replace(was.problem(), new.problem() or "ptxas clean")
    (d / "gluon.json").write_text(json.dumps(gs, indent=1) + "\n")
    again = chosen_candidate(cands)
    return ("; ptxas record refreshed" + ("" if again == i else
            f"; the route would now choose candidate {again}, not {i}: run `twill optimize` again"))


def _refresh_shared(gs: dict, compiled) -> bool:
    """The kernel's decision ``shared memory compiled: N bytes ...`` as the kernel regenerated compiles; whether it
    changed."""
    decisions = gs["gluon"].get("kernel", {}).get("decisions") or []
    now = int(getattr(compiled.metadata, "shared", 0) or 0)
    for j, line in enumerate(decisions):
        m = re.match(r"shared memory compiled: (\d+) bytes", line)
        if m and int(m.group(1)) != now:
            decisions[j] = line.replace(m.group(0), f"shared memory compiled: {now} bytes")
            return True
    return False


def _specialised(command: str, solved_warps: int | None = None):
    """The options of a variant's ``twill optimize`` command that change the kernel's specialisation (``--const``,
    ``--arg``, ``--num-warps``), so that its TTGIR is the one its schedule was solved on: at ``solved_warps`` where the
    route solved it at fewer warps than its spec's (``gluon.json``'s ``num_warps``, ``gluon_route.choose_warps``)."""
    import shlex

    from twill.pipeline import OptimizeOptions

    words = shlex.split(command)
    pairs = {flag: tuple(tuple(w.split("=", 1)) for f, w in zip(words, words[1:]) if f == flag)
             for flag in ("--const", "--arg")}
    warps = next((int(w) for f, w in zip(words, words[1:]) if f == "--num-warps"), solved_warps)
    return OptimizeOptions(consts=pairs["--const"], args=pairs["--arg"], num_warps=warps)


def _generate_again(kir, gs: dict, meta: dict, machine, record: dict | None = None, **over):
    """The kernel ``generate`` writes from a variant's committed schedule and the choices its gluon.json records
    (``record``: another kernel's choices of the same schedule, the short loops' one partition's; ``over``: some
    replaced)."""
    from codegen.gluon.generate import generate, recorded_siblings
    from twill.graph.io import graph_from_dict
    from twill.schedule.model import Schedule

    r = record if record is not None else gs["gluon"]["kernel"]
    kw = dict(own_tiles=bool(r.get("own_tiles", False)), prefetch=r.get("prefetch"))
    kw.update(over)
    return generate(kir.nested or kir.text, graph_from_dict(gs["graph"]), Schedule.from_dict(gs), machine, kir.spec,
                 tc_order="--tc-order" in meta["command"],
                 persistent=False if "--persistent off" in meta["command"] else None,
                 stage=bool(r.get("stage", bool(r.get("staged")))),
                 own_stores=r.get("own_stores", True),
                 siblings=recorded_siblings(gs["gluon"]["kernel"]),
                 copy_warps=int(r.get("copy_warps", 4)),
                 cp_async=bool(r.get("cp_async", True)),
                 tma=bool(r.get("tma", True)),
                 chains=bool(r.get("chains", False)),
                 two_ctas=bool(r.get("two_ctas", True)),
                 copy_wgmma=bool(r.get("copy_wgmma", False)), **kw)


if __name__ == "__main__":
    sys.exit(main())
