"""The ``twill`` command line: one subcommand per module in ``twill.commands``, imported lazily."""
from __future__ import annotations

import argparse
import importlib
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

from twill.errors import TwillError
from twill.util import WRITING, descendants

# subcommand -> (module, one-line help). Each module has add_arguments(parser) and run(args) -> int.
COMMANDS = {
    "graph": ("twill.commands.graph", "extract a loop's dependence graph from a kernel or a .ttgir"),
    "optimize": ("twill.commands.optimize", "solve for the optimal software pipeline and warp assignment"),
    "machine": ("twill.commands.machine", "show a GPU machine model"),
    "profile": ("twill.commands.profile", "measure per-node latencies with Proton region timing (GPU)"),
    "validate": ("twill.commands.validate", "compile a schedule, check it and time it on the GPU"),
    "view": ("twill.commands.view", "open a schedule's HTML view in the browser"),
    "regen": ("twill.commands.regen", "regenerate stored schedules for kernels x GPUs; --check for drift"),
    "calibrate": ("twill.commands.calibrate", "fit the machine model's costs from measured profiles (twill profile)"),
    "capture": ("twill.commands.capture", "run a program on a GPU and record its Triton kernels' specialisations"),
}


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (``twill optimize: error: ...``), not after the usage."""

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="twill", description="Optimal software pipelining and warp "
                                     "specialization for Triton kernels.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_) in COMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_)
        p.set_defaults(_module=module)
        try:
            importlib.import_module(module).add_arguments(p)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise
            p.set_defaults(_missing=True)
    return parser



def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; Ctrl-C stops it within a fraction of a second, whatever is running.

    The solvers run in C++ for seconds at a time, and Python runs its SIGINT handler only between
    bytecodes, so a Ctrl-C would be seen when the solve ends. Their own handlers are off
    (``catch_sigint_signal`` in ``twill.solve.backends.cpsat_base``, ``misc/catchctrlc`` in the SCIP
    backend): they would end the solve as if its time limit had passed and the command would go on.
    Instead SIGINT is blocked in every thread, the command runs on a worker thread, and this thread
    takes the signal synchronously (``sigtimedwait``): no handler is involved, whoever installed one.
    """
    # Triton 3.9 warns, once a process, that its default for FP fusion will change in 3.10: a note on the user's own
    # launches, not on the kernel twill was given, and a second line beside a refusal that must be one line
    warnings.filterwarnings("ignore", message="TRITON_DEFAULT_FP_FUSION is unset")
    if not _can_guard():
        return _run(argv, {})
    box: dict[str, Any] = {}
    handler = signal.getsignal(signal.SIGINT)
    streams = sys.stdout, sys.stderr
    lock = threading.Lock()
    gates = _Gate(streams[0], lock), _Gate(streams[1], lock)
    sys.stdout, sys.stderr = gates             # type: ignore[assignment]
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})     # inherited by the worker's threads
    scratch = _Scratch()
    try:
        worker = threading.Thread(target=_work, args=(argv, box), name="twill-command", daemon=True)
        worker.start()
        while worker.is_alive():
            if signal.sigtimedwait([signal.SIGINT], 0.1) is not None and worker.is_alive():
                _leave_interrupted(box.get("command"), *gates)
        while signal.sigtimedwait([signal.SIGINT], 0) is not None:    # a Ctrl-C after the work ended
            pass
    finally:
        scratch.close()
        signal.signal(signal.SIGINT, handler)    # as it was, whatever a library left installed
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
        sys.stdout, sys.stderr = streams
        for gate in gates:
            gate.release()
    if "raised" in box:
        raise box["raised"]
    return int(box["rc"])


class _Scratch:
    """One temporary directory for the command's temporary files and directories (``tempfile``'s, and, through
    ``TMPDIR``, its child processes'): removed when the command ends, and by ``_leave_interrupted``, whose
    ``os._exit`` runs no ``TemporaryDirectory`` cleanup (each Ctrl-C had left Triton caches and compile
    directories in /tmp)."""

    OPEN: list[str] = []

    def __init__(self) -> None:
        self.saved = tempfile.tempdir, os.environ.get("TMPDIR")
        self.path = tempfile.mkdtemp(prefix="twill-run-")
        tempfile.tempdir = os.environ["TMPDIR"] = self.path
        _Scratch.OPEN.append(self.path)

    def close(self) -> None:
        tempfile.tempdir = self.saved[0]
        if self.saved[1] is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = self.saved[1]
        if self.path in _Scratch.OPEN:
            _Scratch.OPEN.remove(self.path)
        shutil.rmtree(self.path, ignore_errors=True)


def _can_guard() -> bool:
    """Whether Ctrl-C can be taken synchronously: POSIX's sigtimedwait, called from the main thread,
    and SIGINT not ignored (a background job started by a non-interactive shell ignores it)."""
    return (hasattr(signal, "sigtimedwait") and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN)


def _work(argv: list[str] | None, box: dict[str, Any]) -> None:
    try:
        box["rc"] = _run(argv, box)
    except BaseException as e:   # noqa: BLE001 - SystemExit from argparse, a bug's traceback: raised in main()
        box["raised"] = e


class _Gate:
    """The stream the command writes to while Ctrl-C may come: writes go through one lock, so that a
    line being printed is finished before the interruption's line and nothing comes after it. ``fd``
    is a copy of the stream's file descriptor taken before the command runs: the interruption's line
    goes there even while Triton's diagnostics are captured (descriptor 2 on a temporary file)."""

    def __init__(self, stream: Any, lock: threading.Lock) -> None:
        self.stream, self.lock = stream, lock
        self.closed = self.partial = False     # partial: the last write did not end its line
        try:
            self.fd: int | None = os.dup(stream.fileno())
        except (OSError, ValueError, AttributeError):   # a stream without a descriptor (a test's capture)
            self.fd = None

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def write(self, text: str) -> int:
        with self.lock:
            if not self.closed and text:
                self.stream.write(text)
                self.partial = not text.endswith("\n")
        return len(text)

    def writelines(self, lines: Any) -> None:
        for text in lines:
            self.write(text)

    def __getattr__(self, name: str) -> Any:      # flush, fileno, isatty, encoding: the stream's
        return getattr(self.stream, name)


def _same_file(a: Any, b: Any) -> bool:
    """Whether two streams write to one file (a terminal, usually)."""
    try:
        return os.path.samestat(os.fstat(a.fileno()), os.fstat(b.fileno()))
    except (OSError, ValueError, AttributeError):
        return False


def _leave_interrupted(command: str | None, out: _Gate, err: _Gate) -> None:
    """One line, then exit 130 at once: an output being written is finished first (``WRITING``, held
    for milliseconds), nothing else the command would print is printed, and the worker processes this
    run started are stopped."""
    import multiprocessing
    import multiprocessing.util

    line = f"twill {command}: interrupted\n" if command else "twill: interrupted\n"
    with err.lock:
        out.closed = err.closed = True
        if err.partial or (out.partial and _same_file(out, err)):   # a line cut before its newline
            line = "\n" + line
        try:
            out.stream.flush()
            err.stream.flush()
            if err.fd is not None:
                os.write(err.fd, line.encode())
            else:
                err.stream.write(line)
                err.stream.flush()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)                       # what C++ or a child process would still print
            os.dup2(null, 2)
        except (OSError, ValueError):
            pass
    WRITING.acquire(timeout=0.5)
    _stop_descendants()
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    if children:
        # What a normal exit does for them: join the children and release the pool's semaphores, so
        # that multiprocessing's resource tracker has no leak to warn about.
        multiprocessing.util._exit_function()
    for path in _Scratch.OPEN:               # what the command's temporary directories' cleanup would have removed
        _remove_now(path)
    os._exit(130)


def _remove_now(path: str, within: float = 0.5) -> None:
    """Remove the scratch directory while the worker thread still runs: moved aside first, so that the worker's next
    ``mkdtemp`` in it fails instead of racing the removal (a compile directory made during ``rmtree`` had left the
    directory behind in one CI run of four, ``test_cli_interrupt``), then removed until it is gone or ``within`` s pass."""
    gone = f"{path}.removing"
    try:
        os.rename(path, gone)
    except OSError:
        gone = path
    deadline = time.monotonic() + within
    while True:
        for p in {gone, path}:
            shutil.rmtree(p, ignore_errors=True)
        if not (os.path.lexists(gone) or os.path.lexists(path)) or time.monotonic() > deadline:
            return
        time.sleep(0.01)


def _stop_descendants() -> None:
    """Kill what this process started outside multiprocessing: the forked child compiling a kernel
    (``twill.ir.triton_hooks.contained``), ptxas. They inherit SIGINT blocked, so a terminal's
    Ctrl-C does not stop them, and the forked child holds copies of our stdout and stderr: a reader
    waiting for their end would wait for the compile. multiprocessing's own processes (workers, its
    resource tracker) are left to multiprocessing, which stops them without a leak to warn about."""
    for pid in descendants(os.getpid()):
        try:
            if b"multiprocessing" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                os.kill(pid, signal.SIGKILL)
        except OSError:          # gone already
            pass


def _run(argv: list[str] | None, box: dict[str, Any]) -> int:
    first = next((a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")), None)
    if first in COMMANDS:        # named before the parser is built (that imports Triton: a Ctrl-C may come)
        box["command"] = first
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:                    # said by the subcommand, as its other flag errors are
        prog = f"twill {args.command}" if getattr(args, "command", None) else "twill"
        parser.exit(2, f"{prog}: error: unrecognized arguments: {' '.join(extra)} (see `{prog} --help`)\n")
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    box["command"] = args.command
    if getattr(args, "_missing", False):
        print(f"twill {args.command}: not available in this build", file=sys.stderr)
        return 2
    try:
        return int(importlib.import_module(args._module).run(args) or 0)
    except TwillError as e:
        print(f"twill {args.command}: error: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print(f"twill {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:          # the reader went away (``twill ... | head``): stop quietly
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
