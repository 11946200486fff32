"""Run 116: generated kernels and Triton's configs of one kernel file timed at several problems (not only PROBLEM),
in one process, each problem's contenders in rotating rounds: how a gap moves with the loop's length.

    PYTHONPATH=. python bench/results/gluon/runs/run116/sizes.py DIR [DIR ...] --problems 'K=1024;K=4096' [--rounds 5]

Each problem is PROBLEM with the given entries replaced. Correctness is bench/gluon_gpu.py's job."""
import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[5]
sys.path.insert(0, str(ROOT))
from bench.gluon_gpu import _module  # noqa: E402


def main() -> int:
    import torch
    import triton
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--problems", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--configs", default="num_stages=2;num_stages=3;num_stages=4")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    dirs = [Path(d) for d in a.dirs]
    meta = json.loads((dirs[0] / "variant.json").read_text())
    kmod = _module(ROOT / meta["kernel_file"], "twill_sizes_kernel")
    triton_fn = getattr(kmod, meta["jit"])
    gens = {d.name: _module(d / "kernel_gluon.py", f"twill_sizes_{i}").kernel for i, d in enumerate(dirs)}
    configs = [{}] + [dict((kv.split("=")[0], int(kv.split("=")[1])) for kv in c.split(",")) for c in a.configs.split(";") if c]
    out = {"kernel_file": meta["kernel_file"], "rows": []}
    for spec in a.problems.split(";"):
        size = dict(kmod.PROBLEM, **{k: int(v) for k, v in (x.split("=") for x in spec.split(","))})
        inp = kmod.make_inputs(**size, seed=13)
        calls = {}
        for name, g in gens.items():
            calls[name] = (lambda g=g: (setattr(kmod, meta["jit"], g), kmod.launch(inp))[1])
        for cfg in configs:
            key = "triton_" + ("default" if not cfg else "_".join(f"{k}{v}" for k, v in cfg.items()))
            calls[key] = (lambda cfg=cfg: (setattr(kmod, meta["jit"], triton_fn), kmod.launch(inp, **cfg))[1])
        ok = {}
        for k, f in calls.items():
            try:
                f()
                torch.cuda.synchronize()
                ok[k] = f
            except Exception as e:  # noqa: BLE001
                print(f"{size} {k}: failed: {type(e).__name__}: {str(e)[:120]}")
        ms = {k: [] for k in ok}
        gms = {k: [] for k in ok}
        labels = list(ok)
        for r in range(a.rounds):
            for k in labels[r % len(labels):] + labels[:r % len(labels)]:
                ms[k].append(triton.testing.do_bench(ok[k], warmup=25, rep=100, return_mode="median"))
                gms[k].append(triton.testing.do_bench_cudagraph(ok[k], rep=100, return_mode="median"))
        fl = kmod.flops(**size)
        row = {"problem": size, "contenders": {k: {"tflops": fl / statistics.median(ms[k]) * 1e-9,
                                                   "graph_tflops": fl / statistics.median(gms[k]) * 1e-9} for k in ok}}
        out["rows"].append(row)
        best = max((v["graph_tflops"] for k, v in row["contenders"].items() if k.startswith("triton_")), default=None)
        print(f"{meta['kernel_file']} {size} ({a.rounds} rounds, medians; launched / graph TFLOP/s, x Triton's best graph):")
        for k, v in row["contenders"].items():
            x = f"  x{v['graph_tflops'] / best:.2f}" if best else ""
            print(f"  {k:28s} {v['tflops']:7.1f} / {v['graph_tflops']:7.1f}{x}")
        del inp
        torch.cuda.empty_cache()
    setattr(kmod, meta["jit"], triton_fn)
    if a.out:
        Path(a.out).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
