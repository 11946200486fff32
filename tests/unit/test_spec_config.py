"""``bench/spec_config.py``: Triton's own kernel restricted to the config twill compiles, beside its autotuner's
choice (run 97). On the CPU: the autotuner is found under or over ``@triton.heuristics`` and the config is the spec's;
without a GPU the script says so in one line."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("triton")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from gluon_gpu import _module  # noqa: E402
from spec_config import _autotuner, spec_config  # noqa: E402


def _tuner(name: str):
    mod = _module(ROOT / "tests" / "corpus" / f"{name}.py", f"spec_config_{name}")
    return _autotuner(mod, mod.TWILL_SPEC["kernel"]), mod.TWILL_SPEC


def test_the_config_is_the_specs_constexprs_the_autotuner_sets_and_its_launch_options():
    tuner, spec = _tuner("bnb_int8_matmul_rowwise")
    assert tuner is not None and len(tuner.configs) > 100
    cfg = spec_config(tuner, spec)
    assert cfg.kwargs == {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 32, "SPLIT_K": 1}    # not GROUP_M, EVEN_K
    assert (cfg.num_warps, cfg.num_stages) == (8, 3)
    assert spec_config(tuner, {}) is tuner.configs[0]


def test_an_autotuner_under_heuristics_is_found():
    tuner, spec = _tuner("nsa_selected_attention")
    assert tuner is not None and hasattr(tuner, "cache")
    assert (spec_config(tuner, spec).num_warps, spec_config(tuner, spec).num_stages) == (4, 2)


def test_without_a_gpu_one_line_and_exit_2():
    pytest.importorskip("torch")
    import torch
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "spec_config.py"), "tests/corpus/gemm.py"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "needs a GPU" in p.stderr
