"""``bench/occupancy_vs_triton.py`` reads the route's occupancy decision line: the two stay in step."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

from codegen.gluon.generate import PtxasReport
from twill.gluon_route import occupancy_decision

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("occupancy_vs_triton", ROOT / "bench/occupancy_vs_triton.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def test_the_bench_reads_the_routes_occupancy_line():
    plan = SimpleNamespace(consumers=[SimpleNamespace(stages=2)], two_ctas=False, smem_bytes=16)
    kernel = SimpleNamespace(maxnreg=None, plan=plan, num_warps=8)
    report = PtxasReport(registers=164, spill_stores=0, spill_loads=0, serialized="", spills_in_loop=0)
    chosen = SimpleNamespace(kernel=kernel, ptxas=report, ctas_per_sm=1)
    (line,) = occupancy_decision(chosen, [])
    m = bench.OCCUPANCY.match(line)
    assert m is not None, line
    assert m.groups() == ("164", "1", "256", "2")
