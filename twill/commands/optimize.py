"""``twill optimize``: extract, cost, normalise, solve, check, and write schedule / IR / HTML."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from twill.commands.common import add_arch, add_kernel_args, machine
from twill.errors import InputError
from twill.pipeline import OptimizeOptions, optimize, write_outputs
from twill.schedule import text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="kernel .py, a .ttgir dumped from Triton, or a graph .json (twill graph --json)")
    add_arch(p)
    p.add_argument("-o", "--out", default=None, help="output directory (default: twill-out/<kernel>-<arch>)")
    p.add_argument("--swp-only", action="store_true", help="modulo schedule only, no warp assignment")
    p.add_argument("--backend", default="cpsat", choices=("cpsat", "cpsat-slots", "scip"),
                   help="modulo backend: cpsat (slot integers, circular intervals), cpsat-slots (Figure 4 time-indexed), scip (time-indexed ILP)")
    p.add_argument("--joint-backend", default="cpsat", choices=("cpsat", "z3"), help="joint problem backend")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per solver call (default 60)")
    p.add_argument("--total-time", type=float, default=None, metavar="S",
                   help="seconds for the whole joint search, over every I it tries (default: ten --time-limits); "
                        "when it runs out the best schedule found so far is kept, with what was proved")
    p.add_argument("--normalize-bound", type=int, default=300, metavar="U",
                   help="upper bound on the sum of normalised costs (paper 5.2, default 300)")
    p.add_argument("--profile", default=None, help="measured profile JSON from `twill profile`")
    add_kernel_args(p)
    p.add_argument("--warp-groups", type=int, default=None, help="warp groups available to the joint problem")
    p.add_argument("--reg-limit", type=int, default=None, help="registers per thread budget (joint problem)")
    p.add_argument("--no-cross-warp", action="store_true", help="forbid cross-warp communication")
    p.add_argument("--no-realisability", action="store_true",
                   help="ignore the installed Triton's pipeliner constraints (the schedule may not compile)")
    p.add_argument("--time-passes", action="store_true", help="print the time each pipeline step took")
    p.add_argument("--dump-dir", default=None, metavar="DIR",
                   help="write each step's output there (graph, costed graph, schedules, annotated IR)")
    p.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    m = machine(args)                    # an unknown arch fails here, before any work
    for flag, value in (("--time-limit", args.time_limit), ("--total-time", args.total_time)):
        if value is not None and not value > 0:
            raise InputError(f"bad {flag}", expected="a positive number of seconds", found=str(value))
    opts = OptimizeOptions(
        swp_only=args.swp_only, backend=args.backend, joint_backend=args.joint_backend,
        time_limit=args.time_limit, total_time=args.total_time, normalize_bound=args.normalize_bound, profile=args.profile,
        kernel=args.kernel, loop=args.loop, args=tuple(args.arg), consts=tuple(args.const),
        num_warps=args.num_warps, warp_groups=args.warp_groups, reg_limit=args.reg_limit,
        no_cross_warp=args.no_cross_warp, realisable=not args.no_realisability, dump_dir=args.dump_dir)
    t0 = time.perf_counter()
    live = sys.stderr.isatty() and not args.quiet

    def progress(msg: str) -> None:
        if args.quiet:
            return
        line = f"[{time.perf_counter() - t0:6.1f}s] {msg}"
        if live and msg.startswith("joint search: I="):   # the joint search's live line: I, L, elapsed
            print("\r" + line.ljust(78), end="", file=sys.stderr, flush=True)
        else:
            print(line, file=sys.stderr, flush=True)

    result = optimize(args.file, m, opts, progress=progress)
    if live:
        print(file=sys.stderr)
    out_dir = Path(args.out) if args.out else Path("twill-out") / f"{Path(args.file).stem}-{args.arch}"
    written = write_outputs(result, out_dir)
    print(text.summary(result.scheduled_graph, result.schedule))
    for note in result.notes:
        print(note)
    for f in written:
        print(f"wrote {f}")
    if args.time_passes:
        total = sum(result.phases.values())
        print("time per step: " + ", ".join(f"{k} {v:.3f} s" for k, v in result.phases.items()) + f" (total {total:.3f} s)")
    return 0
