"""``twill profile FILE --arch A``: measured per-node latencies with Proton region timing (GPU only)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from codegen.compile import schedule_plan
from profiling.kernel import ProfileOptions, profile_kernel, profile_subsets, summary
from profiling.subsets import LIMIT, subsets_summary, wants_subsets
from twill.commands.common import add_arch, machine, reporter
from twill.errors import InputError
from twill.ir.triton_hooks import PassPlan


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="kernel .py with make_inputs(**problem) and launch(inputs, **config)")
    add_arch(p, "the GPU's machine model (the node ids of the profile refer to its graph)")
    p.add_argument("-o", "--out", default=None, help="output directory (default: twill-out/<kernel>-<arch>-profile)")
    p.add_argument("--schedule", default=None, help="profile a twill schedule (optimize's output directory)")
    p.add_argument("--sampling", default="0,4", help="warps recorded per CTA, comma-separated, or 'all' (default 0,4)")
    p.add_argument("--buffer-type", default="shared", choices=("shared", "global"), help="Proton record buffer")
    p.add_argument("--buffer-size", type=int, default=0, help="Proton buffer bytes (default: Proton's)")
    p.add_argument("--subsets", action="store_true",
                   help="where the run with every region costs more than x1.05 the plain kernel, measure the regions "
                        "again in runs of a few, each within it where one region alone is (subsets.json)")
    p.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    if args.buffer_size < 0:
        raise InputError("bad --buffer-size", expected="bytes >= 0", found=str(args.buffer_size))
    if args.sampling != "all" and not all(x.strip().isdigit() for x in args.sampling.split(",")):
        raise InputError("bad --sampling", expected="warp indices like 0,4 or 'all'", found=args.sampling)
    out = args.out or str(Path("twill-out") / f"{Path(args.file).stem}-{args.arch}-profile")
    m = machine(args)
    plan = PassPlan()
    if args.schedule:
        ann = Path(args.schedule) / "annotated.ttgir" if Path(args.schedule).is_dir() else Path(args.schedule)
        if not ann.is_file():
            raise InputError("no annotated TTGIR for --schedule", where=str(args.schedule),
                             expected="a twill optimize output directory or an annotated .ttgir", found="nothing")
        plan = schedule_plan(ann.read_text(), m.sm)
    prof = profile_kernel(args.file, m, out, ProfileOptions(args.sampling, args.buffer_type, args.buffer_size,
                                                           args.schedule), reporter(args.quiet), schedule=plan)
    print(summary(prof))
    for w in prof.get("warnings") or []:
        print(f"warning: {w}", file=sys.stderr)
    if wants_subsets(prof) and args.subsets:
        sub = profile_subsets(args.file, m, out, prof, ProfileOptions(args.sampling, args.buffer_type,
                              args.buffer_size, args.schedule), reporter(args.quiet), schedule=plan)
        print(subsets_summary(sub))
    elif wants_subsets(prof):
        print(f"note: every region in one run cost x{prof['overhead']['ratio']:.3f} the plain kernel; --subsets "
              f"measures them again in runs of a few, each within x{LIMIT}")
    for name in ("profile.json", "subsets.json", "trace.chrome_trace", "trace.perfetto.json", "proton.log"):
        if (Path(out) / name).is_file():
            print(f"wrote {Path(out) / name}")
    return 0
