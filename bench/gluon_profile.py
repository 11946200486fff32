"""On the GPU: profile twill's generated Gluon kernels per partition with Proton region records (one
region per graph node and per wait in each partition's loop), a few regions per run, and combine the runs.

    python bench/gluon_profile.py DIR [DIR ...] --out OUTDIR [--per-run 4] [--max-overhead 1.05]
                                  [--budget 50] [--timeout 150] [--no-single] [--keep-traces] [--offline]
                                  [--loops-only]

Each DIR holds ``kernel_gluon.py``, ``gluon.json`` and ``variant.json`` (as ``twill optimize`` writes them).
Per DIR, in its own process (a kernel that hangs costs its timeout, not the run):
1. the plain kernel timed (do_bench, median) at the kernel file's ``PROBLEM``;
1b. the loop runs: partition 0's main loop timed whole, then every partition's, no record inside a loop (the cycles
   per iteration at the lowest overhead; ``--loops-only``: these, and one run of an anchor region a partition to count
   their trips);
2. one run timing every region at once (``--no-single`` skips it), for the comparison;
3. runs over disjoint subsets of the regions (``profiling.gluon.plan_runs``: at most ``--per-run``
   regions each, within Proton's buffer: global by default, ``--buffer shared`` where the records fit), each
   traced at ``PROFILE_PROBLEM`` and timed at
   ``PROBLEM``; a run over ``--max-overhead`` is split in two and run again while ``--budget`` seconds last;
4. the plain kernel timed again; cycles per iteration per partition and region, combined over the
   subset runs and compared with the single run; each run's overhead: the instrumented and the plain kernel
   timed alternately (``ADJACENT_PAIRS`` each), the ratio of their medians.
Writes OUTDIR/<label>.json and OUTDIR/summary.json; prints one line per run. ``--offline`` (no GPU) prints
the plan and compiles every run's instrumented kernel for sm_90 instead. Imports no solver.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from profiling.gluon import (H200_SHARED, buffer_for, compile_instrumented, instrument,  # noqa: E402
                             partition_warps_from_llir, records_per_warp, scopes_of, shared_records_per_warp)
from profiling.gluon_profile import GluonProfileOptions, loop_runs, anchors, plan, profile_variant, table  # noqa: E402
from profiling.kernel import kernel_module  # noqa: E402


def _loop_spills(compiled: Any) -> int:
    """Local loads and stores (spills) per iteration summed over the kernel's wgmma loops (SASS)."""
    from codegen.gluon.sass import wgmma_loops

    return sum(lp.spills for lp in wgmma_loops(compiled.asm["cubin"]))


def offline(directory: Path, a: argparse.Namespace) -> dict[str, Any]:
    """No GPU: the plan for an H200, and every run's instrumented source compiled for sm_90."""
    meta = json.loads((directory / "variant.json").read_text())
    gj = json.loads((directory / "gluon.json").read_text())
    source = (directory / "kernel_gluon.py").read_text()
    ks = scopes_of(source, gj.get("warp", {}))
    kmod = kernel_module(str(ROOT / meta["kernel_file"]))
    traced = dict(getattr(kmod, "PROFILE_PROBLEM", None) or getattr(kmod, "SMALL", None) or kmod.PROBLEM)
    it = getattr(kmod, "loop_iterations", None)
    iterations = int(it(**traced)) if callable(it) else 256
    plain = compile_instrumented(source, gj["gluon"]["kernel"])
    ks = ks.with_warps(partition_warps_from_llir(plain.asm["llir"], ks.num_warps))
    used = int(plain.metadata.shared)
    cap = lambda n: shared_records_per_warp(H200_SHARED, used, n)     # noqa: E731
    loops = [("loops" if len(n) > 1 else "loops0", n) for n in loop_runs(ks)]
    runs = loops + ([("run0", anchors(ks))] if a.loops_only else
                    [("single", ks.names())] + [(f"run{i}", r) for i, r in enumerate(plan(ks, iterations, a.per_run, cap))])
    out = []
    for label, names in runs:
        t0 = time.time()
        n = len(ks.sampled(names))
        want = records_per_warp(ks, names, iterations, every=1 if label.startswith("loops") else a.every)
        every = 1 if label.startswith("loops") else a.every
        btype, bsize = buffer_for(ks, names, iterations, cap, a.buffer == "shared" and not label.startswith("loops"), every)
        k = compile_instrumented(instrument(source, ks, names, every=every), gj["gluon"]["kernel"],
                                 sampling=ks.sampling(names), buffer_type=btype, buffer_size=bsize)
        recs = k.asm["ttgir"].count("proton.record start")
        spills = _loop_spills(k)
        out.append({"label": label, "regions": len(names), "sampling": ks.sampling(names), "buffer": btype,
                    "records_per_warp": want, "capacity": cap(n), "record_sites": recs,
                    "loop_spill_instructions": spills, "compile_s": round(time.time() - t0, 1)})
        print(f"{meta['label']} {label}: {len(names)} regions, warps {ks.sampling(names)}, {want} records/warp "
              f"(shared holds {cap(n)}), {btype} buffer, {recs} record sites compiled, {spills} local loads/stores "
              f"in the wgmma loops (plain: {_loop_spills(plain)}) [{out[-1]['compile_s']} s]", flush=True)
    return {"label": meta["label"], "iterations": iterations, "shared_used": used, "runs": out,
            "partitions": [vars(p) for p in ks.partitions]}


def _profile(directory: Path, a: argparse.Namespace) -> dict[str, Any]:
    """Profile one variant directory (runs in its own process)."""
    meta = json.loads((directory / "variant.json").read_text())
    opts = GluonProfileOptions(per_run=a.per_run, max_overhead=a.max_overhead, budget=a.budget, no_single=a.no_single,
                               buffer=a.buffer, keep_traces=Path(a.out) / "traces" if a.keep_traces else None,
                               every=a.every, loops_only=a.loops_only)
    return profile_variant(directory, opts, ROOT / meta["kernel_file"], meta, say=lambda m: print(m, flush=True))


def _child(args: list[str], timeout: float) -> dict[str, Any]:
    t0 = time.time()
    try:
        r = subprocess.run([sys.executable, __file__] + args, capture_output=True, text=True, timeout=timeout,
                           env=dict(os.environ, PYTHONUNBUFFERED="1"))
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return {"error": f"timed out after {timeout:.0f} s (a deadlock or a hang)", "args": args,
                "log": [x for x in out.splitlines() if not x.startswith("{")]}
    log = [x for x in r.stdout.splitlines() if not x.startswith("{")]
    lines = [x for x in r.stdout.splitlines() if x.startswith("{")]
    if r.returncode != 0 or not lines:
        tail = (r.stderr or r.stdout).strip().splitlines()[-6:]
        return {"error": f"exit {r.returncode}: " + " | ".join(tail), "args": args, "log": log}
    res = json.loads(lines[-1])
    res["seconds"], res["log"] = round(time.time() - t0, 1), log
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--out", default="gluon-profile-out", help="directory for <label>.json and summary.json")
    ap.add_argument("--per-run", type=int, default=4, help="regions timed per run (fewer: lower overhead)")
    ap.add_argument("--max-overhead", type=float, default=1.05, help="split a run slower than this x plain")
    ap.add_argument("--budget", type=float, default=50,
                    help="seconds per variant after which no run is split (twice it: no run is made)")
    ap.add_argument("--timeout", type=float, default=150, help="seconds per variant before it is stopped")
    ap.add_argument("--no-single", action="store_true", help="skip the run that times every region at once")
    ap.add_argument("--loops-only", action="store_true",
                    help="the loop run (no record inside a loop) and the run counting its trips, no region profile")
    ap.add_argument("--keep-traces", action="store_true", help="copy each run's chrome trace to OUT/traces")
    ap.add_argument("--buffer", default="global", choices=("global", "shared"),
                    help="Proton's record buffer (default global: the shared one's bookkeeping makes ptxas spill in "
                         "the FA forward's wgmma loops; shared only where a run's records fit)")
    ap.add_argument("--every", type=int, default=1,
                    help="record one tile in EVERY (the others run the plain code, their loops timed); a run of one "
                         "region over --max-overhead is made again recording half as many tiles")
    ap.add_argument("--offline", action="store_true", help="no GPU: print the plan and compile every run for sm_90")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.every < 1:
        ap.error(f"--every: expected a tile count >= 1, found {a.every}")
    if a.one:
        try:
            res = offline(Path(a.one), a) if a.offline else _profile(Path(a.one), a)
        except Exception as e:   # noqa: BLE001 - one line for the parent, whatever failed
            import traceback
            traceback.print_exc()
            print(json.dumps({"error": f"{type(e).__name__}: {e}"[:500]}))
            return 1
        print(json.dumps(res))
        return 0
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    passed = [x for k in ("per_run", "max_overhead", "budget", "buffer", "every")
              for x in (f"--{k.replace('_', '-')}", str(getattr(a, k)))]
    passed += ["--out", str(out)] + [f"--{k.replace('_', '-')}" for k in ("no_single", "keep_traces", "offline",
                                                                           "loops_only")
                                     if getattr(a, k)]
    summary: dict[str, Any] = {"command": " ".join(sys.argv), "date": time.strftime("%Y-%m-%d %H:%M:%S"),
                               "variants": []}
    for d in a.dirs:
        label = Path(d).name
        try:
            label = json.loads((Path(d) / "variant.json").read_text())["label"]
            res = _child(["--one", d] + passed, a.timeout)
        except Exception as e:   # noqa: BLE001 - a broken directory: one line, the next one runs
            res = {"error": f"{type(e).__name__}: {e}"}
        res.setdefault("label", label)
        for line in res.get("log", []):
            print(line, flush=True)
        if "error" in res:
            print(f"{label}: FAILED {res['error']}", flush=True)
        elif not a.offline:
            print(table(res), flush=True)
        (out / f"{label}.json").write_text(json.dumps(res, indent=1) + "\n")
        summary["variants"].append({k: res.get(k) for k in ("label", "error", "plain_ms", "max_overhead_of_runs",
                                                             "all_complete", "seconds")}
                                   | {k: {x: y for x, y in (res.get(k) or {}).items() if x != "run"} for k in ("loop_run", "loop_run_all")})
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
