"""How long ``twill optimize`` takes to stop after Ctrl-C, sent at several points of a run (no GPU needed).

    python bench/interrupt_latency.py [KERNEL] [--arch h100] [--at 2,3,...,15]

For each AT (seconds after the start) one ``twill optimize KERNEL --arch ARCH`` is started, sent SIGINT at AT, and
timed until it has exited and closed its output (what a reader of its output waits for). Prints one line per AT: the
exit code, the seconds from SIGINT to the end of output, and the processes the run had started that were still running
then (a forked compile, ptxas: each should be gone). The default kernel is the README's (kernels/fa3.py).
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from twill.util import descendants  # noqa: E402


def _running(pid: int) -> bool:
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return False


def one(kernel: str, arch: str, at: float) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryDirectory(prefix="twill-interrupt-") as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "twill", "optimize", kernel, "--arch", arch, "-o",
                                 str(Path(tmp) / "out")], cwd=tmp, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        time.sleep(at)
        if proc.poll() is not None:
            return f"at {at:5.1f} s: finished before the interrupt (exit {proc.returncode})"
        started = descendants(proc.pid)
        t0 = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        took = time.perf_counter() - t0
        time.sleep(0.5)
        alive = [p for p in started if _running(p)]
        last = (err.strip().splitlines() or [""])[-1]
        return (f"at {at:5.1f} s: exit {proc.returncode}, output closed {took:5.2f} s after SIGINT, "
                f"{len(started)} process(es) it had started, {len(alive)} still running; last line: {last!r}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernel", nargs="?", default=str(ROOT / "kernels/fa3.py"))
    ap.add_argument("--arch", default="h100")
    ap.add_argument("--at", default=",".join(str(x) for x in range(2, 16)))
    a = ap.parse_args()
    if not Path("/proc/self/task").exists():
        print("bench/interrupt_latency.py: reads the run's processes from /proc (Linux)", file=sys.stderr)
        return 2
    if not Path(a.kernel).is_file():
        print(f"bench/interrupt_latency.py: no kernel file {a.kernel!r} (expected a .py with a Triton kernel)", file=sys.stderr)
        return 2
    try:
        ats = [float(x) for x in a.at.split(",") if x.strip()]
    except ValueError:
        print(f"bench/interrupt_latency.py: --at takes seconds separated by commas, found {a.at!r}", file=sys.stderr)
        return 2
    for at in ats:
        print(one(a.kernel, a.arch, at), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
