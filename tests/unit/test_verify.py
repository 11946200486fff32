"""The independent checker catches each violation family (hand-made bad schedules)."""
from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.schedule.model import Schedule
from twill.schedule.verify import verify

G = LoopGraph("t", (Op("a", "dot", "tc", cycles=2, rrt=(Reservation("tc", 0, 2),)),
                    Op("b", "dot", "tc", cycles=2, rrt=(Reservation("tc", 0, 2),)),
                    Op("c", "sfu", "sfu", cycles=1, rrt=(Reservation("sfu", 0, 1),))),
              (Dep("a", "c", 2, 0), Dep("c", "b", 1, 0), Dep("b", "a", 2, 1)))
CAP = {"tc": 1, "sfu": 1}


def sched(start, ii=5, length=6):
    return Schedule(ii=ii, length=length, start=tuple(start.items()), status="feasible", lower_bound=1)


def families(s):
    return sorted({v.family for v in verify(G, CAP, s)})


def test_valid_schedule_passes():
    assert verify(G, CAP, sched({"a": 0, "c": 2, "b": 3}, ii=5, length=5)) == []


def test_dependence_violation():
    v = verify(G, CAP, sched({"a": 0, "c": 1, "b": 3}))
    assert [x.family for x in v] == ["dependence"] and "a->c" in v[0].where and "expected" in str(v[0])


def test_loop_carried_dependence_violation():
    assert "dependence" in families(sched({"a": 0, "c": 2, "b": 3}, ii=4, length=6))


def test_capacity_violation():
    v = verify(G, CAP, sched({"a": 0, "c": 2, "b": 5}, ii=5, length=8))   # b at slot 0 like a
    assert "capacity" in {x.family for x in v}


def test_completion_violation():
    assert families(sched({"a": 0, "c": 2, "b": 3}, ii=5, length=4)) == ["completion"]


def test_missing_op():
    assert families(sched({"a": 0, "c": 2})) == ["coverage"]


def test_negative_start_and_unknown_op():
    v = verify(G, CAP, sched({"a": -1, "c": 2, "b": 3, "zz": 0}))
    assert {(x.family, x.where) for x in v} >= {("coverage", "a"), ("coverage", "zz")}


def test_unit_missing_from_capacity_is_a_capacity_violation():
    v = verify(G, {"tc": 1}, sched({"a": 0, "c": 2, "b": 3}, ii=5, length=5))
    assert [x.family for x in v] == ["capacity"] and "sfu" in v[0].where and "no such unit" in v[0].expected


def test_uncosted_graph_is_reported():
    g = LoopGraph("u", (Op("a", "dot", "tc"),), ())
    assert [x.family for x in verify(g, CAP, sched({"a": 0}))] == ["coverage"]


def test_verify_accepts_a_problem_like_object():
    from twill.solve.problem import ModuloProblem

    p = ModuloProblem.from_graph(G, CAP)
    assert verify(p, CAP, sched({"a": 0, "c": 2, "b": 3}, ii=5, length=5)) == []
    assert [x.family for x in verify(p, CAP, sched({"a": 0, "c": 1, "b": 3}))] == ["dependence"]


def test_every_violation_is_reported_not_just_the_first():
    v = verify(G, CAP, sched({"a": 0, "c": 1, "b": 5}, ii=5, length=3))
    assert {x.family for x in v} == {"dependence", "capacity", "completion"}
    assert all(x.expected and x.got for x in v)


def _imports(module_path):
    """The twill modules a source file imports, at the top or inside functions."""
    import ast

    out = set()
    for node in ast.walk(ast.parse(module_path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("twill"):
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("twill"))
    return out


def test_schedule_and_solve_import_no_cycle_and_the_checker_nothing_of_the_solver():
    """Static, so an import inside a function counts too: twill.schedule imports nothing from
    twill.solve, and the modules of both packages import each other one way only."""
    from pathlib import Path

    import networkx as nx

    import twill

    root = Path(twill.__file__).parent
    files = {".".join(("twill",) + f.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): f
             for pkg in ("schedule", "solve") for f in (root / pkg).rglob("*.py")}
    g = nx.DiGraph()
    for mod, path in files.items():
        g.add_node(mod)
        g.add_edges_from((mod, dep) for dep in _imports(path) if dep in files and dep != mod)
    assert not [(m, d) for m, d in g.edges if m.startswith("twill.schedule") and d.startswith("twill.solve")]
    assert list(nx.simple_cycles(g)) == []


def test_no_function_of_the_solver_or_the_checker_is_over_80_lines():
    import ast
    from pathlib import Path

    import twill

    root = Path(twill.__file__).parent
    long = [f"{f.relative_to(root)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for pkg in ("schedule", "solve") for f in sorted((root / pkg).rglob("*.py"))
            for node in ast.walk(ast.parse(f.read_text()))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > 80]
    assert long == []


def test_checker_imports_no_solver():
    import subprocess
    import sys

    code = ("import sys, twill.schedule.verify, twill.schedule.text; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('ortools', 'pyscipopt', 'z3') "
            "or m.startswith('twill.solve')]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


def test_stage_order_violation():
    """A schedule solved under a compiler's stage order ("c" no later than "b") that breaks it."""
    ok = sched({"a": 0, "c": 2, "b": 3}, ii=5, length=5).with_extra(stage_order=[["c", "b"]])
    assert verify(G, CAP, ok) == []
    bad = sched({"a": 0, "c": 5, "b": 2}, ii=3, length=8).with_extra(stage_order=[["a", "c"], ["c", "b"]])
    v = [x for x in verify(G, CAP, bad) if x.family == "stage order"]
    assert [(x.where, x.expected, x.got) for x in v] == [("c before b", "stage(c) <= stage(b) = 0", "1")]
