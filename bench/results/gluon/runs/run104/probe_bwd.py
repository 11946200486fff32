import json, sys, time
from pathlib import Path
sys.path.insert(0, "/work/main"); sys.path.insert(0, "/work/main/bench")
import gluon_variants as gv
import codegen.gluon.kernel as gk
from codegen.gluon.generate import compile_offline
from twill.machine.model import load_machine
from twill.pipeline import extract
from twill.schedule.model import Schedule
from twill.validate_gluon import sass_census

d = Path("/work/main/bench/results/gluon/fa_bwd")
meta = json.loads((d / "variant.json").read_text()); gs = json.loads((d / "gluon.json").read_text())
machine = load_machine("h200")
_, kir, _ = extract(str(gv.ROOT / meta["kernel_file"]), machine, gv._specialised(meta["command"]))
out = Path("/tmp/r103/bwd"); out.mkdir(parents=True, exist_ok=True)
for label, ahead, compact in [("base", None, True), ("ahead0", 0, True), ("ahead0_nocompact", 0, False), ("nocompact", None, False)]:
    g = dict(gs)
    if ahead is not None:
        g = json.loads(json.dumps(gs)); g["loads_ahead"] = ahead
    gk.COMPACT_HEADROOM = 48 if compact else -10**6
    t = time.time()
    try:
        k = gv._generate_again(kir, g, meta, machine)
    except Exception as e:
        print(label, "FAILED", type(e).__name__, str(e)[:300]); continue
    c = compile_offline(k, machine)
    from codegen.gluon.sass import wgmma_loops; census = [lp.census() for lp in wgmma_loops(c.asm["cubin"])]
    (out / label).mkdir(exist_ok=True); (out / label / "kernel_gluon.py").write_text(k.source)
    print(label,  "census", census, f"{time.time()-t:.0f}s", flush=True)
