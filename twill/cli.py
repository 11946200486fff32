"""The ``twill`` command line: one subcommand per module in ``twill.commands``, imported lazily."""
from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
from typing import Any

from twill.errors import TwillError
from twill.util import WRITING

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

    The solvers run in C++ and install their own SIGINT handlers for the length of a solve (CP-SAT
    stops the solve and returns what it has, then resets SIGINT to the default action; SCIP stops
    too), so Python's handler would see a Ctrl-C late, never, or kill the process without a word.
    Instead SIGINT is blocked in every thread, the command runs on a worker thread, and this thread
    takes the signal synchronously (``sigtimedwait``): no handler is involved, whoever installed one.
    """
    if not _can_guard():
        return _run(argv, {})
    box: dict[str, Any] = {}
    handler = signal.getsignal(signal.SIGINT)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})     # inherited by the worker's threads
    try:
        worker = threading.Thread(target=_work, args=(argv, box), name="twill-command", daemon=True)
        worker.start()
        while worker.is_alive():
            if signal.sigtimedwait([signal.SIGINT], 0.1) is not None and worker.is_alive():
                _leave_interrupted(box.get("command"))
        while signal.sigtimedwait([signal.SIGINT], 0) is not None:    # a Ctrl-C after the work ended
            pass
    finally:
        signal.signal(signal.SIGINT, handler)    # a CP-SAT solve leaves SIGINT at its default action
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    if "raised" in box:
        raise box["raised"]
    return int(box["rc"])


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


def _leave_interrupted(command: str | None) -> None:
    """One line, then exit 130 at once: an output being written is finished first (``WRITING``, held
    for milliseconds), nothing else the command would print is printed, and the worker processes this
    run started are stopped."""
    import multiprocessing
    import multiprocessing.util

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    print(f"twill {command}: interrupted" if command else "twill: interrupted", file=sys.stderr, flush=True)
    sys.stdout = sys.stderr = open(os.devnull, "w")      # the worker's later prints go nowhere
    WRITING.acquire(timeout=0.5)
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    if children:
        # What a normal exit does for them: join the children and release the pool's semaphores, so
        # that multiprocessing's resource tracker has no leak to warn about.
        multiprocessing.util._exit_function()
    os._exit(130)


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
