#!/usr/bin/env bash
# Run 102 on the GPU machine (session 48). a: FlexAttention (Inductor) again, its consumers now in two stages (the
# block indices' loads in their readers' stage where a program may run the loop no time): the forward and the
# decoding kernel by the default route, against Triton's own compile of each file and torch. b: issue 17's FA
# backward with one tile in four recorded (`twill validate --every 4`, planned as run 34c and never run): each
# run's overhead against run 23d's (every tile recorded: 1.02-1.39x). c: the decoding kernel again (a trip count that
# went negative moved the producer's ring base back: now clamped at 0), and the 31 committed kernels the clamp
# rewrote (a scalar max on the trip count), each checked for correctness (bench/gluon_gpu.py --one).
set -u
G=bench/results/gluon
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 280 python bench/gluon_gpu.py $G/inductor_flex_decoding --sizes 16384 \
    --out $OUT/gpu102-dec.json 2>&1 | tee -a $OUT/run102a.log
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/inductor_flex_attention --sizes 16384 \
    --out $OUT/gpu102-flex.json 2>&1 | tee -a $OUT/run102a.log
  ;;
c)  # correctness of the 31 committed kernels whose trip counts are now clamped at 0, and the decoding kernel timed
  for k in decode_attention embedding_bwd fa2_triton_bwd fa_causal fla_parallel_based flaggems_softmax_inner \
      flashinfer_varlen_merge_states gptoss_sink_attention grouped_decode_attention liger_dyt_bwd liger_layer_norm_bwd \
      liger_rms_norm_bwd mamba_selective_state_update_dimloop moe_align_block_size reverse_recurrent rms_norm_bwd \
      rope_embedding sglang_decode_grouped softcap_attention softmax_rows splitk_guarded streamk_gemm tail_gemm \
      tma_rows tridao_ln_bwd tut06_attn_fwd unroll_gemm unsloth_swiglu_bwd vllm_decode_stage1 vllm_mla_decode \
      xformers_splitk_decode; do echo $k; done | \
    xargs -P 6 -I{} sh -c 'PYTHONPATH=. timeout 240 python bench/gluon_gpu.py --one '$G'/{} --sizes 1024 \
      > '$OUT'/one-{}.json 2> '$OUT'/one-{}.err; echo "{} rc=$?"' 2>&1 | tee -a $OUT/run102c.log
  python - "$OUT" <<'PY' 2>&1 | tee -a $OUT/run102c.log
import json, pathlib, sys
for f in sorted(pathlib.Path(sys.argv[1]).glob("one-*.json")):
    rows = [ln for ln in f.read_text().splitlines() if ln.startswith("{")]
    r = json.loads(rows[-1]) if rows else {}
    print(f.stem[4:], "PASS" if r.get("pass") else "FAIL", len(r.get("checks", [])), "checks")
PY
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/inductor_flex_decoding --sizes 16384 \
    --out $OUT/gpu102c-dec.json 2>&1 | tee -a $OUT/run102c.log
  ;;
b)
  PYTHONPATH=. timeout 580 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule $G/fa_bwd --per-run 2 \
    --budget 420 --every 4 -o $OUT/validate-fa_bwd 2>&1 | tee -a $OUT/run102b.log
  ;;
d)  # b reached the command's 580 s before its validation.json: four regions a run, so that every region is timed
  PYTHONPATH=. timeout 560 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule $G/fa_bwd --per-run 4 \
    --budget 300 --every 4 -o $OUT/validate-fa_bwd 2>&1 | tee -a $OUT/run102d.log
  ;;
esac
