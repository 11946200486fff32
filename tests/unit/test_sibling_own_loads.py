"""Loops beside the scheduled one where the scheduled loop loads nothing (``gluon_route._loads_own``): MInference's
block sums (tests/corpus, session 90's sweep) scheduled at its last loop, which only stores; the four loops before it
load their rows, and were solved with their loads in the compute group while the checker wanted a variable-latency
group (six candidates failed "a sibling loop's schedule failed the independent checker", a one-partition kernel
written after). They are solved as one group of the kernel's warps issuing their own loads, and pass."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("triton")

from twill.machine.model import load_machine  # noqa: E402
from twill.pipeline import OptimizeOptions, optimize  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus"


def test_loops_before_a_store_only_loop_pass_the_checker_with_their_own_loads():
    r = optimize(str(CORPUS / "minference_xattn_softmax_block_sum.py"), load_machine("h100"),
                 OptimizeOptions(time_limit=2.5, threads=2, loop=4))
    g = r.gluon
    assert g is not None and g.kernel is not None, g.reason if g is not None else None
    tried = [c for c in g.candidates if c.error]
    assert not any("independent checker" in c.error for c in tried), [c.error for c in tried]
    plan = g.kernel.plan
    assert len(plan.siblings) == 4 and plan.producer is None
    lines = [d for d in plan.decisions if "before the scheduled loop" in d]
    assert len(lines) == 4 and all("no ring, no producer" in d for d in lines), lines
