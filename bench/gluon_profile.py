"""On the GPU: profile twill's generated Gluon kernels per partition with Proton region records (one
region per graph node and per wait in each partition's loop), a few regions per run, and combine the runs.

    python bench/gluon_profile.py DIR [DIR ...] --out OUTDIR [--per-run 4] [--max-overhead 1.05]
                                  [--budget 50] [--timeout 150] [--no-single] [--keep-traces] [--offline]

Each DIR holds ``kernel_gluon.py``, ``gluon.json`` and ``variant.json`` (as ``twill optimize`` writes them).
Per DIR, in its own process (a kernel that hangs costs its timeout, not the run):
1. the plain kernel timed (do_bench, median) at the kernel file's ``PROBLEM``;
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
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from profiling.gluon import (H200_SHARED, KernelScopes, buffer_for, compile_instrumented,  # noqa: E402
                             instrument, load_source, partition_warps_from_llir, plan_runs, records_per_warp,
                             scopes_of, shared_records_per_warp)
from profiling.gluon_trace import combine, compare, summarize  # noqa: E402
from profiling.kernel import kernel_module  # noqa: E402
from profiling.run import captured_output, compiled_kernel, proton_drops  # noqa: E402
from profiling.trace import load_trace  # noqa: E402
from twill.errors import InputError  # noqa: E402


def _bench(fn: Any) -> float:
    import triton

    fn()
    return triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")


class Variant:
    """One variant directory loaded on the GPU: its kernel file, generated source, regions, inputs."""

    def __init__(self, directory: Path, work: Path):
        self.dir, self.work = directory, work
        self.meta = json.loads((directory / "variant.json").read_text())
        self.gjson = json.loads((directory / "gluon.json").read_text())
        self.source = (directory / "kernel_gluon.py").read_text()
        self.ks: KernelScopes = scopes_of(self.source, self.gjson.get("warp", {}))
        self.kmod = kernel_module(str(ROOT / self.meta["kernel_file"]))
        self.jit = self.meta["jit"]
        self.timed = dict(getattr(self.kmod, "PROBLEM", {}) or {})
        self.traced = dict(getattr(self.kmod, "PROFILE_PROBLEM", None) or getattr(self.kmod, "SMALL", None)
                           or self.timed)
        it = getattr(self.kmod, "loop_iterations", None)
        self.iterations = int(it(**self.traced)) if callable(it) else 256     # unknown: plan for many
        self.big = self.kmod.make_inputs(**self.timed, seed=13)
        self.small = self.kmod.make_inputs(**self.traced, seed=13)
        self.plain = load_source(self.source, str(work), f"twill_prof_plain_{os.getpid()}")
        self.max_shared = 0
        self.shared_used = 0

    def use(self, mod: Any) -> None:
        setattr(self.kmod, self.jit, mod.kernel)

    def capacity(self, segments: int) -> int:
        return shared_records_per_warp(self.max_shared, self.shared_used, segments)


def plain_timing(v: Variant) -> tuple[float, Any]:
    """Time the plain kernel; read the shared memory it uses and its partitions' warps back from it."""
    import torch
    import triton

    v.use(v.plain)
    ms = _bench(lambda: v.kmod.launch(v.big))
    k = compiled_kernel((getattr(v.plain, v.gjson["gluon"]["kernel"]["kernel"]),))
    dev = torch.cuda.current_device()
    v.max_shared = int(triton.runtime.driver.active.utils.get_device_properties(dev)["max_shared_mem"])
    v.shared_used = int(getattr(k.metadata, "shared", 0)) if k is not None else v.max_shared
    got = partition_warps_from_llir(k.asm.get("llir", ""), v.ks.num_warps) if k is not None else {}
    if got:
        v.ks = v.ks.with_warps(got)
    out = v.kmod.launch(v.small)
    torch.cuda.synchronize()
    return ms, out.clone() if hasattr(out, "clone") else out


def _mode(sampling: str, buffer_type: str, buffer_size: int) -> Any:
    from triton.profiler import mode as pmode

    return pmode.Default(sampling_strategy="selective", sampling_options=sampling, buffer_type=buffer_type,
                         buffer_size=buffer_size)


def plan(ks: KernelScopes, iterations: int, per_run: int, capacity: Any) -> list[tuple[str, ...]]:
    """The subset runs; when one region alone overflows the shared buffer, runs of ``per_run`` regions
    whose records go to a global buffer (``buffer_for`` picks it)."""
    try:
        return [tuple(r) for r in plan_runs(ks, None, per_run, iterations, capacity)]
    except InputError:
        return [tuple(r) for r in plan_runs(ks, None, per_run, iterations, lambda n: 1 << 30)]


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
    runs = [("single", ks.names())] + [(f"run{i}", r) for i, r in enumerate(plan(ks, iterations, a.per_run, cap))]
    out = []
    for label, names in runs:
        t0 = time.time()
        n = len(ks.sampled(names))
        want = records_per_warp(ks, names, iterations)
        btype, bsize = buffer_for(ks, names, iterations, cap, a.buffer == "shared")
        k = compile_instrumented(instrument(source, ks, names), gj["gluon"]["kernel"], sampling=ks.sampling(names),
                                 buffer_type=btype, buffer_size=bsize)
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


def traced_run(v: Variant, names: tuple[str, ...], label: str, reference: Any, keep: Path | None,
               shared: bool = False) -> dict[str, Any]:
    """One instrumented run: trace at the traced problem under a Proton session, summarise; then time
    it at the timed problem with Proton's hook on (no session: no trace)."""
    import torch
    import triton.profiler as proton

    t0 = time.time()
    sampling = v.ks.sampling(names)
    btype, bsize = buffer_for(v.ks, names, v.iterations, v.capacity, shared)
    mode = _mode(sampling, btype, bsize)
    mod = load_source(instrument(v.source, v.ks, names), str(v.work), f"twill_prof_{label}_{os.getpid()}")
    v.use(mod)
    base = v.work / f"{label}"
    with captured_output(str(v.work / f"{label}.log")) as log:
        proton.start(str(base), data="trace", backend="instrumentation", mode=mode)
        try:
            out = v.kmod.launch(v.small)
            torch.cuda.synchronize()
        finally:
            proton.finalize()
    trace = Path(str(base) + ".chrome_trace")
    summary = summarize(load_trace(trace), v.ks, names)
    if keep is not None:
        shutil.copy(trace, keep / f"{v.meta['label']}-{label}.chrome_trace")
    trace.unlink(missing_ok=True)
    diff = float((out.float() - reference.float()).abs().max().item()) if hasattr(out, "float") else None
    ms, plain = adjacent_timings(v, mod, mode)
    return {"label": label, "regions": list(names), "sampling": sampling, "buffer": [btype, bsize],
            "records_per_warp": records_per_warp(v.ks, names, v.iterations), "instrumented_ms": ms,
            "plain_adjacent_ms": plain,
            "output_max_abs_diff": diff, "proton_dropped": proton_drops(log), "summary": summary,
            "seconds": round(time.time() - t0, 1)}


ADJACENT_PAIRS = 3     # instrumented / plain timings alternated per run: the clock drifts over a run (run 5: the
                       # plain FA forward timed 1.716 ms before its runs and 1.939 ms after them)


def adjacent_timings(v: Variant, mod: Any, mode: Any) -> tuple[float, float]:
    """The instrumented kernel (Proton's hook on, no session: no trace) and the plain one timed alternately,
    ``ADJACENT_PAIRS`` times each: the medians, so a run's overhead is read against the plain kernel as the
    GPU runs at that moment."""
    from triton.profiler.hooks.instrumentation import InstrumentationHook

    inst, plain = [], []
    for _ in range(ADJACENT_PAIRS):
        v.use(mod)
        hook = InstrumentationHook(mode)
        hook.activate()
        try:
            inst.append(_bench(lambda: v.kmod.launch(v.big)))
        finally:
            hook.deactivate()
            v.use(v.plain)
        plain.append(_bench(lambda: v.kmod.launch(v.big)))
    return statistics.median(inst), statistics.median(plain)


def subset_runs(v: Variant, a: argparse.Namespace, plain_ms: float, reference: Any, keep: Path | None,
                t_end: float) -> list[dict[str, Any]]:
    """The planned subset runs; a run over the overhead target is split in two and rerun while time lasts."""
    queue = plan(v.ks, v.iterations, a.per_run, v.capacity)
    done: list[dict[str, Any]] = []
    k = 0
    while queue:
        names = queue.pop(0)
        if time.time() > t_end + a.budget:      # twice the budget: the rest is left unmeasured, and said
            print(f"{v.meta['label']}: out of time, {len(queue) + 1} runs not made", flush=True)
            done.extend({"label": f"run{k + i}", "regions": list(r), "error": "not run: out of time"}
                        for i, r in enumerate([names] + queue))
            break
        try:
            r = traced_run(v, names, f"run{k}", reference, keep, a.buffer == "shared")
        except Exception as e:   # noqa: BLE001 - one run lost, not the variant: said, and the next runs
            v.use(v.plain)
            print(f"{v.meta['label']} run{k}: FAILED {type(e).__name__}: {str(e)[:300]}", flush=True)
            done.append({"label": f"run{k}", "regions": list(names), "error": f"{type(e).__name__}: {e}"[:500]})
            k += 1
            continue
        k += 1
        r["overhead"] = r["instrumented_ms"] / r["plain_adjacent_ms"]
        r["overhead_vs_first_plain"] = r["instrumented_ms"] / plain_ms
        print(_run_line(v.meta["label"], r), flush=True)
        if r["overhead"] > a.max_overhead and len(names) > 1 and time.time() < t_end:
            queue[:0] = [names[0::2], names[1::2]]     # each half still spread over the loop
            r["superseded"] = True
        done.append(r)
    return done


def one(directory: Path, a: argparse.Namespace) -> dict[str, Any]:
    """Profile one variant (runs in its own process)."""
    t_end = time.time() + a.budget
    keep = Path(a.out) / "traces" if a.keep_traces else None
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="twill-gluon-profile-") as tmp:
        v = Variant(directory, Path(tmp))
        plain_ms, reference = plain_timing(v)
        print(f"{v.meta['label']}: plain {plain_ms:.4f} ms; {len(v.ks.scopes)} regions in "
              f"{len(v.ks.partitions)} partitions (first warps {[p.first_warp for p in v.ks.partitions]}); "
              f"{v.iterations} iterations traced; {v.capacity(1)} records per warp with one warp sampled",
              flush=True)
        single = None
        if not a.no_single:
            try:
                single = traced_run(v, v.ks.names(), "single", reference, keep, a.buffer == "shared")
                single["overhead"] = single["instrumented_ms"] / single["plain_adjacent_ms"]
                print(_run_line(v.meta["label"], single), flush=True)
            except Exception as e:   # noqa: BLE001 - the comparison is lost, not the subset runs
                v.use(v.plain)
                print(f"{v.meta['label']} single: FAILED {type(e).__name__}: {str(e)[:300]}", flush=True)
        runs = subset_runs(v, a, plain_ms, reference, keep, t_end)
        v.use(v.plain)
        plain_after = _bench(lambda: v.kmod.launch(v.big))
    return report(v, plain_ms, plain_after, single, runs)


def report(v: Variant, plain_ms: float, plain_after: float, single: dict[str, Any] | None,
           runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The variant's JSON: every run, the combination of the subset runs, and its comparison."""
    final = [r for r in runs if not r.get("superseded") and "error" not in r]
    comb = combine([r["summary"] for r in final], [r["label"] for r in final])
    for r in [x for x in runs if "error" not in x] + ([single] if single else []):
        r["overhead"] = round(r["instrumented_ms"] / r["plain_adjacent_ms"], 4)   # the plain kernel timed beside it
    out: dict[str, Any] = {
        "label": v.meta["label"], "kernel_file": v.meta["kernel_file"], "timed_problem": v.timed,
        "traced_problem": v.traced, "iterations": v.iterations, "plain_ms": [plain_ms, plain_after],
        "partitions": [vars(p) for p in v.ks.partitions], "max_shared": v.max_shared, "shared_used": v.shared_used,
        "predicted_cycles_per_iteration": _predicted(v.source, v.gjson),
        "runs": runs, "combined": comb, "single": single,
        "max_overhead_of_runs": max((r["overhead"] for r in final), default=None),
        "failed_runs": [r["label"] for r in runs if "error" in r],
        "unmeasured": [n for n in v.ks.names() if n not in comb["regions"]],
        "all_complete": all(p["complete"] for r in final for p in r["summary"]["partitions"].values())
        and not any(r["proton_dropped"] for r in final),
    }
    if single is not None:
        out["single_vs_combined"] = compare(comb, single["summary"])
    return out


def _predicted(source: str, gjson: dict[str, Any]) -> float | None:
    """The schedule's cycles per iteration, as the generated kernel's docstring states it (else the
    last candidate with the chosen number of sub-tiles in ``gluon.json``)."""
    m = re.search(r"([\d.]+) cycles per iteration predicted", source)
    if m:
        return float(m.group(1))
    g = gjson.get("gluon", {})
    cands = [c for c in g.get("candidates") or [] if c.get("subtiles") == g.get("chosen") and c.get("iteration_cycles")]
    return cands[-1]["iteration_cycles"] if cands else None


def _run_line(label: str, r: dict[str, Any]) -> str:
    parts = ", ".join(f"p{p}: period {s['period_cycles']}, timed {s['timed_cycles_per_iteration']}"
                      f"{'' if s['complete'] else ' INCOMPLETE'}" for p, s in r["summary"]["partitions"].items())
    drop = " RECORDS DROPPED" if r["proton_dropped"] else ""
    return (f"{label} {r['label']}: {len(r['regions'])} regions, warps {r['sampling']}, {r['buffer'][0]} buffer, "
            f"{r['instrumented_ms']:.4f} ms ({r.get('overhead', 0):.3f}x plain){drop}; {parts} "
            f"[{r['seconds']} s]")


def table(res: dict[str, Any]) -> str:
    """Per partition, per region: mean cycles per iteration (combined), and the single run beside it."""
    lines = [f"{res['label']}: plain {res['plain_ms'][0]:.4f}/{res['plain_ms'][1]:.4f} ms, worst run overhead "
             f"{res['max_overhead_of_runs']}, single-run overhead {(res['single'] or {}).get('overhead')}, "
             f"every record kept: {res['all_complete']}; predicted {res['predicted_cycles_per_iteration']} "
             f"cycles/iteration"]
    cmp = res.get("single_vs_combined") or {"regions": {}, "partitions": {}}
    for p, s in res["combined"]["partitions"].items():
        c = cmp["partitions"].get(p, {})
        lines.append(f"  partition {p}: period {s['period_cycles']} (single {c.get('period_single')}), timed "
                     f"{s['timed_cycles_per_iteration']} (net {s['net_timed_cycles_per_iteration']}, single "
                     f"{c.get('timed_single')}, rel {c.get('timed_rel')})")
        for n, r in res["combined"]["regions"].items():
            if str(r["partition"]) == p:
                sr = cmp["regions"].get(n, {})
                lines.append(f"    {n:40} {r['cycles_per_iteration']!s:>9} (net "
                             f"{r['net_cycles_per_iteration']!s:>8}) single {sr.get('single')!s:>9} run {r['run']}")
    return "\n".join(lines)


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
    ap.add_argument("--keep-traces", action="store_true", help="copy each run's chrome trace to OUT/traces")
    ap.add_argument("--buffer", default="global", choices=("global", "shared"),
                    help="Proton's record buffer (default global: the shared one's bookkeeping makes ptxas spill in "
                         "the FA forward's wgmma loops; shared only where a run's records fit)")
    ap.add_argument("--offline", action="store_true", help="no GPU: print the plan and compile every run for sm_90")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        try:
            res = offline(Path(a.one), a) if a.offline else one(Path(a.one), a)
        except Exception as e:   # noqa: BLE001 - one line for the parent, whatever failed
            import traceback
            traceback.print_exc()
            print(json.dumps({"error": f"{type(e).__name__}: {e}"[:500]}))
            return 1
        print(json.dumps(res))
        return 0
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    passed = [x for k in ("per_run", "max_overhead", "budget", "buffer")
              for x in (f"--{k.replace('_', '-')}", str(getattr(a, k)))]
    passed += ["--out", str(out)] + [f"--{k.replace('_', '-')}" for k in ("no_single", "keep_traces", "offline")
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
                                                             "all_complete", "seconds")})
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
