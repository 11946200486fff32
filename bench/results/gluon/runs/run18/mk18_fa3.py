"""Run 18's hand variants of the FA forward (session 17): part of the softmax's exp2 on the FMA pipe.

The FA forward's consumers are held by their softmax, and its exp2 phase by the SFU: 64 MUFU.EX2 per thread per
iteration at 16 per SM per cycle is 512 cycles of a sub-partition's SFU for each consumer warp, while its FP32 pipe
issues ~5 instructions per element. FlashAttention-4 computes a share of its exponentials with a polynomial on
the FMA pipe instead; this does the same for 1/8 or 1/4 of the columns of ``exp2(qk * scale - m)``: Cody-Waite with
a round-to-nearest magic number, a degree-4 polynomial for 2^f on [-0.5, 0.5] (relative error 7.3e-6, far under P's
fp16 rounding), the exponent added to the bits. The columns are split along register bits of the wgmma accumulator
(reshape / permute / split: renaming, no data moves).

    python bench/results/gluon/runs/run18/mk18_fa3.py OUT_DIR 8|4
"""
import shutil
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "fa3"

HELPERS = '''

@gluon.jit
def _exp2_poly(x):
    """2^x on the FMA pipe: x = j + f, j the nearest integer, f in [-0.5, 0.5]; 2^f by a degree-4 polynomial."""
    x = gl.maximum(x, -127.0)
    t = x + 12582912.0
    f = x - (t - 12582912.0)
    p = f * 0.009670767933130264 + 0.05587553605437279
    p = p * f + 0.24022211134433746
    p = p * f + 0.6931272745132446
    p = p * f + 1.0
    bits = p.to(gl.int32, bitcast=True) + (t.to(gl.int32, bitcast=True) << 23)
    return bits.to(gl.float32, bitcast=True)


@gluon.jit
def _halves(x, rows: gl.constexpr, width: gl.constexpr):
    return x.reshape([rows, 2, width // 2]).permute((0, 2, 1)).split()


@gluon.jit
def _joined(a, b, rows: gl.constexpr, width: gl.constexpr):
    return gl.join(a, gl.convert_layout(b, a.type.layout)).permute((0, 2, 1)).reshape([rows, width])


@gluon.jit
def _exp2_mixed(x, SHARE: gl.constexpr):
    """exp2 of a [64, 128] accumulator tile: the last 1/SHARE of its columns by _exp2_poly, the rest on the SFU."""
    a, b = _halves(x, 64, 128)
    b1, b2 = _halves(b, 64, 64)
    if SHARE == 8:
        c1, c2 = _halves(b2, 64, 32)
        e2 = _joined(gl.exp2(c1), _exp2_poly(c2), 64, 32)
    else:
        e2 = _exp2_poly(b2)
    return gl.convert_layout(_joined(gl.exp2(a), _joined(gl.exp2(b1), e2, 64, 64), 64, 128), L3)
'''


def make(out: Path, share: int) -> None:
    shutil.copytree(SRC, out, dirs_exist_ok=True)
    path = out / "kernel_gluon.py"
    src = path.read_text()
    anchor = "\n@gluon.jit\ndef consumer_0("
    assert src.count(anchor) == 1
    src = src.replace(anchor, HELPERS + anchor, 1)
    n = 0
    for t in ("t0", "t1"):
        old = f"p_{t} = gl.exp2(qk_38_{t})"
        n += src.count(old)
        src = src.replace(old, f"p_{t} = _exp2_mixed(qk_38_{t}, {share})")
    assert n >= 4, n
    path.write_text(src)


if __name__ == "__main__":
    make(Path(sys.argv[1]), int(sys.argv[2]))
