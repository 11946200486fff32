"""Small helpers every layer may use: atomic file writes, hashing, whether an optional module is installed,
a message cut to length without leaving a quote open, and the one function a function calls as a statement."""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import tempfile
import threading
from pathlib import Path

# Held while outputs are being written (``atomic_write``, and a caller's group of files): the command
# line's Ctrl-C handler waits for it before leaving, so an interrupted run leaves every output whole.
WRITING = threading.RLock()


def sha256(data: str | bytes) -> str:
    """Hex SHA-256 of text (UTF-8) or bytes.

    Examples
    --------
    >>> sha256("")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def is_installed(module: str) -> bool:
    """Whether ``module`` (a dotted name such as ``ortools.sat.python.cp_model``) can be imported,
    found without importing it (a solver's import costs time, and on the GPU machine it is absent).

    Examples
    --------
    >>> is_installed("json"), is_installed("no_such_module_twill")
    (True, False)
    """
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):   # a parent package missing, or a malformed name
        return False


_CLOSE = {"(": ")", "[": "]", "{": "}", "`": "`", '"': '"', "'": "'"}


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a word's end, " ..." marking the cut, and every quote,
    backtick or bracket the cut leaves open closed after it, so that a quoted message (Triton's, a
    line of IR, a JSON object) never reads as ending mid-quote. An apostrophe (``doesn't``,
    ``kernels'``) is not a quote.

    Examples
    --------
    >>> clip("op 'pipeliner doesn't know how to predicate this op' for a dot", 40)
    "op 'pipeliner doesn't know how to ...'"
    >>> clip('{"id": "n1", "kind": "dot", "unit": "tc"}', 24)
    '{"id": "n1", "kind" ...}'
    >>> clip("short", 80)
    'short'
    """
    if len(text) <= limit:
        return text
    cut = text[:limit]
    if text[limit].isalnum() and " " in cut:
        cut = cut[:cut.rindex(" ")]
    cut = cut.rstrip(" ,;:")
    open_: list[str] = []
    for i, ch in enumerate(cut):
        before = cut[i - 1] if i else " "
        after = cut[i + 1] if i + 1 < len(cut) else " "
        if open_ and ch == _CLOSE[open_[-1]] and (ch != "'" or not after.isalnum()):
            open_.pop()
        elif ch in _CLOSE and (not open_ or open_[-1] not in "`\"'") and (ch != "'" or not before.isalnum()):
            open_.append(ch)
    return cut + " ..." + "".join(_CLOSE[c] for c in reversed(open_))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write(path: str | Path, data: str | bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same directory and a rename, so a
    reader (or an interrupted run) sees the old file or the new one, never half of one.

    Examples
    --------
    >>> import tempfile, os
    >>> p = atomic_write(os.path.join(tempfile.mkdtemp(), "x.txt"), "hello")
    >>> p.read_text()
    'hello'
    """
    target = Path(path)
    with WRITING:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data.encode() if isinstance(data, str) else data)
            os.chmod(tmp, 0o666 & ~_umask())      # mkstemp makes 0600; a written output is the user's usual mode
            os.replace(tmp, target)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise
    return target


def sole_call(tree: ast.Module, caller: str) -> str | None:
    """The module-level function that module function ``caller`` calls as a statement of its body, when it calls
    exactly one (a generated Gluon kernel of one partition runs that partition so); None otherwise.

    Examples
    --------
    >>> sole_call(ast.parse("def p(): pass\\ndef k():\\n    x = 1\\n    p()\\n"), "k")
    'p'
    """
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    called = [n.value.func.id for n in (funcs[caller].body if caller in funcs else [])
              if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name)
              and n.value.func.id in funcs]
    return called[0] if len(called) == 1 else None


def descendants(pid: int) -> list[int]:
    """The processes ``pid`` started and theirs, read from Linux's /proc (empty where there is none).

    Examples
    --------
    >>> descendants(os.getpid()) == [] or all(isinstance(p, int) for p in descendants(os.getpid()))
    True
    """
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            kids = [int(k) for k in task.read_text().split()]
        except (OSError, ValueError):
            continue
        for kid in kids:
            out += [kid, *descendants(kid)]
    return out
