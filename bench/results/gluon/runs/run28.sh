#!/usr/bin/env bash
# Run 28 on the GPU machine (session 26): five kernels in the styles of public libraries, each a construct the Gluon
# back end did not write before this session, against Triton's own compile of the same file (and cuBLAS for GEMMs),
# then their GPU tests (two seeds, NaN-poisoned outputs).
#   decode_attention: vLLM/SGLang split-KV decode (the loop inside `if split_kv_end > split_kv_start:`, a gather
#     through a token table, 4 stages, loops shorter than the prologue run as written);
#   cumsum_rows: tl.cumsum (tt.scan -> gl.associative_scan); geglu_rows: libdevice.tanh;
#   block_ptr_gemm: tl.make_block_ptr / tl.advance; splitk_gemm: tl.atomic_add, tiles copied through registers.
set -u
G=bench/results/gluon
case "${1:-a}" in
a)
  for k in decode_attention cumsum_rows geglu_rows block_ptr_gemm splitk_gemm; do
    PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/$k --out $OUT/gpu28a-$k.json 2>&1 | tee -a $OUT/run28a.log
  done
  PYTHONPATH=. timeout 400 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "decode_attention or cumsum_rows or geglu_rows or block_ptr_gemm or splitk_gemm" 2>&1 | tail -8 \
    | tee -a $OUT/run28a.log
  ;;
esac
#   b: decode_attention again (its harness fixed: run 28a's launch copied a host mask inside the CUDA graph capture,
#      and the baseline took its q/k/v for an attention forward), and splitk_gemm with its unit strides declared as a
#      launch specialises them (run 28a's spec left them run-time integers: Triton's offline layouts ran along M, every
#      load and atomic uncoalesced).
case "${1:-a}" in
b)
  for k in decode_attention splitk_gemm; do
    PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/$k --out $OUT/gpu28b-$k.json 2>&1 | tee -a $OUT/run28b.log
  done
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "decode_attention or splitk_gemm" 2>&1 \
    | tail -8 | tee -a $OUT/run28b.log
  ;;
esac
#   c: splitk_gemm with the row strides declared divisible by 16 as well (a launch at PROBLEM specialises them; run
#      28b's spec left them undeclared: its consumer's atomics and the producer's layouts assumed 2-byte alignment), and
#      decode_attention with its index load in the stage of the key and value loads it addresses (3 stages, ptxas 162
#      registers against 222: the gather's indices not prefetched a stage earlier; `decode_attention-index-with-keys`,
#      made with `codegen.gluon.plan._readers_through` disabled; adopted after the run, so today's `decode_attention`
#      is that kernel byte for byte and the variant's directory is not kept).
case "${1:-a}" in
c)
  for k in splitk_gemm decode_attention-index-with-keys decode_attention; do
    PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/$k --out $OUT/gpu28c-$k.json 2>&1 | tee -a $OUT/run28c.log
  done
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "decode_attention or splitk_gemm" 2>&1 \
    | tail -8 | tee -a $OUT/run28c.log
  ;;
esac
#   d: rms_norm_bwd regenerated: a one-partition loop of 3 stages now runs as written where it has fewer than 2
#      iterations (it needed at least 2 before; its rows per program vary), the pipelined loop otherwise.
case "${1:-a}" in
d)
  PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/rms_norm_bwd --out $OUT/gpu28d-rms_norm_bwd.json 2>&1 \
    | tee -a $OUT/run28d.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "rms_norm_bwd" 2>&1 | tail -8 \
    | tee -a $OUT/run28d.log
  ;;
esac
#   e: fp8_gemm (the matmul tutorial's FP8 path: e4m3 operands through pointers, B passed transposed, so both are
#      K-major; A and B tiles both 128 x 128: the producer took each one's layout for the other's and copied them a byte
#      at a time through registers before the fix), against Triton's own and cuBLAS's FP8 GEMM (torch._scaled_mm).
case "${1:-a}" in
e)
  PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/fp8_gemm --out $OUT/gpu28e-fp8_gemm.json 2>&1 \
    | tee -a $OUT/run28e.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "fp8_gemm" 2>&1 | tail -8 \
    | tee -a $OUT/run28e.log
  ;;
esac
#   f: fp8_gemm again, its inputs named so that the bench times cuBLAS's FP8 GEMM beside it.
case "${1:-a}" in
f)
  PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/fp8_gemm --out $OUT/gpu28f-fp8_gemm.json 2>&1 \
    | tee -a $OUT/run28f.log
  ;;
esac
#   g: pointer_attention (attention forward written with pointers, as the FlashAttention Triton kernels before tensor
#      descriptors: Q loaded before the loop and put in shared memory, which the back end refused before this run),
#      against Triton's own compile, cuDNN and flash SDPA; then its GPU test.
case "${1:-a}" in
g)
  PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/pointer_attention --out $OUT/gpu28g-pointer_attention.json 2>&1 \
    | tee -a $OUT/run28g.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "pointer_attention" 2>&1 | tail -8 \
    | tee -a $OUT/run28g.log
  ;;
esac
