#!/usr/bin/env bash
# GPU machine: `twill profile` on FA forward and the GEMM (Triton's schedule, and twill's where a stored
# schedule directory exists), then FA again with the buffer its overflow warning suggests.
# Works without installing twill (PYTHONPATH=. and python -m twill.cli). Writes under $OUT.
#   OUT=/tmp/prof bash bench/gpu_profile.sh            # everything
#   QUICK=1 OUT=/tmp/prof bash bench/gpu_profile.sh    # Triton's schedule only, FA and GEMM
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu-profile-out}
export PYTHONPATH=.${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$OUT"
failed=0
twill() {
  echo "== twill $*"
  python3 -m twill.cli "$@" || { echo "!! exit $? from: twill $*"; failed=$((failed + 1)); }
}
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__, torch.cuda.get_device_name())"
for k in fa3 gemm; do
  twill profile kernels/$k.py --arch h200 -o "$OUT/profile-$k-h200"
  if [ -z "${QUICK:-}" ] && [ -d "bench/results/schedules/$k-h200" ]; then
    twill profile kernels/$k.py --arch h200 --schedule "bench/results/schedules/$k-h200" -o "$OUT/profile-$k-twill-h200"
  fi
done
if [ -z "${QUICK:-}" ]; then
  twill profile kernels/fa3.py --arch h200 --buffer-type global --buffer-size 16384 -o "$OUT/profile-fa3-h200-global"
fi
# the traces are large (tens of MB for FA with every record kept): compressed, they travel
find "$OUT" \( -name trace.chrome_trace -o -name trace.perfetto.json \) -exec gzip -f {} \;
echo "== done: $failed failed"
exit "$failed"
