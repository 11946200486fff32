#!/usr/bin/env bash
# Run 63 (session 39, a probe; kernels not committed): rings deeper than ring_depth() gives, on four kernels slower
# than Triton's best. Each directory's kernel is its committed variant's, regenerated with every ring N buffers deeper:
# `python bench/ring_depth_probe.py grouped_matmul:1 grouped_matmul:2 mamba_chunk_state:1 fla_chunk_o:1 fla_chunk_h:1`.
set -u
G=bench/results/gluon
P=probe
for k in "grouped_matmul" "mamba_chunk_state" "fla_chunk_o" "fla_chunk_h"; do
  dirs="$G/$k $(ls -d $P/${k}_d* | tr '\n' ' ')"
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $dirs --out /tmp/g63-$k.json 2>&1 | grep -v "^baseline" | tee -a $OUT/run63.log
  cat /tmp/g63-$k.json >> $OUT/gpu63.jsonl; echo >> $OUT/gpu63.jsonl
done
