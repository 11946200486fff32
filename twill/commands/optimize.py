"""``twill optimize``: extract, cost, normalise, solve, check, and write schedule / IR / HTML."""
from __future__ import annotations

import argparse
import sys
import time

from twill.errors import InputError

ARCHS = ("h100", "h200", "b200")


def _pair(s: str) -> tuple[str, str]:
    if "=" not in s:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, found {s!r}")
    k, v = s.split("=", 1)
    return k.strip(), v.strip()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="kernel .py, a .ttgir dumped from Triton, or a graph .json (twill graph --json)")
    p.add_argument("--arch", required=True, choices=ARCHS)
    p.add_argument("-o", "--out", default=None, help="output directory (default: twill-out/<kernel>-<arch>)")
    p.add_argument("--swp-only", action="store_true", help="modulo schedule only, no warp assignment")
    p.add_argument("--backend", default="cpsat", choices=("cpsat", "cpsat-slots", "scip"),
                   help="modulo backend: cpsat (slot integers, circular intervals), cpsat-slots (Figure 4 time-indexed), scip (time-indexed ILP)")
    p.add_argument("--joint-backend", default="cpsat", choices=("cpsat", "z3"), help="joint problem backend")
    p.add_argument("--time-limit", type=float, default=60.0, help="seconds per solver call (default 60)")
    p.add_argument("--normalize-bound", type=int, default=300, metavar="U",
                   help="upper bound on the sum of normalised costs (paper 5.2, default 300)")
    p.add_argument("--profile", default=None, help="measured profile JSON from `twill profile`")
    p.add_argument("--kernel", default=None, help="kernel name when the file has several")
    p.add_argument("--loop", type=int, default=None, help="which loop (index in `twill graph` listing)")
    p.add_argument("--arg", type=_pair, action="append", default=[], metavar="NAME=TYPE")
    p.add_argument("--const", type=_pair, action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--num-warps", type=int, default=None)
    p.add_argument("--warp-groups", type=int, default=None, help="warp groups available to the joint problem")
    p.add_argument("--reg-limit", type=int, default=None, help="registers per thread budget (joint problem)")
    p.add_argument("--no-cross-warp", action="store_true", help="forbid cross-warp communication")
    p.add_argument("--no-realisability", action="store_true",
                   help="ignore the installed Triton's pipeliner constraints (the schedule may not compile)")
    p.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from twill.pipeline import OptimizeOptions, optimize, write_outputs
    from twill.schedule import text

    if args.time_limit <= 0:
        raise InputError("bad --time-limit", expected="a positive number of seconds", found=str(args.time_limit))
    opts = OptimizeOptions(
        swp_only=args.swp_only, backend=args.backend, joint_backend=args.joint_backend,
        time_limit=args.time_limit, normalize_bound=args.normalize_bound, profile=args.profile,
        kernel=args.kernel, loop=args.loop, args=tuple(args.arg), consts=tuple(args.const),
        num_warps=args.num_warps, warp_groups=args.warp_groups, reg_limit=args.reg_limit,
        no_cross_warp=args.no_cross_warp, realisable=not args.no_realisability)
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

    result = optimize(args.file, args.arch, opts, progress=progress)
    if live:
        print(file=sys.stderr)
    out_dir = Path(args.out) if args.out else Path("twill-out") / f"{Path(args.file).stem}-{args.arch}"
    written = write_outputs(result, out_dir)
    print(text.summary(result.scheduled_graph, result.schedule))
    for note in result.notes:
        print(note)
    for f in written:
        print(f"wrote {f}")
    return 0
