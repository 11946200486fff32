"""Turn the traces of a GPU run (bench/attention.py) into twill.profile/1 files and Perfetto traces.

usage: python bench/make_profiles.py RUN_DIR   (RUN_DIR holds bench.json and <kernel>_<variant>.chrome_trace.gz)
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(run: str) -> int:
    from profiling.profile import make_profile, to_perfetto
    from profiling.replay import replay
    from profiling.trace import load_trace
    from twill.graph.extract import graph_for_file
    from twill.machine.model import load_machine

    d = Path(run)
    bench = json.loads((d / "bench.json").read_text())
    env = bench["env"]
    for key, info in bench["profiles"].items():
        name, variant = key.split("/")
        path = ROOT / f"kernels/{name}.py"
        g, _ = graph_for_file(str(path), load_machine("h200").target)
        ev = load_trace(d / f"{name}_{variant}.chrome_trace.gz")
        prob = info["problem_traced"]
        iters = (prob["N"] // 128) if name == "fa3" else (prob["K"] // 64)
        order = [r for r in info["regions"]]
        rep = replay(ev, order, env["sm_clock_ghz"], expected_iters=iters)
        prof = make_profile(g, rep, arch="h200", gpu=env["gpu"], triton_version=env["triton"],
                            kernel_source_sha256=hashlib.sha256(path.read_bytes()).hexdigest(), problem=prob,
                            launch={"num_warps": 8, "sampled_warps": [0, 4], "buffer": "shared"},
                            overhead={"plain_ms": info["plain_ms"], "instrumented_ms": info["instrumented_ms"],
                                      "ratio": info["overhead"], "problem": info["problem_timed"]},
                            schedule=None if variant == "default" else f"bench/results/schedules/{name}-h200")
        (d / f"profile_{name}_{variant}.json").write_text(json.dumps(prof, indent=1) + "\n")
        (d / f"perfetto_{name}_{variant}.json").write_text(json.dumps(to_perfetto(ev, env["sm_clock_ghz"], 2)))
        it = prof["iteration"]
        print(f"{name}/{variant}: iteration median {it['median_cycles'] if it else None} cycles "
              f"(anchor {it['anchor'] if it else '-'}), overhead x{info['overhead']:.3f}, record overhead "
              f"{prof['record_overhead_cycles']} cycles, lost {prof['lost_records']}")
        for n, s in list(prof["nodes"].items()) + list(prof["waits"].items()):
            print(f"   {n:22s} n={s['count']:6d} median {s['median_cycles']:8.0f} p10 {s['p10_cycles']:7.0f} "
                  f"p90 {s['p90_cycles']:7.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
