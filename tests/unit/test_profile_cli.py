"""``twill profile`` without a GPU and its checks: one clear line when there is no GPU, the Proton
buffer-overflow warning from a real H200 trace, the region that breaks an instrumented compile, a
profile of another kernel refused by ``twill optimize``."""
import subprocess
import sys
from pathlib import Path

import pytest

from profiling.kernel import overflow_warning
from profiling.replay import replay
from profiling.trace import load_trace
from twill.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _has_gpu():
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


@pytest.mark.skipif(_has_gpu(), reason="checks the no-GPU path")
def test_no_gpu_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "prof"
    rc = main(["profile", "kernels/fa3.py", "--arch", "h200", "-o", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("twill profile: error: no GPU") and not out.exists()


def test_bad_sampling_is_one_line(capsys):
    assert main(["profile", "kernels/fa3.py", "--arch", "h200", "--sampling", "0;4"]) == 2
    assert "bad --sampling" in capsys.readouterr().err


def test_buffer_overflow_warning_names_records_lost_and_the_fix():
    """The default-buffer FA trace from the H200 kept 128 of 960 records per warp."""
    ev = load_trace(ROOT / "tests/fixtures/proton_fa3_h200.chrome_trace.json")
    rep = replay(ev, ["tma_load0_k", "dot0_qk", "sfu0_p", "dot1_acc"], 1.98, expected_iters=32)
    w = overflow_warning(rep["lost_records"], 2, "shared")
    lost = rep["lost_records"]
    assert w and f"{lost['records_expected_per_warp'] - lost['records_kept_per_warp']} of " \
                  f"{lost['records_expected_per_warp']} records per warp lost" in w
    assert "--buffer-size" in w and "--buffer-type global" in w
    full = {"records_expected_per_warp": 640, "records_kept_per_warp": 640, "units_short": 0}
    assert overflow_warning(full, 2, "shared") is None


def test_breaking_region_is_named(monkeypatch):
    """Compile once instrumented; when that fails, each region alone: the one that fails is named."""
    pytest.importorskip("triton")
    import profiling.insert as ins
    import twill.ir.pipeline as pipe
    from twill.errors import CompileError
    from twill.ir.frontend import graph_for_file
    from twill.ir.load import load_kernel

    g, _ = graph_for_file(str(ROOT / "kernels/gemm.py"), "h200")
    spec = load_kernel(str(ROOT / "kernels/gemm.py"), "h200")
    assert ins.find_breaking_regions(spec, "h200", g) == []          # the real instrumented GEMM compiles
    real = pipe.compile_with_callbacks

    def flaky(src, target, options, callbacks=None, **kw):
        regions: list = []
        text = callbacks[ins.PRE_PIPELINE_PASS]
        # fail whenever the dot's region is among those inserted (a stand-in for a pass rejecting it)
        k = real(src, target, options, {**callbacks, ins.PRE_PIPELINE_PASS: lambda m: _spy(text, m, regions)}, **kw)
        if any(r == "dot0_acc" for r in regions):
            raise CompileError("'proton.record' op pipeliner doesn't know how to predicate this op")
        return k

    def _spy(cb, mod, regions):
        out = cb(mod)
        regions.extend(n for n in g.ids if f'"{n}"' in out)
        return out

    monkeypatch.setattr(pipe, "compile_with_callbacks", flaky)
    broken = ins.find_breaking_regions(spec, "h200", g)
    assert [b[0] for b in broken] == ["dot0_acc"] and "predicate" in broken[0][1]


def test_optimize_refuses_a_profile_of_another_kernel(tmp_path):
    r = subprocess.run([sys.executable, "-m", "twill.cli", "optimize", "kernels/gemm.py", "--arch", "h200",
                        "--swp-only", "--quiet", "--profile", "bench/results/run3/profile_fa3_default.json",
                        "-o", str(tmp_path / "o")], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "profile is of another kernel" in r.stderr and not (tmp_path / "o").exists()


def test_profile_command_imports_no_solver():
    code = ("import sys\nfor m in ('ortools', 'pyscipopt', 'z3'): sys.modules[m] = None\n"
            "import twill.commands.profile, profiling.kernel, profiling.run, profiling.insert, profiling.replay\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr


def test_optimize_with_a_measured_h200_profile_says_which_costs_were_measured(tmp_path):
    """The FA forward profile measured on the H200 by `twill profile` (bench/results/profiles)."""
    prof = "bench/results/profiles/profile-fa3-h200-global/profile.json"
    r = subprocess.run([sys.executable, "-m", "twill.cli", "optimize", "kernels/fa3.py", "--arch", "h200",
                        "--swp-only", "--profile", prof, "-o", str(tmp_path / "o")],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "costs: 12 measured" in r.stderr and "0 from the machine model" in r.stderr
    import json

    sched = json.loads((tmp_path / "o/schedule.json").read_text())
    assert set(sched["cost_sources"]) == {"profile"}
