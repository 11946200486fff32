"""``twill capture -- COMMAND``: run a program that launches Triton kernels (on a GPU machine) and record
every kernel's specialisation into a spec file that ``twill graph/optimize --spec FILE`` read anywhere."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import twill
from twill.errors import InputError
from twill.ir.capture import ENV_DIR, document, merge
from twill.util import atomic_write

# Put first on the captured program's PYTHONPATH: every Python process it starts installs the hooks
# (twill.ir.capture), then runs the sitecustomize it would have run without twill, if any.
BOOT = '''"""twill capture: install the capture hooks in this process, then chain to any other sitecustomize."""
import importlib, os, sys
if os.environ.get("{env}"):
    try:
        from twill.ir.capture import start_from_env
        start_from_env()
    except Exception as e:
        print("twill capture: not capturing in this process: %s: %s" % (type(e).__name__, e), file=sys.stderr)
_here = os.path.dirname(os.path.abspath(__file__))
_saved, _me = list(sys.path), sys.modules.pop("sitecustomize", None)
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
try:
    importlib.import_module("sitecustomize")
except ImportError:
    pass
finally:
    sys.path[:] = _saved
    if _me is not None:
        sys.modules["sitecustomize"] = _me
'''


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--out", default="twill-spec.json", metavar="FILE",
                   help="the spec file to write (default twill-spec.json)")
    p.add_argument("--append", action="store_true", help="add to FILE's kernels instead of replacing them")
    p.add_argument("command", nargs=argparse.REMAINDER, metavar="-- COMMAND ...",
                   help="the program to run, e.g. -- python bench.py (its own arguments after it)")


def run(args: argparse.Namespace) -> int:
    cmd = [c for c in args.command]
    if cmd and cmd[0] == "--":
        cmd = cmd[1:]
    if not cmd:
        raise InputError("nothing to run", expected="twill capture -- COMMAND (e.g. -- python bench.py)", found="none")
    previous = _read_existing(args.out) if args.append else []
    with tempfile.TemporaryDirectory(prefix="twill-capture-") as tmp:
        boot = Path(tmp) / "boot"
        boot.mkdir()
        (boot / "sitecustomize.py").write_text(BOOT.format(env=ENV_DIR))
        outs = Path(tmp) / "out"
        outs.mkdir()
        root = str(Path(twill.__file__).resolve().parent.parent)
        env = dict(os.environ, **{ENV_DIR: str(outs)})
        env["PYTHONPATH"] = os.pathsep.join([str(boot), root] + [p for p in [os.environ.get("PYTHONPATH")] if p])
        try:
            rc = subprocess.run(cmd, env=env).returncode
        except FileNotFoundError:
            raise InputError("command not found", where="twill capture", found=cmd[0]) from None
        parts = [_read_part(f) for f in sorted(outs.glob("*.json"))]
    entries = merge([previous] + parts)
    if not any(parts):
        raise InputError("no Triton kernel was compiled by the command", where=" ".join(cmd),
                         expected="a program that launches @triton.jit kernels (on a GPU machine)",
                         found=f"exit status {rc}, nothing captured")
    atomic_write(args.out, document(entries))
    for e in entries:
        consts = ", ".join(f"{k}={v}" for k, v in e.get("constexprs", {}).items())
        mark = " (autotuner's choice)" if e.get("chosen") else ""
        print(f"captured {e.get('function')} ({Path(str(e.get('file'))).name}) sm_{e.get('capability')}: "
              f"num_warps={e.get('num_warps')} num_stages={e.get('num_stages')} {consts}; "
              f"{e.get('launches', 0)} launches{mark}")
    print(f"wrote {args.out} ({len(entries)} kernel specialisations)")
    if rc != 0:
        print(f"twill capture: the command exited with status {rc}; what it compiled before is kept", file=sys.stderr)
    return rc


def _read_part(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError):
        return []   # a process that died while writing: its earlier records were written whole, this one not
    return [k for k in data.get("kernels", []) if isinstance(k, dict)]


def _read_existing(path: str) -> list[dict]:
    p = Path(path)
    if not p.exists():
        return []
    return _read_part(p)
