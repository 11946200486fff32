"""How evenly a persistent generated kernel's programs share its tiles' work (offline, no GPU).

    python bench/tile_balance.py [DIR ...] [--programs 132] [--sizes 1024 4096 16384] [--heads 128]

For each generated kernel directory (default: the causal attention variant, ``bench/results/gluon/fa_causal``)
the tile order is read from its source (the ``twill_pid<k> = ...`` lines of its first partition, evaluated for
every tile index) and compared with the plain order (axis 0 fastest, forwards on every pass). A tile's work is
its query block's key blocks, ``m + 1`` for causal attention's ``m``-th 128-row block (the blocks before the
diagonal and the diagonal's own); program ``p`` runs tiles ``p, p + P, ...``, and the kernel lasts as long as its
heaviest program: the balance printed is the mean program's work over the heaviest's (1: perfectly even).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from codegen.gluon.kernel import PIDS  # noqa: E402

PLAIN = [f"twill_pid{k} = {PIDS[k]}" for k in (0, 1)]      # the generator's order without serpentine


def pid_lines(source: str, function: str | None = None) -> list[str]:
    """The lines that map ``twill_tile`` to program ids, in order, of partition ``function`` (default: the first)."""
    if function is not None:
        source = source.split(f"def {function}(", 1)[1]
    if "for twill_tile in range(" not in source:
        return []
    body = source.split("for twill_tile in range(", 1)[1].split("\n", 1)[1]
    out = []
    for ln in body.splitlines():
        m = re.match(r"\s+(twill_pid\d = .*)$", ln)
        if not m:
            break
        out.append(m.group(1))
    return out


def order(lines: list[str], g0: int, g1: int) -> list[tuple[int, int]]:
    """(pid0, pid1) of every tile index, as ``lines`` compute them."""
    code = compile("\n".join(lines), "<pids>", "exec")
    out = []
    for t in range(g0 * g1):
        env = {"twill_tile": t, "twill_g0": g0, "twill_g1": g1, "twill_g2": 1}
        exec(code, env)
        out.append((env["twill_pid0"], env.get("twill_pid1", 0)))
    return out


def balance(tiles: list[tuple[int, int]], programs: int) -> float:
    """The mean program's work over the heaviest's, program ``p`` running tiles ``p, p + programs, ...`` and a
    tile's work its axis-0 index plus one (causal attention's key blocks)."""
    work = [sum(tiles[i][0] + 1 for i in range(p, len(tiles), programs)) for p in range(programs)]
    return sum(work) / len(work) / max(work)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="*", default=[str(ROOT / "bench/results/gluon/fa_causal")])
    ap.add_argument("--programs", type=int, default=132, help="one per SM (the H200 has 132)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096, 16384])
    ap.add_argument("--heads", type=int, default=128, help="B * H, the grid's axis 1")
    ap.add_argument("--block", type=int, default=128)
    a = ap.parse_args()
    for d in a.dirs:
        src = Path(d) / "kernel_gluon.py"
        if not src.is_file():
            print(f"tile_balance: expected a generated kernel's directory with kernel_gluon.py, found {d}")
            return 1
        lines = pid_lines(src.read_text())
        if not lines:
            print(f"tile_balance: {src} is not persistent (no twill_pid lines in its tile loop)")
            return 1
        print(f"{d}: {' ; '.join(lines)}")
        for n in a.sizes:
            g0 = n // a.block
            plain, own = balance(order(PLAIN, g0, a.heads), a.programs), balance(order(lines, g0, a.heads), a.programs)
            print(f"  N={n:6d}: {g0} x {a.heads} tiles on {a.programs} programs: plain order {plain:.3f} "
                  f"(heaviest {1 / plain:.2f}x the mean), this kernel's {own:.3f} ({1 / own:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
