"""On the GPU: ``twill profile`` measures every compute node of FA forward and the GEMM, reports the
overhead, writes the profile and a Perfetto trace (``twill optimize --profile`` needs a solver, which
the GPU machine lacks: tests/unit/test_profile_cli.py checks that on CPU)."""
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
    assert prof["schema"] == "twill.profile/1" and prof["nodes"] and prof["graph_sha256"]
    assert prof["unmeasured"] == [], prof["unmeasured"]          # every node of the graph has its region
    assert all(s["count"] > 0 for s in prof["nodes"].values())
    assert 0.8 < prof["overhead"]["ratio"] < 1.5 and prof["iteration"]["median_cycles"] > 0
    assert prof["launch"]["num_warps"] == 8 and prof["machine"]["sm_clock_ghz"] > 0.5
    assert (out / "trace.perfetto.json").stat().st_size > 0
    # Proton's per-warp drop notices stay in proton.log; at most our one warning line is printed
    assert "Warning (cta" not in r.stdout + r.stderr
    assert sum(x.startswith("warning:") for x in r.stderr.splitlines()) == len(prof["warnings"]) <= 1
