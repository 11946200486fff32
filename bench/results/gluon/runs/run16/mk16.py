"""Run 16's hand-edited FA backward (from the committed bench/results/gluon/fa_bwd): each consumer stores both
staged operands (dS^T, then P^T for dV) before one shared-memory fence, instead of a fence after each store, so
the dQ wgmma issues after both stores.

    python bench/results/gluon/runs/run16/mk16.py   # writes runs/run16/fa_bwd-one-fence/
"""
import re
import shutil
from pathlib import Path

G = Path(__file__).resolve().parents[2]
src = (G / "runs/run17/fa_bwd-run16" / "kernel_gluon.py").read_text()   # fa_bwd as run 16 measured it
pat = re.compile(r"(?P<i>[ ]+)(?P<s1>dsT_66_st_t(?P<t>\d)\.store\(.*\n)(?P=i)(?P<f1>fence_async_shared\(\).*\n)"
                 r"(?P=i)(?P<mma>tok_dq_69_t(?P=t) = warpgroup_mma\(.*\n)(?P=i)(?P<s2>dv_56_st_t(?P=t)\.store\(.*\n)"
                 r"(?P=i)(?P<f2>fence_async_shared\(\).*\n)")
out, n = pat.subn(lambda m: "".join(m.group("i") + m.group(k) for k in ("s1", "s2", "f2", "mma")), src)
assert n == 6, n
d = Path(__file__).resolve().parent / "fa_bwd-one-fence"
d.mkdir(exist_ok=True)
for f in ("gluon.json", "variant.json"):
    shutil.copy(G / "runs/run17/fa_bwd-run16" / f, d / f)
(d / "kernel_gluon.py").write_text(out)
print(f"{n} store/fence blocks merged -> {d}")
