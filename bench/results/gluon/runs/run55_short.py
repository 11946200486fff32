"""Run 55 (session 38): a committed kernel checked on extra problems (``MORE_CHECKS`` set here, not in the kernel
file), as `bench/gluon_gpu.py --one` checks it: ``python run55_short.py LABEL '{"M": 256, ...}' ...``."""
import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))
from profiling.check import output_checks  # noqa: E402


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


d = ROOT / "bench/results/gluon" / sys.argv[1]
meta = json.loads((d / "variant.json").read_text())
kmod = _module(ROOT / meta["kernel_file"], "k")
gmod = _module(d / "kernel_gluon.py", "g")
setattr(kmod, meta["jit"], gmod.kernel)
extra = [json.loads(a) for a in sys.argv[2:]]
kmod.SMALL, kmod.PROBLEM, kmod.MORE_CHECKS = extra[0], extra[-1], extra[1:-1]
checks = output_checks(kmod, float(getattr(kmod, "VALIDATE_TOL", 1e-2)))
for c in checks:
    print(sys.argv[1], c["seed"], c["problem"], "err", [f"{e:.2e}" for e in c["rel_err"]], "nan", c["nan"],
          "repeatable", c["repeatable"], "pass", c["pass"])
print(sys.argv[1], "ALL PASS" if all(c["pass"] for c in checks) else "FAILED")
