"""A consumer of fewer warps than the SM's full ALU rate needs issues its elementwise work that much longer
(``twill.machine.cost.issue_factor``, ``alu_issue_warps`` in the machine files' ``[written]`` table). Run 165 on the
H200: 48 dependent FMAs an element of a [128, 64] tile, 3100 cycles an iteration at 8 warps and 7466 at 4; AMD's
dropout attention split into two 4-warp consumers ran x0.57 of one 8-warp consumer, which the model had 5 % ahead."""
from __future__ import annotations

from pathlib import Path

import pytest

from twill.gluon_route import issue_floor
from twill.graph.model import LoopGraph, Op, Reservation
from twill.machine.cost import issue_factor
from twill.machine.model import load_machine
from twill.schedule.model import Schedule

ROOT = Path(__file__).resolve().parents[2]
ALU = (Reservation("alu", 0, 3072),)


def _op(kind: str, rrt: tuple[Reservation, ...] = ALU) -> Op:
    return Op(f"{kind}0_x", kind, "alu", rrt=rrt)


def test_fewer_warps_than_the_full_rate_needs_scale_an_alu_op():
    h = load_machine("h200")
    assert h.written_cost("alu_issue_warps") == 8
    x = _op("elementwise")
    assert [issue_factor(x, h, w) for w in (2, 4, 8, 16, None)] == [4.0, 2.0, 1.0, 1.0, 1.0]
    assert issue_factor(_op("convert"), h, 4) == 2.0


def test_only_ops_the_alu_alone_serves_scale():
    h = load_machine("h200")
    assert issue_factor(_op("reduce"), h, 4) == 1.0          # its latency is the shuffles' and the exchange's
    sfu = (Reservation("alu", 0, 64), Reservation("sfu", 64, 512))
    assert issue_factor(_op("elementwise", sfu), h, 4) == 1.0      # bound by the MUFU, not the issue
    assert issue_factor(_op("dot"), h, 4) == 1.0


def test_a_machine_without_the_measurement_keeps_the_model():
    b = load_machine("b200")                  # not measured on Blackwell: its file has no [written] table
    assert b.written_cost("alu_issue_warps") is None
    assert issue_factor(_op("elementwise"), b, 4) == 1.0


def _split_graph() -> LoopGraph:
    """Two 4-warp consumers' sub-tiles of an 8-warp kernel: each a dot, 48 ALU ops an element of a [64, 64] tile, and
    a reduction; the loads on the producer."""
    ops = []
    for t in (0, 1):
        ops += [Op(f"load0_k_s{t}", "load", "lsu", cycles=640, rrt=(Reservation("lsu", 0, 640),)),
                Op(f"dot0_qk_s{t}", "dot", "tc", cycles=256, rrt=(Reservation("tc", 0, 256),)),
                Op(f"convert0_x_s{t}", "convert", "alu", cycles=1536, rrt=(Reservation("alu", 0, 1536),)),
                Op(f"reduce0_m_s{t}", "reduce", "alu", cycles=96, rrt=(Reservation("alu", 0, 64),))]
    return LoopGraph("split", tuple(ops), (), meta=(("num_warps", 8),))


def _schedule(g: LoopGraph) -> Schedule:
    warp = tuple((o.id, 2 if o.kind == "load" else int(o.id[-1])) for o in g.ops)
    return Schedule(ii=100, length=100, start=tuple((o.id, 0) for o in g.ops), status="optimal", lower_bound=100,
                    warp=warp)


def test_a_split_consumer_issues_its_elementwise_work_at_its_warps_rate():
    h = load_machine("h200")
    g = _split_graph()
    issue = h.written_cost("wgmma_issue")
    # each consumer: its dot's wgmma issue, its conversion at 4 warps (2 x 1536), its reduction's cycles
    assert issue_floor(g, _schedule(g), h, 2) == pytest.approx(issue + 2 * 1536 + 96)
    assert issue_floor(g, _schedule(g), h, 1) == 0.0           # one consumer of all the warps: the model's rate


def test_the_floor_raises_a_candidates_cycles_above_its_ii():
    from codegen.gluon.generate import PtxasReport
    from twill.gluon_route import Candidate
    g = _split_graph()
    s = _schedule(g)
    clean = PtxasReport(registers=168, spill_stores=0, spill_loads=0, serialized="", spills_in_loop=0)
    c = Candidate(2, g, g, s, {"scale": 10.0}, ptxas=clean, issue_floor=3500.0)
    assert c.cycles == 3500.0
    assert Candidate(2, g, g, s, {"scale": 40.0}, ptxas=clean, issue_floor=3500.0).cycles == 4000.0


@pytest.mark.slow
def test_amd_dropout_attention_keeps_its_rows_in_one_8_warp_consumer():
    from twill.pipeline import OptimizeOptions, optimize
    r = optimize(str(ROOT / "tests/corpus/amd_fa_dropout_alibi.py"), load_machine("h200"),
                 OptimizeOptions(time_limit=7.5, total_time=30.0, threads=2))
    g = r.gluon
    assert g is not None and g.chosen is not None and g.chosen.kernel is not None
    by = {c.subtiles: c for c in g.candidates if c.schedule.status in ("optimal", "feasible")}
    assert set(by) >= {1, 2}
    assert g.chosen.subtiles == 1, [(c.subtiles, c.cycles) for c in g.candidates]
