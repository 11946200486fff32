"""The Gluon route's order of its candidates (``twill.gluon_route.rank``): per SM, so that a kernel holding two CTAs
an SM at the same iteration ranks ahead of one holding one, as far as the SM's busiest unit allows (run 136: the fp8
weight GEMM, 704 cycles an iteration predicted both ways, 473.3 TFLOP/s in two CTAs an SM against 355.4 in one)."""
from __future__ import annotations

from types import SimpleNamespace

from codegen.gluon.generate import PtxasReport
from twill.gluon_route import Candidate, rank
from twill.schedule.model import Schedule

CLEAN = PtxasReport(registers=128, spill_stores=0, spill_loads=0, serialized="", spills_in_loop=0)


def _candidate(subtiles: int, ii: int, two_ctas: bool, busiest: float) -> Candidate:
    schedule = Schedule(ii=ii, length=ii, start=(("dot", 0),), status="optimal", lower_bound=ii)
    kernel = SimpleNamespace(maxnreg=128, plan=SimpleNamespace(two_ctas=two_ctas))
    return Candidate(subtiles, None, None, schedule, {"scale": 1.0}, kernel=kernel, ptxas=CLEAN, busiest=busiest)


def test_two_ctas_an_sm_rank_ahead_of_one_at_the_same_iteration():
    one = _candidate(1, 704, two_ctas=False, busiest=512)
    two = _candidate(2, 704, two_ctas=True, busiest=512)
    assert (one.ctas_per_sm, two.ctas_per_sm) == (1, 2)
    assert (one.sm_cycles, two.sm_cycles) == (704, 512)      # two CTAs: held to the tensor core's 512, not 352
    assert sorted([one, two], key=rank) == [two, one]


def test_the_busiest_unit_bounds_what_a_second_cta_gains():
    one = _candidate(1, 600, two_ctas=False, busiest=590)
    two = _candidate(2, 700, two_ctas=True, busiest=650)    # 350 an SM by its CTAs, but its units take 650
    assert two.sm_cycles == 650
    assert sorted([two, one], key=rank) == [one, two]


def test_one_cta_each_keeps_the_fewer_sub_tiles_on_a_tie():
    one = _candidate(1, 704, two_ctas=False, busiest=800)  # the bound is not applied to one CTA an SM
    two = _candidate(2, 704, two_ctas=False, busiest=512)
    assert one.sm_cycles == two.sm_cycles == 704
    assert sorted([two, one], key=rank) == [one, two]
