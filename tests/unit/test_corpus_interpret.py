"""bench/corpus_interpret.py: corpus kernels run in Triton's interpreter agree with their references (one of them
bf16, computed on values by bench/interpreter_fixes.py), and a kernel file whose reference is wrong is a FAIL."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("triton")

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "bench/corpus_interpret.py"


def _one(path: Path) -> dict:
    r = subprocess.run([sys.executable, str(TOOL), "--one", str(path)], capture_output=True, text=True, cwd=ROOT,
                       timeout=120, env={**_env(), "TRITON_INTERPRET": "1"})
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads([ln for ln in r.stdout.splitlines() if ln.startswith('{"file"')][-1])


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.parametrize("name", ["argmax_rows", "cumsum_rows", "chunk_kkt",
                                  # Philox's raw words (tl.randint4x) against a separate kernel's; a split-K whose
                                  # splits wait their turn on a volatile load (the interpreter runs them in order);
                                  # tl.cumprod / tl.math.div_rn / tl.math.fma against the step-by-step recurrence
                                  "xformers_bias_dropout_residual", "streamk_serial_splitk_gemm",
                                  "accelerated_scan_gated_chunks",
                                  # an fp8 e5m2 rtne cast (torch's) with scales from bits; a suffix sum walking back
                                  # by tl.advance(-BT) with tl.flip; int8 dots to int32, dequantised per K group
                                  "te_pow2_fp8_e5m2_quant", "fla_reverse_cumsum_norm",
                                  "sglang_w8a8_block_int8_gemm",
                                  # tl.randn's Philox against a kernel of one tl.randn, libdevice.log1p; tl.erf, fp32
                                  # bits by bitcast and a tl.umulhi hash; fp16 weights from int32 bits by tl.join
                                  "noisy_topk_gating", "erf_gelu_bitcast_rows", "hqq_bits_dequant_gemm",
                                  "nan_max_rows", "lp_pool_argmax_int16", "attn_d256_split",
                                  # session 71's sweep: fp8 dots of an indexer, a gated norm's two row loops, top-k
                                  # block attention, NVFP4 and double-quantized NF4 dequant, an fp8 split-K, a MoE
                                  # grouped GEMM's expert search, a neighborhood mask
                                  "dsv32_fp8_indexer_logits", "vllm_layernorm_gated_looped",
                                  "moba_topk_block_attention", "nvfp4_w4a16_gemm", "bnb_nf4_double_quant_gemm",
                                  "fbgemm_fp8_row_splitk", "moe_offs_grouped_mm", "liger_neighborhood_attn_qk",
                                  # session 72: a norm loop before a GEMM, a key count before attention; its sweep
                                  "rmsnorm_prologue_gemm", "padmask_len_attention", "diff_attention_fwd",
                                  "sliding_window_attention", "csr_spmm_rows", "deepgemm_masked_grouped_fp8",
                                  "vllm_rejection_sample", "depthwise_conv2d_nhwc", "kivi_int2_decode_attention",
                                  "performer_favor_linear_attention", "inductor_conv_unrolled",
                                  # session 73's sweep
                                  "bnb_blockwise_dynamic_quant", "apex_multi_tensor_adam", "gguf_q4k_gemm",
                                  "sparse24_meta_gemm", "torchvision_roi_align_nhwc", "ring_attn_step_merge",
                                  "vllm_fp8_kv_paged_decode", "vllm_alibi_prefill_causal",
                                  "mamba1_selective_scan_fwd", "t5_relpos_bucket_attention",
                                  # session 74: a conv's runtime-bounded filter loops around its channel loop
                                  "nested_filter_conv2d"])
def test_a_corpus_kernel_agrees_with_its_reference_in_the_interpreter(name):
    res = _one(ROOT / "tests/corpus" / f"{name}.py")
    assert res["outcome"] == "pass" and max(res["rel_err"]) < res["tol"], res
    if name == "chunk_kkt":         # bf16 tiles multiplied: wrong by 1e12 where the interpreter multiplies their bits
        assert res["bf16_ops"] > 0


_WRONG = '''
    """A kernel file whose reference is off by one."""
    import triton
    import triton.language as tl

    SMALL = {"n": 100}


    @triton.jit
    def twice(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        i = tl.arange(0, BLOCK)
        tl.store(y_ptr + i, tl.load(x_ptr + i, mask=i < n) * 2, mask=i < n)


    def make_inputs(n, device="cuda", seed=0):
        import torch
        return {"x": torch.randn(n, device=device, generator=torch.Generator(device=device).manual_seed(seed))}


    def launch(inputs, **config):
        import torch
        y = torch.empty_like(inputs["x"])
        twice[(1,)](inputs["x"], y, inputs["x"].numel(), BLOCK=128)
        return y


    def reference(inputs):
        return inputs["x"] * 2 + 1
'''


def test_a_kernel_file_whose_reference_is_wrong_is_a_fail(tmp_path):
    path = tmp_path / "wrong_reference.py"
    path.write_text(textwrap.dedent(_WRONG))
    out = tmp_path / "out.json"
    r = subprocess.run([sys.executable, str(TOOL), str(path), "--out", str(out)], capture_output=True, text=True,
                       cwd=ROOT, timeout=120, env=_env())
    assert r.returncode == 1, r.stdout + r.stderr
    res = json.loads(out.read_text())
    assert [f["outcome"] for f in res["files"]] == ["FAIL"] and res["files"][0]["rel_err"][0] > 0.1
    assert "1 files: 0 pass, 1 FAIL" in r.stdout and res["env"]["triton"]
