"""The iteration's latency floor (``gluon_route.latency_floor``): where the kernel's own warps issue the loop's
pointer loads, each a stage ahead of its readers, an iteration waits for the load issued an iteration before. The
joint schedule gives a variable-latency op no latency (the paper's producer hides it), so a loop of one scalar load
a trip had been predicted at 1 cycle an iteration (ColossalAI's sequence-length prefix, session 90's sweep)."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("triton")

from twill.gluon_route import latency_floor  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402
from twill.pipeline import OptimizeOptions, optimize  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus"


def test_a_loop_of_one_scalar_load_is_predicted_at_its_latency_not_one_cycle():
    r = optimize(str(CORPUS / "colossalai_context_attn_unpad_v2.py"), load_machine("h100"),
                 OptimizeOptions(time_limit=2.5, threads=2, loop=0))
    c = r.gluon.chosen
    assert c is not None and c.kernel is not None and c.kernel.plan.producer is None
    lat = max(float(o.attr("latency_cycles") or 0) for o in c.costed.ops if o.variable_latency)
    assert lat > 100
    assert c.schedule.ii * float(c.norm["scale"]) < 10          # the schedule's II alone: a cycle or so
    assert c.cycles == pytest.approx(lat) and c.summary()["latency_floor"] == pytest.approx(lat, abs=0.1)
    # in its readers' stage no less than the latency (its II holds the load's transfer, which the latency includes);
    # a producer's loads set no floor
    assert latency_floor(c.costed, c.schedule.with_extra(loads_ahead=0), own=True) == pytest.approx(lat)
    assert latency_floor(c.costed, c.schedule, own=False) == 0.0     # its schedule has a variable-latency group
