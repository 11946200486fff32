"""``twill validate FILE --arch A --schedule DIR``: a twill schedule on the GPU: correct, how fast
against Triton's own schedules, and how close the predicted iteration time is to the measured one."""
from __future__ import annotations

import argparse
from pathlib import Path

from twill.commands.common import add_arch, machine, reporter
from twill.errors import InputError
from twill.validate import validate


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="kernel .py with make_inputs, launch and reference")
    add_arch(p)
    p.add_argument("--schedule", required=True, help="a `twill optimize` output directory (schedule.json, annotated.ttgir)")
    p.add_argument("-o", "--out", default=None, help="output directory (default: the schedule directory)")
    p.add_argument("--depths", default="1,2,3", help="streaming depths to try (stages the loads run ahead)")
    p.add_argument("--no-profile", action="store_true", help="skip the re-profile")
    p.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    try:
        depths = tuple(int(x) for x in args.depths.split(","))
    except ValueError:
        raise InputError("bad --depths", expected="comma-separated stage counts like 1,2,3", found=args.depths) from None
    if not depths or min(depths) < 1:
        raise InputError("bad --depths", expected="stage counts >= 1", found=args.depths)
    out = args.out or args.schedule
    r = validate(args.file, machine(args), args.schedule, out, profile=not args.no_profile, depths=depths,
                 say=reporter(args.quiet))
    c, sp = r["correctness"], r["speed"]
    print(f"{r['kernel']} on {r['gpu']}: correctness {'PASS' if c['pass'] else 'FAIL'} (relative error "
          f"{c['max_rel_err_reference']:.1e} against the reference, {c['max_rel_err_unscheduled']:.1e} against the "
          f"unscheduled kernel); {sp['unit']}: twill {sp['twill']} (depth {sp['twill_depth']}), Triton default "
          f"{sp['triton_default']}, Triton best {sp['triton_best']} ({sp['triton_best_config']})"
          + (f"; speedup {r['speedup']:.3f}x over default" if r.get("speedup") else ""))
    if r.get("measured_iteration_cycles"):
        print(f"per iteration: predicted {r['predicted_iteration_cycles']} cycles, measured "
              f"{r['measured_iteration_cycles']}{_pct(r.get('iteration_error'))}"
              + (f", about {r['measured_iteration_cycles_uninstrumented']} uninstrumented (by the timing ratio)"
                 f"{_pct(r.get('iteration_error_uninstrumented'))}" if r.get("measured_iteration_cycles_uninstrumented")
                 else ""))
    cp = r.get("critical_path") or {}
    if cp.get("measured_cycles") is not None:
        print(f"critical path {' -> '.join(cp['nodes'])}: predicted {cp['predicted_cycles']} cycles, measured "
              f"{cp['measured_cycles']}{_pct(cp.get('error'))}"
              + (f", about {cp['measured_cycles_uninstrumented']} uninstrumented{_pct(cp.get('error_uninstrumented'))}"
                 if cp.get("measured_cycles_uninstrumented") else ""))
    print(f"wrote {Path(out) / 'validation.json'} and {Path(out) / 'schedule.html'}")
    return 0 if c["pass"] else 1


def _pct(x: float | None) -> str:
    return f" ({x:+.1%})" if x is not None else ""
