"""Arguments several commands share, and the one place ``--arch`` becomes a ``Machine``."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Callable

from twill.errors import InputError
from twill.machine.model import Machine, known, load_machine


def add_arch(p: argparse.ArgumentParser, help_: str = "target GPU: its machine model") -> None:
    """``--arch``, its choices the machine files shipped. Checked when the command runs, so a wrong
    name is one error line (argparse's choices print the whole usage)."""
    names = known()
    p.add_argument("--arch", required=True, metavar="{" + ",".join(names) + "}", help=help_)


def machine(args: argparse.Namespace) -> Machine:
    """The machine model ``--arch`` names: resolved once per run and passed down from here."""
    return load_machine(args.arch)


def pair(s: str) -> tuple[str, str]:
    """``NAME=VALUE`` -> (NAME, VALUE), for ``--arg`` and ``--const``."""
    if "=" not in s:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, found {s!r}")
    k, v = s.split("=", 1)
    return k.strip(), v.strip()


def add_kernel_args(p: argparse.ArgumentParser) -> None:
    """How to pick and specialise the kernel when its file does not say (TWILL_SPEC, autotune configs)."""
    p.add_argument("--kernel", default=None, metavar="NAME",
                   help="the @triton.jit kernel to extract when the file has several (default: TWILL_SPEC's, "
                        "else the only kernel with a loop)")
    p.add_argument("--loop", type=int, default=None, metavar="N",
                   help="which loop: its index in `twill graph`'s listing (default: the innermost loop with the "
                        "most tensor-core ops)")
    p.add_argument("--arg", type=pair, action="append", default=[], metavar="NAME=TYPE",
                   help="a kernel argument's type as Triton's signature writes it, e.g. --arg x_ptr=*fp16, "
                        "--arg n=i32, --arg desc='tensordesc<fp16[128, 64]>' (repeatable)")
    p.add_argument("--const", type=pair, action="append", default=[], metavar="NAME=VALUE",
                   help="a constexpr's value, e.g. --const BLOCK_M=128 (repeatable)")
    p.add_argument("--num-warps", type=int, default=None, metavar="W",
                   help="warps per CTA to compile with (default: TWILL_SPEC's or the first autotune config's)")


def reporter(quiet: bool) -> Callable[[str], None]:
    """Progress lines on stderr, or nothing with ``--quiet``."""
    if quiet:
        return lambda _m: None
    return lambda m: print(m, file=sys.stderr, flush=True)


def check_writable_dir(out: Path) -> None:
    """Refuse, before any work, an output folder that cannot be written (a file in the way, a read-only
    or missing mount, no permission): one ``InputError`` naming it. Folders made for the probe are
    removed again, so a run that fails later leaves nothing behind."""
    missing: list[Path] = []
    p = out
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    try:
        if not p.is_dir():
            raise NotADirectoryError(20, f"{p} is not a folder")
        for d in reversed(missing):
            d.mkdir()
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as e:
        raise InputError("cannot write the outputs", where=str(out), expected="a folder this user may write",
                         found=e.strerror or str(e)) from None
    finally:
        for d in missing:
            try:
                d.rmdir()
            except OSError:
                pass
