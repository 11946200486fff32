#!/usr/bin/env bash
# Run 97 on the GPU machine (session 47). (1) Mamba's bmm and chunk state by the default route as it is now: the
# one-partition kernel for short loops takes its tiles stored through registers where ptxas keeps that clean (chunk
# state: the committed kernel's device code, byte for byte), else copied 1 ahead (bmm); against the committed kernels.
# (2) bench/spec_config.py: every autotuned corpus file with a committed variant, Triton's own kernel at the config
# twill compiled (TWILL_SPEC) against its autotuner's choice: how much of a gap to "Triton's best" is the config.
# (3) twill capture of the autotuner's choice for Mamba's bmm (a spec to re-solve with).
set -u
R=bench/results/gluon/runs/run97
T=$(mktemp -d -p .)
for v in bmm_auto:tests/corpus/mamba_bmm_chunk.py:_bmm_chunk_fwd_kernel cs_auto:tests/corpus/mamba_chunk_state.py:_chunk_state_fwd_kernel; do
  IFS=: read -r name file jit <<< "$v"
  mkdir -p $T/$name && cp $R/kernels/$name/kernel_gluon.py $T/$name/
  printf '{"label": "%s", "kernel_file": "%s", "jit": "%s"}\n' $name $file $jit > $T/$name/variant.json
done
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $T/bmm_auto bench/results/gluon/mamba_bmm_chunk --sizes 16384 \
  --out $OUT/gpu97-bmm.json 2>&1 | tee -a $OUT/run97.log
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $T/cs_auto bench/results/gluon/mamba_chunk_state --sizes 16384 \
  --out $OUT/gpu97-cs.json 2>&1 | tee -a $OUT/run97.log
rm -rf $T
PYTHONPATH=. timeout 200 python bench/spec_config.py tests/corpus/bnb_int8_matmul_rowwise.py --out $OUT/spec97-int8.json 2>&1 | tee -a $OUT/run97.log
PYTHONPATH=. timeout 200 python bench/spec_config.py tests/corpus/{mamba_bmm_chunk,nsa_selected_attention,fla_gated_delta_h,mamba_chunk_state_bwd_db,tut03_autotune_matmul,attorch_layer_norm,tridao_ln_bwd}.py \
  --out $OUT/spec97.json 2>&1 | tee -a $OUT/run97.log
for k in mamba_bmm_chunk; do
  PYTHONPATH=. timeout 120 python -m twill capture -o $OUT/capture97-$k.json -- python $R/launch_once.py tests/corpus/$k.py \
    2>&1 | tail -3 | tee -a $OUT/run97.log
done
