"""The plain FA forward kernel on the H100 model: the optimal modulo schedule is FA3's pipeline
(the next iteration's QK GEMM issues before this iteration's exponential finishes, Figure 1)."""
import pytest

pytest.importorskip("triton")


def test_fa3_modulo_schedule_overlaps_next_qk_with_softmax():
    from twill.graph.extract import graph_for_file
    from twill.machine.cost import annotate_costs
    from twill.machine.model import load_machine
    from twill.schedule.verify import verify
    from twill.solve.modulo import modulo_schedule
    from twill.solve.normalize import normalize_graph
    from twill.solve.problem import ModuloProblem, SolveOptions

    m = load_machine("h100")
    g, _ = graph_for_file("kernels/fa3.py", load_machine("h100").target)
    scaled, norm = normalize_graph(annotate_costs(g, m))
    s = modulo_schedule(ModuloProblem.from_graph(scaled, m.units), "cpsat", SolveOptions(time_limit=60))
    assert s.status == "optimal" and verify(scaled, m, s) == []
    dots = [o for o in scaled.ops if o.kind == "dot"]
    exp = max((o for o in scaled.ops if o.kind == "sfu"), key=lambda o: o.cycles)
    qk, pv = dots[0], dots[1]                                  # program order: S = QK^T, then O += PV
    # TC-bound: II is the two GEMMs back to back, and the softmax of iteration i runs while the
    # QK GEMM of iteration i+1 is on the tensor core.
    assert s.ii == s.get("mii")["res_mii"] == qk.cycles + pv.cycles
    assert s.at(qk.id) + s.ii < s.at(exp.id) + exp.cycles
    assert s.stage_of(pv.id) > s.stage_of(qk.id)
