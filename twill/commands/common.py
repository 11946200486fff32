"""Arguments several commands share, and the one place ``--arch`` becomes a ``Machine``."""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Callable

from twill.ir.spec import DIVISIBLE_SUFFIX, SPEC_ARG, divisible_type
from twill.errors import InputError
from twill.machine.model import Machine, known, load_machine
from twill.util import WRITING


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
    if not k.strip().isidentifier():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE with NAME a kernel parameter, found {s!r}")
    return k.strip(), v.strip()


class SpecAction(argparse.Action):
    """``--spec FILE``: kept as ``args.spec`` and also as the pair ``(SPEC_ARG, FILE)`` in ``--arg``'s list,
    so a command that passes ``--arg`` on as it is carries the spec file with it (``twill.ir.load``
    takes it out)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        pairs = [kv for kv in (getattr(namespace, "arg", None) or []) if kv[0] != SPEC_ARG]
        namespace.arg = pairs + [(SPEC_ARG, str(values))]


def loop_selector(s: str) -> int | str:
    """``--loop``: an index (``2``) or a source line (``:38``, ``kernel.py:38``)."""
    s = s.strip()
    if s.lstrip("-").isdigit():
        return int(s)
    if ":" in s and s.rsplit(":", 1)[1].isdigit():
        return s
    raise argparse.ArgumentTypeError(f"expected N (a loop index) or :LINE / FILE:LINE, found {s!r}")
def arg_pair(s: str) -> tuple[str, str]:
    """``--arg NAME=TYPE``, TYPE checked against the installed Triton's own type parser before any
    compile (``fp16*`` would otherwise surface as Triton failing to compile the kernel)."""
    from triton.language import str_to_ty

    name, ty = pair(s)
    if ty.endswith(DIVISIBLE_SUFFIX) and not divisible_type(ty.removesuffix(DIVISIBLE_SUFFIX)):
        raise argparse.ArgumentTypeError(f"{name}={ty}: only an integer or a pointer can be divisible by 16 "
                                         f"(expected e.g. i32{DIVISIBLE_SUFFIX})")
    try:
        str_to_ty(ty.removesuffix(DIVISIBLE_SUFFIX), None)
    except Exception:   # noqa: BLE001 - KeyError, IndexError, ValueError: Triton's parser just fails
        raise argparse.ArgumentTypeError(
            f"{name}={ty}: not a Triton signature type (expected e.g. *fp16, *bf16, i32, i32:16 (divisible by 16), "
            f"fp32, 'tensordesc<fp16[128, 64]>' or constexpr)") from None
    return name, ty


def const_pair(s: str) -> tuple[str, str]:
    """``--const NAME=VALUE``: an int, a float, True/False, None (an optional pointer launched as None), a Triton
    dtype (``tl.float16``) or a quoted string (``'relu'``, passed on unquoted); anything else is refused here rather
    than deep inside Triton's code generator."""
    import triton.language as tl

    name, v = pair(s)
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        return name, v[1:-1]
    for conv in (int, float):
        try:
            conv(v)
            return name, v
        except ValueError:
            pass
    if v in ("True", "False", "None") or isinstance(getattr(tl, v.removeprefix("tl."), None), tl.dtype):
        return name, v
    raise argparse.ArgumentTypeError(f"{name}={v}: not a constexpr value (expected an int, a float, True, False or "
                                     "None, a dtype such as tl.float16, or a quoted string such as \"'relu'\")")


def add_kernel_args(p: argparse.ArgumentParser) -> None:
    """How to pick and specialise the kernel when its file does not say (TWILL_SPEC, autotune configs)."""
    p.add_argument("--kernel", default=None, metavar="NAME",
                   help="the @triton.jit kernel to extract when the file has several (default: TWILL_SPEC's, "
                        "else the only kernel with a loop)")
    p.add_argument("--loop", type=loop_selector, default=None, metavar="N|:LINE",
                   help="which loop: its index in `twill graph`'s listing, or :LINE (FILE:LINE) the source line of "
                        "its for statement (default: the innermost loop with the most tensor-core, then memory work)")
    p.add_argument("--spec", action=SpecAction, default=None, metavar="FILE",
                   help="a specialisation captured from a real launch (`twill capture -- python script.py` on a "
                        "GPU machine): the kernels' argument types, constexprs, num_warps and num_stages")
    p.add_argument("--arg", type=arg_pair, action="append", default=[], metavar="NAME=TYPE",
                   help="a kernel argument's type as Triton's signature writes it, e.g. --arg x_ptr=*fp16, "
                        "--arg n=i32, --arg n=i32:16 (a launch passes it divisible by 16), "
                        "--arg desc='tensordesc<fp16[128, 64]>' (repeatable; pointers are taken as 16-byte aligned, "
                        "as Triton's launcher specialises them)")
    p.add_argument("--const", type=const_pair, action="append", default=[], metavar="NAME=VALUE",
                   help="a constexpr's value: an int, float, True/False, a dtype (tl.float16) or a quoted string, "
                        "e.g. --const BLOCK_M=128; on a run-time argument, the value a launch specialises it to, "
                        "as Triton does an integer equal to 1: --const stride_xk=1 (repeatable)")
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
    removed again, so a run that fails later leaves nothing behind; the probe holds ``WRITING``, so a
    Ctrl-C during it waits until they are gone."""
    with WRITING:
        _probe_dir(out)


def _probe_dir(out: Path) -> None:
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
