#!/usr/bin/env bash
# Run 84 (session 43): a loop-invariant dot operand held in shared memory, not registers (vLLM's MLA decode: its
# [16, 512] query as mma.sync's A operand, 128 registers a thread; FlagAttention's piecewise attention: its two
# queries, made in registers by the "Dot I" trick, as wgmma A operands), each A/B against the committed kernel with
# one Triton baseline; FLA's Based (its baseline with SDPA's failure recorded) and NSA (its reference by pieces).
set -u
run() { PYTHONPATH=. timeout 170 python bench/gluon_gpu.py "$@" 2>&1 | tail -6 | tee -a $OUT/run84.log; }
R=probe/r84
run $R/vllm_mla_decode_smem $R/vllm_mla_decode --sizes 16384 --out $OUT/gpu84-vllm_mla_decode.json
run $R/flagattn_piecewise_smem $R/flagattn_piecewise --sizes 16384 --out $OUT/gpu84-flagattn_piecewise.json
run $R/fla_parallel_based --sizes 16384 --out $OUT/gpu84-fla_parallel_based.json
run $R/nsa_selected_attention --sizes 16384 --out $OUT/gpu84-nsa_selected_attention.json
