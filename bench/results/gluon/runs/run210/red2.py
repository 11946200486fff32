"""Run 210 (session 82, #14): the committed FA backward with its dQ reduction buffer doubled by hand (``twill_red``:
two slots, iteration k's partials in slot k % 2, its barriers per slot), written to DIR/kernel_gluon.py beside a copy of
the variant's gluon.json and variant.json. The question: does consumer 1's wait on ``twill_red_free`` (run 208: 572
cycles an iteration) go, and the kernel with it? Evidence for the generator, not generated code.

    python bench/results/gluon/runs/run210/red2.py OUT_DIR
"""
import re
import shutil
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "fa_bwd"
WAIT = re.compile(r"mbarrier\.wait\(twill_red_(free|ready)\.index\(0\), (.*)\)$")


def parity(e: str) -> str:
    """The wait's iteration expression out of ``(E) & 1`` or ``((E) & 1) ^ 1``."""
    m = re.fullmatch(r"\(\((.*)\) & 1\) \^ 1|\((.*)\) & 1", e)
    assert m, e
    return m.group(1) or m.group(2)


def doubled(text: str) -> str:
    out, k = [], None
    for line in text.splitlines():
        m = WAIT.search(line)
        if m:
            inner = m.group(2)
            free = inner.endswith(" ^ 1")
            k = parity(inner)
            ph = f"((({k}) // 2) & 1){' ^ 1' if free else ''}"
            line = line[:m.start()] + f"mbarrier.wait(twill_red_{m.group(1)}.index(({k}) % 2), {ph})"
        elif "twill_red.slice(" in line and "allocate" not in line:
            assert k is not None, line
            line = line.replace("twill_red.slice(", f"twill_red.index(({k}) % 2).slice(")
        elif re.search(r"mbarrier\.arrive\(twill_red_(free|ready)\.index\(0\)\)", line):
            assert k is not None, line
            line = re.sub(r"(twill_red_(?:free|ready))\.index\(0\)", rf"\1.index(({k}) % 2)", line)
            k = None
        out.append(line)
    t = "\n".join(out) + "\n"
    t = t.replace("twill_red = gl.allocate_shared_memory(gl.float32, [64, 128], gl.PaddedSharedLayout.with_identity_for("
                  "[[128, 4]], [64, 128], [1, 0]))",
                  "twill_red = gl.allocate_shared_memory(gl.float32, [2, 64, 128], gl.PaddedSharedLayout."
                  "with_identity_for([[128, 4]], [64, 128], [1, 0]))")
    for b in ("twill_red_ready", "twill_red_free"):
        t = re.sub(rf"({b} = gl\.allocate_shared_memory\(gl\.int64, )\[1, 1\]", r"\1[2, 1]", t)
        t = re.sub(rf"(for i in gl\.static_range\()1(\):\n\s+mbarrier\.init\({b}\.index\(i\))", r"\g<1>2\2", t)
    assert t.count("[2, 64, 128], gl.PaddedSharedLayout") == 1 and t.count("gl.int64, [2, 1]") >= 2
    return t


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for f in ("gluon.json", "variant.json"):
        shutil.copy(SRC / f, out / f)
    (out / "kernel_gluon.py").write_text(doubled((SRC / "kernel_gluon.py").read_text()))
