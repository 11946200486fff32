"""Re-list run 16's stall records with their branch targets resolved (session 16).

Run 16's captures stored ``nvdisasm -g -c``'s listing with each branch naming its target by label
(`` BRA `(.L_x_6)``) and the labels themselves dropped, so ``profiling.stalls`` found no loop in them and
charged a stall at a loop's top only to instructions before it, never to the previous trip's. This
recompiles each committed kernel offline as the GPU launch specialised it (``twill_g2`` = 1; the GEMM's
``twill_g1`` too: Triton makes an integer argument equal to 1 a constant), lists it with the fixed
``parse_listing`` (labels resolved to offsets) and replaces a record's listing only if both have the same
instruction at every offset with branch targets aside (the samples are untouched). Run from the repository root:

    python bench/results/gluon/stalls-run16/relist.py [--new-lines]
"""
import json
import re
import sys
import tempfile
from pathlib import Path

import triton
from triton.backends.compiler import GPUTarget
from triton.experimental.gluon._runtime import GluonASTSource

from profiling import stalls
from profiling.gluon import load_source

G = Path("bench/results/gluon")
RECORDS = {  # record -> (kernel directory, arguments the launch made constant)
    G / "stalls-run16/fa3.stalls.json.gz": (G / "fa3", ["twill_g2"]),
    G / "stalls-run16/fa_bwd.stalls.json.gz": (G / "runs/run17/fa_bwd-run16", ["twill_g2"]),   # fa_bwd before run 17
    G / "stalls-run16/fa_bwd-one-fence.stalls.json.gz": (G / "runs/run16/fa_bwd-one-fence", ["twill_g2"]),
    G / "stalls-run16/gemm.stalls.json.gz": (G / "gemm", ["twill_g1", "twill_g2"]),
    G / "runs/run16/d/validate-fa3/stalls.json.gz": (G / "fa3", ["twill_g2"]),
}


def cubin(d: Path, ones: list[str]) -> bytes:
    meta = json.loads((d / "gluon.json").read_text())["gluon"]["kernel"]
    sig = dict(meta["signature"])
    consts = {}
    for n in ones:
        sig[n] = "constexpr"
        consts[(list(sig).index(n),)] = 1
    attrs = {(list(sig).index(n),): [["tt.divisibility", 16]] for n in meta.get("divisible", [])}
    with tempfile.TemporaryDirectory() as tmp:
        mod = load_source((d / "kernel_gluon.py").read_text(), tmp, f"relist_{d.name.replace('-', '_')}")
        src = GluonASTSource(fn=getattr(mod, meta["kernel"]), signature=sig, constexprs=consts, attrs=attrs)
        c = triton.compile(src, target=GPUTarget("cuda", 90, 32),
                           options={"num_warps": meta["num_warps"], "maxnreg": meta["maxnreg"]})
    return c.asm["cubin"]


def key(text: str) -> str:
    return re.sub(r"`\(\.L_x_\d+\)|0x[0-9a-f]+$", "T", text) if " BRA " in f" {stalls._strip(text)}" else text


def main() -> int:
    """``--new-lines`` (session 44): a kernel regenerated with lines added (each loop's ``_keep_alive``) compiles to
    the same instructions at the same offsets; its record takes the new source's line of each, the samples kept."""
    bad = 0
    new_lines = "--new-lines" in sys.argv
    for path, (d, ones) in RECORDS.items():
        rec = stalls.read(path)
        new = stalls.sass_lines(cubin(d, ones))
        old = rec["sass"]
        same = len(new) == len(old) and all(o[0] == n[0] and key(o[1]) == key(n[1]) and (new_lines or o[2] == n[2])
                                            for o, n in zip(old, new))
        if new_lines:
            moved = sum(o[2] != n[2] for o, n in zip(old, new)) if same else 0
            print(f"{path}: {'same instructions' if same else 'DIFFERENT instructions'}; {moved} lines moved")
            if same and moved:
                stalls.write(path, dict(rec, sass=[list(x) for x in new],
                                        relisted="session 44: the same instructions, lines of the regenerated source"))
            bad += not same
            continue
        loops = stalls.loops_of(new)
        print(f"{path}: {len(old)} instructions, {'identical' if same else 'DIFFERENT'} but for branch targets; "
              f"{len(loops)} loops found (before: {len(stalls.loops_of([tuple(x) for x in old]))})")
        if not same:
            bad += 1
            continue
        stalls.write(path, dict(rec, sass=[list(x) for x in new], relisted="session 16: branch targets resolved"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
