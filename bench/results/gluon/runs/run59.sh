#!/usr/bin/env bash
# Run 59 on the GPU machine (session 38, at its end): every committed Gluon kernel's GPU test (tests/gpu/test_gpu_gluon.py),
# the first run of the check that launches each problem twice and fails outputs that differ in any bit
# (profiling/check.py, session 37). Five pytest processes side by side (a shard each; the tests only check,
# their timings are not kept), so the 90 tests fit in one command.
set -u
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run59.log
T=tests/gpu/test_gpu_gluon.py::test_generated_kernel_is_correct_and_finishes
ls bench/results/gluon/*/variant.json | xargs -n1 dirname | xargs -n1 basename | sort > /tmp/labels
split -n r/5 /tmp/labels /tmp/shard.
for s in /tmp/shard.*; do
  ( PYTHONPATH=. timeout 560 python -m pytest -q -p no:cacheprovider $(sed "s|^|$T[|; s|$|]|" $s) \
      > $s.log 2>&1 ) &
done
wait
for s in /tmp/shard.*.log; do grep -E "^(FAILED|ERROR)|passed|failed" $s; done | tee -a $OUT/run59.log
cat /tmp/shard.*.log > $OUT/run59-pytest.log
