"""``twill validate`` without a GPU: bad input refused in one line before any GPU work, no GPU in one
line, no solver imported; the HTML view draws a validation record beside a schedule."""
import subprocess
import sys
from pathlib import Path

import pytest

from twill.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCHED = "bench/results/schedules"


def _has_gpu():
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def one_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_schedule_of_another_kernel_is_refused(capsys):
    assert main(["validate", "kernels/fa3.py", "--arch", "h200", "--schedule", f"{SCHED}/gemm-h200"]) == 2
    assert "schedule is of another kernel source" in one_line(capsys)


def test_schedule_for_another_gpu_is_refused(capsys):
    assert main(["validate", "kernels/fa3.py", "--arch", "b200", "--schedule", f"{SCHED}/fa3-h200"]) == 2
    assert "schedule is for another GPU (expected b200, found h200)" in one_line(capsys)


def test_not_a_schedule_directory(tmp_path, capsys):
    assert main(["validate", "kernels/fa3.py", "--arch", "h200", "--schedule", str(tmp_path)]) == 2
    assert "not a twill optimize output directory" in one_line(capsys)


def test_bad_depths(capsys):
    assert main(["validate", "kernels/fa3.py", "--arch", "h200", "--schedule", f"{SCHED}/fa3-h200",
                 "--depths", "0"]) == 2
    assert "bad --depths" in one_line(capsys)


@pytest.mark.skipif(_has_gpu(), reason="checks the no-GPU path")
def test_no_gpu_is_one_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "v"
    assert main(["validate", "kernels/fa3.py", "--arch", "h200", "--schedule", f"{SCHED}/fa3-h200", "-o", str(out)]) == 2
    assert one_line(capsys).startswith("twill validate: error: no GPU") and not out.exists()


def test_validate_imports_no_solver():
    code = ("import sys\nfor m in ('ortools', 'pyscipopt', 'z3'): sys.modules[m] = None\n"
            "import twill.commands.validate, codegen.validate, codegen.annotate, codegen.compile\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr


def test_view_draws_a_validation_record_beside_the_schedule(tmp_path):
    import json
    import shutil

    from twill.commands.view import load_inputs
    from twill.view.html import render_html

    d = tmp_path / "fa3"
    shutil.copytree(ROOT / SCHED / "fa3-h200", d)
    (d / "validation.json").write_text(json.dumps({"predicted_iteration_cycles": 3624.0,
                                                   "measured_iteration_cycles": 5242.0, "tflops": 512.0,
                                                   "baseline_tflops": 507.5, "speedup": 1.0089}))
    target, sched, graph, extra = load_inputs(d)
    html = render_html(sched, graph, extra.get("profile"), extra.get("validation"))
    assert "Measured against predicted" in html and "5,242" in html and "+44.6% against the prediction" in html
