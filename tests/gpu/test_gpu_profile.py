"""On the GPU: ``twill profile`` measures every compute node of FA forward and the GEMM, reports the
overhead, writes the profile and a Perfetto trace; ``twill optimize --profile`` uses it."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("kernel", ["fa3", "gemm"])
def test_profile_kernel(kernel, tmp_path):
    out = tmp_path / kernel
    r = subprocess.run([sys.executable, "-m", "twill.cli", "profile", f"kernels/{kernel}.py", "--arch", "h200",
                        "-o", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=600)
    print(r.stdout, r.stderr)
    assert r.returncode == 0, r.stderr
    prof = json.loads((out / "profile.json").read_text())
    compute = {n for n in prof["nodes"]} | set(prof["unmeasured"])
    assert prof["schema"] == "twill.profile/1" and prof["nodes"] and compute
    assert all(s["count"] > 0 for s in prof["nodes"].values())
    assert 0.8 < prof["overhead"]["ratio"] < 1.5 and prof["iteration"]["median_cycles"] > 0
    assert (out / "trace.perfetto.json").stat().st_size > 0
