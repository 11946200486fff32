"""Solve times per phase for every kernel in kernels/: extraction, cost normalisation (SCIP, target
< 500 ms), modulo scheduling (CP-SAT on slot integers, CP-SAT time-indexed, SCIP), and the joint
search (Algorithm 1) on the paper's three cases: Hopper FA forward (sub-tiled), Blackwell FA
forward (sub-tiled, 3 compute groups) and Hopper FA backward, plus the main job's plain FA forward.

    python bench/solve_times.py [--arch h100 --arch b200] [--time-limit 30] [--joint-time 600] [--no-modulo]
                                [--case TEXT] [--repeat 3] [--unsat-cases]

Prints a header (date, host, CPU count, load average, Triton version, command), one line per kernel
x arch x backend, then one line per joint case; commit the output under bench/results/.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (label, kernel, arch, extra joint options); the paper's single-core Xeon times: 28 s, 19 s, 88 s.
JOINT_CASES = (
    ("Hopper FA fwd (sub-tiled)", "fa3_subtiled", "h100", {}, 28.0),
    ("Blackwell FA fwd (sub-tiled, 3 groups)", "fa3_subtiled", "b200", {"warp_groups": 3}, 19.0),
    ("Hopper FA bwd", "fa_bwd", "h100", {}, 88.0),
    ("Hopper FA fwd (plain, the main job)", "fa3", "h100", {}, None),
)
# The paper's section 6.2.2 modifications of the Blackwell forward, each of which makes the smallest
# I unsatisfiable (--unsat-cases; one run each, within the joint budget).
UNSAT_CASES = (
    ("Blackwell fwd, fewer warps (1 group)", "fa3_subtiled", "b200", {"warp_groups": 1}, None),
    ("Blackwell fwd, not sub-tiled", "fa3", "b200", {}, None),
    ("Blackwell fwd, no cross-warp (3 groups)", "fa3_subtiled", "b200", {"warp_groups": 3, "no_cross_warp": True}, None),
)


def header(args: argparse.Namespace) -> None:
    import triton

    load = os.getloadavg()
    print(f"# twill solve times, {datetime.datetime.now():%Y-%m-%d %H:%M}, {platform.node()} "
          f"({os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}), "
          f"Python {platform.python_version()}, triton {triton.__version__}")
    print(f"# command: python bench/solve_times.py {' '.join(sys.argv[1:])}")
    print(f"# modulo: time limit {args.time_limit} deterministic s per solver call; joint: {args.joint_time} "
          "deterministic s budget per case (twill/solve/budget.py)")


def modulo_table(archs: list[str], time_limit: float) -> None:
    from twill.graph.extract import graph_for_file
    from twill.machine.cost import annotate_costs
    from twill.machine.model import load_machine
    from twill.solve.modulo import modulo_schedule
    from twill.solve.normalize import normalize_graph
    from twill.solve.problem import ModuloProblem, SolveOptions

    print(f"\n{'kernel':<14}{'arch':<6}{'nodes':>6}{'extract s':>10}{'norm ms':>9}{'ratio err':>10}"
          f"{'backend':>13}{'II':>6}{'L':>6}{'status':>10}{'modulo s':>10}")
    for k in sorted((ROOT / "kernels").glob("*.py")):
        if k.name.startswith("_"):
            continue
        for arch in archs:
            m = load_machine(arch)
            t0 = time.perf_counter()
            g, _ = graph_for_file(str(k), m.target)
            t_ext = time.perf_counter() - t0
            t1 = time.perf_counter()
            s, rep = normalize_graph(annotate_costs(g, m))
            t_norm = time.perf_counter() - t1
            p = ModuloProblem.from_graph(s, m.units)
            for b in ("cpsat", "cpsat-slots", "scip"):
                t2 = time.perf_counter()
                sch = modulo_schedule(p, b, SolveOptions(time_limit=time_limit))
                print(f"{k.stem:<14}{arch:<6}{len(g.ops):>6}{t_ext:>10.2f}{t_norm * 1000:>9.1f}"
                      f"{rep['worst_ratio_error']:>10.3f}{b:>13}{sch.ii:>6}{sch.length:>6}{sch.status:>10}"
                      f"{time.perf_counter() - t2:>10.2f}", flush=True)


def joint_table(budget: float, time_limit: float, only: str | None = None, repeat: int = 3,
                cases: tuple = JOINT_CASES) -> None:
    """Each joint case ``repeat`` times (the VM is shared: the median is the figure); per phase:
    normalisation, the modulo seed (Algorithm 1's first I), the joint search (every (I, L) tried,
    with the preference pass), and the total against the target (a tenth of the paper's time)."""
    import statistics

    from twill.graph.extract import graph_for_file
    from twill.machine.cost import annotate_costs
    from twill.machine.model import load_machine
    from twill.schedule.verify import verify
    from twill.solve.modulo import modulo_schedule
    from twill.solve.normalize import normalize_graph
    from twill.solve.problem import ModuloProblem, SolveOptions
    from twill.solve.search import JointOptions, joint_search

    print(f"\n{'joint case':<40}{'MII':>5}{'I':>5}{'L':>5}{'status':>9}{'groups':>7}{'Is':>4}"
          f"{'norm s':>8}{'seed s':>8}{'joint s':>8}{'total s':>8}{'min-max':>12}{'target':>7}{'paper':>6}")
    for label, kernel, arch, kw, paper in cases:
        if only and only.lower() not in label.lower():
            continue
        m = load_machine(arch)
        g, _ = graph_for_file(str(ROOT / "kernels" / f"{kernel}.py"), m.target)
        runs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            s, rep = normalize_graph(annotate_costs(g, m))
            t1 = time.perf_counter()
            seed = modulo_schedule(ModuloProblem.from_graph(s, m.units), "cpsat",
                                   SolveOptions(time_limit=time_limit))
            t2 = time.perf_counter()
            j = joint_search(s, m, JointOptions(time_limit=time_limit, total_time=budget, **kw),
                             seed=seed.with_extra(normalization=rep))
            t3 = time.perf_counter()
            runs.append((t1 - t0, t2 - t1, t3 - t2, t3 - t0))
        ok = j.status in ("optimal", "feasible") and verify(s, m, j) == []
        med = [statistics.median(r[k] for r in runs) for k in range(4)]
        totals = [r[3] for r in runs]
        groups = (j.get("warp_groups") or {}).get("compute", "-")
        tried = len({e["ii"] for e in j.get("search") or [] if isinstance(e["ii"], int)})   # solver calls' I
        target = f"{paper / 10:.1f}" if paper else "-"
        mark = "" if not paper else ("  met" if med[3] <= paper / 10 else "  NOT MET")
        print(f"{label:<40}{seed.ii:>5}{j.ii:>5}{j.length:>5}{j.status:>9}{groups!s:>7}{tried:>4}"
              f"{med[0]:>8.2f}{med[1]:>8.2f}{med[2]:>8.2f}{med[3]:>8.2f} {f'{min(totals):.2f}-{max(totals):.2f}':>13}"
              f"{target:>7}{paper or '-':>6}{mark}" + ("" if ok or not j.ii else "  CHECKER FAILED"), flush=True)
        if j.warp:
            roles: dict[int, list[str]] = {}
            for op, grp in j.warp:
                roles.setdefault(grp, []).append(op)
            pref = j.get("preference") or {}
            print("    groups: " + "; ".join(f"{grp}: {' '.join(ops)}" for grp, ops in sorted(roles.items())))
            print(f"    preference: blocking exposure {pref.get('blocking_exposure')}, crossing values "
                  f"{pref.get('crossing_values')}, pass {(j.get('search') or [{}])[-1].get('preference_pass', '-')}")
        if cases is UNSAT_CASES:
            solved = [e["ii"] for e in j.get("search") or [] if isinstance(e["ii"], int)]
            first = (j.get("search") or [{}])[0]
            print(f"    at the modulo II {seed.ii}: {first.get('result')}; I tried {min(solved)}..{max(solved)}, "
                  f"I proved >= {j.lower_bound}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", action="append", default=None)
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--joint-time", type=float, default=600.0, help="budget of each joint case (deterministic seconds)")
    ap.add_argument("--no-modulo", action="store_true")
    ap.add_argument("--no-joint", action="store_true")
    ap.add_argument("--case", default=None, help="only the joint cases whose label contains this")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each joint case (the median is reported)")
    ap.add_argument("--unsat-cases", action="store_true",
                    help="the paper's unsatisfiable Blackwell modifications instead of the timed cases (one run each)")
    a = ap.parse_args()
    header(a)
    if not a.no_modulo:
        modulo_table(a.arch or ["h100", "b200"], a.time_limit)
    if not a.no_joint:
        if a.unsat_cases:
            joint_table(a.joint_time, max(a.time_limit, 60.0), a.case, 1, UNSAT_CASES)
        else:
            joint_table(a.joint_time, max(a.time_limit, 60.0), a.case, a.repeat)
    load = os.getloadavg()
    print(f"\n# done {datetime.datetime.now():%H:%M}, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
