"""Run 114: ring releases by one arrive per warp instead of a partition barrier and thread 0's arrive, by hand on the
committed GEMM and FA forward (and FA backward), through the PTX pass in ``warparrive.py``.

Each variant: the chosen "empty" barriers initialised with W times their count (W = warps of the arriving
partition), every arrive on them with count W; the variant's module installs the PTX pass at import, which turns
each such arrive after its ``bar.sync`` into a lane-0 arrive per warp. Run from the repository root:
``python bench/results/gluon/runs/run114/mk114.py`` (offline: writes the variants, compiles each for sm_90 with the
pass, prints the consumer loops' SASS census and checks the barrier protocol)."""
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[5]
sys.path.insert(0, str(ROOT))
G = ROOT / "bench/results/gluon"
R = Path(__file__).resolve().parent
PASS = (R / "warparrive.py").read_text()

# variant: (committed dir, barriers to release per warp, warps of their arriving partitions, also drop the barriers
# before a clean loop's waits)
VARIANTS = {"gemm-warparrive": ("gemm", ["a_23_empty", "b_empty"], 8, False),
            "gemm-warparrive-waits": ("gemm", ["a_23_empty", "b_empty"], 8, True),
            "fa3-warparrive": ("fa3", ["k_empty", "v_empty"], 4, False),
            "fa3-warparrive-waits": ("fa3", ["k_empty", "v_empty"], 4, True)}


def edit(src: str, bars: list[str], w: int, waits: bool) -> str:
    for b in bars:
        src, n = re.subn(rf"mbarrier\.init\({b}\.index\(i\), count=(\d+)\)",
                         lambda m: f"mbarrier.init({b}.index(i), count={int(m.group(1)) * w})", src)
        assert n == 1, (b, n)
        src, n = re.subn(rf"mbarrier\.arrive\(({b}\.index\([^\n]*?\))(, pred=|\)\n)",
                         lambda m: f"mbarrier.arrive({m.group(1)}, count={w}{m.group(2)}", src)
        assert n >= 1, (b, n)
    entry = "twill_kernel_waits" if waits else "twill_kernel"
    src = re.sub(r"\btwill_kernel\b", entry, src)
    head = "\n# -- run 114: the PTX pass (bench/results/gluon/runs/run114/warparrive.py), installed at import --\n"
    body = PASS.split('"""', 2)[2]
    host = src.index("# -- host side")
    return src[:host] + head + body + f"\ninstall({entry!r}, waits={waits})\n\n\n" + src[host:]


def main() -> None:
    import json
    from codegen.gluon.sass import wgmma_loops
    from profiling.gluon import compile_instrumented
    for name, (base, bars, w, waits) in VARIANTS.items():
        d = R / name
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(G / base, d, ignore=shutil.ignore_patterns("*.html", "annotated.ttgir", "pre_pipeline.ttgir"))
        src = edit((G / base / "kernel_gluon.py").read_text(), bars, w, waits)
        (d / "kernel_gluon.py").write_text(src)
        g = json.loads((d / "gluon.json").read_text())
        kname = g["gluon"]["kernel"] if "gluon" in g else g["kernel"]
        for label, text in (("committed", (G / base / "kernel_gluon.py").read_text()), (name, src)):
            exec(compile(PASS, "warparrive", "exec"), ns := {})
            ns["install"]("twill_kernel_waits" if waits else "twill_kernel", waits=waits) if label != "committed" else None
            k = compile_instrumented(text, kname if label == "committed" or not waits
                                     else dict(kname, kernel="twill_kernel_waits"))
            print(label, "rewritten:", ns["rewrite"](k.asm["ptx"])[1] if label == "committed" else "(in hook)",
                  [lp.census() for lp in wgmma_loops(k.asm["cubin"])])


if __name__ == "__main__":
    main()
