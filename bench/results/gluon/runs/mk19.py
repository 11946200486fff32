"""Run 19's variants of the generated pointer GEMM (tests/corpus/pointer_gemm.py): its rings made D deep (the
generator's rule, run 19b, chooses 3), and the consumer's proxy fence after each ring wait left out (the producer's, on the path through registers, kept). Each
variant is checked by the barrier protocol check before it goes to the GPU.

    PYTHONPATH=. python bench/results/gluon/runs/mk19.py
"""
import json
import re
import shutil
import sys
from pathlib import Path

from codegen.gluon.protocol import check_kernel

R = Path(__file__).resolve().parent / "run19"
SRC = R / "pointer_gemm"


def variant(label: str, edit) -> None:
    out = R / label
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(SRC, out)
    text = edit((SRC / "kernel_gluon.py").read_text())
    (out / "kernel_gluon.py").write_text(text)
    meta = json.loads((SRC / "variant.json").read_text())
    meta["label"] = label
    (out / "variant.json").write_text(json.dumps(meta, indent=1) + "\n")
    check(label, out)


def check(label: str, out: Path) -> None:
    text = (out / "kernel_gluon.py").read_text()
    sig = json.loads((out / "gluon.json").read_text())["gluon"]["kernel"]["signature"]
    problems, why = check_kernel(text, sig, 3)
    print(label, "protocol:", problems or "clean", why)
    if problems:
        sys.exit(1)


def deeper(d: int, was: int = 3):
    def edit(t: str) -> str:
        t = re.sub(rf"(_buf = gl\.allocate_shared_memory\(gl\.float16, )\[{was}, ", rf"\g<1>[{d}, ", t)
        t = t.replace(f"[{was}, 1], mbarrier.MBarrierLayout()", f"[{d}, 1], mbarrier.MBarrierLayout()")
        t = t.replace(f"gl.static_range({was})", f"gl.static_range({d})")
        t = re.sub(rf"% {was}\b", f"% {d}", t)
        return re.sub(rf"// {was}\)", f"// {d})", t)
    return edit


if __name__ == "__main__":
    variant("pointer_gemm-d4", deeper(4))
    variant("pointer_gemm-nofence", lambda t: re.sub(r"^ {12}fence_async_shared\(\)\n", "", t, flags=re.M))
