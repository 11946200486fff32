"""The ``twill`` command line: one subcommand per module in ``twill.commands``, imported lazily."""
from __future__ import annotations

import argparse
import importlib
import sys

from twill.errors import TwillError

# subcommand -> (module, one-line help). Each module has add_arguments(parser) and run(args) -> int.
COMMANDS = {
    "graph": ("twill.commands.graph", "extract a loop's dependence graph from a kernel or a .ttgir"),
    "optimize": ("twill.commands.optimize", "solve for the optimal software pipeline and warp assignment"),
    "machine": ("twill.commands.machine", "show a GPU machine model"),
    "profile": ("twill.commands.profile", "measure per-node latencies with Proton region timing (GPU)"),
    "validate": ("twill.commands.validate", "compile a schedule, check it and time it on the GPU"),
    "view": ("twill.commands.view", "open a schedule's HTML view in the browser"),
    "regen": ("twill.commands.regen", "regenerate stored schedules for kernels x GPUs; --check for drift"),
    "capture": ("twill.commands.capture", "run a program on a GPU and record its Triton kernels' specialisations"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="twill", description="Optimal software pipelining and warp "
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
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
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
