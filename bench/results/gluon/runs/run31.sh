#!/usr/bin/env bash
# Run 31 on the GPU machine (session 29): three constructs of public-library kernels the Gluon back end now writes.
#   block_fp8_gemm: vLLM/SGLang's w8a8 block-scaled FP8 GEMM (each K step's dot from zero, rescaled into the carried
#     accumulator by per-row and per-block scales loaded in the loop);
#   diagonal_mask_attention: a runtime `if` inside the scheduled loop (the causal mask only where a key block crosses
#     the diagonal), written inside each consumer's loop, split by row sub-tile;
#   int8_gemm: B (int8, N-contiguous) copied through the producer's registers into its K-major buffer (was refused).
#   b: block_fp8_gemm again with its library baseline (a's failed: cuBLAS has no plain matmul for fp8).
#   c: tf32_gemm (fp32 tiles, Triton's default TF32 dot: B transposed in shared memory, 4-byte copies).
#   d: splitk_guarded (an if around the K loop whose accumulator is added to C after it; one slice empty).
#   e: argmax_rows (tl.max with return_indices: a two-tensor reduction) and welford_rows (tl.reduce, own combiner).
#   f: welford_rows again, its own tail fixed (e: masked lanes moved the running mean).
#   g: device_descriptor_gemm (tl.make_tensor_descriptor in the kernel, made by the generated launcher).
#   h: device_descriptor_gemm with one consumer of 128 rows (--row-split 1) against g's two of 64.
#   i: fused_recurrent (FLA's fused recurrent GLA: vector loads, a 2-D state, a store every step, no dot), and
#      device_descriptor_gemm's GPU test as committed (one consumer).
#   a: the three timed against Triton's best, their GPU tests, then their checks with every copy through registers.
set -u
G=bench/results/gluon
K="block_fp8_gemm diagonal_mask_attention int8_gemm"
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $(for k in $K; do echo $G/$k; done) --out $OUT/gpu31a.json 2>&1 \
    | tee -a $OUT/run31a.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "block_fp8_gemm or diagonal_mask_attention or int8_gemm" 2>&1 | tail -8 | tee -a $OUT/run31a.log
  for k in $K; do
    TWILL_COPY_OFF=1 PYTHONPATH=. timeout 120 python bench/gluon_gpu.py --one $G/$k --sizes 1024 2>&1 \
      | grep '^{' | python -c "import json,sys; r=json.loads(sys.stdin.read()); print('$k registers path:', r['pass'], [c['rel_err'] for c in r['checks']])" \
      | tee -a $OUT/run31a.log
  done
  ;;
b)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/block_fp8_gemm --out $OUT/gpu31b.json 2>&1 | tee -a $OUT/run31b.log
  ;;
c)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/tf32_gemm --out $OUT/gpu31c.json 2>&1 | tee -a $OUT/run31c.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "tf32_gemm" 2>&1 | tail -4 | tee -a $OUT/run31c.log
  TWILL_COPY_OFF=1 PYTHONPATH=. timeout 120 python bench/gluon_gpu.py --one $G/tf32_gemm --sizes 1024 2>&1 \
    | grep '^{' | python -c "import json,sys; r=json.loads(sys.stdin.read()); print('tf32_gemm registers path:', r['pass'], [c['rel_err'] for c in r['checks']])" \
    | tee -a $OUT/run31c.log
  ;;
d)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/splitk_guarded --out $OUT/gpu31d.json 2>&1 | tee -a $OUT/run31d.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "splitk_guarded" 2>&1 | tail -4 | tee -a $OUT/run31d.log
  ;;
e)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/argmax_rows $G/welford_rows --out $OUT/gpu31e.json 2>&1 | tee -a $OUT/run31e.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "argmax_rows or welford_rows" 2>&1 | tail -4 | tee -a $OUT/run31e.log
  ;;
f)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/welford_rows --out $OUT/gpu31f.json 2>&1 | tee -a $OUT/run31f.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "welford_rows" 2>&1 | tail -4 | tee -a $OUT/run31f.log
  ;;
g)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/device_descriptor_gemm --out $OUT/gpu31g.json 2>&1 | tee -a $OUT/run31g.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "device_descriptor_gemm" 2>&1 | tail -4 | tee -a $OUT/run31g.log
  ;;
h)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py bench/results/gluon/runs/run31/h/device_descriptor_gemm-one-group \
    --out $OUT/gpu31h.json 2>&1 | tee -a $OUT/run31h.log
  ;;
i)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/fused_recurrent --out $OUT/gpu31i.json 2>&1 | tee -a $OUT/run31i.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "fused_recurrent or device_descriptor_gemm" 2>&1 | tail -4 | tee -a $OUT/run31i.log
  ;;
esac
