"""``twill optimize`` end to end on the real kernels (CPU only): outputs, the independent checker on
what was written, the installed Triton's realisability constraints honoured by the solvers, bad input."""
import json

import pytest

pytest.importorskip("triton")

from twill.cli import main  # noqa: E402
from twill.graph.io import graph_from_dict  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402
from twill.schedule.model import Schedule  # noqa: E402
from twill.schedule.verify import verify  # noqa: E402

FILES = {"schedule.json", "graph.json", "pre_pipeline.ttgir", "annotated.ttgir", "schedule.html"}


def run(tmp_path, *argv):
    out = tmp_path / "out"
    rc = main(["optimize", *argv, "-o", str(out), "--quiet"])
    return rc, out


def load(out):
    """schedule.json and its Schedule; its embedded graph is the scheduled (normalised) one."""
    d = json.loads((out / "schedule.json").read_text())
    return d, Schedule.from_dict(d)


def test_gemm_swp_only_writes_every_output_and_the_written_schedule_checks(tmp_path, capsys):
    rc, out = run(tmp_path, "kernels/gemm.py", "--arch", "h100", "--swp-only")
    assert rc == 0 and FILES <= {p.name for p in out.iterdir()}
    d, s = load(out)
    g = graph_from_dict(d["graph"])
    assert s.status == "optimal" and s.ii > 0
    assert verify(g, load_machine("h100"), s) == []
    out = capsys.readouterr().out
    assert "II = " in out and "source hints" in out and "num_stages=" in out


def test_fa3_schedule_honours_triton_36_realisability(tmp_path, capsys):
    """Triton 3.6 cannot predicate a dot before the last stage: the emitted schedule keeps every
    compute op no later than each dot's stage; the unconstrained optimum (FA3's pipeline, II = 210)
    is recorded beside it with the reason."""
    import triton

    if not triton.__version__.startswith("3.6"):
        pytest.skip("the last-stage constraint is Triton 3.6's")
    rc, out = run(tmp_path, "kernels/fa3.py", "--arch", "h100", "--swp-only")
    assert rc == 0
    d, s = load(out)
    real = s.get("realisability")
    assert real["unconstrained"]["ii"] == 210 and s.ii > 210
    assert s.get("stage_order") and all(s.start_map[a] // s.ii <= s.start_map[b] // s.ii for a, b in s.get("stage_order"))
    assert "last_stage" in {c["kind"] for c in real["constraints"]}
    from codegen.placement import placement

    g = graph_from_dict(d["graph"])
    assert verify(g, load_machine("h100"), s) == []
    assert not placement(g, s, load_machine("h100")).projected            # codegen places it as solved, nothing given up
    assert f"II={s.ii}" in (out / "annotated.ttgir").read_text().splitlines()[0]


def test_no_realisability_gives_the_machine_optimum(tmp_path):
    rc, out = run(tmp_path, "kernels/fa3.py", "--arch", "h100", "--swp-only", "--no-realisability")
    assert rc == 0
    _, s = load(out)
    assert s.ii == 210 and s.get("realisability") is None


def test_missing_kernel_file_is_one_line_and_writes_nothing(tmp_path, capsys):
    rc, out = run(tmp_path, "kernels/nope.py", "--arch", "h100")
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "nope.py" in err[0] and not out.exists()
