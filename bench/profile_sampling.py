"""GPU: what a Triton-route region's Proton records cost the kernel, recording every loop iteration against one in K
(#17; ``profiling.unroll.unroll_recording``). Each (regions, K) run is compiled, traced once and timed against the
plain kernel (do_bench medians, the plain kernel timed before and after: their mean); rounds rotate the order.

    python bench/profile_sampling.py kernels/fa3.py --schedule bench/results/schedules/fa3-h200 \\
        --regions sfu0_p --regions all --every 1,2,4 --rounds 2

Prints one line a run: regions, K, instrumented over plain, the iteration (cycles), the region medians (cycles, the
record pair's cost left in: a run of one region has no other to measure it by). The instrumented kernel's output is
checked against the plain kernel's (``profiling.check.rel_err``).
Needs a CUDA GPU; imports no solver.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernel")
    ap.add_argument("--schedule", default=None, help="a twill schedule directory (annotated.ttgir); none: Triton's own")
    ap.add_argument("--arch", default="h200")
    ap.add_argument("--regions", action="append", default=None,
                    help="node ids, comma-separated, or 'all' (every node and wait); repeatable")
    ap.add_argument("--every", default="1,2", help="K values, comma-separated")
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    try:
        ks = [int(k) for k in a.every.split(",")]
    except ValueError:
        ks = []
    if not ks or min(ks) < 1 or a.rounds < 1:
        print(f"profile_sampling: expected --every as positive integers (1,2,4) and --rounds >= 1, found --every "
              f"{a.every} --rounds {a.rounds}", file=sys.stderr)
        return 2
    from twill.errors import TwillError
    try:
        return _measure(a, ks)
    except TwillError as e:
        print(f"profile_sampling: {e}", file=sys.stderr)
        return 2


def _measure(a: argparse.Namespace, ks: list[int]) -> int:
    from codegen.compile import schedule_plan
    from profiling.kernel import ProfileOptions, prepare, traced_problem
    from profiling.replay import replay
    from profiling.run import profile_run, require_gpu
    from profiling.trace import load_trace
    from twill.errors import InputError, TwillError
    from twill.ir.triton_hooks import PassPlan
    from twill.machine.model import load_machine

    if a.schedule and not (Path(a.schedule) / "annotated.ttgir").is_file():
        raise InputError("no schedule there", where=a.schedule, expected="a twill schedule directory (annotated.ttgir)",
                         found="no annotated.ttgir")
    require_gpu()                               # one line without one, before the kernel file makes CUDA inputs
    m = load_machine(a.arch)
    plan = schedule_plan((Path(a.schedule) / "annotated.ttgir").read_text(), m.sm) if a.schedule else PassPlan()
    opts = ProfileOptions(buffer_type="global", buffer_size=1 << 16)
    p = prepare(a.kernel, m, opts, plan, check=False)
    sets = [None if r == "all" else tuple(r.split(",")) for r in (a.regions or ["all"])]
    unknown = sorted({n for s in sets for n in s or () if n not in p.g.ids})
    if unknown:
        raise InputError("no such node", where=a.kernel, expected="node ids of its graph: " + ", ".join(p.g.ids),
                         found=", ".join(unknown))
    if p.big is None:
        raise InputError("kernel file has no timed problem", where=a.kernel, expected="PROBLEM", found="none")
    print(f"# {a.kernel} schedule {a.schedule}: traced {p.traced}, timed {p.timed}")
    for rnd in range(a.rounds):
        order = [(s, k) for s in sets for k in ks]
        for s, k in (order if rnd % 2 == 0 else order[::-1]):
            inputs, iters = traced_problem(p, k)
            with tempfile.TemporaryDirectory(prefix="twill-sampling-") as tmp:
                try:
                    r = profile_run(p.g, lambda: p.mod.launch(inputs), lambda: p.mod.launch(p.big), (p.jit,),
                                    os.path.join(tmp, "w"), schedule=plan, sampling=opts.sampling,
                                    buffer_type=opts.buffer_type, buffer_size=opts.buffer_size,
                                    nodes=s, waits=s is None, every=k)
                except TwillError as e:        # a faulting or wrong instrumented kernel: one line, the next run
                    print(f"round {rnd} regions {'all' if s is None else ','.join(s)} every {k}: {e}", flush=True)
                    continue
                rep = replay(load_trace(r.trace_path), [x.name for x in r.regions], r.sm_clock_ghz,
                             expected_iters=iters, every=k, record_cycles=0)
            lost = rep["lost_records"]
            kept = not lost or lost["records_kept_per_warp"] >= lost["records_expected_per_warp"]
            meds = " ".join(f"{n}={v['median_cycles']:.0f}" for n, v in list(rep["regions"].items())[:4])
            it = (rep["iteration"] or {}).get("median_cycles")
            print(f"round {rnd} regions {'all' if s is None else ','.join(s)} every {k}: "
                  f"x{r.instrumented_ms / r.plain_ms:.4f} ({r.instrumented_ms:.4f} / {r.plain_ms:.4f} ms), "
                  f"iteration {it}, every record kept {kept}, {meds}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
