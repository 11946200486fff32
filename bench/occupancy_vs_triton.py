"""Offline, no GPU: the CTAs an SM holds of each committed one-partition Gluon kernel (no producer, registers as ptxas
allocates them) against Triton's own compile of the same kernel file at the same specialisation (its TWILL_SPEC's
warps and stages), by ptxas's registers and the shared memory each compiles to.

    python bench/occupancy_vs_triton.py [LABEL ...]

One line per variant: registers and CTAs an SM of each, ``LOWER`` where twill's kernel holds fewer. A one-partition
kernel's schedule holds its loads a stage or more ahead in registers, which Triton's compile of a loop without a
dot does not (run 136: stable-fast's group-norm statistics, 164 registers and one CTA an SM against Triton's 96 and
two, ran x0.73 of Triton; solved in one stage, three CTAs an SM, x0.81).
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from codegen.gluon.generate import ptxas_report  # noqa: E402
from twill.errors import TwillError  # noqa: E402
from twill.gluon_route import ONE_STAGE_TIMED, occupancy  # noqa: E402
from twill.ir.load import load_kernel, source_of  # noqa: E402
from twill.ir.triton_hooks import compile_planned  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402

SHORT = re.compile(r"ptxas (\d+) registers, (\d+) CTA\(s\) an SM against this kernel's")
OCCUPANCY = re.compile(r"occupancy: ptxas (\d+) registers per thread, (\d+) CTA\(s\) of (\d+) threads per SM "
                       r"\((\d+) stages\)")


def one(d: Path) -> str | None:
    """The line of variant directory ``d``, or None where its kernel is not of one partition."""
    gs = json.loads((d / "gluon.json").read_text())
    decisions = ((gs.get("gluon") or {}).get("kernel") or {}).get("decisions") or []
    m = next((OCCUPANCY.match(x) for x in decisions if OCCUPANCY.match(x)), None)
    if m is None:
        return None
    meta = json.loads((d / "variant.json").read_text())
    arch = meta["command"].split("--arch ")[1].split()[0]
    machine = load_machine(arch)
    regs, ctas, stages = int(m.group(1)), int(m.group(2)), int(m.group(4))
    try:
        spec = load_kernel(str(ROOT / meta["kernel_file"]), arch, kernel=meta.get("jit"), sm=machine.sm)
        compiled = compile_planned(source_of(spec), machine.sm, {"num_warps": spec.num_warps,
                                                                 "num_stages": spec.num_stages})
    except TwillError as e:
        return f"{d.name:<40} twill {regs:>3} registers {ctas:>2} CTAs ({stages} stages) | Triton: {str(e).splitlines()[0]}"
    report = ptxas_report(compiled, machine)
    if report is None:
        return f"{d.name:<40} twill {regs:>3} registers {ctas:>2} CTAs ({stages} stages) | Triton: no ptxas report"
    theirs = occupancy(report.registers, spec.num_warps, int(getattr(compiled.metadata, "shared", 0) or 0))
    short = next((SHORT.search(x) for x in decisions if x.startswith(ONE_STAGE_TIMED) and SHORT.search(x)), None)
    beside = (f" | one stage beside it, timed at launch: {short.group(1)} registers {int(short.group(2)):>2} CTAs"
              if short else "")
    lower = ctas < theirs and (short is None or int(short.group(2)) < theirs)
    return (f"{d.name:<40} twill {regs:>3} registers {ctas:>2} CTAs ({stages} stages) | Triton {report.registers:>3} "
            f"registers {theirs:>2} CTAs{beside}" + ("  LOWER" if lower else ""))


def main() -> int:
    base = ROOT / "bench/results/gluon"
    labels = sys.argv[1:] or sorted(p.name for p in base.iterdir() if (p / "variant.json").exists())
    unknown = [x for x in labels if not (base / x / "gluon.json").exists()]
    if unknown:
        print(f"occupancy_vs_triton: no committed variant {', '.join(unknown)} (expected a directory of "
              f"bench/results/gluon with gluon.json)", file=sys.stderr)
        return 2
    lower = total = 0
    for label in labels:
        line = one(base / label)
        if line is None:
            continue
        print(line, flush=True)
        total += 1
        lower += line.endswith("LOWER")
    print(f"{total} one-partition kernels; {lower} hold fewer CTAs an SM than Triton's compile of their kernel file "
          "(where a one-stage kernel is timed beside one at launch, both do)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
