"""``twill validate FILE --arch A --schedule DIR``: a twill schedule on the GPU: correct, how fast
against Triton's own schedules, and how close the predicted iteration time is to the measured one."""
from __future__ import annotations

import argparse
from pathlib import Path

from profiling.gluon_profile import GluonProfileOptions
from twill.commands.common import add_arch, machine, reporter
from twill.errors import InputError
from twill.validate import validate
from twill.validate_gluon import is_gluon_dir, validate_gluon


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="kernel .py with make_inputs, launch and reference")
    add_arch(p)
    p.add_argument("--schedule", required=True, help="a `twill optimize` output directory (schedule.json, annotated.ttgir)")
    p.add_argument("-o", "--out", default=None, help="output directory (default: the schedule directory)")
    p.add_argument("--depths", default="1,2,3", help="streaming depths to try (stages the loads run ahead)")
    p.add_argument("--no-profile", action="store_true", help="skip the re-profile")
    p.add_argument("--profile", default=None, metavar="PROFILE_JSON",
                   help="a Gluon kernel's profile made before (bench/gluon_profile.py): compare with it, no GPU")
    p.add_argument("--per-run", type=int, default=2, help="Gluon: profile regions per run (fewer: lower overhead)")
    p.add_argument("--every", type=int, default=1,
                   help="Gluon: profile one tile in EVERY (the others run the plain code, their loops timed beside "
                        "the recorded ones; run 34: the GEMM's runs 1.00x, the FA forward's not lower than with 1)")
    p.add_argument("--budget", type=float, default=110.0,
                   help="Gluon: seconds of profile runs after which no run is split (twice them: no run is made)")
    p.add_argument("--fresh", action="store_true",
                   help="Gluon: start the profile over (by default a profile that an earlier command left unfinished, "
                        "kept in OUT/profile-journal.json, is continued)")
    p.add_argument("--stalls", nargs="?", const="capture", default=None, metavar="STALLS_JSON_GZ",
                   help="Gluon: where each partition's time goes by PC sampling: sample on this GPU with ncu (no "
                        "value), or read a sample made before (stalls.json.gz)")
    p.add_argument("--loops-only", action="store_true",
                   help="Gluon: the loop runs (no record inside a loop) and one run counting their trips, no region "
                        "profile: the period at the lowest overhead, the partitions' breakdown not measured")
    p.add_argument("--sums", default=None, metavar="PER_RUN",
                   help="Gluon: profile with region sums (profiling/gluon_sums.py: each region's cycles added up in a "
                        "register, stored once a program; no trace) in place of Proton's records, PER_RUN regions a "
                        "run (0: all in one; auto: runs chosen so that ptxas spills no more than without regions, "
                        "from their SASS, or as sums_plan.json beside the kernel has them), the statements between "
                        "regions timed too")
    p.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    try:
        depths = tuple(int(x) for x in args.depths.split(","))
    except ValueError:
        raise InputError("bad --depths", expected="comma-separated stage counts like 1,2,3", found=args.depths) from None
    if not depths or min(depths) < 1:
        raise InputError("bad --depths", expected="stage counts >= 1", found=args.depths)
    out = args.out or args.schedule
    if is_gluon_dir(args.schedule):
        return _gluon(args, out)
    if args.profile:
        raise InputError("--profile is for a Gluon kernel", where=args.schedule,
                         expected="a twill optimize directory with kernel_gluon.py and gluon.json", found="none")
    r = validate(args.file, machine(args), args.schedule, out, profile=not args.no_profile, depths=depths,
                 say=reporter(args.quiet))
    c, sp = r["correctness"], r["speed"]
    print(f"{r['kernel']} on {r['gpu']}: correctness {'PASS' if c['pass'] else 'FAIL'} (relative error "
          f"{c['max_rel_err_reference']:.1e} against the reference, {c['max_rel_err_unscheduled']:.1e} against the "
          f"unscheduled kernel); {sp['unit']}: twill {sp['twill']} (depth {sp['twill_depth']}), Triton default "
          f"{sp['triton_default']}, Triton best {sp['triton_best']} ({sp['triton_best_config']})"
          + (f"; speedup {r['speedup']:.3f}x over default" if r.get("speedup") else ""))
    if r.get("measured_iteration_cycles") and r.get("all_regions_run"):
        print(f"per iteration: predicted {r['predicted_iteration_cycles']} cycles, measured "
              f"{r['measured_iteration_cycles']}{_pct(r.get('iteration_error'))} in {r['profile_runs']} runs of a few "
              f"regions (each run's over its overhead, the median; the largest overhead x{r['profile_overhead']}, "
              f"{'every record kept' if r.get('profile_every_record_kept') else 'records lost'}); the run with every "
              f"region cost x{r['all_regions_run']['overhead']:.3f}, about "
              f"{r.get('measured_iteration_cycles_uninstrumented')} uninstrumented by its timing ratio")
    elif r.get("measured_iteration_cycles"):
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


def _gluon(args: argparse.Namespace, out: str) -> int:
    sums = args.sums if args.sums in (None, "auto") else (int(args.sums) if args.sums.isdigit() else -1)
    if args.per_run < 1 or args.budget <= 0 or args.every < 1 or sums == -1:
        raise InputError("bad profile options", expected="--per-run >= 1, --budget > 0, --every >= 1, --sums >= 0 or "
                         "auto", found=f"--per-run {args.per_run} --budget {args.budget} --every {args.every} --sums "
                         f"{args.sums}")
    if args.sums is not None and (args.loops_only or args.every > 1):
        raise InputError("--sums makes its own runs", where="--sums", expected="--sums without --loops-only or --every",
                         found="--loops-only" if args.loops_only else f"--every {args.every}")
    journal = Path(out) / "profile-journal.json"
    if args.fresh and args.profile is None:
        journal.unlink(missing_ok=True)
    opts = GluonProfileOptions(per_run=args.per_run, budget=args.budget, every=args.every, journal=journal,
                               loops_only=args.loops_only, sums=sums)
    r = validate_gluon(args.file, machine(args), args.schedule, out, profile_path=args.profile,
                       say=reporter(args.quiet), options=opts, stalls=args.stalls)
    c, sp = r.get("correctness"), r.get("speed")
    if c is not None:
        print(f"{r['kernel']} (Gluon) on {r['gpu']}: correctness {'PASS' if c['pass'] else 'FAIL'} (relative error "
              f"{c['max_rel_err_reference']:.1e}); {sp.get('unit', 'TFLOP/s')}: twill {sp['twill']}, "
              f"Triton default {sp['triton_default']}, "
              f"Triton best {sp['triton_best']}" + (f", {sp['library']} {sp[sp['library']]}" if sp.get("library") else ""))
    else:
        print(f"{r['kernel']} (Gluon): compared with the profile {r['profile']} (no GPU used)")
    _print_iterations(r)
    ik = r.get("in_kernel") or {}
    if ik.get("cycles_per_iteration"):
        errs = [f"{e:+.1%} against {what}" for e, what in ((ik.get("error_predicted"), "the schedule"),
                                                            (ik.get("error_calibrated"), "the calibrated replay"))
                if e is not None]
        print(f"whole kernel, read inside it ({ik['calls']} launches): {ik['cycles_per_iteration']:.0f} cycles an "
              f"iteration ({', '.join(errs)}) at {ik['ghz']:.3f} GHz ({ik['ghz_range'][0]:.3f}-{ik['ghz_range'][1]:.3f})")
    sm = r.get("shared_memory")
    if sm:
        print(f"shared memory: {sm['bytes_per_iteration'] / 1024:.0f} KB an iteration (wgmma operands, stores, copies "
              f"in): at least {sm['cycles']:.0f} cycles at {sm['rate_bytes_per_cycle']:.0f} B a clock")
    for p in r["partitions"]:
        pr, m = p["predicted"], p["measured"]
        cb = (p.get("calibrated") or {}).get("busy")
        print(f"  {p['function']}: period {pr.get('period')} -> {m.get('period')}{_pct(p.get('period_error'))}, busy "
              f"{pr.get('busy')} -> {m.get('busy')}{_pct(p.get('busy_error'))}"
              + (f" (calibrated {cb}{_pct(p.get('busy_error_calibrated'))})" if cb is not None else "")
              + f", waits on its wgmmas {pr.get('wait_tensor_core')} -> "
              f"{m.get('wait_tensor_core')}, "
              + (f"on its pointer loads {pr['wait_loads']} (predicted), " if pr.get("wait_loads") else "")
              + f"on the rings {pr.get('wait_rings')} -> {m.get('wait_rings')}, "
              + (f"between the regions {m['in_gaps']} ({', '.join(f'{k} {x}' for k, x in m['gaps'].items())}), "
                 if m.get("gaps") else "")
              + f"outside every region {m.get('outside')}")
    for p in (r.get("stalls") or {}).get("partitions", []):
        print(f"  sampled {p['function']}: " + ", ".join(f"{c} {v:.0%}" for c, v in list(p["causes"].items())[:7])
              + f"; {p['outside']:.0%} on lines outside every region")
    print(f"critical path: {r['critical_path']['explanation']}")
    ov = r["profile_overhead"]
    print(f"profile: worst run {ov['max_of_runs']}x the plain kernel, every record kept: {ov['every_record_kept']}"
          + (f"; tiles recorded {', '.join(ov['tiles_recorded'])}, worst cost to a timed loop "
             f"{ov['max_loop_cost_of_runs']}x its plain tiles'" if ov.get("max_loop_cost_of_runs") else ""))
    if args.profile is None and journal.exists():
        print(f"the profile is not complete ({len(r['profile_overhead']['unmeasured'])} regions unmeasured): the same "
              f"command again makes the runs left, kept in {journal}")
    print(f"wrote {Path(out) / 'validation.json'} and {Path(out) / 'gluon.html'}")
    return 0 if c is None or c["pass"] else 1



def _print_iterations(r: dict) -> None:
    """The per-iteration lines of a Gluon validation: the prediction, the calibrated replays, the loop run."""
    cal = r.get("calibrated")
    print(f"per iteration: predicted {r['predicted_iteration_cycles']} cycles (replayed {r['replayed_iteration_cycles']}), "
          f"measured {r['measured_iteration_cycles']}{_pct(r.get('iteration_error'))}"
          + (f" (steady; amortized {r['measured_amortized_iteration_cycles']}: the first trips and gaps between tiles "
             f"spread over the rest)" if r.get("measured_period_kind") == "steady"
             else " (amortized: the profile predates steady periods)")
          + (f"; replayed with the calibrated costs {cal['cycles']}{_pct(r.get('iteration_error_calibrated'))} "
             f"({'held out' if cal['held_out'] else 'in sample'}: fitted on {len(cal['fitted_on'])} profiles)" if cal else "")
          + (f"; fitted on this kernel's earlier runs too ({', '.join(cal['seen']['runs'])}) "
             f"{cal['seen']['cycles']}{_pct(r.get('iteration_error_calibrated_seen'))}" if cal and cal.get("seen") else ""))
    if r.get("measured_loop_iteration_cycles"):
        print(f"loop run (no record inside a loop, x{r['loop_run_overhead']} the plain kernel, every record kept: "
              f"{r['loop_run_every_record_kept']}): {r['measured_loop_iteration_cycles']} cycles an iteration, the "
              f"default partition's loop amortized{_pct(r.get('iteration_error_loop'))} against the schedule"
              + (f", {_pct(r.get('iteration_error_loop_replay')).strip()} against the replay"
                 if r.get("iteration_error_loop_replay") is not None else "")
              + (f", {_pct(r.get('iteration_error_loop_calibrated')).strip()} against the calibrated replay"
                 if r.get("iteration_error_loop_calibrated") is not None else "")
              + (f" ({_pct(r.get('iteration_error_loop_calibrated_seen')).strip()} fitted on its earlier runs too)"
                 if r.get("iteration_error_loop_calibrated_seen") is not None else ""))

def _pct(x: float | None) -> str:
    return f" ({x:+.1%})" if x is not None else ""
