#!/usr/bin/env bash
# Run 33 on the GPU machine (session 31): the generated kernels' host time per launch.
#   a: where it goes: bench/launch_overhead.py --profile (cProfile of 2000 launches, the generated kernel's and
#      Triton's) for fa3, gemm, fp8_gemm, pointer_attention at their SMALL problems.
set -u
G=bench/results/gluon
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 300 python bench/launch_overhead.py $G/fa3 $G/gemm $G/fp8_gemm $G/pointer_attention --profile \
    2>&1 | tee -a $OUT/run33a.log
  ;;
esac
# b, c: after a (the launcher's own Python and the Gluon JIT's binder, on every launch): codegen/gluon/host.py keeps
#    what a launch decides per launch key and calls the kernel compiled for it (CompiledKernel[grid]). b: host time per
#    launch again, then the first half of the committed kernels' GPU tests (each kernel checked on two seeds: the second
#    seed's launches take the kept path); c: the second half, and twill validate on the Gluon GEMM (Proton's
#    instrumented kernels, launched through the same launcher).
half() {  # the GPU tests of every other committed kernel, starting at $1
  PYTHONPATH=. python -m pytest -q --collect-only tests/gpu/test_gpu_gluon.py 2>/dev/null | grep '::' \
    | awk -v s=$1 'NR % 2 == s'
}
case "${1:-a}" in
b)
  PYTHONPATH=. timeout 200 python bench/launch_overhead.py $G/fa3 $G/gemm $G/fp8_gemm $G/pointer_attention \
    $G/guarded_gemm $G/block_fp8_gemm 2>&1 | tee -a $OUT/run33b.log
  PYTHONPATH=. timeout 380 python -m pytest -q $(half 1) 2>&1 | tail -6 | tee -a $OUT/run33b.log
  ;;
c)
  PYTHONPATH=. timeout 420 python -m pytest -q $(half 0) 2>&1 | tail -6 | tee -a $OUT/run33c.log
  PYTHONPATH=. timeout 150 python -m pytest -q tests/gpu/test_gpu_validate.py -k gluon_gemm 2>&1 | tail -4 \
    | tee -a $OUT/run33c.log
  ;;
esac
# d: after c: (1) the launch key read faster (types first, Triton's knobs and the device's getter held); host time
#    again, and the GPU tests of the kernels it times; (2) tutorial 09's clamped tiles (tl.where(offs < M, offs, 0))
#    as TMA boxes (codegen/gluon/clamps.py): persistent_gemm timed on TMA and, for the A/B, on cp.async
#    (TWILL_TMA_OFF=1), and its GPU test (SMALL: M = 496, N = 624, partial tiles on both clamped dimensions).
case "${1:-a}" in
d)
  PYTHONPATH=. timeout 120 python bench/launch_overhead.py $G/fa3 $G/gemm $G/fp8_gemm $G/pointer_attention \
    $G/guarded_gemm 2>&1 | tee -a $OUT/run33d.log
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/persistent_gemm --out $OUT/gpu33d.json 2>&1 | tee -a $OUT/run33d.log
  TWILL_TMA_OFF=1 PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/persistent_gemm --out $OUT/gpu33d-cp.json 2>&1 \
    | tee -a $OUT/run33d.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "persistent_gemm or fa3] or gemm] or fp8_gemm or pointer_attention or guarded_gemm" 2>&1 | tail -4 \
    | tee -a $OUT/run33d.log
  ;;
esac
