"""FA forward configurations on the GPU, one batched run: the plain kernel (kernels/fa3.py) at Triton's
best tile configs and the sub-tiled kernel (kernels/fa3_subtiled.py, two Q sub-tiles per CTA, the
structure twill's joint schedule asks for) at 64- and 128-row sub-tiles; correctness on small
inputs (poisoned outputs), then TFLOP/s at B=4, H=32, D=128, N=16384 (fp16, non-causal).

usage: python bench/explore_fa.py [OUT.json]     (GPU; imports no solver)
"""
from __future__ import annotations

import json
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONFIGS = {
    "fa3": [dict(BLOCK_M=128, BLOCK_N=128, num_warps=8, num_stages=s) for s in (2, 3)],
    "fa3_subtiled": [dict(BLOCK_M=128, BLOCK_N=128, num_warps=8, num_stages=s) for s in (2, 3)]
    + [dict(BLOCK_M=256, BLOCK_N=128, num_warps=8, num_stages=s) for s in (2, 3)]
    + [dict(BLOCK_M=256, BLOCK_N=64, num_warps=8, num_stages=s) for s in (2, 3)]
    + [dict(BLOCK_M=256, BLOCK_N=128, num_warps=16, num_stages=2)],
}


def main() -> None:
    import torch
    import triton

    from kernels import fa3, fa3_subtiled

    mods = {"fa3": fa3, "fa3_subtiled": fa3_subtiled}
    out: dict = {"env": {"gpu": torch.cuda.get_device_name(), "triton": triton.__version__, "torch": torch.__version__,
                         "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}, "runs": []}
    B, H, N, D = 4, 32, 16384, 128
    big = fa3.make_inputs(B, H, N, D, seed=0)
    small = fa3.make_inputs(2, 4, 2048, D, seed=1)
    ref = fa3.reference(small)
    for name, cfgs in CONFIGS.items():
        mod = mods[name]
        for cfg in cfgs:
            row = {"kernel": name, **cfg}
            try:
                o = mod.launch(small, **cfg)
                torch.cuda.synchronize()
                err = ((o.float() - ref).norm() / ref.norm()).item()
                row["rel_err"] = err
                row["nan"] = bool(torch.isnan(o).any().item())
                ms = triton.testing.do_bench(lambda: mod.launch(big, **cfg), warmup=50, rep=300)
                row["ms"] = ms
                row["tflops"] = fa3.flops(B, H, N, D) / ms / 1e9
            except Exception as e:       # one config failing must not lose the rest
                row["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
                traceback.print_exc(limit=1)
            out["runs"].append(row)
            print(json.dumps(row), flush=True)
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
