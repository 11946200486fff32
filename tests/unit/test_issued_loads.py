"""``--issued-loads`` (experimental): the Gluon route solves with each pointer load its readers issue holding their warp
group for its issue, not its latency (``twill.solve.joint_problem.JointProblem.from_graph``). Off by default: run 187
on the H200 measured it mixed (the inductor layer norm x1.16, vLLM's paged attention x1.11, AWQ's GEMM x0.82, seven
within 3 %). AWQ's GEMM: four loads of 600-680 cycles held one after another set I to 2559 cycles in one stage; issued,
its loads run ahead of their readers in seven stages at I = 137. The chosen kernel records the model it was solved
under; every schedule goes through the checker."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("triton")

from twill.machine.model import load_machine  # noqa: E402
from twill.pipeline import OptimizeOptions, optimize  # noqa: E402
from twill.schedule.verify import verify  # noqa: E402

KERNEL = Path(__file__).resolve().parents[2] / "tests" / "corpus" / "awq_gemm.py"


def test_the_loads_model_is_asked_for_recorded_and_checked():
    h200 = load_machine("h200")
    held = optimize(str(KERNEL), h200, OptimizeOptions(threads=1)).gluon.chosen
    issued = optimize(str(KERNEL), h200, OptimizeOptions(issued_loads=True, threads=1)).gluon.chosen
    assert held.kernel is not None and issued.kernel is not None
    assert not held.schedule.get("issued_loads") and issued.schedule.get("issued_loads") is True
    unit = float(held.schedule.get("normalization")["scale"])
    assert held.schedule.ii * unit > 2000 and issued.schedule.ii * float(issued.schedule.get("normalization")["scale"]) < 300
    assert issued.schedule.stages > held.schedule.stages
    for c in (held, issued):
        assert c.schedule.status == "optimal" and verify(c.graph, h200, c.schedule) == []
