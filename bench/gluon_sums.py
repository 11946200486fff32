"""On the GPU: region sums (``profiling.gluon_sums``) against the plain kernel and against Proton's records, for
generated Gluon kernels. Per variant directory: the plain kernel timed; then each run of region sums (the regions
dealt into runs of at most ``--per-run``, in program order, as the profiler deals Proton's) timed alternately with the
plain kernel (``adjacent_timings``: the overhead), launched once at the timed problem with a zeroed buffer, and
read back: per partition, the main loop's cycles per iteration (all programs' loop cycles over all their trips) and
each region's; optionally the same regions under Proton (``--proton``) for the overhead side by side.

The first run of each variant sums no region: every partition's main loop timed whole and counted.

    python bench/gluon_sums.py bench/results/gluon/fa3 [DIR ...] [--per-run 0|N|auto] [--proton p1:sfu1_alpha_s1]
    python bench/gluon_sums.py bench/results/gluon/fa_bwd --plan-only       # no GPU: writes DIR/sums_plan.json

``--per-run 0``: every region in one run; ``auto``: the runs ``profiling.gluon_sums_plan`` plans from their SASS (read
from DIR/sums_plan.json where it was planned for this source; ``--plan-only`` plans and writes it offline). Prints one line per run and one per region; with ``--json F``, writes the
figures there too, each variant's whole profile under ``profile`` (as ``twill validate --sums`` reads it). Imports no
solver.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from profiling.gluon import buffer_for, instrument, load_source, scopes_of  # noqa: E402
from profiling.gluon_profile import Variant, adjacent_timings, instrumentation_mode, plain_timing  # noqa: E402
from profiling.gluon_sums import CLOCKS, with_gaps  # noqa: E402
from profiling.gluon_sums_plan import planned_runs  # noqa: E402
from profiling.gluon_sums_run import sums_profile  # noqa: E402


def proton_run(v: Variant, names: tuple[str, ...], label: str) -> dict:
    btype, bsize = buffer_for(v.ks, names, v.iterations, v.capacity, False)
    mode = instrumentation_mode(v.ks.sampling(names), btype, bsize)
    mod = load_source(instrument(v.source, v.ks, names), str(v.work), f"twill_proton_{label}_{os.getpid()}")
    ms, plain = adjacent_timings(v, mod, mode)
    return {"label": label, "regions": list(names), "ms": ms, "plain_ms": plain, "overhead": ms / plain}


def variant(d: Path, a: argparse.Namespace, work: str) -> dict:
    """The variant's sums profile (``profiling.gluon_sums_run.sums_profile``: the loop run first, then the runs, each
    over x1.05 measured again in halves with ``--per-run auto``), each run's figures printed; Proton's runs beside."""
    meta = json.loads((d / "variant.json").read_text())
    prof = sums_profile(d, ROOT / meta["kernel_file"], meta, a.per_run, lambda s: print(s, flush=True), a.clock,
                        gaps=not a.no_gaps)
    runs = [prof["loop_run"]["run"]] + prof["runs"]
    for r in runs:
        print(f"  {r['label']} ({len(r['regions'])} regions): {r['instrumented_ms']:.4f} ms, x{r['overhead']:.4f} "
              f"plain", flush=True)
        for p, f in r["figures"].items():
            if not f.get("trips"):
                continue
            cover = sum(c for n, c in f.items() if n.startswith("p"))
            print(f"    p{p}: {f['trips']} trips over {f['programs']} programs, loop {f['loop']:.1f} cycles/iteration, "
                  f"regions {cover:.1f} ({cover / f['loop']:.0%})", flush=True)
            for n, c in f.items():
                if n.startswith("p"):
                    print(f"      {n} {c:.1f}", flush=True)
    res = {"label": meta["label"], "plain_ms": prof["plain_ms"], "problem": prof["timed_problem"], "runs": runs,
           "split_runs": prof["split_runs"], "proton": [],
           "profile": prof}      # as `twill validate --sums` reads it (run 208's were rebuilt offline from the runs)
    if a.proton:
        v = Variant(d, Path(work), ROOT / meta["kernel_file"], meta)
        plain_timing(v)
        for names in a.proton:
            r = proton_run(v, tuple(names.split(",")), "proton")
            res["proton"].append(r)
            print(f"  proton {names}: {r['ms']:.4f} ms, x{r['overhead']:.4f} plain", flush=True)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--per-run", default="0", help="regions a run (0: all in one) or auto")
    ap.add_argument("--clock", choices=sorted(CLOCKS), default="clock",
                    help="the clock register read (%%clock: S2UR into a uniform register; %%clock64: CS2R)")
    ap.add_argument("--plan-only", action="store_true", help="plan the runs offline (no GPU) and write sums_plan.json")
    ap.add_argument("--proton", action="append", default=[], help="comma-separated regions timed under Proton too")
    ap.add_argument("--no-gaps", action="store_true", help="leave the statements no region holds untimed (by default "
                    "each run of them is a region of its own: profiling.gluon_sums.with_gaps)")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    for d in a.dirs:
        missing = [f for f in ("kernel_gluon.py", "gluon.json", "variant.json") if not (Path(d) / f).is_file()]
        if missing:
            print(f"gluon_sums: {d} is not a generated kernel's directory (missing {', '.join(missing)})",
                  file=sys.stderr)
            return 2
    if a.per_run != "auto" and not a.per_run.isdigit():
        print(f"gluon_sums: --per-run takes a count >= 0 or auto, not {a.per_run}", file=sys.stderr)
        return 2
    if a.plan_only:
        for d in map(Path, a.dirs):
            g = json.loads((d / "gluon.json").read_text())
            src = (d / "kernel_gluon.py").read_text()
            for r in planned_runs(d, src, with_gaps(src, scopes_of(src, g.get("warp", {}))), g["gluon"]["kernel"]):
                print(f"  {len(r.names)} regions, spills {r.spills}{'' if r.fits else ' (over the loop run)'}: "
                      f"{', '.join(r.names)}")
        return 0
    import torch
    import triton

    if not torch.cuda.is_available():
        print("gluon_sums: needs a CUDA GPU (it times the kernels); none here", file=sys.stderr)
        return 2
    print(f"# bench/gluon_sums.py {' '.join(sys.argv[1:])}, {time.strftime('%Y-%m-%d %H:%M')}, "
          f"{torch.cuda.get_device_name()}, triton {triton.__version__}, torch {torch.__version__}", flush=True)
    out = []
    with tempfile.TemporaryDirectory(prefix="twill-sums-") as work:
        for d in a.dirs:
            out.append(variant(Path(d), a, work))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
