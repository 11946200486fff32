"""Check the figures the README quotes against the program: run the README's commands (offline, CPU
only) and compare every II, I, L, group and partition count it states with what they print and write;
figures measured elsewhere (solve times, GPU runs) are checked against the committed results file the
README cites for them.

    python bench/readme_figures.py          # one line per figure, exit 1 if any disagrees

``tests/unit/test_readme.py`` runs the same checks.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from twill.cli import main as twill  # noqa: E402

# The README's commands (each as the README writes it), run once each with -o into a temp folder.
COMMANDS = {
    "main": "optimize kernels/fa3.py --arch h100",
    "main-swp": "optimize kernels/fa3.py --arch h100 --swp-only",
    "main-free": "optimize kernels/fa3.py --arch h100 --no-realisability",
    "pingpong": "optimize kernels/fa3_subtiled.py --arch h200 --num-warps 4 --warp-groups 2 --no-realisability",
    "pingpong-swp": "optimize kernels/fa3_subtiled.py --arch h200 --num-warps 4 --warp-groups 2 --no-realisability "
                    "--swp-only",
    "fa4": "optimize kernels/fa3_subtiled.py --arch b200 --warp-groups 3 --no-realisability",
    "gemm": "optimize kernels/gemm.py --arch h100",
}


class Runs:
    """Each README command run once (lazily), its schedule.json and its printed output."""

    def __init__(self, out: Path) -> None:
        self.out, self.done = out, {}

    def __call__(self, name: str) -> tuple[dict[str, Any], str]:
        if name not in self.done:
            buf = io.StringIO()
            argv = COMMANDS[name].split() + ["-o", str(self.out / name), "--quiet"]
            cwd = os.getcwd()
            os.chdir(ROOT)
            try:
                with contextlib.redirect_stdout(buf):
                    rc = twill(argv)
            finally:
                os.chdir(cwd)
            if rc != 0:
                raise RuntimeError(f"twill {COMMANDS[name]} exited {rc}")
            self.done[name] = (json.loads((self.out / name / "schedule.json").read_text()), buf.getvalue())
        return self.done[name]


def _sched(runs: Runs, name: str) -> dict[str, Any]:
    return runs(name)[0]


def _gluon(runs: Runs, name: str) -> dict[str, Any]:
    runs(name)
    return json.loads((runs.out / name / "gluon.json").read_text())


def _failed_status() -> str:
    """The status line's words for an optimal modulo schedule kept after a joint search timed out."""
    from twill.schedule.model import Schedule
    from twill.schedule.text import status_text

    s = Schedule(ii=2, length=2, start=(("a", 0),), status="optimal", lower_bound=2)
    return status_text(s.with_extra(joint={"status": "timeout", "summary": "..."}))


# (what, the README's words with the figures as groups, the program's figures in the same order)
FIGURES: list[tuple[str, str, Callable[[Runs], tuple[Any, ...]]]] = [
    ("machine optimum and what this Triton compiles (main job)",
     r"FA3's pipeline at II = (\d+) units\) and the best modulo schedule this Triton compiles\s+\(II = (\d+)\)",
     lambda r: (_sched(r, "main-swp")["realisability"]["unconstrained"]["ii"], _sched(r, "main-swp")["ii"])),
    ("the main job's joint schedule",
     r"the main job emits its joint schedule, I = (\d+)",
     lambda r: (_sched(r, "main")["ii"],)),
    ("plain FA forward: warp-aware optimum, without the stage constraint, modulo II",
     r"warp-aware optimum is I = (\d+)\s+units \((\d+) without Triton 3\.6's stage constraint\) against the modulo "
     r"II = (\d+): one (\d+)-warp compute\s+group",
     lambda r: (_sched(r, "main")["ii"], _sched(r, "main-free")["ii"], _sched(r, "main-swp")["realisability"]
                ["unconstrained"]["ii"], _sched(r, "main")["warp_groups"]["warps_per_group"])),
    ("the plain FA forward has one compute group and the sub-tiled one two",
     r"so the plain FA forward has (one) compute group and the sub-tiled one (two)",
     lambda r: ({1: "one"}.get(_sched(r, "main")["warp_groups"]["compute"]),
                {2: "two"}.get(_sched(r, "pingpong")["warp_groups"]["compute"]))),
    ("the sub-tiled kernel reaches the modulo II (ping-pong)",
     r"the sub-tiled kernel\s+(reaches) the modulo II with FA3's ping-pong",
     lambda r: ("reaches" if _sched(r, "pingpong")["ii"] == _sched(r, "pingpong-swp")["ii"] else "does not reach",)),
    ("FA4's strategy: partitions compiled offline",
     r"a correction group, (five) partitions compiled offline",
     lambda r: ({5: "five"}.get(len(_sched(r, "fa4")["warp_specialization"]["partitions"]["roles"]))
                if _sched(r, "fa4")["warp_specialization"]["checked"] else "not compiled",)),
    ("regen's line for the GEMM on h100",
     r"solved   gemm\.py::_gemm \[h100\]  II=(\d+) L=(\d+) (optimal)",
     lambda r: (_sched(r, "gemm")["ii"], _sched(r, "gemm")["length"], _sched(r, "gemm")["status"])),
    ("the --check example's current II and L for the GEMM on h100",
     r"CHANGED gemm\.py::_gemm \[h100\]: II=(\d+) L=(\d+) optimal\n    II: \d+ -> (\d+)",
     lambda r: (_sched(r, "gemm")["ii"], _sched(r, "gemm")["length"], _sched(r, "gemm")["ii"])),
    ("the main job's Gluon kernel",
     r"`gluon kernel: (\d+) row sub-tile\(s\), I=(\d+) L=(\d+) \((\w+)\), (\d+) cycles per iteration\s+predicted`",
     lambda r: (_gluon(r, "main")["row_split"], _gluon(r, "main")["ii"], _gluon(r, "main")["length"],
                _gluon(r, "main")["status"], round(_gluon(r, "main")["ii"] * _gluon(r, "main")["normalization"]["scale"]))),
    ("the printed status of a joint search that found nothing",
     r"(status = optimal as a\s+modulo schedule only, no warp assignment \(joint search: timeout\))",
     lambda r: (f"status = {_failed_status()}",)),
]

SOLVE_TIMES = "bench/results/solve_times.txt"
WS_LOG = "bench/results/ws/ws-log.txt"
NOTES = "bench/results/NOTES.md"
GLUON_RUN = "bench/results/gluon/runs/run9/run9.log"
RUN189_VS = "bench/results/gluon/runs/run189/out/run189b.log"   # the latest head to head (session 71)
GLUON_BWD_RUN = "bench/results/gluon/runs/run6.log"


def _vs_rows(label: str, figures: str) -> str:
    """The words of ``bench/gluon_vs.py``'s log for contender ``label`` in the FA forward's three problems."""
    return "(?s)" + ".*?".join(rf"kernels/fa3\.py \{{'B': 4, 'H': 32, 'N': {n}, 'D': 128\}}[^\n]*\n(?:  [^\n]*\n)*?"
                               rf"  {re.escape(label)}\s+{figures}" for n in (1024, 4096, 16384))


# (what, the README's words, the results file, its words; the figures of both, in order, must agree)
CITED: list[tuple[str, str, str, str]] = [
    ("the FA forward's cycles and clock read inside the kernel (run 117)",
     r"at 16k it takes (\d+) cycles an iteration, its profiled steady period, at (\d\.\d+) GHz",
     "bench/results/gluon/clock_probe.txt", r"fa3 N=16384: (\d+) cycles an iteration at (\d\.\d+) GHz"),
    ("solve times of the three joint cases (median of five)",
     r"Hopper FA forward (\d\.\d+) s, Blackwell FA forward (\d\.\d+) s \((\d\.\d+) s in a\s+cold process",
     SOLVE_TIMES, r"Hopper FA fwd (\d\.\d+) s <= 2\.8 s, Blackwell FA fwd\s+#\s+(\d\.\d+) s <= 1\.9 s \((\d\.\d+) s cold\)"),
    ("the main job end to end",
     r"`twill optimize kernels/fa3\.py --arch h100` (\d\.\d+) s end to end",
     SOLVE_TIMES, r"Main job end to end: twill optimize kernels/fa3\.py --arch h100, [\d.]+ s -> (\d\.\d+) s wall"),
    ("the paper's unsatisfiable Blackwell modifications",
     r"Not sub-tiled: (\d+) -> (\d+), optimal in\s+(\d+) s; one compute group: (\d+) -> (\d+), feasible \(I >= (\d+) "
     r"proved\) when the (\d+) s budget ran out; no\s+cross-warp communication: (\d+) -> (\d+), feasible \(I >= (\d+) proved\)",
     SOLVE_TIMES, r"not sub-tiled, (\d+) -> (\d+), optimal in (\d+) s; one\s+#\s+compute group, (\d+) -> (\d+) feasible "
     r"\(I >= (\d+) proved\) when the (\d+) s budget ran out; no cross-warp\s+#\s+communication, (\d+) -> (\d+) feasible "
     r"\(I >= (\d+) proved\)"),
    ("the ping-pong on the H200 against Triton's default",
     r"runs the FA forward at ~(\d+) TFLOP/s at N = 16k\s+against Triton's default \d+-(\d+)",
     WS_LOG, r"(?:twill ws \(repeat\)|fa3 Triton default)\s+(\d+)\.\d TFLOP/s"),
    ("twill's Gluon FA forward on the H200 (run 9, head to head)",
     r"twill's Gluon kernel from `kernels/fa3\.py` \(2 sub-tiles, I=412, persistent\) \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / "
     r"([\d.]+) \| ([\d.]+) / ([\d.]+) \|",
     GLUON_RUN, _vs_rows("fa3-no-tc-order", r"([\d.]+) launched\s+([\d.]+) graph")),
    ("twill's Gluon FA forward against cuDNN, per-round ratios (run 9)",
     r"persistent\) \|[^\n]*\| ([\d.]+) / ([\d.]+) / ([\d.]+) \|\n",
     GLUON_RUN, _vs_rows("fa3-no-tc-order", r"[\d.]+ launched\s+[\d.]+ graph\s+x([\d.]+) launched")),
    ("the pointer-loaded GEMM's generated kernel on the H200 (run 19b)",
     r"`tests/corpus/pointer_gemm\.py`: correct on both paths on the H200, ([\d.]+) TFLOP/s at 4096\^3, x([\d.]+) cuBLAS",
     "bench/results/gluon/runs/run19/b/run19b.log", r"  pointer_gemm\s+([\d.]+) launched\s+[\d.]+ graph\s+x([\d.]+) launched"),
    ("the causal FA forward's generated kernel on the H200 (run 21a, head to head)",
     r"correct; ([\d.]+) / ([\d.]+) / ([\d.]+) TFLOP/s launched at N=1k /\s+4k / 16k \(([\d.]+) / ([\d.]+) / ([\d.]+) from",
     "bench/results/gluon/runs/run21/a/run21a.log",
     r"N': 1024[^\n]*\n(?:[^\n]*\n)*?  fa_causal\s+([\d.]+) launched\s+([\d.]+) graph[^\n]*\n(?:[^\n]*\n)*?[^\n]*N': 4096[^\n]*\n"
     r"(?:[^\n]*\n)*?  fa_causal\s+([\d.]+) launched\s+([\d.]+) graph[^\n]*\n(?:[^\n]*\n)*?[^\n]*N': 16384[^\n]*\n"
     r"(?:[^\n]*\n)*?  fa_causal\s+([\d.]+) launched\s+([\d.]+) graph"),
    ("the peeled-K GEMM's generated kernel on the H200 (run 21a)",
     r"`tests/corpus/tail_loop_gemm\.py`\) is correct, ([\d.]+) TFLOP/s at 4096\^3", "bench/results/gluon/runs/run21/a/run21a.log",
     r"tail_gemm: PASS [^\n]* 4096:([\d.]+)/"),
    ("Triton's default in the Gluon run",
     r"\| Triton's default \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \|",
     GLUON_RUN, _vs_rows("triton_default", r"([\d.]+) launched\s+([\d.]+) graph")),
    ("cuDNN in the Gluon run",
     r"\| cuDNN SDPA \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \|",
     GLUON_RUN, _vs_rows("sdpa_cudnn", r"([\d.]+) launched\s+([\d.]+) graph")),
    ("the FA forward against cuDNN in run 189",
     r"\| FA forward, twill's Gluon kernel from `kernels/fa3\.py` \(x cuDNN\) \| " + " \\| ".join(
         [r"([\d.]+) / ([\d.]+) \(x([\d.]+) / x([\d.]+)\)"] * 3),
     RUN189_VS, _vs_rows("fa3", r"([\d.]+) launched\s+([\d.]+) graph\s+x([\d.]+) launched, x([\d.]+) graph")),
    ("cuDNN in run 189", r"\| cuDNN SDPA, same rounds \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \|",
     RUN189_VS, _vs_rows("sdpa_cudnn", r"([\d.]+) launched\s+([\d.]+) graph")),
    ("Triton's default in run 189",
     r"\| Triton's default, same rounds \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \|",
     RUN189_VS, _vs_rows("triton_default", r"([\d.]+) launched\s+([\d.]+) graph")),
    ("the FA backward in run 189",
     r"\| FA backward, twill's Gluon kernel from `kernels/fa_bwd\.py` \| ([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \| "
     r"([\d.]+) / ([\d.]+) \|", "bench/results/gluon/runs/run189/out/run189c.log",
     r"fa_bwd: PASS [^\n]* 1024:([\d.]+)/([\d.]+)g/\d+us, 4096:([\d.]+)/([\d.]+)g/\d+us, 16384:([\d.]+)/([\d.]+)g"),
    ("Triton's best FA backward configuration in run 189",
     r"\| Triton's best configuration of `kernels/fa_bwd\.py` \(num_stages 3\) \| ([\d.]+) / ([\d.]+) \| "
     r"([\d.]+) / ([\d.]+) \| ([\d.]+) / ([\d.]+) \|", "bench/results/gluon/runs/run189/out/run189c.log",
     "(?s)" + ".*?".join(rf"N': {n}, 'D': 128}}: [^\n]*triton_num_stages3 ([\d.]+), triton_num_stages3_graph ([\d.]+)"
                         for n in (1024, 4096, 16384))),
    ("twill's Gluon GEMM against cuBLAS (run 189)",
     r"GEMM 4096\^3\s+\(`kernels/gemm\.py`, 7 rounds\): ([\d.]+) / ([\d.]+) against cuBLAS ([\d.]+) / ([\d.]+), "
     r"x([\d.]+) launched / x([\d.]+) graph by the\s+per-round ratios \(Triton's default ([\d.]+) / ([\d.]+)\)",
     RUN189_VS, r"(?s)kernels/gemm\.py.*?\n  gemm\s+([\d.]+) launched\s+([\d.]+) graph\s+x([\d.]+) launched, "
     r"x([\d.]+) graph.*?triton_default\s+([\d.]+) launched\s+([\d.]+) graph.*?cublas\s+([\d.]+) launched\s+([\d.]+) graph"),
    ("twill's Gluon GEMM against cuBLAS (run 9)",
     r"GEMM\s+4096\^3: ([\d.]+) / ([\d.]+) against cuBLAS ([\d.]+) / ([\d.]+) \(([\d.]+) / ([\d.]+) by the per-round "
     r"ratios; Triton's default\s+([\d.]+)\)",
     GLUON_RUN, r"(?s)kernels/gemm\.py.*?\n  gemm\s+([\d.]+) launched\s+([\d.]+) graph\s+x([\d.]+) launched, x([\d.]+) "
     r"graph.*?triton_default\s+([\d.]+) launched.*?cublas\s+([\d.]+) launched\s+([\d.]+) graph"),
    ("twill's Gluon FA backward on the H200",
     r"FA backward \(run 15, 1k / 4k / 16k\): ([\d.]+) / ([\d.]+) / ([\d.]+) for the two-consumer kernel",
     "bench/results/gluon/runs/run15/a/run15a.log", "(?s)" + ".*?".join(
         rf"N': {n}[^\n]*\n(?:  [^\n]*\n)*?  fa_bwd\s+([\d.]+) launched" for n in (1024, 4096, 16384))),
    ("run 14's FA backward in run 15's rounds",
     r"against ([\d.]+) / ([\d.]+) / ([\d.]+)\s+for run 14's in the same rounds",
     "bench/results/gluon/runs/run15/a/run15a.log", "(?s)" + ".*?".join(
         rf"N': {n}[^\n]*\n(?:  [^\n]*\n)*?  fa_bwd-run14\s+([\d.]+) launched" for n in (1024, 4096, 16384))),
    ("the generated FA backward with its dQ reducer (run 17)",
     r"ran the generated kernel at\s+([\d.]+) / ([\d.]+) / ([\d.]+) against run 16's ([\d.]+) / ([\d.]+) / ([\d.]+) in",
     "bench/results/gluon/runs/run17/b/run17b.log", "(?s)" + ".*?".join(
         rf"N': {n}[^\n]*\n  fa_bwd\s+([\d.]+) launched[^\n]*\n  fa_bwd-run16\s+([\d.]+) launched"
         for n in (1024, 4096, 16384))),
    ("Triton's best FA backward configuration in run 17",
     r"configuration there \(([\d.]+) at 1k, ([\d.]+) at 4k\)",
     "bench/results/gluon/runs/run17/b/run17b.log",
     r"(?s)N': 1024.*?triton_num_stages3 ([\d.]+),.*?N': 4096.*?triton_num_stages3 ([\d.]+),"),
    ("the generated FA backward with the producer's share of the reduction (run 18)",
     r"the generated kernel ran ([\d.]+) / ([\d.]+) / ([\d.]+) against run 17's ([\d.]+) / ([\d.]+) / ([\d.]+) in",
     "bench/results/gluon/runs/run18/e/run18e.log", "(?s)" + ".*?".join(
         rf"N': {n}[^\n]*\n  fa_bwd\s+([\d.]+) launched[^\n]*\n  fa_bwd-run17\s+([\d.]+) launched"
         for n in (1024, 4096, 16384))),
    ("Triton's best FA backward configuration in run 18",
     r"configuration there \(([\d.]+) at 1k, ([\d.]+) at 4k\)\. Measured",
     "bench/results/gluon/runs/run18/e/run18e.log",
     r"(?s)N': 1024.*?triton_num_stages3 ([\d.]+),.*?N': 4096.*?triton_num_stages3 ([\d.]+),"),
    ("the FA backward's sampled time the model does not price (run 16)",
     r"critical consumer spends (\d+) of its (\d+) cycles per iteration on what",
     "bench/results/gluon/stalls-run16/validate-fa_bwd/validation.json",
     r"(\d+) of its (\d+) cycles per iteration wait on what the model"),
    ("the FA forward against cuDNN at 1k in run 16's rounds",
     r"run 16, `runs/run16/e/`: ([\d.]+)x launched, ([\d.]+)x graph, and ([\d.]+)x / ([\d.]+)x at 4k / 16k",
     "bench/results/gluon/runs/run16/e/run16e.log",
     r"(?s)N': 1024.*?\n  fa3\s+[\d.]+ launched\s+[\d.]+ graph\s+x([\d.]+) launched, x([\d.]+) graph.*?N': 4096.*?\n  fa3"
     r"\s+[\d.]+ launched\s+[\d.]+ graph\s+x([\d.]+) launched.*?N': 16384.*?\n  fa3\s+[\d.]+ launched\s+[\d.]+ graph"
     r"\s+x([\d.]+) launched"),
    ("Triton's best FA backward configuration",
     r"Triton's best configuration reached ([\d.]+) at 16k in run 6",
     GLUON_BWD_RUN, r"(?s)N': 16384.*?triton_num_stages3 ([\d.]+),"),
    ("one compute partition on sm_90",
     r"Triton 3\.6 compiled it with wrong results\s+through its pipeliner and at (0\.\d+)x without",
     NOTES, r"\((0\.\d+)x; predicted"),
    ("the timed replay of the generated kernels (bench/gluon_replay.py)",
     r"(?s)FA forward replays at (\d+) cycles per iteration.*?Proton measured per partition \(run 7.*?at (\d+) against "
     r"(\d+) measured.*?GEMM (\d+) against (\d+)\);\s+matching it would take wgmmas (\d\.\d+)x slower.*?\(GEMM "
     r"(\d\.\d+)x\)\. The FA backward replays\s+at (\d+) against (\d+)",
     "bench/results/gluon/replay.txt", r"(?m)^\w+ \| (\d+) \| (\d+) \| (\d+) / (\d+) \| (\d+) .*?\| ([\d.]+)$"),
    ("the calibrated route's FA forward against the default (run 12)",
     r"measured it \*\*6 % slower\*\* than the default \(run 12: ([\d.]+) against ([\d.]+) TFLOP/s at 16k\)",
     "bench/results/gluon/runs/run12/run12a.log",
     r"(?s)N': 16384.*?\n  fa3\s+([\d.]+) launched.*?\n  fa3-calibrated\s+([\d.]+) launched"),
    ("the calibrated kernel's period and the held-out predictions with run 12 (bench/gluon_calibrate.py)",
     r"(?s)its period\s+at (\d+) cycles per iteration \(([+-][\d.]+) % for the prediction\).*?the calibration predicts "
     r"the\s+calibrated kernel held out at ([+-][\d.]+) % \(each FA forward of the default order within ([\d.]+) %, the "
     r"GEMM\s+within ([\d.]+) %;",
     "bench/results/gluon/calibration.txt", r"(?m)^fa3-calibrated-run12 \| (\d+) \| \d+ \(([+-][\d.]+)%\) \| \d+ \| "
     r"\d+ \(([+-][\d.]+)%\)|^fa3-run23 \| \d+ \| \d+ \([+-][\d.]+%\) \| \d+ \| \d+ \(\+([\d.]+)%\)|"
     r"^gemm-run7 \| \d+ \| \d+ \([+-][\d.]+%\) \| \d+ \| \d+ \(-([\d.]+)%\)"),
    ("twill validate's steady periods and held-out calibrated replays on the H200 (run 23a, the FA forward)",
     r"the FA forward \(N = 4k\) ([\d.]+) against 2045 \(the replay ([\d.]+), the held-out\s+calibrated replay ([\d.]+):",
     "bench/results/gluon/runs/run23/offline-fa3/validation.json",
     r'"measured_iteration_cycles": ([\d.]+),|"replayed_iteration_cycles": ([\d.]+),|"calibrated_iteration_cycles": ([\d.]+),'),
    ("twill validate's steady period of causal attention (run 23c); the GEMM's (run 23a log)",
     r"causal attention \(N = 4k\) ([\d.]+) against 2045 \(held out ([\d.]+):",
     "bench/results/gluon/runs/run23/offline-causal/validation.json",
     r'"measured_iteration_cycles": ([\d.]+),|"calibrated_iteration_cycles": ([\d.]+),'),
    ("the GEMM's steady period (run 23a)",
     r"the GEMM ([\d.]+)\s+against the schedule's 1024 \(([+-][\d.]+) %\)",
     "bench/results/gluon/runs/run23/a/run23a.log",
     r"predicted 1024\.0 cycles \(replayed 1024\.0\), measured ([\d.]+) \(([+-][\d.]+)%\)"),
    ("the calibrated replay, one profile left out (bench/gluon_calibrate.py)",
     r"(?s)run 11: (\d+) against (\d+), ([+-][\d.]+) %; run 23: (\d+) against (\d+), ([+-][\d.]+) %; the\s+schedule says "
     r"(\d+), ([+-][\d.]+) % and ([+-][\d.]+) %\), the FA forward with turns (\d+) against (\d+) \(([+-][\d.]+) %\), the "
     r"GEMM within [\d.]+ %\s+\((\d+) / (\d+)\), and causal attention \(run 23, N = 4k\) at (\d+) against (\d+) "
     r"\(([+-][\d.]+) %\)",
     "bench/results/gluon/calibration.txt", r"(?m)^[\w-]+ \| (\d+) \| (\d+) \(([+-][\d.]+)%\) \| \d+ \| "
     r"(?:(\d+) \(([+-][\d.]+)%\))?"),
]


def check_figures(readme: str, runs: Runs) -> list[tuple[str, bool, str]]:
    out = []
    for what, words, program in FIGURES:
        m = re.search(words, readme)
        if m is None:
            out.append((what, False, f"the README no longer says /{words}/: update this check with it"))
            continue
        said = tuple(" ".join(g.split()) for g in m.groups())      # the README wraps its lines
        got = tuple(str(x) for x in program(runs))
        out.append((what, said == got, f"README {', '.join(said)}; program {', '.join(got)}"))
    return out


def check_cited(readme: str) -> list[tuple[str, bool, str]]:
    out = []
    for what, words, path, theirs in CITED:
        m = re.search(words, readme)
        text = (ROOT / path).read_text()
        if m is None:
            out.append((what, False, f"the README no longer says /{words}/: update this check with it"))
            continue
        found = [g for mm in re.finditer(theirs, text) for g in mm.groups() if g is not None]
        said = list(m.groups())
        ok = all(s in found or any(f.startswith(s) or s.startswith(f) for f in found) for s in said)
        out.append((what, ok, f"README {', '.join(said)}; {path}: {', '.join(found[:12]) or 'no match'}"))
    return out


def check(readme: str | None = None, out: Path | None = None) -> list[tuple[str, bool, str]]:
    readme = readme if readme is not None else (ROOT / "README.md").read_text()
    with tempfile.TemporaryDirectory() as tmp:
        runs = Runs(out or Path(tmp))
        return check_figures(readme, runs) + check_cited(readme)


def main() -> int:
    results = check()
    for what, ok, detail in results:
        print(f"{'ok ' if ok else 'BAD'} {what}: {detail}")
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
