"""Run 24's hand-edited FA backward (from the committed bench/results/gluon/fa_bwd): the partitions' registers
240 / 240 / 24 in place of the generator's 240 / 232 / 32.

The kernel has 12 warps (two consumer warp groups, and the one-warp producer and reducer padded to a third), so
Triton launches it at maxnreg 168: 504 registers per thread across the three groups, which ``setmaxnreg`` moves
between them. The generator gives the producer's group 32 (REDUCER_REGS: the reducer's row of both partials and
its addresses) and the default partition takes 504 - 232 - 32 = 240, so consumer 1 runs at 232. Offline
(ptxas 12.8, sm_90a): at 232 consumer 1's loop has 11 spill instructions, at 240 none; consumer 0's 22 stay (it
runs 3 stages); the producer's and reducer's atomic loops, at 24, gain 6-16 spill instructions each.

    python bench/results/gluon/runs/run24/mk24.py   # writes runs/run24/fa_bwd-regs240/
"""
import json
import shutil
from pathlib import Path

G = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SRC = G / "fa_bwd"
OLD, NEW = "], [4, 1, 1], [232, 32, 32])", "], [4, 1, 1], [240, 24, 24])"

out = HERE / "fa_bwd-regs240"
out.mkdir(exist_ok=True)
src = (SRC / "kernel_gluon.py").read_text()
assert src.count(OLD) == 1, "the committed fa_bwd's register split changed: edit OLD"
(out / "kernel_gluon.py").write_text(src.replace(OLD, NEW))
shutil.copy(SRC / "gluon.json", out / "gluon.json")
meta = json.loads((SRC / "variant.json").read_text())
meta.update(label="fa_bwd-regs240", command="python bench/results/gluon/runs/run24/mk24.py")
(out / "variant.json").write_text(json.dumps(meta, indent=1) + "\n")
print(f"wrote {out}")
