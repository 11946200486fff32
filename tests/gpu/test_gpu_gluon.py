"""On the GPU: every committed Gluon kernel (bench/results/gluon/) runs to completion (no deadlock: each in
its own process with a timeout) and matches its kernel file's reference, two seeds, NaN-poisoned outputs."""
import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)
if torch.cuda.get_device_capability() != (9, 0):
    pytest.skip("the Gluon back end writes Hopper (sm_90) kernels", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = sorted(p.parent.name for p in (ROOT / "bench/results/gluon").glob("*/variant.json"))


@pytest.mark.parametrize("label", VARIANTS)
def test_generated_kernel_is_correct_and_finishes(label):
    d = ROOT / "bench/results/gluon" / label
    r = subprocess.run([sys.executable, str(ROOT / "bench/gluon_gpu.py"), "--one", str(d), "--sizes", "1024"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    res = json.loads([ln for ln in r.stdout.splitlines() if ln.startswith("{")][-1])
    kernel_file = runpy.run_path(str(ROOT / json.loads((d / "variant.json").read_text())["kernel_file"]))
    assert len(res["checks"]) == 2 * (2 + len(kernel_file.get("MORE_CHECKS", ())))   # two seeds x (small, problem, more)
    assert res["pass"], res["checks"]
