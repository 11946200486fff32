"""``twill regen``: solve every kernel x arch x config into the schedule database; ``--check`` re-solves
and exits 1 with a readable diff when a schedule changed or its proof weakened."""
from __future__ import annotations

import argparse
import sys

from twill.errors import InputError
from twill.machine.model import known
from twill.pipeline import OptimizeOptions
from twill.store.regen import default_jobs, regen


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="kernel .py / .ttgir / graph .json files, or folders of kernel files")
    p.add_argument("--arch", action="append", required=True, metavar="{" + ",".join(known()) + "}",
                   help="GPU to solve for (repeat: --arch h100 --arch b200)")
    p.add_argument("--db", default="schedules.sqlite", help="schedule database (default schedules.sqlite)")
    p.add_argument("--jobs", "-j", type=int, default=None,
                   help="worker processes (default: one per core); each solve uses one solver thread and a "
                        "fixed seed, so re-solves are reproducible")
    p.add_argument("--time-limit", type=float, default=60.0, help="deterministic seconds per solver call (default 60; see twill optimize --help)")
    p.add_argument("--check", action="store_true",
                   help="re-solve everything, write nothing, exit 1 when a schedule or its proof drifted")
    p.add_argument("--executor", default="local", metavar="local|ray[=ADDRESS]",
                   help="where solves run: local processes (default) or a Ray cluster (pip install ray)")
    p.add_argument("--swp-only", action="store_true", help="modulo schedules only, no warp assignment")
    p.add_argument("--backend", default="cpsat", choices=("cpsat", "scip"), help="modulo ILP backend")
    p.add_argument("--joint-backend", default="cpsat", choices=("cpsat", "z3"), help="joint problem backend")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress lines")


def run(args: argparse.Namespace) -> int:
    if args.time_limit <= 0:
        raise InputError("bad --time-limit", expected="a positive number of deterministic seconds", found=str(args.time_limit))
    opts = OptimizeOptions(swp_only=args.swp_only, backend=args.backend, joint_backend=args.joint_backend,
                           time_limit=args.time_limit)

    def progress(line: str) -> None:
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    report = regen(args.paths, args.arch, args.db, opts, jobs=args.jobs or default_jobs(), executor=args.executor,
                   check=args.check, progress=progress, argv=sys.argv[1:])
    diff = report.diff_text()
    if diff:
        print(diff)
    print(report.summary())
    return 0 if report.ok else 1
