"""Source hints: the tl.range / launch options closest to a schedule, and what they cannot say."""
import dataclasses
import json
from pathlib import Path

from codegen.hints import hints
from twill.graph.io import graph_from_dict
from twill.machine.model import load_machine
from twill.schedule.model import Schedule

H200 = load_machine("h200")

SCHED = Path(__file__).resolve().parents[2] / "bench/results/schedules"


def _load(name):
    d = json.loads((SCHED / f"{name}-h200/schedule.json").read_text())
    return graph_from_dict(d["graph"]), Schedule.from_dict(d)


def test_gemm_hint_is_num_stages_from_the_load_distance():
    g, s = _load("gemm")
    h = hints(g, s, H200)
    assert dict(h.range_kwargs) == {"num_stages": 3} and dict(h.launch) == {"num_warps": 8, "num_stages": 3}
    assert h.tune == (2, 4) and not h.lost                  # one compute op: nothing lost
    assert "tl.range(lo, hi, step, num_stages=3)" in h.text(61)


def test_fa3_hint_says_the_cluster_order_is_lost_and_a_warp_map_asks_for_warp_specialize():
    g, s = _load("fa3")
    h = hints(g, s, H200)
    assert dict(h.range_kwargs) == {"num_stages": 2} and h.tune == (2, 3)
    assert any("loop.cluster" in x for x in h.lost)
    warps = tuple((o.id, 1 if o.variable_latency else 0) for o in g.ops)
    hw = hints(g, dataclasses.replace(s, warp=warps), H200)
    assert dict(hw.range_kwargs)["warp_specialize"] is True and any("warp assignment" in x for x in hw.lost)
    assert hw.to_dict()["tl.range"] == {"num_stages": 2, "warp_specialize": True}
