#!/usr/bin/env bash
# The device machine copies the working tree up to 64 MiB; the tracked tree is larger with the committed views and
# traces, which no GPU run reads. `device_tree.sh trim` removes them from the working tree before a device call,
# `device_tree.sh restore` checks them out again after it.
set -eu
[ "${1:-}" = pack ] || cd "$(git rev-parse --show-toplevel)"   # pack runs on the device, maybe outside git
# The Gluon variants' TTGIR (kernel_gluon.ttgir, pre_pipeline.ttgir, annotated.ttgir: ~18 MB in session 52) go too: a GPU
# run compiles kernel_gluon.py; the Triton route's schedules (bench/results/schedules/) keep theirs.
# The earlier runs' own kernels and outputs (bench/results/gluon/runs/run*/*/: 26 MB in session 66) go as well: a run
# times the kernels it brings (untracked until it is committed), and reads no earlier run's.
GLOBS=('bench/results/*.html' 'bench/results/*.chrome_trace.gz' 'bench/results/*.tgz' 'bench/results/*perfetto*.json'
       'bench/results/gluon/*.ttgir' 'bench/results/gluon/runs/run*/*/*')
# `trim runNNN ...` keeps those runs' own folders (committed before the call: session 70's first call of run 187 lost them).
case "${1:-}" in
  trim) for g in "${GLOBS[@]}"; do git ls-files -z "$g" | xargs -0 rm -f; done
        for keep in "${@:2}"; do git ls-files -z "bench/results/gluon/runs/$keep" | xargs -0 -r git checkout --; done
        git ls-files -z | xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {print s, "bytes tracked"}' ;;
  restore) for g in "${GLOBS[@]}"; do git ls-files -z "$g" | xargs -0 git checkout --; done ;;
  # `pack DIR` on the device machine, last in a run script: the device returns at most 8 files a call (run 207 lost
  # two profiles so), so every file under DIR but its top-level logs goes into DIR/out.tgz
  pack) d=${2:?pack needs the output folder}
        (cd "$d" && find . -type f ! -name out.tgz ! -path './*.log' ! -name gpu.txt -print0 > /tmp/twill-pack.list \
           && tar czf out.tgz --null -T /tmp/twill-pack.list && xargs -0 rm -f < /tmp/twill-pack.list \
           && find . -mindepth 1 -type d -empty -delete) ;;
  *) echo "usage: $0 trim [runNNN ...]|restore|pack DIR" >&2; exit 2 ;;
esac
