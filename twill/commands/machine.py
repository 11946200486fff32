"""``twill machine show NAME``: a machine model with the source of every constant."""
from __future__ import annotations

import argparse

from twill.errors import InputError
from twill.machine.model import known, load_machine, show


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("show", "list"))
    p.add_argument("name", nargs="?", default=None)


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        print("\n".join(known()))
        return 0
    if not args.name:
        raise InputError("which machine?", expected="twill machine show " + " | ".join(known()), found="no name")
    print(show(load_machine(args.name)), end="")
    return 0
