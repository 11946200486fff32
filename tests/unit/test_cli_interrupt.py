"""Ctrl-C: whatever is running (imports, Triton's compile, a CP-SAT or SCIP solve in C++), the
command stops within a second with one line and exit 130, and writes nothing."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from twill.solve.backends.cpsat_base import cpsat_solver
from twill.solve.backends.scip import scip_model
from twill.solve.problem import SolveOptions

pytestmark = pytest.mark.serial      # CI runs these alone, after the parallel run (.ci/run)

pytest.importorskip("triton")

ROOT = Path(__file__).resolve().parents[2]

# One compute group for the sub-tiled kernel's two sub-tiles: the joint search climbs I for minutes.
LONG = ["optimize", str(ROOT / "kernels/fa3_subtiled.py"), "--arch", "h200", "--num-warps", "4",
        "--warp-groups", "1", "--no-realisability", "--total-time", "600", "--quiet"]


def _children(pid):
    """Process ids whose parent is ``pid`` (from /proc; empty where there is none)."""
    out = []
    for p in Path("/proc").glob("[0-9]*"):
        try:
            if int((p / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                out.append(p.name)
        except (OSError, ValueError, IndexError):
            pass
    return out


def _sigint_default() -> None:
    """In the child: Ctrl-C's default disposition. A shell's background job (`.ci/run &`) starts with SIGINT
    ignored, which its children inherit and Python then leaves ignored: every interrupt test timed out so (session
    48), though a terminal's Ctrl-C reaches twill as a user's would."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _env(tmp_path=None):
    """The child's environment; with ``tmp_path``, its temporary files under ``tmp_path / "tmp"`` (``_left``)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if tmp_path is not None:
        (tmp_path / "tmp").mkdir(exist_ok=True)
        env["TMPDIR"] = str(tmp_path / "tmp")
    return env


def _left(tmp_path):
    """What the interrupted command left in its temporary directory: nothing (``twill.cli._Scratch``; each
    Ctrl-C had left Triton caches and compile directories behind, ``os._exit`` running no cleanup)."""
    return sorted(p.name for p in (tmp_path / "tmp").iterdir())


def _interrupt(tmp_path, argv, after):
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "twill", *argv, "-o", str(out)], cwd=tmp_path, env=_env(tmp_path),
                            preexec_fn=_sigint_default, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(after)
    if proc.poll() is not None:
        pytest.fail(f"finished before the interrupt: exit {proc.returncode}, {proc.stderr.read()[-2000:]!r}")
    t0 = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        stdout, stderr = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("still running 10 s after SIGINT")
    return proc.returncode, time.perf_counter() - t0, stdout, stderr, out


@pytest.mark.parametrize("after", [0.5, 6.0], ids=["starting", "solving"])
def test_sigint_stops_within_a_second_with_one_line_and_writes_nothing(tmp_path, after):
    rc, took, stdout, stderr, out = _interrupt(tmp_path, LONG, after)
    assert rc == 130, (rc, stderr[-2000:])
    assert stderr.splitlines() == ["twill optimize: interrupted"], stderr[-2000:]
    assert took < 1.5, took
    assert not out.exists() and not (tmp_path / "twill-out").exists()
    assert not list(tmp_path.rglob("*.tmp")) and not _left(tmp_path), _left(tmp_path)


# The plain FA kernel on Hopper: about 10 s on a 2-core machine, of which 1.5-6 s is spent solving
# (the joint search, then the Gluon route's solves and ptxas); a Ctrl-C there must not be taken for
# the solver's time limit, nor leave a half-written output.
FA3 = ["optimize", str(ROOT / "kernels/fa3.py"), "--arch", "h100"]


@pytest.mark.parametrize("after", [1.5, 3.0, 4.5, 6.0])
def test_sigint_during_the_solves_of_fa3_on_h100(tmp_path, after):
    """Progress lines (``[   0.5s] ...``) come before the interruption's one line; nothing after it."""
    rc, took, stdout, stderr, out = _interrupt(tmp_path, FA3, after)
    assert rc == 130, (rc, stderr[-2000:])
    *progress, last = stderr.splitlines()
    assert last == "twill optimize: interrupted", stderr[-2000:]
    assert all(line.startswith("[") for line in progress), stderr[-2000:]
    assert took < 1.5, took
    assert "wrote" not in stdout and not out.exists() and not (tmp_path / "twill-out").exists()
    assert not list(tmp_path.rglob("*.tmp")) and not _left(tmp_path), _left(tmp_path)


def test_the_solvers_leave_ctrl_c_to_python():
    """CP-SAT's and SCIP's own SIGINT handlers would end a solve as a time limit does."""
    pytest.importorskip("ortools")
    assert cpsat_solver(SolveOptions()).parameters.catch_sigint_signal is False
    pytest.importorskip("pyscipopt")
    assert scip_model("m", SolveOptions(time_limit=1.0)).getParam("misc/catchctrlc") is False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads child processes from /proc")
def test_sigint_stops_regen_and_its_worker_processes(tmp_path):
    """regen solves in worker processes: they are stopped too, and multiprocessing has nothing to warn
    about; what was stored stays stored (SQLite commits each result)."""
    db = tmp_path / "s.sqlite"
    # the corpus: minutes of work, so the command is still running when interrupted (kernels/ alone took 4.2 s, the
    # test's sleep was 4 s: it finished first on a warm Triton cache)
    argv = ["regen", str(ROOT / "tests" / "corpus"), "--arch", "h100", "--db", str(db), "--jobs", "2", "--quiet"]
    proc = subprocess.Popen([sys.executable, "-m", "twill", *argv], cwd=tmp_path, env=_env(),
                            preexec_fn=_sigint_default, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while len(_children(proc.pid)) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
    time.sleep(2.0)                      # the workers solving
    assert proc.poll() is None
    children = _children(proc.pid)
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=10)
    assert proc.returncode == 130 and stderr.splitlines() == ["twill regen: interrupted"], stderr[-2000:]
    time.sleep(0.5)
    alive = [c for c in children if Path(f"/proc/{c}").exists() and "zombie" not in Path(f"/proc/{c}/status")
             .read_text().lower()]
    assert not alive, alive
    assert sorted(p.name for p in tmp_path.iterdir()) in (["s.sqlite"], ["s.sqlite", "s.sqlite-shm", "s.sqlite-wal"])


def _cmdline(pid):
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None


def _running(pid):
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads child processes from /proc")
def test_sigint_while_a_forked_child_compiles_stops_the_child_too(tmp_path):
    """The Gluon route compiles each candidate in a forked child (an assertion in Triton's C++ aborts
    the child, not twill). The child inherits SIGINT blocked and a copy of stdout and stderr: left
    alive it would compile on after twill's exit and keep a reader of twill's output waiting."""
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "twill", *FA3, "-o", str(out)], cwd=tmp_path, env=_env(tmp_path),
                            preexec_fn=_sigint_default, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline, forked = time.monotonic() + 60, []
    while not forked and proc.poll() is None and time.monotonic() < deadline:
        own = _cmdline(proc.pid)
        forked = [int(c) for c in _children(proc.pid) if own and _cmdline(c) == own]
        time.sleep(0.02)
    if not forked:
        proc.kill()
        proc.communicate()
        pytest.fail("no forked compile child seen")
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=10) == 130
    # SIGKILLed, a process is still R while it exits (its cmdline already empty): give it 0.5 s.
    # Spared, the child compiles on for the 1-3 s a Gluon candidate takes.
    deadline = time.monotonic() + 0.5
    while any(map(_running, forked)) and time.monotonic() < deadline:
        time.sleep(0.02)
    alive = [c for c in forked if _running(c)]
    _, stderr = proc.communicate(timeout=10)
    assert not alive, alive
    assert stderr.decode().splitlines()[-1] == "twill optimize: interrupted"
    assert not out.exists() and not _left(tmp_path), _left(tmp_path)   # the child's compile directory too
