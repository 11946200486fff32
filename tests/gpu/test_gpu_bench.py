"""On the GPU: twill-scheduled kernels are correct (poisoned outputs, fresh inputs) and profiled."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]


def test_batched_run(tmp_path):
    subprocess.run([sys.executable, str(ROOT / "bench/attention.py"), str(tmp_path)], check=True, timeout=900)
    r = json.loads((tmp_path / "bench.json").read_text())
    assert all(v.startswith("ok") for v in r["stages"].values()), r["stages"]
    assert all(v["pass"] for v in r["scheduled_correctness"].values())
    assert r["profiles"]["gemm/twill"]["overhead"] < 1.5
