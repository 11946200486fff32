"""``--async-copies`` (experimental): the Gluon route solves with the producer's ring copies holding its warp group for
their issue, not their latency (``twill.solve.joint_problem.copied_async``). Off by default: run 179 on the H200 measured
it mixed (7 kernels 7-28 % faster, 9 of them 7-25 % slower). SGLang's w8a8 block int8 GEMM, its int8 A tile copied in two
sub-tiles by cp.async: held for their latency, one consumer; held for their issue, its rows split between two (run 176:
x1.11). The chosen kernel records which model it was solved under; every schedule goes through the checker."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("triton")

from twill.machine.model import load_machine  # noqa: E402
from twill.pipeline import OptimizeOptions, optimize  # noqa: E402
from twill.schedule.verify import verify  # noqa: E402

KERNEL = Path(__file__).resolve().parents[2] / "tests" / "corpus" / "sglang_w8a8_block_int8_gemm.py"


@pytest.mark.parametrize("copies", [False, True])
def test_the_copies_model_is_asked_for_and_recorded(copies):
    res = optimize(str(KERNEL), load_machine("h200"), OptimizeOptions(async_copies=copies, threads=1))
    chosen = res.gluon.chosen
    assert chosen is not None and chosen.kernel is not None
    assert bool(chosen.schedule.get("async_copies")) is copies
    assert all(not c.schedule.get("async_copies") for c in res.gluon.candidates) is not copies
    assert chosen.subtiles == (2 if copies else 1)
    assert verify(chosen.graph, load_machine("h200"), chosen.schedule) == []
