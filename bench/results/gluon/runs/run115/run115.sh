#!/usr/bin/env bash
# Run 115 on the GPU machine (session 51): the SM clock, power and throttle reasons while each contender runs
# (bench/gpu_clocks.py: nvidia-smi sampled every 50 ms over 3 s of back-to-back launches), and how much of each
# kernel's time its measured steady cycles per iteration explain at that clock.
set -u
G=bench/results/gluon
nvidia-smi -q -d CLOCK,POWER,PERFORMANCE 2>&1 | head -80 > $OUT/smi-before.txt
# FA forward at 16k: 16384 tiles of 128 rows over 132 SMs = 125 rounds x 128 iterations; steady 2533 cycles (run 11)
PYTHONPATH=. timeout 150 python bench/gpu_clocks.py $G/fa3 --sizes 16384 --cycles 2533 --iterations 16000 \
  --out $OUT/clocks-fa3-16k.json 2>&1 | tee -a $OUT/run115.log
# at 4k: 4096 tiles = 32 rounds x 32 iterations
PYTHONPATH=. timeout 120 python bench/gpu_clocks.py $G/fa3 --sizes 4096 --cycles 2533 --iterations 1024 \
  --out $OUT/clocks-fa3-4k.json 2>&1 | tee -a $OUT/run115.log
# GEMM 4096^3: 512 tiles of 128 x 256 = 4 rounds x 64 iterations; steady 1071 cycles (run 11)
PYTHONPATH=. timeout 120 python bench/gpu_clocks.py $G/gemm --cycles 1071 --iterations 256 \
  --out $OUT/clocks-gemm.json 2>&1 | tee -a $OUT/run115.log
PYTHONPATH=. timeout 150 python bench/gpu_clocks.py $G/fa_bwd --sizes 16384 --out $OUT/clocks-fa_bwd.json 2>&1 \
  | tee -a $OUT/run115.log
nvidia-smi -q -d CLOCK,POWER,PERFORMANCE 2>&1 | head -80 > $OUT/smi-after.txt
