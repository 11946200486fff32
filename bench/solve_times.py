"""Solve times per phase for every kernel in kernels/: extraction, cost normalisation (SCIP, target
< 500 ms), modulo scheduling (CP-SAT and SCIP), and the joint search (Algorithm 1).

    python bench/solve_times.py [--arch h100] [--time-limit 30] [--joint]
"""
from __future__ import annotations

import argparse
import datetime
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    import triton

    from twill.ir.frontend import graph_for_file
    from twill.machine.cost import annotate_costs
    from twill.machine.model import load_machine
    from twill.solve.modulo import modulo_schedule
    from twill.solve.normalize import normalize_graph
    from twill.solve.problem import ModuloProblem, SolveOptions

    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", action="append", default=None)
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--joint", action="store_true", help="also run the joint search (slow)")
    a = ap.parse_args()
    archs = a.arch or ["h100", "b200"]
    print(f"# twill solve times, {datetime.date.today()}, {platform.node()} ({platform.processor() or platform.machine()}), "
          f"triton {triton.__version__}, time limit {a.time_limit}s per solver call")
    print(f"# command: python bench/solve_times.py {' '.join(sys.argv[1:])}")
    print(f"{'kernel':<14}{'arch':<6}{'nodes':>6}{'extract':>9}{'norm ms':>9}{'ratio err':>10}"
          f"{'backend':>8}{'II':>6}{'L':>6}{'status':>10}{'modulo s':>10}")
    for k in sorted(Path("kernels").glob("*.py")):
        if k.name.startswith("_"):
            continue
        for arch in archs:
            m = load_machine(arch)
            t0 = time.perf_counter()
            g, _ = graph_for_file(str(k), arch)
            t_ext = time.perf_counter() - t0
            c = annotate_costs(g, m)
            t1 = time.perf_counter()
            s, rep = normalize_graph(c)
            t_norm = time.perf_counter() - t1
            p = ModuloProblem.from_graph(s, m.units)
            for b in ("cpsat", "scip"):
                t2 = time.perf_counter()
                sch = modulo_schedule(p, b, SolveOptions(time_limit=a.time_limit))
                print(f"{k.stem:<14}{arch:<6}{len(g.ops):>6}{t_ext:>9.2f}{t_norm * 1000:>9.1f}"
                      f"{rep['worst_ratio_error']:>10.3f}{b:>8}{sch.ii:>6}{sch.length:>6}{sch.status:>10}"
                      f"{time.perf_counter() - t2:>10.2f}", flush=True)
            if a.joint:
                from types import SimpleNamespace

                from twill.solve.search import joint_search

                t3 = time.perf_counter()
                seed = modulo_schedule(p, "cpsat", SolveOptions(time_limit=a.time_limit)).with_extra(normalization=rep)
                j = joint_search(s, m, SimpleNamespace(time_limit=a.time_limit, num_warps=None, warp_groups=None,
                                                       reg_limit=None, no_cross_warp=False), seed=seed)
                tries = j.get("search") or []
                print(f"{'':<14}{arch:<6} joint: II={j.ii} L={j.length} {j.status}, {len(tries)} (I, L) tries, "
                      f"{time.perf_counter() - t3:.1f}s", flush=True)


if __name__ == "__main__":
    main()
