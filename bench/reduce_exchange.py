"""What a reduction costs when its axis spans several warps: a loop-carried chain ``x = x * 0.5 + sum(x, AXIS) * s``
at several shapes, axes and warp counts, each iteration's cycles read with ``%clock64`` inside the kernel (one CTA an
SM, so the loop's latency, not the SM's throughput), against the II ``twill optimize`` proves for the same loop.

    python bench/reduce_exchange.py --gpu [--out F.json]       # on the GPU machine: the measured cycles
    python bench/reduce_exchange.py --offline [--gpu-json F]   # here: twill's II per config (and the measured beside)

Latest: bench/results/reduce_exchange.txt (the offline table against run 162's measurements).

Triton lowers a reduction whose axis spans W > 1 warps as: each thread's elements, then shuffles across the lanes
along the axis, then each warp's partial through shared memory, a barrier, the partials combined, a barrier and the
result read back (``ReduceOpToLLVM``). The model costs a reduction as its ALU work plus one constant
(``reduce_overhead``), the same at every W; this measures what W costs. AXIS 2 is the chain without the reduction
(``x * 0.5 + s``): the loop's own cost. Imports no solver in --gpu mode.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import triton
import triton.language as tl

ROOT = Path(__file__).resolve().parents[1]
# (R, C, AXIS, warps): 16 x 16 as FLA's solve_tril reduces rows; 64 x 128 as attention's row statistics (axis 1,
# within the warp) and across the rows (axis 0); 1 x 4096 as a layer norm's row; AXIS 2: no reduction
CONFIGS = ([(16, 16, 0, w) for w in (1, 2, 4, 8)] + [(16, 16, 1, w) for w in (1, 4)] + [(16, 16, 2, w) for w in (1, 4)]
           + [(64, 128, a, w) for a in (0, 1) for w in (4, 8)] + [(64, 128, 2, 4)]
           + [(1, 4096, 1, w) for w in (4, 8, 16)] + [(1, 4096, 2, 8)] + [(128, 64, 0, 4)]
           # run 162: the rows a thread holds (1-16 at 4 warps; 32 lanes along the row) at 32 and 128 columns, with and
           # without the reduction; and across the rows at 2-8 warps, 8-64 rows of 128 columns
           + [(r, c, a, 4) for c in (32, 128) for r in (4, 8, 16, 32, 64) for a in (1, 2) if (r, c) != (64, 128)]
           + [(r, 128, 0, w) for r in (8, 16, 32, 64) for w in (2, 4, 8)
              if r >= w and (r, w) not in ((64, 4), (64, 8))])
ITERS = 4096
# run 164: how far other CTAs on the SM hide a reduction chain's latency (a row sum within a warp and across 4 warps,
# a layer norm's row across 8, the chain without a reduction)
OCCUPANCY = [(16, 16, 0, 1), (16, 16, 0, 4), (1, 4096, 1, 8), (32, 128, 1, 4), (64, 128, 2, 4)]


@triton.jit
def reduce_chain(X, Out, Clk, n_iter, R: tl.constexpr, C: tl.constexpr, AXIS: tl.constexpr, SCALE: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    offs = pid * R * C + rows[:, None] * C + cols[None, :]
    x = tl.load(X + offs)
    c0 = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    for _ in range(n_iter):
        if AXIS == 0:
            x = x * 0.5 + tl.sum(x, axis=0)[None, :] * SCALE
        elif AXIS == 1:
            x = x * 0.5 + tl.sum(x, axis=1)[:, None] * SCALE
        else:
            x = x * 0.5 + SCALE
    c1 = tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)
    tl.store(Out + offs, x)
    tl.store(Clk + pid, c1 - c0)


def _scale(r: int, c: int, axis: int) -> float:
    return 0.5 / (r if axis == 0 else c) if axis < 2 else 0.25


def gpu(per_sm: int = 1, configs: list[tuple[int, int, int, int]] = CONFIGS) -> list[dict]:
    """Each config's cycles an iteration with ``per_sm`` CTAs an SM launched (one wave where they fit)."""
    import torch

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    out = []
    for r, c, axis, w in configs:
        n = sms * per_sm
        x = torch.randn(n * r * c, device="cuda")
        y = torch.empty_like(x)
        clk = torch.zeros(n, dtype=torch.int64, device="cuda")
        k = reduce_chain[(n,)](x, y, clk, ITERS, R=r, C=c, AXIS=axis, SCALE=_scale(r, c, axis), num_warps=w)
        per = []
        for _ in range(5):
            reduce_chain[(n,)](x, y, clk, ITERS, R=r, C=c, AXIS=axis, SCALE=_scale(r, c, axis), num_warps=w)
            torch.cuda.synchronize()
            per.append(float(clk.float().median()) / ITERS)
        blocked = [ln.split("=", 1)[1].strip() for ln in k.asm["ttgir"].splitlines() if ln.startswith("#blocked")]
        bars = k.asm["ptx"].count("bar.sync") + k.asm["ptx"].count("barrier.sync")
        row = {"R": r, "C": c, "axis": axis, "warps": w, "ctas_per_sm": per_sm,
               "cycles_per_iteration": round(min(per), 1),
               "runs": [round(p, 1) for p in per], "layouts": blocked, "ptx_barriers": bars}
        print(json.dumps(row), flush=True)
        out.append(row)
    return out


def offline(measured: dict[tuple, float]) -> list[dict]:
    """``twill optimize`` on each config's loop (h200), its II and the reduction's modelled latency."""
    out = []
    for r, c, axis, w in CONFIGS:
        with tempfile.TemporaryDirectory(prefix="twill-reduce-") as tmp:
            cmd = [sys.executable, "-m", "twill", "optimize", str(Path(__file__).resolve()), "--arch", "h200",
                   "--kernel", "reduce_chain", "--num-warps", str(w), "-o", tmp, "--quiet", "--force",
                   "--emit", "triton",
                   "--arg", "X=*fp32", "--arg", "Out=*fp32", "--arg", "Clk=*i64", "--arg", "n_iter=i32",
                   "--const", f"R={r}", "--const", f"C={c}", "--const", f"AXIS={axis}",
                   "--const", f"SCALE={_scale(r, c, axis)}"]
            p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
            if p.returncode:
                print(f"{r}x{c} axis {axis} {w} warps: {p.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
                continue
            sched = json.loads((Path(tmp) / "schedule.json").read_text())
        key = (r, c, axis, w)
        cycles = round(sched["ii"] * sched["time_unit_cycles"], 1)
        got = measured.get(key)
        row = {"R": r, "C": c, "axis": axis, "warps": w, "ii_cycles": cycles, "status": sched["status"],
               "measured": got}
        err = f"{(cycles - got) / got:+7.1%}" if got else ""
        print(f"{r:4d}x{c:<5d} axis {axis} {w:2d} warps: II {cycles:7.1f} cycles ({sched['status']}), measured "
              f"{got if got else float('nan'):7.1f}  {err}", flush=True)
        out.append(row)
    return out


def _measured(path: str, ap: argparse.ArgumentParser) -> dict[tuple, float]:
    """A --gpu run's JSON (a list of rows), by config; one clear error for anything else."""
    try:
        rows = json.loads(Path(path).read_text())
        return {(r["R"], r["C"], r["axis"], r["warps"]): r["cycles_per_iteration"] for r in rows}
    except (OSError, ValueError, TypeError, KeyError) as e:
        ap.error(f"--gpu-json {path}: expected the JSON list a --gpu run writes, found {type(e).__name__}: {e}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", action="store_true", help="measure on this machine's GPU")
    ap.add_argument("--offline", action="store_true", help="twill's II for each config (no GPU)")
    ap.add_argument("--gpu-json", default=None, help="the --gpu run's JSON, printed beside the II")
    ap.add_argument("--ctas-per-sm", default="1", help="comma-separated CTAs an SM to launch (run 164: 1,2,4,8) on "
                    "the configs of OCCUPANCY; 1 alone: every config")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if a.gpu == a.offline:
        ap.error("one of --gpu, --offline")
    if a.gpu:
        counts = [int(k) for k in a.ctas_per_sm.split(",") if k.strip().isdigit() and int(k) > 0]
        if len(counts) != len(a.ctas_per_sm.split(",")):
            ap.error(f"--ctas-per-sm: expected positive integers separated by commas, found {a.ctas_per_sm!r}")
        import torch

        if not torch.cuda.is_available():
            ap.error("--gpu: expected a CUDA device, found none (the offline table: --offline)")
        rows = gpu() if counts == [1] else [row for k in counts for row in gpu(k, OCCUPANCY)]
    else:
        rows = offline(_measured(a.gpu_json, ap) if a.gpu_json else {})
        errs = sorted(abs(r["ii_cycles"] - r["measured"]) / r["measured"]
                      for r in rows if r["measured"] and r["axis"] < 2)
        if errs:
            print(f"reductions: {len(errs)} configs, median |error| {errs[len(errs) // 2]:.1%}, "
                  f"{sum(e <= 0.2 for e in errs)} within 20 %, worst {errs[-1]:.1%}")
    if a.out:
        Path(a.out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
