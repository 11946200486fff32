"""On the GPU: what a tile-sampled profile (``profiling.gluon.instrument(every=K)``) costs a generated Gluon kernel,
taken apart. For one variant directory and a few region sets, at the kernel file's ``PROBLEM``, the plain kernel and
each of these timed alternately with it (``profiling.gluon_profile.adjacent_timings``: the ratio of the medians):

- ``dup``: the recorded partitions' tile work written twice as ``every=K`` writes it, every record removed (no
  Proton): what the second copy of the code costs by itself;
- ``inst K``: the tile-sampled kernel with Proton's hook on, for each K given (a K larger than any program's tiles
  records only program 0's first tile: what records that almost never run cost);
- ``inst 1``: every tile recorded (no second copy).

    python bench/tile_sampling.py DIR --regions p1:sfu1_alpha_s1 [--regions p0:dot0_qk_s0 ...] [--every 4,1000000]

DIR holds ``kernel_gluon.py``, ``gluon.json`` and ``variant.json``. Prints one line per kernel timed. Imports no
solver.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from profiling.gluon import buffer_for, instrument, load_source, scopes_of  # noqa: E402
from profiling.gluon_profile import Variant, adjacent_timings, instrumentation_mode, plain_timing  # noqa: E402
from twill.errors import InputError  # noqa: E402

def main() -> int:
    try:
        return _main()
    except InputError as e:
        print(f"tile_sampling: {e}", file=sys.stderr)
        return 2


def _main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--regions", action="append", required=True, help="comma-separated region names (repeatable)")
    ap.add_argument("--every", default="4,1000000", help="comma-separated K values for the tile-sampled kernels")
    a = ap.parse_args()
    d = Path(a.dir)
    missing = [f for f in ("kernel_gluon.py", "gluon.json", "variant.json") if not (d / f).is_file()]
    if missing:
        print(f"tile_sampling: {d} is not a generated kernel's directory (expected kernel_gluon.py, gluon.json and "
              f"variant.json; missing {', '.join(missing)})", file=sys.stderr)
        return 2
    meta = json.loads((d / "variant.json").read_text())
    try:
        everys = [int(x) for x in a.every.split(",")]
    except ValueError:
        raise InputError("bad --every", expected="comma-separated tile counts like 4,1000000", found=a.every) from None
    ks = scopes_of((d / "kernel_gluon.py").read_text(), json.loads((d / "gluon.json").read_text()).get("warp", {}))
    unknown = [n for regions in a.regions for n in regions.split(",") if n not in ks.by_name]
    if unknown or min(everys) < 1:
        raise InputError("bad --regions or --every", where=str(d), expected="regions of this kernel "
                         f"({', '.join(ks.names()[:4])}, ...) and tile counts >= 1",
                         found=", ".join(unknown) or a.every)
    import torch
    import triton

    if not torch.cuda.is_available():
        print("tile_sampling: needs a CUDA GPU (it times the kernels); none here", file=sys.stderr)
        return 2

    print(f"# bench/tile_sampling.py {' '.join(sys.argv[1:])}, {time.strftime('%Y-%m-%d %H:%M')}, "
          f"{torch.cuda.get_device_name()}, triton {triton.__version__}, torch {torch.__version__}", flush=True)
    with tempfile.TemporaryDirectory(prefix="twill-tile-sampling-") as tmp:
        v = Variant(d, Path(tmp), ROOT / meta["kernel_file"], meta)
        plain_ms, _ = plain_timing(v)
        print(f"{meta['label']}: plain {plain_ms:.4f} ms at {v.timed}", flush=True)
        for i, regions in enumerate(a.regions):
            names = tuple(regions.split(","))
            for every in everys:
                text = instrument(v.source, v.ks, names, every=every)
                if every == everys[0]:
                    dup = re.sub(r"\n *twill_pl\.(enter|exit)_scope\([^)]*\)", "", text)
                    mod = load_source(dup, tmp, f"twill_dup_{i}_{os.getpid()}")
                    t, pl = adjacent_timings(v, mod, None)
                    r = t / pl
                    print(f"  {regions}: dup (every={every}, no records) {t:.4f} ms, x{r:.3f} plain", flush=True)
                btype, bsize = buffer_for(v.ks, names, v.iterations, v.capacity, False, every)
                mode = instrumentation_mode(v.ks.sampling(names), btype, bsize)
                mod = load_source(text, tmp, f"twill_inst_{i}_{every}_{os.getpid()}")
                t, pl = adjacent_timings(v, mod, mode)
                r = t / pl
                print(f"  {regions}: inst every={every} {t:.4f} ms, x{r:.3f} plain", flush=True)
            btype, bsize = buffer_for(v.ks, names, v.iterations, v.capacity, False)
            mod = load_source(instrument(v.source, v.ks, names), tmp, f"twill_inst1_{i}_{os.getpid()}")
            t, pl = adjacent_timings(v, mod, instrumentation_mode(v.ks.sampling(names), btype, bsize))
            r = t / pl
            print(f"  {regions}: inst every=1 {t:.4f} ms, x{r:.3f} plain", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
