"""Session 71's offline probe (NOTES, "Offline (session 71)"): the committed FA forward with P in half precision, two
ways, compiled for sm_90 and its SASS ops counted against the committed kernel's. Not run on a GPU.

    python bench/results/gluon/runs/run189/half_p.py      (no GPU; writes nothing)

  ex2h-a: P = ex2.approx.f16x2 of the fp16 scores (inline asm), its row sum over P converted back to fp32;
  ex2h-b: the same, the row sum over fp16 values;
  sum16:  P as committed, the row sum over its fp16 copy (HADD2).
"""
from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[5]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
FA3 = ROOT / "bench/results/gluon/fa3"
EX2H = ('gl.inline_asm_elementwise("ex2.approx.f16x2 $0, $1;", "=r,r", [({x}).to(gl.float16)], '
        'dtype=gl.float16, is_pure=True, pack=2)')


def ex2h(src: str, row_sum: str) -> str:
    for t in ("t0", "t1"):
        src = re.sub(rf"p_{t} = gl\.exp2\(qk_38_{t}\)", f"p_{t} = " + EX2H.format(x=f"qk_38_{t}"), src)
        src = re.sub(rf"p_43_{t} = (p_{t}(?:_p1)?)\.to\(gl\.float16\)", rf"p_43_{t} = \1", src)
        src = re.sub(rf"l_ij_{t} = gl\.sum\((p_{t}_p1), axis=1\)", lambda m: f"l_ij_{t} = " + row_sum.format(p=m[1]), src)
    return src


def sum16(src: str) -> str:
    src = src.replace("l_ij_t0 = gl.sum(p_t0_p1, axis=1)", "l_ij_t0 = gl.sum(p_43_t0_p1, axis=1).to(gl.float32)")
    src = re.sub(r"(\n(\s+)p_t0_p1 = p_t0\n)", r"\1\2p_43_t0_p1 = p_43_t0\n", src)
    return src.replace("l_ij_t1 = gl.sum(p_t1_p1, axis=1)", "l_ij_t1 = gl.sum(p_43_t1, axis=1).to(gl.float32)")


def sass_ops(source: str) -> Counter:
    import triton
    from codegen.gluon.generate import compile_offline
    from gluon_variants import regenerated_kernel
    from twill.machine.model import load_machine

    k = dataclasses.replace(regenerated_kernel(FA3), source=source)
    cubin = compile_offline(k, load_machine("h200")).asm["cubin"]
    with tempfile.TemporaryDirectory() as t:
        Path(t, "k.cubin").write_bytes(cubin)
        tool = Path(triton.__file__).parent / "backends/nvidia/bin/cuobjdump"
        sass = subprocess.run([str(tool), "-sass", f"{t}/k.cubin"], capture_output=True, text=True).stdout
    return Counter(re.findall(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+(?:\.[A-Z0-9_]+)*)", sass))


def main() -> int:
    src = (FA3 / "kernel_gluon.py").read_text()
    base = sass_ops(src)
    for name, edited in (("ex2h-a", ex2h(src, "gl.sum({p}.to(gl.float32), axis=1)")),
                         ("ex2h-b", ex2h(src, "gl.sum({p}, axis=1).to(gl.float32)")), ("sum16", sum16(src))):
        ops = sass_ops(edited)
        diff = {o: (base[o], ops[o]) for o in sorted(set(base) | set(ops)) if base[o] != ops[o]}
        print(f"{name}: {sum(base.values())} -> {sum(ops.values())} SASS ops; changed (committed, edit): {diff}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
